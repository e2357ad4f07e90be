//! Faults, through the real `hookx exec`: handlers that hang, crash, flood, lie or vanish, and
//! host payloads that are not payloads. hookx must answer the host as the HANDLER's dialect
//! says a failure means (a crashing Copilot `preToolUse` hook denies, a Claude hook that times
//! out does not block), within the handler's timeout and a margin, never hang, never panic, and
//! say on stderr what happened.
#![cfg(unix)]

mod common;

use assert_cmd::Command;
use common::fixtures_dir;
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};

/// No hookx run may take longer than this, whatever the handler does.
const HARD_LIMIT: Duration = Duration::from_secs(120);

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Ran {
    fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {:?}\n{self:?}", self.stdout))
    }

    /// Exit 0 and nothing on stdout: the host goes on as if there were no hook.
    fn passes(&self) {
        assert_eq!(self.code, Some(0), "{self:?}");
        assert_eq!(self.stdout.trim(), "", "{self:?}");
    }

    fn says(&self, what: &str) {
        assert!(
            self.stderr.contains(what),
            "stderr does not say {what:?}\n{self:?}"
        );
    }

    /// Says it once, on a line of its own.
    fn says_once(&self, what: &str) {
        self.says(what);
        assert_eq!(
            self.stderr.matches(what).count(),
            1,
            "stderr says {what:?} more than once\n{self:?}"
        );
        assert!(self.stderr.ends_with('\n'), "{self:?}");
    }
}

impl std::fmt::Debug for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cut = |s: &str| s.chars().take(2000).collect::<String>();
        write!(
            f,
            "exit {:?} after {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.code,
            self.elapsed,
            cut(&self.stdout),
            cut(&self.stderr)
        )
    }
}

/// A seed payload, sent from `project`.
fn payload(rel: &str, project: &Path) -> Vec<u8> {
    let mut v: Value =
        serde_json::from_slice(&std::fs::read(fixtures_dir().join(rel)).unwrap()).unwrap();
    v["cwd"] = project.display().to_string().into();
    v.to_string().into_bytes()
}

/// A Claude `PreToolUse` on `Bash`.
const CLAUDE_PRE: &str = "payloads/claude/PreToolUse.json";
/// A Copilot camelCase `preToolUse` on `edit`.
const COPILOT_PRE: &str = "payloads/copilot/preToolUse.json";

/// `hookx exec --host HOST --as FLAVOR ARGS… -- sh -c SCRIPT`, the host payload on stdin.
fn exec(host: &str, stdin: Vec<u8>, flavor: &str, args: &[&str], script: &str) -> Ran {
    let project = tempfile::tempdir().unwrap();
    exec_in(project.path(), host, stdin, flavor, args, script)
}

/// `exec` with the seed payload `rel`, sent from a directory of its own.
fn exec_seed(host: &str, rel: &str, flavor: &str, args: &[&str], script: &str) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    exec(host, payload(rel, dir.path()), flavor, args, script)
}

/// `exec` of a Claude `PreToolUse` on `Bash` from a Claude host.
fn exec_claude_pre(flavor: &str, args: &[&str], script: &str) -> Ran {
    exec_seed("claude", CLAUDE_PRE, flavor, args, script)
}

fn exec_in(
    project: &Path,
    host: &str,
    stdin: Vec<u8>,
    flavor: &str,
    args: &[&str],
    script: &str,
) -> Ran {
    let mut cmd = Command::cargo_bin("hookx").unwrap();
    for var in [
        "CLAUDE_PROJECT_DIR",
        "COPILOT_CLI",
        "BRICKS_PROJECT_DIR",
        "BRICKS_SESSION_ID",
        "BRICKS_HOOK_EVENT",
    ] {
        cmd.env_remove(var);
    }
    cmd.current_dir(project)
        .args(["exec", "--host", host, "--as", flavor])
        .args(args)
        .args(["--", script])
        .write_stdin(stdin)
        .timeout(HARD_LIMIT);
    run(cmd)
}

fn run(mut cmd: Command) -> Ran {
    let start = Instant::now();
    let out = cmd.output().expect("hookx runs");
    let ran = Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        elapsed: start.elapsed(),
    };
    // Never a panic, never killed by assert_cmd's hard limit.
    assert!(
        ran.code.is_some() && ran.code != Some(101) && !ran.stderr.contains("panicked"),
        "hookx crashed or hung: {ran:?}"
    );
    assert!(ran.elapsed < HARD_LIMIT, "{ran:?}");
    ran
}

