//! Attacks rows 1762 and 1820: a Claude `async: true` handler on `PreToolUse` (Claude runs it
//! in the background and ignores its answer), converted to a host with no `async` key
//! (Gemini, Copilot, Droid). The handler waits for the call it was fired for to have run,
//! then prints a deny. Run in the background as under Claude, the call runs (the host waits
//! for nothing) and the handler sees it; run in the foreground, as `convert` wrote it before,
//! the host waited for the handler's whole wait and its deny stopped the call.

use serde_json::{Value, json};
use std::path::Path;

/// The file the model's shell call makes in the project.
pub const CALLED: &str = "called-1820.txt";
/// The file the handler makes once it has seen the call run.
pub const SAW: &str = "saw-1820.txt";
/// The reason of the handler's deny.
pub const REASON: &str = "R1820-ASYNC";

/// The shell command the model runs, in `project`.
pub fn call(project: &str) -> String {
    format!("echo async-call > {project}/{CALLED}")
}

/// The Claude settings: the async handler on `Bash`. It waits for the call's file in its
/// folder, the project, while that folder lasts, at most 400 looks (20 s when the machine
/// is idle, within Copilot's 30 s, which runs it in the foreground; a loaded machine made
/// Codex's call come after 200, attacks row 2369).
pub fn claude_source() -> Value {
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": REASON}});
    let line = format!(
        "cat >/dev/null; i=0; while [ ! -e {CALLED} ] && [ -d \"$PWD\" ] && [ $i -lt 400 ]; \
         do sleep 0.05; i=$((i+1)); done; [ -e {CALLED} ] && touch {SAW}; printf '%s' '{deny}'"
    );
    json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": line, "async": true}]}]}})
}

/// Attacks row 2000: [`claude_source`] as a Qwen file (`.qwen/settings.json`, Qwen's name for
/// the shell tool), for a host that runs a project's Claude file itself (Copilot).
// Used by the Copilot suite alone.
#[allow(dead_code)]
pub fn qwen_source() -> Value {
    let mut source = claude_source();
    source["hooks"]["PreToolUse"][0]["matcher"] = "run_shell_command".into();
    source
}

/// The source written at `dir/.claude/settings.json` (outside the host's project, so that no
/// host reads it itself) and converted to `host` by this build: the converted document.
// Not used by the Qwen and Codex suites.
#[allow(dead_code)]
pub fn converted(dir: &Path, host: &str) -> Value {
    let src = dir.join(".claude/settings.json");
    std::fs::create_dir_all(src.parent().unwrap()).unwrap();
    std::fs::write(&src, claude_source().to_string()).unwrap();
    let out = crate::common::hookx()
        .current_dir(dir)
        .args([
            "convert",
            ".claude/settings.json",
            "--to",
            host,
            "--format",
            "json",
        ])
        .args(["--hookx", env!("CARGO_BIN_EXE_hookx")])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    serde_json::from_str(report["output"].as_str().unwrap()).unwrap()
}

/// What went otherwise than under Claude, after the session: `result` is the shell call's
/// result as the model got it. Waits (at most 20 s) for the handler, which may still run.
pub fn failures(project: &Path, result: &str) -> Vec<String> {
    let mut failed = Vec::new();
    if !project.join(CALLED).exists() {
        failed.push(format!(
            "the call ran (the async handler's deny did not count): {result}"
        ));
    }
    if result.contains(REASON) {
        failed.push(format!(
            "the handler's deny is not the call's result: {result}"
        ));
    }
    let mut waited = 0;
    while !project.join(SAW).exists() && waited < 400 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        waited += 1;
    }
    if !project.join(SAW).exists() {
        failed.push("the handler, still running when the call ran, saw it run".into());
    }
    failed
}

/// The client's exit, which must be 0 (`status`, with its `stderr`), then [`failures`].
// Used by the Codex, Gemini and Qwen suites alone.
#[allow(dead_code)]
pub fn failures_after_exit(
    status: Option<i32>,
    stderr: &str,
    project: &Path,
    result: &str,
) -> Vec<String> {
    let mut failed = Vec::new();
    if status != Some(0) {
        failed.push(format!("exit {status:?}: {stderr}"));
    }
    failed.extend(failures(project, result));
    failed
}

/// The file [`with_a_late_stop_logger`]'s handler makes, 2 s after the session's `Stop`.
// Used by the Qwen, Codex and Droid suites alone.
#[allow(dead_code)]
pub const STOP_LOGGED: &str = "stop-logged-2013.txt";

/// Attacks rows 2013-2015: `source` (a Claude file) with an `async: true` handler on `Stop`
/// beside it that waits 2 s, then makes [`STOP_LOGGED`] in its folder: it runs on past the
/// answer to the session's last hook, and so past the host's own end in a one-shot run.
#[allow(dead_code)]
pub fn with_a_late_stop_logger(mut source: Value) -> Value {
    let line = format!("cat >/dev/null; sleep 2; touch {STOP_LOGGED}");
    source["hooks"]["Stop"] =
        json!([{"hooks": [{"type": "command", "command": line, "async": true}]}]);
    source
}

/// Whether [`with_a_late_stop_logger`]'s handler ran to its end (waits at most 20 s).
#[allow(dead_code)]
pub fn stop_logged(project: &Path) -> bool {
    let mut waited = 0;
    while !project.join(STOP_LOGGED).exists() && waited < 400 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        waited += 1;
    }
    project.join(STOP_LOGGED).exists()
}
