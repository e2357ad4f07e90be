//! `hookx doctor` (issue 13): one test per silent-failure cause, each on the layout the real
//! agent reads, with the fix it proposes; the recorded payload keys the diagnosis relies on;
//! and a snapshot of the whole report on a realistic project.

mod common;

use hookx::model::EventKind;
use hookx::tables::Flavor;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A home, a git project and an empty stand-in for `/` (so the machine's `/etc` never counts),
/// in the build's own temporary folder: Gemini's policy files count only on a path that others
/// than root cannot write, which `/tmp` is not.
struct World {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl World {
    /// A trusted `./guard.sh` on Bash in the user's Claude file, and `host`'s user route.
    fn route_a_trusted_user_guard(&self, host: &str) {
        self.write_json(
            "home/.claude/settings.json",
            claude_hooks(&[("PreToolUse", Some("Bash"), command("./guard.sh"))]),
        );
        let guard = self.home().join(".claude/settings.json");
        let trust = self.hookx(&["trust", guard.to_str().unwrap()]);
        assert!(trust.status.success(), "{trust:?}");
        let install = self.hookx(&["install", "--host", host, "--scope", "user"]);
        assert!(install.status.success(), "{install:?}");
    }

    fn new() -> World {
        // Gemini reads a system file only on a path only root can write (see
        // `root_owned_path`): a checkout below /tmp is on none, /run is when the tests run as root.
        let target = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let base = [target, Path::new("/run")]
            .into_iter()
            .find(|b| root_owned_path(b))
            .unwrap_or(target);
        let dir = tempfile::tempdir_in(base).unwrap();
        let root = dir.path().canonicalize().unwrap();
        for d in ["home", "project/.git", "managed"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        World { _dir: dir, root }
    }

    fn project(&self) -> PathBuf {
        self.root.join("project")
    }

    fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        common::write(&self.root, rel, text)
    }

    fn write_json(&self, rel: &str, value: Value) -> PathBuf {
        self.write(rel, &serde_json::to_string_pretty(&value).unwrap())
    }

    /// `hookx ARGS… --project P --home H` with the stand-in policy root.
    fn hookx(&self, args: &[&str]) -> std::process::Output {
        self.hookx_with(args, &[])
    }

    /// [`World::hookx`] with the variables `vars` set too.
    fn hookx_with(&self, args: &[&str], vars: &[(&str, PathBuf)]) -> std::process::Output {
        common::hookx()
            .envs(vars.iter().map(|(k, v)| (k, v)))
            .args(args)
            .arg("--project")
            .arg(self.project())
            .arg("--home")
            .arg(self.home())
            .env("HOME", self.home())
            .env_remove("HOOKX_HOME")
            .env("HOOKX_MANAGED_ROOT", self.root.join("managed"))
            .output()
            .unwrap()
    }

    /// `hookx doctor --format json` (under `host`, if given): its exit code and report.
    fn doctor(&self, host: Option<&str>) -> (i32, Value) {
        let mut args = vec!["doctor", "--format", "json"];
        match host {
            Some(host) => args.extend(["--host", host]),
            // Every agent, had or not: the temporary home has none of their signs.
            None => args.push("--all-hosts"),
        }
        let out = self.hookx(&args);
        let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "doctor printed no JSON ({e}): {}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (out.status.code().unwrap(), report)
    }
}

fn file<'a>(report: &'a Value, display: &str) -> &'a Value {
    report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == display)
        .unwrap_or_else(|| panic!("no file {display} in {report:#}"))
}

fn loading<'a>(report: &'a Value, display: &str, host: &str) -> &'a Value {
    file(report, display)["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["host"] == host)
        .unwrap_or_else(|| panic!("no {host} loading of {display}"))
}

/// The verdict on the rule written under `event` in `display`, under `host`.
fn verdict<'a>(report: &'a Value, display: &str, event: &str, host: &str) -> &'a Value {
    file(report, display)["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["event"] == event)
        .unwrap_or_else(|| panic!("no rule {event} in {display}: {report:#}"))["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["host"] == host)
        .unwrap_or_else(|| panic!("no {host} verdict"))
}

/// The findings' messages and fixes, one string each.
fn findings(value: &Value) -> Vec<String> {
    value["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| format!("{} | fix: {}", f["message"], f["fix"]))
        .collect()
}

fn has(value: &Value, message: &str, fix: Option<&str>) -> bool {
    value["findings"].as_array().unwrap().iter().any(|f| {
        f["message"].as_str().unwrap().contains(message)
            && fix.is_none_or(|fix| f["fix"].as_str().is_some_and(|f| f.contains(fix)))
    })
}

fn command(text: &str) -> Value {
    json!({"type": "command", "command": text})
}

/// A Claude settings file's `hooks`, one group per (event, matcher, command).
fn claude_hooks(groups: &[(&str, Option<&str>, Value)]) -> Value {
    let mut hooks = serde_json::Map::new();
    for (event, matcher, handler) in groups {
        let mut group = json!({"hooks": [handler]});
        if let Some(m) = matcher {
            group["matcher"] = json!(m);
        }
        hooks
            .entry(event.to_string())
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .unwrap()
            .push(group);
    }
    json!({"hooks": hooks})
}

#[test]
fn a_project_settings_file_that_does_not_parse_loads_no_hook() {
    // The project PreToolUse hook `/hooks` does not show: a trailing comma drops the file.
    let w = World::new();
    w.write(
        "project/.claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}],}}"#,
    );
    let (code, report) = w.doctor(Some("claude"));
    assert_eq!(
        code, 5,
        "a file that loads nowhere is a rule that never fires"
    );
    let l = loading(&report, ".claude/settings.json", "claude");
    assert_eq!(l["status"], "never");
    assert!(
        has(
            l,
            "does not parse",
            Some("hookx validate .claude/settings.json")
        ),
        "{:?}",
        findings(l)
    );
}

/// Attacks row 587: the project's `.claude/settings.json` a link to a file not there (a team's
/// hooks kept in a submodule not checked out), or a pipe: Claude reads no hooks from it (2.1.332
/// logs "Broken symlink or missing file encountered for settings.json"), and doctor said "no
/// hook files found", exit 0, and `validate` "0 error(s)". Both name the place and what is
/// there, and fail as for a file no agent can read.
#[test]
fn a_hook_file_place_holding_a_link_to_nothing_is_said() {
    let w = World::new();
    let settings = w.project().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("../vendor/team-hooks/settings.json", &settings).unwrap();
    let (code, report) = w.doctor(Some("claude"));
    assert_eq!(code, 5, "{report:#}");
    let said = report["unreadable"].to_string();
    assert!(
        said.contains(
            ".claude/settings.json is a symbolic link to nothing: Claude reads no hooks from it"
        ),
        "{report:#}"
    );
    // `validate` with no file named checks every hook file: it said "0 error(s) … in 0
    // file(s)", exit 0.
    let out = w.hookx(&["validate"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error: .claude/settings.json: is a symbolic link to nothing"),
        "{err}"
    );
}

#[test]
fn a_malformed_pretooluse_entry_hides_the_whole_project_file_from_claude() {
    // A handler written without its `{matcher, hooks}` group: Claude 2.1.332 skips the whole
    // file, its valid Stop rule too (tests/live_claude_doctor.rs); hookx drops the entry only.
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        json!({"hooks": {
            "PreToolUse": [{"type": "command", "command": "./guard.sh", "matcher": "Bash"}],
            "Stop": [{"hooks": [command("./notify.sh")]}],
        }}),
    );
    let (code, report) = w.doctor(None);
    assert_eq!(code, 5);
    let f = file(&report, ".claude/settings.json");
    assert_eq!(f["problems"].as_array().unwrap().len(), 1, "{f:#}");
    let l = loading(&report, ".claude/settings.json", "claude");
    assert_eq!(l["status"], "never");
    assert!(
        has(
            l,
            "Claude skips this whole file: its malformed `PreToolUse` entry",
            Some("hookx validate .claude/settings.json")
        ),
        "{:?}",
        findings(l)
    );
    assert_eq!(
        verdict(&report, ".claude/settings.json", "Stop", "claude")["status"],
        "never"
    );
    // Through hookx (Bricks) the valid rule still runs once trusted.
    assert_eq!(
        verdict(&report, ".claude/settings.json", "Stop", "bricks")["status"],
        "blocked"
    );
}

/// Entries Claude Code 2.1.332 does not load on an event where it runs the rest of the file
/// (attacks row 720, live: `live_claude_doctor::doctor_says_which_rules_claude_fires`): doctor
/// and list said each fires while validate said Claude does not load it.
#[test]
fn a_claude_entry_claude_leaves_out_beside_the_rest_never_fires() {
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        json!({"hooks": {
            "UserPromptSubmit": [{"matcher": null, "hooks": [command("./null.sh")]}],
            "Stop": [{"hooks": [{"command": "./untyped.sh"}]}],
            "PostToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "./zero.sh", "timeout": 0}]},
                {"matcher": "Bash", "hooks": [command("./ok.sh"), {"type": "command", "command": "./async.sh", "async": "yes"}]},
            ],
            "SessionStart": [{"hooks": [command("./start.sh")]}],
        }}),
    );
    let (code, report) = w.doctor(Some("claude"));
    assert_eq!(code, 5, "{report:#}");
    assert_eq!(
        loading(&report, ".claude/settings.json", "claude")["status"],
        "fires"
    );
    let rules = file(&report, ".claude/settings.json")["rules"]
        .as_array()
        .unwrap();
    let status = |handler: &str| {
        let rule = rules
            .iter()
            .find(|r| r["handler"].as_str().unwrap().starts_with(handler))
            .unwrap_or_else(|| panic!("no rule of {handler}: {report:#}"));
        (
            rule["hosts"][0]["status"].clone(),
            findings(&rule["hosts"][0]),
        )
    };
    for handler in ["./null.sh", "./untyped.sh", "./zero.sh"] {
        let (status, said) = status(handler);
        assert_eq!(status, "never", "{handler}: {said:?}");
        assert!(
            said.iter()
                .any(|f| f.contains("Claude does not load this entry")),
            "{handler}: {said:?}"
        );
    }
    // A rule of two handlers, one Claude leaves out: it still fires, and says which.
    let (status_ok, said) = status("./ok.sh");
    assert_eq!(status_ok, "fires", "{said:?}");
    assert!(
        said.iter().any(
            |f| f.contains("Claude does not load its handler 2: `async` must be true or false")
        ),
        "{said:?}"
    );
    assert_eq!(status("./start.sh").0, "fires");
    let out = w.hookx(&["list", "--host", "claude"]);
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(
        list.contains(
            "nobody (Claude does not load this entry of .claude/settings.json: `matcher` is null"
        ),
        "{list}"
    );
}

#[test]
fn a_kill_switch_in_local_settings_turns_the_project_hook_off() {
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[("PreToolUse", Some("Bash"), command("./guard.sh"))]),
    );
    w.write_json(
        "project/.claude/settings.local.json",
        json!({"disableAllHooks": true}),
    );
    // Claude obeys it whether or not hookx trusts the file.
    let (_, report) = w.doctor(Some("claude"));
    assert_eq!(
        verdict(&report, ".claude/settings.json", "PreToolUse", "claude")["status"],
        "blocked"
    );
    // Under another host hookx obeys it only once trusted (untrusted content turns nothing off).
    let (_, report) = w.doctor(Some("bricks"));
    assert!(!has(
        loading(&report, ".claude/settings.json", "bricks"),
        "disableAllHooks",
        None
    ));
    assert!(w.hookx(&["trust", "--yes"]).status.success());
    let (_, report) = w.doctor(Some("bricks"));
    assert!(has(
        loading(&report, ".claude/settings.json", "bricks"),
        "disableAllHooks",
        None
    ));
    let (code, report) = w.doctor(Some("claude"));
    // Switched off, it fires under none of the agents examined (the fix turns it back on).
    assert_eq!(code, 5);
    let v = verdict(&report, ".claude/settings.json", "PreToolUse", "claude");
    assert_eq!(v["status"], "blocked");
    let l = loading(&report, ".claude/settings.json", "claude");
    assert!(
        has(
            l,
            "\"disableAllHooks\": true in .claude/settings.local.json",
            Some("remove \"disableAllHooks\" from .claude/settings.local.json")
        ),
        "{:?}",
        findings(l)
    );
}

/// Attacks row 861: Qwen Code 0.24.4's `disableAllHooks` (the last of system defaults, user,
/// project, system settings that sets it wins; live: `live_qwen::
/// disable_all_hooks_merges_across_scopes`). A user guard in `~/.qwen/settings.json`, the
/// project's `.qwen/settings.json` turning every hook off: Qwen runs it nowhere, and hookx,
/// which had no switch for Qwen, said it fired. A project's `false` over the user's `true`
/// turns them on again.
#[test]
fn qwens_disable_all_hooks_turns_its_hooks_off() {
    let w = World::new();
    let guard = claude_hooks(&[("PreToolUse", None, command("./guard.sh"))]);
    let mut off = guard.clone();
    off["disableAllHooks"] = json!(true);
    w.write_json("home/.qwen/settings.json", off);
    w.write_json("project/.qwen/settings.json", json!({"hooks": {}}));
    let status = |w: &World| {
        let (_, report) = w.doctor(Some("qwen"));
        verdict(&report, "~/.qwen/settings.json", "PreToolUse", "qwen")["status"].clone()
    };
    assert_eq!(status(&w), "blocked", "the user's own switch");
    w.write_json(
        "project/.qwen/settings.json",
        json!({"hooks": {}, "disableAllHooks": false}),
    );
    assert!(w.hookx(&["trust", "--yes"]).status.success());
    assert_ne!(
        status(&w),
        "blocked",
        "the project's false over the user's true"
    );
    w.write_json("home/.qwen/settings.json", guard);
    w.write_json(
        "project/.qwen/settings.json",
        json!({"hooks": {}, "disableAllHooks": true}),
    );
    assert_eq!(status(&w), "blocked", "the project's switch");
}

/// Codex loads no part of an untrusted project's `.codex/`, in `codex exec` as interactively
/// (codex-facts.md, run 0.171.0): doctor says so, not Copilot's "in `-p` mode".
#[test]
fn codex_hooks_in_an_untrusted_project_never_load() {
    let w = World::new();
    w.write_json(
        "project/.codex/hooks.json",
        json!({"hooks": {"PreToolUse": [{"hooks": [command("./deny.sh")]}]}}),
    );
    let (_, report) = w.doctor(Some("codex"));
    let l = loading(&report, ".codex/hooks.json", "codex");
    assert_eq!(l["runner"], "native");
    assert_eq!(l["status"], "blocked");
    let gate = l["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| {
            f["message"]
                .as_str()
                .unwrap()
                .contains("only in a trusted folder")
        })
        .unwrap_or_else(|| panic!("no folder-trust finding: {:?}", findings(l)));
    let message = gate["message"].as_str().unwrap();
    assert!(
        message.contains("~/.codex/config.toml `[projects]`")
            && message.contains("Codex does not load the project's `.codex/` folder")
            && !message.contains("-p"),
        "{message}"
    );
    assert!(
        gate["fix"].as_str().unwrap().contains("codex exec --trust"),
        "{gate}"
    );

    // Trusted by its exact path, as `codex exec --trust` records it: no such finding.
    w.write(
        "home/.codex/config.toml",
        &format!(
            "[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
            w.project().display()
        ),
    );
    let (_, report) = w.doctor(Some("codex"));
    let l = loading(&report, ".codex/hooks.json", "codex");
    assert!(
        !has(l, "only in a trusted folder", None),
        "{:?}",
        findings(l)
    );
}

/// A Copilot entry Copilot leaves out (`"timeoutSec": 0`) is said once on its rule, with the
/// fix: the plan's runner line ("nobody (Copilot does not load this entry …)") said it a second
/// time.
#[test]
fn a_copilot_entry_copilot_leaves_out_is_said_once() {
    let w = World::new();
    w.write_json(
        "project/.github/hooks/hooks.json",
        json!({"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": "./guard.sh", "timeoutSec": 0},
            {"type": "command", "bash": "./ok.sh"}]}}),
    );
    let out = w.hookx(&["doctor", "--host", "copilot"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.matches("does not load this entry").count(),
        1,
        "{text}"
    );
    assert!(text.contains("never fires: copilot"), "{text}");
}

/// Copilot CLI 1.0.102 does not load an entry of its own `.github/hooks/*.json` whose
/// `timeoutSec` (PascalCase: `timeout`) is 0, -1, `"5"`, `null` or `true`; it runs the rest of
/// the file, and takes 0.5 or 1e12 (live: `live_copilot::own_file_timeouts`). doctor says
/// such an entry never fires there, and why; validate says it at the value.
#[test]
fn a_copilot_entry_with_a_timeout_copilot_refuses_never_fires_there() {
    let w = World::new();
    let entry = |name: &str, t: Value| json!({"type": "command", "bash": format!("./{name}.sh"), "timeoutSec": t});
    w.write_json(
        "project/.github/hooks/hooks.json",
        json!({"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": "./guard.sh"},
            entry("zero", json!(0)), entry("minus", json!(-1)), entry("text", json!("5")),
            entry("null", Value::Null), entry("half", json!(0.5)), entry("huge", json!(1e12))],
            "PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "./beside.sh"},
                {"type": "command", "command": "./pascal.sh", "timeout": 0}]}]}}),
    );
    let (_, report) = w.doctor(Some("copilot"));
    let rule = |handler: &str| -> Value {
        file(&report, ".github/hooks/hooks.json")["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| {
                r["handler"]
                    .as_str()
                    .is_some_and(|h| h.starts_with(handler))
            })
            .unwrap_or_else(|| panic!("no rule {handler}: {report:#}"))["hosts"][0]
            .clone()
    };
    for (name, value) in [
        ("zero", "0"),
        ("minus", "-1"),
        ("text", "\"5\""),
        ("null", "null"),
    ] {
        let v = rule(&format!("./{name}.sh"));
        assert_eq!(v["status"], "never", "{name}: {v:#}");
        assert!(
            has(
                &v,
                &format!("Copilot does not load this entry: `\"timeoutSec\": {value}`"),
                Some("write a number of seconds above 0, or leave `\"timeoutSec\"` out")
            ),
            "{name}: {v:#}"
        );
    }
    for name in ["guard", "half", "huge"] {
        let v = rule(&format!("./{name}.sh"));
        assert_eq!(v["status"], "blocked", "{name}: {v:#}");
        assert!(!has(&v, "does not load", None), "{name}: {v:#}");
    }
    // One handler of a group: the rest of the group runs.
    let v = rule("./beside.sh");
    assert_eq!(v["status"], "blocked", "{v:#}");
    assert!(
        has(
            &v,
            "Copilot does not load its handler 2: `\"timeout\": 0`",
            None
        ),
        "{v:#}"
    );
    let out = common::hookx()
        .arg("validate")
        .arg(w.project().join(".github/hooks/hooks.json"))
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("warning: Copilot does not load an entry whose `timeoutSec` is 0")
            && said.contains(
                "found \"5\"; Copilot does not load this entry (the rest of the file runs)"
            )
            && said.contains("warning: Copilot does not load an entry whose `timeout` is 0"),
        "{said}"
    );
}

