//! Inputs built to exhaust hookx must not hang it: a matcher with catastrophic backtracking
//! (regress, the ECMAScript engine, has no step limit) and a config far larger than any real one.

use assert_cmd::Command;
use std::time::{Duration, Instant};

/// A Claude PreToolUse payload whose tool name is forty `a`s and a `!`: `(a+)+$` and `(a|a)*b`
/// try 2^40 ways to split it before failing.
fn evil_payload() -> String {
    serde_json::json!({
        "session_id": "s",
        "transcript_path": "/tmp/t.jsonl",
        "cwd": "/tmp",
        "hook_event_name": "PreToolUse",
        "tool_name": format!("{}!", "a".repeat(40)),
        "tool_input": {},
    })
    .to_string()
}

#[test]
fn exec_answers_quickly_when_a_matcher_backtracks_catastrophically() {
    for matcher in ["(a+)+$", "(a|a)*b", "^(a|aa)+$"] {
        let started = Instant::now();
        let out = Command::cargo_bin("hookx")
            .unwrap()
            .args([
                "exec", "--as", "claude", "--match", matcher, "--host", "claude",
            ])
            .args(["--", "true"])
            .env_remove("CLAUDE_PROJECT_DIR")
            .write_stdin(evil_payload())
            .timeout(Duration::from_secs(30))
            .assert()
            .success();
        let elapsed = started.elapsed();
        assert!(elapsed < Duration::from_secs(10), "{matcher}: {elapsed:?}");
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(
            stderr.contains(&format!("matcher `{matcher}` ran away")) && stderr.contains("skipped"),
            "{matcher}: {stderr}"
        );
    }
}

#[test]
fn validate_refuses_a_20_mb_config_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    let mut text = String::from("{\"hooks\": {}");
    text.push_str(&" ".repeat(20 * 1024 * 1024));
    text.push('}');
    std::fs::write(&path, text).unwrap();
    let started = Instant::now();
    let out = Command::cargo_bin("hookx")
        .unwrap()
        .arg("validate")
        .arg(&path)
        .timeout(Duration::from_secs(30))
        .assert()
        .code(1);
    assert!(started.elapsed() < Duration::from_secs(5));
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("is 20971533 bytes; hookx reads config files up to 16777216 bytes"),
        "{stderr}"
    );
}

/// Every diagnostic names a position; finding it must not rescan the file (it once took minutes
/// for a few thousand warnings). 20,000 handlers without a `type`, minified (one line of
/// about a megabyte) and as YAML frontmatter. In a settings file they are errors (Claude Code
/// does not load such a handler, attacks row 179); in a skill's frontmatter, warnings.
#[test]
fn validate_locates_thousands_of_diagnostics_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let n = 20_000;
    let rules: Vec<_> = (0..n)
        .map(
            |i| serde_json::json!({"matcher": "Bash", "hooks": [{"command": format!("echo {i}")}]}),
        )
        .collect();
    let json = dir.path().join("settings.json");
    std::fs::write(
        &json,
        serde_json::json!({"hooks": {"PreToolUse": rules}}).to_string(),
    )
    .unwrap();
    let mut md = String::from("---\nname: x\nhooks:\n  PreToolUse:\n");
    for i in 0..n {
        md.push_str(&format!(
            "    - matcher: Bash\n      hooks:\n        - command: echo {i}\n"
        ));
    }
    md.push_str("---\nbody\n");
    let skill = dir.path().join("SKILL.md");
    std::fs::write(&skill, md).unwrap();
    for (path, code, tally) in [
        (&json, 1, format!("{n} error(s), 0 warning(s)")),
        (&skill, 0, format!("0 error(s), {n} warning(s)")),
    ] {
        let started = Instant::now();
        let out = Command::cargo_bin("hookx")
            .unwrap()
            .arg("validate")
            .arg(path)
            .args(["--from", "claude"])
            .timeout(Duration::from_secs(120))
            .assert()
            .code(code);
        let elapsed = started.elapsed();
        assert!(elapsed < Duration::from_secs(60), "{path:?}: {elapsed:?}");
        let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert!(
            stdout.ends_with(&format!("{tally} in 1 file(s)\n")),
            "{}",
            &stdout[stdout.len().saturating_sub(300)..]
        );
    }
}

