//! The live conformance suite for Codex CLI 0.171.0: the real client (`codex exec`), driven
//! offline through a fake Responses API server, with recording hooks registered natively and
//! trusted by hash the way Codex's `/hooks` review trusts them (never with its trust bypass).
//! See conformance/README.md and conformance/codex-facts.md.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[path = "live_common/answers.rs"]
mod answers;
#[path = "live_common/cadence.rs"]
mod cadence;
#[path = "live_codex/client.rs"]
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
#[path = "live_codex/server.rs"]
mod server;

use client::{HookFile, Sandbox};
use run::{Checks, Run};
use serde_json::{Value, json};
use server::{Call, FakeModel, Step};

/// Every hook event of Codex CLI 0.171.0 (the app-server protocol's `HookEventName`).
const EVENTS: &[&str] = &[
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreModelRequest",
    "PostModelRequest",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "Interrupt",
];

fn shell(cmd: &str) -> Step {
    Step::Calls(vec![Call::Function("exec_command", json!({"cmd": cmd}))])
}

fn spawn(message: &str, task_name: &str) -> Step {
    Step::Calls(vec![Call::Namespaced(
        "collaboration",
        "spawn_agent",
        json!({"fork_turns": "none", "message": message, "task_name": task_name}),
    )])
}

fn patch(body: &str) -> Step {
    Step::Calls(vec![Call::Custom(
        "apply_patch",
        format!("*** Begin Patch\n{body}*** End Patch\n"),
    )])
}

fn scripts(name: &str, project: &str) -> Vec<Step> {
    if let Some((calls, done)) = form_probe::calls(name, probe_forms(), alone) {
        return calls
            .iter()
            .map(|c| shell(c))
            .chain([Step::Text(done)])
            .collect();
    }
    if name == "merge" {
        let calls = merge_probe::claude_cases("c").into_iter();
        let calls = calls.map(|c| shell(&format!("printf x > o-{}.txt", c.name)));
        return calls.chain([Step::Text("merge done")]).collect();
    }
    match name {
        "mcpnames" => mcp_name_steps(),
        "mcp" => mcp_calls()
            .into_iter()
            .map(|c| Step::Calls(vec![c]))
            .chain([Step::Text("mcp done")])
            .collect(),
        "subfolder" => vec![shell("echo sub-call"), Step::Text("subfolder done")],
        // Attacks rows 2010, 2013, 2069 ([`in_background`]).
        "async" => vec![
            shell(&in_background::call(project)),
            Step::Text("async done"),
        ],
        // Attacks rows 1840-1859: four calls that fail, each its own way (Codex reads files
        // with a command, and has `view_image`).
        "failed" => vec![
            shell("echo FAIL-OUT-1840; echo FAIL-ERR-1840 >&2; exit 1"),
            shell("/nonexistent-1840/cannot-start"),
            Step::Calls(vec![Call::Function(
                "view_image",
                json!({"path": format!("{project}/missing-1840.png")}),
            )]),
            patch("*** Update File: notes.txt\n@@\n-absent-1840\n+new-1840\n"),
            Step::Text("failed done"),
        ],
        // Three calls and the answer; the resumed run's follow-up prompt (three tool outputs
        // already in its history) gets the answer again.
        "cadence" => vec![
            shell("echo cadence-one"),
            shell("echo cadence-two"),
            patch("*** Add File: notes.txt\n+one\n"),
            Step::Text("cadence done"),
        ],
        "modes" => CODEX_MODE_CALLS
            .iter()
            .map(|n| shell(&format!("printf 'ran-%s\\n' {n}")))
            .chain([Step::Text("modes done")])
            .collect(),
        "twice" => vec![
            shell("echo twice-call"),
            shell("echo twice-call"),
            Step::Text("twice done"),
        ],
        "team" => vec![shell(common::STORY_DENIED), Step::Text("team done")],
        "teamloop" => vec![
            shell(common::LOOP_SAFE),
            shell(common::LOOP_DENIED),
            patch("*** Add File: notes.txt\n+loop\n"),
            Step::Text("loop done"),
            Step::Text("loop done again"),
        ],
        "teamallowed" => vec![shell("echo team-allowed"), Step::Text("team done")],
        "story" => vec![
            shell("echo story-bash"),
            patch("*** Add File: notes.txt\n+story\n"),
            Step::Text("story done"),
        ],
        "tools" => vec![
            shell("echo hello-shell"),
            patch("*** Add File: notes.txt\n+one\n"),
            patch("*** Update File: notes.txt\n@@\n-one\n+two\n"),
            shell("cat missing.txt"),
            Step::Calls(vec![Call::Function(
                "view_image",
                json!({"path": format!("{project}/missing.png")}),
            )]),
            Step::Text("all done"),
        ],
        "deny" => {
            let mut steps: Vec<Step> = DENY_CASES.iter().map(|(c, ..)| shell(c)).collect();
            steps.push(patch("*** Add File: denied.txt\n+no\n"));
            steps.push(Step::Text("deny done"));
            steps
        }
        "compact" => vec![
            shell("seq 1 3000"),
            shell("seq 1 3000"),
            shell("echo after-compact"),
            Step::Text("compact done"),
        ],
        "permission" => vec![
            Step::Calls(vec![Call::Function(
                "exec_command",
                json!({"cmd": "echo escalate-allowed", "sandbox_permissions": "require_escalated",
                    "justification": "J-ALLOW"}),
            )]),
            Step::Calls(vec![Call::Function(
                "exec_command",
                json!({"cmd": "echo escalate-denied", "sandbox_permissions": "require_escalated",
                    "justification": "J-DENY"}),
            )]),
            Step::Text("permission done"),
        ],
        "agents" => vec![
            Step::Calls(vec![Call::Namespaced(
                "collaboration",
                "spawn_agent",
                json!({"fork_turns": "none", "message": "run one command",
                    "task_name": "helper"}),
            )]),
            Step::Calls(vec![Call::Namespaced(
                "collaboration",
                "wait_agent",
                json!({"timeout_ms": 10000}),
            )]),
            Step::Text("agents done"),
        ],
        "agentguard" => vec![
            spawn("deny-me run one command", "blocked"),
            spawn("SCENARIO:agentsub run one command", "helper"),
            Step::Calls(vec![Call::Namespaced(
                "collaboration",
                "wait_agent",
                json!({"timeout_ms": 10000}),
            )]),
            Step::Text("agentguard done"),
        ],
        "agentsub" => vec![shell("echo sub-guarded"), Step::Text("sub done")],
        "mxprobe" => vec![
            shell("echo matcher-probe"),
            patch("*** Add File: notes.txt\n+one\n"),
            patch("*** Update File: notes.txt\n@@\n-one\n+two\n"),
            Step::Text("matchers done"),
        ],
        "matchers" => vec![
            shell("echo match-shell"),
            patch("*** Add File: matched.txt\n+m\n"),
            Step::Text("matchers done"),
        ],
        "rewrite" => {
            let mut steps: Vec<Step> = rewrite_cases().iter().map(|c| shell(c.cmd)).collect();
            steps.push(patch("*** Add File: rw-original.txt\n+original\n"));
            steps.push(Step::Text("rewrite done"));
            steps
        }
        "rewrite-permission" => vec![
            Step::Calls(vec![Call::Function(
                "exec_command",
                json!({"cmd": "echo rw-permission", "sandbox_permissions": "require_escalated",
                    "justification": "J-RW"}),
            )]),
            Step::Calls(vec![Call::Function(
                "exec_command",
                json!({"cmd": "echo rw-escalate", "sandbox_permissions": "require_escalated",
                    "justification": "J-RW-ESCALATE"}),
            )]),
            Step::Text("rewrite-permission done"),
        ],
        "routed-rewrite" => vec![
            shell("echo rw-claude"),
            shell("echo rw-copilot"),
            shell("echo rw-codex"),
            patch("*** Add File: rw-claude.txt\n+original\n"),
            Step::Text("routed-rewrite done"),
        ],
        // Attacks row 1061: one patch of two files, one of them guarded.
        "twofiles" => vec![
            patch("*** Add File: notes.txt\n+hi\n*** Add File: .env\n+SECRET=1\n"),
            Step::Text("twofiles done"),
        ],
        // Attacks row 1062: a patch of two hunks of one guarded file.
        "twohunks" => vec![
            patch("*** Update File: .env\n@@\n-A=1\n+A=2\n@@\n-B=1\n+B=2\n"),
            Step::Text("twohunks done"),
        ],
        "untrusted" => vec![shell("echo untrusted-probe"), Step::Text("done")],
        "blocks" => vec![shell("echo post-block"), Step::Text("blocks done")],
        "interrupt" => vec![shell("sleep 30"), Step::Text("interrupt done")],
        "sessionend" => vec![Step::Text("sessionend done")],
        "faults" => faults::commands()
            .iter()
            .map(|c| shell(c))
            .chain([Step::Text("faults done")])
            .collect(),
        "routed" => vec![
            shell("echo claude-deny"),
            shell("echo routed-ok"),
            shell("echo claude-bare-deny"),
            patch("*** Add File: routed.txt\n+routed\n"),
            patch("*** Update File: routed.txt\n@@\n-routed\n+changed\n"),
            Step::Text("routed done"),
        ],
        "loop" => vec![Step::Text("loop done")],
        "blockloop" => vec![Step::Text("blockloop done")],
        "blockonce" => vec![Step::Text("blockonce done")],
        _ => vec![Step::Text("unknown scenario")],
    }
}

/// PreToolUse answers and what happened to the shell call `echo NAME`:
/// (command, hook stdout, hook stderr, exit code, expected).
const DENY_CASES: &[(&str, &str, &str, i32, Expect)] = &[
    (
        "echo deny-json",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-DENY"}}"#,
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
    ("echo plain0", "PLAIN-TEXT", "", 0, Expect::Ran),
    (
        "echo malformed",
        r#"{"hookSpecificOutput": "#,
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo allow-json",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo ask-json",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"R-ASK"}}"#,
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo rewrite",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten-cmd"}}}"#,
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo context",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"CTX-PRE"}}"#,
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo continue-false",
        r#"{"continue":false,"stopReason":"R-STOP"}"#,
        "",
        0,
        Expect::Ran,
    ),
    // The user's handler allows, the project's denies: any deny wins.
    (
        "echo merge",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#,
        "",
        0,
        Expect::Blocked("R-MERGE-DENY"),
    ),
    // Attacks row 826: answers recorded as Codex 0.171.0 read them
    // (`tests/fixtures/real/codex-0.171.0/`): stdout alone, whole, strictly (no byte order
    // mark, no lone surrogate, a `continue` of the wrong type refuses the answer), the last of
    // duplicate keys, no event name checked.
    (
        "echo cx-stderr-deny",
        "",
        include_str!("fixtures/real/codex-0.171.0/deny-on-stderr.err"),
        0,
        Expect::Ran,
    ),
    (
        "echo cx-string-deny",
        include_str!("fixtures/real/codex-0.171.0/deny-in-a-json-string.out"),
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo cx-bom-deny",
        include_str!("fixtures/real/codex-0.171.0/deny-after-a-byte-order-mark.out"),
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo cx-log-then-deny",
        include_str!("fixtures/real/codex-0.171.0/deny-after-a-log-line.out"),
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo cx-other-event",
        include_str!("fixtures/real/codex-0.171.0/deny-naming-another-event.out"),
        "",
        0,
        Expect::Blocked("R-CX-OTHER"),
    ),
    (
        "echo cx-string-continue",
        include_str!("fixtures/real/codex-0.171.0/deny-beside-a-string-continue.out"),
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo cx-dup-deny-last",
        include_str!("fixtures/real/codex-0.171.0/deny-after-a-duplicate-allow.out"),
        "",
        0,
        Expect::Blocked("R-CX-DUP"),
    ),
    (
        "echo cx-half-emoji",
        include_str!("fixtures/real/codex-0.171.0/deny-with-half-an-emoji.out"),
        "",
        0,
        Expect::Ran,
    ),
    (
        "echo cx-deny-then-allow",
        include_str!("fixtures/real/codex-0.171.0/deny-then-an-allow.out"),
        "",
        0,
        Expect::Ran,
    ),
    // Answered by the `timeout` handler (1 s) only after 4 s.
    ("echo timeout", "", "", 0, Expect::Ran),
];

