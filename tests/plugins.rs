//! Claude plugins as Claude Code 2.1.332 loads them (`src/plugins.rs`), without the client:
//! the world `tests/live_claude_plugins.rs` recorded is rebuilt from its registries and settings
//! (`tests/fixtures/recorded/claude-2.1.332/plugins/facts.json`), and hookx must find loaded
//! exactly the plugins Claude ran there, on the full path and on the run path. Then what the
//! recording does not cover: a lived-in home's download folders are never walked by `hookx run`.

mod common;

use common::OutputWithStdin as _;
use hookx::dialect::{bricks, copilot};
use hookx::discover::{self, Context, Source};
use hookx::model::{EventKind, HandlerKind};
use hookx::tables::Scope;
use hookx::trust::TrustStore;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The recorded world under a fresh root, and the plugins Claude ran in it.
fn recorded_world() -> (tempfile::TempDir, PathBuf, BTreeSet<String>) {
    let path = common::fixtures_dir().join("recorded/claude-2.1.332/plugins/facts.json");
    let facts: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    for (rel, value) in facts["files"].as_object().unwrap() {
        let text = value
            .to_string()
            .replace("<root>", &root.display().to_string());
        common::write(&root, rel, &text);
    }
    let ran = facts["ran"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    (dir, root, ran)
}

/// The plugin a source's first handler records under (the live suite's dumper label).
fn label(source: &Source) -> Option<String> {
    let rule = source.document()?.rules.first()?;
    match &rule.handlers.first()?.kind {
        HandlerKind::Command(c) => Some(c.command.as_deref()?.split(' ').nth(3)?.to_string()),
        _ => None,
    }
}

fn plugin_labels<'a>(sources: impl IntoIterator<Item = &'a Source>) -> BTreeSet<String> {
    sources
        .into_iter()
        .filter(|s| s.scope == Scope::Plugin)
        .filter_map(label)
        .collect()
}

#[test]
fn hookx_loads_the_plugins_claude_ran() {
    let (_dir, root, ran) = recorded_world();
    let ctx = Context::new(root.join("project"), root.join("home"));
    let sources = discover::discover(&ctx);
    let loaded = plugin_labels(sources.iter().filter(|s| s.is_loaded_by_its_agent()));
    assert_eq!(loaded, ran);
    // Every other hook file in the download folders is listed, as off: so are the install copy
    // of `dir-on` (Claude loads a directory marketplace's plugins in place) and the clone's copy
    // of `git-on` (it loads from the install). A directory marketplace lies outside them: its
    // idle plugin is not listed.
    let off = plugin_labels(sources.iter().filter(|s| !s.is_loaded_by_its_agent()));
    let others: BTreeSet<String> = [
        "dir-off",
        "dir-on",
        "git-dl",
        "git-localoff",
        "git-noinst",
        "git-off",
        "git-on",
        "git-unlisted",
    ]
    .map(String::from)
    .into();
    assert_eq!(off, others);

    // The run path, everything trusted, under a host that runs Claude plugins through hookx:
    // the same plugins, and their rules are what hookx dispatches.
    let mut store = TrustStore::default();
    for source in &sources {
        store.trust_source(source);
    }
    let sources = discover::discover_trusting(&ctx, &store);
    for source in &sources {
        store.trust_source(source);
    }
    for host in [bricks::DIALECT, copilot::DIALECT] {
        let fast = discover::discover_for_event(&ctx, host, &EventKind::SessionStart, &store);
        assert_eq!(plugin_labels(&fast), ran, "{host}");
        let dispatched: Vec<&Source> = discover::dispatch_rules(&fast, host, &store)
            .into_iter()
            .map(|r| r.source)
            .collect();
        assert_eq!(plugin_labels(dispatched), ran, "{host}");
    }
}

/// Claude's precedence is user < project < local, and only `true` turns a plugin on.
#[test]
fn the_last_settings_scope_decides_and_only_true_enables() {
    let (_dir, root, _) = recorded_world();
    let ctx = Context::new(root.join("project"), root.join("home"));
    let loaded = |ctx: &Context| {
        plugin_labels(
            discover::discover(ctx)
                .iter()
                .filter(|s| s.is_loaded_by_its_agent()),
        )
    };
    assert!(!loaded(&ctx).contains("git-localoff"));
    common::write(
        &root,
        "project/.claude/settings.local.json",
        r#"{"enabledPlugins": {"git-localoff@gitmkt": true, "git-on@gitmkt": ["1.0.0"]}}"#,
    );
    let now = loaded(&ctx);
    assert!(now.contains("git-localoff"), "{now:?}");
    // A list of versions is accepted by Claude's schema but leaves the plugin off.
    assert!(!now.contains("git-on"), "{now:?}");
}

