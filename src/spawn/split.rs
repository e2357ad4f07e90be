//! hookx in two processes, so that it can answer its host before every handler has ended.
//!
//! A host reads a hook's answer when the process it started exits and its stdout and stderr
//! reach EOF, and kills it past its time limit. Handlers are children of the process that
//! started them, which must wait for them. So before starting them, hookx forks
//! ([`split`]): the worker (the child) starts and waits for the handlers; the process the host
//! started waits only for the worker's answer, prints it and exits with its code. The worker
//! never holds the host's descriptors (its stdin, stdout and stderr are `/dev/null` from the
//! start, and the answer travels through a pipe of its own), so once the answer is out the
//! host sees EOF and the exit, while the worker goes on, in a session of its own, until its
//! handlers have ended within their own timeouts.
//!
//! The fork happens on the main thread, before any handler starts. Other threads (an
//! abandoned regex worker, see `crate::model::bounded`) do not exist in the child; the
//! allocator is fork-safe (glibc takes its locks across `fork`), and the worker takes no lock
//! another thread could have held (it prints nothing, and only the main thread starts
//! processes).

use super::{OVERSLEPT, WORKER};
use rustix::event::{PollFd, PollFlags, Timespec, poll};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Which half of hookx this is after [`split`].
pub enum Split {
    /// The process the host started: the worker's answer, or `None` when the worker ended or
    /// ran past the bound without one (it is then told to stop).
    Host(Option<Answer>),
    /// The worker: it starts the handlers, answers once through [`Answerer::answer`] and
    /// goes on until they have ended.
    Worker(Answerer),
    /// No second process (out of processes or descriptors): hookx goes on as one.
    Unavailable,
}

/// An answer for the host: what to print and the exit code.
#[derive(Debug, PartialEq, Eq)]
pub struct Answer {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub code: i32,
}

/// The worker's end of the answer's pipe.
pub struct Answerer {
    pipe: OwnedFd,
}

impl Answerer {
    /// Leaves the host's session and process group, then hands the answer to the host's
    /// process, which prints it and exits: nothing the host does to them once its hook has
    /// ended reaches this process or the handlers it runs past the answer (attacks row 1831:
    /// left after the answer, a host that kills the group as soon as its hook ends, as Qwen
    /// Code does on quit, could kill this process first, and its guardian ended them). Until
    /// then it stays in the group, so that a host's kill before its answer ends it.
    pub fn answer(self, answer: &Answer) {
        let _ = rustix::process::setsid();
        self.send(answer);
        super::test_delay("HOOKX_TEST_ANSWERED_DELAY_MS");
    }

    /// Writes the answer and closes the pipe.
    fn send(self, answer: &Answer) {
        let mut message = Vec::with_capacity(HEADER + answer.stdout.len() + answer.stderr.len());
        message.extend_from_slice(&answer.code.to_le_bytes());
        message.extend_from_slice(&(answer.stdout.len() as u64).to_le_bytes());
        message.extend_from_slice(&(answer.stderr.len() as u64).to_le_bytes());
        message.extend_from_slice(&answer.stdout);
        message.extend_from_slice(&answer.stderr);
        let mut rest = &message[..];
        while !rest.is_empty() {
            match rustix::io::write(&self.pipe, rest) {
                Ok(n) => rest = &rest[n..],
                Err(rustix::io::Errno::INTR) => {}
                // The host's process is gone (killed): nobody to answer.
                Err(_) => break,
            }
        }
        drop(self.pipe);
    }
}

/// Bytes before the answer's own: its exit code and the lengths of its two streams.
const HEADER: usize = 4 + 8 + 8;

/// How long the host's process waits for the worker's answer: until `at` (the worker's due
/// time, and `grace` after it), or, where it was stopped past `at`, `grace` from when it runs
/// again.
#[derive(Clone, Copy, Debug)]
pub struct Bound {
    pub at: Instant,
    pub grace: Duration,
}

