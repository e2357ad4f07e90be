//! Copilot CLI as the host, without the client: the facts the live suite (tests/live_copilot.rs)
//! found, pinned where plain `cargo test` runs them.

mod common;

use common::{hookx, hookx_at, write};
use serde_json::Value;

const PRE_TOOL_USE: &str = r#"{"sessionId":"s1","timestamp":1796103133010,"cwd":"/tmp","toolName":"bash","toolArgs":{"command":"rm -rf /","description":"d"}}"#;

/// Copilot 1.0.102 sets CLAUDE_PROJECT_DIR for its hooks too: a wrapped Claude deny must be
/// answered in Copilot's camelCase protocol, or the tool runs.
#[test]
fn exec_under_copilot_answers_copilot_although_claude_project_dir_is_set() {
    let tmp = tempfile::tempdir().unwrap();
    let deny = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}'"#;
    let out = hookx()
        .args([
            "exec",
            "--as",
            "claude",
            "--event",
            "PreToolUse",
            "--",
            deny,
        ])
        .env("COPILOT_CLI", "1")
        .env("CLAUDE_PROJECT_DIR", tmp.path())
        .env("COPILOT_PROJECT_DIR", tmp.path())
        .current_dir(tmp.path())
        .write_stdin(PRE_TOOL_USE)
        .output()
        .unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).expect("a JSON answer");
    assert_eq!(answer["permissionDecision"], "deny", "{answer}");
}

/// Copilot runs every route it reads, user files first: with the user and the project route
/// installed (each routes the events its own scope has rules for), a handler runs once (from
/// the user route), not twice.
#[test]
fn user_and_project_routes_run_each_handler_once() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = (tmp.path().join("home"), tmp.path().join("project"));
    let log = tmp.path().join("ran.log");
    let bricks = format!(
        r#"{{"hooks": {{"PreToolUse": [{{"matcher": "*", "hooks": [{{"type": "command", "command": "echo ran >> '{}'"}}]}}]}}}}"#,
        log.display()
    );
    write(&project, ".bricks/hooks.json", &bricks);
    write(
        &home,
        ".bricks-project-desktop/hooks.json",
        &bricks.replace("echo ran", "echo user"),
    );
    hookx_at(&project, &home, &["install", "--host", "copilot"]).success();
    hookx_at(
        &project,
        &home,
        &["install", "--host", "copilot", "--scope", "user"],
    )
    .success();
    hookx_at(&project, &home, &["trust", "--yes"]).success();
    // Each route's process, as Copilot starts it: the hook file's folder in COPILOT_HOOK_DIR.
    for dir in [home.join(".copilot/hooks"), project.join(".github/hooks")] {
        hookx()
            .args(["run", "--host", "copilot", "--event", "preToolUse"])
            .arg("--home")
            .arg(&home)
            .env("HOOKX_HOME", &home)
            .env("HOME", &home)
            .env("COPILOT_CLI", "1")
            .env("COPILOT_HOOK_DIR", &dir)
            .current_dir(&project)
            .write_stdin(PRE_TOOL_USE.replace("/tmp", project.to_str().unwrap()))
            .assert()
            .success();
    }
    let ran = std::fs::read_to_string(&log).unwrap_or_default();
    let mut lines: Vec<&str> = ran.lines().collect();
    lines.sort();
    assert_eq!(lines, ["ran", "user"], "each Bricks handler runs once");
}

