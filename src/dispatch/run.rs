//! Running the handlers an event fires, each in the dialect it was written for, and merging
//! their answers into one answer for the host.

use super::select::{Selected, select};
use crate::discover::Source;
use crate::model::event::{SESSION_ID, TOOL_USE_ID};
use crate::model::{Event, EventKind, Handler, HandlerKind, Outcome};
use crate::protocol::answer::{HostAnswer, decode_answer, encode_answer};
use crate::protocol::payload::{encode_event, handler_env};
use crate::shell::shell_quote;
use crate::spawn::{Batch, Exit, Finished, Spawn, Step};
use crate::tables::Rule;
use crate::tables::{Flavor, Slot};
use serde_json::Value;
use std::borrow::Cow;
use std::path::Path;
use std::time::{Duration, Instant};

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

/// A handler `simulate --dry-run` would run, and with what.
#[derive(Debug, serde::Serialize)]
pub struct WouldRun {
    pub origin: String,
    pub flavor: Flavor,
    pub command: String,
    pub stdin: Value,
}

/// Everything one event caused.
#[derive(Debug)]
pub struct Dispatch {
    pub runs: Vec<HandlerRun>,
    /// Handlers that matched but were not run, and why.
    pub skipped: Vec<String>,
    /// Handlers of files the host runs by itself that the event fires there (simulate).
    pub native: Vec<String>,
    /// What else the report says of the handlers (simulate): one written for an agent that
    /// fires the event at another rate than the host ([`crate::tables::Tables::cadence_change`]).
    pub notes: Vec<String>,
    /// `simulate --dry-run`: the handlers it would run, none of which ran.
    pub would_run: Vec<WouldRun>,
    pub outcome: Outcome,
    pub answer: HostAnswer,
    /// A handler did not answer within the budget: the answer stands in for its (the failure
    /// policy's), and a route that matched this one's claim runs the rules itself.
    pub cut_short: bool,
}

/// The environment variable that counts how many hookx dispatches run one inside the other:
/// each handler gets `DEPTH:PID`, one more than its hookx's depth and that hookx's process id,
/// and a hookx honours it only when that process is one of its own ancestors running the same
/// hookx executable ([`crate::spawn::is_this_program_above`]), so a fixed value set anywhere
/// else (a project's settings `env`) counts as depth 0. It travels through anything that keeps
/// the environment (a shell, `env`, an agent started by a hook).
pub const DEPTH_VAR: &str = "HOOKX_DEPTH";

/// Every handler `hookx run` runs (not `exec`'s) is told which event it runs for, in this
/// variable ([`event_mark`]): a `hookx run` it starts for the same event (a route inside a
/// hook: a team's wrapper script that finds hookx and runs it, a Cline route the user edited
/// run for another host) stands aside, as the hookx above runs the rules already (attacks
/// rows 381, 382). Honoured only below a hookx ([`depth`] above 0), so a value set anywhere
/// else changes nothing.
pub const EVENT_VAR: &str = "HOOKX_EVENT";

/// What tells one event from another for [`EVENT_VAR`]: its kind, its session, its tool and
/// the tool's input (keys in order: a payload hookx gives a hook may order them otherwise), as
/// hookx reads them from any agent's payload. An agent a hook starts has a session of its own,
/// or the same one resumed (Claude Code's `--resume` keeps the id): its calls differ by their
/// input, or are the very call again (attacks row 463: by kind, session and tool alone, a route
/// below a hook stood aside for another call of the session, and its guards never ran). A value
/// hookx cannot tell the same in both payloads makes the route run (twice at worst, never zero).
pub fn event_mark(event: &Event) -> String {
    let (tool, input) = match &event.tool {
        Some(t) => {
            let mut input = t.input.clone();
            input.sort_all_objects();
            (t.name.as_str(), input.to_string())
        }
        None => ("", String::new()),
    };
    let session = event.field(SESSION_ID).unwrap_or_default();
    let text = format!("{:?}\0{session}\0{tool}\0{input}", event.kind);
    let mark = crate::hash::sha256_hex(text.as_bytes());
    // The canonical call id only: the hookx above may have read another agent's payload.
    match event.field(TOOL_USE_ID).filter(|call| !call.is_empty()) {
        Some(call) => format!("{mark}:{}", crate::hash::sha256_hex(call.as_bytes())),
        None => mark,
    }
}

/// Whether this hookx runs below a hookx that runs the same event ([`EVENT_VAR`]).
pub fn runs_below_same_event(event: &Event) -> bool {
    depth() > 0
        && std::env::var(EVENT_VAR).is_ok_and(|above| same_event(&above, &event_mark(event)))
}

/// Whether two marks ([`event_mark`]) name one event: all but the call id alike, and no two
/// different call ids (a payload hookx hands a hook in a dialect without them carries none).
fn same_event(above: &str, here: &str) -> bool {
    let (above, above_call) = above.split_once(':').unwrap_or((above, ""));
    let (here, here_call) = here.split_once(':').unwrap_or((here, ""));
    above == here && (above_call.is_empty() || here_call.is_empty() || above_call == here_call)
}

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

    /// The plugin's folder, where the source is a plugin's hook file.
    fn plugin_folder(&self) -> Option<&Path> {
        None
    }
}

impl RuleSource for () {}

/// A hook file found by discovery: its folder, and a plugin's root in the plugin's variable.
impl RuleSource for Source {
    fn env(&self) -> Vec<(String, String)> {
        let var = self.dialect.config().plugin_root_var;
        let root = self
            .plugin_root()
            .zip(var)
            .map(|(root, var)| (var.to_string(), root.display().to_string()));
        // The data folder, made when missing as the agent makes it; where it cannot be, the
        // handler finds out as it would under its agent (attacks row 1045).
        let data_var = self.dialect.config().plugins.and_then(|p| p.data.as_ref());
        let data = self.plugin_data.as_ref().zip(data_var).map(|(dir, data)| {
            let _ = std::fs::create_dir_all(dir);
            (data.var.to_string(), dir.display().to_string())
        });
        root.into_iter().chain(data).collect()
    }