/// Forks hookx in two (see the module). In the host's process, waits for the worker's answer
/// until `bound` at the latest.
pub fn split(bound: Option<Bound>) -> Split {
    use std::io::Write;
    // Nothing buffered may be printed twice.
    let _ = std::io::stdout().flush();
    let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    else {
        return Split::Unavailable;
    };
    let Some((read, write)) = pipe() else {
        return Split::Unavailable;
    };
    // A host's signal before the worker is recorded would leave it running its handlers
    // (seen under load: the worker had started both before this process ran again). The worker
    // starts with the count copied, and lets go of it on its own.
    let forked = super::holding_termination(|| {
        // SAFETY: the child goes on as a copy of this (main) thread alone; see the module for
        // why what it does after is safe.
        let pid = unsafe { libc::fork() };
        if pid > 0 {
            super::test_delay("HOOKX_TEST_SPLIT_DELAY_MS");
            WORKER.store(pid, Ordering::SeqCst);
        }
        pid
    });
    match forked {
        -1 => Split::Unavailable,
        0 => {
            drop(read);
            for fd in 0..=2 {
                // SAFETY: dup2 onto the standard descriptors, which this process owns.
                unsafe { libc::dup2(null.as_raw_fd(), fd) };
            }
            drop(null);
            Split::Worker(Answerer { pipe: write })
        }
        pid => {
            drop(write);
            let answer = receive(&read, bound);
            if answer.is_none() {
                // Past the bound, or it died: whatever it still runs is stopped.
                if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
                }
            }
            WORKER.store(0, Ordering::SeqCst);
            Split::Host(answer)
        }
    }
}

/// A pipe whose ends are closed on `exec`: no handler inherits the answer's pipe.
fn pipe() -> Option<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe writes two new descriptors into `fds`.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: both are new descriptors this process owns from here on.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    for fd in [&read, &write] {
        rustix::io::fcntl_setfd(fd, rustix::io::FdFlags::CLOEXEC).ok()?;
    }
    Some((read, write))
}

/// The whole answer, read until the worker closes its end; `None` when it is cut short or
/// `bound` passes first. A bound that passed while this process was stopped (a host's Ctrl-Z
/// or `SIGSTOP` of hookx's group) passed for the worker too, whose handlers, in groups of their
/// own, may have answered meanwhile: the worker, due at once, gets the grace again from now
/// (attacks row 1260: a block so answered was lost to the failure policy's exit 1).
fn receive(pipe: &OwnedFd, mut bound: Option<Bound>) -> Option<Answer> {
    let mut message = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    loop {
        let now = Instant::now();
        if let Some(b) = bound.as_mut()
            && now >= b.at
        {
            if now - b.at <= OVERSLEPT {
                return None;
            }
            b.at = now + b.grace;
        }
        let left = bound.map(|b| b.at.saturating_duration_since(now));
        let timeout = left.and_then(|l| Timespec::try_from(l).ok());
        let mut fds = [PollFd::new(pipe, PollFlags::IN)];
        match poll(&mut fds, timeout.as_ref()) {
            Ok(0) | Err(rustix::io::Errno::INTR) => continue,
            Ok(_) => {}
            Err(_) => return None,
        }
        match rustix::io::read(pipe, &mut chunk) {
            Ok(0) => break,
            Ok(n) => message.extend_from_slice(&chunk[..n]),
            Err(rustix::io::Errno::INTR | rustix::io::Errno::AGAIN) => {}
            Err(_) => return None,
        }
    }
    parse(&message)
}

fn parse(message: &[u8]) -> Option<Answer> {
    let code = i32::from_le_bytes(message.get(0..4)?.try_into().ok()?);
    let out = usize::try_from(u64::from_le_bytes(message.get(4..12)?.try_into().ok()?)).ok()?;
    let err = usize::try_from(u64::from_le_bytes(message.get(12..20)?.try_into().ok()?)).ok()?;
    let body = &message[HEADER..];
    if body.len() != out.checked_add(err)? {
        return None;
    }
    Some(Answer {
        stdout: body[..out].to_vec(),
        stderr: body[out..].to_vec(),
        code,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_read_back_whole_or_not_at_all() {
        let answer = Answer {
            stdout: b"{\"a\":1}".to_vec(),
            stderr: b"note\n".to_vec(),
            code: 2,
        };
        let (read, write) = pipe().unwrap();
        let writer = std::thread::spawn(move || Answerer { pipe: write }.send(&answer));
        let got = receive(&read, None).unwrap();
        writer.join().unwrap();
        assert_eq!(got.stdout, b"{\"a\":1}");
        assert_eq!(got.stderr, b"note\n");
        assert_eq!(got.code, 2);
        // Cut short: no answer.
        let mut message = 2i32.to_le_bytes().to_vec();
        message.extend_from_slice(&5u64.to_le_bytes());
        message.extend_from_slice(&0u64.to_le_bytes());
        message.extend_from_slice(b"abc");
        assert_eq!(parse(&message), None);
        assert_eq!(parse(&[1, 2]), None);
    }
}
