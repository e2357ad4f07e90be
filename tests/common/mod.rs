//! Helpers shared by the integration tests (`mod common;` in each test file that needs them).
//! Each test file is its own crate and uses only some of them.
#![allow(dead_code)]

pub mod roundtrip;

use assert_cmd::Command;
use hookx::tables::Dialect;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The real `hookx` binary, killed (and the test failed) after a minute.
pub fn hookx() -> Command {
    let mut cmd = Command::cargo_bin("hookx").expect("the hookx binary");
    cmd.timeout(Duration::from_secs(60));
    cmd
}

/// Insta settings for snapshots in `snapshots/<folder>/` (a suite's folder, then per source and
/// target where it has them: `convert/claude/to_copilot`), named without the module.
pub fn snapshots(folder: &str) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new("../snapshots").join(folder));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings
}

/// `tests/fixtures`, as an absolute path.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Every fixture of a dialect folder (`.json` and `.md`), as paths relative to the crate root.
pub fn fixtures(folder: &str) -> Vec<String> {
    let dir = Path::new("tests/fixtures").join(folder);
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("json" | "md")))
        .map(|p| p.to_str().expect("UTF-8 path").to_string())
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no fixtures in {}", dir.display());
    found
}

/// Every fixture of a registered dialect, found by its name in `tests/fixtures/<name>/`: its
/// config files (`.json`, `.md`), or for a dialect whose hooks are one script per event
/// ([`hookx::config::spec::ScriptLayout`]) each hook folder there. Paths are relative to the
/// crate root. A registered dialect without fixtures fails here, saying what to add.
pub fn dialect_fixtures(dialect: Dialect) -> Vec<String> {
    let dir = Path::new("tests/fixtures").join(dialect.name());
    assert!(
        dir.is_dir(),
        "{dialect} is registered (src/dialect/mod.rs) but has no fixture folder {}: add one with \
         at least one of its hook files (see README, \"Adding a dialect\")",
        dir.display()
    );
    if dialect.config().scripts.is_none() {
        return fixtures(dialect.name());
    }
    let mut found: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_dir())
        .map(|p| p.to_str().expect("UTF-8 path").to_string())
        .collect();
    found.sort();
    assert!(!found.is_empty(), "no hook folders in {}", dir.display());
    found
}

/// A file name without its directory and extension.
pub fn stem(path: &str) -> &str {
    Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("file stem")
}

/// Copies the directory `from` into `to`, recursively.
pub fn copy_tree(from: &Path, to: &Path) {
    copy_tree_at(from, to, to);
}

/// Copies like [`copy_tree`], writing `{{root}}` in `.json` files as `root`'s path: agent
/// registries (Claude's `installed_plugins.json`) record absolute paths.
fn copy_tree_at(from: &Path, to: &Path, root: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree_at(&entry.path(), &target, root);
        } else if target.extension().is_some_and(|e| e == "json") {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            let text = text.replace("{{root}}", &root.display().to_string());
            std::fs::write(target, text).unwrap();
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Writes `text` to `root/rel`, creating the directories on the way.
pub fn write(root: &Path, rel: &str, text: &str) -> PathBuf {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// Attacks rows 1080, 1082, 1084: runs `install` (given the hookx path to name) for a copy of
/// hookx under `dir/old`, then moves that copy away as `state` says: `"gone"` (removed),
/// `"empty"` (cut short at nothing), or else removed and installed again from this build.
pub fn install_then_move_hookx(dir: &Path, state: &str, install: impl Fn(&str)) {
    let old = dir.join("old/hookx");
    std::fs::create_dir_all(old.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_hookx"), &old).unwrap();
    install(old.to_str().unwrap());
    match state {
        "gone" => std::fs::remove_file(&old).unwrap(),
        "empty" => std::fs::write(&old, "").unwrap(),
        _ => {
            std::fs::remove_file(&old).unwrap();
            install(env!("CARGO_BIN_EXE_hookx"));
        }
    }
}

/// `hookx ARGS… --project PROJECT --home HOME`, with `HOME` pointing at `home` too and no
/// `HOOKX_HOME`, so that nothing touches the real home. (`home` is not the account's: `hookx
/// install` writes `--home HOME` on the routes it installs, for `hookx run`.)
pub fn hookx_at(project: &Path, home: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    Command::cargo_bin("hookx")
        .unwrap()
        .timeout(Duration::from_secs(120))
        .args(args)
        .arg("--project")
        .arg(project)
        .arg("--home")
        .arg(home)
        .env("HOME", home)
        .env_remove("HOOKX_HOME")
        .assert()
}

/// The arguments of one call for `hookx simulate`: the host, the event, the tool and its
/// input, then `more`.
pub fn call_args<'a>(
    host: &'a str,
    event: &'a str,
    tool: &'a str,
    input: &'a str,
    more: &[&'a str],
) -> Vec<&'a str> {
    let mut args = vec![
        "--host", host, "--event", event, "--tool", tool, "--input", input,
    ];
    args.extend_from_slice(more);
    args
}

/// `hookx trust --yes`, then `hookx install --host HOST`, in `project` for the user of `home`:
/// each must succeed.
pub fn trust_and_install(project: &Path, home: &Path, host: &str) {
    hookx_at(project, home, &["trust", "--yes"]).success();
    hookx_at(project, home, &["install", "--host", host]).success();
}

/// [`hookx_at`] as a user whose account's home (`getpwuid`) is `home`, as for a user installing
/// for their own home: `hookx install` then writes no `--home` on its routes, and a route run
/// this way takes `home` from the account. Where the tests cannot say so (not root, not Linux),
/// as [`hookx_at`].
pub fn hookx_as_account_at(
    project: &Path,
    home: &Path,
    args: &[&str],
) -> assert_cmd::assert::Assert {
    let program = assert_cmd::cargo::cargo_bin("hookx");
    #[cfg(target_os = "linux")]
    let account = as_account_with_home(home, &program);
    #[cfg(not(target_os = "linux"))]
    let account: Option<std::process::Command> = None;
    let Some(account) = account else {
        return hookx_at(project, home, args);
    };
    Command::from_std(account)
        .timeout(Duration::from_secs(120))
        .args(args)
        .arg("--project")
        .arg(project)
        .arg("--home")
        .arg(home)
        .env("HOME", home)
        .env_remove("HOOKX_HOME")
        .assert()
}

/// How soon a process hookx was told to kill (its host killed hookx, or its timeout passed)
/// must be gone: seconds for a kill that takes milliseconds, and well before hookx's own budget
/// (from a host's 60 s limit) would end it anyway, which let a lost kill pass unseen.
pub const KILLED_WITHIN: std::time::Duration = std::time::Duration::from_secs(20);

/// Waits for process `pid` (any process, not only a child) to exit, woken by the kernel
/// through a pidfd, for at most `bound`: an event, not a guess at how long the machine takes.
/// `bound` only limits how long a failing test takes.
#[cfg(target_os = "linux")]
pub fn exits_within(pid: i32, bound: Duration) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let Some(pid) = rustix::process::Pid::from_raw(pid) else {
        return true;
    };
    let pidfd = match rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()) {
        Ok(fd) => fd,
        // No such process: it is gone already.
        Err(_) => return true,
    };
    let start = std::time::Instant::now();
    loop {
        let left = bound.saturating_sub(start.elapsed());
        if left.is_zero() {
            return false;
        }
        let mut fds = [PollFd::new(&pidfd, PollFlags::IN)];
        let timeout = Timespec::try_from(left).ok();
        if poll(&mut fds, timeout.as_ref()).unwrap_or(0) > 0 {
            return true;
        }
    }
}

