//! Discovery, `hookx list` and `hookx trust` over sample project trees
//! (`tests/fixtures/projects/`), each copied into a temporary directory so that nothing touches
//! the real home and trust records stay per test.

mod common;

use assert_cmd::Command;
use common::{copy_tree, fixtures_dir};
use hookx::dialect::{bricks, claude, copilot, droid, gemini};
use hookx::discover::{self, Context, Runner};
use hookx::tables::Dialect;
use hookx::tables::Scope;
use hookx::trust::{self, TrustState, TrustStore};
use serde_json::json;
use std::path::PathBuf;

/// A copy of a fixture tree: `<tmp>/project` and `<tmp>/home`.
struct Tree {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Tree {
    fn new(fixture: &str) -> Tree {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        copy_tree(&fixtures_dir().join("projects").join(fixture), &root);
        std::fs::create_dir_all(root.join("project")).unwrap();
        std::fs::create_dir_all(root.join("home")).unwrap();
        Tree { _dir: dir, root }
    }

    fn project(&self) -> PathBuf {
        self.root.join("project")
    }

    fn home(&self) -> PathBuf {
        self.root.join("home")
    }

    fn ctx(&self) -> Context {
        Context::new(self.project(), self.home())
    }

    fn write(&self, rel: &str, text: &str) {
        common::write(&self.root, rel, text);
    }

    /// `hookx ARGS… --project P --home H` with the environment pointing at the temporary home.
    fn hookx(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        common::hookx_at(&self.project(), &self.home(), args)
    }

    fn stdout(&self, args: &[&str]) -> String {
        let out = self.hookx(args).success().get_output().stdout.clone();
        String::from_utf8(out).unwrap()
    }

