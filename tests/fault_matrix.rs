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

use hookx::model::Decision;
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
