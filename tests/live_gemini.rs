//! The live conformance suite for Gemini CLI 0.61.0: the real client, driven offline through a
//! fake Gemini API server, with recording hooks registered natively (ground truth), and with
//! hookx in the loop (`routed.rs`: `hookx install --host gemini`, `hookx convert --to gemini`).
//! See conformance/README.md and conformance/gemini-facts.md.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[path = "live_common/answers.rs"]
mod answers;
#[path = "live_common/cadence.rs"]
mod cadence;
#[path = "live_gemini/client.rs"]
mod client;
mod common;
#[path = "live_common/converted.rs"]
mod converted;
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
#[path = "live_gemini/routed.rs"]
mod routed;
#[path = "live_common/run.rs"]
mod run;
#[path = "live_common/scopes.rs"]
mod scopes;
#[path = "live_gemini/server.rs"]
mod server;
#[path = "live_common/stamps.rs"]
mod stamps;

use client::Sandbox;
use run::{Checks, Run};
use serde_json::{Value, json};
use server::{FakeModel, Step};
use stamps::Stamps;

/// Every hook event of Gemini CLI 0.61.0 (its settings schema and `HookEventName`).
const EVENTS: &[&str] = &[
    "SessionStart",
    "SessionEnd",
    "BeforeAgent",
    "AfterAgent",
    "BeforeModel",
    "AfterModel",
    "BeforeToolSelection",
    "BeforeTool",
    "AfterTool",
    "PreCompress",
    "Notification",
];

fn shell(command: &str) -> Step {
    Step::Calls(vec![(
        "run_shell_command",
        json!({"command": command, "description": "d"}),
    )])
}

fn scripts(name: &str, project: &str) -> Vec<Step> {
    let file = format!("{project}/notes.txt");
    if let Some((calls, done)) = form_probe::calls(name, probe_forms(), alone) {
        return calls
            .iter()
            .map(|c| shell(c))
            .chain([Step::Text(done)])
            .collect();
    }
    if name == "merge" {
        let calls = merge_probe::gemini_cases().into_iter().map(|c| {
            Step::Calls(vec![(
                "run_shell_command",
                json!({"command": format!("printf x > o-{}.txt", c.name), "description": "d"}),
            )])
        });
        return calls.chain([Step::Text("merge done")]).collect();
    }
    match name {
        // Attacks row 2204: a call, then one that waits (at most 10 s) for hookx to have kept
        // the first one's background answer, then the end.
        "late" => vec![
            Step::Calls(vec![(
                "run_shell_command",
                json!({"command": "echo late-one", "description": "d"}),
            )]),
            Step::Calls(vec![(
                "run_shell_command",
                json!({"command": format!(
                    "i=0; until ls {project}/../home/.hookx/carried/*/late-*.json >/dev/null 2>&1 \
                     || [ $i -ge 100 ]; do sleep 0.1; i=$((i+1)); done; echo late-two"
                ), "description": "d"}),
            )]),
            Step::Text("late done"),
        ],
        "mcpnames" => MCP_NAME_CALLS
            .iter()
            .enumerate()
            .map(|(i, n)| Step::Calls(vec![(*n, json!({"text": mcp_names::text(i)}))]))
            .chain([Step::Text("mcp done")])
            .collect(),
        "tools" => vec![
            Step::Calls(vec![(
                "run_shell_command",
                json!({"command": "echo hello-shell", "description": "say hello"}),
            )]),
            Step::Calls(vec![(
                "write_file",
                json!({"file_path": file, "content": "one\n"}),
            )]),
            Step::Calls(vec![(
                "replace",
                json!({"file_path": file, "instruction": "change one to two",
                    "old_string": "one", "new_string": "two"}),
            )]),
            Step::Calls(vec![("read_file", json!({"file_path": file}))]),
            Step::Calls(vec![(
                "read_file",
                json!({"file_path": format!("{project}/missing.txt")}),
            )]),
            Step::Calls(vec![("glob", json!({"pattern": "*.txt"}))]),
            Step::Calls(vec![("grep_search", json!({"pattern": "two"}))]),
            Step::Calls(vec![("list_directory", json!({"dir_path": project}))]),
            Step::Calls(vec![("google_web_search", json!({"query": "hookx"}))]),
            Step::Calls(vec![("mcp_probe_echo", json!({"text": "hi-mcp"}))]),
            Step::Calls(vec![(
                "invoke_agent",
                json!({"agent_name": "generalist",
                    "prompt": "SCENARIO:sub run one command"}),
            )]),
            Step::Text("all done"),
        ],
        "matchers" => vec![
            shell("echo matcher-probe"),
            Step::Calls(vec![(
                "write_file",
                json!({"file_path": file, "content": "one\n"}),
            )]),
            Step::Calls(vec![(
                "replace",
                json!({"file_path": file, "instruction": "change one to two",
                    "old_string": "one", "new_string": "two"}),
            )]),
            Step::Calls(vec![("read_file", json!({"file_path": file}))]),
            Step::Calls(vec![("glob", json!({"pattern": "*.txt"}))]),
            Step::Text("matchers done"),
        ],
        // Three calls and the answer; the resumed run's follow-up prompt (three function
        // responses already in its history) gets the answer again.
        "cadence" => vec![
            shell("echo cadence-one"),
            shell("echo cadence-two"),
            Step::Calls(vec![(
                "write_file",
                json!({"file_path": file, "content": "one\n"}),
            )]),
            Step::Text("cadence done"),
        ],
        "sub" => vec![shell("echo from-subagent"), Step::Finish],
        "async" => vec![
            shell(&in_background::call(project)),
            Step::Text("async done"),
        ],
        "deny" => {
            let mut steps: Vec<Step> = DENY_CASES.iter().map(|(c, ..)| shell(c)).collect();
            // Two handlers in one group (parallel), then a `sequential` group.
            steps.push(Step::Calls(vec![("glob", json!({"pattern": "*.md"}))]));
            steps.push(Step::Calls(vec![(
                "grep_search",
                json!({"pattern": "seq-original"}),
            )]));
            steps.push(shell("echo stop-json"));
            steps.push(Step::Text("deny done"));
            steps
        }
        "ask" => vec![shell("echo ask-me"), Step::Text("ask done")],
        "twice" => vec![
            shell("echo twice-call"),
            shell("echo twice-call"),
            Step::Text("twice done"),
        ],
        "team" => vec![shell(common::STORY_DENIED), Step::Text("team done")],
        // The output differs from the command's text, which the model's requests hold too.
        "redact" => vec![
            shell("printf 'S%s' ECRET-OUT-1550"),
            Step::Text("redact done"),
        ],
        "scan" => vec![
            shell("printf 'S%s' ECRET-SCAN-1630"),
            Step::Text("scan done"),
        ],
        // A read of a missing file (Gemini marks it failed), a command that exits 3 (Gemini
        // does not: only an execution error sets `error`), a command that succeeds.
        "failed" => vec![
            Step::Calls(vec![(
                "read_file",
                json!({"file_path": format!("{project}/missing-1610.txt")}),
            )]),
            shell("echo exit-1610; exit 3"),
            shell("echo ok-1610"),
            Step::Text("failed done"),
        ],
        "teamloop" => vec![
            shell(common::LOOP_SAFE),
            shell(common::LOOP_DENIED),
            Step::Calls(vec![(
                "write_file",
                json!({"file_path": file, "content": "loop\n"}),
            )]),
            Step::Text("loop done"),
            Step::Text("loop done again"),
        ],
        "story" => vec![
            shell("echo story-bash"),
            Step::Calls(vec![(
                "write_file",
                json!({"file_path": file, "content": "story\n"}),
            )]),
            Step::Text("story done"),
        ],
        "routed" => vec![
            shell("echo claude-deny"),
            shell("echo claude-exit2"),
            shell("echo bricks-deny"),
            shell("echo copilot-deny"),
            shell("echo claude-modify"),
            shell("echo claude-post"),
            shell("echo copilot-post"),
            Step::Calls(vec![(
                "write_file",
                json!({"file_path": file, "content": "routed\n"}),
            )]),
            Step::Text("routed done"),
        ],
        "converted" => vec![
            shell("rm -rf /nonexistent-hookx-canary"),
            shell("echo safe-call"),
            Step::Calls(vec![(
                "write_file",
                json!({"file_path": file, "content": "converted\n"}),
            )]),
            Step::Text("converted done"),
        ],
        "model" | "modelblock" | "blockprompt" | "untrusted" | "skiptrust" | "invalid"
        | "system" | "syntax" => {
            vec![Step::Text("MODEL-ORIGINAL")]
        }
        _ => vec![Step::Text("unknown scenario")],
    }
}

/// BeforeTool answers and what the model got back for the shell call `echo NAME`:
/// (command, hook stdout, hook stderr, exit code, tool result expected).
const DENY_CASES: &[(&str, &str, &str, i32, Expect)] = &[
    (
        "echo deny-json",
        r#"{"decision":"deny","reason":"R-DENY"}"#,
        "",
        0,
        Expect::Blocked("R-DENY"),
    ),
    (
        "echo block-json",
        r#"{"decision":"block","reason":"R-BLOCK"}"#,
        "",
        0,
        Expect::Blocked("R-BLOCK"),
    ),
    ("echo exit2", "", "E-EXIT2", 2, Expect::Blocked("E-EXIT2")),
    ("echo exit1", "", "E-EXIT1", 1, Expect::Ran),
    ("echo exit3", "", "E-EXIT3", 3, Expect::Blocked("E-EXIT3")),
    ("echo exit2-silent", "", "", 2, Expect::Ran),
    ("echo plain0", "PLAIN-TEXT", "", 0, Expect::Ran),
    (
        "echo malformed",
        r#"{"decision": "deny", "#,
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo stderr-json",
        "",
        r#"{"decision":"deny","reason":"R-STDERR-JSON"}"#,
        0,
        Expect::Blocked("R-STDERR-JSON"),
    ),
    (
        "echo exit2-json-allow",
        r#"{"decision":"allow"}"#,
        "E-IGNORED",
        2,
        Expect::Ran,
    ),
    (
        "echo rewrite",
        r#"{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"echo rewritten-cmd"}}}"#,
        "",
        0,
        Expect::Rewritten("rewritten-cmd"),
    ),
    (
        "echo approve",
        r#"{"decision":"approve"}"#,
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo sysmsg",
        r#"{"systemMessage":"SYS-MSG"}"#,
        "",
        0,
        Expect::Ran,
    ),
    // The user's handler allows, the project's denies: any deny wins.
    (
        "echo merge",
        r#"{"decision":"allow"}"#,
        "",
        0,
        Expect::Blocked("R-MERGE-DENY"),
    ),
    // Answered by the `timeout` handler (1500 ms) only after 4 s.
    // Attacks row 830: answers recorded as Gemini CLI 0.61.0 read them
    // (`tests/fixtures/real/gemini-0.61.0/`).
    (
        "echo gx-string-continue",
        include_str!("fixtures/real/gemini-0.61.0/deny-beside-a-string-continue.out"),
        "",
        0,
        Expect::Blocked("R-GX-CONT"),
    ),
    (
        "echo gx-log-then-deny",
        include_str!("fixtures/real/gemini-0.61.0/deny-after-a-log-line.out"),
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo gx-deny-then-allow",
        include_str!("fixtures/real/gemini-0.61.0/deny-then-an-allow.out"),
        "",
        0,
        Expect::Ran,
    ),
    ("echo timeout", "", "", 0, Expect::Ran),
    // Issue 25: the rewrite beside each decision and exit code, a deny without a reason or
    // at exit 1, context on BeforeTool.
    (
        "echo rewrite-allow",
        r#"{"decision":"allow","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"echo rewritten-allow"}}}"#,
        "",
        0,
        Expect::Rewritten("rewritten-allow"),
    ),
    (
        "echo rewrite-deny",
        r#"{"decision":"deny","reason":"R-RWDENY","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"echo rewritten-deny"}}}"#,
        "",
        0,
        Expect::Blocked("R-RWDENY"),
    ),
    (
        "echo rewrite-exit1",
        r#"{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"echo rewritten-exit1"}}}"#,
        "E-RWEXIT1",
        1,
        Expect::Rewritten("rewritten-exit1"),
    ),
    (
        "echo rewrite-exit2",
        r#"{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"echo rewritten-exit2"}}}"#,
        "E-RWEXIT2",
        2,
        Expect::Rewritten("rewritten-exit2"),
    ),
    (
        "echo deny-bare",
        r#"{"decision":"deny"}"#,
        "",
        0,
        Expect::Blocked(""),
    ),
    (
        "echo deny-exit1",
        r#"{"decision":"deny","reason":"R-DENY1"}"#,
        "E-DENY1",
        1,
        Expect::Blocked("R-DENY1"),
    ),
    (
        "echo before-ctx",
        r#"{"hookSpecificOutput":{"hookEventName":"BeforeTool","additionalContext":"C-BEFORECTX"}}"#,
        "",
        0,
        Expect::Ran,
    ),
];

