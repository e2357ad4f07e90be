//! The failure policy (README "When hookx cannot do its job"), through the real binary: for every
//! host flavour and event, what `hookx run` / `hookx exec` answer when they cannot do their job.
//! Tool-call guards (PreToolUse, PermissionRequest) deny in the host's own protocol at exit 0;
//! every other event gets a non-blocking exit 1, never exit 2 (Claude reads exit 2 on Stop as
//! "keep going", forever).
#![cfg(unix)]

mod common;

use assert_cmd::Command;
use common::{Ran, fixtures_dir, ran, write};
use hookx::dialect::{claude, copilot};
use hookx::model::EventKind;
use hookx::tables::{Dialect, Flavor};
use serde_json::{Value, json};
use std::path::Path;

/// The real binary with no agent variable inherited from whoever runs the tests.
fn hookx(dir: &Path) -> Command {
    common::hookx_clean(dir)
}

/// The command-line spelling of a flavour's host and of one of its events.
fn host_of(flavor: Flavor) -> &'static str {
    flavor.dialect().name()
}

fn is_guard(kind: &EventKind) -> bool {
    matches!(kind, EventKind::PreToolUse | EventKind::PermissionRequest)
}

/// The host read this answer as a deny of the tool call, in its own protocol.
fn assert_denies(flavor: Flavor, kind: &EventKind, ran: &Ran) {
    // A host that reads exit codes only (Windsurf), or only its first hook's permission field
    // (Droid, attacks row 2047): exit 2 denies, stderr is the reason.
    let p = &flavor.tables().protocol;
    let first_field = p.permission_fold == hookx::tables::PermissionFold::FirstField
        && p.exit2(kind) == Some(hookx::tables::Exit2::Deny);
    if p.answer.is_empty() || first_field {
        assert_eq!(ran.code, Some(2), "{flavor:?} {kind}: {ran:?}");
        assert_eq!(ran.stdout, "", "{flavor:?} {kind}: {ran:?}");
        assert!(
            ran.stderr.contains("hookx could not check this tool call"),
            "{flavor:?} {kind}: the deny says why: {ran:?}"
        );
        return;
    }
    assert_eq!(ran.code, Some(0), "{flavor:?} {kind}: {ran:?}");
    let v: Value = serde_json::from_str(ran.stdout.trim())
        .unwrap_or_else(|e| panic!("{flavor:?} {kind}: stdout is not JSON ({e}): {ran:?}"));
    let permission = *kind == EventKind::PermissionRequest;
    let denied = match flavor.name() {
        "claude" | "copilot-pascal" | "qwen" | "codex" if permission => {
            &v["hookSpecificOutput"]["decision"]["behavior"]
        }
        "copilot" if permission => &v["behavior"],
        "copilot" => &v["permissionDecision"],
        // BeforeTool: a top-level `decision` (gemini-facts.md).
        "gemini" => &v["decision"],
        "cursor" | "cursor-shell" | "cursor-mcp" | "cursor-read" | "cursor-edit" => {
            &v["permission"]
        }
        // Cline has no per-call deny: `cancel: true` ends the run (cline-facts.md).
        "cline" => &v["cancel"],
        _ => &v["hookSpecificOutput"]["permissionDecision"],
    };
    let expected = match flavor.name() {
        "cline" => Value::Bool(true),
        _ => Value::from("deny"),
    };
    assert_eq!(*denied, expected, "{flavor:?} {kind}: {ran:?}");
    assert!(
        v.to_string()
            .contains("hookx could not check this tool call"),
        "{flavor:?} {kind}: the deny says why: {ran:?}"
    );
}

/// The host read this answer as a non-blocking error: nothing blocked, the reason on stderr.
fn assert_passes_with_error(flavor: Flavor, kind: &EventKind, ran: &Ran) {
    assert_eq!(ran.code, Some(1), "{flavor:?} {kind}: {ran:?}");
    assert_eq!(ran.stdout, "", "{flavor:?} {kind}: {ran:?}");
    assert!(
        ran.stderr.starts_with("hookx: "),
        "{flavor:?} {kind}: {ran:?}"
    );
}