#[test]
fn repo_hooks_in_an_untrusted_folder_do_not_run_in_prompt_mode() {
    let w = World::new();
    w.write_json(
        "project/.github/hooks/hooks.json",
        json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./deny.sh"}]}}),
    );
    let (code, report) = w.doctor(Some("copilot"));
    // Held back under the only agent examined: it fires under none.
    assert_eq!(code, 5);
    let l = loading(&report, ".github/hooks/hooks.json", "copilot");
    assert_eq!(l["runner"], "native");
    assert_eq!(l["status"], "blocked");
    assert!(
        has(
            l,
            "only in a trusted folder",
            Some("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true")
        ),
        "{:?}",
        findings(l)
    );
    assert_eq!(
        verdict(&report, ".github/hooks/hooks.json", "preToolUse", "copilot")["status"],
        "blocked"
    );

    // Trusted for future sessions (the folder in Copilot's record): it fires.
    w.write_json(
        "home/.copilot/config.json",
        json!({"trusted_folders": [w.project()]}),
    );
    let (_, report) = w.doctor(Some("copilot"));
    let l = loading(&report, ".github/hooks/hooks.json", "copilot");
    assert_eq!(l["status"], "fires", "{:?}", findings(l));
    // User hooks never needed the folder's trust.
    w.write_json(
        "home/.copilot/hooks/mine.json",
        json!({"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "true"}]}}),
    );
    std::fs::remove_file(w.home().join(".copilot/config.json")).unwrap();
    let (_, report) = w.doctor(Some("copilot"));
    assert_eq!(
        loading(&report, "~/.copilot/hooks/mine.json", "copilot")["status"],
        "fires"
    );
}

/// Attacks row 324: Copilot CLI 1.0.102 rewrites `~/.copilot/config.json` itself on every
/// run (sealed, by hand): two comment lines first and the list renamed `trustedFolders`, the
/// text below as it wrote it. It reads that file back as trusting the folder (its repo hook
/// ran; with `{}` it did not). hookx read only `trusted_folders` with a strict parser: doctor
/// said the project's hooks never run, and, worse, that the user's guard fires under Copilot
/// where the project's `disableAllHooks` turns it off.
#[test]
fn copilots_own_rewrite_of_its_folder_record_still_trusts_the_folder() {
    let w = World::new();
    let rewritten = |folder: &str| {
        format!(
            "// User settings belong in settings.json.\n// This file is managed automatically.\n{{\n  \"trustedFolders\": [\n    {}\n  ],\n  \"firstLaunchAt\": \"2026-03-11T00:00:00.000Z\"\n}}",
            json!(folder)
        )
    };
    w.write_json(
        "project/.github/hooks/hooks.json",
        json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "./deny.sh"}]}}),
    );
    let config = w.home().join(".copilot/config.json");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(&config, rewritten(w.project().to_str().unwrap())).unwrap();
    let (_, report) = w.doctor(Some("copilot"));
    let l = loading(&report, ".github/hooks/hooks.json", "copilot");
    assert_eq!(l["status"], "fires", "{:?}", findings(l));

    w.route_a_trusted_user_guard("copilot");
    w.write_json(
        "project/.github/copilot/settings.json",
        json!({"disableAllHooks": true}),
    );
    let (_, report) = w.doctor(Some("copilot"));
    assert_eq!(
        verdict(&report, "~/.claude/settings.json", "PreToolUse", "copilot")["status"],
        "blocked",
        "the project's disableAllHooks turns the user's guard off in a folder Copilot trusts"
    );
}

/// Gemini CLI 0.61.0 reads `~/.gemini/trustedFolders.json` as JSON with comments only
/// (bundle: `parseTrustedFoldersJson`, `JSON.parse(stripJsonComments(content))`); a trailing
/// comma is a parse error, which `checkPathTrust` makes a `FatalConfigError`: no hook of the
/// folder runs (the CLI does not start). On `d79a14b` hookx read the record as loosely as
/// Copilot's (row 324) and said the project's Gemini hooks fire.
#[test]
fn geminis_folder_record_is_read_as_gemini_reads_it() {
    let w = World::new();
    w.write_json(
        "project/.gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "./deny.sh"}]}]}}),
    );
    let record = w.home().join(".gemini/trustedFolders.json");
    std::fs::create_dir_all(record.parent().unwrap()).unwrap();
    let folder = json!(w.project().to_str().unwrap());
    for (text, fires) in [
        (
            format!("// mine\n{{\n  {folder}: \"TRUST_FOLDER\"\n}}"),
            true,
        ),
        (format!("{{\n  {folder}: \"TRUST_FOLDER\",\n}}"), false),
    ] {
        std::fs::write(&record, &text).unwrap();
        let (_, report) = w.doctor(Some("gemini"));
        let l = loading(&report, ".gemini/settings.json", "gemini");
        let status = if fires { "fires" } else { "blocked" };
        assert_eq!(l["status"], status, "{text}: {:?}", findings(l));
    }
}

/// Attacks row 332: the user turned hookx's Gemini route off in Gemini's own list
/// (`hooksConfig.disabled`, by its command; Gemini runs no handler named there, gemini-facts):
/// Gemini never calls hookx for that event, and doctor said the guard routed through it fires.
#[test]
fn a_route_the_user_turned_off_in_gemini_is_said_off() {
    let w = World::new();
    w.route_a_trusted_user_guard("gemini");
    let (_, report) = w.doctor(Some("gemini"));
    assert_eq!(
        verdict(&report, "~/.claude/settings.json", "PreToolUse", "gemini")["status"],
        "fires"
    );
    let settings = w.home().join(".gemini/settings.json");
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let line = value["hooks"]["BeforeTool"][0]["hooks"][0]["command"].clone();
    // Gemini 0.61.0's own `/hooks disable` writes the workspace's list (bundle read), and
    // Gemini joins every scope's: the project's file turns the user route off too.
    w.write_json(
        "project/.gemini/settings.json",
        json!({"hooksConfig": {"disabled": [line.clone()]}}),
    );
    let (_, report) = w.doctor(Some("gemini"));
    let v = verdict(&report, "~/.claude/settings.json", "PreToolUse", "gemini");
    assert_eq!(v["status"], "blocked", "the workspace's list: {v:#}");
    std::fs::remove_file(w.project().join(".gemini/settings.json")).unwrap();
    value["hooksConfig"] = json!({"disabled": [line]});
    std::fs::write(&settings, value.to_string()).unwrap();
    let (_, report) = w.doctor(Some("gemini"));
    let v = verdict(&report, "~/.claude/settings.json", "PreToolUse", "gemini");
    assert_eq!(v["status"], "blocked", "{v:#}");
    assert!(
        has(v, "it is turned off in `hooksConfig.disabled`", None),
        "{v:#}"
    );
}

/// Attacks row 335: row 332 under Codex: hookx's Codex route not reviewed (its record gone) or
/// turned off in Codex (`enabled = false`, mend11's row 227 leftover: doctor says so on the
/// route's file): Codex skips it silently, and doctor still said the guard routed through it
/// fires under Codex.
#[test]
fn a_codex_route_codex_skips_leaves_the_rules_it_routes_off() {
    for form in ["no record", "turned off"] {
        let w = World::new();
        w.write_json(
            "home/.gemini/settings.json",
            json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
                "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}),
        );
        let guard = w.home().join(".gemini/settings.json");
        assert!(
            w.hookx(&["trust", guard.to_str().unwrap()])
                .status
                .success()
        );
        let install = w.hookx(&["install", "--host", "codex", "--scope", "user"]);
        assert!(install.status.success(), "{install:?}");
        let (_, report) = w.doctor(Some("codex"));
        assert_eq!(
            verdict(&report, "~/.gemini/settings.json", "BeforeTool", "codex")["status"],
            "fires",
            "{form}: reviewed"
        );
        let config = w.home().join(".codex/config.toml");
        match form {
            "no record" => std::fs::write(&config, "").unwrap(),
            _ => {
                let text = std::fs::read_to_string(&config).unwrap();
                std::fs::write(&config, format!("{text}enabled = false\n")).unwrap();
            }
        }
        let (_, report) = w.doctor(Some("codex"));
        let v = verdict(&report, "~/.gemini/settings.json", "BeforeTool", "codex");
        assert_eq!(v["status"], "blocked", "{form}: {v:#}");
        assert!(has(v, "Codex skips hookx's route", None), "{form}: {v:#}");
    }
}

/// A repository's `"disableAllHooks": true` turns off every hook Copilot runs in a trusted
/// folder, the user's own and hookx's user route too (run 1.0.102, `tests/live_copilot.rs`
/// `a_repo_kill_switch_turns_off_the_users_hooks_too`): the user's trusted guard, run through
/// that route, is blocked, naming the file and the key. In an untrusted folder Copilot reads
/// none of those files, and the guard fires.
#[test]
fn a_repo_kill_switch_turns_off_copilots_user_route_too() {
    for file in [
        ".github/copilot/settings.json",
        ".claude/settings.json",
        ".claude/settings.local.json",
    ] {
        let w = World::new();
        w.route_a_trusted_user_guard("copilot");
        w.write_json(&format!("project/{file}"), json!({"disableAllHooks": true}));
        let (_, report) = w.doctor(Some("copilot"));
        let l = loading(&report, "~/.claude/settings.json", "copilot");
        assert_eq!(l["runner"], "hookx");
        assert_eq!(l["status"], "fires", "untrusted folder: {:?}", findings(l));

        w.write_json(
            "home/.copilot/config.json",
            json!({"trusted_folders": [w.project()]}),
        );
        let (code, report) = w.doctor(Some("copilot"));
        assert_eq!(code, 5, "it fires under none of the agents examined");
        let l = loading(&report, "~/.claude/settings.json", "copilot");
        assert!(
            has(
                l,
                &format!("\"disableAllHooks\": true in {file} turns off every hook Copilot runs"),
                Some(&format!("remove \"disableAllHooks\" from {file}"))
            ),
            "{:?}",
            findings(l)
        );
        assert_eq!(
            verdict(&report, "~/.claude/settings.json", "PreToolUse", "copilot")["status"],
            "blocked"
        );
        // `false` leaves every hook on.
        w.write_json(
            &format!("project/{file}"),
            json!({"disableAllHooks": false}),
        );
        let (_, report) = w.doctor(Some("copilot"));
        let l = loading(&report, "~/.claude/settings.json", "copilot");
        assert_eq!(l["status"], "fires", "{:?}", findings(l));
    }
}

#[test]
fn unknown_event_keys_never_fire_and_the_fix_names_the_key() {
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[("pretooluse", Some("Bash"), command("./guard.sh"))]),
    );
    w.write_json(
        "project/.github/hooks/hooks.json",
        json!({"version": 1, "hooks": {"preToolUsed": [{"type": "command", "bash": "./deny.sh"}]}}),
    );
    let (code, report) = w.doctor(None);
    assert_eq!(code, 5);
    assert_eq!(report["never_fire"], 2);
    for host in ["claude", "copilot", "bricks"] {
        let v = verdict(&report, ".claude/settings.json", "pretooluse", host);
        assert_eq!(v["status"], "never", "{host}");
        assert!(
            has(
                v,
                "`pretooluse` is no claude event",
                Some("rename the key `pretooluse` to `PreToolUse`")
            ),
            "{:?}",
            findings(v)
        );
        let v = verdict(&report, ".github/hooks/hooks.json", "preToolUsed", host);
        assert_eq!(v["status"], "never", "{host}");
        assert!(
            has(
                v,
                "`preToolUsed` is no copilot event",
                Some("to `preToolUse`")
            ),
            "{:?}",
            findings(v)
        );
    }
}

#[test]
fn matchers_naming_tools_the_host_never_sends_never_fire() {
    let w = World::new();
    // `Edit` is Claude's name: Copilot's camelCase rules see `edit`.
    w.write_json(
        "project/.github/hooks/hooks.json",
        json!({"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": "./check.sh", "matcher": "Edit"}]}}),
    );
    // `bash` is Copilot's name: Claude sends `Bash`. `Task`, the subagent tool's old name,
    // still fires on `Agent` in claude-code 2.1.332 (tests/live_claude_doctor.rs).
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[
            ("PreToolUse", Some("bash"), command("./guard.sh")),
            ("PostToolUse", Some("Edit|Write"), command("./fmt.sh")),
            ("PermissionRequest", Some("Task"), command("./sub.sh")),
        ]),
    );
    let (code, report) = w.doctor(None);
    // VS Code reads both files and ignores matchers (docs): each rule fires somewhere, so
    // nothing counts as never firing anywhere.
    assert_eq!(code, 0);
    for (file, event) in [
        (".github/hooks/hooks.json", "preToolUse"),
        (".claude/settings.json", "PreToolUse"),
    ] {
        let v = verdict(&report, file, event, "vscode");
        assert_eq!(v["status"], "fires", "{file}: {:?}", findings(v));
    }
    let v = verdict(&report, ".github/hooks/hooks.json", "preToolUse", "copilot");
    assert_eq!(v["status"], "never");
    assert!(
        has(
            v,
            "matcher `Edit` matches no tool Copilot sends",
            Some("matcher \"edit\"")
        ),
        "{:?}",
        findings(v)
    );
    let v = verdict(&report, ".claude/settings.json", "PreToolUse", "claude");
    assert_eq!(v["status"], "never");
    assert!(
        has(
            v,
            "matcher `bash` matches no tool Claude sends",
            Some("matcher \"Bash\"")
        ),
        "{:?}",
        findings(v)
    );
    let v = verdict(
        &report,
        ".claude/settings.json",
        "PermissionRequest",
        "claude",
    );
    assert_eq!(v["status"], "fires", "{:?}", findings(v));
    assert!(
        has(
            v,
            "`Task` is an old name of `Agent`",
            Some("matcher \"Agent\"")
        ),
        "{:?}",
        findings(v)
    );
    // A matcher in the right spelling fires, natively and through hookx.
    let v = verdict(&report, ".claude/settings.json", "PostToolUse", "claude");
    assert_eq!(v["status"], "fires", "{:?}", findings(v));
    let v = verdict(&report, ".claude/settings.json", "PostToolUse", "bricks");
    assert_ne!(v["status"], "never", "{:?}", findings(v));
}

#[test]
fn timeouts_in_milliseconds_are_flagged_with_the_seconds_to_write() {
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[(
            "PreToolUse",
            Some("Bash"),
            json!({"type": "command", "command": "./guard.sh", "timeout": 30000}),
        )]),
    );
    w.write_json(
        "home/.copilot/hooks/slow.json",
        json!({"version": 1, "hooks": {"postToolUse": [
            {"type": "command", "bash": "./audit.sh", "timeoutSec": 5000}]}}),
    );
    let (code, report) = w.doctor(None);
    assert_eq!(code, 0, "a long timeout still fires");
    let v = verdict(&report, ".claude/settings.json", "PreToolUse", "claude");
    assert_eq!(v["status"], "fires");
    assert!(
        has(v, "timeout 30000 is seconds", Some("\"timeout\": 30")),
        "{:?}",
        findings(v)
    );
    let v = verdict(
        &report,
        "~/.copilot/hooks/slow.json",
        "postToolUse",
        "copilot",
    );
    assert!(
        has(v, "timeout 5000 is seconds", Some("\"timeoutSec\": 5")),
        "{:?}",
        findings(v)
    );
}

/// The plugin world Claude Code 2.1.332 was recorded in (`tests/live_claude_plugins.rs`).
fn plugin_world(w: &World, keep: impl Fn(&str) -> bool) {
    let path = common::fixtures_dir().join("recorded/claude-2.1.332/plugins/facts.json");
    let facts: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for (rel, value) in facts["files"].as_object().unwrap() {
        if !keep(rel) {
            continue;
        }
        let text = value
            .to_string()
            .replace("<root>", &w.root.display().to_string());
        w.write(rel, &text);
    }
}

#[test]
fn a_plugin_installed_but_not_enabled_runs_nowhere() {
    let w = World::new();
    plugin_world(&w, |_| true);
    let (_, report) = w.doctor(Some("claude"));
    let off = "~/.claude/plugins/cache/dirmkt/dir-off/1.0.0/hooks/hooks.json";
    let l = loading(&report, off, "claude");
    assert_eq!(l["runner"], "nobody");
    assert_eq!(l["status"], "blocked");
    assert!(
        has(l, "installed but not enabled", Some("\"enabledPlugins\"")),
        "{:?}",
        findings(l)
    );
    // One Claude loads fires (the recording: git-on ran).
    let on = "~/.claude/plugins/cache/gitmkt/git-on/1.0.0/hooks/hooks.json";
    assert_eq!(
        verdict(&report, on, "SessionStart", "claude")["status"],
        "fires"
    );
}