/// What one run of the real binary gave: its exit code and output, shown cut short on failure.
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl std::fmt::Debug for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cut = |s: &str| s.chars().take(3000).collect::<String>();
        write!(
            f,
            "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.code,
            cut(&self.stdout),
            cut(&self.stderr)
        )
    }
}

/// Runs `cmd` to its end.
pub fn ran(cmd: &mut Command) -> Ran {
    let out = cmd.output().expect("hookx runs");
    Ran {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A std command run with `input` on its stdin, its stdout and stderr piped (as a host runs a
/// hook): what it printed and how it ended.
pub trait OutputWithStdin {
    fn output_with_stdin(&mut self, input: &str) -> std::io::Result<std::process::Output>;
}

impl OutputWithStdin for std::process::Command {
    fn output_with_stdin(&mut self, input: &str) -> std::io::Result<std::process::Output> {
        use std::io::Write as _;
        use std::process::Stdio;
        let mut child = self
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        child.stdin.take().unwrap().write_all(input.as_bytes())?;
        child.wait_with_output()
    }
}

/// The real binary in `dir` with no agent or hookx variable inherited from whoever runs the
/// tests, killed (and the test failed) after two minutes.
pub fn hookx_clean(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("hookx").expect("the hookx binary");
    for var in [
        "CLAUDE_PROJECT_DIR",
        "COPILOT_CLI",
        "BRICKS_PROJECT_DIR",
        "BRICKS_SESSION_ID",
        "BRICKS_HOOK_EVENT",
        "HOOKX_DEPTH",
        "HOOKX_HOME",
        "HOOKX_TEST_PANIC",
    ] {
        cmd.env_remove(var);
    }
    cmd.current_dir(dir).timeout(Duration::from_secs(120));
    cmd
}

/// Says on the terminal, past libtest's output capture, what a long test waits for: libtest's
/// own "has been running for over 60 seconds" names only the test, and reads like a hang.
/// `eprintln!` would be captured; a write to the stream itself is not.
pub fn waiting_for(test: &str, what: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr().lock(), "{test}: waiting for {what}");
}

/// A shell command the story's guard denies (it holds this text).
pub const STORY_DENIED: &str = "echo story-denied";
/// The reason the guard gives for it: on stderr at exit 2, a deny as Claude reads one.
pub const STORY_REASON: &str = "R-STORY-GUARD";

/// The README's migration story (issue 24): a Claude project with a Bash guard, a formatter on
/// Write/Edit, a prompt logger and a Stop hook, each `sh hook.sh LABEL`, converted with
/// `--write` to `targets` (the wrapped copies call this build), then `hookx install --host
/// HOST` and `hookx trust --yes`. `hook.sh` appends `LABEL RUNNER PAYLOAD` to `runs.log` in
/// the project: RUNNER is `hookx` when hookx started it (`hookx run` or a wrapped copy's `hookx
/// exec`), else `agent`; PAYLOAD is its stdin on one line. The guard denies a call whose
/// payload holds [`STORY_DENIED`] with [`STORY_REASON`]. Returns what `install` said on stderr.
pub fn migration_story(project: &Path, home: &Path, targets: &str, host: &str) -> String {
    let run = story_script(project);
    let settings = serde_json::json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": run("guard")}]}],
        "PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": run("fmt")}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": run("log")}]}],
        "Stop": [{"hooks": [{"type": "command", "command": run("stop")}]}],
    }});
    write(project, ".claude/settings.json", &settings.to_string());
    hookx_clean(project)
        .current_dir(project)
        .env("HOME", home)
        .args([
            "convert",
            ".claude/settings.json",
            "--to",
            targets,
            "--write",
        ])
        .args(["--hookx", env!("CARGO_BIN_EXE_hookx")])
        .assert()
        .success();
    let installed = hookx_at(project, home, &["install", "--host", host]).success();
    hookx_at(project, home, &["trust", "--yes"]).success();
    String::from_utf8_lossy(&installed.get_output().stderr).into_owned()
}

/// The story's `hook.sh` in `project` ([`migration_story`]), and the command line that runs it
/// as a rule labelled LABEL.
fn story_script(project: &Path) -> impl Fn(&str) -> String {
    let script = write(
        project,
        "hook.sh",
        &format!(
            "#!/bin/sh\nr=agent; [ -n \"$HOOKX_HOST\" ] && r=hookx\np=$(tr -d '\\n')\n\
             printf '%s %s %s\\n' \"$1\" \"$r\" \"$p\" >> \"$(dirname \"$0\")/runs.log\"\n\
             case \"$1 $p\" in \"guard \"*'{STORY_DENIED}'*) echo {STORY_REASON} >&2; exit 2;; esac\n"
        ),
    );
    move |label: &str| format!("sh {} {label}", script.display())
}