/// Claude's deny on PreToolUse, as the Claude host reads it.
fn claude_deny(reason_part: &str, ran: &Ran) {
    assert_eq!(ran.code, Some(0), "{ran:?}");
    let v = ran.json();
    let hso = &v["hookSpecificOutput"];
    assert_eq!(hso["permissionDecision"], "deny", "{ran:?}");
    let reason = hso["permissionDecisionReason"].as_str().unwrap_or_default();
    assert!(
        reason.contains(reason_part),
        "reason {reason:?} lacks {reason_part:?}"
    );
}

fn pid_in(file: &Path) -> Option<i32> {
    std::fs::read_to_string(file).ok()?.trim().parse().ok()
}

/// The pid a handler wrote to `file`, once it is there; [`HARD_LIMIT`] only bounds how long a
/// handler that never starts takes to report.
fn handler_pid(file: &Path) -> i32 {
    let start = Instant::now();
    loop {
        if let Some(pid) = pid_in(file) {
            return pid;
        }
        assert!(start.elapsed() < HARD_LIMIT, "the handler never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn alive(pid: i32) -> bool {
    // Signal 0: does the process exist (a zombie counts; reaped by init soon).
    rustix::process::Pid::from_raw(pid).is_some_and(|p| {
        rustix::process::test_kill_process(p).is_ok()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|s| s.split(' ').nth(2) == Some("Z"))
    })
}

/// A handler that starts `sleep 600` in the background, writes its pid to `pid_file` and
/// waits: the sleeper outlives every bound of these tests unless it is killed. It reads its
/// input first: hookx writes it once the handler's group is recorded, so a pid in the file means
/// the guardian knows the group (the moment before is row 803's window, not these tests').
fn sleeper_script(pid_file: &Path) -> String {
    format!(
        "cat > /dev/null; sleep 600 & echo $! > '{}'; wait",
        pid_file.display()
    )
}

/// Whether `pid` exits, woken by its exit (a pidfd), not by a guess at the machine's speed;
/// [`HARD_LIMIT`] only bounds how long a failure takes to report.
fn gone_soon(pid: i32) -> bool {
    common::exits_within(pid, common::KILLED_WITHIN)
}

/// `hookx exec --host claude --as claude -- SCRIPT` started in `dir` and handed a Claude
/// `PreToolUse` (stdin then closed), its output thrown away.
fn spawn_claude_exec(dir: &Path, script: &str) -> std::process::Child {
    spawn_claude_exec_with(dir, script, &[])
}

/// [`spawn_claude_exec`] with extra environment variables.
fn spawn_claude_exec_with(dir: &Path, script: &str, env: &[(&str, &str)]) -> std::process::Child {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .envs(env.iter().copied())
        .current_dir(dir)
        .args(["exec", "--host", "claude", "--as", "claude", "--"])
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&payload(CLAUDE_PRE, dir)).unwrap();
    drop(stdin);
    child
}

fn kill(pid: i32) {
    if let Some(p) = rustix::process::Pid::from_raw(pid) {
        let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
    }
}

// ---------------------------------------------------------------------------------------------
// Timeouts.

#[test]
fn claude_handler_that_hangs_past_its_timeout_does_not_block() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("sleeper.pid");
    let script = sleeper_script(&pid_file);
    let ran = exec_in(
        dir.path(),
        "claude",
        payload(CLAUDE_PRE, dir.path()),
        "claude",
        &["--timeout", "1"],
        &script,
    );
    ran.passes();
    // Cut at the budget within its 1 s timeout (the host kills the entry at 1 s, so hookx
    // answers without waiting for the kill: attacks row 2222), said to have timed out, as
    // under its own agent; a handler that was waited for would have ended on its own.
    ran.says_once("timed out");
    assert!(ran.elapsed >= Duration::from_millis(500), "{ran:?}");
    // The whole group went with it.
    let pid = pid_in(&pid_file).expect("the handler wrote its child's pid");
    let gone = gone_soon(pid);
    kill(pid);
    assert!(gone, "the handler's child {pid} outlived the timeout");
}

/// A host that gives up on hookx (SIGTERM, SIGINT, SIGHUP) must not leave its handlers running:
/// hookx kills their groups and dies of the signal as the host expects.
#[test]
fn host_killing_hookx_kills_the_running_handlers() {
    for (signal, name) in [
        (rustix::process::Signal::TERM, 15),
        (rustix::process::Signal::INT, 2),
        (rustix::process::Signal::HUP, 1),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let pid_file = dir.path().join("sleeper.pid");
        let script = sleeper_script(&pid_file);
        let mut child = spawn_claude_exec(dir.path(), &script);
        let sleeper = (0..500)
            .find_map(|_| {
                std::thread::sleep(Duration::from_millis(20));
                pid_in(&pid_file)
            })
            .expect("the handler started its child");
        let hookx = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
        rustix::process::kill_process(hookx, signal).unwrap();
        let status = child.wait().unwrap();
        let gone = gone_soon(sleeper);
        kill(sleeper);
        assert_eq!(status.code(), Some(128 + name), "signal {name}: {status:?}");
        assert!(
            gone,
            "signal {name}: the handler's child {sleeper} outlived hookx"
        );
    }
}

