//! hookx's one writer, on the real binary: `convert --write` as a sync, writes through
//! symlinks (convert, trust), concurrent writers (install's byte-exact edits, modes and
//! symlinks are tested in `install.rs`).

mod common;

use serde_json::Value;
use std::path::{Path, PathBuf};

const BLOCK_RM: &str = "tests/fixtures/claude/seed-block-rm.json";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn convert(input: &str, from: &str, to: &str, extra: &[&str]) -> Run {
    let output = common::hookx()
        .args(["convert", input, "--from", from, "--to", to])
        .args(extra)
        .output()
        .unwrap();
    Run {
        code: output.status.code().expect("hookx exited"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

fn record(home: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(home.join(".hookx/trust.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[cfg(unix)]
#[test]
fn trust_writes_through_a_symlinked_record() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    let hooks = common::write(&project, ".bricks/hooks.json", r#"{"hooks": {}}"#);
    let real = common::write(
        &root,
        "dotfiles/trust.json",
        "{\"version\": 2, \"trusted\": []}\n",
    );
    std::fs::create_dir_all(home.join(".hookx")).unwrap();
    let link = home.join(".hookx/trust.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    common::hookx_at(&project, &home, &["trust", hooks.to_str().unwrap()]).success();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let trusted = &record(&home)["trusted"];
    let hooks = hooks.to_str().unwrap();
    assert!(
        trusted
            .as_array()
            .is_some_and(|t| t.iter().any(|r| r["path"] == hooks)),
        "{trusted}"
    );
}

/// A Claude settings file with one Bash guard of the given timeout (none: no hooks at all).
fn guard_source(timeout: Option<u64>) -> String {
    match timeout {
        Some(t) => format!(
            r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "./guard.sh", "timeout": {t}}}]}}]}}}}"#
        ),
        None => r#"{"hooks": {}}"#.to_string(),
    }
}

#[test]
fn write_syncs_the_entries_it_wrote_with_the_source() {
    let dir = tempfile::tempdir().unwrap();
    let source = common::write(
        dir.path(),
        "src/.claude/settings.json",
        &guard_source(Some(5)),
    );
    let hand = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"preToolUse\": [\n      {\"type\": \"command\", \"bash\": \"./mine.sh\", \"timeoutSec\": 3}\n    ]\n  }\n}\n";
    let target = common::write(dir.path(), "out/hooks.json", hand);
    let write = || {
        let r = convert(
            path_str(&source),
            "claude",
            "copilot",
            &["--write", "--no-wrap", "--out", path_str(&target)],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        std::fs::read_to_string(&target).unwrap()
    };
    let guards = |text: &str| -> Vec<Value> {
        json(text)["hooks"]["preToolUse"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["bash"] == "./guard.sh")
            .cloned()
            .collect()
    };
    let first = write();
    assert_eq!(guards(&first).len(), 1, "{first}");
    assert_eq!(guards(&first)[0]["timeoutSec"], 5);
    // The hand-written entry keeps its bytes.
    assert!(first.contains("{\"type\": \"command\", \"bash\": \"./mine.sh\", \"timeoutSec\": 3}"));

    // A second identical run changes nothing, not even the mtime.
    let mtime = std::fs::metadata(&target).unwrap().modified().unwrap();
    assert_eq!(write(), first);
    assert_eq!(
        std::fs::metadata(&target).unwrap().modified().unwrap(),
        mtime
    );

    // The source's timeout changes: the entry is replaced, not duplicated.
    std::fs::write(&source, guard_source(Some(7))).unwrap();
    let second = write();
    let now = guards(&second);
    assert_eq!(now.len(), 1, "{second}");
    assert_eq!(now[0]["timeoutSec"], 7);

    // The hook is deleted from the source: its entry goes, the hand-written one stays.
    std::fs::write(&source, guard_source(None)).unwrap();
    let third = write();
    assert!(guards(&third).is_empty(), "{third}");
    assert_eq!(third, hand);

    // A source without hooks creates no target.
    let absent = dir.path().join("none/hooks.json");
    let r = convert(
        path_str(&source),
        "claude",
        "copilot",
        &["--write", "--out", path_str(&absent)],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!absent.exists());
}

#[cfg(unix)]
#[test]
fn write_and_out_write_through_a_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let real = common::write(dir.path(), "dotfiles/settings.json", "{\"model\": \"x\"}\n");
    let link = dir.path().join("project/.claude/settings.json");
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    for extra in [vec!["--write"], vec![]] {
        let mut args = extra.clone();
        args.extend(["--out", path_str(&link)]);
        let r = convert(BLOCK_RM, "claude", "claude", &args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink(),
            "{extra:?} replaced the link"
        );
        let text = std::fs::read_to_string(&real).unwrap();
        assert!(text.contains("block-rm.sh"), "{extra:?}: {text}");
    }
}

