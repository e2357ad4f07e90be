//! Exact semantics, or a located loss (issue 24, items 3 and 4), through the real binary:
//! matchers read as the source agent reads them and written as the target reads them, events
//! the source never fires, placeholders, paths in a committed file, one bad entry one loss, and
//! what validate and doctor say an agent really loads.

mod common;

use hookx::convert::matcher::fires;
use hookx::dialect::claude;
use serde_json::Value;
use std::path::Path;

/// `hookx convert FILE --from FROM --to TO` (wrapped unless `extra` says otherwise), in `dir`:
/// the converted document and the JSON report (`--format json`).
fn convert(dir: &Path, file: &str, from: &str, to: &str, extra: &[&str]) -> (Value, Value) {
    let out = common::hookx_clean(dir)
        .args([
            "convert", file, "--from", from, "--to", to, "--format", "json",
        ])
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stdout));
    });
    let text = report["output"].as_str().unwrap_or_default();
    let doc = serde_json::from_str(text).unwrap_or(Value::Null);
    (doc, report)
}

/// The text report of a conversion (stderr).
fn convert_text(dir: &Path, file: &str, from: &str, to: &str) -> String {
    let out = common::hookx_clean(dir)
        .args(["convert", file, "--from", from, "--to", to])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn losses(report: &Value) -> Vec<String> {
    report["losses"]
        .as_array()
        .map(|l| {
            l.iter()
                .map(|l| format!("{} {} — {}", l["pointer"], l["what"], l["why"]))
                .collect()
        })
        .unwrap_or_default()
}

/// The matchers of a Claude document's rules on `event`.
fn claude_matchers(doc: &Value, event: &str) -> Vec<Option<String>> {
    doc["hooks"][event]
        .as_array()
        .map(|groups| {
            groups
                .iter()
                .map(|g| g["matcher"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn fires_under_claude(matcher: Option<&str>, tool: &str) -> bool {
    fires(matcher, claude::FLAVOR, tool).unwrap_or(false)
}

#[test]
fn codex_apply_patch_inside_a_regex_covers_every_edit_tool() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        "hooks.json",
        r#"{"hooks": {"PreToolUse": [
            {"matcher": "^(apply_patch|Bash)$", "hooks": [{"type": "command", "command": "./guard.sh"}]},
            {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "./fmt.sh"}]}
        ]}}"#,
    );
    for wrap in [&[][..], &["--no-wrap"][..]] {
        let (doc, report) = convert(tmp.path(), "hooks.json", "codex", "claude", wrap);
        let matchers = claude_matchers(&doc, "PreToolUse");
        assert_eq!(matchers.len(), 2, "{doc:#}");
        // A patch creates, edits, or edits in several places: every one of them is a patch.
        for tool in ["Bash", "Edit", "Write", "MultiEdit"] {
            assert!(
                fires_under_claude(matchers[0].as_deref(), tool),
                "`^(apply_patch|Bash)$` became {:?}, which does not fire for {tool}; losses: {:#?}",
                matchers[0],
                losses(&report)
            );
        }
        for tool in ["Edit", "Write", "MultiEdit"] {
            assert!(
                fires_under_claude(matchers[1].as_deref(), tool),
                "`Write|Edit` became {:?}, which does not fire for {tool}",
                matchers[1]
            );
        }
        assert!(!fires_under_claude(matchers[1].as_deref(), "Bash"));
    }
}

#[test]
fn droid_matchers_are_unanchored_regexes() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        ".factory/settings.json",
        r#"{"hooks": {"PreToolUse": [
            {"matcher": "Create|Write", "hooks": [{"type": "command", "command": "./guard.sh"}]}
        ]}}"#,
    );
    let (doc, report) = convert(tmp.path(), ".factory/settings.json", "droid", "claude", &[]);
    let matchers = claude_matchers(&doc, "PreToolUse");
    // Droid tests `new RegExp("Create|Write")` against the name: TodoWrite contains `Write`.
    for tool in ["Write", "TodoWrite"] {
        assert!(
            fires_under_claude(matchers[0].as_deref(), tool),
            "`Create|Write` became {:?}, which does not fire for {tool} as Droid's did; losses: {:#?}",
            matchers[0],
            losses(&report)
        );
    }
    assert!(!fires_under_claude(matchers[0].as_deref(), "Bash"));
}

