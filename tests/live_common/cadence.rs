//! The cadence probe (attacks rows 1780-1799): how many times a real client fires each of its
//! lifecycle events in one scripted session (a prompt, three tool calls, the answer; then the
//! session resumed with a follow-up prompt and its answer), a recorder with no matcher on each.
//! What happened is counted beside what fired (runs, prompts, model requests, compactions), so
//! that `tests/cadence_recorded.rs` can check, without the client, that hookx's tables know how
//! often each event fires under each host ([`hookx::tables::Tables::cadences`]). The counts are
//! kept as `tests/fixtures/cadence/CLIENT-VERSION.json` (written under
//! `HOOKX_RECORD_CADENCE=1`, else a live run is checked against it). Included with `#[path]`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One run of the client (`start`, `resume`): what happened, and what fired.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Run {
    pub run: String,
    /// Prompts the user sent in this run.
    pub prompts: usize,
    /// The main loop's model requests (with tools; the fake server's log), subagents' none here.
    pub model_requests: usize,
    pub tool_calls: usize,
    /// Compactions asked for (`/compress`, `/compact`); none in these sessions.
    pub compactions: usize,
    /// Each recorded event's native name → how many times it fired in this run.
    pub fired: BTreeMap<String, usize>,
}

/// What a client fired, as recorded.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Recording {
    pub client: String,
    pub version: String,
    /// hookx's name for the client's flavour (`simulate --host`).
    pub host: String,
    /// How the session was driven.
    pub how: String,
    pub runs: Vec<Run>,
}

/// Counts the dumps of a run by label: `labels` are the events' native names, each recorder
/// labelled with its event.
pub fn fired<'a>(
    labels: impl Iterator<Item = &'a str>,
    events: &[&str],
) -> BTreeMap<String, usize> {
    let mut fired: BTreeMap<String, usize> = events.iter().map(|e| (e.to_string(), 0)).collect();
    for label in labels {
        if let Some(n) = fired.get_mut(label) {
            *n += 1;
        }
    }
    fired
}

/// The recording's file (`client` and version: `gemini-0.61.0`).
pub fn fixture(client: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cadence")
        .join(format!("{client}.json"))
}

/// Records `now` under `HOOKX_RECORD_CADENCE=1`; else the differences between `now` and the
/// recording (the client changed, or the run did).
pub fn settle(client: &str, now: &Recording) -> Vec<String> {
    let path = fixture(client);
    if std::env::var_os("HOOKX_RECORD_CADENCE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let text = serde_json::to_string_pretty(now).unwrap() + "\n";
        std::fs::write(&path, text).unwrap();
        return Vec::new();
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (record with HOOKX_RECORD_CADENCE=1)",
            path.display()
        )
    });
    let then: Recording = serde_json::from_str(&text).unwrap();
    let mut differ = Vec::new();
    if then.runs.len() != now.runs.len() {
        differ.push(format!(
            "{} runs recorded, {} now",
            then.runs.len(),
            now.runs.len()
        ));
    }
    for (a, b) in then.runs.iter().zip(&now.runs) {
        if a != b {
            differ.push(format!("{}: recorded {a:?}, now {b:?}", a.run));
        }
    }
    differ
}
