//! Running one handler process: shell, stdin, env, timeout, process group, capped output.
//!
//! (Interface fixed; implementation in progress on the `spawn` branch.)

use std::path::PathBuf;
use std::time::Duration;

/// What to run.
#[derive(Clone, Debug)]
pub struct Spawn {
    /// One shell command line, run with `sh -c` (Unix) or PowerShell (Windows).
    pub command_line: String,
    /// Bytes written to the child's stdin, then stdin is closed.
    pub stdin: Vec<u8>,
    /// Added to (or overriding) the inherited environment.
    pub env: Vec<(String, String)>,
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

/// Runs one handler to completion or timeout.
pub fn run(spec: &Spawn) -> Finished {
    let _ = spec;
    Finished {
        exit: Exit::FailedToStart("spawning is not implemented yet".into()),
        stdout: Vec::new(),
        stderr: Vec::new(),
        stdout_truncated: false,
        stderr_truncated: false,
        elapsed: Duration::ZERO,
    }
}

/// Runs several handlers, in parallel or in order; results in the order of `specs`.
pub fn run_all(specs: &[Spawn], parallel: bool) -> Vec<Finished> {
    let _ = parallel;
    specs.iter().map(run).collect()
}
