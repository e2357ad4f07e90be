//! Claude Code 2.1.332 as the live suite (tests/live_claude.rs) saw it: each fact the tables in
//! `src/dialect/claude.rs` got from a run, pinned without the client.

use hookx::dialect::claude;
use hookx::model::tool::ids;
use hookx::model::{Decision, Event, EventKind, Outcome};
use hookx::protocol::{decode_answer, encode_answer};
use hookx::spawn::{Exit, Finished};
use serde_json::{Value, json};
use std::time::Duration;

fn event(kind: EventKind, tool: Option<(&str, Value)>) -> Event {
    Event {
        kind,
        timestamp: None,
        tool: tool.map(|(name, input)| hookx::model::ToolCall {
            name: name.into(),
            input,
            other_ids: Vec::new(),
            rewrite: None,
        }),
        fields: json!({"session_id": "s", "cwd": "/repo"})
            .as_object()
            .unwrap()
            .clone(),
        result: None,
    }
}

fn finished(code: i32, stdout: &str, stderr: &str) -> Finished {
    Finished {
        exit: Exit::Code(code),
        stdout: stdout.as_bytes().to_vec(),
        stderr: stderr.as_bytes().to_vec(),
        stdout_truncated: false,
        stderr_truncated: false,
        elapsed: Duration::from_millis(5),
    }
}

fn claude(kind: EventKind, code: i32, stdout: &str, stderr: &str) -> Outcome {
    let tool = kind
        .is_tool_event()
        .then(|| (ids::SHELL, json!({"command": "ls"})));
    decode_answer(
        claude::FLAVOR,
        &event(kind, tool),
        &finished(code, stdout, stderr),
    )
}

#[test]
fn the_subagent_tool_is_agent_and_task_an_alias() {
    let t = claude::FLAVOR.tables();
    assert_eq!(t.tool_name(ids::TASK), Some("Agent"));
    assert_eq!(t.canonical_tool("Task"), ids::TASK);
    assert_eq!(t.canonical_tool("Agent"), ids::TASK);
}

#[test]
fn permission_request_exit_2_is_a_non_blocking_error() {
    let out = claude(EventKind::PermissionRequest, 2, "", "no");
    assert_eq!(out.decision, None, "{out:?}");
    assert!(out.reasons.is_empty(), "{out:?}");
    assert!(
        !out.errors.is_empty(),
        "the failure is still reported: {out:?}"
    );
}

#[test]
fn pre_compact_exit_2_blocks_and_its_stdout_joins_the_instructions() {
    let blocked = claude(EventKind::PreCompact, 2, "", "not now");
    assert!(blocked.block, "{blocked:?}");
    assert_eq!(blocked.reasons, ["not now"]);
    let instructions = claude(EventKind::PreCompact, 0, "keep the API notes\n", "");
    assert_eq!(instructions.additional_context, ["keep the API notes"]);

    // Under a Claude host: the block is exit 2, the instructions plain stdout.
    let pre_compact = event(EventKind::PreCompact, None);
    let answer = encode_answer(claude::FLAVOR, &pre_compact, &blocked);
    assert_eq!((answer.exit_code, answer.stderr.as_str()), (2, "not now"));
    let answer = encode_answer(claude::FLAVOR, &pre_compact, &instructions);
    assert_eq!(answer.exit_code, 0);
    assert_eq!(answer.stdout, "keep the API notes");
}

#[test]
fn stop_and_subagent_stop_take_additional_context() {
    for kind in [EventKind::Stop, EventKind::SubagentStop] {
        let name = kind.name().to_string();
        let answer =
            json!({"hookSpecificOutput": {"hookEventName": name, "additionalContext": "go on"}});
        let out = claude(kind.clone(), 0, &answer.to_string(), "");
        assert_eq!(out.additional_context, ["go on"], "{name}: {out:?}");
        let written = encode_answer(claude::FLAVOR, &event(kind, None), &out);
        let written: Value = serde_json::from_str(&written.stdout).unwrap();
        assert_eq!(written, answer, "{name}");
    }
}

/// Attacks row 2002 (row 1904): Claude Code 2.1.332 in `-p` runs not a call a PreToolUse hook
/// defers and ends the run, the call deferred with its original input, a rewrite or none (the
/// answer book's `deferrw`, `deferbare`); interactively it ignores the defer. Read as no
/// decision, the call ran under every other host, rewritten where the handler rewrote it. An
/// ask: the call runs only if someone allows it, as it came.
#[test]
fn pre_tool_use_may_defer() {
    let answer = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}});
    let out = claude(EventKind::PreToolUse, 0, &answer.to_string(), "");
    assert!(out.errors.is_empty(), "{out:?}");
    assert_eq!(out.decision, Some(Decision::Ask), "{out:?}");
    let rewritten = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "defer", "updatedInput": {"command": "rm -rf /"}}});
    let out = claude(EventKind::PreToolUse, 0, &rewritten.to_string(), "");
    assert_eq!(out.decision, Some(Decision::Ask), "{out:?}");
    assert_eq!(
        out.updated_input, None,
        "the deferred call keeps its input: {out:?}"
    );
}

