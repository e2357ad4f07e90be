//! Cursor, VS Code and Windsurf, whose facts come from their documents (no runnable client here): their
//! documented payloads (`tests/fixtures/documented/{cursor,vscode,windsurf}-docs/`) through `hookx run
//! --host`, answered by real shell handlers of another dialect, must come back in the host's
//! documented answer shape for that event; and their handlers, run under other hosts, must get
//! their own documented payload and have their answers translated.
#![cfg(unix)]

mod common;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

struct Project {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

impl Project {
    fn new() -> Project {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let (project, home) = (root.join("project"), root.join("home"));
        // A repository of its own: Codex's project is the nearest `.git`, and a `.git` above
        // the test's folder for a moment made that folder the project (attacks row 1120).
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Project {
            _tmp: tmp,
            project,
            home,
        }
    }

    fn write(&self, rel: &str, value: Value) {
        common::write(&self.project, rel, &value.to_string());
    }

    fn trust(&self) {
        common::hookx_at(&self.project, &self.home, &["trust", "--yes"]).success();
    }

    /// `hookx ARGS` with `stdin`: exit code, stdout, stderr.
    fn hookx(&self, args: &[&str], stdin: impl Into<Vec<u8>>) -> (i32, String, String) {
        let out = common::hookx()
            .args(common::with_route_home(args, &self.home))
            .current_dir(&self.project)
            .env_remove("HOOKX_HOME")
            .env("HOME", &self.home)
            .write_stdin(stdin.into())
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    /// A route command as the host runs it: `sh -c COMMAND` in the project, `stdin` piped in.
    fn route(&self, command: &str, stdin: &[u8]) -> std::process::Output {
        let mut child = std::process::Command::new("sh")
            .args(["-c", command])
            .current_dir(&self.project)
            .env_remove("HOOKX_HOME")
            .env("HOME", &self.home)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), stdin).unwrap();
        child.wait_with_output().unwrap()
    }

    fn read(&self, rel: &str) -> Value {
        let path = self.project.join(rel);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: the handler did not run: {e}", path.display()));
        serde_json::from_str(&text).unwrap()
    }
}

/// The `stdin` of a documented fixture, with the project put in.
fn documented(folder: &str, event: &str, project: &Path) -> String {
    let path = common::fixtures_dir()
        .join("documented")
        .join(folder)
        .join(format!("{event}.json"));
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    fixture["stdin"]
        .to_string()
        .replace("<project>", project.to_str().unwrap())
}

fn json_of(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout:?}"))
}

/// A Copilot handler (camelCase) that records its stdin and answers `answer`.
fn copilot_handler(record: &str, answer: &Value) -> Value {
    json!({"type": "command", "bash": format!("cat > {record}; echo '{answer}'")})
}

#[test]
fn cursor_host_answers_in_cursor_shapes_per_event() {
    let p = Project::new();
    p.write(
        ".github/hooks/guard.json",
        json!({"version": 1, "hooks": {
            "preToolUse": [copilot_handler("pre.json", &json!({"permissionDecision": "deny", "permissionDecisionReason": "no rm"}))],
            "agentStop": [copilot_handler("stop.json", &json!({"decision": "block", "reason": "run the tests"}))],
            "userPromptSubmitted": [copilot_handler("prompt.json", &json!({"decision": "block", "reason": "no secrets"}))],
            "sessionStart": [copilot_handler("start.json", &json!({"additionalContext": "branch main"}))],
            "postToolUse": [copilot_handler("post.json", &json!({"additionalContext": "lint clean"}))],
        }}),
    );
    p.trust();
    let run = |event: &str, stdin: Vec<u8>| {
        p.hookx(&["run", "--host", "cursor", "--event", event], stdin)
    };

    // beforeShellExecution, with the BOM Cursor puts first: the Copilot handler gets `bash`
    // with the command, and its deny comes back as `permission` with both messages.
    let mut stdin = b"\xEF\xBB\xBF".to_vec();
    stdin.extend(documented("cursor-docs", "beforeShellExecution", &p.project).into_bytes());
    let (code, out, err) = run("beforeShellExecution", stdin);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json_of(&out),
        json!({"permission": "deny", "agent_message": "no rm", "user_message": "no rm"})
    );
    let got = p.read("pre.json");
    assert_eq!(got["toolName"], "bash");
    assert_eq!(got["toolArgs"]["command"], "npm install express");
    assert_eq!(got["sessionId"], "conv-123");

    // The generic preToolUse: same answer shape; the Copilot handler sees `bash` for `Shell`.
    let (code, out, _) = run(
        "preToolUse",
        documented("cursor-docs", "preToolUse", &p.project).into(),
    );
    assert_eq!(code, 0);
    assert_eq!(json_of(&out)["permission"], "deny");
    assert_eq!(p.read("pre.json")["toolArgs"]["command"], "npm test");

    // beforeReadFile is a Read: the Copilot preToolUse handler gets `view` with its `path`.
    let (code, out, _) = run(
        "beforeReadFile",
        documented("cursor-docs", "beforeReadFile", &p.project).into(),
    );
    assert_eq!(code, 0);
    assert_eq!(json_of(&out)["permission"], "deny");
    let got = p.read("pre.json");
    assert_eq!(got["toolName"], "view");
    assert!(
        got["toolArgs"]["path"]
            .as_str()
            .unwrap()
            .ends_with("secrets.env")
    );

    // stop: a block becomes a follow-up message.
    let (code, out, _) = run("stop", documented("cursor-docs", "stop", &p.project).into());
    assert_eq!(code, 0);
    assert_eq!(json_of(&out), json!({"followup_message": "run the tests"}));

    // beforeSubmitPrompt has no JSON block with a reason for the model: exit 2, reason on stderr.
    let (code, out, err) = run(
        "beforeSubmitPrompt",
        documented("cursor-docs", "beforeSubmitPrompt", &p.project).into(),
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(err.trim(), "no secrets");
    assert_eq!(p.read("prompt.json")["prompt"], "Fix the bug in main.ts");

    // Context: sessionStart and postToolUse take `additional_context`.
    for event in ["sessionStart", "postToolUse"] {
        let (code, out, _) = run(event, documented("cursor-docs", event, &p.project).into());
        assert_eq!(code, 0);
        let expected = if event == "sessionStart" {
            "branch main"
        } else {
            "lint clean"
        };
        assert_eq!(
            json_of(&out),
            json!({"additional_context": expected}),
            "{event}"
        );
    }

    // afterFileEdit is fire-and-forget: the handler's context cannot reach Cursor, and hookx
    // says so instead of answering a field Cursor does not read.
    let (code, out, err) = run(
        "afterFileEdit",
        documented("cursor-docs", "afterFileEdit", &p.project).into(),
    );
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("additional context dropped"), "{err}");
    assert!(
        p.read("post.json")["toolArgs"]["path"]
            .as_str()
            .unwrap()
            .ends_with("main.ts")
    );
}