    fn hook_dir(&self) -> Option<&Path> {
        self.path.parent()
    }

    fn plugin_folder(&self) -> Option<&Path> {
        self.plugin_root()
    }
}

/// Fires `event` (decoded from a `host` payload) at `rules`, runs what matches and answers the
/// host, all in this process, within the time [`Limit::Route`] gives. `project_dir` is where
/// handlers run and what the project-directory variables hold.
pub fn dispatch<'a, S: RuleSource + 'a>(
    host: Flavor,
    event: &Event,
    rules: impl IntoIterator<Item = (&'a Rule, &'a S)>,
    project_dir: &Path,
) -> Dispatch {
    plan(host, event, rules, project_dir, Limit::Route).run(None)
}

/// Where the host's time limit comes from, and what a handler cut short by it means.
#[derive(Clone, Copy, Debug)]
pub enum Limit {
    /// `hookx run`'s route: the host kills it at its route limit
    /// ([`crate::tables::RouteSpec::limit`], within any [`crate::tables::ProtocolTables`]
    /// `hook_budget`). A handler still running when hookx must answer failed for want of
    /// hookx's time, not its own: the failure policy answers for it.
    Route,
    /// [`Limit::Route`] whose entry the user gave a shorter timeout than install wrote
    /// (milliseconds, [`crate::route::written_timeout_ms`]): the host kills the route there
    /// (attacks row 223). A longer one changes nothing: handlers get no more than the table's.
    RouteWritten(u64),
    /// [`Limit::Route`] run by another agent that reads the host's files itself but not the
    /// key the route's timeout is written under (VS Code reads `timeout`, Copilot's route says
    /// `timeoutSec`): that agent's default for a hook, in seconds, is the limit too.
    RouteWithin(u64),
    /// `hookx exec`'s entry, written with its one handler's timeout (`--timeout`, seconds):
    /// the host kills the entry at that timeout (its default for a hook where none is given),
    /// or at its own limit where its entries have no timeout. The handler cut short by it
    /// timed out, as it would under its own agent.
    Entry(Option<u64>),
}

/// The limit the route of `host` answers within ([`Limit::Route`]), or, run by another agent
/// that reads `host`'s files as its flavour `reader` but not the key the route's timeout is
/// written under, within that agent's default for a hook too (VS Code runs hookx's Copilot
/// route, whose `timeoutSec` it does not read, at its default of 30 s: attacks row 235).
/// `written`: the timeout the route's own entry carries, in milliseconds, where hookx read one.
pub fn route_limit(host: Flavor, reader: Option<Flavor>, written: Option<u64>) -> Limit {
    let route = written.map_or(Limit::Route, Limit::RouteWritten);
    let Some(reader) = reader else {
        return route;
    };
    // Any of the reader's keys for a timeout: Copilot reads Claude's `timeout` as well as its
    // own `timeoutSec` (attacks row 303: taken by its first key alone, the Claude route run by
    // Copilot answered within Copilot's default of 30 s, its 605 s notwithstanding, and a
    // slower trusted guard's answer was replaced by the failure policy's deny).
    let written_key = host.dialect().def().route.timeout_key;
    let reads = |key: &str| {
        reader.dialect().config().field(key) == Some(crate::tables::HandlerField::Timeout)
    };
    // Read, the key bounds the route where the entry carries it; an entry without one gets
    // the reader's own default (a Claude route with no `timeout`, run by Copilot: 30 s;
    // attacks row 312).
    match (written_key.is_some_and(reads), written) {
        (true, Some(_)) => route,
        _ => Limit::RouteWithin(
            reader
                .tables()
                .default_timeout(&crate::model::HandlerKind::Command(Default::default())),
        ),
    }
}

/// How long hookx has to answer `host` on `kind`, from the start of its dispatch: the host's
/// limit less a margin to answer in (a quarter of it, at least what killing a handler takes
/// where half the limit allows, at most 5 s); `None`: no limit.
pub fn budget(host: Flavor, kind: &EventKind, limit: Limit) -> Option<Duration> {
    let ms = limit_ms(host, kind, limit);
    if ms == u64::MAX {
        return None;
    }
    // A handler killed at the budget's end holds the answer back up to `KILL_TAKES` (its
    // group's grace): under a short limit (a route the user cut to 3 s) a quarter is less, and
    // the host killed hookx first (live, Claude Code 2.1.332). Kept where half the limit allows;
    // below that the answer does not wait for the kill ([`Plan::kill_outlasts_margin`]).
    let margin = (ms / 4).max(kill_ms().min(ms / 2)).min(MARGIN_MS);
    Some(Duration::from_millis(ms - margin))
}

/// What killing a handler takes, and printing the answer after it, in milliseconds.
fn kill_ms() -> u64 {
    u64::try_from(crate::spawn::KILL_TAKES.as_millis()).unwrap_or(u64::MAX) + KILL_SLACK_MS
}

