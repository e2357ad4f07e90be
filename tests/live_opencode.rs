//! The live conformance suite for OpenCode 1.18.33 and Kilo Code CLI 7.7.7: the real clients,
//! driven offline through a fake model server. Ground truth first (a test plugin, hookx out of
//! the loop): what a `tool.execute.before` throw does, how a rewrite must be made, what the
//! hooks receive, which plugin files load and what hangs the client. conformance/opencode-facts.md
//! holds the facts these runs confirm.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[path = "live_opencode/client.rs"]
mod client;
mod common;
#[path = "live_common/faults.rs"]
mod faults;
#[allow(dead_code)]
#[path = "live_common/chat_server.rs"]
mod server;

use client::{Client, Sandbox};
use serde_json::{Value, json};
use server::{FakeModel, Step};
use std::time::Duration;

/// The recorder every test plugin starts with: one JSON line per call in `HOME/rec.jsonl`.
const REC: &str = r#"import fs from "fs";
const rec = (o) => fs.appendFileSync(process.env.HOME + "/rec.jsonl", JSON.stringify(o) + "\n");
"#;

/// Blocks `BLOCKME`, rewrites `REWRITE` in place, assigns a new object for `ASSIGN`; records
/// every hook it is given.
const GROUND: &str = r#"
export const Ground = async (ctx) => {
  rec({load: "project-plugin", ctx: Object.keys(ctx), directory: ctx.directory, worktree: ctx.worktree});
  return {
    "tool.execute.before": async (input, output) => {
      rec({hook: "tool.execute.before", input, output: JSON.parse(JSON.stringify(output))});
      const c = (output.args && output.args.command) || "";
      if (c.includes("BLOCKME")) throw new Error("ground-truth: blocked by the plugin");
      if (c.includes("REWRITE")) output.args.command = "echo rewritten > rewritten.txt";
      if (c.includes("ASSIGN")) output.args = { command: "echo assigned > assigned.txt" };
    },
    "tool.execute.after": async (input, output) => {
      rec({hook: "tool.execute.after", input, output});
      if (input.tool === "read") output.output += "\nCONTEXT-FROM-AFTER";
    },
    "permission.ask": async (input, output) => rec({hook: "permission.ask", input, output}),
    "chat.message": async (input, output) => rec({hook: "chat.message", input}),
    "shell.env": async (input, output) => rec({hook: "shell.env", input}),
    event: async ({event}) => rec({hook: "event", type: event.type, event}),
  };
};
"#;

fn bash(command: &str) -> Step {
    Step::Tools(vec![("bash", json!({"command": command}))])
}

fn scripts(name: &str, project: &str) -> Vec<Step> {
    let file = format!("{project}/w.txt");
    match name {
        "ground" => vec![
            bash("echo BLOCKME > blocked.txt"),
            bash("echo REWRITE > original.txt"),
            bash("echo ASSIGN > kept.txt"),
            Step::Tools(vec![(
                "write",
                json!({"filePath": file, "content": "one\n"}),
            )]),
            Step::Tools(vec![(
                "edit",
                json!({"filePath": file, "oldString": "one", "newString": "two"}),
            )]),
            Step::Tools(vec![("read", json!({"filePath": file}))]),
            Step::Text("ground done"),
        ],
        "one" => vec![bash("echo one > one.txt"), Step::Text("one done")],
        "below" => vec![
            bash("echo below > below.txt #claude"),
            Step::Text("below done"),
        ],
        "routed" => vec![
            bash("rm -rf / #claude"),
            bash("rm -rf / #copilot"),
            bash("rm -rf / #bricks"),
            bash("echo REWRITE-ME > original.txt"),
            bash("echo untouched > untouched.txt"),
            bash("echo COPILOT-REWRITE > copilot-original.txt"),
            Step::Text("routed done"),
        ],
        "story" => vec![
            bash("echo story > story.txt"),
            bash(common::STORY_DENIED),
            Step::Tools(vec![(
                "write",
                json!({"filePath": format!("{project}/w.txt"), "content": "one\n"}),
            )]),
            Step::Text("story done"),
        ],
        "faults" => faults::commands()
            .iter()
            .map(|c| bash(c))
            .chain([Step::Text("faults done")])
            .collect(),
        _ => vec![Step::Text("unknown scenario")],
    }
}

/// The `role: "tool"` message answering each tool call, in order.
fn tool_messages(model: &FakeModel, scenario: &str) -> Vec<String> {
    model
        .requests_of(scenario)
        .last()
        .and_then(|b| b["messages"].as_array().cloned())
        .unwrap_or_default()
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap_or_default().to_string())
        .collect()
}

fn hooks<'a>(records: &'a [Value], hook: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["hook"] == hook).collect()
}

