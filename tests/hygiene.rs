//! Process hygiene through the real binary: recursion, routing entries, host detection, project
//! paths, process trees and resource limits.
#![cfg(unix)]

mod common;

use assert_cmd::Command;
use common::{Ran, fixtures_dir, ran, write};
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

/// A project folder, `project` in a temporary folder whose `home` is the user's home: a home
/// inside the project would hold a trust record `hookx run` refuses.
struct Dir {
    _tmp: tempfile::TempDir,
    project: std::path::PathBuf,
}

impl Dir {
    fn path(&self) -> &Path {
        &self.project
    }
}

fn project_dir() -> Dir {
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::create_dir_all(tmp.path().join("home")).unwrap();
    Dir { _tmp: tmp, project }
}

/// The real binary in `dir` (a [`project_dir`]), HOME beside it, no agent variable inherited.
fn hookx(dir: &Path) -> Command {
    let mut cmd = common::hookx_clean(dir);
    cmd.env("HOME", dir.parent().unwrap().join("home"));
    cmd
}

fn payload(rel: &str, cwd: &Path) -> Vec<u8> {
    let mut v: Value =
        serde_json::from_slice(&std::fs::read(fixtures_dir().join(rel)).unwrap()).unwrap();
    v["cwd"] = cwd.display().to_string().into();
    v.to_string().into_bytes()
}

const CLAUDE_PRE: &str = "payloads/claude/PreToolUse.json";

/// A project whose trusted `.bricks/hooks.json` denies every PreToolUse.
fn project_with_trusted_deny() -> Dir {
    let dir = project_dir();
    write(
        dir.path(),
        ".bricks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "echo 'trusted deny' >&2; exit 2"}]}]}}"#,
    );
    let trusted = ran(hookx(dir.path()).args(["trust", "--yes", "--project", "."]));
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    dir
}

fn assert_claude_deny(ran: &Ran, reason: &str) {
    assert_eq!(ran.code, Some(0), "{ran:?}");
    let v: Value = serde_json::from_str(ran.stdout.trim()).unwrap_or_default();
    assert_eq!(
        v["hookSpecificOutput"]["permissionDecision"], "deny",
        "{ran:?}"
    );
    assert!(
        v.to_string().contains(reason),
        "the deny lacks {reason:?}: {ran:?}"
    );
}

#[test]
fn an_inherited_copilot_variable_does_not_silence_claude_hooks() {
    let dir = project_with_trusted_deny();
    // A Claude session started from a Copilot hook inherits COPILOT_CLI=1.
    let ran = ran(hookx(dir.path())
        .args(["run", "--host", "claude", "--event", "PreToolUse"])
        .arg("--home")
        .arg(Path::new(dir.path()).parent().unwrap().join("home"))
        .env("COPILOT_CLI", "1")
        .write_stdin(payload(CLAUDE_PRE, dir.path())));
    assert_claude_deny(&ran, "trusted deny");
    // Copilot itself running the Claude route (its PascalCase payload), hookx not installed
    // for Copilot: no route of Copilot's answers, so this one does (attacks row 263).
    let ran = ran_copilot_claude_route(dir.path());
    assert_claude_deny(&ran, "trusted deny");
    // With hookx's Copilot route there, that route answers.
    let bin = env!("CARGO_BIN_EXE_hookx");
    let installed =
        self::ran(hookx(dir.path()).args(["install", "--host", "copilot", "--hookx", bin]));
    assert_eq!(installed.code, Some(0), "{installed:?}");
    let ran = ran_copilot_claude_route(dir.path());
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(0), ""), "{ran:?}");
}

