//! The live conformance suite for GitHub Copilot CLI 1.0.102: the real client, driven offline
//! through a fake model server, with recording hooks (ground truth) and with hookx routed in.
//! See conformance/README.md.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[path = "live_common/answers.rs"]
mod answers;
#[path = "live_common/cadence.rs"]
mod cadence;
#[path = "live_copilot/client.rs"]
mod client;
mod common;
#[path = "live_common/converted.rs"]
mod converted;
#[path = "live_common/faults.rs"]
mod faults;
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
#[path = "live_common/run.rs"]
mod run;
#[path = "live_common/scopes.rs"]
mod scopes;
#[path = "live_common/chat_server.rs"]
mod server;
#[path = "live_common/stamps.rs"]
mod stamps;

use client::Sandbox;
use run::{Checks, Run};
use serde_json::{Value, json};
use server::{FakeModel, Step};
use stamps::{Stamps, kill_left, pid_runs};

const CAMEL: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "userPromptTransformed",
    "preToolUse",
    "preMcpToolCall",
    "permissionRequest",
    "postToolUse",
    "postToolUseFailure",
    "notification",
    "subagentStart",
    "subagentStop",
    "agentStop",
    "preCompact",
    "errorOccurred",
];
const PASCAL: &[&str] = &[
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
    "ErrorOccurred",
];

fn scripts(name: &str, project: &str) -> Vec<Step> {
    let file = format!("{project}/notes.txt");
    if name == "merge" {
        let calls = merge_probe::claude_cases("p").into_iter().map(|c| {
            let command = format!("printf x > o-{}.txt", c.name);
            Step::Tools(vec![(
                "bash",
                json!({"command": command, "description": "d"}),
            )])
        });
        return calls.chain([Step::Text("merge done")]).collect();
    }
    match name {
        "rwchain" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "printf x > o-chain.txt", "description": "d"}),
            )]),
            Step::Text("rwchain done"),
        ],
        "mcpnames" => MCP_NAME_CALLS
            .iter()
            .enumerate()
            .map(|(i, tool)| Step::Tools(vec![(*tool, json!({"text": mcp_names::text(i)}))]))
            .chain([Step::Text("mcp done")])
            .collect(),
        // Three calls and the answer; the continued run's follow-up prompt (three tool
        // messages already in its history) gets the answer again.
        "cadence" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo cadence-one", "description": "d"}),
            )]),
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo cadence-two", "description": "d"}),
            )]),
            Step::Tools(vec![(
                "create",
                json!({"path": file, "file_text": "one\n"}),
            )]),
            Step::Text("cadence done"),
        ],
        "mcp" => MCP_CALLS
            .iter()
            .map(|(tool, key, text)| Step::Tools(vec![(*tool, json!({ *key: text }))]))
            .chain([Step::Text("mcp done")])
            .collect(),
        "async" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": in_background::call(project), "description": "d"}),
            )]),
            Step::Text("async done"),
        ],
        "leftovers" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo leftover-call", "description": "d"}),
            )]),
            Step::Text("leftovers done"),
        ],
        "mxprobe" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo matcher-probe", "description": "probe"}),
            )]),
            Step::Tools(vec![(
                "create",
                json!({"path": file, "file_text": "one\n"}),
            )]),
            Step::Tools(vec![(
                "edit",
                json!({"path": file, "old_str": "one", "new_str": "two"}),
            )]),
            Step::Tools(vec![("view", json!({"path": file}))]),
            Step::Text("matchers done"),
        ],
        // Attacks rows 1840-1859: four calls that fail, each its own way.
        "failed" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo FAIL-OUT-1840; echo FAIL-ERR-1840 >&2; exit 1", "description": "d"}),
            )]),
            Step::Tools(vec![(
                "bash",
                // A path outside the project would ask for a path permission first (denied in
                // `-p`, no post event): a name on no PATH instead.
                json!({"command": "no-such-command-1840", "description": "d"}),
            )]),
            Step::Tools(vec![(
                "view",
                json!({"path": format!("{project}/missing-1840.txt")}),
            )]),
            Step::Tools(vec![(
                "edit",
                json!({"path": file, "old_str": "absent-1840", "new_str": "new-1840"}),
            )]),
            Step::Text("failed done"),
        ],
        "twice" => [0, 1]
            .iter()
            .map(|_| {
                Step::Tools(vec![(
                    "bash",
                    json!({"command": "echo twice-call", "description": "d"}),
                )])
            })
            .chain([Step::Text("twice done")])
            .collect(),
        "faults" => faults::commands()
            .into_iter()
            .map(|c| Step::Tools(vec![("bash", json!({"command": c, "description": "d"}))]))
            .chain([Step::Text("faults done")])
            .collect(),
        "tools" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo hello-bash", "description": "say hello"}),
            )]),
            Step::Tools(vec![(
                "create",
                json!({"path": file, "file_text": "one\n"}),
            )]),
            Step::Tools(vec![(
                "edit",
                json!({"path": file, "old_str": "one", "new_str": "two"}),
            )]),
            Step::Tools(vec![("view", json!({"path": file}))]),
            Step::Tools(vec![(
                "view",
                json!({"path": format!("{project}/missing.txt")}),
            )]),
            Step::Tools(vec![(
                "task",
                json!({"name": "helper", "description": "a helper",
                "prompt": "SCENARIO:sub run one command", "agent_type": "general-purpose"}),
            )]),
            Step::Text("all done"),
        ],
        "chain" => ["echo chain-denied", "echo chain-allowed"]
            .into_iter()
            .map(|c| Step::Tools(vec![("bash", json!({"command": c, "description": "d"}))]))
            .chain([Step::Text("chain done")])
            .collect(),
        "deny" => {
            let bash =
                |c: &str| Step::Tools(vec![("bash", json!({"command": c, "description": "d"}))]);
            [
                "echo deny-json",
                "echo deny-exit2",
                "echo deny-exit1",
                "echo modify-me",
                "echo ask-me",
                "echo camel-hso-deny",
                "echo pascal-hso-deny",
                "echo perm-deny",
                "echo runs-fine",
            ]
            .into_iter()
            .map(bash)
            .chain([Step::Text("deny done")])
            .collect()
        }
        "forms" => form_names()
            .iter()
            .map(|name| {
                Step::Tools(vec![(
                    "bash",
                    json!({"command": format!("printf x > {project}/o-{name}.txt"), "description": "probe"}),
                )])
            })
            .chain([Step::Text("forms done")])
            .collect(),
        // One form that may stop the agent, then a call that shows whether it did.
        stop if stop.starts_with("fstop-") => {
            let name = &stop["fstop-".len()..];
            [name.to_string(), format!("{name}after")]
                .iter()
                .map(|n| {
                    Step::Tools(vec![(
                        "bash",
                        json!({"command": format!("printf x > {project}/o-{n}.txt"), "description": "probe"}),
                    )])
                })
                .chain([Step::Text("stop done")])
                .collect()
        }
        "compact" => {
            // Tool arguments stay in the history: three 12 KB files outgrow a 20000-token window.
            let big = |n: usize| {
                let path = format!("{project}/big{n}.txt");
                Step::Tools(vec![(
                    "create",
                    json!({"path": path, "file_text": "x".repeat(12_000)}),
                )])
            };
            vec![
                Step::Tools(vec![(
                    "bash",
                    json!({"command": "echo async-done", "description": "bg", "mode": "async"}),
                )]),
                big(1),
                big(2),
                big(3),
                big(4),
                Step::Fail,
            ]
        }
        "routed" => {
            let bash =
                |c: &str| Step::Tools(vec![("bash", json!({"command": c, "description": "d"}))]);
            let mut steps: Vec<Step> = [
                "echo claude-deny",
                "echo claude-exit2",
                "echo bricks-deny",
                "echo claude-modify",
                "echo claude-ask",
                "echo claude-post",
                "echo bricks-post",
            ]
            .into_iter()
            .map(bash)
            .collect();
            steps.push(Step::Tools(vec![(
                "create",
                json!({"path": file, "file_text": "routed\n"}),
            )]));
            steps.push(Step::Text("routed done"));
            steps
        }
        "converted" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "rm -rf /nonexistent-hookx-canary",
                "description": "d"}),
            )]),
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo safe-call", "description": "d"}),
            )]),
            Step::Tools(vec![(
                "create",
                json!({"path": file, "file_text": "converted\n"}),
            )]),
            Step::Text("converted done"),
        ],
        "story" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo story-bash", "description": "d"}),
            )]),
            Step::Tools(vec![(
                "create",
                json!({"path": file, "file_text": "story\n"}),
            )]),
            Step::Text("story done"),
        ],
        "team" => ["echo story-bash", common::STORY_DENIED]
            .into_iter()
            .map(|c| Step::Tools(vec![("bash", json!({"command": c, "description": "d"}))]))
            .chain([Step::Text("team done")])
            .collect(),
        "synced" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo synced-call", "description": "d"}),
            )]),
            Step::Text("synced done"),
        ],
        "teamloop" => [common::LOOP_SAFE, common::LOOP_DENIED]
            .into_iter()
            .map(|c| Step::Tools(vec![("bash", json!({"command": c, "description": "d"}))]))
            .chain([
                Step::Tools(vec![(
                    "create",
                    json!({"path": file, "file_text": "loop\n"}),
                )]),
                Step::Text("loop done"),
                Step::Text("loop done again"),
            ])
            .collect(),
        // Attacks row 1060: the model names the file twice, `path` (what `create` writes)
        // and a decoy `file_path` (what a Claude guard reads).
        "decoy" => vec![
            Step::Tools(vec![(
                "create",
                json!({"path": format!("{project}/.env"), "file_path": file, "file_text": "SECRET=1\n"}),
            )]),
            Step::Text("decoy done"),
        ],
        "substop" => vec![
            Step::Tools(vec![(
                "task",
                json!({"name": "helper", "description": "a helper",
                "prompt": "SCENARIO:sub run one command", "agent_type": "general-purpose"}),
            )]),
            Step::Text("substop done"),
        ],
        "modes" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "printf once > once.txt", "description": "once"}),
            )]),
            Step::Text("modes done"),
        ],
        "sub" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo from-subagent", "description": "sub"}),
            )]),
            Step::Text("sub done"),
        ],
        _ => vec![Step::Text("unknown scenario")],
    }
}

/// The camelCase lifecycle events the cadence probe counts, and the tool events beside them.
const CADENCE_EVENTS: &[&str] = &[
    "sessionStart",
    "userPromptSubmitted",
    "preToolUse",
    "postToolUse",
    "agentStop",
    "subagentStop",
    "notification",
    "preCompact",
    "sessionEnd",
];

/// Attacks rows 1780-1799: how many times Copilot CLI fires each camelCase lifecycle event in
/// one session (a prompt, two shell calls and a create, the answer; then `--continue` with a
/// follow-up prompt), a recorder on each in `~/.copilot/hooks/`: kept in
/// `tests/fixtures/cadence/`, which `tests/cadence_recorded.rs` checks hookx's tables against.
fn lifecycle_events_fire_as_often_as_recorded() {
    let Some(l) = live(
        "cadence",
        |sb| {
            sb.write("home/.copilot/hooks/dump.json", &dump_everything(sb));
        },
        &[],
    ) else {
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
    let bin = client::binary().expect("found by live()");
    let out = l.sb.run(
        &bin,
        l.model.port,
        "and now the follow-up",
        &[],
        &["--continue"],
    );
    c.that(
        out.status == Some(0),
        format!("continue exit {:?}: {}", out.status, out.stderr),
    );
    let dumps = l.sb.dumps();
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
        client: "copilot-cli".into(),
        version: client::VERSION.into(),
        host: "copilot".into(),
        how: "-p --allow-all-tools, provider mode with the fake chat server; then --continue"
            .into(),
        runs: vec![first, second],
    };
    for d in cadence::settle(&format!("copilot-{}", client::VERSION), &now) {
        c.that(false, d);
    }
    c.done("cadence");
}

/// A Claude-shaped hook file (Claude and Bricks): `{"hooks": {Event: [{matcher, hooks}]}}`
/// with the recording hook labelled `PREFIX-Event` on each event.
fn dump_claude_style(sb: &Sandbox, prefix: &str, events: &[&str]) -> String {
    let mut hooks = serde_json::Map::new();
    for e in events {
        let handler = json!({"type": "command", "command": sb.dumper(&format!("{prefix}-{e}"))});
        hooks.insert(e.to_string(), json!([{"matcher": "*", "hooks": [handler]}]));
    }
    json!({"hooks": hooks}).to_string()
}

fn hookx(sb: &Sandbox, args: &[&str]) {
    common::hookx_at(&sb.project, &sb.home, args).success();
}

/// The env that lets Copilot read repo hooks in `-p` and hookx find its trust record.
fn routed_env(sb: &Sandbox) -> Vec<(&'static str, String)> {
    vec![
        ("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true".into()),
        ("HOOKX_HOME", sb.home.display().to_string()),
    ]
}