#[test]
fn concurrent_writes_keep_every_addition() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("hooks.json");
    let sources: Vec<PathBuf> = (0..20)
        .map(|i| {
            common::write(
                dir.path(),
                &format!("src{i}.json"),
                &format!(
                    r#"{{"hooks": {{"Stop": [{{"hooks": [{{"type": "command", "command": "echo {i}"}}]}}]}}}}"#
                ),
            )
        })
        .collect();
    let children: Vec<_> = sources
        .iter()
        .map(|source| {
            std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
                .args([
                    "convert",
                    path_str(source),
                    "--from",
                    "claude",
                    "--to",
                    "bricks",
                ])
                .args(["--write", "--no-wrap", "--out", path_str(&target)])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let text = std::fs::read_to_string(&target).unwrap();
    let mut commands: Vec<String> = json(&text)["hooks"]["Stop"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["hooks"][0]["command"].as_str().unwrap().to_string())
        .collect();
    commands.sort();
    let mut expected: Vec<String> = (0..20).map(|i| format!("echo {i}")).collect();
    expected.sort();
    assert_eq!(commands, expected, "{text}");
    let names = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(names, 21, "a temporary file was left behind");
}

#[test]
fn concurrent_trust_runs_keep_every_record() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let files: Vec<PathBuf> = (0..12)
        .map(|i| {
            common::write(
                &project,
                &format!(".github/hooks/h{i}.json"),
                r#"{"version": 1, "hooks": {}}"#,
            )
        })
        .collect();
    let children: Vec<_> = files
        .iter()
        .map(|f| {
            std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
                .arg("trust")
                .arg(f)
                .arg("--project")
                .arg(&project)
                .arg("--home")
                .arg(&home)
                .env("HOME", &home)
                .env_remove("HOOKX_HOME")
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let text = std::fs::read_to_string(home.join(".hookx/trust.json")).unwrap();
    for f in &files {
        assert!(text.contains(path_str(f)), "{} lost:\n{text}", f.display());
    }
}

/// Numbers are written as they were read (issue 9: integers beyond 2^64 became floats, `1.10`
/// lost its zero, and `1e400` was refused as out of range): to stdout, into a new file, and
/// synced into an existing one whose own numbers stay byte for byte. The digits of a number
/// hookx writes are kept; only an exponent's implicit sign is spelled out (`1e+400`).
#[test]
fn numbers_are_written_as_they_were_read() {
    const NUMBERS: [&str; 5] = [
        "18446744073709551616",
        "-123456789012345678901234567890",
        "1.10",
        "1e400",
        "0.1000000000000000055511151231257827",
    ];
    let dir = tempfile::tempdir().unwrap();
    let input = common::write(
        dir.path(),
        "in/settings.json",
        &format!(
            r#"{{"cleanupPeriodDays": {}, "hooks": {{"PreToolUse": [{{"matcher": "Bash", "weight": {},
                "hooks": [{{"type": "command", "command": "true", "timeout": 5, "a": {}, "b": {}, "c": {}}}]}}]}}}}"#,
            NUMBERS[0], NUMBERS[1], NUMBERS[2], NUMBERS[3], NUMBERS[4]
        ),
    );
    let printed = convert(path_str(&input), "claude", "claude", &[]);
    assert_eq!(printed.code, 0, "{}", printed.stderr);
    let out = dir.path().join("out/settings.json");
    let r = convert(
        path_str(&input),
        "claude",
        "claude",
        &["--out", path_str(&out)],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let written = std::fs::read_to_string(&out).unwrap();
    let target = common::write(
        dir.path(),
        "synced/settings.json",
        "{\"feedbackSurveyRate\": 1E+2, \"big\": 98765432109876543210987654321}\n",
    );
    let r = convert(
        path_str(&input),
        "claude",
        "claude",
        &["--write", "--out", path_str(&target)],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let synced = std::fs::read_to_string(&target).unwrap();
    assert!(
        synced
            .starts_with("{\"feedbackSurveyRate\": 1E+2, \"big\": 98765432109876543210987654321,"),
        "{synced}"
    );
    let kept = |number: &str| number.replace("e4", "e+4");
    for (what, text) in [("stdout", &printed.stdout), ("--out", &written)] {
        for number in NUMBERS {
            assert!(
                text.contains(&kept(number)),
                "{what} lost {number}:\n{text}"
            );
        }
    }
    for number in &NUMBERS[1..] {
        assert!(
            synced.contains(&kept(number)),
            "--write lost {number}:\n{synced}"
        );
    }
}

/// Hooks of the user's own under the names `convert --to cline --write` and `hookx sync` write
/// in Cline's hook folder, which hookx cannot read as text: a compiled hook (Cline runs any
/// executable named after the event, cline-facts), a script in another encoding, a link to a
/// file not there (a generated script, not built in this checkout). Each is left as it is, and
/// convert says so; read as nothing there, each was replaced by a converted script (attacks
/// row 480). A name linked out of the project refuses the convert before any script is written.
#[test]
fn a_cline_hook_of_the_users_hookx_cannot_read_as_text_is_not_overwritten() {
    let compiled: &[u8] = b"\x7fELF\x02\x01\x01\x00\xff\xfe\x00 a compiled hook";
    let latin1: &[u8] = b"#!/bin/sh\n# caf\xe9\necho mine\n";
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let home = root.join("home");
    std::fs::create_dir_all(&home).unwrap();
    // A project whose Claude rule has `n` handlers, and the user's hooks under the names
    // `names` (a compiled one, a link to nothing, a Latin-1 script, in turn).
    let project = |name: &str, n: usize, names: &[&str]| {
        let project = root.join(name);
        let handlers: Vec<String> = (0..n)
            .map(|i| format!(r#"{{"type": "command", "command": "echo {i}"}}"#))
            .collect();
        common::write(
            &project,
            ".claude/settings.json",
            &format!(
                r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{}]}}]}}}}"#,
                handlers.join(", ")
            ),
        );
        let folder = project.join(".clinerules/hooks");
        std::fs::create_dir_all(&folder).unwrap();
        for (i, name) in names.iter().enumerate() {
            match i {
                0 => std::fs::write(folder.join(name), compiled).unwrap(),
                1 => std::os::unix::fs::symlink(project.join("build/guard.sh"), folder.join(name))
                    .unwrap(),
                _ => std::fs::write(folder.join(name), latin1).unwrap(),
            }
        }
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        let kept = move || {
            for (i, name) in names.iter().enumerate() {
                match i {
                    0 => assert_eq!(std::fs::read(folder.join(name)).unwrap(), compiled),
                    1 => assert!(std::fs::read_link(folder.join(name)).is_ok(), "{name}"),
                    _ => assert_eq!(std::fs::read(folder.join(name)).unwrap(), latin1),
                }
            }
        };
        (project, kept)
    };
    let hookx = |project: &Path, args: &[&str]| {
        let out = common::hookx()
            .args(args)
            .current_dir(project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };

    let (converted, kept) = project(
        "converted",
        3,
        &["PreToolUse", "PreToolUse.sh", "PreToolUse.bash"],
    );
    let (code, err) = hookx(
        &converted,
        &[
            "convert",
            ".claude/settings.json",
            "--to",
            "cline",
            "--write",
        ],
    );
    kept();
    assert_eq!(code, Some(1), "{err}");
    for (name, why) in [
        ("PreToolUse", "is not valid UTF-8"),
        ("PreToolUse.sh", "is a symbolic link to nothing"),
        ("PreToolUse.bash", "is not valid UTF-8"),
    ] {
        assert!(
            err.contains(&format!(
                "hooks/{name}: a hook hookx convert did not write ({why})"
            )),
            "{name}: {err}"
        );
    }

    let (synced, kept) = project("synced", 2, &["PreToolUse", "PreToolUse.sh"]);
    // `--check` too: the plan had the user's hooks as nothing there, "stale" for ever. Sync
    // refuses the target as convert does (row 581: passed over, the rules ran nowhere).
    let (code, err) = hookx(&synced, &["sync", "--init", "--to", "cline"]);
    assert_eq!(code, Some(0), "{err}");
    for args in [&["sync"][..], &["sync", "--check"]] {
        let (code, err) = hookx(&synced, args);
        assert_eq!(code, Some(1), "{err}");
        assert!(
            err.contains("hooks/PreToolUse: not a hook hookx wrote (is not valid UTF-8)"),
            "{err}"
        );
    }
    kept();

    let (outside, _) = project("outside", 2, &[]);
    let folder = outside.join(".clinerules/hooks");
    std::os::unix::fs::symlink(root.join("dotfiles/hook"), folder.join("PreToolUse.sh")).unwrap();
    let (code, err) = hookx(
        &outside,
        &[
            "convert",
            ".claude/settings.json",
            "--to",
            "cline",
            "--write",
        ],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("outside the project"), "{err}");
    assert!(
        !folder.join("PreToolUse").exists(),
        "written before the refusal: {err}"
    );
}