    /// Output with the temporary directory replaced, for snapshots.
    fn redact(&self, text: &str) -> String {
        text.replace(&self.root.display().to_string(), "[TMP]")
    }
}

/// Whether a rule has a handler running the user's `~/bin/audit-shell.sh`.
fn runs_audit_shell(rule: &discover::EffectiveRule<'_>) -> bool {
    rule.rule.handlers.iter().any(|h| {
        matches!(&h.kind, hookx::model::HandlerKind::Command(c)
            if c.command.as_deref() == Some("~/bin/audit-shell.sh"))
    })
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({snapshot_path => "../snapshots/discover", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn every_scope_is_found_and_files_without_hooks_are_not() {
    let tree = Tree::new("full");
    let sources = discover::discover(&tree.ctx());
    let found: Vec<(&str, Scope, &str)> = sources
        .iter()
        .map(|s| (s.location.id, s.scope, s.display.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("claude-user", Scope::User, "~/.claude/settings.json"),
            ("claude-project", Scope::Project, ".claude/settings.json"),
            ("claude-local", Scope::Local, ".claude/settings.local.json"),
            (
                "claude-plugin",
                Scope::Plugin,
                "~/.claude/plugins/cache/tools/fmt/1.2.0/hooks/hooks.json"
            ),
            (
                "claude-skill-user",
                Scope::Skill,
                "~/.claude/skills/deploy/SKILL.md"
            ),
            (
                "claude-skill-project",
                Scope::Skill,
                ".claude/skills/lint/SKILL.md"
            ),
            (
                "claude-agent-user",
                Scope::Agent,
                "~/.claude/agents/reviewer.md"
            ),
            (
                "claude-agent-project",
                Scope::Agent,
                ".claude/agents/tester.md"
            ),
            ("copilot-user", Scope::User, "~/.copilot/hooks/user.json"),
            (
                "copilot-project",
                Scope::Project,
                ".github/hooks/broken.json"
            ),
            ("copilot-project", Scope::Project, ".github/hooks/ci.json"),
            (
                "bricks-global",
                Scope::Global,
                "~/.bricks-project-desktop/hooks.json"
            ),
            ("bricks-project", Scope::Project, ".bricks/hooks.json"),
        ]
    );
    let plugin = &sources[3];
    assert_eq!(
        plugin.plugin_root().unwrap(),
        tree.home().join(".claude/plugins/cache/tools/fmt/1.2.0")
    );
}

#[test]
fn a_broken_file_is_reported_and_the_others_still_count() {
    let tree = Tree::new("full");
    let sources = discover::discover(&tree.ctx());
    let broken: Vec<_> = sources.iter().filter(|s| s.document.is_err()).collect();
    assert_eq!(broken.len(), 1);
    assert_eq!(broken[0].display, ".github/hooks/broken.json");
    let error = broken[0].error_line().unwrap();
    assert!(error.contains("invalid JSON"), "{error}");
    assert!(sources.iter().filter(|s| s.document.is_ok()).count() == 12);

    let text = tree.stdout(&["list"]);
    let line = text.lines().find(|l| l.contains("broken.json")).unwrap();
    assert!(
        line.ends_with("error: 5:46: invalid JSON: trailing comma"),
        "{text}"
    );
    assert!(text.contains("./scripts/guard.sh"), "{text}");
    // JSON stays an array of hooks; the error goes to stderr.
    let assert = tree.hookx(&["list", "--format", "json"]).success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(
        stderr.contains(".github/hooks/broken.json: error: 5:46"),
        "{stderr}"
    );
}

#[test]
fn unreadable_and_odd_files_never_stop_discovery() {
    let tree = Tree::new("full");
    tree.write("project/.bricks/hooks.json", "");
    tree.write("project/.claude/settings.local.json", "[1, 2]");
    std::fs::write(
        tree.project().join(".github/hooks/bad-utf8.json"),
        b"{\"a\": \"\xff\"}",
    )
    .unwrap();
    std::fs::create_dir_all(tree.project().join(".github/hooks/dir.json")).unwrap();
    tree.write(
        "project/.claude/skills/broken/SKILL.md",
        "---\nhooks: [unclosed\n---\n",
    );
    let sources = discover::discover(&tree.ctx());
    let errors: Vec<(String, String)> = sources
        .iter()
        .filter_map(|s| Some((s.display.clone(), s.error_line()?)))
        .collect();
    let names: Vec<&str> = errors.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            ".claude/skills/broken/SKILL.md",
            ".github/hooks/bad-utf8.json",
            ".github/hooks/broken.json",
            ".bricks/hooks.json",
        ],
        "{errors:?}"
    );
    // A top-level array parses but is not a config: the document reports an error.
    let local = sources
        .iter()
        .find(|s| s.location.id == "claude-local")
        .unwrap();
    assert!(
        local
            .diagnostics
            .iter()
            .any(|d| d.message.contains("top level"))
    );
    let text = tree.stdout(&["list"]);
    let line = text
        .lines()
        .find(|l| l.contains("settings.local.json"))
        .unwrap();
    assert!(line.ends_with("0 handlers, 1 error"), "{text}");
}

#[test]
fn bricks_global_and_project_merge_and_identical_handlers_run_once() {
    let tree = Tree::new("full");
    let sources = discover::discover(&tree.ctx());
    let rules = discover::effective_rules(&sources, &TrustStore::default());
    let bricks: Vec<(String, String, String)> = rules
        .iter()
        .filter(|r| r.source.dialect == bricks::DIALECT)
        .flat_map(|r| {
            r.rule.handlers.iter().map(|h| {
                let hookx::model::HandlerKind::Command(c) = &h.kind else {
                    panic!("bricks handlers are commands")
                };
                (
                    r.rule.event.to_string(),
                    c.command.clone().unwrap(),
                    r.source.display.clone(),
                )
            })
        })
        .collect();
    assert_eq!(
        bricks,
        [
            (
                "PreToolUse".to_string(),
                "~/.bricks/guard.sh".to_string(),
                "~/.bricks-project-desktop/hooks.json".to_string()
            ),
            (
                "GoalUpdate".to_string(),
                "notify-send 'goal complete'".to_string(),
                "~/.bricks-project-desktop/hooks.json".to_string()
            ),
            (
                "PreToolUse".to_string(),
                "./scripts/check-write.sh".to_string(),
                ".bricks/hooks.json".to_string()
            ),
        ]
    );
}

#[test]
fn claude_runs_an_identical_command_once_across_scopes() {
    let tree = Tree::new("full");
    let sources = discover::discover(&tree.ctx());
    let rules = discover::effective_rules(&sources, &TrustStore::default());
    let audit: Vec<&str> = rules
        .iter()
        .filter(|r| runs_audit_shell(r))
        .map(|r| r.source.display.as_str())
        .collect();
    assert_eq!(audit, ["~/.claude/settings.json"]);
    // The project group keeps its other handler.
    let project = rules
        .iter()
        .find(|r| r.source.display == ".claude/settings.json")
        .unwrap();
    assert_eq!(project.rule.handlers.len(), 1);
}

#[test]
fn disable_all_hooks_follows_claude_precedence() {
    let tree = Tree::new("full");
    // `disableAllHooks` counts only in trusted files: every file is trusted here.
    let trust_all = |sources: &[discover::Source]| {
        let mut store = TrustStore::default();
        for s in sources {
            store.trust_source(s);
        }
        store
    };
    let claude_rules = |tree: &Tree| {
        let sources = discover::discover(&tree.ctx());
        discover::effective_rules(&sources, &trust_all(&sources))
            .iter()
            .filter(|r| r.source.dialect == claude::DIALECT)
            .count()
    };
    assert_eq!(claude_rules(&tree), 9);
    // User turns hooks off: every Claude source is off, other agents are untouched.
    tree.write(
        "home/.claude/settings.json",
        r#"{"disableAllHooks": true, "hooks": {}, "enabledPlugins": {"fmt@tools": true}}"#,
    );
    assert_eq!(claude_rules(&tree), 0);
    let sources = discover::discover(&tree.ctx());
    let store = trust_all(&sources);
    assert_eq!(
        discover::hooks_disabled(&sources, claude::DIALECT, &store)
            .unwrap()
            .display,
        "~/.claude/settings.json"
    );
    // Untrusted, the same file turns nothing off.
    assert!(discover::hooks_disabled(&sources, claude::DIALECT, &TrustStore::default()).is_none());
    assert!(
        discover::effective_rules(&sources, &store)
            .iter()
            .any(|r| r.source.dialect == bricks::DIALECT)
    );
    tree.hookx(&["trust", "--yes"]).code(1);
    let text = tree.stdout(&["list"]);
    assert!(
        text.contains("\"disableAllHooks\": true in ~/.claude/settings.json"),
        "{text}"
    );
    // The project's local settings win over the user's (and the local file now has no hooks).
    tree.write(
        "project/.claude/settings.local.json",
        r#"{"disableAllHooks": false}"#,
    );
    assert_eq!(claude_rules(&tree), 7);
}

/// Gemini CLI: `hooksConfig.enabled: false` runs no hook (its extensions' included); the
/// project's settings win over the user's (settings merge, source). Counted in trusted files.
#[test]
fn gemini_hooks_config_enabled_false_turns_gemini_hooks_off() {
    let tree = Tree::new("empty");
    let hooks = r#""hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "g"}]}]}"#;
    tree.write(
        "home/.gemini/settings.json",
        &format!(r#"{{"hooksConfig": {{"enabled": false}}, {hooks}}}"#),
    );
    tree.write(
        "home/.gemini/extensions/x/hooks/hooks.json",
        &format!("{{{}}}", hooks.replace("\"g\"", "\"e\"")),
    );
    tree.write(
        "project/.claude/settings.json",
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "c"}]}]}}"#,
    );
    let rules = |tree: &Tree| {
        let sources = discover::discover(&tree.ctx());
        let mut store = TrustStore::default();
        for s in &sources {
            store.trust_source(s);
        }
        let rules = discover::effective_rules(&sources, &store);
        let of = |d| rules.iter().filter(|r| r.source.dialect == d).count();
        (of(gemini::DIALECT), of(claude::DIALECT))
    };
    assert_eq!(rules(&tree), (0, 1));
    tree.hookx(&["trust", "--yes"]).success();
    let text = tree.stdout(&["list"]);
    assert!(
        text.contains(r#""hooksConfig": {"enabled": false} in ~/.gemini/settings.json"#),
        "{text}"
    );
    tree.write(
        "project/.gemini/settings.json",
        r#"{"hooksConfig": {"enabled": true}}"#,
    );
    assert_eq!(rules(&tree), (2, 1));
    // `hooksConfig.disabled` names handlers by `name`, else by command (run 0.61.0).
    tree.write(
        "project/.gemini/settings.json",
        r#"{"hooksConfig": {"enabled": true, "disabled": ["e", "guard"]},
            "hooks": {"AfterTool": [{"hooks": [
                {"type": "command", "name": "guard", "command": "p"},
                {"type": "command", "command": "q"}]}]}}"#,
    );
    assert_eq!(rules(&tree), (2, 1));
    let sources = discover::discover(&tree.ctx());
    let mut store = TrustStore::default();
    for s in &sources {
        store.trust_source(s);
    }
    let commands: Vec<String> = discover::effective_rules(&sources, &store)
        .iter()
        .filter(|r| r.source.dialect == gemini::DIALECT)
        .flat_map(|r| r.rule.handlers.clone())
        .map(|h| match h.kind {
            hookx::model::HandlerKind::Command(c) => c.command.unwrap_or_default(),
            _ => String::new(),
        })
        .collect();
    assert_eq!(commands, ["g", "q"]);
}