/// A hook file registering the recording hook on every event in both casings.
fn dump_everything(sb: &Sandbox) -> String {
    let mut hooks = serde_json::Map::new();
    for e in CAMEL {
        hooks.insert(
            e.to_string(),
            json!([{"type": "command", "bash": sb.dumper(e)}]),
        );
    }
    for e in PASCAL {
        hooks.insert(
            e.to_string(),
            json!([{"hooks": [{"type": "command", "command": sb.dumper(e)}]}]),
        );
    }
    json!({"version": 1, "hooks": hooks}).to_string()
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
        self.model.requests_of(scenario)
    }

    /// The tool message the model got back for the call whose arguments contain `text`.
    fn tool_result(&self, scenario: &str, text: &str) -> String {
        for request in self.requests(scenario) {
            let messages = request["messages"].as_array().cloned().unwrap_or_default();
            let id = messages.iter().find_map(|m| {
                m["tool_calls"].as_array()?.iter().find_map(|c| {
                    c["function"]["arguments"]
                        .as_str()?
                        .contains(text)
                        .then(|| c["id"].clone())
                })
            });
            if let Some(id) = id
                && let Some(reply) = messages
                    .iter()
                    .find(|m| m["role"] == "tool" && m["tool_call_id"] == id)
            {
                return reply["content"].to_string();
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
            .unwrap_or_else(|| panic!("no {label} hook saw {text:?}; saw {:#?}", self.labels()))
    }

    fn labels(&self) -> Vec<&str> {
        self.dumps.iter().map(|d| d.label.as_str()).collect()
    }

    fn keep(&self, name: &str) {
        if let Some(dir) = std::env::var_os("HOOKX_LIVE_KEEP") {
            let keep = std::path::Path::new(&dir).join(name);
            let _ = std::fs::remove_dir_all(&keep);
            common::copy_tree(&self.sb.root, &keep);
            let requests = serde_json::to_string_pretty(&self.model.chats()).unwrap();
            std::fs::write(keep.join("requests.json"), requests).unwrap();
            std::fs::write(keep.join("stdout.txt"), &self.out.stdout).unwrap();
        }
    }
}

/// Runs `prompt` (which names the scenario) in a sandbox prepared by `setup`.
fn live(
    scenario: &str,
    setup: impl FnOnce(&Sandbox),
    extra: &[(&'static str, &str)],
) -> Option<Live> {
    live_env(scenario, |sb| {
        setup(sb);
        extra.iter().map(|(k, v)| (*k, v.to_string())).collect()
    })
}

/// As [`live`], with `setup` also giving the run's extra environment.
/// A Copilot run in the project after `install --host copilot` in project `a`, both holding
/// the guard `guard` writes: `a` trusted, the project trusted when `trusted`.
fn switched_off_by_project_a<T>(guard: &dyn Fn(&Sandbox) -> T, trusted: bool) -> Option<Live> {
    live_env("synced", |sb| {
        guard(sb);
        let a = sb.root.join("a");
        common::hookx_at(&a, &sb.home, &["trust", "--yes"]).success();
        if trusted {
            hookx(sb, &["trust", "--yes"]);
        }
        common::hookx_at(&a, &sb.home, &["install", "--host", "copilot"]).success();
        routed_env(sb)
    })
}

fn live_env(
    scenario: &str,
    setup: impl FnOnce(&Sandbox) -> Vec<(&'static str, String)>,
) -> Option<Live> {
    live_with(scenario, setup, |_| Vec::new())
}

/// [`live_env`] with more of Copilot's own options (`options`, given the sandbox).
fn live_with(
    scenario: &str,
    setup: impl FnOnce(&Sandbox) -> Vec<(&'static str, String)>,
    options: impl FnOnce(&Sandbox) -> Vec<String>,
) -> Option<Live> {
    let bin = client::binary()?;
    let sb = Sandbox::new();
    let extra = setup(&sb);
    let extra: Vec<(&str, &str)> = extra.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let extra = &extra[..];
    let options = options(&sb);
    let options: Vec<&str> = options.iter().map(String::as_str).collect();
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let out = sb.run(
        &bin,
        model.port,
        &format!("SCENARIO:{scenario} do the work"),
        extra,
        &options,
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

/// Attacks rows 1450-1469: each of `matcher_probe::MATCHERS` on its own camelCase `preToolUse`
/// entry in the user's `~/.copilot/hooks/`, a recorder each, over a shell call, a create, an
/// edit and a view: what Copilot fires (recorded in `tests/fixtures/matchers/`) against what
/// hookx reads the same file as (`simulate`, on each call's own payload).
fn matchers_fire_as_hookx_reads_them() {
    matcher_probe_on("preToolUse", "copilot");
}

/// Attacks row 1728 (row 1462 of the twenty-fifth pass): [`matchers_fire_as_hookx_reads_them`]
/// with the entries under the PascalCase `PreToolUse` (VS Code's form, `command`), which
/// Copilot fires with Claude's tool names (recorded as `copilot-pascal-VERSION`).
fn pascal_matchers_fire_as_hookx_reads_them() {
    matcher_probe_on("PreToolUse", "copilot-pascal");
}

/// The matcher probe on Copilot's `event`, recorded under `tag`-VERSION.
fn matcher_probe_on(event: &str, tag: &str) {
    let Some(l) = live(
        "mxprobe",
        |sb| {
            let key = matcher_probe::copilot_command_key(event);
            let entries: Vec<Value> = matcher_probe::MATCHERS
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let mut e =
                        json!({"type": "command", key: sb.dumper(&matcher_probe::label(i))});
                    if let Some(m) = m {
                        e["matcher"] = json!(m);
                    }
                    e
                })
                .collect();
            let hooks = json!({"version": 1, "hooks": {event: entries}});
            sb.write("home/.copilot/hooks/probe.json", &hooks.to_string());
        },
        &[],
    ) else {
        return;
    };
    let dumps: Vec<(String, Value)> = l
        .dumps
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    let rec = matcher_probe::Recording {
        client: "copilot".into(),
        version: client::VERSION.into(),
        host: "copilot".into(),
        event: event.into(),
        file: ".copilot/hooks/probe.json".into(),
        calls: matcher_probe::observed(&dumps, &l.sb.root),
    };
    let mut c = Checks::default();
    let tag = format!("{tag}-{}", client::VERSION);
    for d in matcher_probe::differences(&tag, &rec, 4) {
        c.that(false, d);
    }
    c.done("mxprobe");
}

/// Ground truth, no hookx: every event's payload in both casings, and the answer fields that
/// reach the model (context on five events, a modified prompt and result, a blocked stop).
fn ground_truth_tools() {
    let Some(l) = live(
        "tools",
        |sb| {
            sb.write("home/.copilot/hooks/dump.json", &dump_everything(sb));
            let ctx = |e: &str| format!(r#"{{"additionalContext":"CTX-{e}"}}"#);
            for e in ["sessionStart", "postToolUseFailure", "subagentStart"] {
                sb.answer(e, "a", "", &ctx(e), "", 0);
            }
            sb.answer("postToolUse", "a", "hello-bash", &ctx("postToolUse"), "", 0);
            sb.answer("postToolUse", "b", r#""textResultForLlm":"two"#,
            r#"{"modifiedResult":{"resultType":"success","textResultForLlm":"MODIFIED-RESULT"}}"#, "", 0);
            sb.answer("userPromptSubmitted", "a", "SCENARIO:tools",
            r#"{"additionalContext":"CTX-userPromptSubmitted","modifiedPrompt":"SCENARIO:tools MODIFIED-PROMPT"}"#, "", 0);
            // The main agent's first stop is blocked once; the reason comes back as a user message.
            sb.answer(
                "agentStop",
                "a",
                r#""stop_hook_active":false}"#,
                r#"{"decision":"block","reason":"STOP-AGAIN"}"#,
                "",
                0,
            );
            // PascalCase SessionStart context is ignored.
            sb.answer("SessionStart", "a", "",
            r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"PCTX-SessionStart"}}"#, "", 0);
        },
        &[],
    ) else {
        return;
    };
    let sent = l.sent("tools");
    for e in ["sessionStart", "userPromptSubmitted", "subagentStart"] {
        assert!(
            l.model
                .chats()
                .iter()
                .any(|r| r.to_string().contains(&format!("CTX-{e}"))),
            "{e} context"
        );
    }
    assert!(
        sent.contains("MODIFIED-PROMPT"),
        "modifiedPrompt replaces the prompt"
    );
    assert!(
        l.tool_result("tools", "hello-bash")
            .contains("CTX-postToolUse")
    );
    // postToolUseFailure context arrives as a user message after the failed call.
    assert!(
        sent.contains(
            "Additional guidance from postToolUseFailure hooks:\\nCTX-postToolUseFailure"
        )
    );
    let view = l.tool_result("tools", r#"notes.txt"}"#);
    assert!(
        view.contains("MODIFIED-RESULT") && !view.contains("two"),
        "{view}"
    );
    assert!(
        sent.contains("STOP-AGAIN"),
        "a blocked agentStop continues with the reason"
    );
    assert!(
        !l.model
            .chats()
            .iter()
            .any(|r| r.to_string().contains("PCTX-SessionStart"))
    );
    assert!(
        l.dumps
            .iter()
            .any(|d| d.label == "agentStop" && d.raw.contains(r#""stop_hook_active":true"#))
    );
    // events.jsonl: the pinned version ran, and it logged the hooks the recorder saw.
    let version = l.out.events.iter().find(|e| e["type"] == "session.start");
    assert_eq!(
        version.map(|e| &e["data"]["copilotVersion"]),
        Some(&json!(client::VERSION))
    );
    let logged: std::collections::BTreeSet<&str> = l
        .out
        .events
        .iter()
        .filter(|e| e["type"] == "hook.start")
        .filter_map(|e| e["data"]["hookType"].as_str())
        .collect();
    for label in l
        .labels()
        .into_iter()
        .filter(|l| l.starts_with(char::is_lowercase))
    {
        assert!(
            logged.contains(label),
            "{label} not in events.jsonl: {logged:?}"
        );
    }
    record::check("tools", &l);
}

/// Ground truth of preToolUse and permissionRequest answers: which deny, which run.
fn ground_truth_deny() {
    let Some(l) = live(
        "deny",
        |sb| {
            sb.write("home/.copilot/hooks/dump.json", &dump_everything(sb));
            let pre = "preToolUse";
            sb.answer(
                pre,
                "a",
                "deny-json",
                r#"{"permissionDecision":"deny","permissionDecisionReason":"REASON-JSON"}"#,
                "",
                0,
            );
            sb.answer(pre, "b", "deny-exit2", "", "STDERR-EXIT2", 2);
            sb.answer(pre, "c", "deny-exit1", "", "STDERR-EXIT1", 1);
            sb.answer(pre, "d", "modify-me",
            r#"{"permissionDecision":"allow","modifiedArgs":{"command":"echo modified-args","description":"m"}}"#, "", 0);
            sb.answer(
                pre,
                "e",
                "ask-me",
                r#"{"permissionDecision":"ask","permissionDecisionReason":"ASKED"}"#,
                "",
                0,
            );
            sb.answer(pre, "f", "camel-hso-deny",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"CAMEL-HSO"}}"#, "", 0);
            sb.answer("PreToolUse", "a", "pascal-hso-deny",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"PASCAL-HSO"}}"#, "", 0);
            sb.answer(
                "permissionRequest",
                "a",
                "perm-deny",
                r#"{"behavior":"deny","message":"PERM-MSG"}"#,
                "",
                0,
            );
        },
        &[],
    ) else {
        return;
    };
    let result = |t: &str| l.tool_result("deny", t);
    assert!(
        result("deny-json").contains("REASON-JSON"),
        "{}",
        result("deny-json")
    );
    assert!(
        result("deny-exit2").contains("Denied") && !result("deny-exit2").contains("STDERR-EXIT2"),
        "{}",
        result("deny-exit2")
    );
    assert!(
        result("deny-exit1").contains("Denied"),
        "{}",
        result("deny-exit1")
    );
    assert!(
        // The model's history shows the modified arguments.
        result("modified-args").contains("modified-args\\n"),
        "{}",
        result("modified-args")
    );
    assert!(
        result("ask-me").contains("Denied") || result("ask-me").contains("denied"),
        "{}",
        result("ask-me")
    );
    assert!(
        result("camel-hso-deny").contains("camel-hso-deny\\n"),
        "camelCase ignores hookSpecificOutput: {}",
        result("camel-hso-deny")
    );
    assert!(
        result("pascal-hso-deny").contains("PASCAL-HSO"),
        "{}",
        result("pascal-hso-deny")
    );
    assert!(
        result("perm-deny").contains("PERM-MSG"),
        "{}",
        result("perm-deny")
    );
    assert!(
        result("runs-fine").contains("runs-fine\\n"),
        "{}",
        result("runs-fine")
    );
    // The first deny stops the rest: the PascalCase twin never saw the denied calls.
    assert!(
        !l.dumps
            .iter()
            .any(|d| d.label == "PreToolUse" && d.raw.contains("deny-json"))
    );
    record::check("deny", &l);
}

use answers::Ran as Became;

/// One answer form probed against Copilot CLI 1.0.102 with hookx out of the loop: the bash
/// call `printf x > PROJECT/o-NAME.txt` (a rewrite writes `r-NAME.txt`), the recording hook
/// labelled `label` (the event, in its casing) answering `stdout`/`stderr`/`exit`; what became
/// of the call, and texts that reached the model (`seen`) or not (`unseen`).
struct Form {
    name: &'static str,
    label: &'static str,
    stdout: String,
    stderr: &'static str,
    exit: i32,
    became: Became,
    seen: &'static [&'static str],
    unseen: &'static [&'static str],
}

/// The forms, in the order the model calls them.
const FORM_NAMES: &[&str] = &[
    "callowrw",
    "callowrwr",
    "cnonerw",
    "caskrw",
    "cdenyrw",
    "cdenybare",
    "cexit2rw",
    "cexit1rw",
    "clogdeny",
    "cerrdeny",
    "cstrdeny",
    "cbomdeny",
    "chalfdeny",
    "cmalformed",
    "cdupallow",
    "cctx",
    "chalt",
    "cblock",
    "cupd",
    "csys",
    "pallowrw",
    "pnonerw",
    "pdenybare",
    "pmod",
    "pexit2",
    "pctx",
    "ptopctx",
    "psys",
    "phalt",
    "cpostctx",
    "cpost2",
    "cpost1ctx",
    "cpostmod",
    "cpostblock",
    "ppostctx",
    "ppostctxtop",
    "ppostblock",
    "cpermdenybare",
    "cpermexit2",
    "cpermexit2allow",
];

/// The events hookx's own forms are probed on, in both casings, and the rewrite they carry.
fn hookx_probed() -> (Vec<answers::Probed>, Value) {
    let probed = [
        ("copilot", "preToolUse", "hxcpre"),
        ("copilot", "permissionRequest", "hxcperm"),
        ("copilot", "postToolUse", "hxcpost"),
        ("copilot-pascal", "PreToolUse", "hxppre"),
        ("copilot-pascal", "PermissionRequest", "hxpperm"),
        ("copilot-pascal", "PostToolUse", "hxppost"),
    ]
    .map(|(flavor, event, prefix)| answers::Probed {
        flavor: flavor.into(),
        event: event.into(),
        prefix: prefix.into(),
    });
    let rewrite = json!({"command": "printf x > r-<name>.txt", "description": "rw"});
    (probed.to_vec(), rewrite)
}

fn hookx_forms() -> Vec<answers::Form> {
    let (probed, rewrite) = hookx_probed();
    answers::hookx_forms(&probed, &rewrite)
}

/// Whether the form may stop the agent: it is probed in a run of its own.
fn may_stop(f: &answers::Form) -> bool {
    f.intent == Some(answers::Intent::Stop)
}

/// The calls of the `forms` run: [`FORM_NAMES`], then hookx's forms that cannot stop the agent.
fn form_names() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<String> = FORM_NAMES.iter().map(|n| n.to_string()).collect();
        names.extend(
            hookx_forms()
                .into_iter()
                .filter(|f| !may_stop(f))
                .map(|f| f.name),
        );
        names
    })
}

fn copilot_forms() -> Vec<Form> {
    use Became::*;
    let rw =
        |name: &str| json!({"command": format!("printf x > r-{name}.txt"), "description": "rw"});
    let hso = |event: &str, fields: Value| {
        let mut h = json!({"hookEventName": event});
        h.as_object_mut()
            .unwrap()
            .extend(fields.as_object().unwrap().clone());
        json!({ "hookSpecificOutput": h }).to_string()
    };
    let form = |name, label, stdout: String, stderr, exit, became, seen, unseen| Form {
        name,
        label,
        stdout,
        stderr,
        exit,
        became,
        seen,
        unseen,
    };
    let j = |v: Value| v.to_string();
    vec![
        form(
            "callowrw",
            "preToolUse",
            j(json!({"permissionDecision": "allow", "modifiedArgs": rw("callowrw")})),
            "",
            0,
            Rewritten,
            &[],
            &[],
        ),
        form(
            "callowrwr",
            "preToolUse",
            j(
                json!({"permissionDecision": "allow", "permissionDecisionReason": "R-CALLOWRWR", "modifiedArgs": rw("callowrwr")}),
            ),
            "",
            0,
            Rewritten,
            &[],
            &[],
        ),
        form(
            "cnonerw",
            "preToolUse",
            j(json!({"modifiedArgs": rw("cnonerw")})),
            "",
            0,
            Rewritten,
            &[],
            &[],
        ),
        form(
            "caskrw",
            "preToolUse",
            j(
                json!({"permissionDecision": "ask", "permissionDecisionReason": "R-CASKRW", "modifiedArgs": rw("caskrw")}),
            ),
            "",
            0,
            NotRun,
            &["R-CASKRW"],
            &[],
        ),
        form(
            "cdenyrw",
            "preToolUse",
            j(
                json!({"permissionDecision": "deny", "permissionDecisionReason": "R-CDENYRW", "modifiedArgs": rw("cdenyrw")}),
            ),
            "",
            0,
            NotRun,
            &["R-CDENYRW"],
            &[],
        ),
        form(
            "cdenybare",
            "preToolUse",
            j(json!({"permissionDecision": "deny"})),
            "",
            0,
            NotRun,
            &[],
            &[],
        ),
        form(
            "cexit2rw",
            "preToolUse",
            j(json!({"permissionDecision": "allow", "modifiedArgs": rw("cexit2rw")})),
            "E-CEXIT2RW",
            2,
            NotRun,
            &[],
            &["E-CEXIT2RW"],
        ),
        form(
            "cexit1rw",
            "preToolUse",
            j(json!({"permissionDecision": "allow", "modifiedArgs": rw("cexit1rw")})),
            "E-CEXIT1RW",
            1,
            NotRun,
            &[],
            &["E-CEXIT1RW"],
        ),
        // Attacks row 829: where Copilot looks for its own handler's answer (bytes in
        // `tests/fixtures/real/copilot-1.0.102/`).
        form(
            "clogdeny",
            "preToolUse",
            include_str!("fixtures/real/copilot-1.0.102/deny-after-a-log-line.out").to_string(),
            "",
            0,
            Original,
            &[],
            &[],
        ),
        form(
            "cerrdeny",
            "preToolUse",
            String::new(),
            include_str!("fixtures/real/copilot-1.0.102/deny-on-stderr.err"),
            0,
            Original,
            &[],
            &[],
        ),
        form(
            "cstrdeny",
            "preToolUse",
            include_str!("fixtures/real/copilot-1.0.102/deny-in-a-json-string.out").to_string(),
            "",
            0,
            Original,
            &[],
            &[],
        ),
        form(
            "cbomdeny",
            "preToolUse",
            include_str!("fixtures/real/copilot-1.0.102/deny-after-a-byte-order-mark.out")
                .to_string(),
            "",
            0,
            NotRun,
            &["R-CBOMDENY"],
            &[],
        ),
        form(
            "chalfdeny",
            "preToolUse",
            include_str!("fixtures/real/copilot-1.0.102/deny-with-half-an-emoji.out").to_string(),
            "",
            0,
            Original,
            &[],
            &[],
        ),
        form(
            "cmalformed",
            "preToolUse",
            include_str!("fixtures/real/copilot-1.0.102/malformed.out").to_string(),
            "",
            0,
            Original,
            &[],
            &[],
        ),
        form(
            "cdupallow",
            "preToolUse",
            include_str!("fixtures/real/copilot-1.0.102/deny-then-a-duplicate-allow.out")
                .to_string(),
            "",
            0,
            Original,
            &[],
            &[],
        ),
        form(
            "cctx",
            "preToolUse",
            j(json!({"permissionDecision": "allow", "additionalContext": "C-CCTX"})),
            "",
            0,
            Original,
            &["C-CCTX"],
            &[],
        ),
        form(
            "chalt",
            "preToolUse",
            j(json!({"continue": false, "stopReason": "R-CHALT"})),
            "",
            0,
            Original,
            &[],
            &["R-CHALT"],
        ),
        form(
            "cblock",
            "preToolUse",
            j(json!({"decision": "block", "reason": "R-CBLOCK"})),
            "",
            0,
            Original,
            &[],
            &["R-CBLOCK"],
        ),
        form(
            "cupd",
            "preToolUse",
            j(json!({"permissionDecision": "allow", "updatedInput": rw("cupd")})),
            "",
            0,
            Original,
            &[],
            &[],
        ),
        form(
            "csys",
            "preToolUse",
            j(json!({"systemMessage": "S-CSYS"})),
            "",
            0,
            Original,
            &[],
            &["S-CSYS"],
        ),
        form(
            "pallowrw",
            "PreToolUse",
            hso(
                "PreToolUse",
                json!({"permissionDecision": "allow", "updatedInput": rw("pallowrw")}),
            ),
            "",
            0,
            Rewritten,
            &[],
            &[],
        ),
        form(
            "pnonerw",
            "PreToolUse",
            hso("PreToolUse", json!({"updatedInput": rw("pnonerw")})),
            "",
            0,
            Rewritten,
            &[],
            &[],
        ),
        form(
            "pdenybare",
            "PreToolUse",
            hso("PreToolUse", json!({"permissionDecision": "deny"})),
            "",
            0,
            NotRun,
            &[],
            &[],
        ),
        form(
            "pmod",
            "PreToolUse",
            j(json!({"permissionDecision": "allow", "modifiedArgs": rw("pmod")})),
            "",
            0,
            Rewritten,
            &[],
            &[],
        ),
        form(
            "pexit2",
            "PreToolUse",
            String::new(),
            "E-PEXIT2",
            2,
            NotRun,
            &[],
            &[],
        ),
        form(
            "pctx",
            "PreToolUse",
            hso("PreToolUse", json!({"additionalContext": "C-PCTX"})),
            "",
            0,
            Original,
            &["C-PCTX"],
            &[],
        ),
        form(
            "ptopctx",
            "PreToolUse",
            j(json!({"additionalContext": "C-PTOPCTX"})),
            "",
            0,
            Original,
            &["C-PTOPCTX"],
            &[],
        ),
        form(
            "psys",
            "PreToolUse",
            j(json!({"systemMessage": "S-PSYS"})),
            "",
            0,
            Original,
            &[],
            &["S-PSYS"],
        ),
        form(
            "phalt",
            "PreToolUse",
            j(json!({"continue": false, "stopReason": "R-PHALT"})),
            "",
            0,
            Original,
            &[],
            &["R-PHALT"],
        ),
        form(
            "cpostctx",
            "postToolUse",
            j(json!({"additionalContext": "C-CPOSTCTX"})),
            "",
            0,
            Original,
            &["C-CPOSTCTX"],
            &[],
        ),
        form(
            "cpost2",
            "postToolUse",
            String::new(),
            "E-CPOST2",
            2,
            Original,
            &[],
            &["E-CPOST2"],
        ),
        form(
            "cpost1ctx",
            "postToolUse",
            j(json!({"additionalContext": "C-CPOST1CTX"})),
            "",
            1,
            Original,
            &[],
            &["C-CPOST1CTX"],
        ),
        form(
            "cpostmod",
            "postToolUse",
            j(
                json!({"modifiedResult": {"resultType": "success", "textResultForLlm": "M-CPOSTMOD"}}),
            ),
            "",
            0,
            Original,
            &["M-CPOSTMOD"],
            &[],
        ),
        form(
            "cpostblock",
            "postToolUse",
            j(json!({"decision": "block", "reason": "R-CPOSTBLOCK"})),
            "",
            0,
            Original,
            &["Tool result blocked: R-CPOSTBLOCK"],
            &[],
        ),
        form(
            "ppostctx",
            "PostToolUse",
            hso("PostToolUse", json!({"additionalContext": "C-PPOSTCTX"})),
            "",
            0,
            Original,
            &[],
            &["C-PPOSTCTX"],
        ),
        form(
            "ppostctxtop",
            "PostToolUse",
            j(json!({"additionalContext": "C-PTOPPOSTCTX"})),
            "",
            0,
            Original,
            &["C-PTOPPOSTCTX"],
            &[],
        ),
        form(
            "ppostblock",
            "PostToolUse",
            j(json!({"decision": "block", "reason": "R-PPOSTBLOCK"})),
            "",
            0,
            Original,
            &["Tool result blocked: R-PPOSTBLOCK"],
            &[],
        ),
        form(
            "cpermdenybare",
            "permissionRequest",
            j(json!({"behavior": "deny"})),
            "",
            0,
            NotRun,
            &[],
            &[],
        ),
        form(
            "cpermexit2",
            "permissionRequest",
            String::new(),
            "E-CPERMEXIT2",
            2,
            NotRun,
            &[],
            &["E-CPERMEXIT2"],
        ),
        form(
            "cpermexit2allow",
            "permissionRequest",
            j(json!({"behavior": "allow"})),
            "E-CPERMEXIT2ALLOW",
            2,
            NotRun,
            &[],
            &[],
        ),
    ]
}

/// Every answer form of the preToolUse, PreToolUse, postToolUse, PostToolUse and
/// permissionRequest rows, and every form hookx writes on them, probed against the real client
/// with hookx out of the loop (the handler is the recording script, printing the form). Prints
/// one line per form, checks the hand-written forms against the recorded facts
/// (conformance/copilot-facts.md) and every form against the answer book (`answers.json`, see
/// `live_common/answers.rs`). A form that may stop the agent runs alone, with a call after it.
fn ground_truth_answer_forms() {
    let forms = copilot_forms();
    let mine = hookx_forms();
    let mut book_forms: Vec<answers::Form> = forms
        .iter()
        .map(|f| answers::Form {
            name: f.name.into(),
            event: f.label.into(),
            stdout: f.stdout.clone(),
            stderr: f.stderr.into(),
            exit: f.exit,
            intent: None,
        })
        .collect();
    book_forms.extend(mine.iter().filter(|f| !may_stop(f)).cloned());
    let answer_all = |sb: &Sandbox, forms: &[&answers::Form]| {
        sb.write("home/.copilot/hooks/dump.json", &dump_everything(sb));
        for f in forms {
            let when = format!("o-{}.txt", f.name);
            sb.answer(&f.event, &f.name, &when, &f.stdout, &f.stderr, f.exit);
        }
    };
    let Some(l) = live(
        "forms",
        |sb| answer_all(sb, &book_forms.iter().collect::<Vec<_>>()),
        &[],
    ) else {
        return;
    };
    assert_eq!(
        book_forms.iter().map(|f| &f.name).collect::<Vec<_>>(),
        form_names().iter().collect::<Vec<_>>(),
        "the script calls every form, in order"
    );
    let became = |l: &Live, name: &str| {
        let o = l.sb.project.join(format!("o-{name}.txt")).exists();
        let r = l.sb.project.join(format!("r-{name}.txt")).exists();
        match (o, r) {
            (false, false) => Became::NotRun,
            (true, false) => Became::Original,
            (false, true) => Became::Rewritten,
            (true, true) => panic!("{name}: both ran"),
        }
    };
    let mut entries = Vec::new();
    let mut note = |l: &Live, scenario: &str, f: &answers::Form, halted: Option<bool>| {
        let sent = l.sent(scenario);
        let effect = f.effect(became(l, &f.name), |t| sent.contains(t), halted);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            l.tool_result(scenario, &format!("o-{}.txt", f.name))
        }))
        .unwrap_or_default();
        eprintln!(
            "form {:<16} {:<18} exit {} {effect:?}; result {result}",
            f.name, f.event, f.exit
        );
        entries.push(answers::Entry {
            form: f.clone(),
            effect,
        });
    };
    for f in &book_forms {
        note(&l, "forms", f, None);
    }
    let sent = l.sent("forms");
    let mut failed = Vec::new();
    for f in &forms {
        let became = became(&l, f.name);
        if became != f.became {
            failed.push(format!(
                "{} {}: became {became:?}, recorded {:?}",
                f.label, f.name, f.became
            ));
        }
        for t in f.seen.iter().filter(|t| !sent.contains(*t)) {
            failed.push(format!(
                "{} {}: {t} did not reach the model",
                f.label, f.name
            ));
        }
        for t in f.unseen.iter().filter(|t| sent.contains(*t)) {
            failed.push(format!("{} {}: {t} reached the model", f.label, f.name));
        }
    }
    for f in mine.iter().filter(|f| may_stop(f)) {
        let scenario = format!("fstop-{}", f.name);
        let l = live(&scenario, |sb| answer_all(sb, &[f]), &[]).expect("the client ran before");
        let after = became(&l, &format!("{}after", f.name));
        note(&l, &scenario, f, Some(after == Became::NotRun));
    }
    let (probed, rewrite) = hookx_probed();
    let book = answers::Book {
        client: "copilot-cli".into(),
        version: client::VERSION.into(),
        host: "copilot".into(),
        rewrite,
        probed,
        forms: entries,
    };
    failed.extend(book.settle("copilot"));
    assert!(
        failed.is_empty(),
        "{} forms differ:\n  {}",
        failed.len(),
        failed.join("\n  ")
    );
}

/// Attacks rows 2040-2059 (row 1912): two PreToolUse hooks (Claude's PascalCase event, which
/// Copilot CLI reads with Claude's answers) of the user's answering each call their own way
/// (`merge_probe::claude_cases`): what Copilot made of each pair (recorded in
/// `tests/fixtures/merged/`) against what `simulate --host copilot` says of the same file.
fn several_hooks_answers_merge_as_simulate_says() {
    let cases = merge_probe::claude_cases("p");
    let Some(l) = live(
        "merge",
        |sb| {
            let label = |l: &str| json!({"hooks": [{"type": "command", "command": sb.dumper(l)}]});
            let hooks = json!({"version": 1, "hooks": {"PreToolUse": [label("ma"), label("mb")]}});
            sb.write("home/.copilot/hooks/merge.json", &hooks.to_string());
            for (label, name, when, a) in merge_probe::answers(&cases) {
                sb.answer(label, name, &when, &a.stdout, &a.stderr, a.exit);
            }
        },
        &[],
    ) else {
        return;
    };
    let rec = merge_probe::Recording {
        client: "copilot-cli".into(),
        version: client::VERSION.into(),
        host: "copilot".into(),
        event: "PreToolUse".into(),
        tool: "bash".into(),
        input: json!({"description": "d"}),
        scopes: None,
        cases: merge_probe::recorded(&cases, &l.sb.project, |when| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                l.tool_result("merge", when)
            }))
            .unwrap_or_else(|_| "(no result)".into())
        }),
    };
    let mut c = Checks::default();
    c.failed(merge_probe::differences(
        &format!("copilot-{}", client::VERSION),
        &rec,
    ));
    c.done("merge");
}

/// Ground truth: `decision:"block"` on userPromptSubmitted refuses the prompt.
fn ground_truth_blocked_prompt() {
    let Some(l) = live(
        "blockprompt",
        |sb| {
            sb.write("home/.copilot/hooks/dump.json", &dump_everything(sb));
            sb.answer(
                "userPromptSubmitted",
                "a",
                "",
                r#"{"decision":"block","reason":"PROMPT-BLOCKED"}"#,
                "",
                0,
            );
        },
        &[],
    ) else {
        return;
    };
    assert!(
        l.model.requests_of("blockprompt").is_empty(),
        "no model request for a blocked prompt"
    );
    assert!(
        l.out.log.contains("PROMPT-BLOCKED")
            || l.out.stderr.contains("PROMPT-BLOCKED")
            || l.out.stdout.contains("PROMPT-BLOCKED")
    );
    record::check("blockprompt", &l);
}

/// Ground truth: auto-compaction (preCompact), an async shell (notification), a failed model
/// call (errorOccurred, sessionEnd `error`).
fn ground_truth_compact_and_error() {
    let Some(l) = live(
        "compact",
        |sb| {
            sb.write("home/.copilot/hooks/dump.json", &dump_everything(sb));
        },
        &[("COPILOT_PROVIDER_MAX_PROMPT_TOKENS", "20000")],
    ) else {
        return;
    };
    assert_ne!(l.out.status, Some(0));
    for label in ["preCompact", "errorOccurred"] {
        assert!(
            l.labels().contains(&label),
            "{label} fired: {:?}",
            l.labels()
        );
    }
    l.dump("sessionEnd", r#""reason":"error""#);
    record::check("compact", &l);
}

const CLAUDE_EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
];
const BRICKS_EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
];

/// Attacks row 1307, live: Copilot CLI 1.0.102 fires `agentStop` at a subagent's end too,
/// naming it (`agentId`). A trusted Gemini `AfterAgent` hook (which Gemini never runs for a
/// subagent) that blocks a stop unless it continues one, run by hookx's Copilot route: it
/// runs at the main agent's stops only (with main's `select.rs` it ran at the subagent's
/// too, and blocked it, which Copilot did not act on: its reason never reached the subagent).
fn a_foreign_stop_rule_does_not_keep_a_copilot_subagent_going() {
    let Some(l) = live_env("substop", |sb| {
        sb.write(
            "project/.gemini/settings.json",
            &json!({"hooks": {"AfterAgent": [{"hooks": [
                {"type": "command", "command": sb.dumper("gemini-AfterAgent")}]}]}})
            .to_string(),
        );
        sb.answer(
            "gemini-AfterAgent",
            "a",
            r#""stop_hook_active":false"#,
            r#"{"decision":"block","reason":"G-KEEP-GOING"}"#,
            "",
            0,
        );
        hookx(sb, &["trust", "--yes"]);
        hookx(sb, &["install", "--host", "copilot"]);
        routed_env(sb)
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    // The subagent's requests: those whose user message is its task (the parent's carry the
    // task only in the call's arguments).
    let sub: String = l
        .model
        .chats()
        .iter()
        .filter(|b| {
            b["messages"].as_array().is_some_and(|m| {
                m.iter().any(|m| {
                    m["role"] == "user" && m["content"].to_string().contains("SCENARIO:sub run")
                })
            })
        })
        .map(Value::to_string)
        .collect();
    c.that(
        sub.contains("echo from-subagent"),
        "the subagent ran its command",
    );
    c.that(
        !sub.contains("G-KEEP-GOING"),
        "the Gemini stop hook's reason reached the subagent",
    );
    c.that(
        l.sent("substop").contains("G-KEEP-GOING"),
        "the Gemini stop hook blocked the main agent's stop once",
    );
    let runs: Vec<_> = l
        .dumps
        .iter()
        .filter(|d| d.label == "gemini-AfterAgent")
        .map(|d| d.stdin["stop_hook_active"].clone())
        .collect();
    c.that(
        runs == [json!(false), json!(true)],
        format!("the Gemini hook ran at the main agent's two stops only: {runs:?}"),
    );
    c.done("substop");
}

/// Attacks row 1572: what Copilot CLI 1.0.102 does with its own handlers after a deny, hookx
/// out of the loop. The project's `.github/hooks/chain.json` holds two `preToolUse` handlers, the
/// first denying `chain-denied`, the second a logger; the project's `.claude/settings.json`
/// (which Copilot reads itself, after its own files) a `PreToolUse` logger. The model calls
/// bash twice, the second call allowed. Copilot runs neither logger on the denied call, both
/// on the other: a rule after a deny runs 0 times under Copilot itself, as under hookx's route
/// (`first_deny_stops_the_rest`).
fn copilot_runs_no_handler_after_a_deny() {
    let Some(l) = live_env("chain", |sb| {
        sb.write(
            "project/.github/hooks/chain.json",
            &json!({"version": 1, "hooks": {"preToolUse": [
                {"type": "command", "bash": sb.dumper("c-deny")},
                {"type": "command", "bash": sb.dumper("c-after")},
            ]}})
            .to_string(),
        );
        sb.write(
            "project/.claude/settings.json",
            &json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
                {"type": "command", "command": sb.dumper("claude-after")}]}]}})
            .to_string(),
        );
        sb.answer(
            "c-deny",
            "a",
            "chain-denied",
            r#"{"permissionDecision":"deny","permissionDecisionReason":"C-CHAIN-DENY"}"#,
            "",
            0,
        );
        routed_env(sb)
    }) else {
        return;
    };
    let mut c = Checks::default();
    let saw = |label: &str, text: &str| {
        l.dumps
            .iter()
            .filter(|d| d.label == label && d.raw.contains(text))
            .count()
    };
    let counts: Vec<(&str, usize, usize)> = ["c-deny", "c-after", "claude-after"]
        .into_iter()
        .map(|h| (h, saw(h, "chain-denied"), saw(h, "chain-allowed")))
        .collect();
    c.that(
        counts == [("c-deny", 1, 1), ("c-after", 0, 1), ("claude-after", 0, 1)],
        format!("(handler, runs on the denied call, on the allowed one): {counts:?}"),
    );
    let denied = l.tool_result("chain", "chain-denied");
    c.that(
        denied.contains("C-CHAIN-DENY"),
        format!("the deny is the call's result: {denied}"),
    );
    c.done("chain");
}

/// hookx routed in (project and user routes): the user's Claude settings (which Copilot never
/// reads) and the project's Bricks file run through hookx, each handler in its own dialect,
/// and each answer has its native effect; the project's `.claude/settings.json`, which Copilot
/// reads itself, is left to hookx by Copilot's `disabledHooks` (install writes it) and gets
/// Claude's payload. No handler runs twice.
fn routed_handlers_of_every_dialect() {
    let Some(l) = live_env("routed", |sb| {
        sb.write(
            "home/.claude/settings.json",
            &dump_claude_style(sb, "claude", CLAUDE_EVENTS),
        );
        sb.write(
            "project/.bricks/hooks.json",
            &dump_claude_style(sb, "bricks", BRICKS_EVENTS),
        );
        sb.write(
            "project/.claude/settings.json",
            &dump_claude_style(sb, "native", &["PreToolUse"]),
        );
        let hso = |e: &str, inner: &str| {
            format!(r#"{{"hookSpecificOutput":{{"hookEventName":"{e}",{inner}}}}}"#)
        };
        sb.answer(
            "claude-PreToolUse",
            "a",
            "claude-deny",
            &hso(
                "PreToolUse",
                r#""permissionDecision":"deny","permissionDecisionReason":"CLAUDE-DENY""#,
            ),
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
        sb.answer("claude-PreToolUse", "c", "claude-modify", &hso("PreToolUse",
            r#""permissionDecision":"allow","updatedInput":{"command":"echo claude-modified","description":"m"}"#), "", 0);
        sb.answer(
            "claude-PreToolUse",
            "d",
            "claude-ask",
            &hso(
                "PreToolUse",
                r#""permissionDecision":"ask","permissionDecisionReason":"CLAUDE-ASK""#,
            ),
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
            "claude-PostToolUse",
            "a",
            "claude-post",
            &hso("PostToolUse", r#""additionalContext":"CLAUDE-POST-CTX""#),
            "",
            0,
        );
        sb.answer(
            "bricks-PostToolUse",
            "a",
            "bricks-post",
            r#"{"additionalContext":"BRICKS-POST-CTX"}"#,
            "",
            0,
        );
        sb.answer(
            "claude-SessionStart",
            "a",
            "",
            &hso(
                "SessionStart",
                r#""additionalContext":"CLAUDE-SESSION-CTX""#,
            ),
            "",
            0,
        );
        sb.answer(
            "claude-UserPromptSubmit",
            "a",
            "",
            &hso(
                "UserPromptSubmit",
                r#""additionalContext":"CLAUDE-PROMPT-CTX""#,
            ),
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
        hookx(sb, &["install", "--host", "copilot"]);
        hookx(sb, &["install", "--host", "copilot", "--scope", "user"]);
        hookx(sb, &["trust", "--yes"]);
        routed_env(sb)
    }) else {
        return;
    };
    let mut c = Checks::default();
    let result = |t: &str| l.tool_result("routed", t);
    let sent = l.sent("routed");
    let has = |t: &str, want: &str| {
        (
            result(t).contains(want),
            format!("{t}: {want} in {}", result(t)),
        )
    };
    for (tool, want) in [
        ("claude-deny", "Denied by preToolUse hook: CLAUDE-DENY"),
        ("claude-exit2", "CLAUDE-EXIT2"),
        ("bricks-deny", "BRICKS-DENY"),
        ("claude-modified", "claude-modified\\n"),
        ("claude-ask", "unable to ask user"),
        ("claude-post", "CLAUDE-POST-CTX"),
        ("bricks-post", "BRICKS-POST-CTX"),
    ] {
        let (ok, what) = has(tool, want);
        c.that(ok, what);
    }
    for ctx in [
        "CLAUDE-SESSION-CTX",
        "CLAUDE-PROMPT-CTX",
        "CLAUDE-STOP-AGAIN",
    ] {
        c.that(sent.contains(ctx), format!("{ctx} reached the model"));
    }
    // Each handler got its own dialect's stdin and env (no `transcript_path`: Copilot sends
    // none on tool events, and its events.jsonl is not a Claude transcript).
    let project = l.sb.project.display().to_string();
    let write = l.dump("claude-PreToolUse", r#""tool_name":"Write""#);
    c.that(
        write.stdin["tool_input"]["file_path"]
            .as_str()
            .is_some_and(|p| p.ends_with("notes.txt"))
            && write.stdin["hook_event_name"] == "PreToolUse",
        format!("Claude stdin for a create: {}", write.raw),
    );
    c.that(
        write.env.get("CLAUDE_PROJECT_DIR") == Some(&project),
        "Claude env",
    );
    let bricks = l.dump("bricks-PreToolUse", "bricks-post");
    c.that(
        bricks.stdin["tool_name"] == "bash",
        format!("Bricks stdin: {}", bricks.raw),
    );
    c.that(
        bricks.env.get("BRICKS_PROJECT_DIR") == Some(&project),
        "Bricks env",
    );
    // The project's .claude/settings.json: Copilot reads it, but leaves its handler to hookx
    // (`disabledHooks`, which install wrote), which runs it with Claude's payload.
    let native = l.dump("native-PreToolUse", "bricks-post");
    c.that(
        native.stdin["tool_name"] == "Bash"
            && native.stdin["tool_input"]["command"] == "echo bricks-post"
            && native.env.contains_key("HOOKX_HOST"),
        format!("hookx ran it, with Claude's payload: {}", native.raw),
    );
    // No handler ran twice for one event (payloads compared without their digits: times).
    let mut seen = std::collections::BTreeMap::new();
    for d in &l.dumps {
        let key = (
            d.label.clone(),
            d.raw.replace(|c: char| c.is_ascii_digit(), ""),
        );
        *seen.entry(key).or_insert(0) += 1;
    }
    for ((label, raw), n) in seen {
        c.that(
            n == 1 || label.ends_with("Stop"),
            format!("{label} ran {n} times on {raw}"),
        );
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

/// Converted configs under the real client: `convert` output (wrapped) of a Claude file (kept out
/// of the project, so Copilot does not also run it natively) is accepted and behaves as the
/// source did (the guard blocks `rm -rf /`, a Claude context reaches the model); the plain
/// output (`--no-wrap`) is accepted too, and its handler gets Copilot's payload, as the loss
/// report says.
fn converted_claude_config() {
    let Some(l) = live_env("converted", |sb| {
        let guard = sb.write("guard.sh", CLAUDE_GUARD);
        let wrapped_src = json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": format!("sh {}", guard.display())}]}],
            "PostToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": sb.dumper("wrapped-PostToolUse")}]}],
        }});
        let plain_src = json!({"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [
            {"type": "command", "command": sb.dumper("plain-PostToolUse")}]}]}});
        sb.answer("wrapped-PostToolUse", "a", "safe-call",
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"WRAPPED-CTX"}}"#, "", 0);
        for (name, src, wrap) in [
            ("wrapped", &wrapped_src, true),
            ("plain", &plain_src, false),
        ] {
            let from = sb.write(&format!("{name}/.claude/settings.json"), &src.to_string());
            let to = sb.project.join(format!(".github/hooks/{name}.json"));
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            let mut args = vec![
                "convert",
                from.to_str().unwrap(),
                "--to",
                "copilot",
                "--out",
                to.to_str().unwrap(),
            ];
            // Wrapping is the default; the plain output is asked for.
            if !wrap {
                args.push("--no-wrap");
            }
            common::hookx().args(&args).assert().success();
        }
        // The wrapped commands name `hookx`: the run finds this build first on PATH.
        let bin = std::path::Path::new(env!("CARGO_BIN_EXE_hookx"))
            .parent()
            .unwrap()
            .display()
            .to_string();
        vec![
            ("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true".into()),
            (
                "PATH",
                format!("{bin}:{}", std::env::var("PATH").unwrap_or_default()),
            ),
        ]
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        !l.out.log.contains("Invalid hook configuration"),
        "Copilot accepted the converted files",
    );
    let rm = l.tool_result("converted", "rm -rf /nonexistent-hookx-canary");
    c.that(
        rm.contains("Denied by preToolUse hook") && rm.contains("BLOCKED by the Claude guard"),
        format!("the guard blocked rm: {rm}"),
    );
    let safe = l.tool_result("converted", "safe-call");
    c.that(
        safe.contains("safe-call\\n") && safe.contains("WRAPPED-CTX"),
        format!("wrapped context: {safe}"),
    );
    let wrapped = l.dump("wrapped-PostToolUse", "safe-call");
    c.that(
        wrapped.stdin["tool_name"] == "Bash"
            && wrapped.stdin["tool_input"]["command"] == "echo safe-call",
        format!("the wrapped handler got Claude's payload: {}", wrapped.raw),
    );
    let plain = l.dump("plain-PostToolUse", "notes.txt");
    c.that(
        plain.stdin["toolName"] == "create" && plain.stdin["toolArgs"]["path"].is_string(),
        format!(
            "the plain handler got Copilot's payload, as the note says: {}",
            plain.raw
        ),
    );
    c.done("converted");
}