/// A signal that arrives after a handler's shell started but before hookx registered its group
/// (a debug-only delay holds that window open) is held back until the group is known, so the
/// handler's children still die with hookx. Before, such a signal found no group to kill.
#[test]
fn a_signal_while_a_handler_starts_still_kills_it() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("sleeper.pid");
    let script = sleeper_script(&pid_file);
    let mut child = spawn_claude_exec_with(
        dir.path(),
        &script,
        &[("HOOKX_TEST_SPAWN_DELAY_MS", "3000")],
    );
    let sleeper = (0..500)
        .find_map(|_| {
            std::thread::sleep(Duration::from_millis(20));
            pid_in(&pid_file)
        })
        .expect("the handler started its child");
    let hookx = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    rustix::process::kill_process(hookx, rustix::process::Signal::TERM).unwrap();
    let status = child.wait().unwrap();
    let gone = gone_soon(sleeper);
    kill(sleeper);
    assert_eq!(status.code(), Some(128 + 15), "{status:?}");
    assert!(gone, "the handler's child {sleeper} outlived hookx");
}

#[test]
fn copilot_pre_tool_use_handler_that_times_out_fails_open() {
    let ran = exec_seed(
        "copilot",
        COPILOT_PRE,
        "copilot",
        &["--timeout", "1"],
        "sleep 60",
    );
    // Field: a timeout lets the call through, where a crash denies it.
    ran.passes();
    ran.says("timed out");
}

#[test]
fn bricks_handler_that_hangs_under_a_copilot_host_does_not_deny() {
    let ran = exec_seed(
        "copilot",
        COPILOT_PRE,
        "bricks",
        &["--timeout", "1"],
        "while :; do :; done",
    );
    ran.passes();
    ran.says("timed out");
}

#[test]
fn timeout_flag_is_in_seconds_and_validated() {
    // A fast handler is not cut short by a long timeout...
    let ran = exec_claude_pre(
        "claude",
        &["--timeout", "30"],
        "sleep 1; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'",
    );
    assert_eq!(ran.code, Some(0), "{ran:?}");
    assert_eq!(
        ran.json()["hookSpecificOutput"]["permissionDecision"],
        "allow"
    );
    // ...and a timeout that is not a number of seconds is not a default: the command line
    // cannot be read, which the failure policy answers (on this tool call, a deny saying why;
    // never a usage error's exit 2, which blocks a Stop).
    for bad in ["-1", "1.5", "soon"] {
        let ran = exec_claude_pre("claude", &[&format!("--timeout={bad}")], "true");
        assert_eq!(ran.code, Some(0), "--timeout {bad}: {ran:?}");
        assert_eq!(
            ran.json()["hookSpecificOutput"]["permissionDecision"],
            "deny",
            "--timeout {bad}: {ran:?}"
        );
        ran.says("--timeout");
    }
}

// ---------------------------------------------------------------------------------------------
// Crashes and exit codes.

#[test]
fn claude_handler_killed_by_a_signal_does_not_block() {
    let ran = exec_claude_pre("claude", &[], "kill -9 $$");
    ran.passes();
    ran.says("killed by signal 9");
}

#[test]
fn copilot_pre_tool_use_handler_killed_by_a_signal_denies() {
    let ran = exec_claude_pre("copilot", &[], "kill -9 $$");
    claude_deny("killed by signal 9", &ran);
}

#[test]
fn exit_1_is_a_non_blocking_error_for_claude_and_bricks() {
    for flavor in ["claude", "bricks"] {
        let ran = exec_claude_pre(flavor, &[], "echo 'lint config missing' >&2; exit 1");
        ran.passes();
        ran.says_once("exited with code 1: lint config missing");
    }
}

#[test]
fn copilot_pre_tool_use_handler_exiting_1_denies_with_its_stderr() {
    let ran = exec_seed(
        "copilot",
        COPILOT_PRE,
        "copilot",
        &[],
        "echo 'policy server unreachable' >&2; exit 1",
    );
    assert_eq!(ran.code, Some(0), "{ran:?}");
    assert_eq!(
        ran.json(),
        json!({"permissionDecision": "deny", "permissionDecisionReason": "policy server unreachable"})
    );
}