#[test]
fn list_as_a_table() {
    let tree = Tree::new("full");
    let text = tree.stdout(&["list"]);
    snapshot("list_text", &tree.redact(&text));
}

#[test]
fn list_under_a_host_says_who_runs_what() {
    let tree = Tree::new("full");
    let text = tree.stdout(&["list", "--host", "copilot"]);
    snapshot("list_text_host_copilot", &tree.redact(&text));
}

#[test]
fn list_as_json() {
    let tree = Tree::new("full");
    let text = tree.stdout(&["list", "--format", "json", "--host", "bricks"]);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert!(value.is_array());
    snapshot("list_json_host_bricks", &tree.redact(&text));
}

#[test]
fn the_native_table_matches_the_agents() {
    let tree = Tree::new("full");
    let sources = discover::discover(&tree.ctx());
    let run = |host: Dialect, id: &str| {
        let s = sources.iter().find(|s| s.location.id == id).unwrap();
        discover::runner(host, s)
    };
    assert_eq!(run(claude::DIALECT, "claude-plugin"), Runner::Native);
    assert_eq!(run(claude::DIALECT, "bricks-project"), Runner::Hookx);
    // The project's settings hold a `prompt` handler on Stop, for which Copilot 1.0.102 drops
    // the whole file (conformance/copilot-facts.md): only hookx's route runs it there.
    assert_eq!(run(copilot::DIALECT, "claude-project"), Runner::Hookx);
    assert_eq!(run(copilot::DIALECT, "claude-local"), Runner::Native);
    assert_eq!(run(copilot::DIALECT, "claude-user"), Runner::Hookx);
    assert_eq!(
        run(copilot::DIALECT, "claude-skill-project"),
        Runner::Inactive
    );
    assert_eq!(run(bricks::DIALECT, "copilot-user"), Runner::Hookx);
    assert_eq!(run(bricks::DIALECT, "bricks-global"), Runner::Native);
    let settings = sources
        .iter()
        .find(|s| s.location.id == "claude-project")
        .unwrap();
    assert!(!discover::needs_trust(claude::DIALECT, settings));
    assert!(discover::needs_trust(bricks::DIALECT, settings));
}

