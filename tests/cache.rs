//! The run-path cache (`hookx::cache`): a large config file read for one event is read from the
//! cache next time, with the same rules and hash, until the file changes.
#![cfg(unix)]

use hookx::dialect::bricks;

use hookx::discover::{self, Context, Source};
use hookx::model::{Event, EventKind};
use hookx::tables::Rule;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A Claude settings file past the cache's size threshold: `n` rules on three events, other
/// settings around them.
fn big_settings(n: usize, marker: &str) -> String {
    let events = ["PreToolUse", "PostToolUse", "Stop"];
    let mut hooks = serde_json::Map::new();
    for (e, event) in events.iter().enumerate() {
        let rules: Vec<Value> = (0..n)
            .filter(|i| i % events.len() == e)
            .map(|i| {
                json!({
                    "matcher": format!("Tool{i}|Other{i}"),
                    "hooks": [{"type": "command", "command": format!("echo {marker} rule {i} padding padding padding"), "timeout": 5}]
                })
            })
            .collect();
        hooks.insert(event.to_string(), rules.into());
    }
    let text = serde_json::to_string_pretty(&json!({
        "permissions": {"allow": ["Bash(ls:*)"]},
        "hooks": hooks,
        "env": {"A": "1"},
    }))
    .unwrap();
    assert!(
        text.len() as u64 >= hookx::cache::MIN_BYTES,
        "{}",
        text.len()
    );
    text
}

struct Setup {
    _dir: tempfile::TempDir,
    ctx: Context,
    file: PathBuf,
}

/// A project with one big settings file, old enough to be cached.
fn settled_project(text: &str) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    let home = dir.path().join("home");
    let file = project.join(".claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(&file, text).unwrap();
    std::thread::sleep(hookx::cache::SETTLE + Duration::from_millis(200));
    Setup {
        ctx: Context::new(project.canonicalize().unwrap(), home),
        file,
        _dir: dir,
    }
}

/// Every file of the project and home trusted with its current content.
fn trusting_everything(ctx: &Context) -> hookx::trust::TrustStore {
    let mut store = hookx::trust::TrustStore::default();
    for s in discover::discover(ctx) {
        store.trust_source(&s);
    }
    store
}

/// What `hookx run --host bricks` (for which Claude files are hookx's to run, so hashed)
/// reads for `event`, the file trusted: each source's hash and rules.
fn read(ctx: &Context, event: &EventKind) -> Vec<(Option<String>, Vec<Rule>)> {
    discover::discover_for_event(ctx, bricks::DIALECT, event, &trusting_everything(ctx))
        .into_iter()
        .map(|s: Source| {
            let rules = s.document().map(|d| d.rules.clone()).unwrap_or_default();
            (s.sha256, rules)
        })
        .collect()
}

/// `kind` on a call of `tool`, with no input.
fn tool_call(kind: &EventKind, tool: &str) -> Event {
    Event::tool_call(kind.clone(), tool, json!({}))
}

fn entries(home: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(home.join(".hookx/cache")) {
        Ok(dir) => dir.map(|e| e.unwrap().path()).collect(),
        Err(_) => Vec::new(),
    }
}

fn commands(read: &[(Option<String>, Vec<Rule>)]) -> Vec<String> {
    read.iter()
        .flat_map(|(_, rules)| rules)
        .flat_map(|r| &r.handlers)
        .map(|h| serde_json::to_value(&h.kind).unwrap()["command"].to_string())
        .collect()
}

#[test]
fn a_cached_event_reads_as_the_file_does() {
    let text = big_settings(900, "v1");
    let setup = settled_project(&text);
    let events = [
        EventKind::PreToolUse,
        EventKind::PostToolUse,
        EventKind::Stop,
        EventKind::SessionStart,
    ];
    let fresh: Vec<_> = events.iter().map(|e| read(&setup.ctx, e)).collect();
    assert_eq!(
        entries(&setup.ctx.home).len(),
        events.len(),
        "one entry per event"
    );
    let cached: Vec<_> = events.iter().map(|e| read(&setup.ctx, e)).collect();
    assert_eq!(fresh, cached);
    let sha = hookx::hash::sha256_hex(text.as_bytes());
    assert_eq!(fresh[0][0].0.as_deref(), Some(sha.as_str()));
    assert_eq!(fresh[0][0].1.len(), 300);
    assert!(fresh[3][0].1.is_empty());
}

