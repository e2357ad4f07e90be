//! `hookx install` and `--uninstall`, run as the real binary against temporary projects.

mod common;

use hookx::route::{is_hookx_entry, is_own_route, route_host};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const HOOKX: &str = "/opt/hookx/bin/hookx";

struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
    project: PathBuf,
    home: PathBuf,
}

impl Project {
    fn new() -> Project {
        Self::named("project")
    }

    fn named(name: &str) -> Project {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let project = root.join(name);
        let home = root.join("home");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        let p = Project {
            _dir: dir,
            root,
            project,
            home,
        };
        // Install routes only events with rules that hookx runs: give each host some.
        p.write(COPILOT_EVERY, &copilot_rules(&COPILOT_EVENTS));
        p.write(".bricks/hooks.json", &bricks_rules(&BRICKS_EVENTS));
        common::write(
            &p.home,
            ".copilot/hooks/every.json",
            &copilot_rules(&COPILOT_EVENTS),
        );
        p
    }

    /// `hookx ARGS… --project P --home H` with the environment pointing at the temporary home.
    fn hookx(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        // As the user whose home this is: the routes carry no `--home`.
        common::hookx_as_account_at(&self.project, &self.home, args)
    }

    fn stdout(&self, args: &[&str]) -> String {
        let out = self.hookx(args).success().get_output().stdout.clone();
        String::from_utf8(out).unwrap()
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        common::write(&self.project, rel, text)
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.project.join(rel)).unwrap()
    }

    fn json(&self, rel: &str) -> Value {
        serde_json::from_str(&self.read(rel)).unwrap()
    }

    /// Only a trusted Gemini rule in each scope (the project's and the home's), which appends
    /// its scope's name to the log returned (each scope's route routes its own rules' events).
    fn counting_rule_in_each_scope(&self) -> PathBuf {
        for file in [
            self.project.join(COPILOT_EVERY),
            self.project.join(".bricks/hooks.json"),
            self.home.join(".copilot/hooks/every.json"),
        ] {
            std::fs::remove_file(file).unwrap();
        }
        let log = self.root.join("ran.log");
        for (dir, scope) in [(&self.project, "project"), (&self.home, "user")] {
            common::write(
                dir,
                ".gemini/settings.json",
                &json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command",
                    "command": format!("echo {scope} >> '{}'", log.display())}]}]}})
                .to_string(),
            );
        }
        let home_rules = self.home.join(".gemini/settings.json");
        for trust in [
            &["trust", "--yes"][..],
            &["trust", "--yes", &home_rules.to_string_lossy()],
        ] {
            common::hookx_at(&self.project, &self.home, trust).success();
        }
        log
    }

    /// `hookx convert ARGS…` in the project, as the user whose home this is.
    fn convert(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        assert_cmd::Command::cargo_bin("hookx")
            .unwrap()
            .arg("convert")
            .args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env_remove("HOOKX_HOME")
            .env_remove("CODEX_HOME")
            .assert()
    }
}

const COPILOT_EVERY: &str = ".github/hooks/every.json";

const COPILOT_EVENTS: [&str; 13] = [
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "preToolUse",
    "permissionRequest",
    "postToolUse",
    "postToolUseFailure",
    "notification",
    "subagentStart",
    "subagentStop",
    "agentStop",
    "preCompact",
    "errorOccurred",
];

const BRICKS_EVENTS: [&str; 10] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "GoalUpdate",
];

/// A Copilot hook file with one handler on each of `events`.
fn copilot_rules(events: &[&str]) -> String {
    let hooks: serde_json::Map<String, Value> = events
        .iter()
        .map(|e| {
            (
                e.to_string(),
                json!([{"type": "command", "bash": "./copilot.sh"}]),
            )
        })
        .collect();
    json!({"version": 1, "hooks": hooks}).to_string()
}

/// The user's route key, which install writes on a route of the user's files.
fn key(home: &Path) -> String {
    let key = std::fs::read_to_string(home.join(".hookx/route-key")).unwrap();
    key.trim().to_string()
}

/// A Bricks hook file with one rule on each of `events`.
fn bricks_rules(events: &[&str]) -> String {
    let hooks: serde_json::Map<String, Value> = events
        .iter()
        .map(|e| {
            (
                e.to_string(),
                json!([{"matcher": "*", "hooks": [{"type": "command", "command": "./bricks.sh"}]}]),
            )
        })
        .collect();
    json!({"hooks": hooks}).to_string()
}

fn fixture_settings() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/projects/install/settings.json"),
    )
    .unwrap()
}

fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect()
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({snapshot_path => "../snapshots/install", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text);
    });
}

const SETTINGS: &str = ".claude/settings.json";

#[test]
fn install_keeps_every_other_key_and_hook_in_order() {
    let p = Project::new();
    p.write(SETTINGS, &fixture_settings());
    let original: Value = p.json(SETTINGS);
    let out = p.stdout(&["install", "--host", "claude", "--hookx", HOOKX]);
    assert!(
        out.starts_with("routed 13 claude events to hookx in .claude/settings.json: SessionStart"),
        "{out}"
    );
    let after = p.json(SETTINGS);
    assert_eq!(keys(&after), keys(&original));
    for key in ["$schema", "permissions", "env", "model"] {
        assert_eq!(after[key], original[key]);
    }
    let hooks = &after["hooks"];
    assert_eq!(
        &keys(hooks)[..4],
        ["PreToolUse", "Notification", "Stop", "TeammateIdle"]
    );
    assert_eq!(keys(hooks).len(), 4 + 10);
    // The user's groups come first, unchanged, field order included.
    for event in ["PreToolUse", "Notification", "Stop"] {
        // Marked as install's: only entries so marked are install's to edit.
        let route = json!({"hooks": [{"type": "command", "command": format!("/opt/hookx/bin/hookx run --host claude --event {event} --installed-in project"), "timeout": hookx::route::ROUTE_TIMEOUT, "hookx": {"created": "entry"}}]});
        let list = hooks[event].as_array().unwrap();
        assert_eq!(list[0], original["hooks"][event][0]);
        assert_eq!(list[1], route);
        assert_eq!(list.len(), 2);
    }
    assert_eq!(
        keys(&hooks["PreToolUse"][0]["hooks"][0]),
        ["timeout", "command", "type"]
    );
    // An event hookx does not route is untouched.
    assert_eq!(hooks["TeammateIdle"], original["hooks"]["TeammateIdle"]);
    snapshot("claude_settings", &p.read(SETTINGS));

    // The list shows the user's hooks, not the routes.
    let list = p.stdout(&["list"]);
    assert!(list.contains("13 hookx routes (not listed)"), "{list}");
    assert!(!list.contains("run --host"), "{list}");
}

#[test]
fn install_routes_only_the_events_with_rules_and_rerunning_follows_them() {
    let p = Project::new();
    std::fs::remove_file(p.project.join(".bricks/hooks.json")).unwrap();
    p.write(SETTINGS, &fixture_settings());
    let original = p.json(SETTINGS);
    p.write(COPILOT_EVERY, &copilot_rules(&["preToolUse", "agentStop"]));
    let out = p.stdout(&["install", "--host", "claude", "--hookx", HOOKX]);
    assert!(
        out.starts_with(
            "routed 2 claude events to hookx in .claude/settings.json: PreToolUse, Stop\n"
        ),
        "{out}"
    );
    // No new event key: the home's rules are for a user install to route.
    assert_eq!(keys(&p.json(SETTINGS)["hooks"]), keys(&original["hooks"]));
    assert_eq!(p.read(SETTINGS).matches(" run --host claude").count(), 2);

    // The rules move to other events: the routes follow, the user's own hooks stay.
    p.write(
        COPILOT_EVERY,
        &copilot_rules(&["sessionStart", "preToolUse"]),
    );
    let out = p.stdout(&["install", "--host", "claude", "--hookx", HOOKX]);
    assert!(
        out.contains("routed 1 claude events to hookx in .claude/settings.json: SessionStart\n"),
        "{out}"
    );
    assert!(
        out.contains("removed the routes of 1 events no rule needs any more: Stop\n"),
        "{out}"
    );
    let after = p.json(SETTINGS);
    assert_eq!(after["hooks"]["Stop"], original["hooks"]["Stop"]);
    assert_eq!(p.read(SETTINGS).matches(" run --host claude").count(), 2);

    // Without any rule hookx runs, nothing is routed and nothing written.
    std::fs::remove_file(p.project.join(COPILOT_EVERY)).unwrap();
    p.hookx(&["install", "--host", "claude", "--uninstall"])
        .success();
    let out = p.stdout(&["install", "--host", "claude", "--hookx", HOOKX]);
    assert!(out.starts_with("no claude events to route"), "{out}");
    assert_eq!(p.json(SETTINGS), original);
}

#[test]
fn installing_twice_adds_nothing() {
    let p = Project::new();
    p.write(SETTINGS, &fixture_settings());
    p.hookx(&["install", "--host", "claude", "--hookx", HOOKX])
        .success();
    let once = p.read(SETTINGS);
    let out = p.stdout(&["install", "--host", "claude", "--hookx", HOOKX]);
    assert!(
        out.starts_with("hookx is already installed for claude"),
        "{out}"
    );
    assert_eq!(p.read(SETTINGS), once);
}

#[test]
fn uninstall_leaves_exactly_the_original_hooks() {
    let p = Project::new();
    p.write(SETTINGS, &fixture_settings());
    let original = p.json(SETTINGS);
    p.hookx(&["install", "--host", "claude", "--hookx", HOOKX])
        .success();
    let out = p.stdout(&["install", "--host", "claude", "--uninstall"]);
    assert_eq!(
        out,
        "removed 13 hookx entries for claude from .claude/settings.json\n"
    );
    let after = p.json(SETTINGS);
    // Compared as text, so that the order of every key counts too.
    assert_eq!(
        serde_json::to_string(&after).unwrap(),
        serde_json::to_string(&original).unwrap()
    );
    let out = p.stdout(&["install", "--host", "claude", "--uninstall"]);
    assert_eq!(
        out,
        "no hookx entries for claude in .claude/settings.json\n"
    );
}

/// Issue 9: an install with a `--hookx` whose name does not say hookx (`hx` on PATH, a copy
/// at `/opt/bin/hx`) was not recognised as hookx's own: a second install added the routes again
/// and uninstall found none.
#[test]
fn routes_of_a_hookx_under_another_name_are_recognised_as_its_own() {
    for program in ["hx", "/opt/bin/hx"] {
        let p = Project::new();
        p.write(SETTINGS, &fixture_settings());
        let original = p.json(SETTINGS);
        p.hookx(&["install", "--host", "claude", "--hookx", program])
            .success();
        let once = p.read(SETTINGS);
        p.hookx(&["install", "--host", "claude", "--hookx", program])
            .success();
        assert_eq!(p.read(SETTINGS), once, "{program}: installed twice");
        let out = p.stdout(&["install", "--host", "claude", "--uninstall"]);
        assert_eq!(
            out, "removed 13 hookx entries for claude from .claude/settings.json\n",
            "{program}"
        );
        assert_eq!(p.json(SETTINGS), original, "{program}");
    }
}

/// Attacks row 1532: `--hookx` given as a path relative to the folder install ran in
/// (`bin/hookx`), or with a `~` the shell left (`--hookx=~/bin/hookx`), or starting with `-`.
/// The host runs the route in its own folder, where `bin/hookx` names another file, in another
/// project a repository's own, and the route named it without the guard a path gets (row
/// 1080); `~` quoted is never expanded; `-x` is a route hookx does not know again as its own.
/// Now the relative path is written absolute, as `--home` is, and the others are refused.
#[test]
fn install_writes_a_relative_hookx_absolute_and_refuses_what_no_route_runs() {
    let p = Project::new();
    let ran = |args: &[&str]| {
        common::hookx_clean(&p.root)
            .args(args)
            .arg("--project")
            .arg(&p.project)
            .arg("--home")
            .arg(&p.home)
            .env("HOME", &p.home)
            .assert()
    };
    let bin = p.root.join("bin/hookx");
    std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_hookx"), &bin).unwrap();
    let args = ["install", "--host", "claude", "--scope", "user"];
    let read = || -> Value {
        serde_json::from_str(&std::fs::read_to_string(p.home.join(SETTINGS)).unwrap()).unwrap()
    };
    ran(&[&args[..], &["--hookx=bin/hookx"]].concat()).success();
    let users = read();
    let line = users["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    let absolute = format!("[ -x {} ] && ", bin.display());
    assert!(line.starts_with(&absolute), "{line}");
    assert!(
        line.contains("; [ -e "),
        "the guard for a gone hookx: {line}"
    );
    for (given, why) in [
        ("~/bin/hookx", "`~` is not expanded"),
        ("-hookx", "starts with `-`"),
        ("", "empty"),
    ] {
        let given = format!("--hookx={given}");
        let out = ran(&[&args[..], &[given.as_str()]].concat()).code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains(why), "{given}: {stderr}");
    }
    assert_eq!(read(), users, "a refused --hookx changes nothing");
}

#[test]
fn uninstall_removes_a_file_that_only_held_hookx() {
    let p = Project::new();
    p.hookx(&["install", "--host", "copilot", "--hookx", HOOKX])
        .success();
    p.hookx(&["install", "--host", "claude", "--hookx", HOOKX])
        .success();
    assert!(p.project.join(".github/hooks/hookx.json").exists());
    let out = p.stdout(&["install", "--host", "copilot", "--uninstall"]);
    assert!(
        out.contains("and the file .github/hooks/hookx.json"),
        "{out}"
    );
    assert!(!p.project.join(".github/hooks/hookx.json").exists());
    p.hookx(&["install", "--host", "claude", "--uninstall"])
        .success();
    assert!(!p.project.join(SETTINGS).exists());
}

#[test]
fn a_project_path_with_spaces_quotes_and_dollars_runs_in_a_shell() {
    let p = Project::named(r#"it's a $HOME "dir" `x`"#);
    let program = p.project.join("bin/hookx");
    std::fs::create_dir_all(program.parent().unwrap()).unwrap();
    std::fs::write(
        &program,
        "#!/bin/sh\nprintf '%s\\n' \"$0\"\nfor a in \"$@\"; do printf '[%s]\\n' \"$a\"; done\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();

    let program_text = program.to_str().unwrap();
    p.hookx(&["install", "--host", "claude", "--hookx", program_text])
        .success();
    let settings = p.json(SETTINGS);
    let command = settings["hooks"]["Stop"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(is_hookx_entry(&command), "{command}");
    assert_eq!(route_host(&command).as_deref(), Some("claude"));
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(&command)
        .current_dir(&p.root)
        .env("HOME", "/nonexistent")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!(
            "{program_text}\n[run]\n[--host]\n[claude]\n[--event]\n[Stop]\n[--installed-in]\n[project]\n"
        )
    );

    // Bricks and Copilot get the same quoting.
    p.hookx(&["install", "--host", "copilot", "--hookx", program_text])
        .success();
    let copilot = p.json(".github/hooks/hookx.json");
    let bash = copilot["hooks"]["preToolUse"][0]["bash"].as_str().unwrap();
    let plain = command
        .replace("claude", "copilot")
        .replace("--event Stop", "--event preToolUse")
        // Copilot tells its routes apart by folder (`COPILOT_HOOK_DIR`).
        .replace(" --installed-in project", "");
    // Copilot takes a failed preToolUse hook for a deny: the route tests its hookx first (attacks
    // row 1143).
    let quoted = command.split(" run ").next().unwrap();
    assert_eq!(
        bash,
        format!("[ -x {quoted} ] && [ -s {quoted} ] && exec {plain}; exit 0")
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(bash)
        .current_dir(&p.root)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{program_text}\n[run]\n[--host]\n[copilot]\n[--event]\n[preToolUse]\n")
    );
}

#[test]
fn by_default_the_entries_run_this_hookx() {
    let p = Project::new();
    p.hookx(&["install", "--host", "bricks"]).success();
    let file = p.json(".bricks/hooks.json");
    // After the project's own Bricks rule.
    let command = file["hooks"]["PreToolUse"][1]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    let program = command
        .strip_suffix(" run --host bricks --event PreToolUse --installed-in project")
        .unwrap();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{program} --version"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("hookx "));
    assert!(
        Path::new(&program.trim_matches('\'')).is_absolute(),
        "{program}"
    );
}

#[test]
fn install_refuses_a_target_that_does_not_parse_and_leaves_it_alone() {
    let p = Project::new();
    let broken = "{\n  \"permissions\": {},\n  \"hooks\": {,}\n}\n";
    let path = p.write(SETTINGS, broken);
    let assert = p
        .hookx(&["install", "--host", "claude", "--hookx", HOOKX])
        .failure();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(stderr.contains("invalid JSON"), "{stderr}");
    assert_eq!(std::fs::read(&path).unwrap(), broken.as_bytes());
    p.hookx(&["install", "--host", "claude", "--uninstall"])
        .failure();
    assert_eq!(std::fs::read(&path).unwrap(), broken.as_bytes());

    // Well-formed JSON that is not a readable config is refused too.
    let odd = r#"{"hooks": {"Stop": "not a list"}}"#;
    p.write(SETTINGS, odd);
    let assert = p
        .hookx(&["install", "--host", "claude", "--hookx", HOOKX])
        .failure();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(
        stderr.contains("refusing to write into a file hookx cannot fully read"),
        "{stderr}"
    );
    assert_eq!(p.read(SETTINGS), odd);
}

#[test]
fn copilot_gets_its_own_file_in_its_own_shape() {
    let p = Project::new();
    p.write(
        ".github/hooks/team.json",
        r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./guard.sh"}]}}"#,
    );
    p.hookx(&["install", "--host", "copilot", "--hookx", HOOKX])
        .success();
    snapshot("copilot_file", &p.read(".github/hooks/hookx.json"));
    // The team's file is not touched, and discovery reads both.
    assert!(p.read(".github/hooks/team.json").contains("./guard.sh"));
    let list = p.stdout(&["list", "--host", "copilot"]);
    assert!(list.contains("9 hookx routes (not listed)"), "{list}");
    assert!(list.contains("./guard.sh"), "{list}");
}

#[test]
fn bricks_events_at_the_root_stay_at_the_root() {
    let p = Project::new();
    let original = r#"{"PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}"#;
    p.write(".bricks/hooks.json", original);
    p.hookx(&["install", "--host", "bricks", "--hookx", HOOKX])
        .success();
    let after = p.json(".bricks/hooks.json");
    assert!(after.get("hooks").is_none(), "{after}");
    assert_eq!(
        after["PreToolUse"][1],
        json!({"matcher": "*", "hooks": [{"type": "command", "command": "/opt/hookx/bin/hookx run --host bricks --event PreToolUse --installed-in project", "timeout": hookx::route::ROUTE_TIMEOUT, "hookx": {"created": "entry"}}]})
    );
    // The Bricks events of the project's Copilot rules.
    assert_eq!(keys(&after).len(), 8);
    p.hookx(&["install", "--host", "bricks", "--uninstall"])
        .success();
    assert_eq!(
        p.json(".bricks/hooks.json"),
        serde_json::from_str::<Value>(original).unwrap()
    );
}

#[test]
fn reinstalling_from_elsewhere_repoints_the_entries() {
    let p = Project::new();
    p.hookx(&["install", "--host", "claude", "--hookx", "/old/hookx"])
        .success();
    let out = p.stdout(&["install", "--host", "claude", "--hookx", "/new/hookx"]);
    assert!(
        out.starts_with("re-pointed 13 existing hookx entries"),
        "{out}"
    );
    let text = p.read(SETTINGS);
    assert!(!text.contains("/old/hookx"), "{text}");
    assert_eq!(
        text.matches("/new/hookx run --host claude --event ")
            .count(),
        13
    );
}

#[test]
fn user_scope_writes_the_users_file() {
    let p = Project::new();
    p.hookx(&[
        "install", "--host", "bricks", "--scope", "user", "--hookx", HOOKX,
    ])
    .success();
    assert!(p.home.join(".bricks-project-desktop/hooks.json").exists());
    assert!(!p.read(".bricks/hooks.json").contains(" run --host"));
    p.hookx(&[
        "install", "--host", "claude", "--scope", "user", "--hookx", HOOKX,
    ])
    .success();
    assert!(p.home.join(".claude/settings.json").exists());
}

#[test]
fn hookx_entries_are_recognised_however_they_are_quoted() {
    for (command, host) in [
        ("hookx run --host claude", Some("claude")),
        ("/usr/local/bin/hookx run --host bricks", Some("bricks")),
        ("'/a b/it'\\''s/hookx' run --host copilot", Some("copilot")),
        ("\"$HOME/bin/hookx\" run --host=claude", Some("claude")),
        ("  hookx.exe run   --host claude --verbose", Some("claude")),
        ("hookx exec --as bricks -- ./x.sh", None),
        ("echo hookx run --host claude", None),
        ("/bin/hookxy run", None),
        (
            "/opt/bin/hx run --host claude --event PreToolUse",
            Some("claude"),
        ),
        ("hx run --host copilot --event preToolUse", Some("copilot")),
        ("./check.sh run --host claude", None),
        ("hx run --host nosuch --event Stop", None),
        ("make run --host claude --verbose", None),
        ("'unterminated run --host claude", None),
        ("", None),
    ] {
        assert_eq!(route_host(command).as_deref(), host, "{command}");
        assert_eq!(is_hookx_entry(command), host.is_some(), "{command}");
    }
}

/// Runs hookx under `umask`, as a shell would start it.
#[cfg(unix)]
fn hookx_with_umask(p: &Project, umask: &str, args: &[&str]) {
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$@\""))
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_hookx"))
        .args(args)
        .arg("--project")
        .arg(&p.project)
        .arg("--home")
        .arg(&p.home)
        .env("HOME", &p.home)
        .env_remove("HOOKX_HOME")
        .status()
        .unwrap();
    assert!(status.success());
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

#[test]
fn uninstall_gives_back_the_file_byte_for_byte() {
    // CRLF, tabs, inline arrays, numbers as written, keys in the user's order, hooks of their own.
    let original = "{\r\n\t\"z\": 1e3,\r\n\t\"big\": 18446744073709551616,\r\n\t\"f\": 1.0,\r\n\t\"permissions\": {\"allow\": [\"Bash(ls)\",\"Read\"]},\r\n\t\"hooks\": {\r\n\t\t\"Stop\": [ { \"hooks\": [ { \"type\": \"command\", \"command\": \"echo stop\", \"timeout\": 5 } ] } ]\r\n\t}\r\n}\r\n";
    let minified = r#"{"b":[1,2],"a":{"x":1E+2}}"#;
    for (host, file, text) in [
        ("claude", SETTINGS, original),
        ("claude", SETTINGS, minified),
        (
            "copilot",
            ".github/hooks/hookx.json",
            "{\n    \"version\": 1,\n    \"x\": [1, 2]\n}",
        ),
        (
            "bricks",
            ".bricks/hooks.json",
            "{\"Stop\": [{\"matcher\": \"*\", \"hooks\": [{\"type\": \"command\", \"command\": \"true\"}]}]}\n",
        ),
    ] {
        let p = Project::new();
        p.write(file, text);
        p.hookx(&["install", "--host", host, "--hookx", HOOKX])
            .success();
        let installed = p.read(file);
        assert!(installed.contains(HOOKX), "{installed}");
        if text.contains("\r\n") {
            assert!(
                !installed.replace("\r\n", "").contains('\n'),
                "a bare LF: {installed:?}"
            );
        }
        p.hookx(&["install", "--host", host, "--uninstall"])
            .success();
        assert_eq!(p.read(file), text, "{host}, installed as:\n{installed}");
    }
}

/// The user's own empty containers stay (attacks row 181): a `hooks` object or an event list
/// that was there before install comes back from uninstall, byte for byte; only what install
/// added goes (the route's record says what it created), and never the file.
#[test]
fn uninstall_keeps_a_file_the_user_made() {
    for text in [
        "{}\n",
        "{\"hooks\": {}}",
        "{\n  \"hooks\": {}\n}\n",
        "{\"hooks\": {\"PreToolUse\": []}}",
        "{\"hooks\": {\"PreToolUse\": [], \"Stop\": []}, \"model\": \"x\"}",
    ] {
        let p = Project::new();
        p.write(SETTINGS, text);
        // Twice: the second install must not forget what the first created.
        for _ in 0..2 {
            p.hookx(&["install", "--host", "claude", "--hookx", HOOKX])
                .success();
        }
        let installed = p.read(SETTINGS);
        assert!(installed.contains(HOOKX), "{installed}");
        let out = p.stdout(&["install", "--host", "claude", "--uninstall"]);
        assert!(!out.contains("and the file"), "{out}");
        assert_eq!(p.read(SETTINGS), text, "installed as:\n{installed}");
    }
}

#[cfg(unix)]
#[test]
fn user_scope_writes_through_a_symlinked_settings_file() {
    // A dotfiles setup: ~/.claude/settings.json is a link into a dotfiles repository.
    let p = Project::new();
    let real = common::write(
        &p.root,
        "dotfiles/claude/settings.json",
        "{\n  \"model\": \"x\"\n}\n",
    );
    let link = p.home.join(".claude/settings.json");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("../../dotfiles/claude/settings.json", &link).unwrap();
    p.hookx(&[
        "install", "--host", "claude", "--scope", "user", "--hookx", HOOKX,
    ])
    .success();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let text = std::fs::read_to_string(&real).unwrap();
    assert!(
        text.contains(HOOKX) && text.contains("\"model\": \"x\""),
        "{text}"
    );
    p.hookx(&[
        "install",
        "--host",
        "claude",
        "--scope",
        "user",
        "--uninstall",
    ])
    .success();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(&real).unwrap(),
        "{\n  \"model\": \"x\"\n}\n"
    );
}

