//! Conversion over every fixture: snapshots of the canonical model and of every (from, to)
//! conversion, the rule that nothing is lost without a loss item (with its position), and
//! round trips through the same and through another dialect.
//!
//! Snapshots live in `snapshots/model/<dialect>/<fixture>.snap` and
//! `snapshots/convert/<from>/to_<to>/<fixture>.snap`. Paths are relative to the crate root,
//! which is the working directory of integration tests.

mod common;

use common::{dialect_fixtures, fixtures, hookx, snapshots, stem};
use hookx::config::{read, write};
use hookx::convert::{self, Options};
use hookx::dialect::{bricks, claude, cline, copilot, gemini, qwen};
use hookx::model::{EventKind, HandlerKind};
use hookx::source::SourceFile;
use hookx::tables::{Dialect, Flavor};
use hookx::tables::{Document, Origin, RuleShape};
use serde_json::{Value, json};
use std::path::Path;

/// Every valid fixture of every registered dialect ([`common::dialect_fixtures`]: config files,
/// or the hook folders of a dialect whose hooks are one script per event), with its dialect.
fn valid_fixtures() -> Vec<(Dialect, String)> {
    Dialect::all()
        .iter()
        .copied()
        .flat_map(|d| dialect_fixtures(d).into_iter().map(move |f| (d, f)))
        .collect()
}

/// Reads a fixture: a config file, or a hook folder of a script-layout dialect (its source
/// text is empty).
fn read_fixture(path: &str, dialect: Dialect) -> (SourceFile, hookx::config::Parsed) {
    if let Some(layout) = dialect.config().scripts {
        let parsed = hookx::config::scripts::read_path(Path::new(path), path, dialect, layout);
        return (SourceFile::new(path, String::new()), parsed);
    }
    let src = SourceFile::read(Path::new(path)).unwrap_or_else(|e| panic!("{e}"));
    let parsed = read(&src, dialect).unwrap_or_else(|e| panic!("{path}: {e}"));
    (src, parsed)
}

/// A converted document as its dialect writes it, read back: the config text, or for a
/// script-layout dialect the scripts written into `dir` and read as a folder.
fn write_and_read(doc: &Document, to: Dialect, dir: &Path) -> (String, hookx::config::Parsed) {
    if let Some(layout) = to.config().scripts {
        let (scripts, left) =
            hookx::config::scripts::emit(doc, layout, &hookx::dispatch::select::may_fire);
        assert!(left.is_empty(), "scripts left over: {left:?}");
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).unwrap();
        let mut text = String::new();
        for (name, script) in &scripts {
            hookx::config::scripts::write_executable(&dir.join(name), script).unwrap();
            text.push_str(&format!("==> {name} <==\n{script}"));
        }
        let shown = dir.display().to_string();
        return (
            text,
            hookx::config::scripts::read_path(dir, &shown, to, layout),
        );
    }
    let text = write::to_text(doc);
    let name = if doc.kind.frontmatter {
        format!("out.{to}.md")
    } else {
        format!("out.{to}.json")
    };
    let parsed = read(&SourceFile::new(name, text.clone()), to)
        .unwrap_or_else(|e| panic!("→ {to}: output does not parse: {e}\n{text}"));
    (text, parsed)
}

/// `text` with this checkout's path written `<root>`: script rules name their script by its
/// absolute path.
fn rooted(text: &str) -> String {
    text.replace(env!("CARGO_MANIFEST_DIR"), "<root>")
}

fn load(path: &str, dialect: Dialect) -> (SourceFile, Document) {
    let (src, parsed) = read_fixture(path, dialect);
    assert!(
        !parsed.has_errors(),
        "{path} is a valid fixture but reads with errors: {:#?}",
        parsed.diagnostics
    );
    (src, parsed.document)
}

fn options(to: Dialect) -> Options {
    Options {
        to,
        wrap: false,
        hookx: "hookx".into(),
        copies_into: None,
    }
}

fn normalize(mut doc: Document) -> Document {
    for rule in &mut doc.rules {
        rule.origin = Origin::default();
    }
    doc.hooks_index = 0;
    // The frontmatter's YAML text is re-serialized; what it holds is compared above it.
    if let Some(front) = &mut doc.markdown {
        front.yaml.clear();
    }
    doc
}

/// The canonical model of every fixture (and of every invalid fixture that still reads into a
/// document), with the diagnostics reading produced.
#[test]
fn model_of_every_fixture() {
    let mut inputs: Vec<(Dialect, String)> = valid_fixtures();
    for path in fixtures("invalid") {
        let dialect = Dialect::all()
            .iter()
            .copied()
            .find(|d| stem(&path).starts_with(&format!("{}-", d.name())));
        if let Some(d) = dialect {
            inputs.push((d, path));
        }
    }
    let mut count = 0;
    for (dialect, path) in inputs {
        let (_, parsed) = read_fixture(&path, dialect);
        let folder = if path.contains("/invalid/") {
            "invalid"
        } else {
            dialect.name()
        };
        let name = stem(&path);
        let value = serde_json::json!({
            "document": parsed.document,
            "diagnostics": parsed.diagnostics,
        });
        // Printed by serde_json: insta's own serializer would show a number (kept as written,
        // `arbitrary_precision`) as serde_json's internal struct.
        let text = rooted(&serde_json::to_string_pretty(&value).unwrap());
        snapshots(&format!("model/{folder}")).bind(|| insta::assert_snapshot!(name, text));
        count += 1;
    }
    assert!(count >= 60, "only {count} models");
}

/// Runs `hookx convert` and renders what it did: exit code, stdout, stderr.
fn run_convert(args: &[&str]) -> (i32, String, String) {
    let output = hookx()
        .arg("convert")
        .args(args)
        .output()
        .expect("run hookx");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 stdout");
    let stderr = String::from_utf8(output.stderr).expect("UTF-8 stderr");
    let code = output.status.code().expect("hookx exited, not killed");
    assert!(
        code != 101 && !stderr.contains("panicked"),
        "hookx convert {args:?} panicked:\n{stderr}"
    );
    (code, stdout, stderr)
}

/// Every valid fixture converted to every dialect (each ordered (from, to) pair): the
/// converted config and the loss report, exactly as `hookx convert` prints them.
#[test]
fn conversion_of_every_fixture_to_every_dialect() {
    let mut pairs = std::collections::BTreeSet::new();
    for (from, path) in valid_fixtures() {
        for &to in Dialect::all() {
            let args = [path.as_str(), "--from", from.name(), "--to", to.name()];
            let (code, stdout, stderr) = run_convert(&args);
            assert_eq!(code, 0, "hookx convert {args:?}:\n{stderr}");
            let name = stem(&path);
            let shown = rooted(&format!(
                "$ hookx convert {}\n--- stdout\n{stdout}--- stderr\n{stderr}",
                args.join(" ")
            ));
            snapshots(&format!("convert/{from}/to_{to}"))
                .bind(|| insta::assert_snapshot!(name, shown));
            pairs.insert((from, to));
        }
    }
    assert_eq!(pairs.len(), Dialect::all().len().pow(2));
}

/// Counts the handler objects (`"type": "command" | "prompt" | "agent"`, or a `command`
/// without a type where the dialect implies it) under the file's `hooks` key (or its root, for
/// files without the wrapper), straight from the text.
fn raw_handlers(src: &SourceFile, dialect: Dialect) -> usize {
    let implied = dialect.config().implied_type.is_some();
    let count = |value: &Value| -> usize {
        fn count(value: &Value, implied: bool) -> usize {
            match value {
                Value::Object(o) => {
                    let own = match o.get("type") {
                        Some(t) => {
                            matches!(t.as_str(), Some("command" | "prompt" | "agent" | "http"))
                        }
                        None => implied && o.get("command").is_some_and(Value::is_string),
                    };
                    usize::from(own) + o.values().map(|v| count(v, implied)).sum::<usize>()
                }
                Value::Array(a) => a.iter().map(|v| count(v, implied)).sum(),
                _ => 0,
            }
        }
        count(value, implied)
    };
    let value = if src.path.ends_with(".md") {
        hookx::config::syntax::parse_frontmatter(src)
            .expect("frontmatter")
            .0
    } else {
        serde_json::from_str(&src.text).expect("JSON")
    };
    count(value.get("hooks").unwrap_or(&value))
}

/// Every handler that is missing from the output has a loss item at its pointer (or at its
/// rule's pointer, when the whole rule is lost). Handlers are told apart by a unique timeout
/// stamped on them before converting; timeouts never decide what is converted.
#[test]
fn every_missing_handler_has_a_loss_item() {
    // Stamps within what every target's hook timer holds (2147483 s): past it convert writes
    // the most the timer holds (attacks row 1681), and the stamps would merge.
    const STAMP: u64 = 1_000_000;
    let tmp = tempfile::tempdir().unwrap();
    let scratch = tmp.path();
    let mut checked = 0;
    let mut missing_total = 0;
    for (from, path) in valid_fixtures() {
        let (src, mut doc) = load(&path, from);
        // Reading drops nothing either: the model holds every handler object of the file
        // (every script of a hook folder).
        let in_model: usize = doc.rules.iter().map(|r| r.handlers.len()).sum();
        let raw = match from.config().scripts {
            Some(_) => std::fs::read_dir(&path).unwrap().count(),
            None => raw_handlers(&src, from),
        };
        assert_eq!(
            in_model, raw,
            "{path}: the model does not hold every handler of the file"
        );
        // (stamp, rule pointer, handler pointer)
        let mut stamps = Vec::new();
        for rule in &mut doc.rules {
            for (i, handler) in rule.handlers.iter_mut().enumerate() {
                let stamp = STAMP + stamps.len() as u64;
                handler.timeout = Some(stamp);
                let at = match rule.shape {
                    RuleShape::Group => format!("{}/hooks/{i}", rule.origin.pointer),
                    RuleShape::Flat => rule.origin.pointer.clone(),
                };
                stamps.push((stamp, rule.origin.pointer.clone(), at));
            }
        }
        for &to in Dialect::all() {
            let conversion = convert::convert(&[(&src, &doc)], &options(to));
            let out: Vec<u64> = conversion
                .document
                .rules
                .iter()
                .flat_map(|r| r.handlers.iter().filter_map(|h| h.timeout))
                .collect();
            // Nothing is duplicated either.
            // A target with an event per tool category holds one copy per category.
            let mut sorted = out.clone();
            sorted.sort();
            sorted.dedup();
            if !splits_by_category(to) {
                assert_eq!(sorted.len(), out.len(), "{path} → {to}: duplicated handler");
            }
            for (stamp, rule_at, at) in &stamps {
                checked += 1;
                if out.contains(stamp) {
                    continue;
                }
                missing_total += 1;
                let item = conversion
                    .losses
                    .iter()
                    // A rule dropped for its matcher is reported at the matcher.
                    .find(|l| {
                        &l.pointer == at
                            || &l.pointer == rule_at
                            || l.pointer == format!("{rule_at}/matcher")
                    });
                let item = item.unwrap_or_else(|| {
                    panic!(
                        "{path} → {to}: the handler at {at} is missing from the output and no loss item names it; losses: {:#?}",
                        conversion.losses
                    )
                });
                // A hook folder's losses name the script.
                assert!(
                    item.file == path || item.file.starts_with(&format!("{path}/")),
                    "{path} → {to}: loss names {}",
                    item.file
                );
                assert!(
                    item.line > 0 && item.col > 0,
                    "{path} → {to}: loss without a position: {item:?}"
                );
            }
            // And the converted document reads back as the target dialect without errors.
            let (text, reread) = write_and_read(&conversion.document, to, &scratch.join("out"));
            assert!(
                !reread.has_errors(),
                "{path} → {to}: output reads with errors {:#?}\n{text}",
                reread.diagnostics
            );
        }
    }
    assert!(checked > 300, "only {checked} handler conversions checked");
    assert!(
        missing_total > 20,
        "only {missing_total} lost handlers seen"
    );
}