#[derive(Clone, Copy, Debug)]
enum Expect {
    /// The tool ran.
    Ran,
    /// The tool did not run; the model got the reason back.
    Blocked(&'static str),
}

/// What Codex did with a call whose PreToolUse handler answered with an `updatedInput`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Became {
    /// The original command ran.
    Original,
    /// The command of `updatedInput` ran instead.
    Rewritten,
    /// Nothing ran; the model got this reason back.
    Blocked(&'static str),
}

/// One answer form of a PreToolUse handler that rewrites the shell call `echo rw-NAME` to
/// `echo rewritten-NAME`.
struct RewriteCase {
    cmd: &'static str,
    stdout: String,
    stderr: &'static str,
    exit: i32,
    /// What Codex CLI 0.171.0 did (run).
    became: Became,
}

/// `hookSpecificOutput` of a PreToolUse answer with `fields`.
fn pre_answer(fields: Value) -> String {
    let mut hso = json!({"hookEventName": "PreToolUse"});
    hso.as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    json!({ "hookSpecificOutput": hso }).to_string()
}

/// Every answer form of the `updatedInput` row: with `permissionDecision` allow, none, deny and
/// ask; the allow answer at exit 0, 1 and 2; the legacy `decision: "approve"`; an input without
/// the `command` string. Codex CLI 0.171.0 (run) runs the rewrite only beside `allow` at exit 0.
/// Any other decision (none, `ask`, `approve`, even `deny`) makes it refuse the whole answer and
/// run the original; so does a deny without a reason. Exit 2 blocks with stderr as the reason,
/// and runs the original when stderr is empty; exit 1 runs it. An input without a `command`
/// string fails the call, the error going to the model.
fn rewrite_cases() -> Vec<RewriteCase> {
    let to = |name: &str| json!({"command": format!("echo rewritten-{name}")});
    let allow =
        |name: &str| pre_answer(json!({"permissionDecision": "allow", "updatedInput": to(name)}));
    let case = |cmd, stdout, stderr, exit, became| RewriteCase {
        cmd,
        stdout,
        stderr,
        exit,
        became,
    };
    vec![
        case("echo rw-allow", allow("allow"), "", 0, Became::Rewritten),
        case(
            "echo rw-reason",
            pre_answer(json!({"permissionDecision": "allow",
                "permissionDecisionReason": "R-RW-REASON", "updatedInput": to("reason")})),
            "",
            0,
            Became::Rewritten,
        ),
        case(
            "echo rw-none",
            pre_answer(json!({"updatedInput": to("none")})),
            "",
            0,
            Became::Original,
        ),
        case(
            "echo rw-deny",
            pre_answer(json!({"permissionDecision": "deny",
                "permissionDecisionReason": "R-RW-DENY", "updatedInput": to("deny")})),
            "",
            0,
            Became::Original,
        ),
        case(
            "echo rw-ask",
            pre_answer(json!({"permissionDecision": "ask",
                "permissionDecisionReason": "R-RW-ASK", "updatedInput": to("ask")})),
            "",
            0,
            Became::Original,
        ),
        case(
            "echo rw-exit2",
            allow("exit2"),
            "E-RW-EXIT2",
            2,
            Became::Blocked("E-RW-EXIT2"),
        ),
        case("echo rw-quiet2", allow("quiet2"), "", 2, Became::Original),
        case(
            "echo rw-exit1",
            allow("exit1"),
            "E-RW-EXIT1",
            1,
            Became::Original,
        ),
        case(
            "echo rw-approve",
            json!({"decision": "approve", "hookSpecificOutput": {"hookEventName": "PreToolUse",
                "updatedInput": to("approve")}})
            .to_string(),
            "",
            0,
            Became::Original,
        ),
        // Without a rewrite: a deny with no reason, and exit 2 with no stderr, are no denies.
        case(
            "echo rw-bare-deny",
            pre_answer(json!({"permissionDecision": "deny"})),
            "",
            0,
            Became::Original,
        ),
        case("echo rw-bare2", String::new(), "", 2, Became::Original),
        case(
            "echo rw-nocmd",
            pre_answer(json!({"permissionDecision": "allow",
                "updatedInput": {"cmd": "echo rewritten-nocmd"}})),
            "",
            0,
            Became::Blocked("hook returned updatedInput without string field `command`"),
        ),
    ]
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

    /// The output the model got back for the call whose arguments or input contain `text`.
    fn tool_result(&self, scenario: &str, text: &str) -> String {
        for body in self.requests(scenario) {
            let input = body["input"].as_array().cloned().unwrap_or_default();
            let call = input.iter().find(|i| {
                i["type"].as_str().is_some_and(|t| t.ends_with("call"))
                    && (i["arguments"].as_str().unwrap_or_default().contains(text)
                        || i["input"].as_str().unwrap_or_default().contains(text))
            });
            if let Some(call) = call {
                let reply = input.iter().find(|i| {
                    i["type"]
                        .as_str()
                        .is_some_and(|t| t.ends_with("call_output"))
                        && i["call_id"] == call["call_id"]
                });
                if let Some(reply) = reply {
                    return match &reply["output"] {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                }
            }
        }
        String::from("<no tool result>")
    }
}

impl Live {
    /// The first dump of `label` whose raw stdin contains `text`.
    fn dump(&self, label: &str, text: &str) -> Option<&client::Dump> {
        self.dumps
            .iter()
            .find(|d| d.label == label && d.raw.contains(text))
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

/// The project's Claude rules of `mcp_names_under_codex` (rows 1593, 2060), each a recorder
/// labelled `PREFIX-NAME`: `dashed` on server `x-y`'s tools, `dotted` on `srv`'s
/// `dot.tool` (the `.` escaped), `other` on a server that is not configured.
fn mcp_claude_rules(sb: &Sandbox, prefix: &str) {
    let rule = |matcher: &str, name: &str| {
        let label = format!("{prefix}-{name}");
        json!({"matcher": matcher, "hooks": [{"type": "command", "command": sb.dumper(&label)}]})
    };
    let claude = json!({"hooks": {"PreToolUse": [
        rule("mcp__x-y__.*", "dashed"), rule("mcp__srv__dot\\.tool", "dotted"),
        rule("mcp__x-z__.*", "other")]}});
    sb.write("project/.claude/settings.json", &claude.to_string());
}

/// The checks of [`mcp_claude_rules`]'s run: each rule ran on the tools Codex names as the
/// rule's server and tool and on no other (`said` starts what failed), and the deny of the
/// `dashed` rule stopped its call while the first call ran.
fn mcp_claude_rules_ran(c: &mut Checks, l: &Live, prefix: &str, said: &str) {
    let [dashed, dotted, other] = ["dashed", "dotted", "other"].map(|n| format!("{prefix}-{n}"));
    c.failed(mcp_names::ran_otherwise(
        l.dumps.iter().map(|d| (d.label.as_str(), &d.stdin)),
        &[
            (dashed.as_str(), vec!["mcp__x_y__run"]),
            (dotted.as_str(), vec!["mcp__srv__dot_tool"]),
            (other.as_str(), vec![]),
        ],
        said,
        &l.out.stderr,
    ));
    let ran = mcp_names::ran(&l.sb.root.join("mcp-ran.log"));
    let denied = mcp_names::CALLS.iter().position(|c| c.0 == "x-y").unwrap();
    c.that(
        !ran.contains_key(&denied) && ran.contains_key(&0),
        format!("the call the {said}{dashed} denies did not run, the others did: {ran:?}"),
    );
}

/// Runs `SCENARIO:<scenario> do the work` with `args` in a sandbox prepared by `setup`, or
/// `None` when the client is missing.
fn live(scenario: &str, args: &[&str], setup: impl FnOnce(&Sandbox)) -> Option<Live> {
    live_env(scenario, args, &[], setup)
}

fn live_env(
    scenario: &str,
    args: &[&str],
    env: &[(&str, &str)],
    setup: impl FnOnce(&Sandbox),
) -> Option<Live> {
    live_args(scenario, env, |sb| {
        setup(sb);
        args.iter().map(|a| a.to_string()).collect()
    })
}

/// [`live_env`] with the arguments the sandbox's setup gives (an option naming its paths).
fn live_args(
    scenario: &str,
    env: &[(&str, &str)],
    setup: impl FnOnce(&Sandbox) -> Vec<String>,
) -> Option<Live> {
    live_in(Sandbox::new(), scenario, env, setup)
}

/// [`live_args`] in a sandbox made beforehand.
fn live_in(
    sb: Sandbox,
    scenario: &str,
    env: &[(&str, &str)],
    setup: impl FnOnce(&Sandbox) -> Vec<String>,
) -> Option<Live> {
    let bin = client::binary()?;
    let args = setup(&sb);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let out = sb.run(
        &bin,
        model.port,
        &format!("SCENARIO:{scenario} do the work"),
        &args,
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

/// `-s workspace-write`: `exec`'s default read-only sandbox rejects apply_patch.
const WRITE: &[&str] = &["-s", "workspace-write"];

/// Ground truth, no hookx: every event's payload from user hooks (`~/.codex/hooks.json`) and
/// project hooks (`.codex/config.toml [hooks]`, in a trusted project), over a shell call, two
/// patches, a failing command and a failing image view; and the context that reaches the model.
fn ground_truth_tools() {
    let Some(l) = live("tools", WRITE, |sb| {
        sb.trust_project();
        sb.trusted_hooks(
            HookFile::UserJson,
            &Value::Object(record_everything(sb, "")),
        );
        sb.trusted_hooks(
            HookFile::ProjectToml,
            &Value::Object(record_everything(sb, "project-")),
        );
        let ctx = |e: &str| {
            format!(
                r#"{{"hookSpecificOutput":{{"hookEventName":"{e}","additionalContext":"CTX-{e}"}}}}"#
            )
        };
        sb.answer("SessionStart", "a", "", &ctx("SessionStart"), "", 0);
        sb.answer("UserPromptSubmit", "a", "", &ctx("UserPromptSubmit"), "", 0);
        sb.answer(
            "PostToolUse",
            "a",
            "hello-shell",
            &ctx("PostToolUse"),
            "",
            0,
        );
        sb.answer(
            "Stop",
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
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    for e in [
        "SessionStart",
        "SessionEnd",
        "UserPromptSubmit",
        "PreModelRequest",
        "PostModelRequest",
        "PreToolUse",
        "PostToolUse",
        "Stop",
    ] {
        for prefix in ["", "project-"] {
            let label = format!("{prefix}{e}");
            c.that(l.count(&label) > 0, format!("{label} fired"));
        }
    }
    let bash = l.dump("PreToolUse", "hello-shell");
    c.that(
        bash.is_some_and(|d| {
            d.stdin["tool_name"] == "Bash" && d.stdin["tool_input"]["command"] == "echo hello-shell"
        }),
        format!("exec_command reaches hooks as Bash {{command}}: {bash:?}"),
    );
    let add = l.dump("PreToolUse", "Add File: notes.txt");
    c.that(
        add.is_some_and(|d| {
            d.stdin["tool_name"] == "apply_patch"
                && d.stdin["tool_input"]["command"]
                    .as_str()
                    .is_some_and(|p| p.starts_with("*** Begin Patch"))
        }),
        format!("apply_patch reaches hooks as apply_patch {{command: PATCH}}: {add:?}"),
    );
    c.that(
        std::fs::read_to_string(l.sb.project.join("notes.txt"))
            .ok()
            .as_deref()
            == Some("two\n"),
        "both patches applied",
    );
    let post = l.dump("PostToolUse", "hello-shell");
    c.that(
        post.is_some_and(|d| d.stdin["tool_response"] == "hello-shell\n"),
        format!("PostToolUse tool_response is the output text: {post:?}"),
    );
    c.that(
        l.out.said().contains("all done"),
        format!("the final answer is printed: {}", l.out.stdout),
    );
    let sent = l.sent("tools");
    for e in ["SessionStart", "UserPromptSubmit", "PostToolUse"] {
        c.that(
            sent.contains(&format!("CTX-{e}")),
            format!("{e} additionalContext reaches the model"),
        );
    }
    c.that(
        sent.contains("STOP-AGAIN"),
        "a blocked Stop continues with the reason as a prompt",
    );
    c.that(
        l.count_with("Stop", r#""stop_hook_active":true"#) > 0,
        "Stop re-entry has stop_hook_active: true",
    );
    let pre = l.dump("PreToolUse", "hello-shell");
    let project = l.sb.project.display().to_string();
    c.that(
        pre.is_some_and(|d| d.cwd == project),
        format!("hooks run in the project: {:?}", pre.map(|d| &d.cwd)),
    );
    check_recorded("tools", &l, &[]);
    c.done("tools");
}

/// Ground truth of compaction: a small `model_auto_compact_token_limit` compacts the history
/// mid-turn (PreCompact/PostCompact `auto`, then SessionStart `compact`).
fn ground_truth_compact() {
    let Some(l) = live(
        "compact",
        &[
            "-s",
            "workspace-write",
            "-c",
            "model_auto_compact_token_limit=12000",
        ],
        |sb| {
            // Compaction matchers filter on `trigger`.
            let mut user = record_everything(sb, "");
            for m in ["auto", "manual"] {
                user["PreCompact"].as_array_mut().unwrap().push(group(
                    sb,
                    Some(m),
                    &format!("compact-{m}"),
                ));
            }
            sb.trusted_hooks(HookFile::UserJson, &Value::Object(user));
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
        l.count("compact-auto") == l.count("PreCompact") && l.count("compact-manual") == 0,
        "PreCompact matchers filter on the trigger",
    );
    c.that(
        l.count_with("PreCompact", r#""trigger":"auto""#) > 0,
        format!("PreCompact auto: {:?}", l.labels()),
    );
    c.that(
        l.count_with("PostCompact", r#""trigger":"auto""#) > 0,
        "PostCompact auto",
    );
    c.that(
        l.count_with("SessionStart", r#""source":"compact""#) > 0,
        "SessionStart compact",
    );
    c.that(
        l.count_with("PreToolUse", "after-compact") == 1,
        "the turn went on",
    );
    check_recorded("compact", &l, &[]);
    c.done("compact");
}

/// Ground truth of PermissionRequest: it fires only when approvals are on (`--approve-for-me`)
/// and a call asks for escalation; the hook's decision replaces the automatic review.
fn ground_truth_permission() {
    let Some(l) = live("permission", &["--approve-for-me"], |sb| {
        sb.trusted_hooks(
            HookFile::UserJson,
            &Value::Object(record_everything(sb, "")),
        );
        sb.answer("PermissionRequest", "a", "escalate-allowed",
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#, "", 0);
        sb.answer("PermissionRequest", "b", "escalate-denied",
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"R-PERM-DENY"}}}"#, "", 0);
    }) else {
        return;
    };
    let mut c = Checks::default();
    let req = l.dump("PermissionRequest", "escalate-allowed");
    c.that(
        req.is_some_and(|d| {
            d.stdin["tool_name"] == "Bash" && d.stdin["tool_input"]["description"] == "J-ALLOW"
        }),
        format!("PermissionRequest: Bash {{command, description: justification}}: {req:?}"),
    );
    let allowed = l.tool_result("permission", "escalate-allowed");
    c.that(
        allowed.contains("escalate-allowed\n"),
        format!("allowed call ran: {allowed}"),
    );
    let denied = l.tool_result("permission", "escalate-denied");
    c.that(
        denied.contains("R-PERM-DENY"),
        format!("denied call carries the message: {denied}"),
    );
    check_recorded("permission", &l, &[]);
    c.done("permission");
}

/// Ground truth of subagents (`--enable multi_agent_v2`): SubagentStart and SubagentStop around
/// a spawned agent; the collaboration tools reach hooks as `collaboration` + tool name.
fn ground_truth_agents() {
    let Some(l) = live(
        "agents",
        &["-s", "workspace-write", "--enable", "multi_agent_v2"],
        |sb| {
            sb.trusted_hooks(
                HookFile::UserJson,
                &Value::Object(record_everything(sb, "")),
            );
        },
    ) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.count("SubagentStart") == 1,
        format!("SubagentStart: {:?}", l.labels()),
    );
    c.that(l.count("SubagentStop") == 1, "SubagentStop");
    c.that(
        l.count_with("PreToolUse", r#""tool_name":"collaborationspawn_agent""#) == 1,
        "spawn_agent's PreToolUse tool_name",
    );
    check_recorded("agents", &l, &[]);
    c.done("agents");
}

/// Attacks rows 1300 and 1301: a trusted Claude guard on the subagent tool (`Agent`) and one on
/// `Bash`, in a file Codex does not read, run by hookx's Codex route (`--enable
/// multi_agent_v2`). The spawn the guard denies starts no subagent; the one it lets go starts
/// one, whose shell call the Bash guard denies. Codex's own user hooks record the ground truth,
/// and two of them probe which matchers Codex fires on `spawn_agent` (`Agent`, and the hook's
/// own name that `convert` writes).
fn a_claude_agent_guard_stops_a_codex_spawn() {
    let Some(l) = live(
        "agentguard",
        &["-s", "workspace-write", "--enable", "multi_agent_v2"],
        |sb| {
            sb.trust_project();
            let mut user = record_everything(sb, "");
            let pre = user["PreToolUse"].as_array_mut().unwrap();
            pre.push(group(sb, Some("Agent"), "native-Agent"));
            pre.push(group(sb, Some("collaborationspawn_agent"), "native-spawn"));
            sb.trusted_hooks(HookFile::UserJson, &Value::Object(user));
            sb.write(
                "project/.claude/settings.json",
                &client::pretty(&json!({"hooks": {"PreToolUse": [
                    {"matcher": "Agent", "hooks": [
                        {"type": "command", "command": sb.dumper("claude-agent")}]},
                    {"matcher": "Bash", "hooks": [
                        {"type": "command", "command": sb.dumper("claude-bash")}]}]}})),
            );
            sb.answer("claude-agent", "a", "deny-me",
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-NO-SPAWN"}}"#, "", 0);
            sb.answer("claude-bash", "a", "sub-guarded",
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-SUB-DENY"}}"#, "", 0);
            common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
            common::hookx_at(&sb.project, &sb.home, &["install", "--host", "codex"]).success();
        },
    ) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    // Ground truth (Codex 0.171.0): both spawns reach PreToolUse by the hook's own name.
    c.that(
        l.count_with("PreToolUse", "collaborationspawn_agent") == 2,
        format!("two spawns: {:?}", l.labels()),
    );
    c.that(
        l.count("native-spawn") == 2,
        format!("a matcher of the hook's name fires: {:?}", l.labels()),
    );
    c.that(
        l.count("native-Agent") == 0,
        format!("Codex fires no `Agent` matcher on it: {:?}", l.labels()),
    );
    let guard = l.dump("claude-agent", "deny-me");
    c.that(
        guard.is_some_and(|d| {
            d.stdin["tool_name"] == "Agent"
                && d.stdin["tool_input"]["prompt"] == "deny-me run one command"
        }),
        format!("the Claude guard saw the spawn as Agent with its prompt: {guard:?}"),
    );
    c.that(
        l.count("claude-agent") == 2,
        format!("the Claude guard ran once per spawn: {:?}", l.labels()),
    );
    let denied = l.tool_result("agentguard", "deny-me");
    c.that(
        denied.contains("R-NO-SPAWN"),
        format!("the denied spawn's output carries the reason: {denied}"),
    );
    c.that(
        l.count("SubagentStart") == 1,
        format!(
            "only the allowed spawn started a subagent: {:?}",
            l.labels()
        ),
    );
    let sub = l.tool_result("agentsub", "sub-guarded");
    c.that(
        sub.contains("R-SUB-DENY"),
        format!("the subagent's shell call is denied: {sub}"),
    );
    c.that(
        l.count_with("claude-bash", "sub-guarded") == 1,
        format!(
            "the Bash guard ran once for the subagent's call: {:?}",
            l.labels()
        ),
    );
    c.done("agentguard");
}

/// PreToolUse answers (JSON and exit codes) on shell calls, from a user and a project handler,
/// and a `timeout` handler that answers too late; what ran and what the model got back.
fn pre_tool_use_answers() {
    let Some(l) = live("deny", WRITE, |sb| {
        sb.trust_project();
        let mut user = record_everything(sb, "");
        let late = json!({"hooks": [{"type": "command", "command": sb.dumper("timeout"),
            "timeout": 1}]});
        user["PreToolUse"].as_array_mut().unwrap().push(late);
        sb.trusted_hooks(HookFile::UserJson, &Value::Object(user));
        sb.trusted_hooks(
            HookFile::ProjectJson,
            &json!({"PreToolUse": [group(sb, None, "project-PreToolUse")]}),
        );
        for (i, (cmd, stdout, stderr, exit, _)) in DENY_CASES.iter().enumerate() {
            sb.answer("PreToolUse", &format!("{i:02}"), cmd, stdout, stderr, *exit);
        }
        sb.answer("PreToolUse", "zz", "denied.txt",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-PATCH"}}"#, "", 0);
        sb.answer("project-PreToolUse", "a", "echo merge",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-MERGE-DENY"}}"#, "", 0);
        sb.answer_late(
            "timeout",
            "a",
            "echo timeout",
            r#"{"decision":"block","reason":"R-LATE"}"#,
            4,
        );
    }) else {
        return;
    };
    let mut c = Checks::default();
    for (cmd, _, _, _, expect) in DENY_CASES {
        let said = cmd.trim_start_matches("echo ");
        let result = l.tool_result("deny", cmd);
        let ran = result.contains(&format!("\n{said}\n"));
        match expect {
            Expect::Ran => c.that(ran, format!("{cmd} ran: {result}")),
            Expect::Blocked(reason) => c.that(
                !ran && result.contains(reason),
                format!("{cmd} blocked with {reason}: {result}"),
            ),
        }
    }
    let patch = l.tool_result("deny", "denied.txt");
    c.that(
        patch.contains("R-PATCH") && !l.sb.project.join("denied.txt").exists(),
        format!("a denied patch is not applied: {patch}"),
    );
    c.done("deny");
}

/// The patch a PreToolUse handler puts in place of `*** Add File: rw-original.txt`.
const REWRITTEN_PATCH: &str =
    "*** Begin Patch\n*** Add File: rw-rewritten.txt\n+rewritten\n*** End Patch\n";

/// Ground truth of the `updatedInput` row, hookx not in the loop: a recorder answers each
/// shell call with a rewrite in one of the forms of [`rewrite_cases`], and a patch with a
/// rewritten patch under `allow`; a PermissionRequest `decision.updatedInput` (approvals on).
/// What ran and what the model got back.
fn ground_truth_updated_input() {
    let cases = rewrite_cases();
    let Some(l) = live("rewrite", WRITE, |sb| {
        sb.trusted_hooks(
            HookFile::UserJson,
            &Value::Object(record_everything(sb, "")),
        );
        for (i, c) in cases.iter().enumerate() {
            let name = format!("{i:02}");
            sb.answer("PreToolUse", &name, c.cmd, &c.stdout, c.stderr, c.exit);
        }
        let patch = json!({"permissionDecision": "allow",
            "updatedInput": {"command": REWRITTEN_PATCH}});
        sb.answer(
            "PreToolUse",
            "zz",
            "rw-original.txt",
            &pre_answer(patch),
            "",
            0,
        );
    }) else {
        return;
    };
    let Some(perm) = live("rewrite-permission", &["--approve-for-me"], |sb| {
        sb.trusted_hooks(
            HookFile::UserJson,
            &Value::Object(record_everything(sb, "")),
        );
        sb.answer("PermissionRequest", "a", "rw-permission",
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"echo rewritten-permission"}}}}"#, "", 0);
        let rewrite = json!({"permissionDecision": "allow",
            "updatedInput": {"command": "echo rewritten-escalate"}});
        sb.answer(
            "PreToolUse",
            "a",
            "rw-escalate",
            &pre_answer(rewrite),
            "",
            0,
        );
        sb.answer("PermissionRequest", "b", "rewritten-escalate",
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#, "", 0);
    }) else {
        return;
    };
    let mut c = Checks::default();
    for case in &cases {
        let name = case.cmd.trim_start_matches("echo ");
        let result = l.tool_result("rewrite", case.cmd);
        let original = result.contains(&format!("\n{name}\n"));
        let rewritten = result.contains(&format!("\nrewritten-{}\n", &name[3..]));
        let ok = match case.became {
            Became::Original => original && !rewritten,
            Became::Rewritten => rewritten && !original,
            Became::Blocked(reason) => !original && !rewritten && result.contains(reason),
        };
        c.that(
            ok,
            format!(
                "{}: expected {:?}, the model got: {result}",
                case.cmd, case.became
            ),
        );
    }
    let post = l.dump("PostToolUse", "rewritten-allow");
    c.that(
        post.is_some_and(|d| d.stdin["tool_input"]["command"] == "echo rewritten-allow"),
        format!("PostToolUse sees the rewritten command: {post:?}"),
    );
    let patched = l.tool_result("rewrite", "rw-original.txt");
    c.that(
        l.sb.project.join("rw-rewritten.txt").exists()
            && !l.sb.project.join("rw-original.txt").exists(),
        format!("a rewritten patch is applied instead: {patched}"),
    );
    // The hook's answer is refused whole; the automatic review (which cannot answer here)
    // declines the call.
    let status = |l: &Live, text: &str| {
        l.out
            .events
            .iter()
            .find(|e| {
                e["type"] == "item.completed"
                    && e["item"]["command"]
                        .as_str()
                        .is_some_and(|c| c.contains(text))
            })
            .map(|e| e["item"]["status"].clone())
    };
    let refused = status(&perm, "rw-permission");
    c.that(
        refused.as_ref().is_some_and(|s| s == "declined")
            && perm.count_with("PostToolUse", "rw-permission") == 0,
        format!("a PermissionRequest decision.updatedInput is refused: {refused:?}"),
    );
    // A PreToolUse allow (with a rewrite) does not skip Codex's own approval: PermissionRequest
    // still fires, on the rewritten command, and its allow runs it.
    let asked = perm.dump("PermissionRequest", "rewritten-escalate");
    let ran = status(&perm, "rewritten-escalate");
    c.that(
        asked.is_some() && ran.as_ref().is_some_and(|s| s == "completed"),
        format!(
            "PermissionRequest after a PreToolUse allow: {asked:?}, {ran:?}, {:?}\nstderr: {}",
            perm.labels(),
            perm.out.stderr
        ),
    );
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    c.done("rewrite");
}

/// PreToolUse matchers against a shell call and a patch: (matcher, matches the shell call,
/// matches the patch). As in Claude Code: a matcher of only letters, digits, `_` and `|` is a
/// list of exact names, anything else an unanchored regex; `*` and the empty string match
/// everything; a patch also answers to `Edit` and `Write`.
const MATCHERS: &[(&str, bool, bool)] = &[
    ("Bash", true, false),
    ("^Bash$", true, false),
    ("bash", false, false),
    ("exec_command", false, false),
    ("apply_patch", false, true),
    ("Edit", false, true),
    ("Write", false, true),
    ("Edit|Write", false, true),
    ("Bash|apply_patch", true, true),
    ("^apply", false, true),
    ("apply", false, false),
    ("ash", false, false),
    ("ash|nothing", false, false),
    ("ash$", true, false),
    ("B.sh", true, false),
    ("*", true, true),
    ("", true, true),
    (".*", true, true),
];

fn pre_tool_use_matchers() {
    let Some(l) = live("matchers", WRITE, |sb| {
        let groups: Vec<Value> = MATCHERS
            .iter()
            .enumerate()
            .map(|(i, (m, ..))| group(sb, Some(m), &format!("m{i:02}")))
            .collect();
        // SessionStart matchers filter on `source`.
        let starts: Vec<Value> = ["startup", "resume", "start", "^start"]
            .iter()
            .map(|m| group(sb, Some(m), &format!("start-{m}")))
            .collect();
        sb.trusted_hooks(
            HookFile::UserJson,
            &json!({ "PreToolUse": groups, "SessionStart": starts }),
        );
    }) else {
        return;
    };
    let mut c = Checks::default();
    for (m, fires) in [
        ("startup", true),
        ("resume", false),
        ("start", false),
        ("^start", true),
    ] {
        c.that(
            (l.count(&format!("start-{m}")) == 1) == fires,
            format!("SessionStart matcher {m:?} fires: {}", !fires),
        );
    }
    for (i, (m, shell, patch)) in MATCHERS.iter().enumerate() {
        let label = format!("m{i:02}");
        let got = (
            l.count_with(&label, "match-shell") == 1,
            l.count_with(&label, "matched.txt") == 1,
        );
        c.that(
            got == (*shell, *patch),
            format!("matcher {m:?}: (shell, patch) = {got:?}"),
        );
    }
    c.done("matchers");
}

/// Attacks rows 1450-1469: each of `matcher_probe::MATCHERS` on its own PreToolUse group in
/// the user's `hooks.json` (trusted), a recorder each, over a shell call, a patch adding a
/// file and one changing it: what Codex fires (recorded in `tests/fixtures/matchers/`) against what hookx
/// reads the same file as (`simulate`, on each call's own payload).
fn matchers_fire_as_hookx_reads_them() {
    let Some(l) = live("mxprobe", WRITE, |sb| {
        let groups: Vec<Value> = matcher_probe::MATCHERS
            .iter()
            .enumerate()
            .map(|(i, m)| group(sb, *m, &matcher_probe::label(i)))
            .collect();
        sb.trusted_hooks(HookFile::UserJson, &json!({ "PreToolUse": groups }));
    }) else {
        return;
    };
    let dumps: Vec<(String, Value)> = l
        .dumps
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    let rec = matcher_probe::Recording {
        client: "codex".into(),
        version: client::VERSION.into(),
        host: "codex".into(),
        event: "PreToolUse".into(),
        file: ".codex/hooks.json".into(),
        calls: matcher_probe::observed(&dumps, &l.sb.root),
    };
    let mut c = Checks::default();
    let tag = format!("codex-{}", client::VERSION);
    for d in matcher_probe::differences(&tag, &rec, 3) {
        c.that(false, d);
    }
    c.done("mxprobe");
}

/// Trust by hash, without the bypass: a trusted handler runs; one with no trust entry, and one
/// whose entry hashes an older command, are skipped silently; trusted entries for a project
/// file do not load it while the project itself is untrusted; `config.toml [hooks]` in the
/// user layer is trusted the same way.
fn only_trusted_handlers_run() {
    let Some(l) = live("untrusted", WRITE, |sb| {
        let handler = |label: &str| json!({"type": "command", "command": sb.dumper(label)});
        let user = json!({"PreToolUse": [{"hooks": [
            handler("trusted"), handler("untrusted"), handler("modified")]}]});
        // What the review saw before the third handler's command changed.
        let reviewed = json!({"PreToolUse": [{"hooks": [
            handler("trusted"), handler("untrusted"), handler("modified-before")]}]});
        sb.hooks(HookFile::UserJson, &user);
        let entries = client::trust_entries(&sb.path_of(HookFile::UserJson), &reviewed);
        for (key, hash) in entries.iter().filter(|(k, _)| !k.ends_with(":0:1")) {
            sb.user_config(&format!(
                "[hooks.state.{}]\ntrusted_hash = {}\n\n",
                json!(key),
                json!(hash)
            ));
        }
        sb.trusted_hooks(
            HookFile::UserToml,
            &json!({"PreToolUse": [group(sb, None, "toml-trusted")]}),
        );
        sb.trusted_hooks(
            HookFile::ProjectJson,
            &json!({"PreToolUse": [group(sb, None, "project-untrusted-folder")]}),
        );
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(l.out.status == Some(0), format!("exit {:?}", l.out.status));
    c.that(
        l.count("trusted") == 1,
        format!("the trusted handler ran: {:?}", l.labels()),
    );
    c.that(
        l.count("toml-trusted") == 1,
        "the trusted config.toml handler ran",
    );
    for label in ["untrusted", "modified", "project-untrusted-folder"] {
        c.that(l.count(label) == 0, format!("{label} did not run"));
    }
    // What `hookx doctor` says of each file is what Codex did with it (attacks row 582): the
    // user file's rule fires for its one reviewed handler, the other two skipped (one never
    // reviewed, one changed since); config.toml's fires; the project's is blocked (the folder is
    // not trusted).
    let doctor = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args(["doctor", "--host", "codex", "--format", "json", "--project"])
        .arg(&l.sb.project)
        .arg("--home")
        .arg(&l.sb.home)
        .env("HOME", &l.sb.home)
        .env_remove("HOOKX_HOME")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&doctor.stdout).unwrap_or_default();
    for (file, ran) in [
        ("~/.codex/hooks.json", l.count("trusted") > 0),
        ("~/.codex/config.toml", l.count("toml-trusted") > 0),
        (".codex/hooks.json", l.count("project-untrusted-folder") > 0),
    ] {
        let rule = report["files"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|f| f["file"] == file)
            .map(|f| &f["rules"][0]["hosts"][0]);
        let fires = rule.is_some_and(|r| r["status"] == "fires");
        c.that(
            fires == ran,
            format!("{file}: Codex ran its rule: {ran}; hookx doctor: {rule:?}"),
        );
    }
    // The untrusted project is named on stderr; the skipped handlers are not.
    c.that(
        l.out
            .stderr
            .contains("Untrusted project-local configuration is disabled")
            && !l.out.stderr.contains("PreToolUse")
            && !l.out.stderr.contains("dumper.sh"),
        format!("stderr: {}", l.out.stderr),
    );
    c.done("untrusted");
}

/// The trust entries this suite writes are Codex's own: `codex app-server`'s `hooks/list` gives
/// every handler's key and current hash, for every event, matchers, timeouts (clamped on
/// SessionEnd and Interrupt), `async` and `statusMessage`, in `hooks.json` and `config.toml`.
fn trust_hashes_are_codex_hashes() {
    let Some(bin) = client::binary() else {
        return;
    };
    let sb = Sandbox::new();
    let mut json_hooks = serde_json::Map::new();
    for (i, e) in EVENTS.iter().enumerate() {
        json_hooks.insert(
            e.to_string(),
            json!([
                {"hooks": [{"type": "command", "command": format!("echo {e}")}]},
                {"matcher": format!("M{i}"), "hooks": [
                    {"type": "command", "command": "echo a", "timeout": 5},
                    {"type": "command", "command": "echo b", "timeout": 0, "async": true,
                        "statusMessage": "S"}]}
            ]),
        );
    }
    let json_hooks = Value::Object(json_hooks);
    let toml_hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo 'toml'", "timeout": 30}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}]});
    sb.trusted_hooks(HookFile::UserJson, &json_hooks);
    sb.trusted_hooks(HookFile::UserToml, &toml_hooks);
    // The config is written by `run`; write it the same way without running the model.
    sb.write_config(0);
    let inventory = sb.hook_inventory(&bin);
    let hooks = inventory["hooks"].as_array().cloned().unwrap_or_default();
    let mut want = client::trust_entries(&sb.path_of(HookFile::UserJson), &json_hooks);
    want.extend(client::trust_entries(
        &sb.path_of(HookFile::UserToml),
        &toml_hooks,
    ));
    let mut c = Checks::default();
    c.that(
        hooks.len() == want.len(),
        format!(
            "{} hooks listed, {} written: {inventory}",
            hooks.len(),
            want.len()
        ),
    );
    for (key, hash) in &want {
        let listed = hooks.iter().find(|h| h["key"] == key.as_str());
        c.that(
            listed.is_some_and(|h| {
                h["currentHash"] == hash.as_str() && h["trustStatus"] == "trusted"
            }),
            format!("{key}: ours {hash}, Codex {listed:?}"),
        );
    }
    c.done("hashes");
}

/// Blocks outside PreToolUse: a UserPromptSubmit `decision: block` ends the run before any
/// model request (exit 0, the reason shown nowhere); a PostToolUse one replaces the tool's
/// output with the reason.
fn prompt_and_post_tool_blocks() {
    let Some(prompt) = live("blocks", WRITE, |sb| {
        sb.trusted_hooks(
            HookFile::UserJson,
            &Value::Object(record_everything(sb, "")),
        );
        sb.answer(
            "UserPromptSubmit",
            "a",
            "SCENARIO",
            r#"{"decision":"block","reason":"R-PROMPT-BLOCK"}"#,
            "",
            0,
        );
    }) else {
        return;
    };
    let Some(post) = live("blocks", WRITE, |sb| {
        sb.trusted_hooks(
            HookFile::UserJson,
            &Value::Object(record_everything(sb, "")),
        );
        sb.answer(
            "PostToolUse",
            "a",
            "post-block",
            r#"{"decision":"block","reason":"R-POST-BLOCK"}"#,
            "",
            0,
        );
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        prompt.out.status == Some(0)
            && prompt.model.turns_of("blocks").is_empty()
            && prompt.labels() == ["SessionStart", "UserPromptSubmit", "SessionEnd"],
        format!(
            "a blocked prompt ends the run: {:?} {:?}",
            prompt.out.status,
            prompt.labels()
        ),
    );
    c.that(
        !prompt.out.stdout.contains("R-PROMPT-BLOCK") && !prompt.out.stderr.contains("R-PROMPT"),
        "the prompt block's reason is shown nowhere",
    );
    let result = post.tool_result("blocks", "post-block");
    c.that(
        result == "R-POST-BLOCK",
        format!("a PostToolUse block replaces the output: {result}"),
    );
    c.done("blocks");
}

/// hookx in the loop: `hookx install --host codex` routes Codex's events to `hookx run` and
/// records Codex's trust of exactly those routes (no bypass); Claude, Copilot and Bricks
/// handlers of the project, trusted with `hookx trust`, then run under Codex, each with its own
/// payload: a Claude deny blocks a shell call, Claude context reaches the model, and patches
/// arrive as Write and Edit (Claude), create and edit (Copilot), write_file and edit_file
/// (Bricks) with the patch's absolute path.
fn routed_handlers_of_every_dialect_run_under_codex() {
    let Some(l) = live("routed", WRITE, |sb| {
        sb.trust_project();
        let group =
            |label: &str| json!([{"hooks": [{"type": "command", "command": sb.dumper(label)}]}]);
        sb.write(
            "project/.claude/settings.json",
            &client::pretty(&json!({"hooks": {"PreToolUse": group("claude-pre"),
                "PostToolUse": group("claude-post")}})),
        );
        sb.write(
            "project/.github/hooks/routed.json",
            &client::pretty(&json!({"version": 1, "hooks": {"preToolUse": [
                {"type": "command", "bash": sb.dumper("copilot-pre")}]}})),
        );
        sb.write(
            "project/.bricks/hooks.json",
            &client::pretty(&json!({"hooks": {"PreToolUse": group("bricks-pre")}})),
        );
        sb.answer("claude-pre", "a", "claude-deny",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-CLAUDE-DENY"}}"#, "", 0);
        sb.answer(
            "claude-pre",
            "b",
            "claude-bare-deny",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
            "",
            0,
        );
        sb.answer("claude-post", "a", "routed-ok",
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX-CLAUDE-POST"}}"#, "", 0);
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["install", "--host", "codex"]).success();
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    let denied = l.tool_result("routed", "claude-deny");
    c.that(
        denied.contains("R-CLAUDE-DENY") && !denied.contains("\nclaude-deny\n"),
        format!("the Claude deny blocks the Codex shell call: {denied}"),
    );
    // Codex runs a call whose deny has no reason (run 0.171.0): hookx gives it one.
    let bare = l.tool_result("routed", "claude-bare-deny");
    c.that(
        !bare.contains("\nclaude-bare-deny\n") && bare.contains("denied by hook"),
        format!("a Claude deny without a reason blocks the Codex shell call: {bare}"),
    );
    c.that(
        l.sent("routed").contains("CTX-CLAUDE-POST"),
        "the Claude PostToolUse context reaches the model",
    );
    let project = l.sb.project.display().to_string();
    let file = format!("{project}/routed.txt");
    // Each handler gets its own dialect's payload, and is told the host.
    let expect = [
        (
            "claude-pre",
            "tool_name",
            "Bash",
            "tool_input",
            "command",
            "echo claude-deny",
        ),
        (
            "claude-pre",
            "tool_name",
            "Write",
            "tool_input",
            "file_path",
            file.as_str(),
        ),
        (
            "claude-pre",
            "tool_name",
            "Edit",
            "tool_input",
            "file_path",
            file.as_str(),
        ),
        (
            "copilot-pre",
            "toolName",
            "bash",
            "toolArgs",
            "command",
            "echo claude-deny",
        ),
        (
            "copilot-pre",
            "toolName",
            "create",
            "toolArgs",
            "path",
            file.as_str(),
        ),
        (
            "copilot-pre",
            "toolName",
            "edit",
            "toolArgs",
            "path",
            file.as_str(),
        ),
        (
            "bricks-pre",
            "tool_name",
            "bash",
            "tool_input",
            "command",
            "echo claude-deny",
        ),
        (
            "bricks-pre",
            "tool_name",
            "write_file",
            "tool_input",
            "file_path",
            file.as_str(),
        ),
        (
            "bricks-pre",
            "tool_name",
            "edit_file",
            "tool_input",
            "file_path",
            file.as_str(),
        ),
    ];
    for (label, name_key, name, input_key, arg, value) in expect {
        let found = l
            .dumps
            .iter()
            .find(|d| d.label == label && d.stdin[name_key] == name);
        let input = found.map(|d| match &d.stdin[input_key] {
            Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
            v => v.clone(),
        });
        c.that(
            input.as_ref().is_some_and(|i| i[arg] == value)
                && found
                    .is_some_and(|d| d.env.get("HOOKX_HOST").map(String::as_str) == Some("codex")),
            format!("{label} got {name} {{{arg}: {value}}}: {found:?}"),
        );
    }
    let edit = l
        .dumps
        .iter()
        .find(|d| d.label == "claude-pre" && d.stdin["tool_name"] == "Edit");
    c.that(
        edit.is_some_and(|d| {
            d.stdin["tool_input"]["old_string"] == "routed"
                && d.stdin["tool_input"]["new_string"] == "changed"
        }),
        "the update patch reaches Claude as old_string/new_string",
    );
    c.that(
        std::fs::read_to_string(l.sb.project.join("routed.txt"))
            .ok()
            .as_deref()
            == Some("changed\n"),
        "both patches applied",
    );
    c.done("routed");
}

/// hookx in the loop, rewrites: a Claude handler (`permissionDecision: "allow"` +
/// `updatedInput`), a Copilot one (`permissionDecision: "allow"` + `modifiedArgs`) and a Codex
/// one (`allow` + `updatedInput`, converted into the project's Claude settings with `hookx
/// convert --from codex --to claude`, so that it runs through `hookx exec`), each rewriting one
/// shell call, and the Claude handler a patch (as a Write); installed with `hookx install --host
/// codex`. Under the real Codex each rewritten command runs instead of the original.
fn routed_rewrites_run_under_codex() {
    let Some(l) = live("routed-rewrite", WRITE, |sb| {
        sb.trust_project();
        let group =
            |label: &str| json!([{"hooks": [{"type": "command", "command": sb.dumper(label)}]}]);
        sb.write(
            "project/.claude/settings.json",
            &client::pretty(&json!({"hooks": {"PreToolUse": group("claude-pre")}})),
        );
        sb.write(
            "project/.github/hooks/rewrite.json",
            &client::pretty(&json!({"version": 1, "hooks": {"preToolUse": [
                {"type": "command", "bash": sb.dumper("copilot-pre")}]}})),
        );
        let codex = sb.write(
            "codex-handlers.json",
            &client::pretty(&json!({"hooks": {"PreToolUse": group("codex-pre")}})),
        );
        let project = sb.project.display().to_string();
        let hookx = env!("CARGO_BIN_EXE_hookx");
        common::hookx()
            .args(["convert", &codex.display().to_string(), "--from", "codex"])
            .args([
                "--to",
                "claude",
                "--hookx",
                hookx,
                "--write",
                "--project",
                &project,
            ])
            .assert()
            .success();
        let rewrite = |cmd: &str| {
            pre_answer(json!({"permissionDecision": "allow",
                "updatedInput": {"command": cmd}}))
        };
        sb.answer(
            "claude-pre",
            "a",
            "echo rw-claude",
            &rewrite("echo rewritten-by-claude"),
            "",
            0,
        );
        let write = json!({"permissionDecision": "allow", "updatedInput": {
            "file_path": format!("{project}/rw-claude-rewritten.txt"), "content": "rewritten\n"}});
        sb.answer(
            "claude-pre",
            "b",
            "rw-claude.txt",
            &pre_answer(write),
            "",
            0,
        );
        sb.answer("copilot-pre", "a", "echo rw-copilot",
            r#"{"permissionDecision":"allow","modifiedArgs":{"command":"echo rewritten-by-copilot"}}"#, "", 0);
        sb.answer(
            "codex-pre",
            "a",
            "echo rw-codex",
            &rewrite("echo rewritten-by-codex"),
            "",
            0,
        );
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["install", "--host", "codex"]).success();
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    for shape in ["claude", "copilot", "codex"] {
        let result = l.tool_result("routed-rewrite", &format!("echo rw-{shape}"));
        c.that(
            result.contains(&format!("\nrewritten-by-{shape}\n"))
                && !result.contains(&format!("\nrw-{shape}\n")),
            format!("the {shape} handler's rewrite runs: {result}"),
        );
        c.that(
            l.count_with(&format!("{shape}-pre"), &format!("echo rw-{shape}")) == 1,
            format!("the {shape} handler ran once on its call: {:?}", l.labels()),
        );
    }
    let patched = l.tool_result("routed-rewrite", "rw-claude.txt");
    c.that(
        std::fs::read_to_string(l.sb.project.join("rw-claude-rewritten.txt"))
            .ok()
            .as_deref()
            == Some("rewritten\n")
            && !l.sb.project.join("rw-claude.txt").exists(),
        format!("the Claude handler's rewritten Write is applied instead: {patched}"),
    );
    c.done("routed-rewrite");
}

/// Attacks row 1061: a trusted Claude guard on `Write|Edit` that blocks `.env`, run by
/// hookx's Codex route, and one patch that adds `notes.txt` and `.env`. Codex 0.171.0 sends the
/// patch whole as `apply_patch`, which no Write or Edit shows: hookx ran the guard on nothing
/// and Codex wrote `.env`. Now the call is denied by the failure policy, saying why.
fn a_patch_of_two_files_does_not_pass_a_claude_write_guard() {
    let Some(l) = live("twofiles", WRITE, env_guard) else {
        return;
    };
    let mut c = Checks::default();
    let result = l.tool_result("twofiles", "Add File: .env");
    c.that(
        result.contains("make one change per call"),
        format!("the call is denied, and the model told why: {result}"),
    );
    c.that(
        !l.sb.project.join(".env").exists(),
        "Codex did not write .env",
    );
    c.done("twofiles");
}

/// Attacks row 1062: row 1061's guard, and one patch of two hunks of `.env`, which Codex
/// 0.171.0 sends as one `apply_patch` and hookx decodes to a MultiEdit: Claude Code 2.1.332 has
/// no MultiEdit tool (its edits are Edits), so the guard's `Write|Edit` never named it, never
/// ran, and Codex changed `.env`. A rule on Edit now fires on a MultiEdit and sees its path.
fn a_patch_of_two_hunks_does_not_pass_a_claude_edit_guard() {
    let Some(l) = live("twohunks", WRITE, |sb| {
        sb.write("project/.env", "A=1\nB=1\n");
        env_guard(sb)
    }) else {
        return;
    };
    let mut c = Checks::default();
    let result = l.tool_result("twohunks", "Update File: .env");
    c.that(
        result.contains("BLOCKED"),
        format!("the guard denied the patch: {result}"),
    );
    c.that(
        std::fs::read_to_string(l.sb.project.join(".env"))
            .ok()
            .as_deref()
            == Some("A=1\nB=1\n"),
        "Codex did not change .env",
    );
    c.done("twohunks");
}

/// A trusted project Claude guard on `Write|Edit` that blocks `.env` (the `file_path` it reads),
/// run by hookx's Codex route.
fn env_guard(sb: &Sandbox) {
    sb.trust_project();
    let guard = sb.write(
        "guard.sh",
        "p=$(jq -r '.tool_input.file_path // empty')\ncase $p in *.env) echo \"BLOCKED $p\" >&2; exit 2 ;; esac\n",
    );
    let rule = json!({"hooks": {"PreToolUse": [{"matcher": "Write|Edit", "hooks": [
        {"type": "command", "command": format!("sh {}", guard.display())}]}]}});
    sb.write("project/.claude/settings.json", &client::pretty(&rule));
    common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
    common::hookx_at(&sb.project, &sb.home, &["install", "--host", "codex"]).success();
}

/// Ctrl-C during a shell call (SIGINT to the client once PreToolUse has recorded the call):
/// Attacks row 306, live: a trusted Cursor `stop` hook that always follows up, run by hookx's
/// Codex route. Codex 0.171.0 caps no Stop blocks: the hook's own `loop_limit` (5) must end the
/// loop. The hook counts its runs and gives up by itself after 12 (so that a hookx without the
/// cap ends too, and the test is bound by events): under the cap it runs 6 times, told
/// `loop_count` 0 to 5, and Codex ends the turn.
fn a_cursor_stop_hook_that_always_follows_up_ends_under_codex() {
    let Some(l) = live("loop", &[], |sb| {
        sb.trust_project();
        let stops = sb.root.join("stops");
        std::fs::create_dir_all(&stops).unwrap();
        let script = format!(
            "d={}\ncat > \"$d/in\"\nn=$(ls \"$d\" | grep -c '^stop-')\nn=$((n + 1))\n\
             mv \"$d/in\" \"$d/stop-$n.json\"\n\
             [ \"$n\" -le 12 ] && echo '{{\"followup_message\":\"FOLLOW-UP-AGAIN\"}}'\nexit 0\n",
            stops.display()
        );
        let hook = sb.write("stop-hook.sh", &script);
        sb.write(
            "project/.cursor/hooks.json",
            &client::pretty(&json!({"version": 1, "hooks": {"stop": [
                {"command": format!("sh {}", hook.display())}]}})),
        );
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["install", "--host", "codex"]).success();
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    let stops = l.sb.root.join("stops");
    let counts: Vec<Value> = (1..)
        .map(|n| stops.join(format!("stop-{n}.json")))
        .take_while(|f| f.exists())
        .map(|f| serde_json::from_str::<Value>(&std::fs::read_to_string(f).unwrap()).unwrap())
        .map(|stdin| stdin["loop_count"].clone())
        .collect();
    let expected: Vec<Value> = (0..=5).map(|n| json!(n)).collect();
    c.that(
        counts == expected,
        format!("the hook ran 6 times, told loop_count 0 to 5: {counts:?}"),
    );
    // The last request to the model holds the whole turn: the five follow-ups, no more.
    let last = l.model.turns_of("loop").last().map(Value::to_string);
    let follow_ups = last
        .as_deref()
        .map(|t| t.matches("FOLLOW-UP-AGAIN").count());
    c.that(
        follow_ups == Some(5),
        format!("5 follow-ups reach the model: {follow_ups:?}"),
    );
    c.done("loop");
}

/// Attacks row 380, live: row 306's loop with a trusted Claude `Stop` hook that always blocks
/// (it never reads `stop_hook_active`), run by hookx's Codex route. Claude Code ends such a turn
/// past 8 blocks in a row; Codex 0.171.0 caps none. The hook gives up by itself after 12 (so
/// that a hookx without the cap ends too): under the cap it runs 9 times, 8 blocks reach the
/// model, and Codex ends the turn.
fn a_claude_stop_hook_that_always_blocks_ends_under_codex() {
    let Some((l, runs)) = claude_stop_hook_under_codex("blockloop", "BLOCK-AGAIN", "") else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    c.that(runs == 9, format!("the hook ran 9 times: {runs}"));
    let last = l.model.turns_of("blockloop").last().map(Value::to_string);
    let blocks = last.as_deref().map(|t| t.matches("BLOCK-AGAIN").count());
    c.that(
        blocks == Some(8),
        format!("8 blocks reach the model: {blocks:?}"),
    );
    c.done("blockloop");
}

/// Attacks row 1164, live: a trusted Claude `Stop` hook that ends its own loop as Claude's
/// documents teach (block, then let the stop that continues it pass: `stop_hook_active`), run
/// by hookx's Codex route. Codex's continuing Stop says `stop_hook_active: true`, and the hook
/// must be given it in its own form: it runs twice, one block reaches the model, and the turn
/// ends. (It gives up by itself after 12, so that a hookx that lost the field ends too.)
fn a_claude_stop_hook_that_ends_its_own_loop_blocks_once_under_codex() {
    let ends = "grep -q '\"stop_hook_active\": *true' \"$d/stop-$n.json\" && exit 0\n";
    let Some((l, runs)) = claude_stop_hook_under_codex("blockonce", "BLOCK-ONCE", ends) else {
        return;
    };
    let stops = l.sb.root.join("stops");
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    c.that(runs == 2, format!("the hook ran twice: {runs}"));
    let second = std::fs::read_to_string(stops.join("stop-2.json")).unwrap_or_default();
    c.that(
        second.contains(r#""stop_hook_active":true"#),
        format!("the second stop tells the hook it continues one: {second}"),
    );
    let last = l.model.turns_of("blockonce").last().map(Value::to_string);
    let blocks = last.as_deref().map(|t| t.matches("BLOCK-ONCE").count());
    c.that(
        blocks == Some(1),
        format!("one block reaches the model: {blocks:?}"),
    );
    c.done("blockonce");
}

/// A trusted project Claude `Stop` hook run by hookx's Codex route in scenario `scenario`: each
/// run keeps its payload as `stops/stop-N.json`, runs `ends` (shell lines that may `exit 0`
/// first), then blocks with `reason` up to 12 times, so that a run that never ends ends. The
/// run, and how many times the hook ran.
fn claude_stop_hook_under_codex(scenario: &str, reason: &str, ends: &str) -> Option<(Live, usize)> {
    let l = live(scenario, &[], |sb| {
        sb.trust_project();
        let stops = sb.root.join("stops");
        std::fs::create_dir_all(&stops).unwrap();
        let script = format!(
            "d={}\ncat > \"$d/in\"\nn=$(ls \"$d\" | grep -c '^stop-')\nn=$((n + 1))\n\
             mv \"$d/in\" \"$d/stop-$n.json\"\n{ends}\
             [ \"$n\" -le 12 ] && echo '{{\"decision\":\"block\",\"reason\":\"{reason}\"}}'\nexit 0\n",
            stops.display()
        );
        let hook = sb.write("stop-hook.sh", &script);
        sb.write(
            "project/.claude/settings.json",
            &client::pretty(&json!({"hooks": {"Stop": [{"hooks": [
                {"type": "command", "command": format!("sh {}", hook.display())}]}]}})),
        );
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["install", "--host", "codex"]).success();
    })?;
    let stops = l.sb.root.join("stops");
    let runs = (1..)
        .take_while(|n| stops.join(format!("stop-{n}.json")).exists())
        .count();
    Some((l, runs))
}

/// Interrupt fires, then SessionEnd; no PostToolUse, no Stop; exit 1.
fn ground_truth_interrupt() {
    let Some(l) = live("interrupt", WRITE, |sb| {
        sb.trusted_hooks(
            HookFile::UserJson,
            &Value::Object(record_everything(sb, "")),
        );
        sb.interrupt_when_recorded("sleep 30");
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(l.out.status == Some(1), format!("exit {:?}", l.out.status));
    let labels = l.labels();
    let at = |e: &str| labels.iter().position(|x| *x == e);
    c.that(
        at("PreToolUse") < at("Interrupt")
            && at("Interrupt") < at("SessionEnd")
            && at("Interrupt").is_some(),
        format!("PreToolUse, Interrupt, SessionEnd in order: {labels:?}"),
    );
    c.that(
        l.count("PostToolUse") == 0 && l.count("Stop") == 0,
        format!("no PostToolUse, no Stop: {labels:?}"),
    );
    // The PostModelRequest of the request that asked for the tool call races with the
    // interrupt (seen in some runs of 0.171.0, not in others): it is not compared.
    check_recorded("interrupt", &l, &["PostModelRequest"]);
    c.done("interrupt");
}

/// The recording of this suite's payloads (`tests/fixtures/recorded/codex-0.171.0/`).
fn recording(sb: &Sandbox) -> recorded::Recording<'static> {
    recorded::Recording {
        client: "codex",
        version: client::VERSION,
        folder: "codex",
        host: "codex",
        events: EVENTS,
        // The hook-relevant variables: what Codex adds for hooks, not what the run was given.
        relevant_env: |key| {
            (key.starts_with("CODEX_") || key.starts_with("CLAUDE_") || key.starts_with("PLUGIN_"))
                && !client::GIVEN_ENV.contains(&key)
        },
        placeholders: vec![
            (sb.project.display().to_string(), "<project>"),
            (sb.home.display().to_string(), "<home>"),
        ],
    }
}

/// Records or checks the run's payloads of the user-scope recorders (labelled with the bare
/// event name), leaving `racy` events out of the comparison.
fn check_recorded(scenario: &str, l: &Live, racy: &[&str]) {
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
    recording(&l.sb).check(scenario, &seen, racy);
}

/// `~/.codex/hooks.json` with `//` or `/* */` comments or a trailing comma, each in its own run
/// beside a `control` recorder in `config.toml`, both trusted by hash (Codex CLI 0.171.0).
/// `hookx list --host codex` must list the `probe` exactly when Codex runs it. Codex reads
/// `hooks.json` as strict JSON: any other is dropped without a word, the session goes on.
fn hooks_json_with_comments_or_trailing_commas() {
    let mut c = Checks::default();
    for variant in json_syntax::VARIANTS {
        let Some(l) = live("syntax", &[], |sb| {
            let control = json!({"SessionStart": [group(sb, None, "control")]});
            sb.trusted_hooks(HookFile::UserToml, &control);
            let probe = json!({"SessionStart": [group(sb, None, "probe")]});
            sb.trust(HookFile::UserJson, &probe);
            sb.write(
                "home/.codex/hooks.json",
                &variant.text(&json!({"hooks": probe})),
            );
        }) else {
            return;
        };
        let mut ran: Vec<String> = l.dumps.iter().map(|d| d.label.clone()).collect();
        ran.sort();
        let expected: &[&str] = match variant {
            json_syntax::Variant::Plain => &["control", "probe"],
            _ => &["control"],
        };
        let what = format!("{variant:?}");
        c.that(
            ran == expected,
            format!("{what}: ran {ran:?}, expected {expected:?}"),
        );
        c.that(
            l.out.status == Some(0),
            format!("{what}: exit {:?}", l.out.status),
        );
        let listed = json_syntax::hookx_native(
            (&l.sb.home, &l.sb.project),
            "codex",
            "SessionStart",
            &["control", "probe"],
        );
        c.that(
            listed.as_deref() == Ok(&ran),
            format!("{what}: Codex ran {ran:?}, hookx lists {listed:?}"),
        );
    }
    c.done("syntax");
}

/// Codex keys a handler's review by its user file as Codex names it: below `$HOME` as set (a
/// home reached through a symbolic link is not resolved), below `$CODEX_HOME` made canonical.
/// `hookx install --host codex --scope user` must record its route under that key, or Codex
/// skips the route silently (attacks row 240: hookx keyed it by the real path).
fn a_review_record_names_the_user_file_as_codex_does() {
    let Some(bin) = client::binary() else {
        return;
    };
    let mut c = Checks::default();
    for linked in ["the home", "~/.codex, named by CODEX_HOME"] {
        let sb = Sandbox::new();
        sb.write(
            "home/.claude/settings.json",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
        );
        let (home, codex_home) = match linked {
            "the home" => {
                let link = sb.root.join("home-link");
                std::os::unix::fs::symlink(&sb.home, &link).unwrap();
                (link, None)
            }
            _ => {
                let dotfiles = sb.home.join("dotfiles/codex");
                std::fs::create_dir_all(&dotfiles).unwrap();
                std::fs::remove_dir(sb.home.join(".codex")).unwrap();
                std::os::unix::fs::symlink(&dotfiles, sb.home.join(".codex")).unwrap();
                (sb.home.clone(), Some(sb.home.join(".codex")))
            }
        };
        let mut install = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"));
        install
            .args(["install", "--host", "codex", "--scope", "user", "--project"])
            .arg(&sb.project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .env_remove("CODEX_HOME");
        if let Some(codex_home) = &codex_home {
            install.env("CODEX_HOME", codex_home);
        }
        let out = install.output().unwrap();
        c.that(out.status.success(), format!("{linked}: install: {out:?}"));
        let inventory = sb.hook_inventory_as(&bin, &home, codex_home.as_deref());
        let routes: Vec<&Value> = inventory["hooks"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|h| {
                h["command"]
                    .as_str()
                    .is_some_and(|c| c.contains(" run --host codex"))
            })
            .collect();
        c.that(
            routes.len() == 1 && routes.iter().all(|h| h["trustStatus"] == "trusted"),
            format!("{linked} a link: Codex lists hookx's route as {routes:?}"),
        );
    }
    c.done("a_review_record_names_the_user_file_as_codex_does");
}

/// Attacks row 320: Codex turns a handler off by its place (`[hooks.state."KEY"] enabled =
/// false`) whatever sits there. A switch a handler the user deleted left at the place
/// `install` puts its route turned the route off (Codex listed it `enabled: false`), while
/// install said it trusted it. Codex's own `hooks/list` must list the route trusted and on.
fn a_route_install_clears_another_handlers_off_switch() {
    let Some(bin) = client::binary() else {
        return;
    };
    let sb = Sandbox::new();
    sb.write(
        "home/.claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
    );
    let key = format!(
        "{}:pre_tool_use:0:0",
        sb.home.join(".codex/hooks.json").display()
    );
    sb.write(
        "home/.codex/config.toml",
        &format!(
            "[hooks.state.{}]\nenabled = false\n",
            serde_json::json!(key)
        ),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args(["install", "--host", "codex", "--scope", "user", "--project"])
        .arg(&sb.project)
        .env("HOME", &sb.home)
        .env_remove("HOOKX_HOME")
        .env_remove("CODEX_HOME")
        .output()
        .unwrap();
    assert!(out.status.success(), "install: {out:?}");
    let inventory = sb.hook_inventory(&bin);
    let routes: Vec<&Value> = inventory["hooks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|h| {
            h["command"]
                .as_str()
                .is_some_and(|c| c.contains(" run --host codex"))
        })
        .collect();
    assert!(
        routes.len() == 1
            && routes
                .iter()
                .all(|h| h["trustStatus"] == "trusted" && h["enabled"] == true),
        "Codex lists hookx's route as {routes:?}"
    );
}

/// Forms of `hooks.json` Codex CLI 0.171.0's loader refuses whole (it reads the file as one typed
/// value: `failed to parse hooks config …` in its `hooks/list`, every hook of the file gone) and
/// forms it keeps (attacks row 175). `hookx validate` must make an error of exactly the first
/// ("refuses the whole file"), and `hookx doctor --host codex` say the guard never fires there.
fn hooks_json_forms_codex_refuses_whole() {
    let Some(bin) = client::binary() else {
        return;
    };
    let guard = r#"{"type": "command", "command": "echo guard"}"#;
    // (form, the file's text with GUARD for the guard, whether Codex refuses the file)
    let forms: &[(&str, &str, bool)] = &[
        (
            "a handler without type",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "echo x"}, GUARD]}]}}"#,
            true,
        ),
        (
            "a timeout of 1.5",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo x", "timeout": 1.5}, GUARD]}]}}"#,
            true,
        ),
        (
            "a timeout of 2.0",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo x", "timeout": 2.0}, GUARD]}]}}"#,
            true,
        ),
        (
            "a version key",
            r#"{"version": 1, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}}"#,
            true,
        ),
        (
            "a $schema key",
            r#"{"$schema": "https://hookx.dev/schemas/codex.schema.json", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}}"#,
            true,
        ),
        (
            "a description key",
            r#"{"description": "d", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}}"#,
            false,
        ),
        (
            "a handler key of its own",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo x", "name": "n"}, GUARD]}]}}"#,
            false,
        ),
        (
            "a rule key of its own",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "extra": 1, "hooks": [GUARD]}]}}"#,
            false,
        ),
        // A corpus file writes its matchers so (attacks row 586).
        (
            "a null matcher",
            r#"{"hooks": {"PreToolUse": [{"matcher": null, "hooks": [GUARD]}]}}"#,
            false,
        ),
        // Attacks row 1685: duplicate keys, which JavaScript clients read as the last one.
        (
            "hooks twice",
            r#"{"hooks": {"Stop": [{"hooks": [GUARD]}]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}}"#,
            true,
        ),
        (
            "an event twice",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Read", "hooks": [GUARD]}], "PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}}"#,
            true,
        ),
        (
            "a handler's command twice",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo x", "command": "echo y"}, GUARD]}]}}"#,
            true,
        ),
        (
            "a matcher twice",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Read", "matcher": "Bash", "hooks": [GUARD]}]}}"#,
            true,
        ),
        // Attacks row 1689: values of the wrong type, which hookx's reader leaves out alone, and
        // two it calls errors that Codex loads the file with.
        (
            "a timeout that is a string",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo x", "timeout": "5"}, GUARD]}]}}"#,
            true,
        ),
        (
            "a command that is a number",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": 5}, GUARD]}]}}"#,
            true,
        ),
        (
            "async a string",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo x", "async": "yes"}, GUARD]}]}}"#,
            true,
        ),
        (
            "a matcher that is a number",
            r#"{"hooks": {"PreToolUse": [{"matcher": 5, "hooks": [{"type": "command", "command": "echo x"}]}, {"matcher": "Bash", "hooks": [GUARD]}]}}"#,
            true,
        ),
        (
            "a timeout of null",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo x", "timeout": null}, GUARD]}]}}"#,
            false,
        ),
        (
            "a timeout of 0",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo x", "timeout": 0}, GUARD]}]}}"#,
            false,
        ),
        (
            "a prompt handler",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "p"}, GUARD]}]}}"#,
            false,
        ),
        (
            "an event that is null",
            r#"{"hooks": {"Stop": null, "PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}}"#,
            true,
        ),
        // `config.toml`'s hooks: Codex reports an error and, for `codex exec`, does not start.
        (
            "config.toml: a handler without type",
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{command = \"echo x\"}, TGUARD]\n",
            true,
        ),
        (
            "config.toml: a timeout of 1.5",
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{type = \"command\", command = \"echo x\", timeout = 1.5}, TGUARD]\n",
            true,
        ),
        (
            "config.toml: a handler key of its own",
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{type = \"command\", command = \"echo x\", name = \"n\"}, TGUARD]\n",
            false,
        ),
    ];
    let toml_guard = r#"{type = "command", command = "echo guard"}"#;
    let mut c = Checks::default();
    for (form, text, refused) in forms {
        let sb = Sandbox::new();
        let file = match text.contains("TGUARD") {
            true => sb.write(
                "home/.codex/config.toml",
                &text.replace("TGUARD", toml_guard),
            ),
            false => sb.write("home/.codex/hooks.json", &text.replace("GUARD", guard)),
        };
        sb.write_config(0);
        let inventory = sb.hook_inventory(&bin);
        let listed = inventory["hooks"].as_array().map_or(0, Vec::len);
        let said = format!("{} {}", inventory["warnings"], inventory["errors"]);
        let codex_refused = listed == 0
            && (said.contains("failed to parse hooks config")
                || inventory["errors"]
                    .as_array()
                    .is_some_and(|e| !e.is_empty()));
        c.that(
            codex_refused == *refused,
            format!("{form}: Codex listed {listed} hooks ({said}), expected refused: {refused}"),
        );
        let hookx = |args: &[&str]| {
            std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
                .args(args)
                .arg("--home")
                .arg(&sb.home)
                .env("HOME", &sb.home)
                .current_dir(&sb.project)
                .output()
                .unwrap()
        };
        let out = hookx(&["validate", &file.display().to_string()]);
        let errors = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        let says = errors.contains("error:") && errors.contains("refuses the whole");
        // Entries hookx calls errors of their own (its reader is stricter there): the file is
        // not said refused, and validate still fails.
        let entry_error = matches!(*form, "a timeout of null" | "a prompt handler");
        c.that(
            says == codex_refused && (out.status.success() != codex_refused || entry_error),
            format!(
                "{form}: Codex refused {codex_refused}, hookx validate (exit {:?}):\n{errors}",
                out.status.code()
            ),
        );
        let doctor = hookx(&["doctor", "--host", "codex"]);
        let doctor = String::from_utf8_lossy(&doctor.stdout).into_owned();
        c.that(
            doctor.contains("never fires: codex") == codex_refused,
            format!("{form}: Codex refused {codex_refused}, hookx doctor:\n{doctor}"),
        );
    }
    c.done("refused whole");
}

/// The README's migration story under Codex (issue 24): the Claude project converted to
/// Copilot, Gemini, Codex and Cursor, `hookx install --host codex`, `hookx trust --yes`, one
/// prompt with a shell call and a patch. Codex runs its own (wrapped) copy; hookx must run
/// neither the Claude file nor the other copies: each rule runs once per event, with Claude's
/// payload. A personal Claude rule routed through hookx in the user scope
/// ([`common::story_user_route`]) puts `hookx run` on every event with all the copies in sight:
/// it runs that rule once per event and no copy. The copies, reviewed in Codex, are then
/// converted again with hookx moved: convert keeps their reviews, and Codex runs them.
fn migration_story_runs_each_rule_once() {
    let Some(l) = live("story", WRITE, |sb| {
        sb.trust_project();
        common::migration_story(
            &sb.project,
            &sb.home,
            "copilot,gemini,codex,cursor",
            "codex",
        );
        common::story_user_route(&sb.project, &sb.home, "codex");
        // The user approves the converted `.codex/hooks.json` in Codex's hook review: the
        // copies. hookx's project route in that file (install routes the events whose copies
        // Codex has not reviewed yet, attacks row 440) has the record install wrote.
        let file = sb.path_of(HookFile::ProjectJson);
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        // Written into the file now (the sandbox keeps it below the model settings), where
        // the convert below reads the reviews.
        let config = sb.home.join(".codex/config.toml");
        let mut recorded = std::fs::read_to_string(&config).unwrap_or_default();
        for (key, hash) in client::trust_entries(&file, &written["hooks"]) {
            if recorded.contains(&format!("[hooks.state.{}]", json!(key))) {
                continue;
            }
            recorded.push_str(&format!(
                "\n[hooks.state.{}]\ntrusted_hash = {}\n",
                json!(key),
                json!(hash)
            ));
        }
        std::fs::write(&config, recorded).unwrap();
        // Then hookx moves (attacks row 442): the copies are converted again through another
        // path to it, so their commands change. convert keeps the review of each (the source
        // is trusted in hookx), and Codex runs them: each still once.
        let moved = sb.home.join("bin/hookx");
        std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_hookx"), &moved).unwrap();
        let out = common::hookx_clean(&sb.project)
            .env("HOME", &sb.home)
            .args([
                "convert",
                ".claude/settings.json",
                "--to",
                "codex",
                "--write",
            ])
            .args(["--hookx", &moved.to_string_lossy()])
            .assert()
            .success();
        let said = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            said.contains("kept Codex's review of 4 handler(s)"),
            "{said}"
        );
        let rewritten = std::fs::read_to_string(&file).unwrap();
        assert!(rewritten.contains(&*moved.to_string_lossy()), "{rewritten}");
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
    // The rewritten copies are Codex's to run, by its own review (a route of hookx's would
    // run their rules as well, so the runs above do not tell).
    if let Some(bin) = client::binary() {
        let inventory = l.sb.hook_inventory(&bin);
        let copies: Vec<&Value> = inventory["hooks"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|h| {
                h["command"].as_str().is_some_and(|c| {
                    c.contains("/bin/hookx' exec ") || c.contains("/bin/hookx exec ")
                })
            })
            .collect();
        c.that(
            copies.len() == 4 && copies.iter().all(|h| h["trustStatus"] == "trusted"),
            format!("Codex lists the rewritten copies as {copies:?}"),
        );
    }
    c.done("story");
}

/// Attacks row 1678: Codex 0.171.0 started in a git worktree of a checkout whose team file is
/// a Claude Bash guard, trusted there in hookx, hookx installed for Codex in the user's scope,
/// only the checkout trusted in Codex's `config.toml`. hookx's route runs in the worktree and
/// follows the checkout's record (rows 1660-1661): the guard's deny is the call's result.
fn a_trusted_guard_denies_when_codex_starts_in_a_worktree() {
    let Some(l) = live("team", WRITE, |sb| {
        let checkout = common::worktree_of_a_guarded_checkout(
            &sb.root,
            &sb.project,
            &sb.home,
            "R1678-CODEX",
            &[&["trust", "--yes"], &["install", "--host", "codex"]],
        );
        sb.user_config(&format!(
            "[projects.{}]\ntrust_level = \"trusted\"\n\n",
            json!(checkout.display().to_string())
        ));
    }) else {
        return;
    };
    let mut c = Checks::default();
    // Which file Codex loads in the worktree, and whether its review of the checkout's entry
    // counts there.
    let listed = client::binary().map(|bin| l.sb.hook_inventory(&bin));
    eprintln!("hooks/list in the worktree: {listed:#?}");
    let result = l.tool_result("team", common::STORY_DENIED);
    c.that(
        l.out.status == Some(0) && result.contains("R1678-CODEX"),
        format!(
            "the guard's deny in the worktree is the call's result: exit {:?}: {result}\n{}",
            l.out.status, l.out.stderr
        ),
    );
    c.done("worktree");
}

/// Attacks row 2022: Codex started in a linked worktree loads the main checkout's
/// `.codex/hooks.json`, not the worktree's own: the worktree's file (a branch that dropped
/// hookx's route) is replaced, yet the checkout's route runs and the guard's deny holds, and
/// `hooks/list` names the checkout's file. `hookx list --host codex` and `doctor` in the
/// worktree name that file too, and say the worktree's own is not loaded.
fn codex_loads_the_checkouts_hooks_file_in_a_worktree() {
    let branch_file = serde_json::json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "echo branch-only-2022"}]}]}})
    .to_string();
    let Some(l) = live("team", WRITE, |sb| {
        let checkout = common::worktree_of_a_guarded_checkout(
            &sb.root,
            &sb.project,
            &sb.home,
            "R2022-CODEX",
            &[&["trust", "--yes"], &["install", "--host", "codex"]],
        );
        common::write(&sb.project, ".codex/hooks.json", &branch_file);
        sb.user_config(&format!(
            "[projects.{}]\ntrust_level = \"trusted\"\n\n",
            json!(checkout.display().to_string())
        ));
    }) else {
        return;
    };
    let mut c = Checks::default();
    let checkout = l.sb.root.join("checkout");
    let listed = client::binary().map(|bin| l.sb.hook_inventory(&bin));
    let sources: Vec<String> = listed
        .iter()
        .flat_map(|v| v["hooks"].as_array().cloned().unwrap_or_default())
        .filter_map(|h| h["sourcePath"].as_str().map(str::to_string))
        .collect();
    eprintln!("hooks/list in the worktree names: {sources:?}");
    c.that(
        sources
            .iter()
            .any(|s| s.starts_with(&checkout.display().to_string()))
            && !sources
                .iter()
                .any(|s| s.starts_with(&l.sb.project.display().to_string())),
        format!("hooks/list in the worktree names the checkout's file only: {listed:#?}"),
    );
    let result = l.tool_result("team", common::STORY_DENIED);
    c.that(
        l.out.status == Some(0) && result.contains("R2022-CODEX"),
        format!(
            "the checkout's route runs in the worktree, the deny holds: exit {:?}: {result}\n{}",
            l.out.status, l.out.stderr
        ),
    );
    let list = common::hookx_at(&l.sb.project, &l.sb.home, &["list", "--host", "codex"]);
    let text = String::from_utf8_lossy(&list.get_output().stdout).into_owned();
    let theirs = checkout.join(".codex/hooks.json").display().to_string();
    c.that(
        text.contains(&theirs),
        format!("`hookx list --host codex` names the file Codex loads ({theirs}):\n{text}"),
    );
    c.done("worktree");
}

/// The team loop under Codex CLI (attacks row 620, [`common::team_loop`]): a Claude guard and
/// a Codex guard, each its file's first `PreToolUse` rule, converted each into the other's
/// file, hookx installed for Codex in both scopes, trusted in hookx, the project trusted in
/// Codex but none of its own entries reviewed (a teammate who just pulled). Codex runs hookx's
/// routes only: each rule once, the Codex guard from its trusted copy in the Claude file, and its
/// deny is the call's result (the plan had taken that copy for the Claude guard's: the Codex
/// guard ran nowhere and its deny was lost).
fn team_loop_runs_each_rule_once() {
    let Some(l) = live("team", WRITE, |sb| {
        sb.trust_project();
        common::team_loop(&sb.project, &sb.home, "codex");
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

/// The four-file team loop under Codex CLI (attacks rows 880-899, [`common::team_of_hosts`]):
/// hooks written for Claude, Gemini, Codex and Copilot, each file converted into the three
/// others', hookx installed for Codex in both scopes, trusted in hookx, the project trusted in
/// Codex but none of its own entries reviewed (a teammate who just pulled): hookx's routes run
/// every rule, each once, and the Codex guard's deny is the call's result.
fn team_of_four_runs_each_rule_once() {
    let Some(l) = live("team", WRITE, |sb| {
        sb.trust_project();
        common::team_of_hosts(&sb.project, &sb.home, "codex", env!("CARGO_BIN_EXE_hookx"));
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

/// The team loop, then the Claude guard taken out and the Claude file converted again (attacks
/// row 630): its copy leaves `.codex/hooks.json`, and hookx's route after it moves up a place
/// (Codex keys its review by place). The route must keep its review: Codex runs it, and it
/// runs the Codex guard from its copy in the Claude file (before, the review stayed at the old
/// place, Codex skipped the route, and the guard's deny was lost).
fn team_loop_route_keeps_its_review_through_a_convert() {
    let Some(l) = live("team", WRITE, |sb| {
        sb.trust_project();
        common::team_loop(&sb.project, &sb.home, "codex");
        let path = sb.project.join(".claude/settings.json");
        let mut claude: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        // The Claude guard (the first group; the Codex guard's copy stays).
        claude["hooks"]["PreToolUse"]
            .as_array_mut()
            .unwrap()
            .remove(0);
        std::fs::write(&path, claude.to_string()).unwrap();
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_clean(&sb.project)
            .env("HOME", &sb.home)
            .args([
                "convert",
                ".claude/settings.json",
                "--to",
                "codex",
                "--write",
            ])
            .args(["--hookx", env!("CARGO_BIN_EXE_hookx")])
            .assert()
            .success();
    }) else {
        return;
    };
    let mut c = Checks::default();
    let runs = common::story_runs(&l.sb.project, "guard");
    c.that(
        runs.len() == 1,
        format!("the Codex guard ran once: {runs:#?}"),
    );
    let result = l.tool_result("team", common::STORY_DENIED);
    c.that(
        result.contains(common::STORY_REASON),
        format!("the Codex guard's deny is the call's result: {result}"),
    );
    c.done("team");
}

/// The team loop as a teammate without hookx finds it (attacks row 622,
/// [`common::team_without_hookx`]): the Claude file converted into Codex's with `--hookx
/// hookx`, every entry of `.codex/hooks.json` reviewed in Codex, no `hookx` on Codex's `PATH`.
/// Codex runs the Codex rules as written; the Claude guard's copy denies a shell call the Codex
/// guard allows ("hookx not found"), the logger's and Stop hook's copies fail without blocking:
/// the prompt reaches the model and the turn ends after its call.
fn team_loop_without_hookx_fails_closed_only_on_the_guard() {
    let path = [("PATH", "/usr/local/bin:/usr/bin:/bin")];
    let Some(l) = live_env("teamallowed", WRITE, &path, |sb| {
        sb.trust_project();
        common::team_without_hookx(&sb.project, &sb.home, "codex", "claude");
        let file = sb.path_of(HookFile::ProjectJson);
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let config = sb.home.join(".codex/config.toml");
        let mut recorded = std::fs::read_to_string(&config).unwrap_or_default();
        for (key, hash) in client::trust_entries(&file, &written["hooks"]) {
            recorded.push_str(&format!(
                "\n[hooks.state.{}]\ntrusted_hash = {}\n",
                json!(key),
                json!(hash)
            ));
        }
        std::fs::write(&config, recorded).unwrap();
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.out.status == Some(0),
        format!("exit {:?}: {}", l.out.status, l.out.stderr),
    );
    for (label, times) in common::TEAM_LABELS.iter().zip([0, 0, 0, 1, 1, 1]) {
        let runs = common::story_runs(&l.sb.project, label);
        c.that(
            runs.len() == times,
            format!("{label} ran {times} times: {runs:#?}"),
        );
    }
    // A call the Codex guard allows: the Claude guard's copy denies it.
    let result = l.tool_result("teamallowed", "team-allowed");
    c.that(
        result.contains("hookx not found"),
        format!("the guard's copy denied the call: {result}"),
    );
    let turns = l.model.turns_of("teamallowed").len();
    c.that(turns == 2, format!("one call, then the end: {turns} turns"));
    c.done("teamallowed");
}

/// The events hookx's own forms are probed on, and the rewrite they carry.
fn hookx_probed() -> (Vec<answers::Probed>, Value) {
    let probed = answers::probed(
        "codex",
        &[("PreToolUse", "hxpre"), ("PostToolUse", "hxpost")],
    );
    (probed, json!({"command": "printf x > r-<name>.txt"}))
}

/// The forms probed ([`form_probe::forms`]).
fn probe_forms() -> &'static [answers::Form] {
    static FORMS: std::sync::OnceLock<Vec<answers::Form>> = std::sync::OnceLock::new();
    FORMS.get_or_init(|| {
        let ask = pre_answer(json!({"permissionDecision": "ask",
            "permissionDecisionReason": "R-NATIVEASK"}));
        form_probe::forms("PreToolUse", &ask, &hookx_probed())
    })
}

/// Whether the form may stop the agent: it is probed in a run of its own.
fn alone(f: &answers::Form) -> bool {
    f.intent == Some(answers::Intent::Stop)
}

/// Every form hookx writes on PreToolUse and PostToolUse, probed against the real client with
/// hookx out of the loop (the recorder prints the form) and checked against the answer book
/// (`answers.json`, see `live_common/answers.rs`); a form that may stop the agent runs alone,
/// with a call after it.
fn hookx_answer_forms() {
    let setup = |sb: &Sandbox, forms: &[&answers::Form]| {
        let hooks: serde_json::Map<String, Value> = ["PreToolUse", "PostToolUse"]
            .iter()
            .map(|e| (e.to_string(), json!([group(sb, None, e)])))
            .collect();
        sb.trusted_hooks(HookFile::UserJson, &Value::Object(hooks));
        for f in forms {
            let when = format!("o-{}.txt", f.name);
            sb.answer(&f.event, &f.name, &when, &f.stdout, &f.stderr, f.exit);
        }
    };
    let run = |scenario: &str, forms: &[&answers::Form]| {
        let l = live(scenario, WRITE, |sb| setup(sb, forms))?;
        for f in forms {
            let result = l.tool_result(scenario, &format!("o-{}.txt", f.name));
            eprintln!("form {:<13} result {result:?}", f.name);
        }
        Some(l)
    };
    let seen = |l: &Live, scenario: &str| (l.sb.project.clone(), l.sent(scenario));
    let Some(entries) = form_probe::probe(probe_forms(), alone, run, seen) else {
        return;
    };
    let version = client::VERSION;
    form_probe::settle("codex-cli", version, "codex", hookx_probed(), entries);
}

/// Attacks rows 1900-1919: two PreToolUse hooks of the user's (reviewed) answering each call
/// their own way (`merge_probe::claude_cases`): what Codex CLI made of each pair (recorded in
/// `tests/fixtures/merged/`) against what `simulate --host codex` says of the same file.
fn several_hooks_answers_merge_as_simulate_says() {
    let cases = merge_probe::claude_cases("c");
    let Some(l) = live("merge", WRITE, |sb| {
        let hooks = json!({"PreToolUse": [group(sb, None, "ma"), group(sb, None, "mb")]});
        sb.trusted_hooks(HookFile::UserJson, &hooks);
        for (label, name, when, a) in merge_probe::answers(&cases) {
            sb.answer(label, name, &when, &a.stdout, &a.stderr, a.exit);
        }
    }) else {
        return;
    };
    let rec = merge_probe::Recording {
        client: "codex-cli".into(),
        version: client::VERSION.into(),
        host: "codex".into(),
        event: "PreToolUse".into(),
        tool: "Bash".into(),
        input: json!({}),
        scopes: None,
        cases: merge_probe::recorded(&cases, &l.sb.project, |when| l.tool_result("merge", when)),
    };
    let mut c = Checks::default();
    c.failed(merge_probe::differences(
        &format!("codex-{}", client::VERSION),
        &rec,
    ));
    c.done("merge");
}

/// The lifecycle events the cadence probe counts, and the tool events beside them.
const CADENCE_EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "SessionEnd",
];

/// Attacks rows 1780-1799: how many times Codex fires each lifecycle event in one session (a
/// prompt, two shell calls and a patch, the answer; then `exec resume --last` with a follow-up
/// prompt), a recorder on each in the user's `hooks.json`: kept in `tests/fixtures/cadence/`,
/// which `tests/cadence_recorded.rs` checks hookx's tables against.
fn lifecycle_events_fire_as_often_as_recorded() {
    let Some(l) = live("cadence", WRITE, |sb| {
        sb.trust_project();
        sb.trusted_hooks(
            HookFile::UserJson,
            &Value::Object(record_everything(sb, "")),
        );
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
        fired: cadence::fired(l.dumps.iter().map(|d| d.label.as_str()), CADENCE_EVENTS),
    };
    let before = l.dumps.len();
    let requests = first.model_requests;
    let bin = client::binary().expect("found by live()");
    // `run` writes the file again from what it holds, before what the file holds.
    std::fs::remove_file(l.sb.home.join(".codex/config.toml")).unwrap();
    let out = l.sb.run(
        &bin,
        l.model.port,
        "and now the follow-up",
        &["-s", "workspace-write", "resume", "--last"],
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
        fired: cadence::fired(
            dumps[before..].iter().map(|d| d.label.as_str()),
            CADENCE_EVENTS,
        ),
    };
    let now = cadence::Recording {
        client: "codex".into(),
        version: client::VERSION.into(),
        host: "codex".into(),
        how: "exec --json -s workspace-write, the fake Responses server; then exec resume --last"
            .into(),
        runs: vec![first, second],
    };
    for d in cadence::settle(&format!("codex-{}", client::VERSION), &now) {
        c.that(false, d);
    }
    c.done("cadence");
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    let stray = std::path::Path::new("/tmp/.git");
    let stray_before = stray.exists();
    let code = harness::main(
        "live_codex",
        &[harness::client(
            "Codex CLI",
            format!(
                "codex-{}/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
                client::VERSION
            ),
        )],
        live_tests![
            a_codex_async_handler_runs_in_the_background,
            a_routed_async_handler_runs_in_the_background,
            several_hooks_answers_merge_as_simulate_says,
            failed_calls_as_codex_fires_them,
            lifecycle_events_fire_as_often_as_recorded,
            approval_modes_and_a_guards_deny,
            a_trusted_guard_denies_when_codex_starts_in_a_worktree,
            codex_loads_the_checkouts_hooks_file_in_a_worktree,
            a_droid_prompt_hooks_exit_3_blocks_the_prompt_under_codex,
            claude_projects_loop,
            ground_truth_tools,
            ground_truth_compact,
            ground_truth_permission,
            ground_truth_agents,
            a_claude_agent_guard_stops_a_codex_spawn,
            pre_tool_use_answers,
            ground_truth_updated_input,
            hookx_answer_forms,
            pre_tool_use_matchers,
            matchers_fire_as_hookx_reads_them,
            converted_corpus_configs,
            only_trusted_handlers_run,
            trust_hashes_are_codex_hashes,
            a_review_record_names_the_user_file_as_codex_does,
            a_route_install_clears_another_handlers_off_switch,
            prompt_and_post_tool_blocks,
            routed_handlers_of_every_dialect_run_under_codex,
            routed_rewrites_run_under_codex,
            a_patch_of_two_files_does_not_pass_a_claude_write_guard,
            a_patch_of_two_hunks_does_not_pass_a_claude_edit_guard,
            ground_truth_interrupt,
            session_end_answers_within_codexs_limit,
            faulty_handlers_beside_a_deny,
            hooks_json_with_comments_or_trailing_commas,
            hooks_json_forms_codex_refuses_whole,
            migration_story_runs_each_rule_once,
            team_loop_runs_each_rule_once,
            team_of_four_runs_each_rule_once,
            team_loop_route_keeps_its_review_through_a_convert,
            team_loop_without_hookx_fails_closed_only_on_the_guard,
            a_cursor_stop_hook_that_always_follows_up_ends_under_codex,
            a_claude_stop_hook_that_always_blocks_ends_under_codex,
            a_claude_stop_hook_that_ends_its_own_loop_blocks_once_under_codex,
            both_scopes_get_one_event,
            a_session_started_in_a_subfolder_runs_the_projects_guard,
            a_wrapper_copy_beside_a_user_route_a_profile_turns_off,
            a_wrapper_copy_beside_a_user_route_an_override_turns_off,
            an_override_turns_on_again_what_a_profile_turns_off,
            a_copy_a_profile_turns_off,
            a_project_marked_by_the_users_own_markers_runs_its_guard,
            no_markers_make_the_folder_codex_started_in_the_project,
            a_folder_with_its_own_route_inside_a_repository_runs_its_guard,
            routes_in_a_repository_root_and_its_package_run_the_roots_guard,
            two_identical_handlers_in_one_file_each_run,
            a_profiles_project_markers_place_the_project,
            an_overrides_project_markers_place_the_project,
            a_route_whose_hookx_moved,
            a_route_whose_hookx_is_in_a_folder_a_shell_would_read,
            mcp_tools_under_codex,
            mcp_names_under_codex,
            a_converted_async_handler_runs_in_the_background,
            another_accounts_git_above_marks_no_project,
            another_accounts_git_above_keeps_the_users_guard,
        ],
    );
    // Codex's sandbox leaves its empty mount point `/tmp/.git` when a shell call of its is
    // killed (attacks row 2365): the suites after this one must not find `/tmp` a project.
    if !stray_before && std::fs::remove_dir(stray).is_ok() {
        println!("live_codex: removed the empty /tmp/.git Codex's sandbox left");
    }
    code
}

/// Attacks row 521: Codex started in a folder below the project (`codex exec -C sub`, or a
/// user in `src/`) loads the project's `.codex/hooks.json` from the repository root and hands
/// hooks `cwd` = the folder it was started in (it sets no project variable). hookx's project
/// route there must still run the project's guard (a trusted Claude rule Codex does not read).
fn a_session_started_in_a_subfolder_runs_the_projects_guard() {
    let Some(l) = live("subfolder", &["-s", "workspace-write", "-C", "sub"], |sb| {
        sb.trust_project();
        std::fs::create_dir_all(sb.project.join("sub")).unwrap();
        let group =
            |label: &str| json!([{"hooks": [{"type": "command", "command": sb.dumper(label)}]}]);
        sb.write(
            "project/.claude/settings.json",
            &client::pretty(&json!({"hooks": {"PreToolUse": group("claude-pre")}})),
        );
        sb.answer("claude-pre", "a", "sub-call",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-SUB-DENY"}}"#, "", 0);
        // A rule of the user's own, which the project route runs too: it shows the route ran.
        sb.write(
            "home/.claude/settings.json",
            &client::pretty(&json!({"hooks": {"PreToolUse": group("user-pre")}})),
        );
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["install", "--host", "codex"]).success();
    }) else {
        return;
    };
    let mut c = Checks::default();
    // The route ran (the user's rule, once), handed Codex's `cwd`: the subfolder.
    let users: Vec<&str> = l
        .dumps
        .iter()
        .filter(|d| d.label == "user-pre")
        .filter_map(|d| d.stdin["cwd"].as_str())
        .collect();
    c.that(
        matches!(users[..], [cwd] if cwd.ends_with("/project/sub")),
        format!("the user's rule ran once, told the subfolder: {users:?}"),
    );
    let denied = l.tool_result("subfolder", "sub-call");
    c.that(
        denied.contains("R-SUB-DENY"),
        format!(
            "the project's guard denies the call of a session started below the project: {denied}\n{}",
            l.out.stderr
        ),
    );
    c.done("subfolder");
}

/// The team's `from` converted into the project's `.codex/hooks.json` (`--hookx` this hookx)
/// with the project and the user's `~/.cursor/hooks.json` trusted in hookx, the copies reviewed
/// in Codex, and hookx's Codex user route installed. Returns the written `.codex/hooks.json`.
fn copies_reviewed_beside_a_user_route(sb: &Sandbox, from: &str) -> Value {
    common::wrapper_copy_converted(&sb.project, &sb.home, from, "codex");
    let copies: Value = serde_json::from_str(
        &std::fs::read_to_string(sb.project.join(".codex/hooks.json")).unwrap(),
    )
    .unwrap();
    sb.trust(HookFile::ProjectJson, &copies["hooks"]);
    common::user_route_naming_this_hookx(&sb.project, &sb.home, "codex");
    copies
}

/// `codex exec`'s arguments with Codex's `work` profile or without.
fn work_profile_args(profile: bool) -> &'static [&'static str] {
    match profile {
        false => &["-s", "workspace-write"],
        true => &["-s", "workspace-write", "--profile", "work"],
    }
}

/// The lines the rules of a run wrote to the sandbox's `ran.log`, sorted.
fn sorted_ran_log(l: &Live) -> Vec<String> {
    common::sorted_lines(&l.sb.root.join("ran.log"))
}

/// The review key of hookx's one Codex user route (`~/.codex/hooks.json`).
fn user_route_key(sb: &Sandbox) -> String {
    let file = sb.home.join(".codex/hooks.json");
    let routes: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let [(key, _)] = &client::trust_entries(&file, &routes["hooks"])[..] else {
        panic!("one user route: {routes}");
    };
    key.clone()
}

/// Codex's `work` profile (`$CODEX_HOME/work.config.toml`, layered on the user's config by
/// `codex exec --profile work`) turning the handler Codex keys `key` off.
fn the_work_profile_turns_off(sb: &Sandbox, key: &str) {
    sb.write(
        "home/.codex/work.config.toml",
        &format!("[hooks.state.{}]\nenabled = false\n", json!(key)),
    );
}

/// Attacks row 605: row 421's prediction against a Codex profile (`codex exec --profile work`:
/// `$CODEX_HOME/work.config.toml` layered on the user's config) that turns hookx's user route
/// off (`[hooks.state."KEY"] enabled = false`). A team's Gemini wrapper (`./hookx-route.sh`,
/// which runs `hookx run --host gemini`) converted into `.codex/hooks.json` (`hookx exec --host
/// codex --as gemini`) and reviewed, a project Cursor rule and one of the user's, hookx's Codex
/// user route; each Cursor rule logs the host it ran under. Without the profile the user route
/// runs them (`codex`); with it, the route inside the copy must (`gemini`), once each.
fn a_wrapper_copy_beside_a_user_route_a_profile_turns_off() {
    let mut c = Checks::default();
    for profile in [false, true] {
        let Some(l) = live("subfolder", work_profile_args(profile), |sb| {
            sb.trust_project();
            let log = sb.root.join("ran.log");
            common::a_wrapper_story(&sb.project, &sb.home, &log, "gemini", true);
            copies_reviewed_beside_a_user_route(sb, ".gemini/settings.json");
            let key = &user_route_key(sb);
            the_work_profile_turns_off(sb, key);
        }) else {
            return;
        };
        let ran = sorted_ran_log(&l);
        let host = if profile { "gemini" } else { "codex" };
        let expected = common::each_wrapper_rule_once(Some(host));
        c.that(
            ran == expected,
            format!(
                "profile {profile}: each rule once for one call: {ran:?}\n{}",
                l.out.stderr
            ),
        );
    }
    c.done("subfolder");
}

/// Attacks row 740: row 605 through Codex's `-c key=value` overrides instead of a profile:
/// the same wrapper copy, Cursor rules and user route, Codex started with an override naming
/// the user route's review key, in each form a user would write it (`-c` takes a dotted path,
/// its value parsed as TOML). Where Codex does not run the user route (an inline table at
/// `hooks.state` or `hooks`), the route inside the copy must run the Cursor rules (`gemini`);
/// where it does (no override, or the key dotted, which Codex 0.171.0 cuts at every `.`), the
/// user route (`codex`).
fn a_wrapper_copy_beside_a_user_route_an_override_turns_off() {
    let mut c = Checks::default();
    // Each override with KEY for the route's review key, as a TOML string.
    let forms = [
        ("none", None),
        ("dotted", Some("hooks.state.KEY.enabled=false")),
        ("inline", Some("hooks.state={KEY={enabled=false}}")),
        ("state", Some("hooks={state={KEY={enabled=false}}}")),
    ];
    for (form, set) in forms {
        let Some(l) = live_args("subfolder", &[], |sb| {
            sb.trust_project();
            let log = sb.root.join("ran.log");
            common::a_wrapper_story(&sb.project, &sb.home, &log, "gemini", true);
            copies_reviewed_beside_a_user_route(sb, ".gemini/settings.json");
            let key = &user_route_key(sb);
            let mut all = vec!["-s".to_string(), "workspace-write".to_string()];
            if let Some(set) = set {
                all.extend([
                    "-c".to_string(),
                    set.replace("KEY", &json!(key).to_string()),
                ]);
            }
            all
        }) else {
            return;
        };
        let ran = sorted_ran_log(&l);
        // Codex cuts a dotted key at every `.`, quotes or not: the review key (a path) is
        // out of its reach that way, and the user route runs.
        let host = if matches!(form, "none" | "dotted") {
            "codex"
        } else {
            "gemini"
        };
        let expected = common::each_wrapper_rule_once(Some(host));
        c.that(
            ran == expected,
            format!(
                "override {form}: each rule once for one call: {ran:?}\n{}",
                l.out.stderr
            ),
        );
    }
    c.done("subfolder");
}

/// Attacks row 860: row 740's leftover, overrides above a profile and above one another. The
/// wrapper copy, Cursor rules and user route of row 605; the `work` profile turning the user
/// route off, or not, or the user's own `config.toml` doing so; then `-c` overrides of its
/// `enabled`, in order. Codex decides by the highest layer that sets `enabled` (the last `-c`
/// above the profile above the user's file):
/// where it runs the user route, the Cursor rules run there (`codex`), else inside the copy
/// (`gemini`), once each.
fn an_override_turns_on_again_what_a_profile_turns_off() {
    let mut c = Checks::default();
    let on = "hooks.state={KEY={enabled=true}}";
    let off = "hooks.state={KEY={enabled=false}}";
    // (case, the profile, the user's own `enabled = false`, the overrides, who runs the rules)
    type Case<'a> = (&'a str, bool, bool, &'a [&'a str], &'a str);
    let cases: [Case; 6] = [
        ("profile off, -c on", true, false, &[on], "codex"),
        ("-c off, -c on", false, false, &[off, on], "codex"),
        ("-c on, -c off", false, false, &[on, off], "gemini"),
        (
            "profile off, -c on, -c off",
            true,
            false,
            &[on, off],
            "gemini",
        ),
        ("config.toml off, -c on", false, true, &[on], "codex"),
        ("config.toml off", false, true, &[], "gemini"),
    ];
    for (case, profile, user_off, overrides, host) in cases {
        let Some(l) = live_args("subfolder", &[], |sb| {
            sb.trust_project();
            let log = sb.root.join("ran.log");
            common::a_wrapper_story(&sb.project, &sb.home, &log, "gemini", true);
            copies_reviewed_beside_a_user_route(sb, ".gemini/settings.json");
            let key = &user_route_key(sb);
            the_work_profile_turns_off(sb, key);
            if user_off {
                let config = sb.home.join(".codex/config.toml");
                let text = std::fs::read_to_string(&config).unwrap();
                let header = format!("[hooks.state.{}]\n", json!(key));
                assert!(text.contains(&header), "{text}");
                let off_there = text.replacen(&header, &format!("{header}enabled = false\n"), 1);
                std::fs::write(&config, off_there).unwrap();
            }
            let mut all: Vec<String> = work_profile_args(profile)
                .iter()
                .map(|a| a.to_string())
                .collect();
            for set in overrides {
                all.extend([
                    "-c".to_string(),
                    set.replace("KEY", &json!(key).to_string()),
                ]);
            }
            all
        }) else {
            return;
        };
        let ran = sorted_ran_log(&l);
        let expected = common::each_wrapper_rule_once(Some(host));
        c.that(
            ran == expected,
            format!(
                "{case}: each rule once for one call, under {host}: {ran:?}\n{}",
                l.out.stderr
            ),
        );
    }
    c.done("subfolder");
}

/// A guard in `dir`'s `.claude/settings.json` (which Codex does not read) denying `sub-call`, a
/// rule of the user's own, both trusted, and hookx's route installed in `dir`'s `.codex/`.
fn guard_routed_from(sb: &Sandbox, dir: &std::path::Path) {
    let group =
        |label: &str| json!([{"hooks": [{"type": "command", "command": sb.dumper(label)}]}]);
    sb.write(
        &format!(
            "{}/.claude/settings.json",
            dir.strip_prefix(&sb.root).unwrap().display()
        ),
        &client::pretty(&json!({"hooks": {"PreToolUse": group("claude-pre")}})),
    );
    sb.answer("claude-pre", "a", "sub-call",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-SUB-DENY"}}"#, "", 0);
    sb.write(
        "home/.claude/settings.json",
        &client::pretty(&json!({"hooks": {"PreToolUse": group("user-pre")}})),
    );
    common::hookx_at(dir, &sb.home, &["trust", "--yes"]).success();
    common::hookx_at(dir, &sb.home, &["install", "--host", "codex"]).success();
}

/// The checks of a run whose route must run the guard [`guard_routed_from`] wrote: the route
/// ran once (the user's rule), told `cwd` ending in `cwd_tail`, and the call was denied.
fn guard_ran(l: &Live, scenario: &str, cwd_tail: &str) {
    let mut c = Checks::default();
    let users: Vec<&str> = l
        .dumps
        .iter()
        .filter(|d| d.label == "user-pre")
        .filter_map(|d| d.stdin["cwd"].as_str())
        .collect();
    c.that(
        matches!(users[..], [cwd] if cwd.ends_with(cwd_tail)),
        format!("the route ran once, told {cwd_tail}: {users:?}"),
    );
    let denied = l.tool_result("subfolder", "sub-call");
    c.that(
        denied.contains("R-SUB-DENY"),
        format!(
            "the project's guard denies the call: {denied}\n{}",
            l.out.stderr
        ),
    );
    c.done(scenario);
}

/// Attacks row 1121: another account's `.git` (a world-writable `/tmp` holding someone's
/// `/tmp/.git`) above the folder Codex starts in, `work/`. The fact: Codex 0.171.0 takes that
/// account's folder for the project: it loads the route there (`.codex/hooks.json`, reviewed,
/// each folder trusted in Codex) and runs it. hookx does not follow it there
/// (`another_accounts_git_above_keeps_the_users_guard`).
fn another_accounts_git_above_marks_no_project() {
    let Some(l) = live_above(|sb| {
        let work = another_accounts_git_above(sb);
        sb.user_config(&format!(
            "[projects.{}]\ntrust_level = \"trusted\"\n\n",
            json!(work.display().to_string())
        ));
        guard_routed_from(sb, &sb.project);
    }) else {
        return;
    };
    let users: Vec<&str> = l
        .dumps
        .iter()
        .filter(|d| d.label == "user-pre")
        .filter_map(|d| d.stdin["cwd"].as_str())
        .collect();
    let mut c = Checks::default();
    c.that(
        matches!(users[..], [cwd] if cwd.ends_with("/project/work")),
        format!("Codex ran the route in the other account's folder once: {users:?}"),
    );
    c.done("another account's .git");
}

/// Attacks row 1121, the attack: the user's own folder `work/` (no `.git`) with a trusted
/// guard, hookx's route in the user scope, another account's `.git` above. hookx took the other
/// account's folder for the project and ran none of `work`'s rules: the call went through.
fn another_accounts_git_above_keeps_the_users_guard() {
    let Some(l) = live_above(|sb| {
        let work = another_accounts_git_above(sb);
        sb.write(
            "project/work/.claude/settings.json",
            &client::pretty(&json!({"hooks": {"PreToolUse": [{"hooks": [
                {"type": "command", "command": sb.dumper("claude-pre")}]}]}})),
        );
        sb.answer("claude-pre", "a", "sub-call",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-SUB-DENY"}}"#, "", 0);
        // A rule of the user's own, which the user route is installed for.
        sb.write(
            "home/.claude/settings.json",
            &client::pretty(&json!({"hooks": {"PreToolUse": [{"hooks": [
                {"type": "command", "command": sb.dumper("user-pre")}]}]}})),
        );
        common::hookx_at(&work, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(
            &work,
            &sb.home,
            &["install", "--host", "codex", "--scope", "user"],
        )
        .success();
    }) else {
        return;
    };
    let mut c = Checks::default();
    let denied = l.tool_result("subfolder", "sub-call");
    c.that(
        denied.contains("R-SUB-DENY"),
        format!(
            "the user's guard denies: {denied}\n{}\nran: {:?}",
            l.out.stderr,
            l.dumps.iter().map(|d| &d.label).collect::<Vec<_>>()
        ),
    );
    c.done("another account's .git, a user route");
}

/// Codex started in `work/` of a folder whose `.git` is another account's, in a sandbox
/// outside `/tmp`: there the `.git` Codex's sandbox makes in `/tmp` while a test beside this
/// one runs a shell call is not above `work/` (attacks row 2365).
fn live_above(setup: impl FnOnce(&Sandbox)) -> Option<Live> {
    let sandbox = Sandbox::new_in(std::path::Path::new("/var/tmp"));
    live_in(sandbox, "subfolder", &[], |sb| {
        setup(sb);
        ABOVE_ARGS.iter().map(|a| a.to_string()).collect()
    })
}

/// Codex started in `work/` of a folder whose `.git` is another account's.
const ABOVE_ARGS: [&str; 5] = [
    "-s",
    "workspace-write",
    "-C",
    "work",
    "--skip-git-repo-check",
];

/// The sandbox's project made another account's (its `.git` owned by uid 4242), with the
/// folder `work/` in it, trusted in Codex as the project is.
fn another_accounts_git_above(sb: &Sandbox) -> std::path::PathBuf {
    sb.trust_project();
    let work = sb.project.join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::os::unix::fs::chown(sb.project.join(".git"), Some(4242), Some(4242)).unwrap();
    work
}

/// Attacks row 560: the user's own `project_root_markers = [".hg"]` in `~/.codex/config.toml`
/// and a Mercurial project (no `.git`), Codex started in `sub/`: Codex 0.171.0 takes the
/// folder holding `.hg` for the project (its markers come from the system and user layers,
/// never a project's), loads its `.codex/hooks.json` and runs hookx's route with `cwd` =
/// `sub`. The route must run the project's guard.
fn a_project_marked_by_the_users_own_markers_runs_its_guard() {
    let args = [
        "-s",
        "workspace-write",
        "-C",
        "sub",
        "--skip-git-repo-check",
    ];
    let Some(l) = live("subfolder", &args, |sb| {
        sb.trust_project();
        sb.user_top("project_root_markers = [\".hg\"]\n");
        std::fs::remove_dir_all(sb.project.join(".git")).unwrap();
        std::fs::create_dir_all(sb.project.join(".hg")).unwrap();
        std::fs::create_dir_all(sb.project.join("sub")).unwrap();
        guard_routed_from(sb, &sb.project);
    }) else {
        return;
    };
    guard_ran(&l, "hg markers", "/project/sub");
}

/// Attacks row 561: `project_root_markers = []` in `~/.codex/config.toml` makes the folder
/// Codex starts in the project (Codex 0.171.0 loads that folder's `.codex/` only), here
/// `pkg/` of a git repository, with hookx's route and a guard of its own. hookx must take
/// `pkg`, not the repository above it, for the project.
fn no_markers_make_the_folder_codex_started_in_the_project() {
    let Some(l) = live("subfolder", &["-s", "workspace-write", "-C", "pkg"], |sb| {
        sb.trust_project();
        sb.user_top("project_root_markers = []\n");
        let pkg = sb.project.join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        guard_routed_from(sb, &pkg);
    }) else {
        return;
    };
    guard_ran(&l, "no markers", "/project/pkg");
}

/// Attacks row 568: a folder of a repository with a `.codex/` of its own (a package of a
/// monorepo: hookx's route and a guard installed there), Codex started in it with its default
/// markers: Codex 0.171.0 loads every `.codex/` from the repository's root down to the folder
/// it started in (`config_loader` `load_project_layers`), so it runs `pkg`'s route, whose
/// project for hookx is `pkg`.
fn a_folder_with_its_own_route_inside_a_repository_runs_its_guard() {
    let Some(l) = live("subfolder", &["-s", "workspace-write", "-C", "pkg"], |sb| {
        sb.trust_project();
        let pkg = sb.project.join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        guard_routed_from(sb, &pkg);
    }) else {
        return;
    };
    guard_ran(&l, "a package's own route", "/project/pkg");
}

/// Attacks row 670: row 568 with hookx's route and a guard in the repository root as well:
/// Codex started in `pkg` runs both route lines, each with `cwd` = `pkg`. The root's guard
/// must run, its deny standing though the package's guard allows; each line names its folder
/// (row 680), so each guard runs once.
fn routes_in_a_repository_root_and_its_package_run_the_roots_guard() {
    let Some(l) = live("subfolder", &["-s", "workspace-write", "-C", "pkg"], |sb| {
        sb.trust_project();
        let pkg = sb.project.join("pkg");
        std::fs::create_dir_all(&pkg).unwrap();
        for (dir, label) in [(&sb.project, "root-pre"), (&pkg, "pkg-pre")] {
            let group = json!([{"hooks": [{"type": "command", "command": sb.dumper(label)}]}]);
            let file = dir
                .strip_prefix(&sb.root)
                .unwrap()
                .join(".claude/settings.json");
            sb.write(
                &file.display().to_string(),
                &client::pretty(&json!({"hooks": {"PreToolUse": group}})),
            );
            common::hookx_at(dir, &sb.home, &["trust", "--yes"]).success();
            common::hookx_at(dir, &sb.home, &["install", "--host", "codex"]).success();
        }
        sb.answer("root-pre", "a", "sub-call",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-ROOT-DENY"}}"#, "", 0);
    }) else {
        return;
    };
    let mut c = Checks::default();
    let ran = |label: &str| l.dumps.iter().filter(|d| d.label == label).count();
    let (root, pkg) = (ran("root-pre"), ran("pkg-pre"));
    c.that(
        root == 1 && pkg == 1,
        format!("each guard ran once: the root's {root} times, the package's {pkg}"),
    );
    let denied = l.tool_result("subfolder", "sub-call");
    c.that(
        denied.contains("R-ROOT-DENY"),
        format!(
            "the root's guard denies the call: {denied}\n{}",
            l.out.stderr
        ),
    );
    c.done("routes in a root and its package");
}

/// Attacks row 681 (row 662's question): one `convert --write` of a file and of its copy's
/// source writes two identical copies into one file. Two handlers with the same command in
/// one `.codex/hooks.json` group, both reviewed: Codex runs each (it keys a handler by its
/// place, and dedupes nothing), so a rule copied twice runs twice per event.
fn two_identical_handlers_in_one_file_each_run() {
    let Some(l) = live("subfolder", WRITE, |sb| {
        sb.trust_project();
        let twin = json!({"type": "command", "command": sb.dumper("twin")});
        let hooks = json!({"PreToolUse": [{"hooks": [twin, twin]}]});
        sb.trusted_hooks(HookFile::ProjectJson, &hooks);
    }) else {
        return;
    };
    let mut c = Checks::default();
    let ran = l.dumps.iter().filter(|d| d.label == "twin").count();
    c.that(
        ran == 2,
        format!("both identical handlers ran: {ran} times"),
    );
    c.done("two identical handlers");
}

/// Attacks row 570: row 560 with the markers in a profile (`codex exec --profile work`,
/// `$CODEX_HOME/work.config.toml`, "layered on top of the base user config").
fn a_profiles_project_markers_place_the_project() {
    let args = [
        "-s",
        "workspace-write",
        "-C",
        "sub",
        "--skip-git-repo-check",
        "--profile",
        "work",
    ];
    let Some(l) = live("subfolder", &args, |sb| {
        sb.trust_project();
        sb.write(
            "home/.codex/work.config.toml",
            "project_root_markers = [\".hg\"]\n",
        );
        std::fs::remove_dir_all(sb.project.join(".git")).unwrap();
        std::fs::create_dir_all(sb.project.join(".hg")).unwrap();
        std::fs::create_dir_all(sb.project.join("sub")).unwrap();
        guard_routed_from(sb, &sb.project);
    }) else {
        return;
    };
    guard_ran(&l, "a profile's markers", "/project/sub");
}

/// Attacks row 740: row 570 with the markers given on Codex's command line (`codex exec -c
/// project_root_markers=[".hg"]`), no file naming them: the `-c` layer counts before the
/// project is looked for, as the profile's does.
fn an_overrides_project_markers_place_the_project() {
    let args = [
        "-s",
        "workspace-write",
        "-C",
        "sub",
        "--skip-git-repo-check",
        "-c",
        r#"project_root_markers=[".hg"]"#,
    ];
    let Some(l) = live("subfolder", &args, |sb| {
        sb.trust_project();
        std::fs::remove_dir_all(sb.project.join(".git")).unwrap();
        std::fs::create_dir_all(sb.project.join(".hg")).unwrap();
        std::fs::create_dir_all(sb.project.join("sub")).unwrap();
        guard_routed_from(sb, &sb.project);
    }) else {
        return;
    };
    guard_ran(&l, "an override's markers", "/project/sub");
}

/// The claim gate (task "claims"): a recorder on every event in the user's
/// `~/.codex/hooks.json` (labelled by event) and one in the project's (`project-…`), both
/// reviewed, one session running the same shell command twice. Codex CLI 0.171.0 hands both
/// hooks of one event the same payload (recorded in `scopes/pairs.json`), and two calls alike
/// differ by `tool_use_id` alone.
fn both_scopes_get_one_event() {
    let Some(l) = live("twice", WRITE, |sb| {
        sb.trust_project();
        sb.trusted_hooks(
            HookFile::UserJson,
            &Value::Object(record_everything(sb, "")),
        );
        sb.trusted_hooks(
            HookFile::ProjectJson,
            &Value::Object(record_everything(sb, "project-")),
        );
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
    c.that(
        apart.as_deref() == Some(&["tool_use_id".to_string()][..]),
        format!("two calls alike differ by: {apart:?}"),
    );
    scopes::record(
        &format!("codex-{}", client::VERSION),
        "codex",
        &user,
        &project,
        &[
            (l.sb.project.display().to_string(), "<project>"),
            (l.sb.home.display().to_string(), "<home>"),
        ],
    );
    c.done("both_scopes_get_one_event");
}

/// Attacks row 642: a project Claude guard (logging `guard`) converted into
/// `.codex/hooks.json` and the copy reviewed, the project trusted, a Cursor rule of the user's
/// (`mine`, which only hookx runs under Codex), hookx's Codex user route;
/// Codex started with `--profile work`, whose `$CODEX_HOME/work.config.toml` turns the copy
/// off. Codex then does not run the copy, and hookx's route must run the guard; without the
/// profile the copy runs it and the route leaves it to the copy: each rule once each time.
fn a_copy_a_profile_turns_off() {
    let mut c = Checks::default();
    for profile in [false, true] {
        let Some(l) = live("subfolder", work_profile_args(profile), |sb| {
            sb.trust_project();
            let log = sb.root.join("ran.log");
            let guard = format!("echo guard >> '{}'", log.display());
            sb.write(
                "project/.claude/settings.json",
                &client::pretty(&json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                    "hooks": [{"type": "command", "command": guard}]}]}})),
            );
            let mine = format!("echo mine >> '{}'", log.display());
            sb.write(
                "home/.cursor/hooks.json",
                &client::pretty(
                    &json!({"version": 1, "hooks": {"beforeShellExecution": [{"command": mine}]}}),
                ),
            );
            let copies = copies_reviewed_beside_a_user_route(sb, ".claude/settings.json");
            let file = sb.project.join(".codex/hooks.json");
            let [(key, _)] = &client::trust_entries(&file, &copies["hooks"])[..] else {
                panic!("one copy: {copies}");
            };
            the_work_profile_turns_off(sb, key);
        }) else {
            return;
        };
        let ran = sorted_ran_log(&l);
        c.that(
            ran == ["guard", "mine"],
            format!(
                "profile {profile}: each rule once for one call: {ran:?}\n{}",
                l.out.stderr
            ),
        );
    }
    c.done("subfolder");
}

/// Attacks rows 1080, 1082, 1084, and 1140 (row 1080 decided) under Codex CLI 0.171.0: hookx
/// moved while the user's route names it (the old file removed, or cut short at nothing), the
/// route reviewed by install, a trusted project Claude guard that Codex runs only through the
/// route (a rule of the user's own, so that the user's route is written); then `install` run again from the new hookx (the line re-pointed and reviewed
/// again). While the home holds a trust record, the route denies the call itself and the model
/// gets its reason; without one (hookx and its state removed) the call runs, nobody trapped.
/// Installed again, the guard denies.
fn a_route_whose_hookx_moved() {
    let mut c = Checks::default();
    for state in ["gone", "empty", "gone, no trust record", "installed again"] {
        let Some(l) = live("subfolder", &["-s", "workspace-write"], |sb| {
            sb.trust_project();
            let group =
                json!([{"hooks": [{"type": "command", "command": sb.dumper("claude-pre")}]}]);
            sb.write(
                "project/.claude/settings.json",
                &client::pretty(&json!({"hooks": {"PreToolUse": group}})),
            );
            sb.answer("claude-pre", "a", "sub-call",
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-SUB-DENY"}}"#, "", 0);
            // A rule of the user's own, so that the user's route is written.
            let users = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
                "command": "true"}]}]}});
            sb.write("home/.claude/settings.json", &users.to_string());
            let users = sb.home.join(".claude/settings.json");
            common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
            common::hookx_at(&sb.project, &sb.home, &["trust", users.to_str().unwrap()]).success();
            let install = |hookx: &str| {
                common::hookx_at(
                    &sb.project,
                    &sb.home,
                    &[
                        "install", "--host", "codex", "--scope", "user", "--hookx", hookx,
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
        let ran = l.dumps.iter().filter(|d| d.label == "claude-pre").count() > 0;
        let result = l.tool_result("subfolder", "sub-call");
        let denied = result.contains("R-SUB-DENY");
        let told = result.contains("hookx is not at");
        let called = result.contains("Process exited with code 0");
        let expected = match state {
            "installed again" => (true, true, false, false),
            "gone, no trust record" => (false, false, false, true),
            _ => (false, false, true, false),
        };
        c.that(
            (ran, denied, told, called) == expected,
            format!(
                "{state}: the guard ran {ran}, denied {denied}, the route's reason told {told}, \
                 the call ran {called} (expected {expected:?}): {result}\n{}",
                l.out.stderr
            ),
        );
    }
    c.done("subfolder");
}

/// The calls of [`approval_modes_and_a_guards_deny`], in order; each prints `ran-NAME` only
/// when it runs.
const CODEX_MODE_CALLS: &[&str] = &["c-ok", "c-deny", "c-ask", "c-own-deny", "c-own-ask"];

/// Attacks row 1720 (row 1500 of the twenty-fifth pass): Codex CLI 0.171.0's modes, `exec` with
/// no option, `-s workspace-write`, `--approve-for-me`,
/// `--dangerously-bypass-approvals-and-sandbox` and each `approval_policy` given with `-c` that
/// it accepts (`untrusted`: "no longer supported", exit 1; `exec` has no `--full-auto`), a
/// trusted Claude guard that denies one call and asks on another through hookx's project
/// route, and Codex's own user hook that denies one and asks on another (ground truth, hookx
/// out of the loop). Every mode: the guard's deny and ask stop their calls, Codex's own deny
/// stops its call and its own ask runs it (why hookx denies for an ask), the control runs.
fn approval_modes_and_a_guards_deny() {
    let mut c = Checks::default();
    let modes: &[&[&str]] = &[
        &[],
        &["-s", "workspace-write"],
        &["--approve-for-me"],
        &["--dangerously-bypass-approvals-and-sandbox"],
        &["-c", "approval_policy=\"on-request\""],
        &["-c", "approval_policy=\"on-failure\""],
        &["-c", "approval_policy=\"never\""],
    ];
    for mode in modes {
        let Some(l) = live("modes", mode, |sb| {
            sb.trust_project();
            let own = json!({"PreToolUse": [group(sb, None, "codex-own")]});
            sb.trusted_hooks(HookFile::UserJson, &own);
            sb.answer("codex-own", "a", "c-own-deny",
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-OWN-DENY"}}"#, "", 0);
            sb.answer("codex-own", "b", "c-own-ask",
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"R-OWN-ASK"}}"#, "", 0);
            let guard = json!([{"matcher": "Bash", "hooks": [
                {"type": "command", "command": sb.dumper("claude-guard")}]}]);
            sb.write(
                "project/.claude/settings.json",
                &client::pretty(&json!({"hooks": {"PreToolUse": guard}})),
            );
            sb.answer("claude-guard", "a", "c-deny",
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-MODE-DENY"}}"#, "", 0);
            sb.answer("claude-guard", "b", "' c-ask",
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"R-MODE-ASK"}}"#, "", 0);
            common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
            common::hookx_at(&sb.project, &sb.home, &["install", "--host", "codex"]).success();
        }) else {
            return;
        };
        let ran = |name: &str| {
            l.tool_result("modes", &format!("' {name}"))
                .contains(&format!("ran-{name}"))
        };
        let results: Vec<_> = CODEX_MODE_CALLS
            .iter()
            .map(|n| (*n, l.tool_result("modes", &format!("' {n}"))))
            .collect();
        l.keep(&format!("modes{}", mode.join("")));
        eprintln!("codex {mode:?}: exit {:?}\n  {results:?}", l.out.status);
        if l.out.status != Some(0) {
            eprintln!("{}", l.out.stderr);
        }
        c.that(
            ran("c-ok"),
            format!("{mode:?}: the control did not run: {results:?}"),
        );
        for name in ["c-deny", "c-ask", "c-own-deny"] {
            c.that(!ran(name), format!("{mode:?}: {name} ran"));
        }
        c.that(
            ran("c-own-ask"),
            format!("{mode:?}: Codex's own ask: {results:?}"),
        );
    }
    c.done("modes");
}

/// Attacks row 1724: a trusted Droid `UserPromptSubmit` hook in the project's
/// `.factory/settings.json` that exits 3 (Droid 0.225.2 blocks the prompt, as at exit 2:
/// "User prompt submission aborted by hook", binary), run by hookx's Codex project route. The
/// prompt never reaches the model: Codex's block ends the run before any model request (and
/// before it, hookx's stop alone was a note Codex cannot take, and the call ran).
fn a_droid_prompt_hooks_exit_3_blocks_the_prompt_under_codex() {
    let Some(l) = live("subfolder", &["-s", "workspace-write"], |sb| {
        sb.trust_project();
        let hook = json!([{"hooks": [{"type": "command", "command": sb.dumper("droid-prompt")}]}]);
        sb.write(
            "project/.factory/settings.json",
            &client::pretty(&json!({"hooks": {"UserPromptSubmit": hook}})),
        );
        sb.answer(
            "droid-prompt",
            "a",
            "SCENARIO:subfolder",
            "",
            "R-PROMPT-ABORT",
            3,
        );
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["install", "--host", "codex"]).success();
    }) else {
        return;
    };
    let mut c = Checks::default();
    c.that(
        l.count("droid-prompt") == 1,
        format!("the Droid hook ran once: {:?}", l.labels()),
    );
    let requests = run::Run::requests(&l, "subfolder");
    c.that(
        requests.is_empty(),
        format!(
            "the prompt reached the model {} time(s); the call's result: {}; stderr: {}",
            requests.len(),
            l.tool_result("subfolder", "sub-call"),
            l.out.stderr
        ),
    );
    c.done("droid-prompt");
}

/// Attacks row 1534 under Codex CLI 0.171.0: hookx's routes installed in both scopes with
/// `--hookx` naming a hookx in a folder [`faults::SHELL_READS`], a trusted project Claude guard that
/// Codex runs only through them; then that hookx removed (the user route's guard for a gone
/// hookx answers, its reason naming the path). The guard's deny, then the route's, is the
/// call's result, and nothing of the folder's name is run.
fn a_route_whose_hookx_is_in_a_folder_a_shell_would_read() {
    let mut c = Checks::default();
    for state in ["there", "gone"] {
        let Some(l) = live("subfolder", &["-s", "workspace-write"], |sb| {
            sb.trust_project();
            let group =
                json!([{"hooks": [{"type": "command", "command": sb.dumper("claude-pre")}]}]);
            sb.write(
                "project/.claude/settings.json",
                &client::pretty(&json!({"hooks": {"PreToolUse": group}})),
            );
            sb.answer("claude-pre", "a", "sub-call",
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-SUB-DENY"}}"#, "", 0);
            let users = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
                "command": "true"}]}]}});
            sb.write("home/.claude/settings.json", &users.to_string());
            let users = sb.home.join(".claude/settings.json");
            common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
            common::hookx_at(&sb.project, &sb.home, &["trust", users.to_str().unwrap()]).success();
            let hookx = faults::odd_hookx(&sb.root);
            for scope in ["user", "project"] {
                let args = [
                    "install",
                    "--host",
                    "codex",
                    "--scope",
                    scope,
                    "--hookx",
                    hookx.to_str().unwrap(),
                ];
                common::hookx_at(&sb.project, &sb.home, &args).success();
            }
            if state == "gone" {
                std::fs::remove_file(&hookx).unwrap();
            }
        }) else {
            return;
        };
        let ran = l.dumps.iter().filter(|d| d.label == "claude-pre").count() > 0;
        let result = l.tool_result("subfolder", "sub-call");
        let denied = result.contains("R-SUB-DENY");
        let told = result.contains(&format!("hookx is not at {}", l.sb.root.display()))
            && result.contains("touch P2`;touch P3&*~");
        let made = faults::made_by_a_folders_name(&l.sb.root);
        let expected = (state == "there", state == "there", state == "gone");
        c.that(
            (ran, denied, told) == expected && made.is_empty(),
            format!(
                "{state}: the guard ran {ran}, denied {denied}, the route's reason told {told} \
                 (expected {expected:?}); made by the folder's name: {made:?}: {result}\n{}",
                l.out.stderr
            ),
        );
    }
    c.done("subfolder");
}

/// Attacks rows 1420-1439, the team's loop under Codex CLI ([`common::claude_loop`]): a Claude
/// project's own hooks (a Bash guard, a logger after every tool, a Stop hook on
/// `stop_hook_active`, a prompt hook's context) converted to Gemini, Codex and Copilot with
/// `--hookx hookx`, hookx installed for Codex in both scopes (its routes reviewed by install),
/// trusted, the project trusted in Codex: hookx's routes run each rule once per event, with
/// Claude's payload; the guard's deny is the call's result, the Stop hook keeps the agent going
/// once, the context reaches the model. Then two teammates on the same clone, the project
/// trusted in Codex: one without hookx (no `hookx` on `PATH`, no `~/.hookx`) who reviewed every
/// handler of `.codex/hooks.json` in Codex (each guard's copy denies, nothing blocks a prompt or
/// a stop), one with hookx in another folder of their `PATH` who ran `install` (routes by name:
/// the file unchanged, their review recorded) and `trust`.
fn claude_projects_loop() {
    let bins = tempfile::tempdir().unwrap();
    let mut c = Checks::default();
    let path = common::hookx_on_path(&bins.path().join("alice"));
    let Some(alice) = live_loop(&mut c, "alice", None, &path, |sb| {
        common::claude_loop(&sb.project, &sb.home, "codex", &path);
    }) else {
        return;
    };
    let posts = ["post Bash echo loop-safe", "post Write "];
    let prompts = common::LOOP_PROMPTED_ONCE;
    for (ok, what) in common::loop_ran_once(&alice.sb.project, &posts, prompts) {
        c.that(ok, format!("alice: {what}"));
    }
    run::loop_answers(&mut c, "alice", &alice, 5);
    let from = Some((&alice.sb.project, &alice.sb.home));
    let bare = "/usr/local/bin:/usr/bin:/bin";
    let Some(bob) = live_loop(&mut c, "without", from, bare, |sb| {
        let file = sb.path_of(HookFile::ProjectJson);
        let written: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let config = sb.home.join(".codex/config.toml");
        let mut recorded = std::fs::read_to_string(&config).unwrap_or_default();
        for (key, hash) in client::trust_entries(&file, &written["hooks"]) {
            recorded.push_str(&format!(
                "\n[hooks.state.{}]\ntrusted_hash = {}\n",
                json!(key),
                json!(hash)
            ));
        }
        std::fs::write(&config, recorded).unwrap();
    }) else {
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
    let Some(carol) = live_loop(&mut c, "elsewhere", from, &path, |sb| {
        let file = std::fs::read(sb.path_of(HookFile::ProjectJson)).unwrap();
        let project = sb.project.to_str().unwrap();
        common::hookx_at(
            &sb.project,
            &sb.home,
            &["install", "--host", "codex", "--hookx", "hookx"],
        )
        .success();
        let after = std::fs::read(sb.path_of(HookFile::ProjectJson)).unwrap();
        assert!(
            file == after,
            "install changed the team's file in {project}"
        );
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
    }) else {
        return;
    };
    for (ok, what) in common::loop_ran_once(&carol.sb.project, &posts, prompts) {
        c.that(ok, format!("hookx elsewhere: {what}"));
    }
    run::loop_answers(&mut c, "hookx elsewhere", &carol, 5);
    c.done("teamloop");
}

/// One run of [`claude_projects_loop`]'s story in a fresh sandbox, the client's `PATH` being
/// `path`, the project trusted in Codex: with `clone`, the project's files copied from that
/// project and home first ([`common::loop_clone`]); `setup` then. Its exit is checked.
fn live_loop(
    c: &mut Checks,
    who: &str,
    clone: Option<(&std::path::PathBuf, &std::path::PathBuf)>,
    path: &str,
    setup: impl FnOnce(&Sandbox),
) -> Option<Live> {
    let l = live_env("teamloop", WRITE, &[("PATH", path)], |sb| {
        sb.trust_project();
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

/// The MCP rows' servers (attacks 1280-1299): names with `_`, `-`, `.` and `__`, each serving
/// `run` and `Bash` (`live_common/mcp_server.js`).
const MCP_SERVERS: &[&str] = &["srv", "my_srv", "x-y", "p.q", "a__b"];

/// The MCP calls the model makes, as Codex CLI 0.171.0 takes them: its MCP tools sit behind
/// `tool_search`, and a call in the namespace `mcp__SERVER` (the server's name with `-` and `.`
/// written `_`) runs.
fn mcp_calls() -> Vec<Call> {
    vec![
        Call::Namespaced("mcp__srv", "run", json!({"text": "c-srv-run"})),
        Call::Namespaced("mcp__srv", "Bash", json!({"command": "c-srv-bash"})),
        Call::Function("exec_command", json!({"cmd": "echo c-builtin-bash"})),
        Call::Namespaced("mcp__my_srv", "run", json!({"text": "c-under-run"})),
        Call::Namespaced("mcp__x_y", "run", json!({"text": "c-dash-run"})),
        Call::Namespaced("mcp__p_q", "run", json!({"text": "c-dot-run"})),
        Call::Namespaced("mcp__a__b", "run", json!({"text": "c-double-run"})),
    ]
}

/// [`mcp_names::CALLS`] as the fake model calls them under Codex CLI 0.171.0: in the namespace
/// `mcp__SERVER` (run). Codex offers no tool of servers `café` and `s p` (its first request's
/// "Deferred tool namespaces" name neither).
const MCP_NAME_CALLS: &[(&str, &str)] = &[
    ("mcp__srv", "run"),
    ("mcp__srv", "my_tool"),
    ("mcp__srv", "dot_tool"),
    ("mcp__srv", "Up_Tool"),
    ("mcp__srv", "a__b"),
    ("mcp__srv", "sp_ace"),
    ("mcp__srv", "t_"),
    ("mcp__x_y", "run"),
    ("mcp__p_q", "run"),
    ("mcp__a__b", "run"),
    ("mcp__Up_Case", "run"),
    ("mcp__caf_", "run"),
    ("mcp__s_p", "run"),
    (
        "mcp__a_very_long_server_name_that_goes_well_past_the_limit_of_64_chars",
        "run",
    ),
];

fn mcp_name_steps() -> Vec<Step> {
    MCP_NAME_CALLS
        .iter()
        .enumerate()
        .map(|(i, (ns, tool))| {
            Step::Calls(vec![Call::Namespaced(
                ns,
                tool,
                json!({"text": mcp_names::text(i)}),
            )])
        })
        .chain([Step::Text("mcp done")])
        .collect()
}

/// `[mcp_servers."NAME"]` for [`mcp_names::SERVERS`].
fn mcp_names_config(sb: &Sandbox) {
    let script = sb.write("mcp_server.js", include_str!("live_common/mcp_server.js"));
    let log = sb.root.join("mcp-ran.log");
    for (s, extra) in mcp_names::SERVERS {
        let args = mcp_names::server_args(&script, s, extra, &log);
        sb.user_config(&format!(
            "[mcp_servers.{}]\ncommand = \"node\"\nargs = {}\n\n",
            json!(s),
            json!(args)
        ));
    }
}

/// Attacks rows 1860-1879, live under Codex CLI 0.171.0: the names each event gives MCP tools
/// whose server or tool holds `-`, `.`, `__`, upper case, a non-ASCII letter, a space, or is
/// long (recorded as `tests/fixtures/mcp-names/codex-0.171.0.json`).
fn mcp_names_under_codex() {
    let mut c = Checks::default();
    let bypass = ["--dangerously-bypass-approvals-and-sandbox"];
    let Some(l) = live("mcpnames", &bypass, |sb| {
        mcp_names_config(sb);
        sb.trusted_hooks(
            HookFile::UserJson,
            &Value::Object(record_everything(sb, "")),
        );
    }) else {
        return;
    };
    let events: Vec<(String, Value)> = l
        .dumps
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    // The namespaces Codex lists to the model.
    let first = l.model.turns_of("mcpnames").first().cloned();
    let text = first.map(|b| b.to_string()).unwrap_or_default();
    let offered: Vec<Value> = text
        .split("\\n- ")
        .skip(1)
        .map(|n| n.split(['\\', ':']).next().unwrap_or_default())
        .filter(|n| n.starts_with("mcp__"))
        .map(|n| json!(n))
        .collect();
    let rec = mcp_names::recording(
        "codex",
        client::VERSION,
        "codex exec --dangerously-bypass-approvals-and-sandbox, [mcp_servers.\"NAME\"] in the user's config.toml (tests/live_codex.rs mcp_names_under_codex)",
        Value::Array(offered),
        &events,
        &l.sb.root.join("mcp-ran.log"),
    );
    if let Some(diff) = mcp_names::check(&format!("codex-{}", client::VERSION), &rec) {
        c.that(false, format!("{diff}\n{}", l.out.stderr));
    }

    // Row 1593: the project's Claude rules naming the servers and tools as configured, routed
    // in: Codex's `mcp__x_y__run` reaches a rule on `x-y`, its deny stops the call.
    let Some(l) = live("mcpnames", &bypass, |sb| {
        mcp_names_config(sb);
        sb.trust_project();
        mcp_claude_rules(sb, "c");
        sb.answer("c-dashed", "a", "", "", "C-DASHED-SAYS-NO", 2);
        common::trust_and_install(&sb.project, &sb.home, "codex");
    }) else {
        return;
    };
    mcp_claude_rules_ran(&mut c, &l, "c", "");

    // Row 2060: the same rules synced into the project's `.codex/hooks.json` (`hookx sync`, a
    // team's loop), the copies reviewed in Codex, no route: Codex matches the copies' own
    // matchers on its rewritten names, so each must be written as Codex writes the names.
    let Some(l) = live("mcpnames", &bypass, |sb| {
        mcp_names_config(sb);
        sb.trust_project();
        mcp_claude_rules(sb, "s");
        let manifest = format!(
            "version = 1\nsources = [{{ path = \".claude/settings.json\", from = \"claude\" }}]\n\n[targets.codex]\nhookx = {:?}\n",
            env!("CARGO_BIN_EXE_hookx")
        );
        sb.write("project/.hookx/sync.toml", &manifest);
        sb.answer("s-dashed", "a", "", "", "S-DASHED-SAYS-NO", 2);
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["sync"]).success();
        let written = std::fs::read_to_string(sb.project.join(".codex/hooks.json")).unwrap();
        let written: Value = serde_json::from_str(&written).unwrap();
        sb.trust(HookFile::ProjectJson, &written["hooks"]);
    }) else {
        return;
    };
    mcp_claude_rules_ran(&mut c, &l, "s", "synced ");
    c.done("mcp_names_under_codex");
}

/// `[mcp_servers."NAME"]` for [`MCP_SERVERS`], each logging the calls that ran to
/// `mcp-ran.log`.
fn mcp_config(sb: &Sandbox) {
    let script = sb.write("mcp_server.js", include_str!("live_common/mcp_server.js"));
    let log = sb.root.join("mcp-ran.log");
    for s in MCP_SERVERS {
        sb.user_config(&format!(
            "[mcp_servers.\"{s}\"]\ncommand = \"node\"\nargs = [{:?}, {s:?}, {:?}]\n\n",
            script.display().to_string(),
            log.display().to_string()
        ));
    }
}

/// Attacks rows 1281, 1284, 1285, 1288, live under Codex CLI 0.171.0 with the MCP server of
/// `live_common/mcp_server.js`. Ground truth first: PreToolUse names an MCP call
/// `mcp__SERVER__TOOL`, no server key, `x-y` and `p.q` written `x_y` and `p_q`; Codex's own
/// `mcp__srv__run`, `mcp__srv__.*`, `mcp__.*` fire on their calls, `^Bash$` never on the MCP tool
/// `Bash`. Then hookx routed in: the user's Copilot rules (which Codex never reads) on
/// `srv-run` (a deny) and `srv-.*`, and the project's Gemini deny on `mcp_my_srv_run`: each
/// fires once on each call it names, with its own agent's name for it, and its deny stops the
/// MCP call.
fn mcp_tools_under_codex() {
    let mut c = Checks::default();
    let matchers: [(&str, Option<&str>, &[&str]); 5] = [
        (
            "all",
            None,
            &[
                "Bash",
                "mcp__a__b__run",
                "mcp__my_srv__run",
                "mcp__p_q__run",
                "mcp__srv__Bash",
                "mcp__srv__run",
                "mcp__x_y__run",
            ],
        ),
        ("exact", Some("mcp__srv__run"), &["mcp__srv__run"]),
        (
            "server",
            Some("mcp__srv__.*"),
            &["mcp__srv__Bash", "mcp__srv__run"],
        ),
        (
            "mcp",
            Some("mcp__.*"),
            &[
                "mcp__a__b__run",
                "mcp__my_srv__run",
                "mcp__p_q__run",
                "mcp__srv__Bash",
                "mcp__srv__run",
                "mcp__x_y__run",
            ],
        ),
        ("bash", Some("^Bash$"), &["Bash"]),
    ];
    let bypass = ["--dangerously-bypass-approvals-and-sandbox"];
    let Some(l) = live("mcp", &bypass, |sb| {
        mcp_config(sb);
        let groups: Vec<Value> = matchers
            .iter()
            .map(|(label, m, _)| group(sb, *m, label))
            .collect();
        sb.trusted_hooks(HookFile::UserJson, &json!({"PreToolUse": groups}));
    }) else {
        return;
    };
    for (label, _, want) in &matchers {
        let mut got: Vec<&str> = l
            .dumps
            .iter()
            .filter(|d| d.label == *label)
            .filter_map(|d| d.stdin["tool_name"].as_str())
            .collect();
        got.sort();
        c.that(
            got == *want,
            format!("Codex's own {label} fired on {got:?}, not {want:?}"),
        );
    }
    let dash = l.dump("all", "c-dash-run");
    c.that(
        dash.is_some_and(|d| {
            d.stdin.get("mcp_server").is_none() && d.stdin["tool_input"]["text"] == "c-dash-run"
        }),
        format!(
            "the MCP call's payload names no server: {:?}",
            dash.map(|d| &d.raw)
        ),
    );
    let ran = std::fs::read_to_string(l.sb.root.join("mcp-ran.log")).unwrap_or_default();
    c.that(
        ran.lines().count() == 6,
        format!("every MCP call ran without hookx: {ran}"),
    );

    let Some(l) = live("mcp", &bypass, |sb| {
        mcp_config(sb);
        sb.trust_project();
        let rule = |label: &str, matcher: &str| json!({"type": "command", "bash": sb.dumper(label), "matcher": matcher});
        sb.write(
            "home/.copilot/hooks/rules.json",
            &json!({"version": 1, "hooks": {"preToolUse": [rule("p-exact", "srv-run"), rule("p-server", "srv-.*")]}}).to_string(),
        );
        sb.answer(
            "p-exact",
            "a",
            "",
            r#"{"permissionDecision":"deny","permissionDecisionReason":"P-EXACT-SAYS-NO"}"#,
            "",
            0,
        );
        sb.write(
            "project/.gemini/settings.json",
            &json!({"hooks": {"BeforeTool": [{"matcher": "mcp_my_srv_run", "hooks": [
                {"type": "command", "command": sb.dumper("g-exact")}]}]}})
            .to_string(),
        );
        sb.answer("g-exact", "a", "", "", "G-EXACT-SAYS-NO", 2);
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(&sb.project, &sb.home, &["install", "--host", "codex"]).success();
        common::hookx_at(
            &sb.project,
            &sb.home,
            &["install", "--host", "codex", "--scope", "user"],
        )
        .success();
    }) else {
        return;
    };
    let name = |d: &client::Dump| {
        d.stdin["toolName"]
            .as_str()
            .or(d.stdin["tool_name"].as_str())
            .unwrap_or_default()
            .to_string()
    };
    for (label, want) in [
        ("p-exact", vec!["srv-run"]),
        ("p-server", vec!["srv-Bash", "srv-run"]),
        ("g-exact", vec!["mcp_my_srv_run"]),
    ] {
        let mut got: Vec<String> = l
            .dumps
            .iter()
            .filter(|d| d.label == label)
            .map(name)
            .collect();
        got.sort();
        c.that(
            got == want,
            format!("{label} ran on {got:?}, not {want:?}\n{}", l.out.stderr),
        );
    }
    let ran = std::fs::read_to_string(l.sb.root.join("mcp-ran.log")).unwrap_or_default();
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
    let sent = l.sent("mcp");
    c.that(
        sent.contains("P-EXACT-SAYS-NO") && sent.contains("G-EXACT-SAYS-NO"),
        "each deny's reason reached the model",
    );
    c.done("mcp_tools_under_codex");
}

/// Attacks rows 1880-1899 (row 1766 of the twenty-sixth pass), live under Codex 0.171.0: real
/// configs of other agents (`converted::SAMPLE`), each handler a recorder, written into the
/// project's `.codex/hooks.json` by `convert --write` (the project trusted, each handler
/// reviewed as Codex's `/hooks` does), run through the matcher probe's session (a shell call, a
/// patch adding a file, one changing it, the end). Each rule runs as often, on the same events
/// and tools, with a payload of the same keys, as hookx's own reading of the source files under
/// Codex (`converted::judge`).
fn converted_corpus_configs() {
    let mut done = None;
    let Some(l) = live("mxprobe", WRITE, |sb| {
        sb.trust_project();
        let sample = converted::convert_sample(
            "codex",
            &sb.project,
            &sb.home,
            &sb.root,
            env!("CARGO_BIN_EXE_hookx"),
            &|label| sb.dumper(label),
        );
        let target = sb.path_of(HookFile::ProjectJson);
        converted::add_catch_all(&target, &|e| sb.dumper(&format!("all-{e}")));
        let file: Value = serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
        sb.trust(HookFile::ProjectJson, &file["hooks"]);
        done = Some(sample);
    }) else {
        return;
    };
    let done = done.unwrap();
    let mut c = Checks::default();
    // Nothing the converted rules answer stops the session: a rule whose folder is not on this
    // machine cannot start, which no agent reads as a block (row 1760).
    c.that(
        l.sb.project.join("notes.txt").exists() && l.out.said().contains("matchers done"),
        format!(
            "the session's patch ran and it ended (no converted rule blocked the prompt or a call): {}",
            l.out.said()
        ),
    );
    let dumps: Vec<(String, Value)> = l
        .dumps
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    let target = l.sb.path_of(HookFile::ProjectJson);
    for d in converted::judge(&l.sb.project, &l.sb.home, "codex", &target, &done, &dumps) {
        c.that(false, d);
    }
    c.done("converted");
}

/// Attacks rows 1840-1859, ground truth: the recorder on every event in `~/.codex/hooks.json`,
/// and four calls that fail: a command's exit 1 (with stderr), a command that cannot start, a
/// `view_image` of a missing file, a patch whose context is not in the file. Which post event
/// fires after each, and whether its payload tells the failure apart (hookx's `failed_call`
/// for Codex: `Unmarked`); recorded as `failed.*`.
fn failed_calls_as_codex_fires_them() {
    let Some(l) = live("failed", WRITE, |sb| {
        sb.trust_project();
        sb.trusted_hooks(
            HookFile::UserJson,
            &Value::Object(record_everything(sb, "")),
        );
        common::write(&sb.project, "notes.txt", "one\n");
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
                d.stdin["tool_response"].clone(),
            )
        })
        .collect();
    eprintln!(
        "codex {} after four failed calls: {posts:#?}",
        client::VERSION
    );
    // Observed 0.171.0: PostToolUse after each command, its output alone (no exit code); none
    // after the failed `view_image` or the patch that does not apply.
    let tools: Vec<&Value> = posts.iter().map(|p| &p.1).collect();
    assert!(
        tools == [&json!("Bash"), &json!("Bash")] && posts.iter().all(|p| p.2.is_string()),
        "PostToolUse after the two commands only: {posts:?}"
    );
    check_recorded("failed", &l, &[]);
}

/// Attacks row 2069 ([`in_background`]): a Claude `async: true` guard converted to Codex, which
/// has the key, so `convert` (and sync) writes `async: true` on the copy, not `exec --async`.
/// Codex 0.171.0 must run it in the background as Claude does: the call runs, the handler sees
/// it, and its deny counts for nothing.
fn a_converted_async_handler_runs_in_the_background() {
    let bypass = ["--dangerously-bypass-approvals-and-sandbox"];
    let Some(l) = live("async", &bypass, |sb| {
        let converted = in_background::converted(&sb.root.join("src"), "codex");
        assert_eq!(
            converted["hooks"]["PreToolUse"][0]["hooks"][0]["async"], true,
            "{converted}"
        );
        sb.trusted_hooks(HookFile::UserJson, &converted["hooks"]);
    }) else {
        return;
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

/// Attacks row 2010 ([`in_background`]): the handler of the Claude `async: true` guard as
/// Codex's own, `async: true` in the user's `hooks.json` (trusted by hash), under Codex CLI
/// 0.171.0, one shell call. Its binary holds "running async … hook synchronously in …", which
/// would make Codex's `async` a guard whose deny counts; run, Codex runs the handler in the
/// background, as Claude and Qwen do: the call runs at once, the deny counts for nothing, and
/// the handler sees the call run. hookx reads every agent's `async: true` so (the route runs
/// such a handler past its answer, `convert` keeps the key for Codex).
fn a_codex_async_handler_runs_in_the_background() {
    let Some(l) = live("async", WRITE, |sb| {
        sb.trusted_hooks(HookFile::UserJson, &in_background::claude_source()["hooks"]);
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

/// Attacks row 2013 (rows 2000, 2001, [`in_background`]): a trusted Claude `async: true`
/// handler on the shell call, and one on `Stop` that logs 2 s later
/// ([`in_background::with_a_late_stop_logger`]), in the project's `.claude/settings.json`,
/// routed by `hookx install --host codex` (the project trusted in Codex), under Codex CLI
/// 0.171.0, one shell call. As under Claude: the call runs at once, the deny counts for
/// nothing, the handler sees the call run, and the Stop logger runs to its end past Codex's.
fn a_routed_async_handler_runs_in_the_background() {
    let Some(l) = live("async", WRITE, |sb| {
        sb.trust_project();
        let source = in_background::with_a_late_stop_logger(in_background::claude_source());
        sb.write("project/.claude/settings.json", &source.to_string());
        common::trust_and_install(&sb.project, &sb.home, "codex");
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
        "the Stop logger ran on past Codex's end, to its own",
    );
    c.done("async");
}

/// Attacks rows 2330-2332 (row 2147's open end, live): on `SessionEnd`, where Codex gives a
/// hook 1 s by default and at most 3 (codex-facts), a Claude rule that hangs beside a logger,
/// routed (`hookx install --host codex`) and converted (`hookx convert --to codex --write`,
/// copies run through `hookx exec`). hookx is started through a shim that appends a line after
/// hookx has answered: a shim Codex cut at its limit writes none. A control of Codex's own (a
/// hook that hangs, in the same file as the copies) shows that Codex does cut one: its process
/// is gone when Codex has exited, and it wrote no line.
fn session_end_answers_within_codexs_limit() {
    // The shim: hookx's answer, its exit code and the event, after hookx has answered.
    let shim = |sb: &Sandbox| {
        let log = sb.root.join("answered.log");
        sb.write(
            "timed-hookx.sh",
            &format!(
                "input=$(cat)\nprintf '%s' \"$input\" | '{hookx}' \"$@\"\nrc=$?\n\
                 event=$(printf '%s' \"$input\" | grep -o '\"hook_event_name\":\"[A-Za-z]*\"')\n\
                 printf '%s %s %s\\n' \"$rc\" \"$event\" \"$1\" >> '{log}'\nexit $rc\n",
                hookx = env!("CARGO_BIN_EXE_hookx"),
                log = log.display(),
            ),
        );
        let path = sb.root.join("timed-hookx.sh");
        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(&path, perms).unwrap();
        path.display().to_string()
    };
    // The rule: a handler that hangs (until the test releases it) beside a logger.
    let rule = |sb: &Sandbox| {
        let release = sb.root.join("release");
        let hang = format!(
            "echo $$ >> '{pids}'; while [ ! -e '{release}' ]; do sleep 0.05; done",
            pids = sb.root.join("hung.pids").display(),
            release = release.display()
        );
        let logger = format!("echo logged >> '{}'", sb.root.join("logger.log").display());
        sb.write(
            "project/.claude/settings.json",
            &client::pretty(&json!({"hooks": {"SessionEnd": [{"hooks": [
                {"type": "command", "command": hang},
                {"type": "command", "command": logger}]}]}})),
        );
    };
    let read =
        |sb: &Sandbox, name: &str| std::fs::read_to_string(sb.root.join(name)).unwrap_or_default();
    let mut c = Checks::default();
    let Some(routed) = live("sessionend", WRITE, |sb| {
        sb.trust_project();
        rule(sb);
        let shim = shim(sb);
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        common::hookx_at(
            &sb.project,
            &sb.home,
            &["install", "--host", "codex", "--hookx", &shim],
        )
        .success();
    }) else {
        return;
    };
    let answered = read(&routed.sb, "answered.log");
    c.that(
        answered
            .lines()
            .any(|l| l == "0 \"hook_event_name\":\"SessionEnd\" run"),
        format!(
            "the route answered SessionEnd before Codex's limit: {answered:?}\n{}",
            routed.out.stderr
        ),
    );
    c.that(
        read(&routed.sb, "logger.log") == "logged\n",
        format!(
            "the logger beside the hanging handler logged once (route): {:?}",
            read(&routed.sb, "logger.log")
        ),
    );
    std::fs::write(routed.sb.root.join("release"), "").unwrap();
    let Some(copied) = live("sessionend", WRITE, |sb| {
        sb.trust_project();
        rule(sb);
        let shim = shim(sb);
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        let convert = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
            .args([
                "convert",
                ".claude/settings.json",
                "--to",
                "codex",
                "--write",
                "--hookx",
                &shim,
            ])
            .current_dir(&sb.project)
            .env("HOME", &sb.home)
            .env_remove("HOOKX_HOME")
            .env_remove("CODEX_HOME")
            .output()
            .unwrap();
        assert!(convert.status.success(), "{convert:?}");
        let mut copies: Value = serde_json::from_str(
            &std::fs::read_to_string(sb.project.join(".codex/hooks.json")).unwrap(),
        )
        .unwrap();
        // The control: a hook of Codex's own that hangs, with no timeout (1 s).
        let control = format!(
            "echo $$ >> '{pids}'; while [ ! -e '{release}' ]; do sleep 0.05; done; echo ended >> '{log}'",
            pids = sb.root.join("control.pids").display(),
            release = sb.root.join("release").display(),
            log = sb.root.join("answered.log").display(),
        );
        copies["hooks"]["SessionEnd"]
            .as_array_mut()
            .unwrap()
            .push(json!({"hooks": [{"type": "command", "command": control}]}));
        sb.trusted_hooks(HookFile::ProjectJson, &copies["hooks"]);
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
    }) else {
        return;
    };
    let answered = read(&copied.sb, "answered.log");
    let execs = answered
        .lines()
        .filter(|l| *l == "0 \"hook_event_name\":\"SessionEnd\" exec")
        .count();
    c.that(
        execs == 2 && !answered.contains("ended"),
        format!(
            "both copies' exec answered SessionEnd before Codex's limit, the control did not: {answered:?}\n{}",
            copied.out.stderr
        ),
    );
    c.that(
        read(&copied.sb, "logger.log") == "logged\n",
        format!(
            "the logger beside the hanging handler logged once (copies): {:?}",
            read(&copied.sb, "logger.log")
        ),
    );
    // Codex cut its own hanging hook: the process is gone once Codex has exited.
    let alive = |pids: &str| {
        pids.lines()
            .filter_map(|p| p.trim().parse::<i32>().ok())
            .filter(|p| std::path::Path::new(&format!("/proc/{p}")).exists())
            .count()
    };
    let control = read(&copied.sb, "control.pids");
    c.that(
        control.lines().count() == 1 && alive(&control) == 0,
        format!(
            "Codex cut its own hanging hook at its limit: pids {control:?}, alive {}",
            alive(&control)
        ),
    );
    std::fs::write(copied.sb.root.join("release"), "").unwrap();
    // Row 2335: a Gemini SessionEnd logger (`timeout: 60000`, ms) converted to Codex is written
    // within the 3 s Codex allows there, so Codex clamps (and warns of) none of the project's
    // hooks; a hook of the user's own asking 60 s is the control Codex warns of.
    let Some(clamped) = live("sessionend", WRITE, |sb| {
        sb.trust_project();
        let logger = format!("echo logged >> '{}'", sb.root.join("logger.log").display());
        sb.write(
            "project/.gemini/settings.json",
            &client::pretty(&json!({"hooks": {"SessionEnd": [{"hooks": [
                {"type": "command", "command": logger, "timeout": 60000}]}]}})),
        );
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        let convert = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
            .args([
                "convert",
                ".gemini/settings.json",
                "--to",
                "codex",
                "--write",
            ])
            .args(["--hookx", env!("CARGO_BIN_EXE_hookx")])
            .current_dir(&sb.project)
            .env("HOME", &sb.home)
            .env_remove("HOOKX_HOME")
            .env_remove("CODEX_HOME")
            .output()
            .unwrap();
        assert!(convert.status.success(), "{convert:?}");
        let copies: Value = serde_json::from_str(
            &std::fs::read_to_string(sb.project.join(".codex/hooks.json")).unwrap(),
        )
        .unwrap();
        sb.trust(HookFile::ProjectJson, &copies["hooks"]);
        sb.trusted_hooks(
            HookFile::UserJson,
            &json!({"SessionEnd": [{"hooks": [
                {"type": "command", "command": "true", "timeout": 60}]}]}),
        );
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
    }) else {
        return;
    };
    // `codex exec` prints the warning nowhere; Codex's own review (`hooks/list`) lists it.
    let inventory = client::binary()
        .map(|bin| clamped.sb.hook_inventory(&bin))
        .unwrap_or_default()
        .to_string();
    let warned = |file: HookFile| {
        let path = clamped.sb.path_of(file).display().to_string();
        inventory.contains(&format!("clamping SessionEnd hook timeout to 3s in {path}"))
    };
    c.that(
        warned(HookFile::UserJson) && !warned(HookFile::ProjectJson),
        format!("Codex clamps the user's 60 s, not the converted copy's: {inventory}"),
    );
    c.that(
        read(&clamped.sb, "logger.log") == "logged\n",
        format!(
            "the converted logger logged once: {:?}",
            read(&clamped.sb, "logger.log")
        ),
    );
    c.done("sessionend");
}

/// Attacks row 2344: the fault matrix in Codex (tests/live_common/faults.rs), which no Codex
/// suite ran: a hanging, slow, crashing, noisy or oversized handler beside a deny, through
/// `hookx run` on Codex's route and through wrapped entries in `.codex/hooks.json` (reviewed)
/// that Codex runs itself: each denied shell call never runs, and the deny's reason (or the
/// failure policy's) is its result.
fn faulty_handlers_beside_a_deny() {
    let mut wrong = Vec::new();
    for via in [faults::Via::Run, faults::Via::Wrapped] {
        let env = [("HOOKX_TEST_HOST_LIMIT_MS", faults::TEST_LIMIT_MS)];
        let Some(l) = live_env("faults", WRITE, &env, |sb| {
            sb.trust_project();
            faults::set_up(via, "codex", &sb.root, &sb.project, &sb.home);
            if via == faults::Via::Wrapped {
                let copies: Value = serde_json::from_str(
                    &std::fs::read_to_string(sb.project.join(".codex/hooks.json")).unwrap(),
                )
                .unwrap();
                sb.trust(HookFile::ProjectJson, &copies["hooks"]);
            }
        }) else {
            return;
        };
        l.keep(&format!("faults-{via:?}"));
        let result = |text: &str| l.tool_result("faults", text);
        wrong.extend(faults::check(
            via,
            "codex",
            &l.sb.root,
            &l.sb.project,
            &result,
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