/// Attacks row 280: install created `~/.claude/settings.json`; the user then moved it (or its
/// folder) into a dotfiles folder and linked it back (`stow`). The last uninstall deleted the
/// file the link names, the user's dotfiles file.
#[test]
fn the_last_uninstall_keeps_a_file_the_user_linked_in_since_the_install() {
    for folder_too in [false, true] {
        let p = Project::new();
        let link = p.home.join(".claude/settings.json");
        p.hookx(&[
            "install", "--host", "claude", "--scope", "user", "--hookx", HOOKX,
        ])
        .success();
        let dotfiles = p.root.join("dotfiles/claude");
        std::fs::create_dir_all(p.root.join("dotfiles")).unwrap();
        if folder_too {
            std::fs::rename(link.parent().unwrap(), &dotfiles).unwrap();
            std::os::unix::fs::symlink(&dotfiles, link.parent().unwrap()).unwrap();
        } else {
            std::fs::create_dir_all(&dotfiles).unwrap();
            std::fs::rename(&link, dotfiles.join("settings.json")).unwrap();
            std::os::unix::fs::symlink(dotfiles.join("settings.json"), &link).unwrap();
        }
        p.hookx(&[
            "install",
            "--host",
            "claude",
            "--scope",
            "user",
            "--uninstall",
        ])
        .success();
        let left = std::fs::read_to_string(dotfiles.join("settings.json"));
        let left: Value = serde_json::from_str(&left.expect("the dotfiles file")).unwrap();
        assert_eq!(left, json!({}), "folder linked: {folder_too}");
        assert!(link.exists(), "folder linked: {folder_too}");
    }
}

/// Attacks row 292, row 280 for the files install writes whole (OpenCode's and Kilo's plugin,
/// Kiro's rule list): the user moved hookx's file into a dotfiles folder and linked it back.
/// An install from elsewhere writes through the link (the link stays); the uninstall deleted
/// the file the link names, the link left dangling. Now it leaves that file routing nothing,
/// in a form the next install takes back as hookx's own.
#[cfg(unix)]
#[test]
fn the_uninstall_keeps_a_whole_file_of_hookxs_the_user_linked_in() {
    for (host, rel) in [
        ("opencode", ".config/opencode/plugin/hookx.js"),
        ("kilo", ".config/kilo/plugin/hookx.js"),
        ("kiro", ".kiro/hooks/hookx.json"),
    ] {
        let p = Project::new();
        let install = ["install", "--host", host, "--scope", "user"];
        p.hookx(&[&install[..], &["--hookx", HOOKX]].concat())
            .success();
        let link = p.home.join(rel);
        let dotfiles = p.root.join("dotfiles").join(link.file_name().unwrap());
        std::fs::create_dir_all(dotfiles.parent().unwrap()).unwrap();
        std::fs::rename(&link, &dotfiles).unwrap();
        std::os::unix::fs::symlink(&dotfiles, &link).unwrap();
        p.hookx(&[&install[..], &["--hookx", "/opt/b/hookx"]].concat())
            .success();
        assert!(link.is_symlink(), "{host}");
        assert!(
            std::fs::read_to_string(&dotfiles)
                .unwrap()
                .contains("/opt/b/hookx"),
            "{host}"
        );
        p.hookx(&[&install[..], &["--uninstall"]].concat())
            .success();
        assert!(link.is_symlink(), "{host}: the link");
        let left = std::fs::read_to_string(&dotfiles).expect("the dotfiles file");
        assert!(!left.contains("hookx run"), "{host}: a route left: {left}");
        // Taken back as hookx's: installed again, through the link.
        p.hookx(&[&install[..], &["--hookx", HOOKX]].concat())
            .success();
        assert!(link.is_symlink(), "{host}");
        assert!(
            std::fs::read_to_string(&dotfiles).unwrap().contains(HOOKX),
            "{host}"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_new_file_gets_the_umask_mode_and_an_old_one_keeps_its_own() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::new();
    hookx_with_umask(
        &p,
        "022",
        &["install", "--host", "claude", "--hookx", HOOKX],
    );
    assert_eq!(mode(&p.project.join(SETTINGS)), 0o644);
    let copilot = p.write(
        ".github/hooks/hookx.json",
        "{\"version\": 1, \"hooks\": {}}",
    );
    std::fs::set_permissions(&copilot, std::fs::Permissions::from_mode(0o640)).unwrap();
    hookx_with_umask(
        &p,
        "077",
        &["install", "--host", "copilot", "--hookx", HOOKX],
    );
    assert!(p.read(".github/hooks/hookx.json").contains(HOOKX));
    assert_eq!(mode(&copilot), 0o640);
}

/// Attacks row 281: `install --host codex --scope user` with `CODEX_HOME` naming another folder
/// writes the route below the home (`~/.codex/hooks.json`, with a warning that Codex does not
/// read it while the variable is set), and wrote its review record into
/// `$CODEX_HOME/config.toml`: a record Codex reads only where it does not read the route, so
/// the route was unreviewed wherever Codex reads it (without the variable) and ran nowhere.
/// The record goes beside the route, in `~/.codex/config.toml`.
#[test]
fn a_user_route_written_below_the_home_is_reviewed_below_the_home() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "./guard.sh"}]}]}})
        .to_string(),
    );
    let elsewhere = p.root.join("codex-work");
    std::fs::create_dir_all(&elsewhere).unwrap();
    assert_cmd::Command::cargo_bin("hookx")
        .unwrap()
        .args(["install", "--host", "codex", "--scope", "user"])
        .args(["--hookx", HOOKX, "--project"])
        .arg(&p.project)
        .arg("--home")
        .arg(&p.home)
        .env("HOME", &p.home)
        .env("CODEX_HOME", &elsewhere)
        .env_remove("HOOKX_HOME")
        .assert()
        .success();
    let hooks_path = p.home.join(".codex/hooks.json");
    let hooks: Value =
        serde_json::from_str(&std::fs::read_to_string(&hooks_path).unwrap()).unwrap();
    let records = hookx::dialect::codex::trust::records(&hooks_path, &hooks, &is_own_route);
    assert!(!records.is_empty());
    let config = std::fs::read_to_string(p.home.join(".codex/config.toml")).unwrap_or_default();
    for (key, _) in &records {
        assert!(config.contains(key.as_str()), "{key} not in {config:?}");
    }
}

/// Attacks row 284: Codex keys its review of a handler by its place
/// (`FILE:event:group:handler`). A handler of the user's after hookx's route in
/// `.codex/hooks.json`, reviewed in Codex, moved up a place when the uninstall took the route
/// out, and its review stayed at the old place: Codex skipped it as unreviewed, without a word.
#[test]
fn the_users_codex_handlers_keep_their_review_when_hookxs_routes_go() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "./guard.sh"}]}]}})
        .to_string(),
    );
    p.hookx(&["trust", "--yes"]).success();
    p.hookx(&["install", "--host", "codex", "--hookx", HOOKX])
        .success();
    let hooks_path = p.project.join(".codex/hooks.json");
    let mut hooks = p.json(".codex/hooks.json");
    let groups = hooks["hooks"]["PreToolUse"].as_array_mut().unwrap();
    let at = groups.len();
    groups.push(json!({"matcher": "Bash",
        "hooks": [{"type": "command", "command": "./mine.sh"}]}));
    p.write(".codex/hooks.json", &hooks.to_string());
    let users = |hooks: &Value| {
        hookx::dialect::codex::trust::records(&hooks_path, hooks, &|h| !is_own_route(h))
    };
    let [(key, hash)] = users(&hooks).try_into().unwrap();
    assert!(key.ends_with(&format!(":pre_tool_use:{at}:0")), "{key}");
    let config = p.home.join(".codex/config.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str(&format!(
        "\n[hooks.state.\"{key}\"]\ntrusted_hash = \"{hash}\"\n"
    ));
    std::fs::write(&config, text).unwrap();
    p.hookx(&["install", "--host", "codex", "--uninstall"])
        .success();
    let [(moved, same)] = users(&p.json(".codex/hooks.json")).try_into().unwrap();
    assert_ne!(moved, key);
    assert_eq!(same, hash);
    let text = std::fs::read_to_string(&config).unwrap();
    let value: toml_edit::DocumentMut = text.parse().unwrap();
    assert_eq!(
        value["hooks"]["state"]
            .get(moved.as_str())
            .and_then(|r| r.get("trusted_hash"))
            .and_then(|h| h.as_str()),
        Some(hash.as_str()),
        "{text}"
    );
    assert!(!text.contains(key.as_str()), "{text}");
}

/// Attacks row 320: Codex turns off the handler at a place (`[hooks.state."KEY"] enabled =
/// false`) whatever sits there. The user turned off a handler of theirs after hookx's route;
/// the uninstall moved it up a place and left its off switch behind, and the next install put
/// the route there: Codex 0.171.0 listed the route `enabled: false` (live), install said it
/// recorded the review. The same for a switch left by a handler the user deleted.
#[test]
fn a_route_install_writes_where_codex_keeps_another_handlers_off_switch_runs() {
    for form in ["moved by the uninstall", "left by a deleted handler"] {
        let p = Project::new();
        p.write(
            ".claude/settings.json",
            &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": "./guard.sh"}]}]}})
            .to_string(),
        );
        p.hookx(&["trust", "--yes"]).success();
        let hooks_path = p.project.join(".codex/hooks.json");
        let config = p.home.join(".codex/config.toml");
        let mine = json!({"matcher": "Bash",
            "hooks": [{"type": "command", "command": "./mine.sh"}]});
        let off = |key: &str| {
            let mut text = std::fs::read_to_string(&config).unwrap_or_default();
            text.push_str(&format!("\n[hooks.state.\"{key}\"]\nenabled = false\n"));
            common::write(&p.home, ".codex/config.toml", &text);
        };
        match form {
            "moved by the uninstall" => {
                p.hookx(&["install", "--host", "codex", "--hookx", HOOKX])
                    .success();
                let mut hooks = p.json(".codex/hooks.json");
                let groups = hooks["hooks"]["PreToolUse"].as_array_mut().unwrap();
                let at = groups.len();
                groups.push(mine.clone());
                p.write(".codex/hooks.json", &hooks.to_string());
                off(&format!("{}:pre_tool_use:{at}:0", hooks_path.display()));
                p.hookx(&["install", "--host", "codex", "--uninstall"])
                    .success();
            }
            _ => {
                p.write(
                    ".codex/hooks.json",
                    &json!({"hooks": {"PreToolUse": [mine.clone()]}}).to_string(),
                );
                off(&format!("{}:pre_tool_use:1:0", hooks_path.display()));
            }
        }
        p.hookx(&["install", "--host", "codex", "--hookx", HOOKX])
            .success();
        let routes = hookx::dialect::codex::trust::records(
            &hooks_path,
            &p.json(".codex/hooks.json"),
            &is_own_route,
        );
        let text = std::fs::read_to_string(&config).unwrap();
        assert!(!routes.is_empty(), "{form}");
        for (key, hash) in routes {
            assert_eq!(
                hookx::dialect::codex::trust::recorded(&text, &key),
                Some(hash),
                "{form}: Codex runs the route at {key}:\n{text}"
            );
        }
    }
}

/// Attacks row 285: row 284 through `convert --write`: a Claude rule taken out of the source
/// takes its copy out of `.codex/hooks.json`, and the user's handler after it, reviewed in
/// Codex, moved up a place without its review.
#[test]
fn the_users_codex_handlers_keep_their_review_when_a_convert_moves_them() {
    let p = Project::new();
    let rule = |command: &str| json!({"matcher": "Bash", "hooks": [{"type": "command", "command": command}]});
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [rule("./guard.sh")]}}).to_string(),
    );
    let convert = || {
        p.convert(&[
            ".claude/settings.json",
            "--to",
            "codex",
            "--write",
            "--hookx",
            HOOKX,
        ])
        .success()
    };
    convert();
    let hooks_path = p.project.join(".codex/hooks.json");
    let mut hooks = p.json(".codex/hooks.json");
    hooks["hooks"]["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(rule("./mine.sh"));
    p.write(".codex/hooks.json", &hooks.to_string());
    let mine = |hooks: &Value| {
        hookx::dialect::codex::trust::records(&hooks_path, hooks, &|h| h["command"] == "./mine.sh")
    };
    let [(key, hash)] = mine(&hooks).try_into().unwrap();
    common::write(
        &p.home,
        ".codex/config.toml",
        &format!("[hooks.state.\"{key}\"]\ntrusted_hash = \"{hash}\"\n"),
    );
    p.write(".claude/settings.json", &json!({"hooks": {}}).to_string());
    convert();
    let [(moved, _)] = mine(&p.json(".codex/hooks.json")).try_into().unwrap();
    assert_ne!(moved, key, "the copy before it went");
    let text = std::fs::read_to_string(p.home.join(".codex/config.toml")).unwrap();
    assert_eq!(
        hookx::dialect::codex::trust::recorded(&text, &moved),
        Some(hash),
        "{text}"
    );
}

/// Attacks row 630: the team loop in the order convert, install, convert again. The Claude
/// rules' copies in `.codex/hooks.json`, never reviewed in Codex, and hookx's route after them
/// (install writes Codex's review of it); then a Claude rule is taken out and the file
/// converted again: its copy goes, the route moves up a place, and its review stayed at the
/// old place. Codex skipped the route: every guard it ran under Codex ran nowhere, silently.
#[test]
fn hookxs_codex_route_keeps_its_review_when_a_convert_moves_it() {
    let p = Project::new();
    let rule = |command: &str| json!({"matcher": "Bash", "hooks": [{"type": "command", "command": command}]});
    let source = |rules: Vec<Value>| json!({"hooks": {"PreToolUse": rules}}).to_string();
    p.write(
        ".claude/settings.json",
        &source(vec![rule("./one.sh"), rule("./two.sh")]),
    );
    let convert = || {
        p.convert(&[
            ".claude/settings.json",
            "--to",
            "codex",
            "--write",
            "--hookx",
            HOOKX,
        ])
        .success()
    };
    convert();
    p.hookx(&["trust", "--yes"]).success();
    p.hookx(&["install", "--host", "codex", "--hookx", HOOKX])
        .success();
    let hooks_path = p.project.join(".codex/hooks.json");
    let route = |p: &Project| {
        let records = hookx::dialect::codex::trust::records(
            &hooks_path,
            &p.json(".codex/hooks.json"),
            &is_own_route,
        );
        let mut on_the_guards = records
            .into_iter()
            .filter(|(k, _)| k.contains(":pre_tool_use:"));
        on_the_guards.next().expect("a PreToolUse route")
    };
    let (before, _) = route(&p);
    p.write(".claude/settings.json", &source(vec![rule("./two.sh")]));
    p.hookx(&["trust", "--yes"]).success();
    convert();
    let (key, hash) = route(&p);
    assert_ne!(key, before, "the copy before it went");
    let text = std::fs::read_to_string(p.home.join(".codex/config.toml")).unwrap();
    assert_eq!(
        hookx::dialect::codex::trust::recorded(&text, &key),
        Some(hash),
        "Codex skips the route at {key}:\n{text}"
    );
}

/// Attacks row 627: hookx moved (an upgrade to another path) and routes installed again,
/// the copies still calling the old path. Such a copy does not stand in for its rule, so
/// Claude runs it and the new route runs the rule too: install said nothing of it.
#[test]
fn install_says_where_a_copy_calling_another_hookx_runs_beside_the_route() {
    let p = Project::new();
    p.write(
        ".gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": "./g.sh"}]}]}})
        .to_string(),
    );
    p.convert(&[
        ".gemini/settings.json",
        "--to",
        "claude",
        "--write",
        "--hookx",
        "/opt/hookx-before-the-upgrade/hookx",
    ])
    .success();
    p.hookx(&["trust", "--yes"]).success();
    let out = p
        .hookx(&["install", "--host", "claude", "--hookx", HOOKX])
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains("runs twice")
            && err.contains("claude also runs the copy in .claude/settings.json"),
        "{err}"
    );
}

/// Attacks row 287: the last uninstall of a Codex route in a home without `~/.codex`: install
/// made the folder, `hooks.json` and `config.toml` (the route's review); the uninstall left an
/// empty `config.toml`, and so the folder (which hookx's own presence check takes for Codex
/// being used).
#[test]
fn the_last_codex_uninstall_leaves_no_empty_review_file() {
    let p = Project::new();
    common::write(
        &p.home,
        ".gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": "/bin/true"}]}]}})
        .to_string(),
    );
    let user = ["install", "--host", "codex", "--scope", "user"];
    p.hookx(&[&user[..], &["--hookx", HOOKX]].concat())
        .success();
    assert!(p.home.join(".codex/config.toml").exists());
    p.hookx(&[&user[..], &["--uninstall"]].concat()).success();
    assert!(!p.home.join(".codex").exists());
}

/// Attacks row 540: the user put a guard of theirs in front of hookx's route line
/// (`./my-guard.sh && hookx run …`, in the entry install marked). A re-point (hookx moved) wrote
/// the route line anew over it, and an uninstall took the entry away: the user's guard, a deny
/// the host runs natively, went without a word. As a Cline route script edited by hand (row
/// 328), the entry is left as it is and said; hookx's review of it is not recorded (Codex): it
/// runs a line nobody reviewed.
#[test]
fn a_route_the_user_edited_keeps_their_line_through_a_re_point_and_an_uninstall() {
    for host in ["gemini", "claude", "codex"] {
        let p = Project::new();
        common::write(
            &p.project,
            ".gemini/guard.json",
            &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
                "hooks": [{"type": "command", "command": "/bin/true"}]}]}})
            .to_string(),
        );
        p.write(
            ".claude/settings.json",
            &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": "/bin/true"}]}]}})
            .to_string(),
        );
        let install = |hookx: &str, more: &[&str]| {
            let mut args = vec![
                "install", "--host", host, "--scope", "user", "--hookx", hookx,
            ];
            args.extend_from_slice(more);
            p.hookx(&args).success()
        };
        let file = p.home.join(match host {
            "gemini" => ".gemini/settings.json",
            "claude" => ".claude/settings.json",
            _ => ".codex/hooks.json",
        });
        let event = match host {
            "gemini" => "BeforeTool",
            _ => "PreToolUse",
        };
        let read =
            || -> Value { serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap() };
        install("/opt/a/hookx", &[]);
        let mut settings = read();
        let line = settings["hooks"][event][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_string();
        let route = common::unguarded_route(&line);
        assert!(route.starts_with("/opt/a/hookx run"), "{host}: {line}");
        let edited = format!("./my-guard.sh && {line}");
        settings["hooks"][event][0]["hooks"][0]["command"] = json!(edited);
        std::fs::write(&file, settings.to_string()).unwrap();
        let mine = settings["hooks"][event].clone();
        // Codex's review of the route (install's record, of the line it wrote).
        let review = || {
            let text =
                std::fs::read_to_string(p.home.join(".codex/config.toml")).unwrap_or_default();
            text.split("\n\n")
                .find(|record| record.contains(":pre_tool_use:0:0\""))
                .map(str::to_string)
        };
        let reviewed = review();
        let out = install("/opt/b/hookx", &[]).get_output().stderr.clone();
        let said = String::from_utf8_lossy(&out);
        assert_eq!(read()["hooks"][event], mine, "{host}: {said}");
        assert!(
            said.contains("edited by hand, left as it is"),
            "{host}: {said}"
        );
        assert_eq!(review(), reviewed, "no review recorded of the user's line");
        let out = install("/opt/b/hookx", &["--uninstall"])
            .get_output()
            .stderr
            .clone();
        let said = String::from_utf8_lossy(&out);
        assert_eq!(read()["hooks"], json!({ event: mine }), "{host}: {said}");
        assert!(
            said.contains("edited by hand, left as it is"),
            "{host}: {said}"
        );
    }
}

/// Attacks row 291: the user turned hookx's Gemini route off in Gemini's own list
/// (`hooksConfig.disabled`, by its command); install re-pointing the route (hookx elsewhere)
/// changed the command, the list kept the old one, and Gemini ran the route again. Row 322: the
/// same in a settings file holding a comment (Gemini reads comments, gemini-facts): the list
/// did not follow.
#[test]
fn a_route_the_user_turned_off_in_gemini_stays_off_when_reinstalled_from_elsewhere() {
    for comment in ["", "// my settings\n"] {
        let p = Project::new();
        common::write(
            &p.home,
            ".claude/settings.json",
            &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": "/bin/true"}]}]}})
            .to_string(),
        );
        let install = |hookx: &str| {
            p.hookx(&[
                "install", "--host", "gemini", "--scope", "user", "--hookx", hookx,
            ])
            .success();
        };
        install("/opt/a/hookx");
        let file = p.home.join(".gemini/settings.json");
        let read = || -> Value {
            let text = std::fs::read_to_string(&file).unwrap();
            serde_json::from_str(&text.replace(comment, "")).unwrap()
        };
        let command = |v: &Value| v["hooks"]["BeforeTool"][0]["hooks"][0]["command"].clone();
        let mut settings = read();
        settings["hooksConfig"] = json!({"disabled": [command(&settings), "./mine.sh"]});
        std::fs::write(&file, format!("{comment}{settings}")).unwrap();
        let listed = command(&read());
        install("/opt/b/hookx");
        let settings = read();
        assert!(
            common::unguarded_route(command(&settings).as_str().unwrap())
                .starts_with("/opt/b/hookx run")
        );
        // Row 333: the route keeps its label (Gemini's `name`, else command), the list its.
        assert_eq!(
            settings["hooks"]["BeforeTool"][0]["hooks"][0]["name"],
            listed
        );
        assert_eq!(
            settings["hooksConfig"]["disabled"],
            json!([listed, "./mine.sh"]),
            "{comment:?}"
        );
    }
}