/// The host's limit for `host`'s route on `kind` under `limit`, in milliseconds (`u64::MAX`:
/// none).
fn limit_ms(host: Flavor, kind: &EventKind, limit: Limit) -> u64 {
    let route = &host.dialect().def().route;
    let own_limit = route.limit.on(kind).saturating_mul(1000);
    let mut ms = match limit {
        Limit::Route => own_limit,
        Limit::RouteWritten(ms) => own_limit.min(ms),
        Limit::RouteWithin(secs) => own_limit.min(secs.saturating_mul(1000)),
        Limit::Entry(timeout) => {
            // The host's own limit for this event's hooks, where it has one (Codex's SessionEnd:
            // 1 s, at most 3; attacks row 2147): within it, whatever the entry says.
            let event = route.limit.event(kind);
            let entry = match timeout {
                Some(0) if host.dialect().config().zero_timeout_is_none => u64::MAX,
                Some(secs) if secs > 0 => event
                    .map_or(secs, |l| secs.min(l.most))
                    .saturating_mul(1000),
                _ => event
                    .map_or_else(
                        || {
                            host.tables()
                                .default_timeout(&crate::model::HandlerKind::Command(
                                    Default::default(),
                                ))
                        },
                        |l| l.secs,
                    )
                    .saturating_mul(1000),
            };
            match route.timeout_key {
                Some(_) => entry,
                None => entry.min(own_limit),
            }
        }
    };
    if let Some(shared) = host.tables().protocol.hook_budget(kind) {
        ms = ms.min(u64::try_from(shared.as_millis()).unwrap_or(u64::MAX));
    }
    if let Some(test) = test_limit() {
        ms = ms.min(test);
    }
    ms
}

/// When the host started this hookx, as far as hookx can tell: set by [`arm`] as `run` and
/// `exec` begin.
static STARTED: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();

/// Starts the [`budget`]'s clock: the host's limit runs from the moment it started hookx,
/// not from when the handlers start, so time spent finding and reading hook files (a project
/// can ship many) comes out of the budget instead of pushing the answer past the host's limit.
pub fn arm() {
    STARTED.get_or_init(Instant::now);
}

/// Where the budget counts from: [`arm`]'s instant, else now (`simulate`, tests).
pub fn started() -> Instant {
    STARTED.get().copied().unwrap_or_else(Instant::now)
}

/// The most of a host's limit hookx keeps to answer in.
const MARGIN_MS: u64 = 5000;

/// Beyond a kill's own time, what hookx keeps to print its answer and exit.
const KILL_SLACK_MS: u64 = 150;

/// Debug builds only: `HOOKX_TEST_HOST_LIMIT_MS` caps every host's limit, so that the tests
/// need not wait minutes. Never read by a release build: a project cannot shorten it.
fn test_limit() -> Option<u64> {
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var("HOOKX_TEST_HOST_LIMIT_MS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
    {
        return Some(ms);
    }
    None
}

/// The handlers one event fires, ready to run: see [`plan`].
pub struct Plan<'e> {
    host: Flavor,
    event: &'e Event,
    jobs: Vec<Job>,
    specs: Vec<Spawn>,
    /// Handlers that matched but will not run, and why.
    skipped: Vec<String>,
    /// Rules whose matcher could not be evaluated: the failure policy answers for them.
    unevaluated: Vec<String>,
    budget: Option<Duration>,
    limit: Limit,
    /// The session's counts of follow-ups, where a handler's agent caps them
    /// ([`Plan::keeping_follow_up_caps`]).
    counts: Option<super::follow_ups::Counts>,
    /// Handlers their own agent runs in the background, its answer ignored
    /// ([`runs_in_background`]): run past the answer, never merged into it (attacks row 1827:
    /// skipped, an async audit logger logged nothing under another agent).
    background: Vec<(Job, Spawn)>,
    /// Where what those answer is kept for the session's next event, where their own agent
    /// gives it to the model ([`Plan::keeping_late_answers`]); `None`: dropped.
    late_home: Option<std::path::PathBuf>,
}

/// Selects the handlers `event` fires among `rules` and prepares each as its own dialect runs
/// it, to run within `limit`.
pub fn plan<'a, 'e, S: RuleSource + 'a>(
    host: Flavor,
    event: &'e Event,
    rules: impl IntoIterator<Item = (&'a Rule, &'a S)>,
    project_dir: &Path,
    limit: Limit,
) -> Plan<'e> {
    let (selected, invalid) = select(rules, event);
    let mut skipped: Vec<String> = invalid
        .iter()
        .map(|s| format!("{}: skipped: {}", describe(s.rule), s.reason))
        .collect();
    // A rule whose matcher could not be evaluated may have fired: the failure policy answers.
    let unevaluated: Vec<String> = invalid
        .iter()
        .filter(|s| s.unevaluable())
        .map(|s| format!("{}: {}", describe(s.rule), s.reason))
        .collect();
    let mut jobs = Vec::new();
    let mut specs = Vec::new();
    let mut background = Vec::new();
    // Only a route runs the event's rules: below `exec`'s one handler, a route is the one
    // that runs them (a converted copy of a team's wrapper). One digest for all handlers.
    let mark =
        (!matches!(limit, Limit::Entry(_)) && !selected.is_empty()).then(|| event_mark(event));
    for s in &selected {
        // A firing beyond what the event names, which the rule's agent never fires (Qwen's
        // UserPromptSubmit after tool results; attacks row 1780).
        if host.tables().repeated_firing(s.rule.flavor.tables(), event) {
            skipped.push(format!(
                "{}: skipped: {} fires `{}` before every model request; this one is no firing \
                 of what the event names, which its {} rule is written for",
                describe(s.rule),
                host.dialect().def().product,
                host.tables().event_name(&event.kind).unwrap_or_default(),
                s.rule.flavor.name()
            ));
            continue;
        }
        match prepare(s, host, event, project_dir) {
            Ok((job, mut spec)) => {
                if let Some(mark) = &mark {
                    spec.env.push((EVENT_VAR.to_string(), mark.clone()));
                }
                match runs_in_background(s.rule.flavor, s.handler) {
                    true => background.push((job, spec)),
                    false => {
                        jobs.push(job);
                        specs.push(spec);
                    }
                }
            }
            Err(why) => skipped.push(format!("{}: skipped: {why}", describe(s.rule))),
        }
    }
    Plan {
        host,
        event,
        jobs,
        specs,
        skipped,
        unevaluated,
        budget: budget(host, &event.kind, limit),
        limit,
        counts: None,
        background,
        late_home: None,
    }
}

