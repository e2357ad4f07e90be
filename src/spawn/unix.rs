//! The Unix runner: every handler of a batch in one `poll(2)` loop on the calling thread.
//!
//! Each turn of the loop reaps what has exited, kills what is past its timeout, then sleeps in
//! `poll` until a pipe is ready, a child exits (its pidfd, on Linux) or the next deadline.

use super::{
    Capture, Exit, Finished, LiveGroup, Naps, OUTPUT_CAP, OVERSLEPT, PIPE_GRACE, REAP_BOUND, Spawn,
    Step, TERM_GRACE, exit_of, not_started, shell_command, spawn_failure,
};
use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;
use std::collections::VecDeque;
use std::os::fd::{AsFd, OwnedFd};
use std::process::Child;
use std::time::Instant;

/// Bytes read from a pipe per wake-up: one ready stream cannot starve the others.
const CHUNK: usize = 64 * 1024;

/// A batch of handlers run in parallel (at most [`concurrency_cap`] at once) or one after
/// another, reported one [`Step`] at a time; see [`super::Batch`].
pub(super) struct Batch<'a> {
    specs: &'a [Spawn],
    /// Stdin given in place of a spec's own before it starts ([`Batch::set_stdin`]).
    stdins: Vec<Option<Vec<u8>>>,
    kill_by: Option<Instant>,
    due: Option<Instant>,
    slots: Vec<Slot<'a>>,
    /// The next handler to start.
    next: usize,
    /// No more handler starts.
    stopped: bool,
    cap: usize,
    /// Handlers that ended and were not reported yet, in the order they ended.
    ended: VecDeque<usize>,
    /// For children without a pidfd (not Linux, or an old kernel).
    naps: Naps,
}

impl<'a> Batch<'a> {
    pub(super) fn new(
        specs: &'a [Spawn],
        parallel: bool,
        kill_by: Option<Instant>,
        due: Option<Instant>,
    ) -> Batch<'a> {
        Batch {
            specs,
            stdins: specs.iter().map(|_| None).collect(),
            kill_by,
            due,
            slots: specs.iter().map(|_| Slot::Waiting).collect(),
            next: 0,
            stopped: false,
            cap: if parallel { concurrency_cap() } else { 1 },
            ended: VecDeque::new(),
            naps: Naps::new(),
        }
    }

    pub(super) fn stop_starting(&mut self) {
        self.stopped = true;
    }

    pub(super) fn set_stdin(&mut self, index: usize, stdin: Vec<u8>) {
        if let (Some(Slot::Waiting), Some(slot)) =
            (self.slots.get(index), self.stdins.get_mut(index))
        {
            *slot = Some(stdin);
        }
    }

    pub(super) fn forget_due(&mut self) {
        self.due = None;
    }

    pub(super) fn is_running(&self, index: usize) -> bool {
        matches!(self.slots.get(index), Some(Slot::Running(_)))
    }

    pub(super) fn is_started(&self, index: usize) -> bool {
        !matches!(self.slots.get(index), Some(Slot::Waiting) | None)
    }

    pub(super) fn next(&mut self) -> Option<Step> {
        loop {
            self.start_more();
            let now = Instant::now();
            for (i, slot) in self.slots.iter_mut().enumerate() {
                if let Slot::Running(handler) = slot {
                    handler.advance(now);
                    if handler.is_done() {
                        let cut = handler.cut_short();
                        *slot = Slot::Done(handler.finish(), cut);
                        self.ended.push_back(i);
                    }
                }
            }
            if let Some(step) = self.next_ended() {
                return Some(step);
            }
            if let Some(due) = self.due
                && now >= due
            {
                // Due while this process did not run (a host stopped hookx's group, attacks
                // row 1260): handlers that ended meanwhile are read before the time is said.
                if now - due <= OVERSLEPT {
                    self.due = None;
                    return Some(Step::Due);
                }
                self.due = Some(now + OVERSLEPT);
            }
            let running: Vec<&mut Handler> = self
                .slots
                .iter_mut()
                .filter_map(|slot| match slot {
                    Slot::Running(handler) => Some(&mut **handler),
                    _ => None,
                })
                .collect();
            if running.is_empty() {
                if self.can_start() {
                    continue;
                }
                return None;
            }
            let mut wake = running.iter().filter_map(|h| h.wake_at()).min();
            if let Some(due) = self.due {
                wake = Some(wake.map_or(due, |at| at.min(due)));
            }
            if running.iter().any(|h| h.needs_polling()) {
                let nap = now + self.naps.next();
                wake = Some(wake.map_or(nap, |at| at.min(nap)));
            }
            wait_for_events(running, wake);
        }
    }

    /// The next handler that ended and was not reported yet, without waiting.
    pub(super) fn next_ended(&mut self) -> Option<Step> {
        let index = self.ended.pop_front()?;
        match std::mem::replace(&mut self.slots[index], Slot::Reported) {
            Slot::Done(finished, cut) => Some(Step::Ended {
                index,
                finished,
                cut,
            }),
            _ => unreachable!("only ended handlers are queued"),
        }
    }

    fn can_start(&self) -> bool {
        !self.stopped && self.next < self.specs.len()
    }

    /// Starts handlers in order while fewer than the cap run (one at a time in order).
    fn start_more(&mut self) {
        let mut running = self
            .slots
            .iter()
            .filter(|s| matches!(s, Slot::Running(_)))
            .count();
        while self.can_start() && running < self.cap {
            let i = self.next;
            let spec = &self.specs[i];
            let start = Instant::now();
            if self.kill_by.is_some_and(|by| start >= by) {
                // The time was spent before its turn: it does not start.
                self.slots[i] = Slot::Done(not_in_time(start), true);
                self.ended.push_back(i);
                self.next += 1;
                continue;
            }
            match Handler::start(spec, self.stdins[i].take(), self.kill_by) {
                Ok(handler) => {
                    self.slots[i] = Slot::Running(Box::new(handler));
                    running += 1;
                }
                // Out of descriptors or processes: it starts once a running one has ended,
                // rather than losing its answer (a deny, maybe).
                Err((_, true)) if running > 0 => break,
                Err((finished, _)) => {
                    self.slots[i] = Slot::Done(finished, false);
                    self.ended.push_back(i);
                }
            }
            self.next += 1;
        }
    }
}