/// `hookx convert --to <its own dialect>` writes a document that reads back as the same
/// model, and (for JSON) the very same JSON value with every key in its order.
#[test]
fn same_dialect_conversion_reads_back_the_same() {
    for (dialect, path) in valid_fixtures() {
        if dialect.config().scripts.is_some() {
            // A hook folder converts to wrapper scripts of its scripts: read back, each is
            // its script's path again (there_and_back_keeps_every_rule_the_middle_expressed).
            continue;
        }
        let (_, doc) = load(&path, dialect);
        let (code, stdout, stderr) =
            run_convert(&[&path, "--from", dialect.name(), "--to", dialect.name()]);
        assert_eq!(code, 0, "{path}: {stderr}");
        assert!(
            stderr.contains("no losses"),
            "{path}: same-dialect conversion reported losses:\n{stderr}"
        );
        // Re-read under the same name, so that the document kind (plugin, frontmatter) is
        // decided the same way.
        let again = read(&SourceFile::new(path.clone(), stdout.clone()), dialect)
            .unwrap_or_else(|e| panic!("{path}: output does not parse: {e}\n{stdout}"));
        assert_eq!(
            normalize(again.document),
            normalize(doc),
            "{path}: the converted document reads differently\n{stdout}"
        );
        if path.ends_with(".json") {
            let before: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let mut after: Value = serde_json::from_str(&stdout).unwrap();
            // A file without a `hooks` key is written back with an empty one (the model does
            // not remember its absence); harmless, and the only change allowed.
            if before.get("hooks").is_none() && after["hooks"] == serde_json::json!({}) {
                after.as_object_mut().unwrap().remove("hooks");
            }
            assert_eq!(
                after, before,
                "{path}: same-dialect conversion changed the JSON"
            );
            // Top-level keys keep their order, and so do the events. (Keys inside groups and
            // handlers are written in hookx's order; `--write` restores the order of the file
            // it writes into, see tests/cli.rs.)
            let keys = |v: &Value| -> Vec<String> {
                v.as_object()
                    .map_or(Vec::new(), |o| o.keys().cloned().collect())
            };
            assert_eq!(keys(&after), keys(&before), "{path}: top-level key order");
            if path.ends_with("/wild-settings-empty-event-arrays.json") {
                // Empty event arrays are kept, but the model does not remember where they sat
                // among the events: they come back after the others.
                continue;
            }
            assert_eq!(
                keys(&after["hooks"]),
                keys(&before["hooks"]),
                "{path}: event order"
            );
        }
    }
}

/// (event, unix command line) of every command handler, with the project-directory variables
/// of all dialects written alike.
fn command_lines(doc: &Document) -> Vec<(EventKind, String)> {
    let mut lines: Vec<(EventKind, String)> = doc
        .rules
        .iter()
        .flat_map(|r| {
            r.handlers.iter().filter_map(move |h| match &h.kind {
                HandlerKind::Command(c) => {
                    let line = c
                        .unix_line()
                        .unwrap_or_default()
                        .replace("$PWD", "$CLAUDE_PROJECT_DIR")
                        .replace("${PWD", "${CLAUDE_PROJECT_DIR");
                    let line = Dialect::all()
                        .iter()
                        .filter_map(|d| d.config().project_dir_variable)
                        .fold(line, |line, var| line.replace(var, "CLAUDE_PROJECT_DIR"));
                    Some((r.event.clone(), line))
                }
                _ => None,
            })
        })
        .collect();
    lines.sort();
    lines
}

/// Whether `d` has no generic tool event, only one per tool category (Windsurf).
fn splits_by_category(d: Dialect) -> bool {
    d.default_flavor()
        .tables()
        .event_name(&EventKind::PreToolUse)
        .is_none()
        && d.flavors()
            .any(|f| f.tables().event_name(&EventKind::PreToolUse).is_some())
}

/// Where a handler of `doc` was written, as hookx's record names it: its rule (a pointer, or
/// a hook script's file name) and its place in the rule's group.
fn first_written(rule: &hookx::tables::Rule, index: usize) -> (String, Option<usize>) {
    let id = match rule.origin.pointer.is_empty() {
        true => Path::new(&rule.origin.file)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string(),
        false => rule.origin.pointer.clone(),
    };
    (id, (rule.shape == RuleShape::Group).then_some(index))
}

/// A → B → A over every fixture, as written (`--no-wrap`): every handler B holds comes back
/// with the event and command line it had in A (B's record says which it was), and B's
/// second conversion loses nothing the first kept. (`tests/roundtrip.rs` checks the whole
/// of it, wrapped too.)
#[test]
fn there_and_back_keeps_every_rule_the_middle_expressed() {
    let tmp = tempfile::tempdir().unwrap();
    let scratch = tmp.path();
    let mut compared = 0;
    for (from, path) in valid_fixtures() {
        let (src, doc) = load(&path, from);
        for via in Dialect::all().iter().copied().filter(|d| *d != from) {
            let there = convert::convert(&[(&src, &doc)], &options(via));
            let (mid_text, mid) = write_and_read(&there.document, via, &scratch.join("mid"));
            let mid_src = SourceFile::new(format!("mid.{via}.json"), mid_text.clone());
            let mid = mid.document;
            let back = convert::convert(&[(&mid_src, &mid)], &options(from));
            let held: Vec<(String, Option<usize>)> = mid
                .rules
                .iter()
                .flat_map(|r| &r.handlers)
                .filter_map(|h| {
                    let record = h.extra.get("hookx")?;
                    let rule = record["rule"].as_str()?.to_string();
                    Some((rule, record["index"].as_u64().map(|i| i as usize)))
                })
                .collect();
            let mut held_doc = doc.clone();
            for rule in &mut held_doc.rules {
                let kept: Vec<_> = (0..rule.handlers.len())
                    .filter(|&i| held.contains(&first_written(rule, i)))
                    .collect();
                rule.handlers = kept.iter().map(|&i| rule.handlers[i].clone()).collect();
            }
            let expected = command_lines(&held_doc);
            assert_eq!(
                command_lines(&back.document),
                expected,
                "{path} → {via} → {from}\nmiddle:\n{mid_text}\nlosses back: {:#?}",
                back.losses
            );
            // Converting the way back again gives the same.
            let again = convert::convert(&[(&mid_src, &mid)], &options(from));
            assert_eq!(
                normalize(again.document),
                normalize(back.document),
                "conversion is not deterministic"
            );
            compared += expected.len();
        }
    }
    assert!(compared >= 150, "only {compared} rules compared");
}

/// Runs `hookx convert FILE --from F --to T --format json --no-wrap` and returns its loss
/// items: what the target cannot express natively.
fn losses(path: &str, from: Dialect, to: Dialect) -> Vec<Value> {
    losses_with(path, from, to, &["--no-wrap"])
}

/// Like [`losses`], with other extra arguments.
fn losses_with(path: &str, from: Dialect, to: Dialect, extra: &[&str]) -> Vec<Value> {
    let mut args = vec![
        path,
        "--from",
        from.name(),
        "--to",
        to.name(),
        "--format",
        "json",
    ];
    args.extend(extra);
    let (code, stdout, stderr) = run_convert(&args);
    assert_eq!(code, 0, "{path} → {to}: {stderr}");
    let report: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{path} → {to}: --format json is not JSON ({e}):\n{stdout}"));
    assert_eq!(report["to"], to.name());
    assert!(report["output"].is_string(), "{report}");
    report["losses"].as_array().expect("losses array").clone()
}

/// Asserts a loss item at `pointer` whose `what` contains `what`, at `line`:`col`.
#[track_caller]
fn assert_loss(items: &[Value], pointer: &str, what: &str, line: u64, col: u64) {
    let found = items
        .iter()
        .find(|l| l["pointer"] == pointer && l["what"].as_str().unwrap_or("").contains(what));
    let Some(item) = found else {
        panic!("no loss item at {pointer} about {what:?}; items: {items:#?}");
    };
    assert_eq!(
        (item["line"].as_u64(), item["col"].as_u64()),
        (Some(line), Some(col)),
        "position of the loss item {item:#}"
    );
    assert!(!item["why"].as_str().unwrap_or("").is_empty(), "{item:#}");
}

const CLAUDE: Dialect = claude::DIALECT;
const COPILOT: Dialect = copilot::DIALECT;
const BRICKS: Dialect = bricks::DIALECT;

#[test]
fn events_the_target_lacks_are_losses() {
    let f = "tests/fixtures/claude/seed-session-end-clear.json";
    assert_loss(
        &losses(f, CLAUDE, BRICKS),
        "/hooks/SessionEnd/0",
        "SessionEnd",
        4,
        7,
    );

    let f = "tests/fixtures/claude/seed-notification-by-type.json";
    let items = losses(f, CLAUDE, BRICKS);
    assert_loss(&items, "/hooks/Notification/0", "Notification", 4, 7);
    assert_loss(&items, "/hooks/Notification/1", "Notification", 13, 7);

    let f = "tests/fixtures/bricks/wild-all-ten-events.json";
    for to in [CLAUDE, COPILOT] {
        let items = losses(f, BRICKS, to);
        assert_loss(&items, "/hooks/GoalUpdate/0", "GoalUpdate", 31, 7);
    }
    // Claude has PostCompact too (newer than the seed); Copilot does not.
    let items = losses(f, BRICKS, COPILOT);
    assert_loss(&items, "/hooks/PostCompact/0", "PostCompact", 28, 7);
    assert!(
        !losses(f, BRICKS, CLAUDE)
            .iter()
            .any(|l| l["pointer"] == "/hooks/PostCompact/0"),
        "Claude expresses PostCompact"
    );

    let f = "tests/fixtures/copilot/wild-matchers-all-camel-events.json";
    assert_loss(
        &losses(f, COPILOT, CLAUDE),
        "/hooks/errorOccurred/0",
        "ErrorOccurred",
        16,
        23,
    );
    let f = "tests/fixtures/copilot/wild-mixed-camel-and-pascal-events.json";
    assert_loss(
        &losses(f, COPILOT, CLAUDE),
        "/hooks/errorOccurred/0",
        "ErrorOccurred",
        33,
        7,
    );

    // An event the source does not know either.
    let f = "tests/fixtures/copilot/wild-undocumented-event.json";
    assert_loss(
        &losses(f, COPILOT, CLAUDE),
        "/hooks/modelChanged/0",
        "modelChanged",
        5,
        7,
    );
    let f = "tests/fixtures/claude/wild-settings-newer-events-extra-fields.json";
    assert_loss(
        &losses(f, CLAUDE, COPILOT),
        "/hooks/TaskCompleted/0",
        "TaskCompleted",
        11,
        7,
    );
}

#[test]
fn prompt_and_agent_handlers_are_losses() {
    let f = "tests/fixtures/claude/wild-settings-prompt-agent-hooks.json";
    for to in [COPILOT, BRICKS] {
        let items = losses(f, CLAUDE, to);
        assert_loss(
            &items,
            "/hooks/UserPromptSubmit/0/hooks/0",
            "`prompt` handler",
            6,
            11,
        );
        assert_loss(
            &items,
            "/hooks/PreToolUse/0/hooks/0",
            "`prompt` handler",
            20,
            11,
        );
        assert_loss(&items, "/hooks/Stop/0/hooks/0", "`agent` handler", 30, 11);
    }
    let f = "tests/fixtures/claude/seed-stop-agent-verify-tests.json";
    assert_loss(
        &losses(f, CLAUDE, BRICKS),
        "/hooks/Stop/0/hooks/0",
        "`agent`",
        6,
        11,
    );

    let f = "tests/fixtures/copilot/seed-prompt-hook.json";
    for to in [CLAUDE, BRICKS] {
        assert_loss(
            &losses(f, COPILOT, to),
            "/hooks/sessionStart/0",
            "`prompt`",
            5,
            7,
        );
    }
}

#[test]
fn a_matcher_on_an_event_the_target_does_not_filter_is_a_loss() {
    // Copilot filters no sessionEnd, sessionStart or subagentStop events by matcher.
    let f = "tests/fixtures/claude/seed-session-end-clear.json";
    assert_loss(
        &losses(f, CLAUDE, COPILOT),
        "/hooks/SessionEnd/0/matcher",
        "clear",
        5,
        20,
    );
    let f = "tests/fixtures/bricks/wild-all-ten-events.json";
    let items = losses(f, BRICKS, COPILOT);
    assert_loss(
        &items,
        "/hooks/SessionStart/0/matcher",
        "startup|resume",
        4,
        20,
    );
    assert_loss(
        &items,
        "/hooks/SubagentStop/0/matcher",
        "researcher|planner",
        22,
        20,
    );
    let f = "tests/fixtures/claude/seed-reinject-context-after-compact.json";
    assert_loss(
        &losses(f, CLAUDE, COPILOT),
        "/hooks/SessionStart/0/matcher",
        "compact",
        5,
        20,
    );
}

