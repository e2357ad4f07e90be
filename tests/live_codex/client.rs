//! One sandboxed Codex CLI run: `env -i`, a fresh HOME (with `CODEX_HOME` inside it) and git
//! project, the fake model as a custom Responses provider, a bounded lifetime (the process group
//! is killed if it overruns), the recording hook's records, and Codex's hook trust written the
//! way its `/hooks` review writes it.

#[path = "../live_common/spawn.rs"]
mod spawn;
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
pub use dumps::Dump;

pub const VERSION: &str = "0.171.0";
/// A run that has not finished by then is killed with its process group (a hang, not a pace).
const LIMIT: Duration = Duration::from_secs(180);

pub fn clients_root() -> PathBuf {
    std::env::var_os("HOOKX_CLIENTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var("HOME").expect("HOME")).join(".cache/hookx-conformance")
        })
}

/// The pinned client's native binary, or `None` (after a skip line) when it is not installed;
/// with `HOOKX_LIVE=require` a missing client fails the test. The calling test's thread is
/// sealed off the network first (`live_common/sealed.rs`).
pub fn binary() -> Option<PathBuf> {
    let bin = clients_root()
        .join(format!("codex-{VERSION}"))
        .join("node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex");
    if bin.is_file() {
        sealed::enter(&format!("Codex CLI {VERSION}"))?;
        return Some(bin);
    }
    if std::env::var("HOOKX_LIVE").as_deref() == Ok("require") {
        panic!(
            "HOOKX_LIVE=require but {} is missing (conformance/install-clients.sh)",
            bin.display()
        );
    }
    eprintln!(
        "skip: Codex CLI {VERSION} not installed at {} (conformance/install-clients.sh)",
        bin.display()
    );
    None
}

/// The variables every run sets for the client itself (not hook-relevant; hooks inherit them).
pub const GIVEN_ENV: &[&str] = &["CODEX_HOME", "FAKE_MODEL_KEY"];

/// Where a hook set is written: Codex reads `hooks.json` and `config.toml [hooks]` in its home
/// (user layer) and in the project's `.codex/` (project layer, only in a trusted project).
#[derive(Clone, Copy, Debug)]
pub enum HookFile {
    UserJson,
    UserToml,
    ProjectJson,
    ProjectToml,
}

impl HookFile {
    fn rel(self) -> &'static str {
        match self {
            HookFile::UserJson => "home/.codex/hooks.json",
            HookFile::UserToml => "home/.codex/config.toml",
            HookFile::ProjectJson => "project/.codex/hooks.json",
            HookFile::ProjectToml => "project/.codex/config.toml",
        }
    }
}

/// A run's sandbox: `root/home` (with `.codex`), `root/project` (a git repository), `root/dump`
/// (what the recording hook saw), `root/answers` (what it answers).
pub struct Sandbox {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    pub project: PathBuf,
    /// `config.toml` text of the user layer before the provider section: hook tables, trust
    /// state, project trust. Written out by [`Sandbox::run`].
    user_config: std::cell::RefCell<String>,
    /// Top-level keys of the user layer's `config.toml` (`project_root_markers`), written
    /// before any table.
    user_top: std::cell::RefCell<String>,
    /// A text that, once a recorded hook's stdin holds it, makes [`Sandbox::run`] send SIGINT
    /// to the client (as Ctrl-C would).
    interrupt_on: std::cell::RefCell<Option<String>>,
}

pub struct Outcome {
    pub status: Option<i32>,
    /// `--json` events, one per line.
    pub events: Vec<Value>,
    pub stdout: String,
    pub stderr: String,
}

