//! The matcher probe (attacks rows 1450-1469): which of [`MATCHERS`] a real client fires on
//! each tool call of a run, against which hookx predicts for the client's own file
//! (`hookx simulate --payload`, the call's recorded payload). The client's answers are kept as
//! `tests/fixtures/matchers/CLIENT-VERSION.json` (written under
//! `HOOKX_RECORD_MATCHERS=1`, else a live run is checked against it), which
//! `tests/matchers_recorded.rs` checks hookx against without the client. Included with
//! `#[path]`; each suite lays the matchers out in its own file, one recorder per matcher,
//! labelled [`label`].

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The matchers probed: case, anchors, partial names, the match-alls, lists with spaces and
/// commas, permission-rule syntax, invalid regexes, aliases, and each client's own tool names.
/// Strings only: a matcher that is no string turns off a whole file under some clients.
pub const MATCHERS: &[Option<&str>] = &[
    None,
    Some(""),
    Some("*"),
    Some(".*"),
    Some(" "),
    Some("Bash"),
    Some("bash"),
    Some("BASH"),
    Some("^Bash$"),
    Some("Bash$"),
    Some("Bas"),
    Some("ash"),
    Some("Edit"),
    Some("^Edit$"),
    Some("Edit | Write"),
    Some("Edit, Write"),
    Some("Edit|Write"),
    Some(".*Edit"),
    Some("dit"),
    Some("Bash(git *)"),
    Some("("),
    Some("["),
    Some("Task"),
    Some("^Task$"),
    Some("run_shell_command"),
    Some("shell"),
    Some("^run_shell_command$"),
    Some("Shell"),
    Some("write"),
    Some("file"),
    Some("_file"),
    Some("^write_file$"),
    Some("write_file"),
    Some("Write"),
    Some("WriteFile"),
    Some("edit"),
    Some("replace"),
    Some("Read"),
    Some("read_file"),
    Some("^read"),
    Some("Read|Bash"),
    Some("Ba.*"),
    Some("apply_patch"),
    Some("exec_command"),
    Some("Execute"),
    Some("Create"),
    Some("create"),
    Some("view"),
    Some("mcp__srv__.*"),
];

/// The recorder label of matcher `i`.
pub fn label(i: usize) -> String {
    format!("mx{i:02}")
}

/// The matcher a label stands for, if it is one.
pub fn index(label: &str) -> Option<usize> {
    label.strip_prefix("mx")?.parse().ok()
}

/// One tool call of a run: its payload (the sandbox's root written `/SANDBOX`) and the
/// matchers that fired on it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Call {
    pub payload: Value,
    pub fired: Vec<Option<String>>,
}

/// What a client fired, as recorded.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Recording {
    pub client: String,
    pub version: String,
    /// hookx's name for the client (`simulate --host`).
    pub host: String,
    pub event: String,
    /// The file the matchers sat in, relative to the home.
    pub file: String,
    pub calls: Vec<Call>,
}

/// The calls of a run: the payloads the match-all recorder (matcher 0, no matcher) saw, each
/// with the matchers whose recorders saw the same call (same tool name and input).
pub fn observed(dumps: &[(String, Value)], root: &Path) -> Vec<Call> {
    let key = |p: &Value| format!("{} {}", name(p), input(p));
    let mut calls = Vec::new();
    for (l, payload) in dumps {
        if l != &label(0) {
            continue;
        }
        let mut fired: Vec<usize> = dumps
            .iter()
            .filter(|(_, p)| key(p) == key(payload))
            .filter_map(|(l, _)| index(l))
            .collect();
        fired.sort();
        fired.dedup();
        let text = payload
            .to_string()
            .replace(&root.display().to_string(), "/SANDBOX");
        calls.push(Call {
            payload: serde_json::from_str(&text).unwrap(),
            fired: fired
                .into_iter()
                .map(|i| MATCHERS[i].map(str::to_string))
                .collect(),
        });
    }
    calls
}

/// A payload's tool name (`toolName` in Copilot's camelCase payloads).
pub fn name(p: &Value) -> &Value {
    p.get("tool_name").unwrap_or(&p["toolName"])
}

/// A payload's tool input (`toolArgs` in Copilot's camelCase payloads).
pub fn input(p: &Value) -> &Value {
    p.get("tool_input").unwrap_or(&p["toolArgs"])
}

/// The recording's file (`client` and version: `qwen-0.24.4`).
pub fn fixture(client: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/matchers")
        .join(format!("{client}.json"))
}

