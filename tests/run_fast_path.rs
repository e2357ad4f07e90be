//! `hookx run` reads only what the fired event needs (`discover::discover_for_event`,
//! `config::read::read_event`): these tests hold it to the same answer as reading everything.

mod common;

use common::{copy_tree, fixtures_dir, write};
use hookx::config::{self, read::read_event};
use hookx::discover::{self, Context, Source};
use hookx::dispatch::host::runnable;
use hookx::dispatch::select::{can_fire, select};
use hookx::model::{Event, EventKind, ToolCall};
use hookx::protocol::failed::may_fire;
use hookx::source::SourceFile;
use hookx::tables::Dialect;
use hookx::tables::Rule;
use hookx::trust::TrustStore;
use std::path::PathBuf;

fn events() -> Vec<EventKind> {
    let mut all = EventKind::KNOWN.to_vec();
    all.push(EventKind::Other("Custom".into()));
    all.push(EventKind::Other("NoSuchEvent".into()));
    all
}

/// Every trusted source of a full discovery.
fn trust_all(sources: &[Source]) -> TrustStore {
    let mut store = TrustStore::default();
    for s in sources {
        store.trust_source(s);
    }
    store
}

type Outcome = (Vec<(PathBuf, Rule)>, Vec<String>);

fn outcome(sources: &[Source], host: Dialect, store: &TrustStore, kind: &EventKind) -> Outcome {
    let (rules, warnings) = runnable(sources, host, store);
    let rules = rules
        .into_iter()
        .filter(|r| r.rule.event == *kind)
        .map(|r| (r.source.path.clone(), r.rule.into_owned()))
        .collect();
    (rules, warnings)
}

/// What the comparisons over `trees` folders (each [`assert_same_as_full_discovery`], the
/// first also [`assert_firing_selects_the_same`]) wait for, said before they start.
fn comparisons(trees: usize) -> String {
    let (hosts, events) = (Dialect::all().len(), events().len());
    let samples = sample_events(&EventKind::Other("Custom".into())).len();
    format!(
        "{hosts} hosts × {events} events × 2 trust records: the fast path's discovery against \
         the full one in {trees} tree{}, and the firing discovery against it for {samples} \
         sample events each, a discovery each (minutes in a debug build on a busy machine)",
        if trees == 1 { "" } else { "s" }
    )
}

/// For every host and event, with everything and with nothing trusted: the same rules from
/// the same files, and the same warnings.
fn assert_same_as_full_discovery(ctx: &Context) -> usize {
    let stores = [trust_all(&discover::discover(ctx)), TrustStore::default()];
    // The full discovery depends on the trust record only.
    let fulls = stores
        .iter()
        .map(|store| discover::discover_trusting(ctx, store))
        .collect::<Vec<_>>();
    let mut compared = 0;
    for &host in Dialect::all() {
        for kind in events() {
            for (store, full) in stores.iter().zip(&fulls) {
                let fast = discover::discover_for_event(ctx, host, &kind, store);
                let want = outcome(full, host, store, &kind);
                let got = outcome(&fast, host, store, &kind);
                assert_eq!(got, want, "host {host}, event {kind:?}");
                compared += want.0.len();
            }
        }
    }
    compared
}

#[test]
fn the_full_fixture_runs_the_same_rules() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    copy_tree(&fixtures_dir().join("projects/full"), &root);
    let ctx = Context::new(root.join("project"), root.join("home"));
    common::waiting_for("run_fast_path: the full fixture", &comparisons(1));
    assert!(assert_same_as_full_discovery(&ctx) > 0);
    assert!(assert_firing_selects_the_same(&ctx) > 0);
}

