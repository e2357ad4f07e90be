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

/// Every diagnostic names a position; finding it must not rescan the file (it once took minutes
/// for a few thousand warnings). 20,000 handlers without a `type`, minified (one line of
/// about a megabyte) and as YAML frontmatter.
#[test]
fn validate_locates_thousands_of_diagnostics_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let n = 20_000;
    let rules: Vec<_> = (0..n)
        .map(
            |i| serde_json::json!({"matcher": "Bash", "hooks": [{"command": format!("echo {i}")}]}),
        )
        .collect();
    let json = dir.path().join("settings.json");
    std::fs::write(
        &json,
        serde_json::json!({"hooks": {"PreToolUse": rules}}).to_string(),
    )
    .unwrap();
    let mut md = String::from("---\nname: x\nhooks:\n  PreToolUse:\n");
    for i in 0..n {
        md.push_str(&format!(
            "    - matcher: Bash\n      hooks:\n        - command: echo {i}\n"
        ));
    }
    md.push_str("---\nbody\n");
    let skill = dir.path().join("SKILL.md");
    std::fs::write(&skill, md).unwrap();
    for path in [&json, &skill] {
        let started = Instant::now();
        let out = Command::cargo_bin("hookx")
            .unwrap()
            .arg("validate")
            .arg(path)
            .args(["--from", "claude"])
            .timeout(Duration::from_secs(120))
            .assert()
            .success();
        let elapsed = started.elapsed();
        assert!(elapsed < Duration::from_secs(60), "{path:?}: {elapsed:?}");
        let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert!(
            stdout.ends_with(&format!("0 error(s), {n} warning(s) in 1 file(s)\n")),
            "{}",
            &stdout[stdout.len().saturating_sub(300)..]
        );
    }
}

/// `hookx run` over a trusted 8 MB Bricks file of 100,000 rules, one of them a runaway regex:
/// it answers, reports the runaway, and still evaluates the regexes after it.
#[test]
fn run_answers_over_a_huge_config_with_a_runaway_matcher() {
    let dir = tempfile::tempdir().unwrap();
    let (project, home) = (dir.path().join("project"), dir.path().join("home"));
    std::fs::create_dir_all(project.join(".bricks")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let rule = |matcher: &str, command: String| serde_json::json!({"matcher": matcher, "hooks": [{"type": "command", "command": command}]});
    let mut rules: Vec<_> = (0..100_000)
        .map(|i| rule("write_file", format!("echo {i}")))
        .collect();
    rules.push(rule("(a+)+$", "echo evil".into()));
    let marker = dir.path().join("after-ran");
    rules.push(rule("^a+!$", format!("touch '{}'", marker.display())));
    let config = project.join(".bricks/hooks.json");
    std::fs::write(
        &config,
        serde_json::json!({"hooks": {"PreToolUse": rules}}).to_string(),
    )
    .unwrap();
    let hookx = |args: &[&str]| {
        let mut cmd = Command::cargo_bin("hookx").unwrap();
        cmd.args(args)
            .arg("--project")
            .arg(&project)
            .arg("--home")
            .arg(&home)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("COPILOT_CLI")
            .timeout(Duration::from_secs(120));
        cmd
    };
    hookx(&["trust", config.to_str().unwrap()])
        .assert()
        .success();
    let started = Instant::now();
    let out = hookx(&["run", "--host", "claude"])
        .write_stdin(evil_payload())
        .assert()
        .success();
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("matcher `(a+)+$` ran away"), "{stderr}");
    assert!(!stderr.contains("^a+!$"), "{stderr}");
    assert!(
        marker.exists(),
        "the rule after the runaway one did not run: {stderr}"
    );
}

/// A Claude settings file with one PreToolUse rule under `matcher`.
fn claude_settings(matcher: &str) -> String {
    serde_json::json!({"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [
        {"type": "command", "command": "true"}
    ]}]}})
    .to_string()
}

/// `hookx ARGS FILE` on a Claude settings file holding `matcher`, bounded by the harness's
/// own timeout (a hang fails the test): exit code, and stdout and stderr.
fn on_settings(args: &[&str], matcher: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, claude_settings(matcher)).unwrap();
    let out = Command::cargo_bin("hookx")
        .unwrap()
        .args(args)
        .arg(&path)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// 100 000 grouped alternatives (1.1 MB): the old convert overflowed its stack checking the
/// translated regex (SIGABRT), validate spent seconds compiling it. Both now refuse to hand it
/// to the regex engine and say so.
#[test]
fn convert_and_validate_do_not_give_a_huge_alternation_to_the_regex_engine() {
    let alternatives: Vec<String> = (0..100_000).map(|i| format!("(Tool{i})")).collect();
    let matcher = alternatives.join("|");
    let (code, stderr) = on_settings(
        &["convert", "--from", "claude", "--to", "copilot"],
        &matcher,
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("cannot be checked"), "{stderr}");
    let (code, out) = on_settings(&["validate", "--from", "claude"], &matcher);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("hookx evaluates regexes of up to"), "{out}");
}

/// 100 000 plain tool names (`t0|t1|…`, 690 KB) are a name list, not a regex: the old convert
/// deduplicated the renamed list pairwise (5 000 names 2 s, 20 000 names 18 s in a debug
/// build, so about 7 minutes here) and never reached the harness's bound.
#[test]
fn convert_of_a_100000_name_list_is_linear_and_keeps_every_name() {
    let names: Vec<String> = (0..100_000).map(|i| format!("t{i}")).collect();
    let (code, out) = on_settings(
        &["convert", "--from", "claude", "--to", "copilot"],
        &names.join("|"),
    );
    assert_eq!(code, Some(0), "{}", &out[out.len().saturating_sub(2000)..]);
    let converted: serde_json::Value =
        serde_json::from_str(&out[..out.find("\nnote:").unwrap_or(out.len())]).unwrap();
    let matcher = converted["hooks"]["preToolUse"][0]["matcher"]
        .as_str()
        .unwrap();
    assert_eq!(matcher.split('|').count(), 100_000);
    assert!(matcher.split('|').eq(names.iter().map(String::as_str)));
}

/// Twenty `.*` before a letter no tool name holds: on a tool name of 15 characters the engine
/// tries every way to split it twenty ways (billions). The old convert checked the translated
/// regex against every known tool name with no time bound and never finished.
#[test]
fn convert_is_bounded_when_a_matcher_runs_away_on_tool_names() {
    let matcher = format!("{}Z", ".*".repeat(20));
    let (code, stderr) = on_settings(
        &["convert", "--from", "claude", "--to", "copilot"],
        &matcher,
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("ran away"), "{stderr}");
}
