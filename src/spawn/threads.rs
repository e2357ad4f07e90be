//! The portable runner (Windows): a thread per handler and per pipe, and a polled wait. Unix
//! uses the single-threaded loop in `unix.rs`; this one is tested there too (below), but only
//! the direct child is killed on timeout, and Windows itself is not on CI.

use super::{
    Capture, Exit, Finished, Naps, PIPE_GRACE, REAP_BOUND, Spawn, exit_of, not_started,
    shell_command, spawn_failure, spawn_live,
};
use std::io::{Read, Write};
use std::process::Child;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

pub(super) fn run_together(specs: &[Spawn]) -> Vec<Finished> {
    if specs.len() < 2 {
        return specs.iter().map(run_one).collect();
    }
    thread::scope(|scope| {
        let pending: Vec<_> = specs
            .iter()
            .map(|spec| scope.spawn(move || run_one(spec)))
            .collect();
        pending
            .into_iter()
            .map(|handle| {
                handle.join().unwrap_or_else(|_| {
                    not_started(Instant::now(), "the handler's thread panicked".into())
                })
            })
            .collect()
    })
}

fn run_one(spec: &Spawn) -> Finished {
    let start = Instant::now();
    let (mut child, _live) = match spawn_live(&mut shell_command(spec)) {
        Ok(started) => started,
        Err(err) => return not_started(start, spawn_failure(spec, &err)),
    };
    let (done_tx, done_rx) = mpsc::channel();
    let stdout = pump(child.stdout.take(), done_tx.clone());
    let stderr = pump(child.stderr.take(), done_tx);
    if let Some(mut stdin) = child.stdin.take() {
        let bytes = spec.stdin.clone();
        thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
    }
    let exit = match poll_until(&mut child, start.checked_add(spec.timeout)) {
        Some(exit) => exit,
        None => {
            let _ = child.kill();
            let _ = poll_until(&mut child, Instant::now().checked_add(REAP_BOUND));
            Exit::TimedOut
        }
    };
    let until = Instant::now() + PIPE_GRACE;
    for _ in 0..2 {
        if done_rx
            .recv_timeout(until.saturating_duration_since(Instant::now()))
            .is_err()
        {
            break;
        }
    }
    let take = |cap: &Mutex<Capture>| {
        let mut cap = cap.lock().unwrap_or_else(|p| p.into_inner());
        (std::mem::take(&mut cap.kept), cap.truncated)
    };
    let (stdout, stdout_truncated) = take(&stdout);
    let (stderr, stderr_truncated) = take(&stderr);
    Finished {
        exit,
        stdout,
        stderr,
        stdout_truncated,
        stderr_truncated,
        elapsed: start.elapsed(),
    }
}

/// Reads a pipe to EOF on its own thread into a shared capture; reports EOF on `done`.
fn pump(src: Option<impl Read + Send + 'static>, done: mpsc::Sender<()>) -> Arc<Mutex<Capture>> {
    let cap = Arc::new(Mutex::new(Capture::default()));
    let Some(mut src) = src else {
        let _ = done.send(());
        return cap;
    };
    let shared = Arc::clone(&cap);
    thread::spawn(move || {
        let mut chunk = [0u8; 16 * 1024];
        while let Ok(n @ 1..) = src.read(&mut chunk) {
            shared
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .keep(&chunk[..n]);
        }
        let _ = done.send(());
    });
    cap
}

/// `None` once `deadline` passes with the child still running.
fn poll_until(child: &mut Child, deadline: Option<Instant>) -> Option<Exit> {
    let mut naps = Naps::new();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(exit_of(status)),
            Ok(None) => {}
            Err(err) => return Some(Exit::FailedToStart(format!("lost track of it: {err}"))),
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        thread::sleep(naps.next());
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::time::Duration;

    fn sh(line: &str) -> Spawn {
        Spawn {
            command_line: line.into(),
            stdin: Vec::new(),
            env: Vec::new(),
            env_remove: Vec::new(),
            cwd: None,
            timeout: Duration::from_secs(20),
        }
    }

    #[test]
    fn output_exit_code_and_stdin() {
        let mut spec = sh("cat; echo err >&2; exit 3");
        spec.stdin = b"payload".to_vec();
        let [done] = run_together(&[spec]).try_into().unwrap();
        assert_eq!(done.exit, Exit::Code(3));
        assert_eq!(done.stdout, b"payload");
        assert_eq!(done.stderr, b"err\n");
    }

    #[test]
    fn timeout_and_order_in_parallel() {
        let mut slow = sh("exec sleep 30");
        slow.timeout = Duration::from_millis(200);
        let started = Instant::now();
        let done = run_together(&[slow, sh("echo fast")]);
        assert_eq!(done[0].exit, Exit::TimedOut);
        assert_eq!(done[1].stdout, b"fast\n");
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn missing_cwd_fails_to_start() {
        let mut spec = sh("true");
        spec.cwd = Some("/no/such/dir".into());
        let [done] = run_together(&[spec]).try_into().unwrap();
        assert!(matches!(done.exit, Exit::FailedToStart(ref why) if why.contains("/no/such/dir")));
    }
}