/// `hookx run` over a trusted 8 MB Bricks file of 100,000 rules, one of them a runaway regex:
/// it answers, reports the runaway, and still evaluates the regexes after it.
#[test]
fn run_answers_over_a_huge_config_with_a_runaway_matcher() {
    let dir = tempfile::tempdir().unwrap();
    let (project, home) = (dir.path().join("project"), dir.path().join("home"));
    std::fs::create_dir_all(project.join(".bricks")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let rule = |matcher: &str, command: String| serde_json::json!({"matcher": matcher, "hooks": [{"type": "command", "command": command}]});
    let mut rules: Vec<_> = (0..100_000)
        .map(|i| rule("write_file", format!("echo {i}")))
        .collect();
    rules.push(rule("(a+)+$", "echo evil".into()));
    let marker = dir.path().join("after-ran");
    rules.push(rule("^a+!$", format!("touch '{}'", marker.display())));
    let config = project.join(".bricks/hooks.json");
    std::fs::write(
        &config,
        serde_json::json!({"hooks": {"PreToolUse": rules}}).to_string(),
    )
    .unwrap();
    let hookx = |args: &[&str]| {
        let mut cmd = Command::cargo_bin("hookx").unwrap();
        cmd.args(args)
            .arg("--project")
            .arg(&project)
            .arg("--home")
            .arg(&home)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("COPILOT_CLI")
            .timeout(Duration::from_secs(120));
        cmd
    };
    hookx(&["trust", config.to_str().unwrap()])
        .assert()
        .success();
    let started = Instant::now();
    let out = hookx(&["run", "--host", "claude"])
        .write_stdin(evil_payload())
        .assert()
        .success();
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("matcher `(a+)+$` ran away"), "{stderr}");
    assert!(!stderr.contains("^a+!$"), "{stderr}");
    assert!(
        marker.exists(),
        "the rule after the runaway one did not run: {stderr}"
    );
}

/// A Claude settings file with one PreToolUse rule under `matcher`.
fn claude_settings(matcher: &str) -> String {
    serde_json::json!({"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [
        {"type": "command", "command": "true"}
    ]}]}})
    .to_string()
}

/// `hookx ARGS FILE` on a Claude settings file holding `matcher`, bounded by the harness's
/// own timeout (a hang fails the test): exit code, and stdout and stderr.
fn on_settings(args: &[&str], matcher: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.json");
    std::fs::write(&path, claude_settings(matcher)).unwrap();
    let out = Command::cargo_bin("hookx")
        .unwrap()
        .args(args)
        .arg(&path)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
    )
}

/// 100 000 grouped alternatives (1.1 MB): the old convert overflowed its stack checking the
/// translated regex (SIGABRT), validate spent seconds compiling it. Both now refuse to hand it
/// to the regex engine and say so.
#[test]
fn convert_and_validate_do_not_give_a_huge_alternation_to_the_regex_engine() {
    let alternatives: Vec<String> = (0..100_000).map(|i| format!("(Tool{i})")).collect();
    let matcher = alternatives.join("|");
    let (code, stderr) = on_settings(
        &["convert", "--from", "claude", "--to", "copilot"],
        &matcher,
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("cannot be checked"), "{stderr}");
    let (code, out) = on_settings(&["validate", "--from", "claude"], &matcher);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("hookx evaluates regexes of up to"), "{out}");
}

/// 100 000 plain tool names (`t0|t1|…`, 690 KB) are a name list, not a regex: the old convert
/// deduplicated the renamed list pairwise (5 000 names 2 s, 20 000 names 18 s in a debug
/// build, so about 7 minutes here) and never reached the harness's bound.
#[test]
fn convert_of_a_100000_name_list_is_linear_and_keeps_every_name() {
    let names: Vec<String> = (0..100_000).map(|i| format!("t{i}")).collect();
    let (code, out) = on_settings(
        &["convert", "--from", "claude", "--to", "copilot"],
        &names.join("|"),
    );
    assert_eq!(code, Some(0), "{}", &out[out.len().saturating_sub(2000)..]);
    let converted: serde_json::Value =
        serde_json::from_str(&out[..out.find("\nnote:").unwrap_or(out.len())]).unwrap();
    let matcher = converted["hooks"]["preToolUse"][0]["matcher"]
        .as_str()
        .unwrap();
    assert_eq!(matcher.split('|').count(), 100_000);
    assert!(matcher.split('|').eq(names.iter().map(String::as_str)));
}

