//! Running the handlers an event fires, each in the dialect it was written for, and merging
//! their answers into one answer for the host.

use super::select::{Selected, select};
use crate::discover::Source;
use crate::model::{Event, Handler, HandlerKind, Outcome};
use crate::protocol::answer::{HostAnswer, decode_answer, encode_answer};
use crate::protocol::payload::{encode_event, handler_env};
use crate::shell::shell_quote;
use crate::spawn::{self, Exit, Finished, Spawn};
use crate::tables::Flavor;
use crate::tables::Rule;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// How long the handlers of one event may take in all: the host kills hookx at the route's
/// timeout (`install` writes [`crate::route::ROUTE_TIMEOUT`], which is also Claude's default
/// for a command), and hookx needs a moment to answer after the last handler.
pub const ROUTE_BUDGET: Duration =
    Duration::from_secs(crate::route::ROUTE_TIMEOUT).saturating_sub(Duration::from_secs(10));

/// One handler that ran: what it was given, how it ended, what it meant.
#[derive(Debug)]
pub struct HandlerRun {
    pub flavor: Flavor,
    pub command_line: String,
    /// Where the rule was written (`file` and JSON pointer).
    pub origin: String,
    pub stdin: Value,
    pub env: Vec<(String, String)>,
    pub finished: Finished,
    pub outcome: Outcome,
}

/// Everything one event caused.
#[derive(Debug)]
pub struct Dispatch {
    pub runs: Vec<HandlerRun>,
    /// Handlers that matched but were not run, and why.
    pub skipped: Vec<String>,
    /// Handlers of files the host runs by itself that the event fires there (simulate).
    pub native: Vec<String>,
    pub outcome: Outcome,
    pub answer: HostAnswer,
}

/// The environment variable that counts how many hookx dispatches run one inside the other:
/// each handler gets `DEPTH:PID`, one more than its hookx's depth and that hookx's process id,
/// and a hookx honours it only when that process is one of its own ancestors running the same
/// hookx executable ([`crate::spawn::is_this_program_above`]), so a fixed value set anywhere
/// else (a project's settings `env`) counts as depth 0. It travels through anything that keeps
/// the environment (a shell, `env`, an agent started by a hook).
pub const DEPTH_VAR: &str = "HOOKX_DEPTH";

/// Every handler hookx runs is told the agent running it (a dialect name) in this variable,
/// beside its own dialect's payload and variables: a Claude hook run under Copilot sees
/// `HOOKX_HOST=copilot`.
pub const HOST_VAR: &str = "HOOKX_HOST";

/// The depth at which `run` and `exec` refuse to dispatch: a hook that starts an agent whose
/// hooks start hookx again is fine a few levels deep; past this, hookx is running itself.
pub const MAX_DEPTH: u32 = 4;

/// This process's dispatch depth ([`DEPTH_VAR`]): 0 when unset, unreadable, or not set by a
/// hookx above this one.
pub fn depth() -> u32 {
    static DEPTH: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *DEPTH.get_or_init(|| {
        std::env::var(DEPTH_VAR)
            .ok()
            .and_then(|v| parse_depth(&v))
            .filter(|&(_, pid)| crate::spawn::is_this_program_above(pid))
            .map_or(0, |(depth, _)| depth)
    })
}

/// `DEPTH:PID`.
fn parse_depth(value: &str) -> Option<(u32, u32)> {
    let (depth, pid) = value.trim().split_once(':')?;
    Some((depth.parse().ok()?, pid.parse().ok()?))
}

/// What this hookx's handlers get in [`DEPTH_VAR`].
fn child_depth() -> String {
    format!("{}:{}", depth().saturating_add(1), std::process::id())
}

/// What a rule's source adds to its handlers' environment (a Claude plugin's root).
pub trait RuleSource {
    fn env(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The folder of the source's file, where it has one.
    fn hook_dir(&self) -> Option<&Path> {
        None
    }
}

impl RuleSource for () {}

/// A hook file found by discovery: its folder, and a plugin's root in the plugin's variable.
impl RuleSource for Source {
    fn env(&self) -> Vec<(String, String)> {
        let var = self.dialect.config().plugin_root_var;
        self.plugin_root()
            .zip(var)
            .map(|(root, var)| vec![(var.to_string(), root.display().to_string())])
            .unwrap_or_default()
    }

