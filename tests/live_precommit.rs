//! The repository's `.pre-commit-hooks.yaml`, run by the real pre-commit
//! (`pip install pre-commit`) with `pre-commit try-repo` against a scratch git project that
//! `hookx sync` generated: `hookx-sync-check` passes while the generated files are what sync
//! writes, and fails, with the diff, once the source changes. pre-commit builds hookx from this
//! repository with `cargo install` (`language: rust`), so the first run takes a release build;
//! the environment is kept in `target/pre-commit` for the next. Without pre-commit on `PATH`
//! (or `$HOOKX_PRE_COMMIT`), every test is ignored and says so; `HOOKX_LIVE=require` fails
//! instead.

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

/// `pre-commit try-repo` of this repository's `hookx-sync-check` over every file of `dir`.
fn try_repo(dir: &Path) -> Output {
    let cache = cache();
    Command::new(pre_commit().expect("pre-commit (pip install pre-commit)"))
        .args(["try-repo", env!("CARGO_MANIFEST_DIR"), "hookx-sync-check"])
        .args(["--all-files", "--verbose", "--color", "never"])
        .current_dir(dir)
        .env("PRE_COMMIT_HOME", cache.join("home"))
        .env("CARGO_TARGET_DIR", cache.join("target"))
        .output()
        .unwrap()
}

fn hookx(dir: &Path, home: &Path, args: &[&str]) {
    common::hookx_at(dir, home, args).success();
}

fn try_repo_passes_while_synced_and_fails_with_the_diff_when_stale() {
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
    git(&dir, &["init", "-q"]);
    hookx(
        &dir,
        &home,
        &["sync", "--init", "--to", "copilot,gemini,codex"],
    );
    hookx(&dir, &home, &["sync"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-qm", "hooks: one source, three agents"]);

    let out = try_repo(&dir);
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
    let out = try_repo(&dir);
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
        "live_precommit",
        &[harness::Need::Condition {
            what: "pre-commit on PATH or at $HOOKX_PRE_COMMIT (pip install pre-commit)",
            met: pre_commit().is_some(),
        }],
        live_tests![try_repo_passes_while_synced_and_fails_with_the_diff_when_stale],
    )
}