#[test]
fn a_cursor_matcher_on_a_category_event_is_a_located_loss() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        ".cursor/hooks.json",
        r#"{"version": 1, "hooks": {"beforeShellExecution": [{"command": "./guard.sh", "matcher": "rm -rf"}]}}"#,
    );
    let (_, report) = convert(tmp.path(), ".cursor/hooks.json", "cursor", "claude", &[]);
    let lost = losses(&report);
    assert!(
        lost.iter()
            .any(|l| l.contains("/hooks/beforeShellExecution/0") && l.contains("rm -rf")),
        "the matcher `rm -rf` vanished without a loss: {lost:#?}"
    );
    let text = convert_text(tmp.path(), ".cursor/hooks.json", "cursor", "claude");
    assert!(!text.contains("no losses"), "{text}");
}

#[test]
fn an_event_the_source_never_fires_is_a_loss_not_a_live_event() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        ".gemini/settings.json",
        r#"{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "./log.sh"}]}],
                      "BeforeAgent": [{"hooks": [{"type": "command", "command": "./ctx.sh"}]}]}}"#,
    );
    common::write(
        tmp.path(),
        ".factory/settings.json",
        r#"{"hooks": {"PermissionRequest": [{"hooks": [{"type": "command", "command": "./p.sh"}]}],
                      "SubagentStart": [{"hooks": [{"type": "command", "command": "./s.sh"}]}],
                      "Setup": [{"hooks": [{"type": "command", "command": "./u.sh"}]}],
                      "Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]}}"#,
    );
    for (file, from, never, live) in [
        (
            ".gemini/settings.json",
            "gemini",
            &["UserPromptSubmit"][..],
            "UserPromptSubmit",
        ),
        (
            ".factory/settings.json",
            "droid",
            &["PermissionRequest", "SubagentStart", "Setup"][..],
            "Stop",
        ),
    ] {
        let (doc, report) = convert(tmp.path(), file, from, "claude", &[]);
        let lost = losses(&report);
        for event in never {
            let count = doc["hooks"][event].as_array().map_or(0, Vec::len);
            let from_never = doc["hooks"]
                .as_object()
                .into_iter()
                .flatten()
                .flat_map(|(_, groups)| groups.as_array().into_iter().flatten())
                .flat_map(|g| g["hooks"].as_array().into_iter().flatten())
                .filter(|h| h["hookx"]["rule"].as_str() == Some(&format!("/hooks/{event}/0")))
                .count();
            assert_eq!(
                from_never, 0,
                "{from} never fires `{event}`, yet it became a live claude rule ({count}): {doc:#}"
            );
            assert!(
                lost.iter()
                    .any(|l| l.contains(&format!("/hooks/{event}/0")) && l.contains("never")),
                "{from} `{event}`: no loss says the source never fires it: {lost:#?}"
            );
        }
        // What the source fires still converts (Gemini's BeforeAgent is Claude's prompt event).
        assert!(doc["hooks"][live].is_array(), "{doc:#}");
    }
}

#[test]
fn placeholders_the_source_substitutes_are_a_loss_where_the_target_has_none() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        "gemini-ext/hooks/hooks.json",
        r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "node ${extensionPath}/guard.js"}]}]}}"#,
    );
    common::write(
        tmp.path(),
        ".factory/settings.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "${DROID_PLUGIN_ROOT}/guard.sh"}]}]}}"#,
    );
    for (file, from, name) in [
        ("gemini-ext/hooks/hooks.json", "gemini", "extensionPath"),
        (".factory/settings.json", "droid", "DROID_PLUGIN_ROOT"),
    ] {
        for to in ["claude", "copilot", "cursor"] {
            let (_, report) = convert(tmp.path(), file, from, to, &[]);
            let lost = losses(&report);
            assert!(
                lost.iter().any(|l| l.contains(name)),
                "{from} → {to}: `${{{name}}}` stays an unset variable with no loss: {lost:#?}"
            );
        }
    }
}

