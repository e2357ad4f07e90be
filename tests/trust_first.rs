//! Untrusted content is never evaluated, and no untrusted or hostile file changes what a
//! trusted file decides (issue 9): each test runs the real binary with a trusted deny in the
//! user's Bricks file beside files the user never trusted.

mod common;

use common::OutputWithStdin as _;
use common::write;
use std::path::{Path, PathBuf};

/// A project and a home in one temporary directory (canonical paths).
struct Setup {
    _dir: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let project = root.join("project");
        let home = root.join("home");
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Setup {
            _dir: dir,
            project,
            home,
        }
    }

    /// `~/.bricks-project-desktop/hooks.json`: a deny of every tool the matcher takes, trusted.
    fn trusted_deny(&self, matcher: &str) -> PathBuf {
        let file = write(
            &self.home,
            ".bricks-project-desktop/hooks.json",
            &deny(matcher),
        );
        self.trust(&file);
        file
    }

    fn trust(&self, file: &Path) {
        self.hookx(&["trust", &file.display().to_string()], "")
            .success();
    }

    fn hookx(&self, args: &[&str], stdin: &str) -> assert_cmd::assert::Assert {
        common::hookx()
            .args(args)
            .arg("--project")
            .arg(&self.project)
            .arg("--home")
            .arg(&self.home)
            .env("HOME", &self.home)
            .env_remove("HOOKX_HOME")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("COPILOT_CLI")
            .env_remove("BRICKS_HOOK_EVENT")
            .write_stdin(stdin.to_string())
            .assert()
    }

    /// `hookx run --host claude` for a PreToolUse of `tool`: the exit code and stderr.
    fn claude_pre_tool_use(&self, tool: &str) -> Ran {
        let payload = serde_json::json!({
            "session_id": "s",
            "transcript_path": "/dev/null",
            "cwd": self.project,
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": {"command": "ls"},
        });
        self.run("claude", "PreToolUse", &payload)
    }

    fn run(&self, host: &str, event: &str, payload: &serde_json::Value) -> Ran {
        let assert = self.hookx(
            &["run", "--host", host, "--event", event],
            &payload.to_string(),
        );
        let out = assert.get_output();
        Ran {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// What `hookx run` answered.
#[derive(Debug)]
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Ran {
    /// Whether the answer is the trusted handler's deny (a JSON deny, or exit 2 with its
    /// reason, as the host reads it).
    fn denied_by_the_trusted_rule(&self) -> bool {
        let json_deny = self.stdout.contains("\"deny\"") || self.stdout.contains("\"block\"");
        let reason = self.stdout.contains("trusted-deny") || self.stderr.contains("trusted-deny");
        (json_deny || self.code == 2) && reason
    }
}

/// A Bricks hook file whose PreToolUse rule denies with exit 2.
fn deny(matcher: &str) -> String {
    serde_json::json!({"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [
        {"type": "command", "command": "echo trusted-deny >&2; exit 2"}
    ]}]}})
    .to_string()
}

/// A Copilot hook file with one preToolUse handler under `matcher`.
fn copilot_file(matcher: &str) -> String {
    serde_json::json!({"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": "echo untrusted-ran >&2; exit 0", "matcher": matcher}
    ]}})
    .to_string()
}

#[test]
fn a_70000_alternative_untrusted_matcher_beside_a_trusted_deny_still_denies() {
    let s = Setup::new();
    s.trusted_deny("bash");
    // 15 000 alternatives overflowed a 2 MiB matcher stack in a third of a second; 70 000
    // (480 KB) did too, nearer the old one-second time limit.
    for (name, n) in [("a", 15_000), ("b", 70_000)] {
        let alternatives: Vec<String> = (0..n).map(|i| format!("t{i}.")).collect();
        write(
            &s.project,
            &format!(".github/hooks/{name}.json"),
            &copilot_file(&alternatives.join("|")),
        );
    }
    let ran = s.claude_pre_tool_use("Bash");
    assert!(ran.denied_by_the_trusted_rule(), "{ran:?}");
}