impl Plan<'_> {
    /// Runs `other`'s handlers too, a plan of the same event and limit (the rules of another
    /// folder's project files: [`crate::dispatch::host::HostEvent::above`]).
    pub fn absorb(&mut self, other: Plan<'_>) {
        self.jobs.extend(other.jobs);
        self.specs.extend(other.specs);
        self.skipped.extend(other.skipped);
        self.unevaluated.extend(other.unevaluated);
        self.background.extend(other.background);
    }

    /// What it would run, running nothing (`simulate --dry-run`): the handlers, what each
    /// would get, and those it would skip; the answer is the host's to no handler.
    pub fn preview(self) -> Dispatch {
        let would_run = self
            .jobs
            .into_iter()
            .zip(&self.specs)
            .map(|(job, spec)| WouldRun {
                origin: job.origin,
                flavor: job.flavor,
                command: spec.command_line.clone(),
                stdin: job.stdin,
            })
            .collect();
        let notes = self
            .background
            .iter()
            .map(|(job, _)| format!("{}: {WOULD_RUN_BEHIND}", job.origin))
            .collect();
        let outcome = Outcome::default();
        Dispatch {
            runs: Vec::new(),
            skipped: self.skipped,
            native: Vec::new(),
            notes,
            would_run,
            answer: encode_answer(self.host, self.event, &outcome),
            outcome,
            cut_short: false,
        }
    }

    /// Tells the handlers the event they run for ([`EVENT_VAR`]), as a route's are told:
    /// `exec`'s one handler where a route of hookx's runs the event's rules beside it (a
    /// converted copy of a team's wrapper under Codex with hookx's Codex route: the route
    /// inside the copy ran every rule a second time, attacks row 421).
    pub fn marking_event(mut self) -> Self {
        for spec in &mut self.specs {
            spec.env
                .push((EVENT_VAR.to_string(), event_mark(self.event)));
        }
        self
    }

    /// Keeps the cap each handler's own agent keeps on its follow-ups in a row (Cursor's
    /// `loop_limit`), counted per session under `home` ([`super::follow_ups`]); `Err`: there
    /// is none, and no follow-up is passed on.
    pub fn keeping_follow_up_caps(mut self, home: Result<&Path, String>) -> Self {
        if self.jobs.iter().any(|j| j.cap.is_some()) {
            let caps = self
                .jobs
                .iter_mut()
                .filter_map(|j| Some((j.cap.as_mut()?, &mut j.stdin)));
            self.counts = Some(super::follow_ups::Counts::load(home, self.event, caps));
            for (job, spec) in self.jobs.iter().zip(&mut self.specs) {
                if job.cap.is_some() {
                    spec.stdin = serde_json::to_vec(&job.stdin).unwrap_or_default();
                }
            }
        }
        self
    }

    /// Gives each handler the count of its follow-ups in a row where its agent does (Cursor's
    /// `loop_count`), read as [`Plan::keeping_follow_up_caps`] reads it, without keeping the
    /// caps: `simulate` shows and runs the payload `run` gives, and counts nothing of a
    /// session's (attacks row 1763: `simulate --dry-run` showed a Cursor `stop` hook's payload
    /// without `loop_count`).
    pub fn showing_follow_up_counts(self, home: &Path) -> Self {
        let mut plan = self.keeping_follow_up_caps(Ok(home));
        plan.counts = None;
        plan
    }

    /// Keeps what its background handlers answer, where their own agent gives it to the model
    /// later ([`crate::tables::ProtocolTables::late_answer`]), in `home` for the session's next
    /// event whose answer the host takes context from ([`super::carry::keep_late`]).
    pub fn keeping_late_answers(mut self, home: &Path) -> Self {
        self.late_home = Some(home.to_path_buf());
        self
    }

    /// How many handlers it starts (at most) whose answers make the answer.
    pub fn handlers(&self) -> usize {
        self.specs.len()
    }

    /// How many handlers it runs in the background, past the answer ([`runs_in_background`]).
    pub fn in_background(&self) -> usize {
        self.background.len()
    }

    /// How long it has to answer the host, from its start; `None`: no limit.
    pub fn budget(&self) -> Option<Duration> {
        self.budget
    }

    /// Whether a handler killed at the budget's end could hold the answer past the host's
    /// limit: under 2.5 s or so (a route the user cut to 2 s, Codex's 1 s `SessionEnd`), the
    /// margin cannot keep a kill's time (attacks row 341), so the answer must not wait for it.
    pub fn kill_outlasts_margin(&self) -> bool {
        let ms = limit_ms(self.host, &self.event.kind, self.limit);
        ms != u64::MAX && ms / 2 < kill_ms()
    }

    /// Runs the handlers and merges their answers into the host's.
    ///
    /// With `answer`, it is called once with the answer as soon as it is known: when every
    /// handler has ended, when a deny has come (no later answer can undo it), or when the
    /// budget is spent, a handler still running then counting as failed. The handlers still
    /// running go on within their own timeouts (a host that runs handlers one by one gets the
    /// rest started too, unless it stops at a deny) before this returns; their answers change
    /// nothing. Without `answer`, every handler is waited for, each killed when the budget is
    /// spent at the latest.
    pub fn run(self, mut answer: Option<&mut dyn FnMut(&Dispatch)>) -> Dispatch {
        // One handler answered early (a kill would outlast the host's limit, attacks row 341)
        // is still killed when the budget is spent, as one answered after it is: the answer
        // only does not wait for the kill.
        let kill_at_budget = answer.is_none() || self.handlers() == 1;
        let Plan {
            host,
            event,
            mut jobs,
            specs,
            mut skipped,
            unevaluated,
            budget,
            limit,
            mut counts,
            background,
            late_home,
        } = self;
        let tables = host.tables();
        let deadline = budget.and_then(|b| started().checked_add(b));
        let kill_by = deadline.filter(|_| kill_at_budget);
        let due = deadline.filter(|_| answer.is_some());
        let mut batch = Batch::new(&specs, tables.parallel, kill_by, due);
        let mut ended: Vec<Option<(Finished, Outcome)>> = jobs.iter().map(|_| None).collect();
        let mut spent = false;
        let mut stopped = false;
        let mut cut = Vec::new();
        let mut final_deny = false;
        let mut denied_once = false;
        // A deny is final unless a handler still to answer could stop the agent and the
        // host would be told (`continue: false`): that answer is more than the deny, so it is
        // waited for, within the budget like any other.
        let host_stops = tables.protocol.can_stop_the_agent(&event.kind);
        let may_stop: Vec<bool> = jobs
            .iter()
            .map(|j| host_stops && j.flavor.tables().protocol.asks_to_stop())
            .collect();
        // A handler whose agent takes a replaced result on this event (a redactor's
        // `updatedToolOutput`, `modifiedResult`) that hookx's time cuts short may have withheld
        // the result: the model is not given it (attacks row 1963).
        let may_replace: Vec<bool> = jobs
            .iter()
            .map(|j| {
                event.tool.is_some()
                    && (j.flavor.tables().protocol).writes(Slot::ToolResult, &event.kind)
            })
            .collect();
        let mut late_may_replace = false;
        // A host that runs its hooks one after another, each given the call as the ones
        // before it rewrote it (Copilot CLI 1.0.102, attacks rows 2043, 2200): the call as
        // rewritten so far, once a handler has rewritten it. A handler whose own agent does
        // so too is given it, and its rewrite is of it; one whose agent gives each hook the
        // model's call is given that, as it was written for (two such rewrites, each of the
        // original, deny: attacks row 1022).
        let chain = !tables.parallel && tables.rewrites_chain && event.tool.is_some();
        let mut chained: Option<Event> = None;
        let mut given: Vec<Option<Event>> = jobs.iter().map(|_| None).collect();
        while let Some(step) = match final_deny {
            // Those that ended with it still count; nothing more is waited for.
            true => batch.next_ended(),
            false => batch.next(),
        } {
            let (index, finished, was_cut) = match step {
                Step::Ended {
                    index,
                    finished,
                    cut,
                } => (index, finished, cut),
                Step::Due => {
                    spent = true;
                    break;
                }
            };
            let job = &jobs[index];
            let mut one = job.read(host, given[index].as_ref().unwrap_or(event), &finished);
            if let (Some(counts), Some(cap)) = (&mut counts, &job.cap) {
                one = counts.settle(cap, one, &job.origin, &mut skipped);
            }
            if was_cut {
                cut.push(index);
            }
            let denied = one.decision == Some(crate::model::Decision::Deny);
            ended[index] = Some((finished, one));
            if denied && tables.first_deny_stops_the_rest {
                batch.stop_starting();
                stopped = true;
            }
            denied_once |= denied;
            if chain {
                if let Some(input) = (ended[index].as_ref())
                    .and_then(|(_, one)| one.updated_input.clone())
                    .filter(|_| !denied)
                {
                    let mut call = chained.take().unwrap_or_else(|| event.clone());
                    if let Some(tool) = &mut call.tool {
                        tool.input = input;
                    }
                    chained = Some(call);
                }
                // The next in order starts on the next step: it is given the call as it is now.
                if let (Some(call), Some(next)) = (&chained, jobs.get_mut(index + 1))
                    && next.flavor.tables().rewrites_chain
                    && !batch.is_started(index + 1)
                {
                    let seen = crate::protocol::failed::seen_as(call, &next.seen);
                    next.stdin = encode_event(&seen, next.flavor);
                    batch.set_stdin(
                        index + 1,
                        serde_json::to_vec(&next.stdin).unwrap_or_default(),
                    );
                    given[index + 1] = Some(call.clone());
                }
            }
            // Final: no later answer undoes a deny, and none still to come could stop the
            // agent (one of a host that stops at the first deny never starts).
            final_deny = denied_once
                && answer.is_some()
                && !(0..jobs.len()).any(|j| {
                    may_stop[j] && ended[j].is_none() && (!stopped || batch.is_started(j))
                });
        }
        if let Some(counts) = &counts {
            counts.finish(&mut skipped);
        }
        let mut outcome = Outcome::default();
        if !unevaluated.is_empty() {
            outcome.merge(super::failure::outcome(
                host,
                &event.kind,
                &unevaluated.join("; "),
            ));
        }
        let mut runs = Vec::new();
        let mut late = Vec::new();
        for (index, (job, spec)) in jobs.into_iter().zip(&specs).enumerate() {
            match ended[index].take() {
                Some((finished, one)) => {
                    // Chained, a later rewrite is of the call as the earlier ones left it.
                    if given[index].is_some() && one.updated_input.is_some() {
                        outcome.updated_input = None;
                    }
                    outcome.merge(one.clone());
                    runs.push(HandlerRun {
                        flavor: job.flavor,
                        command_line: spec.command_line.clone(),
                        origin: job.origin,
                        stdin: job.stdin,
                        env: spec.env.clone(),
                        finished,
                        outcome: one,
                    });
                    if cut.contains(&index) {
                        late.push(runs[runs.len() - 1].origin.clone());
                        late_may_replace |= may_replace[index];
                    }
                }
                None if stopped && !batch.is_started(index) => skipped.push(format!(
                    "{}: not run: a handler before it denied, and {} stops at the first deny",
                    job.origin,
                    host.dialect()
                )),
                None if spent => {
                    // An entry's one handler cut at the entry's limit timed out, as under its
                    // own agent, whether the answer waits for its kill or not (attacks row 2222).
                    if matches!(limit, Limit::Entry(_)) {
                        let timed_out = crate::spawn::Finished {
                            exit: Exit::TimedOut,
                            stdout: Vec::new(),
                            stderr: Vec::new(),
                            stdout_truncated: false,
                            stderr_truncated: false,
                            elapsed: Duration::ZERO,
                        };
                        outcome.merge(job.read(host, event, &timed_out));
                    }
                    late.push(job.origin);
                    late_may_replace |= may_replace[index];
                }
                None if !batch.is_started(index) => skipped.push(format!(
                    "{}: runs after the answer: a handler before it denied",
                    job.origin
                )),
                None => skipped.push(format!(
                    "{}: still running when a deny came; its answer is not waited for",
                    job.origin
                )),
            }
        }
        let cut_short = !late.is_empty();
        if cut_short
            && matches!(
                limit,
                Limit::Route | Limit::RouteWritten(_) | Limit::RouteWithin(_)
            )
        {
            let secs = budget.unwrap_or_default().as_secs_f64();
            let why = format!(
                "{} did not answer within the {secs:.1} s hookx has to answer {} in",
                late.join(", "),
                host.dialect().def().display
            );
            skipped.push(format!("{why}; hookx answered without it"));
            outcome.merge(super::failure::outcome(host, &event.kind, &why));
            if late_may_replace {
                outcome.modified_result = Some(Value::String(format!(
                    "hookx withheld this tool result: {why}, and it may have replaced it"
                )));
                outcome.modified_result_of = "";
            }
        }
        if outcome.decision == Some(crate::model::Decision::Deny)
            && tables.first_deny_stops_the_rest
        {
            batch.stop_starting();
        }
        let answered = encode_answer(host, event, &outcome);
        let dispatch = Dispatch {
            runs,
            skipped,
            native: Vec::new(),
            notes: Vec::new(),
            would_run: Vec::new(),
            outcome,
            answer: answered,
            cut_short,
        };
        match answer.as_mut() {
            Some(answer) => {
                answer(&dispatch);
                batch.finish();
                // Past the answer, within their own timeouts.
                let (_, late) = run_behind(host, event, &background, None);
                if let Some(home) = &late_home {
                    // Past the answer: nobody would read why it was not kept.
                    let _ = super::carry::keep_late(home, event, &late);
                }
                dispatch
            }
            None => {
                // No answer handed over before the end (one process: `simulate`, or no
                // second process for the route): they run before it, within the budget.
                let mut dispatch = dispatch;
                let (notes, late) = run_behind(host, event, &background, kill_by);
                dispatch.notes.extend(notes);
                if let Some(home) = &late_home
                    && let Err(why) = super::carry::keep_late(home, event, &late)
                {
                    dispatch.notes.push(format!(
                        "a background handler's answer, kept for the next event: not kept: {why}"
                    ));
                }
                dispatch
            }
        }
    }
}