/// Attacks rows 2061, 2101, 2110: a Qwen prompt logger `qlog` (`sh hook.sh qlog`, as the
/// story's) kept outside Qwen's file in `hooks/qwen.json` (`from = "qwen"`), synced by
/// `hookx sync` into Qwen's, Gemini's, Copilot's and Codex's project files (the copies calling
/// this build), the files trusted, hookx installed for each of `hosts` in the project and the
/// user scope, and trusted again. Qwen's own copy carries its rule's record: under every host
/// the logger must run once per prompt.
pub fn synced_qwen_logger(project: &Path, home: &Path, hosts: &[&str]) {
    let run = story_script(project);
    let source = serde_json::json!({"hooks": {"UserPromptSubmit": [{"hooks": [
        {"type": "command", "command": run("qlog")}]}]}});
    write(project, "hooks/qwen.json", &source.to_string());
    let bin = env!("CARGO_BIN_EXE_hookx");
    let targets: String = ["qwen", "gemini", "copilot", "codex"]
        .iter()
        .map(|t| format!("[targets.{t}]\nhookx = {}\n", serde_json::json!(bin)))
        .collect();
    write(
        project,
        ".hookx/sync.toml",
        &format!(
            "version = 1\nsources = [{{ path = \"hooks/qwen.json\", from = \"qwen\" }}]\n{targets}"
        ),
    );
    hookx_at(project, home, &["sync"]).success();
    for host in hosts {
        trusted_and_installed(project, home, host);
    }
}

/// The labels of [`team_loop`]'s rules: the Claude file's, then the Codex file's.
pub const TEAM_LABELS: [&str; 6] = ["cguard", "clog", "cstop", "guard", "xlog", "xstop"];

/// The team loop of attacks row 620: hooks written on both sides, a Claude guard `cguard`
/// (it allows), prompt logger `clog` and Stop hook `cstop` in `.claude/settings.json`, and a
/// Codex guard `guard` (it denies [`STORY_DENIED`] with [`STORY_REASON`]), logger `xlog` and
/// Stop hook `xstop` in `.codex/hooks.json`, each its file's first rule of its event (one
/// pointer in both files); each file converted into the other's with `--write` (the copies
/// call this build), hookx installed for `host` in the project and the user scope, then
/// `hookx trust --yes`. Each rule must run once per event under every agent.
pub fn team_loop(project: &Path, home: &Path, host: &str) {
    team_files(
        project,
        home,
        "codex",
        "claude",
        env!("CARGO_BIN_EXE_hookx"),
    );
    trusted_and_installed(project, home, host);
}

/// The project's files trusted, hookx installed for `host` in the project and the user scope,
/// and trusted again: the team loops' last steps.
fn trusted_and_installed(project: &Path, home: &Path, host: &str) {
    hookx_at(project, home, &["trust", "--yes"]).success();
    for scope in ["project", "user"] {
        hookx_at(
            project,
            home,
            &["install", "--host", host, "--scope", scope],
        )
        .success();
    }
    hookx_at(project, home, &["trust", "--yes"]).success();
}

/// [`team_loop`] as a teammate without hookx finds it: the team's files converted with
/// `--hookx hookx` (as the README says for a file the team shares), the Claude file into the
/// agents `from_claude` and the Codex file into `from_codex`; nothing installed or trusted.
/// With no `hookx` on the agent's `PATH`, each copy's guard answers by the failure table.
pub fn team_without_hookx(project: &Path, home: &Path, from_claude: &str, from_codex: &str) {
    team_files(project, home, from_claude, from_codex, "hookx");
}

/// [`team_loop`]'s two files, each converted with `--write` into the agents named, the copies
/// calling `hookx`.
fn team_files(project: &Path, home: &Path, from_claude: &str, from_codex: &str, hookx: &str) {
    let run = story_script(project);
    let handler = |label: &str| serde_json::json!([{"type": "command", "command": run(label)}]);
    let claude = serde_json::json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": handler("cguard")}],
        "UserPromptSubmit": [{"hooks": handler("clog")}],
        "Stop": [{"hooks": handler("cstop")}],
    }});
    let codex = serde_json::json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": handler("guard")}],
        "UserPromptSubmit": [{"hooks": handler("xlog")}],
        "Stop": [{"hooks": handler("xstop")}],
    }});
    write(project, ".claude/settings.json", &claude.to_string());
    write(project, ".codex/hooks.json", &codex.to_string());
    for (file, to) in [
        (".claude/settings.json", from_claude),
        (".codex/hooks.json", from_codex),
    ] {
        hookx_clean(project)
            .env("HOME", home)
            .args(["convert", file, "--to", to, "--write", "--hookx", hookx])
            .assert()
            .success();
    }
}

/// The labels of [`team_of_four`]'s rules, by file: Claude's, Qwen's (its guard `guard`
/// denies), Droid's, Augment's; each file's guard, prompt logger and Stop hook.
pub const TEAM4_LABELS: [&str; 12] = [
    "cguard", "clog", "cstop", "guard", "qlog", "qstop", "dguard", "dlog", "dstop", "aguard",
    "alog", "astop",
];

/// The team loop of attacks rows 760-779: hooks written for Claude, Qwen, Droid and Auggie,
/// each file's shell guard, prompt logger and Stop hook its first rule of its event (one
/// pointer in all four), the Qwen guard `guard` denying [`STORY_DENIED`] with
/// [`STORY_REASON`]; each file converted into the three others' with `--write` (the copies
/// call `hookx`), the files trusted, hookx installed for `host` in the project and the user
/// scope, and trusted again. Each rule must run once per event under every agent.
pub fn team_of_four(project: &Path, home: &Path, host: &str, hookx: &str) {
    team_of_four_files(project, home, hookx);
    trusted_and_installed(project, home, host);
}

/// [`team_of_four`]'s files, Claude's, Qwen's, Droid's and Augment's.
pub const TEAM4_FILES: [&str; 4] = [
    ".claude/settings.json",
    ".qwen/settings.json",
    ".factory/settings.json",
    ".augment/settings.json",
];

/// The four files of [`team_of_four`] (file, dialect, prompt event, shell tool, labels), each
/// written and converted into the three others with `--write --hookx HOOKX`.
pub fn team_of_four_files(project: &Path, home: &Path, hookx: &str) {
    let dialects = team_of_four_written(project);
    for (file, from) in TEAM4_FILES.iter().zip(dialects) {
        let to: Vec<&str> = dialects.into_iter().filter(|d| *d != from).collect();
        hookx_clean(project)
            .env("HOME", home)
            .args([
                "convert",
                file,
                "--to",
                &to.join(","),
                "--write",
                "--hookx",
                hookx,
            ])
            .assert()
            .success();
    }
}