#[test]
fn runaway_untrusted_matchers_do_not_change_the_trusted_outcome() {
    let s = Setup::new();
    // The trusted rule's matcher is a regex (not a plain list), answered in microseconds.
    s.trusted_deny("a+!");
    // An untrusted `~/.claude/settings.json` (hookx's to run under Copilot): three runaway
    // matchers spent the old three-second budget, and the fourth, the trusted rule's text
    // (read unanchored by Claude as by Bricks), was remembered as "not evaluated".
    let rules: Vec<serde_json::Value> = ["(a+)+$", "(a*)*$", "(a|a)*$", "a+!"]
        .iter()
        .map(|m| {
            serde_json::json!({"matcher": m, "hooks": [
                {"type": "command", "command": "echo untrusted-ran >&2"}
            ]})
        })
        .collect();
    write(
        &s.home,
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": rules}}).to_string(),
    );
    let payload = serde_json::json!({
        "sessionId": "s",
        "timestamp": 1_700_000_000_000u64,
        "cwd": s.project,
        "toolName": format!("{}!", "a".repeat(40)),
        "toolArgs": {},
    });
    let ran = s.run("copilot", "preToolUse", &payload);
    assert!(ran.denied_by_the_trusted_rule(), "{ran:?}");
    assert!(!ran.stderr.contains("untrusted-ran"), "{ran:?}");
}

#[cfg(unix)]
#[test]
fn a_project_symlink_to_a_trusted_file_does_not_change_how_it_is_read() {
    let s = Setup::new();
    let trusted = s.trusted_deny("bash");
    std::fs::create_dir_all(s.project.join(".github/hooks")).unwrap();
    std::os::unix::fs::symlink(&trusted, s.project.join(".github/hooks/x.json")).unwrap();
    let ran = s.claude_pre_tool_use("Bash");
    assert!(ran.denied_by_the_trusted_rule(), "{ran:?}");
}

#[cfg(unix)]
#[test]
fn a_claude_settings_symlink_to_a_trusted_file_does_not_hide_it() {
    let s = Setup::new();
    let trusted = s.trusted_deny("bash");
    std::fs::create_dir_all(s.project.join(".claude")).unwrap();
    std::os::unix::fs::symlink(&trusted, s.project.join(".claude/settings.local.json")).unwrap();
    let ran = s.claude_pre_tool_use("Bash");
    assert!(ran.denied_by_the_trusted_rule(), "{ran:?}");
}

#[cfg(unix)]
#[test]
fn trust_given_through_a_symlink_is_not_trust_of_the_file_where_it_lives() {
    let s = Setup::new();
    let real = write(&s.home, ".bricks-project-desktop/hooks.json", &deny("bash"));
    std::fs::create_dir_all(s.project.join(".github/hooks")).unwrap();
    let link = s.project.join(".github/hooks/x.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    // Trusted as the project's Copilot file: that is not trust of the user's Bricks file.
    s.trust(&link);
    let text = String::from_utf8(
        s.hookx(&["list", "--format", "json"], "")
            .success()
            .get_output()
            .stdout
            .clone(),
    )
    .unwrap();
    let rows: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert!(!rows.is_empty(), "{text}");
    for row in &rows {
        assert_eq!(row["dialect"], "copilot", "{text}");
        assert_eq!(row["trust"], "trusted", "{text}");
    }
    let record = std::fs::read_to_string(s.home.join(".hookx/trust.json")).unwrap();
    assert!(record.contains("\"copilot-project\""), "{record}");
}

#[test]
fn an_untrusted_disable_all_hooks_does_not_turn_off_trusted_hooks() {
    let s = Setup::new();
    // Under Bricks, hookx runs the user's Claude settings itself (once trusted).
    let settings = write(
        &s.home,
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo trusted-deny >&2; exit 2"}
        ]}]}})
        .to_string(),
    );
    s.trust(&settings);
    write(
        &s.project,
        ".claude/settings.local.json",
        r#"{"disableAllHooks": true}"#,
    );
    let payload = serde_json::json!({
        "session_id": "s",
        "cwd": s.project,
        "hook_event_name": "PreToolUse",
        "tool_name": "bash",
        "tool_input": {"command": "ls"},
    });
    let ran = s.run("bricks", "PreToolUse", &payload);
    assert!(ran.denied_by_the_trusted_rule(), "{ran:?}");
}

