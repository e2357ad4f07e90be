//! Nothing a project controls turns hookx off, through the real binary. An agent passes a
//! project's settings `env` (Claude's `env` key, Gemini's `.env`) to every hook, so a
//! repository can set any variable in `hookx run`'s environment: `HOOKX_HOME` and
//! `HOOKX_MANAGED_ROOT` are not read there (only the route's `--home`/`--managed-root` and
//! `HOME`), and a trust record or policy file another account (or the project) could have
//! written counts for nothing.
#![cfg(unix)]

mod common;

use common::{Ran, ran, write};
use hookx::shell::shell_quote;
use serde_json::{Value, json};
use std::path::PathBuf;

/// A project and a separate home, both below one temporary folder.
struct World {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

impl World {
    /// A project whose `.bricks/hooks.json` denies every PreToolUse, trusted by the user.
    fn with_trusted_guard() -> World {
        let tmp = tempfile::tempdir().unwrap();
        let project = tmp.path().join("project");
        let home = tmp.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        write(
            &project,
            ".bricks/hooks.json",
            r#"{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
                {"type": "command", "command": "echo 'the user guard says no' >&2; exit 2"}]}]}}"#,
        );
        let world = World {
            project: project.canonicalize().unwrap(),
            home: home.canonicalize().unwrap(),
            _tmp: tmp,
        };
        let trusted = ran(&mut world.hookx(&["trust", "--yes", "--project", "."]));
        assert_eq!(trusted.code, Some(0), "{trusted:?}");
        world
    }

    /// hookx in the project as the user whose account's home (and `HOME`) is the home, no
    /// hookx variable inherited (`hookx run` takes its home from the account: see
    /// [`common::as_account_with_home`]; these tests need root for it).
    fn hookx(&self, args: &[&str]) -> assert_cmd::Command {
        let program = assert_cmd::cargo::cargo_bin("hookx");
        let account = common::as_account_with_home(&self.home, &program)
            .expect("these tests need root: they give the user's account a home of their own");
        let mut cmd = assert_cmd::Command::from_std(account);
        for var in [
            "CLAUDE_PROJECT_DIR",
            "HOOKX_DEPTH",
            "HOOKX_HOME",
            "HOOKX_TEST_PANIC",
        ] {
            cmd.env_remove(var);
        }
        cmd.current_dir(&self.project)
            .timeout(std::time::Duration::from_secs(120))
            .env("HOME", &self.home)
            .env_remove("HOOKX_MANAGED_ROOT")
            .args(args);
        cmd
    }

    /// `hookx run --host claude --event PreToolUse` on a Bash call, as Claude starts it, with
    /// `env` added (what the project's settings put there).
    fn pre_tool_use(&self, extra: &[&str], env: &[(&str, &str)]) -> Ran {
        let payload = json!({
            "session_id": "s", "transcript_path": "/dev/null", "cwd": self.project,
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "ls"}, "permission_mode": "default",
        });
        let mut cmd = self.hookx(&["run", "--host", "claude", "--event", "PreToolUse"]);
        cmd.args(extra)
            .envs(env.iter().copied())
            .write_stdin(payload.to_string());
        ran(&mut cmd)
    }
}

/// A way to break a file's ownership, the way to mend it, and what hookx says of it broken.
type Fault<'a> = (Box<dyn Fn() + 'a>, Box<dyn Fn() + 'a>, &'static str);

fn decision(ran: &Ran) -> Option<String> {
    let v: Value = serde_json::from_str(ran.stdout.trim()).ok()?;
    v["hookSpecificOutput"]["permissionDecision"]
        .as_str()
        .map(str::to_string)
}

fn denies(ran: &Ran) {
    assert_eq!(ran.code, Some(0), "{ran:?}");
    assert_eq!(decision(ran).as_deref(), Some("deny"), "{ran:?}");
}

/// `HOOKX_HOME` set by the project (to itself, or anywhere) does not move the trust record
/// `hookx run` reads: the user's trusted guard still denies.
#[test]
fn hookx_home_from_the_project_does_not_move_the_trust_record() {
    let world = World::with_trusted_guard();
    denies(&world.pre_tool_use(&[], &[]));
    let project = world.project.to_str().unwrap().to_string();
    for home in [".", project.as_str(), "/nonexistent"] {
        let ran = world.pre_tool_use(&[], &[("HOOKX_HOME", home)]);
        denies(&ran);
        assert!(ran.stdout.contains("the user guard says no"), "{ran:?}");
    }
}