/// Records `now` under `HOOKX_RECORD_MATCHERS=1`; else the differences between `now` and the
/// recording, call by call (the client changed, or the run did).
pub fn settle(client: &str, now: &Recording) -> Vec<String> {
    let path = fixture(client);
    if std::env::var_os("HOOKX_RECORD_MATCHERS").is_some() {
        let text = serde_json::to_string_pretty(now).unwrap() + "\n";
        std::fs::write(&path, text).unwrap();
        return Vec::new();
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (record with HOOKX_RECORD_MATCHERS=1)",
            path.display()
        )
    });
    let then: Recording = serde_json::from_str(&text).unwrap();
    let tool = |c: &Call| format!("{} {}", name(&c.payload), input(&c.payload));
    let mut differ = Vec::new();
    if then.calls.len() != now.calls.len() {
        differ.push(format!(
            "{} calls recorded, {} now",
            then.calls.len(),
            now.calls.len()
        ));
    }
    for (a, b) in then.calls.iter().zip(&now.calls) {
        if a.fired != b.fired || tool(a) != tool(b) {
            differ.push(format!(
                "{}: recorded {:?}, now {} {:?}",
                tool(a),
                a.fired,
                tool(b),
                b.fired
            ));
        }
    }
    differ
}

/// The hook file of `host` holding one rule per matcher on `event`, each rule's command
/// `true mxNN`: the layout of the client's own file (Copilot's: flat entries, the command under
/// `bash` on camelCase events and `command` on PascalCase ones, as VS Code writes them).
pub fn hook_file(host: &str, event: &str) -> Value {
    let rules: Vec<Value> = MATCHERS
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let command = format!("true {}", label(i));
            let mut rule = if host == "copilot" {
                json!({"type": "command", copilot_command_key(event): command})
            } else {
                json!({"hooks": [{"type": "command", "command": command}]})
            };
            if let Some(m) = m {
                rule["matcher"] = json!(m);
            }
            rule
        })
        .collect();
    let mut body = json!({"hooks": {event: rules}});
    if host.starts_with("copilot") {
        body["version"] = json!(1);
    }
    body
}

/// The key of a flat Copilot entry's command on `event`: `bash` on camelCase events, `command`
/// on PascalCase ones.
pub fn copilot_command_key(event: &str) -> &'static str {
    match event.starts_with(char::is_lowercase) {
        true => "bash",
        false => "command",
    }
}

/// The matchers hookx says the client fires on `payload`, for the rules of [`hook_file`] at
/// `file` under a fresh home: `simulate --dry-run`'s native handlers, with those it says the
/// client runs but hookx would not (a folder not trusted).
pub fn hookx_fires(
    hookx: &Path,
    host: &str,
    event: &str,
    file: &str,
    payload: &Value,
) -> Vec<Option<String>> {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let at = home.join(file);
    std::fs::create_dir_all(at.parent().unwrap()).unwrap();
    std::fs::write(&at, hook_file(host, event).to_string()).unwrap();
    let sent = dir.path().join("payload.json");
    std::fs::write(&sent, payload.to_string()).unwrap();
    let out = std::process::Command::new(hookx)
        .args(["simulate", "--host", host, "--event", event, "--payload"])
        .arg(&sent)
        .arg("--project")
        .arg(&project)
        .arg("--home")
        .arg(&home)
        .args(["--dry-run", "--format", "json"])
        .env("HOME", &home)
        .current_dir(&project)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "simulate: {e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let native = &report["native"];
    let mut fired: Vec<usize> = native["would_run"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|w| w["command"].as_str()?.strip_prefix("true ").and_then(index))
        .collect();
    // `FILE (/hooks/EVENT/N): not run by HOST: …`: the matcher fires, the file is not read.
    let at_index = |s: &str| -> Option<usize> {
        let (_, rest) = s.split_once(&format!("/hooks/{event}/"))?;
        rest.split(')').next()?.parse().ok()
    };
    fired.extend(
        native["skipped"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|s| s.contains(": not run by "))
            .filter_map(at_index),
    );
    fired.sort();
    fired.dedup();
    fired
        .into_iter()
        .map(|i| MATCHERS[i].map(str::to_string))
        .collect()
}

/// What a client's run `rec` of `calls` calls shows that its recording `tag` (`qwen-0.24.4`) or
/// hookx's reading does not: every suite's probe checks the same three things.
pub fn differences(tag: &str, rec: &Recording, calls: usize) -> Vec<String> {
    let mut differ = Vec::new();
    if rec.calls.len() != calls {
        differ.push(format!("{calls} calls, {}", rec.calls.len()));
    }
    differ.extend(settle(tag, rec));
    let hookx = PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    differ.extend(against_hookx(&hookx, rec));
    differ
}

/// Each call where hookx's prediction differs from what the client fired.
pub fn against_hookx(hookx: &Path, rec: &Recording) -> Vec<String> {
    let mut differ = Vec::new();
    for call in &rec.calls {
        let predicted = hookx_fires(hookx, &rec.host, &rec.event, &rec.file, &call.payload);
        if predicted != call.fired {
            let only = |a: &[Option<String>], b: &[Option<String>]| -> Vec<Option<String>> {
                a.iter().filter(|m| !b.contains(m)).cloned().collect()
            };
            differ.push(format!(
                "{} {}: {} fired and hookx says not {:?}; hookx says fired and {} did not {:?}",
                name(&call.payload),
                input(&call.payload),
                rec.client,
                only(&call.fired, &predicted),
                rec.client,
                only(&predicted, &call.fired),
            ));
        }
    }
    differ
}
