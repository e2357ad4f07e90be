//! No test touches the developer's real `~/.hookx`. `hookx run` takes its home from the user's
//! account (`getpwuid`), not from `HOME`, so a test that runs it without `--home` would read
//! and write the account's `~/.hookx`, and share that state with every other test run on the
//! machine. cargo runs every test binary through `tests/hermetic/runner.sh`
//! (`.cargo/config.toml`): the binary gets a private, empty `~/.hookx` of the account, and
//! fails, naming the files, if hookx wrote anything there. These tests show both halves, with
//! the real binary: the folder is private in this binary, and a run on the account's home fails
//! the binary it ran in, while the same run with `--home` passes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn account_hookx() -> PathBuf {
    hookx::ownership::account_home()
        .expect("this user has an account entry")
        .join(".hookx")
}

fn needs_root() {
    assert!(
        rustix::process::geteuid().is_root(),
        "the hermetic runner needs root (a mount namespace): without it test binaries run on \
         the account's real ~/.hookx"
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

#[test]
fn this_test_binary_has_a_private_hookx_folder_of_the_account() {
    needs_root();
    let folder = account_hookx();
    assert!(
        mount_points().contains(&folder),
        "{} is not a private mount in this test binary: run the tests through cargo, whose \
         runner (.cargo/config.toml, tests/hermetic/runner.sh) makes it one",
        folder.display()
    );
}

/// `hookx run --host claude` at a project with an untrusted Gemini guard, from a "test binary"
/// (a script in a `deps` folder, as cargo's are) run by the runner; `home` on its command line
/// where given. The untrusted file is warned about once, and the warning is recorded in the
/// home's `.hookx`.
fn run_through_runner(tmp: &Path, home: Option<&Path>) -> Output {
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
    let home_args = match home {
        Some(h) => format!(" --home '{}'", h.display()),
        None => String::new(),
    };
    let deps = tmp.join("deps");
    std::fs::create_dir_all(&deps).unwrap();
    let probe = deps.join("probe");
    std::fs::write(
        &probe,
        format!(
            "#!/bin/sh\ncd '{}' && exec '{}' run --host claude --event PreToolUse{home_args} \
             < '{}'\n",
            project.display(),
            env!("CARGO_BIN_EXE_hookx"),
            payload.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o755)).unwrap();
    Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hermetic/runner.sh"))
        .arg(&probe)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env_remove("HOOKX_DEPTH")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn listing(dir: &Path) -> Vec<std::ffi::OsString> {
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .collect();
    names.sort();
    names
}

#[test]
fn a_run_on_the_accounts_home_fails_its_test_binary_and_one_with_home_does_not() {
    needs_root();
    let tmp = tempfile::tempdir().unwrap();
    let before = listing(&account_hookx());

    let on_account = run_through_runner(tmp.path(), None);
    let said = String::from_utf8_lossy(&on_account.stderr);
    assert_eq!(on_account.status.code(), Some(101), "{on_account:?}");
    assert!(
        said.contains("hermetic: probe made hookx write in the account's")
            && said.contains("warned.json"),
        "{said}"
    );

    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let with_home = run_through_runner(tmp.path(), Some(&home));
    assert_eq!(with_home.status.code(), Some(0), "{with_home:?}");
    assert!(home.join(".hookx/warned.json").exists(), "{with_home:?}");

    // The write went to the runner's private folder: this binary's view is as it was.
    let after = listing(&account_hookx());
    assert_eq!(before, after);
}