/// A Claude guard that blocks writes to `.env`, reading the path where Claude's `Write` has it.
const ENV_GUARD: &str = r#"#!/bin/sh
p=$(jq -r '.tool_input.file_path // empty')
case $p in
  *.env) echo "BLOCKED by the env guard: $p" >&2; exit 2 ;;
esac
exit 0
"#;

/// Attacks row 1060: the model (a prompt injection steers it) calls `create` with its `path`
/// on `.env` and a decoy `file_path` beside it. Copilot 1.0.102 writes `path` and ignores the
/// extra key; hookx renamed `path` to Claude's `file_path` and then let the decoy overwrite
/// it, so the converted Claude guard saw `notes.txt` and allowed the write to `.env`.
fn a_decoy_path_beside_the_real_one_does_not_pass_a_claude_guard() {
    let Some(l) = live_env("decoy", |sb| {
        let guard = sb.write("guard.sh", ENV_GUARD);
        let src = json!({"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [
            {"type": "command", "command": format!("sh {}", guard.display())}]}]}});
        let from = sb.write("src/.claude/settings.json", &src.to_string());
        let to = sb.project.join(".github/hooks/guard.json");
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        common::hookx()
            .args(["convert", from.to_str().unwrap(), "--to", "copilot"])
            .args(["--out", to.to_str().unwrap()])
            .assert()
            .success();
        let bin = std::path::Path::new(env!("CARGO_BIN_EXE_hookx"))
            .parent()
            .unwrap()
            .display()
            .to_string();
        vec![
            ("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true".into()),
            (
                "PATH",
                format!("{bin}:{}", std::env::var("PATH").unwrap_or_default()),
            ),
        ]
    }) else {
        return;
    };
    let mut c = Checks::default();
    let result = l.tool_result("decoy", ".env");
    c.that(
        result.contains("BLOCKED by the env guard"),
        format!("the guard saw the path create writes: {result}"),
    );
    c.that(
        !l.sb.project.join(".env").exists(),
        "Copilot did not write .env",
    );
    c.done("decoy");
}