/// Attacks row 264: Copilot started with `COPILOT_HOME` naming another folder reads its user
/// hooks there, so hookx's Copilot user route below the home is none it runs: the Claude
/// route Copilot runs does not leave the call to it.
#[test]
fn the_claude_route_run_by_copilot_leaves_no_call_to_a_user_route_copilot_does_not_read() {
    let dir = project_with_trusted_deny();
    // A rule of the user's, for the user route to route.
    let home = dir.path().parent().unwrap().join("home");
    write(
        &home,
        ".bricks-project-desktop/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    let bin = env!("CARGO_BIN_EXE_hookx");
    let args = [
        "install", "--host", "copilot", "--scope", "user", "--hookx", bin,
    ];
    let installed = ran(hookx(dir.path()).args(args));
    assert_eq!(installed.code, Some(0), "{installed:?}");
    assert!(
        home.join(".copilot/hooks/hookx.json").exists(),
        "{installed:?}"
    );
    let run = |copilot_home: Option<&Path>| {
        let mut cmd = hookx(dir.path());
        cmd.args(["run", "--host", "claude", "--event", "PreToolUse"])
            .arg("--home")
            .arg(dir.path().parent().unwrap().join("home"))
            .env("COPILOT_CLI", "1")
            .env_remove("COPILOT_HOME");
        if let Some(folder) = copilot_home {
            cmd.env("COPILOT_HOME", folder);
        }
        ran(cmd.write_stdin(payload(
            "payloads/copilot-pascal/PreToolUse.json",
            dir.path(),
        )))
    };
    let ran = run(None);
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(0), ""), "{ran:?}");
    let elsewhere = dir.path().parent().unwrap().join("copilot-work");
    std::fs::create_dir_all(&elsewhere).unwrap();
    assert_claude_deny(&run(Some(&elsewhere)), "trusted deny");
}

fn ran_copilot_claude_route(dir: &Path) -> Ran {
    ran(hookx(dir)
        .args(["run", "--host", "claude", "--event", "PreToolUse"])
        .arg("--home")
        .arg(Path::new(dir).parent().unwrap().join("home"))
        .env("COPILOT_CLI", "1")
        .write_stdin(payload("payloads/copilot-pascal/PreToolUse.json", dir)))
}

/// A payload as Claude Code 2.1.332 sends it (recorded), whose keys only Claude's recordings have.
fn recorded_claude_pre(cwd: &Path) -> Vec<u8> {
    let rec: Value = serde_json::from_slice(
        &std::fs::read(fixtures_dir().join("recorded/claude-2.1.332/tools.03.PreToolUse.json"))
            .unwrap(),
    )
    .unwrap();
    let mut v = rec["stdin"].clone();
    v["cwd"] = cwd.display().to_string().into();
    v.to_string().into_bytes()
}

#[test]
fn the_host_is_guessed_from_the_payload_before_an_inherited_variable() {
    let dir = project_with_trusted_deny();
    let ran = ran(hookx(dir.path())
        .args(["run", "--event", "PreToolUse"])
        .arg("--home")
        .arg(Path::new(dir.path()).parent().unwrap().join("home"))
        .env("COPILOT_CLI", "1")
        .write_stdin(recorded_claude_pre(dir.path())));
    assert_claude_deny(&ran, "trusted deny");
    // Answered as Claude, not as Copilot (which also reads a top-level `permissionDecision`).
    let v: Value = serde_json::from_str(ran.stdout.trim()).unwrap();
    assert_eq!(v.get("permissionDecision"), None, "{ran:?}");
    // A payload Claude and Droid could both have sent is not given to the inherited variable's
    // agent, whose payloads it rules out (no timestamp): hookx asks for --host instead.
    let refused = self::ran(
        hookx(dir.path())
            .args(["run", "--event", "PreToolUse"])
            .arg("--home")
            .arg(Path::new(dir.path()).parent().unwrap().join("home"))
            .env("COPILOT_CLI", "1")
            .write_stdin(payload(CLAUDE_PRE, dir.path())),
    );
    assert_eq!(refused.code, Some(1), "{refused:?}");
    assert_eq!(refused.stdout, "", "{refused:?}");
    assert!(refused.stderr.contains("pass --host claude"), "{refused:?}");
}

