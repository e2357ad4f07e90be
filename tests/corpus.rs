//! Conversion over corpora of real public configs.
//!
//! `every_claude_config_converts_with_exact_matchers_and_commands`: every Claude config
//! (settings files, plugin `hooks.json`, skill and agent frontmatter) converts to Copilot and
//! Bricks; every tool matcher fires, under the target's own matcher rules, for exactly the
//! counterparts of the tools it fired for; every command survives, wrapped and round-tripped.
//!
//! `every_corpus_file_goes_to_every_dialect_and_back`: every file of every agent converts to
//! every other dialect and back (wrapped and `--no-wrap`) with no wrapper inside a wrapper, no
//! path of the converting machine in what is written, and the original back except what the
//! first conversion reported lost; every committed file is read. It prints, per agent, the
//! files converted, the round trips that are the identity and the losses by kind
//! (`--nocapture`).
//!
//! The corpus is `tests/fixtures/corpus/<agent>/` (files of permissively licensed repositories,
//! each listed in `tests/fixtures/corpus/SOURCES.txt`) and, when `HOOKX_CORPUS` names a folder,
//! its `<agent>/` folders: real public configs kept outside the repository (their licences do
//! not let this repository redistribute them; SOURCES.txt lists where each came from). Claude's
//! corpus also holds `tests/fixtures/claude`.

mod common;

use hookx::config::{read, write};
use hookx::convert::{self, Options, matcher};
use hookx::dialect::{bricks, claude, copilot};
use hookx::model::HandlerKind;
use hookx::shell::shell_quote_shortest;
use hookx::source::SourceFile;
use hookx::tables::{Dialect, Document};
use std::path::{Path, PathBuf};

fn files_below(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_below(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("json" | "md" | "hook")
        ) {
            out.push(path);
        }
    }
}

fn corpus() -> Vec<PathBuf> {
    let mut files = Vec::new();
    files_below(&common::fixtures_dir().join("claude"), &mut files);
    files.extend(corpus_of(claude::DIALECT));
    files.sort();
    files
}

/// The corpus files of one agent: `tests/fixtures/corpus/<agent>/` and `$HOOKX_CORPUS/<agent>/`
/// (every file of a script-layout dialect, whose hooks are files named after their events;
/// else `.json`, `.md` and Kiro's `.hook` files).
fn corpus_of(dialect: Dialect) -> Vec<PathBuf> {
    let mut dirs = vec![common::fixtures_dir().join("corpus").join(dialect.name())];
    if let Some(dir) = std::env::var_os("HOOKX_CORPUS") {
        dirs.push(Path::new(&dir).join(dialect.name()));
    }
    let mut files = Vec::new();
    for dir in dirs {
        let mut found = Vec::new();
        match dialect.config().scripts {
            Some(_) => every_file_below(&dir, &mut found),
            None => files_below(&dir, &mut found),
        }
        files.extend(found);
    }
    files.sort();
    files
}

fn every_file_below(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for path in entries.flatten().map(|e| e.path()) {
        match path.is_dir() {
            true => every_file_below(&path, out),
            false => out.push(path),
        }
    }
}

/// Every command line of a document, by the JSON pointer of the rule it came from. Handlers in
/// Claude's exec form (`args`) are left out: the command line they make is checked by
/// `tests/convert.rs` (`claude_args_become_a_quoted_command_line`).
fn commands(doc: &Document) -> Vec<(String, String)> {
    doc.rules
        .iter()
        .flat_map(|r| {
            r.handlers.iter().filter_map(move |h| match &h.kind {
                HandlerKind::Command(c) if !h.extra.contains_key("args") => Some((
                    r.origin.pointer.clone(),
                    c.unix_line().unwrap_or_default().to_string(),
                )),
                _ => None,
            })
        })
        .collect()
}

#[derive(Default, Debug)]
struct Figures {
    files: usize,
    matchers: usize,
    exact: usize,
    not_converted: usize,
    commands: usize,
    wrapped_kept: usize,
    round_trip_kept: usize,
}

