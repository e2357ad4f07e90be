//! Running handler processes: shell, stdin, env, timeout, process group, capped output.
//!
//! No async runtime and, on Unix, no threads: one `poll(2)` loop feeds every running handler's
//! stdin, drains its stdout and stderr and notices its exit (through a pidfd on Linux). A fast
//! handler costs one process start and a few system calls. Every wait is bounded, so a handler
//! that misbehaves (hangs, floods its output, leaves a background child holding its pipes,
//! never reads stdin) cannot hang hookx.

#[cfg(target_os = "linux")]
mod ahead;
mod ancestry;
#[cfg(unix)]
mod drain;
#[cfg(target_os = "linux")]
mod guardian;
pub use ancestry::{ancestor_args, is_this_program_above, nearest_ancestor_running};

// Also built in Unix test builds, so that its tests run on CI.
#[cfg(unix)]
pub mod split;
#[cfg(any(not(unix), test))]
mod threads;
#[cfg(unix)]
mod unix;

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct Spawn {
    /// One shell command line, run with `/bin/sh -c` (Unix) or PowerShell (Windows).
    pub command_line: String,
    /// Bytes written to the child's stdin, then stdin is closed.
    pub stdin: Vec<u8>,
    /// Added to (or overriding) the inherited environment.
    pub env: Vec<(String, String)>,
    /// Removed from the inherited environment (before `env` is added).
    pub env_remove: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub timeout: Duration,
}

/// How a handler process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    Code(i32),
    /// Killed by a signal (not by hookx's timeout).
    Signal(i32),
    /// Ran past its timeout; its whole process group was killed.
    TimedOut,
    /// Could not be started (no shell, bad cwd, …).
    FailedToStart(String),
}

/// A finished handler: how it ended and what it printed (each stream capped at [`OUTPUT_CAP`]).
#[derive(Clone, Debug)]
pub struct Finished {
    pub exit: Exit,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub stdout_truncated: bool,
    pub stderr_truncated: bool,
    pub elapsed: Duration,
}

/// The longest a handler killed at its deadline keeps the run from ending: the group's
/// [`TERM_GRACE`] and then its pipes' [`PIPE_GRACE`]. Whoever must answer by a deadline and
/// kills a handler to do so keeps this much before it where it can.
pub const KILL_TAKES: Duration = TERM_GRACE.saturating_add(PIPE_GRACE);

/// Bytes kept of each output stream; the rest is read and discarded. A handler answer cut here
/// cannot be read whole: `crate::protocol::answer` reads it by hookx's failure policy (a deny
/// on a tool-call guard, a non-blocking error elsewhere), never as the cut text.
pub const OUTPUT_CAP: usize = 4 * 1024 * 1024;

/// After the handler ends, how long its pipes may stay open: a background child it forked can
/// hold them forever, and its output is not the handler's answer.
const PIPE_GRACE: Duration = Duration::from_millis(100);

/// How long a timed-out group has between SIGTERM and SIGKILL: a `hookx exec` in it uses it to
/// kill its own handler's group, which the outer SIGKILL cannot reach. Cut short the moment the
/// group is empty.
const TERM_GRACE: Duration = Duration::from_secs(1);

/// Past a time it was to act at by more than this when it runs again, hookx was not running
/// (a host stopped its process group, or starved it): a wake-up from `poll` takes far less.
const OVERSLEPT: Duration = Duration::from_millis(50);

/// How long a killed group may take to die before we stop waiting to reap it (a process stuck in
/// the kernel ignores even SIGKILL).
const REAP_BOUND: Duration = Duration::from_secs(2);

/// The waits between two looks at a child that cannot wake us up: 100 µs, doubling up to
/// 10 ms, which bounds the latency polling adds.
struct Naps(Duration);

impl Naps {
    fn new() -> Naps {
        Naps(Duration::from_micros(100))
    }

    fn next(&mut self) -> Duration {
        let nap = self.0;
        self.0 = (nap * 2).min(Duration::from_millis(10));
        nap
    }
}

/// Runs one handler to completion or timeout.
pub fn run(spec: &Spawn) -> Finished {
    run_all(std::slice::from_ref(spec), true)
        .pop()
        .expect("one result per handler")
}

/// Runs several handlers, in parallel or in order; results in the order of `specs`.
pub fn run_all(specs: &[Spawn], parallel: bool) -> Vec<Finished> {
    let mut done: Vec<Option<Finished>> = specs.iter().map(|_| None).collect();
    let mut batch = Batch::new(specs, parallel, None, None);
    while let Some(step) = batch.next() {
        if let Step::Ended {
            index, finished, ..
        } = step
        {
            done[index] = Some(finished);
        }
    }
    done.into_iter()
        .map(|f| f.expect("every handler of a batch ends"))
        .collect()
}

