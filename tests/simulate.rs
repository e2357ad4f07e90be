//! `hookx simulate` and `hookx validate` as CI steps: did-you-mean, the exit code of the
//! decision and `--expect`, handlers the host runs itself, JSON output, `--deny-warnings`, and
//! validating what `list` finds.

mod common;

use common::OutputWithStdin as _;
use common::call_args;
use serde_json::Value;
use std::path::Path;

const DENY: &str = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no\"}}'"}]}]}}"#;

fn simulate(project: &Path, args: &[&str]) -> std::process::Output {
    common::hookx()
        .arg("simulate")
        .args(args)
        .arg("--project")
        .arg(project)
        .arg("--home")
        .arg(project)
        .env("HOME", project)
        .env_remove("HOOKX_HOME")
        .output()
        .unwrap()
}

/// `hookx ARGS… --project ROOT --home HOME` run in `root`, with `HOME` at `home` and no
/// `HOOKX_HOME`.
fn hookx_in(root: &Path, home: &Path, args: &[&str]) -> std::process::Output {
    common::hookx()
        .args(args)
        .arg("--project")
        .arg(root)
        .arg("--home")
        .arg(home)
        .current_dir(root)
        .env("HOME", home)
        .env_remove("HOOKX_HOME")
        .output()
        .unwrap()
}

