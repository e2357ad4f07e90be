//! Attacks rows 1860-1879: MCP server and tool names with `-`, `.`, `_`, `__`, upper case,
//! non-ASCII letters, a space and a long name, served by `mcp_server.js` under each real
//! client. A suite's probe calls each tool once (its text `n<INDEX>` of [`CALLS`]) and records,
//! per call, the server and tool that ran (the server's own log) and the name each hook event
//! gave it, as `tests/fixtures/mcp-names/CLIENT-VERSION.json`; `tests/mcp_names.rs` compares
//! hookx's reading of those names with what ran.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;

/// A server name past 64 characters with the tool's, where some agents cut or hash names.
pub const LONG: &str = "a_very_long_server_name_that_goes_well_past_the_limit_of_64_chars";

/// The probe's servers and the tools each serves besides `run` and `Bash`.
pub const SERVERS: &[(&str, &str)] = &[
    ("srv", "my-tool,dot.tool,Up_Tool,a__b,sp ace,tö"),
    ("x-y", ""),
    ("p.q", ""),
    ("a__b", ""),
    ("Up_Case", ""),
    ("café", ""),
    ("s p", ""),
    (LONG, ""),
];

/// The calls made, as (server, tool) as configured; the call's text is `n<INDEX>`.
pub const CALLS: &[(&str, &str)] = &[
    ("srv", "run"),
    ("srv", "my-tool"),
    ("srv", "dot.tool"),
    ("srv", "Up_Tool"),
    ("srv", "a__b"),
    ("srv", "sp ace"),
    ("srv", "tö"),
    ("x-y", "run"),
    ("p.q", "run"),
    ("a__b", "run"),
    ("Up_Case", "run"),
    ("café", "run"),
    ("s p", "run"),
    (LONG, "run"),
];

/// `mcpServers` for [`SERVERS`]: each `node` running `script` (`mcp_server.js`) that logs its
/// calls to `log`, with `keys` (an object) besides `command` and `args`.
pub fn servers(script: &Path, log: &Path, keys: Value) -> serde_json::Map<String, Value> {
    SERVERS
        .iter()
        .map(|(s, extra)| {
            let mut server = json!({"command": "node", "args": server_args(script, s, extra, log)});
            for (key, value) in keys.as_object().into_iter().flatten() {
                server[key] = value.clone();
            }
            (s.to_string(), server)
        })
        .collect()
}

/// Each rule `(label, tools)` that ran on other tools (`tool_name`) than `tools`, as a failed
/// check (`said` before it, the client's `stderr` after): `runs` is each hook run's label and
/// payload.
pub fn ran_otherwise<'a>(
    runs: impl IntoIterator<Item = (&'a str, &'a Value)>,
    rules: &[(&str, Vec<&str>)],
    said: &str,
    stderr: &str,
) -> Vec<String> {
    let runs: Vec<(&str, &Value)> = runs.into_iter().collect();
    rules
        .iter()
        .filter_map(|(label, want)| {
            let got: Vec<&str> = runs
                .iter()
                .filter(|(l, _)| l == label)
                .filter_map(|(_, stdin)| stdin["tool_name"].as_str())
                .collect();
            (got != *want).then(|| format!("{said}{label} ran on {got:?}, not {want:?}\n{stderr}"))
        })
        .collect()
}

/// The text of call `i`.
pub fn text(i: usize) -> String {
    format!("n{i}")
}

/// The index of the call whose text a payload's arguments hold, if any.
pub fn call_of(stdin: &Value) -> Option<usize> {
    let args = [
        "toolArgs",
        "tool_input",
        "toolInput",
        "args",
        "input",
        "arguments",
    ]
    .iter()
    .find_map(|k| stdin.get(*k).filter(|v| !v.is_null()))?;
    let args = match args {
        Value::String(s) => serde_json::from_str(s).unwrap_or(Value::Null),
        v => v.clone(),
    };
    let text = args.get("text")?.as_str()?;
    let i: usize = text.strip_prefix('n')?.parse().ok()?;
    (i < CALLS.len()).then_some(i)
}

