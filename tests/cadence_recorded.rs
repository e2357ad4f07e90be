//! How often each real client fired each lifecycle event in one scripted session (recorded by
//! the live suites in `tests/fixtures/cadence/CLIENT-VERSION.json`, `live_common/cadence.rs`),
//! against hookx's tables: each event fires once per thing it names (a run's start and end, a
//! prompt, a turn's end, a compaction, a tool call) unless the host's
//! [`Tables::cadences`](hookx::tables::Tables) say otherwise, so that a rule written for one
//! agent runs as often under another, or `convert`, `list`, `doctor` and `simulate` say it does
//! not (attacks rows 1761, 1780-1799).

#[allow(dead_code)]
#[path = "live_common/cadence.rs"]
mod cadence;

use hookx::model::EventKind;
use hookx::tables::{Cadence, Flavor};
use std::path::PathBuf;

/// How many times `kind` fires in `run` where it fires once per thing it names; `None` for
/// events whose count depends on what the session did beyond the script (a notification, a
/// model event).
fn as_named(kind: &EventKind, run: &cadence::Run) -> Option<usize> {
    Some(match kind {
        EventKind::SessionStart | EventKind::SessionEnd => 1,
        EventKind::UserPromptSubmit | EventKind::Stop => run.prompts,
        EventKind::PreCompact | EventKind::PostCompact => run.compactions,
        EventKind::PreToolUse | EventKind::PostToolUse => run.tool_calls,
        EventKind::SubagentStart | EventKind::SubagentStop => 0,
        _ => return None,
    })
}

/// What the tables predict for `kind` under `tables` in `run`: the fewest and the most times.
/// A firing the payload tells apart fires once per prompt at least, at most once per request
/// (a resumed Qwen session made a request that fired none).
fn predicted(
    tables: &hookx::tables::Tables,
    kind: &EventKind,
    run: &cadence::Run,
) -> Option<(usize, usize)> {
    if tables.unfired_in(kind).is_some() {
        // Not fired in the mode the probe runs (`-p`, `exec`, `--json`), whose runs complete.
        return Some((0, 0));
    }
    match tables.cadence(kind) {
        Some(Cadence::EveryModelRequest) => Some((run.model_requests, run.model_requests)),
        Some(Cadence::EveryWritingCall) => Some((0, run.tool_calls)),
        Some(Cadence::EveryModelRequestTold { .. }) => {
            Some((as_named(kind, run)?, run.model_requests))
        }
        None => as_named(kind, run).map(|n| (n, n)),
    }
}

#[test]
fn each_recorded_clients_events_fire_as_often_as_the_tables_say() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cadence");
    let mut seen = 0;
    let mut differ = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let file = entry.unwrap().path();
        let text = std::fs::read_to_string(&file).unwrap();
        let rec: cadence::Recording =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let flavor = Flavor::named(&rec.host)
            .unwrap_or_else(|| panic!("{}: no flavour {}", file.display(), rec.host));
        let tables = flavor.tables();
        seen += 1;
        for run in &rec.runs {
            for (name, &count) in &run.fired {
                let Some(kind) = tables.event_kind(name) else {
                    // A hook name the client's docs or source list and hookx does not read,
                    // recorded as not firing, is no claim of the tables.
                    if count == 0 {
                        continue;
                    }
                    differ.push(format!(
                        "{} {}: `{name}` is no event of {}",
                        rec.client, rec.version, rec.host
                    ));
                    continue;
                };
                // A second name of an event is one firing of it, told by a field's value
                // (Cline's `TaskResume`: `source: resume`): the recorded runs each start a new
                // session, which none fires.
                if tables.event_name(&kind) != Some(name.as_str()) {
                    if count != 0 {
                        differ.push(format!(
                            "{} {} ({}): `{name}` ({kind}, {:?}) fired {count} times in a new \
                             session",
                            rec.client,
                            rec.version,
                            run.run,
                            tables.event_value(name)
                        ));
                    }
                    continue;
                }
                let Some((least, most)) = predicted(tables, &kind, run) else {
                    continue;
                };
                if count < least || count > most {
                    differ.push(format!(
                        "{} {} ({}): `{name}` ({kind}) fired {count} times, the tables say \
                         {least} to {most}",
                        rec.client, rec.version, run.run
                    ));
                }
            }
        }
    }
    assert!(seen > 0, "no recording under {}", root.display());
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
