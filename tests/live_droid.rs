//! A minimal live suite for Factory Droid 0.225.2: ground truth, then hookx's droid dialect in the
//! loop. `droid exec` offline, its model a custom OpenAI-compatible one (`customModels` in
//! `~/.factory/settings.json`) served by the fake model on 127.0.0.1, with a recording hook on
//! its 9 events. See conformance/README.md.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[path = "live_common/answers.rs"]
mod answers;
#[allow(dead_code)]
#[path = "live_common/cadence.rs"]
mod cadence;
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
#[path = "live_common/merge_probe.rs"]
mod merge_probe;
#[path = "live_common/minimal.rs"]
mod minimal;
#[path = "live_common/recorded.rs"]
mod recorded;
#[path = "live_common/scopes.rs"]
mod scopes;
#[path = "live_common/stamps.rs"]
mod stamps;
// The same OpenAI chat-completions API as Copilot's provider mode (no failing model call here).
#[allow(dead_code)]
#[path = "live_common/chat_server.rs"]
mod server;

use minimal::Sandbox;
use serde_json::{Value, json};
use server::{FakeModel, Step};

/// The platform package: npm has the wrapper `@factory/cli` at 0.225.1 only and its platform
/// packages from 0.225.2 on, so the wrapper finds no binary; the binary is the program.
const VERSION: &str = "0.225.2";

/// Factory Droid's hook events (its hooks reference; all 9 names are in the 0.225.2 binary).
const EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "Notification",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionStart",
    "SessionEnd",
];

fn execute(command: &str) -> Step {
    Step::Tools(vec![(
        "Execute",
        json!({"summary": "Run one shell command", "command": command,
            "riskLevel": "low", "riskLevelReason": "prints text"}),
    )])
}

/// An Execute call the model says is of `risk` (`low`, `medium`, `high`), which Droid's
/// autonomy level weighs.
fn execute_at(command: &str, risk: &str) -> Step {
    Step::Tools(vec![(
        "Execute",
        json!({"summary": "Run one shell command", "command": command,
            "riskLevel": risk, "riskLevelReason": "prints text"}),
    )])
}

/// The calls of [`autonomy_levels_and_a_guards_deny`], in order: (name, risk). Each prints
/// `ran-NAME` only when it runs.
const MODE_CALLS: &[(&str, &str)] = &[
    ("m-ok", "low"),
    ("m-deny", "low"),
    ("m-ask", "low"),
    ("m-after-allow", "low"),
    ("m-after-ask", "low"),
    ("m-allowed-high", "high"),
    ("m-high", "high"),
];

fn scripts(name: &str, project: &str) -> Vec<Step> {
    if name == "approver" {
        return vec![
            execute(merge_probe::APPROVED_CALL),
            Step::Text("approver done"),
        ];
    }
    if let Some(cases) = merge_cases(name) {
        let calls = cases.into_iter();
        let calls = calls.map(|c| execute(&format!("printf x > o-{}.txt", c.name)));
        return calls.chain([Step::Text("merge done")]).collect();
    }
    match name {
        "modes" => MODE_CALLS
            .iter()
            .map(|(n, risk)| execute_at(&format!("printf 'ran-%s\\n' {n}"), risk))
            .chain([Step::Text("modes done")])
            .collect(),
        "tools" => vec![
            execute("echo hello-droid"),
            execute("echo deny-json"),
            execute("echo deny-exit2"),
            Step::Tools(vec![(
                "Read",
                json!({"file_path": format!("{project}/notes.txt")}),
            )]),
            Step::Tools(vec![(
                "Create",
                json!({"file_path": format!("{project}/made.txt"), "content": "one\n"}),
            )]),
            Step::Tools(vec![(
                "Edit",
                json!({"file_path": format!("{project}/made.txt"), "old_str": "one", "new_str": "two"}),
            )]),
            Step::Text("all done"),
        ],
        "mxprobe" => vec![
            execute("echo matcher-probe"),
            Step::Tools(vec![(
                "Create",
                json!({"file_path": format!("{project}/notes.txt"), "content": "one\n"}),
            )]),
            Step::Tools(vec![(
                "Read",
                json!({"file_path": format!("{project}/notes.txt")}),
            )]),
            Step::Tools(vec![(
                "Edit",
                json!({"file_path": format!("{project}/notes.txt"), "old_str": "one", "new_str": "two"}),
            )]),
            Step::Text("matchers done"),
        ],
        "text" => vec![Step::Text("nothing to do")],
        "cadence" => vec![
            execute("echo cadence-one"),
            execute("echo cadence-two"),
            Step::Tools(vec![(
                "Create",
                json!({"file_path": format!("{project}/cadence.txt"), "content": "one\n"}),
            )]),
            Step::Text("cadence done"),
        ],
        "async" => vec![
            execute(&in_background::call(project)),
            Step::Text("async done"),
        ],
        // Attacks rows 1840-1859: four calls that fail, each its own way.
        "failed" => vec![
            execute("echo FAIL-OUT-1840; echo FAIL-ERR-1840 >&2; exit 1"),
            execute("/nonexistent-1840/cannot-start"),
            Step::Tools(vec![(
                "Read",
                json!({"file_path": format!("{project}/missing-1840.txt")}),
            )]),
            Step::Tools(vec![(
                "Edit",
                json!({"file_path": format!("{project}/notes.txt"), "old_str": "absent-1840", "new_str": "new-1840"}),
            )]),
            Step::Text("failed done"),
        ],
        "leftovers" => vec![execute("echo leftover-call"), Step::Text("leftovers done")],
        "exit3" => vec![
            execute("echo exit3-call | tee o-exit3.txt"),
            execute("echo exit3-second | tee o-exit3b.txt"),
            Step::Text("exit3 done"),
        ],
        "twice" => vec![
            execute("echo twice-call"),
            execute("echo twice-call"),
            Step::Text("twice done"),
        ],
        "story" => vec![
            execute("echo story-ok"),
            execute(common::STORY_DENIED),
            Step::Tools(vec![(
                "Create",
                json!({"file_path": format!("{project}/notes.txt"), "content": "one\n"}),
            )]),
            Step::Text("story done"),
        ],
        "forms" => form_names()
            .iter()
            .map(|name| execute(&probe_call(name)))
            .chain([Step::Text("forms done")])
            .collect(),
        // One form that may end the run, then a call that shows whether it did.
        one if one.starts_with("fone-") => {
            let name = &one["fone-".len()..];
            [probe_call(name), probe_call(&format!("{name}after"))]
                .iter()
                .map(|c| execute(c))
                .chain([Step::Text("one done")])
                .collect()
        }
        "task" => vec![
            Step::Tools(vec![(
                "Task",
                json!({"subagent_type": "worker", "description": "Run one command",
                    "prompt": "SCENARIO:sub run echo sub-ok", "await": true}),
            )]),
            Step::Text("task done"),
        ],
        "sub" => vec![execute("echo sub-ok"), Step::Text("sub done")],
        "routed" => vec![
            execute("echo routed-ok"),
            execute("echo claude-deny"),
            execute("echo copilot-deny"),
            execute("echo bricks-block"),
            Step::Text("routed done"),
        ],
        "faults" => faults::commands()
            .iter()
            .map(|c| execute(c))
            .chain([Step::Text("faults done")])
            .collect(),
        _ => vec![Step::Text("unknown scenario")],
    }
}

