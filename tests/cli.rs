//! The real `hookx` binary: exit codes, report formats, writing files (`--out`, `--write`,
//! `--dry-run`), wrapped-entry quoting (`--wrap`, the default, is still accepted), dialect detection, and bad input of every kind.
//!
//! Paths are relative to the crate root (the working directory of integration tests), or
//! inside temporary directories.

mod common;

use common::hookx;
use hookx::tables::Dialect;
use serde_json::Value;
use std::path::Path;

#[derive(Debug)]
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs hookx; a panic, a crash or a hang (killed by the timeout) fails the test.
fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Run {
    let output = hookx().args(args).output().expect("run hookx");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let shown: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy()).collect();
    let code = output
        .status
        .code()
        .unwrap_or_else(|| panic!("hookx {shown:?} was killed (a hang or a crash): {stderr}"));
    assert!(
        code != 101 && !stderr.contains("panicked"),
        "hookx {shown:?} panicked:\n{stderr}"
    );
    Run {
        code,
        stdout,
        stderr,
    }
}

/// `hookx convert INPUT --from FROM --to TO EXTRA…`.
fn convert(input: &str, from: &str, to: &str, extra: &[&str]) -> Run {
    let mut args = vec!["convert", input, "--from", from, "--to", to];
    args.extend(extra);
    run(&args)
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

/// The names in a directory, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

const BLOCK_RM: &str = "tests/fixtures/claude/seed-block-rm.json";
const ASYNC: &str = "tests/fixtures/claude/seed-async-run-tests.json";
/// A Stop `prompt` hook, which Copilot and Bricks cannot run: one loss. (`ASYNC` was the
/// example until `hookx exec --async` kept `async: true` there: attacks row 1820.)
const PROMPT: &str = "tests/fixtures/claude/seed-stop-prompt-evaluate.json";

#[test]
fn exit_codes() {
    // 0: converted.
    let ok = convert(BLOCK_RM, "claude", "copilot", &["--no-wrap"]);
    assert_eq!(ok.code, 0, "{ok:?}");
    assert_eq!(
        json(&ok.stdout)["hooks"]["preToolUse"][0]["bash"],
        ".claude/hooks/block-rm.sh"
    );

    // 1: invalid input, with nothing readable left.
    let bad = convert(
        "tests/fixtures/invalid/claude-hooks-object.json",
        "claude",
        "copilot",
        &[],
    );
    assert_eq!(bad.code, 1, "{bad:?}");
    assert_eq!(bad.stdout, "");
    assert!(
        bad.stderr
            .contains("tests/fixtures/invalid/claude-hooks-object.json:6:18: error"),
        "{}",
        bad.stderr
    );

    // 2: usage errors.
    for args in [
        vec!["convert", BLOCK_RM],
        vec!["convert", BLOCK_RM, "--to", "vim"],
        vec!["convert", "--to", "claude"],
        vec!["frobnicate"],
        vec![],
        vec!["convert", BLOCK_RM, "--to", "copilot,bricks"],
    ] {
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert_eq!(r.stdout, "", "{args:?}");
        assert!(!r.stderr.is_empty(), "{args:?}");
    }
    for args in [["--help"], ["--version"]] {
        let r = run(&args);
        assert_eq!(r.code, 0, "{args:?}: {r:?}");
        assert!(!r.stdout.is_empty());
    }

    // 3: losses under --strict; the conversion is still printed.
    let strict = convert(PROMPT, "claude", "copilot", &["--strict"]);
    assert_eq!(strict.code, 3, "{strict:?}");
    assert_eq!(json(&strict.stdout)["version"], 1);
    assert!(strict.stderr.contains("1 loss\n"), "{}", strict.stderr);
    let strict_json = convert(
        PROMPT,
        "claude",
        "bricks",
        &["--strict", "--format", "json"],
    );
    assert_eq!(strict_json.code, 3);
    assert_eq!(
        json(&strict_json.stdout)["losses"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // --strict without losses: 0 (to Copilot: Bricks takes no PreToolUse context, a loss of
    // every wrapped guard since row 2188).
    let clean = convert(BLOCK_RM, "claude", "copilot", &["--strict"]);
    assert_eq!(clean.code, 0, "{clean:?}");
    assert!(
        clean
            .stderr
            .ends_with("no losses: the target expresses every rule exactly\n")
    );
    // Without --strict, losses do not change the exit code.
    assert_eq!(convert(PROMPT, "claude", "copilot", &[]).code, 0);
}

/// `--format json` is one JSON object: the converted text, what was written, the losses and
/// the notes; the converted text is the same as in text mode.
#[test]
fn json_format_parses_and_matches_text_mode() {
    for (path, from, to) in [
        (ASYNC, "claude", "copilot"),
        (
            "tests/fixtures/copilot/wild-vscode-style.json",
            "copilot",
            "bricks",
        ),
        (
            "tests/fixtures/bricks/wild-all-ten-events.json",
            "bricks",
            "claude",
        ),
        (
            "tests/fixtures/claude/wild-skill-once-setup.md",
            "claude",
            "claude",
        ),
    ] {
        let text = convert(path, from, to, &[]);
        let report = convert(path, from, to, &["--format", "json"]);
        assert_eq!((text.code, report.code), (0, 0), "{path}");
        let report = json(&report.stdout);
        assert_eq!(report["to"], to);
        assert_eq!(
            report["output"].as_str(),
            Some(text.stdout.as_str()),
            "{path}"
        );
        assert_eq!(report["written"], Value::Null);
        let losses = report["losses"].as_array().expect("losses");
        assert!(report["notes"].is_array());
        for loss in losses {
            assert_eq!(loss["file"], path);
            for key in ["what", "why", "pointer"] {
                assert!(loss[key].is_string(), "{loss}");
            }
            assert!(loss["line"].as_u64().unwrap() > 0 && loss["col"].as_u64().unwrap() > 0);
        }
        // The text report lists the same items.
        let items = text
            .stderr
            .lines()
            .filter(|l| l.starts_with("loss: "))
            .count();
        assert_eq!(items, losses.len(), "{path}: {}", text.stderr);
    }
}

#[test]
fn out_writes_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sub/dir/hooks.json");
    let expected = convert(ASYNC, "claude", "copilot", &[]).stdout;
    let r = convert(ASYNC, "claude", "copilot", &["--out", path_str(&out)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "", "with --out nothing goes to stdout");
    assert!(
        r.stderr.contains(&format!("wrote {}", out.display())),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), expected);
    assert_eq!(listing(out.parent().unwrap()), ["hooks.json"]);

    // --out replaces an existing file; --format json names it and carries no output.
    std::fs::write(&out, "old").unwrap();
    let r = convert(
        BLOCK_RM,
        "claude",
        "bricks",
        &["--out", path_str(&out), "--format", "json"],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let report = json(&r.stdout);
    assert_eq!(report["written"], path_str(&out));
    assert_eq!(report["output"], Value::Null);
    let written = json(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(written["hooks"]["PreToolUse"][0]["matcher"], "bash");
    assert_eq!(listing(out.parent().unwrap()), ["hooks.json"]);

    // A target that cannot be written: exit 1, named.
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    let r = convert(
        BLOCK_RM,
        "claude",
        "bricks",
        &["--out", &format!("{}/below/hooks.json", blocker.display())],
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(&blocker.display().to_string()),
        "{}",
        r.stderr
    );
}

/// A settings file with every kind of thing hookx does not own, in an unusual key order.
const SETTINGS: &str = r#"{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "claude-opus-4-1",
  "permissions": {
    "deny": ["Read(./.env)"],
    "allow": ["Bash(npm test:*)", "Bash(git diff:*)"]
  },
  "hooks": {
    "Notification": [],
    "Stop": [
      {
        "comment": "keeps its place before hooks",
        "hooks": [
          {
            "statusMessage": "Running tests",
            "type": "command",
            "timeout": 300,
            "command": "npm test --silent"
          }
        ]
      }
    ],
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "./guard.sh", "x-owner": "security" }]
      }
    ],
    "TaskCompleted": [
      { "hooks": [{ "type": "command", "command": "printf '\\a'" }] }
    ]
  },
  "env": {
    "NODE_ENV": "development",
    "A_FIRST": "1"
  },
  "includeCoAuthoredBy": false
}
"#;