/// The input of a shell call most tests simulate.
const LS: &str = r#"{"command":"ls"}"#;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn unknown_events_and_tools_get_a_did_you_mean() {
    let dir = tempfile::tempdir().unwrap();
    let out = simulate(dir.path(), &["--host", "copilot", "--event", "preToolUs"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean `preToolUse`?"),
        "{}",
        text(&out.stderr)
    );
    let out = simulate(
        dir.path(),
        &["--host", "claude", "--event", "PreToolUse", "--tool", "Bsh"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("did you mean `Bash`?"),
        "{}",
        text(&out.stderr)
    );
    // MCP and unknown tools with no close name are sent as given.
    let out = simulate(
        dir.path(),
        &[
            "--host",
            "claude",
            "--event",
            "PreToolUse",
            "--tool",
            "mcp__x__y",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// Claude runs its own settings itself: simulate shows the handler, and the deny it answers is
/// the decision and a non-zero exit; `--expect deny` passes; the JSON report embeds the
/// handler's stdout as JSON.
#[test]
fn native_handlers_decide_and_the_exit_code_says_so() {
    let dir = tempfile::tempdir().unwrap();
    common::write(dir.path(), ".claude/settings.json", DENY);
    let args = call_args("claude", "PreToolUse", "Bash", LS, &[]);
    let out = simulate(dir.path(), &args);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{stdout}");
    assert!(stdout.contains("run by claude itself"), "{stdout}");
    assert!(stdout.contains("decision: deny"), "{stdout}");
    let mut expect = args.to_vec();
    expect.extend(["--expect", "deny"]);
    assert_eq!(simulate(dir.path(), &expect).status.code(), Some(0));
    expect.pop();
    expect.push("allow");
    let out = simulate(dir.path(), &expect);
    assert_eq!(out.status.code(), Some(4));
    assert!(
        text(&out.stderr).contains("expected allow, the decision is deny"),
        "{}",
        text(&out.stderr)
    );
    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let out = simulate(dir.path(), &json_args);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["decision"], "deny");
    let run = &report["native"]["runs"][0];
    assert_eq!(
        run["stdout"]["hookSpecificOutput"]["permissionDecision"], "deny",
        "{report:#}"
    );
}

#[test]
fn validate_deny_warnings_and_validate_what_list_finds() {
    let dir = tempfile::tempdir().unwrap();
    // A warning only: a timeout that looks like milliseconds.
    let warned =
        r#"{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"true","timeout":5000}]}]}}"#;
    let path = common::write(dir.path(), ".claude/settings.json", warned);
    let validate = |args: &[&str]| {
        common::hookx()
            .arg("validate")
            .args(args)
            .env("HOME", dir.path())
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap()
    };
    let file = path.to_str().unwrap();
    assert_eq!(validate(&[file]).status.code(), Some(0));
    let out = validate(&[file, "--deny-warnings"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    // No file: what `hookx list` finds under the project.
    let project = dir.path().to_str().unwrap();
    let out = validate(&["--project", project, "--home", project, "--deny-warnings"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("settings.json"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stdout).contains("in 1 file(s)"),
        "{}",
        text(&out.stdout)
    );
}

/// `simulate` with these variables, the others that trust a folder removed, the home
/// `PROJECT/home` and the policy root `PROJECT/machine`.
fn simulate_with(project: &Path, args: &[&str], vars: &[(&str, &str)]) -> std::process::Output {
    let home = project.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut cmd = common::hookx();
    cmd.arg("simulate")
        .args(args)
        .arg("--project")
        .arg(project)
        .arg("--home")
        .arg(&home)
        .arg("--managed-root")
        .arg(project.join("machine"))
        .env("HOME", &home)
        .env_remove("HOOKX_HOME")
        .env_remove("CODEX_HOME");
    for var in [
        "COPILOT_ALLOW_ALL",
        "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS",
        "GEMINI_CLI_TRUST_WORKSPACE",
    ] {
        cmd.env_remove(var);
    }
    for (name, value) in vars {
        cmd.env(name, value);
    }
    cmd.output().unwrap()
}

/// A PreToolUse deny on Bash-like tools, in each agent's own file and answer.
const CODEX_DENY: &str = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo no >&2; exit 2"}]}]}}"#;
const COPILOT_DENY: &str = r#"{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"echo '{\"permissionDecision\":\"deny\",\"permissionDecisionReason\":\"no\"}'"}]}}"#;
const GEMINI_DENY: &str = r#"{"hooks":{"BeforeTool":[{"matcher":"run_shell_command","hooks":[{"type":"command","command":"echo no >&2; exit 2"}]}]}}"#;

/// Each agent's own gates decide what it runs: Codex's folder trust and review records,
/// Copilot's and Gemini CLI's folder trust (their record, or the variable that trusts), Claude
/// Code's managed-only policy and kill switch. What they hold back is not run, and said; a
/// CI step `--expect deny` fails for a hook the agent would ignore.
#[test]
fn each_agents_own_gates_hold_back_what_it_would_not_run() {
    let expect_deny = |dir: &Path, host: &str, tool: &str, vars: &[(&str, &str)]| {
        let out = simulate_with(
            dir,
            &call_args(
                host,
                "PreToolUse",
                tool,
                r#"{"command":"rm -rf /"}"#,
                &["--expect", "deny"],
            ),
            vars,
        );
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };

    // Codex: the project's `.codex/` only in a trusted folder, each handler only once reviewed.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::write(&root, ".codex/hooks.json", CODEX_DENY);
    let (code, out, err) = expect_deny(&root, "codex", "Bash", &[]);
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(
        out.contains("not run by codex") && out.contains("trusted folder"),
        "{out}"
    );
    assert!(out.contains("decision: allow"), "{out}");
    common::write(
        &root,
        "home/.codex/config.toml",
        &format!(
            "[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
            root.display()
        ),
    );
    let (code, out, err) = expect_deny(&root, "codex", "Bash", &[]);
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(
        out.contains("runs only handlers its user reviewed"),
        "{out}"
    );

    // Copilot: the project's hooks only in a trusted folder.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::write(&root, ".github/hooks/h.json", COPILOT_DENY);
    let (code, out, err) = expect_deny(&root, "copilot", "bash", &[]);
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(
        out.contains("not run by copilot") && out.contains("trusted folder"),
        "{out}"
    );
    let trusting = [("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true")];
    let (code, out, err) = expect_deny(&root, "copilot", "bash", &trusting);
    assert_eq!(code, Some(0), "{out}{err}");
    common::write(
        &root,
        "home/.copilot/config.json",
        &serde_json::json!({"trusted_folders": [root]}).to_string(),
    );
    let (code, out, err) = expect_deny(&root, "copilot", "bash", &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    // A repository's kill switch, in a trusted folder (run 1.0.102, copilot-facts.md).
    common::write(
        &root,
        ".github/copilot/settings.json",
        r#"{"disableAllHooks": true}"#,
    );
    let (code, out, err) = expect_deny(&root, "copilot", "bash", &[]);
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(
        out.contains("\"disableAllHooks\": true in .github/copilot/settings.json turns off every hook Copilot runs"),
        "{out}"
    );

    // Gemini CLI: likewise.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::write(&root, ".gemini/settings.json", GEMINI_DENY);
    let (code, out, err) = expect_deny(&root, "gemini", "run_shell_command", &[]);
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(
        out.contains("not run by gemini") && out.contains("trusted folder"),
        "{out}"
    );
    let trusting = [("GEMINI_CLI_TRUST_WORKSPACE", "true")];
    let (code, out, err) = expect_deny(&root, "gemini", "run_shell_command", &trusting);
    assert_eq!(code, Some(0), "{out}{err}");

    // Claude Code: a policy that allows only policy hooks, and the kill switch.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::write(&root, ".claude/settings.json", DENY);
    let (code, out, err) = expect_deny(&root, "claude", "Bash", &[]);
    assert_eq!(code, Some(0), "{out}{err}");
    common::write(
        &root,
        "machine/etc/claude-code/managed-settings.json",
        r#"{"allowManagedHooksOnly": true}"#,
    );
    let (code, out, err) = expect_deny(&root, "claude", "Bash", &[]);
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(out.contains("only policy hooks"), "{out}");
    std::fs::remove_dir_all(root.join("machine")).unwrap();
    common::write(
        &root,
        ".claude/settings.local.json",
        r#"{"disableAllHooks": true}"#,
    );
    let (code, out, err) = expect_deny(&root, "claude", "Bash", &[]);
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(out.contains("turns its hooks off"), "{out}");
}

/// `--dry-run` runs no handler and says which would run, with what; without it the report
/// says the handlers ran for real.
#[test]
fn dry_run_runs_nothing_and_a_real_run_says_it_ran() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::write(
        &root,
        ".claude/settings.json",
        r#"{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"touch logged"}]}]}}"#,
    );
    let args = [
        "--host",
        "claude",
        "--event",
        "UserPromptSubmit",
        "--field",
        "prompt=hi",
    ];
    let mut dry = args.to_vec();
    dry.push("--dry-run");
    let out = simulate_with(&root, &dry, &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(!root.join("logged").exists(), "{stdout}");
    assert!(
        stdout.contains("would run (--dry-run: not run)"),
        "{stdout}"
    );
    assert!(stdout.contains("touch logged"), "{stdout}");
    assert!(
        stdout.contains("--dry-run: ran none of the 1 handlers"),
        "{stdout}"
    );
    let out = simulate_with(&root, &args, &[]);
    let stdout = text(&out.stdout);
    assert!(root.join("logged").exists(), "{stdout}");
    assert!(stdout.contains("ran 1 handler for real"), "{stdout}");
}

/// Through hookx runs only what a host's route brings to hookx: no route, nothing, and why.
#[test]
fn nothing_runs_through_hookx_where_the_host_has_no_route() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::write(&root, ".github/hooks/h.json", COPILOT_DENY);
    let home = root.join("home");
    std::fs::create_dir_all(&home).unwrap();
    let hookx = |args: &[&str]| hookx_in(&root, &home, args);
    let args = call_args("claude", "PreToolUse", "Bash", LS, &["--expect", "deny"]);
    // Untrusted, the file is named once as skipped, and why.
    let out = simulate_with(&root, &args, &[]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("skipped: .github/hooks/h.json (not trusted)"),
        "{stdout}"
    );
    assert!(!stdout.contains("skipped: skipped"), "{stdout}");
    assert!(hookx(&["trust", "--yes"]).status.success());
    let out = simulate_with(&root, &args, &[]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{stdout}");
    assert!(stdout.contains("not run through hookx"), "{stdout}");
    assert!(stdout.contains("has no hookx route"), "{stdout}");
    assert!(
        hookx(&["install", "--host", "claude", "--hookx", "hookx"])
            .status
            .success()
    );
    let out = simulate_with(&root, &args, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

/// Attacks row 334: row 332 for simulate: hookx's Gemini route turned off in Gemini's own list
/// (`hooksConfig.disabled`, here the workspace's, where Gemini's `/hooks disable` writes it):
/// Gemini never calls hookx for the event, and simulate ran the routed guard through hookx and
/// answered its deny (`--expect deny` passed for a guard that runs nowhere under Gemini).
#[test]
fn nothing_runs_through_hookx_where_the_host_turned_its_route_off() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let home = root.join("home");
    common::write(
        &home,
        ".claude/settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo no >&2; exit 2"}]}]}}"#,
    );
    let hookx = |args: &[&str]| {
        common::hookx()
            .args(args)
            .arg("--project")
            .arg(&root)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap()
    };
    assert!(
        hookx(&[
            "trust",
            "--yes",
            home.join(".claude/settings.json").to_str().unwrap()
        ])
        .status
        .success()
    );
    assert!(
        hookx(&[
            "install", "--host", "gemini", "--scope", "user", "--hookx", "hookx"
        ])
        .status
        .success()
    );
    let args = call_args(
        "gemini",
        "BeforeTool",
        "run_shell_command",
        LS,
        &["--expect", "deny"],
    );
    let out = simulate_with(&root, &args, &[("GEMINI_CLI_TRUST_WORKSPACE", "true")]);
    assert_eq!(out.status.code(), Some(0), "routed: {}", text(&out.stdout));
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(home.join(".gemini/settings.json")).unwrap())
            .unwrap();
    let line = settings["hooks"]["BeforeTool"][0]["hooks"][0]["command"].clone();
    common::write(
        &root,
        ".gemini/settings.json",
        &serde_json::json!({"hooksConfig": {"disabled": [line]}}).to_string(),
    );
    let out = simulate_with(&root, &args, &[("GEMINI_CLI_TRUST_WORKSPACE", "true")]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{stdout}");
    assert!(stdout.contains("not run through hookx"), "{stdout}");
}

/// A Codex handler without `type` in the user's `~/.codex/hooks.json` (attacks row 177):
/// Codex 0.171.0 refuses that whole file and runs none of it (row 175, live). simulate ran the
/// handler for real as Codex's (its review records cover only typed handlers, so nothing held
/// it back), with its side effects, and said Codex runs it. Now it is held back, saying why.
#[test]
fn a_codex_file_codex_refuses_whole_runs_nothing_in_simulate() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let ran = root.join("ran");
    common::write(
        &root,
        "home/.codex/hooks.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"command": format!("touch {}", ran.display())},
            {"type": "command", "command": "echo no >&2; exit 2"}]}]}})
        .to_string(),
    );
    let out = simulate_with(
        &root,
        &call_args("codex", "PreToolUse", "Bash", LS, &[]),
        &[],
    );
    let out = text(&out.stdout);
    assert!(!ran.exists(), "the refused file's handler ran:\n{out}");
    assert!(
        out.contains("not run by codex") && out.contains("refuses the whole file"),
        "{out}"
    );
}