impl Outcome {
    /// The assistant's text, all messages joined.
    pub fn said(&self) -> String {
        self.events
            .iter()
            .filter(|e| e["type"] == "item.completed" && e["item"]["type"] == "agent_message")
            .filter_map(|e| e["item"]["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox::new_in(&std::env::temp_dir())
    }

    /// A sandbox in `base`, for a test whose folders must have no `.git` above them but
    /// another account's: Codex 0.171.0's workspace-write sandbox makes an empty `/tmp/.git`
    /// (its mount point to keep `.git` read-only in the writable `/tmp`) while a shell call of
    /// a test running beside it lasts, and leaves it when that call is killed.
    pub fn new_in(base: &std::path::Path) -> Sandbox {
        let dir = tempfile::Builder::new()
            .prefix("hookx-live-codex")
            .tempdir_in(base)
            .unwrap();
        // Canonical: the client reports real paths, and normalising must find them.
        let root = dir.path().canonicalize().unwrap();
        let (home, project) = (root.join("home"), root.join("project"));
        for d in [
            &home.join(".codex"),
            &project,
            &root.join("dump"),
            &root.join("answers"),
        ] {
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
            user_config: Default::default(),
            user_top: Default::default(),
            interrupt_on: Default::default(),
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

    pub fn path_of(&self, file: HookFile) -> PathBuf {
        self.root.join(file.rel())
    }

    /// Writes the `hooks` object (`{Event: [{matcher?, hooks: [handler]}]}`) to `file`, as JSON
    /// or as `config.toml` tables. Nothing is trusted yet.
    pub fn hooks(&self, file: HookFile, hooks: &Value) {
        match file {
            HookFile::UserJson | HookFile::ProjectJson => {
                self.write(file.rel(), &pretty(&json!({ "hooks": hooks })));
            }
            HookFile::UserToml => self.user_config.borrow_mut().push_str(&toml_hooks(hooks)),
            HookFile::ProjectToml => {
                self.write(file.rel(), &toml_hooks(hooks));
            }
        }
    }

    /// Trusts every command handler of `hooks` (as written to `file`) the way Codex's `/hooks`
    /// review does: `[hooks.state."<file>:<event_label>:<group>:<handler>"] trusted_hash`, in
    /// the user `config.toml` (the only layer whose hook state Codex reads).
    pub fn trust(&self, file: HookFile, hooks: &Value) {
        let source = self.path_of(file);
        let mut out = String::new();
        for (key, hash) in trust_entries(&source, hooks) {
            out += &format!(
                "[hooks.state.{}]\ntrusted_hash = {}\n\n",
                json!(key),
                json!(hash)
            );
        }
        self.user_config.borrow_mut().push_str(&out);
    }

    /// Writes hooks to `file` and trusts them.
    pub fn trusted_hooks(&self, file: HookFile, hooks: &Value) {
        self.hooks(file, hooks);
        self.trust(file, hooks);
    }

    /// Marks the project trusted the way `codex exec --trust` does.
    pub fn trust_project(&self) {
        let entry = format!(
            "[projects.{}]\ntrust_level = \"trusted\"\n\n",
            json!(self.project.display().to_string())
        );
        self.user_config.borrow_mut().push_str(&entry);
    }

    /// Sends SIGINT to the client's process group once a hook has recorded `text` in its stdin.
    pub fn interrupt_when_recorded(&self, text: &str) {
        *self.interrupt_on.borrow_mut() = Some(text.to_string());
    }

    /// Appends raw TOML to the user `config.toml`.
    pub fn user_config(&self, toml: &str) {
        self.user_config.borrow_mut().push_str(toml);
    }

    /// Appends a top-level key (raw TOML) to the user `config.toml`, before every table.
    pub fn user_top(&self, toml: &str) {
        self.user_top.borrow_mut().push_str(toml);
    }

    /// Writes the user `config.toml`: the fake model on `port` as provider `fake`, then the
    /// hook tables, trust state and project trust the helpers collected.
    pub fn write_config(&self, port: u16) {
        // Top-level keys first: the TOML tables come after them, then what is in the file
        // already (tables `hookx install` wrote).
        let written =
            std::fs::read_to_string(self.home.join(".codex/config.toml")).unwrap_or_default();
        let config = format!(
            "{}model = \"gpt-5.5\"\nmodel_provider = \"fake\"\n\n\
             [model_providers.fake]\nname = \"fake\"\nbase_url = \"http://127.0.0.1:{port}/v1\"\n\
             wire_api = \"responses\"\nenv_key = \"FAKE_MODEL_KEY\"\n\n{}{written}",
            self.user_top.borrow(),
            self.user_config.borrow()
        );
        self.write("home/.codex/config.toml", &config);
    }

    /// Runs `codex exec --json ARGS… PROMPT` in the project against the fake model on `port`.
    pub fn run(
        &self,
        bin: &Path,
        port: u16,
        prompt: &str,
        args: &[&str],
        extra: &[(&str, &str)],
    ) -> Outcome {
        self.write_config(port);
        let mut cmd = Command::new(bin);
        cmd.env_clear()
            .env("HOME", &self.home)
            .env("CODEX_HOME", self.home.join(".codex"))
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("LANG", "C.UTF-8")
            .env("TERM", "dumb")
            .env("TMPDIR", std::env::temp_dir())
            .env("NO_COLOR", "1")
            .env("FAKE_MODEL_KEY", "dummy");
        for (k, v) in extra {
            cmd.env(k, v);
        }
        cmd.args(["exec", "--json"])
            .args(args)
            .arg(prompt)
            .current_dir(&self.project)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let child = spawn::spawn(&mut cmd).expect("spawn codex");
        let pid = child.id();
        if let Some(text) = self.interrupt_on.borrow().clone() {
            let dump = self.root.join("dump");
            std::thread::spawn(move || {
                // A record is whole once its stdin file exists (dumper.sh renames it last).
                let start = std::time::Instant::now();
                while start.elapsed() < LIMIT {
                    let seen = std::fs::read_dir(&dump)
                        .into_iter()
                        .flatten()
                        .flatten()
                        .any(|e| {
                            e.file_name().to_string_lossy().ends_with(".stdin")
                                && std::fs::read_to_string(e.path())
                                    .is_ok_and(|t| t.contains(&text))
                        });
                    if seen {
                        if let Some(pid) = rustix::process::Pid::from_raw(pid as i32) {
                            let _ = rustix::process::kill_process_group(
                                pid,
                                rustix::process::Signal::INT,
                            );
                        }
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            });
        }
        let output = match spawn::wait_bounded(child, LIMIT) {
            Some(out) => out.expect("codex output"),
            None => panic!("codex overran {LIMIT:?} in {}", self.root.display()),
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

    /// Asks `codex app-server` for its hook inventory of the project (`hooks/list`): each hook's
    /// `key`, `currentHash` and `trustStatus` as Codex computes them.
    pub fn hook_inventory(&self, bin: &Path) -> Value {
        self.hook_inventory_as(bin, &self.home, Some(&self.home.join(".codex")))
    }

    /// [`Sandbox::hook_inventory`] with `HOME` (as spelled) and `CODEX_HOME` (unset: `None`).
    pub fn hook_inventory_as(&self, bin: &Path, home: &Path, codex_home: Option<&Path>) -> Value {
        use std::io::{BufRead, BufReader, Write};
        let mut cmd = Command::new(bin);
        cmd.env_clear().env("HOME", home);
        if let Some(codex_home) = codex_home {
            cmd.env("CODEX_HOME", codex_home);
        }
        let mut child = cmd
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("LANG", "C.UTF-8")
            .arg("app-server")
            .current_dir(&self.project)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("spawn codex app-server");
        let pid = child.id() as i32;
        let watchdog = std::thread::spawn(move || {
            if !super::common::exits_within(pid, LIMIT)
                && let Some(pid) = rustix::process::Pid::from_raw(pid)
            {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
        });
        let mut stdin = child.stdin.take().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut send = |v: Value| writeln!(stdin, "{v}").expect("app-server stdin");
        send(json!({"id": 1, "method": "initialize",
            "params": {"clientInfo": {"name": "hookx-live", "version": "1"}}}));
        send(json!({"method": "initialized"}));
        send(json!({"id": 2, "method": "hooks/list",
            "params": {"cwds": [self.project.display().to_string()]}}));
        let reply = lines
            .by_ref()
            .map_while(Result::ok)
            .filter_map(|l| serde_json::from_str::<Value>(&l).ok())
            .find(|m| m["id"] == 2)
            .expect("a hooks/list reply");
        drop(stdin);
        let _ = child.wait();
        let _ = watchdog.join();
        reply["result"]["data"][0].clone()
    }

    /// What the recording hooks saw, in the order they ran.
    pub fn dumps(&self) -> Vec<Dump> {
        dumps::read(&self.root.join("dump"))
    }
}

/// `config.toml` tables for a hooks object: `[[hooks.Event]]` with `matcher` and an inline
/// array of handler tables. JSON string literals are valid TOML basic strings.
fn toml_hooks(hooks: &Value) -> String {
    let mut out = String::new();
    for (event, groups) in hooks.as_object().expect("hooks object") {
        for group in groups.as_array().expect("groups") {
            out += &format!("[[hooks.{event}]]\n");
            if let Some(m) = group.get("matcher") {
                out += &format!("matcher = {m}\n");
            }
            let handlers: Vec<String> = group["hooks"]
                .as_array()
                .expect("handlers")
                .iter()
                .map(|h| {
                    let fields: Vec<String> = h
                        .as_object()
                        .unwrap()
                        .iter()
                        .map(|(k, v)| format!("{k} = {v}"))
                        .collect();
                    format!("{{ {} }}", fields.join(", "))
                })
                .collect();
            out += &format!("hooks = [{}]\n\n", handlers.join(", "));
        }
    }
    out
}

/// The trust state keys and hashes of every command handler of `hooks` in `source`, as hookx
/// computes them (`trust_hashes_are_codex_hashes` checks them against Codex's own).
pub fn trust_entries(source: &Path, hooks: &Value) -> Vec<(String, String)> {
    hookx::dialect::codex::trust::records(source, &json!({ "hooks": hooks }), &|_| true)
}

pub fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap()
}