/// Attacks row 333: Gemini's `/hooks disable` lists hookx's user route in the project's
/// `.gemini/settings.json` (the Workspace scope), by the route's label (`name`, else command:
/// live 0.61.0, `live_gemini::a_route_turned_off_in_a_project_stays_off_when_re_pointed`).
/// Install re-pointing the user route (hookx moved) cannot reach that list, in this project or
/// any other: the route keeps the label the list names, so it stays off there. Installed
/// again from the same place, or a second time from the new one, nothing changes.
#[test]
fn a_route_turned_off_in_another_scopes_list_keeps_its_label_when_re_pointed() {
    let p = Project::new();
    common::write(
        &p.home,
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "/bin/true"}]}]}})
        .to_string(),
    );
    let install = |hookx: &str| {
        p.hookx(&[
            "install", "--host", "gemini", "--scope", "user", "--hookx", hookx,
        ])
        .success();
    };
    let file = p.home.join(".gemini/settings.json");
    let route = || -> Value {
        let settings: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        settings["hooks"]["BeforeTool"][0]["hooks"][0].clone()
    };
    let label = |route: &Value| route.get("name").unwrap_or(&route["command"]).clone();
    install("/opt/a/hookx");
    let listed = label(&route());
    assert!(common::unguarded_route(listed.as_str().unwrap()).starts_with("/opt/a/hookx run"));
    let project = &json!({"hooksConfig": {"disabled": [listed]}}).to_string();
    common::write(&p.project, ".gemini/settings.json", project);
    install("/opt/a/hookx");
    assert_eq!(route().get("name"), None, "not re-pointed: no new key");
    for _ in 0..2 {
        install("/opt/b/hookx");
        let now = route();
        assert!(
            common::unguarded_route(now["command"].as_str().unwrap())
                .starts_with("/opt/b/hookx run")
        );
        assert_eq!(label(&now), listed, "{now}");
    }
    let text = std::fs::read_to_string(p.project.join(".gemini/settings.json")).unwrap();
    assert_eq!(&text, project, "the project's list is the user's");
}

/// Attacks row 329: row 291 for `convert --write`: the user turned a converted copy off in
/// Gemini's own list (`hooksConfig.disabled`, by its command: a slow check they want only
/// under Claude); converting again with hookx named elsewhere (`--hookx`) changed the copy's
/// command, the list kept the old one, and Gemini ran the copy again.
#[test]
fn a_copy_the_user_turned_off_in_gemini_stays_off_when_converted_again() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "./slow-check.sh"}]}]}})
        .to_string(),
    );
    let convert = |hookx: &str| {
        p.convert(&[
            ".claude/settings.json",
            "--to",
            "gemini",
            "--write",
            "--hookx",
            hookx,
        ])
        .success()
    };
    convert("/opt/a/hookx");
    let command = |v: &Value| v["hooks"]["BeforeTool"][0]["hooks"][0]["command"].clone();
    let mut settings = p.json(".gemini/settings.json");
    settings["hooksConfig"] = json!({"disabled": [command(&settings), "./mine.sh"]});
    p.write(".gemini/settings.json", &settings.to_string());
    convert("/opt/b/hookx");
    let settings = p.json(".gemini/settings.json");
    assert!(
        command(&settings)
            .as_str()
            .unwrap()
            .contains("/opt/b/hookx exec"),
        "{settings:#}"
    );
    assert_eq!(
        settings["hooksConfig"]["disabled"],
        json!([command(&settings), "./mine.sh"])
    );
}

/// Attacks row 362: row 329's fix followed a listed label by the copy's place alone (its
/// record's rule): the user turned off a slow check's copy in Gemini's list, then deleted the
/// check from the source; converting again put the trusted guard after it in its place, and
/// the label followed onto the guard's copy: Gemini skipped the guard, its deny lost. The same
/// for Copilot's `disabledHooks` (row 360).
#[test]
fn a_label_the_user_listed_does_not_follow_onto_another_rules_copy() {
    for to in ["copilot", "gemini"] {
        let p = Project::new();
        let rules = |commands: &[&str]| {
            let groups: Vec<Value> = commands
                .iter()
                .map(|c| json!({"matcher": "Bash", "hooks": [{"type": "command", "command": c}]}))
                .collect();
            p.write(
                ".claude/settings.json",
                &json!({"hooks": {"PreToolUse": groups}}).to_string(),
            );
            p.write(
                ".gemini/source.json",
                &json!({"hooks": {"BeforeTool": commands.iter().map(|c| json!({"matcher":
                    "run_shell_command", "hooks": [{"type": "command", "command": c}]}))
                    .collect::<Vec<_>>()}})
                .to_string(),
            );
        };
        // Copilot reads Claude's files itself: its copies come from a Gemini file.
        let source = match to {
            "copilot" => ".gemini/source.json",
            _ => ".claude/settings.json",
        };
        let convert = || {
            p.convert(&[
                "--to",
                to,
                "--write",
                "--hookx",
                "/opt/a/hookx",
                "--from",
                if to == "copilot" { "gemini" } else { "claude" },
                source,
            ])
            .success()
        };
        rules(&["./slow-check.sh", "./guard.sh"]);
        convert();
        // The label of each copy, as the agent lists it.
        let labels = || -> Vec<String> {
            match to {
                "gemini" => {
                    let v = p.json(".gemini/settings.json");
                    v["hooks"]["BeforeTool"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|g| g["hooks"][0]["command"].as_str().unwrap().to_string())
                        .collect()
                }
                _ => {
                    let v = p.json(".github/hooks/hooks.json");
                    v["hooks"]["preToolUse"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|e| {
                            let mut e = e.clone();
                            e.as_object_mut().unwrap().remove("hookx");
                            hookx::hash::sha256_hex(format!("preToolUse\0{e}").as_bytes())
                        })
                        .collect()
                }
            }
        };
        let slow = labels()[0].clone();
        let listed = || -> Value {
            match to {
                "gemini" => p.json(".gemini/settings.json")["hooksConfig"]["disabled"].clone(),
                _ => {
                    let text = std::fs::read_to_string(p.home.join(".copilot/settings.json"));
                    serde_json::from_str::<Value>(&text.unwrap()).unwrap()["disabledHooks"].clone()
                }
            }
        };
        match to {
            "gemini" => {
                let mut settings = p.json(".gemini/settings.json");
                settings["hooksConfig"] = json!({"disabled": [slow]});
                p.write(".gemini/settings.json", &settings.to_string());
            }
            _ => {
                common::write(
                    &p.home,
                    ".copilot/settings.json",
                    &json!({"disabledHooks": [slow]}).to_string(),
                );
            }
        }
        rules(&["./guard.sh"]);
        convert();
        let now = labels();
        assert_eq!(now.len(), 1, "{to}");
        assert_ne!(
            listed(),
            json!([now[0]]),
            "{to}: the guard's copy is listed off"
        );
    }
}

/// Attacks row 369: Codex keys a handler's switch by its place as it keys the review (row 320).
/// Two rules converted into `.codex/hooks.json`, a slow check then the user's guard; the user
/// turned the check's copy off in Codex (`enabled = false` at `:0:0`) and reviewed the guard's;
/// then deleted the check from the source. Converting again moved the guard's copy, with its
/// review, into `:0:0`, where the check's `enabled = false` stayed: Codex skipped the guard.
#[test]
fn a_codex_copy_moved_into_a_deleted_copys_place_does_not_take_its_off_switch() {
    let p = Project::new();
    let rule = |command: &str| json!({"matcher": "Bash", "hooks": [{"type": "command", "command": command}]});
    let convert = || {
        p.convert(&[
            ".claude/settings.json",
            "--to",
            "codex",
            "--write",
            "--hookx",
            HOOKX,
        ])
        .success()
    };
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [rule("./slow-check.sh"), rule("./guard.sh")]}})
            .to_string(),
    );
    convert();
    let hooks_path = p.project.join(".codex/hooks.json");
    let records =
        |hooks: &Value| hookx::dialect::codex::trust::records(&hooks_path, hooks, &|_| true);
    let [(slow, slow_hash), (guard, guard_hash)] =
        records(&p.json(".codex/hooks.json")).try_into().unwrap();
    common::write(
        &p.home,
        ".codex/config.toml",
        &format!(
            "[hooks.state.\"{slow}\"]\ntrusted_hash = \"{slow_hash}\"\nenabled = false\n\n[hooks.state.\"{guard}\"]\ntrusted_hash = \"{guard_hash}\"\n"
        ),
    );
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [rule("./guard.sh")]}}).to_string(),
    );
    convert();
    let [(moved, _)] = records(&p.json(".codex/hooks.json")).try_into().unwrap();
    assert_eq!(moved, slow, "the guard's copy took the check's place");
    let text = std::fs::read_to_string(p.home.join(".codex/config.toml")).unwrap();
    let doc: toml_edit::DocumentMut = text.parse().unwrap();
    let state = &doc["hooks"]["state"][moved.as_str()];
    assert_eq!(
        state["trusted_hash"].as_str(),
        Some(guard_hash.as_str()),
        "{text}"
    );
    assert!(
        state.get("enabled").is_none(),
        "the check's switch stayed: {text}"
    );
}

/// Attacks row 360: row 329 under Copilot: a Gemini guard converted into
/// `.github/hooks/hooks.json` (a copy through `hookx exec`), the user turns the copy off in
/// Copilot's hook menu (its key in `~/.copilot/settings.json` `disabledHooks`: the entry's
/// event and JSON, row 236); converting again with hookx named elsewhere changed the entry,
/// the key named an entry no more there, and Copilot ran the copy again.
#[test]
fn a_copy_the_user_turned_off_in_copilot_stays_off_when_converted_again() {
    let p = Project::new();
    p.write(
        ".gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": "./slow-check.sh"}]}]}})
        .to_string(),
    );
    let convert = |hookx: &str| {
        p.convert(&[
            ".gemini/settings.json",
            "--to",
            "copilot",
            "--write",
            "--hookx",
            hookx,
        ])
        .success()
    };
    convert("/opt/a/hookx");
    // The copy's key as Copilot lists it: its event, NUL, the entry's compact JSON.
    let copy_key = || -> (String, String) {
        let v = p.json(".github/hooks/hooks.json");
        let (event, entries) = v["hooks"].as_object().unwrap().iter().next().unwrap();
        let mut entry = entries[0].clone();
        entry.as_object_mut().unwrap().remove("hookx");
        let line = entry["bash"].as_str().unwrap().to_string();
        let key = hookx::hash::sha256_hex(format!("{event}\0{entry}").as_bytes());
        (key, line)
    };
    let (off, _) = copy_key();
    let settings = p.home.join(".copilot/settings.json");
    common::write(
        &p.home,
        ".copilot/settings.json",
        &json!({"disabledHooks": [off, "mine"]}).to_string(),
    );
    convert("/opt/b/hookx");
    let (now, line) = copy_key();
    assert!(line.contains("/opt/b/hookx exec"), "{line}");
    let listed: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    // The old key stays: it names the same entry in every other project (row 364).
    assert_eq!(listed["disabledHooks"], json!([off, "mine", now]));
}

/// Attacks row 330: Qwen Code 0.24.4 writes `"$version": 4` into a settings file that lacks it
/// when it starts (run sealed, by hand: it rewrote the `~/.qwen/settings.json` install had
/// created), so the last uninstall found more than its route there and left the file behind
/// (`{"$version": 4}`, in the project too). A file install creates carries the stamp, as
/// `convert` writes it, and goes whole at the last uninstall.
#[test]
fn a_qwen_file_install_creates_carries_qwens_stamp_and_goes_at_the_last_uninstall() {
    let p = Project::new();
    common::write(
        &p.home,
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "/bin/true"}]}]}})
        .to_string(),
    );
    for scope in ["user", "project"] {
        let file = match scope {
            "user" => p.home.join(".qwen/settings.json"),
            _ => p.project.join(".qwen/settings.json"),
        };
        let args = [
            "install", "--host", "qwen", "--scope", scope, "--hookx", HOOKX,
        ];
        p.hookx(&args).success();
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("\"$version\": 4"), "{scope}: {text}");
        p.hookx(&["install", "--host", "qwen", "--scope", scope, "--uninstall"])
            .success();
        assert!(
            !file.exists(),
            "{scope}: {:?}",
            std::fs::read_to_string(&file)
        );
    }
}

/// Attacks row 291's Copilot half: the user turned hookx's Copilot route off in Copilot's own
/// menu (its key in `~/.copilot/settings.json` `disabledHooks`: the event and the entry's
/// JSON without hookx's marker, row 236). Install re-pointing the route (hookx elsewhere)
/// changed the entry: the key named nothing any more, and Copilot ran the route again. The new
/// key is listed (the old one stays, row 364); the user's other keys stay as they were.
#[test]
fn a_route_the_user_turned_off_in_copilot_stays_off_when_reinstalled_from_elsewhere() {
    let p = Project::new();
    common::write(
        &p.home,
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "/bin/true"}]}]}})
        .to_string(),
    );
    let install = |hookx: &str| {
        p.hookx(&[
            "install", "--host", "copilot", "--scope", "user", "--hookx", hookx,
        ])
        .success();
    };
    install("/opt/a/hookx");
    let routes = p.home.join(".copilot/hooks/hookx.json");
    // The route's key as Copilot lists it: its event, NUL, the entry's compact JSON.
    let route_key = || -> (String, String) {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&routes).unwrap()).unwrap();
        let (event, entries) = v["hooks"].as_object().unwrap().iter().next().unwrap();
        let mut entry = entries[0].clone();
        entry.as_object_mut().unwrap().remove("hookx");
        let line = entry["bash"].as_str().unwrap().to_string();
        let key = hookx::hash::sha256_hex(format!("{event}\0{entry}").as_bytes());
        (key, line)
    };
    let (off, _) = route_key();
    let settings = p.home.join(".copilot/settings.json");
    std::fs::write(
        &settings,
        json!({"disabledHooks": [off, "mine"]}).to_string(),
    )
    .unwrap();
    install("/opt/b/hookx");
    let (now, line) = route_key();
    let route = common::unguarded_route(&line);
    assert!(route.starts_with("/opt/b/hookx run"), "{line}");
    let listed: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    // The old key stays: it names the same entry in every other project (row 364).
    assert_eq!(listed["disabledHooks"], json!([off, "mine", now]));
}

/// Attacks row 364: Copilot's `disabledHooks` key does not depend on the file or the project
/// (copilot-facts), so one key the user listed turns off hookx's identical project route in
/// every project. Row 291's follow replaced it on a re-point in one project: the same route
/// of every other project (hookx still at the old place there) ran again.
#[test]
fn a_route_key_the_user_listed_stays_for_the_same_route_of_another_project() {
    let p = Project::new();
    let other = p.root.join("other");
    common::write(&other, ".bricks/hooks.json", &bricks_rules(&BRICKS_EVENTS));
    let install = |project: &Path, hookx: &str| {
        common::hookx_as_account_at(
            project,
            &p.home,
            &[
                "install", "--host", "copilot", "--scope", "project", "--hookx", hookx,
            ],
        )
        .success();
    };
    install(&p.project, "/opt/a/hookx");
    install(&other, "/opt/a/hookx");
    // The preToolUse route's key as Copilot lists it: its event, NUL, the entry's compact JSON.
    let key = |project: &Path| -> String {
        let text = std::fs::read_to_string(project.join(".github/hooks/hookx.json")).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        let mut entry = v["hooks"]["preToolUse"][0].clone();
        entry.as_object_mut().unwrap().remove("hookx");
        hookx::hash::sha256_hex(format!("preToolUse\0{entry}").as_bytes())
    };
    let off = key(&p.project);
    assert_eq!(off, key(&other), "one key for both projects' routes");
    let settings = p.home.join(".copilot/settings.json");
    std::fs::write(&settings, json!({"disabledHooks": [off]}).to_string()).unwrap();
    install(&p.project, "/opt/b/hookx");
    let listed: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let listed = listed["disabledHooks"].as_array().unwrap();
    let (now, there) = (key(&p.project), key(&other));
    assert_ne!(now, there);
    assert!(
        listed.contains(&json!(now)),
        "the re-pointed route stays off: {listed:?}"
    );
    assert!(
        listed.contains(&json!(there)),
        "the other project's route stays off: {listed:?}"
    );
}

/// Attacks row 368: row 291's Copilot half with `COPILOT_HOME` set (a user keeping two Copilot
/// setups apart, row 220): Copilot's menu writes the route's key into
/// `$COPILOT_HOME/settings.json`, where Copilot reads `disabledHooks`; install's re-point of the
/// project route followed the key only in `~/.copilot/settings.json`, and Copilot ran the route
/// again.
#[test]
fn a_route_turned_off_below_copilot_home_stays_off_when_reinstalled_from_elsewhere() {
    let p = Project::new();
    let elsewhere = p.root.join("copilot-work");
    let install = |hookx: &str| {
        assert_cmd::Command::cargo_bin("hookx")
            .unwrap()
            .args([
                "install", "--host", "copilot", "--scope", "project", "--hookx", hookx,
            ])
            .arg("--project")
            .arg(&p.project)
            .env("HOME", &p.home)
            .env("COPILOT_HOME", &elsewhere)
            .env_remove("HOOKX_HOME")
            .assert()
            .success();
    };
    install("/opt/a/hookx");
    let key = || -> String {
        let v = p.json(".github/hooks/hookx.json");
        let mut entry = v["hooks"]["preToolUse"][0].clone();
        entry.as_object_mut().unwrap().remove("hookx");
        hookx::hash::sha256_hex(format!("preToolUse\0{entry}").as_bytes())
    };
    let off = key();
    common::write(
        &elsewhere,
        "settings.json",
        &json!({"disabledHooks": [off]}).to_string(),
    );
    install("/opt/b/hookx");
    let text = std::fs::read_to_string(elsewhere.join("settings.json")).unwrap();
    let listed: Value = serde_json::from_str(&text).unwrap();
    assert!(
        listed["disabledHooks"]
            .as_array()
            .unwrap()
            .contains(&json!(key())),
        "{listed}"
    );
}

/// Attacks rows 400-401 (row 301's install half, 6919362, attacked): with `COPILOT_HOME`
/// naming another folder, install listed the keys of the handlers it leaves to hookx (a
/// project Claude guard Copilot reads itself) in `$COPILOT_HOME/settings.json`, and hookx's
/// user route, which runs the byte-identical handlers of every project without a route,
/// below the home, which Copilot does not read then: the guard of another project ran
/// nowhere (401); and an uninstall from a shell without the variable left the keys there,
/// the route gone (400). Keys go only beside hookx's user route; an older hookx's keys below
/// the variable go at the next install or uninstall that sees it.
#[test]
fn a_handler_install_switches_off_is_off_only_beside_hookxs_user_route() {
    let p = Project::new();
    let elsewhere = p.root.join("copilot-work");
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "./guard.sh"}]}]}})
        .to_string(),
    );
    let install = |extra: &[&str], var: bool| {
        let mut cmd = assert_cmd::Command::cargo_bin("hookx").unwrap();
        cmd.args(["install", "--host", "copilot", "--scope", "project"])
            .args(["--hookx", HOOKX])
            .args(extra)
            .arg("--project")
            .arg(&p.project)
            .env("HOME", &p.home)
            .env_remove("HOOKX_HOME")
            .env_remove("COPILOT_HOME");
        if var {
            cmd.env("COPILOT_HOME", &elsewhere);
        }
        cmd.assert().success();
    };
    let folders = [p.home.join(".copilot"), elsewhere.clone()];
    let listed = |dir: &Path| -> Vec<Value> {
        std::fs::read_to_string(dir.join("settings.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v["disabledHooks"].as_array().cloned())
            .unwrap_or_default()
    };
    let off_without_route = || {
        folders
            .iter()
            .filter(|dir| !listed(dir).is_empty() && !dir.join("hooks/hookx.json").exists())
            .map(|dir| dir.display().to_string())
            .collect::<Vec<_>>()
    };
    for (install_var, uninstall_var) in [(true, false), (false, true), (true, true)] {
        install(&[], install_var);
        assert!(
            folders.iter().any(|dir| !listed(dir).is_empty()),
            "the guard is left to hookx somewhere"
        );
        assert_eq!(off_without_route(), Vec::<String>::new(), "row 401");
        install(&["--uninstall"], uninstall_var);
        for dir in &folders {
            assert_eq!(
                listed(dir),
                Vec::<Value>::new(),
                "row 400: {}",
                dir.display()
            );
        }
    }
    // Keys an older hookx listed below the variable (its record as d79a14b wrote it) go at an
    // install with the variable set.
    let key = "fc73ae12278d20d5b1094e4d9d1bbc8804a3ba6ff5f9c3255239d06664cac8c9";
    let project = p.project.display().to_string();
    common::write(
        &elsewhere,
        "settings.json",
        &json!({"disabledHooks": [key],
            "hookx": {"created": true, "disabledHooks": {project: [key]}}})
        .to_string(),
    );
    install(&[], true);
    assert_eq!(off_without_route(), Vec::<String>::new());
    assert_eq!(listed(&elsewhere), Vec::<Value>::new());
}

/// Attacks row 342's note: the user cut hookx's user route for Copilot short (`"timeoutSec":
/// 3`; `hookx run` answers within it, row 223), then a project install, which keeps the user
/// route for the handlers it switches off, put it back to 605 without a word. A project
/// install keeps it and says so; `install --scope user`, asked for that file, sets hookx's
/// own, loudly (an older hookx's timeout looks the same).
#[test]
fn a_timeout_the_user_cut_on_hookxs_route_is_kept_and_said() {
    let p = Project::new();
    let rules =
        json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "true"}]}]}});
    common::write(&p.home, ".gemini/settings.json", &rules.to_string());
    p.write(".gemini/settings.json", &rules.to_string());
    p.hookx(&[
        "install", "--host", "copilot", "--scope", "user", "--hookx", HOOKX,
    ])
    .success();
    let routes = p.home.join(".copilot/hooks/hookx.json");
    let text = std::fs::read_to_string(&routes).unwrap();
    assert!(text.contains("\"timeoutSec\": 605"), "{text}");
    std::fs::write(
        &routes,
        text.replace("\"timeoutSec\": 605", "\"timeoutSec\": 3"),
    )
    .unwrap();
    let install = |scope: &str| {
        let out = p
            .hookx(&[
                "install", "--host", "copilot", "--scope", scope, "--hookx", HOOKX,
            ])
            .success();
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        (std::fs::read_to_string(&routes).unwrap(), stderr)
    };
    let (text, stderr) = install("project");
    // The timeout's key with it: the route's key is hex, and may hold "605".
    assert!(!text.contains("\"timeoutSec\": 605"), "{text}");
    assert!(text.contains("\"timeoutSec\": 3"), "{text}");
    assert!(
        stderr.contains("kept the shorter `timeoutSec`") && stderr.contains("3 (hookx writes 605)"),
        "{stderr}"
    );
    let (text, stderr) = install("user");
    assert!(!text.contains("\"timeoutSec\": 3"), "{text}");
    assert!(
        stderr.contains("warning: set `timeoutSec`") && stderr.contains("3 (hookx writes 605)"),
        "{stderr}"
    );
}