#[test]
fn an_untrusted_file_is_warned_about_once_per_content_whatever_it_holds() {
    let s = Setup::new();
    s.trusted_deny("bash");
    // Nothing in it would fire on this event: the warning does not depend on that.
    let file = write(&s.project, ".github/hooks/new.json", &copilot_file("edit"));
    let first = s.claude_pre_tool_use("Bash");
    assert!(first.denied_by_the_trusted_rule(), "{first:?}");
    assert!(
        first
            .stderr
            .contains(".github/hooks/new.json (not trusted)"),
        "{first:?}"
    );
    let second = s.claude_pre_tool_use("Bash");
    assert!(!second.stderr.contains("new.json"), "{second:?}");
    std::fs::write(&file, copilot_file("create")).unwrap();
    let third = s.claude_pre_tool_use("Bash");
    assert!(
        third
            .stderr
            .contains(".github/hooks/new.json (not trusted)"),
        "{third:?}"
    );
}

#[test]
fn a_file_that_is_not_json_beside_a_trusted_deny_is_not_parsed_on_the_run_path() {
    let s = Setup::new();
    s.trusted_deny("bash");
    write(&s.project, ".github/hooks/broken.json", "{ \"hooks\": ");
    let ran = s.claude_pre_tool_use("Bash");
    assert!(ran.denied_by_the_trusted_rule(), "{ran:?}");
    // Not parsed, so no parse error: only that it is not trusted.
    assert!(!ran.stderr.contains("expected"), "{ran:?}");
    assert!(ran.stderr.contains("broken.json (not trusted)"), "{ran:?}");
}