/// Every object of `before` has its keys in the same order in `after` (which may add keys
/// after them), down through arrays item by item.
fn assert_order_kept(before: &Value, after: &Value, at: &str) {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            let kept: Vec<&String> = a.keys().filter(|k| b.contains_key(*k)).collect();
            let original: Vec<&String> = b.keys().collect();
            assert_eq!(kept, original, "key order at `{at}`");
            for (k, v) in b {
                assert_order_kept(v, &a[k], &format!("{at}/{k}"));
            }
        }
        (Value::Array(b), Value::Array(a)) => {
            assert!(a.len() >= b.len(), "{at} lost items");
            for (i, (bv, av)) in b.iter().zip(a).enumerate() {
                assert_order_kept(bv, av, &format!("{at}/{i}"));
            }
        }
        _ => {}
    }
}

fn write_into(project: &Path, extra: &[&str]) -> Run {
    let mut args = vec!["--write", "--no-wrap", "--project", path_str(project)];
    args.extend(extra);
    convert(
        "tests/fixtures/copilot/wild-matchers-all-camel-events.json",
        "copilot",
        "claude",
        &args,
    )
}

#[test]
fn write_merges_into_settings_keeping_everything_else() {
    let project = tempfile::tempdir().unwrap();
    let claude_dir = project.path().join(".claude");
    let settings = common::write(&claude_dir, "settings.json", SETTINGS);

    let r = write_into(project.path(), &[]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("wrote "), "{}", r.stderr);
    let before = json(SETTINGS);
    let after_text = std::fs::read_to_string(&settings).unwrap();
    let after = json(&after_text);

    // The same top-level keys in the same order, every non-hook value untouched.
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&after), keys(&before));
    for key in [
        "$schema",
        "model",
        "permissions",
        "env",
        "includeCoAuthoredBy",
    ] {
        assert_eq!(after[key], before[key], "{key}");
    }
    // Every hook that was there is still there, first in its event, and all keys everywhere
    // keep their order.
    for (event, rules) in before["hooks"].as_object().unwrap() {
        let now = after["hooks"][event].as_array().unwrap();
        let was = rules.as_array().unwrap();
        assert_eq!(&now[..was.len()], &was[..], "{event}");
    }
    assert_order_kept(&before, &after, "");
    // The converted hooks were added.
    let pre = after["hooks"]["PreToolUse"].as_array().unwrap();
    assert_eq!(pre.len(), 2);
    assert_eq!(pre[1]["matcher"], "WebFetch|WebSearch");
    assert_eq!(pre[1]["hooks"][0]["command"], "./hooks/deny-web.sh");
    assert_eq!(
        after["hooks"]["Notification"][0]["matcher"],
        "permission_prompt|agent_idle"
    );
    assert_eq!(
        after["hooks"]["PermissionRequest"][0]["matcher"],
        "Read|Glob|Grep"
    );
    assert!(after["hooks"].get("ErrorOccurred").is_none());
    assert!(
        r.stderr.contains("/hooks/errorOccurred/0"),
        "the lost rule is reported"
    );
    // Atomic: nothing else in the directory.
    assert_eq!(listing(&claude_dir), ["settings.json"]);

    // Twice is the same as once.
    let again = write_into(project.path(), &[]);
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), after_text);
    assert_eq!(listing(&claude_dir), ["settings.json"]);
}