/// The four files of [`team_of_four`] as their authors wrote them, none converted; their
/// dialects, in [`TEAM4_FILES`]' order.
pub fn team_of_four_written(project: &Path) -> [&'static str; 4] {
    let run = story_script(project);
    let files = [
        ("claude", "UserPromptSubmit", "Bash"),
        ("qwen", "UserPromptSubmit", "run_shell_command"),
        ("droid", "UserPromptSubmit", "Execute"),
        ("augment", "PromptSubmit", "launch-process"),
    ];
    for (i, (file, (_, prompt, shell))) in TEAM4_FILES.iter().zip(files).enumerate() {
        let handler = |label: &str| serde_json::json!([{"type": "command", "command": run(label)}]);
        let [guard, log, stop] = [0, 1, 2].map(|k| TEAM4_LABELS[i * 3 + k]);
        let mut hooks = serde_json::Map::new();
        hooks.insert(
            "PreToolUse".into(),
            serde_json::json!([{"matcher": shell, "hooks": handler(guard)}]),
        );
        hooks.insert(
            prompt.to_string(),
            serde_json::json!([{"hooks": handler(log)}]),
        );
        hooks.insert("Stop".into(), serde_json::json!([{"hooks": handler(stop)}]));
        write(
            project,
            file,
            &serde_json::json!({ "hooks": hooks }).to_string(),
        );
    }
    files.map(|f| f.0)
}

/// [`team_of_four`] as a teammate without hookx finds it: the four files converted into each
/// other with `--hookx hookx` (as the README says for a file the team shares); nothing
/// installed or trusted. Each file's own rules are its first of each event ([`TEAM4_LABELS`]
/// by threes, in [`TEAM4_FILES`]' order); with no `hookx` on the agent's `PATH`, each copy
/// answers by the failure table.
pub fn team_of_four_without_hookx(project: &Path, home: &Path) {
    team_of_four_files(project, home, "hookx");
}

/// The labels of [`team_of_hosts`]' rules, by file: Claude's, Gemini's, Codex's (its guard
/// `guard` denies), Copilot's; each file's guard, prompt logger and Stop hook.
pub const TEAM_HOSTS_LABELS: [&str; 12] = [
    "cguard", "clog", "cstop", "gguard", "glog", "gstop", "guard", "xlog", "xstop", "pguard",
    "plog", "pstop",
];

/// [`team_of_hosts`]' files, Claude's, Gemini's, Codex's and Copilot's.
pub const TEAM_HOSTS_FILES: [&str; 4] = [
    ".claude/settings.json",
    ".gemini/settings.json",
    ".codex/hooks.json",
    ".github/hooks/hooks.json",
];

/// The team loop of attacks rows 880-899: [`team_of_four`] with hooks written for Claude,
/// Gemini, Codex and Copilot CLI ([`team_of_hosts_written`]), each file converted into the three
/// others' with `--write --hookx HOOKX`, trusted, hookx installed for `host` in both scopes,
/// trusted again.
pub fn team_of_hosts(project: &Path, home: &Path, host: &str, hookx: &str) {
    team_of_hosts_files(project, home, hookx);
    trusted_and_installed(project, home, host);
}

/// [`team_of_hosts_written`]'s four files, each converted into the three others with `--write
/// --hookx HOOKX`.
pub fn team_of_hosts_files(project: &Path, home: &Path, hookx: &str) {
    let dialects = team_of_hosts_written(project);
    for (file, from) in TEAM_HOSTS_FILES.iter().zip(dialects) {
        let to: Vec<&str> = dialects.into_iter().filter(|d| *d != from).collect();
        hookx_clean(project)
            .env("HOME", home)
            .args(["convert", file, "--to", &to.join(",")])
            .args(["--write", "--hookx", hookx])
            .assert()
            .success();
    }
}

/// The four files of [`team_of_hosts`] as their authors wrote them, none converted (each
/// file's shell guard, prompt logger and Stop hook its first rule of its event; Copilot's in
/// its own camelCase form); their dialects, in [`TEAM_HOSTS_FILES`]' order.
pub fn team_of_hosts_written(project: &Path) -> [&'static str; 4] {
    let run = story_script(project);
    let files = [
        ("claude", ["PreToolUse", "UserPromptSubmit", "Stop"], "Bash"),
        (
            "gemini",
            ["BeforeTool", "BeforeAgent", "AfterAgent"],
            "run_shell_command",
        ),
        ("codex", ["PreToolUse", "UserPromptSubmit", "Stop"], "Bash"),
        (
            "copilot",
            ["preToolUse", "userPromptSubmitted", "agentStop"],
            "bash",
        ),
    ];
    for (i, (file, (dialect, events, shell))) in TEAM_HOSTS_FILES.iter().zip(files).enumerate() {
        let mut hooks = serde_json::Map::new();
        for (k, event) in events.into_iter().enumerate() {
            let label = TEAM_HOSTS_LABELS[i * 3 + k];
            let matcher = (k == 0).then_some(shell);
            let rule = match dialect {
                "copilot" => {
                    let mut h = serde_json::json!({"type": "command", "bash": run(label)});
                    if let Some(m) = matcher {
                        h["matcher"] = m.into();
                    }
                    h
                }
                _ => {
                    let mut r =
                        serde_json::json!({"hooks": [{"type": "command", "command": run(label)}]});
                    if let Some(m) = matcher {
                        r["matcher"] = m.into();
                    }
                    r
                }
            };
            hooks.insert(event.to_string(), serde_json::json!([rule]));
        }
        let mut doc = serde_json::json!({ "hooks": hooks });
        if dialect == "copilot" {
            doc["version"] = 1.into();
        }
        write(project, file, &doc.to_string());
    }
    files.map(|f| f.0)
}

/// Whether each of [`team_of_four`]'s rules ran once per event the client fired: `shell`
/// shell calls for the guards, `prompts` for the loggers, `stops` for the Stop hooks (each
/// counted by a recorder of the client's own; a client may fire no prompt event, as `droid
/// exec`, never a shell call or a stop). On a host that stops at the first deny (OpenCode,
/// Kilo: `first_deny_stops_the_rest`) the guards run after the Qwen guard, `after`, never
/// start on the calls it denies, `denied`. What went wrong, with the whole log, else nothing.
pub fn team_of_four_once(
    project: &Path,
    counts: [usize; 3],
    stopped: (&[&str], usize),
) -> Vec<String> {
    team_once(project, &TEAM4_LABELS, counts, stopped)
}

/// [`team_of_four_once`] for any team's `labels` (each file's guard, logger and Stop hook).
pub fn team_once(
    project: &Path,
    labels: &[&str],
    [shell, prompts, stops]: [usize; 3],
    (after, denied): (&[&str], usize),
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (i, label) in labels.iter().enumerate() {
        let stopped = if after.contains(label) { denied } else { 0 };
        let fired = [shell, prompts, stops][i % 3] - stopped;
        let runs = story_runs(project, label).len();
        eprintln!("{label}: {runs} runs for {fired} events");
        if runs != fired || (fired == 0 && i % 3 != 1) {
            wrong.push(format!("{label}: {runs} runs for {fired} events"));
        }
    }
    if !wrong.is_empty() {
        let log = std::fs::read_to_string(project.join("runs.log")).unwrap_or_default();
        wrong.push(format!("runs.log:\n{log}"));
    }
    wrong
}

