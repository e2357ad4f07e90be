//! Real configs converted and run by the real target client (attacks rows 1760-1779). Each
//! committed corpus file of [`SAMPLE`] has every handler replaced by a recorder labelled
//! `TAG-N` (events, matchers, timeouts and order kept), is written into the target's project
//! file by `hookx convert --write`, and the client runs one scripted session. What ran is
//! compared with hookx's own reading of the source files under the same host, on the same
//! payloads: the source files at their places, trusted, routed by `install`, and each event the
//! client sent (a recorder with no matcher on every event of the converted file) given to
//! `simulate --dry-run`. Each rule must run as often on each event and tool, with a payload of
//! the same keys. `HOOKX_CONVERTED_EXTRA` (lines `FROM PLACE FILE`) widens the sample for a
//! pass's attack; CI runs [`SAMPLE`]. Included with `#[path]`.
#![allow(dead_code)] // each suite uses what it needs

use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A source config: its dialect, its place in a project, the file.
#[derive(Clone, Debug)]
pub struct Source {
    pub from: String,
    pub place: String,
    pub file: PathBuf,
}

/// The fixed sample CI runs (committed corpus files, sources in `corpus/SOURCES.txt`): varied
/// events, matchers on shell, write and edit tools, timeouts in each dialect's unit.
pub const SAMPLE: &[(&str, &str, &str)] = &[
    (
        "gemini",
        ".gemini/settings.json",
        "gemini/YosefHayim--Template--.gemini_settings.json",
    ),
    (
        "codex",
        ".codex/hooks.json",
        "codex/5uck1ess--devkit--.codex_hooks.json",
    ),
    (
        "droid",
        ".factory/settings.json",
        "droid/enkogu--oh-my-droid--.factory_settings.json",
    ),
    (
        "cursor",
        ".cursor/hooks.json",
        "cursor/YosefHayim--Template--.cursor_hooks.json",
    ),
    (
        "claude",
        ".claude/settings.json",
        "claude/goondocks-co--myco--.claude_settings.json",
    ),
    // Its folders are its author's (`/Users/winston/…`): on every other machine they are not
    // there (attacks row 1760).
    (
        "windsurf",
        ".windsurf/hooks.json",
        "windsurf/WinstonFassett--matchina--.windsurf_hooks.json",
    ),
];

/// The sample, less the files of `to`'s own dialect, plus `HOOKX_CONVERTED_EXTRA`'s lines.
pub fn sample(to: &str) -> Vec<Source> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corpus");
    let mut all: Vec<Source> = SAMPLE
        .iter()
        .map(|(from, place, file)| Source {
            from: from.to_string(),
            place: place.to_string(),
            file: corpus.join(file),
        })
        .collect();
    if let Ok(extra) = std::env::var("HOOKX_CONVERTED_EXTRA") {
        let text = std::fs::read_to_string(&extra).unwrap_or(extra);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut parts = line.split_whitespace();
            let (Some(from), Some(place), Some(file)) = (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            all.push(Source {
                from: from.into(),
                place: place.into(),
                file: file.into(),
            });
        }
    }
    all.retain(|s| s.from != to);
    all
}

/// A source with its handlers replaced by recorders.
pub struct Stamped {
    pub value: Value,
    /// Every recorder's label, in file order.
    pub labels: Vec<String>,
    /// The labels of handlers whose folder (`cwd`, `working_directory`) is an absolute path not
    /// on this machine: they cannot start anywhere, and are judged by what the session did.
    pub unstartable: Vec<String>,
}