/// The README's migration story under the real client (issue 24): a Claude project (a Bash
/// guard, a formatter on Write/Edit, a prompt logger, a Stop hook) converted with `--write` to
/// Copilot, Gemini, Codex and Cursor, then `hookx install --host copilot` and `hookx trust
/// --yes` ([`common::migration_story`]). Each handler appends `LABEL RUNNER PAYLOAD` to a log
/// (RUNNER: `hookx` when hookx ran it, else `agent`). Copilot 1.0.102 reads
/// `.claude/settings.json` itself, with its own payload; install lists each of its handlers in
/// Copilot's `disabledHooks`, so Copilot leaves them to hookx, which runs each once, with the
/// Claude payload it was written for. convert writes Copilot no copy, and hookx runs neither
/// the Gemini nor the Codex copy. A personal Gemini rule routed through hookx in the user scope
/// ([`common::story_personal_rule`]) puts `hookx run` on every event with all the copies in
/// sight: it runs that rule once per event and no copy.
fn migration_story_runs_each_rule_once() {
    let mut said = (String::new(), String::new());
    let Some(l) = live_env("story", |sb| {
        said.0 = common::migration_story(
            &sb.project,
            &sb.home,
            "copilot,gemini,codex,cursor",
            "copilot",
        );
        // Copilot reads Claude files itself: the personal rule is a Gemini one.
        common::story_personal_rule(
            &sb.project,
            &sb.home,
            "copilot",
            ".gemini/settings.json",
            &["BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent"],
        );
        let doctor = common::hookx_at(&sb.project, &sb.home, &["doctor", "--host", "copilot"])
            .get_output()
            .clone();
        said.1 = String::from_utf8_lossy(&doctor.stdout).into_owned();
        routed_env(sb)
    }) else {
        return;
    };
    let log = std::fs::read_to_string(l.sb.project.join("runs.log")).unwrap_or_default();
    let mut c = Checks::default();
    c.that(
        !l.sb.project.join(".github/hooks/hooks.json").exists(),
        "convert wrote Copilot no copy of the Claude file it reads itself",
    );
    story_rules_ran_once_with_claude_payload(&l, &mut c);
    let settings = std::fs::read_to_string(l.sb.home.join(".copilot/settings.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .unwrap_or(Value::Null);
    c.that(
        settings["disabledHooks"].as_array().map(Vec::len) == Some(4)
            && !said
                .0
                .contains("warning: Copilot runs .claude/settings.json itself"),
        format!(
            "install listed the 4 handlers in Copilot's disabledHooks: {settings}\n{}",
            said.0
        ),
    );
    c.that(
        said.1.contains("leaves it to hookx by its own setting")
            && !said
                .1
                .contains("runs it itself with its copilot-pascal payload"),
        format!("doctor says hookx runs them: {}", said.1),
    );
    // The personal rule, through hookx's user route: once per event of the two tool calls,
    // with Gemini's payload.
    let personal = common::story_runs_per_event(&l.sb.project, "user");
    let once: std::collections::BTreeMap<String, usize> = [
        ("AfterAgent", 1),
        ("AfterTool", 2),
        ("BeforeAgent", 1),
        ("BeforeTool", 2),
    ]
    .into_iter()
    .map(|(e, n)| (e.to_string(), n))
    .collect();
    c.that(
        personal == once,
        format!("the personal rule ran once per event: {personal:?}\n{log}"),
    );
    c.done("story");
}

/// Each story rule ran exactly once, through hookx, with the Claude payload: the guard sees
/// `tool_name: Bash`, the formatter a Write's `file_path`.
fn story_rules_ran_once_with_claude_payload(l: &Live, c: &mut Checks) {
    let log = std::fs::read_to_string(l.sb.project.join("runs.log")).unwrap_or_default();
    let runs = |label: &str| common::story_runs(&l.sb.project, label);
    for label in ["guard", "fmt", "log", "stop"] {
        let all = runs(label);
        c.that(
            all.len() == 1 && all[0].starts_with(&format!("{label} hookx ")),
            format!("{label}: once per event, by hookx:\n{log}"),
        );
    }
    let payload = |label: &str| -> Value {
        runs(label)
            .first()
            .and_then(|l| l.splitn(3, ' ').nth(2).map(str::to_string))
            .and_then(|p| serde_json::from_str(&p).ok())
            .unwrap_or(Value::Null)
    };
    let fmt = payload("fmt");
    c.that(
        fmt["hook_event_name"] == "PostToolUse"
            && fmt["tool_name"] == "Write"
            && fmt["tool_input"]["file_path"]
                .as_str()
                .is_some_and(|p| p.ends_with("notes.txt")),
        format!("the formatter got Claude's payload, a Write's file_path:\n{log}"),
    );
    let guard = payload("guard");
    c.that(
        guard["tool_name"] == "Bash" && guard["tool_input"]["command"] == "echo story-bash",
        format!("the guard got Claude's payload:\n{log}"),
    );
}

/// The issue's Claude-only project (issue 24): the story's Claude file with no copy
/// ([`common::migration_story`] into Cursor, which reads the Claude file itself), `hookx
/// install --host copilot`, `hookx trust --yes`. Copilot reads `.claude/settings.json` itself with its own payload (a
/// Write's file is `path`), so on its own the formatter sees no `file_path`. install lists the
/// file's handlers in Copilot's `disabledHooks` (`~/.copilot/settings.json`): Copilot leaves
/// them to hookx, and each rule runs exactly once, with Claude's payload. The user then
/// notes something in that file with a comment, adds a key without the comma after it, a
/// number with a leading zero, and leaves a trailing comma, all of which Copilot reads (and so
/// still leaves the handlers to hookx). Uninstall gives Copilot its run back
/// and leaves no setting of hookx's behind, the user's comment kept.
fn claude_only_project_runs_each_rule_once_with_claude_payload() {
    let Some(l) = live_env("story", |sb| {
        // Converted to Cursor only, which reads the Claude file itself: no copy is written.
        common::migration_story(&sb.project, &sb.home, "cursor", "copilot");
        let settings = sb.home.join(".copilot/settings.json");
        let text = std::fs::read_to_string(&settings).unwrap();
        let body = text.trim_end().strip_suffix('}').unwrap();
        // A key of the user's with the comma after it left out, and a number with a leading
        // zero, which hookx's readers refuse (attacks row 136).
        let body = body.trim_start().strip_prefix('{').unwrap();
        let noted =
            format!("// the user's note\n{{\"model\": \"gpt-4.1\"\n \"n\": 01, {body},\n}}\n");
        std::fs::write(&settings, noted).unwrap();
        routed_env(sb)
    }) else {
        return;
    };
    let mut c = Checks::default();
    story_rules_ran_once_with_claude_payload(&l, &mut c);
    let settings = l.sb.home.join(".copilot/settings.json");
    // hookx edits only what it reads exactly: the user writes the number as JSON first.
    let text = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(&settings, text.replace("\"n\": 01,", "\"n\": 1,")).unwrap();
    hookx(&l.sb, &["install", "--uninstall", "--host", "copilot"]);
    let left = std::fs::read_to_string(&settings).unwrap_or_default();
    c.that(
        !l.sb.project.join(".cursor/hooks.json").exists()
            && left.contains("// the user's note")
            && !left.contains("disabledHooks")
            && !left.contains("hookx"),
        format!("no copy was written, and uninstall removed hookx's setting: {left}"),
    );
    c.done("story");
}

/// The team loop under Copilot CLI (attacks rows 880-899, [`common::team_of_hosts`]): hooks
/// written for Claude, Gemini, Codex and Copilot, each file converted into the three others',
/// hookx installed for Copilot in both scopes, trusted. Copilot runs its own
/// `.github/hooks/hooks.json` (the Copilot rules only: convert writes it no rule Copilot runs
/// from the Claude file) and leaves the Claude file to hookx, whose user route runs the rest.
/// Recorders of Copilot's own in the user's hook folder count the events: every rule once per
/// event, the Codex guard's deny the denied call's result.
fn team_loop_runs_each_rule_once() {
    team_loop_under_copilot(true);
}

/// [`team_loop_runs_each_rule_once`] with nothing installed (a team that converts and commits,
/// hookx on every `PATH`): the four files converted into each other and trusted. Copilot reads
/// both `.github/hooks/hooks.json` and `.claude/settings.json`: convert writes its file no
/// rule it runs from the Claude file already, and the Claude file's copy of a Copilot rule,
/// which Claude needs, stands aside under Copilot, which runs the rule from its own file
/// (attacks row 880: every rule ran twice).
fn team_loop_converted_only_runs_each_rule_once() {
    team_loop_under_copilot(false);
}

/// The team loop under Copilot, with hookx installed in both scopes or nothing installed.
fn team_loop_under_copilot(install: bool) {
    let Some(l) = live_env("team", |sb| {
        team_recorders(sb);
        let hookx_bin = env!("CARGO_BIN_EXE_hookx");
        match install {
            true => common::team_of_hosts(&sb.project, &sb.home, "copilot", hookx_bin),
            false => {
                common::team_of_hosts_files(&sb.project, &sb.home, hookx_bin);
                hookx(sb, &["trust", "--yes"]);
            }
        }
        routed_env(sb)
    }) else {
        return;
    };
    let fired = team_events(&l);
    // Installed, hookx's user route runs the other files' guards, before Copilot's project
    // file (copilot-facts), and Copilot stops at the first deny: the Copilot guard does not
    // start on the call the Codex guard denies.
    let stopped: (&[&str], usize) = match install {
        true => (&["pguard"], 1),
        false => (&[], 0),
    };
    let mut wrong = common::team_once(&l.sb.project, &common::TEAM_HOSTS_LABELS, fired, stopped);
    let denied = l.tool_result("team", common::STORY_DENIED);
    if !denied.contains(common::STORY_REASON) {
        wrong.push(format!(
            "the Codex guard's deny is the call's result: {denied}"
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Attacks row 1678: Copilot CLI 1.0.102 started in a git worktree of a checkout whose team
/// file is a Claude Bash guard, trusted there in hookx, and hookx's project route for Copilot
/// (`.github/hooks/`), committed; repository hooks on. Copilot runs the worktree's route, and
/// hookx follows the checkout's record (rows 1660-1661): the guard's deny is the call's result.
fn a_trusted_guard_denies_when_copilot_starts_in_a_worktree() {
    let Some(l) = live_env("team", |sb| {
        common::worktree_of_a_guarded_checkout(
            &sb.root,
            &sb.project,
            &sb.home,
            "R1678-COPILOT",
            &[&["install", "--host", "copilot"], &["trust", "--yes"]],
        );
        routed_env(sb)
    }) else {
        return;
    };
    let denied = l.tool_result("team", common::STORY_DENIED);
    assert!(
        denied.contains("R1678-COPILOT"),
        "the guard's deny in the worktree is the call's result: {denied}\n{}",
        l.out.stderr
    );
}

/// Recorders of Copilot's own in the user's hook folder, counting the team loop's events:
/// `event-shell` (bash calls), `event-prompt`, `event-stop`.
fn team_recorders(sb: &Sandbox) {
    let rec = |label: &str, matcher: Option<&str>| {
        let mut h = json!({"type": "command", "bash": sb.dumper(label)});
        if let Some(m) = matcher {
            h["matcher"] = m.into();
        }
        json!([h])
    };
    let recorders = json!({"version": 1, "hooks": {
        "preToolUse": rec("event-shell", Some("bash")),
        "userPromptSubmitted": rec("event-prompt", None),
        "agentStop": rec("event-stop", None),
    }});
    sb.write("home/.copilot/hooks/recorders.json", &recorders.to_string());
}

/// How many shell calls, prompts and stops [`team_recorders`] saw.
fn team_events(l: &Live) -> [usize; 3] {
    let count = |label: &str| l.dumps.iter().filter(|d| d.label == label).count();
    ["event-shell", "event-prompt", "event-stop"].map(count)
}

/// The four-file team loop as a teammate without hookx finds it under Copilot CLI (attacks
/// rows 880-899, [`common::team_of_hosts_files`] with `--hookx hookx`): nothing installed or
/// trusted, no `hookx` on Copilot's `PATH`. Copilot runs the Copilot rules from its own file
/// and the Claude rules from the Claude file, each once per event; every copy fails: a guard's
/// copy denies each shell call ("hookx not found"), a logger's or Stop hook's never blocks.
fn team_loop_without_hookx_fails_closed_only_on_the_guards() {
    let Some(l) = live_env("team", |sb| {
        team_recorders(sb);
        common::team_of_hosts_files(&sb.project, &sb.home, "hookx");
        vec![
            ("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true".into()),
            ("PATH", "/usr/local/bin:/usr/bin:/bin".into()),
        ]
    }) else {
        return;
    };
    let [shell, prompts, stops] = team_events(&l);
    let mut wrong = Vec::new();
    if (shell, prompts, stops) != (2, 1, 1) {
        wrong.push(format!(
            "{shell} shell calls, {prompts} prompts, {stops} stops"
        ));
    }
    for (i, label) in common::TEAM_HOSTS_LABELS.iter().enumerate() {
        let own = !(3..9).contains(&i);
        let want = if own {
            [shell, prompts, stops][i % 3]
        } else {
            0
        };
        let runs = common::story_runs(&l.sb.project, label).len();
        if runs != want {
            wrong.push(format!("{label}: {runs} runs, {want} wanted"));
        }
    }
    for call in ["echo story-bash", common::STORY_DENIED] {
        let result = l.tool_result("team", call);
        if !result.contains("hookx not found") {
            wrong.push(format!("a guard's copy denied {call}: {result}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The Claude hook set of `synced_project_runs_each_rule_once`: the recording hook labelled
/// `rule-EVENT` on four events, the tool events on Bash.
fn synced_source(sb: &Sandbox) -> String {
    let tool = |e: &str| json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": sb.dumper(&format!("rule-{e}"))}]}]);
    let plain = |e: &str| json!([{"hooks": [{"type": "command", "command": sb.dumper(&format!("rule-{e}"))}]}]);
    json!({"hooks": {
        "UserPromptSubmit": plain("UserPromptSubmit"),
        "PreToolUse": tool("PreToolUse"),
        "PostToolUse": tool("PostToolUse"),
        "Stop": plain("Stop"),
    }})
    .to_string()
}

/// How many times each `rule-EVENT` hook ran.
fn rule_runs(dumps: &[client::Dump]) -> std::collections::BTreeMap<String, usize> {
    let mut out = std::collections::BTreeMap::new();
    for d in dumps {
        if let Some(event) = d.label.strip_prefix("rule-") {
            *out.entry(event.to_string()).or_insert(0) += 1;
        }
    }
    out
}

/// A Claude project synced to Copilot, Gemini and Codex (`hookx sync`), its source trusted and
/// hookx routed in (`hookx install --host copilot`): under Copilot CLI, which reads the Claude
/// file itself as well as the synced `.github/hooks/hooks.json`, each rule runs as many times
/// as Copilot fires its event (as with the Claude file alone), with the Claude payload it was
/// written for. hookx's plan (issue 24) picks one runner per rule.
fn synced_project_runs_each_rule_once() {
    let hookx_dir = std::path::Path::new(env!("CARGO_BIN_EXE_hookx"))
        .parent()
        .unwrap()
        .display()
        .to_string();
    let env = |hookx_dir: &str| {
        vec![
            ("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true".to_string()),
            (
                "PATH",
                format!("{hookx_dir}:{}", std::env::var("PATH").unwrap_or_default()),
            ),
        ]
    };
    // Ground truth: the Claude file alone, which Copilot runs by itself.
    let Some(alone) = live_env("synced", |sb| {
        sb.write("project/.claude/settings.json", &synced_source(sb));
        env(&hookx_dir)
    }) else {
        return;
    };
    let native = rule_runs(&alone.dumps);
    let Some(l) = live_env("synced", |sb| {
        sb.write("project/.claude/settings.json", &synced_source(sb));
        hookx(sb, &["sync", "--init", "--to", "copilot,gemini,codex"]);
        let source = sb.project.join(".claude/settings.json");
        hookx(sb, &["trust", source.to_str().unwrap()]);
        hookx(sb, &["sync"]);
        hookx(sb, &["install", "--host", "copilot"]);
        hookx(sb, &["sync", "--check"]);
        env(&hookx_dir)
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        !native.is_empty() && native.values().all(|&n| n >= 1),
        format!("Copilot runs the Claude file's rules: {native:?}"),
    );
    c.that(
        !l.out.log.contains("Invalid hook configuration"),
        "Copilot accepted the synced files",
    );
    let synced = rule_runs(&l.dumps);
    c.that(
        synced == native,
        format!("each rule once per event: synced {synced:?}, the Claude file alone {native:?}"),
    );
    for d in l.dumps.iter().filter(|d| d.label.starts_with("rule-")) {
        let event = d.label.trim_start_matches("rule-");
        c.that(
            d.stdin["hook_event_name"] == event,
            format!("{}: the Claude payload of its event: {}", d.label, d.raw),
        );
        if event.ends_with("ToolUse") {
            c.that(
                d.stdin["tool_name"] == "Bash" && d.stdin["tool_input"]["command"].is_string(),
                format!("{}: Claude's tool name and arguments: {}", d.label, d.raw),
            );
        }
    }
    c.done("synced");
}

mod record {
    //! Recorded payloads: written under `HOOKX_RECORD=1`, else compared by keys and types.
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::PathBuf;

    fn dir() -> PathBuf {
        common::fixtures_dir().join(format!("recorded/copilot-{}", client::VERSION))
    }

    /// The hook-relevant variables: what Copilot adds for hooks, not what the run was given.
    fn relevant(key: &str) -> bool {
        (key.starts_with("COPILOT_") || key.starts_with("CLAUDE_"))
            && !client::GIVEN_ENV.contains(&key)
    }

    fn normalise(text: &str, l: &Live) -> String {
        let cache = client::clients_root().join("copilot-cache");
        text.replace(&l.sb.project.display().to_string(), "<project>")
            .replace(&l.sb.home.display().to_string(), "<home>")
            .replace(&cache.display().to_string(), "<copilot-cache>")
    }

    fn fixture(scenario: &str, order: usize, d: &client::Dump, l: &Live) -> Value {
        let flavor = if d.label.starts_with(|c: char| c.is_ascii_uppercase()) {
            "copilot-pascal"
        } else {
            "copilot"
        };
        let env: BTreeMap<&String, String> = d
            .env
            .iter()
            .filter(|(k, _)| relevant(k))
            .map(|(k, v)| (k, normalise(v, l)))
            .collect();
        let stdin: Value = serde_json::from_str(&normalise(&d.raw, l)).expect("JSON stdin");
        json!({"client": "copilot-cli", "version": client::VERSION, "host": "copilot",
            "flavor": flavor, "event": d.label, "scenario": scenario, "order": order,
            "stdin": stdin, "env": env, "cwd": normalise(&d.cwd, l)})
    }

    /// Keys and types, with every object key's path (`/toolArgs/command:string`).
    fn shape(v: &Value, at: String, out: &mut BTreeSet<String>) {
        let kind = match v {
            Value::Null => "null",
            Value::Bool(_) => "bool",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        out.insert(format!("{at}:{kind}"));
        if let Value::Object(map) = v {
            for (k, v) in map {
                shape(v, format!("{at}/{k}"), out);
            }
        }
    }

    fn shapes(fixtures: &[Value]) -> BTreeMap<String, BTreeSet<BTreeSet<String>>> {
        let mut out: BTreeMap<String, BTreeSet<BTreeSet<String>>> = BTreeMap::new();
        for f in fixtures {
            let mut s = BTreeSet::new();
            shape(&f["stdin"], String::new(), &mut s);
            let env: BTreeSet<String> = f["env"]
                .as_object()
                .into_iter()
                .flatten()
                .map(|(k, _)| format!("$env/{k}"))
                .collect();
            s.extend(env);
            out.entry(f["event"].as_str().unwrap().to_string())
                .or_default()
                .insert(s);
        }
        out
    }

    /// Records the run's payloads (`HOOKX_RECORD=1`) or checks them against the recording.
    pub fn check(scenario: &str, l: &Live) {
        let got: Vec<Value> = l
            .dumps
            .iter()
            .enumerate()
            .map(|(i, d)| fixture(scenario, i + 1, d, l))
            .collect();
        let dir = dir();
        let mine = |name: &str| name.starts_with(&format!("{scenario}."));
        if std::env::var_os("HOOKX_RECORD").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            for e in std::fs::read_dir(&dir).unwrap().flatten() {
                if mine(&e.file_name().to_string_lossy()) {
                    std::fs::remove_file(e.path()).unwrap();
                }
            }
            // One fixture per event and payload shape: repeats add nothing to replay.
            let mut seen = BTreeSet::new();
            for f in &got {
                let mut s = BTreeSet::new();
                shape(&f["stdin"], String::new(), &mut s);
                if !seen.insert((f["event"].to_string(), s)) {
                    continue;
                }
                let name = format!(
                    "{scenario}.{:02}.{}.json",
                    f["order"],
                    f["event"].as_str().unwrap()
                );
                std::fs::write(
                    dir.join(name),
                    serde_json::to_string_pretty(f).unwrap() + "\n",
                )
                .unwrap();
            }
            return;
        }
        let recorded: Vec<Value> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (record with HOOKX_RECORD=1)", dir.display()))
            .flatten()
            .filter(|e| mine(&e.file_name().to_string_lossy()))
            .map(|e| serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap())
            .collect();
        assert!(
            !recorded.is_empty(),
            "no recording of {scenario} (HOOKX_RECORD=1)"
        );
        let (want, have) = (shapes(&recorded), shapes(&got));
        assert_eq!(
            want.keys().collect::<Vec<_>>(),
            have.keys().collect::<Vec<_>>(),
            "Copilot {} fired other events in {scenario} than recorded",
            client::VERSION
        );
        for (event, shapes) in &have {
            for s in shapes {
                assert!(
                    want[event].contains(s),
                    "Copilot {} sent a {event} payload of a new shape in {scenario}: {s:?}\nrecorded: {:?}",
                    client::VERSION,
                    want[event]
                );
            }
        }
    }
}

/// Attacks row 324: Copilot CLI 1.0.102 rewrites `~/.copilot/config.json` on its first run
/// (comment lines first, the list renamed `trustedFolders`) and reads it back as trusting the
/// folder. After two runs (the second reads the file as Copilot left it), the repository's
/// hook ran, and `hookx doctor --host copilot` must say it fires, not that the folder is
/// untrusted.
fn copilots_rewritten_folder_record_still_trusts_the_folder() {
    let recorder = |sb: &Sandbox| json!({"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": sb.dumper("probe")}]}});
    let Some(first) = live(
        "syntax",
        |sb| {
            sb.write(
                "home/.copilot/config.json",
                &json!({"trusted_folders": [sb.project.display().to_string()]}).to_string(),
            );
            sb.write(
                "project/.github/hooks/probe.json",
                &recorder(sb).to_string(),
            );
        },
        &[],
    ) else {
        return;
    };
    let rewritten =
        std::fs::read_to_string(first.sb.home.join(".copilot/config.json")).unwrap_or_default();
    let Some(second) = live(
        "syntax",
        |sb| {
            sb.write(
                "home/.copilot/config.json",
                &rewritten.replace(
                    &first.sb.project.display().to_string(),
                    &sb.project.display().to_string(),
                ),
            );
            sb.write(
                "project/.github/hooks/probe.json",
                &recorder(sb).to_string(),
            );
        },
        &[],
    ) else {
        return;
    };
    assert!(
        second.dumps.iter().any(|d| d.label == "probe"),
        "Copilot ran the repo hook with its own rewrite of the record:\n{rewritten}"
    );
    let out = common::hookx_at(
        &second.sb.project,
        &second.sb.home,
        &["doctor", "--host", "copilot", "--format", "json"],
    )
    .get_output()
    .clone();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let status = report["files"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|f| {
            f["file"]
                .as_str()
                .is_some_and(|d| d.ends_with("probe.json"))
        })
        .and_then(|f| {
            f["hosts"]
                .as_array()?
                .iter()
                .find(|l| l["host"] == "copilot")
                .cloned()
        })
        .map(|l| l["status"].clone())
        .unwrap_or_default();
    assert_eq!(
        status, "fires",
        "doctor on the record as Copilot left it:\n{rewritten}\n{report:#}"
    );
}

/// A repository hook file (`.github/hooks/probe.json`, the folder trusted in
/// `~/.copilot/config.json`) with `//` or `/* */` comments or a trailing comma, each in its own
/// run beside a plain `~/.copilot/hooks/control.json` (Copilot CLI 1.0.102). `hookx list --host
/// copilot`, asked before the run, must list the `probe` exactly when Copilot runs it.
/// Copilot reads these files as strict JSON: any other is dropped, the session goes on.
fn hook_files_with_comments_or_trailing_commas() {
    let mut failed = Vec::new();
    for variant in json_syntax::VARIANTS {
        let mut listed = Err(String::new());
        let Some(l) = live(
            "syntax",
            |sb| {
                let recorder = |label: &str| json!({"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": sb.dumper(label)}]}});
                let project = sb.project.display().to_string();
                sb.write(
                    "home/.copilot/config.json",
                    &json!({"trusted_folders": [project]}).to_string(),
                );
                sb.write(
                    "home/.copilot/hooks/control.json",
                    &recorder("control").to_string(),
                );
                sb.write(
                    "project/.github/hooks/probe.json",
                    &variant.text(&recorder("probe")),
                );
                listed = json_syntax::hookx_native(
                    (&sb.home, &sb.project),
                    "copilot",
                    "SessionStart",
                    &["control", "probe"],
                );
            },
            &[],
        ) else {
            return;
        };
        let mut ran: Vec<String> = l.dumps.iter().map(|d| d.label.clone()).collect();
        ran.sort();
        ran.dedup();
        let expected: &[&str] = match variant {
            json_syntax::Variant::Plain => &["control", "probe"],
            _ => &["control"],
        };
        if ran != expected {
            failed.push(format!("{variant:?}: ran {ran:?}, expected {expected:?}"));
        }
        if listed.as_deref() != Ok(&ran) {
            failed.push(format!(
                "{variant:?}: Copilot ran {ran:?}, hookx lists {listed:?}"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The fault matrix in Copilot CLI (tests/live_common/faults.rs), which runs hooks one after
/// another: a hanging, slow, crashing, noisy or oversized handler ahead of a deny, through
/// `hookx run` on Copilot's route and through wrapped entries in `.github/hooks` that Copilot
/// runs itself: each denied shell call never runs, and the deny's reason is its result.
fn faulty_handlers_beside_a_deny() {
    let mut wrong = Vec::new();
    for via in [
        faults::Via::Run,
        faults::Via::Wrapped,
        faults::Via::OddRun,
        faults::Via::OddWrapped,
    ] {
        let Some(l) = live_env("faults", |sb| {
            faults::set_up(via, "copilot", &sb.root, &sb.project, &sb.home);
            vec![
                ("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true".into()),
                ("HOOKX_TEST_HOST_LIMIT_MS", faults::TEST_LIMIT_MS.into()),
            ]
        }) else {
            return;
        };
        let result = |text: &str| l.tool_result("faults", text);
        wrong.extend(faults::check(
            via,
            "copilot",
            &l.sb.root,
            &l.sb.project,
            &result,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Copilot's `disabledHooks` keys a handler by its content: `hookx install --host copilot` in a
/// project `a` turns off the byte-identical Claude guard of the project Copilot runs in too,
/// which has no route of hookx's. The guard is not lost: hookx's user route, which the install
/// keeps for it, runs it there, once, when `hookx trust` covers the file (its own deny reaches
/// the model); when not, hookx runs nothing of it and denies the call, naming the fix. Ground
/// truth first: without hookx, Copilot runs the guard itself.
fn a_guard_switched_off_by_another_projects_install_still_denies() {
    let guard = |sb: &Sandbox| {
        let log = sb.root.join("guard.log");
        let command = format!("pwd >> '{}'; echo GUARD-SAYS-NO >&2; exit 2", log.display());
        let rule = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}});
        for project in ["a", "project"] {
            std::fs::create_dir_all(sb.root.join(project).join(".git")).unwrap();
            sb.write(
                &format!("{project}/.claude/settings.json"),
                &rule.to_string(),
            );
        }
        log
    };
    let ran = |l: &Live| -> Vec<String> {
        std::fs::read_to_string(l.sb.root.join("guard.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    };
    let mut c = Checks::default();
    let Some(alone) = live_env("synced", |sb| {
        guard(sb);
        routed_env(sb)
    }) else {
        return;
    };
    // Copilot's own run of an exit-2 guard denies without its stderr: hookx's says it.
    let own = alone.tool_result("synced", "synced-call");
    c.that(
        ran(&alone) == [alone.sb.project.display().to_string()]
            && own.contains("Denied")
            && !own.contains("GUARD-SAYS-NO"),
        format!(
            "ground truth: Copilot runs the guard, which denies: {:?} {own}",
            ran(&alone)
        ),
    );
    for trusted in [true, false] {
        let Some(l) = switched_off_by_project_a(&guard, trusted) else {
            return;
        };
        let result = l.tool_result("synced", "synced-call");
        let file = l.sb.project.join(".claude/settings.json");
        match trusted {
            true => c.that(
                ran(&l) == [l.sb.project.display().to_string()]
                    && result.contains("GUARD-SAYS-NO"),
                format!("trusted: the guard ran once, through hookx, and denied: {:?} {result}", ran(&l)),
            ),
            false => c.that(
                ran(&l).is_empty()
                    && result.contains(&format!("hookx trust {}", file.display())),
                format!("untrusted: nothing of it ran, and the call was denied with the fix: {:?} {result}", ran(&l)),
            ),
        }
    }
    c.done("synced");
}

/// The same key turns off a handler of Copilot's own `.github/hooks` files written in Claude's
/// PascalCase form: a team's guard there, byte-identical to the Claude guard an install in
/// project `a` listed, no longer runs in Copilot. hookx's user route runs it (trusted: its
/// deny, once) or denies the call with the fix (untrusted). Ground truth first: without hookx,
/// Copilot runs the guard itself.
fn a_pascalcase_guard_switched_off_by_another_projects_install_still_denies() {
    let guard = |sb: &Sandbox| {
        let log = sb.root.join("guard.log");
        let command = format!("pwd >> '{}'; echo GUARD-SAYS-NO >&2; exit 2", log.display());
        let hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]});
        std::fs::create_dir_all(sb.root.join("a/.git")).unwrap();
        sb.write(
            "a/.claude/settings.json",
            &json!({"hooks": hooks}).to_string(),
        );
        let team = json!({"version": 1, "hooks": hooks});
        sb.write("project/.github/hooks/team.json", &team.to_string());
    };
    let ran = |l: &Live| -> Vec<String> {
        std::fs::read_to_string(l.sb.root.join("guard.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    };
    let mut c = Checks::default();
    let Some(alone) = live_env("synced", |sb| {
        guard(sb);
        routed_env(sb)
    }) else {
        return;
    };
    let own = alone.tool_result("synced", "synced-call");
    c.that(
        ran(&alone) == [alone.sb.project.display().to_string()] && own.contains("Denied"),
        format!(
            "ground truth: Copilot runs the guard, which denies: {:?} {own}",
            ran(&alone)
        ),
    );
    for trusted in [true, false] {
        let Some(l) = switched_off_by_project_a(&guard, trusted) else {
            return;
        };
        let result = l.tool_result("synced", "synced-call");
        let file = l.sb.project.join(".github/hooks/team.json");
        match trusted {
            true => c.that(
                ran(&l) == [l.sb.project.display().to_string()] && result.contains("Denied"),
                format!("trusted: the guard ran once, through hookx, and denied: {:?} {result}", ran(&l)),
            ),
            false => c.that(
                ran(&l).is_empty()
                    && result.contains(&format!("hookx trust {}", file.display())),
                format!("untrusted: nothing of it ran, and the call was denied with the fix: {:?} {result}", ran(&l)),
            ),
        }
    }
    c.done("synced");
}

/// A handler with a key beside its command (`"comment"`, Claude's `"if"`) or a timeout hookx
/// reads otherwise than written (`30.0`): Copilot leaves the first two out of its key, so a
/// byte-identical handler listed elsewhere turns it off, and keys the third apart. Whoever runs
/// it, the project's guard runs once and denies (attacks row 86: before, hookx took the key of
/// the first for unknown and left it to Copilot, and it ran nowhere).
fn a_guard_whose_key_hookx_cannot_tell_still_runs_once() {
    let mut c = Checks::default();
    for extra in [
        json!({"comment": "team guard"}),
        json!({"if": "Bash(echo *)"}),
        json!({"timeout": 30.0}),
    ] {
        let Some(l) = live_env("synced", |sb| {
            let log = sb.root.join("guard.log");
            let command = format!("pwd >> '{}'; echo GUARD-SAYS-NO >&2; exit 2", log.display());
            let mut handler = json!({"type": "command", "command": command});
            let listed = match extra.get("timeout") {
                Some(_) => json!({"type": "command", "command": command, "timeout": 30}),
                None => handler.clone(),
            };
            for (k, v) in extra.as_object().unwrap() {
                handler[k] = v.clone();
            }
            let rule =
                |h: &Value| json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [h]}]}});
            std::fs::create_dir_all(sb.root.join("a/.git")).unwrap();
            sb.write("a/.claude/settings.json", &rule(&listed).to_string());
            sb.write("project/.claude/settings.json", &rule(&handler).to_string());
            let a = sb.root.join("a");
            common::hookx_at(&a, &sb.home, &["trust", "--yes"]).success();
            hookx(sb, &["trust", "--yes"]);
            common::hookx_at(&a, &sb.home, &["install", "--host", "copilot"]).success();
            routed_env(sb)
        }) else {
            return;
        };
        let ran: Vec<String> = std::fs::read_to_string(l.sb.root.join("guard.log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        let result = l.tool_result("synced", "synced-call");
        c.that(
            ran == [l.sb.project.display().to_string()] && result.contains("Denied"),
            format!("{extra}: the guard ran once and denied: {ran:?} {result}"),
        );
    }
    c.done("synced");
}

/// A repository's `"disableAllHooks": true`, in any of the three files Copilot reads it from,
/// turns off every hook Copilot runs in a trusted folder: the repo's own and the user's, so
/// hookx's user route (`hookx install --host copilot --scope user`) and the user's trusted
/// guard it runs. The shell call goes through. In an untrusted folder the file is not read and
/// the guard denies; in `~/.copilot/settings.json` the key does nothing. hookx's doctor, asked
/// in the same sandbox, says so (`src/dialect/copilot.rs` `kill_switch`).
fn a_repo_kill_switch_turns_off_the_users_hooks_too() {
    let mut c = Checks::default();
    let cases = [
        (None, true),
        (Some("project/.github/copilot/settings.json"), true),
        (Some("project/.claude/settings.json"), true),
        (Some("project/.claude/settings.local.json"), true),
        (Some("project/.github/copilot/settings.local.json"), true),
        (Some("project/.github/copilot/settings.json"), false),
        (Some("home/.copilot/settings.json"), true),
    ];
    for (switch, trusted_folder) in cases {
        let Some(l) = live_env("synced", |sb| {
            let log = sb.root.join("guard.log");
            let command = format!("pwd >> '{}'; echo GUARD-SAYS-NO >&2; exit 2", log.display());
            let rule = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}});
            let guard = sb.write("home/.claude/settings.json", &rule.to_string());
            hookx(sb, &["trust", guard.to_str().unwrap()]);
            hookx(sb, &["install", "--host", "copilot", "--scope", "user"]);
            // On the prompt: a guard's deny does not hold it back.
            let repo = json!({"version": 1, "hooks": {"userPromptSubmitted": [{"type": "command", "bash": sb.dumper("repo")}]}});
            sb.write("project/.github/hooks/repo.json", &repo.to_string());
            if let Some(file) = switch {
                sb.write(file, r#"{"disableAllHooks": true}"#);
            }
            match trusted_folder {
                true => routed_env(sb),
                false => vec![("HOOKX_HOME", sb.home.display().to_string())],
            }
        }) else {
            return;
        };
        let guard_ran = std::fs::read_to_string(l.sb.root.join("guard.log")).is_ok();
        let repo_ran = l.labels().contains(&"repo");
        let result = l.tool_result("synced", "synced-call");
        let denied = result.contains("GUARD-SAYS-NO");
        let off = trusted_folder && switch.is_some_and(|f| f.starts_with("project/"));
        c.that(
            guard_ran != off && denied != off && repo_ran == (trusted_folder && !off),
            format!(
                "{switch:?} (trusted folder: {trusted_folder}): guard ran {guard_ran}, denied \
                 {denied}, repo hook ran {repo_ran}; expected every hook {}: {result}",
                if off { "off" } else { "on" }
            ),
        );
        // hookx's doctor, in the same sandbox, agrees.
        let mut doctor = assert_cmd::Command::cargo_bin("hookx").unwrap();
        doctor
            .args([
                "doctor",
                "--host",
                "copilot",
                "--format",
                "json",
                "--project",
            ])
            .arg(&l.sb.project)
            .arg("--home")
            .arg(&l.sb.home)
            .env("HOME", &l.sb.home)
            .env_remove("HOOKX_HOME")
            .env_remove("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS");
        if trusted_folder {
            doctor.env("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true");
        }
        let report: Value = serde_json::from_slice(&doctor.output().unwrap().stdout).unwrap();
        let said_off = report
            .to_string()
            .contains("turns off every hook Copilot runs");
        c.that(
            said_off == off,
            format!("{switch:?}: doctor says every hook is off: {said_off}, expected {off}"),
        );
    }
    c.done("synced");
}

/// A team's Claude guard and its PascalCase copy in `.github/hooks` in one project: Copilot
/// keys both as one handler. Ground truth: without hookx, Copilot runs the guard twice (once
/// per file). After `hookx install --host copilot` (the key listed) and `hookx trust`, hookx
/// runs it once per call, from the Claude file with Claude's payload (no `timestamp`, which
/// Copilot's PascalCase payload has); a guard that denies, once, and its deny reaches the
/// model. Before, hookx ran both copies (twice, as Copilot had).
fn a_claude_guard_and_its_pascalcase_copy_run_once_through_hookx() {
    let guard = |sb: &Sandbox, exit: u8| {
        let log = sb.root.join("guard.log");
        let command = format!(
            "cat >> '{}'; echo >> '{0}'; pwd >> '{}'; echo GUARD-SAYS-NO >&2; exit {exit}",
            sb.root.join("payloads.log").display(),
            log.display()
        );
        let hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]});
        sb.write(
            "project/.claude/settings.json",
            &json!({ "hooks": hooks }).to_string(),
        );
        let team = json!({"version": 1, "hooks": hooks});
        sb.write("project/.github/hooks/team.json", &team.to_string());
    };
    let runs = |l: &Live| -> (usize, Vec<Value>) {
        let read = |name: &str| std::fs::read_to_string(l.sb.root.join(name)).unwrap_or_default();
        let payloads = read("payloads.log")
            .lines()
            .filter(|line| !line.trim().is_empty())
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        (read("guard.log").lines().count(), payloads)
    };
    let mut c = Checks::default();
    let Some(alone) = live_env("synced", |sb| {
        guard(sb, 0);
        routed_env(sb)
    }) else {
        return;
    };
    let (ran, _) = runs(&alone);
    c.that(
        ran == 2,
        format!("ground truth: Copilot runs both copies: {ran}"),
    );
    for exit in [0, 2] {
        let Some(l) = live_env("synced", |sb| {
            guard(sb, exit);
            hookx(sb, &["install", "--host", "copilot"]);
            hookx(sb, &["trust", "--yes"]);
            routed_env(sb)
        }) else {
            return;
        };
        let (ran, payloads) = runs(&l);
        let claude = payloads
            .iter()
            .all(|p| p["tool_name"] == "Bash" && p.get("timestamp").is_none());
        c.that(
            ran == 1 && claude,
            format!("exit {exit}: once, with Claude's payload: {ran} {payloads:?}"),
        );
        let result = l.tool_result("synced", "synced-call");
        c.that(
            (exit == 2) == result.contains("Denied"),
            format!("exit {exit}: the call's result: {result}"),
        );
    }
    c.done("synced");
}

/// The user's own empty `disabledHooks`, written over lines, is still read by Copilot once
/// install lists the guard's key in it and records the list's layout (`"usersListBlank"` in
/// hookx's record): the guard runs once, through hookx, with Claude's payload (were the file
/// ignored, Copilot would run it as well). Uninstall gives the file back byte for byte.
fn a_users_empty_list_over_lines_still_switches_the_guard_off() {
    let before = "{\n  \"disabledHooks\": [\n  ]\n}\n";
    let Some(l) = live_env("synced", |sb| {
        let command = format!("cat >> '{}'", sb.root.join("guard.log").display());
        let rule = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}});
        sb.write("project/.claude/settings.json", &rule.to_string());
        sb.write("home/.copilot/settings.json", before);
        hookx(sb, &["install", "--host", "copilot"]);
        hookx(sb, &["trust", "--yes"]);
        routed_env(sb)
    }) else {
        return;
    };
    let mut c = Checks::default();
    let settings = l.sb.home.join(".copilot/settings.json");
    let installed = std::fs::read_to_string(&settings).unwrap();
    let (ran, payloads) = guard_log(&l.sb.root);
    // Once, from hookx: Claude's payload has no `timestamp` (Copilot's own has).
    c.that(
        installed.contains("usersListBlank")
            && payloads.len() == 1
            && payloads[0].get("timestamp").is_none(),
        format!("the guard once, through hookx, the list read: {ran:?}\n{installed}"),
    );
    hookx(&l.sb, &["install", "--uninstall", "--host", "copilot"]);
    let left = std::fs::read_to_string(&settings).unwrap_or_default();
    c.that(left == before, format!("the file back: {left:?}"));
    c.done("synced");
}

/// The key Copilot 1.0.102 gives hookx's own user route, a camelCase entry of
/// `~/.copilot/hooks`: `preToolUse\0` and the entry's compact JSON without hookx's marker
/// (listed, it turned the route off: the guard ran nowhere before the fix).
fn own_route_key(entry: &Value) -> String {
    let mut bare = entry.clone();
    bare.as_object_mut().unwrap().remove("hookx");
    hookx::hash::sha256_hex(format!("preToolUse\0{bare}").as_bytes())
}

/// Attacks row 236: the user turns hookx's own user route off in Copilot (its key in
/// `~/.copilot/settings.json` `disabledHooks`); hookx installed in both scopes, a trusted
/// project guard only hookx runs. The project route must not leave the event to the route
/// Copilot no longer runs: the guard runs. Row 238: the same where the file holds a number
/// Copilot reads and hookx's parser does not (`01`).
fn a_user_route_copilot_has_turned_off() {
    let mut c = Checks::default();
    // Listed, and listed in a file hookx cannot parse and Copilot reads (`01`, row 136).
    // Row 262: the user's route entry with its keys in another order (an editor that sorts
    // keys, or a hand edit), listed as Copilot lists it.
    // Row 302: a key of the user's own on the route entry (`"comment"`, an `env`), the
    // entry's key listed as hookx computes it with and without that key.
    for form in [
        "on",
        "off",
        "off, 01",
        "on, reordered",
        "off, reordered",
        "off, comment, keyed with it",
        "off, comment, keyed without it",
        "off, env, keyed with it",
        "off, env, keyed without it",
    ] {
        let Some(l) = live_env("synced", |sb| {
            a_project_guard_and_a_rule_of_the_users(sb);
            hookx(sb, &["trust", "--yes"]);
            for scope in ["user", "project"] {
                hookx(sb, &["install", "--host", "copilot", "--scope", scope]);
            }
            if form != "on" {
                // The user route as install wrote it, or with its keys in another order.
                let route: Value = serde_json::from_str(
                    &std::fs::read_to_string(sb.home.join(".copilot/hooks/hookx.json")).unwrap(),
                )
                .unwrap();
                let mut key = own_route_key(&route["hooks"]["preToolUse"][0]);
                for (extra, value) in [
                    ("comment", json!("hookx's route")),
                    ("env", json!({"A": "1"})),
                ] {
                    if form.contains(extra) {
                        let mut entry = route.clone();
                        entry["hooks"]["preToolUse"][0][extra] = value;
                        if form.ends_with("with it") {
                            key = own_route_key(&entry["hooks"]["preToolUse"][0]);
                        }
                        sb.write("home/.copilot/hooks/hookx.json", &entry.to_string());
                    }
                }
                if form.ends_with("reordered") {
                    let mut entry = route.clone();
                    let pairs: Vec<(String, Value)> = route["hooks"]["preToolUse"][0]
                        .as_object()
                        .unwrap()
                        .iter()
                        .rev()
                        .map(|(k, v)| (k.clone(), v.clone()))
                        .collect();
                    entry["hooks"]["preToolUse"][0] = Value::Object(pairs.into_iter().collect());
                    sb.write("home/.copilot/hooks/hookx.json", &entry.to_string());
                }
                let n = if form == "off, 01" { "01" } else { "1" };
                if form.starts_with("off") {
                    sb.write(
                        "home/.copilot/settings.json",
                        &format!(r#"{{"n": {n}, "disabledHooks": ["{key}"]}}"#),
                    );
                }
            }
            routed_env(sb)
        }) else {
            return;
        };
        let (ran, payloads) = guard_log(&l.sb.root);
        let runs = payloads.len();
        c.that(
            runs > 0,
            format!("route {form}: the guard ran {runs} times: {ran:?}"),
        );
    }
    c.done("synced");
}

/// Attacks row 262's leftover: the user's route entry with its `timeoutSec` written otherwise
/// than install writes it (`6.05e2`, `605.0`: a hand edit, an editor that reformats numbers),
/// and its key listed in `disabledHooks` as Copilot keys it. Copilot prints a number that is
/// not an integer as the float it reads (`6.05e2` and `605.0` both `605.0`; `605` stays
/// `605`): with the user route alone, the key in that form turns it off, the key in the form
/// as written does not. With hookx installed in both scopes, hookx must read the route as off
/// too, so that the project route runs the guard rather than leave it to the route Copilot
/// skips (before: `6.05e2` keyed as written, the guard ran 0 times).
fn a_route_timeout_written_otherwise_is_keyed_as_copilot_prints_it() {
    let mut c = Checks::default();
    // (written, as Copilot keys it)
    for (written, keyed) in [("6.05e2", "605.0"), ("605.0", "605.0"), ("605", "605")] {
        let mut forms = vec![("user route alone", keyed, false)];
        if written != keyed {
            forms.push(("user route alone", written, true));
        }
        forms.push(("both scopes", keyed, true));
        for (scopes, listed, runs) in forms {
            let Some(l) = live_env("synced", |sb| {
                a_project_guard_and_a_rule_of_the_users(sb);
                hookx(sb, &["trust", "--yes"]);
                hookx(sb, &["install", "--host", "copilot", "--scope", "user"]);
                if scopes == "both scopes" {
                    hookx(sb, &["install", "--host", "copilot", "--scope", "project"]);
                }
                let text =
                    std::fs::read_to_string(sb.home.join(".copilot/hooks/hookx.json")).unwrap();
                let install_wrote = "\"timeoutSec\": 605";
                assert!(text.contains(install_wrote), "{text}");
                let edited = text.replace(install_wrote, &format!("\"timeoutSec\": {written}"));
                sb.write("home/.copilot/hooks/hookx.json", &edited);
                let route: Value = serde_json::from_str(&text).unwrap();
                let mut bare = route["hooks"]["preToolUse"][0].clone();
                bare.as_object_mut().unwrap().remove("hookx");
                let entry = bare
                    .to_string()
                    .replace("\"timeoutSec\":605", &format!("\"timeoutSec\":{listed}"));
                let key = hookx::hash::sha256_hex(format!("preToolUse\0{entry}").as_bytes());
                sb.write(
                    "home/.copilot/settings.json",
                    &format!(r#"{{"disabledHooks": ["{key}"]}}"#),
                );
                routed_env(sb)
            }) else {
                return;
            };
            let (ran, payloads) = guard_log(&l.sb.root);
            c.that(
                payloads.is_empty() != runs,
                format!(
                    "timeoutSec written {written}, listed keyed with {listed}, {scopes}: the guard ran {} times, expected {}: {ran:?}",
                    payloads.len(),
                    if runs { "at least once" } else { "none" }
                ),
            );
        }
    }
    c.done("synced");
}

/// Attacks row 223 in Copilot: the user shortens hookx's user route to `"timeoutSec": 4` in
/// `~/.copilot/hooks/hookx.json`; a guard of the user's that hookx runs there hangs. Copilot
/// kills the route at 4 s and goes on, so hookx must answer within the route's own timeout:
/// its failure policy denies the call, whose result then carries hookx's reason (before:
/// hookx budgeted the 605 s install wrote, Copilot killed it, and the call ran).
fn a_route_the_user_shortened() {
    let mut c = Checks::default();
    let Some(l) = live_env("synced", |sb| {
        let guard = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "sleep 30"}]}]}});
        sb.write("home/.gemini/settings.json", &guard.to_string());
        hookx(sb, &["trust", "--yes"]);
        hookx(sb, &["install", "--host", "copilot", "--scope", "user"]);
        let routes = sb.home.join(".copilot/hooks/hookx.json");
        let text = std::fs::read_to_string(&routes).unwrap();
        assert!(text.contains("\"timeoutSec\": 605"), "{text}");
        sb.write(
            "home/.copilot/hooks/hookx.json",
            &text.replace("\"timeoutSec\": 605", "\"timeoutSec\": 4"),
        );
        routed_env(sb)
    }) else {
        return;
    };
    let result = l.tool_result("synced", "synced-call");
    c.that(
        result.contains("did not answer within") && !result.contains("synced-call\\n"),
        format!("the call's result: {result}"),
    );
    c.done("synced");
}

/// Row 223's reading where Copilot reads the user's hooks (mend14): Copilot started with
/// `COPILOT_HOME` naming another folder reads the user's hooks from `$COPILOT_HOME/hooks`, and
/// there the user keeps hookx's route, shortened to `"timeoutSec": 4`; a guard of the user's
/// that hookx runs hangs. Copilot kills the route at 4 s, so hookx must answer within it (on
/// `d79a14b` it read no user route under such a `COPILOT_HOME` and budgeted 605 s: the call
/// ran).
fn a_route_the_user_shortened_in_copilot_home() {
    let mut c = Checks::default();
    let Some(l) = live_env("synced", |sb| {
        let guard = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "sleep 30"}]}]}});
        sb.write("home/.gemini/settings.json", &guard.to_string());
        hookx(sb, &["trust", "--yes"]);
        hookx(sb, &["install", "--host", "copilot", "--scope", "user"]);
        let routes = sb.home.join(".copilot/hooks/hookx.json");
        let text = std::fs::read_to_string(&routes).unwrap();
        assert!(text.contains("\"timeoutSec\": 605"), "{text}");
        std::fs::remove_file(&routes).unwrap();
        let folder = sb.root.join("copilot-home");
        sb.write(
            "copilot-home/hooks/hookx.json",
            &text.replace("\"timeoutSec\": 605", "\"timeoutSec\": 4"),
        );
        let mut env = routed_env(sb);
        env.push(("COPILOT_HOME", folder.display().to_string()));
        env
    }) else {
        return;
    };
    let result = l.tool_result("synced", "synced-call");
    c.that(
        result.contains("did not answer within") && !result.contains("synced-call\\n"),
        format!("the call's result: {result}"),
    );
    c.done("synced");
}

