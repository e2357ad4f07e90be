//! Claude Code 2.1.332 driven interactively, through a pseudo-terminal (`live_common/pty.rs`),
//! sealed off the network with the fake model of `live_claude.rs`: the events a `-p` run never
//! fires. One session types slash commands, answers the client's dialogs, changes a watched file
//! and the settings under it, and prompts the fake model into tool calls (tasks, worktrees, an
//! MCP server that asks for input, a folder change, a permission prompt left open, a teammate).
//! Every wait ends on an event: a hook's record on disk or text on the screen.
//!
//! `interactive_events`: the dumper natively on all 34 events (ground truth); each event's
//! payload is recorded (`HOOKX_RECORD=1` rewrites `tests/fixtures/recorded/claude-2.1.332/`
//! `init.*` and `pty.*`, otherwise their shapes are compared) and read by hookx's Claude tables.
//! `routed_interactive_events`: the events other agents share with Claude (Qwen's
//! InstructionsLoaded and UserPromptExpansion, Copilot's and Qwen's Notification) reach their
//! handlers through `hookx install --host claude`'s routes. Events no run here could make
//! fire, and why: conformance/claude-facts.md.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[path = "live_claude/checks.rs"]
mod checks;
#[allow(dead_code)]
#[path = "live_claude/client.rs"]
mod client;
#[path = "live_claude/fixtures.rs"]
mod fixtures;
#[path = "live_common/pty.rs"]
mod pty;
#[allow(dead_code)]
#[path = "live_claude/server.rs"]
mod server;

#[path = "common/claude_events.rs"]
mod claude_events;

use checks::Checks;
use claude_events::EVENTS;
use client::{Record, World, fired, hookx_cmd, hso, write_json};
use hookx::dialect::{claude, copilot, qwen};
use hookx::tables::Flavor;
use pty::Terminal;
use serde_json::{Value, json};
use server::{Block, FakeModel, Script};
use std::path::Path;
use std::process::Command;

fn bash(command: &str) -> Vec<Block> {
    vec![Block::Tool(
        "Bash",
        json!({"command": command, "description": "step"}),
    )]
}

/// Into a subfolder and back: two folder changes.
fn cwd_script(step: usize, _project: &str) -> Vec<Block> {
    match step {
        0 => bash("cd sub"),
        1 => bash("cd .."),
        _ => vec![Block::Text("Folders done.".into())],
    }
}

/// A task made, then completed (the task tools: `CLAUDE_CODE_ENABLE_TODO_TOOLS=1`).
fn tasks_script(step: usize, _project: &str) -> Vec<Block> {
    match step {
        0 => vec![Block::Tool(
            "TaskCreate",
            json!({"subject": "Write the notes", "description": "the release notes",
                   "activeForm": "Writing the notes"}),
        )],
        1 => vec![Block::Tool(
            "TaskUpdate",
            json!({"taskId": "1", "status": "completed"}),
        )],
        _ => vec![Block::Text("Tasks done.".into())],
    }
}

/// Into a worktree (made by the WorktreeCreate hook) and out of it, removing it. Both tools
/// are deferred: their schemas are loaded first.
fn worktree_script(step: usize, _project: &str) -> Vec<Block> {
    match step {
        0 => vec![Block::Tool(
            "ToolSearch",
            json!({"query": "select:EnterWorktree,ExitWorktree", "max_results": 5}),
        )],
        1 => vec![Block::Tool("EnterWorktree", json!({"name": "feature"}))],
        2 => vec![Block::Tool(
            "ExitWorktree",
            json!({"action": "remove", "discard_changes": true}),
        )],
        _ => vec![Block::Text("Worktree done.".into())],
    }
}

/// The MCP tool that asks the person for input (`live_claude/elicit.sh`).
fn elicit_script(step: usize, _project: &str) -> Vec<Block> {
    match step {
        0 => vec![Block::Tool("mcp__elicit__ask", json!({}))],
        _ => vec![Block::Text("Elicitation done.".into())],
    }
}

/// A call no hook answers: Claude asks the person, who leaves the prompt open.
fn ask_script(step: usize, _project: &str) -> Vec<Block> {
    match step {
        0 => bash("printf x > asked.txt # tag-ask"),
        _ => vec![Block::Text("Asked.".into())],
    }
}