/// Twenty `.*` before a letter no tool name holds: on a tool name of 15 characters the engine
/// tries every way to split it twenty ways (billions). The old convert checked the translated
/// regex against every known tool name with no time bound and never finished.
#[test]
fn convert_is_bounded_when_a_matcher_runs_away_on_tool_names() {
    let matcher = format!("{}Z", ".*".repeat(20));
    let (code, stderr) = on_settings(
        &["convert", "--from", "claude", "--to", "copilot"],
        &matcher,
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("ran away"), "{stderr}");
}

/// A project and a home for the tests of hookx's own records, with a trusted deny of every
/// Bash call in the user's Bricks file.
#[cfg(unix)]
struct Homed {
    _dir: tempfile::TempDir,
    project: std::path::PathBuf,
    home: std::path::PathBuf,
    /// How long one command may take before the test kills it and fails.
    ceiling: Duration,
}

#[cfg(unix)]
impl Homed {
    fn new() -> Homed {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (project, home) = (root.join("project"), root.join("home"));
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(home.join(".hookx")).unwrap();
        Homed {
            _dir: dir,
            project,
            home,
            ceiling: Duration::from_secs(20),
        }
    }

    /// A home whose commands read and write a record near 16 MiB: a debug build's `trust`
    /// takes over a second of CPU there, which a loaded machine (a load of 25 on 2 cores)
    /// stretches past 20 s of wall time; the flake of
    /// `trust_never_writes_a_record_run_cannot_read` (attacks row 2080).
    fn with_a_huge_record() -> Homed {
        Homed {
            ceiling: Duration::from_secs(600),
            ..Homed::new()
        }
    }

    /// `hookx ARGS…` here, killed at the ceiling (20 s unless the test needs more), which fails
    /// the test, saying so: a read that waits on a FIFO.
    fn hookx(&self, args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
        let out = Command::cargo_bin("hookx")
            .unwrap()
            .args(args)
            .arg("--project")
            .arg(&self.project)
            .arg("--home")
            .arg(&self.home)
            .env("HOME", &self.home)
            .env_remove("HOOKX_HOME")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env_remove("COPILOT_CLI")
            .env_remove("BRICKS_HOOK_EVENT")
            .write_stdin(stdin.to_string())
            .timeout(self.ceiling)
            .output()
            .unwrap();
        let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
        assert!(
            out.status.code().is_some(),
            "hookx {:?}… was killed at the test's ceiling of {:?} ({}): {}",
            &args[..args.len().min(2)],
            self.ceiling,
            out.status,
            text(&out.stderr)
        );
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    }

    /// The user's Bricks file, denying every Bash call (padded to `bytes`), trusted.
    fn trusted_deny(&self, bytes: usize) -> std::path::PathBuf {
        let file = self.home.join(".bricks-project-desktop/hooks.json");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let mut rules = vec![serde_json::json!({"matcher": "bash", "hooks": [
            {"type": "command", "command": "echo trusted-deny >&2; exit 2"}]})];
        let mut i = 0;
        while serde_json::to_string(&rules).unwrap().len() < bytes {
            rules.push(
                serde_json::json!({"matcher": format!("never{i}"), "hooks": [
                {"type": "command", "command": format!("echo padding {i}")}]}),
            );
            i += 1;
        }
        let text = serde_json::json!({"hooks": {"PreToolUse": rules}}).to_string();
        std::fs::write(&file, text).unwrap();
        let (code, _, stderr) = self.hookx(&["trust", file.to_str().unwrap()], "");
        assert_eq!(code, Some(0), "{stderr}");
        file
    }

    /// `hookx run --host claude` for a PreToolUse of Bash: whether the trusted deny answered.
    fn denied(&self) -> (bool, String) {
        let payload = serde_json::json!({
            "session_id": "s", "transcript_path": "/dev/null", "cwd": self.project,
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "ls"},
        });
        let (code, stdout, stderr) = self.hookx(
            &["run", "--host", "claude", "--event", "PreToolUse"],
            &payload.to_string(),
        );
        let denied = (code == Some(2) || stdout.contains("\"deny\""))
            && (stderr.contains("trusted-deny") || stdout.contains("trusted-deny"));
        (denied, format!("exit {code:?}\n{stdout}\n{stderr}"))
    }
}