/// Copilot CLI 1.0.102 does not load an entry of its own files whose `timeoutSec` is no number
/// of seconds above 0 (`0`, `-1`, `"5"`, `null`, `true`; live, `live_copilot::own_file_timeouts`)
/// and runs the rest. doctor and validate said so; simulate ran such an entry for real as
/// Copilot's, and `list`'s plan said Copilot runs it. Now both say Copilot does not load it.
#[test]
fn a_copilot_entry_with_a_timeout_copilot_refuses_is_not_run_in_simulate_or_list() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    // The entry's name leads its command: list shortens a command to its first characters,
    // and a long temporary folder (`TMPDIR`) would leave only the folder's path.
    let entry = |name: &str, timeout: Value| serde_json::json!({"type": "command", "bash": format!(": {name}; touch {}", root.join(name).display()), "timeoutSec": timeout});
    let refused = [
        ("zero", serde_json::json!(0)),
        ("minus", serde_json::json!(-1)),
        ("text", serde_json::json!("5")),
        ("null", Value::Null),
        ("true", serde_json::json!(true)),
    ];
    let mut entries: Vec<Value> = refused.iter().map(|(n, t)| entry(n, t.clone())).collect();
    entries.push(entry("half", serde_json::json!(1.5)));
    common::write(
        &root,
        ".github/hooks/team.json",
        &serde_json::json!({"version": 1, "hooks": {"preToolUse": entries}}).to_string(),
    );
    let out = simulate_with(
        &root,
        &call_args("copilot", "preToolUse", "bash", LS, &[]),
        &[("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true")],
    );
    let out = text(&out.stdout);
    assert!(
        root.join("half").exists(),
        "the loaded entry did not run:\n{out}"
    );
    for (name, _) in &refused {
        assert!(!root.join(name).exists(), "{name} ran:\n{out}");
    }
    assert_eq!(
        out.matches("not run by copilot: Copilot does not load this entry")
            .count(),
        refused.len(),
        "{out}"
    );
    let list = common::hookx()
        .args(["list", "--host", "copilot", "--project"])
        .arg(&root)
        .arg("--home")
        .arg(root.join("home"))
        .env("HOME", root.join("home"))
        // Copilot loads the repository's hooks in this mode, as in the simulate above: list's
        // plan says so since `426af810` (an untrusted folder's file runs nowhere).
        .env("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true")
        .env_remove("HOOKX_HOME")
        .output()
        .unwrap();
    let list = text(&list.stdout);
    let plan: Vec<&str> = list
        .lines()
        .skip_while(|l| !l.starts_with("plan"))
        .collect();
    for (name, _) in &refused {
        let line = plan
            .iter()
            .find(|l| l.contains(&format!(": {name};")))
            .unwrap_or_else(|| panic!("no plan line for {name}:\n{list}"));
        assert!(
            line.contains("nobody (Copilot does not load this entry of .github/hooks/team.json"),
            "{line}\n{list}"
        );
    }
    let half = plan.iter().find(|l| l.contains(": half;")).unwrap();
    assert!(
        half.contains("copilot runs .github/hooks/team.json"),
        "{list}"
    );
}

/// A home whose Claude files live in `home/claude-work`, as `CLAUDE_CONFIG_DIR` says (rows 366,
/// 367).
struct ConfigDirHome {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    home: std::path::PathBuf,
    work: std::path::PathBuf,
}

impl ConfigDirHome {
    fn new() -> ConfigDirHome {
        let _dir = tempfile::tempdir().unwrap();
        let root = _dir.path().canonicalize().unwrap();
        let home = root.join("home");
        let work = home.join("claude-work");
        ConfigDirHome {
            _dir,
            root,
            home,
            work,
        }
    }
}

/// `hookx ARGS… --project ROOT` with `CLAUDE_CONFIG_DIR` set to `work`.
fn config_dir_hookx(root: &Path, home: &Path, work: &Path, args: &[&str]) -> std::process::Output {
    common::hookx()
        .args(args)
        .arg("--project")
        .arg(root)
        .env("HOME", home)
        .env("CLAUDE_CONFIG_DIR", work)
        .env_remove("HOOKX_HOME")
        .output()
        .unwrap()
}

