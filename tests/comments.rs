//! Hook files with `//` and `/* */` comments: read as the agent reads them
//! (`ConfigSpec::json_syntax`, from the live suites' `*_with_comments_or_trailing_commas`
//! tests), positions named in the text as written, and writes that keep the comments or refuse.

mod common;

use assert_cmd::Command;
use std::path::PathBuf;

/// A Gemini settings file with comments before, inside and after its values: a SessionStart
/// handler and, on line 8, an event Gemini does not have.
const GEMINI_WITH_COMMENTS: &str = r#"// team hooks: keep this note
{
  /* the model we use */ "model": {"name": "x"},
  "hooks": {
    "SessionStart": [
      {"hooks": [{"type": "command", "command": "echo start"}]} // greets
    ],
    /* not an event */ "NoSuchEvent": []
  }
}
"#;

/// A Copilot file the install routes from (every host gets an event to route).
const COPILOT: &str = r#"{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "echo cop"}], "preToolUse": [{"type": "command", "bash": "echo pre"}]}}"#;

struct World {
    _dir: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (project, home) = (root.join("project"), root.join("home"));
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        common::write(&project, ".github/hooks/team.json", COPILOT);
        World {
            _dir: dir,
            project,
            home,
        }
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        common::write(&self.project, rel, text)
    }

    /// `hookx ARGS…` in the project; with `--project` and `--home` for the commands that take
    /// them (not `validate` and `convert`, which name files).
    fn hookx(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        if matches!(args[0], "validate" | "convert") {
            let mut cmd = common::hookx();
            cmd.args(args)
                .current_dir(&self.project)
                .env("HOME", &self.home)
                .env_remove("HOOKX_HOME");
            assert_cmd::assert::OutputAssertExt::assert(&mut cmd)
        } else {
            common::hookx_at(&self.project, &self.home, args)
        }
    }

    fn stdout(&self, args: &[&str]) -> String {
        let out = self.hookx(args).get_output().stdout.clone();
        String::from_utf8(out).unwrap()
    }

    /// What `hookx ARGS…` printed, stdout then stderr.
    fn printed(&self, args: &[&str]) -> String {
        let assert = self.hookx(args);
        let out = assert.get_output();
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
    }
}