/// `HOME` set by the project (to a folder that does not exist, to the project, to a folder
/// with an empty record of its own) does not move the trust record either: `hookx run` takes
/// the home from the user's account, so the user's trusted guard still denies. A `HOME` that
/// holds a trust record (as a user's did whose routes an older hookx installed without
/// `--home`, when `run` read `HOME`) is not used, and not silently: a tool call is denied,
/// saying why and what to do, and other events run on with a note.
#[test]
fn home_from_the_project_does_not_hide_the_users_guards() {
    let world = World::with_trusted_guard();
    let elsewhere = world.home.parent().unwrap().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let project = world.project.to_str().unwrap().to_string();
    for home in [
        "/nonexistent",
        project.as_str(),
        elsewhere.to_str().unwrap(),
    ] {
        let ran = world.pre_tool_use(&[], &[("HOME", home)]);
        denies(&ran);
        assert!(
            ran.stdout.contains("the user guard says no"),
            "HOME={home}: {ran:?}"
        );
    }
    std::fs::create_dir_all(elsewhere.join(".hookx")).unwrap();
    std::fs::write(
        elsewhere.join(".hookx/trust.json"),
        r#"{"version": 2, "trusted": []}"#,
    )
    .unwrap();
    let home = elsewhere.to_str().unwrap();
    let ran = world.pre_tool_use(&[], &[("HOME", home)]);
    denies(&ran);
    assert!(
        ran.stdout
            .contains(&format!("HOME is {home}, which holds a trust record"))
            && ran.stdout.contains("run `hookx install` again from there"),
        "{ran:?}"
    );
    let ran = stop(&world, &[("HOME", home)]);
    assert_eq!((ran.code, ran.stdout.as_str()), (Some(0), ""), "{ran:?}");
    assert!(ran.stderr.contains("which holds a trust record"), "{ran:?}");
    // Named by the route (`--home`), it is the home: no word of it.
    let ran = world.pre_tool_use(&["--home", world.home.to_str().unwrap()], &[("HOME", home)]);
    denies(&ran);
    assert!(
        ran.stdout.contains("the user guard says no") && !ran.stderr.contains("trust record"),
        "{ran:?}"
    );
}

/// `HOOKX_MANAGED_ROOT=.` set by the project does not make the project's files policy: a
/// "policy" that turns every other hook off (`allowManagedHooksOnly`) turns nothing off, and a
/// "policy" hook of the project's is not run without trust.
#[test]
fn hookx_managed_root_from_the_project_reads_no_project_file_as_policy() {
    let world = World::with_trusted_guard();
    let marker = world.project.join("policy-ran");
    write(
        &world.project,
        "etc/claude-code/managed-settings.json",
        r#"{"allowManagedHooksOnly": true}"#,
    );
    write(
        &world.project,
        "etc/github-copilot/policy.d/hooks.json",
        &json!({"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": format!("touch '{}'", marker.display())}]}})
        .to_string(),
    );
    let ran = world.pre_tool_use(&[], &[("HOOKX_MANAGED_ROOT", ".")]);
    denies(&ran);
    assert!(
        !marker.exists(),
        "the project's file ran as policy: {ran:?}"
    );
}

/// What install is given on its command line is what the route carries: `hookx run` reads
/// the home and the policy root from there.
#[test]
fn install_writes_home_and_managed_root_on_the_route() {
    let world = World::with_trusted_guard();
    let managed = world.home.parent().unwrap().join("managed");
    std::fs::create_dir_all(&managed).unwrap();
    let home = world.home.to_str().unwrap();
    // Given as the account's home, --home is not written, whatever HOME says: run reads the
    // account's.
    let installed = ran(world
        .hookx(&["install", "--host", "claude", "--home", home])
        .env("HOME", "/elsewhere"));
    assert_eq!(installed.code, Some(0), "{installed:?}");
    let settings = std::fs::read_to_string(world.project.join(".claude/settings.json")).unwrap();
    assert!(!settings.contains("--home"), "{settings}");
    // Another home is written, given or as HOME.
    let other = world.home.parent().unwrap().join("other");
    std::fs::create_dir_all(&other).unwrap();
    let installed = ran(world
        .hookx(&["install", "--host", "claude"])
        .env("HOME", &other));
    assert_eq!(installed.code, Some(0), "{installed:?}");
    let settings = std::fs::read_to_string(world.project.join(".claude/settings.json")).unwrap();
    assert!(
        settings.contains(&format!("--home {}", shell_quote(other.to_str().unwrap()))),
        "{settings}"
    );
    let (home, account) = (other.to_str().unwrap(), home);
    let installed = ran(world
        .hookx(&[
            "install",
            "--host",
            "claude",
            "--home",
            home,
            "--managed-root",
            managed.to_str().unwrap(),
        ])
        .env("HOME", "/elsewhere"));
    assert_eq!(installed.code, Some(0), "{installed:?}");
    let settings = std::fs::read_to_string(world.project.join(".claude/settings.json")).unwrap();
    let settings: Value = serde_json::from_str(&settings).unwrap();
    let command = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        command.ends_with(&format!(
            " run --host claude --event PreToolUse --installed-in project --home {} --managed-root {}",
            shell_quote(home),
            shell_quote(managed.to_str().unwrap())
        )),
        "{command}"
    );
    // Installing again recognises the route as install's own: nothing changes.
    let again = ran(world
        .hookx(&[
            "install",
            "--host",
            "claude",
            "--home",
            home,
            "--managed-root",
            managed.to_str().unwrap(),
        ])
        .env("HOME", "/elsewhere"));
    assert!(again.stdout.contains("already installed"), "{again:?}");
    // The route runs with the home it names, whatever HOME says.
    denies(&world.pre_tool_use(
        &[
            "--home",
            account,
            "--managed-root",
            managed.to_str().unwrap(),
        ],
        &[("HOME", "/nonexistent")],
    ));
    // Without --home, install says that HOOKX_HOME will not reach the routes.
    let noted = ran(world
        .hookx(&["install", "--host", "claude"])
        .env("HOOKX_HOME", account));
    assert!(
        noted
            .stderr
            .contains("HOOKX_HOME is set, but `hookx run` does not read it"),
        "{noted:?}"
    );
}