/// Source `s` with each handler's command (`command`, `bash`) below `hooks` replaced by
/// `recorder(label)`, labels `TAG-0`, `TAG-1`, … in file order; `powershell` dropped, timeouts
/// below 30 s raised (`floor_timeouts`). The rest (events, matchers, folders, variables) is
/// kept.
pub fn stamp(s: &Source, tag: &str, recorder: &dyn Fn(&str) -> String) -> Stamped {
    // The dialects whose timeouts are in milliseconds.
    let in_ms = ["gemini", "qwen"].contains(&s.from.as_str());
    fn walk(
        v: &mut Value,
        tag: &str,
        in_ms: bool,
        recorder: &dyn Fn(&str) -> String,
        out: &mut Stamped,
    ) {
        match v {
            Value::Object(map) => {
                map.remove("powershell");
                floor_timeouts(map, in_ms);
                let gone = ["cwd", "working_directory"].iter().any(|k| {
                    map.get(*k)
                        .and_then(Value::as_str)
                        .is_some_and(|d| d.starts_with('/') && !Path::new(d).is_dir())
                });
                for key in ["command", "bash"] {
                    if map.get(key).is_some_and(Value::is_string) {
                        let label = format!("{tag}-{}", out.labels.len());
                        map.insert(key.into(), json!(recorder(&label)));
                        if gone {
                            out.unstartable.push(label.clone());
                        }
                        out.labels.push(label);
                    }
                }
                for (_, child) in map.iter_mut() {
                    walk(child, tag, in_ms, recorder, out);
                }
            }
            Value::Array(items) => items
                .iter_mut()
                .for_each(|c| walk(c, tag, in_ms, recorder, out)),
            _ => {}
        }
    }
    let mut out = Stamped {
        value: read_source(s),
        labels: Vec::new(),
        unstartable: Vec::new(),
    };
    if let Some(mut hooks) = out.value.get_mut("hooks").map(Value::take) {
        walk(&mut hooks, tag, in_ms, recorder, &mut out);
        out.value["hooks"] = hooks;
    }
    out
}

/// The tag of source `i` (`s3-codex`).
pub fn tag(i: usize, s: &Source) -> String {
    format!("s{i}{}", s.from)
}

/// Reads a source (JSON with comments allowed: hookx reads them so).
pub fn read_source(s: &Source) -> Value {
    let text = std::fs::read_to_string(&s.file).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", s.file.display()))
}

/// `hookx convert FILE --from FROM --to TO --write --project PROJECT --hookx HOOKX`.
pub fn convert_write(
    project: &Path,
    home: &Path,
    file: &Path,
    from: &str,
    to: &str,
    hookx: &str,
) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hookx"))
        .arg("convert")
        .arg(file)
        .args(["--from", from, "--to", to, "--write", "--hookx", hookx])
        .arg("--project")
        .arg(project)
        .env("HOME", home)
        .env_remove("HOOKX_HOME")
        .current_dir(project)
        .output()
        .unwrap()
}

/// The sample for `to`, each source stamped (`stamp`, recorders by `recorder`), saved under
/// `scratch` and written into `project` by `convert --write --hookx HOOKX`.
pub struct Converted {
    /// Each source's place and its stamped value, as `expected` takes them.
    pub stamped: Vec<(String, Value)>,
    pub labels: Vec<String>,
    pub unstartable: Vec<String>,
    /// A line for each `convert` that failed.
    pub failures: Vec<String>,
}

pub fn convert_sample(
    to: &str,
    project: &Path,
    home: &Path,
    scratch: &Path,
    hookx: &str,
    recorder: &dyn Fn(&str) -> String,
) -> Converted {
    let mut out = Converted {
        stamped: Vec::new(),
        labels: Vec::new(),
        unstartable: Vec::new(),
        failures: Vec::new(),
    };
    for (i, s) in sample(to).iter().enumerate() {
        let mut one = stamp(s, &tag(i, s), recorder);
        let at = scratch.join(format!("source-{i}.json"));
        std::fs::write(&at, one.value.to_string()).unwrap();
        let done = convert_write(project, home, &at, &s.from, to, hookx);
        if !done.status.success() {
            out.failures.push(format!(
                "convert {}: {}",
                s.file.display(),
                String::from_utf8_lossy(&done.stderr)
            ));
        }
        out.stamped.push((s.place.clone(), one.value));
        out.labels.append(&mut one.labels);
        out.unstartable.append(&mut one.unstartable);
    }
    out
}

/// Adds to the hook file at `path` a rule with no matcher on every event it holds, its command
/// `recorder(event)`: a group in a grouped file (Claude's `{"hooks": [...]}` under each event),
/// a handler in a flat one (Copilot's), its command under the key its neighbours use.
pub fn add_catch_all(path: &Path, recorder: &dyn Fn(&str) -> String) -> Vec<String> {
    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut events = Vec::new();
    if let Some(map) = file["hooks"].as_object_mut() {
        for (event, rules) in map.iter_mut() {
            if let Some(list) = rules.as_array_mut() {
                let first = list.first().cloned().unwrap_or_default();
                if first.get("hooks").is_some() || list.is_empty() {
                    list.push(json!({"hooks": [{"type": "command", "command": recorder(event)}]}));
                } else {
                    let key = if first.get("bash").is_some() {
                        "bash"
                    } else {
                        "command"
                    };
                    list.push(json!({"type": "command", key: recorder(event)}));
                }
                events.push(event.clone());
            }
        }
    }
    std::fs::write(path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
    events
}

/// One run of a rule: its label, the event and tool its payload names (as its own dialect
/// spells them), and the payload's keys.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Ran {
    pub label: String,
    pub event: String,
    pub tool: String,
    pub keys: Vec<String>,
}

