//! `hookx doctor` against the real Claude Code 2.1.332 (conformance/README.md): a project whose
//! rules fire or not for the reasons doctor diagnoses (a lowercase event key, a matcher on the
//! subagent tool's old name `Task`, a SessionStart matcher on a source Claude never sends), run
//! once by the client. The rules Claude ran must be exactly those `hookx doctor --host claude`
//! says fire. 2.1.332 still fires a `Task` rule on the `Agent` tool: the old name is a matcher
//! alias, which hookx's matching follows (`Tables::matcher_tool_names`).

// Shared with `live_claude.rs`, which uses the parts this suite does not.
#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "live_claude/client.rs"]
mod client;
#[path = "live_common/json_syntax.rs"]
mod json_syntax;
#[allow(dead_code)]
#[path = "live_claude/server.rs"]
mod server;

use client::World;
use serde_json::{Value, json};
use server::{Block, FakeModel, Script};
use std::collections::BTreeSet;

fn doctor_script(step: usize, _project: &str) -> Vec<Block> {
    match step {
        0 => vec![Block::Tool(
            "Agent",
            json!({"description": "helper", "prompt": "SCRIPT:sub say done",
                   "subagent_type": "general-purpose", "run_in_background": false}),
        )],
        1 => vec![Block::Tool(
            "Bash",
            json!({"command": "true", "description": "nothing"}),
        )],
        _ => vec![Block::Text("Doctor done.".into())],
    }
}

fn sub_script(_step: usize, _project: &str) -> Vec<Block> {
    vec![Block::Text("Helper done.".into())]
}

fn one_bash_script(step: usize, _project: &str) -> Vec<Block> {
    match step {
        0 => vec![Block::Tool(
            "Bash",
            json!({"command": "true", "description": "nothing"}),
        )],
        _ => vec![Block::Text("Done.".into())],
    }
}

fn skill_script(step: usize, _project: &str) -> Vec<Block> {
    match step {
        0 => vec![Block::Tool("Skill", json!({"skill": "hello"}))],
        _ => vec![Block::Text("Skill done.".into())],
    }
}

static SCRIPTS: &[(&str, Script)] = &[
    ("sub", sub_script),
    ("doctor", doctor_script),
    ("bash", one_bash_script),
    ("skill", skill_script),
];

/// (event key, matcher, label): one rule each, recording under its label.
const RULES: &[(&str, Option<&str>, &str)] = &[
    ("PreToolUse", Some("Agent"), "agent"),
    ("PreToolUse", Some("Task"), "task"),
    ("PreToolUse", Some("Bash"), "bash"),
    ("pretooluse", Some("Bash"), "lowercase"),
    ("SessionStart", Some("startup"), "startup"),
    ("SessionStart", Some("boot"), "boot"),
];

/// (label, a PostToolUse group whose first handler gets the label's recorder as its
/// `command`): entries hookx's reader or Claude's schema refuses, on an event where Claude
/// 2.1.332 leaves out only what it refuses and runs the rest of the file (attacks row 720),
/// beside a valid one. The handler's text starts with `: LABEL;`, so doctor's rule is found by
/// it.
const ENTRIES: &[(&str, &str)] = &[
    (
        "post",
        r#"{"matcher": "Bash", "hooks": [{"type": "command"}]}"#,
    ),
    (
        "post-null",
        r#"{"matcher": null, "hooks": [{"type": "command"}]}"#,
    ),
    ("post-untyped", r#"{"matcher": "Bash", "hooks": [{}]}"#),
    (
        "post-async",
        r#"{"matcher": "Bash", "hooks": [{"type": "command", "async": "yes"}]}"#,
    ),
    (
        "post-zero",
        r#"{"matcher": "Bash", "hooks": [{"type": "command", "timeout": 0}]}"#,
    ),
];

/// The client, or a skip (a failure under `HOOKX_LIVE=require`).
fn client_or_skip() -> Option<std::path::PathBuf> {
    let bin = client::binary();
    if bin.is_none() {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "Claude Code {} is not installed (conformance/install-clients.sh) or cannot run sealed",
            client::VERSION
        );
        eprintln!(
            "skip: Claude Code {} is not installed or cannot run sealed",
            client::VERSION
        );
    }
    bin
}