/// The keys of a JSON object, sorted.
fn keys(v: &Value) -> Vec<String> {
    let mut k: Vec<String> = v
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    k.sort();
    k
}

fn ground_truth(client: Client) {
    let Some(bin) = client::binary(client) else {
        return;
    };
    let sb = Sandbox::new(client);
    sb.write(
        &format!("project/{}/plugin/ground.js", client.dot()),
        &format!("{REC}{GROUND}"),
    );
    let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
    let out = sb.run(&bin, model.port, "SCENARIO:ground go", &[]);
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    let messages = tool_messages(&model, "ground");
    // A throw blocks the tool, and the model reads the message as the tool's result, verbatim.
    assert_eq!(
        messages[0], "ground-truth: blocked by the plugin",
        "{messages:?}"
    );
    assert!(!sb.project.join("blocked.txt").exists());
    // Mutating `output.args` rewrites the call; assigning a new object is ignored.
    assert!(sb.project.join("rewritten.txt").exists());
    assert!(!sb.project.join("original.txt").exists());
    assert!(sb.project.join("kept.txt").exists());
    assert!(!sb.project.join("assigned.txt").exists());
    // `tool.execute.after` may append to `output.output`: the model reads it.
    assert!(messages[5].contains("CONTEXT-FROM-AFTER"), "{messages:?}");
    let records = sb.records();
    let before = hooks(&records, "tool.execute.before");
    let tools: Vec<&str> = before
        .iter()
        .map(|r| r["input"]["tool"].as_str().unwrap())
        .collect();
    assert_eq!(tools, ["bash", "bash", "bash", "write", "edit", "read"]);
    assert_eq!(keys(&before[0]["input"]), ["callID", "sessionID", "tool"]);
    assert_eq!(keys(&before[0]["output"]), ["args"]);
    assert_eq!(keys(&before[3]["output"]["args"]), ["content", "filePath"]);
    assert_eq!(
        keys(&before[4]["output"]["args"]),
        ["filePath", "newString", "oldString"]
    );
    let after = hooks(&records, "tool.execute.after");
    // No after for the blocked call; the after sees the rewritten arguments.
    assert_eq!(after.len(), 5, "{after:?}");
    assert_eq!(
        keys(&after[0]["input"]),
        ["args", "callID", "sessionID", "tool"]
    );
    assert_eq!(
        after[0]["input"]["args"]["command"],
        "echo rewritten > rewritten.txt"
    );
    assert_eq!(keys(&after[0]["output"]), ["metadata", "output", "title"]);
    // `permission.ask` is never called in `run`.
    assert!(hooks(&records, "permission.ask").is_empty());
    let events: Vec<&str> = hooks(&records, "event")
        .iter()
        .map(|r| r["type"].as_str().unwrap())
        .collect();
    for wanted in [
        "session.created",
        "session.idle",
        "file.edited",
        "message.updated",
    ] {
        assert!(events.contains(&wanted), "{wanted} not in {events:?}");
    }
    record_fixture(client, &records);
}

/// Saves the first payload of each hook and event type, with the client's version, in
/// tests/fixtures/plugin-events/CLIENT-VERSION/ when `HOOKX_RECORD=1` (the fixtures the dialect
/// tables were read from); otherwise checks the keys still match them.
fn record_fixture(client: Client, records: &[Value]) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "tests/fixtures/plugin-events/{}-{}",
        client.host(),
        client.version()
    ));
    let mut firsts = std::collections::BTreeMap::new();
    for r in records {
        let name = match (r["hook"].as_str(), r["type"].as_str()) {
            (Some("event"), Some(t)) => format!("event.{t}"),
            (Some(h), _) => h.to_string(),
            _ => continue,
        };
        firsts.entry(name).or_insert_with(|| r.clone());
    }
    for (name, r) in &firsts {
        let path = dir.join(format!("{name}.json"));
        if std::env::var("HOOKX_RECORD").as_deref() == Ok("1") {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, serde_json::to_string_pretty(r).unwrap() + "\n").unwrap();
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            let old: Value = serde_json::from_str(&text).unwrap();
            for part in ["input", "output"] {
                assert_eq!(
                    keys(&old[part]),
                    keys(&r[part]),
                    "{name} {part} keys changed"
                );
            }
        }
    }
}

fn opencode_ground_truth() {
    ground_truth(Client::OpenCode);
}

fn kilo_ground_truth() {
    ground_truth(Client::Kilo);
}