/// Replaces `path` by a named pipe no one writes to: opening it to read waits for a writer.
#[cfg(unix)]
fn fifo(path: &std::path::Path) {
    let _ = std::fs::remove_file(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

/// `warned.json` and `warned.sum` replaced by FIFOs: `hookx run` neither waits on them nor
/// loses the trusted deny.
#[cfg(unix)]
#[test]
fn run_does_not_wait_on_a_fifo_in_place_of_its_warning_records() {
    let h = Homed::new();
    h.trusted_deny(0);
    untrusted_file(&h);
    for name in ["warned.json", "warned.sum"] {
        fifo(&h.home.join(".hookx").join(name));
    }
    let (denied, out) = h.denied();
    assert!(denied, "{out}");
}

/// Attacks row 1512: `warned.sum` kept the digests of 32 sets of untrusted files, one per
/// recent (project, host). A user who goes round more projects than that missed it on every
/// event, and each miss read `warned.json` whole (800 KB at its 4 096 entries: 139 M
/// instructions against 5.4 M for the same event with a hit, debug build). Forty projects with
/// an untrusted file each, three rounds: the third finds every set in `warned.sum` and does not
/// read the record, shown by a record made unreadable, which a miss reads as empty and warns
/// again.
#[cfg(unix)]
#[test]
fn forty_projects_in_turn_find_their_warnings_without_reading_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let home = root.join("home");
    std::fs::create_dir_all(home.join(".hookx")).unwrap();
    let projects: Vec<std::path::PathBuf> = (0..40)
        .map(|n| {
            let h = Homed {
                _dir: tempfile::tempdir().unwrap(),
                project: root.join(format!("p{n}")),
                home: home.clone(),
                ceiling: Duration::from_secs(20),
            };
            std::fs::create_dir_all(h.project.join(".git")).unwrap();
            untrusted_file(&h);
            h.project
        })
        .collect();
    // A file changed in the last 2 s has no identity to remember it by (`cache::SETTLE`).
    std::thread::sleep(Duration::from_millis(2100));
    let warned = |project: &std::path::Path| {
        let payload = serde_json::json!({
            "session_id": "s", "transcript_path": "/dev/null", "cwd": project,
            "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": "ls"},
        });
        let out = Command::cargo_bin("hookx")
            .unwrap()
            .args([
                "run",
                "--host",
                "claude",
                "--event",
                "PreToolUse",
                "--project",
            ])
            .arg(project)
            .arg("--home")
            .arg(&home)
            .env("HOME", &home)
            .env_remove("CLAUDE_PROJECT_DIR")
            .write_stdin(payload.to_string())
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).contains("not trusted")
    };
    let round = || projects.iter().filter(|p| warned(p)).count();
    assert_eq!(round(), 40, "the first round warns about each file");
    assert_eq!(round(), 0, "the second warns about none");
    std::fs::write(home.join(".hookx/warned.json"), "not a record").unwrap();
    assert_eq!(round(), 0, "events that read the record again");
}

/// An untrusted project file, so that `run` has something to warn about.
#[cfg(unix)]
fn untrusted_file(h: &Homed) {
    let file = h.project.join(".github/hooks/new.json");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "exit 0"}]}}"#,
    )
    .unwrap();
}

/// `trust.json` replaced by a FIFO: `run` answers at once (trusting nothing, as for any record
/// it cannot read: a tool call is denied, naming the record), and `hookx trust` refuses it,
/// naming it.
#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_the_trust_record_is_refused_not_waited_on() {
    let h = Homed::new();
    let file = h.trusted_deny(0);
    untrusted_file(&h);
    fifo(&h.home.join(".hookx/trust.json"));
    let (denied, out) = h.denied();
    assert!(
        !denied && out.contains("not using the trust record"),
        "{out}"
    );
    let (code, _, stderr) = h.hookx(&["trust", file.to_str().unwrap()], "");
    assert_ne!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("trust.json") && stderr.contains("not a regular file"),
        "{stderr}"
    );
}