#[test]
fn vscode_host_answers_in_vscode_shapes_and_runs_cursor_handlers() {
    let p = Project::new();
    // VS Code runs Copilot's and Claude's files itself: hookx runs the Cursor file.
    p.write(
        ".cursor/hooks.json",
        json!({"version": 1, "hooks": {
            "beforeShellExecution": [{"command": "cat > shell.json; echo '{\"permission\":\"deny\",\"agent_message\":\"not here\"}'"}],
            "stop": [{"command": "cat > stop.json; echo '{\"followup_message\":\"add a test\"}'"}],
            "sessionStart": [{"command": "echo '{\"additional_context\":\"cursor context\"}'"}],
        }}),
    );
    p.trust();
    let run = |event: &str| {
        p.hookx(
            &["run", "--host", "vscode", "--event", event],
            documented("vscode-docs", event, &p.project),
        )
    };
    let (code, out, err) = run("PreToolUse");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json_of(&out)["hookSpecificOutput"],
        json!({"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "not here"})
    );
    // `runTerminalCommand` is the shell: the category handler gets the command at the top.
    let got = p.read("shell.json");
    assert_eq!(got["hook_event_name"], "beforeShellExecution");
    assert_eq!(got["command"], "rm -rf dist");
    assert_eq!(got["conversation_id"], "session-identifier");
    assert!(got.get("tool_name").is_none());

    let (code, out, _) = run("Stop");
    assert_eq!(code, 0);
    assert_eq!(
        json_of(&out)["hookSpecificOutput"],
        json!({"hookEventName": "Stop", "decision": "block", "reason": "add a test"})
    );
    assert_eq!(p.read("stop.json")["hook_event_name"], "stop");

    let (code, out, _) = run("SessionStart");
    assert_eq!(code, 0);
    assert_eq!(
        json_of(&out)["hookSpecificOutput"]["additionalContext"],
        "cursor context"
    );

    // A tool the shell category does not hold: the handler does not run.
    std::fs::remove_file(p.project.join("shell.json")).unwrap();
    let (code, out, _) = run("PostToolUse");
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(!p.project.join("shell.json").exists());
}

#[test]
fn cursor_and_vscode_handlers_under_claude() {
    let p = Project::new();
    let claude_pre = json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": p.project,
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "git push"}, "tool_use_id": "t1"});
    let claude_edit = json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": p.project,
        "hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_input": {"file_path": "a.rs", "old_string": "x", "new_string": "y"}, "tool_use_id": "t2"});

    // A Cursor category handler: the shell only, with Cursor's payload and answer.
    let cursor = "cat > got.json; echo '{\"permission\":\"deny\",\"agent_message\":\"no push\"}'";
    let (code, out, err) = p.hookx(
        &[
            "exec",
            "--host",
            "claude",
            "--as",
            "cursor-shell",
            "--event",
            "PreToolUse",
            "--",
            "sh",
            "-c",
            cursor,
        ],
        claude_pre.to_string(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json_of(&out)["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    assert_eq!(
        json_of(&out)["hookSpecificOutput"]["permissionDecisionReason"],
        "no push"
    );
    let got = p.read("got.json");
    assert_eq!(got["hook_event_name"], "beforeShellExecution");
    assert_eq!(got["command"], "git push");

    // A VS Code handler: `sessionId`, `hookEventName`, VS Code's tool name and camelCase
    // arguments; its Claude-like answer is read back.
    let vscode = "cat > got.json; echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"check it\"}}'";
    let (code, out, err) = p.hookx(
        &[
            "exec",
            "--host",
            "claude",
            "--as",
            "vscode",
            "--event",
            "PreToolUse",
            "--",
            "sh",
            "-c",
            vscode,
        ],
        claude_edit.to_string(),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json_of(&out)["hookSpecificOutput"]["permissionDecision"],
        "ask"
    );
    let got = p.read("got.json");
    assert_eq!(got["hookEventName"], "PreToolUse");
    assert_eq!(got["sessionId"], "s1");
    assert_eq!(got["tool_name"], "replace_string_in_file");
    assert_eq!(got["tool_input"]["filePath"], "a.rs");
    assert_eq!(got["tool_input"]["oldString"], "x");
}

/// `hookx install --host cursor|vscode` writes routes into the host's own file; running a
/// route's command line the way the host would (`sh -c`, the documented payload on stdin, a
/// BOM first for Cursor) reaches the project's foreign hooks and answers in the host's shape.
#[test]
fn installed_routes_run_under_cursor_and_vscode() {
    let p = Project::new();
    p.write(
        ".bricks/hooks.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "bash", "hooks": [
            {"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"bricks says no\"}}'"}
        ]}]}}),
    );
    p.trust();
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    for (host, file, event, folder, bom) in [
        (
            "cursor",
            ".cursor/hooks.json",
            "preToolUse",
            "cursor-docs",
            true,
        ),
        (
            "vscode",
            ".github/hooks/hookx-vscode.json",
            "PreToolUse",
            "vscode-docs",
            false,
        ),
    ] {
        let (code, _, err) = p.hookx(
            &[
                "install",
                "--host",
                host,
                "--hookx",
                hookx.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(code, 0, "{host}: {err}");
        let route = p.read(file)["hooks"][event][0]["command"]
            .as_str()
            .unwrap_or_else(|| panic!("{host}: no route for {event}"))
            .to_string();
        let mut stdin = if bom {
            b"\xEF\xBB\xBF".to_vec()
        } else {
            Vec::new()
        };
        stdin.extend(documented(folder, event, &p.project).into_bytes());
        let out = p.route(&route, &stdin);
        assert_eq!(out.status.code(), Some(0), "{host}: {out:?}");
        let answer = json_of(&String::from_utf8_lossy(&out.stdout));
        let denied = match host {
            "cursor" => answer["permission"].clone(),
            _ => answer["hookSpecificOutput"]["permissionDecision"].clone(),
        };
        assert_eq!(denied, "deny", "{host}: {answer}");
    }
}

/// The user's trusted Bricks guard (`~/.bricks-project-desktop/hooks.json`), which no agent
/// runs itself: it denies every tool call and counts its runs in the project's `runs.log`.
fn user_guard(p: &Project) {
    let file = p.home.join(".bricks-project-desktop/hooks.json");
    let guard = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
        "command": "echo ran >> runs.log; echo 'bricks says no' >&2; exit 2"}]}]}});
    common::write(
        &p.home,
        ".bricks-project-desktop/hooks.json",
        &guard.to_string(),
    );
    let (code, _, err) = p.hookx(&["trust", "--yes", file.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
}

/// The route command (`bash` or `command`) at `pointer` of the user's file `rel`.
fn home_route(p: &Project, rel: &str, pointer: &str) -> String {
    let text = std::fs::read_to_string(p.home.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let file: Value = serde_json::from_str(&text).unwrap();
    let handler = file.pointer(pointer);
    handler
        .and_then(|h| h["command"].as_str().or(h["bash"].as_str()))
        .unwrap_or_else(|| panic!("no route at {rel}{pointer}: {text}"))
        .to_string()
}

/// Cursor runs the handlers of Claude's files, hookx's Claude route among them, with Claude's
/// event names, its own keys and `"cwd": ""` (cursor-facts.md, "Claude hooks run by Cursor").
/// With hookx installed for both, each rule still runs once per call: the Claude route leaves
/// the call to Cursor's own route, which answers it (attacks row 154). Without a Cursor route,
/// the Claude route runs the rule itself and its deny comes back (attacks row 153: the empty
/// `cwd` was taken for the project folder, and every call was denied by the failure policy
/// without running anything).
#[test]
fn the_claude_route_run_by_cursor_runs_each_rule_once() {
    let p = Project::new();
    user_guard(&p);
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    let install = |host: &str, scope: &str, uninstall: bool| {
        let hookx = hookx.to_str().unwrap();
        let mut args = vec![
            "install", "--host", host, "--scope", scope, "--hookx", hookx,
        ];
        if uninstall {
            args.push("--uninstall");
        }
        let (code, _, err) = p.hookx(&args, "");
        assert_eq!(code, 0, "{host}: {err}");
    };
    install("claude", "user", false);
    install("cursor", "user", false);
    let claude_route = home_route(&p, ".claude/settings.json", "/hooks/PreToolUse/0/hooks/0");
    let cursor_file = p.home.join(".cursor/hooks.json");
    let cursor_text = std::fs::read_to_string(&cursor_file).unwrap();
    let cursor_route = serde_json::from_str::<Value>(&cursor_text).unwrap()["hooks"]["preToolUse"]
        [0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let mut own: Value =
        serde_json::from_str(&documented("cursor-docs", "preToolUse", &p.project)).unwrap();
    own["tool_input"]["command"] = json!("rm -rf /");
    let mut claudes = own.clone();
    claudes["hook_event_name"] = json!("PreToolUse");
    claudes["cwd"] = json!("");
    let runs = || {
        std::fs::read_to_string(p.project.join("runs.log"))
            .unwrap_or_default()
            .lines()
            .count()
    };
    // Cursor runs both routes for one call.
    let by_claude = p.route(&claude_route, claudes.to_string().as_bytes());
    let by_cursor = p.route(&cursor_route, own.to_string().as_bytes());
    assert_eq!(by_claude.status.code(), Some(0), "{by_claude:?}");
    assert!(by_claude.stdout.is_empty(), "{by_claude:?}");
    let answer = json_of(&String::from_utf8_lossy(&by_cursor.stdout));
    assert_eq!(answer["permission"], "deny", "{by_cursor:?}");
    assert_eq!(runs(), 1, "{by_claude:?}\n{by_cursor:?}");
    // Without Cursor's route, the Claude route is the one that runs it; also when the
    // repository ships a Cursor route of its own that looks elsewhere for the user's hooks
    // (attacks row 159): a route in a project's file is never deferred to.
    install("cursor", "user", true);
    let elsewhere = p.project.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let forged = cursor_text.replace(p.home.to_str().unwrap(), elsewhere.to_str().unwrap());
    assert_ne!(forged, cursor_text);
    common::write(&p.project, ".cursor/hooks.json", &forged);
    let claude_denies = |n: usize| {
        let by_claude = p.route(&claude_route, claudes.to_string().as_bytes());
        let answer = json_of(&String::from_utf8_lossy(&by_claude.stdout));
        assert_eq!(
            answer["hookSpecificOutput"]["permissionDecision"], "deny",
            "{by_claude:?}"
        );
        assert!(
            answer.to_string().contains("bricks says no"),
            "{by_claude:?}"
        );
        assert_eq!(runs(), n, "{by_claude:?}");
    };
    claude_denies(2);
    std::fs::remove_file(p.project.join(".cursor/hooks.json")).unwrap();
    claude_denies(3);
}

/// Attacks row 261: the user moved hookx's Cursor route from `preToolUse` to
/// `beforeShellExecution` ("only on the shell"). Cursor fires that event for shell commands
/// only (cursor-facts, docs), so for a Read it runs no route of its own: the Claude route it
/// also runs must not leave that call to it. A route on an event of one tool category is no
/// route for every call (twice at worst on a shell call, never zero times).
#[test]
fn the_claude_route_run_by_cursor_leaves_no_call_to_a_cursor_route_of_one_tool_category() {
    let p = Project::new();
    user_guard(&p);
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    for host in ["claude", "cursor"] {
        let args = [
            "install",
            "--host",
            host,
            "--scope",
            "user",
            "--hookx",
            hookx.to_str().unwrap(),
        ];
        let (code, _, err) = p.hookx(&args, "");
        assert_eq!(code, 0, "{host}: {err}");
    }
    let claude_route = home_route(&p, ".claude/settings.json", "/hooks/PreToolUse/0/hooks/0");
    let cursor_file = p.home.join(".cursor/hooks.json");
    let moved = std::fs::read_to_string(&cursor_file)
        .unwrap()
        .replace("\"preToolUse\"", "\"beforeShellExecution\"");
    std::fs::write(&cursor_file, moved).unwrap();
    let mut read: Value =
        serde_json::from_str(&documented("cursor-docs", "preToolUse", &p.project)).unwrap();
    read["hook_event_name"] = json!("PreToolUse");
    read["cwd"] = json!("");
    read["tool_name"] = json!("Read");
    read["tool_input"] = json!({"file_path": p.project.join("x").to_str().unwrap()});
    let by_claude = p.route(&claude_route, read.to_string().as_bytes());
    let answer = json_of(&String::from_utf8_lossy(&by_claude.stdout));
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{by_claude:?}"
    );
}

/// VS Code runs the handlers of Copilot's `.github/hooks` and of Claude's files with its own
/// payload, hookx's Copilot and Claude routes among them (vscode-facts.md). With hookx
/// installed for Copilot, Claude and VS Code, a call runs each rule once: the other routes
/// leave it to VS Code's own (attacks row 154).
#[test]
fn the_copilot_and_claude_routes_run_by_vscode_leave_the_call_to_its_route() {
    let p = Project::new();
    user_guard(&p);
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    for host in ["copilot", "claude", "vscode"] {
        let hookx = hookx.to_str().unwrap();
        let args = [
            "install", "--host", host, "--scope", "user", "--hookx", hookx,
        ];
        let (code, _, err) = p.hookx(&args, "");
        assert_eq!(code, 0, "{host}: {err}");
    }
    let copilot = home_route(&p, ".copilot/hooks/hookx.json", "/hooks/preToolUse/0");
    let claude = home_route(&p, ".claude/settings.json", "/hooks/PreToolUse/0/hooks/0");
    let own = home_route(
        &p,
        ".copilot/hooks/hookx-vscode.json",
        "/hooks/PreToolUse/0",
    );
    let payload = documented("vscode-docs", "PreToolUse", &p.project);
    for route in [&copilot, &claude] {
        let out = p.route(route, payload.as_bytes());
        assert_eq!(out.status.code(), Some(0), "{route}: {out:?}");
        assert!(out.stdout.is_empty(), "{route}: {out:?}");
    }
    let out = p.route(&own, payload.as_bytes());
    let answer = json_of(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out:?}"
    );
    let runs = std::fs::read_to_string(p.project.join("runs.log")).unwrap_or_default();
    assert_eq!(runs.lines().count(), 1, "{runs}");
}

/// VS Code runs Copilot's hook files with its own payload and reads its own answer form there
/// (vscode-facts: `hookSpecificOutput.permissionDecision` on PreToolUse), not Copilot's
/// top-level `permissionDecision`. With hookx installed for Copilot only, its route, and a
/// wrapped entry `convert` wrote into `.github/hooks`, run by VS Code, answer a deny VS Code
/// reads (attacks row 224: before, in Copilot's form, which VS Code does not read: the deny
/// was lost); run by Copilot they answer as before.
#[test]
fn the_copilot_route_and_a_wrapped_copilot_entry_run_by_vscode_answer_in_its_form() {
    let p = Project::new();
    user_guard(&p);
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    let args = [
        "install",
        "--host",
        "copilot",
        "--scope",
        "user",
        "--hookx",
        hookx.to_str().unwrap(),
    ];
    let (code, _, err) = p.hookx(&args, "");
    assert_eq!(code, 0, "{err}");
    let route = home_route(&p, ".copilot/hooks/hookx.json", "/hooks/preToolUse/0");
    let wrapped = format!(
        "{} exec --host copilot --as gemini --event PreToolUse -- 'echo no >&2; exit 2'",
        hookx.display()
    );
    let vscode = documented("vscode-docs", "PreToolUse", &p.project);
    for command in [&route, &wrapped] {
        let out = p.route(command, vscode.as_bytes());
        let answer = json_of(&String::from_utf8_lossy(&out.stdout));
        assert_eq!(
            answer["hookSpecificOutput"]["permissionDecision"], "deny",
            "{command}: {out:?}"
        );
    }
    let copilot = json!({"sessionId": "s", "timestamp": 1, "cwd": p.project,
        "toolName": "bash", "toolArgs": "{\"command\": \"ls\"}"})
    .to_string();
    let out = p.route(&route, copilot.as_bytes());
    let answer = json_of(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(answer["permissionDecision"], "deny", "{out:?}");
}

/// VS Code reads a hook's limit from `timeout` (seconds, default 30: vscode-facts), not from the
/// `timeoutSec` hookx's Copilot route is written with, so it ends that route at 30 s: run by VS
/// Code, the route answers within that, not within Copilot's 605 s (attacks row 235: a guard
/// slower than 30 s beside a hanging one was cut off by VS Code, and the call went through,
/// where hookx's failure policy would have denied it). Run by Copilot, or the Claude route run
/// by VS Code (it reads Claude's `timeout`), as before.
#[test]
fn the_copilot_route_run_by_vscode_answers_within_vscodes_limit() {
    use hookx::dispatch::host::decode;
    use hookx::dispatch::run::{budget, route_limit};
    use hookx::tables::Dialect;
    let p = Project::new();
    let vscode = documented("vscode-docs", "PreToolUse", &p.project);
    let copilot = json!({"sessionId": "s", "timestamp": 1, "cwd": p.project,
        "toolName": "bash", "toolArgs": "{\"command\": \"ls\"}"})
    .to_string();
    // The route's own timeout as install writes it where hookx reads one (the Claude route's
    // `timeout`, 605 s; an entry without one gets the reader's default: attacks row 312).
    let secs = |payload: &str, host: &str, event: &str| {
        let hosted = decode(payload.as_bytes(), Dialect::named(host), Some(event), None).unwrap();
        let written = (host == "claude").then_some(605_000);
        let limit = route_limit(hosted.host, hosted.read_as, written);
        budget(hosted.host, &hosted.event.kind, limit)
            .map(|b| b.as_secs())
            .unwrap()
    };
    assert_eq!(
        secs(&vscode, "copilot", "preToolUse"),
        25,
        "VS Code's 30 s, less 5"
    );
    assert_eq!(
        secs(&copilot, "copilot", "preToolUse"),
        600,
        "Copilot's own run"
    );
    assert_eq!(
        secs(&vscode, "claude", "PreToolUse"),
        600,
        "Claude's `timeout`"
    );
}

/// `list` shows a Cursor file's rules under their flavours, and which host runs each; VS Code's
/// ignored matchers are a `validate` warning and a located `convert` loss.
#[test]
fn list_validate_and_convert_know_the_docs_dialects() {
    let p = Project::new();
    p.write(
        ".cursor/hooks.json",
        json!({"version": 1, "hooks": {
            "beforeShellExecution": [{"command": "./guard.sh"}],
            "preToolUse": [{"command": "./all.sh", "matcher": "Read"}],
        }}),
    );
    p.trust();
    let (code, out, err) = p.hookx(&["list", "--format", "json", "--host", "vscode"], "");
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    let flavours: Vec<&str> = rows.iter().filter_map(|r| r["flavor"].as_str()).collect();
    assert_eq!(flavours, ["cursor-shell", "cursor"], "{out}");
    assert!(rows.iter().all(|r| r["dialect"] == "cursor"), "{out}");

    let file = common::fixtures_dir().join("vscode/wild-ignored-matcher.json");
    let file = file.to_str().unwrap();
    let (code, out, _) = p.hookx(&["validate", file, "--from", "vscode"], "");
    assert_eq!(code, 0, "a warning is no error: {out}");
    assert!(
        out.contains(":6:20: warning: vscode ignores matchers on `PreToolUse`"),
        "{out}"
    );

    let claude = common::fixtures_dir().join("claude/seed-block-rm.json");
    let (code, _, err) = p.hookx(
        &[
            "convert",
            claude.to_str().unwrap(),
            "--to",
            "vscode",
            "--no-wrap",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("(/hooks/PreToolUse/0/matcher): matcher `Bash` on `PreToolUse`")
            && err.contains("vscode does not filter `PreToolUse` events by a matcher"),
        "{err}"
    );
}

/// The Copilot CLI also loads the route installed for VS Code (both read `.github/hooks`):
/// called with Copilot's payload and `COPILOT_CLI=1`, the VS Code route answers nothing and runs
/// nothing where Copilot's own route answers that event; where hookx has no Copilot route, it
/// is the one that runs the rules under Copilot (attacks row 263).
#[test]
fn the_vscode_route_run_by_copilot_stays_silent() {
    let p = Project::new();
    p.write(
        ".bricks/hooks.json",
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "touch ran"}]}]}}),
    );
    p.trust();
    let copilot_pascal = json!({"session_id": "s", "timestamp": "2026-01-01T00:00:00.000Z",
        "cwd": p.project, "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}});
    // The project's route as install writes it (`--installed-in project`): a user's route
    // leaves no call to a route in a project's file (attacks row 309).
    let by_copilot = || {
        common::hookx()
            .args(["run", "--host", "vscode", "--event", "PreToolUse"])
            .args(["--installed-in", "project", "--home"])
            .arg(&p.home)
            .current_dir(&p.project)
            .env_remove("HOOKX_HOME")
            .env("HOME", &p.home)
            .env("COPILOT_CLI", "1")
            .write_stdin(copilot_pascal.to_string())
            .output()
            .unwrap()
    };
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    let install = |uninstall: bool| {
        let mut args = vec![
            "install",
            "--host",
            "copilot",
            "--hookx",
            hookx.to_str().unwrap(),
        ];
        if uninstall {
            args.push("--uninstall");
        }
        let (code, _, err) = p.hookx(&args, "");
        assert_eq!(code, 0, "{err}");
    };
    install(false);
    let out = by_copilot();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(!p.project.join("ran").exists(), "the handler ran twice");
    install(true);
    let out = by_copilot();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(p.project.join("ran").exists(), "no Copilot route: {out:?}");
    std::fs::remove_file(p.project.join("ran")).unwrap();
    // The same payload from VS Code itself (no COPILOT_CLI) runs the hook.
    let (code, _, err) = p.hookx(
        &["run", "--host", "vscode", "--event", "PreToolUse"],
        documented("vscode-docs", "PreToolUse", &p.project),
    );
    assert_eq!(code, 0, "{err}");
    assert!(p.project.join("ran").exists(), "{err}");
}

/// What Cursor and VS Code send the handlers of Claude's files, which they run themselves
/// (`hookx simulate` shows it without the agent): Cursor gives them Claude's event names with
/// its own tool names and keys, and reads their matchers in Claude's tool names; VS Code gives
/// them its own payload and ignores their matchers.
#[test]
fn claude_files_under_cursor_and_vscode() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
            "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"claude says no\"}}'"}]}]}}),
    );
    let simulate = |args: &[&str]| {
        let mut all = vec!["simulate"];
        all.extend_from_slice(args);
        p.hookx(&all, "")
    };
    let (code, out, err) = simulate(&[
        "--host",
        "cursor",
        "--event",
        "preToolUse",
        "--tool",
        "Shell",
        "--input",
        r#"{"command":"ls"}"#,
        "--expect",
        "deny",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("(cursor-claude)"), "{out}");
    assert!(
        out.contains(r#"stdin:   {"hook_event_name":"PreToolUse","conversation_id":"#)
            && out.contains(r#""tool_name":"Shell""#),
        "{out}"
    );
    assert!(
        out.contains(r#"{"permission":"deny","agent_message":"claude says no""#),
        "{out}"
    );
    // A Read: the `Bash` matcher does not fire under Cursor…
    let (code, _, _) = simulate(&[
        "--host",
        "cursor",
        "--event",
        "preToolUse",
        "--tool",
        "Read",
        "--input",
        r#"{"file_path":"a"}"#,
        "--expect",
        "allow",
    ]);
    assert_eq!(code, 0);
    // …but fires under VS Code, which ignores matchers.
    let (code, out, err) = simulate(&[
        "--host",
        "vscode",
        "--event",
        "PreToolUse",
        "--tool",
        "replace_string_in_file",
        "--input",
        r#"{"filePath":"a","oldString":"x","newString":"y"}"#,
        "--expect",
        "deny",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(r#"stdin:   {"hookEventName":"PreToolUse","#)
            && out.contains(r#""sessionId":"#),
        "{out}"
    );
}

/// Without `--host`, a Cursor payload (BOM first, Claude's `transcript_path` among Cursor's own
/// keys) is told to be Cursor's and answered in Cursor's shape; a VS Code payload likewise.
#[test]
fn a_cursor_payload_is_recognised_without_host() {
    let p = Project::new();
    p.write(
        ".github/hooks/guard.json",
        json!({"version": 1, "hooks": {"preToolUse": [copilot_handler("pre.json",
            &json!({"permissionDecision": "deny", "permissionDecisionReason": "no"}))]}}),
    );
    p.trust();
    let mut payload: Value =
        serde_json::from_str(&documented("cursor-docs", "preToolUse", &p.project)).unwrap();
    payload["transcript_path"] = "/tmp/transcript.jsonl".into();
    let mut stdin = b"\xEF\xBB\xBF".to_vec();
    stdin.extend(payload.to_string().into_bytes());
    let (code, out, err) = p.hookx(&["run"], stdin);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_of(&out)["permission"], "deny", "{out} {err}");

    // VS Code's payload (`hookEventName`, `sessionId`, an ISO timestamp, `transcript_path`) is
    // VS Code's, not Copilot's or Claude's: it runs the Bricks file, not Copilot's (which VS
    // Code runs itself).
    p.write(
        ".bricks/hooks.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command",
            "command": "echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no\"}}'"}]}]}}),
    );
    p.trust();
    let (code, out, err) = p.hookx(
        &["run"],
        documented("vscode-docs", "PreToolUse", &p.project),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json_of(&out)["hookSpecificOutput"]["permissionDecision"],
        "deny",
        "{out} {err}"
    );
}

