//! Running one handler process: shell, stdin, env, timeout, process group, capped output.
//!
//! Plain threads, no async runtime: a handler costs a few thread starts, and a fast one returns
//! as soon as it exits. Every wait is bounded, so a handler that misbehaves (hangs, floods its
//! output, leaves a background child holding its pipes, never reads stdin) cannot hang hookx.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

/// What to run.
#[derive(Clone, Debug)]
pub struct Spawn {
    /// One shell command line, run with `sh -c` (Unix) or PowerShell (Windows).
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

/// Bytes kept of each output stream; the rest is read and discarded.
pub const OUTPUT_CAP: usize = 4 * 1024 * 1024;

/// After the handler ends, how long its pipes may stay open: a background child it forked can
/// hold them forever, and its output is not the handler's answer.
const PIPE_GRACE: Duration = Duration::from_millis(100);

/// How long a killed group may take to die before we stop waiting to reap it (a process stuck in
/// the kernel ignores even SIGKILL).
const REAP_BOUND: Duration = Duration::from_secs(2);

/// Input up to this size fits in the fresh, empty pipe (no smaller than `PIPE_BUF`), so writing
/// it inline cannot block, and the usual small payload costs no thread.
const INLINE_STDIN: usize = if cfg!(target_os = "linux") { 4096 } else { 512 };

/// Longest nap between two polls of the child, which bounds the latency the poll adds.
const MAX_NAP: Duration = Duration::from_millis(10);

/// Runs one handler to completion or timeout.
pub fn run(spec: &Spawn) -> Finished {
    let start = Instant::now();
    // A timeout too large to add is no timeout at all, not a panic.
    let deadline = start.checked_add(spec.timeout);

    let mut child = match shell_command(spec).spawn() {
        Ok(child) => child,
        Err(err) => return not_started(start, spawn_failure(spec, &err)),
    };
    let _live = LiveGroup::register(child.id());

    // Bounded channels are allocated here, so that the helper threads allocate nothing: a
    // thread's first allocation makes glibc set up a malloc arena for it (a 64 MiB mapping).
    let (done_tx, done_rx) = mpsc::sync_channel(2);
    let stdout = Capture::shared();
    let stderr = Capture::shared();
    if let Err(err) = start_helpers(&mut child, spec, &stdout, &stderr, done_tx) {
        kill_group(&mut child);
        let _ = poll_until(&mut child, Instant::now().checked_add(REAP_BOUND));
        return not_started(start, format!("cannot start a helper thread: {err}"));
    }

    let exit = match wait_until(&mut child, deadline) {
        Waited::Exited(status) => exit_of(status),
        Waited::Deadline => {
            kill_group(&mut child);
            let _ = poll_until(&mut child, Instant::now().checked_add(REAP_BOUND));
            Exit::TimedOut
        }
        Waited::Lost(err) => Exit::FailedToStart(format!("lost track of the handler: {err}")),
    };

    await_readers(&done_rx, 2, Instant::now().checked_add(PIPE_GRACE));
    let (stdout, stdout_truncated) = Capture::take(&stdout);
    let (stderr, stderr_truncated) = Capture::take(&stderr);
    Finished {
        exit,
        stdout,
        stderr,
        stdout_truncated,
        stderr_truncated,
        elapsed: start.elapsed(),
    }
}

/// Process groups of handlers still running, so that a host killing hookx (past its own
/// timeout) does not leave them behind: see [`kill_live_groups`].
static LIVE_GROUPS: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// Keeps a handler's group in [`LIVE_GROUPS`] while it runs.
struct LiveGroup(u32);

impl LiveGroup {
    fn register(pid: u32) -> LiveGroup {
        if let Ok(mut live) = LIVE_GROUPS.lock() {
            live.push(pid);
        }
        LiveGroup(pid)
    }
}

impl Drop for LiveGroup {
    fn drop(&mut self) {
        if let Ok(mut live) = LIVE_GROUPS.lock() {
            live.retain(|p| *p != self.0);
        }
    }
}

/// Kills the process group of every handler still running (hookx itself is being killed).
pub fn kill_live_groups() {
    #[cfg(unix)]
    if let Ok(live) = LIVE_GROUPS.lock() {
        for pid in live.iter() {
            if let Some(pid) = rustix::process::Pid::from_raw(*pid as i32) {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
        }
    }
}

/// On SIGTERM, SIGINT or SIGHUP (a host giving up on hookx), kills the running handlers'
/// groups, then exits as killed by that signal would.
pub fn forward_termination() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP]) else {
            return;
        };
        let _ = thread::Builder::new()
            .name("hookx-signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    kill_live_groups();
                    std::process::exit(128 + signal);
                }
            });
    }
}

