//! Claude Code 2.1.332 as the live suite (tests/live_claude.rs) saw it: each fact the tables in
//! `src/dialect/claude.rs` got from a run, pinned without the client.

use hookx::dialect::Flavor;
use hookx::model::tool::ids;
use hookx::model::{Event, EventKind, Outcome};
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
        }),
        fields: json!({"session_id": "s", "cwd": "/repo"})
            .as_object()
            .unwrap()
            .clone(),
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
        Flavor::Claude,
        &event(kind, tool),
        &finished(code, stdout, stderr),
    )
}

#[test]
fn the_subagent_tool_is_agent_and_task_an_alias() {
    let t = Flavor::Claude.tables();
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
    let answer = encode_answer(Flavor::Claude, &pre_compact, &blocked);
    assert_eq!((answer.exit_code, answer.stderr.as_str()), (2, "not now"));
    let answer = encode_answer(Flavor::Claude, &pre_compact, &instructions);
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
        let written = encode_answer(Flavor::Claude, &event(kind, None), &out);
        let written: Value = serde_json::from_str(&written.stdout).unwrap();
        assert_eq!(written, answer, "{name}");
    }
}

#[test]
fn pre_tool_use_may_defer() {
    let answer = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}});
    let out = claude(EventKind::PreToolUse, 0, &answer.to_string(), "");
    assert!(out.errors.is_empty(), "{out:?}");
    // Deferring leaves the decision to the host's own flow: no decision of hookx's.
    assert_eq!(out.decision, None, "{out:?}");
}

/// Every event of the 2.1.332 settings schema.
const EVENTS: [&str; 34] = [
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "PreCompact",
    "PostCompact",
    "PostToolBatch",
    "UserPromptExpansion",
    "StopFailure",
    "PreModelSwitch",
    "PostModelSwitch",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
    "PreSkillShellCommand",
];

#[test]
fn all_34_events_are_known() {
    let t = Flavor::Claude.tables();
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
    let t = Flavor::Claude.tables();
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
        Flavor::Claude.tables().verified_with,
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
    assert!(
        out.contains("claude: verified against claude-code 2.1.332\n"),
        "{out}"
    );
}