#[test]
fn a_converted_cline_hook_folder_names_its_scripts_by_project_relative_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let script = common::write(
        tmp.path(),
        ".clinerules/hooks/PreToolUse",
        "#!/bin/sh\necho '{\"cancel\": false}'\n",
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    for folder in [
        ".clinerules/hooks".to_string(),
        root.join(".clinerules/hooks").display().to_string(),
    ] {
        for wrap in [&[][..], &["--no-wrap"][..]] {
            let (doc, _) = convert(tmp.path(), &folder, "cline", "claude", wrap);
            let text = doc.to_string();
            assert!(
                !text.contains(&root.display().to_string()),
                "{folder} {wrap:?}: the converting machine's path is in the output: {doc:#}"
            );
            assert!(text.contains(".clinerules/hooks/PreToolUse"), "{doc:#}");
        }
    }
}

#[test]
fn skill_frontmatter_hooks_active_only_with_their_skill_are_a_loss_when_made_always_on() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        ".claude/skills/guard/SKILL.md",
        "---\nname: guard\ndescription: d\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./g.sh\n---\nbody\n",
    );
    let (_, report) = convert(
        tmp.path(),
        ".claude/skills/guard/SKILL.md",
        "claude",
        "copilot",
        &[],
    );
    let lost = losses(&report);
    assert!(
        lost.iter().any(|l| l.contains("skill")),
        "a skill-scoped hook became always-on with no loss: {lost:#?}"
    );
    let text = convert_text(
        tmp.path(),
        ".claude/skills/guard/SKILL.md",
        "claude",
        "copilot",
    );
    assert!(!text.contains("no losses"), "{text}");
}

#[test]
fn droid_runs_no_hook_of_a_wrapped_hooks_json_and_validate_and_doctor_say_so() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        ".factory/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
    );
    let out = common::hookx_clean(tmp.path())
        .args(["validate", ".factory/hooks.json"])
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains(".factory/hooks.json:1:") && text.contains("runs none"),
        "validate does not say Droid runs none of it, located: {text}"
    );
    let out = common::hookx_at(tmp.path(), home.path(), &["doctor", "--host", "droid"]);
    let out = out.get_output();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("runs none") && !text.contains("fires, natively"),
        "doctor does not say Droid runs none of it: {text}"
    );
}

#[test]
fn one_bad_claude_group_or_copilot_comment_entry_is_one_located_loss() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hook": "x.sh"},
            {"matcher": "Edit", "hooks": [{"type": "command", "command": "./fmt.sh"}]}
        ]}}"#,
    );
    common::write(
        tmp.path(),
        ".github/hooks/hooks.json",
        r#"{"version": 1, "hooks": {"preToolUse": [
            {"_comment": "guards below"},
            {"type": "command", "bash": "./guard.sh"}
        ]}}"#,
    );
    for (file, from, to, bad) in [
        (
            ".claude/settings.json",
            "claude",
            "copilot",
            "/hooks/PreToolUse/0",
        ),
        (
            ".github/hooks/hooks.json",
            "copilot",
            "claude",
            "/hooks/preToolUse/0",
        ),
    ] {
        let (doc, report) = convert(tmp.path(), file, from, to, &[]);
        let lost = losses(&report);
        let at_bad = lost
            .iter()
            .filter(|l| l.contains(&format!("\"{bad}")))
            .count();
        assert_eq!(at_bad, 1, "{file}: one bad entry, one loss: {lost:#?}");
        assert!(
            doc["hooks"].as_object().is_some_and(|h| !h.is_empty()),
            "{doc:#}"
        );
    }
}

