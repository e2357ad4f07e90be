//! `hookx sync`, run as the real binary against temporary projects: one Claude hook set, its
//! Copilot, Gemini and Codex files generated, checked, kept from hand edits, and trusted only
//! from a trusted source.

mod common;

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::time::Duration;

const SOURCE: &str = ".claude/settings.json";
/// The files sync writes for `--to copilot,gemini,codex`: Copilot reads the Claude file
/// itself, so it gets no copy.
const TARGETS: [&str; 2] = [".gemini/settings.json", ".codex/hooks.json"];
const COPILOT: &str = ".github/hooks/hooks.json";

fn claude(guard: &str, with_stop: bool) -> String {
    let stop = match with_stop {
        true => r#", "Stop": [{"hooks": [{"type": "command", "command": "echo stop-rule"}]}]"#,
        false => "",
    };
    format!(
        r#"{{
  "hooks": {{
    "PreToolUse": [
      {{"matcher": "Bash", "hooks": [{{"type": "command", "command": "{guard}"}}]}}
    ]{stop}
  }}
}}
"#
    )
}

struct Project {
    _dir: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

impl Project {
    /// A project with a Claude source, and `hookx sync --init --to copilot,gemini,codex` run.
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let p = Project {
            _dir: dir,
            project: root.join("project"),
            home: root.join("home"),
        };
        std::fs::create_dir_all(&p.project).unwrap();
        std::fs::create_dir_all(&p.home).unwrap();
        p.write(SOURCE, &claude("guard-v1.sh", true));
        p.run(&["sync", "--init", "--to", "copilot,gemini,codex"])
            .success();
        p
    }

    fn run(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        common::hookx_at(&self.project, &self.home, args)
    }

    /// Exit code, stdout, stderr.
    fn out(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.run(args).get_output().clone();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    }

    fn write(&self, rel: &str, text: &str) {
        common::write(&self.project, rel, text);
    }

    fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.project.join(rel)).unwrap_or_default()
    }

    /// Every file of the project, with its bytes and modification time.
    fn tree(&self) -> BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)> {
        let mut out = BTreeMap::new();
        walk(&self.project, &mut out);
        out
    }
}

fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, (Vec<u8>, std::time::SystemTime)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            let meta = std::fs::metadata(&path).unwrap();
            out.insert(
                path.clone(),
                (std::fs::read(&path).unwrap(), meta.modified().unwrap()),
            );
        }
    }
}

#[test]
fn init_writes_a_manifest_with_a_comment_on_every_line() {
    let p = Project::new();
    let manifest = p.read(".hookx/sync.toml");
    for line in manifest.lines().filter(|l| !l.trim().is_empty()) {
        assert!(line.contains('#'), "a line without a comment: {line}");
    }
    common::snapshots("sync").bind(|| insta::assert_snapshot!("init_manifest", manifest));
    // A second --init does not overwrite it.
    let (code, _, err) = p.out(&["sync", "--init", "--to", "copilot"]);
    assert_ne!(code, 0);
    assert!(err.contains("--force"), "{err}");
}

#[test]
fn an_edited_source_fails_check_with_the_diff_and_sync_makes_it_pass() {
    let p = Project::new();
    // Before the first sync, every target is missing: stale.
    let (code, diff, _) = p.out(&["sync", "--check"]);
    assert_eq!(code, 1, "{diff}");
    p.run(&["sync"]).success();
    for t in TARGETS {
        assert!(p.read(t).contains("guard-v1.sh"), "{t}: {}", p.read(t));
    }
    let (code, diff, err) = p.out(&["sync", "--check"]);
    assert_eq!((code, diff.as_str()), (0, ""), "{err}");

    p.write(SOURCE, &claude("guard-v2.sh", true));
    let before = p.tree();
    let (code, diff, err) = p.out(&["sync", "--check"]);
    assert_eq!(code, 1, "{err}");
    for t in TARGETS {
        assert!(
            diff.contains(&format!("--- a/{t}\n+++ b/{t}\n")),
            "{t}: {diff}"
        );
    }
    assert!(
        diff.lines()
            .any(|l| l.starts_with('-') && l.contains("guard-v1.sh")),
        "{diff}"
    );
    assert!(
        diff.lines()
            .any(|l| l.starts_with('+') && l.contains("guard-v2.sh")),
        "{diff}"
    );
    assert!(err.contains("stale"), "{err}");
    assert_eq!(p.tree(), before, "--check wrote something");

    p.run(&["sync"]).success();
    let (code, diff, err) = p.out(&["sync", "--check"]);
    assert_eq!((code, diff.as_str()), (0, ""), "{err}");
    for t in TARGETS {
        assert!(!p.read(t).contains("guard-v1.sh"), "{t}");
    }
}

#[test]
fn an_agent_that_reads_the_source_itself_gets_no_copy() {
    let p = Project::new();
    // Copies an older `convert --write` made for Copilot, which reads the Claude file too
    // (today's writes them only with `--out`).
    common::hookx()
        .args([
            "convert", SOURCE, "--to", "copilot", "--write", "--out", COPILOT,
        ])
        .current_dir(&p.project)
        .assert()
        .success();
    assert!(p.read(COPILOT).contains("guard-v1.sh"));
    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("Copilot reads .claude/settings.json itself"),
        "{err}"
    );
    // Its copies are gone: under Copilot each rule runs once, from the Claude file.
    assert!(
        !p.read(COPILOT).contains("guard-v1.sh"),
        "{}",
        p.read(COPILOT)
    );
    p.run(&["sync", "--check"]).success();
}