#[test]
fn exit_2_on_pre_tool_use_denies_and_ignores_stdout() {
    // Claude: at exit 2 stdout JSON is ignored; stderr is the reason.
    let ran = exec_claude_pre(
        "claude",
        &[],
        "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'; echo 'rm is banned' >&2; exit 2",
    );
    claude_deny("rm is banned", &ran);
}

#[test]
fn exit_2_where_claude_cannot_block_is_only_shown() {
    let ran = exec_seed(
        "claude",
        "payloads/claude/SessionStart.json",
        "claude",
        &[],
        "echo 'no venv' >&2; exit 2",
    );
    ran.passes();
    ran.says("no venv");
}

#[test]
fn exit_127_and_a_missing_command_are_errors_that_name_the_command() {
    for flavor in ["claude", "bricks"] {
        for script in [
            "exit 127",
            "./hooks/does-not-exist.sh",
            "no-such-hook-binary --check",
        ] {
            let ran = exec_claude_pre(flavor, &[], script);
            ran.passes();
            ran.says("exited with code 127");
            if script != "exit 127" {
                let name = script.split_whitespace().next().unwrap();
                ran.says(name.trim_start_matches("./"));
            }
        }
    }
}

#[test]
fn copilot_pre_tool_use_handler_that_does_not_exist_denies() {
    let ran = exec_claude_pre("copilot", &[], "./hooks/guard.sh");
    claude_deny("guard.sh", &ran);
}

#[test]
fn a_program_and_its_arguments_are_run_without_a_shell_reading_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::cargo_bin("hookx").unwrap();
    cmd.current_dir(dir.path())
        .args(["exec", "--host", "claude", "--as", "claude", "--"])
        .args([
            "printf",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"%s"}}"#,
            "$HOME; `id` 'quoted'",
        ])
        .write_stdin(payload(CLAUDE_PRE, dir.path()))
        .timeout(HARD_LIMIT);
    let ran = run(cmd);
    claude_deny("$HOME; `id` 'quoted'", &ran);
}

// ---------------------------------------------------------------------------------------------
// Output that is not an answer.

#[test]
fn invalid_json_on_stdout_is_an_error_not_a_decision() {
    let cases = [
        ("{\"hookSpecificOutput\": {", "not valid JSON"),
        ("[\"deny\"]", "an array where a JSON object was expected"),
        ("deny", "not JSON"),
        (
            "{\"hookSpecificOutput\":{\"permissionDecision\":42}}",
            "must be a string",
        ),
    ];
    for (stdout, says) in cases {
        for flavor in ["claude", "copilot", "bricks"] {
            let script = format!("printf '%s' '{stdout}'");
            let ran = exec_claude_pre(flavor, &[], &script);
            // Exit 0: no dialect reads garbage as a decision; Copilot's fail-closed rule is
            // about exit codes.
            if flavor == "copilot" && says == "must be a string" {
                // Not a slot Copilot reads: nothing to complain about.
                ran.passes();
                continue;
            }
            ran.passes();
            ran.says(says);
        }
    }
}