#[test]
fn a_claude_hook_copilot_runs_gets_copilots_payload_and_its_script_reads_what_is_not_there() {
    let w = World::new();
    w.write(
        "project/hooks/guard.sh",
        "#!/bin/sh\ninput=$(cat)\nfile=$(printf '%s' \"$input\" | jq -r '.tool_input.file_path')\n\
         log=$(printf '%s' \"$input\" | jq -r '.transcript_path')\n\
         case \"$file\" in *.env) exit 2;; esac\n",
    );
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[(
            "PreToolUse",
            Some("Write"),
            command("\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh"),
        )]),
    );
    let (_, report) = w.doctor(None);
    // Claude sends what the script reads.
    let v = verdict(&report, ".claude/settings.json", "PreToolUse", "claude");
    assert_eq!(v["payload"], "claude");
    assert_eq!(findings(v), Vec::<String>::new());
    // Copilot runs the same file itself, with its PascalCase payload (run 1.0.102).
    let v = verdict(&report, ".claude/settings.json", "PreToolUse", "copilot");
    assert_eq!(v["runner"], "native");
    assert_eq!(v["payload"], "copilot-pascal");
    assert!(
        has(
            v,
            "`transcript_path`, which the copilot-pascal payload of `PreToolUse` lacks",
            None
        ),
        "{:?}",
        findings(v)
    );
    assert!(
        has(
            v,
            "`tool_input.file_path`, which copilot-pascal payloads name `path`",
            // Not `.tool_input.path` alone: that would break the hook under Claude, where it
            // works.
            Some("read `.tool_input.file_path // .tool_input.path`")
        ),
        "{:?}",
        findings(v)
    );
    assert!(
        has(v, "a guess from a scan of hooks/guard.sh", None),
        "{:?}",
        findings(v)
    );

    // A user Claude hook Copilot never reads runs through hookx, which builds Claude's payload
    // from Copilot's event: Copilot sends no transcript on tool events (run 1.0.102).
    w.write_json(
        "home/.claude/settings.json",
        claude_hooks(&[(
            "PreToolUse",
            Some("Bash"),
            command("jq -r '.transcript_path, .tool_input.command'"),
        )]),
    );
    let (_, report) = w.doctor(Some("copilot"));
    let v = verdict(&report, "~/.claude/settings.json", "PreToolUse", "copilot");
    assert_eq!(v["runner"], "hookx");
    assert_eq!(v["payload"], "claude");
    assert!(
        has(
            v,
            "`transcript_path`, which the claude payload hookx builds from Copilot's `PreToolUse` lacks (a guess from a scan of its command)",
            None
        ),
        "{:?}",
        findings(v)
    );
    assert!(!has(v, "tool_input.command", None), "{:?}", findings(v));
}

#[test]
fn managed_only_policy_leaves_only_policy_hooks() {
    let w = World::new();
    w.write_json(
        "managed/etc/claude-code/managed-settings.json",
        json!({"allowManagedHooksOnly": true, "hooks": {"SessionStart": [{"hooks": [
            {"type": "command", "command": "/opt/audit.sh"}]}]}}),
    );
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[("SessionStart", None, command("./hello.sh"))]),
    );
    let (code, report) = w.doctor(Some("claude"));
    // The project's rule is dropped: it fires under none of the agents examined.
    assert_eq!(code, 5);
    let policy = json!({"findings": report["hosts"][0]["policy"]});
    assert!(
        has(
            &policy,
            "\"allowManagedHooksOnly\": true in $HOOKX_MANAGED_ROOT/etc/claude-code/managed-settings.json",
            None
        ),
        "{policy:#}"
    );
    let managed = "$HOOKX_MANAGED_ROOT/etc/claude-code/managed-settings.json";
    assert_eq!(file(&report, managed)["scope"], "managed");
    assert_eq!(
        verdict(&report, managed, "SessionStart", "claude")["status"],
        "fires"
    );
    let v = verdict(&report, ".claude/settings.json", "SessionStart", "claude");
    assert_eq!(v["status"], "blocked");
    assert!(has(
        loading(&report, ".claude/settings.json", "claude"),
        "leaves only policy hooks",
        None
    ));
}

/// A `managed-settings.d` drop-in's `"allowManagedHooksOnly": false` undoes the `true` of
/// `managed-settings.json`: the last policy document that sets it decides (run 2.1.332,
/// `live_claude_managed::managed_drop_ins_merge_with_managed_settings`).
#[test]
fn a_later_drop_in_undoes_managed_only() {
    let w = World::new();
    w.write_json(
        "managed/etc/claude-code/managed-settings.json",
        json!({"allowManagedHooksOnly": true}),
    );
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[("SessionStart", None, command("./hello.sh"))]),
    );
    let status = |w: &World| {
        let (_, report) = w.doctor(Some("claude"));
        verdict(&report, ".claude/settings.json", "SessionStart", "claude")["status"].clone()
    };
    assert_eq!(status(&w), "blocked");
    let drop_in = "managed/etc/claude-code/managed-settings.d/20-undo.json";
    w.write_json(drop_in, json!({"allowManagedHooksOnly": false}));
    assert_eq!(status(&w), "fires");
    // An earlier drop-in's `false` does not: `managed-settings.json` comes first, then by name.
    std::fs::remove_file(w.root.join(drop_in)).unwrap();
    w.write_json(
        "managed/etc/claude-code/managed-settings.d/10-undo.json",
        json!({"allowManagedHooksOnly": false}),
    );
    w.write_json(
        "managed/etc/claude-code/managed-settings.d/20-only.json",
        json!({"allowManagedHooksOnly": true}),
    );
    assert_eq!(status(&w), "blocked");
}

/// A Claude policy document that does not parse stops Claude from starting (run 2.1.332,
/// `live_claude_managed::managed_drop_ins_merge_with_managed_settings`): no hook of any file
/// runs under Claude, and doctor says so on each, with the check that finds the fault.
#[test]
fn a_broken_claude_policy_file_stops_every_hook() {
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[("SessionStart", None, command("./hello.sh"))]),
    );
    let status = |w: &World| {
        let (_, report) = w.doctor(Some("claude"));
        let l = loading(&report, ".claude/settings.json", "claude").clone();
        (l["status"].as_str().unwrap().to_string(), l)
    };
    let rel = "managed/etc/claude-code/managed-settings.d/10-broken.json";
    for text in ["{\"disableAllHooks\": tru", "[1]"] {
        let broken = w.write(rel, text);
        let (status, l) = status(&w);
        assert_eq!(status, "blocked", "{text}: {l:#}");
        assert!(
            has(
                &l,
                "off under Claude: $HOOKX_MANAGED_ROOT/etc/claude-code/managed-settings.d/10-broken.json is no JSON object, and Claude does not start",
                Some(&format!("hookx validate '{}'", broken.display()))
            ),
            "{text}: {:?}",
            findings(&l)
        );
    }
    // Wrong entries only lose them; fixed, the project's hook fires again.
    for text in ["{\"hooks\": \"x\"}", "{}"] {
        w.write(rel, text);
        assert_eq!(status(&w).0, "fires", "{text}");
    }
}

/// Gemini CLI's system settings and system defaults are its managed files, and its one merged
/// `hooksConfig.enabled` reaches their hooks from the user's file too, unless the system
/// settings turn hooks back on (run 0.61.0: `live_gemini::system_settings_hooks_run`).
#[test]
fn gemini_system_settings_are_managed_and_obey_the_merged_hooks_switch() {
    let w = World::new();
    if !root_owned_path(&w.root) {
        eprintln!("skip: Gemini CLI reads system settings only on a path that only root can write");
        return;
    }
    let system = "$HOOKX_MANAGED_ROOT/etc/gemini-cli/settings.json";
    let defaults = "$HOOKX_MANAGED_ROOT/etc/gemini-cli/system-defaults.json";
    let audit = |cmd: &str| json!({"hooks": {"SessionStart": [{"hooks": [command(cmd)]}]}});
    w.write_json(
        "managed/etc/gemini-cli/settings.json",
        audit("/opt/audit.sh"),
    );
    w.write_json(
        "managed/etc/gemini-cli/system-defaults.json",
        audit("/opt/default.sh"),
    );
    w.write_json(
        "home/.gemini/settings.json",
        json!({"hooksConfig": {"enabled": false}}),
    );
    let (_, report) = w.doctor(Some("gemini"));
    for managed in [system, defaults] {
        assert_eq!(file(&report, managed)["scope"], "managed");
        let v = verdict(&report, managed, "SessionStart", "gemini");
        assert_eq!(v["status"], "blocked", "{managed}: {v:#}");
        assert!(
            has(
                loading(&report, managed, "gemini"),
                "in ~/.gemini/settings.json turns its hooks off",
                Some("remove \"hooksConfig.enabled\" from ~/.gemini/settings.json")
            ),
            "{:?}",
            findings(loading(&report, managed, "gemini"))
        );
    }
    let mut on = audit("/opt/audit.sh");
    on["hooksConfig"] = json!({"enabled": true});
    w.write_json("managed/etc/gemini-cli/settings.json", on);
    let (_, report) = w.doctor(Some("gemini"));
    for managed in [system, defaults] {
        let v = verdict(&report, managed, "SessionStart", "gemini");
        assert_eq!(v["status"], "fires", "{managed}: {v:#}");
    }
}

/// A real Claude file's rules on Claude's `Skill` tool (01O10/agent-engineering-playbook
/// `b7b77022` `.claude/settings.json`, MIT, cut; attacks row 1182): no other agent has the
/// tool, so hookx's tool table had no id for it and doctor said "never fires" (exit 5) of
/// rules Claude Code 2.1.332 runs (live: `live_claude_doctor`,
/// `a_rule_on_a_tool_only_claude_has_fires_as_doctor_says`). A name Claude offers no model
/// still matches nothing.
#[test]
fn a_claude_rule_on_a_tool_only_claude_has_fires() {
    let w = World::new();
    let guard = |matcher: &str, script: &str| {
        json!({"matcher": matcher, "hooks": [{"type": "command", "command":
            format!("H=\"$CLAUDE_PROJECT_DIR/.claude/hooks/{script}\"; [ -x \"$H\" ] && exec \"$H\"; exit 0")}]})
    };
    w.write_json(
        "project/.claude/settings.json",
        json!({"hooks": {
            "PreToolUse": [guard("Skill", "check-skill-contract.sh"), guard("Skil", "typo.sh")],
            "PostToolUse": [guard("Skill", "observe-skill.sh")]
        }}),
    );
    let (_, report) = w.doctor(Some("claude"));
    let rules = file(&report, ".claude/settings.json")["rules"]
        .as_array()
        .unwrap();
    let status = |event: &str, matcher: &str| {
        rules
            .iter()
            .find(|r| r["event"] == event && r["matcher"] == matcher)
            .unwrap_or_else(|| panic!("no {event} {matcher}: {report:#}"))["hosts"][0]["status"]
            .clone()
    };
    assert_eq!(status("PreToolUse", "Skill"), "fires", "{report:#}");
    assert_eq!(status("PostToolUse", "Skill"), "fires", "{report:#}");
    assert_eq!(status("PreToolUse", "Skil"), "never", "{report:#}");
}

/// A real Claude plugin file (0xarkstar/my-claude-code-settings `340e80a5` `hooks/hooks.json`,
/// cut; attacks row 1184) writes its matchers as expressions (`tool == "Bash" &&
/// tool_input.command matches "gh pr create"`), which match no tool name: doctor rightly says
/// the rule never fires, but its fix rewrote `create` (Copilot's name for `Write`) inside the
/// text, `… matches "gh pr Write"`, a matcher that matches nothing either.
#[test]
fn doctor_offers_no_matcher_fix_that_matches_nothing() {
    let w = World::new();
    let expression = r#"tool == "Bash" && tool_input.command matches "gh pr create""#;
    w.write_json(
        "project/.claude/settings.json",
        json!({"hooks": {"PostToolUse": [
            {"matcher": expression, "hooks": [command("node -e \"console.log(1)\"")]},
            {"matcher": "create", "hooks": [command("./fmt.sh")]}
        ]}}),
    );
    let (_, report) = w.doctor(Some("claude"));
    let rules = file(&report, ".claude/settings.json")["rules"]
        .as_array()
        .unwrap();
    let verdict = |matcher: &str| {
        rules
            .iter()
            .find(|r| r["matcher"] == matcher)
            .unwrap_or_else(|| panic!("no rule {matcher}: {report:#}"))["hosts"][0]
            .clone()
    };
    let expr = verdict(expression);
    assert_eq!(expr["status"], "never", "{expr:#}");
    assert!(
        expr["findings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["fix"].is_null()),
        "{expr:#}"
    );
    // A name list in another agent's spelling still gets its fix.
    assert!(has(
        &verdict("create"),
        "matches no tool",
        Some(r#"matcher "Write""#)
    ));
}

/// Cursor's Tab events (`beforeTabFileRead`, `afterTabFileEdit`: fired by Tab, not the agent;
/// conformance/cursor-facts.md, shared/agents.md) in a real file (0xrizz/ECC `504261d0`
/// `.cursor/hooks.json`, MIT, cut; attacks row 1180): `validate` called them "no cursor event"
/// (an error) and doctor "never fires" under Cursor, with the fix to rename the key to the
/// agent's `beforeReadFile`, which would move the guard off Tab onto the agent's reads.
#[test]
fn cursors_tab_events_are_its_own_not_unknown() {
    let w = World::new();
    let file = w.write_json(
        "project/.cursor/hooks.json",
        json!({"version": 1, "hooks": {
            "afterFileEdit": [{"command": "node .cursor/hooks/after-file-edit.js"}],
            "beforeTabFileRead": [{"command": "node .cursor/hooks/before-tab-file-read.js",
                "description": "Block Tab from reading secrets (.env, .key, .pem, credentials)"}],
            "afterTabFileEdit": [{"command": "node .cursor/hooks/after-tab-file-edit.js",
                "description": "Auto-format Tab edits"}]
        }}),
    );
    let out = common::hookx()
        .args(["validate", "--from", "cursor"])
        .arg(&file)
        .env("HOME", w.home())
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(!said.contains("no cursor event"), "{said}");
    let (_, report) = w.doctor(Some("cursor"));
    for event in ["beforeTabFileRead", "afterTabFileEdit"] {
        let v = verdict(&report, ".cursor/hooks.json", event, "cursor");
        assert_eq!(v["status"], "fires", "{event}: {v:#}");
        assert!(!has(v, "is no cursor event", None), "{event}: {v:#}");
    }
    let listed = w.hookx(&["list", "--host", "cursor"]);
    let listed = String::from_utf8_lossy(&listed.stdout);
    assert!(
        listed
            .lines()
            .any(|l| l.contains("beforeTabFileRead") && l.contains("cursor runs")),
        "{listed}"
    );
}

/// Cursor's enterprise `hooks.json` (Linux `/etc/cursor`, docs: cursor.com/docs/agent/hooks,
/// conformance/cursor-facts.md) is its policy: above project and user hooks, run by Cursor
/// itself, and by `hookx run` under other hosts with no `hookx trust` (only root writes it).
#[test]
fn cursor_enterprise_hooks_are_policy() {
    let w = World::new();
    let enterprise = "$HOOKX_MANAGED_ROOT/etc/cursor/hooks.json";
    w.write_json(
        "managed/etc/cursor/hooks.json",
        json!({"version": 1, "hooks": {"beforeShellExecution": [{"command": "/opt/audit.sh"}]}}),
    );
    w.write_json(
        "project/.cursor/hooks.json",
        json!({"version": 1, "hooks": {"beforeShellExecution": [{"command": "./check.sh"}]}}),
    );
    let (_, report) = w.doctor(None);
    let f = file(&report, enterprise);
    assert_eq!(f["scope"], "managed", "{f:#}");
    assert_eq!(f["dialect"], "cursor", "{f:#}");
    let cursor = verdict(&report, enterprise, "beforeShellExecution", "cursor");
    assert_eq!(cursor["status"], "fires", "{cursor:#}");
    assert_eq!(loading(&report, enterprise, "cursor")["runner"], "native");
    // Under Claude hookx runs it, trusted as policy; the project's file waits for `hookx trust`.
    let claude = loading(&report, enterprise, "claude");
    assert_eq!(claude["runner"], "hookx");
    assert!(
        !has(claude, "runs it only once trusted", None),
        "{claude:#}"
    );
    assert!(has(
        loading(&report, ".cursor/hooks.json", "claude"),
        "runs it only once trusted",
        Some("hookx trust .cursor/hooks.json")
    ));
    let (_, report) = w.doctor(Some("cursor"));
    let policy = json!({"findings": report["hosts"][0]["policy"]});
    assert!(
        has(&policy, &format!("policy file {enterprise}"), None),
        "{policy:#}"
    );
    let out = w.hookx(&["list", "--host", "cursor", "--format", "json"]);
    assert!(out.status.success(), "{out:?}");
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let row = rows
        .iter()
        .find(|r| r["file"] == enterprise)
        .unwrap_or_else(|| panic!("hookx list shows no enterprise rule: {rows:#?}"));
    assert_eq!(
        (&row["scope"], &row["run"]),
        (&json!("managed"), &json!("native"))
    );
}

/// A Gemini system settings file that is no JSON object stops Gemini CLI (run 0.61.0,
/// `live_gemini::system_settings_others_could_write_are_skipped`), but one with comments does
/// not: Gemini strips them first (source 0.61.0, `strip-json-comments`).
#[test]
fn gemini_system_settings_with_comments_do_not_stop_gemini() {
    let w = World::new();
    if !root_owned_path(&w.root) {
        eprintln!("skip: Gemini CLI reads system settings only on a path that only root can write");
        return;
    }
    w.write_json(
        "home/.gemini/settings.json",
        json!({"hooks": {"SessionStart": [{"hooks": [command("./hello.sh")]}]}}),
    );
    let system = "managed/etc/gemini-cli/settings.json";
    let status = |w: &World| {
        let (_, report) = w.doctor(Some("gemini"));
        loading(&report, "~/.gemini/settings.json", "gemini").clone()
    };
    w.write(system, "// set by IT\n{\"general\": {} /* none */}");
    assert_eq!(status(&w)["status"], "fires");
    w.write(system, "{\"general\": {},}");
    let l = status(&w);
    assert_eq!(l["status"], "blocked", "{l:#}");
    assert!(
        has(&l, "is no JSON object, and Gemini does not start", None),
        "{l:#}"
    );
}

/// Whether `dir` and every folder above it are root's and not writable by group or others.
fn root_owned_path(dir: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    dir.ancestors()
        .all(|d| std::fs::metadata(d).is_ok_and(|m| m.uid() == 0 && m.mode() & 0o022 == 0))
}

/// Gemini CLI 0.61.0 skips a system settings file that someone other than root could have
/// written ("Security Warning: Skipping system settings file", `live_gemini::
/// system_settings_others_could_write_are_skipped`): hookx does not take it as policy either,
/// runs none of its hooks under any host, and doctor says why with the command that fixes it.
#[test]
fn gemini_system_settings_others_could_write_are_no_policy() {
    let w = World::new();
    let system = "$HOOKX_MANAGED_ROOT/etc/gemini-cli/settings.json";
    let path = w.write_json(
        "managed/etc/gemini-cli/settings.json",
        json!({"hooks": {"SessionStart": [{"hooks": [command("/opt/audit.sh")]}]}}),
    );
    // Not root's: another user's file (when the test runs as root), or the test user's own.
    if rustix::process::geteuid().is_root() {
        std::os::unix::fs::chown(&path, Some(1000), Some(1000)).unwrap();
    }
    let (code, report) = w.doctor(Some("gemini"));
    assert_eq!(code, 5, "a policy file nobody reads never fires");
    let l = loading(&report, system, "gemini");
    assert_eq!(l["status"], "never", "{l:#}");
    let fix = format!("sudo chown -h root:root '{}'", path.display());
    assert!(
        has(
            l,
            &format!(
                "Gemini skips this policy file, as {} is owned by uid",
                path.display()
            ),
            Some(&fix)
        ),
        "{:?}",
        findings(l)
    );
    let policy = json!({"findings": report["hosts"][0]["policy"]});
    assert!(has(&policy, "is skipped", Some(&fix)), "{policy:#}");
    // Through hookx under another host, nothing of it runs either.
    let out = w.hookx(&["list", "--format", "json"]);
    assert!(out.status.success(), "{out:?}");
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        !rows.iter().any(|r| r["file"] == system),
        "hookx list shows a rule of the skipped file: {rows:#?}"
    );
    // A folder above it that group members may write is the same fault.
    if rustix::process::geteuid().is_root() {
        std::os::unix::fs::chown(&path, Some(0), Some(0)).unwrap();
        if root_owned_path(&w.root) {
            let (_, report) = w.doctor(Some("gemini"));
            assert_eq!(loading(&report, system, "gemini")["status"], "fires");
            let folder = path.parent().unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o775)).unwrap();
            let (_, report) = w.doctor(Some("gemini"));
            let l = loading(&report, system, "gemini");
            assert_eq!(l["status"], "never", "{l:#}");
            assert!(
                has(
                    l,
                    &format!(
                        "{} is writable by group or others (mode 775)",
                        folder.display()
                    ),
                    Some(&format!("sudo chmod g-w,o-w '{}'", folder.display()))
                ),
                "{:?}",
                findings(l)
            );
        }
    }
}

