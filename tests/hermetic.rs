//! No test touches the developer's real home. `hookx run` and `exec` take their home from the
//! user's account (`getpwuid`), not from `HOME`, and a command a test runs without `HOME` of
//! its own inherits the developer's: either way a test would read their `~/.codex/config.toml`,
//! `~/.gitconfig` or `~/.hookx`, write there, and share that state with every other test run on
//! the machine. cargo runs every test binary through `tests/hermetic/runner.sh`
//! (`.cargo/config.toml`): the binary's user has a private, empty home, named by both `HOME`
//! and the account database, and the binary fails, naming the files, if anything was written
//! there. These tests show both halves, with the real binary: the home is private in this
//! binary, and a run on the account's home (or one that inherits `HOME`) fails the binary it
//! ran in, while the same run with a home of its own passes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn account_home() -> PathBuf {
    hookx::ownership::account_home().expect("this user has an account entry")
}

fn needs_root() {
    assert!(
        rustix::process::geteuid().is_root(),
        "the hermetic runner needs root (a mount namespace): without it test binaries run on \
         the account's real home"
    );
}

/// The mount points of this process's mount namespace (`/proc/self/mountinfo`, field 5).
fn mount_points() -> Vec<PathBuf> {
    std::fs::read_to_string("/proc/self/mountinfo")
        .unwrap()
        .lines()
        .filter_map(|l| l.split(' ').nth(4).map(PathBuf::from))
        .collect()
}

fn runner() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hermetic/runner.sh")
}

#[test]
fn this_test_binary_has_a_private_home_named_by_home_and_the_account() {
    needs_root();
    let home = account_home();
    assert!(
        mount_points().contains(&PathBuf::from("/etc/passwd")),
        "the account database is not the runner's in this test binary: run the tests through \
         cargo, whose runner (.cargo/config.toml, tests/hermetic/runner.sh) gives it one"
    );
    assert_eq!(
        std::env::var_os("HOME").map(PathBuf::from),
        Some(home.clone()),
        "HOME and the account's home differ"
    );
    let name = home.parent().and_then(Path::file_name).unwrap();
    assert!(
        name.to_string_lossy().starts_with("hookx-hermetic."),
        "{} is not the runner's private home",
        home.display()
    );
}

/// A "test binary" (a script in a `deps` folder, as cargo's are) run by the runner, as if the
/// account's home were `real` and `HOME` named it too (a developer's home, with a Codex setting
/// that would move projects): it finds neither, but one private, empty home named by both.
#[test]
fn the_runner_hides_the_accounts_real_home_and_its_home_variable() {
    needs_root();
    let tmp = tempfile::tempdir().unwrap();
    let real = tmp.path().join("real");
    std::fs::create_dir_all(real.join(".codex")).unwrap();
    std::fs::write(
        real.join(".codex/config.toml"),
        "project_root_markers = []\n",
    )
    .unwrap();
    let passwd: String = std::fs::read_to_string("/etc/passwd")
        .unwrap()
        .lines()
        .map(|l| {
            let mut f: Vec<&str> = l.split(':').collect();
            if f.len() >= 7 && f[2] == "0" {
                f[5] = real.to_str().unwrap();
            }
            f.join(":") + "\n"
        })
        .collect();
    std::fs::write(tmp.path().join("passwd"), passwd).unwrap();
    let deps = tmp.path().join("deps");
    std::fs::create_dir_all(&deps).unwrap();
    let probe = script(
        &deps,
        "#!/bin/sh\necho \"home=$HOME\"; echo \"account=$(getent passwd 0 | cut -d: -f6)\"; \
         ls -A \"$HOME\"\n",
    );
    let out = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "--", "sh", "-c"])
        .arg("mount --bind \"$0\" /etc/passwd && exec \"$@\"")
        .arg(tmp.path().join("passwd"))
        .arg(runner())
        .arg(&probe)
        .env("HOME", &real)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let home = said.lines().find_map(|l| l.strip_prefix("home=")).unwrap();
    let account = said
        .lines()
        .find_map(|l| l.strip_prefix("account="))
        .unwrap();
    assert_eq!(home, account, "{said}");
    assert!(!home.starts_with(real.to_str().unwrap()), "{said}");
    // The home is empty: no `.codex` of the real one.
    assert_eq!(said.lines().count(), 2, "{said}");
}

fn script(dir: &Path, text: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("probe");
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// A command line of hookx in a project with an untrusted Gemini guard, from a "test binary"
/// run by the runner: `run` (the Claude event on stdin) warns about the untrusted file once,
/// and records the warning in the home's `.hookx`; `trust --yes` records its trust there.
fn run_through_runner(tmp: &Path, args: &str) -> Output {
    let project = tmp.join("project");
    let settings = project.join(".gemini/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        r#"{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "exit 2"}]}]}}"#,
    )
    .unwrap();
    let payload = project.join("payload.json");
    let event = serde_json::json!({"session_id": "s", "transcript_path": "/dev/null",
        "cwd": project, "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}});
    std::fs::write(&payload, event.to_string()).unwrap();
    let deps = tmp.join("deps");
    std::fs::create_dir_all(&deps).unwrap();
    let probe = script(
        &deps,
        &format!(
            "#!/bin/sh\ncd '{}' && exec '{}' {args} < '{}'\n",
            project.display(),
            env!("CARGO_BIN_EXE_hookx"),
            payload.display()
        ),
    );
    Command::new(runner())
        .arg(&probe)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("HOOKX_DEPTH")
        .env_remove("HOOKX_HOME")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

const RUN: &str = "run --host claude --event PreToolUse";

#[test]
fn a_run_on_the_accounts_home_fails_its_test_binary_and_one_with_home_does_not() {
    needs_root();
    let tmp = tempfile::tempdir().unwrap();

    let on_account = run_through_runner(tmp.path(), RUN);
    let said = String::from_utf8_lossy(&on_account.stderr);
    assert_eq!(on_account.status.code(), Some(101), "{on_account:?}");
    assert!(
        said.contains("hermetic: probe wrote in the home it was given")
            && said.contains(".hookx/warned.json"),
        "{said}"
    );

    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let with_home = run_through_runner(tmp.path(), &format!("{RUN} --home '{}'", home.display()));
    assert_eq!(with_home.status.code(), Some(0), "{with_home:?}");
    assert!(home.join(".hookx/warned.json").exists(), "{with_home:?}");

    // The write went to the runner's private home: this binary's is as it was, empty.
    assert!(!account_home().join(".hookx").exists());
}

/// A command the user runs takes `HOME`: one a test runs without a home of its own writes in
/// the runner's, and fails its binary.
#[test]
fn a_command_that_inherits_home_fails_its_test_binary_and_one_given_home_does_not() {
    needs_root();
    let tmp = tempfile::tempdir().unwrap();
    let inherits = run_through_runner(tmp.path(), "trust --yes");
    let said = String::from_utf8_lossy(&inherits.stderr);
    assert_eq!(inherits.status.code(), Some(101), "{inherits:?}");
    assert!(
        said.contains("hermetic: probe wrote in the home it was given")
            && said.contains(".hookx/trust.json"),
        "{said}"
    );

    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let given = run_through_runner(
        tmp.path(),
        &format!("trust --yes --home '{}'", home.display()),
    );
    assert_eq!(given.status.code(), Some(0), "{given:?}");
    assert!(home.join(".hookx/trust.json").exists(), "{given:?}");
}