impl Ran {
    pub fn of(label: &str, stdin: &Value) -> Ran {
        let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").to_string();
        let mut keys: Vec<String> = stdin
            .as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        // `hookx run` counts Cursor's follow-ups into `loop_count` when it runs the hook, after
        // `simulate --dry-run` shows the payload: not a difference of the conversion.
        keys.retain(|k| k != "loop_count");
        keys.sort();
        Ran {
            label: label.into(),
            event: text(
                stdin
                    .get("hook_event_name")
                    .or(stdin.get("hookEventName"))
                    .or(stdin.get("agent_action_name")),
            ),
            tool: text(stdin.get("tool_name").or(stdin.get("toolName"))),
            keys,
        }
    }
}

/// What hookx's own reading runs of the source files on each event the client sent (`sent`:
/// the host's event name and payload): the target's converted file removed from `project`,
/// then each stamped source alone at its place, trusted in `home` (the run's own: what the client's settings there say it reads counts), routed with `install --host
/// HOST` at project scope, and each payload given to `simulate --dry-run`.
pub fn expected(
    project: &Path,
    home: &Path,
    host: &str,
    target_file: &Path,
    sources: &[(String, Value)],
    sent: &[(String, Value)],
) -> Vec<Ran> {
    let hookx = env!("CARGO_BIN_EXE_hookx");
    let _ = std::fs::remove_file(target_file);
    std::fs::create_dir_all(home).unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(hookx)
            .args(args)
            .arg("--project")
            .arg(project)
            .arg("--home")
            .arg(home)
            .env("HOME", home)
            .env_remove("HOOKX_HOME")
            .current_dir(project)
            .output()
            .unwrap();
        assert!(
            out.status.success() || args[0] == "simulate",
            "hookx {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let mut ran = Vec::new();
    for (place, value) in sources {
        // An `async` handler runs once per event under its own agent, in the background; hookx's
        // route runs it past its answer, and `simulate --dry-run` names it among its notes, not
        // `would_run`. Where and on what it runs is the question here, so the reading is asked of
        // it as a plain handler.
        let mut value = value.clone();
        unasync(&mut value);
        let at = project.join(place);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(&at, serde_json::to_string_pretty(&value).unwrap()).unwrap();
        run(&["trust", "-y"]);
        run(&["install", "--host", host]);
        for (i, (event, payload)) in sent.iter().enumerate() {
            let file = home.join(format!("sent-{i}.json"));
            std::fs::write(&file, payload.to_string()).unwrap();
            let out = run(&[
                "simulate",
                "--host",
                host,
                "--event",
                event,
                "--payload",
                file.to_str().unwrap(),
                "--dry-run",
                "--format",
                "json",
            ]);
            let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
                panic!(
                    "simulate {event}: {e}: {}",
                    String::from_utf8_lossy(&out.stderr)
                )
            });
            for w in report["would_run"].as_array().into_iter().flatten() {
                let Some(label) = w["command"].as_str().and_then(label_in) else {
                    continue;
                };
                ran.push(Ran::of(&label, &w["stdin"]));
            }
        }
        std::fs::remove_file(&at).unwrap();
    }
    ran.sort();
    ran
}

/// Raises a handler's timeout below 30 s (Droid's 3, Gemini's 4000 ms, a Kiro agent's
/// `timeout_ms` 3000) to 30 s in its own unit: a loaded machine must not time the recorder out
/// before it writes (seen at a load of 23 on two cores, and of 30 under Qwen for Kiro's). The
/// units still go through the conversion.
fn floor_timeouts(map: &mut serde_json::Map<String, Value>, in_ms: bool) {
    let is_handler = map.contains_key("command") || map.contains_key("bash");
    for (key, ms) in [
        ("timeout", in_ms),
        ("timeoutSec", false),
        ("timeout_ms", true),
    ] {
        let floor = if ms { 30_000 } else { 30 };
        let Some(t) = map.get(key).and_then(Value::as_u64) else {
            continue;
        };
        if is_handler && t > 0 && t < floor {
            map.insert(key.into(), json!(floor));
        }
    }
}

