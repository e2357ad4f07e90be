//! The heap of a large one-shot job (`convert`): backed by huge pages where the system grants
//! them on request.
//!
//! A 10 000-rule conversion touches about 20 MB of heap. In 4 KiB pages that is 5 000 page
//! faults: a third of the conversion's time went to the kernel.

/// Input size from which a job's heap is worth [`grow_in_huge_pages`]: below it there are few
/// faults to save (1 000 rules, 190 KiB, took the same time with and without; 3 000 rules,
/// 560 KiB, 10 ms instead of 12).
pub const LARGE_INPUT: u64 = 256 << 10;

/// Makes glibc's heap grow in large steps and asks the kernel to back it with transparent huge
/// pages (`MADV_HUGEPAGE`; honoured when `/sys/kernel/mm/transparent_hugepage/enabled` is
/// `always` or `madvise`). Memory not touched costs nothing. Only for a process about to do a
/// large job and exit: never on the `run` path, whose heap is a few pages.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn grow_in_huge_pages() {
    const STEP: usize = 64 << 20;
    const HUGE: usize = 2 << 20;
    // SAFETY: mallopt and sbrk(0) only set and read allocator parameters; madvise gets a
    // range inside the heap glibc has just grown, aligned to huge pages.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, STEP as libc::c_int);
        // Blocks up to glibc's largest threshold come from the heap, not a mapping each.
        libc::mallopt(libc::M_MMAP_THRESHOLD, (STEP / 2) as libc::c_int);
        libc::mallopt(libc::M_TRIM_THRESHOLD, STEP as libc::c_int);
        let before = libc::sbrk(0) as usize;
        // One allocation larger than what is left on top makes glibc grow the heap by STEP.
        let probe = std::hint::black_box(libc::malloc(HUGE));
        libc::free(probe);
        let after = libc::sbrk(0) as usize;
        let start = before.next_multiple_of(HUGE);
        let end = after & !(HUGE - 1);
        if end > start {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn grow_in_huge_pages() {}