/// `hookx ARGS…` in `project`, with `HOME` the temporary `home`.
fn convert_in(project: &Path, home: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    common::hookx()
        .current_dir(project)
        .env("HOME", home)
        .env_remove("HOOKX_HOME")
        .args(args)
        .assert()
}

/// A trusted Claude guard and a project where `NAME` is a link to `.claude/settings.json`
/// (inside the project); the project and home.
fn linked_to_the_claude_file(name: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    common::write(&project, ".claude/settings.json", &guard_source(Some(5)));
    let link = project.join(name);
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    let back = "../".repeat(name.matches('/').count());
    std::os::unix::fs::symlink(format!("{back}.claude/settings.json"), &link).unwrap();
    (dir, project, home)
}

/// Attacks row 541: `.codex/hooks.json` a link to `.claude/settings.json` (a team that lets
/// Codex read Claude's file, the same shape): `convert --write` to Codex wrote the copies
/// into the source itself, beside their originals, "no losses": Claude ran each rule twice.
/// sync refuses such a target ("a file is either edited or generated"); so does convert.
#[test]
fn convert_write_refuses_a_target_that_is_its_source_under_another_name() {
    let (_dir, project, home) = linked_to_the_claude_file(".codex/hooks.json");
    let source = project.join(".claude/settings.json");
    let before = std::fs::read_to_string(&source).unwrap();
    let out = convert_in(
        &project,
        &home,
        &["convert", path_str(&source), "--to", "codex", "--write"],
    )
    .failure()
    .get_output()
    .clone();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("is also an input"), "{said}");
    assert_eq!(std::fs::read_to_string(&source).unwrap(), before, "{said}");
}

/// Attacks row 542: one file given twice (by two names: a link, or `./` and not) was read
/// and converted twice: every rule twice in the written file, "no losses", and the agent ran
/// each guard twice per call. Refused, naming both, nothing written.
#[test]
fn convert_refuses_a_file_given_twice() {
    let (_dir, project, home) = linked_to_the_claude_file("shared.json");
    let source = project.join(".claude/settings.json");
    let again = project.join(".claude/../shared.json");
    let out = convert_in(
        &project,
        &home,
        &[
            "convert",
            path_str(&source),
            path_str(&again),
            "--from",
            "claude",
            "--to",
            "gemini",
            "--write",
        ],
    )
    .failure()
    .get_output()
    .clone();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("given twice"), "{said}");
    assert!(!project.join(".gemini").exists(), "{said}");
}

