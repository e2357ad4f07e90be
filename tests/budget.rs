//! The host's time limit, through the real `hookx run`: a host kills a hook that outlasts its
//! limit and goes on without its answer (the tool call then runs), so hookx must answer before
//! it, whatever its handlers do. A deny that has arrived is answered at once; handlers still
//! running finish detached, within their own timeouts.
//!
//! The hosts' limits are minutes; debug builds let a test shorten them
//! (`HOOKX_TEST_HOST_LIMIT_MS`, read only under `cfg(debug_assertions)`). Every wait here is
//! bounded by an event (hookx's exit, a file a handler writes), never by a guess at the
//! machine's speed; the hard limit of each run only bounds how long a failure takes.
#![cfg(unix)]

mod common;
#[path = "common/host_limit.rs"]
mod host_limit;

use hookx::model::Decision;
use hookx::tables::Dialect;
use host_limit::*;
use serde_json::json;
use std::path::Path;
use std::time::{Duration, Instant};

/// Under every host: a handler that hangs far past the host's limit (its own timeout is
/// longer still) and one that denies at once. hookx answers the deny and ends without waiting
/// for the hanging one, which then finishes detached once released. On a host that runs
/// handlers in parallel the deny is answered as it arrives; on one that runs them one by one,
/// the hanging handler (first) uses the host's time up and the failure policy denies for it.
#[test]
fn a_deny_reaches_every_host_within_its_limit_beside_a_hanging_handler() {
    let failures: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = Dialect::all()
            .iter()
            .map(|&host| scope.spawn(move || one_host(host)))
            .collect();
        runs.into_iter()
            .filter_map(|run| run.join().unwrap().err())
            .collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn one_host(host: Dialect) -> Result<(), String> {
    let s = Setup::new();
    let rules = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": hang(&s.release, &s.marker), "timeout": 300},
        {"type": "command", "command": deny(&s.denied), "timeout": 300},
    ]}]}});
    let file = common::write(&s.project, foreign_file(host), &rules.to_string());
    s.trust(&file);
    let (decision, ran) = s.fire(host)?;
    if decision != Decision::Deny {
        return Err(format!("{host}: not a deny: {ran:?}"));
    }
    if s.marker.exists() {
        return Err(format!(
            "{host}: hookx waited for the hanging handler: {ran:?}"
        ));
    }
    if !s.released_finishes() {
        return Err(format!(
            "{host}: the hanging handler did not finish once released (killed?): {ran:?}"
        ));
    }
    Ok(())
}

/// Copilot runs handlers one after another and stops at the first deny. A Claude handler
/// hookx runs there (the user's `~/.claude/settings.json`) that hangs, with Claude's default
/// timeout (600 s, the whole route), followed by a deny: the answer is a deny within
/// Copilot's limit, and the hanging handler finishes detached once released.
#[test]
fn under_copilot_a_hanging_claude_handler_before_a_deny_still_denies_in_time() {
    let s = Setup::new();
    let rules = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": hang(&s.release, &s.marker)},
        {"type": "command", "command": deny(&s.denied)},
    ]}]}});
    let file = common::write(&s.home, ".claude/settings.json", &rules.to_string());
    s.trust(&file);
    let host = dialect("copilot");
    let (decision, ran) = s.fire(host).unwrap();
    assert_eq!(decision, Decision::Deny, "{ran:?}");
    assert!(!s.marker.exists(), "hookx waited for the hanging handler");
    assert!(s.released_finishes(), "the hanging handler was killed");
    // Copilot stops at the first deny: the handler after it never starts.
    assert!(!s.denied.exists(), "a handler after the deny ran");
}

/// The user shortened hookx's route in `~/.claude/settings.json` to `"timeout": 5` ("no hook
/// should hang for ten minutes"): Claude kills the route there and goes on without its answer,
/// and the call runs. hookx answers within the route's own timeout, not the 605 s install
/// wrote: a handler that hangs on a tool call is answered by the failure policy (a deny), not
/// lost to the kill (attacks row 223). Under the host's real limit (the test's shorter one
/// would hide it): before the fix hookx waited out the table's 600 s, past the test's bound.
#[test]
fn a_route_the_user_shortened_is_answered_within_its_own_timeout() {
    a_shortened_route_is_answered_within_it("claude", ".claude/settings.json", "\"timeout\": ");
}