#[test]
fn non_utf8_stdout_and_stderr_are_reported_not_fatal() {
    // Decoded lossily, as the agents do: the stray bytes make it no JSON answer.
    let ran = exec_claude_pre("claude", &[], r#"printf '\377\376{"x":1}\200'"#);
    ran.passes();
    ran.says("not JSON");

    // At exit 2 the bytes are the reason: replaced, still a valid JSON answer.
    let ran = exec_claude_pre("claude", &[], r"printf 'bad \377 byte\n' >&2; exit 2");
    claude_deny("bad \u{FFFD} byte", &ran);
}

#[test]
fn a_100_mb_flood_on_stdout_is_cut_and_reported() {
    // Cut at the cap, the answer cannot be read: a tool-call guard denies (it may have been a
    // deny), saying why; elsewhere it is reported and nothing is blocked.
    let flood = "dd if=/dev/zero bs=1048576 count=100 2>/dev/null | tr '\\000' x";
    let ran = exec_claude_pre("claude", &["--timeout", "60"], flood);
    claude_deny("over hookx's 4 MiB cap", &ran);
    assert!(
        ran.stdout.len() + ran.stderr.len() < 10_000,
        "the answer quotes the flood"
    );
    let ran = exec_seed(
        "claude",
        "payloads/claude/PostToolUse.json",
        "claude",
        &["--timeout", "60"],
        flood,
    );
    ran.passes();
    ran.says("over hookx's 4 MiB cap");
    assert!(ran.stderr.len() < 10_000, "stderr quotes the flood");
}

#[test]
fn a_100_mb_flood_on_stderr_is_cut_in_the_message() {
    let ran = exec_claude_pre(
        "claude",
        &["--timeout", "60"],
        "dd if=/dev/zero bs=1048576 count=100 2>/dev/null | tr '\\000' x >&2; exit 1",
    );
    ran.passes();
    ran.says("exited with code 1");
    assert!(ran.stderr.len() < 10_000, "stderr quotes the flood");
}

/// A Claude deny on `PreToolUse` padded by `pad` (a shell command printing JSON text that
/// continues the object after the deny): `{"hookSpecificOutput": {…deny…}, "pad": <pad>}`.
fn deny_padded_by(pad: &str) -> String {
    format!(
        r#"printf '{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"padded"}},"pad":'; {pad}; printf '}}'"#
    )
}

/// Claude Code decodes a hook's stdout lossily and honours a deny whose reason holds a byte
/// that is not UTF-8: so does hookx (it used to drop the answer and allow the call).
#[test]
fn a_deny_whose_reason_holds_a_non_utf8_byte_is_honoured() {
    let ran = exec_claude_pre(
        "claude",
        &[],
        r#"printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"bad \377 byte"}}'"#,
    );
    claude_deny("bad \u{FFFD} byte", &ran);
    // Under another host, the same deny in its protocol.
    let ran = exec_seed(
        "copilot",
        COPILOT_PRE,
        "claude",
        &[],
        r#"printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"bad \377 byte"}}'"#,
    );
    assert_eq!(ran.code, Some(0), "{ran:?}");
    assert_eq!(ran.json()["permissionDecision"], "deny", "{ran:?}");
}

/// A valid JSON deny longer than hookx's output cap (4 MiB of stdout) cannot be read whole:
/// on a tool-call guard the call is denied, saying why, never allowed because the cut answer
/// is not JSON; on another event it is a non-blocking error.
#[test]
fn an_answer_over_the_output_cap_fails_closed_on_a_tool_call_guard() {
    let pad = r#"printf '"'; head -c 5000000 /dev/zero | tr '\000' x; printf '"'"#;
    let ran = exec_claude_pre("claude", &["--timeout", "60"], &deny_padded_by(pad));
    claude_deny("over hookx's 4 MiB cap", &ran);
    claude_deny("could not check this tool call", &ran);
    // Copilot host, Copilot handler: its deny, in its protocol.
    let script = r#"printf '{"permissionDecision":"deny","permissionDecisionReason":"padded","pad":"'; head -c 5000000 /dev/zero | tr '\000' x; printf '"}'"#;
    let ran = exec_seed(
        "copilot",
        COPILOT_PRE,
        "copilot",
        &["--timeout", "60"],
        script,
    );
    assert_eq!(ran.code, Some(0), "{ran:?}");
    assert_eq!(ran.json()["permissionDecision"], "deny", "{ran:?}");
    // Where no tool call is guarded: reported, nothing blocked.
    let ran = exec_seed(
        "claude",
        "payloads/claude/Stop.json",
        "claude",
        &["--timeout", "60"],
        r#"printf '{"decision":"block","reason":"go on","pad":"'; head -c 5000000 /dev/zero | tr '\000' x; printf '"}'"#,
    );
    ran.passes();
    ran.says("over hookx's 4 MiB cap");
}

/// A deny nested deeper than hookx reads JSON (`ANSWER_DEPTH_CAP` levels) fails closed on a
/// tool-call guard, saying why; on another event it is a non-blocking error.
#[test]
fn an_answer_nested_past_the_depth_cap_fails_closed_on_a_tool_call_guard() {
    let deep = hookx::protocol::answer::ANSWER_DEPTH_CAP + 50;
    let pad = format!("printf '%s' '{}{}'", "[".repeat(deep), "]".repeat(deep));
    let ran = exec_claude_pre("claude", &[], &deny_padded_by(&pad));
    claude_deny("nested deeper than", &ran);
    // Just within the cap, the deny is read as it is.
    let within = hookx::protocol::answer::ANSWER_DEPTH_CAP - 1;
    let pad = format!("printf '%s' '{}{}'", "[".repeat(within), "]".repeat(within));
    let ran = exec_claude_pre("claude", &[], &deny_padded_by(&pad));
    claude_deny("padded", &ran);
    let ran = exec_seed(
        "claude",
        "payloads/claude/Stop.json",
        "claude",
        &[],
        &format!(
            r#"printf '%s' '{{"decision":"block","reason":"go on","pad":{}{}}}'"#,
            "[".repeat(deep),
            "]".repeat(deep)
        ),
    );
    ran.passes();
    ran.says("nested deeper than");
}

// ---------------------------------------------------------------------------------------------
// Pipes.

#[test]
fn a_background_child_holding_the_pipes_does_not_delay_the_answer() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("bg.pid");
    let script = format!(
        "sleep 600 & echo $! > '{}'; printf '%s' '{}'",
        pid_file.display(),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"held"}}"#
    );
    let ran = exec_in(
        dir.path(),
        "claude",
        payload(CLAUDE_PRE, dir.path()),
        "claude",
        &["--timeout", "30"],
        &script,
    );
    // hookx answered while the background child still held the pipes.
    let pid = pid_in(&pid_file).expect("the handler wrote its child's pid");
    let was_alive = alive(pid);
    kill(pid);
    claude_deny("held", &ran);
    assert!(
        was_alive,
        "the answer waited for the background child: {ran:?}"
    );
}

