//! Conversion over a corpus of Claude configs (settings files, plugin `hooks.json`, skill and
//! agent frontmatter): every file converts to Copilot and Bricks; every tool matcher fires,
//! under the target's own matcher rules, for exactly the counterparts of the tools it fired
//! for; every command survives, wrapped and round-tripped.
//!
//! The corpus is `tests/fixtures/claude` and, when `HOOKX_CORPUS` names a folder, every `.json`
//! and `.md` file below it: real public configs kept outside the repository (their licences do
//! not let this repository redistribute them; `tests/fixtures/corpus/SOURCES.txt` lists where
//! each came from). Run with `--nocapture` for the figures.

mod common;

use hookx::config::{read, write};
use hookx::convert::{self, Options, matcher};
use hookx::dialect::{bricks, claude, copilot};
use hookx::model::HandlerKind;
use hookx::shell::shell_quote_shortest;
use hookx::source::SourceFile;
use hookx::tables::Document;
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
            Some("json" | "md")
        ) {
            out.push(path);
        }
    }
}

fn corpus() -> Vec<PathBuf> {
    let mut files = Vec::new();
    files_below(&common::fixtures_dir().join("claude"), &mut files);
    if let Some(dir) = std::env::var_os("HOOKX_CORPUS") {
        files_below(Path::new(&dir), &mut files);
    }
    files.sort();
    files
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
