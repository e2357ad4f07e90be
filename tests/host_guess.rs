//! Which agent sent a payload, guessed without `--host` (`hookx run` from a hand-written
//! config), over every payload a real client sent (`tests/fixtures/recorded/`): each is guessed
//! as its own host or refused, never taken for another agent's.

use hookx::tables::Dialect;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

struct Recorded {
    file: String,
    host: String,
    stdin: String,
    env: serde_json::Map<String, Value>,
}

fn recorded() -> Vec<Recorded> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recorded");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap().flatten() {
        for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
            if !file.path().is_file() {
                continue;
            }
            let v: Value =
                serde_json::from_str(&std::fs::read_to_string(file.path()).unwrap()).unwrap();
            out.push(Recorded {
                file: file.path().display().to_string(),
                host: v["host"].as_str().unwrap().to_string(),
                stdin: match &v["stdin"] {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                },
                env: v["env"].as_object().cloned().unwrap_or_default(),
            });
        }
    }
    out.sort_by(|a, b| a.file.cmp(&b.file));
    out
}

/// Every recording of a host hookx has a dialect for: the payload with the variables the
/// client set for its hook is guessed as that host, or not guessed at all; and the payload
/// alone (no variable) never reads as another host either.
#[test]
fn every_recorded_payload_is_guessed_as_its_host_or_refused() {
    let mut wrong = Vec::new();
    // (host) → (guessed right, refused)
    let mut tally: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for r in recorded() {
        // Hosts whose dialect is not registered yet (their recordings wait in replay.rs).
        if Dialect::named(&r.host).is_none() {
            continue;
        }
        let env = |var: &str| r.env.contains_key(var);
        let guessed = hookx::dispatch::host::guess_host(r.stdin.as_bytes(), &env);
        let shaped = serde_json::from_str::<Value>(&r.stdin)
            .ok()
            .and_then(|p| hookx::protocol::payload::detect_host(&p));
        let entry = tally.entry(r.host.clone()).or_default();
        match guessed {
            Some(d) if d.name() == r.host => entry.0 += 1,
            None => entry.1 += 1,
            Some(other) => wrong.push(format!("{}: guessed {other}", r.file)),
        }
        if let Some(other) = shaped.filter(|d| d.name() != r.host) {
            wrong.push(format!("{}: its payload alone reads as {other}", r.file));
        }
    }
    eprintln!("host: (guessed right, refused): {tally:?}");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Every registered host with recordings is recognised at least once.
    assert!(tally.len() >= 5, "{tally:?}");
    for (host, (right, _)) in &tally {
        assert!(*right > 0, "no {host} recording was guessed: {tally:?}");
    }
}

/// Without `--host`, a payload Codex sends on every tool call runs as Codex's; one that Codex
/// and Claude both send (SessionEnd) is refused with the flag to give.
#[test]
fn hookx_run_guesses_codex_or_asks_for_host() {
    let dir = tempfile::tempdir().unwrap();
    let run = |payload: &str| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
            .args(["run", "--project"])
            .arg(dir.path())
            .arg("--home")
            .arg(dir.path())
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("COPILOT_CLI")
            .env_remove("GEMINI_CWD")
            .env_remove("QWEN_PROJECT_DIR")
            .env_remove("BRICKS_HOOK_EVENT")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), payload.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recorded/codex-0.171.0");
    let stdin = |name: &str| {
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(root.join(name)).unwrap()).unwrap();
        v["stdin"].to_string()
    };
    let pre = run(&stdin("tools.21.PreToolUse.json"));
    assert!(pre.status.success(), "{pre:?}");
    let end = run(&stdin("agents.18.SessionEnd.json"));
    let stderr = String::from_utf8_lossy(&end.stderr);
    assert!(
        !end.status.success() && stderr.contains("--host codex"),
        "{end:?}"
    );
}

/// A documented payload (`tests/fixtures/documented/FOLDER/NAME.json`) sent from `project`.
fn documented(folder: &str, name: &str, project: &Path) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/documented")
        .join(folder)
        .join(name);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["stdin"]
        .to_string()
        .replace("<project>", project.to_str().unwrap())
}

