//! Round trips. What hookx writes, it reads back as the same model; and a round trip through
//! any other dialect is the identity: A → B → A gives back A as data, except what the first
//! conversion reported lost, for every ordered pair of dialects hookx reads and writes (the
//! registry, iterated) and every fixture, wrapped (the default) and with `--no-wrap`. Where
//! nothing was lost, the writer's text is the same byte for byte.
//!
//! `every_fixture_comes_back_from_every_dialect` prints its figures per dialect (files, round
//! trips that are the identity, nested wrappers) with `--nocapture`; `HOOKX_CORPUS` adds a
//! folder of real configs (`<dialect>/…` below it), as `tests/corpus.rs` reads it, and
//! `HOOKX_ROUNDTRIP_REPORT=FILE` writes every failing round trip there in full.

mod common;

use common::roundtrip::*;
use common::{dialect_fixtures, fixtures_dir};
use hookx::config::{read, write};
use hookx::dialect::{bricks, claude, copilot};
use hookx::model::{Command, EventKind, Handler, HandlerKind};
use hookx::source::SourceFile;
use hookx::tables::{Dialect, Flavor, HandlerField, MatchOn};
use hookx::tables::{Document, Origin, Rule, RuleShape};
use proptest::prelude::*;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// The fixtures of `dialect`: its folder, the targeted inputs of `tests/fixtures/convert/`
/// named after it, and its folder below `HOOKX_CORPUS` when that is set.
fn fixtures_of(dialect: Dialect) -> Vec<String> {
    let mut found = dialect_fixtures(dialect);
    let convert = fixtures_dir().join("convert");
    let prefix = format!("{}-", dialect.name());
    let mut more: Vec<PathBuf> = std::fs::read_dir(&convert)
        .map(|entries| entries.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    if let Some(corpus) = std::env::var_os("HOOKX_CORPUS") {
        let dir = Path::new(&corpus).join(dialect.name());
        more.extend(files_below(&dir));
    }
    let corpus = fixtures_dir().join("corpus").join(dialect.name());
    more.extend(files_below(&corpus));
    more.sort();
    for path in more {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let in_convert = path.parent() == Some(convert.as_path());
        if in_convert && !name.starts_with(&prefix) {
            continue;
        }
        if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("json" | "md" | "hook")
        ) {
            found.push(path.display().to_string());
        }
    }
    found
}

fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for path in entries.flatten().map(|e| e.path()) {
        match path.is_dir() {
            true => out.extend(files_below(&path)),
            false => out.push(path),
        }
    }
    out
}

#[derive(Default, Debug)]
struct Figures {
    files: usize,
    round_trips: usize,
    identity: usize,
    byte_for_byte: usize,
    nested_wrappers: usize,
}

