//! Answers as Claude Code 2.1.332 reads them, probed against the real client with hookx out of
//! the loop (`tests/live_claude.rs` `ground_truth_answer_forms`, conformance/claude-facts.md):
//! a JSON object on stdout counts at every exit code, not only at 0. At exit 1 it is the answer
//! (a deny denies, an allow's `updatedInput` runs); at exit 2 it counts beside what exit 2
//! means (PreToolUse: the block wins over an allow, stderr the reason; PostToolUse: stderr and
//! the JSON's context both reach the model). Through the real binary: `hookx exec --as claude`
//! runs one handler, and what hookx writes for the host is checked. Qwen Code 0.24.4 reads
//! its answers the same way (run, `tests/live_qwen.rs` `ground_truth_deny`).

mod common;

use serde_json::{Value, json};

/// A payload of `host` for `event` on the shell call `npm test` in `project`.
fn payload(host: &str, event: &str, project: &str) -> Value {
    let mut p = json!({"session_id": "s", "transcript_path": null, "cwd": project,
        "hook_event_name": event, "tool_name": "Bash",
        "tool_input": {"command": "npm test"}, "tool_use_id": "call_1",
        "permission_mode": "default"});
    if event == "PostToolUse" {
        p["tool_response"] = json!({"stdout": "ok", "stderr": "", "interrupted": false});
    }
    if host == "cline" {
        // Cline's own shape (conformance/cline-facts.md): `hookName` and `tool_call`/`tool_result`.
        let call = json!({"id": "call_1", "name": "run_commands",
            "input": {"commands": ["npm test"]}});
        return match event {
            "PostToolUse" => {
                let mut result = call;
                result["output"] = json!([{"query": "npm test", "result": "ok", "success": true}]);
                json!({"hookName": "tool_result", "taskId": "t", "clineVersion": "",
                    "workspaceRoots": [project], "tool_result": result})
            }
            _ => json!({"hookName": "tool_call", "taskId": "t", "clineVersion": "",
                "workspaceRoots": [project], "tool_call": call}),
        };
    }
    if host == "augment" {
        // Auggie's own shape (conformance/augment-facts.md): no `session_id` or `cwd`.
        let mut p = json!({"hook_event_name": event, "conversation_id": "c",
            "workspace_roots": [project], "tool_name": "launch-process",
            "tool_input": {"command": "npm test", "wait": true}, "is_mcp_tool": false});
        if event == "PostToolUse" {
            p["tool_output"] = json!("ok");
            p["tool_error"] = Value::Null;
        }
        return p;
    }
    if host == "codex" {
        p["turn_id"] = json!("t");
        p["model"] = json!("gpt-5.5");
    }
    p
}

/// `hookx exec --host HOST --as claude --event EVENT` over a handler that prints `answer`
/// (nothing when `Null`) and `stderr`, and exits `code`: hookx's stdout as JSON (`Null` when
/// empty), its stderr and exit code.
fn exec(host: &str, event: &str, answer: &Value, stderr: &str, code: i32) -> (Value, String, i32) {
    exec_as(host, "claude", event, answer, stderr, code)
}

/// As [`exec`], the handler written in `flavor`.
fn exec_as(
    host: &str,
    flavor: &str,
    event: &str,
    answer: &Value,
    stderr: &str,
    code: i32,
) -> (Value, String, i32) {
    exec_on(host, event, flavor, event, answer, stderr, code)
}

/// As [`exec_as`], the host's payload naming `host_event` and the handler's event `event`.
fn exec_on(
    host: &str,
    host_event: &str,
    flavor: &str,
    event: &str,
    answer: &Value,
    stderr: &str,
    code: i32,
) -> (Value, String, i32) {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().display().to_string();
    let answer = if answer.is_null() {
        String::new()
    } else {
        answer.to_string()
    };
    let out = common::hookx()
        .args(["exec", "--host", host, "--as", flavor, "--event", event])
        .args(["--project", &project, "--", "sh", "-c"])
        .arg("cat >/dev/null; printf '%s' \"$ANSWER\"; printf '%s' \"$ERR\" >&2; exit $CODE")
        .current_dir(dir.path())
        .env_remove("HOOKX_HOST")
        .env("ANSWER", answer)
        .env("ERR", stderr)
        .env("CODE", code.to_string())
        .write_stdin(payload(host, host_event, &project).to_string())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = if stdout.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
    };
    (json, err, out.status.code().unwrap_or(-1))
}

fn pre(fields: Value) -> Value {
    let mut hso = json!({"hookEventName": "PreToolUse"});
    hso.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    json!({ "hookSpecificOutput": hso })
}

/// Exit 1 with a JSON deny on stdout: Claude denies the call with the JSON's reason (run
/// 2.1.332); so does hookx, under Claude and under Copilot.
#[test]
fn a_json_deny_at_exit_1_denies() {
    let deny = pre(json!({"permissionDecision": "deny", "permissionDecisionReason": "R-EXIT1"}));
    let (out, err, code) = exec("claude", "PreToolUse", &deny, "E-EXIT1", 1);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out} {err}"
    );
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecisionReason"], "R-EXIT1",
        "{out} {err}"
    );
    let (out, err, _) = exec("copilot", "PreToolUse", &deny, "E-EXIT1", 1);
    assert_eq!(out["permissionDecision"], "deny", "{out} {err}");
}