/// A version 1 record (real path and hash, no location) is read but not honoured: the file
/// shows as `legacy`, `run` says why it skips it, and `hookx trust` records it again.
#[test]
fn an_old_trust_record_is_kept_readable_but_not_honoured() {
    let s = Setup::new();
    let file = write(&s.home, ".bricks-project-desktop/hooks.json", &deny("bash"));
    let sha = hookx::hash::sha256_hex(&std::fs::read(&file).unwrap());
    let v1 = serde_json::json!({"version": 1, "files": {
        file.display().to_string(): {"sha256": sha, "trusted_at": "2026-01-01T00:00:00Z"}
    }});
    write(&s.home, ".hookx/trust.json", &v1.to_string());
    let list = |s: &Setup| -> String {
        let out = s.hookx(&["list", "--format", "json"], "").success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    assert!(list(&s).contains("\"trust\": \"legacy\""), "{}", list(&s));
    let ran = s.claude_pre_tool_use("Bash");
    assert!(!ran.denied_by_the_trusted_rule(), "{ran:?}");
    assert!(ran.stderr.contains("trusted by an older hookx"), "{ran:?}");
    s.trust(&file);
    assert!(list(&s).contains("\"trust\": \"trusted\""), "{}", list(&s));
    let record = std::fs::read_to_string(s.home.join(".hookx/trust.json")).unwrap();
    assert!(!record.contains("legacy"), "{record}");
    assert!(s.claude_pre_tool_use("Bash").denied_by_the_trusted_rule());
}

#[path = "../fuzz/harness.rs"]
mod harness;

mod mixed {
    use super::harness;
    use proptest::prelude::*;

    /// What an untrusted file holds: any bytes, or a hook file built to hurt (runaway, huge,
    /// invalid or greedy matchers, `disableAllHooks`, a copy of a trusted handler).
    fn content() -> impl Strategy<Value = Vec<u8>> {
        let matcher = prop_oneof![
            Just("(a+)+$".to_string()),
            Just(".*".repeat(20) + "Z"),
            Just(
                (0..2000)
                    .map(|i| format!("t{i}."))
                    .collect::<Vec<_>>()
                    .join("|")
            ),
            Just("(".to_string()),
            Just("*".to_string()),
            Just("bash".to_string()),
            Just("ba.h".to_string()),
            "[a-z.*+|()]{0,12}",
        ];
        let hostile = (matcher, any::<bool>(), any::<bool>()).prop_map(|(m, disable, pascal)| {
            let event = if pascal { "PreToolUse" } else { "preToolUse" };
            serde_json::json!({
                "version": 1,
                "disableAllHooks": disable,
                "hooks": {event: [
                    {"matcher": m, "hooks": [{"type": "command", "command": "exit 2"}]},
                    {"type": "command", "bash": "exit 3", "matcher": m}
                ]}
            })
            .to_string()
            .into_bytes()
        });
        let bytes = proptest::collection::vec(1u8..=255, 0..64);
        prop_oneof![hostile, bytes]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// The property of the `trust_mix` fuzz target, in `cargo test`.
        #[test]
        fn untrusted_files_never_change_the_trusted_outcome(
            files in proptest::collection::vec((1u8..=255, content()), 0..6)
        ) {
            let mut data = Vec::new();
            for (i, (head, content)) in files.iter().enumerate() {
                if i > 0 {
                    data.push(0);
                }
                data.push(*head);
                data.extend(content.iter().filter(|&&b| b != 0));
            }
            harness::trust_mix(&data);
        }
    }
}

/// Once warned about and settled, an unchanged untrusted file costs `hookx run` one `stat`:
/// no open, no read, and the per-file record of warnings (`warned.json`) is not read either
/// (`warned.sum` says the whole set is unchanged). Run under `strace`; skips when it is not
/// installed (a note says so), unless `HOOKX_STRACE=require`.
#[test]
fn an_unchanged_untrusted_file_costs_one_stat() {
    if std::process::Command::new("strace")
        .arg("-V")
        .output()
        .is_err()
    {
        assert!(
            std::env::var("HOOKX_STRACE").as_deref() != Ok("require"),
            "strace is not installed"
        );
        eprintln!("skip an_unchanged_untrusted_file_costs_one_stat: no strace");
        return;
    }
    let s = Setup::new();
    s.trusted_deny("bash");
    let files: Vec<PathBuf> = (0..50)
        .map(|i| {
            write(
                &s.project,
                &format!(".github/hooks/evil{i:02}.json"),
                &copilot_file("bash"),
            )
        })
        .collect();
    let first = s.claude_pre_tool_use("Bash");
    assert!(
        first.stderr.contains("evil49.json (not trusted)"),
        "{first:?}"
    );
    // Identities are relied on only once the files have settled; the next run records them.
    std::thread::sleep(hookx::cache::SETTLE + std::time::Duration::from_millis(200));
    let second = s.claude_pre_tool_use("Bash");
    assert!(!second.stderr.contains("evil"), "{second:?}");

    let trace = s.home.join("trace");
    let payload = serde_json::json!({
        "session_id": "s", "cwd": s.project, "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "ls"},
    });
    let out = std::process::Command::new("strace")
        .args(["-f", "-y", "-qq", "-e", "trace=%file,%desc", "-o"])
        .arg(&trace)
        .arg(env!("CARGO_BIN_EXE_hookx"))
        .args([
            "run",
            "--host",
            "claude",
            "--event",
            "PreToolUse",
            "--project",
        ])
        .arg(&s.project)
        .arg("--home")
        .arg(&s.home)
        .env_remove("HOOKX_HOME")
        .output_with_stdin(&payload.to_string())
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("evil"), "{stderr}");
    let text = std::fs::read_to_string(&trace).unwrap();
    for file in &files {
        let name = file.display().to_string();
        let calls: Vec<&str> = text.lines().filter(|l| l.contains(&name)).collect();
        assert!(
            calls.len() == 1 && calls[0].contains("stat"),
            "{name}: {calls:#?}"
        );
    }
    let record = s.home.join(".hookx/warned.json").display().to_string();
    assert!(!text.contains(&record), "warned.json was read:\n{text}");
    assert!(
        text.contains("warned.sum"),
        "the trace misses hookx's own files:\n{text}"
    );
}

