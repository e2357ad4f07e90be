//! Each rule exactly once per agent (issue 24, item 1): a Claude project converted with
//! `--write` to four agents holds five copies of each rule; under each agent the route
//! (`hookx run`) must run none of the copies the agent already runs itself, and exactly one
//! where the agent runs none. Every handler appends one line (its stdin) to a log: lines are
//! runs.
#![cfg(unix)]

mod common;

use std::path::Path;

const SETTINGS: &str = r#"{
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./hook.sh guard"}]}],
    "PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "./hook.sh fmt"}]}],
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./hook.sh log"}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "./hook.sh stop"}]}]
  }
}
"#;

/// A Claude project (the README's story), converted to `targets` with `--write`, trusted.
fn project(targets: &str) -> (tempfile::TempDir, tempfile::TempDir) {
    let project = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let root = project.path();
    common::write(root, ".claude/settings.json", SETTINGS);
    let script = common::write(
        root,
        "hook.sh",
        "#!/bin/sh\nprintf '%s %s\\n' \"$1\" \"$(cat | tr -d '\\n')\" >> \"$(dirname \"$0\")/runs.log\"\n",
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    if !targets.is_empty() {
        common::hookx_clean(root)
            .current_dir(root)
            .env("HOME", home.path())
            .args([
                "convert",
                ".claude/settings.json",
                "--to",
                targets,
                "--write",
            ])
            .args(["--hookx", env!("CARGO_BIN_EXE_hookx")])
            .assert()
            .success();
    }
    common::hookx_at(root, home.path(), &["trust", "--yes"]).success();
    (project, home)
}

/// Gemini and Codex trust the project folder, so they load the project's own files and the
/// copies there (in a folder they do not trust, no copy stands in for its rule: attacks row
/// 404).
fn trusted_by_gemini_and_codex(root: &Path, home: &Path) {
    let real = root.canonicalize().unwrap().display().to_string();
    common::write(
        home,
        ".gemini/trustedFolders.json",
        &serde_json::json!({&real: "TRUST_FOLDER"}).to_string(),
    );
    common::write(
        home,
        ".codex/config.toml",
        &format!("[projects.{:?}]\ntrust_level = \"trusted\"\n", real),
    );
}

/// `hookx run --host HOST --event EVENT` fed `payload`; the log's lines it added.
fn run(project: &Path, home: &Path, host: &str, event: &str, payload: &str) -> Vec<String> {
    let log = project.join("runs.log");
    let _ = std::fs::remove_file(&log);
    let ran = common::ran(
        common::hookx_clean(project)
            .current_dir(project)
            .env("HOME", home)
            .args(["run", "--host", host, "--event", event])
            .arg("--project")
            .arg(project)
            .arg("--home")
            .arg(home)
            .write_stdin(payload),
    );
    assert_eq!(ran.code, Some(0), "{ran:?}");
    std::fs::read_to_string(&log)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Each host's prompt event, named as it names it, and a payload it sends.
fn prompt(project: &Path, host: &str) -> (&'static str, String) {
    let cwd = project.display();
    match host {
        "copilot" => (
            "userPromptSubmitted",
            format!(r#"{{"timestamp":1,"cwd":"{cwd}","prompt":"hi"}}"#),
        ),
        "gemini" => (
            "BeforeAgent",
            format!(
                r#"{{"hook_event_name":"BeforeAgent","session_id":"s","cwd":"{cwd}","prompt":"hi","transcript_path":"","timestamp":"t"}}"#
            ),
        ),
        "cursor" => (
            "beforeSubmitPrompt",
            format!(
                r#"{{"hook_event_name":"beforeSubmitPrompt","conversation_id":"c","generation_id":"g","prompt":"hi","workspace_roots":["{cwd}"]}}"#
            ),
        ),
        _ => (
            "UserPromptSubmit",
            format!(
                r#"{{"hook_event_name":"UserPromptSubmit","session_id":"s","cwd":"{cwd}","prompt":"hi","transcript_path":"","permission_mode":"default","turn_id":"t","model":"m"}}"#
            ),
        ),
    }
}

#[test]
fn the_route_runs_no_copy_of_a_rule_the_agent_runs_itself() {
    let (project, home) = project("copilot,gemini,codex,cursor");
    trusted_by_gemini_and_codex(project.path(), home.path());
    // Not Codex: it runs a copy only once its user reviewed it in `/hooks`, which `convert`
    // cannot do; an unreviewed copy runs nowhere, and the route runs the rule (attacks row
    // 404, `double_runs::a_copy_codex_never_reviewed_does_not_take_the_guards_run`).
    for host in ["claude", "copilot", "gemini", "cursor"] {
        let (event, payload) = prompt(project.path(), host);
        let runs = run(project.path(), home.path(), host, event, &payload);
        assert!(
            runs.is_empty(),
            "under {host} the agent runs its own copy of the prompt logger; the route ran {} more:\n{}",
            runs.len(),
            runs.join("\n")
        );
    }
}

#[test]
fn where_the_agent_runs_no_copy_the_route_runs_one_with_the_payload_it_was_written_for() {
    let (project, home) = project("gemini,codex");
    // Droid reads none of these files: hookx runs the rule, from one copy.
    let (event, payload) = prompt(project.path(), "droid");
    let runs = run(project.path(), home.path(), "droid", event, &payload);
    assert_eq!(runs.len(), 1, "{}", runs.join("\n"));
    assert!(runs[0].starts_with("log "), "{}", runs[0]);
    // Claude's payload, as the rule was written for.
    assert!(
        runs[0].contains(r#""hook_event_name":"UserPromptSubmit""#),
        "{}",
        runs[0]
    );
}

#[test]
fn list_names_the_runner_of_each_rule_per_agent() {
    let (project, home) = project("copilot,gemini");
    let out = stdout_of(
        common::hookx_at(project.path(), home.path(), &["list", "--host", "copilot"]).success(),
    );
    let plan = out
        .split_once("plan (each rule once per agent):\n")
        .unwrap_or_else(|| panic!("no plan in:\n{out}"))
        .1;
    let lines: Vec<&str> = plan
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| l.trim_start().starts_with("copilot "))
        .collect();
    assert_eq!(lines.len(), 4, "one line per rule:\n{plan}");
    // Copilot runs the Claude file itself with its own payload, and nothing turns that off:
    // that run is the rule's one run, named as such; hookx skips the Gemini copy.
    for line in &lines {
        assert!(
            line.contains(
                "copilot runs .claude/settings.json with its copilot-pascal payload; hookx \
                 skips .gemini/settings.json"
            ),
            "{line}"
        );
    }
}

#[test]
fn convert_write_copies_no_rule_for_an_agent_that_reads_the_source_itself() {
    let (project, home) = project("gemini");
    let root = project.path();
    // A copy an earlier hookx wrote for Copilot: converting again removes it.
    common::hookx_clean(root)
        .current_dir(root)
        .env("HOME", home.path())
        .args(["convert", ".claude/settings.json", "--to", "copilot"])
        .args(["--out", ".github/hooks/hooks.json", "--write"])
        .assert()
        .success();
    let copy = root.join(".github/hooks/hooks.json");
    assert!(std::fs::read_to_string(&copy).unwrap().contains("hook.sh"));
    let out = common::hookx_clean(root)
        .current_dir(root)
        .env("HOME", home.path())
        .args([
            "convert",
            ".claude/settings.json",
            "--to",
            "copilot,gemini",
            "--write",
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(
            "Copilot reads .claude/settings.json itself: its rules are not copied for it, so \
             that each runs once"
        ),
        "{stderr}"
    );
    let left = std::fs::read_to_string(&copy).unwrap_or_default();
    assert!(!left.contains("hook.sh"), "the old copy is gone: {left}");
    let gemini = std::fs::read_to_string(root.join(".gemini/settings.json")).unwrap();
    assert_eq!(gemini.matches("hook.sh").count(), 4, "{gemini}");
}

/// Attacks row 880: the team's Claude, Gemini, Codex and Copilot files converted into each
/// other (`common::team_of_hosts_files`), then again once trusted. Copilot reads
/// `.claude/settings.json` as well as its own file, which holds the other three files' rules'
/// copies: convert writes Copilot's file none of them (the Gemini file's copies of the Claude
/// rules included), so that Copilot runs each once.
#[test]
fn convert_write_copies_no_rule_into_copilots_file_that_copilot_runs_from_the_claude_file() {
    let dir = tempfile::tempdir().unwrap();
    let (root, home) = (dir.path().join("project"), dir.path().join("home"));
    std::fs::create_dir_all(&home).unwrap();
    for round in ["first", "trusted"] {
        common::team_of_hosts_files(&root, &home, "hookx");
        let copilot = std::fs::read_to_string(root.join(".github/hooks/hooks.json")).unwrap();
        let claude = std::fs::read_to_string(root.join(".claude/settings.json")).unwrap();
        for (i, label) in common::TEAM_HOSTS_LABELS.iter().enumerate() {
            let ran = |text: &str| text.matches(&format!("hook.sh {label}")).count();
            let want = if i < 9 { (0, 1) } else { (1, 1) };
            assert_eq!(
                (ran(&copilot), ran(&claude)),
                want,
                "{round}: {label} in Copilot's file and the Claude file:\n{copilot}\n{claude}"
            );
        }
        common::hookx_at(&root, &home, &["trust", "--yes"]).success();
    }
    let said = common::hookx_clean(&root)
        .env("HOME", &home)
        .args([
            "convert",
            ".gemini/settings.json",
            "--to",
            "copilot",
            "--write",
        ])
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8(said.stderr).unwrap();
    assert!(
        stderr.contains(
            "handler(s) of the inputs are rules Copilot already runs itself from \
             .claude/settings.json: not copied for it, so that each runs once"
        ),
        "{stderr}"
    );
}

#[test]
fn on_a_claude_only_project_install_leaves_the_claude_file_to_hookx_under_copilot() {
    // Copilot runs `.claude/settings.json` itself with its own payload (a Write's file is
    // `path`). install lists each handler in Copilot's `disabledHooks` (~/.copilot/settings.json),
    // so Copilot leaves them to hookx, and routes their events: the route runs the formatter
    // once, with Claude's payload; list names hookx.
    let (project, home) = project("");
    let root = project.path();
    let installed = common::hookx_at(root, home.path(), &["install", "--host", "copilot"])
        .success()
        .get_output()
        .clone();
    let stdout = String::from_utf8(installed.stdout).unwrap();
    let stderr = String::from_utf8(installed.stderr).unwrap();
    assert!(
        stdout.contains("copilot leaves 4 handlers it reads in another agent's files to hookx")
            && stdout.contains("routed 4 copilot events to hookx"),
        "{stdout}"
    );
    assert!(!stderr.contains("warning: Copilot runs"), "{stderr}");
    let settings = std::fs::read_to_string(home.path().join(".copilot/settings.json")).unwrap();
    let settings: serde_json::Value = serde_json::from_str(&settings).unwrap();
    assert_eq!(settings["disabledHooks"].as_array().map(Vec::len), Some(4));
    // The switch install wrote is no hook file with a problem: nothing to warn about.
    common::hookx_at(root, home.path(), &["validate", "--deny-warnings"]).success();
    let payload = format!(
        r#"{{"timestamp":1,"cwd":"{}","toolName":"create","toolArgs":"{{\"path\":\"{}/a.txt\",\"file_text\":\"x\"}}","toolResult":{{"resultType":"success","textResultForLlm":"ok"}}}}"#,
        root.display(),
        root.display()
    );
    let runs = run(root, home.path(), "copilot", "postToolUse", &payload);
    assert_eq!(runs.len(), 1, "{}", runs.join("\n"));
    assert!(
        runs[0].starts_with("fmt ") && runs[0].contains(r#""file_path":""#),
        "Claude's payload: {}",
        runs[0]
    );
    let listed =
        stdout_of(common::hookx_at(root, home.path(), &["list", "--host", "copilot"]).success());
    assert!(
        listed.contains("hookx runs .claude/settings.json")
            && !listed.contains("copilot runs .claude/settings.json"),
        "{listed}"
    );
    // simulate, in a folder Copilot trusts, runs it through hookx and not as Copilot's own.
    let trusted = format!(r#"{{"trusted_folders": ["{}"]}}"#, root.display());
    common::write(home.path(), ".copilot/config.json", &trusted);
    let simulated = stdout_of(
        common::hookx_at(
            root,
            home.path(),
            &[
                "simulate",
                "--host",
                "copilot",
                "--event",
                "preToolUse",
                "--tool",
                "bash",
                "--input",
                r#"{"command":"ls"}"#,
                "--dry-run",
            ],
        )
        .success(),
    );
    assert!(
        simulated.contains(".claude/settings.json (/hooks/PreToolUse/0) (claude)")
            && !simulated.contains("native: copilot runs .claude/settings.json"),
        "{simulated}"
    );
}

#[test]
fn install_routes_no_event_whose_every_rule_the_agent_runs_itself() {
    // Converted to Gemini, the project needs no Gemini route: Gemini runs each copy itself.
    let (project, home) = project("gemini");
    let out = stdout_of(
        common::hookx_at(
            project.path(),
            home.path(),
            &["install", "--host", "gemini"],
        )
        .success(),
    );
    assert!(out.starts_with("no gemini events to route"), "{out}");
}

/// Copilot's per-handler switch is `install`'s to write: doctor names it (attacks row 1424;
/// it said "no setting of Copilot turns that off alone").
#[test]
fn doctor_warns_where_an_agent_runs_a_file_with_its_own_payload_and_no_switch_stops_it() {
    let (project, home) = project("");
    let out = stdout_of(common::hookx_at(
        project.path(),
        home.path(),
        &["doctor", "--host", "copilot"],
    ));
    assert!(
        out.contains(
            "warning: Copilot runs it itself with its copilot-pascal payload, not the claude one \
             it was written for (to leave it to hookx, run `hookx install --host copilot`, which \
             lists it in Copilot's `disabledHooks`)"
        ),
        "{out}"
    );
    let out = stdout_of(common::hookx_at(
        project.path(),
        home.path(),
        &["doctor", "--host", "cursor"],
    ));
    assert!(
        out.contains("to stop it, turn off Cursor Settings"),
        "{out}"
    );
}

#[test]
fn doctor_shows_a_hand_made_copy_as_likely_and_a_converted_one_not() {
    let (project, home) = project("codex");
    let root = project.path();
    // The prompt logger, copied into Gemini's file by hand: no record.
    common::write(
        root,
        ".gemini/settings.json",
        r#"{"hooks": {"BeforeAgent": [{"hooks": [{"type": "command", "command": "./hook.sh log"}]}]}}"#,
    );
    common::hookx_at(root, home.path(), &["trust", "--yes"]).success();
    let out = stdout_of(common::hookx_at(
        root,
        home.path(),
        &["doctor", "--host", "gemini"],
    ));
    let note = "likely a copy made by hand of a rule in";
    assert!(
        out.contains(&format!("{note} .claude/settings.json")),
        "{out}"
    );
    assert!(
        out.contains(&format!("{note} .gemini/settings.json")),
        "{out}"
    );
    // The Codex copies carry convert's record: not "likely", they are copies.
    assert!(!out.contains(&format!("{note} .codex/hooks.json")), "{out}");
    // Never merged: under Gemini both the hand copy (Gemini's own) and the Claude rule (hookx
    // through the Codex copy or the original, once routed) stay separate rules in the plan.
    let listed =
        stdout_of(common::hookx_at(root, home.path(), &["list", "--host", "gemini"]).success());
    let prompt_lines = listed
        .lines()
        .filter(|l| l.trim_start().starts_with("gemini ") && l.contains("./hook.sh log"))
        .count();
    assert_eq!(prompt_lines, 2, "{listed}");
}

/// The documented prompt payload of `host` (tests/fixtures/documented), for the project.
fn documented_prompt(project: &Path, host: &str, event: &str) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "tests/fixtures/documented/{host}-docs/{event}.json"
    ));
    let fixture: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    fixture["stdin"]
        .to_string()
        .replace("<project>", &project.display().to_string())
}

/// Cursor, VS Code and Windsurf have no client here: each is modelled from its facts page
/// (conformance/*-facts.md), whose tables say which files the agent reads itself. The README's
/// story (convert to five agents, install, trust): for the prompt logger, the agent's own runs
/// (the plan's runner when it is the agent) plus hookx's (the route's log) are exactly one.
#[test]
fn under_cursor_vscode_and_windsurf_the_story_runs_each_rule_once_as_their_facts_say() {
    for (host, event) in [
        ("cursor", "beforeSubmitPrompt"),
        ("vscode", "UserPromptSubmit"),
        ("windsurf", "pre_user_prompt"),
    ] {
        let (project, home) = project("copilot,gemini,codex,cursor,windsurf");
        let root = project.path();
        common::hookx_at(root, home.path(), &["install", "--host", host]).success();
        common::hookx_at(root, home.path(), &["trust", "--yes"]).success();
        let listed =
            stdout_of(common::hookx_at(root, home.path(), &["list", "--host", host]).success());
        let plan: Vec<&str> = listed
            .lines()
            .skip_while(|l| !l.starts_with("plan (each rule once per agent):"))
            .filter(|l| l.trim_start().starts_with(&format!("{host} ")))
            .collect();
        assert_eq!(plan.len(), 4, "{host}: one line per rule:\n{listed}");
        let log_line = plan
            .iter()
            .find(|l| l.contains("./hook.sh log"))
            .unwrap_or_else(|| panic!("{host}: no plan line for the logger:\n{listed}"));
        let by_agent = usize::from(log_line.contains(&format!("  {host} runs ")));
        let by_hookx_planned = usize::from(log_line.contains("  hookx runs "));
        assert_eq!(by_agent + by_hookx_planned, 1, "{host}: {log_line}");
        let payload = documented_prompt(root, host, event);
        let runs = run(root, home.path(), host, event, &payload);
        assert_eq!(
            by_agent + runs.len(),
            1,
            "{host}: the agent runs it {by_agent} times, the route {}:\n{}\n{log_line}",
            runs.len(),
            runs.join("\n")
        );
    }
}

#[test]
fn a_copy_converted_in_from_another_file_is_not_taken_for_the_rule_at_its_recorded_pointer() {
    // The Claude file's prompt logger sits at /hooks/UserPromptSubmit/0; a Codex rule converted
    // in records the same pointer of its own file. They are two rules: both run.
    let (project, home) = project("");
    let root = project.path();
    let codex = common::write(
        root,
        "elsewhere/codex.json",
        r#"{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./hook.sh other"}]}]}}"#,
    );
    common::hookx_clean(root)
        .current_dir(root)
        .env("HOME", home.path())
        .arg("convert")
        .arg(&codex)
        .args(["--from", "codex", "--to", "claude", "--write"])
        .args(["--hookx", env!("CARGO_BIN_EXE_hookx")])
        .assert()
        .success();
    common::hookx_at(root, home.path(), &["trust", "--yes"]).success();
    let (event, payload) = prompt(root, "droid");
    let runs = run(root, home.path(), "droid", event, &payload);
    // Both run, each once; the host may run them in parallel, so their order is not asserted.
    let mut labels: Vec<&str> = runs.iter().filter_map(|r| r.split(' ').next()).collect();
    labels.sort_unstable();
    assert_eq!(labels, ["log", "other"], "{}", runs.join("\n"));
}

/// A Claude `PreToolUse` payload for `ls` in `project`.
fn bash_payload(project: &Path) -> String {
    format!(
        r#"{{"session_id":"s","transcript_path":"","cwd":"{}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"ls"}},"permission_mode":"default"}}"#,
        project.display()
    )
}

#[test]
fn the_plan_follows_every_change_to_the_files_from_one_event_to_the_next() {
    // The plan is made anew from the files each event finds: a trusted deny is never lost, and
    // never run twice, whichever file changes between two events.
    let (project, home) = project("gemini,codex");
    let root = project.path();
    common::write(
        root,
        "hook.sh",
        "#!/bin/sh\nprintf '%s\\n' \"$1\" >> \"$(dirname \"$0\")/runs.log\"\n\
         [ \"$1\" = guard ] && { echo 'no shell today' >&2; exit 2; }\nexit 0\n",
    );
    // Each event under Claude: the guard's runs through the route, and whether it denied.
    let event = |step: &str| {
        let log = root.join("runs.log");
        let _ = std::fs::remove_file(&log);
        let ran = common::ran(
            common::hookx_clean(root)
                .env("HOME", home.path())
                .args(["run", "--host", "claude", "--event", "PreToolUse"])
                .arg("--project")
                .arg(root)
                .arg("--home")
                .arg(home.path())
                .write_stdin(bash_payload(root)),
        );
        assert_eq!(ran.code, Some(0), "{step}: {ran:?}");
        let runs = std::fs::read_to_string(&log).unwrap_or_default();
        let denied = ran.stdout.contains(r#""permissionDecision":"deny""#)
            && ran.stdout.contains("no shell today");
        (runs.lines().filter(|l| *l == "guard").count(), denied, ran)
    };
    let trust = || common::hookx_at(root, home.path(), &["trust", "--yes"]).success();
    let claude = root.join(".claude/settings.json");
    let (gemini, codex) = (
        root.join(".gemini/settings.json"),
        root.join(".codex/hooks.json"),
    );
    // Each step: what changes before the event, and the guard's runs through the route.
    type Step<'a> = (&'a str, Box<dyn Fn() + 'a>, usize);
    let steps: Vec<Step> = vec![
        // Claude runs its own guard: the route runs no copy.
        ("as converted", Box::new(|| {}), 0),
        // The source loses the guard: a trusted copy is the runner now.
        (
            "the source edited",
            Box::new(|| {
                let guard = SETTINGS.lines().find(|l| l.contains("guard")).unwrap();
                let edited = SETTINGS.replace(guard, "");
                common::write(root, ".claude/settings.json", &edited);
            }),
            1,
        ),
        // The Gemini copy changed since it was trusted: the Codex copy runs.
        (
            "a copy edited",
            Box::new(|| {
                let text = std::fs::read_to_string(&gemini).unwrap();
                std::fs::write(&gemini, format!("{text}\n")).unwrap();
            }),
            1,
        ),
        ("trust changed", Box::new(|| drop(trust())), 1),
        (
            "a copy removed",
            Box::new(|| std::fs::remove_file(&codex).unwrap()),
            1,
        ),
        // A new copy of the rule, converted from the Gemini one: still one run.
        (
            "a copy added",
            Box::new(|| {
                common::hookx_clean(root)
                    .env("HOME", home.path())
                    .args([
                        "convert",
                        ".gemini/settings.json",
                        "--to",
                        "codex",
                        "--write",
                    ])
                    .args(["--hookx", env!("CARGO_BIN_EXE_hookx")])
                    .assert()
                    .success();
                trust();
            }),
            1,
        ),
        // The guard back in the source: Claude runs it, the route none.
        (
            "the source restored",
            Box::new(|| drop(common::write(root, ".claude/settings.json", SETTINGS))),
            0,
        ),
        (
            "the source removed",
            Box::new(|| std::fs::remove_file(&claude).unwrap()),
            1,
        ),
    ];
    for (step, change, runs) in steps {
        change();
        let (got, denied, ran) = event(step);
        assert_eq!(
            got, runs,
            "{step}: the guard ran {got} times through the route\n{ran:?}"
        );
        assert_eq!(denied, runs == 1, "{step}: the route's answer\n{ran:?}");
    }
}

#[test]
fn a_run_reads_the_hosts_own_file_once_and_only_where_a_copy_needs_it() {
    use hookx::discover::{self, Context};
    use hookx::model::EventKind;
    use hookx::tables::Dialect;
    use hookx::trust::TrustStore;
    let claude = Dialect::named("claude").unwrap();
    let kind = EventKind::UserPromptSubmit;
    let read = |project: &Path, home: &Path| {
        let ctx = Context::new(project.to_path_buf(), home.to_path_buf());
        let store = TrustStore::load_or_empty(&ctx);
        discover::discover_for_event(&ctx, claude, &kind, &store)
            .iter()
            .map(|s| s.display.clone())
            .collect::<Vec<_>>()
    };
    // No copy: Claude reads its file itself, and the route does not.
    let (plain, home) = project("");
    assert_eq!(read(plain.path(), home.path()), Vec::<String>::new());
    // Copies: the route reads Claude's file too, once, for the plan, and plans as a full
    // discovery does.
    let (copied, home) = project("gemini,codex");
    let found = read(copied.path(), home.path());
    let mut sorted = found.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        [
            ".claude/settings.json",
            ".codex/hooks.json",
            ".gemini/settings.json"
        ],
        "{found:?}"
    );
    let ctx = Context::new(copied.path().to_path_buf(), home.path().to_path_buf());
    let store = TrustStore::load_or_empty(&ctx);
    let planned = |sources: &[discover::Source]| {
        hookx::plan::hookx_rules(&ctx, sources, claude, &store)
            .iter()
            .filter(|r| r.rule.event == kind)
            .map(|r| (r.source.display.clone(), r.rule.handlers.len()))
            .collect::<Vec<_>>()
    };
    let fast = discover::discover_for_event(&ctx, claude, &kind, &store);
    assert_eq!(planned(&fast), planned(&discover::discover(&ctx)));
}

#[test]
fn without_the_original_the_route_prefers_a_copy_that_gets_the_payload_it_was_written_for() {
    // A `--no-wrap` Gemini copy (first in discovery order) would hand the Claude command
    // Gemini's payload; the wrapped Codex copy hands it Claude's. The original is gone.
    let (project, home) = project("");
    let root = project.path();
    let convert = |to: &str, more: &[&str]| {
        common::hookx_clean(root)
            .env("HOME", home.path())
            .args(["convert", ".claude/settings.json", "--to", to, "--write"])
            .args(["--hookx", env!("CARGO_BIN_EXE_hookx")])
            .args(more)
            .assert()
            .success();
    };
    convert("gemini", &["--no-wrap"]);
    convert("codex", &[]);
    std::fs::remove_file(root.join(".claude/settings.json")).unwrap();
    common::hookx_at(root, home.path(), &["trust", "--yes"]).success();
    let (event, payload) = prompt(root, "droid");
    let runs = run(root, home.path(), "droid", event, &payload);
    assert_eq!(runs.len(), 1, "{}", runs.join("\n"));
    assert!(
        runs[0].starts_with("log ") && runs[0].contains(r#""hook_event_name":"UserPromptSubmit""#),
        "{}",
        runs[0]
    );
    // The Codex copy changed since it was trusted (a key of its value, not only its bytes:
    // a change that parses the same keeps trust, row 327): the Gemini copy is the only one
    // hookx may run, and runs, with the payload it gets (Gemini's).
    let codex = root.join(".codex/hooks.json");
    let text = std::fs::read_to_string(&codex).unwrap();
    assert!(text.starts_with('{'), "{text}");
    std::fs::write(&codex, text.replacen('{', r#"{"changed": true, "#, 1)).unwrap();
    let runs = run(root, home.path(), "droid", event, &payload);
    assert_eq!(runs.len(), 1, "{}", runs.join("\n"));
    assert!(
        runs[0].starts_with("log ") && runs[0].contains(r#""hook_event_name":"BeforeAgent""#),
        "{}",
        runs[0]
    );
}

/// `convert FILE --to AGENT --write --hookx THIS` for each pair, one after the other, as a team
/// converts its files in turn.
fn convert_in_turn(root: &Path, home: &Path, files: &[(&str, &str)]) {
    for (file, to) in files {
        common::hookx_clean(root)
            .current_dir(root)
            .env("HOME", home)
            .args(["convert", file, "--to", to, "--write"])
            .args(["--hookx", env!("CARGO_BIN_EXE_hookx")])
            .assert()
            .success();
    }
}

/// What a command that ran wrote on stdout.
fn stdout_of(ran: assert_cmd::assert::Assert) -> String {
    String::from_utf8(ran.get_output().stdout.clone()).unwrap()
}

/// Whether Claude loads a file whole is remembered by content (`loaded.sum`), so that `hookx
/// run` does not read and parse every Claude file whole on every event; the memo never hides
/// a refusal. The Claude guard's Gemini copy runs under Claude only once Claude refuses the
/// original (a `model` that is no string, added after a run remembered the file as loaded).
#[test]
fn a_claude_file_remembered_as_loaded_is_refused_once_it_changes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("p"), root.join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let log = root.join("ran.log");
    let guard = format!("echo ran >> '{}'", log.display());
    let settings = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": guard}]}]}});
    common::write(&project, ".claude/settings.json", &settings.to_string());
    let hx = |args: &[&str]| common::hookx_at(&project, &home, args);
    common::hookx()
        .current_dir(&project)
        .args([
            "convert",
            ".claude/settings.json",
            "--to",
            "gemini",
            "--write",
            "--no-wrap",
        ])
        .assert()
        .success();
    hx(&["trust", "--yes"]).success();
    let payload = serde_json::json!({"session_id": "s", "transcript_path": "", "cwd": project,
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "permission_mode": "default"});
    let fire = || {
        common::hookx_clean(&project)
            .args(["run", "--host", "claude", "--event", "PreToolUse", "--home"])
            .arg(&home)
            .write_stdin(payload.to_string())
            .assert()
            .success();
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
    };
    // Claude runs its own file: hookx runs no copy of it.
    assert_eq!(fire(), 0);
    assert_eq!(fire(), 0);
    assert!(home.join(".hookx/loaded.sum").is_file());
    let mut refused = settings.clone();
    refused["model"] = serde_json::json!(7);
    common::write(&project, ".claude/settings.json", &refused.to_string());
    hx(&["trust", "--yes"]).success();
    // Claude runs none of it now: hookx runs the copy, on every event.
    assert_eq!(fire(), 1);
    assert_eq!(fire(), 2);
}

/// Attacks row 1340: the memo of files Claude loads whole (`loaded.sum`) is another build's
/// when hookx is upgraded in place. A build of the morning of 2026-12-06 remembered a Claude
/// file as loaded though Claude leaves out one of its entries on Stop (a `null` matcher: row
/// 720, found later); today's hookx took that memo for its own verdict, thought Claude ran the
/// Gemini Stop rule's copy there, and ran the rule nowhere. The memo is keyed by the build.
#[test]
fn another_builds_memo_of_a_file_claude_loads_whole_is_not_taken() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("p"), root.join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let log = root.join("ran.log");
    let rule = format!("echo ran >> '{}'", log.display());
    let gemini = serde_json::json!({"hooks": {"AfterAgent": [{"hooks": [{"type": "command", "command": rule}]}]}});
    common::write(&project, ".gemini/settings.json", &gemini.to_string());
    let hx = |args: &[&str]| common::hookx_at(&project, &home, args);
    common::hookx()
        .current_dir(&project)
        .args([
            "convert",
            ".gemini/settings.json",
            "--to",
            "claude",
            "--write",
        ])
        .assert()
        .success();
    let path = project.join(".claude/settings.json");
    let mut claude: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    claude["hooks"]["Stop"][0]["matcher"] = serde_json::Value::Null;
    let text = claude.to_string();
    std::fs::write(&path, &text).unwrap();
    hx(&["trust", "--yes"]).success();
    let payload = serde_json::json!({"session_id": "s", "transcript_path": "", "cwd": project,
        "hook_event_name": "Stop", "stop_hook_active": false});
    let fire = || {
        common::hookx_clean(&project)
            .args([
                "run",
                "--host",
                "claude",
                "--event",
                "Stop",
                "--installed-in",
                "project",
            ])
            .arg("--home")
            .arg(&home)
            .write_stdin(payload.to_string())
            .assert()
            .success();
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
    };
    // Claude leaves the copy out: hookx runs the rule.
    assert_eq!(fire(), 1);
    // What a build keyed by the version alone (0.1.0) remembered of the file.
    let key = format!(
        "0.1.0\0claude\0{}",
        hookx::hash::sha256_hex(text.as_bytes())
    );
    let old = &hookx::hash::sha256_hex(key.as_bytes())[..16];
    common::write(&home, ".hookx/loaded.sum", &format!("{old}\n"));
    assert_eq!(fire(), 2, "another build's memo hid the rule");
}

/// Rows 546 and 728's project: a Gemini `BeforeAgent` rule (`./hook.sh from-gemini`) converted
/// into Claude's file.
fn gemini_prompt_rule_copied_into_claude() -> (tempfile::TempDir, tempfile::TempDir) {
    let (project, home) = project("");
    common::write(
        project.path(),
        ".gemini/settings.json",
        r#"{"hooks": {"BeforeAgent": [{"hooks": [{"type": "command", "command": "./hook.sh from-gemini"}]}]}}"#,
    );
    convert_in_turn(
        project.path(),
        home.path(),
        &[(".gemini/settings.json", "claude")],
    );
    (project, home)
}

/// Claude's UserPromptSubmit payload for a prompt in `root`.
fn claude_prompt_payload(root: &Path) -> String {
    format!(
        r#"{{"session_id":"s","transcript_path":"","cwd":"{}","hook_event_name":"UserPromptSubmit","prompt":"hi"}}"#,
        root.display()
    )
}

/// Attacks row 546: a rule of Gemini's converted into Claude's file (wrapped `--as gemini
/// --event UserPromptSubmit`: `convert` names the event canonically, and `hookx exec` reads
/// any agent's spelling). The plan read the wrapper's `--event` in the `--as` agent's spelling
/// only (Gemini's is `BeforeAgent`), so the copy Claude runs never stood in for its original:
/// hookx's route ran the original too, each such rule twice per call (doctor: "runner: hookx";
/// list: "also run, which hookx cannot stop"). Every wrapped copy of a rule from an agent whose
/// event names are not the canonical ones (Gemini, Copilot's camelCase, Cursor, Windsurf, …).
#[test]
fn a_copy_converted_into_claude_from_gemini_stands_in_for_its_original() {
    let (project, home) = gemini_prompt_rule_copied_into_claude();
    let root = project.path();
    common::hookx_at(root, home.path(), &["trust", "--yes"]).success();
    let listed =
        stdout_of(common::hookx_at(root, home.path(), &["list", "--host", "claude"]).success());
    let line = listed
        .lines()
        .find(|l| l.trim_start().starts_with("claude ") && l.contains("from-gemini"))
        .unwrap_or_else(|| panic!("no plan line:\n{listed}"));
    assert!(
        line.contains("claude runs .claude/settings.json"),
        "{listed}"
    );
    let payload = claude_prompt_payload(root);
    let runs = run(root, home.path(), "claude", "UserPromptSubmit", &payload);
    assert!(
        !runs.iter().any(|r| r.starts_with("from-gemini")),
        "Claude runs the copy; the route ran the original too:\n{}",
        runs.join("\n")
    );
}

/// Row 546's copy, then edited to a form Claude Code 2.1.332 does not load on UserPromptSubmit
/// (a `null` matcher: it leaves the entry out and runs the rest of the file; live,
/// `live_claude_doctor`, attacks row 728): the copy stands in for nothing, so the route runs the
/// original, on every run (the first run's record of files loaded whole must not hide it).
/// The plan had Claude run the copy and the route skip the original: the guard ran nowhere.
#[test]
fn a_copy_claude_leaves_out_does_not_stand_in_for_its_original() {
    let (project, home) = gemini_prompt_rule_copied_into_claude();
    let root = project.path();
    let settings = root.join(".claude/settings.json");
    let mut copy: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    let group = copy["hooks"]["UserPromptSubmit"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|g| g.to_string().contains("from-gemini"))
        .unwrap();
    group["matcher"] = serde_json::Value::Null;
    std::fs::write(&settings, copy.to_string()).unwrap();
    common::hookx_at(root, home.path(), &["trust", "--yes"]).success();
    let listed =
        stdout_of(common::hookx_at(root, home.path(), &["list", "--host", "claude"]).success());
    assert!(
        listed.contains("hookx runs .gemini/settings.json"),
        "{listed}"
    );
    let payload = claude_prompt_payload(root);
    for _ in 0..2 {
        let runs = run(root, home.path(), "claude", "UserPromptSubmit", &payload);
        assert_eq!(
            runs.iter().filter(|r| r.starts_with("from-gemini")).count(),
            1,
            "Claude leaves its copy out; the route must run the original:\n{}",
            runs.join("\n")
        );
    }
}

/// A real Claude plugin file (10K-Digital/lovable-claude-code `cd7a7498` `hooks/hooks.json`,
/// cut; attacks row 1181) holds its sync hook under `Start`, which is no Claude event: Claude
/// skips it, `validate` and `doctor` say so, but `list`'s plan said "claude runs
/// .claude/settings.json" of it, as of the `Stop` rule beside it, which Claude does run.
#[test]
fn the_plan_names_nobody_for_a_rule_on_a_key_that_is_no_event_of_the_host() {
    let (project, home) = project("");
    let root = project.path();
    common::write(
        root,
        ".claude/settings.json",
        r#"{"hooks": {
  "Start": [{"hooks": [{"type": "command", "command": "./hook.sh auto-sync", "timeout": 30}]}],
  "Stop": [{"hooks": [{"type": "command", "command": "./hook.sh auto-push", "timeout": 30}]}]
}}"#,
    );
    common::hookx_at(root, home.path(), &["trust", "--yes"]).success();
    let listed =
        stdout_of(common::hookx_at(root, home.path(), &["list", "--host", "claude"]).success());
    let plan_line = |label: &str| {
        listed
            .lines()
            .skip_while(|l| !l.starts_with("plan"))
            .find(|l| l.contains(label))
            .unwrap_or_else(|| panic!("no plan line of {label}:\n{listed}"))
            .to_string()
    };
    assert!(
        plan_line("auto-push").contains("claude runs .claude/settings.json"),
        "{listed}"
    );
    let start = plan_line("auto-sync");
    assert!(
        start.contains("nobody (Claude fires no `Start` event)"),
        "{listed}"
    );
}

/// The team loop with hooks written on both sides (attacks row 620): a Claude guard and a
/// Codex guard, each its file's first `PreToolUse` rule (one pointer, `/hooks/PreToolUse/0`,
/// in both files), converted each into the other's file. The Codex file then holds the Claude
/// guard's copy, whose record names that pointer too: the Claude file's copy of the Codex guard
/// was taken for a copy of that copy, so the two guards were one rule to the plan. Under Claude
/// (which runs both of its file's entries itself) the route ran the Codex guard a second
/// time; under Codex, which skips its own unreviewed entries, the route ran the Claude guard
/// and left the Codex guard's trusted copy out: its deny lost.
#[test]
fn a_claude_and_a_codex_rule_at_one_pointer_converted_both_ways_stay_two_rules() {
    let (project, home) = project("");
    let root = project.path();
    common::write(
        root,
        ".codex/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./hook.sh xguard"}]}]}}"#,
    );
    convert_in_turn(
        root,
        home.path(),
        &[
            (".claude/settings.json", "codex"),
            (".codex/hooks.json", "claude"),
        ],
    );
    common::hookx_at(root, home.path(), &["trust", "--yes"]).success();
    trusted_by_gemini_and_codex(root, home.path());
    let labels = |host: &str| {
        let runs = run(root, home.path(), host, "PreToolUse", &bash_payload(root));
        let mut labels: Vec<String> = runs
            .iter()
            .filter_map(|r| r.split(' ').next().map(str::to_string))
            .collect();
        labels.sort_unstable();
        (labels, runs.join("\n"))
    };
    // Claude runs both guards from its own file: the route runs neither.
    let (claude, log) = labels("claude");
    assert!(claude.is_empty(), "under claude the route ran:\n{log}");
    // Codex runs neither (never reviewed): the route runs each guard once.
    let (codex, log) = labels("codex");
    assert_eq!(codex, ["guard", "xguard"], "under codex:\n{log}");
}