fn assert_policy(flavor: Flavor, kind: &EventKind, ran: &Ran) {
    assert!(
        !ran.stderr.contains("panicked at"),
        "{flavor:?} {kind}: {ran:?}"
    );
    if is_guard(kind) {
        assert_denies(flavor, kind, ran);
    } else {
        assert_passes_with_error(flavor, kind, ran);
    }
}

/// Every row of the policy: each flavour's every event, with a payload hookx cannot read, through
/// `run` and through `exec`.
#[test]
fn every_host_and_event_answers_a_bad_payload_by_the_policy() {
    let dir = tempfile::tempdir().unwrap();
    let mut rows = 0;
    for &flavor in Flavor::all() {
        for (kind, name) in flavor.tables().events {
            for command in [
                vec!["run", "--host", host_of(flavor), "--event", name],
                vec![
                    "exec",
                    "--host",
                    host_of(flavor),
                    "--event",
                    name,
                    "--as",
                    "claude",
                    "--",
                    "true",
                ],
            ] {
                let ran = ran(hookx(dir.path())
                    .args(common::with_route_home(&command, dir.path()))
                    .write_stdin("{\"session_id\": \"s\", oops"));
                assert_policy(flavor, kind, &ran);
                assert!(ran.stderr.contains("not JSON"), "{command:?}: {ran:?}");
            }
            rows += 1;
        }
    }
    assert!(rows >= 40, "{rows} rows");
}

/// With no event named anywhere, the answer is a non-blocking exit 1 (Copilot, the one host
/// that sends no event name, reads it as a deny on preToolUse).
#[test]
fn an_unknown_event_with_a_bad_payload_is_a_non_blocking_error() {
    let dir = tempfile::tempdir().unwrap();
    for &host in Dialect::all() {
        let ran = ran(hookx(dir.path())
            .args(["run", "--host", host.name(), "--home"])
            .arg(dir.path())
            .write_stdin("not json"));
        assert_eq!(ran.code, Some(1), "{host}: {ran:?}");
        assert_eq!(ran.stdout, "", "{host}: {ran:?}");
    }
}

/// A seed payload of `flavor` for `event`, sent from `cwd`.
fn seed(flavor: Flavor, event: &str, cwd: &Path) -> Vec<u8> {
    let path = fixtures_dir()
        .join("payloads")
        .join(flavor.name())
        .join(format!("{event}.json"));
    let mut v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    v["cwd"] = cwd.display().to_string().into();
    v.to_string().into_bytes()
}

/// `hookx run --host claude --event EVENT` with a valid Claude payload, the environment
/// adjusted by `setup`.
fn claude_run(event: &str, cwd: &Path, setup: impl Fn(&mut Command)) -> Ran {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = hookx(dir.path());
    cmd.args(["run", "--host", "claude", "--event", event, "--home"])
        .arg(dir.path())
        .env("HOME", dir.path())
        .write_stdin(seed(claude::FLAVOR, event, cwd));
    setup(&mut cmd);
    ran(&mut cmd)
}

#[test]
fn no_home_denies_a_tool_call_and_never_blocks_a_stop() {
    // No home: no `--home`, no `HOME`, and no entry for the user in the account database.
    let project = tempfile::tempdir().unwrap();
    let passwd = project.path().join("passwd");
    for (event, kind) in [
        ("PreToolUse", EventKind::PreToolUse),
        ("Stop", EventKind::Stop),
        ("UserPromptSubmit", EventKind::UserPromptSubmit),
    ] {
        let program = assert_cmd::cargo::cargo_bin("hookx");
        let account = common::as_no_account(&passwd, &program)
            .expect("this test needs root: it takes the user's account entry away");
        let mut cmd = Command::from_std(account);
        cmd.args(["run", "--host", "claude", "--event", event])
            .current_dir(project.path())
            .env_remove("HOME")
            .env_remove("HOOKX_HOME")
            .env_remove("HOOKX_DEPTH")
            .timeout(std::time::Duration::from_secs(120))
            .write_stdin(seed(claude::FLAVOR, event, project.path()));
        let ran = ran(&mut cmd);
        assert_policy(claude::FLAVOR, &kind, &ran);
        assert!(ran.stderr.contains("home"), "{ran:?}");
    }
}