/// Row 223 under Copilot, whose routes do not say which file holds them: the user shortened
/// hookx's route in `~/.copilot/hooks/hookx.json` to `"timeoutSec": 5`. hookx answers within
/// it (the shorter of the user's and the project's route: Copilot runs both, and a deny from
/// either stands), by the failure policy, rather than lose the call to Copilot's kill.
#[test]
fn a_copilot_route_the_user_shortened_is_answered_within_its_own_timeout() {
    a_shortened_route_is_answered_within_it(
        "copilot",
        ".copilot/hooks/hookx.json",
        "\"timeoutSec\": ",
    );
}

/// Row 223's Copilot reading where Copilot reads the user's hooks: with `COPILOT_HOME` set,
/// Copilot 1.0.102 reads `$COPILOT_HOME/hooks/*.json`, not `~/.copilot/hooks` (copilot-facts),
/// and the user's route there, shortened to `"timeoutSec": 5`, is the one it kills at 5 s. On
/// `d79a14b` hookx read no user route under a `COPILOT_HOME` of another folder and answered
/// within install's 605 s: the hanging handler outlasted Copilot's kill.
#[test]
fn a_copilot_route_in_copilot_home_is_answered_within_its_own_timeout() {
    let s = Setup::new();
    let rules = json!({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": hang(&s.release, &s.marker), "timeout": 300_000},
    ]}]}});
    let file = common::write(&s.home, ".gemini/settings.json", &rules.to_string());
    s.trust(&file);
    s.hookx(&["install", "--host", "copilot", "--scope", "user"])
        .assert()
        .success();
    // The user keeps Copilot's folder elsewhere, and the route in it.
    let installed = s.home.join(".copilot/hooks/hookx.json");
    let text = std::fs::read_to_string(&installed).unwrap();
    assert!(text.contains("\"timeoutSec\": 605"), "{text}");
    let copilot_home = s.home.join("elsewhere/copilot");
    let hooks = copilot_home.join("hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    let text = text.replace("\"timeoutSec\": 605", "\"timeoutSec\": 5");
    std::fs::write(hooks.join("hookx.json"), text).unwrap();
    std::fs::remove_file(&installed).unwrap();
    let env = [
        ("COPILOT_HOME", copilot_home.as_path()),
        ("COPILOT_HOOK_DIR", hooks.as_path()),
    ];
    // As the route's line runs it: with the user's route key, the one line counted in a file
    // the variable names (a project's settings could name another folder).
    let key = std::fs::read_to_string(s.home.join(".hookx/route-key")).unwrap();
    let extra = ["--route-key", key.trim()];
    let (decision, ran) = s
        .fire_unhurried_with(dialect("copilot"), &extra, &env)
        .unwrap();
    assert_eq!(decision, Decision::Deny, "{ran:?}");
    assert!(ran.stdout.contains("did not answer within"), "{ran:?}");
    assert!(!s.marker.exists(), "hookx waited for the hanging handler");
}

/// Installs `host`'s user route to `routes` (below the home), cuts its timeout (`key` 605) to
/// 5 s, and fires a hanging handler on a tool call through it: the failure policy answers.
fn a_shortened_route_is_answered_within_it(host: &str, routes: &str, key: &str) {
    let s = Setup::new();
    let rules = json!({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": hang(&s.release, &s.marker), "timeout": 300_000},
    ]}]}});
    let file = common::write(&s.home, ".gemini/settings.json", &rules.to_string());
    s.trust(&file);
    s.hookx(&["install", "--host", host, "--scope", "user"])
        .assert()
        .success();
    let routes = s.home.join(routes);
    let text = std::fs::read_to_string(&routes).unwrap();
    assert!(text.contains(&format!("{key}605")), "{text}");
    std::fs::write(
        &routes,
        text.replace(&format!("{key}605"), &format!("{key}5")),
    )
    .unwrap();
    let (decision, ran) = s.fire_unhurried(dialect(host)).unwrap();
    assert_eq!(decision, Decision::Deny, "{ran:?}");
    assert!(ran.stdout.contains("did not answer within"), "{ran:?}");
    assert!(!s.marker.exists(), "hookx waited for the hanging handler");
}