/// The second read really comes from the entry: an entry edited by hand shows through (which is
/// also why the cache sits in the user's home, next to the trust record).
#[test]
fn the_entry_is_what_is_read() {
    let setup = settled_project(&big_settings(900, "v1"));
    read(&setup.ctx, &EventKind::Stop);
    let [entry] = entries(&setup.ctx.home).try_into().unwrap();
    let edited = std::fs::read_to_string(&entry)
        .unwrap()
        .replace("echo v1 rule 2 ", "echo EDITED rule 2 ");
    std::fs::write(&entry, edited).unwrap();
    let commands = commands(&read(&setup.ctx, &EventKind::Stop));
    assert!(commands[0].contains("EDITED"), "{:?}", &commands[..2]);
}

/// Left by the twenty-fifth pass: `~/.hookx` and its `cache/`, where `run` made them first,
/// were 0755: the cache holds what the user's hook files say, for every account to read.
#[cfg(unix)]
#[test]
fn the_cache_and_the_folders_it_makes_are_the_users_alone() {
    use std::os::unix::fs::PermissionsExt;
    let setup = settled_project(&big_settings(900, "v1"));
    read(&setup.ctx, &EventKind::Stop);
    assert_eq!(entries(&setup.ctx.home).len(), 1);
    for dir in [".hookx", ".hookx/cache"] {
        let meta = std::fs::metadata(setup.ctx.home.join(dir)).unwrap();
        assert_eq!(meta.permissions().mode() & 0o777, 0o700, "{dir}");
    }
}

#[test]
fn a_changed_file_is_read_again_even_at_the_same_size() {
    let setup = settled_project(&big_settings(900, "v1"));
    let before = read(&setup.ctx, &EventKind::PreToolUse);
    assert_eq!(entries(&setup.ctx.home).len(), 1);
    let changed = big_settings(900, "v2");
    std::fs::write(&setup.file, &changed).unwrap();
    // Changed less than SETTLE ago however long this machine takes to read it: a time ahead
    // of the clock (attacks row 2368).
    let file = std::fs::File::options()
        .write(true)
        .open(&setup.file)
        .unwrap();
    file.set_modified(std::time::SystemTime::now() + Duration::from_secs(3600))
        .unwrap();
    let after = read(&setup.ctx, &EventKind::PreToolUse);
    assert!(commands(&before).iter().all(|c| c.contains("v1")));
    assert!(commands(&after).iter().all(|c| c.contains("v2")));
    let sha = hookx::hash::sha256_hex(changed.as_bytes());
    assert_eq!(after[0].0.as_deref(), Some(sha.as_str()));
    // Changed just now: not cached again until it settles.
    let entry = std::fs::read_to_string(&entries(&setup.ctx.home)[0]).unwrap();
    assert!(!entry.contains("v2"));
}

#[test]
fn a_broken_entry_is_a_miss() {
    let setup = settled_project(&big_settings(900, "v1"));
    let fresh = read(&setup.ctx, &EventKind::PreToolUse);
    for entry in entries(&setup.ctx.home) {
        std::fs::write(&entry, "{ not json").unwrap();
    }
    assert_eq!(read(&setup.ctx, &EventKind::PreToolUse), fresh);
    // … and is replaced by a good one.
    assert_eq!(read(&setup.ctx, &EventKind::PreToolUse), fresh);
    let entry = std::fs::read_to_string(&entries(&setup.ctx.home)[0]).unwrap();
    assert!(entry.starts_with('{') && entry.contains("v1"));
}

