//! What a handler left writing to its pipes: drained in a process of its own after hookx has
//! read the answer, until the handler's own deadline.
//!
//! A handler that ends while something it started still holds its stdout or stderr (`npm
//! install &`, a build, a dev server that logs) is answered [`super::PIPE_GRACE`] after its end.
//! Closing hookx's read ends then would kill that process at its next write (SIGPIPE: a handler
//! gets the default disposition), where the agent the hook was written for reads on: Claude Code
//! 2.1.332 reads while the output flows (a child writing for 4 s held the session's start 4 s,
//! live), Gemini CLI 0.61.0 and Qwen Code 0.24.4 read to EOF (bundles), Codex to EOF within the
//! timeout (source). hookx does not wait for it (it would hold the agent); it hands the read
//! ends to a drainer that reads and drops until EOF or the deadline (attacks row 1475).

use rustix::fd::{AsRawFd, OwnedFd};
use std::time::Instant;

/// Hands `pipes` (the read ends still open) to a drainer that reads them until each reaches
/// EOF or `until` comes. Nothing is done when none is open or the time is up; where no process
/// can be started the pipes close, as before.
pub(super) fn hand_over(pipes: [Option<OwnedFd>; 2], until: Option<Instant>) {
    let left = until.map(|at| at.saturating_duration_since(Instant::now()));
    if pipes.iter().all(Option::is_none) || left.is_some_and(|l| l.is_zero()) {
        return;
    }
    let fds = pipes
        .each_ref()
        .map(|p| p.as_ref().map_or(-1, |fd| fd.as_raw_fd()));
    // SAFETY: the child only makes async-signal-safe system calls (fork, setsid, signal, dup2,
    // close, poll, read, clock_gettime through `Instant`) and ends with `_exit`: it allocates
    // nothing and takes no lock another thread could hold.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // SAFETY: as above.
        unsafe { drainer(fds, until) }
    }
    if pid > 0 {
        // The first child ends at once (its child drains): reaped here, no zombie is left.
        let mut status = 0;
        // SAFETY: waits for our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
    }
}

/// The forked child: forks the drainer (a grandchild, reparented at once) and ends.
///
/// # Safety
/// Called in a forked child only.
unsafe fn drainer(fds: [i32; 2], until: Option<Instant>) -> ! {
    // SAFETY: async-signal-safe calls in a forked child; see `hand_over`.
    unsafe {
        if libc::fork() != 0 {
            libc::_exit(0);
        }
        // Out of the host's session and group: nothing the host does to hookx's reaches it,
        // as nothing reaches the process it drains for. hookx's own handlers (which would
        // kill the handlers' groups) are not this process's.
        libc::setsid();
        for signal in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
            libc::signal(signal, libc::SIG_DFL);
        }
        // The pipes onto 0 and 1, every other descriptor closed: a copy of the host's stdout
        // would keep the host from EOF, a copy of a claim's file its lock.
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
        for (slot, fd) in fds.iter().enumerate() {
            let from = if *fd >= 0 { *fd } else { null };
            if from >= 0 {
                libc::dup2(from, slot as i32);
            }
        }
        close_from(2);
        let mut polled = [0, 1].map(|fd| libc::pollfd {
            fd: if fds[fd as usize] >= 0 { fd } else { -1 },
            events: libc::POLLIN,
            revents: 0,
        });
        let mut buf = [0u8; 16 * 1024];
        while polled.iter().any(|p| p.fd >= 0) {
            let wait = match until {
                None => -1,
                Some(at) => {
                    let left = at.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        break;
                    }
                    i32::try_from(left.as_millis().max(1)).unwrap_or(i32::MAX)
                }
            };
            let ready = libc::poll(polled.as_mut_ptr(), polled.len() as libc::nfds_t, wait);
            if ready < 0 && !interrupted() {
                break;
            }
            for p in polled.iter_mut().filter(|p| p.fd >= 0 && p.revents != 0) {
                let n = libc::read(p.fd, buf.as_mut_ptr().cast(), buf.len());
                if n == 0 || (n < 0 && !interrupted()) {
                    libc::close(p.fd);
                    p.fd = -1;
                }
            }
        }
        libc::_exit(0)
    }
}

/// Whether the last call failed with EINTR (reading `errno` allocates nothing).
fn interrupted() -> bool {
    std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
}

/// Closes every descriptor from `first` on.
///
/// # Safety
/// In the forked drainer only: nothing else uses the descriptors.
unsafe fn close_from(first: i32) {
    // SAFETY: see above.
    unsafe {
        #[cfg(target_os = "linux")]
        if libc::syscall(libc::SYS_close_range, first as u32, u32::MAX, 0) == 0 {
            return;
        }
        let top = match libc::sysconf(libc::_SC_OPEN_MAX) {
            n if n > 0 => n.min(65_536) as i32,
            _ => 1024,
        };
        for fd in first..top {
            libc::close(fd);
        }
    }
}
