//! Recorded payloads of a live suite (`tests/fixtures/recorded/<folder>-<version>/`): written
//! under `HOOKX_RECORD=1`, one per event and payload shape, else every payload of the run is
//! compared with the recording by keys and types, so that a client version that changes a
//! payload fails loudly. Shared by the suites that include it with `#[path]`.

use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// What a suite records, and how.
pub struct Recording<'a> {
    /// The client's package name and version (`qwen-code`, `0.24.4`).
    pub client: &'a str,
    pub version: &'a str,
    /// The folder prefix under `recorded/` and the host and flavour named in each fixture.
    pub folder: &'a str,
    pub host: &'a str,
    /// The recorder labels recorded: one per event, named after it.
    pub events: &'a [&'a str],
    /// The variables worth keeping: what the client sets for hooks.
    pub relevant_env: fn(&str) -> bool,
    /// Sandbox texts and their placeholders, replaced in this order.
    pub placeholders: Vec<(String, &'static str)>,
}

/// One hook invocation the recorder saw.
pub struct Seen<'a> {
    pub label: &'a str,
    pub raw: &'a str,
    pub env: &'a BTreeMap<String, String>,
    pub cwd: &'a str,
}

impl Recording<'_> {
    fn dir(&self) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/recorded")
            .join(format!("{}-{}", self.folder, self.version))
    }

    fn normalise(&self, text: &str) -> String {
        self.placeholders
            .iter()
            .fold(text.to_string(), |t, (from, to)| {
                t.replace(from.as_str(), to)
            })
    }

    fn fixture(&self, scenario: &str, order: usize, s: &Seen) -> Value {
        let env: BTreeMap<&String, String> = s
            .env
            .iter()
            .filter(|(k, _)| (self.relevant_env)(k))
            .map(|(k, v)| (k, self.normalise(v)))
            .collect();
        let stdin: Value = serde_json::from_str(&self.normalise(s.raw)).expect("JSON stdin");
        json!({"client": self.client, "version": self.version, "host": self.host,
            "flavor": self.host, "event": s.label, "scenario": scenario, "order": order,
            "stdin": stdin, "env": env, "cwd": self.normalise(s.cwd)})
    }

    /// Records the run's payloads under `HOOKX_RECORD=1`, or checks them against the recording,
    /// leaving out of the comparison the events in `racy` (fired or not depending on timing; a
    /// recording keeps them).
    pub fn check(&self, scenario: &str, seen: &[Seen], racy: &[&str]) {
        let got: Vec<Value> = seen
            .iter()
            .filter(|s| self.events.contains(&s.label))
            .enumerate()
            .map(|(i, s)| self.fixture(scenario, i + 1, s))
            .collect();
        let dir = self.dir();
        let mine = |name: &str| name.starts_with(&format!("{scenario}."));
        if std::env::var_os("HOOKX_RECORD").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            for e in std::fs::read_dir(&dir).unwrap().flatten() {
                if mine(&e.file_name().to_string_lossy()) {
                    std::fs::remove_file(e.path()).unwrap();
                }
            }
            let mut kept = BTreeSet::new();
            for f in &got {
                if !kept.insert((f["event"].to_string(), shape_of(f))) {
                    continue;
                }
                let name = format!(
                    "{scenario}.{:02}.{}.json",
                    f["order"].as_u64().unwrap(),
                    f["event"].as_str().unwrap()
                );
                let text = serde_json::to_string_pretty(f).unwrap() + "\n";
                std::fs::write(dir.join(name), text).unwrap();
            }
            return;
        }
        let recorded: Vec<Value> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e} (record with HOOKX_RECORD=1)", dir.display()))
            .flatten()
            .filter(|e| mine(&e.file_name().to_string_lossy()))
            .map(|e| serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap())
            .collect();
        assert!(
            !recorded.is_empty(),
            "no recording of {scenario} (HOOKX_RECORD=1)"
        );
        let compared = |v: &[Value]| -> Vec<Value> {
            v.iter()
                .filter(|f| !racy.iter().any(|r| f["event"] == *r))
                .cloned()
                .collect()
        };
        let (want, have) = (shapes(&compared(&recorded)), shapes(&compared(&got)));
        assert_eq!(
            want.keys().collect::<Vec<_>>(),
            have.keys().collect::<Vec<_>>(),
            "{} {} fired other events in {scenario} than recorded",
            self.client,
            self.version
        );
        for (event, shapes) in &have {
            for s in shapes {
                assert!(
                    want[event].contains(s),
                    "{} {} sent a {event} payload of a new shape in {scenario}: {s:?}\nrecorded: {:?}",
                    self.client,
                    self.version,
                    want[event]
                );
            }
        }
    }
}

/// Keys and types, with every object key's path (`/tool_input/command:string`).
fn shape(v: &Value, at: String, out: &mut BTreeSet<String>) {
    let kind = match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    out.insert(format!("{at}:{kind}"));
    if let Value::Object(map) = v {
        for (k, v) in map {
            shape(v, format!("{at}/{k}"), out);
        }
    }
}

/// A fixture's payload shape plus the names of its variables.
fn shape_of(f: &Value) -> BTreeSet<String> {
    let mut s = BTreeSet::new();
    shape(&f["stdin"], String::new(), &mut s);
    let env = f["env"].as_object().into_iter().flatten();
    s.extend(env.map(|(k, _)| format!("$env/{k}")));
    s
}

fn shapes(fixtures: &[Value]) -> BTreeMap<String, BTreeSet<BTreeSet<String>>> {
    let mut out: BTreeMap<String, BTreeSet<BTreeSet<String>>> = BTreeMap::new();
    for f in fixtures {
        out.entry(f["event"].as_str().unwrap().to_string())
            .or_default()
            .insert(shape_of(f));
    }
    out
}