/// Attacks row 2334: `trust.json` a symbolic link whose target is gone (a record kept in a
/// dotfiles folder that is not mounted, or moved) is a record that does not read, not "no
/// record": the guard it trusted is not there to deny, so a tool call is denied, naming the
/// record; and `hookx trust` does not start a new record over the link.
#[cfg(unix)]
#[test]
fn a_trust_record_linked_to_a_missing_file_fails_closed() {
    let h = Homed::new();
    let file = h.trusted_deny(0);
    let record = h.home.join(".hookx/trust.json");
    let kept = h.home.join("dotfiles/trust.json");
    std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
    std::fs::rename(&record, &kept).unwrap();
    std::os::unix::fs::symlink(&kept, &record).unwrap();
    let (denied, out) = h.denied();
    assert!(denied, "through the link the guard denies: {out}");
    std::fs::remove_file(&kept).unwrap();
    let (denied, out) = h.denied();
    assert!(
        !denied && out.contains("\"deny\"") && out.contains("not using the trust record"),
        "a record linked to a missing file must fail closed: {out}"
    );
    let (code, _, stderr) = h.hookx(&["trust", file.to_str().unwrap()], "");
    assert!(
        code != Some(0) && stderr.contains("trust.json") && record.is_symlink(),
        "trust must not start a new record over the link: {code:?} {stderr}"
    );
}

/// Attacks row 2433: row 2334 one level up, `~/.hookx` itself a link into a dotfiles folder
/// that is not mounted (its target gone). The guard trusted there must not be skipped as
/// untrusted: the call is denied, naming the link; `trust` starts no record through it.
#[cfg(unix)]
#[test]
fn a_hookx_folder_linked_to_a_missing_folder_fails_closed() {
    let h = Homed::new();
    let file = h.trusted_deny(0);
    let folder = h.home.join(".hookx");
    let kept = h.home.join("dotfiles/hookx");
    std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
    std::fs::rename(&folder, &kept).unwrap();
    std::os::unix::fs::symlink(&kept, &folder).unwrap();
    let (denied, out) = h.denied();
    assert!(denied, "through the link the guard denies: {out}");
    std::fs::rename(&kept, h.home.join("dotfiles/elsewhere")).unwrap();
    let (denied, out) = h.denied();
    assert!(
        !denied
            && out.contains("\"deny\"")
            && out.contains("not using the trust record")
            && out.contains("is a link to a folder that does not exist"),
        "a hookx folder linked to a missing folder must fail closed: {out}"
    );
    let (code, _, stderr) = h.hookx(&["trust", file.to_str().unwrap()], "");
    assert!(
        code != Some(0) && stderr.contains(".hookx") && folder.is_symlink() && !kept.exists(),
        "trust must not start a new record through the link: {code:?} {stderr}"
    );
}

/// A trust record `run` cannot read (cut short, or a newer hookx's format after a downgrade)
/// trusts nothing, and that must not pass for "nothing is trusted": the guard it trusted is
/// not there to deny, so a tool call is denied, naming the record and why.
#[test]
fn a_trust_record_that_does_not_read_fails_closed_and_says_why() {
    let h = Homed::new();
    h.trusted_deny(0);
    let record = h.home.join(".hookx/trust.json");
    let whole = std::fs::read_to_string(&record).unwrap();
    let newer = whole.replacen("\"version\": 2", "\"version\": 3", 1);
    assert_ne!(newer, whole);
    for (text, why) in [
        (&whole[..whole.len() / 2], "is not a hookx trust record"),
        (&newer[..], "has version 3"),
    ] {
        std::fs::write(&record, text).unwrap();
        let (_, out) = h.denied();
        assert!(
            out.contains("\"deny\"")
                && out.contains("not using the trust record")
                && out.contains(why),
            "{out}"
        );
    }
}

