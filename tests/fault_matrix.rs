//! Faulty handlers beside a deny, under every host, through the real binary: a handler that
//! hangs, one that is slow, one that crashes, one that floods stderr with megabytes and one
//! whose answer is over the output cap ([`hookx::spawn::OUTPUT_CAP`]). Whatever it does, the
//! deny reaches the host within the host's time limit, both where `hookx run` runs the two
//! handlers (the faulty one first, so that a host running handlers one by one meets it before
//! the deny) and where the host runs each through its own wrapped entry (`hookx exec`, as
//! `convert` writes them: the faulty entry answers within its limit, then the deny's denies).
//!
//! Limits are shortened for the tests (`HOOKX_TEST_HOST_LIMIT_MS`, debug builds only); every
//! run is bounded by a hard limit far above it, and a hanging handler would outlast that.
#![cfg(unix)]

mod common;
#[path = "common/host_limit.rs"]
mod host_limit;

use hookx::model::{Decision, Event};
use hookx::tables::Dialect;
use host_limit::*;
use serde_json::json;

/// The faults: a name and the handler's command line, given the test's setup.
fn faults(s: &Setup) -> Vec<(&'static str, String)> {
    vec![
        ("hanging", hang(&s.release, &s.marker)),
        ("slow", "sleep 1; echo '{}'".to_string()),
        ("crashing", "kill -SEGV $$".to_string()),
        (
            "noisy",
            "head -c 8000000 /dev/zero | tr '\\0' x >&2; exit 0".to_string(),
        ),
        (
            "oversized",
            format!(
                "head -c {} /dev/zero | tr '\\0' ' '; echo '{{}}'",
                hookx::spawn::OUTPUT_CAP + 1024 * 1024
            ),
        ),
    ]
}

/// The handlers' own timeout: far past the host's limit in the tests.
const OWN_TIMEOUT: u64 = 300;

fn through_run(host: Dialect) -> Vec<String> {
    let mut wrong = Vec::new();
    let s = Setup::new();
    for (name, fault) in faults(&s) {
        let rules = json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": fault, "timeout": OWN_TIMEOUT},
            {"type": "command", "command": deny(&s.denied), "timeout": OWN_TIMEOUT},
        ]}]}});
        let file = common::write(&s.project, foreign_file(host), &rules.to_string());
        s.trust(&file);
        match s.fire(host) {
            Ok((Decision::Deny, _)) => {}
            Ok((_, ran)) => wrong.push(format!("{host} run, {name}: not a deny: {ran:?}")),
            Err(e) => wrong.push(format!("{host} run, {name}: {e}")),
        }
    }
    wrong
}

fn through_exec(host: Dialect) -> Vec<String> {
    let mut wrong = Vec::new();
    let s = Setup::new();
    for (name, fault) in faults(&s) {
        if let Err(e) = s.fire_exec(host, "bricks", OWN_TIMEOUT, &fault) {
            wrong.push(format!("{host} exec, {name}: {e}"));
            continue;
        }
        match s.fire_exec_unhurried(host, "bricks", OWN_TIMEOUT, &deny(&s.denied)) {
            Ok((Decision::Deny, _)) => {}
            Ok((_, ran)) => wrong.push(format!("{host} exec, {name}: not a deny: {ran:?}")),
            Err(e) => wrong.push(format!("{host} exec, {name}: {e}")),
        }
    }
    wrong
}

#[test]
fn a_deny_beside_a_faulty_handler_reaches_every_host_in_time() {
    let wrong: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = Dialect::all()
            .iter()
            .flat_map(|&host| {
                [
                    scope.spawn(move || through_run(host)),
                    scope.spawn(move || through_exec(host)),
                ]
            })
            .collect();
        runs.into_iter()
            .flat_map(|run| run.join().unwrap())
            .collect()
    });
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// The answer of the failure policy (exit 1, a non-blocking error on these events) that the
/// process the host started gives at its own bound, before the host's limit, where a loaded
/// machine kept hookx's worker past its due time (attacks row 2367). A hookx that waited for
/// the hanging handler would be killed at [`HARD_LIMIT`] instead.
fn answered_at_the_bound(ran: &common::Ran) -> bool {
    ran.code == Some(1)
        && ran
            .stderr
            .contains("the handlers' run ended before it answered")
}

