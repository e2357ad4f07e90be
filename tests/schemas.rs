//! The hand-written JSON Schemas in `schemas/` against the fixtures in `tests/fixtures/` and the
//! configs in `examples/`: every valid fixture passes its dialect's schema, every invalid one
//! is rejected (by the schema, or already by the JSON / YAML parser), and each schema is itself
//! a draft-07 document.

mod common;

use hookx::commands::schema::{file_name, schema};
use hookx::dialect::{bricks, claude, copilot, cursor, gemini, kiro, vscode, windsurf};
use hookx::tables::Dialect;
use jsonschema::error::ValidationErrorKind;
use jsonschema::{ValidationError, Validator};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixtures() -> PathBuf {
    root().join("tests").join("fixtures")
}

fn schema_value(dialect: Dialect) -> Value {
    serde_json::from_str(schema(dialect))
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", file_name(dialect)))
}

fn validator(dialect: Dialect) -> Validator {
    jsonschema::draft7::new(&schema_value(dialect))
        .unwrap_or_else(|e| panic!("{} does not compile: {e}", file_name(dialect)))
}

/// The files directly in `dir` whose extension is one of `exts`, sorted by name.
fn files(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.is_file())
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| exts.contains(&e))
        })
        .collect();
    found.sort();
    found
}

fn name(path: &Path) -> &str {
    path.file_name()
        .and_then(|n| n.to_str())
        .expect("UTF-8 file name")
}

/// The YAML frontmatter of a Markdown file: the text between a first line `---` and the next
/// line `---`. `None` when the file has no complete frontmatter.
fn frontmatter(text: &str) -> Option<&str> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches(['\r', '\n']) == "---" {
            return Some(&rest[..offset]);
        }
        offset += line.len();
    }
    None
}

/// Parses YAML into a JSON value, with YAML 1.2 booleans only (`no` stays a string).
fn parse_yaml(yaml: &str) -> Result<Value, String> {
    serde_saphyr::from_str_with_options::<Value>(
        yaml,
        serde_saphyr::options! { strict_booleans: true },
    )
    .map_err(|e| e.to_string())
}

/// Reads a fixture as a JSON value: a `.json` file as JSON, a `.md` file by its frontmatter.
fn load(path: &Path) -> Result<Value, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    match path.extension().and_then(|e| e.to_str()) {
        Some("json") => serde_json::from_slice(&bytes).map_err(|e| e.to_string()),
        Some("md") => {
            let text = std::str::from_utf8(&bytes).map_err(|e| e.to_string())?;
            let yaml = frontmatter(text).ok_or("no YAML frontmatter")?;
            parse_yaml(yaml)
        }
        other => Err(format!("unexpected extension {other:?}")),
    }
}

/// Every error of a validation, with `oneOf` / `anyOf` failures opened up into the errors of
/// their branches, as `(instance path, message)`.
fn leaf_errors(error: &ValidationError<'_>, out: &mut Vec<(String, String)>) {
    match error.kind() {
        ValidationErrorKind::OneOfNotValid { context } | ValidationErrorKind::AnyOf { context } => {
            for branch in context {
                for e in branch {
                    leaf_errors(e, out);
                }
            }
        }
        _ => {}
    }
    out.push((error.instance_path().to_string(), error.to_string()));
}

fn errors(validator: &Validator, instance: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in validator.iter_errors(instance) {
        leaf_errors(&e, &mut out);
    }
    out
}

