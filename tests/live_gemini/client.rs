//! One sandboxed Gemini CLI run: `env -i`, a fresh HOME and git project, the fake model, a
//! bounded lifetime (the process group is killed if it overruns), and the recording hook's
//! records.

use serde_json::{Value, json};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

#[path = "../live_common/dumps.rs"]
mod dumps;
#[path = "../live_common/sandbox.rs"]
mod sandbox;
#[path = "../live_common/sealed.rs"]
mod sealed;
#[path = "../live_common/spawn.rs"]
mod spawn;
pub use dumps::Dump;

pub const VERSION: &str = "0.61.0";
/// A run that has not finished by then is killed with its process group (a hang, not a pace).
const LIMIT: Duration = Duration::from_secs(180);

pub fn clients_root() -> PathBuf {
    std::env::var_os("HOOKX_CLIENTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var("HOME").expect("HOME")).join(".cache/hookx-conformance")
        })
}

/// The pinned client's entry script (run by `node` from PATH), or `None` (after a skip line)
/// when it is not installed; with `HOOKX_LIVE=require` a missing client fails the test. The
/// calling test's thread is sealed off the network first (`live_common/sealed.rs`).
pub fn binary() -> Option<PathBuf> {
    let bin = clients_root()
        .join(format!("gemini-{VERSION}"))
        .join("node_modules/@google/gemini-cli/bundle/gemini.js");
    if bin.is_file() {
        sealed::enter(&format!("Gemini CLI {VERSION}"))?;
        return Some(bin);
    }
    if std::env::var("HOOKX_LIVE").as_deref() == Ok("require") {
        panic!(
            "HOOKX_LIVE=require but {} is missing (conformance/install-clients.sh)",
            bin.display()
        );
    }
    eprintln!(
        "skip: Gemini CLI {VERSION} not installed at {} (conformance/install-clients.sh)",
        bin.display()
    );
    None
}

/// The variables a run may set for the client itself (not hook-relevant; hooks inherit them).
/// `GEMINI_CLI_NO_RELAUNCH` is what the CLI sets for its own relaunched child: setting it saves
/// one start of node and changes nothing else.
pub const GIVEN_ENV: &[&str] = &[
    "GEMINI_API_KEY",
    "GOOGLE_GEMINI_BASE_URL",
    "GEMINI_CLI_NO_RELAUNCH",
    "GEMINI_CLI_TRUST_WORKSPACE",
];

/// A run's sandbox: `root/home`, `root/project` (a git repository), `root/dump` (what the
/// recording hook saw), `root/answers` (what it answers).
pub struct Sandbox {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    pub project: PathBuf,
}

pub struct Outcome {
    pub status: Option<i32>,
    /// `-o stream-json` events, one per line.
    pub events: Vec<Value>,
    pub stdout: String,
    pub stderr: String,
}

impl Outcome {
    /// The `tool_result` event of the call whose parameters contain `text`.
    pub fn tool_result(&self, text: &str) -> Option<&Value> {
        let id = self
            .events
            .iter()
            .find(|e| e["type"] == "tool_use" && e["parameters"].to_string().contains(text))?
            .get("tool_id")?;
        self.events
            .iter()
            .find(|e| e["type"] == "tool_result" && &e["tool_id"] == id)
    }

