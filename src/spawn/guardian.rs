//! The guardian: a process per hookx that kills the running handlers' process groups when hookx
//! dies, however it dies.
//!
//! A host may SIGKILL hookx or its process group (Qwen Code 0.24.4 does when the user quits it
//! while a hook runs): hookx cannot catch that, and its handlers run in groups of their own,
//! with nobody left to enforce their timeouts (attacks rows 705, 712, 713). A parent-death
//! signal on each handler reaches the handler's own process only, not what its shell forks, and
//! setting it needs code in the child before `exec`, which makes std fork where it used
//! `posix_spawn` (a page-table copy per handler, BENCHMARKS.md).
//!
//! So at its first handler start hookx starts one more process: `clone(CLONE_VM)`, sharing
//! hookx's memory (no page table copied: the cost of a thread), in a process group of its own
//! (a kill of hookx's group misses it), holding no descriptor of hookx's but a pidfd of hookx.
//! It sleeps in `poll` until hookx has exited, then SIGKILLs every group still in
//! [`LIVE_GROUPS`], which it reads in the memory it shares with hookx: a group is there from
//! before its handler's start until hookx has reaped it. At a normal exit the table is empty
//! (a handler still running then, where hookx could not split, is killed, as before) and the
//! guardian just ends. A split's worker has a guardian of its own, which lets its detached
//! handlers run within their own timeouts after the answer: it waits for them.
//!
//! A handler's group is recorded before the handler exists (`super::ahead`, attacks row 803):
//! a group recorded only once its handler had started left the guardian blind in between.

use super::LIVE_GROUPS;
use rustix::event::{PollFd, PollFlags, poll};
use rustix::process::{Pid, PidfdFlags, Signal, getpid, kill_process_group, pidfd_open, setpgid};
use std::cell::UnsafeCell;
use std::os::fd::{AsRawFd, BorrowedFd, RawFd};
use std::sync::atomic::{AtomicI32, Ordering};

/// The process that last looked for its guardian: a forked worker is another process and
/// starts its own.
static GUARDED: AtomicI32 = AtomicI32::new(0);

/// Bytes of the guardian's stack: it calls `poll` and `kill` and reads an array.
const STACK: usize = 64 * 1024;

/// The guardian's stack, in hookx's memory: one guardian per process uses it, and hookx never
/// touches it.
#[repr(C, align(16))]
struct Stack(UnsafeCell<[u8; STACK]>);

// SAFETY: only the guardian's own code uses these bytes, as its stack; Rust code never reads
// or writes them.
unsafe impl Sync for Stack {}

static GUARDIAN_STACK: Stack = Stack(UnsafeCell::new([0; STACK]));

/// The process whose guardian runs: [`GUARDED`] once its start succeeded.
static RUNNING: AtomicI32 = AtomicI32::new(0);

/// Starts this process's guardian, once per process (the first call after a fork starts the
/// worker's own), and says whether one runs. Without one (no pidfd, an old kernel, under
/// valgrind) handlers run as they did, unguarded against a SIGKILL.
pub(super) fn ensure() -> bool {
    let me = getpid();
    let raw = me.as_raw_nonzero().get();
    if GUARDED.swap(raw, Ordering::SeqCst) != raw && start(me) {
        RUNNING.store(raw, Ordering::SeqCst);
    }
    RUNNING.load(Ordering::SeqCst) == raw
}