/// A Kiro IDE `.kiro.hook` says its own `version` (`"1"`, `"1.0.0"`), not a list format's.
/// Converted to Kiro it is a v1 list, which says `"version": "v1"`: real IDE hooks
/// (takashi-uchida/kiroween-skeleton-crew) came out as a list saying `"version": "1"`, which
/// hookx, and Kiro, read as no v1 list, and no loss said so. The hook's own version stays with
/// its rule, as its name does.
#[test]
fn a_kiro_ide_hook_converted_to_kiro_is_a_v1_list() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        ".kiro/hooks/english.kiro.hook",
        r#"{"enabled": true, "name": "English", "version": "1",
            "when": {"type": "agentStop"}, "then": {"type": "runCommand", "command": "./check.sh"}}"#,
    );
    let (doc, report) = convert(
        tmp.path(),
        ".kiro/hooks/english.kiro.hook",
        "kiro",
        "kiro",
        &["--no-wrap"],
    );
    assert_eq!(doc["version"], "v1", "{doc:#}");
    let rule = &doc["hooks"][0];
    assert_eq!(rule["version"], "1", "{doc:#}");
    assert_eq!(rule["trigger"], "Stop", "{doc:#}");
    assert_eq!(rule["action"]["command"], "./check.sh", "{doc:#}");
    assert!(losses(&report).is_empty(), "{report:#}");
    // Read back as the list it is: nothing unknown in it.
    common::write(tmp.path(), ".kiro/hooks/english.json", &doc.to_string());
    let out = common::hookx_clean(tmp.path())
        .args(["validate", "--from", "kiro", ".kiro/hooks/english.json"])
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && said.contains("0 error(s), 0 warning(s)"),
        "{said}"
    );
}

/// A Kiro IDE hook's file globs (`when.patterns`, `when.excludePatterns`) have no place in
/// Kiro's v1 list, whose file triggers match by `matcher` (a regex over the path,
/// kiro-facts): converted to Kiro they were kept as an unknown rule key with no loss said, so
/// the hook would fire for every file saved. Now each is a loss located at the globs, and the
/// list holds nothing its reader does not know.
#[test]
fn a_kiro_ide_hooks_file_patterns_are_a_located_loss_in_a_v1_list() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        ".kiro/hooks/lint.kiro.hook",
        "{\"name\": \"Lint\", \"version\": \"1\",\n \"when\": {\"type\": \"fileEdited\",\n  \"patterns\": [\"src/**/*.ts\"], \"excludePatterns\": [\"dist/**\"]},\n \"then\": {\"type\": \"runCommand\", \"command\": \"npm run lint\"}}",
    );
    let (doc, report) = convert(
        tmp.path(),
        ".kiro/hooks/lint.kiro.hook",
        "kiro",
        "kiro",
        &["--no-wrap"],
    );
    let rule = &doc["hooks"][0];
    assert_eq!(rule["trigger"], "PostFileSave", "{doc:#}");
    assert_eq!(rule["action"]["command"], "npm run lint", "{doc:#}");
    assert!(
        rule.get("patterns").is_none() && rule.get("excludePatterns").is_none(),
        "{doc:#}"
    );
    let losses = report["losses"].as_array().cloned().unwrap_or_default();
    assert_eq!(losses.len(), 1, "{report:#}");
    let loss = &losses[0];
    let what = loss["what"].as_str().unwrap();
    assert!(
        what.contains("`patterns`") && what.contains("`excludePatterns`"),
        "{loss:#}"
    );
    assert!(
        loss["why"].as_str().unwrap().contains("every file"),
        "{loss:#}"
    );
    assert_eq!(loss["line"], 3, "located at the globs: {loss:#}");
    // Read back as the list it is: nothing unknown in it.
    common::write(tmp.path(), ".kiro/hooks/lint.json", &doc.to_string());
    let out = common::hookx_clean(tmp.path())
        .args(["validate", "--from", "kiro", ".kiro/hooks/lint.json"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(said.contains("0 error(s), 0 warning(s)"), "{said}");
}

/// The IDE's spec-task triggers (`preTaskExecution`, `postTaskExecution`: the Kiro IDE writes
/// them, victorrentea/petclinic `.kiro/hooks/post-task-review.kiro.hook` holds one) are read as
/// the v1 list's `PreTaskExec` and `PostTaskExec`: they convert to a Kiro list, and a dialect
/// with no such event reports the rule lost; no file holding one is refused.
#[test]
fn kiro_ide_spec_task_triggers_convert() {
    let tmp = tempfile::tempdir().unwrap();
    for (file, trigger) in [
        ("before.kiro.hook", "preTaskExecution"),
        ("after.kiro.hook", "postTaskExecution"),
    ] {
        common::write(
            tmp.path(),
            &format!(".kiro/hooks/{file}"),
            &format!(
                r#"{{"enabled": true, "name": "review", "version": "1",
                    "when": {{"type": "{trigger}"}},
                    "then": {{"type": "runCommand", "command": "./review.sh"}}}}"#
            ),
        );
    }
    for (file, event) in [
        ("before.kiro.hook", "PreTaskExec"),
        ("after.kiro.hook", "PostTaskExec"),
    ] {
        let file = format!(".kiro/hooks/{file}");
        let (doc, _) = convert(tmp.path(), &file, "kiro", "kiro", &["--no-wrap"]);
        let rules = doc["hooks"].as_array().unwrap();
        assert_eq!(rules.len(), 1, "{doc:#}");
        assert_eq!(rules[0]["trigger"], event, "{doc:#}");
        assert_eq!(rules[0]["action"]["command"], "./review.sh", "{doc:#}");

        let (doc, report) = convert(tmp.path(), &file, "kiro", "claude", &[]);
        assert_eq!(doc["hooks"], serde_json::json!({}), "{doc:#}");
        let lost = losses(&report);
        assert!(
            lost.len() == 1 && lost[0].contains(&format!("`{event}`")),
            "{lost:#?}"
        );
    }
}