#[test]
fn handler_fields_the_target_lacks_are_losses() {
    let f = "tests/fixtures/claude/seed-async-run-tests.json";
    for to in [COPILOT, BRICKS] {
        assert_loss(
            &losses(f, CLAUDE, to),
            "/hooks/PostToolUse/0/hooks/0/async",
            "async",
            10,
            22,
        );
    }
    let f = "tests/fixtures/claude/wild-plugin-hooks.json";
    for to in [COPILOT, BRICKS] {
        let items = losses(f, CLAUDE, to);
        assert_loss(
            &items,
            "/hooks/SessionStart/0/hooks/0/statusMessage",
            "statusMessage",
            32,
            30,
        );
    }
    // Frontmatter: positions count the opening `---` line.
    let f = "tests/fixtures/claude/wild-skill-once-setup.md";
    for to in [COPILOT, BRICKS] {
        let items = losses(f, CLAUDE, to);
        assert_loss(&items, "/hooks/SessionStart/0/hooks/0/once", "once", 10, 11);
        assert_loss(&items, "/hooks/PostToolUse/0/hooks/0/once", "once", 23, 11);
        assert_loss(
            &items,
            "/hooks/PreToolUse/0/hooks/0/statusMessage",
            "statusMessage",
            17,
            11,
        );
    }
}

#[test]
fn powershell_only_handlers_are_losses() {
    let f = "tests/fixtures/convert/copilot-powershell-only.json";
    for to in [CLAUDE, BRICKS] {
        let items = losses(f, COPILOT, to);
        assert_loss(&items, "/hooks/preToolUse/0", "PowerShell-only", 5, 7);
        assert_loss(&items, "/hooks/PreToolUse/0", "PowerShell-only", 12, 7);
        // The handler with a bash command converts, and its PowerShell twin is reported.
        assert_loss(
            &items,
            "/hooks/postToolUse/0/powershell",
            "PowerShell",
            21,
            23,
        );
    }
}

#[test]
fn unknown_fields_are_losses() {
    let f = "tests/fixtures/claude/wild-settings-newer-events-extra-fields.json";
    for to in [COPILOT, BRICKS] {
        let items = losses(f, CLAUDE, to);
        // Handler fields `if` (wrapped, `hookx exec --if` applies it), `asyncRewake`, `id`.
        assert_loss(
            &items,
            "/hooks/PreToolUse/0/hooks/0/if",
            "`if: Bash(git *)`",
            42,
            19,
        );
        assert_loss(
            &items,
            "/hooks/PreToolUse/0/hooks/0/asyncRewake",
            "`asyncRewake`",
            43,
            28,
        );
        assert_loss(&items, "/hooks/PreToolUse/0/hooks/0", "`id`", 39, 11);
        let wrapped = losses_with(f, CLAUDE, to, &[]);
        assert!(
            !wrapped
                .iter()
                .any(|l| l["pointer"] == "/hooks/PreToolUse/0/hooks/0/if"),
            "{wrapped:#?}"
        );
        // The group field `comment`.
        assert_loss(&items, "/hooks/PreToolUse/0", "`comment`", 35, 7);
    }
    let f = "tests/fixtures/claude/wild-settings-disable-all-hooks.json";
    for to in [COPILOT, BRICKS] {
        assert_loss(
            &losses(f, CLAUDE, to),
            "/disableAllHooks",
            "disableAllHooks",
            2,
            22,
        );
    }
    let f = "tests/fixtures/claude/seed-disable-all-hooks.json";
    assert_loss(
        &losses(f, CLAUDE, COPILOT),
        "/disableAllHooks",
        "disableAllHooks",
        2,
        22,
    );
}

/// Qwen Code 0.24.4 hands its settings `env` to every hook
/// (`live_qwen::a_projects_env_reaches_the_users_hooks`); convert does not copy it, so it is a
/// loss, to Claude too, whose settings have an `env` of their own.
#[test]
fn a_qwen_settings_env_is_a_loss() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let text = json!({"env": {"PYTHONPATH": "./py"}, "hooks": {"PreToolUse": [
        {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}});
    std::fs::write(&path, serde_json::to_string_pretty(&text).unwrap()).unwrap();
    let items = losses(path.to_str().unwrap(), qwen::DIALECT, CLAUDE);
    assert_loss(&items, "/env", "settings `env`", 2, 10);
    let why = items.iter().find(|l| l["pointer"] == "/env").unwrap()["why"].clone();
    assert!(
        why.as_str()
            .is_some_and(|w| w.contains("convert does not copy it into claude's settings `env`")),
        "{why}"
    );
}

#[test]
fn agent_variables_the_target_does_not_set_are_losses() {
    let f = "tests/fixtures/claude/wild-plugin-hooks.json";
    let items = losses(f, CLAUDE, BRICKS);
    assert_loss(
        &items,
        "/hooks/PreToolUse/0/hooks/0",
        "CLAUDE_PLUGIN_ROOT",
        8,
        11,
    );
    // Attacks row 1045: a plugin's data folder (Claude Code 2.1.332 sets it; hookx too, where
    // it runs the plugin itself).
    let f = "tests/fixtures/claude/plugin-data-hooks.json";
    assert_loss(
        &losses(f, CLAUDE, BRICKS),
        "/hooks/PreToolUse/0/hooks/0",
        "CLAUDE_PLUGIN_DATA",
        7,
        19,
    );
    let f = "tests/fixtures/bricks/wild-global-no-wrapper.json";
    assert_loss(
        &losses(f, BRICKS, CLAUDE),
        "/SessionStart/0/hooks/0",
        "BRICKS_SESSION_ID",
        6,
        9,
    );
}

/// A lossless conversion says so, and `--strict` agrees: by default the handlers are wrapped
/// and nothing is lost.
#[test]
fn a_lossless_conversion_has_no_loss_items() {
    let f = "tests/fixtures/claude/seed-block-rm.json";
    assert_eq!(losses_with(f, CLAUDE, COPILOT, &[]), Vec::<Value>::new());
    // Bricks takes no context on PreToolUse: the one loss says so, at the handler (row 2188).
    let bricks = losses_with(f, CLAUDE, BRICKS, &[]);
    assert_eq!(bricks.len(), 1, "{bricks:#?}");
    assert_eq!(bricks[0]["pointer"], "/hooks/PreToolUse/0/hooks/0");
    assert!(
        bricks[0]["what"]
            .as_str()
            .unwrap()
            .starts_with("any additional context it answers on `PreToolUse`"),
        "{bricks:#?}"
    );
    let f = "tests/fixtures/bricks/seed-config-format.json";
    assert_eq!(losses_with(f, BRICKS, CLAUDE, &[]), Vec::<Value>::new());
}

/// Under --no-wrap, a handler written for another agent's protocol is a located loss item,
/// the summary never says "no losses", and --strict fails on it.
#[test]
fn no_wrap_reports_every_handler_that_sees_another_protocol() {
    let f = "tests/fixtures/claude/seed-block-rm.json";
    for to in [COPILOT, BRICKS] {
        let items = losses(f, CLAUDE, to);
        assert_loss(
            &items,
            "/hooks/PreToolUse/0/hooks/0",
            "claude's hook protocol",
            7,
            11,
        );
        let args = [
            f,
            "--from",
            "claude",
            "--to",
            to.name(),
            "--no-wrap",
            "--strict",
        ];
        let (code, stdout, stderr) = run_convert(&args);
        assert_eq!(code, 3, "{stderr}");
        assert!(!stderr.contains("no losses"), "{stderr}");
        assert!(!stdout.contains("hookx exec"), "{stdout}");
    }
}

/// Matchers keep their meaning: tool names are renamed and anchoring is made explicit, for
/// tool matchers and for the other values a matcher filters (agent names, triggers).
#[test]
fn matchers_keep_their_meaning() {
    fn matchers(path: &str, from: Dialect, to: Dialect) -> Vec<(String, Option<String>)> {
        let (src, doc) = load(path, from);
        let conversion = convert::convert(&[(&src, &doc)], &options(to));
        conversion
            .document
            .rules
            .iter()
            .map(|r| (r.event.name().to_string(), r.matcher.clone()))
            .collect()
    }
    let f = "tests/fixtures/copilot/wild-matchers-all-camel-events.json";
    let to_bricks = matchers(f, COPILOT, BRICKS);
    assert!(
        to_bricks.contains(&(
            "SubagentStart".into(),
            Some("^(?:explore|code\\-review)$".into())
        )),
        "{to_bricks:?}"
    );
    let to_claude = matchers(f, COPILOT, CLAUDE);
    assert!(
        to_claude.contains(&("SubagentStart".into(), Some("explore|code-review".into()))),
        "{to_claude:?}"
    );
    assert!(
        to_claude.contains(&("PermissionRequest".into(), Some("Read|Glob|Grep".into()))),
        "{to_claude:?}"
    );
    let f = "tests/fixtures/convert/claude-regex-tool-matchers.json";
    let pre = |m: &str| ("PreToolUse".to_string(), Some(m.to_string()));
    assert_eq!(
        matchers(f, CLAUDE, COPILOT),
        vec![
            pre(".*(?:bash|edit.*).*"),
            pre(".*(?:^create|view).*"),
            pre(".*edit.*"),
            pre("github-.*"),
            pre("edit"),
        ]
    );
    assert_eq!(
        matchers(f, CLAUDE, BRICKS),
        vec![
            pre("bash|edit_file.*"),
            pre("^write_file|read_file"),
            pre("edit_file.*"),
            pre("mcp__github__.*"),
            pre("edit_file"),
        ]
    );
    // `NotebookEdit` has no Copilot or Bricks name: reported.
    assert_loss(
        &losses(f, CLAUDE, COPILOT),
        "/hooks/PreToolUse/4/matcher",
        "Edit|NotebookEdit",
        8,
        20,
    );
    let f = "tests/fixtures/convert/claude-regex-field-matchers.json";
    let to_copilot = matchers(f, CLAUDE, COPILOT);
    assert_eq!(
        to_copilot,
        vec![
            ("Notification".to_string(), Some(".*_prompt$".to_string())),
            ("SubagentStart".to_string(), Some(".*code-.*".to_string())),
            ("PreCompact".to_string(), Some("auto".to_string())),
        ]
    );
}

/// Several inputs merge into one output; identical Bricks handlers stay as written (Bricks
/// deduplicates at run time).
#[test]
fn several_inputs_convert_into_one_document() {
    let (code, stdout, stderr) = run_convert(&[
        "tests/fixtures/bricks/wild-dedup-global.json",
        "tests/fixtures/bricks/wild-dedup-project.json",
        "--from",
        "bricks",
        "--to",
        "claude",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let name = "wild-dedup-global+project";
    let shown = format!("--- stdout\n{stdout}--- stderr\n{stderr}");
    snapshots("convert/bricks/to_claude").bind(|| insta::assert_snapshot!(name, shown));
}

/// Merging several files of the target's own dialect: `disableAllHooks` cannot be carried
/// (it would turn off every input's hooks) and is reported as such, not as a missing switch.
#[test]
fn merging_files_of_the_target_dialect_reports_disable_all_hooks_truthfully() {
    let (code, stdout, stderr) = run_convert(&[
        "tests/fixtures/claude/wild-settings-disable-all-hooks.json",
        "tests/fixtures/claude/seed-block-rm.json",
        "--from",
        "claude",
        "--to",
        "claude",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let losses = report["losses"].as_array().unwrap();
    assert_eq!(losses.len(), 1, "{losses:#?}");
    assert_loss(losses, "/disableAllHooks", "disableAllHooks", 2, 22);
    let why = losses[0]["why"].as_str().unwrap();
    assert!(why.contains("merged"), "{why}");
    assert!(!why.contains("has no switch"), "{why}");
    let output: Value = serde_json::from_str(report["output"].as_str().unwrap()).unwrap();
    assert_eq!(output["hooks"]["PreToolUse"].as_array().unwrap().len(), 2);
}

/// Copilot `cwd` and `env` become shell prefixes for targets without them: names that are
/// not shell names are reported, never spliced into the command; the prefix runs as meant.
#[test]
fn copilot_cwd_and_env_become_safe_shell_prefixes() {
    let f = "tests/fixtures/convert/copilot-env-names.json";
    for to in [CLAUDE, BRICKS] {
        let items = losses(f, COPILOT, to);
        assert_loss(
            &items,
            "/hooks/preToolUse/0/env/BAD NAME",
            "`BAD NAME`",
            11,
            23,
        );
        assert_loss(
            &items,
            "/hooks/preToolUse/0/env/X;touch pwned",
            "`X;touch pwned`",
            12,
            28,
        );
    }
    let (src, doc) = load(f, COPILOT);
    let conversion = convert::convert(&[(&src, &doc)], &options(CLAUDE));
    let HandlerKind::Command(c) = &conversion.document.rules[0].handlers[0].kind else {
        panic!("a command handler");
    };
    let line = c.command.clone().unwrap();
    assert_eq!(
        line,
        // Copilot passes env values literally (run 1.0.102): single quotes keep them so.
        r#"export GOOD_1='$HOME/x "q" `no` $(no)'; cd 'dir with '\''quotes'\''' || exit 1; ./check.sh"#
    );
    // Run the prefix (with the command replaced) to see what it does.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("dir with 'quotes'")).unwrap();
    let probe = line.replace(
        "./check.sh",
        r#"printf '%s|%s' "$GOOD_1" "$(basename "$PWD")""#,
    );
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(&probe)
        .current_dir(dir.path())
        .env("HOME", "/home/h")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "$HOME/x \"q\" `no` $(no)|dir with 'quotes'"
    );
    // Where the folder is not there (another machine's path) the handler could not start: exit
    // 1, as `hookx run` reads a handler that cannot start, never the exit 2 of dash's failed
    // `cd`, which every agent reads as a block (attacks row 1760).
    let elsewhere = tempfile::tempdir().unwrap();
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(&probe)
        .current_dir(elsewhere.path())
        .output()
        .unwrap();
    assert_eq!(
        (output.status.code(), output.stdout.is_empty()),
        (Some(1), true),
        "{output:?}"
    );
    assert!(!dir.path().join("pwned").exists());
}

/// Converts a Claude `hooks` object (as JSON text) to `to` with the given extra arguments:
/// the converted document and the loss items.
fn convert_claude(hooks: Value, to: Dialect, extra: &[&str]) -> (Value, Vec<Value>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, json!({ "hooks": hooks }).to_string()).unwrap();
    let mut args = vec![
        path.to_str().unwrap(),
        "--to",
        to.name(),
        "--format",
        "json",
    ];
    args.extend(extra);
    let (code, stdout, stderr) = run_convert(&args);
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let output: Value = serde_json::from_str(report["output"].as_str().unwrap()).unwrap();
    // The matcher's losses: a wrapped handler on an event the target takes no context on
    // (Bricks' PreToolUse) also says that its context is dropped (row 2188), which
    // `a_lossless_conversion_has_no_loss_items` checks.
    let losses = report["losses"].as_array().unwrap().iter();
    let losses = losses.filter(|l| {
        !l["what"]
            .as_str()
            .is_some_and(|w| w.starts_with("any additional context"))
    });
    (output, losses.cloned().collect())
}

fn pre_tool_use(matcher: &str) -> Value {
    json!({"PreToolUse": [{"matcher": matcher, "hooks": [{"type": "command", "command": "./g.sh"}]}]})
}

/// The matcher of the first converted preToolUse/PreToolUse rule (`None` when absent).
fn converted_matcher(out: &Value) -> Option<String> {
    let hooks = &out["hooks"];
    let entry = hooks
        .get("preToolUse")
        .or_else(|| hooks.get("PreToolUse"))
        .and_then(|a| a.get(0))?;
    entry
        .get("matcher")
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// Match-all stays match-all: `.*` (and `*`) fire for MCP tools and tools hookx does not know
/// under the target too, never a closed list of known tools.
#[test]
fn match_all_stays_match_all() {
    for to in [COPILOT, BRICKS] {
        for matcher in [".*", "*", ""] {
            let (out, losses) = convert_claude(pre_tool_use(matcher), to, &[]);
            let written = converted_matcher(&out);
            for tool in ["mcp__github__create_issue", "SomeBrandNewTool", "bash"] {
                let fires =
                    hookx::convert::matcher::fires(written.as_deref(), to.default_flavor(), tool);
                assert_eq!(
                    fires,
                    Some(true),
                    "{matcher:?} → {to}: {written:?} misses {tool}"
                );
            }
            assert_eq!(losses, Vec::<Value>::new(), "{matcher:?} → {to}");
        }
    }
}

/// A matcher whose only tools have no counterpart is not converted, and reported; a
/// converted matcher is never empty; a partly lost list keeps the rest and counts the loss.
#[test]
fn a_rule_for_tools_the_target_lacks_is_not_converted() {
    for to in [COPILOT, BRICKS] {
        for matcher in ["TodoWrite", "TodoWrite|NotebookEdit", "Notebook.*"] {
            let (out, losses) = convert_claude(pre_tool_use(matcher), to, &[]);
            assert_eq!(converted_matcher(&out), None, "{matcher} → {to}: {out:#}");
            let hooks = out["hooks"].as_object().map(|h| h.len()).unwrap_or(0);
            assert_eq!(hooks, 0, "{matcher} → {to}: {out:#}");
            assert!(
                losses
                    .iter()
                    .any(|l| l["pointer"] == "/hooks/PreToolUse/0/matcher"
                        && l["why"].as_str().unwrap().contains("not converted")),
                "{matcher} → {to}: {losses:#?}"
            );
        }
        let (out, losses) = convert_claude(pre_tool_use("Bash|TodoWrite"), to, &[]);
        let written = converted_matcher(&out).unwrap();
        assert!(!written.is_empty());
        assert_eq!(losses.len(), 1, "{losses:#?}");
        assert!(losses[0]["why"].as_str().unwrap().contains("TodoWrite"));
    }
}

/// Every translated tool matcher fires, under the target's own matcher rules, for exactly the
/// counterparts of the tools the original fired for (known tools and probe MCP/new tools).
#[test]
fn translated_matchers_fire_for_the_counterparts_under_the_target_rules() {
    use hookx::convert::matcher::{counterparts_fired, target_fired};
    let matchers = [
        "Bash",
        "Edit|Write",
        "Edit,Write",
        "Edit|MultiEdit|Write",
        "Write|Edit.*",
        "mcp__.*",
        "mcp__github__.*",
        ".*",
        "Bash|mcp__memory__.*",
        "^Read$",
        "Web.*",
        "Agent|Task",
    ];
    for to in [COPILOT, BRICKS] {
        for matcher in matchers {
            let (out, losses) = convert_claude(pre_tool_use(matcher), to, &[]);
            let written = converted_matcher(&out);
            // Copilot names an MCP tool `SERVER-TOOL` (no prefix, attacks row 1286): an MCP
            // name inside a larger regex is not rewritten, and a loss says so.
            if to == COPILOT && matcher == "Bash|mcp__memory__.*" {
                assert_eq!(written.as_deref(), Some("bash"));
                assert!(
                    losses.iter().any(|l| l.to_string().contains("MCP tools")),
                    "{losses:#?}"
                );
                continue;
            }
            let (expected, _) =
                counterparts_fired(Some(matcher), claude::FLAVOR, to.default_flavor()).unwrap();
            let got =
                target_fired(written.as_deref(), claude::FLAVOR, to.default_flavor()).unwrap();
            assert_eq!(got, expected, "{matcher} → {to}: {written:?}");
        }
    }
}

/// `args` (the exec form) becomes one command line whose words `sh` gives back exactly.
#[test]
fn claude_args_become_a_quoted_command_line() {
    let args = ["--flag", "it's", "$HOME", "a b", "`x`"];
    let words: Vec<&str> = ["%s\\n"].iter().chain(args.iter()).copied().collect();
    let hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "printf", "args": words}
    ]}]});
    let (out, losses) = convert_claude(hooks, COPILOT, &["--no-wrap"]);
    let line = out["hooks"]["preToolUse"][0]["bash"].as_str().unwrap();
    let printed = std::process::Command::new("sh")
        .arg("-c")
        .arg(line)
        .output()
        .unwrap();
    let words: Vec<&str> = std::str::from_utf8(&printed.stdout)
        .unwrap()
        .lines()
        .collect();
    assert_eq!(words, args, "{line}");
    assert!(
        !losses
            .iter()
            .any(|l| l["what"].as_str().unwrap().contains("args")),
        "{losses:#?}"
    );
}