/// Events as hosts send them: every canonical tool and some unknown ones, and the values
/// non-tool matchers read.
fn sample_events(kind: &EventKind) -> Vec<Event> {
    let mut tools: Vec<Option<&str>> = vec![None];
    tools.extend(
        [
            "shell",
            "write",
            "edit",
            "multi_edit",
            "read",
            "glob",
            "grep",
            "web_fetch",
            "task",
            "powershell",
            "mcp__github__create_issue",
            "mcp__x",
            "Bash",
            "unknown_tool",
            "",
        ]
        .map(Some),
    );
    let mut events = Vec::new();
    for tool in tools {
        for source in ["startup", "resume", "compact", "manual", ""] {
            let mut fields = serde_json::Map::new();
            for key in [
                "source",
                "trigger",
                "notification_type",
                "reason",
                "agent_type",
            ] {
                fields.insert(key.into(), source.into());
            }
            events.push(Event {
                kind: kind.clone(),
                timestamp: None,
                tool: tool.map(|name| ToolCall {
                    name: name.into(),
                    input: serde_json::json!({"command": "ls"}),
                    other_ids: Vec::new(),
                    rewrite: None,
                }),
                fields,
                result: None,
            });
        }
    }
    events
}

/// What dispatch selects from a run's sources: each handler by where it was written and what
/// it runs, and each skipped rule with its reason.
fn selection(sources: &[Source], host: Dialect, store: &TrustStore, event: &Event) -> Outcome2 {
    let (rules, warnings) = runnable(sources, host, store);
    let (selected, skipped) = select(rules.iter().map(|r| (r.rule.as_ref(), r.source)), event);
    let selected = selected
        .iter()
        .map(|s| {
            let what = serde_json::to_string(&s.handler.kind).unwrap();
            (s.source.path.clone(), s.rule.origin.pointer.clone(), what)
        })
        .collect();
    let skipped = skipped.iter().map(|s| s.reason.clone()).collect();
    (selected, skipped, warnings)
}

type Outcome2 = (Vec<(PathBuf, String, String)>, Vec<String>, Vec<String>);

/// For every host, event and sample event: `discover_firing` (the rules that cannot fire are
/// never built) selects the same handlers as `discover_for_event`, skips the same rules, and
/// warns about the same untrusted sources (whatever they hold).
fn assert_firing_selects_the_same(ctx: &Context) -> usize {
    let stores = [trust_all(&discover::discover(ctx)), TrustStore::default()];
    let mut compared = 0;
    for &host in Dialect::all() {
        for kind in events() {
            for store in &stores {
                let all = discover::discover_for_event(ctx, host, &kind, store);
                for event in sample_events(&kind) {
                    let fires = |rules: &[Rule]| can_fire(rules, &event);
                    let firing = discover::discover_firing(ctx, host, &kind, &fires, store);
                    let (want, want_skipped, want_warnings) = selection(&all, host, store, &event);
                    let (got, got_skipped, got_warnings) = selection(&firing, host, store, &event);
                    let context = format!("host {host}, event {kind:?}, {:?}", event.tool);
                    assert_eq!(got, want, "{context}");
                    assert_eq!(got_skipped, want_skipped, "{context}");
                    assert_eq!(got_warnings, want_warnings, "{context}");
                    if !want.is_empty() || !got_warnings.is_empty() {
                        compared += 1;
                    }
                }
            }
        }
    }
    compared
}