/// The trust column of the list's JSON for one file.
fn trust_of(tree: &Tree, file: &str) -> String {
    let text = tree.stdout(&["list", "--format", "json"]);
    let rows: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let row = rows.iter().find(|r| r["file"] == file).unwrap();
    row["trust"].as_str().unwrap().to_string()
}

#[test]
fn trust_goes_untrusted_then_trusted_then_changed() {
    let tree = Tree::new("full");
    let file = ".bricks/hooks.json";
    let ctx = tree.ctx();
    let source = |ctx: &Context| {
        discover::discover(ctx)
            .into_iter()
            .find(|s| s.display == file)
            .unwrap()
    };
    assert_eq!(
        trust::is_trusted(&ctx, &source(&ctx)),
        TrustState::Untrusted
    );
    assert_eq!(trust_of(&tree, file), "untrusted");

    let out = tree.stdout(&["trust", &tree.project().join(file).display().to_string()]);
    assert!(
        out.starts_with("trusted .bricks/hooks.json (sha256 "),
        "{out}"
    );
    assert_eq!(trust::is_trusted(&ctx, &source(&ctx)), TrustState::Trusted);
    assert_eq!(trust_of(&tree, file), "trusted");
    assert_eq!(trust_of(&tree, ".claude/settings.json"), "untrusted");
    // Trusting again changes nothing.
    let out = tree.stdout(&["trust", &tree.project().join(file).display().to_string()]);
    assert!(
        out.starts_with("already trusted .bricks/hooks.json"),
        "{out}"
    );

    let path = tree.project().join(file);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push('\n');
    std::fs::write(&path, text).unwrap();
    assert_eq!(trust::is_trusted(&ctx, &source(&ctx)), TrustState::Changed);
    assert_eq!(trust_of(&tree, file), "changed");

    // The record is in the resolved home, written whole.
    let record = tree.home().join(".hookx/trust.json");
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
    assert_eq!(value["version"], 2);
    let record = &value["trusted"][0];
    assert_eq!(
        record["path"],
        path.canonicalize().unwrap().display().to_string()
    );
    assert_eq!(record["location"], "bricks-project");
    assert_eq!(record["dialect"], "bricks");
    assert_eq!(record["sha256"].as_str().unwrap().len(), 64);
}