/// Which files load: user plugins first, `plugin/` and `plugins/`, `.js` and `.ts`; not `.mjs`,
/// not sub-folders; a file with an export that is not a function is skipped whole.
fn opencode_loading() {
    let Some(bin) = client::binary(Client::OpenCode) else {
        return;
    };
    let sb = Sandbox::new(Client::OpenCode);
    let plugin = |rel: &str, label: &str| {
        let name = label.replace(['-', '.'], "_");
        sb.write(
            rel,
            &format!("{REC}export const P_{name} = async () => {{ rec({{load: \"{label}\"}}); return {{}}; }};\n"),
        );
    };
    plugin("home/.config/opencode/plugin/u.js", "user");
    plugin("project/.opencode/plugin/p.js", "project-plugin");
    plugin("project/.opencode/plugins/q.js", "project-plugins");
    plugin("project/.opencode/plugin/t.ts", "project-ts");
    plugin("project/.opencode/plugin/m.mjs", "mjs");
    plugin("project/.opencode/plugin/sub/s.js", "sub-folder");
    sb.write(
        "project/.opencode/plugin/n.js",
        &format!("{REC}export const notAFunction = 42;\nexport const N = async () => {{ rec({{load: \"mixed\"}}); return {{}}; }};\n"),
    );
    let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
    let out = sb.run(&bin, model.port, "SCENARIO:one go", &[]);
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    let loaded: Vec<String> = sb
        .records()
        .iter()
        .filter_map(|r| r["load"].as_str().map(str::to_string))
        .collect();
    assert_eq!(
        loaded.first().map(String::as_str),
        Some("user"),
        "{loaded:?}"
    );
    for yes in ["project-plugin", "project-plugins", "project-ts"] {
        assert!(
            loaded.iter().any(|l| l == yes),
            "{yes} not loaded: {loaded:?}"
        );
    }
    for no in ["mjs", "sub-folder", "mixed"] {
        assert!(!loaded.iter().any(|l| l == no), "{no} loaded: {loaded:?}");
    }
    // Nothing was fetched: the seeded plugin package was enough.
    assert!(model.chats().len() >= 2);
}

/// Attacks row 388, ground truth: with `XDG_CONFIG_HOME` naming another folder, OpenCode (and
/// Kilo) loads its user plugins from `$XDG_CONFIG_HOME/opencode/plugin/`, not `~/.config/opencode/plugin/`
/// (a user route of hookx's below the home is none it runs then). The config is given by
/// `OPENCODE_CONFIG`, so the run needs nothing else from either folder.
fn user_plugins_below_xdg_config_home(client: Client) {
    let Some(bin) = client::binary(client) else {
        return;
    };
    let sb = Sandbox::new(client);
    let (name, config_var) = match client {
        Client::OpenCode => ("opencode", "OPENCODE_CONFIG"),
        Client::Kilo => ("kilo", "KILO_CONFIG"),
    };
    let plugin = |rel: &str, label: &str| {
        sb.write(
            rel,
            &format!("{REC}export const P_{label} = async () => {{ rec({{load: \"{label}\"}}); return {{}}; }};\n"),
        );
    };
    plugin(&format!("home/.config/{name}/plugin/u.js"), "home_config");
    plugin(&format!("xdg/{name}/plugin/x.js"), "xdg");
    let xdg = sb.root.join("xdg");
    let config = sb.user_dir().join(format!("{name}.json"));
    let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
    let out = sb.run(
        &bin,
        model.port,
        "SCENARIO:one go",
        &[
            ("XDG_CONFIG_HOME", xdg.to_str().unwrap()),
            (config_var, config.to_str().unwrap()),
        ],
    );
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    let loaded: Vec<String> = sb
        .records()
        .iter()
        .filter_map(|r| r["load"].as_str().map(str::to_string))
        .collect();
    assert_eq!(loaded, ["xdg"], "{loaded:?}");
}

fn opencode_user_plugins_below_xdg_config_home() {
    user_plugins_below_xdg_config_home(Client::OpenCode);
}

fn kilo_user_plugins_below_xdg_config_home() {
    user_plugins_below_xdg_config_home(Client::Kilo);
}

/// A project's `.env` or `.env.local` does not reach the environment of a user's plugin (and
/// so of what it spawns: hookx's route and its handlers): OpenCode and Kilo run on Bun, whose
/// standalone executables may load `.env` files from the working folder; these do not
/// (attacks row 156, ground truth: nothing for doctor to say, unlike Gemini's `.env`).
fn project_env_file(client: Client) {
    let Some(bin) = client::binary(client) else {
        return;
    };
    let sb = Sandbox::new(client);
    sb.write(
        &format!("home/{}/plugin/u.js", client.user_dir()),
        &format!("{REC}export const U = async () => {{ rec({{load: \"user\", probe: process.env.HXPROBE || null, bash_env: process.env.BASH_ENV || null, ld: process.env.LD_PRELOAD || null, path_has: (process.env.PATH || '').includes('repo-tools')}}); return {{ \"tool.execute.before\": async () => rec({{hook: \"before\", probe: process.env.HXPROBE || null, bash_env: process.env.BASH_ENV || null}}) }}; }};\n"),
    );
    for name in [".env", ".env.local"] {
        sb.write(
            &format!("project/{name}"),
            &format!("HXPROBE=seen{name}\nBASH_ENV=/repo-bashenv{name}\nLD_PRELOAD=/repo-ld.so\nPATH=/repo-tools:/usr/bin\n"),
        );
    }
    let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
    let out = sb.run(&bin, model.port, "SCENARIO:one go", &[]);
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    let records = sb.records();
    assert!(
        records.iter().any(|r| r["hook"] == "before"),
        "the plugin's hook ran: {records:?}"
    );
    for r in &records {
        for key in ["probe", "bash_env", "ld"] {
            assert!(r.get(key).is_none_or(Value::is_null), "{key}: {r}");
        }
        assert!(r.get("path_has").is_none_or(|p| p == false), "{r}");
    }
}