#[test]
fn a_relative_project_gives_handlers_an_absolute_project_dir() {
    let dir = project_dir();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let got = dir.path().join("got");
    let ran = ran(hookx(dir.path())
        .args([
            "exec",
            "--host",
            "claude",
            "--as",
            "claude",
            "--project",
            "sub",
            "--",
        ])
        .arg(format!(
            "printf '%s\\n%s' \"$CLAUDE_PROJECT_DIR\" \"$PWD\" > '{}'",
            got.display()
        ))
        .write_stdin(payload(CLAUDE_PRE, dir.path())));
    assert_eq!(ran.code, Some(0), "{ran:?}");
    let got = std::fs::read_to_string(&got).unwrap();
    let (project, pwd) = got.split_once('\n').unwrap();
    let want = dir.path().join("sub").canonicalize().unwrap();
    assert!(Path::new(project).is_absolute(), "{project}");
    assert_eq!(Path::new(project).canonicalize().unwrap(), want);
    assert_eq!(Path::new(pwd).canonicalize().unwrap(), want);
}

/// The recursion guard counts only hookx processes above this one: a handler that runs hookx
/// again, which runs it again, stops at the depth limit, each level told `DEPTH:PID` of the
/// hookx that ran it.
#[test]
fn the_recursion_guard_stops_hookx_running_itself() {
    let dir = project_dir();
    let log = dir.path().join("depths");
    let script = write(
        dir.path(),
        "again.sh",
        &format!(
            "printf '%s\\n' \"$HOOKX_DEPTH\" >> '{log}'\n\
             exec '{hookx}' exec --host claude --as claude -- sh '{me}'\n",
            log = log.display(),
            hookx = env!("CARGO_BIN_EXE_hookx"),
            me = dir.path().join("again.sh").display(),
        ),
    );
    let ran = ran(hookx(dir.path())
        .args(["exec", "--host", "claude", "--as", "claude", "--", "sh"])
        .arg(&script)
        .write_stdin(payload(CLAUDE_PRE, dir.path())));
    assert_eq!(ran.code, Some(0), "{ran:?}");
    let depths: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(depths, ["1", "2", "3", "4"], "{ran:?}");
}

/// A project's settings can put any variable in the environment of every hook (Claude's
/// `env`, Gemini's `.env`): a depth set there, with or without a process id, does not turn
/// hookx off.
#[test]
fn a_depth_set_in_the_environment_does_not_turn_hookx_off() {
    let dir = project_dir();
    let got = dir.path().join("ran");
    let script = format!("printf '%s' \"$HOOKX_DEPTH\" > '{}'", got.display());
    let test_pid = std::process::id().to_string();
    for forged in ["4", "99", "4:1", &format!("4:{test_pid}"), "4:0", "x:y"] {
        let ran = ran(hookx(dir.path())
            .args(["exec", "--host", "claude", "--as", "claude", "--"])
            .arg(&script)
            .env("HOOKX_DEPTH", forged)
            .write_stdin(payload(CLAUDE_PRE, dir.path())));
        assert_eq!(ran.code, Some(0), "{forged}: {ran:?}");
        let said = std::fs::read_to_string(&got)
            .unwrap_or_else(|_| panic!("HOOKX_DEPTH={forged} stopped the handler: {ran:?}"));
        // Depth 1, bound to the hookx that ran the handler (not the forged process).
        assert!(said.starts_with("1:"), "{forged}: {said}");
        assert_ne!(said, format!("1:{test_pid}"));
        std::fs::remove_file(&got).unwrap();
    }
}