#[test]
fn a_handler_that_closes_stdin_at_once_still_answers() {
    let dir = tempfile::tempdir().unwrap();
    // Larger than any pipe buffer, so that hookx is still writing when stdin closes.
    let mut v: Value = serde_json::from_slice(&payload(CLAUDE_PRE, dir.path())).unwrap();
    v["tool_input"]["command"] = "x".repeat(4 << 20).into();
    let ran = exec(
        "claude",
        v.to_string().into_bytes(),
        "claude",
        &["--timeout", "30"],
        r#"exec 0<&-; printf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"closed"}}'"#,
    );
    assert_eq!(ran.code, Some(0), "{ran:?}");
    assert_eq!(
        ran.json()["hookSpecificOutput"]["permissionDecision"],
        "ask",
        "{ran:?}"
    );
}

#[test]
fn a_large_payload_reaches_the_handler_whole() {
    let dir = tempfile::tempdir().unwrap();
    let mut v: Value = serde_json::from_slice(&payload(CLAUDE_PRE, dir.path())).unwrap();
    v["tool_input"]["command"] = "y".repeat(8 << 20).into();
    let got = dir.path().join("got.json");
    let script = format!("cat > '{}'", got.display());
    let ran = exec_in(
        dir.path(),
        "claude",
        v.to_string().into_bytes(),
        "bricks",
        &["--timeout", "60"],
        &script,
    );
    ran.passes();
    let received: Value = serde_json::from_slice(&std::fs::read(&got).unwrap()).unwrap();
    assert_eq!(
        received["tool_input"]["command"],
        v["tool_input"]["command"]
    );
    assert_eq!(received["tool_name"], "bash");
}

// ---------------------------------------------------------------------------------------------
// Host payloads that are not payloads.

fn host_error(stdin: Vec<u8>) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let script = format!("touch '{}'", marker.display());
    let ran = exec_in(dir.path(), "claude", stdin, "bricks", &[], &script);
    assert!(!marker.exists(), "the handler ran on a bad payload");
    assert!(
        matches!(ran.code, Some(c) if c != 0),
        "a bad payload must fail: {ran:?}"
    );
    assert_eq!(ran.stdout, "", "{ran:?}");
    ran.says("stdin");
    ran
}

#[test]
fn host_payload_that_is_not_json_is_an_error_naming_stdin() {
    host_error(b"PreToolUse Bash npm test".to_vec()).says("not JSON");
}

#[test]
fn host_payload_that_is_a_json_array_is_an_error_naming_stdin() {
    host_error(b"[{\"hook_event_name\":\"PreToolUse\"}]".to_vec()).says("not an array");
}

#[test]
fn empty_host_payload_is_an_error_naming_stdin() {
    host_error(Vec::new()).says("empty");
}

#[test]
fn non_utf8_host_payload_is_an_error_naming_stdin() {
    host_error(b"{\"hook_event_name\":\"Pre\xffToolUse\"}".to_vec());
}

// ---------------------------------------------------------------------------------------------
// The host's side of the pipes.