#[test]
fn trust_without_files_trusts_every_source_that_parses() {
    let tree = Tree::new("full");
    let assert = tree.hookx(&["trust", "--yes"]).code(1);
    let out = String::from_utf8_lossy(&assert.get_output().stdout).to_string();
    let err = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    // The review of the 12 files, then one line for each.
    assert!(out.starts_with("hookx trust: 12 files to review"), "{out}");
    let trusted = out.lines().filter(|l| l.starts_with("trusted "));
    assert_eq!(trusted.count(), 12, "{out}");
    assert!(
        out.contains("trusted ~/.claude/settings.json (sha256 "),
        "{out}"
    );
    assert!(
        err.contains(".github/hooks/broken.json: not trusted: 5:46"),
        "{err}"
    );
    let text = tree.stdout(&["list", "--format", "json"]);
    let rows: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert!(rows.iter().all(|r| r["trust"] == "trusted"), "{text}");
}

#[test]
fn dispatch_rules_are_the_trusted_ones_the_host_does_not_run() {
    let tree = Tree::new("full");
    let ctx = tree.ctx();
    // Which plugins hookx may run depends on the trusted settings: discovered with the store.
    let files = |store: &TrustStore| -> Vec<String> {
        let sources = discover::discover_trusting(&ctx, store);
        let mut files: Vec<String> = discover::dispatch_rules(&sources, bricks::DIALECT, store)
            .iter()
            .map(|r| r.source.display.clone())
            .collect();
        files.dedup();
        files
    };
    assert!(files(&TrustStore::load_or_empty(&ctx)).is_empty());
    tree.hookx(&["trust", "--yes"]).code(1);
    let store = TrustStore::load(&ctx).unwrap();
    // Bricks' own files are native; skills and agents are inactive outside Claude.
    assert_eq!(
        files(&store),
        [
            "~/.claude/settings.json",
            ".claude/settings.json",
            ".claude/settings.local.json",
            "~/.claude/plugins/cache/tools/fmt/1.2.0/hooks/hooks.json",
            "~/.copilot/hooks/user.json",
            ".github/hooks/ci.json",
        ]
    );
}

#[test]
fn an_identical_handler_from_an_untrusted_file_does_not_hide_a_trusted_one() {
    let tree = Tree::new("full");
    let ctx = tree.ctx();
    // Trust only the project settings: its audit handler was a duplicate of the user's.
    tree.hookx(&[
        "trust",
        &tree
            .project()
            .join(".claude/settings.json")
            .display()
            .to_string(),
    ])
    .success();
    let sources = discover::discover(&ctx);
    let store = TrustStore::load(&ctx).unwrap();
    let rules = discover::dispatch_rules(&sources, bricks::DIALECT, &store);
    assert_eq!(rules.len(), 2);
    assert_eq!(rules[0].rule.handlers.len(), 2);
}

#[test]
fn a_corrupt_trust_record_trusts_nothing_and_is_not_overwritten() {
    let tree = Tree::new("full");
    tree.write("home/.hookx/trust.json", "{ not json");
    let assert = tree.hookx(&["list", "--format", "json"]).success();
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(
        stderr.contains("treating every file as untrusted"),
        "{stderr}"
    );
    tree.hookx(&["trust", "--yes"]).failure();
    assert_eq!(
        std::fs::read_to_string(tree.home().join(".hookx/trust.json")).unwrap(),
        "{ not json"
    );
}

