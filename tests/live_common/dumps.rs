//! What the recording hooks of the live suites saved: one `SEQ.LABEL.{stdin,env,cwd}` triple
//! per hook run in a `dump` folder. Every suite's recorder writes this layout; included with
//! `#[path]` by each suite's client.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// One recorded hook run.
#[derive(Clone, Debug)]
pub struct Dump {
    pub order: u32,
    pub label: String,
    pub raw: String,
    pub stdin: Value,
    pub env: BTreeMap<String, String>,
    pub cwd: String,
}

/// The hook runs recorded in `dir`, in the order they ran.
pub fn read(dir: &Path) -> Vec<Dump> {
    let mut found: Vec<Dump> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let (seq, label) = name.strip_suffix(".stdin")?.split_once('.')?;
            let read = |ext: &str| {
                std::fs::read_to_string(dir.join(format!("{seq}.{label}.{ext}")))
                    .unwrap_or_default()
            };
            let raw = read("stdin");
            Some(Dump {
                order: seq.parse().ok()?,
                label: label.to_string(),
                stdin: serde_json::from_str(&raw).unwrap_or(Value::Null),
                raw,
                env: read("env")
                    .lines()
                    .filter_map(|l| l.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
                cwd: read("cwd").trim_end().to_string(),
            })
        })
        .collect();
    found.sort_by_key(|d| d.order);
    found
}

/// How many of `dumps` are labelled `label` and are of a call of one of `tools` (its
/// `tool_name`; any payload where `tools` is empty).
#[allow(dead_code)] // not every suite counts its recorders' runs
pub fn count(dumps: &[Dump], label: &str, tools: &[&str]) -> usize {
    dumps
        .iter()
        .filter(|d| d.label == label)
        .filter(|d| tools.is_empty() || tools.iter().any(|t| d.stdin["tool_name"] == *t))
        .count()
}