/// Exit 1 with `allow` and `updatedInput`: Claude runs the rewrite (run 2.1.332); hookx
/// carries it to Claude and to Codex.
#[test]
fn a_rewrite_at_exit_1_is_carried() {
    let rewrite = pre(json!({"permissionDecision": "allow",
        "updatedInput": {"command": "npm ci"}}));
    let (out, err, _) = exec("claude", "PreToolUse", &rewrite, "", 1);
    assert_eq!(
        out["hookSpecificOutput"]["updatedInput"]["command"], "npm ci",
        "{out} {err}"
    );
    let (out, err, _) = exec("codex", "PreToolUse", &rewrite, "", 1);
    assert_eq!(
        out["hookSpecificOutput"]["updatedInput"]["command"], "npm ci",
        "{out} {err}"
    );
}

/// Exit 2 with an `allow` and a rewrite on stdout: Claude blocks, stderr the reason, and runs
/// nothing (run 2.1.332).
#[test]
fn exit_2_blocks_beside_a_json_allow() {
    let rewrite = pre(json!({"permissionDecision": "allow",
        "updatedInput": {"command": "npm ci"}}));
    let (out, err, code) = exec("claude", "PreToolUse", &rewrite, "E-EXIT2", 2);
    let denied = out["hookSpecificOutput"]["permissionDecision"] == "deny" || code == 2;
    assert!(denied, "{out} {err} {code}");
    assert!(
        out.to_string().contains("E-EXIT2") || err.contains("E-EXIT2"),
        "{out} {err}"
    );
    assert!(!out.to_string().contains("npm ci"), "{out}");
}

/// PostToolUse exit 2 with JSON context: both stderr and the context reach the model (run
/// 2.1.332); at exit 1 the JSON context does too.
#[test]
fn post_tool_use_context_counts_at_exit_1_and_2() {
    let ctx = |c: &str| json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": c}});
    let (out, err, _) = exec("claude", "PostToolUse", &ctx("C-AT-2"), "E-AT-2", 2);
    let all = format!("{out} {err}");
    assert!(all.contains("C-AT-2") && all.contains("E-AT-2"), "{all}");
    let (out, err, _) = exec("claude", "PostToolUse", &ctx("C-AT-1"), "", 1);
    assert_eq!(
        out["hookSpecificOutput"]["additionalContext"], "C-AT-1",
        "{out} {err}"
    );
}

/// Qwen Code 0.24.4 (run): a JSON deny at exit 1 denies with its reason, and PostToolUse
/// context at exit 1 reaches the model; so under hookx, a Qwen handler's answer at exit 1 is
/// read.
#[test]
fn a_qwen_handlers_json_at_exit_1_counts() {
    let deny = pre(json!({"permissionDecision": "deny", "permissionDecisionReason": "R-Q1"}));
    let (out, err, _) = exec_as("qwen", "qwen", "PreToolUse", &deny, "E-Q1", 1);
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out} {err}"
    );
    let ctx = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
        "additionalContext": "C-Q1"}});
    let (out, err, _) = exec_as("qwen", "qwen", "PostToolUse", &ctx, "", 1);
    assert_eq!(
        out["hookSpecificOutput"]["additionalContext"], "C-Q1",
        "{out} {err}"
    );
}

/// Droid 0.225.2 (run, `tests/live_droid.rs` `ground_truth_answer_forms`): a JSON deny at exit
/// 1 denies and a rewrite at exit 1 runs, so a Droid handler's answer at exit 1 is read.
#[test]
fn a_droid_handlers_json_at_exit_1_counts() {
    let deny = pre(json!({"permissionDecision": "deny", "permissionDecisionReason": "R-D1"}));
    let (out, err, code) = exec_as("droid", "droid", "PreToolUse", &deny, "E-D1", 1);
    // hookx's deny on Droid's PreToolUse is exit 2 with the reason on stderr (attacks row 2047).
    assert!(code == 2 && err.contains("R-D1"), "{out} {err} exit {code}");
}

/// Droid 0.225.2 (run): a PostToolUse `decision: block` never reaches the model, its
/// `additionalContext` does; hookx writes a handler's PostToolUse block for Droid as context.
#[test]
fn a_post_tool_use_block_reaches_droids_model_as_context() {
    let block = json!({"decision": "block", "reason": "R-DPOST"});
    let (out, err, _) = exec_as("droid", "claude", "PostToolUse", &block, "", 0);
    assert_eq!(
        out["hookSpecificOutput"]["additionalContext"], "R-DPOST",
        "{out} {err}"
    );
}

/// Cline 3.0.65 (run, `tests/live_cline.rs` `ground_truth_answer_forms`): a PostToolUse
/// `contextModification` at exit 1 reaches the model, so a Cline handler's JSON at exit 1 is
/// read (it was dropped: hookx read JSON at exit 0 only).
#[test]
fn a_cline_handlers_json_at_exit_1_counts() {
    let context = json!({"contextModification": "C-CL1"});
    let (out, err, _) = exec_as("cline", "cline", "PostToolUse", &context, "", 1);
    assert_eq!(out["contextModification"], "C-CL1", "{out} {err}");
}

