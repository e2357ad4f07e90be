//! Helpers shared by the integration tests (`mod common;` in each test file that needs them).
//! Each test file is its own crate and uses only some of them.
#![allow(dead_code)]

pub mod roundtrip;

use assert_cmd::Command;
use hookx::tables::Dialect;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The real `hookx` binary, killed (and the test failed) after a minute.
pub fn hookx() -> Command {
    let mut cmd = Command::cargo_bin("hookx").expect("the hookx binary");
    cmd.timeout(Duration::from_secs(60));
    cmd
}

/// Insta settings for snapshots in `snapshots/<folder>/` (a suite's folder, then per source and
/// target where it has them: `convert/claude/to_copilot`), named without the module.
pub fn snapshots(folder: &str) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new("../snapshots").join(folder));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}

/// `tests/fixtures`, as an absolute path.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Every fixture of a dialect folder (`.json` and `.md`), as paths relative to the crate root.
pub fn fixtures(folder: &str) -> Vec<String> {
    let dir = Path::new("tests/fixtures").join(folder);
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("json" | "md")))
        .map(|p| p.to_str().expect("UTF-8 path").to_string())
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no fixtures in {}", dir.display());
    found
}

/// Every fixture of a registered dialect, found by its name in `tests/fixtures/<name>/`: its
/// config files (`.json`, `.md`), or for a dialect whose hooks are one script per event
/// ([`hookx::config::spec::ScriptLayout`]) each hook folder there. Paths are relative to the
/// crate root. A registered dialect without fixtures fails here, saying what to add.
pub fn dialect_fixtures(dialect: Dialect) -> Vec<String> {
    let dir = Path::new("tests/fixtures").join(dialect.name());
    assert!(
        dir.is_dir(),
        "{dialect} is registered (src/dialect/mod.rs) but has no fixture folder {}: add one with \
         at least one of its hook files (see README, \"Adding a dialect\")",
        dir.display()
    );
    if dialect.config().scripts.is_none() {
        return fixtures(dialect.name());
    }
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_dir())
        .map(|p| p.to_str().expect("UTF-8 path").to_string())
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no hook folders in {}", dir.display());
    found
}

/// A file name without its directory and extension.
pub fn stem(path: &str) -> &str {
    Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("file stem")
}

/// Copies the directory `from` into `to`, recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    copy_tree_at(from, to, to);
}

/// Copies like [`copy_tree`], writing `{{root}}` in `.json` files as `root`'s path: agent
/// registries (Claude's `installed_plugins.json`) record absolute paths.
fn copy_tree_at(from: &Path, to: &Path, root: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree_at(&entry.path(), &target, root);
        } else if target.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let text = text.replace("{{root}}", &root.display().to_string());
            std::fs::write(target, text).unwrap();
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Writes `text` to `root/rel`, creating the directories on the way.
pub fn write(root: &Path, rel: &str, text: &str) -> PathBuf {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// `hookx ARGS… --project PROJECT --home HOME`, with `HOME` pointing at `home` too and no
/// `HOOKX_HOME`, so that nothing touches the real home.
pub fn hookx_at(project: &Path, home: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("hookx")
        .unwrap()
        .args(args)
        .arg("--project")
        .arg(project)
        .arg("--home")
        .arg(home)
        .env("HOME", home)
        .env_remove("HOOKX_HOME")
        .assert()
}

/// Waits for process `pid` (any process, not only a child) to exit, woken by the kernel
/// through a pidfd, for at most `bound`: an event, not a guess at how long the machine takes.
/// `bound` only limits how long a failing test takes.
#[cfg(target_os = "linux")]
pub fn exits_within(pid: i32, bound: Duration) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let Some(pid) = rustix::process::Pid::from_raw(pid) else {
        return true;
    };
    let pidfd = match rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()) {
        Ok(fd) => fd,
        // No such process: it is gone already.
        Err(_) => return true,
    };
    let start = std::time::Instant::now();
    loop {
        let left = bound.saturating_sub(start.elapsed());
        if left.is_zero() {
            return false;
        }
        let mut fds = [PollFd::new(&pidfd, PollFlags::IN)];
        let timeout = Timespec::try_from(left).ok();
        if poll(&mut fds, timeout.as_ref()).unwrap_or(0) > 0 {
            return true;
        }
    }
}

/// What one run of the real binary gave: its exit code and output, shown cut short on failure.
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl std::fmt::Debug for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cut = |s: &str| s.chars().take(3000).collect::<String>();
        write!(
            f,
            "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.code,
            cut(&self.stdout),
            cut(&self.stderr)
        )
    }
}

/// Runs `cmd` to its end.
pub fn ran(cmd: &mut Command) -> Ran {
    let out = cmd.output().expect("hookx runs");
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The real binary in `dir` with no agent or hookx variable inherited from whoever runs the
/// tests, killed (and the test failed) after two minutes.
pub fn hookx_clean(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("hookx").expect("the hookx binary");
    for var in [
        "CLAUDE_PROJECT_DIR",
        "COPILOT_CLI",
        "BRICKS_PROJECT_DIR",
        "BRICKS_SESSION_ID",
        "BRICKS_HOOK_EVENT",
        "HOOKX_DEPTH",
        "HOOKX_HOME",
        "HOOKX_TEST_PANIC",
    ] {
        cmd.env_remove(var);
    }
    cmd.current_dir(dir).timeout(Duration::from_secs(120));
    cmd
}