/// The payload keys the tables hold are exactly those the clients sent in their recordings.
#[test]
fn payload_keys_are_the_recorded_ones() {
    let mut recorded: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    // (flavor, top-level key whose value is an object) → that object's keys, per recording.
    let mut objects: BTreeMap<(String, String), Vec<BTreeSet<String>>> = BTreeMap::new();
    let dir = common::fixtures_dir().join("recorded");
    for client in std::fs::read_dir(&dir).unwrap() {
        let client = client.unwrap().path();
        for entry in std::fs::read_dir(&client).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") {
                continue;
            }
            let record: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let (Some(flavor), Some(stdin)) =
                (record["flavor"].as_str(), record["stdin"].as_object())
            else {
                continue;
            };
            recorded
                .entry((
                    flavor.to_string(),
                    record["event"].as_str().unwrap().to_string(),
                ))
                .or_default()
                .extend(stdin.keys().cloned());
            for (key, value) in stdin {
                if let Some(object) = value.as_object() {
                    objects
                        .entry((flavor.to_string(), key.clone()))
                        .or_default()
                        .push(object.keys().cloned().collect());
                }
            }
        }
    }
    let mut checked = 0;
    for flavor in Flavor::all() {
        let tables = flavor.tables();
        // Each object of fixed keys holds those keys in every recording of it.
        for (key, keys) in tables.payload_object_keys {
            let seen = objects
                .get(&(flavor.name().to_string(), key.to_string()))
                .unwrap_or_else(|| panic!("{flavor} {key}: in the table, never recorded"));
            let want: BTreeSet<String> = keys.iter().map(|k| k.to_string()).collect();
            for have in seen {
                assert_eq!(have, &want, "{flavor} {key}");
            }
        }
        for (kind, keys) in tables.payload_keys {
            let name = tables.event_name(kind).unwrap();
            let want = recorded
                .get(&(flavor.name().to_string(), name.to_string()))
                .unwrap_or_else(|| panic!("{flavor} {name}: in the table, never recorded"));
            let have: BTreeSet<String> = keys.iter().map(|k| k.to_string()).collect();
            assert_eq!(&have, want, "{flavor} {name}");
            checked += 1;
        }
        // Every recorded event of a flavour with a dialect is in its table.
        for (f, event) in recorded.keys() {
            if f == flavor.name() {
                let kind = tables
                    .event_kind(event)
                    .unwrap_or(EventKind::Other(event.clone()));
                assert!(
                    tables.payload_keys(&kind).is_some(),
                    "{flavor} {event}: recorded, not in the table"
                );
            }
        }
    }
    assert!(checked > 30, "only {checked} events checked");
}

/// A realistic project: Claude and Copilot files, one plugin (and one installed but off), an
/// untrusted Copilot file, and an event key in the wrong casing.
fn realistic(w: &World) {
    // The git marketplace's plugin Claude ran (`git-on`) and one installed but off (`git-off`).
    plugin_world(w, |rel| {
        [
            "home/.claude/settings.json",
            "home/.claude/plugins/installed_plugins.json",
            "home/.claude/plugins/known_marketplaces.json",
            "home/.claude/plugins/marketplaces/gitmkt/.claude-plugin/marketplace.json",
        ]
        .contains(&rel)
    });
    // The recorded plugins' hooks call the live suite's recorder: give them a real one.
    for name in ["git-on", "git-off"] {
        w.write_json(
            &format!("home/.claude/plugins/cache/gitmkt/{name}/1.0.0/hooks/hooks.json"),
            json!({"hooks": {"PostToolUse": [{"matcher": "Write|Edit", "hooks": [
                command("\"${CLAUDE_PLUGIN_ROOT}\"/scripts/format.sh")]}]}}),
        );
    }
    w.write(
        "project/hooks/guard.sh",
        "#!/bin/sh\n# Blocks edits to secrets.\nfile=$(jq -r '.tool_input.file_path')\n\
         case \"$file\" in *.env) echo 'secrets are off limits' >&2; exit 2;; esac\n",
    );
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[
            (
                "PreToolUse",
                Some("Write|Edit"),
                json!({"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/hooks/guard.sh",
                       "timeout": 10000}),
            ),
            ("Stop", None, command("./hooks/notify.sh")),
        ]),
    );
    w.write_json(
        "project/.github/hooks/policy.json",
        json!({"version": 1, "hooks": {
            "preToolUse": [{"type": "command", "bash": "./hooks/no-rm.sh", "matcher": "bash"}],
            "SessionStart": [{"hooks": [{"type": "command", "command": "./hooks/banner.sh"}]}],
            "postToolUse": [{"type": "command", "bash": "./hooks/audit.sh", "matcher": "Edit"}],
            "UserPromptSubmitted": [{"type": "command", "bash": "./hooks/log-prompt.sh"}]
        }}),
    );
}

#[test]
fn doctor_on_a_realistic_project() {
    let w = World::new();
    realistic(&w);
    let text = w.hookx(&["doctor"]);
    assert_eq!(text.status.code(), Some(5), "{text:?}");
    let (code, json) = w.doctor(None);
    assert_eq!(code, 5);
    let root = w.root.display().to_string();
    let settings = common::snapshots("doctor");
    settings.bind(|| {
        insta::assert_snapshot!(
            "realistic_text",
            String::from_utf8(text.stdout)
                .unwrap()
                .replace(&root, "<root>")
        );
        insta::assert_snapshot!(
            "realistic_json",
            serde_json::to_string_pretty(&json)
                .unwrap()
                .replace(&root, "<root>")
        );
    });
}

#[test]
fn field_reads_find_jq_paths_and_subscripts_only() {
    let reads = hookx::commands::doctor::field_reads(
        "x=$(jq -r '.tool_input.command // empty')\n./guard.sh --config .hookrc\n\
         name = data[\"tool_name\"]; cwd = data.get('cwd')\nv = payload[\"tool_input\"][\"file_path\"]",
    );
    let got: Vec<String> = reads
        .iter()
        .map(|(top, sub)| match sub {
            Some(sub) => format!("{top}.{sub}"),
            None => top.clone(),
        })
        .collect();
    assert_eq!(
        got,
        [
            "tool_input.command",
            "tool_name",
            "cwd",
            "tool_input.file_path"
        ]
    );
}

/// A converted entry whose not-installed guard an older hookx wrote (Claude's `Stop` answered
/// with a block: "keep going", forever, where hookx is missing) is a warning on its rule under
/// the host that runs it, saying to convert again; a guard written today is not.
#[test]
fn an_outdated_not_installed_guard_is_a_warning_to_convert_again() {
    let claude = Flavor::named("claude").unwrap();
    let exec = |event: &str| {
        format!(" hookx exec --host claude --as copilot --event {event} --timeout 600 -- 'echo hi'")
    };
    let old_stop = format!(
        "command -v hookx >/dev/null 2>&1 || {{ m='{}'; printf '{{\"decision\":\"block\",\"reason\":\"%s\"}}\\n' \"$m\"; echo \"$m\" >&2; exit 0; }};{}",
        hookx::convert::NOT_INSTALLED,
        exec("Stop")
    );
    let today = format!(
        "{}{}",
        hookx::convert::not_installed_guard("hookx", &EventKind::PreToolUse, claude),
        exec("PreToolUse")
    );
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[
            ("Stop", None, command(&old_stop)),
            ("PreToolUse", Some("Bash"), command(&today)),
        ]),
    );
    let (_, report) = w.doctor(Some("claude"));
    let stop = verdict(&report, ".claude/settings.json", "Stop", "claude");
    assert!(
        has(
            stop,
            "handler 1: its `hookx not found` guard was written by an older hookx: where hookx is not installed it answers `Stop` otherwise than hookx's failure policy, which today exits 1",
            Some("convert the source file again")
        ),
        "{:?}",
        findings(stop)
    );
    let pre = verdict(&report, ".claude/settings.json", "PreToolUse", "claude");
    assert!(!has(pre, "older hookx", None), "{:?}", findings(pre));
    let text = String::from_utf8(w.hookx(&["doctor", "--host", "claude"]).stdout).unwrap();
    assert!(text.contains("written by an older hookx"), "{text}");
}

/// A handler hookx runs whose own timeout outlasts the time hookx has to answer the host (its
/// route's limit less a margin) is a warning on its rule, with the timeout that fits; one
/// that fits is not. Under Cline (120 s for every hook) a Claude handler's default 600 s does
/// not fit; under Copilot (a route of 605 s) it does, but 900 s does not.
#[test]
fn a_handler_whose_timeout_outlasts_the_hosts_limit_is_a_warning_on_its_rule() {
    let w = World::new();
    let mut slow = command("./slow.sh");
    slow["timeout"] = json!(900);
    w.write_json(
        "home/.claude/settings.json",
        claude_hooks(&[
            ("PreToolUse", Some("Bash"), slow),
            ("Stop", None, command("./default.sh")),
        ]),
    );
    let (_, report) = w.doctor(None);
    let file = "~/.claude/settings.json";
    let pre = verdict(&report, file, "PreToolUse", "copilot");
    assert!(
        has(
            pre,
            "handler 1: a timeout of 900 s, longer than the 600 s hookx has to answer Copilot in",
            Some("\"timeout\": 600")
        ),
        "{:#?}",
        findings(pre)
    );
    assert!(
        has(pre, "denies the call (its failure policy)", None),
        "{:#?}",
        findings(pre)
    );
    let stop = verdict(&report, file, "Stop", "copilot");
    assert!(
        !has(stop, "hookx has to answer", None),
        "{:#?}",
        findings(stop)
    );
    let stop = verdict(&report, file, "Stop", "cline");
    assert!(
        has(
            stop,
            "handler 1: Claude's default timeout, 600 s, longer than the 115 s hookx has to answer Cline in",
            Some("\"timeout\": 115")
        ),
        "{:#?}",
        findings(stop)
    );
    // Located: the rule's line in its file.
    let rule = file_rules(&report, file)
        .into_iter()
        .find(|r| r["event"] == "Stop")
        .unwrap();
    assert!(rule["line"].as_u64().is_some(), "{rule:#}");
}

/// The user shortened hookx's route to `"timeout": 30` in `~/.claude/settings.json`: Claude
/// kills the route at 30 s, so a guard hookx runs there with Gemini's default 60 s outlasts
/// what hookx has (25 s), and doctor says so on the guard, naming the route's timeout and
/// file; with the route as install wrote it (605 s), the guard fits (attacks row 223).
#[test]
fn a_route_the_user_shortened_is_said_on_the_guards_it_runs() {
    let w = gemini_guard_routed_under_claude();
    let (_, report) = w.doctor(Some("claude"));
    let guard = verdict(&report, "~/.gemini/settings.json", "BeforeTool", "claude");
    assert!(
        !has(guard, "hookx has to answer", None),
        "{:#?}",
        findings(guard)
    );
    let settings = w.home().join(".claude/settings.json");
    let text = std::fs::read_to_string(&settings).unwrap();
    assert!(text.contains("\"timeout\": 605"), "{text}");
    w.write(
        "home/.claude/settings.json",
        &text.replace("\"timeout\": 605", "\"timeout\": 30"),
    );
    let (_, report) = w.doctor(Some("claude"));
    let guard = verdict(&report, "~/.gemini/settings.json", "BeforeTool", "claude");
    assert!(
        has(
            guard,
            "handler 1: Gemini's default timeout, 60 s, longer than the 25 s hookx has to answer Claude in (the timeout of 30 s its route has in ~/.claude/settings.json, less a margin): past that, hookx answers without it and denies the call",
            Some("\"timeout\": 25000")
        ),
        "{:#?}",
        findings(guard)
    );
}

fn file_rules<'a>(report: &'a Value, display: &str) -> Vec<&'a Value> {
    file(report, display)["rules"]
        .as_array()
        .unwrap()
        .iter()
        .collect()
}

/// The four-rule project of issue 26 (a Bash guard, a formatter on Write|Edit, a prompt
/// logger, a Stop hook), converted to three agents.
fn four_rules_converted(w: &World) {
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[
            (
                "PreToolUse",
                Some("Bash"),
                command("jq -r '.tool_input.command' | grep -q 'rm -rf' && exit 2 || exit 0"),
            ),
            (
                "PostToolUse",
                Some("Write|Edit"),
                command("jq -r '.tool_input.file_path' | xargs -r npx prettier --write"),
            ),
            (
                "UserPromptSubmit",
                None,
                command("jq -r '.session_id + \" \" + .prompt' >> .prompts.log"),
            ),
            (
                "Stop",
                None,
                command("[ \"$(jq -r .stop_hook_active)\" = true ] || npm test --silent"),
            ),
        ]),
    );
    let out = common::hookx()
        .args([
            "convert",
            ".claude/settings.json",
            "--to",
            "copilot,gemini,codex",
            "--write",
        ])
        .current_dir(w.project())
        .env("HOME", w.home())
        .env_remove("HOOKX_HOME")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    // Copilot reads the Claude file itself, so convert writes it no copy: its sign here is
    // the user's own Copilot folder.
    std::fs::create_dir_all(w.home().join(".copilot")).unwrap();
}