/// Claude's `if` filter is applied by `hookx exec --if`; `shell: powershell` goes where the
/// target keeps PowerShell; `onFailure: block` and `asyncRewake` are located losses; an
/// `http` handler is a loss while its neighbours convert.
#[test]
fn every_claude_handler_form_is_read_and_translated_or_reported() {
    let hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "./git-guard.sh", "if": "Bash(git *)"},
        {"type": "command", "command": "Write-Host hi", "shell": "powershell"},
        {"type": "command", "command": "./strict.sh", "onFailure": "block", "asyncRewake": true},
        {"type": "http", "url": "https://example.com/hook"},
        {"type": "mcp_tool", "server": "s", "tool": "t"}
    ]}]});
    let (out, losses) = convert_claude(hooks.clone(), COPILOT, &[]);
    let entries = out["hooks"]["preToolUse"].as_array().unwrap();
    let lines: Vec<&str> = entries.iter().filter_map(|e| e["bash"].as_str()).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("--if 'Bash(git *)' -- ./git-guard.sh")),
        "{lines:#?}"
    );
    assert!(
        entries.iter().any(|e| e["powershell"] == "Write-Host hi")
            || losses
                .iter()
                .any(|l| l["what"].as_str().unwrap().contains("PowerShell")),
        "{out:#}"
    );
    // The `http` and `mcp_tool` handlers: a loss at the handler (or its `type`).
    for pointer in [
        "/hooks/PreToolUse/0/hooks/2/onFailure",
        "/hooks/PreToolUse/0/hooks/2/asyncRewake",
        "/hooks/PreToolUse/0/hooks/3",
        "/hooks/PreToolUse/0/hooks/4",
    ] {
        assert!(
            losses.iter().any(|l| {
                let at = l["pointer"].as_str().unwrap();
                (at == pointer || at == format!("{pointer}/type")) && l["line"].as_u64() > Some(0)
            }),
            "{pointer}: {losses:#?}"
        );
    }
    // Without wrapping, the `if` filter cannot be applied: a loss, and the handler still runs.
    let (_, losses) = convert_claude(hooks, COPILOT, &["--no-wrap"]);
    assert!(
        losses
            .iter()
            .any(|l| l["pointer"] == "/hooks/PreToolUse/0/hooks/0/if"),
        "{losses:#?}"
    );
}

/// Gemini CLI timeouts are milliseconds (run 0.61.0); hookx's model holds whole seconds. A
/// whole number of seconds converts both ways exactly; anything else is rounded up with a
/// warning at the timeout, never silently.
#[test]
fn gemini_millisecond_timeouts_become_seconds() {
    let text = r#"{"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": "a", "timeout": 5000},
        {"type": "command", "command": "b", "timeout": 1500}]}]}}"#;
    let src = SourceFile::new("settings.json", text);
    let parsed = read(&src, gemini::DIALECT).unwrap();
    let timeouts: Vec<_> = parsed.document.rules[0]
        .handlers
        .iter()
        .map(|h| h.timeout)
        .collect();
    assert_eq!(timeouts, [Some(5), Some(2)]);
    let warnings: Vec<_> = parsed
        .diagnostics
        .iter()
        .map(|d| (d.pointer.as_deref(), d.message.as_str()))
        .collect();
    assert_eq!(
        warnings,
        [(
            Some("/hooks/BeforeTool/0/hooks/1/timeout"),
            "`timeout` is 1500 ms; hookx runs hooks with whole seconds and rounds it up to 2 s"
        )]
    );
    let to_claude = convert::convert(&[(&src, &parsed.document)], &options(claude::DIALECT));
    let claude_text: Value = serde_json::from_str(&write::to_text(&to_claude.document)).unwrap();
    assert_eq!(
        claude_text["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"],
        5
    );
    let back = convert::convert(&[(&src, &parsed.document)], &options(gemini::DIALECT));
    let gemini_text: Value = serde_json::from_str(&write::to_text(&back.document)).unwrap();
    assert_eq!(
        gemini_text["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"],
        5000
    );
}