#[derive(Clone, Copy, Debug)]
enum Expect {
    /// The tool ran.
    Ran,
    /// The tool did not run; its result is `Tool execution blocked: REASON`.
    Blocked(&'static str),
    /// The rewritten command ran instead.
    Rewritten(&'static str),
}

/// One `{matcher?, hooks: [recorder]}` definition.
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

/// An installed extension (`~/.gemini/extensions/NAME/`) whose `hooks/hooks.json` is `hooks`.
fn extension(sb: &Sandbox, name: &str, hooks: Value) {
    sb.write(
        &format!("home/.gemini/extensions/{name}/gemini-extension.json"),
        &json!({"name": name, "version": "1.0.0"}).to_string(),
    );
    sb.write(
        &format!("home/.gemini/extensions/{name}/hooks/hooks.json"),
        &json!({"hooks": hooks}).to_string(),
    );
}

/// What one scenario's run gives to check: the sandbox, the model's log, the client's outcome.
struct Live {
    sb: Sandbox,
    model: FakeModel,
    out: client::Outcome,
    dumps: Vec<client::Dump>,
}

impl run::Run for Live {
    fn requests(&self, scenario: &str) -> Vec<Value> {
        self.model.turns_of(scenario)
    }

    /// The `functionResponse.response` the model got back for the call whose arguments
    /// contain `text`, as a string.
    fn tool_result(&self, scenario: &str, text: &str) -> String {
        for body in self.requests(scenario) {
            let parts: Vec<Value> = body["contents"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|c| c["parts"].as_array().cloned().unwrap_or_default())
                .collect();
            let call = parts.iter().position(|p| {
                p.get("functionCall")
                    .is_some_and(|c| c["args"].to_string().contains(text))
            });
            if let Some(at) = call {
                let id = &parts[at]["functionCall"]["id"];
                let name = &parts[at]["functionCall"]["name"];
                let reply = parts[at..].iter().find_map(|p| {
                    let r = p.get("functionResponse")?;
                    (r["name"] == *name && (id.is_null() || r["id"] == *id))
                        .then(|| r["response"].to_string())
                });
                if let Some(reply) = reply {
                    return reply;
                }
            }
        }
        panic!("no tool result for a call with {text:?}")
    }
}

impl Live {
    /// The first dump of `label` whose raw stdin contains `text`.
    fn dump(&self, label: &str, text: &str) -> &client::Dump {
        self.dumps
            .iter()
            .find(|d| d.label == label && d.raw.contains(text))
            .unwrap_or_else(|| panic!("no {label} hook saw {text:?}; saw {:?}", self.labels()))
    }

    fn labels(&self) -> Vec<&str> {
        self.dumps.iter().map(|d| d.label.as_str()).collect()
    }

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

    fn keep(&self, name: &str) {
        if let Some(dir) = std::env::var_os("HOOKX_LIVE_KEEP") {
            let keep = std::path::Path::new(&dir).join(name);
            let _ = std::fs::remove_dir_all(&keep);
            common::copy_tree(&self.sb.root, &keep);
            let requests = serde_json::to_string_pretty(&self.model.requests()).unwrap();
            std::fs::write(keep.join("requests.json"), requests).unwrap();
            std::fs::write(keep.join("stdout.txt"), &self.out.stdout).unwrap();
            std::fs::write(keep.join("stderr.txt"), &self.out.stderr).unwrap();
        }
    }
}

/// Runs `SCENARIO:<scenario> do the work` with `args` and the extra variables `env` in a
/// sandbox prepared by `setup`, or `None` when the client is missing.
fn live(
    scenario: &str,
    args: &[&str],
    env: &[(&str, &str)],
    setup: impl FnOnce(&Sandbox),
) -> Option<Live> {
    let bin = client::binary()?;
    let sb = Sandbox::new();
    setup(&sb);
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let out = sb.run(
        &bin,
        model.port,
        &format!("SCENARIO:{scenario} do the work"),
        args,
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

/// [`mcp_names::CALLS`] by the names Gemini CLI 0.61.0 offers them under (run).
const MCP_NAME_CALLS: &[&str] = &[
    "mcp_srv_run",
    "mcp_srv_my-tool",
    "mcp_srv_dot.tool",
    "mcp_srv_Up_Tool",
    "mcp_srv_a__b",
    "mcp_srv_sp_ace",
    "mcp_srv_t_",
    "mcp_x-y_run",
    "mcp_p.q_run",
    "mcp_a__b_run",
    "mcp_Up_Case_run",
    "mcp_caf__run",
    "mcp_s_p_run",
    "mcp_a_very_long_server_name_that_goes_well_past_the_limit_of_64_chars_run",
];

/// `mcpServers` for [`mcp_names::SERVERS`], each trusted, logging the calls that ran to
/// `mcp-ran.log`.
fn mcp_names_servers(sb: &Sandbox) -> serde_json::Map<String, Value> {
    let script = sb.write(
        "mcp_names_server.js",
        include_str!("live_common/mcp_server.js"),
    );
    mcp_names::servers(
        &script,
        &sb.root.join("mcp-ran.log"),
        json!({"trust": true}),
    )
}

/// Attacks rows 1860-1879, live under Gemini CLI 0.61.0: the names its hooks give MCP tools
/// whose server or tool holds `-`, `.`, `__`, upper case, a non-ASCII letter, a space, or is
/// long (recorded as `tests/fixtures/mcp-names/gemini-0.61.0.json`).
fn mcp_names_under_gemini() {
    let mut c = Checks::default();
    let Some(l) = live("mcpnames", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        let servers = mcp_names_servers(sb);
        sb.user_settings_with(
            json!({"BeforeTool": [group(sb, None, "BeforeTool")], "AfterTool": [group(sb, None, "AfterTool")]}),
            json!({"mcpServers": servers}),
        );
    }) else {
        return;
    };
    let offered: Vec<Value> = l
        .model
        .requests()
        .first()
        .and_then(|r| r["tools"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .flat_map(|t| {
            t["functionDeclarations"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|d| d["name"].as_str().map(str::to_string))
        .filter(|n| n.starts_with("mcp_"))
        .map(Value::String)
        .collect();
    let events: Vec<(String, Value)> = l
        .dumps
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    let rec = mcp_names::recording(
        "gemini",
        client::VERSION,
        "gemini -p --yolo, mcpServers in the user's settings (tests/live_gemini.rs mcp_names_under_gemini)",
        Value::Array(offered),
        &events,
        &l.sb.root.join("mcp-ran.log"),
    );
    if let Some(diff) = mcp_names::check(&format!("gemini-{}", client::VERSION), &rec) {
        c.that(false, format!("{diff}\n{}", l.out.stderr));
    }

    // Rows 1868, 1941, 1942: the user's Claude and Codex rules naming the servers as configured,
    // or as their own agent writes them, routed in: Gemini's `mcp_caf__run` (its `mcp_context`
    // naming `café`) reaches the Claude deny on `mcp__café__run`, which stops the call.
    let Some(l) = live("mcpnames", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        let servers = mcp_names_servers(sb);
        sb.user_settings_with(json!({}), json!({"mcpServers": servers}));
        let rule = |label: &str, matcher: &str| json!({"matcher": matcher, "hooks": [{"type": "command", "command": sb.dumper(label)}]});
        let claude = json!({"hooks": {"PreToolUse": [
            rule("c-cafe", "mcp__café__run"), rule("c-spaced", "mcp__s p__run"),
            rule("c-to", "mcp__srv__tö"), rule("c-own", "mcp__s_p__run"),
            rule("c-other", "mcp__x-z__.*")]}});
        let claude = sb.write("home/.claude/settings.json", &claude.to_string());
        sb.answer("c-cafe", "a", "", "", "C-CAFE-SAYS-NO", 2);
        let codex = json!({"hooks": {"PreToolUse": [rule("x-dashed", "mcp__x_y__run")]}});
        let codex = sb.write("home/.codex/hooks.json", &codex.to_string());
        for file in [&claude, &codex] {
            common::hookx_at(&sb.project, &sb.home, &["trust", file.to_str().unwrap()]).success();
        }
        common::hookx_at(
            &sb.project,
            &sb.home,
            &["install", "--host", "gemini", "--scope", "user"],
        )
        .success();
    }) else {
        return;
    };
    c.failed(mcp_names::ran_otherwise(
        l.dumps.iter().map(|d| (d.label.as_str(), &d.stdin)),
        &[
            ("c-cafe", vec!["mcp__caf___run"]),
            ("c-spaced", vec!["mcp__s_p__run"]),
            ("c-to", vec!["mcp__srv__t_"]),
            ("c-own", vec!["mcp__s_p__run"]),
            ("c-other", vec![]),
            ("x-dashed", vec!["mcp__x_y__run"]),
        ],
        "",
        &l.out.stderr,
    ));
    let ran = mcp_names::ran(&l.sb.root.join("mcp-ran.log"));
    let cafe = mcp_names::CALLS.iter().position(|c| c.0 == "café").unwrap();
    c.that(
        !ran.contains_key(&cafe) && ran.contains_key(&0),
        format!("the call c-cafe denies did not run, the others did: {ran:?}"),
    );
    c.done("mcp_names_under_gemini");
}

/// Attacks rows 1450-1469: each of `matcher_probe::MATCHERS` on its own BeforeTool definition
/// in the user's settings, a recorder each, over a shell call, a write, a replace, a read and
/// a glob: what Gemini CLI fires (recorded in `tests/fixtures/matchers/`) against what hookx reads the
/// same file as (`simulate`, on each call's own payload).
fn matchers_fire_as_hookx_reads_them() {
    let Some(l) = live("matchers", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        let groups: Vec<Value> = matcher_probe::MATCHERS
            .iter()
            .enumerate()
            .map(|(i, m)| group(sb, *m, &matcher_probe::label(i)))
            .collect();
        sb.user_settings(json!({"BeforeTool": groups}));
    }) else {
        return;
    };
    let dumps: Vec<(String, Value)> = l
        .dumps
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    let rec = matcher_probe::Recording {
        client: "gemini-cli".into(),
        version: client::VERSION.into(),
        host: "gemini".into(),
        event: "BeforeTool".into(),
        file: ".gemini/settings.json".into(),
        calls: matcher_probe::observed(&dumps, &l.sb.root),
    };
    let mut c = Checks::default();
    let tag = format!("gemini-{}", client::VERSION);
    for d in matcher_probe::differences(&tag, &rec, 5) {
        c.that(false, d);
    }
    c.done("matchers");
}

/// Attacks rows 1900-1919: two BeforeTool hooks of the user's answering each call their own
/// way (`merge_probe::gemini_cases`): what Gemini CLI made of each pair (recorded in
/// `tests/fixtures/merged/`) against what `simulate --host gemini` says of the same file.
fn several_hooks_answers_merge_as_simulate_says() {
    let cases = merge_probe::gemini_cases();
    let Some(l) = live("merge", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        sb.user_settings(json!({"BeforeTool": [group(sb, None, "ma"), group(sb, None, "mb")]}));
        for (label, name, when, a) in merge_probe::answers(&cases) {
            sb.answer(label, name, &when, &a.stdout, &a.stderr, a.exit);
        }
    }) else {
        return;
    };
    let rec = merge_probe::Recording {
        client: "gemini-cli".into(),
        version: client::VERSION.into(),
        host: "gemini".into(),
        event: "BeforeTool".into(),
        tool: "run_shell_command".into(),
        input: json!({"description": "d"}),
        scopes: None,
        cases: merge_probe::recorded(&cases, &l.sb.project, |when| l.tool_result("merge", when)),
    };
    let mut c = Checks::default();
    c.failed(merge_probe::differences(
        &format!("gemini-{}", client::VERSION),
        &rec,
    ));
    c.done("merge");
}

/// Ground truth, no hookx: every event's payload from user, project and extension hooks, the
/// tools (shell, write, replace, read, a failing read, glob, grep, ls, web search, an MCP tool,
/// a subagent) and the answers that reach the model (context on SessionStart, BeforeAgent and
/// AfterTool; an AfterTool block and tail call; an AfterAgent block). A second run resumes the
/// session and compresses it (SessionStart `resume`, PreCompress `manual`), with one project
/// hook added: the project-hook warning and `trusted_hooks.json`, before and after.
fn ground_truth_tools() {
    let Some(l) = live("tools", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        let mut user = record_everything(sb, "");
        // The shell that runs hooks, and how a command's variables are rewritten as text.
        let probe = format!(
            "printf '%s|%s|%s|%s' \"$BASH_VERSION\" '$GEMINI_PROJECT_DIR' '$HOME' \"$CLAUDE_PROJECT_DIR\" > {}/probe.txt",
            sb.root.display()
        );
        user["SessionStart"]
            .as_array_mut()
            .unwrap()
            .push(json!({"hooks": [{"type": "command", "command": probe}]}));
        user["BeforeTool"]
            .as_array_mut()
            .unwrap()
            .push(group(sb, Some("^mcp_probe_"), "m-mcp"));
        sb.user_settings_with(Value::Object(user), sb.mcp_server("probe"));
        sb.project_settings(Value::Object(record_everything(sb, "project-")));
        extension(
            sb,
            "hookx-probe",
            Value::Object(record_everything(sb, "ext-")),
        );
        let ctx = |e: &str| {
            format!(
                r#"{{"hookSpecificOutput":{{"hookEventName":"{e}","additionalContext":"CTX-{e}"}}}}"#
            )
        };
        sb.answer("SessionStart", "a", "",
            r#"{"systemMessage":"SYS-SessionStart","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"CTX-SessionStart"}}"#, "", 0);
        sb.answer("BeforeAgent", "a", "", &ctx("BeforeAgent"), "", 0);
        sb.answer("AfterTool", "a", "hello-shell", &ctx("AfterTool"), "", 0);
        sb.answer("project-AfterTool", "a", "hello-shell",
            r#"{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"PCTX-AfterTool"}}"#, "", 0);
        sb.answer(
            "AfterTool",
            "b",
            r#""tool_name":"write_file""#,
            r#"{"decision":"deny","reason":"R-AFTER-BLOCK"}"#,
            "",
            0,
        );
        sb.answer("AfterTool", "c", r#""tool_name":"list_directory""#,
            r#"{"hookSpecificOutput":{"hookEventName":"AfterTool","tailToolCallRequest":{"name":"run_shell_command","args":{"command":"echo tail-call"}}}}"#, "", 0);
        sb.answer(
            "AfterAgent",
            "a",
            r#""stop_hook_active":false"#,
            r#"{"decision":"block","reason":"STOP-AGAIN"}"#,
            "",
            0,
        );
    }) else {
        return;
    };
    let mut c = Checks::default();
    let sent = l.sent("tools");
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    // Every event but Notification fired, for user, project and extension hooks alike.
    for e in EVENTS.iter().filter(|e| **e != "Notification") {
        for prefix in ["", "project-", "ext-"] {
            let label = format!("{prefix}{e}");
            c.that(l.count(&label) > 0, format!("{label} fired"));
        }
    }
    // Context: SessionStart's is prepended to the prompt, BeforeAgent's appended, both tagged.
    let first = l
        .model
        .turns_of("tools")
        .first()
        .cloned()
        .unwrap_or_default();
    let texts = server::user_texts(&first).join("\n");
    c.that(
        texts.contains("<hook_context>CTX-SessionStart</hook_context>"),
        format!("SessionStart context in the first request: {texts}"),
    );
    c.that(
        texts.contains("<hook_context>CTX-BeforeAgent</hook_context>"),
        "BeforeAgent context in the first request",
    );
    c.that(
        l.out.stderr.contains("SYS-SessionStart"),
        "SessionStart systemMessage on stderr",
    );
    let shell = l.tool_result("tools", "hello-shell");
    c.that(
        shell.contains("hello-shell")
            && shell.contains("<hook_context>CTX-AfterTool\\nPCTX-AfterTool</hook_context>"),
        format!("AfterTool contexts (user, then project) appended to the result: {shell}"),
    );
    let write = l.tool_result("tools", "one\\n");
    c.that(
        write == r#"{"error":"R-AFTER-BLOCK"}"#,
        format!("AfterTool deny replaces the result with its reason: {write}"),
    );
    c.that(
        std::fs::read_to_string(l.sb.project.join("notes.txt")).is_ok(),
        "the write had happened before AfterTool blocked its result",
    );
    let ls = l.tool_result("tools", "dir_path");
    c.that(
        ls.contains("tail-call"),
        format!("tailToolCallRequest's result replaces the listing: {ls}"),
    );
    let tail = l.dump("BeforeTool", "echo tail-call");
    c.that(
        tail.stdin["original_request_name"] == "list_directory",
        format!(
            "the tail call's BeforeTool names the original: {}",
            tail.raw
        ),
    );
    c.that(
        sent.contains("STOP-AGAIN"),
        "a blocked AfterAgent continues with the reason as a prompt",
    );
    c.that(
        l.dumps
            .iter()
            .any(|d| d.label == "AfterAgent" && d.stdin["stop_hook_active"] == true),
        "AfterAgent re-entry has stop_hook_active: true",
    );
    // The subagent's tool and model calls fire the same hooks, with the main session's id and
    // nothing that tells them apart; it fires no BeforeAgent/AfterAgent of its own (the two
    // BeforeAgent are the prompt and the AfterAgent continuation).
    let sub = l.dump("BeforeTool", "from-subagent");
    c.that(
        sub.stdin["session_id"] == l.dump("SessionStart", "").stdin["session_id"],
        "the subagent's hooks carry the session's id",
    );
    l.dump("AfterTool", "from-subagent");
    l.dump("BeforeModel", "SCENARIO:sub");
    c.that(
        l.count("BeforeAgent") == 2,
        "BeforeAgent: prompt and continuation",
    );
    // An MCP tool is `mcp_SERVER_TOOL`, with `mcp_context`; matchers see that name.
    let mcp = l.dump("BeforeTool", "hi-mcp");
    c.that(
        mcp.stdin["tool_name"] == "mcp_probe_echo"
            && mcp.stdin["mcp_context"]["server_name"] == "probe"
            && mcp.stdin["mcp_context"]["tool_name"] == "echo",
        format!("MCP BeforeTool: {}", mcp.raw),
    );
    c.that(
        l.count("m-mcp") == 1 && l.tool_result("tools", "hi-mcp").contains("echo: hi-mcp"),
        "the MCP call ran, and `^mcp_probe_` matched it alone",
    );
    // Failing read: AfterTool carries the error.
    let failed = l.dump("AfterTool", "missing.txt");
    c.that(
        failed.stdin["tool_response"]["error"].is_object(),
        format!("failed read's AfterTool: {}", failed.raw),
    );
    // Hooks run under bash; $GEMINI_PROJECT_DIR and $CLAUDE_PROJECT_DIR are replaced in the
    // command text (even in single quotes), $HOME is expanded when settings load.
    let probe = std::fs::read_to_string(l.sb.root.join("probe.txt")).unwrap_or_default();
    let project = l.sb.project.display().to_string();
    let home = l.sb.home.display().to_string();
    let parts: Vec<&str> = probe.split('|').collect();
    c.that(
        parts.len() == 4
            && !parts[0].is_empty()
            && parts[1] == project
            && parts[2] == home
            && parts[3] == project,
        format!("probe: {probe}"),
    );
    // Env and cwd of a hook.
    let pre = l.dump("BeforeTool", "hello-shell");
    for (k, v) in [
        ("GEMINI_PROJECT_DIR", &project),
        ("GEMINI_CWD", &project),
        ("CLAUDE_PROJECT_DIR", &project),
    ] {
        c.that(
            pre.env.get(k) == Some(v),
            format!("{k} = {:?}", pre.env.get(k)),
        );
    }
    c.that(
        pre.env.get("GEMINI_SESSION_ID")
            == pre.stdin["session_id"].as_str().map(String::from).as_ref(),
        "GEMINI_SESSION_ID is the payload's session_id",
    );
    c.that(pre.cwd == project, format!("cwd {}", pre.cwd));
    // The CLI's own environment is passed on unredacted, the API key included.
    c.that(
        pre.env.get("GEMINI_API_KEY").map(String::as_str) == Some("dummy"),
        "hooks inherit GEMINI_API_KEY",
    );
    // Project hooks: a warning naming them, then acknowledged in ~/.gemini/trusted_hooks.json.
    c.that(
        l.out
            .stderr
            .contains("The following project-level hooks have been detected"),
        "project-hook warning",
    );
    let acked = trusted_hooks(&l.sb);
    let key = format!(":{}", l.sb.dumper("project-BeforeTool"));
    c.that(
        acked[&project]
            .as_array()
            .is_some_and(|keys| keys.contains(&json!(key))),
        format!("{key} acknowledged: {acked}"),
    );
    check_recorded("tools", &l.dumps, &l.sb);

    // Second run: resume and compress, with one project hook added. SessionStart context
    // goes before the prompt, and `/compress` is a command only at the prompt's start: the
    // context answer goes first.
    std::fs::remove_dir_all(l.sb.root.join("answers/SessionStart")).unwrap();
    let mut project_hooks = record_everything(&l.sb, "project-");
    project_hooks["SessionStart"]
        .as_array_mut()
        .unwrap()
        .push(group(&l.sb, None, "project-new-SessionStart"));
    l.sb.project_settings(Value::Object(project_hooks));
    let before = l.dumps.len();
    let bin = client::binary().expect("found by live()");
    let out = l.sb.run(
        &bin,
        l.model.port,
        "/compress",
        &["--resume", "latest"],
        &[],
    );
    let dumps: Vec<client::Dump> = l.sb.dumps().into_iter().skip(before).collect();
    c.that(
        out.status == Some(0),
        format!("resume exit {:?}: {}", out.status, out.stderr),
    );
    let has = |label: &str, text: &str| {
        dumps
            .iter()
            .any(|d| d.label == label && d.raw.contains(text))
    };
    c.that(
        has("SessionStart", r#""source":"resume""#),
        "SessionStart resume",
    );
    c.that(
        has("PreCompress", r#""trigger":"manual""#),
        format!("PreCompress manual: {}", out.stdout),
    );
    c.that(
        dumps.iter().any(|d| d.label == "project-new-SessionStart"),
        "the new, unacknowledged project hook ran",
    );
    let warning = out
        .stderr
        .split("The following project-level hooks")
        .nth(1)
        .unwrap_or_default();
    c.that(
        warning.contains("project-new-SessionStart") && !warning.contains("project-BeforeTool"),
        format!("the warning names only the new hook: {warning}"),
    );
    check_recorded("resume", &dumps, &l.sb);
    c.done("tools");
}

fn trusted_hooks(sb: &Sandbox) -> Value {
    std::fs::read_to_string(sb.home.join(".gemini/trusted_hooks.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null)
}

/// Ground truth of BeforeTool answers (decision, exit codes, stderr JSON, malformed output,
/// rewritten input, timeouts in milliseconds, `continue: false`), matcher semantics, parallel
/// and `sequential` execution, and the order of user, project and extension hooks.
fn ground_truth_deny() {
    let Some(l) = live("deny", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        let mut user = record_everything(sb, "");
        let before = user["BeforeTool"].as_array_mut().unwrap();
        for (label, m) in MATCHERS {
            before.push(group(sb, Some(m), label));
        }
        before.push(json!({"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": sb.dumper("timeout"), "timeout": 1500}]}));
        let peer = |me: &str, other: &str| {
            let d = sb.root.display();
            format!(
                "touch {d}/par.{me}; i=0; while [ ! -e {d}/par.{other} ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; [ -e {d}/par.{other} ] && touch {d}/par.{me}.saw"
            )
        };
        before.push(json!({"matcher": "glob", "hooks": [
            {"type": "command", "command": peer("a", "b")},
            {"type": "command", "command": peer("b", "a")}]}));
        before.push(
            json!({"matcher": "grep_search", "sequential": true, "hooks": [
            {"type": "command", "command": sb.dumper("seq-1")},
            {"type": "command", "command": sb.dumper("seq-2")}]}),
        );
        let start = user["SessionStart"].as_array_mut().unwrap();
        for (label, m) in [
            ("s-startup", "startup"),
            ("s-resume", "resume"),
            ("s-start", "start"),
        ] {
            start.push(group(sb, Some(m), label));
        }
        user["BeforeAgent"].as_array_mut().unwrap().push(group(
            sb,
            Some("no-such-thing"),
            "a-nomatch",
        ));
        sb.user_settings(Value::Object(user));
        sb.project_settings(json!({"BeforeTool": [group(sb, None, "project-BeforeTool")]}));
        extension(
            sb,
            "hookx-probe",
            json!({"BeforeTool": [group(sb, None, "ext-BeforeTool")]}),
        );
        for (i, (cmd, stdout, stderr, exit, _)) in DENY_CASES.iter().enumerate() {
            let when = format!("{cmd}\"");
            sb.answer(
                "BeforeTool",
                &format!("{i:02}"),
                &when,
                stdout,
                stderr,
                *exit,
            );
        }
        sb.answer(
            "project-BeforeTool",
            "a",
            "echo merge\"",
            r#"{"decision":"deny","reason":"R-MERGE-DENY"}"#,
            "",
            0,
        );
        sb.answer_late(
            "timeout",
            "a",
            "echo timeout\"",
            r#"{"decision":"deny","reason":"R-TIMEOUT-LATE"}"#,
            4,
        );
        sb.answer("seq-1", "a", "seq-original",
            r#"{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"pattern":"seq-rewritten"}}}"#, "", 0);
        sb.answer(
            "BeforeTool",
            "zz",
            "echo stop-json\"",
            r#"{"continue":false,"stopReason":"R-STOP"}"#,
            "",
            0,
        );
    }) else {
        return;
    };
    let mut c = Checks::default();
    for (cmd, _, _, _, expect) in DENY_CASES {
        let name = cmd.trim_start_matches("echo ");
        let result = l.out.tool_result(cmd);
        let output = result.map(|r| r["output"].to_string()).unwrap_or_default();
        let ok = match expect {
            Expect::Ran => {
                result.is_some_and(|r| r["status"] == "success") && output.contains(name)
            }
            Expect::Blocked(reason) => {
                result.is_some()
                    && l.tool_result("deny", cmd)
                        .contains(&format!("Tool execution blocked: {reason}"))
                    && result.is_some_and(|r| r["status"] == "error")
            }
            Expect::Rewritten(ran) => output.contains(ran),
        };
        eprintln!("form {cmd}: expected {expect:?}, got {result:?}");
        c.that(ok, format!("{cmd}: {expect:?}, got {result:?}"));
    }
    // BeforeTool `additionalContext` does not reach the model (issue 25, run 0.61.0).
    c.that(
        !l.sent("deny").contains("C-BEFORECTX"),
        "BeforeTool additionalContext does not reach the model",
    );
    let rewritten = l.tool_result("deny", "echo rewrite");
    c.that(
        rewritten.contains("rewritten-cmd")
            && rewritten.contains("Tool input parameters were modified by a hook"),
        format!("the model is told of the rewrite: {rewritten}"),
    );
    for text in ["E-EXIT1", "PLAIN-TEXT", "SYS-MSG"] {
        c.that(
            !l.sent("deny").contains(text),
            format!("{text} does not reach the model"),
        );
        c.that(l.out.stderr.contains(text), format!("{text} on stderr"));
    }
    c.that(
        l.out.stderr.contains("Warning: E-EXIT1"),
        "exit 1 is a warning",
    );
    // Timeout in milliseconds: killed at 1.5 s, its late deny never counted.
    c.that(
        l.out.stderr.contains("failed for event BeforeTool")
            && !l.sent("deny").contains("R-TIMEOUT-LATE"),
        "the 1500 ms handler timed out (fail-open)",
    );
    // `continue: false` on BeforeTool ends the run.
    let stop = l.out.tool_result("echo stop-json");
    c.that(
        stop.is_some_and(|r| {
            r["output"]
                .as_str()
                .is_some_and(|o| o.contains("Agent execution stopped by hook: R-STOP"))
        }),
        format!("continue:false: {stop:?}"),
    );
    c.that(
        !l.out.said().contains("deny done"),
        "no model turn after continue:false",
    );
    // PreCompress `auto` fires before every model turn, with no compression to do.
    let turns = l.model.turns_of("deny").len();
    c.that(
        turns > 1 && l.count_with("PreCompress", r#""trigger":"auto""#) == turns,
        format!("{} PreCompress for {turns} turns", l.count("PreCompress")),
    );
    // Matchers: regex, unanchored, case-sensitive, `|`, `*` and "" match all, invalid = literal.
    let shell = r#""tool_name":"run_shell_command""#;
    let shells = l.count_with("BeforeTool", shell);
    for (label, m) in MATCHERS {
        let want = MATCHING.contains(label);
        let got = l.count_with(label, shell);
        c.that(
            if want { got == shells } else { got == 0 },
            format!("matcher {m:?} ({label}): {got} of {shells} shell calls"),
        );
    }
    c.that(l.count("s-startup") == 1, "SessionStart matcher `startup`");
    c.that(
        l.count("s-resume") == 0 && l.count("s-start") == 0,
        "SessionStart matchers are exact",
    );
    c.that(l.count("a-nomatch") == 1, "BeforeAgent ignores its matcher");
    // Parallel by default: both handlers of the glob group saw each other running.
    let saw = |who: &str| l.sb.root.join(format!("par.{who}.saw")).exists();
    c.that(
        saw("a") && saw("b"),
        "the two glob handlers ran in parallel",
    );
    // Sequential: the second handler got the first one's rewritten tool_input, and so did
    // the tool; the order is user, project, extension.
    let seq2 = l.dump("seq-2", "grep_search");
    c.that(
        seq2.stdin["tool_input"]["pattern"] == "seq-rewritten",
        format!("seq-2 saw {}", seq2.raw),
    );
    let grep_order: Vec<&str> = l
        .dumps
        .iter()
        .filter(|d| d.raw.contains("\"grep_search\"") && d.stdin["hook_event_name"] == "BeforeTool")
        .map(|d| d.label.as_str())
        .collect();
    c.that(
        grep_order
            == [
                "BeforeTool",
                "m-star",
                "m-empty",
                "seq-1",
                "seq-2",
                "project-BeforeTool",
                "ext-BeforeTool",
            ],
        format!("sequential order: {grep_order:?}"),
    );
    check_recorded("deny", &l.dumps, &l.sb);
    c.done("deny");
}

/// BeforeTool matcher probes: (label, matcher).
const MATCHERS: &[(&str, &str)] = &[
    ("m-sub", "shell"),
    ("m-anchored", "^shell"),
    ("m-case", "RUN_SHELL_COMMAND"),
    ("m-alt", "read_file|run_shell_command"),
    ("m-star", "*"),
    ("m-empty", ""),
    ("m-invalid", "("),
    ("m-exact", "run_shell_command"),
];
/// The probes that match `run_shell_command`.
const MATCHING: &[&str] = &["m-sub", "m-alt", "m-star", "m-empty", "m-exact"];

/// Ground truth: BeforeTool `decision: "ask"` in `-p --yolo` fires Notification (ToolPermission)
/// and then nothing answers it: the client exits 0 with the tool never run, no result event,
/// no AfterAgent and no SessionEnd.
fn ground_truth_ask() {
    let Some(l) = live("ask", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        sb.user_settings(Value::Object(record_everything(sb, "")));
        sb.answer(
            "BeforeTool",
            "a",
            "ask-me",
            r#"{"decision":"ask","reason":"R-ASK","systemMessage":"ASK-SYS","hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"echo rewritten-ask"}}}"#,
            "",
            0,
        );
    }) else {
        return;
    };
    let mut c = Checks::default();
    let n = l.dump("Notification", "ToolPermission");
    c.that(
        // The rewrite beside `ask` is applied before asking (issue 25, run 0.61.0).
        n.stdin["details"]["command"] == "echo rewritten-ask",
        format!("Notification: {}", n.raw),
    );
    c.that(
        l.out.tool_result("echo ask-me").is_none(),
        "the tool never ran",
    );
    c.that(
        !l.out.events.iter().any(|e| e["type"] == "result"),
        "no result event",
    );
    c.that(
        l.count("SessionEnd") == 0 && l.count("AfterAgent") == 0,
        "no AfterAgent, no SessionEnd",
    );
    c.that(l.out.status == Some(0), format!("exit {:?}", l.out.status));
    check_recorded("ask", &l.dumps, &l.sb);
    c.done("ask");
}

/// Ground truth of the model hooks: BeforeModel rewrites the request's text, BeforeToolSelection
/// narrows the function-calling config, AfterModel replaces the reply. Without `--yolo`: no
/// tool that needs approval is offered. Settings: trust by variable, one run of a command
/// found in two scopes, an unknown event, `hooksConfig.disabled`, a handler's `env`.
fn ground_truth_model() {
    let trust = [("GEMINI_CLI_TRUST_WORKSPACE", "true")];
    let Some(l) = live("model", &[], &trust, |sb| {
        let mut user = record_everything(sb, "");
        let probe = format!(
            "printf %s \"$PROBE_VAR\" > {}/env-field.txt",
            sb.root.display()
        );
        user["SessionStart"]
            .as_array_mut()
            .unwrap()
            .push(json!({"hooks": [
            {"type": "command", "command": probe, "env": {"PROBE_VAR": "from-env-field"}}]}));
        let disabled = json!({"hooksConfig": {"disabled": [sb.dumper("AfterAgent")]}});
        sb.user_settings_with(Value::Object(user), disabled);
        // A project hook, the user's BeforeAgent handler again, and an unknown event.
        sb.project_settings(json!({
            "SessionStart": [group(sb, None, "project-SessionStart")],
            "BeforeAgent": [group(sb, None, "BeforeAgent")],
            "BeforeToolUse": [group(sb, None, "project-BeforeToolUse")],
        }));
        sb.answer("BeforeModel", "a", "", r#"{"hookSpecificOutput":{"hookEventName":"BeforeModel","llm_request":{"messages":[{"role":"user","content":"SCENARIO:model REWRITTEN-BY-BEFOREMODEL"}]}}}"#, "", 0);
        sb.answer("BeforeToolSelection", "a", "", r#"{"hookSpecificOutput":{"hookEventName":"BeforeToolSelection","toolConfig":{"mode":"ANY","allowedFunctionNames":["read_file"]}}}"#, "", 0);
        sb.answer("AfterModel", "a", "MODEL-ORIGINAL", r#"{"hookSpecificOutput":{"hookEventName":"AfterModel","llm_response":{"candidates":[{"content":{"role":"model","parts":["REPLACED-BY-AFTERMODEL"]},"finishReason":"STOP"}]}}}"#, "", 0);
    }) else {
        return;
    };
    let mut c = Checks::default();
    let turns = l.model.turns_of("model");
    let first = turns.first().cloned().unwrap_or_default();
    let texts = server::user_texts(&first).join("\n");
    c.that(
        texts.contains("REWRITTEN-BY-BEFOREMODEL") && !texts.contains("do the work"),
        format!("BeforeModel replaced the first user text: {texts}"),
    );
    // Without --yolo, `-p` does not even offer the tools that would need an approval.
    let offered: Vec<&str> = first["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| t["functionDeclarations"].as_array().into_iter().flatten())
        .filter_map(|d| d["name"].as_str())
        .collect();
    c.that(
        offered.contains(&"read_file")
            && !["run_shell_command", "write_file", "replace", "web_fetch"]
                .iter()
                .any(|t| offered.contains(t)),
        format!("tools offered without --yolo: {offered:?}"),
    );
    c.that(
        first["toolConfig"]["functionCallingConfig"]
            == json!({"mode": "ANY", "allowedFunctionNames": ["read_file"]}),
        format!("toolConfig: {}", first["toolConfig"]),
    );
    c.that(
        l.out.said().contains("REPLACED-BY-AFTERMODEL") && !l.out.said().contains("MODEL-ORIGINAL"),
        format!("AfterModel replaced the reply: {}", l.out.said()),
    );
    // Settings: GEMINI_CLI_TRUST_WORKSPACE trusts the folder (project hooks load); the same
    // command in two scopes runs once; an unknown event is skipped with a warning; a handler
    // listed in hooksConfig.disabled never runs; a handler's `env` reaches it.
    c.that(l.count("project-SessionStart") == 1, "project hooks load");
    c.that(
        l.count("BeforeAgent") == 1,
        "one run of a command in user and project",
    );
    c.that(
        l.out
            .stderr
            .contains(r#"Invalid hook event name: "BeforeToolUse""#)
            && l.count("project-BeforeToolUse") == 0,
        "unknown event skipped with a warning",
    );
    c.that(l.count("AfterAgent") == 0, "hooksConfig.disabled");
    let env_field = std::fs::read_to_string(l.sb.root.join("env-field.txt")).unwrap_or_default();
    c.that(
        env_field == "from-env-field",
        format!("env field: {env_field:?}"),
    );
    check_recorded("model", &l.dumps, &l.sb);
    c.done("model");
}

/// Ground truth: a BeforeModel block with a synthetic `llm_response` answers instead of the
/// model; no request reaches it.
fn ground_truth_model_block() {
    let Some(l) = live("modelblock", &[], &[], |sb| {
        sb.trust_folder();
        sb.user_settings(Value::Object(record_everything(sb, "")));
        sb.answer("BeforeModel", "a", "", r#"{"decision":"block","reason":"R-MODEL-BLOCK","hookSpecificOutput":{"hookEventName":"BeforeModel","llm_response":{"candidates":[{"content":{"role":"model","parts":["SYNTHETIC-REPLY"]},"finishReason":"STOP"}]}}}"#, "", 0);
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.model.turns_of("modelblock").is_empty(),
        "no main-loop request",
    );
    c.that(
        l.out.said().contains("SYNTHETIC-REPLY"),
        format!("the synthetic reply is the answer: {}", l.out.stdout),
    );
    check_recorded("modelblock", &l.dumps, &l.sb);
    c.done("modelblock");
}

/// Ground truth: BeforeAgent `decision: "block"` refuses the prompt: no model request.
fn ground_truth_blocked_prompt() {
    let Some(l) = live("blockprompt", &[], &[], |sb| {
        sb.trust_folder();
        sb.user_settings(Value::Object(record_everything(sb, "")));
        sb.answer(
            "BeforeAgent",
            "a",
            "",
            r#"{"decision":"block","reason":"PROMPT-BLOCKED"}"#,
            "",
            0,
        );
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.model.turns_of("blockprompt").is_empty(),
        "no model request for a blocked prompt",
    );
    c.that(
        l.out.stdout.contains("PROMPT-BLOCKED") || l.out.stderr.contains("PROMPT-BLOCKED"),
        format!("the reason is shown: {} {}", l.out.stdout, l.out.stderr),
    );
    check_recorded("blockprompt", &l.dumps, &l.sb);
    c.done("blockprompt");
}

/// Trust: in `-p`, an untrusted folder is refused before anything runs (exit 55): no user or
/// project hook, no model request.
fn untrusted_folder_runs_nothing() {
    let Some(l) = live("untrusted", &["--yolo"], &[], |sb| {
        sb.user_settings(Value::Object(record_everything(sb, "")));
        sb.project_settings(Value::Object(record_everything(sb, "project-")));
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(l.out.status == Some(55), format!("exit {:?}", l.out.status));
    c.that(
        l.out.stderr.contains("not running in a trusted directory"),
        format!("stderr: {}", l.out.stderr),
    );
    c.that(l.dumps.is_empty(), format!("no hook ran: {:?}", l.labels()));
    c.that(l.model.requests().is_empty(), "no model request");
    c.that(
        !l.sb.home.join(".gemini/trusted_hooks.json").exists(),
        "nothing acknowledged",
    );
    c.done("untrusted");
}

/// Trust: `~/.gemini/trustedFolders.json` trusting the folder, once with a comment (read:
/// the project's hooks run) and once with a trailing comma. Gemini reads the file with comments
/// only (bundle: `JSON.parse(stripJsonComments(…))`), and one it cannot parse stops the CLI
/// before any hook (`FatalConfigError`). `hookx doctor --host gemini`, asked before each run,
/// must say the project's file fires exactly when its hooks ran (on `d79a14b` it read the
/// record loosely and said "fires" for the trailing comma).
fn a_folder_record_gemini_cannot_read_trusts_nothing() {
    let mut c = Checks::default();
    for comma in [false, true] {
        let mut said = String::new();
        let Some(l) = live("untrusted", &["--yolo"], &[], |sb| {
            sb.user_settings(Value::Object(record_everything(sb, "")));
            sb.project_settings(Value::Object(record_everything(sb, "project-")));
            let folder = json!(sb.project.display().to_string());
            let text = match comma {
                false => format!("// mine\n{{\n  {folder}: \"TRUST_FOLDER\"\n}}\n"),
                true => format!("{{\n  {folder}: \"TRUST_FOLDER\",\n}}\n"),
            };
            sb.write("home/.gemini/trustedFolders.json", &text);
            let out = common::hookx_at(
                &sb.project,
                &sb.home,
                &["doctor", "--host", "gemini", "--format", "json"],
            );
            said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        }) else {
            return;
        };
        let ran = l.labels().iter().any(|label| label.starts_with("project-"));
        c.that(
            ran != comma,
            format!(
                "trailing comma {comma}: project hooks ran {ran}; exit {:?}: {}",
                l.out.status, l.out.stderr
            ),
        );
        if comma {
            c.that(
                l.out.stderr.contains("Please fix the configuration file"),
                format!("stderr: {}", l.out.stderr),
            );
        }
        let report: Value = serde_json::from_str(&said).unwrap_or_default();
        let status = report["files"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|f| f["file"] == ".gemini/settings.json")
            .flat_map(|f| f["hosts"].as_array().into_iter().flatten())
            .find(|l| l["host"] == "gemini")
            .map(|l| l["status"].clone());
        c.that(
            status.as_ref().map(|s| s == "fires") == Some(ran),
            format!("trailing comma {comma}: doctor says {status:?}; project hooks ran {ran}"),
        );
    }
    c.done("untrusted");
}

/// Trust: `--skip-trust` lets `-p` run in an untrusted folder, but the project's settings were
/// already read as untrusted: user hooks run, project hooks do not (and nothing is warned of or
/// acknowledged), and the hooks inherit the `GEMINI_CLI_TRUST_WORKSPACE=true` it sets: no proof
/// of trust on hookx's run path (`double_runs::a_variable_that_trusts_the_folder_does_not_let_a_
/// copy_gemini_never_loaded_stand_in`). Also: AfterAgent exit 2 with stderr continues the turn
/// like a JSON block.
fn skip_trust_drops_project_hooks() {
    let Some(l) = live("skiptrust", &["--skip-trust"], &[], |sb| {
        let mut user = record_everything(sb, "");
        // What the hooks inherit: the variable `--skip-trust` set after the settings were read.
        let probe = format!(
            "printf %s \"$GEMINI_CLI_TRUST_WORKSPACE\" > {}/trust-var.txt",
            sb.root.display()
        );
        user["SessionStart"]
            .as_array_mut()
            .unwrap()
            .push(json!({"hooks": [{"type": "command", "command": probe}]}));
        sb.user_settings(Value::Object(user));
        sb.project_settings(Value::Object(record_everything(sb, "project-")));
        let once = r#""stop_hook_active":false"#;
        sb.answer("AfterAgent", "a", once, "", "STOP-EXIT2", 2);
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    c.that(l.count("SessionStart") == 1, "user hooks run");
    let inherited = std::fs::read_to_string(l.sb.root.join("trust-var.txt")).unwrap_or_default();
    c.that(
        inherited == "true",
        format!("the hooks get GEMINI_CLI_TRUST_WORKSPACE=true: {inherited:?}"),
    );
    c.that(
        !l.labels().iter().any(|l| l.starts_with("project-")),
        format!("no project hook: {:?}", l.labels()),
    );
    c.that(
        !l.out.stderr.contains("project-level hooks"),
        "no project-hook warning",
    );
    let continued = l.model.turns_of("skiptrust").iter().any(|t| {
        server::user_texts(t)
            .last()
            .is_some_and(|u| u == "STOP-EXIT2")
    });
    c.that(
        continued && l.count_with("AfterAgent", r#""stop_hook_active":true"#) == 1,
        "AfterAgent exit 2: the stderr is the next prompt",
    );
    c.done("skiptrust");
}

/// A project settings file that is not JSON (a trailing comma) stops the client before
/// anything runs (exit 52), naming the file and the offset.
fn invalid_project_settings_stop_the_client() {
    let Some(l) = live("invalid", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        sb.user_settings(Value::Object(record_everything(sb, "")));
        let hooks = json!({"SessionStart": [group(sb, None, "project-SessionStart")]});
        let text = format!("{{\"hooks\": {hooks},}}");
        sb.write("project/.gemini/settings.json", &text);
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(l.out.status == Some(52), format!("exit {:?}", l.out.status));
    c.that(
        l.out.stderr.contains(".gemini/settings.json: ") && l.out.stderr.contains("at position"),
        format!("stderr names the file: {}", l.out.stderr),
    );
    c.that(l.dumps.is_empty(), format!("no hook ran: {:?}", l.labels()));
    c.that(l.model.requests().is_empty(), "no model request");
    c.done("invalid");
}

/// A settings file: `extra` plus a SessionStart recorder labelled `label`.
fn session_start_settings(sb: &Sandbox, label: &str, extra: &Value) -> String {
    let mut settings = extra.clone();
    settings["hooks"] = json!({"SessionStart": [group(sb, None, label)]});
    serde_json::to_string_pretty(&settings).unwrap()
}

/// `hookx ARGS… --project P --home H` with `root` standing in for `/`.
fn hookx_managed(sb: &Sandbox, root: &std::path::Path, args: &[&str]) -> std::process::Output {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args(args)
        .arg("--project")
        .arg(&sb.project)
        .arg("--home")
        .arg(&sb.home)
        .env("HOME", &sb.home)
        .env("HOOKX_MANAGED_ROOT", root)
        .output()
        .unwrap();
    assert!(out.status.success(), "hookx {args:?}: {out:?}");
    out
}

/// The labels of the SessionStart handlers `hookx list --host gemini --format json` says Gemini
/// runs, with `root` standing in for `/`, once hookx trusts the user's and project's files.
fn listed_session_start(sb: &Sandbox, root: &std::path::Path) -> Vec<String> {
    hookx_managed(sb, root, &["trust", "--yes"]);
    let out = hookx_managed(sb, root, &["list", "--host", "gemini", "--format", "json"]);
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let mut labels: Vec<String> = rows
        .iter()
        .filter(|r| r["event"] == "SessionStart" && r["run"] == "native")
        .filter_map(|r| Some(r["handler"].as_str()?.rsplit(' ').next()?.to_string()))
        .collect();
    labels.sort();
    labels
}

/// Whether Gemini CLI 0.61.0 reads system settings below `dir`: it skips them with a "Security
/// Warning" unless the file and every folder above it are owned by root and not writable by
/// group or others.
fn admin_owned(dir: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    dir.ancestors()
        .all(|d| std::fs::metadata(d).is_ok_and(|m| m.uid() == 0 && m.mode() & 0o022 == 0))
}

/// The path for system settings (`GEMINI_CLI_SYSTEM_SETTINGS_PATH`, standing in for
/// `/etc/gemini-cli/settings.json`, not written yet) in a fresh folder that root owns on a
/// root-owned path: the build's own temporary folder, else `/run` when a clone sits below a
/// folder others may write (Gemini would skip the file there). The folder (removed when
/// dropped) and the path; `None`, a skip (`test` fails under `HOOKX_LIVE=require`), without one.
fn root_owned_system_settings(test: &str) -> Option<(tempfile::TempDir, std::path::PathBuf)> {
    let base = [env!("CARGO_TARGET_TMPDIR"), "/run"]
        .into_iter()
        .find(|b| admin_owned(std::path::Path::new(b)))
        .unwrap_or(env!("CARGO_TARGET_TMPDIR"));
    let root = tempfile::tempdir_in(base).unwrap();
    if !admin_owned(root.path()) {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "{test} needs a folder that root owns on a root-owned path"
        );
        eprintln!("skip: Gemini CLI reads system settings only from root-owned folders");
        return None;
    }
    let dir = root.path().join("etc/gemini-cli");
    std::fs::create_dir_all(&dir).unwrap();
    Some((root, dir.join("settings.json")))
}

/// System settings (`GEMINI_CLI_SYSTEM_SETTINGS_PATH`, standing in for
/// `/etc/gemini-cli/settings.json`) and the `system-defaults.json` beside them: their hooks run
/// beside the user's and the project's, and `hooksConfig.enabled` is one merged flag (system
/// over user over system defaults) that turns every hook off, system ones included.
/// `hookx list --host gemini` (with `HOOKX_MANAGED_ROOT`) lists what Gemini ran.
fn system_settings_hooks_run() {
    let off = json!({"hooksConfig": {"enabled": false}});
    let on = json!({"hooksConfig": {"enabled": true}});
    let none = json!({});
    let all: &[&str] = &["project", "system", "system-defaults", "user"];
    // (system settings, user settings, system defaults, what Gemini CLI 0.61.0 ran)
    let cases: [(&Value, &Value, &Value, &[&str]); 5] = [
        (&none, &none, &none, all),
        (&off, &none, &none, &[]),
        (&none, &off, &none, &[]),
        (&on, &off, &none, all),
        (&none, &on, &off, all),
    ];
    for (system, user, defaults, want) in cases {
        let Some((root, settings)) = root_owned_system_settings("system_settings_hooks_run") else {
            return;
        };
        let settings_var = settings.display().to_string();
        let env = [("GEMINI_CLI_SYSTEM_SETTINGS_PATH", settings_var.as_str())];
        let Some(l) = live("system", &[], &env, |sb| {
            sb.trust_folder();
            std::fs::write(&settings, session_start_settings(sb, "system", system)).unwrap();
            std::fs::write(
                settings.with_file_name("system-defaults.json"),
                session_start_settings(sb, "system-defaults", defaults),
            )
            .unwrap();
            sb.user_settings_with(
                json!({"SessionStart": [group(sb, None, "user")]}),
                user.clone(),
            );
            sb.project_settings(json!({"SessionStart": [group(sb, None, "project")]}));
        }) else {
            return;
        };
        let case = format!("system {system}, user {user}, defaults {defaults}");
        assert_eq!(l.out.status, Some(0), "{case}: {}", l.out.stderr);
        let mut ran: Vec<String> = l.labels().iter().map(|s| s.to_string()).collect();
        ran.sort();
        assert_eq!(ran, want, "{case}: Gemini ran other hooks than recorded");
        assert_eq!(
            listed_session_start(&l.sb, root.path()),
            ran,
            "{case}: hookx list --host gemini disagrees with Gemini"
        );
    }
}

/// A system settings file, or system defaults, that someone other than root could have written
/// (the file not root's, or a folder above it writable by its group) is skipped by Gemini CLI
/// with a "Security Warning", and `hookx list --host gemini` leaves its hooks out too.
fn system_settings_others_could_write_are_skipped() {
    use std::os::unix::fs::PermissionsExt;
    let none = json!({});
    // (the fault, what Gemini CLI 0.61.0 ran)
    let cases: [(&str, &[&str]); 4] = [
        ("none", &["project", "system", "system-defaults", "user"]),
        (
            "settings file not root's",
            &["project", "system-defaults", "user"],
        ),
        ("folder group-writable", &["project", "user"]),
        // Gemini does not start: "Error in …: … Please fix the configuration file(s)".
        ("settings file does not parse", &[]),
    ];
    for (fault, want) in cases {
        let base = [env!("CARGO_TARGET_TMPDIR"), "/run"]
            .into_iter()
            .find(|b| admin_owned(std::path::Path::new(b)))
            .unwrap_or(env!("CARGO_TARGET_TMPDIR"));
        let root = tempfile::tempdir_in(base).unwrap();
        if !admin_owned(root.path()) || !rustix::process::geteuid().is_root() {
            assert!(
                std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
                "system_settings_others_could_write_are_skipped needs root and a root-owned path"
            );
            eprintln!("skip: needs root (to give files away) and a root-owned path");
            return;
        }
        let dir = root.path().join("etc/gemini-cli");
        std::fs::create_dir_all(&dir).unwrap();
        let settings = dir.join("settings.json");
        let settings_var = settings.display().to_string();
        let env = [("GEMINI_CLI_SYSTEM_SETTINGS_PATH", settings_var.as_str())];
        let Some(l) = live("system", &[], &env, |sb| {
            sb.trust_folder();
            std::fs::write(&settings, session_start_settings(sb, "system", &none)).unwrap();
            std::fs::write(
                dir.join("system-defaults.json"),
                session_start_settings(sb, "system-defaults", &none),
            )
            .unwrap();
            sb.user_settings_with(
                json!({"SessionStart": [group(sb, None, "user")]}),
                none.clone(),
            );
            sb.project_settings(json!({"SessionStart": [group(sb, None, "project")]}));
            match fault {
                "settings file not root's" => {
                    std::os::unix::fs::chown(&settings, Some(1000), Some(1000)).unwrap()
                }
                "folder group-writable" => {
                    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o775)).unwrap()
                }
                "settings file does not parse" => {
                    std::fs::write(&settings, "{\"hooks\": tru").unwrap()
                }
                _ => {}
            }
        }) else {
            return;
        };
        if want.is_empty() {
            assert!(
                l.out.status != Some(0) && l.out.stderr.contains("Please fix the configuration"),
                "{fault}: Gemini started: {:?} {}",
                l.out.status,
                l.out.stderr
            );
        } else {
            assert_eq!(l.out.status, Some(0), "{fault}: {}", l.out.stderr);
        }
        let mut ran: Vec<String> = l.labels().iter().map(|s| s.to_string()).collect();
        ran.sort();
        assert_eq!(ran, want, "{fault}: Gemini ran other hooks than recorded");
        assert_eq!(
            listed_session_start(&l.sb, root.path()),
            ran,
            "{fault}: hookx list --host gemini disagrees with Gemini"
        );
    }
}

/// Records or checks the payloads of the user-scope recorders (labelled with the bare event
/// name) in `tests/fixtures/recorded/gemini-0.61.0/`.
fn check_recorded(scenario: &str, dumps: &[client::Dump], sb: &Sandbox) {
    let recording = recorded::Recording {
        client: "gemini-cli",
        version: client::VERSION,
        folder: "gemini",
        host: "gemini",
        events: EVENTS,
        // What Gemini CLI adds for hooks, not what the run was given.
        relevant_env: |key| {
            (key.starts_with("GEMINI_") || key.starts_with("CLAUDE_"))
                && !client::GIVEN_ENV.contains(&key)
        },
        placeholders: vec![
            (sb.project.display().to_string(), "<project>"),
            (sb.home.display().to_string(), "<home>"),
        ],
    };
    let seen: Vec<recorded::Seen> = dumps
        .iter()
        .map(|d| recorded::Seen {
            label: &d.label,
            raw: &d.raw,
            env: &d.env,
            cwd: &d.cwd,
        })
        .collect();
    recording.check(scenario, &seen, &[]);
}

/// Hook files with `//` or `/* */` comments or a trailing comma, each in its own run beside a
/// plain user settings file with a `control` recorder (Gemini CLI 0.61.0). `hookx list --host
/// gemini`, asked before the run, must list the `probe` exactly when Gemini runs it.
/// Settings are read with comments (`strip-json-comments`); a trailing comma in them stops the
/// CLI (exit 52). An extension's `hooks/hooks.json` with either is dropped without a word.
fn hook_files_with_comments_or_trailing_commas() {
    use json_syntax::Variant;
    // Per file: what runs with each variant (the control alone when the file is dropped,
    // nothing when the CLI stops).
    let expect = |file: &str, variant: Variant| -> &[&str] {
        match (file, variant) {
            (_, Variant::Plain) => &["control", "probe"],
            ("settings", Variant::TrailingComma) => &[],
            ("settings", _) => &["control", "probe"],
            _ => &["control"],
        }
    };
    let mut c = Checks::default();
    for file in ["settings", "extension"] {
        for variant in json_syntax::VARIANTS {
            let mut listed = Err(String::new());
            let Some(l) = live("syntax", &["--yolo"], &[], |sb| {
                sb.trust_folder();
                sb.user_settings(json!({"SessionStart": [group(sb, None, "control")]}));
                let text =
                    variant.text(&json!({"hooks": {"SessionStart": [group(sb, None, "probe")]}}));
                if file == "extension" {
                    sb.write(
                        "home/.gemini/extensions/probe/gemini-extension.json",
                        &json!({"name": "probe", "version": "1.0.0"}).to_string(),
                    );
                    sb.write("home/.gemini/extensions/probe/hooks/hooks.json", &text);
                } else {
                    sb.write("project/.gemini/settings.json", &text);
                }
                listed = json_syntax::hookx_native(
                    (&sb.home, &sb.project),
                    "gemini",
                    "SessionStart",
                    &["control", "probe"],
                );
            }) else {
                return;
            };
            let mut ran: Vec<String> = l.dumps.iter().map(|d| d.label.clone()).collect();
            ran.sort();
            let what = format!("{file} with {variant:?}");
            let expected = expect(file, variant);
            c.that(
                ran == expected,
                format!("{what}: ran {ran:?}, expected {expected:?}"),
            );
            let exit = if ran.is_empty() { 52 } else { 0 };
            c.that(
                l.out.status == Some(exit),
                format!("{what}: exit {:?}", l.out.status),
            );
            // Not modelled: a user or project settings file that does not parse stops the CLI
            // (hookx models that for policy files only), so hookx still lists the control.
            let hookx_expected: &[&str] = match (file, variant) {
                ("settings", Variant::TrailingComma) => &["control"],
                _ => expected,
            };
            c.that(
                listed
                    .as_deref()
                    .is_ok_and(|listed| listed == hookx_expected),
                format!("{what}: Gemini ran {ran:?}, hookx lists {listed:?}"),
            );
        }
    }
    c.done("syntax");
}

/// A trusted project's `.gemini/.env` reaches the hooks of the user's `~/.gemini/settings.json`
/// (attacks row 97): Gemini sets each variable of it not already set (its `loadEnvironment`),
/// so `BASH_ENV` (or `LD_PRELOAD`) from the repository reaches the user's hooks, hookx included,
/// while `PATH` (always set) does not. hookx cannot keep it out; its doctor says it on the
/// user's files.
fn a_projects_env_file_reaches_the_users_hooks() {
    let Some(l) = live("story", &["--yolo"], &[], |sb| {
        let probe = sb.root.join("probe.log");
        sb.user_settings(
            json!({"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command",
            "command": format!("echo \"PATH=$PATH BASH_ENV=$BASH_ENV\" >> '{}'", probe.display())}]}]}),
        );
        sb.trust_folder();
        sb.write(
            "project/.gemini/.env",
            "PATH=/repo-tools:/usr/bin:/bin\nBASH_ENV=/repo-bashenv\n",
        );
    }) else {
        return;
    };
    let mut c = Checks::default();
    let probe = std::fs::read_to_string(l.sb.root.join("probe.log")).unwrap_or_default();
    c.that(
        probe.contains("BASH_ENV=/repo-bashenv") && !probe.contains("/repo-tools"),
        format!("the project's BASH_ENV reached the user's hook, its PATH not: {probe}"),
    );
    let out = common::hookx_at(&l.sb.project, &l.sb.home, &["doctor", "--host", "gemini"])
        .get_output()
        .clone();
    let report = String::from_utf8_lossy(&out.stdout);
    c.that(
        report.contains(".gemini/.env sets `BASH_ENV` for every hook Gemini runs")
            && !report.contains("sets `PATH`"),
        format!("doctor says it: {report}"),
    );
    c.done("story");
}

/// A real project file (5throck/co-safety's `.gemini/settings.json`): a SessionStart handler
/// written straight into the event's array, with no `{hooks: […]}` definition around it, beside
/// a BeforeTool definition. Gemini CLI 0.61.0 discards the bare entry and runs the rest;
/// `doctor --host gemini` must say so: the bare entry an error no rule comes of, the BeforeTool
/// rule fires (attacks row 923).
fn a_bare_handler_beside_a_definition_is_left_out_alone() {
    let Some(l) = live("story", &["--yolo"], &[], |sb| {
        sb.project_settings(json!({
            "SessionStart": [{"type": "command", "command": sb.dumper("bare"),
                "statusMessage": "Configuring git hooks..."}],
            "BeforeTool": [group(sb, Some("write_file|run_shell_command"), "guard")]
        }));
        sb.user_settings(json!({}));
        sb.trust_folder();
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.count("bare") == 0 && l.count("guard") == 2,
        format!(
            "bare {}, guard {} (of 2 tool calls); exit {:?}: {}",
            l.count("bare"),
            l.count("guard"),
            l.out.status,
            l.out.stderr
        ),
    );
    let out = common::hookx_at(
        &l.sb.project,
        &l.sb.home,
        &["doctor", "--host", "gemini", "--format", "json"],
    )
    .get_output()
    .clone();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    // By line: the bare entry is line 4, the BeforeTool definition line 11.
    let rules: Vec<(u64, Value)> = report["files"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|f| f["rules"].as_array().into_iter().flatten())
        .map(|r| {
            (
                r["line"].as_u64().unwrap_or(0),
                r["hosts"][0]["status"].clone(),
            )
        })
        .collect();
    let said = report.to_string();
    c.that(
        rules == [(11, json!("fires"))]
            && said.contains("4:7: a rule needs a `hooks` array of handlers"),
        format!("doctor: {rules:?}: {said}"),
    );
    c.done("story");
}

/// Attacks row 1102: three installed extensions with a BeforeTool guard each: `off` turned off
/// for the project's folder as `gemini extensions disable off --scope workspace` writes it
/// (`!<project>/*` in `~/.gemini/extensions/extension-enablement.json`), `home` turned off as
/// the user scope writes it (`!<home>/*`: the sandbox's project is not below its home), `on`
/// with no rule. Gemini runs `on`'s and `home`'s guards and never `off`'s; `doctor` says each
/// as Gemini runs it (it said all three "fires").
fn an_extension_turned_off_for_the_folder_runs_no_hook() {
    let Some(l) = live("story", &["--yolo"], &[], |sb| {
        for name in ["off", "home", "on"] {
            let guard = group(sb, Some("write_file|run_shell_command"), name);
            extension(sb, name, json!({"BeforeTool": [guard]}));
        }
        let rules = json!({
            "off": {"overrides": [format!("!{}/*", sb.project.display())]},
            "home": {"overrides": [format!("!{}/*", sb.home.display())]},
        });
        sb.write(
            "home/.gemini/extensions/extension-enablement.json",
            &rules.to_string(),
        );
        sb.user_settings(json!({}));
        sb.trust_folder();
    }) else {
        return;
    };
    let mut c = Checks::default();
    let ran = [l.count("off"), l.count("home"), l.count("on")];
    c.that(
        ran == [0, 2, 2],
        format!(
            "off, home, on ran {ran:?} (of 2 tool calls); exit {:?}: {}",
            l.out.status, l.out.stderr
        ),
    );
    let out = common::hookx_at(
        &l.sb.project,
        &l.sb.home,
        &["doctor", "--host", "gemini", "--format", "json"],
    )
    .get_output()
    .clone();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let mut said: Vec<(String, Value)> = report["files"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|f| {
            let file = f["file"].as_str().unwrap_or("").to_string();
            let rules = f["rules"].as_array().cloned().unwrap_or_default();
            rules
                .into_iter()
                .map(move |r| (file.clone(), r["hosts"][0]["status"].clone()))
        })
        .filter(|(file, _)| file.contains("/extensions/"))
        .map(|(file, status)| {
            let name = file.split("/extensions/").nth(1).unwrap_or("");
            (name.split('/').next().unwrap_or("").to_string(), status)
        })
        .collect();
    said.sort_by(|a, b| a.0.cmp(&b.0));
    c.that(
        said == [
            ("home".to_string(), json!("fires")),
            ("off".to_string(), json!("blocked")),
            ("on".to_string(), json!("fires")),
        ],
        format!("doctor: {said:?}: {report}"),
    );
    c.done("story");
}

/// Where Gemini CLI 0.61.0 looks for its variables file (`findEnvFile`: in each folder from
/// the project up to `/`, `.gemini/.env` then `.env`, the first found; then `~/.gemini/.env`,
/// `~/.env`): a `.env` in the folder above the project wins over the home's; the project's
/// own over one above it. Each case's file sets `BASH_ENV`, which reaches the user's hook;
/// doctor names the file Gemini loaded, and says nothing of the home's own (the user's).
fn an_env_file_above_the_project_reaches_the_users_hooks() {
    let mut c = Checks::default();
    // (files below the sandbox's root with the BASH_ENV each sets, the one the hook sees,
    // the file doctor names: `None` for the home's)
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, Option<&'a str>);
    let cases: &[Case] = &[
        (
            &[
                (".env", "/parent-env"),
                ("home/.gemini/.env", "/home-gemini"),
            ],
            "/parent-env",
            Some(".env"),
        ),
        (
            &[
                ("project/.env", "/project-env"),
                (".gemini/.env", "/parent-gemini"),
            ],
            "/project-env",
            Some("project/.env"),
        ),
        (
            &[
                ("home/.gemini/.env", "/home-gemini"),
                ("home/.env", "/home-env"),
            ],
            "/home-gemini",
            None,
        ),
    ];
    for (files, seen, named) in cases {
        let Some(l) = live("story", &["--yolo"], &[], |sb| {
            let probe = sb.root.join("probe.log");
            sb.user_settings(
                json!({"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command",
                "command": format!("echo \"BASH_ENV=$BASH_ENV\" >> '{}'", probe.display())}]}]}),
            );
            sb.trust_folder();
            for (rel, value) in *files {
                sb.write(rel, &format!("BASH_ENV={value}\n"));
            }
        }) else {
            return;
        };
        let probe = std::fs::read_to_string(l.sb.root.join("probe.log")).unwrap_or_default();
        c.that(
            probe.lines().next() == Some(&format!("BASH_ENV={seen}")),
            format!("{files:?}: the hook saw BASH_ENV={seen}: {probe}"),
        );
        let out = common::hookx_at(&l.sb.project, &l.sb.home, &["doctor", "--host", "gemini"])
            .get_output()
            .clone();
        let report = String::from_utf8_lossy(&out.stdout);
        let said = report.contains("sets `BASH_ENV` for every hook Gemini runs");
        match named {
            Some(rel) => {
                let path = l.sb.root.join(rel);
                let shown = path.strip_prefix(&l.sb.project).unwrap_or(&path).display();
                c.that(
                    said && report.contains(&format!("{shown} sets `BASH_ENV`")),
                    format!("{files:?}: doctor names {shown}: {report}"),
                );
            }
            None => c.that(
                !said,
                format!("{files:?}: doctor says nothing of the home's file: {report}"),
            ),
        }
    }
    c.done("story");
}

/// A project's `"hooksConfig": {"enabled": false}` is one merged flag (gemini-facts.md): it
/// turns off the hooks of the user's `~/.gemini/settings.json` too, hookx's user route with them
/// (attacks row 96): the user's trusted Claude guard, run through that route, does not run.
/// hookx cannot make Gemini call it; its doctor, asked in the same sandbox, says so.
fn a_projects_hooks_switch_turns_off_hookxs_user_route_too() {
    let mut c = Checks::default();
    for off in [false, true] {
        let Some(l) = live("story", &["--yolo"], &[], |sb| {
            sb.user_settings(json!({}));
            sb.trust_folder();
            let log = sb.root.join("guard.log");
            let guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                "command": format!("echo ran >> '{}'; echo USER-GUARD-SAYS-NO >&2; exit 2", log.display())}]}]}});
            let file = sb.write("home/.claude/settings.json", &guard.to_string());
            common::hookx_at(&sb.project, &sb.home, &["trust", file.to_str().unwrap()]).success();
            common::hookx_at(
                &sb.project,
                &sb.home,
                &["install", "--host", "gemini", "--scope", "user"],
            )
            .success();
            if off {
                sb.write(
                    "project/.gemini/settings.json",
                    r#"{"hooksConfig": {"enabled": false}}"#,
                );
            }
        }) else {
            return;
        };
        let ran = l.sb.root.join("guard.log").exists();
        c.that(ran != off, format!("switch off {off}: the guard ran {ran}"));
        let out = common::hookx_at(
            &l.sb.project,
            &l.sb.home,
            &["doctor", "--host", "gemini", "--format", "json"],
        )
        .get_output()
        .clone();
        let report = String::from_utf8_lossy(&out.stdout);
        let said = report.contains("turns off every hook Gemini runs");
        c.that(
            said == off,
            format!("switch off {off}: doctor says so: {said}: {report}"),
        );
    }
    c.done("story");
}

/// Gemini runs handlers with the same `name:command` once per event, across scopes
/// (gemini-facts.md): a repository's `.gemini/settings.json` holding hookx's user route line
/// as written, with a timeout of 1 ms or a matcher that never fires, does not take the
/// user's route's place (Gemini CLI 0.61.0 keeps the user's definition; attacks row 162): the
/// user's trusted Claude guard, run through that route, still runs.
fn a_projects_copy_of_the_user_route_line() {
    let mut c = Checks::default();
    for variant in ["none", "timeout 1", "matcher", "both"] {
        let Some(l) = live("story", &["--yolo"], &[], |sb| {
            sb.user_settings(json!({}));
            sb.trust_folder();
            let log = sb.root.join("guard.log");
            let guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                "command": format!("echo ran >> '{}'; echo USER-GUARD-SAYS-NO >&2; exit 2", log.display())}]}]}});
            let file = sb.write("home/.claude/settings.json", &guard.to_string());
            common::hookx_at(&sb.project, &sb.home, &["trust", file.to_str().unwrap()]).success();
            common::hookx_at(
                &sb.project,
                &sb.home,
                &["install", "--host", "gemini", "--scope", "user"],
            )
            .success();
            let user: Value = serde_json::from_str(
                &std::fs::read_to_string(sb.home.join(".gemini/settings.json")).unwrap(),
            )
            .unwrap();
            let mut group = user["hooks"]["BeforeTool"][0].clone();
            assert!(group["hooks"][0]["command"].is_string(), "{user}");
            group["hooks"][0].as_object_mut().unwrap().remove("hookx");
            if matches!(variant, "timeout 1" | "both") {
                group["hooks"][0]["timeout"] = json!(1);
            }
            if matches!(variant, "matcher" | "both") {
                group["matcher"] = json!("^never_matches$");
            }
            if variant != "none" {
                sb.write(
                    "project/.gemini/settings.json",
                    &json!({"hooks": {"BeforeTool": [group]}}).to_string(),
                );
            }
        }) else {
            return;
        };
        let ran = l.sb.root.join("guard.log").exists();
        c.that(ran, format!("{variant}: the user's guard ran"));
    }
    c.done("story");
}

