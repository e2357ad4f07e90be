//! A minimal live suite for the Cline CLI 3.0.65 (ground truth; hookx has no Cline dialect):
//! `cline --json PROMPT` offline, its provider OpenAI-compatible (`cline auth -p openai -b URL`,
//! run in the sandbox) against the fake model on 127.0.0.1, with a recording hook as the
//! executable of each event in `~/.cline/hooks/`. See conformance/README.md.

mod common;
#[path = "live_common/minimal.rs"]
mod minimal;
#[path = "live_common/recorded.rs"]
mod recorded;
// The same OpenAI chat-completions API as Copilot's provider mode (no failing model call here).
#[allow(dead_code)]
#[path = "live_copilot/server.rs"]
mod server;

use minimal::Sandbox;
use serde_json::json;
use server::{FakeModel, Step};

const VERSION: &str = "3.0.65";

/// Hook file names (Cline's docs; SessionShutdown and TaskError from its SDK).
const EVENTS: &[&str] = &[
    "TaskStart",
    "TaskResume",
    "TaskCancel",
    "TaskComplete",
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "PreCompact",
    "Notification",
    "TaskError",
    "SessionShutdown",
];

fn run(command: &str) -> Step {
    Step::Tools(vec![("run_commands", json!({"commands": [command]}))])
}

fn scripts(name: &str, _project: &str) -> Vec<Step> {
    match name {
        "tools" => vec![
            run("echo hello-cline"),
            run("echo cancel-me"),
            Step::Text("all done"),
        ],
        _ => vec![Step::Text("unknown scenario")],
    }
}

/// Ends the hub daemon Cline started for a sandbox (the one whose command line names the
/// sandbox's project), by its pid, when dropped.
struct HubGuard(String);

impl Drop for HubGuard {
    fn drop(&mut self) {
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|p| p.parse::<i32>().ok())
            else {
                continue;
            };
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains("--cline-hub-daemon")
                && cmdline.contains(&self.0)
                && let Some(pid) = rustix::process::Pid::from_raw(pid)
            {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
            }
        }
    }
}

/// Ground truth: the recorder as every hook file; a shell call that runs (context after it),
/// one a PreToolUse hook cancels, then the end of the task.
#[test]
fn ground_truth_run_commands_and_answers() {
    let Some(bin) = minimal::client(
        &format!("cline-{VERSION}/node_modules/@cline/cli-linux-x64/bin/cline"),
        "Cline CLI",
    ) else {
        return;
    };
    let sb = Sandbox::new("hookx-live-cline");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let mut auth = sb.command(&bin);
    auth.args(["auth", "-p", "openai", "-k", "dummy", "-m", "gpt-4.1", "-b"])
        .arg(format!("http://127.0.0.1:{}/v1", model.port));
    let configured = sb.run(auth);
    assert!(
        configured.status.success(),
        "cline auth: {}",
        String::from_utf8_lossy(&configured.stderr)
    );
    for e in EVENTS {
        let path = common::write(
            &sb.home,
            &format!(".cline/hooks/{e}"),
            &format!("#!/bin/sh\nexec {}\n", sb.dumper(e)),
        );
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    sb.answer(
        "PostToolUse",
        "a",
        "hello-cline",
        (r#"{"contextModification":"CTX-POST"}"#, "", 0),
    );
    sb.answer(
        "PreToolUse",
        "a",
        "cancel-me",
        (r#"{"cancel":true,"errorMessage":"R-CANCEL"}"#, "", 0),
    );

    // Cline starts a hub daemon in a session of its own, which outlives the run and which
    // later runs would share: each run gets its own port, and the guard ends its daemon.
    let hub_port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let _hub = HubGuard(sb.project.display().to_string());
    let mut cmd = sb.command(&bin);
    cmd.env("CLINE_HUB_PORT", hub_port.to_string())
        .args(["--json", "SCENARIO:tools do the work"]);
    let out = sb.run(cmd);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if let Some(keep) = std::env::var_os("HOOKX_LIVE_KEEP") {
        let keep = std::path::Path::new(&keep).join("cline");
        let _ = std::fs::remove_dir_all(&keep);
        common::copy_tree(&sb.root, &keep);
        let requests = serde_json::to_string_pretty(&model.chats()).unwrap();
        std::fs::write(keep.join("requests.json"), requests).unwrap();
        std::fs::write(keep.join("stdout.txt"), &stdout).unwrap();
    }
    let dumps = sb.dumps();
    let requests = model.requests_of("tools");
    let project = sb.project.display().to_string();
    let mut failed = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failed.push(what)
        }
    };
    check(out.status.success(), format!("exit {:?}", out.status));
    let labels: Vec<&str> = dumps.iter().map(|d| d.label.as_str()).collect();
    check(!labels.is_empty(), "hooks ran".into());
    for d in &dumps {
        check(
            d.stdin["taskId"].is_string() && d.stdin["workspaceRoots"] == json!([project]),
            format!("{} common payload: {}", d.label, d.raw),
        );
    }
    // The hook file names and the `hookName` each payload carries.
    for (label, hook_name) in [
        ("TaskStart", "agent_start"),
        ("PreToolUse", "tool_call"),
        ("PostToolUse", "tool_result"),
        ("SessionShutdown", "session_shutdown"),
    ] {
        let names: Vec<&serde_json::Value> = dumps
            .iter()
            .filter(|d| d.label == label)
            .map(|d| &d.stdin["hookName"])
            .collect();
        check(
            !names.is_empty() && names.iter().all(|n| **n == hook_name),
            format!("{label} fired with hookName {hook_name}: {names:?}"),
        );
    }
    let ran = minimal::tool_result(&requests, "hello-cline");
    check(ran.contains("hello-cline"), format!("the call ran: {ran}"));
    // PostToolUse `contextModification` reaches the model as a user message after the result.
    let context = requests.iter().any(|b| {
        b["messages"].as_array().into_iter().flatten().any(|m| {
            m["role"] == "user"
                && m["content"].as_str().is_some_and(|c| {
                    c.starts_with("<hook_context source=\"PostToolUse\"") && c.contains("CTX-POST")
                })
        })
    });
    check(
        context,
        "PostToolUse context as a <hook_context> user message".into(),
    );
    // PreToolUse `cancel: true` aborts the whole run: the call never runs, its result never
    // goes back, no further model request; the run ends `aborted` (exit 0).
    check(
        !dumps
            .iter()
            .any(|d| d.label == "PostToolUse" && d.raw.contains("cancel-me")),
        "the cancelled call did not run".into(),
    );
    check(
        !requests.iter().any(|b| {
            b["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|m| m["role"] == "tool" && m.to_string().contains("cancel-me"))
        }),
        "no result of the cancelled call reached the model".into(),
    );
    check(
        stdout.contains(r#""finishReason":"aborted""#),
        "the run ended aborted".into(),
    );
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
        client: "cline",
        version: VERSION,
        folder: "cline",
        host: "cline",
        events: EVENTS,
        // What Cline sets for hooks, less its launcher line and the hub port the run gave it.
        relevant_env: |key| {
            key.starts_with("CLINE_")
                && !matches!(key, "CLINE_CONNECTOR_CLI_LAUNCH" | "CLINE_HUB_PORT")
        },
        placeholders: vec![
            (project.clone(), "<project>"),
            (sb.home.display().to_string(), "<home>"),
        ],
    }
    .check("tools", &seen, &[]);
    assert!(
        failed.is_empty(),
        "{} checks failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
