//! The live conformance suite for GitHub Copilot CLI 1.0.102: the real client, driven offline
//! through a fake model server, with recording hooks (ground truth) and with hookx routed in.
//! See conformance/README.md.

#[path = "live_copilot/client.rs"]
mod client;
mod common;
#[path = "live_copilot/server.rs"]
mod server;

use client::Sandbox;
use serde_json::{Value, json};
use server::{FakeModel, Step};

const CAMEL: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "userPromptTransformed",
    "preToolUse",
    "preMcpToolCall",
    "permissionRequest",
    "postToolUse",
    "postToolUseFailure",
    "notification",
    "subagentStart",
    "subagentStop",
    "agentStop",
    "preCompact",
    "errorOccurred",
];
const PASCAL: &[&str] = &[
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PostToolUseFailure",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "Stop",
    "PreCompact",
    "ErrorOccurred",
];

fn scripts(name: &str, project: &str) -> Vec<Step> {
    let file = format!("{project}/notes.txt");
    match name {
        "tools" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo hello-bash", "description": "say hello"}),
            )]),
            Step::Tools(vec![(
                "create",
                json!({"path": file, "file_text": "one\n"}),
            )]),
            Step::Tools(vec![(
                "edit",
                json!({"path": file, "old_str": "one", "new_str": "two"}),
            )]),
            Step::Tools(vec![("view", json!({"path": file}))]),
            Step::Tools(vec![(
                "view",
                json!({"path": format!("{project}/missing.txt")}),
            )]),
            Step::Tools(vec![(
                "task",
                json!({"name": "helper", "description": "a helper",
                "prompt": "SCENARIO:sub run one command", "agent_type": "general-purpose"}),
            )]),
            Step::Text("all done"),
        ],
        "sub" => vec![
            Step::Tools(vec![(
                "bash",
                json!({"command": "echo from-subagent", "description": "sub"}),
            )]),
            Step::Text("sub done"),
        ],
        _ => vec![Step::Text("unknown scenario")],
    }
}

/// A hook file registering the recording hook on every event in both casings.
fn dump_everything(sb: &Sandbox) -> String {
    let mut hooks = serde_json::Map::new();
    for e in CAMEL {
        hooks.insert(
            e.to_string(),
            json!([{"type": "command", "bash": sb.dumper(e)}]),
        );
    }
    for e in PASCAL {
        hooks.insert(
            e.to_string(),
            json!([{"hooks": [{"type": "command", "command": sb.dumper(e)}]}]),
        );
    }
    json!({"version": 1, "hooks": hooks}).to_string()
}

#[test]
fn ground_truth_tools() {
    let Some(bin) = client::binary() else { return };
    let sb = Sandbox::new();
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    sb.write("home/.copilot/hooks/dump.json", &dump_everything(&sb));
    let out = sb.run(&bin, model.port, "SCENARIO:tools do the work", &[]);
    eprintln!(
        "status {:?}\nstdout {}\nstderr {}",
        out.status, out.stdout, out.stderr
    );
    for d in sb.dumps() {
        eprintln!("{} {} {}", d.order, d.label, d.raw);
    }
    if std::env::var_os("KEEP").is_some() {
        let keep = std::path::Path::new("/tmp/keep-copilot");
        let _ = std::fs::remove_dir_all(keep);
        common::copy_tree(&sb.root, keep);
        std::fs::write(
            keep.join("requests.json"),
            serde_json::to_string_pretty(&model.chats()).unwrap(),
        )
        .unwrap();
    }
}