/// Attacks row 366: row 220's leftover in simulate. The user's Claude guard where
/// `CLAUDE_CONFIG_DIR` says (Claude reads it there), hookx routed for Gemini: `hookx run`
/// reads no variable a project could set, so under Gemini it reads `~/.claude/settings.json`
/// and never this guard (doctor says so, `9e5f804`); simulate ran it through hookx and
/// `--expect deny` passed for a deny Gemini never gets.
#[test]
fn a_guard_below_claude_config_dir_runs_through_hookx_in_simulate_as_in_run() {
    let h = ConfigDirHome::new();
    let (root, home, work) = (&h.root, &h.home, &h.work);
    common::write(
        work,
        "settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo no >&2; exit 2"}]}]}}"#,
    );
    common::write(home, ".gemini/settings.json", "{}");
    let hookx = |args: &[&str]| config_dir_hookx(root, home, work, args);
    let trusted = hookx(&[
        "trust",
        "--yes",
        work.join("settings.json").to_str().unwrap(),
    ]);
    assert!(trusted.status.success());
    let installed = hookx(&[
        "install", "--host", "gemini", "--scope", "user", "--hookx", "hookx",
    ]);
    assert!(installed.status.success());
    let args = call_args(
        "gemini",
        "BeforeTool",
        "run_shell_command",
        LS,
        &["--expect", "deny"],
    );
    let work_dir = work.to_str().unwrap();
    let out = simulate_with(
        root,
        &args,
        &[
            ("GEMINI_CLI_TRUST_WORKSPACE", "true"),
            ("CLAUDE_CONFIG_DIR", work_dir),
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{stdout}");
    assert!(stdout.contains("CLAUDE_CONFIG_DIR"), "{stdout}");
}

/// Row 366's leftover: `list --host gemini` said `RUN hookx` for that guard, which `hookx run`
/// under Gemini never reads. It says nobody runs it, as doctor and simulate do.
#[test]
fn list_says_nobody_runs_a_guard_below_claude_config_dir_under_another_host() {
    let h = ConfigDirHome::new();
    let (root, home, work) = (&h.root, &h.home, &h.work);
    common::write(
        work,
        "settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo no >&2; exit 2"}]}]}}"#,
    );
    let hookx = |args: &[&str]| config_dir_hookx(root, home, work, args);
    let trusted = hookx(&[
        "trust",
        "--yes",
        work.join("settings.json").to_str().unwrap(),
    ]);
    assert!(trusted.status.success());
    let listed = |host: &str| -> Vec<serde_json::Value> {
        let out = hookx(&["list", "--host", host, "--format", "json"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        json.as_array().unwrap().clone()
    };
    let gemini = listed("gemini");
    assert_eq!(gemini.len(), 1, "{gemini:?}");
    assert_eq!(gemini[0]["run"], "nobody", "{gemini:?}");
    // Claude reads it there itself.
    let claude = listed("claude");
    assert_eq!(claude[0]["run"], "native", "{claude:?}");
}

/// Attacks row 367: the way out doctor gives for row 220 ("keep them in ~/.claude/settings.json
/// too, for hookx to run them under other agents") led nowhere: with `CLAUDE_CONFIG_DIR` set in
/// the user's shell, `hookx trust ~/.claude/settings.json` refused the file ("not a hook file of
/// this project or home"), and `hookx run` under Gemini skipped it as untrusted: the guard ran
/// nowhere there.
#[test]
fn the_users_claude_file_below_the_home_can_be_trusted_with_claude_config_dir_set() {
    let h = ConfigDirHome::new();
    let (root, home, work) = (&h.root, &h.home, &h.work);
    let guard = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo no >&2; exit 2"}]}]}}"#;
    common::write(work, "settings.json", guard);
    common::write(home, ".claude/settings.json", guard);
    common::write(home, ".gemini/settings.json", "{}");
    let hookx = |args: &[&str]| config_dir_hookx(root, home, work, args);
    let below_home = home.join(".claude/settings.json");
    let trusted = hookx(&["trust", "--yes", below_home.to_str().unwrap()]);
    assert!(trusted.status.success(), "{}", text(&trusted.stderr));
    let installed = hookx(&[
        "install", "--host", "gemini", "--scope", "user", "--hookx", "hookx",
    ]);
    assert!(installed.status.success());
    let payload = serde_json::json!({"session_id": "s", "cwd": root, "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command", "tool_input": {"command": "ls"}});
    let out = common::hookx()
        .args(["run", "--host", "gemini", "--event", "BeforeTool", "--home"])
        .arg(home)
        .current_dir(root)
        .env("HOME", home)
        .env("CLAUDE_CONFIG_DIR", work)
        .env_remove("HOOKX_HOME")
        .write_stdin(payload.to_string())
        .output()
        .unwrap();
    assert!(text(&out.stdout).contains("deny"), "{}", text(&out.stderr));
}

/// Attacks row 441: simulate's "native:" lines (what the host runs itself) listed a handler of
/// `.codex/hooks.json` Codex never reviewed (a copy `convert --write` made), or one the user
/// turned off in Codex's `/hooks`, as run by Codex, while its own "run by codex itself" part
/// said it skipped them: Codex runs only the handlers its user reviewed and left on
/// (codex-facts, run 0.171.0).
#[test]
fn simulate_lists_no_codex_handler_codex_skips_as_run_natively() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    let handler = |command: &str| serde_json::json!({"matcher": "Bash", "hooks": [{"type": "command", "command": command}]});
    common::write(
        &project,
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [handler("echo guard")]}}).to_string(),
    );
    let trusted = format!(
        "[projects.{:?}]\ntrust_level = \"trusted\"\n",
        project.display().to_string()
    );
    common::write(&home, ".codex/config.toml", &trusted);
    let hookx = |args: &[&str]| {
        common::hookx()
            .args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap()
    };
    hookx(&["trust", ".claude/settings.json"]);
    let bin = env!("CARGO_BIN_EXE_hookx");
    let out = hookx(&[
        "convert",
        ".claude/settings.json",
        "--to",
        "codex",
        "--write",
        "--hookx",
        bin,
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let path = project.join(".codex/hooks.json");
    let mut hooks: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let groups = hooks["hooks"]["PreToolUse"].as_array_mut().unwrap();
    groups.push(handler("echo reviewed"));
    groups.push(handler("echo switched-off"));
    std::fs::write(&path, hooks.to_string()).unwrap();
    let mut config = trusted;
    let records = hookx::dialect::codex::trust::records(&path, &hooks, &|h| {
        h["command"].as_str().is_some_and(|c| !c.contains("hookx"))
    });
    assert_eq!(records.len(), 2);
    for (key, hash) in &records {
        config.push_str(&format!(
            "\n[hooks.state.{key:?}]\ntrusted_hash = {hash:?}\n"
        ));
        if key.ends_with(":2:0") {
            config.push_str("enabled = false\n");
        }
    }
    common::write(&home, ".codex/config.toml", &config);
    let out = hookx(
        &[
            &["simulate"][..],
            &call_args("codex", "PreToolUse", "Bash", LS, &["--dry-run"]),
        ]
        .concat(),
    );
    let said = text(&out.stdout);
    let native = |what: &str| {
        said.lines()
            .any(|l| l.starts_with("native: codex runs") && l.contains(what))
    };
    assert!(native("(echo reviewed)"), "{said}");
    assert!(!native("(echo switched-off)"), "{said}");
    assert!(!native("hookx exec --host codex --as claude"), "{said}");
}

/// Attacks row 486: simulate's part "run by gemini itself" ran the handlers Gemini's own list
/// turns off (`hooksConfig.disabled`, by `name`, else command; Gemini 0.61.0, gemini-facts):
/// they are held back with why, and the one not listed runs.
#[test]
fn simulate_runs_no_gemini_handler_gemini_lists_off() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&project).unwrap();
    common::write(
        &home,
        ".gemini/settings.json",
        &gemini_file_listing_two_handlers_off(),
    );
    let out = common::hookx()
        .args(["simulate", "--host", "gemini", "--event", "BeforeTool"])
        .args(["--tool", "run_shell_command", "--dry-run"])
        .current_dir(&project)
        .env("HOME", &home)
        .env_remove("HOOKX_HOME")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("command: echo not-listed"), "{text}");
    assert!(!text.contains("command: echo listed-by"), "{text}");
    assert!(
        text.contains("not run by gemini: it is turned off in `hooksConfig.disabled`"),
        "{text}"
    );
}