/// A handler whose turn came after the batch's time was up: as one killed at once.
fn not_in_time(start: Instant) -> Finished {
    Finished {
        exit: Exit::TimedOut,
        stdout: Vec::new(),
        stderr: Vec::new(),
        stdout_truncated: false,
        stderr_truncated: false,
        elapsed: start.elapsed(),
    }
}

/// How many handlers run at once: each holds up to four descriptors in hookx (three pipes and a
/// pidfd) and briefly eight while it starts, so the cap follows the descriptor limit, keeping
/// room for hookx's own files; never more than [`MAX_CONCURRENT`].
fn concurrency_cap() -> usize {
    let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile)
        .current
        .unwrap_or(u64::MAX);
    let per_handler = 8;
    let reserve = 32;
    usize::try_from(limit.saturating_sub(reserve) / per_handler)
        .unwrap_or(usize::MAX)
        .clamp(1, MAX_CONCURRENT)
}

/// Most handlers running at once whatever the limits: past this, more processes only compete
/// for the same cores.
const MAX_CONCURRENT: usize = 64;

enum Slot<'a> {
    Waiting,
    Running(Box<Handler<'a>>),
    /// Ended, and whether the batch's `kill_by` cut it short of its own timeout.
    Done(Finished, bool),
    Reported,
}

/// One handler process and the ends of its pipes that hookx holds.
struct Handler<'a> {
    start: Instant,
    child: Child,
    /// Its process group, recorded for the guardian while it runs.
    live: LiveGroup,
    /// Readable once the child exits, so that the loop wakes at once (Linux ≥ 5.3).
    pidfd: Option<OwnedFd>,
    stdin: Option<OwnedFd>,
    /// What it is given on stdin, and how much of it was written.
    input: std::borrow::Cow<'a, [u8]>,
    fed: usize,
    stdout: Stream,
    stderr: Stream,
    state: State,
    /// Its deadline is the batch's `kill_by`, sooner than its own timeout would end it.
    cut_by_batch: bool,
    /// It ran past its deadline and was killed.
    timed_out: bool,
    /// When its own timeout ends (not the batch's `kill_by`): how long what it left running may
    /// write to its pipes.
    own_deadline: Option<Instant>,
}

