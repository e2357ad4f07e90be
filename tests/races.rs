//! hookx's own state under processes that run at once (attacks rows 900-919). Each test forces
//! its interleaving by events (a question on a terminal, a file), never by time.

mod common;
#[allow(dead_code)]
#[path = "live_common/pty.rs"]
mod pty;

use common::write;
use std::path::{Path, PathBuf};

/// A project and a home in one temporary directory (canonical paths).
struct Setup {
    _dir: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (project, home) = (root.join("project"), root.join("home"));
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Setup {
            _dir: dir,
            project,
            home,
        }
    }

    fn hookx(&self, args: &[&str], stdin: &str) -> assert_cmd::assert::Assert {
        common::hookx()
            .args(args)
            .arg("--project")
            .arg(&self.project)
            .arg("--home")
            .arg(&self.home)
            .env("HOME", &self.home)
            .env_remove("HOOKX_HOME")
            .write_stdin(stdin.to_string())
            .assert()
    }

    fn trust(&self, file: &Path) {
        self.hookx(&["trust", &file.display().to_string()], "")
            .success();
    }

    /// Claude's PreToolUse of a shell call in the project, through `hookx run`: its stdout.
    fn claude_shell_call(&self) -> String {
        let payload = serde_json::json!({
            "session_id": "s",
            "transcript_path": "/dev/null",
            "cwd": self.project,
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": "ls"},
        });
        let out = self.hookx(
            &["run", "--host", "claude", "--event", "PreToolUse"],
            &payload.to_string(),
        );
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    }
}

/// A Gemini `BeforeTool` guard that denies every shell call, giving `reason`.
fn gemini_guard(reason: &str) -> String {
    serde_json::json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{
        "type": "command",
        "command": format!("echo '{{\"decision\":\"deny\",\"reason\":\"{reason}\"}}'; exit 2"),
    }]}]}})
    .to_string()
}

/// Rows 900, 901: `hookx trust` with no file shows its review and waits for the user's answer;
/// meanwhile, in another terminal, the user edits a trusted guard and trusts it again, and
/// revokes another. The answer, when it comes, trusts the file reviewed and keeps both: the
/// edited guard denies with its new reason, the revoked one runs no more. (Before: the answer
/// wrote back every record as loaded before the question, so the edited guard was "changed
/// since it was trusted" and skipped, its deny lost, and the revoked one trusted again.)
#[test]
fn a_trust_answered_late_keeps_what_other_trust_runs_did_meanwhile() {
    let s = Setup::new();
    let edited = write(&s.project, ".gemini/settings.json", &gemini_guard("old"));
    let revoked = write(&s.home, ".gemini/settings.json", &gemini_guard("revoked"));
    s.trust(&edited);
    s.trust(&revoked);
    write(
        &s.project,
        ".qwen/settings.json",
        r#"{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}"#,
    );

    let mut review = std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"));
    review
        .arg("trust")
        .arg("--project")
        .arg(&s.project)
        .arg("--home")
        .arg(&s.home)
        .env("HOME", &s.home)
        .env_remove("HOOKX_HOME");
    let mut terminal = pty::Terminal::spawn(review, 50, 200).unwrap();
    terminal.wait_for_text("[y/N]");

    std::fs::write(&edited, gemini_guard("new")).unwrap();
    s.trust(&edited);
    s.hookx(&["trust", "--revoke", &revoked.display().to_string()], "")
        .success();

    terminal.send("y\r");
    assert!(terminal.exit_status().success(), "{}", terminal.screen());
    assert!(
        terminal.screen().contains("trusted .qwen/settings.json"),
        "{}",
        terminal.screen()
    );

    let answer = s.claude_shell_call();
    assert!(
        answer.contains(r#""permissionDecision":"deny""#) && answer.contains("new"),
        "the edited guard, trusted again meanwhile, must deny with its new reason: {answer}"
    );
    assert!(
        !answer.contains("revoked"),
        "the guard revoked meanwhile must not run: {answer}"
    );
}

/// Row 902: a session's count of Stop follow-ups (`~/.hookx/follow-ups/`, the count that ends
/// a loop of blocked stops at the hook's agent's cap) is written under its folder's lock. A
/// process holding that lock without letting go (a run stopped by SIGSTOP in that instant)
/// kept `hookx run` waiting on a Stop hook's block without end: no answer until the host's
/// own timeout. Now the run answers: the count cannot be kept, so the block is not passed on
/// (a missing count must not keep an agent going without end), and stderr says why.
#[test]
fn a_stop_is_answered_while_another_process_holds_the_follow_up_counts_lock() {
    let s = Setup::new();
    let hooks = write(
        &s.project,
        ".claude/settings.json",
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"echo '{\"decision\":\"block\",\"reason\":\"run the tests\"}'"}]}]}}"#,
    );
    s.trust(&hooks);
    let counts = s.home.join(".hookx/follow-ups");
    std::fs::create_dir_all(&counts).unwrap();
    let holder = std::fs::File::open(&counts).unwrap();
    holder.lock().unwrap();
    let payload = serde_json::json!({
        "session_id": "s",
        "turn_id": "t",
        "transcript_path": "/dev/null",
        "cwd": s.project,
        "hook_event_name": "Stop",
        "model": "gpt-5.5",
        "permission_mode": "default",
        "stop_hook_active": false,
        "last_assistant_message": "done",
    });
    let out = s.hookx(
        &["run", "--host", "codex", "--event", "Stop"],
        &payload.to_string(),
    );
    drop(holder);
    let out = out.success().get_output().clone();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(!stdout.contains("block"), "{stdout}");
    assert!(
        stderr.contains("cannot keep the count") && stderr.contains("held its lock"),
        "{stderr}"
    );
}

