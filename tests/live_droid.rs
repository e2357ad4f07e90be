//! A minimal live suite for Factory Droid 0.225.2 (ground truth; hookx has no Droid dialect):
//! `droid exec` offline, its model a custom OpenAI-compatible one (`customModels` in
//! `~/.factory/settings.json`) served by the fake model on 127.0.0.1, with a recording hook on
//! its 9 events. See conformance/README.md.

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
use serde_json::{Value, json};
use server::{FakeModel, Step};

/// The platform package: npm has the wrapper `@factory/cli` at 0.225.1 only and its platform
/// packages from 0.225.2 on, so the wrapper finds no binary; the binary is the program.
const VERSION: &str = "0.225.2";

/// Factory Droid's hook events (its hooks reference; all 9 names are in the 0.225.2 binary).
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
        "text" => vec![Step::Text("nothing to do")],
        _ => vec![Step::Text("unknown scenario")],
    }
}

/// Ground truth: the recorder on every event in `~/.factory/settings.json`; Execute (context
/// after it), Execute denied by JSON, Execute denied by exit 2, Read of a missing file; a Stop
/// block that continues the turn.
#[test]
fn ground_truth_execute_and_answers() {
    let Some(bin) = minimal::client(
        &format!("factory-{VERSION}/node_modules/@factory/cli-linux-x64/bin/droid"),
        "Factory Droid",
    ) else {
        return;
    };
    let sb = Sandbox::new("hookx-live-droid");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let hooks: serde_json::Map<String, Value> = EVENTS
        .iter()
        .map(|e| {
            let group = json!([{"hooks": [{"type": "command", "command": sb.dumper(e)}]}]);
            (e.to_string(), group)
        })
        .collect();
    let settings = json!({
        // Not a GPT name: Droid warns the model about a GPT model on this provider.
        "customModels": [{"model": "hookx-fake", "displayName": "fake",
            "baseUrl": format!("http://127.0.0.1:{}/v1", model.port), "apiKey": "dummy",
            "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}],
        "hooks": hooks,
    });
    common::write(&sb.home, ".factory/settings.json", &settings.to_string());
    sb.answer("PostToolUse", "a", "hello-droid",
        (r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX-POST"}}"#, "", 0));
    sb.answer("PreToolUse", "a", "deny-json",
        (r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-DENY"}}"#, "", 0));
    sb.answer("PreToolUse", "b", "deny-exit2", ("", "E-EXIT2", 2));
    sb.answer(
        "Stop",
        "a",
        r#""stop_hook_active":false"#,
        (r#"{"decision":"block","reason":"R-STOP-GO-ON"}"#, "", 0),
    );

    let mut cmd = sb.command(&bin);
    // Any value passes offline: the custom model carries its own key.
    cmd.env("FACTORY_API_KEY", "dummy")
        .args([
            "exec",
            "-m",
            "custom:fake-0",
            "--auto",
            "high",
            "-o",
            "json",
        ])
        .arg("SCENARIO:tools do the work");
    let out = sb.run(cmd);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Some(keep) = std::env::var_os("HOOKX_LIVE_KEEP") {
        let keep = std::path::Path::new(&keep).join("droid");
        let _ = std::fs::remove_dir_all(&keep);
        common::copy_tree(&sb.root, &keep);
        let requests = serde_json::to_string_pretty(&model.chats()).unwrap();
        std::fs::write(keep.join("requests.json"), requests).unwrap();
        std::fs::write(keep.join("stdout.txt"), &out.stdout).unwrap();
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
    // Claude's payload keys, Droid's tool names; FACTORY_PROJECT_DIR is the project.
    for d in &dumps {
        check(
            d.stdin["hook_event_name"] == d.label.as_str()
                && d.stdin["session_id"].is_string()
                && d.stdin["cwd"] == project,
            format!("{} common payload: {}", d.label, d.raw),
        );
        check(
            d.env.get("FACTORY_PROJECT_DIR") == Some(&project),
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
    let ok = minimal::tool_result(&requests, "hello-droid");
    check(ok.contains("hello-droid"), format!("the call ran: {ok}"));
    // PostToolUse context reaches the model as a user message of its own, after the result.
    let context_after_result = requests.iter().any(|b| {
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
        let result = minimal::tool_result(&requests, call);
        check(
            result == format!("Error: {reason}"),
            format!("{call}: denied with {reason}: {result}"),
        );
    }
    let continued = requests
        .iter()
        .any(|b| b["messages"].to_string().contains("R-STOP-GO-ON"));
    check(continued, "Stop block reason reached the model".into());
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
            (project.replace('/', "-"), "<project-slug>"),
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

/// The pinned binary, or `None` after a skip line.
fn droid() -> Option<std::path::PathBuf> {
    minimal::client(
        &format!("factory-{VERSION}/node_modules/@factory/cli-linux-x64/bin/droid"),
        "Factory Droid",
    )
}

/// `~/.factory/settings.json` naming the fake model, with `hooks` if given.
fn user_settings(sb: &Sandbox, model: &FakeModel, hooks: Option<Value>) {
    let mut settings = json!({
        // Not a GPT name: Droid warns the model about a GPT model on this provider.
        "customModels": [{"model": "hookx-fake", "displayName": "fake",
            "baseUrl": format!("http://127.0.0.1:{}/v1", model.port), "apiKey": "dummy",
            "provider": "generic-chat-completion-api", "maxOutputTokens": 1000}],
    });
    if let Some(hooks) = hooks {
        settings["hooks"] = hooks;
    }
    common::write(&sb.home, ".factory/settings.json", &settings.to_string());
}

/// One `droid exec` run of `scenario` in the sandbox.
fn run_droid(sb: &Sandbox, bin: &std::path::Path, scenario: &str) -> std::process::Output {
    let mut cmd = sb.command(bin);
    // Any value passes offline: the custom model carries its own key.
    cmd.env("FACTORY_API_KEY", "dummy")
        .args([
            "exec",
            "-m",
            "custom:fake-0",
            "--auto",
            "high",
            "-o",
            "json",
        ])
        .arg(format!("SCENARIO:{scenario} do the work"));
    sb.run(cmd)
}

/// A `hooks` object with one recorder labelled `label` on `event`.
fn recorder_on(sb: &Sandbox, event: &str, label: &str) -> Value {
    json!({event: [{"hooks": [{"type": "command", "command": sb.dumper(label)}]}]})
}

/// Which files 0.225.2 reads hooks from: a SessionStart or Stop recorder in each candidate,
/// labelled by its file. Two runs: the legacy `.factory/hooks/hooks.json` beside no
/// `.factory/hooks.json`, then beside one.
#[test]
fn files_droid_reads() {
    let Some(bin) = droid() else { return };
    let mut seen = Vec::new();
    for with_project_hooks_json in [false, true] {
        let sb = Sandbox::new("hookx-live-droid-files");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let mut user = recorder_on(&sb, "SessionStart", "user-settings");
        user["Stop"] = recorder_on(&sb, "Stop", "user-settings-stop")["Stop"].clone();
        user_settings(&sb, &model, Some(user));
        // A hooks file holds the events at its top level (Droid's `hooks` object itself).
        common::write(
            &sb.home,
            ".factory/hooks.json",
            &recorder_on(&sb, "Stop", "user-hooks-json").to_string(),
        );
        let project_files = [
            (".factory/settings.json", "project-settings"),
            (".factory/settings.local.json", "project-settings-local"),
            (".factory/hooks/hooks.json", "project-legacy"),
        ];
        for (file, label) in project_files {
            let hooks = recorder_on(&sb, "SessionStart", label);
            let text = match file.ends_with("settings.json") || file.ends_with("local.json") {
                true => json!({"hooks": hooks}),
                false => hooks,
            };
            common::write(&sb.project, file, &text.to_string());
        }
        if with_project_hooks_json {
            common::write(
                &sb.project,
                ".factory/hooks.json",
                &recorder_on(&sb, "SessionStart", "project-hooks-json").to_string(),
            );
        }
        let out = run_droid(&sb, &bin, "text");
        assert!(
            out.status.success(),
            "exit {:?}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        let mut labels: Vec<String> = sb.dumps().into_iter().map(|d| d.label).collect();
        labels.sort();
        seen.push(labels);
    }
    eprintln!("files read: {seen:?}");
}