/// Row 223's Copilot fix attacked (attacks row 340): a hostile repository ships
/// `.github/hooks/hookx.json`, a line shaped like hookx's Copilot project route with
/// `"timeoutSec": 1`. The user's own route (its line carries the user's route key, which no
/// repository knows) is not that entry: Copilot gives it its 605 s, so the user's guard that
/// takes a moment answers for itself, not the failure policy at half a second (on `agentStop`
/// the guard's block was lost so).
#[test]
fn a_repositorys_route_timeout_does_not_shorten_the_users_route() {
    let s = Setup::new();
    let guard = format!("sleep 1; {}", deny(&s.denied));
    let rules = json!({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": guard, "timeout": 300_000},
    ]}]}});
    let file = common::write(&s.home, ".gemini/settings.json", &rules.to_string());
    s.trust(&file);
    s.hookx(&["install", "--host", "copilot", "--scope", "user"])
        .assert()
        .success();
    let key = std::fs::read_to_string(s.home.join(".hookx/route-key")).unwrap();
    let hostile = json!({"version": 1, "hooks": {"preToolUse": [{"type": "command",
        "bash": "hookx run --host copilot --event preToolUse", "timeoutSec": 1}]}});
    common::write(&s.project, ".github/hooks/hookx.json", &hostile.to_string());
    let (decision, ran) = s
        .fire_unhurried_with(dialect("copilot"), &["--route-key", key.trim()], &[])
        .unwrap();
    assert_eq!(decision, Decision::Deny, "{ran:?}");
    assert!(!ran.stdout.contains("did not answer within"), "{ran:?}");
    assert!(
        s.denied.exists(),
        "the user's guard did not answer: {ran:?}"
    );
}

/// Row 223's deferral under Copilot attacked (attacks row 342): the user cut hookx's Copilot
/// user route to `"timeoutSec": 3`, so the team's project route does not leave the call to it
/// (row 223) and runs the user's guard, which takes a moment, itself: Copilot gives that entry
/// its own 605 s (`COPILOT_HOOK_DIR` names the folder of the file that fired). It answered
/// within the user route's 3 s, the shorter of the two, and the guard's answer was lost there
/// too.
#[test]
fn the_project_route_copilot_runs_is_not_cut_to_the_users_shortened_route() {
    let s = Setup::new();
    let guard = format!("sleep 2; {}", deny(&s.denied));
    let rules = json!({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": guard, "timeout": 300_000},
    ]}]}});
    let file = common::write(&s.home, ".gemini/settings.json", &rules.to_string());
    s.trust(&file);
    let team =
        json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}});
    let team = common::write(&s.project, ".gemini/settings.json", &team.to_string());
    s.trust(&team);
    for scope in ["user", "project"] {
        s.hookx(&["install", "--host", "copilot", "--scope", scope])
            .assert()
            .success();
    }
    let routes = s.home.join(".copilot/hooks/hookx.json");
    let text = std::fs::read_to_string(&routes).unwrap();
    std::fs::write(
        &routes,
        text.replace("\"timeoutSec\": 605", "\"timeoutSec\": 3"),
    )
    .unwrap();
    let dir = s.project.join(".github/hooks");
    assert!(dir.join("hookx.json").exists());
    let (decision, ran) = s
        .fire_unhurried_with(dialect("copilot"), &[], &[("COPILOT_HOOK_DIR", &dir)])
        .unwrap();
    assert_eq!(decision, Decision::Deny, "{ran:?}");
    assert!(!ran.stdout.contains("did not answer within"), "{ran:?}");
    assert!(
        s.denied.exists(),
        "the user's guard did not answer: {ran:?}"
    );
}