/// Codex runs only the handlers its review trusted by hash: install writes one
/// `[hooks.state."FILE:event:group:handler"] trusted_hash` table per route it adds to
/// `.codex/hooks.json`, keeps every other line of `~/.codex/config.toml`, says exactly what it
/// trusted and the one step left (a trusted project); re-running changes nothing; uninstall
/// takes out the routes and their records and nothing else.
#[test]
fn codex_routes_come_with_their_trust_records() {
    let p = Project::new();
    let config = "# my settings\nmodel = \"o3\"\n\n[hooks.state.\"/elsewhere/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:kept\"\n";
    common::write(&p.home, ".codex/config.toml", config);
    let user_hook = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": "./mine.sh"}]}]}});
    p.write(".codex/hooks.json", &user_hook.to_string());
    let out = p
        .hookx(&["install", "--host", "codex", "--hookx", HOOKX])
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let hooks_path = p.project.join(".codex/hooks.json");
    let hooks: Value =
        serde_json::from_str(&std::fs::read_to_string(&hooks_path).unwrap()).unwrap();
    let records = hookx::dialect::codex::trust::records(&hooks_path, &hooks, &is_own_route);
    assert!(!records.is_empty(), "{stdout}");
    // The user's own handler is not trusted by hookx: only the routes.
    assert!(
        records
            .iter()
            .all(|(k, _)| !k.contains(":pre_tool_use:0:0"))
    );
    assert_eq!(
        hooks["hooks"]["PreToolUse"][0],
        user_hook["hooks"]["PreToolUse"][0]
    );
    let written = std::fs::read_to_string(p.home.join(".codex/config.toml")).unwrap();
    assert!(written.starts_with(config), "{written}");
    for (key, hash) in &records {
        let table = format!(
            "[hooks.state.{}]\ntrusted_hash = {}\n",
            json!(key),
            json!(hash)
        );
        assert!(written.contains(&table), "{table} in {written}");
        assert!(stdout.contains(key.as_str()), "{stdout}");
    }
    assert!(
        stdout.contains(&format!("the {} hookx entries", records.len())),
        "{stdout}"
    );
    assert!(stderr.contains("codex exec --trust"), "{stderr}");
    // Again: nothing changes.
    p.hookx(&["install", "--host", "codex", "--hookx", HOOKX])
        .success();
    assert_eq!(
        std::fs::read_to_string(p.home.join(".codex/config.toml")).unwrap(),
        written
    );
    // Uninstall: the routes and their records go, the rest stays.
    p.hookx(&["install", "--host", "codex", "--uninstall"])
        .success();
    let hooks: Value =
        serde_json::from_str(&std::fs::read_to_string(&hooks_path).unwrap()).unwrap();
    assert_eq!(hooks, user_hook);
    let after = std::fs::read_to_string(p.home.join(".codex/config.toml")).unwrap();
    assert_eq!(after, config, "byte for byte");
}

/// A Codex config.toml hookx cannot edit is refused with its position before anything is
/// written.
#[test]
fn codex_trust_refuses_a_config_that_is_not_toml() {
    let p = Project::new();
    let bad = "model = \"o3\"\n[hooks\n";
    common::write(&p.home, ".codex/config.toml", bad);
    let hooks =
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "./x"}]}]}})
            .to_string();
    p.write(".codex/hooks.json", &hooks);
    let out = p
        .hookx(&["install", "--host", "codex", "--hookx", HOOKX])
        .failure();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains(".codex/config.toml") && stderr.contains("line 2"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(p.home.join(".codex/config.toml")).unwrap(),
        bad
    );
    // Nor are routes written that Codex would skip.
    assert_eq!(
        std::fs::read_to_string(p.project.join(".codex/hooks.json")).unwrap(),
        hooks
    );
}

/// A project with hookx routed for `host` in both scopes (this very hookx, so the user route
/// can run), a trusted Gemini guard in the home on `tool` that logs each run, and a quiet copy
/// of it in the project, so that the project's install routes the event too.
fn routed_in_both_scopes(host: &str, tool: &str) -> (Project, PathBuf) {
    let p = Project::new();
    // Only the guard: another rule's deny would leave it unwaited for.
    for file in [p.project.join(".bricks"), p.project.join(".github")] {
        std::fs::remove_dir_all(file).unwrap();
    }
    std::fs::remove_file(p.home.join(".copilot/hooks/every.json")).unwrap();
    let log = p.root.join("ran.log");
    let guard = json!([{"type": "command", "command": format!("echo ran >> '{}'", log.display())}]);
    // A guard of another agent's file than the host's own, which hookx runs.
    let (file, rules) = match host {
        "gemini" => (
            ".claude/settings.json",
            json!({"hooks": {"PreToolUse": [{"matcher": tool, "hooks": guard}]}}),
        ),
        _ => (
            ".gemini/settings.json",
            json!({"hooks": {"BeforeTool": [{"matcher": tool, "hooks": guard}]}}),
        ),
    };
    common::write(&p.home, file, &rules.to_string());
    // A rule of the project's on the event too, that logs nothing: the project's install
    // routes the event, as the agent then runs both routes.
    let quiet = rules
        .to_string()
        .replace(&format!("echo ran >> '{}'", log.display()), "true");
    p.write(file, &quiet);
    p.hookx(&["trust", "--yes"]).success();
    let bin = env!("CARGO_BIN_EXE_hookx");
    for scope in ["project", "user"] {
        p.hookx(&["install", "--host", host, "--scope", scope, "--hookx", bin])
            .success();
    }
    (p, log)
}

/// Fires the user's route of `host` (with the user's route key), then the project's, for one
/// PreToolUse of `tool`, as an agent that runs both: how many times the guard ran. The two
/// claim the call ([`hookx::claim`]): once.
fn fire_both_routes(
    p: &Project,
    log: &Path,
    host: &str,
    tool: &str,
    var: Option<(&str, &Path)>,
) -> usize {
    let key = std::fs::read_to_string(p.home.join(".hookx/route-key")).unwrap();
    fire_route(p, host, tool, var, &["--route-key", key.trim()]);
    fire_project_route(p, log, host, tool, var)
}

/// Fires the project route of `host` (`--installed-in project`) for a PreToolUse of `tool`,
/// with the agent's folder variable `var` (`CODEX_HOME`) set as given: how many times the guard
/// ran.
fn fire_project_route(
    p: &Project,
    log: &Path,
    host: &str,
    tool: &str,
    var: Option<(&str, &Path)>,
) -> usize {
    fire_route(p, host, tool, var, &["--installed-in", "project"]);
    let ran = std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .count();
    let _ = std::fs::remove_file(log);
    ran
}

/// Fires a route of `host` (`run --host HOST --event EVENT`, then `args`) for a PreToolUse of
/// `tool`, with the agent's folder variable `var` set as given.
fn fire_route(p: &Project, host: &str, tool: &str, var: Option<(&str, &Path)>, args: &[&str]) {
    // The host's own name of the event, as its route says it.
    let event = match host {
        "gemini" => "BeforeTool",
        "copilot" => "preToolUse",
        _ => "PreToolUse",
    };
    let payload = match host {
        // Copilot's own camelCase payload, which names no event.
        "copilot" => json!({"sessionId": "s", "timestamp": 1, "cwd": p.project,
            "toolName": tool.to_lowercase(), "toolArgs": "{\"command\": \"ls\"}"}),
        _ => json!({"session_id": "s", "cwd": p.project, "hook_event_name": event,
            "tool_name": tool, "tool_input": {"command": "ls", "file_path": "a", "content": "b"}}),
    };
    let mut cmd = assert_cmd::Command::cargo_bin("hookx").unwrap();
    cmd.args(["run", "--host", host, "--event", event])
        .args(args)
        .args(["--home".as_ref(), p.home.as_os_str()])
        .env("HOME", &p.home)
        .env("CLAUDE_PROJECT_DIR", &p.project)
        .env_remove("HOOKX_HOME");
    for name in [
        "CODEX_HOME",
        "CLAUDE_CONFIG_DIR",
        "QWEN_HOME",
        "COPILOT_HOME",
    ] {
        cmd.env_remove(name);
    }
    if let Some((name, dir)) = var {
        cmd.env(name, dir);
    }
    cmd.write_stdin(payload.to_string()).assert().success();
}

/// Edits the JSON file at `path` with `edit`.
fn edit_json(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut value: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut value);
    std::fs::write(path, value.to_string()).unwrap();
}

/// Attacks row 190: a project route does not leave an event to a user route in a file its agent
/// refuses whole (Claude Code 2.1.332 loads none of a `~/.claude/settings.json` whose
/// `cleanupPeriodDays` is a string, row 179, live): the user's route never runs there, so the
/// project route dispatches, or every guard it would run is lost.
#[test]
fn a_project_route_does_not_leave_an_event_to_a_user_route_claude_refuses() {
    let (p, log) = routed_in_both_scopes("claude", "run_shell_command");
    let fire = || fire_project_route(&p, &log, "claude", "Bash", None);
    // The agent runs both routes: the first to claim the call runs the guard, once.
    let both = || fire_both_routes(&p, &log, "claude", "Bash", None);
    assert_eq!(both(), 1, "both routes fire: the guard runs once");
    edit_json(&p.home.join(".claude/settings.json"), |v| {
        v["cleanupPeriodDays"] = json!("30")
    });
    assert_eq!(
        fire(),
        1,
        "Claude loads none of the user's file: the project route dispatches"
    );
}

/// Attacks row 191: where the agent's folder variable moves its user file away from the home
/// (`CODEX_HOME`: Codex reads `$CODEX_HOME/hooks.json`, codex-facts), a user route in
/// `~/.codex/hooks.json` is none the agent runs: the project route does not leave it the event.
#[test]
fn a_project_route_does_not_leave_an_event_to_a_user_route_the_agent_does_not_read() {
    folder_variable_moves_the_user_route("codex", "CODEX_HOME", ".codex");
}

/// Attacks row 220: row 191 under the agents whose folder variable hookx's tables lacked.
/// Claude Code reads `$CLAUDE_CONFIG_DIR/settings.json` (live, 2.1.332:
/// `live_claude::claude_config_dir_and_the_project_route`), Qwen Code `$QWEN_HOME/settings.json`
/// (its bundle; Copilot CLI's `$COPILOT_HOME/hooks/` is the same table data): with the
/// variable naming another folder, the user route below the home never runs, so the project
/// route dispatches.
#[test]
fn a_project_route_does_not_leave_an_event_to_a_user_route_below_another_config_folder() {
    folder_variable_moves_the_user_route("claude", "CLAUDE_CONFIG_DIR", ".claude");
    folder_variable_moves_the_user_route("qwen", "QWEN_HOME", ".qwen");
}

/// Under `host`, routed in both scopes with a trusted Gemini guard: the project route leaves a
/// Bash call to the user route while `var` is unset or names `~/dir`, and runs it itself when
/// `var` names another folder, where the agent reads its user file instead.
fn folder_variable_moves_the_user_route(host: &str, var: &str, dir: &str) {
    let (p, log) = routed_in_both_scopes(host, "run_shell_command");
    let fire = |d: Option<&Path>| fire_project_route(&p, &log, host, "Bash", d.map(|d| (var, d)));
    let both = |d: Option<&Path>| fire_both_routes(&p, &log, host, "Bash", d.map(|d| (var, d)));
    assert_eq!(
        both(None),
        1,
        "{host}: both routes fire: the guard runs once"
    );
    assert_eq!(
        both(Some(&p.home.join(dir))),
        1,
        "{host}: {var} naming ~/{dir}: both routes fire, the guard runs once"
    );
    let elsewhere = p.root.join("agent-work");
    std::fs::create_dir_all(&elsewhere).unwrap();
    assert_eq!(
        fire(Some(&elsewhere)),
        1,
        "{host}: {var} names another folder: the project route dispatches"
    );
}

/// Attacks row 222: the user route in `~/.claude/settings.json` names another home (`--home`
/// of another machine's account, the settings file synced with hookx at the same path on both):
/// it runs, reads no trust record of this home and skips every guard as untrusted, so the
/// project route must not leave it the event.
#[test]
fn a_project_route_does_not_leave_an_event_to_a_user_route_reading_another_home() {
    let (p, log) = routed_in_both_scopes("claude", "run_shell_command");
    let fire = || fire_project_route(&p, &log, "claude", "Bash", None);
    // The agent runs both routes: the first to claim the call runs the guard, once.
    let both = || fire_both_routes(&p, &log, "claude", "Bash", None);
    assert_eq!(both(), 1, "both routes fire: the guard runs once");
    let user = p.home.join(".claude/settings.json");
    let elsewhere = p.root.join("other-home");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let line = std::fs::read_to_string(&user).unwrap();
    let event = "--event PreToolUse";
    assert!(line.contains(event), "{line}");
    for (home, ran) in [
        (format!("--home {}", elsewhere.display()), 1),
        (format!("--home={}", elsewhere.display()), 1),
        (format!("--home={}", p.home.display()), 0),
    ] {
        std::fs::write(&user, line.replace(event, &format!("{event} {home}"))).unwrap();
        // 0: the agent runs the user route too, and both fire; else the project's alone.
        let runs = if ran == 0 { both() } else { fire() };
        assert_eq!(runs, 1, "the user route says {home}");
    }
}

/// Attacks row 223: the user shortens hookx's user route (`"timeout": 30` on its handler in
/// `~/.claude/settings.json`). Claude cuts the route off there, a slower guard with it, and
/// reads that as a non-blocking error (row 163, live): the project route must not leave it the
/// event. A timeout as long as install's, or longer, leaves it as before.
#[test]
fn a_project_route_does_not_leave_an_event_to_a_user_route_with_a_shorter_timeout() {
    let (p, log) = routed_in_both_scopes("claude", "run_shell_command");
    let fire = || fire_project_route(&p, &log, "claude", "Bash", None);
    // The agent runs both routes: the first to claim the call runs the guard, once.
    let both = || fire_both_routes(&p, &log, "claude", "Bash", None);
    assert_eq!(both(), 1, "both routes fire: the guard runs once");
    let user = p.home.join(".claude/settings.json");
    for (timeout, ran) in [
        (json!(30), 1),
        (json!(605), 0),
        (json!(900), 0),
        (json!("x"), 1),
    ] {
        edit_json(&user, |v| {
            v["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"] = timeout.clone()
        });
        // 0: the agent runs the user route too, and both fire; else the project's alone.
        let runs = if ran == 0 { both() } else { fire() };
        assert_eq!(runs, 1, "the user route's timeout {timeout}");
    }
}

/// Attacks row 237: the user's own file holds a project's route line (`--installed-in
/// project`, copied from a repository's `.claude/settings.json` to have hookx everywhere)
/// instead of the user route: that line leaves its event to the user's route, itself among
/// them, so every guard ran nowhere. It is no user route.
#[test]
fn a_project_route_line_in_the_users_file_is_no_user_route() {
    let (p, log) = routed_in_both_scopes("claude", "run_shell_command");
    let fire = || fire_project_route(&p, &log, "claude", "Bash", None);
    // The agent runs both routes: the first to claim the call runs the guard, once.
    let both = || fire_both_routes(&p, &log, "claude", "Bash", None);
    assert_eq!(both(), 1, "both routes fire: the guard runs once");
    // The line install writes into a project's file, with this hookx and home.
    let user = p.home.join(".claude/settings.json");
    let route: Value = serde_json::from_str(&std::fs::read_to_string(&user).unwrap()).unwrap();
    let own = route["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let keyless = own
        .split_once(" --route-key ")
        .map_or(own.as_str(), |(l, _)| l);
    let event = "--event PreToolUse";
    let line = keyless.replace(event, &format!("{event} --installed-in project"));
    edit_json(&user, |v| {
        v["hooks"]["PreToolUse"][0]["hooks"][0]["command"] = json!(line)
    });
    assert_eq!(
        fire(),
        1,
        "no user route answers: the project route dispatches"
    );
}

/// Attacks row 195: Codex runs a handler of `~/.codex/hooks.json` only with its review record
/// (`[hooks.state."FILE:event:GROUP:HANDLER"]` in `~/.codex/config.toml`, codex-facts), and
/// skips it silently without one. The user puts a hook of their own before hookx's user route:
/// the route's record now names the user's hook, the route runs nowhere, and the project route
/// must not leave it the event.
#[test]
fn a_project_route_does_not_leave_an_event_to_a_user_route_codex_has_no_review_of() {
    let (p, log) = routed_in_both_scopes("codex", "run_shell_command");
    let fire = || fire_project_route(&p, &log, "codex", "Bash", None);
    // The agent runs both routes: the first to claim the call runs the guard, once.
    let both = || fire_both_routes(&p, &log, "codex", "Bash", None);
    assert_eq!(both(), 1, "both routes fire: the guard runs once");
    edit_json(&p.home.join(".codex/hooks.json"), |v| {
        let own = json!({"hooks": [{"type": "command", "command": "true"}]});
        v["hooks"]["PreToolUse"]
            .as_array_mut()
            .unwrap()
            .insert(0, own);
    });
    assert_eq!(
        fire(),
        1,
        "Codex skips the unreviewed user route: the project route dispatches"
    );
}

/// Attacks row 227: the user turns hookx's Codex user route off in Codex's own record
/// (`enabled = false` in its `[hooks.state."…"]` table, codex-facts: the handler is off
/// whatever its hash). Codex no longer runs it, so the project route must not leave it the
/// event.
#[test]
fn a_project_route_does_not_leave_an_event_to_a_user_route_codex_has_turned_off() {
    let (p, log) = routed_in_both_scopes("codex", "run_shell_command");
    let fire = || fire_project_route(&p, &log, "codex", "Bash", None);
    // The agent runs both routes: the first to claim the call runs the guard, once.
    let both = || fire_both_routes(&p, &log, "codex", "Bash", None);
    assert_eq!(both(), 1, "both routes fire: the guard runs once");
    let config = p.home.join(".codex/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let user = p.home.join(".codex/hooks.json");
    let header = format!("[hooks.state.\"{}:pre_tool_use:0:0\"]", user.display());
    assert!(text.contains(&header), "{text}");
    let off = text.replace(&header, &format!("{header}\nenabled = false"));
    std::fs::write(&config, off).unwrap();
    assert_eq!(
        fire(),
        1,
        "Codex runs no handler turned off: the project route dispatches"
    );
}

/// Row 227's leftover: a second install keeps the user's `enabled = false` on the route's Codex
/// record (the user's choice) and said only "trusted for codex": it says the route stays off.
#[test]
fn a_second_install_says_a_route_the_user_turned_off_in_codex_stays_off() {
    let (p, _log) = routed_in_both_scopes("codex", "run_shell_command");
    let config = p.home.join(".codex/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let user = p.home.join(".codex/hooks.json");
    let header = format!("[hooks.state.\"{}:pre_tool_use:0:0\"]", user.display());
    assert!(text.contains(&header), "{text}");
    std::fs::write(
        &config,
        text.replace(&header, &format!("{header}\nenabled = false")),
    )
    .unwrap();
    let out = p.stdout(&["install", "--host", "codex", "--scope", "user"]);
    assert!(
        out.contains("note: 1 of them you turned off in Codex itself, which stays so"),
        "{out}"
    );
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("enabled = false")
    );
}

/// Attacks row 228: the user turns hookx's Gemini user route off in Gemini's own list
/// (`"hooksConfig": {"disabled": [its command]}` in `~/.gemini/settings.json`; Gemini CLI
/// 0.61.0 runs no handler named there, gemini-facts). The project route must not leave it the
/// event.
#[test]
fn a_project_route_does_not_leave_an_event_to_a_user_route_gemini_has_turned_off() {
    let (p, log) = routed_in_both_scopes("gemini", "Bash");
    let fire = || fire_project_route(&p, &log, "gemini", "run_shell_command", None);
    // The agent runs both routes: the first to claim the call runs the guard, once.
    let both = || fire_both_routes(&p, &log, "gemini", "run_shell_command", None);
    assert_eq!(both(), 1, "both routes fire: the guard runs once");
    let user = p.home.join(".gemini/settings.json");
    let route: Value = serde_json::from_str(&std::fs::read_to_string(&user).unwrap()).unwrap();
    let line = route["hooks"]["BeforeTool"][0]["hooks"][0]["command"].clone();
    assert!(line.is_string(), "{route}");
    edit_json(&user, |v| v["hooksConfig"] = json!({"disabled": [line]}));
    assert_eq!(
        fire(),
        1,
        "Gemini runs no handler its list turns off: the project route dispatches"
    );
    // Attacks row 323: the same list in a file holding a comment, which Gemini reads
    // (gemini-facts): hookx read no list there and left the event to the turned-off route.
    let text = std::fs::read_to_string(&user).unwrap();
    std::fs::write(&user, format!("// my settings\n{text}")).unwrap();
    assert_eq!(
        fire(),
        1,
        "a comment in the file: the project route dispatches"
    );
}

/// Attacks row 196: the user narrows hookx's user route to the tools their own rules need
/// (`"matcher": "Bash"` on its group in `~/.claude/settings.json`). On a `Write` the agent does
/// not run that route, so the project route must not leave it the event.
#[test]
fn a_project_route_does_not_leave_an_event_to_a_user_route_with_a_matcher_of_the_users() {
    let (p, log) = routed_in_both_scopes("claude", "write_file");
    let fire = || fire_project_route(&p, &log, "claude", "Write", None);
    // The agent runs both routes: the first to claim the call runs the guard, once.
    let both = || fire_both_routes(&p, &log, "claude", "Write", None);
    assert_eq!(both(), 1, "both routes fire: the guard runs once");
    let user = p.home.join(".claude/settings.json");
    for matcher in ["*", "", "Bash"] {
        edit_json(&user, |v| {
            v["hooks"]["PreToolUse"][0]["matcher"] = json!(matcher)
        });
        let (ran, why) = match matcher {
            "Bash" => (
                1,
                "Claude runs the user route on Bash only: the project route dispatches",
            ),
            _ => (0, "it matches every tool: the agent runs both routes"),
        };
        // 0: the agent runs the user route too, and both fire; else the project's alone.
        let runs = if ran == 0 { both() } else { fire() };
        assert_eq!(runs, 1, "{matcher:?}: {why}");
    }
    // A condition of the user's on the route's handler narrows it as well; `async` has Claude
    // not wait for its answer.
    for (key, value) in [("if", json!("Bash(*)")), ("async", json!(true))] {
        edit_json(&user, |v| {
            let group = &mut v["hooks"]["PreToolUse"][0];
            group.as_object_mut().unwrap().remove("matcher");
            group["hooks"][0] = json!({"type": "command",
                "command": group["hooks"][0]["command"].clone(), key: value});
        });
        assert_eq!(fire(), 1, "{key}: the project route dispatches");
    }
}

/// Factory Droid runs the same command from the user and the project settings twice (run
/// 0.225.2, tests/live_droid.rs): the project route says it is one, and leaves an event the user
/// route also takes to that route, so that a handler runs once.
#[test]
fn a_droid_project_route_leaves_an_event_to_the_users_route() {
    let p = Project::new();
    let log = p.root.join("ran.log");
    common::write(
        &p.home,
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": format!("echo ran >> '{}'", log.display())}]}]}})
        .to_string(),
    );
    p.hookx(&["trust", "--yes"]).success();
    // Routes that can run: this very hookx.
    let bin = env!("CARGO_BIN_EXE_hookx");
    p.hookx(&["install", "--host", "droid", "--hookx", bin])
        .success();
    let route = |file: &Path| -> String {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        v["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let project_route = route(&p.project.join(".factory/settings.json"));
    assert_eq!(
        project_route,
        format!("{bin} run --host droid --event PreToolUse --installed-in project")
    );
    let payload = json!({"session_id": "s", "cwd": p.project, "hook_event_name": "PreToolUse",
        "tool_name": "Execute", "tool_input": {"command": "ls"}})
    .to_string();
    let fire = |args: &[&str]| {
        let out = assert_cmd::Command::cargo_bin("hookx")
            .unwrap()
            .args(args)
            .args(["--project".as_ref(), p.project.as_os_str()])
            .args(["--home".as_ref(), p.home.as_os_str()])
            .env("HOME", &p.home)
            .env_remove("HOOKX_HOME")
            .write_stdin(payload.clone())
            .assert();
        // 0, or 2: a deny on Droid's PreToolUse is exit 2 (attacks row 2047), and the
        // project's `./copilot.sh` is not there.
        let code = out.get_output().status.code();
        assert!(matches!(code, Some(0 | 2)), "{out:?}");
        let ran = std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count();
        let _ = std::fs::remove_file(&log);
        ran
    };
    let project_args = [
        "run",
        "--host",
        "droid",
        "--event",
        "PreToolUse",
        "--installed-in",
        "project",
    ];
    assert_eq!(fire(&project_args), 1, "the project route alone dispatches");
    p.hookx(&[
        "install", "--host", "droid", "--scope", "user", "--hookx", bin,
    ])
    .success();
    let user_route = route(&p.home.join(".factory/settings.json"));
    assert_eq!(
        common::unguarded_route(&user_route),
        format!(
            "{bin} run --host droid --event PreToolUse --route-key {}",
            key(&p.home)
        )
    );
    // The agent runs both routes: the first to claim the call runs the guard, once.
    assert_eq!(
        fire(&project_args[..5]) + fire(&project_args),
        1,
        "both routes fire: the guard runs once"
    );
    // A user route whose hookx is gone (uninstalled, moved) exits 127, a non-blocking error:
    // the project route does not leave the event to it, and doctor says it cannot run.
    for missing in [HOOKX, "hookx-that-is-on-no-path"] {
        p.hookx(&[
            "install", "--host", "droid", "--scope", "user", "--hookx", missing,
        ])
        .success();
        assert_eq!(
            fire(&project_args),
            1,
            "{missing}: the project route dispatches when the user's cannot run"
        );
    }
    // A user route that is there but may not be executed is no route either.
    let script = p.root.join("hookx-not-executable");
    std::fs::write(&script, "#!/bin/sh\n").unwrap();
    p.hookx(&[
        "install",
        "--host",
        "droid",
        "--scope",
        "user",
        "--hookx",
        script.to_str().unwrap(),
    ])
    .success();
    assert_eq!(
        fire(&project_args),
        1,
        "a user route that is not executable"
    );
    p.hookx(&["install", "--host", "droid", "--hookx", HOOKX])
        .success();
    let doctor = p.hookx(&["doctor", "--host", "droid"]);
    let said = String::from_utf8_lossy(&doctor.get_output().stdout).into_owned();
    assert!(
        said.contains("hookx route for `PreToolUse` cannot run"),
        "{said}"
    );
}

/// Attacks row 328: Cline runs one script per event, so a user who wants a guard of their own
/// beside hookx's route puts it into the route script, before its `exec` line. A re-install
/// that re-pointed the route (hookx elsewhere) wrote the script anew without the guard, and
/// the uninstall deleted it, each without a word (sync names such an edit and keeps it).
#[test]
fn a_cline_route_script_the_user_edited_is_not_overwritten_or_deleted_unsaid() {
    let p = Project::new();
    p.hookx(&["install", "--host", "cline", "--hookx", HOOKX])
        .success();
    let route = p.project.join(".clinerules/hooks/PreToolUse");
    let text = std::fs::read_to_string(&route).unwrap();
    let edited = text.replacen("exec ", "./my-guard.sh || exit 2\nexec ", 1);
    std::fs::write(&route, &edited).unwrap();
    for args in [
        &["install", "--host", "cline", "--hookx", "/opt/other/hookx"][..],
        &["install", "--host", "cline", "--uninstall"][..],
    ] {
        let out = p.hookx(args).get_output().clone();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            std::fs::read_to_string(&route).ok().as_deref(),
            Some(edited.as_str()),
            "{args:?}: {stderr}"
        );
        assert!(
            stderr.contains("PreToolUse") && stderr.contains("edited by hand"),
            "{args:?}: {stderr}"
        );
    }
}

/// Attacks row 361: row 328's edit on the user's Cline route (`~/.cline/hooks/PreToolUse`:
/// a guard line of the user's before its `exec` line) with hookx installed in the project too.
/// Cline runs the scripts of every folder (cline-facts, run 3.0.65), so the project route
/// leaves the event to the user's; it read the edited script as no route and ran every rule
/// a second time.
#[test]
fn a_cline_user_route_the_user_edited_still_takes_the_event_from_the_project_route() {
    cline_user_route_changed_by_the_user(|route| {
        let text = std::fs::read_to_string(route).unwrap();
        std::fs::write(route, text.replacen("exec ", "true || exit 2\nexec ", 1)).unwrap();
    });
}

/// Attacks row 365: the edited Cline user route of row 361 under another host. hookx runs the
/// user's Cline scripts for the hosts it routes (install asks the user to trust this one), and
/// the script ends in hookx's own route: under Claude every rule ran twice per call, once by
/// the Claude route and once by the `hookx run --host cline` inside the script it ran.
#[test]
fn an_edited_cline_route_run_under_claude_runs_the_users_lines_not_the_route() {
    edited_cline_route_run_under_claude(|text, mine| {
        text.replacen("exec ", &format!("{mine} || exit 2\nexec "), 1)
    });
}

/// Attacks row 381: row 365's edit in the other forms a user writes it: the route line wrapped
/// in the user's `if` (their guard decides whether it routes), the route line without `exec`
/// (a line after it, or none), or a script the user wrote themselves ending in the route. Under
/// Claude the script ran whole, its route inside running every rule a second time.
#[test]
fn a_cline_route_edited_around_its_line_run_under_claude_runs_each_rule_once() {
    let route = |text: &str| {
        text.lines()
            .last()
            .unwrap()
            .strip_prefix("exec ")
            .unwrap()
            .to_string()
    };
    edited_cline_route_run_under_claude(|text, mine| {
        let head: Vec<&str> = text.lines().take(2).collect();
        format!(
            "{}\nif {mine}; then\n  {}\nelse\n  exit 2\nfi\n",
            head.join("\n"),
            route(text)
        )
    });
    edited_cline_route_run_under_claude(|text, mine| {
        text.replacen("exec ", &format!("{mine} || exit 2\n"), 1)
            + "status=$?\ntrue\nexit $status\n"
    });
    edited_cline_route_run_under_claude(|text, mine| {
        text.replacen("exec ", &format!("{mine} || exit 2\n"), 1)
    });
    // A script the user wrote themselves, without install's mark, that ends in the route.
    edited_cline_route_run_under_claude(|text, mine| {
        let (shebang, rest) = text.split_once('\n').unwrap();
        let (_, body) = rest.split_once('\n').unwrap();
        format!("{shebang}\n# my guard, then hookx\n{mine} || exit 2\n{body}")
    });
}

/// Installs hookx for Cline (user scope) and Claude (project), a trusted Gemini rule of the
/// user's, lets `edit` rewrite the Cline user route (given its text and a command line of the
/// user's that logs `mine`), trusts it, and fires a Bash call through the Claude route: the
/// user's line and the rule, once each.
fn edited_cline_route_run_under_claude(edit: impl Fn(&str, &str) -> String) {
    let p = Project::new();
    for file in [
        p.project.join(COPILOT_EVERY),
        p.project.join(".bricks/hooks.json"),
    ] {
        std::fs::remove_file(file).unwrap();
    }
    std::fs::remove_file(p.home.join(".copilot/hooks/every.json")).unwrap();
    let log = p.root.join("ran.log");
    common::write(
        &p.home,
        ".gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command",
            "command": format!("echo rule >> '{}'", log.display())}]}]}})
        .to_string(),
    );
    let hookx = |args: &[&str]| common::hookx_at(&p.project, &p.home, args).success();
    let bin = env!("CARGO_BIN_EXE_hookx");
    hookx(&[
        "install", "--host", "cline", "--scope", "user", "--hookx", bin,
    ]);
    let route = p.home.join(".cline/hooks/PreToolUse");
    let text = std::fs::read_to_string(&route).unwrap();
    let mine = format!("echo mine >> '{}'", log.display());
    std::fs::write(&route, edit(&text, &mine)).unwrap();
    hookx(&[
        "install", "--host", "claude", "--scope", "project", "--hookx", bin,
    ]);
    for file in [route.clone(), p.home.join(".gemini/settings.json")] {
        hookx(&["trust", "--yes", &file.to_string_lossy()]);
    }
    let payload = json!({"session_id": "s", "cwd": p.project, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "ls"}});
    assert_cmd::Command::cargo_bin("hookx")
        .unwrap()
        .args([
            "run",
            "--host",
            "claude",
            "--event",
            "PreToolUse",
            "--installed-in",
            "project",
        ])
        .args(["--home".as_ref(), p.home.as_os_str()])
        .current_dir(&p.project)
        .env("HOME", &p.home)
        .env_remove("HOOKX_HOME")
        .write_stdin(payload.to_string())
        .assert()
        .success();
    let ran = std::fs::read_to_string(&log).unwrap_or_default();
    let mut ran: Vec<&str> = ran.lines().collect();
    ran.sort();
    assert_eq!(
        ran,
        ["mine", "rule"],
        "the user's line and the rule, once each: {}",
        std::fs::read_to_string(&route).unwrap()
    );
}