/// Attacks row 621: the team's Codex file as the corpus holds it (`DVQ290703/English-Speaking-
/// Agent`'s `.codex/hooks.json`: a top-level `version`, handlers without `type`), which Codex
/// 0.171.0 refuses whole (row 175, `live_codex::hooks_json_forms_codex_refuses_whole`), and a
/// trusted Claude guard converted into it. `install` refuses a route there ("it would run
/// nowhere"); `convert --write` and `sync` wrote the guard's copy in, "no losses", exit 0: a
/// copy Codex never runs, which the team reads as converted.
#[test]
fn convert_write_and_sync_write_no_copy_into_a_file_its_agent_refuses_whole() {
    const CORPUS_CODEX: &str = r#"{
  "version": "1.0",
  "hooks": {
    "UserPromptSubmit": [
      {
        "hooks": [
          {
            "name": "log-prompt",
            "command": "python scripts/log_hook.py --tool codex",
            "timeout": 10
          }
        ]
      }
    ]
  }
}
"#;
    for how in ["convert", "sync"] {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (project, home) = (root.join("project"), root.join("home"));
        std::fs::create_dir_all(&home).unwrap();
        common::write(&project, ".claude/settings.json", &guard_source(Some(5)));
        let codex = common::write(&project, ".codex/hooks.json", CORPUS_CODEX);
        let args: &[&[&str]] = match how {
            "convert" => &[&[
                "convert",
                ".claude/settings.json",
                "--to",
                "codex",
                "--write",
            ]],
            _ => &[&["sync", "--init", "--to", "codex"], &["sync"]],
        };
        let (last, first) = args.split_last().unwrap();
        for args in first {
            convert_in(&project, &home, args).success();
        }
        let out = convert_in(&project, &home, last).failure();
        let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            err.contains("refuses the whole file") && err.contains(".codex/hooks.json"),
            "{how}: {err}"
        );
        assert_eq!(
            std::fs::read_to_string(&codex).unwrap(),
            CORPUS_CODEX,
            "{how} wrote into the file Codex refuses: {err}"
        );
    }
}

