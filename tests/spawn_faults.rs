//! Handlers that misbehave: each test pins one way a hook process can fail hookx if it is run
//! naively (hang, flood, stray background child, early stdin close, bad cwd, …).
#![cfg(unix)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use hookx::spawn::{Exit, Finished, OUTPUT_CAP, Spawn, run, run_all};

mod common;
use common::exits_within;

fn sh(command_line: &str) -> Spawn {
    Spawn {
        command_line: command_line.into(),
        stdin: Vec::new(),
        env: Vec::new(),
        env_remove: Vec::new(),
        cwd: None,
        timeout: Duration::from_secs(20),
    }
}

fn read_pid(file: &Path) -> i32 {
    let text = std::fs::read_to_string(file).expect("pid file written by the handler");
    text.trim().parse().expect("a pid")
}

/// Running, as opposed to gone or a zombie waiting for its new parent to reap it.
fn is_running(pid: i32) -> bool {
    let out = Command::new("ps")
        .args(["-o", "stat=", "-p", &pid.to_string()])
        .output()
        .expect("ps runs");
    let stat = String::from_utf8_lossy(&out.stdout);
    let stat = stat.trim();
    !stat.is_empty() && !stat.starts_with('Z')
}

/// What bounds a wait for an event: only how long a failing test takes to say so.
const BOUND: Duration = Duration::from_secs(120);

fn kill(pid: i32) {
    if let Some(pid) = rustix::process::Pid::from_raw(pid) {
        let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
    }
}

fn utf8(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).expect("utf-8 output")
}

#[test]
fn hang_past_timeout_kills_the_whole_group() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("grandchild.pid");
    let mut spec = sh(r#"sleep 600 & echo $! > "$PID_FILE"; wait"#);
    spec.env = vec![("PID_FILE".into(), pid_file.display().to_string())];
    spec.timeout = Duration::from_secs(1);

    let done = run(&spec);

    assert_eq!(done.exit, Exit::TimedOut);
    assert!(done.elapsed >= spec.timeout, "{:?}", done.elapsed);
    let grandchild = read_pid(&pid_file);
    let killed = exits_within(grandchild, BOUND);
    kill(grandchild);
    assert!(killed, "background sleep {grandchild} survived the timeout");
}

#[test]
fn zero_timeout_times_out_at_once() {
    let mut spec = sh("sleep 600");
    spec.timeout = Duration::ZERO;
    let done = run(&spec);
    assert_eq!(done.exit, Exit::TimedOut);
}

#[test]
fn huge_timeout_is_no_timeout_not_a_panic() {
    let mut spec = sh("true");
    spec.timeout = Duration::MAX;
    assert_eq!(run(&spec).exit, Exit::Code(0));
}

#[test]
fn killed_by_a_signal() {
    let done = run(&sh("kill -9 $$"));
    assert_eq!(done.exit, Exit::Signal(9));
}

#[test]
fn exit_codes_are_just_codes() {
    for code in [0, 1, 2, 127] {
        let done = run(&sh(&format!("exit {code}")));
        assert_eq!(done.exit, Exit::Code(code));
    }
}

#[test]
fn exit_2_with_reason_on_stderr() {
    let done = run(&sh(
        "echo '{\"ignored\":1}'; echo 'blocked: rm -rf' >&2; exit 2",
    ));
    assert_eq!(done.exit, Exit::Code(2));
    assert_eq!(utf8(&done.stdout), "{\"ignored\":1}\n");
    assert_eq!(utf8(&done.stderr), "blocked: rm -rf\n");
}

#[test]
fn missing_command_is_exit_127() {
    let done = run(&sh("hookx-no-such-command-4f1c"));
    assert_eq!(done.exit, Exit::Code(127));
    assert!(
        String::from_utf8_lossy(&done.stderr).contains("hookx-no-such-command-4f1c"),
        "{:?}",
        String::from_utf8_lossy(&done.stderr)
    );
}