enum State {
    Running {
        deadline: Option<Instant>,
    },
    /// Past its timeout; the group was sent SIGTERM, so that a `hookx exec` in it kills its own
    /// handler's group. SIGKILL follows once the group is empty or at `kill_at`. `exited`: the
    /// child itself is reaped already.
    Terminating {
        kill_at: Instant,
        exited: bool,
    },
    /// Past its timeout; the group was sent SIGKILL and the child is not reaped yet.
    Killed {
        reap_by: Instant,
    },
    /// Reaped (or given up on); its pipes are drained until EOF or `grace_until`.
    Ended {
        exit: Exit,
        grace_until: Instant,
    },
}

struct Stream {
    pipe: Option<OwnedFd>,
    capture: Capture,
}

impl Stream {
    fn new(pipe: Option<impl Into<OwnedFd>>) -> Stream {
        let pipe = pipe.map(Into::into);
        if let Some(fd) = &pipe {
            let _ = rustix::io::ioctl_fionbio(fd, true);
        }
        Stream {
            pipe,
            capture: Capture::default(),
        }
    }

    /// One read, straight into what is kept: a zeroed scratch buffer cost `hookx run` a page
    /// fault per page. Past [`OUTPUT_CAP`], into one on the stack, and dropped. EOF or an error
    /// closes the pipe; "would block" waits for the next wake-up.
    fn read(&mut self) {
        let Some(fd) = &self.pipe else { return };
        let kept = &mut self.capture.kept;
        let room = OUTPUT_CAP.saturating_sub(kept.len());
        let read = if room == 0 {
            let mut drain = [0u8; CHUNK];
            rustix::io::read(fd, &mut drain).inspect(|&n| self.capture.truncated |= n > 0)
        } else {
            kept.reserve(CHUNK.min(room));
            let read = rustix::io::read(fd, rustix::buffer::spare_capacity(&mut *kept));
            if kept.len() > OUTPUT_CAP {
                kept.truncate(OUTPUT_CAP);
                self.capture.truncated = true;
            }
            read
        };
        match read {
            Ok(0) => self.pipe = None,
            Ok(_) | Err(Errno::AGAIN | Errno::INTR) => {}
            Err(_) => self.pipe = None,
        }
    }
}