#[test]
fn every_claude_config_converts_with_exact_matchers_and_commands() {
    let mut figures = Figures::default();
    let mut failures = Vec::new();
    for path in corpus() {
        let shown = path.display().to_string();
        let src = SourceFile::read(&path).unwrap_or_else(|e| panic!("{e}"));
        let parsed = match read(&src, claude::DIALECT) {
            Ok(parsed) => parsed,
            Err(e) => {
                failures.push(format!("{shown}: does not read: {e}"));
                continue;
            }
        };
        figures.files += 1;
        let doc = &parsed.document;
        for to in [copilot::DIALECT, bricks::DIALECT] {
            let target = to.default_flavor();
            let conversion = convert::convert(&[(&src, doc)], &Options::new(to));
            // Matchers, under the target's rules.
            for rule in &doc.rules {
                let on = (
                    rule.flavor.tables().matcher_target(&rule.event),
                    target.tables().matcher_target(&rule.event),
                );
                // A rule with no handler (a placeholder) has nothing to convert.
                let tools = Some(hookx::tables::MatchOn::ToolName);
                if rule.handlers.is_empty() || on != (tools, tools) {
                    continue;
                }
                figures.matchers += 1;
                let (expected, _) =
                    matcher::counterparts_fired(rule.matcher.as_deref(), claude::FLAVOR, target)
                        .unwrap_or_default();
                let converted: Vec<_> = conversion
                    .document
                    .rules
                    .iter()
                    .filter(|r| r.origin.pointer == rule.origin.pointer)
                    .collect();
                if converted.is_empty() {
                    // Not converted: it must be reported, with its position.
                    let reported = conversion
                        .losses
                        .iter()
                        .any(|l| l.pointer.starts_with(&rule.origin.pointer) && l.line > 0);
                    if reported {
                        figures.not_converted += 1;
                    } else {
                        failures.push(format!(
                            "{shown} → {to}: {} vanished without a loss item",
                            rule.origin.pointer
                        ));
                    }
                    continue;
                }
                let mut exact = true;
                for c in converted {
                    let got = matcher::target_fired(c.matcher.as_deref(), claude::FLAVOR, target)
                        .unwrap_or_default();
                    if got != expected {
                        exact = false;
                        failures.push(format!(
                            "{shown} → {to}: matcher {:?} became {:?}: fires for {got:?}, not {expected:?}",
                            rule.matcher, c.matcher
                        ));
                    }
                }
                figures.exact += usize::from(exact);
            }
            // Wrapped: each command is carried as one quoted word, unchanged.
            let wrapped: Vec<String> = commands(&conversion.document)
                .into_iter()
                .map(|(_, l)| l)
                .collect();
            for (pointer, original) in commands(doc) {
                if !conversion
                    .document
                    .rules
                    .iter()
                    .any(|r| r.origin.pointer == pointer)
                {
                    continue;
                }
                figures.commands += 1;
                let word = format!("-- {}", shell_quote_shortest(&original));
                if wrapped.iter().any(|l| l.ends_with(&word)) {
                    figures.wrapped_kept += 1;
                } else {
                    failures.push(format!(
                        "{shown} → {to}: `{original}` is not wrapped as written"
                    ));
                }
            }
            // Round trip as written (--no-wrap): the same command lines come back, the
            // project variables of all dialects written alike.
            let plain = Options {
                wrap: false,
                ..Options::new(to)
            };
            let there = convert::convert(&[(&src, doc)], &plain);
            let mid_text = write::to_text(&there.document);
            let mid_src = SourceFile::new(format!("mid.{to}.json"), mid_text.clone());
            let mid = read(&mid_src, to).unwrap().document;
            let back = convert::convert(
                &[(&mid_src, &mid)],
                &Options {
                    wrap: false,
                    ..Options::new(claude::DIALECT)
                },
            );
            let alike = |line: &str| {
                line.replace("BRICKS_PROJECT_DIR", "CLAUDE_PROJECT_DIR")
                    .replace("COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR")
                    .replace("$PWD", "$CLAUDE_PROJECT_DIR")
                    .replace("${PWD", "${CLAUDE_PROJECT_DIR")
            };
            let mut went: Vec<String> = commands(&there.document)
                .iter()
                .map(|(_, l)| alike(l))
                .collect();
            let mut came: Vec<String> = commands(&back.document)
                .iter()
                .map(|(_, l)| alike(l))
                .collect();
            went.sort();
            came.sort();
            if went == came {
                figures.round_trip_kept += went.len();
            } else {
                failures.push(format!(
                    "{shown} → {to} → claude: commands changed:\n{went:#?}\n{came:#?}"
                ));
            }
        }
    }
    eprintln!("corpus figures (Claude → Copilot and → Bricks): {figures:#?}");
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(figures.files >= 30 && figures.matchers >= 50, "{figures:?}");
}

/// The kind of a loss, for the figures: what part of a rule it is about.
fn loss_kind(loss: &hookx::convert::Loss) -> &'static str {
    let (what, why) = (loss.what.as_str(), loss.why.as_str());
    if why == "unread" || why.contains("cannot read this part") {
        "unread entry"
    } else if why.contains("never fires") {
        "event the source never fires"
    } else if why.contains("event; the rule is not converted") || what.contains("on the `") {
        "event the target lacks"
    } else if what.contains("matcher") || what.contains("tool category") {
        "matcher"
    } else if what.contains("the scope of") {
        "skill/agent scope"
    } else if what.contains("in the command") {
        "variable or placeholder"
    } else if what.contains("field(s)") || why.contains("no such handler field") {
        "unknown field"
    } else if what.contains("handler on") || what.contains("PowerShell") {
        "handler type"
    } else if what.starts_with("its answers on") {
        "answer the target cannot read"
    } else if what.contains("hook protocol") {
        "payload (--no-wrap)"
    } else if what.contains("timeout") || why.contains("timeout") {
        "timeout"
    } else {
        "other"
    }
}

