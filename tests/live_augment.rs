//! A minimal live suite for Augment's Auggie CLI 0.36.0: `auggie -p` offline, pointed at a fake
//! Augment backend on 127.0.0.1 (`AUGMENT_SESSION_AUTH` names it as the tenant; it answers
//! `get-models` with the `enable_hooks` feature flag, without which Auggie loads no hooks, and
//! `chat-stream` with one NDJSON line whose `nodes` ask for a tool call: `{type: 5, tool_use:
//! {tool_use_id, tool_name, input_json}}`). Recording hooks in `~/.augment/settings.json`, and
//! hookx's own routes. See conformance/README.md and conformance/augment-facts.md.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[path = "live_common/answers.rs"]
mod answers;
#[allow(dead_code)]
#[path = "live_common/cadence.rs"]
mod cadence;
mod common;
#[path = "live_common/faults.rs"]
mod faults;
// Its OpenAI-shaped `tool_result` does not apply: Auggie's tool results are request nodes.
#[allow(dead_code)]
#[path = "live_common/minimal.rs"]
mod minimal;
#[path = "live_common/recorded.rs"]
mod recorded;
#[path = "live_common/scopes.rs"]
mod scopes;

use minimal::Sandbox;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

const VERSION: &str = "0.36.0";

/// Auggie's seven hook events (source 0.36.0 `Whn`).
const EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "SessionStart",
    "SessionEnd",
    "Notification",
    "PromptSubmit",
];

/// What the fake model answers at one turn of a scenario.
enum Step {
    Tool(&'static str, Value),
    Text(&'static str),
}

fn launch(command: &str) -> Step {
    Step::Tool(
        "launch-process",
        json!({"command": command, "wait": true, "max_wait_seconds": 30}),
    )
}

fn scripts(name: &str, project: &str) -> Vec<Step> {
    match name {
        // Attacks rows 1840-1859: four calls that fail, each its own way.
        "failed" => vec![
            launch("echo FAIL-OUT-1840; echo FAIL-ERR-1840 >&2; exit 1"),
            launch("/nonexistent-1840/cannot-start"),
            Step::Tool(
                "view",
                json!({"path": format!("{project}/missing-1840.txt"), "type": "file"}),
            ),
            Step::Tool(
                "str-replace-editor",
                json!({"command": "str_replace", "path": format!("{project}/notes.txt"),
                    "str_replace_entries": [{"old_str": "absent-1840", "new_str": "new-1840",
                        "old_str_start_line_number": 1, "old_str_end_line_number": 1}]}),
            ),
            Step::Text("failed done"),
        ],
        "twice" => vec![
            launch("echo twice-call"),
            launch("echo twice-call"),
            Step::Text("twice done"),
        ],
        "tools" => vec![
            launch("echo hello-augment"),
            launch("echo deny-json > denied-json.txt"),
            launch("echo deny-exit2 > denied-exit2.txt"),
            Step::Tool(
                "save-file",
                json!({"path": format!("{project}/made.txt"), "file_content": "one\n"}),
            ),
            Step::Tool(
                "str-replace-editor",
                json!({"command": "str_replace", "path": format!("{project}/made.txt"),
                    "str_replace_entries": [{"old_str": "one", "new_str": "two",
                        "old_str_start_line_number": 1, "old_str_end_line_number": 1}]}),
            ),
            Step::Text("all done"),
        ],
        "routed" => vec![
            launch("echo claude-deny > routed.txt"),
            Step::Tool(
                "save-file",
                json!({"path": format!("{project}/kept.txt"), "file_content": "kept\n"}),
            ),
            Step::Tool(
                "str-replace-editor",
                json!({"command": "str_replace", "path": format!("{project}/kept.txt"),
                    "str_replace_entries": [{"old_str": "kept", "new_str": "edited",
                        "old_str_start_line_number": 1, "old_str_end_line_number": 1}]}),
            ),
            Step::Text("routed done"),
        ],
        "cadence" => vec![
            launch("echo cadence-one"),
            launch("echo cadence-two"),
            Step::Tool(
                "save-file",
                json!({"path": format!("{project}/cadence.txt"), "file_content": "one\n"}),
            ),
            Step::Text("cadence done"),
        ],
        "story" => vec![
            launch("echo story-ok"),
            launch(common::STORY_DENIED),
            Step::Tool(
                "save-file",
                json!({"path": format!("{project}/notes.txt"), "file_content": "one\n"}),
            ),
            Step::Text("story done"),
        ],
        "forms" => form_names()
            .iter()
            .map(|name| launch(&format!("echo f.{name}.")))
            .chain([Step::Text("forms done")])
            .collect(),
        // One form that may end the run, then a call that shows whether it did.
        one if one.starts_with("fone-") => {
            let name = &one["fone-".len()..];
            vec![
                launch(&format!("echo f.{name}.")),
                launch(&format!("echo f.{name}after.")),
                Step::Text("one done"),
            ]
        }
        "faults" => faults::commands()
            .iter()
            .map(|c| launch(c))
            .chain([Step::Text("faults done")])
            .collect(),
        "killed" => vec![
            launch("echo killed > ran-killed.txt"),
            Step::Text("killed done"),
        ],
        "files" => vec![
            launch("echo slow-deny > slow.txt"),
            Step::Text("files done"),
        ],
        // The MCP server's tool, as Auggie offers it: `TOOL_SERVER`.
        "mcp" => vec![
            Step::Tool("read_graph_memory", json!({})),
            Step::Text("mcp done"),
        ],
        _ => vec![Step::Text("unknown scenario")],
    }
}

/// The fake Augment backend: what it was asked (`chat-stream` bodies), by scenario.
struct FakeAugment {
    port: u16,
    chats: Arc<Mutex<Vec<Value>>>,
}

impl FakeAugment {
    fn start(project: String) -> FakeAugment {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let chats = Arc::new(Mutex::new(Vec::new()));
        let seen = chats.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (seen, project) = (seen.clone(), project.clone());
                std::thread::spawn(move || serve(stream, &seen, &project));
            }
        });
        FakeAugment { port, chats }
    }

    fn chats(&self) -> Vec<Value> {
        self.chats.lock().unwrap().clone()
    }

    /// The text of the tool result Auggie sent back for the call with this id.
    fn tool_result(&self, id: &str) -> String {
        self.chats()
            .iter()
            .flat_map(|c| c["nodes"].as_array().cloned().unwrap_or_default())
            .find(|n| n["tool_result_node"]["tool_use_id"] == id)
            .and_then(|n| {
                n["tool_result_node"]["content"]
                    .as_str()
                    .map(str::to_string)
            })
            .unwrap_or_else(|| panic!("no tool result for {id}"))
    }
}