/// Attacks row 305: hookx installed for Gemini in both scopes, a trusted project Claude guard
/// only hookx runs under Gemini; the user turns hookx's user route off with Gemini's own
/// `/hooks disable`, which writes the route's command into the workspace's
/// `.gemini/settings.json` `hooksConfig.disabled` (bundle: `disableHook`, the Workspace scope
/// when the session has one). Gemini joins the lists of every scope and skips the user route;
/// the project route must not leave the call to it.
fn a_user_route_the_workspace_list_turns_off() {
    let mut c = Checks::default();
    for off in [false, true] {
        let Some(l) = live("story", &["--yolo"], &[], |sb| {
            sb.user_settings(json!({}));
            sb.trust_folder();
            let log = sb.root.join("guard.log");
            let guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                "command": format!("echo ran >> '{}'; echo PROJECT-GUARD-SAYS-NO >&2; exit 2", log.display())}]}]}});
            sb.write("project/.claude/settings.json", &guard.to_string());
            let own = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}});
            sb.write("home/.claude/settings.json", &own.to_string());
            common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
            for scope in ["user", "project"] {
                common::hookx_at(
                    &sb.project,
                    &sb.home,
                    &["install", "--host", "gemini", "--scope", scope],
                )
                .success();
            }
            if off {
                let user: Value = serde_json::from_str(
                    &std::fs::read_to_string(sb.home.join(".gemini/settings.json")).unwrap(),
                )
                .unwrap();
                let line = user["hooks"]["BeforeTool"][0]["hooks"][0]["command"].clone();
                assert!(line.is_string(), "{user}");
                let file = sb.project.join(".gemini/settings.json");
                let mut project: Value =
                    serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
                project["hooksConfig"] = json!({"disabled": [line]});
                std::fs::write(&file, project.to_string()).unwrap();
            }
        }) else {
            return;
        };
        let runs = std::fs::read_to_string(l.sb.root.join("guard.log"))
            .unwrap_or_default()
            .lines()
            .count();
        c.that(
            runs > 0,
            format!("user route off {off}: the guard ran {runs} times"),
        );
    }
    c.done("story");
}