/// What `simulate --dry-run` says of a handler it would run in the background.
const WOULD_RUN_BEHIND: &str = "would run in the background, as its own agent runs it (async): \
     its answer counts for nothing";

/// Runs the handlers their own agent runs in the background (`background`, with where each
/// was written), each within its own timeout and killed at `kill_by` at the latest; what each
/// did, for the report; and the texts they answered that their own agent gives the model
/// later ([`crate::tables::ProtocolTables::late_answer`]: messages, then context, as Claude
/// Code 2.1.332 gave them, live). Their answers count for nothing else.
fn run_behind(
    host: Flavor,
    event: &Event,
    background: &[(Job, Spawn)],
    kill_by: Option<Instant>,
) -> (Vec<String>, Vec<String>) {
    if background.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let specs: Vec<Spawn> = background.iter().map(|(_, spec)| spec.clone()).collect();
    let mut batch = Batch::new(&specs, true, kill_by, None);
    let mut ended = vec![String::new(); specs.len()];
    let mut late: Vec<Option<Vec<String>>> = vec![None; specs.len()];
    while let Some(step) = batch.next() {
        if let Step::Ended {
            index, finished, ..
        } = step
        {
            let job = &background[index].0;
            if job.flavor.tables().protocol.late_answer && finished.exit == Exit::Code(0) {
                let one = job.read(host, event, &finished);
                late[index] = Some(
                    (one.system_messages.into_iter())
                        .chain(one.additional_context)
                        .collect(),
                );
            }
            ended[index] = match finished.exit {
                Exit::Code(code) => format!("with exit {code}"),
                Exit::Signal(signal) => format!("killed by signal {signal}"),
                Exit::TimedOut => "at its timeout".into(),
                Exit::FailedToStart(why) => format!("unstarted: {why}"),
            };
        }
    }
    let notes = background
        .iter()
        .zip(ended)
        .map(|((job, _), exit)| {
            format!(
                "{}: ran in the background, as its own agent runs it (async), and ended \
                 {exit}; its answer counts for nothing",
                job.origin
            )
        })
        .collect();
    (notes, late.into_iter().flatten().flatten().collect())
}