/// Cline 3.0.65: `errorMessage` without `cancel` is context for the model (source: `context
/// ?? contextModification ?? errorMessage` when there is no cancel; run: the call runs and the
/// text reaches the model, `tests/live_cline.rs`). A Cline handler's message reaches a Claude
/// host and a Cline host as context (hookx dropped it: a reason with no deny); beside a cancel
/// it is the deny's reason; beside context it is unused, as in Cline.
#[test]
fn a_cline_handlers_error_message_without_cancel_is_context() {
    let message = json!({"errorMessage": "R-CLMSG"});
    let (out, err, _) = exec_as("claude", "cline", "PreToolUse", &message, "", 0);
    assert_eq!(
        out["hookSpecificOutput"]["additionalContext"], "R-CLMSG",
        "{out} {err}"
    );
    assert!(
        out["hookSpecificOutput"]["permissionDecision"].is_null(),
        "{out}"
    );
    let not_cancelled = json!({"cancel": false, "errorMessage": "R-CLMSG"});
    let (out, err, _) = exec_as("cline", "cline", "PostToolUse", &not_cancelled, "", 0);
    assert_eq!(out, json!({"contextModification": "R-CLMSG"}), "{err}");
    let cancelled = json!({"cancel": true, "errorMessage": "R-CLMSG"});
    let (out, err, _) = exec_as("claude", "cline", "PreToolUse", &cancelled, "", 0);
    let hso = &out["hookSpecificOutput"];
    assert_eq!(hso["permissionDecision"], "deny", "{out} {err}");
    assert_eq!(hso["permissionDecisionReason"], "R-CLMSG", "{out}");
    assert!(hso["additionalContext"].is_null(), "{out}");
    let both = json!({"contextModification": "C-CL", "errorMessage": "R-CLMSG"});
    let (out, err, _) = exec_as("cline", "cline", "PreToolUse", &both, "", 0);
    assert_eq!(out, json!({"contextModification": "C-CL"}), "{err}");
}

/// Cline 3.0.65 (run): `overrideInput` replaces the call's input, so a Claude-, Copilot- or
/// Codex-shaped handler's rewrite reaches Cline as `overrideInput` in Cline's own input form
/// (it was dropped with a note).
#[test]
fn a_rewrite_reaches_cline_as_override_input() {
    let claude = pre(json!({"permissionDecision": "allow",
        "updatedInput": {"command": "npm ci"}}));
    let copilot = json!({"permissionDecision": "allow", "modifiedArgs": {"command": "npm ci"}});
    for (flavor, event, answer) in [
        ("claude", "PreToolUse", &claude),
        ("codex", "PreToolUse", &claude),
        ("copilot", "preToolUse", &copilot),
    ] {
        let (out, err, _) = exec_as("cline", flavor, event, answer, "", 0);
        assert_eq!(
            out["overrideInput"],
            json!({"commands": ["npm ci"]}),
            "{flavor}: {out} {err}"
        );
    }
}

/// Auggie 0.36.0 (run, `tests/live_augment.rs` `ground_truth_answer_forms`): a PostToolUse
/// `hookSpecificOutput.decision: block` never reaches the model, `additionalContext` does;
/// hookx writes a handler's PostToolUse block for Auggie as context (it wrote the block).
#[test]
fn a_post_tool_use_block_reaches_auggies_model_as_context() {
    let block = json!({"decision": "block", "reason": "R-APOST"});
    let (out, err, _) = exec_as("augment", "claude", "PostToolUse", &block, "", 0);
    assert_eq!(out["additionalContext"], "R-APOST", "{out} {err}");
    assert!(out["hookSpecificOutput"]["decision"].is_null(), "{out}");
}

/// The bytes of the answer `name` Claude Code 2.1.332 read (`tests/fixtures/real/`).
fn recorded(name: &str) -> Vec<u8> {
    std::fs::read(
        common::fixtures_dir()
            .join("real/claude-2.1.332")
            .join(name),
    )
    .unwrap()
}

/// `hookx exec --host HOST --as FLAVOR --event EVENT` over a handler that prints `answer`, bytes
/// as they are, and exits `code`: hookx's stdout as JSON (`Null` when empty) and its stderr.
fn exec_bytes(host: &str, flavor: &str, event: &str, answer: &[u8], code: i32) -> (Value, String) {
    exec_streams(host, flavor, event, (answer, b""), code)
}

/// As [`exec_bytes`], the handler printing `stdout` and `stderr`.
fn exec_streams(
    host: &str,
    flavor: &str,
    event: &str,
    (stdout, stderr): (&[u8], &[u8]),
    code: i32,
) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().display().to_string();
    std::fs::write(dir.path().join("answer.out"), stdout).unwrap();
    std::fs::write(dir.path().join("answer.err"), stderr).unwrap();
    let out = common::hookx()
        .args(["exec", "--host", host, "--as", flavor, "--event", event])
        .args(["--project", &project, "--", "sh", "-c"])
        .arg("cat >/dev/null; cat answer.out; cat answer.err >&2; exit $CODE")
        .current_dir(dir.path())
        .env_remove("HOOKX_HOST")
        .env("CODE", code.to_string())
        .write_stdin(payload(host, event, &project).to_string())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = match stdout.trim() {
        "" => Value::Null,
        text => serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}")),
    };
    (json, err)
}

/// The bytes `name` a client of `version` (`qwen-0.24.4`, …) read (`tests/fixtures/real/`).
fn recorded_by(version: &str, name: &str) -> Vec<u8> {
    std::fs::read(common::fixtures_dir().join("real").join(version).join(name)).unwrap()
}