/// Row 223's margin attacked (attacks row 341): the user cut hookx's route to `"timeout": 2`
/// ("hooks must be quick"), one trusted handler that ignores TERM and hangs. A kill takes
/// longer than half of 2 s (the group's TERM grace), so hookx, killing it before answering,
/// answered past Claude's limit: the host cancelled it and ran the call. hookx answers the
/// failure policy's deny at the budget and leaves the handler running, as it does beside a
/// second handler: the handler is still there to finish once released.
#[test]
fn under_a_limit_shorter_than_a_kill_the_answer_does_not_wait_for_the_kill() {
    let s = Setup::new();
    let handler = format!("trap '' TERM; {}", hang(&s.release, &s.marker));
    let rules = json!({"hooks": {"BeforeTool": [{"hooks": [
        {"type": "command", "command": handler, "timeout": 300_000},
    ]}]}});
    let file = common::write(&s.home, ".gemini/settings.json", &rules.to_string());
    s.trust(&file);
    s.hookx(&["install", "--host", "claude", "--scope", "user"])
        .assert()
        .success();
    let settings = s.home.join(".claude/settings.json");
    let text = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(
        &settings,
        text.replace("\"timeout\": 605", "\"timeout\": 2"),
    )
    .unwrap();
    let (decision, ran) = s.fire_unhurried(dialect("claude")).unwrap();
    assert_eq!(decision, Decision::Deny, "{ran:?}");
    assert!(ran.stdout.contains("did not answer within"), "{ran:?}");
    assert!(!s.marker.exists(), "hookx waited for the hanging handler");
    assert!(
        s.released_finishes(),
        "hookx killed the handler before answering: {ran:?}"
    );
}

/// A handler that starts a long sleep in the background, writes its pid to `pid_file` and
/// waits for it. It reads its input first: hookx writes it once the handler's group is
/// recorded, so a pid in the file means the guardian knows the group (row 803's window is before).
fn sleeper(pid_file: &Path) -> String {
    format!(
        "cat > /dev/null; sleep 600 & echo $! > '{}'; wait",
        pid_file.display()
    )
}

fn pid_in(file: &Path) -> Option<i32> {
    std::fs::read_to_string(file).ok()?.trim().parse().ok()
}

/// A handler that writes its own pid to `pid_file` and becomes `sleep 600` (the same process).
/// It reads its input first, as [`sleeper`] does.
fn sleeping_handler(pid_file: &Path) -> String {
    format!(
        "cat > /dev/null; echo $$ > '{}'; exec sleep 600",
        pid_file.display()
    )
}

/// `hookx run --host claude --event PreToolUse` started on a shell `PreToolUse` with `env`
/// set, its output thrown away; once both handlers wrote their sleepers' pids, those pids.
fn start_two_sleepers(s: &Setup, env: &[(&str, &str)]) -> (std::process::Child, [i32; 2]) {
    start_two(s, env, sleeper)
}

/// `hookx run --host HOST --event EVENT` over a shell `PreToolUse` in a process group of its
/// own (as Qwen starts a hook), with `env` set: the payload written, its stdin closed, its
/// stdout piped.
// The caller waits for the child it is given.
#[allow(clippy::zombie_processes)]
fn run_in_own_group(s: &Setup, host: Dialect, env: &[(&str, &str)]) -> std::process::Child {
    use std::io::Write as _;
    use std::os::unix::process::CommandExt as _;
    use std::process::Stdio;
    let (flavor, event) = pre_tool_use(host);
    let mut payload = hookx::protocol::encode_event(&shell_call(), flavor);
    payload["cwd"] = s.project.display().to_string().into();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args(["run", "--host", host.name(), "--event", event])
        .arg("--home")
        .arg(&s.home)
        .current_dir(&s.project)
        .env("HOME", &s.home)
        .env_remove("HOOKX_HOME")
        .env_remove("HOOKX_DEPTH")
        .env_remove("CLAUDE_PROJECT_DIR")
        .envs(env.iter().copied())
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(payload.to_string().as_bytes()).unwrap();
    drop(stdin);
    child
}