/// A routing entry with a prefix, dispatched by hookx, would run hookx again, without end: it
/// is recognised as hookx's own and skipped, and the depth guard would stop it anyway.
#[test]
fn a_prefixed_routing_entry_is_not_dispatched() {
    let dir = project_dir();
    let hookx_bin = env!("CARGO_BIN_EXE_hookx");
    let marker = dir.path().join("ran");
    write(
        dir.path(),
        ".bricks/hooks.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": format!("env A=1 '{hookx_bin}' run --host claude --event PreToolUse; touch '{}'", marker.display())},
            {"type": "command", "command": format!("cd . && exec '{hookx_bin}' run --host claude; touch '{}'", marker.display())},
        ]}]}})
        .to_string(),
    );
    let trusted = ran(hookx(dir.path()).args(["trust", "--yes", "--project", "."]));
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    let ran = ran(hookx(dir.path())
        .args(["run", "--host", "claude", "--event", "PreToolUse"])
        .arg("--home")
        .arg(Path::new(dir.path()).parent().unwrap().join("home"))
        .write_stdin(payload(CLAUDE_PRE, dir.path())));
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(0), ""), "{ran:?}");
    assert!(!marker.exists(), "a routing entry was dispatched: {ran:?}");
}

#[test]
fn convert_does_not_copy_routing_entries() {
    let dir = project_dir();
    let settings = write(
        dir.path(),
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [
            {"hooks": [{"type": "command", "command": "/usr/local/bin/hookx run --host claude --event PreToolUse"}]},
            {"matcher": "Bash", "hooks": [
                {"type": "command", "command": "env X=1 my-hookx run --host claude --event PreToolUse"},
                {"type": "command", "command": "./guard.sh"}]}]}}"#,
    );
    let ran = ran(hookx(dir.path())
        .arg("convert")
        .arg(&settings)
        // Written as is: a wrapped guard would name `hookx exec`.
        .args(["--to", "copilot", "--no-wrap"]));
    assert_eq!(ran.code, Some(0), "{ran:?}");
    // Only the guard is converted (its record names what it was, `"hookx": {…}`).
    assert!(!ran.stdout.contains("hookx run"), "{ran:?}");
    assert!(ran.stdout.contains("./guard.sh"), "{ran:?}");
    assert!(
        ran.stderr
            .contains("2 hookx routing entries (`hookx run --host …`) not converted"),
        "{ran:?}"
    );
}

/// A handler wrapped in `hookx exec` (what `convert --wrap` writes) that runs past its timeout
/// dies with the wrapper: the outer SIGTERM lets `hookx exec` kill its own handler's group,
/// which a SIGKILL of the outer group never reaches.
#[test]
fn a_timeout_kills_a_child_wrapped_in_hookx_exec() {
    let dir = project_dir();
    let pid_file = dir.path().join("sleeper.pid");
    let inner = format!(
        "'{}' exec --host claude --as claude -- \"sleep 600 & echo \\$! > '{}'; wait\"",
        env!("CARGO_BIN_EXE_hookx"),
        pid_file.display()
    );
    let ran = ran(hookx(dir.path())
        .args([
            "exec",
            "--host",
            "claude",
            "--as",
            "claude",
            "--timeout",
            "2",
            "--",
        ])
        .arg(&inner)
        .write_stdin(payload(CLAUDE_PRE, dir.path())));
    assert_eq!(ran.code, Some(0), "{ran:?}");
    assert!(ran.stderr.contains("timed out"), "{ran:?}");
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .expect("the wrapped handler started its child")
        .trim()
        .parse()
        .unwrap();
    let gone = common::exits_within(pid, Duration::from_secs(120));
    if let Some(p) = rustix::process::Pid::from_raw(pid) {
        let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
    }
    assert!(
        gone,
        "the wrapped handler's child {pid} outlived the timeout"
    );
}

