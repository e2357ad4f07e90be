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
        let trusted = ran(&mut world.hookx(&["trust", "--project", "."]));
        assert_eq!(trusted.code, Some(0), "{trusted:?}");
        world
    }

    /// hookx in the project, `HOME` the user's home, no hookx variable inherited.
    fn hookx(&self, args: &[&str]) -> assert_cmd::Command {
        let mut cmd = common::hookx_clean(&self.project);
        cmd.env("HOME", &self.home)
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
    // Given as the home it already is ($HOME), --home is not written: run reads HOME.
    let installed = ran(&mut world.hookx(&["install", "--host", "claude", "--home", home]));
    assert_eq!(installed.code, Some(0), "{installed:?}");
    let settings = std::fs::read_to_string(world.project.join(".claude/settings.json")).unwrap();
    assert!(!settings.contains("--home"), "{settings}");
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
            " run --host claude --event PreToolUse --home {} --managed-root {}",
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
        &["--home", home, "--managed-root", managed.to_str().unwrap()],
        &[("HOME", "/nonexistent")],
    ));
    // Without --home, install says that HOOKX_HOME will not reach the routes.
    let noted = ran(world
        .hookx(&["install", "--host", "claude"])
        .env("HOOKX_HOME", home));
    assert!(
        noted
            .stderr
            .contains("HOOKX_HOME is set, but `hookx run` does not read it"),
        "{noted:?}"
    );
}