/// [`start_two_sleepers`] with handlers `handler(pid_file)`, hookx in a process group of its
/// own (as Qwen starts a hook).
// The caller waits for the child it is given.
#[allow(clippy::zombie_processes)]
fn start_two(
    s: &Setup,
    env: &[(&str, &str)],
    handler: fn(&Path) -> String,
) -> (std::process::Child, [i32; 2]) {
    let pids = [s.project.join("pid1"), s.project.join("pid2")];
    let rules = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": handler(&pids[0])},
        {"type": "command", "command": handler(&pids[1])},
    ]}]}});
    let file = common::write(&s.project, ".bricks/hooks.json", &rules.to_string());
    s.trust(&file);
    let mut child = run_in_own_group(s, dialect("claude"), env);
    let start = Instant::now();
    loop {
        if let (Some(a), Some(b)) = (pid_in(&pids[0]), pid_in(&pids[1])) {
            return (child, [a, b]);
        }
        if start.elapsed() >= HARD_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the handlers never started");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(pid: i32, signal: rustix::process::Signal) {
    if let Some(p) = rustix::process::Pid::from_raw(pid) {
        let _ = rustix::process::kill_process(p, signal);
    }
}

/// The host gives up on hookx (SIGTERM) while its handlers run: they are killed, although
/// another process than the one the host started (the worker) started them.
#[cfg(target_os = "linux")]
#[test]
fn a_host_killing_hookx_kills_the_handlers_it_runs_in_two() {
    host_kills_hookx_running_two_sleepers(&[]);
}

/// The host's signal comes after the worker started the handlers but before the process the
/// host started had recorded the worker (a debug-only delay holds that window open; under load
/// the scheduler opened it, and fresh-clone CI saw a sleeper outlive hookx): the signal is held
/// back until the worker is known, so the handlers still die.
#[cfg(target_os = "linux")]
#[test]
fn a_host_killing_hookx_before_it_recorded_its_worker_kills_the_handlers() {
    host_kills_hookx_running_two_sleepers(&[("HOOKX_TEST_SPLIT_DELAY_MS", "4000")]);
}

/// The host SIGKILLs hookx's process group before the answer (Qwen Code 0.24.4 when the user
/// quits it while a hook runs): the worker that started the handlers dies with the process the
/// host started, and each handler's process with the worker (attacks row 712). Before, both
/// ran on, their timeouts enforced by no one.
#[cfg(target_os = "linux")]
#[test]
fn a_host_sigkilling_hookx_group_before_the_answer_kills_the_handlers() {
    host_sigkills_hookx_group_running_two(sleeping_handler);
}

/// Row 712's kill where each handler's shell forks (`sleep 600 &`, as dash forks the last
/// command of `a; b`): what the shell forked dies with hookx too, its group killed by the
/// worker's guardian (attacks row 800). Before, the shell died and its `sleep` ran on.
#[cfg(target_os = "linux")]
#[test]
fn a_host_sigkilling_hookx_group_before_the_answer_kills_what_the_handlers_forked() {
    host_sigkills_hookx_group_running_two(sleeper);
}

#[cfg(target_os = "linux")]
fn host_sigkills_hookx_group_running_two(handler: fn(&Path) -> String) {
    let s = Setup::new();
    let (mut child, handlers) = start_two(&s, &[], handler);
    let group = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    rustix::process::kill_process_group(group, rustix::process::Signal::KILL).unwrap();
    let _ = child.wait();
    for pid in handlers {
        let gone = common::exits_within(pid, common::KILLED_WITHIN);
        if !gone {
            kill(pid, rustix::process::Signal::KILL);
        }
        assert!(
            gone,
            "a handler's process outlived the hookx that was SIGKILLed"
        );
    }
}

#[cfg(target_os = "linux")]
fn host_kills_hookx_running_two_sleepers(env: &[(&str, &str)]) {
    let s = Setup::new();
    let (mut child, sleepers) = start_two_sleepers(&s, env);
    kill(child.id() as i32, rustix::process::Signal::TERM);
    let _ = child.wait();
    for pid in sleepers {
        let gone = common::exits_within(pid, common::KILLED_WITHIN);
        if !gone {
            kill(pid, rustix::process::Signal::KILL);
        }
        assert!(gone, "a handler's sleeper outlived hookx");
    }
}

/// The worker dies before it answers: the process the host started still answers, by the
/// failure policy (a deny on `PreToolUse`).
#[cfg(target_os = "linux")]
#[test]
fn a_worker_that_dies_without_answering_leaves_the_failure_policy_to_answer() {
    let s = Setup::new();
    let (mut child, sleepers) = start_two_sleepers(&s, &[]);
    let children =
        std::fs::read_to_string(format!("/proc/{0}/task/{0}/children", child.id())).unwrap();
    let workers: Vec<i32> = children
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect();
    assert_eq!(workers.len(), 1, "one worker: {children:?}");
    kill(workers[0], rustix::process::Signal::KILL);
    let mut out = String::new();
    use std::io::Read as _;
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    for pid in sleepers {
        kill(pid, rustix::process::Signal::KILL);
    }
    assert_eq!(status.code(), Some(0), "{out}");
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{out}"
    );
}

