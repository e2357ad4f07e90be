//! `hookx validate` over every fixture: snapshots of the diagnostics for every invalid file
//! and for every fixture that produces warnings; the clean ones must stay clean.
//!
//! Snapshots live in `snapshots/validate/<fixture folder>/<fixture>.snap`; paths are relative to
//! the crate root.

mod common;

use assert_cmd::Command;
use common::{dialect_fixtures, fixtures, snapshots, stem};
use hookx::tables::Dialect;
use serde_json::Value;
use std::time::Duration;

/// The dialect a file name starts with (`claude-…`, `copilot-…`, `bricks-…`), if any. Only these
/// three, deliberately: the other dialects' invalid fixtures (`gemini-…`, `kiro-…`) are read by
/// detection, and their snapshots pin the command line without `--from`.
fn dialect_prefix(path: &str) -> Option<&'static str> {
    ["claude", "copilot", "bricks"]
        .into_iter()
        .find(|d| stem(path).starts_with(&format!("{d}-")))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn validate(args: &[&str]) -> Run {
    let output = Command::cargo_bin("hookx")
        .expect("the hookx binary")
        .timeout(Duration::from_secs(60))
        .arg("validate")
        .args(args)
        .output()
        .expect("run hookx");
    let run = Run {
        code: output.status.code().expect("hookx exited, not killed"),
        stdout: String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8(output.stderr).expect("UTF-8 stderr"),
    };
    assert!(
        run.code != 101 && !run.stderr.contains("panicked"),
        "hookx validate {args:?} panicked:\n{}",
        run.stderr
    );
    run
}

fn shown(args: &[&str], run: &Run) -> String {
    format!(
        "$ hookx validate {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
        args.join(" "),
        run.code,
        run.stdout,
        run.stderr
    )
}

/// Every invalid fixture is rejected with exit 1 and diagnostics that name the file and a
/// position; the dialect-prefixed ones are read as that dialect, the others are detected.
#[test]
fn every_invalid_fixture_is_rejected_with_a_positioned_diagnostic() {
    for path in fixtures("invalid") {
        let mut args: Vec<&str> = Vec::new();
        if let Some(d) = dialect_prefix(&path) {
            args.extend(["--from", d]);
        }
        args.push(&path);
        let run = validate(&args);
        assert_eq!(run.code, 1, "{path}: {}{}", run.stdout, run.stderr);
        let all = format!("{}{}", run.stdout, run.stderr);
        // Diagnostics start `file:line:col:`; a file that cannot be read as text at all is an
        // `error: file:line:col: …`.
        let positioned = format!("{path}:");
        assert!(
            all.lines()
                .map(|l| l.strip_prefix("error: ").unwrap_or(l))
                .any(|l| l.starts_with(&positioned)
                    && l[positioned.len()..]
                        .split(':')
                        .take(2)
                        .all(|n| n.parse::<usize>().is_ok_and(|n| n > 0))),
            "{path}: no `{path}:line:col:` in\n{all}"
        );
        let name = stem(&path);
        let text = shown(&args, &run);
        snapshots("validate/invalid").bind(|| insta::assert_snapshot!(name, text));
    }
}

/// The valid fixtures of every registered dialect have no errors, but for an event their agent
/// does not have (a wild file's undocumented one: `validate` calls it an error, as `doctor`
/// does). Those with diagnostics are snapshotted; the others must print nothing but the clean
/// summary.
#[test]
fn valid_fixtures_have_no_errors_and_their_warnings_are_snapshotted() {
    let mut warned = 0;
    let mut clean = 0;
    let mut unknown_events = 0;
    for &dialect in Dialect::all() {
        for path in dialect_fixtures(dialect) {
            let args = ["--from", dialect.name(), path.as_str()];
            let run = validate(&args);
            let errors: Vec<&str> = run
                .stdout
                .lines()
                .filter(|l| l.contains(": error: "))
                .collect();
            let only_unknown_events = !errors.is_empty()
                && errors
                    .iter()
                    .all(|l| l.contains(" event: the agent skips it"));
            if only_unknown_events {
                unknown_events += 1;
                assert_eq!(run.code, 1, "{path}:\n{}", run.stdout);
            } else {
                assert_eq!(run.code, 0, "{path}:\n{}", run.stdout);
                assert!(run.stdout.contains("0 error(s)"), "{path}:\n{}", run.stdout);
            }
            assert_eq!(run.stderr, "", "{path}");
            assert!(
                run.stdout.ends_with(" in 1 file(s)\n"),
                "{path}:\n{}",
                run.stdout
            );
            if run.stdout == "0 error(s), 0 warning(s) in 1 file(s)\n" {
                clean += 1;
                continue;
            }
            warned += 1;
            let name = stem(&path);
            let text = shown(&args, &run);
            snapshots(&format!("validate/{dialect}")).bind(|| insta::assert_snapshot!(name, text));
        }
    }
    assert!(
        unknown_events <= 1,
        "{unknown_events} fixtures use unknown events"
    );
    assert!(warned >= 5, "only {warned} fixtures warn");
    assert!(clean >= 30, "only {clean} fixtures are clean");
}