fn opencode_project_env_file() {
    project_env_file(Client::OpenCode)
}

fn kilo_project_env_file() {
    project_env_file(Client::Kilo)
}

/// A synchronous throw in an `event` handler hangs `opencode run`, and later plugins stop
/// getting events; the same throw from an async handler does not.
fn opencode_sync_throw_in_event_hangs() {
    let Some(bin) = client::binary(Client::OpenCode) else {
        return;
    };
    let thrower = |sync: bool| {
        let sb = Sandbox::new(Client::OpenCode);
        let kw = if sync { "" } else { "async " };
        sb.write(
            "project/.opencode/plugin/a.js",
            &format!("export const A = async () => ({{ event: {kw}({{event}}) => {{ if (event.type === \"session.status\") throw new Error(\"thrown\"); }} }});\n"),
        );
        sb.write(
            "project/.opencode/plugin/b.js",
            &format!("{REC}export const B = async () => ({{ event: async ({{event}}) => rec({{event: event.type}}) }});\n"),
        );
        let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
        // Generous: a run of one tool call takes seconds; the hang is forever.
        let out = sb.run_for(
            &bin,
            model.port,
            "SCENARIO:one go",
            &[],
            Duration::from_secs(90),
        );
        let events: Vec<String> = sb
            .records()
            .iter()
            .filter_map(|r| r["event"].as_str().map(str::to_string))
            .collect();
        (out.map(|o| o.status), events, sb)
    };
    let (async_status, async_events, _a) = thrower(false);
    assert_eq!(
        async_status,
        Some(Some(0)),
        "an async throw in event is harmless"
    );
    assert!(async_events.iter().any(|e| e == "session.idle"));
    let (sync_status, sync_events, sb) = thrower(true);
    assert!(
        sync_status.is_none(),
        "a sync throw in event did not hang the run"
    );
    assert!(
        !sync_events.iter().any(|e| e == "session.idle"),
        "{sync_events:?}"
    );
    assert!(!sb.project.join("one.txt").exists());
}

/// A Claude guard (JSON deny), a Copilot guard (JSON deny), a Bricks guard (exit 2), a Claude
/// `updatedInput` rewrite, a Copilot `modifiedArgs` rewrite, a Claude and a Bricks PostToolUse
/// context (Bricks has no rewrite),
/// in the project's own hook files, routed in through the plugin `hookx install --host HOST`
/// writes (hookx trusted by the user): the guards block `rm -rf /` and their reasons reach the
/// model; the rewritten command runs instead of the original.
fn routed(client: Client) {
    let Some(bin) = client::binary(client) else {
        return;
    };
    let sb = Sandbox::new(client);
    let claude = r#"input=$(cat); case "$input" in
  *'#claude'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"CLAUDE-GUARD: no rm -rf / here"}}' ;;
  *REWRITE-ME*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rewritten > rewritten.txt"}}}' ;;
esac"#;
    let copilot = r#"input=$(cat); case "$input" in
  *'#copilot'*) echo '{"permissionDecision":"deny","permissionDecisionReason":"COPILOT-GUARD: no rm -rf / here"}' ;;
  *COPILOT-REWRITE*) echo '{"modifiedArgs":{"command":"echo copilot-rewritten > copilot-rewritten.txt"}}' ;;
