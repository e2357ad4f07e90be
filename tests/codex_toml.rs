//! Codex's hooks in TOML (`config.toml [hooks]`, user and project; conformance/codex-facts.md):
//! read by `list`, `validate`, `convert` and `run` with errors at file:line:col, never written.

mod common;

use assert_cmd::Command;
use serde_json::{Value, json};
use std::path::PathBuf;

/// The user `config.toml` as Codex and `hookx install` leave it: settings, hook tables, trust
/// records and project trust.
const USER_CONFIG: &str = r#"# my settings
model = "gpt-5.5"

[[hooks.PreToolUse]]
matcher = "Bash"
hooks = [{ type = "command", command = "echo user-toml", timeout = 30 }]

[hooks.state."/somewhere/hooks.json:pre_tool_use:0:0"]
trusted_hash = "sha256:00"

[projects."/somewhere"]
trust_level = "trusted"
"#;

/// Codex's review records of [`USER_CONFIG`]'s own handler, in the user's `config.toml` at `user`.
fn user_config_records(user: &std::path::Path) -> Vec<(String, String)> {
    hookx::dialect::codex::trust::records(
        user,
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo user-toml", "timeout": 30}]}]}}),
        &|_| true,
    )
}

struct World {
    _dir: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
    managed: PathBuf,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (project, home, managed) = (root.join("p"), root.join("h"), root.join("m"));
        for d in [&project, &home, &managed] {
            std::fs::create_dir_all(d).unwrap();
        }
        common::write(&home, ".codex/config.toml", USER_CONFIG);
        World {
            _dir: dir,
            project,
            home,
            managed,
        }
    }

    fn hookx(&self, args: &[&str]) -> Command {
        let mut cmd = Command::cargo_bin("hookx").unwrap();
        cmd.args(args)
            .arg("--project")
            .arg(&self.project)
            .arg("--home")
            .arg(&self.home)
            .env("HOME", &self.home)
            .env("HOOKX_MANAGED_ROOT", &self.managed)
            .env_remove("HOOKX_HOME");
        cmd
    }
}

/// `hookx ARGS…` for the commands that read only the files given (`convert`, `validate`).
fn files_only(args: &[&str]) -> Command {
    let mut cmd = Command::cargo_bin("hookx").unwrap();
    cmd.args(args);
    cmd
}

fn stdout(mut cmd: Command) -> String {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn list_shows_config_toml_hooks_of_every_layer_and_no_settings_as_events() {
    let w = World::new();
    common::write(
        &w.project,
        ".codex/config.toml",
        "[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = \"command\"\ncommand = \"echo project-toml\"\n",
    );
    common::write(
        &w.managed,
        "etc/codex/requirements.toml",
        "[hooks]\nmanaged_dir = \"/opt/codex-hooks\"\n\n[[hooks.SessionStart]]\nhooks = [{ type = \"command\", command = \"/opt/codex-hooks/start.sh\" }]\n",
    );
    let rows: Vec<Value> = serde_json::from_str(&stdout(
        w.hookx(&["list", "--host", "codex", "--format", "json"]),
    ))
    .unwrap();
    let seen: Vec<(String, String, String, String)> = rows
        .iter()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap_or_default().to_string();
            (s("event"), s("handler"), s("scope"), s("run"))
        })
        .collect();
    let want = |event: &str, handler: &str, scope: &str| {
        (
            event.to_string(),
            handler.to_string(),
            scope.to_string(),
            "native".to_string(),
        )
    };
    for row in [
        want("PreToolUse", "echo user-toml", "user"),
        want("Stop", "echo project-toml", "project"),
        want("SessionStart", "/opt/codex-hooks/start.sh", "managed"),
    ] {
        assert!(seen.contains(&row), "{row:?} not in {seen:?}");
    }
    assert_eq!(seen.len(), 3, "{seen:?}");
    // `state` and `managed_dir` are settings: no warning calls them unknown events.
    let text = stdout(w.hookx(&["list", "--host", "codex"]));
    assert!(!text.contains("warning"), "{text}");
}