#[test]
fn a_host_that_stops_reading_the_answer_does_not_crash_hookx() {
    use std::io::Write;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("hookx"))
        .current_dir(dir.path())
        .args(["exec", "--host", "claude", "--as", "claude", "--"])
        .arg(r#"printf '{"decision":"block","reason":"%s"}' "$(printf '%01000d' 0)""#)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The host has gone away before hookx answers: writing the answer fails with EPIPE.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&payload(CLAUDE_PRE, dir.path())).unwrap();
    drop(stdin);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > HARD_LIMIT {
            let _ = child.kill();
            panic!("hookx hung writing to a closed stdout");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// A host that cancels hookx (SIGTERM, SIGKILL) between its writing a record's temporary file
/// in `~/.hookx` and its renaming it into place leaves that file, and nothing removed it: 150
/// cancelled runs left `~/.hookx/.tmpds3Sbj` (attacks row 1270). The next write of a record
/// there removes such a file once it is old; one a writer may still be writing stays.
#[test]
fn a_temporary_file_a_cancelled_run_left_goes_with_the_next_record_written_there() {
    let dir = tempfile::tempdir().unwrap();
    let (project, home) = (dir.path().join("project"), dir.path().join("home"));
    let state = home.join(".hookx");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&state).unwrap();
    // A file hookx does not trust: `run` records its warning in `~/.hookx/warned.json`.
    common::write(
        &project,
        ".qwen/settings.json",
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true"}]}]}}"#,
    );
    let (left, fresh) = (state.join(".tmpds3Sbj"), state.join(".tmpW9xQ2a"));
    for part in [&left, &fresh] {
        std::fs::write(part, r#"{"version":"#).unwrap();
    }
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&left)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    let mut cmd = common::hookx_clean(&project);
    cmd.args(["run", "--host", "claude", "--event", "PreToolUse", "--home"])
        .arg(&home)
        .env("HOME", &home)
        .write_stdin(payload(CLAUDE_PRE, &project))
        .timeout(HARD_LIMIT);
    let ran = run(cmd);
    ran.passes();
    ran.says("skipped .qwen/settings.json");
    assert!(state.join("warned.json").is_file(), "{ran:?}");
    assert!(
        !left.exists(),
        "the cancelled run's temporary file is still there"
    );
    assert!(
        fresh.exists(),
        "a temporary file a writer may still be writing was removed"
    );
}

/// Hosts kill a hook that runs past their own timeout: hookx takes the handler's process group
/// with it.
#[test]
fn a_handler_dies_with_hookx_when_the_host_kills_it() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("handler.pid");
    let mut child = spawn_claude_exec(dir.path(), &sleeper_script(&pid_file));
    let pid = handler_pid(&pid_file);
    let hookx = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    rustix::process::kill_process(hookx, rustix::process::Signal::TERM).unwrap();
    let _ = child.wait();
    let gone = gone_soon(pid);
    kill(pid);
    assert!(gone, "the handler's child {pid} outlived hookx");
}

/// Qwen Code 0.24.4 SIGKILLs a hook's process group when the user quits it while the hook runs
/// (`forceKillActivePosixHookProcesses`): hookx cannot catch that, and its handlers live in
/// groups of their own. The handler's process dies with the hookx that started it (its group
/// killed by hookx's guardian), here long before its own timeout would have ended it (attacks
/// rows 712, 800; row 705 found it).
#[test]
fn a_handler_dies_with_hookx_when_the_host_sigkills_its_group() {
    // The shell's own pid, then `sleep` in its place (the same process).
    host_sigkills_exec_group(
        |pid_file| {
            format!(
                "cat > /dev/null; echo $$ > '{}'; exec sleep 600",
                pid_file.display()
            )
        },
        &[],
    );
}

/// Row 712's kill where the handler's shell forks (`sleep 600 &`, as dash forks the last
/// command of `a; b`, attacks row 713): the forked `sleep` dies with hookx too, its group killed
/// by hookx's guardian (attacks row 800). Before, the shell died of its parent-death signal and
/// the `sleep` ran on, reparented to init.
#[cfg(target_os = "linux")]
#[test]
fn what_a_handler_forked_dies_with_hookx_when_the_host_sigkills_its_group() {
    host_sigkills_exec_group(sleeper_script, &[]);
}

/// Row 803: the host SIGKILLs hookx's group after the handler's shell started and before hookx
/// could do anything else (a debug-only delay holds hookx there until the kill; the handler does
/// not wait for its input, so its pid is in the file while hookx waits). The handler ends with
/// hookx: its group was recorded before it started. Before, the group was recorded only once
/// the start had returned, and the guardian, not told of it, left it running.
#[cfg(target_os = "linux")]
#[test]
fn a_handler_sigkilled_with_hookx_just_after_its_start_dies_with_it() {
    host_sigkills_exec_group(
        |pid_file| format!("echo $$ > '{}'; exec sleep 600", pid_file.display()),
        &[("HOOKX_TEST_SPAWN_DELAY_MS", "600000")],
    );
}

/// A host that ignores SIGCHLD hands that to hookx (an ignored signal stays ignored across
/// `exec`): the kernel then reaps hookx's handlers itself, and hookx could not read how one
/// ended ("lost track of the handler", and with row 1001's group made ahead, "cannot start
/// /bin/sh"): the handler's `exit 2`, a deny, was lost under Claude (attacks row 1005).
#[cfg(unix)]
#[test]
fn a_host_that_ignores_sigchld_loses_no_deny() {
    use std::os::unix::process::CommandExt as _;
    let dir = tempfile::tempdir().unwrap();
    let mut host = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"));
    host.current_dir(dir.path())
        .env_remove("CLAUDE_PROJECT_DIR")
        .args(["exec", "--host", "claude", "--as", "claude", "--"])
        .arg("echo blocked >&2; exit 2");
    // SAFETY: `signal` is async-signal-safe, and nothing else runs between fork and exec.
    unsafe {
        host.pre_exec(|| {
            libc::signal(libc::SIGCHLD, libc::SIG_IGN);
            Ok(())
        });
    }
    let mut cmd = Command::from_std(host);
    cmd.write_stdin(payload(CLAUDE_PRE, dir.path()))
        .timeout(HARD_LIMIT);
    claude_deny("blocked", &run(cmd));
}

