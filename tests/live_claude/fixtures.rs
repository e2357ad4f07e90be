//! Recorded payloads (`tests/fixtures/recorded/claude-2.1.332/`, format in
//! conformance/README.md): written with `HOOKX_RECORD=1`, otherwise the keys and types of what
//! the client sends are compared against them, event by event.

use super::Checks;
use super::client::{self, Record, World};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/recorded")
        .join(format!("claude-{}", client::VERSION))
}

fn recording() -> bool {
    std::env::var("HOOKX_RECORD").as_deref() == Ok("1")
}

/// Replaces the run's temporary paths by placeholders (also Claude's path slug of the project).
fn normalise(world: &World, text: &str) -> String {
    let slug = |p: &std::path::Path| {
        p.display()
            .to_string()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect::<String>()
    };
    text.replace(&world.project.display().to_string(), "<project>")
        .replace(&slug(&world.project), "<project-slug>")
        .replace(&world.home.display().to_string(), "<home>")
}

/// The hook-relevant environment: what Claude added to the environment it was given.
fn hook_env(world: &World, r: &Record) -> BTreeMap<String, String> {
    let given: BTreeSet<String> = client::base_env(world, 0)
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    r.env
        .iter()
        .filter(|(k, _)| {
            !given.contains(*k) && !matches!(k.as_str(), "PWD" | "SHLVL" | "OLDPWD" | "_")
        })
        .map(|(k, v)| {
            let secret = ["TOKEN", "SECRET", "KEY"].iter().any(|s| k.contains(s));
            let v = if secret {
                "<redacted>".to_string()
            } else {
                normalise(world, v)
            };
            (k.clone(), v)
        })
        .collect()
}

/// The fixture for one record.
pub fn fixture(world: &World, scenario: &str, r: &Record) -> Value {
    let stdin: Value = serde_json::from_str(&normalise(world, &r.stdin_text)).unwrap();
    json!({
        "client": client::CLIENT, "version": client::VERSION, "host": "claude", "flavor": "claude",
        "event": r.event, "scenario": scenario, "order": r.order,
        "stdin": stdin, "env": hook_env(world, r), "cwd": normalise(world, &r.cwd),
    })
}

/// Every `path:type` in a value (array elements under `[]`).
pub fn shape(value: &Value, prefix: &str, out: &mut BTreeSet<String>) {
    let kind = match value {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    out.insert(format!("{prefix}:{kind}"));
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                shape(v, &format!("{prefix}.{k}"), out);
            }
        }
        Value::Array(items) => {
            for v in items {
                shape(v, &format!("{prefix}[]"), out);
            }
        }
        _ => {}
    }
}

/// Event → the union of its payloads' shapes (stdin and env names).
fn shapes<'a>(
    items: impl Iterator<Item = (&'a str, &'a Value)>,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (event, fixture) in items {
        let set = out.entry(event.to_string()).or_default();
        shape(&fixture["stdin"], "stdin", set);
        if let Some(env) = fixture["env"].as_object() {
            set.extend(env.keys().map(|k| format!("env.{k}")));
        }
    }
    out
}

/// Writes the scenario's fixtures (`HOOKX_RECORD=1`) or compares against them. Events in
/// `optional` may be missing from a run (the client does not always wait for them).
pub fn record_or_compare(
    c: &mut Checks,
    world: &World,
    scenario: &str,
    records: &[Record],
    optional: &[&str],
) {
    let got: Vec<(String, Value)> = records
        .iter()
        .map(|r| (r.event.clone(), fixture(world, scenario, r)))
        .collect();
    let dir = dir();
    let prefix = format!("{scenario}.");
    if recording() {
        std::fs::create_dir_all(&dir).unwrap();
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path
                .file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with(&prefix)
            {
                std::fs::remove_file(path).unwrap();
            }
        }
        for (i, (event, fixture)) in got.iter().enumerate() {
            let name = format!("{scenario}.{:02}.{event}.json", i + 1);
            let text = serde_json::to_string_pretty(fixture).unwrap() + "\n";
            std::fs::write(dir.join(name), text).unwrap();
        }
        return;
    }
    let recorded: Vec<Value> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().path())
                .filter(|p| {
                    p.file_name()
                        .unwrap()
                        .to_str()
                        .unwrap()
                        .starts_with(&prefix)
                })
                .map(|p| serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap())
                .collect()
        })
        .unwrap_or_default();
    c.check(
        !recorded.is_empty(),
        format!(
            "{scenario}: recorded payloads in {} (HOOKX_RECORD=1 writes them)",
            dir.display()
        ),
    );
    let mut want = shapes(recorded.iter().map(|f| (f["event"].as_str().unwrap(), f)));
    let have = shapes(got.iter().map(|(e, f)| (e.as_str(), f)));
    want.retain(|event, _| have.contains_key(event) || !optional.contains(&event.as_str()));
    let events = |m: &BTreeMap<String, BTreeSet<String>>| m.keys().cloned().collect::<Vec<_>>();
    c.check(
        events(&want) == events(&have),
        format!(
            "{scenario}: the events fired differ from the recording: recorded {:?}, now {:?}",
            events(&want),
            events(&have)
        ),
    );
    for (event, w) in &want {
        if let Some(h) = have.get(event) {
            let gone: Vec<_> = w.difference(h).collect();
            let new: Vec<_> = h.difference(w).collect();
            c.check(
                gone.is_empty() && new.is_empty(),
                format!(
                    "{scenario} {event}: payload keys/types changed: gone {gone:?}, new {new:?}"
                ),
            );
        }
    }
}