/// Validates every fixture of `dialect`; returns how many there were and how many are seeds.
fn check_fixtures(dialect: Dialect) -> (usize, usize) {
    let validator = validator(dialect);
    let dir = fixtures().join(dialect.name());
    let paths = files(&dir, &["json", "md"]);
    let mut failures = Vec::new();
    for path in &paths {
        match load(path) {
            Err(e) => failures.push(format!("{}: does not parse: {e}", name(path))),
            Ok(value) => {
                for (at, message) in errors(&validator, &value) {
                    failures.push(format!("{}: {at}: {message}", name(path)));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixtures rejected by {}:\n{}",
        dialect,
        file_name(dialect),
        failures.join("\n")
    );
    let seeds = paths
        .iter()
        .filter(|p| name(p).starts_with("seed-"))
        .count();
    (paths.len(), seeds)
}

// ---------------------------------------------------------------------------------------------
// The schemas themselves

#[test]
fn each_schema_is_a_draft7_document_with_help_text() {
    for &dialect in Dialect::all() {
        let schema = schema_value(dialect);
        let file = file_name(dialect);
        assert_eq!(schema["$schema"], DRAFT_07, "{file}: $schema");
        let id = schema["$id"].as_str().expect("$id");
        assert!(id.ends_with(&format!("/{file}")), "{file}: $id {id}");
        for key in ["title", "description"] {
            let text = schema[key].as_str().unwrap_or_default();
            assert!(!text.is_empty(), "{file}: {key}");
        }
        if let Err(e) = jsonschema::draft7::meta::validate(&schema) {
            panic!(
                "{file} is not a valid draft-07 schema: {e} at {}",
                e.instance_path()
            );
        }
        jsonschema::draft7::new(&schema).unwrap_or_else(|e| panic!("{file}: {e}"));
    }
}

#[test]
fn embedded_schema_text_is_the_file_in_schemas_dir() {
    for &dialect in Dialect::all() {
        let on_disk = std::fs::read_to_string(root().join("schemas").join(file_name(dialect)))
            .expect("schema file");
        assert_eq!(schema(dialect), on_disk, "{}", file_name(dialect));
    }
}

/// In draft-07 a `$ref` replaces its whole object: a `description` beside it would be silently
/// ignored by validators and editors. Descriptions go beside an `allOf: [{$ref}]` instead.
#[test]
fn no_schema_object_has_siblings_of_ref() {
    fn walk(value: &Value, at: &str, bad: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                if map.contains_key("$ref") && map.len() > 1 {
                    bad.push(at.to_string());
                }
                for (k, v) in map {
                    walk(v, &format!("{at}/{k}"), bad);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    walk(v, &format!("{at}/{i}"), bad);
                }
            }
            _ => {}
        }
    }
    for &dialect in Dialect::all() {
        let mut bad = Vec::new();
        walk(&schema_value(dialect), "", &mut bad);
        assert!(
            bad.is_empty(),
            "{}: $ref with siblings at {bad:?}",
            file_name(dialect)
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Valid fixtures and examples

/// The fixtures of every registered dialect whose hooks live in config files pass its schema. (A
/// dialect of hook scripts, Cline, has no config file: its schema is that of a hook's answer.)
/// Attacks row 586: Codex's schema refused a rule whose `matcher` is `null` (a corpus file writes
/// every matcher so), which Codex CLI 0.171.0 loads (`live_codex`,
/// `hooks_json_forms_codex_refuses_whole`) and `hookx validate` takes: an editor marked a file
/// Codex runs as wrong. The schema and validate agree on it.
#[test]
fn codex_schema_takes_a_null_matcher_as_codex_does() {
    let file = json!({"hooks": {"PostToolUse": [{"matcher": null, "hooks": [
        {"type": "command", "command": "echo x", "timeout": 30}]}]}});
    let codex = Dialect::named("codex").unwrap();
    assert!(validator(codex).is_valid(&file), "{file}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hooks.json");
    std::fs::write(&path, file.to_string()).unwrap();
    assert_cmd::Command::cargo_bin("hookx")
        .unwrap()
        .args(["validate", "--from", "codex"])
        .arg(&path)
        .assert()
        .success();
}

/// Copilot CLI 1.0.102 runs a handler written without `type`, in either form: VS Code's flat
/// PascalCase `{"command": …, "timeout": 15}` (1Password/agent-hooks' `.github/hooks/hooks.json`)
/// and a camelCase `{"bash": …}` (`live_copilot::a_hand_copied_guard_in_vscodes_form_runs_as_doctor_says`),
/// and `validate` reads it as a command with a warning; the schema refused it (attacks row 921).
#[test]
fn copilot_schema_takes_a_handler_without_type_as_copilot_does() {
    let file = json!({"version": 1, "hooks": {
        "PreToolUse": [{"command": "bin/run-hook.sh guard", "timeout": 15}],
        "preToolUse": [{"bash": "./guard.sh"}]}});
    assert!(validator(copilot::DIALECT).is_valid(&file), "{file}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hooks.json");
    std::fs::write(&path, file.to_string()).unwrap();
    assert_cmd::Command::cargo_bin("hookx")
        .unwrap()
        .args(["validate", "--from", "copilot"])
        .arg(&path)
        .assert()
        .success();
    // Still refused: a `type` other than `command` or `prompt`, and a handler with no command.
    for bad in [
        json!({"type": "Command", "bash": "./guard.sh"}),
        json!({"timeoutSec": 5}),
    ] {
        let file = json!({"version": 1, "hooks": {"preToolUse": [bad]}});
        assert!(!validator(copilot::DIALECT).is_valid(&file), "{file}");
    }
}

#[test]
fn every_dialects_fixtures_pass_its_schema() {
    let mut checked = 0;
    for &dialect in Dialect::all() {
        let dir = fixtures().join(dialect.name());
        assert!(
            dir.is_dir(),
            "{dialect} is registered but has no fixture folder {}",
            dir.display()
        );
        if dialect.config().scripts.is_some() {
            continue;
        }
        let (total, _) = check_fixtures(dialect);
        assert!(total > 0, "{dialect}: no fixtures in {}", dir.display());
        checked += 1;
    }
    assert!(checked > 1, "only {checked} dialects checked");
}

#[test]
fn claude_fixtures_are_valid() {
    let (total, seeds) = check_fixtures(claude::DIALECT);
    // 23 distinct hook-config examples in the Claude guide + reference, plus the
    // `"disableAllHooks": true` snippet.
    assert_eq!(seeds, 24, "Claude seed fixtures");
    assert!(
        total > seeds,
        "Claude wild fixtures missing ({total} files)"
    );
}

#[test]
fn copilot_fixtures_are_valid() {
    let (total, seeds) = check_fixtures(copilot::DIALECT);
    assert_eq!(seeds, 2, "Copilot seed fixtures");
    assert!(
        total > seeds,
        "Copilot wild fixtures missing ({total} files)"
    );
}

#[test]
fn bricks_fixtures_are_valid() {
    let (total, seeds) = check_fixtures(bricks::DIALECT);
    assert_eq!(seeds, 3, "Bricks seed fixtures");
    assert!(
        total > seeds,
        "Bricks wild fixtures missing ({total} files)"
    );
}

/// Gemini CLI has no seed documents: its fixtures are configs of the shapes Gemini CLI 0.61.0
/// loaded in the live suite (`run-*`).
#[test]
fn gemini_fixtures_are_valid() {
    let (total, seeds) = check_fixtures(gemini::DIALECT);
    assert_eq!(seeds, 0, "Gemini seed fixtures");
    assert!(total >= 3, "Gemini fixtures missing ({total} files)");
}

/// Cursor and VS Code have no seed: their fixtures are their documents' examples (`docs-*`)
/// and real configs (`wild-*`).
#[test]
fn cursor_and_vscode_fixtures_are_valid() {
    for dialect in [cursor::DIALECT, vscode::DIALECT] {
        let (total, seeds) = check_fixtures(dialect);
        assert_eq!(seeds, 0, "{dialect} seed fixtures");
        assert!(total >= 3, "{dialect}: {total} fixtures");
    }
}

/// Kiro's fixtures pass its schema, and so does every Claude, Copilot and Gemini fixture once
/// converted to Kiro: the rule lists hookx writes are ones Kiro's documented schema accepts.
#[test]
fn kiro_fixtures_and_conversions_to_kiro_are_valid() {
    let (total, _) = check_fixtures(kiro::DIALECT);
    assert!(total >= 3, "kiro: {total} fixtures");
    let validator = validator(kiro::DIALECT);
    let mut converted = 0;
    let mut failures = Vec::new();
    for from in [claude::DIALECT, copilot::DIALECT, gemini::DIALECT] {
        for path in files(&fixtures().join(from.name()), &["json"]) {
            let src = hookx::source::SourceFile::read(&path).unwrap();
            let parsed = hookx::config::read(&src, from).unwrap();
            let conversion = hookx::convert::convert(
                &[(&src, &parsed.document)],
                &hookx::convert::Options::new(kiro::DIALECT),
            );
            let text = hookx::config::write::to_text(&conversion.document);
            let value: Value = serde_json::from_str(&text).unwrap();
            for (at, message) in errors(&validator, &value) {
                failures.push(format!("{} → kiro: {at}: {message}", name(&path)));
            }
            converted += 1;
        }
    }
    assert!(converted >= 30, "only {converted} conversions");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn claude_markdown_fixtures_carry_hooks_in_frontmatter() {
    let dir = fixtures().join("claude");
    let mds = files(&dir, &["md"]);
    assert!(mds.len() >= 3, "skill/agent fixtures: {}", mds.len());
    let mut once = 0;
    for path in &mds {
        let value = load(path).unwrap_or_else(|e| panic!("{}: {e}", name(path)));
        let hooks = value["hooks"]
            .as_object()
            .unwrap_or_else(|| panic!("{}: no hooks: key", name(path)));
        assert!(!hooks.is_empty(), "{}", name(path));
        once += hooks
            .values()
            .flat_map(|groups| groups.as_array().into_iter().flatten())
            .flat_map(|group| group["hooks"].as_array().into_iter().flatten())
            .filter(|handler| handler["once"] == Value::Bool(true))
            .count();
    }
    assert!(once > 0, "no `once: true` handler in any frontmatter");
}

/// Every example config, `examples/<dialect>/*.json`, passes its dialect's schema.
#[test]
fn examples_are_valid() {
    let mut cases = Vec::new();
    for entry in std::fs::read_dir(root().join("examples")).unwrap() {
        let dir = entry.unwrap().path();
        let folder = name(&dir).to_string();
        let dialect = Dialect::named(&folder)
            .unwrap_or_else(|| panic!("examples/{folder}/ is no registered dialect's name"));
        for path in files(&dir, &["json"]) {
            cases.push((dialect, format!("examples/{folder}/{}", name(&path))));
        }
    }
    cases.sort_by(|a, b| a.1.cmp(&b.1));
    assert!(cases.len() >= 3, "examples: {cases:?}");
    for (dialect, file) in cases {
        let value = load(&root().join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let errs = errors(&validator(dialect), &value);
        assert!(errs.is_empty(), "{file}: {errs:#?}");
        assert!(
            value["hooks"].as_object().is_some_and(|h| h.len() >= 3),
            "{file}: expected a realistic config with several events"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Invalid fixtures

enum Expect {
    /// Well-formed JSON that the dialect's schema rejects; some error is reported at this
    /// JSON pointer.
    Rejected(Dialect, &'static str),
    /// Not parseable as JSON at all.
    BadJson,
    /// A Markdown file whose YAML frontmatter does not parse.
    BadYaml,
}

const INVALID: &[(&str, Expect)] = &[
    (
        "claude-timeout-string.json",
        Expect::Rejected(claude::DIALECT, "/hooks/PostToolUse/0/hooks/0/timeout"),
    ),
    (
        "claude-hooks-object.json",
        Expect::Rejected(claude::DIALECT, "/hooks/PreToolUse/0/hooks"),
    ),
    (
        "claude-event-not-array.json",
        Expect::Rejected(claude::DIALECT, "/hooks/Stop"),
    ),
    (
        "claude-command-not-string.json",
        Expect::Rejected(claude::DIALECT, "/hooks/PreToolUse/0/hooks/0/command"),
    ),
    (
        "copilot-timeoutsec-string.json",
        Expect::Rejected(copilot::DIALECT, "/hooks/preToolUse/0/timeoutSec"),
    ),
    (
        "copilot-hooks-object.json",
        Expect::Rejected(copilot::DIALECT, "/hooks/preToolUse"),
    ),
    (
        "copilot-env-number.json",
        Expect::Rejected(copilot::DIALECT, "/hooks/sessionStart/0/env/RETRIES"),
    ),
    (
        "bricks-timeout-string.json",
        Expect::Rejected(bricks::DIALECT, "/hooks/PreToolUse/0/hooks/0/timeout"),
    ),
    (
        "bricks-hooks-object.json",
        Expect::Rejected(bricks::DIALECT, "/PreToolUse/0/hooks"),
    ),
    (
        "bricks-prompt-handler.json",
        Expect::Rejected(bricks::DIALECT, "/hooks/Stop/0/hooks/0/type"),
    ),
    (
        "gemini-timeout-string.json",
        Expect::Rejected(gemini::DIALECT, "/hooks/BeforeTool/0/hooks/0/timeout"),
    ),
    (
        "cursor-timeout-string.json",
        Expect::Rejected(cursor::DIALECT, "/hooks/stop/0/timeout"),
    ),
    (
        "vscode-prompt-type.json",
        Expect::Rejected(vscode::DIALECT, "/hooks/Stop/0/type"),
    ),
    (
        "kiro-rule-without-action.json",
        Expect::Rejected(kiro::DIALECT, "/hooks/0"),
    ),
    (
        "windsurf-command-not-string.json",
        Expect::Rejected(windsurf::DIALECT, "/hooks/pre_run_command/0/command"),
    ),
    ("trailing-comma.json", Expect::BadJson),
    ("truncated.json", Expect::BadJson),
    ("non-utf8.json", Expect::BadJson),
    ("deep-nesting.json", Expect::BadJson),
    ("empty.json", Expect::BadJson),
    ("symlink-as-text.json", Expect::BadJson),
    ("frontmatter-yaml-error.md", Expect::BadYaml),
];

#[test]
fn every_invalid_fixture_has_an_expectation() {
    let dir = fixtures().join("invalid");
    let on_disk: Vec<String> = files(&dir, &["json", "md"])
        .iter()
        .map(|p| name(p).to_string())
        .collect();
    let mut listed: Vec<String> = INVALID.iter().map(|(f, _)| f.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed);
}

#[test]
fn invalid_fixtures_are_rejected() {
    let dir = fixtures().join("invalid");
    for (file, expect) in INVALID {
        let path = dir.join(file);
        match expect {
            Expect::Rejected(dialect, pointer) => {
                let value = load(&path).unwrap_or_else(|e| panic!("{file} should parse: {e}"));
                let validator = validator(*dialect);
                assert!(!validator.is_valid(&value), "{file} accepted by {dialect}");
                let errs = errors(&validator, &value);
                assert!(
                    errs.iter().any(|(at, _)| at == pointer),
                    "{file}: no error at {pointer}: {errs:#?}"
                );
            }
            Expect::BadJson => {
                let bytes = std::fs::read(&path).expect("read fixture");
                let parsed = serde_json::from_slice::<Value>(&bytes);
                assert!(parsed.is_err(), "{file} parsed as JSON");
            }
            Expect::BadYaml => {
                let text = std::fs::read_to_string(&path).expect("UTF-8 fixture");
                let yaml = frontmatter(&text).expect("frontmatter delimiters");
                assert!(parse_yaml(yaml).is_err(), "{file}: frontmatter parsed");
            }
        }
    }
}

#[test]
fn non_utf8_fixture_really_is_not_utf8() {
    let bytes = std::fs::read(fixtures().join("invalid").join("non-utf8.json")).expect("read");
    assert!(std::str::from_utf8(&bytes).is_err());
}

#[test]
fn deep_nesting_fixture_is_deep_but_balanced() {
    let text = std::fs::read_to_string(fixtures().join("invalid").join("deep-nesting.json"))
        .expect("read");
    assert!(text.matches('[').count() >= 10_000);
    assert_eq!(text.matches('[').count(), text.matches(']').count());
}

// ---------------------------------------------------------------------------------------------
// What the schemas accept and reject, one property at a time

fn accepts(dialect: Dialect, instance: Value) -> bool {
    validator(dialect).is_valid(&instance)
}

#[test]
fn claude_schema_accepts_the_wild_and_rejects_wrong_types() {
    use serde_json::json;
    let d = claude::DIALECT;
    // unknown events, extra keys on groups and handlers, other settings keys
    assert!(accepts(
        d,
        json!({"model": "opus", "hooks": {"FutureEvent": [{"id": "x", "hooks": [
            {"type": "command", "command": "true", "comment": "c"}]}]}})
    ));
    // plugin hooks.json without the wrapper
    assert!(accepts(
        d,
        json!({"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]})
    ));
    assert!(accepts(d, json!({"hooks": {}})));
    assert!(accepts(d, json!({})));
    // wrong types and missing required fields
    for bad in [
        json!({"hooks": []}),
        json!({"disableAllHooks": "true"}),
        json!({"hooks": {"Stop": [{"matcher": 1, "hooks": []}]}}),
        json!({"hooks": {"Stop": [{"matcher": "*"}]}}),
        json!({"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}),
        json!({"hooks": {"Stop": [{"hooks": [{"command": "true"}]}]}}),
        json!({"hooks": {"Stop": [{"hooks": [{"type": "shell", "command": "true"}]}]}}),
        json!({"hooks": {"Stop": [{"hooks": [{"type": "prompt"}]}]}}),
        json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true", "async": "yes"}]}]}}),
        json!({"hooks": {"Stop": [{"hooks": [{"type": "agent", "prompt": "p", "timeout": -1}]}]}}),
        json!({"hooks": {"Stop": [{"hooks": [{"type": "prompt", "prompt": "p", "once": 1}]}]}}),
        json!({"hooks": {"FutureEvent": [{"hooks": {}}]}}),
        json!({"PreToolUse": {"matcher": "Bash"}}),
    ] {
        assert!(!accepts(d, bad.clone()), "accepted: {bad}");
    }
}

#[test]
fn copilot_schema_accepts_the_wild_and_rejects_wrong_types() {
    use serde_json::json;
    let d = copilot::DIALECT;
    assert!(accepts(
        d,
        json!({"hooks": {"someNewEvent": [{"type": "command", "linux": "true"}]}})
    ));
    assert!(accepts(
        d,
        json!({"version": 1, "hooks": {"preToolUse": [{"matcher": "bash", "hooks": [
            {"type": "command", "command": "true"}]}]}})
    ));
    for bad in [
        json!({"version": 1}),
        json!({"version": 2, "hooks": {}}),
        json!({"hooks": {"preToolUse": [{"type": "command"}]}}),
        json!({"hooks": {"preToolUse": [{"type": "command", "bash": ["true"]}]}}),
        json!({"hooks": {"preToolUse": [{"type": "command", "bash": "true", "cwd": 1}]}}),
        json!({"hooks": {"preToolUse": [{"type": "command", "bash": "true", "timeout": "5"}]}}),
        json!({"hooks": {"preToolUse": [{"type": "command", "bash": "true", "env": ["A=1"]}]}}),
        json!({"hooks": {"sessionStart": [{"type": "prompt"}]}}),
        json!({"hooks": {"sessionStart": [{"type": "agent", "prompt": "p"}]}}),
        json!({"hooks": {"preToolUse": [{"matcher": "bash", "hooks": {"type": "command"}}]}}),
    ] {
        assert!(!accepts(d, bad.clone()), "accepted: {bad}");
    }
}

#[test]
fn bricks_schema_accepts_the_wild_and_rejects_wrong_types() {
    use serde_json::json;
    let d = bricks::DIALECT;
    assert!(accepts(
        d,
        json!({"GoalUpdate": [{"matcher": "set", "hooks": [{"type": "command", "command": "true"}]}]})
    ));
    assert!(accepts(
        d,
        json!({"hooks": {"SomeNewEvent": [{"hooks": [{"type": "command", "command": "true"}]}]}})
    ));
    for bad in [
        json!({"hooks": []}),
        json!({"hooks": {"Stop": [{"matcher": ""}]}}),
        json!({"hooks": {"Stop": [{"hooks": [{"type": "command"}]}]}}),
        json!({"hooks": {"Stop": [{"hooks": [{"command": "true"}]}]}}),
        json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": 1}]}]}}),
        json!({"PostCompact": {"hooks": []}}),
        json!({"SomeNewEvent": [{"hooks": [{"type": "command", "command": "true", "timeout": "1"}]}]}),
    ] {
        assert!(!accepts(d, bad.clone()), "accepted: {bad}");
    }
}

#[test]
fn frontmatter_extraction() {
    assert_eq!(frontmatter("---\na: 1\n---\nbody"), Some("a: 1\n"));
    assert_eq!(frontmatter("---\r\na: 1\r\n---\r\nbody"), Some("a: 1\r\n"));
    assert_eq!(frontmatter("---\na: 1\n"), None);
    assert_eq!(frontmatter("# title\n---\na: 1\n---\n"), None);
    // YAML 1.2 booleans only: `no` stays a string
    assert_eq!(parse_yaml("x: no\ny: true").unwrap()["x"], "no");
}

/// The Codex schema takes what Codex CLI 0.171.0 loads and refuses what makes it refuse the
/// whole `hooks.json` (seen live, `live_codex::hooks_json_forms_codex_refuses_whole`): it
/// offered `$schema` "for editors" and any number of seconds, either of which turns off every
/// hook of the file under Codex; and it refused the `description` Codex takes (attacks row 176).
#[test]
fn the_codex_schema_refuses_what_codex_refuses_whole() {
    let codex = validator(Dialect::named("codex").unwrap());
    let guard = serde_json::json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": "g", "timeout": 5}]}]);
    let ok = serde_json::json!({"description": "d", "hooks": {"PreToolUse": guard}});
    assert_eq!(errors(&codex, &ok), Vec::<(String, String)>::new());
    let refused = [
        serde_json::json!({"$schema": "x", "hooks": {"PreToolUse": guard}}),
        serde_json::json!({"version": 1, "hooks": {"PreToolUse": guard}}),
        serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "g", "timeout": 1.5}]}]}}),
        serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [{"command": "g"}]}]}}),
    ];
    for file in refused {
        assert!(!errors(&codex, &file).is_empty(), "the schema takes {file}");
    }
}

/// Qwen Code 0.24.4 reads a hook timeout written as a string as the number it spells
/// (`readCommandHookTimeout`, rows 208/219: `"0x10"` too, a blank one as the default), and
/// `hookx validate` takes it: the schema must too, and refuse what neither takes (attacks row
/// 242: it called `"30"` "not of type number").
#[test]
fn the_qwen_schema_takes_the_timeouts_qwen_and_validate_take() {
    let qwen = validator(Dialect::named("qwen").unwrap());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(".qwen/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    for (timeout, taken) in [
        (r#""30""#, true),
        (r#"" 30 ""#, true),
        (r#""5000""#, true),
        (r#""1e3""#, true),
        (r#"".5""#, true),
        (r#""+5""#, true),
        (r#""0x10""#, true),
        (r#""""#, true),
        (r#""abc""#, false),
        (r#""-5""#, false),
        (r#""Infinity""#, false),
        ("-1", false),
    ] {
        let text = format!(
            r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "g", "timeout": {timeout}}}]}}]}}}}"#
        );
        validate_and_schema_agree(&qwen, &file, &text, taken);
    }
}

/// Attacks row 288: the Claude schema against rows 253/254 (live, Claude Code 2.1.332): it had
/// no `http` or `mcp_tool` handler (an editor marked a file Claude runs), and took an `if` or
/// `shell` of another type and a timeout of 0 (which make Claude refuse the file, and which
/// validate calls errors).
#[test]
fn the_claude_schema_takes_the_handlers_claude_and_validate_take() {
    let claude = validator(Dialect::named("claude").unwrap());
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(".claude/settings.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    for (handler, taken) in [
        (r#"{"type": "command", "command": "g"}"#, true),
        (r#"{"type": "http", "url": "http://127.0.0.1:9/x"}"#, true),
        (
            r#"{"type": "http", "url": "http://127.0.0.1:9/x", "headers": {"A": "b"}}"#,
            true,
        ),
        (r#"{"type": "mcp_tool", "server": "s", "tool": "t"}"#, true),
        (
            r#"{"type": "command", "command": "g", "if": "Bash(git *)"}"#,
            true,
        ),
        (
            r#"{"type": "command", "command": "g", "timeout": 1.5}"#,
            true,
        ),
        (r#"{"type": "http"}"#, false),
        (r#"{"type": "http", "url": 5}"#, false),
        (
            r#"{"type": "http", "url": "http://127.0.0.1:9/", "headers": ["a"]}"#,
            false,
        ),
        (r#"{"type": "mcp_tool"}"#, false),
        (r#"{"type": "command", "command": "g", "if": 5}"#, false),
        (r#"{"type": "command", "command": "g", "shell": 5}"#, false),
        (
            r#"{"type": "command", "command": "g", "timeout": 0}"#,
            false,
        ),
        (
            r#"{"type": "command", "command": "g", "timeout": -1}"#,
            false,
        ),
    ] {
        let text = format!(
            r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{handler}]}}]}}}}"#
        );
        validate_and_schema_agree(&claude, &file, &text, taken);
    }
}

/// Attacks row 321: the Copilot schema against what Copilot CLI 1.0.102 loads of its own files
/// (copilot-facts, `live_copilot::own_file_timeouts`: an entry whose `timeoutSec` or `timeout`
/// is 0 is not loaded and never runs; 0.5, 1.5, 5 and 1e12 are). The schema took 0: an editor
/// passed a guard that runs nowhere (validate warns on it).
#[test]
fn the_copilot_schema_refuses_a_timeout_copilot_does_not_load() {
    for key in ["timeoutSec", "timeout"] {
        for (seconds, loaded) in [
            ("0", false),
            ("-1", false),
            ("0.5", true),
            ("1.5", true),
            ("5", true),
            ("1e12", true),
        ] {
            let entry: Value = serde_json::from_str(&format!(
                r#"{{"type": "command", "bash": "./guard.sh", "{key}": {seconds}}}"#
            ))
            .unwrap();
            assert_eq!(
                accepts(
                    Dialect::named("copilot").unwrap(),
                    json!({"version": 1, "hooks": {"preToolUse": [entry]}})
                ),
                loaded,
                "`{key}`: {seconds}"
            );
        }
    }
}

/// `hookx validate` takes the file holding `text` exactly when the schema does, and both as
/// `taken` says.
fn validate_and_schema_agree(schema: &Validator, file: &Path, text: &str, taken: bool) {
    std::fs::write(file, text).unwrap();
    let validated = assert_cmd::Command::cargo_bin("hookx")
        .unwrap()
        .arg("validate")
        .arg(file)
        .output()
        .unwrap();
    assert_eq!(
        validated.status.success(),
        taken,
        "validate, {text}: {validated:?}"
    );
    let errors = errors(schema, &serde_json::from_str(text).unwrap());
    assert_eq!(errors.is_empty(), taken, "the schema, {text}: {errors:?}");
}

/// Attacks rows 1680-1684: each recorded client's guard at each timeout
/// (`tests/fixtures/timers/`, named after the dialect): the schema takes the file exactly where
/// the client's deny held, so an editor never passes a timeout the client's timer ends at once
/// (Gemini CLI, Qwen Code, Auggie past 2147483647 ms).
#[test]
fn a_schema_refuses_a_timeout_past_the_clients_timer() {
    for name in [
        "augment-0.36.0",
        "claude-2.1.332",
        "copilot-1.0.102",
        "gemini-0.61.0",
        "qwen-0.24.4",
    ] {
        let r = common::timer_forms(name);
        let dialect = Dialect::named(name.split('-').next().unwrap()).unwrap();
        for (timeout, held) in &r.forms {
            let file: Value = serde_json::from_str(&r.settings("./guard.sh", timeout)).unwrap();
            assert_eq!(
                accepts(dialect, file),
                *held,
                "{} with timeout {timeout}: the deny held {held}",
                r.client
            );
        }
    }
}