/// The targeted inputs exercise every check: invalid regex, foreign tool names, async
/// PreToolUse, missing command, ignored matcher, millisecond timeout, `once` outside a skill,
/// unknown event with a did-you-mean, prompt/agent handlers a dialect lacks.
#[test]
fn every_check_fires_on_targeted_inputs() {
    for path in fixtures("convert")
        .into_iter()
        .filter(|p| p.contains("-validate-"))
    {
        let d = dialect_prefix(&path).expect("dialect prefix");
        let args = ["--from", d, path.as_str()];
        let run = validate(&args);
        let name = stem(&path);
        let text = shown(&args, &run);
        snapshots("validate/convert").bind(|| insta::assert_snapshot!(name, text));
    }
    let claude = validate(&[
        "--from",
        "claude",
        "tests/fixtures/convert/claude-validate-problems.json",
    ]);
    assert_eq!(claude.code, 1);
    for needle in [
        "4:20: error: matcher `Bash(` is not a valid JavaScript regex",
        "5:20: warning: `edit` is a copilot tool name",
        "5:96: warning: an async PreToolUse hook",
        "6:38: error: command handler has no command",
        "9:20: warning: claude ignores matchers on `Stop`",
        "9:91: warning: timeout 5000 is in seconds",
        "9:105: warning: `once` only applies",
        "11:18: error: `PreToolUs` is no claude event: the agent skips it",
        "help: rename the key `PreToolUs` to `PreToolUse`",
        "3 error(s), 6 warning(s) in 1 file(s)",
    ] {
        assert!(
            claude.stdout.contains(needle),
            "{needle}\n{}",
            claude.stdout
        );
    }
    let bricks = validate(&[
        "--from",
        "bricks",
        "tests/fixtures/convert/bricks-validate-problems.json",
    ]);
    // Its one error: an event Bricks does not have.
    assert_eq!(bricks.code, 1);
    assert!(bricks.stdout.contains("1 error(s), 4 warning(s)"));
}