// ---------------------------------------------------------------------------------------------
// Windsurf Cascade (docs): one event per tool category, fields inside `tool_info`, answers by
// exit code only (conformance/windsurf-facts.md).

/// `hookx ARGS` reading `stdin` with a Windsurf documented payload of `event`.
fn windsurf_run(p: &Project, event: &str) -> (i32, String, String) {
    p.hookx(
        &["run", "--host", "windsurf", "--event", event],
        documented("windsurf-docs", event, &p.project),
    )
}

/// Every documented pre-hook payload reaches only the handlers of its tool category, with the
/// handler's own tool name and arguments; a deny comes back as exit 2 with the reason on
/// stderr, Windsurf's only way to block; a handler that stays silent lets the action go on.
#[test]
fn windsurf_host_runs_each_category_and_answers_by_exit_code() {
    let p = Project::new();
    let record = |file: &str, answer: &str| json!({"type": "command", "command": format!("cat > {file}; {answer}")});
    let deny = |reason: &str| {
        format!(
            "echo '{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"{reason}\"}}}}'"
        )
    };
    p.write(
        ".claude/settings.json",
        json!({"hooks": {
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [record("bash.json", &deny("no npm here"))]},
                {"matcher": "Edit", "hooks": [record("edit.json", "true")]},
                {"matcher": "Read", "hooks": [record("read.json", &deny("not that file"))]},
                {"matcher": "mcp__github__.*", "hooks": [record("mcp.json", "true")]},
            ],
            "UserPromptSubmit": [{"hooks": [record("prompt.json", "echo '{\"decision\":\"block\",\"reason\":\"no secrets\"}'")]}],
            "PostToolUse": [{"matcher": "Bash", "hooks": [record("post.json", "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"lint clean\"}}'")]}],
        }}),
    );
    p.trust();

    let (code, out, err) = windsurf_run(&p, "pre_run_command");
    assert_eq!((code, out.as_str(), err.trim()), (2, "", "no npm here"));
    let got = p.read("bash.json");
    assert_eq!(got["hook_event_name"], "PreToolUse");
    assert_eq!(got["tool_name"], "Bash");
    assert_eq!(
        got["tool_input"],
        json!({"command": "npm install package-name"})
    );
    assert_eq!(got["session_id"], "traj-7f3a");
    assert_eq!(got["cwd"], p.project.to_str().unwrap());
    // Only the shell's handler ran.
    for other in ["edit.json", "read.json", "mcp.json"] {
        assert!(!p.project.join(other).exists(), "{other} ran");
    }

    // One edit in `edits` is Claude's Edit, with its own argument names.
    let (code, out, err) = windsurf_run(&p, "pre_write_code");
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let got = p.read("edit.json");
    assert_eq!(got["tool_name"], "Edit");
    assert_eq!(
        got["tool_input"]["old_string"],
        "def old_function():\n    pass"
    );
    assert_eq!(
        got["tool_input"]["file_path"],
        format!("{}/src/app.py", p.project.display())
    );

    let (code, _, err) = windsurf_run(&p, "pre_read_code");
    assert_eq!((code, err.trim()), (2, "not that file"));
    assert_eq!(p.read("read.json")["tool_name"], "Read");

    // The MCP tool's name is its server and tool, its input the arguments.
    let (code, _, err) = windsurf_run(&p, "pre_mcp_tool_use");
    assert_eq!(code, 0, "{err}");
    let got = p.read("mcp.json");
    assert_eq!(got["tool_name"], "mcp__github__create_issue");
    assert_eq!(got["tool_input"]["title"], "Bug report");

    // A prompt block is exit 2 too.
    let (code, _, err) = windsurf_run(&p, "pre_user_prompt");
    assert_eq!((code, err.trim()), (2, "no secrets"));
    assert_eq!(
        p.read("prompt.json")["prompt"],
        "add a health check endpoint"
    );

    // After the command, context reaches the agent the one way Windsurf shows hook text to it:
    // stderr at exit 2, which blocks nothing after the fact.
    let (code, _, err) = windsurf_run(&p, "post_run_command");
    assert_eq!((code, err.trim()), (2, "lint clean"));
    assert_eq!(p.read("post.json")["tool_name"], "Bash");
}

/// Windsurf handlers under another host get Windsurf's payload (`agent_action_name`,
/// `trajectory_id`, the fields in `tool_info`, the documented `edits` list) and their exit 2
/// is read as a deny with stderr as the reason.
#[test]
fn windsurf_handlers_under_claude() {
    let p = Project::new();
    let claude = |tool: &str, input: Value| {
        json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": p.project,
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input, "tool_use_id": "t1"})
        .to_string()
    };
    let exec = |flavour: &str, script: &str, stdin: String| {
        p.hookx(
            &[
                "exec",
                "--host",
                "claude",
                "--as",
                flavour,
                "--event",
                "PreToolUse",
                "--",
                "sh",
                "-c",
                script,
            ],
            stdin,
        )
    };
    let (code, out, err) = exec(
        "windsurf-command",
        "cat > got.json; echo 'no push' >&2; exit 2",
        claude("Bash", json!({"command": "git push"})),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json_of(&out)["hookSpecificOutput"],
        json!({"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no push"})
    );
    let got = p.read("got.json");
    assert_eq!(got["agent_action_name"], "pre_run_command");
    assert_eq!(got["trajectory_id"], "s1");
    assert_eq!(got["tool_info"]["command_line"], "git push");
    assert!(got.get("tool_name").is_none() && got.get("session_id").is_none());

    let (code, out, err) = exec(
        "windsurf-write",
        "cat > got.json",
        claude(
            "Write",
            json!({"file_path": "/p/a.rs", "content": "fn main() {}"}),
        ),
    );
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let got = p.read("got.json");
    assert_eq!(got["agent_action_name"], "pre_write_code");
    assert_eq!(
        got["tool_info"]["edits"],
        json!([{"old_string": "", "new_string": "fn main() {}"}])
    );

    let (code, _, err) = exec(
        "windsurf-mcp",
        "cat > got.json",
        claude("mcp__memory__read_graph", json!({"depth": 2})),
    );
    assert_eq!(code, 0, "{err}");
    let info = &p.read("got.json")["tool_info"];
    assert_eq!(
        (
            &info["mcp_server_name"],
            &info["mcp_tool_name"],
            &info["mcp_tool_arguments"]
        ),
        (&json!("memory"), &json!("read_graph"), &json!({"depth": 2}))
    );

    // A Bash call is no write: the write category's handler does not run under `hookx run`.
    p.write(
        ".windsurf/hooks.json",
        json!({"hooks": {"pre_write_code": [{"command": "touch wrote"}]}}),
    );
    p.trust();
    let (code, _, err) = p.hookx(
        &["run", "--host", "claude"],
        claude("Bash", json!({"command": "ls"})),
    );
    assert_eq!(code, 0, "{err}");
    assert!(!p.project.join("wrote").exists());
}

/// `hookx install --host windsurf` routes every category event a rule fires for (and writes no
/// `type`, which Windsurf entries lack); the route, run as Windsurf would with its documented
/// payload, answers by exit code; installing again changes nothing.
#[test]
fn installed_windsurf_routes_run_per_category() {
    let p = Project::new();
    p.write(
        ".github/hooks/guard.json",
        json!({"version": 1, "hooks": {"preToolUse": [copilot_handler("pre.json", &json!({"permissionDecision": "deny", "permissionDecisionReason": "copilot says no"}))]}}),
    );
    p.trust();
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    let install = || {
        p.hookx(
            &[
                "install",
                "--host",
                "windsurf",
                "--hookx",
                hookx.to_str().unwrap(),
            ],
            "",
        )
    };
    let (code, _, err) = install();
    assert_eq!(code, 0, "{err}");
    let file = p.read(".windsurf/hooks.json");
    let events: Vec<&String> = file["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(
        events,
        [
            "pre_run_command",
            "pre_write_code",
            "pre_read_code",
            "pre_mcp_tool_use"
        ]
    );
    let route = &file["hooks"]["pre_run_command"][0];
    assert!(route.get("type").is_none(), "{route}");
    let command = route["command"].as_str().unwrap();
    let out = p.route(
        command,
        documented("windsurf-docs", "pre_run_command", &p.project).as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "copilot says no"
    );
    assert_eq!(p.read("pre.json")["toolName"], "bash");

    let before = std::fs::read_to_string(p.project.join(".windsurf/hooks.json")).unwrap();
    let (code, _, err) = install();
    assert_eq!(code, 0, "{err}");
    let after = std::fs::read_to_string(p.project.join(".windsurf/hooks.json")).unwrap();
    assert_eq!(before, after);

    // A rule for one tool needs the route of its category only.
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"PostToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": "true"}]}]}}),
    );
    p.trust();
    let (code, _, err) = install();
    assert_eq!(code, 0, "{err}");
    let file = p.read(".windsurf/hooks.json");
    let events: Vec<&String> = file["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(
        events,
        [
            "pre_run_command",
            "pre_write_code",
            "pre_read_code",
            "pre_mcp_tool_use",
            "post_read_code"
        ]
    );
}

/// `convert --to windsurf` puts a tool rule on each category event it fires for, filters a part
/// of a category through `hookx exec --match`, and reports tools no category holds at the
/// rule; `list` and `validate` know Windsurf's files; a Windsurf payload is recognised without
/// `--host`.
#[test]
fn convert_list_and_validate_know_windsurf() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./bash.sh"}]},
            {"matcher": "Write", "hooks": [{"type": "command", "command": "./write.sh"}]},
            {"matcher": "Bash|WebFetch", "hooks": [{"type": "command", "command": "./web.sh"}]},
        ]}}),
    );
    let (code, out, err) = p.hookx(
        &[
            "convert",
            ".claude/settings.json",
            "--to",
            "windsurf",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let result = json_of(&out);
    let document = json_of(result["output"].as_str().unwrap());
    let hooks = &document["hooks"];
    let on = |event: &str| -> Vec<String> {
        hooks[event]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| e["command"].as_str().unwrap().to_string())
                    .collect()
            })
            .unwrap_or_default()
    };
    let run = on("pre_run_command");
    assert_eq!(run.len(), 2, "{hooks}");
    assert!(
        run[0].ends_with("-- ./bash.sh") && !run[0].contains("--match"),
        "{run:?}"
    );
    let write = on("pre_write_code");
    assert_eq!(write.len(), 1, "{hooks}");
    assert!(
        write[0].contains("--match Write -- ./write.sh"),
        "{write:?}"
    );
    assert!(on("pre_read_code").is_empty() && on("pre_mcp_tool_use").is_empty());
    // Each wrapped handler's JSON answers, which Windsurf cannot hear, are a loss of their own.
    let (answers, losses): (Vec<&Value>, Vec<&Value>) = result["losses"]
        .as_array()
        .unwrap()
        .iter()
        .partition(|l| l["what"].as_str().unwrap().starts_with("its answers on"));
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert_eq!(losses.len(), 1, "{losses:?}");
    assert_eq!(losses[0]["pointer"], "/hooks/PreToolUse/2");
    assert!(
        losses[0]["why"].as_str().unwrap().contains("`WebFetch`"),
        "{losses:?}"
    );

    p.write(
        ".windsurf/hooks.json",
        json!({"hooks": {"pre_run_command": [{"command": "./guard.sh", "show_output": true}],
            "post_setup_worktree": [{"command": "./setup.sh"}]}}),
    );
    p.trust();
    let (code, out, err) = p.hookx(&["list", "--format", "json", "--host", "claude"], "");
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    let windsurf: Vec<&Value> = rows.iter().filter(|r| r["dialect"] == "windsurf").collect();
    assert_eq!(windsurf.len(), 2, "{out}");
    assert_eq!(windsurf[0]["flavor"], "windsurf-command");
    // `post_setup_worktree` is Windsurf's, with no canonical event: read without a warning.
    let (code, out, _) = p.hookx(&["validate", ".windsurf/hooks.json"], "");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 error(s), 0 warning(s)"), "{out}");

    // No `--host`: `agent_action_name` and `trajectory_id` say Windsurf, which is answered in
    // its own way (exit 2, not Claude's JSON).
    let q = Project::new();
    q.write(
        ".claude/settings.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo 'no npm' >&2; exit 2"}]}]}}),
    );
    q.trust();
    let (code, out, err) = q.hookx(
        &["run"],
        documented("windsurf-docs", "pre_run_command", &q.project),
    );
    assert_eq!((code, out.as_str(), err.trim()), (2, "", "no npm"));
}