/// A named agent: with agent teams on, a teammate, which goes idle when its turn ends.
fn team_script(step: usize, _project: &str) -> Vec<Block> {
    match step {
        0 => vec![Block::Tool(
            "Agent",
            json!({"description": "helper", "prompt": "SCRIPT:sub run the helper step",
                   "subagent_type": "claude", "name": "helper"}),
        )],
        _ => vec![Block::Text("Team started.".into())],
    }
}

/// The teammate's own turn.
fn sub_script(step: usize, _project: &str) -> Vec<Block> {
    match step {
        0 => bash("printf sub > sub.txt"),
        _ => vec![Block::Text("Helper finished.".into())],
    }
}

static SCRIPTS: &[(&str, Script)] = &[
    ("team", team_script),
    ("sub", sub_script),
    ("cwd", cwd_script),
    ("tasks", tasks_script),
    ("worktree", worktree_script),
    ("elicit", elicit_script),
    ("ask", ask_script),
];

/// The client, or a skip (a failure under `HOOKX_LIVE=require`).
fn client_or_skip(test: &str) -> Option<std::path::PathBuf> {
    let bin = client::binary();
    if bin.is_none() {
        let why = format!(
            "{test}: Claude Code {} is not installed (conformance/install-clients.sh) or cannot run sealed",
            client::VERSION
        );
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "{why}"
        );
        eprintln!("skip {why}");
    }
    bin
}

/// The project and home every session here runs in: onboarding done, the API key and the
/// project trusted (as a person would have answered), idle after one second; a CLAUDE.md, a
/// slash command running a shell line, a watched file, a subfolder, the MCP server, and the
/// project settings `hooks` (plus the FileChanged matcher naming the watched file).
fn prepare(world: &World, mut hooks: serde_json::Map<String, Value>) {
    let (home, project) = (&world.home, &world.project);
    write_json(
        &home.join(".claude.json"),
        &json!({
            "hasCompletedOnboarding": true, "theme": "dark", "numStartups": 5,
            "messageIdleNotifThresholdMs": 1000,
            "customApiKeyResponses": {"approved": ["dummy"], "rejected": []},
            // The project's MCP server approved here too (as a person's answer is stored);
            // this did not keep the "New MCP server found" dialog away: [`approve_mcp_server`].
            "projects": {project.display().to_string():
                {"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true,
                 "enabledMcpjsonServers": ["elicit"], "enableAllProjectMcpServers": true}}
        }),
    );
    std::fs::write(project.join("CLAUDE.md"), "Notes for the live suite.\n").unwrap();
    let command = project.join(".claude/commands/hello.md");
    std::fs::create_dir_all(command.parent().unwrap()).unwrap();
    std::fs::write(
        command,
        "---\ndescription: says hello\n---\nSay hello to $ARGUMENTS. Shell: !`echo shell-said-hello`\n",
    )
    .unwrap();
    std::fs::write(project.join("watched.txt"), "0\n").unwrap();
    std::fs::create_dir_all(project.join("sub")).unwrap();
    std::fs::create_dir_all(home.join("extra")).unwrap();
    let server = world.dump.join("elicit.sh");
    std::fs::write(&server, include_str!("live_claude/elicit.sh")).unwrap();
    write_json(
        &project.join(".mcp.json"),
        &json!({"mcpServers": {"elicit": {"command": "sh", "args": [server],
                                          "env": {"ELICIT_READY": elicit_ready(world)}}}}),
    );
    if let Some(Value::Array(groups)) = hooks.get_mut("FileChanged") {
        for group in groups {
            group["matcher"] = json!("watched.txt");
        }
    }
    settings(world, &hooks, 0);
}

/// The file the MCP server creates once Claude has listed its tools.
fn elicit_ready(world: &World) -> std::path::PathBuf {
    world.dump.join("elicit.ready")
}

/// Writes the project settings: `hooks`, the project's MCP server allowed, and a variable
/// whose value `n` changes the file.
fn settings(world: &World, hooks: &serde_json::Map<String, Value>, n: usize) {
    write_json(
        &world.project.join(".claude/settings.json"),
        &json!({"hooks": hooks, "enableAllProjectMcpServers": true,
                "env": {"HOOKX_PTY_EDIT": n.to_string()}}),
    );
}

/// The dumper on every one of Claude's 34 events.
fn native_hooks(world: &World) -> serde_json::Map<String, Value> {
    EVENTS
        .iter()
        .map(|e| {
            let command = world.dumper_command("claude", e);
            (
                e.to_string(),
                json!([{"hooks": [{"type": "command", "command": command}]}]),
            )
        })
        .collect()
}