/// Attacks row 363: Cline 3.0.65 runs a hook script whatever its mode (cline-facts, run: a
/// `PreToolUse.sh` of mode 0644 ran), so a user route of mode 0644 (a dotfiles manager that
/// keeps no modes, or a `chmod -x` by the docs' "non-executable files are skipped") still
/// runs; the project route read it as none that can run and ran every rule a second time.
#[test]
fn a_cline_user_route_without_its_executable_bit_still_takes_the_event_from_the_project_route() {
    use std::os::unix::fs::PermissionsExt;
    cline_user_route_changed_by_the_user(|route| {
        std::fs::set_permissions(route, std::fs::Permissions::from_mode(0o644)).unwrap();
    });
}

/// Attacks row 381's Cline half: the user route edited around its line (the route without
/// `exec`, with or without lines of the user's after it) still takes the event from the project
/// route: Cline runs both scripts, and the project route ran every rule a second time.
#[test]
fn a_cline_user_route_edited_around_its_line_still_takes_the_event_from_the_project_route() {
    for tail in ["", "status=$?\ntrue\nexit $status\n"] {
        cline_user_route_changed_by_the_user(|route| {
            let text = std::fs::read_to_string(route).unwrap();
            std::fs::write(route, text.replacen("exec ", "", 1) + tail).unwrap();
        });
    }
}

/// Installs hookx for Cline in both scopes, a trusted Gemini rule in each, lets `change` do
/// the user's edit to the user route, then fires both scripts as Cline does: each rule once.
fn cline_user_route_changed_by_the_user(change: impl Fn(&Path)) {
    let p = Project::new();
    // Only the counting rule (the others' `./copilot.sh` is not there and denies first).
    let log = p.counting_rule_in_each_scope();
    // Routes that say their home (`--home`), as the tests that fire them write them.
    let hookx = |args: &[&str]| common::hookx_at(&p.project, &p.home, args).success();
    let bin = env!("CARGO_BIN_EXE_hookx");
    for scope in ["project", "user"] {
        hookx(&[
            "install", "--host", "cline", "--scope", scope, "--hookx", bin,
        ]);
    }
    let user_route = p.home.join(".cline/hooks/PreToolUse");
    change(&user_route);
    let payload = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/e2e/payloads/cline/PreToolUse-bash.json"),
    )
    .unwrap()
    .replace("/repo", p.project.to_str().unwrap());
    for script in [user_route, p.project.join(".clinerules/hooks/PreToolUse")] {
        assert_cmd::Command::new("sh")
            .arg(&script)
            .current_dir(&p.project)
            .env("HOME", &p.home)
            .env_remove("HOOKX_HOME")
            .write_stdin(payload.clone())
            .assert()
            .success();
    }
    let ran = std::fs::read_to_string(&log).unwrap_or_default();
    let mut ran: Vec<&str> = ran.lines().collect();
    ran.sort();
    assert_eq!(ran, ["project", "user"], "each rule once");
}

/// A route script an older hookx wrote (its mark said "edits are overwritten", which row 328
/// made untrue) is still hookx's: a re-install re-points it under the new mark, the uninstall
/// removes it.
#[test]
fn a_cline_route_under_the_old_mark_is_still_hookxs() {
    let p = Project::new();
    p.hookx(&["install", "--host", "cline", "--hookx", HOOKX])
        .success();
    let route = p.project.join(".clinerules/hooks/PreToolUse");
    let text = std::fs::read_to_string(&route).unwrap();
    let (shebang, rest) = text.split_once('\n').unwrap();
    let (_, body) = rest.split_once('\n').unwrap();
    let old = format!("{shebang}\n# hookx route (hookx install): edits are overwritten\n{body}");
    std::fs::write(&route, &old).unwrap();
    p.hookx(&["install", "--host", "cline", "--hookx", "/opt/other/hookx"])
        .success();
    let now = std::fs::read_to_string(&route).unwrap();
    assert!(
        now.lines().nth(1) == Some(hookx::config::scripts::ROUTE_MARK)
            && now.contains("exec /opt/other/hookx run"),
        "{now}"
    );
    std::fs::write(&route, old.replace(HOOKX, "/opt/other/hookx")).unwrap();
    p.hookx(&["install", "--host", "cline", "--uninstall"])
        .success();
    assert!(!route.exists(), "the old-marked route is removed");
}

/// Cline's hooks are one script per event: install writes a route script per event with rules
/// (0755, `exec HOOKX run --host cline --event EVENT`, the project's saying it is one), leaves a
/// script of the user's own under an event's name as it is and routes the event under its next
/// name (Cline runs both: attacks row 403), follows the rules on re-install, and uninstall
/// removes only its routes.
#[test]
fn cline_routes_are_scripts_and_a_script_of_the_users_own_is_left_alone() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::new();
    let hooks = p.project.join(".clinerules/hooks");
    let own = common::write(&hooks, "PostToolUse", "#!/bin/sh\necho mine\n");
    let out = p
        .hookx(&["install", "--host", "cline", "--hookx", HOOKX])
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ends Cline's whole run"), "{stderr}");
    assert!(!stderr.contains("not routed"), "{stderr}");
    let beside = std::fs::read_to_string(hooks.join("PostToolUse.sh")).unwrap();
    assert!(
        beside.ends_with("run --host cline --event PostToolUse --installed-in project\n"),
        "{beside}"
    );
    let route = hooks.join("PreToolUse");
    let text = std::fs::read_to_string(&route).unwrap();
    assert_eq!(
        text.lines().last(),
        Some(
            "exec /opt/hookx/bin/hookx run --host cline --event PreToolUse --installed-in project"
        )
    );
    assert!(text.starts_with("#!/bin/sh\n"));
    let mode = std::fs::metadata(&route).unwrap().permissions().mode();
    assert_eq!(mode & 0o111, 0o111, "route is executable: {mode:o}");
    assert_eq!(
        std::fs::read_to_string(&own).unwrap(),
        "#!/bin/sh\necho mine\n"
    );
    // A user route for the same event as well: the project route leaves the event to it
    // (tests/double_runs.rs), so that no handler runs twice.
    p.hookx(&[
        "install", "--host", "cline", "--scope", "user", "--hookx", HOOKX,
    ])
    .success();
    let user_route = p.home.join(".cline/hooks/PreToolUse");
    assert_eq!(
        std::fs::read_to_string(&user_route).unwrap().lines().last(),
        Some(
            format!(
                "exec /opt/hookx/bin/hookx run --host cline --event PreToolUse --route-key {}",
                key(&p.home)
            )
            .as_str()
        )
    );
    p.hookx(&[
        "install",
        "--host",
        "cline",
        "--scope",
        "user",
        "--uninstall",
    ])
    .success();
    // A route hookx wrote is listed as a route, not as a handler.
    let list = p.stdout(&["list"]);
    assert!(list.contains("hookx route"), "{list}");
    // No rule needs PreToolUse any more: re-install drops its route.
    p.write(".bricks/hooks.json", &bricks_rules(&["Stop"]));
    std::fs::remove_file(p.project.join(COPILOT_EVERY)).unwrap();
    p.hookx(&["install", "--host", "cline", "--hookx", HOOKX])
        .success();
    assert!(!route.exists());
    assert!(hooks.join("TaskComplete").exists());
    p.hookx(&["install", "--host", "cline", "--uninstall"])
        .success();
    assert!(!hooks.join("TaskComplete").exists());
    assert!(!hooks.join("PostToolUse.sh").exists());
    assert!(own.exists(), "uninstall keeps the user's own script");
}

/// Auggie fires a group with no matcher on every tool, MCP tools included, and names an MCP
/// tool's server only under `metadata.includeMCPMetadata` (augment-facts.md, source 0.36.0):
/// the routes carry both, so a Claude `mcp__…` rule can run under Auggie; uninstall removes
/// them with the file install created.
#[test]
fn augment_routes_reach_mcp_tools_and_ask_for_their_server() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "mcp__memory__.*",
            "hooks": [{"type": "command", "command": "echo memory"}]}]}}"#,
    );
    p.hookx(&["install", "--host", "augment", "--hookx", HOOKX])
        .success();
    let settings = p.json(".augment/settings.json");
    let groups = settings["hooks"]["PreToolUse"].as_array().expect("routes");
    assert_eq!(groups.len(), 1, "{settings:#}");
    assert_eq!(groups[0].get("matcher"), None, "{settings:#}");
    assert_eq!(
        groups[0]["metadata"],
        json!({"includeMCPMetadata": true}),
        "{settings:#}"
    );
    let command = groups[0]["hooks"][0]["command"].as_str().unwrap_or("");
    assert!(is_hookx_entry(command), "{settings:#}");
    p.hookx(&["install", "--host", "augment", "--uninstall"])
        .success();
    assert!(!p.project.join(".augment/settings.json").exists());
}

/// What `hookx list --format json` says of the trust of `path`'s rules.
fn trust_of(p: &Project, path: &Path) -> Vec<String> {
    let list: Value = serde_json::from_str(&p.stdout(&["list", "--format", "json"])).unwrap();
    list.as_array()
        .unwrap()
        .iter()
        .filter(|r| r["path"] == path.display().to_string())
        .map(|r| r["trust"].as_str().unwrap().to_string())
        .collect()
}

/// A Claude PreToolUse of Bash under `hookx run --host claude`: what it answered.
fn claude_bash(p: &Project) -> String {
    let payload = json!({"session_id": "s", "cwd": p.project, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "ls"}});
    let out = common::hookx()
        .args([
            "run",
            "--host",
            "claude",
            "--event",
            "PreToolUse",
            "--project",
        ])
        .arg(&p.project)
        .arg("--home")
        .arg(&p.home)
        .env("HOME", &p.home)
        .env_remove("HOOKX_HOME")
        .env_remove("CLAUDE_PROJECT_DIR")
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// `install --host codex` records its routes' reviews in `~/.codex/config.toml`. When the user
/// trusted the Codex guards of that file, they stay trusted: hookx's own edit (install, and
/// uninstall) is recorded as trusted, and the guard still denies under another host. A file the
/// user had not trusted is not trusted by install either.
#[test]
fn hookx_edits_to_a_trusted_codex_config_keep_it_trusted() {
    let guard = "# mine\nmodel = \"o3\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{ type = \"command\", command = \"echo codex-guard >&2; exit 2\" }]\n";
    let p = Project::new();
    let config = common::write(&p.home, ".codex/config.toml", guard);
    p.hookx(&["trust", config.to_str().unwrap()]).success();
    assert_eq!(trust_of(&p, &config), ["trusted"]);
    let out = p
        .hookx(&["install", "--host", "codex", "--hookx", HOOKX])
        .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("note: ~/.codex/config.toml stays trusted"),
        "{stderr}"
    );
    assert!(
        std::fs::read_to_string(&config)
            .unwrap()
            .contains("[hooks.state."),
        "install recorded no review"
    );
    assert_eq!(trust_of(&p, &config), ["trusted"]);
    let answer = claude_bash(&p);
    assert!(
        answer.contains(r#""permissionDecision":"deny","permissionDecisionReason":"codex-guard""#),
        "{answer}"
    );
    p.hookx(&["install", "--host", "codex", "--uninstall"])
        .success();
    assert_eq!(
        std::fs::read_to_string(&config).unwrap().trim_end(),
        guard.trim_end()
    );
    assert_eq!(trust_of(&p, &config), ["trusted"]);

    // Never trusted: install leaves it so.
    let q = Project::new();
    let config = common::write(&q.home, ".codex/config.toml", guard);
    q.hookx(&["install", "--host", "codex", "--hookx", HOOKX])
        .success();
    assert_eq!(trust_of(&q, &config), ["untrusted"]);
    // Trusted, then changed by the user: install does not trust the user's change.
    let r = Project::new();
    let config = common::write(&r.home, ".codex/config.toml", guard);
    r.hookx(&["trust", config.to_str().unwrap()]).success();
    std::fs::write(&config, guard.replace("exit 2", "exit 0")).unwrap();
    r.hookx(&["install", "--host", "codex", "--hookx", HOOKX])
        .success();
    assert_eq!(trust_of(&r, &config), ["changed"]);
}

/// A handler of the user's own that merely contains a route (`./guard.sh && hookx run …`) is
/// not hookx's: install adds its own route beside it and uninstall leaves it, byte for byte.
#[test]
fn a_users_line_that_contains_a_route_is_not_hookxs() {
    let p = Project::new();
    let mine = "./guard.sh && hookx run --host claude --event PreToolUse";
    let original = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": mine}]}]}})
    .to_string();
    p.write(SETTINGS, &original);
    p.hookx(&["install", "--host", "claude", "--hookx", HOOKX])
        .success();
    let installed = p.json(SETTINGS);
    assert_eq!(
        installed["hooks"]["PreToolUse"][0]["hooks"][0]["command"], mine,
        "{installed:#}"
    );
    let ours = format!("{HOOKX} run --host claude --event PreToolUse --installed-in project");
    assert!(
        p.read(SETTINGS).contains(&format!("\"{ours}\"")),
        "{installed:#}"
    );
    // Installing again changes nothing.
    let once = p.read(SETTINGS);
    p.hookx(&["install", "--host", "claude", "--hookx", HOOKX])
        .success();
    assert_eq!(p.read(SETTINGS), once);
    p.hookx(&["install", "--host", "claude", "--uninstall"])
        .success();
    assert_eq!(p.read(SETTINGS), original);
}

/// A route an older hookx wrote without its mark, exactly as install writes it, is still
/// install's: re-pointed, not doubled, and removed by uninstall.
#[test]
fn an_unmarked_route_exactly_as_install_writes_it_is_still_hookxs() {
    let p = Project::new();
    let original = json!({"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": "/old/hookx run --host claude --event Stop"}]}]}})
    .to_string();
    p.write(SETTINGS, &original);
    p.hookx(&["install", "--host", "claude", "--hookx", HOOKX])
        .success();
    let text = p.read(SETTINGS);
    assert!(!text.contains("/old/hookx"), "{text}");
    assert_eq!(
        text.matches(&format!("{HOOKX} run --host claude --event Stop"))
            .count(),
        1,
        "{text}"
    );
    let out = p.stdout(&["install", "--host", "claude", "--uninstall"]);
    assert!(out.starts_with("removed 13 hookx entries"), "{out}");
    assert_eq!(p.json(SETTINGS), json!({}));
}