/// Copilot runs `.claude/settings.json` by itself as PascalCase hooks: `list` and `simulate`
/// say so, with the payload those handlers get (run 1.0.102: Claude tool name, ISO timestamp,
/// no transcript_path).
#[test]
fn list_and_simulate_name_the_claude_file_copilot_runs_itself() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = (tmp.path().join("home"), tmp.path().join("project"));
    write(
        &project,
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "sh guard.sh"}]}]}}"#,
    );
    let list = hookx_at(
        &project,
        &home,
        &["list", "--host", "copilot", "--format", "json"],
    )
    .success();
    let list: Value = serde_json::from_slice(&list.get_output().stdout).unwrap();
    let row = &list[0];
    assert_eq!(
        (row["run"].as_str(), row["payload"].as_str()),
        (Some("native"), Some("copilot-pascal")),
        "{list}"
    );
    // Copilot reads the project's files only in a folder its user trusted.
    let real = project.canonicalize().unwrap();
    write(
        &home,
        ".copilot/config.json",
        &serde_json::json!({"trusted_folders": [real]}).to_string(),
    );
    let sim = hookx_at(
        &project,
        &home,
        &[
            "simulate",
            "--host",
            "copilot",
            "--event",
            "preToolUse",
            "--tool",
            "bash",
            "--input",
            r#"{"command":"ls"}"#,
            // guard.sh does not exist: the failing preToolUse hook denies under Copilot.
            "--expect",
            "deny",
        ],
    )
    .success();
    let text = String::from_utf8_lossy(&sim.get_output().stdout).to_string();
    let native = text
        .lines()
        .find(|l| l.starts_with("native: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        native.contains(".claude/settings.json")
            && native.contains(r#""tool_name":"Bash""#)
            && native.contains(r#""timestamp":""#),
        "{native}"
    );
}

/// Copilot passes `env` values literally (run 1.0.102: `${HOME}` and `$VAR` are not
/// expanded): hookx running a Copilot handler under another host does the same, and a
/// conversion keeps the value literal.
#[test]
fn copilot_env_values_are_not_expanded() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = (tmp.path().join("home"), tmp.path().join("project"));
    let out = tmp.path().join("x.txt");
    let file = format!(
        r#"{{"version": 1, "hooks": {{"userPromptSubmitted": [{{"type": "command", "bash": "printf %s \"$X\" > '{}'", "env": {{"X": "${{HOME}}/$USER"}}}}]}}}}"#,
        out.display()
    );
    let hooks = write(&project, ".github/hooks/env.json", &file);
    hookx_at(&project, &home, &["trust", "--yes"]).success();
    hookx()
        .args(["run", "--host", "claude", "--event", "UserPromptSubmit"])
        .arg("--home")
        .arg(&home)
        .env("HOOKX_HOME", &home)
        .env("HOME", &home)
        .env_remove("COPILOT_CLI")
        .current_dir(&project)
        .write_stdin(format!(
            r#"{{"session_id":"s","transcript_path":"/t","cwd":"{}","hook_event_name":"UserPromptSubmit","prompt":"hi"}}"#,
            project.display()
        ))
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "${HOME}/$USER");
    let converted = hookx()
        .args([
            "convert",
            hooks.to_str().unwrap(),
            "--to",
            "claude",
            "--no-wrap",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&converted.stdout);
    assert!(text.contains(r#"export X='${HOME}/$USER'"#), "{text}");
}

/// Copilot runs handlers in order and the first deny stops the rest (run 1.0.102): through
/// hookx under Copilot, a handler after a deny does not run either.
#[test]
fn under_copilot_the_first_deny_stops_later_handlers() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = (tmp.path().join("home"), tmp.path().join("project"));
    let later = tmp.path().join("later-ran");
    let bricks = format!(
        r#"{{"hooks": {{"PreToolUse": [{{"matcher": "*", "hooks": [
            {{"type": "command", "command": "echo '{{\"decision\":\"block\",\"reason\":\"first says no\"}}'"}},
            {{"type": "command", "command": "touch '{}'"}}]}}]}}}}"#,
        later.display()
    );
    write(&project, ".bricks/hooks.json", &bricks);
    hookx_at(&project, &home, &["trust", "--yes"]).success();
    let out = hookx()
        .args(["run", "--host", "copilot", "--event", "preToolUse"])
        .arg("--home")
        .arg(&home)
        .env("HOOKX_HOME", &home)
        .env("HOME", &home)
        .env("COPILOT_CLI", "1")
        .current_dir(&project)
        .write_stdin(PRE_TOOL_USE.replace("/tmp", project.to_str().unwrap()))
        .output()
        .unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).expect("a JSON answer");
    assert_eq!(answer["permissionDecision"], "deny", "{answer}");
    assert!(!later.exists(), "the handler after the deny ran");
}