#[test]
fn write_creates_the_project_file_for_each_dialect() {
    // The record names the source relative to the target, or absolute: it depends on
    // where the clone lives, so only its shape is checked here.
    let record = regex::Regex::new(r#""source": "[^"]+""#).unwrap();
    let only_source = regex::Regex::new(r#",\n *"hookx": \{\n *"source": "…"\n *\}"#).unwrap();
    // The digest of what was written (attacks row 1246), last in the record.
    let digest = regex::Regex::new(r#",\n *"digest": "[0-9a-f]{16}""#).unwrap();
    // A record whole (one without nested objects).
    let whole = regex::Regex::new(r#",\n *"hookx": \{[^}]*\}"#).unwrap();
    let source = |text: &str| {
        let text = digest.replace_all(text, "");
        let named = record.replace_all(&text, r#""source": "…""#);
        only_source.replace_all(&named, "").into_owned()
    };
    for (to, file) in [
        ("claude", ".claude/settings.json"),
        ("copilot", ".github/hooks/hooks.json"),
        ("bricks", ".bricks/hooks.json"),
    ] {
        let project = tempfile::tempdir().unwrap();
        let r = convert(
            BLOCK_RM,
            "claude",
            to,
            &["--write", "--project", path_str(project.path())],
        );
        assert_eq!(r.code, 0, "{to}: {r:?}");
        let target = project.path().join(file);
        let expected = convert(BLOCK_RM, "claude", to, &[]).stdout;
        // The converted file, each handler with hookx's record of where it came from, its
        // source named from the target.
        let written = std::fs::read_to_string(&target).unwrap();
        // Written into Claude's own file from another Claude file, the copy carries the whole
        // record too (what makes it and its original one rule, attacks row 2061), which the
        // same-dialect conversion to stdout does not write.
        let (compared, expected) = match to {
            "claude" => {
                assert!(
                    written.contains(r#""rule": "/hooks/PreToolUse/0""#),
                    "{written}"
                );
                (
                    whole.replace_all(&written, "").into_owned(),
                    whole.replace_all(&expected, "").into_owned(),
                )
            }
            _ => (written.clone(), expected),
        };
        assert_eq!(source(&compared), source(&expected), "{to}");
        assert_eq!(written.matches("\"hookx\"").count(), 1, "{written}");
        assert_eq!(digest.find_iter(&written).count(), 1, "{written}");
        // Detected from its path, the written file reads back as its dialect.
        let v = run(&["validate", path_str(&target)]);
        assert_eq!(v.code, 0, "{to}: {v:?}");
    }
}

#[test]
fn dry_run_prints_a_diff_and_writes_nothing() {
    let project = tempfile::tempdir().unwrap();
    let claude_dir = project.path().join(".claude");
    let settings = common::write(&claude_dir, "settings.json", SETTINGS);

    let r = write_into(project.path(), &["--dry-run"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("--- "), "{}", r.stdout);
    assert!(
        r.stdout.contains("\n+++ ") && r.stdout.contains("\n@@ "),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with('+') && l.contains("./hooks/deny-web.sh")),
        "{}",
        r.stdout
    );
    assert!(!r.stderr.contains("wrote"), "{}", r.stderr);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), SETTINGS);
    assert_eq!(listing(&claude_dir), ["settings.json"]);

    // In JSON the diff is a field and stdout stays one JSON object.
    let r = write_into(project.path(), &["--dry-run", "--format", "json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let report = json(&r.stdout);
    assert!(
        report["diff"].as_str().unwrap().contains("+++ "),
        "{report:#}"
    );
    assert_eq!(report["written"], Value::Null);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), SETTINGS);

    // --dry-run with --out on a file that does not exist creates nothing.
    let out = project.path().join("new.json");
    let r = convert(
        BLOCK_RM,
        "claude",
        "bricks",
        &["--out", path_str(&out), "--dry-run"],
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("+    \"PreToolUse\": ["), "{}", r.stdout);
    assert!(!out.exists());
    // On a file that already holds the result, the diff is empty.
    std::fs::write(&out, convert(BLOCK_RM, "claude", "bricks", &[]).stdout).unwrap();
    let r = convert(
        BLOCK_RM,
        "claude",
        "bricks",
        &["--out", path_str(&out), "--dry-run"],
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
}

#[test]
fn write_refuses_a_target_it_cannot_read() {
    for (name, text, position) in [
        (
            "trailing comma",
            "{\n  \"model\": \"x\",\n  \"hooks\": {},\n}\n",
            Some(":4:1: error"),
        ),
        (
            "an event that is not an array",
            "{\n  \"hooks\": {\n    \"Stop\": {\"hooks\": []}\n  }\n}\n",
            Some(":3:13: error"),
        ),
        ("not an object", "[1, 2]\n", Some(":1:1: error")),
        ("empty", "", Some(":1:1: error")),
    ] {
        let project = tempfile::tempdir().unwrap();
        let claude_dir = project.path().join(".claude");
        let settings = common::write(&claude_dir, "settings.json", text);
        let r = write_into(project.path(), &[]);
        assert_eq!(r.code, 1, "{name}: {r:?}");
        let shown = settings.display().to_string();
        if let Some(position) = position {
            assert!(
                r.stderr.contains(&format!("{shown}{position}")),
                "{name}: {}",
                r.stderr
            );
        }
        assert_eq!(std::fs::read_to_string(&settings).unwrap(), text, "{name}");
        assert_eq!(listing(&claude_dir), ["settings.json"], "{name}");
    }
    // A markdown target is refused too.
    let dir = tempfile::tempdir().unwrap();
    let skill = dir.path().join("SKILL.md");
    std::fs::write(&skill, "---\nname: x\n---\n").unwrap();
    let r = convert(
        BLOCK_RM,
        "claude",
        "claude",
        &["--write", "--out", path_str(&skill)],
    );
    assert_ne!(r.code, 0, "{r:?}");
    assert_eq!(
        std::fs::read_to_string(&skill).unwrap(),
        "---\nname: x\n---\n"
    );
}

/// Splits a wrapped command line the way `sh` does, by running it with `hookx` defined as a
/// function that prints its arguments.
fn shell_words(line: &str) -> Vec<String> {
    let script = format!("hookx() {{ printf '%s\\0' \"$@\"; }}\n{line}");
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg(&script)
        .output()
        .expect("sh");
    assert!(output.status.success(), "sh failed on {line:?}: {output:?}");
    let mut words: Vec<String> = String::from_utf8(output.stdout)
        .unwrap()
        .split('\0')
        .map(str::to_string)
        .collect();
    assert_eq!(words.pop().as_deref(), Some(""), "NUL-terminated");
    words
}

#[test]
fn wrap_quotes_commands_so_that_sh_gives_them_back_byte_identical() {
    let input = "tests/fixtures/convert/claude-wrap-quoting.json";
    let source = json(&std::fs::read_to_string(input).unwrap());
    let original = |event: &str, i: usize| {
        source["hooks"][event][0]["hooks"][i]["command"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for to in ["copilot", "bricks"] {
        let r = convert(input, "claude", to, &["--wrap", "--format", "json"]);
        assert_eq!(r.code, 0, "{r:?}");
        let report = json(&r.stdout);
        let out = json(report["output"].as_str().unwrap());
        // (event in the output, canonical event, original command, --match)
        let mut seen = 0;
        let handlers: Vec<(String, Value)> = out["hooks"]
            .as_object()
            .unwrap()
            .iter()
            .flat_map(|(event, list)| {
                list.as_array().unwrap().iter().flat_map(move |entry| {
                    let nested = entry["hooks"].as_array().cloned();
                    nested
                        .unwrap_or_else(|| vec![entry.clone()])
                        .into_iter()
                        .map(move |h| (event.clone(), h))
                })
            })
            .collect();
        for (event, handler) in handlers {
            let line = handler["bash"]
                .as_str()
                .or(handler["command"].as_str())
                .unwrap();
            let words = without_timeout(shell_words(line), line, None);
            let (canonical, expected, matcher) = match event.as_str() {
                "sessionStart" | "SessionStart" => (
                    "SessionStart",
                    original("SessionStart", 0),
                    // Copilot does not filter sessionStart: hookx exec filters instead.
                    (to == "copilot").then_some("startup|resume"),
                ),
                "preToolUse" | "PreToolUse" => {
                    let i = seen;
                    seen += 1;
                    ("PreToolUse", original("PreToolUse", i), None)
                }
                "agentStop" | "Stop" => ("Stop", original("Stop", 0), None),
                other => panic!("unexpected event {other}"),
            };
            let mut want = vec!["exec", "--host", to, "--as", "claude", "--event", canonical];
            if let Some(m) = matcher {
                want.extend(["--match", m]);
            }
            want.push("--");
            let mut want: Vec<String> = want.into_iter().map(str::to_string).collect();
            want.push(expected);
            assert_eq!(words, want, "{to}: {line}");
        }
        assert_eq!(seen, 3, "{to}: every PreToolUse handler checked");
        // Wrapped, nothing is lost: the matcher runs in hookx exec. (A handler's context on
        // an event the target takes none on is said: row 2188.)
        let losses: Vec<&serde_json::Value> = report["losses"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| {
                !l["what"]
                    .as_str()
                    .is_some_and(|w| w.starts_with("any additional context it answers on"))
            })
            .collect();
        assert_eq!(losses, Vec::<&serde_json::Value>::new(), "{to}");
    }
}

/// The words of a wrapped command without its `--timeout N`, which says the timeout the
/// handler was written with, and only that: a handler without one has none, and `hookx exec`
/// applies the default of the dialect it was written for.
fn without_timeout(mut words: Vec<String>, line: &str, written: Option<u64>) -> Vec<String> {
    let at = words.iter().position(|w| w == "--timeout");
    let found = at.map(|at| {
        words.remove(at);
        words.remove(at)
    });
    assert_eq!(found, written.map(|t| t.to_string()), "{line}");
    words
}

/// Copilot `cwd` and `env` become part of the wrapped command line, still one word.
#[test]
fn wrap_keeps_copilot_cwd_and_env_inside_the_wrapped_command() {
    let r = convert(
        "tests/fixtures/copilot/seed-command-hook.json",
        "copilot",
        "claude",
        &["--wrap"],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let out = json(&r.stdout);
    let line = out["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert_eq!(
        without_timeout(shell_words(line), line, Some(30)),
        [
            "exec",
            "--host",
            "claude",
            "--as",
            "copilot",
            "--event",
            "PreToolUse",
            "--",
            "export VAR=value; cd optional/working/directory || exit 1; your-bash-command"
        ]
    );
}

const AMBIGUOUS: &str = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./x.sh"}]}]}}"#;

#[test]
fn detection_by_path_and_ambiguity() {
    let dir = tempfile::tempdir().unwrap();
    // Content that reads as Claude, Bricks or Copilot's PascalCase form: the path decides.
    for (file, dialect) in [
        (".github/hooks/guard.json", "copilot"),
        (".copilot/hooks/guard.json", "copilot"),
        (".bricks/hooks.json", "bricks"),
        (".bricks-project-desktop/hooks.json", "bricks"),
        (".claude/settings.json", "claude"),
        ("settings.local.json", "claude"),
    ] {
        let path = common::write(dir.path(), file, AMBIGUOUS);
        // Converting to the detected dialect is the identity; converting to any other
        // registered dialect changes it (Copilot writes flat camelCase entries, Bricks and
        // Claude add timeouts, the others rename the event or the tool).
        let r = run(&["convert", path_str(&path), "--to", dialect]);
        assert_eq!(r.code, 0, "{file}: {r:?}");
        assert_eq!(
            json(&r.stdout),
            json(AMBIGUOUS),
            "{file} was not read as {dialect}"
        );
        assert!(r.stderr.contains("no losses"), "{file}: {}", r.stderr);
        for other in Dialect::all()
            .iter()
            .map(|d| d.name())
            .filter(|d| *d != dialect)
        {
            let r = run(&["convert", path_str(&path), "--to", other]);
            assert_eq!(r.code, 0);
            // Not JSON at all for a dialect of hook scripts (Cline).
            let written = serde_json::from_str::<Value>(&r.stdout).ok();
            assert_ne!(written, Some(json(AMBIGUOUS)), "{file} → {other}");
        }
    }
    // Content decides where the path does not.
    for (text, dialect) in [
        (r#"{"version":1,"hooks":{"PreToolUse":[]}}"#, "copilot"),
        (
            r#"{"GoalUpdate":[{"hooks":[{"type":"command","command":"x"}]}]}"#,
            "bricks",
        ),
        (
            r#"{"permissions":{},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x"}]}]}}"#,
            "claude",
        ),
    ] {
        let path = dir.path().join("content.json");
        std::fs::write(&path, text).unwrap();
        let r = run(&["convert", path_str(&path), "--to", dialect]);
        assert_eq!(r.code, 0, "{text}: {r:?}");
        assert_eq!(
            json(&r.stdout),
            json(text),
            "{text} was not read as {dialect}"
        );
    }
    // Ambiguous content without a telling path: read as Claude, and a note says so and how to
    // choose.
    let path = dir.path().join("a.json");
    std::fs::write(&path, AMBIGUOUS).unwrap();
    for command in ["convert", "validate"] {
        let mut args = vec![command, path_str(&path)];
        if command == "convert" {
            args.extend(["--to", "claude"]);
        }
        let r = run(&args);
        assert_eq!(r.code, 0, "{command}: {r:?}");
        assert!(
            r.stderr.contains("read as claude"),
            "{command}: {}",
            r.stderr
        );
        assert!(r.stderr.contains("--from"), "{command}: {}", r.stderr);
        assert!(r.stderr.contains(path_str(&path)), "{}", r.stderr);
        if command == "convert" {
            assert_eq!(
                json(&r.stdout),
                json(AMBIGUOUS),
                "the identity: read as Claude"
            );
        }
    }
    // --from settles it.
    let r = convert(path_str(&path), "bricks", "bricks", &[]);
    assert_eq!(r.code, 0, "{r:?}");
}

/// Every kind of bad input: exit 1, the file named (with line:col for what has a position),
/// no panic, no hang, and no target written or touched.
#[test]
fn bad_input_is_refused_without_panics_hangs_or_writes() {
    let scratch = tempfile::tempdir().unwrap();
    let mut cases: Vec<(String, Option<&str>, bool)> = Vec::new(); // (path, --from, has position)
    for entry in std::fs::read_dir("tests/fixtures/invalid").unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let from = Dialect::all()
            .iter()
            .map(|d| d.name())
            .find(|d| name.starts_with(&format!("{d}-")));
        // Files with one bad value and a readable rest convert, with the value a loss item.
        if PARTLY_READABLE.contains(&name.as_str()) {
            continue;
        }
        cases.push((format!("tests/fixtures/invalid/{name}"), from, true));
    }
    assert!(cases.len() >= 13, "{cases:?}");

    // A directory, a file that does not exist.
    let a_dir = scratch.path().join("settings.json");
    std::fs::create_dir(&a_dir).unwrap();
    cases.push((path_str(&a_dir).to_string(), None, false));
    cases.push((
        path_str(&scratch.path().join("missing.json")).to_string(),
        None,
        false,
    ));

    // An unreadable file (root reads it anyway: then there is nothing to test).
    let locked = scratch.path().join("locked.json");
    std::fs::write(&locked, AMBIGUOUS).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    }
    if std::fs::read(&locked).is_err() {
        cases.push((path_str(&locked).to_string(), Some("claude"), false));
    }

    // 20 MB of valid JSON.
    let huge = scratch.path().join("huge.json");
    let mut text = String::from("{\"hooks\": {}, \"pad\": \"");
    text.push_str(&"a".repeat(20 * 1024 * 1024));
    text.push_str("\"}");
    std::fs::write(&huge, text).unwrap();
    cases.push((path_str(&huge).to_string(), Some("claude"), false));

    // Deep nesting in JSON (beyond the fixture's 10 000) and in YAML frontmatter.
    let deep_json = scratch.path().join("deep.json");
    std::fs::write(&deep_json, "[".repeat(200_000)).unwrap();
    cases.push((path_str(&deep_json).to_string(), Some("claude"), true));
    let deep_flow = scratch.path().join("deep-flow.md");
    std::fs::write(
        &deep_flow,
        format!("---\nhooks: {}\n---\n", "[".repeat(100_000)),
    )
    .unwrap();
    cases.push((path_str(&deep_flow).to_string(), None, true));
    let deep_block = scratch.path().join("deep-block.md");
    let block: String = (1..2000)
        .map(|i| format!("{}a:\n", " ".repeat(i)))
        .collect();
    std::fs::write(&deep_block, format!("---\nhooks:\n{block}---\n")).unwrap();
    cases.push((path_str(&deep_block).to_string(), None, true));

    let out_dir = tempfile::tempdir().unwrap();
    let out = out_dir.path().join("out.json");
    let existing = out_dir.path().join("existing.json");
    std::fs::write(&existing, SETTINGS).unwrap();
    for (path, from, has_position) in &cases {
        let with_from = |mut args: Vec<String>| {
            if let Some(d) = from {
                args.extend(["--from".to_string(), d.to_string()]);
            }
            args
        };
        let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        for args in [
            with_from(s(&[
                "convert",
                path,
                "--to",
                "copilot",
                "--out",
                path_str(&out),
            ])),
            with_from(s(&[
                "convert",
                path,
                "--to",
                "claude",
                "--write",
                "--out",
                path_str(&existing),
            ])),
            with_from(s(&["convert", path, "--to", "bricks", "--format", "json"])),
            with_from(s(&["validate", path])),
        ] {
            let r = run(&args);
            assert_eq!(r.code, 1, "{args:?}: {r:?}");
            // convert reports on stderr; validate prints its diagnostics on stdout.
            let report = if args[0] == "validate" && r.stderr.is_empty() {
                &r.stdout
            } else {
                &r.stderr
            };
            assert!(
                report.contains(path.as_str()),
                "{args:?} does not name the file: {r:?}"
            );
            if *has_position {
                let named = report
                    .lines()
                    .map(|l| l.strip_prefix("error: ").unwrap_or(l))
                    .filter_map(|l| l.strip_prefix(path.as_str())?.strip_prefix(':'))
                    .any(|rest| {
                        let mut parts = rest.split(':');
                        parts
                            .next()
                            .is_some_and(|n| n.parse::<usize>().is_ok_and(|n| n > 0))
                            && parts
                                .next()
                                .is_some_and(|n| n.parse::<usize>().is_ok_and(|n| n > 0))
                    });
                assert!(named, "{args:?}: no {path}:line:col in {report}");
            }
            if args[0] == "convert" && args.contains(&"json".to_string()) {
                assert_eq!(r.stdout, "", "{args:?}: no half report on stdout");
            }
            assert!(!out.exists(), "{args:?} wrote {}", out.display());
            assert_eq!(
                std::fs::read_to_string(&existing).unwrap(),
                SETTINGS,
                "{args:?}"
            );
            assert_eq!(listing(out_dir.path()), ["existing.json"], "{args:?}");
        }
    }
}

/// Invalid fixtures whose only problem is one value: the rest of the file converts.
const PARTLY_READABLE: [&str; 6] = [
    "cursor-timeout-string.json",
    "claude-timeout-string.json",
    "gemini-timeout-string.json",
    "bricks-timeout-string.json",
    "copilot-timeoutsec-string.json",
    "copilot-env-number.json",
];

/// One unreadable part of a file (a bad value, a malformed group, a handler type hookx cannot
/// read) is a loss item with its position; the rest converts and is written. `validate` still
/// fails on it, and `--strict` refuses to write.
#[test]
fn one_unreadable_part_is_a_located_loss_and_the_rest_converts() {
    let dir = tempfile::tempdir().unwrap();
    let mixed = common::write(
        dir.path(),
        "mixed.json",
        r#"{
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hook": "x.sh" },
      { "matcher": "Bash", "hooks": [
        { "type": "webhook", "url": "https://example.com/hook" },
        { "type": "command", "command": "./guard.sh" }
      ] }
    ]
  }
}
"#,
    );
    let mut cases: Vec<(String, &str, String)> = PARTLY_READABLE
        .iter()
        .map(|name| {
            let from = name.split('-').next().unwrap();
            (
                format!("tests/fixtures/invalid/{name}"),
                from,
                String::new(),
            )
        })
        .collect();
    cases.push((
        path_str(&mixed).to_string(),
        "claude",
        format!("{}:4:7", path_str(&mixed)),
    ));
    cases.push((
        path_str(&mixed).to_string(),
        "claude",
        format!("{}:6:19", path_str(&mixed)),
    ));
    for (path, from, position) in &cases {
        let out = dir.path().join("out.json");
        let _ = std::fs::remove_file(&out);
        let to = if *from == "claude" {
            "copilot"
        } else {
            "claude"
        };
        let r = convert(path, from, to, &["--out", path_str(&out)]);
        assert_eq!(r.code, 0, "{path}: {r:?}");
        assert!(out.exists(), "{path}: the readable rest is written");
        let located = r.stderr.lines().any(|l| {
            l.strip_prefix("loss: ").is_some_and(|l| {
                l.starts_with(path.as_str())
                    && (position.is_empty() || l.starts_with(position.as_str()))
            })
        });
        assert!(
            located,
            "{path}: no located loss at {position}: {}",
            r.stderr
        );
        assert!(!r.stderr.contains("no losses"), "{}", r.stderr);
        let _ = std::fs::remove_file(&out);
        let strict = convert(path, from, to, &["--out", path_str(&out), "--strict"]);
        assert_eq!(strict.code, 3, "{path}: {strict:?}");
        assert!(!out.exists(), "{path}: --strict wrote");
        assert_eq!(run(&["validate", path, "--from", from]).code, 1, "{path}");
    }
    // The guard of the mixed file is there, wrapped.
    let r = convert(path_str(&mixed), "claude", "copilot", &[]);
    let out = json(&r.stdout);
    let entries = out["hooks"]["preToolUse"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{out:#}");
    assert!(
        entries[0]["bash"]
            .as_str()
            .unwrap()
            .ends_with("-- ./guard.sh")
    );
}

/// Several inputs, one of them bad: nothing is written.
#[test]
fn one_bad_input_among_several_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let r = run(&[
        "convert",
        BLOCK_RM,
        "tests/fixtures/invalid/trailing-comma.json",
        "--from",
        "claude",
        "--to",
        "copilot",
        "--out",
        path_str(&out),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("tests/fixtures/invalid/trailing-comma.json:4:3: error")
    );
    assert!(!out.exists());
}

/// A file with no hook config (a `package.json`) is an error and nothing is written; an empty
/// `hooks` object is a plain "no hooks found", nothing written either.
#[test]
fn a_file_without_hooks_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let package = common::write(dir.path(), "package.json", r#"{"name":"x","scripts":{}}"#);
    let r = run(&[
        "convert",
        path_str(&package),
        "--to",
        "claude",
        "--write",
        "--project",
        path_str(dir.path()),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("no hooks found") && r.stderr.contains("package.json"),
        "{}",
        r.stderr
    );
    assert!(!dir.path().join(".claude").exists());
    let empty = common::write(dir.path(), "empty.json", r#"{"hooks":{}}"#);
    let r = run(&[
        "convert",
        path_str(&empty),
        "--to",
        "claude",
        "--write",
        "--project",
        path_str(dir.path()),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("nothing written"), "{}", r.stderr);
    assert!(!dir.path().join(".claude").exists());
}

/// `-` reads the config from stdin, detected by content.
#[test]
fn convert_reads_stdin() {
    let text = std::fs::read_to_string("tests/fixtures/copilot/seed-command-hook.json").unwrap();
    let out = hookx()
        .args(["convert", "-", "--to", "claude", "--no-wrap"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let converted = json(&String::from_utf8_lossy(&out.stdout));
    assert!(converted["hooks"]["PreToolUse"].is_array(), "{converted:#}");
}

/// `--to copilot,bricks --write` writes both agents' project files in one run.
#[test]
fn several_targets_in_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(&[
        "convert",
        BLOCK_RM,
        "--to",
        "copilot,bricks",
        "--write",
        "--project",
        path_str(dir.path()),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    for file in [".github/hooks/hooks.json", ".bricks/hooks.json"] {
        let text = std::fs::read_to_string(dir.path().join(file)).unwrap();
        assert!(text.contains("block-rm.sh"), "{file}: {text}");
    }
    assert!(
        r.stderr.contains("to copilot:") && r.stderr.contains("to bricks:"),
        "{}",
        r.stderr
    );
    // JSON: one report per target.
    let r = run(&[
        "convert",
        BLOCK_RM,
        "--to",
        "copilot,bricks",
        "--format",
        "json",
    ]);
    let reports = json(&r.stdout);
    assert_eq!(reports.as_array().map(Vec::len), Some(2), "{reports:#}");
}

/// A Claude plugin's `hooks/hooks.json` converts without `--from`.
#[test]
fn a_plugin_hooks_file_is_read_as_claude() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        std::fs::read_to_string("tests/fixtures/claude/wild-plugin-hooks-no-wrapper.json").unwrap();
    let path = common::write(dir.path(), "my-plugin/hooks/hooks.json", &text);
    let r = run(&["convert", path_str(&path), "--to", "copilot"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        !r.stderr.contains("read as claude"),
        "no note needed: {}",
        r.stderr
    );
}

/// `completions SHELL` and `man` print what clap_complete and clap_mangen make of the CLI.
#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let r = run(&["completions", shell]);
        assert_eq!(r.code, 0, "{shell}: {r:?}");
        assert!(
            r.stdout.contains("convert") && r.stdout.contains("simulate"),
            "{shell}"
        );
    }
    let man = run(&["man"]);
    assert_eq!(man.code, 0);
    assert!(
        man.stdout.starts_with(".ie") || man.stdout.contains(".TH hookx 1"),
        "{}",
        man.stdout
    );
    // Every command's help shows an example and the exit codes.
    for command in [
        "convert", "validate", "run", "simulate", "exec", "schema", "list", "trust", "install",
    ] {
        let r = run(&[command, "--help"]);
        assert!(
            r.stdout.contains("Example:\n  hookx "),
            "{command}: {}",
            r.stdout
        );
        assert!(r.stdout.contains("Exit codes:"), "{command}");
    }
}

/// hookx's own diagnostics are coloured when colour is asked for (a terminal, or
/// CLICOLOR_FORCE), never under NO_COLOR, and not in a pipe.
#[test]
fn diagnostics_are_coloured_only_where_wanted() {
    let bad = "tests/fixtures/invalid/claude-hooks-object.json";
    let stderr = |env: &[(&str, &str)]| {
        let mut cmd = hookx();
        cmd.args(["convert", bad, "--to", "copilot"])
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE");
        for (k, v) in env {
            cmd.env(k, v);
        }
        String::from_utf8_lossy(&cmd.output().unwrap().stderr).into_owned()
    };
    assert!(
        stderr(&[("CLICOLOR_FORCE", "1")]).contains("\u{1b}["),
        "forced colour"
    );
    assert!(!stderr(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]).contains('\u{1b}'));
    assert!(!stderr(&[]).contains('\u{1b}'), "a pipe gets no colour");
}

/// `exec --if` applies Claude's `if` filter: the handler runs only for matching tool calls.
#[test]
fn exec_if_runs_the_handler_only_for_matching_calls() {
    let exec = |command: &str| {
        let payload = serde_json::json!({
            "session_id": "s", "transcript_path": "/tmp/t", "cwd": "/tmp",
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command}
        });
        hookx()
            .args([
                "exec",
                "--host",
                "claude",
                "--as",
                "claude",
                "--event",
                "PreToolUse",
            ])
            .args(["--if", "Bash(git push *)", "--", "echo refused >&2; exit 2"])
            .write_stdin(payload.to_string())
            .output()
            .unwrap()
    };
    let pushed = exec("git push origin main");
    let stdout = String::from_utf8_lossy(&pushed.stdout);
    let denied = pushed.status.code() == Some(2) || stdout.contains("\"deny\"");
    assert!(denied, "{pushed:?}");
    let listed = exec("git status");
    assert_eq!(listed.status.code(), Some(0), "{listed:?}");
    assert!(
        listed.stdout.is_empty() && listed.stderr.is_empty(),
        "{listed:?}"
    );
    // A malformed rule: the host gets the failure policy's answer, which names the rule.
    let bad = hookx()
        .args([
            "exec", "--host", "claude", "--as", "claude", "--if", "Bash(git", "--", "true",
        ])
        .write_stdin(r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}"#)
        .output()
        .unwrap();
    let answer = String::from_utf8_lossy(&bad.stdout);
    assert!(
        answer.contains("\"deny\"") && answer.contains("`if` rule `Bash(git`"),
        "{bad:?}"
    );
}

/// A Claude config with one PreToolUse handler, written to a temp dir.
fn claude_config_with(dir: &Path, command: &str) -> String {
    let config = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": command}]}]}});
    let path = dir.join("settings.json");
    std::fs::write(&path, config.to_string()).unwrap();
    path.display().to_string()
}

/// The `bash` line of the first preToolUse entry of a converted Copilot file.
fn first_copilot_line(stdout: &str) -> String {
    let report = json(stdout);
    let out = json(report["output"].as_str().unwrap());
    out["hooks"]["preToolUse"][0]["bash"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_40_kb_quote_heavy_handler_still_runs_once_wrapped() {
    // 40 KB of single quotes: 160 KB once single-quoted, over Linux's 128 KiB argument limit
    // ("Argument list too long" when the host starts `sh -c`).
    let dir = tempfile::tempdir().unwrap();
    let command = format!("printf '%s' ok{}", "''".repeat(20_000));
    let input = claude_config_with(dir.path(), &command);
    let r = convert(&input, "claude", "copilot", &["--format", "json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let line = first_copilot_line(&r.stdout);
    assert!(line.contains(" exec --host copilot --as claude "), "{line}");
    // Run it the way Copilot does, with this build of hookx first on PATH.
    let bin = Path::new(env!("CARGO_BIN_EXE_hookx")).parent().unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let payload =
        r#"{"timestamp":1,"cwd":"/tmp","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#;
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(&line)
        .env("PATH", path)
        .env("HOME", dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the wrapped line starts (E2BIG: Argument list too long)");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{output:?}");
}

#[test]
fn a_handler_too_large_to_wrap_is_reported_and_left_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let command = format!("true {}", "x".repeat(140 * 1024));
    let input = claude_config_with(dir.path(), &command);
    let r = convert(&input, "claude", "copilot", &["--format", "json"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(first_copilot_line(&r.stdout), command);
    let report = json(&r.stdout);
    let losses = report["losses"].to_string();
    assert!(losses.contains("128 KiB"), "{losses}");
    assert!(losses.contains("/hooks/PreToolUse/0/hooks/0"), "{losses}");
}
