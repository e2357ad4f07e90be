//! One sandboxed Copilot CLI run: `env -i`, a fresh HOME and git project, the shared unpack
//! cache, the fake model, a bounded lifetime (the process group is killed if it overruns).

#[path = "../live_common/spawn.rs"]
mod spawn;
use serde_json::Value;
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
pub use dumps::Dump;

pub const VERSION: &str = "1.0.102";
/// A run that has not finished by then is killed with its process group (a hang, not a pace).
const LIMIT: Duration = Duration::from_secs(240);

pub fn clients_root() -> PathBuf {
    std::env::var_os("HOOKX_CLIENTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var("HOME").expect("HOME")).join(".cache/hookx-conformance")
        })
}

/// The pinned client binary, or `None` (after a skip line) when it is not installed; with
/// `HOOKX_LIVE=require` a missing client fails the test. The calling test's thread is sealed
/// off the network first (`live_common/sealed.rs`).
pub fn binary() -> Option<PathBuf> {
    let bin = clients_root()
        .join(format!("copilot-{VERSION}"))
        .join("node_modules/@github/copilot-linux-x64/copilot");
    if bin.is_file() {
        sealed::enter(&format!("Copilot CLI {VERSION}"))?;
        return Some(bin);
    }
    if std::env::var("HOOKX_LIVE").as_deref() == Ok("require") {
        panic!(
            "HOOKX_LIVE=require but {} is missing (conformance/install-clients.sh)",
            bin.display()
        );
    }
    eprintln!(
        "skip: Copilot CLI {VERSION} not installed at {} (conformance/install-clients.sh)",
        bin.display()
    );
    None
}

/// A run's sandbox: `root/home`, `root/project` (a git repository), `root/dump` (what the
/// recording hook saw), `root/answers` (what it answers), `root/logs` (the debug log).
pub struct Sandbox {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    pub project: PathBuf,
}

/// The variables every run sets for the client itself (not hook-relevant).
pub const GIVEN_ENV: &[&str] = &[
    "COPILOT_CACHE_HOME",
    "COPILOT_OFFLINE",
    "COPILOT_AUTO_UPDATE",
    "COPILOT_PROVIDER_BASE_URL",
    "COPILOT_PROVIDER_API_KEY",
    "COPILOT_MODEL",
    "COPILOT_PROVIDER_MAX_PROMPT_TOKENS",
];

pub struct Outcome {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// The debug log (`process-*.log`), concatenated.
    pub log: String,
    /// `events.jsonl` of every session.
    pub events: Vec<Value>,
}

/// An option of [`Sandbox::run`] that is not Copilot's: the run goes without
/// `--allow-all-tools` (its permission modes, attacks rows 1494-1497).
pub const WITHOUT_ALLOW_ALL: &str = "hookx:without-allow-all-tools";

impl Sandbox {
    pub fn new() -> Sandbox {
        let dir = tempfile::Builder::new()
            .prefix("hookx-live-copilot")
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
        std::fs::write(root.join("dump.sh"), DUMPER).unwrap();
        Sandbox {
            _dir: dir,
            root,
            home,
            project,
        }
    }

    /// The shell command of a recording hook labelled `label`.
    pub fn dumper(&self, label: &str) -> String {
        format!("sh {} {label}", self.root.join("dump.sh").display())
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

    /// Runs `copilot -p PROMPT` in the project against the fake model on `port`, with more of
    /// Copilot's own options (`--config-dir DIR`) after it.
    pub fn run(
        &self,
        bin: &Path,
        port: u16,
        prompt: &str,
        extra: &[(&str, &str)],
        options: &[&str],
    ) -> Outcome {
        let logs = self.root.join("logs");
        let cache = clients_root().join("copilot-cache");
        let mut cmd = Command::new(bin);
        cmd.env_clear()
            .env("HOME", &self.home)
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("TMPDIR", std::env::temp_dir())
            .env("NO_COLOR", "1")
            .env("COPILOT_CACHE_HOME", &cache)
            .env("COPILOT_OFFLINE", "true")
            .env("COPILOT_AUTO_UPDATE", "false")
            .env(
                "COPILOT_PROVIDER_BASE_URL",
                format!("http://127.0.0.1:{port}/v1"),
            )
            .env("COPILOT_PROVIDER_API_KEY", "dummy")
            .env("COPILOT_MODEL", "gpt-4.1");
        for (k, v) in extra {
            cmd.env(k, v);
        }
        // Without `--allow-all-tools` when asked to ([`WITHOUT_ALLOW_ALL`]).
        let allow_all = !options.contains(&WITHOUT_ALLOW_ALL);
        let options = options.iter().filter(|o| **o != WITHOUT_ALLOW_ALL);
        cmd.args(["-p", prompt])
            .args(allow_all.then_some("--allow-all-tools"))
            .args(["--log-level", "debug", "--log-dir"])
            .arg(&logs)
            .args(options)
            .current_dir(&self.project)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let child = spawn::spawn(&mut cmd).expect("spawn copilot");
        let pid = child.id();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(child.wait_with_output());
        });
        let output = match rx.recv_timeout(LIMIT) {
            Ok(out) => out.expect("copilot output"),
            Err(_) => {
                if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
                    let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
                }
                panic!("copilot overran {LIMIT:?} in {}", self.root.display());
            }
        };
        let mut log = String::new();
        for entry in std::fs::read_dir(&logs).into_iter().flatten().flatten() {
            log += &std::fs::read_to_string(entry.path()).unwrap_or_default();
        }
        let mut events = Vec::new();
        let state = self.home.join(".copilot/session-state");
        for session in std::fs::read_dir(&state).into_iter().flatten().flatten() {
            let text =
                std::fs::read_to_string(session.path().join("events.jsonl")).unwrap_or_default();
            events.extend(text.lines().filter_map(|l| serde_json::from_str(l).ok()));
        }
        Outcome {
            status: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            log,
            events,
        }
    }

    /// What the recording hooks saw, in the order they ran.
    pub fn dumps(&self) -> Vec<Dump> {
        dumps::read(&self.root.join("dump"))
    }
}

/// The recording hook: saves stdin, env and cwd under an order number and a label, then
/// answers from `answers/LABEL/*/` (the first whose `match` text is in stdin). POSIX sh.
const DUMPER: &str = r#"#!/bin/sh
root=$(dirname "$0")
label=$1
d=$root/dump
while ! mkdir "$d/.lock" 2>/dev/null; do :; done
n=$(cat "$d/.n" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$d/.n"
rmdir "$d/.lock"
cat >"$d/$n.$label.stdin"
env >"$d/$n.$label.env"
pwd >"$d/$n.$label.cwd"
for a in "$root/answers/$label"/*/; do
  [ -f "$a/match" ] || continue
  if grep -qF -- "$(cat "$a/match")" "$d/$n.$label.stdin"; then
    cat "$a/stdout"
    cat "$a/stderr" >&2
    exit "$(cat "$a/exit")"
  fi
done
exit 0
"#;