/// Gemini reads settings with comments: so does hookx, and a diagnostic names the line and
/// column of the text as written.
#[test]
fn gemini_settings_with_comments_are_read_with_positions_as_written() {
    let w = World::new();
    w.write(".gemini/settings.json", GEMINI_WITH_COMMENTS);
    let out = w.stdout(&["validate", ".gemini/settings.json", "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let diags = report.as_array().unwrap_or_else(|| panic!("{report:#}"));
    let unknown = diags
        .iter()
        .find(|d| {
            d["message"]
                .as_str()
                .unwrap()
                .contains("unknown gemini event")
        })
        .unwrap_or_else(|| panic!("no diagnostic on the unknown event: {report:#}"));
    // The event's array, after the block comment on line 8.
    assert_eq!(
        (&unknown["line"], &unknown["col"]),
        (&8.into(), &39.into()),
        "{unknown:#}"
    );
    assert!(
        diags.iter().all(|d| d["severity"] != "error"),
        "comments are no error in a Gemini settings file: {report:#}"
    );
    let list = w.stdout(&["list", "--format", "json"]);
    assert!(list.contains("echo start"), "{list}");
}

/// A syntax error after a comment, in a file whose agent accepts comments, is named where it is.
#[test]
fn syntax_errors_after_comments_name_their_place() {
    let w = World::new();
    w.write(
        ".gemini/settings.json",
        "{\n  // a comment\n  \"hooks\": {\"SessionStart\": []}\n  \"model\": {}\n}\n",
    );
    let err = w.printed(&["validate", ".gemini/settings.json"]);
    // Where the comma is missing, after the value that ends line 3.
    assert!(
        err.contains(".gemini/settings.json:3:32: error: invalid JSON: Expected comma"),
        "{err}"
    );
    w.hookx(&["validate", ".gemini/settings.json"]).code(1);
}

/// Claude Code, Copilot CLI and Codex drop a hook file with a comment (run): hookx reads it as
/// broken, says why at the comment, and doctor says the host loads none of its hooks.
#[test]
fn strict_agents_files_with_comments_are_errors_at_the_comment() {
    let w = World::new();
    let text = "{\n  \"hooks\": {\n    /* off for now */\n    \"Stop\": []\n  }\n}\n";
    for (file, host) in [
        (".claude/settings.json", "claude"),
        (".github/hooks/commented.json", "copilot"),
        (".codex/hooks.json", "codex"),
    ] {
        w.write(file, text);
        let err = w.printed(&["validate", file]);
        assert!(
            err.contains(&format!("{file}:3:5: error: invalid JSON")),
            "{err}"
        );
        assert!(err.contains("comments are not JSON"), "{err}");
        let doctor = w.stdout(&["doctor", "--host", host]);
        assert!(
            doctor.contains("has comments, and") && doctor.contains("reads it as strict JSON"),
            "{host}: {doctor}"
        );
    }
}

/// `install` into a Gemini settings file with comments keeps every comment, and `--uninstall`
/// gives the bytes back; a file without comments round-trips byte for byte too.
#[test]
fn install_keeps_comments_where_the_agent_reads_them() {
    for text in [
        GEMINI_WITH_COMMENTS.replace("/* not an event */ \"NoSuchEvent\": []", "\"x\": []"),
        "{\n  \"hooks\": {\n    \"SessionStart\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"a\"}]}]\n  }\n}\n"
            .to_string(),
    ] {
        let w = World::new();
        let path = w.write(".gemini/settings.json", &text);
        w.hookx(&["install", "--host", "gemini"]).success();
        let installed = std::fs::read_to_string(&path).unwrap();
        assert!(installed.contains("run --host gemini"), "{installed}");
        for line in text.lines().filter(|l| l.contains("//") || l.contains("/*")) {
            // A route appended after the last item puts a comma before its comment, no more.
            let line = line.trim();
            let with_comma = line
                .find(" //")
                .map(|at| format!("{},{}", &line[..at], &line[at..]));
            assert!(
                installed.contains(line) || with_comma.is_some_and(|l| installed.contains(&l)),
                "lost {line:?}:\n{installed}"
            );
        }
        w.hookx(&["install", "--host", "gemini", "--uninstall"]).success();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
}

/// `install` into a Claude settings file with comments, which Claude Code drops, is refused:
/// the file is named, the comment placed, the file left as it was.
#[test]
fn install_refuses_comments_the_agent_does_not_read() {
    let w = World::new();
    let text = "// mine\n{\"permissions\": {}}\n";
    let path = w.write(".claude/settings.json", text);
    let err = w.printed(&["install", "--host", "claude"]);
    w.hookx(&["install", "--host", "claude"]).code(1);
    assert!(
        err.contains(".claude/settings.json:1:1: error: invalid JSON"),
        "{err}"
    );
    assert!(err.contains("comments are not JSON"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

/// `convert --write` into a Gemini settings file with comments keeps them.
#[test]
fn convert_write_keeps_comments() {
    let w = World::new();
    let text = "{\n  // ours\n  \"model\": {}\n}\n";
    let path = w.write(".gemini/settings.json", text);
    w.hookx(&[
        "convert",
        ".github/hooks/team.json",
        "--to",
        "gemini",
        "--write",
    ])
    .success();
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(
        written.contains("// ours") && written.contains("echo cop"),
        "{written}"
    );
}

/// `hookx run` (its pruned read) runs a trusted Gemini handler from settings with comments
/// under another host.
#[test]
fn run_reads_settings_with_comments() {
    let w = World::new();
    let mark = w.project.join("ran.txt");
    let text = format!(
        "// c\n{{\n  \"hooks\": {{\"SessionStart\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"echo ran > '{}'\"}}]}}]}} /* x */\n}}\n",
        mark.display()
    );
    w.write(".gemini/settings.json", &text);
    w.hookx(&["trust", "--yes"]).success();
    let payload = serde_json::json!({"session_id": "s", "transcript_path": "/tmp/t",
        "cwd": w.project, "hook_event_name": "SessionStart", "source": "startup"});
    Command::cargo_bin("hookx")
        .unwrap()
        .args(["run", "--host", "claude", "--project"])
        .arg(&w.project)
        .arg("--home")
        .arg(&w.home)
        .env("HOME", &w.home)
        .env_remove("HOOKX_HOME")
        .current_dir(&w.project)
        .write_stdin(payload.to_string())
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&mark).unwrap(), "ran\n");
}

/// An event list (or `hooks` object) that holds only the user's comment is the user's: install appends its route
/// there, and uninstall takes the route out and leaves the list and its comment (attacks row
/// 138: uninstall took the emptied list out, its comment and the emptied `hooks` with it).
#[test]
fn uninstall_leaves_an_event_list_that_holds_only_a_comment() {
    for text in [
        "{\n  \"hooks\": {\n    \"BeforeTool\": [\n      // only a comment\n    ]\n  }\n}\n",
        "{\n  \"hooks\": {\n    \"BeforeTool\": [ /* c */ ]\n  }\n}\n",
        "{\n  \"hooks\": {\n    // my hooks go here\n  }\n}\n",
    ] {
        let w = World::new();
        let path = w.write(".gemini/settings.json", text);
        // A Claude guard, which Gemini does not read: the route brings it.
        w.write(
            ".claude/settings.json",
            r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}]}}"#,
        );
        w.hookx(&["install", "--host", "gemini"]).success();
        let installed = std::fs::read_to_string(&path).unwrap();
        assert!(installed.contains("run --host gemini"), "{installed}");
        w.hookx(&["install", "--host", "gemini", "--uninstall"])
            .success();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
}