/// More untrusted files than the record of warnings once held (4 096): each is still warned
/// about once, not on every event, and the record stays one entry per file.
#[test]
fn thousands_of_untrusted_files_are_each_warned_about_once() {
    let s = Setup::new();
    s.trusted_deny("bash");
    let n = 4_200;
    for i in 0..n {
        write(
            &s.project,
            &format!(".github/hooks/evil{i:04}.json"),
            &copilot_file("edit"),
        );
    }
    let warned = |ran: &Ran| ran.stderr.matches("(not trusted)").count();
    let first = s.claude_pre_tool_use("Bash");
    assert!(first.denied_by_the_trusted_rule(), "{}", first.stdout);
    assert_eq!(warned(&first), n);
    let second = s.claude_pre_tool_use("Bash");
    assert!(second.denied_by_the_trusted_rule(), "{}", second.stdout);
    assert_eq!(warned(&second), 0, "warned again on the second event");
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(s.home.join(".hookx/warned.json")).unwrap()).unwrap();
    assert_eq!(record["files"].as_object().unwrap().len(), n);
}

/// Row 327: the user's guard in `.claude/settings.local.json`, trusted and run by hookx under
/// Gemini. Claude Code's "Yes, and don't ask again" writes `permissions.allow` into the same
/// file (public issues anthropics/claude-code#21080, #29400): that keeps the guard trusted. A
/// change to a hook, alone or beside such a write, does not.
#[test]
fn claudes_own_permission_writes_keep_a_trusted_guard_while_a_hook_edit_does_not() {
    let setup = Setup::new();
    let guard = |command: &str| {
        serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": command}
        ]}]}})
    };
    let trusted = guard("echo trusted-deny >&2; exit 2");
    let file = write(
        &setup.project,
        ".claude/settings.local.json",
        &serde_json::to_string_pretty(&trusted).unwrap(),
    );
    setup.trust(&file);
    let gemini = || {
        setup.run(
            "gemini",
            "BeforeTool",
            &serde_json::json!({
                "session_id": "s",
                "transcript_path": "/dev/null",
                "cwd": setup.project,
                "hook_event_name": "BeforeTool",
                "timestamp": "2026-12-05T00:00:00Z",
                "tool_name": "run_shell_command",
                "tool_input": {"command": "ls"},
            }),
        )
    };
    assert!(gemini().denied_by_the_trusted_rule(), "{:?}", gemini());

    // As Claude Code writes it: the settings object with `permissions` added, two spaces.
    let with_permissions = |mut settings: serde_json::Value, allow: &[&str]| {
        settings["permissions"] = serde_json::json!({"allow": allow});
        serde_json::to_string_pretty(&settings).unwrap() + "\n"
    };
    std::fs::write(
        &file,
        with_permissions(trusted.clone(), &["Bash(npm test:*)"]),
    )
    .unwrap();
    let ran = gemini();
    assert!(ran.denied_by_the_trusted_rule(), "{ran:?}");
    assert!(!ran.stderr.contains("changed"), "{ran:?}");
    std::fs::write(
        &file,
        with_permissions(trusted.clone(), &["Bash(npm test:*)", "Bash(ls:*)"]),
    )
    .unwrap();
    assert!(gemini().denied_by_the_trusted_rule(), "{:?}", gemini());
    let listed = setup.hookx(&["trust", "--list"], "").success();
    let listed = String::from_utf8_lossy(&listed.get_output().stdout).into_owned();
    assert!(!listed.contains("changed"), "{listed}");

    // A hook edited: not run, and warned about.
    let edited = guard("echo edited-ran >&2; exit 2");
    std::fs::write(&file, serde_json::to_string_pretty(&edited).unwrap()).unwrap();
    let ran = gemini();
    assert!(!ran.stderr.contains("edited-ran"), "{ran:?}");
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stderr.contains("changed since it was trusted"),
        "{ran:?}"
    );

    // `permissions` and a hook edited together: not run either.
    std::fs::write(&file, with_permissions(edited, &["Bash(ls:*)"])).unwrap();
    let ran = gemini();
    assert!(!ran.stderr.contains("edited-ran"), "{ran:?}");
    assert_eq!(ran.code, 0, "{ran:?}");
}

