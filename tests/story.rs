//! The new user's story (issue 10), end to end with the real binary: a Claude project with a
//! Bash guard that reads `.tool_input.command`, converted for Copilot with `hookx convert
//! --out .github/hooks/hooks.json --write` (a plain `--write` writes Copilot no copy: it reads
//! the Claude file itself); the converted entry is run as Copilot runs it (`sh -c` with
//! Copilot's payload on stdin and Copilot's environment, which includes `CLAUDE_PROJECT_DIR`),
//! and `hookx simulate --expect` is the CI step that checks the answer.

mod common;

use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const GUARD: &str = r#"#!/bin/sh
cmd=$(jq -r '.tool_input.command // empty')
case "$cmd" in
  "rm -rf /"*) echo "refusing: $cmd" >&2; exit 2 ;;
esac
exit 0
"#;

fn settings(timeout: u64) -> String {
    json!({
        "hooks": {
            "PreToolUse": [{
                "matcher": "Bash",
                "hooks": [{
                    "type": "command",
                    "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh",
                    "timeout": timeout
                }]
            }],
            "PostToolUse": [{
                "matcher": "Edit|Write",
                "hooks": [{"type": "command", "command": "true"}]
            }]
        }
    })
    .to_string()
}

/// A project with the guard and its settings.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let guard = common::write(dir.path(), ".claude/hooks/guard.sh", GUARD);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&guard, std::fs::Permissions::from_mode(0o755)).unwrap();
    common::write(dir.path(), ".claude/settings.json", &settings(5));
    dir
}

fn hookx_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("hookx")
}

/// `PATH` with the hookx binary's folder first, as after `cargo install`.
fn path_with_hookx() -> String {
    format!(
        "{}:/usr/local/bin:/usr/bin:/bin",
        hookx_bin().parent().unwrap().display()
    )
}

/// `convert --write` into Copilot's hook file, named with `--out`: without it, `--write` gives
/// Copilot no copy, since Copilot reads `.claude/settings.json` itself (issue 24).
fn convert(project: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    let mut args = vec![
        ".claude/settings.json",
        "--to",
        "copilot",
        "--out",
        ".github/hooks/hooks.json",
        "--write",
    ];
    args.extend(extra);
    common::hookx()
        .current_dir(project)
        .arg("convert")
        .args(args)
        .assert()
        .success()
}

