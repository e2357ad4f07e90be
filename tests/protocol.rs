//! The run-time protocol: payloads in and out of every flavour, handler answers read in their
//! own dialect, merged outcomes written in the host's.

use chrono::DateTime;
use hookx::dialect::{bricks, claude, copilot};
use hookx::error::Error;
use hookx::model::{Decision, Event, EventKind, Outcome, ToolCall};
use hookx::protocol::{
    HostAnswer, decode_answer, decode_event, decode_event_as, detect_host, encode_answer,
    encode_event, handler_env,
};
use hookx::spawn::{Exit, Finished};
use hookx::tables::{Dialect, Flavor, Slot};
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use std::path::Path;
use std::time::Duration;

/// A JSON snapshot in `snapshots/<folder>/`, printed by serde_json: insta's own serializer
/// would show a number (kept as written, `arbitrary_precision`) as serde_json's internal struct.
macro_rules! snapshot {
    ($folder:expr, $name:expr, $value:expr) => {
        let text = serde_json::to_string_pretty(&$value).unwrap();
        let path = std::path::Path::new("../snapshots").join($folder);
        insta::with_settings!({snapshot_path => path, prepend_module_to_snapshot => false}, {
            insta::assert_snapshot!($name, text);
        })
    };
}

fn fixture_flavor(dir: &str) -> Flavor {
    Flavor::all()
        .iter()
        .copied()
        .find(|f| f.name() == dir)
        .expect("fixture folders are named after flavours")
}

/// Every payload example of the seeds, by flavour folder (`tests/fixtures/payloads/<flavour>/`,
/// each folder there) and event name.
fn fixtures() -> Vec<(Flavor, String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/payloads");
    let mut dirs: Vec<String> = std::fs::read_dir(&root)
        .expect("payload fixtures")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut out = Vec::new();
    for dir in &dirs {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("fixture folder")
            .map(|e| e.expect("dir entry").path())
            .collect();
        files.sort();
        for path in files {
            let stem = path.file_stem().unwrap().to_string_lossy().to_string();
            out.push((
                fixture_flavor(dir),
                stem,
                std::fs::read(&path).expect("fixture"),
            ));
        }
    }
    out
}

/// `toolArgs` strings compared by what they hold, not by their spacing.
fn normalized(mut v: Value) -> Value {
    if let Some(Value::String(s)) = v.get("toolArgs")
        && let Ok(parsed) = serde_json::from_str::<Value>(s)
    {
        v["toolArgs"] = parsed;
    }
    v
}

#[test]
fn every_seed_payload_decodes_and_encodes_in_every_flavour() {
    let fixtures = fixtures();
    assert_eq!(fixtures.len(), 43);
    for (flavor, name, bytes) in fixtures {
        let (event, detected) = decode_event(&bytes, flavor.dialect())
            .unwrap_or_else(|e| panic!("{}/{name}: {e}", flavor.name()));
        assert_eq!(detected, flavor, "{name}");
        let expected = flavor
            .tables()
            .event_kind(&name)
            .unwrap_or_else(|| EventKind::from_name(&name));
        assert_eq!(event.kind, expected, "{}/{name}", flavor.name());
        assert!(
            detect_host(&serde_json::from_slice(&bytes).unwrap())
                .is_none_or(|d| d == flavor.dialect()),
            "{}/{name} detected as another host",
            flavor.name()
        );

        // The same flavour gets back what the host sent.
        let original: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            normalized(encode_event(&event, flavor)),
            normalized(original),
            "{}/{name} does not re-encode to itself",
            flavor.name()
        );

        let mut encoded = Map::new();
        for &target in Flavor::all() {
            // A tool-category flavour (Cursor's) only ever gets the events and tools it holds.
            let t = target.tables();
            let category = t.tool_scope != hookx::tables::ToolScope::Any;
            let out_of_scope = t.event_name(&event.kind).is_none()
                || event
                    .tool
                    .as_ref()
                    .is_some_and(|tool| !t.tool_scope.admits(&tool.name));
            if category && out_of_scope {
                continue;
            }
            encoded.insert(
                target.name().to_string(),
                json!({
                    "stdin": encode_event(&event, target),
                    "env": handler_env(&event, target, "/project", None),
                }),
            );
        }
        snapshot!(
            format!("payload/{}", flavor.name()),
            name,
            json!({ "event": event, "as": encoded })
        );
    }
}

#[test]
fn copilot_tool_args_string_or_object_or_plain_text() {
    let string = br#"{"sessionId":"s","timestamp":1,"cwd":"/","toolName":"create","toolArgs":"{\"path\":\"/a\",\"file_text\":\"x\"}"}"#;
    let object = br#"{"sessionId":"s","timestamp":1,"cwd":"/","toolName":"create","toolArgs":{"path":"/a","file_text":"x"}}"#;
    for bytes in [&string[..], &object[..]] {
        let (event, flavor) = decode_event(bytes, copilot::DIALECT).unwrap();
        assert_eq!(flavor, copilot::FLAVOR);
        assert_eq!(event.kind, EventKind::PreToolUse);
        assert_eq!(
            event.tool,
            Some(ToolCall {
                name: "write".into(),
                input: json!({"file_path": "/a", "content": "x"}),
                other_ids: Vec::new(),
                rewrite: None,
            })
        );
        assert_eq!(
            event.timestamp,
            DateTime::from_timestamp_millis(1),
            "epoch milliseconds"
        );
        // Written back as 1.0.102 sends it: an object (run; older versions sent a string).
        let out = encode_event(&event, copilot::FLAVOR);
        assert_eq!(out["toolArgs"], json!({"path": "/a", "file_text": "x"}));
        assert_eq!(out["toolName"], json!("create"));
        // A Claude handler reads Claude names.
        let claude = encode_event(&event, claude::FLAVOR);
        assert_eq!(claude["tool_name"], json!("Write"));
        assert_eq!(
            claude["tool_input"],
            json!({"file_path": "/a", "content": "x"})
        );
        assert!(claude.get("timestamp").is_none());
    }
    let plain =
        br#"{"sessionId":"s","cwd":"/","toolName":"apply_patch","toolArgs":"*** Begin Patch"}"#;
    let (event, _) = decode_event(plain, copilot::DIALECT).unwrap();
    assert_eq!(event.tool.unwrap().input, json!("*** Begin Patch"));
}

#[test]
fn copilot_permission_request_is_named_by_the_caller() {
    let bytes = br#"{"sessionId":"s","timestamp":1,"cwd":"/","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#;
    let (guessed, _) = decode_event(bytes, copilot::DIALECT).unwrap();
    assert_eq!(guessed.kind, EventKind::PreToolUse);
    let (named, flavor) =
        decode_event_as(bytes, copilot::DIALECT, Some("permissionRequest")).unwrap();
    assert_eq!(named.kind, EventKind::PermissionRequest);
    assert_eq!(flavor, copilot::FLAVOR);
    // A name in the payload wins over the caller's.
    let (named, flavor) = decode_event_as(
        br#"{"hook_event_name":"Stop","session_id":"s","timestamp":"2025-01-01T00:00:00Z"}"#,
        copilot::DIALECT,
        Some("PreToolUse"),
    )
    .unwrap();
    assert_eq!((named.kind, flavor), (EventKind::Stop, copilot::PASCAL));
}