/// `hookx ARGS --project PROJECT MORE…` started in `s`'s project for its user (`HOME`) while
/// the caller holds the lock of `~/.hookx` (inode `ino`), returned once it waits for that
/// lock (an event, [`lock_waiters`]); a command that ends first fails the test.
fn waiting_for_lock(
    s: &Setup,
    args: &[&str],
    more: &[&std::ffi::OsStr],
    ino: u64,
) -> std::process::Child {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"))
        .args(args)
        .arg("--project")
        .arg(&s.project)
        .args(more)
        .current_dir(&s.project)
        .env("HOME", &s.home)
        .env_remove("HOOKX_HOME")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while lock_waiters(ino) == 0 {
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            panic!(
                "{args:?} ended without waiting for ~/.hookx's lock: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    child
}

/// How many processes wait for the `flock` of the file or folder with inode `ino`
/// (`/proc/locks` lists each waiter with `->`).
fn lock_waiters(ino: u64) -> usize {
    let locks = std::fs::read_to_string("/proc/locks").unwrap();
    let at = format!(":{ino} ");
    locks
        .lines()
        .filter(|l| l.contains("->") && l.contains(&at))
        .count()
}

/// Row 903: two `hookx install --scope user` at once in a home with no route key yet (a
/// setup script installing for two agents side by side). Each read that there was no key,
/// made its own and wrote it: the file kept the last, and the other's route lines carried a
/// key that is not the user's, so `run` no longer knew that route for the user's (a project's
/// route file could bound its time again, attacks row 340). Forced here by holding `~/.hookx`'s
/// lock until both installs wait for it.
#[test]
#[cfg(target_os = "linux")]
fn two_user_installs_at_once_write_one_route_key() {
    use std::os::unix::fs::MetadataExt;
    let s = Setup::new();
    write(
        &s.home,
        ".gemini/settings.json",
        r#"{"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"true"}]}]}}"#,
    );
    write(
        &s.home,
        ".claude/settings.json",
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true"}]}]}}"#,
    );
    let state = s.home.join(".hookx");
    std::fs::create_dir_all(&state).unwrap();
    let holder = std::fs::File::open(&state).unwrap();
    holder.lock().unwrap();
    let install = |host: &str| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"))
            .args(["install", "--host", host, "--scope", "user", "--project"])
            .arg(&s.project)
            .arg("--home")
            .arg(&s.home)
            .env("HOME", &s.home)
            .env_remove("HOOKX_HOME")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut both = [install("claude"), install("gemini")];
    let ino = std::fs::metadata(&state).unwrap().ino();
    let start = std::time::Instant::now();
    while lock_waiters(ino) < 2 {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "the installs never both waited for ~/.hookx's lock"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    drop(holder);
    for child in &mut both {
        assert!(child.wait().unwrap().success());
    }
    let key = std::fs::read_to_string(state.join("route-key")).unwrap();
    for file in [".claude/settings.json", ".gemini/settings.json"] {
        let text = std::fs::read_to_string(s.home.join(file)).unwrap();
        assert!(
            text.contains(&format!("--route-key {}", key.trim())),
            "{file}'s route does not carry the user's key {key}: {text}"
        );
    }
}

/// Row 1240: the host writes the file install edits, without hookx's lock, between install's
/// read and its rename: Claude Code 2.1.332's `/model` writes `model` into
/// `~/.claude/settings.json` (bundle: `("userSettings",{model:`), Gemini CLI 0.61.0's `mcp add`
/// `mcpServers` into `~/.gemini/settings.json` (run). Forced by the debug hook
/// `HOOKX_TEST_BEFORE_RENAME`, which writes the host's file in place (as `writeFileSync` does)
/// once install's new text for it is ready (`HOOKX_TEST_RENAMING` names the file). Before, the rename put install's text, made from the file
/// as it was read, over the host's write: its setting was gone. Now install edits the file
/// again as the host left it, and both are there.
#[test]
fn a_hosts_write_while_install_writes_the_same_file_is_kept() {
    let s = Setup::new();
    let guard = write(
        &s.home,
        ".gemini/settings.json",
        &gemini_guard("user guard"),
    );
    s.trust(&guard);
    let mine = r#"{
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "echo mine"}]}]
  }
}
"#;
    let settings = write(&s.home, ".claude/settings.json", mine);
    // As Claude Code writes it: the object with the new key, two spaces, a final newline.
    let mut hosts: serde_json::Value = serde_json::from_str(mine).unwrap();
    hosts["model"] = "opus".into();
    let hosts = serde_json::to_string_pretty(&hosts).unwrap() + "\n";
    let written_by_host = write(&s.home, "host-write.json", &hosts);
    let out = common::hookx()
        .args(["install", "--host", "claude", "--scope", "user", "--project"])
        .arg(&s.project)
        .arg("--home")
        .arg(&s.home)
        .env("HOME", &s.home)
        .env_remove("HOOKX_HOME")
        .env(
            "HOOKX_TEST_BEFORE_RENAME",
            r#"[ "$HOOKX_TEST_RENAMING" = "$TARGET" ] && [ ! -e "$DONE" ] && cat "$HOST_WRITE" > "$TARGET" && : > "$DONE""#,
        )
        .env("HOST_WRITE", &written_by_host)
        .env("TARGET", &settings)
        .env("DONE", s.home.join("host-wrote"))
        .assert()
        .success();
    let text = std::fs::read_to_string(&settings).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        value["model"], "opus",
        "the host's write in that moment is lost: {text}\n{out:?}"
    );
    assert!(
        text.contains("run --host claude") && text.contains("echo mine"),
        "{text}"
    );
    // The route runs the user's guard.
    let answer = s.claude_shell_call();
    assert!(answer.contains("user guard"), "{answer}");
}