/// Attacks row 340: a repository ships `.github/hooks/hookx.json`, a line shaped like hookx's
/// Copilot route that runs nothing, with `"timeoutSec": 1`; the user's Copilot route (605 s,
/// its line with the user's route key) runs a trusted Gemini guard that takes 3 s and denies.
/// Copilot gives the user's route its own 605 s: the guard's deny is the answer, not the
/// failure policy's at the repository's half second.
fn a_repositorys_route_timeout_does_not_shorten_the_users_route() {
    let mut c = Checks::default();
    let Some(l) = live_env("synced", |sb| {
        let guard = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "sleep 3; echo 'the guard says no' >&2; exit 2"}]}]}});
        sb.write("home/.gemini/settings.json", &guard.to_string());
        hookx(sb, &["trust", "--yes"]);
        hookx(sb, &["install", "--host", "copilot", "--scope", "user"]);
        let bin = assert_cmd::cargo::cargo_bin("hookx");
        let line = format!(
            "true || {} run --host copilot --event preToolUse",
            bin.display()
        );
        let file = json!({"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": line, "timeoutSec": 1}]}});
        sb.write("project/.github/hooks/hookx.json", &file.to_string());
        routed_env(sb)
    }) else {
        return;
    };
    let result = l.tool_result("synced", "synced-call");
    c.that(
        result.contains("the guard says no")
            && !result.contains("did not answer within")
            && !result.contains("synced-call\\n"),
        format!("the call's result: {result}"),
    );
    c.done("synced");
}

/// Attacks row 342: the user cut hookx's Copilot user route to `"timeoutSec": 4`, so the team's
/// project route (605 s) runs the user's Gemini `AfterTool` guard itself (row 223), which takes
/// 6 s and blocks the tool's result. Copilot gives the project route's entry its own 605 s: the
/// result is blocked (before: both routes answered within 4 s, the block lost on both).
fn the_project_route_is_not_cut_to_the_users_shortened_route() {
    let mut c = Checks::default();
    let Some(l) = live_env("synced", |sb| {
        let block = r#"sleep 6; echo '{"decision":"deny","reason":"R-SLOWBLOCK"}'"#;
        let guard = json!({"hooks": {"AfterTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": block}]}]}});
        sb.write("home/.gemini/settings.json", &guard.to_string());
        let team = json!({"hooks": {"AfterTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "true"}]}]}});
        sb.write("project/.gemini/settings.json", &team.to_string());
        hookx(sb, &["trust", "--yes"]);
        hookx(sb, &["install", "--host", "copilot", "--scope", "user"]);
        hookx(sb, &["install", "--host", "copilot", "--scope", "project"]);
        let routes = sb.home.join(".copilot/hooks/hookx.json");
        let text = std::fs::read_to_string(&routes).unwrap();
        sb.write(
            "home/.copilot/hooks/hookx.json",
            &text.replace("\"timeoutSec\": 605", "\"timeoutSec\": 4"),
        );
        routed_env(sb)
    }) else {
        return;
    };
    let result = l.tool_result("synced", "synced-call");
    c.that(
        result.contains("R-SLOWBLOCK"),
        format!("the call's result: {result}"),
    );
    c.done("synced");
}

/// Attacks row 343: hookx's VS Code and Claude project routes, no Copilot route; the user cut
/// the VS Code route to `"timeout": 4`, which Copilot reads as its `timeoutSec`. A trusted
/// project Gemini `AfterTool` guard only hookx runs takes 6 s and blocks the tool's result.
/// The Claude route, which Copilot gives 605 s, runs it: the result is blocked (before: it
/// stood aside for the VS Code route, whose answer came within 4 s without the block).
fn the_claude_route_does_not_stand_aside_for_a_vscode_route_cut_short() {
    let mut c = Checks::default();
    let Some(l) = live_env("synced", |sb| {
        let block = r#"sleep 6; echo '{"decision":"deny","reason":"R-SLOWBLOCK"}'"#;
        let guard = json!({"hooks": {"AfterTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": block}]}]}});
        sb.write("project/.gemini/settings.json", &guard.to_string());
        hookx(sb, &["trust", "--yes"]);
        for host in ["vscode", "claude"] {
            hookx(sb, &["install", "--host", host]);
        }
        let file = sb.project.join(".github/hooks/hookx-vscode.json");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("\"timeout\": 605"), "{text}");
        sb.write(
            "project/.github/hooks/hookx-vscode.json",
            &text.replace("\"timeout\": 605", "\"timeout\": 4"),
        );
        routed_env(sb)
    }) else {
        return;
    };
    let result = l.tool_result("synced", "synced-call");
    c.that(
        result.contains("R-SLOWBLOCK"),
        format!("the call's result: {result}"),
    );
    c.done("synced");
}

/// Attacks row 263: hookx installed for Claude only (in both scopes), a trusted project Gemini
/// guard only hookx runs, and a Copilot hook of the project's own. Copilot runs the project's
/// `.claude/settings.json` itself, hookx's Claude route among them: with no Copilot route of
/// hookx's there, that route is the one that runs the guard under Copilot (it stood aside for
/// one, and the guard ran nowhere), without leaving it to the Claude user route Copilot does
/// not read, and without running the Copilot hook a second time.
fn a_claude_route_copilot_runs_without_a_copilot_route() {
    let mut c = Checks::default();
    let Some(l) = live_env("synced", |sb| {
        a_project_guard_and_a_rule_of_the_users(sb);
        let by = format!(
            "echo \"${{HOOKX_DEPTH:-copilot}}\" >> '{}'",
            sb.root.join("native.log").display()
        );
        let native =
            json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": by}]}});
        sb.write("project/.github/hooks/own.json", &native.to_string());
        hookx(sb, &["trust", "--yes"]);
        for scope in ["user", "project"] {
            hookx(sb, &["install", "--host", "claude", "--scope", scope]);
        }
        routed_env(sb)
    }) else {
        return;
    };
    let (ran, payloads) = guard_log(&l.sb.root);
    let runs = payloads.len();
    c.that(
        runs > 0,
        format!("the guard ran {runs} times under Copilot: {ran:?}"),
    );
    let native = std::fs::read_to_string(l.sb.root.join("native.log")).unwrap_or_default();
    c.that(
        native.lines().count() > 0 && native.lines().all(|l| l == "copilot"),
        format!("Copilot's own hook, run by Copilot only: {native:?}"),
    );
    c.done("synced");
}

/// Attacks row 303: hookx installed for Claude only, a trusted project Gemini guard that
/// takes 35 s and denies; Copilot runs the Claude route, whose `timeout` of 605 s it reads
/// (its key for a Claude handler is `timeoutSec` from `timeout`). hookx took Copilot for an
/// agent that does not read the route's timeout and answered within Copilot's default of
/// 30 s: the failure policy's deny at 25 s, not the guard's (an allow would have been denied
/// too, on every call).
///
/// Row 312: the route's entry without a timeout (the user took it out), which Copilot gives
/// its own default of 30 s: hookx answers within it, its failure policy's deny, not Copilot's
/// kill (a call let through).
fn a_slow_guard_through_the_claude_route_copilot_runs_answers_itself() {
    let mut c = Checks::default();
    let Some(l) = live_env("synced", |sb| {
        let command = format!(
            "cat >> '{}'; sleep 35; echo '{{\"decision\": \"deny\", \"reason\": \"slow-guard-says-no\"}}'",
            sb.root.join("guard.log").display()
        );
        let rule = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": command, "timeout": 120000}]}]}});
        sb.write("project/.gemini/settings.json", &rule.to_string());
        hookx(sb, &["trust", "--yes"]);
        hookx(sb, &["install", "--host", "claude"]);
        routed_env(sb)
    }) else {
        return;
    };
    let result = l.tool_result("synced", "synced-call");
    c.that(
        result.contains("slow-guard-says-no"),
        format!("the guard's own deny reaches the model: {result}"),
    );
    let Some(l) = live_env("synced", |sb| {
        let command =
            "sleep 35; echo '{\"decision\": \"deny\", \"reason\": \"slow-guard-says-no\"}'";
        let rule = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": command, "timeout": 120000}]}]}});
        sb.write("project/.gemini/settings.json", &rule.to_string());
        hookx(sb, &["trust", "--yes"]);
        hookx(sb, &["install", "--host", "claude"]);
        let file = sb.project.join(".claude/settings.json");
        let mut routes: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let handler = &mut routes["hooks"]["PreToolUse"][0]["hooks"][0];
        handler.as_object_mut().unwrap().remove("timeout");
        std::fs::write(&file, routes.to_string()).unwrap();
        routed_env(sb)
    }) else {
        return;
    };
    let result = l.tool_result("synced", "synced-call");
    c.that(
        result.contains("hookx could not check this tool call"),
        format!("no timeout on the route: the failure policy's deny reaches the model: {result}"),
    );
    c.done("synced");
}

/// Attacks row 304: hookx installed for VS Code and Claude in the project (a team on both), none
/// for Copilot, a trusted project Gemini guard only hookx runs. Copilot reads both routes'
/// files (`.github/hooks/hookx-vscode.json`, `.claude/settings.json`) and, with no route of
/// its own there, each ran for it (rows 263, 269): the guard ran twice per call.
/// The VS Code route turned off in Copilot's menu (its key, as Copilot gives a PascalCase entry
/// of `.github/hooks`, in `disabledHooks`): the Claude route then runs the guard.
fn the_vscode_and_claude_routes_copilot_runs_run_each_rule_once() {
    let mut c = Checks::default();
    for off in [false, true] {
        let Some(l) = live_env("synced", |sb| {
            let command = format!("cat >> '{}'", sb.root.join("guard.log").display());
            let rule = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": command}]}]}});
            sb.write("project/.gemini/settings.json", &rule.to_string());
            hookx(sb, &["trust", "--yes"]);
            for host in ["vscode", "claude"] {
                hookx(sb, &["install", "--host", host]);
            }
            if off {
                let file = sb.project.join(".github/hooks/hookx-vscode.json");
                let route: Value =
                    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
                let entry = &route["hooks"]["PreToolUse"][0];
                let keyed = json!({"type": "command", "bash": entry["command"],
                    "powershell": entry["command"], "timeoutSec": entry["timeout"],
                    "_vsCodeCompat": "PreToolUse"});
                let key = hookx::hash::sha256_hex(format!("preToolUse\0{keyed}").as_bytes());
                let listed = format!(r#"{{"disabledHooks": ["{key}"]}}"#);
                sb.write("home/.copilot/settings.json", &listed);
            }
            routed_env(sb)
        }) else {
            return;
        };
        guard_ran_once(&mut c, &l.sb.root, &format!("VS Code route off {off}"));
    }
    c.done("synced");
}

/// Attacks row 309: hookx's VS Code user route (`~/.copilot/hooks/hookx-vscode.json`, which
/// Copilot runs too), a trusted Gemini guard of the user's, no Copilot route of hookx's; a
/// repository ships `.github/hooks/hookx.json` holding a line that looks like hookx's Copilot
/// route and runs nothing. The user's route ran the guard before the file came; with it, it
/// stood aside for it.
fn a_users_route_copilot_runs_does_not_stand_aside_for_a_repositorys_route() {
    let mut c = Checks::default();
    for fake in [false, true] {
        let Some(l) = live_env("synced", |sb| {
            let command = format!("cat >> '{}'", sb.root.join("guard.log").display());
            let rule = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": command}]}]}});
            sb.write("home/.gemini/settings.json", &rule.to_string());
            hookx(sb, &["trust", "--yes"]);
            hookx(sb, &["install", "--host", "vscode", "--scope", "user"]);
            if fake {
                let bin = assert_cmd::cargo::cargo_bin("hookx");
                let line = format!(
                    "true || {} run --host copilot --event preToolUse",
                    bin.display()
                );
                let file = json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": line}]}});
                sb.write("project/.github/hooks/hookx.json", &file.to_string());
            }
            routed_env(sb)
        }) else {
            return;
        };
        guard_ran_once(&mut c, &l.sb.root, &format!("repository's line {fake}"));
    }
    c.done("synced");
}

/// Attacks row 310: hookx's VS Code user route (`~/.copilot/hooks/hookx-vscode.json`) and the
/// team's Copilot project route, a trusted Gemini guard of the user's: Copilot runs both, and
/// the project route left nothing to the user's route beside Copilot's own: twice per call.
fn the_copilot_project_route_and_the_vscode_user_route_run_each_rule_once() {
    let mut c = Checks::default();
    let Some(l) = live_env("synced", |sb| {
        let command = format!("cat >> '{}'", sb.root.join("guard.log").display());
        let rule = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": command}]}]}});
        sb.write("home/.gemini/settings.json", &rule.to_string());
        let team = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "true"}]}]}});
        sb.write("project/.gemini/settings.json", &team.to_string());
        hookx(sb, &["trust", "--yes"]);
        hookx(sb, &["install", "--host", "vscode", "--scope", "user"]);
        hookx(sb, &["install", "--host", "copilot", "--scope", "project"]);
        routed_env(sb)
    }) else {
        return;
    };
    guard_ran_once(&mut c, &l.sb.root, "");
    c.done("synced");
}

/// Attacks row 311: hookx installed for VS Code in both scopes, a trusted Gemini guard of the
/// user's: Copilot runs both routes (`~/.copilot/hooks/hookx-vscode.json`,
/// `.github/hooks/hookx-vscode.json`), each for itself: twice per call.
fn the_vscode_routes_of_both_scopes_copilot_runs_run_each_rule_once() {
    let mut c = Checks::default();
    let Some(l) = live_env("synced", |sb| {
        let command = format!("cat >> '{}'", sb.root.join("guard.log").display());
        let rule = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": command}]}]}});
        sb.write("home/.gemini/settings.json", &rule.to_string());
        let team = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "true"}]}]}});
        sb.write("project/.gemini/settings.json", &team.to_string());
        hookx(sb, &["trust", "--yes"]);
        for scope in ["user", "project"] {
            hookx(sb, &["install", "--host", "vscode", "--scope", scope]);
        }
        routed_env(sb)
    }) else {
        return;
    };
    guard_ran_once(&mut c, &l.sb.root, "");
    c.done("synced");
}

/// Attacks row 300: hookx installed for Claude and Copilot in the project, a trusted project
/// Gemini guard only hookx runs; Copilot started with `COPILOT_HOME` naming another folder, and
/// hookx's Copilot route turned off in Copilot's menu (its key in `$COPILOT_HOME/settings.json`,
/// where Copilot reads `disabledHooks`). Copilot runs the Claude route, which must not stand
/// aside for the route Copilot skips. The control: the key listed nowhere, the Copilot route runs
/// the guard.
fn a_copilot_route_turned_off_below_copilot_home_leaves_the_guard_to_the_claude_route() {
    let mut c = Checks::default();
    for off in [false, true] {
        let Some(l) = live_env("synced", |sb| {
            let command = format!("cat >> '{}'", sb.root.join("guard.log").display());
            let rule = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": command}]}]}});
            sb.write("project/.gemini/settings.json", &rule.to_string());
            hookx(sb, &["trust", "--yes"]);
            for host in ["claude", "copilot"] {
                hookx(sb, &["install", "--host", host]);
            }
            let folder = sb.root.join("copilot-home");
            std::fs::create_dir_all(&folder).unwrap();
            if off {
                let route: Value = serde_json::from_str(
                    &std::fs::read_to_string(sb.project.join(".github/hooks/hookx.json")).unwrap(),
                )
                .unwrap();
                let key = own_route_key(&route["hooks"]["preToolUse"][0]);
                let listed = format!(r#"{{"disabledHooks": ["{key}"]}}"#);
                std::fs::write(folder.join("settings.json"), listed).unwrap();
            }
            let mut env = routed_env(sb);
            env.push(("COPILOT_HOME", folder.display().to_string()));
            env
        }) else {
            return;
        };
        guard_ran_once(&mut c, &l.sb.root, &format!("Copilot route off {off}"));
    }
    c.done("synced");
}

/// Attacks row 301: a project's Claude guard that `install --host copilot` left to hookx (its
/// key in `~/.copilot/settings.json`), Copilot started with `COPILOT_HOME` naming another folder
/// (a user keeping two Copilot setups apart): Copilot reads its `disabledHooks` there, finds no
/// key and runs the guard itself, so hookx's route must not run it too. One call, one run, with
/// the variable and without.
fn a_guard_left_to_hookx_runs_once_with_copilot_home_elsewhere() {
    let mut c = Checks::default();
    for elsewhere in [false, true] {
        let Some(l) = live_env("synced", |sb| {
            let command = format!("cat >> '{}'", sb.root.join("guard.log").display());
            let rule = json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": command}]}]}});
            sb.write("project/.claude/settings.json", &rule.to_string());
            hookx(sb, &["trust", "--yes"]);
            hookx(sb, &["install", "--host", "copilot"]);
            let mut env = routed_env(sb);
            if elsewhere {
                let folder = sb.root.join("copilot-home");
                std::fs::create_dir_all(&folder).unwrap();
                env.push(("COPILOT_HOME", folder.display().to_string()));
            }
            env
        }) else {
            return;
        };
        guard_ran_once(
            &mut c,
            &l.sb.root,
            &format!("COPILOT_HOME elsewhere {elsewhere}"),
        );
    }
    c.done("synced");
}

/// The project's Gemini guard (appending each payload to `guard.log`, read by [`guard_log`])
/// and a rule of the user's own, so that install writes a user route too; neither trusted yet.
fn a_project_guard_and_a_rule_of_the_users(sb: &Sandbox) {
    let command = format!("cat >> '{}'", sb.root.join("guard.log").display());
    let rule = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": command}]}]}});
    sb.write("project/.gemini/settings.json", &rule.to_string());
    let own = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "true"}]}]}});
    sb.write("home/.gemini/settings.json", &own.to_string());
}

/// [`a_project_guard_and_a_rule_of_the_users`], trusted, hookx installed for Claude in the
/// project and for Copilot in the user's `~/.copilot/hooks`.
fn a_guard_routed_for_claude_and_copilots_user(sb: &Sandbox) {
    a_project_guard_and_a_rule_of_the_users(sb);
    hookx(sb, &["trust", "--yes"]);
    hookx(sb, &["install", "--host", "claude"]);
    hookx(sb, &["install", "--host", "copilot", "--scope", "user"]);
}

/// Attacks row 600: row 264 through Copilot's other way to its folder, `--config-dir DIR`
/// (deprecated for `COPILOT_HOME` but honoured by 1.0.102: `resolveCopilotHome(configDir,
/// COPILOT_HOME, homedir)/hooks`), which sets no variable a hook sees: hookx installed for
/// Claude in the project and for Copilot in the user's `~/.copilot/hooks`, a trusted project
/// Gemini guard only hookx runs, Copilot started with `--config-dir` naming another folder. The
/// Claude route Copilot runs must not stand aside for a user route Copilot does not read.
fn a_claude_route_copilot_runs_with_its_config_dir_elsewhere() {
    let mut c = Checks::default();
    let Some(l) = live_with(
        "synced",
        |sb| {
            a_guard_routed_for_claude_and_copilots_user(sb);
            let seen = json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": sb.dumper("elsewhere")}]}});
            sb.write("copilot-config/hooks/seen.json", &seen.to_string());
            routed_env(sb)
        },
        |sb| {
            let folder = sb.root.join("copilot-config");
            vec!["--config-dir".into(), folder.display().to_string()]
        },
    ) else {
        return;
    };
    c.that(
        l.dumps.iter().any(|d| d.label == "elsewhere"),
        format!("Copilot read its hooks in --config-dir: {:?}", l.out.stderr),
    );
    guard_ran_once(&mut c, &l.sb.root, "--config-dir elsewhere");
    c.done("synced");
}

/// Attacks row 601, live: a team's Gemini wrapper (`./hookx-route.sh`, which runs `hookx run
/// --host gemini`) converted into `.claude/settings.json` (`hookx exec --host claude --as
/// gemini`), a project Cursor rule and one of the user's, hookx's Claude user route, the project
/// trusted in Gemini, no route of hookx's for Copilot. Copilot runs the copy from the Claude file
/// and never `~/.claude/settings.json`: the route inside the copy runs the Cursor rules (before,
/// `exec` left them to Claude's user route and they ran nowhere).
fn a_wrapper_copy_copilot_runs_from_claudes_file_runs_the_routes_rules() {
    let mut c = Checks::default();
    let Some(l) = live_env("synced", |sb| {
        let log = sb.root.join("ran.log");
        common::a_wrapper_story(&sb.project, &sb.home, &log, "gemini", false);
        common::wrapper_copy_converted(&sb.project, &sb.home, ".gemini/settings.json", "claude");
        common::user_route_naming_this_hookx(&sb.project, &sb.home, "claude");
        routed_env(sb)
    }) else {
        return;
    };
    let ran = common::sorted_lines(&l.sb.root.join("ran.log"));
    c.that(
        ran == common::each_wrapper_rule_once(None),
        format!("each rule once for one call: {ran:?}"),
    );
    c.done("synced");
}

/// Attacks row 604: the Claude route Copilot runs beside hookx's Copilot user route that cannot
/// answer: reading another home (`--home` of a settings folder synced from another machine: no
/// trust of this home there), or its hookx gone (moved or reinstalled elsewhere, the old line
/// left). With the other home, the Claude route must run the project's trusted Gemini guard
/// itself; as install wrote it, it stands aside and the user route runs the guard: the guard
/// once. With hookx gone, the user route denies the call itself, saying why (attacks row
/// 1140; before it, Copilot CLI 1.0.102 denied it as the hook's error, exit 127: it fails
/// closed on preToolUse), before the Claude file's hooks run.
fn a_claude_route_copilot_runs_beside_a_copilot_user_route_that_cannot_answer() {
    let mut c = Checks::default();
    for variant in ["as written", "hookx gone", "another home"] {
        let Some(l) = live_env("synced", |sb| {
            a_guard_routed_for_claude_and_copilots_user(sb);
            let file = sb.home.join(".copilot/hooks/hookx.json");
            let text = std::fs::read_to_string(&file).unwrap();
            let bin = assert_cmd::cargo::cargo_bin("hookx").display().to_string();
            let home = sb.home.display().to_string();
            let text = match variant {
                "hookx gone" => text.replace(&bin, &format!("{}/gone/hookx", sb.root.display())),
                "another home" => text.replace(&home, &format!("{}/elsewhere", sb.root.display())),
                _ => text,
            };
            std::fs::write(&file, text).unwrap();
            routed_env(sb)
        }) else {
            return;
        };
        if variant == "hookx gone" {
            // The user route's own deny (row 1140), before Copilot runs the Claude file's
            // hooks: the call is denied, the guard not asked, the reason said.
            let (_, ran) = guard_log(&l.sb.root);
            c.that(
                ran.is_empty()
                    && l.out.stdout.contains(
                        "Denied by preToolUse hook: hookx could not check this tool call",
                    ),
                format!(
                    "hookx gone: denied with the route's reason: {:?}",
                    l.out.stdout
                ),
            );
        } else {
            guard_ran_once(&mut c, &l.sb.root, variant);
        }
    }
    c.done("synced");
}

/// Attacks row 1341 under Copilot CLI 1.0.102: the project's Claude route (which Copilot runs)
/// and hookx's Copilot user route beside it written by a newer hookx (an option this one does
/// not know; the Claude route alone stands aside for the user route, which runs the guard),
/// the project's trusted Gemini guard. With a trust record in the home the call is
/// denied, the reason naming the hookx to upgrade; with none (nothing could run) the call runs.
fn a_route_a_newer_hookx_wrote() {
    let mut c = Checks::default();
    for state in ["trust record", "no trust record"] {
        let Some(l) = live_env("synced", |sb| {
            a_guard_routed_for_claude_and_copilots_user(sb);
            for (file, host) in [
                (sb.project.join(".claude/settings.json"), "claude"),
                (sb.home.join(".copilot/hooks/hookx.json"), "copilot"),
            ] {
                let text = std::fs::read_to_string(&file).unwrap();
                let newer = text.replace(
                    &format!(" run --host {host}"),
                    &format!(" run --option-of-tomorrow x --host {host}"),
                );
                assert_ne!(newer, text, "no route in {text}");
                std::fs::write(&file, newer).unwrap();
            }
            if state == "no trust record" {
                std::fs::remove_file(sb.home.join(".hookx/trust.json")).unwrap();
            }
            routed_env(sb)
        }) else {
            return;
        };
        let (ran, _) = guard_log(&l.sb.root);
        let denied = l.out.stdout.contains("Denied by preToolUse hook");
        // Copilot wraps the reason at its terminal's width.
        let told = l.out.stdout.contains("a newer hookx may have");
        let expected = match state {
            "trust record" => (true, true, true),
            _ => (true, false, false),
        };
        c.that(
            (ran.is_empty(), denied, told) == expected,
            format!(
                "{state}: the guard ran {}, denied {denied}, told {told} (expected not ran, \
                 denied, told: {expected:?}): {:?}",
                !ran.is_empty(),
                l.out.stdout
            ),
        );
    }
    c.done("synced");
}

/// One form of `ground_truth_dropped_files`: the file it is written in, its name, the event
/// (as the file spells it) and the entry that holds it, with `ODD` for the recorder's command;
/// `whole`: the entry is the event's whole value, not an item of its list.
struct DropForm {
    file: &'static str,
    name: String,
    event: &'static str,
    entry: Value,
    whole: bool,
}