#[test]
fn a_second_sync_changes_no_byte() {
    let p = Project::new();
    p.run(&["sync"]).success();
    let before = p.tree();
    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(p.tree(), before, "{err}");
    for t in TARGETS {
        assert!(err.contains(&format!("{t}: up to date")), "{err}");
    }
}

#[test]
fn a_hand_edit_to_a_synced_entry_is_reported_and_kept_until_force() {
    let p = Project::new();
    p.run(&["sync"]).success();
    let target = ".gemini/settings.json";
    let edited = p.read(target).replace("guard-v1.sh", "guard-by-hand.sh");
    p.write(target, &edited);
    let line = edited
        .lines()
        .position(|l| l.contains("guard-by-hand.sh"))
        .unwrap();

    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("edited by hand"), "{err}");
    assert!(err.contains(&format!("{target}:")), "{err}");
    assert_eq!(p.read(target), edited, "the hand edit was overwritten");
    // The entry's location is reported: a line at or before the edited one.
    let at: usize = err
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(&format!("{target}:")))
        .and_then(|s| s.split(':').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(at >= 1 && at <= line + 1, "{err}");

    let (code, diff, err) = p.out(&["sync", "--check"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("edited by hand"), "{err}");
    assert!(diff.contains("guard-by-hand.sh"), "{diff}");

    p.run(&["sync", "--force"]).success();
    assert!(!p.read(target).contains("guard-by-hand.sh"));
    p.run(&["sync", "--check"]).success();
}

#[test]
fn deleting_a_source_rule_removes_its_copies_and_keeps_hand_written_entries() {
    let p = Project::new();
    p.run(&["sync"]).success();
    // A hand-written entry in a generated file.
    let target = ".codex/hooks.json";
    let mut value: serde_json::Value = serde_json::from_str(&p.read(target)).unwrap();
    value["hooks"]["SessionStart"] =
        serde_json::json!([{"hooks": [{"type": "command", "command": "echo mine-by-hand"}]}]);
    p.write(
        target,
        &(serde_json::to_string_pretty(&value).unwrap() + "\n"),
    );
    for t in TARGETS {
        assert!(p.read(t).contains("stop-rule"), "{t}");
    }

    p.write(SOURCE, &claude("guard-v1.sh", false));
    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 0, "{err}");
    for t in TARGETS {
        let text = p.read(t);
        assert!(!text.contains("stop-rule"), "{t}: {text}");
        assert!(text.contains("guard-v1.sh"), "{t}: {text}");
    }
    assert!(
        p.read(target).contains("mine-by-hand"),
        "{}",
        p.read(target)
    );
    p.run(&["sync", "--check"]).success();
}

#[test]
fn routes_installed_into_a_source_leave_its_copies_up_to_date() {
    let p = Project::new();
    p.run(&["sync"]).success();
    // A Bricks rule Claude does not read needs a route under Claude (the synced copies of the
    // Claude rules do not: Claude runs the source itself). hookx's own routes go into the
    // Claude file, the source: its rules keep their places, and the copies' records with them.
    p.write(
        ".bricks/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command", "command": "echo bricks-rule"}]}]}}"#,
    );
    p.run(&["trust", "--yes"]).success();
    p.run(&["install", "--host", "claude"]).success();
    assert!(p.read(SOURCE).contains("hookx"), "{}", p.read(SOURCE));
    let (code, diff, err) = p.out(&["sync", "--check"]);
    assert_eq!((code, diff.as_str()), (0, ""), "{err}");
}

#[test]
fn dry_run_shows_the_diff_writes_nothing_and_exits_0() {
    let p = Project::new();
    p.run(&["sync"]).success();
    p.write(SOURCE, &claude("guard-v3.sh", true));
    let before = p.tree();
    let (code, diff, err) = p.out(&["sync", "--dry-run"]);
    assert_eq!(code, 0, "{err}");
    assert!(diff.contains("+++ b/.codex/hooks.json"), "{diff}");
    assert!(
        diff.lines()
            .any(|l| l.starts_with('+') && l.contains("guard-v3.sh")),
        "{diff}"
    );
    assert_eq!(p.tree(), before);
}

#[test]
fn synced_files_are_trusted_only_while_their_source_is() {
    let p = Project::new();
    let trusted = |p: &Project| {
        let (_, list, _) = p.out(&["trust", "--list"]);
        list
    };
    // An untrusted source: its copies are not trusted either, and sync says what to review.
    let (_, _, err) = p.out(&["sync"]);
    assert!(err.contains("hookx trust .claude/settings.json"), "{err}");
    assert!(!trusted(&p).contains(".codex/hooks.json"));

    let source = p.project.join(SOURCE);
    let source = source.to_str().unwrap();
    p.run(&["trust", source]).success();
    p.run(&["sync"]).success();
    let list = trusted(&p);
    for t in TARGETS {
        assert!(
            list.lines()
                .any(|l| l.starts_with("trusted") && l.contains(t)),
            "{t}: {list}"
        );
    }

    // The source changes: sync writes the copies, but trusts neither them nor the source.
    p.write(SOURCE, &claude("guard-v2.sh", true));
    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("changed since it was trusted"), "{err}");
    let list = trusted(&p);
    for t in TARGETS.iter().chain([&SOURCE]) {
        assert!(
            !list
                .lines()
                .any(|l| l.starts_with("trusted ") && l.contains(t)),
            "{t} is trusted: {list}"
        );
    }
    // Trusting the source again, and syncing, trusts the copies again.
    p.run(&["trust", source]).success();
    p.run(&["sync"]).success();
    let list = trusted(&p);
    for t in TARGETS {
        assert!(
            list.lines()
                .any(|l| l.starts_with("trusted ") && l.contains(t)),
            "{t}: {list}"
        );
    }
}

