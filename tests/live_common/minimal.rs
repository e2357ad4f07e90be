//! The pieces of a minimal live suite (Factory Droid, Cline): a sandbox with a fresh HOME and
//! git project, the Gemini suite's recording hook, a client run bounded by a watchdog that kills
//! its process group, and what reached the fake OpenAI model. Included with `#[path]`.

use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

#[path = "dumps.rs"]
pub mod dumps;
#[path = "sealed.rs"]
mod sealed;
#[path = "spawn.rs"]
mod spawn;
pub use dumps::Dump;

/// A run that has not finished by then is killed with its process group (a hang, not a pace).
const LIMIT: Duration = Duration::from_secs(180);

/// The pinned client at `rel` below the conformance cache, or `None` (after a skip line) when
/// it is not installed; with `HOOKX_LIVE=require` a missing client fails the test. The calling
/// test's thread is sealed off the network first (`sealed.rs`).
pub fn client(rel: &str, name: &str) -> Option<PathBuf> {
    let root = std::env::var_os("HOOKX_CLIENTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var("HOME").expect("HOME")).join(".cache/hookx-conformance")
        });
    let bin = root.join(rel);
    if bin.is_file() {
        sealed::enter(name)?;
        return Some(bin);
    }
    if std::env::var("HOOKX_LIVE").as_deref() == Ok("require") {
        panic!("HOOKX_LIVE=require but {} is missing", bin.display());
    }
    eprintln!(
        "skip: {name} not installed at {} (conformance/install-clients.sh)",
        bin.display()
    );
    None
}

/// `root/home`, `root/project` (a git repository), `root/dump`, `root/answers`, the recorder.
pub struct Sandbox {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    pub project: PathBuf,
}

impl Sandbox {
    pub fn new(prefix: &str) -> Sandbox {
        let dir = tempfile::Builder::new().prefix(prefix).tempdir().unwrap();
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

    /// The recorder labelled `label` answers `(stdout, stderr, exit)` when its stdin contains
    /// `when` (the first matching answer, by `name` order, wins).
    pub fn answer(&self, label: &str, name: &str, when: &str, out: (&str, &str, i32)) {
        let dir = self.root.join("answers").join(label).join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("match"), when).unwrap();
        std::fs::write(dir.join("stdout"), out.0).unwrap();
        std::fs::write(dir.join("stderr"), out.1).unwrap();
        std::fs::write(dir.join("exit"), out.2.to_string()).unwrap();
    }

    /// A command for the client under `env -i`: HOME, PATH, locale, TERM and TMPDIR only.
    pub fn command(&self, bin: &Path) -> Command {
        let mut cmd = Command::new(bin);
        cmd.env_clear()
            .env("HOME", &self.home)
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("TMPDIR", std::env::temp_dir())
            .current_dir(&self.project)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        cmd
    }

    /// Runs `cmd` to its end, or kills its process group after the limit and fails.
    pub fn run(&self, mut cmd: Command) -> Output {
        let child = cmd.spawn().expect("spawn the client");
        match spawn::wait_bounded(child, LIMIT) {
            Some(out) => out.expect("client output"),
            None => panic!("the client overran {LIMIT:?} in {}", self.root.display()),
        }
    }

    /// What the recording hooks saw, in the order they ran.
    pub fn dumps(&self) -> Vec<Dump> {
        dumps::read(&self.root.join("dump"))
    }
}

impl Drop for Sandbox {
    /// What still runs in the sandbox ends before its folder is removed, which it would leave
    /// behind half-removed ([`spawn::end_stragglers`]).
    fn drop(&mut self) {
        spawn::end_stragglers(&self.root);
    }
}

/// The text of the `role:"tool"` message answering the call whose arguments contain `text`, in
/// any of `requests` (chat-completions bodies).
pub fn tool_result(requests: &[Value], text: &str) -> String {
    for body in requests {
        let messages = body["messages"].as_array().cloned().unwrap_or_default();
        let id = messages.iter().find_map(|m| {
            m["tool_calls"].as_array()?.iter().find_map(|c| {
                c["function"]["arguments"]
                    .as_str()?
                    .contains(text)
                    .then(|| c["id"].clone())
            })
        });
        let Some(id) = id else { continue };
        if let Some(reply) = messages
            .iter()
            .find(|m| m["role"] == "tool" && m["tool_call_id"] == id)
        {
            return match &reply["content"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
        }
    }
    panic!("no tool result for a call with {text:?}")
}