/// Kiro's older forms convert like its v1 lists: `hooks` as a map of camelCase events in a
/// Kiro CLI 2 agent config (its `timeout_ms` in seconds, an unknown event one located loss, the
/// rest converted) and the IDE's one-rule `.kiro.hook` (its trigger, tools and action). Both
/// come back from Claude as the same Kiro rules, never wrapped twice.
#[test]
fn kiro_agent_configs_and_ide_hook_files_convert() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        ".kiro/agents/dev.json",
        r#"{"name": "dev", "tools": ["*"], "hooks": {
            "agentSpawn": [{"command": "git status"}],
            "preToolUse": [{"matcher": "execute_bash", "command": "./guard.sh", "timeout_ms": 5000}],
            "postToolUse": [{"matcher": "fs_write", "command": "cargo fmt"}],
            "agentExplode": [{"command": "x"}]
        }}"#,
    );
    common::write(
        tmp.path(),
        ".kiro/hooks/guard.kiro.hook",
        r#"{"name": "guard", "version": "1", "when": {"type": "preToolUse", "tools": ["execute_bash"]},
            "then": {"type": "runCommand", "command": "./ide-guard.sh"}}"#,
    );
    let (doc, report) = convert(
        tmp.path(),
        ".kiro/agents/dev.json",
        "kiro",
        "claude",
        &["--no-wrap"],
    );
    let lost = losses(&report);
    assert_eq!(
        lost.iter()
            .filter(|l| l.contains("/hooks/agentExplode"))
            .count(),
        1,
        "one unknown event, one loss: {lost:#?}"
    );
    let hooks = &doc["hooks"];
    assert_eq!(
        hooks["SessionStart"][0]["hooks"][0]["command"], "git status",
        "{doc:#}"
    );
    assert_eq!(hooks["PreToolUse"][0]["matcher"], "Bash", "{doc:#}");
    assert_eq!(hooks["PreToolUse"][0]["hooks"][0]["command"], "./guard.sh");
    assert_eq!(hooks["PreToolUse"][0]["hooks"][0]["timeout"], 5, "5000 ms");
    assert_eq!(hooks["PostToolUse"][0]["matcher"], "Write", "{doc:#}");
    assert_eq!(hooks.as_object().unwrap().len(), 3, "{doc:#}");

    let (doc, _) = convert(
        tmp.path(),
        ".kiro/hooks/guard.kiro.hook",
        "kiro",
        "claude",
        &[],
    );
    let group = &doc["hooks"]["PreToolUse"][0];
    assert_eq!(group["matcher"], "Bash", "{doc:#}");
    let line = group["hooks"][0]["command"].as_str().unwrap();
    assert!(
        line.contains("./ide-guard.sh") && line.contains("--as kiro"),
        "{line}"
    );

    // Back from Claude: the Kiro rule as it was read, unwrapped.
    common::write(tmp.path(), "claude.json", &doc.to_string());
    let (back, _) = convert(tmp.path(), "claude.json", "claude", "kiro", &[]);
    let rules = back["hooks"].as_array().unwrap();
    assert_eq!(rules.len(), 1, "{back:#}");
    assert_eq!(rules[0]["trigger"], "PreToolUse");
    assert_eq!(rules[0]["matcher"], "execute_bash");
    assert_eq!(rules[0]["action"]["command"], "./ide-guard.sh", "{back:#}");

    // Read, never written: `--write` into either form refuses and leaves the file as it was.
    common::write(
        tmp.path(),
        ".kiro/agents/clean.json",
        r#"{"name": "clean", "hooks": {"stop": [{"command": "npm test"}]}}"#,
    );
    for file in [".kiro/agents/clean.json", ".kiro/hooks/guard.kiro.hook"] {
        let before = std::fs::read(tmp.path().join(file)).unwrap();
        let out = common::hookx_clean(tmp.path())
            .args([
                "convert",
                "claude.json",
                "--from",
                "claude",
                "--to",
                "kiro",
                "--write",
            ])
            .args(["--out", file])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains("does not write"),
            "{file}: {err}"
        );
        assert_eq!(
            std::fs::read(tmp.path().join(file)).unwrap(),
            before,
            "{file}"
        );
    }
}