/// What one job's process printed and how it ended, read as its own dialect reads it.
impl Job {
    fn read(&self, host: Flavor, event: &Event, finished: &Finished) -> Outcome {
        let seen = crate::protocol::failed::seen_as(event, &self.seen);
        let mut one = if self.failure_blocks && !matches!(finished.exit, Exit::Code(0 | 2)) {
            let blocking = Finished {
                exit: Exit::Code(2),
                ..finished.clone()
            };
            decode_answer(self.flavor, &seen, &blocking)
        } else {
            decode_answer(self.flavor, &seen, finished)
        };
        crate::protocol::answer::allow_as_its_agent_reads_it(
            host,
            self.flavor,
            &event.kind,
            &mut one,
        );
        for e in &mut one.errors {
            *e = format!("{}: {e}", self.origin);
        }
        one
    }
}

struct Job {
    flavor: Flavor,
    /// The event its handler was shown, as its own agent names it ([`prepare`]): its answer
    /// is read as its agent reads one to that event.
    seen: crate::model::EventKind,
    /// The cap its agent keeps on its follow-ups, and their count.
    cap: Option<super::follow_ups::Cap>,
    /// A failure counts as exit 2 (Claude `onFailure: "block"`).
    failure_blocks: bool,
    origin: String,
    stdin: Value,
}