/// A Claude file converted for Windsurf, run the way Windsurf runs it (`sh -c` on each entry,
/// its documented payload on stdin): the `Edit` rule runs on `pre_write_code` and its deny is
/// exit 2 with the reason; the `Write`-only rule, which shares that category, is filtered out
/// by `hookx exec --match` (the documented payload is an edit); the `Bash` rule is not there.
#[test]
fn a_converted_file_runs_under_windsurf_with_its_matchers_applied() {
    let p = Project::new();
    let deny = |reason: &str| {
        format!(
            "cat > {reason}.json; echo '{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"{reason}\"}}}}'"
        )
    };
    p.write(
        "claude.json",
        json!({"hooks": {"PreToolUse": [
            {"matcher": "Edit", "hooks": [{"type": "command", "command": deny("edit")}]},
            {"matcher": "Write", "hooks": [{"type": "command", "command": deny("write")}]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": deny("bash")}]},
        ]}}),
    );
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    let (code, out, err) = p.hookx(
        &[
            "convert",
            "claude.json",
            "--from",
            "claude",
            "--to",
            "windsurf",
            "--hookx",
            hookx.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let converted = json_of(&out);
    let entries = converted["hooks"]["pre_write_code"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{converted}");
    let stdin = documented("windsurf-docs", "pre_write_code", &p.project);
    let mut answers = Vec::new();
    for entry in entries {
        let out = p.route(entry["command"].as_str().unwrap(), stdin.as_bytes());
        answers.push((
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).trim().to_string(),
        ));
    }
    assert_eq!(
        answers,
        [(Some(2), "edit".to_string()), (Some(0), String::new())]
    );
    assert_eq!(p.read("edit.json")["tool_name"], "Edit");
    assert!(!p.project.join("write.json").exists());
    assert!(!p.project.join("bash.json").exists());
}

/// Issue 23: a Windsurf write guard (`pre_write_code`) denies Claude's NotebookEdit and a read
/// guard (`pre_read_code`) its Grep, routed by `hookx run --host claude` and converted by
/// `convert --to claude` alike; each guard gets Windsurf's documented keys: the notebook as
/// `file_path` with its new source as one edit, the searched path (or, with none, the working
/// directory the search reads) as `file_path`. One test per guard, so that each fails alone.
#[test]
fn a_windsurf_write_guard_denies_a_claude_notebook_edit() {
    windsurf_guards_under_claude(Guard::Write);
}

#[test]
fn a_windsurf_read_guard_denies_a_claude_grep_and_glob() {
    windsurf_guards_under_claude(Guard::Read);
}

#[derive(Clone, Copy, PartialEq)]
enum Guard {
    Write,
    Read,
}

/// Both guards are installed; the calls are those `guard` judges.
fn windsurf_guards_under_claude(guard: Guard) {
    let guards = json!({"hooks": {
        "pre_write_code": [{"command": "cat > wrote.json; echo 'no writes' >&2; exit 2"}],
        "pre_read_code": [{"command": "cat > read.json; echo 'no reads' >&2; exit 2"}],
    }});
    let claude = |p: &Project, tool: &str, input: Value| {
        json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": p.project,
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input, "tool_use_id": "t1"})
        .to_string()
    };
    let notebook = |p: &Project| json!({"notebook_path": p.project.join("a.ipynb"), "cell_id": "c1", "new_source": "print(1)"});
    // Each call is denied with the guard's reason; returns what the guard read. `commands`:
    // the converted rules' commands (write, read), run as Claude runs them; `None`: `hookx run`.
    type Commands<'a> = Option<(&'a str, &'a str)>;
    let denied = |p: &Project, via: Commands, tool: &str, input: Value, record: &str| {
        let _ = std::fs::remove_file(p.project.join(record));
        let stdin = claude(p, tool, input);
        let reading = record == "read.json";
        let reason = if reading { "no reads" } else { "no writes" };
        let command = via.map(|(write, read)| if reading { read } else { write });
        let (code, out, err) = match command {
            Some(command) => {
                let out = p.route(command, stdin.as_bytes());
                (
                    out.status.code().unwrap(),
                    String::from_utf8(out.stdout).unwrap(),
                    String::from_utf8(out.stderr).unwrap(),
                )
            }
            None => p.hookx(&["run", "--host", "claude"], stdin),
        };
        assert_eq!(code, 0, "{tool}: {err}");
        assert!(!out.is_empty(), "{tool}: the Windsurf guard did not run");
        let answer = &json_of(&out)["hookSpecificOutput"];
        assert_eq!(
            (
                &answer["permissionDecision"],
                &answer["permissionDecisionReason"]
            ),
            (&json!("deny"), &json!(reason)),
            "{tool}: {out}"
        );
        p.read(record)
    };
    let check = |p: &Project, via: Commands| {
        // Claude's other keys ride along in `tool_info`: only Windsurf's are compared.
        let info = |got: &Value| {
            let keys = ["file_path", "edits"];
            let map = got["tool_info"].as_object().unwrap();
            Value::Object(
                map.iter()
                    .filter(|(k, _)| keys.contains(&k.as_str()))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            )
        };
        if guard == Guard::Write {
            let got = denied(p, via, "NotebookEdit", notebook(p), "wrote.json");
            assert_eq!(got["agent_action_name"], "pre_write_code");
            assert_eq!(
                info(&got),
                json!({"file_path": p.project.join("a.ipynb"),
                    "edits": [{"old_string": "", "new_string": "print(1)"}]})
            );
            return;
        }
        let src = p.project.join("src");
        let grep = json!({"pattern": "TODO", "path": src});
        let got = denied(p, via, "Grep", grep, "read.json");
        assert_eq!(got["agent_action_name"], "pre_read_code");
        assert_eq!(info(&got), json!({"file_path": src}));
        let got = denied(p, via, "Grep", json!({"pattern": "TODO"}), "read.json");
        assert_eq!(info(&got), json!({"file_path": p.project}));
        let glob = json!({"pattern": "**/*.rs", "path": src});
        let got = denied(p, via, "Glob", glob, "read.json");
        assert_eq!(info(&got), json!({"file_path": src}));
        // An absolute pattern searches its own folder, as Claude Code searches it: the guard
        // sees that folder, not the one `path` or the session names.
        let glob = json!({"pattern": "/root/.ssh/id_*", "path": src});
        let got = denied(p, via, "Glob", glob, "read.json");
        assert_eq!(info(&got), json!({"file_path": "/root/.ssh"}));
    };

    // Routed: the Windsurf file itself, run under Claude.
    let p = Project::new();
    p.write(".windsurf/hooks.json", guards.clone());
    p.trust();
    check(&p, None);

    // Converted: the Claude file `convert --to claude` writes, run under Claude.
    let q = Project::new();
    q.write("windsurf.json", guards);
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    let (code, out, err) = q.hookx(
        &[
            "convert",
            "windsurf.json",
            "--from",
            "windsurf",
            "--to",
            "claude",
            "--hookx",
            hookx.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let converted = json_of(&out);
    let rules = converted["hooks"]["PreToolUse"].as_array().unwrap();
    let (rule, matcher) = match guard {
        Guard::Write => (0, "Edit|Write|MultiEdit|NotebookEdit"),
        Guard::Read => (1, "Read|Grep|Glob"),
    };
    assert_eq!(rules[rule]["matcher"], matcher, "{converted}");
    let command = |i: usize| rules[i]["hooks"][0]["command"].as_str().unwrap();
    check(&q, Some((command(0), command(1))));
}

/// VS Code's device policies in `/etc/vscode/policy.json` (Linux; docs: microsoft/vscode-docs
/// `docs/enterprise/manage-ai-settings.md`, conformance/vscode-facts.md): `"ChatHooks": false`
/// disables hooks, so `hookx run --host vscode` runs none and `list`/`doctor` say so;
/// `"ChatAllowManagedHooksOnly": true` leaves only the hooks of policy files.
#[test]
fn vscode_device_policies_turn_hooks_off_or_leave_only_policy_hooks() {
    let p = Project::new();
    let managed = p.project.parent().unwrap().join("managed");
    let policy = |value: Value| {
        common::write(&managed, "etc/vscode/policy.json", &value.to_string());
    };
    let hookx = |args: &[&str], stdin: String| {
        let out = common::hookx()
            .args(common::with_route_home(args, &p.home))
            .current_dir(&p.project)
            .env_remove("HOOKX_HOME")
            .env("HOME", &p.home)
            .env_remove("HOOKX_MANAGED_ROOT")
            .arg("--managed-root")
            .arg(&managed)
            .write_stdin(stdin)
            .output()
            .unwrap();
        // doctor exits 5 where the policy leaves a rule firing under no agent examined.
        let fine = out.status.success() || (args[0] == "doctor" && out.status.code() == Some(5));
        assert!(fine, "hookx {args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let marker = |name: &str| json!({"version": 1, "hooks": {"sessionStart": [{"command": format!("touch {}", p.project.join(name).display())}]}});
    p.write(".cursor/hooks.json", marker("project-ran"));
    common::write(
        &managed,
        "etc/cursor/hooks.json",
        &marker("policy-ran").to_string(),
    );
    p.trust();
    // What `hookx run --host vscode` ran on a SessionStart, and what `list --host vscode` lists.
    let session = || {
        for ran in ["project-ran", "policy-ran"] {
            let _ = std::fs::remove_file(p.project.join(ran));
        }
        let payload = documented("vscode-docs", "SessionStart", &p.project);
        hookx(
            &["run", "--host", "vscode", "--event", "SessionStart"],
            payload,
        );
        let ran: Vec<&str> = ["policy-ran", "project-ran"]
            .into_iter()
            .filter(|m| p.project.join(m).exists())
            .collect();
        let rows: Vec<Value> = serde_json::from_str(&hookx(
            &["list", "--host", "vscode", "--format", "json"],
            String::new(),
        ))
        .unwrap();
        let listed: Vec<String> = rows
            .iter()
            .map(|r| r["file"].as_str().unwrap().to_string())
            .collect();
        (ran, listed)
    };
    let enterprise = "$HOOKX_MANAGED_ROOT/etc/cursor/hooks.json";
    let both = (
        vec!["policy-ran", "project-ran"],
        vec![enterprise.to_string(), ".cursor/hooks.json".to_string()],
    );
    assert_eq!(session(), both, "no policy file");
    policy(json!({"ChatHooks": true}));
    assert_eq!(session(), both, "ChatHooks true");
    policy(json!({"ChatHooks": false}));
    assert_eq!(session(), (vec![], vec![]), "ChatHooks false");
    let doctor: Value = serde_json::from_str(&hookx(
        &["doctor", "--host", "vscode", "--format", "json"],
        String::new(),
    ))
    .unwrap();
    let said = doctor.to_string();
    assert!(
        said.contains(r#"\"ChatHooks\": false in $HOOKX_MANAGED_ROOT/etc/vscode/policy.json turns every hook off: VS Code runs no hook"#)
            && said.contains(r#"off under VS Code: \"ChatHooks\": false in $HOOKX_MANAGED_ROOT/etc/vscode/policy.json turns every hook off"#),
        "{doctor:#}"
    );
    policy(json!({"ChatAllowManagedHooksOnly": true}));
    assert_eq!(
        session(),
        (vec!["policy-ran"], vec![enterprise.to_string()]),
        "ChatAllowManagedHooksOnly true"
    );
}

// ---------------------------------------------------------------------------------------------
// Augment (Auggie CLI 0.36.0; live: tests/live_augment.rs). Without the client: its payloads
// as its source builds them (`tests/fixtures/documented/augment-source/`), which name no
// `session_id` or `cwd`; it reads answers only inside `hookSpecificOutput`.

/// A Claude handler that records its stdin in `record` and prints `answer` (empty: nothing).
fn claude_handler(record: &str, answer: &str) -> Value {
    json!({"type": "command", "command": format!("cat > {record}; printf '%s' '{answer}'")})
}

#[test]
fn augment_host_gives_claude_handlers_a_complete_payload_and_reads_their_answers_inside() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "cat > pre.json; echo 'no npm here' >&2; exit 2"}]}],
            "PostToolUse": [{"matcher": "Write", "hooks": [
                claude_handler("post.json", r#"{"decision":"block","reason":"lint failed"}"#)]}],
            "UserPromptSubmit": [{"hooks": [claude_handler("prompt.json", "")]}],
            "Stop": [{"hooks": [claude_handler("stop.json", r#"{"decision":"block","reason":"run the tests"}"#)]}],
        }}),
    );
    p.trust();
    let run = |event: &str| {
        p.hookx(
            &["run", "--host", "augment"],
            documented("augment-source", event, &p.project),
        )
    };
    let conversation = "3f1c2a9e-5b7d-4c1e-9a2b-6d8e0f4a1c55";
    let project = p.project.to_str().unwrap();

    // PreToolUse: `launch-process` is Bash, `session_id` and `cwd` come from
    // `conversation_id` and `workspace_roots[0]`; exit 2 is a deny inside hookSpecificOutput.
    let (code, out, err) = run("PreToolUse");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json_of(&out),
        json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": "no npm here"}})
    );
    let got = p.read("pre.json");
    assert_eq!(got["hook_event_name"], "PreToolUse");
    assert_eq!(got["session_id"], conversation, "{got}");
    assert_eq!(got["cwd"], project, "{got}");
    assert_eq!(got["tool_name"], "Bash");
    assert_eq!(got["tool_input"]["command"], "npm install left-pad");

    // PostToolUse: `save-file {path, file_content}` is Write {file_path, content}; Claude's
    // block is not lost: Auggie 0.36.0 shows the model no PostToolUse block's reason, its
    // `additionalContext` it does (run, `tests/live_augment.rs` `ground_truth_answer_forms`).
    let (code, out, err) = run("PostToolUse");
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_of(&out), json!({"additionalContext": "lint failed"}));
    let got = p.read("post.json");
    assert_eq!(got["tool_name"], "Write");
    assert_eq!(got["tool_input"]["file_path"], "notes.txt", "{got}");
    assert_eq!(got["tool_input"]["content"], "hello\n", "{got}");
    // Auggie's text result ("File saved.  Saved file {notes.txt}") in Claude's Write shape
    // (attacks row 1632).
    assert_eq!(
        (
            &got["tool_response"]["type"],
            &got["tool_response"]["filePath"]
        ),
        (&json!("create"), &json!("notes.txt")),
        "{got}"
    );
    assert_eq!(
        (&got["session_id"], &got["cwd"]),
        (&json!(conversation), &json!(project))
    );

    // PromptSubmit is Claude's UserPromptSubmit, `user_prompt` its `prompt`.
    let (code, out, err) = run("PromptSubmit");
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    let got = p.read("prompt.json");
    assert_eq!(got["hook_event_name"], "UserPromptSubmit");
    assert_eq!(got["prompt"], "list the files here");
    assert_eq!(got["cwd"], project);

    // Stop: the block goes inside too.
    let (code, out, err) = run("Stop");
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json_of(&out),
        json!({"hookSpecificOutput": {"hookEventName": "Stop",
            "decision": "block", "reason": "run the tests"}})
    );
    assert_eq!(p.read("stop.json")["session_id"], conversation);
}

/// An Augment file's handlers run under Claude Code get Auggie's own payload (`PromptSubmit`,
/// `workspace_roots`, `launch-process` with `command`, ms timeouts read), and their
/// `hookSpecificOutput` deny reaches Claude.
#[test]
fn augment_handlers_under_claude() {
    let p = Project::new();
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"augment says no"}}"#;
    p.write(
        ".augment/settings.json",
        json!({"hooks": {
            "PreToolUse": [{"matcher": "launch-process", "hooks": [
                {"type": "command", "command": format!("cat > pre.json; printf '%s' '{deny}'"), "timeout": 5000}]}],
            "PromptSubmit": [{"hooks": [{"type": "command", "command": "cat > prompt.json"}]}],
        }}),
    );
    p.trust();
    let pre = json!({"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": p.project,
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build"}, "tool_use_id": "toolu_1"});
    let (code, out, err) = p.hookx(&["run", "--host", "claude"], pre.to_string());
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json_of(&out)["hookSpecificOutput"]["permissionDecisionReason"],
        "augment says no"
    );
    let got = p.read("pre.json");
    assert_eq!(got["hook_event_name"], "PreToolUse");
    assert_eq!(got["conversation_id"], "s1");
    assert_eq!(got["workspace_roots"], json!([p.project]));
    assert_eq!(got["tool_name"], "launch-process");
    assert_eq!(got["tool_input"]["command"], "rm -rf build");
    assert_eq!(got["is_mcp_tool"], false);
    assert!(
        got.get("cwd").is_none() && got.get("session_id").is_none(),
        "{got}"
    );

    let prompt = json!({"session_id": "s1", "transcript_path": "/t.jsonl", "cwd": p.project,
        "permission_mode": "default", "hook_event_name": "UserPromptSubmit", "prompt": "hi"});
    let (code, _, err) = p.hookx(&["run", "--host", "claude"], prompt.to_string());
    assert_eq!(code, 0, "{err}");
    let got = p.read("prompt.json");
    assert_eq!(got["hook_event_name"], "PromptSubmit");
    assert_eq!(got["user_prompt"], "hi");
}

/// `install --host augment` writes routes in `.augment/settings.json` (milliseconds), which,
/// run with an Auggie payload, run the project's Claude hooks.
#[test]
fn installed_augment_routes_run_claude_hooks() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"claude says no\"}}'"}
        ]}], "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}]}}),
    );
    p.trust();
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    let (code, _, err) = p.hookx(
        &[
            "install",
            "--host",
            "augment",
            "--hookx",
            hookx.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let settings = p.read(".augment/settings.json");
    let events: Vec<&String> = settings["hooks"].as_object().unwrap().keys().collect();
    assert!(events.iter().any(|e| *e == "PromptSubmit"), "{settings}");
    assert!(
        !events.iter().any(|e| *e == "UserPromptSubmit"),
        "{settings}"
    );
    let handler = &settings["hooks"]["PreToolUse"][0]["hooks"][0];
    assert_eq!(
        handler["timeout"],
        hookx::route::ROUTE_TIMEOUT * 1000,
        "milliseconds: {settings}"
    );
    let route = handler["command"].as_str().unwrap().to_string();
    let out = p.route(
        &route,
        documented("augment-source", "PreToolUse", &p.project).as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let answer = json_of(&String::from_utf8_lossy(&out.stdout));
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecisionReason"],
        "claude says no"
    );
}

/// `list`, `validate`, `schema` and `doctor` know Augment's files.
#[test]
fn list_validate_schema_and_doctor_know_augment() {
    let p = Project::new();
    p.write(
        ".augment/settings.json",
        json!({"hooks": {
            "PromptSubmit": [{"hooks": [{"type": "command", "command": "./log.sh"}]}],
            "PreToolUse": [{"matcher": "launch-process", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5000}]}],
        }}),
    );
    p.trust();
    let (code, out, err) = p.hookx(&["list", "--format", "json", "--host", "claude"], "");
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Value> = serde_json::from_str(&out).unwrap();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows.iter().all(|r| r["dialect"] == "augment"), "{out}");

    let (code, out, err) = p.hookx(&["doctor", "--host", "augment"], "");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("PromptSubmit (line 1): ./log.sh\n    fires: augment (natively"),
        "{out}"
    );

    // Detected by its folder; `UserPromptSubmit` is no Auggie event.
    let (code, out, _) = p.hookx(&["validate", ".augment/settings.json"], "");
    assert_eq!(code, 0, "{out}");
    p.write(
        ".augment/settings.local.json",
        json!({"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./log.sh"}]}]}}),
    );
    let (_, out, err) = p.hookx(&["validate", ".augment/settings.local.json"], "");
    assert!(
        format!("{out}{err}").contains("UserPromptSubmit"),
        "{out}{err}"
    );

    let (code, out, _) = p.hookx(&["schema", "augment"], "");
    assert_eq!(code, 0);
    assert!(json_of(&out)["definitions"]["hooks"]["properties"]["PromptSubmit"].is_object());
}