/// The forms probed: in a Claude file, an entry on `event` whose group or handler varies one
/// field; in Copilot's own `.github/hooks/*.json`, the same in camelCase and in PascalCase.
fn drop_forms() -> Vec<DropForm> {
    let cmd = |extra: Value| {
        let mut h = json!({"type": "command", "command": "ODD"});
        h.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        h
    };
    let group = |matcher: Option<&str>, handler: Value| match matcher {
        Some(m) => json!({"matcher": m, "hooks": [handler]}),
        None => json!({"hooks": [handler]}),
    };
    let prompt = json!({"type": "prompt", "prompt": "Say ok."});
    let agent = json!({"type": "agent", "prompt": "Say ok."});
    let http = json!({"type": "http", "url": "http://127.0.0.1:9/hook"});
    let mut forms = Vec::new();
    for file in [".claude/settings.json", ".claude/settings.local.json"] {
        let local = file.ends_with("local.json");
        let mut add = |name: String, event: &'static str, entry: Value| {
            forms.push(DropForm {
                file,
                name,
                event,
                entry,
                whole: false,
            })
        };
        add(
            "control".into(),
            "PostToolUse",
            group(Some("Bash"), cmd(json!({}))),
        );
        let empty_on: &[&'static str] = match local {
            false => &[
                "PreToolUse",
                "PostToolUse",
                "PostToolUseFailure",
                "PermissionRequest",
                "UserPromptSubmit",
                "Stop",
                "SubagentStart",
                "SubagentStop",
                "SessionStart",
                "SessionEnd",
                "PreCompact",
                "Notification",
            ],
            true => &["PreToolUse", "Stop"],
        };
        for event in empty_on {
            add(
                format!("matcher \"\" on {event}"),
                event,
                group(Some(""), cmd(json!({}))),
            );
        }
        if local {
            add(
                "timeout 0 on PreToolUse".into(),
                "PreToolUse",
                group(Some("Bash"), cmd(json!({"timeout": 0}))),
            );
            add(
                "prompt on PreToolUse".into(),
                "PreToolUse",
                group(Some("Bash"), prompt.clone()),
            );
            continue;
        }
        for event in ["PreToolUse", "Stop"] {
            add(
                format!("no matcher on {event}"),
                event,
                group(None, cmd(json!({}))),
            );
            add(
                format!("matcher \"*\" on {event}"),
                event,
                group(Some("*"), cmd(json!({}))),
            );
            add(
                format!("timeout 0 on {event}"),
                event,
                group(Some("Bash"), cmd(json!({"timeout": 0}))),
            );
            add(
                format!("agent on {event}"),
                event,
                group(Some("Bash"), agent.clone()),
            );
            add(
                format!("http on {event}"),
                event,
                group(Some("Bash"), http.clone()),
            );
        }
        add(
            "http, no matcher, on PreToolUse".into(),
            "PreToolUse",
            group(None, http.clone()),
        );
        for event in ["PostToolUse", "UserPromptSubmit", "SessionStart"] {
            add(
                format!("http on {event}"),
                event,
                group(Some("Bash"), http.clone()),
            );
        }
        add(
            "type \"other\" on Stop".into(),
            "Stop",
            group(None, json!({"type": "other", "command": "ODD"})),
        );
        add(
            "no type on Stop".into(),
            "Stop",
            group(None, json!({"command": "ODD"})),
        );
        add(
            "matcher \"(\" on PreToolUse".into(),
            "PreToolUse",
            group(Some("("), cmd(json!({}))),
        );
        add(
            "timeout \"5\" on PreToolUse".into(),
            "PreToolUse",
            group(Some("Bash"), cmd(json!({"timeout": "5"}))),
        );
        for event in ["PostToolUse", "UserPromptSubmit", "SessionStart"] {
            add(
                format!("agent on {event}"),
                event,
                group(Some("Bash"), agent.clone()),
            );
        }
        // The URL decides: plain `http` to loopback above, these beside it.
        for url in [
            "https://example.com/h",
            "http://example.com/h",
            "https://127.0.0.1:9/h",
        ] {
            add(
                format!("http {url} on PreToolUse"),
                "PreToolUse",
                group(Some("Bash"), json!({"type": "http", "url": url})),
            );
        }
        add(
            "http on PermissionRequest".into(),
            "PermissionRequest",
            group(Some("Bash"), http.clone()),
        );
        add(
            "prompt on SessionEnd".into(),
            "SessionEnd",
            group(None, prompt.clone()),
        );
        add(
            "timeout 0 on UserPromptSubmit".into(),
            "UserPromptSubmit",
            group(None, cmd(json!({"timeout": 0}))),
        );
        add(
            "timeout 0.5 on PreToolUse".into(),
            "PreToolUse",
            group(Some("Bash"), cmd(json!({"timeout": 0.5}))),
        );
        add(
            "timeout -1 on PreToolUse".into(),
            "PreToolUse",
            group(Some("Bash"), cmd(json!({"timeout": -1}))),
        );
        for event in [
            "PreToolUse",
            "PostToolUse",
            "UserPromptSubmit",
            "Stop",
            "SessionStart",
        ] {
            add(
                format!("prompt on {event}"),
                event,
                group(Some("Bash"), prompt.clone()),
            );
        }
        // The seventh attack pass (rows 120-121): values of other types, events Copilot does
        // not read from a Claude file (its own camelCase names it reads, and checks).
        add(
            "timeout null on PreToolUse".into(),
            "PreToolUse",
            group(Some("Bash"), cmd(json!({"timeout": null}))),
        );
        add(
            "timeout true on PreToolUse".into(),
            "PreToolUse",
            group(Some("Bash"), cmd(json!({"timeout": true}))),
        );
        add(
            "timeout 1e-9 on PreToolUse".into(),
            "PreToolUse",
            group(Some("Bash"), cmd(json!({"timeout": 1e-9}))),
        );
        add(
            "matcher null on PreToolUse".into(),
            "PreToolUse",
            json!({"matcher": null, "hooks": [cmd(json!({}))]}),
        );
        add(
            "matcher 5 on PreToolUse".into(),
            "PreToolUse",
            json!({"matcher": 5, "hooks": [cmd(json!({}))]}),
        );
        add(
            "type \"Command\" on PreToolUse".into(),
            "PreToolUse",
            group(Some("Bash"), json!({"type": "Command", "command": "ODD"})),
        );
        for event in ["PreToolUse", "Stop"] {
            add(
                format!("handlers an object on {event}"),
                event,
                json!({"matcher": "Bash", "hooks": cmd(json!({}))}),
            );
            add(
                format!("handlers a string on {event}"),
                event,
                json!({"matcher": "Bash", "hooks": "ODD"}),
            );
            add(
                format!("handler a string on {event}"),
                event,
                json!({"matcher": "Bash", "hooks": ["ODD"]}),
            );
        }
        add("group a string on Stop".into(), "Stop", json!("ODD"));
        for event in [
            "Setup",
            "PostCompact",
            "TeammateIdle",
            "NoSuchEvent",
            "preToolUse",
            "agentStop",
            "userPromptSubmitted",
            "pretooluse",
        ] {
            add(
                format!("timeout 0 on {event}"),
                event,
                group(None, cmd(json!({"timeout": 0}))),
            );
        }
        add(
            "agent on TeammateIdle".into(),
            "TeammateIdle",
            group(None, agent.clone()),
        );
        add(
            "matcher \"\" on preToolUse".into(),
            "preToolUse",
            group(Some(""), cmd(json!({}))),
        );
        add(
            "command on preToolUse".into(),
            "preToolUse",
            group(Some("Bash"), cmd(json!({}))),
        );
        // The session of 2026-12-05 afternoon: an `http` handler without a `url`, or with one
        // that is not a string; an event whose value is not a list (below).
        for event in ["PreToolUse", "PostToolUse", "Stop"] {
            add(
                format!("http, no url, on {event}"),
                event,
                group(Some("Bash"), json!({"type": "http"})),
            );
        }
        for event in ["PreToolUse", "PostToolUse"] {
            add(
                format!("http url 5 on {event}"),
                event,
                group(Some("Bash"), json!({"type": "http", "url": 5})),
            );
        }
        // The eighth attack pass (rows 150-151, 158): a group or a handler's fields of other
        // shapes and types.
        add(
            "group without hooks on Stop".into(),
            "Stop",
            json!({"matcher": "Bash"}),
        );
        add(
            "handlers null on Stop".into(),
            "Stop",
            json!({"matcher": "Bash", "hooks": null}),
        );
        add(
            "command missing on Stop".into(),
            "Stop",
            group(None, json!({"type": "command"})),
        );
        add(
            "command 5 on Stop".into(),
            "Stop",
            group(None, json!({"type": "command", "command": 5})),
        );
        add(
            "command \"\" on Stop".into(),
            "Stop",
            group(None, json!({"type": "command", "command": ""})),
        );
        add(
            "async \"yes\" on Stop".into(),
            "Stop",
            group(None, cmd(json!({"async": "yes"}))),
        );
        add(
            "statusMessage 5 on Stop".into(),
            "Stop",
            group(None, cmd(json!({"statusMessage": 5}))),
        );
        add(
            "once \"x\" on Stop".into(),
            "Stop",
            group(None, cmd(json!({"once": "x"}))),
        );
        add(
            "timeout 1e12 on PreToolUse".into(),
            "PreToolUse",
            group(Some("Bash"), cmd(json!({"timeout": 1e12}))),
        );
        add(
            "matcher [\"Bash\"] on PreToolUse".into(),
            "PreToolUse",
            json!({"matcher": ["Bash"], "hooks": [cmd(json!({}))]}),
        );
        add(
            "type 5 on Stop".into(),
            "Stop",
            group(None, json!({"type": 5, "command": "ODD"})),
        );
        add(
            "type null on Stop".into(),
            "Stop",
            group(None, json!({"type": null, "command": "ODD"})),
        );
        add(
            "if 5 on PreToolUse".into(),
            "PreToolUse",
            group(Some("Bash"), cmd(json!({"if": 5}))),
        );
        add(
            "command an array on Stop".into(),
            "Stop",
            group(None, json!({"type": "command", "command": ["ODD"]})),
        );
        add(
            "handlers [] on Stop".into(),
            "Stop",
            json!({"matcher": "Bash", "hooks": []}),
        );
        add(
            "prompt without prompt on SessionStart".into(),
            "SessionStart",
            group(None, json!({"type": "prompt"})),
        );
        let whole: [(&str, &'static str, Value); 6] = [
            (
                "an object",
                "PostToolUse",
                group(Some("Bash"), cmd(json!({}))),
            ),
            ("an object", "Stop", group(None, cmd(json!({})))),
            ("an object", "Setup", group(None, cmd(json!({})))),
            ("{}", "PostToolUse", json!({})),
            ("null", "PostToolUse", Value::Null),
            // The eighth attack pass (row 158).
            ("a string", "Stop", json!("ODD")),
        ];
        for (what, event, entry) in whole {
            forms.push(DropForm {
                file,
                name: format!("{event} {what}, not a list"),
                event,
                entry,
                whole: true,
            });
        }
    }
    let camel = |extra: Value| {
        let mut h = json!({"type": "command", "bash": "ODD"});
        h.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        h
    };
    let file = ".github/hooks/probe.json";
    let mut add = |name: &str, event: &'static str, entry: Value| {
        forms.push(DropForm {
            file,
            name: name.to_string(),
            event,
            entry,
            whole: false,
        })
    };
    add("camel control", "postToolUse", camel(json!({})));
    add(
        "camel matcher \"\" on preToolUse",
        "preToolUse",
        camel(json!({"matcher": ""})),
    );
    add(
        "camel matcher \"\" on agentStop",
        "agentStop",
        camel(json!({"matcher": ""})),
    );
    add(
        "camel timeoutSec 0 on preToolUse",
        "preToolUse",
        camel(json!({"timeoutSec": 0})),
    );
    add(
        "camel prompt on preToolUse",
        "preToolUse",
        json!({"type": "prompt", "prompt": "Say ok."}),
    );
    add(
        "camel prompt on agentStop",
        "agentStop",
        json!({"type": "prompt", "prompt": "Say ok."}),
    );
    add(
        "pascal matcher \"\" on PreToolUse",
        "PreToolUse",
        group(Some(""), cmd(json!({}))),
    );
    add(
        "pascal matcher \"\" on Stop",
        "Stop",
        group(Some(""), cmd(json!({}))),
    );
    add(
        "pascal timeout 0 on PreToolUse",
        "PreToolUse",
        group(Some("Bash"), cmd(json!({"timeout": 0}))),
    );
    add(
        "pascal prompt on PreToolUse",
        "PreToolUse",
        group(Some("Bash"), prompt.clone()),
    );
    forms
}

/// Ground truth, no hookx (`conformance/copilot-facts.md`, "Files Copilot drops whole"):
/// for each form of [`drop_forms`], a file holding it beside a Bash guard (a recorder on
/// PreToolUse, `guard`), with another guard in a second file (`other`: the other Claude file,
/// or `.claude/settings.json` beside Copilot's own). Records whether Copilot ran each, and
/// the debug log's lines about loading them; `HOOKX_RECORD_DROPS=1` rewrites
/// `tests/fixtures/recorded/copilot-1.0.102/drops/dropped-files.json`, otherwise the run must match it.
fn ground_truth_dropped_files() {
    let mut rows = Vec::new();
    for form in drop_forms() {
        let Some(l) = live_env("synced", |sb| {
            let camel =
                form.file.starts_with(".github/") && form.event.starts_with(char::is_lowercase);
            let odd = sb.dumper("odd");
            let entry: Value =
                serde_json::from_str(&form.entry.to_string().replace("ODD", &odd)).unwrap();
            let guard = |label: &str| json!({"matcher": "Bash", "hooks": [{"type": "command", "command": sb.dumper(label)}]});
            let mut hooks = serde_json::Map::new();
            match camel {
                true => {
                    hooks.insert(
                        "preToolUse".into(),
                        json!([{"type": "command", "bash": sb.dumper("guard")}]),
                    );
                }
                false => {
                    hooks.insert("PreToolUse".into(), json!([guard("guard")]));
                }
            }
            match form.whole {
                true => {
                    hooks.insert(form.event.to_string(), entry);
                }
                false => hooks
                    .entry(form.event.to_string())
                    .or_insert_with(|| json!([]))
                    .as_array_mut()
                    .unwrap()
                    .push(entry),
            }
            let mut doc = json!({"hooks": hooks});
            if form.file.starts_with(".github/") {
                doc["version"] = json!(1);
            }
            sb.write(&format!("project/{}", form.file), &doc.to_string());
            let other = match form.file {
                ".claude/settings.json" => ".claude/settings.local.json",
                _ => ".claude/settings.json",
            };
            let other_doc = json!({"hooks": {"PreToolUse": [guard("other")]}});
            sb.write(&format!("project/{other}"), &other_doc.to_string());
            routed_env(sb)
        }) else {
            return;
        };
        let root = l.sb.root.display().to_string();
        let ran = |label: &str| l.dumps.iter().filter(|d| d.label == label).count();
        // What the client says it loaded: `loadDeferredRepoHooks(SESSION): loaded repo hooks
        // (hookCount=N)`, the session id left out.
        let mut log: Vec<String> = l
            .out
            .log
            .lines()
            .filter_map(|line| {
                let at = line.find("loaded repo hooks")?;
                Some(line[at..].replace(&root, "ROOT"))
            })
            .collect();
        log.dedup();
        rows.push(json!({
            "file": form.file,
            "form": form.name,
            "event": form.event,
            "entry": form.entry,
            "whole": form.whole,
            "guard_runs": ran("guard"),
            "other_runs": ran("other"),
            "odd_runs": ran("odd"),
            "log": log,
        }));
        eprintln!(
            "{:<32} {:<40} guard {} other {} odd {}",
            form.file,
            form.name,
            ran("guard"),
            ran("other"),
            ran("odd")
        );
    }
    let book = json!({"client": "@github/copilot", "version": client::VERSION,
        "how": "copilot -p --allow-all-tools, sealed, GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true, one bash call (echo synced-call); tests/live_copilot.rs ground_truth_dropped_files",
        "rows": rows});
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/recorded/copilot-1.0.102/drops/dropped-files.json");
    if std::env::var_os("HOOKX_RECORD_DROPS").is_some() {
        std::fs::write(&path, serde_json::to_string_pretty(&book).unwrap() + "\n").unwrap();
        return;
    }
    let recorded: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // Forms whose other file's run races the odd entry's kill: a timeout of 1e-9 s ends that
    // handler as it starts, and whether Copilot then runs the other file's guard varied with
    // the machine's load (1 as recorded, 0 in a fresh-clone CI run beside a full test run, at
    // `285c16f`). Their file is still loaded and their guard still runs, which is compared.
    const RACY: &[&str] = &["timeout 1e-9 on PreToolUse"];
    let runs = |v: &Value| -> Vec<(Value, Value, Value)> {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let racy = r["form"].as_str().is_some_and(|f| RACY.contains(&f));
                (
                    r["form"].clone(),
                    r["guard_runs"].clone(),
                    match racy {
                        true => Value::Null,
                        false => r["other_runs"].clone(),
                    },
                )
            })
            .collect()
    };
    assert_eq!(
        runs(&book),
        runs(&recorded),
        "the client drops other files than recorded"
    );
}

/// Which timeouts Copilot CLI 1.0.102 refuses in its own `.github/hooks/*.json` (a Claude file
/// with one is dropped whole, `ground_truth_dropped_files`): each value beside a Bash guard,
/// in camelCase `timeoutSec` and PascalCase `timeout`. The debug log's `hookCount` says
/// whether the entry was loaded, the recorder whether it ran, and the guard that the file
/// still runs. doctor, asked in the same sandbox, says the entry never fires exactly where
/// Copilot did not load it. Last, a PascalCase group holding a handler beside one with
/// `"timeout": 0`: whether Copilot runs the other.
fn own_file_timeouts() {
    let mut c = Checks::default();
    let values = [
        json!(0),
        json!(-1),
        json!(0.5),
        json!(1.5),
        json!("5"),
        json!(null),
        json!(true),
        json!(2147483),
        json!(2147484),
        json!(1e12),
        json!(5),
    ];
    for pascal in [false, true] {
        for value in &values {
            let Some(l) = live_env("synced", |sb| {
                let odd = sb.dumper("odd");
                let guard = sb.dumper("guard");
                let hooks = match pascal {
                    false => json!({"preToolUse": [
                        {"type": "command", "bash": guard},
                        {"type": "command", "bash": odd, "timeoutSec": value}]}),
                    true => json!({"PreToolUse": [
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": guard}]},
                        {"matcher": "Bash", "hooks": [{"type": "command", "command": odd, "timeout": value}]}]}),
                };
                sb.write(
                    "project/.github/hooks/probe.json",
                    &json!({"version": 1, "hooks": hooks}).to_string(),
                );
                routed_env(sb)
            }) else {
                return;
            };
            let ran = |label: &str| l.dumps.iter().filter(|d| d.label == label).count();
            let counts: Vec<&str> = l
                .out
                .log
                .lines()
                .filter_map(|line| {
                    let at = line.find("loaded repo hooks")?;
                    Some(&line[at..])
                })
                .collect();
            let loaded = counts.iter().any(|c| c.contains("hookCount=2"));
            let out = common::hookx_at(
                &l.sb.project,
                &l.sb.home,
                &["doctor", "--host", "copilot", "--format", "json"],
            )
            .get_output()
            .clone();
            let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
            let status = report["files"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|f| f["rules"].as_array().into_iter().flatten())
                .find(|r| r["handler"].as_str().is_some_and(|h| h.contains(" odd")))
                .map(|r| r["hosts"][0]["status"].clone())
                .unwrap_or_default();
            eprintln!(
                "{} {value:<14} guard {} odd {} {counts:?} doctor {status}",
                if pascal { "timeout   " } else { "timeoutSec" },
                ran("guard"),
                ran("odd"),
            );
            c.that(
                ran("guard") == 1,
                format!("{pascal} {value}: the guard ran once"),
            );
            c.that(
                loaded == (status != "never"),
                format!("{pascal} {value}: loaded {loaded}, doctor says {status}"),
            );
        }
    }
    let Some(l) = live_env("synced", |sb| {
        let group = json!({"matcher": "Bash", "hooks": [
            {"type": "command", "command": sb.dumper("beside")},
            {"type": "command", "command": sb.dumper("odd"), "timeout": 0}]});
        let doc = json!({"version": 1, "hooks": {"PreToolUse": [group]}});
        sb.write("project/.github/hooks/probe.json", &doc.to_string());
        routed_env(sb)
    }) else {
        return;
    };
    let ran = |label: &str| l.dumps.iter().filter(|d| d.label == label).count();
    eprintln!("shared group: beside {} odd {}", ran("beside"), ran("odd"));
    let out = common::hookx_at(&l.sb.project, &l.sb.home, &["doctor", "--host", "copilot"])
        .get_output()
        .clone();
    let report = String::from_utf8_lossy(&out.stdout);
    c.that(
        ran("beside") == 1 && ran("odd") == 0,
        "shared group: the handler beside ran, the other not",
    );
    c.that(
        report.contains("Copilot does not load its handler 2: `\"timeout\": 0`")
            && !report.contains("never fires"),
        format!("shared group: doctor says handler 2 alone is left out: {report}"),
    );
    c.done("synced");
}

/// A real multi-agent layout (1Password/agent-hooks at `adebf29d`): one guard written by hand
/// into `.claude/settings.json` (a typed `Bash` entry) and into `.github/hooks/hooks.json` in
/// VS Code's form, a flat PascalCase handler with no `type` and no matcher (`{"command": …,
/// "timeout": 15}`). Copilot loads both files in a trusted folder and runs each copy once per
/// Bash call; `doctor --host copilot` says each fires natively, and its JSON Schema takes the
/// file Copilot runs (`schemas::a_copilot_handler_without_type_in_vscode_form_is_valid`).
fn a_hand_copied_guard_in_vscodes_form_runs_as_doctor_says() {
    let Some(l) = live_env("synced", |sb| {
        let claude = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": sb.dumper("claude-copy")}]}]}});
        sb.write("project/.claude/settings.json", &claude.to_string());
        let team = json!({"version": 1, "hooks": {"PreToolUse": [
            {"command": sb.dumper("untyped-copy"), "timeout": 15}]}});
        sb.write("project/.github/hooks/hooks.json", &team.to_string());
        let camel = json!({"version": 1, "hooks": {"preToolUse": [
            {"bash": sb.dumper("untyped-camel")}]}});
        sb.write("project/.github/hooks/camel.json", &camel.to_string());
        routed_env(sb)
    }) else {
        return;
    };
    let mut c = Checks::default();
    let ran = |label: &str| l.dumps.iter().filter(|d| d.label == label).count();
    // Doctor in the run's environment: `-p` reads a repository's hooks only with this set.
    let out = assert_cmd::Command::cargo_bin("hookx")
        .unwrap()
        .args([
            "doctor",
            "--host",
            "copilot",
            "--format",
            "json",
            "--project",
        ])
        .arg(&l.sb.project)
        .arg("--home")
        .arg(&l.sb.home)
        .env("HOME", &l.sb.home)
        .env_remove("HOOKX_HOME")
        .env("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let status = |label: &str| {
        report["files"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|f| f["rules"].as_array().into_iter().flatten())
            .find(|r| r["handler"].as_str().is_some_and(|h| h.ends_with(label)))
            .map(|r| r["hosts"][0]["status"].clone())
            .unwrap_or_default()
    };
    for label in ["claude-copy", "untyped-copy", "untyped-camel"] {
        eprintln!("{label}: ran {}, doctor {}", ran(label), status(label));
        c.that(
            ran(label) == 1 && status(label) == "fires",
            format!(
                "{label}: ran {} and doctor says {}",
                ran(label),
                status(label)
            ),
        );
    }
    c.done("synced");
}

/// A Claude project whose `.claude/settings.json` Copilot 1.0.102 drops whole: a Bash guard
/// that denies, a Stop hook with `"matcher": ""` (which Copilot takes) and a PostToolUse
/// logger with `"matcher": ""` (which makes Copilot drop the file,
/// `ground_truth_dropped_files`). hookx is routed in for the user (`hookx install --host
/// copilot --scope user`, a personal rule on the same events) and the file is trusted. hookx
/// runs the file's rules through that route, each once per event with Claude's payload, and
/// the guard's deny reaches the model. Before hookx knew of the drop, its plan named Copilot
/// the runner and skipped them: each ran zero times, and the call went through.
fn a_claude_file_copilot_drops_runs_once_through_hookx() {
    let Some(l) = live_env("story", |sb| {
        let script = sb.write(
            "project/hook.sh",
            "#!/bin/sh\nr=agent; [ -n \"$HOOKX_HOST\" ] && r=hookx\np=$(tr -d '\\n')\n\
             printf '%s %s %s\\n' \"$1\" \"$r\" \"$p\" >> \"$(dirname \"$0\")/runs.log\"\n\
             case \"$1 $p\" in \"guard \"*story-bash*) echo DROP-GUARD-SAYS-NO >&2; exit 2;; esac\n",
        );
        let run = |label: &str| format!("sh {} {label}", script.display());
        let settings = json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": run("guard")}]}],
            "PostToolUse": [{"matcher": "", "hooks": [{"type": "command", "command": run("post")}]}],
            "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": run("stop")}]}],
        }});
        sb.write("project/.claude/settings.json", &settings.to_string());
        common::story_personal_rule(
            &sb.project,
            &sb.home,
            "copilot",
            ".claude/settings.json",
            &["PreToolUse", "PostToolUse", "Stop"],
        );
        routed_env(sb)
    }) else {
        return;
    };
    let mut c = Checks::default();
    let log = std::fs::read_to_string(l.sb.project.join("runs.log")).unwrap_or_default();
    let runs = |label: &str| -> Vec<Value> {
        log.lines()
            .filter_map(|line| line.strip_prefix(&format!("{label} ")))
            .map(|rest| {
                let (runner, payload) = rest.split_once(' ').unwrap_or((rest, ""));
                let payload: Value = serde_json::from_str(payload).unwrap_or(Value::Null);
                json!({"runner": runner, "payload": payload})
            })
            .collect()
    };
    let guard = runs("guard");
    c.that(
        guard.len() == 1
            && guard[0]["runner"] == "hookx"
            && guard[0]["payload"]["tool_name"] == "Bash"
            && guard[0]["payload"]["tool_input"]["command"] == "echo story-bash",
        format!("the guard ran once, through hookx, with Claude's payload:\n{log}"),
    );
    let result = l.tool_result("story", "story-bash");
    c.that(
        result.contains("DROP-GUARD-SAYS-NO"),
        format!("the guard's deny reached the model: {result}"),
    );
    // The shell call was denied, so the one PostToolUse is the file's creation.
    let post = runs("post");
    c.that(
        post.len() == 1
            && post[0]["runner"] == "hookx"
            && post[0]["payload"]["tool_name"] == "Write"
            && post[0]["payload"]["tool_input"]["file_path"]
                .as_str()
                .is_some_and(|p| p.ends_with("notes.txt")),
        format!("the logger ran once, through hookx, with a Write's file_path:\n{log}"),
    );
    let stop = runs("stop");
    c.that(
        stop.len() == 1 && stop[0]["runner"] == "hookx",
        format!("the Stop hook ran once, through hookx:\n{log}"),
    );
    c.done("story");
}

/// Attacks row 1683: a guard whose `timeoutSec` is past what a JavaScript timer holds (2^31 - 1
/// ms). Whether the project's guard that takes a second to deny still denies at each is
/// recorded in `tests/fixtures/timers/copilot-1.0.102.json`, which `validate` is checked
/// against.
fn a_guards_timeout_past_the_timers_reach() {
    let mut c = Checks::default();
    let recorded = common::timer_forms("copilot-1.0.102");
    let guard = r#"sleep 1; echo '{"permissionDecision":"deny","permissionDecisionReason":"R-TIMER-GUARD"}'"#;
    for (timeout, denies) in &recorded.forms {
        let Some(l) = live_env("synced", |sb| {
            sb.write(
                &format!("project/{}", recorded.file),
                &recorded.settings(guard, timeout),
            );
            routed_env(sb)
        }) else {
            return;
        };
        let result = l.tool_result("synced", "synced-call");
        let denied = !result.contains("synced-call\\n");
        c.that(
            denied == *denies,
            format!("timeout {timeout}: denied {denied}, recorded {denies}: {result}"),
        );
    }
    c.done("timer");
}