/// Copilot also reads hooks inline in `~/.copilot/settings.json` (always) and in
/// `.github/copilot/settings(.local).json` (in a trusted folder) (run 1.0.102): `list` finds
/// them, Copilot runs them by itself, another host through hookx.
#[test]
fn copilot_settings_files_are_hook_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = (tmp.path().join("home"), tmp.path().join("project"));
    let settings = |cmd: &str| {
        format!(
            r#"{{"model": "gpt-4.1", "hooks": {{"preToolUse": [{{"type": "command", "bash": "{cmd}"}}]}}}}"#
        )
    };
    write(&home, ".copilot/settings.json", &settings("echo user"));
    write(
        &project,
        ".github/copilot/settings.json",
        &settings("echo repo"),
    );
    write(
        &project,
        ".github/copilot/settings.local.json",
        &settings("echo local"),
    );
    for (host, run) in [("copilot", "native"), ("claude", "hookx")] {
        let list = hookx_at(
            &project,
            &home,
            &["list", "--host", host, "--format", "json"],
        )
        .success();
        let rows: Value = serde_json::from_slice(&list.get_output().stdout).unwrap();
        for cmd in ["echo user", "echo repo", "echo local"] {
            let row = rows
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["handler"] == cmd)
                .unwrap_or_else(|| panic!("{cmd} not listed: {rows}"));
            assert_eq!(row["run"], run, "{host}: {row}");
        }
    }
}

/// Copilot 1.0.102 reads a PascalCase matcher as a regex anchored `^(?:P)$`, tried against both
/// the Claude and the Copilot tool name, with no comma lists; an empty matcher drops the entry
/// and `*` is every tool (dialects.md §4). hookx running those rules under another host fires
/// the same ones: on Read (Copilot's view), `view`, `Read` and `*`, not `Rea`, `Read,Edit` or ``.
#[test]
fn pascal_case_matchers_are_anchored_and_try_both_tool_names() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = (tmp.path().join("home"), tmp.path().join("project"));
    let entries = ["view", "Read", "Rea", "Read,Edit", "", "*", "Vie.*|Rea.+"]
        .iter()
        .enumerate()
        .map(|(i, m)| {
            format!(
                r#"{{"matcher": "{m}", "hooks": [{{"type": "command", "bash": "echo ran{i}"}}]}}"#
            )
        })
        .collect::<Vec<_>>()
        .join(",");
    write(
        &project,
        ".github/hooks/h.json",
        &format!(r#"{{"version": 1, "hooks": {{"PreToolUse": [{entries}]}}}}"#),
    );
    hookx_at(&project, &home, &["trust", "--yes"]).success();
    // Claude calls hookx only through its routes.
    hookx_at(
        &project,
        &home,
        &["install", "--host", "claude", "--hookx", "hookx"],
    )
    .success();
    let sim = hookx_at(
        &project,
        &home,
        &[
            "simulate",
            "--host",
            "claude",
            "--event",
            "PreToolUse",
            "--tool",
            "Read",
            "--input",
            r#"{"file_path":"notes.txt"}"#,
        ],
    )
    .success();
    let text = String::from_utf8_lossy(&sim.get_output().stdout).to_string();
    let ran: Vec<&str> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("stdout:"))
        .map(str::trim)
        .collect();
    assert_eq!(ran, ["ran0", "ran1", "ran5", "ran6"], "{text}");
}

/// `validate` reads PascalCase matchers as Copilot 1.0.102 does: a Copilot tool name is one it
/// tries (no warning), while an empty matcher (the entry is dropped) and a comma list (a comma
/// is not a separator) are warned about, each at its matcher.
#[test]
fn validate_reads_pascal_case_matchers_as_copilot_does() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(
        tmp.path(),
        ".github/hooks/h.json",
        r#"{"version": 1, "hooks": {"PreToolUse": [
            {"matcher": "view|Read", "hooks": [{"type": "command", "bash": "true"}]},
            {"matcher": "", "hooks": [{"type": "command", "bash": "true"}]},
            {"matcher": "Read,Edit", "hooks": [{"type": "command", "bash": "true"}]}
        ]}}"#,
    );
    let out = hookx()
        .args(["validate", "--format", "json"])
        .arg(&file)
        .output()
        .unwrap();
    let diags: Value = serde_json::from_slice(&out.stdout).expect("JSON diagnostics");
    let at: Vec<&str> = diags
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["pointer"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        at,
        ["/hooks/PreToolUse/1/matcher", "/hooks/PreToolUse/2/matcher"],
        "{diags:#}"
    );
}

