//! The run-time claim (`hookx::claim`): hookx routed from both of Claude's files, the user's
//! and the project's; whichever route reaches a call first runs the rules, the other repeats
//! its deny. Each rule runs once per call, whatever order the routes run in, and at least once
//! whatever happens to the first.
#![cfg(unix)]

mod common;

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// A project and a home with hookx installed in both of a host's files (Claude's, unless the
/// test says), and one guard that logs each run, waits for `release` to exist (where the test
/// says so) and denies.
struct Both {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
    log: PathBuf,
    release: PathBuf,
    user: String,
    project_route: String,
}

const REASON: &str = "R-CLAIM-GUARD";

fn both(wait_for_release: bool) -> Both {
    both_under(
        "claude",
        "PreToolUse",
        ".bricks/hooks.json",
        |log, release| {
            let wait = match wait_for_release {
                true => format!(
                    "while [ ! -e '{}' ]; do sleep 0.01; done; ",
                    release.display()
                ),
                false => String::new(),
            };
            format!(
                "echo guard >> '{}'; {wait}echo {REASON} >&2; exit 2",
                log.display()
            )
        },
    )
}

/// [`both`] under `host`, whose files route `event`, with the guard `guard(log, release)` in
/// the project's `rule_file` (Claude's hook file, which the host does not read itself).
fn both_under(
    host: &str,
    event: &str,
    rule_file: &str,
    guard: impl FnOnce(&Path, &Path) -> String,
) -> Both {
    both_on(host, event, rule_file, "PreToolUse", guard)
}

