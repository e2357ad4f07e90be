//! The live suites' harness (tests/live_common/harness.rs), through a real live suite's test
//! binary: with its client missing, every test shows as ignored and says why, not as passed;
//! under `HOOKX_LIVE=require` the suite fails instead; with the client there, it names the
//! version it runs against. A long test says what it waits for, in a plain run. `cargo test`
//! builds every test binary before it runs any, so the suite's binary is beside this one.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The newest `live_cline` test binary beside this one (`target/debug/deps`).
fn live_suite() -> PathBuf {
    test_binary("live_cline")
}

/// The newest test binary of target `name` beside this one (`target/debug/deps`).
fn test_binary(name: &str) -> PathBuf {
    let me = std::env::current_exe().unwrap();
    let deps = me.parent().unwrap();
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = std::fs::read_dir(deps)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(&format!("{name}-")) && !n.contains('.'))
        })
        .filter_map(|p| Some((p.metadata().ok()?.modified().ok()?, p)))
        .collect();
    found.sort();
    match found.pop() {
        Some((_, path)) => path,
        None => panic!(
            "no {name} test binary in {}: this test runs it; `cargo test` (or `cargo test \
             --no-run --test {name}`) builds it",
            deps.display()
        ),
    }
}

struct Ran {
    code: Option<i32>,
    stdout: String,
}

/// The suite, its clients looked for in `clients`, only its tests named `filter`.
fn run(clients: &Path, require: bool, filter: &str) -> Ran {
    let mut cmd = Command::new(live_suite());
    cmd.arg(filter)
        .env("HOOKX_CLIENTS", clients)
        .env_remove("HOOKX_LIVE");
    if require {
        cmd.env("HOOKX_LIVE", "require");
    }
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // A bound against a hang, never reached by a passing run: nothing here runs a client.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while child.try_wait().unwrap().is_none() {
        assert!(std::time::Instant::now() < deadline, "the live suite hung");
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
    }
}

#[test]
fn a_live_suite_without_its_client_is_ignored_and_says_why() {
    let empty = tempfile::tempdir().unwrap();
    let ran = run(empty.path(), false, "");
    assert_eq!(ran.code, Some(0), "{}", ran.stdout);
    assert!(
        ran.stdout
            .contains("live_cline: every test ignored: Cline CLI is not installed at"),
        "{}",
        ran.stdout
    );
    // Every test of the suite (however many it has) is ignored, none passed.
    let tests: Vec<&str> = ran
        .stdout
        .lines()
        .filter(|l| l.starts_with("test ") && l.contains(" ... "))
        .collect();
    assert!(!tests.is_empty(), "{}", ran.stdout);
    assert!(ran.stdout.contains("0 passed"), "{}", ran.stdout);
    assert!(
        ran.stdout.contains(&format!("{} ignored", tests.len())),
        "{}",
        ran.stdout
    );
    assert!(
        tests
            .iter()
            .all(|l| l.starts_with("test [no client] ") && l.ends_with(" ... ignored")),
        "{}",
        ran.stdout
    );

    // Required, a missing client fails the suite.
    let required = run(empty.path(), true, "");
    assert_ne!(required.code, Some(0), "{}", required.stdout);
    assert!(
        required.stdout.contains(&format!("{} failed", tests.len())),
        "{}",
        required.stdout
    );
}

#[test]
fn a_live_suite_names_the_client_version_it_runs_against() {
    // A stand-in client: the harness reads the version of the package that holds it.
    let clients = tempfile::tempdir().unwrap();
    let package = clients
        .path()
        .join("cline-3.0.65/node_modules/@cline/cli-linux-x64");
    std::fs::create_dir_all(package.join("bin")).unwrap();
    std::fs::write(package.join("bin/cline"), "#!/bin/sh\nexit 1\n").unwrap();
    std::fs::write(package.join("package.json"), r#"{"version": "3.0.65"}"#).unwrap();
    // No test selected: the stand-in is never run.
    let ran = run(clients.path(), false, "no test has this name");
    assert_eq!(ran.code, Some(0), "{}", ran.stdout);
    assert!(
        ran.stdout
            .contains("live_cline: runs against Cline CLI 3.0.65 ("),
        "{}",
        ran.stdout
    );
}

/// A long test says what it waits for in a plain run (no `--nocapture`), beside libtest's own
/// "running for over 60 seconds", which names only the test: here the replay of Kiro's six
/// documented payloads, the smallest of `tests/replay.rs`.
#[test]
fn a_long_test_says_what_it_waits_for() {
    let out = Command::new(test_binary("replay"))
        .args(["--exact", "kiro_payloads_run_through_hookx_run_and_exec"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("1 passed"), "{stdout}");
    assert!(
        stderr.contains("replay: kiro: waiting for ")
            && stderr.contains(" kiro payloads, each through `hookx run`"),
        "{stderr}"
    );
}