#[test]
fn a_payload_cwd_that_is_a_file_denies_a_tool_call_and_never_blocks_a_stop() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "not-a-dir", "x");
    for (event, kind) in [
        ("PreToolUse", EventKind::PreToolUse),
        ("Stop", EventKind::Stop),
        ("SubagentStop", EventKind::SubagentStop),
    ] {
        let ran = claude_run(event, &file, |_| {});
        assert_policy(claude::FLAVOR, &kind, &ran);
        assert!(ran.stderr.contains("not-a-dir"), "{ran:?}");
    }
}

#[test]
fn a_panic_answers_by_the_policy() {
    let project = tempfile::tempdir().unwrap();
    for (event, kind) in [
        ("PreToolUse", EventKind::PreToolUse),
        ("PermissionRequest", EventKind::PermissionRequest),
        ("Stop", EventKind::Stop),
        ("SessionStart", EventKind::SessionStart),
    ] {
        let ran = claude_run(event, project.path(), |cmd| {
            cmd.env("HOOKX_TEST_PANIC", "1");
        });
        assert!(ran.stderr.contains("hookx: internal error"), "{ran:?}");
        assert_policy(claude::FLAVOR, &kind, &ran);
    }
    // Copilot's camelCase preToolUse, through exec.
    let ran = ran(hookx(project.path())
        .args([
            "exec",
            "--host",
            "copilot",
            "--event",
            "preToolUse",
            "--as",
            "copilot",
        ])
        .args(["--", "true"])
        .env("HOOKX_TEST_PANIC", "1")
        .write_stdin(seed(copilot::FLAVOR, "preToolUse", project.path())));
    assert_policy(copilot::FLAVOR, &EventKind::PreToolUse, &ran);
}

/// A value that makes the backtracking matcher `(a+)+$` run away.
fn runaway_value() -> String {
    format!("{}!", "a".repeat(40))
}

#[test]
fn a_trusted_matcher_that_cannot_be_evaluated_denies_a_tool_call() {
    let dir = tempfile::tempdir().unwrap();
    let mut payload: Value =
        serde_json::from_slice(&seed(claude::FLAVOR, "PreToolUse", dir.path())).unwrap();
    payload["tool_name"] = runaway_value().into();
    let marker = dir.path().join("ran");
    let ran = ran(hookx(dir.path())
        .args([
            "exec", "--host", "claude", "--as", "claude", "--match", "(a+)+$",
        ])
        .arg("--")
        .arg(format!("touch '{}'", marker.display()))
        .write_stdin(payload.to_string()));
    assert_denies(claude::FLAVOR, &EventKind::PreToolUse, &ran);
    assert!(ran.stderr.contains("ran away"), "{ran:?}");
    assert!(!marker.exists());
}

#[test]
fn a_matcher_that_cannot_be_evaluated_off_a_tool_call_blocks_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut payload: Value =
        serde_json::from_slice(&seed(claude::FLAVOR, "Notification", dir.path())).unwrap();
    payload["notification_type"] = runaway_value().into();
    let ran = ran(hookx(dir.path())
        .args([
            "exec", "--host", "claude", "--as", "claude", "--match", "(a+)+$",
        ])
        .args(["--", "echo 'blocked' >&2; exit 2"])
        .write_stdin(payload.to_string()));
    assert_eq!(ran.code, Some(0), "{ran:?}");
    assert_eq!(ran.stdout, "", "{ran:?}");
    assert!(ran.stderr.contains("ran away"), "{ran:?}");
}