esac"#;
    let context = r#"input=$(cat); case "$input" in *untouched*) echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CLAUDE-CONTEXT after the call"}}' ;; esac"#;
    sb.write(
        "project/.claude/settings.json",
        &json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": claude}]}],
            "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": context}]}]
        }})
        .to_string(),
    );
    let bricks = r#"input=$(cat); case "$input" in *'#bricks'*) echo "BRICKS-GUARD: no rm -rf / here" >&2; exit 2 ;; esac"#;
    let bricks_context = r#"input=$(cat); case "$input" in *untouched*) echo '{"additionalContext":"BRICKS-CONTEXT after the call"}' ;; esac"#;
    sb.write(
        "project/.bricks/hooks.json",
        &json!({"hooks": {
            "PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": bricks}]}],
            "PostToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": bricks_context}]}]
        }})
        .to_string(),
    );
    sb.write(
        "project/.github/hooks/guard.json",
        &json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": copilot}]}})
            .to_string(),
    );
    let hookx = env!("CARGO_BIN_EXE_hookx");
    common::hookx_at(
        &sb.project,
        &sb.home,
        &["install", "--host", client.host(), "--hookx", hookx],
    )
    .success();
    common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
    let plugin = sb.dot().join("plugin/hookx.js");
    assert!(
        plugin.is_file(),
        "install wrote no plugin at {}",
        plugin.display()
    );
    let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
    let out = sb.run(&bin, model.port, "SCENARIO:routed go", &[]);
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    let messages = tool_messages(&model, "routed");
    assert!(
        messages[0].contains("CLAUDE-GUARD: no rm -rf / here"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("COPILOT-GUARD: no rm -rf / here"),
        "{messages:?}"
    );
    assert!(
        messages[2].contains("BRICKS-GUARD: no rm -rf / here"),
        "{messages:?}"
    );
    // Context after a call is appended to the tool's output, which the model reads.
    for context in [
        "CLAUDE-CONTEXT after the call",
        "BRICKS-CONTEXT after the call",
    ] {
        assert!(messages[4].contains(context), "{context}: {messages:?}");
    }
    // A Claude `updatedInput` and a Copilot `modifiedArgs` rewrite: the new command runs.
    assert!(sb.project.join("rewritten.txt").is_file(), "{messages:?}");
    assert!(!sb.project.join("original.txt").exists());
    assert!(sb.project.join("untouched.txt").is_file());
    assert!(
        sb.project.join("copilot-rewritten.txt").is_file(),
        "{messages:?}"
    );
    assert!(!sb.project.join("copilot-original.txt").exists());
}

/// Attacks row 522 (row 521 under OpenCode and Kilo): the client started in a folder below the
/// project loads hookx's plugin from the project's `.opencode/plugin/` and hands it `directory` = the
/// folder it started in. The project's trusted Claude guard must still deny.
fn started_below_the_project(client: Client) {
    let Some(bin) = client::binary(client) else {
        return;
    };
    let sb = Sandbox::new(client);
    let guard = r#"input=$(cat); case "$input" in
  *'#claude'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"CLAUDE-GUARD: not below"}}' ;;
esac"#;
    sb.write(
        "project/.claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": guard}]}]}})
        .to_string(),
    );
    // A rule of the user's own, which the plugin's route runs too: it shows the route ran.
    let log = sb.root.join("user-rule.log");
    sb.write(
        "home/.claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
            "command": format!("jq -r .cwd >> '{}'", log.display())}]}]}})
        .to_string(),
    );
    let hookx = env!("CARGO_BIN_EXE_hookx");
    common::hookx_at(
        &sb.project,
        &sb.home,
        &["install", "--host", client.host(), "--hookx", hookx],
    )
    .success();
    common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
    let sub = sb.project.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    *sb.started_in.borrow_mut() = Some(sub.clone());
    let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
    let out = sb.run(&bin, model.port, "SCENARIO:below go", &[]);
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    let messages = tool_messages(&model, "below");
    let told = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(
        told.trim(),
        sub.display().to_string(),
        "the route ran once, told the folder OpenCode started in"
    );
    assert!(
        messages
            .first()
            .is_some_and(|m| m.contains("CLAUDE-GUARD: not below")),
        "{messages:?}\n{}",
        out.stderr
    );
    assert!(!sub.join("below.txt").exists() && !sb.project.join("below.txt").exists());
}

fn opencode_started_below_the_project() {
    started_below_the_project(Client::OpenCode);
}

fn kilo_started_below_the_project() {
    started_below_the_project(Client::Kilo);
}

fn opencode_routed_guards_and_rewrite() {
    routed(Client::OpenCode);
}

fn kilo_routed_guards_and_rewrite() {
    routed(Client::Kilo);
}

