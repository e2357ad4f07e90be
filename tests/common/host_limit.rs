//! What the tests of hosts' time limits share (`tests/budget.rs`, `tests/fault_matrix.rs`): a
//! project whose handlers hookx runs under any host, a shell `PreToolUse` in each host's
//! payload, and its answer read as the host reads it.
#![allow(dead_code)]

use super::common;
use hookx::model::{Decision, Event, EventKind};
use hookx::spawn::{Exit, Finished};
use hookx::tables::{Dialect, Flavor};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What tests give each host as its limit: a few seconds, far below any real one.
pub const TEST_LIMIT_MS: &str = "3000";

/// How long a run may take before the test calls it hung: far above the test limit, far below
/// the handlers' own timeouts.
pub const HARD_LIMIT: Duration = Duration::from_secs(60);

/// A handler that hangs until the test releases it (the file `release` appears), then writes
/// `marker`: it finishes only if it was left running. It gives up when the test's folder is
/// gone, so that a failed test leaves nothing behind.
pub fn hang(release: &Path, marker: &Path) -> String {
    let dir = release.parent().unwrap();
    format!(
        "while [ ! -e '{}' ] && [ -d '{}' ]; do sleep 0.05; done; echo done > '{}'",
        release.display(),
        dir.display(),
        marker.display()
    )
}

/// A handler that denies at once (exit 2, the reason on stderr), noting that it ran.
pub fn deny(ran: &Path) -> String {
    format!(
        "echo ran > '{}'; echo 'no: denied' >&2; exit 2",
        ran.display()
    )
}

/// The host's flavour and event name for a `PreToolUse` on the shell (Windsurf has one event
/// per tool category).
pub fn pre_tool_use(host: Dialect) -> (Flavor, &'static str) {
    host.own_events()
        .into_iter()
        .find(|(kind, _, flavor)| {
            *kind == EventKind::PreToolUse && flavor.tables().tool_scope.admits("shell")
        })
        .map(|(_, name, flavor)| (flavor, name))
        .unwrap_or_else(|| panic!("{host}: no PreToolUse for the shell"))
}

pub fn shell_call() -> Event {
    Event::tool_call(
        EventKind::PreToolUse,
        "shell",
        json!({"command": "rm -rf /"}),
    )
}

/// One fresh project and home.
pub struct Setup {
    _tmp: tempfile::TempDir,
    pub project: PathBuf,
    pub home: PathBuf,
    pub release: PathBuf,
    pub marker: PathBuf,
    pub denied: PathBuf,
}