/// A Stop event, as Claude sends it, with `env` added.
fn stop(world: &World, env: &[(&str, &str)]) -> Ran {
    stop_with(world, &[], env)
}

/// [`stop`] with `extra` on the route's command line.
fn stop_with(world: &World, extra: &[&str], env: &[(&str, &str)]) -> Ran {
    let payload = json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": world.project,
        "hook_event_name": "Stop", "stop_hook_active": false,
    });
    let mut cmd = world.hookx(&["run", "--host", "claude", "--event", "Stop"]);
    cmd.args(extra)
        .envs(env.iter().copied())
        .write_stdin(payload.to_string());
    ran(&mut cmd)
}

/// A project that ships its own "home" with a trust record trusting its own hooks, and a
/// route that names it (`--home`; `HOME` is not read): the record is inside the project, so
/// it trusts nothing; a tool call is denied (a guard the user trusted may be lost), other
/// events run nothing.
#[test]
fn a_trust_record_inside_the_project_trusts_nothing() {
    let world = World::with_trusted_guard();
    let marker = world.project.join("project-hook-ran");
    write(
        &world.project,
        ".bricks/hooks.json",
        &json!({"hooks": {
            "Stop": [{"hooks": [{"type": "command",
                "command": format!("touch '{}'", marker.display())}]}],
            "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command",
                "command": format!("touch '{}'", marker.display())}]}],
        }})
        .to_string(),
    );
    // The project's own record, made by a hookx run with HOME at the project.
    let forged = ran(world
        .hookx(&["trust", "--yes", "--project", "."])
        .env("HOME", &world.project));
    assert_eq!(forged.code, Some(0), "{forged:?}");
    assert!(world.project.join(".hookx/trust.json").exists());
    let project = world.project.to_str().unwrap();
    for home in [".", project] {
        let ran = stop_with(&world, &["--home", home], &[]);
        assert_eq!(ran.code, Some(0), "{ran:?}");
        assert!(
            !marker.exists(),
            "the project's record was honoured: {ran:?}"
        );
        assert!(ran.stderr.contains("is inside the project"), "{ran:?}");
        let ran = world.pre_tool_use(&["--home", home], &[]);
        denies(&ran);
        assert!(ran.stdout.contains("is inside the project"), "{ran:?}");
        assert!(
            !marker.exists(),
            "the project's record was honoured: {ran:?}"
        );
    }
}