/// The commands of every handler of `file`'s `event`.
fn commands_of(file: &Path, event: &str) -> Vec<String> {
    let doc = json(&std::fs::read_to_string(file).unwrap());
    let groups = doc["hooks"][event].as_array().cloned().unwrap_or_default();
    groups
        .iter()
        .flat_map(|g| g["hooks"].as_array().cloned().unwrap_or_default())
        .map(|h| h["command"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// Attacks row 660 (row 627's leftover): a Codex logger converted into the Claude file, the
/// Claude file into Gemini's (its copy of a copy of the logger), then the Codex file into
/// Gemini's itself. With one `--hookx` the logger's own copy equals the copy of a copy and is
/// not added; after hookx moved (`--hookx` another path) it was added beside the copy calling
/// the old path, and Gemini ran the logger twice per prompt until the Claude file was
/// converted again. A copy that differs only by the hookx it calls is the same copy: replaced.
#[test]
fn a_copy_written_again_by_a_moved_hookx_replaces_its_copy_of_a_copy() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let logger = |name: &str| {
        format!(
            r#"{{"hooks":{{"UserPromptSubmit":[{{"hooks":[{{"type":"command","command":"echo {name}"}}]}}]}}}}"#
        )
    };
    common::write(&project, ".codex/hooks.json", &logger("codex-logger"));
    common::write(&project, ".claude/settings.json", &logger("claude-logger"));
    let write = |source: &str, to: &str, hookx: &str| {
        convert_in(
            &project,
            &home,
            &["convert", source, "--to", to, "--write", "--hookx", hookx],
        )
        .success();
    };
    let gemini = project.join(".gemini/settings.json");
    let runs = |needle: &str| -> Vec<String> {
        commands_of(&gemini, "BeforeAgent")
            .into_iter()
            .filter(|c| c.contains(needle))
            .collect()
    };
    write(".codex/hooks.json", "claude", "/opt/old/hookx");
    write(".claude/settings.json", "gemini", "/opt/old/hookx");
    write(".codex/hooks.json", "gemini", "/opt/old/hookx");
    assert_eq!(runs("codex-logger").len(), 1, "{:?}", runs(""));
    write(".codex/hooks.json", "gemini", "/opt/new/hookx");
    let codex = runs("codex-logger");
    assert_eq!(codex.len(), 1, "the logger runs once: {codex:?}");
    assert!(codex[0].contains("/opt/new/hookx exec"), "{codex:?}");
    assert_eq!(runs("claude-logger").len(), 1, "{:?}", runs(""));
    // And the other way round: the Claude file converted again, its copy of a copy the same.
    write(".claude/settings.json", "gemini", "/opt/new/hookx");
    assert_eq!(runs("codex-logger").len(), 1, "{:?}", runs(""));
    assert_eq!(runs("/opt/old/").len(), 0, "{:?}", runs(""));
}

/// Attacks row 681 (row 662): a Gemini logger converted into the Claude file, then one
/// `convert --write` of both files into Codex's (and one `sync` with both for sources). Each
/// file gives a copy of the logger (the Claude file's copy of a copy, the Gemini file's own),
/// alike but for hookx's records: both were written, and Codex 0.171.0 runs both
/// (`live_codex::two_identical_handlers_in_one_file_each_run`): the logger twice per prompt.
/// The first stands for both, as when the two files are converted one after the other.
#[test]
fn one_write_of_a_file_and_its_copys_source_writes_one_copy() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    common::write(
        &project,
        ".gemini/settings.json",
        r#"{"hooks":{"BeforeAgent":[{"hooks":[{"type":"command","command":"echo gemini-logger"}]}]}}"#,
    );
    let run = |args: &[&str]| convert_in(&project, &home, args).success();
    run(&[
        "convert",
        ".gemini/settings.json",
        "--to",
        "claude",
        "--write",
    ]);
    let codex = project.join(".codex/hooks.json");
    let copies = || {
        commands_of(&codex, "UserPromptSubmit")
            .into_iter()
            .filter(|c| c.contains("gemini-logger"))
            .count()
    };
    let both = [".claude/settings.json", ".gemini/settings.json"];
    run(&[&["convert"], &both[..], &["--to", "codex", "--write"]].concat());
    assert_eq!(copies(), 1, "{}", std::fs::read_to_string(&codex).unwrap());
    // Again: the same text.
    let before = std::fs::read_to_string(&codex).unwrap();
    run(&[&["convert"], &both[..], &["--to", "codex", "--write"]].concat());
    assert_eq!(std::fs::read_to_string(&codex).unwrap(), before);
    std::fs::remove_file(&codex).unwrap();
    run(&["sync", "--init", "--to", "codex", "--project", "."]);
    run(&["sync", "--project", "."]);
    assert_eq!(copies(), 1, "{}", std::fs::read_to_string(&codex).unwrap());
}

/// Attacks row 765: a Qwen guard and an Auggie logger, each file converted into Cline's
/// scripts (`convert --to cline --write`, one file after the other). Each convert wrote its
/// event's first script name, so the second file's copy took the first's place: Cline then ran
/// the logger's copy only, and the guard's deny was lost (live: Cline 3.0.65,
/// `live_cline::four_files_converted_into_cline_each_run_once`). A copy of another file's rule
/// keeps its name; converted again, a file's copies replace its own, and one its source no
/// longer has is removed. Each script is run as Cline runs it, with Cline's recorded payload.
#[test]
fn a_second_file_converted_into_cline_keeps_the_first_files_copies() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().canonicalize().unwrap();
    let log = project.join("log");
    let guard = "input=$(cat); case \"$input\" in *story-ok*) echo QWEN-GUARD >&2; exit 2;; esac";
    let logger = format!("echo aguard >> '{}'", log.display());
    let qwen = serde_json::json!({"hooks": {
        "PreToolUse": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": guard}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "echo qstop"}]}]}});
    let augment = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "launch-process",
        "hooks": [{"type": "command", "command": logger}]}]}});
    common::write(&project, ".qwen/settings.json", &qwen.to_string());
    common::write(&project, ".augment/settings.json", &augment.to_string());
    let convert = |file: &str| {
        common::hookx_clean(&project)
            .env("HOME", &project)
            .args(["convert", file, "--to", "cline", "--write", "--hookx"])
            .arg(env!("CARGO_BIN_EXE_hookx"))
            .assert()
            .success();
    };
    convert(".qwen/settings.json");
    convert(".augment/settings.json");
    let recorded = std::fs::read_to_string(
        common::fixtures_dir().join("recorded/cline-3.0.65/story.01.PreToolUse.json"),
    )
    .unwrap()
    .replace("<project>", project.to_str().unwrap());
    let payload = serde_json::from_str::<Value>(&recorded).unwrap()["stdin"].to_string();
    let hooks = project.join(".clinerules/hooks");
    let scripts = |stem: &str| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&hooks)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n.starts_with(stem))
            .collect();
        names.sort();
        names
    };
    let answers: Vec<String> = scripts("PreToolUse")
        .iter()
        .map(|name| {
            let out = std::process::Command::new("sh")
                .arg(hooks.join(name))
                .current_dir(&project)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .and_then(|mut child| {
                    use std::io::Write;
                    child.stdin.take().unwrap().write_all(payload.as_bytes())?;
                    child.wait_with_output()
                })
                .unwrap();
            String::from_utf8_lossy(&out.stdout).into_owned()
        })
        .collect();
    assert!(
        answers
            .iter()
            .any(|a| a.contains("\"cancel\":true") && a.contains("QWEN-GUARD")),
        "the Qwen guard's copy cancels the call: {answers:?}"
    );
    let logged = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(logged, "aguard\n", "the Auggie logger's copy ran once");
    // Converted again without its Stop rule, the Qwen file replaces its own copies only.
    let qwen = serde_json::json!({"hooks": {"PreToolUse": qwen["hooks"]["PreToolUse"].clone()}});
    common::write(&project, ".qwen/settings.json", &qwen.to_string());
    convert(".qwen/settings.json");
    assert_eq!(scripts("PreToolUse").len(), 2, "{:?}", scripts(""));
    assert_eq!(scripts("TaskComplete"), Vec::<String>::new());
}

/// Attacks row 771: hookx installed for Cline first (its route scripts in `.clinerules/hooks/`
/// at each event's first name), then a Qwen guard converted into Cline's scripts. Convert
/// refused every name a route held ("a hook hookx convert did not write, not overwritten",
/// exit 1). It writes beside the route, at the event's next name, and leaves the route as it
/// is (live: `live_cline::four_files_converted_into_cline_each_run_once`, each rule once).
#[test]
fn convert_into_cline_writes_beside_installs_route() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let guard = "echo QWEN-GUARD >&2; exit 2";
    let qwen = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "run_shell_command",
        "hooks": [{"type": "command", "command": guard}]}]}});
    common::write(&project, ".qwen/settings.json", &qwen.to_string());
    common::hookx_at(&project, &home, &["trust", "--yes"]).success();
    common::hookx_at(&project, &home, &["install", "--host", "cline"]).success();
    let route = std::fs::read_to_string(project.join(".clinerules/hooks/PreToolUse")).unwrap();
    common::hookx_clean(&project)
        .env("HOME", &home)
        .args(["convert", ".qwen/settings.json", "--to", "cline", "--write"])
        .assert()
        .success();
    let hooks = project.join(".clinerules/hooks");
    assert_eq!(
        std::fs::read_to_string(hooks.join("PreToolUse")).unwrap(),
        route
    );
    let copy = std::fs::read_to_string(hooks.join("PreToolUse.sh")).unwrap();
    assert!(copy.contains("QWEN-GUARD"), "{copy}");
}