#[test]
fn invalid_json_and_non_utf8_bytes_are_kept_raw() {
    let done = run(&sh(r#"printf '{"decision": \n\377\376\200\000end'"#));
    assert_eq!(done.exit, Exit::Code(0));
    assert_eq!(done.stdout, b"{\"decision\": \n\xff\xfe\x80\x00end");
    assert!(!done.stdout_truncated);
}

#[test]
fn stdout_flood_is_capped_and_drained() {
    let done = run(&sh("head -c 100000000 /dev/zero"));
    assert_eq!(done.exit, Exit::Code(0));
    assert_eq!(done.stdout.len(), OUTPUT_CAP);
    assert!(done.stdout_truncated);
    assert!(done.stderr.is_empty() && !done.stderr_truncated);
}

#[test]
fn stderr_flood_is_capped_and_drained() {
    let done = run(&sh("head -c 100000000 /dev/zero >&2; echo after"));
    assert_eq!(done.exit, Exit::Code(0));
    assert_eq!(done.stderr.len(), OUTPUT_CAP);
    assert!(done.stderr_truncated);
    assert_eq!(utf8(&done.stdout), "after\n");
    assert!(!done.stdout_truncated);
}

#[test]
fn output_exactly_at_the_cap_is_not_truncated() {
    let done = run(&sh(&format!("head -c {OUTPUT_CAP} /dev/zero")));
    assert_eq!(done.stdout.len(), OUTPUT_CAP);
    assert!(!done.stdout_truncated);
}

#[test]
fn background_child_holding_the_pipes_does_not_hang() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("background.pid");
    let mut spec = sh(r#"sleep 600 & echo $! > "$PID_FILE"; echo hi"#);
    spec.env = vec![("PID_FILE".into(), pid_file.display().to_string())];

    let done = run(&spec);

    let background = read_pid(&pid_file);
    let still_running = is_running(background);
    kill(background);
    assert_eq!(done.exit, Exit::Code(0));
    assert_eq!(utf8(&done.stdout), "hi\n");
    // Still running when hookx answered: hookx did not wait for it.
    assert!(
        still_running,
        "a normal exit must not kill the background child"
    );
}

#[test]
fn handler_closing_stdin_at_once() {
    let mut spec = sh("exec 0<&-; echo ok");
    spec.stdin = vec![b'x'; 1 << 20];
    let done = run(&spec);
    assert_eq!(done.exit, Exit::Code(0));
    assert_eq!(utf8(&done.stdout), "ok\n");
}

#[test]
fn handler_never_reading_stdin() {
    let mut spec = sh("echo ok");
    spec.stdin = vec![b'x'; 1 << 20];
    let done = run(&spec);
    assert_eq!(done.exit, Exit::Code(0));
    assert_eq!(utf8(&done.stdout), "ok\n");
}

#[test]
fn stdin_is_delivered_exactly() {
    let mut spec = sh("cat");
    spec.stdin = (0..(1u32 << 20)).map(|i| (i ^ (i >> 8)) as u8).collect();
    let done = run(&spec);
    assert_eq!(done.exit, Exit::Code(0));
    assert!(done.stdout == spec.stdin, "cat returned different bytes");
}

#[test]
fn stdin_sizes_around_pipe_limits_are_delivered_exactly() {
    for size in [1, 512, 513, 4096, 4097, 65536, 65537] {
        let mut spec = sh("cat");
        spec.stdin = (0..size).map(|i| (i % 251) as u8).collect();
        let done = run(&spec);
        assert_eq!(done.exit, Exit::Code(0));
        assert!(
            done.stdout == spec.stdin,
            "size {size}: cat returned different bytes"
        );
    }
}

#[test]
fn empty_stdin_is_eof() {
    let done = run(&sh("cat; echo end"));
    assert_eq!(done.exit, Exit::Code(0));
    assert_eq!(utf8(&done.stdout), "end\n");
}

#[test]
fn nonexistent_cwd_fails_to_start_and_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir");
    let mut spec = sh("true");
    spec.cwd = Some(missing.clone());
    let done = run(&spec);
    match done.exit {
        Exit::FailedToStart(why) => assert!(
            why.contains(&missing.display().to_string()),
            "message does not name the cwd: {why}"
        ),
        other => panic!("expected FailedToStart, got {other:?}"),
    }
}

#[test]
fn nul_byte_in_command_fails_to_start() {
    let done = run(&sh("echo a\0b"));
    assert!(
        matches!(done.exit, Exit::FailedToStart(_)),
        "{:?}",
        done.exit
    );
}

#[test]
fn env_and_cwd_are_passed() {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = sh(r#"printf '%s|%s|%s' "$HOOKX_TEST_A" "$HOOKX_TEST_B" "$(pwd -P)""#);
    spec.env = vec![
        ("HOOKX_TEST_A".into(), "one two".into()),
        ("HOOKX_TEST_B".into(), "$not-expanded".into()),
    ];
    spec.cwd = Some(dir.path().to_path_buf());
    let done = run(&spec);
    let cwd = dir.path().canonicalize().unwrap();
    assert_eq!(done.exit, Exit::Code(0));
    assert_eq!(
        utf8(&done.stdout),
        format!("one two|$not-expanded|{}", cwd.display())
    );
}

#[test]
fn env_overrides_the_inherited_environment() {
    let mut spec = sh(r#"printf '%s' "$HOME""#);
    spec.env = vec![("HOME".into(), "/overridden".into())];
    assert_eq!(utf8(&run(&spec).stdout), "/overridden");
}

#[test]
fn run_all_parallel_runs_at_once() {
    // Each handler waits until all four have started: run one by one, the first would wait
    // until its timeout.
    let dir = tempfile::tempdir().unwrap();
    let specs: Vec<Spawn> = (0..4)
        .map(|i| {
            let mut spec = sh(&format!(
                r#"touch "$DIR/{i}"; while [ "$(ls "$DIR" | wc -l)" -lt 4 ]; do sleep 0.01; done; echo {i}"#
            ));
            spec.env = vec![("DIR".into(), dir.path().display().to_string())];
            spec.timeout = BOUND;
            spec
        })
        .collect();
    let done = run_all(&specs, true);
    let outs: Vec<&str> = done.iter().map(|d| utf8(&d.stdout)).collect();
    assert_eq!(outs, ["0\n", "1\n", "2\n", "3\n"]);
}

#[test]
fn run_all_parallel_keeps_input_order() {
    let specs = [sh("sleep 0.3; echo slow"), sh("echo fast"), sh("exit 3")];
    let done = run_all(&specs, true);
    let outs: Vec<&str> = done.iter().map(|d| utf8(&d.stdout)).collect();
    assert_eq!(outs, ["slow\n", "fast\n", ""]);
    assert_eq!(done[2].exit, Exit::Code(3));
}

#[test]
fn run_all_sequential_keeps_order_and_runs_one_by_one() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let specs: Vec<Spawn> = (0..3)
        .map(|i| {
            let mut spec = sh(&format!(r#"sleep 0.05; echo {i} >> "$LOG"; echo {i}"#));
            spec.env = vec![("LOG".into(), log.display().to_string())];
            spec
        })
        .collect();
    let done: Vec<Finished> = run_all(&specs, false);
    let outs: Vec<&str> = done.iter().map(|d| utf8(&d.stdout)).collect();
    assert_eq!(outs, ["0\n", "1\n", "2\n"]);
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "0\n1\n2\n");
}

#[test]
fn run_all_of_nothing() {
    assert!(run_all(&[], true).is_empty());
    assert!(run_all(&[], false).is_empty());
}

/// One by one within a time limit (`kill_by`): a hanging handler with a long timeout (Claude's
/// 600 s) takes what is left of the time and is cut short (said so); the one after it, whose
/// turn comes when the time is spent, never starts.
#[test]
fn in_order_a_handler_gets_what_is_left_of_the_time_and_later_ones_none() {
    use hookx::spawn::{Batch, Step};
    let dir = tempfile::tempdir().unwrap();
    let ran = dir.path().join("ran");
    let mut hang = sh("sleep 600");
    hang.timeout = Duration::from_secs(600);
    let mut next = sh(&format!("echo > '{}'", ran.display()));
    next.timeout = Duration::from_secs(600);
    let specs = [hang, next];
    let kill_by = std::time::Instant::now() + Duration::from_millis(500);
    let mut batch = Batch::new(&specs, false, Some(kill_by), None);
    let mut ends = Vec::new();
    while let Some(step) = batch.next() {
        match step {
            Step::Ended {
                index,
                finished,
                cut,
            } => ends.push((index, finished.exit, cut)),
            Step::Due => panic!("no due time was given"),
        }
    }
    assert_eq!(ends, [(0, Exit::TimedOut, true), (1, Exit::TimedOut, true)]);
    assert!(!ran.exists(), "a handler started after the time was spent");
}

/// A due time leaves the handlers running: `Due` comes once, then they end by their own
/// timeouts, unmarked. Bound by events, not the clock: the slow handler waits on a fifo that
/// the test opens only once `Due` has come (a kill at the due time would end it cut short, with
/// no output); whether the fast one ends before or after the due time is the machine's load.
#[test]
fn a_due_time_is_said_once_and_kills_nothing() {
    use hookx::spawn::{Batch, Step};
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let go = dir.path().join("go");
    let made = Command::new("mkfifo")
        .arg(&go)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", go.display());
    let mut slow = sh(r#"read line < "$GO"; echo "slow $line""#);
    slow.env = vec![("GO".into(), go.display().to_string())];
    slow.timeout = BOUND;
    let fast = sh("echo fast");
    let specs = [slow, fast];
    let due = std::time::Instant::now() + Duration::from_millis(100);
    let mut batch = Batch::new(&specs, true, None, Some(due));
    let (mut steps, mut released) = (Vec::new(), None);
    while let Some(step) = batch.next() {
        steps.push(match step {
            Step::Ended {
                index,
                finished,
                cut,
            } => format!(
                "{index} {:?} {cut} {}",
                finished.exit,
                utf8(&finished.stdout)
            ),
            Step::Due => {
                // Read and write, so that the open waits for no reader: the line waits in the
                // fifo, held open until the end, for the slow handler to read it.
                let mut fifo = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&go)
                    .unwrap();
                fifo.write_all(b"released\n").unwrap();
                released = Some(fifo);
                "due".to_string()
            }
        });
    }
    // Said once, each handler's end once and unmarked, the slow one's after the due time.
    let (fast, slow) = ("1 Code(0) false fast\n", "0 Code(0) false slow released\n");
    let mut sorted = steps.clone();
    sorted.sort();
    assert_eq!(sorted, [slow, fast, "due"], "{steps:?}");
    let at = |s: &str| steps.iter().position(|x| x == s);
    assert!(at("due") < at(slow), "{steps:?}");
    drop(released);
}

/// One by one, a handler is started only when the caller asks for the next step, so that it
/// can stop the rest (a deny, under a host that stops at the first one).
#[test]
fn in_order_the_caller_can_stop_the_rest() {
    use hookx::spawn::{Batch, Step};
    let dir = tempfile::tempdir().unwrap();
    let ran = dir.path().join("ran");
    let specs = [sh("exit 2"), sh(&format!("echo > '{}'", ran.display()))];
    let mut batch = Batch::new(&specs, false, None, None);
    let Some(Step::Ended { index: 0, .. }) = batch.next() else {
        panic!("the first handler ends first");
    };
    assert!(batch.is_started(0) && !batch.is_started(1));
    batch.stop_starting();
    assert!(batch.next().is_none());
    assert!(!ran.exists());
}

/// One by one, a handler not started yet can be given other stdin than its spec's (a host that
/// hands a later hook the call an earlier one rewrote, attacks row 2200); one started keeps
/// its own.
#[test]
fn in_order_a_later_handler_can_be_given_other_stdin() {
    use hookx::spawn::{Batch, Step};
    let mut specs = [sh("cat"), sh("cat")];
    specs[0].stdin = b"first".to_vec();
    specs[1].stdin = b"model's".to_vec();
    let mut batch = Batch::new(&specs, false, None, None);
    let Some(Step::Ended {
        index: 0, finished, ..
    }) = batch.next()
    else {
        panic!("the first handler ends first");
    };
    assert_eq!(utf8(&finished.stdout), "first");
    batch.set_stdin(0, b"too late".to_vec());
    batch.set_stdin(1, b"rewritten".to_vec());
    let Some(Step::Ended {
        index: 1, finished, ..
    }) = batch.next()
    else {
        panic!("the second handler ends next");
    };
    assert_eq!(utf8(&finished.stdout), "rewritten");
    assert!(batch.next().is_none());
}

/// The usual handler runs in hookx's own directory: no `chdir` is asked for then (one system
/// call less in the child), and the handler is still there.
#[test]
fn a_cwd_that_is_hookx_own_directory_is_where_the_handler_runs() {
    let here = std::env::current_dir().unwrap();
    let mut spec = sh("pwd -P");
    spec.cwd = Some(here.clone());
    let done = run(&spec);
    assert_eq!(done.exit, Exit::Code(0));
    assert_eq!(
        utf8(&done.stdout).trim_end(),
        here.canonicalize().unwrap().display().to_string()
    );
}