#[test]
fn a_bad_manifest_is_an_error_naming_its_line() {
    let p = Project::new();
    p.write(
        ".hookx/sync.toml",
        "version = 1\nsources = [\".claude/settings.json\"]\n\n[targets.nonesuch]\n",
    );
    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(".hookx/sync.toml:4:"), "{err}");
    assert!(err.contains("unknown agent `nonesuch`"), "{err}");
    // A target that is also a source.
    p.write(
        ".hookx/sync.toml",
        "version = 1\nsources = [\".claude/settings.json\"]\n[targets.claude]\n",
    );
    let (code, _, err) = p.out(&["sync"]);
    assert_ne!(code, 0);
    assert!(err.contains("also a source"), "{err}");
}

/// Attacks rows 543 and 544: a manifest naming one source twice (`.claude/settings.json` and
/// `./.claude/settings.json`) wrote each rule twice into every target; two targets naming one
/// file (Gemini's project file, and Qwen's `out` there) wrote it in turn, the second taking
/// the first's copies out: Gemini's copy of the guard was gone after every sync, and `--check`
/// failed for ever. Each is refused, naming the line, nothing written.
#[test]
fn a_manifest_naming_one_file_twice_is_refused() {
    for manifest in [
        "version = 1\nsources = [\".claude/settings.json\", \"./.claude/settings.json\"]\n[targets.gemini]\n",
        "version = 1\nsources = [\".claude/settings.json\"]\n[targets.gemini]\n[targets.qwen]\nout = \".gemini/settings.json\"\n",
    ] {
        let p = Project::new();
        p.write(".hookx/sync.toml", manifest);
        let (code, _, err) = p.out(&["sync"]);
        assert_ne!(code, 0, "{manifest}: {err}");
        assert!(err.contains("twice"), "{manifest}: {err}");
        assert!(!p.project.join(".gemini").exists(), "{manifest}: {err}");
    }
}

/// Attacks row 583: two targets naming one file through a linked folder (`.gemini` a link to
/// `.qwen`), before either file is there: row 544's check compared real paths only where they
/// existed, so the first sync wrote both ("written" twice, exit 0) and the file held only
/// Qwen's copies: Gemini's copy of the guard gone. Refused before the file is there too.
#[test]
fn two_targets_naming_one_file_through_a_linked_folder_are_refused_before_it_is_there() {
    let p = Project::new();
    std::fs::create_dir_all(p.project.join(".qwen")).unwrap();
    std::os::unix::fs::symlink(".qwen", p.project.join(".gemini")).unwrap();
    p.write(
        ".hookx/sync.toml",
        "version = 1\nsources = [\".claude/settings.json\"]\n[targets.gemini]\n[targets.qwen]\n",
    );
    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("name one file"), "{err}");
    assert!(!p.project.join(".qwen/settings.json").exists(), "{err}");
}

/// Attacks row 581: targets sync cannot write. A Cline target whose script's place holds a hook
/// of the user's (or whose folder is a file) was passed over: "nothing to write", exit 0, and
/// `--check` passed, while the source's guard ran nowhere under Cline; a JSON target it cannot
/// read (`.codex` a file) stopped every other target, naming only itself. Now sync plans every
/// target first and writes none while one is refused, naming each; `--check` fails the same way.
#[test]
fn a_target_sync_cannot_write_is_named_and_none_is_written() {
    let p = Project::new();
    p.write(
        ".hookx/sync.toml",
        "version = 1\nsources = [\".claude/settings.json\"]\n[targets.gemini]\n[targets.codex]\n[targets.cline]\n",
    );
    p.write(".codex", "not a folder\n");
    p.write(".clinerules/hooks/PreToolUse", "#!/bin/sh\necho mine\n");
    for args in [&["sync"][..], &["sync", "--check"]] {
        let (code, _, err) = p.out(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.contains("codex: .codex/hooks.json: cannot be written"),
            "{err}"
        );
        assert!(
            err.contains(
                ".clinerules/hooks/PreToolUse: a hook hookx did not write, not overwritten"
            ),
            "{err}"
        );
        assert!(!p.project.join(".gemini").exists(), "{args:?}: {err}");
        assert_eq!(
            p.read(".clinerules/hooks/PreToolUse"),
            "#!/bin/sh\necho mine\n"
        );
    }
    std::fs::remove_file(p.project.join(".codex")).unwrap();
    std::fs::remove_file(p.project.join(".clinerules/hooks/PreToolUse")).unwrap();
    p.run(&["sync"]).success();
    for written in [
        ".gemini/settings.json",
        ".codex/hooks.json",
        ".clinerules/hooks/PreToolUse",
    ] {
        assert!(p.read(written).contains("guard-v1.sh"), "{written}");
    }
    p.run(&["sync", "--check"]).success();
}

