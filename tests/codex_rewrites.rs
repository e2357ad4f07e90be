//! Rewrites and denies as Codex CLI 0.171.0 takes them (conformance/codex-facts.md, run by
//! `tests/live_codex.rs` `ground_truth_updated_input`): it runs an `updatedInput` only beside
//! `permissionDecision: "allow"`, refuses a whole answer that carries one with any other
//! decision or none (a deny included: the original call runs), and refuses a deny without a
//! reason. Through the real binary: `hookx exec` runs one handler answering as its dialect does,
//! and what hookx writes for Codex (or reads from a Codex handler) is checked.

mod common;

use serde_json::{Value, json};

/// A PreToolUse payload of `host` for the shell call `npm test` in `project`.
fn payload(host: &str, project: &str) -> Value {
    let mut p = json!({"session_id": "s", "transcript_path": null, "cwd": project,
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "npm test"}, "tool_use_id": "call_1"});
    if host == "codex" {
        p["turn_id"] = json!("t");
        p["model"] = json!("gpt-5.5");
        p["permission_mode"] = json!("bypassPermissions");
    } else {
        p["permission_mode"] = json!("default");
    }
    p
}

/// `hookx exec --host HOST --as FLAVOR` over a handler that prints `answer`: hookx's stdout as
/// JSON (`Null` when empty) and its stderr.
fn exec(host: &str, flavor: &str, answer: &Value) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().display().to_string();
    let out = common::hookx()
        .args([
            "exec",
            "--host",
            host,
            "--as",
            flavor,
            "--event",
            "PreToolUse",
        ])
        .args(["--project", &project, "--", "sh", "-c"])
        .arg("cat >/dev/null; printf '%s' \"$ANSWER\"")
        .current_dir(dir.path())
        .env_remove("HOOKX_HOST")
        .env("ANSWER", answer.to_string())
        .write_stdin(payload(host, &project).to_string())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "hookx exec failed: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = if stdout.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
    };
    (json, stderr)
}

fn claude(fields: Value) -> Value {
    let mut hso = json!({"hookEventName": "PreToolUse"});
    hso.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    json!({ "hookSpecificOutput": hso })
}

/// What Codex runs the rewrite with: `allow` and the new `{command}`.
fn codex_rewrite(command: &str) -> Value {
    claude(json!({"permissionDecision": "allow", "updatedInput": {"command": command}}))
}

#[test]
fn a_rewrite_with_allow_reaches_codex() {
    for (flavor, answer) in [
        (
            "claude",
            claude(json!({"permissionDecision": "allow",
                "updatedInput": {"command": "npm ci"}})),
        ),
        (
            "copilot",
            json!({"permissionDecision": "allow", "modifiedArgs": {"command": "npm ci"}}),
        ),
        (
            "codex",
            claude(json!({"permissionDecision": "allow",
                "updatedInput": {"command": "npm ci"}})),
        ),
    ] {
        let (out, stderr) = exec("codex", flavor, &answer);
        assert_eq!(out, codex_rewrite("npm ci"), "{flavor}: {stderr}");
    }
}

/// A rewrite no handler decided on (Claude's `updatedInput` alone, Copilot's `modifiedArgs`
/// alone) goes to Codex beside an `allow`, which leaves Codex's own approval in place. One
/// beside an `ask`, which Codex cannot take, is denied with the ask (attacks row 1160).
#[test]
fn a_rewrite_without_a_decision_goes_to_codex_with_allow() {
    let (out, stderr) = exec(
        "codex",
        "claude",
        &claude(json!({"updatedInput": {"command": "npm ci"}})),
    );
    assert_eq!(out, codex_rewrite("npm ci"), "claude: {stderr}");
    let (out, stderr) = exec(
        "codex",
        "copilot",
        &json!({"modifiedArgs": {"command": "npm ci"}}),
    );
    assert_eq!(out, codex_rewrite("npm ci"), "copilot: {stderr}");
    let (out, stderr) = exec(
        "codex",
        "claude",
        &claude(
            json!({"permissionDecision": "ask", "permissionDecisionReason": "sure?",
            "updatedInput": {"command": "npm ci"}}),
        ),
    );
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "ask: {out} {stderr}"
    );
    assert!(out["hookSpecificOutput"]["updatedInput"].is_null(), "{out}");
}

/// Beside a deny Codex would refuse the whole answer and run the original call: the deny is
/// written alone, and always with a reason (Codex refuses a deny without one too).
#[test]
fn a_deny_reaches_codex_alone_and_with_a_reason() {
    let (out, stderr) = exec(
        "codex",
        "claude",
        &claude(
            json!({"permissionDecision": "deny", "permissionDecisionReason": "no",
            "updatedInput": {"command": "npm ci"}}),
        ),
    );
    assert_eq!(
        out,
        claude(json!({"permissionDecision": "deny", "permissionDecisionReason": "no"})),
        "{stderr}"
    );
    for (flavor, answer) in [
        ("claude", claude(json!({"permissionDecision": "deny"}))),
        ("copilot", json!({"permissionDecision": "deny"})),
    ] {
        let (out, stderr) = exec("codex", flavor, &answer);
        assert_eq!(
            out,
            claude(
                json!({"permissionDecision": "deny", "permissionDecisionReason": "denied by hook"})
            ),
            "{flavor}: {stderr}"
        );
    }
}

/// A Codex handler's rewrite counts only beside its `allow`, as in Codex: without it, hookx
/// (here under Claude) runs the original call and says so.
#[test]
fn a_codex_handler_rewrite_without_allow_is_ignored() {
    let (out, stderr) = exec(
        "claude",
        "codex",
        &claude(json!({"updatedInput": {"command": "npm ci"}})),
    );
    assert_eq!(out, Value::Null, "{stderr}");
    assert!(stderr.contains("takes it only beside an allow"), "{stderr}");
    let (out, stderr) = exec(
        "claude",
        "codex",
        &claude(json!({"permissionDecision": "allow", "updatedInput": {"command": "npm ci"}})),
    );
    assert_eq!(
        out["hookSpecificOutput"]["updatedInput"]["command"], "npm ci",
        "{stderr}"
    );
}
