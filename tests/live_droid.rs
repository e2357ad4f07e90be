//! A minimal live suite for Factory Droid 0.225.2 (ground truth; hookx has no Droid dialect):
//! `droid exec` offline, its model a custom OpenAI-compatible one (`customModels` in
//! `~/.factory/settings.json`) served by the fake model on 127.0.0.1, with a recording hook on
//! its 9 events. See conformance/README.md.

mod common;
#[path = "live_common/recorded.rs"]
mod recorded;
// The same OpenAI chat-completions API as Copilot's provider mode (no failing model call here).
#[allow(dead_code)]
#[path = "live_copilot/server.rs"]
mod server;

use serde_json::{Value, json};
use server::{FakeModel, Step};
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The platform package (npm has `@factory/cli` 0.225.1, whose platform packages start at
/// 0.225.2: the wrapper cannot find its binary, so the suite runs the binary itself).
const VERSION: &str = "0.225.2";
const LIMIT: Duration = Duration::from_secs(180);

/// Factory Droid's hook events (its hooks reference; all 9 appear in the 0.225.2 binary).
const EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "Notification",
    "Stop",
    "SubagentStop",
    "PreCompact",
    "SessionStart",
    "SessionEnd",
];

fn binary() -> Option<PathBuf> {
    let root = std::env::var_os("HOOKX_CLIENTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var("HOME").expect("HOME")).join(".cache/hookx-conformance")
        });
    let bin = root
        .join(format!("factory-{VERSION}"))
        .join("node_modules/@factory/cli-linux-x64/bin/droid");
    if bin.is_file() {
        return Some(bin);
    }
    if std::env::var("HOOKX_LIVE").as_deref() == Ok("require") {
        panic!("HOOKX_LIVE=require but {} is missing", bin.display());
    }
    eprintln!(
        "skip: Factory Droid {VERSION} not installed at {}",
        bin.display()
    );
    None
}

fn execute(command: &str) -> Step {
    Step::Tools(vec![(
        "Execute",
        json!({"summary": "Run one shell command", "command": command,
            "riskLevel": "low", "riskLevelReason": "prints text"}),
    )])
}

fn scripts(name: &str, project: &str) -> Vec<Step> {
    match name {
        "tools" => vec![
            execute("echo hello-droid"),
            execute("echo deny-json"),
            execute("echo deny-exit2"),
            Step::Tools(vec![(
                "Read",
                json!({"file_path": format!("{project}/notes.txt")}),
            )]),
            Step::Text("all done"),
        ],
        _ => vec![Step::Text("unknown scenario")],
    }
}

struct Dump {
    label: String,
    raw: String,
    stdin: Value,
    env: BTreeMap<String, String>,
    cwd: String,
}

/// What the recording hooks saw, in order (the Gemini suite's recorder).
fn dumps(root: &Path) -> Vec<Dump> {
    let dir = root.join("dump");
    let mut found: Vec<(u32, Dump)> = std::fs::read_dir(&dir)
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
            Some((
                seq.parse().ok()?,
                Dump {
                    label: label.to_string(),
                    stdin: serde_json::from_str(&raw).unwrap_or(Value::Null),
                    raw,
                    env: read("env")
                        .lines()
                        .filter_map(|l| l.split_once('='))
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect(),
                    cwd: read("cwd").trim_end().to_string(),
                },
            ))
        })
        .collect();
    found.sort_by_key(|(n, _)| *n);
    found.into_iter().map(|(_, d)| d).collect()
}

/// The recorder answers `stdout`/`stderr`/`exit` for `label` when its stdin contains `when`.
fn answer(root: &Path, label: &str, name: &str, when: &str, out: (&str, &str, i32)) {
    let dir = root.join("answers").join(label).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("match"), when).unwrap();
    std::fs::write(dir.join("stdout"), out.0).unwrap();
    std::fs::write(dir.join("stderr"), out.1).unwrap();
    std::fs::write(dir.join("exit"), out.2.to_string()).unwrap();
}