// ---------------------------------------------------------------------------------------------
// Payloads a real host sends: they must reach the handlers, whose deny must hold.

/// `hookx exec --host claude --as claude` on `payload`, its handler denying with exit 2 after
/// copying its stdin to `got`.
fn deny_after_copying(dir: &Path, payload: Vec<u8>) -> (Ran, Vec<u8>) {
    let got = dir.join("got.json");
    let ran = ran(hookx(dir)
        .args(["exec", "--host", "claude", "--as", "claude", "--"])
        .arg(format!(
            "cat > '{}'; echo 'no way' >&2; exit 2",
            got.display()
        ))
        .write_stdin(payload));
    let received = std::fs::read(&got).unwrap_or_default();
    (ran, received)
}

#[test]
fn a_lone_surrogate_in_the_payload_reaches_the_handler_and_its_deny_holds() {
    let dir = tempfile::tempdir().unwrap();
    // Node's JSON.stringify of half an emoji.
    let payload = String::from_utf8(seed(claude::FLAVOR, "PreToolUse", dir.path()))
        .unwrap()
        .replace("npm test", "echo \\ud83d and \\udc00");
    let (ran, received) = deny_after_copying(dir.path(), payload.into_bytes());
    assert_denies_with(&ran, "no way");
    let received: Value = serde_json::from_slice(&received).unwrap();
    assert_eq!(
        received["tool_input"]["command"],
        "echo \u{fffd} and \u{fffd}"
    );
}

#[test]
fn a_payload_over_16_mib_reaches_the_handler_and_its_deny_holds() {
    let dir = tempfile::tempdir().unwrap();
    let content = "x".repeat(17 << 20);
    let payload = json!({
        "session_id": "s",
        "transcript_path": "/t",
        "cwd": dir.path(),
        "hook_event_name": "PreToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": "big.txt", "content": content},
    });
    let (ran, received) = deny_after_copying(dir.path(), payload.to_string().into_bytes());
    assert_denies_with(&ran, "no way");
    let received: Value = serde_json::from_slice(&received).unwrap();
    assert_eq!(
        received["tool_input"]["content"].as_str().map(str::len),
        Some(17 << 20)
    );
}

fn assert_denies_with(ran: &Ran, reason: &str) {
    assert_eq!(ran.code, Some(0), "{ran:?}");
    let v: Value = serde_json::from_str(ran.stdout.trim()).unwrap();
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"], "deny",
        "{ran:?}"
    );
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecisionReason"], reason,
        "{ran:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// The README says the same as the tables.

/// The README's policy table lists, per flavour, exactly the events the tables fail closed on.
#[test]
fn the_readme_policy_table_is_the_tables() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    for &flavor in Flavor::all() {
        let t = flavor.tables();
        let row = readme
            .lines()
            .find(|l| l.starts_with(&format!("| {} |", flavor.name())))
            .unwrap_or_else(|| panic!("README has no policy row for {}", flavor.name()));
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let names = |cell: &str| -> Vec<String> {
            let mut v: Vec<String> = cell
                .split(',')
                .map(|s| s.trim().trim_matches('`').to_string())
                .filter(|s| !s.is_empty())
                .collect();
            v.sort();
            v
        };
        let mut deny: Vec<String> = t
            .events
            .iter()
            .filter(|(k, _)| t.protocol.fail_closed.contains(k))
            .map(|(_, n)| n.to_string())
            .collect();
        deny.sort();
        let mut pass: Vec<String> = t
            .events
            .iter()
            .filter(|(k, _)| !t.protocol.fail_closed.contains(k))
            .map(|(_, n)| n.to_string())
            .collect();
        pass.sort();
        assert_eq!(names(cells[2]), deny, "README row {row}");
        assert_eq!(names(cells[3]), pass, "README row {row}");
    }
}
