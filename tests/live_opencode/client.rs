//! One sandboxed OpenCode (or Kilo Code CLI) run: `env -i`, a fresh HOME and git project, a
//! provider in the user's config pointing at the fake model on 127.0.0.1, the plugin package
//! seeded into every config folder (OpenCode runs `npm install @opencode-ai/plugin` in each
//! folder that lacks it), a bounded lifetime (the process group is killed if it overruns).
//! Kilo is the same engine under other names ([`Client`]).

#[path = "../live_common/spawn.rs"]
mod spawn;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

#[path = "../live_common/sealed.rs"]
mod sealed;

/// A run that has not finished by then is killed with its process group (a hang, not a pace).
const LIMIT: Duration = Duration::from_secs(240);

/// The two clients of one engine: names of their folders, files and variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Client {
    OpenCode,
    Kilo,
}

pub const OPENCODE_VERSION: &str = "1.18.33";
pub const KILO_VERSION: &str = "7.7.7";
/// The plugin package seeded into config folders (OpenCode's own version).
pub const PLUGIN_VERSION: &str = "1.18.33";

impl Client {
    pub fn what(self) -> &'static str {
        match self {
            Client::OpenCode => "OpenCode",
            Client::Kilo => "Kilo Code CLI",
        }
    }
    pub fn version(self) -> &'static str {
        match self {
            Client::OpenCode => OPENCODE_VERSION,
            Client::Kilo => KILO_VERSION,
        }
    }
    /// Below the conformance cache.
    pub fn rel(self) -> String {
        match self {
            Client::OpenCode => {
                format!("opencode-{OPENCODE_VERSION}/node_modules/opencode-linux-x64/bin/opencode")
            }
            Client::Kilo => {
                format!("kilo-{KILO_VERSION}/node_modules/@kilocode/cli-linux-x64/bin/kilo")
            }
        }
    }
    /// The project's config folder (`.opencode`, `.kilo`).
    pub fn dot(self) -> &'static str {
        match self {
            Client::OpenCode => ".opencode",
            Client::Kilo => ".kilo",
        }
    }
    /// The user's config folder below HOME.
    pub fn user_dir(self) -> &'static str {
        match self {
            Client::OpenCode => ".config/opencode",
            Client::Kilo => ".config/kilo",
        }
    }
    fn config_file(self) -> &'static str {
        match self {
            Client::OpenCode => "opencode.json",
            Client::Kilo => "kilo.json",
        }
    }
    /// `--host`.
    pub fn host(self) -> &'static str {
        match self {
            Client::OpenCode => "opencode",
            Client::Kilo => "kilo",
        }
    }
}

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
pub fn binary(client: Client) -> Option<PathBuf> {
    let bin = clients_root().join(client.rel());
    if bin.is_file() {
        sealed::enter(&format!("{} {}", client.what(), client.version()))?;
        return Some(bin);
    }
    if std::env::var("HOOKX_LIVE").as_deref() == Ok("require") {
        panic!(
            "HOOKX_LIVE=require but {} is missing (conformance/install-clients.sh)",
            bin.display()
        );
    }
    eprintln!(
        "skip: {} {} not installed at {} (conformance/install-clients.sh)",
        client.what(),
        client.version(),
        bin.display()
    );
    None
}

pub struct Sandbox {
    _dir: tempfile::TempDir,
    pub client: Client,
    pub root: PathBuf,
    pub home: PathBuf,
    pub project: PathBuf,
    /// Where the client is started: the project, unless a test sets a folder below it.
    pub started_in: std::cell::RefCell<Option<PathBuf>>,
}