#[test]
fn the_home_comes_from_hookx_home_when_not_given() {
    let tree = Tree::new("full");
    let out = Command::cargo_bin("hookx")
        .unwrap()
        .args(["list", "--format", "json", "--project"])
        .arg(tree.project())
        .env("HOOKX_HOME", tree.home())
        .env("HOME", tree.root.join("nowhere"))
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("~/.claude/settings.json"), "{text}");
}

/// Plugin hook files come from Claude's registries: a plugin that is downloaded only (in a
/// marketplace clone), installed but not enabled, or anywhere else below `~/.claude/plugins`
/// is listed as off and never runs, under any host.
#[test]
fn only_plugins_claude_loads_are_hook_sources() {
    let tree = Tree::new("full");
    let hooks = r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "off"}]}]}}"#;
    // Downloaded with the marketplace, not installed.
    tree.write(
        "home/.claude/plugins/marketplaces/tools/plugins/lint/hooks/hooks.json",
        hooks,
    );
    // Installed, then disabled.
    tree.write(
        "home/.claude/plugins/cache/tools/audit/2.0.0/hooks/hooks.json",
        hooks,
    );
    let registry = tree.home().join(".claude/plugins/installed_plugins.json");
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&registry).unwrap()).unwrap();
    record["plugins"]["audit@tools"] = serde_json::json!([{
        "scope": "user",
        "installPath": tree.home().join(".claude/plugins/cache/tools/audit/2.0.0"),
        "version": "2.0.0",
    }]);
    std::fs::write(&registry, record.to_string()).unwrap();
    let settings = tree.home().join(".claude/settings.json");
    let text = std::fs::read_to_string(&settings).unwrap();
    std::fs::write(
        &settings,
        text.replace(
            r#""fmt@tools": true"#,
            r#""fmt@tools": true, "audit@tools": false"#,
        ),
    )
    .unwrap();
    // Not a plugin layout at all: never a source.
    tree.write("home/.claude/plugins/a/b/hooks/hooks.json", hooks);
    let sources = discover::discover(&tree.ctx());
    let plugins: Vec<(&str, Option<&str>)> = sources
        .iter()
        .filter(|s| s.scope == Scope::Plugin)
        .map(|s| (s.display.as_str(), s.plugin.map(|p| p.agent.name())))
        .collect();
    assert_eq!(
        plugins,
        [
            (
                "~/.claude/plugins/cache/tools/fmt/1.2.0/hooks/hooks.json",
                Some("loaded")
            ),
            (
                "~/.claude/plugins/marketplaces/tools/plugins/lint/hooks/hooks.json",
                Some("not-installed")
            ),
            (
                "~/.claude/plugins/cache/tools/audit/2.0.0/hooks/hooks.json",
                Some("disabled")
            ),
        ]
    );
    let mut store = TrustStore::default();
    for source in &sources {
        store.trust_source(source);
    }
    let runs_off = |rules: &[discover::EffectiveRule<'_>]| {
        rules.iter().any(|r| {
            r.rule.handlers.iter().any(|h| {
                matches!(&h.kind, hookx::model::HandlerKind::Command(c)
                    if c.command.as_deref() == Some("off"))
            })
        })
    };
    assert!(!runs_off(&discover::effective_rules(&sources, &store)));
    for &host in Dialect::all() {
        assert!(!runs_off(&discover::dispatch_rules(&sources, host, &store)));
        assert!(!runs_off(&discover::host_rules(&sources, host, &store)));
        for source in sources.iter().filter(|s| !s.is_loaded_by_its_agent()) {
            assert_eq!(discover::runner(host, source), Runner::Off);
        }
    }
    let text = tree.stdout(&["list"]);
    assert!(
        text.contains("off: plugin installed but not enabled"),
        "{text}"
    );
    assert!(text.contains("off: plugin not installed"), "{text}");
}

#[test]
fn a_project_that_is_the_home_lists_each_file_once() {
    let tree = Tree::new("full");
    let ctx = Context::new(tree.home(), tree.home());
    let sources = discover::discover(&ctx);
    let settings: Vec<&str> = sources
        .iter()
        .filter(|s| s.path.ends_with(".claude/settings.json"))
        .map(|s| s.location.id)
        .collect();
    assert_eq!(settings, ["claude-user"]);
}