/// Kiro's payloads look like Cursor's (a camelCase `hook_event_name`, `session_id`, `cwd`,
/// `tool_name`, `tool_input`), and without `--host` nothing tells them apart. hookx then
/// answers in a form both read: a deny on PreToolUse is exit 2 with the reason on stderr
/// (Kiro reads no JSON, and Cursor reads exit 2 as a deny too); where no such form exists (a
/// block on Stop, which Kiro cannot take), the failure policy answers for no agent: exit 1,
/// asking for `--host`. A Cursor payload that says it is Cursor's is answered as Cursor's.
#[test]
fn a_payload_kiro_and_cursor_both_send_is_answered_in_a_form_both_read() {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let project = {
        std::fs::create_dir_all(&project).unwrap();
        project.canonicalize().unwrap()
    };
    std::fs::create_dir_all(project.join(".bricks")).unwrap();
    std::fs::write(
        project.join(".bricks/hooks.json"),
        r#"{"hooks": {
            "PreToolUse": [{"matcher": "*", "hooks": [
                {"type": "command", "command": "echo 'no tests today' >&2; exit 2"}]}],
            "Stop": [{"hooks": [
                {"type": "command", "command": "echo '{\"decision\": \"block\", \"reason\": \"keep going\"}'"}]}]}}"#,
    )
    .unwrap();
    let hookx = |args: &[&str]| {
        let mut cmd = hookx_in(&project, &home);
        let mut args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
        // `run` takes its home from its command line (or the account), not from HOME.
        if args.first() == Some(&std::ffi::OsStr::new("run")) {
            args.extend([std::ffi::OsStr::new("--home"), home.as_os_str()]);
        }
        cmd.args(args);
        cmd
    };
    let trusted = hookx(&["trust", "--yes"]).output().unwrap();
    assert!(trusted.status.success(), "{trusted:?}");
    let run = |payload: String, env: &[(&str, &str)]| {
        let out = hookx(&["run"])
            .envs(env.iter().copied())
            .write_stdin(payload)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for name in ["PreToolUse.json", "PreToolUse-mcp.json"] {
        let (code, stdout, stderr) = run(documented("kiro-docs", name, &project), &[]);
        assert_eq!(
            (code, stdout.as_str()),
            (Some(2), ""),
            "{name}: {stdout} {stderr}"
        );
        assert!(stderr.contains("no tests today"), "{name}: {stderr}");
    }
    // A failure of hookx's own is answered the same way (debug builds: an injected panic).
    let (code, stdout, stderr) = run(
        documented("kiro-docs", "PreToolUse.json", &project),
        &[("HOOKX_TEST_PANIC", "1")],
    );
    assert_eq!((code, stdout.as_str()), (Some(2), ""), "{stderr}");
    assert!(stderr.contains("so it is denied"), "{stderr}");
    // Stop: Cursor takes a block as JSON, Kiro not at all: no form both read.
    let (code, stdout, stderr) = run(documented("kiro-docs", "Stop.json", &project), &[]);
    assert_eq!((code, stdout.as_str()), (Some(1), ""), "{stderr}");
    assert!(
        stderr.contains("--host kiro") && stderr.contains("--host cursor"),
        "{stderr}"
    );
    // Cursor's own keys say it is Cursor's: its JSON deny.
    let (code, stdout, stderr) = run(documented("cursor-docs", "preToolUse.json", &project), &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let answer: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(answer["permission"], "deny", "{stdout}");
}

/// `hookx` in `project` with `home`, without the variables an agent names itself by; killed
/// (and the test failed) after a minute.
fn hookx_in(project: &Path, home: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("hookx").unwrap();
    cmd.current_dir(project)
        .env("HOME", home)
        .env_remove("HOOKX_HOME")
        .env_remove("HOOKX_DEPTH")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("COPILOT_CLI")
        .env_remove("GEMINI_CWD")
        .env_remove("QWEN_PROJECT_DIR")
        .env_remove("BRICKS_HOOK_EVENT")
        .env_remove("CURSOR_VERSION")
        .timeout(std::time::Duration::from_secs(60));
    cmd
}

/// A payload Kiro and Cursor both send, without `--host`, is dispatched as the agent that runs
/// no other agent's hook files itself (Kiro): a guard in `.claude/settings.json`, which Cursor
/// runs itself and Kiro never does, is run by hookx. (Taken for Cursor's, the guard was left to
/// Cursor: under Kiro the call was allowed, without a word.) Under Cursor it runs twice, the
/// safe side; its deny is the exit 2 both read.
#[test]
fn a_payload_kiro_and_cursor_both_send_runs_the_guards_kiro_needs_hookx_for() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::write(
        project.join(".claude/settings.json"),
        r#"{"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "echo 'the claude guard says no' >&2; exit 2"}]}]}}"#,
    )
    .unwrap();
    let hookx = || hookx_in(&project, &home);
    let trusted = hookx().args(["trust", "--yes"]).output().unwrap();
    assert!(trusted.status.success(), "{trusted:?}");
    let out = hookx()
        .args(["run", "--home"])
        .arg(&home)
        .write_stdin(documented("kiro-docs", "PreToolUse.json", &project))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the claude guard says no"), "{stderr}");
}
