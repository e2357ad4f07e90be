//! The repository's `.pre-commit-hooks.yaml`, run by the real pre-commit
//! (`pip install pre-commit`) in a scratch git project that `hookx sync` generated, with the
//! `.pre-commit-config.yaml` the README gives (this repository, its commit `HEAD`):
//! `hookx-sync-check` passes while the generated files are what sync writes, and fails, with the
//! diff, once the source changes. pre-commit builds hookx from this repository with `cargo
//! install` (`language: rust`, which needs the crates.io index), so the first run at a commit
//! takes a release build; pre-commit's store in `target/pre-commit` keeps it for the next. It
//! runs the committed `HEAD`, not uncommitted changes. Without pre-commit on `PATH` (or
//! `$HOOKX_PRE_COMMIT`), every test is ignored and says so; `HOOKX_LIVE=require` fails instead.
//! It is not named `live_*`: the live suites run their clients sealed off the network
//! (tests/live_sealed.rs), and this one cannot be, since pre-commit's `cargo install` reads the
//! crates.io index.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The pre-commit program: `$HOOKX_PRE_COMMIT`, else `pre-commit` on `PATH`.
fn pre_commit() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("HOOKX_PRE_COMMIT") {
        return Some(PathBuf::from(path)).filter(|p| p.is_file());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join("pre-commit"))
        .find(|p| p.is_file())
}

/// Where pre-commit keeps its environments and cargo its build, across runs.
fn cache() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("pre-commit")
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

/// `pre-commit run --all-files` in `dir`, whose config names this repository at `HEAD`.
fn run_hooks(dir: &Path) -> Output {
    let cache = cache();
    Command::new(pre_commit().expect("pre-commit (pip install pre-commit)"))
        .args(["run", "--all-files", "--verbose", "--color", "never"])
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", cache.join("home"))
        .env("CARGO_TARGET_DIR", cache.join("target"))
        .output()
        .unwrap()
}

/// The README's `.pre-commit-config.yaml`, naming this repository at its `HEAD`.
fn config() -> String {
    let repo = env!("CARGO_MANIFEST_DIR");
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(repo)
        .output()
        .unwrap();
    assert!(head.status.success(), "{head:?}");
    let rev = String::from_utf8(head.stdout).unwrap();
    format!(
        "repos:\n  - repo: {repo}\n    rev: {}\n    hooks:\n      - id: hookx-sync-check\n",
        rev.trim()
    )
}

fn hookx(dir: &Path, home: &Path, args: &[&str]) {
    common::hookx_at(dir, home, args).success();
}

fn hookx_sync_check_passes_while_synced_and_fails_with_the_diff_when_stale() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("project");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let example = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/claude/settings.json"),
    )
    .unwrap();
    common::write(&dir, ".claude/settings.json", &example);
    common::write(&dir, ".pre-commit-config.yaml", &config());
    git(&dir, &["init", "-q"]);
    hookx(
        &dir,
        &home,
        &["sync", "--init", "--to", "copilot,gemini,codex"],
    );
    hookx(&dir, &home, &["sync"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-qm", "hooks: one source, three agents"]);

    let out = run_hooks(&dir);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("hookx sync --check") && l.ends_with("Passed")),
        "{text}"
    );

    // The source changes and is committed without a sync: the check fails with the diff.
    let edited = example.replace("\"PreToolUse\": [", "\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo added-rule\"}]},");
    assert_ne!(edited, example, "the example has no PreToolUse list");
    common::write(&dir, ".claude/settings.json", &edited);
    git(&dir, &["commit", "-qam", "a rule, not synced"]);
    let out = run_hooks(&dir);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("hookx sync --check") && l.ends_with("Failed")),
        "{text}"
    );
    assert!(text.contains("--- a/.codex/hooks.json"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with('+') && l.contains("added-rule")),
        "{text}"
    );
}

fn main() -> std::process::ExitCode {
    harness::main(
        "precommit_hook",
        &[harness::Need::Condition {
            what: "pre-commit on PATH or at $HOOKX_PRE_COMMIT (pip install pre-commit)",
            met: pre_commit().is_some(),
        }],
        live_tests![hookx_sync_check_passes_while_synced_and_fails_with_the_diff_when_stale],
    )
}