// ---------------------------------------------------------------------------------------------
// Kiro (docs): `.kiro/hooks/*.json` rule lists, exit-code answers, camelCase payload events.

/// Under `run --host kiro`, a deny from a handler of another dialect is exit 2 with the reason
/// on stderr, and plain context reaches Kiro's stdout on SessionStart; the handler gets its
/// own payload of the documented one.
#[test]
fn kiro_host_answers_by_exit_code_and_plain_stdout() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "cat > pre.json; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no npm here\"}}'"}]}],
            "SessionStart": [{"hooks": [{"type": "command", "command": "echo branch main"}]}],
        }}),
    );
    p.trust();
    let run = |event: &str| {
        p.hookx(
            &["run", "--host", "kiro", "--event", event],
            documented("kiro-docs", event, &p.project),
        )
    };
    let (code, out, err) = run("PreToolUse");
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("no npm here"), "{err}");
    let got = p.read("pre.json");
    assert_eq!(got["hook_event_name"], "PreToolUse");
    assert_eq!(got["tool_name"], "Bash");
    assert_eq!(got["tool_input"]["command"], "npm test");

    let (code, out, err) = run("SessionStart");
    assert_eq!((code, out.trim()), (0, "branch main"), "{err}");
}

/// A Kiro handler under Claude: Kiro's payload (camelCase event, Kiro tool names, `@server/tool`
/// MCP names), and its exit 2 (or any failure, the safe reading) denies with stderr.
#[test]
fn kiro_handlers_under_claude() {
    let p = Project::new();
    let claude = |tool: &str, input: Value| {
        json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": p.project,
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input, "tool_use_id": "t1"})
        .to_string()
    };
    let exec = |script: &str, stdin: String| {
        p.hookx(
            &[
                "exec",
                "--host",
                "claude",
                "--as",
                "kiro",
                "--event",
                "PreToolUse",
                "--",
                "sh",
                "-c",
                script,
            ],
            stdin,
        )
    };
    let (code, out, err) = exec(
        "cat > got.json; echo 'not with npm' >&2; exit 2",
        claude("Bash", json!({"command": "npm i"})),
    );
    assert_eq!(code, 0, "{err}");
    let hso = &json_of(&out)["hookSpecificOutput"];
    assert_eq!(hso["permissionDecision"], "deny", "{out}");
    assert_eq!(hso["permissionDecisionReason"], "not with npm", "{out}");
    let got = p.read("got.json");
    assert_eq!(got["hook_event_name"], "preToolUse");
    assert_eq!(got["tool_name"], "execute_bash");
    assert_eq!(got["tool_input"]["command"], "npm i");

    let (code, _, err) = exec(
        "cat > got.json",
        claude("Write", json!({"file_path": "a.txt", "content": "hi"})),
    );
    assert_eq!(code, 0, "{err}");
    let got = p.read("got.json");
    assert_eq!(got["tool_name"], "fs_write");
    assert_eq!(
        got["tool_input"],
        json!({"path": "a.txt", "file_text": "hi"})
    );

    let (code, _, err) = exec(
        "cat > got.json",
        claude("mcp__postgres__query", json!({"sql": "SELECT 1"})),
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(p.read("got.json")["tool_name"], "@postgres/query");

    // The sources disagree on other codes; a failing Kiro guard denies.
    let (code, out, err) = exec("exit 1", claude("Bash", json!({"command": "ls"})));
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        json_of(&out)["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
}

/// A disabled Kiro rule never runs under another host; an enabled one in the same file does.
#[test]
fn a_disabled_kiro_rule_never_runs() {
    let p = Project::new();
    p.write(
        ".kiro/hooks/guards.json",
        json!({"version": "v1", "hooks": [
            {"name": "off", "trigger": "PreToolUse", "matcher": "execute_bash",
             "action": {"type": "command", "command": "touch off-ran"}, "enabled": false},
            {"name": "on", "trigger": "PreToolUse", "matcher": "execute_bash",
             "action": {"type": "command", "command": "touch on-ran"}},
            {"name": "ask", "trigger": "PreToolUse",
             "action": {"type": "agent", "prompt": "Check the tests"}},
        ]}),
    );
    p.trust();
    let claude = json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": p.project,
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "t1"});
    let (code, out, err) = p.hookx(
        &["run", "--host", "claude", "--event", "PreToolUse"],
        claude.to_string(),
    );
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
    assert!(p.project.join("on-ran").exists(), "{err}");
    assert!(!p.project.join("off-ran").exists(), "{err}");
}

/// `install --host kiro` writes hookx's own `.kiro/hooks/hookx.json` whole; its route, run the
/// way Kiro runs a command (`sh -c`, the documented payload on stdin), denies with exit 2. A
/// second install changes nothing, the user's other hook files stay byte for byte, and
/// uninstall removes the file. A `hookx.json` of the user's own is refused and left as it is.
#[test]
fn installed_routes_run_under_kiro() {
    let p = Project::new();
    p.write(
        ".bricks/hooks.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "bash", "hooks": [
            {"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"bricks says no\"}}'"}
        ]}]}}),
    );
    let own = "{\"version\": \"v1\", \"hooks\": [{\"name\": \"fmt\", \"trigger\": \"PostToolUse\", \"action\": {\"type\": \"command\", \"command\": \"cargo fmt\"}}]}\n";
    common::write(&p.project, ".kiro/hooks/own.json", own);
    p.trust();
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    let install = |extra: &[&str]| {
        let mut args = vec![
            "install",
            "--host",
            "kiro",
            "--hookx",
            hookx.to_str().unwrap(),
        ];
        args.extend(extra);
        p.hookx(&args, "")
    };
    let (code, out, err) = install(&[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("PreToolUse"), "{out}");
    let file = p.project.join(".kiro/hooks/hookx.json");
    let text = std::fs::read_to_string(&file).unwrap();
    let routes = p.read(".kiro/hooks/hookx.json");
    assert_eq!(routes["version"], "v1");
    let rule = &routes["hooks"][0];
    assert_eq!(rule["trigger"], "PreToolUse", "{routes}");
    assert_eq!(rule["name"], "hookx-PreToolUse");
    assert_eq!(rule["timeout"], hookx::route::ROUTE_TIMEOUT);
    let route = rule["action"]["command"].as_str().unwrap().to_string();

    let out = p.route(
        &route,
        documented("kiro-docs", "PreToolUse", &p.project).as_bytes(),
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("bricks says no"));

    let (code, out, err) = install(&[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("already installed"), "{out}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    // hookx's routes are not rules it runs.
    let (code, out, _) = p.hookx(&["list", "--format", "json", "--host", "claude"], "");
    assert_eq!(code, 0);
    assert!(!out.contains("run --host kiro"), "{out}");

    let (code, _, err) = install(&["--uninstall"]);
    assert_eq!(code, 0, "{err}");
    assert!(!file.exists());
    let (code, _, err) = install(&["--uninstall"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read_to_string(p.project.join(".kiro/hooks/own.json")).unwrap(),
        own
    );

    // A file of that name that is the user's: refused, untouched.
    common::write(&p.project, ".kiro/hooks/hookx.json", own);
    let (code, _, err) = install(&[]);
    assert_ne!(code, 0);
    assert!(
        err.contains("hookx.json") && err.contains("did not write"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), own);

    // One with a key of the user's beside an empty list (attacks row 1401): install wrote the
    // list whole without it, and uninstall deleted the file; now refused, untouched.
    let described = "{\n  \"$schema\": \"https://example.com/kiro.json\",\n  \"description\": \"mine\",\n  \"version\": \"v1\",\n  \"hooks\": []\n}\n";
    std::fs::write(&file, described).unwrap();
    let (code, _, err) = install(&[]);
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("holds `$schema`"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), described);
    let (code, _, err) = install(&["--uninstall"]);
    assert_ne!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), described);
}

/// `validate`, `list` and `schema` know Kiro's rule lists; an unknown trigger is a warning
/// naming its position, a rule without an action an error naming its position.
#[test]
fn validate_list_and_schema_know_kiro_rule_lists() {
    let p = Project::new();
    let text = r#"{
  "version": "v1",
  "hooks": [
    {"name": "lint", "trigger": "PostFileSave", "matcher": "\\.ts$", "action": {"type": "command", "command": "npm run lint"}},
    {"name": "typo", "trigger": "PreToolUs", "action": {"type": "command", "command": "./x.sh"}},
    {"name": "broken", "trigger": "Stop"}
  ]
}
"#;
    common::write(&p.project, ".kiro/hooks/a.json", text);
    let (code, out, _) = p.hookx(&["validate", ".kiro/hooks/a.json"], "");
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains(".kiro/hooks/a.json:5:") && out.contains("unknown kiro event `PreToolUs`"),
        "{out}"
    );
    assert!(out.contains("(did you mean `PreToolUse`?)"), "{out}");
    assert!(
        out.contains(".kiro/hooks/a.json:6:") && out.contains("a rule needs an `action`"),
        "{out}"
    );
    assert!(
        !out.contains("PostFileSave"),
        "a Kiro trigger is no unknown event: {out}"
    );

    let (code, out, err) = p.hookx(&["schema", "kiro"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_of(&out)["properties"]["version"]["const"], "v1");
}

/// `convert --to kiro --write` writes a rule list of hookx's own: a second run from the same
/// source gives the same bytes, another source's rules stay beside them, and a file holding a
/// rule hookx did not write is refused and left as it is.
#[test]
fn convert_write_keeps_kiro_rule_lists_of_its_own() {
    let p = Project::new();
    let claude = |command: &str| {
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": command}]}]}})
    };
    p.write("a.json", claude("./a.sh"));
    p.write("b.json", claude("./b.sh"));
    let convert = |file: &str| {
        p.hookx(
            &[
                "convert", file, "--from", "claude", "--to", "kiro", "--write",
            ],
            "",
        )
    };
    let target = p.project.join(".kiro/hooks/hookx-converted.json");
    let (code, _, err) = convert("a.json");
    assert_eq!(code, 0, "{err}");
    let first = std::fs::read_to_string(&target).unwrap();
    let (code, _, err) = convert("a.json");
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), first);
    let (code, _, err) = convert("b.json");
    assert_eq!(code, 0, "{err}");
    let both = p.read(".kiro/hooks/hookx-converted.json");
    let commands: Vec<&str> = both["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["action"]["command"].as_str().unwrap())
        .collect();
    assert_eq!(commands.len(), 2, "{both}");
    assert!(
        commands[0].ends_with("./a.sh") && commands[1].ends_with("./b.sh"),
        "{both}"
    );

    let own = "{\"version\":\"v1\",\"hooks\":[{\"name\":\"mine\",\"trigger\":\"Stop\",\"action\":{\"type\":\"command\",\"command\":\"x\"}}]}\n";
    std::fs::write(&target, own).unwrap();
    let (code, _, err) = convert("a.json");
    assert_ne!(code, 0);
    assert!(err.contains("holds rules hookx did not write"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), own);

    // Attacks row 1400: a file with keys beside the list (which `validate` says are kept as
    // written), or of another `version` (a real Kiro IDE hook whose `trigger` is an object,
    // pranshusharmaa/Kiroween_Hackathon's `backend-tests.kiro.hook`, read as a list of no
    // rules), is left as it is: writing the list whole would lose them. The IDE hook's rule
    // outside a list is an error of its own since row 1574, which refuses the write first.
    for (name, own, why) in [
        (
            "described.json",
            "{\n  \"$schema\": \"https://example.com/kiro.json\",\n  \"description\": \"mine\",\n  \"version\": \"v1\",\n  \"hooks\": []\n}\n",
            "write another file of the folder",
        ),
        (
            "backend-tests.kiro.hook",
            "{\n  \"name\": \"Backend Tests Runner\",\n  \"version\": \"1.0.0\",\n  \"trigger\": {\"type\": \"fileSave\", \"patterns\": [\"src/**/*.ts\"]},\n  \"action\": {\"type\": \"sendMessage\", \"message\": \"Run the tests\"},\n  \"enabled\": true\n}\n",
            "outside a `hooks` list",
        ),
    ] {
        let target = p.project.join(".kiro/hooks").join(name);
        std::fs::write(&target, own).unwrap();
        let out = target.to_str().unwrap().to_string();
        let (code, _, err) = p.hookx(
            &[
                "convert", "a.json", "--from", "claude", "--to", "kiro", "--write", "--out", &out,
            ],
            "",
        );
        assert_ne!(code, 0, "{name}: {err}");
        assert!(err.contains(why), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), own, "{name}");
    }
}

