//! Which plugins' hooks the real Claude Code 2.1.332 loads, and that hookx finds exactly those
//! (conformance/README.md). One world holds ten plugins, each with a SessionStart hook that
//! records under the plugin's name:
//!
//! - a `directory` marketplace, set up with the client's own `claude plugin marketplace add`,
//!   `plugin install` and `plugin disable`: installed and enabled (`dir-on`), installed and
//!   disabled (`dir-off`), in the catalog only (`dir-idle`), enabled by the project's settings
//!   without being installed (`dir-project`);
//! - a `git` marketplace written as the client writes one (its clone under
//!   `~/.claude/plugins/marketplaces/`, its records in `known_marketplaces.json` and
//!   `installed_plugins.json`): installed and enabled (`git-on`), installed with `false`
//!   (`git-off`), installed with no `enabledPlugins` entry (`git-unlisted`), in the clone only
//!   (`git-dl`), enabled but not installed (`git-noinst`), enabled by the user and disabled by
//!   the project's local settings (`git-localoff`).
//!
//! The plugins Claude ran must be the ones hookx's discovery finds loaded (read before the
//! client runs: the client records installs of enabled plugins after a session), and the ones
//! `hookx run --host bricks` runs once everything is trusted. `HOOKX_RECORD=1` rewrites
//! `tests/fixtures/recorded/claude-2.1.332/plugins/`, which `tests/plugins.rs` replays without
//! the client.

// Shared with `live_claude.rs`, which uses the parts this suite does not.
#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "live_claude/client.rs"]
mod client;
#[allow(dead_code)]
#[path = "live_claude/server.rs"]
mod server;

use client::World;
use hookx::discover::{self, Context};
use hookx::tables::Scope;
use serde_json::{Value, json};
use server::{Block, FakeModel, Script};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn text_script(_step: usize, _project: &str) -> Vec<Block> {
    vec![Block::Text("Plugins done.".into())]
}

static SCRIPTS: &[(&str, Script)] = &[("plugins", text_script)];

/// The plugins that must run: what Claude 2.1.332 did in this world.
const LOADED: &[&str] = &["dir-on", "dir-project", "git-on"];

fn write_json(path: &Path, value: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap_or_else(|_| "{}".into())).unwrap()
}

/// A plugin folder whose SessionStart hook records under `name`.
fn plugin(world: &World, dir: &Path, name: &str) {
    write_json(
        &dir.join(".claude-plugin/plugin.json"),
        &json!({"name": name, "version": "1.0.0", "description": name}),
    );
    let command = world.dumper_command(name, "SessionStart");
    write_json(
        &dir.join("hooks/hooks.json"),
        &json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": command}]}]}}),
    );
    world.answers(name, &[]);
}

fn catalog(path: &Path, name: &str, plugins: &[&str]) {
    let entries: Vec<Value> = plugins
        .iter()
        .map(|p| json!({"name": p, "source": format!("./plugins/{p}"), "description": p}))
        .collect();
    write_json(
        &path.join(".claude-plugin/marketplace.json"),
        &json!({"name": name, "owner": {"name": "hookx"}, "plugins": entries}),
    );
}