/// Row 1240's bound: a program that writes the file again each time install is about to
/// rename its text over it (here on every round) is not outrun without end: after six rounds
/// install fails, naming the file, and writes nothing; the other program's last text stays.
#[test]
fn a_file_another_program_keeps_changing_is_left_to_it() {
    let s = Setup::new();
    write(
        &s.home,
        ".gemini/settings.json",
        &gemini_guard("user guard"),
    );
    let settings = write(&s.home, ".claude/settings.json", "{}\n");
    let out = common::hookx()
        .args(["install", "--host", "claude", "--scope", "user", "--project"])
        .arg(&s.project)
        .arg("--home")
        .arg(&s.home)
        .env("HOME", &s.home)
        .env_remove("HOOKX_HOME")
        .env(
            "HOOKX_TEST_BEFORE_RENAME",
            r#"[ "$HOOKX_TEST_RENAMING" = "$TARGET" ] && printf '{"model": "m%s"}\n' "$HOOKX_TEST_ROUND" > "$TARGET""#,
        )
        .env("TARGET", &settings)
        .assert()
        .failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("another program changed it each of the 6 times"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&settings).unwrap();
    assert_eq!(text, "{\"model\": \"m5\"}\n");
}

/// Row 1250: Copilot CLI 1.0.102 writes `~/.copilot/settings.json` (its `config` command, its
/// menus) under `flock` of `settings.json.lock` (strace), a read, then a new file renamed over
/// it. `install --host copilot` writes its `disabledHooks` there: it takes that lock too, so a
/// write of Copilot's cannot land between install's read and its rename. Forced here by
/// holding Copilot's lock until install waits for it, then writing the file as Copilot does.
/// Before, install took only its own lock: it wrote at once and never waited.
#[test]
#[cfg(target_os = "linux")]
fn install_takes_copilots_own_lock_on_its_settings() {
    use std::os::unix::fs::MetadataExt;
    let s = Setup::new();
    std::fs::create_dir_all(s.project.join(".git")).unwrap();
    write(
        &s.project,
        ".claude/settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo no >&2; exit 2"}]}]}}"#,
    );
    s.hookx(&["trust", "--yes"], "").success();
    let settings = write(&s.home, ".copilot/settings.json", "{}\n");
    let lock = s.home.join(".copilot/settings.json.lock");
    let holder = std::fs::File::create(&lock).unwrap();
    holder.lock().unwrap();
    let mut install = std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"))
        .args([
            "install",
            "--host",
            "copilot",
            "--hookx",
            "hookx",
            "--project",
        ])
        .arg(&s.project)
        .arg("--home")
        .arg(&s.home)
        .env("HOME", &s.home)
        .env_remove("HOOKX_HOME")
        .env_remove("COPILOT_HOME")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let ino = std::fs::metadata(&lock).unwrap().ino();
    let start = std::time::Instant::now();
    while lock_waiters(ino) < 1 {
        if let Some(status) = install.try_wait().unwrap() {
            panic!("install ({status}) never waited for Copilot's lock on its settings");
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "install never waited for Copilot's lock"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    // As `copilot config model gpt-4.1` wrote it.
    std::fs::write(&settings, "{\n  \"model\": \"gpt-4.1\"\n}").unwrap();
    drop(holder);
    assert!(install.wait().unwrap().success());
    let text = std::fs::read_to_string(&settings).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["model"], "gpt-4.1", "{text}");
    assert!(value["disabledHooks"].is_array(), "{text}");
}

