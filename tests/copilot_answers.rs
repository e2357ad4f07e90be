//! Answers as Copilot CLI 1.0.102 takes them, probed against the real client with hookx out of
//! the loop (`tests/live_copilot.rs` `ground_truth_answer_forms`, conformance/copilot-facts.md):
//! `additionalContext` on preToolUse reaches the model (a user message "Additional context from
//! preToolUse hook"), in both casings; `{decision: "block", reason}` on postToolUse replaces
//! the tool's result with "Tool result blocked: REASON", in both casings. Through the real
//! binary: `hookx exec --host copilot --as claude` runs one Claude handler, and what hookx
//! writes for Copilot is checked.

mod common;

use serde_json::{Value, json};

/// `hookx exec --host copilot --as claude --event EVENT` over a handler printing `answer`.
fn exec(event: &str, answer: &Value) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().display().to_string();
    let mut payload = json!({"sessionId": "s", "timestamp": 1, "cwd": project,
        "toolName": "bash", "toolArgs": {"command": "npm test"}});
    if event == "postToolUse" {
        payload["toolResult"] = json!({"resultType": "success", "textResultForLlm": "ok"});
    }
    let out = common::hookx()
        .args([
            "exec", "--host", "copilot", "--as", "claude", "--event", event,
        ])
        .args(["--project", &project, "--", "sh", "-c"])
        .arg("cat >/dev/null; printf '%s' \"$ANSWER\"")
        .current_dir(dir.path())
        .env_remove("HOOKX_HOST")
        .env("ANSWER", answer.to_string())
        .write_stdin(payload.to_string())
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

/// A Claude handler's PreToolUse context reaches the model under Copilot. Its allow is left to
/// Copilot's own flow: Copilot's allow also passes `--deny-tool`, Claude's no deny rule
/// (attacks row 1494).
#[test]
fn pre_tool_use_context_reaches_copilot() {
    let (out, err) = exec(
        "preToolUse",
        &json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "allow", "additionalContext": "C-PRE"}}),
    );
    assert_eq!(out["additionalContext"], "C-PRE", "{out} {err}");
    assert_eq!(out["permissionDecision"], Value::Null, "{out} {err}");
    assert!(err.contains("allow left to Copilot"), "{err}");
}

/// A Claude handler's PostToolUse block (its reason reaches the model) is Copilot's
/// `decision: block` (the result replaced by "Tool result blocked: REASON").
#[test]
fn post_tool_use_block_reaches_copilot() {
    let (out, err) = exec(
        "postToolUse",
        &json!({"decision": "block", "reason": "R-POST"}),
    );
    assert_eq!(out["decision"], "block", "{out} {err}");
    assert_eq!(out["reason"], "R-POST", "{out} {err}");
}