/// How long a handler of `flavor` may run. `timeout: 0` is "no timeout" where the dialect says
/// so (a duration too long to add is none at all); elsewhere it would kill the hook at once: it
/// means the default (`validate` warns).
pub fn handler_timeout(flavor: Flavor, handler: &Handler) -> Duration {
    match handler.timeout {
        Some(0) if flavor.dialect().config().zero_timeout_is_none => Duration::MAX,
        asked => Duration::from_secs(
            asked
                .filter(|t| *t > 0)
                .unwrap_or_else(|| flavor.tables().default_timeout(&handler.kind)),
        ),
    }
}

/// `timeout`, within the time the handler's own agent gives all hooks of `kind`
/// ([`crate::tables::ProtocolTables::hook_budget`]): Claude cuts a SessionEnd hook at 1.5 s,
/// and the same handler under Gemini CLI, which awaits SessionEnd hooks before it exits, held
/// its exit for the handler's 600 s (attacks row 1324).
fn own_budget(flavor: Flavor, kind: &crate::model::EventKind, timeout: Duration) -> Duration {
    match flavor.tables().protocol.hook_budget(kind) {
        Some(budget) => timeout.min(budget),
        None => timeout,
    }
}

/// Whether its own agent runs `handler` in the background and ignores its answer (Claude's
/// and Qwen's `async: true`, Claude's `asyncRewake`): the route runs it past its answer.
pub fn runs_in_background(flavor: Flavor, handler: &Handler) -> bool {
    let keys = &flavor.dialect().config().run_keys;
    let is_async = matches!(&handler.kind, HandlerKind::Command(c) if c.is_async == Some(true));
    is_async
        || keys
            .background
            .iter()
            .any(|k| handler.extra.get(*k) == Some(&Value::Bool(true)))
}

/// The process for one selected handler: its own dialect's payload, environment and timeout.
fn prepare<S: RuleSource>(
    selected: &Selected<'_, S>,
    host: Flavor,
    event: &Event,
    project_dir: &Path,
) -> Result<(Job, Spawn), String> {
    let flavor = selected.rule.flavor;
    // Under the name of the rule's own event: the other post event where the host fired one
    // for a call whose failure the rule's agent tells apart (attacks rows 1552, 1553).
    let seen = crate::protocol::failed::seen_as(event, &selected.rule.event);
    let event: &Event = &seen;
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
        .is_some_and(|f| handler.extra.get(f.key).is_some_and(|v| f.blocks_on(v)));
    let project = project_dir.display().to_string();
    let stdin = encode_event(event, flavor);
    let hook_dir = selected.source.hook_dir().map(|d| d.display().to_string());
    let mut env = handler_env(event, flavor, &project, hook_dir.as_deref());
    let line = match selected.source.plugin_folder() {
        Some(root) => plugin_text_in(&line, flavor, root, &project).unwrap_or(line),
        None => line,
    };
    let line = in_command_text(&line, flavor, &env).unwrap_or(line);
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
    let origin = describe(selected.rule);
    let cap = super::follow_ups::cap(flavor, event, handler, format!("{origin}\n{line}"));
    let spec = Spawn {
        command_line: line,
        stdin: serde_json::to_vec(&stdin).unwrap_or_default(),
        env,
        env_remove,
        cwd: Some(cwd),
        timeout: own_budget(flavor, &event.kind, handler_timeout(flavor, handler)),
    };
    let job = Job {
        flavor,
        seen: selected.rule.event.clone(),
        cap,
        failure_blocks,
        origin,
        stdin,
    };
    Ok((job, spec))
}

