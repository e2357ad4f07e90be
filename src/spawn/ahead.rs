//! A handler's process group, made and recorded before the handler exists (attacks row 803).
//!
//! A handler recorded only once `spawn` returns has already run: a SIGKILL of hookx's group in
//! between left it to itself, in a group nobody had recorded, and hookx's guardian cannot kill
//! what it was not told of. So the group comes first: a short-lived process (`clone` with
//! `CLONE_VM|CLONE_VFORK`, hookx waiting, no page table copied) makes a group of its own and
//! exits; its id goes into `LIVE_GROUPS`; the handler's shell then joins that group before its
//! `exec`. Until it has joined, the shell is in hookx's group, which such a kill reaches. The
//! group outlives its first process (a zombie until hookx reaps it just after the handler
//! started), and while any member lives its id is not reused. A kill of hookx's pid alone, not
//! its group, can still fall between the shell's start and its joining (its own few system
//! calls before `exec`). The shell is not its group's leader: `kill -- -$$` in a handler names
//! no group (`kill 0` still names its own; attacks row 1004).

use rustix::process::{Pid, WaitOptions, setpgid, waitpid};
use std::sync::atomic::{AtomicBool, Ordering};

/// Bytes of stack for the group's first process: two system calls, or one of hookx's own
/// signal handlers (it shares them until it exits), which reads atomics and sends signals.
const STACK: usize = 32 * 1024;

#[repr(C, align(16))]
struct Stack([u8; STACK]);

/// A new process group, empty but for a zombie that [`reap`] ends; `None` where it could not be
/// made (the caller starts its handler in a group of the handler's own, as before).
pub(super) fn make() -> Option<Pid> {
    let made = AtomicBool::new(false);
    let mut stack = Stack([0; STACK]);
    let top = stack.0.as_mut_ptr().wrapping_add(STACK);
    // SAFETY: `CLONE_VFORK` keeps this thread waiting until the child has exited, so `stack`
    // (on this thread's stack) and `made` outlive it and nothing else touches them meanwhile.
    // `lead` makes two raw system calls (rustix's) and an atomic store: no allocation, no lock,
    // no `errno`.
    let pid = unsafe {
        libc::clone(
            lead,
            top.cast(),
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&raw const made).cast_mut().cast(),
        )
    };
    let pid = Pid::from_raw(pid)?;
    if made.load(Ordering::SeqCst) {
        Some(pid)
    } else {
        reap(pid);
        None
    }
}

/// Ends the group's first process, once a handler has joined the group (or none will).
pub(super) fn reap(group: Pid) {
    let _ = waitpid(Some(group), WaitOptions::empty());
}

/// The group's first process: leads a group of its own, says whether it could, and exits.
extern "C" fn lead(made: *mut libc::c_void) -> libc::c_int {
    let ok = setpgid(None, None).is_ok();
    // SAFETY: `made` is the `AtomicBool` `make` passed, alive until this process has exited.
    unsafe { (*made.cast::<AtomicBool>()).store(ok, Ordering::SeqCst) };
    0
}