#[test]
fn validate_and_convert_name_the_line_and_column_of_toml_problems() {
    let w = World::new();
    let bad = common::write(
        &w.project,
        ".codex/config.toml",
        "[[hooks.PreToolUse]]\nmatcher = 3\nhooks = [{ type = \"command\", command = \"x\" }]\n",
    );
    let out = files_only(&["validate", bad.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{out:?}");
    assert!(
        stderr.contains(&format!(
            "{}:2:11: error: `matcher` must be a string",
            bad.display()
        )),
        "{stderr}"
    );
    let broken = common::write(&w.project, "broken/config.toml", "[hooks]\nStop = [\n");
    for args in [
        vec!["validate", "--from", "codex"],
        vec!["convert", "--from", "codex", "--to", "claude"],
    ] {
        let mut args = args.clone();
        args.push(broken.to_str().unwrap());
        let out = files_only(&args).output().unwrap();
        let text = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {out:?}");
        assert!(
            text.contains(&format!("{}:2:9: error: invalid TOML", broken.display())),
            "{args:?}: {text}"
        );
    }
}

#[test]
fn convert_reads_config_toml_hooks_and_writes_only_json() {
    let w = World::new();
    let user = w.home.join(".codex/config.toml");
    let out = files_only(&["convert", "--to", "claude", user.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let converted: Value = serde_json::from_slice(&out.stdout).unwrap();
    let group = &converted["hooks"]["PreToolUse"][0];
    assert_eq!(group["matcher"], "Bash");
    assert!(
        group["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .ends_with("-- 'echo user-toml'"),
        "{converted}"
    );
    // Codex's own settings and trust records are no hooks: nothing of them is converted or
    // reported lost.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no losses"), "{stderr}");
    assert_eq!(converted.as_object().unwrap().len(), 1, "{converted}");

    // Into Codex: its hook file, never TOML.
    let out = files_only(&["convert", "--to", "codex", user.to_str().unwrap()])
        .output()
        .unwrap();
    let same: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        same,
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo user-toml", "timeout": 30}]}]}})
    );
    let target = w.project.join("codex.toml");
    std::fs::write(&target, "keep = true\n").unwrap();
    let out = files_only(&[
        "convert",
        "--to",
        "codex",
        "--write",
        "--out",
        target.to_str().unwrap(),
        user.to_str().unwrap(),
    ])
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not write them"));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep = true\n");
    assert_eq!(std::fs::read_to_string(&user).unwrap(), USER_CONFIG);
}

/// Under another host, hookx runs a Codex project hook from `.codex/config.toml` once it is
/// trusted, with Codex's payload; `install --host codex` leaves the TOML hooks and every other
/// line of the user `config.toml` as they were, adding only its trust records.
#[test]
fn run_and_install_treat_config_toml_as_a_codex_source() {
    let w = World::new();
    let seen = w.project.join("seen.json");
    common::write(
        &w.project,
        ".codex/config.toml",
        &format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{{ type = \"command\", command = {} }}]\n",
            json!(format!("cat > {}", seen.display()))
        ),
    );
    w.hookx(&["trust", "--yes"]).assert().success();
    let payload = json!({"session_id": "s", "transcript_path": "/t", "cwd": w.project,
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "tool_use_id": "t1"});
    w.hookx(&["run", "--host", "claude"])
        .write_stdin(payload.to_string())
        .assert()
        .success();
    let got: Value = serde_json::from_str(&std::fs::read_to_string(&seen).unwrap()).unwrap();
    assert_eq!(got["tool_name"], "Bash", "{got}");
    assert_eq!(got["tool_input"]["command"], "ls", "{got}");

    // A Bricks hook gives install something to route.
    common::write(
        &w.project,
        ".bricks/hooks.json",
        &json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}})
            .to_string(),
    );
    let project_toml = std::fs::read_to_string(w.project.join(".codex/config.toml")).unwrap();
    let install = w.hookx(&["install", "--host", "codex"]).output().unwrap();
    assert!(install.status.success(), "{install:?}");
    let routes = std::fs::read_to_string(w.project.join(".codex/hooks.json")).unwrap();
    assert!(routes.contains("hookx"), "{routes}");
    assert_eq!(
        std::fs::read_to_string(w.project.join(".codex/config.toml")).unwrap(),
        project_toml
    );
    // The user config.toml gains the routes' trust records, and nothing else.
    let after = std::fs::read_to_string(w.home.join(".codex/config.toml")).unwrap();
    let added = after
        .strip_prefix(USER_CONFIG)
        .unwrap_or_else(|| panic!("{after}"));
    assert!(added.contains("[hooks.state."), "{added}");
    assert!(
        added.lines().all(|l| l.is_empty()
            || l.starts_with("[hooks.state.")
            || l.starts_with("trusted_hash")),
        "{added}"
    );
}

/// `doctor --host codex` says Codex skips the project's `.codex/` files until the project is
/// trusted in `~/.codex/config.toml` (`[projects."PATH"] trust_level = "trusted"`, by its own
/// path), with the step to take.
#[test]
fn doctor_names_codex_project_trust() {
    let w = World::new();
    common::write(
        &w.project,
        ".codex/config.toml",
        "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"echo project-toml\" }]\n",
    );
    let doctor = |w: &World| {
        let out = w.hookx(&["doctor", "--host", "codex"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let untrusted = doctor(&w);
    assert!(
        untrusted.contains("Codex reads it only in a trusted folder")
            && untrusted.contains("codex exec --trust"),
        "{untrusted}"
    );
    // A parent's entry does not trust the project; its own does.
    let user = w.home.join(".codex/config.toml");
    let entry = |path: &std::path::Path| {
        format!(
            "\n[projects.{}]\ntrust_level = \"trusted\"\n",
            json!(path.display().to_string())
        )
    };
    let parent = USER_CONFIG.to_string() + &entry(w.project.parent().unwrap());
    std::fs::write(&user, &parent).unwrap();
    assert!(doctor(&w).contains("Codex reads it only in a trusted folder"));
    std::fs::write(&user, parent + &entry(&w.project)).unwrap();
    let trusted = doctor(&w);
    assert!(!trusted.contains("trusted folder"), "{trusted}");
}

/// `doctor --host codex` names the handlers Codex skips silently because its review has not
/// trusted them (no `[hooks.state."KEY"] trusted_hash`, or one of older content), and is quiet
/// once every record matches.
#[test]
fn doctor_names_handlers_codex_has_not_reviewed() {
    let w = World::new();
    let hooks = json!({"Stop": [{"hooks": [
        {"type": "command", "command": "echo a"}, {"type": "command", "command": "echo b"}]}]});
    let file = common::write(
        &w.home,
        ".codex/hooks.json",
        &json!({ "hooks": hooks }).to_string(),
    );
    let records =
        hookx::dialect::codex::trust::records(&file, &json!({ "hooks": hooks }), &|_| true);
    assert_eq!(records.len(), 2);
    let doctor = |w: &World| {
        let out = w.hookx(&["doctor", "--host", "codex"]).output().unwrap();
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let report = doctor(&w);
    // The user config.toml's own PreToolUse handler has no record either.
    assert!(
        report.contains("silently skips 2 of the 2 here: 2 never reviewed"),
        "{report}"
    );
    let user = w.home.join(".codex/config.toml");
    let toml_records = user_config_records(&user);
    let mut all = records.clone();
    all.extend(toml_records);
    // One record hashes older content.
    all[1].1 = "sha256:older".into();
    let text = hookx::dialect::codex::trust::set(USER_CONFIG, &all).unwrap();
    std::fs::write(&user, text).unwrap();
    let report = doctor(&w);
    assert!(
        report.contains("silently skips 1 of the 2 here: 1 changed since review"),
        "{report}"
    );
    all[1] = records[1].clone();
    let text = hookx::dialect::codex::trust::set(USER_CONFIG, &all).unwrap();
    std::fs::write(&user, text).unwrap();
    let report = doctor(&w);
    assert!(!report.contains("silently skips"), "{report}");
}

/// Attacks row 582: doctor's status is per rule, Codex's review per handler. One handler Codex
/// has not reviewed made doctor say each rule of the file "blocked" (and exit 5), also a rule
/// all of whose handlers Codex runs, and one it runs one of two handlers of (Codex 0.171.0
/// ran the reviewed handler beside a skipped one: `live_codex`, `only_trusted_handlers_run`).
/// A rule is blocked when Codex skips each of its handlers; some skipped is a note.
#[test]
fn a_rule_codex_runs_some_handlers_of_is_not_said_blocked() {
    let w = World::new();
    let hooks = json!({
        "Stop": [{"hooks": [
            {"type": "command", "command": "echo a"}, {"type": "command", "command": "echo b"}]}],
        "SessionStart": [{"hooks": [{"type": "command", "command": "echo c"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo d"}]}],
    });
    let file = common::write(
        &w.home,
        ".codex/hooks.json",
        &json!({ "hooks": hooks }).to_string(),
    );
    let user = w.home.join(".codex/config.toml");
    let toml_records = user_config_records(&user);
    // Reviewed: `echo a` and `echo c`; `echo b` and `echo d` not.
    let mut all: Vec<(String, String)> =
        hookx::dialect::codex::trust::records(&file, &json!({ "hooks": hooks }), &|_| true)
            .into_iter()
            .filter(|(key, _)| key.contains(":stop:0:0") || key.contains(":session_start:"))
            .collect();
    assert_eq!(all.len(), 2, "{all:?}");
    all.extend(toml_records);
    std::fs::write(
        &user,
        hookx::dialect::codex::trust::set(USER_CONFIG, &all).unwrap(),
    )
    .unwrap();
    let out = w
        .hookx(&["doctor", "--host", "codex", "--format", "json"])
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == "~/.codex/hooks.json")
        .map(|f| f["rules"].clone())
        .unwrap();
    let of = |event: &str| {
        rules
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["event"] == event)
            .map(|r| r["hosts"][0].clone())
            .unwrap()
    };
    assert_eq!(of("SessionStart")["status"], "fires", "{report:#}");
    assert_eq!(of("UserPromptSubmit")["status"], "blocked", "{report:#}");
    let stop = of("Stop");
    assert_eq!(stop["status"], "fires", "{report:#}");
    assert!(
        stop.to_string()
            .contains("1 of its 2 handlers is not reviewed in Codex as it is now"),
        "{stop:#}"
    );
    assert_eq!(stop.get("planned"), None, "{stop:#}");
}

/// `allow_managed_hooks_only = true` in the policy's `requirements.toml`: `list` shows it as the
/// policy writes it and runs only the policy's hooks under Codex (the live test,
/// `live_codex_managed.rs`, checks the same against the real client).
#[test]
fn list_obeys_allow_managed_hooks_only() {
    let w = World::new();
    common::write(
        &w.managed,
        "etc/codex/requirements.toml",
        "allow_managed_hooks_only = true\n\n[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"echo policy\" }]\n",
    );
    let text = stdout(w.hookx(&["list", "--host", "codex"]));
    assert!(
        text.contains("allow_managed_hooks_only = true in $HOOKX_MANAGED_ROOT/etc/codex/requirements.toml: Codex runs only managed hooks"),
        "{text}"
    );
    let rows: Vec<Value> = serde_json::from_str(&stdout(
        w.hookx(&["list", "--host", "codex", "--format", "json"]),
    ))
    .unwrap();
    let native: Vec<&str> = rows
        .iter()
        .filter(|r| r["run"] == "native")
        .filter_map(|r| r["handler"].as_str())
        .collect();
    assert_eq!(native, ["echo policy"], "{rows:?}");
}