    fn hook_dir(&self) -> Option<&Path> {
        self.path.parent()
    }
}

/// Fires `event` (decoded from a `host` payload) at `rules`, runs what matches and answers the
/// host. `project_dir` is where handlers run and what the project-directory variables hold.
pub fn dispatch<'a, S: RuleSource + 'a>(
    host: Flavor,
    event: &Event,
    rules: impl IntoIterator<Item = (&'a Rule, &'a S)>,
    project_dir: &Path,
) -> Dispatch {
    let (selected, invalid) = select(rules, event);
    let mut skipped: Vec<String> = invalid
        .iter()
        .map(|s| format!("{}: skipped: {}", describe(s.rule), s.reason))
        .collect();
    let mut jobs = Vec::new();
    let budget = host.tables().protocol.hook_budget(&event.kind);
    for s in &selected {
        match prepare(s, host, event, project_dir, budget) {
            Ok(job) => jobs.push(job),
            Err(why) => skipped.push(format!("{}: skipped: {why}", describe(s.rule))),
        }
    }
    let tables = host.tables();
    let specs: Vec<Spawn> = jobs.iter().map(|j| j.spec.clone()).collect();
    // Every handler ends before the host's route timeout, run in parallel or one by one (a
    // hanging 600 s Claude handler under Copilot leaves the next handlers their share).
    let deadline = Instant::now() + ROUTE_BUDGET;
    // Handlers a sequential host runs one at a time, so that a deny can stop the rest.
    let mut finished = if tables.parallel {
        spawn::run_all_by(&specs, true, deadline)
    } else {
        Vec::new()
    }
    .into_iter();
    let mut outcome = Outcome::default();
    // A rule whose matcher could not be evaluated may have fired: the failure policy answers.
    let unevaluated: Vec<String> = invalid
        .iter()
        .filter(|s| s.unevaluable())
        .map(|s| format!("{}: {}", describe(s.rule), s.reason))
        .collect();
    if !unevaluated.is_empty() {
        outcome.merge(super::failure::outcome(
            host,
            &event.kind,
            &unevaluated.join("; "),
        ));
    }
    let mut runs = Vec::new();
    let mut jobs = jobs.into_iter();
    while let Some(job) = jobs.next() {
        let finished = match finished.next() {
            Some(f) => f,
            None => spawn::run_within(
                &job.spec,
                deadline,
                u32::try_from(jobs.len() + 1).unwrap_or(u32::MAX),
            ),
        };
        let mut one = if job.failure_blocks && !matches!(finished.exit, Exit::Code(0 | 2)) {
            let blocking = Finished {
                exit: Exit::Code(2),
                ..finished.clone()
            };
            decode_answer(job.flavor, event, &blocking)
        } else {
            decode_answer(job.flavor, event, &finished)
        };
        for e in &mut one.errors {
            *e = format!("{}: {e}", job.origin);
        }
        let denied = one.decision == Some(crate::model::Decision::Deny);
        outcome.merge(one.clone());
        runs.push(HandlerRun {
            flavor: job.flavor,
            command_line: job.spec.command_line,
            origin: job.origin,
            stdin: job.stdin,
            env: job.spec.env,
            finished,
            outcome: one,
        });
        if denied && tables.first_deny_stops_the_rest {
            for rest in jobs.by_ref() {
                skipped.push(format!(
                    "{}: not run: a handler before it denied, and {} stops at the first deny",
                    rest.origin,
                    host.dialect()
                ));
            }
        }
    }
    let answer = encode_answer(host, event, &outcome);
    Dispatch {
        runs,
        skipped,
        native: Vec::new(),
        outcome,
        answer,
    }
}

struct Job {
    flavor: Flavor,
    /// A failure counts as exit 2 (Claude `onFailure: "block"`).
    failure_blocks: bool,
    origin: String,
    stdin: Value,
    spec: Spawn,
}

/// How long a handler of `flavor` may run. `timeout: 0` is "no timeout" where the dialect says
/// so (a duration too long to add is none at all); elsewhere it would kill the hook at once: it
/// means the default (`validate` warns).
fn handler_timeout(flavor: Flavor, handler: &Handler) -> Duration {
    match handler.timeout {
        Some(0) if flavor.dialect().config().zero_timeout_is_none => Duration::MAX,
        asked => Duration::from_secs(
            asked
                .filter(|t| *t > 0)
                .unwrap_or_else(|| flavor.tables().default_timeout(&handler.kind)),
        ),
    }
}

/// The process for one selected handler: its own dialect's payload, environment and timeout.
fn prepare<S: RuleSource>(
    selected: &Selected<'_, S>,
    host: Flavor,
    event: &Event,
    project_dir: &Path,
    budget: Option<Duration>,
) -> Result<Job, String> {
    let flavor = selected.rule.flavor;
    let handler: &Handler = selected.handler;
    let command = match &handler.kind {
        HandlerKind::Command(command) => command,
        HandlerKind::Service(s) => {
            return Err(format!(
                "{} hooks are called by the agent itself; hookx cannot run them",
                s.type_name
            ));
        }
        _ => {
            return Err(
                "prompt and agent hooks are evaluated by the agent's model; hookx cannot run them"
                    .into(),
            );
        }
    };
    let line = if cfg!(windows) {
        command.windows_line()
    } else {
        command.unix_line()
    };
    let Some(line) = line else {
        return Err("no command for this operating system".into());
    };
    let keys = &flavor.dialect().config().run_keys;
    let in_background = keys
        .background
        .iter()
        .any(|k| handler.extra.get(*k) == Some(&Value::Bool(true)));
    if command.is_async == Some(true) || in_background {
        // Claude runs async hooks in the background and ignores their answer.
        let agent = flavor.dialect().def().display;
        return Err(format!(
            "async hooks run in the background in {agent}; hookx runs them only under {agent} itself"
        ));
    }
    // The exec form: the program and its arguments, quoted for the shell that runs the line.
    let exec_args = keys
        .exec_args
        .and_then(|k| handler.extra.get(k))
        .and_then(|v| {
            v.as_array()?
                .iter()
                .map(|a| a.as_str().map(shell_quote))
                .collect::<Option<Vec<_>>>()
        });
    let line = match exec_args {
        Some(args) => std::iter::once(shell_quote(line))
            .chain(args)
            .collect::<Vec<_>>()
            .join(" "),
        None => line.to_string(),
    };
    let failure_blocks = keys
        .on_failure
        .as_ref()
        .is_some_and(|f| handler.extra.get(f.key).and_then(Value::as_str) == Some(f.blocks));
    let project = project_dir.display().to_string();
    let stdin = encode_event(event, flavor);
    let hook_dir = selected.source.hook_dir().map(|d| d.display().to_string());
    let mut env = handler_env(event, flavor, &project, hook_dir.as_deref());
    env.extend(selected.source.env());
    env.push((DEPTH_VAR.to_string(), child_depth()));
    env.push((HOST_VAR.to_string(), host.dialect().name().to_string()));
    // The host's own variables (CLAUDE_PROJECT_DIR, BRICKS_*, COPILOT_CLI) would tell the
    // handler, or a hookx it runs, that it runs under another agent than the one it was
    // written for.
    let own = flavor.tables().protocol.env;
    let mut env_remove: Vec<String> = Vec::new();
    for (name, _) in Flavor::all().iter().flat_map(|f| f.tables().protocol.env) {
        if !own.iter().any(|(n, _)| n == name) && !env_remove.iter().any(|n| n == name) {
            env_remove.push((*name).to_string());
        }
    }
    if let Some(vars) = &command.env {
        // Passed literally: Copilot 1.0.102 expands neither `$VAR` nor `${VAR}` in them.
        for (name, value) in vars {
            env.push((name.clone(), value.as_str().unwrap_or_default().to_string()));
        }
    }
    let cwd = match &command.cwd {
        Some(dir) => project_dir.join(dir),
        None => project_dir.to_path_buf(),
    };
    let timeout = handler_timeout(flavor, handler);
    // The host stops waiting after its budget: the handler must end within it too.
    let timeout = budget.map_or(timeout, |b| timeout.min(b));
    Ok(Job {
        flavor,
        failure_blocks,
        origin: describe(selected.rule),
        stdin: stdin.clone(),
        spec: Spawn {
            command_line: line,
            stdin: serde_json::to_vec(&stdin).unwrap_or_default(),
            env,
            env_remove,
            cwd: Some(cwd),
            timeout,
        },
    })
}

/// Where a rule was written, for messages: `file (pointer)`.
fn describe(rule: &Rule) -> String {
    match rule.origin.pointer.as_str() {
        "" => rule.origin.file.clone(),
        pointer => format!("{} ({pointer})", rule.origin.file),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Command, HandlerKind};

    fn handler(timeout: Option<u64>) -> Handler {
        Handler {
            kind: HandlerKind::Command(Command {
                command: Some("true".into()),
                ..Default::default()
            }),
            timeout,
            status_message: None,
            once: None,
            extra: Default::default(),
        }
    }

    /// Kiro's `timeout: 0` is no timeout; Claude's is its default; a number is that many seconds.
    #[test]
    fn zero_timeout_is_none_only_where_the_dialect_says_so() {
        let (kiro, claude) = (crate::dialect::kiro::FLAVOR, crate::dialect::claude::FLAVOR);
        assert_eq!(handler_timeout(kiro, &handler(Some(0))), Duration::MAX);
        assert_eq!(
            handler_timeout(kiro, &handler(None)),
            Duration::from_secs(60)
        );
        assert_eq!(
            handler_timeout(kiro, &handler(Some(5))),
            Duration::from_secs(5)
        );
        assert_eq!(
            handler_timeout(claude, &handler(Some(0))),
            Duration::from_secs(claude.tables().default_timeout(&handler(None).kind))
        );
    }
}