/// One request: HTTP/1.1 with a `content-length` body, answered and closed.
fn serve(stream: TcpStream, chats: &Mutex<Vec<Value>>, project: &str) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/").to_string();
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 || header == "\r\n" {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).unwrap();
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let answer = if path.ends_with("/get-models") {
        json!({"default_model": "fake", "models": [{"name": "fake", "internal_name": "fake",
            "suggested_prefix_char_count": 0, "suggested_suffix_char_count": 0}],
            "languages": [], "feature_flags": {"enable_hooks": true}})
    } else if path.ends_with("/chat-stream") {
        chats.lock().unwrap().push(body.clone());
        chat_step(&body, project)
    } else if path.contains("list-remote-tools") {
        json!({"tools": []})
    } else {
        json!({})
    };
    let text = answer.to_string() + "\n";
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
        text.len()
    );
}

/// The scenario's step for a `chat-stream` request: its `SCENARIO:NAME` from the first user
/// text, the step by the exchanges before it. A tool call is a response node of type 5.
fn chat_step(body: &Value, project: &str) -> Value {
    let history = body["chat_history"].as_array().cloned().unwrap_or_default();
    let first_nodes = match history.first() {
        Some(h) => h["request_nodes"].clone(),
        None => body["nodes"].clone(),
    };
    let prompt = first_nodes
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|n| n["text_node"]["content"].as_str())
        .unwrap_or_default();
    let scenario = prompt
        .split_whitespace()
        .find_map(|w| w.strip_prefix("SCENARIO:"))
        .unwrap_or("");
    let steps = scripts(scenario, project);
    match steps.get(history.len()).unwrap_or(&Step::Text("done")) {
        Step::Tool(name, input) => json!({"text": "", "nodes": [{"id": 1, "type": 5, "content": "",
            "tool_use": {"tool_use_id": format!("toolu_{}", history.len() + 1),
                "tool_name": name, "input_json": input.to_string()}}]}),
        Step::Text(text) => json!({"text": text, "nodes": [{"id": 1, "type": 0, "content": text}]}),
    }
}

/// The pinned program (run by node), or `None` after a skip line.
fn auggie() -> Option<PathBuf> {
    minimal::client(
        &format!("auggie-{VERSION}/node_modules/@augmentcode/auggie/augment.mjs"),
        "Augment Auggie CLI",
    )
}

/// One `auggie -p` run of `scenario`, its backend the fake.
fn run_auggie(
    sb: &Sandbox,
    program: &Path,
    model: &FakeAugment,
    scenario: &str,
    extra: &[&str],
) -> std::process::Output {
    run_auggie_with(sb, program, model, scenario, extra, &[])
}