/// Claude on a pseudo-terminal in the world's project: the task tools and agent teams on,
/// permissions asked.
fn start(bin: &Path, world: &World, port: u16) -> Terminal {
    let mut cmd = Command::new(bin);
    cmd.env_clear()
        .envs(client::base_env(world, port))
        .env("TERM", "xterm-256color")
        .env("CLAUDE_CODE_ENABLE_TODO_TOOLS", "1")
        .env("CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS", "1")
        .current_dir(&world.project)
        .arg("--debug-file")
        .arg(world.dump.join("debug-pty.log"))
        .args(["--permission-mode", "default"]);
    Terminal::spawn(cmd, 50, 160).expect("start claude on a pseudo-terminal")
}

/// The records of `label` for `event`.
fn of(world: &World, label: &str, event: &str) -> Vec<Record> {
    world
        .records(label)
        .into_iter()
        .filter(|r| r.event == event)
        .collect()
}

/// Waits until `label` has more than `at_least` records of `event`.
fn wait_records(term: &mut Terminal, world: &World, label: &str, event: &str, at_least: usize) {
    term.wait(&format!("{label} {event} record #{}", at_least + 1), |_| {
        of(world, label, event).len() > at_least
    });
}

/// Whether a line of the screen is the one a dialog's cursor (`❯`) is on and holds `text`.
fn selected(screen: &str, text: &str) -> bool {
    screen
        .lines()
        .any(|l| l.trim_start().starts_with('❯') && l.contains(text))
}

/// Answers Claude's "New MCP server found" dialog, where it shows, with "Use this MCP server"
/// (the elicitation steps need the server). Claude 2.1.332 showed it at start in every run of
/// 2026-12-05 after 09:00 UTC, although the project's settings say `enableAllProjectMcpServers`
/// and `~/.claude.json` lists the server as enabled; earlier the same day it did not.
fn approve_mcp_server(term: &mut Terminal) {
    const DIALOG: &str = "New MCP server found";
    term.wait("the prompt or the MCP server dialog", |s| {
        s.contains(DIALOG) || s.contains("? for shortcuts")
    });
    if !term.screen().contains(DIALOG) {
        return;
    }
    let up = match term.down() {
        "\x1bOB" => "\x1bOA",
        _ => "\x1b[A",
    };
    term.press_until(up, "'Use this MCP server' selected", |s| {
        selected(s, "Use this MCP server")
    });
    term.press_until("\r", "the MCP server approved", |s| !s.contains(DIALOG));
}

/// Types a prompt and waits for the turn's end (one more `Stop` record of `label`).
fn turn(term: &mut Terminal, world: &World, label: &str, prompt: &str) {
    let stops = of(world, label, "Stop").len();
    term.enter_line(prompt);
    wait_records(term, world, label, "Stop", stops);
}

/// Waits until the prompt is ready for typing.
fn ready(term: &mut Terminal) {
    term.wait_for_text("? for shortcuts");
}