/// Attacks row 1342: a field a newer hookx writes into a record (as `without_agent_keys` was to
/// a build of 2026-12-04, which dropped it when it trusted another file, so that the newer
/// hookx skipped the user's guard as changed once the agent had written a key of its own into
/// the file) is kept where this hookx writes the record for another file's trust.
#[cfg(unix)]
#[test]
fn a_field_a_newer_hookx_wrote_into_the_trust_record_is_kept() {
    let h = Homed::new();
    h.trusted_deny(0);
    let record = h.home.join(".hookx/trust.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let newer = serde_json::json!({"sha256": "of tomorrow"});
    value["trusted"][0]["a_field_of_tomorrow"] = newer.clone();
    std::fs::write(&record, value.to_string()).unwrap();
    let other = h.project.join(".claude/settings.json");
    std::fs::create_dir_all(other.parent().unwrap()).unwrap();
    std::fs::write(&other, r#"{"hooks": {}}"#).unwrap();
    let (code, _, stderr) = h.hookx(&["trust", other.to_str().unwrap()], "");
    assert_eq!(code, Some(0), "{stderr}");
    let after: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let kept = after["trusted"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["path"].as_str().unwrap().ends_with("hooks.json"))
        .unwrap();
    assert_eq!(kept["a_field_of_tomorrow"], newer, "{after:#}");
    let (denied, out) = h.denied();
    assert!(denied, "{out}");
}

/// Row 122 (seventh pass): `hookx trust` wrote a record larger than `run` reads (records of
/// many files pile up), and from then on every guarded tool call in every project was denied,
/// `trust` itself could no longer read the record, and the fix said "run the hookx that wrote
/// it". A trust that would make the record too large to read writes nothing and says why; the
/// record and its trusted guard keep working.
/// A record too large to read (written by hand, or by a hookx before the cap) cannot be
/// revoked from or listed: the error says the way out, not only the size.
#[test]
fn a_record_too_large_to_read_says_how_to_start_afresh() {
    let h = Homed::new();
    h.trusted_deny(0);
    let record = h.home.join(".hookx/trust.json");
    let text = std::fs::read_to_string(&record).unwrap();
    let padded = format!(
        "{}{}",
        text,
        " ".repeat(hookx::read::MAX_FILE_BYTES as usize)
    );
    std::fs::write(&record, padded).unwrap();
    for args in [
        &["trust", "--list"][..],
        &["trust", "--revoke", "x.json"][..],
    ] {
        let (code, _, stderr) = h.hookx(args, "");
        assert_ne!(code, Some(0), "{args:?}: {stderr}");
        assert!(
            stderr.contains("trust.json") && stderr.contains("move it away to start afresh"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn trust_never_writes_a_record_run_cannot_read() {
    let h = Homed::with_a_huge_record();
    h.trusted_deny(0);
    let record = h.home.join(".hookx/trust.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let first = v["trusted"][0].clone();
    let cap = hookx::read::MAX_FILE_BYTES as usize;
    let size = |v: &serde_json::Value| serde_json::to_string_pretty(v).unwrap().len() + 1;
    let gone = |i: usize| {
        let mut r = first.clone();
        r["path"] = format!("/gone/{i:08}/.bricks-project-desktop/hooks.json").into();
        r
    };
    let bare = size(&v);
    v["trusted"].as_array_mut().unwrap().push(gone(0));
    let one = size(&v) - bare;
    let list = v["trusted"].as_array_mut().unwrap();
    for i in 1..(cap - bare - 2048) / one {
        list.push(gone(i));
    }
    let text = serde_json::to_string_pretty(&v).unwrap() + "\n";
    assert!(
        text.len() < cap && text.len() + 4096 > cap,
        "{}",
        text.len()
    );
    std::fs::write(&record, &text).unwrap();
    let (denied, out) = h.denied();
    assert!(denied, "{out}");
    let mut names = Vec::new();
    for i in 0..40 {
        let file = h.project.join(format!(".github/hooks/f{i:03}.json"));
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let hooks = r#"{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"true"}]}}"#;
        std::fs::write(&file, hooks).unwrap();
        names.push(file.display().to_string());
    }
    let mut args = vec!["trust"];
    args.extend(names.iter().map(String::as_str));
    let (code, _, stderr) = h.hookx(&args, "");
    assert_ne!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains("trust.json") && stderr.contains("too large"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap(), text);
    let (denied, out) = h.denied();
    assert!(denied, "{out}");
}

/// A guard the user trusted in the record's older format (version 1: a real path and a hash,
/// no location), which `run` does not honour: after the first warning, every tool call would
/// go through without it and without a word. It is denied, naming the fix.
#[test]
fn a_guard_trusted_in_the_older_record_format_fails_closed_naming_the_fix() {
    let h = Homed::new();
    let file = h.trusted_deny(0);
    let record = h.home.join(".hookx/trust.json");
    let v2: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let entry = &v2["trusted"][0];
    let v1 = serde_json::json!({"version": 1, "files": {
        entry["path"].as_str().unwrap(): {"sha256": entry["sha256"], "trusted_at": entry["trusted_at"]}}});
    std::fs::write(&record, v1.to_string()).unwrap();
    for _ in 0..2 {
        let (_, out) = h.denied();
        assert!(
            out.contains("\"deny\"")
                && out.contains("older hookx")
                && out.contains(&format!("hookx trust {}", file.display())),
            "{out}"
        );
    }
}

/// The run-path cache's entries replaced by FIFOs: each is a miss, the file is read again, and
/// its deny still answers.
#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_a_cache_entry_is_a_miss() {
    let h = Homed::new();
    h.trusted_deny(hookx::cache::MIN_BYTES as usize + 1024);
    std::thread::sleep(hookx::cache::SETTLE + Duration::from_millis(200));
    let (denied, out) = h.denied();
    assert!(denied, "{out}");
    let cache = h.home.join(".hookx/cache");
    let entries: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    assert!(!entries.is_empty(), "nothing was cached");
    for entry in &entries {
        fifo(entry);
    }
    let (denied, out) = h.denied();
    assert!(denied, "{out}");
}

/// A FIFO given to `validate` (or as a hook file) is refused at once, not waited on.
#[cfg(unix)]
#[test]
fn validate_refuses_a_fifo_at_once() {
    let h = Homed::new();
    let path = h.project.join("settings.json");
    fifo(&path);
    let (code, stdout, stderr) = h.hookx(&["validate", path.to_str().unwrap()], "");
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(
        stderr.contains("settings.json") && stderr.contains("not a regular file"),
        "{stderr}"
    );
}

/// `doctor` over a project whose settings file is 1 GiB (sparse): it says the file is too
/// large, as `validate` does, without reading it whole: its peak resident memory stays far
/// below the file's size.
#[cfg(target_os = "linux")]
#[test]
fn doctor_does_not_read_a_huge_hook_file_whole() {
    use std::io::Read;
    let h = Homed::new();
    let path = h.project.join(".claude/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::File::create(&path)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    // Reaped by wait4(2) below, which gives its resource use.
    #[expect(clippy::zombie_processes)]
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args(["doctor", "--project"])
        .arg(&h.project)
        .arg("--home")
        .arg(&h.home)
        .env("HOME", &h.home)
        .env_remove("HOOKX_HOME")
        .env_remove("CLAUDE_PROJECT_DIR")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4(2) to fill in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, writing into the two locals.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    assert!(
        stdout.contains("hookx reads config files up to 16777216 bytes"),
        "{stdout}"
    );
    // Kibibytes on Linux.
    let peak = usage.ru_maxrss as u64 * 1024;
    assert!(peak < 256 << 20, "doctor peaked at {peak} bytes");
}

/// `convert --out` into a FIFO: refused at once, naming it, not waited on (the target is read
/// first, to merge or diff).
#[cfg(unix)]
#[test]
fn convert_refuses_a_fifo_as_its_target() {
    let h = Homed::new();
    let source = h.project.join("settings.json");
    std::fs::write(&source, claude_settings("Bash")).unwrap();
    let target = h.project.join("hooks.json");
    fifo(&target);
    for write in [false, true] {
        let mut args = vec![
            "convert",
            source.to_str().unwrap(),
            "--from",
            "claude",
            "--to",
            "copilot",
            "--out",
            target.to_str().unwrap(),
        ];
        if write {
            args.push("--write");
        }
        let out = Command::cargo_bin("hookx")
            .unwrap()
            .args(&args)
            .timeout(Duration::from_secs(20))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{write}: {stderr}");
        assert!(
            stderr.contains("hooks.json") && stderr.contains("not a regular file"),
            "{write}: {stderr}"
        );
    }
}