/// [`run_auggie`] with the extra variables `env`.
fn run_auggie_with(
    sb: &Sandbox,
    program: &Path,
    model: &FakeAugment,
    scenario: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> std::process::Output {
    let mut cmd = sb.command(Path::new("node"));
    cmd.envs(env.iter().copied());
    cmd.env(
        "AUGMENT_SESSION_AUTH",
        json!({"accessToken": "dummy", "tenantURL": format!("http://127.0.0.1:{}/", model.port),
            "scopes": ["email"]})
        .to_string(),
    )
    .arg(program)
    .args(extra)
    .arg("-p")
    .arg(format!("SCENARIO:{scenario} do the work"));
    sb.run(cmd)
}

/// A `hooks` object with the recorder, labelled by its event, on every event.
fn recorders(sb: &Sandbox) -> Value {
    let hooks: serde_json::Map<String, Value> = EVENTS
        .iter()
        .map(|e| {
            let group = json!([{"hooks": [{"type": "command", "command": sb.dumper(e)}]}]);
            (e.to_string(), group)
        })
        .collect();
    Value::Object(hooks)
}

/// Ground truth: the recorder on every event in `~/.augment/settings.json`; `launch-process`
/// (context after it), denied by JSON and by exit 2, `save-file`, `str-replace-editor`.
fn ground_truth_tool_calls_and_answers() {
    let Some(program) = auggie() else { return };
    let sb = Sandbox::new("hookx-live-augment");
    let model = FakeAugment::start(sb.project.display().to_string());
    common::write(
        &sb.home,
        ".augment/settings.json",
        &json!({"hooks": recorders(&sb)}).to_string(),
    );
    sb.answer("PostToolUse", "a", "hello-augment",
        (r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX-POST"}}"#, "", 0));
    sb.answer("PreToolUse", "a", "deny-json",
        (r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-DENY"}}"#, "", 0));
    sb.answer("PreToolUse", "b", "deny-exit2", ("", "E-EXIT2", 2));
    let out = run_auggie(&sb, &program, &model, "tools", &[]);
    let dumps = sb.dumps();
    let project = sb.project.display().to_string();
    let mut failed = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failed.push(what)
        }
    };
    check(
        out.status.success(),
        format!(
            "exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ),
    );
    let labels: Vec<&str> = dumps.iter().map(|d| d.label.as_str()).collect();
    for e in [
        "SessionStart",
        "PromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "Stop",
    ] {
        check(labels.contains(&e), format!("{e} fired: {labels:?}"));
    }
    // Auggie's payload: `conversation_id` and `workspace_roots`, no `session_id` or `cwd`;
    // AUGMENT_PROJECT_DIR and the hook's working directory are the workspace root.
    for d in &dumps {
        check(
            d.stdin["hook_event_name"] == d.label.as_str()
                && d.stdin["conversation_id"].is_string()
                && d.stdin["workspace_roots"] == json!([project])
                && d.stdin.get("session_id").is_none()
                && d.stdin.get("cwd").is_none(),
            format!("{} common payload: {}", d.label, d.raw),
        );
        check(
            d.env.get("AUGMENT_PROJECT_DIR") == Some(&project) && d.cwd == project,
            format!(
                "{} AUGMENT_PROJECT_DIR and cwd: {:?} {}",
                d.label,
                d.env.get("AUGMENT_PROJECT_DIR"),
                d.cwd
            ),
        );
    }
    let prompt = dumps.iter().find(|d| d.label == "PromptSubmit");
    check(
        prompt.is_some_and(|d| d.stdin["user_prompt"] == "SCENARIO:tools do the work"),
        "PromptSubmit carries user_prompt".into(),
    );
    let pre = dumps
        .iter()
        .find(|d| d.label == "PreToolUse" && d.raw.contains("hello-augment"));
    check(
        pre.is_some_and(|d| {
            d.stdin["tool_name"] == "launch-process"
                && d.stdin["tool_input"]["command"] == "echo hello-augment"
                && d.stdin["is_mcp_tool"] == false
        }),
        "PreToolUse names launch-process with its command".into(),
    );
    // PostToolUse context is appended to the tool result.
    let first = model.tool_result("toolu_1");
    check(
        first.contains("[Hook Context]") && first.contains("CTX-POST"),
        format!("PostToolUse context in the tool result: {first}"),
    );
    // Both denies hold: the commands never ran, and the reason reached the model.
    for (file, id, reason) in [
        ("denied-json.txt", "toolu_2", "R-DENY"),
        ("denied-exit2.txt", "toolu_3", "E-EXIT2"),
    ] {
        check(
            !sb.project.join(file).exists(),
            format!("{file}: the denied call did not run"),
        );
        let result = model.tool_result(id);
        check(
            result.contains(reason),
            format!("{id}: {reason} in {result}"),
        );
    }
    let made = std::fs::read_to_string(sb.project.join("made.txt")).unwrap_or_default();
    check(
        made == "two\n",
        format!(
            "save-file then str-replace-editor: {made:?} ({})",
            model.tool_result("toolu_5")
        ),
    );
    for (tool, keys) in [
        ("save-file", &["file_content", "path"][..]),
        (
            "str-replace-editor",
            &["command", "path", "str_replace_entries"],
        ),
    ] {
        let pre = dumps
            .iter()
            .find(|d| d.label == "PreToolUse" && d.stdin["tool_name"] == tool);
        let mut got: Vec<&str> = pre
            .and_then(|d| d.stdin["tool_input"].as_object())
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        got.sort();
        check(
            got == keys,
            format!("{tool} arguments in its PreToolUse: {got:?}"),
        );
    }
    // The tools offered to the model carry the augment dialect's names.
    let offered: Vec<String> = model
        .chats()
        .first()
        .and_then(|b| b["tool_definitions"].as_array().cloned())
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .collect();
    let tables = hookx::dialect::augment::FLAVOR.tables();
    for id in ["shell", "read", "write", "edit", "multi_edit", "web_fetch"] {
        let name = tables.tool_name(id).unwrap_or_default();
        check(
            offered.iter().any(|o| o == name),
            format!("the table's {id} tool `{name}` is offered: {offered:?}"),
        );
    }
    check_recorded(&sb, &dumps, "tools");
    assert!(
        failed.is_empty(),
        "{} checks failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// `hookSpecificOutput` of an answer to `event` with `fields`.
fn hso(event: &str, fields: Value) -> String {
    let mut h = json!({"hookEventName": event});
    h.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    json!({ "hookSpecificOutput": h }).to_string()
}

/// Answer forms probed against Auggie 0.36.0 with hookx out of the loop (issue 25): (name,
/// hook, stdout, stderr, exit). The model launches `echo f.NAME.`; a rewrite is `echo
/// rw.NAME.`. Most of Auggie's answer rows were read in its program (source 0.36.0); these
/// run them.
fn auggie_forms() -> Vec<(&'static str, &'static str, String, &'static str, i32)> {
    let rw = |name: &str| {
        json!({"command": format!("echo rw.{name}."), "wait": true,
        "max_wait_seconds": 30})
    };
    vec![
        (
            "allowrw",
            "PreToolUse",
            hso(
                "PreToolUse",
                json!({"permissionDecision": "allow",
            "updatedInput": rw("allowrw")}),
            ),
            "",
            0,
        ),
        (
            "nonerw",
            "PreToolUse",
            hso("PreToolUse", json!({"updatedInput": rw("nonerw")})),
            "",
            0,
        ),
        (
            "denyrw",
            "PreToolUse",
            hso(
                "PreToolUse",
                json!({"permissionDecision": "deny",
            "permissionDecisionReason": "R-DENYRW", "updatedInput": rw("denyrw")}),
            ),
            "",
            0,
        ),
        (
            "baredeny",
            "PreToolUse",
            hso("PreToolUse", json!({"permissionDecision": "deny"})),
            "",
            0,
        ),
        (
            "deny1",
            "PreToolUse",
            hso(
                "PreToolUse",
                json!({"permissionDecision": "deny",
            "permissionDecisionReason": "R-DENY1"}),
            ),
            "E-DENY1",
            1,
        ),
        (
            "allow2",
            "PreToolUse",
            hso("PreToolUse", json!({"permissionDecision": "allow"})),
            "E-ALLOW2",
            2,
        ),
        (
            "claudedeny",
            "PreToolUse",
            json!({"decision": "block", "reason": "R-CLAUDEDENY"}).to_string(),
            "",
            0,
        ),
        (
            "prectx",
            "PreToolUse",
            json!({"additionalContext": "C-PRECTX"}).to_string(),
            "",
            0,
        ),
        (
            "sysmsg",
            "PreToolUse",
            json!({"systemMessage": "C-SYSMSG"}).to_string(),
            "",
            0,
        ),
        (
            "postblock",
            "PostToolUse",
            hso(
                "PostToolUse",
                json!({"decision": "block",
            "reason": "R-POSTBLOCK"}),
            ),
            "",
            0,
        ),
        (
            "posttop",
            "PostToolUse",
            json!({"decision": "block", "reason": "R-POSTTOP"}).to_string(),
            "",
            0,
        ),
        ("post2", "PostToolUse", String::new(), "E-POST2", 2),
        (
            "post1",
            "PostToolUse",
            json!({"additionalContext": "C-POST1"}).to_string(),
            "E-POST1",
            1,
        ),
        (
            "posthso",
            "PostToolUse",
            hso("PostToolUse", json!({"additionalContext": "C-POSTHSO"})),
            "",
            0,
        ),
        (
            "postctx",
            "PostToolUse",
            json!({"additionalContext": "C-POSTCTX"}).to_string(),
            "",
            0,
        ),
        (
            "stop",
            "PreToolUse",
            json!({"continue": false, "stopReason": "R-STOP"}).to_string(),
            "",
            0,
        ),
    ]
}

/// The events hookx's own forms are probed on, and the rewrite they carry.
fn hookx_probed() -> (Vec<answers::Probed>, Value) {
    let probed = answers::probed(
        "augment",
        &[("PreToolUse", "hxpre"), ("PostToolUse", "hxpost")],
    );
    let rewrite = json!({"command": "echo rw.<name>.", "wait": true, "max_wait_seconds": 30});
    (probed, rewrite)
}

fn hookx_forms() -> Vec<answers::Form> {
    let (probed, rewrite) = hookx_probed();
    answers::hookx_forms(&probed, &rewrite)
}

/// Whether the form may end the run (a stop): it is probed in a run of its own.
fn alone(f: &answers::Form) -> bool {
    f.intent == Some(answers::Intent::Stop)
}

/// The calls of the `forms` run: [`auggie_forms`] with a handler's own `ask` and hookx's
/// forms that cannot end the run before the last (the hand-written stop).
fn form_names() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let hand = auggie_forms().iter().map(|f| f.0.to_string()).collect();
        let mine = hookx_forms().into_iter().filter(|f| !alone(f));
        let ask = std::iter::once("nativeask".to_string());
        answers::before_last(hand, ask.chain(mine.map(|f| f.name)))
    })
}

/// What Auggie 0.36.0 did with each of [`auggie_forms`]: (name, ran: "f" the original, "rw"
/// the rewrite, "" not run; texts that reached the model; texts that did not). A rewrite runs
/// with or without `allow`; JSON at exit 1 is not read (the call runs); exit 2 denies with
/// stderr over a JSON allow; a PostToolUse `hookSpecificOutput.decision: block` never reaches
/// the model (source 0.36.0 said it joins the result), its `additionalContext` (top level or
/// inside) does; `continue: false` blocks the call.
const AUGGIE_FORMS_SEEN: &[(&str, &str, &[&str], &[&str])] = &[
    ("allowrw", "rw", &[], &[]),
    ("nonerw", "rw", &[], &[]),
    ("denyrw", "", &["R-DENYRW"], &[]),
    (
        "baredeny",
        "",
        &["Tool execution blocked by hook: launch-process"],
        &[],
    ),
    ("deny1", "f", &[], &["R-DENY1", "E-DENY1"]),
    ("allow2", "", &["E-ALLOW2"], &[]),
    ("claudedeny", "f", &[], &["R-CLAUDEDENY"]),
    ("prectx", "f", &[], &["C-PRECTX"]),
    ("sysmsg", "f", &[], &["C-SYSMSG"]),
    ("postblock", "f", &[], &["R-POSTBLOCK"]),
    ("posttop", "f", &[], &["R-POSTTOP"]),
    ("post2", "f", &["E-POST2"], &[]),
    ("post1", "f", &[], &["C-POST1", "E-POST1"]),
    ("posthso", "f", &["C-POSTHSO"], &[]),
    ("postctx", "f", &["C-POSTCTX"], &[]),
    ("stop", "", &[], &["R-STOP"]),
];

/// Auggie's answer rows, and every form hookx writes on PreToolUse and PostToolUse, each
/// against the real client with the raw recorder as the handler, hookx out of the loop: the
/// hand-written forms checked against the facts (conformance/augment-facts.md), every form
/// against the answer book (`answers.json`, see `live_common/answers.rs`).
fn ground_truth_answer_forms() {
    let Some(program) = auggie() else { return };
    let hand = auggie_forms();
    assert_eq!(hand.len(), AUGGIE_FORMS_SEEN.len());
    let hand_forms: Vec<answers::Form> = hand
        .iter()
        .map(|(name, hook, stdout, stderr, exit)| answers::hand(name, hook, stdout, stderr, *exit))
        .collect();
    let mine = hookx_forms();
    // A handler's own `ask`: what the client's permission flow does with a call.
    let ask = hso(
        "PreToolUse",
        json!({"permissionDecision": "ask", "permissionDecisionReason": "R-NATIVEASK"}),
    );
    let ask = answers::hand("nativeask", "PreToolUse", &ask, "", 0);
    let together = mine.iter().filter(|f| !alone(f)).cloned();
    let book_forms = answers::before_last(hand_forms, std::iter::once(ask).chain(together));
    // One run of `scenario` with `forms` answered: the tool result of each call, in order,
    // and every request as one string.
    let probe = |scenario: &str, forms: &[&answers::Form], calls: usize| {
        let sb = Sandbox::new("hookx-live-augment-forms");
        let model = FakeAugment::start(sb.project.display().to_string());
        common::write(
            &sb.home,
            ".augment/settings.json",
            &json!({"hooks": recorders(&sb)}).to_string(),
        );
        for f in forms {
            let out = (f.stdout.as_str(), f.stderr.as_str(), f.exit);
            sb.answer(&f.event, &f.name, &format!("f.{}.", f.name), out);
        }
        let out = run_auggie(&sb, &program, &model, scenario, &[]);
        let chats = model.chats();
        let results: Vec<Option<String>> = (0..calls)
            .map(|i| {
                chats
                    .iter()
                    .flat_map(|c| c["nodes"].as_array().cloned().unwrap_or_default())
                    .find(|n| n["tool_result_node"]["tool_use_id"] == format!("toolu_{}", i + 1))
                    .map(|n| n["tool_result_node"]["content"].to_string())
            })
            .collect();
        let sent: String = chats.iter().map(|c| c.to_string()).collect();
        (results, sent, out)
    };
    let ran = |result: &Option<String>, name: &str| match result {
        Some(r) if r.contains(&format!("rw.{name}.")) => answers::Ran::Rewritten,
        Some(r) if r.contains(&format!("f.{name}.")) => answers::Ran::Original,
        _ => answers::Ran::NotRun,
    };
    let (results, sent, out) = probe(
        "forms",
        &book_forms.iter().collect::<Vec<_>>(),
        book_forms.len(),
    );
    let mut entries = Vec::new();
    for (f, result) in book_forms.iter().zip(&results) {
        let effect = f.effect(ran(result, &f.name), |t| sent.contains(t), None);
        eprintln!("form {:<13} {effect:?}; result {result:?}", f.name);
        entries.push(answers::Entry {
            form: f.clone(),
            effect,
        });
    }
    let mut failed = Vec::new();
    for (name, want, seen, unseen) in AUGGIE_FORMS_SEEN {
        let i = book_forms.iter().position(|f| f.name == *name).unwrap();
        let got = ran(&results[i], name).short();
        if got != *want {
            failed.push(format!("{name}: ran {got:?}, recorded {want:?}"));
        }
        failed.extend(answers::reach_differs(name, &sent, seen, unseen));
    }
    eprintln!(
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    for f in mine.iter().filter(|f| alone(f)) {
        let scenario = format!("fone-{}", f.name);
        let (results, sent, _) = probe(&scenario, &[f], 2);
        let after = format!("{}after", f.name);
        let halted = ran(&results[1], &after) == answers::Ran::NotRun;
        let effect = f.effect(
            ran(&results[0], &f.name),
            |t| sent.contains(t),
            Some(halted),
        );
        eprintln!("form {:<13} {effect:?}; result {:?}", f.name, results[0]);
        entries.push(answers::Entry {
            form: f.clone(),
            effect,
        });
    }
    let book = answers::Book::new("auggie", VERSION, "augment", hookx_probed(), entries);
    failed.extend(book.settle("augment"));
    assert!(
        failed.is_empty(),
        "{} forms differ:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// hookx in the loop: `hookx install --host augment` routes Auggie's events to `hookx run`,
/// which runs the project's Claude hooks with a Claude payload (`session_id` from
/// `conversation_id`, `cwd` from `workspace_roots[0]`, Bash for `launch-process`, Write for
/// `save-file`); a Claude deny stops the call.
fn hookx_routes_run_claude_hooks_under_auggie() {
    let Some(program) = auggie() else { return };
    let sb = Sandbox::new("hookx-live-augment-routed");
    let model = FakeAugment::start(sb.project.display().to_string());
    common::write(
        &sb.project,
        ".claude/settings.json",
        &json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": sb.dumper("claude-pre")}]}],
            "PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": sb.dumper("claude-post")}]}],
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": sb.dumper("claude-prompt")}]}],
        }})
        .to_string(),
    );
    sb.answer("claude-pre", "a", "claude-deny",
        (r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-CLAUDE"}}"#, "", 0));
    trust_and_install(&sb);
    let out = run_auggie(&sb, &program, &model, "routed", &[]);
    let dumps = sb.dumps();
    let project = sb.project.display().to_string();
    let mut failed = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failed.push(what)
        }
    };
    check(
        out.status.success(),
        format!(
            "exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ),
    );
    let pre = dumps.iter().find(|d| d.label == "claude-pre");
    check(
        pre.is_some_and(|d| {
            d.stdin["hook_event_name"] == "PreToolUse"
                && d.stdin["session_id"].is_string()
                && d.stdin["cwd"] == project
                && d.stdin["tool_name"] == "Bash"
                && d.stdin["tool_input"]["command"] == "echo claude-deny > routed.txt"
                && d.env.get("CLAUDE_PROJECT_DIR") == Some(&project)
                && d.env.get("HOOKX_HOST").map(String::as_str) == Some("augment")
        }),
        format!(
            "the Claude PreToolUse hook got a Claude payload: {:?}",
            pre.map(|d| &d.raw)
        ),
    );
    check(
        !sb.project.join("routed.txt").exists(),
        "the Claude deny stopped the call".into(),
    );
    let denied = model.tool_result("toolu_1");
    check(
        denied.contains("R-CLAUDE"),
        format!("the reason reached the model: {denied}"),
    );
    let post = dumps.iter().find(|d| d.label == "claude-post");
    check(
        post.is_some_and(|d| {
            d.stdin["tool_name"] == "Write"
                && d.stdin["tool_input"]["file_path"] == format!("{project}/kept.txt")
                && d.stdin["tool_input"]["content"] == "kept\n"
        }),
        format!(
            "the Claude PostToolUse hook got Write: {:?}",
            post.map(|d| &d.raw)
        ),
    );
    // `str-replace-editor` with one entry is Claude's Edit.
    let edit = dumps
        .iter()
        .find(|d| d.label == "claude-post" && d.stdin["tool_name"] == "Edit");
    check(
        edit.is_some_and(|d| {
            d.stdin["tool_input"]
                == json!({"file_path": format!("{project}/kept.txt"), "old_string": "kept",
                    "new_string": "edited"})
        }),
        format!(
            "the Claude PostToolUse hook got Edit: {:?}",
            edit.map(|d| &d.raw)
        ),
    );
    let prompt = dumps.iter().find(|d| d.label == "claude-prompt");
    check(
        prompt.is_some_and(|d| {
            d.stdin["hook_event_name"] == "UserPromptSubmit"
                && d.stdin["prompt"] == "SCENARIO:routed do the work"
        }),
        format!(
            "PromptSubmit reached the Claude UserPromptSubmit hook: {:?}",
            prompt.map(|d| &d.raw)
        ),
    );
    assert!(
        failed.is_empty(),
        "{} checks failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// A stdio MCP server of one tool, `read_graph` (newline-delimited JSON-RPC: `initialize`,
/// `tools/list`, `tools/call`).
const MCP_SERVER: &str = r#"
const send = (m) => process.stdout.write(JSON.stringify(m) + "\n");
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  let m;
  try { m = JSON.parse(line); } catch { return; }
  if (m.id === undefined) return;
  const result =
    m.method === "initialize"
      ? { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} },
          serverInfo: { name: "memory", version: "1.0.0" } }
      : m.method === "tools/list"
      ? { tools: [{ name: "read_graph", description: "Reads the graph",
          inputSchema: { type: "object", properties: {} } }] }
      : m.method === "tools/call"
      ? { content: [{ type: "text", text: "GRAPH-CONTENTS" }] }
      : {};
  send({ jsonrpc: "2.0", id: m.id, result });
});
"#;