/// Attacks row 1574: a Kiro hook file holding one rule at its top, outside a `hooks` list, in
/// no form Kiro documents (real files: SamG1123/kiroween-Legacy-Lens `.kiro/hooks/*.json`,
/// `"trigger": {"type": "manual"}` beside an `action`; llamojha/no-vibe-no-code-kiroween, beside
/// a `prompt`). hookx reads no rule of it; `validate` said "0 error(s), 0 warning(s)" and
/// `convert` "no hooks found", as of an agent config without hooks. Now both name the rule
/// where it is; an agent config without hooks stays quiet.
#[test]
fn a_kiro_rule_outside_a_hooks_list_is_a_located_error() {
    let tmp = tempfile::tempdir().unwrap();
    common::write(
        tmp.path(),
        ".kiro/hooks/code-review.json",
        "{\n  \"name\": \"Code Review\",\n  \"enabled\": true,\n  \"trigger\": {\n    \"type\": \"manual\"\n  },\n  \"action\": {\"type\": \"sendMessage\", \"message\": \"Review the open file\"}\n}\n",
    );
    common::write(
        tmp.path(),
        ".kiro/hooks/index.json",
        "{\n  \"name\": \"Update Structure Index\",\n  \"trigger\": {\"type\": \"manual\", \"label\": \"Update\"},\n  \"prompt\": \"Update structure.md\"\n}\n",
    );
    common::write(
        tmp.path(),
        ".kiro/agents/helper.json",
        r#"{"name": "helper", "description": "d", "tools": ["fs_read"]}"#,
    );
    for (file, line) in [
        (".kiro/hooks/code-review.json", 4),
        (".kiro/hooks/index.json", 3),
    ] {
        for args in [
            vec!["validate", file],
            vec!["convert", file, "--to", "claude"],
        ] {
            let out = common::hookx_clean(tmp.path())
                .args(&args)
                .output()
                .unwrap();
            let said = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(out.status.code(), Some(1), "{args:?}: {said}");
            assert!(
                said.contains(&format!("{file}:{line}:"))
                    && said.contains("outside a `hooks` list")
                    && said.contains("the rule is not read"),
                "{args:?}: {said}"
            );
        }
    }
    let out = common::hookx_clean(tmp.path())
        .args(["validate", ".kiro/agents/helper.json"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("0 error(s), 0 warning(s)"), "{said}");
}