#[test]
fn odd_trees_run_the_same_rules() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    // Bricks events at the root, an unknown event, a duplicate key (the last one counts).
    write(
        &root,
        "project/.bricks/hooks.json",
        r#"{
  "PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "first"}]}],
  "Custom": [{"hooks": [{"type": "command", "command": "custom"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "stop"}]}],
  "PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "second"}]}]
}"#,
    );
    // Both Copilot flavours of one event, and a handler identical to a Claude one.
    write(
        &root,
        "project/.github/hooks/both.json",
        r#"{"version": 1, "hooks": {
  "preToolUse": [{"type": "command", "bash": "camel"}],
  "sessionStart": [{"type": "command", "bash": "start"}],
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "pascal"}]}]
}}"#,
    );
    // Claude: the user's file is run by hookx under Copilot and Bricks, the project's is
    // native to Copilot and de-duplicates it; `disableAllHooks` in the local file.
    let claude = r#"{"permissions": {}, "hooks": {
  "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "same"}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "same"}]}]
}}"#;
    write(&root, "home/.claude/settings.json", claude);
    write(&root, "project/.claude/settings.json", claude);
    write(
        &root,
        "home/.claude/plugins/cache/m/p/1/hooks/hooks.json",
        r#"{"description": "plugin", "hooks": {
  "PreToolUse": [{"matcher": "mcp__.*", "hooks": [{"type": "command", "command": "plugin"}]}]
}}"#,
    );
    // Another event's array broken in a way only a full parse notices: refused alike.
    write(
        &root,
        "home/.bricks-project-desktop/hooks.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "x", "timeout": 1e400}]}],
  "PreToolUse": [{"hooks": [{"type": "command", "command": "y"}]}]}}"#,
    );
    let ctx = Context::new(root.join("project"), root.join("home"));
    common::waiting_for("run_fast_path: odd trees", &comparisons(3));
    assert!(assert_same_as_full_discovery(&ctx) > 0);
    assert!(assert_firing_selects_the_same(&ctx) > 0);

    write(
        &root,
        "project/.claude/settings.local.json",
        r#"{"disableAllHooks": true}"#,
    );
    assert_same_as_full_discovery(&ctx);

    // The project is the home: a file reached twice keeps its first location.
    let same = Context::new(root.join("home"), root.join("home"));
    write(
        &root,
        "home/.bricks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "z"}]}]}}"#,
    );
    assert!(assert_same_as_full_discovery(&same) > 0);
}

/// Every fixture file, read as every dialect, for every event: the rules of a full read that
/// may fire on the event (its own, and the other post event's, which a failed call may fire:
/// attacks row 1610), or the same error.
#[test]
fn reading_one_event_keeps_exactly_its_rules() {
    let mut files = Vec::new();
    let mut dirs = vec![fixtures_dir()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    let mut extra = vec![
        (
            "lone-surrogate.json",
            r#"{"hooks": {"Stop": ["\ud800"], "PreToolUse": []}}"#,
        ),
        (
            "huge-number.json",
            r#"{"hooks": {"Stop": [1e400], "PreToolUse": []}}"#,
        ),
        ("trailing.json", r#"{"hooks": {"Stop": []}} x"#),
        ("empty.json", "  "),
        ("not-object.json", "[1, 2]"),
        ("hooks-not-object.json", r#"{"hooks": [1]}"#),
    ];
    let mut sources: Vec<SourceFile> = files
        .iter()
        .filter_map(|p| SourceFile::read(p).ok())
        .collect();
    sources.extend(extra.drain(..).map(|(p, t)| SourceFile::new(p, t)));
    assert!(sources.len() > 50);
    common::waiting_for(
        "run_fast_path: reading one event",
        &format!(
            "{} fixture files × {} dialects × {} events, each read whole and for one event",
            sources.len(),
            Dialect::all().len(),
            events().len()
        ),
    );
    for src in &sources {
        for &dialect in Dialect::all() {
            let full = config::read(src, dialect);
            for kind in events() {
                let fast = read_event(src, dialect, &kind);
                match (&full, fast) {
                    (Ok(full), Ok(fast)) => {
                        let want: Vec<&Rule> = full
                            .document
                            .rules
                            .iter()
                            .filter(|r| may_fire(&kind, &r.event))
                            .collect();
                        let got: Vec<&Rule> = fast.document.rules.iter().collect();
                        assert_eq!(got, want, "{} as {dialect}, {kind:?}", src.path);
                        assert_eq!(
                            fast.document.extra.get("disableAllHooks"),
                            full.document.extra.get("disableAllHooks")
                        );
                        assert_eq!(fast.document.kind, full.document.kind);
                    }
                    (Err(full), Err(fast)) => {
                        assert_eq!(format!("{fast:?}"), format!("{full:?}"), "{}", src.path)
                    }
                    (full, fast) => panic!(
                        "{} as {dialect}, {kind:?}: full {:?}, one event {:?}",
                        src.path,
                        full.as_ref().map(|_| ()),
                        fast.map(|_| ())
                    ),
                }
            }
        }
    }
}