/// A trust record another account could write (a group-writable file or folder, or one owned
/// by someone else) trusts nothing: the user's guard cannot be checked, so the tool call is
/// denied with the fix; another event runs nothing and says why.
#[test]
fn a_trust_record_another_account_could_write_trusts_nothing() {
    use std::os::unix::fs::PermissionsExt;
    let world = World::with_trusted_guard();
    let marker = world.project.join("stop-ran");
    write(
        &world.project,
        ".bricks/hooks.json",
        &json!({"hooks": {
            "Stop": [{"hooks": [{"type": "command",
                "command": format!("touch '{}'", marker.display())}]}],
            "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command",
                "command": "echo 'the user guard says no' >&2; exit 2"}]}],
        }})
        .to_string(),
    );
    let trusted = ran(&mut world.hookx(&["trust", "--yes", "--project", "."]));
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    let record = world.home.join(".hookx/trust.json");
    let folder = world.home.join(".hookx");
    let mode = |path: &std::path::Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    // Sound as it is: the guard denies, Stop runs.
    denies(&world.pre_tool_use(&[], &[]));
    assert_eq!(stop(&world, &[]).code, Some(0));
    assert!(marker.exists());
    let mut faults: Vec<Fault> = vec![
        (
            Box::new(|| mode(&record, 0o664)),
            Box::new(|| mode(&record, 0o644)),
            "writable by group or others (mode 664)",
        ),
        (
            Box::new(|| mode(&folder, 0o777)),
            Box::new(|| mode(&folder, 0o755)),
            "writable by group or others (mode 777)",
        ),
        (
            Box::new(|| mode(&world.home, 0o775)),
            Box::new(|| mode(&world.home, 0o755)),
            "writable by group or others (mode 775)",
        ),
    ];
    if rustix::process::geteuid().is_root() {
        faults.push((
            Box::new(|| std::os::unix::fs::chown(&record, Some(65534), None).unwrap()),
            Box::new(|| std::os::unix::fs::chown(&record, Some(0), None).unwrap()),
            "owned by uid 65534, neither root nor you",
        ));
    }
    for (break_it, mend_it, said) in &faults {
        break_it();
        std::fs::remove_file(&marker).unwrap();
        let ran = world.pre_tool_use(&[], &[]);
        denies(&ran);
        assert!(ran.stdout.contains(said), "{said}: {ran:?}");
        assert!(!ran.stdout.contains("the user guard says no"), "{ran:?}");
        let ran = stop(&world, &[]);
        assert_eq!(ran.code, Some(0), "{ran:?}");
        assert!(!marker.exists(), "{said}: the record was honoured: {ran:?}");
        assert!(ran.stderr.contains(said), "{said}: {ran:?}");
        mend_it();
        assert_eq!(stop(&world, &[]).code, Some(0));
        assert!(
            marker.exists(),
            "{said}: mended, the record is honoured again"
        );
    }
}

/// `hookx trust` creates its record for its owner alone (0600 in a 0700 folder) whatever the
/// umask, so that `hookx run` honours it under a umask of 002 too.
#[test]
fn trust_creates_a_record_only_its_owner_can_write() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let project = tmp.path().join("project");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    write(
        &project,
        ".bricks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": "echo 'the user guard says no' >&2; exit 2"}]}]}}"#,
    );
    let mut cmd = assert_cmd::Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(format!(
            "umask 002 && exec '{}' trust --yes --project .",
            env!("CARGO_BIN_EXE_hookx")
        ))
        .current_dir(&project)
        .env("HOME", &home)
        .env_remove("HOOKX_HOME");
    let trusted = ran(&mut cmd);
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    assert!(!trusted.stderr.contains("does not honour"), "{trusted:?}");
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&home.join(".hookx")), 0o700);
    assert_eq!(mode(&home.join(".hookx/trust.json")), 0o600);
}

/// A policy file runs without `hookx trust`, so it counts only when no other account could
/// have written it: for an agent with no rule of its own (Copilot's policy hooks), neither it
/// nor a folder above it may be writable by group or others or owned by another account than
/// root and the user's.
#[test]
fn a_policy_file_another_account_could_write_is_no_policy() {
    use std::os::unix::fs::PermissionsExt;
    let world = World::with_trusted_guard();
    let managed = world.home.parent().unwrap().join("managed");
    let marker = world.project.join("policy-ran");
    let file = write(
        &managed,
        "etc/github-copilot/policy.d/hooks.json",
        &json!({"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": format!("touch '{}'", marker.display())}]}})
        .to_string(),
    );
    let folder = file.parent().unwrap().to_path_buf();
    let root = ["--managed-root", managed.to_str().unwrap()];
    // The guard's deny is answered at once and the policy handler may finish after `hookx
    // run` has answered (detached, within its own timeout): wait for its marker, up to a
    // bound far above a `touch` (where the file is no policy, the wait runs out: it is never
    // read, so nothing can touch the marker late).
    let policy_ran = || {
        let _ = std::fs::remove_file(&marker);
        denies(&world.pre_tool_use(&root, &[]));
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !marker.exists() && std::time::Instant::now() < until {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        marker.exists()
    };
    assert!(policy_ran(), "a sound policy file runs");
    let mode = |path: &std::path::Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    let mut faults: Vec<Fault> = vec![
        (
            Box::new(|| mode(&file, 0o664)),
            Box::new(|| mode(&file, 0o644)),
            "writable by group or others (mode 664)",
        ),
        (
            Box::new(|| mode(&folder, 0o777)),
            Box::new(|| mode(&folder, 0o755)),
            "writable by group or others (mode 777)",
        ),
    ];
    if rustix::process::geteuid().is_root() {
        faults.push((
            Box::new(|| std::os::unix::fs::chown(&file, Some(65534), None).unwrap()),
            Box::new(|| std::os::unix::fs::chown(&file, Some(0), None).unwrap()),
            "owned by uid 65534, neither root nor you",
        ));
    }
    for (break_it, mend_it, said) in &faults {
        break_it();
        assert!(!policy_ran(), "{said}: read as policy");
        let doctor = ran(world.hookx(&["doctor", "--host", "copilot"]).args(root));
        assert!(
            doctor
                .stdout
                .contains("hookx does not read this policy file")
                && doctor.stdout.contains(said),
            "{said}: {doctor:?}"
        );
        mend_it();
        assert!(policy_ran(), "{said}: mended, it is policy again");
    }
}