/// Whether the guardian started.
fn start(me: Pid) -> bool {
    // Valgrind runs no `clone` but a thread's or a fork's (it stops the program on this one),
    // and measures hookx's own instructions only: BENCHMARKS' callgrind rows run unguarded.
    // Asked of valgrind itself: a variable such as `LD_PRELOAD` is one a project sets.
    if on_valgrind() {
        return false;
    }
    // Closed on `exec` (pidfds always are): no handler holds it.
    let Ok(pidfd) = pidfd_open(me, PidfdFlags::empty()) else {
        return false;
    };
    // The guardian closes every descriptor but its pidfd with `close_range` (Linux 5.9): tried
    // here, on nothing, so that the guardian's own call cannot fail. It must not fail there:
    // glibc's `syscall` sets `errno` on failure, and the guardian shares hookx's thread-local
    // `errno`.
    // SAFETY: close_range on an empty range (first > every descriptor) closes nothing.
    if unsafe { libc::syscall(libc::SYS_close_range, u32::MAX, u32::MAX, 0) } != 0 {
        return false;
    }
    let top = GUARDIAN_STACK.0.get().cast::<u8>().wrapping_add(STACK);
    // SAFETY: the child shares this memory and runs `guard` alone on GUARDIAN_STACK, which
    // nothing else uses (one guardian per process: `ensure`). `guard` makes raw system calls
    // only (rustix's, and one checked `syscall` above): no allocation, no lock, no `errno`,
    // nothing of hookx's that another thread could hold. Its descriptor table is a copy.
    let pid = unsafe {
        libc::clone(
            guard,
            top.cast(),
            libc::CLONE_VM | libc::SIGCHLD,
            pidfd.as_raw_fd() as usize as *mut libc::c_void,
        )
    };
    let Some(pid) = Pid::from_raw(pid) else {
        return false;
    };
    // Out of hookx's group before any handler starts: a host killing hookx's group (the
    // guardian's one reason to be) misses it.
    let _ = setpgid(Some(pid), Some(pid));
    true
}

/// Valgrind's own answer to "am I running on you" (`RUNNING_ON_VALGRIND` of valgrind.h, amd64):
/// its special instruction sequence, which natively changes nothing and leaves the default, 0.
#[cfg(target_arch = "x86_64")]
fn on_valgrind() -> bool {
    // `VG_USERREQ__RUNNING_ON_VALGRIND`, then five unused arguments.
    let request: [u64; 6] = [0x1001, 0, 0, 0, 0, 0];
    let answer: u64;
    // SAFETY: four rotations of `rdi` by 128 bits in all (it ends as it began) and an exchange
    // of `rbx` with itself: natively nothing changes but the flags. Valgrind reads `request`
    // through `rax` and writes its answer to `rdx`.
    unsafe {
        std::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") request.as_ptr(),
            inout("rdx") 0u64 => answer,
            inout("rdi") 0u64 => _,
            options(nostack),
        );
    }
    answer != 0
}

/// Valgrind's request is written for amd64 only here: elsewhere hookx starts its guardian.
#[cfg(not(target_arch = "x86_64"))]
fn on_valgrind() -> bool {
    false
}

/// The guardian's body: waits for hookx (`arg`: its pidfd) to exit, then kills the groups it
/// left running.
extern "C" fn guard(arg: *mut libc::c_void) -> libc::c_int {
    let fd = arg as usize as RawFd;
    // Nothing of hookx's stays open here: not the host's pipes (the host waits for their EOF),
    // not the worker's answer pipe, not a lock. `start` checked that close_range works.
    // SAFETY: closes descriptors of this process's own table (a copy of hookx's).
    unsafe {
        if fd > 0 {
            libc::syscall(libc::SYS_close_range, 0u32, fd as u32 - 1, 0);
        }
        libc::syscall(libc::SYS_close_range, fd as u32 + 1, u32::MAX, 0);
    }
    // SAFETY: `fd` is the pidfd `start` passed, open in this table until the guardian ends.
    let hookx = unsafe { BorrowedFd::borrow_raw(fd) };
    loop {
        let mut fds = [PollFd::new(&hookx, PollFlags::IN)];
        match poll(&mut fds, None) {
            Ok(n) if n > 0 => break,
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            // Cannot wait: hookx may be alive, so nothing is killed.
            Err(_) => return 1,
        }
    }
    for slot in &LIVE_GROUPS {
        if let Some(group) = Pid::from_raw(slot.load(Ordering::SeqCst)) {
            let _ = kill_process_group(group, Signal::KILL);
        }
    }
    0
}