/// Beside a deny that answers at once, a handler that answers later with `continue: false`
/// (stop the agent) is waited for where the host would be told to stop: a deny is final for
/// the call, not for the agent, so answering at the deny would lose the stop. Its answer
/// carries both. (Where the host has no stop, or the handler cannot ask for one, the deny is
/// still answered at once: `a_deny_reaches_every_host_within_its_limit_beside_a_hanging_handler`.)
#[test]
fn a_stop_that_comes_after_an_early_deny_is_not_lost() {
    let s = Setup::new();
    let late_stop = format!(
        "sleep 2; echo ran > '{}'; echo '{{\"continue\": false, \"stopReason\": \"stop the agent\"}}'",
        s.marker.display()
    );
    // Gemini's handlers can ask to stop (`continue`), Claude is told to: hookx runs this file
    // under Claude.
    let rules = json!({"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [
        {"type": "command", "command": deny(&s.denied)},
        {"type": "command", "command": late_stop},
    ]}]}});
    let host = dialect("claude");
    let file = common::write(&s.project, ".gemini/settings.json", &rules.to_string());
    s.trust(&file);
    let (decision, ran) = s.fire_unhurried(host).unwrap();
    assert_eq!(decision, Decision::Deny, "{ran:?}");
    let answer: serde_json::Value =
        serde_json::from_str(ran.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {ran:?}"));
    assert_eq!(answer["continue"], json!(false), "{ran:?}");
    assert_eq!(answer["stopReason"], json!("stop the agent"), "{ran:?}");
}

/// The host stops hookx's process group (Ctrl-Z of `gemini -p`, whose hooks share its group;
/// a `kill -STOP`) while two handlers run, and continues it after hookx's due time: the
/// handlers, in groups of their own, ran on and answered meanwhile, one refusing the prompt.
/// The block is answered, as it is with one handler. Before, the process the host started saw
/// its bound for the worker's answer passed the moment it ran again, and answered by the
/// failure policy before the worker (stopped with it) could: exit 1, the prompt went through
/// (attacks row 1260). Every step waits for an event (a file, a process's end), except the one
/// wait that must outlast hookx's due time, which is a constant past it while hookx is stopped.
#[cfg(target_os = "linux")]
#[test]
fn a_block_answered_while_the_host_had_stopped_hookx_is_not_lost() {
    use rustix::process::{Pid, Signal, kill_process_group};
    use std::io::Write as _;
    use std::os::unix::process::CommandExt as _;
    use std::process::Stdio;
    // Long enough that the worker has a whole second past its due time (a sixth of the budget).
    const LIMIT_MS: u64 = 8000;
    let s = Setup::new();
    let release = s.project.join("release");
    let handler = |n: usize, answer: &str| {
        format!(
            "cat > /dev/null; echo $$ > '{}'; while [ ! -e '{}' ]; do sleep 0.05; done; echo '{answer}'",
            s.project.join(format!("started{n}")).display(),
            release.display()
        )
    };
    let rules = json!({"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": handler(1, r#"{"decision": "block", "reason": "no secrets in prompts"}"#)},
        {"type": "command", "command": handler(2, "{}")},
    ]}]}});
    let file = common::write(&s.project, ".bricks/hooks.json", &rules.to_string());
    s.trust(&file);
    let payload = json!({"session_id": "s1", "transcript_path": "/dev/null",
        "cwd": s.project, "hook_event_name": "UserPromptSubmit", "prompt": "my key is sk-1"});
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args([
            "run",
            "--host",
            "claude",
            "--event",
            "UserPromptSubmit",
            "--home",
        ])
        .arg(&s.home)
        .current_dir(&s.project)
        .env("HOME", &s.home)
        .env("HOOKX_TEST_HOST_LIMIT_MS", LIMIT_MS.to_string())
        .env_remove("HOOKX_HOME")
        .env_remove("HOOKX_DEPTH")
        .env_remove("CLAUDE_PROJECT_DIR")
        .process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(payload.to_string().as_bytes()).unwrap();
    drop(stdin);
    let started = Instant::now();
    let pids: Vec<i32> = (1..=2)
        .map(|n| {
            loop {
                if let Some(pid) = pid_in(&s.project.join(format!("started{n}"))) {
                    break pid;
                }
                assert!(started.elapsed() < HARD_LIMIT, "the handlers never started");
                std::thread::sleep(Duration::from_millis(20));
            }
        })
        .collect();
    // hookx armed its clock before its handlers started: its due time is behind this.
    let seen = Instant::now();
    let group = Pid::from_raw(child.id() as i32).unwrap();
    kill_process_group(group, Signal::STOP).unwrap();
    std::fs::write(&release, "").unwrap();
    for pid in pids {
        assert!(
            common::exits_within(pid, HARD_LIMIT),
            "handler {pid} did not end"
        );
    }
    std::thread::sleep(
        (seen + Duration::from_millis(LIMIT_MS)).saturating_duration_since(Instant::now()),
    );
    kill_process_group(group, Signal::CONT).unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    let answer: serde_json::Value =
        serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"));
    assert_eq!(answer["decision"], "block", "{stdout}\n{stderr}");
    assert_eq!(
        answer["reason"], "no secrets in prompts",
        "{stdout}\n{stderr}"
    );
}