impl Setup {
    pub fn new() -> Setup {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let (project, home) = (root.join("project"), root.join("home"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Setup {
            release: root.join("release"),
            marker: root.join("marker"),
            denied: root.join("denied"),
            project,
            home,
            _tmp: tmp,
        }
    }

    /// `hookx ARGS…` here, with the test limit and nothing inherited from an agent.
    pub fn hookx(&self, args: &[&str]) -> assert_cmd::Command {
        let mut cmd = common::hookx_clean(&self.project);
        cmd.args(common::with_route_home(args, &self.home))
            .env("HOME", &self.home)
            .env("HOOKX_TEST_HOST_LIMIT_MS", TEST_LIMIT_MS)
            .env_remove("HOOKX_HOST")
            .timeout(HARD_LIMIT);
        cmd
    }

    pub fn trust(&self, file: &Path) {
        self.hookx(&["trust"]).arg(file).assert().success();
    }

    /// Fires a shell `PreToolUse` at `hookx run --host HOST`: what it answered, read as the
    /// host reads a hook's answer, and how it ended; an error when hookx did not end.
    pub fn fire(&self, host: Dialect) -> Result<(Decision, common::Ran), String> {
        let (_, event) = pre_tool_use(host);
        self.fire_at(
            host,
            &["run", "--host", host.name(), "--event", event],
            true,
        )
    }

    /// [`Setup::fire`] under the host's real limit, not the test's: for handlers that take a
    /// moment, so that a loaded machine cannot make them late.
    pub fn fire_unhurried(&self, host: Dialect) -> Result<(Decision, common::Ran), String> {
        let (_, event) = pre_tool_use(host);
        self.fire_at(
            host,
            &["run", "--host", host.name(), "--event", event],
            false,
        )
    }

    /// [`Setup::fire_unhurried`] with `extra` arguments after the event (a route's own flags)
    /// and `env` set as the host sets it for the entry that fired.
    pub fn fire_unhurried_with(
        &self,
        host: Dialect,
        extra: &[&str],
        env: &[(&str, &Path)],
    ) -> Result<(Decision, common::Ran), String> {
        let (_, event) = pre_tool_use(host);
        let mut args = vec!["run", "--host", host.name(), "--event", event];
        args.extend_from_slice(extra);
        self.fire_at_env(host, &args, false, env)
    }

    /// Fires it at a wrapped entry, `hookx exec --host HOST --as FLAVOR --timeout SECS -- LINE`
    /// (as `convert` writes one).
    pub fn fire_exec(
        &self,
        host: Dialect,
        flavor: &str,
        timeout: u64,
        line: &str,
    ) -> Result<(Decision, common::Ran), String> {
        self.fire_exec_within(host, flavor, timeout, line, true)
    }

    /// [`Setup::fire_exec`] under the host's real limit, not the test's: for a handler that
    /// answers at once, so that a loaded machine cannot make it late.
    pub fn fire_exec_unhurried(
        &self,
        host: Dialect,
        flavor: &str,
        timeout: u64,
        line: &str,
    ) -> Result<(Decision, common::Ran), String> {
        self.fire_exec_within(host, flavor, timeout, line, false)
    }

    fn fire_exec_within(
        &self,
        host: Dialect,
        flavor: &str,
        timeout: u64,
        line: &str,
        shortened: bool,
    ) -> Result<(Decision, common::Ran), String> {
        let (_, event) = pre_tool_use(host);
        let timeout = timeout.to_string();
        let args = [
            "exec",
            "--host",
            host.name(),
            "--as",
            flavor,
            "--event",
            event,
            "--timeout",
            &timeout,
            "--",
            line,
        ];
        self.fire_at(host, &args, shortened)
    }

    /// Fires a shell `PreToolUse` at `hookx ARGS…`.
    fn fire_at(
        &self,
        host: Dialect,
        args: &[&str],
        shortened: bool,
    ) -> Result<(Decision, common::Ran), String> {
        self.fire_at_env(host, args, shortened, &[])
    }

    fn fire_at_env(
        &self,
        host: Dialect,
        args: &[&str],
        shortened: bool,
        env: &[(&str, &Path)],
    ) -> Result<(Decision, common::Ran), String> {
        let (flavor, _) = pre_tool_use(host);
        let payload = hookx::protocol::encode_event(&shell_call(), flavor);
        let mut payload = payload.as_object().cloned().unwrap_or_default();
        payload.insert("cwd".into(), self.project.display().to_string().into());
        let start = Instant::now();
        let mut cmd = self.hookx(args);
        if !shortened {
            cmd.env_remove("HOOKX_TEST_HOST_LIMIT_MS");
        }
        for (name, value) in env {
            cmd.env(name, value);
        }
        let ran = common::ran(cmd.write_stdin(serde_json::Value::Object(payload).to_string()));
        if ran.code.is_none() || start.elapsed() >= HARD_LIMIT {
            return Err(format!("{host}: hookx did not answer: {ran:?}"));
        }
        let finished = Finished {
            exit: Exit::Code(ran.code.unwrap_or(-1)),
            stdout: ran.stdout.clone().into_bytes(),
            stderr: ran.stderr.clone().into_bytes(),
            stdout_truncated: false,
            stderr_truncated: false,
            elapsed: Duration::ZERO,
        };
        let read = hookx::protocol::decode_answer(flavor, &shell_call(), &finished);
        Ok((read.decision.unwrap_or(Decision::Allow), ran))
    }

    /// Lets the hanging handler go on, then waits for it to finish (it writes the marker):
    /// whether it did.
    pub fn released_finishes(&self) -> bool {
        std::fs::write(&self.release, "").unwrap();
        let start = Instant::now();
        while start.elapsed() < HARD_LIMIT {
            if self.marker.exists() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        false
    }
}

pub fn dialect(name: &str) -> Dialect {
    Dialect::all()
        .iter()
        .copied()
        .find(|d| d.name() == name)
        .unwrap()
}

/// The project file hookx (not the host) runs under `host`, in Claude's shape.
pub fn foreign_file(host: Dialect) -> &'static str {
    match host.name() {
        "bricks" => ".claude/settings.json",
        _ => ".bricks/hooks.json",
    }
}