/// Attacks row 820: a Qwen handler's deny where Qwen Code 0.24.4 reads it and hookx read
/// nothing: on stderr with stdout empty, at exit 0 and 1 (its `HookRunner` parses `stdout.trim()
/// || stderr.trim()`), and as a JSON string holding the deny (parsed again). Qwen denies each
/// (run: `live_qwen::ground_truth_deny`, the same bytes); so does hookx, under Claude and
/// Copilot (before: no answer, three allows). A Claude handler's deny on stderr stays unread,
/// as Claude reads it.
#[test]
fn a_qwen_deny_on_stderr_or_in_a_json_string_denies() {
    let on_stderr = recorded_by("qwen-0.24.4", "deny-on-stderr.err");
    let in_string = recorded_by("qwen-0.24.4", "deny-in-a-json-string.out");
    let cases: [(&[u8], &[u8], i32, &str); 4] = [
        (b"", &on_stderr, 0, "R-STDERR-DENY"),
        (b"  \n", &on_stderr, 1, "R-STDERR-DENY"),
        (&in_string, b"", 0, "R-STRING-DENY"),
        (&in_string, b"", 1, "R-STRING-DENY"),
    ];
    for (stdout, stderr, code, reason) in cases {
        for (host, event) in [("claude", "PreToolUse"), ("copilot", "preToolUse")] {
            let (out, err) = exec_streams(host, "qwen", event, (stdout, stderr), code);
            let decision = match host {
                "claude" => &out["hookSpecificOutput"]["permissionDecision"],
                _ => &out["permissionDecision"],
            };
            assert_eq!(
                decision, "deny",
                "{reason} at exit {code} under {host}: {out} {err}"
            );
            assert!(out.to_string().contains(reason), "{reason}: {out}");
        }
    }
    let (out, err) = exec_streams("claude", "claude", "PreToolUse", (b"", &on_stderr), 0);
    assert!(
        out.is_null(),
        "a Claude handler's stderr is no answer: {out} {err}"
    );
}

/// Attacks row 822: a Cline handler's cancel on the last `HOOK_CONTROL\t` line after log lines
/// (`tests/fixtures/real/cline-3.0.65/`; run: `live_cline::
/// a_cancel_on_a_control_line_after_log_lines_cancels`) denies under every host; an earlier
/// control line is not the answer. Before: "hook stdout is not JSON, ignored", an allow.
#[test]
fn a_cline_cancel_on_a_control_line_denies() {
    let answer = recorded_by("cline-3.0.65", "cancel-on-a-control-line.out");
    for code in [0, 1] {
        for (host, event) in [("claude", "PreToolUse"), ("copilot", "preToolUse")] {
            let (out, err) = exec_bytes(host, "cline", event, &answer, code);
            let decision = match host {
                "claude" => &out["hookSpecificOutput"]["permissionDecision"],
                _ => &out["permissionDecision"],
            };
            assert_eq!(decision, "deny", "exit {code} under {host}: {out} {err}");
            assert!(out.to_string().contains("R-CTL-CANCEL"), "{out}");
            assert!(!out.to_string().contains("R-CTL-EARLIER"), "{out}");
        }
    }
    // The same lines without the prefix are no answer: a Claude handler's stdout is read whole.
    let (out, err) = exec_bytes("claude", "claude", "PreToolUse", &answer, 0);
    assert!(out.is_null(), "{out} {err}");
}

/// Attacks row 700: a deny that starts with a byte order mark (a Windows tool, Python's
/// `utf-8-sig`, PowerShell's `Out-File`), at exit 0 and at exit 1, and a deny at exit 1 whose
/// reason holds one byte that is not UTF-8. Claude Code 2.1.332 denies each (run:
/// `live_claude::answers_with_a_mark_or_a_stray_byte`, the same bytes): it decodes lossily and
/// trims the text with JavaScript's `trim`, which takes U+FEFF for white space. So does
/// hookx, under Claude and under Copilot (before: the first two were "not JSON" and the third
/// "exited with code 1", three allows).
#[test]
fn a_deny_after_a_byte_order_mark_or_with_a_stray_byte_at_exit_1_denies() {
    let cases = [
        ("deny-after-a-byte-order-mark.out", 0, "R-MARKED-DENY"),
        ("deny-after-a-byte-order-mark.out", 1, "R-MARKED-DENY"),
        ("deny-with-a-stray-byte.out", 1, "R-STRAY-BYTE-"),
    ];
    for (name, code, reason) in cases {
        for (host, event) in [("claude", "PreToolUse"), ("copilot", "preToolUse")] {
            let (out, err) = exec_bytes(host, "claude", event, &recorded(name), code);
            let decision = match host {
                "claude" => &out["hookSpecificOutput"]["permissionDecision"],
                _ => &out["permissionDecision"],
            };
            assert_eq!(
                decision, "deny",
                "{name} at exit {code} under {host}: {out} {err}"
            );
            assert!(out.to_string().contains(reason), "{name}: {out}");
        }
    }
}

/// Row 700 for the handlers of the other JavaScript clients that trim before they parse:
/// Qwen Code 0.24.4 (a JSON object at exit 1 counts; `stdout.trim()`, bundle
/// `chunk-DPEB6S2R.js`) and Gemini CLI 0.61.0 (the output is the answer whatever the exit code;
/// `stdout.trim()`, bundle `chunk-5FZXKDXH.js`, conformance/gemini-facts.md).
#[test]
fn a_marked_deny_counts_for_qwen_and_gemini_handlers() {
    let qwen = recorded("deny-after-a-byte-order-mark.out");
    let gemini = b"\xEF\xBB\xBF{\"decision\":\"deny\",\"reason\":\"R-GEMINI-MARKED\"}\r\n";
    for (flavor, answer, code) in [
        ("qwen", &qwen[..], 1),
        ("gemini", gemini, 0),
        ("gemini", gemini, 1),
    ] {
        let (out, err) = exec_bytes("claude", flavor, "PreToolUse", answer, code);
        assert_eq!(
            out["hookSpecificOutput"]["permissionDecision"], "deny",
            "{flavor} at exit {code}: {out} {err}"
        );
    }
}