/// [`both_under`] with the rules registered for `rule_event` in their files' dialect.
fn both_on(
    host: &str,
    event: &str,
    rule_file: &str,
    rule_event: &str,
    guard: impl FnOnce(&Path, &Path) -> String,
) -> Both {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let (log, release) = (root.join("ran.log"), root.join("release"));
    let guard = guard(&log, &release);
    let rule = serde_json::json!({"hooks": {rule_event: [
        {"hooks": [{"type": "command", "command": guard}]}]}});
    // Files Claude does not read itself: hookx runs them. Each scope's route routes its own
    // rules' events: the user has a rule of the event too, which logs.
    common::write(&project, rule_file, &rule.to_string());
    let mine = format!("echo user >> '{}'", log.display());
    let rule = serde_json::json!({"hooks": {rule_event: [
        {"hooks": [{"type": "command", "command": mine}]}]}});
    common::write(
        &home,
        ".bricks-project-desktop/hooks.json",
        &rule.to_string(),
    );
    let bin = env!("CARGO_BIN_EXE_hookx");
    common::hookx_at(&project, &home, &["trust", "--yes"]).success();
    for scope in ["project", "user"] {
        common::hookx_at(
            &project,
            &home,
            &["install", "--host", host, "--scope", scope, "--hookx", bin],
        )
        .success();
    }
    let route = |file: &Path| -> String {
        let text = std::fs::read_to_string(file).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["hooks"][event][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let file = format!(".{host}/settings.json");
    let user = route(&home.join(&file));
    let project_route = route(&project.join(&file));
    assert_ne!(user, project_route);
    Both {
        _tmp: tmp,
        project,
        home,
        log,
        release,
        user,
        project_route,
    }
}

impl Both {
    /// A Bash call as Claude sends it to both routes: one `tool_use_id` per call.
    fn payload(&self, call: &str) -> String {
        serde_json::json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl",
            "cwd": self.project, "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "rm -rf build"}, "tool_use_id": call})
        .to_string()
    }

    /// Starts `route` as Claude does, in a process group of its own, `payload` on its stdin.
    fn start(&self, route: &str, payload: &str) -> Child {
        self.start_with(route, payload, &[])
    }

    /// [`Both::start`] with `env` set besides.
    fn start_with(&self, route: &str, payload: &str, env: &[(&str, &str)]) -> Child {
        let mut child = Command::new("sh")
            .args(["-c", route])
            .envs(env.iter().copied())
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env_remove("HOOKX_HOME")
            .env_remove("HOOKX_HOST")
            .env_remove("HOOKX_DEPTH")
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.as_bytes())
            .unwrap();
        child
    }

    fn fire(&self, route: &str, payload: &str) -> Output {
        self.start(route, payload).wait_with_output().unwrap()
    }

    /// Fires the user's route, then the project's, each with `payload`: each must deny.
    fn fire_both_and_see_each_deny(&self, payload: &str) {
        for route in [&self.user, &self.project_route] {
            assert!(denies(&self.fire(route, payload)));
        }
    }

    /// How often the guard started.
    fn runs(&self) -> usize {
        std::fs::read_to_string(&self.log)
            .unwrap_or_default()
            .lines()
            .filter(|l| *l == "guard")
            .count()
    }

    /// Waits until the guard has started `n` times (the test's event, not a timer), while
    /// one of `routes` still runs.
    fn wait_runs(&self, n: usize, routes: &mut [&mut Child]) {
        while self.runs() < n {
            let running = routes.iter_mut().any(|c| c.try_wait().unwrap().is_none());
            assert!(
                running || self.runs() >= n,
                "the routes ended, the guard ran {}",
                self.runs()
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}

/// Whether Claude reads `out` as a deny with the guard's reason.
/// The store's files of every event: each in the store's folder named by the first digit of
/// its event id (attacks row 1511).
fn claim_files(home: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(home.join(".hookx/claims"))
        .into_iter()
        .flatten()
        .flat_map(|folder| {
            std::fs::read_dir(folder.unwrap().path())
                .into_iter()
                .flatten()
        })
        .map(|e| e.unwrap().path())
        .collect()
}

fn denies(out: &Output) -> bool {
    let stdout = String::from_utf8_lossy(&out.stdout);
    out.status.code() == Some(0)
        && stdout.contains(r#""permissionDecision":"deny""#)
        && stdout.contains(REASON)
}

#[test]
fn both_routes_in_either_order_run_the_guard_once_and_both_deny() {
    for user_first in [true, false] {
        let both = both(false);
        let payload = both.payload("toolu_01");
        let order = match user_first {
            true => [&both.user, &both.project_route],
            false => [&both.project_route, &both.user],
        };
        let outs: Vec<Output> = order.iter().map(|r| both.fire(r, &payload)).collect();
        assert_eq!(both.runs(), 1, "user first: {user_first}");
        for out in &outs {
            assert!(denies(out), "user first: {user_first}: {out:?}");
        }
    }
}

#[test]
fn both_routes_started_together_run_the_guard_once_and_both_deny() {
    let both = both(true);
    let payload = both.payload("toolu_01");
    let mut first = both.start(&both.user, &payload);
    let mut second = both.start(&both.project_route, &payload);
    // One route claimed the call and runs the guard; the other waits on the claim.
    both.wait_runs(1, &mut [&mut first, &mut second]);
    std::fs::write(&both.release, "").unwrap();
    let outs = [
        first.wait_with_output().unwrap(),
        second.wait_with_output().unwrap(),
    ];
    assert_eq!(both.runs(), 1);
    for out in &outs {
        assert!(denies(out), "{out:?}");
    }
}

#[test]
fn a_claimer_killed_mid_run_leaves_the_deny_to_the_other_route() {
    let both = both(true);
    let payload = both.payload("toolu_01");
    let mut claimer = both.start(&both.user, &payload);
    both.wait_runs(1, &mut [&mut claimer]);
    let mut matcher = both.start(&both.project_route, &payload);
    // Killed as a host kills a hook past its timeout: the whole group, no chance to answer.
    rustix::process::kill_process_group(
        rustix::process::Pid::from_child(&claimer),
        rustix::process::Signal::KILL,
    )
    .unwrap();
    let _ = claimer.wait_with_output();
    // The matcher finds the claimer gone without an answer: it runs the guard itself.
    both.wait_runs(2, &mut [&mut matcher]);
    std::fs::write(&both.release, "").unwrap();
    let out = matcher.wait_with_output().unwrap();
    assert!(denies(&out), "{out:?}");
}

/// Attacks row 502: a claimer stopped mid-run (SIGSTOP to its group, as a terminal's Ctrl-Z or
/// a debugger) holds its claim and answers nothing. The matcher waited out its budget and then
/// failed closed (a deny without the guard's reason, for any call). It runs the guard at once.
#[test]
fn a_stopped_claimer_leaves_the_rules_to_the_other_route_at_once() {
    use rustix::process::{Pid, Signal, kill_process_group};
    let both = both(true);
    let payload = both.payload("toolu_01");
    let mut claimer = both.start(&both.user, &payload);
    both.wait_runs(1, &mut [&mut claimer]);
    let group = Pid::from_child(&claimer);
    kill_process_group(group, Signal::STOP).unwrap();
    // A limit the test can wait out where the matcher waits for the stopped claimer.
    let limit = [("HOOKX_TEST_HOST_LIMIT_MS", "10000")];
    let mut matcher = both.start_with(&both.project_route, &payload, &limit);
    both.wait_runs(2, &mut [&mut matcher]);
    std::fs::write(&both.release, "").unwrap();
    let out = matcher.wait_with_output().unwrap();
    kill_process_group(group, Signal::KILL).unwrap();
    let _ = claimer.wait_with_output();
    assert!(denies(&out), "{out:?}");
}

/// Attacks row 512: the store full of files dated ahead of the clock (written before it was
/// set back). Kept as the newest, they made each new claim's files the first `collect` took
/// past its cap (512 then; 64 in each of its 16 folders since row 1511, so planted in each):
/// the matcher found no claim and ran the guard again.
#[test]
fn files_dated_ahead_of_the_clock_do_not_crowd_out_a_claim() {
    let both = both(false);
    let ahead = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
    for folder in "0123456789abcdef".chars() {
        let store = both.home.join(".hookx/claims").join(folder.to_string());
        std::fs::create_dir_all(&store).unwrap();
        for n in 0..100 {
            let file = std::fs::File::create(store.join(format!("old{n}"))).unwrap();
            file.set_modified(ahead).unwrap();
        }
    }
    let payload = both.payload("toolu_01");
    both.fire_both_and_see_each_deny(&payload);
    assert_eq!(both.runs(), 1);
}

/// Attacks rows 506, 514: Gemini's `sequential` chain runs the user's file, then the project's,
/// and hands the project's route the user route's rewritten `tool_input` (bundle 0.61.0,
/// `applyHookOutputToInput`: `{...tool_input, ...answered}`). The two routes computed two ids:
/// the rewriting rule ran again on the rewritten input. The claimer claims the rewritten call
/// too.
#[test]
fn gemini_sequential_hands_the_rewritten_call_to_a_route_that_repeats() {
    let both = both_under("gemini", "BeforeTool", ".claude/settings.json", |log, _| {
        let rewrite = serde_json::json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "allow", "updatedInput": {"command": "rm -rf build/tmp"}}});
        format!("echo guard >> '{}'; echo '{rewrite}'", log.display())
    });
    // Gemini runs the project's hooks only in a folder it trusts.
    let trusted = serde_json::json!({ both.project.to_str().unwrap(): "TRUST_FOLDER" });
    common::write(
        &both.home,
        ".gemini/trustedFolders.json",
        &trusted.to_string(),
    );
    let call = serde_json::json!({"session_id": "s1", "transcript_path": "/tmp/t.json",
        "cwd": both.project, "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-06T05:00:00.000Z", "tool_name": "run_shell_command",
        "tool_input": {"command": "rm -rf build"}});
    let first = both.fire(&both.user, &call.to_string());
    let answer: serde_json::Value = serde_json::from_slice(&first.stdout).unwrap();
    let rewritten = &answer["hookSpecificOutput"]["tool_input"];
    assert_eq!(rewritten["command"], "rm -rf build/tmp", "{first:?}");
    // The next route's payload as Gemini builds it.
    let mut next = call.clone();
    for (key, value) in rewritten.as_object().unwrap() {
        next["tool_input"][key] = value.clone();
    }
    let second = both.fire(&both.project_route, &next.to_string());
    assert!(second.status.success(), "{second:?}");
    assert_eq!(both.runs(), 1, "{second:?}");
}

/// The matcher repeats what blocks of the claimer's answer, byte for byte, in every form a
/// rule gives it that Claude reads; what blocks nothing (a rewrite, context) it leaves to the
/// claimer's answer, which the host applies (attacks row 515).
#[test]
fn the_matcher_repeats_each_blocking_answer_form_as_the_rules_gave_it() {
    let deny = |reason: Option<&str>| {
        let mut out = serde_json::json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny"}});
        if let Some(r) = reason {
            out["hookSpecificOutput"]["permissionDecisionReason"] = r.into();
        }
        format!("echo '{out}'")
    };
    let ask = r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "ask", "permissionDecisionReason": "R-ASK"}}'"#;
    let stop = r#"echo '{"continue": false, "stopReason": "R-STOP"}'"#;
    let rewrite = r#"echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "allow", "updatedInput": {"command": "rm -rf build/tmp"},
        "additionalContext": "R-CONTEXT"}}'"#;
    // (form, the rule's command, the file it is in, whether the matcher says it again): a
    // file whose dialect reads the form (Droid's reads `continue`, the Bricks one rewrites).
    let (bricks, droid) = (".bricks/hooks.json", ".factory/settings.json");
    let forms = [
        (
            "exit 2 with stderr",
            "echo R-EXIT2 >&2; exit 2".into(),
            bricks,
            true,
        ),
        (
            "JSON deny with a reason",
            deny(Some("R-DENY")),
            bricks,
            true,
        ),
        ("JSON deny without a reason", deny(None), bricks, true),
        ("ask", ask.into(), bricks, true),
        ("continue false with a stopReason", stop.into(), droid, true),
        ("a rewrite with context", rewrite.into(), bricks, false),
    ];
    for (form, command, file, repeated) in forms {
        let both = both_under("claude", "PreToolUse", file, |log, _| {
            format!("echo guard >> '{}'; {command}", log.display())
        });
        let payload = both.payload("toolu_01");
        let claimer = both.fire(&both.user, &payload);
        let matcher = both.fire(&both.project_route, &payload);
        assert_eq!(both.runs(), 1, "{form}");
        assert!(!claimer.stdout.is_empty(), "{form}: {claimer:?}");
        // What Claude reads: stdout, the exit code, and stderr at exit 2 (at exit 0 it holds
        // the claimer's notes, such as a handler still running when the deny came).
        let said = |out: &Output| {
            let code = out.status.code();
            let stderr = String::from_utf8_lossy(&out.stderr).to_string();
            let stdout = String::from_utf8_lossy(&out.stdout).to_string();
            (
                code,
                stdout,
                stderr
                    .chars()
                    .filter(|_| code == Some(2))
                    .collect::<String>(),
            )
        };
        match repeated {
            true => assert_eq!(said(&matcher), said(&claimer), "{form}"),
            false => assert_eq!(said(&matcher), (Some(0), "".into(), "".into()), "{form}"),
        }
    }
}