/// A project install never writes outside the project through a link the repository ships:
/// a hook folder or file that is a link out of the project is refused, naming it, and nothing
/// is written there (a dangling link once created `~/.bashrc`). A link that stays inside the
/// project is followed.
#[cfg(unix)]
#[test]
fn a_project_install_never_writes_through_a_link_out_of_the_project() {
    use std::os::unix::fs::symlink;
    // The hook folder is a link to a folder outside.
    let p = Project::new();
    let outside = p.root.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    symlink(&outside, p.project.join(".claude")).unwrap();
    let out = p
        .hookx(&["install", "--host", "claude", "--hookx", HOOKX])
        .failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains(".claude"), "{stderr}");
    assert!(!outside.join("settings.json").exists());
    // The file is a dangling link to the user's shell start-up file (install and uninstall).
    let p = Project::new();
    std::fs::create_dir_all(p.project.join(".claude")).unwrap();
    symlink("../../home/.bashrc", p.project.join(SETTINGS)).unwrap();
    for args in [
        &["install", "--host", "claude", "--hookx", HOOKX][..],
        &["install", "--host", "claude", "--uninstall"][..],
    ] {
        let out = p.hookx(args).failure();
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.contains(SETTINGS), "{args:?}: {stderr}");
        assert!(!p.home.join(".bashrc").exists(), "{args:?}");
    }
    // A hook-script host whose folder is a link out of the project.
    let p = Project::new();
    std::fs::create_dir_all(p.project.join(".clinerules")).unwrap();
    symlink(&outside, p.project.join(".clinerules/hooks")).unwrap();
    let out = p
        .hookx(&["install", "--host", "cline", "--hookx", HOOKX])
        .failure();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains(".clinerules/hooks"), "{stderr}");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    // A link inside the project is fine.
    let p = Project::new();
    std::fs::create_dir_all(p.project.join("config/claude")).unwrap();
    symlink("config/claude", p.project.join(".claude")).unwrap();
    p.hookx(&["install", "--host", "claude", "--hookx", HOOKX])
        .success();
    assert!(
        std::fs::read_to_string(p.project.join("config/claude/settings.json"))
            .unwrap()
            .contains(HOOKX)
    );
}

/// Every route object in a host's file: (its event, the handler holding the command, the
/// object around it: a Kiro rule carries the timeout beside its `action`).
fn route_objects<'a>(
    v: &'a Value,
    around: &'a Value,
    host: &str,
    out: &mut Vec<(String, &'a Value, &'a Value)>,
) {
    let head = format!("run --host {host} --event ");
    match v {
        Value::Object(map) => {
            let event = map.values().find_map(|x| {
                let line = x.as_str()?;
                let at = line.find(&head)? + head.len();
                Some(line[at..].split(' ').next().unwrap_or_default().to_string())
            });
            match event {
                Some(event) => out.push((event, v, around)),
                None => map.values().for_each(|x| route_objects(x, v, host, out)),
            }
        }
        Value::Array(items) => items.iter().for_each(|x| route_objects(x, v, host, out)),
        _ => {}
    }
}

/// A host kills a route that outlasts its timeout: install writes the timeout hookx answers
/// within, in the host's own unit, on every route of every host whose entries have a timeout
/// (Cursor aside: its unit is not documented, `src/dialect/cursor.rs`), so that it is never the
/// host's shorter default (Droid's and Qwen's 60 s). Codex gives SessionEnd and Interrupt
/// hooks 1 s by default and 3 at most: those routes say 1.
#[test]
fn every_route_says_the_timeout_hookx_answers_within_where_the_host_has_the_key() {
    use hookx::tables::{Dialect, HandlerField};
    let mut wrong = Vec::new();
    for &host in Dialect::all() {
        let Some(key) = host.config().key(HandlerField::Timeout) else {
            continue;
        };
        let p = Project::new();
        p.hookx(&["install", "--host", host.name(), "--hookx", HOOKX])
            .success();
        let text = p.read(host.config().install_project);
        let v: Value = serde_json::from_str(&text).unwrap();
        let mut routes = Vec::new();
        route_objects(&v, &v, host.name(), &mut routes);
        assert!(!routes.is_empty(), "{host}: no route in {text}");
        let unit = if host.config().timeout_unit == hookx::tables::TimeoutUnit::Millis {
            1000
        } else {
            1
        };
        for (event, handler, around) in routes {
            let secs = match (host.name(), event.as_str()) {
                ("codex", "SessionEnd" | "Interrupt") => 1,
                // The documented key, the platform default not given: the 60 s hookx assumed.
                ("cursor", _) => 60,
                _ => hookx::route::ROUTE_TIMEOUT,
            };
            let got = handler.get(key).or_else(|| around.get(key));
            if got != Some(&json!(secs * unit)) {
                wrong.push(format!(
                    "{host} {event}: `{key}` is {got:?}, not {}",
                    secs * unit
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The route's timeout is the one `hookx run` answers within, so install sets it on routes it
/// wrote before (none, as older hookx wrote for Droid, or another value) and says so; a run
/// with nothing to change changes nothing.
#[test]
fn install_sets_the_timeout_of_its_own_older_routes() {
    let p = Project::new();
    let route = |event: &str, timeout: Option<u64>| {
        let mut handler = json!({"type": "command",
            "command": format!("{HOOKX} run --host droid --event {event}"),
            "hookx": {"created": "entry"}});
        if let Some(t) = timeout {
            handler["timeout"] = json!(t);
        }
        json!([{"hooks": [handler]}])
    };
    let file = ".factory/settings.json";
    p.write(
        file,
        &json!({"hooks": {"PreToolUse": route("PreToolUse", None), "Stop": route("Stop", Some(30))}})
            .to_string(),
    );
    let out = p.stdout(&["install", "--host", "droid", "--hookx", HOOKX]);
    let after = p.json(file);
    for event in ["PreToolUse", "Stop"] {
        let handlers = after["hooks"][event][0]["hooks"].as_array().unwrap();
        assert_eq!(handlers.len(), 1, "{after:#}");
        assert_eq!(
            handlers[0]["timeout"],
            json!(hookx::route::ROUTE_TIMEOUT),
            "{after:#}"
        );
    }
    assert!(out.contains("PreToolUse") && out.contains("Stop"), "{out}");
    let before = p.read(file);
    p.hookx(&["install", "--host", "droid", "--hookx", HOOKX])
        .success();
    assert_eq!(p.read(file), before);
}

/// The keys `install --host copilot` lists in Copilot's `disabledHooks` for a project's
/// `.claude/settings.json` are the ones Copilot CLI 1.0.102 gave each of its handlers
/// (`hooks.discover`, recorded in `recorded/copilot-1.0.102/disable-keys/`): every event
/// Copilot runs from the file, with and without a matcher, the fields it leaves out, escapes
/// and non-ASCII text. hookx writes none for the two handlers whose key it cannot tell: a
/// timeout written `30.0` (hookx reads whole seconds) and an `http` handler.
#[test]
fn copilot_disable_keys_are_the_ones_the_client_gives() {
    let dir = common::fixtures_dir().join("recorded/copilot-1.0.102/disable-keys");
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("discover.json")).unwrap()).unwrap();
    let recorded: Vec<&str> = recorded["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["disableKey"].as_str().unwrap())
        .collect();
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        &std::fs::read_to_string(dir.join("settings.json")).unwrap(),
    );
    p.hookx(&["install", "--host", "copilot"]).success();
    let settings: Value = serde_json::from_str(
        &std::fs::read_to_string(p.home.join(".copilot/settings.json")).unwrap(),
    )
    .unwrap();
    let written: Vec<&str> = settings["disabledHooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    for key in &written {
        assert!(recorded.contains(key), "{key} is no key Copilot gave");
    }
    assert_eq!(
        recorded.len() - written.len(),
        2,
        "every handler but the two hookx cannot key: {written:?}"
    );
}

/// Copilot's `disabledHooks` is the user's, one list for every project: install adds its keys
/// beside the user's own settings and keys, records them per project, and uninstall takes
/// exactly its own back out (the file comes back byte for byte); another project's keys stay.
#[test]
fn the_copilot_switch_keeps_the_users_keys_and_other_projects() {
    let claude = r#"{"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "fmt.sh"}]}]}}"#;
    let a = Project::named("a");
    a.write(".claude/settings.json", claude);
    let b_dir = a.root.join("b");
    common::write(
        &b_dir,
        ".claude/settings.json",
        &claude.replace("fmt.sh", "lint.sh"),
    );
    let user = "{\n  \"model\": \"gpt-4.1\",\n  \"disabledHooks\": [\n    \"mine\"\n  ]\n}\n";
    let settings = common::write(&a.home, ".copilot/settings.json", user);
    a.hookx(&["install", "--host", "copilot"]).success();
    common::hookx_as_account_at(&b_dir, &a.home, &["install", "--host", "copilot"]).success();
    let both: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let listed = both["disabledHooks"].as_array().unwrap();
    assert_eq!(
        listed.len(),
        3,
        "the user's key and one per project: {both}"
    );
    assert_eq!(listed[0], "mine");
    assert_eq!(both["model"], "gpt-4.1");
    a.hookx(&["install", "--uninstall", "--host", "copilot"])
        .success();
    let left: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    assert_eq!(
        left["disabledHooks"].as_array().unwrap().len(),
        2,
        "the other project's key stays: {left}"
    );
    common::hookx_as_account_at(
        &b_dir,
        &a.home,
        &["install", "--uninstall", "--host", "copilot"],
    )
    .success();
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), user);
}

/// A user's Copilot settings that do not parse: install says where they break, touches
/// nothing (neither that file nor the project's routes) and exits non-zero.
#[test]
fn a_copilot_settings_file_that_does_not_parse_is_named_with_its_position_and_left_alone() {
    let a = Project::named("a");
    a.write(
        ".claude/settings.json",
        r#"{"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "fmt.sh"}]}]}}"#,
    );
    let broken = "{\n  \"model\": \"gpt-4.1\",,\n}\n";
    let settings = common::write(&a.home, ".copilot/settings.json", broken);
    let out = a.hookx(&["install", "--host", "copilot"]).failure();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains(".copilot/settings.json") && stderr.contains("line 2 column"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), broken);
    assert!(!a.root.join(".github/hooks").exists());
}

/// A route of the user's own files carries the user's route key (`~/.hookx/route-key`, made
/// once): an agent that runs identical commands once per event (Claude Code) would otherwise
/// take a repository's copy of the line, `async` or with a short timeout, for the user's route
/// (attacks row 163, live: `live_claude::a_projects_copy_of_the_user_route_line`). The same key
/// on every install, so installing again changes nothing; a project route has none (the
/// repository holds it anyway); the line is still recognised as hookx's route.
#[test]
fn a_user_route_carries_the_users_route_key() {
    let p = Project::new();
    p.write(
        "home/.bricks-project-desktop/hooks.json",
        &bricks_rules(&["PreToolUse"]),
    );
    let install = |scope: &str| {
        p.hookx(&[
            "install", "--host", "claude", "--scope", scope, "--hookx", HOOKX,
        ])
        .success();
    };
    install("user");
    let key = std::fs::read_to_string(p.home.join(".hookx/route-key")).unwrap();
    let key = key.trim();
    assert!(
        key.len() == 32 && key.bytes().all(|b| b.is_ascii_hexdigit()),
        "{key:?}"
    );
    let settings = std::fs::read_to_string(p.home.join(".claude/settings.json")).unwrap();
    let line = serde_json::from_str::<Value>(&settings).unwrap()["hooks"]["PreToolUse"][0]["hooks"]
        [0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let route = common::unguarded_route(&line);
    assert!(route.ends_with(&format!(" --route-key {key}")), "{line}");
    assert_eq!(route_host(&line).as_deref(), Some("claude"), "{line}");
    install("user");
    let again = std::fs::read_to_string(p.home.join(".claude/settings.json")).unwrap();
    assert_eq!(again, settings, "a second install changes nothing");
    p.write(".bricks/hooks.json", &bricks_rules(&["PreToolUse"]));
    install("project");
    assert!(!p.read(".claude/settings.json").contains("--route-key"));
}

/// A `.codex/hooks.json` Codex 0.171.0 refuses whole (here a `$schema` key, which Codex's
/// schema used to offer; attacks row 178): nothing in it runs under Codex. The plan said "codex
/// runs .codex/hooks.json" for the copy of the project's Claude guard in it, so hookx skipped
/// the original and no route was written: the guard ran nowhere. Now the plan runs the
/// original through hookx, a rule only the refused file holds runs "nobody" saying why, and
/// install writes no route into the refused file (it would run nowhere either).
#[test]
fn a_codex_file_codex_refuses_whole_is_no_runner_and_gets_no_route() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("p"), root.join("home"));
    common::write(
        &project,
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
    );
    let hx = |args: &[&str]| common::hookx_at(&project, &home, args);
    common::hookx()
        .current_dir(&project)
        .args([
            "convert",
            ".claude/settings.json",
            "--to",
            "codex",
            "--write",
        ])
        .assert()
        .success();
    let copy = project.join(".codex/hooks.json");
    let mut file: Value = serde_json::from_str(&std::fs::read_to_string(&copy).unwrap()).unwrap();
    file["$schema"] = json!("https://hookx.dev/schemas/codex.schema.json");
    file["hooks"]["Stop"] = json!([{"hooks": [{"type": "command", "command": "./only-here.sh"}]}]);
    std::fs::write(&copy, serde_json::to_string_pretty(&file).unwrap()).unwrap();
    hx(&["trust", "--yes"]).success();
    let out = hx(&["list", "--host", "codex"])
        .success()
        .get_output()
        .stdout
        .clone();
    let list = String::from_utf8(out).unwrap();
    let line = |what: &str| {
        list.lines()
            .find(|l| l.starts_with("  codex") && l.contains(what))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        line("./guard.sh").contains("hookx runs .claude/settings.json"),
        "{list}"
    );
    assert!(
        line("./only-here.sh").contains("nobody (Codex refuses the whole of .codex/hooks.json"),
        "{list}"
    );
    let before = std::fs::read(&copy).unwrap();
    let out = hx(&["install", "--host", "codex"])
        .failure()
        .get_output()
        .clone();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("unknown top-level key `$schema`")
            && said.contains("writes no route into a file its agent refuses whole"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        before,
        "install wrote into it"
    );
}

/// Attacks row 191, install's half: with `CODEX_HOME` naming another folder, Codex reads its
/// user hooks there, so a user route written to `~/.codex/hooks.json` is one it never runs.
/// install says so (it said only "routed"); with `CODEX_HOME` naming `~/.codex`, nothing.
#[test]
fn a_user_install_says_when_the_agents_folder_variable_names_another_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("p"), root.join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    common::write(
        &home,
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
    );
    let install = |codex_home: &Path| {
        let out = assert_cmd::Command::cargo_bin("hookx")
            .unwrap()
            .args(["install", "--host", "codex", "--scope", "user", "--project"])
            .arg(&project)
            .arg("--home")
            .arg(&home)
            .env("HOME", &home)
            .env("CODEX_HOME", codex_home)
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let said = install(&home.join(".codex"));
    assert!(!said.contains("CODEX_HOME is set"), "{said}");
    let elsewhere = root.join("codex-work");
    let said = install(&elsewhere);
    assert!(
        said.contains(&format!(
            "CODEX_HOME is set, so Codex reads its user hooks from {}",
            elsewhere.join("hooks.json").display()
        )),
        "{said}"
    );
}