/// `hookx doctor --host claude --format json` on `world`: its exit code and its report (null
/// when it printed none); `managed_root`: where it looks for Claude's policy files.
fn doctor_report(world: &World, managed_root: Option<&std::path::Path>) -> (Option<i32>, Value) {
    let args = ["doctor", "--host", "claude", "--format", "json"];
    let mut doctor = client::hookx_command(world, &args);
    if let Some(root) = managed_root {
        doctor.env("HOOKX_MANAGED_ROOT", root);
    }
    let out = doctor.output().unwrap();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_default();
    (out.status.code(), report)
}

fn doctor_says_which_rules_claude_fires() {
    let Some(bin) = client_or_skip() else { return };
    let model = FakeModel::start(SCRIPTS);
    let world = World::new();
    let mut hooks = serde_json::Map::new();
    for (event, matcher, label) in RULES {
        let mut group = json!({"hooks": [{"type": "command",
            "command": world.dumper_command(label, event)}]});
        if let Some(m) = matcher {
            group["matcher"] = json!(m);
        }
        hooks
            .entry(event.to_string())
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .unwrap()
            .push(group);
        world.answers(label, &[]);
    }
    let mut post = Vec::new();
    for (label, group) in ENTRIES {
        let mut group: Value = serde_json::from_str(group).unwrap();
        let command = format!(": {label}; {}", world.dumper_command(label, "PostToolUse"));
        group["hooks"][0]["command"] = json!(command);
        post.push(group);
        world.answers(label, &[]);
    }
    hooks.insert("PostToolUse".into(), json!(post));
    let settings = world.project.join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, json!({"hooks": hooks}).to_string()).unwrap();
    // The user's settings: a valid SessionStart rule beside a PreToolUse handler written
    // without its `{matcher, hooks}` group. 2.1.332 skips the whole file ("Invalid setting
    // skipped …: a PreToolUse/PermissionRequest hook that cannot be loaded may be what guards
    // the permissions declared beside it, so nothing it sits in is applied").
    for label in ["user-ok", "flat"] {
        world.answers(label, &[]);
    }
    let user = world.home.join(".claude/settings.json");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    let user_hooks = json!({"hooks": {
        "SessionStart": [{"hooks": [{"type": "command",
            "command": world.dumper_command("user-ok", "SessionStart")}]}],
        "PreToolUse": [{"type": "command", "matcher": "Bash",
            "command": world.dumper_command("flat", "PreToolUse")}],
    }});
    std::fs::write(&user, user_hooks.to_string()).unwrap();

    let managed_root = world.home.parent().unwrap().join("no-policy");
    std::fs::create_dir_all(&managed_root).unwrap();
    let (code, report) = doctor_report(&world, Some(&managed_root));
    let file = |name: &str| {
        report["files"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["file"] == name)
            .unwrap_or_else(|| panic!("no {name} in {report:#}"))
    };
    let rules = file(".claude/settings.json")["rules"].as_array().unwrap();
    let user_file = file("~/.claude/settings.json");
    // doctor: the flat handler is a problem of the file, and it makes Claude skip the file, so
    // its valid SessionStart rule never fires either.
    assert_eq!(
        user_file["problems"].as_array().unwrap().len(),
        1,
        "{user_file:#}"
    );
    assert_eq!(user_file["hosts"][0]["status"], "never", "{user_file:#}");
    assert_eq!(user_file["rules"][0]["hosts"][0]["status"], "never");
    let mut doctor_fires: BTreeSet<String> = RULES
        .iter()
        .zip(rules)
        .filter(|(_, r)| r["hosts"][0]["status"] == "fires")
        .map(|((_, _, label), _)| label.to_string())
        .collect();
    // An entry doctor has no rule of (the reader's error: "no rule comes of this entry") it does
    // not say fires.
    doctor_fires.extend(
        ENTRIES
            .iter()
            .map(|(label, _)| *label)
            .filter(|label| {
                let start = format!(": {label};");
                rules.iter().any(|r| {
                    r["handler"].as_str().is_some_and(|h| h.starts_with(&start))
                        && r["hosts"][0]["status"] == "fires"
                })
            })
            .map(str::to_string),
    );
    assert!(rules.len() >= RULES.len(), "{report:#}");

    let run = client::run(&bin, &world, model.port, "SCRIPT:doctor go", &[]);
    let claude_fired: BTreeSet<String> = RULES
        .iter()
        .map(|(_, _, label)| *label)
        .chain(ENTRIES.iter().map(|(label, _)| *label))
        .filter(|label| !world.records(label).is_empty())
        .map(|label| label.to_string())
        .collect();
    assert!(
        claude_fired.contains("bash")
            && claude_fired.contains("startup")
            && claude_fired.contains("post"),
        "the run did not get far enough: {claude_fired:?}\n{}",
        run.describe()
    );
    assert!(
        world.records("user-ok").is_empty() && world.records("flat").is_empty(),
        "Claude {}: a malformed PreToolUse entry skips its whole file (user-ok {}, flat {})\n{}",
        client::VERSION,
        world.records("user-ok").len(),
        world.records("flat").len(),
        run.describe()
    );
    assert_eq!(
        doctor_fires,
        claude_fired,
        "hookx doctor disagrees with Claude {} (doctor exit {code:?})",
        client::VERSION,
    );
}