/// What happened next in a [`Batch`].
#[derive(Debug)]
pub enum Step {
    /// Handler `index` ended. `cut`: it was killed at the batch's `kill_by`, before its own
    /// timeout (or its turn came after it and it never started).
    Ended {
        index: usize,
        finished: Finished,
        cut: bool,
    },
    /// The batch's `due` time came, with handlers still running (or still to start).
    Due,
}

/// Handlers run for one event, reported as they end: in parallel (as many at once as the
/// descriptor limit allows) or one after another, in order, each started when the one before
/// it ended. Two optional times: `kill_by`, by which every handler is killed whatever its own
/// timeout (a handler whose turn comes later does not start); and `due`, when [`Batch::next`]
/// says [`Step::Due`] once and leaves the handlers running within their own timeouts.
pub struct Batch<'a> {
    #[cfg(unix)]
    inner: unix::Batch<'a>,
    #[cfg(not(unix))]
    inner: portable::Batch<'a>,
}

impl<'a> Batch<'a> {
    pub fn new(
        specs: &'a [Spawn],
        parallel: bool,
        kill_by: Option<Instant>,
        due: Option<Instant>,
    ) -> Batch<'a> {
        #[cfg(unix)]
        let inner = unix::Batch::new(specs, parallel, kill_by, due);
        #[cfg(not(unix))]
        let inner = portable::Batch::new(specs, parallel, kill_by, due);
        Batch { inner }
    }

    /// The next handler that ends, or the due time; `None` once every handler that was to
    /// run has ended. In order, the next handler starts only on the call after the one that
    /// reported its predecessor's end, so that [`Batch::stop_starting`] can come between.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Step> {
        self.inner.next()
    }

    /// A handler that has ended already and was not reported yet, if any: no waiting, no
    /// start.
    pub fn next_ended(&mut self) -> Option<Step> {
        self.inner.next_ended()
    }

    /// Starts no more handlers (those running go on).
    pub fn stop_starting(&mut self) {
        self.inner.stop_starting();
    }

    /// Gives handler `index` `stdin` in place of its spec's, if it has not started: a host
    /// that runs its hooks one after another hands a later one the call as an earlier one
    /// rewrote it.
    pub fn set_stdin(&mut self, index: usize, stdin: Vec<u8>) {
        self.inner.set_stdin(index, stdin);
    }

    /// Whether handler `index` has started and not ended.
    pub fn is_running(&self, index: usize) -> bool {
        self.inner.is_running(index)
    }

    /// Whether handler `index` has started (or was given up before it could).
    pub fn is_started(&self, index: usize) -> bool {
        self.inner.is_started(index)
    }

    /// Runs the rest to their end (each within its own timeout), their results dropped.
    pub fn finish(mut self) {
        self.inner.forget_due();
        while self.inner.next().is_some() {}
    }
}

/// The batch on the portable runner: no due time (nothing answers a host before the end),
/// each handler killed by `kill_by` at the latest.
#[cfg(not(unix))]
mod portable {
    use super::{Finished, Instant, Spawn, Step};