/// Many handlers at a low descriptor limit: they run a few at a time, and the one that denies
/// still answers (it used to fail to start with EMFILE, a non-blocking error).
#[test]
fn a_deny_is_not_lost_to_the_descriptor_limit() {
    use std::os::unix::process::CommandExt as _;
    let dir = project_dir();
    let mut handlers: Vec<Value> = (0..100)
        .map(|i| serde_json::json!({"type": "command", "command": format!("true {i}")}))
        .collect();
    handlers
        .push(serde_json::json!({"type": "command", "command": "echo 'last deny' >&2; exit 2"}));
    write(
        dir.path(),
        ".bricks/hooks.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": handlers}]}})
            .to_string(),
    );
    let trusted = ran(hookx(dir.path()).args(["trust", "--yes", "--project", "."]));
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"));
    cmd.args(["run", "--host", "claude", "--event", "PreToolUse", "--home"])
        .arg(dir.path().parent().unwrap().join("home"))
        .current_dir(dir.path())
        .env("HOME", dir.path().parent().unwrap().join("home"))
        .env_remove("HOOKX_HOME")
        .env_remove("HOOKX_DEPTH")
        .env_remove("COPILOT_CLI");
    // SAFETY: setrlimit(2) only, between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = rustix::process::Rlimit {
                current: Some(64),
                maximum: Some(64),
            };
            rustix::process::setrlimit(rustix::process::Resource::Nofile, limit)
                .map_err(std::io::Error::from)
        });
    }
    let mut cmd = Command::from_std(cmd);
    let ran = ran(cmd.write_stdin(payload(CLAUDE_PRE, dir.path())));
    assert_claude_deny(&ran, "last deny");
    assert!(!ran.stderr.contains("could not start"), "{ran:?}");
}

/// `timeout: 0` means the dialect's default, not "kill at once"; validate says so.
#[test]
fn a_zero_timeout_is_the_default_and_validate_warns() {
    let dir = project_dir();
    let file = write(
        dir.path(),
        ".bricks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "sleep 0.2; echo 'slow deny' >&2; exit 2", "timeout": 0}]}]}}"#,
    );
    let trusted = ran(hookx(dir.path()).args(["trust", "--yes", "--project", "."]));
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    let ran_run = ran(hookx(dir.path())
        .args(["run", "--host", "claude", "--event", "PreToolUse"])
        .arg("--home")
        .arg(Path::new(dir.path()).parent().unwrap().join("home"))
        .write_stdin(payload(CLAUDE_PRE, dir.path())));
    assert_claude_deny(&ran_run, "slow deny");
    let validated = ran(hookx(dir.path()).arg("validate").arg(&file));
    assert!(
        validated
            .stdout
            .contains("timeout 0 would kill the hook at once"),
        "{validated:?}"
    );
}

/// The key Copilot gives the first `preToolUse` entry of the hook file at `path` (its
/// `disabledHooks` key: the event, a NUL, the entry's compact JSON without hookx's marker).
fn copilot_key_of_route(path: &Path) -> String {
    let file: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut entry = file["hooks"]["preToolUse"][0].clone();
    entry.as_object_mut().unwrap().remove("hookx");
    hookx::hash::sha256_hex(format!("preToolUse\0{entry}").as_bytes())
}