/// Whether `file` appears before [`HARD_LIMIT`]: a logger beside a hanging handler may end
/// after the host has its answer.
fn appears(file: &std::path::Path) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < HARD_LIMIT {
        if file.exists() {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    false
}

/// Attacks row 2333: the matrix above fires `PreToolUse` under a shortened limit
/// (`HOOKX_TEST_HOST_LIMIT_MS`), which hides a host's limit for one event's hooks (Codex's
/// SessionEnd and Interrupt, 1 s by default: `RouteLimit::on`; Claude's SessionEnd hooks, 1.5 s
/// in all: `hook_budget`). On every such event of every host, under the real limit: a wrapped
/// entry that hangs (no timeout of its own) is answered for, exit 0, its handler cut and read
/// as timed out; and where another agent's file names the event, the route runs a handler that
/// hangs beside a logger and answers, the logger having logged. hookx answering at the entry's
/// own default (600 s) would outlast [`HARD_LIMIT`].
#[test]
fn a_hanging_handler_on_an_event_with_a_limit_of_its_own_is_answered_for() {
    let mut wrong = Vec::new();
    let mut fired = Vec::new();
    for &host in Dialect::all() {
        for (kind, event, flavor) in host.own_events() {
            let own_limit = host.def().route.limit.event(&kind).is_some()
                || flavor.tables().protocol.hook_budget(&kind).is_some();
            if !own_limit {
                continue;
            }
            let s = Setup::new();
            let mut payload = hookx::protocol::encode_event(&Event::bare(kind.clone()), flavor);
            payload["cwd"] = json!(s.project.display().to_string());
            payload["session_id"] = json!("s-2333");
            let hanging = hang(&s.release, &s.marker);
            let exec = common::ran(
                s.hookx(&[
                    "exec",
                    "--host",
                    host.name(),
                    "--as",
                    "bricks",
                    "--event",
                    event,
                    "--",
                    &hanging,
                ])
                .env_remove("HOOKX_TEST_HOST_LIMIT_MS")
                .write_stdin(payload.to_string()),
            );
            let cut = exec.code == Some(0) && exec.stderr.contains("hook timed out");
            if !cut && !answered_at_the_bound(&exec) {
                wrong.push(format!("{host} exec on {event}: {exec:?}"));
            }
            // The route: a file of another agent that names the event, run by hookx.
            let other = ["claude", "gemini"]
                .into_iter()
                .map(dialect)
                .filter(|d| *d != host)
                .find_map(|d| {
                    let mut name = d.default_flavor().tables().events.iter();
                    let name = name.find(|(k, _)| *k == kind).map(|(_, n)| *n)?;
                    Some((d, name))
                });
            if let Some((other, name)) = other {
                let logged = s.project.join("logged");
                let rules = json!({"hooks": {name: [{"hooks": [
                    {"type": "command", "command": hanging},
                    {"type": "command", "command": format!("echo logged > '{}'", logged.display())},
                ]}]}});
                let file = match other.name() {
                    "claude" => ".claude/settings.json",
                    _ => ".gemini/settings.json",
                };
                let file = common::write(&s.project, file, &rules.to_string());
                s.trust(&file);
                let run = common::ran(
                    s.hookx(&["run", "--host", host.name(), "--event", event])
                        .env_remove("HOOKX_TEST_HOST_LIMIT_MS")
                        .write_stdin(payload.to_string()),
                );
                if (run.code != Some(0) && !answered_at_the_bound(&run)) || !appears(&logged) {
                    wrong.push(format!(
                        "{host} run of {other}'s {name} on {event}: logged {}, {run:?}",
                        logged.exists()
                    ));
                }
            }
            fired.push(format!("{host} {event}"));
            std::fs::write(&s.release, "").unwrap();
        }
    }
    assert!(
        fired.iter().any(|f| f == "codex SessionEnd")
            && fired.iter().any(|f| f == "codex Interrupt"),
        "the hosts' own limits were not all fired: {fired:?}"
    );
    eprintln!("fired: {fired:?}");
    assert!(
        wrong.is_empty(),
        "{}\n\nfired: {fired:?}",
        wrong.join("\n\n")
    );
}