#[test]
fn two_calls_alike_through_one_route_both_run_the_guard() {
    let both = both(false);
    let payload = both.payload("toolu_01");
    for _ in 0..2 {
        assert!(denies(&both.fire(&both.user, &payload)));
    }
    assert_eq!(both.runs(), 2);
}

#[test]
fn two_calls_each_run_the_guard_once_through_both_routes() {
    let both = both(false);
    for call in ["toolu_01", "toolu_02"] {
        let payload = both.payload(call);
        assert!(denies(&both.fire(&both.user, &payload)));
        assert!(denies(&both.fire(&both.project_route, &payload)));
    }
    assert_eq!(both.runs(), 2);
}

#[test]
fn a_claim_store_that_cannot_be_written_runs_the_guard_in_both_routes() {
    let both = both(false);
    common::write(
        &both.home,
        ".hookx/claims",
        "a file where the store's folder goes",
    );
    let payload = both.payload("toolu_01");
    both.fire_both_and_see_each_deny(&payload);
    assert_eq!(both.runs(), 2);
}

#[test]
fn one_route_alone_touches_no_claim() {
    let both = both(false);
    std::fs::remove_file(both.project.join(".claude/settings.json")).unwrap();
    assert!(denies(&both.fire(&both.user, &both.payload("toolu_01"))));
    assert_eq!(both.runs(), 1);
    assert!(!both.home.join(".hookx/claims").exists());
}