/// Attacks row 333: the user turned hookx's user route off in one project the way Gemini's
/// `/hooks disable` does (its label in the workspace's `hooksConfig.disabled`), then hookx
/// moved and `install --scope user --hookx NEW` re-pointed the route. Gemini 0.61.0 matches a
/// handler's `name`, else its command (bundle `getHookName`): shown here with a route that has a
/// name and a list naming its command (it runs). Re-pointed, the route keeps its old label, so
/// the user's guard it runs stays off in that project (on `d79a14b` it ran again).
fn a_route_turned_off_in_a_project_stays_off_when_re_pointed() {
    let mut c = Checks::default();
    // (the project's list names the route, the route has a name of its own)
    for (off, named) in [(false, false), (true, false), (true, true)] {
        let Some(l) = live("story", &["--yolo"], &[], |sb| {
            sb.user_settings(json!({}));
            sb.trust_folder();
            let log = sb.root.join("guard.log");
            let own = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                "command": format!("echo ran >> '{}'", log.display())}]}]}});
            sb.write("home/.claude/settings.json", &own.to_string());
            common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
            let install = |dir: &str| {
                let hookx = sb.root.join(dir).join("hookx");
                if !hookx.exists() {
                    std::fs::create_dir_all(hookx.parent().unwrap()).unwrap();
                    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_hookx"), &hookx).unwrap();
                }
                let hookx = hookx.display().to_string();
                let args = [
                    "install", "--host", "gemini", "--scope", "user", "--hookx", &hookx,
                ];
                common::hookx_at(&sb.project, &sb.home, &args).success();
            };
            install("a");
            let file = sb.home.join(".gemini/settings.json");
            let mut user: Value =
                serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let route = &mut user["hooks"]["BeforeTool"][0]["hooks"][0];
            let line = route["command"].clone();
            assert!(line.is_string(), "{user}");
            if named {
                route["name"] = json!("my hookx route");
                std::fs::write(&file, user.to_string()).unwrap();
            }
            if off {
                let list = json!({"hooksConfig": {"disabled": [line]}});
                sb.write("project/.gemini/settings.json", &list.to_string());
            }
            if !named {
                install("b");
            }
        }) else {
            return;
        };
        let runs = std::fs::read_to_string(l.sb.root.join("guard.log"))
            .unwrap_or_default()
            .lines()
            .count();
        let user = std::fs::read_to_string(l.sb.home.join(".gemini/settings.json")).unwrap();
        c.that(
            (runs > 0) == (!off || named),
            format!("listed {off}, named {named}: the guard ran {runs} times; {user}"),
        );
    }
    c.done("story");
}