/// The same with valgrind's preload named in `LD_PRELOAD`, a variable a project's settings set
/// for every hook: hookx keeps its guardian. Before, the name alone turned it off.
#[cfg(target_os = "linux")]
#[test]
fn a_projects_ld_preload_naming_valgrind_keeps_the_guardian() {
    host_sigkills_exec_group(
        sleeper_script,
        &[("LD_PRELOAD", "/nonexistent/vgpreload_core-amd64-linux.so")],
    );
}

/// The same kill where the handler is itself a `hookx exec` (what `convert --wrap` writes) whose
/// handler forks: the outer guardian kills the inner hookx with its handler's group, and the
/// inner hookx's guardian kills the inner handler's group (attacks row 802). Before, the inner
/// `sleep` ran on.
#[cfg(target_os = "linux")]
#[test]
fn a_nested_hookx_execs_handler_dies_with_the_outer_hookx() {
    host_sigkills_exec_group(
        |pid_file| {
            format!(
                "'{}' exec --host claude --as claude --timeout 600 -- \"{}\"; true",
                env!("CARGO_BIN_EXE_hookx"),
                // `$!` is the inner shell's: not expanded by the outer one.
                sleeper_script(pid_file).replace('$', "\\$")
            )
        },
        &[],
    );
}

/// `hookx exec --timeout 600 -- SCRIPT` in a group of its own, `script(pid_file)` writing the
/// pid to watch; the group SIGKILLed once the pid is there; that process must then end.
fn host_sigkills_exec_group(script: impl Fn(&Path) -> String, env: &[(&str, &str)]) {
    use std::io::Write as _;
    use std::os::unix::process::CommandExt as _;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("handler.pid");
    let script = script(&pid_file);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .current_dir(dir.path())
        .args([
            "exec",
            "--host",
            "claude",
            "--as",
            "claude",
            "--timeout",
            "600",
            "--",
        ])
        .arg(&script)
        .envs(env.iter().copied())
        // A group of hookx's own, as Qwen starts a hook (`detached: true`).
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&payload(CLAUDE_PRE, dir.path())).unwrap();
    drop(stdin);
    let pid = handler_pid(&pid_file);
    let group = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    rustix::process::kill_process_group(group, rustix::process::Signal::KILL).unwrap();
    let _ = child.wait();
    let gone = gone_soon(pid);
    kill(pid);
    assert!(
        gone,
        "the handler's process {pid} outlived the hookx that was SIGKILLed"
    );
}

/// Attacks row 1475: a handler answers and exits while a child it started in the background
/// (`npm install &`, a build that prints its progress) still writes to the handler's stdout.
/// hookx answers without waiting for it, and the child writes on after hookx has exited, as
/// it would under the agent the hook was written for, which reads on (Claude Code 2.1.332,
/// live: `live_claude::handlers_that_leave_children_behind`). Before, hookx closed its end at
/// its exit and the child died of SIGPIPE at its next write. Bound by events: the child writes
/// only once hookx has exited and the test says so.
#[cfg(unix)]
#[test]
fn a_child_left_writing_to_the_handlers_stdout_outlives_hookx() {
    let dir = tempfile::tempdir().unwrap();
    let (go, wrote, pid_file) = (
        dir.path().join("go"),
        dir.path().join("wrote"),
        dir.path().join("writer.pid"),
    );
    let script = format!(
        "(while [ ! -e '{go}' ]; do sleep 0.05; done; echo tick; echo tick >&2; \
         echo yes > '{wrote}') & echo $! > '{pid}'; echo blocked >&2; exit 2",
        go = go.display(),
        wrote = wrote.display(),
        pid = pid_file.display(),
    );
    let ran = exec_in(
        dir.path(),
        "claude",
        payload(CLAUDE_PRE, dir.path()),
        "claude",
        &[],
        &script,
    );
    claude_deny("blocked", &ran);
    let writer = handler_pid(&pid_file);
    std::fs::write(&go, "").unwrap();
    assert!(gone_soon(writer), "the writer did not end");
    assert!(
        wrote.exists(),
        "the child died writing to the handler's stdout once hookx had exited"
    );
}