/// Attacks row 292: hookx's user plugin moved into a dotfiles folder and linked back, then
/// `install --uninstall`: the file the link names is left as a plugin routing nothing (it
/// was deleted). OpenCode loads that plugin as it is, and runs the call: nothing of hookx's is
/// left in the way, and nothing fails to load.
fn opencode_plugin_emptied_through_a_link() {
    let client = Client::OpenCode;
    let Some(bin) = client::binary(client) else {
        return;
    };
    let sb = Sandbox::new(client);
    let deny = r#"echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"CLAUDE-GUARD: no"}}'"#;
    sb.write(
        "home/.claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": deny}]}]}})
            .to_string(),
    );
    let hookx = env!("CARGO_BIN_EXE_hookx");
    let install = [
        "install",
        "--host",
        client.host(),
        "--scope",
        "user",
        "--hookx",
        hookx,
    ];
    common::hookx_at(&sb.project, &sb.home, &install).success();
    let plugin = sb.home.join(".config/opencode/plugin/hookx.js");
    let dotfiles = sb.home.join("dotfiles/hookx.js");
    std::fs::create_dir_all(dotfiles.parent().unwrap()).unwrap();
    std::fs::rename(&plugin, &dotfiles).unwrap();
    std::os::unix::fs::symlink(&dotfiles, &plugin).unwrap();
    common::hookx_at(
        &sb.project,
        &sb.home,
        &[&install[..], &["--uninstall"]].concat(),
    )
    .success();
    assert!(
        plugin.is_symlink() && dotfiles.is_file(),
        "the link or its file went"
    );
    let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
    let out = sb.run(&bin, model.port, "SCENARIO:one go", &[]);
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    assert!(
        sb.project.join("one.txt").is_file(),
        "{:?}\n{}",
        tool_messages(&model, "one"),
        out.stderr
    );
}

/// Records, for the story, each tool call and each `session.idle` the client itself fires.
const STORY_REC: &str = r#"
export const StoryRec = async () => ({
  "tool.execute.before": async (input) => rec({hook: "before", tool: input.tool}),
  "tool.execute.after": async (input) => rec({hook: "after", tool: input.tool}),
  event: async ({event}) => { if (event.type === "session.idle") rec({hook: "idle"}); },
});
"#;

/// The README's migration story under the client: a Claude project (a Bash guard, a
/// formatter on Write|Edit, a prompt logger, a Stop hook) converted with `--write` to Gemini,
/// OpenCode and Kilo, then `hookx install --host HOST` and `hookx trust --yes`, beside a
/// personal Claude rule routed through hookx in the user scope (`hookx run` fires on every
/// event with every copy in sight); with `install_first`, the project's install comes before
/// the conversion (its plugin is written, and the converted one beside it). Two `bash` calls
/// (the guard denies the second) and one `write`: the guard, the formatter and the Stop hook
/// run once per event the client fired (a recorder plugin of its own counts them), each with
/// Claude's payload, from the converted plugin; the prompt logger never (OpenCode has no
/// prompt event: a loss of the conversion, and no route fires it); the personal rule once per
/// event, through hookx; the guard's reason is the denied call's result.
fn story(client: Client, install_first: bool) {
    let Some(bin) = client::binary(client) else {
        return;
    };
    let sb = Sandbox::new(client);
    let hookx = env!("CARGO_BIN_EXE_hookx");
    let host = client.host();
    match install_first {
        false => {
            common::migration_story(&sb.project, &sb.home, "gemini,opencode,kilo", host);
        }
        true => {
            common::migration_story(&sb.project, &sb.home, "gemini", host);
            common::hookx_clean(&sb.project)
                .current_dir(&sb.project)
                .env("HOME", &sb.home)
                .args(["convert", ".claude/settings.json", "--to", "opencode,kilo"])
                .args(["--write", "--hookx", hookx])
                .assert()
                .success();
        }
    }
    common::story_user_route(&sb.project, &sb.home, host);
    assert!(sb.dot().join("plugin/hookx-converted.js").is_file());
    // A user plugin: loaded before the project's, it sees the calls a project plugin denies.
    sb.write(
        &format!("home/{}/plugin/story-rec.js", client.user_dir()),
        &format!("{REC}{STORY_REC}"),
    );
    let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
    let out = sb.run(&bin, model.port, "SCENARIO:story go", &[]);
    assert_eq!(out.status, Some(0), "{}\n{}", out.stdout, out.stderr);
    let messages = tool_messages(&model, "story");
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(sb.project.join("story.txt").is_file(), "{messages:?}");
    assert!(
        messages[1].contains(common::STORY_REASON),
        "the guard's deny is the denied call's result: {messages:?}"
    );
    let records = sb.records();
    let fired = |hook: &str, tools: &[&str]| {
        records
            .iter()
            .filter(|r| r["hook"] == hook)
            .filter(|r| tools.is_empty() || tools.iter().any(|t| r["tool"] == *t))
            .count()
    };
    let at = format!("{} (install first: {install_first})", client.what());
    for (label, fired) in [
        ("guard", fired("before", &["bash"])),
        ("fmt", fired("after", &["write", "edit"])),
        ("stop", fired("idle", &[])),
        (
            "user",
            fired("before", &[]) + fired("after", &[]) + fired("idle", &[]),
        ),
    ] {
        let wrong = common::story_once(&sb.project, label, fired);
        assert!(wrong.is_none(), "{at}: {}", wrong.unwrap_or_default());
    }
    assert_eq!(common::story_runs(&sb.project, "log"), Vec::<String>::new());
    // In the README's order install has nothing to route in the project: the client runs
    // every rule there itself.
    assert_eq!(
        sb.dot().join("plugin/hookx.js").is_file(),
        install_first,
        "{at}: install writes its project plugin only where hookx runs a rule there"
    );
}