/// The README's migration story under Gemini CLI (issue 24): the Claude project converted to
/// Copilot, Gemini, Codex and Cursor, `hookx install --host gemini`, `hookx trust --yes`, one
/// prompt with a shell call and a write. Gemini runs its own (wrapped) copy; hookx must run
/// neither the Claude file nor the other copies: each rule runs once per event, with Claude's
/// payload. A personal Claude rule routed through hookx in the user scope
/// ([`common::story_user_route`]) puts `hookx run` on every event with all the copies in sight:
/// it runs that rule once per event and no copy.
fn migration_story_runs_each_rule_once() {
    let Some(l) = live("story", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        common::migration_story(
            &sb.project,
            &sb.home,
            "copilot,gemini,codex,cursor",
            "gemini",
        );
        common::story_user_route(&sb.project, &sb.home, "gemini");
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    for (ok, what) in common::story_copies_ran_once(&l.sb.project) {
        c.that(ok, what);
    }
    // The personal rule, through hookx's user route: once per event of the two tool calls.
    let once = [
        ("PostToolUse", 2),
        ("PreToolUse", 2),
        ("Stop", 1),
        ("UserPromptSubmit", 1),
    ];
    let (ok, what) = common::story_user_per_event(&l.sb.project, &once);
    c.that(ok, what);
    c.done("story");
}

/// The team loop under Gemini CLI (attacks row 620, [`common::team_loop`]): a Claude guard and
/// a Codex guard converted each into the other's file, hookx installed for Gemini in both
/// scopes, trusted; Gemini reads neither file, so its routes run each rule once, and the Codex
/// guard's deny is the call's result.
fn team_loop_runs_each_rule_once() {
    let Some(l) = live("team", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        common::team_loop(&sb.project, &sb.home, "gemini");
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    for label in common::TEAM_LABELS {
        let runs = common::story_runs(&l.sb.project, label);
        c.that(runs.len() == 1, format!("{label} ran once: {runs:#?}"));
    }
    let result = l.tool_result("team", common::STORY_DENIED);
    c.that(
        result.contains(common::STORY_REASON),
        format!("the Codex guard's deny is the call's result: {result}"),
    );
    c.done("team");
}

/// Attacks row 2110 (row 2101 live, [`common::synced_qwen_logger`]): a Qwen prompt logger kept
/// in `hooks/qwen.json`, synced into Qwen's, Gemini's, Copilot's and Codex's project files,
/// hookx installed for Qwen and Gemini in both scopes, trusted. Gemini runs its own copy
/// (`hookx exec --as qwen` on BeforeAgent); hookx's routes run neither the Qwen copy, which
/// carries the rule's record, nor another: once for the one prompt.
fn a_synced_qwen_logger_runs_once_per_prompt() {
    let Some(l) = live("team", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        common::synced_qwen_logger(&sb.project, &sb.home, &["qwen", "gemini"]);
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.exited(l.out.status, &l.out.stderr);
    let runs = common::story_runs(&l.sb.project, "qlog");
    c.that(runs.len() == 1, format!("qlog ran once: {runs:#?}"));
    c.done("team");
}

/// The four-file team loop under Gemini CLI (attacks rows 880-899, [`common::team_of_hosts`]):
/// hooks written for Claude, Gemini, Codex and Copilot, each file converted into the three
/// others', hookx installed for Gemini in both scopes, trusted. Gemini runs its own file (its
/// rules and the copies of the three others'), hookx's routes none of them: each rule once per
/// event, and the Codex guard's deny is the call's result.
fn team_of_four_runs_each_rule_once() {
    let Some(l) = live("team", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        common::team_of_hosts(&sb.project, &sb.home, "gemini", env!("CARGO_BIN_EXE_hookx"));
    }) else {
        return;
    };
    let mut wrong = common::team_once(
        &l.sb.project,
        &common::TEAM_HOSTS_LABELS,
        [1, 1, 1],
        (&[], 0),
    );
    if l.out.status != Some(0) {
        wrong.push(format!("exit {:?}: {}", l.out.status, l.out.stderr));
    }
    let result = l.tool_result("team", common::STORY_DENIED);
    if !result.contains(common::STORY_REASON) {
        wrong.push(format!(
            "the Codex guard's deny is the call's result: {result}"
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The team loop as a teammate without hookx finds it (attacks row 622,
/// [`common::team_without_hookx`]): both files converted into Gemini's with `--hookx hookx`, no
/// `hookx` on Gemini's `PATH`. Gemini runs only copies: each guard's copy denies the shell call
/// ("hookx not found"), the loggers' and Stop hooks' copies fail without blocking (BeforeAgent
/// and AfterAgent at exit 1): the prompt reaches the model and the turn ends after its call.
fn team_loop_without_hookx_fails_closed_only_on_the_guard() {
    let path = [("PATH", "/usr/local/bin:/usr/bin:/bin")];
    let Some(l) = live("team", &["--yolo"], &path, |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        common::team_without_hookx(&sb.project, &sb.home, "gemini", "gemini");
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    for label in common::TEAM_LABELS {
        let runs = common::story_runs(&l.sb.project, label);
        c.that(runs.is_empty(), format!("{label} ran: {runs:#?}"));
    }
    let result = l.tool_result("team", common::STORY_DENIED);
    c.that(
        result.contains("hookx not found"),
        format!("the guards' copies denied the call: {result}"),
    );
    let turns = l.model.turns_of("team").len();
    c.that(turns == 2, format!("one call, then the end: {turns} turns"));
    c.done("team");
}

/// The events hookx's own forms are probed on, and the rewrite they carry.
fn hookx_probed() -> (Vec<answers::Probed>, Value) {
    let probed = answers::probed(
        "gemini",
        &[("BeforeTool", "hxpre"), ("AfterTool", "hxpost")],
    );
    let rewrite = json!({"command": "printf x > r-<name>.txt", "description": "d"});
    (probed, rewrite)
}

/// The forms probed ([`form_probe::forms`]).
fn probe_forms() -> &'static [answers::Form] {
    static FORMS: std::sync::OnceLock<Vec<answers::Form>> = std::sync::OnceLock::new();
    FORMS.get_or_init(|| {
        let ask = r#"{"decision":"ask","reason":"R-NATIVEASK"}"#;
        form_probe::forms("BeforeTool", ask, &hookx_probed())
    })
}

/// Whether the form may end the run (`ask` does in `-p`, run 0.61.0; a stop): it is probed
/// in a run of its own.
fn alone(f: &answers::Form) -> bool {
    f.stdout.contains(r#""ask""#) || f.intent == Some(answers::Intent::Stop)
}

/// Every form hookx writes on BeforeTool and AfterTool, probed against the real client with
/// hookx out of the loop (the recorder prints the form) and checked against the answer book
/// (`answers.json`, see `live_common/answers.rs`); a form that may end the run runs alone,
/// with a call after it.
fn hookx_answer_forms() {
    let setup = |sb: &Sandbox, forms: &[&answers::Form]| {
        sb.trust_folder();
        let hooks: serde_json::Map<String, Value> = ["BeforeTool", "AfterTool"]
            .iter()
            .map(|e| (e.to_string(), json!([group(sb, None, e)])))
            .collect();
        sb.user_settings(Value::Object(hooks));
        for f in forms {
            let when = format!("o-{}.txt", f.name);
            sb.answer(&f.event, &f.name, &when, &f.stdout, &f.stderr, f.exit);
        }
    };
    let run = |scenario: &str, forms: &[&answers::Form]| {
        live(scenario, &["--yolo"], &[], |sb| setup(sb, forms))
    };
    let seen = |l: &Live, scenario: &str| (l.sb.project.clone(), l.sent(scenario));
    let Some(entries) = form_probe::probe(probe_forms(), alone, run, seen) else {
        return;
    };
    let version = client::VERSION;
    form_probe::settle("gemini-cli", version, "gemini", hookx_probed(), entries);
}

/// Attacks row 1681: a guard whose `timeout` (milliseconds) is past what a JavaScript timer
/// holds (2^31 - 1): Gemini CLI arms `setTimeout(kill, timeout)` with it as written. Whether the
/// user's guard that takes a second to deny still denies at each is recorded in
/// `tests/fixtures/timers/gemini-0.61.0.json`, which `validate` is checked against.
fn a_guards_timeout_past_the_timers_reach() {
    let mut c = Checks::default();
    let recorded = common::timer_forms("gemini-0.61.0");
    for (timeout, denies) in &recorded.forms {
        let Some(l) = live("team", &["--yolo"], &[], |sb| {
            let settings: Value = serde_json::from_str(
                &recorded.settings("sleep 1; echo R-TIMER-GUARD >&2; exit 2", timeout),
            )
            .unwrap();
            sb.user_settings(settings["hooks"].clone());
            sb.trust_folder();
        }) else {
            return;
        };
        let result = l.tool_result("team", common::STORY_DENIED);
        let denied = result.contains("R-TIMER-GUARD");
        c.that(
            denied == *denies,
            format!("timeout {timeout}: denied {denied}, recorded {denies}: {result}"),
        );
    }
    c.done("timer");
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    harness::main(
        "live_gemini",
        &[harness::client(
            "Gemini CLI",
            format!(
                "gemini-{}/node_modules/@google/gemini-cli/bundle/gemini.js",
                client::VERSION
            ),
        )],
        live_tests![
            several_hooks_answers_merge_as_simulate_says,
            matchers_fire_as_hookx_reads_them,
            lifecycle_events_fire_as_often_as_recorded,
            converted_corpus_configs,
            a_guards_timeout_past_the_timers_reach,
            a_claude_session_end_rule_keeps_claudes_budget,
            ground_truth_leftovers,
            a_claude_redaction_withholds_the_output_under_gemini,
            a_claude_scanner_reads_the_output_under_gemini,
            a_failed_call_runs_each_claude_rule_once_as_claude_would,
            a_projects_copy_of_the_user_route_line,
            a_route_whose_hookx_moved,
            a_route_a_newer_hookx_wrote,
            a_project_route_whose_hookx_is_gone,
            ground_truth_tools,
            mcp_names_under_gemini,
            a_converted_claude_mcp_deny_fires_under_gemini,
            ground_truth_deny,
            ground_truth_ask,
            hookx_answer_forms,
            ground_truth_model,
            ground_truth_model_block,
            ground_truth_blocked_prompt,
            untrusted_folder_runs_nothing,
            a_folder_record_gemini_cannot_read_trusts_nothing,
            skip_trust_drops_project_hooks,
            invalid_project_settings_stop_the_client,
            system_settings_hooks_run,
            system_settings_others_could_write_are_skipped,
            hook_files_with_comments_or_trailing_commas,
            routed::routed_handlers_of_every_dialect,
            routed::converted_claude_config,
            migration_story_runs_each_rule_once,
            team_loop_runs_each_rule_once,
            a_synced_qwen_logger_runs_once_per_prompt,
            team_of_four_runs_each_rule_once,
            team_loop_without_hookx_fails_closed_only_on_the_guard,
            a_user_route_the_workspace_list_turns_off,
            a_route_turned_off_in_a_project_stays_off_when_re_pointed,
            a_projects_hooks_switch_turns_off_hookxs_user_route_too,
            a_projects_env_file_reaches_the_users_hooks,
            an_env_file_above_the_project_reaches_the_users_hooks,
            both_scopes_get_one_event,
            a_bare_handler_beside_a_definition_is_left_out_alone,
            an_extension_turned_off_for_the_folder_runs_no_hook,
            a_wrapper_copy_beside_a_user_route_the_system_settings_turn_off,
            a_wrapped_claude_guard_runs_in_a_project_whose_path_has_a_space,
            a_trusted_guard_denies_when_gemini_starts_in_a_worktree,
            a_converted_async_handler_runs_in_the_background,
            a_routed_async_handler_runs_in_the_background,
            a_routed_async_handlers_answer_reaches_a_later_request,
            its_own_mcp_add_keeps_a_trusted_guard_trusted,
            its_own_settings_migration_keeps_a_trusted_guard_trusted,
            claude_projects_loop,
            a_session_writes_back_its_settings_without_a_route_installed_meanwhile,
        ],
    )
}

/// Attacks rows 1780-1799: how many times Gemini CLI fires each event in one session (a
/// prompt, two shell calls and a write, the answer; then `--resume latest` with a follow-up
/// prompt), a recorder on each in the user's settings: kept in `tests/fixtures/cadence/`, which
/// `tests/cadence_recorded.rs` checks hookx's tables against (row 1761: `PreCompress` fires
/// before every model request).
fn lifecycle_events_fire_as_often_as_recorded() {
    let Some(l) = live("cadence", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        sb.user_settings(Value::Object(record_everything(sb, "")));
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    let first = cadence::Run {
        run: "start".into(),
        prompts: 1,
        model_requests: l.model.turns_of("cadence").len(),
        tool_calls: 3,
        compactions: 0,
        fired: cadence::fired(l.dumps.iter().map(|d| d.label.as_str()), EVENTS),
    };
    let before = l.dumps.len();
    let requests = first.model_requests;
    let bin = client::binary().expect("found by live()");
    let out = l.sb.run(
        &bin,
        l.model.port,
        "and now the follow-up",
        &["--yolo", "--resume", "latest"],
        &[],
    );
    c.that(
        out.status == Some(0),
        format!("resume exit {:?}: {}", out.status, out.stderr),
    );
    let dumps = l.sb.dumps();
    let second = cadence::Run {
        run: "resume".into(),
        prompts: 1,
        model_requests: l.model.turns_of("cadence").len() - requests,
        tool_calls: 0,
        compactions: 0,
        fired: cadence::fired(dumps[before..].iter().map(|d| d.label.as_str()), EVENTS),
    };
    let now = cadence::Recording {
        client: "gemini-cli".into(),
        version: client::VERSION.into(),
        host: "gemini".into(),
        how: "-p --yolo, a trusted folder, the fake model server; then --resume latest".into(),
        runs: vec![first, second],
    };
    for d in cadence::settle(&format!("gemini-{}", client::VERSION), &now) {
        c.that(false, d);
    }
    c.done("cadence");
}

/// The claim gate (task "claims"): a recorder on every event in the user's
/// `~/.gemini/settings.json` (labelled by event) and one in the project's (`project-…`), one
/// session running the same shell command twice. Gemini CLI 0.61.0 hands both hooks of one event
/// the same payload (recorded in `scopes/pairs.json`), and two calls alike differ by
/// `timestamp` alone (milliseconds: no call id).
fn both_scopes_get_one_event() {
    let Some(l) = live("twice", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        sb.user_settings(Value::Object(record_everything(sb, "")));
        sb.project_settings(Value::Object(record_everything(sb, "project-")));
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
    let calls = scopes::alike_calls(&user, "BeforeTool", "twice-call");
    let apart = calls.get(..2).map(|c| scopes::differing(c[0], c[1]));
    c.that(
        apart.as_deref() == Some(&["timestamp".to_string()][..]),
        format!("two calls alike differ by: {apart:?}"),
    );
    scopes::record(
        &format!("gemini-{}", client::VERSION),
        "gemini",
        &user,
        &project,
        &[
            (l.sb.project.display().to_string(), "<project>"),
            (l.sb.home.display().to_string(), "<home>"),
        ],
    );
    c.done("both_scopes_get_one_event");
}

/// Attacks row 640 (row 605 under Gemini): a Claude wrapper (`./hookx-route.sh`, which runs
/// `hookx run --host claude`) converted into `.gemini/settings.json` (`hookx exec --host gemini
/// --as claude`), a project Cursor rule and one of the user's (each logging the host it ran
/// under), hookx's Gemini user route, and system settings (`$GEMINI_CLI_SYSTEM_SETTINGS_PATH`,
/// a root-owned file) whose `hooksConfig.disabled` names that route, or none. With the list,
/// Gemini runs the copy and not the route, so the route inside the copy must run the Cursor
/// rules (`claude`); without it the user route runs them (`gemini`); once each, one call.
fn a_wrapper_copy_beside_a_user_route_the_system_settings_turn_off() {
    let mut c = Checks::default();
    for listed in [false, true] {
        let Some((_root, settings)) = root_owned_system_settings(
            "a_wrapper_copy_beside_a_user_route_the_system_settings_turn_off",
        ) else {
            return;
        };
        let settings_var = settings.display().to_string();
        let env = [("GEMINI_CLI_SYSTEM_SETTINGS_PATH", settings_var.as_str())];
        let Some(l) = live("story", &["--yolo"], &env, |sb| {
            sb.user_settings(json!({}));
            sb.trust_folder();
            let log = sb.root.join("ran.log");
            common::a_wrapper_story(&sb.project, &sb.home, &log, "claude", true);
            common::wrapper_copy_converted(
                &sb.project,
                &sb.home,
                ".claude/settings.json",
                "gemini",
            );
            common::user_route_naming_this_hookx(&sb.project, &sb.home, "gemini");
            let user: Value = serde_json::from_str(
                &std::fs::read_to_string(sb.home.join(".gemini/settings.json")).unwrap(),
            )
            .unwrap();
            let route = &user["hooks"]["BeforeTool"][0]["hooks"][0];
            let label = route.get("name").unwrap_or(&route["command"]);
            assert!(label.is_string(), "{user}");
            let system = match listed {
                true => json!({"hooksConfig": {"disabled": [label]}}),
                false => json!({}),
            };
            std::fs::write(&settings, system.to_string()).unwrap();
        }) else {
            return;
        };
        let ran = common::sorted_lines(&l.sb.root.join("ran.log"));
        let host = if listed { "claude" } else { "gemini" };
        let expected = common::each_wrapper_rule_once(Some(host));
        c.that(
            ran == expected,
            format!(
                "listed {listed}: each rule once for one call: {ran:?}\n{}",
                l.out.stderr
            ),
        );
    }
    c.done("story");
}

/// Attacks rows 1080, 1082, 1084, and 1140 (row 1080 decided) under Gemini CLI 0.61.0: hookx
/// moved while Gemini's user route names it (the old file removed, or cut short at nothing),
/// the user's trusted Claude guard that Gemini runs only through that route; then `install`
/// run again from the new hookx. Gemini runs the route line with `bash -c`: while the home holds
/// a trust record, the route denies the call itself and the model gets its reason ("Tool
/// execution blocked: hookx could not check this tool call … hookx is not at …"); without
/// one (hookx and its state removed) the call runs. Installed again, the guard denies.
fn a_route_whose_hookx_moved() {
    let mut c = Checks::default();
    for state in ["gone", "empty", "gone, no trust record", "installed again"] {
        let Some(l) = live("story", &["--yolo"], &[], |sb| {
            sb.user_settings(json!({}));
            sb.trust_folder();
            let log = sb.root.join("guard.log");
            let guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                "command": format!("echo ran >> '{}'; echo USER-GUARD-SAYS-NO >&2; exit 2", log.display())}]}]}});
            let file = sb.write("home/.claude/settings.json", &guard.to_string());
            common::hookx_at(&sb.project, &sb.home, &["trust", file.to_str().unwrap()]).success();
            let install = |hookx: &str| {
                common::hookx_at(
                    &sb.project,
                    &sb.home,
                    &[
                        "install", "--host", "gemini", "--scope", "user", "--hookx", hookx,
                    ],
                )
                .success();
            };
            common::install_then_move_hookx(&sb.root, state.split(',').next().unwrap(), install);
            if state.ends_with("no trust record") {
                std::fs::remove_file(sb.home.join(".hookx/trust.json")).unwrap();
            }
        }) else {
            return;
        };
        let ran = l.sb.root.join("guard.log").exists();
        let result = l.tool_result("story", "story-bash");
        let denied = result.contains("USER-GUARD-SAYS-NO");
        let blocked = result.contains("Tool execution blocked");
        let told = result.contains("hookx is not at");
        let expected = match state {
            "installed again" => (true, true, true, false),
            "gone, no trust record" => (false, false, false, false),
            _ => (false, false, true, true),
        };
        c.that(
            (ran, denied, blocked, told) == expected,
            format!(
                "{state}: the guard ran {ran}, denied {denied}, the call blocked {blocked}, the \
                 route's reason told {told} (expected {expected:?}): {result}"
            ),
        );
    }
    c.done("story");
}

/// Attacks row 1341 under Gemini CLI 0.61.0: a project's route a newer hookx wrote (an option
/// this one does not know), a trusted project Claude guard, one shell call. With a trust record
/// in the home the call is blocked, the reason naming the hookx to upgrade; with none (nothing
/// could run) the call runs.
fn a_route_a_newer_hookx_wrote() {
    let mut c = Checks::default();
    for state in ["trust record", "no trust record"] {
        let Some(l) = live("story", &["--yolo"], &[], |sb| {
            sb.user_settings(json!({}));
            sb.trust_folder();
            let log = sb.root.join("guard.log");
            let guard = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                "command": format!("echo ran >> '{}'; echo GUARD-SAYS-NO >&2; exit 2", log.display())}]}]}});
            sb.write("project/.claude/settings.json", &guard.to_string());
            common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
            common::hookx_at(&sb.project, &sb.home, &["install", "--host", "gemini"]).success();
            let settings = sb.project.join(".gemini/settings.json");
            let text = std::fs::read_to_string(&settings).unwrap();
            let newer = text.replace(
                " run --host gemini",
                " run --option-of-tomorrow x --host gemini",
            );
            assert_ne!(newer, text, "no route in {text}");
            std::fs::write(&settings, newer).unwrap();
            if state == "no trust record" {
                std::fs::remove_file(sb.home.join(".hookx/trust.json")).unwrap();
            }
        }) else {
            return;
        };
        let ran = l.sb.root.join("guard.log").exists();
        let result = l.tool_result("story", "story-bash");
        let blocked = result.contains("Tool execution blocked");
        let told = result.contains("a newer hookx may have written this line");
        let expected = match state {
            "trust record" => (false, true, true),
            _ => (false, false, false),
        };
        c.that(
            (ran, blocked, told) == expected,
            format!(
                "{state}: the guard ran {ran}, the call blocked {blocked}, the route's reason \
                 told {told} (expected {expected:?}): {result}"
            ),
        );
    }
    c.done("story");
}