/// Ground truth: the recorder on every event in `~/.factory/settings.json`; Execute (context
/// after it), Execute denied by JSON, Execute denied by exit 2, Read of a missing file, Create
/// and Edit of a file; a Stop block that continues the turn. The tools Droid offers the model
/// are the ones the droid dialect names.
fn ground_truth_execute_and_answers() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let hooks: serde_json::Map<String, Value> = EVENTS
        .iter()
        .map(|e| {
            let group = json!([{"hooks": [{"type": "command", "command": sb.dumper(e)}]}]);
            (e.to_string(), group)
        })
        .collect();
    user_settings(&sb, &model, Some(Value::Object(hooks)));
    sb.answer("PostToolUse", "a", "hello-droid",
        (r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX-POST"}}"#, "", 0));
    sb.answer("PreToolUse", "a", "deny-json",
        (r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-DENY"}}"#, "", 0));
    sb.answer("PreToolUse", "b", "deny-exit2", ("", "E-EXIT2", 2));
    sb.answer(
        "Stop",
        "a",
        r#""stop_hook_active":false"#,
        (r#"{"decision":"block","reason":"R-STOP-GO-ON"}"#, "", 0),
    );
    let out = run_droid(&sb, &bin, "tools");
    let stderr = String::from_utf8_lossy(&out.stderr);
    keep(&sb, &model, &out, "droid");
    let dumps = sb.dumps();
    let requests = model.requests_of("tools");
    let project = sb.project.display().to_string();
    let mut failed = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failed.push(what)
        }
    };
    check(
        out.status.success(),
        format!("exit {:?}: {stderr}", out.status),
    );
    let labels: Vec<&str> = dumps.iter().map(|d| d.label.as_str()).collect();
    for e in [
        "SessionStart",
        "PreToolUse",
        "PostToolUse",
        "Stop",
        "SessionEnd",
    ] {
        check(labels.contains(&e), format!("{e} fired: {labels:?}"));
    }
    // 0.225.2: `droid exec` fires no UserPromptSubmit.
    check(
        !labels.contains(&"UserPromptSubmit"),
        format!("no UserPromptSubmit: {labels:?}"),
    );
    // Claude's payload keys, Droid's tool names; FACTORY_PROJECT_DIR is the project.
    for d in &dumps {
        check(
            d.stdin["hook_event_name"] == d.label.as_str()
                && d.stdin["session_id"].is_string()
                && d.stdin["cwd"] == project,
            format!("{} common payload: {}", d.label, d.raw),
        );
        check(
            d.env.get("FACTORY_PROJECT_DIR") == Some(&project),
            format!(
                "{} FACTORY_PROJECT_DIR: {:?}",
                d.label,
                d.env.get("FACTORY_PROJECT_DIR")
            ),
        );
    }
    let execute = dumps
        .iter()
        .find(|d| d.label == "PreToolUse" && d.raw.contains("hello-droid"));
    check(
        execute.is_some_and(|d| {
            d.stdin["tool_name"] == "Execute"
                && d.stdin["tool_input"]["command"] == "echo hello-droid"
        }),
        "PreToolUse names Execute with its command".into(),
    );
    let ok = minimal::tool_result(&requests, "hello-droid");
    check(ok.contains("hello-droid"), format!("the call ran: {ok}"));
    // Create and Edit ran, and their hooks got Droid's argument names.
    let made = std::fs::read_to_string(sb.project.join("made.txt")).unwrap_or_default();
    check(
        made == "two\n",
        format!("Create then Edit wrote made.txt: {made:?}"),
    );
    for (tool, keys) in [
        ("Create", &["content", "file_path"][..]),
        ("Edit", &["file_path", "new_str", "old_str"]),
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
    // The tools offered to the model carry the droid dialect's names.
    let offered: Vec<String> = requests
        .first()
        .and_then(|b| b["tools"].as_array())
        .into_iter()
        .flatten()
        .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
        .collect();
    let droid_tables = hookx::dialect::droid::FLAVOR.tables();
    for name in [
        "Execute", "Read", "Create", "Edit", "Glob", "Grep", "Task", "LS",
    ] {
        check(
            offered.iter().any(|o| o == name),
            format!("{name} offered: {offered:?}"),
        );
    }
    for id in ["shell", "read", "write", "edit", "glob", "grep", "task"] {
        let name = droid_tables.tool_name(id).unwrap_or_default();
        check(
            offered.iter().any(|o| o == name),
            format!("the table's {id} tool `{name}` is offered: {offered:?}"),
        );
    }
    // PostToolUse context reaches the model as a user message of its own, after the result.
    check(
        context_after_result(&requests, "CTX-POST"),
        "PostToolUse context as a user message".into(),
    );
    for (call, reason) in [("deny-json", "R-DENY"), ("deny-exit2", "E-EXIT2")] {
        let result = minimal::tool_result(&requests, call);
        check(
            result == format!("Error: {reason}"),
            format!("{call}: denied with {reason}: {result}"),
        );
    }
    let continued = requests
        .iter()
        .any(|b| b["messages"].to_string().contains("R-STOP-GO-ON"));
    check(continued, "Stop block reason reached the model".into());
    check_recorded(&sb, &dumps, "tools");
    assert!(
        failed.is_empty(),
        "{} checks failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// Answer forms probed against Droid 0.225.2 with hookx out of the loop (issue 25): (name, hook,
/// stdout, stderr, exit). The model calls Execute `echo f.NAME.`; a rewrite is `echo rw.NAME.`.
/// `ask` is last: in `droid exec` it may end the run.
const DROID_FORMS: &[(&str, &str, &str, &str, i32)] = &[
    (
        "allowrw",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rw.allowrw."}}}"#,
        "",
        0,
    ),
    (
        "nonerw",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rw.nonerw."}}}"#,
        "",
        0,
    ),
    (
        "denyrw",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-DENYRW","updatedInput":{"command":"echo rw.denyrw."}}}"#,
        "",
        0,
    ),
    (
        "denybare",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
        "",
        0,
    ),
    (
        "exit1deny",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-EXIT1DENY"}}"#,
        "E-EXIT1DENY",
        1,
    ),
    (
        "exit1rw",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rw.exit1rw."}}}"#,
        "",
        1,
    ),
    (
        "exit2allow",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rw.exit2allow."}}}"#,
        "E-EXIT2ALLOW",
        2,
    ),
    (
        "blockold",
        "PreToolUse",
        r#"{"decision":"block","reason":"R-BLOCKOLD"}"#,
        "",
        0,
    ),
    (
        "prectx",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","additionalContext":"C-PRECTX"}}"#,
        "",
        0,
    ),
    (
        "presys",
        "PreToolUse",
        r#"{"systemMessage":"S-PRESYS"}"#,
        "",
        0,
    ),
    ("preplain", "PreToolUse", "P-PREPLAIN", "", 0),
    ("post2", "PostToolUse", "", "E-POST2", 2),
    (
        "post1ctx",
        "PostToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"C-POST1CTX"}}"#,
        "",
        1,
    ),
    (
        "postblock",
        "PostToolUse",
        r#"{"decision":"block","reason":"R-POSTBLOCK"}"#,
        "",
        0,
    ),
    (
        "postsys",
        "PostToolUse",
        r#"{"systemMessage":"S-POSTSYS"}"#,
        "",
        0,
    ),
    (
        "askrw",
        "PreToolUse",
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"R-ASKRW","updatedInput":{"command":"echo rw.askrw."}}}"#,
        "",
        0,
    ),
];

/// The probed call of form `name`: prints `f.NAME.` and leaves `o-NAME.txt` behind.
fn probe_call(name: &str) -> String {
    format!("echo f.{name}. | tee o-{name}.txt")
}

/// The events hookx's own forms are probed on, and the rewrite they carry.
fn hookx_probed() -> (Vec<answers::Probed>, Value) {
    let probed = answers::probed(
        "droid",
        &[("PreToolUse", "hxpre"), ("PostToolUse", "hxpost")],
    );
    (
        probed,
        json!({"command": "echo rw.<name>. | tee r-<name>.txt"}),
    )
}

fn hookx_forms() -> Vec<answers::Form> {
    let (probed, rewrite) = hookx_probed();
    answers::hookx_forms(&probed, &rewrite)
}

/// Whether the form may end a `droid exec` run (`ask`, a stop): it is probed in a run of its
/// own.
fn alone(f: &answers::Form) -> bool {
    matches!(f.intent, Some(answers::Intent::Stop | answers::Intent::Ask))
}

/// The calls of the `forms` run: [`DROID_FORMS`] with hookx's forms that cannot end the run
/// before the last (`askrw`).
fn form_names() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let hand = DROID_FORMS.iter().map(|f| f.0.to_string()).collect();
        let mine = hookx_forms().into_iter().filter(|f| !alone(f));
        answers::before_last(hand, mine.map(|f| f.name))
    })
}

/// What Droid 0.225.2 did with each of [`DROID_FORMS`]: (name, the tool result the model got
/// holds this, texts that reached the model elsewhere, texts that did not).
const DROID_FORMS_SEEN: &[(&str, &str, &[&str], &[&str])] = &[
    ("allowrw", "rw.allowrw.", &[], &[]),
    ("nonerw", "rw.nonerw.", &[], &[]),
    ("denyrw", "Error: R-DENYRW", &[], &[]),
    ("denybare", "Error: Tool execution denied by hook", &[], &[]),
    // JSON counts at exit 1: the deny denies, the rewrite runs.
    ("exit1deny", "Error: R-EXIT1DENY", &[], &["E-EXIT1DENY"]),
    ("exit1rw", "rw.exit1rw.", &[], &[]),
    // Exit 2 denies with stderr over a JSON allow and its rewrite.
    ("exit2allow", "Error: E-EXIT2ALLOW", &[], &[]),
    // The legacy PreToolUse `decision: block` is ignored.
    ("blockold", "f.blockold.", &[], &["R-BLOCKOLD"]),
    ("prectx", "f.prectx.", &[], &["C-PRECTX"]),
    ("presys", "f.presys.", &[], &["S-PRESYS"]),
    ("preplain", "f.preplain.", &[], &["P-PREPLAIN"]),
    ("post2", "f.post2.", &["E-POST2"], &[]),
    ("post1ctx", "f.post1ctx.", &["C-POST1CTX"], &[]),
    // PostToolUse `decision: block`: its reason never reaches the model.
    ("postblock", "f.postblock.", &[], &["R-POSTBLOCK"]),
    ("postsys", "f.postsys.", &[], &["S-POSTSYS"]),
    // `ask` beside a rewrite in `droid exec`: the original runs.
    ("askrw", "f.askrw.", &[], &["rw.askrw."]),
];