impl<'a> Handler<'a> {
    /// Starts the handler; on failure, how it ended and whether it was for want of descriptors,
    /// processes or memory (worth another try once a running handler has ended).
    /// `stdin_given`: given in place of the spec's own.
    fn start(
        spec: &'a Spawn,
        stdin_given: Option<Vec<u8>>,
        kill_by: Option<Instant>,
    ) -> Result<Handler<'a>, (Finished, bool)> {
        let start = Instant::now();
        let (mut child, live) = super::spawn_live(&mut shell_command(spec)).map_err(|err| {
            let exhausted = matches!(
                Errno::from_io_error(&err),
                Some(Errno::MFILE | Errno::NFILE | Errno::AGAIN | Errno::NOMEM)
            );
            (not_started(start, spawn_failure(spec, &err)), exhausted)
        })?;
        let pidfd = pidfd_of(&child);
        let stdin: Option<OwnedFd> = child.stdin.take().map(Into::into);
        if let Some(fd) = &stdin {
            let _ = rustix::io::ioctl_fionbio(fd, true);
        }
        // A timeout too large to add is no timeout at all, not a panic.
        let own = start.checked_add(spec.timeout);
        let cut_by_batch = kill_by.is_some_and(|by| own.is_none_or(|own| by < own));
        let deadline = match cut_by_batch {
            true => kill_by,
            false => own,
        };
        let mut handler = Handler {
            start,
            stdout: Stream::new(child.stdout.take()),
            stderr: Stream::new(child.stderr.take()),
            child,
            live,
            pidfd,
            stdin,
            input: match stdin_given {
                Some(given) => std::borrow::Cow::Owned(given),
                None => std::borrow::Cow::Borrowed(&spec.stdin),
            },
            fed: 0,
            state: State::Running { deadline },
            cut_by_batch,
            timed_out: false,
            own_deadline: own,
        };
        // The usual payload fits in the empty pipe: written now, it costs no wake-up.
        handler.feed();
        Ok(handler)
    }

    /// Reaps the child if it exited, kills it past its deadline, closes pipes past their grace.
    fn advance(&mut self, now: Instant) {
        if !matches!(
            self.state,
            State::Ended { .. } | State::Terminating { exited: true, .. }
        ) {
            match self.child.try_wait() {
                Ok(Some(status)) => match &mut self.state {
                    State::Terminating { exited, .. } => *exited = true,
                    State::Killed { .. } => self.end(Exit::TimedOut, now + PIPE_GRACE),
                    _ => self.end(exit_of(status), now + PIPE_GRACE),
                },
                Ok(None) => {}
                // Someone else reaped it (e.g. SIGCHLD set to be ignored).
                Err(err) => self.end(
                    Exit::FailedToStart(format!("lost track of the handler: {err}")),
                    now + PIPE_GRACE,
                ),
            }
        }
        match self.state {
            State::Running {
                deadline: Some(deadline),
            } if now >= deadline => {
                self.timed_out = true;
                self.signal_group(rustix::process::Signal::TERM);
                self.state = State::Terminating {
                    kill_at: now + TERM_GRACE,
                    exited: false,
                };
            }
            State::Terminating { kill_at, exited } if now >= kill_at || !self.group_alive() => {
                self.signal_group(rustix::process::Signal::KILL);
                if exited {
                    self.end(Exit::TimedOut, now + PIPE_GRACE);
                } else {
                    self.state = State::Killed {
                        reap_by: now + REAP_BOUND,
                    };
                }
            }
            // Stuck in the kernel: stop waiting, its pid is never reused while unreaped.
            State::Killed { reap_by } if now >= reap_by => self.end(Exit::TimedOut, now),
            // What it started and left holding them writes on, as under its own agent, which
            // reads on: drained elsewhere until its deadline, not killed at its next write.
            State::Ended { grace_until, .. } if now >= grace_until => super::drain::hand_over(
                [self.stdout.pipe.take(), self.stderr.pipe.take()],
                self.own_deadline,
            ),
            _ => {}
        }
    }

    fn end(&mut self, exit: Exit, grace_until: Instant) {
        // Whatever it did not read, it never will.
        self.stdin = None;
        self.pidfd = None;
        self.state = State::Ended { exit, grace_until };
    }

    /// Whether it was killed at the batch's `kill_by`, before its own timeout.
    fn cut_short(&self) -> bool {
        self.timed_out && self.cut_by_batch
    }

    fn is_done(&self) -> bool {
        matches!(self.state, State::Ended { .. })
            && self.stdout.pipe.is_none()
            && self.stderr.pipe.is_none()
    }

    fn finish(&mut self) -> Finished {
        let exit = match &mut self.state {
            State::Ended { exit, .. } => std::mem::replace(exit, Exit::Code(-1)),
            _ => unreachable!("finish is called once the handler ended"),
        };
        Finished {
            exit,
            stdout: std::mem::take(&mut self.stdout.capture.kept),
            stderr: std::mem::take(&mut self.stderr.capture.kept),
            stdout_truncated: self.stdout.capture.truncated,
            stderr_truncated: self.stderr.capture.truncated,
            elapsed: self.start.elapsed(),
        }
    }

    /// The next moment something happens to this handler without any event.
    fn wake_at(&self) -> Option<Instant> {
        match self.state {
            State::Running { deadline } => deadline,
            State::Terminating { kill_at, .. } => Some(kill_at),
            State::Killed { reap_by } => Some(reap_by),
            State::Ended { grace_until, .. } => Some(grace_until),
        }
    }

    /// No pidfd tells us when it exits: the loop must look now and then.
    fn needs_polling(&self) -> bool {
        // A terminating group gives no sign when its last process is gone.
        matches!(self.state, State::Terminating { .. })
            || (self.pidfd.is_none() && !matches!(self.state, State::Ended { .. }))
    }

    /// Writes what the pipe takes; closes stdin once all is written or the child stops reading.
    fn feed(&mut self) {
        let Some(fd) = &self.stdin else { return };
        while self.fed < self.input.len() {
            match rustix::io::write(fd, &self.input[self.fed..]) {
                Ok(n) => self.fed += n,
                Err(Errno::INTR) => {}
                Err(Errno::AGAIN) => return,
                // EPIPE: it closed stdin or exited; that is its business (Rust ignores SIGPIPE).
                Err(_) => break,
            }
        }
        self.stdin = None;
    }

    /// A signal to the whole group: the shell and everything it started that stayed in the
    /// group. The group id stays the group's while any member lives, reaped child or not.
    fn signal_group(&mut self, signal: rustix::process::Signal) {
        match self.live.group() {
            Some(group) => {
                let _ = rustix::process::kill_process_group(group, signal);
            }
            None => {
                let _ = self.child.kill();
            }
        }
    }

    /// Whether any process of the group is left (a zombie not yet reaped counts).
    fn group_alive(&self) -> bool {
        self.live
            .group()
            .is_some_and(|group| rustix::process::test_kill_process_group(group).is_ok())
    }
}