/// A Gemini file of three handlers whose `hooksConfig.disabled` lists two off, one by its
/// command and one by its name.
fn gemini_file_listing_two_handlers_off() -> String {
    serde_json::json!({
        "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "echo listed-by-command"},
            {"type": "command", "command": "echo listed-by-name", "name": "n"},
            {"type": "command", "command": "echo not-listed"}]}]},
        "hooksConfig": {"disabled": ["echo listed-by-command", "n"]}
    })
    .to_string()
}

/// Row 486's leftover: `list --host gemini` showed the handlers a Gemini file lists off in
/// `hooksConfig.disabled` as run natively where hookx does not trust the file (its selection
/// followed only trusted lists, for what hookx runs), while Gemini follows every list it loads
/// and simulate, doctor and list's own plan said they run nowhere. Trusted or not, they are
/// not rows now; under another host, an untrusted list still turns nothing off.
#[test]
fn list_shows_no_gemini_handler_gemini_lists_off_trusted_or_not() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&project).unwrap();
    let file = common::write(
        &home,
        ".gemini/settings.json",
        &gemini_file_listing_two_handlers_off(),
    );
    let hookx = |args: &[&str]| {
        let out = common::hookx()
            .args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        out.stdout
    };
    let listed = |host: &str| -> Vec<String> {
        let rows: serde_json::Value =
            serde_json::from_slice(&hookx(&["list", "--host", host, "--format", "json"])).unwrap();
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| r["handler"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(listed("gemini"), ["echo not-listed"], "untrusted");
    assert_eq!(
        listed("claude").len(),
        3,
        "an untrusted list under another host"
    );
    hookx(&["trust", &file.to_string_lossy()]);
    assert_eq!(listed("gemini"), ["echo not-listed"], "trusted");
}

/// Attacks row 682 (row 670's leftover): hookx's Codex route in a repository root's
/// `.codex/` and its package's, each folder with a trusted Claude guard (the root's denies).
/// Codex started in the package runs both lines, which between them run both guards;
/// `simulate` in the package showed the package's guard alone, and the call allowed.
#[test]
fn simulate_in_a_package_shows_the_roots_guard_its_route_runs() {
    let RootAndPackage {
        repo: _,
        pkg,
        home,
        _dir,
    } = root_and_package("R682", true);
    let out = common::hookx()
        .current_dir(&pkg)
        .env("HOME", &home)
        .env_remove("HOOKX_HOME")
        .arg("simulate")
        .args(call_args(
            "codex",
            "PreToolUse",
            "Bash",
            LS,
            &["--dry-run", "--home"],
        ))
        .arg(&home)
        .output()
        .unwrap();
    let said = text(&out.stdout);
    assert!(said.contains("R682-PKG"), "{said}{}", text(&out.stderr));
    assert!(said.contains("R682-ROOT"), "the root's guard: {said}");
}

/// Attacks row 862 (row 682's leftover): hookx's Codex route in a repository root's `.codex/`
/// alone, trusted Claude guards in the root (denying) and in `pkg/`, which has no route. Codex
/// started in `pkg/` loads the root's `.codex/hooks.json` and runs its line (live:
/// `live_codex::a_session_started_in_a_subfolder_runs_the_projects_guard`), which runs the
/// root's guard; the package's, with no line of its own, runs nowhere. `simulate` in the
/// package said "no route" and answered allow.
#[test]
fn simulate_in_a_package_without_a_route_shows_the_roots_route() {
    let RootAndPackage {
        repo,
        pkg,
        home,
        _dir,
    } = root_and_package("R862", false);
    let simulate = |extra: &[&str]| {
        common::hookx()
            .current_dir(&pkg)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .args(["simulate", "--host", "codex", "--event", "PreToolUse"])
            .args(["--tool", "Bash", "--input", r#"{"command":"ls"}"#, "--home"])
            .arg(&home)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = simulate(&["--dry-run"]);
    let said = text(&out.stdout);
    assert!(
        said.contains("R862-ROOT"),
        "the root's guard: {said}{}",
        text(&out.stderr)
    );
    assert!(!said.contains("never calls hookx"), "{said}");
    let out = simulate(&[]);
    assert_eq!(
        out.status.code(),
        Some(4),
        "the root's guard denies: {}",
        text(&out.stdout)
    );
    assert!(
        !text(&out.stdout).contains("R862-PKG"),
        "{}",
        text(&out.stdout)
    );
    // What simulate shows is what the root's line runs, Codex started in the package.
    let routes: Value =
        serde_json::from_str(&std::fs::read_to_string(repo.join(".codex/hooks.json")).unwrap())
            .unwrap();
    let line = routes["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    let payload = serde_json::json!({"session_id": "s", "turn_id": "t", "cwd": pkg,
        "hook_event_name": "PreToolUse", "model": "m", "transcript_path": null,
        "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": "ls"},
        "tool_use_id": "c"});
    let ran = std::process::Command::new("sh")
        .args(["-c", line])
        .current_dir(&pkg)
        .env("HOME", &home)
        .env_remove("HOOKX_HOME")
        .output_with_stdin(&payload.to_string())
        .unwrap();
    let all = format!("{}{}", text(&ran.stdout), text(&ran.stderr));
    assert!(all.contains("R862-ROOT"), "the root's line denies: {all}");
    assert!(
        !all.contains("R862-PKG"),
        "the package's guard runs nowhere: {all}"
    );
}

/// A repository root (its `.git`) and its package `pkg/`, with `home` beside them.
struct RootAndPackage {
    _dir: tempfile::TempDir,
    repo: std::path::PathBuf,
    pkg: std::path::PathBuf,
    home: std::path::PathBuf,
}

/// [`RootAndPackage`] where the root and the package each hold a trusted Claude guard on Bash,
/// `{tag}-ROOT` denying and `{tag}-PKG` allowing; hookx's Codex route installed in the root
/// (and in the package where `route_in_package`), both folders trusted in Codex's config.
fn root_and_package(tag: &str, route_in_package: bool) -> RootAndPackage {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (repo, home) = (root.join("repo"), root.join("home"));
    let pkg = repo.join("pkg");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(&pkg).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let guard = |command: &str| {
        serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": command}]}]}})
        .to_string()
    };
    let mut trusted = String::new();
    for (dir, command, routed) in [
        (&repo, format!("echo {tag}-ROOT >&2; exit 2"), true),
        (&pkg, format!("echo {tag}-PKG; exit 0"), route_in_package),
    ] {
        common::write(dir, ".claude/settings.json", &guard(&command));
        common::hookx_at(dir, &home, &["trust", "--yes"]).success();
        if routed {
            common::hookx_at(dir, &home, &["install", "--host", "codex"]).success();
        }
        trusted.push_str(&format!(
            "\n[projects.{}]\ntrust_level = \"trusted\"\n",
            serde_json::json!(dir.display().to_string())
        ));
    }
    let config = home.join(".codex/config.toml");
    let text_before = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text_before + &trusted).unwrap();
    RootAndPackage {
        _dir: dir,
        repo,
        pkg,
        home,
    }
}

/// Attacks row 1901: a hook's `continue: false` stops the agent (Gemini CLI 0.61.0 and Droid
/// 0.225.2 run no call beside it, Claude Code 2.1.332 ends the run after it: books
/// `hxprestop`, `prehalt`); simulate said only `decision: allow`, exit 0.
#[test]
fn a_hooks_stop_of_the_agent_is_said_and_stops_the_action() {
    let dir = tempfile::tempdir().unwrap();
    common::write(
        dir.path(),
        ".gemini/settings.json",
        r#"{"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"echo '{\"continue\":false,\"stopReason\":\"R-HALT\"}'"}]}]}}"#,
    );
    let args = call_args("gemini", "BeforeTool", "run_shell_command", LS, &[]);
    let out = simulate(dir.path(), &args);
    let said = text(&out.stdout);
    assert!(
        said.contains("the agent stops after this answer (continue: false): R-HALT"),
        "{said}"
    );
    assert_eq!(out.status.code(), Some(4), "{said}");
    let out = simulate(dir.path(), &[&args[..], &["--format", "json"]].concat());
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["stop"], "R-HALT", "{report}");
}