/// The team loop under the client (attacks rows 760-779, [`common::team_of_four`]): hooks
/// written for Claude, Qwen, Droid and Auggie, each file converted into the three others',
/// hookx installed for the client in both scopes, trusted; with `plugins`, each of the four
/// files converted into OpenCode's and Kilo's plugins too (`--to opencode,kilo`), before the
/// install. Two `bash` calls (the Qwen guard denies the second) and one `write`: every guard
/// and Stop hook once per event the client fired (a recorder plugin of its own counts them),
/// but the guards after the Qwen guard on the denied call (the client stops at the first deny,
/// hookx's route and plugin with it); the prompt loggers never (no prompt event); the Qwen
/// guard's reason is the denied call's result.
fn team(client: Client, plugins: bool) {
    let Some(bin) = client::binary(client) else {
        return;
    };
    let sb = Sandbox::new(client);
    let hookx = env!("CARGO_BIN_EXE_hookx");
    let host = client.host();
    common::team_of_four_files(&sb.project, &sb.home, hookx);
    if plugins {
        for file in common::TEAM4_FILES {
            common::hookx_clean(&sb.project)
                .env("HOME", &sb.home)
                .args([
                    "convert",
                    file,
                    "--to",
                    "opencode,kilo",
                    "--write",
                    "--hookx",
                    hookx,
                ])
                .assert()
                .success();
        }
    }
    common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
    for scope in ["project", "user"] {
        let args = ["install", "--host", host, "--scope", scope];
        common::hookx_at(&sb.project, &sb.home, &args).success();
    }
    common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
    sb.write(
        &format!("home/{}/plugin/story-rec.js", client.user_dir()),
        &format!("{REC}{STORY_REC}"),
    );
    let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
    let out = sb.run(&bin, model.port, "SCENARIO:story go", &[]);
    let at = format!("{} (plugins: {plugins})", client.what());
    assert_eq!(out.status, Some(0), "{at}: {}\n{}", out.stdout, out.stderr);
    let messages = tool_messages(&model, "story");
    assert_eq!(messages.len(), 3, "{at}: {messages:?}");
    assert!(
        messages[1].contains(common::STORY_REASON),
        "{at}: the Qwen guard's deny is the denied call's result: {messages:?}"
    );
    // The order the guards run in: hookx's route takes the files in turn; the plugin holds
    // the last file converted into it, the Augment file, its own guard first.
    let after: &[&str] = match plugins {
        false => &["dguard", "aguard"],
        true => &["dguard"],
    };
    let records = sb.records();
    let fired = |hook: &str, tool: Option<&str>| {
        records
            .iter()
            .filter(|r| r["hook"] == hook)
            .filter(|r| tool.is_none_or(|t| r["tool"] == t))
            .count()
    };
    let wrong = common::team_of_four_once(
        &sb.project,
        [fired("before", Some("bash")), 0, fired("idle", None)],
        (after, 1),
    );
    assert!(wrong.is_empty(), "{at}: {}", wrong.join("\n"));
}

/// [`team`] under OpenCode and Kilo, with and without the plugins converted.
fn team_loop_runs_each_rule_once() {
    for client in [Client::OpenCode, Client::Kilo] {
        for plugins in [false, true] {
            team(client, plugins);
        }
    }
}

/// Four files converted into the client's plugin one after another (attacks row 767,
/// [`common::team_of_four_written`]): the Claude, Qwen, Droid and Augment files, none converted
/// into the others, each `convert --to opencode,kilo --write` (the copies calling this build),
/// nothing installed or trusted: the plugin alone runs the rules. Every guard and Stop hook once
/// per event (but the guards after the Qwen guard on the call it denies), and the Qwen guard's
/// reason is the denied call's result.
fn four_files_into_the_plugin(client: Client) {
    let Some(bin) = client::binary(client) else {
        return;
    };
    let sb = Sandbox::new(client);
    let hookx = env!("CARGO_BIN_EXE_hookx");
    common::team_of_four_written(&sb.project);
    for file in common::TEAM4_FILES {
        common::hookx_clean(&sb.project)
            .env("HOME", &sb.home)
            .args([
                "convert",
                file,
                "--to",
                "opencode,kilo",
                "--write",
                "--hookx",
                hookx,
            ])
            .assert()
            .success();
    }
    sb.write(
        &format!("home/{}/plugin/story-rec.js", client.user_dir()),
        &format!("{REC}{STORY_REC}"),
    );
    let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
    let out = sb.run(&bin, model.port, "SCENARIO:story go", &[]);
    let at = client.what();
    assert_eq!(out.status, Some(0), "{at}: {}\n{}", out.stdout, out.stderr);
    let messages = tool_messages(&model, "story");
    assert!(
        messages
            .get(1)
            .is_some_and(|m| m.contains(common::STORY_REASON)),
        "{at}: the Qwen guard's deny is the denied call's result: {messages:?}"
    );
    let records = sb.records();
    let fired = |hook: &str, tool: Option<&str>| {
        records
            .iter()
            .filter(|r| r["hook"] == hook)
            .filter(|r| tool.is_none_or(|t| r["tool"] == t))
            .count()
    };
    let wrong = common::team_of_four_once(
        &sb.project,
        [fired("before", Some("bash")), 0, fired("idle", None)],
        (&["dguard", "aguard"], 1),
    );
    assert!(wrong.is_empty(), "{at}: {}", wrong.join("\n"));
}