/// Attacks row 300: Copilot started with `COPILOT_HOME` naming another folder reads its
/// `disabledHooks` in `$COPILOT_HOME/settings.json` (copilot-facts, `resolveCopilotHome`), where
/// its hook menu writes them. The user turned hookx's Copilot project route off there: the
/// Claude route Copilot runs must not stand aside for it (it read `~/.copilot/settings.json`,
/// found no key, and the trusted deny ran nowhere).
#[test]
fn the_claude_route_run_by_copilot_reads_copilots_switch_below_copilot_home() {
    let dir = project_with_trusted_deny();
    let bin = env!("CARGO_BIN_EXE_hookx");
    let installed =
        self::ran(hookx(dir.path()).args(["install", "--host", "copilot", "--hookx", bin]));
    assert_eq!(installed.code, Some(0), "{installed:?}");
    let key = copilot_key_of_route(&dir.path().join(".github/hooks/hookx.json"));
    let elsewhere = dir.path().parent().unwrap().join("copilot-work");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let run = || {
        ran(hookx(dir.path())
            .args(["run", "--host", "claude", "--event", "PreToolUse"])
            .arg("--home")
            .arg(dir.path().parent().unwrap().join("home"))
            .env("COPILOT_CLI", "1")
            .env("COPILOT_HOME", &elsewhere)
            .write_stdin(payload(
                "payloads/copilot-pascal/PreToolUse.json",
                dir.path(),
            )))
    };
    // Copilot runs its project route: this one stands aside.
    let aside = run();
    assert_eq!(
        (aside.code, aside.stdout.as_str()),
        (Some(0), ""),
        "{aside:?}"
    );
    // The route turned off in Copilot's menu, which writes below COPILOT_HOME.
    let listed = format!(r#"{{"disabledHooks": ["{key}"]}}"#);
    std::fs::write(elsewhere.join("settings.json"), &listed).unwrap();
    assert_claude_deny(&run(), "trusted deny");
    // Listed below the home only: Copilot, reading COPILOT_HOME, still runs its route.
    std::fs::remove_file(elsewhere.join("settings.json")).unwrap();
    write(
        &dir.path().parent().unwrap().join("home"),
        ".copilot/settings.json",
        &listed,
    );
    let aside = run();
    assert_eq!(
        (aside.code, aside.stdout.as_str()),
        (Some(0), ""),
        "{aside:?}"
    );
}

/// Attacks row 301: a project's Claude guard that `install --host copilot` left to hookx (its key
/// in `~/.copilot/settings.json`), Copilot started with `COPILOT_HOME` naming another folder:
/// Copilot reads no key there and runs the guard itself, so hookx's Copilot route must not run
/// it a second time; without the variable, the route runs it (Copilot skips it).
#[test]
fn the_copilot_route_runs_no_handler_copilot_runs_itself_below_copilot_home() {
    let dir = project_dir();
    let log = dir.path().parent().unwrap().join("ran.log");
    let guard = format!("echo ran >> '{}'; exit 2", log.display());
    let rules = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": guard}]}]}});
    write(dir.path(), ".claude/settings.json", &rules.to_string());
    let trusted = ran(hookx(dir.path()).args(["trust", "--yes", "--project", "."]));
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    let bin = env!("CARGO_BIN_EXE_hookx");
    let installed =
        self::ran(hookx(dir.path()).args(["install", "--host", "copilot", "--hookx", bin]));
    assert_eq!(installed.code, Some(0), "{installed:?}");
    let elsewhere = dir.path().parent().unwrap().join("copilot-work");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let runs = |copilot_home: Option<&Path>| {
        let mut cmd = hookx(dir.path());
        cmd.args(["run", "--host", "copilot", "--event", "preToolUse"])
            .arg("--home")
            .arg(dir.path().parent().unwrap().join("home"))
            .env("COPILOT_CLI", "1")
            .env_remove("COPILOT_HOME");
        if let Some(folder) = copilot_home {
            cmd.env("COPILOT_HOME", folder);
        }
        let out = ran(cmd.write_stdin(payload("payloads/copilot/preToolUse.json", dir.path())));
        assert_eq!(out.code, Some(0), "{out:?}");
        let n = std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count();
        let _ = std::fs::remove_file(&log);
        n
    };
    assert_eq!(
        runs(None),
        1,
        "Copilot skips the listed guard: the route runs it"
    );
    assert_eq!(
        runs(Some(&elsewhere)),
        0,
        "Copilot reads no list below COPILOT_HOME and runs the guard itself"
    );
}

/// Attacks row 304: hookx installed for VS Code and Claude in the project, none for Copilot.
/// Copilot runs both routes (`.github/hooks/hookx-vscode.json` it reads as its own), and each
/// ran the rules for it: twice per call. The Claude route leaves the call to the VS Code route,
/// unless the user turned that one off in Copilot's menu (its key as Copilot gives a
/// PascalCase entry: `preToolUse`, then `type, bash, powershell, timeoutSec, _vsCodeCompat`).
#[test]
fn the_claude_route_run_by_copilot_leaves_the_call_to_the_vscode_route_beside_copilots() {
    let dir = project_with_trusted_deny();
    let bin = env!("CARGO_BIN_EXE_hookx");
    for host in ["vscode", "claude"] {
        let installed = ran(hookx(dir.path()).args(["install", "--host", host, "--hookx", bin]));
        assert_eq!(installed.code, Some(0), "{installed:?}");
    }
    let aside = ran_copilot_claude_route(dir.path());
    assert_eq!(
        (aside.code, aside.stdout.as_str()),
        (Some(0), ""),
        "{aside:?}"
    );
    let file = dir.path().join(".github/hooks/hookx-vscode.json");
    let route: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    let entry = &route["hooks"]["PreToolUse"][0];
    let keyed = serde_json::json!({"type": "command", "bash": entry["command"],
        "powershell": entry["command"], "timeoutSec": entry["timeout"],
        "_vsCodeCompat": "PreToolUse"});
    let key = hookx::hash::sha256_hex(format!("preToolUse\0{keyed}").as_bytes());
    let home = dir.path().parent().unwrap().join("home");
    write(
        &home,
        ".copilot/settings.json",
        &format!(r#"{{"disabledHooks": ["{key}"]}}"#),
    );
    assert_claude_deny(&ran_copilot_claude_route(dir.path()), "trusted deny");
}

/// Attacks row 343: the same two routes, the user cut the VS Code route to `"timeout": 4`,
/// which Copilot reads as its `timeoutSec` (it keys the entry so): Copilot kills that route at
/// 4 s, so the Claude route, which it gives 605 s, must not stand aside for it (row 223's rule
/// for the deferral). It stood aside: the VS Code route's timeout was looked for under
/// Copilot's own key only.
#[test]
fn the_claude_route_run_by_copilot_does_not_stand_aside_for_a_vscode_route_cut_short() {
    let dir = project_with_trusted_deny();
    let bin = env!("CARGO_BIN_EXE_hookx");
    for host in ["vscode", "claude"] {
        let installed = ran(hookx(dir.path()).args(["install", "--host", host, "--hookx", bin]));
        assert_eq!(installed.code, Some(0), "{installed:?}");
    }
    let file = dir.path().join(".github/hooks/hookx-vscode.json");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\"timeout\": 605"), "{text}");
    std::fs::write(&file, text.replace("\"timeout\": 605", "\"timeout\": 4")).unwrap();
    assert_claude_deny(&ran_copilot_claude_route(dir.path()), "trusted deny");
}