#[test]
fn watch_syncs_again_when_a_source_changes() {
    let p = Project::new();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hookx"))
        .args(["sync", "--watch", "--watch-runs", "2", "--project"])
        .arg(&p.project)
        .arg("--home")
        .arg(&p.home)
        .env("HOME", &p.home)
        .env_remove("HOOKX_HOME")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    // Generous bounds: only a failing test waits for them.
    let bound = Duration::from_secs(120);
    let first = rx.recv_timeout(bound).expect("the first run's line");
    assert!(
        first.contains("sync: copilot nothing to write, gemini written, codex written"),
        "{first}"
    );
    assert!(p.read(".codex/hooks.json").contains("guard-v1.sh"));
    p.write(SOURCE, &claude("guard-watched.sh", true));
    let second = rx.recv_timeout(bound).expect("a run after the change");
    assert!(second.contains("codex written"), "{second}");
    assert!(p.read(".codex/hooks.json").contains("guard-watched.sh"));
    assert!(
        common::exits_within(child.id() as i32, bound),
        "--watch-runs 2 did not stop"
    );
    assert!(child.wait().unwrap().success());
}

/// Manifest text naming the Claude source and `targets` (each a `[targets.…]` table).
fn manifest(targets: &str) -> String {
    format!("version = 1\nsources = [{{ path = \"{SOURCE}\", from = \"claude\" }}]\n{targets}")
}

#[test]
fn a_target_removed_from_the_manifest_loses_its_synced_hooks_and_keeps_the_rest() {
    let p = Project::new();
    p.run(&["sync"]).success();
    // A setting of the user's own in the Gemini file; the Codex file holds only synced hooks.
    let gemini = ".gemini/settings.json";
    let mut value: serde_json::Value = serde_json::from_str(&p.read(gemini)).unwrap();
    value["ui"] = serde_json::json!({"theme": "mine-by-hand"});
    p.write(
        gemini,
        &(serde_json::to_string_pretty(&value).unwrap() + "\n"),
    );
    p.run(&["sync"]).success();
    p.write(".hookx/sync.toml", &manifest("[targets.copilot]\n"));

    // --check sees both as stale: the diff takes the synced hooks out.
    let before = p.tree();
    let (code, diff, err) = p.out(&["sync", "--check"]);
    assert_eq!(code, 1, "{err}");
    for t in TARGETS {
        assert!(diff.contains(&format!("--- a/{t}\n")), "{t}: {diff}");
        assert!(err.contains(&format!("{t}: no longer a target")), "{err}");
    }
    assert!(
        diff.lines()
            .any(|l| l.starts_with('-') && l.contains("guard-v1.sh")),
        "{diff}"
    );
    assert_eq!(p.tree(), before, "--check wrote something");

    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 0, "{err}");
    let text = p.read(gemini);
    assert!(!text.contains("guard-v1.sh"), "{text}");
    assert!(text.contains("mine-by-hand"), "{text}");
    assert!(
        !p.project.join(".codex/hooks.json").exists(),
        "{err}\n{}",
        p.read(".codex/hooks.json")
    );
    assert!(
        err.contains(".codex/hooks.json: no longer a target: removed"),
        "{err}"
    );
    let lock = p.read(".hookx/sync.lock");
    for t in TARGETS {
        assert!(!lock.contains(t), "{t} still in the lock: {lock}");
    }
    let before = p.tree();
    let (code, diff, err) = p.out(&["sync", "--check"]);
    assert_eq!((code, diff.as_str()), (0, ""), "{err}");
    p.run(&["sync"]).success();
    assert_eq!(p.tree(), before, "a second sync changed a byte");
}

#[test]
fn a_removed_target_with_a_hand_edit_is_reported_not_emptied() {
    let p = Project::new();
    p.run(&["sync"]).success();
    let target = ".codex/hooks.json";
    let edited = p.read(target).replace("guard-v1.sh", "guard-by-hand.sh");
    p.write(target, &edited);
    p.write(
        ".hookx/sync.toml",
        &manifest("[targets.copilot]\n[targets.gemini]\n"),
    );
    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&format!("{target}:")), "{err}");
    assert!(err.contains("edited by hand"), "{err}");
    assert_eq!(p.read(target), edited);
    p.run(&["sync", "--force"]).success();
    assert!(!p.project.join(target).exists(), "{}", p.read(target));
}

/// Cline's hooks are one script per event in a folder: sync tells its scripts from the
/// user's by their mark, and a hand edit from a change of the source by the lock.
#[test]
fn cline_scripts_hand_edits_are_reported_and_a_gone_rule_removes_its_script() {
    let p = Project::new();
    p.write(".hookx/sync.toml", &manifest("[targets.cline]\n"));
    // A script of the user's own in the folder sync writes.
    p.write(
        ".clinerules/hooks/TaskStart",
        "#!/bin/sh\necho mine-by-hand\n",
    );
    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 0, "{err}");
    let pre = ".clinerules/hooks/PreToolUse";
    let stop = ".clinerules/hooks/TaskComplete";
    assert!(
        p.read(pre).contains("guard-v1.sh"),
        "{err}: {}",
        p.read(pre)
    );
    assert!(p.read(stop).contains("stop-rule"), "{err}");
    p.run(&["sync", "--check"]).success();

    // A hand edit: reported with the script's name, kept, and --check fails on it.
    let edited = p.read(pre).replace("guard-v1.sh", "guard-by-hand.sh");
    p.write(pre, &edited);
    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains(&format!("{pre}:1:1")), "{err}");
    assert!(err.contains("edited by hand"), "{err}");
    assert_eq!(p.read(pre), edited);
    let (code, _, err) = p.out(&["sync", "--check"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("edited by hand"), "{err}");
    p.run(&["sync", "--force"]).success();
    assert!(p.read(pre).contains("guard-v1.sh"));

    // The Stop rule leaves the source: its script goes, the user's stays.
    p.write(SOURCE, &claude("guard-v1.sh", false));
    let (code, diff, err) = p.out(&["sync", "--check"]);
    assert_eq!(code, 1, "{err}");
    assert!(diff.contains(&format!("--- a/{stop}\n")), "{diff}");
    p.run(&["sync"]).success();
    assert!(!p.project.join(stop).exists(), "{}", p.read(stop));
    assert!(p.read(pre).contains("guard-v1.sh"));
    assert!(
        p.read(".clinerules/hooks/TaskStart")
            .contains("mine-by-hand")
    );
    let before = p.tree();
    let (code, diff, err) = p.out(&["sync", "--check"]);
    assert_eq!((code, diff.as_str()), (0, ""), "{err}");
    p.run(&["sync"]).success();
    assert_eq!(p.tree(), before);

    // Cline leaves the manifest: its scripts go, the user's stays.
    p.write(".hookx/sync.toml", &manifest("[targets.copilot]\n"));
    p.run(&["sync"]).success();
    assert!(!p.project.join(pre).exists());
    assert!(
        p.read(".clinerules/hooks/TaskStart")
            .contains("mine-by-hand")
    );
}