#[path = "common/claude_events.rs"]
mod claude_events;
use claude_events::EVENTS;

#[test]
fn all_34_events_are_known() {
    let t = claude::FLAVOR.tables();
    for name in EVENTS {
        let kind = t.event_kind(name);
        assert!(
            matches!(&kind, Some(k) if !matches!(k, EventKind::Other(_))),
            "{name}: {kind:?}"
        );
        assert_eq!(kind.unwrap().name(), name);
    }
    assert_eq!(t.events.len(), EVENTS.len());
}

#[test]
fn session_start_may_be_a_fork_and_session_end_reasons_are_the_schemas() {
    let t = claude::FLAVOR.tables();
    assert!(
        t.matcher_values(&EventKind::SessionStart)
            .unwrap()
            .contains(&"fork")
    );
    let mut reasons = t.matcher_values(&EventKind::SessionEnd).unwrap().to_vec();
    reasons.sort();
    assert_eq!(
        reasons,
        ["clear", "logout", "other", "prompt_input_exit", "resume"]
    );
}

#[test]
fn the_tables_name_the_client_version_that_verified_them() {
    assert_eq!(
        claude::FLAVOR.tables().verified_with,
        Some("claude-code 2.1.332")
    );
}

#[test]
fn version_lists_the_host_versions_the_tables_were_verified_with() {
    let out = assert_cmd::Command::cargo_bin("hookx")
        .unwrap()
        .arg("--version")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("hookx "), "{out}");
    // Facts say where they come from (issue 25): how many events a recorded run showed firing,
    // the rest from the documents (Claude: PermissionDenied and TeammateIdle never seen).
    let (seen, all) = claude::FLAVOR.tables().events_seen_firing();
    assert!(seen < all, "{seen} of {all}");
    assert!(
        out.contains(&format!(
            "claude: run against claude-code 2.1.332: {seen} of {all} events seen firing; the \
             other events, and rows no run showed, are from its documents"
        )),
        "{out}"
    );
    assert!(
        out.contains("copilot: run against copilot-cli 1.0.102: "),
        "{out}"
    );
    // Droid's table is partly the documents' (issue 25: --version called it verified).
    let droid = out.lines().find(|l| l.starts_with("droid: ")).unwrap();
    assert!(
        droid.contains("run against droid 0.225.2: ") && droid.contains(" are from its documents"),
        "{droid}"
    );
    assert!(!droid.contains("all "), "{droid}");
    // Bricks has no client: its facts are the seed documents'.
    assert!(out.contains("bricks: docs: "), "{out}");
    // Cursor and VS Code have no runnable client here: their facts are their documents'.
    assert!(out.contains("cursor: docs: "), "{out}");
    assert!(out.contains("vscode: docs: "), "{out}");
}

/// Claude's newer handler fields and types (2.1.332 schema), read from a user settings file
/// that Copilot never reads, so hookx runs it under a Copilot host: `args` is the exec form
/// (no shell), `onFailure: "block"` makes a failure count as exit 2 (a deny on PreToolUse),
/// `asyncRewake` runs in the background like `async`, past the answer (attacks row 2005; the
/// route skipped it before row 2000), and an `http` or `mcp_tool` handler is read and kept but
/// left to Claude.
#[test]
fn newer_claude_handler_fields_are_read_and_run_as_claude_would() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let marker = root.join("exec-form.txt");
    // The background handler ends once the test releases it, after the answer (its ceiling of
    // about a minute only keeps a failing run from hanging): an answer that waited for it
    // comes after its file.
    let release = root.join("release");
    let rewake = format!(
        "i=0; while [ ! -e '{}' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; \
         echo ran > rewake.txt",
        release.display()
    );
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "sh", "args": ["-c", format!("echo ran > '{}'", marker.display())]},
        {"type": "command", "command": "exit 1", "onFailure": "block"},
        {"type": "command", "command": rewake, "asyncRewake": true},
        {"type": "http", "url": "https://example.com/hook", "timeout": 5},
        {"type": "mcp_tool", "server": "guard", "tool": "check", "input": {}}
    ]}]}});
    let file = home.join(".claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, settings.to_string()).unwrap();
    let hookx = || {
        let mut cmd = assert_cmd::Command::cargo_bin("hookx").unwrap();
        cmd.current_dir(&project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .env_remove("CLAUDE_PROJECT_DIR");
        cmd
    };
    hookx().args(["validate"]).arg(&file).assert().success();
    hookx()
        .args(["trust", "--yes", "--project"])
        .arg(&project)
        .assert()
        .success();
    let payload = json!({"sessionId": "s", "timestamp": 1, "cwd": project, "toolName": "bash",
                         "toolArgs": {"command": "ls"}});
    let out = hookx()
        .args([
            "run",
            "--host",
            "copilot",
            "--event",
            "preToolUse",
            "--project",
        ])
        .arg(&project)
        .arg("--home")
        .arg(&home)
        .write_stdin(payload.to_string())
        .assert()
        .success()
        .get_output()
        .clone();
    let answer: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(
        std::fs::read_to_string(&marker).ok().as_deref(),
        Some("ran\n"),
        "exec form"
    );
    assert_eq!(answer["permissionDecision"], "deny", "onFailure: block");
    assert!(
        !project.join("rewake.txt").exists(),
        "asyncRewake ran in the foreground"
    );
    std::fs::write(&release, "").unwrap();
    let mut waited = 0;
    while !project.join("rewake.txt").exists() && waited < 400 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        waited += 1;
    }
    assert!(
        project.join("rewake.txt").exists(),
        "asyncRewake never ran in the background"
    );
}