/// `hookx doctor` (text) without `--host`, no agent client on `PATH`.
fn doctor_text(w: &World, env: &[(&str, &str)]) -> (i32, String) {
    let mut cmd = common::hookx();
    cmd.args(["doctor", "--project"])
        .arg(w.project())
        .arg("--home")
        .arg(w.home())
        .env("HOME", w.home())
        .env("PATH", "/usr/bin:/bin")
        .env_remove("HOOKX_HOME")
        .env("HOOKX_MANAGED_ROOT", w.root.join("managed"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Without `--host`, doctor examines the agents the user has (here their folders), says what
/// is the same across them once, within 80 lines for four rules converted to three agents; it
/// reads a wrapped handler against the payload `hookx exec` hands it (no "lacks" advice), and
/// suggests no fix that breaks the hook where it works; exit 5 while rules fire nowhere.
#[test]
fn doctor_without_host_examines_the_agents_you_have_grouped() {
    let w = World::new();
    four_rules_converted(&w);
    let (code, text) = doctor_text(&w, &[]);
    let lines = text.lines().count();
    assert!(lines <= 80, "{lines} lines:\n{text}");
    let first = text.lines().next().unwrap_or_default();
    for host in ["claude", "copilot", "gemini", "codex"] {
        assert!(first.contains(&format!("{host} (")), "{text}");
    }
    for host in ["bricks", "cursor", "vscode", "windsurf", "kiro"] {
        assert!(!first.contains(&format!("{host} (")), "{text}");
    }
    // One line for what several agents share.
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("claude, copilot")
                || l.contains("fires: claude, ")
                || l.contains("blocked: claude, ")),
        "{text}"
    );
    // Each rule's runner, from the plan: under Claude, a converted copy's rule is run by
    // Claude from the original, not by hookx from the copy.
    assert!(
        text.contains("runner: the agent, from .claude/settings.json"),
        "{text}"
    );
    // A finding said of several agents names them "the agent", in lower case after the mark.
    assert!(
        text.contains("warning: the agent does not read it;"),
        "{text}"
    );
    assert!(!text.contains("The agent"), "{text}");
    // A wrapped handler gets the payload it was written for.
    assert!(!text.contains("lacks"), "{text}");
    assert!(!text.contains("sessionId"), "{text}");
    assert!(!text.contains("read `.tool_input.path` instead"), "{text}");
    assert!(!text.contains("command -v hookx"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "not a terminal: no colour\n{text}"
    );
    // Copilot runs the Claude file itself, untrusted folder: blocked; nothing fires under the
    // converted copies' agents until the folders are trusted.
    assert_eq!(code, 5, "{text}");

    // Coloured as validate's where colour is asked for, and never under NO_COLOR.
    let (_, coloured) = doctor_text(&w, &[("CLICOLOR_FORCE", "1")]);
    assert!(coloured.contains("\u{1b}["), "{coloured}");
    let (_, plain) = doctor_text(&w, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!plain.contains('\u{1b}'), "{plain}");
}

/// `--host` examines that one agent: when no rule fires under it (each blocked or never), doctor
/// exits 5, as the help says.
#[test]
fn doctor_exits_5_when_no_rule_fires_under_the_host_examined() {
    let w = World::new();
    four_rules_converted(&w);
    // Gemini CLI: the folder is not trusted, and hookx runs the others' files only through a
    // route and once trusted.
    let out = w.hookx(&["doctor", "--host", "gemini"]);
    assert_eq!(out.status.code(), Some(5), "{out:?}");
    // Claude Code reads its own file: its rules fire.
    let out = w.hookx(&["doctor", "--host", "claude", "--format", "json"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let claude = file(&report, ".claude/settings.json");
    assert!(
        claude["rules"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["hosts"][0]["status"] == "fires"),
        "{report:#}"
    );
}

/// A trust record `hookx run` refuses is an error in doctor, with the reason and the fix: one
/// another account could write (here: group-writable), and one inside the project. The files
/// it would have trusted then show as not running through hookx, as under `run`.
#[test]
fn a_trust_record_run_refuses_is_an_error_with_its_reason() {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new();
    w.write_json(
        "project/.bricks/hooks.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [command("./guard.sh")]}]}}),
    );
    let trusted = w.hookx(&["trust", "--yes"]);
    assert!(trusted.status.success(), "{trusted:?}");
    let (_, sound) = w.doctor(Some("claude"));
    assert!(sound.get("trust").is_none(), "{sound:#}");
    let record = w.home().join(".hookx/trust.json");
    std::fs::set_permissions(&record, std::fs::Permissions::from_mode(0o664)).unwrap();
    let (code, report) = w.doctor(Some("claude"));
    assert_eq!(code, 5, "{report:#}");
    let trust = &report["trust"][0];
    assert_eq!(trust["level"], "error", "{report:#}");
    assert!(
        trust["message"]
            .as_str()
            .unwrap()
            .contains("writable by group or others"),
        "{report:#}"
    );
    assert!(
        trust["fix"].as_str().unwrap().contains("chmod g-w,o-w"),
        "{report:#}"
    );
    let text = w.hookx(&["doctor", "--host", "claude"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("trust record: error: "), "{text}");
    std::fs::set_permissions(&record, std::fs::Permissions::from_mode(0o600)).unwrap();
    // A home inside the project: its record is the project's.
    let inside = w.project().join("fake-home");
    std::fs::create_dir_all(&inside).unwrap();
    let out = common::hookx()
        .args([
            "doctor",
            "--format",
            "json",
            "--host",
            "claude",
            "--project",
        ])
        .arg(w.project())
        .arg("--home")
        .arg(&inside)
        .env("HOME", &inside)
        .env_remove("HOOKX_HOME")
        .env("HOOKX_MANAGED_ROOT", w.root.join("managed"))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["trust"][0]["level"], "error", "{report:#}");
    assert!(
        report["trust"][0]["message"]
            .as_str()
            .unwrap()
            .contains("is inside the project"),
        "{report:#}"
    );
}

/// Facts say where they come from (issue 25): a rule on an event no recorded run of the host's
/// client showed firing (Claude's `PermissionDenied`) gets a note naming the client release and
/// saying the rest is the documents' word; one on an event seen firing (`PreToolUse`) does not,
/// nor does a host whose tables no run confirmed (Cursor: documents only, said elsewhere).
#[test]
fn a_rule_on_an_event_never_seen_firing_says_its_facts_are_from_documents() {
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[
            ("PermissionDenied", None, command("./notify.sh")),
            ("PreToolUse", Some("Bash"), command("./guard.sh")),
        ]),
    );
    let (_, report) = w.doctor(None);
    let unseen = "no recorded run of claude-code 2.1.332 showed `PermissionDenied` firing";
    let v = verdict(
        &report,
        ".claude/settings.json",
        "PermissionDenied",
        "claude",
    );
    assert!(has(v, unseen, None), "{:?}", findings(v));
    assert!(has(v, "from Claude's documents", None), "{:?}", findings(v));
    let v = verdict(&report, ".claude/settings.json", "PreToolUse", "claude");
    assert!(!has(v, "no recorded run", None), "{:?}", findings(v));
    let v = verdict(&report, ".claude/settings.json", "PreToolUse", "cursor");
    assert!(!has(v, "no recorded run", None), "{:?}", findings(v));
}

/// Attacks row 84: a project's Claude settings `env` reaches the user's own hooks (Claude Code
/// 2.1.332, `live_claude` `a_projects_path_does_not_take_hookx_out_of_the_users_hooks`). A
/// `PATH` or `LD_PRELOAD` there is said on each file of the home Claude runs, with the fix; the
/// project's own file, and a project that sets neither, get no such finding.
#[test]
fn a_projects_path_for_every_hook_is_said_on_the_users_files() {
    let w = World::new();
    w.write_json(
        "home/.claude/settings.json",
        claude_hooks(&[("PreToolUse", Some("Bash"), command("jq -e .tool_input"))]),
    );
    let (_, report) = w.doctor(Some("claude"));
    let said = |report: &Value| {
        findings(loading(report, "~/.claude/settings.json", "claude"))
            .into_iter()
            .filter(|f| f.contains("for every hook Claude runs"))
            .collect::<Vec<_>>()
    };
    assert_eq!(said(&report), Vec::<String>::new());
    w.write_json(
        "project/.claude/settings.json",
        json!({"env": {"PATH": "./tools:/usr/bin:/bin", "LD_PRELOAD": "./x.so", "FOO": "1"}}),
    );
    let (_, report) = w.doctor(Some("claude"));
    let l = loading(&report, "~/.claude/settings.json", "claude");
    assert!(
        has(
            l,
            ".claude/settings.json sets `PATH` for every hook Claude runs",
            Some("by their absolute path")
        ) && has(
            l,
            "sets `LD_PRELOAD` for every hook Claude runs",
            Some("remove `LD_PRELOAD` from .claude/settings.json's `env`")
        ),
        "{:#?}",
        findings(l)
    );
    assert_eq!(said(&report).len(), 2, "{:#?}", said(&report));
}

/// Attacks rows 128-129: a project's `env` defining a bash function (`BASH_FUNC_grep%%`), or an
/// interpreter's options or module path (`NODE_OPTIONS`, `PYTHONPATH`), reaches the user's hooks (Claude Code 2.1.332, `live_claude`
/// `a_projects_bash_function_reaches_the_users_hooks`): a `bash` a hook starts runs it in place
/// of `grep`. doctor says it on the user's files, naming the variable as the project wrote it.
#[test]
fn a_projects_bash_function_is_said_on_the_users_files() {
    let w = World::new();
    w.write_json(
        "home/.claude/settings.json",
        claude_hooks(&[("PreToolUse", Some("Bash"), command("./guard.sh"))]),
    );
    w.write_json(
        "project/.claude/settings.json",
        json!({"env": {"BASH_FUNC_grep%%": "() { return 1; }", "BASH_FUNCTIONS": "1",
            "NODE_OPTIONS": "--require ./x.js", "PYTHONPATH": "./py"}}),
    );
    let (_, report) = w.doctor(Some("claude"));
    let l = loading(&report, "~/.claude/settings.json", "claude");
    let said: Vec<String> = findings(l)
        .into_iter()
        .filter(|f| f.contains("for every hook Claude runs"))
        .collect();
    assert!(
        has(
            l,
            "sets `BASH_FUNC_grep%%` for every hook Claude runs",
            Some("remove `BASH_FUNC_grep%%` from .claude/settings.json's `env`")
        ) && has(
            l,
            "sets `NODE_OPTIONS` for every hook Claude runs",
            Some("remove `NODE_OPTIONS` from .claude/settings.json's `env`")
        ) && has(l, "sets `PYTHONPATH` for every hook Claude runs", None)
            && said.len() == 3,
        "{said:#?}"
    );
}

/// Qwen Code 0.24.4 hands the user's hooks what a project's settings `env` and its first
/// variables file (`.qwen/.env`, `.env`, from the project up) set where it is unset, but
/// not its loader keys, nor from `env` the library path (live:
/// `live_qwen::a_projects_env_reaches_the_users_hooks`): doctor says on the user's file
/// exactly what reaches it.
#[test]
fn a_projects_env_is_said_on_the_users_files_under_qwen() {
    let w = World::new();
    w.write_json(
        "home/.qwen/settings.json",
        claude_hooks(&[("PreToolUse", Some("run_shell_command"), command("jq -e ."))]),
    );
    w.write_json(
        "project/.qwen/settings.json",
        json!({"env": {"PATH": "./tools:/usr/bin", "LD_LIBRARY_PATH": "./lib",
            "LD_PRELOAD": "./x.so", "BASH_FUNC_grep%%": "() { return 1; }",
            "NODE_OPTIONS": "--require ./x.js", "PYTHONPATH": "./py"}}),
    );
    w.write(
        "project/.qwen/.env",
        "PATH=./tools\nLD_LIBRARY_PATH=./lib\nBASH_ENV=./b\nPERL5LIB=./pl\n",
    );
    let (_, report) = w.doctor(Some("qwen"));
    let said: Vec<String> = findings(loading(&report, "~/.qwen/settings.json", "qwen"))
        .into_iter()
        .filter(|f| f.contains("for every hook Qwen runs where it is unset"))
        .map(|f| {
            f.trim_start_matches('"')
                .split(" for every")
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    assert_eq!(
        said,
        [
            ".qwen/.env sets `LD_LIBRARY_PATH`",
            ".qwen/.env sets `PERL5LIB`",
            ".qwen/settings.json sets `PYTHONPATH`",
        ],
        "{report:#}"
    );
}

/// Attacks row 85: a project's `"disableAllHooks": true` turns off every hook Claude runs, the
/// user's and hookx's user route with them (Claude Code 2.1.332, `live_claude`
/// `a_projects_kill_switch_turns_off_hookxs_user_route_too`): the user's Gemini guard, which
/// hookx runs under Claude, is off there, and doctor says so with the fix.
#[test]
fn a_projects_kill_switch_is_said_on_what_hookxs_route_runs_under_claude() {
    let w = gemini_guard_routed_under_claude();
    w.write_json(
        "project/.claude/settings.local.json",
        json!({"disableAllHooks": true}),
    );
    let (code, report) = w.doctor(Some("claude"));
    let l = loading(&report, "~/.gemini/settings.json", "claude");
    assert!(
        has(
            l,
            "in .claude/settings.local.json turns off every hook Claude runs, hookx's route in ~/.claude/settings.json too",
            Some("remove \"disableAllHooks\" from .claude/settings.local.json")
        ),
        "{:#?}",
        findings(l)
    );
    assert_eq!(l["status"], "blocked");
    assert_eq!(code, 5, "it fires under none of the agents examined");
}

/// Attacks row 97: a trusted project's `.gemini/.env` sets each variable not already set for
/// every hook Gemini runs, the user's own included (Gemini CLI 0.61.0, `live_gemini`
/// `a_projects_env_file_reaches_the_users_hooks`): `LD_PRELOAD` there is said on the user's
/// files, `PATH` (always set, so never taken from it) is not.
/// Gemini 0.61.0 loads the first `.gemini/.env` or `.env` from the project up, so a `.env` in
/// the folder above the project too, before the home's own (live:
/// `live_gemini::an_env_file_above_the_project_reaches_the_users_hooks`): doctor names that
/// file. The home's own is the user's, and said nowhere.
#[test]
fn an_env_file_above_the_project_is_said_on_the_users_files_under_gemini() {
    let w = users_gemini_guard();
    w.write("home/.gemini/.env", "LD_PRELOAD=/home.so\n");
    let above = w.write(".env", "BASH_ENV=/above-bashenv\n");
    let said = |report: &Value| -> Vec<String> {
        findings(loading(report, "~/.gemini/settings.json", "gemini"))
            .into_iter()
            .filter(|f| f.contains("for every hook Gemini runs where it is unset"))
            .collect()
    };
    let (_, report) = w.doctor(Some("gemini"));
    let said_above = said(&report);
    assert!(
        said_above.len() == 1
            && said_above[0].contains(&format!("{} sets `BASH_ENV`", above.display())),
        "{said_above:#?}"
    );
    std::fs::remove_file(&above).unwrap();
    let (_, report) = w.doctor(Some("gemini"));
    assert_eq!(said(&report), Vec::<String>::new());
}

#[test]
fn a_projects_env_file_is_said_on_the_users_files_under_gemini() {
    let w = users_gemini_guard();
    w.write(
        "project/.gemini/.env",
        "# the repo's\nPATH=./tools:/usr/bin\nexport LD_PRELOAD=./x.so\n",
    );
    let (_, report) = w.doctor(Some("gemini"));
    let l = loading(&report, "~/.gemini/settings.json", "gemini");
    let said: Vec<String> = findings(l)
        .into_iter()
        .filter(|f| f.contains("for every hook Gemini runs where it is unset"))
        .collect();
    assert!(
        said.len() == 1 && said[0].contains("sets `LD_PRELOAD`"),
        "{said:#?}"
    );
}

/// Attacks row 206: the variables file as the agent's parser reads it. Gemini 0.61.0 and Qwen
/// 0.24.4 read it with `fs.readFileSync(…, "utf-8")` (a byte that is not UTF-8 becomes U+FFFD)
/// and npm `dotenv`'s `parse` (its `LINE` pattern, in both bundles: `KEY: value` as well as
/// `KEY=value`, a lone CR ends a line). doctor read the file strictly as UTF-8 and split it on
/// `\n`: a repository's `LD_PRELOAD` beside one Latin-1 comment, in the colon form or after a
/// lone CR, or in a file past its 16 MiB cap (it went on up the folders), reached the user's
/// hooks unsaid.
#[test]
fn a_projects_env_file_is_read_as_the_agents_dotenv_reads_it() {
    // Past hookx's 16 MiB cap for config files: doctor went on up and found nothing.
    let large = [&b"LD_PRELOAD=./x.so\n"[..], &[b'#'; 17 << 20]].concat();
    let forms: [&[u8]; 5] = [
        &large,
        b"# caf\xe9\nLD_PRELOAD=./x.so\n",
        b"LD_PRELOAD: ./x.so\n",
        b"A=1\rLD_PRELOAD=./x.so\r",
        b"  export   LD_PRELOAD = ./x.so # the repo's\n",
    ];
    for form in forms {
        let w = World::new();
        w.write_json(
            "home/.gemini/settings.json",
            json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [command("jq -e .")]}]}}),
        );
        let env = w.write("project/.gemini/.env", "");
        std::fs::write(&env, form).unwrap();
        let (_, report) = w.doctor(Some("gemini"));
        let l = loading(&report, "~/.gemini/settings.json", "gemini");
        let said = findings(l)
            .into_iter()
            .any(|f| f.contains("sets `LD_PRELOAD` for every hook Gemini runs where it is unset"));
        assert!(
            said,
            "{:?}: {:#?}",
            String::from_utf8_lossy(form),
            findings(l)
        );
    }
}

/// Attacks row 185: hookx's Claude user route sits in `~/.claude/settings.json`, which the user
/// then gives a setting of the wrong type (`"cleanupPeriodDays": "30"`): Claude Code 2.1.332
/// runs none of that file's hooks, the route included (live,
/// `live_claude::settings_forms_claude_skips_whole`), so nothing the route runs fires. doctor
/// said the user's Gemini guard fires under Claude through hookx.
#[test]
fn a_route_file_claude_does_not_load_is_said_on_what_the_route_runs() {
    let w = gemini_guard_routed_under_claude();
    let routes = w.home().join(".claude/settings.json");
    let mut settings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&routes).unwrap()).unwrap();
    settings["cleanupPeriodDays"] = json!("30");
    w.write_json("home/.claude/settings.json", settings);
    let (code, report) = w.doctor(Some("claude"));
    let l = loading(&report, "~/.gemini/settings.json", "claude");
    assert!(
        has(
            l,
            "off under Claude: Claude loads none of ~/.claude/settings.json, which holds hookx's route",
            Some("hookx validate ~/.claude/settings.json")
        ),
        "{:#?}",
        findings(l)
    );
    assert_eq!(l["status"], "blocked");
    assert_eq!(code, 5, "it fires under none of the agents examined");
}

/// Claude Code runs identical commands once per event: a repository's `.claude/settings.json`
/// holding the command of the user's own guard with `"async": true` made Claude not wait for
/// it (live, 2.1.332; attacks row 166), so the user's deny was lost. hookx cannot make Claude
/// run the user's definition; doctor says it on the user's file, and not for a plain copy.
#[test]
fn a_projects_async_copy_of_the_users_guard_is_said_on_the_users_file() {
    let guard = "./guard.sh --strict";
    for (extra, said) in [
        (json!({}), false),
        (json!({"async": true}), true),
        (json!({"timeout": 1}), true),
    ] {
        let w = World::new();
        w.write_json(
            "home/.claude/settings.json",
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [command(guard)]}]}}),
        );
        let mut copy = command(guard);
        copy.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        w.write_json(
            "project/.claude/settings.json",
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [copy]}]}}),
        );
        let (_, report) = w.doctor(Some("claude"));
        let l = loading(&report, "~/.claude/settings.json", "claude");
        let warned = findings(l)
            .iter()
            .any(|f| f.contains("runs identical commands once per event"));
        assert_eq!(warned, said, "{extra}: {:?}", findings(l));
    }
}