pub struct Outcome {
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Sandbox {
    pub fn new(client: Client) -> Sandbox {
        let dir = tempfile::Builder::new()
            .prefix("hookx-live-opencode")
            .tempdir()
            .unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (home, project) = (root.join("home"), root.join("project"));
        for d in [&home, &project] {
            std::fs::create_dir_all(d).unwrap();
        }
        let git = Command::new("git")
            .args(["init", "-q"])
            .current_dir(&project)
            .status()
            .expect("git");
        assert!(git.success());
        Sandbox {
            _dir: dir,
            client,
            root,
            home,
            project,
            started_in: Default::default(),
        }
    }

    /// The project's config folder.
    pub fn dot(&self) -> PathBuf {
        self.project.join(self.client.dot())
    }

    /// The user's config folder.
    pub fn user_dir(&self) -> PathBuf {
        self.home.join(self.client.user_dir())
    }

    /// Writes `text` at `rel` below the sandbox root.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// Copies the plugin package into `dir` (a config folder), as OpenCode would install it.
    fn seed(dir: &Path) {
        let from = clients_root().join(format!("opencode-plugin-{PLUGIN_VERSION}"));
        std::fs::create_dir_all(dir).unwrap();
        let status = Command::new("cp")
            .arg("-r")
            .arg(from.join("node_modules"))
            .arg(from.join("package.json"))
            .arg(from.join("package-lock.json"))
            .arg(dir)
            .status()
            .expect("cp");
        assert!(status.success(), "seeding {}", dir.display());
    }

    /// Runs `CLIENT run PROMPT` in the project against the fake model on `port`.
    pub fn run(&self, bin: &Path, port: u16, prompt: &str, extra: &[(&str, &str)]) -> Outcome {
        self.run_for(bin, port, prompt, extra, LIMIT)
            .unwrap_or_else(|| {
                panic!(
                    "{} overran {LIMIT:?} in {}",
                    self.client.what(),
                    self.root.display()
                )
            })
    }

    /// [`Sandbox::run`], killed after `limit`: `None` when it had not finished by then.
    pub fn run_for(
        &self,
        bin: &Path,
        port: u16,
        prompt: &str,
        extra: &[(&str, &str)],
        limit: Duration,
    ) -> Option<Outcome> {
        let user = self.user_dir();
        std::fs::create_dir_all(&user).unwrap();
        let config = serde_json::json!({
            "autoupdate": false,
            "share": "disabled",
            "model": "fake/gpt-4.1",
            "small_model": "fake/gpt-4.1",
            "provider": {"fake": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Fake",
                "options": {"baseURL": format!("http://127.0.0.1:{port}/v1"), "apiKey": "dummy"},
                "models": {"gpt-4.1": {"name": "gpt-4.1", "tool_call": true}}
            }}
        });
        std::fs::write(
            user.join(self.client.config_file()),
            serde_json::to_string_pretty(&config).unwrap(),
        )
        .unwrap();
        for dir in [user.clone(), self.dot()] {
            if !dir.join("node_modules").exists() {
                Sandbox::seed(&dir);
            }
        }
        let fake = format!("http://127.0.0.1:{port}");
        let mut cmd = Command::new(bin);
        cmd.env_clear()
            .env("HOME", &self.home)
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("TMPDIR", std::env::temp_dir())
            .env("NO_COLOR", "1")
            // Any escape to the registry or a proxy lands in the fake server's log.
            .env("npm_config_registry", format!("{fake}/npm/"))
            .env("HTTP_PROXY", &fake)
            .env("HTTPS_PROXY", &fake);
        for prefix in ["OPENCODE", "KILO"] {
            for what in [
                "DISABLE_AUTOUPDATE",
                "DISABLE_MODELS_FETCH",
                "DISABLE_LSP_DOWNLOAD",
                "DISABLE_SHARE",
            ] {
                cmd.env(format!("{prefix}_{what}"), "1");
            }
        }
        cmd.env("KILO_TELEMETRY_LEVEL", "off");
        for (k, v) in extra {
            cmd.env(k, v);
        }
        cmd.arg("run");
        if self.client == Client::Kilo {
            // Kilo auto-rejects permission asks in `run` unless told to act alone.
            cmd.arg("--auto");
        }
        let started_in = self.started_in.borrow().clone();
        cmd.arg(prompt)
            .current_dir(started_in.as_ref().unwrap_or(&self.project))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let child = spawn::spawn(&mut cmd).expect("spawn client");
        let output = spawn::wait_bounded(child, limit)?.expect("client output");
        Some(Outcome {
            status: output.status.code(),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        })
    }

    /// The records the test plugins appended to `HOME/rec.jsonl`, in order.
    pub fn records(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(self.home.join("rec.jsonl"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }
}