/// Project settings with `//` or `/* */` comments or a trailing comma, each in its own run
/// beside plain user settings with a `control` recorder (Claude Code 2.1.332). `hookx list
/// --host claude` must list the `probe` exactly when Claude runs it, and `hookx doctor --host
/// claude` must say the file never fires when Claude drops it.
fn settings_with_comments_or_trailing_commas() {
    let Some(bin) = client_or_skip() else { return };
    let model = FakeModel::start(SCRIPTS);
    let mut failed = Vec::new();
    for variant in json_syntax::VARIANTS {
        let world = World::new();
        let recorder = |label: &str| {
            world.answers(label, &[]);
            json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command",
                "command": world.dumper_command(label, "SessionStart")}]}]}})
        };
        let user = world.home.join(".claude/settings.json");
        std::fs::create_dir_all(user.parent().unwrap()).unwrap();
        std::fs::write(&user, recorder("control").to_string()).unwrap();
        let settings = world.project.join(".claude/settings.json");
        std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
        std::fs::write(&settings, variant.text(&recorder("probe"))).unwrap();
        let listed = json_syntax::hookx_native(
            (&world.home, &world.project),
            "claude",
            "SessionStart",
            &["control", "probe"],
        );
        let (_, report) = doctor_report(&world, None);
        let doctor_status = report["files"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|f| f["file"] == ".claude/settings.json")
            .map(|f| f["hosts"][0]["status"].clone());

        let run = client::run(&bin, &world, model.port, "SCRIPT:sub say done", &[]);
        let ran: Vec<String> = ["control", "probe"]
            .into_iter()
            .filter(|label| !world.records(label).is_empty())
            .map(str::to_string)
            .collect();
        let expected: &[&str] = match variant {
            json_syntax::Variant::Plain => &["control", "probe"],
            _ => &["control"],
        };
        if ran != expected {
            failed.push(format!(
                "{variant:?}: ran {ran:?}, expected {expected:?}\n{}",
                run.describe()
            ));
        }
        if listed.as_deref() != Ok(&ran) {
            failed.push(format!(
                "{variant:?}: Claude ran {ran:?}, hookx lists {listed:?}"
            ));
        }
        let fires = ran.iter().any(|l| l == "probe");
        let doctor_fires = doctor_status.as_ref().is_some_and(|s| s == "fires");
        if doctor_fires != fires {
            failed.push(format!(
                "{variant:?}: Claude ran the probe: {fires}; doctor says {doctor_status:?}: {report:#}"
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "Claude {}:\n{}",
        client::VERSION,
        failed.join("\n")
    );
}

/// Doctor's three states of who runs a rule under Claude, against Claude Code 2.1.332 (attacks
/// row 582): a trusted Copilot rule only hookx runs ("fires", runner hookx, through hookx's
/// route), an untrusted one ("blocked", runner nobody), and a Gemini rule converted into
/// Claude's file (the copy "fires" natively; the original "fires" with the agent, from the
/// copy's file, as its runner: once in all). One Bash call: each label must run as many times
/// as doctor has it fire with no other runner named (`planned`).
fn doctor_says_who_runs_each_rule() {
    let Some(bin) = client_or_skip() else { return };
    let model = FakeModel::start(SCRIPTS);
    let world = World::new();
    for label in ["gem-copied", "cop-routed", "cop-untrusted"] {
        world.answers(label, &[]);
    }
    let write = |rel: &str, value: Value| {
        let path = world.project.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, value.to_string()).unwrap();
    };
    write(
        ".gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": world.dumper_command("gem-copied", "BeforeTool")}]}]}}),
    );
    for (file, label, matcher) in [
        ("mine.json", "cop-routed", Some("bash")),
        ("other.json", "cop-untrusted", None),
    ] {
        let mut entry = json!({"type": "command",
            "bash": world.dumper_command(label, "preToolUse")});
        if let Some(m) = matcher {
            entry["matcher"] = json!(m);
        }
        write(
            &format!(".github/hooks/{file}"),
            json!({"version": 1, "hooks": {"preToolUse": [entry]}}),
        );
    }
    let at = |rel: &str| world.project.join(rel).display().to_string();
    let (gemini, mine) = (at(".gemini/settings.json"), at(".github/hooks/mine.json"));
    client::hookx_cmd(&world, &["trust", &gemini, &mine]);
    let convert = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args(["convert", &gemini, "--to", "claude", "--write", "--project"])
        .arg(&world.project)
        .env("HOME", &world.home)
        .env_remove("HOOKX_HOME")
        .output()
        .unwrap();
    assert!(convert.status.success(), "{convert:?}");
    client::hookx_cmd(
        &world,
        &["install", "--host", "claude", "--scope", "project"],
    );
    let (_, report) = doctor_report(&world, None);
    // Each label's rules, by the files that hold them (doctor shortens a long handler).
    let said = |files: &[&str]| -> (usize, Vec<String>) {
        let mut runs = 0;
        let mut states = Vec::new();
        for file in report["files"].as_array().unwrap() {
            if !files.iter().any(|f| file["file"] == *f) {
                continue;
            }
            for rule in file["rules"].as_array().unwrap() {
                let host = &rule["hosts"][0];
                states.push(format!("{}: {host}", file["file"]));
                runs += usize::from(host["status"] == "fires" && host.get("planned").is_none());
            }
        }
        (runs, states)
    };
    let run = client::run(&bin, &world, model.port, "SCRIPT:bash go", &[]);
    let mut failed = Vec::new();
    for (label, files, state) in [
        (
            "gem-copied",
            &[".claude/settings.json", ".gemini/settings.json"][..],
            "fires",
        ),
        ("cop-routed", &[".github/hooks/mine.json"], "fires"),
        ("cop-untrusted", &[".github/hooks/other.json"], "blocked"),
    ] {
        let (runs, states) = said(files);
        let ran = world.records(label).len();
        if runs != ran
            || !states
                .iter()
                .any(|s| s.contains(&format!("\"status\":\"{state}\"")))
        {
            failed.push(format!(
                "{label}: Claude ran it {ran} time(s); doctor says {runs}: {states:#?}"
            ));
        }
    }
    assert!(
        world.records("cop-routed").len() == 1,
        "the run did not get to its Bash call\n{}",
        run.describe()
    );
    assert!(
        failed.is_empty(),
        "hookx doctor disagrees with Claude {}:\n{}\n{report:#}",
        client::VERSION,
        failed.join("\n")
    );
}