/// A route in a file its agent refuses whole runs nowhere (attacks row 210): a rule of
/// another agent's file that only hookx's route runs runs nowhere either. `list`'s plan said
/// "hookx runs .gemini/settings.json" under Droid, whose `.factory/settings.json`, holding
/// hookx's route, Droid does not load for a matcher that is no string; now it says nobody
/// runs it, and why.
#[test]
fn list_says_a_rule_runs_nowhere_when_its_agent_refuses_the_file_of_hookxs_route() {
    let p = Project::new();
    p.write(
        ".gemini/settings.json",
        &json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": "./guard.sh"}]}]}})
        .to_string(),
    );
    p.hookx(&["trust", "--yes"]).success();
    p.hookx(&["install", "--host", "droid", "--hookx", HOOKX])
        .success();
    let plan_line = |p: &Project| -> String {
        let out = p.stdout(&["list", "--host", "droid"]);
        out.lines()
            .skip_while(|l| !l.starts_with("plan"))
            .find(|l| l.contains("./guard.sh"))
            .unwrap_or_else(|| panic!("no plan line:\n{out}"))
            .to_string()
    };
    let routed = plan_line(&p);
    assert!(
        routed.contains("hookx runs .gemini/settings.json"),
        "{routed}"
    );
    let mut settings = p.json(".factory/settings.json");
    settings["hooks"]["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(json!({"matcher": 5, "hooks": [{"type": "command", "command": "true"}]}));
    p.write(".factory/settings.json", &settings.to_string());
    let refused = plan_line(&p);
    assert!(
        refused.contains(
            "nobody (hookx would run .gemini/settings.json, but Droid loads none of .factory/settings.json, which holds hookx's route ("
        ) && refused.contains("`matcher` must be a string"),
        "{refused}"
    );
}

/// Codex keys a handler's review by its file as Codex names it: `$HOME/.codex/hooks.json` as
/// `$HOME` is set, or below `$CODEX_HOME` made canonical (Codex 0.171.0's `hooks/list`, live:
/// `live_codex::a_review_record_names_the_user_file_as_codex_does`). hookx wrote the key by
/// the real path: with a home reached through a symbolic link, or `CODEX_HOME=~/.codex` where
/// `~/.codex` links into a dotfiles folder, Codex found no review of the route and skipped it
/// silently; the second also warned that Codex does not read the route (attacks row 240).
#[test]
fn a_codex_review_names_the_user_file_as_codex_does() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let project = root.join("p");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let install = |home: &Path, codex_home: Option<&Path>, uninstall: bool| {
        common::write(
            home,
            ".claude/settings.json",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
        );
        let mut cmd = assert_cmd::Command::cargo_bin("hookx").unwrap();
        cmd.args(["install", "--host", "codex", "--scope", "user", "--project"])
            .arg(&project)
            .env("HOME", home)
            .env_remove("HOOKX_HOME")
            .env_remove("CODEX_HOME");
        if let Some(codex_home) = codex_home {
            cmd.env("CODEX_HOME", codex_home);
        }
        if uninstall {
            cmd.arg("--uninstall");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let key = |file: &Path| format!("[hooks.state.\"{}:pre_tool_use:0:0\"]", file.display());
    // A home reached through a symbolic link, no CODEX_HOME.
    let (real, link) = (root.join("real-home"), root.join("home"));
    std::fs::create_dir_all(&real).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    install(&link, None, false);
    let config_file = real.join(".codex/config.toml");
    let config = std::fs::read_to_string(&config_file).unwrap();
    assert!(
        config.contains(&key(&link.join(".codex/hooks.json"))),
        "{config}"
    );
    // The record an older hookx wrote under the real path goes at the uninstall too.
    let stale = format!(
        "{config}\n{}\ntrusted_hash = \"sha256:00\"\n",
        key(&real.join(".codex/hooks.json"))
    );
    std::fs::write(&config_file, stale).unwrap();
    install(&link, None, true);
    let config = std::fs::read_to_string(&config_file).unwrap_or_default();
    assert!(!config.contains("hooks.state"), "{config}");
    // `~/.codex` a link into a dotfiles folder, and CODEX_HOME naming it.
    let home = root.join("home2");
    let dotfiles = home.join("dotfiles/codex");
    std::fs::create_dir_all(&dotfiles).unwrap();
    std::os::unix::fs::symlink(&dotfiles, home.join(".codex")).unwrap();
    let said = install(&home, Some(&home.join(".codex")), false);
    assert!(!said.contains("CODEX_HOME is set"), "{said}");
    let config = std::fs::read_to_string(dotfiles.join("config.toml")).unwrap();
    assert!(
        config.contains(&key(&dotfiles.join("hooks.json"))),
        "{config}"
    );
}

/// `install` with no event to route writes nothing, and makes no folder either: it made the
/// host's empty folders (`.claude/`, `.github/hooks/`, `.codex/`, `~/.copilot/`, …) and left
/// them (an empty `.codex/` makes Codex warn of untrusted project configuration; attacks row
/// 258).
#[test]
fn an_install_with_nothing_to_route_makes_no_folder() {
    for host in ["claude", "copilot", "codex", "kiro", "opencode"] {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (project, home) = (root.join("p"), root.join("home"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        common::hookx_at(&project, &home, &["install", "--host", host]).success();
        let mut made: Vec<String> = std::fs::read_dir(&project)
            .unwrap()
            .chain(std::fs::read_dir(&home).unwrap())
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n != ".git" && n != ".hookx")
            .collect();
        made.sort();
        assert_eq!(made, Vec::<String>::new(), "{host}");
    }
}

/// Attacks row 302: the user put a `"comment"` on hookx's Copilot user route entry, then turned
/// the route off in Copilot's menu. Copilot keys the entry without the comment (its
/// `hooks.discover`, 1.0.102: `type, bash, powershell, cwd, env, timeoutSec, matcher`, nothing
/// else); keyed with it, the route looked on, and the project route left the call to it.
#[test]
fn a_project_route_does_not_leave_an_event_to_a_commented_user_route_copilot_has_turned_off() {
    let (p, log) = routed_in_both_scopes("copilot", "run_shell_command");
    let fire = || fire_project_route(&p, &log, "copilot", "Bash", None);
    // The agent runs both routes: the first to claim the call runs the guard, once.
    let both = || fire_both_routes(&p, &log, "copilot", "Bash", None);
    assert_eq!(both(), 1, "both routes fire: the guard runs once");
    let user = p.home.join(".copilot/hooks/hookx.json");
    let mut entry = serde_json::from_str::<Value>(&std::fs::read_to_string(&user).unwrap())
        .unwrap()["hooks"]["preToolUse"][0]
        .clone();
    // Copilot's key: its own keys in its own order, hookx's record and the comment left out.
    let object = entry.as_object().unwrap();
    let kept: serde_json::Map<String, Value> = [
        "type",
        "bash",
        "powershell",
        "cwd",
        "env",
        "timeoutSec",
        "matcher",
    ]
    .iter()
    .filter_map(|k| Some((k.to_string(), object.get(*k)?.clone())))
    .collect();
    let key = hookx::hash::sha256_hex(format!("preToolUse\0{}", Value::Object(kept)).as_bytes());
    entry["comment"] = json!("hookx's route: do not edit");
    edit_json(&user, |v| v["hooks"]["preToolUse"][0] = entry.clone());
    assert_eq!(
        both(),
        1,
        "commented, not listed: the route still runs, once between both"
    );
    common::write(
        &p.home,
        ".copilot/settings.json",
        &json!({"disabledHooks": [key]}).to_string(),
    );
    assert_eq!(
        fire(),
        1,
        "listed as Copilot keys it: the project route runs the guard"
    );
}

/// Attacks row 305: the user turns hookx's Gemini user route off with Gemini's own `/hooks
/// disable <name>`, which writes the name into the *workspace's* `.gemini/settings.json` when
/// the session has one (Gemini CLI 0.61.0, `hookSettings.ts` `disableHook`, bundle read), and
/// Gemini joins the lists of every scope. The project route must not leave the event to the
/// route that list turns off (it read the user's file's list only).
#[test]
fn a_project_route_does_not_leave_an_event_to_a_user_route_the_workspace_list_turns_off() {
    let (p, log) = routed_in_both_scopes("gemini", "Bash");
    let fire = || fire_project_route(&p, &log, "gemini", "run_shell_command", None);
    // The agent runs both routes: the first to claim the call runs the guard, once.
    let both = || fire_both_routes(&p, &log, "gemini", "run_shell_command", None);
    assert_eq!(both(), 1, "both routes fire: the guard runs once");
    let user = p.home.join(".gemini/settings.json");
    let route: Value = serde_json::from_str(&std::fs::read_to_string(&user).unwrap()).unwrap();
    let line = route["hooks"]["BeforeTool"][0]["hooks"][0]["command"].clone();
    assert!(line.is_string(), "{route}");
    // Gemini's `/hooks disable` writes the workspace's file, made if need be.
    let disabled = json!({"hooksConfig": {"disabled": [line]}});
    common::write(&p.project, ".gemini/settings.json", &disabled.to_string());
    assert_eq!(
        fire(),
        1,
        "Gemini runs no handler the workspace's list turns off: the project route dispatches"
    );
}

/// Attacks row 403: a script of the user's own under an event's name in Cline's hook folder
/// (or the copy `convert --to cline --write` makes of a Claude guard there; here in the
/// project and in the home) left that event unrouted: install said "no cline events to route: cline runs
/// every rule of this scope itself", exit 0, and the trusted Gemini rules only hookx runs ran
/// nowhere under Cline. Cline runs every script of an event (cline-facts), so the route takes
/// the next of the event's names; the project route still leaves the event to the user's.
#[test]
fn a_cline_route_takes_the_next_name_beside_a_script_of_the_users() {
    let p = Project::new();
    let log = p.counting_rule_in_each_scope();
    let hookx = |args: &[&str]| common::hookx_at(&p.project, &p.home, args).success();
    // The user's own scripts under the event's name, first.
    let folders = [
        p.project.join(".clinerules/hooks"),
        p.home.join(".cline/hooks"),
    ];
    for (folder, scope) in folders.iter().zip(["own-project", "own-user"]) {
        common::write(
            folder,
            "PreToolUse",
            &format!("#!/bin/sh\necho {scope} >> '{}'\n", log.display()),
        );
    }
    let bin = env!("CARGO_BIN_EXE_hookx");
    for scope in ["project", "user"] {
        hookx(&[
            "install", "--host", "cline", "--scope", scope, "--hookx", bin,
        ]);
    }
    let payload = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/e2e/payloads/cline/PreToolUse-bash.json"),
    )
    .unwrap()
    .replace("/repo", p.project.to_str().unwrap());
    // As Cline: every script of the event in each folder.
    for folder in &folders {
        for entry in std::fs::read_dir(folder).unwrap() {
            let script = entry.unwrap().path();
            let name = script.file_name().unwrap().to_str().unwrap().to_string();
            if !name.starts_with("PreToolUse") {
                continue;
            }
            assert_cmd::Command::new("sh")
                .arg(&script)
                .current_dir(&p.project)
                .env("HOME", &p.home)
                .env_remove("HOOKX_HOME")
                .write_stdin(payload.clone())
                .assert()
                .success();
        }
    }
    let ran = std::fs::read_to_string(&log).unwrap_or_default();
    let mut ran: Vec<&str> = ran.lines().collect();
    ran.sort();
    assert_eq!(
        ran,
        ["own-project", "own-user", "project", "user"],
        "each script of the user's and each rule once"
    );
    // The uninstall takes hookx's routes out and leaves the user's scripts.
    for scope in ["project", "user"] {
        hookx(&[
            "install",
            "--host",
            "cline",
            "--scope",
            scope,
            "--uninstall",
        ]);
    }
    for folder in &folders {
        let left: Vec<String> = std::fs::read_dir(folder)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(left, ["PreToolUse"], "{}", folder.display());
    }
}

/// Attacks row 407: `hookx install … | head -1` (the reader gone before install prints its
/// report) panicked, "failed printing to stdout: Broken pipe", exit 101, after the routes were
/// written: install printed with `println!`, the other commands through `out!`, which drops a
/// write the reader no longer takes. The read end is closed before hookx starts: no race.
#[test]
fn install_with_its_reader_gone_does_not_panic() {
    use std::os::fd::{FromRawFd, OwnedFd};
    let p = Project::new();
    let mut fds = [0; 2];
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args(["install", "--host", "gemini", "--hookx", HOOKX, "--project"])
        .arg(&p.project)
        .env("HOME", &p.home)
        .env_remove("HOOKX_HOME")
        .stdout(std::process::Stdio::from(write))
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(p.project.join(".gemini/settings.json").exists());
}

/// Attacks row 388, the tools' half: with `XDG_CONFIG_HOME` naming another folder, OpenCode
/// and Kilo load user plugins from there only (live 1.18.33, 7.7.7), so install's user plugin
/// below the home is none they run. install says so, as it does for Codex under `CODEX_HOME`
/// (row 191), and doctor finds no route there: the user's guard fires nowhere under them.
#[test]
fn a_user_plugin_install_says_when_xdg_config_home_names_another_folder() {
    for host in ["opencode", "kilo"] {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (project, home) = (root.join("p"), root.join("home"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        common::write(
            &home,
            ".gemini/settings.json",
            r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
        );
        let hookx = |args: &[&str], xdg: &Path| {
            let out = assert_cmd::Command::cargo_bin("hookx")
                .unwrap()
                .args(args)
                .arg("--project")
                .arg(&project)
                .arg("--home")
                .arg(&home)
                .env("HOME", &home)
                .env("XDG_CONFIG_HOME", xdg)
                .env_remove("HOOKX_HOME")
                .output()
                .unwrap();
            // doctor exits non-zero where a rule fires nowhere.
            assert!(out.status.success() || args[0] == "doctor", "{out:?}");
            let text = |b: &[u8]| String::from_utf8_lossy(b).to_string();
            (text(&out.stdout), text(&out.stderr))
        };
        hookx(&["trust", "--yes"], &home.join(".config"));
        let install = ["install", "--host", host, "--scope", "user"];
        let (_, said) = hookx(&install, &home.join(".config"));
        assert!(!said.contains("XDG_CONFIG_HOME is set"), "{host}: {said}");
        let doctor = ["doctor", "--host", host];
        let (report, _) = hookx(&doctor, &home.join(".config"));
        assert!(
            report.contains(&format!("fires: {host} (through hookx")),
            "{host}: {report}"
        );
        let elsewhere = root.join("dotfiles");
        let (_, said) = hookx(&install, &elsewhere);
        let read_there = elsewhere.join(host).join("plugin/hookx.js");
        assert!(
            said.contains(&format!(
                "XDG_CONFIG_HOME is set, so {} reads its user hooks from {}",
                if host == "kilo" {
                    "Kilo Code CLI"
                } else {
                    "OpenCode"
                },
                read_there.display()
            )),
            "{host}: {said}"
        );
        let (report, _) = hookx(&doctor, &elsewhere);
        assert!(
            report.contains(&format!(
                "blocked: {host} (through hookx, gemini payload, no route)"
            )),
            "{host}: {report}"
        );
        // Doctor said why only as "no route": it names the variable now (row 388's leftover).
        let below_home = format!("~/.config/{host}/plugin/hookx.js");
        assert!(
            report.contains(&format!(
                "XDG_CONFIG_HOME is set, so {} reads its user hooks from {}, not {below_home}",
                if host == "kilo" {
                    "Kilo Code CLI"
                } else {
                    "OpenCode"
                },
                read_there.display()
            )),
            "{host}: {report}"
        );
        let (report, _) = hookx(&doctor, &home.join(".config"));
        assert!(
            !report.contains("XDG_CONFIG_HOME is set"),
            "{host}: {report}"
        );
        // With nothing below the home that the agent leaves out, the line is a note.
        let below = home.join(format!(".config/{host}/plugin/hookx.js"));
        std::fs::create_dir_all(read_there.parent().unwrap()).unwrap();
        std::fs::rename(&below, &read_there).unwrap();
        let (report, _) = hookx(&doctor, &elsewhere);
        let said = format!(
            "{host}: note: XDG_CONFIG_HOME is set, so {} reads its user hooks from {}\n",
            if host == "kilo" {
                "Kilo Code CLI"
            } else {
                "OpenCode"
            },
            read_there.display()
        );
        assert!(report.contains(&said), "{host}: {report}");
    }
}

/// Attacks row 387, the tools' half: an event the user keeps a hook of in `~/.factory/hooks.json`
/// (else the legacy `hooks/hooks.json`) replaces that event of `settings.json`, hookx's route
/// with it (droid-facts: binary 0.225.2 `{...settingsHooks, ...hooksFileHooks}`). install said
/// it routed the event and doctor that the user's guard fired through hookx: Droid runs that
/// route never. install, doctor, simulate and list's plan now say so, through the run path's
/// check (`dispatch::simulate::uncalled`).
#[test]
fn a_droid_route_its_hooks_file_hides_is_said_to_run_nowhere() {
    for hooks_file in [".factory/hooks.json", ".factory/hooks/hooks.json"] {
        let root = tempfile::tempdir().unwrap();
        let (home, project) = (root.path().join("home"), root.path().join("project"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        common::write(
            &home,
            ".gemini/settings.json",
            r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
        );
        common::write(
            &home,
            hooks_file,
            r#"{"PreToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": "true"}]}]}"#,
        );
        let hookx = |args: &[&str]| {
            let out = common::hookx_at(&project, &home, args).get_output().clone();
            let text = |b: &[u8]| String::from_utf8_lossy(b).to_string();
            (text(&out.stdout), text(&out.stderr))
        };
        hookx(&["trust", "--yes"]);
        let (_, said) = hookx(&["install", "--host", "droid", "--scope", "user"]);
        assert!(
            said.contains(&format!(
                "~/{hooks_file} holds PreToolUse, which replaces that event of \
                 ~/.factory/settings.json: Droid does not run this route for it"
            )),
            "{hooks_file}: {said}"
        );
        let (report, _) = hookx(&["doctor", "--host", "droid"]);
        assert!(
            !report.contains("fires: droid (through hookx")
                && report.contains(&format!("~/{hooks_file} holds PreToolUse")),
            "{hooks_file}: {report}"
        );
        let (listed, _) = hookx(&["list", "--host", "droid"]);
        let hidden = Path::new(hooks_file)
            .strip_prefix(".factory")
            .unwrap()
            .display()
            .to_string();
        assert!(
            listed.contains(&format!(
                "Droid runs none of its routes for PreToolUse ({hidden} beside it holds"
            )),
            "{hooks_file}: {listed}"
        );
        // The plan's line for the guard said "hookx runs" it.
        let plan = listed.split("plan (").nth(1).unwrap_or_default();
        assert!(
            plan.contains("nobody (hookx would run")
                && plan.contains(&format!("~/{hooks_file} holds PreToolUse"))
                && !plan.contains("hookx runs"),
            "{hooks_file}: {listed}"
        );
        let (out, err) = hookx(&[
            "simulate",
            "--host",
            "droid",
            "--event",
            "PreToolUse",
            "--tool",
            "Execute",
            "--input",
            r#"{"command": "ls"}"#,
        ]);
        assert!(
            format!("{out}{err}").contains(&format!("~/{hooks_file} holds PreToolUse")),
            "{hooks_file}: {out}{err}"
        );
    }
}

/// Attacks row 408: a re-point of a Cline route script the user moved into a dotfiles folder
/// and linked back replaced the link with a plain file; the dotfiles copy kept the old hookx,
/// which a re-link (or another machine) brings back. It is written through the link now, as
/// other files are (row 292). A project's script linked out of the project is no file a
/// project install writes: replaced by a plain file there, the file it named left alone. The
/// uninstall then removed the link and left the last route in the dotfiles copy; it empties
/// that file now, the link kept.
#[test]
fn a_cline_route_script_linked_in_from_dotfiles_is_re_pointed_through_the_link() {
    // Each scope in a setup of its own: a user route takes the project's events too.
    for (scope, folder, rules) in [
        ("user", ".cline/hooks", "home"),
        ("project", ".clinerules/hooks", "project"),
    ] {
        let root = tempfile::tempdir().unwrap();
        let root = root.path().canonicalize().unwrap();
        let (home, project) = (root.join("home"), root.join("project"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        common::write(
            &root.join(rules),
            ".gemini/settings.json",
            r#"{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
        );
        let hookx = |args: &[&str]| common::hookx_at(&project, &home, args).success();
        let dir = root.join(rules).join(folder);
        // Out of the home (a dotfiles folder), or out of the project.
        let away = root.join("elsewhere");
        let install = |hookx_path: &str| {
            hookx(&[
                "install", "--host", "cline", "--scope", scope, "--hookx", hookx_path,
            ])
        };
        install("/opt/a/hookx");
        let script = dir.join("PreToolUse");
        std::fs::create_dir_all(&away).unwrap();
        let moved = away.join("PreToolUse");
        std::fs::rename(&script, &moved).unwrap();
        std::os::unix::fs::symlink(&moved, &script).unwrap();
        install("/opt/b/hookx");
        let linked = std::fs::symlink_metadata(&script)
            .unwrap()
            .file_type()
            .is_symlink();
        let (moved_text, script_text) = (
            std::fs::read_to_string(&moved).unwrap(),
            std::fs::read_to_string(&script).unwrap(),
        );
        assert!(
            script_text.contains("/opt/b/hookx"),
            "{scope}: {script_text}"
        );
        match scope {
            "user" => assert!(linked && moved_text == script_text, "{scope}: {moved_text}"),
            _ => assert!(
                !linked && moved_text.contains("/opt/a/hookx"),
                "{scope}: {moved_text}"
            ),
        }
        // The uninstall removed the link and left the dotfiles copy holding the last route:
        // now the link stays and the file it names routes nothing, as a JSON file behind a
        // link is emptied (rows 280, 292); the next install takes it back.
        hookx(&[
            "install",
            "--host",
            "cline",
            "--scope",
            scope,
            "--hookx",
            "/opt/b/hookx",
            "--uninstall",
        ]);
        let moved_text = std::fs::read_to_string(&moved).unwrap();
        match scope {
            "user" => {
                let kept =
                    std::fs::symlink_metadata(&script).is_ok_and(|m| m.file_type().is_symlink());
                assert!(kept, "{scope}: the link removed");
                assert!(!moved_text.contains("hookx run"), "{scope}: {moved_text}");
                let listed = common::hookx_at(&project, &home, &["list", "--host", "cline"])
                    .success()
                    .get_output()
                    .stdout
                    .clone();
                let listed = String::from_utf8_lossy(&listed);
                // hookx reads no rule in the emptied script.
                let line = listed
                    .lines()
                    .find(|l| l.contains("~/.cline/hooks/PreToolUse"));
                assert!(
                    line.is_some_and(|l| l.ends_with(" 0 handlers")),
                    "{scope}: {listed}"
                );
                install("/opt/c/hookx");
                assert!(
                    std::fs::symlink_metadata(&script).is_ok_and(|m| m.file_type().is_symlink())
                );
                let moved_text = std::fs::read_to_string(&moved).unwrap();
                assert!(moved_text.contains("/opt/c/hookx"), "{scope}: {moved_text}");
            }
            // The link out of the project was replaced in place; the file outside is left.
            _ => {
                assert!(std::fs::symlink_metadata(&script).is_err(), "{scope}");
                assert!(moved_text.contains("/opt/a/hookx"), "{scope}: {moved_text}");
            }
        }
    }
}

/// A hook file hookx would run under the host that does not parse (a trailing comma left by
/// an edit): install routes none of its rules, and says where it fails; it said only "no
/// gemini events to route: gemini runs every rule of this scope itself", and once the comma
/// was fixed the guard ran nowhere under Gemini until install ran again (attacks row 483).
#[test]
fn install_names_a_hook_file_it_cannot_read_and_routes_nothing_of() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]},}"#,
    );
    let out = p
        .hookx(&["install", "--host", "gemini", "--scope", "project"])
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.contains(
            "warning: .claude/settings.json:1:106: invalid JSON: trailing comma: hookx cannot read \
             it, so no route is made for its rules"
        ),
        "{err}"
    );
    // Once it reads, nothing is said of it.
    p.write(
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
    );
    let out = p
        .hookx(&["install", "--host", "gemini", "--scope", "project"])
        .success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(!err.contains("cannot read"), "{err}");
}

/// Kiro's routes are a file hookx writes whole: a route the user turned off there (`"enabled":
/// false` on the rule, kiro-facts) or described stays so when install re-points it (hookx moved);
/// the re-point wrote the file anew and turned the route back on, as row 291 found for Gemini's
/// list (attacks row 481).
#[test]
fn a_kiro_route_the_user_turned_off_stays_off_when_re_pointed() {
    let p = Project::new();
    let install = |hookx: &str| {
        p.hookx(&[
            "install", "--host", "kiro", "--scope", "project", "--hookx", hookx,
        ])
        .success();
    };
    install("/opt/a/hookx");
    let path = ".kiro/hooks/hookx.json";
    let mut routes = p.json(path);
    for rule in routes["hooks"].as_array_mut().unwrap() {
        rule["enabled"] = json!(false);
        rule["description"] = json!("off while I try something");
    }
    p.write(path, &serde_json::to_string_pretty(&routes).unwrap());
    install("/opt/b/hookx");
    let routes = p.json(path);
    let rules = routes["hooks"].as_array().unwrap();
    assert!(!rules.is_empty(), "{routes:#}");
    for rule in rules {
        let line = rule["action"]["command"].as_str().unwrap();
        assert!(runs_kiro_route_of(line, "/opt/b/hookx"), "{routes:#}");
        assert_eq!(rule["enabled"], json!(false), "{routes:#}");
        assert_eq!(rule["description"], json!("off while I try something"));
    }
}

/// Row 481's leftover: a Kiro route whose `timeout` the user raised is set back to hookx's by a
/// re-point (`hookx run` answers within its own), as on a JSON route, but without the warning
/// JSON routes get (attacks row 342): said now, with what was found and what hookx writes.
#[test]
fn a_kiro_route_timeout_set_back_by_a_re_point_is_said() {
    let p = Project::new();
    let install = |hookx: &str| {
        let out = p
            .hookx(&[
                "install", "--host", "kiro", "--scope", "project", "--hookx", hookx,
            ])
            .success();
        String::from_utf8_lossy(&out.get_output().stderr).into_owned()
    };
    install("/opt/a/hookx");
    let path = ".kiro/hooks/hookx.json";
    let mut routes = p.json(path);
    let ours = routes["hooks"][0]["timeout"].clone();
    let event = routes["hooks"][0]["trigger"].as_str().unwrap().to_string();
    routes["hooks"][0]["timeout"] = json!(900);
    p.write(path, &serde_json::to_string_pretty(&routes).unwrap());
    let err = install("/opt/b/hookx");
    assert_eq!(p.json(path)["hooks"][0]["timeout"], ours);
    assert!(
        err.contains(&format!(
            "warning: set `timeout` on hookx's routes in {path} back to hookx's: {event} 900 \
             (hookx writes {ours})"
        )),
        "{err}"
    );
}

/// Attacks row 580 (row 540's leftover): Kiro's routes are a file install writes whole, and a
/// route line the user edited there (`./my-guard.sh && hookx run …`) was written anew by a
/// re-point and deleted with the file by an uninstall: the user's guard, which Kiro runs, gone
/// without a word. As in a JSON file since row 540, the edited route is left as it is and said.
#[test]
fn a_kiro_route_the_user_edited_keeps_their_line_through_a_re_point_and_an_uninstall() {
    let p = Project::new();
    let install = |more: &[&str]| {
        let mut args = vec!["install", "--host", "kiro", "--scope", "project"];
        args.extend_from_slice(more);
        let out = p.hookx(&args).success();
        String::from_utf8_lossy(&out.get_output().stderr).into_owned()
    };
    install(&["--hookx", "/opt/a/hookx"]);
    let path = ".kiro/hooks/hookx.json";
    let mut routes = p.json(path);
    assert!(routes["hooks"].as_array().unwrap().len() > 1, "{routes:#}");
    let line = routes["hooks"][0]["action"]["command"].as_str().unwrap();
    routes["hooks"][0]["action"]["command"] = json!(format!("./my-guard.sh && {line}"));
    let mine = routes["hooks"][0].clone();
    let event = mine["trigger"].as_str().unwrap().to_string();
    p.write(path, &serde_json::to_string_pretty(&routes).unwrap());
    let said = install(&["--hookx", "/opt/b/hookx"]);
    let routes = p.json(path);
    let rules = routes["hooks"].as_array().unwrap();
    assert_eq!(rules[0], mine, "{said}");
    assert!(
        said.contains(&format!(
            "{event}: {path} is hookx's route edited by hand, left as it is"
        )),
        "{said}"
    );
    for rule in &rules[1..] {
        let line = rule["action"]["command"].as_str().unwrap();
        assert!(runs_kiro_route_of(line, "/opt/b/hookx"), "{line}");
        assert_ne!(
            rule["trigger"],
            json!(event),
            "one route per event: {routes:#}"
        );
    }
    let said = install(&["--uninstall"]);
    assert_eq!(p.json(path)["hooks"], json!([mine]), "{said}");
    assert!(said.contains("edited by hand, left as it is"), "{said}");
}

/// Attacks row 545: Codex's `config.toml` with its `[hooks]` as an inline table (`hooks = {
/// PreToolUse = […] }`, TOML Codex reads): install checks the review file first, but with no
/// record to add, so the check passed; the routes were written into `.codex/hooks.json`, then
/// their review records could not go in ("cannot extend value of type inline table"), exit 1:
/// routes Codex skips, half an install. Now nothing is written.
#[test]
fn a_codex_review_file_install_cannot_add_to_stops_it_before_any_route_is_written() {
    let p = Project::new();
    let config = common::write(
        &p.home,
        ".codex/config.toml",
        "model = \"o4\"\nhooks = { PreToolUse = [ { matcher = \"Bash\", hooks = [ { type = \"command\", command = \"./mine.sh\" } ] } ] }\n",
    );
    let before = std::fs::read_to_string(&config).unwrap();
    let out = p
        .hookx(&["install", "--host", "codex", "--scope", "project"])
        .failure()
        .get_output()
        .clone();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("cannot record the review"), "{said}");
    assert!(!p.project.join(".codex/hooks.json").exists(), "{said}");
    assert_eq!(std::fs::read_to_string(&config).unwrap(), before);
}

/// Attacks row 1085: hookx moved (an upgrade into another `--root`, the old file removed)
/// after it was installed for Claude in both scopes, then `install` run again from the new
/// one in the project only (the default scope). The user's route still names the old hookx:
/// in every project without a route of its own, the user's trusted guards run nowhere (a
/// route that exits 127 is a non-blocking error under Claude Code 2.1.332, live
/// `a_route_whose_hookx_moved`). install re-pointed the project's route and said nothing of
/// the user's; it now names the other scope's routes that cannot run, and the install that
/// re-points them. Where they run, it says nothing of the kind. Since row 1140 the user's route
/// on a guard event denies every call there, and install says that too (row 1151).
#[test]
fn install_names_the_other_scopes_routes_whose_hookx_is_gone() {
    let p = Project::new();
    let guard = p.home.join(".gemini/settings.json");
    std::fs::create_dir_all(guard.parent().unwrap()).unwrap();
    std::fs::write(
        &guard,
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": "./guard.sh"}]}]}})
        .to_string(),
    )
    .unwrap();
    p.hookx(&["trust", guard.to_str().unwrap()]).success();
    let old = p.root.join("old/hookx");
    std::fs::create_dir_all(old.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_hookx"), &old).unwrap();
    let stale = "the hookx routes in ~/.claude/settings.json for SessionStart, ";
    let install = |scope: &str, hookx: &str| {
        let out = p
            .hookx(&[
                "install", "--host", "claude", "--scope", scope, "--hookx", hookx,
            ])
            .success();
        String::from_utf8_lossy(&out.get_output().stderr).into_owned()
    };
    install("user", old.to_str().unwrap());
    let said = install("project", old.to_str().unwrap());
    assert!(!said.contains("cannot run"), "{said}");
    std::fs::remove_file(&old).unwrap();
    let said = install("project", env!("CARGO_BIN_EXE_hookx"));
    assert!(
        said.contains(stale)
            && said.contains(" PreToolUse, ")
            && said.contains("name a hookx that cannot run")
            && said.contains("deny every call in every project while your trust record is there")
            && said.contains("hookx install --host claude --scope user"),
        "{said}"
    );
    let said = install("user", env!("CARGO_BIN_EXE_hookx"));
    assert!(!said.contains("cannot run"), "{said}");
    let said = install("project", env!("CARGO_BIN_EXE_hookx"));
    assert!(!said.contains("cannot run"), "{said}");
}

/// The user's trusted Gemini guard denying every shell call (`GUARD-SAYS-NO`), and the path
/// `old/hookx` below the root, its folder made: the hookx the routes will name.
fn trusted_gemini_guard_and_an_old_hookx_folder(p: &Project) -> PathBuf {
    let guard = p.home.join(".gemini/settings.json");
    std::fs::create_dir_all(guard.parent().unwrap()).unwrap();
    std::fs::write(
        &guard,
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "echo '{\"decision\":\"deny\",\"reason\":\"GUARD-SAYS-NO\"}'"}]}]}})
        .to_string(),
    )
    .unwrap();
    common::hookx_at(&p.project, &p.home, &["trust", guard.to_str().unwrap()]).success();
    let old = p.root.join("old/hookx");
    std::fs::create_dir_all(old.parent().unwrap()).unwrap();
    old
}