/// MCP through hookx: Auggie names server `memory`'s tool `read_graph` `read_graph_memory`,
/// which has two readings (`read_graph` of `memory`, `read` of `graph_memory`). hookx's route
/// (no matcher, `metadata.includeMCPMetadata`) gets the call with `mcp_metadata` naming the
/// server, and a Claude `mcp__memory__.*` hook fires with `mcp__memory__read_graph`; its deny
/// stops the call.
fn hookx_routes_mcp_calls_to_claude_mcp_hooks() {
    let Some(program) = auggie() else { return };
    let sb = Sandbox::new("hookx-live-augment-mcp");
    let model = FakeAugment::start(sb.project.display().to_string());
    let server = sb.root.join("mcp-server.js");
    std::fs::write(&server, MCP_SERVER).unwrap();
    common::write(
        &sb.project,
        ".claude/settings.json",
        &json!({"hooks": {
            "PreToolUse": [
                {"matcher": "mcp__memory__.*", "hooks": [{"type": "command", "command": sb.dumper("claude-mcp")}]},
                {"matcher": "Bash", "hooks": [{"type": "command", "command": sb.dumper("claude-bash")}]},
            ],
        }})
        .to_string(),
    );
    sb.answer("claude-mcp", "a", "read_graph",
        (r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-MCP"}}"#, "", 0));
    trust_and_install(&sb);
    let config = json!({"mcpServers": {"memory": {"command": "node", "args": [server]}}});
    let out = run_auggie(
        &sb,
        &program,
        &model,
        "mcp",
        &["--mcp-config", &config.to_string()],
    );
    let offered: Vec<String> = model
        .chats()
        .first()
        .and_then(|b| b["tool_definitions"].as_array().cloned())
        .into_iter()
        .flatten()
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .collect();
    assert!(
        offered.iter().any(|o| o == "read_graph_memory"),
        "the MCP tool is offered as TOOL_SERVER: {offered:?}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dumps = sb.dumps();
    let mcp = dumps.iter().find(|d| d.label == "claude-mcp");
    assert!(
        mcp.is_some_and(|d| d.stdin["tool_name"] == "mcp__memory__read_graph"
            && d.stdin["hook_event_name"] == "PreToolUse"
            && d.stdin["is_mcp_tool"] == true
            && d.stdin["mcp_metadata"]["mcpExecutedToolServerName"] == "memory"
            && d.stdin["mcp_metadata"]["mcpExecutedToolName"] == "read_graph"),
        "the Claude mcp__memory__ hook got mcp__memory__read_graph: {:?}; fired: {:?}\n{}",
        mcp.map(|d| &d.raw),
        dumps.iter().map(|d| &d.label).collect::<Vec<_>>(),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !dumps.iter().any(|d| d.label == "claude-bash"),
        "the Bash hook stayed out of it"
    );
    let result = model.tool_result("toolu_1");
    assert!(
        result.contains("R-MCP") && !result.contains("GRAPH-CONTENTS"),
        "the Claude deny stopped the MCP call: {result}"
    );
}

/// Which files 0.36.0 reads hooks from (user `settings.json`, project `settings.json` and
/// `settings.local.json`: all run), and that `timeout` is in milliseconds: a PreToolUse hook of
/// `timeout: 1500` that would deny after 5 s is cut off, and Auggie fails open (the call runs).
fn files_auggie_reads_and_millisecond_timeouts() {
    let Some(program) = auggie() else { return };
    let sb = Sandbox::new("hookx-live-augment-files");
    let model = FakeAugment::start(sb.project.display().to_string());
    let session_start = |label: &str| json!({"SessionStart": [{"hooks": [{"type": "command", "command": sb.dumper(label)}]}]});
    common::write(
        &sb.home,
        ".augment/settings.json",
        &json!({"hooks": session_start("user")}).to_string(),
    );
    common::write(
        &sb.project,
        ".augment/settings.local.json",
        &json!({"hooks": session_start("project-local")}).to_string(),
    );
    let mut project = session_start("project");
    project["PreToolUse"] =
        json!([{"hooks": [{"type": "command", "command": sb.dumper("slow"), "timeout": 1500}]}]);
    common::write(
        &sb.project,
        ".augment/settings.json",
        &json!({"hooks": project}).to_string(),
    );
    sb.answer("slow", "a", "slow-deny",
        (r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-SLOW"}}"#, "", 0));
    std::fs::write(sb.root.join("answers/slow/a/sleep"), "5").unwrap();
    let out = run_auggie(&sb, &program, &model, "files", &[]);
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let labels: Vec<String> = sb.dumps().into_iter().map(|d| d.label).collect();
    for label in ["user", "project-local", "project", "slow"] {
        assert!(labels.iter().any(|l| l == label), "{label} ran: {labels:?}");
    }
    assert!(
        sb.project.join("slow.txt").exists(),
        "the hook was cut off after 1.5 s and the call ran: {}",
        model.tool_result("toolu_1")
    );
}

/// Attacks row 824: Auggie takes a handler killed by a signal for one that exited 0
/// (`exitCode: c || 0`, source 0.36.0, `xao`) and reads its stdout. A handler that printed a
/// deny (`tests/fixtures/real/auggie-0.36.0/`) and was then SIGKILLed (a guard whose
/// interpreter crashes at its end) denies: run as Auggie's own hook, and wrapped by `hookx exec
/// --as augment`, which took the signal for a failure and let the call run.
fn a_deny_from_a_handler_killed_by_a_signal_denies() {
    let Some(program) = auggie() else { return };
    let hookx = PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let answer = common::fixtures_dir().join("real/auggie-0.36.0/deny-then-killed.out");
    let mut failed = Vec::new();
    for through_hookx in [false, true] {
        let sb = Sandbox::new("hookx-live-augment-killed");
        let model = FakeAugment::start(sb.project.display().to_string());
        // `sh FILE`: the shell Auggie starts execs it, so the process killed is the handler.
        let script = common::write(
            &sb.root,
            "handler.sh",
            &format!(
                "cat >/dev/null\ncat '{}'\nkill -KILL $$\n",
                answer.display()
            ),
        );
        let handler = format!("sh {}", script.display());
        let command = match through_hookx {
            false => handler,
            true => format!(
                "{} exec --as augment --host augment --event PreToolUse -- {handler}",
                hookx.display()
            ),
        };
        common::write(
            &sb.home,
            ".augment/settings.json",
            &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}})
                .to_string(),
        );
        run_auggie(&sb, &program, &model, "killed", &[]);
        if sb.project.join("ran-killed.txt").exists() {
            failed.push(format!("through hookx: {through_hookx}: the call ran"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("; "));
}

/// Attacks row 1200: the fault matrix in Auggie (tests/live_common/faults.rs): a hanging,
/// slow, crashing, noisy or oversized handler beside a deny, through `hookx run` on Auggie's
/// route and through wrapped entries in `.augment/settings.json` that Auggie runs itself (in
/// parallel): each denied `launch-process` never runs, and the deny's reason is its result.
fn faulty_handlers_beside_a_deny() {
    let Some(program) = auggie() else { return };
    let mut wrong = Vec::new();
    for via in [
        faults::Via::Run,
        faults::Via::Wrapped,
        faults::Via::OddRun,
        faults::Via::OddWrapped,
        faults::Via::QuotedRun,
    ] {
        let sb = Sandbox::new("hookx-live-augment-faults");
        let model = FakeAugment::start(sb.project.display().to_string());
        faults::set_up(via, "augment", &sb.root, &sb.project, &sb.home);
        let env = [("HOOKX_TEST_HOST_LIMIT_MS", faults::TEST_LIMIT_MS)];
        run_auggie_with(&sb, &program, &model, "faults", &[], &env);
        // The scenario's calls are `toolu_1`, `toolu_2`, … in the order of `faults::commands`.
        let result = |text: &str| {
            let step = faults::commands().iter().position(|c| c.contains(text));
            model.tool_result(&format!("toolu_{}", step.expect("a fault's command") + 1))
        };
        wrong.extend(faults::check(
            via,
            "augment",
            &sb.root,
            &sb.project,
            &result,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The recording of this suite's payloads (`tests/fixtures/recorded/augment-0.36.0/`).
fn check_recorded(sb: &Sandbox, dumps: &[minimal::Dump], scenario: &str) {
    let project = sb.project.display().to_string();
    let seen: Vec<recorded::Seen> = dumps
        .iter()
        .map(|d| recorded::Seen {
            label: &d.label,
            raw: &d.raw,
            env: &d.env,
            cwd: &d.cwd,
        })
        .collect();
    recorded::Recording {
        client: "auggie",
        version: VERSION,
        folder: "augment",
        host: "augment",
        events: EVENTS,
        relevant_env: |key| key.starts_with("AUGMENT_") && key != "AUGMENT_SESSION_AUTH",
        placeholders: vec![
            (project.clone(), "<project>"),
            (sb.home.display().to_string(), "<home>"),
        ],
    }
    .check(scenario, &seen, &[]);
}

/// The project's hooks trusted, and hookx's Augment routes installed in the project.
fn trust_and_install(sb: &Sandbox) {
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
    common::hookx_at(
        &sb.project,
        &sb.home,
        &[
            "install",
            "--host",
            "augment",
            "--hookx",
            hookx.to_str().unwrap(),
        ],
    )
    .success();
}

/// The README's migration story under Auggie (issue 24): the Claude project converted with
/// `--write` to Augment, Gemini and Codex, `hookx install --host augment`, `hookx trust --yes`,
/// one prompt with two `launch-process` calls (the guard denies the second), a `save-file` and
/// a stop. Auggie runs its own (wrapped) copy in `.augment/settings.json`; hookx runs neither
/// the Claude file nor the other copies. The recorder of Auggie's own in the user settings counts
/// each event: every rule runs once per event, with Claude's payload, and the guard's reason is
/// the denied call's result. A personal Claude rule routed through hookx in the user scope
/// ([`common::story_user_route`]) puts `hookx run` on every event with all the copies in sight:
/// it runs that rule once and no copy.
/// All of it twice, each in a fresh sandbox ([`common::story_targets`]): as above, and with the
/// README's own conversion (Copilot, Gemini and Codex: no Augment copy, so hookx runs the Claude
/// file through its project route, beside the user route).
fn migration_story_runs_each_rule_once() {
    let Some(program) = auggie() else { return };
    let mut failed = Vec::new();
    for targets in common::story_targets("augment") {
        let sb = Sandbox::new("hookx-live-augment-story");
        let model = FakeAugment::start(sb.project.display().to_string());
        common::write(
            &sb.home,
            ".augment/settings.json",
            &json!({"hooks": recorders(&sb)}).to_string(),
        );
        common::migration_story(&sb.project, &sb.home, &targets, "augment");
        common::story_user_route(&sb.project, &sb.home, "augment");
        let out = run_auggie(&sb, &program, &model, "story", &[]);
        let dumps = sb.dumps();
        let fired = |event: &str, tools: &[&str]| minimal::dumps::count(&dumps, event, tools);
        let mut wrong = Vec::new();
        if !out.status.success() {
            wrong.push(format!(
                "exit {:?}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        // The personal rule, through hookx's user route: once per event, every event.
        let all = ["PreToolUse", "PostToolUse", "PromptSubmit", "Stop"]
            .iter()
            .map(|e| fired(e, &[]))
            .sum();
        for (label, fired) in [
            ("guard", fired("PreToolUse", &["launch-process"])),
            (
                "fmt",
                fired("PostToolUse", &["save-file", "str-replace-editor"]),
            ),
            ("log", fired("PromptSubmit", &[])),
            ("stop", fired("Stop", &[])),
            ("user", all),
        ] {
            wrong.extend(common::story_once(&sb.project, label, fired));
        }
        let denied = model.tool_result("toolu_2");
        if !denied.contains(common::STORY_REASON) {
            wrong.push(format!("the guard's deny reached the model: {denied:?}"));
        }
        let ok = model.tool_result("toolu_1");
        if !ok.contains("story-ok") {
            wrong.push(format!("the allowed call ran: {ok:?}"));
        }
        failed.extend(wrong.into_iter().map(|w| format!("{targets}: {w}")));
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The team loop under Auggie (attacks rows 760-779, [`common::team_of_four`]): hooks written
/// for Claude, Qwen, Droid and Auggie, each file converted into the three others', hookx
/// installed for Augment in both scopes, trusted. Auggie runs its own
/// `.augment/settings.json`, its rules and the copies of the three others'; hookx's routes run
/// none of them. The recorders of Auggie's own in the user settings count the events: every
/// rule once per event, and the Qwen guard's deny is the denied call's result.
fn team_loop_runs_each_rule_once() {
    let Some(program) = auggie() else { return };
    let sb = Sandbox::new("hookx-live-augment-team");
    let model = FakeAugment::start(sb.project.display().to_string());
    common::write(
        &sb.home,
        ".augment/settings.json",
        &json!({"hooks": recorders(&sb)}).to_string(),
    );
    common::team_of_four(
        &sb.project,
        &sb.home,
        "augment",
        env!("CARGO_BIN_EXE_hookx"),
    );
    let out = run_auggie(&sb, &program, &model, "story", &[]);
    let dumps = sb.dumps();
    let fired = |event: &str, tools: &[&str]| minimal::dumps::count(&dumps, event, tools);
    let mut wrong = common::team_of_four_once(
        &sb.project,
        [
            fired("PreToolUse", &["launch-process"]),
            fired("PromptSubmit", &[]),
            fired("Stop", &[]),
        ],
        (&[], 0),
    );
    if !out.status.success() {
        wrong.push(format!(
            "exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let denied = model.tool_result("toolu_2");
    if !denied.contains(common::STORY_REASON) {
        wrong.push(format!(
            "the Qwen guard's deny reached the model: {denied:?}"
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The team loop as a teammate without hookx finds it under Auggie (attacks rows 760-779,
/// [`common::team_of_four_without_hookx`]): the four files converted into each other with
/// `--hookx hookx`, nothing installed, no `hookx` on Auggie's `PATH`. Auggie runs its own rules
/// once per event and the copies of the three others', which fail: each guard's copy denies
/// every `launch-process` call ("hookx not found"), the loggers' and Stop hooks' copies fail
/// without blocking: the prompt reaches the model and the run ends at the story's answer.
fn team_loop_without_hookx_fails_closed_only_on_the_guards() {
    let Some(program) = auggie() else { return };
    let sb = Sandbox::new("hookx-live-augment-team-without");
    let model = FakeAugment::start(sb.project.display().to_string());
    common::write(
        &sb.home,
        ".augment/settings.json",
        &json!({"hooks": recorders(&sb)}).to_string(),
    );
    common::team_of_four_without_hookx(&sb.project, &sb.home);
    let path = [("PATH", "/usr/local/bin:/usr/bin:/bin")];
    let out = run_auggie_with(&sb, &program, &model, "story", &[], &path);
    let dumps = sb.dumps();
    let fired = |event: &str, tools: &[&str]| minimal::dumps::count(&dumps, event, tools);
    let [shell, prompts, stops] = [
        fired("PreToolUse", &["launch-process"]),
        fired("PromptSubmit", &[]),
        fired("Stop", &[]),
    ];
    let mut wrong = Vec::new();
    if !out.status.success() || shell != 2 || prompts != 1 || stops != 1 {
        wrong.push(format!(
            "exit {:?}, {shell} calls, {prompts} prompts, {stops} stops: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    for (i, label) in common::TEAM4_LABELS.iter().enumerate() {
        let own = (9..12).contains(&i);
        let want = if own {
            [shell, prompts, stops][i % 3]
        } else {
            0
        };
        let runs = common::story_runs(&sb.project, label).len();
        if runs != want {
            wrong.push(format!("{label}: {runs} runs, {want} wanted"));
        }
    }
    for id in ["toolu_1", "toolu_2"] {
        let result = model.tool_result(id);
        if !result.contains("hookx not found") {
            wrong.push(format!("the guards' copies denied {id}: {result:?}"));
        }
    }
    let chats = serde_json::to_string(&model.chats()).unwrap();
    if chats.contains("story done") {
        wrong.push("a Stop copy blocked: the model was asked again after its answer".into());
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Attacks row 1684: a guard whose `timeout` (milliseconds) is past what a JavaScript timer
/// holds (2^31 - 1): Auggie gives it to `setTimeout` as written. Whether the project's guard
/// that takes a second to deny still denies at each is recorded in
/// `tests/fixtures/timers/augment-0.36.0.json`, which `validate` is checked against.
fn a_guards_timeout_past_the_timers_reach() {
    let Some(program) = auggie() else { return };
    let recorded = common::timer_forms("augment-0.36.0");
    let guard = r#"sleep 1; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-TIMER-GUARD"}}'"#;
    let mut wrong = Vec::new();
    for (timeout, denies) in &recorded.forms {
        let sb = Sandbox::new("hookx-live-augment-timer");
        let model = FakeAugment::start(sb.project.display().to_string());
        common::write(
            &sb.project,
            &recorded.file,
            &recorded.settings(guard, timeout),
        );
        run_auggie(&sb, &program, &model, "killed", &[]);
        let denied = !sb.project.join("ran-killed.txt").exists();
        if denied != *denies {
            wrong.push(format!(
                "timeout {timeout}: denied {denied}, recorded {denies}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("; "));
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    harness::main(
        "live_augment",
        &[harness::client(
            "Augment Auggie CLI",
            format!("auggie-{VERSION}/node_modules/@augmentcode/auggie/augment.mjs"),
        )],
        live_tests![
            lifecycle_events_fire_as_often_as_recorded,
            a_guards_timeout_past_the_timers_reach,
            ground_truth_tool_calls_and_answers,
            ground_truth_answer_forms,
            hookx_routes_run_claude_hooks_under_auggie,
            hookx_routes_mcp_calls_to_claude_mcp_hooks,
            files_auggie_reads_and_millisecond_timeouts,
            a_deny_from_a_handler_killed_by_a_signal_denies,
            faulty_handlers_beside_a_deny,
            migration_story_runs_each_rule_once,
            team_loop_runs_each_rule_once,
            team_loop_without_hookx_fails_closed_only_on_the_guards,
            both_scopes_get_one_event,
            failed_calls_as_auggie_marks_them,
        ],
    )
}

/// The claim gate (task "claims"): the recorder on every event in the user's
/// `~/.augment/settings.json` (labelled by event) and the project's `.augment/settings.json`
/// (`project-…`), one `auggie -p` run of the same command twice. Auggie 0.36.0 hands both hooks
/// of one event the same payload (recorded in `scopes/pairs.json`), and two calls alike give
/// the same payload: no call id, no timestamp.
fn both_scopes_get_one_event() {
    let Some(program) = auggie() else { return };
    let sb = Sandbox::new("hookx-live-augment-scopes");
    let model = FakeAugment::start(sb.project.display().to_string());
    let labelled = |prefix: &str| -> Value {
        let hooks: serde_json::Map<String, Value> = EVENTS
            .iter()
            .map(|e| {
                let command = sb.dumper(&format!("{prefix}{e}"));
                (
                    e.to_string(),
                    json!([{"hooks": [{"type": "command", "command": command}]}]),
                )
            })
            .collect();
        json!({ "hooks": hooks })
    };
    common::write(
        &sb.home,
        ".augment/settings.json",
        &labelled("").to_string(),
    );
    common::write(
        &sb.project,
        ".augment/settings.json",
        &labelled("project-").to_string(),
    );
    let out = run_auggie(&sb, &program, &model, "twice", &[]);
    let dumps = sb.dumps();
    let (user, project) = scopes::sides(dumps.iter().map(|d| (d.label.as_str(), &d.stdin)));
    let mut failed = Vec::new();
    let problems = scopes::pairing(&user, &project, &[]);
    if !problems.is_empty() || user.is_empty() {
        failed.push(format!("both scopes, one payload per event: {problems:?}"));
    }
    let calls = scopes::alike_calls(&user, "PreToolUse", "twice-call");
    let apart = calls.get(..2).map(|c| scopes::differing(c[0], c[1]));
    eprintln!("two calls alike differ by: {apart:?}");
    if apart.as_ref().is_none_or(|a| !a.is_empty()) {
        failed.push(format!("two calls alike, payloads differing in: {apart:?}"));
    }
    scopes::record(
        &format!("augment-{VERSION}"),
        "augment",
        &user,
        &project,
        &[
            (sb.project.display().to_string(), "<project>"),
            (sb.home.display().to_string(), "<home>"),
        ],
    );
    assert!(failed.is_empty(), "{}\n{out:?}", failed.join("\n"));
}

/// Attacks rows 1840-1859, ground truth: the recorder on every event, and four calls that fail:
/// a command's exit 1 (with stderr), a command that cannot start, a `view` of a missing file,
/// a `str_replace` whose text is not in the file. Which events fire after each, and
/// `tool_error` (hookx's `failed_call` mark for Auggie); recorded as `failed.*`.
fn failed_calls_as_auggie_marks_them() {
    let Some(program) = auggie() else { return };
    let sb = Sandbox::new("hookx-live-augment-failed");
    let model = FakeAugment::start(sb.project.display().to_string());
    common::write(&sb.project, "notes.txt", "one\n");
    common::write(
        &sb.home,
        ".augment/settings.json",
        &json!({"hooks": recorders(&sb)}).to_string(),
    );
    let out = run_auggie(&sb, &program, &model, "failed", &[]);
    let dumps = sb.dumps();
    let posts: Vec<(Value, Value, Value)> = dumps
        .iter()
        .filter(|d| d.label == "PostToolUse")
        .map(|d| {
            (
                d.stdin["tool_name"].clone(),
                d.stdin["tool_error"].clone(),
                d.stdin["tool_output"].clone(),
            )
        })
        .collect();
    eprintln!("auggie {VERSION} after four failed calls: {posts:#?}");
    let mut failed = Vec::new();
    if !out.status.success() {
        failed.push(format!("exit {:?}", out.status));
    }
    // Observed 0.36.0: PostToolUse after each, `tool_error` the result's text on each (a
    // command's non-zero exit too, as Claude's failure event; not so Gemini CLI).
    if posts.len() != 4 || posts.iter().any(|(_, e, _)| !e.is_string()) {
        failed.push(format!(
            "PostToolUse once per call, each with `tool_error`: {posts:?}"
        ));
    }
    check_recorded(&sb, &dumps, "failed");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Attacks rows 1787 and 1980-1999: how many times Auggie fires each of its events in one
/// session (a prompt, two `launch-process` calls and a `save-file`, the answer; then
/// `--continue` with a follow-up prompt), a recorder on each in `~/.augment/settings.json`:
/// kept in `tests/fixtures/cadence/`, which `tests/cadence_recorded.rs` checks hookx's tables
/// against.
fn lifecycle_events_fire_as_often_as_recorded() {
    let Some(program) = auggie() else { return };
    let sb = Sandbox::new("hookx-live-augment-cadence");
    let model = FakeAugment::start(sb.project.display().to_string());
    common::write(
        &sb.home,
        ".augment/settings.json",
        &json!({"hooks": recorders(&sb)}).to_string(),
    );
    let mut failed = Vec::new();
    let out = run_auggie(&sb, &program, &model, "cadence", &[]);
    if !out.status.success() {
        failed.push(format!(
            "exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let dumps = sb.dumps();
    let first = cadence::Run {
        run: "start".into(),
        prompts: 1,
        model_requests: model.chats().len(),
        tool_calls: 3,
        compactions: 0,
        fired: cadence::fired(dumps.iter().map(|d| d.label.as_str()), EVENTS),
    };
    let mut cmd = sb.command(Path::new("node"));
    cmd.env(
        "AUGMENT_SESSION_AUTH",
        json!({"accessToken": "dummy", "tenantURL": format!("http://127.0.0.1:{}/", model.port),
            "scopes": ["email"]})
        .to_string(),
    )
    .arg(&program)
    .args(["--continue", "-p", "and now the follow-up"]);
    let again = sb.run(cmd);
    if !again.status.success() {
        failed.push(format!(
            "continue: exit {:?}: {}",
            again.status,
            String::from_utf8_lossy(&again.stderr)
        ));
    }
    let all = sb.dumps();
    let second = cadence::Run {
        run: "continue".into(),
        prompts: 1,
        model_requests: model.chats().len() - first.model_requests,
        tool_calls: 0,
        compactions: 0,
        fired: cadence::fired(all[dumps.len()..].iter().map(|d| d.label.as_str()), EVENTS),
    };
    let now = cadence::Recording {
        client: "auggie".into(),
        version: VERSION.into(),
        host: "augment".into(),
        how: "-p, the fake Augment backend; then --continue -p".into(),
        runs: vec![first, second],
    };
    failed.extend(cadence::settle(&format!("auggie-{VERSION}"), &now));
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