    pub(super) struct Batch<'a> {
        specs: &'a [Spawn],
        stdins: std::collections::HashMap<usize, Vec<u8>>,
        parallel: bool,
        kill_by: Option<Instant>,
        next: usize,
        stopped: bool,
        done: std::collections::VecDeque<(usize, Finished, bool)>,
    }

    impl<'a> Batch<'a> {
        pub(super) fn new(
            specs: &'a [Spawn],
            parallel: bool,
            kill_by: Option<Instant>,
            _due: Option<Instant>,
        ) -> Batch<'a> {
            Batch {
                specs,
                stdins: Default::default(),
                parallel,
                kill_by,
                next: 0,
                stopped: false,
                done: Default::default(),
            }
        }

        /// `spec` with its timeout cut to `kill_by`, and whether it was cut.
        fn cut(&self, spec: &Spawn) -> (Spawn, bool) {
            let left = self
                .kill_by
                .map(|by| by.saturating_duration_since(Instant::now()));
            match left {
                Some(left) if left < spec.timeout => (
                    Spawn {
                        timeout: left,
                        ..spec.clone()
                    },
                    true,
                ),
                _ => (spec.clone(), false),
            }
        }

        pub(super) fn next(&mut self) -> Option<Step> {
            if self.done.is_empty() && !self.stopped && self.next < self.specs.len() {
                let end = match self.parallel {
                    true => self.specs.len(),
                    false => self.next + 1,
                };
                let mut cut: Vec<(Spawn, bool)> = self.specs[self.next..end]
                    .iter()
                    .map(|s| self.cut(s))
                    .collect();
                for (k, (spec, _)) in cut.iter_mut().enumerate() {
                    if let Some(stdin) = self.stdins.remove(&(self.next + k)) {
                        spec.stdin = stdin;
                    }
                }
                let specs: Vec<Spawn> = cut.iter().map(|(s, _)| s.clone()).collect();
                let finished = super::threads::run_together(&specs);
                for (k, (f, (_, was_cut))) in finished.into_iter().zip(cut).enumerate() {
                    let cut = was_cut && f.exit == super::Exit::TimedOut;
                    self.done.push_back((self.next + k, f, cut));
                }
                self.next = end;
            }
            let (index, finished, cut) = self.done.pop_front()?;
            Some(Step::Ended {
                index,
                finished,
                cut,
            })
        }

        pub(super) fn next_ended(&mut self) -> Option<Step> {
            let (index, finished, cut) = self.done.pop_front()?;
            Some(Step::Ended {
                index,
                finished,
                cut,
            })
        }

        pub(super) fn stop_starting(&mut self) {
            self.stopped = true;
        }

        pub(super) fn set_stdin(&mut self, index: usize, stdin: Vec<u8>) {
            if index >= self.next {
                self.stdins.insert(index, stdin);
            }
        }

        pub(super) fn forget_due(&mut self) {}

        pub(super) fn is_running(&self, _index: usize) -> bool {
            false
        }

        pub(super) fn is_started(&self, index: usize) -> bool {
            index < self.next
        }
    }
}

/// Most handlers that can run at once and still be killed with hookx: the table is fixed so
/// that the signal handler can read it (atomics only, no lock, no allocation).
const LIVE_SLOTS: usize = 1024;

/// Process groups of handlers still running, so that a host killing hookx (past its own
/// timeout) does not leave them behind: see [`forward_termination`], and on Linux the guardian,
/// which reads them when hookx was killed by a signal it cannot catch. 0 is a free slot.
static LIVE_GROUPS: [AtomicI32; LIVE_SLOTS] = [const { AtomicI32::new(0) }; LIVE_SLOTS];

/// Keeps a handler's group in [`LIVE_GROUPS`] while it runs. Past [`LIVE_SLOTS`] handlers at
/// once, the rest still run and time out, but a signal to hookx does not reach them.
struct LiveGroup {
    slot: Option<usize>,
    /// The group's id: the handler's pid, or on Linux that of the process that made the group
    /// ahead of it (`ahead`).
    group: u32,
}

impl LiveGroup {
    fn register(group: u32) -> LiveGroup {
        let slot = i32::try_from(group).ok().and_then(|id| {
            LIVE_GROUPS.iter().position(|slot| {
                slot.compare_exchange(0, id, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            })
        });
        LiveGroup { slot, group }
    }

    /// The handler's process group.
    #[cfg(unix)]
    fn group(&self) -> Option<rustix::process::Pid> {
        rustix::process::Pid::from_raw(i32::try_from(self.group).ok()?)
    }
}

impl Drop for LiveGroup {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            LIVE_GROUPS[slot].store(0, Ordering::SeqCst);
        }
    }
}