/// Qwen Code reads a command hook's `timeout` in seconds, except a value of 1000 or more,
/// which it still reads as milliseconds, the unit it used before (source, qwen-code
/// `hook-timeout.ts`, `LEGACY_MILLISECOND_TIMEOUT_THRESHOLD`); other hooks' are seconds. Real settings carry both
/// (choms0521/oh-qwen-code: `"timeout": 5000`, five seconds): converted, each keeps the time
/// Qwen gives it, and a long timeout from elsewhere is written so Qwen reads it back whole.
#[test]
fn qwen_timeouts_of_1000_and_more_are_milliseconds() {
    let text = r#"{"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "a", "timeout": 5000},
        {"type": "command", "command": "b", "timeout": 30},
        {"type": "command", "command": "c", "timeout": 1500},
        {"type": "command", "command": "d", "timeout": 999},
        {"type": "prompt", "prompt": "Is this safe?", "timeout": 1200}]}]}}"#;
    let src = SourceFile::new("settings.json", text);
    let parsed = read(&src, qwen::DIALECT).unwrap();
    let timeouts: Vec<_> = parsed.document.rules[0]
        .handlers
        .iter()
        .map(|h| h.timeout)
        .collect();
    // A prompt hook's timeout is seconds whatever its size ("command hooks still read 1000 or
    // more as legacy milliseconds, everything else seconds", `formatHookTimeout`).
    assert_eq!(
        timeouts,
        [Some(5), Some(30), Some(2), Some(999), Some(1200)]
    );
    let same = convert::convert(&[(&src, &parsed.document)], &options(qwen::DIALECT));
    let same: Value = serde_json::from_str(&write::to_text(&same.document)).unwrap();
    assert_eq!(same["hooks"]["PreToolUse"][0]["hooks"][4]["timeout"], 1200);
    let to_claude = convert::convert(&[(&src, &parsed.document)], &options(claude::DIALECT));
    let claude_text: Value = serde_json::from_str(&write::to_text(&to_claude.document)).unwrap();
    let written: Vec<_> = (0..4)
        .map(|i| claude_text["hooks"]["PreToolUse"][0]["hooks"][i]["timeout"].clone())
        .collect();
    assert_eq!(written, [json!(5), json!(30), json!(2), json!(999)]);
    // Twenty minutes from Claude: `1200` would be 1.2 s under Qwen.
    let claude_src = SourceFile::new(
        "settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "e", "timeout": 1200}]}]}}"#,
    );
    let from_claude = read(&claude_src, claude::DIALECT).unwrap().document;
    let to_qwen = convert::convert(&[(&claude_src, &from_claude)], &options(qwen::DIALECT));
    let qwen_text = write::to_text(&to_qwen.document);
    let qwen_json: Value = serde_json::from_str(&qwen_text).unwrap();
    assert_eq!(
        qwen_json["hooks"]["Stop"][0]["hooks"][0]["timeout"],
        1_200_000
    );
    let again = read(&SourceFile::new("settings.json", qwen_text), qwen::DIALECT).unwrap();
    assert_eq!(again.document.rules[0].handlers[0].timeout, Some(1200));
}