/// Ground truth: the dumper on all 34 events, `claude --init-only` (Setup), then one
/// interactive session that makes every event below fire. The events' payloads are recorded,
/// and hookx's Claude tables read each as its event with the keys it sent.
fn interactive_events() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let Some(bin) = client_or_skip("interactive_events") else {
        return;
    };
    let model = FakeModel::start(SCRIPTS);
    let world = World::new();
    let hooks = native_hooks(&world);
    prepare(&world, hooks.clone());
    world.answers(
        "claude",
        &[
            // Every permission request is allowed by its hook but one, which asks the person.
            (
                "PermissionRequest",
                hso(
                    "PermissionRequest",
                    json!({"decision": {"behavior": "allow"}}),
                ),
            ),
            ("PermissionRequest.tag-ask", ":\n".into()),
            // A WorktreeCreate hook makes the worktree: its path on stdout.
            (
                "WorktreeCreate",
                "d=\"$HOME/worktrees/feature\"; mkdir -p \"$d\"; echo \"$d\"\n".into(),
            ),
        ],
    );
    let mut c = Checks::default();

    // Setup fires for `--init-only` (run 2.1.332: an interactive `--init` fired neither Setup
    // nor SessionStart).
    let init = client::command(&bin, &world, &["--init-only"]);
    let records = world.records("claude");
    c.check(
        records
            .iter()
            .any(|r| r.event == "Setup" && r.stdin["trigger"] == "init"),
        format!(
            "--init-only fired Setup with trigger init ({:?}; {})",
            fired(&records),
            String::from_utf8_lossy(&init.stderr)
        ),
    );
    check_table(&mut c, &records);
    // `--init-only` may exit before Claude's CLAUDE.md load fires InstructionsLoaded: fresh-clone
    // CI at a94dc95e saw it missing once, where every earlier run had it.
    fixtures::record_or_compare(&mut c, &world, "init", &records, &["InstructionsLoaded"]);
    world.clear_records();

    let mut term = start(&bin, &world, model.port);
    approve_mcp_server(&mut term);
    wait_records(&mut term, &world, "claude", "SessionStart", 0);
    wait_records(&mut term, &world, "claude", "InstructionsLoaded", 0);
    ready(&mut term);

    // A file a FileChanged matcher names, then the settings file, changed until Claude's
    // watchers (which start after the session) report it; each write a second apart, as the
    // watchers wait for a file to settle.
    let mut last = std::time::Instant::now();
    let mut n = 0;
    term.wait("FileChanged on watched.txt", |_| {
        if last.elapsed() > std::time::Duration::from_secs(1) {
            n += 1;
            std::fs::write(world.project.join("watched.txt"), format!("{n}\n")).unwrap();
            last = std::time::Instant::now();
        }
        !of(&world, "claude", "FileChanged").is_empty()
    });
    term.wait("ConfigChange on the project settings", |_| {
        if last.elapsed() > std::time::Duration::from_secs(1) {
            n += 1;
            settings(&world, &hooks, n);
            last = std::time::Instant::now();
        }
        !of(&world, "claude", "ConfigChange").is_empty()
    });

    // `/model`: a switch asks to confirm once the conversation is cached; before the first
    // turn it may not.
    term.enter_line("/model sonnet");
    term.wait("the model switched or a confirmation", |s| {
        s.contains("Switch model?") || !of(&world, "claude", "PostModelSwitch").is_empty()
    });
    if term.screen().contains("Switch model?") {
        term.press_until("\r", "PostModelSwitch", |_| {
            !of(&world, "claude", "PostModelSwitch").is_empty()
        });
    }
    wait_records(&mut term, &world, "claude", "PostModelSwitch", 0);
    ready(&mut term);

    // `/add-dir`: the folder is trusted (second choice), then added for this session.
    let extra = world.home.join("extra").display().to_string();
    term.enter_line(&format!("/add-dir {extra}"));
    term.wait_for_text("Yes, add it");
    let down = term.down();
    term.press_until(down, "'Yes, add it' selected", |s| {
        selected(s, "Yes, add it")
    });
    term.press_until("\r", "the second question", |s| {
        selected(s, "Yes, for this session")
    });
    term.press_until("\r", "DirectoryAdded", |_| {
        !of(&world, "claude", "DirectoryAdded").is_empty()
    });
    ready(&mut term);

    // A slash command of the project, whose text runs a shell line.
    turn(&mut term, &world, "claude", "/hello world");
    ready(&mut term);
    turn(&mut term, &world, "claude", "SCRIPT:cwd change folders");
    ready(&mut term);
    turn(&mut term, &world, "claude", "SCRIPT:tasks make a task");
    ready(&mut term);
    turn(
        &mut term,
        &world,
        "claude",
        "SCRIPT:worktree use a worktree",
    );
    ready(&mut term);

    // The MCP server (connected: it has listed its tools) asks for a colour: typed into the
    // form, then accepted.
    term.wait("the MCP server connected", |_| {
        elicit_ready(&world).exists()
    });
    let stops = of(&world, "claude", "Stop").len();
    term.enter_line("SCRIPT:elicit ask for a colour");
    wait_records(&mut term, &world, "claude", "Elicitation", 0);
    term.wait_for_text("Pick a colour");
    term.press_until("b", "the first letter typed", |s| s.contains("colour: b"));
    term.send("lue");
    term.wait_for_text("colour: blue");
    let down = term.down();
    term.press_until(down, "'Accept' selected", |s| selected(s, "Accept"));
    term.press_until("\r", "ElicitationResult", |_| {
        !of(&world, "claude", "ElicitationResult").is_empty()
    });
    wait_records(&mut term, &world, "claude", "Stop", stops);
    ready(&mut term);

    // A permission prompt left open: Claude notifies, then the person cancels.
    term.enter_line("SCRIPT:ask ask the person");
    term.wait("a permission_prompt Notification", |_| {
        notified(&world, "claude", "permission_prompt")
    });
    term.press_until("\x1b", "the prompt cancelled", |s| {
        s.contains("? for shortcuts")
    });

    // An agent team: the named agent is a teammate, idle when its turn ends. Last, as the
    // teammate's end wakes the main conversation for one more turn.
    term.enter_line("SCRIPT:team start a teammate");
    wait_records(&mut term, &world, "claude", "TeammateIdle", 0);
    term.wait("an idle_prompt Notification", |_| {
        notified(&world, "claude", "idle_prompt")
    });
    let screen = term.screen();
    drop(term);

    let records = world.records("claude");
    eprintln!("pty: fired {:?}", fired(&records));
    for event in [
        "InstructionsLoaded",
        "FileChanged",
        "ConfigChange",
        "PreModelSwitch",
        "PostModelSwitch",
        "DirectoryAdded",
        "UserPromptExpansion",
        "PreSkillShellCommand",
        "CwdChanged",
        "TaskCreated",
        "TaskCompleted",
        "WorktreeCreate",
        "WorktreeRemove",
        "Elicitation",
        "ElicitationResult",
        "Notification",
        "TeammateIdle",
    ] {
        c.check(
            records.iter().any(|r| r.event == event),
            format!("{event} fired"),
        );
    }
    check_session(&mut c, &world, &records);
    check_table(&mut c, &records);
    // Whether the turn-end and idle events of a step fire again before the next one is typed
    // depends on timing; the session ending (killed) may or may not fire SessionEnd.
    fixtures::record_or_compare(&mut c, &world, "pty", &records, &["SessionEnd"]);
    let _ = model;
    c.finish("interactive_events", &screen);
}