/// A broken registry loads nothing from installs (in-place plugins still load) and never
/// stops discovery.
#[test]
fn an_unreadable_registry_installs_nothing() {
    let (_dir, root, _) = recorded_world();
    let ctx = Context::new(root.join("project"), root.join("home"));
    common::write(
        &root,
        "home/.claude/plugins/installed_plugins.json",
        "{ not json",
    );
    let sources = discover::discover(&ctx);
    let loaded = plugin_labels(sources.iter().filter(|s| s.is_loaded_by_its_agent()));
    assert_eq!(
        loaded,
        BTreeSet::from(["dir-on".to_string(), "dir-project".to_string()])
    );
}

/// A lived-in home: a marketplace clone of 2 000 plugin folders, none enabled but one. Run
/// under `strace`, `hookx run` must not list a single directory of it, nor look at any file in
/// it but the catalog of the marketplace the enabled plugin comes from. Skips when `strace` is
/// not installed (a note says so), unless `HOOKX_STRACE=require`.
#[test]
fn the_run_path_never_walks_the_download_folders() {
    if std::process::Command::new("strace")
        .arg("-V")
        .output()
        .is_err()
    {
        assert!(
            std::env::var("HOOKX_STRACE").as_deref() != Ok("require"),
            "strace is not installed"
        );
        eprintln!("skip the_run_path_never_walks_the_download_folders: no strace");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let home = root.join("home");
    let project = root.join("project");
    std::fs::create_dir_all(&project).unwrap();
    let clone = home.join(".claude/plugins/marketplaces/big");
    let hooks =
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#;
    let mut names = Vec::new();
    for i in 0..2000 {
        let name = format!("p{i:04}");
        let plugin = clone.join("plugins").join(&name);
        std::fs::create_dir_all(plugin.join("skills")).unwrap();
        if i % 40 == 0 {
            common::write(&plugin, "hooks/hooks.json", hooks);
        }
        names.push(serde_json::json!({"name": name, "source": format!("./plugins/{name}")}));
    }
    common::write(
        &clone,
        ".claude-plugin/marketplace.json",
        &serde_json::json!({"name": "big", "plugins": names}).to_string(),
    );
    let installed = home.join(".claude/plugins/cache/big/p0040/1.0.0");
    common::write(&installed, "hooks/hooks.json", hooks);
    common::write(
        &home,
        ".claude/plugins/known_marketplaces.json",
        &serde_json::json!({"big": {"source": {"source": "github", "repo": "o/big"},
                                     "installLocation": clone}})
        .to_string(),
    );
    common::write(
        &home,
        ".claude/plugins/installed_plugins.json",
        &serde_json::json!({"version": 2, "plugins": {"p0040@big": [{"scope": "user",
                            "installPath": installed}]}})
        .to_string(),
    );
    common::write(
        &home,
        ".claude/settings.json",
        r#"{"enabledPlugins": {"p0040@big": true}}"#,
    );
    common::hookx_at(&project, &home, &["trust", "--yes"]).success();
    let trace = root.join("trace");
    let payload = serde_json::json!({"session_id": "s", "cwd": project,
        "hook_event_name": "PreToolUse", "tool_name": "bash", "tool_input": {"command": "ls"}});
    let out = std::process::Command::new("strace")
        .args(["-f", "-y", "-qq", "-e", "trace=%file,%desc", "-o"])
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_hookx"))
        .args([
            "run",
            "--host",
            "bricks",
            "--event",
            "PreToolUse",
            "--project",
        ])
        .arg(&project)
        .arg("--home")
        .arg(&home)
        .output_with_stdin(&payload.to_string())
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = std::fs::read_to_string(&trace).unwrap();
    let clone_text = clone.display().to_string();
    let touching: Vec<&str> = text.lines().filter(|l| l.contains(&clone_text)).collect();
    let catalog = clone.join(".claude-plugin/marketplace.json");
    let others: Vec<&&str> = touching
        .iter()
        .filter(|l| !l.contains(&catalog.display().to_string()))
        .collect();
    assert!(others.is_empty(), "touched the clone: {others:#?}");
    assert!(
        !touching.is_empty(),
        "the catalog was not read: is this trace complete?\n{text}"
    );
    // The enabled plugin was found (and run: it is trusted).
    assert!(
        text.contains(&installed.join("hooks/hooks.json").display().to_string()),
        "{text}"
    );
}

/// The recorded facts name no path of the machine they were recorded on.
#[test]
fn the_recording_holds_no_machine_paths() {
    let path = common::fixtures_dir().join("recorded/claude-2.1.332/plugins/facts.json");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(!text.contains("/tmp/"), "a temporary path leaked");
}