/// Attacks row 2373: a Cline script and OpenCode's plugin `convert --write` wrote, edited by
/// hand, then the first `sync` with both as targets (its lock holds no digest for them yet):
/// both were overwritten, exit 0 ("written"). Where the lock has none, sync reads the digest
/// the copy carries itself, as it does a JSON copy's entries: both named, kept until --force.
#[test]
fn a_first_sync_keeps_a_converted_script_or_plugin_edited_by_hand() {
    let p = Project::new();
    let pre = ".clinerules/hooks/PreToolUse";
    let plugin = ".opencode/plugin/hookx-converted.js";
    // Run in the project, as convert names its sources from there.
    let here = |args: &[&str]| {
        let out = common::hookx()
            .current_dir(&p.project)
            .env("HOME", &p.home)
            .env_remove("HOOKX_HOME")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (status, err) = here(&["convert", SOURCE, "--to", "cline,opencode", "--write"]);
    assert_eq!(status, 0, "{err}");
    let script = format!("{}echo mine >&2\n", p.read(pre));
    p.write(pre, &script);
    let code = p.read(plugin).replacen("const GUARDS", "const GUARDZ", 1);
    p.write(plugin, &code);
    p.write(
        ".hookx/sync.toml",
        &manifest("[targets.cline]\n[targets.opencode]\n"),
    );
    let (status, err) = here(&["sync"]);
    assert_eq!(status, 1, "{err}");
    assert!(
        err.contains(&format!(
            "{pre}:1:1: the script hookx wrote was edited by hand since"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "{plugin}:1:1: the plugin hookx wrote was edited by hand since"
        )),
        "{err}"
    );
    assert_eq!(
        (p.read(pre), p.read(plugin)),
        (script.clone(), code.clone())
    );
    let (status, err) = here(&["sync", "--force"]);
    assert_eq!(status, 0, "{err}");
    assert!(!p.read(pre).contains("echo mine"), "{}", p.read(pre));
    assert!(!p.read(plugin).contains("GUARDZ"));
    let (status, err) = here(&["sync", "--check"]);
    assert_eq!(status, 0, "{err}");
}

#[test]
fn a_target_scope_picks_the_agents_own_file_of_that_scope() {
    let p = Project::new();
    p.write(
        ".hookx/sync.toml",
        &manifest("[targets.gemini]\nscope = \"user\"\n"),
    );
    // A file in the home is written only from trusted sources
    // (`tests/attacks.rs` `a_sync_manifest_writes_a_home_file_only_from_trusted_sources`).
    let source = p.project.join(SOURCE).display().to_string();
    p.run(&["trust", "--yes", &source]).success();
    let (code, _, err) = p.out(&["sync"]);
    assert_eq!(code, 0, "{err}");
    let user = p.home.join(".gemini/settings.json");
    let text = std::fs::read_to_string(&user).unwrap_or_default();
    assert!(text.contains("guard-v1.sh"), "{err}: {text}");
    assert!(
        err.contains("gemini: ~/.gemini/settings.json: written"),
        "{err}"
    );
    assert!(!p.project.join(".gemini/settings.json").exists());
    p.run(&["sync", "--check"]).success();

    // Claude has a local file (not committed); Gemini has none, and `out` with `scope` is
    // one too many.
    p.write(
        ".hookx/sync.toml",
        &manifest("[targets.gemini]\nscope = \"local\"\n"),
    );
    let (code, _, err) = p.out(&["sync"]);
    assert_ne!(code, 0);
    assert!(err.contains(".hookx/sync.toml:4:"), "{err}");
    assert!(err.contains("Gemini has no local hook file"), "{err}");
    p.write(
        ".hookx/sync.toml",
        &manifest("[targets.codex]\nout = \"x.json\"\nscope = \"project\"\n"),
    );
    let (code, _, err) = p.out(&["sync"]);
    assert_ne!(code, 0);
    assert!(err.contains(".hookx/sync.toml:5:"), "{err}");
    assert!(err.contains("both `out` and `scope`"), "{err}");
}

/// The manifest the README shows is what `--init --to copilot,gemini,codex` writes for
/// `examples/claude/settings.json` as the project's Claude file.
#[test]
fn the_readme_manifest_is_what_init_writes_for_the_example() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let shown = readme
        .split("```toml\n")
        .map(|block| block.split("```").next().unwrap_or_default())
        .find(|block| block.starts_with("# hookx sync manifest"))
        .expect("a sync manifest in README.md");
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("project");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let example = std::fs::read_to_string(root.join("examples/claude/settings.json")).unwrap();
    common::write(&project, SOURCE, &example);
    common::hookx_at(
        &project,
        &home,
        &["sync", "--init", "--to", "copilot,gemini,codex"],
    )
    .success();
    let written = std::fs::read_to_string(project.join(".hookx/sync.toml")).unwrap();
    assert_eq!(shown, written);
}