/// Every answer form of Droid's PreToolUse and PostToolUse rows, and every form hookx writes on
/// them, against the real client with the raw recorder as the handler: the hand-written forms
/// checked against the facts (conformance/droid-facts.md), every form against the answer book
/// (`answers.json`, see `live_common/answers.rs`).
fn ground_truth_answer_forms() {
    let Some(bin) = droid() else { return };
    let mut book_forms: Vec<answers::Form> = DROID_FORMS
        .iter()
        .map(|(name, hook, stdout, stderr, exit)| answers::hand(name, hook, stdout, stderr, *exit))
        .collect();
    let mine = hookx_forms();
    book_forms.extend(mine.iter().filter(|f| !alone(f)).cloned());
    let run = |scenario: &str, forms: &[&answers::Form]| {
        let sb = Sandbox::new("hookx-live-droid");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let hooks = json!({
            "PreToolUse": [{"hooks": [{"type": "command", "command": sb.dumper("PreToolUse")}]}],
            "PostToolUse": [{"hooks": [{"type": "command", "command": sb.dumper("PostToolUse")}]}],
        });
        user_settings(&sb, &model, Some(hooks));
        for f in forms {
            let out = (f.stdout.as_str(), f.stderr.as_str(), f.exit);
            sb.answer(&f.event, &f.name, &format!("f.{}.", f.name), out);
        }
        let out = run_droid(&sb, &bin, scenario);
        keep(&sb, &model, &out, scenario);
        (sb, model.requests_of(scenario))
    };
    let (sb, requests) = run("forms", &book_forms.iter().collect::<Vec<_>>());
    let sent: String = requests.iter().map(|r| r["messages"].to_string()).collect();
    let result = |requests: &[Value], name: &str| {
        std::panic::catch_unwind(|| minimal::tool_result(requests, &format!("f.{name}.")))
            .unwrap_or_else(|_| "(no result)".into())
    };
    let became = |sb: &Sandbox, requests: &[Value], name: &str| {
        if result(requests, name).contains(&format!("rw.{name}.")) {
            answers::Ran::Rewritten
        } else if sb.project.join(format!("o-{name}.txt")).exists() {
            answers::Ran::Original
        } else {
            answers::Ran::NotRun
        }
    };
    let mut entries = Vec::new();
    for f in &book_forms {
        let effect = f.effect(became(&sb, &requests, &f.name), |t| sent.contains(t), None);
        eprintln!(
            "form {:<13} {effect:?}; result {:?}",
            f.name,
            result(&requests, &f.name)
        );
        entries.push(answers::Entry {
            form: f.clone(),
            effect,
        });
    }
    let mut failed = Vec::new();
    for (name, result_has, seen, unseen) in DROID_FORMS_SEEN {
        let result = result(&requests, name);
        if !result.contains(result_has) {
            failed.push(format!("{name}: result {result:?} lacks {result_has:?}"));
        }
        failed.extend(answers::reach_differs(name, &sent, seen, unseen));
    }
    for f in mine.iter().filter(|f| alone(f)) {
        let scenario = format!("fone-{}", f.name);
        let (sb, requests) = run(&scenario, &[f]);
        let sent: String = requests.iter().map(|r| r["messages"].to_string()).collect();
        let after = became(&sb, &requests, &format!("{}after", f.name));
        let ran = became(&sb, &requests, &f.name);
        let effect = f.effect(
            ran,
            |t| sent.contains(t),
            Some(after == answers::Ran::NotRun),
        );
        eprintln!(
            "form {:<13} {effect:?}; result {:?}",
            f.name,
            result(&requests, &f.name)
        );
        entries.push(answers::Entry {
            form: f.clone(),
            effect,
        });
    }
    let book = answers::Book::new("factory-droid", VERSION, "droid", hookx_probed(), entries);
    failed.extend(book.settle("droid"));
    assert!(
        failed.is_empty(),
        "{} forms differ:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// The merge probes' cases by scenario: `merge` (both hooks in the user's file), `scopes`
/// (the user's, then the project's).
fn merge_cases(scenario: &str) -> Option<Vec<merge_probe::Case>> {
    match scenario {
        "merge" => Some(merge_probe::claude_cases("d")),
        "scopes" => Some(merge_probe::scope_cases("ds")),
        _ => None,
    }
}

/// Attacks rows 2040-2059 (row 1912): two PreToolUse hooks of the user's answering each call
/// their own way (`merge_probe::claude_cases`): what Droid made of each pair (recorded in
/// `tests/fixtures/merged/`) against what `simulate --host droid` says of the same file.
fn several_hooks_answers_merge_as_simulate_says() {
    merge_probe_run("merge", None);
}

/// Attacks row 2051: an allow and a deny by the permission field, one hook in the user's
/// `~/.factory/settings.json`, the other in the project's (`merge_probe::scope_cases`):
/// Droid 0.225.2 takes the first field, so which one decides says which file's hooks it runs
/// first. Recorded in `tests/fixtures/merged/droid-0.225.2-scopes.json`, checked against
/// `simulate --host droid`.
fn hooks_of_the_user_and_the_project_fold_as_simulate_says() {
    merge_probe_run("scopes", Some(["user".into(), "project".into()]));
}

/// Runs the merge probe `scenario` with hook `a` in `scopes[0]`'s file and `b` in
/// `scopes[1]`'s (both the user's without), records it, and checks simulate against it.
fn merge_probe_run(scenario: &str, scopes: Option<[String; 2]>) {
    let Some(bin) = droid() else { return };
    let cases = merge_cases(scenario).unwrap();
    let sb = Sandbox::new("hookx-live-droid");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let label = |l: &str| json!({"hooks": [{"type": "command", "command": sb.dumper(l)}]});
    match &scopes {
        None => {
            let hooks = json!({"PreToolUse": [label("ma"), label("mb")]});
            user_settings(&sb, &model, Some(hooks));
        }
        Some(_) => {
            user_settings(&sb, &model, Some(json!({"PreToolUse": [label("ma")]})));
            let project = json!({"hooks": {"PreToolUse": [label("mb")]}});
            common::write(&sb.project, ".factory/settings.json", &project.to_string());
        }
    }
    for (label, name, when, a) in merge_probe::answers(&cases) {
        sb.answer(label, name, &when, (&a.stdout, &a.stderr, a.exit));
    }
    let out = run_droid(&sb, &bin, scenario);
    keep(&sb, &model, &out, scenario);
    let requests = model.requests_of(scenario);
    let rec = merge_probe::Recording {
        client: "factory-droid".into(),
        version: VERSION.into(),
        host: "droid".into(),
        event: "PreToolUse".into(),
        tool: "Execute".into(),
        input: json!({"summary": "Run one shell command", "riskLevel": "low",
            "riskLevelReason": "prints text"}),
        scopes: scopes.clone(),
        cases: merge_probe::recorded(&cases, &sb.project, |when| {
            std::panic::catch_unwind(|| minimal::tool_result(&requests, when))
                .unwrap_or_else(|_| "(no result)".into())
        }),
    };
    let tag = match scopes {
        None => format!("droid-{VERSION}"),
        Some(_) => format!("droid-{VERSION}-{scenario}"),
    };
    let differ = merge_probe::differences(&tag, &rec);
    assert!(differ.is_empty(), "{scenario}:\n{}", differ.join("\n"));
}

/// Attacks row 2047: a Claude project whose first rule allows every call (an approver) and
/// whose second, its guard, denies the shell call, converted to Droid (`convert --write`):
/// each rule a Droid hook running `hookx exec`. Under Claude the deny holds; Droid 0.225.2
/// reads the first hook's `permissionDecision` only, so the guard's deny, written there alone,
/// was not read and the call ran.
fn a_converted_guard_after_an_approver_still_denies() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    user_settings(&sb, &model, None);
    let file = merge_probe::guard_and_approver(&sb.project, false);
    let hookx = env!("CARGO_BIN_EXE_hookx");
    let args = [
        "convert", &file, "--to", "droid", "--write", "--hookx", hookx,
    ];
    faults::hookx(&sb.project, &sb.home, &args);
    approver_denied(&sb, &bin, &model, "the guard's deny was lost");
}

/// Attacks row 2049: a trusted Claude approver allowing every shell call, run through hookx's
/// user route in `~/.factory/settings.json` (hookx's allow, in the permission field: it skips
/// Droid's prompt), and a hook of the user's own there denying every call by that field, put
/// after the route, then `install` run again. Droid 0.225.2 reads the first hook's
/// `permissionDecision` only, so install puts its route last.
fn a_hook_of_the_users_after_the_route_is_not_hidden_by_its_allow() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    user_settings(&sb, &model, None);
    merge_probe::routed_rule_then_own_hook(
        &sb.project,
        &sb.home,
        "droid",
        ".factory/settings.json",
        "allow",
        "deny",
    );
    approver_denied(&sb, &bin, &model, "the user's deny was hidden");
}

/// Droid's run of the approver probe in `sb` (attacks rows 2047, 2049): asserts the probe's
/// call was denied with the guard's reason; `lost` says what a failure means.
fn approver_denied(sb: &Sandbox, bin: &std::path::Path, model: &FakeModel, lost: &str) {
    let out = run_droid(sb, bin, "approver");
    keep(sb, model, &out, "approver");
    let requests = model.requests_of("approver");
    let result =
        std::panic::catch_unwind(|| minimal::tool_result(&requests, merge_probe::APPROVED_CALL))
            .unwrap_or_else(|_| "(no result)".into());
    merge_probe::assert_denied(&sb.project, &result, lost);
}

/// The pinned binary, or `None` after a skip line.
fn droid() -> Option<std::path::PathBuf> {
    minimal::client(
        &format!("factory-{VERSION}/node_modules/@factory/cli-linux-x64/bin/droid"),
        "Factory Droid",
    )
}