/// Attacks row 1900: a Codex or Droid hook's own `ask`, which its client runs like no
/// decision (books `nativeask`, `askrw`), is no deny in simulate's decision: hookx's own
/// answer denies such an ask, the client's own handler does not.
#[test]
fn a_hosts_own_ask_it_cannot_put_is_not_called_a_deny() {
    let dir = tempfile::tempdir().unwrap();
    common::write(
        dir.path(),
        ".factory/settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"R-ASK\",\"updatedInput\":{\"command\":\"echo rw\"}}}'"}]}]}}"#,
    );
    let out = simulate(
        dir.path(),
        &call_args("droid", "PreToolUse", "Execute", LS, &["--format", "json"]),
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["native"]["matched"], 1, "{report}");
    assert_eq!(report["decision"], "allow", "{report}");
    assert!(report["taken"].get("updated_input").is_none(), "{report}");
    assert_eq!(out.status.code(), Some(0), "{report}");
}

/// Attacks row 1763 (twenty-seventh pass, row 1822): a Cursor `stop` hook routed under Claude
/// gets `loop_count` from `hookx run` (its follow-ups in a row, as Cursor counts them);
/// `simulate` showed (`--dry-run`) and gave (a real run) its payload without it. Both now hold
/// it, and a simulated follow-up is counted nowhere: simulate changes no session's count.
#[test]
fn simulate_gives_a_cursor_stop_hook_the_loop_count_run_gives_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let home = root.join("home");
    std::fs::create_dir_all(&home).unwrap();
    common::write(
        &root,
        ".cursor/hooks.json",
        r#"{"version":1,"hooks":{"stop":[{"command":"cat > got.json; echo '{\"followup_message\":\"again\"}'","loop_limit":3}]}}"#,
    );
    let hookx = |args: &[&str]| {
        common::hookx()
            .args(args)
            .current_dir(&root)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap()
    };
    let out = hookx(&["install", "--host", "claude", "--scope", "project"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = hookx(&["trust", "--yes"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let args = [
        "--host",
        "claude",
        "--event",
        "Stop",
        "--field",
        "session_id=s1",
    ];
    let mut dry = args.to_vec();
    dry.extend(["--dry-run", "--format", "json"]);
    let out = simulate_with(&root, &dry, &[]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let would = &report["would_run"][0];
    assert_eq!(would["flavor"], "cursor", "{report:#}");
    assert_eq!(would["stdin"]["loop_count"], 0, "{report:#}");
    let out = simulate_with(&root, &args, &[]);
    let got: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("got.json")).unwrap()).unwrap();
    assert_eq!(got["loop_count"], 0, "{got:#} {}", text(&out.stdout));
    assert!(
        !home.join(".hookx/follow-ups").exists() && !root.join("home/.hookx/follow-ups").exists(),
        "simulate counted a follow-up"
    );
}

/// A Claude project installed for Gemini and trusted, in a home of its own: `simulate --host
/// gemini` with `args` (a dry run unless `run`), its JSON report.
fn gemini_report(root: &Path, args: &[&str]) -> Value {
    let home = root.join("home");
    let mut all = vec!["--host", "gemini", "--format", "json"];
    all.extend(args);
    let out = common::hookx()
        .arg("simulate")
        .args(&all)
        .arg("--project")
        .arg(root)
        .arg("--home")
        .arg(&home)
        .current_dir(root)
        .env("HOME", &home)
        .env_remove("HOOKX_HOME")
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)))
}