/// A Qwen Code 0.24.4 tool-call event of `session`'s call `call` through `hookx run --host
/// qwen`, started, not waited for: a batch of calls, or several agents' sessions, at once.
fn qwen_event(s: &Setup, event: &str, call: &str, session: &str) -> std::process::Child {
    use std::io::Write;
    let payload = serde_json::json!({
        "session_id": session, "transcript_path": "/dev/null", "cwd": s.project,
        "hook_event_name": event, "permission_mode": "yolo",
        "tool_name": "run_shell_command", "tool_input": {"command": "echo x"},
        "tool_use_id": call, "tool_response": {"llmContent": "x"},
    });
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"))
        .args(["run", "--host", "qwen", "--event", event, "--project"])
        .arg(&s.project)
        .arg("--home")
        .arg(&s.home)
        .env("HOME", &s.home)
        .env_remove("HOOKX_HOME")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(payload.to_string().as_bytes()).unwrap();
    child
}

/// Row 2081: Qwen drops a PreToolUse context, which `hookx run` carries to the call's post
/// event (row 1650). The store was one file per session under its folder's lock, waited for
/// 500 ms: a process holding that lock (a run stopped in that instant; under load, the runs
/// of a batch of calls and of other agents' sessions queueing for it) made each keep fail
/// ("not carried") and each take come back empty without a word, the kept context left
/// behind. Here the folder's lock is held throughout, and two sessions' calls run at once;
/// each call's post event answers its own context, once, and nothing is left.
#[test]
#[cfg(unix)]
fn carried_contexts_reach_their_own_calls_while_runs_and_sessions_overlap() {
    let s = Setup::new();
    // A Claude rule whose context names the call it was given.
    let rule = r#"id=$(sed -n 's/.*"tool_use_id": *"\([^"]*\)".*/\1/p'); printf '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"CTX-%s"}}' "$id""#;
    let hooks = write(
        &s.project,
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": rule}]}]}})
        .to_string(),
    );
    s.trust(&hooks);
    let carried = s.home.join(".hookx/carried");
    std::fs::create_dir_all(&carried).unwrap();
    let holder = std::fs::File::open(&carried).unwrap();
    holder.lock().unwrap();
    let calls: Vec<(String, String)> = ["s1", "s2"]
        .iter()
        .flat_map(|session| (0..8).map(move |n| (format!("t{n}"), session.to_string())))
        .collect();
    let run_all = |event: &str| {
        let children: Vec<_> = calls
            .iter()
            .map(|(call, session)| qwen_event(&s, event, call, session))
            .collect();
        children
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect::<Vec<_>>()
    };
    for out in run_all("PreToolUse") {
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("context carried"), "{stderr}");
    }
    for ((call, session), out) in calls.iter().zip(run_all("PostToolUse")) {
        let stdout = String::from_utf8_lossy(&out.stdout);
        let took: Vec<_> = stdout.matches("CTX-").collect();
        assert!(
            took.len() == 1 && stdout.contains(&format!("CTX-{call}\"")),
            "{session} {call}: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    drop(holder);
    assert_eq!(std::fs::read_dir(&carried).unwrap().count(), 0);
}

/// Row 2085: `hookx install --host gemini` adds hookx's route (for a Claude rule) to a project
/// `.gemini/settings.json` holding the user's trusted guard, and carries the user's trust over
/// to the bytes it writes; then `install --uninstall` takes the route out again. A `hookx run` answering a
/// shell call at any moment of either must deny by that guard. Before, the edit was renamed
/// into place first and the record saved after, under `~/.hookx`'s lock: a run in between read
/// the new bytes against the old record, skipped the guard as changed since trusted, and
/// allowed the call. Forced by holding that lock, as another `hookx trust` or install saving
/// does: before install starts (it waits for the lock with the file as it was, or, before,
/// with its edit in place), and from the moment its edit is about to be renamed into place
/// (`HOOKX_TEST_BEFORE_RENAME`), until uninstall waits for it.
#[test]
#[cfg(target_os = "linux")]
fn a_trusted_guard_denies_at_every_moment_of_installs_edit_of_its_file() {
    use std::os::unix::fs::MetadataExt;
    let s = Setup::new();
    let guard = write(
        &s.project,
        ".gemini/settings.json",
        &gemini_guard("project guard"),
    );
    s.trust(&guard);
    let claude = write(
        &s.project,
        ".claude/settings.json",
        r#"{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"true"}]}]}}"#,
    );
    s.trust(&claude);
    let state = s.home.join(".hookx");
    let ino = std::fs::metadata(&state).unwrap().ino();
    let (held, release) = (s.home.join("held"), s.home.join("release"));
    let hookx = |args: &[&str], before_rename: &str| {
        std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"))
            .args(args)
            .arg("--project")
            .arg(&s.project)
            .arg("--home")
            .arg(&s.home)
            .env("HOME", &s.home)
            .env_remove("HOOKX_HOME")
            .env("HOOKX_TEST_BEFORE_RENAME", before_rename)
            .env("TARGET", &guard)
            .env("STATE", &state)
            .env("HELD", &held)
            .env("RELEASE", &release)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let denies = |answer: &str| {
        answer.contains(r#""permissionDecision":"deny""#) && answer.contains("project guard")
    };
    // A run once the command waits for ~/.hookx's lock (the file as it is then); then the lock
    // let go, and the command's success.
    let answer_while_it_waits = |mut child: std::process::Child, let_go: &dyn Fn()| {
        let start = std::time::Instant::now();
        while lock_waiters(ino) == 0 {
            if child.try_wait().unwrap().is_some() {
                let out = child.wait_with_output().unwrap();
                panic!(
                    "the command ended without waiting for ~/.hookx's lock: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(120),
                "the command never waited for ~/.hookx's lock"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let file = std::fs::read_to_string(&guard).unwrap();
        let answer = s.claude_shell_call();
        let_go();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        (answer, file)
    };

    let holder = std::fs::File::open(&state).unwrap();
    holder.lock().unwrap();
    let install = hookx(&["install", "--host", "gemini"], "");
    let (answer, file) = answer_while_it_waits(install, &|| holder.unlock().unwrap());
    assert!(
        denies(&answer),
        "a run while install waited to record its trust allowed the call: {answer:?}; the \
         file then: {file}"
    );
    let installed = std::fs::read_to_string(&guard).unwrap();
    assert!(installed.contains("run --host gemini"), "{installed}");
    assert!(denies(&s.claude_shell_call()), "after install");

    // Another process takes the lock just before uninstall's rename, and holds it.
    let hold_before_rename = r#"[ "$HOOKX_TEST_RENAMING" = "$TARGET" ] && [ ! -e "$HELD" ] || exit 0
flock "$STATE" sh -c ': > "$HELD"; while [ ! -e "$RELEASE" ]; do sleep 0.01; done' &
while [ ! -e "$HELD" ]; do sleep 0.01; done"#;
    let uninstall = hookx(
        &["install", "--uninstall", "--host", "gemini"],
        hold_before_rename,
    );
    let (answer, file) = answer_while_it_waits(uninstall, &|| {
        std::fs::write(&release, "").unwrap();
    });
    assert!(
        denies(&answer),
        "a run between uninstall's rename and its trust record's allowed the call: {answer:?}; \
         the file then: {file}"
    );
    assert!(!file.contains("run --host gemini"), "{file}");
    assert!(denies(&s.claude_shell_call()), "after uninstall");
    let record = std::fs::read_to_string(state.join("trust.json")).unwrap();
    assert!(!record.contains("landing"), "{record}");
}

/// Rows 2085's remainder, 2100: `convert --write` and `sync` into a project's
/// `.gemini/settings.json` that holds the user's trusted Gemini guard, from a trusted Claude
/// source (the write keeps the file's trust: hookx's output of trusted files), while another
/// process holds `~/.hookx`'s lock (another `trust` or `install` saving). They renamed the new
/// bytes into place, then waited for the lock to save the trust they carried over: a `hookx
/// run` in between found the guard's file changed since trusted and skipped it, the call
/// allowed. Now the record trusts the new bytes beside the old before the rename
/// (`trust_landing`, as `install` since row 2085): each run fired while the command waits for
/// the lock denies.
#[test]
#[cfg(target_os = "linux")]
fn a_trusted_guard_denies_at_every_moment_of_convert_writes_and_syncs_edit_of_its_file() {
    use std::os::unix::fs::MetadataExt;
    let s = Setup::new();
    std::fs::create_dir_all(s.project.join(".git")).unwrap();
    let guard = write(
        &s.project,
        ".gemini/settings.json",
        &gemini_guard("project guard"),
    );
    s.trust(&guard);
    let claude_rule = |command: &str| {
        serde_json::json!({"hooks": {"PostToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": command}]}]}})
        .to_string()
    };
    let claude = write(&s.project, ".claude/settings.json", &claude_rule("true"));
    s.trust(&claude);
    let state = s.home.join(".hookx");
    let ino = std::fs::metadata(&state).unwrap().ino();
    let denies = |answer: &str| {
        answer.contains(r#""permissionDecision":"deny""#) && answer.contains("project guard")
    };
    // The command, started while another process holds ~/.hookx's lock; a run once the
    // command waits for it (the file as it is then); then the lock let go, and the command's
    // success. The answer, the file then and the file after.
    let while_it_waits = |args: &[&str]| {
        let holder = std::fs::File::open(&state).unwrap();
        holder.lock().unwrap();
        let before = std::fs::read_to_string(&guard).unwrap();
        // `convert` takes its home from `HOME`.
        let child = waiting_for_lock(&s, args, &[], ino);
        let file = std::fs::read_to_string(&guard).unwrap();
        let answer = s.claude_shell_call();
        holder.unlock().unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let after = std::fs::read_to_string(&guard).unwrap();
        assert_ne!(after, before, "{args:?} did not write the guard's file");
        (answer, file)
    };

    let source = claude.display().to_string();
    let (answer, file) = while_it_waits(&["convert", &source, "--to", "gemini", "--write"]);
    assert!(
        denies(&answer),
        "a run while convert --write waited to record its trust allowed the call: {answer:?}; \
         the file then: {file}"
    );
    assert!(denies(&s.claude_shell_call()), "after convert --write");

    // The source changes, is trusted again, and is synced into the same file.
    write(&s.project, ".claude/settings.json", &claude_rule("echo v2"));
    s.trust(&claude);
    write(
        &s.project,
        ".hookx/sync.toml",
        "version = 1\nsources = [{ path = \".claude/settings.json\", from = \"claude\" }]\n[targets.gemini]\n",
    );
    let (answer, file) = while_it_waits(&["sync"]);
    assert!(
        denies(&answer),
        "a run while sync waited to record its trust allowed the call: {answer:?}; the file \
         then: {file}"
    );
    assert!(denies(&s.claude_shell_call()), "after sync");
    let record = std::fs::read_to_string(state.join("trust.json")).unwrap();
    assert!(!record.contains("landing"), "{record}");
}

/// Row 2109: `sync` rewriting a Cline hook script (one of hookx's copies of a trusted Claude
/// guard, trusted as hookx's output) after its source changed and was trusted again, while
/// another process holds `~/.hookx`'s lock. `convert_to_scripts` renamed the new script into
/// place, then waited for the lock to trust it: a run in between found the copy changed since
/// trusted, so under Cline (which runs the script itself) hookx's route ran the original as
/// well (the rule twice per call, row 585), and under every other host it warned the user to
/// review a file hookx wrote. Now the record trusts the new script beside the old before the
/// rename (`trust_landing`, as `write_file` since row 2100).
#[test]
#[cfg(target_os = "linux")]
fn a_synced_hook_script_stays_trusted_at_every_moment_of_its_rewrite() {
    use std::os::unix::fs::MetadataExt;
    let s = Setup::new();
    std::fs::create_dir_all(s.project.join(".git")).unwrap();
    let guard = |reason: &str| {
        let answer = serde_json::json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": reason}});
        serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": format!("echo '{answer}'")}]}]}})
        .to_string()
    };
    let claude = write(&s.project, ".claude/settings.json", &guard("guard v1"));
    s.trust(&claude);
    write(
        &s.project,
        ".hookx/sync.toml",
        "version = 1\nsources = [{ path = \".claude/settings.json\", from = \"claude\" }]\n[targets.cline]\n",
    );
    s.hookx(&["sync"], "").success();
    let script = s.project.join(".clinerules/hooks/PreToolUse");
    // The script's line in `list --host codex` (hookx runs Cline's scripts there): its trust.
    let listed = |s: &Setup| {
        let out = s.hookx(&["list", "--host", "codex"], "").success();
        let out = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        out.lines()
            .find(|l| l.contains("(via hookx exec") && l.contains(".clinerules/hooks/PreToolUse"))
            .unwrap_or_default()
            .to_string()
    };
    let trusted = |line: &str| line.contains(" trusted ");
    assert!(trusted(&listed(&s)), "after the first sync: {}", listed(&s));

    write(&s.project, ".claude/settings.json", &guard("guard v2"));
    s.trust(&claude);
    let state = s.home.join(".hookx");
    let ino = std::fs::metadata(&state).unwrap().ino();
    let holder = std::fs::File::open(&state).unwrap();
    holder.lock().unwrap();
    let before = std::fs::read_to_string(&script).unwrap();
    let child = waiting_for_lock(&s, &["sync"], &["--home".as_ref(), s.home.as_os_str()], ino);
    let file = std::fs::read_to_string(&script).unwrap();
    let then = listed(&s);
    let payload = serde_json::json!({"session_id": "s", "transcript_path": "/dev/null",
        "cwd": s.project, "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}});
    let run = s.hookx(
        &["run", "--host", "codex", "--event", "PreToolUse"],
        &payload.to_string(),
    );
    let warned = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    holder.unlock().unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_ne!(
        std::fs::read_to_string(&script).unwrap(),
        before,
        "sync did not rewrite the script"
    );
    assert!(
        trusted(&then),
        "while sync waited to record its trust, the script was not trusted: {then:?}; the \
         script then held guard v2: {}",
        file.contains("guard v2")
    );
    assert!(
        !warned.contains("changed since it was trusted"),
        "a run while sync waited: {warned}"
    );
    assert!(trusted(&listed(&s)), "after sync: {}", listed(&s));
    assert!(
        std::fs::read_to_string(&script)
            .unwrap()
            .contains("guard v2")
    );
    let record = std::fs::read_to_string(state.join("trust.json")).unwrap();
    assert!(!record.contains("landing"), "{record}");
}