/// Attacks row 772 (row 767's fix, its loop): a Claude guard converted into the Qwen file,
/// then both files converted into Cline's scripts and OpenCode's plugin. The Qwen file's copy
/// of the guard runs what the Claude file's runs: kept beside it as another file's copy, the
/// guard ran twice per call (four times in the four files' loop, live OpenCode 1.18.33,
/// `live_opencode::team_loop_runs_each_rule_once`). A copy running what a new one runs is
/// replaced by it: the guard is once in each.
#[test]
fn a_copy_of_a_copy_converted_into_cline_or_the_plugin_is_written_once() {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().canonicalize().unwrap();
    let claude = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": "echo CLAUDE-GUARD"}]}]}});
    common::write(&project, ".claude/settings.json", &claude.to_string());
    let convert = |file: &str, to: &str| {
        common::hookx_clean(&project)
            .env("HOME", &project)
            .args(["convert", file, "--to", to, "--write", "--hookx", "hookx"])
            .assert()
            .success();
    };
    convert(".claude/settings.json", "qwen");
    convert(".claude/settings.json", "cline,opencode");
    convert(".qwen/settings.json", "cline,opencode");
    let mut texts = String::new();
    for entry in std::fs::read_dir(project.join(".clinerules/hooks")).unwrap() {
        texts += &std::fs::read_to_string(entry.unwrap().path()).unwrap();
    }
    assert_eq!(texts.matches("CLAUDE-GUARD").count(), 1, "{texts}");
    let plugin =
        std::fs::read_to_string(project.join(".opencode/plugin/hookx-converted.js")).unwrap();
    assert_eq!(plugin.matches("CLAUDE-GUARD").count(), 1, "{plugin}");
}

