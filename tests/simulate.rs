//! `hookx simulate` and `hookx validate` as CI steps: did-you-mean, the exit code of the
//! decision and `--expect`, handlers the host runs itself, JSON output, `--deny-warnings`, and
//! validating what `list` finds.

mod common;

use serde_json::Value;
use std::path::Path;

const DENY: &str = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no\"}}'"}]}]}}"#;

fn simulate(project: &Path, args: &[&str]) -> std::process::Output {
    common::hookx()
        .arg("simulate")
        .args(args)
        .arg("--project")
        .arg(project)
        .arg("--home")
        .arg(project)
        .env("HOME", project)
        .env_remove("HOOKX_HOME")
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn unknown_events_and_tools_get_a_did_you_mean() {
    let dir = tempfile::tempdir().unwrap();
    let out = simulate(dir.path(), &["--host", "copilot", "--event", "preToolUs"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean `preToolUse`?"),
        "{}",
        text(&out.stderr)
    );
    let out = simulate(
        dir.path(),
        &["--host", "claude", "--event", "PreToolUse", "--tool", "Bsh"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean `Bash`?"),
        "{}",
        text(&out.stderr)
    );
    // MCP and unknown tools with no close name are sent as given.
    let out = simulate(
        dir.path(),
        &[
            "--host",
            "claude",
            "--event",
            "PreToolUse",
            "--tool",
            "mcp__x__y",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// Claude runs its own settings itself: simulate shows the handler, and the deny it answers is
/// the decision and a non-zero exit; `--expect deny` passes; the JSON report embeds the
/// handler's stdout as JSON.
#[test]
fn native_handlers_decide_and_the_exit_code_says_so() {
    let dir = tempfile::tempdir().unwrap();
    common::write(dir.path(), ".claude/settings.json", DENY);
    let args = [
        "--host",
        "claude",
        "--event",
        "PreToolUse",
        "--tool",
        "Bash",
        "--input",
        r#"{"command":"ls"}"#,
    ];
    let out = simulate(dir.path(), &args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{stdout}");
    assert!(stdout.contains("run by claude itself"), "{stdout}");
    assert!(stdout.contains("decision: deny"), "{stdout}");
    let mut expect = args.to_vec();
    expect.extend(["--expect", "deny"]);
    assert_eq!(simulate(dir.path(), &expect).status.code(), Some(0));
    expect.pop();
    expect.push("allow");
    let out = simulate(dir.path(), &expect);
    assert_eq!(out.status.code(), Some(4));
    assert!(
        text(&out.stderr).contains("expected allow, the decision is deny"),
        "{}",
        text(&out.stderr)
    );
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let out = simulate(dir.path(), &json_args);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["decision"], "deny");
    let run = &report["native"]["runs"][0];
    assert_eq!(
        run["stdout"]["hookSpecificOutput"]["permissionDecision"], "deny",
        "{report:#}"
    );
}

#[test]
fn validate_deny_warnings_and_validate_what_list_finds() {
    let dir = tempfile::tempdir().unwrap();
    // A warning only: a timeout that looks like milliseconds.
    let warned =
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true","timeout":5000}]}]}}"#;
    let path = common::write(dir.path(), ".claude/settings.json", warned);
    let validate = |args: &[&str]| {
        common::hookx()
            .arg("validate")
            .args(args)
            .env("HOME", dir.path())
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap()
    };
    let file = path.to_str().unwrap();
    assert_eq!(validate(&[file]).status.code(), Some(0));
    let out = validate(&[file, "--deny-warnings"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    // No file: what `hookx list` finds under the project.
    let project = dir.path().to_str().unwrap();
    let out = validate(&["--project", project, "--home", project, "--deny-warnings"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("settings.json"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stdout).contains("in 1 file(s)"),
        "{}",
        text(&out.stdout)
    );
}