/// Whether `label` recorded a Notification of `kind`.
fn notified(world: &World, label: &str, kind: &str) -> bool {
    of(world, label, "Notification")
        .iter()
        .any(|r| r.stdin["notification_type"] == kind)
}

/// What each event said about what happened in the session.
fn check_session(c: &mut Checks, world: &World, records: &[Record]) {
    let project = world.project.display().to_string();
    let first = |event: &str| records.iter().find(|r| r.event == event).map(|r| &r.stdin);
    let field = |event: &str, key: &str| first(event).map(|s| s[key].clone());
    c.check(
        field("InstructionsLoaded", "file_path") == Some(json!(format!("{project}/CLAUDE.md"))),
        "InstructionsLoaded names the project's CLAUDE.md",
    );
    c.check(
        field("FileChanged", "file_path") == Some(json!(format!("{project}/watched.txt"))),
        "FileChanged names the watched file",
    );
    c.check(
        field("ConfigChange", "file_path")
            == Some(json!(format!("{project}/.claude/settings.json"))),
        "ConfigChange names the project settings",
    );
    c.check(
        field("PreModelSwitch", "requested_model") == Some(json!("sonnet")),
        "PreModelSwitch has the requested model",
    );
    c.check(
        field("DirectoryAdded", "directory")
            == Some(json!(world.home.join("extra").display().to_string())),
        "DirectoryAdded names the folder",
    );
    c.check(
        field("UserPromptExpansion", "command_name") == Some(json!("hello"))
            && field("UserPromptExpansion", "command_args") == Some(json!("world")),
        "UserPromptExpansion has the command and its arguments",
    );
    c.check(
        field("PreSkillShellCommand", "tool_input")
            == Some(json!({"command": "echo shell-said-hello"})),
        "PreSkillShellCommand has the command's shell line",
    );
    c.check(
        field("CwdChanged", "new_cwd") == Some(json!(format!("{project}/sub"))),
        "CwdChanged has the new folder",
    );
    c.check(
        field("TaskCreated", "task_subject") == Some(json!("Write the notes"))
            && field("TaskCompleted", "task_id") == field("TaskCreated", "task_id"),
        "TaskCreated and TaskCompleted name the task",
    );
    let worktree = world.home.join("worktrees/feature").display().to_string();
    c.check(
        field("WorktreeCreate", "name") == Some(json!("feature"))
            && field("WorktreeRemove", "worktree_path") == Some(json!(worktree)),
        "WorktreeCreate has the name, WorktreeRemove the path the hook made",
    );
    c.check(
        field("Elicitation", "mcp_server_name") == Some(json!("elicit"))
            && field("ElicitationResult", "action") == Some(json!("accept"))
            && field("ElicitationResult", "content") == Some(json!({"colour": "blue"})),
        "Elicitation names the server, ElicitationResult has what was typed",
    );
    c.check(
        field("TeammateIdle", "teammate_name") == Some(json!("helper")),
        "TeammateIdle names the teammate",
    );
}