/// Attacks row 186: a project's `.qwen/settings.json` rule whose `matcher` is a number or a
/// list makes Qwen Code 0.24.4 run no hook of that event at all, the user's own guard in
/// `~/.qwen/settings.json` included, without a word (live,
/// `live_qwen::a_projects_matcher_that_is_no_string_turns_off_the_users_hooks`). doctor said the
/// user's guard fires; a rule of another event still does.
#[test]
fn a_projects_matcher_that_is_no_string_is_said_on_the_users_qwen_guard() {
    let w = World::new();
    w.write_json(
        "home/.qwen/settings.json",
        json!({"hooks": {
            "PreToolUse": [{"matcher": "run_shell_command", "hooks": [command("./guard.sh")]}],
            "Stop": [{"hooks": [command("./notify.sh")]}]}}),
    );
    w.write_json(
        "project/.qwen/settings.json",
        json!({"hooks": {"PreToolUse": [{"matcher": 5, "hooks": [command("true")]}]}}),
    );
    let (_, report) = w.doctor(Some("qwen"));
    let guard = verdict(&report, "~/.qwen/settings.json", "PreToolUse", "qwen");
    assert_eq!(guard["status"], "blocked", "{guard:#}");
    assert!(
        guard.to_string().contains(
            "off under Qwen: .qwen/settings.json holds a `matcher` that is not a string at 5:20"
        ),
        "{guard:#}"
    );
    let stop = verdict(&report, "~/.qwen/settings.json", "Stop", "qwen");
    assert!(!stop.to_string().contains("not a string"), "{stop:#}");
}

/// Attacks row 227's leftover: the user turned hookx's Codex route off in Codex itself
/// (`enabled = false` in its `[hooks.state."…"]` record, beside the hash install wrote). Codex
/// runs it nowhere, and doctor said the handler was "never reviewed", with "review and trust
/// them" for a fix: it says the user turned it off, and the fix is to turn it on again.
#[test]
fn a_route_the_user_turned_off_in_codex_is_said_turned_off_not_unreviewed() {
    let w = users_gemini_guard();
    let install = w.hookx(&["install", "--host", "codex", "--scope", "user"]);
    assert!(install.status.success(), "{install:?}");
    let config = w.home().join(".codex/config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let hooks = w.home().join(".codex/hooks.json");
    let header = format!("[hooks.state.\"{}:pre_tool_use:0:0\"]", hooks.display());
    assert!(text.contains(&header), "{text}");
    std::fs::write(
        &config,
        text.replace(&header, &format!("{header}\nenabled = false")),
    )
    .unwrap();
    let out = w.hookx(&["doctor", "--host", "codex"]);
    let said = String::from_utf8(out.stdout).unwrap();
    assert!(
        said.contains("silently skips 1 of the 1 here: 1 turned off in Codex itself")
            && said.contains("turn them on again in Codex itself, if they should run"),
        "{said}"
    );
    assert!(!said.contains("never reviewed"), "{said}");
}

/// Attacks row 220 for doctor: with `CLAUDE_CONFIG_DIR` set (a user keeping two Claude
/// accounts apart), Claude reads its user hooks in that folder, not in `~/.claude`. doctor read
/// `~/.claude/settings.json`: it said the guard hookx's user route there runs "fires", though
/// Claude never runs that route, and left out the user's hooks Claude does run. It reads where
/// Claude reads.
#[test]
fn doctor_reads_the_users_claude_hooks_where_claude_config_dir_says() {
    let w = gemini_guard_routed_under_claude();
    w.write_json(
        "home/claude-work/settings.json",
        claude_hooks(&[("Stop", None, command("./work.sh"))]),
    );
    let out = w.hookx_with(
        &["doctor", "--format", "json", "--host", "claude"],
        &[("CLAUDE_CONFIG_DIR", w.home().join("claude-work"))],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let guard = verdict(&report, "~/.gemini/settings.json", "BeforeTool", "claude");
    assert_eq!(guard["status"], "blocked", "{guard:#}");
    let files: Vec<&str> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["file"].as_str())
        .collect();
    assert!(files.contains(&"~/claude-work/settings.json"), "{files:?}");
    assert!(!files.contains(&"~/.claude/settings.json"), "{files:?}");
    // Under another agent hookx would run them, and `hookx run` reads below the home (no
    // variable a project could set): said, not "fires".
    let out = w.hookx_with(
        &["doctor", "--format", "json", "--host", "gemini"],
        &[("CLAUDE_CONFIG_DIR", w.home().join("claude-work"))],
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let work = loading(&report, "~/claude-work/settings.json", "gemini");
    assert_eq!(work["status"], "blocked", "{work:#}");
    assert!(
        has(
            work,
            "hookx run reads the user's Claude hooks below the home (~/.claude/settings.json)",
            None
        ),
        "{work:#}"
    );
}

/// A world whose user has a trusted Gemini guard, run under Claude by hookx's user route
/// (`install --host claude --scope user`): doctor says it fires there.
fn gemini_guard_routed_under_claude() -> World {
    let w = World::new();
    let gemini = w.write_json(
        "home/.gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [command("./guard.sh")]}]}}),
    );
    assert!(
        w.hookx(&["trust", gemini.to_str().unwrap()])
            .status
            .success()
    );
    let install = w.hookx(&["install", "--host", "claude", "--scope", "user"]);
    assert!(install.status.success(), "{install:?}");
    let (_, report) = w.doctor(Some("claude"));
    let l = loading(&report, "~/.gemini/settings.json", "claude");
    assert_eq!(l["status"], "fires", "{:?}", findings(l));
    w
}

/// A world whose user has a Gemini hook in `~/.gemini/settings.json`.
fn users_gemini_guard() -> World {
    let w = World::new();
    w.write_json(
        "home/.gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [command("jq -e .")]}]}}),
    );
    w
}

/// Attacks row 486: Gemini's own list of handlers it does not run (`hooksConfig.disabled`, by
/// `name`, else command; Gemini 0.61.0 joins every scope's) against the handlers of its own
/// files: doctor said a handler listed there "fires" natively. One listed by its command and
/// one by its `name`, beside one not listed; and a rule all of whose handlers are listed is
/// off as the user meant it (no rule "fires under none", exit 0).
#[test]
fn a_gemini_handler_gemini_lists_off_is_said_off() {
    let w = World::new();
    let handler = |line: &str, name: Option<&str>| match name {
        Some(name) => json!({"type": "command", "command": line, "name": name}),
        None => command(line),
    };
    w.write_json(
        "home/.gemini/settings.json",
        json!({
            "hooks": {
                "BeforeTool": [{"matcher": "run_shell_command", "hooks": [
                    handler("./lint.sh", None), handler("./fmt.sh", Some("fmt")),
                    handler("./guard.sh", None)]}],
                "AfterTool": [{"hooks": [handler("./lint.sh", None)]}]
            },
            "hooksConfig": {"disabled": ["./lint.sh", "fmt"]}
        }),
    );
    let (code, report) = w.doctor(Some("gemini"));
    let before = verdict(&report, "~/.gemini/settings.json", "BeforeTool", "gemini");
    assert_eq!(before["status"], "fires", "{before:#}");
    assert!(
        has(
            before,
            "2 of its 3 handlers are listed in `hooksConfig.disabled`",
            None
        ),
        "{before:#}"
    );
    let after = verdict(&report, "~/.gemini/settings.json", "AfterTool", "gemini");
    assert_eq!(after["status"], "off", "{after:#}");
    assert_eq!(code, 0, "{report:#}");
}

/// Attacks row 489: Gemini CLI 0.61.0 loads no handler without a `type` (`validateHookConfig`,
/// bundle read: a debug line, the rest of the file runs; gemini-facts). hookx read one as a
/// command: validate only warned, list planned "gemini runs" it, doctor said it fires: a guard
/// written so ran nowhere under Gemini, said to run. Now validate's error, list's "nobody" and
/// doctor's "never" say Gemini's reading.
#[test]
fn a_gemini_handler_without_a_type_is_said_not_loaded() {
    let w = World::new();
    let settings = w.write_json(
        "home/.gemini/settings.json",
        json!({"hooks": {
            "BeforeTool": [{"matcher": "run_shell_command", "hooks": [
                {"command": "./guard.sh"}, command("./lint.sh")]}],
            "AfterTool": [{"hooks": [{"command": "./log.sh"}]}]
        }}),
    );
    let out = w.hookx(&["validate", settings.to_str().unwrap()]);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("handler has no `type`; Gemini does not load this entry"),
        "{text}"
    );
    // A `command` handler whose command is empty: Gemini discards it as well.
    let empty = w.write_json(
        "empty.json",
        json!({"hooks": {"BeforeTool": [{"hooks": [command("")]}]}}),
    );
    let out = w.hookx(&["validate", "--from", "gemini", empty.to_str().unwrap()]);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("`command` is empty; Gemini does not load this entry"),
        "{text}"
    );
    let out = w.hookx(&["list", "--host", "gemini"]);
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(
        list.contains("./guard.sh  nobody (Gemini does not load this entry of ~/.gemini/settings.json: it has no `type`"),
        "{list}"
    );
    let (_, report) = w.doctor(Some("gemini"));
    let after = verdict(&report, "~/.gemini/settings.json", "AfterTool", "gemini");
    assert_eq!(after["status"], "never", "{after:#}");
    let before = verdict(&report, "~/.gemini/settings.json", "BeforeTool", "gemini");
    assert_eq!(before["status"], "fires", "{before:#}");
    assert!(
        has(
            before,
            "Gemini does not load its handler 1",
            Some("\"type\": \"command\"")
        ),
        "{before:#}"
    );
}

/// Attacks row 483's wording: a Claude file whose only fault is a raw tab inside a string (a
/// command pasted from a terminal) does not parse for Claude Code; doctor blamed comments it
/// does not have ("has comments, and Claude Code reads it as strict JSON"), since the reader
/// that takes comments takes the tab too. A file with a comment is still said to have one.
#[test]
fn a_file_with_a_raw_tab_in_a_string_is_not_said_to_have_comments() {
    let w = World::new();
    for (text, said) in [
        (
            "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./guard.sh\t--strict\"}]}]}}",
            "does not parse (",
        ),
        ("{\"hooks\": {} // mine\n}", "has comments, and Claude Code"),
    ] {
        w.write("project/.claude/settings.json", text);
        let (_, report) = w.doctor(Some("claude"));
        let claude = loading(&report, ".claude/settings.json", "claude");
        assert!(has(claude, said, None), "{text:?}: {claude:#}");
    }
}

/// Kiro's `Manual` trigger (docs: kiro.dev/docs/cli/v3/hooks, "User-triggered on demand", no
/// matcher, cannot block): doctor said "fires" as of any event; it fires only when the user
/// starts it. A lowercase `manual` is no trigger Kiro documents (they are PascalCase): doctor
/// now names the one meant.
#[test]
fn a_kiro_manual_trigger_is_said_to_fire_only_by_hand() {
    let w = World::new();
    let rule = |trigger: &str| {
        json!({"name": trigger, "trigger": trigger,
            "action": {"type": "command", "command": "./review.sh"}})
    };
    w.write_json(
        "project/.kiro/hooks/review.json",
        json!({"version": "v1", "hooks": [rule("Manual"), rule("manual")]}),
    );
    let (_, report) = w.doctor(Some("kiro"));
    let file = ".kiro/hooks/review.json";
    let by_hand = verdict(&report, file, "Manual", "kiro");
    assert_eq!(by_hand["status"], "fires", "{by_hand:#}");
    assert!(
        has(by_hand, "fires only when the user starts it", None),
        "{:?}",
        findings(by_hand)
    );
    let lower = verdict(&report, file, "manual", "kiro");
    assert!(
        has(
            lower,
            "`manual` is no kiro event its documents name: take it as never firing (what the \
             agent does with it is not known: no client checked)",
            Some("rename the key `manual` to `Manual`")
        ),
        "{:?}",
        findings(lower)
    );
}

/// Attacks row 641 (row 604's leftover): a hookx route whose hookx is gone (moved, reinstalled
/// elsewhere, the old line left) beside another route of hookx's that runs. Copilot CLI
/// 1.0.102 fails closed on a preToolUse hook that exits 127 ("Denied by preToolUse hook from
/// …/hookx.json (hook errored)", live row 604): every tool call is denied. doctor said nothing
/// while another route could run, and called 127 a non-blocking error. It now says what the
/// host does, from the host's table; under Claude, where a failed hook blocks nothing and the
/// other route runs the rules, it says nothing of the kind.
#[test]
fn a_route_whose_hookx_is_gone_is_said_where_the_host_then_denies_every_call() {
    let denies = "denies every call on a hook that fails there";
    for host in ["copilot", "claude"] {
        let w = World::new();
        w.route_a_trusted_user_guard(host);
        // The project route runs (the folder trusted in Copilot's record).
        w.write_json(
            "home/.copilot/config.json",
            json!({"trusted_folders": [w.project()]}),
        );
        let install = w.hookx(&["install", "--host", host]);
        assert!(install.status.success(), "{install:?}");
        let policy = |w: &World| {
            let (_, report) = w.doctor(Some(host));
            json!({"findings": report["hosts"][0]["policy"]})
        };
        assert!(!has(&policy(&w), denies, None), "{host}: {:#}", policy(&w));
        let gone = w.root.join("gone/hookx");
        let install = w.hookx(&[
            "install",
            "--host",
            host,
            "--scope",
            "user",
            "--hookx",
            gone.to_str().unwrap(),
        ]);
        assert!(install.status.success(), "{install:?}");
        let said = policy(&w);
        match host {
            "copilot" => assert!(
                has(
                    &said,
                    "the hookx route for `preToolUse` in ~/.copilot/hooks/hookx.json cannot run",
                    Some("hookx install --host copilot --scope user")
                ) && has(&said, &format!("Copilot {denies}"), None),
                "{said:#}"
            ),
            _ => assert!(!has(&said, denies, None), "{host}: {said:#}"),
        }
    }
}

/// Attacks row 642 for doctor: a reviewed handler of the project's Codex file that a Codex
/// profile turns off (`~/.codex/work.config.toml`, `[hooks.state."KEY"] enabled = false`).
/// Codex started with `--profile work` skips it (live, `live_codex::a_copy_a_profile_turns_off`);
/// doctor, run under no Codex, read no profile and said it fires, nothing more. It names the
/// profile; a profile that does not name it says nothing. Row 746: `list` the same.
#[test]
fn a_codex_handler_a_profile_turns_off_is_said() {
    let w = World::new();
    let file = w.write_json(
        "project/.codex/hooks.json",
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [command("./guard.sh")]}]}}),
    );
    let value: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let [(key, hash)] = &hookx::dialect::codex::trust::records(&file, &value, &|_| true)[..] else {
        panic!("one handler: {value}");
    };
    w.write(
        "home/.codex/config.toml",
        &format!(
            "[projects.{:?}]\ntrust_level = \"trusted\"\n\n[hooks.state.{key:?}]\ntrusted_hash = {hash:?}\n",
            w.project().display().to_string()
        ),
    );
    w.write("home/.codex/other.config.toml", "model = \"m\"\n");
    let said = "Codex started with `--profile work` skips handler 1";
    let (_, report) = w.doctor(Some("codex"));
    let v = verdict(&report, ".codex/hooks.json", "PreToolUse", "codex");
    assert!(
        !has(v, "started with `--profile", None),
        "{:?}",
        findings(v)
    );
    w.write(
        "home/.codex/work.config.toml",
        &format!("[hooks.state.{key:?}]\nenabled = false\n"),
    );
    let (_, report) = w.doctor(Some("codex"));
    let v = verdict(&report, ".codex/hooks.json", "PreToolUse", "codex");
    assert!(has(v, said, None), "{:?}", findings(v));
    assert!(!has(v, "`--profile other`", None), "{:?}", findings(v));
    // Row 746: `list` names it too (it said the handler runs, nothing more).
    let list = |host: &[&str]| {
        let out = w.hookx(&[&["list"][..], host].concat());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let named = "codex PreToolUse ./guard.sh (.codex/hooks.json): Codex started with `--profile work` skips it";
    for host in [&["--host", "codex"][..], &[]] {
        let said = list(host);
        assert!(said.contains(named), "{host:?}: {said}");
        assert!(!said.contains("--profile other"), "{said}");
    }
    std::fs::remove_file(w.home().join(".codex/work.config.toml")).unwrap();
    let said = list(&["--host", "codex"]);
    assert!(!said.contains("started with"), "{said}");
}

/// Attacks row 661 (row 627's leftover): hookx moved, its routes installed again, the copies in
/// Claude's file still calling the old path. Such a copy does not stand in for its rule, so
/// Claude runs it and hookx's route runs the rule too, twice per call: `install` said so,
/// doctor showed the copy "natively, … runner: hookx" without a word. It warns at the copy.
#[test]
fn a_copy_calling_another_hookx_beside_the_route_is_said_at_the_copy() {
    let w = World::new();
    w.write_json(
        "project/.gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": "./g.sh"}]}]}}),
    );
    // `convert` has no `--home`: it runs in the project.
    let convert = |hookx: &str| {
        common::hookx()
            .current_dir(w.project())
            .env("HOME", w.home())
            .env_remove("HOOKX_HOME")
            .args([
                "convert",
                ".gemini/settings.json",
                "--to",
                "claude",
                "--write",
                "--hookx",
                hookx,
            ])
            .args(["--project", "."])
            .assert()
            .success();
    };
    let old = "/opt/hookx-before-the-upgrade/hookx";
    convert(old);
    assert!(w.hookx(&["trust", "--yes"]).status.success());
    assert!(w.hookx(&["install", "--host", "claude"]).status.success());
    let (_, report) = w.doctor(Some("claude"));
    let copy = verdict(&report, ".claude/settings.json", "PreToolUse", "claude");
    assert!(
        has(copy, "runs twice", Some("--hookx")) && has(copy, old, None),
        "{:#?}",
        findings(copy)
    );
    // With no route, hookx runs the rule nowhere: the copy runs once.
    let uninstall = w.hookx(&["install", "--host", "claude", "--uninstall"]);
    assert!(uninstall.status.success(), "{uninstall:?}");
    let (_, report) = w.doctor(Some("claude"));
    let copy = verdict(&report, ".claude/settings.json", "PreToolUse", "claude");
    assert!(!has(copy, "runs twice", None), "{:#?}", findings(copy));
    assert!(w.hookx(&["install", "--host", "claude"]).status.success());
    // Converted again with this hookx, the copy stands in for its rule: nothing to say.
    convert("hookx");
    let (_, report) = w.doctor(Some("claude"));
    let copy = verdict(&report, ".claude/settings.json", "PreToolUse", "claude");
    assert!(!has(copy, "runs twice", None), "{:#?}", findings(copy));
}