/// A source holding hookx's copies of a target's own rules (`convert .gemini/settings.json
/// --to claude --write` into the Claude source): sync does not write them back into that
/// target beside their originals. A Gemini handler's `name` (which Claude cannot say) was lost
/// on the way, so the copy came back as another handler, and Gemini ran it twice (attacks row
/// 252, row 246 through sync).
#[test]
fn a_sources_copies_of_a_targets_own_rules_are_not_synced_back_into_it() {
    let p = Project::new();
    p.write(
        ".gemini/settings.json",
        r#"{"hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [{"name": "block-secrets", "type": "command", "command": "./block.sh", "timeout": 4000}]}]}}"#,
    );
    common::hookx()
        .args([
            "convert",
            ".gemini/settings.json",
            "--to",
            "claude",
            "--write",
        ])
        .current_dir(&p.project)
        .env("HOME", &p.home)
        .env_remove("HOOKX_HOME")
        .assert()
        .success();
    assert!(p.read(SOURCE).contains("block.sh"), "{}", p.read(SOURCE));
    p.run(&["sync"]).success();
    let gemini = p.read(".gemini/settings.json");
    assert_eq!(gemini.matches("./block.sh").count(), 1, "{gemini}");
}

/// Attacks row 402: Gemini's own `/hooks disable` writes the handler's command into the
/// project's `.gemini/settings.json` `hooksConfig.disabled` (row 305, live), which is the file
/// sync writes and the team commits. With the guard's copy listed there, `sync --check` said
/// "up to date", exit 0: CI passed while the guard ran nowhere under Gemini for everyone.
/// `--check` now fails and names the list; a plain sync keeps the list (row 329) and says it.
#[test]
fn check_fails_on_a_synced_copy_the_target_turns_off() {
    let p = Project::new();
    p.run(&["sync"]).success();
    let gemini = ".gemini/settings.json";
    let mut value: serde_json::Value = serde_json::from_str(&p.read(gemini)).unwrap();
    let command = value["hooks"]["BeforeTool"][0]["hooks"][0]["command"].clone();
    assert!(command.as_str().unwrap().contains("guard-v1.sh"), "{value}");
    value["hooksConfig"] = serde_json::json!({"disabled": [command]});
    p.write(gemini, &serde_json::to_string_pretty(&value).unwrap());
    let (code, out, err) = p.out(&["sync", "--check"]);
    assert_eq!(code, 1, "{out}{err}");
    let said = format!("{out}{err}");
    assert!(
        said.contains(
            ".gemini/settings.json: 1 synced copy turned off in its `hooksConfig.disabled`"
        ),
        "{said}"
    );
    let (code, out, err) = p.out(&["sync"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(format!("{out}{err}").contains("turned off"), "{out}{err}");
    assert!(
        p.read(gemini).contains("\"disabled\""),
        "the user's list is kept"
    );
    // Out of the list, the check passes again.
    value["hooksConfig"] = serde_json::json!({"disabled": []});
    p.write(gemini, &serde_json::to_string_pretty(&value).unwrap());
    let (code, out, err) = p.out(&["sync", "--check"]);
    assert_eq!(code, 0, "{out}{err}");
}

/// Attacks row 402's leftover: a target's whole-file switch (Gemini's `hooksConfig.enabled:
/// false`, Claude's `disableAllHooks: true`) in the synced file turns every copy there off, for
/// everyone who checks it out; `--check` passed ("up to date"). It fails now, naming the switch.
#[test]
fn check_fails_on_a_target_whose_own_switch_turns_its_hooks_off() {
    let p = Project::new();
    p.run(&["sync"]).success();
    let gemini = ".gemini/settings.json";
    let mut value: serde_json::Value = serde_json::from_str(&p.read(gemini)).unwrap();
    value["hooksConfig"] = serde_json::json!({"enabled": false});
    p.write(gemini, &serde_json::to_string_pretty(&value).unwrap());
    let (code, out, err) = p.out(&["sync", "--check"]);
    assert_eq!(code, 1, "{out}{err}");
    let said = format!("{out}{err}");
    assert!(
        said.contains(".gemini/settings.json: `hooksConfig.enabled` is false there, so Gemini runs none of its hooks, the 2 synced copies among them"),
        "{said}"
    );
    value["hooksConfig"] = serde_json::json!({"enabled": true});
    p.write(gemini, &serde_json::to_string_pretty(&value).unwrap());
    let (code, out, err) = p.out(&["sync", "--check"]);
    assert_eq!(code, 0, "{out}{err}");
    // Claude's switch in a synced `.claude/settings.json`, the source a Gemini file.
    let q = Project::new();
    std::fs::remove_dir_all(q.project.join(".hookx")).unwrap();
    std::fs::remove_dir_all(q.project.join(".claude")).unwrap();
    q.write(
        ".gemini/settings.json",
        r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}"#,
    );
    let source = q.project.join(".gemini/settings.json");
    q.run(&["trust", &source.to_string_lossy()]).success();
    q.run(&["sync", "--init", "--to", "claude"]).success();
    q.run(&["sync"]).success();
    let claude = ".claude/settings.json";
    let mut value: serde_json::Value = serde_json::from_str(&q.read(claude)).unwrap();
    value["disableAllHooks"] = serde_json::json!(true);
    q.write(claude, &serde_json::to_string_pretty(&value).unwrap());
    let (code, out, err) = q.out(&["sync", "--check"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        format!("{out}{err}").contains(".claude/settings.json: `disableAllHooks` is true there, so Claude runs none of its hooks, the 1 synced copy among them"),
        "{out}{err}"
    );
}

/// Attacks row 920: a real multi-agent layout (1Password/agent-hooks at `adebf29d`): one guard
/// written by hand into Claude's, Copilot's (VS Code's flat form), Cursor's and Windsurf's
/// files. `--init` named all four as sources, so `sync` wrote four copies of the guard into
/// Gemini's and Codex's files: each ran it four times per shell call (the Copilot copy, with
/// no matcher, before every tool). A file whose every handler is likely a copy made by hand of
/// one in a source already named (the same event and command, as `doctor` notes them) is left
/// out, its line written commented with why; each target then holds the guard once.
#[test]
fn init_leaves_out_a_file_that_only_copies_another_sources_rules_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let guard = "bin/run-hook.sh 1password-validate-mounted-env-files";
    let files = [
        (
            ".claude/settings.json",
            format!(
                r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "{guard}"}}]}}]}}}}"#
            ),
        ),
        (
            ".cursor/hooks.json",
            format!(
                r#"{{"version": 1, "hooks": {{"beforeShellExecution": [{{"command": "{guard}"}}]}}}}"#
            ),
        ),
        (
            ".github/hooks/hooks.json",
            format!(
                r#"{{"version": 1, "hooks": {{"PreToolUse": [{{"command": "{guard}", "timeout": 15}}]}}}}"#
            ),
        ),
        (
            ".windsurf/hooks.json",
            format!(
                r#"{{"hooks": {{"pre_run_command": [{{"command": "{guard}", "show_output": true}}], "post_write_code": [{{"command": "./log-write.sh"}}]}}}}"#
            ),
        ),
    ];
    for (rel, text) in &files {
        common::write(&project, rel, text);
    }
    let init = common::hookx_at(&project, &home, &["sync", "--init", "--to", "gemini,codex"])
        .success()
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&init.stderr);
    let manifest = std::fs::read_to_string(project.join(".hookx/sync.toml")).unwrap();
    let listed = |rel: &str| {
        manifest
            .lines()
            .any(|l| l.trim_start().starts_with(&format!("{{ path = \"{rel}\"")))
    };
    assert!(listed(".claude/settings.json"), "{manifest}");
    for copy in [".cursor/hooks.json", ".github/hooks/hooks.json"] {
        assert!(!listed(copy), "{copy} listed: {manifest}");
        assert!(
            manifest.contains(&format!("# {{ path = \"{copy}\"")),
            "{copy}'s line: {manifest}"
        );
        assert!(
            err.contains(&format!("not a source: {copy}: every rule of it is likely a copy made by hand of one in .claude/settings.json")),
            "{err}"
        );
    }
    // A file with a rule of its own beside the copy stays a source (its copy is said by doctor).
    assert!(listed(".windsurf/hooks.json"), "{manifest}");
    common::hookx_at(&project, &home, &["sync"]).success();
    for target in [".gemini/settings.json", ".codex/hooks.json"] {
        let text = std::fs::read_to_string(project.join(target)).unwrap();
        let copies = text.matches("1password-validate-mounted-env-files").count();
        assert_eq!(
            copies, 2,
            "{target}: the Claude and Windsurf copies: {text}"
        );
    }
}