/// Cline runs a hook script with no timeout of its own and ends it after 120 s (source
/// 3.0.65, cline-facts.md): a timeout the source set is a located loss, not silence. Wrapped,
/// `hookx exec --timeout` still ends a hook sooner, so only a longer timeout is lost; bare,
/// every one that differs is.
#[test]
fn a_timeout_a_hook_script_cannot_hold_is_a_loss() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(
        &path,
        r#"{
  "hooks": {
    "PreToolUse": [{"hooks": [{"type": "command", "command": "./guard.sh", "timeout": 300}]}],
    "PostToolUse": [{"hooks": [{"type": "command", "command": "./lint.sh", "timeout": 30}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh", "timeout": 120}]}]
  }
}
"#,
    )
    .unwrap();
    let path = path.to_str().unwrap();
    // Its JSON report lists scripts, not one output document.
    let timeouts = |extra: &[&str]| -> Vec<Value> {
        let mut args = vec![path, "--to", cline::DIALECT.name(), "--format", "json"];
        args.extend(extra);
        let (code, stdout, stderr) = run_convert(&args);
        assert_eq!(code, 0, "{stderr}");
        let report: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(
            report["scripts"].as_array().map(Vec::len),
            Some(3),
            "{report}"
        );
        report["losses"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["pointer"].as_str().unwrap().ends_with("/timeout"))
            .cloned()
            .collect()
    };

    let wrapped = timeouts(&[]);
    assert_loss(
        &wrapped,
        "/hooks/PreToolUse/0/hooks/0/timeout",
        "300 s",
        3,
        87,
    );
    assert!(
        wrapped[0]["why"].as_str().unwrap().contains("120 s"),
        "{wrapped:#?}"
    );
    assert_eq!(wrapped.len(), 1, "{wrapped:#?}");

    let bare = timeouts(&["--no-wrap"]);
    assert_loss(&bare, "/hooks/PreToolUse/0/hooks/0/timeout", "300 s", 3, 87);
    assert_loss(&bare, "/hooks/PostToolUse/0/hooks/0/timeout", "30 s", 4, 87);
    assert_eq!(bare.len(), 2, "{bare:#?}");
}

// ---------------------------------------------------------------------------------------------
// The guard of a wrapped entry where hookx is not installed.

/// Where hookx is not installed, the guard of every wrapped entry answers by hookx's own failure
/// policy (the `fail_closed` table of the host's protocol), as the host reads it: for every
/// flavour and every event it names, the guard runs in a real `/bin/sh` whose `PATH` holds no
/// hookx, and the host's own decoder reads its answer. On an event the table says guards a tool
/// call, a deny that says why; on every other event (Stop, SubagentStop, PreCompact, a prompt)
/// a non-blocking error: not exit 2, no block, no deny, no `continue: false`.
#[test]
fn without_hookx_every_guard_answers_by_the_failure_policy() {
    use hookx::model::{Decision, Event};
    use hookx::protocol::decode_answer;
    use hookx::spawn::{Exit, Finished};
    let empty = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let (mut denies, mut passes) = (0, 0);
    for &to in Flavor::all() {
        let table = &to.tables().protocol;
        for (kind, name) in to.tables().events {
            let line = convert::not_installed_guard("hookx", kind, to);
            let out = std::process::Command::new("/bin/sh")
                .arg("-c")
                .arg(format!("{line} echo ran"))
                .env("PATH", empty.path())
                .output()
                .unwrap();
            let code = out.status.code().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
            let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
            let event = Event::bare(kind.clone());
            let finished = Finished {
                exit: Exit::Code(code),
                stdout: out.stdout.clone(),
                stderr: out.stderr.clone(),
                stdout_truncated: false,
                stderr_truncated: false,
                elapsed: std::time::Duration::ZERO,
            };
            let read = decode_answer(to, &event, &finished);
            let what = format!(
                "{} {name}: exit {code}, stdout {stdout:?}, stderr {stderr:?}, read {read:?}\n  {line}",
                to.name()
            );
            if stdout.contains("ran") {
                failures.push(format!("the handler ran: {what}"));
                continue;
            }
            if table.fail_closed.contains(kind) {
                denies += 1;
                let says = read
                    .reasons
                    .iter()
                    .any(|r| r.contains(convert::NOT_INSTALLED));
                if read.decision != Some(Decision::Deny) || !says {
                    failures.push(format!("not a deny that says why: {what}"));
                }
            } else {
                passes += 1;
                let blocks = read.block || read.stop || read.decision == Some(Decision::Deny);
                if code == 2 || code == 0 || blocks || !stderr.contains(convert::NOT_INSTALLED) {
                    failures.push(format!("not a non-blocking error: {what}"));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} guards answer against the failure policy:\n{}",
        failures.len(),
        denies + passes,
        failures.join("\n")
    );
    assert!(denies > 10 && passes > 100, "{denies} {passes}");
}

/// A file that holds entries an older hookx wrapped, its not-installed guard one that kept a
/// Stop going, converted into its own dialect with `--write` into itself: the file is
/// rewritten in place, each such guard replaced by today's (the rest of the line byte for
/// byte), the user's own entries and every other key kept, nothing doubled; validate then has
/// nothing to say of it, and a second run changes nothing.
#[test]
fn convert_into_the_files_own_dialect_refreshes_an_older_guard_in_place() {
    let claude_flavor = claude::FLAVOR;
    let exec = " hookx exec --host claude --as copilot --event Stop --timeout 600 -- 'echo hi'";
    let old_stop = format!(
        "command -v hookx >/dev/null 2>&1 || {{ m='{}'; printf '{{\"decision\":\"block\",\"reason\":\"%s\"}}\\n' \"$m\"; echo \"$m\" >&2; exit 0; }};{exec}",
        hookx::convert::NOT_INSTALLED,
    );
    let settings = json!({
        "model": "opus",
        "hooks": {
            "Stop": [{"hooks": [{"type": "command", "command": old_stop}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./mine.sh"}]}],
        },
    });
    let dir = tempfile::tempdir().unwrap();
    let path = common::write(
        dir.path(),
        ".claude/settings.json",
        &serde_json::to_string_pretty(&settings).unwrap(),
    );
    let out = hookx()
        .args([
            "convert",
            ".claude/settings.json",
            "--to",
            "claude",
            "--write",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("had the not-installed guard of an older hookx"),
        "{said}"
    );
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let today = format!(
        "{}{exec}",
        hookx::convert::not_installed_guard("hookx", &EventKind::Stop, claude_flavor)
    );
    assert_eq!(
        after["hooks"]["Stop"],
        json!([{"hooks": [{"type": "command", "command": today}]}]),
        "{after:#}"
    );
    assert_eq!(
        after["hooks"]["PreToolUse"], settings["hooks"]["PreToolUse"],
        "{after:#}"
    );
    assert_eq!(after["model"], json!("opus"), "{after:#}");
    let validated = hookx()
        .args(["validate", ".claude/settings.json"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let shown = format!(
        "{}{}",
        String::from_utf8_lossy(&validated.stdout),
        String::from_utf8_lossy(&validated.stderr)
    );
    assert!(!shown.contains("older hookx"), "{shown}");
    let again = hookx()
        .args([
            "convert",
            ".claude/settings.json",
            "--to",
            "claude",
            "--write",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("is up to date"),
        "{again:?}"
    );
}

/// Attacks row 1203: a Claude guard converted into Cline's scripts keeps its matcher only in
/// `hookx exec --match` (Cline's scripts have none). Where hookx is missing, its copy denies
/// the calls the guard would see (and any it cannot tell apart from them: a tool it does not
/// know, a payload it cannot read, no `node`), and lets every other go on, so a teammate's
/// Cline is not stopped at its first `read_files`. A copy an older hookx wrote (which denied
/// every call) is outdated for `validate`, and converting again rewrites it.
#[test]
fn a_cline_copy_without_hookx_denies_only_what_its_matcher_guards() {
    let dir = tempfile::tempdir().unwrap();
    let (project, home) = (dir.path().join("p"), dir.path().join("h"));
    std::fs::create_dir_all(&home).unwrap();
    let rules = json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]},
        {"matcher": "Write", "hooks": [{"type": "command", "command": "exit 2"}]},
    ]}});
    common::write(&project, ".claude/settings.json", &rules.to_string());
    let convert_in = |dir: &std::path::Path| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"))
            .current_dir(dir)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .args([
                "convert",
                ".claude/settings.json",
                "--to",
                "cline",
                "--write",
                "--hookx",
                "hookx",
            ])
            .output()
            .unwrap()
    };
    assert!(convert_in(&project).status.success());
    // One script per rule: `PreToolUse` (Bash) and `PreToolUse.sh` (Write); Cline runs both.
    let script = project.join(".clinerules/hooks/PreToolUse");
    let scripts = [
        script.clone(),
        project.join(".clinerules/hooks/PreToolUse.sh"),
    ];
    // A PATH with `node` and nothing else; one with nothing.
    let node = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join("node"))
        .find(|p| p.is_file())
        .expect("node on PATH (Cline's own runtime)");
    let with_node = dir.path().join("bin");
    std::fs::create_dir_all(&with_node).unwrap();
    std::os::unix::fs::symlink(std::fs::canonicalize(node).unwrap(), with_node.join("node"))
        .unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let run = |script: &std::path::Path, path: &std::path::Path, payload: &str| {
        let mut child = std::process::Command::new("/bin/sh")
            .arg(script)
            .current_dir(&project)
            .env("PATH", path)
            .env("HOME", &home)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        // A guard that denies without reading its stdin closes it.
        let _ = child.stdin.take().unwrap().write_all(payload.as_bytes());
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        (out.status.code(), stdout.contains(r#""cancel":true"#))
    };
    // Each script's exit code, and whether any cancelled.
    let call = |path: &std::path::Path, payload: &str| {
        let each: Vec<_> = scripts.iter().map(|s| run(s, path, payload)).collect();
        let codes: Vec<_> = each.iter().map(|(code, _)| *code).collect();
        (codes, each.iter().any(|(_, cancel)| *cancel))
    };
    let of = |name: &str| {
        json!({"hookName": "tool_call", "tool_call": {"id": "1", "name": name, "input": {}},
            "preToolUse": {"toolName": name, "parameters": {}}})
        .to_string()
    };
    for (payload, cancelled) in [
        (of("read_files"), false),
        (of("search_codebase"), false),
        (of("run_commands"), true),
        // A patch may be a write.
        (of("apply_patch"), true),
        (of("some_mcp_tool"), true),
        // The name hookx reads (`tool_call.name`) and the other disagree.
        (
            json!({"tool_call": {"name": "read_files"}, "preToolUse": {"toolName": "run_commands"}})
                .to_string(),
            true,
        ),
        (json!({"preToolUse": {"toolName": "read_files", "parameters": {"toolName": "run_commands"}}}).to_string(), false),
        (json!({"preToolUse": {"parameters": {"toolName": "read_files"}}}).to_string(), true),
        ("not json".to_string(), true),
    ] {
        assert_eq!(
            call(&with_node, &payload),
            (vec![Some(0); 2], cancelled),
            "{payload}"
        );
    }
    // No node: every call is denied, as before.
    assert_eq!(call(&empty, &of("read_files")), (vec![Some(0); 2], true));

    // The copy an older hookx wrote: the same line behind the guard that denied every call.
    let text = std::fs::read_to_string(&script).unwrap();
    let (head, line) = text.split_once("\ncommand -v").unwrap();
    // An older hookx recorded no digest of the script in its record.
    let at = head.find(",\"digest\":\"").unwrap();
    let head = format!("{}}}", &head[..at]);
    let (_, exec) = line.split_once("}; hookx exec ").unwrap();
    let kind = hookx::model::EventKind::PreToolUse;
    let cline = hookx::tables::Dialect::named("cline")
        .unwrap()
        .default_flavor();
    let old = format!(
        "{head}\n{} hookx exec {exec}",
        hookx::convert::not_installed_guard("hookx", &kind, cline)
    );
    std::fs::write(&script, &old).unwrap();
    assert!(call(&with_node, &of("read_files")).1, "the older guard");
    let validate = common::hookx_at(&project, &home, &["validate", script.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&validate.get_output().stderr).into_owned()
        + &String::from_utf8_lossy(&validate.get_output().stdout);
    assert!(
        said.contains("written by an older hookx") && said.contains("lets the others go on"),
        "{said}"
    );
    let doctor = common::hookx_at(&project, &home, &["doctor", "--host", "cline"]);
    let said = String::from_utf8_lossy(&doctor.get_output().stdout).into_owned();
    assert!(
        said.contains("written by an older hookx") && said.contains("lets the others go on"),
        "{said}"
    );
    assert!(convert_in(&project).status.success());
    assert_eq!(std::fs::read_to_string(&script).unwrap(), text);
    assert_eq!(
        call(&with_node, &of("read_files")),
        (vec![Some(0); 2], false)
    );
}

/// Attacks row 1209: a VS Code copy of a guard where hookx is missing denied every tool's call
/// (VS Code runs every entry on every tool; the matcher lives only in `hookx exec --match`).
/// Now its guard reads the payload's `tool_name` with `awk` (a VS Code hook finds no node of
/// VS Code's own on `PATH`) and lets a call go on only when every `"tool_name"` in the text is a
/// key holding a tool the matcher never guards; anything else, or no `awk`, is denied.
#[test]
fn a_vscode_copy_without_hookx_denies_only_what_its_matcher_guards() {
    let dir = tempfile::tempdir().unwrap();
    let (project, home) = (dir.path().join("p"), dir.path().join("h"));
    std::fs::create_dir_all(&home).unwrap();
    let rules = json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]},
        {"matcher": "Write", "hooks": [{"type": "command", "command": "exit 2"}]},
    ]}});
    // A Claude file VS Code does not read itself (it reads `.claude/settings.json`).
    common::write(&project, "guard.json", &rules.to_string());
    let convert_in = |dir: &std::path::Path| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"))
            .current_dir(dir)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .args([
                "convert",
                "guard.json",
                "--from",
                "claude",
                "--to",
                "vscode",
                "--write",
                "--hookx",
                "hookx",
            ])
            .output()
            .unwrap()
    };
    assert!(convert_in(&project).status.success());
    let file = project.join(".github/hooks/vscode-hooks.json");
    let commands = |file: &std::path::Path| -> Vec<String> {
        let text: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        let entries = text["hooks"]["PreToolUse"].as_array().unwrap().clone();
        (entries.iter())
            .map(|e| e["command"].as_str().unwrap().to_string())
            .collect()
    };
    let lines = commands(&file);
    assert_eq!(lines.len(), 2, "{lines:?}");
    // A PATH with `awk` and nothing else; one with nothing.
    let awk = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join("awk"))
        .find(|p| p.is_file())
        .expect("awk on PATH");
    let with_awk = dir.path().join("bin");
    std::fs::create_dir_all(&with_awk).unwrap();
    std::os::unix::fs::symlink(std::fs::canonicalize(awk).unwrap(), with_awk.join("awk")).unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    // VS Code runs an entry's `command` through the shell, the payload on stdin; whether it
    // denied (its JSON answer), and its exit code.
    let run = |line: &str, path: &std::path::Path, payload: &str| {
        let mut child = std::process::Command::new("/bin/sh")
            .args(["-c", line])
            .current_dir(&project)
            .env("PATH", path)
            .env("HOME", &home)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        let _ = child.stdin.take().unwrap().write_all(payload.as_bytes());
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let denied = stdout.contains(r#""permissionDecision":"deny""#);
        assert!(denied || stdout.is_empty(), "{stdout}");
        (out.status.code(), denied)
    };
    // Whether the `Bash` copy and the `Write` copy denied.
    let call = |path: &std::path::Path, payload: &str| {
        let each: Vec<_> = lines.iter().map(|l| run(l, path, payload)).collect();
        assert!(each.iter().all(|(code, _)| *code == Some(0)), "{each:?}");
        (each[0].1, each[1].1)
    };
    let of = |name: &str| {
        json!({"timestamp": "2026-12-06T23:00:00.000Z", "cwd": "/w", "sessionId": "s",
            "hookEventName": "PreToolUse", "tool_name": name, "tool_input": {"filePath": "a"},
            "tool_use_id": "t1"})
        .to_string()
    };
    // 4 MiB of content: read in one pass.
    let big = "y".repeat(4 << 20);
    for (payload, denied) in [
        (of("create_file"), (false, true)),
        (of("replace_string_in_file"), (false, false)),
        (of("runTerminalCommand"), (true, false)),
        (of("run_in_terminal"), (true, false)),
        (of("read_file"), (false, false)),
        // Not in VS Code's table: either may be what the matcher guards.
        (of("list_dir"), (true, true)),
        (of("mcp_server_tool"), (true, true)),
        (of("create_file_x"), (true, true)),
        (of("create_fil"), (true, true)),
        // Spaces around the colon, as a pretty-printing host writes them.
        (
            r#"{"tool_name" :	"create_file", "tool_input": {}}"#.to_string(),
            (false, true),
        ),
        // The model's arguments hold the key or its text: they can only deny.
        (
            json!({"tool_name": "runTerminalCommand",
                "tool_input": {"command": "echo '\"tool_name\":\"create_file\"'"}})
            .to_string(),
            (true, false),
        ),
        (
            json!({"tool_input": {"tool_name": "create_file"}, "tool_name": "runTerminalCommand"})
                .to_string(),
            (true, true),
        ),
        (
            json!({"tool_name": "create_file", "tool_input": {"tool_name": "runTerminalCommand"}})
                .to_string(),
            (true, true),
        ),
        // A string that is the key's name alone is not told from a key: denied.
        (
            json!({"tool_name": "create_file", "tool_input": {"content": "tool_name"}}).to_string(),
            (true, true),
        ),
        // Inside a longer string its quotes are escaped: not counted.
        (
            json!({"tool_name": "create_file", "tool_input": {"content": "\"tool_name\":"}})
                .to_string(),
            (false, true),
        ),
        (
            json!({"tool_name": "create_file", "tool_input": {"content": big}}).to_string(),
            (false, true),
        ),
        // A key the reader cannot see whole, an escape, a duplicate, none, not JSON.
        (
            "{\"tool_name\":\n\"create_file\"}".to_string(),
            (true, true),
        ),
        (
            r#"{"tool_name":"create\u005ffile"}"#.to_string(),
            (true, true),
        ),
        (
            r#"{"tool_name":"create_file","tool_name":"runTerminalCommand"}"#.to_string(),
            (true, true),
        ),
        (json!({"toolName": "create_file"}).to_string(), (true, true)),
        ("not json".to_string(), (true, true)),
        (String::new(), (true, true)),
    ] {
        assert_eq!(call(&with_awk, &payload), denied, "{:.200}", payload);
    }
    // No awk: every call is denied, as before.
    assert_eq!(call(&empty, &of("create_file")), (true, true));

    // The copy an older hookx wrote: the same line behind the guard that denied every call.
    let kind = hookx::model::EventKind::PreToolUse;
    let vscode = hookx::tables::Dialect::named("vscode")
        .unwrap()
        .default_flavor();
    let text = std::fs::read_to_string(&file).unwrap();
    let (_, exec) = lines[0].split_once("}; hookx exec ").unwrap();
    let old = format!(
        "{} hookx exec {exec}",
        hookx::convert::not_installed_guard("hookx", &kind, vscode)
    );
    // Without the digest convert records now: an older hookx wrote none (attacks row 1393),
    // and a copy that no longer matches its digest is the user's edit, kept.
    let undigested = regex::Regex::new(r#",\s*"digest": "[0-9a-f]{16}""#).unwrap();
    let older = text.replace(&json!(lines[0]).to_string(), &json!(old).to_string());
    std::fs::write(&file, undigested.replace_all(&older, "").as_ref()).unwrap();
    assert_eq!(commands(&file)[0], old);
    let validate = common::hookx_at(
        &project,
        &home,
        &["validate", file.to_str().unwrap(), "--from", "vscode"],
    );
    let said = String::from_utf8_lossy(&validate.get_output().stderr).into_owned()
        + &String::from_utf8_lossy(&validate.get_output().stdout);
    assert!(
        said.contains("written by an older hookx") && said.contains("lets the others go on"),
        "{said}"
    );
    assert!(convert_in(&project).status.success());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
}

/// Attacks row 1533: Gemini CLI 0.61.0 (bundle `expandCommand`) writes, before its shell
/// reads a command, each of `$GEMINI_PROJECT_DIR`, `$GEMINI_CWD`, `$GEMINI_PLANS_DIR`,
/// `$GEMINI_SESSION_ID` and `$CLAUDE_PROJECT_DIR` as text, single quotes or not, as the value
/// quoted by `shell-quote`. A wrapped copy holds the handler's line in single quotes, so a name
/// left there breaks them open with the value: a plans folder (below the home, or the
/// project's `general.plan.directory`) whose path has a space or a quote split the line, and a
/// `;` in it would run. Row 1041 split four of the names from their `$`; the plans folder's was
/// left. Now no name Gemini writes stays in a copy for it.
#[test]
fn a_copy_for_gemini_holds_no_name_gemini_writes_into_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = common::write(
        dir.path(),
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{
            "type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/g.sh $GEMINI_CWD '$GEMINI_PROJECT_DIR' \"$GEMINI_SESSION_ID\" $GEMINI_PLANS_DIR/p \"$GEMINI_PLANS_DIR\""
        }]}]}})
        .to_string(),
    );
    let (code, stdout, stderr) =
        run_convert(&[file.to_str().unwrap(), "--from", "claude", "--to", "gemini"]);
    assert_eq!(code, 0, "{stderr}");
    let out: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let line = out["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(line.contains("hookx exec"), "{line}");
    for name in [
        "GEMINI_PROJECT_DIR",
        "GEMINI_CWD",
        "GEMINI_PLANS_DIR",
        "GEMINI_SESSION_ID",
        "CLAUDE_PROJECT_DIR",
    ] {
        assert!(!line.contains(&format!("${name}")), "${name} left: {line}");
    }
    // The shell takes the empty quotes away: `hookx exec` gets the line as written.
    let words = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "printf '%s' {}",
            line.rsplit_once(" -- ").unwrap().1
        ))
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(words.stdout).unwrap(),
        "\"$CLAUDE_PROJECT_DIR\"/g.sh $GEMINI_CWD '$GEMINI_PROJECT_DIR' \"$GEMINI_SESSION_ID\" $GEMINI_PLANS_DIR/p \"$GEMINI_PLANS_DIR\""
    );
}