/// `value` without its `async` keys.
fn unasync(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.remove("async");
            map.values_mut().for_each(unasync);
        }
        Value::Array(items) => items.iter_mut().for_each(unasync),
        _ => {}
    }
}

/// The recorder label a command names (`… LABEL EVENT`, the second word after the script).
pub fn label_in(command: &str) -> Option<String> {
    command
        .split_whitespace()
        .find(|w| {
            w.starts_with('s')
                && w.contains('-')
                && w[1..].starts_with(|c: char| c.is_ascii_digit())
        })
        .map(|w| w.trim_matches('\'').to_string())
}

/// How often a rule ran on one event and tool, and the key sets of its payloads.
type Seen = (usize, Vec<Vec<String>>);

/// Each difference between what hookx's reading runs and what the client ran: a rule run more
/// or less often on an event and tool, or with a payload of other keys.
/// Labels in `skip` (handlers that cannot start) are left out.
pub fn differences(expected: &[Ran], observed: &[Ran], skip: &[String]) -> Vec<String> {
    let count = |list: &[Ran]| {
        let mut m: BTreeMap<(String, String, String), Seen> = BTreeMap::new();
        for r in list.iter().filter(|r| !skip.contains(&r.label)) {
            let e = m
                .entry((r.label.clone(), r.event.clone(), r.tool.clone()))
                .or_default();
            e.0 += 1;
            if !e.1.contains(&r.keys) {
                e.1.push(r.keys.clone());
            }
        }
        m
    };
    let (want, got) = (count(expected), count(observed));
    let mut differ = Vec::new();
    let keys: std::collections::BTreeSet<_> = want.keys().chain(got.keys()).collect();
    for k in keys {
        let (w, g) = (want.get(k), got.get(k));
        let (wn, gn) = (w.map_or(0, |x| x.0), g.map_or(0, |x| x.0));
        if wn != gn {
            differ.push(format!(
                "{} on {} {}: hookx's reading runs it {wn} times, the client ran it {gn}",
                k.0, k.1, k.2
            ));
        } else if let (Some(w), Some(g)) = (w, g)
            && w.1 != g.1
        {
            differ.push(format!(
                "{} on {} {}: payload keys {:?} by hookx's reading, {:?} run",
                k.0, k.1, k.2, w.1, g.1
            ));
        }
    }
    differ
}

/// This process's `PATH` less every folder holding a `hookx` (the teammate without hookx; the
/// clients' own `node` stays).
pub fn path_without_hookx() -> String {
    let path = std::env::var("PATH").unwrap_or_default();
    let hookx_dir = Path::new(env!("CARGO_BIN_EXE_hookx")).parent().unwrap();
    let mut dirs: Vec<&str> = path
        .split(':')
        .filter(|d| !Path::new(d).join("hookx").exists() && Path::new(d) != hookx_dir)
        .collect();
    dirs.extend(["/usr/local/bin", "/usr/bin", "/bin"]);
    dirs.join(":")
}

/// What a converted session ran against hookx's reading of its sources ([`expected`]): `dumps`
/// are every recorder's label and stdin in the order they ran, the catch-alls' labelled
/// `all-EVENT` (as [`add_catch_all`] given `|e| dumper(&format!("all-{e}"))` writes them).
/// Each difference is a line; so is a reading that runs no rule at all.
pub fn judge(
    project: &Path,
    home: &Path,
    host: &str,
    target_file: &Path,
    done: &Converted,
    dumps: &[(String, Value)],
) -> Vec<String> {
    let sent: Vec<(String, Value)> = dumps
        .iter()
        .filter_map(|(l, v)| Some((l.strip_prefix("all-")?.to_string(), v.clone())))
        .collect();
    let mut observed: Vec<Ran> = dumps
        .iter()
        .filter(|(l, _)| label_in(l).is_some())
        .map(|(l, v)| Ran::of(l, v))
        .collect();
    observed.sort();
    let want = expected(project, home, host, target_file, &done.stamped, &sent);
    let mut out = differences(&want, &observed, &done.unstartable);
    if want.is_empty() {
        out.push(format!(
            "hookx's reading runs no rule on the {} events the client sent",
            sent.len()
        ));
    }
    out.extend(done.failures.iter().cloned());
    out
}