/// `--format json` is one JSON array of diagnostics, each with its file, 1-based position,
/// pointer and message.
#[test]
fn json_format_parses_and_carries_positions() {
    let run = validate(&[
        "--format",
        "json",
        "--from",
        "copilot",
        "tests/fixtures/convert/copilot-validate-problems.json",
    ]);
    assert_eq!(run.code, 1);
    let diags: Vec<Value> = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}", run.stdout));
    assert_eq!(diags.len(), 6, "{diags:#?}");
    for d in &diags {
        assert_eq!(
            d["file"],
            "tests/fixtures/convert/copilot-validate-problems.json"
        );
        assert!(d["line"].as_u64().unwrap() > 0 && d["col"].as_u64().unwrap() > 0);
        assert!(d["severity"] == "error" || d["severity"] == "warning");
        assert!(d["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let agent = diags
        .iter()
        .find(|d| d["message"] == "copilot has no `agent` handlers")
        .expect("agent diagnostic");
    assert_eq!(agent["pointer"], "/hooks/agentStop/0/type");
    assert_eq!(
        (agent["line"].as_u64(), agent["col"].as_u64()),
        (Some(10), Some(17))
    );

    // A syntax error in JSON form too.
    let run = validate(&[
        "--format",
        "json",
        "tests/fixtures/invalid/trailing-comma.json",
    ]);
    assert_eq!(run.code, 1);
    let diags: Vec<Value> = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(diags.len(), 1);
    assert_eq!(
        (diags[0]["line"].as_u64(), diags[0]["col"].as_u64()),
        (Some(4), Some(3))
    );
}

/// Several files are validated together; diagnostics are grouped by file in order.
#[test]
fn several_files_in_one_run() {
    let run = validate(&[
        "--from",
        "claude",
        "tests/fixtures/claude/wild-settings-timeout-milliseconds.json",
        "tests/fixtures/claude/seed-block-rm.json",
        "tests/fixtures/invalid/claude-timeout-string.json",
    ]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .ends_with("1 error(s), 1 warning(s) in 3 file(s)\n"),
        "{}",
        run.stdout
    );
    // Sorted by file, then position.
    let warning = run
        .stdout
        .find("claude/wild-settings-timeout-milliseconds.json:10:24: warning: timeout 30000")
        .expect("the timeout warning");
    let error = run
        .stdout
        .find("invalid/claude-timeout-string.json:10:24: error")
        .expect("the timeout error");
    assert!(warning < error, "{}", run.stdout);
}

/// Frontmatter diagnostics point into the markdown file, counting the opening fence.
#[test]
fn frontmatter_positions_count_the_fence() {
    let run = validate(&["tests/fixtures/invalid/frontmatter-yaml-error.md"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.starts_with(
            "tests/fixtures/invalid/frontmatter-yaml-error.md:6:16: error: invalid YAML frontmatter: unclosed quote\n"
        ),
        "{}",
        run.stdout
    );
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("SKILL.md");
    std::fs::write(
        &skill,
        "---\nname: x\nhooks:\n  Stop:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./x.sh\n          timeout: 5000\n---\n# Body\nhooks:\n",
    )
    .unwrap();
    let path = skill.to_str().unwrap();
    let run = validate(&[path]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.contains(&format!(
            "{path}:5:7: warning: claude ignores matchers on `Stop`"
        )),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains(&format!("{path}:9:11: warning: timeout 5000")),
        "{}",
        run.stdout
    );
}

/// Columns count characters, not bytes, in JSON and YAML syntax errors alike.
#[test]
fn syntax_error_columns_count_characters() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("wide.json");
    std::fs::write(
        &json,
        r#"{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "échø ✓✓✓"},]}]}}"#,
    )
    .unwrap();
    let path = json.to_str().unwrap();
    let run = validate(&["--from", "claude", path]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .starts_with(&format!("{path}:1:75: error: invalid JSON: trailing comma")),
        "{}",
        run.stdout
    );
    let md = dir.path().join("SKILL.md");
    std::fs::write(
        &md,
        "---\nname: \"é✓✓✓\"\nhooks:\n  Stop: \"é✓✓✓\" [x\n---\n",
    )
    .unwrap();
    let path = md.to_str().unwrap();
    let run = validate(&[path]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .starts_with(&format!("{path}:4:16: error: invalid YAML frontmatter")),
        "{}",
        run.stdout
    );
}

/// Duplicate keys (the first value is silently ignored by every JSON reader) and absurd
/// timeouts are reported where they are written (timeout 0: see the failure-policy tests).
#[test]
fn duplicate_keys_and_absurd_timeouts_are_located() {
    let dir = tempfile::tempdir().unwrap();
    let path = common::write(
        dir.path(),
        ".claude/settings.json",
        "{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"a\", \"timeout\": 0}]}],\n    \"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"b\", \"timeout\": -5}]}],\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"c\", \"timeout\": 90000}]}]\n  }\n}\n",
    );
    let r = validate(&[path.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let shown = format!("{}{}", r.stdout, r.stderr);
    let at = |line: usize, col: usize, text: &str| {
        let prefix = format!("{}:{line}:{col}: ", path.display());
        assert!(
            shown
                .lines()
                .any(|l| l.starts_with(&prefix) && l.contains(text)),
            "no `{text}` at {line}:{col}:\n{shown}"
        );
    };
    at(
        5,
        5,
        "error: duplicate key `Stop`: only this one is read; the one at line 3, column 5 is ignored",
    );
    at(
        4,
        78,
        "`timeout` must be a positive number of seconds, found -5",
    );
    at(5, 72, "timeout 90000 is in seconds");
}

/// A wrapped entry whose not-installed guard an older hookx wrote (it answered Claude's `Stop`
/// with a block: "keep going", forever, where hookx is missing) is a warning located at its
/// command line that says to convert again; a guard written today is not.
#[test]
fn an_outdated_not_installed_guard_is_a_located_warning() {
    use hookx::model::EventKind;
    use hookx::tables::Dialect;
    let claude = Dialect::named("claude").unwrap().default_flavor();
    let exec = |event: &str| {
        format!(" hookx exec --host claude --as copilot --event {event} --timeout 600 -- 'echo hi'")
    };
    let old_stop = format!(
        "command -v hookx >/dev/null 2>&1 || {{ m='{}'; printf '{{\"decision\":\"block\",\"reason\":\"%s\"}}\\n' \"$m\"; echo \"$m\" >&2; exit 0; }};{}",
        hookx::convert::NOT_INSTALLED,
        exec("Stop")
    );
    let today = |kind: EventKind| {
        format!(
            "{}{}",
            hookx::convert::not_installed_guard("hookx", &kind, claude),
            exec(kind.name())
        )
    };
    let settings = serde_json::json!({"hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": old_stop}]}],
        "SubagentStop": [{"hooks": [{"type": "command", "command": today(EventKind::SubagentStop)}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": today(EventKind::PreToolUse)}]}],
    }});
    let dir = tempfile::tempdir().unwrap();
    let path = common::write(
        dir.path(),
        ".claude/settings.json",
        &serde_json::to_string_pretty(&settings).unwrap(),
    );
    let r = validate(&[path.to_str().unwrap()]);
    let shown = format!("{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{shown}");
    let warnings: Vec<&str> = shown
        .lines()
        .filter(|l| l.contains("written by an older hookx"))
        .collect();
    assert_eq!(warnings.len(), 1, "{shown}");
    let prefix = format!("{}:8:24: warning: ", path.display());
    assert!(
        warnings[0].starts_with(&prefix)
            && warnings[0].contains("answers `Stop` otherwise")
            && warnings[0].contains("exits 1, a non-blocking error"),
        "{shown}"
    );
    assert!(shown.contains("convert the source file again"), "{shown}");
    // `--deny-warnings` makes it fail a CI step.
    let r = validate(&["--deny-warnings", path.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
}

/// Codex CLI 0.171.0 reads `hooks.json` as one typed value and refuses the whole file, every
/// hook in it, for a handler without `type`, a timeout that is no whole number, or a top-level
/// key other than `hooks` and `description` (`$schema` too): seen live,
/// `live_codex::hooks_json_forms_codex_refuses_whole`. Each is a located error that says so
/// (they were warnings: "0 error(s)", exit 0, while Codex ran none of the file's guards);
/// `description` and keys of a handler or rule's own are not (attacks row 175).
#[test]
fn codex_hook_files_codex_refuses_whole_are_errors() {
    let guard = r#"{"type": "command", "command": "echo guard"}"#;
    type Form<'a> = (&'a str, &'a str, Option<(usize, usize)>);
    let forms: &[Form] = &[
        (
            "no type",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "echo x"}, GUARD]}]}}"#,
            Some((1, 57)),
        ),
        (
            "timeout 1.5",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo x", "timeout": 1.5}, GUARD]}]}}"#,
            Some((1, 109)),
        ),
        (
            "version",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}, "version": 1}"#,
            Some((1, 118)),
        ),
        (
            "$schema",
            r#"{"$schema": "x", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}}"#,
            Some((1, 13)),
        ),
        (
            "description",
            r#"{"description": "d", "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}}"#,
            None,
        ),
        (
            "a handler key",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo x", "name": "n"}, GUARD]}]}}"#,
            None,
        ),
        // Attacks row 1685 (live, `hooks_json_forms_codex_refuses_whole`): duplicate keys.
        (
            "hooks twice",
            r#"{"hooks": {"Stop": [{"hooks": [GUARD]}]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [GUARD]}]}}"#,
            Some((1, 82)),
        ),
        (
            "a matcher twice",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Read", "matcher": "Bash", "hooks": [GUARD]}]}}"#,
            Some((1, 47)),
        ),
        // Attacks row 1689 (live, the same test): values of the wrong type.
        (
            "a timeout that is a string",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo x", "timeout": "5"}, GUARD]}]}}"#,
            Some((1, 109)),
        ),
        (
            "a matcher that is a number",
            r#"{"hooks": {"PreToolUse": [{"matcher": 5, "hooks": [GUARD]}]}}"#,
            Some((1, 39)),
        ),
    ];
    let toml = |handler: &str| {
        format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{handler}, {{type = \"command\", command = \"g\"}}]\n"
        )
    };
    let untyped = toml(r#"{command = "x"}"#);
    let fraction = toml(r#"{type = "command", command = "x", timeout = 1.5}"#);
    let forms: Vec<Form> = forms
        .iter()
        .copied()
        .chain([
            ("config.toml, no type", untyped.as_str(), Some((3, 10))),
            ("config.toml, 1.5", fraction.as_str(), Some((3, 54))),
        ])
        .collect();
    for (form, text, refused_at) in &forms {
        let dir = tempfile::tempdir().unwrap();
        let name = match text.starts_with('[') {
            true => ".codex/config.toml",
            false => ".codex/hooks.json",
        };
        let path = common::write(dir.path(), name, &text.replace("GUARD", guard));
        let r = validate(&[path.to_str().unwrap()]);
        let shown = format!("{}{}", r.stdout, r.stderr);
        let says = |line: usize, col: usize| {
            let prefix = format!("{}:{line}:{col}: error: ", path.display());
            shown
                .lines()
                .any(|l| l.starts_with(&prefix) && l.contains("Codex 0.171.0 refuses the whole"))
        };
        match refused_at {
            Some((line, col)) => {
                assert_eq!(r.code, 1, "{form}: {shown}");
                assert!(
                    says(*line, *col),
                    "{form}: no error at {line}:{col}:\n{shown}"
                );
            }
            None => {
                assert_eq!(r.code, 0, "{form}: {shown}");
                assert!(!shown.contains("refuses the whole file"), "{form}: {shown}");
            }
        }
    }
}

/// Claude Code 2.1.332 runs none of a settings file's hooks for a setting of the wrong type or
/// a handler without `type` on PreToolUse, and never runs a handler without `type` (seen live,
/// `live_claude::settings_forms_claude_skips_whole`; attacks row 179). hookx said nothing of
/// the setting and a warning of the handler ("read as `command`"), and `list` said Claude runs
/// the guard. Now each is a located error, and the plan says nobody runs the file's rules.
#[test]
fn claude_settings_claude_does_not_load_are_errors_and_run_nowhere() {
    let guard = r#"{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}"#;
    // (form, the settings, error at, the guard runs under Claude)
    let forms: &[(&str, String, (usize, usize), bool)] = &[
        (
            "model a number",
            format!(r#"{{"model": 5, "hooks": {{"PreToolUse": [{guard}]}}}}"#),
            (1, 11),
            false,
        ),
        (
            "permissions.allow a string",
            format!(
                r#"{{"permissions": {{"allow": "Bash"}}, "hooks": {{"PreToolUse": [{guard}]}}}}"#
            ),
            (1, 27),
            false,
        ),
        (
            "untyped on PreToolUse",
            format!(
                r#"{{"hooks": {{"PreToolUse": [{guard}, {{"hooks": [{{"command": "x"}}]}}]}}}}"#
            ),
            (1, 116),
            false,
        ),
        (
            "untyped on Stop",
            format!(
                r#"{{"hooks": {{"PreToolUse": [{guard}], "Stop": [{{"hooks": [{{"command": "x"}}]}}]}}}}"#
            ),
            (1, 126),
            true,
        ),
    ];
    for (form, text, (line, col), runs) in forms {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let path = common::write(&root, "p/.claude/settings.json", text);
        let r = validate(&[path.to_str().unwrap()]);
        let shown = format!("{}{}", r.stdout, r.stderr);
        let prefix = format!("{}:{line}:{col}: error: ", path.display());
        assert!(
            shown
                .lines()
                .any(|l| l.starts_with(&prefix)
                    && l.contains("Claude Code 2.1.332 does not load it")),
            "{form}: no error at {line}:{col}:\n{shown}"
        );
        let list = plan_of(&root, "claude");
        let plan = list
            .lines()
            .find(|l| l.starts_with("  claude  PreToolUse  Bash  ./guard.sh"))
            .unwrap_or_default();
        assert_eq!(
            plan.contains("claude runs .claude/settings.json"),
            *runs,
            "{form}:\n{list}"
        );
    }
}

/// Claude Code 2.1.332 runs none of a settings file's hooks for one entry on PreToolUse it
/// refuses (live, `live_claude::settings_forms_claude_skips_whole`; attacks row 253): an entry
/// hookx's reader errors on, a timeout of 0, an `http` handler without a `url` that is a URL,
/// an `mcp_tool` one without `server`. validate said a plain error or nothing, and `list` said
/// Claude runs the guard beside it.
#[test]
fn claude_settings_with_an_entry_claude_refuses_run_nowhere() {
    let guard = r#"{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}"#;
    for (form, handler) in [
        ("http without url", r#"{"type": "http"}"#),
        ("http url no URL", r#"{"type": "http", "url": "not a url"}"#),
        (
            "mcp_tool without server",
            r#"{"type": "mcp_tool", "tool": "t"}"#,
        ),
        (
            "timeout 0",
            r#"{"type": "command", "command": "true", "timeout": 0}"#,
        ),
        ("unknown type", r#"{"type": "Command", "command": "true"}"#),
        ("command a number", r#"{"type": "command", "command": 5}"#),
        (
            "if a number",
            r#"{"type": "command", "command": "true", "if": 5}"#,
        ),
        (
            "shell a number",
            r#"{"type": "command", "command": "true", "shell": 5}"#,
        ),
        (
            "headers a list",
            r#"{"type": "http", "url": "http://127.0.0.1:9/", "headers": ["a"]}"#,
        ),
        ("matcher null", "MATCHER_NULL"),
    ] {
        let group = match handler {
            "MATCHER_NULL" => {
                r#"{"matcher": null, "hooks": [{"type": "command", "command": "true"}]}"#
                    .to_string()
            }
            _ => format!(r#"{{"matcher": "Bash", "hooks": [{handler}]}}"#),
        };
        let text = format!(r#"{{"hooks": {{"PreToolUse": [{guard}, {group}]}}}}"#);
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let path = common::write(&root, "p/.claude/settings.json", &text);
        let r = validate(&[path.to_str().unwrap()]);
        let shown = format!("{}{}", r.stdout, r.stderr);
        assert!(
            shown.lines().any(
                |l| l.contains("error: ") && l.contains("Claude Code 2.1.332 does not load it")
            ),
            "{form}:\n{shown}"
        );
        let list = plan_of(&root, "claude");
        let plan = list
            .lines()
            .find(|l| l.starts_with("  claude  PreToolUse  Bash  ./guard.sh"))
            .unwrap_or_default();
        assert!(
            plan.contains("nobody (Claude refuses the whole of"),
            "{form}:\n{list}"
        );
    }
}

/// An event that is `null` Claude Code 2.1.332 takes as none and runs the rest of the file
/// (live, `live_claude::settings_forms_claude_skips_whole`): not a refused file (attacks row
/// 254: with row 253's fix, the reader's error made hookx plan the guard beside it to nobody).
#[test]
fn a_claude_event_that_is_null_leaves_the_file_running() {
    let text = r#"{"hooks": {"PermissionRequest": null, "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    common::write(&root, "p/.claude/settings.json", text);
    let list = plan_of(&root, "claude");
    assert!(
        list.lines()
            .any(|l| l.starts_with("  claude  PreToolUse  Bash  ./guard.sh")
                && l.contains("claude runs .claude/settings.json")),
        "{list}"
    );
}

/// Factory Droid 0.225.2 runs none of a `.factory/settings.json`'s hooks for one entry it
/// cannot read, on any event: a handler without `type`, or any entry hookx's reader errors on
/// (seen live, `live_droid::settings_forms_droid_skips_whole`; attacks row 187). hookx warned
/// "read as `command`", or said "no rule comes of this entry", and `list` said Droid runs the
/// file's other rules. Now each is an error that says so, and the plan says nobody runs them.
#[test]
fn droid_settings_droid_skips_whole_are_errors_and_run_nowhere() {
    let recorder = r#""SessionStart": [{"hooks": [{"type": "command", "command": "./log.sh"}]}]"#;
    let forms: &[(&str, String, (usize, usize))] = &[
        (
            "untyped",
            format!(r#"{{"hooks": {{{recorder}, "Stop": [{{"hooks": [{{"command": "x"}}]}}]}}}}"#),
            (1, 107),
        ),
        (
            "matcher a number",
            format!(
                r#"{{"hooks": {{{recorder}, "Stop": [{{"matcher": 5, "hooks": [{{"type": "command", "command": "x"}}]}}]}}}}"#
            ),
            (1, 108),
        ),
    ];
    for (form, text, (line, col)) in forms {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let path = common::write(&root, "p/.factory/settings.json", text);
        let r = validate(&[path.to_str().unwrap()]);
        let shown = format!("{}{}", r.stdout, r.stderr);
        let prefix = format!("{}:{line}:{col}: error: ", path.display());
        assert!(
            shown.lines().any(|l| l.starts_with(&prefix)
                && l.contains("Factory Droid 0.225.2 runs none of this file's hooks")),
            "{form}: no error at {line}:{col}:\n{shown}"
        );
        let list = plan_of(&root, "droid");
        assert!(
            list.lines().any(|l| l.starts_with("  droid  SessionStart")
                && l.contains("nobody (Droid refuses the whole of .factory/settings.json")),
            "{form}:\n{list}"
        );
    }
}

/// Factory Droid 0.225.2 (live, `live_droid::settings_forms_droid_skips_whole`; attacks row
/// 256) runs none of a `.factory/settings.json`'s hooks for a `null` matcher, which hookx read
/// as none, and loads one with a negative timeout, which hookx took for a refused file: the
/// plan said the recorder runs in the first and nobody runs it in the second.
#[test]
fn droid_refuses_a_null_matcher_and_loads_a_negative_timeout() {
    let recorder = r#""SessionStart": [{"hooks": [{"type": "command", "command": "./log.sh"}]}]"#;
    for (form, stop, refused) in [
        (
            "matcher null",
            r#"[{"matcher": null, "hooks": [{"type": "command", "command": "x"}]}]"#,
            true,
        ),
        (
            "timeout -1",
            r#"[{"hooks": [{"type": "command", "command": "x", "timeout": -1}]}]"#,
            false,
        ),
    ] {
        let text = format!(r#"{{"hooks": {{{recorder}, "Stop": {stop}}}}}"#);
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        common::write(&root, "p/.factory/settings.json", &text);
        let list = plan_of(&root, "droid");
        let nobody = list.lines().any(|l| {
            l.starts_with("  droid  SessionStart")
                && l.contains("nobody (Droid refuses the whole of .factory/settings.json")
        });
        assert_eq!(nobody, refused, "{form}:\n{list}");
    }
}

/// `hookx list --host HOST` in the test's project `ROOT/p` with its home `ROOT/home`: the plan
/// says who runs each rule.
fn plan_of(root: &std::path::Path, host: &str) -> String {
    let out = common::hookx_at(
        &root.join("p"),
        &root.join("home"),
        &["list", "--host", host],
    )
    .success()
    .get_output()
    .stdout
    .clone();
    String::from_utf8(out).unwrap()
}

/// A real Codex file (2witstudios/daisydebate `c9b9179d` `.codex/hooks.json`, cut; attacks row
/// 1185) runs `bun "$CLAUDE_PROJECT_DIR/scripts/session-start.ts"`: Codex 0.171.0 sets no
/// `CLAUDE_PROJECT_DIR` (codex-facts.md), so the hook runs `/scripts/…`, and validate said
/// nothing. The agents that set it (Claude's own project variable, Copilot and Gemini too) get
/// no word.
#[test]
fn another_agents_project_variable_in_a_native_command_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let line = r#"bun "$CLAUDE_PROJECT_DIR/scripts/session-start.ts""#;
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let grouped = serde_json::json!({"hooks": {"SessionStart": [{"hooks": [
        {"type": "command", "command": line, "timeout": 30}]}]}})
    .to_string();
    let codex = write("codex.json", grouped.clone());
    let run = validate(&["--from", "codex", &codex]);
    let said = shown(&["--from", "codex", &codex], &run);
    assert!(
        run.stdout
            .contains("`$CLAUDE_PROJECT_DIR` is another agent's project folder")
            && run.stdout.contains("Codex sets it for none of its hooks"),
        "{said}"
    );
    for (from, text) in [
        ("claude", grouped.clone()),
        ("gemini", grouped),
        (
            "copilot",
            serde_json::json!({"version": 1, "hooks": {"sessionStart": [
                {"type": "command", "bash": line}]}})
            .to_string(),
        ),
    ] {
        let path = write(&format!("{from}.json"), text);
        let run = validate(&["--from", from, &path]);
        assert!(
            !run.stdout.contains("another agent's project folder"),
            "{}",
            shown(&["--from", from, &path], &run)
        );
    }
}

/// Attacks rows 1680-1682: each recorded client's guard at each timeout
/// (`tests/fixtures/timers/`): validate calls the timeout an error where the client's timer
/// could not hold it and the deny was lost (Gemini CLI 0.61.0, Qwen Code 0.24.4 live), and
/// says nothing of the kind where the deny held.
#[test]
fn a_timeout_past_the_agents_timer_is_an_error_where_the_client_lost_the_deny() {
    let recorded = common::all_timer_forms();
    assert!(recorded.len() >= 3, "the timer records");
    for r in &recorded {
        for (timeout, held) in &r.forms {
            let dir = tempfile::tempdir().unwrap();
            let path = common::write(dir.path(), &r.file, &r.settings("./guard.sh", timeout));
            let run = validate(&[path.to_str().unwrap()]);
            let said = run
                .stdout
                .lines()
                .chain(run.stderr.lines())
                .any(|l| l.contains("error:") && l.contains("timer holds"));
            assert_eq!(
                said,
                !held,
                "{} with timeout {timeout} (the deny held: {held}):\n{}",
                r.client,
                shown(&[path.to_str().unwrap()], &run)
            );
            assert_eq!(run.code, if *held { 0 } else { 1 }, "{}", run.stdout);
        }
    }
}

/// Attacks row 1686: an event written beside `hooks` in a settings file (the wrapper left out):
/// Claude Code 2.1.332 runs none of it (live, `live_claude::an_event_beside_hooks_runs_nothing`),
/// and hookx reads no rule of it, yet validate said nothing, exit 0. Now a located error; the
/// same event under `hooks`, and a Claude plugin's `hooks.json` without the wrapper (which
/// Claude reads), are not.
#[test]
fn an_event_beside_hooks_in_a_settings_file_is_an_error() {
    let group = |m: &str| {
        format!(
            r#"[{{"matcher": "{m}", "hooks": [{{"type": "command", "command": "./guard.sh"}}]}}]"#
        )
    };
    let forms = [
        (
            ".claude/settings.json",
            format!(r#"{{"PreToolUse": {}}}"#, group("Bash")),
            true,
        ),
        (
            ".claude/settings.json",
            format!(r#"{{"hooks": {{"PreToolUse": {}}}}}"#, group("Bash")),
            false,
        ),
        (
            ".gemini/settings.json",
            format!(r#"{{"BeforeTool": {}}}"#, group("run_shell_command")),
            true,
        ),
        (
            ".qwen/settings.json",
            format!(r#"{{"PreToolUse": {}}}"#, group("run_shell_command")),
            true,
        ),
        (
            ".factory/settings.json",
            format!(r#"{{"PreToolUse": {}}}"#, group("Execute")),
            true,
        ),
        (
            "plugin/hooks/hooks.json",
            format!(r#"{{"PreToolUse": {}}}"#, group("Bash")),
            false,
        ),
    ];
    for (name, text, beside) in forms {
        let dir = tempfile::tempdir().unwrap();
        let path = common::write(dir.path(), name, &text);
        let r = validate(&[path.to_str().unwrap()]);
        let prefix = format!("{}:1:", path.display());
        let said = r.stdout.lines().chain(r.stderr.lines()).any(|l| {
            l.starts_with(&prefix) && l.contains("error: `") && l.contains("sits beside `hooks`")
        });
        assert_eq!(
            said,
            beside,
            "{name}: {text}\n{}",
            shown(&[path.to_str().unwrap()], &r)
        );
        assert_eq!(r.code, i32::from(beside), "{name}: {}", r.stdout);
    }
}

/// Attacks row 1687: a Copilot handler with a Windows command only (`powershell`, or a
/// PascalCase `windows`): Copilot CLI 1.0.102 runs nothing of it on Linux (live,
/// `live_copilot::two_command_keys_run_as_hookx_reads_them`), and validate said nothing. Now a
/// located warning; a handler with `bash` beside it is not one.
#[test]
fn a_copilot_handler_with_a_windows_command_only_is_said() {
    let forms = [
        (
            r#"{"preToolUse": [{"type": "command", "powershell": "./g.ps1"}]}"#,
            true,
        ),
        (
            r#"{"PreToolUse": [{"type": "command", "windows": "./g.ps1"}]}"#,
            true,
        ),
        (
            r#"{"preToolUse": [{"type": "command", "bash": "./g.sh", "powershell": "./g.ps1"}]}"#,
            false,
        ),
        (
            r#"{"PreToolUse": [{"type": "command", "command": "./g.sh", "windows": "./g.ps1"}]}"#,
            false,
        ),
    ];
    for (hooks, said) in forms {
        let dir = tempfile::tempdir().unwrap();
        let text = format!(r#"{{"version": 1, "hooks": {hooks}}}"#);
        let path = common::write(dir.path(), ".github/hooks/g.json", &text);
        let r = validate(&[path.to_str().unwrap()]);
        let prefix = format!("{}:1:", path.display());
        let warned = r.stdout.lines().chain(r.stderr.lines()).any(|l| {
            l.starts_with(&prefix) && l.contains("warning: this handler has a Windows command only")
        });
        assert_eq!(
            warned,
            said,
            "{text}\n{}",
            shown(&[path.to_str().unwrap()], &r)
        );
    }
}