/// Attacks row 1143 under Gemini CLI 0.61.0: a project's routes (a teammate's clone, or hookx
/// moved) whose hookx is gone, for a trusted project Claude rule on `UserPromptSubmit` and one on
/// `PreToolUse`. A bare route exits 127 with bash's "No such file or directory" on stderr, which
/// Gemini reads as any failed hook with text at an exit other than 0 and 1: a block, so every
/// prompt was refused and no request reached the model. The routes now test their hookx first
/// and exit 0 where it is gone (row 622: what no hookx runs runs nowhere, and traps nobody):
/// the prompt reaches the model, and the `AfterAgent` route (a trusted `Stop` rule) keeps
/// nothing going.
fn a_project_route_whose_hookx_is_gone() {
    let Some(l) = live("story", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        let rules = json!({"hooks": {
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "true"}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}});
        sb.write("project/.claude/settings.json", &rules.to_string());
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::install_then_move_hookx(&sb.root, "gone", |hookx| {
            common::hookx_at(
                &sb.project,
                &sb.home,
                &["install", "--host", "gemini", "--hookx", hookx],
            )
            .success();
        });
    }) else {
        return;
    };
    let turns = l.model.turns_of("story").len();
    let said = format!("{}{}", l.out.stdout, l.out.stderr);
    let blocked = said.contains("execution blocked");
    let mut c = Checks::default();
    // The story's three steps, each one request: an `AfterAgent` route read as a block would
    // have kept the agent going with a request more.
    c.that(
        turns == 3 && !blocked,
        format!(
            "the prompt reached the model {turns} times, blocked {blocked}:\n{}",
            said.chars().take(3000).collect::<String>()
        ),
    );
    c.done("story");
}

/// Attacks row 1041: a Claude guard `"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh` converted
/// to Gemini with `--write` (wrapped: `hookx exec … -- '"$CLAUDE_PROJECT_DIR"/…'`), in a project
/// whose path has a space. Gemini CLI 0.61.0 writes the project's path, quoted, over
/// `$CLAUDE_PROJECT_DIR` in the command's text, single quotes or not: `hookx exec` got the
/// line in two words, the guard was not found (exit 127, a non-blocking error) and the call ran.
/// Now the copy names the variable where Gemini does not see it, and the guard's deny is the
/// call's result.
fn a_wrapped_claude_guard_runs_in_a_project_whose_path_has_a_space() {
    let Some(bin) = client::binary() else {
        return;
    };
    let sb = Sandbox::with_project("my project");
    sb.user_settings(json!({}));
    sb.trust_folder();
    let guard = common::write(
        &sb.project,
        ".claude/hooks/guard.sh",
        "#!/bin/sh\ncat > /dev/null\necho R1041-GUARD >&2\nexit 2\n",
    );
    std::fs::set_permissions(&guard, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    common::write(
        &sb.project,
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh"}]}]}})
        .to_string(),
    );
    common::hookx_clean(&sb.project)
        .env("HOME", &sb.home)
        .args([
            "convert",
            ".claude/settings.json",
            "--to",
            "gemini",
            "--write",
        ])
        .args(["--hookx", env!("CARGO_BIN_EXE_hookx")])
        .assert()
        .success();
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let out = sb.run(
        &bin,
        model.port,
        "SCENARIO:team do the work",
        &["--yolo"],
        &[],
    );
    let dumps = sb.dumps();
    let l = Live {
        sb,
        model,
        out,
        dumps,
    };
    l.keep("space");
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    let result = l.tool_result("team", common::STORY_DENIED);
    c.that(
        result.contains("R1041-GUARD"),
        format!("the guard's deny is the call's result: {result}"),
    );
    c.done("space");
}

/// Attacks row 1678: Gemini CLI 0.61.0 started in a git worktree of a checkout whose team
/// files are a Claude Bash guard, trusted there, and hookx's project route for Gemini,
/// committed. Gemini's own folder trust speaks first: with only the checkout in
/// `trustedFolders.json`, it refuses to start in the worktree (exit 55, nothing run); with
/// the worktree trusted as the user trusts a folder, the route runs hookx there, which follows
/// the checkout's record (rows 1660-1661): the guard's deny is the call's result.
fn a_trusted_guard_denies_when_gemini_starts_in_a_worktree() {
    let Some(bin) = client::binary() else {
        return;
    };
    let sb = Sandbox::new();
    sb.user_settings(json!({}));
    let checkout = sb.root.join("checkout");
    std::fs::create_dir_all(&checkout).unwrap();
    let git = |dir: &std::path::Path, args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .current_dir(dir)
            .env("HOME", &sb.home)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(&checkout, &["init", "-q"]);
    common::write(
        &checkout,
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
            "command": "cat > /dev/null; echo R1678-GUARD >&2; exit 2"}]}]}})
        .to_string(),
    );
    common::hookx_at(&checkout, &sb.home, &["install", "--host", "gemini"]).success();
    common::hookx_at(&checkout, &sb.home, &["trust", "--yes"]).success();
    git(&checkout, &["add", "-A"]);
    git(&checkout, &["commit", "-qm", "team hooks"]);
    // The worktree takes the sandbox's project folder, where Gemini is started.
    std::fs::remove_dir_all(&sb.project).unwrap();
    let tree = sb.project.display().to_string();
    git(&checkout, &["worktree", "add", "-q", &tree, "-b", "wt"]);
    let trust = |folders: &[&std::path::Path]| {
        let entries: serde_json::Map<String, Value> = folders
            .iter()
            .map(|f| (f.display().to_string(), json!("TRUST_FOLDER")))
            .collect();
        sb.write(
            "home/.gemini/trustedFolders.json",
            &serde_json::to_string_pretty(&Value::Object(entries)).unwrap(),
        );
    };
    let mut c = Checks::default();
    trust(&[&checkout]);
    let model = FakeModel::start(scripts, tree.clone());
    let out = sb.run(
        &bin,
        model.port,
        "SCENARIO:team do the work",
        &["--yolo"],
        &[],
    );
    c.that(
        out.status == Some(55) && model.requests().is_empty(),
        format!(
            "only the checkout trusted: Gemini refuses the worktree: exit {:?}: {}",
            out.status, out.stderr
        ),
    );
    trust(&[&checkout, &sb.project]);
    let model = FakeModel::start(scripts, tree);
    let out = sb.run(
        &bin,
        model.port,
        "SCENARIO:team do the work",
        &["--yolo"],
        &[],
    );
    let dumps = sb.dumps();
    let l = Live {
        sb,
        model,
        out,
        dumps,
    };
    l.keep("worktree");
    let result = l.tool_result("team", common::STORY_DENIED);
    c.that(
        l.out.status == Some(0) && result.contains("R1678-GUARD"),
        format!(
            "the worktree trusted: the guard's deny is the call's result: exit {:?}: {result}\n{}",
            l.out.status, l.out.stderr
        ),
    );
    c.done("worktree");
}