/// Row 1243: root (`sudo hookx install`, an image's set-up script) installs into a user's home,
/// whose `~/.claude/settings.json` is theirs and 0600. The file stays theirs: before, the
/// rename left it root's, and the user's own Claude Code could no longer read its settings.
#[test]
#[cfg(unix)]
fn a_file_root_edits_stays_its_owners() {
    use std::os::unix::fs::MetadataExt;
    if !rustix::process::geteuid().is_root() {
        eprintln!("skip: a file of another account needs root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (home, project) = (dir.path().join("home"), dir.path().join("project"));
    std::fs::create_dir_all(&project).unwrap();
    let settings = common::write(&home, ".claude/settings.json", "{\n  \"hooks\": {}\n}\n");
    common::write(
        &home,
        ".gemini/settings.json",
        r#"{"hooks":{"BeforeTool":[{"hooks":[{"type":"command","command":"true"}]}]}}"#,
    );
    std::os::unix::fs::chown(&settings, Some(4242), Some(4243)).unwrap();
    std::fs::set_permissions(
        &settings,
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .unwrap();
    common::hookx_at(
        &project,
        &home,
        &["install", "--host", "claude", "--scope", "user"],
    )
    .success();
    let meta = std::fs::metadata(&settings).unwrap();
    let text = std::fs::read_to_string(&settings).unwrap();
    assert!(text.contains("run --host claude"), "{text}");
    assert_eq!(
        (meta.uid(), meta.gid(), meta.mode() & 0o777),
        (4242, 4243, 0o600),
        "the user's settings must stay theirs"
    );
}

/// Attacks row 1246: `convert --write`, then the user edits the copy by hand (Gemini's
/// `timeout` 30000 → 90000), then the same convert again: the edit was overwritten without a
/// word. Each entry written now records a digest of what was written; an entry that no longer
/// matches its digest is kept, named with its place (exit 1, the file left as it is), until
/// `--force`, as `hookx sync` does. A copy an older hookx wrote (no digest) cannot be told from
/// a stale one: written over, as before. `sync` over a file `convert --write` made (no lock
/// digests for it) reads the same records.
#[test]
fn a_copy_edited_by_hand_is_kept_and_named_until_force() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    common::write(&project, ".claude/settings.json", &guard_source(Some(30)));
    let target = project.join(".gemini/settings.json");
    let write = |extra: &[&str]| {
        let mut args = vec![
            "convert",
            ".claude/settings.json",
            "--to",
            "gemini",
            "--write",
        ];
        args.extend(extra);
        let out = convert_in(&project, &home, &args).get_output().clone();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let timeout = || {
        json(&std::fs::read_to_string(&target).unwrap())["hooks"]["BeforeTool"][0]
        ["hooks"][0]["timeout"]
        .clone()
    };
    let (code, _, said) = write(&[]);
    assert_eq!(code, 0, "{said}");
    let written = std::fs::read_to_string(&target).unwrap();
    assert!(written.contains("\"digest\": \""), "{written}");
    let (code, _, said) = write(&[]);
    assert_eq!((code, said.contains("is up to date")), (0, true), "{said}");
    // The hand edit, then the same convert, and one of a changed source.
    let edited = written.replace("\"timeout\": 30000", "\"timeout\": 90000");
    assert_ne!(edited, written);
    std::fs::write(&target, &edited).unwrap();
    let named = "./.gemini/settings.json:7:11: the entry hookx wrote at /hooks/BeforeTool/0/hooks/0 \
                 was edited by hand since (move the change into the source, or --force to \
                 overwrite it)";
    for source in [30, 45] {
        common::write(
            &project,
            ".claude/settings.json",
            &guard_source(Some(source)),
        );
        let (code, _, said) = write(&[]);
        assert_eq!(code, 1, "{said}");
        assert!(said.contains(&format!("not written: {named}")), "{said}");
        assert!(!said.contains("wrote ./"), "{said}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), edited);
    }
    let (code, _, said) = write(&["--dry-run"]);
    assert_eq!((code, said.contains(named)), (1, true), "{said}");
    let (code, stdout, _) = write(&["--format", "json"]);
    assert_eq!(code, 1);
    assert_eq!(
        json(&stdout)["refused"],
        serde_json::json!([named]),
        "{stdout}"
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), edited);
    // --force writes it over, and the copy is hookx's again.
    let (code, _, said) = write(&["--force"]);
    assert_eq!(code, 0, "{said}");
    assert_eq!(timeout(), 45000);
    let (code, _, said) = write(&[]);
    assert_eq!((code, said.contains("is up to date")), (0, true), "{said}");
    // A copy without a digest (an older hookx's), edited: taken as written, replaced.
    let now = std::fs::read_to_string(&target).unwrap();
    let at = now.find(",\n              \"digest\"").unwrap();
    let end = at + now[at..].find("\"\n").unwrap() + 1;
    let older = format!("{}{}", &now[..at], &now[end..]).replace("45000", "90000");
    std::fs::write(&target, &older).unwrap();
    let (code, _, said) = write(&[]);
    assert_eq!(code, 0, "{said}");
    assert_eq!(timeout(), 45000);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), now);
    // Kiro: the rule's own keys (its matcher), beside the handler, are part of the entry.
    let out = convert_in(
        &project,
        &home,
        &[
            "convert",
            ".claude/settings.json",
            "--to",
            "kiro",
            "--write",
        ],
    );
    out.success();
    let kiro = project.join(".kiro/hooks/hookx-converted.json");
    let text = std::fs::read_to_string(&kiro).unwrap();
    let wider = text.replace(
        "\"matcher\": \"execute_bash\"",
        "\"matcher\": \"execute_bash|fs_write\"",
    );
    assert_ne!(wider, text);
    std::fs::write(&kiro, &wider).unwrap();
    let out = convert_in(
        &project,
        &home,
        &[
            "convert",
            ".claude/settings.json",
            "--to",
            "kiro",
            "--write",
        ],
    );
    let said = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(out.get_output().status.code(), Some(1), "{said}");
    assert!(
        said.contains("the entry hookx wrote at /hooks/0/action was edited by hand"),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&kiro).unwrap(), wider);
    std::fs::remove_file(&kiro).unwrap();
    // sync taking the file over, the copy edited: named from the record, not written.
    std::fs::write(&target, now.replace("45000", "90000")).unwrap();
    convert_in(&project, &home, &["sync", "--init", "--to", "gemini"]).success();
    let out = convert_in(&project, &home, &["sync"]).get_output().clone();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("edited by hand"), "{said}");
    assert_eq!(timeout(), 90000);
}

/// A Claude guard running `command` on Bash, or (`None`) only a Stop rule.
fn guard_running(command: Option<&str>) -> String {
    match command {
        Some(c) => serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": c}]}]}})
        .to_string(),
        None => serde_json::json!({"hooks": {"Stop": [{"hooks": [{"type": "command",
            "command": "echo done"}]}]}})
        .to_string(),
    }
}