/// hookx's Claude tables read each record as the event it was registered on, and the table
/// holds every key the client sent (`Tables::payload_keys`, which `tests/doctor.rs` checks
/// against the recordings).
fn check_table(c: &mut Checks, records: &[Record]) {
    let tables = claude::FLAVOR.tables();
    for r in records {
        let what = format!("{} {}", r.order, r.event);
        match hookx::protocol::decode_event_as(
            r.stdin_text.as_bytes(),
            claude::DIALECT,
            Some(&r.event),
        ) {
            Ok((event, flavor)) => {
                c.check(
                    flavor == claude::FLAVOR && tables.event_name(&event.kind) == Some(&*r.event),
                    format!("{what}: read as Claude's {} ({flavor})", event.kind),
                );
                let known = tables.payload_keys(&event.kind).unwrap_or_default();
                let unknown: Vec<_> = r
                    .stdin
                    .as_object()
                    .unwrap()
                    .keys()
                    .filter(|k| !known.contains(&k.as_str()))
                    .collect();
                c.check(
                    unknown.is_empty(),
                    format!("{what}: keys the table lacks: {unknown:?}"),
                );
            }
            Err(e) => c.check(false, format!("{what}: not read: {e}")),
        }
    }
}

/// One handler per event of `events` (as Claude names them) in `flavor`'s names
/// ([`client::dumper_rules`]).
fn dumper_rules(
    world: &World,
    flavor: Flavor,
    events: &[&str],
    grouped: bool,
) -> serde_json::Map<String, Value> {
    let t = flavor.tables();
    let names = events.iter().map(|e| {
        let kind = claude::FLAVOR.tables().event_kind(e).unwrap();
        t.event_name(&kind).unwrap()
    });
    client::dumper_rules(world, flavor, names, grouped)
}

/// hookx routed in: `hookx install --host claude` routes the events a trusted Qwen file
/// (InstructionsLoaded, UserPromptExpansion, Notification) and a trusted Copilot file
/// (notification) hold; an interactive session fires them, and each handler gets its own
/// agent's payload of the event.
fn routed_interactive_events() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let Some(bin) = client_or_skip("routed_interactive_events") else {
        return;
    };
    let model = FakeModel::start(SCRIPTS);
    let world = World::new();
    prepare(&world, serde_json::Map::new());
    write_json(
        &world.project.join(".qwen/settings.json"),
        &json!({"hooks": dumper_rules(&world, qwen::FLAVOR, &[
            "InstructionsLoaded", "UserPromptExpansion", "Notification"], true)}),
    );
    write_json(
        &world.project.join(".github/hooks/pty.json"),
        &json!({"version": 1,
                "hooks": dumper_rules(&world, copilot::FLAVOR, &["Notification"], false)}),
    );
    hookx_cmd(&world, &["install", "--host", "claude"]);
    hookx_cmd(&world, &["trust", "--yes"]);
    let mut c = Checks::default();

    let mut term = start(&bin, &world, model.port);
    approve_mcp_server(&mut term);
    wait_records(&mut term, &world, "qwen", "InstructionsLoaded", 0);
    ready(&mut term);
    term.enter_line("/hello routed");
    wait_records(&mut term, &world, "qwen", "UserPromptExpansion", 0);
    ready(&mut term);
    wait_records(&mut term, &world, "qwen", "Notification", 0);
    wait_records(&mut term, &world, "copilot", "notification", 0);
    let screen = term.screen();
    drop(term);

    for flavor in [qwen::FLAVOR, copilot::FLAVOR] {
        let records = world.records(flavor.name());
        eprintln!("{}: got {:?}", flavor.name(), fired(&records));
        checks::foreign_payloads(&mut c, &world, flavor, &records);
    }
    let qwen = world.records("qwen");
    let expansion = qwen.iter().find(|r| r.event == "UserPromptExpansion");
    c.check(
        expansion.is_some_and(|r| r.stdin["command_name"] == "hello"),
        format!("Qwen's UserPromptExpansion handler got the command: {expansion:?}"),
    );
    let _ = model;
    c.finish("routed_interactive_events", &screen);
}

/// The two sessions run one after the other: run side by side on the 2-core machine, one
/// missed 2 of its 227 checks once (09:11 UTC, 2026-12-05); alone, each passed every time.
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn main() -> std::process::ExitCode {
    harness::main(
        "live_claude_pty",
        &[harness::client(
            "Claude Code",
            format!(
                "claude-{}/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
                client::VERSION
            ),
        )],
        live_tests![interactive_events, routed_interactive_events],
    )
}