/// Attacks row 1241: the user's guard in `~/.gemini/settings.json` (and one in the project's
/// `.gemini/settings.json`, a folder Gemini trusts), trusted, run by hookx under Claude; then
/// `gemini mcp add --scope user` and `gemini mcp add` (the project's file, its default scope).
/// Gemini CLI 0.61.0 writes each file whole again with `mcpServers` (every object on its own
/// lines, a comment kept). Both guards still deny through hookx (before: "changed since it was
/// trusted", the call let through). Row 1242: in a folder Gemini does not trust, its `mcp add`
/// writes the project's file with `mcpServers` alone: the hooks in it are gone.
fn its_own_mcp_add_keeps_a_trusted_guard_trusted() {
    let Some(bin) = client::binary() else {
        return;
    };
    let mut c = Checks::default();
    let untrusted = Sandbox::new();
    let file = common::write(
        &untrusted.project,
        ".gemini/settings.json",
        r#"{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "exit 2"}]}]}}"#,
    );
    untrusted.command(&bin, &["mcp", "add", "r1242", "echo", "hi"]);
    let left = std::fs::read_to_string(&file).unwrap_or_default();
    c.that(
        left.contains("mcpServers") && !left.contains("hooks"),
        format!("gemini mcp add in a folder it does not trust dropped the hooks: {left}"),
    );
    let sb = Sandbox::new();
    sb.trust_folder();
    let [user, project] = trusted_guards(&sb, "R1241", ["", ""]);
    let before = [&user, &project].map(|f| std::fs::read_to_string(f).unwrap());
    for scope in [&["--scope", "user"][..], &[]] {
        let args = [&["mcp", "add"][..], scope, &["r1241", "echo", "hi"]].concat();
        let out = sb.command(&bin, &args);
        c.that(
            out.status.success(),
            format!("gemini {args:?}: {}", String::from_utf8_lossy(&out.stderr)),
        );
    }
    for (file, was) in [&user, &project].into_iter().zip(before) {
        let now = std::fs::read_to_string(file).unwrap();
        c.that(
            now != was && now.contains("mcpServers") && now.contains("// the user's guard"),
            format!("gemini wrote its MCP server into {}: {now}", file.display()),
        );
    }
    guards_deny_under_claude(&mut c, &sb, "R1241");
    c.done("mcp-add");
}

/// The user's guard (`// the user's guard`, a JSONC comment, and `extra` keys beside `hooks`)
/// in Gemini's user and project settings, denying `run_shell_command` with `ROW-USER` and
/// `ROW-PROJECT`, each trusted: the two files Gemini itself writes in the tests of its own
/// writes.
fn trusted_guards(sb: &Sandbox, row: &str, extra: [&str; 2]) -> [std::path::PathBuf; 2] {
    let guard = |reason: &str, extra: &str| {
        let extra = if extra.is_empty() {
            String::new()
        } else {
            format!(",\n  {extra}")
        };
        format!(
            "{{\n  // the user's guard\n  \"hooks\": {{\"BeforeTool\": [{{\"matcher\": \"run_shell_command\", \"hooks\": [{{\"type\": \"command\", \"command\": \"echo {reason} >&2; exit 2\"}}]}}]}}{extra}\n}}\n"
        )
    };
    let files = [
        common::write(
            &sb.home,
            ".gemini/settings.json",
            &guard(&format!("{row}-USER"), extra[0]),
        ),
        common::write(
            &sb.project,
            ".gemini/settings.json",
            &guard(&format!("{row}-PROJECT"), extra[1]),
        ),
    ];
    for file in &files {
        common::hookx_at(
            &sb.project,
            &sb.home,
            &["trust", &file.display().to_string()],
        )
        .success();
    }
    files
}

/// Checks that [`trusted_guards`]' two guards of `row` both deny a Bash call where hookx runs
/// them under Claude (`hookx run --host claude`), after Gemini wrote their files.
fn guards_deny_under_claude(c: &mut Checks, sb: &Sandbox, row: &str) {
    let payload = json!({
        "session_id": "s",
        "transcript_path": "/dev/null",
        "cwd": sb.project,
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": "ls"},
    });
    let out = common::hookx_clean(&sb.project)
        .env("HOME", &sb.home)
        .env("CLAUDE_PROJECT_DIR", &sb.project)
        .args(["run", "--host", "claude", "--event", "PreToolUse", "--home"])
        .arg(&sb.home)
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for scope in ["USER", "PROJECT"] {
        let reason = format!("{row}-{scope}");
        c.that(
            stdout.contains(r#""permissionDecision":"deny""#) && stdout.contains(&reason),
            format!("{reason} denies after gemini's own writes: {stdout} {stderr}"),
        );
    }
}

/// Attacks rows 1420-1439, the team's loop under Gemini CLI ([`common::claude_loop`]): a Claude
/// project's own hooks (a Bash guard, a logger after every tool, a Stop hook on
/// `stop_hook_active`, a prompt hook's context) converted to Gemini, Codex and Copilot with
/// `--hookx hookx`, hookx installed for Gemini in both scopes, trusted: each rule once per
/// event, from Gemini's copies, with Claude's payload; the guard's deny is the call's result,
/// the Stop hook keeps the agent going once, the context reaches the model. Then two teammates
/// on the same clone: one without hookx (no `hookx` on `PATH`, no `~/.hookx`: each guard's
/// copy denies, no copy blocks a prompt or a stop), one with hookx in another folder of their
/// `PATH` and nothing else done (as the first).
fn claude_projects_loop() {
    let bins = tempfile::tempdir().unwrap();
    let mut c = Checks::default();
    let path = common::hookx_on_path(&bins.path().join("alice"));
    let Some(alice) = live_loop(&mut c, "alice", None, &path, |sb| {
        common::claude_loop(&sb.project, &sb.home, "gemini", &path);
    }) else {
        return;
    };
    let posts = ["post Bash echo loop-safe", "post Write "];
    let prompts = common::LOOP_PROMPTED_AGAIN;
    for (ok, what) in common::loop_ran_once(&alice.sb.project, &posts, prompts) {
        c.that(ok, format!("alice: {what}"));
    }
    run::loop_answers(&mut c, "alice", &alice, 5);
    let from = Some((&alice.sb.project, &alice.sb.home));
    let bare = "/usr/local/bin:/usr/bin:/bin";
    let Some(bob) = live_loop(&mut c, "without", from, bare, |_| {}) else {
        return;
    };
    let ran = std::fs::read_to_string(bob.sb.project.join("loop.log")).unwrap_or_default();
    c.that(
        ran.is_empty(),
        format!("without hookx no copy ran a rule: {ran}"),
    );
    for call in [common::LOOP_SAFE, common::LOOP_DENIED] {
        let result = bob.tool_result("teamloop", call);
        c.that(
            result.contains("hookx not found"),
            format!("without hookx the guard's copy denied {call}: {result}"),
        );
    }
    let turns = bob.model.turns_of("teamloop").len();
    c.that(
        turns == 4,
        format!("without hookx no stop kept going: {turns} turns"),
    );
    let path = common::hookx_on_path(&bins.path().join("carol"));
    let Some(carol) = live_loop(&mut c, "elsewhere", from, &path, |_| {}) else {
        return;
    };
    for (ok, what) in common::loop_ran_once(&carol.sb.project, &posts, prompts) {
        c.that(ok, format!("hookx elsewhere: {what}"));
    }
    run::loop_answers(&mut c, "hookx elsewhere", &carol, 5);
    c.done("teamloop");
}

/// One run of [`claude_projects_loop`]'s story in a fresh sandbox, the client's `PATH` being
/// `path`: with `clone`, the project's files copied from that project and home first
/// ([`common::loop_clone`]); `setup` then; the folder trusted in Gemini. Its exit is checked.
fn live_loop(
    c: &mut Checks,
    who: &str,
    clone: Option<(&std::path::PathBuf, &std::path::PathBuf)>,
    path: &str,
    setup: impl FnOnce(&Sandbox),
) -> Option<Live> {
    let l = live("teamloop", &["--yolo"], &[("PATH", path)], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        if let Some((project, home)) = clone {
            common::loop_clone((project, home), (&sb.project, &sb.home));
        }
        setup(sb);
    })?;
    c.that(
        l.out.status == Some(0),
        format!("{who}: exit {:?}: {}", l.out.status, l.out.stderr),
    );
    Some(l)
}

/// Attacks row 1324: a team's Claude `SessionEnd` rule that hangs (it logs `started`, sleeps
/// 40 s, logs `finished`), trusted, hookx installed for Gemini. Claude Code 2.1.332 gives all
/// SessionEnd hooks 1.5 s; Gemini CLI 0.61.0 awaits its SessionEnd hooks before it exits, and
/// hookx gave the handler Claude's 600 s default: `gemini -p` waited for the sleep. Now the
/// handler gets its own agent's budget, and Gemini ends before it would have finished.
fn a_claude_session_end_rule_keeps_claudes_budget() {
    let mut log = std::path::PathBuf::new();
    let Some(l) = live("story", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        log = sb.root.join("end.log");
        let rule = format!(
            "echo started >> '{0}'; sleep 40; echo finished >> '{0}'",
            log.display()
        );
        let rules =
            json!({"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": rule}]}]}});
        sb.write("project/.claude/settings.json", &rules.to_string());
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["install", "--host", "gemini"]).success();
    }) else {
        return;
    };
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    let mut c = Checks::default();
    c.that(
        logged.contains("started") && !logged.contains("finished"),
        format!(
            "the SessionEnd rule's log when gemini had exited: {logged:?}\n{}",
            l.out.stderr.chars().take(2000).collect::<String>()
        ),
    );
    c.done("story");
}

/// Attacks row 1550: a team's Claude PostToolUse hook that redacts a shell call's output
/// (`updatedToolOutput`, Claude Code 2.1.332), trusted, hookx installed for Gemini. Gemini CLI
/// 0.61.0 has no field that replaces AfterTool's result; hookx read no such field and the
/// output reached the model. Now the redaction is a block, which Gemini gives the model in
/// the result's place (`{"error": REASON}`).
fn a_claude_redaction_withholds_the_output_under_gemini() {
    let Some(l) = live("redact", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        let answer = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
            "updatedToolOutput": {"stdout": "R-REDACTED", "stderr": "", "interrupted": false,
            "isImage": false}}});
        let rule = format!("cat >/dev/null; printf '%s' '{answer}'");
        let rules = json!({"hooks": {"PostToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": rule}]}]}});
        sb.write("project/.claude/settings.json", &rules.to_string());
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["install", "--host", "gemini"]).success();
    }) else {
        return;
    };
    let mut c = Checks::default();
    let result = l.tool_result("redact", "ECRET-OUT-1550");
    c.that(
        result.contains("hookx withheld this tool result"),
        format!("the model got hookx's reason in the result's place: {result}"),
    );
    let seen = l
        .model
        .turns_of("redact")
        .iter()
        .any(|b| b.to_string().contains("SECRET-OUT-1550"));
    c.that(!seen, "the output the hook redacted reached the model");
    c.done("redact");
}

/// Attacks rows 1552, 1610: a team's Claude PostToolUse and PostToolUseFailure rules, trusted,
/// hookx installed for Gemini. Gemini CLI 0.61.0 fires AfterTool after every call, a failed one
/// marked `tool_response.error` (a missing file); hookx ran the PostToolUse rule on it and the
/// failure rule never. Now each rule runs once per call as under Claude: the failure rule on
/// the failed read (with `error`), the success rule on each command. A command's exit 3 is no
/// failure to Gemini (its AfterTool carries no `error`): the success rule runs for it.
fn a_failed_call_runs_each_claude_rule_once_as_claude_would() {
    let Some(l) = live("failed", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        let log = |label: &str| {
            format!(
                "cat > \"$CLAUDE_PROJECT_DIR/{label}-$$.json\"; echo {label} >> \"$CLAUDE_PROJECT_DIR/ran.log\""
            )
        };
        let rules = json!({"hooks": {
            "PostToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": log("post")}]}],
            "PostToolUseFailure": [{"matcher": "", "hooks": [{"type": "command", "command": log("fail")}]}],
        }});
        sb.write("project/.claude/settings.json", &rules.to_string());
        // Rows 1841, 1843: Droid fires no PostToolUse after a failed call, Auggie one after
        // every call (a failed one with `tool_error`).
        let post = |label: &str| {
            let log = format!(
                "cat > '{dir}/{label}-'$$.json; echo {label} >> '{dir}/ran.log'",
                dir = sb.project.display()
            );
            json!({"hooks": {"PostToolUse": [{"matcher": "",
                "hooks": [{"type": "command", "command": log}]}]}})
        };
        sb.write("project/.factory/settings.json", &post("droid").to_string());
        sb.write(
            "project/.augment/settings.json",
            &post("auggie").to_string(),
        );
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["install", "--host", "gemini"]).success();
    }) else {
        return;
    };
    let mut c = Checks::default();
    let got = |label: &str| -> Vec<Value> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(&l.sb.project).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(&format!("{label}-")) && name.ends_with(".json") {
                let text = std::fs::read_to_string(entry.path()).unwrap();
                out.push(serde_json::from_str(&text).unwrap_or(Value::String(text)));
            }
        }
        out
    };
    let (fails, posts) = (got("fail"), got("post"));
    let tool = |v: &Value| v["tool_name"].as_str().unwrap_or_default().to_string();
    c.that(
        fails.len() == 1 && tool(&fails[0]) == "Read",
        format!("the failure rule ran once, on the failed read: {fails:?}"),
    );
    c.that(
        fails.first().is_some_and(|f| {
            f["hook_event_name"] == "PostToolUseFailure"
                && f["error"]
                    .as_str()
                    .is_some_and(|e| e.contains("missing-1610.txt"))
        }),
        format!("the failure rule got Claude's PostToolUseFailure with `error`: {fails:?}"),
    );
    let commands: Vec<String> = posts
        .iter()
        .map(|p| {
            p["tool_input"]["command"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    c.that(
        posts.len() == 2 && posts.iter().all(|p| tool(p) == "Bash"),
        format!("the success rule ran once per command, never on the read: {commands:?}"),
    );
    // Ground truth: what Gemini sent after `exit 3` (the success rule's stdin: no `error`).
    let exit3 = posts.iter().find(|p| {
        p["tool_input"]["command"]
            .as_str()
            .is_some_and(|t| t.contains("exit 3"))
    });
    c.that(
        exit3.is_some_and(|p| p["tool_response"].get("error").is_none()),
        format!("Gemini 0.61.0 marks no failure on a command's exit 3: {exit3:?}"),
    );
    let tool = |v: &Value| v["tool_name"].as_str().unwrap_or_default().to_string();
    let droid: Vec<String> = got("droid").iter().map(tool).collect();
    c.that(
        droid == ["Execute", "Execute"],
        format!("Droid's post rule ran on the two commands, not on the failed read: {droid:?}"),
    );
    let auggie = got("auggie");
    let read = auggie.iter().find(|v| tool(v) == "view");
    c.that(
        auggie.len() == 3 && read.is_some_and(|v| v["tool_error"].is_string()),
        format!("Auggie's post rule ran on all three, the read with `tool_error`: {auggie:?}"),
    );
    c.done("failed");
}

/// Attacks row 1630: a team's Claude secret scanner, trusted, reads the shell call's output
/// where Claude puts it (`.tool_response.stdout`) and blocks on a secret, run by hookx under
/// Gemini CLI 0.61.0 (`install --host gemini`). Gemini's result is `{llmContent,
/// returnDisplay}`, which gave the scanner null there: the secret reached the model. Now it
/// reads the output and blocks, and Gemini's AfterTool block takes the result's place.
fn a_claude_scanner_reads_the_output_under_gemini() {
    let Some(l) = live("scan", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        let read = sb.root.join("scanned");
        let rule = format!(
            "out=$(jq -r '.tool_response.stdout // \"(none)\"'); printf '%s' \"$out\" > '{}'; \
             case \"$out\" in *ECRET-SCAN-1630*) \
             printf '%s' '{{\"decision\": \"block\", \"reason\": \"scan-1630 found a secret\"}}';; esac",
            read.display()
        );
        let rules = json!({"hooks": {"PostToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": rule}]}]}});
        sb.write("project/.claude/settings.json", &rules.to_string());
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["install", "--host", "gemini"]).success();
    }) else {
        return;
    };
    let mut c = Checks::default();
    let scanned = std::fs::read_to_string(l.sb.root.join("scanned")).unwrap_or_default();
    c.that(
        scanned.contains("SECRET-SCAN-1630"),
        format!("the scanner read the output at .tool_response.stdout: {scanned:?}"),
    );
    let result = l.tool_result("scan", "ECRET-SCAN-1630");
    c.that(
        result.contains("scan-1630 found a secret"),
        format!("the model got the scanner's reason in the result's place: {result}"),
    );
    let seen = l
        .model
        .turns_of("scan")
        .iter()
        .any(|b| b.to_string().contains("SECRET-SCAN-1630"));
    c.that(!seen, "the secret the scanner blocks reached the model");
    c.done("scan");
}