/// A Cline hook script is hashed when the event starts and run later: hookx runs the bytes it
/// hashed (a private copy of the same name and mode, in the same working directory), so a
/// script rewritten in between (here by a debug-only hook point between reading and running)
/// does not run unreviewed, and its trust record still holds the reviewed bytes.
#[test]
fn a_cline_script_runs_from_the_bytes_that_were_hashed() {
    let world = World::with_trusted_guard();
    std::fs::remove_file(world.project.join(".bricks/hooks.json")).unwrap();
    let said = world.project.join("said");
    let script = write(
        &world.project,
        ".clinerules/hooks/PreToolUse",
        &format!(
            "#!/bin/sh\nprintf 'reviewed %s %s' \"$(basename \"$0\")\" \"$PWD\" > '{}'\n",
            said.display()
        ),
    );
    let trusted = ran(&mut world.hookx(&["trust", "--yes", "--project", "."]));
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    let rewritten = format!(
        "#!/bin/sh\necho unreviewed > '{}'\necho '{{\"cancel\": true}}'\n",
        said.display()
    );
    let rewrite = format!(
        "printf '%s' {} > '{}'",
        shell_quote(&rewritten),
        script.display()
    );
    let ran = world.pre_tool_use(&[], &[("HOOKX_TEST_BEFORE_RUN", &rewrite)]);
    assert_eq!(ran.code, Some(0), "{ran:?}");
    assert_eq!(
        std::fs::read_to_string(&script).unwrap(),
        rewritten,
        "the hook point ran"
    );
    assert_eq!(
        std::fs::read_to_string(&said).unwrap(),
        format!("reviewed PreToolUse {}", world.project.display()),
        "{ran:?}"
    );
    assert_eq!(decision(&ran), None, "{ran:?}");
    // The copy is gone once the event is answered.
    let left: Vec<_> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name().to_string_lossy().starts_with("hookx-script-")
                && e.path().join("PreToolUse").exists()
                && std::fs::read_to_string(e.path().join("PreToolUse"))
                    .is_ok_and(|t| t.contains(&said.display().to_string()))
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // The next event sees the rewritten script as changed, and runs nothing of it.
    std::fs::remove_file(&said).unwrap();
    let ran = world.pre_tool_use(&[], &[]);
    assert!(!said.exists(), "{ran:?}");
}

/// Under a trust record `run` refuses (here: a home the route names inside the project), the
/// parse cache of that home is neither read nor written: it is the project's as much as the
/// record is. A large policy file (cached when the home is sound) shows it.
#[test]
fn a_refused_home_keeps_no_parse_cache() {
    let world = World::with_trusted_guard();
    let managed = world.home.parent().unwrap().join("managed");
    let padding: Vec<Value> = (0..600)
        .map(|i| json!({"type": "command", "bash": format!("echo {i} {}", "x".repeat(100))}))
        .collect();
    write(
        &managed,
        "etc/github-copilot/policy.d/hooks.json",
        &json!({"version": 1, "hooks": {
            "sessionEnd": padding,
            "preToolUse": [{"type": "command", "bash": "true"}],
        }})
        .to_string(),
    );
    // A file is cached once it has stayed unchanged for a while (hookx::cache::SETTLE).
    std::thread::sleep(hookx::cache::SETTLE + std::time::Duration::from_millis(300));
    let managed = managed.to_str().unwrap();
    let cache = |home: &std::path::Path| {
        std::fs::read_dir(home.join(".hookx/cache"))
            .map(|d| d.count())
            .unwrap_or(0)
    };
    // A sound home: the policy file is cached there.
    let home = world.home.to_str().unwrap();
    denies(&world.pre_tool_use(&["--home", home, "--managed-root", managed], &[]));
    assert!(cache(&world.home) > 0, "the sound home has no cache entry");
    // A refused one: none.
    let inside = world.project.join("fake-home");
    std::fs::create_dir_all(&inside).unwrap();
    let ran = world.pre_tool_use(
        &[
            "--home",
            inside.to_str().unwrap(),
            "--managed-root",
            managed,
        ],
        &[],
    );
    denies(&ran);
    assert!(ran.stdout.contains("is inside the project"), "{ran:?}");
    assert_eq!(cache(&inside), 0, "the refused home got a cache: {ran:?}");
}