#[test]
fn an_empty_project_lists_nothing() {
    let tree = Tree::new("empty");
    let text = tree.stdout(&["list"]);
    assert_eq!(text, "no hooks found\n\nno hook files found\n");
    assert_eq!(tree.stdout(&["list", "--format", "json"]), "[]\n");
}

#[test]
fn a_handler_the_host_runs_natively_is_not_run_again_by_hookx() {
    let tree = Tree::new("full");
    let ctx = tree.ctx();
    // Without its `prompt` Stop handler, for which Copilot drops the whole file (below).
    let settings = tree.project().join(".claude/settings.json");
    let full = std::fs::read_to_string(&settings).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&full).unwrap();
    value["hooks"].as_object_mut().unwrap().remove("Stop");
    tree.write("project/.claude/settings.json", &value.to_string());
    tree.hookx(&["trust", "--yes"]).code(1);
    let sources = discover::discover(&ctx);
    let store = TrustStore::load(&ctx).unwrap();
    let audit = |rules: &[discover::EffectiveRule<'_>]| -> Vec<String> {
        rules
            .iter()
            .filter(|r| runs_audit_shell(r))
            .map(|r| r.source.display.clone())
            .collect()
    };
    // Copilot runs the project's Claude settings itself, audit handler included: the user's
    // identical handler is not dispatched on top, and the list says so.
    assert!(
        audit(&discover::dispatch_rules(
            &sources,
            copilot::DIALECT,
            &store
        ))
        .is_empty()
    );
    assert_eq!(
        audit(&discover::host_rules(&sources, copilot::DIALECT, &store)),
        [".claude/settings.json"]
    );
    // Under Bricks neither file is native: the user's copy comes first and runs once.
    assert_eq!(
        audit(&discover::dispatch_rules(&sources, bricks::DIALECT, &store)),
        ["~/.claude/settings.json"]
    );
    // With it, Copilot runs none of the project's file: hookx runs the handler, once.
    tree.write("project/.claude/settings.json", &full);
    tree.hookx(&["trust", "--yes"]).code(1);
    let sources = discover::discover(&ctx);
    let store = TrustStore::load(&ctx).unwrap();
    assert_eq!(
        audit(&discover::dispatch_rules(
            &sources,
            copilot::DIALECT,
            &store
        )),
        ["~/.claude/settings.json"]
    );
}

