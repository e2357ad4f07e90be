//! Inputs built to exhaust hookx must not hang it: a matcher with catastrophic backtracking
//! (regress, the ECMAScript engine, has no step limit) and a config far larger than any real one.

use assert_cmd::Command;
use std::time::{Duration, Instant};

/// A Claude PreToolUse payload whose tool name is forty `a`s and a `!`: `(a+)+$` and `(a|a)*b`
/// try 2^40 ways to split it before failing.
fn evil_payload() -> String {
    serde_json::json!({
        "session_id": "s",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/tmp",
        "hook_event_name": "PreToolUse",
        "tool_name": format!("{}!", "a".repeat(40)),
        "tool_input": {},
    })
    .to_string()
}

#[test]
fn exec_answers_quickly_when_a_matcher_backtracks_catastrophically() {
    for matcher in ["(a+)+$", "(a|a)*b", "^(a|aa)+$"] {
        let started = Instant::now();
        let out = Command::cargo_bin("hookx")
            .unwrap()
            .args([
                "exec", "--as", "claude", "--match", matcher, "--host", "claude",
            ])
            .args(["--", "true"])
            .env_remove("CLAUDE_PROJECT_DIR")
            .write_stdin(evil_payload())
            .timeout(Duration::from_secs(30))
            .assert()
            .success();
        let elapsed = started.elapsed();
        assert!(elapsed < Duration::from_secs(10), "{matcher}: {elapsed:?}");
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            stderr.contains(&format!("matcher `{matcher}` ran away")) && stderr.contains("skipped"),
            "{matcher}: {stderr}"
        );
    }
}

#[test]
fn validate_refuses_a_20_mb_config_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let mut text = String::from("{\"hooks\": {}");
    text.push_str(&" ".repeat(20 * 1024 * 1024));
    text.push('}');
    std::fs::write(&path, text).unwrap();
    let started = Instant::now();
    let out = Command::cargo_bin("hookx")
        .unwrap()
        .arg("validate")
        .arg(&path)
        .timeout(Duration::from_secs(30))
        .assert()
        .code(1);
    assert!(started.elapsed() < Duration::from_secs(5));
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("is 20971533 bytes; hookx reads config files up to 16777216 bytes"),
        "{stderr}"
    );
}