/// Attacks row 1245: a Gemini CLI session writes its settings back whole from what it read when
/// it started, so a route `hookx install` wrote meanwhile is gone at the session's next settings
/// write. Forced without a terminal: `gemini mcp add --scope user` (which reads the settings,
/// then writes them) with a node preload that runs `hookx install --host gemini --scope user`
/// right after Gemini's first read of `~/.gemini/settings.json`, as an install in another
/// terminal would. Gemini CLI 0.61.0 writes the file back without the route (its own loss,
/// pinned here); install says so as it writes (the dialect's `rewrites_from_memory`), and
/// `doctor` names it as the likely cause of the missing route.
fn a_session_writes_back_its_settings_without_a_route_installed_meanwhile() {
    let Some(bin) = client::binary() else {
        return;
    };
    let mut c = Checks::default();
    let sb = Sandbox::new();
    sb.trust_folder();
    let claude = common::write(
        &sb.home,
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo R1245 >&2; exit 2"}]}]}}"#,
    );
    common::hookx_at(
        &sb.project,
        &sb.home,
        &["trust", &claude.display().to_string()],
    )
    .success();
    sb.user_settings(json!({}));
    let settings = sb.home.join(".gemini/settings.json");
    let log = sb.root.join("install.log");
    let quote = |p: &std::path::Path| serde_json::to_string(&p.display().to_string()).unwrap();
    let preload = sb.write(
        "preload.js",
        &format!(
            r#"const fs = require('fs'), cp = require('child_process'), path = require('path');
const read = fs.readFileSync;
let done = false;
fs.readFileSync = function (p, ...rest) {{
  const out = read.call(this, p, ...rest);
  if (!done && typeof p === 'string' && path.resolve(p) === {settings}) {{
    done = true;
    const r = cp.spawnSync({hookx}, ['install', '--host', 'gemini', '--scope', 'user', '--home', {home}], {{encoding: 'utf8'}});
    fs.writeFileSync({log}, `${{r.status}}\n${{r.stdout}}${{r.stderr}}`);
  }}
  return out;
}};
"#,
            settings = quote(&settings),
            hookx = quote(std::path::Path::new(env!("CARGO_BIN_EXE_hookx"))),
            home = quote(&sb.home),
            log = quote(&log),
        ),
    );
    let args = ["mcp", "add", "--scope", "user", "r1245", "echo", "hi"];
    let out = sb.command_preloaded(&preload, &bin, &args);
    c.that(
        out.status.success(),
        format!("gemini mcp add: {}", String::from_utf8_lossy(&out.stderr)),
    );
    let said = std::fs::read_to_string(&log).unwrap_or_default();
    c.that(
        said.starts_with("0\n") && said.contains("routed 1 gemini events"),
        format!("the install ran after Gemini's read: {said}"),
    );
    c.that(
        said.contains("note: a Gemini CLI session running now writes its settings back whole"),
        format!("install says a running session undoes it: {said}"),
    );
    let now = std::fs::read_to_string(&settings).unwrap();
    c.that(
        now.contains("r1245") && !now.contains("hookx run"),
        format!("Gemini wrote its copy back, the route gone (Gemini's own loss): {now}"),
    );
    let doctor = common::hookx_clean(&sb.project)
        .env("HOME", &sb.home)
        .args(["doctor", "--host", "gemini", "--home"])
        .arg(&sb.home)
        .output()
        .unwrap();
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&doctor.stdout),
        String::from_utf8_lossy(&doctor.stderr)
    );
    c.that(
        report.contains("no hookx route for `BeforeTool`")
            && report.contains("wrote its settings back as it had read them"),
        format!("doctor names the route gone and the likely cause: {report}"),
    );
    c.done("write-back");
}

/// Attacks row 1471, ground truth: Gemini CLI's own hooks that exit at once and leave a child
/// holding their stdout: at `SessionStart` a `sleep 6 &` (timeout 3 s); at `BeforeTool` a deny
/// printed before a `sleep 4 &` holds the pipe (`A-DENY`, timeout 2 s); `BeforeAgent`,
/// `BeforeTool` and `AfterAgent` stamp when Gemini went on. Checked: Gemini waits for `held`
/// (which stamps its end) past the hook's timeout, and drops `A-DENY`.
fn ground_truth_leftovers() {
    let mut dump = std::path::PathBuf::new();
    let Some(l) = live("ask", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        dump = sb.root.join("left");
        std::fs::create_dir_all(&dump).unwrap();
        let stamp = |w: &str| Stamps::command(&dump.join("times"), w);
        let held = format!("{}; (sleep 6; {}) &", stamp("start"), stamp("held-end"));
        let a = format!(
            "{}; printf '%s' '{{\"decision\":\"deny\",\"reason\":\"A-DENY\"}}'; sleep 4 & exit 0",
            stamp("tool")
        );
        let cmd = |c: &str, t: u64| json!({"type": "command", "command": c, "timeout": t});
        sb.user_settings(json!({
            "SessionStart": [{"hooks": [cmd(&held, 3000)]}],
            "BeforeAgent": [{"hooks": [cmd(&stamp("prompt"), 60000)]}],
            "BeforeTool": [{"matcher": "run_shell_command", "hooks": [cmd(&a, 2000)]}],
            "AfterAgent": [{"hooks": [cmd(&stamp("stop"), 60000)]}],
        }));
    }) else {
        return;
    };
    let stamps = Stamps::read(&dump.join("times"));
    let result = run::Run::tool_result(&l, "ask", "ask-me");
    let denied = result.contains("A-DENY");
    eprintln!(
        "leftovers, Gemini's own hooks: ms from SessionStart to the prompt {:?}, to the tool \
         event {:?}, from the tool event to AfterAgent {:?}; the call's result: {result}",
        stamps.ms("start", "prompt"),
        stamps.ms("start", "tool"),
        stamps.ms("tool", "stop"),
    );
    let mut c = Checks::default();
    c.that(
        stamps.before("held-end", "prompt"),
        "Gemini went on past the hook's 3 s timeout only once its silent leftover (6 s) ended",
    );
    c.that(
        !denied,
        "Gemini dropped the deny of a hook whose leftover outlived its timeout",
    );
    c.done("leftovers");
}

/// Attacks row 1506 (row 1406, left not run by the twenty-fourth pass): Gemini CLI 0.61.0's
/// `migrateDeprecatedSettings` runs at every settings load and writes a settings file holding
/// deprecated keys again (bundle `chunk-2YTYPKEZ.js`): `general.disableAutoUpdate` and
/// `disableUpdateNag` turned round, `tools.approvalMode` moved to `general.defaultApprovalMode`,
/// `context.fileFiltering.disableFuzzySearch`, `experimental.codebaseInvestigatorSettings`,
/// `cliHelpAgentSettings` and `plan` moved to `agents.overrides` and `general.plan`. The user's
/// guard in both of Gemini's files holding them, trusted; then `gemini mcp list` (which loads the
/// settings and writes nothing else). The guards must keep denying where hookx runs them.
fn its_own_settings_migration_keeps_a_trusted_guard_trusted() {
    let Some(bin) = client::binary() else {
        return;
    };
    let mut c = Checks::default();
    let sb = Sandbox::new();
    sb.trust_folder();
    let [user, project] = trusted_guards(
        &sb,
        "R1406",
        [
            r#""general": {"disableAutoUpdate": true, "disableUpdateNag": true}, "tools": {"approvalMode": "default"}"#,
            r#""context": {"fileFiltering": {"disableFuzzySearch": true}}, "experimental": {"codebaseInvestigatorSettings": {"enabled": true, "maxNumTurns": 5}, "cliHelpAgentSettings": {"enabled": false}, "plan": true}"#,
        ],
    );
    let before = [&user, &project].map(|f| std::fs::read_to_string(f).unwrap());
    let out = sb.command(&bin, &["mcp", "list"]);
    c.that(
        out.status.success(),
        format!("gemini mcp list: {}", String::from_utf8_lossy(&out.stderr)),
    );
    for (file, was) in [&user, &project].into_iter().zip(before) {
        let now = std::fs::read_to_string(file).unwrap();
        c.that(
            now != was && !now.contains("disable") && !now.contains("approvalMode\""),
            format!("gemini migrated {}: {now}", file.display()),
        );
    }
    guards_deny_under_claude(&mut c, &sb, "R1406");
    c.done("migration");
}

/// Attacks rows 1760-1779, live under Gemini CLI 0.61.0: real configs of other agents
/// (`converted::SAMPLE`), each handler a recorder, written into the project's
/// `.gemini/settings.json` by `convert --write` (the folder trusted), run through the matcher
/// probe's session (a shell call, a write, a replace, a read, a glob, the end). Each rule runs
/// as often, on the same events and tools, with a payload of the same keys as hookx's own
/// reading of the source files under Gemini. Then the teammate without hookx: the same
/// conversion with `--hookx hookx`, hookx off `PATH`: the run ends and no rule ran.
fn converted_corpus_configs() {
    let Some(bin) = client::binary() else {
        return;
    };
    let mut c = Checks::default();
    let prepare = |sb: &Sandbox, hookx: &str, c: &mut Checks| {
        sb.trust_folder();
        sb.user_settings(json!({}));
        let done =
            converted::convert_sample("gemini", &sb.project, &sb.home, &sb.root, hookx, &|label| {
                sb.dumper(label)
            });
        for f in &done.failures {
            c.that(false, f);
        }
        (done.stamped, done.labels, done.unstartable)
    };
    let sb = Sandbox::new();
    let (stamped, _, unstartable) = prepare(&sb, env!("CARGO_BIN_EXE_hookx"), &mut c);
    let target = sb.project.join(".gemini/settings.json");
    converted::add_catch_all(&target, &|event| sb.dumper(&format!("all-{event}")));
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let out = sb.run(
        &bin,
        model.port,
        "SCENARIO:matchers do the work",
        &["--yolo"],
        &[],
    );
    let dumps = sb.dumps();
    let sent: Vec<(String, Value)> = dumps
        .iter()
        .filter_map(|d| Some((d.label.strip_prefix("all-")?.to_string(), d.stdin.clone())))
        .collect();
    let mut observed: Vec<converted::Ran> = dumps
        .iter()
        .filter(|d| converted::label_in(&d.label).is_some())
        .map(|d| converted::Ran::of(&d.label, &d.stdin))
        .collect();
    observed.sort();
    // Nothing the converted rules answer stops the session: a rule whose folder is not on this
    // machine cannot start, which no agent reads as a block (row 1760).
    c.that(
        sb.project.join("notes.txt").exists() && out.said().contains("matchers done"),
        format!(
            "the session's write ran and it ended (no converted rule blocked the prompt or a call): {}",
            out.said()
        ),
    );
    let expected = converted::expected(&sb.project, &sb.home, "gemini", &target, &stamped, &sent);
    c.that(!expected.is_empty(), "hookx's reading runs some rule");
    for d in converted::differences(&expected, &observed, &unstartable) {
        c.that(false, d);
    }
    if std::env::var_os("HOOKX_LIVE_KEEP").is_some() {
        let _ = std::fs::write(
            sb.root.join("run.out"),
            format!("{}\n{}", out.stdout, out.stderr),
        );
        eprintln!("kept {}", sb.root.display());
        std::mem::forget(sb);
    }

    // The teammate without hookx.
    let sb = Sandbox::new();
    let (_, labels, _) = prepare(&sb, "hookx", &mut c);
    let path = converted::path_without_hookx();
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let bare = sb.run(
        &bin,
        model.port,
        "SCENARIO:matchers do the work",
        &["--yolo"],
        &[("PATH", &path)],
    );
    c.that(
        bare.status == Some(0),
        format!("without hookx: exit {:?}: {}", bare.status, bare.stderr),
    );
    let ran: Vec<String> = sb.dumps().into_iter().map(|d| d.label).collect();
    c.that(
        !labels.iter().any(|l| ran.contains(l)),
        format!("without hookx: rules ran: {ran:?}"),
    );
    c.done("converted_corpus_configs");
}

/// Attacks row 2000 (row 1827, [`in_background`]): the same Claude `async: true` handler in
/// the project's trusted `.claude/settings.json`, routed by `hookx install --host gemini`, under
/// Gemini CLI 0.61.0 (`-p --yolo`), one shell call. Before, the route skipped it ("hookx runs
/// them only under Claude itself"): it never ran (it never saw the call).
fn a_routed_async_handler_runs_in_the_background() {
    let Some(l) = live("async", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        sb.write(
            "project/.claude/settings.json",
            &in_background::claude_source().to_string(),
        );
        common::trust_and_install(&sb.project, &sb.home, "gemini");
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
    c.done("async");
}

/// Attacks rows 1762, 1820 ([`in_background`]): a Claude `async: true` guard converted to
/// Gemini (`.gemini/settings.json`), under Gemini CLI 0.61.0 (`-p --yolo`), one shell call.
fn a_converted_async_handler_runs_in_the_background() {
    let Some(bin) = client::binary() else {
        return;
    };
    let sb = Sandbox::new();
    sb.user_settings(json!({}));
    sb.trust_folder();
    let converted = in_background::converted(&sb.root.join("src"), "gemini");
    common::write(&sb.project, ".gemini/settings.json", &converted.to_string());
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let out = sb.run(
        &bin,
        model.port,
        "SCENARIO:async do the work",
        &["--yolo"],
        &[],
    );
    let dumps = sb.dumps();
    let l = Live {
        sb,
        model,
        out,
        dumps,
    };
    l.keep("async");
    let mut c = Checks::default();
    let result = l.tool_result("async", "async-call");
    c.failed(in_background::failures_after_exit(
        l.out.status,
        &l.out.stderr,
        &l.sb.project,
        &result,
    ));
    c.done("async");
}

/// Attacks row 2071: the team's Claude rules on MCP tools, a deny on server `x-y`'s tools
/// (`mcp__x-y__.*`) and a logger on server `srv`'s (`mcp__srv__.*`), converted to Gemini by
/// this build (as `sync` writes them) into the trusted project's `.gemini/settings.json`,
/// under Gemini CLI 0.61.0 (`-p --yolo`) over the MCP-names probe's calls. Gemini's own
/// matcher must fire each copy on the calls it names (`mcp_x-y_run`): the deny stops the call,
/// the logger runs, the other servers' calls run. Row 2063: a deny on server `p.q`'s tools,
/// its `.` escaped (`mcp__p\.q__.*`), written `mcp_p\.q_.*`, stops `p.q`'s call.
fn a_converted_claude_mcp_deny_fires_under_gemini() {
    const REASON: &str = "R2071-MCP-DENY";
    // Row 2063: a server named with a `.`, its `.` escaped in Claude's matcher.
    const DOTTED: &str = "R2063-DOTTED-DENY";
    let Some(l) = live("mcpnames", &["--yolo"], &[], |sb| {
        sb.trust_folder();
        let servers = mcp_names_servers(sb);
        sb.user_settings_with(json!({}), json!({"mcpServers": servers}));
        let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": REASON}});
        let logged = sb.root.join("srv-2071.log");
        let dotted = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": DOTTED}});
        let claude = json!({"hooks": {"PreToolUse": [
            {"matcher": "mcp__x-y__.*", "hooks": [{"type": "command",
                "command": format!("cat >/dev/null; printf '%s' '{deny}'")}]},
            {"matcher": "mcp__p\\.q__.*", "hooks": [{"type": "command",
                "command": format!("cat >/dev/null; printf '%s' '{dotted}'")}]},
            {"matcher": "mcp__srv__.*", "hooks": [{"type": "command",
                "command": format!("cat >/dev/null; echo x >> {}", logged.display())}]},
        ]}});
        let src = sb.write("src/.claude/settings.json", &claude.to_string());
        let out = common::hookx()
            .current_dir(src.parent().unwrap().parent().unwrap())
            .args(["convert", ".claude/settings.json", "--to", "gemini"])
            .args(["--format", "json", "--hookx", env!("CARGO_BIN_EXE_hookx")])
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let converted: Value = serde_json::from_str(report["output"].as_str().unwrap()).unwrap();
        sb.write(
            "project/.gemini/settings.json",
            &serde_json::to_string_pretty(&converted).unwrap(),
        );
    }) else {
        return;
    };
    let mut c = Checks::default();
    let ran = mcp_names::ran(&l.sb.root.join("mcp-ran.log"));
    for (call, reason, deny, whose) in [
        (("x-y", "run"), REASON, "deny", "the"),
        (
            ("p.q", "run"),
            DOTTED,
            "deny on `mcp__p\\.q__.*`",
            "the dotted server's",
        ),
    ] {
        let at = mcp_names::CALLS.iter().position(|c| *c == call).unwrap();
        c.that(
            !ran.contains_key(&at),
            format!("the call the synced {deny} names ran: {ran:?}"),
        );
        let result = l.tool_result("mcpnames", &format!("\"{}\"", mcp_names::text(at)));
        c.that(
            result.contains(reason),
            format!("{whose} denied call's result: {result}"),
        );
    }
    for (i, (server, _)) in mcp_names::CALLS.iter().enumerate() {
        if *server == "Up_Case" {
            c.that(
                ran.contains_key(&i),
                format!("{server}'s call did not run: {ran:?}"),
            );
        }
    }
    let logged = std::fs::read_to_string(l.sb.root.join("srv-2071.log")).unwrap_or_default();
    c.that(
        logged.lines().count() >= 1,
        format!(
            "the synced logger on srv's tools ran {} times",
            logged.lines().count()
        ),
    );
    c.done("a_converted_claude_mcp_deny_fires_under_gemini");
}

/// Attacks rows 2004, 2204: a trusted Claude `async: true` PostToolUse handler in the
/// project's `.claude/settings.json`, routed by `hookx install --host gemini`, answering at
/// once with context and a message. Claude Code 2.1.332 gives both to the model with a later
/// request (row 2203); under Gemini CLI 0.61.0 (`-p --yolo`) the route's worker keeps them and
/// the session's next AfterTool answers them as its context: the model's request after the
/// second call holds them, the one after the first does not need to.
fn a_routed_async_handlers_answer_reaches_a_later_request() {
    let answer = json!({"hookSpecificOutput": {"hookEventName": "PostToolUse",
        "additionalContext": "C-2204-CTX"}, "systemMessage": "S-2204-MSG"});
    let line = format!("cat >/dev/null; printf '%s' '{answer}'");
    let Some(l) = live("late", &["--yolo"], &[], |sb| {
        sb.user_settings(json!({}));
        sb.trust_folder();
        let source = json!({"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": line, "async": true}]}]}});
        sb.write("project/.claude/settings.json", &source.to_string());
        common::trust_and_install(&sb.project, &sb.home, "gemini");
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.exited(l.out.status, &l.out.stderr);
    let after_second = (l.model.turns_of("late").iter())
        .map(Value::to_string)
        .filter(|body| body.contains("late-two"))
        .collect::<Vec<_>>();
    c.that(
        after_second
            .iter()
            .any(|m| m.contains("C-2204-CTX") && m.contains("S-2204-MSG")),
        format!(
            "the background answer reached the model with a later request: {} requests after the second call, none with both texts",
            after_second.len()
        ),
    );
    // The first call's answer was taken; the second's waits for an event that never came
    // (as under Claude, whose session ends without it), until swept as stale.
    let kept: Vec<String> = (std::fs::read_dir(l.sb.home.join(".hookx/carried")).into_iter())
        .flatten()
        .flatten()
        .flat_map(|session| {
            std::fs::read_dir(session.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|f| f.file_name().to_string_lossy().into_owned())
        .collect();
    c.that(
        kept.len() == 1 && kept[0].starts_with("late-"),
        format!("the second call's answer alone is left kept: {kept:?}"),
    );
    c.done("late");
}