/// Attacks row 631: a copy of a copy. A Codex prompt logger converted into the Claude file, and
/// the Claude file converted into Gemini's: the Gemini file's copies of the Claude logger and
/// of the Codex logger both record the Claude file and `/hooks/UserPromptSubmit/0` (the file
/// they were converted from, the first rule's pointer), and differ by the agent each was
/// written for (`from`). Read without it, one of the two was taken for the other's copy:
/// under Gemini, which runs both copies itself, the route ran one logger a second time.
#[test]
fn copies_of_copies_that_record_one_place_stay_the_rules_of_their_own_agents() {
    let (project, home) = project("");
    let root = project.path();
    common::write(
        root,
        ".codex/hooks.json",
        r#"{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./hook.sh xlog"}]}]}}"#,
    );
    convert_in_turn(
        root,
        home.path(),
        &[
            (".codex/hooks.json", "claude"),
            (".claude/settings.json", "gemini"),
        ],
    );
    common::hookx_at(root, home.path(), &["trust", "--yes"]).success();
    trusted_by_gemini_and_codex(root, home.path());
    let (event, payload) = prompt(root, "gemini");
    let runs = run(root, home.path(), "gemini", event, &payload);
    assert!(
        runs.is_empty(),
        "Gemini runs both loggers' copies; the route ran:\n{}",
        runs.join("\n")
    );
}

