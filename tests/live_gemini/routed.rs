//! hookx in the loop of the real Gemini CLI: `hookx install --host gemini` routes the handlers
//! of the other dialects (each gets its own dialect's payload and answers by its own rules),
//! and a Claude config converted with `hookx convert --to gemini` runs in the client.

use super::*;

/// `{"hookSpecificOutput": {"hookEventName": EVENT, INNER}}`: a Claude answer.
fn hso(event: &str, inner: &str) -> String {
    format!(r#"{{"hookSpecificOutput":{{"hookEventName":"{event}",{inner}}}}}"#)
}

/// A Claude-shaped file (`{"hooks": {Event: [{hooks: [recorder]}]}}`) recording each event
/// under `PREFIX-Event`.
fn claude_style(sb: &Sandbox, prefix: &str, events: &[&str]) -> String {
    let hooks: serde_json::Map<String, Value> = events
        .iter()
        .map(|e| {
            (
                e.to_string(),
                json!([group(sb, None, &format!("{prefix}-{e}"))]),
            )
        })
        .collect();
    json!({"hooks": hooks}).to_string()
}

fn hookx(sb: &Sandbox, args: &[&str]) -> String {
    let out = common::hookx_at(&sb.project, &sb.home, args).success();
    let out = out.get_output();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// The folder of this build's hookx first on PATH, for converted entries that call `hookx`.
fn path_with_hookx() -> String {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_hookx"))
        .parent()
        .unwrap()
        .display()
        .to_string();
    format!("{bin}:{}", std::env::var("PATH").unwrap_or_default())
}

/// Installed for the project and the user: the user's Claude settings and the project's Bricks
/// and Copilot files run through hookx, trusted, each handler with its own dialect's payload,
/// variables and `HOOKX_HOST=gemini`, and each answer has its native effect in Gemini CLI (a
/// Claude, Bricks or Copilot deny blocks the tool, an exit 2 too, a Claude rewrite runs, context
/// reaches the model, a Claude Stop block continues the turn). The user's own Gemini hook runs
/// natively, once, and never through hookx. No handler runs twice for one call.
pub fn routed_handlers_of_every_dialect() {
    let mut notes = String::new();
    let Some(l) = live("routed", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({"BeforeTool": [group(sb, None, "native-BeforeTool")]}));
        sb.write(
            "home/.claude/settings.json",
            &claude_style(
                sb,
                "claude",
                &[
                    "SessionStart",
                    "UserPromptSubmit",
                    "PreToolUse",
                    "PostToolUse",
                    "Stop",
                ],
            ),
        );
        sb.write(
            "project/.bricks/hooks.json",
            &claude_style(sb, "bricks", &["PreToolUse", "PostToolUse"]),
        );
        let copilot: serde_json::Map<String, Value> = ["preToolUse", "postToolUse"]
            .iter()
            .map(|e| {
                let handler =
                    json!({"type": "command", "bash": sb.dumper(&format!("copilot-{e}"))});
                (e.to_string(), json!([handler]))
            })
            .collect();
        sb.write(
            "project/.github/hooks/copilot.json",
            &json!({"version": 1, "hooks": copilot}).to_string(),
        );
        let deny = r#""permissionDecision":"deny","permissionDecisionReason":"CLAUDE-DENY""#;
        sb.answer(
            "claude-PreToolUse",
            "a",
            "claude-deny",
            &hso("PreToolUse", deny),
            "",
            0,
        );
        sb.answer(
            "claude-PreToolUse",
            "b",
            "claude-exit2",
            "",
            "CLAUDE-EXIT2",
            2,
        );
        let modify = r#""permissionDecision":"allow","updatedInput":{"command":"echo claude-modified","description":"m"}"#;
        sb.answer(
            "claude-PreToolUse",
            "c",
            "claude-modify",
            &hso("PreToolUse", modify),
            "",
            0,
        );
        sb.answer(
            "bricks-PreToolUse",
            "a",
            "bricks-deny",
            r#"{"decision":"block","reason":"BRICKS-DENY"}"#,
            "",
            0,
        );
        sb.answer(
            "copilot-preToolUse",
            "a",
            "copilot-deny",
            r#"{"permissionDecision":"deny","permissionDecisionReason":"COPILOT-DENY"}"#,
            "",
            0,
        );
        let post = r#""additionalContext":"CLAUDE-POST-CTX""#;
        sb.answer(
            "claude-PostToolUse",
            "a",
            "claude-post",
            &hso("PostToolUse", post),
            "",
            0,
        );
        sb.answer(
            "copilot-postToolUse",
            "a",
            "copilot-post",
            r#"{"additionalContext":"COPILOT-POST-CTX"}"#,
            "",
            0,
        );
        let session = r#""additionalContext":"CLAUDE-SESSION-CTX""#;
        sb.answer(
            "claude-SessionStart",
            "a",
            "",
            &hso("SessionStart", session),
            "",
            0,
        );
        let prompt = r#""additionalContext":"CLAUDE-PROMPT-CTX""#;
        sb.answer(
            "claude-UserPromptSubmit",
            "a",
            "",
            &hso("UserPromptSubmit", prompt),
            "",
            0,
        );
        sb.answer(
            "claude-Stop",
            "a",
            r#""stop_hook_active":false"#,
            r#"{"decision":"block","reason":"CLAUDE-STOP-AGAIN"}"#,
            "",
            0,
        );
        // Before the folder is trusted, the project install says what Gemini CLI needs.
        notes = hookx(sb, &["install", "--host", "gemini"]);
        hookx(sb, &["install", "--host", "gemini", "--scope", "user"]);
        hookx(sb, &["trust", "--yes"]);
        sb.trust_folder();
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        notes.contains("trustedFolders.json does not trust")
            && notes.contains("GEMINI_CLI_TRUST_WORKSPACE"),
        format!("the project install names the trust step: {notes}"),
    );
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    let settings: Value = serde_json::from_str(
        &std::fs::read_to_string(l.sb.home.join(".gemini/settings.json")).unwrap(),
    )
    .unwrap();
    c.that(
        settings["security"]["auth"]["selectedType"] == "gemini-api-key"
            && settings["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
                .as_str()
                .is_some_and(|cmd| cmd.contains("dumper.sh")),
        format!("install kept the user's settings and hook: {settings}"),
    );
    for (call, want) in [
        ("claude-deny", "Tool execution blocked: CLAUDE-DENY"),
        ("claude-exit2", "Tool execution blocked: CLAUDE-EXIT2"),
        ("bricks-deny", "Tool execution blocked: BRICKS-DENY"),
        ("copilot-deny", "Tool execution blocked: COPILOT-DENY"),
        ("claude-modify", "claude-modified"),
        ("claude-post", "CLAUDE-POST-CTX"),
        ("copilot-post", "COPILOT-POST-CTX"),
    ] {
        let got = l.tool_result("routed", call);
        c.that(got.contains(want), format!("{call}: {want} in {got}"));
    }
    let ran = |text: &str| l.count_with("native-BeforeTool", text);
    c.that(
        ran("echo claude-modified") == 0 && ran("echo claude-modify") == 1,
        "the native hook saw the call before hookx rewrote it",
    );
    let sent = l.sent("routed");
    for ctx in [
        "CLAUDE-SESSION-CTX",
        "CLAUDE-PROMPT-CTX",
        "CLAUDE-STOP-AGAIN",
    ] {
        c.that(sent.contains(ctx), format!("{ctx} reached the model"));
    }
    let project = l.sb.project.display().to_string();
    let host = |d: &client::Dump| d.env.get("HOOKX_HOST").map(String::as_str) == Some("gemini");
    let claude = l.dump("claude-PreToolUse", "claude-deny");
    c.that(
        claude.stdin["hook_event_name"] == "PreToolUse"
            && claude.stdin["tool_name"] == "Bash"
            && claude.stdin["tool_input"]["command"] == "echo claude-deny",
        format!("Claude stdin: {}", claude.raw),
    );
    c.that(
        host(claude) && claude.env.get("CLAUDE_PROJECT_DIR") == Some(&project),
        format!("Claude env: {:?}", claude.env),
    );
    let write = l.dump("claude-PreToolUse", r#""tool_name":"Write""#);
    c.that(
        write.stdin["tool_input"]["file_path"]
            .as_str()
            .is_some_and(|p| p.ends_with("notes.txt"))
            && write.stdin["tool_input"]["content"] == "routed\n",
        format!("Claude stdin for write_file: {}", write.raw),
    );
    let stop = l.dump("claude-Stop", "routed done");
    c.that(
        stop.stdin["hook_event_name"] == "Stop"
            && stop.stdin["last_assistant_message"] == "routed done",
        format!("Claude Stop stdin: {}", stop.raw),
    );
    let copilot = l.dump("copilot-preToolUse", "copilot-deny");
    c.that(
        copilot.stdin["toolName"] == "bash"
            && copilot.stdin["toolArgs"]["command"] == "echo copilot-deny"
            && copilot.stdin["timestamp"].is_number(),
        format!("Copilot stdin: {}", copilot.raw),
    );
    c.that(
        host(copilot) && copilot.env.get("COPILOT_PROJECT_DIR") == Some(&project),
        format!("Copilot env: {:?}", copilot.env),
    );
    let create = l.dump("copilot-preToolUse", r#""toolName":"create""#);
    c.that(
        create.stdin["toolArgs"]["path"]
            .as_str()
            .is_some_and(|p| p.ends_with("notes.txt"))
            && create.stdin["toolArgs"]["file_text"] == "routed\n",
        format!("Copilot stdin for write_file: {}", create.raw),
    );
    let bricks = l.dump("bricks-PreToolUse", "bricks-deny");
    c.that(
        bricks.stdin["tool_name"] == "bash" && bricks.stdin["hook_event_name"] == "PreToolUse",
        format!("Bricks stdin: {}", bricks.raw),
    );
    c.that(
        host(bricks) && bricks.env.get("BRICKS_PROJECT_DIR") == Some(&project),
        format!("Bricks env: {:?}", bricks.env),
    );
    let native = l.dump("native-BeforeTool", "claude-deny");
    c.that(
        native.stdin["tool_name"] == "run_shell_command" && !host(native),
        format!("the Gemini hook ran natively: {}", native.raw),
    );
    // No handler ran twice for one call (payloads compared without their digits: times).
    let mut seen = std::collections::BTreeMap::new();
    for d in &l.dumps {
        let key = (
            d.label.clone(),
            d.raw.replace(|c: char| c.is_ascii_digit(), ""),
        );
        *seen.entry(key).or_insert(0) += 1;
    }
    for ((label, raw), n) in seen {
        c.that(n == 1, format!("{label} ran {n} times on {raw}"));
    }
    c.done("routed");
}

/// A Claude Bash guard reading `.tool_input.command` (jq), as people write them.
const CLAUDE_GUARD: &str = r#"#!/bin/sh
cmd=$(jq -r '.tool_input.command // empty')
case $cmd in
  *"rm -rf /"*) echo "BLOCKED by the Claude guard: $cmd" >&2; exit 2 ;;
esac
exit 0
"#;

/// `hookx convert --to gemini --write` of Claude files (kept out of the project and the home,
/// so that only the converted copies run): the wrapped output, merged into the user's settings,
/// behaves as the source did (the guard blocks `rm -rf /`, a Claude context reaches the model,
/// the handler gets Claude's payload); the plain output (`--no-wrap`), merged into the project
/// settings, is accepted and its handler gets Gemini's payload, as the loss report says.
pub fn converted_claude_config() {
    let mut reports = String::new();
    let Some(l) = live(
        "converted",
        &["--yolo"],
        &[("PATH", &path_with_hookx())],
        |sb| {
            sb.user_settings(json!({}));
            sb.trust_folder();
            let guard = sb.write("guard.sh", CLAUDE_GUARD);
            let wrapped = json!({"hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [
                    {"type": "command", "command": format!("sh {}", guard.display())}]}],
                "PostToolUse": [{"matcher": "Bash", "hooks": [
                    {"type": "command", "command": sb.dumper("wrapped-PostToolUse")}]}],
            }});
            let plain = json!({"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [
            {"type": "command", "command": sb.dumper("plain-PostToolUse")}]}]}});
            let ctx = r#""additionalContext":"WRAPPED-CTX""#;
            sb.answer(
                "wrapped-PostToolUse",
                "a",
                "safe-call",
                &hso("PostToolUse", ctx),
                "",
                0,
            );
            for (name, src, to, wrap) in [
                ("wrapped", &wrapped, "home/.gemini/settings.json", true),
                ("plain", &plain, "project/.gemini/settings.json", false),
            ] {
                let from = sb.write(&format!("{name}/.claude/settings.json"), &src.to_string());
                let to = sb.root.join(to);
                let mut args = vec![
                    "convert",
                    from.to_str().unwrap(),
                    "--to",
                    "gemini",
                    "--write",
                    "--out",
                    to.to_str().unwrap(),
                ];
                if !wrap {
                    args.push("--no-wrap");
                }
                let out = common::hookx().args(&args).assert().success();
                reports.push_str(&String::from_utf8_lossy(&out.get_output().stderr));
            }
        },
    ) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    c.that(
        !l.out.stderr.contains("Invalid hook event name"),
        format!("Gemini CLI accepted the converted files: {}", l.out.stderr),
    );
    c.that(
        reports.contains("receives gemini's stdin payload"),
        format!("the plain conversion is reported: {reports}"),
    );
    let rm = l.tool_result("converted", "rm -rf /nonexistent-hookx-canary");
    c.that(
        rm.contains("Tool execution blocked") && rm.contains("BLOCKED by the Claude guard"),
        format!("the guard blocked rm: {rm}"),
    );
    let safe = l.tool_result("converted", "safe-call");
    c.that(
        safe.contains("safe-call") && safe.contains("WRAPPED-CTX"),
        format!("wrapped context: {safe}"),
    );
    let wrapped = l.dump("wrapped-PostToolUse", "safe-call");
    c.that(
        wrapped.stdin["hook_event_name"] == "PostToolUse"
            && wrapped.stdin["tool_name"] == "Bash"
            && wrapped.stdin["tool_input"]["command"] == "echo safe-call"
            && wrapped.env.get("HOOKX_HOST").map(String::as_str) == Some("gemini"),
        format!("the wrapped handler got Claude's payload: {}", wrapped.raw),
    );
    let plain = l.dump("plain-PostToolUse", "notes.txt");
    c.that(
        plain.stdin["hook_event_name"] == "AfterTool" && plain.stdin["tool_name"] == "write_file",
        format!(
            "the plain handler got Gemini's payload, as reported: {}",
            plain.raw
        ),
    );
    c.done("converted");
}