/// Attacks rows 1808 and 1960: a result given to `simulate` as a `tool_response` field reaches
/// a handler of another agent in that agent's shape, as `run` gives a payload's (it was the
/// host's shape, a Claude scanner on `.tool_response.stdout` reading null); and a result of a
/// tool no form of the handler's agent knows (Gemini's `save_memory`) is said to be the host's.
#[test]
fn simulate_gives_a_result_in_the_handlers_shape_and_says_where_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join("home")).unwrap();
    common::write(
        &root,
        ".claude/settings.json",
        r#"{"hooks":{"PostToolUse":[{"matcher":"","hooks":[{"type":"command","command":"cat >/dev/null"}]}]}}"#,
    );
    let folders = serde_json::json!({ root.to_str().unwrap(): "TRUST_FOLDER" });
    common::write(
        &root,
        "home/.gemini/trustedFolders.json",
        &folders.to_string(),
    );
    for args in [&["install", "--host", "gemini"][..], &["trust", "--yes"]] {
        let out = common::hookx()
            .args(args)
            .current_dir(&root)
            .env("HOME", root.join("home"))
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let shell = gemini_report(
        &root,
        &[
            "--dry-run",
            "--event",
            "AfterTool",
            "--tool",
            "run_shell_command",
            "--input",
            r#"{"command":"echo R-1960"}"#,
            "--field",
            r#"tool_response={"llmContent":"<untrusted_context>\nOutput: R-1960\nProcess Group PGID: 7\n</untrusted_context>"}"#,
        ],
    );
    let stdin = &shell["would_run"][0]["stdin"];
    assert_eq!(stdin["tool_response"]["stdout"], "R-1960", "{shell:#}");
    let memory = gemini_report(
        &root,
        &[
            "--dry-run",
            "--event",
            "AfterTool",
            "--tool",
            "save_memory",
            "--input",
            r#"{"fact":"f"}"#,
            "--field",
            r#"tool_response={"llmContent":"saved R-1808","returnDisplay":"saved"}"#,
        ],
    );
    let notes = memory["notes"].to_string();
    assert!(
        notes.contains("hookx knows no shape of Claude"),
        "{memory:#}"
    );
}

/// Attacks row 1908's note: a host that takes a hook's rewrite as the whole new input (Claude's
/// `updatedInput`, by hookx's tables) runs the call without the arguments the rewrite leaves
/// out, and a tool that needs one refuses the call (Gemini CLI 0.61.0 did so with its own
/// hooks' `tool_input`, "params must have required property 'command'", though its reference
/// says it merges). simulate says which.
#[test]
fn simulate_says_which_arguments_a_rewrite_taken_whole_leaves_out() {
    let dir = tempfile::tempdir().unwrap();
    common::write(
        dir.path(),
        ".claude/settings.json",
        r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\",\"updatedInput\":{\"description\":\"D-1908\"}}}'"}]}]}}"#,
    );
    let out = simulate(
        dir.path(),
        &call_args(
            "claude",
            "PreToolUse",
            "Bash",
            r#"{"command":"echo hi","description":"d"}"#,
            &["--format", "json"],
        ),
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["native"]["matched"], 1, "{report:#}");
    let notes = report["native"]["notes"].to_string();
    assert!(notes.contains("leaves out `command`"), "{report:#}");
}

/// Attacks rows 1961 and 1962: under Claude Code a PostToolUse hook of Claude's own replaces a
/// Bash result (`R-1962-A`) and a team's Copilot hook run through hookx's route replaces it
/// otherwise (`R-1962-X`). Claude Code 2.1.332 gives the model the one that ends last (live,
/// `live_claude::two_replacements_of_one_result`): simulate's answer as taken is the route's,
/// not hookx's withheld text, which is for two of hookx's own handlers, and the race is said.
#[test]
fn simulate_takes_the_routes_replacement_after_the_hosts_own() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let own = r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"stdout":"R-1962-A","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false}}}"#;
    let claude = serde_json::json!({"hooks": {"PostToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": format!("cat >/dev/null; echo '{own}'")}]}]}});
    common::write(&root, ".claude/settings.json", &claude.to_string());
    let x = r#"cat >/dev/null; echo '{"modifiedResult":{"resultType":"success","textResultForLlm":"R-1962-X"}}'"#;
    let team = serde_json::json!({"version": 1, "hooks": {"postToolUse": [{"type": "command",
        "bash": x}]}});
    common::write(&root, ".github/hooks/team.json", &team.to_string());
    for args in [&["install", "--host", "claude"][..], &["trust", "--yes"]] {
        let out = common::hookx()
            .args(args)
            .current_dir(&root)
            .env("HOME", &root)
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let out = simulate(
        &root,
        &call_args(
            "claude",
            "PostToolUse",
            "Bash",
            r#"{"command":"cat .env"}"#,
            &["--format", "json"],
        ),
    );
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    assert_eq!(report["native"]["matched"], 1, "{report:#}");
    assert_eq!(report["matched"], 1, "{report:#}");
    let taken = report["taken"].to_string();
    assert!(
        taken.contains("R-1962-X") && !taken.contains("R-1962-A") && !taken.contains("withheld"),
        "{report:#}"
    );
    // Claude runs them side by side, last to end wins (CI saw its own win): the race is said.
    let notes = report["notes"].to_string();
    assert!(notes.contains("may win the race"), "{report:#}");
}