    /// The assistant's text, all messages joined.
    pub fn said(&self) -> String {
        self.events
            .iter()
            .filter(|e| e["type"] == "message" && e["role"] == "assistant")
            .filter_map(|e| e["content"].as_str())
            .collect()
    }
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox::with_project("project")
    }

    /// A sandbox whose project folder is `root/NAME` (a name with a space in it).
    pub fn with_project(name: &str) -> Sandbox {
        let dir = tempfile::Builder::new()
            .prefix("hookx-live-gemini")
            .tempdir()
            .unwrap();
        // Canonical: the client reports real paths, and normalising must find them.
        let root = dir.path().canonicalize().unwrap();
        let (home, project) = (root.join("home"), root.join(name));
        for d in [&home, &project, &root.join("dump"), &root.join("answers")] {
            std::fs::create_dir_all(d).unwrap();
        }
        let git = Command::new("git")
            .args(["init", "-q"])
            .current_dir(&project)
            .status()
            .expect("git");
        assert!(git.success());
        std::fs::write(root.join("dumper.sh"), include_str!("dumper.sh")).unwrap();
        std::fs::write(root.join("mcp_server.js"), include_str!("mcp_server.js")).unwrap();
        Sandbox {
            _dir: dir,
            root,
            home,
            project,
        }
    }

    /// The shell command of a recording hook labelled `label`.
    pub fn dumper(&self, label: &str) -> String {
        format!(
            "sh {} {} {label}",
            self.root.join("dumper.sh").display(),
            self.root.display()
        )
    }

    /// Makes the hook labelled `label` answer `stdout` (and exit with `exit`, stderr `stderr`)
    /// when its stdin contains `when` (the first matching answer, by `name` order, wins).
    pub fn answer(
        &self,
        label: &str,
        name: &str,
        when: &str,
        stdout: &str,
        stderr: &str,
        exit: i32,
    ) {
        sandbox::answer(&self.root, label, name, (when, stdout, stderr, exit));
    }

    /// As [`Sandbox::answer`], after sleeping `seconds` first.
    pub fn answer_late(&self, label: &str, name: &str, when: &str, stdout: &str, seconds: u32) {
        let dir = sandbox::answer(&self.root, label, name, (when, stdout, "", 0));
        std::fs::write(dir.join("sleep"), seconds.to_string()).unwrap();
    }

    pub fn write(&self, rel_to_root: &str, text: &str) -> PathBuf {
        sandbox::write(&self.root, rel_to_root, text)
    }

    /// `~/.gemini/settings.json`: API-key auth against the fake model, no telemetry, usage
    /// statistics or update checks, and `hooks`. `tools.useRipgrep: false`: Gemini's
    /// grep_search takes ripgrep when the machine has `rg` (its payloads then carry
    /// `tool_input.context` and another result), so the suite pins the built-in search the
    /// recordings were made with, whatever the machine has installed.
    pub fn user_settings(&self, hooks: Value) {
        self.user_settings_with(hooks, json!({}));
    }

    /// As [`Sandbox::user_settings`], plus the top-level keys of `extra`.
    pub fn user_settings_with(&self, hooks: Value, extra: Value) {
        let mut settings = json!({
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": false},
            "telemetry": {"enabled": false},
            "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
            "tools": {"useRipgrep": false},
            "hooks": hooks,
        });
        for (k, v) in extra.as_object().into_iter().flatten() {
            settings[k] = v.clone();
        }
        self.write("home/.gemini/settings.json", &pretty(&settings));
    }

    /// `mcpServers` settings for the stdio MCP server `mcp_server.js` (tool `echo`) as `name`.
    pub fn mcp_server(&self, name: &str) -> Value {
        let script = self.root.join("mcp_server.js").display().to_string();
        json!({"mcpServers": {name: {"command": "node", "args": [script], "trust": true}}})
    }

    /// `PROJECT/.gemini/settings.json` with `hooks`.
    pub fn project_settings(&self, hooks: Value) {
        self.write(
            "project/.gemini/settings.json",
            &pretty(&json!({"hooks": hooks})),
        );
    }

    /// Trusts the project folder the way the CLI's trust dialog does: its real path mapped to
    /// `TRUST_FOLDER` in `~/.gemini/trustedFolders.json`.
    pub fn trust_folder(&self) {
        let entry = json!({self.project.display().to_string(): "TRUST_FOLDER"});
        self.write("home/.gemini/trustedFolders.json", &pretty(&entry));
    }

    /// Runs `gemini -p PROMPT -o stream-json ARGS…` in the project against the fake model.
    pub fn run(
        &self,
        bin: &Path,
        port: u16,
        prompt: &str,
        args: &[&str],
        extra: &[(&str, &str)],
    ) -> Outcome {
        let mut cmd = Command::new("node");
        cmd.env_clear()
            .env("HOME", &self.home)
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("TMPDIR", std::env::temp_dir())
            .env("NO_COLOR", "1")
            .env("GEMINI_API_KEY", "dummy")
            .env("GOOGLE_GEMINI_BASE_URL", format!("http://127.0.0.1:{port}"))
            .env("GEMINI_CLI_NO_RELAUNCH", "true");
        for (k, v) in extra {
            cmd.env(k, v);
        }
        cmd.arg(bin)
            .args(["-p", prompt, "-o", "stream-json"])
            .args(args)
            .current_dir(&self.project)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let child = cmd
            .spawn()
            .expect("spawn node (Gemini CLI needs node >= 20 on PATH)");
        let output = match spawn::wait_bounded(child, LIMIT) {
            Some(out) => out.expect("gemini output"),
            None => panic!("gemini overran {LIMIT:?} in {}", self.root.display()),
        };
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        Outcome {
            status: output.status.code(),
            events: stdout
                .lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect(),
            stdout,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Runs `gemini ARGS…` (a subcommand that asks no model, such as `mcp add`) in the project,
    /// with the sandbox's home: its output.
    pub fn command(&self, bin: &Path, args: &[&str]) -> std::process::Output {
        self.node(&[], bin, args)
    }

    /// [`Sandbox::command`] with `preload` run first in Gemini's node (`node --require`): what
    /// another program does at a moment of Gemini's own.
    #[allow(dead_code)]
    pub fn command_preloaded(
        &self,
        preload: &Path,
        bin: &Path,
        args: &[&str],
    ) -> std::process::Output {
        self.node(
            &[std::ffi::OsStr::new("--require"), preload.as_os_str()],
            bin,
            args,
        )
    }

    fn node(
        &self,
        options: &[&std::ffi::OsStr],
        bin: &Path,
        args: &[&str],
    ) -> std::process::Output {
        let child = Command::new("node")
            .env_clear()
            .env("HOME", &self.home)
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("TMPDIR", std::env::temp_dir())
            .env("NO_COLOR", "1")
            .env("GEMINI_CLI_NO_RELAUNCH", "true")
            .args(options)
            .arg(bin)
            .args(args)
            .current_dir(&self.project)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .expect("spawn node (Gemini CLI needs node >= 20 on PATH)");
        match spawn::wait_bounded(child, LIMIT) {
            Some(out) => out.expect("gemini output"),
            None => panic!(
                "gemini {args:?} overran {LIMIT:?} in {}",
                self.root.display()
            ),
        }
    }

    /// What the recording hooks saw, in the order they ran.
    pub fn dumps(&self) -> Vec<Dump> {
        dumps::read(&self.root.join("dump"))
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap()
}