/// `doctor`: a Kiro-only trigger fires under Kiro, natively, and never elsewhere (a note, not an
/// error); a rule with `enabled: false` is "off" everywhere, says why, and is no fault: doctor's
/// count of rules that fire nowhere (its exit 5) leaves it out.
#[test]
fn doctor_knows_kiro_triggers_and_disabled_rules() {
    let p = Project::new();
    p.write(
        ".kiro/hooks/a.json",
        json!({"version": "v1", "hooks": [
            {"name": "lint", "trigger": "PostFileSave", "matcher": "\\.ts$",
             "action": {"type": "command", "command": "npm run lint"}},
            {"name": "off", "trigger": "PreToolUse",
             "action": {"type": "command", "command": "./off.sh"}, "enabled": false},
        ]}),
    );
    p.trust();
    let (code, out, err) = p.hookx(&["doctor", "--all-hosts", "--format", "json"], "");
    let report = json_of(&out);
    let rules = report["files"][0]["rules"]
        .as_array()
        .unwrap_or_else(|| panic!("{err}"));
    let verdict = |rule: &Value, host: &str| -> (String, String) {
        let v = rule["hosts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["host"] == host)
            .unwrap();
        let messages: Vec<&str> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["message"].as_str().unwrap())
            .collect();
        (
            v["status"].as_str().unwrap().to_string(),
            messages.join("; "),
        )
    };
    let (status, findings) = verdict(&rules[0], "kiro");
    assert_eq!(status, "fires", "{findings}");
    let (status, findings) = verdict(&rules[0], "claude");
    assert_eq!(status, "never");
    assert!(findings.contains("an event only Kiro fires"), "{findings}");
    for host in ["kiro", "claude"] {
        let (status, findings) = verdict(&rules[1], host);
        assert_eq!(status, "off", "{host}");
        assert!(findings.contains("`enabled: false`"), "{host}: {findings}");
    }
    assert_eq!(report["never_fire"], 0);
    assert_eq!(code, 0, "{err}");
}

/// Kiro runs the user's and the project's hook files both: with hookx installed in each, the
/// project route (which names itself) leaves an event the user route also takes to it, so a
/// handler runs once.
#[test]
fn kiro_user_and_project_routes_run_a_handler_once() {
    let p = Project::new();
    p.write(
        ".bricks/hooks.json",
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo project >> runs.txt"}]}]}}),
    );
    common::write(
        &p.home,
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo user >> runs.txt"}]}]}})
            .to_string(),
    );
    p.trust();
    let hookx = assert_cmd::cargo::cargo_bin("hookx");
    for scope in ["project", "user"] {
        let (code, _, err) = p.hookx(
            &[
                "install",
                "--host",
                "kiro",
                "--scope",
                scope,
                "--hookx",
                hookx.to_str().unwrap(),
            ],
            "",
        );
        assert_eq!(code, 0, "{scope}: {err}");
    }
    let route = |file: &Path| -> String {
        let list: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        list["hooks"][0]["action"]["command"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let project_route = route(&p.project.join(".kiro/hooks/hookx.json"));
    let user_route = route(&p.home.join(".kiro/hooks/hookx.json"));
    // (Then `--home`: the tests' home is not the account's.)
    assert!(
        project_route.contains(" --installed-in project"),
        "{project_route}"
    );
    assert_ne!(project_route, user_route);
    for command in [&project_route, &user_route] {
        let out = p.route(
            command,
            documented("kiro-docs", "PreToolUse", &p.project).as_bytes(),
        );
        assert_eq!(out.status.code(), Some(0), "{command}: {out:?}");
    }
    let mut runs: Vec<String> = std::fs::read_to_string(p.project.join("runs.txt"))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    runs.sort();
    assert_eq!(runs, ["project", "user"]);
}

/// Kiro's matcher forms under another host ([q-cli]): `@builtin` fires for every tool but MCP
/// tools, `@git` for the tools of server `git` only (not `@github/…`), `@git/status` for that
/// tool only, `*` for all; `fs_*` is an unanchored regex (`conformance/kiro-facts.md`): it
/// fires for `fs_read` and `fs_write` (and `fsWrite`, the same tool), not for `execute_bash`.
/// A rule with `timeout: 0` (no timeout) runs.
#[test]
fn kiro_matcher_forms_under_claude() {
    let p = Project::new();
    let rule = |name: &str, matcher: &str| {
        json!({"name": name, "trigger": "PreToolUse", "matcher": matcher,
            "action": {"type": "command", "command": format!("echo {name} >> fired.log")}})
    };
    p.write(
        ".kiro/hooks/forms.json",
        json!({"version": "v1", "hooks": [
            rule("builtin", "@builtin"), rule("git", "@git"), rule("git-status", "@git/status"),
            // `timeout: 0`, no timeout: it runs to the end.
            json!({"name": "all", "trigger": "PreToolUse", "matcher": "*", "timeout": 0,
                "action": {"type": "command", "command": "echo all >> fired.log"}}),
            rule("fs", "fs_*"),
        ]}),
    );
    p.trust();
    let fired = |tool: &str| {
        let claude = json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": p.project,
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": {}, "tool_use_id": "t1"});
        let (code, _, err) = p.hookx(
            &["run", "--host", "claude", "--event", "PreToolUse"],
            claude.to_string(),
        );
        assert_eq!(code, 0, "{err}");
        let log = p.project.join("fired.log");
        let mut names: Vec<String> = std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        let _ = std::fs::remove_file(&log);
        names.sort();
        names
    };
    assert_eq!(fired("Bash"), ["all", "builtin"]);
    assert_eq!(fired("Read"), ["all", "builtin", "fs"]);
    assert_eq!(fired("Write"), ["all", "builtin", "fs"]);
    assert_eq!(fired("mcp__git__status"), ["all", "git", "git-status"]);
    assert_eq!(fired("mcp__git__log"), ["all", "git"]);
    assert_eq!(fired("mcp__github__create_issue"), ["all"]);
}

/// Attacks row 205: the other way round. A Claude or Qwen `timeout: 0` is that agent's default
/// (600 s, 60 s in hookx's tables; Qwen's loader: "not a positive number of seconds, so the
/// default of 60 seconds is used"), while Kiro reads `0` as no timeout at all: converted as
/// written, a hook its agent ended at the default ran unbounded under Kiro, no loss said. The
/// source's default is written instead, as for a timeout left out.
#[test]
fn a_zero_timeout_that_means_the_default_converts_as_that_default() {
    let p = Project::new();
    let entry = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "echo g", "timeout": 0}]}]}});
    p.write(".claude/settings.json", entry.clone());
    p.write(".qwen/settings.json", entry);
    // Qwen's 60 s is Kiro's own default: left out.
    for (file, written) in [
        (".claude/settings.json", json!(600)),
        (".qwen/settings.json", Value::Null),
    ] {
        let (code, out, err) = p.hookx(&["convert", file, "--to", "kiro", "--no-wrap"], "");
        assert_eq!(code, 0, "{err}");
        assert_eq!(
            json_of(&out)["hooks"][0]["timeout"],
            written,
            "{file}: {out}"
        );
    }
    // Copilot does not load an entry whose `timeoutSec` is 0 (live, 1.0.102): the guard ran
    // nowhere under Copilot, said only by validate on the converted file.
    for wrap in [&["--no-wrap"][..], &[]] {
        let args = [
            &["convert", ".claude/settings.json", "--to", "copilot"],
            wrap,
        ]
        .concat();
        let (code, out, err) = p.hookx(&args, "");
        assert_eq!(code, 0, "{err}");
        let entry = &json_of(&out)["hooks"]["preToolUse"][0];
        assert_eq!(entry["timeoutSec"], 600, "{wrap:?}: {out}");
    }
}

/// Attacks row 208: Qwen Code 0.24.4 reads a hook timeout written as a string as a number
/// (`readCommandHookTimeout`: `typeof timeout === "string" && timeout.trim() !== "" ?
/// Number(timeout)`), so `"30"` is 30 s and `"5000"` 5 s (its millisecond rule). validate
/// called both an error (exit 1 on a file Qwen loads as meant) and convert wrote the target's
/// default in their place, a loss.
#[test]
fn a_qwen_timeout_written_as_a_string_is_read_as_qwen_reads_it() {
    let p = Project::new();
    // Qwen's `Number()` reads hex, binary and octal prefixes too, and trims JavaScript's
    // white space (a byte order mark among it): attacks row 219.
    for (written, seconds) in [
        ("30", 30),
        (" 30 ", 30),
        ("5000", 5),
        ("0x10", 16),
        ("0X10", 16),
        ("0b11", 3),
        ("0o7", 7),
        (" 0x10 ", 16),
        ("\u{feff}30\u{2028}", 30),
        ("0x3e8", 1),
    ] {
        p.write(
            ".qwen/settings.json",
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "echo g", "timeout": written}]}]}}),
        );
        let (code, out, err) = p.hookx(&["validate", ".qwen/settings.json"], "");
        assert_eq!(code, 0, "{written:?}: {out}{err}");
        let args = [
            "convert",
            ".qwen/settings.json",
            "--to",
            "claude",
            "--no-wrap",
        ];
        let (code, out, err) = p.hookx(&args, "");
        assert_eq!(code, 0, "{err}");
        let handler = &json_of(&out)["hooks"]["PreToolUse"][0]["hooks"][0];
        assert_eq!(handler["timeout"], seconds, "{written:?}: {out}");
        assert!(!err.contains("timeout"), "{written:?}: {err}");
    }
}

/// Attacks row 214: `convert --write` of an agent's own project file into its own dialect
/// (`.qwen/settings.json --to qwen`). Where the conversion spells a rule otherwise (Qwen's
/// `"timeout": 5000`, its milliseconds, comes out as 5; a fractional timeout rounded up), the
/// merge added the converted copy beside the original in the same file, "no losses": Qwen then
/// ran the guard twice. The file is the source itself: nothing is written into it.
#[test]
fn converting_an_agents_file_onto_itself_adds_no_second_copy() {
    let p = Project::new();
    for timeout in [json!(5000), json!(1.5), json!("5000"), json!(30)] {
        let file = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./guard.sh", "timeout": timeout}]}]}});
        p.write(".qwen/settings.json", file.clone());
        let (code, _, err) = p.hookx(
            &["convert", ".qwen/settings.json", "--to", "qwen", "--write"],
            "",
        );
        assert_eq!(code, 0, "{err}");
        let after = std::fs::read_to_string(p.project.join(".qwen/settings.json")).unwrap();
        assert_eq!(json_of(&after), file, "{timeout}: {err}");
    }
    // Among other inputs: their rules go in, the file's own are not copied into it again.
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "./c.sh"}]}]}}),
    );
    let args = [
        "convert",
        ".qwen/settings.json",
        ".claude/settings.json",
        "--to",
        "qwen",
        "--write",
    ];
    let (code, _, err) = p.hookx(&args, "");
    assert_eq!(code, 0, "{err}");
    let after = json_of(&std::fs::read_to_string(p.project.join(".qwen/settings.json")).unwrap());
    assert_eq!(
        after["hooks"]["PreToolUse"].as_array().map(Vec::len),
        Some(1),
        "{after}"
    );
    assert!(after["hooks"]["Stop"].is_array(), "{after}");
}

/// Converted from Kiro: `@builtin` becomes the built-in tools by name (a located loss: a newer
/// tool does not fire it), `@git` every tool of server `git`; `timeout: 0` ("no timeout")
/// stays 0 within Kiro and is left out for Claude, which cannot say "none" (a located loss).
#[test]
fn kiro_builtin_matcher_and_zero_timeout_convert() {
    let p = Project::new();
    p.write(
        ".kiro/hooks/forms.json",
        json!({"version": "v1", "hooks": [
            {"name": "b", "trigger": "PreToolUse", "matcher": "@builtin",
             "action": {"type": "command", "command": "echo b"}},
            {"name": "g", "trigger": "PreToolUse", "matcher": "@git",
             "action": {"type": "command", "command": "echo g"}, "timeout": 0},
        ]}),
    );
    let (code, out, err) = p.hookx(
        &[
            "convert",
            ".kiro/hooks/forms.json",
            "--to",
            "claude",
            "--no-wrap",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let groups = &json_of(&out)["hooks"]["PreToolUse"];
    assert_eq!(groups[0]["matcher"], "Bash|Write|Edit|Read", "{out}");
    assert_eq!(groups[1]["matcher"], "mcp__git__.*", "{out}");
    assert_eq!(groups[1]["hooks"][0].get("timeout"), None, "{out}");
    assert!(
        err.contains("(/hooks/0/matcher)")
            && err.contains("`@builtin` fires for every tool but MCP tools"),
        "{err}"
    );
    assert!(
        err.contains("(/hooks/1/timeout)") && err.contains("kiro reads it as no timeout"),
        "{err}"
    );

    let (code, out, err) = p.hookx(&["convert", ".kiro/hooks/forms.json", "--to", "kiro"], "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(json_of(&out)["hooks"][1]["timeout"], 0, "{out}");
    // `validate` no longer calls Kiro's `timeout: 0` an instant kill.
    let (_, out, err) = p.hookx(&["validate", ".kiro/hooks/forms.json"], "");
    assert!(!format!("{out}{err}").contains("timeout 0"), "{out}{err}");
}

/// `convert --write` into a file the user trusted: hookx's edit keeps the trust where every
/// input is trusted as it is (as `hookx sync` does), and says so where one is not: until the
/// user trusts the file again, `hookx run` runs none of its hooks, the user's own guard among
/// them (attacks row 243: the guard was skipped under every routed host, not a word said).
#[test]
fn converting_into_a_trusted_file_keeps_its_trust_or_says_it_is_lost() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./guard.sh"}]}]}}),
    );
    p.write(
        ".gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [
            {"type": "command", "command": "./wguard.sh"}]}]}}),
    );
    let (code, _, err) = p.hookx(&["trust", "--yes"], "");
    assert_eq!(code, 0, "{err}");
    let state = |p: &Project| {
        let (_, out, _) = p.hookx(&["trust", "--list"], "");
        out.lines()
            .find(|l| l.contains(".claude/settings.json"))
            .map(|l| l.split_whitespace().next().unwrap_or_default().to_string())
            .unwrap_or_default()
    };
    let convert = [
        "convert",
        ".gemini/settings.json",
        "--to",
        "claude",
        "--write",
    ];
    let (code, _, err) = p.hookx(&convert, "");
    assert_eq!(code, 0, "{err}");
    assert_eq!(state(&p), "trusted", "{err}");
    // A source nobody reviewed: the file is changed since trusted, and convert says so.
    p.write(
        ".cursor/hooks.json",
        json!({"version": 1, "hooks": {"beforeShellExecution": [{"command": "./c.sh"}]}}),
    );
    let (code, _, err) = p.hookx(
        &["convert", ".cursor/hooks.json", "--to", "claude", "--write"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(state(&p), "changed", "{err}");
    assert!(
        err.contains("hookx trust .claude/settings.json"),
        "convert said: {err}"
    );
    // A trusted Droid file read as Claude's: its command would run with Claude's payload and
    // answers, not the ones reviewed (as sync refuses, row 33).
    let (code, _, err) = p.hookx(&["trust", "--yes"], "");
    assert_eq!(code, 0, "{err}");
    p.write(
        ".factory/settings.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [
            {"type": "command", "command": "./d.sh"}]}]}}),
    );
    let (code, _, err) = p.hookx(&["trust", "--yes"], "");
    assert_eq!(code, 0, "{err}");
    let misread = [
        "convert",
        ".factory/settings.json",
        "--from",
        "claude",
        "--to",
        "gemini",
        "--write",
    ];
    let (code, _, err) = p.hookx(&misread, "");
    assert_eq!(code, 0, "{err}");
    let (_, out, _) = p.hookx(&["trust", "--list"], "");
    assert!(
        out.lines()
            .any(|l| l.starts_with("changed") && l.contains(".gemini/settings.json")),
        "{out}"
    );
}