/// Attacks row 2050: hookx's route in the user's Qwen or Droid settings, running a trusted
/// Claude rule of the project's, beside a hook of the user's own in the same list, before or
/// after the route. Qwen Code 0.24.4 takes the last hook's permission field (a hook of the
/// user's after the route that allows undoes hookx's deny); Droid 0.225.2 the first's (hookx's
/// allow before the user's deny by the field hides it): both seen live (`live_qwen`,
/// `live_droid`). simulate folded hookx's answer after the host's own hooks by
/// deny-beats-allow, and said deny for calls those agents run.
#[test]
fn simulate_folds_hookxs_answer_at_its_routes_place_among_the_hosts_hooks() {
    let answer = |decision: &str| {
        format!(
            "echo '{}'",
            serde_json::json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
                "permissionDecision": decision, "permissionDecisionReason": "R-2050"}})
        )
    };
    let cases = [
        // (host, its folder, its shell tool, hookx's rule, the user's own, own first, decision)
        (
            "qwen",
            ".qwen",
            "run_shell_command",
            "deny",
            "allow",
            false,
            "allow",
        ),
        (
            "qwen",
            ".qwen",
            "run_shell_command",
            "deny",
            "allow",
            true,
            "deny",
        ),
        (
            "droid", ".factory", "Execute", "allow", "deny", false, "allow",
        ),
        (
            "droid", ".factory", "Execute", "allow", "deny", true, "deny",
        ),
    ];
    for (host, folder, tool, routed, own, own_first, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap().join("project");
        let home = dir.path().canonicalize().unwrap().join("home");
        std::fs::create_dir_all(&root).unwrap();
        let rule = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": answer(routed)}]}]}});
        let rules = common::write(&home, ".claude/settings.json", &rule.to_string());
        let hookx = |args: &[&str]| hookx_in(&root, &home, args);
        let succeeds = |args: &[&str]| {
            let out = hookx(args);
            assert!(out.status.success(), "{args:?}: {out:?}");
        };
        succeeds(&["trust", "--yes", &rules.to_string_lossy()]);
        succeeds(&[
            "install", "--host", host, "--scope", "user", "--hookx", "hookx",
        ]);
        let file = home.join(folder).join("settings.json");
        let mut settings: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let list = settings["hooks"]["PreToolUse"].as_array_mut().unwrap();
        let entry = serde_json::json!({"hooks": [{"type": "command", "command": answer(own)}]});
        match own_first {
            true => list.insert(0, entry),
            false => list.push(entry),
        }
        std::fs::write(&file, settings.to_string()).unwrap();
        let args = call_args(host, "PreToolUse", tool, LS, &["--format", "json"]);
        let out = hookx(&[&["simulate"][..], &args].concat());
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
        assert_eq!(
            report["decision"].as_str(),
            Some(expected),
            "{host}, hookx's {routed} and the user's own {own} {}: {}",
            match own_first {
                true => "before the route",
                false => "after the route",
            },
            report["taken"]
        );
    }
}

/// Attacks row 2052: two of Claude Code's own PreToolUse hooks rewriting one Bash call their
/// own ways. Claude Code 2.1.332 runs them side by side and runs the rewrite of the one that
/// ends last (live, each ending a second late: `live_claude::several_hooks_answers_merge_as_simulate_says`,
/// `k5`); simulate takes the later hook's, and says that another's may win the race. So does
/// Codex CLI 0.171.0 (its `latest_updated_input`, by completion order; attacks row 2220).
#[test]
fn simulate_says_which_of_two_rewrites_runs_under_claude_is_a_race() {
    for (host, file) in [
        ("claude", ".claude/settings.json"),
        ("codex", ".codex/hooks.json"),
    ] {
        two_rewrites_are_said_to_race(host, file);
    }
}

fn two_rewrites_are_said_to_race(host: &str, file: &str) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::create_dir_all(root.join(".git")).unwrap();
    let rewrite = |to: &str| {
        let answer = serde_json::json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "allow", "updatedInput": {"command": to}}});
        serde_json::json!({"type": "command", "command": format!("echo '{answer}'")})
    };
    let settings = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [rewrite("echo a"), rewrite("echo b")]}]}});
    common::write(&root, file, &settings.to_string());
    // Codex reads a project's `.codex/` only where the user trusted the folder, and runs only
    // the handlers the user reviewed.
    let mut config = format!(
        "[projects.{}]\ntrust_level = \"trusted\"\n",
        serde_json::json!(root)
    );
    let records = hookx::dialect::codex::trust::records(&root.join(file), &settings, &|_| true);
    for (key, hash) in records {
        config.push_str(&format!("[hooks.state.{key:?}]\ntrusted_hash = {hash:?}\n"));
    }
    common::write(&root, "home/.codex/config.toml", &config);
    let args = call_args(host, "PreToolUse", "Bash", LS, &[]);
    let out = simulate_with(&root, &args, &[]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("runs the rewrite of the hook that ends last"),
        "{host}: {stdout}{}",
        text(&out.stderr)
    );
}

/// Attacks rows 2230, 2232: Cline fires a session's start under two names, `TaskStart` (a new
/// task) and `TaskResume` (a resumed one), neither with a `source`. Simulated under each name,
/// a Claude SessionStart rule on `resume` runs on `TaskResume` only, one on `startup` on
/// `TaskStart` only, each shown the `source` its name tells (main read `TaskResume` as no
/// event, and `TaskStart` with no `source`: neither rule ran). The same under the names its
/// payloads give them, `agent_resume` and `agent_start` (row 2434: the first was read as an
/// unknown event and ran nothing, the second refused as a misspelt `SubagentStart`).
#[test]
fn clines_two_session_start_names_tell_the_source() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let rule = |matcher: &str| {
        serde_json::json!({"matcher": matcher, "hooks": [{"type": "command",
            "command": format!("cat >> {matcher}.log")}]})
    };
    let settings =
        serde_json::json!({"hooks": {"SessionStart": [rule("resume"), rule("startup")]}});
    common::write(p, ".claude/settings.json", &settings.to_string());
    for args in [&["trust", "--yes"][..], &["install", "--host", "cline"]] {
        common::hookx_at(p, &p.join("home"), args).success();
    }
    for (name, ran, not) in [
        ("TaskResume", "resume", "startup"),
        ("TaskStart", "startup", "resume"),
        ("agent_resume", "resume", "startup"),
        ("agent_start", "startup", "resume"),
    ] {
        for log in [ran, not] {
            let _ = std::fs::remove_file(p.join(format!("{log}.log")));
        }
        let out = simulate_with(p, &["--host", "cline", "--event", name], &[]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let log = std::fs::read_to_string(p.join(format!("{ran}.log"))).unwrap_or_else(|_| {
            panic!(
                "{name}: the `{ran}` rule did not run: {}",
                text(&out.stdout)
            )
        });
        let shown: Value = serde_json::from_str(log.trim()).unwrap();
        assert_eq!(shown["source"], ran, "{name}: {log}");
        assert_eq!(shown["hook_event_name"], "SessionStart", "{name}: {log}");
        assert!(
            !p.join(format!("{not}.log")).exists(),
            "{name} ran the `{not}` rule"
        );
    }
}