/// `claude ARGS…`, which must succeed.
fn claude(bin: &Path, world: &World, args: &[&str]) {
    let out = client::command(bin, world, args);
    assert!(
        out.status.success(),
        "claude {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Merges `entries` into the JSON object at `path` (under `key`, if given).
fn merge(path: &Path, key: Option<&str>, entries: Value) {
    let mut value = read_json(path);
    let target = match key {
        Some(key) => &mut value[key],
        None => &mut value,
    };
    if !target.is_object() {
        *target = json!({});
    }
    for (k, v) in entries.as_object().unwrap() {
        target[k] = v.clone();
    }
    write_json(path, &value);
}

/// The world described at the top; returns the directory marketplace's folder.
fn build(bin: &Path, world: &World) -> PathBuf {
    let root = world.home.parent().unwrap();
    let dirmkt = root.join("dirmkt");
    for name in ["dir-on", "dir-off", "dir-idle", "dir-project"] {
        plugin(world, &dirmkt.join("plugins").join(name), name);
    }
    catalog(
        &dirmkt,
        "dirmkt",
        &["dir-on", "dir-off", "dir-idle", "dir-project"],
    );
    claude(
        bin,
        world,
        &["plugin", "marketplace", "add", dirmkt.to_str().unwrap()],
    );
    claude(bin, world, &["plugin", "install", "dir-on@dirmkt"]);
    claude(bin, world, &["plugin", "install", "dir-off@dirmkt"]);
    claude(bin, world, &["plugin", "disable", "dir-off@dirmkt"]);

    let plugins = world.home.join(".claude/plugins");
    let clone = plugins.join("marketplaces/gitmkt");
    let git = [
        "git-on",
        "git-off",
        "git-unlisted",
        "git-dl",
        "git-noinst",
        "git-localoff",
    ];
    for name in git {
        plugin(world, &clone.join("plugins").join(name), name);
    }
    catalog(&clone, "gitmkt", &git);
    merge(
        &plugins.join("known_marketplaces.json"),
        None,
        json!({"gitmkt": {
            "source": {"source": "git", "url": "http://127.0.0.1:9/gitmkt.git"},
            "installLocation": clone,
            "lastUpdated": "2026-12-01T14:53:21.469Z",
        }}),
    );
    let mut records = serde_json::Map::new();
    for name in ["git-on", "git-off", "git-unlisted", "git-localoff"] {
        let dir = plugins.join("cache/gitmkt").join(name).join("1.0.0");
        plugin(world, &dir, name);
        records.insert(
            format!("{name}@gitmkt"),
            json!([{"scope": "user", "installPath": dir, "version": "1.0.0",
                    "installedAt": "2026-12-01T14:53:24.000Z",
                    "lastUpdated": "2026-12-01T14:53:24.000Z"}]),
        );
    }
    merge(
        &plugins.join("installed_plugins.json"),
        Some("plugins"),
        Value::Object(records),
    );
    merge(
        &world.home.join(".claude/settings.json"),
        Some("enabledPlugins"),
        json!({"git-on@gitmkt": true, "git-off@gitmkt": false, "git-noinst@gitmkt": true,
               "git-localoff@gitmkt": true}),
    );
    write_json(
        &world.project.join(".claude/settings.json"),
        &json!({"enabledPlugins": {"dir-project@dirmkt": true}}),
    );
    write_json(
        &world.project.join(".claude/settings.local.json"),
        &json!({"enabledPlugins": {"git-localoff@gitmkt": false}}),
    );
    dirmkt
}

/// The plugin a source's SessionStart handler records under (the dumper's label).
fn label(source: &discover::Source) -> Option<String> {
    let rule = source.document()?.rules.first()?;
    match &rule.handlers.first()?.kind {
        hookx::model::HandlerKind::Command(c) => {
            Some(c.command.as_deref()?.split(' ').nth(3)?.to_string())
        }
        _ => None,
    }
}

/// Each label's `CLAUDE_PLUGIN_DATA` at its SessionStart, and whether that folder was there.
fn data_folders(world: &World, names: &BTreeSet<String>) -> Vec<(String, Option<String>, bool)> {
    names
        .iter()
        .map(|n| {
            let records = world.records(n);
            let data = records
                .iter()
                .find(|r| r.event == "SessionStart")
                .and_then(|r| r.env.get("CLAUDE_PLUGIN_DATA").cloned());
            let there = data.as_ref().is_some_and(|d| Path::new(d).is_dir());
            (n.clone(), data, there)
        })
        .collect()
}

/// The labels that recorded a SessionStart, each once.
fn fired(world: &World, names: &[&str]) -> BTreeSet<String> {
    names
        .iter()
        .filter(|n| world.records(n).iter().any(|r| r.event == "SessionStart"))
        .map(|n| n.to_string())
        .collect()
}

const ALL: &[&str] = &[
    "dir-on",
    "dir-off",
    "dir-idle",
    "dir-project",
    "git-on",
    "git-off",
    "git-unlisted",
    "git-dl",
    "git-noinst",
    "git-localoff",
];

fn plugins_load_as_claude_loads_them() {
    let Some(bin) = client::binary() else {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "Claude Code {} is not installed (conformance/install-clients.sh) or cannot run sealed",
            client::VERSION
        );
        eprintln!(
            "skip plugins_load_as_claude_loads_them: Claude Code {} is not installed or cannot run sealed",
            client::VERSION
        );
        return;
    };
    let model = FakeModel::start(SCRIPTS);
    let world = World::new();
    let dirmkt = build(&bin, &world);
    let want: BTreeSet<String> = LOADED.iter().map(|s| s.to_string()).collect();

    // hookx's view, before the client runs.
    let ctx = Context::new(&world.project, &world.home);
    let sources = discover::discover(&ctx);
    let found: BTreeSet<String> = sources
        .iter()
        .filter(|s| s.scope == Scope::Plugin && s.is_loaded_by_its_agent())
        .filter_map(label)
        .collect();
    let snapshot = recorded_files(&world, &dirmkt);

    let run = client::run(&bin, &world, model.port, "SCRIPT:plugins say hello", &[]);
    let claude_ran = fired(&world, ALL);
    // Each plugin's data folder, as Claude names and makes it (attacks row 1045).
    let claude_data = data_folders(&world, &claude_ran);
    assert_eq!(
        claude_ran,
        want,
        "Claude {} ran other plugins than recorded\n{}",
        client::VERSION,
        run.describe()
    );
    assert_eq!(
        found, claude_ran,
        "hookx finds other plugins than Claude ran"
    );

    // Under another host, once everything is trusted, hookx runs exactly those.
    world.clear_records();
    for (_, data, _) in &claude_data {
        if let Some(data) = data {
            let _ = std::fs::remove_dir(data);
        }
    }
    let trust = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args(["trust", "--yes", "--project"])
        .arg(&world.project)
        .arg("--home")
        .arg(&world.home)
        .output()
        .unwrap();
    assert!(trust.status.success(), "hookx trust: {trust:?}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args([
            "run",
            "--host",
            "bricks",
            "--event",
            "SessionStart",
            "--project",
        ])
        .arg(&world.project)
        .arg("--home")
        .arg(&world.home)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let payload = json!({"session_id": "s", "cwd": world.project, "hook_event_name": "SessionStart",
                         "source": "startup"});
    std::io::Write::write_all(
        child.stdin.as_mut().unwrap(),
        payload.to_string().as_bytes(),
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "hookx run: {out:?}");
    assert_eq!(
        fired(&world, ALL),
        want,
        "hookx run --host bricks ran other plugins: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        claude_data
            .iter()
            .all(|(_, data, there)| data.is_some() && *there),
        "Claude {} gave a plugin no data folder: {claude_data:?}",
        client::VERSION
    );
    assert_eq!(
        data_folders(&world, &claude_ran),
        claude_data,
        "hookx gave the plugins other data folders than Claude"
    );

    record_or_compare(snapshot, &claude_ran);
}