/// `~/.factory/settings.json` naming the fake model, with `hooks` if given.
fn user_settings(sb: &Sandbox, model: &FakeModel, hooks: Option<Value>) {
    let mut settings = json!({
        // Not a GPT name: Droid warns the model about a GPT model on this provider.
        "customModels": [{"model": "hookx-fake", "displayName": "fake",
            "baseUrl": format!("http://127.0.0.1:{}/v1", model.port), "apiKey": "dummy",
            "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}],
    });
    if let Some(hooks) = hooks {
        settings["hooks"] = hooks;
    }
    common::write(&sb.home, ".factory/settings.json", &settings.to_string());
}

/// One `droid exec` run of `scenario` in the sandbox.
fn run_droid(sb: &Sandbox, bin: &std::path::Path, scenario: &str) -> std::process::Output {
    run_droid_with(sb, bin, scenario, &[])
}

/// [`run_droid`] with the extra variables `env`.
fn run_droid_with(
    sb: &Sandbox,
    bin: &std::path::Path,
    scenario: &str,
    env: &[(&str, &str)],
) -> std::process::Output {
    let mut cmd = sb.command(bin);
    cmd.envs(env.iter().copied());
    // Any value passes offline: the custom model carries its own key.
    cmd.env("FACTORY_API_KEY", "dummy")
        .args([
            "exec",
            "-m",
            "custom:fake-0",
            "--auto",
            "high",
            "-o",
            "json",
        ])
        .arg(format!("SCENARIO:{scenario} do the work"));
    sb.run(cmd)
}

/// A `hooks` object with one recorder labelled `label` on `event`.
fn recorder_on(sb: &Sandbox, event: &str, label: &str) -> Value {
    json!({event: [{"hooks": [{"type": "command", "command": sb.dumper(label)}]}]})
}

/// Which files 0.225.2 reads hooks from, each holding a recorder labelled by its file. Per
/// `.factory` folder: `hooks.json` (else the legacy `hooks/hooks.json`), events at the top
/// level, and the `hooks` of `settings.json` both load, an event of the hooks file replacing
/// that event of settings.json; user and project folders both load; `settings.local.json`
/// hooks do not run. Two runs: without and with a project `hooks.json`.
fn files_droid_reads() {
    let Some(bin) = droid() else { return };
    let mut failed = Vec::new();
    for with_project_hooks_json in [false, true] {
        let sb = Sandbox::new("hookx-live-droid-files");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let two = |first: Value, second: Value| {
            let mut both = first;
            both.as_object_mut()
                .unwrap()
                .extend(second.as_object().unwrap().clone());
            both
        };
        user_settings(
            &sb,
            &model,
            Some(two(
                recorder_on(&sb, "SessionStart", "user-settings"),
                recorder_on(&sb, "Stop", "user-settings-shadowed"),
            )),
        );
        let write = |root: &std::path::Path, file: &str, value: Value| {
            common::write(root, file, &value.to_string());
        };
        write(
            &sb.home,
            ".factory/hooks.json",
            recorder_on(&sb, "Stop", "user-hooks-json"),
        );
        let project_settings = two(
            recorder_on(&sb, "SessionStart", "project-settings-shadowed"),
            recorder_on(&sb, "SessionEnd", "project-settings"),
        );
        write(
            &sb.project,
            ".factory/settings.json",
            json!({"hooks": project_settings}),
        );
        write(
            &sb.project,
            ".factory/settings.local.json",
            json!({"hooks": recorder_on(&sb, "Stop", "project-settings-local")}),
        );
        write(
            &sb.project,
            ".factory/hooks/hooks.json",
            recorder_on(&sb, "SessionStart", "project-legacy"),
        );
        if with_project_hooks_json {
            write(
                &sb.project,
                ".factory/hooks.json",
                recorder_on(&sb, "SessionStart", "project-hooks-json"),
            );
        }
        let out = run_droid(&sb, &bin, "text");
        assert!(
            out.status.success(),
            "exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let mut labels: Vec<String> = sb.dumps().into_iter().map(|d| d.label).collect();
        labels.sort();
        let mut expected = vec![
            "project-settings",
            "user-hooks-json",
            "user-settings",
            match with_project_hooks_json {
                true => "project-hooks-json",
                false => "project-legacy",
            },
        ];
        expected.sort();
        if labels != expected {
            failed.push(format!(
                "with a project hooks.json: {with_project_hooks_json}: ran {labels:?}, expected {expected:?}"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// A handler of `label` in a grouped hook file (Claude, Bricks, Gemini, Qwen, Codex shape).
fn grouped(sb: &Sandbox, event: &str, matcher: &str, label: &str) -> Value {
    json!({event: [{"matcher": matcher,
        "hooks": [{"type": "command", "command": sb.dumper(label)}]}]})
}

/// Attacks rows 1450-1469: each of `matcher_probe::MATCHERS` on its own PreToolUse group in
/// the user's settings, a recorder each, over an Execute, a Create, a Read and an Edit: what
/// Droid fires (recorded in `tests/fixtures/matchers/`) against what hookx reads the same
/// file as (`simulate`, on each call's own payload).
fn matchers_fire_as_hookx_reads_them() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let groups: Vec<Value> = matcher_probe::MATCHERS
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let mut g = json!({"hooks": [{"type": "command", "command": sb.dumper(&matcher_probe::label(i))}]});
            if let Some(m) = m {
                g["matcher"] = json!(m);
            }
            g
        })
        .collect();
    user_settings(&sb, &model, Some(json!({"PreToolUse": groups})));
    let out = run_droid(&sb, &bin, "mxprobe");
    keep(&sb, &model, &out, "mxprobe");
    let dumps: Vec<(String, Value)> = sb
        .dumps()
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    let rec = matcher_probe::Recording {
        client: "droid".into(),
        version: VERSION.into(),
        host: "droid".into(),
        event: "PreToolUse".into(),
        file: ".factory/settings.json".into(),
        calls: matcher_probe::observed(&dumps, &sb.root),
    };
    let failed = matcher_probe::differences(&format!("droid-{VERSION}"), &rec, 4);
    assert!(failed.is_empty(), "mxprobe:\n{}", failed.join("\n"));
}

/// hookx in the loop: `hookx install --host droid` (project and user) routes Droid's events to
/// `hookx run --host droid`, which runs trusted handlers of every other dialect. A Claude deny,
/// a Copilot deny and a Bricks block each stop one Droid `Execute`; a Claude PostToolUse context
/// reaches the model; each handler gets its own dialect's payload and `HOOKX_HOST=droid`;
/// Droid's own hook runs once per call (hookx does not run it again, and the two routes do not
/// run the handlers twice).
fn routed_handlers_of_every_dialect() {
    let Some(bin) = droid() else { return };
    let hookx = std::path::PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let sb = Sandbox::new("hookx-live-droid-routed");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    user_settings(&sb, &model, None);
    let write = |root: &std::path::Path, file: &str, value: Value| {
        common::write(root, file, &value.to_string());
    };
    write(
        &sb.project,
        ".factory/settings.json",
        json!({"hooks": grouped(&sb, "PreToolUse", "Execute", "droid-native")}),
    );
    let mut claude = grouped(&sb, "PreToolUse", "Bash", "claude-pre");
    claude["PostToolUse"] =
        grouped(&sb, "PostToolUse", "Bash", "claude-post")["PostToolUse"].take();
    write(&sb.home, ".claude/settings.json", json!({"hooks": claude}));
    write(
        &sb.project,
        ".github/hooks/live.json",
        json!({"version": 1, "hooks": {
            "preToolUse": [{"type": "command", "matcher": "bash", "bash": sb.dumper("copilot-pre")}],
            "PreToolUse": [{"type": "command", "matcher": "Bash", "command": sb.dumper("pascal-pre")}],
        }}),
    );
    let hooks = |value: Value| json!({"hooks": value});
    write(
        &sb.project,
        ".bricks/hooks.json",
        hooks(grouped(&sb, "PreToolUse", "bash", "bricks-pre")),
    );
    write(
        &sb.project,
        ".gemini/settings.json",
        hooks(grouped(
            &sb,
            "BeforeTool",
            "run_shell_command",
            "gemini-pre",
        )),
    );
    write(
        &sb.project,
        ".qwen/settings.json",
        hooks(grouped(&sb, "PreToolUse", "run_shell_command", "qwen-pre")),
    );
    write(
        &sb.project,
        ".codex/hooks.json",
        hooks(grouped(&sb, "PreToolUse", "Bash", "codex-pre")),
    );
    sb.answer("claude-pre", "a", "claude-deny",
        (r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-CLAUDE"}}"#, "", 0));
    sb.answer("claude-post", "a", "routed-ok",
        (r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX-CLAUDE-POST"}}"#, "", 0));
    sb.answer(
        "copilot-pre",
        "a",
        "copilot-deny",
        (
            r#"{"permissionDecision":"deny","permissionDecisionReason":"R-COPILOT"}"#,
            "",
            0,
        ),
    );
    sb.answer(
        "bricks-pre",
        "a",
        "bricks-block",
        (r#"{"decision":"block","reason":"R-BRICKS"}"#, "", 0),
    );
    for args in [
        &["install", "--host", "droid"][..],
        &["install", "--host", "droid", "--scope", "user"],
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
    let user: Value = serde_json::from_str(
        &std::fs::read_to_string(sb.home.join(".factory/settings.json")).unwrap(),
    )
    .unwrap();
    assert!(
        user["customModels"].is_array() && user["hooks"]["PreToolUse"].is_array(),
        "install kept the user's settings and added routes: {user}"
    );
    let mut cmd = sb.command(&bin);
    // The routes name hookx by its absolute path; PATH is left as it is.
    cmd.env("FACTORY_API_KEY", "dummy")
        .args([
            "exec",
            "-m",
            "custom:fake-0",
            "--auto",
            "high",
            "-o",
            "json",
        ])
        .arg("SCENARIO:routed do the work");
    let out = sb.run(cmd);
    keep(&sb, &model, &out, "droid-routed");
    let dumps = sb.dumps();
    let requests = model.requests_of("routed");
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
    for (call, reason) in [
        ("claude-deny", "R-CLAUDE"),
        ("copilot-deny", "R-COPILOT"),
        ("bricks-block", "R-BRICKS"),
    ] {
        let result = minimal::tool_result(&requests, call);
        check(
            result == format!("Error: {reason}"),
            format!("{call}: Droid's Execute denied with {reason}: {result:?}"),
        );
    }
    let ok = minimal::tool_result(&requests, "routed-ok");
    check(
        ok.contains("routed-ok"),
        format!("the allowed call ran: {ok:?}"),
    );
    check(
        context_after_result(&requests, "CTX-CLAUDE-POST"),
        "the Claude PostToolUse context reached the model as a user message".into(),
    );
    // Each handler saw the allowed call once, in its own dialect's payload.
    let seen = |label: &str| -> Vec<&minimal::Dump> {
        dumps
            .iter()
            .filter(|d| d.label == label && d.raw.contains("routed-ok"))
            .collect()
    };
    /// Whether a payload has a dialect's shape.
    type Shape = Box<dyn Fn(&Value) -> bool>;
    /// Claude's keys, with the event and tool under the flavour's names.
    fn claude_shape(event: &'static str, tool: &'static str) -> Shape {
        Box::new(move |v: &Value| {
            v["hook_event_name"] == event
                && v["tool_name"] == tool
                && v["tool_input"]["command"] == "echo routed-ok"
        })
    }
    let payloads: [(&str, Shape, Option<&str>); 8] = [
        (
            "claude-pre",
            (claude_shape("PreToolUse", "Bash")),
            Some("CLAUDE_PROJECT_DIR"),
        ),
        (
            "claude-post",
            (claude_shape("PostToolUse", "Bash")),
            Some("CLAUDE_PROJECT_DIR"),
        ),
        (
            "copilot-pre",
            Box::new(|v: &Value| {
                v["toolName"] == "bash"
                    && v["toolArgs"]["command"] == "echo routed-ok"
                    && v["timestamp"].is_number()
            }),
            Some("COPILOT_PROJECT_DIR"),
        ),
        (
            "pascal-pre",
            (claude_shape("PreToolUse", "Bash")),
            Some("COPILOT_PROJECT_DIR"),
        ),
        (
            "bricks-pre",
            (claude_shape("PreToolUse", "bash")),
            Some("BRICKS_PROJECT_DIR"),
        ),
        (
            "gemini-pre",
            (claude_shape("BeforeTool", "run_shell_command")),
            Some("GEMINI_PROJECT_DIR"),
        ),
        (
            "qwen-pre",
            (claude_shape("PreToolUse", "run_shell_command")),
            Some("QWEN_PROJECT_DIR"),
        ),
        ("codex-pre", (claude_shape("PreToolUse", "Bash")), None),
    ];
    for (label, shape, project_var) in &payloads {
        let runs = seen(label);
        check(
            runs.len() == 1,
            format!("{label} ran {} times on the allowed call", runs.len()),
        );
        let Some(d) = runs.first() else { continue };
        check(
            shape(&d.stdin),
            format!("{label} got its own dialect's payload: {}", d.raw),
        );
        check(
            d.env.get("HOOKX_HOST").map(String::as_str) == Some("droid"),
            format!(
                "{label} told HOOKX_HOST=droid: {:?}",
                d.env.get("HOOKX_HOST")
            ),
        );
        if let Some(var) = project_var {
            check(
                d.env.get(*var) == Some(&project),
                format!("{label} got {var}: {:?}", d.env.get(*var)),
            );
        }
        check(
            !d.env.contains_key("FACTORY_PROJECT_DIR"),
            format!("{label} got no Droid variables"),
        );
    }
    // Droid's own hook ran natively once per Execute call; hookx left it alone.
    let native = dumps.iter().filter(|d| d.label == "droid-native").count();
    check(
        native == 4,
        format!("the native Droid hook ran {native} times for 4 calls"),
    );
    assert!(
        failed.is_empty(),
        "{} checks failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// Whether `text` reached the model as a user message right after a tool result.
fn context_after_result(requests: &[Value], text: &str) -> bool {
    requests.iter().any(|b| {
        let m = b["messages"].as_array().cloned().unwrap_or_default();
        m.windows(2)
            .any(|w| w[0]["role"] == "tool" && w[1]["role"] == "user" && w[1]["content"] == text)
    })
}

/// With `HOOKX_LIVE_KEEP`, the sandbox, the requests and stdout under `$HOOKX_LIVE_KEEP/name`.
fn keep(sb: &Sandbox, model: &FakeModel, out: &std::process::Output, name: &str) {
    if let Some(keep) = std::env::var_os("HOOKX_LIVE_KEEP") {
        let keep = std::path::Path::new(&keep).join(name);
        let _ = std::fs::remove_dir_all(&keep);
        common::copy_tree(&sb.root, &keep);
        let requests = serde_json::to_string_pretty(&model.chats()).unwrap();
        std::fs::write(keep.join("requests.json"), requests).unwrap();
        std::fs::write(keep.join("stdout.txt"), &out.stdout).unwrap();
    }
}

/// A `Task` subagent (Droid's built-in `worker`, awaited): PreToolUse names Task with Droid's
/// arguments, and offline the subagent cannot start (it needs Droid's daemon), so no
/// SubagentStop fires: that event stays unverified.
fn subagent_task_needs_the_daemon() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid-task");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let hooks: serde_json::Map<String, Value> = EVENTS
        .iter()
        .map(|e| (e.to_string(), recorder_on(&sb, e, e)[e].clone()))
        .collect();
    user_settings(&sb, &model, Some(Value::Object(hooks)));
    let out = run_droid(&sb, &bin, "task");
    keep(&sb, &model, &out, "droid-task");
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let dumps = sb.dumps();
    let task = dumps
        .iter()
        .find(|d| d.label == "PreToolUse" && d.stdin["tool_name"] == "Task");
    assert!(
        task.is_some_and(|d| {
            d.stdin["tool_input"]["subagent_type"] == "worker"
                && d.stdin["tool_input"]["prompt"] == "SCENARIO:sub run echo sub-ok"
        }),
        "PreToolUse names Task with its arguments: {dumps:?}"
    );
    let result = minimal::tool_result(&model.requests_of("task"), "SCENARIO:sub");
    assert!(
        result.contains("Could not reach the daemon"),
        "the subagent did not start offline: {result}"
    );
    assert!(
        !dumps.iter().any(|d| d.label == "SubagentStop"),
        "no SubagentStop: {dumps:?}"
    );
    check_recorded(&sb, &dumps, "task");
}

/// Compares the payloads with the recordings of `scenario` (`HOOKX_RECORD=1` re-records).
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
        client: "factory-droid",
        version: VERSION,
        folder: "droid",
        host: "droid",
        events: EVENTS,
        relevant_env: |key| {
            // What Droid sets for hooks, less the key the run gave it.
            (key.starts_with("FACTORY_") || key.starts_with("CLAUDE_") || key.starts_with("DROID_"))
                && key != "FACTORY_API_KEY"
        },
        placeholders: vec![
            (project.replace('/', "-"), "<project-slug>"),
            (project.clone(), "<project>"),
            (sb.home.display().to_string(), "<home>"),
        ],
    }
    .check(scenario, &seen, &[]);
}

/// `hooksDisabled: true` among the events of `~/.factory/settings.json` (binary 0.225.2, the
/// `/hooks` switch): no hook runs, the project's included; with `false` both run.
fn hooks_disabled_turns_every_hook_off() {
    let Some(bin) = droid() else { return };
    let mut ran = Vec::new();
    for disabled in [false, true] {
        let sb = Sandbox::new("hookx-live-droid-off");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let mut user = recorder_on(&sb, "SessionStart", "user-settings");
        user["hooksDisabled"] = disabled.into();
        user_settings(&sb, &model, Some(user));
        common::write(
            &sb.project,
            ".factory/hooks.json",
            &recorder_on(&sb, "SessionStart", "project-hooks-json").to_string(),
        );
        let out = run_droid(&sb, &bin, "text");
        assert!(
            out.status.success(),
            "exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let mut labels: Vec<String> = sb.dumps().into_iter().map(|d| d.label).collect();
        labels.sort();
        ran.push(labels);
    }
    assert_eq!(
        ran,
        [vec!["project-hooks-json", "user-settings"], vec![]],
        "hooks run with hooksDisabled false, then true"
    );
}

/// A project `.factory/settings.json` holding a SessionStart recorder and, on another event, one
/// entry Droid 0.225.2 cannot read (attacks row 187): Droid runs none of the file's hooks, the
/// recorder included, without a word; the user's own file runs on. `hookx list --host droid`
/// must say nobody runs the recorder exactly then, and `hookx validate` say why.
fn settings_forms_droid_skips_whole() {
    let Some(bin) = droid() else { return };
    let mut failed = Vec::new();
    let forms: &[(&str, Value, bool)] = &[
        ("plain", json!({}), true),
        (
            "a handler without type on PreToolUse",
            json!({"PreToolUse": [{"matcher": "Execute", "hooks": [{"command": "true"}]}]}),
            false,
        ),
        (
            "a matcher that is a number on Stop",
            json!({"Stop": [{"matcher": 5, "hooks": [{"type": "command", "command": "true"}]}]}),
            false,
        ),
        (
            "a timeout \"5\"",
            json!({"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": "5"}]}]}),
            false,
        ),
        (
            "an unknown type",
            json!({"Stop": [{"hooks": [{"type": "nosuch", "command": "true"}]}]}),
            false,
        ),
        (
            "a timeout of 0",
            json!({"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 0}]}]}),
            true,
        ),
        (
            "a negative timeout",
            json!({"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": -1}]}]}),
            true,
        ),
        (
            "a fractional timeout",
            json!({"Stop": [{"hooks": [{"type": "command", "command": "true", "timeout": 1.5}]}]}),
            true,
        ),
        (
            "a matcher that is null on PreToolUse",
            json!({"PreToolUse": [{"matcher": null, "hooks": [{"type": "command", "command": "true"}]}]}),
            false,
        ),
        (
            "async a string",
            json!({"Stop": [{"hooks": [{"type": "command", "command": "true", "async": "yes"}]}]}),
            true,
        ),
        (
            "a statusMessage that is a number",
            json!({"Stop": [{"hooks": [{"type": "command", "command": "true", "statusMessage": 5}]}]}),
            true,
        ),
        (
            "an if that is a number",
            json!({"Stop": [{"hooks": [{"type": "command", "command": "true", "if": 5}]}]}),
            true,
        ),
        (
            "an http handler without url",
            json!({"Stop": [{"hooks": [{"type": "http"}]}]}),
            false,
        ),
        (
            "a prompt handler without prompt",
            json!({"Stop": [{"hooks": [{"type": "prompt"}]}]}),
            false,
        ),
        ("an event that is null", json!({"Stop": null}), false),
        (
            "an empty handler list",
            json!({"Stop": [{"hooks": []}]}),
            true,
        ),
        (
            "an empty command",
            json!({"Stop": [{"hooks": [{"type": "command", "command": ""}]}]}),
            true,
        ),
    ];
    for (form, extra, runs) in forms {
        let sb = Sandbox::new("hookx-live-droid-strict");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let user = recorder_on(&sb, "SessionStart", "user-settings");
        user_settings(&sb, &model, Some(user));
        let mut project = recorder_on(&sb, "SessionStart", "project-settings");
        for (k, v) in extra.as_object().unwrap() {
            project[k] = v.clone();
        }
        let file = common::write(
            &sb.project,
            ".factory/settings.json",
            &json!({"hooks": project}).to_string(),
        );
        let out = run_droid(&sb, &bin, "text");
        let labels: Vec<String> = sb.dumps().into_iter().map(|d| d.label).collect();
        let ran = labels.iter().any(|l| l == "project-settings");
        if ran != *runs || !labels.iter().any(|l| l == "user-settings") {
            failed.push(format!(
                "{form}: ran {labels:?}, exit {:?}",
                out.status.code()
            ));
        }
        let hookx = |args: &[&str]| {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
                .args(args)
                .arg("--project")
                .arg(&sb.project)
                .arg("--home")
                .arg(&sb.home)
                .env("HOME", &sb.home)
                .env_remove("HOOKX_HOME")
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).into_owned()
        };
        let list = hookx(&["list", "--host", "droid"]);
        let nobody = list
            .lines()
            .filter(|l| l.starts_with("  droid  SessionStart"))
            .any(|l| l.contains("nobody (Droid refuses the whole of .factory/settings.json"));
        if nobody == ran {
            failed.push(format!(
                "{form}: Droid ran the recorder {ran}, hookx list:\n{list}"
            ));
        }
        let v = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
            .arg("validate")
            .arg(&file)
            .output()
            .unwrap();
        let v = String::from_utf8_lossy(&v.stdout).into_owned();
        if v.contains("Factory Droid 0.225.2 runs none of this file's hooks") == ran {
            failed.push(format!(
                "{form}: Droid ran the recorder {ran}, hookx validate:\n{v}"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// A project's `.factory/settings.json` leaves the user's hooks as they are (Droid 0.225.2,
/// attacks row 161): its `hooksDisabled: true` does not turn off those of
/// `~/.factory/settings.json` (hookx's user route among them; the table's `host_wide: false`),
/// and neither its `env` nor a `.env` beside it reaches them.
fn a_projects_settings_and_the_users_hooks() {
    let Some(bin) = droid() else { return };
    for way in ["none", "hooksDisabled", "env", ".env"] {
        let sb = Sandbox::new("hookx-live-droid-project");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let probe = sb.root.join("probe.log");
        let user = json!({"SessionStart": [{"hooks": [{"type": "command", "command":
            format!("echo \"HXPROBE=$HXPROBE PATH=$PATH LD_PRELOAD=$LD_PRELOAD BASH_ENV=$BASH_ENV\" >> '{}'", probe.display())}]}]});
        user_settings(&sb, &model, Some(user));
        match way {
            "hooksDisabled" => {
                common::write(
                    &sb.project,
                    ".factory/settings.json",
                    r#"{"hooksDisabled": true}"#,
                );
            }
            "env" => {
                common::write(
                    &sb.project,
                    ".factory/settings.json",
                    r#"{"env": {"HXPROBE": "seen", "PATH": "/repo-tools:/usr/bin:/bin", "LD_PRELOAD": "/repo.so", "BASH_ENV": "/repo-bashenv"}}"#,
                );
            }
            ".env" => {
                common::write(
                    &sb.project,
                    ".env",
                    "HXPROBE=seen\nLD_PRELOAD=/repo.so\nBASH_ENV=/repo-bashenv\n",
                );
            }
            _ => {}
        }
        let out = run_droid(&sb, &bin, "text");
        assert!(out.status.success(), "{way}: {out:?}");
        let probe = std::fs::read_to_string(&probe).unwrap_or_default();
        assert!(!probe.is_empty(), "{way}: the user's hook ran");
        assert!(
            !probe.contains("seen") && !probe.contains("/repo"),
            "{way}: nothing of the project reached it: {probe}"
        );
    }
}

/// Project `.factory/settings.json` and `.factory/hooks.json` with `//` or `/* */` comments or
/// a trailing comma, each in its own run beside plain user settings with a `control` recorder
/// (Droid 0.225.2). `hookx list --host droid`, asked before the run, must list the `probe`
/// exactly when Droid runs it. Both files are read with comments; a trailing comma drops the
/// file without a word.
fn hook_files_with_comments_or_trailing_commas() {
    let Some(bin) = droid() else { return };
    let mut failed = Vec::new();
    for file in ["settings.json", "hooks.json"] {
        for variant in json_syntax::VARIANTS {
            let sb = Sandbox::new("hookx-live-droid-syntax");
            let model = FakeModel::start(scripts, sb.project.display().to_string());
            user_settings(
                &sb,
                &model,
                Some(recorder_on(&sb, "SessionStart", "control")),
            );
            let probe = recorder_on(&sb, "SessionStart", "probe");
            let probe = match file {
                "settings.json" => json!({"hooks": probe}),
                _ => probe,
            };
            common::write(
                &sb.project,
                &format!(".factory/{file}"),
                &variant.text(&probe),
            );
            let listed = json_syntax::hookx_native(
                (&sb.home, &sb.project),
                "droid",
                "SessionStart",
                &["control", "probe"],
            );
            let out = run_droid(&sb, &bin, "text");
            let mut ran: Vec<String> = sb.dumps().into_iter().map(|d| d.label).collect();
            ran.sort();
            assert!(out.status.success(), "{file} {variant:?}: {out:?}");
            let expected: &[&str] = match variant {
                json_syntax::Variant::TrailingComma => &["control"],
                _ => &["control", "probe"],
            };
            if ran != expected {
                failed.push(format!(
                    "{file} {variant:?}: ran {ran:?}, expected {expected:?}"
                ));
            }
            if listed.as_deref() != Ok(&ran) {
                failed.push(format!(
                    "{file} {variant:?}: Droid ran {ran:?}, hookx lists {listed:?}"
                ));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The fault matrix in Droid (tests/live_common/faults.rs): a hanging, slow, crashing, noisy or
/// oversized handler beside a deny, through `hookx run` on Droid's route and through wrapped
/// entries in `.factory/settings.json` that Droid runs itself: each denied `Execute` never
/// runs, and the deny's reason is its result.
fn faulty_handlers_beside_a_deny() {
    let Some(bin) = droid() else { return };
    let mut wrong = Vec::new();
    for via in [
        faults::Via::Run,
        faults::Via::Wrapped,
        faults::Via::OddRun,
        faults::Via::OddWrapped,
    ] {
        let sb = Sandbox::new("hookx-live-droid-faults");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        user_settings(&sb, &model, None);
        faults::set_up(via, "droid", &sb.root, &sb.project, &sb.home);
        let mut cmd = sb.command(&bin);
        cmd.env("FACTORY_API_KEY", "dummy")
            .env("HOOKX_TEST_HOST_LIMIT_MS", faults::TEST_LIMIT_MS)
            .args([
                "exec",
                "-m",
                "custom:fake-0",
                "--auto",
                "high",
                "-o",
                "json",
            ])
            .arg("SCENARIO:faults do the work");
        let out = sb.run(cmd);
        keep(&sb, &model, &out, &format!("droid-faults-{via:?}"));
        let requests = model.requests_of("faults");
        let result = |text: &str| minimal::tool_result(&requests, text);
        wrong.extend(faults::check(via, "droid", &sb.root, &sb.project, &result));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The README's migration story under Factory Droid (issue 24): the Claude project converted
/// with `--write` to Droid, Gemini and Codex, `hookx install --host droid`, `hookx trust --yes`,
/// one prompt with two Execute calls (the guard denies the second), a Create and a stop. Droid
/// runs its own (wrapped) copy in `.factory/settings.json`; hookx runs neither the Claude file
/// nor the other copies. A recorder of Droid's own in the user settings counts each event:
/// every rule runs once per event, with Claude's payload, and the guard's reason is the denied
/// call's result. UserPromptSubmit never fires in `droid exec` (droid-facts.md): the logger
/// runs as often as the event, which is never offline. A personal Claude rule routed through
/// hookx in the user scope ([`common::story_user_route`]) puts `hookx run` on every event with
/// all the copies in sight: it runs that rule once and no copy.
/// All of it twice, each in a fresh sandbox ([`common::story_targets`]): as above, and with the
/// README's own conversion (Copilot, Gemini and Codex: no Droid copy, so hookx runs the Claude
/// file through its project route, beside the user route).
fn migration_story_runs_each_rule_once() {
    let Some(bin) = droid() else { return };
    let mut failed = Vec::new();
    for targets in common::story_targets("droid") {
        let sb = Sandbox::new("hookx-live-droid-story");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let events = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"];
        let mut recorders = json!({});
        for e in events {
            recorders[e] = recorder_on(&sb, e, &format!("event-{e}"))[e].clone();
        }
        user_settings(&sb, &model, Some(recorders));
        common::migration_story(&sb.project, &sb.home, &targets, "droid");
        common::story_user_route(&sb.project, &sb.home, "droid");
        let out = run_droid(&sb, &bin, "story");
        keep(&sb, &model, &out, "droid-story");
        let dumps = sb.dumps();
        let fired = |event: &str, tools: &[&str]| {
            minimal::dumps::count(&dumps, &format!("event-{event}"), tools)
        };
        let mut wrong = Vec::new();
        if !out.status.success() {
            wrong.push(format!(
                "exit {:?}: {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        for (label, fired) in [
            ("guard", fired("PreToolUse", &["Execute"])),
            ("fmt", fired("PostToolUse", &["Create", "Edit"])),
            ("stop", fired("Stop", &[])),
        ] {
            wrong.extend(common::story_once(&sb.project, label, fired));
        }
        let prompts = fired("UserPromptSubmit", &[]);
        wrong.extend(common::story_never_prompted(
            &sb.project,
            prompts,
            "droid exec",
        ));
        // The personal rule, through hookx's user route: once per event, every event.
        let all = events.iter().map(|e| fired(e, &[])).sum();
        wrong.extend(common::story_once(&sb.project, "user", all));
        let requests = model.requests_of("story");
        let denied = minimal::tool_result(&requests, "story-denied");
        if denied != format!("Error: {}", common::STORY_REASON) {
            wrong.push(format!("the guard's deny reached the model: {denied:?}"));
        }
        let ok = minimal::tool_result(&requests, "story-ok");
        if !ok.contains("story-ok") {
            wrong.push(format!("the allowed call ran: {ok:?}"));
        }
        failed.extend(wrong.into_iter().map(|w| format!("{targets}: {w}")));
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The team loop under Factory Droid (attacks rows 760-779, [`common::team_of_four`]): hooks
/// written for Claude, Qwen, Droid and Auggie, each file converted into the three others',
/// hookx installed for Droid in both scopes, trusted. Droid runs its own
/// `.factory/settings.json`, its rules and the copies of the three others'; hookx's routes run
/// none of them. Recorders of Droid's own in the user settings count the events (no prompt
/// event in `droid exec`): every rule once per event, the Qwen guard's deny the call's result.
fn team_loop_runs_each_rule_once() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid-team");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let mut recorders = json!({});
    for (e, label) in [
        ("PreToolUse", "event-shell"),
        ("UserPromptSubmit", "event-prompt"),
        ("Stop", "event-stop"),
    ] {
        recorders[e] = recorder_on(&sb, e, label)[e].clone();
    }
    recorders["PreToolUse"][0]["matcher"] = json!("Execute");
    user_settings(&sb, &model, Some(recorders));
    common::team_of_four(&sb.project, &sb.home, "droid", env!("CARGO_BIN_EXE_hookx"));
    let out = run_droid(&sb, &bin, "story");
    keep(&sb, &model, &out, "droid-team");
    let dumps = sb.dumps();
    let [shell, prompts, stops] = ["event-shell", "event-prompt", "event-stop"]
        .map(|l| minimal::dumps::count(&dumps, l, &[]));
    let mut wrong = common::team_of_four_once(&sb.project, [shell, prompts, stops], (&[], 0));
    if !out.status.success() {
        wrong.push(format!(
            "exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let denied = minimal::tool_result(&model.requests_of("story"), "story-denied");
    if !denied.contains(common::STORY_REASON) {
        wrong.push(format!(
            "the Qwen guard's deny reached the model: {denied:?}"
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The team loop as a teammate without hookx finds it under Factory Droid (attacks rows
/// 760-779, [`common::team_of_four_without_hookx`]): the four files converted into each other
/// with `--hookx hookx`, nothing installed, no `hookx` on Droid's `PATH`. Droid runs its own
/// rules once per event and the copies of the three others', which fail: each guard's copy
/// denies every shell call ("hookx not found"), the Stop hooks' copies fail without blocking:
/// the run ends at the story's answer. (No prompt event in `droid exec`.)
fn team_loop_without_hookx_fails_closed_only_on_the_guards() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid-team-without");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let mut recorders = json!({});
    for (e, label) in [("PreToolUse", "event-shell"), ("Stop", "event-stop")] {
        recorders[e] = recorder_on(&sb, e, label)[e].clone();
    }
    recorders["PreToolUse"][0]["matcher"] = json!("Execute");
    user_settings(&sb, &model, Some(recorders));
    common::team_of_four_without_hookx(&sb.project, &sb.home);
    let path = [("PATH", "/usr/local/bin:/usr/bin:/bin")];
    let out = run_droid_with(&sb, &bin, "story", &path);
    keep(&sb, &model, &out, "droid-team-without");
    let dumps = sb.dumps();
    let [shell, stops] =
        ["event-shell", "event-stop"].map(|l| minimal::dumps::count(&dumps, l, &[]));
    let mut wrong = Vec::new();
    if !out.status.success() || shell != 2 || stops != 1 {
        wrong.push(format!(
            "exit {:?}, {shell} shell calls, {stops} stops: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    for (i, label) in common::TEAM4_LABELS.iter().enumerate() {
        let own = (6..9).contains(&i);
        let want = if own { [shell, 0, stops][i % 3] } else { 0 };
        let runs = common::story_runs(&sb.project, label).len();
        if runs != want {
            wrong.push(format!("{label}: {runs} runs, {want} wanted"));
        }
    }
    let requests = model.requests_of("story");
    for call in ["story-ok", "story-denied"] {
        let result = minimal::tool_result(&requests, call);
        if !result.contains("hookx not found") {
            wrong.push(format!("the guards' copies denied {call}: {result:?}"));
        }
    }
    if requests
        .iter()
        .any(|r| r.to_string().contains("story done"))
    {
        wrong.push("a Stop copy blocked: the model was asked again after its answer".into());
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Attacks row 1724: Droid 0.225.2's reading of exit 3 at the turn's edges, hookx out of the
/// loop: a `Stop` hook exiting 3 (stderr `E-STOP3`) and, for contrast, exiting 2 (which goes
/// on with the reason as a user message); a recorder on `UserPromptSubmit` that would exit 3.
/// Exit 3 ends the turn (one model request), exit 2 asks the model again; UserPromptSubmit does
/// not fire in `droid exec` (its exit 3 is read in the binary: the prompt blocked, as at exit
/// 2; hookx's reading is `tests/protocol.rs`).
fn a_droid_stop_hooks_exit_3_ends_the_turn() {
    let Some(bin) = droid() else { return };
    let mut wrong = Vec::new();
    for (code, requests_expected) in [(3, 1), (2, 2)] {
        let sb = Sandbox::new("hookx-live-droid-stop3");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let hooks = json!({
            "Stop": [{"hooks": [{"type": "command", "command": sb.dumper("stop")}]}],
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": sb.dumper("prompt")}]}],
        });
        user_settings(&sb, &model, Some(hooks));
        sb.answer(
            "stop",
            "a",
            r#""stop_hook_active":false"#,
            ("", "E-STOP3", code),
        );
        sb.answer("prompt", "a", "SCENARIO", ("", "E-PROMPT3", 3));
        let out = run_droid(&sb, &bin, "text");
        keep(&sb, &model, &out, &format!("droid-stop{code}"));
        let requests = model.requests_of("text").len();
        let dumps = sb.dumps();
        let count = |label: &str| dumps.iter().filter(|d| d.label == label).count();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        eprintln!(
            "stop exit {code}: {requests} requests, stop ran {}, prompt ran {}, exit {:?}: {said}",
            count("stop"),
            count("prompt"),
            out.status.code()
        );
        if requests != requests_expected || count("stop") < 1 || count("prompt") != 0 {
            wrong.push(format!(
                "stop exit {code}: {requests} model requests (expected {requests_expected}), \
                 the Stop hook ran {} times, the prompt hook {}: {said}",
                count("stop"),
                count("prompt")
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Attacks rows 1720-1722: Droid's autonomy levels (`droid exec` with none, `--auto low`,
/// `medium`, `high`, and `--skip-permissions-unsafe`) and a trusted Claude guard's deny and ask
/// through hookx's project route; beside it Droid's own user hook (run first) allows or asks
/// on the calls the guard denies, and allows one call of high risk; a trusted Gemini guard
/// allows another. Each call prints `ran-NAME` only if it ran: returns the calls that ran and
/// each call's result.
fn autonomy_run(bin: &std::path::Path, level: &[&str]) -> (Vec<String>, Vec<(String, String)>) {
    let sb = Sandbox::new("hookx-live-droid-modes");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let own = json!({"PreToolUse": [{"hooks": [
        {"type": "command", "command": sb.dumper("droid-own")}]}]});
    user_settings(&sb, &model, Some(own));
    let allow =
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#;
    let ask = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"R-OWN-ASK"}}"#;
    sb.answer("droid-own", "a", "m-after-allow", (allow, "", 0));
    sb.answer("droid-own", "b", "m-allowed-high", (allow, "", 0));
    sb.answer("droid-own", "c", "m-after-ask", (ask, "", 0));
    common::write(
        &sb.project,
        ".claude/settings.json",
        &json!({"hooks": grouped(&sb, "PreToolUse", "Bash", "claude-guard")}).to_string(),
    );
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-MODE-DENY"}}"#;
    let guard_ask = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"R-MODE-ASK"}}"#;
    for (i, name) in ["m-deny", "m-after-allow", "m-after-ask"]
        .iter()
        .enumerate()
    {
        sb.answer("claude-guard", &format!("{i}"), name, (deny, "", 0));
    }
    sb.answer("claude-guard", "z", "' m-ask\"", (guard_ask, "", 0));
    // A Gemini guard's allow, which Gemini's own approval outranks: no more than Droid's flow.
    common::write(
        &sb.project,
        ".gemini/settings.json",
        &json!({"hooks": grouped(&sb, "BeforeTool", "run_shell_command", "gemini-allow")})
            .to_string(),
    );
    sb.answer(
        "gemini-allow",
        "a",
        "m-high",
        (r#"{"decision":"allow"}"#, "", 0),
    );
    faults::hookx(&sb.project, &sb.home, &["install", "--host", "droid"]);
    faults::hookx(&sb.project, &sb.home, &["trust", "--yes"]);
    let mut cmd = sb.command(bin);
    cmd.env("FACTORY_API_KEY", "dummy")
        .args(["exec", "-m", "custom:fake-0"])
        .args(level)
        .args(["-o", "json", "SCENARIO:modes do the work"]);
    let out = sb.run(cmd);
    keep(&sb, &model, &out, &format!("droid-modes{}", level.join("")));
    let requests = model.requests_of("modes");
    let mut ran = Vec::new();
    let mut results = Vec::new();
    for (name, _) in MODE_CALLS {
        let asked = requests
            .iter()
            .any(|r| r.to_string().contains(&format!("' {name}")));
        let result = match asked {
            true => minimal::tool_result(&requests, &format!("' {name}")),
            false => "<never called>".to_string(),
        };
        if result.contains(&format!("ran-{name}")) {
            ran.push(name.to_string());
        }
        results.push((name.to_string(), result));
    }
    (ran, results)
}

/// See [`autonomy_run`]: in every level the guard's deny and ask stop their calls, also where
/// Droid's own hook, run before hookx's route, allowed or asked on the same call. Without
/// `--auto high` the run ends at the call of high risk that no hook of Droid's allowed
/// ("Exec ended early: insufficient permission to proceed"), so it is the last.
fn autonomy_levels_and_a_guards_deny() {
    let Some(bin) = droid() else { return };
    let mut wrong = Vec::new();
    for level in [
        &[][..],
        &["--auto", "low"],
        &["--auto", "medium"],
        &["--auto", "high"],
        &["--skip-permissions-unsafe"],
    ] {
        let (ran, results) = autonomy_run(&bin, level);
        eprintln!("droid {level:?}: ran {ran:?}\n  {results:?}");
        for name in ["m-deny", "m-ask", "m-after-allow", "m-after-ask"] {
            if ran.iter().any(|r| r == name) {
                wrong.push(format!("droid {level:?}: {name} ran"));
            }
        }
        // Droid's own allow gets past its autonomy level (`allow-bypass` in the binary):
        // `allow_reach: Prompt`. A call of high risk runs only from `--auto high` on, and a
        // Gemini guard's allow through hookx does not change that.
        let high = matches!(
            level.last(),
            Some(&"high") | Some(&"--skip-permissions-unsafe")
        );
        let expected = [("m-ok", true), ("m-allowed-high", true), ("m-high", high)];
        for (name, runs) in expected {
            if ran.iter().any(|r| r == name) != runs {
                wrong.push(format!(
                    "droid {level:?}: {name} ran {}, expected {runs}: {results:?}",
                    !runs
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Attacks row 1577: a Droid `PreToolUse` hook that exits 3 (stderr `E-ABORT3`) on the first of
/// two Execute calls, hookx out of the loop; then the same hook in a Claude-form file of
/// Droid's run by `hookx exec --host claude --as droid` is checked in `tests/protocol.rs`.
/// Droid 0.225.2 (binary: "Agent aborted by PreToolUse hook", `AgentAbortError`) runs neither
/// call: the first is not run and the agent ends there.
fn a_droid_hooks_exit_3_aborts_the_agent() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid-exit3");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let hooks = json!({"PreToolUse": [{"hooks": [
        {"type": "command", "command": sb.dumper("pre")}]}]});
    user_settings(&sb, &model, Some(hooks));
    sb.answer("pre", "abort", "exit3-call", ("", "E-ABORT3", 3));
    let out = run_droid(&sb, &bin, "exit3");
    keep(&sb, &model, &out, "droid-exit3");
    let requests = model.requests_of("exit3");
    let pre = sb.dumps().iter().filter(|d| d.label == "pre").count();
    let ran = sb.project.join("o-exit3.txt").exists();
    let said = String::from_utf8_lossy(&out.stdout).contains("E-ABORT3")
        || String::from_utf8_lossy(&out.stderr).contains("E-ABORT3");
    assert!(
        pre == 1 && !ran && requests.len() == 1,
        "the hook ran {pre} times, the call ran {ran}, {} requests, E-ABORT3 said {said}, exit \
         {:?}\nstdout: {}\nstderr: {}",
        requests.len(),
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    harness::main(
        "live_droid",
        &[harness::client(
            "Factory Droid",
            format!("factory-{VERSION}/node_modules/@factory/cli-linux-x64/bin/droid"),
        )],
        live_tests![
            lifecycle_events_fire_as_often_as_recorded,
            a_converted_async_handler_runs_in_the_background,
            a_routed_async_handler_runs_in_the_background,
            autonomy_levels_and_a_guards_deny,
            a_droid_stop_hooks_exit_3_ends_the_turn,
            a_droid_hooks_exit_3_aborts_the_agent,
            matchers_fire_as_hookx_reads_them,
            converted_corpus_configs,
            a_projects_settings_and_the_users_hooks,
            ground_truth_leftovers,
            ground_truth_execute_and_answers,
            ground_truth_answer_forms,
            files_droid_reads,
            routed_handlers_of_every_dialect,
            subagent_task_needs_the_daemon,
            hooks_disabled_turns_every_hook_off,
            settings_forms_droid_skips_whole,
            hook_files_with_comments_or_trailing_commas,
            faulty_handlers_beside_a_deny,
            migration_story_runs_each_rule_once,
            team_loop_runs_each_rule_once,
            team_loop_without_hookx_fails_closed_only_on_the_guards,
            both_scopes_get_one_event,
            failed_calls_as_droid_fires_them,
            a_sessionstart_decision_block_under_droid,
            several_hooks_answers_merge_as_simulate_says,
            hooks_of_the_user_and_the_project_fold_as_simulate_says,
            a_hook_of_the_users_after_the_route_is_not_hidden_by_its_allow,
            a_converted_guard_after_an_approver_still_denies,
        ],
    )
}

/// The claim gate (task "claims"): a recorder on every event in the user's
/// `~/.factory/settings.json` (labelled by event) and one in the project's
/// `.factory/settings.json` (`project-…`), one `droid exec` running the same command twice.
/// Droid 0.225.2 hands both hooks of one event the same payload (recorded in
/// `scopes/pairs.json`), and two calls alike give the same payload: no call id, no timestamp.
fn both_scopes_get_one_event() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid-scopes");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let all = |prefix: &str| -> Value {
        let mut hooks = serde_json::Map::new();
        for e in EVENTS {
            hooks.extend(
                recorder_on(&sb, e, &format!("{prefix}{e}"))
                    .as_object()
                    .unwrap()
                    .clone(),
            );
        }
        Value::Object(hooks)
    };
    user_settings(&sb, &model, Some(all("")));
    common::write(
        &sb.project,
        ".factory/settings.json",
        &json!({"hooks": all("project-")}).to_string(),
    );
    let out = run_droid(&sb, &bin, "twice");
    keep(&sb, &model, &out, "scopes");
    let dumps = sb.dumps();
    let (user, project) = scopes::sides(dumps.iter().map(|d| (d.label.as_str(), &d.stdin)));
    let mut failed = Vec::new();
    let problems = scopes::pairing(&user, &project, &[]);
    if !problems.is_empty() || user.is_empty() {
        failed.push(format!("both scopes, one payload per event: {problems:?}"));
    }
    let calls = scopes::alike_calls(&user, "PreToolUse", "twice-call");
    let apart = calls.get(..2).map(|c| scopes::differing(c[0], c[1]));
    if apart.as_ref().is_none_or(|a| !a.is_empty()) {
        failed.push(format!("two calls alike, payloads differing in: {apart:?}"));
    }
    scopes::record(
        &format!("droid-{VERSION}"),
        "droid",
        &user,
        &project,
        &[
            (sb.project.display().to_string(), "<project>"),
            (sb.home.display().to_string(), "<home>"),
        ],
    );
    assert!(failed.is_empty(), "{}\n{out:?}", failed.join("\n"));
}

/// Attacks row 1474, ground truth: Droid's own hooks that exit at once and leave children
/// behind (`live_claude::handlers_that_leave_children_behind`'s shape): at `SessionStart` a
/// dev server sent to `/dev/null` (`kept`), a child holding the hook's stdout 8 s without a word
/// (`held`), a child writing to it every 0.2 s for 15 s (`talk`), all with a 10 s timeout; at
/// `PreToolUse` a deny printed before a `sleep 5 &` holds the pipe (`A-DENY`); the prompt, the
/// tool event and `Stop` stamped. Checked: the deny honoured, the server kept, and Droid not
/// waiting for `held` (which stamps its end) before the tool event.
fn ground_truth_leftovers() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid-left");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let dump = sb.root.join("left");
    std::fs::create_dir_all(&dump).unwrap();
    let d = dump.display();
    let stamp = |w: &str| stamps::Stamps::command(&dump.join("times"), w);
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
    let deny = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "A-DENY"}});
    let a = format!("{}; printf '%s' '{deny}'; sleep 5 & exit 0", stamp("tool"));
    let talks = format!(
        "for w in talk held; do kill -0 $(cat '{d}/$w.pid') && echo \"$w yes\" \
         || echo \"$w no\"; done > '{d}/talked'"
    );
    let cmd = |c: &str| json!({"type": "command", "command": c, "timeout": 10});
    let hooks = json!({
        "SessionStart": [{"hooks": [cmd(&kept), cmd(&held), cmd(&talk)]}],
        "UserPromptSubmit": [{"hooks": [cmd(&stamp("prompt"))]}],
        "PreToolUse": [{"matcher": "Execute", "hooks": [cmd(&a)]}],
        "Stop": [{"hooks": [cmd(&format!("{}; {talks}", stamp("stop")))]}],
    });
    user_settings(&sb, &model, Some(hooks));
    let out = run_droid(&sb, &bin, "leftovers");
    let read = |f: &str| std::fs::read_to_string(dump.join(f)).unwrap_or_default();
    let stamps = stamps::Stamps::read(&dump.join("times"));
    let denied = model
        .chats()
        .iter()
        .any(|r| r.to_string().contains("A-DENY"));
    let kept = stamps::pid_runs(&dump.join("kept.pid"));
    eprintln!(
        "leftovers, Droid's own hooks: exit {:?}; ms from SessionStart to the prompt {:?}, to the \
         tool event {:?}, to Stop {:?}; at Stop: {:?}",
        out.status.code(),
        stamps.ms("start", "prompt"),
        stamps.ms("start", "tool"),
        stamps.ms("start", "stop"),
        read("talked").replace('\n', ", "),
    );
    stamps::kill_left(&dump, &["kept.pid", "held.pid", "talk.pid"]);
    assert!(denied, "Droid honours a deny printed before a leftover");
    assert!(kept, "the dev server sent away outlived the run");
    assert!(
        !stamps.before("held-end", "tool"),
        "Droid went on to the tool without waiting for the silent leftover"
    );
}

/// Attacks rows 1762, 1820 ([`in_background`]): a Claude `async: true` guard converted to
/// Droid (its hooks in `~/.factory/settings.json`), under Droid 0.225.2 (`exec --auto high`),
/// one shell call.
fn a_converted_async_handler_runs_in_the_background() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid-async");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let converted = in_background::converted(&sb.root.join("src"), "droid");
    user_settings(&sb, &model, Some(converted["hooks"].clone()));
    let out = run_droid(&sb, &bin, "async");
    // The tool messages the model got back.
    let results: Vec<String> = (model.chats().iter())
        .flat_map(|r| r["messages"].as_array().cloned().unwrap_or_default())
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].to_string())
        .collect();
    let failed = in_background::failures(&sb.project, &results.join(" | "));
    assert!(
        failed.is_empty(),
        "async: exit {:?}: {}",
        out.status.code(),
        failed.join("\n")
    );
}

/// Attacks rows 1880-1899 (row 1766 of the twenty-sixth pass), live under Droid 0.225.2: real
/// configs of other agents (`converted::SAMPLE`), each handler a recorder, written into the
/// project's `.factory/settings.json` by `convert --write`, run through the matcher probe's
/// session (an Execute, a Create, a Read, an Edit, the end). Each rule runs as often, on the
/// same events and tools, with a payload of the same keys, as hookx's own reading of the
/// source files under Droid (`converted::judge`).
fn converted_corpus_configs() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    user_settings(&sb, &model, None);
    let done = converted::convert_sample(
        "droid",
        &sb.project,
        &sb.home,
        &sb.root,
        env!("CARGO_BIN_EXE_hookx"),
        &|label| sb.dumper(label),
    );
    let target = sb.project.join(".factory/settings.json");
    converted::add_catch_all(&target, &|e| sb.dumper(&format!("all-{e}")));
    let out = run_droid(&sb, &bin, "mxprobe");
    keep(&sb, &model, &out, "converted");
    let mut failed = Vec::new();
    // Nothing the converted rules answer stops the session: a rule whose folder is not on this
    // machine cannot start, which no agent reads as a block (row 1760).
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !(sb.project.join("notes.txt").exists() && stdout.contains("matchers done")) {
        failed.push(format!(
            "the session's Create ran and it ended (no converted rule blocked the prompt or a call): {stdout}"
        ));
    }
    let dumps: Vec<(String, Value)> = sb
        .dumps()
        .iter()
        .map(|d| (d.label.clone(), d.stdin.clone()))
        .collect();
    failed.extend(converted::judge(
        &sb.project,
        &sb.home,
        "droid",
        &target,
        &done,
        &dumps,
    ));
    assert!(failed.is_empty(), "converted:\n{}", failed.join("\n"));
}

/// Attacks rows 1840-1859, ground truth: the recorder on every event, and four calls that fail:
/// a command's exit 1 (with stderr), a command that cannot start, a `Read` of a missing file,
/// an `Edit` whose text is not in the file. Which post event fires after each, and whether its
/// payload tells the failure apart (hookx's `failed_call` for Droid: `Unmarked`); recorded as
/// `failed.*`.
fn failed_calls_as_droid_fires_them() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid-failed");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    common::write(&sb.project, "notes.txt", "one\n");
    let mut hooks = serde_json::Map::new();
    for e in EVENTS {
        hooks.extend(recorder_on(&sb, e, e).as_object().unwrap().clone());
    }
    user_settings(&sb, &model, Some(Value::Object(hooks)));
    let out = run_droid(&sb, &bin, "failed");
    keep(&sb, &model, &out, "failed");
    let dumps = sb.dumps();
    let posts: Vec<(String, Value, Value)> = dumps
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
    eprintln!("droid {VERSION} after four failed calls: {posts:#?}");
    let pre = dumps.iter().filter(|d| d.label == "PreToolUse").count();
    // Observed 0.225.2: each call runs (its error reaches the model), and no post event fires.
    assert!(
        pre == 4 && posts.is_empty(),
        "PreToolUse 4 times ({pre}), no post event: {posts:?}"
    );
    check_recorded(&sb, &dumps, "failed");
}

/// Attacks row 1743's leftover, ground truth: a SessionStart hook in `~/.factory/settings.json`
/// answering `{"decision":"block","reason":"RJ-1743"}`, then one Execute. Whether Droid
/// 0.225.2 ends the session or refuses the prompt there (the model never asked, the call never
/// run), and whether the reason reaches the model.
fn a_sessionstart_decision_block_under_droid() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid-start");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let answer = r#"{"decision":"block","reason":"RJ-1743"}"#;
    let start = format!("{}; printf '%s' '{answer}'", sb.dumper("SessionStart"));
    let hooks = json!({
        "SessionStart": [{"hooks": [{"type": "command", "command": start}]}],
        "PostToolUse": [{"hooks": [{"type": "command", "command": sb.dumper("PostToolUse")}]}],
    });
    user_settings(&sb, &model, Some(hooks));
    let out = run_droid(&sb, &bin, "leftovers");
    keep(&sb, &model, &out, "start-block");
    let dumps = sb.dumps();
    let started = dumps.iter().any(|d| d.label == "SessionStart");
    let ran = dumps.iter().any(|d| d.label == "PostToolUse");
    let chats = model.chats();
    let reason = chats.iter().any(|r| r.to_string().contains("RJ-1743"));
    eprintln!(
        "droid {VERSION} SessionStart decision block: exit {:?}, hook ran {started}, model \
         requests {}, the call ran {ran}, the reason reached the model {reason}",
        out.status.code(),
        chats.len()
    );
    assert!(started, "the SessionStart hook ran: {out:?}");
    // Observed 0.225.2: the decision is not acted on: the call runs.
    assert!(ran && !chats.is_empty(), "the session went on: {out:?}");
}

/// Attacks rows 1787 and 1980-1999: how many times Droid fires each of its events in one
/// session (a prompt, two Execute calls and a Create, the answer), a recorder on each in the
/// user's settings: kept in `tests/fixtures/cadence/`, which `tests/cadence_recorded.rs` checks
/// hookx's tables against. No resumed run: `droid exec -s ID` fetches the session from
/// Factory's service ("Failed to fetch session", `exec/handler.ts`), which a sealed run cannot.
fn lifecycle_events_fire_as_often_as_recorded() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid-cadence");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let hooks: serde_json::Map<String, Value> = EVENTS
        .iter()
        .map(|e| (e.to_string(), recorder_on(&sb, e, e)[e].clone()))
        .collect();
    user_settings(&sb, &model, Some(Value::Object(hooks)));
    let main_loop = |m: &FakeModel| {
        m.requests_of("cadence")
            .iter()
            .filter(|b| b["tools"].as_array().is_some_and(|t| !t.is_empty()))
            .count()
    };
    let mut failed = Vec::new();
    let out = run_droid(&sb, &bin, "cadence");
    keep(&sb, &model, &out, "droid-cadence");
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
        model_requests: main_loop(&model),
        tool_calls: 3,
        compactions: 0,
        fired: cadence::fired(dumps.iter().map(|d| d.label.as_str()), EVENTS),
    };
    let now = cadence::Recording {
        client: "droid".into(),
        version: VERSION.into(),
        host: "droid".into(),
        how: "exec --auto high -o json, a custom model on the fake chat server".into(),
        runs: vec![first],
    };
    failed.extend(cadence::settle(&format!("droid-{VERSION}"), &now));
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Attacks row 2015 (rows 2000, 2001, [`in_background`]): a trusted Claude `async: true`
/// handler on the shell call, and one on `Stop` that logs 2 s later
/// ([`in_background::with_a_late_stop_logger`]), in the project's `.claude/settings.json`,
/// routed by `hookx install --host droid`, under Droid 0.225.2 (`exec --auto high`), one shell
/// call. As under Claude: the call runs at once, the deny counts for nothing, the handler sees
/// the call run, and the Stop logger runs to its end past Droid's.
fn a_routed_async_handler_runs_in_the_background() {
    let Some(bin) = droid() else { return };
    let sb = Sandbox::new("hookx-live-droid-routed-async");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    user_settings(&sb, &model, None);
    let source = in_background::with_a_late_stop_logger(in_background::claude_source());
    common::write(&sb.project, ".claude/settings.json", &source.to_string());
    faults::hookx(&sb.project, &sb.home, &["install", "--host", "droid"]);
    faults::hookx(&sb.project, &sb.home, &["trust", "--yes"]);
    let out = run_droid(&sb, &bin, "async");
    let results: Vec<String> = (model.chats().iter())
        .flat_map(|r| r["messages"].as_array().cloned().unwrap_or_default())
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].to_string())
        .collect();
    let mut failed = in_background::failures(&sb.project, &results.join(" | "));
    if !in_background::stop_logged(&sb.project) {
        failed.push("the Stop logger ran on past Droid's end, to its own".into());
    }
    assert!(
        failed.is_empty(),
        "routed async: exit {:?}: {}",
        out.status.code(),
        failed.join("\n")
    );
}