/// `line` with the `${KEY}`s its agent replaces in a plugin's hook file when it loads it
/// ([`crate::tables::ConfigSpec::plugin_text`]): a Gemini extension's guard
/// `${extensionPath}${/}hooks${/}guard.sh`, run by hookx under another host, was a "Bad
/// substitution" to the shell, and every call was denied for it (attacks row 1047). Raw text,
/// as the agent writes it; any other `${…}` is left to the shell. `None`: nothing replaced.
fn plugin_text_in(line: &str, flavor: Flavor, root: &Path, project: &str) -> Option<String> {
    use crate::tables::PluginText;
    let keys = flavor.dialect().config().plugin_text;
    if keys.is_empty() || !line.contains("${") {
        return None;
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("${") {
        let Some(len) = rest[at + 2..].find('}') else {
            break;
        };
        out.push_str(&rest[..at]);
        match keys
            .iter()
            .find(|(key, _)| *key == &rest[at + 2..at + 2 + len])
        {
            Some((_, PluginText::Root)) => out.push_str(&root.to_string_lossy()),
            Some((_, PluginText::Project)) => out.push_str(project),
            Some((_, PluginText::Literal(text))) => out.push_str(text),
            None => out.push_str(&rest[at..at + 3 + len]),
        }
        rest = &rest[at + 3 + len..];
    }
    out.push_str(rest);
    Some(out)
}

/// `line` with the values its agent writes into a command's text ([`ProtocolTables::
/// command_text_env`], from `env`), quoted so that the shell reads each as one word where the
/// agent's own quoting does too: Gemini's guard `$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh`,
/// in a folder with a space in its path, was split into two words under hookx and not found:
/// every call was denied for it (attacks row 1040). Quoted for where the `$` stands: bare, as
/// the agent quotes it; in double quotes, escaped (the agent's quotes would break the word
/// there; hookx keeps it one); in single quotes, as it stands; after a backslash, left to
/// the shell, which finds the same value in the handler's environment.
///
/// [`ProtocolTables::command_text_env`]: crate::tables::ProtocolTables::command_text_env
/// `None`: the line has none of them.
fn in_command_text(line: &str, flavor: Flavor, env: &[(String, String)]) -> Option<String> {
    use crate::shell::{Quoting, double_quoted_inside, replace_names};
    let replaced = replace_names(
        line,
        flavor.tables().protocol.command_text_env,
        |name, tail, quoting| {
            // A name hookx never sets (`GEMINI_PLANS_DIR`, below the agent's own folders) is
            // left to the shell, which finds the agent's value in the environment where there
            // is one.
            if !flavor.tables().protocol.env.iter().any(|(n, _)| *n == name) {
                return None;
            }
            // A value hookx left out (none in the payload) is empty, as the agent writes it.
            let value = env.iter().find(|(n, _)| n == name).map_or("", |(_, v)| v);
            let value = match quoting {
                Quoting::Escaped | Quoting::EscapedInDouble => return None,
                Quoting::Bare if value.is_empty() => String::new(),
                Quoting::Bare => shell_quote(value),
                Quoting::Double => double_quoted_inside(value),
                Quoting::Single => value.replace('\'', r"'\''"),
            };
            Some(value + tail)
        },
    );
    match replaced {
        Cow::Owned(line) => Some(line),
        Cow::Borrowed(_) => None,
    }
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

    /// Attacks row 303: a route run by another agent that reads the route's timeout key among
    /// its own (Copilot reads a Claude handler's `timeout`, live 1.0.102) keeps the route's
    /// limit; one that does not (VS Code and Copilot's `timeoutSec`, row 235) answers within
    /// that agent's default. Row 312: so does an entry without a timeout, which the agent
    /// running it gives its own default.
    #[test]
    fn a_route_keeps_its_limit_where_the_agent_running_it_reads_its_timeout() {
        use crate::dialect::{claude, copilot, vscode};
        let pre = EventKind::PreToolUse;
        let secs = |host: Flavor, reader: Flavor, written: Option<u64>| {
            budget(host, &pre, route_limit(host, Some(reader), written)).map(|d| d.as_secs())
        };
        let own = |host: Flavor| budget(host, &pre, Limit::Route).map(|d| d.as_secs());
        let install = Some(605_000);
        assert_eq!(
            secs(claude::FLAVOR, copilot::PASCAL, install),
            own(claude::FLAVOR)
        );
        assert_eq!(own(claude::FLAVOR), Some(600));
        assert_eq!(secs(claude::FLAVOR, copilot::PASCAL, None), Some(25));
        assert_eq!(secs(copilot::FLAVOR, vscode::FLAVOR, install), Some(25));
    }

    /// The time hookx has to answer: the host's limit less a quarter of it, at most 5 s; for a
    /// wrapped entry, the handler's own timeout (what convert writes on the entry), within the
    /// host's fixed limit where its entries have no timeout.
    #[test]
    fn the_budget_is_the_hosts_limit_less_a_margin() {
        use crate::dialect::{cline, codex, copilot, kiro};
        let pre = EventKind::PreToolUse;
        let ms = |d: Option<Duration>| d.map(|d| d.as_millis());
        for &flavor in Flavor::all() {
            let limit = u128::from(flavor.dialect().def().route.limit.on(&pre)) * 1000;
            let expected = limit - (limit / 4).max(1250.min(limit / 2)).min(5000);
            assert_eq!(ms(budget(flavor, &pre, Limit::Route)), Some(expected));
        }
        assert_eq!(
            ms(budget(copilot::FLAVOR, &pre, Limit::Route)),
            Some(600_000)
        );
        assert_eq!(ms(budget(cline::FLAVOR, &pre, Limit::Route)), Some(115_000));
        let end = EventKind::SessionEnd;
        // Under 1 s, half: a handler killed there still holds the answer back 1.1 s.
        assert_eq!(ms(budget(codex::FLAVOR, &end, Limit::Route)), Some(500));
        // `exec`'s entry there too: Codex's 1 s where it gives none, at most 3 s whatever it
        // gives (attacks row 2147: the command default, 600 s, was taken).
        assert_eq!(
            ms(budget(codex::FLAVOR, &end, Limit::Entry(None))),
            Some(500)
        );
        assert_eq!(
            ms(budget(codex::FLAVOR, &end, Limit::Entry(Some(60)))),
            Some(1_750)
        );
        assert_eq!(
            ms(budget(codex::FLAVOR, &pre, Limit::Entry(None))),
            Some(595_000)
        );
        // Copilot's default for a hook (30 s) where the entry says none.
        assert_eq!(
            ms(budget(copilot::FLAVOR, &pre, Limit::Entry(None))),
            Some(25_000)
        );
        assert_eq!(
            ms(budget(copilot::FLAVOR, &pre, Limit::Entry(Some(900)))),
            Some(895_000)
        );
        assert_eq!(
            ms(budget(cline::FLAVOR, &pre, Limit::Entry(Some(600)))),
            Some(115_000)
        );
        // Kiro's `timeout: 0` is none: nothing ends the entry.
        assert_eq!(ms(budget(kiro::FLAVOR, &pre, Limit::Entry(Some(0)))), None);
        // A route the user shortened to 30 s is killed there; a longer one gives no more.
        let claude = crate::dialect::claude::FLAVOR;
        assert_eq!(
            ms(budget(claude, &pre, Limit::RouteWritten(30_000))),
            Some(25_000)
        );
        // 3 s: the kill's 1.25 s kept, not a quarter.
        assert_eq!(
            ms(budget(claude, &pre, Limit::RouteWritten(3_000))),
            Some(1_750)
        );
        assert_eq!(
            ms(budget(claude, &pre, Limit::RouteWritten(900_000))),
            ms(budget(claude, &pre, Limit::Route))
        );
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