/// Row 327's leftover (issue 23 item 5): a trusted file whose bytes changed by the agent's
/// own write (Codex's `[projects]` trust), still trusted by what hookx reads of it, then edited
/// by `hookx install --host codex` (its routes and their `[hooks.state]` review records): it
/// stays trusted. On `d79a14b` the install's re-record needed the trusted bytes exactly, and the
/// guard was "changed since trusted" from then on.
#[test]
fn a_file_trusted_past_an_agents_write_stays_trusted_when_install_edits_it() {
    let setup = Setup::new();
    let trusted = "model = \"gpt-5.5\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{ type = \"command\", command = \"echo trusted-deny >&2; exit 2\" }]\n";
    let file = write(&setup.home, ".codex/config.toml", trusted);
    setup.trust(&file);
    // A rule hookx runs under Codex, so that install writes routes into the same file.
    setup.trusted_deny("Bash");
    let projects = "\n[projects.\"/work/repo\"]\ntrust_level = \"trusted\"\n";
    std::fs::write(&file, format!("{trusted}{projects}")).unwrap();
    let before = std::fs::read_to_string(&file).unwrap();
    setup
        .hookx(&["install", "--host", "codex", "--scope", "user"], "")
        .success();
    let after = std::fs::read_to_string(&file).unwrap();
    assert_ne!(before, after, "install edits the file");
    assert!(after.contains("[hooks.state."), "{after}");
    let listed = setup.hookx(&["trust", "--list"], "").success();
    let listed = String::from_utf8_lossy(&listed.get_output().stdout).into_owned();
    assert!(!listed.contains("changed"), "{listed}");
    let ran = setup.run(
        "gemini",
        "BeforeTool",
        &serde_json::json!({
            "session_id": "s",
            "transcript_path": "/dev/null",
            "cwd": setup.project,
            "hook_event_name": "BeforeTool",
            "timestamp": "2026-12-05T00:00:00Z",
            "tool_name": "run_shell_command",
            "tool_input": {"command": "ls"},
        }),
    );
    assert!(ran.denied_by_the_trusted_rule(), "{ran:?}");
    assert!(!ran.stderr.contains("changed"), "{ran:?}");
}

/// Row 327 for Codex: the user's guard in `~/.codex/config.toml`, trusted and run by hookx
/// under Gemini; Codex writes its folder trust (`[projects."<path>"] trust_level`) and its
/// handler reviews (`[hooks.state]`) into the same file. That keeps the guard trusted; an
/// edited hook beside it does not.
#[test]
fn codexs_own_project_trust_writes_keep_a_trusted_guard_while_a_hook_edit_does_not() {
    let setup = Setup::new();
    let guard = |command: &str| {
        format!(
            "model = \"gpt-5.5\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{{ type = \"command\", command = \"{command}\" }}]\n"
        )
    };
    let trusted = guard("echo trusted-deny >&2; exit 2");
    let file = write(&setup.home, ".codex/config.toml", &trusted);
    setup.trust(&file);
    let gemini = || {
        setup.run(
            "gemini",
            "BeforeTool",
            &serde_json::json!({
                "session_id": "s",
                "transcript_path": "/dev/null",
                "cwd": setup.project,
                "hook_event_name": "BeforeTool",
                "timestamp": "2026-12-05T00:00:00Z",
                "tool_name": "run_shell_command",
                "tool_input": {"command": "ls"},
            }),
        )
    };
    assert!(gemini().denied_by_the_trusted_rule(), "{:?}", gemini());
    let projects = "\n[projects.\"/work/repo\"]\ntrust_level = \"trusted\"\n";
    std::fs::write(&file, format!("{trusted}{projects}")).unwrap();
    let ran = gemini();
    assert!(ran.denied_by_the_trusted_rule(), "{ran:?}");
    assert!(!ran.stderr.contains("changed"), "{ran:?}");

    // Codex's own review in `/hooks` (or its startup "Trust all and continue"): one
    // `[hooks.state."KEY"]` table per handler, `trusted_hash` and `enabled` (binary 0.171.0:
    // `hooks.state."`, `".trusted_hash`, `SetHookEnabled`, `TrustHook`; codex-facts "Trust").
    // Row 327's leftover: on `d79a14b` this dropped the guard's trust.
    let key = format!("{}:pre_tool_use:0:0", file.display());
    let state = format!(
        "\n[hooks.state.\"{key}\"]\ntrusted_hash = \"sha256:{}\"\nenabled = true\n",
        "0".repeat(64)
    );
    std::fs::write(&file, format!("{trusted}{projects}{state}")).unwrap();
    let ran = gemini();
    assert!(ran.denied_by_the_trusted_rule(), "{ran:?}");
    assert!(!ran.stderr.contains("changed"), "{ran:?}");

    let edited = guard("echo edited-ran >&2; exit 2");
    for also in ["", state.as_str()] {
        std::fs::write(&file, format!("{edited}{projects}{also}")).unwrap();
        let ran = gemini();
        assert!(!ran.stderr.contains("edited-ran"), "{ran:?}");
        assert!(
            ran.stderr.contains("changed since it was trusted"),
            "{ran:?}"
        );
    }
}