/// The `preToolUse` entries hookx wrote for Copilot.
fn copilot_entries(project: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(project.join(".github/hooks/hooks.json")).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    file["hooks"]["preToolUse"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

/// Runs one Copilot entry's `bash` line as Copilot 1.0.102 does, for a bash call of `command`:
/// its exit code, stdout and stderr.
fn run_as_copilot(
    project: &Path,
    entry: &Value,
    command: &str,
    path: &str,
) -> (i32, String, String) {
    let line = entry["bash"].as_str().expect("a bash line");
    let payload = json!({
        "sessionId": "s1",
        "timestamp": 1_760_000_000_000u64,
        "cwd": project,
        "toolName": "bash",
        "toolArgs": {"command": command, "description": "run it"}
    });
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(project)
        .env_clear()
        .env("PATH", path)
        .env("HOME", project)
        .env("COPILOT_CLI", "1")
        .env("COPILOT_PROJECT_DIR", project)
        // Copilot sets Claude's variable too: hookx must not take it for Claude.
        .env("CLAUDE_PROJECT_DIR", project)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A line that fails before reading stdin (hookx missing) closes the pipe early.
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Whether Copilot reads the answer as a deny (exit 2, or `permissionDecision: deny`).
fn denied(code: i32, stdout: &str) -> bool {
    code == 2
        || serde_json::from_str::<Value>(stdout).is_ok_and(|v| v["permissionDecision"] == "deny")
}

#[test]
fn a_plain_convert_write_keeps_the_guard_working_under_copilot() {
    let dir = project();
    convert(dir.path(), &[]);
    let entries = copilot_entries(dir.path());
    assert_eq!(entries.len(), 1, "{entries:#?}");
    let (code, stdout, stderr) =
        run_as_copilot(dir.path(), &entries[0], "rm -rf /", &path_with_hookx());
    assert!(
        denied(code, &stdout),
        "rm -rf / went through: {code} {stdout} {stderr}"
    );
    let (code, stdout, stderr) = run_as_copilot(dir.path(), &entries[0], "ls", &path_with_hookx());
    assert!(
        !denied(code, &stdout),
        "ls was denied: {code} {stdout} {stderr}"
    );
}

/// What the issue saw: written as is (`--no-wrap`), the guard reads Copilot's payload, finds
/// no `.tool_input.command`, and lets `rm -rf /` through. The report says so.
#[test]
fn without_wrapping_the_guard_fails_open_and_the_report_says_so() {
    let dir = project();
    let assert = convert(dir.path(), &["--no-wrap"]);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
    assert!(stderr.contains("/hooks/PreToolUse/0/hooks/0"), "{stderr}");
    assert!(!stderr.contains("no losses"), "{stderr}");
    let entries = copilot_entries(dir.path());
    let (code, stdout, _) = run_as_copilot(dir.path(), &entries[0], "rm -rf /", &path_with_hookx());
    assert!(!denied(code, &stdout));
}

/// Where hookx is not installed, a wrapped guard denies with one message that names the fix;
/// a wrapped formatter (an event exit 2 does not block) fails with the same message, exit 1.
#[test]
fn a_wrapped_entry_without_hookx_says_how_to_fix_it() {
    let dir = project();
    convert(dir.path(), &[]);
    let entries = copilot_entries(dir.path());
    let (code, stdout, stderr) = run_as_copilot(dir.path(), &entries[0], "ls", "/usr/bin:/bin");
    // Copilot reads a preToolUse deny's reason from JSON (exit 2 drops stderr): the answer
    // denies and says why; stderr says it once more for the log.
    assert!(denied(code, &stdout), "{code} {stdout} {stderr}");
    let answer: Value = serde_json::from_str(&stdout).unwrap();
    let reason = answer["permissionDecisionReason"].as_str().unwrap();
    assert!(
        reason.contains("hookx not found") && reason.contains("--hookx PATH"),
        "{reason}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    let text = std::fs::read_to_string(dir.path().join(".github/hooks/hooks.json")).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let post = file["hooks"]["postToolUse"][0]["bash"].as_str().unwrap();
    assert!(post.contains("exit 1; }"), "{post}");
}

/// `--hookx PATH` names the program wrapped entries call: they work with no hookx on `PATH`.
#[test]
fn hookx_path_sets_the_program_wrapped_entries_call() {
    let dir = project();
    let bin = hookx_bin();
    convert(dir.path(), &["--hookx", bin.to_str().unwrap()]);
    let entries = copilot_entries(dir.path());
    let line = entries[0]["bash"].as_str().unwrap();
    assert!(
        line.contains(&format!("{} exec --host copilot", bin.display())),
        "{line}"
    );
    let (code, stdout, stderr) =
        run_as_copilot(dir.path(), &entries[0], "rm -rf /", "/usr/bin:/bin");
    assert!(denied(code, &stdout), "{code} {stdout} {stderr}");
}

/// `simulate --expect` is a CI step: the deny is a non-zero exit under `--expect allow`, and
/// exit 0 under `--expect deny`.
#[test]
fn simulate_expect_checks_the_decision() {
    let dir = project();
    convert(dir.path(), &[]);
    let simulate_in = |trusted: bool, expect: &str, command: &str| {
        let mut cmd = common::hookx();
        // Copilot runs the project's hooks in `-p` only in a trusted folder: CI says so.
        match trusted {
            true => cmd.env("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true"),
            false => cmd.env_remove("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS"),
        };
        cmd.env_remove("COPILOT_ALLOW_ALL")
            .current_dir(dir.path())
            .env("PATH", path_with_hookx())
            .env("HOOKX_HOME", dir.path())
            .env("HOME", dir.path())
            .args([
                "simulate",
                "--host",
                "copilot",
                "--event",
                "preToolUse",
                "--tool",
                "bash",
            ])
            .args(["--input", &json!({"command": command}).to_string()])
            .args(["--expect", expect, "--project"])
            .arg(dir.path())
            .output()
            .unwrap()
    };
    // In a folder Copilot does not trust, it runs none of the project's hooks: the deny a
    // test expects is not there, and the report says why.
    let out = simulate_in(false, "deny", "rm -rf /");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{stdout}");
    assert!(stdout.contains("decision: allow"), "{stdout}");
    assert!(
        stdout.contains("not run by copilot: Copilot reads it only in a trusted folder"),
        "{stdout}"
    );
    let simulate = |expect: &str, command: &str| simulate_in(true, expect, command);
    let out = simulate("allow", "rm -rf /");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{stdout}");
    assert!(stdout.contains("decision: deny"), "{stdout}");
    // The handlers Copilot runs itself are shown, with the payload it sends them.
    assert!(stdout.contains("run by copilot itself"), "{stdout}");
    assert!(stdout.contains("toolArgs"), "{stdout}");
    assert_eq!(simulate("deny", "rm -rf /").status.code(), Some(0));
    assert_eq!(simulate("allow", "ls").status.code(), Some(0));
}

/// Editing the source and re-running a plain `convert --write` leaves exactly one entry for the
/// guard (with the new timeout); a hook deleted from the source leaves the target too; a second
/// identical run changes nothing.
#[test]
fn re_running_write_after_an_edit_leaves_one_entry() {
    let dir = project();
    convert(dir.path(), &[]);
    common::write(dir.path(), ".claude/settings.json", &settings(7));
    convert(dir.path(), &[]);
    let entries = copilot_entries(dir.path());
    assert_eq!(entries.len(), 1, "{entries:#?}");
    assert_eq!(entries[0]["timeoutSec"], 7, "{entries:#?}");
    let (code, stdout, _) = run_as_copilot(dir.path(), &entries[0], "rm -rf /", &path_with_hookx());
    assert!(denied(code, &stdout));
    let file = dir.path().join(".github/hooks/hooks.json");
    let before = std::fs::read(&file).unwrap();
    convert(dir.path(), &[]);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        before,
        "a second identical run changed the file"
    );
    // The formatter deleted from the source goes from the target.
    let mut only_guard: Value = serde_json::from_str(&settings(7)).unwrap();
    only_guard["hooks"]
        .as_object_mut()
        .unwrap()
        .remove("PostToolUse");
    common::write(dir.path(), ".claude/settings.json", &only_guard.to_string());
    convert(dir.path(), &[]);
    let text = std::fs::read_to_string(&file).unwrap();
    let target: Value = serde_json::from_str(&text).unwrap();
    assert!(target["hooks"].get("postToolUse").is_none(), "{text}");
    assert_eq!(copilot_entries(dir.path()).len(), 1);
}