/// The registries and settings as the client read them, with the temporary root as `<root>`:
/// (path below the root, content).
fn recorded_files(world: &World, dirmkt: &Path) -> Vec<(String, Value)> {
    let root = world.home.parent().unwrap();
    let mut files = vec![
        world.home.join(".claude/settings.json"),
        world.home.join(".claude/plugins/installed_plugins.json"),
        world.home.join(".claude/plugins/known_marketplaces.json"),
        world
            .home
            .join(".claude/plugins/marketplaces/gitmkt/.claude-plugin/marketplace.json"),
        dirmkt.join(".claude-plugin/marketplace.json"),
        world.project.join(".claude/settings.json"),
        world.project.join(".claude/settings.local.json"),
    ];
    // Every plugin's hook file, wherever the client put it (`plugin install` copies into the
    // cache).
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() && path.file_name().is_some_and(|n| n != "dump") {
                stack.push(path);
            } else if path.ends_with("hooks/hooks.json") {
                files.push(path);
            }
        }
    }
    files.sort();
    files.dedup();
    let placeholder = |text: &str| text.replace(&root.display().to_string(), "<root>");
    files
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(root).unwrap().display().to_string();
            let text = placeholder(&std::fs::read_to_string(&path).unwrap());
            (rel, serde_json::from_str(&text).unwrap())
        })
        .collect()
}

fn facts_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/recorded")
        .join(format!("claude-{}", client::VERSION))
        .join("plugins/facts.json")
}

/// Writes the facts with `HOOKX_RECORD=1`; otherwise the recorded plugins that ran must be
/// today's.
fn record_or_compare(files: Vec<(String, Value)>, ran: &BTreeSet<String>) {
    let facts = json!({
        "client": client::CLIENT,
        "version": client::VERSION,
        "scenario": "plugins",
        "note": "Registries and settings as Claude read them (<root>: the run's temporary root; \
                 hook commands record under the plugin's name), and the plugins whose \
                 SessionStart hook ran.",
        "ran": ran,
        "files": files.into_iter().collect::<serde_json::Map<_, _>>(),
    });
    let path = facts_path();
    if std::env::var("HOOKX_RECORD").as_deref() == Ok("1") {
        write_json(&path, &facts);
        return;
    }
    let recorded = read_json(&path);
    assert_eq!(
        recorded["ran"],
        facts["ran"],
        "the recorded plugins that ran ({}) differ",
        path.display()
    );
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    harness::main(
        "live_claude_plugins",
        &[harness::client(
            "Claude Code",
            format!(
                "claude-{}/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
                client::VERSION
            ),
        )],
        live_tests![plugins_load_as_claude_loads_them,],
    )
}