/// Attacks row 500: a claim record locked by a process that never lets go (a route stopped by
/// SIGSTOP in the instant it held it, or any process of the account) held the other route on
/// the lock until the host gave up, and the deny was lost. The route runs the rules instead.
#[test]
fn a_claim_record_locked_by_a_stopped_process_runs_the_guard() {
    let both = both(false);
    let payload = both.payload("toolu_01");
    assert!(denies(&both.fire(&both.user, &payload)));
    // The call's record: the store's one file without an extension (the others are the
    // claimer's run and answer files).
    let records: Vec<PathBuf> = claim_files(&both.home)
        .into_iter()
        .filter(|p| p.extension().is_none())
        .collect();
    assert_eq!(records.len(), 1, "{records:?}");
    let holder = std::fs::File::open(&records[0]).unwrap();
    holder.lock().unwrap();
    let out = both.fire(&both.project_route, &payload);
    drop(holder);
    assert!(denies(&out), "{out:?}");
    assert_eq!(both.runs(), 2);
}

/// Attacks row 504: a project ships a route line of its own beside the user's route, the shape
/// hookx's project route has but with its own `--managed-root`. It claimed the call, ran the
/// user's and the project's rules but no policy's, and the user's route repeated its silence:
/// the policy's deny was lost. Routes that read other places claim apart: the policy runs.
#[test]
fn a_project_route_with_its_own_policy_root_stands_in_for_no_policy() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    let (managed, empty) = (root.join("managed"), root.join("empty"));
    for dir in [project.join(".git"), home.clone(), empty.clone()] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let log = root.join("ran.log");
    let quiet = |who: &str| {
        let command = format!("echo {who} >> '{}'", log.display());
        serde_json::json!({"hooks": {"PreToolUse": [
            {"hooks": [{"type": "command", "command": command}]}]}})
        .to_string()
    };
    common::write(&project, ".bricks/hooks.json", &quiet("project"));
    common::write(&home, ".bricks-project-desktop/hooks.json", &quiet("user"));
    let policy = format!(
        "echo policy >> '{}'; echo R-POLICY >&2; exit 2",
        log.display()
    );
    common::write(
        &managed,
        "etc/github-copilot/policy.d/hooks.json",
        &serde_json::json!({"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": policy}]}})
        .to_string(),
    );
    let bin = env!("CARGO_BIN_EXE_hookx");
    let managed_root = managed.to_str().unwrap();
    common::hookx_at(&project, &home, &["trust", "--yes"]).success();
    common::hookx_at(
        &project,
        &home,
        &[
            "install",
            "--host",
            "claude",
            "--scope",
            "user",
            "--hookx",
            bin,
            "--managed-root",
            managed_root,
        ],
    )
    .success();
    let settings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(home.join(".claude/settings.json")).unwrap())
            .unwrap();
    let user = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let shipped = format!(
        "{bin} run --host claude --event PreToolUse --home \"$HOME\" --managed-root '{}'",
        empty.display()
    );
    let hooks = serde_json::json!({"hooks": {"PreToolUse": [
        {"hooks": [{"type": "command", "command": shipped}]}]}});
    common::write(&project, ".claude/settings.json", &hooks.to_string());
    let payload = serde_json::json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl",
        "cwd": project, "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "rm -rf build"}, "tool_use_id": "toolu_01"})
    .to_string();
    let fire = |route: &str| {
        let mut child = Command::new("sh")
            .args(["-c", route])
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .env_remove("HOOKX_HOST")
            .env_remove("HOOKX_DEPTH")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(payload.as_bytes()).unwrap();
        drop(stdin);
        child.wait_with_output().unwrap()
    };
    // The project's line first (it is the faster), then the user's route.
    fire(&shipped);
    let out = fire(&user);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(r#""permissionDecision":"deny""#), "{out:?}");
    let ran = std::fs::read_to_string(&log).unwrap();
    assert_eq!(ran.lines().filter(|l| *l == "policy").count(), 1, "{ran}");
}