/// A rule on a tool of Claude's that no other agent has, so hookx's tool table had no id for it
/// (attacks row 1182: `Skill`, in a real file, 01O10/agent-engineering-playbook `b7b77022`
/// `.claude/settings.json`): doctor said "never fires" (exit 5) of a rule Claude runs. One
/// Skill call: the `Skill` rule must run and doctor must say it fires; and of every tool
/// Claude 2.1.332 offers its model (its request's `tools`), a rule on it must be one doctor
/// says fires, since Claude fires `PreToolUse` with that name when the model calls it.
fn a_rule_on_a_tool_only_claude_has_fires_as_doctor_says() {
    let Some(bin) = client_or_skip() else { return };
    let model = FakeModel::start(SCRIPTS);
    let world = World::new();
    let skill = world.project.join(".claude/skills/hello/SKILL.md");
    std::fs::create_dir_all(skill.parent().unwrap()).unwrap();
    std::fs::write(
        &skill,
        "---\nname: hello\ndescription: Says hello.\n---\nSay hello.\n",
    )
    .unwrap();
    world.answers("skill", &[]);
    let settings = world.project.join(".claude/settings.json");
    let rule = |matcher: &str, command: String| json!({"matcher": matcher, "hooks": [{"type": "command", "command": command}]});
    std::fs::write(
        &settings,
        json!({"hooks": {"PreToolUse": [
            rule("Skill", world.dumper_command("skill", "PreToolUse"))]}})
        .to_string(),
    )
    .unwrap();
    let (code, report) = doctor_report(&world, None);
    let status = report["files"][0]["rules"][0]["hosts"][0]["status"].clone();
    let run = client::run(&bin, &world, model.port, "SCRIPT:skill go", &[]);
    assert!(
        !world.records("skill").is_empty(),
        "Claude {} ran no `Skill` rule\n{}",
        client::VERSION,
        run.describe()
    );
    // Every tool Claude offered its model, but MCP tools (no such server here).
    let offered: BTreeSet<String> = model
        .requests()
        .iter()
        .flat_map(|r| r["tools"].as_array().cloned().unwrap_or_default())
        .filter_map(|t| t["name"].as_str().map(str::to_string))
        .filter(|n| !n.starts_with("mcp__"))
        .collect();
    assert!(offered.contains("Skill"), "{offered:?}");
    assert_eq!(
        status,
        "fires",
        "Claude {} ran the `Skill` rule and offers {offered:?}; doctor (exit {code:?}): \
         {report:#}",
        client::VERSION
    );
    let rules: Vec<Value> = offered
        .iter()
        .map(|name| rule(name, format!(": {name}")))
        .collect();
    std::fs::write(
        &settings,
        json!({"hooks": {"PreToolUse": rules}}).to_string(),
    )
    .unwrap();
    let (_, report) = doctor_report(&world, None);
    let never: Vec<String> = report["files"][0]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["hosts"][0]["status"] != "fires")
        .map(|r| format!("{}: {}", r["matcher"], r["hosts"][0]))
        .collect();
    assert!(
        never.is_empty(),
        "Claude {} offers {offered:?}; doctor says these rules do not fire:\n{}",
        client::VERSION,
        never.join("\n")
    );
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    harness::main(
        "live_claude_doctor",
        &[harness::client(
            "Claude Code",
            format!(
                "claude-{}/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
                client::VERSION
            ),
        )],
        live_tests![
            doctor_says_which_rules_claude_fires,
            settings_with_comments_or_trailing_commas,
            doctor_says_who_runs_each_rule,
            a_rule_on_a_tool_only_claude_has_fires_as_doctor_says,
        ],
    )
}