#[test]
fn small_and_fresh_files_are_not_cached() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    let home = dir.path().join("home");
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let ctx = Context::new(project.canonicalize().unwrap(), &home);
    let small = r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true"}]}]}}"#;
    std::fs::write(project.join(".claude/settings.json"), small).unwrap();
    std::thread::sleep(hookx::cache::SETTLE + Duration::from_millis(200));
    assert_eq!(read(&ctx, &EventKind::Stop)[0].1.len(), 1);
    assert!(entries(&home).is_empty(), "a small file was cached");
    // Large, but written just now.
    std::fs::write(
        project.join(".claude/settings.json"),
        big_settings(900, "v1"),
    )
    .unwrap();
    assert_eq!(read(&ctx, &EventKind::Stop)[0].1.len(), 300);
    assert!(
        entries(&home).is_empty(),
        "a file changed just now was cached"
    );
}

#[test]
fn the_cache_keeps_at_most_max_entries_dropping_the_oldest() {
    let setup = settled_project(&big_settings(900, "v1"));
    let dir = setup.ctx.home.join(".hookx/cache");
    std::fs::create_dir_all(&dir).unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    for i in 0..hookx::cache::MAX_ENTRIES {
        let stale = dir.join(format!("stale-{i:04}.json"));
        std::fs::write(&stale, "{}").unwrap();
        let file = std::fs::File::options().write(true).open(&stale).unwrap();
        file.set_modified(old + Duration::from_secs(i as u64))
            .unwrap();
    }
    read(&setup.ctx, &EventKind::Stop);
    let left = entries(&setup.ctx.home);
    assert_eq!(left.len(), hookx::cache::MAX_ENTRIES);
    let names: Vec<String> = left
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.contains(&"stale-0000.json".to_string()),
        "the oldest was kept"
    );
    assert!(names.contains(&"stale-0001.json".to_string()));
    // The new entry is among those kept.
    assert!(names.iter().any(|n| !n.starts_with("stale-")));
}

/// On the run path only the rules that can fire are parsed from an entry: what dispatch then
/// selects is what it selects from a full read, entry or not.
#[test]
fn firing_rules_from_an_entry_select_as_a_full_read_does() {
    use hookx::dispatch::host::runnable;
    use hookx::dispatch::select::{can_fire, select};
    use hookx::trust::TrustStore;

    let setup = settled_project(&big_settings(900, "v1"));
    let kind = EventKind::PreToolUse;
    let store: TrustStore = trusting_everything(&setup.ctx);
    let all = discover::discover_for_event(&setup.ctx, bricks::DIALECT, &kind, &store);
    let chosen = |sources: &[Source], event: &Event| -> Vec<String> {
        let (rules, _) = runnable(sources, bricks::DIALECT, &store);
        let (selected, _) = select(rules.iter().map(|r| (r.rule.as_ref(), r.source)), event);
        selected
            .iter()
            .map(|s| format!("{} {}", s.rule.origin.pointer, s.rule.handlers.len()))
            .collect()
    };
    for tool in ["Tool3", "Other6", "Tool4", "shell", "Tool899", "nothing"] {
        let event = tool_call(&kind, tool);
        let fires = |rules: &[Rule]| can_fire(rules, &event);
        let want = chosen(&all, &event);
        for round in ["first", "from the entry"] {
            let firing =
                discover::discover_firing(&setup.ctx, bricks::DIALECT, &kind, &fires, &store);
            assert_eq!(chosen(&firing, &event), want, "{tool}, {round}");
            let built: usize = firing
                .iter()
                .filter_map(|s| s.document())
                .map(|d| d.rules.len())
                .sum();
            assert!(built <= 1, "{tool}, {round}: {built} rules built");
        }
        assert_eq!(entries(&setup.ctx.home).len(), 1);
    }
    let fired = |tool: &str| chosen(&all, &tool_call(&kind, tool));
    assert_eq!(fired("Tool3"), ["/hooks/PreToolUse/1 1"]);
    assert!(fired("Tool4").is_empty());
}