/// Attacks row 1100: a Copilot rule converted into the Claude file (`hookx exec --as copilot`),
/// trusted, nothing installed. Copilot reads the Claude file as well as its own; the copy
/// stands aside where Copilot runs the rule from its own file (attacks row 880,
/// `double_runs::a_copilot_rules_copy_in_the_claude_file_stands_aside_where_copilot_runs_the_rule_itself`),
/// so `list` and `doctor` name no second run of it. Where the own file's rule has another
/// command (the copy stale), the copy runs beside it, and both say so.
#[test]
fn list_and_doctor_name_no_second_run_of_a_copy_that_stands_aside() {
    let dir = tempfile::tempdir().unwrap();
    let (root, home) = (dir.path().join("project"), dir.path().join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let guard = |line: &str| {
        serde_json::json!({"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": line, "matcher": "bash"}]}})
        .to_string()
    };
    common::write(&root, ".github/hooks/hooks.json", &guard("echo pguard"));
    let trusted = serde_json::json!({"trustedFolders": [root]}).to_string();
    common::write(&home, ".copilot/config.json", &trusted);
    common::hookx_clean(&root)
        .env("HOME", &home)
        .args([
            "convert",
            ".github/hooks/hooks.json",
            "--to",
            "claude",
            "--write",
        ])
        .assert()
        .success();
    let mut seen = Vec::new();
    for (round, line) in [
        ("own rule", "echo pguard"),
        ("own rule changed", "echo pguard2"),
    ] {
        common::write(&root, ".github/hooks/hooks.json", &guard(line));
        common::hookx_at(&root, &home, &["trust", "--yes"]).success();
        let out = |args: &[&str]| {
            let run = common::hookx_clean(&root)
                .env("HOME", &home)
                .args(args)
                .assert();
            String::from_utf8(run.get_output().stdout.clone()).unwrap()
        };
        let listed = out(&["list", "--host", "copilot"]);
        let doctor = out(&["doctor", "--host", "copilot"]);
        seen.push(format!(
            "{round}: list {} also, doctor {} twice",
            listed
                .matches("copilot also runs .claude/settings.json itself")
                .count(),
            doctor.matches("it would run twice").count()
        ));
    }
    assert_eq!(
        seen,
        [
            "own rule: list 0 also, doctor 0 twice",
            "own rule changed: list 1 also, doctor 1 twice"
        ]
    );
}