/// Attacks row 922: the same layout with Windsurf a target (`--to windsurf`, which does not
/// read Claude's file): `.windsurf/hooks.json`, a target's own file, already holds the team's
/// copy of the guard made by hand. Sync writes its copy beside it (entries written by hand
/// stay, and a hand copy is never merged), so Windsurf runs the guard twice per command; sync
/// said only "written". It now names the hand copy and what it costs.
#[test]
fn a_target_holding_a_hand_copy_of_a_source_rule_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let guard = "bin/run-hook.sh 1password-validate-mounted-env-files";
    common::write(
        &project,
        ".claude/settings.json",
        &format!(
            r#"{{"hooks": {{"PreToolUse": [{{"matcher": "Bash", "hooks": [{{"type": "command", "command": "{guard}"}}]}}]}}}}"#
        ),
    );
    common::write(
        &project,
        ".windsurf/hooks.json",
        &format!(
            "{{\n  \"hooks\": {{\n    \"pre_run_command\": [\n      {{\n        \"command\": \"{guard}\",\n        \"show_output\": true\n      }}\n    ]\n  }}\n}}\n"
        ),
    );
    common::hookx_at(
        &project,
        &home,
        &["sync", "--init", "--to", "windsurf,gemini"],
    )
    .success();
    let out = common::hookx_at(&project, &home, &["sync"])
        .success()
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    let text = std::fs::read_to_string(project.join(".windsurf/hooks.json")).unwrap();
    assert_eq!(text.matches(guard).count(), 2, "both copies: {text}");
    assert!(
        err.contains(".windsurf/hooks.json:4:7: likely a copy made by hand of a rule sync writes here from .claude/settings.json")
            && err.contains("Windsurf runs both"),
        "{err}"
    );
    // Gemini's file, with no hand copy, gets no such line.
    assert_eq!(
        err.matches("likely a copy made by hand").count(),
        1,
        "{err}"
    );
}