/// Attacks row 1681: a Claude guard whose timeout (86 400 000 s, a millisecond count written
/// as seconds; Claude Code 2.1.332 holds it, `tests/fixtures/timers/`) converted to each
/// agent: where the written milliseconds would be past the target's hook timer (Gemini CLI,
/// Qwen Code, Augment: Node's 2^31 - 1 ms), the target would end the converted guard at once
/// and run the call. The copy is written within the timer, the change reported, and
/// `validate` finds no timeout past it.
#[test]
fn a_timeout_past_the_targets_timer_is_written_within_it() {
    let dir = tempfile::tempdir().unwrap();
    let src = common::write(
        dir.path(),
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 86400000}]}]}}"#,
    );
    for to in ["gemini", "qwen", "augment", "droid", "codex", "copilot"] {
        let out = dir.path().join(format!("{to}.json"));
        let (code, stdout, stderr) = run_convert(&[
            src.to_str().unwrap(),
            "--to",
            to,
            "--out",
            out.to_str().unwrap(),
        ]);
        let shown = format!("{stdout}{stderr}");
        let limited = matches!(to, "gemini" | "qwen" | "augment");
        assert_eq!(
            shown.contains("hook timer holds at most 2147483647 ms"),
            limited,
            "{to}: exit {code}\n{shown}"
        );
        let check = hookx()
            .args(["validate", "--from", to])
            .arg(&out)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&check.stdout).into_owned();
        assert!(
            !said.contains("timer holds"),
            "{to}: the converted copy's timeout is past the timer:\n{said}\n{}",
            std::fs::read_to_string(&out).unwrap_or_default()
        );
    }
}