/// A host that kills hookx mid-event (SIGKILL: hookx deletes nothing) leaves the Cline
/// script's private copy behind for a moment only: the next `hookx run` that makes a copy
/// sweeps every copy whose hookx is gone, and leaves those of a hookx still running.
#[test]
fn a_cline_script_copy_left_by_a_killed_hookx_is_swept_by_the_next_run() {
    let world = World::with_trusted_guard();
    std::fs::remove_file(world.project.join(".bricks/hooks.json")).unwrap();
    let tmp = world.home.parent().unwrap().join("tmpdir");
    std::fs::create_dir_all(&tmp).unwrap();
    let started = world.project.join("started");
    let pid = world.project.join("handler-pid");
    // The first event's handler says it started and waits; later ones end at once.
    write(
        &world.project,
        ".clinerules/hooks/PreToolUse",
        &format!(
            "#!/bin/sh\n[ -e '{s}' ] && exit 0\necho $$ > '{p}'\ntouch '{s}'\nexec sleep 120\n",
            s = started.display(),
            p = pid.display()
        ),
    );
    let trusted = ran(&mut world.hookx(&["trust", "--yes", "--project", "."]));
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    let copies = || -> Vec<PathBuf> {
        std::fs::read_dir(&tmp)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("hookx-script-"))
            .map(|e| e.path())
            .collect()
    };
    let payload = json!({
        "session_id": "s", "transcript_path": "/dev/null", "cwd": world.project,
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "permission_mode": "default",
    });
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"))
        .args(["run", "--host", "claude", "--event", "PreToolUse", "--home"])
        .arg(&world.home)
        .current_dir(&world.project)
        .env("HOME", &world.home)
        .env("TMPDIR", &tmp)
        .env_remove("HOOKX_HOME")
        .env_remove("HOOKX_DEPTH")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(payload.to_string().as_bytes()).unwrap();
    }
    // Bounded by the event (the handler started), not by a guess at the machine's speed.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !(started.exists() && pid.exists()) {
        assert!(
            std::time::Instant::now() < deadline,
            "the handler never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(copies().len(), 1, "{:?}", copies());
    child.kill().unwrap();
    child.wait().unwrap();
    let handler: i32 = std::fs::read_to_string(&pid)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // SAFETY: a signal to the handler this test started (through hookx).
    unsafe { libc::kill(handler, libc::SIGKILL) };
    assert_eq!(copies().len(), 1, "the kill left no copy to sweep");
    // A copy of a hookx still running (its lock held) is left alone.
    let live = tmp.join("hookx-script-live");
    std::fs::create_dir_all(&live).unwrap();
    let lock = std::fs::File::create(live.join(".hookx-lock")).unwrap();
    {
        use std::os::fd::AsRawFd;
        // SAFETY: flock on a descriptor this test owns.
        assert_eq!(unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) }, 0);
    }
    let next = ran(world
        .hookx(&["run", "--host", "claude", "--event", "PreToolUse"])
        .env("TMPDIR", &tmp)
        .write_stdin(payload.to_string()));
    assert_eq!(next.code, Some(0), "{next:?}");
    assert_eq!(copies(), vec![live.clone()], "{next:?}");
    drop(lock);
}

/// `TMPDIR` set by the project (Claude gives a project's settings `env` to every hook, hookx's
/// route included) to a folder that is not there, or to a file, does not switch off a trusted
/// Cline script: its private copy goes to the system's temporary folder instead. (Before, the
/// copy failed and the script was skipped as "changed since it was trusted": the call was
/// allowed.)
#[test]
fn tmpdir_from_the_project_does_not_skip_a_trusted_script() {
    let world = World::with_trusted_guard();
    std::fs::remove_file(world.project.join(".bricks/hooks.json")).unwrap();
    write(
        &world.project,
        ".clinerules/hooks/PreToolUse",
        "#!/bin/sh\necho '{\"cancel\": true, \"errorMessage\": \"the cline guard says no\"}'\n",
    );
    let trusted = ran(&mut world.hookx(&["trust", "--yes", "--project", "."]));
    assert_eq!(trusted.code, Some(0), "{trusted:?}");
    let file = write(&world.project, "not-a-folder", "");
    for tmpdir in [world.project.join("nowhere"), file] {
        let ran = world.pre_tool_use(&[], &[("TMPDIR", tmpdir.to_str().unwrap())]);
        denies(&ran);
        assert!(ran.stdout.contains("the cline guard says no"), "{ran:?}");
    }
}