#[test]
fn unknown_events_and_fields_are_carried() {
    let bytes =
        br#"{"session_id":"s","hook_event_name":"FutureEvent","teammate":"bob","x_extra":[1,2]}"#;
    let (event, flavor) = decode_event(bytes, claude::DIALECT).unwrap();
    assert_eq!(flavor, claude::FLAVOR);
    assert_eq!(event.kind, EventKind::Other("FutureEvent".into()));
    assert_eq!(event.fields["x_extra"], json!([1, 2]));
    let back = encode_event(&event, claude::FLAVOR);
    assert_eq!(back, serde_json::from_slice::<Value>(bytes).unwrap());
    // An event Claude's table lacks but hookx knows keeps its canonical kind.
    let (event, _) =
        decode_event(br#"{"hook_event_name":"PostCompact"}"#, claude::DIALECT).unwrap();
    assert_eq!(event.kind, EventKind::PostCompact);
}

#[test]
fn malformed_payloads_are_errors_not_panics() {
    let cases: &[(&[u8], Dialect)] = &[
        (b"", claude::DIALECT),
        (b"not json", claude::DIALECT),
        (b"{\"hook_event_name\": ", bricks::DIALECT),
        (b"[1,2]", claude::DIALECT),
        (b"\"PreToolUse\"", copilot::DIALECT),
        (b"{\"hook_event_name\": 3}", claude::DIALECT),
        (b"{\"session_id\": \"s\"}", claude::DIALECT),
        (b"{\"sessionId\": \"s\", \"mystery\": 1}", copilot::DIALECT),
        (b"\xff\xfe{}", claude::DIALECT),
    ];
    let mut messages = Vec::new();
    for (bytes, host) in cases {
        let err = decode_event(bytes, *host).expect_err("malformed");
        assert!(matches!(err, Error::Invalid(_) | Error::Usage(_)));
        messages.push(format!("{host}: {}", err));
    }
    snapshot!("payload", "malformed", messages);
}

#[test]
fn host_detection() {
    let cases = [
        (
            json!({"sessionId": "s", "timestamp": 1, "toolName": "bash"}),
            Some(copilot::DIALECT),
        ),
        (
            json!({"session_id": "s", "timestamp": "2025-01-01T00:00:00Z", "hook_event_name": "Stop"}),
            Some(copilot::DIALECT),
        ),
        // Claude's keys, but Codex's Stop payloads hold them too: either may have sent it.
        (
            json!({"session_id": "s", "transcript_path": "/t", "hook_event_name": "Stop"}),
            None,
        ),
        // Claude's keys, all of them, but Droid's Stop payloads hold them too (run 0.225.2).
        (
            json!({"session_id": "s", "transcript_path": "/t", "hook_event_name": "Stop",
                   "permission_mode": "default"}),
            None,
        ),
        (
            json!({"session_id": "s", "transcript_path": "/t", "hook_event_name": "Stop",
                   "permission_mode": "default", "prompt_id": "p"}),
            Some(claude::DIALECT),
        ),
        (
            json!({"session_id": "s", "permission_mode": "default"}),
            Some(claude::DIALECT),
        ),
        (
            json!({"session_id": "s", "hook_event_name": "GoalUpdate"}),
            Some(bricks::DIALECT),
        ),
        (
            json!({"session_id": "s", "hook_event_name": "PreToolUse"}),
            None,
        ),
        (json!([1]), None),
    ];
    for (payload, expected) in cases {
        assert_eq!(detect_host(&payload), expected, "{payload}");
    }
}

#[test]
fn handler_env_per_flavour() {
    let event = Event {
        kind: EventKind::PreToolUse,
        timestamp: None,
        tool: None,
        fields: json!({"session_id": "s-9"}).as_object().unwrap().clone(),
        result: None,
    };
    let env = |f| handler_env(&event, f, "/p", None);
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(env(claude::FLAVOR), pairs(&[("CLAUDE_PROJECT_DIR", "/p")]));
    assert_eq!(
        env(bricks::FLAVOR),
        pairs(&[
            ("BRICKS_PROJECT_DIR", "/p"),
            ("BRICKS_SESSION_ID", "s-9"),
            ("BRICKS_HOOK_EVENT", "PreToolUse"),
        ])
    );
    // Run 1.0.102: Copilot sets both project variables.
    let copilot = pairs(&[
        ("COPILOT_CLI", "1"),
        ("COPILOT_PROJECT_DIR", "/p"),
        ("CLAUDE_PROJECT_DIR", "/p"),
    ]);
    assert_eq!(env(copilot::FLAVOR), copilot);
    assert_eq!(env(copilot::PASCAL), copilot);
    // The project dir variable agrees with the config tables.
    for &flavor in Flavor::all() {
        if let Some(var) = flavor.tables().project_dir_var {
            assert!(env(flavor).iter().any(|(k, v)| k == var && v == "/p"));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Round trip: decode(encode(e, f), f) == e for events made of what the flavour carries.

const ARG_KEYS: &[&str] = &[
    "file_path",
    "content",
    "old_string",
    "new_string",
    "command",
    "pattern",
    "description",
];
const RESERVED: &[&str] = &[
    "tool_name",
    "tool_input",
    "tool_response",
    "tool_result",
    "timestamp",
    "hook_event_name",
    "agent_name",
];

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        "[a-z ]{0,12}".prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        any::<bool>().prop_map(Value::from),
    ]
}

fn event_for(flavor: Flavor) -> impl Strategy<Value = Event> {
    let t = flavor.tables();
    let mut kinds: Vec<EventKind> = t.events.iter().map(|(k, _)| k.clone()).collect();
    kinds.push(EventKind::Other("customEvent".into()));
    let mut tools: Vec<String> = Flavor::all()
        .iter()
        .flat_map(|f| f.tables().tools.iter().map(|(id, _)| id.to_string()))
        .collect();
    tools.push("mcp__github__create_issue".into());
    tools.push("Frobnicate".into());
    let envelope = t.protocol.tool_result_keys.is_some();
    let has_time = t.timestamp != hookx::tables::TimestampForm::None;
    let key =
        "[a-z]{1,6}(_[a-z]{1,6}){0,2}".prop_filter("reserved", |k| !RESERVED.contains(&k.as_str()));
    let args = prop_oneof![
        Just(Value::Null),
        "[a-z ]{1,12}".prop_map(Value::from),
        prop::collection::btree_map(prop::sample::select(ARG_KEYS), scalar(), 0..4)
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
    ];
    let response = prop_oneof![
        Just(None),
        "[a-z ]{0,12}".prop_map(move |text| Some(if envelope {
            json!({"result_type": "success", "text_result_for_llm": text})
        } else {
            json!({"stdout": text, "success": true})
        })),
    ];
    (
        prop::sample::select(kinds),
        prop::option::of(0i64..4_000_000_000_000),
        prop::option::of((prop::sample::select(tools), args)),
        prop::collection::btree_map(key, scalar(), 0..5),
        response,
        "[a-z0-9-]{1,8}",
    )
        .prop_map(move |(kind, millis, tool, extra, response, session)| {
            let mut fields = Map::new();
            fields.insert("session_id".into(), session.into());
            fields.insert("cwd".into(), "/repo".into());
            fields.extend(extra);
            if let Some(r) = response {
                fields.insert("tool_response".into(), r);
            }
            Event {
                kind,
                timestamp: millis
                    .filter(|_| has_time)
                    .and_then(DateTime::from_timestamp_millis),
                tool: tool.map(|(name, input)| ToolCall {
                    name,
                    input,
                    other_ids: Vec::new(),
                    rewrite: None,
                }),
                fields,
                result: None,
            }
        })
}

/// `event` without the MCP name rewrite its decoded call records (`ToolCall::rewrite`: how the
/// host's agent writes MCP names, which a generated event does not say); a rewrite recorded is
/// the flavour's own.
fn without_rewrite(mut event: Event, flavor: Flavor) -> Result<Event, TestCaseError> {
    if let Some(tool) = event.tool.as_mut() {
        let rewrite = tool.rewrite.take();
        prop_assert!(rewrite.is_none() || rewrite == flavor.tables().mcp_names.rewrite);
    }
    Ok(event)
}

fn round_trip(event: &Event, flavor: Flavor) -> Result<(), TestCaseError> {
    let bytes = serde_json::to_vec(&encode_event(event, flavor)).unwrap();
    let name = flavor
        .tables()
        .event_name(&event.kind)
        .unwrap_or(event.kind.name())
        .to_string();
    let (back, detected) = decode_event_as(&bytes, flavor.dialect(), Some(&name))
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(detected, flavor);
    // The result read into its parts is new here; the payload's own keys are compared.
    let back = without_rewrite(
        Event {
            result: None,
            ..back
        },
        flavor,
    )?;
    prop_assert_eq!(&back, event);
    if flavor.tables().protocol.event_key_only.is_none() {
        // Flavours that name every event need no help.
        let (back, _) = decode_event(&bytes, flavor.dialect())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let back = without_rewrite(
            Event {
                result: None,
                ..back
            },
            flavor,
        )?;
        prop_assert_eq!(&back, event);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn round_trip_claude(event in event_for(claude::FLAVOR)) {
        round_trip(&event, claude::FLAVOR)?;
    }

    #[test]
    fn round_trip_copilot(event in event_for(copilot::FLAVOR)) {
        round_trip(&event, copilot::FLAVOR)?;
    }

    #[test]
    fn round_trip_copilot_pascal(event in event_for(copilot::PASCAL)) {
        round_trip(&event, copilot::PASCAL)?;
    }

    #[test]
    fn round_trip_bricks(event in event_for(bricks::FLAVOR)) {
        round_trip(&event, bricks::FLAVOR)?;
    }

    #[test]
    fn decoding_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        for &host in Dialect::all() {
            let _ = decode_event(&bytes, host);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Answers.

fn event(kind: EventKind, tool: Option<(&str, Value)>) -> Event {
    Event {
        kind,
        timestamp: None,
        tool: tool.map(|(name, input)| ToolCall {
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

fn pre_tool_use() -> Event {
    event(
        EventKind::PreToolUse,
        Some((
            "edit",
            json!({"file_path": "/a", "old_string": "x", "new_string": "y"}),
        )),
    )
}

fn finished(exit: Exit, stdout: &[u8], stderr: &str) -> Finished {
    Finished {
        exit,
        stdout: stdout.to_vec(),
        stderr: stderr.as_bytes().to_vec(),
        stdout_truncated: false,
        stderr_truncated: false,
        elapsed: Duration::from_millis(5),
    }
}

fn denied(reason: &str) -> Outcome {
    Outcome {
        decision: Some(Decision::Deny),
        reasons: vec![reason.into()],
        ..Outcome::default()
    }
}

fn with_errors(error: &str) -> Outcome {
    Outcome {
        errors: vec![error.into()],
        ..Outcome::default()
    }
}

/// Handler flavour, event, how it ended, stdout, stderr, what it means.
type AnswerCase<'a> = (Flavor, &'a Event, Exit, &'a [u8], &'a str, Outcome);

#[test]
fn answers_per_dialect_and_exit_code() {
    use Exit::{Code, FailedToStart, Signal, TimedOut};
    let pre = pre_tool_use();
    let stop = event(EventKind::Stop, None);
    let start = event(EventKind::SessionStart, None);
    let post = event(
        EventKind::PostToolUse,
        Some(("shell", json!({"command": "ls"}))),
    );
    let failure = event(
        EventKind::PostToolUseFailure,
        Some(("shell", json!({"command": "ls"}))),
    );
    let perm = event(
        EventKind::PermissionRequest,
        Some(("shell", json!({"command": "ls"}))),
    );
    let prompt = event(EventKind::UserPromptSubmit, None);
    let allow = Outcome {
        decision: Some(Decision::Allow),
        ..Outcome::default()
    };
    let ask = Outcome {
        decision: Some(Decision::Ask),
        reasons: vec!["check".into()],
        ..Outcome::default()
    };
    let blocked = |r: &str| Outcome {
        block: true,
        reasons: vec![r.into()],
        ..Outcome::default()
    };
    let context = |c: &str| Outcome {
        additional_context: vec![c.into()],
        ..Outcome::default()
    };

    #[rustfmt::skip]
    let cases: Vec<AnswerCase> = vec![
        // Claude: JSON at exit 0.
        (claude::FLAVOR, &pre, Code(0), br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#, "", allow.clone()),
        (claude::FLAVOR, &pre, Code(0), br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#, "", denied("no")),
        (claude::FLAVOR, &pre, Code(0), br#"{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"check"}}"#, "", ask.clone()),
        (claude::FLAVOR, &pre, Code(0), br#"{"decision":"block","reason":"old style"}"#, "", denied("old style")),
        (claude::FLAVOR, &pre, Code(0), br#"{"decision":"approve"}"#, "", allow.clone()),
        (claude::FLAVOR, &pre, Code(0), b"", "", Outcome::default()),
        (claude::FLAVOR, &pre, Code(0), b"  \n", "", Outcome::default()),
        (claude::FLAVOR, &stop, Code(0), br#"{"decision":"block","reason":"tests fail"}"#, "", blocked("tests fail")),
        (claude::FLAVOR, &stop, Code(0), br#"{"continue":false,"stopReason":"halt","systemMessage":"bye","suppressOutput":true}"#, "",
            Outcome { stop: true, stop_reason: Some("halt".into()), system_messages: vec!["bye".into()], suppress_output: true, ..Outcome::default() }),
        (claude::FLAVOR, &start, Code(0), b"remember the plan\n", "", context("remember the plan")),
        (claude::FLAVOR, &prompt, Code(0), b"42", "", context("42")),
        (claude::FLAVOR, &start, Code(0), br#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"ctx"}}"#, "", context("ctx")),
        (claude::FLAVOR, &post, Code(0), br#"{"continue":true,"additionalContext":"top level"}"#, "", context("top level")),
        (claude::FLAVOR, &post, Code(0), b"formatted 3 files", "", with_errors("hook stdout is not JSON, ignored: formatted 3 files")),
        (claude::FLAVOR, &pre, Code(0), b"{\"hookSpecificOutput\": ", "", with_errors("hook stdout is not valid JSON (EOF while parsing a value at line 1 column 22): {\"hookSpecificOutput\":")),
        (claude::FLAVOR, &start, Code(0), b"{oops", "", with_errors("hook stdout is not valid JSON (key must be a string at line 1 column 2): {oops")),
        (claude::FLAVOR, &pre, Code(0), b"\xff\xfe", "", with_errors("hook stdout is not JSON, ignored: \u{fffd}\u{fffd}")),
        (claude::FLAVOR, &pre, Code(0), br#"{"hookSpecificOutput":{"permissionDecision":"maybe"}}"#, "", with_errors("hook answer `hookSpecificOutput.permissionDecision` has an unknown value \"maybe\"")),
        (claude::FLAVOR, &perm, Code(0), br#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"nope","interrupt":true}}}"#, "",
            Outcome { interrupt: true, ..denied("nope") }),
        // Claude exit 2: blocks where the event can be blocked, stderr is the reason, stdout ignored.
        (claude::FLAVOR, &pre, Code(2), br#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#, "rm is not allowed\n", denied("rm is not allowed")),
        // claude-code 2.1.332: a non-blocking error; the permission flow goes on.
        (claude::FLAVOR, &perm, Code(2), b"", "no", with_errors("hook exited with code 2: no")),
        (claude::FLAVOR, &prompt, Code(2), b"", "secret in prompt", blocked("secret in prompt")),
        (claude::FLAVOR, &stop, Code(2), b"", "", blocked("blocked by hook")),
        (claude::FLAVOR, &post, Code(2), b"", "lint failed", context("lint failed")),
        (claude::FLAVOR, &start, Code(2), b"", "only shown", with_errors("hook exited with code 2: only shown")),
        // Claude other exits and timeouts never block.
        (claude::FLAVOR, &pre, Code(1), b"", "boom", with_errors("hook exited with code 1: boom")),
        (claude::FLAVOR, &pre, TimedOut, b"", "", with_errors("hook timed out")),
        (claude::FLAVOR, &pre, Signal(9), b"", "", with_errors("hook was killed by signal 9")),
        // Copilot: top-level fields, Copilot argument names.
        (copilot::FLAVOR, &pre, Code(0), br#"{"permissionDecision":"allow"}"#, "", allow.clone()),
        (copilot::FLAVOR, &pre, Code(0), br#"{"permissionDecision":"deny","permissionDecisionReason":"no"}"#, "", denied("no")),
        (copilot::FLAVOR, &pre, Code(0), br#"{"permissionDecision":"ask","permissionDecisionReason":"check"}"#, "", ask.clone()),
        (copilot::FLAVOR, &pre, Code(0), br#"{"modifiedArgs":{"path":"/b","old_str":"x","new_str":"z"}}"#, "",
            Outcome { updated_input: Some(json!({"file_path": "/b", "old_string": "x", "new_string": "z"})), ..Outcome::default() }),
        (copilot::FLAVOR, &pre, Code(0), br#"{"modifiedArgs":"{\"path\":\"/c\"}"}"#, "",
            Outcome { updated_input: Some(json!({"file_path": "/c"})), ..Outcome::default() }),
        (copilot::FLAVOR, &stop, Code(0), br#"{"decision":"block","reason":"keep going"}"#, "", blocked("keep going")),
        (copilot::FLAVOR, &stop, Code(0), br#"{"decision":"allow"}"#, "", Outcome::default()),
        (copilot::FLAVOR, &perm, Code(0), br#"{"behavior":"deny","message":"no","interrupt":true}"#, "", Outcome { interrupt: true, ..denied("no") }),
        (copilot::FLAVOR, &perm, Code(0), br#"{"behavior":"allow"}"#, "", allow.clone()),
        (copilot::FLAVOR, &perm, Code(0), b"{}", "", Outcome::default()),
        (copilot::FLAVOR, &start, Code(0), b"plain text", "", with_errors("hook stdout is not JSON, ignored: plain text")),
        (copilot::FLAVOR, &pre, Code(0), b"[1]", "", with_errors("hook stdout is an array where a JSON object was expected: [1]")),
        // Copilot preToolUse is fail-closed on any failure but a timeout.
        (copilot::FLAVOR, &pre, Code(1), b"", "crashed", denied("crashed")),
        (copilot::FLAVOR, &pre, Code(2), b"", "", denied("hook exited with code 2")),
        (copilot::FLAVOR, &pre, Signal(11), b"", "", denied("hook was killed by signal 11")),
        (copilot::FLAVOR, &pre, FailedToStart("no such file".into()), b"", "", denied("hook could not start: no such file")),
        (copilot::FLAVOR, &pre, TimedOut, b"", "", with_errors("hook timed out")),
        (copilot::PASCAL, &pre, Code(1), b"", "crashed", denied("crashed")),
        // permissionRequest exit 2 denies; stdout JSON still counts, stderr does not.
        (copilot::FLAVOR, &perm, Code(2), br#"{"message":"from stdout","interrupt":true}"#, "ignored",
            Outcome { interrupt: true, ..denied("from stdout") }),
        (copilot::FLAVOR, &perm, Code(2), b"", "ignored", Outcome { decision: Some(Decision::Deny), ..Outcome::default() }),
        (copilot::FLAVOR, &perm, Code(1), b"", "x", with_errors("hook exited with code 1: x")),
        // postToolUseFailure exit 2: stderr is recovery guidance.
        (copilot::FLAVOR, &failure, Code(2), b"", "retry with --offline", context("retry with --offline")),
        (copilot::FLAVOR, &stop, Code(2), b"", "x", with_errors("hook exited with code 2: x")),
        (copilot::FLAVOR, &prompt, Code(2), b"", "x", with_errors("hook exited with code 2: x")),
        // Copilot PascalCase also accepts Claude-style answers.
        (copilot::PASCAL, &pre, Code(0), br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#, "", denied("no")),
        (copilot::PASCAL, &pre, Code(0), br#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"},"permissionDecision":"deny","permissionDecisionReason":"no"}"#, "", denied("no")),
        // Bricks.
        (bricks::FLAVOR, &pre, Code(0), br#"{"decision":"block","reason":"lint first"}"#, "", denied("lint first")),
        (bricks::FLAVOR, &pre, Code(0), br#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}"#, "", denied("no")),
        (bricks::FLAVOR, &post, Code(0), br#"{"additionalContext":"3 lint warnings"}"#, "", context("3 lint warnings")),
        (bricks::FLAVOR, &prompt, Code(0), br#"{"decision":"block","reason":"no"}"#, "", blocked("no")),
        (bricks::FLAVOR, &pre, Code(2), b"", "blocked by policy", denied("blocked by policy")),
        (bricks::FLAVOR, &prompt, Code(2), b"", "no", blocked("no")),
        (bricks::FLAVOR, &stop, Code(2), b"", "x", with_errors("hook exited with code 2: x")),
        (bricks::FLAVOR, &pre, Code(1), b"", "x", with_errors("hook exited with code 1: x")),
        (bricks::FLAVOR, &pre, TimedOut, b"", "", with_errors("hook timed out")),
        (bricks::FLAVOR, &start, Code(0), b"hello", "", with_errors("hook stdout is not JSON, ignored: hello")),
    ];
    for (i, (flavor, event, exit, stdout, stderr, expected)) in cases.into_iter().enumerate() {
        let got = decode_answer(flavor, event, &finished(exit.clone(), stdout, stderr));
        assert_eq!(
            got,
            expected,
            "case {i}: {} {} {exit:?} {:?}",
            flavor.name(),
            event.kind,
            String::from_utf8_lossy(stdout)
        );
    }
}

#[test]
fn claude_updated_input_stays_canonical_and_truncation_is_said() {
    let got = decode_answer(
        claude::FLAVOR,
        &pre_tool_use(),
        &finished(
            Exit::Code(0),
            br#"{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"file_path":"/b"}}}"#,
            "",
        ),
    );
    assert_eq!(got.updated_input, Some(json!({"file_path": "/b"})));
    // Cut at the output cap, the answer cannot be read whole: by the failure policy, a deny on
    // a tool-call guard, a non-blocking error elsewhere.
    let mut cut = finished(Exit::Code(0), b"{\"a\": \"bc", "");
    cut.stdout_truncated = true;
    let got = decode_answer(claude::FLAVOR, &pre_tool_use(), &cut);
    assert_eq!(got.decision, Some(Decision::Deny), "{got:?}");
    assert!(got.reasons[0].contains("over hookx's 4 MiB cap"), "{got:?}");
    let got = decode_answer(claude::FLAVOR, &event(EventKind::Stop, None), &cut);
    assert!(got.decision.is_none() && !got.block, "{got:?}");
    assert!(got.errors[0].contains("over hookx's 4 MiB cap"), "{got:?}");
}

// ---------------------------------------------------------------------------------------------
// Answers for the host.

/// The answer as JSON; a host that reads no JSON answer (`answer` table empty: Kiro) may get
/// plain text, its context.
fn answer_json(host: Flavor, a: &HostAnswer) -> Value {
    let plain = host.tables().protocol.answer.is_empty();
    let stdout = match serde_json::from_str::<Value>(&a.stdout) {
        _ if a.stdout.is_empty() => Value::Null,
        Ok(value) => value,
        Err(_) if plain => Value::String(a.stdout.clone()),
        Err(e) => panic!("{}: stdout is not JSON ({e}): {}", host.name(), a.stdout),
    };
    json!({
        "stdout": stdout,
        "stderr": a.stderr,
        "exit_code": a.exit_code,
    })
}

#[test]
fn host_answers_per_flavour() {
    let pre = pre_tool_use();
    let perm = event(
        EventKind::PermissionRequest,
        Some(("write", json!({"file_path": "/a", "content": "x"}))),
    );
    let outcomes: Vec<(&str, Event, Outcome)> = vec![
        ("empty", pre.clone(), Outcome::default()),
        (
            "pre_allow_updated",
            pre.clone(),
            Outcome {
                decision: Some(Decision::Allow),
                reasons: vec!["rewritten".into()],
                updated_input: Some(
                    json!({"file_path": "/b", "old_string": "x", "new_string": "z"}),
                ),
                additional_context: vec!["prod".into()],
                ..Outcome::default()
            },
        ),
        ("pre_deny", pre.clone(), denied("no rm")),
        (
            "pre_ask",
            pre.clone(),
            Outcome {
                decision: Some(Decision::Ask),
                reasons: vec!["check".into()],
                ..Outcome::default()
            },
        ),
        (
            "perm_deny_interrupt",
            perm.clone(),
            Outcome {
                interrupt: true,
                ..denied("never")
            },
        ),
        (
            "perm_allow_updated",
            perm.clone(),
            Outcome {
                decision: Some(Decision::Allow),
                updated_input: Some(json!({"file_path": "/b", "content": "y"})),
                ..Outcome::default()
            },
        ),
        (
            "stop_block",
            event(EventKind::Stop, None),
            Outcome {
                block: true,
                reasons: vec!["tests fail".into()],
                ..Outcome::default()
            },
        ),
        (
            "prompt_block_context",
            event(EventKind::UserPromptSubmit, None),
            Outcome {
                block: true,
                reasons: vec!["secret".into()],
                additional_context: vec!["ctx".into()],
                ..Outcome::default()
            },
        ),
        (
            "post_block_context",
            event(
                EventKind::PostToolUse,
                Some(("shell", json!({"command": "ls"}))),
            ),
            Outcome {
                block: true,
                reasons: vec!["fix lint".into()],
                additional_context: vec!["3 warnings".into()],
                ..Outcome::default()
            },
        ),
        (
            "failure_context",
            event(
                EventKind::PostToolUseFailure,
                Some(("shell", json!({"command": "ls"}))),
            ),
            Outcome {
                additional_context: vec!["retry offline".into(), "or skip".into()],
                ..Outcome::default()
            },
        ),
        (
            "session_start_context",
            event(EventKind::SessionStart, None),
            Outcome {
                additional_context: vec!["plan".into()],
                ..Outcome::default()
            },
        ),
        (
            "stop_everything",
            event(EventKind::SubagentStart, None),
            Outcome {
                stop: true,
                stop_reason: Some("build broken".into()),
                system_messages: vec!["see CI".into()],
                suppress_output: true,
                errors: vec!["hook timed out".into()],
                ..Outcome::default()
            },
        ),
        (
            "errors_only",
            event(EventKind::Notification, None),
            Outcome {
                errors: vec!["hook exited with code 1: boom".into()],
                ..Outcome::default()
            },
        ),
    ];
    let mut read_back = 0;
    for (name, event, outcome) in outcomes {
        let mut all = Map::new();
        for &host in Flavor::all() {
            let answer = encode_answer(host, &event, &outcome);
            all.insert(host.name().to_string(), answer_json(host, &answer));

            // What hookx writes for a host, a handler of that flavour could have written: read
            // as one, it means the same outcome (when nothing had to be dropped or folded).
            let lossless = answer.exit_code == 2 || answer.stderr == outcome.errors.join("\n");
            // A block the host cannot express may reach the model as context instead.
            let p = &host.tables().protocol;
            let folded = outcome.block && !p.writes(Slot::Decision, &event.kind)
                // A rewrite the host cannot apply is a deny (attacks row 1020), so is an ask it
                // cannot put to anyone (row 1160).
                || outcome.updated_input.is_some()
                    && !p.applies_rewrite(&event.kind, outcome.decision)
                || outcome.decision == Some(Decision::Ask)
                    && p.fails_closed(&event.kind)
                    && !p.can_ask(&event.kind);
            if lossless && !folded && outcome.additional_context.len() <= 1 {
                let stderr = if answer.exit_code == 2 {
                    answer.stderr.as_str()
                } else {
                    ""
                };
                let got = decode_answer(
                    host,
                    &event,
                    &finished(
                        Exit::Code(answer.exit_code),
                        answer.stdout.as_bytes(),
                        stderr,
                    ),
                );
                let mut expected = Outcome {
                    errors: vec![],
                    ..outcome.clone()
                };
                // A host with no decision key (Cline: only `cancel`) allows by saying nothing,
                // and has nowhere for an allow's reason.
                let says_allow = [Slot::Decision, Slot::Permission, Slot::Behavior]
                    .into_iter()
                    .any(|slot| host.tables().protocol.writes(slot, &event.kind));
                if expected.decision == Some(Decision::Allow) && !says_allow {
                    expected.decision = None;
                    expected.reasons.clear();
                }
                assert_eq!(got, expected, "{name} read back as {}", host.name());
                read_back += 1;
            }
        }
        snapshot!("answer", name, all);
    }
    // 34 for Claude, Copilot and Bricks (Copilot reads context and prompt blocks too, and
    // context beside a rewrite on preToolUse; its PascalCase PermissionRequest takes no
    // rewrite, run 1.0.102); 9 more for Gemini, 10 for Qwen, 41
    // for Cursor's six flavours and VS Code (docs), 8 for Codex (a rewrite beside an allow
    // among them, run 0.171.0), 15 for Windsurf's five flavours (docs: exit 2 and stderr
    // only), 8 for Droid (no ask: it only logs one, attacks row 1025), 4 for Cline (context, a deny as `cancel`, and a rewrite as
    // `overrideInput`, run 3.0.65), 7 for Augment (no ask: it never acts on one, attacks row
    // 1161), 4 for Kiro (docs: exit 2 and stderr, and plain stdout as context).
    assert_eq!(read_back, 140, "answers read back");
}

#[test]
fn empty_outcome_is_silent_everywhere() {
    for &host in Flavor::all() {
        for kind in EventKind::KNOWN {
            let a = encode_answer(host, &event(kind, None), &Outcome::default());
            assert_eq!(a, HostAnswer::default(), "{} {:?}", host.name(), a);
        }
    }
}

#[test]
fn copilot_deny_reaches_a_claude_host_as_hook_specific_output() {
    let pre = pre_tool_use();
    let outcome = decode_answer(
        copilot::FLAVOR,
        &pre,
        &finished(
            Exit::Code(0),
            br#"{"permissionDecision":"deny","permissionDecisionReason":"protected file"}"#,
            "",
        ),
    );
    let answer = encode_answer(claude::FLAVOR, &pre, &outcome);
    assert_eq!(answer.exit_code, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&answer.stdout).unwrap(),
        json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "protected file",
        }})
    );
}

#[test]
fn claude_updated_input_reaches_a_copilot_host_as_modified_args() {
    let (event, host) = decode_event(
        br#"{"sessionId":"s","timestamp":1,"cwd":"/","toolName":"edit","toolArgs":"{\"path\":\"/a\",\"old_str\":\"x\",\"new_str\":\"y\"}"}"#,
        copilot::DIALECT,
    )
    .unwrap();
    // The Claude handler sees Claude names ...
    let stdin = encode_event(&event, claude::FLAVOR);
    assert_eq!(stdin["tool_name"], json!("Edit"));
    assert_eq!(stdin["tool_input"]["file_path"], json!("/a"));
    // ... and answers in them.
    let outcome = decode_answer(
        claude::FLAVOR,
        &event,
        &finished(
            Exit::Code(0),
            br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/b","old_string":"x","new_string":"z"}}}"#,
            "",
        ),
    );
    let answer = encode_answer(host, &event, &outcome);
    assert_eq!(
        serde_json::from_str::<Value>(&answer.stdout).unwrap(),
        json!({"permissionDecision": "allow", "modifiedArgs": {"path": "/b", "old_str": "x", "new_str": "z"}})
    );
}

#[test]
fn a_crashing_copilot_handler_denies_under_a_claude_host() {
    let pre = pre_tool_use();
    let outcome = decode_answer(
        copilot::FLAVOR,
        &pre,
        &finished(Exit::Signal(6), b"", "abort"),
    );
    let answer = encode_answer(claude::FLAVOR, &pre, &outcome);
    assert_eq!(
        serde_json::from_str::<Value>(&answer.stdout).unwrap()["hookSpecificOutput"]["permissionDecision"],
        json!("deny")
    );
    // A Claude handler that crashes the same way lets the call through.
    let outcome = decode_answer(
        claude::FLAVOR,
        &pre,
        &finished(Exit::Signal(6), b"", "abort"),
    );
    let answer = encode_answer(copilot::FLAVOR, &pre, &outcome);
    assert_eq!(answer.stdout, "");
    assert_eq!(answer.stderr, "hook was killed by signal 6: abort");
}

/// Attacks row 1320: a block (JSON, or text at exit 2) or a stop from a handler on an event
/// where its own agent reads none (Gemini CLI 0.61.0's SessionStart, SessionEnd, PreCompress
/// and Notification; Qwen Code 0.24.4's SessionStart, SessionEnd and PreCompact) is a note, and
/// Claude Code is never told to block its compaction for it. Claude's own PreCompact block
/// still blocks.
#[test]
fn a_block_its_own_agent_ignores_is_not_passed_on() {
    let gemini = Flavor::named("gemini").unwrap();
    let qwen = Flavor::named("qwen").unwrap();
    let claude = claude::DIALECT.default_flavor();
    let json = br#"{"decision":"block","reason":"NO","continue":false}"#;
    let answers = [
        finished(Exit::Code(0), json, ""),
        finished(Exit::Code(2), b"", "NO"),
    ];
    let edges = [
        (gemini, EventKind::PreCompact),
        (gemini, EventKind::SessionStart),
        (gemini, EventKind::SessionEnd),
        (gemini, EventKind::Notification),
        (qwen, EventKind::PreCompact),
        (qwen, EventKind::SessionStart),
        (qwen, EventKind::SessionEnd),
    ];
    for (flavor, kind) in edges {
        let event = Event::bare(kind.clone());
        for answer in &answers {
            let read = decode_answer(flavor, &event, answer);
            assert!(!read.block && !read.stop, "{flavor:?} {kind}: {read:?}");
            let host = encode_answer(claude, &event, &read);
            assert_eq!(host.exit_code, 0, "{flavor:?} {kind}: {host:?}");
            assert!(!host.stdout.contains("NO"), "{flavor:?} {kind}: {host:?}");
        }
    }
    let event = Event::bare(EventKind::PreCompact);
    let read = decode_answer(claude, &event, &answers[1]);
    assert!(read.block, "{read:?}");
    assert_eq!(encode_answer(claude, &event, &read).exit_code, 2);
}

/// Attacks rows 1570 and 1571: a block on an event where the handler's own agent acts on none
/// there, or reads no JSON `decision` there, is not passed on. Claude Code 2.1.332 ignores a
/// SessionStart `decision: block` and `continue: false` (live), so under Gemini the reason is
/// not made context; Codex 0.171.0's SessionStart and PreCompact answers have no `decision`
/// (binary, its output schemas); Droid 0.225.2 blocks a compaction by a PreCompact hook's exit
/// code alone (2 or 3, binary); Copilot CLI 1.0.102's preCompact hooks "cannot block it"
/// (binary); VS Code's PreCompact takes the common output only (docs). Claude's own JSON block
/// on PreCompact, Droid's exit 2 there and VS Code's `continue: false` still count.
#[test]
fn a_json_block_its_own_agent_does_not_read_there_is_not_passed_on() {
    let named = |n: &str| Flavor::named(n).unwrap();
    let claude = claude::DIALECT.default_flavor();
    let json = |text: &'static str| finished(Exit::Code(0), text.as_bytes(), "");
    let block = json(r#"{"decision":"block","reason":"NO"}"#);
    let stop = json(r#"{"continue":false,"stopReason":"NO"}"#);
    let start = Event::bare(EventKind::SessionStart);
    let compact = Event::bare(EventKind::PreCompact);
    let ignored = [
        (claude, &start, &block),
        (claude, &start, &stop),
        (named("codex"), &start, &block),
        (named("codex"), &compact, &block),
        (named("droid"), &compact, &block),
        // Run 0.225.2 (attacks row 1845): the session goes on, the reason reaches no model.
        (named("droid"), &start, &block),
        (copilot::FLAVOR, &compact, &block),
        (copilot::PASCAL, &compact, &block),
        (copilot::FLAVOR, &start, &block),
        (copilot::PASCAL, &start, &block),
        (named("vscode"), &compact, &block),
        (named("vscode"), &start, &block),
    ];
    for (flavor, event, answer) in ignored {
        let kind = &event.kind;
        let read = decode_answer(flavor, event, answer);
        assert!(!read.block && !read.stop, "{flavor:?} {kind}: {read:?}");
        for host in [claude, named("gemini")] {
            let answered = encode_answer(host, event, &read);
            assert_eq!(answered.exit_code, 0, "{flavor:?} {kind}: {answered:?}");
            assert!(
                !answered.stdout.contains("NO"),
                "{flavor:?} {kind} under {host:?}: {answered:?}"
            );
        }
    }
    let read = decode_answer(claude, &compact, &block);
    assert!(read.block, "claude's own PreCompact JSON block: {read:?}");
    assert_eq!(encode_answer(claude, &compact, &read).exit_code, 2);
    let read = decode_answer(
        named("droid"),
        &compact,
        &finished(Exit::Code(2), b"", "NO"),
    );
    assert!(read.block, "droid's PreCompact exit 2: {read:?}");
    assert_eq!(encode_answer(claude, &compact, &read).exit_code, 2);
    let read = decode_answer(named("vscode"), &compact, &stop);
    assert!(read.stop, "vscode's PreCompact continue: false: {read:?}");
}

/// Attacks row 1577: Droid 0.225.2 aborts the agent when a hook exits 3 (binary: "Agent
/// aborted by PreToolUse hook", `AgentAbortError`; "Agent aborted by Stop hook"): the call it
/// guards never runs. hookx read exit 3 as a non-blocking error, so under another host the
/// call ran. Now it is a stop, and on PreToolUse a deny as well, under every host; Droid's
/// exit 2 and 1 read as before.
#[test]
fn a_droid_hooks_exit_3_aborts_and_its_call_never_runs() {
    let droid = Flavor::named("droid").unwrap();
    let claude = claude::DIALECT.default_flavor();
    let pre = pre_tool_use();
    let read = decode_answer(droid, &pre, &finished(Exit::Code(3), b"", "ABORT"));
    assert_eq!(read.decision, Some(Decision::Deny), "{read:?}");
    assert!(read.stop && read.reasons == ["ABORT"], "{read:?}");
    for host in [claude, copilot::FLAVOR, Flavor::named("gemini").unwrap()] {
        let answer = encode_answer(host, &pre, &read);
        let text = format!("{} {} {}", answer.stdout, answer.stderr, answer.exit_code);
        assert!(
            text.contains("deny") || answer.exit_code == 2 || text.contains("\"block\""),
            "{host:?}: {answer:?}"
        );
    }
    let stop = Event::bare(EventKind::Stop);
    let read = decode_answer(droid, &stop, &finished(Exit::Code(3), b"", "ABORT"));
    assert!(
        read.stop && !read.block,
        "a Stop hook's exit 3 ends the agent: {read:?}"
    );
    let read = decode_answer(droid, &pre, &finished(Exit::Code(1), b"", "oops"));
    assert!(read.decision.is_none() && !read.stop, "{read:?}");
}

/// Attacks row 1724: Droid 0.225.2 reads a `UserPromptSubmit` hook's exit 3 as it reads its exit
/// 2 there, the prompt blocked ("User prompt submission aborted by hook", `blocked: true`), and
/// a `PreCompact` hook's exit 3 as its exit 2, the compaction blocked (binary). hookx read it as
/// a stop alone, which Codex cannot take: under Codex the prompt went to the model (a note,
/// "codex cannot be told to stop"), and a compaction ran under Claude Code. Now it is a block
/// there too, and on Stop still a stop and no block (a Stop block would make the agent go on).
#[test]
fn a_droid_hooks_exit_3_blocks_a_prompt_and_a_compaction_as_its_exit_2_does() {
    let droid = Flavor::named("droid").unwrap();
    let codex = Flavor::named("codex").unwrap();
    let claude = claude::DIALECT.default_flavor();
    for kind in [EventKind::UserPromptSubmit, EventKind::PreCompact] {
        let event = Event::bare(kind.clone());
        let read = decode_answer(droid, &event, &finished(Exit::Code(3), b"", "ABORT"));
        let two = decode_answer(droid, &event, &finished(Exit::Code(2), b"", "ABORT"));
        assert!(two.block, "{kind:?}: exit 2 blocks: {two:?}");
        assert!(
            read.block && read.stop && read.reasons == ["ABORT"],
            "{kind:?}: exit 3 blocks as exit 2 does: {read:?}"
        );
    }
    let prompt = Event::bare(EventKind::UserPromptSubmit);
    let read = decode_answer(droid, &prompt, &finished(Exit::Code(3), b"", "ABORT"));
    let answer = encode_answer(codex, &prompt, &read);
    assert!(
        answer.stdout.contains("\"block\"") && answer.stdout.contains("ABORT"),
        "codex UserPromptSubmit: {answer:?}"
    );
    let compact = Event::bare(EventKind::PreCompact);
    let read = decode_answer(droid, &compact, &finished(Exit::Code(3), b"", "ABORT"));
    let answer = encode_answer(claude, &compact, &read);
    let text = format!("{} {} {}", answer.stdout, answer.stderr, answer.exit_code);
    assert!(
        text.contains("\"block\"") || answer.exit_code == 2,
        "claude PreCompact: {answer:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// A tool's result in the shape each handler was written for (attacks rows 1630-1649).

/// Every post-call payload a real client sent for a shell call (`tests/fixtures/recorded/`),
/// as (file, host, event name, stdin).
fn recorded_shell_results() -> Vec<(String, Dialect, String, Vec<u8>)> {
    recorded_results(&["shell"])
}

/// Every post-call payload a real client sent for a call of one of `tools` (canonical ids), as
/// (file, host, event name, stdin).
fn recorded_results(tools: &[&str]) -> Vec<(String, Dialect, String, Vec<u8>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recorded");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap().flatten() {
        for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
            let path = file.path();
            // The failed calls' (attacks rows 1840-1848) are the failure's text, which a handler
            // is told as its agent tells a failure (`tests/failed_calls.rs`).
            if !path.is_file() || file.file_name().to_string_lossy().starts_with("failed.") {
                continue;
            }
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let (Some(host), Some(event)) = (
                v["host"].as_str().and_then(Dialect::named),
                v["event"].as_str(),
            ) else {
                continue;
            };
            let stdin = match &v["stdin"] {
                Value::String(s) => s.clone().into_bytes(),
                other => other.to_string().into_bytes(),
            };
            let Ok((decoded, _)) = decode_event_as(&stdin, host, Some(event)) else {
                continue;
            };
            let shell = decoded
                .tool
                .as_ref()
                .is_some_and(|t| tools.contains(&t.name.as_str()));
            if decoded.kind == EventKind::PostToolUse
                && shell
                && decoded.fields.contains_key("tool_response")
            {
                let name = path.strip_prefix(&root).unwrap().display().to_string();
                out.push((name, host, event.to_string(), stdin));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// What a shell call printed, as its command says (the recorded calls `echo WORD`, `seq 1 N`,
/// or print nothing to stdout).
fn printed(command: &str) -> String {
    if let Some(word) = command.strip_prefix("echo ") {
        return word.to_string();
    }
    if let Some(n) = command.strip_prefix("seq 1 ") {
        let n: u32 = n.trim().parse().unwrap();
        return (1..=n)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join("\n");
    }
    String::new()
}

/// Rows 1554, 1555: each recorded shell result, under each host with a client, reaches a
/// handler of every other agent in that agent's own shape: a Claude scanner reads what the
/// command printed at `.tool_response.stdout`, a Copilot one at `toolResult.textResultForLlm`
/// (its text starting so), and each agent's own reading of the payload finds the output
/// there too. A handler of the host's own agent gets the host's result as it was sent.
#[test]
fn every_recorded_shell_result_reaches_each_agent_in_its_own_shape() {
    let targets = [
        "claude",
        "gemini",
        "qwen",
        "copilot",
        "copilot-pascal",
        "codex",
        "droid",
        "augment",
        "cline",
    ];
    let mut hosts = std::collections::BTreeSet::new();
    let mut wrong = Vec::new();
    for (file, host, event, stdin) in recorded_shell_results() {
        hosts.insert(host.name());
        let (decoded, from) = decode_event_as(&stdin, host, Some(&event)).unwrap();
        let input = &decoded.tool.as_ref().unwrap().input;
        if input["mode"] == "async" {
            // Copilot's call moved to the background: its result says so, not the output.
            continue;
        }
        let command = input["command"].as_str().unwrap_or_default().to_string();
        let want = printed(&command);
        for target in targets {
            let flavor = Flavor::named(target).unwrap();
            let out = encode_event(&decoded, flavor);
            if flavor.dialect() == from.dialect() {
                let own = encode_event(&decoded, from);
                if out.get("tool_response").is_some()
                    && own.get("tool_response") != out.get("tool_response")
                {
                    wrong.push(format!("{file} → {target}: the host's own result changed"));
                }
                continue;
            }
            // What a handler of `target` reads where its agent puts the output.
            let read = match target {
                "claude" => out["tool_response"]["stdout"].as_str().map(str::to_string),
                "copilot" => out["toolResult"]["textResultForLlm"]
                    .as_str()
                    .filter(|t| t.starts_with(&want))
                    .map(|_| want.clone()),
                _ => None,
            };
            if matches!(target, "claude" | "copilot")
                && read.as_deref().map(str::trim) != Some(&want)
            {
                wrong.push(format!(
                    "{file} → {target}: read {read:?}, printed {want:?}: {out}"
                ));
            }
            // The target's own reading of what it was given.
            let name = flavor
                .tables()
                .event_name(&decoded.kind)
                .unwrap_or("PostToolUse");
            let bytes = serde_json::to_vec(&out).unwrap();
            let (again, _) = decode_event_as(&bytes, flavor.dialect(), Some(name)).unwrap();
            let parts = again.result.unwrap();
            if parts.stdout.trim() != want {
                wrong.push(format!(
                    "{file} → {target}: its own reading is {:?}, printed {want:?}: {out}",
                    parts.stdout
                ));
            }
        }
    }
    for host in [
        "claude", "gemini", "qwen", "copilot", "codex", "droid", "augment", "cline",
    ] {
        assert!(hosts.contains(host), "no recorded shell result of {host}");
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Attacks row 1634: the results of tools other than a shell, a write, an edit and MCP (a
/// Read, Glob, Grep, a web search, a subagent), each recorded one under each host, reach a
/// handler of every other agent. Where the handler's agent has a form for the tool, its own
/// reading finds the text the host's model read (a Claude rule on a Read's
/// `.tool_response.file.content`, a Copilot one on `textResultForLlm`, a Gemini one on
/// `llmContent`); where it has none, it gets the host's original, whole, never a shape made up
/// around nothing.
#[test]
fn every_recorded_result_of_other_tools_reaches_each_agent_whole_or_in_its_shape() {
    let targets = [
        "claude",
        "gemini",
        "qwen",
        "copilot",
        "copilot-pascal",
        "codex",
        "droid",
        "augment",
        "cline",
    ];
    let tools = ["read", "glob", "grep", "web_fetch", "web_search", "task"];
    let mut seen = std::collections::BTreeSet::new();
    let mut wrong = Vec::new();
    for (file, host, event, stdin) in recorded_results(&tools) {
        let (decoded, from) = decode_event_as(&stdin, host, Some(&event)).unwrap();
        if decoded.fields["tool_response"].get("error").is_some() {
            continue; // a failed call's result is the failure's (protocol::failed)
        }
        let tool = decoded.tool.as_ref().unwrap().name.clone();
        seen.insert(format!("{}:{tool}", host.name()));
        let want = decoded.result.as_ref().unwrap().stdout.clone();
        assert!(!want.is_empty(), "{file}: the host's own reading is empty");
        for target in targets {
            let flavor = Flavor::named(target).unwrap();
            if flavor.dialect() == from.dialect() {
                continue;
            }
            let out = encode_event(&decoded, flavor);
            let has_form = flavor
                .tables()
                .protocol
                .result_forms
                .iter()
                .any(|f| f.tool == Some(tool.as_str()));
            let name = flavor
                .tables()
                .event_name(&decoded.kind)
                .unwrap_or("PostToolUse");
            let bytes = serde_json::to_vec(&out).unwrap();
            let (again, _) = decode_event_as(&bytes, flavor.dialect(), Some(name)).unwrap();
            let read = again.result.unwrap().stdout;
            let whole = serde_json::to_string(&want).unwrap();
            let whole = &whole[1..whole.len() - 1];
            let fine = if has_form {
                read == want
            } else {
                read.contains(&want) || read.contains(whole)
            };
            if !fine {
                wrong.push(format!(
                    "{file} → {target} (form: {has_form}): read {read:?}, the model read {want:?}: {out}"
                ));
            }
            // The places a rule of the agent reads.
            let at = match (target, tool.as_str()) {
                ("claude", "read") => out.pointer("/tool_response/file/content"),
                ("claude", "task") => out.pointer("/tool_response/content/0/text"),
                ("copilot", _) => out.pointer("/toolResult/textResultForLlm"),
                ("gemini" | "qwen", "task") => out.pointer("/tool_response/llmContent/0/text"),
                ("gemini" | "qwen", _) => out.pointer("/tool_response/llmContent"),
                _ => continue,
            };
            if at.and_then(Value::as_str) != Some(want.as_str()) {
                wrong.push(format!(
                    "{file} → {target}: at its place {at:?}, not {want:?}"
                ));
            }
        }
    }
    for case in [
        "claude:read",
        "claude:task",
        "gemini:read",
        "gemini:glob",
        "gemini:grep",
        "gemini:web_search",
        "gemini:task",
        "qwen:read",
        "qwen:glob",
        "qwen:task",
        "copilot:read",
        "copilot:task",
    ] {
        assert!(
            seen.contains(case),
            "no recorded result of {case}: {seen:?}"
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A recorded payload's stdin (`tests/fixtures/recorded/<file>`) decoded as its host's event.
fn recorded_event(file: &str) -> Event {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/recorded")
        .join(file);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let host = Dialect::named(v["host"].as_str().unwrap()).unwrap();
    let stdin = v["stdin"].to_string().into_bytes();
    decode_event_as(&stdin, host, v["event"].as_str())
        .unwrap()
        .0
}

/// Attacks row 1633: a Copilot hook's `modifiedResult` under Claude Code, which takes
/// `updatedToolOutput` only in the tool's own output shape (2.1.332: "does not match …'s output
/// shape; using original output"): written in Claude's form for a Bash call, a Read and an MCP
/// tool (each run live: `live_claude::a_copilot_redaction_replaces_claudes_output`), and
/// dropped with a note for a Write, whose shape Claude was not seen to take. A Claude hook's own
/// replacement goes back as it wrote it, `updatedMCPToolOutput` as `updatedToolOutput` (which
/// Claude reads first on an MCP tool too).
#[test]
fn a_replacement_reaches_claude_in_the_tools_own_shape() {
    let claude = claude::DIALECT.default_flavor();
    let copilot = Flavor::named("copilot").unwrap();
    let redact = br#"{"modifiedResult":{"resultType":"success","textResultForLlm":"R-1633"}}"#;
    let cases = [
        ("claude-2.1.332/tools.05.PostToolUse.json", Some("/stdout")),
        (
            "claude-2.1.332/tools.12.PostToolUse.json",
            Some("/file/content"),
        ),
        ("claude-2.1.332/pty.58.PostToolUse.json", Some("/0/text")),
        ("claude-2.1.332/tools.09.PostToolUse.json", None),
    ];
    for (file, at) in cases {
        let event = recorded_event(file);
        let read = decode_answer(copilot, &event, &finished(Exit::Code(0), redact, ""));
        let answer = encode_answer(claude, &event, &read);
        let out: Value = serde_json::from_str(&answer.stdout).unwrap_or(Value::Null);
        let written = out.pointer("/hookSpecificOutput/updatedToolOutput");
        match at {
            Some(at) => assert_eq!(
                written.and_then(|w| w.pointer(at)),
                Some(&json!("R-1633")),
                "{file}: {answer:?}"
            ),
            None => assert!(
                written.is_none() && answer.stderr.contains("modified tool result dropped"),
                "{file}: {answer:?}"
            ),
        }
    }
    let bash = recorded_event("claude-2.1.332/tools.05.PostToolUse.json");
    for (field, value) in [
        ("updatedToolOutput", json!("bare text")),
        (
            "updatedMCPToolOutput",
            json!([{"type": "text", "text": "R"}]),
        ),
    ] {
        let own = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", field: value}});
        let own = own.to_string().into_bytes();
        let read = decode_answer(claude, &bash, &finished(Exit::Code(0), &own, ""));
        let answer = encode_answer(claude, &bash, &read);
        let out: Value = serde_json::from_str(&answer.stdout).unwrap();
        assert_eq!(
            out.pointer("/hookSpecificOutput/updatedToolOutput"),
            Some(&value),
            "a Claude hook's {field}: {answer:?}"
        );
    }
}

/// Attacks row 1811: a Claude hook's `updatedToolOutput` in the tool's own shape (the Bash
/// object Claude Code 2.1.332 takes, an MCP tool's content) under Copilot CLI's camelCase
/// `postToolUse`, whose `modifiedResult` text is what the model reads: the text the handler
/// meant, not the Claude object's JSON text. A value no form of Claude's reads (a bare object
/// Claude itself would refuse) still withholds the original, as its JSON text.
#[test]
fn a_claude_replacement_reaches_copilot_as_the_text_it_meant() {
    let claude = claude::DIALECT.default_flavor();
    let copilot = Flavor::named("copilot").unwrap();
    let bash = json!({"stdout": "R-1811", "stderr": "E-1811", "interrupted": false,
        "isImage": false, "noOutputExpected": false});
    let cases = [
        (
            "copilot-1.0.102/tools.10.postToolUse.json",
            "updatedToolOutput",
            bash,
            "R-1811\nE-1811",
        ),
        (
            "copilot-1.0.102/mcp.11.postToolUse.json",
            "updatedMCPToolOutput",
            json!([{"type": "text", "text": "R-1811"}]),
            "R-1811",
        ),
        (
            "copilot-1.0.102/tools.10.postToolUse.json",
            "updatedToolOutput",
            json!({"stdout": "R-1811"}),
            r#"{"stdout":"R-1811"}"#,
        ),
    ];
    for (file, field, value, text) in cases {
        let event = recorded_event(file);
        let own = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", field: value}});
        let own = own.to_string().into_bytes();
        let read = decode_answer(claude, &event, &finished(Exit::Code(0), &own, ""));
        let answer = encode_answer(copilot, &event, &read);
        let out: Value = serde_json::from_str(&answer.stdout).unwrap_or(Value::Null);
        assert_eq!(
            out.pointer("/modifiedResult/textResultForLlm"),
            Some(&json!(text)),
            "{file} {field} {value}: {answer:?}"
        );
    }
    // A Write's own shape reads as no text: it goes as it was, never as nothing.
    let event = recorded_event("copilot-1.0.102/tools.16.postToolUse.json");
    let own = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
        "updatedToolOutput": {"type": "create", "filePath": "/p/R-1811-W", "content": "c",
        "structuredPatch": [], "originalFile": null, "userModified": false}}});
    let own = own.to_string().into_bytes();
    let read = decode_answer(claude, &event, &finished(Exit::Code(0), &own, ""));
    let answer = encode_answer(copilot, &event, &read);
    let out: Value = serde_json::from_str(&answer.stdout).unwrap_or(Value::Null);
    let text = out.pointer("/modifiedResult/textResultForLlm");
    assert!(
        text.and_then(Value::as_str)
            .is_some_and(|t| t.contains("R-1811-W")),
        "a Write's replacement: {answer:?}"
    );
}

/// Attacks row 1803: Gemini CLI's and Qwen Code's own `Error:` line in a shell result (a
/// process-level error: Gemini 0.61.0 writes it only then, Qwen 0.24.4 writes `(none)` without
/// one) reaches a Claude handler as the `stderr`, where a scanner looks; it was dropped. Qwen's
/// `(none)` is no error.
#[test]
fn the_agents_own_error_line_reaches_a_claude_handler_as_stderr() {
    let cases = [
        (
            "gemini-0.61.0/tools.8.AfterTool.json",
            "<untrusted_context>\nOutput: partial\nError: spawn failed SECRET-1803\nExit Code: 1\nProcess Group PGID: 5\n</untrusted_context>",
            ("partial", "spawn failed SECRET-1803"),
        ),
        (
            "qwen-0.24.4/tools.06.PostToolUse.json",
            "Command: echo hello-shell\nDirectory: (root)\nOutput: partial\nError: SECRET-1803\nExit Code: 1\nSignal: (none)\nProcess Group PGID: (none)",
            ("partial", "SECRET-1803"),
        ),
        (
            "qwen-0.24.4/tools.06.PostToolUse.json",
            "Command: echo hello-shell\nDirectory: (root)\nOutput: (empty)\nError: SECRET-1803\nExit Code: 1\nSignal: (none)\nProcess Group PGID: 9",
            ("", "SECRET-1803"),
        ),
        (
            "qwen-0.24.4/tools.06.PostToolUse.json",
            "Command: echo hello-shell\nDirectory: (root)\nOutput: fine\nError: (none)\nExit Code: 0\nSignal: (none)\nProcess Group PGID: 9",
            ("fine", ""),
        ),
    ];
    for (file, text, (stdout, stderr)) in cases {
        let mut event = recorded_event(file);
        event
            .fields
            .insert("tool_response".into(), json!({"llmContent": text}));
        let host = Dialect::named(file.split('-').next().unwrap()).unwrap();
        let name = host
            .default_flavor()
            .tables()
            .event_name(&event.kind)
            .unwrap();
        let bytes = serde_json::to_vec(&encode_event(&event, host.default_flavor())).unwrap();
        let (event, _) = decode_event_as(&bytes, host, Some(name)).unwrap();
        let out = encode_event(&event, claude::DIALECT.default_flavor());
        assert_eq!(
            (
                out.pointer("/tool_response/stdout"),
                out.pointer("/tool_response/stderr")
            ),
            (Some(&json!(stdout)), Some(&json!(stderr))),
            "{file}: {text}: {out}"
        );
    }
}

/// Attacks row 1802: a write's or an edit's result that is not the agent's success text (a
/// failure's, Augment's "Failed to save", Droid's `{"success": false, …}` not marked as a failed
/// call) reaches another agent's handler as the host sent it, never as a success made up from
/// the call's input (a form of a write's result held no part read and matched anything). Each
/// recorded write and edit result of a host with a form for it still reaches a Claude handler
/// in Claude's shape.
#[test]
fn a_write_result_that_is_no_success_text_is_passed_on_whole() {
    let cases = [
        (
            "augment-0.36.0/tools.08.PostToolUse.json",
            json!("Failed to save R-1802: permission denied"),
        ),
        (
            "droid-0.225.2/tools.08.PostToolUse.json",
            json!(r#"{"success":false,"error":"R-1802 disk full"}"#),
        ),
        (
            "gemini-0.61.0/tools.14.AfterTool.json",
            json!({"llmContent": "Refused R-1802", "returnDisplay": "R-1802"}),
        ),
        (
            "qwen-0.24.4/tools.14.PostToolUse.json",
            json!({"llmContent": "Refused R-1802", "returnDisplay": "R-1802"}),
        ),
        (
            "copilot-1.0.102/tools.16.postToolUse.json",
            json!({"resultType": "success", "textResultForLlm": "Refused R-1802"}),
        ),
    ];
    for (file, result) in cases {
        let mut event = recorded_event(file);
        let key = if event.fields.contains_key("tool_response") {
            "tool_response"
        } else {
            "toolResult"
        };
        event.fields.insert(key.into(), result);
        // Decoded again, so the result is read as the host's.
        let host = Dialect::named(file.split('-').next().unwrap()).unwrap();
        let name = host
            .default_flavor()
            .tables()
            .event_name(&event.kind)
            .unwrap();
        let sent = encode_event(&event, host.default_flavor());
        let bytes = serde_json::to_vec(&sent).unwrap();
        let (event, _) = decode_event_as(&bytes, host, Some(name)).unwrap();
        for target in ["claude", "gemini", "copilot", "droid"] {
            let flavor = Flavor::named(target).unwrap();
            if flavor.dialect() == host {
                continue;
            }
            let out = encode_event(&event, flavor).to_string();
            assert!(
                out.contains("R-1802"),
                "{file} → {target}: the failure's text is gone: {out}"
            );
        }
    }
    for (file, _, _, stdin) in recorded_results(&["write", "edit"]) {
        let host = Dialect::named(file.split('-').next().unwrap()).unwrap();
        let v: Value = serde_json::from_slice(&stdin).unwrap();
        let name = v["hook_event_name"].as_str().or(Some("PostToolUse"));
        let (event, _) = decode_event_as(&stdin, host, name).unwrap();
        let tool = event.tool.as_ref().unwrap().name.as_str();
        let forms = host.default_flavor().tables().protocol.result_forms;
        if host.name() == "claude" || !forms.iter().any(|f| f.tool == Some(tool)) {
            continue; // no form of the host's: its original goes on (Augment's edit)
        }
        let out = encode_event(&event, claude::DIALECT.default_flavor());
        assert!(
            out.pointer("/tool_response/filePath").is_some(),
            "{file} → claude: {out}"
        );
    }
}