/// Attacks row 1101: row 880's per-rule rule in sync. A team's Gemini file holds a rule of its
/// own and the copy `convert --write` made of the Claude guard (`hookx exec --as claude`); the
/// manifest lists both files as sources and Copilot as a target. Copilot reads
/// `.claude/settings.json` itself (live, Copilot CLI 1.0.102, row 880), so the guard's copy
/// in Copilot's file would run it twice per call: sync writes the Gemini rule there, not the
/// Claude guard's copy, and says why.
#[test]
fn sync_copies_no_rule_the_targets_agent_runs_from_another_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    common::write(
        &project,
        ".claude/settings.json",
        &claude("echo cguard", false),
    );
    common::write(
        &project,
        ".gemini/settings.json",
        r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "echo gguard"}]}]}}"#,
    );
    common::hookx_clean(&project)
        .env("HOME", &home)
        .args([
            "convert",
            ".claude/settings.json",
            "--to",
            "gemini",
            "--write",
        ])
        .assert()
        .success();
    common::hookx_at(&project, &home, &["sync", "--init", "--to", "copilot"]).success();
    let manifest = std::fs::read_to_string(project.join(".hookx/sync.toml")).unwrap();
    assert!(
        manifest.contains(r#"{ path = ".gemini/settings.json""#),
        "{manifest}"
    );
    let out = common::hookx_at(&project, &home, &["sync"]).success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let text = std::fs::read_to_string(project.join(".github/hooks/hooks.json")).unwrap();
    let held = |guard: &str| text.matches(guard).count();
    assert_eq!(
        (held("echo cguard"), held("echo gguard")),
        (0, 1),
        "{text}\n{err}"
    );
    assert!(
        err.contains(
            "note: 1 handler(s) of the sources are rules Copilot already runs itself from \
             .claude/settings.json: not copied here, so that each runs once"
        ),
        "{err}"
    );
    common::hookx_at(&project, &home, &["sync", "--check"]).success();
}

/// Attacks row 2061: a Qwen source the team keeps outside Qwen's own file (`hooks/qwen.json`,
/// `from = "qwen"`: a prompt logger), synced into Gemini, Copilot, Codex and Qwen, each
/// trusted, hookx installed for every host. The copy written "back home" into
/// `.qwen/settings.json` had no record of the rule (`{source, digest}` only), so the plan took
/// it for another rule: `list` had two lines for the logger under every host, and the route
/// ran the Qwen copy beside the host's own (twice per prompt under Gemini, Qwen and Claude).
/// Now a copy into another file of its own dialect carries the record: one rule, run once.
#[test]
fn a_source_synced_into_its_own_agents_file_is_one_rule_under_every_host() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let trusted = serde_json::json!({ project.display().to_string(): "TRUST_FOLDER" });
    common::write(&home, ".gemini/trustedFolders.json", &trusted.to_string());
    let log = root.join("prompts.log");
    let logger = serde_json::json!({"hooks": {"UserPromptSubmit": [{"hooks": [{
        "type": "command", "command": format!("echo prompt-2061 >> {}", log.display())}]}]}});
    common::write(&project, "hooks/qwen.json", &logger.to_string());
    let bin = env!("CARGO_BIN_EXE_hookx");
    let targets: String = ["gemini", "copilot", "codex", "qwen"]
        .iter()
        .map(|t| format!("[targets.{t}]\nhookx = \"{bin}\"\n"))
        .collect();
    common::write(
        &project,
        ".hookx/sync.toml",
        &format!(
            "version = 1\nsources = [{{ path = \"hooks/qwen.json\", from = \"qwen\" }}]\n{targets}"
        ),
    );
    let at = |args: &[&str]| common::hookx_at(&project, &home, args);
    at(&["sync"]).success();
    at(&["trust", "--yes"]).success();
    let hosts = [
        ("gemini", "BeforeAgent"),
        ("qwen", "UserPromptSubmit"),
        ("claude", "UserPromptSubmit"),
        ("codex", "UserPromptSubmit"),
        ("copilot", "userPromptSubmitted"),
    ];
    for (host, _) in hosts {
        at(&["install", "--host", host]).success();
    }
    at(&["trust", "--yes"]).success();
    let home_copy = std::fs::read_to_string(project.join(".qwen/settings.json")).unwrap();
    let mut wrong = Vec::new();
    for (host, event) in hosts {
        let listed = at(&["list", "--host", host]).success();
        let listed = String::from_utf8_lossy(&listed.get_output().stdout).into_owned();
        let plan: Vec<&str> = listed
            .lines()
            .filter(|l| l.starts_with(&format!("  {host}  ")) && l.contains("prompt-2061"))
            .collect();
        if plan.len() != 1 {
            wrong.push(format!(
                "{host}: the plan has {} lines: {plan:#?}",
                plan.len()
            ));
        }
        // Codex runs no copy nor route its user did not review in Codex; Copilot's route and
        // copy are as the plan says: the hosts that run a copy here are counted.
        if ["codex", "copilot"].contains(&host) {
            continue;
        }
        let _ = std::fs::remove_file(&log);
        let mut cmd = common::hookx_clean(&project);
        cmd.env("HOME", &home)
            .args(["simulate", "--host", host, "--event", event])
            .args(["--field", "prompt=hi", "--project"])
            .arg(&project)
            .arg("--home")
            .arg(&home);
        let ran = common::ran(&mut cmd);
        let runs = std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count();
        if runs != 1 {
            wrong.push(format!(
                "{host}: the logger ran {runs} times: {}",
                ran.stdout
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{}\n.qwen/settings.json: {home_copy}",
        wrong.join("\n")
    );
}