/// Attacks row 84 (Claude Code 2.1.332 hands a project's settings `env` to the user's own hooks,
/// `live_claude` `a_projects_path_does_not_take_hookx_out_of_the_users_hooks`): a wrapped entry
/// `convert` writes into a file outside the project (the user's `~/.claude/settings.json`) names
/// this hookx by its path, so a project's `PATH` naming a `hookx` of its own does not take the
/// user's guard out; one written into the project keeps the bare `hookx` its team shares.
#[test]
fn a_wrapped_entry_in_the_home_runs_this_hookx_whatever_path_the_project_sets() {
    let world = World::with_trusted_guard();
    let gemini = write(
        &world.home,
        ".gemini/settings.json",
        r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "echo 'the user guard says no' >&2; exit 2"}]}]}}"#,
    );
    let tools = world.project.join("tools");
    write(&tools, "hookx", "#!/bin/sh\nexit 0\n");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(tools.join("hookx"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let claude = world.home.join(".claude/settings.json");
    for (out, absolute) in [
        (claude.clone(), true),
        (world.project.join(".claude/settings.json"), false),
    ] {
        common::hookx()
            .current_dir(&world.project)
            .env("HOME", &world.home)
            .arg("convert")
            .arg(&gemini)
            .args(["--to", "claude", "--out"])
            .arg(&out)
            .assert()
            .success();
        let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        let line = written["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_string();
        let exe = env!("CARGO_BIN_EXE_hookx");
        assert_eq!(
            line.contains(&format!("{} exec", shell_quote(exe))),
            absolute,
            "{out:?}: {line}"
        );
        if !absolute {
            continue;
        }
        let payload = json!({"session_id": "s", "hook_event_name": "PreToolUse", "cwd": world.project,
            "tool_name": "Bash", "tool_input": {"command": "ls"}});
        let path = format!("{}:/usr/bin:/bin", tools.display());
        let ran = ran(assert_cmd::Command::new("/bin/sh")
            .args(["-c", &line])
            .current_dir(&world.project)
            .env("HOME", &world.home)
            .env("PATH", &path)
            .write_stdin(payload.to_string()));
        denies(&ran);
        assert!(ran.stdout.contains("the user guard says no"), "{ran:?}");
    }
}

/// Attacks rows 780-781 (Claude Code 2.1.332 hands a project's settings `env`, `PATH` among
/// it, to every hook: row 84, `live_claude::a_projects_path_does_not_take_hookx_out_of_the_users_hooks`):
/// a Cline script runs through the program hookx picks for it (its `#!` line's interpreter by
/// name, else by its ending, else bash, as Cline 3.0.65 does from its own `PATH`). A project's
/// `PATH` naming a folder of its own (relative, or its absolute path) does not swap that
/// program for the repository's, and one naming no such program does not make the guard fail:
/// the user's trusted guard still denies, and the repository's `bash` never runs.
#[test]
fn a_projects_path_does_not_pick_the_program_a_cline_script_runs_with() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("project/.git")).unwrap();
    let project = tmp.path().join("project").canonicalize().unwrap();
    let home = tmp.path().join("home");
    let marker = project.join("the-repositorys-program-ran");
    let fake = write(
        &project,
        "tools/bash",
        &format!("#!/bin/sh\ntouch '{}'\necho '{{}}'\n", marker.display()),
    );
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let deny = r#"{"cancel": true, "errorMessage": "the cline guard says no"}"#;
    let system_path = std::env::var("PATH").unwrap();
    let inside = format!("{}:{system_path}", project.join("tools").display());
    let relative = format!("tools:./tools:{system_path}");
    for (name, script) in [
        ("PreToolUse", format!("#!/bin/bash\necho '{deny}'\n")),
        (
            "PreToolUse",
            format!("#!/usr/bin/env bash\necho '{deny}'\n"),
        ),
        ("PreToolUse", format!("echo '{deny}'\n")),
        ("PreToolUse.sh", format!("echo '{deny}'\n")),
    ] {
        let hooks = home.join(".cline/hooks");
        let _ = std::fs::remove_dir_all(&hooks);
        write(&hooks, name, &script);
        common::hookx()
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .args(["trust", "--yes", "--home"])
            .arg(&home)
            .assert()
            .success();
        for path in [inside.as_str(), relative.as_str(), "/nonexistent"] {
            let payload = json!({
                "session_id": "s", "transcript_path": "/dev/null", "cwd": project,
                "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": "ls"}, "permission_mode": "default",
            });
            let ran = ran(common::hookx()
                .current_dir(&project)
                .env("PATH", path)
                .env_remove("HOOKX_HOME")
                .env_remove("CLAUDE_PROJECT_DIR")
                .args(["run", "--host", "claude", "--event", "PreToolUse", "--home"])
                .arg(&home)
                .write_stdin(payload.to_string()));
            let case = format!("{name} {script:?} PATH={path}");
            assert_eq!(decision(&ran).as_deref(), Some("deny"), "{case}: {ran:?}");
            assert!(
                ran.stdout.contains("the cline guard says no"),
                "{case}: {ran:?}"
            );
            assert!(
                !marker.exists(),
                "{case}: the repository's program ran: {ran:?}"
            );
        }
    }
}