/// The text of the `role:"tool"` message answering the call whose arguments contain `text`.
fn tool_result(model: &FakeModel, text: &str) -> String {
    for body in model.requests_of("tools") {
        let messages = body["messages"].as_array().cloned().unwrap_or_default();
        let id = messages.iter().find_map(|m| {
            m["tool_calls"].as_array()?.iter().find_map(|c| {
                c["function"]["arguments"]
                    .as_str()?
                    .contains(text)
                    .then(|| c["id"].clone())
            })
        });
        let Some(id) = id else { continue };
        if let Some(reply) = messages
            .iter()
            .find(|m| m["role"] == "tool" && m["tool_call_id"] == id)
        {
            return match &reply["content"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
        }
    }
    panic!("no tool result for a call with {text:?}")
}

/// Ground truth: the recorder on every event in `~/.factory/settings.json`; Execute (context
/// after it), Execute denied by JSON, Execute denied by exit 2, Read of a missing file; a Stop
/// block that continues the turn.
#[test]
fn ground_truth_execute_and_answers() {
    let Some(bin) = binary() else { return };
    let dir = tempfile::Builder::new()
        .prefix("hookx-live-droid")
        .tempdir()
        .unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (home, project) = (root.join("home"), root.join("project"));
    for d in [&home, &project, &root.join("dump"), &root.join("answers")] {
        std::fs::create_dir_all(d).unwrap();
    }
    assert!(
        Command::new("git")
            .args(["init", "-q"])
            .current_dir(&project)
            .status()
            .unwrap()
            .success()
    );
    let dumper = root.join("dumper.sh");
    std::fs::write(&dumper, include_str!("live_gemini/dumper.sh")).unwrap();
    let model = FakeModel::start(scripts, project.display().to_string());
    let hooks: serde_json::Map<String, Value> = EVENTS
        .iter()
        .map(|e| {
            let command = format!("sh {} {} {e}", dumper.display(), root.display());
            (
                e.to_string(),
                json!([{"hooks": [{"type": "command", "command": command}]}]),
            )
        })
        .collect();
    let settings = json!({
        // Not a GPT name: Droid warns the model about a GPT model on this provider.
        "customModels": [{"model": "hookx-fake", "displayName": "fake",
            "baseUrl": format!("http://127.0.0.1:{}/v1", model.port), "apiKey": "dummy",
            "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}],
        "hooks": hooks,
    });
    common::write(&home, ".factory/settings.json", &settings.to_string());
    answer(
        &root,
        "PostToolUse",
        "a",
        "hello-droid",
        (
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX-POST"}}"#,
            "",
            0,
        ),
    );
    answer(
        &root,
        "PreToolUse",
        "a",
        "deny-json",
        (
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-DENY"}}"#,
            "",
            0,
        ),
    );
    answer(&root, "PreToolUse", "b", "deny-exit2", ("", "E-EXIT2", 2));
    answer(
        &root,
        "Stop",
        "a",
        r#""stop_hook_active":false"#,
        (r#"{"decision":"block","reason":"R-STOP-GO-ON"}"#, "", 0),
    );

    let mut cmd = Command::new(&bin);
    cmd.env_clear()
        .env("HOME", &home)
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("LANG", "C.UTF-8")
        .env("TERM", "dumb")
        .env("TMPDIR", std::env::temp_dir())
        // Any value passes offline: the custom model carries its own key.
        .env("FACTORY_API_KEY", "dummy")
        .args([
            "exec",
            "-m",
            "custom:fake-0",
            "--auto",
            "high",
            "-o",
            "json",
        ])
        .arg("SCENARIO:tools do the work")
        .current_dir(&project)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let child = cmd.spawn().expect("spawn droid");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = match rx.recv_timeout(LIMIT) {
        Ok(out) => out.expect("droid output"),
        Err(_) => {
            if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
            panic!("droid overran {LIMIT:?} in {}", root.display());
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if let Some(keep) = std::env::var_os("HOOKX_LIVE_KEEP") {
        let keep = Path::new(&keep).join("droid");
        let _ = std::fs::remove_dir_all(&keep);
        common::copy_tree(&root, &keep);
        let requests = serde_json::to_string_pretty(&model.chats()).unwrap();
        std::fs::write(keep.join("requests.json"), requests).unwrap();
        std::fs::write(keep.join("stdout.txt"), &stdout).unwrap();
        std::fs::write(keep.join("stderr.txt"), &stderr).unwrap();
    }
    let dumps = dumps(&root);
    let mut failed = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failed.push(what)
        }
    };
    check(
        out.status.success(),
        format!("exit {:?}: {stderr}", out.status),
    );
    let labels: Vec<&str> = dumps.iter().map(|d| d.label.as_str()).collect();
    for e in [
        "SessionStart",
        "PreToolUse",
        "PostToolUse",
        "Stop",
        "SessionEnd",
    ] {
        check(labels.contains(&e), format!("{e} fired: {labels:?}"));
    }
    // 0.225.2: `droid exec` fires no UserPromptSubmit.
    check(
        !labels.contains(&"UserPromptSubmit"),
        format!("no UserPromptSubmit: {labels:?}"),
    );
    // Claude's payload keys; Droid's tool names.
    for d in &dumps {
        check(
            d.stdin["hook_event_name"] == d.label.as_str()
                && d.stdin["session_id"].is_string()
                && d.stdin["cwd"] == project.display().to_string(),
            format!("{} common payload: {}", d.label, d.raw),
        );
        check(
            d.env.get("FACTORY_PROJECT_DIR") == Some(&project.display().to_string()),
            format!(
                "{} FACTORY_PROJECT_DIR: {:?}",
                d.label,
                d.env.get("FACTORY_PROJECT_DIR")
            ),
        );
    }
    let execute = dumps
        .iter()
        .find(|d| d.label == "PreToolUse" && d.raw.contains("hello-droid"));
    check(
        execute.is_some_and(|d| {
            d.stdin["tool_name"] == "Execute"
                && d.stdin["tool_input"]["command"] == "echo hello-droid"
        }),
        "PreToolUse names Execute with its command".into(),
    );
    let ok = tool_result(&model, "hello-droid");
    check(ok.contains("hello-droid"), format!("the call ran: {ok}"));
    // PostToolUse context reaches the model as a user message of its own, after the result.
    let context_after_result = model.requests_of("tools").iter().any(|b| {
        let m = b["messages"].as_array().cloned().unwrap_or_default();
        m.windows(2).any(|w| {
            w[0]["role"] == "tool" && w[1]["role"] == "user" && w[1]["content"] == "CTX-POST"
        })
    });
    check(
        context_after_result,
        "PostToolUse context as a user message".into(),
    );
    for (call, reason) in [("deny-json", "R-DENY"), ("deny-exit2", "E-EXIT2")] {
        let result = tool_result(&model, call);
        check(
            result == format!("Error: {reason}"),
            format!("{call}: denied with {reason}: {result}"),
        );
    }
    let continued = model
        .requests_of("tools")
        .iter()
        .any(|b| b["messages"].to_string().contains("R-STOP-GO-ON"));
    check(continued, "Stop block reason reached the model".into());
    let project_text = project.display().to_string();
    let seen: Vec<recorded::Seen> = dumps
        .iter()
        .map(|d| recorded::Seen {
            label: &d.label,
            raw: &d.raw,
            env: &d.env,
            cwd: &d.cwd,
        })
        .collect();
    recorded::Recording {
        client: "factory-droid",
        version: VERSION,
        folder: "droid",
        host: "droid",
        events: EVENTS,
        relevant_env: |key| {
            // What Droid sets for hooks, less the key the run gave it.
            (key.starts_with("FACTORY_") || key.starts_with("CLAUDE_") || key.starts_with("DROID_"))
                && key != "FACTORY_API_KEY"
        },
        placeholders: vec![
            (project_text.replace('/', "-"), "<project-slug>"),
            (project_text, "<project>"),
            (home.display().to_string(), "<home>"),
        ],
    }
    .check("tools", &seen);
    assert!(
        failed.is_empty(),
        "{} checks failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