#[test]
fn http_and_mcp_tool_handlers_round_trip_in_claude_and_are_losses_elsewhere() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("settings.json");
    let handlers = json!([
        {"type": "http", "url": "https://example.com/hook", "headers": {"A": "b"}, "timeout": 5},
        {"type": "mcp_tool", "server": "guard", "tool": "check", "input": {"a": 1}},
        {"type": "command", "command": "echo a", "if": "Bash(git *)", "shell": "bash",
         "onFailure": "block", "asyncRewake": true, "args": ["x"]}
    ]);
    std::fs::write(
        &file,
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": handlers}]}}).to_string(),
    )
    .unwrap();
    let convert = |to: &str| {
        assert_cmd::Command::cargo_bin("hookx")
            .unwrap()
            .arg("convert")
            .arg(&file)
            .args(["--from", "claude", "--to", to])
            .assert()
            .success()
            .get_output()
            .clone()
    };
    let same = convert("claude");
    let back: Value = serde_json::from_slice(&same.stdout).unwrap();
    let mut got = back["hooks"]["PreToolUse"][0]["hooks"].clone();
    // Key order aside, every handler comes back as written.
    for h in got.as_array_mut().unwrap() {
        h.as_object_mut().unwrap().sort_keys();
    }
    let mut want = handlers.clone();
    for h in want.as_array_mut().unwrap() {
        h.as_object_mut().unwrap().sort_keys();
    }
    assert_eq!(got, want);
    let other = convert("copilot");
    let report = String::from_utf8_lossy(&other.stderr);
    assert!(
        report.contains("`http` handler on `PreToolUse`"),
        "{report}"
    );
    assert!(
        report.contains("`mcp_tool` handler on `PreToolUse`"),
        "{report}"
    );
}

/// Claude gives SessionEnd hooks 1.5 s in all (`CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS`
/// overrides it): a handler hookx runs there is stopped at that budget, whatever its own
/// timeout, rather than being cut off with hookx itself. The limit is too short to wait for a
/// kill (attacks row 341), so hookx answers first and the kill follows: the handler's shell is
/// waited for as an event (its process gone), never for its own 600 s.
#[test]
fn session_end_handlers_get_claudes_budget() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    let late = root.join("late.txt");
    let pid = root.join("pid.txt");
    let hooks = json!({"version": 1, "hooks": {"sessionEnd": [{"type": "command",
        "bash": format!("echo $$ > '{}'; sleep 600; echo late > '{}'", pid.display(), late.display()),
        "timeoutSec": 600}]}});
    let file = project.join(".github/hooks/end.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, hooks.to_string()).unwrap();
    let hookx = || {
        let mut cmd = assert_cmd::Command::cargo_bin("hookx").unwrap();
        cmd.current_dir(&project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .env_remove("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS")
            .env("CLAUDE_PROJECT_DIR", &project)
            .timeout(Duration::from_secs(60));
        cmd
    };
    hookx().args(["trust", "--yes"]).assert().success();
    let payload = json!({"session_id": "s", "transcript_path": "/t", "cwd": project,
                         "hook_event_name": "SessionEnd", "reason": "other"});
    let out = hookx()
        .args(["run", "--host", "claude", "--event", "SessionEnd", "--home"])
        .arg(&home)
        .write_stdin(payload.to_string())
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("did not answer within the 0.8 s hookx has to answer Claude in"),
        "{stderr}"
    );
    let pid = std::fs::read_to_string(&pid).unwrap();
    let proc = std::path::Path::new("/proc").join(pid.trim());
    // Bounded by the event (the shell gone); the cap only ends a failing run.
    let cap = std::time::Instant::now() + Duration::from_secs(120);
    while proc.exists() && std::time::Instant::now() < cap {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!proc.exists(), "the handler outlived the budget: {stderr}");
    assert!(!late.exists(), "the handler outlived the budget");
}