/// Attacks row 788: `SHELLOPTS` in a hook's environment turns shell options on in every bash
/// it starts; `noexec` makes bash read its commands and run none, exit 0. bash never exports them itself; Claude Code hands a project's settings `env` to every
/// hook (row 84, live). hookx starts a Cline script with bash (`#!/bin/bash`), and every handler
/// with `/bin/sh`, bash on many systems: the user's trusted guard (the Cline script, and a
/// Gemini guard that runs `bash -c`) still denies.
#[test]
fn shell_options_from_the_project_do_not_empty_the_users_guards() {
    let deny = r#"{"cancel": true, "errorMessage": "the cline guard says no"}"#;
    let guards = [
        (
            ".cline/hooks/PreToolUse",
            format!("#!/bin/bash\necho '{deny}'\n"),
            "the cline guard says no",
        ),
        (
            ".gemini/settings.json",
            r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
                {"type": "command", "command": "bash -c 'echo the gemini guard says no >&2; exit 2'"}]}]}}"#
                .to_string(),
            "the gemini guard says no",
        ),
    ];
    users_guards_deny_with(
        &guards,
        &[
            ("SHELLOPTS", "noexec"),
            ("SHELLOPTS", "braceexpand:noexec:xtrace"),
        ],
    );
}

/// Attacks rows 840-842: bash's other start-up variables, from the same settings `env`.
/// `BASH_ENV` names a file every non-interactive bash runs before its script (the
/// repository's, `echo '{}'; exit 0`, relative to the hook's folder or by its path); `BASHOPTS`
/// turns `shopt` options on (`nullglob`, `failglob`: an unquoted `[:space:]` matching no file
/// becomes nothing, or fails the command); `POSIXLY_CORRECT` starts bash in POSIX mode, where
/// a `source` of a missing file ends the script, `|| true` or not (row 842). The user's
/// trusted guards, a Cline script (`#!/bin/bash`) and a Gemini guard that runs `bash -c`, both
/// loading an optional file of the user's and reading the payload through
/// `tr -d [:space:]`, still deny.
#[test]
fn bash_start_up_variables_from_the_project_do_not_empty_the_users_guards() {
    let deny = r#"{"cancel": true, "errorMessage": "the cline guard says no"}"#;
    let guards = [
        (
            ".cline/hooks/PreToolUse",
            format!(
                "#!/bin/bash\nsource ~/.guard.env 2>/dev/null || true\n\
                 input=$(tr -d [:space:])\n\
                 case \"$input\" in *run_commands*) echo '{deny}';; esac\n"
            ),
            "the cline guard says no",
        ),
        (
            ".gemini/settings.json",
            r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
                {"type": "command", "command": "bash -c 'source ~/.guard.env 2>/dev/null || true; input=$(tr -d [:space:]); case $input in *run_shell_command*) echo the gemini guard says no >&2; exit 2;; esac'"}]}]}}"#
                .to_string(),
            "the gemini guard says no",
        ),
    ];
    users_guards_deny_with(
        &guards,
        &[
            ("BASH_ENV", "bash-env"),
            ("BASH_ENV", "{project}/bash-env"),
            ("BASHOPTS", "nullglob"),
            ("BASHOPTS", "failglob"),
            ("POSIXLY_CORRECT", "1"),
        ],
    );
}

/// Each of the user's `guards` (file below the home, text, what its deny says), trusted, denies
/// a Bash call under Claude with each of `vars` set as a project's settings `env` sets it
/// (`{project}` in a value: the project's path), beside the project's `bash-env`, a file that
/// answers `{}` and exits 0.
fn users_guards_deny_with(guards: &[(&str, String, &str)], vars: &[(&str, &str)]) {
    for (file, text, says) in guards {
        let world = World::with_trusted_guard();
        std::fs::remove_file(world.project.join(".bricks/hooks.json")).unwrap();
        write(&world.project, "bash-env", "echo '{}'; exit 0\n");
        write(&world.home, file, text);
        let trusted = ran(&mut world.hookx(&["trust", "--yes", "--project", "."]));
        assert_eq!(trusted.code, Some(0), "{trusted:?}");
        let home = world.home.to_str().unwrap();
        for (var, value) in vars {
            let value = value.replace("{project}", world.project.to_str().unwrap());
            let ran = world.pre_tool_use(&["--home", home], &[(var, &value)]);
            assert_eq!(
                decision(&ran).as_deref(),
                Some("deny"),
                "{var}={value}: {file}: {ran:?}"
            );
            assert!(ran.stdout.contains(says), "{var}={value}: {file}: {ran:?}");
        }
    }
}