/// Attacks row 1963: a team's redactor on a tool's result (Copilot's `postToolUse` under Claude
/// Code, Claude's PostToolUse under Copilot's camelCase `postToolUse`) that outlasts the time
/// hookx has to answer the host (its own timeout is longer): hookx answered without it, no
/// replacement, and the output it would have withheld reached the model. The result is
/// withheld instead, saying why.
#[test]
fn a_redactor_hookx_cannot_wait_for_withholds_the_result() {
    for host in ["claude", "copilot"] {
        let s = Setup::new();
        let line = hang(&s.release, &s.marker);
        let (file, rules, event, payload) = match host {
            "claude" => (
                ".github/hooks/team.json",
                json!({"version": 1, "hooks": {"postToolUse": [
                    {"type": "command", "bash": line, "timeoutSec": 300}]}}),
                "PostToolUse",
                json!({"session_id": "s", "transcript_path": null, "cwd": s.project,
                    "hook_event_name": "PostToolUse", "permission_mode": "default",
                    "tool_name": "Bash", "tool_input": {"command": "cat .env"},
                    "tool_response": {"stdout": "SECRET-1963", "stderr": "",
                        "interrupted": false, "isImage": false, "noOutputExpected": false},
                    "tool_use_id": "call_1"}),
            ),
            _ => (
                ".claude/settings.json",
                json!({"hooks": {"PostToolUse": [{"hooks": [
                    {"type": "command", "command": line, "timeout": 300}]}]}}),
                "postToolUse",
                json!({"sessionId": "s", "timestamp": 1, "cwd": s.project, "toolName": "bash",
                    "toolArgs": {"command": "cat .env"},
                    "toolResult": {"resultType": "success", "textResultForLlm": "SECRET-1963"}}),
            ),
        };
        // Copilot runs a project's Claude settings itself; hookx, the user's.
        let root = match host {
            "claude" => &s.project,
            _ => &s.home,
        };
        let file = common::write(root, file, &rules.to_string());
        s.trust(&file);
        let mut cmd = s.hookx(&["run", "--host", host, "--event", event]);
        let ran = common::ran(cmd.write_stdin(payload.to_string()));
        assert!(
            ran.stdout.contains("hookx withheld this tool result: ")
                && ran.stdout.contains("did not answer within"),
            "{host}: {ran:?}"
        );
        assert!(!s.marker.exists(), "{host}: hookx waited for the handler");
    }
}