fn pid_of(child: &Child) -> Option<rustix::process::Pid> {
    rustix::process::Pid::from_raw(i32::try_from(child.id()).ok()?)
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn pidfd_of(child: &Child) -> Option<OwnedFd> {
    rustix::process::pidfd_open(pid_of(child)?, rustix::process::PidfdFlags::empty()).ok()
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn pidfd_of(_: &Child) -> Option<OwnedFd> {
    None
}

/// Which pipe of which handler a poll entry watches.
#[derive(Clone, Copy)]
enum Watch {
    Stdin,
    Stdout,
    Stderr,
    Exit,
}

/// Sleeps until some handler's pipe or pidfd is ready or `wake` comes, then serves what is
/// ready: reads output, writes input. Reaping is left to the next turn's `advance`.
fn wait_for_events(mut running: Vec<&mut Handler>, wake: Option<Instant>) {
    let mut watched = Vec::new();
    let mut fds = Vec::new();
    for (i, handler) in running.iter().enumerate() {
        let entries = [
            (Watch::Stdin, handler.stdin.as_ref(), PollFlags::OUT),
            (Watch::Stdout, handler.stdout.pipe.as_ref(), PollFlags::IN),
            (Watch::Stderr, handler.stderr.pipe.as_ref(), PollFlags::IN),
            (Watch::Exit, handler.pidfd.as_ref(), PollFlags::IN),
        ];
        for (watch, fd, flags) in entries {
            if let Some(fd) = fd {
                watched.push((i, watch));
                fds.push(PollFd::from_borrowed_fd(fd.as_fd(), flags));
            }
        }
    }
    // A wait too long for a timespec is no timeout at all.
    let timeout =
        wake.and_then(|at| Timespec::try_from(at.saturating_duration_since(Instant::now())).ok());
    // EINTR or a failed poll: the next turn looks at every handler again.
    if poll(&mut fds, timeout.as_ref()).unwrap_or(0) == 0 {
        return;
    }
    let ready: Vec<(usize, Watch)> = watched
        .into_iter()
        .zip(&fds)
        .filter(|(_, fd)| !fd.revents().is_empty())
        .map(|(w, _)| w)
        .collect();
    drop(fds);
    for (i, watch) in ready {
        let handler = &mut *running[i];
        match watch {
            Watch::Stdin => handler.feed(),
            Watch::Stdout => handler.stdout.read(),
            Watch::Stderr => handler.stderr.read(),
            Watch::Exit => {}
        }
    }
}