/// `hookx convert .claude/settings.json --to TO --write EXTRA…` in `project`: exit code and
/// stderr.
fn convert_claude_to(project: &Path, home: &Path, to: &str, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["convert", ".claude/settings.json", "--to", to, "--write"];
    args.extend(extra);
    let out = convert_in(project, home, &args).get_output().clone();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Attacks rows 2320, 2370: a Cline script `convert --write` wrote, edited by hand (a line of
/// the user's before the command), then the same convert again (and one of a changed source):
/// the script was overwritten, exit 0, nothing said, while `sync` refuses the same write. The
/// script's record now carries a digest of what was written (as a JSON copy's entry does); a
/// script that no longer matches it is kept and named (exit 1, the folder left as it is), also
/// where its rule is gone, until `--force`. A script an older hookx wrote (no digest) is
/// taken as written, as a JSON copy without one.
#[test]
fn a_cline_script_edited_by_hand_is_kept_and_named_until_force() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let source = |command: Option<&str>| {
        common::write(&project, ".claude/settings.json", &guard_running(command));
    };
    let write = |extra: &[&str]| convert_claude_to(&project, &home, "cline", extra);
    let script = project.join(".clinerules/hooks/PreToolUse");
    let read = || std::fs::read_to_string(&script).unwrap();
    source(Some("./guard.sh"));
    let (code, said) = write(&[]);
    assert_eq!(code, 0, "{said}");
    let written = read();
    assert!(written.contains(",\"digest\":\""), "{written}");
    let (code, said) = write(&[]);
    assert_eq!((code, read()), (0, written.clone()), "{said}");
    // The hand edit, then the same convert, one of a changed source, one whose rule is gone
    // (its script to remove).
    let edited = written.replace("\nhookx exec", "\necho mine >&2\nhookx exec");
    let edited = if edited == written {
        format!("{written}echo mine >&2\n")
    } else {
        edited
    };
    std::fs::write(&script, &edited).unwrap();
    let named = "./.clinerules/hooks/PreToolUse:1:1: the script hookx wrote was edited by hand \
                 since (move the change into the source, or --force to overwrite it)";
    for command in [Some("./guard.sh"), Some("./guard2.sh"), None] {
        source(command);
        let (code, said) = write(&[]);
        assert_eq!(code, 1, "{said}");
        assert!(said.contains(&format!("not written: {named}")), "{said}");
        assert!(!said.contains("wrote ./"), "{said}");
        assert!(!said.contains("removed ./"), "{said}");
        assert_eq!(read(), edited);
    }
    source(Some("./guard2.sh"));
    let (code, said) = write(&["--dry-run"]);
    assert_eq!((code, said.contains(named)), (1, true), "{said}");
    assert_eq!(read(), edited);
    // --force writes it over, and the script is hookx's again.
    let (code, said) = write(&["--force"]);
    assert_eq!(code, 0, "{said}");
    let now = read();
    assert!(
        now.contains("./guard2.sh") && !now.contains("echo mine"),
        "{now}"
    );
    let (code, said) = write(&[]);
    assert_eq!((code, read()), (0, now.clone()), "{said}");
    // A script without a digest (an older hookx's), edited or not: taken as written, as a JSON
    // copy without one, and written over with its digest.
    let at = now.find(",\"digest\":\"").unwrap();
    let end = at + now[at..].find("\"}").unwrap() + 1;
    let older = format!("{}{}", &now[..at], &now[end..]);
    assert!(!older.contains("digest"), "{older}");
    std::fs::write(&script, format!("{older}echo older >&2\n")).unwrap();
    let (code, said) = write(&[]);
    assert_eq!((code, read()), (0, now.clone()), "{said}");
    // Attacks row 2372: the source's last rule deleted, its copy goes (it ran on, exit 0,
    // nothing said); edited by hand, it stays until --force.
    std::fs::write(&script, format!("{now}echo mine >&2\n")).unwrap();
    common::write(&project, ".claude/settings.json", r#"{"hooks": {}}"#);
    let (code, said) = write(&[]);
    assert_eq!(code, 1, "{said}");
    assert!(said.contains(&format!("not written: {named}")), "{said}");
    assert!(script.exists());
    let (code, said) = write(&["--force"]);
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains(
            "removed ./.clinerules/hooks/PreToolUse: a copy of a rule its source no longer has"
        ),
        "{said}"
    );
    assert!(!script.exists());
}

/// Attacks rows 2320, 2371: the same for OpenCode's plugin `convert --write` wrote (a
/// write-only target, written whole): an edit of a handler's data, or of the plugin's code,
/// was overwritten without a word. The plugin's first line now ends in a digest of what was
/// written; a plugin that no longer matches it is kept and named until `--force`. One an older
/// hookx wrote (no digest) is taken as written.
#[test]
fn an_opencode_plugin_edited_by_hand_is_kept_and_named_until_force() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let source = |command: Option<&str>| {
        common::write(&project, ".claude/settings.json", &guard_running(command));
    };
    let write = |extra: &[&str]| convert_claude_to(&project, &home, "opencode", extra);
    let plugin = project.join(".opencode/plugin/hookx-converted.js");
    let read = || std::fs::read_to_string(&plugin).unwrap();
    source(Some("./guard.sh"));
    let (code, said) = write(&[]);
    assert_eq!(code, 0, "{said}");
    let written = read();
    let first = written.lines().next().unwrap();
    assert!(first.contains(". Digest: "), "{first}");
    let (code, said) = write(&[]);
    assert_eq!((code, read()), (0, written.clone()), "{said}");
    let named = "./.opencode/plugin/hookx-converted.js:1:1: the plugin hookx wrote was edited \
                 by hand since (move the change into the source, or --force to overwrite it)";
    // A handler's data edited (its matcher widened), and the code edited.
    let data = written.replace("\"matcher\": \"bash\"", "\"matcher\": \"bash|edit\"");
    let code_edit = written.replacen("const GUARDS", "const GUARDZ", 1);
    for edited in [&data, &code_edit] {
        assert_ne!(edited, &written);
        std::fs::write(&plugin, edited).unwrap();
        for command in [Some("./guard.sh"), Some("./guard2.sh")] {
            source(command);
            let (code, said) = write(&[]);
            assert_eq!(code, 1, "{said}");
            assert!(said.contains(&format!("not written: {named}")), "{said}");
            assert!(!said.contains("wrote ./"), "{said}");
            assert_eq!(&read(), edited);
        }
    }
    // --force writes it over, and the plugin is hookx's again.
    let (code, said) = write(&["--force"]);
    assert_eq!(code, 0, "{said}");
    let now = read();
    assert!(
        now.contains("./guard2.sh") && !now.contains("GUARDZ"),
        "{now}"
    );
    let (code, said) = write(&[]);
    assert_eq!((code, read()), (0, now.clone()), "{said}");
    // A plugin without a digest (an older hookx's), edited or not: taken as written.
    let digest = now.lines().next().unwrap().rsplit_once(' ').unwrap().1;
    let older = now
        .replacen(&format!(". Digest: {digest}"), ".", 1)
        .replacen("const GUARDS", "const GUARDZ", 1);
    std::fs::write(&plugin, older).unwrap();
    let (code, said) = write(&[]);
    assert_eq!((code, read()), (0, now), "{said}");
}