#[derive(Default)]
struct AgentFigures {
    files: usize,
    unreadable: usize,
    round_trips: usize,
    identity: usize,
    lossless: usize,
    nested: usize,
    absolute: usize,
    losses: std::collections::BTreeMap<&'static str, usize>,
}

/// What a converted document is written as: its text, or its scripts for a hook folder.
fn written(doc: &Document) -> String {
    match doc.dialect.config().scripts {
        Some(layout) => {
            hookx::config::scripts::emit(doc, layout, &hookx::dispatch::select::may_fire)
                .0
                .into_iter()
                .map(|(name, text)| format!("==> {name} <==\n{text}"))
                .collect()
        }
        None => write::to_text(doc),
    }
}

#[test]
fn every_corpus_file_goes_to_every_dialect_and_back() {
    use common::roundtrip::{read_fixture, round_trip, round_trip_dialects};
    let tmp = tempfile::tempdir().unwrap();
    let dialects = round_trip_dialects();
    // Paths of this machine that must never reach a converted file.
    let machine: Vec<String> = [
        Some(env!("CARGO_MANIFEST_DIR").to_string()),
        std::env::var("HOOKX_CORPUS").ok(),
        Some(tmp.path().display().to_string()),
        std::fs::canonicalize(tmp.path())
            .ok()
            .map(|p| p.display().to_string()),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut failures = Vec::new();
    let mut table = Vec::new();
    for &from in &dialects {
        let mut f = AgentFigures::default();
        for path in corpus_of(from) {
            let shown = path.display().to_string();
            // A file hookx refuses whole (the agent would too, or it is a form hookx does not
            // read): counted, and named with `--nocapture`.
            // Every committed file is one an agent reads (its kept forms, Kiro's older ones
            // included): hookx reads its hooks.
            let committed = path.starts_with(common::fixtures_dir().join("corpus"));
            let Some((src, doc, unread)) = read_fixture(&shown, from) else {
                f.unreadable += 1;
                eprintln!("unread: {shown} ({from})");
                if committed {
                    failures.push(format!("{shown}: hookx cannot read it"));
                }
                continue;
            };
            // A file with no hook hookx reads: a shape no build of the agent documents (the
            // agent reads none of it either), refused with the reason, counted and named.
            if doc.rules.iter().all(|r| r.handlers.is_empty()) {
                f.unreadable += 1;
                let why = unread.first().map_or("no hooks", |l| l.what.as_str());
                eprintln!("unread: {shown} ({from}): {why}");
                if committed {
                    failures.push(format!("{shown}: no hook read ({why})"));
                }
                continue;
            }
            f.files += 1;
            for loss in &unread {
                *f.losses.entry(loss_kind(loss)).or_default() += 1;
            }
            for &via in dialects.iter().filter(|&&d| d != from) {
                for wrap in [true, false] {
                    let options = Options {
                        wrap,
                        ..Options::new(via)
                    };
                    let there = convert::convert(&[(&src, &doc)], &options);
                    for loss in &there.losses {
                        *f.losses.entry(loss_kind(loss)).or_default() += 1;
                    }
                    // The record names the file as it was given (`hookx convert PATH`): that
                    // name is the user's; every other path in the output is hookx's own.
                    let mut text = written(&there.document);
                    for given in
                        std::iter::once(&src.path).chain(doc.rules.iter().map(|r| &r.origin.file))
                    {
                        if !given.is_empty() {
                            text = text.replace(given.as_str(), "<source>");
                        }
                    }
                    if let Some(at) = machine.iter().find(|m| text.contains(m.as_str())) {
                        f.absolute += 1;
                        failures.push(format!("{shown} → {via}: `{at}` is in the output"));
                    }
                    let trip = round_trip(&src, &doc, &unread, via, wrap, tmp.path());
                    f.round_trips += 1;
                    f.identity += usize::from(trip.identity);
                    f.lossless += usize::from(trip.lossless);
                    f.nested += trip.nested;
                    if !trip.identity || trip.nested > 0 {
                        failures.push(trip.shown);
                    }
                }
            }
        }
        table.push((from, f));
    }
    eprintln!("corpus: every file → every other dialect → back (wrapped and --no-wrap)");
    eprintln!(
        "{:<9} {:>5} {:>6} {:>7} {:>8} {:>8} {:>6} {:>8}  losses by kind",
        "agent", "files", "unread", "trips", "identity", "lossless", "nested", "absolute"
    );
    for (d, f) in &table {
        let kinds: Vec<String> = f.losses.iter().map(|(k, n)| format!("{k} {n}")).collect();
        eprintln!(
            "{:<9} {:>5} {:>6} {:>7} {:>8} {:>8} {:>6} {:>8}  {}",
            d.name(),
            f.files,
            f.unreadable,
            f.round_trips,
            f.identity,
            f.lossless,
            f.nested,
            f.absolute,
            kinds.join(", ")
        );
    }
    assert!(
        failures.is_empty(),
        "{} failure(s); the first:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}
