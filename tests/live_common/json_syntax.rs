//! Hook files written in JSON with what some agents accept beyond strict JSON: `//` and
//! `/* */` comments, and a comma after the last item. Each live suite writes one file per
//! variant where its client reads hooks, and records whether the client ran them.

use serde_json::Value;
use std::path::Path;

/// One way a hook file departs from strict JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Strict JSON: shows that the client reads hooks from the file at all.
    Plain,
    /// `// …` lines before the object and inside it.
    LineComment,
    /// `/* … */` before the object and inside it.
    BlockComment,
    /// A comma after the last member of the top-level object.
    TrailingComma,
}

pub const VARIANTS: [Variant; 4] = [
    Variant::Plain,
    Variant::LineComment,
    Variant::BlockComment,
    Variant::TrailingComma,
];

impl Variant {
    /// `value` (an object) pretty-printed with this variant's departure from JSON.
    pub fn text(self, value: &Value) -> String {
        let pretty = serde_json::to_string_pretty(value).unwrap();
        let body = pretty
            .strip_prefix("{\n")
            .and_then(|rest| rest.strip_suffix("\n}"))
            .expect("an object with members");
        match self {
            Variant::Plain => pretty,
            Variant::LineComment => {
                format!("// hook probe: a line comment\n{{\n  // inside the object\n{body}\n}}\n")
            }
            Variant::BlockComment => {
                format!("/* hook probe:\n   a block comment */\n{{ /* inside */\n{body}\n}}\n")
            }
            Variant::TrailingComma => format!("{{\n{body},\n}}\n"),
        }
    }
}

/// Which of `labels` (each a word of a recorder's command) `hookx list --host HOST` says `host`
/// runs natively on `event` in `project`, after `hookx trust` (which may refuse some files);
/// `Err` with hookx's stderr when `list` fails.
pub fn hookx_native(
    (home, project): (&Path, &Path),
    host: &str,
    event: &str,
    labels: &[&str],
) -> Result<Vec<String>, String> {
    let hookx = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
            .args(args)
            .arg("--project")
            .arg(project)
            .arg("--home")
            .arg(home)
            .env("HOME", home)
            .output()
            .unwrap()
    };
    hookx(&["trust", "--yes"]);
    let out = hookx(&["list", "--host", host, "--format", "json"]);
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let commands: Vec<&str> = rows
        .iter()
        .filter(|r| r["event"] == event && r["run"] == "native")
        .filter_map(|r| r["handler"].as_str())
        .collect();
    let mut listed: Vec<String> = labels
        .iter()
        .filter(|label| commands.iter().any(|c| c.split(' ').any(|w| w == **label)))
        .map(|label| label.to_string())
        .collect();
    listed.sort();
    Ok(listed)
}