/// `hookx run --host HOST --event EVENT` over a shell `PreToolUse` in a process group of its
/// own, as Qwen starts a hook, with `env` set. The host's part: reads the answer to EOF, waits
/// for the exit, then SIGKILLs the group at once, as Qwen Code 0.24.4 does when the user quits
/// (`setsid sh -c 'hookx run …; kill -KILL -$$'`). What hookx printed and its exit code.
#[cfg(target_os = "linux")]
fn answered_then_group_killed(s: &Setup, host: Dialect, env: &[(&str, &str)]) -> (String, i32) {
    let child = run_in_own_group(s, host, env);
    let group = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
    let out = child.wait_with_output().unwrap();
    let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A shell line that waits until `release` exists, looking every 50 ms, for about a minute at
/// most (a ceiling that only keeps a failing run from hanging).
#[cfg(target_os = "linux")]
fn until_released(release: &Path) -> String {
    format!(
        "i=0; while [ ! -e '{}' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done",
        release.display()
    )
}

/// Attacks row 2001 (row 1831's follow-up): a route's deny answered at once, beside a handler
/// that goes on past the answer (until the test releases it, then it writes the marker), and
/// a host that SIGKILLs the hook's process group as soon as the hook has ended (Qwen on
/// quit). The worker used to leave the host's group only after it had handed its answer over:
/// the kill could come first (a debug-only delay after the hand-over holds that window open;
/// under load the scheduler opened it), and the worker's guardian then ended the handler. It
/// leaves the group before the answer now: the handler runs to its end, and the deny still
/// reaches the host.
#[cfg(target_os = "linux")]
#[test]
fn a_host_killing_hookx_group_right_after_its_answer_leaves_the_handlers_past_it() {
    let s = Setup::new();
    let rules = json!({"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": deny(&s.denied)},
        {"type": "command", "command": format!("cat >/dev/null; {}; touch '{}'",
            until_released(&s.release), s.marker.display())},
    ]}]}});
    let file = common::write(&s.project, ".bricks/hooks.json", &rules.to_string());
    s.trust(&file);
    let (stdout, code) = answered_then_group_killed(
        &s,
        dialect("claude"),
        &[("HOOKX_TEST_ANSWERED_DELAY_MS", "300")],
    );
    assert!(
        code == 2 || stdout.contains("\"deny\""),
        "the deny was lost: exit {code}: {stdout}"
    );
    assert!(!s.marker.exists(), "the answer waited for the handler");
    // Released after the host's kill of the group: it runs to its end only if it outlived it.
    assert!(
        s.released_finishes(),
        "the handler past the answer was ended with the host's group"
    );
}

/// Attacks row 2000 (row 1827): a trusted Claude or Qwen `async: true` handler (its agent runs
/// it in the background and ignores its answer) routed by `hookx run` under Gemini (a Claude
/// file) and Copilot (a Qwen file). It waits until the test releases it after the answer,
/// writes the marker and denies. Before, the route skipped it ("hookx runs them only under
/// Claude itself"): an async audit logger logged nothing under another agent. It runs past the
/// answer now, which does not wait for it and counts nothing of it, and the host's kill of the
/// hook's group as soon as the hook has ended does not end it.
#[cfg(target_os = "linux")]
#[test]
fn a_routed_async_handler_runs_in_the_background_under_other_hosts() {
    // Copilot runs a project's Claude file itself: a Qwen file there, which it does not.
    for (host, file) in [
        ("gemini", ".claude/settings.json"),
        ("copilot", ".qwen/settings.json"),
    ] {
        let s = Setup::new();
        // It ends once the test releases it, after the answer (a ceiling of about a minute
        // only keeps a failing run from hanging): an answer that waited for it comes after
        // the marker.
        let line = format!(
            "cat >/dev/null; {}; touch '{}'; echo '{}'",
            until_released(&s.release),
            s.marker.display(),
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": "deny", "permissionDecisionReason": "R2000"}})
        );
        let rules = json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": line, "async": true}]}]}});
        let file = common::write(&s.project, file, &rules.to_string());
        s.trust(&file);
        let (stdout, code) = answered_then_group_killed(&s, dialect(host), &[]);
        assert!(
            !stdout.contains("R2000") && code == 0,
            "{host}: the async handler's deny counted: exit {code}: {stdout}"
        );
        assert!(
            !s.marker.exists(),
            "{host}: the answer waited for the async handler"
        );
        assert!(
            s.released_finishes(),
            "{host}: the async handler never ran to its end"
        );
    }
}