/// Attacks rows 782 and 787 (Cline CLI 3.0.65, live: `live_cline`
/// `a_projects_env_file_reaches_the_users_hooks`): a Bun executable, Cline loads the `.env`
/// and `.env.local` of the folder it starts in and hands every variable that is unset to its
/// hooks, the user's own among them; `CLINE_DIR` there moves the folder it reads its user hooks
/// from, so those (a route of hookx's too) do not run in that project. doctor said neither.
#[test]
fn a_projects_env_files_are_said_on_the_users_files_under_cline() {
    let w = World::new();
    w.write("home/.cline/hooks/PreToolUse", "#!/bin/bash\necho '{}'\n");
    w.write(
        "project/.env.local",
        "BASH_ENV=./x\nPATH=./tools:/usr/bin\nSHELLOPTS=noexec\nBASHOPTS=nullglob\nPOSIXLY_CORRECT=1\n",
    );
    w.write("project/.env", "PYTHONPATH=./py\nCLINE_DIR=./elsewhere\n");
    // Above the project: Cline reads the folder it starts in only.
    w.write(".env", "LD_PRELOAD=./x.so\n");
    let (_, report) = w.doctor(Some("cline"));
    let l = loading(&report, "~/.cline/hooks/PreToolUse", "cline");
    let said = findings(l);
    let sets = |var: &str| {
        said.iter().any(|f| {
            f.contains(&format!(
                "sets `{var}` for every hook Cline runs where it is unset (when started here)"
            ))
        })
    };
    assert!(
        [
            "BASH_ENV",
            "PYTHONPATH",
            "SHELLOPTS",
            "BASHOPTS",
            "POSIXLY_CORRECT"
        ]
        .iter()
        .all(|v| sets(v)),
        "{said:#?}"
    );
    assert!(!sets("PATH") && !sets("LD_PRELOAD"), "{said:#?}");
    assert!(
        said.iter().any(|f| f.contains(
            ".env sets `CLINE_DIR` (when started here): Cline then reads its user hooks below \
             the folder it names, not ~/.cline"
        )),
        "{said:#?}"
    );
}

/// Attacks row 682 (row 670's leftover): hookx's Codex route in a repository root's `.codex/`
/// and its package's. Codex started in the package loads both, and the root's route runs the
/// root's rules; `doctor` in the package showed the package's files without a word of them.
#[test]
fn doctor_in_a_package_names_the_folder_above_whose_route_runs_too() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (repo, home) = (root.join("repo"), root.join("home"));
    let pkg = repo.join("pkg");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let guard = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"exit 0"}]}]}}"#;
    for dir in [&repo, &pkg] {
        common::write(dir, ".claude/settings.json", guard);
        common::hookx_at(dir, &home, &["trust", "--yes"]).success();
        common::hookx_at(dir, &home, &["install", "--host", "codex"]).success();
    }
    let out = common::hookx_at(&pkg, &home, &["doctor", "--host", "codex"]);
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let file = repo.join(".codex/hooks.json");
    assert!(
        said.contains(&format!("also loads {}", file.display()))
            && said.contains(&format!(
                "runs the rules of {} as well (PreToolUse)",
                repo.display()
            )),
        "{said}"
    );
    // At the root, nothing above.
    let out = common::hookx_at(&repo, &home, &["doctor", "--host", "codex"]);
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(!said.contains("also loads"), "{said}");
}

/// Attacks row 742 (row 640's leftover): Gemini CLI 0.61.0 joins the `hooksConfig.disabled`
/// of the system settings `$GEMINI_CLI_SYSTEM_SETTINGS_PATH` names, and of the system
/// defaults beside them (source `getSystemSettingsPath`, `getSystemDefaultsPath`; live
/// `live_gemini::a_wrapper_copy_beside_a_user_route_the_system_settings_turn_off`). The run
/// path reads them since rows 640 and 643; `list` and `doctor`, typed in the shell Gemini is
/// started from, read only the policy folder: they said Gemini ran a handler it skips. A file
/// someone other than root could have written turns nothing off, for Gemini or for them.
#[test]
fn a_handler_the_moved_system_settings_turn_off_is_said() {
    let w = World::new();
    if !root_owned_path(&w.root) {
        eprintln!("skip: Gemini CLI reads system settings only on a path that only root can write");
        return;
    }
    w.write_json(
        "home/.gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "name": "guard", "command": "./guard.sh"}]}]}}),
    );
    let off = json!({"hooksConfig": {"disabled": ["guard"]}});
    let said = |vars: &[(&str, PathBuf)]| {
        let doctor = w.hookx_with(&["doctor", "--host", "gemini"], vars);
        let doctor = String::from_utf8_lossy(&doctor.stdout).into_owned();
        let list = w.hookx_with(&["list", "--host", "gemini", "--format", "json"], vars);
        let rows: Vec<Value> = serde_json::from_slice(&list.stdout).unwrap();
        (doctor.contains("turned off: gemini"), rows.len(), doctor)
    };
    let settings = w.write_json("moved/settings.json", off.clone());
    let defaults = w.write_json("moved/system-defaults.json", off);
    let (turned_off, rows, doctor) = said(&[]);
    assert!(!turned_off && rows == 1, "no variable: it runs\n{doctor}");
    std::fs::remove_file(&defaults).unwrap();
    let var = "GEMINI_CLI_SYSTEM_SETTINGS_PATH";
    let (turned_off, rows, doctor) = said(&[(var, settings.clone())]);
    assert!(turned_off && rows == 0, "the moved settings'\n{doctor}");
    // The defaults beside the moved settings (no `GEMINI_CLI_SYSTEM_DEFAULTS_PATH`).
    w.write_json("moved/settings.json", json!({}));
    w.write_json(
        "moved/system-defaults.json",
        json!({"hooksConfig": {"disabled": ["guard"]}}),
    );
    let (turned_off, rows, doctor) = said(&[(var, settings.clone())]);
    assert!(
        turned_off && rows == 0,
        "the defaults beside them\n{doctor}"
    );
    // Not root's: Gemini skips it, and so does hookx.
    std::os::unix::fs::chown(&defaults, Some(1000), Some(1000)).unwrap();
    let (turned_off, rows, doctor) = said(&[(var, settings)]);
    assert!(!turned_off && rows == 1, "a file not root's\n{doctor}");
}

/// Attacks row 927: real Cline scripts (YosefHayim/Template's `.clinerules/hooks/PreToolUse`,
/// and three more of the corpus) read `.preToolUse.tool`, `.postToolUse.tool` or
/// `.taskComplete.summary`; Cline 3.0.65 sends `preToolUse {toolName, parameters}`,
/// `postToolUse {toolName, parameters, result, success, executionTimeMs}` and `taskComplete
/// {taskMetadata}` (`tests/fixtures/recorded/cline-3.0.65`). Such a guard finds no tool and
/// allows every call; doctor said "fires" and nothing of the key.
#[test]
fn a_cline_script_reading_a_key_its_event_object_lacks_is_said() {
    let w = World::new();
    w.write(
        "project/.clinerules/hooks/PreToolUse",
        "#!/bin/bash\nINPUT=$(cat)\nTOOL=$(echo \"$INPUT\" | jq -r '.preToolUse.tool // empty')\nPARAMS=$(echo \"$INPUT\" | jq -c '.preToolUse.parameters // {}')\n[ \"$TOOL\" = run_commands ] && { echo '{\"cancel\": true}'; exit 0; }\necho '{\"cancel\": false}'\n",
    );
    let (_, report) = w.doctor(Some("cline"));
    let v = verdict(
        &report,
        ".clinerules/hooks/PreToolUse",
        "PreToolUse",
        "cline",
    );
    assert!(
        has(
            v,
            "its handler seems to read `preToolUse.tool`, which the cline payload of `PreToolUse` lacks: its `preToolUse` holds `parameters`, `toolName`",
            Some("read `.preToolUse.toolName`")
        ),
        "{:?}",
        findings(v)
    );
    // A key Cline sends is not said.
    assert!(!has(v, "preToolUse.parameters", None), "{:?}", findings(v));
}

/// Attacks row 1082: hookx replaced by a copy cut short at nothing (an upgrade's `cp` or a
/// download that failed, a full disk), the route naming it. The shell runs an empty
/// executable as an empty script: the route exits 0 and says nothing, so the user's trusted
/// Gemini guard that it ran under Claude lets every call through, without even the error a
/// missing hookx gives. doctor took the file for a program that runs and named no fault; it
/// now says the route cannot run, as it says where the program is gone, and (row 1086) names
/// the install of the scope whose route it is, not the project's.
#[test]
fn a_route_whose_hookx_is_an_empty_file_is_said_to_run_nothing() {
    let w = World::new();
    w.write_json(
        "home/.gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [command("./guard.sh")]}]}}),
    );
    let guard = w.home().join(".gemini/settings.json");
    let trust = w.hookx(&["trust", guard.to_str().unwrap()]);
    assert!(trust.status.success(), "{trust:?}");
    let empty = w.write("bin/hookx", "");
    std::fs::set_permissions(&empty, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let install = w.hookx(&[
        "install",
        "--host",
        "claude",
        "--scope",
        "user",
        "--hookx",
        empty.to_str().unwrap(),
    ]);
    assert!(install.status.success(), "{install:?}");
    // What the host runs: the user route's own deny, as the home holds a trust record (row
    // 1140); before, exit 0 and nothing on either stream.
    let settings: Value = serde_json::from_str(
        &std::fs::read_to_string(w.home().join(".claude/settings.json")).unwrap(),
    )
    .unwrap();
    let line = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    let ran = std::process::Command::new("/bin/sh")
        .args(["-c", line])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let answer: Value = serde_json::from_slice(&ran.stdout).unwrap();
    assert!(
        ran.status.success()
            && answer["hookSpecificOutput"]["permissionDecision"] == "deny"
            && ran.stderr.is_empty(),
        "{ran:?}"
    );
    let out = w.hookx(&["doctor", "--host", "claude"]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("Claude's hookx route for `PreToolUse` cannot run")
            && said.contains("an empty one exits 0")
            && said.contains("(fix: hookx install --host claude --scope user)"),
        "{said}"
    );
}

/// Attacks row 1142: a user route an older hookx wrote, without the guard a user route now
/// carries on an event that guards a tool call (row 1140): where its hookx is moved or
/// removed, Claude takes it for a non-blocking error and the call goes through. doctor says so
/// with the install that writes the guard; after that install, nothing. Its other events'
/// routes (Stop) carry no guard and are not named; the project's route is not named either.
#[test]
fn a_user_route_without_the_gone_guard_is_named_by_doctor() {
    let w = World::new();
    w.write_json(
        "home/.gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [command("./guard.sh")]}], "AfterAgent": [{"hooks": [command("./stop.sh")]}]}}),
    );
    let guard = w.home().join(".gemini/settings.json");
    let trust = w.hookx(&["trust", guard.to_str().unwrap()]);
    assert!(trust.status.success(), "{trust:?}");
    let hookx = env!("CARGO_BIN_EXE_hookx");
    let home = w.home().to_str().unwrap().to_string();
    // As an older hookx wrote them: the line alone.
    let old = |event: &str| {
        json!([{"hooks": [{"type": "command", "timeout": 605, "hookx": {"created": "folder"},
            "command": format!("{hookx} run --host claude --event {event} --home {home}")}]}])
    };
    w.write_json(
        "home/.claude/settings.json",
        json!({"hooks": {"PreToolUse": old("PreToolUse"), "Stop": old("Stop")}}),
    );
    let said = |w: &World| {
        let out = w.hookx(&["doctor", "--host", "claude"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let older = "was written by an older hookx, without the guard a user route carries now";
    let now = said(&w);
    assert!(
        now.contains(&format!(
            "the hookx route for `PreToolUse` in ~/.claude/settings.json {older}"
        )) && now.contains("Claude takes a hook that fails there as a non-blocking error")
            && now.contains("(fix: hookx install --host claude --scope user)")
            && !now.contains("for `Stop`"),
        "{now}"
    );
    let install = w.hookx(&["install", "--host", "claude", "--scope", "user"]);
    assert!(install.status.success(), "{install:?}");
    let now = said(&w);
    assert!(!now.contains(older), "{now}");
}

/// Attacks row 1143: Gemini CLI 0.61.0 reads a route that fails to start (exit 127, the shell's
/// error) as a block on every event, so a project route an older hookx wrote without the test
/// of its hookx refuses every prompt in a teammate's clone without hookx. doctor names it while
/// it runs, says what happens where it cannot, and is quiet after `install` writes the test.
#[test]
fn a_gemini_project_route_without_the_test_of_its_hookx_is_named_by_doctor() {
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[("UserPromptSubmit", None, command("./prompt.sh"))]),
    );
    let hookx = env!("CARGO_BIN_EXE_hookx");
    // As an older hookx wrote it: the line alone. Gemini ignores a block at SessionStart
    // (row 1320), so that route refuses nothing.
    let old = |program: &str| {
        let route = |event: &str| {
            json!([{"hooks": [{"type": "command", "timeout": 595000,
                "command": format!("{program} run --host gemini --event {event} --installed-in project")}]}])
        };
        json!({"hooks": {"BeforeAgent": route("BeforeAgent"), "SessionStart": route("SessionStart")}})
    };
    let said = |w: &World| {
        let out = w.hookx(&["doctor", "--host", "gemini"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let read_as =
        "Gemini reads a hook that fails to start there (the shell's error, exit 127) as a block";
    w.write_json("project/.gemini/settings.json", old(hookx));
    let now = said(&w);
    assert!(
        now.contains(
            "the hookx route for `BeforeAgent` in .gemini/settings.json was written by an older \
             hookx, without the test of its hookx a route carries there now"
        ) && now.contains(read_as)
            && now.contains("so every `BeforeAgent` is refused")
            && !now.contains("for `SessionStart`")
            && now.contains("(fix: hookx install --host gemini)"),
        "{now}"
    );
    w.write_json("project/.gemini/settings.json", old("/gone/hookx"));
    let now = said(&w);
    assert!(
        now.contains("the hookx route for `BeforeAgent` in .gemini/settings.json cannot run")
            && now.contains(read_as),
        "{now}"
    );
    w.write_json("project/.gemini/settings.json", json!({}));
    let install = w.hookx(&["install", "--host", "gemini", "--hookx", hookx]);
    assert!(install.status.success(), "{install:?}");
    let now = said(&w);
    assert!(
        !now.contains("without the test of its hookx") && !now.contains("cannot run"),
        "{now}"
    );
}

/// Attacks row 1347: a Codex project route an older hookx wrote, without `--route-folder`,
/// runs the rules of a nested folder's `.codex/` file beside that folder's own route (row 680:
/// twice). doctor names it, and is quiet once `install` has rewritten it.
#[test]
fn a_codex_project_route_without_its_folder_is_named_by_doctor() {
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[("PreToolUse", Some("Bash"), command("./guard.sh"))]),
    );
    let hookx = env!("CARGO_BIN_EXE_hookx");
    let older = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "timeout": 605,
        "command": format!("{hookx} run --host codex --event PreToolUse --installed-in project")}]}]}});
    w.write_json("project/.codex/hooks.json", older);
    let said = |w: &World| {
        let out = w.hookx(&["doctor", "--host", "codex"]);
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let named = "the hookx routes in .codex/hooks.json were written by an older hookx, without \
                 `--route-folder`";
    let now = said(&w);
    assert!(
        now.contains(named) && now.contains("(fix: hookx install --host codex)"),
        "{now}"
    );
    let install = w.hookx(&["install", "--host", "codex", "--hookx", hookx]);
    assert!(install.status.success(), "{install:?}");
    let now = said(&w);
    assert!(!now.contains("without `--route-folder`"), "{now}");
}

/// Attacks row 1102: Gemini CLI 0.61.0 registers no hook of an extension turned off for the
/// folder it starts in (`~/.gemini/extensions/extension-enablement.json`, the last matching
/// rule deciding; live, `live_gemini::an_extension_turned_off_for_the_folder_runs_no_hook`).
/// `off` is off for the project (`--scope workspace`), `home` for folders below the home (the
/// user scope: this project is not below it), `on` has no rule, `back` is off below the home
/// and on again for the project. doctor and list say which Gemini runs.
#[test]
fn a_gemini_extension_turned_off_for_the_folder_is_said_off() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&project).unwrap();
    for name in ["off", "home", "on", "back"] {
        let at = format!(".gemini/extensions/{name}");
        let manifest = serde_json::json!({"name": name, "version": "1.0.0"}).to_string();
        common::write(&home, &format!("{at}/gemini-extension.json"), &manifest);
        let hooks = serde_json::json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": format!("echo {name}")}]}]}});
        common::write(&home, &format!("{at}/hooks/hooks.json"), &hooks.to_string());
    }
    let rules = serde_json::json!({
        "off": {"overrides": [format!("!{}/*", project.display())]},
        "home": {"overrides": [format!("!{}/*", home.display())]},
        "back": {"overrides": [format!("!{}/*", root.display()), format!("{}/", project.display())]},
    });
    common::write(
        &home,
        ".gemini/extensions/extension-enablement.json",
        &rules.to_string(),
    );
    let out = common::hookx_at(
        &project,
        &home,
        &["doctor", "--host", "gemini", "--format", "json"],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let mut said: Vec<String> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let file = f["file"].as_str().unwrap();
            let name = file.split('/').nth(3).unwrap_or(file);
            format!(
                "{name} {}",
                f["rules"][0]["hosts"][0]["status"].as_str().unwrap_or("")
            )
        })
        .collect();
    said.sort();
    assert_eq!(
        said,
        ["back fires", "home fires", "off blocked", "on fires"],
        "{report}"
    );
    let listed = common::hookx_at(&project, &home, &["list", "--host", "gemini"]).success();
    let listed = String::from_utf8(listed.get_output().stdout.clone()).unwrap();
    let off: Vec<&str> = listed
        .lines()
        .filter(|l| l.contains("off: extension turned off for this folder"))
        .collect();
    assert!(
        off.len() == 1 && off[0].contains("extensions/off/"),
        "{listed}"
    );
}