/// Attacks row 709: a deny whose reason was cut in the middle of an emoji by a Node hook
/// (`reason.slice(0, n)`, then `JSON.stringify`, which writes the lone half as `\ud83d`),
/// at exit 0 and 1. Claude Code 2.1.332 denies (run: `live_claude::
/// answers_with_a_mark_or_a_stray_byte`, the same bytes): `JSON.parse` takes a lone
/// surrogate. serde_json refuses the whole answer for it; hookx reads it as U+FFFD, as it reads
/// a host's payload (before: "not valid JSON", and "exited with code 1": allows).
#[test]
fn a_deny_with_half_an_emoji_denies() {
    for code in [0, 1] {
        for (host, event) in [("claude", "PreToolUse"), ("copilot", "preToolUse")] {
            let answer = recorded("deny-with-half-an-emoji.out");
            let (out, err) = exec_bytes(host, "claude", event, &answer, code);
            assert!(
                out.to_string().contains("\"deny\"")
                    && out.to_string().contains("R-HALF-AN-EMOJI-\u{fffd}"),
                "exit {code} under {host}: {out} {err}"
            );
        }
    }
    let gemini = br#"{"decision":"deny","reason":"R-GEMINI-HALF-\udc00"}"#;
    let (out, err) = exec_bytes("claude", "gemini", "PreToolUse", gemini, 0);
    assert_eq!(
        out["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out} {err}"
    );
}

/// Attacks row 824: Auggie 0.36.0 reads a handler killed by a signal as one that exited 0, its
/// stdout the answer (`exitCode: c || 0`; run: `live_augment::
/// a_deny_from_a_handler_killed_by_a_signal_denies`, the same bytes). An Auggie handler that
/// printed its deny and was then SIGKILLed denies under every host (before: "was killed by
/// signal 9", a failure, and Auggie's handlers fail open: an allow).
#[test]
fn an_auggie_deny_from_a_handler_killed_by_a_signal_denies() {
    let answer = recorded_by("auggie-0.36.0", "deny-then-killed.out");
    for (host, event) in [("claude", "PreToolUse"), ("copilot", "preToolUse")] {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path().display().to_string();
        std::fs::write(dir.path().join("answer.out"), &answer).unwrap();
        std::fs::write(
            dir.path().join("handler.sh"),
            "cat >/dev/null\ncat answer.out\nkill -KILL $$\n",
        )
        .unwrap();
        let out = common::hookx()
            .args(["exec", "--host", host, "--as", "augment", "--event", event])
            .args(["--project", &project, "--", "sh", "handler.sh"])
            .current_dir(dir.path())
            .env_remove("HOOKX_HOST")
            .write_stdin(payload(host, event, &project).to_string())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            stdout.contains("\"deny\"") && stdout.contains("R-KILLED-DENY"),
            "under {host}: {stdout} {err}"
        );
    }
}

/// Attacks row 1020: a guard that sanitizes a call by rewriting it (`rm -rf /` to `echo
/// blocked`), under a host that cannot apply the rewrite, must not let the original run. Qwen
/// Code 0.24.4 runs the original beside `updatedInput` (run: qwen-facts.md, and the answer
/// book's `hxpreallowrw`, hookx's old `allow`, ran the original); Bricks and Kiro read no
/// rewrite (their documents). There the call is denied, saying why; where the host applies a
/// rewrite, the rewrite is carried. Handlers of three dialects, with an `allow` and without.
#[test]
fn a_rewrite_the_host_cannot_apply_denies_the_call() {
    let claude_allow = pre(json!({"permissionDecision": "allow",
        "updatedInput": {"command": "echo blocked"}}));
    let claude_alone = pre(json!({"updatedInput": {"command": "echo blocked"}}));
    let copilot =
        json!({"permissionDecision": "allow", "modifiedArgs": {"command": "echo blocked"}});
    let gemini = json!({"hookSpecificOutput": {"tool_input": {"command": "echo blocked"}}});
    let answers = [
        ("claude", "PreToolUse", &claude_allow),
        ("claude", "PreToolUse", &claude_alone),
        ("copilot", "PreToolUse", &copilot),
        ("gemini", "PreToolUse", &gemini),
    ];
    let denied = |host: &str, out: &Value, err: &str, code: i32| match host {
        // Kiro reads no JSON answer: exit 2 with the reason on stderr.
        "kiro" => code == 2 && err.contains("cannot apply"),
        _ => {
            code == 0
                && out["hookSpecificOutput"]["permissionDecision"] == "deny"
                && out["hookSpecificOutput"]["permissionDecisionReason"]
                    .as_str()
                    .is_some_and(|r| r.contains("a hook rewrote its input"))
        }
    };
    for host in ["qwen", "bricks", "kiro"] {
        for (flavor, event, answer) in answers {
            let (out, err, code) = exec_as(host, flavor, event, answer, "", 0);
            assert!(
                denied(host, &out, &err, code),
                "{flavor} under {host}: the original would run: {out} {err} exit {code}"
            );
            assert!(!out.to_string().contains("echo blocked"), "{out}");
        }
    }
    // Hosts that apply it get the rewrite, not a deny.
    for host in ["claude", "gemini", "codex", "droid", "augment"] {
        for (flavor, event, answer) in answers {
            let (out, err, code) = exec_as(host, flavor, event, answer, "", 0);
            assert!(
                out.to_string().contains("echo blocked") && !denied(host, &out, &err, code),
                "{flavor} under {host}: {out} {err} exit {code}"
            );
        }
    }
}