/// The conversions the story runs under a client with a dialect of its own: into the client
/// and two others (the client runs its own copy), and the README's own, into Copilot, Gemini
/// and Codex (no copy for the client: hookx runs the Claude file through its route).
pub fn story_targets(host: &str) -> [String; 2] {
    [
        format!("{host},gemini,codex"),
        "copilot,gemini,codex".to_string(),
    ]
}

/// A team's wrapper story (attacks rows 601, 602, 605, 640, 740, 744), before hookx converts
/// it: the wrapper route `hookx-route.sh` in `project`, which logs `wrapper` to `log` and hands
/// the event to `hookx run --host FROM` for `home` (the way a team routes its rules through
/// hookx by hand), registered on the shell tool in `from`'s project file (`gemini` or
/// `claude`); a project Cursor rule (`cursor-rule`) and one of the user's (`mine`), each
/// logging its name, and `:$HOOKX_HOST` with `tag_host`; for a Gemini wrapper, the project
/// trusted in Gemini.
pub fn a_wrapper_story(project: &Path, home: &Path, log: &Path, from: &str, tag_host: bool) {
    use std::os::unix::fs::PermissionsExt;
    let (event, file, shell) = match from {
        "gemini" => ("BeforeTool", ".gemini/settings.json", "run_shell_command"),
        "claude" => ("PreToolUse", ".claude/settings.json", "Bash"),
        other => panic!("no wrapper story for {other}"),
    };
    let hookx = env!("CARGO_BIN_EXE_hookx");
    let script = project.join("hookx-route.sh");
    let text = format!(
        "#!/bin/sh\necho wrapper >> '{}'\nexec '{hookx}' run --host {from} --event {event} --home '{}'\n",
        log.display(),
        home.display()
    );
    std::fs::write(&script, text).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let team = serde_json::json!({"hooks": {event: [{"matcher": shell,
        "hooks": [{"type": "command", "command": "./hookx-route.sh"}]}]}});
    write(project, file, &serde_json::to_string_pretty(&team).unwrap());
    let tag = if tag_host { ":$HOOKX_HOST" } else { "" };
    let cursor = |name: &str| {
        let line = format!("echo {name}{tag} >> '{}'", log.display());
        serde_json::json!({"version": 1, "hooks": {"beforeShellExecution": [{"command": line}]}})
            .to_string()
    };
    write(project, ".cursor/hooks.json", &cursor("cursor-rule"));
    write(home, ".cursor/hooks.json", &cursor("mine"));
    if from == "gemini" {
        let trusted = serde_json::json!({project.display().to_string(): "TRUST_FOLDER"});
        write(home, ".gemini/trustedFolders.json", &trusted.to_string());
    }
}

/// What [`a_wrapper_story`]'s log holds, sorted, when each rule ran once for one call: with
/// `host`, the Cursor rules tagged with the host whose runner ran them.
pub fn each_wrapper_rule_once(host: Option<&str>) -> Vec<String> {
    let tag = host.map(|h| format!(":{h}")).unwrap_or_default();
    vec![
        format!("cursor-rule{tag}"),
        format!("mine{tag}"),
        "wrapper".to_string(),
    ]
}

/// The lines of a story's log, sorted: who ran, once per line.
pub fn sorted_lines(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.sort();
    lines
}

/// The hookx half of a team's wrapper copy (attacks rows 601, 602, 605, 640, 642): the project
/// and the user's `~/.cursor/hooks.json` trusted, the team's `from` converted into `to`'s file
/// with `--hookx` this binary (`convert --write`), and the project trusted again, the copies
/// with it. (A Codex copy wants Codex's review too before [`user_route_naming_this_hookx`].)
pub fn wrapper_copy_converted(project: &Path, home: &Path, from: &str, to: &str) {
    let hookx = env!("CARGO_BIN_EXE_hookx");
    hookx_at(project, home, &["trust", "--yes"]).success();
    let mine = home.join(".cursor/hooks.json");
    hookx_at(project, home, &["trust", mine.to_str().unwrap()]).success();
    let convert = std::process::Command::new(hookx)
        .args(["convert", from, "--to", to, "--write", "--hookx", hookx])
        .current_dir(project)
        .env("HOME", home)
        .env_remove("HOOKX_HOME")
        .env_remove("CODEX_HOME")
        .output()
        .unwrap();
    assert!(convert.status.success(), "{convert:?}");
    hookx_at(project, home, &["trust", "--yes"]).success();
}

/// hookx's user route for `host`, its commands naming this binary (`install --hookx`).
pub fn user_route_naming_this_hookx(project: &Path, home: &Path, host: &str) {
    let hookx = env!("CARGO_BIN_EXE_hookx");
    let args = [
        "install", "--host", host, "--scope", "user", "--hookx", hookx,
    ];
    hookx_at(project, home, &args).success();
}

/// A personal Claude rule beside the story: `sh hook.sh user` on the story's four events
/// in `HOME/.claude/settings.json`, trusted, and hookx routed in for `host` in the user scope
/// (`hookx install --host HOST --scope user`). The route runs `hookx run` on those events, where
/// the project's copies of the story's rules are all in sight: hookx must run the user's rule
/// once and leave every copy to its runner.
pub fn story_user_route(project: &Path, home: &Path, host: &str) {
    let events = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop"];
    story_personal_rule(project, home, host, ".claude/settings.json", &events);
}

/// [`story_user_route`] with the personal rule in `file` under `HOME`, on `events` (the file's
/// dialect must group handlers as Claude does: `{"hooks": {EVENT: [{"hooks": [HANDLER]}]}}`).
pub fn story_personal_rule(project: &Path, home: &Path, host: &str, file: &str, events: &[&str]) {
    let run = format!("sh {} user", project.join("hook.sh").display());
    let group = serde_json::json!([{"hooks": [{"type": "command", "command": run}]}]);
    let hooks: serde_json::Map<String, serde_json::Value> = events
        .iter()
        .map(|e| (e.to_string(), group.clone()))
        .collect();
    write(
        home,
        file,
        &serde_json::json!({ "hooks": hooks }).to_string(),
    );
    hookx_at(project, home, &["trust", "--yes"]).success();
    hookx_at(
        project,
        home,
        &["install", "--host", host, "--scope", "user"],
    )
    .success();
}