/// A round trip A → B → A with `--write`: the copies in B of A's own rules do not go back into
/// A beside their originals. A Gemini handler with `name` and `description` (which Claude
/// cannot say, a loss) came back without them, so not as the original, and was added beside
/// it: Gemini, which runs one handler per `name:command`, ran the guard twice (attacks row 246;
/// real files of the corpus, Gemini's, Droid's and Augment's, did this).
#[test]
fn a_round_trip_with_write_brings_no_copy_home() {
    let p = Project::new();
    let gemini = json!({"hooks": {"BeforeTool": [{"matcher": "write_file|replace", "hooks": [
        {"name": "block-secrets", "type": "command", "command": "./block.sh",
         "description": "deny secrets", "timeout": 4000}]}]}});
    p.write(".gemini/settings.json", gemini.clone());
    for args in [
        [
            "convert",
            ".gemini/settings.json",
            "--to",
            "claude",
            "--write",
        ],
        [
            "convert",
            ".claude/settings.json",
            "--to",
            "gemini",
            "--write",
        ],
    ] {
        let (code, _, err) = p.hookx(&args, "");
        assert_eq!(code, 0, "{err}");
    }
    let after = std::fs::read_to_string(p.project.join(".gemini/settings.json")).unwrap();
    assert_eq!(json_of(&after), gemini, "{after}");
}

/// A recorded Stop payload of `client` (its session, `stop_hook_active` set to `active`), with
/// the project and home put in.
fn recorded_stop(p: &Project, fixture: &str, active: bool) -> String {
    let path = common::fixtures_dir().join("recorded").join(fixture);
    let fixture: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut stdin = fixture["stdin"].clone();
    stdin["stop_hook_active"] = json!(active);
    stdin
        .to_string()
        .replace("<project>", p.project.to_str().unwrap())
        .replace("<home>", p.home.to_str().unwrap())
}

/// Attacks row 306: a trusted Cursor `stop` hook that always follows up relies on Cursor's own
/// cap (`loop_limit`, default 5). Run under a host whose Stop says whether it is a
/// continuation (`stop_hook_active`), hookx keeps that cap: the hook gets the `loop_count`
/// Cursor would give it, and once it has followed up `loop_limit` times in a row its
/// follow-up is no longer a Stop block (said on stderr). A stop that is no continuation
/// starts the count again.
#[test]
fn a_cursor_stop_hook_that_always_follows_up_stops_at_its_loop_limit_under_other_hosts() {
    for (host, fixture, limit) in [
        ("claude", "claude-2.1.332/pty.13.Stop.json", None),
        ("codex", "codex-0.171.0/agents.17.Stop.json", Some(2)),
    ] {
        let p = Project::new();
        let mut entry = json!({"command": "{ cat; echo; } >> counts.jsonl; echo '{\"followup_message\":\"run the tests again\"}'"});
        if let Some(limit) = limit {
            entry["loop_limit"] = json!(limit);
        }
        p.write(
            ".cursor/hooks.json",
            json!({"version": 1, "hooks": {"stop": [entry]}}),
        );
        p.trust();
        let limit = limit.unwrap_or(5);
        let stop = |active: bool| {
            p.hookx(
                &["run", "--host", host, "--event", "Stop"],
                recorded_stop(&p, fixture, active),
            )
        };
        let counts = || -> Vec<Value> {
            std::fs::read_to_string(p.project.join("counts.jsonl"))
                .unwrap()
                .lines()
                .map(|l| json_of(l)["loop_count"].clone())
                .collect()
        };
        // The first stop, then every continuation the block causes.
        let mut blocks = 0;
        for round in 0..limit + 3 {
            let (code, out, err) = stop(round > 0);
            assert_eq!(code, 0, "{host} {round}: {err}");
            if out.trim().is_empty() {
                assert!(err.contains("loop_limit"), "{host} {round}: {err}");
            } else {
                assert_eq!(json_of(&out)["decision"], "block", "{host} {round}: {out}");
                blocks += 1;
            }
        }
        assert_eq!(blocks, limit, "{host}: {:?}", counts());
        let expected: Vec<Value> = (0..limit + 3).map(|n| json!(n.min(limit))).collect();
        assert_eq!(counts(), expected, "{host}");
        // A stop that is no continuation (the user's next prompt) starts again at 0.
        let (_, out, err) = stop(false);
        assert_eq!(json_of(&out)["decision"], "block", "{host}: {err}");
        assert_eq!(counts().last(), Some(&json!(0)), "{host}");
    }
}

/// Attacks row 380: row 306's trap with the hook's own agent Claude Code, Qwen Code or Gemini
/// CLI. A trusted Claude `Stop` hook that always blocks (it never reads `stop_hook_active`, a
/// common slip) is ended by its own agent: Claude Code 2.1.332 overrides a Stop block past 8 in a row
/// (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP ?? 8`, binary read), Qwen Code 0.24.4 likewise
/// (`stopHookBlockingCap`, default 8, its bundled docs); a Gemini `AfterAgent` hook by Gemini
/// CLI 0.61.0's turn budget (100, bundle read). Run by hookx under Codex 0.171.0, which caps
/// none (row 306), hookx keeps that cap: 8 (100) blocks in a row, then the agent may stop; a
/// stop that is no continuation starts again.
#[test]
fn a_stop_hook_that_always_blocks_stops_at_its_agents_cap_under_codex() {
    for (file, event, cap) in [
        (".claude/settings.json", "Stop", 8),
        (".qwen/settings.json", "Stop", 8),
        (".gemini/settings.json", "AfterAgent", 100),
    ] {
        let p = Project::new();
        let block = r#"echo '{"decision":"block","reason":"run the tests again"}'"#;
        p.write(
            file,
            json!({"hooks": {event: [{"hooks": [{"type": "command", "command": block}]}]}}),
        );
        p.trust();
        let stop = |active: bool| {
            let stdin = recorded_stop(&p, "codex-0.171.0/agents.17.Stop.json", active);
            p.hookx(&["run", "--host", "codex", "--event", "Stop"], stdin)
        };
        let mut blocks = 0;
        for round in 0..cap + 4 {
            let (code, out, err) = stop(round > 0);
            assert_eq!(code, 0, "{file} {round}: {err}");
            if out.trim().is_empty() {
                assert!(err.contains("agent's cap of"), "{file} {round}: {err}");
            } else {
                assert_eq!(json_of(&out)["decision"], "block", "{file} {round}: {out}");
                blocks += 1;
            }
        }
        assert_eq!(blocks, cap, "{file}: blocks in a row under Codex");
        // A stop that is no continuation (the user's next prompt) starts again.
        let (_, out, err) = stop(false);
        assert_eq!(json_of(&out)["decision"], "block", "{file}: {err}");
    }
}

/// Attacks row 1302: row 380's cap on a subagent's stop. Qwen Code 0.24.4 overrides a
/// SubagentStop block past 8 in a row as it does a Stop's (bundle: `runSubagentStopHookLoop`,
/// `for (i < getStopHookBlockingCap())`; the setting's text: "consecutive blocking
/// Stop/SubagentStop hook decisions"). A trusted Qwen hook that always blocks a subagent's
/// stop, run by hookx's Copilot route (`subagentStop`, whose block continues the subagent; the
/// Claude case is Copilot's own, which runs Claude's files itself): its agent's cap ends the
/// loop.
#[test]
fn a_subagent_stop_hook_that_always_blocks_stops_at_its_agents_cap_under_copilot() {
    for file in [".qwen/settings.json"] {
        let p = Project::new();
        let block = r#"echo '{"decision":"block","reason":"check the helper again"}'"#;
        p.write(
            file,
            json!({"hooks": {"SubagentStop": [{"hooks": [{"type": "command", "command": block}]}]}}),
        );
        p.trust();
        let stop = |active: bool| {
            let stdin = recorded_stop(&p, "copilot-1.0.102/tools.47.subagentStop.json", active);
            p.hookx(
                &["run", "--host", "copilot", "--event", "subagentStop"],
                stdin,
            )
        };
        let mut blocks = 0;
        for round in 0..12 {
            let (code, out, err) = stop(round > 0);
            assert_eq!(code, 0, "{file} {round}: {err}");
            if out.trim().is_empty() {
                assert!(err.contains("agent's cap of"), "{file} {round}: {err}");
            } else {
                assert_eq!(json_of(&out)["decision"], "block", "{file} {round}: {out}");
                blocks += 1;
            }
        }
        assert_eq!(
            blocks, 8,
            "{file}: subagent stop blocks in a row under Copilot"
        );
    }
}

/// Attacks row 1307: Copilot CLI 1.0.102 fires `agentStop` (and `Stop` in its PascalCase form)
/// at a subagent's end, naming it (`agentId`), before `subagentStop` (recorded `tools.45`-`48`).
/// A trusted Gemini `AfterAgent` hook and a Qwen `Stop` hook that block, run by hookx's Copilot
/// route, are written for the main agent's end only (Gemini fires no AfterAgent for a
/// subagent, Qwen its SubagentStop): at the subagent's stop they do not run, at the main
/// agent's they block.
#[test]
fn a_subagents_stop_runs_no_foreign_stop_rule_under_copilot() {
    let p = Project::new();
    let block = |name: &str| {
        json!([{"hooks": [{"type": "command", "command": format!(
            "echo {name} >> ran; echo '{{\"decision\":\"block\",\"reason\":\"{name}\"}}'"
        )}]}])
    };
    p.write(
        ".gemini/settings.json",
        json!({"hooks": {"AfterAgent": block("gemini")}}),
    );
    p.write(
        ".qwen/settings.json",
        json!({"hooks": {"Stop": block("qwen")}}),
    );
    p.trust();
    let ran = p.project.join("ran");
    for (fixture, event, subagent) in [
        ("copilot-1.0.102/tools.45.agentStop.json", "agentStop", true),
        ("copilot-1.0.102/tools.46.Stop.json", "Stop", true),
        (
            "copilot-1.0.102/tools.51.agentStop.json",
            "agentStop",
            false,
        ),
        ("copilot-1.0.102/tools.52.Stop.json", "Stop", false),
    ] {
        let _ = std::fs::remove_file(&ran);
        let stdin = recorded_stop(&p, fixture, false);
        let (code, out, err) = p.hookx(&["run", "--host", "copilot", "--event", event], stdin);
        assert_eq!(code, 0, "{fixture}: {err}");
        let runs = std::fs::read_to_string(&ran).unwrap_or_default();
        if subagent {
            assert!(
                out.trim().is_empty(),
                "{fixture}: a subagent's stop blocked: {out}"
            );
            assert_eq!(runs, "", "{fixture}: Stop rules ran at a subagent's stop");
        } else {
            assert_eq!(json_of(&out)["decision"], "block", "{fixture}: {out} {err}");
            assert_eq!(runs.lines().count(), 2, "{fixture}: {runs}");
        }
    }
}

/// Attacks row 460: row 380's agent-wide cap, counted per hook. Claude Code 2.1.332 counts the
/// stops in a row that any Stop hook blocked (binary: `stopHookBlockingCount`, one count for
/// the turn's chain of continuations, "A hook blocked the turn from ending N consecutive
/// times"); Qwen Code 0.24.4 likewise (bundle: `nextStopHookBlock(promptId)`, one chain per
/// prompt). Two trusted Stop hooks that take turns to block (the tests, then the lint, then the
/// tests …), both Claude's or a Claude and a Qwen one, run under Codex (which caps none): each
/// hook's count started again at each stop it let pass, so none reached 8 and the agent never
/// stopped. One count for every hook whose agent caps them all together.
#[test]
fn stop_hooks_that_take_turns_to_block_stop_at_their_agents_cap_under_codex() {
    for second in [".claude/settings.json", ".qwen/settings.json"] {
        let p = Project::new();
        let hook = |name: &str| {
            json!({"type": "command", "command": format!(
                "grep -qx {name} turn && echo '{{\"decision\":\"block\",\"reason\":\"{name} again\"}}' || true"
            )})
        };
        let stop = |hooks: Vec<Value>| json!({"hooks": {"Stop": [{"hooks": hooks}]}});
        match second {
            ".claude/settings.json" => p.write(second, stop(vec![hook("tests"), hook("lint")])),
            _ => {
                p.write(".claude/settings.json", stop(vec![hook("tests")]));
                p.write(second, stop(vec![hook("lint")]));
            }
        }
        p.trust();
        let mut blocks = 0;
        for round in 0..20 {
            let turn = ["tests", "lint"][round % 2];
            std::fs::write(p.project.join("turn"), format!("{turn}\n")).unwrap();
            let stdin = recorded_stop(&p, "codex-0.171.0/agents.17.Stop.json", round > 0);
            let (code, out, err) = p.hookx(&["run", "--host", "codex", "--event", "Stop"], stdin);
            assert_eq!(code, 0, "{second} {round}: {err}");
            if out.trim().is_empty() {
                assert!(err.contains("agent's cap of 8"), "{second} {round}: {err}");
            } else {
                assert_eq!(
                    json_of(&out)["decision"],
                    "block",
                    "{second} {round}: {out}"
                );
                blocks += 1;
            }
        }
        assert_eq!(blocks, 8, "{second}: stops kept going in a row under Codex");
    }
    // The two converted into Codex's own file, each run by its own `hookx exec`: a hook that
    // lets a stop pass cannot tell whether the other blocked it.
    let p = Project::new();
    let hook = |name: &str| {
        json!({"type": "command", "command": format!(
            "grep -qx {name} turn && echo '{{\"decision\":\"block\",\"reason\":\"{name} again\"}}' || true"
        )})
    };
    p.write(
        ".claude/settings.json",
        json!({"hooks": {"Stop": [{"hooks": [hook("tests"), hook("lint")]}]}}),
    );
    let bin = env!("CARGO_BIN_EXE_hookx");
    let args = [
        "convert",
        ".claude/settings.json",
        "--to",
        "codex",
        "--hookx",
        bin,
    ];
    let (code, out, err) = p.hookx(&args, "");
    assert_eq!(code, 0, "{err}");
    let copies = json_of(&out)["hooks"]["Stop"][0]["hooks"].clone();
    let lines: Vec<String> = copies
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["command"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    let mut blocked_stops = 0;
    for round in 0..20 {
        let turn = ["tests", "lint"][round % 2];
        std::fs::write(p.project.join("turn"), format!("{turn}\n")).unwrap();
        let stdin = recorded_stop(&p, "codex-0.171.0/agents.17.Stop.json", round > 0);
        let mut blocked = false;
        for line in &lines {
            let out = assert_cmd::Command::new("sh")
                .args(["-c", line])
                .current_dir(&p.project)
                .env_remove("HOOKX_HOME")
                .env("HOME", &p.home)
                .write_stdin(stdin.clone())
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&out.stdout);
            blocked |= !said.trim().is_empty();
        }
        blocked_stops += usize::from(blocked);
    }
    assert_eq!(blocked_stops, 8, "through exec: stops kept going in a row");
}