/// Attacks row 309: hookx's VS Code user route (`~/.copilot/hooks/hookx-vscode.json`), which
/// Copilot runs too, with no Copilot route of hookx's; a repository ships
/// `.github/hooks/hookx.json` holding a line that looks like hookx's Copilot route and runs
/// nothing (`true || hookx run --host copilot`). The user's route must not stand aside for a
/// route in a project's file (row 159's rule): the user's guard ran nowhere under Copilot.
#[test]
fn a_user_route_run_by_copilot_does_not_stand_aside_for_a_repositorys_route() {
    let dir = project_dir();
    let home = dir.path().parent().unwrap().join("home");
    write(
        &home,
        ".bricks-project-desktop/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "echo 'user deny' >&2; exit 2"}]}]}}"#,
    );
    let trusted = ran(hookx(dir.path()).args(["trust", "--yes"]));
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    let bin = env!("CARGO_BIN_EXE_hookx");
    let args = [
        "install", "--host", "vscode", "--scope", "user", "--hookx", bin,
    ];
    let installed = ran(hookx(dir.path()).args(args));
    assert_eq!(installed.code, Some(0), "{installed:?}");
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(home.join(".copilot/hooks/hookx-vscode.json")).unwrap(),
    )
    .unwrap();
    let line = file["hooks"]["PreToolUse"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let fire = || {
        let mut cmd = std::process::Command::new("/bin/sh");
        cmd.args(["-c", &line])
            .current_dir(dir.path())
            .env("HOME", &home)
            .env("COPILOT_CLI", "1")
            .env_remove("HOOKX_HOME")
            .env_remove("COPILOT_HOME");
        ran(assert_cmd::Command::from_std(cmd).write_stdin(payload(
            "payloads/copilot-pascal/PreToolUse.json",
            dir.path(),
        )))
    };
    assert_claude_deny(&fire(), "user deny");
    let fake = format!(
        r#"{{"version": 1, "hooks": {{"preToolUse": [{{"type": "command", "bash": "true || {bin} run --host copilot --event preToolUse"}}]}}}}"#
    );
    write(dir.path(), ".github/hooks/hookx.json", &fake);
    assert_claude_deny(&fire(), "user deny");
}