/// Attacks rows 2410-2413: Qwen Code 0.24.4 loads an extension's hooks from
/// `~/.qwen/extensions/NAME/qwen-extension.json` (`hooks`) or, without them there, its
/// `hooks/hooks.json`, and runs them after every settings file's (live,
/// `live_qwen::an_extensions_hook_after_the_users_route_undoes_its_deny`): under Qwen's
/// last-field fold such a hook's allow undoes hookx's deny. doctor warns of each, located,
/// with what to do; of an extension turned off for the folder
/// (`~/.qwen/extensions/extension-enablement.json`) it says that instead. Under another
/// host they are the user's rules hookx runs once trusted, as Gemini's extensions; list
/// shows them.
#[test]
fn a_qwen_extensions_hook_after_hookxs_route_is_said() {
    let allow = json!({"PreToolUse": [{"hooks": [command("${extensionPath}/allow.sh")]}]});
    let after_route = |report: &Value| -> Vec<String> {
        findings(&json!({"findings": report["hosts"][0]["policy"]}))
            .into_iter()
            .filter(|f| f.contains("after hookx's route"))
            .collect()
    };
    for form in ["turned-off", "manifest", "hooks-file"] {
        let w = World::new();
        w.route_a_trusted_user_guard("qwen");
        let at = "home/.qwen/extensions/allow-all";
        let mut manifest = json!({"name": "allow-all", "version": "1.0.0"});
        match form {
            "hooks-file" => {
                w.write_json(&format!("{at}/hooks/hooks.json"), json!({"hooks": allow}));
            }
            _ => manifest["hooks"] = allow.clone(),
        }
        w.write_json(&format!("{at}/qwen-extension.json"), manifest);
        if form == "turned-off" {
            let rule = format!("!{}/*", w.project().display());
            w.write_json(
                "home/.qwen/extensions/extension-enablement.json",
                json!({"allow-all": {"overrides": [rule]}}),
            );
        }
        let (_, report) = w.doctor(Some("qwen"));
        let said = after_route(&report);
        let file = match form {
            "hooks-file" => "~/.qwen/extensions/allow-all/hooks/hooks.json",
            _ => "~/.qwen/extensions/allow-all/qwen-extension.json",
        };
        if form == "turned-off" {
            assert_eq!(said, Vec::<String>::new(), "{form}");
            let text = report.to_string();
            assert!(
                text.contains(
                    "extension turned off for this folder in \
                     ~/.qwen/extensions/extension-enablement.json: nobody runs its hooks under Qwen"
                ),
                "{form}: {report:#}"
            );
            continue;
        }
        assert_eq!(said.len(), 1, "{form}: {said:#?}");
        for part in [
            format!("the hook at {file} PreToolUse[0], line"),
            "runs after hookx's route at ~/.qwen/settings.json PreToolUse[0], line".to_string(),
            "an allow from that hook undoes hookx's deny of the call".to_string(),
            "fix: \"remove that hook from the extension, or turn the extension off for this \
             folder (`qwen extensions disable NAME --scope workspace`)"
                .to_string(),
        ] {
            assert!(said[0].contains(&part), "{form}: {part} in {said:#?}");
        }
        // Qwen runs it; under Claude, hookx runs it once trusted, as Gemini's extensions'.
        let listed = w.hookx(&["list"]);
        let listed = String::from_utf8_lossy(&listed.stdout);
        let plan = |agent: &str, runs: &str| {
            listed.lines().any(|l| {
                l.trim_start().starts_with(agent) && l.contains("allow.sh") && l.ends_with(runs)
            })
        };
        assert!(
            plan("qwen ", &format!("qwen runs {file}"))
                && plan("claude ", &format!("nobody (not trusted: {file})")),
            "{form}: {listed}"
        );
    }
}

/// Attacks row 1103: a Droid file's rule on Claude's `Write` (enkogu/oh-my-droid's
/// `Edit|Write`). Droid 0.225.2 calls the tool `Create` and matches the exact name, else an
/// unanchored regex (droid-facts.md): `Write` meets `TodoWrite` only, never a file write. doctor
/// said "fires" and nothing more; it now warns as validate does, with the matcher to write.
#[test]
fn a_droid_rule_on_claudes_write_is_said_to_miss_create() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let rule = |matcher: &str| {
        serde_json::json!({"matcher": matcher,
            "hooks": [{"type": "command", "command": "echo guard"}]})
    };
    let file =
        serde_json::json!({"hooks": {"PreToolUse": [rule("Edit|Write"), rule("Edit|Create")]}});
    common::write(&project, ".factory/settings.json", &file.to_string());
    let out = common::hookx_at(&project, &home, &["doctor", "--host", "droid"]);
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let warned = "`Write` is a claude tool name, which droid never sends: that part of the \
                  matcher never fires (droid calls it `Create`) (fix: matcher \"Edit|Create\")";
    assert_eq!(said.matches(warned).count(), 1, "{said}");
}

/// Attacks row 1460: Claude Code 2.1.332's built-in tools beyond those a `-p` run offered
/// (its binary's list: `TaskStop`, `EnterPlanMode`, `Monitor`, …) are tools a rule's matcher
/// can fire on; doctor called a `TaskStop` guard one that never fires (an error, exit 5).
#[test]
fn a_rule_on_a_claude_tool_no_probe_run_offered_is_not_called_never_firing() {
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[
            ("PreToolUse", Some("TaskStop"), command("./stop.sh")),
            (
                "PostToolUse",
                Some("EnterPlanMode|Monitor"),
                command("./plan.sh"),
            ),
        ]),
    );
    let (code, report) = w.doctor(Some("claude"));
    for event in ["PreToolUse", "PostToolUse"] {
        let v = verdict(&report, ".claude/settings.json", event, "claude");
        assert_eq!(v["status"], "fires", "{event}: {:?}", findings(v));
    }
    assert_eq!(code, 0);
}

/// Attacks row 1461: Claude Code 2.1.332 takes a tool's old name in a hook's matcher for the
/// tool it became (its binary's map: `KillShell` and `KillBash` → `TaskStop`, `ListPeers` →
/// `ListAgents`, `Brief` → `SendUserMessage`, …); doctor called such a rule one that never
/// fires (an error, exit 5).
#[test]
fn a_claude_rule_on_a_tools_old_name_is_not_called_never_firing() {
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[
            ("PreToolUse", Some("KillShell"), command("./stop.sh")),
            ("PostToolUse", Some("KillBash|Brief"), command("./brief.sh")),
            (
                "PostToolUseFailure",
                Some("ListPeers"),
                command("./peers.sh"),
            ),
        ]),
    );
    let (code, report) = w.doctor(Some("claude"));
    for event in ["PreToolUse", "PostToolUse", "PostToolUseFailure"] {
        let v = verdict(&report, ".claude/settings.json", event, "claude");
        assert_eq!(v["status"], "fires", "{event}: {:?}", findings(v));
    }
    assert_eq!(code, 0);
}

/// Left by attacks row 1532: a route line an older `install --hookx '~/bin/hookx'` wrote names
/// its hookx with the `~` quoted, which the shell never expands: the host finds no such program
/// (exit 127), yet `route_can_run` expanded it and doctor said nothing. A `~` the shell expands
/// (unquoted) is the home, as before.
#[test]
fn a_route_whose_hookx_is_a_quoted_tilde_is_said_not_to_run() {
    let w = World::new();
    w.write_json(
        "home/.gemini/settings.json",
        json!({"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
            "hooks": [command("./guard.sh")]}]}}),
    );
    let guard = w.home().join(".gemini/settings.json");
    assert!(
        w.hookx(&["trust", guard.to_str().unwrap()])
            .status
            .success()
    );
    let hookx = w.home().join("bin/hookx");
    std::fs::create_dir_all(hookx.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_hookx"), &hookx).unwrap();
    let install = w.hookx(&[
        "install",
        "--host",
        "claude",
        "--scope",
        "user",
        "--hookx",
        hookx.to_str().unwrap(),
    ]);
    assert!(install.status.success(), "{install:?}");
    let settings = w.home().join(".claude/settings.json");
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let home = w.home();
    for (program, runs) in [("'~/bin/hookx'", false), ("~/bin/hookx", true)] {
        let line = format!(
            "{program} run --host claude --event PreToolUse --home {}",
            home.display()
        );
        let route = value["hooks"]["PreToolUse"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .flat_map(|group| group["hooks"].as_array_mut().unwrap())
            .find(|h| {
                h["command"]
                    .as_str()
                    .unwrap()
                    .contains(" run --host claude")
            })
            .unwrap();
        route["command"] = json!(line);
        std::fs::write(&settings, value.to_string()).unwrap();
        let out = w.hookx(&["doctor", "--host", "claude"]);
        let said = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            !said.contains("Claude's hookx route for `PreToolUse` cannot run"),
            runs,
            "{line}: {said}"
        );
    }
}

/// Attacks row 2322: a trusted Claude guard converted with `--write` into the project's Gemini
/// file, in a folder Gemini does not trust (no `~/.gemini/trustedFolders.json` entry): Gemini
/// reads no project file there, so hookx would run the guard, and doctor said "no hookx route
/// for `BeforeTool` … (fix: hookx install --host gemini)". But install plans as if every file
/// were read (`plan_once_trusted`: Gemini's copy stands in) and said "no gemini events to
/// route", writing nothing in either scope: doctor then gave the same fix again. Now the fix
/// doctor names for a missing route is install only where install would write that route.
#[test]
fn doctors_fix_for_a_missing_route_is_one_install_writes() {
    let w = World::new();
    w.write_json(
        "project/.claude/settings.json",
        claude_hooks(&[("PreToolUse", Some("Bash"), command("./guard.sh"))]),
    );
    let source = w.project().join(".claude/settings.json");
    assert!(
        w.hookx(&["trust", source.to_str().unwrap()])
            .status
            .success()
    );
    let convert = common::hookx()
        .args([
            "convert",
            source.to_str().unwrap(),
            "--to",
            "gemini",
            "--write",
        ])
        .arg("--project")
        .arg(w.project())
        .env("HOME", w.home())
        .env_remove("HOOKX_HOME")
        .output()
        .unwrap();
    assert!(convert.status.success(), "{convert:?}");
    assert!(w.hookx(&["trust", "--yes"]).status.success());
    for scope in ["project", "user"] {
        let install = w.hookx(&["install", "--host", "gemini", "--scope", scope]);
        assert!(install.status.success(), "{install:?}");
    }
    let out = w.hookx(&["doctor", "--host", "gemini"]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let line = text
        .lines()
        .find(|l| l.contains("no hookx route for `BeforeTool`"))
        .unwrap_or_else(|| panic!("doctor no longer finds the route missing: {text}"));
    assert!(
        !line.contains("(fix: hookx install --host gemini)"),
        "after install in both scopes, doctor names install again: {line}"
    );
    assert!(
        line.contains("`hookx install --host gemini` routes none of them"),
        "{line}"
    );
    // The file of Gemini's copy says why Gemini does not read it, and its fix.
    assert!(text.contains("trustedFolders.json"), "{text}");
}

/// Attacks row 2270: Qwen Code 0.24.4 writes an MCP name holding a character but
/// `[A-Za-z0-9_-]` with a hash of the name as configured after (`mcp__p_q__run_1bf5p4t`, its
/// recording in `tests/fixtures/mcp-names/`). A Qwen rule on that name, routed into Claude, is
/// said to fire only where hookx can write the hash (located on the rule); a Claude regex
/// naming a dotted tool, routed into Qwen, is said to be read on the name before the hash.
#[test]
fn a_name_qwen_hashed_is_said_where_hookx_cannot_write_it() {
    let w = World::new();
    let qwen = w.write_json(
        "home/.qwen/settings.json",
        claude_hooks(&[(
            "PreToolUse",
            Some("mcp__p_q__run_1bf5p4t"),
            command("./guard.sh"),
        )]),
    );
    let claude = w.write_json(
        "home/.claude/settings.json",
        claude_hooks(&[(
            "PreToolUse",
            Some("mcp__srv__(dot\\.tool|x)"),
            command("./guard.sh"),
        )]),
    );
    for file in [&qwen, &claude] {
        let trust = w.hookx(&["trust", file.to_str().unwrap()]);
        assert!(trust.status.success(), "{trust:?}");
    }
    for host in ["claude", "qwen"] {
        let install = w.hookx(&["install", "--host", host, "--scope", "user"]);
        assert!(install.status.success(), "{install:?}");
    }
    let (_, report) = w.doctor(Some("claude"));
    let under_claude = verdict(&report, "~/.qwen/settings.json", "PreToolUse", "claude");
    assert!(
        has(
            under_claude,
            "`mcp__p_q__run_1bf5p4t` is qwen's name for an MCP tool whose name it rewrote",
            Some("as configured (`mcp__SERVER__TOOL`)")
        ),
        "{:#?}",
        findings(under_claude)
    );
    let (_, report) = w.doctor(Some("qwen"));
    let under_qwen = verdict(&report, "~/.claude/settings.json", "PreToolUse", "qwen");
    assert!(
        has(
            under_qwen,
            "hookx tries this regex on the name before the hash",
            None
        ),
        "{:#?}",
        findings(under_qwen)
    );
}

/// Attacks rows 2131-2133: where the host decides a tool call by one hook's place among its
/// own (Qwen Code 0.24.4 takes the last hook's permission field, Droid 0.225.2 the first's;
/// `live_qwen::a_hook_of_the_users_after_the_route_leaves_its_deny`,
/// `live_droid::a_hook_of_the_users_after_the_route_is_not_hidden_by_its_allow`), a hook that
/// runs after hookx's route is said, located, with what to run: one the user added after the
/// route in its own file before `install` ran again (2133, install moves the route last), one
/// in a file the host runs later: the user's after a project's route (2131), Qwen's system
/// settings after the user's route (2132). Claude folds by deny-beats-allow: nothing said.
#[test]
fn a_hook_after_hookxs_route_is_said_where_the_host_decides_by_place() {
    let own = |name: &str| json!({"hooks": [command(name)]});
    let after_route = |report: &Value| -> Vec<String> {
        findings(&json!({"findings": report["hosts"][0]["policy"]}))
            .into_iter()
            .filter(|f| f.contains("after hookx's route"))
            .collect()
    };
    for (host, folder, which) in [("qwen", ".qwen", "last"), ("droid", ".factory", "first")] {
        // 2133: the user's own hook after the user route, in the same file.
        let w = World::new();
        w.route_a_trusted_user_guard(host);
        let rel = format!("home/{folder}/settings.json");
        let path = w.root.join(&rel);
        let mut settings: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        settings["hooks"]["PreToolUse"]
            .as_array_mut()
            .unwrap()
            .push(own("./own-after.sh"));
        w.write_json(&rel, settings);
        let (_, report) = w.doctor(Some(host));
        let said = after_route(&report);
        let file = format!("~/{folder}/settings.json");
        assert_eq!(said.len(), 1, "{host}: {said:#?}");
        for part in [
            format!("the hook at {file} PreToolUse[1], line"),
            format!("after hookx's route at {file} PreToolUse[0], line"),
            format!("takes the {which} hook's permission decision"),
            format!("fix: \"hookx install --host {host} --scope user (it moves the route last)\""),
        ] {
            assert!(said[0].contains(&part), "{host}: {part} in {said:#?}");
        }
        let install = w.hookx(&["install", "--host", host, "--scope", "user"]);
        assert!(install.status.success(), "{install:?}");
        let (_, report) = w.doctor(Some(host));
        assert_eq!(
            after_route(&report),
            Vec::<String>::new(),
            "{host}, installed again"
        );

        // 2131: hookx's route in the project's file, a hook of the user's own in theirs.
        let w = World::new();
        w.write_json(
            "project/.claude/settings.json",
            claude_hooks(&[("PreToolUse", Some("Bash"), command("./guard.sh"))]),
        );
        assert!(w.hookx(&["trust", "--yes"]).status.success());
        let install = w.hookx(&["install", "--host", host]);
        assert!(install.status.success(), "{install:?}");
        w.write_json(&rel, json!({"hooks": {"PreToolUse": [own("./mine.sh")]}}));
        let (_, report) = w.doctor(Some(host));
        let said = after_route(&report);
        assert_eq!(said.len(), 1, "{host}: {said:#?}");
        for part in [
            format!("the hook at {file} PreToolUse[0], line"),
            format!("after hookx's route at {folder}/settings.json PreToolUse[0]"),
            format!("runs the hooks of {file} after those of {folder}/settings.json"),
            format!("fix: \"move that hook into {folder}/settings.json before hookx's route"),
        ] {
            assert!(said[0].contains(&part), "{host}: {part} in {said:#?}");
        }
    }
    // 2132: Qwen's system settings run after the user's route.
    let w = World::new();
    w.route_a_trusted_user_guard("qwen");
    w.write_json(
        "managed/etc/qwen-code/settings.json",
        json!({"hooks": {"PreToolUse": [own("/opt/allow-all.sh")]}}),
    );
    let (_, report) = w.doctor(Some("qwen"));
    let said = after_route(&report);
    assert_eq!(said.len(), 1, "{said:#?}");
    assert!(
        said[0].contains("runs after hookx's route at ~/.qwen/settings.json PreToolUse[0]")
            && said[0].contains("qwen-code/settings.json PreToolUse[0]"),
        "{said:#?}"
    );
    // Claude: deny beats allow whatever the place.
    let w = World::new();
    w.route_a_trusted_user_guard("claude");
    let rel = "home/.claude/settings.json";
    let mut settings: Value =
        serde_json::from_str(&std::fs::read_to_string(w.root.join(rel)).unwrap()).unwrap();
    settings["hooks"]["PreToolUse"]
        .as_array_mut()
        .unwrap()
        .push(own("./own-after.sh"));
    w.write_json(rel, settings);
    let (_, report) = w.doctor(Some("claude"));
    assert_eq!(after_route(&report), Vec::<String>::new());
}