/// Row 1241 (row 327 for the other agents' own writes): the user's guard in an agent's own
/// settings file, trusted and run by hookx under Claude; the agent writes a setting of its own
/// into that file, as each was seen or read writing it. Gemini CLI 0.61.0's `mcp add --scope
/// user` wrote the whole file again (comments kept, every object on its own lines) with
/// `mcpServers`; Qwen Code 0.24.4's `mcp add` `mcpServers`, its "Always allow"
/// `permissions.allow`; Codex 0.171.0's `mcp add` `[mcp_servers.NAME]`; Copilot CLI 1.0.102's
/// `copilot config model` `model` (row 1249); Claude Code's `/model` `model`. Each kept the guard trusted; a hook edited beside it does not. (Before, each write
/// made the guard "changed since it was trusted": it ran nowhere hookx runs it until the user
/// trusted the file again.)
#[test]
fn an_agents_own_settings_writes_keep_a_trusted_guard_while_a_hook_edit_does_not() {
    let guard = |command: &str| {
        format!(
            r#"{{"matcher": "run_shell_command|Bash", "hooks": [{{"type": "command", "command": "{command}"}}]}}"#
        )
    };
    // (file, its text holding `{guard}`, the text after the agent's write, the event key)
    let gemini_after = r#"{
  // my settings
  "security": {
    "auth": {
      "selectedType": "gemini-api-key"
    }
  },
  "hooks": {
    "BeforeTool": [
      {
        "matcher": "run_shell_command|Bash",
        "hooks": [
          {
            "type": "command",
            "command": "{command}"
          }
        ]
      }
    ]
  },
  "mcpServers": {
    "myserver": {
      "command": "echo",
      "args": [
        "hi"
      ]
    }
  }
}"#;
    let copilot = |command_json: &str| {
        format!(
            "{{\n  \"hooks\": {{\"preToolUse\": [{{\"type\": \"command\", \"bash\": {command_json}, \"matcher\": \"bash\"}}]}}\n}}\n"
        )
    };
    let cases: [(&str, String, String); 6] = [
        (
            ".gemini/settings.json",
            "{\n  // my settings\n  \"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}},\n  \"hooks\": {\n    \"BeforeTool\": [\n      {guard}\n    ]\n  }\n}\n".into(),
            gemini_after.into(),
        ),
        (
            ".qwen/settings.json",
            "{\n  \"hooks\": {\"PreToolUse\": [{guard}]},\n  \"$version\": 4\n}\n".into(),
            "{\n  \"hooks\": {\"PreToolUse\": [{guard}]},\n  \"$version\": 4,\n  \"mcpServers\": {\n    \"myserver\": {\n      \"command\": \"echo\",\n      \"args\": [\n        \"hi\"\n      ]\n    }\n  },\n  \"permissions\": {\"allow\": [\"Bash(npm test:*)\"]}\n}".into(),
        ),
        (
            ".codex/config.toml",
            "# my config\nmodel = \"o3\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{ type = \"command\", command = \"{command}\" }]\n".into(),
            "# my config\nmodel = \"o3\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{ type = \"command\", command = \"{command}\" }]\n\n[mcp_servers.myserver]\ncommand = \"echo\"\nargs = [\"hi\"]\n".into(),
        ),
        // Gemini CLI 0.61.0's settings migration at start (row 1506, run: `gemini mcp list`):
        // switches turned round, `tools.approvalMode` and `experimental.plan` moved into
        // `general`, which it creates, and the tables left empty.
        (
            ".gemini/settings.json",
            "{\"tools\": {\"approvalMode\": \"default\"}, \"hooks\": {\"BeforeTool\": [{guard}]}, \"experimental\": {\"plan\": true}, \"context\": {\"fileFiltering\": {\"disableFuzzySearch\": true}}}".into(),
            "{\"tools\": {}, \"hooks\": {\"BeforeTool\": [{guard}]}, \"experimental\": {}, \"context\": {\"fileFiltering\": {\"enableFuzzySearch\": false}}, \"general\": {\"defaultApprovalMode\": \"default\", \"plan\": {\"enabled\": true}}, \"agents\": {\"overrides\": {}}}".into(),
        ),
        // As Copilot CLI 1.0.102's `copilot config model gpt-4.1` wrote it (run).
        (
            ".copilot/settings.json",
            copilot("{command_json}"),
            "{\n  \"hooks\": {\n    \"preToolUse\": [\n      {\n        \"type\": \"command\",\n        \"bash\": {command_json},\n        \"matcher\": \"bash\"\n      }\n    ]\n  },\n  \"model\": \"gpt-4.1\"\n}".into(),
        ),
        (
            ".claude/settings.json",
            "{\"hooks\": {\"PreToolUse\": [{guard}]}}".into(),
            "{\n  \"hooks\": {\"PreToolUse\": [{guard}]},\n  \"model\": \"opus\"\n}\n".into(),
        ),
    ];
    for (file, trusted, written) in cases {
        let setup = Setup::new();
        // Copilot's answer is its JSON on stdout; the others' `exit 2`, the reason on stderr.
        let text = |t: &str, command: &str| {
            let reason = command.split(' ').nth(1).unwrap_or_default();
            let json =
                format!(r#"{{"permissionDecision":"deny","permissionDecisionReason":"{reason}"}}"#);
            t.replace("{guard}", &guard(command))
                .replace("{command}", command)
                .replace(
                    "{command_json}",
                    &serde_json::to_string(&format!("echo '{json}'")).unwrap(),
                )
        };
        let deny = "echo trusted-deny >&2; exit 2";
        let path = write(&setup.home, file, &text(&trusted, deny));
        setup.trust(&path);
        // A host hookx runs the file's rules under: Gemini for Claude's file, else Claude.
        let claude = || {
            let (host, event, tool) = match file.starts_with(".claude") {
                true => ("gemini", "BeforeTool", "run_shell_command"),
                false => ("claude", "PreToolUse", "Bash"),
            };
            setup.run(
                host,
                event,
                &serde_json::json!({
                    "session_id": "s",
                    "transcript_path": "/dev/null",
                    "cwd": setup.project,
                    "hook_event_name": event,
                    "timestamp": "2026-12-05T00:00:00Z",
                    "tool_name": tool,
                    "tool_input": {"command": "ls"},
                }),
            )
        };
        assert!(
            claude().denied_by_the_trusted_rule(),
            "{file}: {:?}",
            claude()
        );
        std::fs::write(&path, text(&written, deny)).unwrap();
        let ran = claude();
        assert!(
            ran.denied_by_the_trusted_rule() && !ran.stderr.contains("changed"),
            "{file}: the agent's own write must keep the guard trusted: {ran:?}"
        );
        // A hook edited beside the agent's write: not run, and said.
        std::fs::write(&path, text(&written, "echo edited-ran >&2; exit 2")).unwrap();
        let ran = claude();
        assert!(
            !ran.stderr.contains("edited-ran")
                && ran.stderr.contains("changed since it was trusted"),
            "{file}: {ran:?}"
        );
    }
}