/// Every fixture of every dialect, through every other dialect and back, wrapped and with
/// `--no-wrap`: the identity except what the first conversion reported lost, and never a
/// wrapper inside a wrapper.
#[test]
fn every_fixture_comes_back_from_every_dialect() {
    let tmp = tempfile::tempdir().unwrap();
    let dialects = round_trip_dialects();
    let mut failures = Vec::new();
    let mut failing_pairs = std::collections::BTreeSet::new();
    let mut figures: Vec<(Dialect, Figures)> = Vec::new();
    for &from in &dialects {
        let mut f = Figures::default();
        for path in fixtures_of(from) {
            let Some((src, doc, unread)) = read_fixture(&path, from) else {
                continue;
            };
            f.files += 1;
            for &via in dialects.iter().filter(|&&d| d != from) {
                for wrap in [true, false] {
                    let trip = round_trip(&src, &doc, &unread, via, wrap, tmp.path());
                    f.round_trips += 1;
                    f.identity += usize::from(trip.identity);
                    f.byte_for_byte += usize::from(trip.lossless && trip.bytes);
                    f.nested_wrappers += trip.nested;
                    if !trip.identity || (trip.lossless && !trip.bytes) || trip.nested > 0 {
                        failing_pairs.insert((from.name(), via.name()));
                        failures.push(trip.shown);
                    }
                }
            }
        }
        figures.push((from, f));
    }
    eprintln!("round trips A → B → A per dialect A:");
    eprintln!(
        "{:<10} {:>6} {:>12} {:>9} {:>14} {:>7}",
        "dialect", "files", "round trips", "identity", "byte for byte", "nested"
    );
    for (d, f) in &figures {
        eprintln!(
            "{:<10} {:>6} {:>12} {:>9} {:>14} {:>7}",
            d.name(),
            f.files,
            f.round_trips,
            f.identity,
            f.byte_for_byte,
            f.nested_wrappers
        );
    }
    eprintln!(
        "{} failing round trips, {} failing ordered pairs of {}",
        failures.len(),
        failing_pairs.len(),
        dialects.len() * (dialects.len() - 1)
    );
    if let Ok(out) = std::env::var("HOOKX_ROUNDTRIP_REPORT") {
        std::fs::write(out, failures.join("\n\n=====\n\n")).unwrap();
    }
    assert!(
        failures.is_empty(),
        "{} round trip(s) are not the identity; the first:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Generated documents.

const MATCHERS: &[Option<&str>] = &[
    None,
    Some("Bash"),
    Some("Edit|Write"),
    Some("mcp__.*"),
    Some("Edit.*"),
    Some("*"),
];
const COPILOT_MATCHERS: &[Option<&str>] = &[
    None,
    Some("bash"),
    Some("edit|create"),
    Some("mcp__.*"),
    Some("view"),
];
const COMMANDS: &[&str] = &[
    "./hooks/check.sh",
    "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/fmt.sh --all",
    "jq -r '.tool_input.command' >> /tmp/log",
    "printf 'multi\\nline' && echo \"done\"",
];

fn handler(dialect: Dialect) -> impl Strategy<Value = Handler> {
    (
        0..COMMANDS.len(),
        proptest::option::of(1u64..900),
        any::<bool>(),
        any::<bool>(),
        0..4u8,
    )
        .prop_map(move |(c, timeout, extra, alt, form)| {
            let line = COMMANDS[c].to_string();
            let mut command = Command::default();
            let config = dialect.config();
            let has = |field| config.key(field).is_some();
            let mut fields = Map::new();
            match dialect.name() {
                "copilot" if alt => {
                    command.command = Some(line);
                    command.windows = Some("pwsh -File check.ps1".into());
                }
                "copilot" => {
                    command.bash = Some(line);
                    command.cwd = Some("scripts".into());
                    let mut env = Map::new();
                    env.insert("LEVEL".into(), Value::String("$HOME/x".into()));
                    command.env = Some(env);
                }
                // Claude's other handler forms: the exec form, a permission-rule filter, and
                // keys that say what happens anyway.
                "claude" => {
                    command.command = Some(line);
                    command.is_async = alt.then_some(true);
                    match form {
                        1 => {
                            command.command = Some("./hooks/fmt.sh".into());
                            fields.insert("args".into(), json!(["--all", "it's"]));
                        }
                        2 => {
                            fields.insert("if".into(), json!("Bash(git *)"));
                        }
                        3 => {
                            fields.insert("shell".into(), json!("bash"));
                            fields.insert("onFailure".into(), json!("continue"));
                        }
                        _ => {}
                    }
                }
                _ if config.key(HandlerField::Command).is_none() => command.bash = Some(line),
                _ => command.command = Some(line),
            }
            if dialect.name() != "copilot" && alt && has(HandlerField::Cwd) {
                command.cwd = Some("sub dir".into());
            }
            if dialect.name() != "copilot" && alt && has(HandlerField::Env) {
                command.env = Some(Map::from_iter([("MODE".to_string(), json!("strict"))]));
            }
            if dialect.name() != "claude" && alt && has(HandlerField::Async) {
                command.is_async = Some(true);
            }
            if extra && config.scripts.is_none() {
                fields.insert("x-note".into(), Value::String("kept".into()));
            }
            Handler {
                kind: HandlerKind::Command(command),
                timeout: timeout.filter(|_| has(HandlerField::Timeout)),
                status_message: (alt && has(HandlerField::StatusMessage))
                    .then(|| "Checking…".into()),
                once: None,
                extra: fields,
            }
        })
}

/// The matchers a rule of `flavor` on `event` may have: the Claude and Copilot pools where
/// those are the flavour's, else none, one or two of its own tool names.
fn matchers_of(flavor: Flavor, event: &EventKind) -> Vec<Option<String>> {
    if flavor.tables().matcher_target(event) != Some(MatchOn::ToolName) {
        return vec![None];
    }
    if flavor == claude::FLAVOR {
        return MATCHERS.iter().map(|m| m.map(str::to_string)).collect();
    }
    if flavor == copilot::FLAVOR {
        return COPILOT_MATCHERS
            .iter()
            .map(|m| m.map(str::to_string))
            .collect();
    }
    let names: Vec<&str> = flavor
        .tables()
        .tools
        .iter()
        .filter_map(|(_, names)| names.first().copied())
        .collect();
    let mut out = vec![None];
    out.extend(names.iter().take(3).map(|n| Some(n.to_string())));
    out
}

fn document(dialect: Dialect) -> impl Strategy<Value = Document> {
    let flavors: Vec<Flavor> = dialect.flavors().collect();
    let flat_only = dialect.config().rule_list.is_some();
    let rule = (
        proptest::sample::select(flavors),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        proptest::collection::vec(handler(dialect), 1..3),
        any::<bool>(),
    )
        .prop_map(move |(flavor, event, matcher, handlers, flat)| {
            let events = flavor.tables().events;
            let event = events[event.index(events.len())].0.clone();
            let pool = matchers_of(flavor, &event);
            let matcher = pool[matcher.index(pool.len())].clone();
            let flat = flat_only
                || dialect.config().scripts.is_some()
                || (flat && dialect.config().flat_handlers);
            Rule {
                event,
                flavor,
                matcher,
                handlers: if flat {
                    handlers[..1].to_vec()
                } else {
                    handlers
                },
                shape: match flat {
                    true => RuleShape::Flat,
                    false => RuleShape::Group,
                },
                extra: Map::new(),
                origin: Origin::default(),
            }
        });
    proptest::collection::vec(rule, 0..6).prop_map(move |mut rules| {
        // A file groups rules under their event key, in order of first appearance.
        let mut order: Vec<(EventKind, Flavor)> = Vec::new();
        for r in &rules {
            if !order.contains(&(r.event.clone(), r.flavor)) {
                order.push((r.event.clone(), r.flavor));
            }
        }
        rules.sort_by_key(|r| order.iter().position(|k| *k == (r.event.clone(), r.flavor)));
        let mut doc = Document::new(dialect, kind_of(dialect));
        if let Some(version) = dialect.config().version {
            doc.extra.insert("version".into(), Value::from(version));
        }
        doc.rules = rules;
        doc
    })
}

fn reread(doc: &Document) -> Document {
    let text = write::to_text(doc);
    let parsed = read(
        &SourceFile::new("generated.json", text.clone()),
        doc.dialect,
    )
    .expect("hookx reads what it writes");
    assert!(!parsed.has_errors(), "{text}\n{:?}", parsed.diagnostics);
    normalize(parsed.document)
}

fn normalize(mut doc: Document) -> Document {
    for rule in &mut doc.rules {
        rule.origin = Origin::default();
    }
    doc.hooks_index = 0;
    doc
}

proptest! {
    #[test]
    fn claude_round_trips(doc in document(claude::DIALECT)) {
        prop_assert_eq!(reread(&doc), normalize(doc));
    }

    #[test]
    fn copilot_round_trips(doc in document(copilot::DIALECT)) {
        prop_assert_eq!(reread(&doc), normalize(doc));
    }

    #[test]
    fn bricks_round_trips(doc in document(bricks::DIALECT)) {
        prop_assert_eq!(reread(&doc), normalize(doc));
    }

}

/// A → B → A for a document of A through every other dialect B, wrapped and not: the identity
/// except what the first conversion reported lost, byte for byte where nothing was, and never a
/// wrapper inside a wrapper.
fn there_and_back(from: Dialect, doc: Document) -> Result<(), TestCaseError> {
    let tmp = tempfile::tempdir().unwrap();
    let (text, parsed) = write_and_read(&doc, &tmp.path().join("a"));
    prop_assert!(!parsed.has_errors(), "{text}\n{:?}", parsed.diagnostics);
    let src = source_of(&doc, &text, &tmp.path().join("a"));
    let a = parsed.document;
    for via in round_trip_dialects().into_iter().filter(|&d| d != from) {
        for wrap in [true, false] {
            let trip = round_trip(&src, &a, &[], via, wrap, tmp.path());
            prop_assert!(trip.identity, "{}", trip.shown);
            prop_assert!(
                !trip.lossless || trip.bytes,
                "nothing lost, yet the text differs: {}",
                trip.shown
            );
            prop_assert_eq!(
                trip.nested,
                0,
                "{} → {} → {}: a wrapper inside a wrapper",
                from,
                via,
                from
            );
        }
    }
    Ok(())
}

/// The dialects [`there_and_back`] starts from, one proptest each (below). One proptest over
/// every dialect ran for minutes on a busy machine, and libtest's "running for over 60 seconds"
/// then named no dialect; [`every_round_trip_dialect_has_its_test`] keeps the list whole.
const THERE_AND_BACK: &[&str] = &[
    "claude", "copilot", "bricks", "gemini", "qwen", "codex", "droid", "cline", "cursor", "vscode",
    "windsurf", "kiro", "augment",
];

#[test]
fn every_round_trip_dialect_has_its_test() {
    for d in round_trip_dialects() {
        assert!(
            THERE_AND_BACK.contains(&d.name()),
            "no there_and_back test from {} (add one and add it to THERE_AND_BACK)",
            d.name()
        );
    }
    for name in THERE_AND_BACK {
        assert!(Dialect::named(name).is_some(), "{name} is no dialect");
    }
}

/// One proptest per starting dialect, 20 cases each (260 in all, about the 256 the one test
/// over every dialect drew at random).
macro_rules! there_and_back_from {
    ($($test:ident: $name:literal),+ $(,)?) => {
        proptest! {
            #![proptest_config(ProptestConfig::with_cases(20))]
            $(
                #[test]
                fn $test(doc in document(Dialect::named($name).unwrap())) {
                    there_and_back(Dialect::named($name).unwrap(), doc)?;
                }
            )+
        }
    };
}

there_and_back_from! {
    there_and_back_from_claude: "claude",
    there_and_back_from_copilot: "copilot",
    there_and_back_from_bricks: "bricks",
    there_and_back_from_gemini: "gemini",
    there_and_back_from_qwen: "qwen",
    there_and_back_from_codex: "codex",
    there_and_back_from_droid: "droid",
    there_and_back_from_cline: "cline",
    there_and_back_from_cursor: "cursor",
    there_and_back_from_vscode: "vscode",
    there_and_back_from_windsurf: "windsurf",
    there_and_back_from_kiro: "kiro",
    there_and_back_from_augment: "augment",
}

// ---------------------------------------------------------------------------------------------
// Through the binary.

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn hookx_convert(args: &[&str]) -> Run {
    let out = common::hookx()
        .arg("convert")
        .args(args)
        .output()
        .expect("run hookx");
    Run {
        code: out.status.code().expect("exited"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// `hookx convert FILE --from FROM --to TO [extra]` into `dir/NAME`, which it returns.
fn convert_into(dir: &Path, file: &str, from: &str, to: &str, extra: &[&str]) -> (String, Run) {
    let out = dir.join(format!("{to}.json")).display().to_string();
    let mut args = vec![file, "--from", from, "--to", to, "--out", &out];
    args.extend(extra);
    let run = hookx_convert(&args);
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    (out, run)
}

/// The command lines of a converted file, with how many times each runs `hookx exec`.
fn exec_counts(text: &str) -> Vec<usize> {
    let exec = regex::Regex::new(r"exec --(host|as) ").unwrap();
    let value: Value = serde_json::from_str(text).unwrap();
    let mut lines = Vec::new();
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    match (k.as_str(), v) {
                        ("command" | "bash", Value::String(line)) => out.push(line.clone()),
                        _ => walk(v, out),
                    }
                }
            }
            Value::Array(list) => list.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    walk(&value, &mut lines);
    lines.iter().map(|l| exec.find_iter(l).count()).collect()
}

/// Claude → Copilot → Claude, and the other way, over every fixture of both: never a wrapper
/// inside a wrapper, and where the first conversion lost nothing, the file comes back as
/// hookx writes the original (its own conversion to its own dialect), byte for byte.
#[test]
fn claude_and_copilot_files_come_back_as_they_were() {
    let tmp = tempfile::tempdir().unwrap();
    let mut exact = 0;
    for (from, via) in [("claude", "copilot"), ("copilot", "claude")] {
        let dialect = Dialect::named(from).unwrap();
        for file in dialect_fixtures(dialect) {
            if file.ends_with(".md") {
                continue;
            }
            let dir = tempfile::tempdir_in(tmp.path()).unwrap();
            let (mid, there) = convert_into(dir.path(), &file, from, via, &["--format", "json"]);
            let report: Value = serde_json::from_str(&there.stdout).unwrap();
            let lossless = report["losses"] == json!([]);
            let Ok(mid_text) = std::fs::read_to_string(&mid) else {
                // Nothing to convert (a file that only switches hooks off): nothing written.
                assert_eq!(report["written"], Value::Null, "{file}");
                continue;
            };
            assert!(exec_counts(&mid_text).iter().all(|&n| n <= 1), "{mid_text}");
            let back = hookx_convert(&[&mid, "--from", via, "--to", from]);
            assert_eq!(back.code, 0, "{}", back.stderr);
            assert!(
                exec_counts(&back.stdout).iter().all(|&n| n == 0),
                "{file} → {via} → {from}: still wrapped\n{}",
                back.stdout
            );
            if lossless {
                // Its hooks, in the writer's text (a conversion carries no other setting).
                let itself = hookx_convert(&[&file, "--from", from, "--to", from]);
                let hooks = |text: &str| {
                    let value: Value = serde_json::from_str(text).unwrap();
                    let mut hooks = value.get("hooks").unwrap_or(&value).clone();
                    // An empty event, or a group with no handler, holds no hook.
                    if let Some(events) = hooks.as_object_mut() {
                        for list in events.values_mut().filter_map(Value::as_array_mut) {
                            list.retain(|g| g["hooks"] != json!([]));
                        }
                        events.retain(|_, list| *list != json!([]));
                    }
                    serde_json::to_string_pretty(&hooks).unwrap()
                };
                assert_eq!(
                    hooks(&back.stdout),
                    hooks(&itself.stdout),
                    "{file} → {via} → {from}"
                );
                exact += 1;
            }
        }
    }
    assert!(exact >= 10, "only {exact} lossless round trips");
}

/// Cursor's tool-category events (`beforeShellExecution`, `afterFileEdit`, …) come back as
/// themselves, wrapped or converted as written (`--no-wrap`), not as `preToolUse` with a
/// matcher, whose payload a guard written for the category would misread.
#[test]
fn cursor_category_events_come_back_as_themselves() {
    let file = "tests/fixtures/cursor/docs-every-event.json";
    let original: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    for extra in [&[][..], &["--no-wrap"][..]] {
        let tmp = tempfile::tempdir().unwrap();
        let (mid, _) = convert_into(tmp.path(), file, "cursor", "claude", extra);
        let mut args = vec![mid.as_str(), "--from", "claude", "--to", "cursor"];
        args.extend(extra);
        let back = hookx_convert(&args);
        assert_eq!(back.code, 0, "{}", back.stderr);
        let back: Value = serde_json::from_str(&back.stdout).unwrap();
        for event in [
            "beforeShellExecution",
            "afterShellExecution",
            "beforeMCPExecution",
            "afterMCPExecution",
            "beforeReadFile",
            "afterFileEdit",
        ] {
            let commands = |v: &Value| -> Vec<Value> {
                v["hooks"][event]
                    .as_array()
                    .map(|l| l.iter().map(|e| e["command"].clone()).collect())
                    .unwrap_or_default()
            };
            assert_eq!(commands(&back), commands(&original), "{event} {extra:?}");
            assert!(!commands(&back).is_empty(), "{event}");
        }
        // The generic event holds what it held, no category rule besides.
        assert_eq!(
            back["hooks"]["preToolUse"],
            json!([{"command": "./hooks/guard.sh", "matcher": "Shell|Read"}]),
            "{extra:?}"
        );
    }
}

/// A → B → C: each wrapper is re-targeted (`--host C`, `--as A`), never wrapped again, and the
/// file is the one A → C gives (what names the file converted aside).
#[test]
fn a_wrapper_is_retargeted_to_a_third_dialect() {
    let tmp = tempfile::tempdir().unwrap();
    let file = "tests/fixtures/claude/wild-plugin-hooks.json";
    let (mid, _) = convert_into(tmp.path(), file, "claude", "copilot", &[]);
    let via = hookx_convert(&[&mid, "--from", "copilot", "--to", "gemini"]);
    assert_eq!(via.code, 0, "{}", via.stderr);
    let direct = hookx_convert(&[file, "--from", "claude", "--to", "gemini"]);
    assert!(
        exec_counts(&via.stdout).iter().all(|&n| n == 1),
        "{}",
        via.stdout
    );
    assert!(
        via.stdout.contains("exec --host gemini --as claude "),
        "{}",
        via.stdout
    );
    assert!(!via.stdout.contains("--host copilot"), "{}", via.stdout);
    let source = regex::Regex::new(r#""source": "[^"]*""#).unwrap();
    let named = |t: &str| source.replace_all(t, r#""source": "…""#).into_owned();
    assert_eq!(named(&via.stdout), named(&direct.stdout));
}

/// A handler written with a timeout keeps it through `hookx exec --timeout`; one written
/// without gets none (exec applies its own dialect's default), and comes back without one.
#[test]
fn handler_timeouts_are_kept_through_exec() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("settings.json");
    let original = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "./a.sh", "timeout": 30},
        {"type": "command", "command": "./b.sh"}
    ]}]}});
    std::fs::write(&file, original.to_string()).unwrap();
    let file = file.display().to_string();
    let (mid, _) = convert_into(tmp.path(), &file, "claude", "copilot", &[]);
    let text = std::fs::read_to_string(&mid).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    let lines: Vec<&str> = value["hooks"]["agentStop"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["bash"].as_str().unwrap())
        .collect();
    assert!(lines[0].contains(" --timeout 30 -- ./a.sh"), "{}", lines[0]);
    assert!(!lines[1].contains("--timeout"), "{}", lines[1]);
    let back = hookx_convert(&[&mid, "--from", "copilot", "--to", "claude"]);
    let back: Value = serde_json::from_str(&back.stdout).unwrap();
    assert_eq!(back, original);
}