/// Attacks row 1687: a Copilot handler holding two command keys (`bash` and `command`;
/// `command` and `linux`): which one Copilot CLI runs on Linux, against the one hookx reads
/// (`list`, which doctor and the run path share; for a Windows line only, `validate`'s warning).
fn two_command_keys_run_as_hookx_reads_them() {
    let mut c = Checks::default();
    // (form, the handler, with @A@, @B@ for two recorders)
    let forms = [
        (
            "camelCase bash and command",
            "preToolUse",
            r#"{"type": "command", "bash": @A@, "command": @B@}"#,
        ),
        (
            "camelCase command and bash",
            "preToolUse",
            r#"{"type": "command", "command": @B@, "bash": @A@}"#,
        ),
        (
            "camelCase command and linux",
            "preToolUse",
            r#"{"type": "command", "command": @B@, "linux": @A@}"#,
        ),
        (
            "PascalCase command and linux",
            "PreToolUse",
            r#"{"type": "command", "command": @B@, "linux": @A@}"#,
        ),
        (
            "PascalCase bash and command",
            "PreToolUse",
            r#"{"type": "command", "bash": @A@, "command": @B@}"#,
        ),
        (
            "camelCase powershell only",
            "preToolUse",
            r#"{"type": "command", "powershell": @B@}"#,
        ),
    ];
    for (form, event, handler) in forms {
        let (mut listed, mut validated) = (String::new(), String::new());
        let Some(l) = live_env("synced", |sb| {
            let text = handler
                .replace("@A@", &Value::String(sb.dumper("a")).to_string())
                .replace("@B@", &Value::String(sb.dumper("b")).to_string());
            sb.write(
                "project/.github/hooks/probe.json",
                &format!(r#"{{"version": 1, "hooks": {{"{event}": [{text}]}}}}"#),
            );
            let out = common::hookx_at(&sb.project, &sb.home, &["list", "--host", "copilot"]);
            listed = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
            let file = sb.project.join(".github/hooks/probe.json");
            let out =
                common::hookx_at(&sb.project, &sb.home, &["validate", file.to_str().unwrap()]);
            validated = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
            routed_env(sb)
        }) else {
            return;
        };
        let ran: Vec<String> = l.dumps.iter().map(|d| d.label.clone()).collect();
        // A handler validate says runs on Windows only is one that runs nothing here.
        let windows_only = validated.contains("has a Windows command only");
        let hookx_reads = ["a", "b"]
            .into_iter()
            .filter(|_| !windows_only)
            .filter(|label| {
                listed.lines().any(|line| {
                    line.contains("copilot") && line.contains(&format!("dump.sh {label}"))
                })
            })
            .map(str::to_string)
            .collect::<Vec<_>>();
        println!("{form}: copilot ran {ran:?}, hookx reads {hookx_reads:?}");
        let mut ran_once = ran.clone();
        ran_once.dedup();
        c.that(
            ran_once == hookx_reads,
            format!("{form}: Copilot ran {ran:?}, hookx reads {hookx_reads:?}:\n{listed}"),
        );
    }
    c.done("two keys");
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    harness::main(
        "live_copilot",
        &[harness::client(
            "Copilot CLI",
            format!(
                "copilot-{}/node_modules/@github/copilot-linux-x64/copilot",
                client::VERSION
            ),
        )],
        live_tests![
            a_converted_async_handler_runs_in_the_background,
            a_routed_async_handler_runs_in_the_background,
            a_claude_async_handler_copilot_runs_itself,
            failed_calls_as_copilot_fires_them,
            lifecycle_events_fire_as_often_as_recorded,
            two_command_keys_run_as_hookx_reads_them,
            a_trusted_guard_denies_when_copilot_starts_in_a_worktree,
            a_guards_timeout_past_the_timers_reach,
            matchers_fire_as_hookx_reads_them,
            pascal_matchers_fire_as_hookx_reads_them,
            converted_corpus_configs,
            claude_projects_loop,
            ground_truth_leftovers,
            ground_truth_tools,
            a_foreign_stop_rule_does_not_keep_a_copilot_subagent_going,
            copilot_runs_no_handler_after_a_deny,
            ground_truth_deny,
            ground_truth_answer_forms,
            ground_truth_blocked_prompt,
            ground_truth_compact_and_error,
            routed_handlers_of_every_dialect,
            converted_claude_config,
            a_decoy_path_beside_the_real_one_does_not_pass_a_claude_guard,
            migration_story_runs_each_rule_once,
            team_loop_runs_each_rule_once,
            team_loop_converted_only_runs_each_rule_once,
            team_loop_without_hookx_fails_closed_only_on_the_guards,
            claude_only_project_runs_each_rule_once_with_claude_payload,
            hook_files_with_comments_or_trailing_commas,
            copilots_rewritten_folder_record_still_trusts_the_folder,
            faulty_handlers_beside_a_deny,
            synced_project_runs_each_rule_once,
            a_guard_switched_off_by_another_projects_install_still_denies,
            a_pascalcase_guard_switched_off_by_another_projects_install_still_denies,
            a_guard_whose_key_hookx_cannot_tell_still_runs_once,
            a_repo_kill_switch_turns_off_the_users_hooks_too,
            ground_truth_dropped_files,
            own_file_timeouts,
            a_claude_file_copilot_drops_runs_once_through_hookx,
            a_claude_guard_and_its_pascalcase_copy_run_once_through_hookx,
            a_users_empty_list_over_lines_still_switches_the_guard_off,
            a_user_route_copilot_has_turned_off,
            a_claude_route_copilot_runs_without_a_copilot_route,
            a_guard_left_to_hookx_runs_once_with_copilot_home_elsewhere,
            mcp_tools_under_copilot,
            mcp_names_under_copilot,
            a_claude_route_copilot_runs_with_its_config_dir_elsewhere,
            a_wrapper_copy_copilot_runs_from_claudes_file_runs_the_routes_rules,
            a_claude_route_copilot_runs_beside_a_copilot_user_route_that_cannot_answer,
            a_route_a_newer_hookx_wrote,
            permission_modes_and_a_hooks_answer,
            a_foreign_allow_does_not_pass_copilots_deny_tool,
            the_vscode_routes_of_both_scopes_copilot_runs_run_each_rule_once,
            the_copilot_project_route_and_the_vscode_user_route_run_each_rule_once,
            a_users_route_copilot_runs_does_not_stand_aside_for_a_repositorys_route,
            the_vscode_and_claude_routes_copilot_runs_run_each_rule_once,
            a_slow_guard_through_the_claude_route_copilot_runs_answers_itself,
            a_copilot_route_turned_off_below_copilot_home_leaves_the_guard_to_the_claude_route,
            a_route_timeout_written_otherwise_is_keyed_as_copilot_prints_it,
            a_route_the_user_shortened,
            a_route_the_user_shortened_in_copilot_home,
            a_repositorys_route_timeout_does_not_shorten_the_users_route,
            the_project_route_is_not_cut_to_the_users_shortened_route,
            the_claude_route_does_not_stand_aside_for_a_vscode_route_cut_short,
            both_scopes_get_one_event,
            a_hand_copied_guard_in_vscodes_form_runs_as_doctor_says,
            a_startup_rule_runs_when_copilot_starts_a_new_session,
            several_hooks_answers_merge_as_simulate_says,
            camel_hooks_get_the_call_an_earlier_one_rewrote,
        ],
    )
}

/// The sandbox's `guard.log`, where a guard appends the payload of each run: its text, and the
/// payloads in it.
/// Checks that the guard ran once for the one call; `what` names the form checked.
fn guard_ran_once(c: &mut Checks, root: &std::path::Path, what: &str) {
    let (ran, payloads) = guard_log(root);
    c.that(
        payloads.len() == 1,
        format!(
            "{what}{}the guard ran {} times for one call: {ran:?}",
            if what.is_empty() { "" } else { ": " },
            payloads.len()
        ),
    );
}

fn guard_log(root: &std::path::Path) -> (String, Vec<Value>) {
    let ran = std::fs::read_to_string(root.join("guard.log")).unwrap_or_default();
    let payloads = serde_json::Deserializer::from_str(&ran)
        .into_iter()
        .flatten()
        .collect();
    (ran, payloads)
}

/// The claim gate (task "claims"): recorders on every event in the user's
/// `~/.copilot/hooks/dump.json` (camelCase and PascalCase, labelled by event), the project's
/// `.github/hooks/dump.json` (`project-…`) and the project's `.claude/settings.json`
/// (`claude-…`, which Copilot runs with its PascalCase payload), one session running the same
/// command twice. Copilot CLI 1.0.102 hands the user's and the project's hook of one event the
/// same payload, its own hook and the Claude file's one event in two shapes with one
/// `timestamp` (milliseconds, a number in the one, ISO 8601 in the other: no call id), and two
/// calls alike differ by `timestamp` alone (recorded in `scopes/pairs.json`).
fn both_scopes_get_one_event() {
    let Some(l) = live(
        "twice",
        |sb| {
            sb.write("home/.copilot/hooks/dump.json", &dump_everything(sb));
            let mut project: Value = serde_json::from_str(&dump_everything(sb)).unwrap();
            for (event, entries) in project["hooks"].as_object_mut().unwrap() {
                let command = sb.dumper(&format!("project-{event}"));
                match entries[0].get("hooks").is_some() {
                    true => entries[0]["hooks"][0]["command"] = json!(command),
                    false => entries[0]["bash"] = json!(command),
                }
            }
            sb.write("project/.github/hooks/dump.json", &project.to_string());
            let claude: serde_json::Map<String, Value> = PASCAL
                .iter()
                .map(|e| {
                    let command = sb.dumper(&format!("claude-{e}"));
                    (
                        e.to_string(),
                        json!([{"hooks": [{"type": "command", "command": command}]}]),
                    )
                })
                .collect();
            sb.write(
                "project/.claude/settings.json",
                &json!({"hooks": claude}).to_string(),
            );
        },
        // `-p` runs a repository's hooks only with this set.
        &[("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true")],
    ) else {
        return;
    };
    let mut c = Checks::default();
    let side = |prefix: &str| -> Vec<(String, Value)> {
        l.dumps
            .iter()
            .filter(|d| match prefix {
                "" => !d.label.contains('-'),
                p => d.label.starts_with(p),
            })
            .map(|d| {
                (
                    d.label.trim_start_matches(prefix).to_string(),
                    d.stdin.clone(),
                )
            })
            .collect()
    };
    let (user, project, claude) = (side(""), side("project-"), side("claude-"));
    let problems = scopes::pairing(&user, &project, &[]);
    c.that(
        problems.is_empty() && !user.is_empty(),
        format!("user and project, one payload per event: {problems:?}"),
    );
    let pascal: Vec<(String, Value)> = user
        .iter()
        .filter(|(e, _)| PASCAL.contains(&e.as_str()))
        .cloned()
        .collect();
    let problems = scopes::pairing(&pascal, &claude, &[]);
    c.that(
        problems.is_empty() && !claude.is_empty(),
        format!("user PascalCase and .claude, one payload per event: {problems:?}"),
    );
    let calls = scopes::alike_calls(&user, "preToolUse", "twice-call");
    let apart = calls.get(..2).map(|c| scopes::differing(c[0], c[1]));
    c.that(
        apart.as_deref() == Some(&["timestamp".to_string()][..]),
        format!("two calls alike differ by: {apart:?}"),
    );
    // The one call in both shapes: the camelCase timestamp (ms) is the PascalCase one's instant.
    let twins = scopes::alike_calls(&claude, "PreToolUse", "twice-call");
    let stamps: Vec<String> = calls.iter().map(|v| v["timestamp"].to_string()).collect();
    let iso: Vec<String> = twins.iter().map(|v| v["timestamp"].to_string()).collect();
    eprintln!("camel timestamps {stamps:?}, PascalCase timestamps {iso:?}");
    c.that(
        twins.len() == calls.len(),
        format!(
            "the Claude file saw {} of {} calls",
            twins.len(),
            calls.len()
        ),
    );
    let mut both = user.clone();
    both.extend(
        claude
            .iter()
            .map(|(e, v)| (format!("claude-{e}"), v.clone())),
    );
    scopes::record(
        &format!("copilot-{}", client::VERSION),
        "copilot",
        &both,
        &project,
        &[
            (l.sb.project.display().to_string(), "<project>"),
            (l.sb.home.display().to_string(), "<home>"),
        ],
    );
    c.done("both_scopes_get_one_event");
}

/// Attacks row 1323: a team's Gemini `SessionStart` rule with the matcher `startup` (Claude's
/// and Gemini's value for a session that starts afresh), trusted, hookx installed for Copilot.
/// Copilot CLI 1.0.102 starts a `-p` session with `source: "new"`: hookx compared the matcher
/// with that and never ran the rule. It runs once (its payload says `new`, as Copilot sent it),
/// and its context reaches the model.
fn a_startup_rule_runs_when_copilot_starts_a_new_session() {
    let mut c = Checks::default();
    let Some(l) = live_env("synced", |sb| {
        let log = sb.root.join("start.log");
        let rule = format!(
            "cat >> '{}'; echo >> '{}'; echo '{{\"hookSpecificOutput\":{{\"additionalContext\":\"GEMINI-STARTUP-CONTEXT\"}}}}'",
            log.display(),
            log.display()
        );
        let gemini = json!({"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [
            {"type": "command", "command": rule}]}]}});
        sb.write("project/.gemini/settings.json", &gemini.to_string());
        hookx(sb, &["trust", "--yes"]);
        hookx(sb, &["install", "--host", "copilot"]);
        routed_env(sb)
    }) else {
        return;
    };
    let log = std::fs::read_to_string(l.sb.root.join("start.log")).unwrap_or_default();
    let runs: Vec<&str> = log.lines().filter(|l| !l.is_empty()).collect();
    c.that(
        runs.len() == 1 && runs[0].contains(r#""source":"new""#),
        format!("the startup rule ran {} times: {runs:?}", runs.len()),
    );
    let times = l.sent("synced").matches("GEMINI-STARTUP-CONTEXT").count();
    c.that(
        times > 0,
        format!("its context reached the model ({times} times in the requests)"),
    );
    c.done("a_startup_rule_runs_when_copilot_starts_a_new_session");
}

/// Attacks rows 1420-1439, the team's loop under Copilot CLI ([`common::claude_loop`]): a
/// Claude project's own hooks (a Bash guard, a logger after every tool, a Stop hook on
/// `stop_hook_active`, a prompt hook's context) converted to Gemini, Codex and Copilot with
/// `--hookx hookx` (Copilot gets no copy: it reads the Claude file), hookx installed for Copilot
/// in both scopes (the Claude file's handlers in `disabledHooks`), trusted: hookx runs each rule
/// once per event, with Claude's payload; the guard's deny is the call's result, the Stop hook
/// keeps the agent going once, the context reaches the model. Then teammates on the same clone:
/// one without hookx (no `hookx` on `PATH`, no `~/.hookx`), under whom Copilot runs the Claude
/// file itself beside the team's routes, which cannot run: nothing trapped, the guard denies;
/// one with hookx in another folder of their `PATH` who ran `install` (the team's files
/// unchanged) and `trust`. Last, the Claude file edited (a Write guard added), `hookx sync`,
/// `hookx trust`: Copilot would run the new handler itself, with its own payload (where a
/// Write's file is `path`: the guard let the write through, row 1424); trust, which reviews
/// the edit, lists it in `disabledHooks` as the install did, and the guard's deny lands.
fn claude_projects_loop() {
    let bins = tempfile::tempdir().unwrap();
    let mut c = Checks::default();
    let path = common::hookx_on_path(&bins.path().join("alice"));
    let Some(alice) = live_loop(&mut c, "alice", None, &path, |sb| {
        common::claude_loop(&sb.project, &sb.home, "copilot", &path);
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
    // Copilot runs the Claude file itself, with its PascalCase payload: a Write's file is
    // `path`; its Stop hook's exit 2 ends the run with the reason (no request more).
    let log = std::fs::read_to_string(bob.sb.project.join("loop.log")).unwrap_or_default();
    let want = format!(
        "prompt SCENARIO:teamloop\nguard {}\npost Bash {}\nguard {}\npost Write -\nstop false\n",
        common::LOOP_SAFE,
        common::LOOP_SAFE,
        common::LOOP_DENIED
    );
    c.that(
        log == want,
        format!("without: Copilot ran the Claude file: {log}"),
    );
    let denied = bob.tool_result("teamloop", common::LOOP_DENIED);
    c.that(
        denied.contains("Denied by preToolUse hook"),
        format!("without: the guard denied: {denied}"),
    );
    let turns = bob.model.requests_of("teamloop").len();
    c.that(turns == 4, format!("without: {turns} requests, 4 wanted"));
    let path = common::hookx_on_path(&bins.path().join("carol"));
    let Some(carol) = live_loop(&mut c, "elsewhere", from, &path, |sb| {
        let routes = std::fs::read(sb.project.join(".github/hooks/hookx.json")).unwrap();
        let args = ["install", "--host", "copilot", "--hookx", "hookx"];
        common::hookx_at(&sb.project, &sb.home, &args).success();
        let after = std::fs::read(sb.project.join(".github/hooks/hookx.json")).unwrap();
        assert!(routes == after, "install changed the team's routes");
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
    }) else {
        return;
    };
    for (ok, what) in common::loop_ran_once(&carol.sb.project, &posts, prompts) {
        c.that(ok, format!("hookx elsewhere: {what}"));
    }
    run::loop_answers(&mut c, "hookx elsewhere", &carol, 5);
    let path = common::hookx_on_path(&bins.path().join("dave"));
    let mut trusted = String::new();
    let Some(dave) = live_loop(&mut c, "edited", None, &path, |sb| {
        common::claude_loop(&sb.project, &sb.home, "copilot", &path);
        let file = sb.project.join(".claude/settings.json");
        let mut settings: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let guard = "f=$(jq -r '.tool_input.file_path // empty'); \
                     echo \"wguard $f\" >> \"$CLAUDE_PROJECT_DIR/loop.log\"; \
                     case \"$f\" in *notes.txt) echo R-LOOP-WRITE >&2; exit 2;; esac";
        settings["hooks"]["PreToolUse"]
            .as_array_mut()
            .unwrap()
            .push(json!({"matcher": "Write", "hooks": [{"type": "command", "command": guard}]}));
        std::fs::write(&file, settings.to_string()).unwrap();
        let at = |args: &[&str]| {
            common::hookx_clean(&sb.project)
                .env("HOME", &sb.home)
                .env("PATH", &path)
                .args(args)
                .assert()
                .success()
        };
        at(&["sync", "--init", "--to", "gemini,codex,copilot"]);
        at(&["sync"]);
        let out = common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        let out = out.get_output();
        trusted = String::from_utf8_lossy(&[&out.stdout[..], &out.stderr[..]].concat()).into();
    }) else {
        return;
    };
    c.that(
        trusted.contains("listed 1 handler added or edited since `hookx install --host copilot`")
            && !trusted.contains("note: Copilot runs"),
        format!("edited: trust listed the new handler in `disabledHooks`: {trusted}"),
    );
    let wrote = common::loop_runs(&dave.sb.project, "wguard");
    c.that(
        wrote.len() == 1 && wrote[0].ends_with("notes.txt"),
        format!("edited: the new guard once, with Claude's `file_path`: {wrote:?}"),
    );
    let denied = dave.tool_result("teamloop", "loop\\n");
    c.that(
        denied.contains("R-LOOP-WRITE"),
        format!("edited: the new guard's deny is the write's result: {denied}"),
    );
    c.done("teamloop");
}

/// One run of [`claude_projects_loop`]'s story in a fresh sandbox, the client's `PATH` being
/// `path`, the project's hooks on in `-p` (`GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS`): with
/// `clone`, the project's files copied from that project and home first
/// ([`common::loop_clone`]); `setup` then. Its exit is checked.
fn live_loop(
    c: &mut Checks,
    who: &str,
    clone: Option<(&std::path::PathBuf, &std::path::PathBuf)>,
    path: &str,
    setup: impl FnOnce(&Sandbox),
) -> Option<Live> {
    let l = live_env("teamloop", |sb| {
        if let Some((project, home)) = clone {
            common::loop_clone((project, home), (&sb.project, &sb.home));
        }
        setup(sb);
        vec![
            ("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true".into()),
            ("PATH", path.to_string()),
        ]
    })?;
    c.that(
        l.out.status == Some(0),
        format!("{who}: exit {:?}: {}", l.out.status, l.out.stderr),
    );
    Some(l)
}

/// The MCP rows' servers (attacks 1280-1299): names with `_`, `-`, `.` and `__`, each serving
/// `run` and `Bash` (`live_common/mcp_server.js`).
const MCP_SERVERS: &[&str] = &["srv", "my_srv", "x-y", "p.q", "a__b"];

/// The MCP calls the model makes, by the names Copilot CLI offers the tools under.
const MCP_CALLS: &[(&str, &str, &str)] = &[
    ("srv-run", "text", "c-srv-run"),
    ("srv-Bash", "command", "c-srv-bash"),
    ("bash", "command", "echo c-builtin-bash"),
    ("my_srv-run", "text", "c-under-run"),
    ("x-y-run", "text", "c-dash-run"),
    ("a__b-run", "text", "c-double-run"),
];

/// Matchers of Copilot's own, tried on the MCP calls in both casings, and the calls (by their
/// text) each fires on in both (Copilot 1.0.102, run).
const MCP_MATCHERS: &[(&str, &[&str])] = &[
    ("srv-run", &["c-srv-run"]),
    ("srv-.*", &["c-srv-bash", "c-srv-run"]),
    ("mcp__srv__run", &[]),
    ("mcp__.*", &[]),
    ("srv/run", &[]),
    ("bash", &["echo c-builtin-bash"]),
];

/// `--additional-mcp-config` for [`MCP_SERVERS`], each logging the calls that ran to
/// `mcp-ran.log`.
fn mcp_config(sb: &Sandbox) -> String {
    let log = sb.root.join("mcp-ran.log");
    let script = sb.write("mcp_server.js", include_str!("live_common/mcp_server.js"));
    let servers: serde_json::Map<String, Value> = MCP_SERVERS
        .iter()
        .map(|s| {
            let args = json!([script.display().to_string(), s, log.display().to_string()]);
            (
                s.to_string(),
                json!({"type": "local", "command": "node", "args": args, "tools": ["*"]}),
            )
        })
        .collect();
    let file = sb.write("mcp.json", &json!({"mcpServers": servers}).to_string());
    format!("@{}", file.display())
}

/// Attacks rows 1280-1285, live under Copilot CLI 1.0.102 with the MCP server of
/// `live_common/mcp_server.js` (servers `srv`, `my_srv`, `x-y`, `p.q`, `a__b`, each with `run`
/// and `Bash`). Ground truth first (recorded as `mcp.*`): the model is offered `SERVER-TOOL`
/// (`p.q` as `p-q`), `preToolUse`/`PreToolUse` name the call `SERVER-TOOL` in both casings,
/// `permissionRequest` `SERVER/TOOL`, `preMcpToolCall` the server and the tool apart; only the
/// `SERVER-TOOL` matchers of Copilot's own fire. Then hookx routed in (both scopes): the user's
/// Claude rules (which Copilot never reads) on `mcp__srv__run` (a deny), `mcp__srv__.*`,
/// `mcp__.*` and `Bash`, and the project's Gemini deny on `mcp_my_srv_run`: each fires once on
/// each call it names, with its own agent's name for it, and its deny stops the MCP call.
/// Before hookx read `SERVER-TOOL` as Copilot's MCP name, none of the MCP rules fired.
fn mcp_tools_under_copilot() {
    let mut c = Checks::default();
    let Some(mut l) = live_with(
        "mcp",
        |sb| {
            sb.write("home/.copilot/hooks/dump.json", &dump_everything(sb));
            let camel: Vec<Value> = MCP_MATCHERS
                .iter()
                .enumerate()
                .map(|(i, (m, _))| json!({"type": "command", "bash": sb.dumper(&format!("camel{i}")), "matcher": m}))
                .collect();
            let pascal: Vec<Value> = MCP_MATCHERS
                .iter()
                .enumerate()
                .map(|(i, (m, _))| json!({"matcher": m, "hooks": [{"type": "command", "command": sb.dumper(&format!("pascal{i}"))}]}))
                .collect();
            let hooks = json!({"version": 1, "hooks": {"preToolUse": camel, "PreToolUse": pascal}});
            sb.write("home/.copilot/hooks/matchers.json", &hooks.to_string());
            Vec::new()
        },
        |sb| vec!["--additional-mcp-config".into(), mcp_config(sb)],
    ) else {
        return;
    };
    let offered: Vec<String> = l
        .model
        .chats()
        .first()
        .map(|r| {
            r["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|t| t["function"]["name"].as_str())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    c.that(
        [
            "srv-run",
            "srv-Bash",
            "my_srv-run",
            "x-y-run",
            "p-q-run",
            "a__b-run",
        ]
        .iter()
        .all(|n| offered.iter().any(|o| o == n)),
        format!("the MCP tools offered as SERVER-TOOL: {offered:?}"),
    );
    let pre = l.dump("preToolUse", "c-srv-run");
    c.that(
        pre.stdin["toolName"] == "srv-run",
        format!("preToolUse: {}", pre.raw),
    );
    let pascal = l.dump("PreToolUse", "c-srv-run");
    c.that(
        pascal.stdin["tool_name"] == "srv-run",
        format!("PreToolUse: {}", pascal.raw),
    );
    let perm = l.dump("permissionRequest", "c-srv-run");
    c.that(
        perm.stdin["toolName"] == "srv/run",
        format!("permissionRequest: {}", perm.raw),
    );
    let mcp = l.dump("preMcpToolCall", "c-srv-run");
    c.that(
        mcp.stdin["serverName"] == "srv" && mcp.stdin["toolName"] == "run",
        format!("preMcpToolCall: {}", mcp.raw),
    );
    for (i, (m, fires_on)) in MCP_MATCHERS.iter().enumerate() {
        for casing in ["camel", "pascal"] {
            let mut fired: Vec<String> = l
                .dumps
                .iter()
                .filter(|d| d.label == format!("{casing}{i}"))
                .filter_map(|d| {
                    d.stdin["toolArgs"]
                        .get("text")
                        .or(d.stdin["toolArgs"].get("command"))
                        .or(d.stdin["tool_input"].get("text"))
                        .or(d.stdin["tool_input"].get("command"))
                })
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect();
            fired.sort();
            c.that(
                fired == *fires_on,
                format!("{casing} matcher {m:?} fired on {fired:?}, not {fires_on:?}"),
            );
        }
    }
    l.dumps
        .retain(|d| !d.label.starts_with("camel") && !d.label.starts_with("pascal"));
    record::check("mcp", &l);

    let Some(l) = live_with(
        "mcp",
        |sb| {
            let rule = |matcher: &str, label: &str| json!({"matcher": matcher, "hooks": [{"type": "command", "command": sb.dumper(label)}]});
            let claude = json!({"hooks": {"PreToolUse": [
                rule("mcp__srv__run", "c-exact"), rule("mcp__srv__.*", "c-server"),
                rule("mcp__.*", "c-mcp"), rule("Bash", "c-bash"),
                rule("mcp__x-y__.*", "c-dashed")]}});
            sb.write("home/.claude/settings.json", &claude.to_string());
            let gemini = json!({"hooks": {"BeforeTool": [rule("mcp_my_srv_run", "g-exact")]}});
            sb.write("project/.gemini/settings.json", &gemini.to_string());
            sb.answer("c-exact", "a", "", "", "C-EXACT-SAYS-NO", 2);
            sb.answer("g-exact", "a", "", "", "G-EXACT-SAYS-NO", 2);
            hookx(sb, &["install", "--host", "copilot"]);
            hookx(sb, &["install", "--host", "copilot", "--scope", "user"]);
            hookx(sb, &["trust", "--yes"]);
            routed_env(sb)
        },
        |sb| vec!["--additional-mcp-config".into(), mcp_config(sb)],
    ) else {
        return;
    };
    let ran = std::fs::read_to_string(l.sb.root.join("mcp-ran.log")).unwrap_or_default();
    for (label, want) in [
        ("c-exact", vec!["mcp__srv__run"]),
        // Under Copilot a deny stops the hooks after it (`first_deny_stops_the_rest`): the
        // rules after `c-exact` do not run on the call it denied.
        ("c-server", vec!["mcp__srv__Bash"]),
        (
            "c-mcp",
            vec![
                "mcp__a__b__run",
                "mcp__my_srv__run",
                "mcp__srv__Bash",
                "mcp__x__y-run",
            ],
        ),
        ("c-bash", vec!["Bash"]),
        // Attacks row 1591: server `x-y`'s `x-y-run` reaches a rule naming `x-y` (its payload
        // names the first reading, server `x`).
        ("c-dashed", vec!["mcp__x__y-run"]),
        ("g-exact", vec!["mcp_my_srv_run"]),
    ] {
        let mut got: Vec<&str> = l
            .dumps
            .iter()
            .filter(|d| d.label == label)
            .filter_map(|d| d.stdin["tool_name"].as_str())
            .collect();
        got.sort();
        c.that(got == want, format!("{label} ran on {got:?}, not {want:?}"));
    }
    for (call, denied) in [
        ("srv run c-srv-run", true),
        ("srv Bash c-srv-bash", false),
        ("my_srv run c-under-run", true),
        ("a__b run c-double-run", false),
    ] {
        c.that(
            ran.contains(call) != denied,
            format!(
                "the call `{call}` ran: {}, its rule denied: {denied}\n{ran}",
                ran.contains(call)
            ),
        );
    }
    c.that(
        l.tool_result("mcp", "c-srv-run")
            .contains("C-EXACT-SAYS-NO")
            && l.tool_result("mcp", "c-under-run")
                .contains("G-EXACT-SAYS-NO"),
        "each deny's reason reached the model",
    );
    c.done("mcp_tools_under_copilot");
}

/// [`mcp_names::CALLS`] by the names Copilot CLI 1.0.102 offers them under (run).
const MCP_NAME_CALLS: &[&str] = &[
    "srv-run",
    "srv-my-tool",
    "srv-dot-tool",
    "srv-Up_Tool",
    "srv-a__b",
    "srv-sp-ace",
    "srv-xn--t-1ga",
    "x-y-run",
    "p-q-run",
    "a__b-run",
    "Up_Case-run",
    // Punycode, and a name cut at 64 characters, a digit for the second (`Bash` is `…_64_char`).
    "xn--caf-dma-run",
    "s-p-run",
    "a_very_long_server_name_that_goes_well_past_the_limit_of_64_cha2",
];

/// Matchers of Copilot's own on `permissionRequest` (both casings), and the calls (by their
/// index in [`mcp_names::CALLS`]) each fires on (Copilot 1.0.102, run; attacks row 1860).
const PERMISSION_MATCHERS: &[(&str, &[usize])] = &[
    ("srv/run", &[0]),
    ("srv-run", &[]),
    ("srv/.*", &[0, 1, 2, 3, 4, 5, 6]),
    ("srv-.*", &[]),
    ("run", &[]),
    ("mcp__srv__run", &[]),
];

/// `--additional-mcp-config` for [`mcp_names::SERVERS`].
fn mcp_names_config(sb: &Sandbox) -> String {
    let log = sb.root.join("mcp-ran.log");
    let script = sb.write("mcp_server.js", include_str!("live_common/mcp_server.js"));
    let servers = mcp_names::servers(&script, &log, json!({"type": "local", "tools": ["*"]}));
    let file = sb.write("mcp.json", &json!({"mcpServers": servers}).to_string());
    format!("@{}", file.display())
}

/// Attacks rows 1860-1879, live under Copilot CLI 1.0.102: the names each event gives MCP tools
/// whose server or tool holds `-`, `.`, `__`, upper case, a non-ASCII letter, a space, or is
/// long (recorded as `tests/fixtures/mcp-names/copilot-1.0.102.json`), and which of Copilot's
/// own `permissionRequest` matchers fire on an MCP call (row 1860).
fn mcp_names_under_copilot() {
    let mut c = Checks::default();
    let Some(l) = live_with(
        "mcpnames",
        |sb| {
            sb.write("home/.copilot/hooks/dump.json", &dump_everything(sb));
            let camel: Vec<Value> = PERMISSION_MATCHERS
                .iter()
                .enumerate()
                .map(|(i, (m, _))| json!({"type": "command", "bash": sb.dumper(&format!("camel{i}")), "matcher": m}))
                .collect();
            let pascal: Vec<Value> = PERMISSION_MATCHERS
                .iter()
                .enumerate()
                .map(|(i, (m, _))| json!({"matcher": m, "hooks": [{"type": "command", "command": sb.dumper(&format!("pascal{i}"))}]}))
                .collect();
            let hooks = json!({"version": 1, "hooks": {"permissionRequest": camel, "PermissionRequest": pascal}});
            sb.write("home/.copilot/hooks/matchers.json", &hooks.to_string());
            Vec::new()
        },
        |sb| vec!["--additional-mcp-config".into(), mcp_names_config(sb)],
    ) else {
        return;
    };
    let offered: Vec<Value> = l
        .model
        .chats()
        .first()
        .map(|r| {
            r["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|t| t["function"]["name"].as_str())
                .filter(|n| n.contains('-'))
                .map(|n| json!(n))
                .collect()
        })
        .unwrap_or_default();
    let events: Vec<(String, Value)> = l
        .dumps
        .iter()
        .filter(|d| CAMEL.contains(&d.label.as_str()) || PASCAL.contains(&d.label.as_str()))
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    let rec = mcp_names::recording(
        "copilot",
        client::VERSION,
        "copilot -p, --additional-mcp-config (tests/live_copilot.rs mcp_names_under_copilot)",
        Value::Array(offered),
        &events,
        &l.sb.root.join("mcp-ran.log"),
    );
    if let Some(diff) = mcp_names::check(&format!("copilot-{}", client::VERSION), &rec) {
        c.that(false, diff);
    }
    for (i, (m, fires_on)) in PERMISSION_MATCHERS.iter().enumerate() {
        for casing in ["camel", "pascal"] {
            let mut fired: Vec<usize> = l
                .dumps
                .iter()
                .filter(|d| d.label == format!("{casing}{i}"))
                .filter_map(|d| mcp_names::call_of(&d.stdin))
                .collect();
            fired.sort();
            c.that(
                fired == *fires_on,
                format!(
                    "{casing} permissionRequest matcher {m:?} fired on {fired:?}, not {fires_on:?}"
                ),
            );
        }
    }

    // Rows 1594, 1860 and 1862: the user's Claude rules on MCP tools, routed in.
    let Some(l) = live_with(
        "mcpnames",
        |sb| {
            let rule = |matcher: &str, label: &str| json!({"matcher": matcher, "hooks": [{"type": "command", "command": sb.dumper(label)}]});
            // Row 1862: rules naming names Copilot rewrites, as configured.
            let claude = json!({"hooks": {"PermissionRequest": [
                rule("mcp__srv__run", "c-perm"), rule("mcp__x-y__.*", "c-perm-dashed"),
                rule("mcp__p\\.q__run", "c-perm-dotted"), rule("mcp__srv__tö", "c-perm-punycode"),
                rule("mcp__srv__dot\\.tool", "c-perm-dot-tool"),
                // Row 2271: the long server's every tool, which Copilot names `LONG/`.
                rule(&format!("mcp__{}__.*", mcp_names::LONG), "c-perm-long")],
                "PreToolUse": [rule("mcp__café__run", "c-pre-punycode"),
                rule("mcp__s p__run", "c-pre-space"), rule("mcp__srv__dot\\.tool", "c-pre-dot-tool"),
                // Row 2271: a rule on MCP tools by the start of the server's name, which
                // Copilot cuts (`…_64_cha2`).
                rule("mcp__a_very_long.*", "c-pre-long")]}});
            sb.write("home/.claude/settings.json", &claude.to_string());
            sb.answer(
                "c-perm",
                "a",
                "",
                r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"C-PERM-SAYS-NO"}}}"#,
                "",
                0,
            );
            hookx(sb, &["install", "--host", "copilot", "--scope", "user"]);
            hookx(sb, &["trust", "--yes"]);
            routed_env(sb)
        },
        |sb| vec!["--additional-mcp-config".into(), mcp_names_config(sb)],
    ) else {
        return;
    };
    c.failed(mcp_names::ran_otherwise(
        l.dumps.iter().map(|d| (d.label.as_str(), &d.stdin)),
        &[
            ("c-perm", vec!["mcp__srv__run"]),
            ("c-perm-dashed", vec!["mcp__x-y__run"]),
            // As Claude Code 2.1.332 itself names `p.q`'s tool (row 1940).
            ("c-perm-dotted", vec!["mcp__p_q__run"]),
            // Row 1862: Copilot's `srv/xn--t-1ga`, `srv/dot-tool`, `xn--caf-dma-run`,
            // `s-p-run`, `srv-dot-tool`; a name punycode undoes as Claude writes it, one with
            // `-` read with the server ending at the first `-` (row 1591).
            ("c-perm-punycode", vec!["mcp__srv__t_"]),
            ("c-perm-dot-tool", vec!["mcp__srv__dot-tool"]),
            ("c-pre-punycode", vec!["mcp__caf___run"]),
            ("c-pre-space", vec!["mcp__s__p-run"]),
            ("c-pre-dot-tool", vec!["mcp__srv__dot-tool"]),
            // Row 2271: the server's tool it does not name, and Copilot's cut name as it is.
            (
                "c-perm-long",
                vec!["mcp__a_very_long_server_name_that_goes_well_past_the_limit_of_64_chars__"],
            ),
            (
                "c-pre-long",
                vec!["a_very_long_server_name_that_goes_well_past_the_limit_of_64_cha2"],
            ),
        ],
        "",
        &l.out.stderr,
    ));
    let ran = mcp_names::ran(&l.sb.root.join("mcp-ran.log"));
    c.that(
        !ran.contains_key(&0) && ran.contains_key(&7),
        format!("the call c-perm denies did not run, the others did: {ran:?}"),
    );
    c.that(
        l.tool_result("mcpnames", "\"n0\"")
            .contains("C-PERM-SAYS-NO"),
        format!(
            "the deny's reason reached the model: {}",
            l.tool_result("mcpnames", "\"n0\"")
        ),
    );

    // Row 1869: the same Claude rules converted (`convert --to copilot`) into the user's
    // Copilot hooks: written `srv/run` and `x-y/.*` on `permissionRequest`, which Copilot fires.
    let Some(l) = live_with(
        "mcpnames",
        |sb| {
            let rule = |matcher: &str, label: &str| json!({"matcher": matcher, "hooks": [{"type": "command", "command": sb.dumper(label)}]});
            let claude = json!({"hooks": {"PermissionRequest": [
                rule("mcp__srv__run", "v-perm"), rule("mcp__x-y__.*", "v-perm-dashed")]}});
            let from = sb.write("src/.claude/settings.json", &claude.to_string());
            sb.answer(
                "v-perm",
                "a",
                "",
                r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"V-PERM-SAYS-NO"}}}"#,
                "",
                0,
            );
            let to = sb.home.join(".copilot/hooks/converted.json");
            common::hookx()
                .args(["convert", from.to_str().unwrap(), "--to", "copilot"])
                .args(["--out", to.to_str().unwrap()])
                .assert()
                .success();
            // The wrapped commands name `hookx`: the run finds this build first on PATH.
            let bin = std::path::Path::new(env!("CARGO_BIN_EXE_hookx"))
                .parent()
                .unwrap()
                .display()
                .to_string();
            let path = format!("{bin}:{}", std::env::var("PATH").unwrap_or_default());
            vec![("PATH", path)]
        },
        |sb| vec!["--additional-mcp-config".into(), mcp_names_config(sb)],
    ) else {
        return;
    };
    c.failed(mcp_names::ran_otherwise(
        l.dumps.iter().map(|d| (d.label.as_str(), &d.stdin)),
        &[
            ("v-perm", vec!["mcp__srv__run"]),
            ("v-perm-dashed", vec!["mcp__x-y__run"]),
        ],
        "",
        &l.out.stderr,
    ));
    let ran = mcp_names::ran(&l.sb.root.join("mcp-ran.log"));
    c.that(
        !ran.contains_key(&0) && ran.contains_key(&7),
        format!("the call v-perm denies did not run, the others did: {ran:?}"),
    );
    c.done("mcp_names_under_copilot");
}