/// Attacks row 1021: a permission request a Claude handler allows with new input (`decision:
/// {behavior: allow, updatedInput}`), under Copilot and Codex, which take no input there (run:
/// Copilot 1.0.102 form `hxppermallowrw`, codex-facts.md): an `allow` alone would approve the
/// original call, so it is denied, saying why.
#[test]
fn a_permission_request_allowed_with_input_the_host_cannot_take_is_denied() {
    let allow = json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
        "decision": {"behavior": "allow", "updatedInput": {"command": "echo blocked"}}}});
    for host in ["copilot", "codex"] {
        let (out, err, code) = exec(host, "PermissionRequest", &allow, "", 0);
        let behavior = match host {
            "copilot" => &out["behavior"],
            _ => &out["hookSpecificOutput"]["decision"]["behavior"],
        };
        assert_eq!(behavior, "deny", "{host}: {out} {err} exit {code}");
        assert!(
            out.to_string().contains("a hook rewrote its input"),
            "{out}"
        );
    }
    // Claude takes it.
    let (out, err, _) = exec("claude", "PermissionRequest", &allow, "", 0);
    assert_eq!(
        out["hookSpecificOutput"]["decision"]["updatedInput"]["command"], "echo blocked",
        "{out} {err}"
    );
}

/// Attacks row 1022: two trusted guards rewrite one shell call, each from the original: a
/// sanitizer (`rm -rf /` to `echo blocked`) and a hook that adds a flag (`rm -rf / --verbose`).
/// Whichever came last undid the other's change: with the flag hook second, `rm -rf /
/// --verbose` ran under Codex and Copilot, the sanitizer lost. The call is denied instead,
/// in either order, and one rewrite alone (or two alike) still runs.
#[test]
fn two_different_rewrites_of_one_call_deny_it() {
    let guard = |name: &str, command: &str| {
        let answer = json!({"hookSpecificOutput": {"tool_input": {"command": command}}});
        (
            name.to_string(),
            format!("cat >/dev/null; printf '%s' '{answer}'"),
        )
    };
    let sanitize = guard("sanitize", "echo blocked");
    let flag = guard("flag", "rm -rf / --verbose");
    let run = |handlers: &[&(String, String)], host: &str| -> String {
        let dir = tempfile::tempdir().unwrap();
        let (project, home) = (dir.path().join("p"), dir.path().join("h"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let hooks: Vec<Value> = handlers
            .iter()
            .map(|(_, command)| json!({"type": "command", "command": command}))
            .collect();
        common::write(
            &project,
            ".gemini/settings.json",
            &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": hooks}]}})
                .to_string(),
        );
        common::hookx_at(&project, &home, &["trust", "--yes"]).success();
        let (event, payload) = match host {
            "copilot" => (
                "preToolUse",
                json!({"sessionId": "s", "timestamp": 1, "cwd": project, "toolName": "bash",
                    "toolArgs": {"command": "rm -rf /"}}),
            ),
            _ => (
                "PreToolUse",
                json!({"session_id": "s", "turn_id": "t", "transcript_path": null,
                    "cwd": project, "hook_event_name": "PreToolUse", "model": "gpt-5.5",
                    "permission_mode": "default", "tool_name": "Bash",
                    "tool_input": {"command": "rm -rf /"}, "tool_use_id": "call_1"}),
            ),
        };
        let mut cmd = common::hookx_clean(&project);
        cmd.args(["run", "--host", host, "--event", event, "--home"])
            .arg(&home)
            .env("HOME", &home)
            .write_stdin(payload.to_string());
        let ran = common::ran(&mut cmd);
        assert_eq!(ran.code, Some(0), "{ran:?}");
        ran.stdout
    };
    for host in ["codex", "copilot"] {
        for handlers in [[&sanitize, &flag], [&flag, &sanitize]] {
            let out = run(&handlers, host);
            let names: Vec<&str> = handlers.iter().map(|(n, _)| n.as_str()).collect();
            assert!(
                out.contains("deny") && out.contains("two hooks rewrote its input"),
                "{host}, {names:?}: {out}"
            );
            assert!(
                !out.contains("rm -rf / --verbose"),
                "{host}, {names:?}: {out}"
            );
        }
        let out = run(&[&sanitize, &sanitize], host);
        assert!(
            out.contains("echo blocked") && !out.contains("deny"),
            "{host}: {out}"
        );
        let out = run(&[&sanitize], host);
        assert!(
            out.contains("echo blocked") && !out.contains("deny"),
            "{host}: {out}"
        );
    }
}

/// Attacks row 1961: two trusted PostToolUse hooks of another agent replace one shell result,
/// each from the original (hookx gives every handler the host's payload): a redactor (`R-1961`)
/// and an annotator that keeps the output (`SECRET-1961 [checked]`), Copilot's `modifiedResult`
/// under Claude Code, Claude's `updatedToolOutput` under Copilot's camelCase `postToolUse`.
/// The later replacement was the answer, so with the annotator second the secret the redactor
/// withheld reached the model. The model is given neither (a withheld text, in the host's
/// shape), in either order; one replacement alone, or two alike, still goes.
#[test]
fn two_different_replacements_of_one_result_withhold_it() {
    // Each host's handlers are the other agent's: a host runs its own agent's itself.
    let hook = |host: &str, text: &str| match host {
        "claude" => {
            let answer = json!({"modifiedResult": {"resultType": "success",
                "textResultForLlm": text}});
            json!({"type": "command", "bash": format!("cat >/dev/null; printf '%s' '{answer}'")})
        }
        _ => {
            let answer = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
                "updatedToolOutput": {"stdout": text, "stderr": "", "interrupted": false,
                "isImage": false, "noOutputExpected": false}}});
            json!({"type": "command",
                "command": format!("cat >/dev/null; printf '%s' '{answer}'")})
        }
    };
    let run = |texts: &[&str], host: &str| -> String {
        let dir = tempfile::tempdir().unwrap();
        let (project, home) = (dir.path().join("p"), dir.path().join("h"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let hooks: Vec<Value> = texts.iter().map(|t| hook(host, t)).collect();
        let (file, config) = match host {
            "claude" => (
                ".github/hooks/team.json",
                json!({"version": 1, "hooks": {"postToolUse": hooks}}),
            ),
            _ => (
                ".claude/settings.json",
                json!({"hooks": {"PostToolUse": [{"matcher": "", "hooks": hooks}]}}),
            ),
        };
        common::write(&project, file, &config.to_string());
        common::hookx_at(&project, &home, &["trust", "--yes"]).success();
        let (event, payload) = match host {
            "copilot" => (
                "postToolUse",
                json!({"sessionId": "s", "timestamp": 1, "cwd": project, "toolName": "bash",
                    "toolArgs": {"command": "cat .env"},
                    "toolResult": {"resultType": "success", "textResultForLlm": "SECRET-1961"}}),
            ),
            _ => (
                "PostToolUse",
                json!({"session_id": "s", "transcript_path": null, "cwd": project,
                    "hook_event_name": "PostToolUse", "permission_mode": "default",
                    "tool_name": "Bash", "tool_input": {"command": "cat .env"},
                    "tool_response": {"stdout": "SECRET-1961", "stderr": "",
                        "interrupted": false, "isImage": false, "noOutputExpected": false},
                    "tool_use_id": "call_1"}),
            ),
        };
        let mut cmd = common::hookx_clean(&project);
        cmd.args(["run", "--host", host, "--event", event, "--home"])
            .arg(&home)
            .env("HOME", &home)
            .write_stdin(payload.to_string());
        let ran = common::ran(&mut cmd);
        assert_eq!(ran.code, Some(0), "{ran:?}");
        ran.stdout
    };
    for host in ["claude", "copilot"] {
        let (redact, annotate) = ("R-1961", "SECRET-1961 [checked]");
        for texts in [[redact, annotate], [annotate, redact]] {
            let out = run(&texts, host);
            assert!(
                !out.contains("SECRET-1961") && !out.contains("R-1961"),
                "{host}: the secret or one replacement alone: {out}"
            );
            assert!(
                out.contains("hookx withheld this tool result: two hooks replaced it"),
                "{host}: {out}"
            );
        }
        for texts in [&[redact, redact][..], &[redact]] {
            let out = run(texts, host);
            assert!(
                out.contains("R-1961") && !out.contains("withheld"),
                "{host}: {out}"
            );
        }
    }
}

/// Attacks rows 1024, 1160 (and 1025's ask with a rewrite): a guard's `ask` under a host that
/// cannot ask on PreToolUse (Codex 0.171.0 runs a handler's own `ask` like an allow, its
/// answer book's `nativeask`; Droid 0.225.2 only logs one; Auggie 0.36.0 never acts on one,
/// source, row 1161; Bricks, Kiro and Cline have no ask) denies the call, with the hook's reason and hookx's; a rewrite beside it is not run
/// either. Hosts that can ask get the `ask`, and their own flow decides.
#[test]
fn an_ask_the_host_cannot_put_to_anyone_denies_the_call() {
    let claude = pre(json!({"permissionDecision": "ask", "permissionDecisionReason": "R-ASK"}));
    let claude_rw = pre(
        json!({"permissionDecision": "ask", "permissionDecisionReason": "R-ASK",
        "updatedInput": {"command": "echo rewritten"}}),
    );
    let gemini = json!({"decision": "ask", "reason": "R-ASK"});
    let answers = [
        ("claude", &claude),
        ("claude", &claude_rw),
        ("gemini", &gemini),
    ];
    for host in ["codex", "droid", "augment", "bricks", "kiro", "cline"] {
        for (flavor, answer) in answers {
            let (out, err, code) = exec_as(host, flavor, "PreToolUse", answer, "", 0);
            let reason = match host {
                // Kiro reads no JSON answer, Droid only its first hook's permission field
                // (attacks row 2047): exit 2 with the reason on stderr.
                "kiro" | "droid" => (code == 2).then_some(err.as_str()),
                // Cline's deny is `cancel` (it ends the run).
                "cline" => (out["cancel"] == true)
                    .then(|| out["errorMessage"].as_str())
                    .flatten(),
                _ => (out["hookSpecificOutput"]["permissionDecision"] == "deny")
                    .then(|| out["hookSpecificOutput"]["permissionDecisionReason"].as_str())
                    .flatten(),
            };
            assert!(
                reason.is_some_and(|r| r.contains("R-ASK")
                    && r.contains(&format!(
                        "a hook asked for confirmation, which {host} cannot ask for"
                    ))),
                "{flavor} under {host}: the call would run unasked: {out} {err} exit {code}"
            );
            assert!(!out.to_string().contains("echo rewritten"), "{out}");
        }
    }
    for host in ["claude", "qwen", "copilot", "gemini"] {
        let (out, err, code) = exec_as(host, "claude", "PreToolUse", &claude, "", 0);
        assert!(
            code == 0 && out.to_string().contains(r#""ask""#) && !out.to_string().contains("deny"),
            "{host} asks itself: {out} {err} exit {code}"
        );
    }
}

/// Attacks row 1550: a PostToolUse hook that redacts the tool's result (Claude Code 2.1.332's
/// `updatedToolOutput`, Copilot CLI 1.0.102's `modifiedResult`), run by hookx under a host
/// without that field. Gemini CLI 0.61.0, Codex CLI 0.171.0 and Copilot's PascalCase
/// postToolUse put a block's reason in the result's place (run): the replacement becomes such a
/// block, so the output the hook withheld never reaches the model; it was dropped with a note
/// (a Claude handler's, silently). Copilot's camelCase postToolUse takes it as `modifiedResult`.
#[test]
fn a_result_the_host_cannot_replace_is_withheld() {
    let claude = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
        "updatedToolOutput": {"stdout": "R-REDACTED", "stderr": "", "interrupted": false}}});
    let claude_mcp = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
        "updatedMCPToolOutput": [{"type": "text", "text": "R-REDACTED"}]}});
    let copilot = json!({"modifiedResult": {"resultType": "success",
        "textResultForLlm": "R-REDACTED"}});
    let answers = [
        ("claude", "PostToolUse", &claude),
        ("claude", "PostToolUse", &claude_mcp),
        ("copilot", "postToolUse", &copilot),
    ];
    for (host, event) in [
        ("gemini", "AfterTool"),
        ("codex", "PostToolUse"),
        ("copilot", "PostToolUse"),
    ] {
        for (flavor, as_event, answer) in answers {
            let (out, err, code) = exec_on(host, event, flavor, as_event, answer, "", 0);
            assert!(
                code == 0
                    && out["decision"] == "block"
                    && out["reason"].as_str().is_some_and(|r| r.contains(&format!(
                        "hookx withheld this tool result: a hook replaced it, which {host}"
                    ))),
                "{flavor} under {host} {event}: the result the hook replaced would reach the \
                 model: {out} {err} exit {code}"
            );
        }
    }
    // Copilot's camelCase postToolUse replaces it, in Copilot's envelope.
    for (flavor, event, answer) in answers {
        let (out, err, _) = exec_on("copilot", "postToolUse", flavor, event, answer, "", 0);
        let result = &out["modifiedResult"];
        assert!(
            result["resultType"] == "success"
                && result["textResultForLlm"]
                    .as_str()
                    .is_some_and(|t| t.contains("R-REDACTED"))
                && out["decision"].is_null(),
            "{flavor} under copilot postToolUse: {out} {err}"
        );
    }
}