/// [`four_files_into_the_plugin`] under OpenCode and Kilo.
fn four_files_converted_into_the_plugin_each_run_once() {
    four_files_into_the_plugin(Client::OpenCode);
    four_files_into_the_plugin(Client::Kilo);
}

/// Attacks row 1202: the fault matrix (tests/live_common/faults.rs) under OpenCode and Kilo: a
/// hanging, slow, crashing, noisy or oversized handler beside a deny, through `hookx run` from
/// the plugin `hookx install` writes and through the plugin `hookx convert --write` writes
/// (which runs each handler through `hookx exec`): each denied `bash` call never runs, and the
/// deny's reason is its result.
fn faulty_handlers_beside_a_deny() {
    let mut wrong = Vec::new();
    for client in [Client::OpenCode, Client::Kilo] {
        let Some(bin) = client::binary(client) else {
            return;
        };
        for via in [
            faults::Via::Run,
            faults::Via::Wrapped,
            faults::Via::OddRun,
            faults::Via::OddWrapped,
        ] {
            let sb = Sandbox::new(client);
            faults::set_up(via, client.host(), &sb.root, &sb.project, &sb.home);
            let model = FakeModel::start_concurrent(scripts, sb.project.display().to_string());
            let env = [("HOOKX_TEST_HOST_LIMIT_MS", faults::TEST_LIMIT_MS)];
            let out = sb.run(&bin, model.port, "SCENARIO:faults go", &env);
            let at = format!("{} {via:?}", client.what());
            if out.status != Some(0) {
                wrong.push(format!("{at}: exit {:?}: {}", out.status, out.stderr));
            }
            let messages = tool_messages(&model, "faults");
            // The calls are answered in the order of `faults::commands`.
            let result = |text: &str| {
                let step = faults::commands().iter().position(|c| c.contains(text));
                messages
                    .get(step.expect("a fault's command"))
                    .cloned()
                    .unwrap_or_default()
            };
            let host = client.host();
            wrong.extend(faults::check(via, host, &sb.root, &sb.project, &result));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// [`story`] under OpenCode and Kilo, in the README's order and with install first.
fn migration_story_runs_each_rule_once() {
    for client in [Client::OpenCode, Client::Kilo] {
        for install_first in [false, true] {
            story(client, install_first);
        }
    }
}

fn main() -> std::process::ExitCode {
    let needs = [
        harness::client("OpenCode", Client::OpenCode.rel()),
        harness::client("Kilo Code CLI", Client::Kilo.rel()),
        harness::Need::Condition {
            what: "ripgrep (`rg`) on PATH, which OpenCode downloads otherwise (apt-get install ripgrep)",
            met: std::env::var_os("PATH")
                .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("rg").is_file())),
        },
        harness::client(
            "the OpenCode plugin package",
            format!(
                "opencode-plugin-{}/node_modules/@opencode-ai/plugin/package.json",
                client::PLUGIN_VERSION
            ),
        ),
    ];
    harness::main(
        "live_opencode",
        &needs,
        live_tests![
            opencode_ground_truth,
            kilo_ground_truth,
            opencode_loading,
            opencode_user_plugins_below_xdg_config_home,
            kilo_user_plugins_below_xdg_config_home,
            opencode_project_env_file,
            kilo_project_env_file,
            opencode_sync_throw_in_event_hangs,
            opencode_routed_guards_and_rewrite,
            kilo_routed_guards_and_rewrite,
            migration_story_runs_each_rule_once,
            team_loop_runs_each_rule_once,
            four_files_converted_into_the_plugin_each_run_once,
            opencode_plugin_emptied_through_a_link,
            opencode_started_below_the_project,
            kilo_started_below_the_project,
            faulty_handlers_beside_a_deny,
        ],
    )
}