/// Attacks row 2335: Codex gives a SessionEnd or Interrupt hook at most 3 s and clamps a longer
/// `timeout`, with a warning at every start (codex-facts; `RouteLimit::on`'s `most`). A Gemini
/// SessionEnd logger with its default (60 s) or `timeout: 10000` (ms), and a Claude one with
/// `timeout: 10`, converted to Codex: written as 3, each a located loss; one of 2 s stays 2.
#[test]
fn a_timeout_past_the_targets_limit_for_the_event_is_written_within_it() {
    let dir = tempfile::tempdir().unwrap();
    let gemini = common::write(
        dir.path(),
        ".gemini/settings.json",
        r#"{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "./a.sh"}, {"type": "command", "command": "./b.sh", "timeout": 10000}, {"type": "command", "command": "./c.sh", "timeout": 2000}]}]}}"#,
    );
    let claude = common::write(
        dir.path(),
        ".claude/settings.json",
        r#"{"hooks": {"SessionEnd": [{"hooks": [{"type": "command", "command": "./d.sh", "timeout": 10}]}]}}"#,
    );
    for (src, want) in [(&gemini, vec![3, 3, 2]), (&claude, vec![3])] {
        for wrap in [true, false] {
            let out = dir.path().join("codex.json");
            let mut args = vec![
                src.to_str().unwrap(),
                "--to",
                "codex",
                "--out",
                out.to_str().unwrap(),
            ];
            if !wrap {
                args.push("--no-wrap");
            }
            let (code, stdout, stderr) = run_convert(&args);
            let shown = format!("exit {code}\n{stdout}{stderr}");
            let written: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
            let timeouts: Vec<u64> = written["hooks"]["SessionEnd"][0]["hooks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["timeout"].as_u64().unwrap_or(0))
                .collect();
            assert_eq!(timeouts, want, "{}: {shown}", src.display());
            let losses = shown
                .matches("gives a hook on this event at most 3 s")
                .count();
            assert_eq!(
                losses,
                want.iter().filter(|t| **t == 3).count(),
                "{}: {shown}",
                src.display()
            );
        }
    }
}

/// Attacks row 1881: `--write` into the project file of an agent that reads it only in a folder
/// its user trusted (Copilot, Gemini, Codex), in a project that is not: the note `install` gives
/// its route, naming the record and the fix; none once the folder is trusted. Live, Copilot CLI
/// 1.0.102 in `-p` ran none of a converted sample's rules there, and convert said nothing.
#[test]
fn a_write_into_an_untrusted_folder_says_its_agent_skips_it() {
    let home = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    let project = project.path().canonicalize().unwrap();
    let source = common::write(
        &project,
        "rules/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "./guard.sh"}]}]}})
        .to_string(),
    );
    let convert = |to: &str| {
        let out = hookx()
            .arg("convert")
            .arg(&source)
            .args(["--from", "claude", "--to", to, "--write"])
            .current_dir(&project)
            .env("HOME", home.path())
            .env_remove("HOOKX_HOME")
            .env_remove("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS")
            .env_remove("COPILOT_ALLOW_ALL")
            .env_remove("GEMINI_CLI_TRUST_WORKSPACE")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    for (to, file, record) in [
        (
            "copilot",
            ".github/hooks/hooks.json",
            "~/.copilot/config.json",
        ),
        (
            "gemini",
            ".gemini/settings.json",
            "~/.gemini/trustedFolders.json",
        ),
        ("codex", ".codex/hooks.json", "~/.codex/config.toml"),
    ] {
        let said = convert(to);
        assert!(
            said.contains(&format!("reads {file} only in a folder the user trusted"))
                && said.contains(record),
            "{to}, untrusted:\n{said}"
        );
    }
    let folder = project.display().to_string();
    common::write(
        home.path(),
        ".copilot/config.json",
        &json!({ "trusted_folders": [folder] }).to_string(),
    );
    common::write(
        home.path(),
        ".gemini/trustedFolders.json",
        &json!({ folder.clone(): "TRUST_FOLDER" }).to_string(),
    );
    common::write(
        home.path(),
        ".codex/config.toml",
        &format!("[projects.{}]\ntrust_level = \"trusted\"\n", json!(folder)),
    );
    for to in ["copilot", "gemini", "codex"] {
        let said = convert(to);
        assert!(
            !said.contains("only in a folder the user trusted"),
            "{to}, trusted:\n{said}"
        );
    }
}

/// Attacks row 1887: a Windsurf handler whose `working_directory` is another machine's absolute
/// folder (HubEvolution/EvolutionHub's `/Users/lucas/…`), converted to Copilot, which has a
/// `cwd` key of its own. Copilot CLI 1.0.102 fails a hook whose `cwd` is not there and denies
/// the call ("Denied by preToolUse hook … (hook errored)", live: every call of the session);
/// the folder goes into the wrapped line instead, where `hookx exec` reads the failed `cd` by
/// Windsurf's rules: a handler that could not start, the call let through (exit 0 to
/// Copilot). A relative folder keeps Copilot's key; both come back on the way back.
#[test]
fn an_absolute_folder_copilot_would_fail_on_goes_into_the_wrapped_line() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let gone = "/nonexistent/hookx-row-1887";
    let source = common::write(
        dir.path(),
        "hooks.json",
        &json!({"hooks": {"pre_run_command": [
            {"command": "./guard.sh", "working_directory": gone},
            {"command": "./other.sh", "working_directory": ".windsurf"},
        ]}})
        .to_string(),
    );
    let bin = env!("CARGO_BIN_EXE_hookx");
    let convert = |file: &Path, from: &str, to: &str| {
        let out = hookx()
            .arg("convert")
            .arg(file)
            .args(["--from", from, "--to", to, "--hookx", bin])
            .env("HOME", home.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let copilot = convert(&source, "windsurf", "copilot");
    let entries = copilot["hooks"]["preToolUse"].as_array().unwrap();
    let (abs, rel) = (&entries[0], &entries[1]);
    assert_eq!(abs.get("cwd"), None, "{abs}");
    assert_eq!(rel["cwd"], ".windsurf", "{rel}");
    let line = abs["bash"].as_str().unwrap();
    assert!(
        line.contains(&format!("-- 'cd {gone} || exit 1; ./guard.sh'")),
        "{line}"
    );
    // What Copilot gets from the entry on a machine without the folder: no deny.
    let mut run = std::process::Command::new("sh")
        .arg("-c")
        .arg(line)
        .current_dir(dir.path())
        .env("HOME", home.path())
        .env_remove("HOOKX_HOME")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    run.stdin
        .take()
        .unwrap()
        .write_all(br#"{"sessionId":"s","timestamp":1,"cwd":"/tmp","toolName":"bash","toolArgs":{"command":"ls"}}"#)
        .unwrap();
    let out = run.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.code() == Some(0) && !stdout.contains("deny"),
        "{out:?}"
    );
    // Back to Windsurf: both folders where they were.
    let written = common::write(dir.path(), "copilot.json", &copilot.to_string());
    let back = convert(&written, "copilot", "windsurf");
    let back = back["hooks"]["pre_run_command"].as_array().unwrap();
    assert_eq!(back[0]["working_directory"], gone, "{back:?}");
    assert_eq!(back[0]["command"], "./guard.sh", "{back:?}");
    assert_eq!(back[1]["working_directory"], ".windsurf", "{back:?}");
}

/// Attacks row 1869: Copilot CLI 1.0.102's `permissionRequest` names an MCP call
/// `SERVER/TOOL` (its tool events `SERVER-TOOL`), and fires its own matchers on that form only
/// (live `live_copilot::mcp_names_under_copilot`). A Claude `PermissionRequest` rule on one MCP
/// name is written so for Copilot, and a Copilot one back, with nothing lost; a larger regex
/// naming one is a loss that says `<server>/<tool>`.
#[test]
fn an_mcp_matcher_is_spelled_for_the_event_it_is_on() {
    let rule = |m: &str| json!({"matcher": m, "hooks": [{"type": "command", "command": "./g.sh"}]});
    let hooks = json!({
        "PermissionRequest": [rule("mcp__srv__.*"), rule("mcp__srv__run"), rule("mcp__.*"),
            rule("Bash|mcp__srv__run")],
        "PreToolUse": [rule("mcp__srv__.*")]});
    let (out, losses) = convert_claude(hooks, COPILOT, &[]);
    let matchers = |event: &str| -> Vec<String> {
        out["hooks"][event]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["matcher"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        matchers("permissionRequest"),
        ["srv/.*", "srv/run", ".*/.*", "bash|mcp__srv__run"]
    );
    assert_eq!(matchers("preToolUse"), ["srv-.*"]);
    // Besides each PermissionRequest rule's cadence (rows 1883, 1984), the one matcher's loss.
    let of_matchers: Vec<_> = losses
        .iter()
        .filter(|l| {
            l["what"]
                .as_str()
                .unwrap_or_default()
                .starts_with("matcher")
        })
        .collect();
    assert_eq!(of_matchers.len(), 1, "{losses:#?}");
    assert!(
        of_matchers[0].to_string().contains("`<server>/<tool>`"),
        "{losses:#?}"
    );
    for (matcher, name) in [("srv/.*", "srv/run"), ("srv/run", "srv/run")] {
        let fires = hookx::convert::matcher::fires(Some(matcher), copilot::FLAVOR, name);
        assert_eq!(fires, Some(true), "{matcher} on {name}");
    }

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hooks.json");
    let entry = |m: &str| json!({"type": "command", "bash": "./g.sh", "matcher": m});
    let copilot_hooks = json!({"version": 1, "hooks": {"permissionRequest": [
        entry("srv/.*"), entry("srv/run"), entry("bash")]}});
    std::fs::write(&path, copilot_hooks.to_string()).unwrap();
    let args = [
        path.to_str().unwrap(),
        "--from",
        "copilot",
        "--to",
        "claude",
        "--format",
        "json",
    ];
    let (code, stdout, stderr) = run_convert(&args);
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let out: Value = serde_json::from_str(report["output"].as_str().unwrap()).unwrap();
    let written: Vec<&str> = out["hooks"]["PermissionRequest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["matcher"].as_str().unwrap())
        .collect();
    assert_eq!(written, ["mcp__srv__.*", "mcp__srv__run", "Bash"], "{out}");
    // Each rule's cadence is said (rows 1883, 1984); no matcher is lost.
    let losses = report["losses"].as_array().unwrap();
    assert!(
        losses.iter().all(|l| l["what"]
            .as_str()
            .is_some_and(|w| w.starts_with("how often"))),
        "{report}"
    );
}

/// Attacks row 2270: Qwen Code 0.24.4 writes an MCP name holding a character but
/// `[A-Za-z0-9_-]`, or past 63 units, with those `_`, cut to 55, and `_` and a hash of the name
/// as configured after (`tests/fixtures/mcp-names/qwen-0.24.4.json`). A Claude matcher naming
/// such tools literally is written as the names Qwen gives them; a regex naming one is a
/// located loss (Qwen tries it on the name before the hash); a Qwen matcher on a hashed name,
/// converted back, is the name before the hash, and a located loss (the hash is not undone).
#[test]
fn an_mcp_name_qwen_hashes_is_written_as_qwen_writes_it_or_said() {
    let rule = |m: &str| json!({"matcher": m, "hooks": [{"type": "command", "command": "./g.sh"}]});
    let long = "a_very_long_server_name_that_goes_well_past_the_limit_of_64_chars";
    let hooks = json!({"PreToolUse": [rule("mcp__p\\.q__run"),
        rule("mcp__srv__dot\\.tool|mcp__café__run"), rule(&format!("mcp__{long}__run")),
        rule("mcp__srv__run"), rule("mcp__srv__(dot\\.tool|x)")]});
    let (out, losses) = convert_claude(hooks, qwen::DIALECT, &[]);
    let matchers: Vec<&str> = out["hooks"]["PreToolUse"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["matcher"].as_str().unwrap())
        .collect();
    // As recorded live.
    assert_eq!(
        matchers,
        [
            "^mcp__p_q__run_1bf5p4t$",
            "^(?:mcp__srv__dot_tool_105ogft|mcp__caf___run_1hkim33)$",
            "^mcp__a_very_long_server_name_that_goes_well_past_the_li_01f1kqr$",
            "^mcp__srv__run$",
            "mcp__srv__(dot_tool|x)",
        ]
    );
    for (matcher, name) in [
        (matchers[0], "mcp__p_q__run_1bf5p4t"),
        (matchers[1], "mcp__caf___run_1hkim33"),
        (
            matchers[2],
            "mcp__a_very_long_server_name_that_goes_well_past_the_li_01f1kqr",
        ),
    ] {
        let fires = hookx::convert::matcher::fires(Some(matcher), qwen::FLAVOR, name);
        assert_eq!(fires, Some(true), "{matcher} on {name}");
    }
    assert_eq!(losses.len(), 1, "{losses:#?}");
    assert_eq!(losses[0]["pointer"], "/hooks/PreToolUse/4/matcher");
    assert!(
        losses[0]["why"]
            .as_str()
            .unwrap()
            .contains("tried on the name before the hash"),
        "{losses:#?}"
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let hooks = json!({"hooks": {"PreToolUse": [rule("mcp__p_q__run_1bf5p4t")]}});
    std::fs::write(&path, hooks.to_string()).unwrap();
    let args = [
        path.to_str().unwrap(),
        "--from",
        "qwen",
        "--to",
        "claude",
        "--format",
        "json",
    ];
    let (code, stdout, stderr) = run_convert(&args);
    assert_eq!(code, 0, "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let out: Value = serde_json::from_str(report["output"].as_str().unwrap()).unwrap();
    assert_eq!(out["hooks"]["PreToolUse"][0]["matcher"], "mcp__p_q__run");
    let losses = report["losses"].as_array().unwrap();
    assert!(
        losses
            .iter()
            .any(|l| l["pointer"] == "/hooks/PreToolUse/0/matcher"
                && l["why"]
                    .as_str()
                    .unwrap()
                    .contains("which hookx does not undo")),
        "{losses:#?}"
    );
}

/// Attacks row 2236: a SessionStart matcher of several values (`startup|resume`: a Claude
/// regex, a Qwen one) converted to Cline, which fires the event under one name per value of
/// `source` (`TaskStart`, `TaskResume`: its table's `event_values`). The rule goes under each
/// name whose value it accepts, so nothing is lost and no `hookx exec --match` is needed; a
/// regex accepting one of the values (`^res`) goes under that name only. Back to the source,
/// the rules are the ones converted.
#[test]
fn a_session_start_matcher_of_several_values_is_exact_where_cline_splits_the_event() {
    for (from, file) in [
        ("claude", ".claude/settings.json"),
        ("qwen", ".qwen/settings.json"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let (project, home) = (dir.path().join("p"), dir.path().join("h"));
        std::fs::create_dir_all(&home).unwrap();
        let rules = json!({"hooks": {"SessionStart": [
            {"matcher": "startup|resume", "hooks": [{"type": "command", "command": "./both.sh"}]},
            {"matcher": "^res", "hooks": [{"type": "command", "command": "./resume.sh"}]},
        ]}});
        common::write(&project, file, &rules.to_string());
        let convert = |args: &[&str]| {
            let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"))
                .current_dir(&project)
                .env("HOME", &home)
                .env_remove("HOOKX_HOME")
                .arg("convert")
                .args(args)
                .output()
                .unwrap();
            let shown = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(out.status.success(), "{from}: convert {args:?}: {shown}");
            shown
        };
        let shown = convert(&[file, "--to", "cline", "--write", "--hookx", "hookx"]);
        assert!(
            !shown.contains("compares this matcher with one value exactly"),
            "{from}: a loss where the target splits the event by the value: {shown}"
        );
        let hooks = project.join(".clinerules/hooks");
        let mut scripts: Vec<(String, String)> = std::fs::read_dir(&hooks)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let name = e.file_name().into_string().unwrap();
                (name, std::fs::read_to_string(e.path()).unwrap())
            })
            .collect();
        scripts.sort();
        let under = |command: &str| -> Vec<&str> {
            scripts
                .iter()
                .filter(|(_, text)| text.contains(command))
                .map(|(name, _)| name.split('.').next().unwrap())
                .collect()
        };
        assert_eq!(
            (under("./both.sh"), under("./resume.sh")),
            (vec!["TaskResume", "TaskStart"], vec!["TaskResume"]),
            "{from}: {scripts:#?}"
        );
        assert!(
            scripts.iter().all(|(_, text)| !text.contains("--match")),
            "{from}: a script still filters by the matcher its name tells: {scripts:#?}"
        );
        let back = convert(&[".clinerules/hooks", "--from", "cline", "--to", from]);
        let json_end = back.rfind('}').unwrap();
        let back: Value = serde_json::from_str(&back[..=json_end]).unwrap();
        assert_eq!(back["hooks"], rules["hooks"], "{from}: the way back");
    }
}

/// Attacks row 2438: a Cline hook folder converted to Claude (`--write`), the scripts then
/// removed (the team moved to Claude), and the Claude file converted back to Cline: each copy
/// comes back as its original command, `sh .clinerules/hooks/NAME`, which is now the script
/// being written. Main wrote them, so each run started itself again without end (a chain of
/// `sh` processes, run by hand until killed). A Claude rule of the user's own naming the
/// script it would be written as (wrapped: `hookx exec … -- 'sh …'`) is the same. Such a
/// script is refused, named; the others are written.
#[test]
fn a_script_whose_command_runs_itself_is_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let (project, home) = (dir.path().join("p"), dir.path().join("h"));
    std::fs::create_dir_all(&home).unwrap();
    for (name, body) in [("TaskResume", "echo resume"), ("PreToolUse", "echo pre")] {
        let path = common::write(
            &project,
            &format!(".clinerules/hooks/{name}"),
            &format!("#!/bin/sh\n{body}\n"),
        );
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let convert = |args: &[&str]| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"))
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .arg("convert")
            .args(args)
            .output()
            .unwrap()
    };
    let out = convert(&[
        ".clinerules/hooks",
        "--from",
        "cline",
        "--to",
        "claude",
        "--write",
        "--hookx",
        "hookx",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(project.join(".clinerules")).unwrap();
    // A rule of the user's own whose command is the script Cline's `UserPromptSubmit` would be.
    let settings = project.join(".claude/settings.json");
    let mut claude: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    claude["hooks"]["UserPromptSubmit"] = json!([{"hooks": [{"type": "command",
        "command": "sh .clinerules/hooks/UserPromptSubmit"}]}]);
    std::fs::write(&settings, claude.to_string()).unwrap();
    let out = convert(&[
        ".claude/settings.json",
        "--to",
        "cline",
        "--write",
        "--hookx",
        "hookx",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let hooks = project.join(".clinerules/hooks");
    let itself: Vec<String> = std::fs::read_dir(&hooks)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            let text = std::fs::read_to_string(e.path()).unwrap_or_default();
            let name = e.file_name().into_string().unwrap();
            text.contains(&format!("sh .clinerules/hooks/{name}"))
        })
        .map(|e| e.file_name().into_string().unwrap())
        .collect();
    assert!(
        itself.is_empty(),
        "scripts that run themselves were written: {itself:?}\n{stderr}"
    );
    for name in ["TaskResume", "PreToolUse", "UserPromptSubmit"] {
        assert!(
            stderr.contains(&format!(
                "hooks/{name}: its command runs this script itself"
            )),
            "{name} not named: {stderr}"
        );
    }
    assert_eq!(out.status.code(), Some(1), "{stderr}");
}

/// Attacks row 2435: Codex gives a SessionEnd (and Interrupt) hook 1 s by default and at most
/// 3 (codex-facts; row 2341). Converted away, a hook with no timeout is given the 1 s it ran
/// under, not Codex's 600 s default for other hooks (main wrote Gemini's `timeout: 600000`;
/// Gemini waits for SessionEnd at exit with no limit of its own, row 2343); a longer timeout
/// is written as asked and said. Back to Codex, the file is the one converted.
#[test]
fn a_codex_session_end_hook_keeps_the_limit_it_ran_under() {
    let dir = tempfile::tempdir().unwrap();
    let codex = json!({"hooks": {"SessionEnd": [{"hooks": [
        {"type": "command", "command": "./a.sh", "timeout": 3},
        {"type": "command", "command": "./b.sh"},
        {"type": "command", "command": "./c.sh", "timeout": 10},
    ]}]}});
    let src = common::write(dir.path(), ".codex/hooks.json", &codex.to_string());
    let out = dir.path().join("gemini.json");
    let (code, stdout, stderr) = run_convert(&[
        src.to_str().unwrap(),
        "--to",
        "gemini",
        "--out",
        out.to_str().unwrap(),
    ]);
    let shown = format!("exit {code}\n{stdout}{stderr}");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let timeouts: Vec<u64> = written["hooks"]["SessionEnd"][0]["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["timeout"].as_u64().unwrap_or(0))
        .collect();
    assert_eq!(timeouts, [3000, 1000, 10000], "{shown}");
    assert_eq!(
        shown
            .matches("gives a hook on this event at most 3 s and clamped it there")
            .count(),
        1,
        "{shown}"
    );
    let (code, back, stderr) =
        run_convert(&[out.to_str().unwrap(), "--from", "gemini", "--to", "codex"]);
    assert_eq!(code, 0, "{stderr}");
    let back: Value = serde_json::from_str(&back[..=back.rfind('}').unwrap()]).unwrap();
    let strip = |v: &Value| {
        let mut v = v["hooks"].clone();
        for h in v["SessionEnd"][0]["hooks"].as_array_mut().unwrap() {
            h.as_object_mut().unwrap().remove("hookx");
        }
        v
    };
    assert_eq!(strip(&back), strip(&codex), "the way back: {stderr}");
}