/// Runs several handlers, in parallel or in order; results in the order of `specs`.
pub fn run_all(specs: &[Spawn], parallel: bool) -> Vec<Finished> {
    if !parallel || specs.len() < 2 {
        return specs.iter().map(run).collect();
    }
    thread::scope(|scope| {
        // A handler whose thread cannot start runs here instead: slower, never lost.
        let pending: Vec<Result<_, &Spawn>> = specs
            .iter()
            .map(|spec| {
                thread::Builder::new()
                    .name("hookx-handler".into())
                    .spawn_scoped(scope, move || run(spec))
                    .map_err(|_| spec)
            })
            .collect();
        pending
            .into_iter()
            .map(|slot| match slot {
                Ok(handle) => handle.join().unwrap_or_else(|_| Finished {
                    exit: Exit::FailedToStart("the handler's thread panicked".into()),
                    stdout: Vec::new(),
                    stderr: Vec::new(),
                    stdout_truncated: false,
                    stderr_truncated: false,
                    elapsed: Duration::ZERO,
                }),
                Err(spec) => run(spec),
            })
            .collect()
    })
}

#[cfg(unix)]
fn shell_command(spec: &Spawn) -> Command {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(&spec.command_line);
    // Its own group, so a timeout kills whatever the handler forked, and only that.
    cmd.process_group(0);
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
    if let Some(cwd) = &spec.cwd {
        cmd.current_dir(cwd);
    }
    cmd
}