/// Attacks row 1163: a trusted Claude `Stop` hook that ends its own loop as Claude's
/// documents teach (block, then let the stop that continues it pass: `stop_hook_active`), run by
/// hookx under Cursor, whose `stop` says how many follow-ups it continues (`loop_count`, docs)
/// and not whether it continues one. Under Claude it blocks once; under Cursor, given no
/// `stop_hook_active`, it blocked on every stop until a cap ended the row (Cursor's
/// `loop_limit` of 5 on hookx's route, hookx's cap of 8 for Claude hooks): four turns more.
/// The count implies it: `loop_count` above 0 is a continuation. Through the route (a Gemini
/// `AfterAgent` hook of the same form: Cursor runs Claude's files itself) and a converted copy.
#[test]
fn a_stop_hook_that_ends_its_own_loop_ends_it_under_cursor() {
    let guard = r#"if grep -q '"stop_hook_active": *true'; then exit 0; fi; echo '{"decision":"block","reason":"run the tests"}'"#;
    let stop = |p: &Project, count: u64| {
        let path = common::fixtures_dir().join("documented/cursor-docs/stop.json");
        let fixture: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut stdin = fixture["stdin"].clone();
        stdin["loop_count"] = json!(count);
        stdin
            .to_string()
            .replace("<project>", p.project.to_str().unwrap())
    };
    let p = Project::new();
    p.write(
        ".gemini/settings.json",
        json!({"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": guard}]}]}}),
    );
    p.trust();
    let exec = [
        "exec", "--host", "cursor", "--as", "claude", "--event", "Stop", "--", guard,
    ];
    for args in [
        &["run", "--host", "cursor", "--event", "stop"][..],
        &exec[..],
    ] {
        let (code, out, err) = p.hookx(args, stop(&p, 0));
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(
            json_of(&out)["followup_message"],
            "run the tests",
            "{args:?}: {err}"
        );
        // Cursor's next stop continues that follow-up: the hook lets it pass.
        let (code, out, err) = p.hookx(args, stop(&p, 1));
        assert_eq!(code, 0, "{args:?}: {err}");
        assert_eq!(
            out.trim(),
            "",
            "{args:?}: the hook blocked the stop it continues: {err}"
        );
    }
}

/// Row 306's leftovers. A stop whose payload names no session: on `d79a14b` every such session
/// shared one count (one could cap another early, and one's first stop reset the other's row,
/// so it might never cap); now no count is kept for it, so its follow-up is not passed on, as
/// at the cap, and stderr says why. A Cursor `subagentStop` hook's follow-up (which hookx turns
/// into a SubagentStop block; Cursor's docs read here document `followup_message` and
/// `loop_limit` on `stop` only) is capped as `stop`'s, per subagent: on `d79a14b` 8 blocks in
/// 8 continuations, no `loop_count`.
#[test]
fn follow_ups_without_a_session_or_from_a_subagent_stop_never_trap_the_agent() {
    let p = Project::new();
    let hook = |name: &str| json!([{"command": format!("{{ cat; echo; }} >> {name}.jsonl; echo '{{\"followup_message\":\"again\"}}'")}]);
    p.write(
        ".cursor/hooks.json",
        json!({"version": 1, "hooks": {"stop": hook("stop"), "subagentStop": hook("sub")}}),
    );
    p.trust();
    let run =
        |event: &str, stdin: String| p.hookx(&["run", "--host", "claude", "--event", event], stdin);
    let anonymous = |active: bool| {
        let mut stdin = json_of(&recorded_stop(
            &p,
            "claude-2.1.332/pty.13.Stop.json",
            active,
        ));
        stdin.as_object_mut().unwrap().remove("session_id");
        stdin.to_string()
    };
    for active in [false, true, true] {
        let (code, out, err) = run("Stop", anonymous(active));
        assert_eq!((code, out.trim()), (0, ""), "{err}");
        assert!(err.contains("names no session"), "{err}");
    }
    let subagent = |agent: &str, active: bool| {
        let text = recorded_stop(&p, "claude-2.1.332/compact.03.SubagentStop.json", active);
        let mut stdin = json_of(&text);
        stdin["agent_id"] = json!(agent);
        stdin.to_string()
    };
    let mut blocks = 0;
    for round in 0..8 {
        // A second subagent of the same session starts its own row meanwhile.
        if round == 3 {
            let (_, out, err) = run("SubagentStop", subagent("other", false));
            assert_eq!(json_of(&out)["decision"], "block", "{err}");
        }
        let (code, out, err) = run("SubagentStop", subagent("one", round > 0));
        assert_eq!(code, 0, "{round}: {err}");
        if out.trim().is_empty() {
            assert!(err.contains("loop_limit"), "{round}: {err}");
        } else {
            assert_eq!(json_of(&out)["decision"], "block", "{round}: {out}");
            blocks += 1;
        }
    }
    assert_eq!(blocks, 5);
    let counts: Vec<Value> = std::fs::read_to_string(p.project.join("sub.jsonl"))
        .unwrap()
        .lines()
        .map(|l| json_of(l)["loop_count"].clone())
        .collect();
    let one: Vec<Value> = (0..8).map(|n: u64| json!(n.min(5))).collect();
    let mut expected = one.clone();
    expected.insert(3, json!(0));
    assert_eq!(counts, expected);
}

/// Row 306's count where hookx cannot keep it (its folder is a file, or unwritable): the
/// follow-up is not passed on, as at the cap, and stderr says why. A Stop block hookx cannot
/// count would be a loop that might never end. A file of counts that is not one is replaced;
/// the file goes once the hook stops following up.
#[test]
fn a_follow_up_hookx_cannot_count_never_traps_the_agent() {
    let p = Project::new();
    p.write(
        ".cursor/hooks.json",
        json!({"version": 1, "hooks": {"stop": [{"command": "[ -e quiet ] || echo '{\"followup_message\":\"again\"}'"}]}}),
    );
    p.trust();
    let fixture = "claude-2.1.332/pty.13.Stop.json";
    let stop = |active: bool| {
        p.hookx(
            &["run", "--host", "claude", "--event", "Stop"],
            recorded_stop(&p, fixture, active),
        )
    };
    let counts = p.home.join(".hookx/follow-ups");
    std::fs::create_dir_all(counts.parent().unwrap()).unwrap();
    std::fs::write(&counts, "not a folder").unwrap();
    for active in [false, true] {
        let (code, out, err) = stop(active);
        assert_eq!((code, out.trim()), (0, ""), "{err}");
        assert!(
            err.contains("cannot keep the count") || err.contains("cannot read the count"),
            "{err}"
        );
    }
    // A file of counts hookx did not write is read as none, and replaced.
    std::fs::remove_file(&counts).unwrap();
    let (_, out, _) = stop(false);
    assert_eq!(json_of(&out)["decision"], "block");
    let files: Vec<_> = std::fs::read_dir(&counts)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "one session, one file");
    std::fs::write(&files[0], "[1, 2").unwrap();
    let (_, out, err) = stop(true);
    assert_eq!(json_of(&out)["decision"], "block", "{err}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert_eq!(
        json_of(&text)
            .as_object()
            .unwrap()
            .values()
            .collect::<Vec<_>>(),
        [&json!(1)]
    );
    std::fs::write(p.project.join("quiet"), "").unwrap();
    let (code, out, err) = stop(true);
    assert_eq!((code, out.trim()), (0, ""), "{err}");
    assert!(!files[0].exists(), "the count is gone with the row");
}

/// Attacks row 1510: a trusted Gemini `AfterAgent` hook that blocks once (Claude's idiom:
/// block unless the stop continues one), run under Claude, keeps the agent going once per
/// session. Its shared count stays after the second stop (the host says it continues one, row
/// 460), so each such session left a file in `~/.hookx/follow-ups/` for ever: a month of a
/// busy user, thousands. The next follow-up counted removes the files no follow-up wrote for a
/// day (and a killed write's temporary file); a file written since stays.
#[test]
fn the_counts_of_sessions_no_stop_kept_going_for_a_day_go_with_the_next_count() {
    let p = Project::new();
    p.write(
        ".gemini/settings.json",
        json!({"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command":
            "grep -q '\"stop_hook_active\":true' && echo '{}' || echo '{\"decision\":\"block\",\"reason\":\"run the tests\"}'"}]}]}}),
    );
    p.trust();
    let session = |id: &str| {
        for active in [false, true] {
            let mut stdin: Value = serde_json::from_str(&recorded_stop(
                &p,
                "claude-2.1.332/pty.13.Stop.json",
                active,
            ))
            .unwrap();
            stdin["session_id"] = json!(id);
            let (code, out, err) = p.hookx(
                &["run", "--host", "claude", "--event", "Stop"],
                stdin.to_string(),
            );
            assert_eq!(code, 0, "{err}");
            assert_eq!(out.contains("block"), !active, "{id} {active}: {out} {err}");
        }
    };
    let counts = p.home.join(".hookx/follow-ups");
    let files = || -> Vec<PathBuf> {
        let mut all: Vec<PathBuf> = std::fs::read_dir(&counts)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        all.sort();
        all
    };
    for i in 0..30 {
        session(&format!("old-{i}"));
    }
    assert_eq!(files().len(), 30, "one file a session, each blocked once");
    let killed = counts.join(".hookx-left");
    std::fs::write(&killed, "{}").unwrap();
    let two_days = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 24 * 3600);
    for file in files() {
        let f = std::fs::File::options().write(true).open(&file).unwrap();
        f.set_modified(two_days).unwrap();
    }
    session("yesterday");
    assert_eq!(
        files().len(),
        1,
        "day-old sessions' counts outlive the next count"
    );
    session("today");
    assert_eq!(files().len(), 2, "a count written since is swept too");
    assert!(!killed.exists(), "a killed write's temporary file stays");
}

/// Row 306's exec half: a Cursor `stop` hook converted into Codex's hooks.json runs through
/// `hookx exec` (Codex 0.171.0 caps no Stop blocks). exec keeps Cursor's cap as `run` does,
/// counting under `$HOME`, with the hook's own `loop_limit` (3) carried in the entry: fired as
/// Codex fires it on every continuation, it blocks 3 times in a row (`loop_count` 0 to 3), then
/// lets the agent stop. With no `HOME`
/// there is nowhere to count: the follow-up is not passed on, never a trap.
#[test]
fn a_converted_cursor_stop_hook_keeps_its_loop_limit_through_exec() {
    let p = Project::new();
    p.write(
        ".cursor/hooks.json",
        json!({"version": 1, "hooks": {"stop": [{"loop_limit": 3, "command": "{ cat; echo; } >> counts.jsonl; echo '{\"followup_message\":\"run the tests again\"}'"}]}}),
    );
    let hookx = env!("CARGO_BIN_EXE_hookx");
    let (code, out, err) = p.hookx(
        &[
            "convert",
            ".cursor/hooks.json",
            "--to",
            "codex",
            "--hookx",
            hookx,
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let entry = json_of(&out)["hooks"]["Stop"][0]["hooks"][0]["command"].clone();
    let line = entry.as_str().unwrap().to_string();
    assert!(line.contains(" exec --host codex --as cursor"), "{line}");
    // The hook's own `loop_limit` goes with it, no loss.
    assert!(line.contains(" --follow-up-limit 3 "), "{line}");
    assert!(!err.contains("loop_limit"), "{err}");
    let fixture = "codex-0.171.0/agents.17.Stop.json";
    let stop = |active: bool, home: Option<&Path>| {
        let mut cmd = std::process::Command::new("sh");
        cmd.args(["-c", &line])
            .current_dir(&p.project)
            .env_remove("HOOKX_HOME")
            .env_remove("HOME")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        if let Some(home) = home {
            cmd.env("HOME", home);
        }
        let mut child = cmd.spawn().unwrap();
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(recorded_stop(&p, fixture, active).as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let mut blocks = 0;
    for round in 0..8 {
        let (code, out, err) = stop(round > 0, Some(&p.home));
        assert_eq!(code, 0, "{round}: {err}");
        if out.trim().is_empty() {
            assert!(err.contains("loop_limit"), "{round}: {err}");
        } else {
            assert_eq!(json_of(&out)["decision"], "block", "{round}: {out}");
            blocks += 1;
        }
    }
    assert_eq!(blocks, 3);
    let counts: Vec<Value> = std::fs::read_to_string(p.project.join("counts.jsonl"))
        .unwrap()
        .lines()
        .map(|l| json_of(l)["loop_count"].clone())
        .collect();
    let expected: Vec<Value> = (0..8).map(|n| json!(n.min(3))).collect();
    assert_eq!(counts, expected);
    // A stop that is no continuation (the user's next prompt) starts again at 0.
    let (_, out, err) = stop(false, Some(&p.home));
    assert_eq!(json_of(&out)["decision"], "block", "{err}");
    let last = std::fs::read_to_string(p.project.join("counts.jsonl")).unwrap();
    assert_eq!(json_of(last.lines().last().unwrap())["loop_count"], 0);

    // No home to count in: the follow-up does not keep the agent going, and stderr says why.
    let (code, out, err) = stop(false, None);
    assert_eq!((code, out.trim()), (0, ""), "{err}");
    assert!(err.contains("HOME is unset"), "{err}");
}

/// Attacks row 1389: VS Code's table held only the docs' example tool names, so a Claude
/// `Bash` guard converted for it (`hookx exec --match Bash`) never fired on `run_in_terminal`,
/// the shell tool's name in the Copilot extension's source (`ToolName`, beside the docs'
/// `create_file` and `replace_string_in_file`), nor a `Read` guard on `read_file`.
#[test]
fn a_claude_guard_fires_on_vscodes_source_tool_names() {
    let p = Project::new();
    for (matcher, tool, input) in [
        ("Bash", "run_in_terminal", json!({"command": "rm -rf /"})),
        ("Read", "read_file", json!({"filePath": ".env"})),
        ("Edit", "insert_edit_into_file", json!({"filePath": "a"})),
        ("Grep", "grep_search", json!({"query": "x"})),
    ] {
        let payload = json!({"hookEventName": "PreToolUse", "sessionId": "s", "cwd": p.project,
            "tool_name": tool, "tool_input": input, "tool_use_id": "t1"});
        let (code, stdout, stderr) = p.hookx(
            &[
                "exec",
                "--host",
                "vscode",
                "--as",
                "claude",
                "--event",
                "PreToolUse",
                "--match",
                matcher,
                "--",
                "echo guarded >&2; exit 2",
            ],
            payload.to_string(),
        );
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stdout.contains(r#""permissionDecision":"deny""#) && stdout.contains("guarded"),
            "{matcher} on {tool}: {stdout} {stderr}"
        );
    }
}

/// Attacks row 1823 (twenty-seventh pass): a trusted Cursor guard with `failClosed: true`
/// ("failures fail-open unless `failClosed`", cursor-facts) that fails (exit 1: its `jq` is
/// missing, say), run by hookx's route under Claude. Cursor blocks the call; hookx read the
/// failure as Cursor's default, open, and let it through, saying nothing of the key. Without
/// the key (or `false`) the failure still lets the call go on.
#[test]
fn a_cursor_guard_that_fails_closed_denies_when_it_fails_under_other_hosts() {
    for fail_closed in [Some(true), Some(false), None] {
        let p = Project::new();
        let mut entry = json!({"command": "cat > /dev/null; echo 'jq: not found' >&2; exit 1"});
        if let Some(value) = fail_closed {
            entry["failClosed"] = json!(value);
        }
        p.write(
            ".cursor/hooks.json",
            json!({"version": 1, "hooks": {"beforeShellExecution": [entry]}}),
        );
        p.trust();
        let path = common::fixtures_dir().join("recorded/claude-2.1.332/pty.15.PreToolUse.json");
        let fixture: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let stdin = fixture["stdin"]
            .to_string()
            .replace("<project>", p.project.to_str().unwrap())
            .replace("<home>", p.home.to_str().unwrap());
        let (code, out, err) =
            p.hookx(&["run", "--host", "claude", "--event", "PreToolUse"], stdin);
        assert_eq!(code, 0, "{fail_closed:?}: {err}");
        let denied = !out.trim().is_empty()
            && json_of(&out)["hookSpecificOutput"]["permissionDecision"] == "deny";
        assert_eq!(
            denied,
            fail_closed == Some(true),
            "failClosed {fail_closed:?}: {out} {err}"
        );
    }
}