/// Copilot sets COPILOT_HOOK_DIR, the hook file's folder, for its hooks (run 1.0.102): hookx
/// running a Copilot handler under another host sets it too.
#[test]
fn copilot_handlers_run_by_hookx_get_copilot_hook_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = (tmp.path().join("home"), tmp.path().join("project"));
    write(
        &project,
        ".github/hooks/h.json",
        r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "printf %s \"$COPILOT_HOOK_DIR\""}]}}"#,
    );
    hookx_at(&project, &home, &["trust", "--yes"]).success();
    // Claude calls hookx only through its routes.
    hookx_at(
        &project,
        &home,
        &["install", "--host", "claude", "--hookx", "hookx"],
    )
    .success();
    let sim = hookx_at(
        &project,
        &home,
        &[
            "simulate",
            "--host",
            "claude",
            "--event",
            "PreToolUse",
            "--tool",
            "Bash",
            "--input",
            r#"{"command":"ls"}"#,
        ],
    )
    .success();
    let text = String::from_utf8_lossy(&sim.get_output().stdout).to_string();
    let printed = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("stdout:"))
        .map(str::trim);
    let dir = project.join(".github/hooks");
    assert_eq!(printed, Some(dir.to_str().unwrap()), "{text}");
}

/// A Copilot handler's `modifiedPrompt` (run 1.0.102: replaces the prompt) run by hookx under
/// Claude, which cannot replace a prompt, is reported to the host, not silently dropped.
#[test]
fn a_modified_prompt_the_host_cannot_take_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = (tmp.path().join("home"), tmp.path().join("project"));
    write(
        &project,
        ".github/hooks/h.json",
        r#"{"version": 1, "hooks": {"userPromptSubmitted": [{"type": "command", "bash": "echo '{\"modifiedPrompt\": \"rewritten\"}'"}]}}"#,
    );
    hookx_at(&project, &home, &["trust", "--yes"]).success();
    // Claude calls hookx only through its routes.
    hookx_at(
        &project,
        &home,
        &["install", "--host", "claude", "--hookx", "hookx"],
    )
    .success();
    let sim = hookx_at(
        &project,
        &home,
        &[
            "simulate",
            "--host",
            "claude",
            "--event",
            "UserPromptSubmit",
            "--field",
            "prompt=hi",
        ],
    )
    .success();
    let text = String::from_utf8_lossy(&sim.get_output().stdout).to_string();
    let answer = text
        .lines()
        .skip_while(|l| !l.starts_with("answer to the host:"))
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        answer.contains("modified prompt dropped") && answer.contains("rewritten"),
        "{text}"
    );
}

/// Under Copilot, a wrapped Copilot handler's `modifiedPrompt` and `modifiedResult` (run
/// 1.0.102: they replace the prompt and the tool result) reach the host.
#[test]
fn exec_under_copilot_keeps_modified_prompt_and_result() {
    let tmp = tempfile::tempdir().unwrap();
    let cases = [
        (
            "userPromptSubmitted",
            r#"{"sessionId":"s1","timestamp":1796103133010,"cwd":"/tmp","prompt":"hi"}"#,
            r#"{"modifiedPrompt":"rewritten"}"#,
        ),
        (
            "postToolUse",
            r#"{"sessionId":"s1","timestamp":1796103133010,"cwd":"/tmp","toolName":"bash","toolArgs":{"command":"ls"},"toolResult":{"resultType":"success","textResultForLlm":"a"}}"#,
            r#"{"modifiedResult":{"resultType":"success","textResultForLlm":"b"}}"#,
        ),
    ];
    for (event, payload, says) in cases {
        let out = hookx()
            .args(["exec", "--as", "copilot", "--event", event, "--"])
            .arg(format!("echo '{says}'"))
            .env("COPILOT_CLI", "1")
            .env("COPILOT_PROJECT_DIR", tmp.path())
            .current_dir(tmp.path())
            .write_stdin(payload)
            .output()
            .unwrap();
        let answer: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|_| panic!("{event}: not JSON: {out:?}"));
        let expected: Value = serde_json::from_str(says).unwrap();
        assert_eq!(answer, expected, "{event}");
    }
}

/// userPromptTransformed (run 1.0.102) and preMcpToolCall (1.0.102 settings schema) are
/// Copilot events: `validate` does not call them unknown.
#[test]
fn copilot_only_events_are_known() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(
        tmp.path(),
        ".github/hooks/h.json",
        r#"{"version": 1, "hooks": {
            "userPromptTransformed": [{"type": "command", "bash": "true"}],
            "preMcpToolCall": [{"type": "command", "bash": "true"}]
        }}"#,
    );
    let out = hookx()
        .args(["validate", "--format", "json"])
        .arg(&file)
        .output()
        .unwrap();
    let diags: Value = serde_json::from_slice(&out.stdout).expect("JSON diagnostics");
    assert_eq!(diags, serde_json::json!([]), "{diags:#}");
}