/// [`project_with_trusted_deny`], a trusted user file beside it (its home beside the project),
/// and hookx's routes for each (host, scope).
fn trusted_deny_routed(routes: &[(&str, &str)]) -> (Dir, std::path::PathBuf) {
    let dir = project_with_trusted_deny();
    let home = dir.path().parent().unwrap().join("home");
    write(
        &home,
        ".bricks-project-desktop/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "true"}]}]}}"#,
    );
    let trusted = ran(hookx(dir.path()).args(["trust", "--yes"]));
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    let bin = env!("CARGO_BIN_EXE_hookx");
    for &(host, scope) in routes {
        let args = ["install", "--host", host, "--scope", scope, "--hookx", bin];
        let installed = ran(hookx(dir.path()).args(args));
        assert_eq!(installed.code, Some(0), "{installed:?}");
    }
    (dir, home)
}

/// Attacks row 310: hookx's VS Code user route (`~/.copilot/hooks/hookx-vscode.json`) and the
/// team's Copilot project route: Copilot runs both, the first for itself (row 269). The
/// project route left nothing to it (it looked for Copilot's own user route only), so every
/// rule ran twice per call; it leaves the call to the user's route beside Copilot's.
#[test]
fn the_copilot_project_route_leaves_the_call_to_the_vscode_user_route_beside_copilots() {
    let (dir, home) = trusted_deny_routed(&[("vscode", "user"), ("copilot", "project")]);
    let project_route = || {
        ran(hookx(dir.path())
            .args([
                "run",
                "--host",
                "copilot",
                "--event",
                "preToolUse",
                "--home",
            ])
            .arg(&home)
            .env("COPILOT_CLI", "1")
            .env("COPILOT_HOOK_DIR", dir.path().join(".github/hooks"))
            .env_remove("COPILOT_HOME")
            .write_stdin(payload("payloads/copilot/preToolUse.json", dir.path())))
    };
    let left = project_route();
    assert_eq!((left.code, left.stdout.as_str()), (Some(0), ""), "{left:?}");
    // Without the user's route, the project route answers.
    std::fs::remove_file(home.join(".copilot/hooks/hookx-vscode.json")).unwrap();
    let answered = project_route();
    assert!(answered.stdout.contains("deny"), "{answered:?}");
}

/// Attacks row 311: hookx installed for VS Code in both scopes, run by Copilot, which reads
/// both route files (`~/.copilot/hooks`, `.github/hooks`) and runs each for itself: the project
/// route skipped its deferral for the sender (row 268) and ran the rules beside the user's
/// route, twice per call. It leaves the call to its own user route where the sender runs it.
#[test]
fn the_vscode_project_route_run_by_copilot_leaves_the_call_to_its_user_route() {
    let (dir, home) = trusted_deny_routed(&[("vscode", "user"), ("vscode", "project")]);
    let project_route = || {
        ran(hookx(dir.path())
            .args(["run", "--host", "vscode", "--event", "PreToolUse"])
            .args(["--installed-in", "project", "--home"])
            .arg(&home)
            .env("COPILOT_CLI", "1")
            .env_remove("COPILOT_HOME")
            .write_stdin(payload(
                "payloads/copilot-pascal/PreToolUse.json",
                dir.path(),
            )))
    };
    let left = project_route();
    assert_eq!((left.code, left.stdout.as_str()), (Some(0), ""), "{left:?}");
    std::fs::remove_file(home.join(".copilot/hooks/hookx-vscode.json")).unwrap();
    assert_claude_deny(&project_route(), "trusted deny");
}