/// Kills the process group of every handler still running (hookx itself is being killed):
/// SIGTERM first, so that a `hookx exec` among them kills its own handler's group, then SIGKILL
/// once every group is empty or [`TERM_GRACE`] has passed. Async-signal-safe: atomic loads,
/// `kill(2)`, `waitpid(2)` and `nanosleep(2)` only.
pub fn kill_live_groups() {
    #[cfg(unix)]
    {
        use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};
        let live = || {
            LIVE_GROUPS
                .iter()
                .filter_map(|slot| Pid::from_raw(slot.load(Ordering::SeqCst)))
        };
        for pid in live() {
            let _ = kill_process_group(pid, Signal::TERM);
        }
        let nap = Duration::from_millis(10);
        for _ in 0..TERM_GRACE.as_millis() / nap.as_millis() {
            // A handler's shell is hookx's child: reaped, its zombie leaves the group.
            for pid in live() {
                let _ = rustix::process::waitpgid(pid, rustix::process::WaitOptions::NOHANG);
            }
            if !live().any(|pid| test_kill_process_group(pid).is_ok()) {
                break;
            }
            std::thread::sleep(nap);
        }
        for pid in live() {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
}

/// Processes being started right now (a handler, or the worker): a termination signal then
/// waits until they are recorded (see [`holding_termination`]), else it would miss one running.
static SPAWNING: AtomicUsize = AtomicUsize::new(0);
/// A termination signal held back while [`SPAWNING`] was not 0; 0 when none.
static DEFERRED: AtomicI32 = AtomicI32::new(0);

/// Runs `start`, which starts a process and records it where [`terminate`] finds it, holding
/// back a host's termination signal until it returns: the process may already run (and start
/// children) before it is recorded, and a signal then would leave them running.
fn holding_termination<T>(start: impl FnOnce() -> T) -> T {
    SPAWNING.fetch_add(1, Ordering::SeqCst);
    let started = start();
    if SPAWNING.fetch_sub(1, Ordering::SeqCst) == 1 {
        let signal = DEFERRED.swap(0, Ordering::SeqCst);
        if signal != 0 {
            terminate(signal);
        }
    }
    started
}

/// Starts a handler's shell in a process group registered in [`LIVE_GROUPS`]: on Linux with a
/// guardian, registered before the shell starts ([`ahead`]); elsewhere just after, a host's
/// termination signal held back between the two.
fn spawn_live(cmd: &mut Command) -> io::Result<(std::process::Child, LiveGroup)> {
    #[cfg(target_os = "linux")]
    let guarded = guardian::ensure();
    holding_termination(|| {
        // Where a guardian watches, the group is recorded before the handler exists, so that
        // nothing the handler runs escapes a SIGKILL of hookx's group.
        #[cfg(target_os = "linux")]
        if guarded && let Some(group) = ahead::make() {
            let live = LiveGroup::register(group.as_raw_nonzero().get().unsigned_abs());
            let spawned = std::os::unix::process::CommandExt::process_group(
                cmd,
                group.as_raw_nonzero().get(),
            )
            .spawn();
            ahead::reap(group);
            return spawned.map(|child| {
                test_delay("HOOKX_TEST_SPAWN_DELAY_MS");
                (child, live)
            });
        }
        cmd.spawn().map(|child| {
            test_delay("HOOKX_TEST_SPAWN_DELAY_MS");
            let live = LiveGroup::register(child.id());
            (child, live)
        })
    })
}

/// Debug builds only: the variable `var` (milliseconds) widens a window a signal can fall
/// into, so that a test can send its signal there: `HOOKX_TEST_SPAWN_DELAY_MS` between a
/// handler's start and its registration, `HOOKX_TEST_SPLIT_DELAY_MS` between the worker's start
/// and its recording, `HOOKX_TEST_ANSWERED_DELAY_MS` after the worker handed its answer over
/// (where a host's kill of its group after its hook ended falls).
fn test_delay(var: &str) {
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var(var).ok().and_then(|v| v.parse().ok()) {
        std::thread::sleep(Duration::from_millis(ms));
    }
    #[cfg(not(debug_assertions))]
    let _ = var;
}

/// The worker of a split hookx ([`split`]), while the process the host started waits for its
/// answer: a signal to that process is passed on to it. 0: none.
#[cfg(unix)]
static WORKER: AtomicI32 = AtomicI32::new(0);

/// Kills the running handlers' groups (and passes `signal` on to a worker, which kills its
/// own), then exits as killed by `signal` would. Async-signal-safe.
fn terminate(signal: i32) -> ! {
    kill_live_groups();
    #[cfg(unix)]
    if let Some(worker) = rustix::process::Pid::from_raw(WORKER.load(Ordering::SeqCst))
        && let Some(signal) = rustix::process::Signal::from_named_raw(signal)
    {
        let _ = rustix::process::kill_process(worker, signal);
    }
    signal_hook::low_level::exit(128 + signal)
}

/// SIGCHLD back to its default; then on SIGTERM, SIGINT or SIGHUP (a host giving up on hookx),
/// kills the running handlers' groups, then exits as killed by that signal would. No thread: the work is done in the
/// signal handler itself. While a handler is being started the signal is held back until its
/// group is registered.
pub fn forward_termination() {
    // A host that ignores SIGCHLD hands that on (an ignored signal stays ignored across
    // `exec`): the kernel would reap the handlers itself, and how each ended (a deny's exit 2)
    // would be lost, with the group a handler joins (`ahead`). Attacks row 1005.
    // SAFETY: the default disposition runs no code of ours.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGCHLD, libc::SIG_DFL);
    }
    #[cfg(unix)]
    for signal in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGHUP,
    ] {
        // SAFETY: the action is async-signal-safe: it reads atomics, calls kill(2), then
        // _exit(2); it neither allocates nor locks.
        let _ = unsafe {
            signal_hook::low_level::register(signal, move || {
                if SPAWNING.load(Ordering::SeqCst) > 0 {
                    DEFERRED.store(signal, Ordering::SeqCst);
                    // Checked again: a start that ended before the store missed it.
                    if SPAWNING.load(Ordering::SeqCst) > 0 {
                        return;
                    }
                }
                terminate(signal);
            })
        };
    }
}