/// Attacks row 1080, decided (rows 1140, 1141): hookx moved (an upgrade into another `--root`,
/// the old file removed) or cut short at nothing (row 1082) while the user's routes name it.
/// The user's route denies a tool call itself, as the host reads a deny, with a reason that
/// names the hookx, the file and the install that mends it, while the home the route runs for
/// holds a trust record; on every other event it fails as before (a non-blocking error, or
/// exit 0 for the empty file), and without a record (hookx and its state removed) it answers
/// nothing. The project's route still fails open (row 622: a teammate without hookx). The
/// lines are run as Claude Code 2.1.332 runs them, `/bin/sh -c`, under a `HOME` a project set.
#[test]
fn a_user_route_whose_hookx_is_gone_denies_a_tool_call_while_a_trust_record_is_there() {
    let p = Project::new();
    let old = trusted_gemini_guard_and_an_old_hookx_folder(&p);
    for scope in ["user", "project"] {
        std::fs::copy(env!("CARGO_BIN_EXE_hookx"), &old).unwrap();
        // With `--home` on the routes: the lines below run as no account of that home.
        let install = [
            "install",
            "--host",
            "claude",
            "--scope",
            scope,
            "--hookx",
            old.to_str().unwrap(),
        ];
        common::hookx_at(&p.project, &p.home, &install).success();
    }
    let user_file = p.home.join(".claude/settings.json");
    let line = |file: &Path, event: &str| -> String {
        let value: Value = serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        value["hooks"][event][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let run = |line: &str, event: &str| {
        let payload = json!({"session_id": "s", "cwd": p.project, "hook_event_name": event,
            "tool_name": "Bash", "tool_input": {"command": "ls"}, "transcript_path": "/dev/null"});
        let out = assert_cmd::Command::new("/bin/sh")
            .arg("-c")
            .arg(line)
            .current_dir(&p.project)
            .env("HOME", p.project.join("elsewhere"))
            .env("CLAUDE_PROJECT_DIR", &p.project)
            .env_remove("HOOKX_HOME")
            .write_stdin(payload.to_string())
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let denied = serde_json::from_str::<Value>(stdout.trim())
            .ok()
            .and_then(|v| {
                (v["hookSpecificOutput"]["permissionDecision"] == "deny").then(|| {
                    v["hookSpecificOutput"]["permissionDecisionReason"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string()
                })
            });
        (out.status.code(), denied, stdout)
    };
    let project_file = p.project.join(".claude/settings.json");
    let (user_pre, user_stop) = (line(&user_file, "PreToolUse"), line(&user_file, "Stop"));
    let project_pre = line(&project_file, "PreToolUse");
    let (code, denied, _) = run(&user_pre, "PreToolUse");
    assert_eq!(
        (code, denied.as_deref()),
        (Some(0), Some("GUARD-SAYS-NO")),
        "{user_pre}"
    );
    for state in ["gone", "empty"] {
        match state {
            "gone" => std::fs::remove_file(&old).unwrap(),
            _ => {
                use std::os::unix::fs::PermissionsExt;
                std::fs::write(&old, "").unwrap();
                std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
        }
        let (code, denied, stdout) = run(&user_pre, "PreToolUse");
        let reason = denied.unwrap_or_else(|| panic!("{state}: no deny: {code:?} {stdout}"));
        for said in [
            "hookx could not check this tool call, so it is denied",
            &format!("hookx is not at {}", old.display()),
            &format!("its routes in {}", user_file.display()),
            "hookx install --host claude --scope user",
        ] {
            assert!(reason.contains(said), "{state}: {said}: {reason}");
        }
        assert_eq!(code, Some(0), "{state}");
        let (code, denied, stdout) = run(&user_stop, "Stop");
        let failed = if state == "gone" { Some(127) } else { Some(0) };
        assert_eq!(
            (code, denied, stdout.as_str()),
            (failed, None, ""),
            "{state}: Stop"
        );
        let (code, denied, stdout) = run(&project_pre, "PreToolUse");
        assert_eq!(
            (code, denied, stdout.as_str()),
            (failed, None, ""),
            "{state}: project"
        );
    }
    let record = p.home.join(".hookx/trust.json");
    std::fs::rename(&record, p.root.join("trust.json")).unwrap();
    let (code, denied, stdout) = run(&user_pre, "PreToolUse");
    assert_eq!(
        (code, denied, stdout.as_str()),
        (Some(0), None, ""),
        "no record"
    );
}

/// Attacks row 1147: the user's own `~/.hookx` made unsearchable to them (mode 000): the gone
/// guard's `[ -e RECORD ]` saw no record and let the call through (exit 0), where `hookx run`
/// itself, not able to read its record, denies. The guard now also denies where the record's
/// folder is there and cannot be searched; a folder searchable without the record, or no
/// folder, still exits 0 (the user who removed hookx's state is not trapped). Run as the
/// home's account: as root, uid 65534 owning the tree (root searches any folder).
#[test]
fn a_user_route_denies_where_its_state_folder_cannot_be_searched() {
    use std::os::unix::fs::PermissionsExt;
    let p = Project::new();
    let old = trusted_gemini_guard_and_an_old_hookx_folder(&p);
    std::fs::copy(env!("CARGO_BIN_EXE_hookx"), &old).unwrap();
    let install = [
        "install",
        "--host",
        "claude",
        "--scope",
        "user",
        "--hookx",
        old.to_str().unwrap(),
    ];
    common::hookx_at(&p.project, &p.home, &install).success();
    let settings = std::fs::read_to_string(p.home.join(".claude/settings.json")).unwrap();
    let value: Value = serde_json::from_str(&settings).unwrap();
    let line = value["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let root = rustix::process::geteuid().is_root();
    if root {
        let chown = std::process::Command::new("chown")
            .args(["-R", "65534:65534"])
            .arg(&p.root)
            .status();
        if !chown.is_ok_and(|s| s.success()) || which("setpriv").is_none() {
            eprintln!("skipped: running as root without chown or setpriv");
            return;
        }
    }
    let run = || {
        let mut cmd = match root {
            true => {
                let mut c = assert_cmd::Command::new("setpriv");
                c.args([
                    "--reuid=65534",
                    "--regid=65534",
                    "--clear-groups",
                    "/bin/sh",
                ]);
                c
            }
            false => assert_cmd::Command::new("/bin/sh"),
        };
        let payload = json!({"session_id": "s", "cwd": p.project, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "ls"}, "transcript_path": "/dev/null"});
        let out = cmd
            .arg("-c")
            .arg(&line)
            .current_dir(&p.project)
            .env("HOME", p.project.join("elsewhere"))
            .env_remove("HOOKX_HOME")
            .write_stdin(payload.to_string())
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let reason = serde_json::from_str::<Value>(stdout.trim())
            .ok()
            .filter(|v| v["hookSpecificOutput"]["permissionDecision"] == "deny")
            .map(|v| v["hookSpecificOutput"]["permissionDecisionReason"].to_string());
        (out.status.code(), reason, stdout)
    };
    let state = p.home.join(".hookx");
    let mode =
        |m: u32| std::fs::set_permissions(&state, std::fs::Permissions::from_mode(m)).unwrap();
    let (code, reason, _) = run();
    assert!(
        reason.is_some_and(|r| r.contains("GUARD-SAYS-NO")),
        "{code:?}"
    );
    // hookx there, its folder unsearchable: hookx run denies, not able to read its record.
    mode(0o000);
    let (code, reason, stdout) = run();
    let reason = reason.unwrap_or_else(|| panic!("hookx run: no deny: {code:?} {stdout}"));
    assert!(reason.contains("trust record"), "{reason}");
    // hookx gone: the route's guard denies as well.
    std::fs::remove_file(&old).unwrap();
    let (code, reason, stdout) = run();
    let reason = reason.unwrap_or_else(|| panic!("gone, folder 000: no deny: {code:?} {stdout}"));
    assert!(reason.contains("hookx is not at"), "{reason}");
    // A folder searchable without the record, and no folder: the call goes on.
    mode(0o700);
    std::fs::remove_file(state.join("trust.json")).unwrap();
    assert_eq!(run(), (Some(0), None, String::new()), "no record");
    std::fs::remove_dir_all(&state).unwrap();
    assert_eq!(run(), (Some(0), None, String::new()), "no folder");
}

/// A program's path on `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Attacks row 1143: Gemini CLI 0.61.0 reads a hook that exits with text at any code but 0 and
/// 1 as a block (gemini-facts), so a project's route whose hookx is gone (a teammate's clone
/// without hookx, or hookx moved), exiting 127 with the shell's "not found", refused every
/// prompt and kept every Stop going. Its routes now test their hookx, by path or on `PATH` as
/// the line names it, and exit 0 saying nothing where it cannot run; where it can, the line runs
/// it, and a trusted guard's deny comes back. The lines run as Gemini runs them, `bash -c`.
#[test]
fn a_gemini_route_whose_hookx_is_gone_blocks_nothing() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "true"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "true"}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command",
                "command": "echo R1143-NO >&2; exit 2"}]}]}})
        .to_string(),
    );
    common::hookx_at(&p.project, &p.home, &["trust", "--yes"]).success();
    let bin = p.root.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let old = p.root.join("old/hookx");
    std::fs::create_dir_all(old.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_hookx"), &old).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_hookx"), bin.join("hookx")).unwrap();
    let file = p.project.join(".gemini/settings.json");
    let lines = |hookx: &str| -> Vec<(String, String)> {
        common::hookx_at(
            &p.project,
            &p.home,
            &["install", "--host", "gemini", "--hookx", hookx],
        )
        .success();
        let value: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        ["BeforeAgent", "AfterAgent", "BeforeTool"]
            .iter()
            .map(|event| {
                let line = value["hooks"][event][0]["hooks"][0]["command"]
                    .as_str()
                    .unwrap_or_else(|| panic!("no {event} route: {value}"))
                    .to_string();
                (event.to_string(), line)
            })
            .collect()
    };
    let run = |line: &str, event: &str, path: &str| {
        let payload = json!({"session_id": "s", "cwd": p.project, "hook_event_name": event,
            "tool_name": "run_shell_command", "tool_input": {"command": "ls"},
            "prompt": "hi", "prompt_response": "done", "stop_hook_active": false,
            "transcript_path": "/dev/null", "timestamp": "2026-12-06T00:00:00Z"});
        let out = assert_cmd::Command::new("bash")
            .arg("-c")
            .arg(line)
            .current_dir(&p.project)
            .env("PATH", path)
            .env("HOME", &p.home)
            .env("GEMINI_PROJECT_DIR", &p.project)
            .write_stdin(payload.to_string())
            .timeout(std::time::Duration::from_secs(60))
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let system = "/usr/bin:/bin";
    let with_hookx = format!("{}:{system}", bin.display());
    for hookx in [old.to_str().unwrap(), "hookx"] {
        for (event, line) in lines(hookx) {
            let (code, stdout, stderr) = run(&line, &event, &with_hookx);
            if event == "BeforeTool" {
                assert!(
                    stdout.contains("R1143-NO") || stderr.contains("R1143-NO"),
                    "{hookx} {event}, hookx there: no deny: {code:?} {stdout} {stderr}\n{line}"
                );
            }
            // Gone: the program removed, or not on PATH.
            let gone_path = if hookx == "hookx" {
                system
            } else {
                &with_hookx
            };
            if hookx != "hookx" {
                std::fs::rename(&old, old.with_extension("away")).unwrap();
            }
            let gone = run(&line, &event, gone_path);
            if hookx != "hookx" {
                std::fs::rename(old.with_extension("away"), &old).unwrap();
            }
            assert_eq!(
                gone,
                (Some(0), String::new(), String::new()),
                "{hookx} {event}, hookx gone\n{line}"
            );
        }
    }
}

/// Whether `line` is a Kiro route running `hookx`: plain, or tested first where Kiro takes a
/// failed hook for a deny (attacks row 1143).
fn runs_kiro_route_of(line: &str, hookx: &str) -> bool {
    let plain = format!("{hookx} run --host kiro");
    line.starts_with(&plain)
        || (line.starts_with(&format!("[ -x {hookx} ] && [ -s {hookx} ] && exec {plain}"))
            && line.ends_with("; exit 0"))
}

/// Attacks row 1424, the team's loop: `install --host copilot` left the project's Claude
/// handlers to hookx (`disabledHooks`); then the Claude file is edited (a handler added, one
/// changed), as before a `hookx sync`. Copilot runs those two itself, with its PascalCase
/// payload (a Write's file is `path`: a guard reading `file_path` lets every write through).
/// `hookx trust`, the step that reviews the edit, lists them in `disabledHooks` as the install
/// did (the changed handler's old key out, the user's own key kept): hookx runs them. A handler
/// on an event no route of hookx's serves (a prompt hook here) would run nowhere if listed: it
/// stays Copilot's, and trust names it with the install that routes it; after that install
/// trust says nothing. A file not trusted gets nothing listed. `doctor` names the same install
/// as the fix, not "no setting".
#[test]
fn trust_lists_the_handlers_copilot_would_run_itself_since_the_install() {
    let p = Project::new();
    let guard = |f: &str| {
        json!({"matcher": "Write|Edit", "hooks": [{"type": "command",
            "command": format!("jq -r '.tool_input.file_path' | grep -q {f} && exit 2; exit 0")}]})
    };
    let settings = |rules: Vec<Value>, prompt: bool| {
        let mut hooks = json!({"PreToolUse": rules});
        if prompt {
            hooks["UserPromptSubmit"] =
                json!([{"hooks": [{"type": "command", "command": "echo prompted"}]}]);
        }
        json!({"hooks": hooks}).to_string()
    };
    common::write(
        &p.home,
        ".copilot/settings.json",
        r#"{"disabledHooks": ["users-own"]}"#,
    );
    p.write(
        ".claude/settings.json",
        &settings(vec![guard(".env"), guard("a")], false),
    );
    p.hookx(&["install", "--host", "copilot"]).success();
    p.hookx(&["trust", "--yes"]).success();
    let said = |args: &[&str]| {
        let out = p.hookx(args).get_output().clone();
        String::from_utf8_lossy(&[out.stdout, out.stderr].concat()).into_owned()
    };
    let listed = || -> Vec<String> {
        let text = std::fs::read_to_string(p.home.join(".copilot/settings.json")).unwrap();
        let v: Value = serde_json::from_str(&text).unwrap();
        serde_json::from_value(v["disabledHooks"].clone()).unwrap()
    };
    let installed = listed();
    assert_eq!(installed.len(), 3, "{installed:?}");
    let again = said(&["trust", "--yes"]);
    assert!(
        !again.contains("note: Copilot runs") && !again.contains("listed"),
        "nothing to say right after the install: {again}"
    );
    // Not trusted (a file named alone that is not it): nothing listed, the note.
    p.write(
        ".claude/settings.json",
        &settings(vec![guard(".env"), guard("b"), guard("secrets")], true),
    );
    let gemini = p.write(".gemini/settings.json", r#"{"hooks": {}}"#);
    let other = said(&["trust", gemini.to_str().unwrap()]);
    assert_eq!(listed(), installed, "{other}");
    assert!(other.contains("note: Copilot runs 3 handlers"), "{other}");
    let trusted = said(&["trust", "--yes"]);
    assert!(
        trusted.contains(
            "listed 2 handlers added or edited since `hookx install --host copilot` in \
             ~/.copilot/settings.json's `disabledHooks`: hookx runs them with the payload they \
             were written for, not Copilot's"
        ),
        "{trusted}"
    );
    let now = listed();
    assert_eq!(
        now.len(),
        4,
        "the user's, .env's, b's and secrets': {now:?}"
    );
    assert!(now.contains(&"users-own".to_string()), "{now:?}");
    assert!(
        now.contains(&installed[1]) && !now.contains(&installed[2]),
        "{now:?}"
    );
    assert!(
        trusted.contains(
            "note: Copilot runs 1 handler of .claude/settings.json itself, with its own \
             payload, not the one it was written for: added or edited since `hookx install \
             --host copilot` left this project's handlers to hookx; run `hookx install --host \
             copilot` again"
        ),
        "{trusted}"
    );
    let doctor = said(&["doctor", "--host", "copilot"]);
    assert!(
        doctor.contains(
            "to leave it to hookx, run `hookx install --host copilot`, which lists it in \
             Copilot's `disabledHooks`"
        ),
        "{doctor}"
    );
    p.hookx(&["install", "--host", "copilot"]).success();
    assert_eq!(listed().len(), 5);
    let again = said(&["trust", "--yes"]);
    assert!(!again.contains("note: Copilot runs"), "{again}");
}

/// Attacks row 1245: a running Gemini CLI session writes its settings back whole, as it read
/// them at its start, at its next settings write, undoing an install made meanwhile (live:
/// `live_gemini::a_session_writes_back_its_settings_without_a_route_installed_meanwhile`).
/// Install says so whenever it changes a file of such an agent (its table's
/// `rewrites_from_memory`), and only then: not when nothing changed, not for Copilot CLI.
#[test]
fn install_says_a_running_gemini_session_undoes_it() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "true"}]}]}})
        .to_string(),
    );
    let note = "note: a Gemini CLI session running now writes its settings back whole";
    let said = |args: &[&str]| {
        let out = common::hookx_at(&p.project, &p.home, args).success();
        String::from_utf8_lossy(&out.get_output().stderr).into_owned()
    };
    for scope in ["project", "user"] {
        let install = ["install", "--host", "gemini", "--scope", scope];
        let first = said(&install);
        assert!(first.contains(note), "{scope}: {first}");
        assert!(first.contains("`gemini mcp add`"), "{scope}: {first}");
        let again = said(&install);
        assert!(!again.contains(note), "{scope}, unchanged: {again}");
    }
    let uninstall = said(&["install", "--host", "gemini", "--uninstall"]);
    assert!(uninstall.contains(note), "{uninstall}");
    let other = said(&["install", "--host", "copilot"]);
    assert!(!other.contains("writes its settings back"), "{other}");
}

/// Attacks rows 2048 and 2049: Qwen Code 0.24.4 takes the last hook's permission field on a
/// tool call (a hook of the user's after hookx's route undoes its deny) and Droid 0.225.2 the
/// first's (hookx's allow before a hook of the user's hides its deny). Install puts its route
/// last in the event's list it edits, again when the user added a hook after it; the user's
/// hooks keep their order, and a group holding a hook of theirs beside the route stays put.
/// Claude folds by deny-beats-allow: its route stays where it is.
#[test]
fn install_puts_its_route_after_the_users_hooks_where_the_host_folds_by_place() {
    for (host, folder, moves) in [
        ("qwen", ".qwen", true),
        ("droid", ".factory", true),
        ("claude", ".claude", false),
    ] {
        let p = Project::new();
        let source = match host {
            "claude" => ".gemini/settings.json",
            _ => ".claude/settings.json",
        };
        let rule = match host {
            "claude" => {
                json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "/bin/true"}]}]}})
            }
            _ => json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": "/bin/true"}]}]}}),
        };
        common::write(&p.home, source, &rule.to_string());
        let event = "PreToolUse";
        let file = p.home.join(folder).join("settings.json");
        let args = [
            "install", "--host", host, "--scope", "user", "--hookx", HOOKX,
        ];
        p.hookx(&args).success();
        let mut settings: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap())
            .unwrap_or_else(|e| panic!("{host}: {e}"));
        let own = |name: &str| json!({"hooks": [{"type": "command", "command": name}]});
        let list = settings["hooks"][event].as_array_mut().unwrap();
        list.insert(0, own("own-first"));
        list.push(own("own-after"));
        std::fs::write(&file, serde_json::to_string_pretty(&settings).unwrap()).unwrap();
        let out = p.stdout(&args);
        let settings: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let order: Vec<String> = settings["hooks"][event]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let h = &g["hooks"][0];
                match is_own_route(h) {
                    true => "route".into(),
                    false => h["command"].as_str().unwrap_or_default().to_string(),
                }
            })
            .collect();
        let expected = match moves {
            true => ["own-first", "own-after", "route"],
            false => ["own-first", "route", "own-after"],
        };
        assert_eq!(order, expected, "{host}: {out}");
        assert_eq!(
            out.contains("moved hookx's route after the other hooks"),
            moves,
            "{host}: {out}"
        );
        // A second install moves nothing more.
        let again = p.stdout(&args);
        assert!(again.contains("already installed"), "{host}: {again}");
    }
}

/// Attacks row 2131: hookx's route in a project's file, under a host that decides a tool call
/// by one hook's place and runs the user's file after the project's (Qwen Code 0.24.4 the last
/// field, Droid 0.225.2 the first; rows 2120, 2121): a hook of the user's own on the same
/// event runs after the route, which install cannot move across files. `install` says so, with
/// the hook's place; Claude (deny beats allow) says nothing of it.
#[test]
fn a_project_install_says_the_users_hooks_run_after_its_route_where_the_host_decides_by_place() {
    for (host, folder, said) in [
        ("qwen", ".qwen", true),
        ("droid", ".factory", true),
        ("claude", ".claude", false),
    ] {
        let p = Project::new();
        let source = match host {
            "claude" => ".gemini/settings.json",
            _ => ".claude/settings.json",
        };
        let rule = match host {
            "claude" => {
                json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "/bin/true"}]}]}})
            }
            _ => json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": "/bin/true"}]}]}}),
        };
        p.write(source, &rule.to_string());
        let mine = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "./mine.sh"}]}]}});
        common::write(
            &p.home,
            &format!("{folder}/settings.json"),
            &mine.to_string(),
        );
        p.hookx(&["trust", "--yes"]).success();
        let out = p
            .hookx(&["install", "--host", host, "--hookx", HOOKX])
            .success()
            .get_output()
            .clone();
        let err = String::from_utf8_lossy(&out.stderr);
        let want = format!(
            "warning: the hook at ~/{folder}/settings.json PreToolUse[0], line 1 runs after \
             hookx's route at {folder}/settings.json PreToolUse["
        );
        assert_eq!(err.contains(&want), said, "{host}: {err}");
        if said {
            let fix =
                format!("(fix: move that hook into {folder}/settings.json before hookx's route");
            assert!(err.contains(&fix), "{host}: {err}");
        }
    }
}