/// The OS says only "not found" for a missing cwd and a missing shell alike; name the cwd when
/// it is the culprit, since that is the usual one.
fn spawn_failure(spec: &Spawn, err: &io::Error) -> String {
    let shell = if cfg!(windows) { "powershell" } else { "sh" };
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

/// Starts the stdin writer and both output readers; the readers report EOF on `done`.
fn start_helpers(
    child: &mut Child,
    spec: &Spawn,
    stdout: &Arc<Mutex<Capture>>,
    stderr: &Arc<Mutex<Capture>>,
    done: SyncSender<()>,
) -> io::Result<()> {
    if let Some(out) = child.stdout.take() {
        let (cap, done) = (Arc::clone(stdout), done.clone());
        thread::Builder::new()
            .name("hookx-stdout".into())
            .spawn(move || pump(out, &cap, &done))?;
    }
    if let Some(err) = child.stderr.take() {
        let (cap, done) = (Arc::clone(stderr), done.clone());
        thread::Builder::new()
            .name("hookx-stderr".into())
            .spawn(move || pump(err, &cap, &done))?;
    }
    if let Some(stdin) = child.stdin.take() {
        if spec.stdin.len() <= INLINE_STDIN {
            feed(stdin, &spec.stdin);
        } else {
            let bytes = spec.stdin.clone();
            thread::Builder::new()
                .name("hookx-stdin".into())
                .spawn(move || feed(stdin, &bytes))?;
        }
    }
    Ok(())
}

/// A handler may close stdin or exit without reading it; the broken pipe that follows is its
/// business, not an error of hookx. (Rust ignores SIGPIPE, so this is an `Err`, not a death.)
fn feed(mut stdin: ChildStdin, bytes: &[u8]) {
    let _ = stdin.write_all(bytes);
}

/// One output stream as read so far.
#[derive(Default)]
struct Capture {
    kept: Vec<u8>,
    truncated: bool,
    /// Set once `run` has returned: a reader still draining a background child's pipe stops
    /// keeping what it reads.
    abandoned: bool,
}

impl Capture {
    fn shared() -> Arc<Mutex<Capture>> {
        Arc::new(Mutex::new(Capture::default()))
    }

    fn take(cap: &Mutex<Capture>) -> (Vec<u8>, bool) {
        let mut cap = lock(cap);
        cap.abandoned = true;
        (std::mem::take(&mut cap.kept), cap.truncated)
    }
}

/// A reader never panics while holding the lock, but poisoning must not turn into a panic here.
fn lock(cap: &Mutex<Capture>) -> MutexGuard<'_, Capture> {
    cap.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Reads to EOF, keeping up to [`OUTPUT_CAP`] bytes: the rest is drained so that a flood neither
/// fills memory nor blocks the child on a full pipe.
fn pump(mut src: impl Read, cap: &Mutex<Capture>, done: &SyncSender<()>) {
    // On the stack: no allocation (see `run`), and nothing to zero but what is used.
    let mut chunk = [0u8; 16 * 1024];
    loop {
        let n = match src.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let mut cap = lock(cap);
        if cap.abandoned {
            continue;
        }
        let room = OUTPUT_CAP.saturating_sub(cap.kept.len());
        let keep = n.min(room);
        cap.kept.extend_from_slice(&chunk[..keep]);
        if keep < n {
            cap.truncated = true;
        }
    }
    let _ = done.send(());
}

/// Waits for `readers` EOFs, or until `until`: past it, whatever was read is the answer.
fn await_readers(done: &Receiver<()>, readers: usize, until: Option<Instant>) {
    for _ in 0..readers {
        let got = match until {
            Some(until) => done.recv_timeout(until.saturating_duration_since(Instant::now())),
            None => done.recv().map_err(RecvTimeoutError::from),
        };
        if got.is_err() {
            return;
        }
    }
}

enum Waited {
    Exited(ExitStatus),
    Deadline,
    /// Waiting failed (someone else reaped the child, e.g. SIGCHLD set to be ignored).
    Lost(io::Error),
}

/// Linux: a thread blocks in `waitid(WNOWAIT)` and wakes us the moment the child exits, adding
/// no latency to a fast handler. WNOWAIT leaves the zombie in place, so its pid (and group id)
/// cannot be reused before we reap it here: killing the group on timeout never hits a stranger.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn wait_until(child: &mut Child, deadline: Option<Instant>) -> Waited {
    use rustix::io::Errno;
    use rustix::process::{WaitId, WaitIdOptions, waitid};

    let Some(pid) = pid_of(child) else {
        return poll_until(child, deadline);
    };
    let (tx, rx) = mpsc::sync_channel::<()>(1);
    let waiter = thread::Builder::new()
        .name("hookx-wait".into())
        .spawn(move || {
            let options = WaitIdOptions::EXITED | WaitIdOptions::NOWAIT;
            while let Err(Errno::INTR) = waitid(WaitId::Pid(pid), options) {}
            let _ = tx.send(());
        });
    if waiter.is_err() {
        return poll_until(child, deadline);
    }
    let woke = match deadline {
        Some(deadline) => rx.recv_timeout(deadline.saturating_duration_since(Instant::now())),
        None => rx.recv().map_err(RecvTimeoutError::from),
    };
    match woke {
        Err(RecvTimeoutError::Timeout) => Waited::Deadline,
        // Exited (the zombie is reaped at once) or waitid failed (polling copes).
        Ok(()) | Err(RecvTimeoutError::Disconnected) => poll_until(child, deadline),
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn wait_until(child: &mut Child, deadline: Option<Instant>) -> Waited {
    poll_until(child, deadline)
}

/// Portable wait: polls with naps growing from 100 µs to [`MAX_NAP`]. Only this thread reaps,
/// so while it reports `Deadline` the child's pid still belongs to the child.
fn poll_until(child: &mut Child, deadline: Option<Instant>) -> Waited {
    let mut nap = Duration::from_micros(100);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Waited::Exited(status),
            Ok(None) => {}
            Err(err) => return Waited::Lost(err),
        }
        if let Some(deadline) = deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Waited::Deadline;
            }
            nap = nap.min(left);
        }
        thread::sleep(nap);
        nap = (nap * 2).min(MAX_NAP);
    }
}

#[cfg(unix)]
fn pid_of(child: &Child) -> Option<rustix::process::Pid> {
    rustix::process::Pid::from_raw(i32::try_from(child.id()).ok()?)
}

/// SIGKILL to the whole group: the shell and everything it started that stayed in the group.
#[cfg(unix)]
fn kill_group(child: &mut Child) {
    use rustix::process::{Signal, kill_process_group};
    match pid_of(child) {
        Some(pid) => {
            let _ = kill_process_group(pid, Signal::KILL);
        }
        None => {
            let _ = child.kill();
        }
    }
}

/// Windows has no process groups here; only the direct child is killed.
#[cfg(not(unix))]
fn kill_group(child: &mut Child) {
    let _ = child.kill();
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