/// The lines of the story's `runs.log` for `label` (`guard`, `fmt`, `log`, `stop`).
pub fn story_runs(project: &Path, label: &str) -> Vec<String> {
    std::fs::read_to_string(project.join("runs.log"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with(&format!("{label} ")))
        .map(str::to_string)
        .collect()
}

/// How many times the story's `label` ran on each event (the `hook_event_name` of the payload
/// it logged).
pub fn story_runs_per_event(
    project: &Path,
    label: &str,
) -> std::collections::BTreeMap<String, usize> {
    let mut out = std::collections::BTreeMap::new();
    for run in story_runs(project, label) {
        let payload = run.splitn(3, ' ').nth(2).unwrap_or_default();
        let payload: serde_json::Value = serde_json::from_str(payload).unwrap_or_default();
        let event = payload["hook_event_name"]
            .as_str()
            .unwrap_or("?")
            .to_string();
        *out.entry(event).or_insert(0) += 1;
    }
    out
}

/// The checks of a story in which the client ran its own copy of each rule (Codex, Gemini):
/// each rule ran once, with Claude's payload, the formatter with Claude's Write payload.
/// (Whether each held, what it says.)
pub fn story_copies_ran_once(project: &Path) -> Vec<(bool, String)> {
    let mut checks: Vec<(bool, String)> = ["guard", "fmt", "log", "stop"]
        .iter()
        .map(|label| {
            let runs = story_runs(project, label);
            (
                runs.len() == 1 && runs[0].contains("\"hook_event_name\":"),
                format!("{label} ran once, with Claude's payload: {runs:#?}"),
            )
        })
        .collect();
    let fmt = story_runs(project, "fmt");
    checks.push((
        fmt.first()
            .is_some_and(|l| l.contains("\"tool_name\":\"Write\"") && l.contains("\"file_path\":")),
        format!("the formatter got Claude's Write payload: {fmt:?}"),
    ));
    checks
}

/// Whether the personal rule ([`story_personal_rule`]) ran `once` (each event, its runs) per
/// event, and what that says.
pub fn story_user_per_event(project: &Path, once: &[(&str, usize)]) -> (bool, String) {
    let personal = story_runs_per_event(project, "user");
    let once: std::collections::BTreeMap<String, usize> =
        once.iter().map(|&(e, n)| (e.to_string(), n)).collect();
    (
        personal == once,
        format!("the personal rule ran once per event: {personal:?}"),
    )
}

/// What the payload of each of the story's rules holds (the payload it was written for:
/// Claude's), by label; `user` is the personal rule of [`story_user_route`], on every event.
fn story_written_for(label: &str) -> &'static [&'static str] {
    match label {
        "guard" => &[
            "\"hook_event_name\":\"PreToolUse\"",
            "\"tool_name\":\"Bash\"",
        ],
        "fmt" => &["\"tool_name\":\"Write\"", "\"file_path\":"],
        "log" => &["\"hook_event_name\":\"UserPromptSubmit\"", "\"prompt\":"],
        "stop" => &["\"hook_event_name\":\"Stop\""],
        "user" => &["\"hook_event_name\":", "\"session_id\":"],
        _ => panic!("the story has no rule {label}"),
    }
}

/// Whether the story's `label` ran exactly once per event where the client fired its event
/// `fired` times (counted by a recorder of the client's own, so never 0), each time with the
/// payload it was written for ([`story_written_for`]): `None`, else what went wrong, with the
/// whole log.
pub fn story_once(project: &Path, label: &str, fired: usize) -> Option<String> {
    let written_for = story_written_for(label);
    let runs = story_runs(project, label);
    let wrong: Vec<&String> = runs
        .iter()
        .filter(|run| written_for.iter().any(|want| !run.contains(want)))
        .collect();
    eprintln!("{label}: {} runs for {fired} events", runs.len());
    if fired > 0 && runs.len() == fired && wrong.is_empty() {
        return None;
    }
    let log = std::fs::read_to_string(project.join("runs.log")).unwrap_or_default();
    Some(format!(
        "{label}: {} runs for {fired} events (expected one each, never none), {} without {written_for:?}:\n{log}",
        runs.len(),
        wrong.len()
    ))
}

/// Whether the story's prompt logger stayed still where UserPromptSubmit never fires offline
/// (in `runs`: `droid exec`, `cline --json`) and the client's recorder saw it fire `prompts`
/// times: `None`, else what went wrong.
pub fn story_never_prompted(project: &Path, prompts: usize, runs: &str) -> Option<String> {
    let logged = story_runs(project, "log").len();
    ((prompts, logged) != (0, 0)).then(|| {
        format!(
            "UserPromptSubmit fired {prompts} times (never before in {runs}), the logger ran {logged} times"
        )
    })
}

/// `program`, run as if this user's account (`getpwuid`) had `home` as its home directory: in
/// a mount namespace of its own where `/etc/passwd` says so (`hookx run` takes its home from
/// the account, not from `HOME`). `None` where the tests cannot make a mount namespace (not
/// root): the tests that need it fail, saying so.
#[cfg(target_os = "linux")]
pub fn as_account_with_home(home: &Path, program: &Path) -> Option<std::process::Command> {
    as_account(Some(home), &home.with_extension("passwd"), program)
}

/// `program`, run as if the account database had no entry for this user (the passwd file
/// written at `file`). `None` as for [`as_account_with_home`].
#[cfg(target_os = "linux")]
pub fn as_no_account(file: &Path, program: &Path) -> Option<std::process::Command> {
    as_account(None, file, program)
}

#[cfg(target_os = "linux")]
fn as_account(home: Option<&Path>, file: &Path, program: &Path) -> Option<std::process::Command> {
    if !rustix::process::geteuid().is_root() {
        return None;
    }
    let uid = rustix::process::getuid().as_raw().to_string();
    let passwd = std::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let mut lines: Vec<String> = Vec::new();
    let mut found = false;
    for line in passwd.lines() {
        let mut fields: Vec<&str> = line.split(':').collect();
        if fields.len() >= 7 && fields[2] == uid {
            found = true;
            match home {
                Some(home) => fields[5] = home.to_str().expect("UTF-8 home"),
                None => continue,
            }
        }
        lines.push(fields.join(":"));
    }
    if let (false, Some(home)) = (found, home) {
        lines.push(format!("me:x:{uid}:{uid}::{}:/bin/sh", home.display()));
    }
    let text = lines.join("\n") + "\n";
    // Written once: a hookx of an earlier call may still be reading it through its mount.
    if std::fs::read_to_string(file).ok().as_deref() != Some(text.as_str()) {
        let part = file.with_extension("passwd-part");
        std::fs::write(&part, &text).unwrap();
        std::fs::rename(&part, file).unwrap();
    }
    // The account database is that file alone: NSS modules beside it (systemd's) would still
    // give an entry for root.
    let nsswitch = file.with_extension("nsswitch");
    if !nsswitch.exists() {
        let part = file.with_extension("nsswitch-part");
        std::fs::write(&part, "passwd: files\ngroup: files\n").unwrap();
        std::fs::rename(&part, &nsswitch).unwrap();
    }
    let mut cmd = std::process::Command::new("unshare");
    cmd.args(["--mount", "--propagation", "private", "--", "sh", "-c"])
        .arg(
            "mount --bind \"$0\" /etc/passwd && mount --bind \"$1\" /etc/nsswitch.conf && \
             shift && exec \"$@\"",
        )
        .arg(file)
        .arg(&nsswitch)
        .arg(program);
    Some(cmd)
}

