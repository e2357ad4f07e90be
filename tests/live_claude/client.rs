//! Driving the real Claude Code: a fresh HOME and project per scenario, `env -i`, a bounded
//! run (the process group is killed if it overruns), and the records of the dumper hook.

#[path = "../live_common/sealed.rs"]
mod sealed;
#[path = "../live_common/spawn.rs"]
mod spawn;
use serde_json::Value;
use std::collections::BTreeMap;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

pub const VERSION: &str = "2.1.332";
pub const CLIENT: &str = "claude-code";

/// The pinned binary, if installed (`conformance/install-clients.sh`), with the calling test's
/// thread sealed off the network (`live_common/sealed.rs`; `None` when it cannot be).
pub fn binary() -> Option<PathBuf> {
    let root = std::env::var_os("HOOKX_CLIENTS")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/hookx-conformance"))
        })?;
    let bin = root.join(format!(
        "claude-{VERSION}/node_modules/@anthropic-ai/claude-code-linux-x64/claude"
    ));
    let bin = bin.is_file().then_some(bin)?;
    sealed::enter("Claude Code")?;
    Some(bin)
}

/// One isolated world: HOME, project, and the dumper's folder.
pub struct World {
    _tmp: tempfile::TempDir,
    pub home: PathBuf,
    pub project: PathBuf,
    pub dump: PathBuf,
    pub dumper: PathBuf,
}

impl Drop for World {
    fn drop(&mut self) {
        if std::env::var_os("HOOKX_LIVE_KEEP").is_some() {
            let tmp = std::mem::replace(&mut self._tmp, tempfile::tempdir().unwrap());
            let _ = tmp.keep();
        }
    }
}

impl World {
    pub fn new() -> World {
        let tmp = tempfile::Builder::new()
            .prefix("hookx-live-claude-")
            .tempdir()
            .unwrap();
        let root = tmp.path().canonicalize().unwrap();
        if std::env::var_os("HOOKX_LIVE_KEEP").is_some() {
            eprintln!("keeping {}", root.display());
        }
        let (home, project, dump) = (root.join("home"), root.join("project"), root.join("dump"));
        for d in [&home, &project, &dump] {
            std::fs::create_dir_all(d).unwrap();
        }
        let dumper = dump.join("dumper.sh");
        std::fs::write(&dumper, include_str!("dumper.sh")).unwrap();
        World {
            _tmp: tmp,
            home,
            project,
            dump,
            dumper,
        }
    }

    /// The hook command that records `event` under `label`.
    pub fn dumper_command(&self, label: &str, event: &str) -> String {
        format!(
            "sh {} {} {label} {event}",
            self.dumper.display(),
            self.dump.display()
        )
    }

    /// Prepares `label`'s answer files: (file name, sh snippet).
    pub fn answers(&self, label: &str, answers: &[(&str, String)]) {
        let dir = self.dump.join(label).join("answers");
        std::fs::create_dir_all(&dir).unwrap();
        for (name, snippet) in answers {
            std::fs::write(dir.join(name), snippet).unwrap();
        }
    }

