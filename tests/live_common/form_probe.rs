//! The answer-form probe of the suites whose fake model plays a script per scenario (Codex,
//! Gemini, Qwen): every form hookx writes on the probed events, and a handler's own `ask`,
//! answered by the recorder with hookx out of the loop, then checked against the answer book
//! (`answers.json`, see `answers.rs`). The probed call of form NAME is `printf x > o-NAME.txt`,
//! its rewrite writes `r-NAME.txt`. Included with `#[path]` beside `answers.rs`.

use crate::answers::{self, Entry, Form, Probed, Ran};
use serde_json::Value;
use std::path::PathBuf;

/// The forms probed: a handler's own `ask` on `event` (`ask`: its stdout; what the client's
/// permission flow does with a call), then every form hookx writes on the `probed` events.
pub fn forms(event: &str, ask: &str, (probed, rewrite): &(Vec<Probed>, Value)) -> Vec<Form> {
    let mut forms = vec![answers::hand("nativeask", event, ask, "", 0)];
    forms.extend(answers::hookx_forms(probed, rewrite));
    forms
}

/// The shell calls the model makes in the probe's `scenario`, and its closing text: in
/// `hxforms`, one call for each form that is not `alone`; in `hxone-NAME`, the call of the
/// form that may stop the agent, then one that shows whether it did. `None`: another scenario.
pub fn calls(
    scenario: &str,
    forms: &[Form],
    alone: impl Fn(&Form) -> bool,
) -> Option<(Vec<String>, &'static str)> {
    let call = |name: &str| format!("printf x > o-{name}.txt");
    if scenario == "hxforms" {
        let calls = forms.iter().filter(|f| !alone(f)).map(|f| call(&f.name));
        return Some((calls.collect(), "forms done"));
    }
    let name = scenario.strip_prefix("hxone-")?;
    Some((vec![call(name), call(&format!("{name}after"))], "one done"))
}

/// Probes `forms`: those that are not `alone` together in the run `hxforms`, each of the others
/// in a run of its own, `hxone-NAME` (with a call after it: whether the agent stopped) or, for
/// a form on Stop, `hxend-NAME`. `run(scenario, forms)` runs the client with the recorder
/// answering `forms`; `None`: the client is missing (on the first run), and so is the probe.
/// `seen(run, scenario)`: the run's project folder and all that it sent the model.
pub fn probe<L>(
    forms: &[Form],
    alone: impl Fn(&Form) -> bool,
    mut run: impl FnMut(&str, &[&Form]) -> Option<L>,
    seen: impl Fn(&L, &str) -> (PathBuf, String),
) -> Option<Vec<Entry>> {
    let together: Vec<&Form> = forms.iter().filter(|f| !alone(f)).collect();
    let l = run("hxforms", &together)?;
    let mut entries = Vec::new();
    let mut note = |l: &L, scenario: &str, f: &Form, halted: Option<bool>| {
        let (project, sent) = seen(l, scenario);
        let ran = answers::ran_by_files(&project, &f.name);
        let effect = f.effect(ran, |t| sent.contains(t), halted);
        eprintln!("form {:<13} {:<12} {effect:?}", f.name, f.event);
        entries.push(Entry {
            form: f.clone(),
            effect,
        });
    };
    for f in &together {
        note(&l, "hxforms", f, None);
    }
    for f in forms.iter().filter(|f| alone(f)) {
        if f.event == "Stop" {
            let scenario = format!("hxend-{}", f.name);
            let l = run(&scenario, &[f]).expect("the client ran the probe's first run");
            note(&l, &scenario, f, None);
            continue;
        }
        let scenario = format!("hxone-{}", f.name);
        let l = run(&scenario, &[f]).expect("the client ran the probe's first run");
        let (project, _) = seen(&l, &scenario);
        let after = answers::ran_by_files(&project, &format!("{}after", f.name));
        note(&l, &scenario, f, Some(after == Ran::NotRun));
    }
    Some(entries)
}

/// The book of `client` `version` (hookx's `host`) with the probe's `entries`, checked against
/// the recorded one (or recorded, under `HOOKX_RECORD_ANSWERS=1`): fails on any difference.
pub fn settle(
    client: &str,
    version: &str,
    host: &str,
    probed: (Vec<Probed>, Value),
    entries: Vec<Entry>,
) {
    let diffs = answers::Book::new(client, version, host, probed, entries).settle(host);
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}