/// What every bash started below a handler (`/bin/sh` is bash on many systems; a Cline script
/// runs with bash) reads before the handler's first command, taken out of what hookx starts:
/// in a hook's environment they come from what the agent hands every hook, a project's
/// settings `env`. `SHELLOPTS`' `noexec` reads a guard's commands and runs none, exit 0
/// (attacks row 788); `BASH_ENV` names a file run first (its `exit 0` ends the guard);
/// `BASHOPTS`' `nullglob` or `failglob` empties an unquoted `[:space:]` (rows 840, 841); and
/// `POSIXLY_CORRECT` starts bash in POSIX mode, where a `source` of a missing file ends the
/// script (row 842). bash exports none of them itself.
#[cfg(unix)]
const BASH_START_UP: [&str; 4] = ["SHELLOPTS", "BASH_ENV", "BASHOPTS", "POSIXLY_CORRECT"];

#[cfg(unix)]
fn shell_command(spec: &Spawn) -> Command {
    use std::os::unix::process::CommandExt;
    // By path: POSIX puts sh there, and a PATH search costs a failed exec per entry before it.
    let mut cmd = Command::new("/bin/sh");
    cmd.arg("-c").arg(&spec.command_line);
    // Its own group, so a timeout kills whatever the handler forked, and only that.
    cmd.process_group(0);
    for var in BASH_START_UP {
        cmd.env_remove(var);
    }
    configure(cmd, spec)
}

#[cfg(windows)]
fn shell_command(spec: &Spawn) -> Command {
    let mut cmd = Command::new("powershell");
    cmd.args(["-NoProfile", "-Command"]).arg(&spec.command_line);
    configure(cmd, spec)
}

fn configure(mut cmd: Command, spec: &Spawn) -> Command {
    for var in &spec.env_remove {
        cmd.env_remove(var);
    }
    cmd.envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // Only another directory than hookx's own needs a `chdir`: one system call less in the
    // child. (It also keeps a static glibc build on std's `posix_spawn` path, which cannot
    // look up `posix_spawn_file_actions_addchdir_np`; so does setting no pre-exec step.)
    if let Some(cwd) = spec.cwd.as_deref().filter(|cwd| !is_current_dir(cwd)) {
        cmd.current_dir(cwd);
    }
    cmd
}

fn is_current_dir(dir: &Path) -> bool {
    std::env::current_dir().is_ok_and(|current| current == dir)
}

/// The OS says only "not found" for a missing cwd and a missing shell alike; name the cwd when
/// it is the culprit, since that is the usual one.
fn spawn_failure(spec: &Spawn, err: &io::Error) -> String {
    let shell = if cfg!(windows) {
        "powershell"
    } else {
        "/bin/sh"
    };
    match &spec.cwd {
        Some(cwd) if !cwd.is_dir() => format!(
            "working directory {} does not exist or is not a directory ({err})",
            cwd.display()
        ),
        _ => format!("cannot start {shell}: {err}"),
    }
}

fn not_started(start: Instant, why: String) -> Finished {
    Finished {
        exit: Exit::FailedToStart(why),
        stdout: Vec::new(),
        stderr: Vec::new(),
        stdout_truncated: false,
        stderr_truncated: false,
        elapsed: start.elapsed(),
    }
}

/// One output stream as read so far: up to [`OUTPUT_CAP`] bytes kept, the rest drained so that
/// a flood neither fills memory nor blocks the child on a full pipe.
#[derive(Default)]
struct Capture {
    kept: Vec<u8>,
    truncated: bool,
}

impl Capture {
    /// The thread runner's copy in (the Unix runner reads straight into `kept`).
    #[cfg(any(not(unix), test))]
    fn keep(&mut self, bytes: &[u8]) {
        let room = OUTPUT_CAP.saturating_sub(self.kept.len());
        let keep = bytes.len().min(room);
        self.kept.extend_from_slice(&bytes[..keep]);
        if keep < bytes.len() {
            self.truncated = true;
        }
    }
}

fn exit_of(status: ExitStatus) -> Exit {
    if let Some(code) = status.code() {
        return Exit::Code(code);
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Exit::Signal(signal);
        }
    }
    // Unreachable in practice: a reaped process either exited or was signalled.
    Exit::Code(-1)
}