/// Attacks rows 1494, 1496: a handler's `allow` on a tool call reaches the host only where it
/// gets past no more of the host's permission flow than of its own agent's. A Gemini, Codex or
/// Qwen hook's allow leaves its agent's approval in place, so under Claude Code (whose allow
/// skips its prompt, run 2.1.332) and Copilot CLI (whose allow also passes `--deny-tool`, run
/// 1.0.102) it is no decision; a Claude hook's allow (Claude's deny rules outrank it) is none
/// under Copilot. Same agent, or a host whose allow reaches less: passed on. A permission
/// request's allow is the approval everywhere: passed on.
#[test]
fn an_allow_gets_past_no_more_of_the_hosts_flow_than_of_its_own_agents() {
    let claude = pre(json!({"permissionDecision": "allow"}));
    let gemini = json!({"decision": "allow"});
    let copilot = json!({"permissionDecision": "allow"});
    let cases = [
        ("claude", "gemini", &gemini, false),
        ("claude", "codex", &claude, false),
        ("claude", "qwen", &claude, false),
        ("claude", "claude", &claude, true),
        ("claude", "copilot", &copilot, true),
        ("copilot", "claude", &claude, false),
        ("copilot", "gemini", &gemini, false),
        ("copilot", "copilot", &copilot, true),
        ("codex", "claude", &claude, true),
        ("codex", "gemini", &gemini, true),
    ];
    for (host, flavor, answer, passed) in cases {
        let (out, err, code) = exec_as(host, flavor, "PreToolUse", answer, "", 0);
        assert_eq!(code, 0, "{flavor} under {host}: {out} {err}");
        assert_eq!(
            out.to_string().contains(r#""allow""#),
            passed,
            "{flavor}'s allow under {host}: {out} {err}"
        );
        assert_eq!(
            err.contains("allow left to"),
            !passed,
            "{flavor} under {host}: {err}"
        );
    }
    let behavior = json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
        "decision": {"behavior": "allow"}}});
    let (out, err, _) = exec_as("claude", "codex", "PermissionRequest", &behavior, "", 0);
    assert_eq!(
        out["hookSpecificOutput"]["decision"]["behavior"], "allow",
        "{out} {err}"
    );
}