/// `args` with `--home HOME` after the command where it is `run`: it takes its home from the
/// route's `--home` (or the account), never from `HOME`, so a test that puts its home in
/// `HOME` for the other commands gives it to `run` on its command line, as `hookx install`
/// writes it on a route. (`exec` reads no home.)
pub fn with_route_home(args: &[&str], home: &Path) -> Vec<std::ffi::OsString> {
    let mut out: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
    if args.first() == Some(&"run") {
        out.insert(1, "--home".into());
        out.insert(2, home.into());
    }
    out
}

/// The route inside a line `install` wrote: a user route on an event that guards a tool call
/// carries a guard for a hookx that is gone (`[ -x P ] && [ -s P ] && exec ROUTE; [ -e STORE ]
/// || exit 0; DENY`, attacks row 1080); any other line is its route.
pub fn unguarded_route(line: &str) -> &str {
    line.strip_prefix("[ -x ")
        .and_then(|rest| rest.split_once(" ] && exec "))
        .and_then(|(_, rest)| rest.split_once("; [ -e "))
        .map_or(line, |(route, _)| route)
}

/// The call [`claude_loop`]'s guard denies (it holds `rm -rf`; if it ran, it only echoes).
pub const LOOP_DENIED: &str = "echo rm -rf loop-canary";
/// A call the guard lets through.
pub const LOOP_SAFE: &str = "echo loop-safe";
/// The guard's reason, on stderr at exit 2 (a deny as Claude reads one).
pub const LOOP_REASON: &str = "R-LOOP-RMRF";
/// The Stop hook's reason for keeping the agent going once.
pub const LOOP_STOP: &str = "R-LOOP-STOP";
/// The context the prompt hook prints (plain stdout: context, as Claude reads it).
pub const LOOP_CONTEXT: &str = "CTX-LOOP";

/// The team's Claude hooks of attacks rows 1420-1439, written as a Claude user writes them:
/// each reads Claude's payload with `jq` and appends one line to `$CLAUDE_PROJECT_DIR/loop.log`.
/// A Bash guard (`guard COMMAND`: exit 2 with [`LOOP_REASON`] on `rm -rf`), a logger after
/// every tool (`post TOOL ARG`), a Stop hook that keeps the agent going once and lets the next
/// stop pass by `stop_hook_active` (`stop ACTIVE`), and a prompt hook whose plain stdout is
/// context (`prompt FIRST-WORD`).
pub fn claude_loop_settings() -> serde_json::Value {
    let log = ">> \"$CLAUDE_PROJECT_DIR/loop.log\"";
    let guard = format!(
        "c=$(jq -r '.tool_input.command // empty'); echo \"guard $c\" {log}; \
         case \"$c\" in *'rm -rf'*) echo '{LOOP_REASON}: no rm -rf here' >&2; exit 2;; esac; exit 0"
    );
    let post = format!(
        "jq -r '\"post \\(.tool_name) \\(.tool_input.command // .tool_input.file_path // \"-\")\"' {log}"
    );
    let stop = format!(
        "a=$(jq -r .stop_hook_active); echo \"stop $a\" {log}; [ \"$a\" = true ] && exit 0; \
         echo '{LOOP_STOP}: run the tests first' >&2; exit 2"
    );
    let prompt = format!(
        "jq -r '\"prompt \\(.prompt | split(\" \") | .[0])\"' {log}; \
         echo '{LOOP_CONTEXT}: this project uses pnpm'"
    );
    let handler = |c: &str| serde_json::json!([{"type": "command", "command": c}]);
    serde_json::json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": handler(&guard)}],
        "PostToolUse": [{"matcher": "*", "hooks": handler(&post)}],
        "Stop": [{"hooks": handler(&stop)}],
        "UserPromptSubmit": [{"hooks": handler(&prompt)}],
    }})
}

/// The files a team commits after [`claude_loop`] (what a teammate's clone holds).
pub const LOOP_FILES: [&str; 4] = [".claude", ".gemini", ".codex", ".github"];

/// The folder `dir` holding `hookx`, a link to this build: the `PATH` entry of a developer
/// who installed hookx there. Returns the `PATH` with it first.
pub fn hookx_on_path(dir: &Path) -> String {
    std::fs::create_dir_all(dir).unwrap();
    let _ = std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_hookx"), dir.join("hookx"));
    format!("{}:/usr/local/bin:/usr/bin:/bin", dir.display())
}

/// Attacks rows 1420-1439, the team's loop: [`claude_loop_settings`] as the project's
/// `.claude/settings.json`, converted with `--write` to Gemini, Codex and Copilot, the copies
/// calling `hookx` by name (the README's way for files a team shares), hookx installed for
/// `host` in the project (also `--hookx hookx`) and in the user's scope, then `hookx trust
/// --yes`. `path` is the `PATH` holding `hookx` ([`hookx_on_path`]). Returns what the
/// installs said.
pub fn claude_loop(project: &Path, home: &Path, host: &str, path: &str) -> String {
    write(
        project,
        ".claude/settings.json",
        &serde_json::to_string_pretty(&claude_loop_settings()).unwrap(),
    );
    hookx_clean(project)
        .env("HOME", home)
        .env("PATH", path)
        .args([
            "convert",
            ".claude/settings.json",
            "--to",
            "gemini,codex,copilot",
        ])
        .args(["--write", "--hookx", "hookx"])
        .assert()
        .success();
    let mut said = String::new();
    for scope in ["project", "user"] {
        let out = hookx_at(
            project,
            home,
            &[
                "install", "--host", host, "--scope", scope, "--hookx", "hookx",
            ],
        )
        .success();
        said.push_str(&String::from_utf8_lossy(&out.get_output().stderr));
    }
    hookx_at(project, home, &["trust", "--yes"]).success();
    said
}