/// Droid's switch sits among the events (`hooks.hooksDisabled`, run 0.225.2 in
/// tests/live_droid.rs): set in the user settings, every Droid file is off, the project's
/// `hooks.json` included; `list` names it; the file still validates.
#[test]
fn droid_hooks_disabled_among_the_events_turns_droid_off() {
    let tree = Tree::new("full");
    let rule =
        r#"[{"matcher": "Execute", "hooks": [{"type": "command", "command": "./guard.sh"}]}]"#;
    tree.write(
        "project/.factory/hooks.json",
        &format!(r#"{{"PreToolUse": {rule}}}"#),
    );
    let user = |disabled: bool| {
        format!(
            r#"{{"customModels": [], "hooks": {{"hooksDisabled": {disabled}, "Stop": {rule}}}}}"#
        )
    };
    let droid_rules = |tree: &Tree| {
        let sources = discover::discover(&tree.ctx());
        let mut store = TrustStore::default();
        for s in &sources {
            store.trust_source(s);
        }
        discover::effective_rules(&sources, &store)
            .iter()
            .filter(|r| r.source.dialect == droid::DIALECT)
            .count()
    };
    tree.write("home/.factory/settings.json", &user(false));
    assert_eq!(droid_rules(&tree), 2);
    tree.write("home/.factory/settings.json", &user(true));
    assert_eq!(droid_rules(&tree), 0);
    let settings = tree.home().join(".factory/settings.json");
    tree.hookx(&["validate", settings.to_str().unwrap()])
        .success();
    tree.hookx(&["trust", "--yes"]).code(1);
    let text = tree.stdout(&["list"]);
    assert!(
        text.contains(r#""hooks": {"hooksDisabled": true} in ~/.factory/settings.json"#),
        "{text}"
    );
}

/// Kiro's older forms (issue 24): `hooks` in the user's and the project's agent configs
/// (`.kiro/agents/*.json`) and the IDE's `.kiro.hook` files are found by `list` and `doctor`
/// as Kiro files, beside the v1 lists; an agent config without `hooks` is no hook file.
#[test]
fn kiros_older_forms_are_found_as_kiro_files() {
    let tree = Tree::new("empty");
    tree.write(
        "project/.kiro/agents/reviewer.json",
        r#"{"name": "reviewer", "tools": ["fs_read", "execute_bash"], "hooks": {"agentSpawn": [{"command": "git status"}], "preToolUse": [{"matcher": "execute_bash", "command": "./guard.sh", "timeout_ms": 30000}]}}"#,
    );
    tree.write(
        "project/.kiro/agents/plain.json",
        r#"{"name": "plain", "tools": ["fs_read"], "prompt": "hi"}"#,
    );
    tree.write(
        "home/.kiro/agents/mine.json",
        r#"{"name": "mine", "hooks": {"stop": [{"command": "say done"}]}}"#,
    );
    tree.write(
        "project/.kiro/hooks/lint.kiro.hook",
        r#"{"name": "Lint", "version": "1", "when": {"type": "promptSubmit"}, "then": {"type": "runCommand", "command": "npm run lint"}}"#,
    );
    tree.write(
        "project/.kiro/hooks/list.json",
        r#"{"version": "v1", "hooks": [{"name": "n", "trigger": "Stop", "action": {"type": "command", "command": "echo v1"}}]}"#,
    );
    let listed: serde_json::Value =
        serde_json::from_str(&tree.stdout(&["list", "--format", "json"])).unwrap();
    let mut found: Vec<(String, String, String)> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let text = |k: &str| r[k].as_str().unwrap_or_default().to_string();
            (text("file"), text("dialect"), text("event"))
        })
        .collect();
    found.sort();
    let want = |file: &str, event: &str| (file.to_string(), "kiro".to_string(), event.to_string());
    assert_eq!(
        found,
        [
            want(".kiro/agents/reviewer.json", "PreToolUse"),
            want(".kiro/agents/reviewer.json", "SessionStart"),
            want(".kiro/hooks/lint.kiro.hook", "UserPromptSubmit"),
            want(".kiro/hooks/list.json", "Stop"),
            want("~/.kiro/agents/mine.json", "Stop"),
        ],
        "{listed:#}"
    );
    let doctor = tree.stdout(&["doctor", "--host", "kiro"]);
    for file in [
        ".kiro/agents/reviewer.json  (kiro project)",
        "~/.kiro/agents/mine.json  (kiro user)",
        ".kiro/hooks/lint.kiro.hook  (kiro project)",
    ] {
        assert!(doctor.contains(file), "{file} in {doctor}");
    }
    assert!(!doctor.contains("plain.json"), "{doctor}");
}

/// Attacks row 220 for `list`: with `QWEN_HOME` or `COPILOT_HOME` set for the command, Qwen
/// and Copilot read their user hooks in the folder it names, not below the home; `list` reads
/// them there too (it listed `~/.qwen/settings.json` and `~/.copilot/hooks/`, which the agents
/// do not read then).
#[test]
fn list_reads_the_users_hooks_where_the_agents_folder_variables_say() {
    let tree = Tree::new("empty");
    let qwen = |command: &str| {
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}})
        .to_string()
    };
    let copilot = |bash: &str| {
        json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": bash}]}})
            .to_string()
    };
    tree.write("home/.qwen/settings.json", &qwen("./qwen-home.sh"));
    tree.write("home/qwen-alt/settings.json", &qwen("./qwen-alt.sh"));
    tree.write(
        "home/.copilot/hooks/mine.json",
        &copilot("./copilot-home.sh"),
    );
    tree.write(
        "home/copilot-alt/hooks/mine.json",
        &copilot("./copilot-alt.sh"),
    );
    let out = common::hookx()
        .args(["list", "--project"])
        .arg(tree.project())
        .arg("--home")
        .arg(tree.home())
        .env("HOME", tree.home())
        .env("QWEN_HOME", tree.home().join("qwen-alt"))
        .env("COPILOT_HOME", tree.home().join("copilot-alt"))
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for listed in ["./qwen-alt.sh", "./copilot-alt.sh"] {
        assert!(text.contains(listed), "{listed}: {text}");
    }
    for unread in ["./qwen-home.sh", "./copilot-home.sh"] {
        assert!(!text.contains(unread), "{unread}: {text}");
    }
}