/// The tool name a payload gives: the first of the keys agents name it by.
pub fn name_in(stdin: &Value) -> Option<String> {
    ["tool_name", "toolName", "tool"]
        .iter()
        .find_map(|k| stdin.get(*k)?.as_str())
        .map(str::to_string)
}

/// The calls the servers ran, from their log (`SERVER TOOL TEXT` a line; names may hold a
/// space, so a line is read against the servers and tools served).
pub fn ran(log: &Path) -> BTreeMap<usize, (String, String)> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let served: Vec<(&str, &str)> = SERVERS
        .iter()
        .flat_map(|(server, extra)| {
            ["run", "Bash"]
                .into_iter()
                .chain(extra.split(',').filter(|t| !t.is_empty()))
                .map(move |tool| (*server, tool))
        })
        .collect();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some((rest, marker)) = line.rsplit_once(' ') else {
            continue;
        };
        let Some(i) = marker.strip_prefix('n').and_then(|n| n.parse().ok()) else {
            continue;
        };
        if let Some((server, tool)) = served
            .iter()
            .find(|(server, tool)| rest == format!("{server} {tool}"))
        {
            out.insert(i, (server.to_string(), tool.to_string()));
        }
    }
    out
}

/// The recording of a run: per call, what ran and each event's name for it (`events`:
/// (event, payload) of every hook run, in order).
pub fn recording(
    client: &str,
    version: &str,
    how: &str,
    offered: Value,
    events: &[(String, Value)],
    log: &Path,
) -> Value {
    let ran = ran(log);
    let calls: Vec<Value> = CALLS
        .iter()
        .enumerate()
        .map(|(i, (server, tool))| {
            let mut names = serde_json::Map::new();
            for (event, stdin) in events {
                if call_of(stdin) == Some(i)
                    && let Some(name) = name_in(stdin)
                {
                    names.entry(event.clone()).or_insert(json!(name));
                }
            }
            // What ran: the server and tool the server's log names, which need not be the call's.
            let ran = ran.get(&i).map(|(s, t)| json!([s, t]));
            let mut call = json!({"server": server, "tool": tool, "ran": ran, "events": names});
            for key in ["mcp_server", "mcp_context", "serverName"] {
                if let Some((_, stdin)) = events
                    .iter()
                    .find(|(_, s)| call_of(s) == Some(i) && s.get(key).is_some())
                {
                    call[key] = match key {
                        // Gemini's also holds the server's command and arguments (paths).
                        "mcp_context" => json!({"server_name": stdin[key]["server_name"],
                            "tool_name": stdin[key]["tool_name"]}),
                        _ => stdin[key].clone(),
                    };
                }
            }
            call
        })
        .collect();
    json!({"client": client, "version": version, "how": how, "offered": offered, "calls": calls})
}

/// Compares `got` with the recording of `name`, or writes it (`HOOKX_RECORD` set); the
/// difference, if any.
pub fn check(name: &str, got: &Value) -> Option<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/mcp-names")
        .join(format!("{name}.json"));
    if std::env::var_os("HOOKX_RECORD").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, serde_json::to_string_pretty(got).unwrap() + "\n").unwrap();
        return None;
    }
    let want: Value = std::fs::read_to_string(&path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(Value::Null);
    (want["calls"] != got["calls"]).then(|| {
        format!(
            "MCP names differ from {}:\n{}",
            path.display(),
            serde_json::to_string_pretty(&got["calls"]).unwrap()
        )
    })
}

/// `mcp_server.js`'s arguments for server `name`, logging to `log`.
pub fn server_args(script: &Path, name: &str, extra: &str, log: &Path) -> Vec<String> {
    vec![
        script.display().to_string(),
        name.to_string(),
        log.display().to_string(),
        extra.to_string(),
    ]
}