    /// Every record of `label`, in order.
    pub fn records(&self, label: &str) -> Vec<Record> {
        let dir = self.dump.join(label).join("rec");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
            .into_iter()
            .map(|name| {
                let path = dir.join(&name);
                let (order, event) = name.split_once('.').unwrap();
                let stdin_text = std::fs::read_to_string(path.join("stdin.json")).unwrap();
                let env = std::fs::read_to_string(path.join("env"))
                    .unwrap()
                    .lines()
                    .filter_map(|l| l.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect();
                Record {
                    order: order.parse().unwrap(),
                    event: event.to_string(),
                    stdin: serde_json::from_str(&stdin_text).unwrap_or_else(|e| {
                        panic!("{label} {name}: stdin is not JSON ({e}): {stdin_text}")
                    }),
                    stdin_text,
                    env,
                    cwd: std::fs::read_to_string(path.join("cwd"))
                        .unwrap()
                        .trim()
                        .to_string(),
                }
            })
            .collect()
    }

    /// Removes every record (between client runs in one world).
    pub fn clear_records(&self) {
        for label in std::fs::read_dir(&self.dump).unwrap() {
            let rec = label.unwrap().path().join("rec");
            let _ = std::fs::remove_dir_all(&rec);
        }
    }
}

/// Events seen in the records, in first-fired order.
pub fn fired(records: &[Record]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in records {
        if !out.contains(&r.event) {
            out.push(r.event.clone());
        }
    }
    out
}

/// Writes `value` to `path` (pretty JSON), making its folder.
pub fn write_json(path: &Path, value: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

/// An answer (sh snippet) printing `v`.
pub fn print_json(v: &Value) -> String {
    format!("printf '%s' '{v}'\n")
}

/// A Claude answer (sh snippet) putting `fields` into `hookSpecificOutput` of `event`.
pub fn hso(event: &str, fields: Value) -> String {
    let mut inner = serde_json::json!({"hookEventName": event});
    inner
        .as_object_mut()
        .unwrap()
        .extend(fields.as_object().unwrap().clone());
    print_json(&serde_json::json!({"hookSpecificOutput": inner}))
}

/// One hook invocation as the dumper saved it.
#[derive(Debug, Clone)]
pub struct Record {
    pub order: u32,
    pub event: String,
    pub stdin: Value,
    pub stdin_text: String,
    pub env: BTreeMap<String, String>,
    pub cwd: String,
}

/// What one client run left.
pub struct Run {
    pub status: Option<i32>,
    pub stream: Vec<Value>,
    pub stdout: String,
    pub stderr: String,
    pub debug_log: String,
}

impl Run {
    /// The `hook_response` events of the stream (`--include-hook-events`) for `event`.
    pub fn hook_responses(&self, event: &str) -> Vec<&Value> {
        self.stream
            .iter()
            .filter(|e| e["subtype"] == "hook_response" && e["hook_event"] == event)
            .collect()
    }

    pub fn describe(&self) -> String {
        format!(
            "exit {:?}\nstderr: {}\nstdout tail: {}",
            self.status,
            self.stderr,
            self.stdout
                .lines()
                .rev()
                .take(5)
                .collect::<Vec<_>>()
                .join("\n")
        )
    }
}

/// The environment hooks inherit, apart from what Claude adds.
pub fn base_env(world: &World, port: u16) -> Vec<(String, String)> {
    let hookx_dir = Path::new(env!("CARGO_BIN_EXE_hookx")).parent().unwrap();
    let path = format!("{}:/usr/local/bin:/usr/bin:/bin", hookx_dir.display());
    let mut env: Vec<(String, String)> = [
        ("HOME", world.home.display().to_string()),
        ("PATH", path),
        ("SHELL", "/bin/sh".into()),
        ("LANG", "C.UTF-8".into()),
        ("TMPDIR", std::env::temp_dir().display().to_string()),
        ("TERM", "dumb".into()),
        ("ANTHROPIC_BASE_URL", format!("http://127.0.0.1:{port}")),
        ("ANTHROPIC_API_KEY", "dummy".into()),
        ("DISABLE_TELEMETRY", "1".into()),
        ("DISABLE_AUTOUPDATER", "1".into()),
        ("DISABLE_ERROR_REPORTING", "1".into()),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".into()),
        ("IS_SANDBOX", "1".into()),
        ("HOOKX_HOME", world.home.display().to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    env.sort();
    env
}

/// Runs `claude -p PROMPT` (plus `extra` flags) in the world's project, at most two minutes.
pub fn run(bin: &Path, world: &World, port: u16, prompt: &str, extra: &[&str]) -> Run {
    run_env(bin, world, port, prompt, extra, &[])
}

/// [`run`] with the variables `env` added to the run environment (hooks inherit them).
pub fn run_env(
    bin: &Path,
    world: &World,
    port: u16,
    prompt: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Run {
    run_in(bin, world, &world.project, port, prompt, extra, env)
}

/// [`run_env`] started in `dir` (a folder below the project) instead of the project.
pub fn run_in(
    bin: &Path,
    world: &World,
    dir: &Path,
    port: u16,
    prompt: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> Run {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let debug = world.dump.join(format!(
        "debug-{}.log",
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let mut cmd = Command::new(bin);
    cmd.env_clear()
        .envs(base_env(world, port))
        .envs(env.iter().copied())
        .current_dir(dir)
        .args(["-p", prompt, "--output-format", "stream-json", "--verbose"])
        .arg("--include-hook-events")
        .arg("--debug-file")
        .arg(&debug)
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let out = bounded(cmd);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let _ = std::fs::write(debug.with_extension("stream"), &stdout);
    Run {
        status: out.status.code(),
        stream: stdout
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect(),
        stdout,
        stderr: String::from_utf8_lossy(&out.stderr).to_string(),
        debug_log: std::fs::read_to_string(&debug).unwrap_or_default(),
    }
}

/// Runs `claude ARGS…` (`plugin install …`) in the world's project with the run environment,
/// at most two minutes.
#[allow(dead_code)] // used by live_claude_plugins only
pub fn command(bin: &Path, world: &World, args: &[&str]) -> std::process::Output {
    let mut cmd = Command::new(bin);
    cmd.env_clear()
        .envs(base_env(world, 9))
        .current_dir(&world.project)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    bounded(cmd)
}

/// Starts `cmd` (in its own process group) and waits; a watchdog kills the whole group if it
/// overruns two minutes.
fn bounded(mut cmd: Command) -> std::process::Output {
    let child = spawn::spawn(&mut cmd).expect("start claude");
    let pid = child.id() as i32;
    let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if done_rx.recv_timeout(Duration::from_secs(120)).is_err() {
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{pid}")])
                .status();
        }
    });
    let out = child.wait_with_output().expect("wait for claude");
    let _ = done_tx.send(());
    watchdog.join().unwrap();
    out
}

/// `hookx ARGS… --project P --home H` as built for this test run, with the world's home for
/// `HOME`, not run yet.
pub fn hookx_command(world: &World, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hookx"));
    cmd.args(args)
        .arg("--project")
        .arg(&world.project)
        .arg("--home")
        .arg(&world.home)
        .env("HOME", &world.home)
        .env_remove("HOOKX_HOME");
    cmd
}

/// [`hookx_command`] run; fails unless it succeeds.
pub fn hookx_cmd(world: &World, args: &[&str]) -> std::process::Output {
    let out = hookx_command(world, args).output().unwrap();
    assert!(out.status.success(), "hookx {args:?}: {out:?}");
    out
}

/// One handler per event of `events` (as `flavor` names them), each the dumper labelled with
/// the flavour's name; `grouped`: Claude's `{"hooks": [...]}` groups, else Copilot's entries.
pub fn dumper_rules<'a>(
    world: &World,
    flavor: hookx::tables::Flavor,
    events: impl IntoIterator<Item = &'a str>,
    grouped: bool,
) -> serde_json::Map<String, Value> {
    events
        .into_iter()
        .map(|name| {
            let command = world.dumper_command(flavor.name(), name);
            let entry = match grouped {
                true => serde_json::json!([{"hooks": [{"type": "command", "command": command}]}]),
                false => serde_json::json!([{"type": "command", "bash": command}]),
            };
            (name.to_string(), entry)
        })
        .collect()
}