/// A teammate's clone of [`claude_loop`]'s project: its committed files ([`LOOP_FILES`])
/// copied from `from` into `to`. A route line names the installer's home (`--home`) only
/// because a test's home is not the account's; for the teammate it names theirs, `home`, as a
/// line without `--home` would (each reads their own account's home).
pub fn loop_clone(from: (&Path, &Path), to: (&Path, &Path)) {
    for f in LOOP_FILES {
        if from.0.join(f).exists() {
            copy_tree(&from.0.join(f), &to.0.join(f));
        }
    }
    let (theirs, ours) = (
        format!("--home {}", from.1.display()),
        format!("--home {}", to.1.display()),
    );
    for f in [".codex/hooks.json", ".github/hooks/hookx.json"] {
        if let Ok(text) = std::fs::read_to_string(to.0.join(f)) {
            std::fs::write(to.0.join(f), text.replace(&theirs, &ours)).unwrap();
        }
    }
}

/// The lines of [`claude_loop`]'s `loop.log` that start with `label` and a space.
pub fn loop_runs(project: &Path, label: &str) -> Vec<String> {
    std::fs::read_to_string(project.join("loop.log"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with(&format!("{label} ")))
        .map(str::to_string)
        .collect()
}

/// The prompt hook's runs where the host fires its prompt event for the user's prompt only:
/// once.
pub const LOOP_PROMPTED_ONCE: &[&str] = &["prompt SCENARIO:teamloop"];
/// The prompt hook's runs where the host fires its prompt event again when a Stop hook keeps
/// the agent going, with the hook's reason for the prompt (Gemini CLI 0.61.0's `BeforeAgent`,
/// Copilot CLI 1.0.102's `userPromptSubmitted`): a Claude prompt hook, which its own agent
/// never runs there, runs on it too (attacks row 1423, found and not fixed).
pub const LOOP_PROMPTED_AGAIN: &[&str] = &["prompt SCENARIO:teamloop", "prompt R-LOOP-STOP:"];

/// The checks of [`claude_loop`]'s story where every rule ran: the guard once per shell call
/// with the command (Claude's `tool_input.command`), the logger once per tool that ran with
/// Claude's tool name (`posts`, in order), the Stop hook twice (`false`, then `true`: it kept
/// the agent going once), the prompt hook with the prompt (`prompts`: its runs).
pub fn loop_ran_once(project: &Path, posts: &[&str], prompts: &[&str]) -> Vec<(bool, String)> {
    let guard = loop_runs(project, "guard");
    let post = loop_runs(project, "post");
    let stop = loop_runs(project, "stop");
    let prompt = loop_runs(project, "prompt");
    vec![
        (
            guard == [format!("guard {LOOP_SAFE}"), format!("guard {LOOP_DENIED}")],
            format!("the guard once per shell call, with the command: {guard:?}"),
        ),
        (
            post.len() == posts.len() && post.iter().zip(posts).all(|(l, p)| l.starts_with(p)),
            format!("the logger once per tool run, with Claude's names {posts:?}: {post:?}"),
        ),
        (
            stop == ["stop false", "stop true"],
            format!("the Stop hook blocked once, then let the stop pass: {stop:?}"),
        ),
        (
            prompt == prompts,
            format!("the prompt hook {prompts:?}, with the prompt: {prompt:?}"),
        ),
    ]
}

/// What a real client did with a guard whose `timeout` is past a timer's reach (attacks rows
/// 1680-1684): `tests/fixtures/timers/CLIENT-VERSION.json`, written from the live suites'
/// `a_guards_timeout_past_the_timers_reach` and read by them and by `validate`'s test.
pub struct TimerForms {
    pub client: String,
    /// The client's own hook file, below the project.
    pub file: String,
    /// Its text, `COMMAND` (a JSON string) and `TIMEOUT` (JSON number text) to fill in.
    pub template: String,
    /// Each timeout as written (JSON number text) and whether the guard's deny held.
    pub forms: Vec<(String, bool)>,
}

impl TimerForms {
    /// The client's file holding one guard running `command` with `timeout` as written.
    pub fn settings(&self, command: &str, timeout: &str) -> String {
        self.template
            .replace(
                "COMMAND",
                &serde_json::Value::String(command.into()).to_string(),
            )
            .replace("TIMEOUT", timeout)
    }
}

/// Every recorded client ([`TimerForms`]), by file stem.
pub fn all_timer_forms() -> Vec<TimerForms> {
    let dir = fixtures_dir().join("timers");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".json").map(str::to_string)
        })
        .collect();
    names.sort();
    names.iter().map(|n| timer_forms(n)).collect()
}

/// The record of `name` (`gemini-0.61.0`).
pub fn timer_forms(name: &str) -> TimerForms {
    let path = fixtures_dir().join("timers").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let s = |k: &str| v[k].as_str().unwrap().to_string();
    TimerForms {
        client: s("client"),
        file: s("file"),
        template: s("template"),
        forms: v["forms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let t = f["timeout"].as_str().unwrap().to_string();
                (t, f["deny_held"].as_bool().unwrap())
            })
            .collect(),
    }
}

/// Attacks row 1678: a git checkout at `root/checkout` whose team file is a Claude Bash guard
/// (exit 2 with `marker` on a call of [`STORY_DENIED`]), the hookx commands `steps` run there in
/// order (install, trust), committed; `project` is removed and made a worktree of it on branch
/// `wt`. Returns the checkout.
pub fn worktree_of_a_guarded_checkout(
    root: &Path,
    project: &Path,
    home: &Path,
    marker: &str,
    steps: &[&[&str]],
) -> PathBuf {
    let checkout = root.join("checkout");
    std::fs::create_dir_all(&checkout).unwrap();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .current_dir(&checkout)
            .env("HOME", home)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(&["init", "-q"]);
    let guard = format!(
        "input=$(cat); case \"$input\" in *'{STORY_DENIED}'*) echo {marker} >&2; exit 2;; esac"
    );
    write(
        &checkout,
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": guard}]}]}})
        .to_string(),
    );
    for step in steps {
        hookx_at(&checkout, home, step).success();
    }
    git(&["add", "-A"]);
    git(&["commit", "-qm", "team hooks"]);
    std::fs::remove_dir_all(project).unwrap();
    git(&[
        "worktree",
        "add",
        "-q",
        project.to_str().unwrap(),
        "-b",
        "wt",
    ]);
    checkout
}