/// Attacks row 1474, ground truth: Copilot CLI's own hooks that exit at once and leave children
/// behind (`live_claude::handlers_that_leave_children_behind`'s shape): at `sessionStart` a
/// dev server sent to `/dev/null` (`kept`), a child holding the hook's stdout 8 s without a word
/// (`held`), a child writing to it every 0.2 s for 15 s (`talk`); at `preToolUse` a deny
/// printed before a `sleep 5 &` holds the pipe (`A-DENY`); `userPromptSubmitted`, `preToolUse`
/// and `agentStop` stamp when Copilot went on. Checked: the deny honoured, the server kept,
/// and Copilot waiting for `held` (which stamps its end) before the tool event.
fn ground_truth_leftovers() {
    let mut dump = std::path::PathBuf::new();
    let Some(l) = live(
        "leftovers",
        |sb| {
            dump = sb.root.join("left");
            std::fs::create_dir_all(&dump).unwrap();
            let d = dump.display();
            let stamp = |w: &str| Stamps::command(&dump.join("times"), w);
            let kept = format!("sleep 300 </dev/null >/dev/null 2>&1 & echo $! > '{d}/kept.pid'");
            let held = format!(
                "{}; (sleep 8; {}) & echo $! > '{d}/held.pid'",
                stamp("start"),
                stamp("held-end")
            );
            let talk = format!(
                "(i=0; while [ $i -lt 75 ]; do echo tick; i=$((i+1)); sleep 0.2; done) & \
                 echo $! > '{d}/talk.pid'"
            );
            let a = r#"printf '%s' '{"permissionDecision":"deny","permissionDecisionReason":"A-DENY"}'; sleep 5 & exit 0"#;
            let a = format!("{}; {a}", stamp("tool"));
            let talks = format!(
                "for w in talk held; do kill -0 $(cat '{d}/$w.pid') && echo \"$w yes\" \
                 || echo \"$w no\"; done > '{d}/talked'"
            );
            let cmd = |c: &str| json!({"type": "command", "bash": c, "timeoutSec": 10});
            let hooks = json!({"version": 1, "hooks": {
                "sessionStart": [cmd(&kept), cmd(&held), cmd(&talk)],
                "userPromptSubmitted": [cmd(&stamp("prompt"))],
                "preToolUse": [cmd(&a)],
                "agentStop": [cmd(&format!("{}; {talks}", stamp("stop")))],
            }});
            sb.write("home/.copilot/hooks/left.json", &hooks.to_string());
        },
        &[],
    ) else {
        return;
    };
    let read = |f: &str| std::fs::read_to_string(dump.join(f)).unwrap_or_default();
    let stamps = Stamps::read(&dump.join("times"));
    let denied = l
        .tool_result("leftovers", "leftover-call")
        .contains("A-DENY");
    let kept = pid_runs(&dump.join("kept.pid"));
    eprintln!(
        "leftovers, Copilot's own hooks: ms from sessionStart to the prompt {:?}, to the \
         tool event {:?}, to agentStop {:?}; the writing and the silent child ran at \
         agentStop: {:?}; after the run the held child runs: {}",
        stamps.ms("start", "prompt"),
        stamps.ms("start", "tool"),
        stamps.ms("start", "stop"),
        read("talked").replace('\n', ", "),
        pid_runs(&dump.join("held.pid")),
    );
    kill_left(&dump, &["kept.pid", "held.pid", "talk.pid"]);
    let mut c = Checks::default();
    c.that(denied, "the deny printed before a leftover was honoured");
    c.that(kept, "the dev server sent away outlived the run");
    c.that(
        stamps.before("held-end", "tool"),
        "Copilot went on to the tool only once the silent leftover let its pipe go",
    );
    c.done("leftovers");
}

/// Attacks rows 1494, 1495, ground truth: what a `preToolUse` hook's own answer does under
/// Copilot CLI 1.0.102's permission options (`-p`, hookx out of the loop), one shell call
/// (`printf once > once.txt`) per run: (options, answer) → the call ran (the hook ran in each).
/// A deny holds and an ask is refused under every option; an allow runs the call without
/// `--allow-all-tools` and past `--deny-tool shell`. (`--allow-tool shell` alone did not run
/// the call, and `--deny-tool 'shell(printf)'` answered as `--deny-tool shell`: by hand.)
const COPILOT_MODES: &[(&str, &str, bool)] = &[
    ("allow-all", "none", true),
    ("allow-all", "deny", false),
    ("allow-all", "ask", false),
    ("allow-all", "allow", true),
    ("no-allow-all", "none", false),
    ("no-allow-all", "ask", false),
    ("no-allow-all", "allow", true),
    ("deny-tool", "none", false),
    ("deny-tool", "deny", false),
    ("deny-tool", "ask", false),
    ("deny-tool", "allow", true),
];

/// Copilot's options for a mode of [`COPILOT_MODES`].
fn copilot_mode(mode: &str) -> Vec<String> {
    let options: &[&str] = match mode {
        "allow-all" => &[],
        "no-allow-all" => &[client::WITHOUT_ALLOW_ALL],
        "deny-tool" => &["--deny-tool", "shell"],
        other => panic!("no mode {other}"),
    };
    options.iter().map(|o| o.to_string()).collect()
}

fn permission_modes_and_a_hooks_answer() {
    let mut c = Checks::default();
    for (mode, answer, runs) in COPILOT_MODES {
        let stdout = match *answer {
            "none" => String::new(),
            d => json!({"permissionDecision": d, "permissionDecisionReason": format!("R-{d}")})
                .to_string(),
        };
        let Some(l) = live_with(
            "modes",
            |sb| {
                let log = sb.root.join("hook.log");
                let cmd = format!(
                    "cat >/dev/null; echo ran >> '{}'; printf '%s' '{stdout}'",
                    log.display()
                );
                sb.write(
                    "home/.copilot/hooks/g.json",
                    &json!({"version": 1, "hooks": {"preToolUse": [
                        {"type": "command", "bash": cmd}]}})
                    .to_string(),
                );
                Vec::new()
            },
            |_| copilot_mode(mode),
        ) else {
            return;
        };
        let ran = l.sb.project.join("once.txt").exists();
        let hook = l.sb.root.join("hook.log").exists();
        c.that(
            ran == *runs && hook,
            format!("{mode} {answer}: ran {ran} (pinned {runs}), the hook ran {hook}"),
        );
    }
    c.done("modes");
}

/// Attacks row 1494: the user's trusted guards of other agents answer `allow`, hookx's Copilot
/// route runs them, and Copilot was started with `--deny-tool shell`: a Gemini guard's
/// `decision: allow` (which Gemini's approval policy outranks) and a Claude guard's
/// `permissionDecision: allow` (which Claude's deny rules outrank). The shell call must stay
/// refused; with `--allow-all-tools` alone it runs (the control: the allow left to Copilot).
fn a_foreign_allow_does_not_pass_copilots_deny_tool() {
    let mut c = Checks::default();
    let gemini = json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
        {"type": "command", "command": "cat >/dev/null; echo '{\"decision\":\"allow\"}'"}]}]}});
    let claude = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'"}]}]}});
    for (who, file, rules, mode, runs) in [
        (
            "gemini",
            "home/.gemini/settings.json",
            &gemini,
            "deny-tool",
            false,
        ),
        (
            "claude",
            "home/.claude/settings.json",
            &claude,
            "deny-tool",
            false,
        ),
        (
            "gemini",
            "home/.gemini/settings.json",
            &gemini,
            "allow-all",
            true,
        ),
    ] {
        let Some(l) = live_with(
            "modes",
            |sb| {
                sb.write(file, &rules.to_string());
                hookx(sb, &["trust", "--yes"]);
                hookx(sb, &["install", "--host", "copilot", "--scope", "user"]);
                routed_env(sb)
            },
            |_| copilot_mode(mode),
        ) else {
            return;
        };
        let ran = l.sb.project.join("once.txt").exists();
        c.that(
            ran == runs,
            format!("{who}'s allow, {mode}: the call ran {ran}, expected {runs}"),
        );
    }
    c.done("modes");
}

/// Attacks row 2000 (row 1827, [`in_background`]): the same handler as a Qwen `async: true`
/// handler in the project's trusted `.qwen/settings.json` (Copilot runs a project's Claude file
/// itself, a Qwen file never), routed by `hookx install --host copilot`, under Copilot CLI
/// 1.0.102, one shell call. Before, the route skipped it: it never ran.
fn a_routed_async_handler_runs_in_the_background() {
    let Some(l) = live_env("async", |sb| {
        common::write(
            &sb.project,
            ".qwen/settings.json",
            &in_background::qwen_source().to_string(),
        );
        hookx(sb, &["trust", "--yes"]);
        hookx(sb, &["install", "--host", "copilot"]);
        routed_env(sb)
    }) else {
        return;
    };
    let mut c = Checks::default();
    let result = l.tool_result("async", "async-call");
    c.failed(in_background::failures(&l.sb.project, &result));
    c.done("async");
}

/// Attacks row 2009 ([`in_background`]): the Claude `async: true` handler in the project's
/// own `.claude/settings.json`, which Copilot CLI 1.0.102 runs itself (no hookx), one shell
/// call. Copilot ignores `async`: it waits for the handler, and its deny stops the call, where
/// Claude runs the call at once and ignores the deny. The client's own; hookx's route stands
/// aside for a file Copilot runs itself. The checks are what Copilot did.
fn a_claude_async_handler_copilot_runs_itself() {
    let Some(l) = live_env("async", |sb| {
        common::write(
            &sb.project,
            ".claude/settings.json",
            &in_background::claude_source().to_string(),
        );
        vec![("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true".into())]
    }) else {
        return;
    };
    let result = l.tool_result("async", "async-call");
    let failed = in_background::failures(&l.sb.project, &result);
    eprintln!("row 2009: result {result}; otherwise than under Claude: {failed:?}");
    let mut c = Checks::default();
    c.that(
        result.contains(in_background::REASON)
            && !l.sb.project.join(in_background::CALLED).exists(),
        format!("Copilot no longer runs the async handler in the foreground (row 2009): {result}"),
    );
    c.done("async");
}

/// Attacks rows 1762, 1820 ([`in_background`]): a Claude `async: true` guard converted to
/// Copilot (`.github/hooks/async.json`), under Copilot CLI 1.0.102, one shell call.
fn a_converted_async_handler_runs_in_the_background() {
    let Some(l) = live_env("async", |sb| {
        let converted = in_background::converted(&sb.root.join("src"), "copilot");
        common::write(
            &sb.project,
            ".github/hooks/async.json",
            &converted.to_string(),
        );
        vec![("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true".into())]
    }) else {
        return;
    };
    let mut c = Checks::default();
    let result = l.tool_result("async", "async-call");
    c.failed(in_background::failures(&l.sb.project, &result));
    c.done("async");
}

/// Attacks rows 1880-1899 (row 1766 of the twenty-sixth pass), live under Copilot CLI
/// 1.0.102: real configs of other agents (`converted::SAMPLE`), each handler a recorder,
/// written into the project's `.github/hooks/hooks.json` by `convert --write`, run through the
/// matcher probe's session (a bash call, a create, an edit, a view, the end). Each rule runs as
/// often, on the same events and tools, with a payload of the same keys, as hookx's own reading
/// of the source files under Copilot (`converted::judge`).
fn converted_corpus_configs() {
    let mut done = None;
    let Some(l) = live(
        "mxprobe",
        |sb| {
            let sample = converted::convert_sample(
                "copilot",
                &sb.project,
                &sb.home,
                &sb.root,
                env!("CARGO_BIN_EXE_hookx"),
                &|label| sb.dumper(label),
            );
            converted::add_catch_all(&sb.project.join(".github/hooks/hooks.json"), &|e| {
                sb.dumper(&format!("all-{e}"))
            });
            done = Some(sample);
            // Copilot reads a repository's hooks only in a folder the user trusted (and hookx's
            // reading knows it): trusted here, as a user would once.
            sb.write(
                "home/.copilot/config.json",
                &json!({"trusted_folders": [sb.project.display().to_string()]}).to_string(),
            );
        },
        &[],
    ) else {
        return;
    };
    let done = done.unwrap();
    let mut c = Checks::default();
    // Nothing the converted rules answer stops the session: a rule whose folder is not on this
    // machine cannot start, which no agent reads as a block (row 1760).
    c.that(
        l.sb.project.join("notes.txt").exists() && l.out.stdout.contains("matchers done"),
        format!(
            "the session's create ran and it ended (no converted rule blocked the prompt or a call): {}",
            l.out.stdout
        ),
    );
    let dumps: Vec<(String, Value)> = l
        .dumps
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    let target = l.sb.project.join(".github/hooks/hooks.json");
    for d in converted::judge(&l.sb.project, &l.sb.home, "copilot", &target, &done, &dumps) {
        c.that(false, d);
    }
    c.done("converted");
}

/// Attacks rows 1840-1859, ground truth: the recorder on every event in both casings, and four
/// calls that fail: a command's exit 1 (with stderr), a command that cannot start, a `view` of
/// a missing file, an `edit` whose text is not in the file. Which post events fire after each
/// (hookx's `failed_call` for Copilot: its own failure event, with `error`); recorded as
/// `failed.*`.
fn failed_calls_as_copilot_fires_them() {
    let Some(l) = live(
        "failed",
        |sb| {
            sb.write("home/.copilot/hooks/dump.json", &dump_everything(sb));
            sb.write("project/notes.txt", "one\n");
        },
        &[],
    ) else {
        return;
    };
    let posts: Vec<(String, Value, Value, Value)> = l
        .dumps
        .iter()
        .filter(|d| d.label.to_lowercase().starts_with("posttooluse"))
        .map(|d| {
            let name = match d.stdin.get("toolName") {
                Some(n) => n.clone(),
                None => d.stdin["tool_name"].clone(),
            };
            let result = match d.stdin.get("toolResult") {
                Some(r) => r["resultType"].clone(),
                None => Value::Null,
            };
            (d.label.clone(), name, d.stdin["error"].clone(), result)
        })
        .collect();
    eprintln!(
        "copilot {} after four failed calls: {posts:#?}",
        client::VERSION
    );
    // Observed 1.0.102, in both casings: a command's exit 1 or 127 is a success
    // (`resultType: "success"`, the exit code in the text only); the failed view and edit
    // fire the failure event with `error`, and no postToolUse.
    // PascalCase names `view` `Read`.
    let of = |tool: &str| -> Vec<&str> {
        let names: &[&str] = match tool {
            "view" => &["view", "Read"],
            _ => &[tool],
        };
        posts
            .iter()
            .filter(|p| {
                p.1.as_str()
                    .is_some_and(|t| names.iter().any(|n| t.eq_ignore_ascii_case(n)))
            })
            .map(|p| p.0.as_str())
            .collect()
    };
    let mut c = Checks::default();
    c.that(
        of("bash") == ["postToolUse", "PostToolUse", "postToolUse", "PostToolUse"],
        format!("each command a success: {posts:?}"),
    );
    for tool in ["view", "edit"] {
        c.that(
            of(tool) == ["postToolUseFailure", "PostToolUseFailure"],
            format!("{tool}: the failure event only: {posts:?}"),
        );
    }
    record::check("failed", &l);
    c.done("failed");
}

/// Attacks row 2200 (row 2043's PascalCase probe, in camelCase): two of the user's
/// `preToolUse` hooks, the first rewriting the model's call by `modifiedArgs`, the second a
/// recorder. Copilot CLI gives the second the call as the first rewrote it, and runs the
/// rewrite; `simulate --host copilot` of the same file says the second is given it.
fn camel_hooks_get_the_call_an_earlier_one_rewrote() {
    let rewrite =
        r#"{"permissionDecision":"allow","modifiedArgs":{"command":"printf x > r-chain-a.txt"}}"#;
    let hooks = |sb: &Sandbox| {
        let label = |l: &str| json!({"type": "command", "bash": sb.dumper(l)});
        json!({"version": 1, "hooks": {"preToolUse": [label("ca"), label("cb")]}})
    };
    let Some(l) = live(
        "rwchain",
        |sb| {
            sb.write("home/.copilot/hooks/chain.json", &hooks(sb).to_string());
            sb.answer("ca", "a", "o-chain.txt", rewrite, "", 0);
        },
        &[],
    ) else {
        return;
    };
    let mut c = Checks::default();
    let seen: Vec<&str> = (l.dumps.iter())
        .filter(|d| d.label == "cb")
        .map(|d| d.raw.as_str())
        .collect();
    c.that(
        seen.len() == 1 && seen[0].contains("r-chain-a.txt") && !seen[0].contains("o-chain.txt"),
        format!("the second hook was given the first one's rewrite: {seen:?}"),
    );
    c.that(
        l.sb.project.join("r-chain-a.txt").exists() && !l.sb.project.join("o-chain.txt").exists(),
        "the rewrite ran, not the model's call",
    );
    // simulate, over the same file with the same recorders (their answers as recorded).
    let input = r#"{"command":"printf x > o-chain.txt","description":"d"}"#;
    let call = common::call_args(
        "copilot",
        "preToolUse",
        "bash",
        input,
        &["--format", "json"],
    );
    let out = common::hookx_at(
        &l.sb.project,
        &l.sb.home,
        &[&["simulate"], &call[..]].concat(),
    )
    .get_output()
    .stdout
    .clone();
    let report: Value = serde_json::from_slice(&out).unwrap_or_default();
    let given: Vec<String> = (report["native"]["runs"].as_array().into_iter().flatten())
        .filter(|r| r["command"].as_str().is_some_and(|c| c.ends_with(" cb")))
        .map(|r| r["stdin"].to_string())
        .collect();
    c.that(
        given.len() == 1 && given[0].contains("r-chain-a.txt"),
        format!("simulate gives the second hook the rewrite: {given:?} (report {report})"),
    );
    c.that(
        report["taken"]["updated_input"]["command"] == "printf x > r-chain-a.txt",
        format!("simulate runs the rewrite: {}", report["taken"]),
    );
    c.done("rwchain");
}