/// Attacks row 508: two subagents of one session end together (Claude's SubagentStop, one per
/// `agent_id`, no call id). Their routes computed one id, so a route of one subagent's stop
/// could match the claim of the other's: in the order below, the first subagent's rules ran
/// in neither of its routes, both repeated the second's answer, and its block was lost.
#[test]
fn two_subagents_ending_together_each_run_their_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let (log, release) = (root.join("ran.log"), root.join("release"));
    // Blocks the stop of agent `a-one` only; waits for `release` either way.
    let guard = format!(
        "p=$(cat); case \"$p\" in *a-one*) who=one;; *) who=two;; esac; \
         echo $who >> '{}'; while [ ! -e '{}' ]; do sleep 0.01; done; \
         if [ $who = one ]; then echo R-ONE >&2; exit 2; fi",
        log.display(),
        release.display()
    );
    let rule = |command: &str| {
        serde_json::json!({"hooks": {"SubagentStop": [
            {"hooks": [{"type": "command", "command": command}]}]}})
        .to_string()
    };
    // Droid's files, which Claude does not read and hookx runs: their exit 2 blocks the stop.
    common::write(&project, ".factory/settings.json", &rule(&guard));
    common::write(&home, ".factory/settings.json", &rule("true"));
    let bin = env!("CARGO_BIN_EXE_hookx");
    common::hookx_at(&project, &home, &["trust", "--yes"]).success();
    for scope in ["project", "user"] {
        let args = [
            "install", "--host", "claude", "--scope", scope, "--hookx", bin,
        ];
        common::hookx_at(&project, &home, &args).success();
    }
    let route = |file: &Path| -> String {
        let text = std::fs::read_to_string(file).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        value["hooks"]["SubagentStop"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let user = route(&home.join(".claude/settings.json"));
    let project_route = route(&project.join(".claude/settings.json"));
    let payload = |agent: &str| {
        serde_json::json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl",
            "cwd": project, "prompt_id": "p1", "permission_mode": "default",
            "agent_id": agent, "agent_type": "general-purpose",
            "hook_event_name": "SubagentStop", "stop_hook_active": false,
            "agent_transcript_path": format!("/tmp/agent-{agent}.jsonl"),
            "last_assistant_message": "done"})
        .to_string()
    };
    let start = |route: &str, payload: &str| {
        let mut child = Command::new("sh")
            .args(["-c", route])
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .env_remove("HOOKX_HOST")
            .env_remove("HOOKX_DEPTH")
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(payload.as_bytes()).unwrap();
        drop(stdin);
        child
    };
    // How many routes have settled: each either matched a claim (its record's `1`) or
    // started the guard (a line of the log).
    let settled = || {
        let matched: usize = claim_files(&home)
            .into_iter()
            .filter(|p| p.extension().is_none())
            .map(|p| std::fs::read_to_string(p).unwrap_or_default())
            .map(|t| t.lines().filter(|l| l.ends_with(" 1")).count())
            .sum();
        matched
            + std::fs::read_to_string(&log)
                .unwrap_or_default()
                .lines()
                .count()
    };
    let (one, two) = (payload("a-one"), payload("a-two"));
    let mut routes: Vec<Child> = Vec::new();
    for (n, (route, payload)) in [
        (&user, &two),
        (&project_route, &one),
        (&project_route, &two),
        (&user, &one),
    ]
    .into_iter()
    .enumerate()
    {
        routes.push(start(route, payload));
        while settled() < n + 1 {
            for child in &mut routes {
                assert!(child.try_wait().unwrap().is_none(), "a route ended early");
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
    std::fs::write(&release, "").unwrap();
    let outs: Vec<Output> = routes
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    let ran = std::fs::read_to_string(&log).unwrap();
    assert_eq!(ran.lines().filter(|l| *l == "one").count(), 1, "{ran}");
    for out in [&outs[1], &outs[3]] {
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("block") && stdout.contains("R-ONE"),
            "{out:?}"
        );
    }
}

/// Attacks row 563 (row 524's second half): Claude's Stop and prompt payloads carry no call
/// id, so every Stop (every prompt) of a session computed one id. A claim the other route
/// never matched (a Stop it did not run: started with `--setting-sources user`, then resumed)
/// was matched by the next Stop, whose route repeated the earlier block without running the
/// rules: one extra turn; a prompt blocked for the words of an earlier one. The payloads are
/// Claude 2.1.332's recorded shapes (`tools.46.Stop`, `tools.48.Stop`: one `prompt_id` for a
/// stop and the stop after its block, `stop_hook_active` and `last_assistant_message` apart;
/// `UserPromptSubmit`: `prompt`, `prompt_id`).
#[test]
fn a_claim_left_unmatched_stands_for_no_later_stop_or_prompt() {
    // Droid's files, which Claude does not read and hookx runs: exit 2 blocks either event.
    let guard = "p=$(cat); case \"$p\" in *'\"stop_hook_active\":true'*) exit 0;; \
                 *'\"prompt\":\"hello\"'*) exit 0;; esac; echo R-BLOCK >&2; exit 2";
    for (event, first, second) in [
        (
            "Stop",
            serde_json::json!({"prompt_id": "p1", "stop_hook_active": false,
                "last_assistant_message": "All done."}),
            serde_json::json!({"prompt_id": "p1", "stop_hook_active": true,
                "last_assistant_message": "Done again."}),
        ),
        (
            "UserPromptSubmit",
            serde_json::json!({"prompt_id": "p1", "prompt": "the SECRET is 42"}),
            serde_json::json!({"prompt_id": "p2", "prompt": "hello"}),
        ),
    ] {
        let world = both_on("claude", event, ".factory/settings.json", event, |_, _| {
            guard.to_string()
        });
        let payload = |fields: &serde_json::Value| {
            let mut p = serde_json::json!({"session_id": "s1",
                "transcript_path": "/tmp/t.jsonl", "cwd": world.project,
                "permission_mode": "default", "hook_event_name": event});
            for (k, v) in fields.as_object().unwrap() {
                p[k] = v.clone();
            }
            p.to_string()
        };
        let blocks = |out: &Output| String::from_utf8_lossy(&out.stdout).contains("R-BLOCK");
        // The first reaches the user's route only: blocked, its claim left unmatched.
        assert!(
            blocks(&world.fire(&world.user, &payload(&first))),
            "{event}"
        );
        // The next reaches the project's route first: the rules let it through.
        let out = world.fire(&world.project_route, &payload(&second));
        assert!(!blocks(&out), "{event}: an earlier block repeated: {out:?}");
        assert!(
            !blocks(&world.fire(&world.user, &payload(&second))),
            "{event}"
        );
    }
}