/// Entries every earlier hookx wrote (today's guard, the older guards, the bare form of the
/// versions that wrapped only when asked, with a `--hookx` path) convert back into the
/// dialect they were written for as the handler they run, and into any other re-targeted.
#[test]
fn entries_older_hookx_wrapped_convert_back_to_their_handlers() {
    let long = "hookx not found (command -v hookx failed): this hook was converted by hookx convert and runs through hookx exec. Install hookx (cargo install --locked --path <hookx checkout>) or convert again with --hookx PATH.";
    let short = "hookx not found: install it or convert again with --hookx PATH";
    let cmds: Vec<String> = (0..4)
        .map(|i| format!("jq -r .tool_input.command | grep -q 'rm -rf' && exit 2 || echo {i}"))
        .collect();
    let cmd = |i: usize| cmds[i].as_str();
    let q = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let lines = [
        // 0.1 before wrapping was the default: no guard, no host.
        format!(
            "/opt/hookx/bin/hookx exec --as claude --event PreToolUse --timeout 600 --match Bash -- {}",
            q(cmd(0))
        ),
        // The first guard: a long message, exit 2.
        format!(
            "command -v hookx >/dev/null 2>&1 || {{ echo {} >&2; exit 2; }}; hookx exec --host copilot --as claude --event PreToolUse --timeout 600 --match Bash -- {}",
            q(long),
            q(cmd(1))
        ),
        // The guard that printed the host's deny.
        format!(
            "command -v hookx >/dev/null 2>&1 || {{ printf '%s\\n' '{{\"permissionDecision\":\"deny\"}}'; echo {} >&2; exit 0; }}; hookx exec --host copilot --as claude --event PreToolUse --timeout 600 --match Bash -- {}",
            q(long),
            q(cmd(2))
        ),
        // The short message.
        format!(
            "command -v hookx >/dev/null 2>&1 || {{ m={}; printf '{{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"%s\"}}\\n' \"$m\"; echo \"$m\" >&2; exit 0; }}; hookx exec --host copilot --as claude --event PreToolUse --timeout 600 --match Bash -- {}",
            q(short),
            q(cmd(3))
        ),
    ];
    let entries: Vec<Value> = lines
        .iter()
        .map(|l| json!({"type": "command", "bash": l, "timeoutSec": 600}))
        .collect();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hooks.json");
    std::fs::write(
        &file,
        json!({"version": 1, "hooks": {"preToolUse": entries}}).to_string(),
    )
    .unwrap();
    let file = file.display().to_string();
    let back = hookx_convert(&[&file, "--from", "copilot", "--to", "claude"]);
    assert_eq!(back.code, 0, "{}", back.stderr);
    let back: Value = serde_json::from_str(&back.stdout).unwrap();
    // With no record of the groups they were in, entries alike make one group again.
    let handlers: Vec<Value> = (0..4)
        .map(|i| json!({"type": "command", "command": cmd(i)}))
        .collect();
    assert_eq!(
        back["hooks"]["PreToolUse"],
        json!([{"matcher": "Bash", "hooks": handlers}]),
        "{back:#}"
    );
    // Into a third dialect: re-targeted, one wrapper each.
    let third = hookx_convert(&[&file, "--from", "copilot", "--to", "gemini"]);
    assert_eq!(third.code, 0, "{}", third.stderr);
    assert_eq!(exec_counts(&third.stdout), [1, 1, 1, 1], "{}", third.stdout);
    assert_eq!(
        third
            .stdout
            .matches("exec --host gemini --as claude --event PreToolUse -- ")
            .count(),
        4,
        "{}",
        third.stdout
    );
}
