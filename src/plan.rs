//! The plan: who runs each rule under an agent, so that it runs exactly once per event.
//!
//! A rule and every copy `convert` made of it are one rule. A copy is recognised by the
//! provenance record `convert` writes on each handler it converts (`"hookx": {"source": FILE,
//! "rule": POINTER, "index": I, …}`, [`crate::config::MARKER`]): the file the rule was first
//! written in, its pointer there and the handler's place in its group. A handler without a
//! record is its own rule. A hand-made copy with the same content is a different rule here
//! (doctor may call it a likely copy; it is never merged).
//!
//! Under a host, each copy stands one of four ways:
//! - the host reads it itself and hands it the payload it was written for (a copy in the host's
//!   own files, the original or one wrapped in `hookx exec --as D`);
//! - the host reads it itself with its own payload (Copilot and Cursor reading Claude's files,
//!   [`crate::tables::ConfigSpec::reads_foreign_as`]), where no setting turns that run off
//!   (the switch an agent offers for a whole file is a person's to take:
//!   [`crate::tables::ForeignSwitch`]);
//! - hookx runs it through its route (`hookx run`), once the file is trusted: a copy of a
//!   file the host does not read, or one the host reads but leaves to hookx by a setting of
//!   its own that `hookx install` writes (Copilot's `disabledHooks`,
//!   [`crate::tables::HookSwitch`]), so that it gets the payload it was written for;
//! - nobody runs it (a skill's or a plugin's that is off).
//!
//! The runner of a rule is, in this order: the host, through the first copy it reads with the
//! right payload; else the host with its own payload (a run hookx cannot stop: had hookx run a
//! copy too, the rule would run twice; `doctor` warns and `list` says so); else hookx, through
//! one trusted copy (the original where hookx runs it, else the first in discovery order),
//! where the host sends the rule's event at all; else nobody (every copy hookx could run is
//! untrusted, or no route can bring the event to hookx). `hookx run` runs a copy only when it
//! is its rule's runner ([`Plan::runs`]); `hookx list` shows the plan, one line per rule
//! ([`Plan::rules`]).
//!
//! ```no_run
//! use hookx::discover::{self, Context};
//! use hookx::tables::Dialect;
//! use hookx::trust::TrustStore;
//!
//! let ctx = Context::resolve(None, None).unwrap();
//! let store = TrustStore::load_or_empty(&ctx);
//! let sources = discover::discover_trusting(&ctx, &store);
//! let plan = hookx::plan::plan(&sources, Dialect::named("gemini").unwrap(), &store);
//! for rule in plan.rules() {
//!     println!("{} {}: {}", rule.event, rule.handler, rule.runner);
//! }
//! ```

use crate::config::MARKER;
use crate::discover::{self, Runner as SourceRunner, Source};
use crate::model::{Handler, HandlerKind};
use crate::tables::{Dialect, Flavor, Rule, Scope};
use crate::trust::{TrustState, TrustStore};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A rule's identity: the file it was first written in (resolved through symlinks where it
/// exists), its pointer there (a hook script's file name), and the handler's place in its
/// group.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleKey {
    pub file: PathBuf,
    pub rule: String,
    pub index: usize,
}

/// Who runs a rule under a host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Runner {
    /// The host itself, from `file` (as people read it), with the payload the rule was
    /// written for.
    Agent { host: Dialect, file: String },
    /// The host itself, from `file`, but handing it its own payload (`payload`, a flavour): no
    /// copy of the host's own gets the right one, and a run of hookx's would be a second run.
    AgentOwnPayload {
        host: Dialect,
        file: String,
        payload: Flavor,
    },
    /// hookx, through its route, running the copy in `file`.
    Hookx { file: String },
    /// Nobody: `why`.
    Nobody { why: String },
}

impl std::fmt::Display for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Runner::Agent { host, file } => write!(f, "{host} runs {file}"),
            Runner::AgentOwnPayload {
                host,
                file,
                payload,
            } => write!(f, "{host} runs {file} with its {payload} payload"),
            Runner::Hookx { file } => write!(f, "hookx runs {file}"),
            Runner::Nobody { why } => write!(f, "nobody ({why})"),
        }
    }
}

/// One rule of the plan.
#[derive(Clone, Debug)]
pub struct Planned {
    pub key: RuleKey,
    /// The canonical event, the matcher and the command (or prompt) as the rule was written,
    /// where the original is among the sources, else as the first copy records them.
    pub event: String,
    pub matcher: Option<String>,
    pub handler: String,
    pub runner: Runner,
    /// Other runs of the rule nothing hookx does can stop, each a sentence: the host reading
    /// a copy itself with its own payload, or a second copy of its own.
    pub also: Vec<String>,
    /// The files holding a copy hookx leaves out (it has another runner).
    pub skipped: Vec<String>,
    /// Where the host fires the rule's event at another rate than the agent it was written
    /// for, how ([`crate::tables::Tables::cadence_change`], attacks row 1761), or not after a
    /// failed call its agent fires it after ([`unfired_change`], attacks row 2021).
    pub cadence: Option<String>,
}

/// Who runs each rule under one host.
#[derive(Debug)]
pub struct Plan {
    pub host: Dialect,
    rules: Vec<Planned>,
    /// Each copy hookx would run (its file as found, rule pointer, handler index) → whether
    /// it is its rule's runner.
    hookx_runs: HashMap<(PathBuf, String, usize), bool>,
    /// Each copy (as above) → its rule.
    keys: HashMap<(PathBuf, String, usize), usize>,
    /// Each copy the host runs itself beside its rule's runner (one of [`Planned::also`]).
    beside: HashSet<(PathBuf, String, usize)>,
    /// Each `hookx exec` copy in another agent's file the host reads that stands aside for
    /// the rule's copy in a file of the host's own ([`runs_from_own_file`]) → that file.
    aside: HashMap<(PathBuf, String, usize), PathBuf>,
    /// Each rule the host runs itself (by its place in `rules`) → the copy it runs it from
    /// (its file, resolved, rule pointer, handler index).
    host_runs_from: HashMap<usize, (PathBuf, String, usize)>,
}

impl Plan {
    /// Every rule with its runner, in the order the rules were first met.
    pub fn rules(&self) -> &[Planned] {
        &self.rules
    }

    /// Whether `hookx run` runs `rule`'s handler at `index` (its place in the rule as
    /// written) from `source`: `false` when the rule has another runner under this host. A
    /// copy the plan did not see runs.
    pub fn runs(&self, source: &Source, rule: &Rule, index: usize) -> bool {
        self.hookx_runs
            .get(&(source.path.clone(), copy_rule_id(rule), index))
            .copied()
            .unwrap_or(true)
    }

    /// Whether hookx runs that handler as its rule's runner (a copy in a file the host reads
    /// itself included).
    pub fn through_hookx(&self, source: &Source, rule: &Rule, index: usize) -> bool {
        self.hookx_runs
            .get(&(source.path.clone(), copy_rule_id(rule), index))
            .copied()
            .unwrap_or(false)
    }

    /// Where the host runs `source`'s handler at `index` of `rule` itself: the copy it runs
    /// it from (its file, resolved, and rule pointer, [`copy_rule_id`]).
    pub fn host_copy(&self, source: &Source, rule: &Rule, index: usize) -> Option<(&Path, &str)> {
        let at = self
            .keys
            .get(&(source.path.clone(), copy_rule_id(rule), index))?;
        let (file, pointer, _) = self.host_runs_from.get(at)?;
        Some((file.as_path(), pointer.as_str()))
    }

    /// Whether the plan takes `source`'s handler at `index` of `rule` and one in the file
    /// `other` (as people read it) for one rule: one runs it, the other is skipped.
    pub fn one_rule_with(&self, source: &Source, rule: &Rule, index: usize, other: &str) -> bool {
        self.keys
            .get(&(source.path.clone(), copy_rule_id(rule), index))
            .map(|at| &self.rules[*at])
            .is_some_and(|r| {
                let here = |file: &String| file == other || *file == source.display;
                matches!(&r.runner, Runner::Hookx { file } if here(file))
                    && r.skipped.iter().any(here)
            })
    }

    /// The runner of the rule whose copy at `index` of `source`'s `rule` the host runs itself
    /// beside it: the rule runs twice per event (a copy calling another hookx, attacks row 627).
    pub fn runs_beside(&self, source: &Source, rule: &Rule, index: usize) -> Option<&Runner> {
        let id = (source.path.clone(), copy_rule_id(rule), index);
        match self.beside.contains(&id) {
            true => self.runner_for(source, rule, index),
            false => None,
        }
    }

    /// The file of the host's own (resolved) that `source`'s handler at `index` of `rule`, a
    /// `hookx exec` copy in another agent's file, stands aside for: the host runs the rule
    /// from there, and the copy adds no run (attacks rows 880, 1100).
    pub fn stands_aside(&self, source: &Source, rule: &Rule, index: usize) -> Option<&Path> {
        let id = (source.path.clone(), copy_rule_id(rule), index);
        self.aside.get(&id).map(PathBuf::as_path)
    }

    /// The file (resolved) the host itself runs the rule of `source`'s `rule` at `index` from
    /// (a file of its own first, then its runner's, then a copy of the rule beyond a record's
    /// word that it runs beside hookx's): one more copy it reads would be one more run.
    pub fn host_runs_from(&self, source: &Source, rule: &Rule, index: usize) -> Option<&Path> {
        let at = self
            .keys
            .get(&(source.path.clone(), copy_rule_id(rule), index))?;
        self.host_runs_from.get(at).map(|(file, ..)| file.as_path())
    }

    /// The runner of the rule `source`'s `rule` holds at `index` (a copy's, or the
    /// original's), if the plan has it.
    pub fn runner_for(&self, source: &Source, rule: &Rule, index: usize) -> Option<&Runner> {
        let at = self
            .keys
            .get(&(source.path.clone(), copy_rule_id(rule), index))?;
        Some(&self.rules[*at].runner)
    }
}

/// How a copy stands under the host.
#[derive(Clone, Debug, PartialEq)]
enum Standing {
    /// The host runs it with the payload it was written for.
    Native,
    /// The host runs it with its own payload, this flavour's, and nothing hookx writes stops
    /// that.
    NativeOwnPayload { payload: Flavor },
    /// hookx may run it: trusted or not, and whether it would get the payload it was written
    /// for.
    Hookx { trusted: bool, right: bool },
    /// The host reads it but refuses its whole file ([`crate::config::strict_load`]): nobody
    /// runs it.
    Refused,
    /// The host reads its file but leaves this entry out
    /// ([`crate::config::strict_load::left_out`]): nobody runs it, for `why`.
    LeftOut { why: String },
}

struct Copy<'a> {
    source: &'a Source,
    rule: &'a Rule,
    handler: &'a Handler,
    index: usize,
    standing: Standing,
    record: Option<Record<'a>>,
    /// The host's key for a handler its own setting leaves to hookx.
    switched: Option<String>,
}

/// The part of a handler's provenance record the plan reads.
struct Record<'a> {
    source: &'a str,
    rule: &'a str,
    index: usize,
    from: Option<&'a str>,
    matcher: Option<&'a str>,
}

impl<'a> Record<'a> {
    /// `None` for a handler without one (no `"hookx"` key: nothing is parsed).
    fn of(handler: &'a Handler) -> Option<Record<'a>> {
        let record = handler.extra.get(MARKER)?.as_object()?;
        let text = |key: &str| record.get(key).and_then(Value::as_str);
        Some(Record {
            source: text("source")?,
            rule: text("rule")?,
            index: record.get("index").and_then(Value::as_u64).unwrap_or(0) as usize,
            from: text("from"),
            matcher: text("matcher"),
        })
    }
}

/// A rule's pointer in its file, or a hook script's file name (as `convert` records it).
pub(crate) fn copy_rule_id(rule: &Rule) -> String {
    match rule.origin.pointer.is_empty() {
        true => Path::new(&rule.origin.file)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string(),
        false => rule.origin.pointer.clone(),
    }
}

fn real(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// A source's file, resolved through symlinks where discovery could.
pub(crate) fn source_file(source: &Source) -> PathBuf {
    source
        .canonical
        .clone()
        .unwrap_or_else(|| source.path.clone())
}

/// The file a record names, read from the folder of the file holding it (`convert --write`
/// writes it relative to the target), else as written.
fn recorded_file(holder: &Source, recorded: &str) -> PathBuf {
    let dir = holder.path.parent().unwrap_or(Path::new(""));
    let near = dir.join(recorded);
    match near.exists() {
        true => real(&near),
        false => real(Path::new(recorded)),
    }
}

/// Whether any handler of `sources` carries a provenance record: without one, every rule has
/// a single copy and the plan has nothing to leave out (the run path then builds none).
pub fn has_copies(sources: &[Source]) -> bool {
    discover::has_copies(sources)
}

/// What `hookx run --host HOST` runs: [`discover::dispatch_rules`] without the handlers whose
/// rule has another runner under `host`, in discovery order. Where no handler carries a
/// provenance record ([`has_copies`]: most projects), the dispatch rules as they are, and no
/// plan is built.
pub fn hookx_rules<'a>(
    ctx: &discover::Context,
    sources: &'a [Source],
    host: Dialect,
    store: &TrustStore,
) -> Vec<discover::EffectiveRule<'a>> {
    let rules = discover::dispatch_rules(sources, host, store);
    if !has_copies(sources) {
        return rules;
    }
    let unloaded = skipped_by_host(ctx, host);
    let plan = plan_with(sources, host, store, &trusted_as_found(store), &unloaded);
    let written = |entry: &discover::EffectiveRule<'a>| -> Option<&'a Rule> {
        let doc = entry.source.document()?;
        doc.rules
            .iter()
            .find(|r| r.origin.pointer == entry.rule.origin.pointer && r.event == entry.rule.event)
    };
    rules
        .into_iter()
        .filter_map(|entry| {
            let written = written(&entry)?;
            let keep: Vec<bool> = entry
                .rule
                .handlers
                .iter()
                .map(|h| {
                    written
                        .handlers
                        .iter()
                        .position(|w| w == h)
                        .is_none_or(|i| plan.runs(entry.source, written, i))
                })
                .collect();
            if keep.iter().all(|k| *k) {
                return Some(entry);
            }
            if !keep.contains(&true) {
                return None;
            }
            let mut rule = entry.rule.into_owned();
            let mut flags = keep.iter();
            rule.handlers.retain(|_| *flags.next().unwrap_or(&true));
            Some(discover::EffectiveRule {
                source: entry.source,
                rule: std::borrow::Cow::Owned(rule),
            })
        })
        .collect()
}

/// A handler's place: its file as found, its rule's pointer, its index in the rule.
pub type CopyKey = (PathBuf, String, usize);

/// Handlers that look like copies of another file's rule made by hand: no provenance record,
/// and the same event and command (unwrapped) as a handler without one in another file. Each
/// (file as found, rule pointer, handler index) → the other file, as people read it. `doctor`
/// shows them; the plan never merges them (each is its own rule, and runs as such).
pub fn likely_copies(sources: &[Source]) -> HashMap<CopyKey, String> {
    // (event, command) → each handler with it: its file, rule pointer and index.
    type Place<'a> = (&'a Source, String, usize);
    let mut seen: HashMap<(String, String), Vec<Place>> = HashMap::new();
    for source in sources {
        let Some(doc) = source.document() else {
            continue;
        };
        for rule in &doc.rules {
            for (index, handler) in rule.handlers.iter().enumerate() {
                if let Some(signature) = copy_signature(rule, handler) {
                    seen.entry(signature)
                        .or_default()
                        .push((source, copy_rule_id(rule), index));
                }
            }
        }
    }
    let mut out = HashMap::new();
    for members in seen.values() {
        for (source, rule, index) in members {
            let other = members
                .iter()
                .find(|(s, _, _)| source_file(s) != source_file(source));
            if let Some((other, _, _)) = other {
                out.insert(
                    (source.path.clone(), rule.clone(), *index),
                    other.display.clone(),
                );
            }
        }
    }
    out
}

/// What [`likely_copies`] compares of a handler: its event and the command it runs
/// (unwrapped). `None` for one hookx wrote (it has a record) and one that runs nothing.
pub fn copy_signature(rule: &Rule, handler: &Handler) -> Option<(String, String)> {
    if handler.extra.contains_key(MARKER) {
        return None;
    }
    run_signature(rule, handler)
}

/// A handler's event and the command it runs, unwrapped from `hookx exec` (a copy `convert`
/// wrote has its rule's); `None` for one that runs nothing.
pub fn run_signature(rule: &Rule, handler: &Handler) -> Option<(String, String)> {
    let (text, _) = handler_text(handler);
    (!text.trim().is_empty()).then(|| (rule.event.name().to_string(), text))
}

/// The key [`likely_copies`] gives the handler at `index` of `source`'s `rule`.
pub fn copy_key(source: &Source, rule: &Rule, index: usize) -> CopyKey {
    (source.path.clone(), copy_rule_id(rule), index)
}

/// What a handler runs, unwrapped from `hookx exec`.
fn handler_text(handler: &Handler) -> (String, bool) {
    match &handler.kind {
        HandlerKind::Command(c) => {
            let line = c
                .unix_line()
                .or_else(|| c.windows_line())
                .unwrap_or_default();
            match crate::convert::innermost(line) {
                Some(inner) => (inner.command, true),
                None => (line.to_string(), false),
            }
        }
        HandlerKind::Prompt(p) | HandlerKind::Agent(p) => (p.prompt.clone(), false),
        HandlerKind::Service(s) => (s.type_name.to_string(), false),
    }
}

/// Whether `w`, the `hookx exec` wrapper of `copy`'s line, runs the command as `convert`
/// wraps the rule `first` holds: one wrapper, run by this hookx, answering the agent that
/// reads `copy`'s file (`--host`), handing the command the payload the rule was first written
/// for (`--as`), and filtering only as the rule did (`--event`, `--match`, `--if`,
/// `--timeout`, `--async`). Any other (`./tools/hookx exec …`, `--host claude` in Gemini's
/// file, `--match Nope`, `--event Stop`, whose answer a tool call ignores, a short `--timeout`,
/// after which a hook lets the call through, `--async`, whose answer is ignored) would keep
/// the deny from counting.
fn faithful(w: &crate::convert::Unwrapped, copy: &Copy, first: &Copy) -> bool {
    // `--event` as `hookx exec` reads it: any agent's spelling, or canonical, which `convert`
    // writes (a Gemini rule's `UserPromptSubmit`: read as Gemini's only, it was no event, and
    // no copy of a rule of Gemini's, Copilot's, … stood in for it: attacks row 546).
    let kind =
        |w: &crate::convert::Unwrapped| w.event.as_deref().map(crate::dispatch::host::parse_event);
    let theirs = wrapper(first.handler);
    let (event, matcher, condition, timeout) = match &theirs {
        Some(t) => (kind(t), t.matcher.clone(), t.condition.clone(), t.timeout),
        None => (
            Some(first.rule.event.clone()),
            first.rule.matcher.clone(),
            first
                .handler
                .extra
                .get("if")
                .and_then(Value::as_str)
                .map(str::to_string),
            first.handler.timeout,
        ),
    };
    let matcher = match &first.record {
        Some(r) => r.matcher.map(str::to_string),
        None => matcher,
    };
    crate::route::is_this_hookx(&w.program)
        && crate::convert::unwrapped(&w.command).is_none()
        && w.host == Some(copy.rule.flavor.dialect())
        && Some(w.flavor.dialect()) == first_dialect(first)
        && (w.event.is_none() || kind(w) == event)
        && w.matcher
            .as_ref()
            .is_none_or(|m| Some(m) == matcher.as_ref())
        && w.condition
            .as_ref()
            .is_none_or(|c| Some(c) == condition.as_ref())
        && w.timeout.is_none_or(|t| Some(t) == timeout)
        && w.is_async
            == theirs
                .as_ref()
                .map_or_else(|| in_background(first), |t| t.is_async)
}

/// Whether `c`'s handler runs in the background, its answer ignored (`async: true`, Claude's
/// `asyncRewake`): a copy with `exec --async` stands in only for such a rule, as a guard's
/// copy whose deny is ignored would lose it.
fn in_background(c: &Copy) -> bool {
    crate::dispatch::run::runs_in_background(c.rule.flavor, c.handler)
}

/// Whether `copy` runs on every tool call `first` runs on, and is given as long: its own
/// matcher fires for the counterpart of each tool `first`'s fires for, and a timeout it sets
/// is at least `first`'s (or its agent's default). A copy's matcher and timeout sit beside
/// its command, outside any wrapper (`faithful`), and in a converted plugin's data nobody
/// reviews (attacks row 89: `"matcher": "NeverMatches"`, `"timeout_ms": 1`). A copy `convert` split by tool category
/// covers less than the rule: it runs, and so does the rule (twice, never zero times).
fn filters_alike(copy: &Copy, first: &Copy) -> bool {
    use crate::convert::matcher::{counterparts_fired, target_fired};
    // In seconds, as the model holds every timeout. A copy without one has its agent's
    // default: all `convert` can write where the agent has no such key (Windsurf).
    let first_seconds = first.handler.timeout.unwrap_or_else(|| {
        first
            .rule
            .flavor
            .tables()
            .default_timeout(&first.handler.kind)
    });
    if copy.handler.timeout.is_some_and(|t| t < first_seconds) {
        return false;
    }
    let (from, to) = (first.rule.flavor, copy.rule.flavor);
    let tools =
        from.tables().matcher_target(&first.rule.event) == Some(crate::tables::MatchOn::ToolName);
    if !tools {
        return true;
    }
    match (
        counterparts_fired(first.rule.matcher.as_deref(), from, to),
        target_fired(copy.rule.matcher.as_deref(), from, to),
    ) {
        (Some((needed, _)), Some(fired)) => needed.is_subset(&fired),
        _ => false,
    }
}

/// The `hookx exec` wrapper a handler's line is, if it is one (the outer one of nested ones).
fn wrapper(handler: &Handler) -> Option<crate::convert::Unwrapped> {
    let HandlerKind::Command(c) = &handler.kind else {
        return None;
    };
    crate::convert::unwrapped(c.unix_line().or_else(|| c.windows_line())?)
}

/// The agent a copy's rule was first written for: its record's `from`, or its own for the
/// original.
fn first_dialect(c: &Copy) -> Option<Dialect> {
    match &c.record {
        Some(r) => r.from.and_then(Flavor::named).map(|f| f.dialect()),
        None => Some(c.rule.flavor.dialect()),
    }
}

/// Whether a copy hands its command the payload it was written for, given the flavour the
/// payload it receives is in: a wrapper translates it, an unwrapped handler must have been
/// written for it (a `--no-wrap` copy was not). The record is asked first: only a copy made
/// from another dialect has its command line read for a wrapper.
fn gets_its_payload(rule: &Rule, handler: &Handler, record: Option<&Record>, gets: Flavor) -> bool {
    if gets != rule.flavor {
        return false;
    }
    let written_for_it = record
        .and_then(|r| r.from)
        .and_then(Flavor::named)
        .is_none_or(|from| from.dialect() == rule.flavor.dialect());
    written_for_it || handler_text(handler).1
}

/// What turns off `host` reading `dialect`'s files itself with its own payload, as a sentence
/// part: the step a person takes, or that no setting does ([`crate::tables::ForeignSwitch`]).
pub fn switch_sentence(host: Dialect, dialect: Dialect) -> String {
    let switch = host
        .config()
        .foreign_switches
        .iter()
        .find(|s| s.dialect == dialect);
    match (switch.and_then(|s| s.off), switch.and_then(|s| s.hooks)) {
        (Some(off), _) => format!("to stop it, {off}"),
        // Its per-handler list, which install writes (attacks row 1424: a handler added or
        // edited since the install was said to have no setting at all).
        (None, Some(list)) => format!(
            "to leave it to hookx, run `hookx install --host {host}`, which lists it in {}'s \
             `{}`",
            host.def().display,
            list.key
        ),
        (None, None) => format!("no setting of {} turns that off alone", host.def().display),
    }
}

/// Every source of `ctx` ([`discover::discover`]) and the plugins hookx generated for `host`
/// ([`discover::generated_sources`]): what a plan under `host` is made from.
pub fn sources_under(ctx: &discover::Context, host: Dialect) -> Vec<Source> {
    let mut sources = discover::discover(ctx);
    sources.extend(discover::generated_sources(ctx, host));
    sources
}

/// Whether `host`, running a copy `hookx exec` wraps in a file of another agent's (`holder`'s:
/// Copilot running `.claude/settings.json`), runs the copy's rule itself for `event` from a
/// file of its own, its matcher accepting the event: the copy then stands aside, or the rule
/// runs twice (attacks row 880: a Copilot rule's copy in the Claude file, which Claude needs).
/// The copy is known by what the wrapper says (`flavor`, `command`); every one alike in
/// `holder`'s files must be so, else it runs.
pub fn runs_from_own_file(
    ctx: &discover::Context,
    (host, holder): (Dialect, Dialect),
    event: &crate::model::Event,
    flavor: Flavor,
    command: &[String],
) -> bool {
    // A file of the host's own that runs the command holds it as a JSON string: where none
    // does (most copies), nothing is parsed.
    let [command] = command else {
        return false;
    };
    let quoted = serde_json::to_string(command).unwrap_or_default();
    if !discover::own_files_hold(ctx, host, quoted.trim_matches('"')) {
        return false;
    }
    let store = TrustStore::load_or_empty(ctx);
    // The event's part of each file, as `hookx run` reads them.
    let mut sources = discover::discover_for_event(ctx, host, &event.kind, &store);
    let plan = plan_in(ctx, &mut sources, host, &store);
    let own = |file: &Path, pointer: &str| {
        let source = sources
            .iter()
            .find(|o| o.dialect == host && source_file(o) == file)?;
        source.document()?.rules.iter().find(|r| {
            copy_rule_id(r) == pointer
                && r.event == event.kind
                && crate::dispatch::select::rule_matches(r, event)
                    == crate::dispatch::select::MatchVerdict::Match
        })
    };
    let mut copies = 0;
    let read =
        |s: &&Source| s.dialect == holder && discover::runner(host, s) == SourceRunner::Native;
    for source in sources.iter().filter(read) {
        let rules = source.document().map_or(&[][..], |d| &d.rules[..]);
        for rule in rules.iter().filter(|r| r.event == event.kind) {
            for (index, handler) in rule.handlers.iter().enumerate() {
                let Some(w) = wrapper(handler) else {
                    continue;
                };
                if w.flavor != flavor || *command != w.command {
                    continue;
                }
                copies += 1;
                let at = plan
                    .keys
                    .get(&(source.path.clone(), copy_rule_id(rule), index));
                let from = at.and_then(|at| plan.host_runs_from.get(at));
                let id = (source.path.clone(), copy_rule_id(rule), index);
                let (Some((file, pointer, _)), Some(_)) = (from, plan.aside.get(&id)) else {
                    return false;
                };
                if own(file, pointer).is_none() {
                    return false;
                }
            }
        }
    }
    copies > 0
}

/// Whether `copy`, a `hookx exec` wrapper in a file of another agent's than `own`'s, stands
/// aside for `own`, its rule's copy in a file of the host's own: the same event, and the
/// wrapper runs the command `own` runs ([`runs_from_own_file`] asks it at run time).
fn stands_aside(copy: &Copy, own: &Copy) -> bool {
    let runs_own = |w: crate::convert::Unwrapped| w.command == handler_text(own.handler).0;
    copy.source.dialect != own.source.dialect
        && copy.rule.event == own.rule.event
        && wrapper(copy.handler).is_some_and(runs_own)
}

/// [`plan`] of `sources` with the plugins hookx generated for `host` too: added for the plan
/// and taken off again, so that `sources` stays what the walk found.
pub fn plan_in(
    ctx: &discover::Context,
    sources: &mut Vec<Source>,
    host: Dialect,
    store: &TrustStore,
) -> Plan {
    let found = sources.len();
    sources.extend(discover::generated_sources(ctx, host));
    let unloaded = skipped_by_host(ctx, host);
    let plan = plan_with(sources, host, store, &trusted_as_found(store), &unloaded);
    sources.truncate(found);
    plan
}

/// Why `host` runs no handler `index` of `rule` in its own file `source`, which a copy there
/// must not stand in for: a project folder it does not trust (it loads none of the project's
/// files), a handler its own list turns off (Gemini's `hooksConfig.disabled`, attacks row
/// 466), or a handler its user never reviewed or turned off (Codex: a copy `convert` wrote
/// has no review record). Each left the original to nobody once hookx read the host's own
/// files for copies (attacks row 404, its fix attacked twice).
fn skipped_by_host(
    ctx: &discover::Context,
    host: Dialect,
) -> impl Fn(&Source, &Rule, usize) -> Option<String> + '_ {
    let gate = host.def().folder_trust.as_ref();
    let folder_trusted = std::cell::OnceCell::new();
    let listed = std::cell::OnceCell::new();
    let unreviewed = unreviewed(ctx, host);
    move |s: &Source, rule: &Rule, index: usize| {
        if s.dialect != host {
            return None;
        }
        // Started in this linked worktree, the host reads the main checkout's file instead
        // (attacks row 2022); the same bytes run alike.
        if let Some((there, false, _)) = discover::loaded_instead(&ctx.project, host, s) {
            return Some(format!(
                "{} started in this linked worktree reads the main checkout's {} instead of {}, \
                 and their bytes differ",
                host.def().display,
                there.display(),
                s.display
            ));
        }
        if let Some(gate) = gate.filter(|g| g.locations.contains(&s.location.id))
            && !*folder_trusted.get_or_init(|| discover::folder_trusted(ctx, host, gate))
        {
            return Some(format!(
                "{} reads {} only in a trusted folder, and this project is not in {}",
                host.def().display,
                s.display,
                discover::folder_record(ctx, host, gate)
            ));
        }
        if let Some(handler) = rule.handlers.get(index)
            && crate::dispatch::simulate::is_listed_off(
                host,
                listed.get_or_init(|| listed_off(ctx, host)),
                handler,
            )
        {
            return Some(format!(
                "{} runs no handler its own list of those turned off names, and this entry of {} \
                 is in it",
                host.def().display,
                s.display
            ));
        }
        unreviewed(s, rule, index)
    }
}

/// The labels `host`'s own list of handlers it does not run names in its user file (each place
/// it may be read from, [`discover::host_state_files`]) and its project file, joined as the
/// host joins its scopes' lists. Read whether hookx trusts the files or not: a list turns a
/// copy off, so the original runs (twice at worst, never zero).
fn listed_off(ctx: &discover::Context, host: Dialect) -> Vec<String> {
    if host.def().disabled_handlers.is_none() {
        return Vec::new();
    }
    let config = host.config();
    let mut files = discover::host_state_files(ctx, host, config.install_user);
    files.push(ctx.project.join(config.install_project));
    // The machine's lists where the host's variables move them (attacks row 643); those in
    // the policy folder are policy sources.
    files
        .iter()
        .filter_map(|f| crate::read::text(f, crate::read::MAX_FILE_BYTES).ok())
        .flat_map(|text| crate::route::disabled_labels(host, &text))
        .chain(crate::route::moved_policy_labels(host))
        .collect()
}

/// Why nobody runs `rule` under `host`: its key is no event the host fires (Claude's `Start`,
/// attacks row 1181; Cursor's `beforeTabFileRead` under any other host), so neither the host
/// nor a route runs it.
fn no_such_event(host: Dialect, source: &Source, rule: &Rule) -> Option<String> {
    let crate::model::EventKind::Other(key) = &rule.event else {
        return None;
    };
    let own = source.dialect == host && host.config().has_other_event(key);
    (!own).then(|| unfired(host, key))
}

/// Why `handler` of `rule` never runs under `host`: its matcher (a copy's `--match`, read in
/// the copy's own flavour) reads a field the host never sends (attacks row 1990).
fn never_matched(host: Dialect, rule: &Rule, handler: &Handler) -> Option<String> {
    // Only a field matcher can leave a rule unmatched so: on an event no agent's matcher reads
    // a field of (every tool event), the copy's command line is not parsed again (600 copies
    // of a Bash guard cost 11 % more instructions with it, BENCHMARKS.md, attacks row 2148).
    let field_matched = |f: &Flavor| {
        matches!(
            f.tables().matcher_target(&rule.event),
            Some(crate::tables::MatchOn::Field(_))
        )
    };
    if !Flavor::all().iter().any(field_matched) {
        return None;
    }
    match wrapper(handler) {
        // A field matcher only: a rule on a tool event is not cloned for each handler.
        Some(w)
            if !matches!(
                w.flavor.tables().matcher_target(&rule.event),
                Some(crate::tables::MatchOn::Field(_))
            ) =>
        {
            None
        }
        Some(w) => crate::dispatch::select::never_matches(
            host,
            &Rule {
                flavor: w.flavor,
                matcher: w.matcher,
                handlers: Vec::new(),
                ..rule.clone()
            },
        ),
        None => crate::dispatch::select::never_matches(host, rule),
    }
}

/// The plan's word for a rule whose key is no event `host` fires ([`no_such_event`]).
pub(crate) fn unfired(host: Dialect, key: &str) -> String {
    format!("{} fires no `{key}` event", host.def().display)
}

/// [`skipped_by_host`]'s second half: a handler of `host`'s own file its user never reviewed
/// or turned off (`DialectDef::route_trust`, Codex's `[hooks.state]`).
fn unreviewed(
    ctx: &discover::Context,
    host: Dialect,
) -> impl Fn(&Source, &Rule, usize) -> Option<String> + '_ {
    let reviews: std::cell::RefCell<
        HashMap<*const Source, Option<crate::dispatch::gates::Review>>,
    > = Default::default();
    move |s: &Source, rule: &Rule, index: usize| {
        if s.dialect != host {
            return None;
        }
        let mut reviews = reviews.borrow_mut();
        let review = reviews
            .entry(std::ptr::from_ref(s))
            .or_insert_with(|| crate::dispatch::gates::Review::of(ctx, host, s))
            .as_ref()?;
        (!review.reviewed(rule, index)).then(|| {
            format!(
                "{} skips this entry of {}: {}",
                host.def().display,
                s.display,
                review.why()
            )
        })
    }
}

/// A file trusted as it was found: [`plan`]'s view.
fn trusted_as_found(store: &TrustStore) -> impl Fn(&Source) -> bool + '_ {
    |source: &Source| source.withheld.is_none() && store.state(source) == TrustState::Trusted
}

/// The plan of who runs each rule of `sources` under `host` (see the module's text).
pub fn plan(sources: &[Source], host: Dialect, store: &TrustStore) -> Plan {
    plan_with(
        sources,
        host,
        store,
        &trusted_as_found(store),
        &|_, _, _| None,
    )
}

/// The plan as it will be once every file is trusted, by hookx and by the host's folder trust
/// (where the host loads no project file, the project's routes neither): what `hookx install`
/// routes. A host's review of single handlers is taken as it is now ([`unreviewed`]): a copy
/// Codex never reviewed is no copy Codex runs, and its rule needs a route (attacks row 440).
pub fn plan_once_trusted(ctx: &discover::Context, sources: &[Source], host: Dialect) -> Plan {
    plan_with(
        sources,
        host,
        &TrustStore::default(),
        &|_: &Source| true,
        &unreviewed(ctx, host),
    )
}

fn plan_with(
    sources: &[Source],
    host: Dialect,
    store: &TrustStore,
    trusted: &dyn Fn(&Source) -> bool,
    unloaded: &dyn Fn(&Source, &Rule, usize) -> Option<String>,
) -> Plan {
    let effective = discover::host_rules(sources, host, store);
    let switched = discover::switched_keys(sources, host);
    let mut copies: Vec<Copy> = Vec::new();
    // Each file's rules by pointer, looked up once per effective rule: a search of the file
    // per rule made `list` and `doctor` quadratic in a file's rules (50 000: two minutes).
    let mut by_pointer: HashMap<(*const Source, &str), Vec<&Rule>> = HashMap::new();
    // The host's own files it refuses whole (read strictly, `StrictLoad`): none of their rules
    // runs. Asked once per file, and only of a file with a rule here.
    let mut refused: HashMap<*const Source, bool> = HashMap::new();
    let loaded_whole =
        std::cell::RefCell::new(crate::dispatch::gates::LoadedWhole::new(store.dir()));
    let mut is_refused = |s: &Source| {
        s.dialect == host
            && host.config().strict_load.is_some()
            && *refused
                .entry(std::ptr::from_ref(s))
                .or_insert_with(|| loaded_whole.borrow_mut().refused_whole(s).is_some())
    };
    // The host's own files where it leaves out single entries (by their timeout, or a form it
    // does not load): read once per file, and only of a file with a rule here.
    let mut raw: HashMap<*const Source, Option<crate::config::strict_load::Entries>> =
        HashMap::new();
    let mut left_out = |s: &Source, rule: &Rule, index: usize| -> Option<String> {
        if s.dialect != host || !crate::config::strict_load::leaves_out_entries(host) {
            return None;
        }
        let raw = raw.entry(std::ptr::from_ref(s)).or_insert_with(|| {
            // A file remembered as loaded whole, every entry of it, is not read again (the run
            // path reads only its event's part of a file).
            let remembered = !crate::config::strict_load::leaves_out_by_values(host)
                && loaded_whole.borrow().remembered(s);
            match remembered {
                true => None,
                false => crate::config::strict_load::raw_if_entries_left_out(&s.path, s.dialect),
            }
        });
        let entry = crate::config::strict_load::left_out(rule, raw.as_ref()?)
            .into_iter()
            .find(|e| e.index == index)?;
        Some(format!(
            "{} does not load this entry of {}: {}",
            host.def().display,
            s.display,
            entry.why()
        ))
    };
    for source in sources {
        for rule in source.document().map_or(&[][..], |d| &d.rules[..]) {
            by_pointer
                .entry((std::ptr::from_ref(source), rule.origin.pointer.as_str()))
                .or_default()
                .push(rule);
        }
    }
    for entry in &effective {
        let source = entry.source;
        // The rule as written (the effective one may have lost de-duplicated handlers).
        let key = (
            std::ptr::from_ref(source),
            entry.rule.origin.pointer.as_str(),
        );
        let same = |r: &&Rule| r.event == entry.rule.event;
        let Some(written) = by_pointer
            .get(&key)
            .and_then(|rules| rules.iter().copied().find(same))
            .or_else(|| {
                let doc = source.document()?;
                let pointer = &entry.rule.origin.pointer;
                doc.rules
                    .iter()
                    .find(|r| &r.origin.pointer == pointer && same(r))
            })
        else {
            continue;
        };
        let who = discover::runner(host, source);
        for handler in &entry.rule.handlers {
            let Some(index) = written.handlers.iter().position(|h| h == handler) else {
                continue;
            };
            let handler = &written.handlers[index];
            let record = Record::of(handler);
            let key = (who == SourceRunner::Native && !switched.to_hookx.is_empty())
                .then(|| discover::key_of(host, source, written, handler))
                .flatten()
                .filter(|k| switched.to_hookx.contains(k.as_str()));
            let standing = match who {
                // The host reads it, but its own setting leaves it to hookx.
                SourceRunner::Native if key.is_some() => Standing::Hookx {
                    trusted: trusted(source),
                    right: gets_its_payload(written, handler, record.as_ref(), written.flavor),
                },
                // Listed off by the user's own hand: nobody runs it, as the user wanted.
                SourceRunner::Native
                    if discover::host_skips(host, &switched, source, written, handler) =>
                {
                    continue;
                }
                SourceRunner::Native if is_refused(source) => Standing::Refused,
                SourceRunner::Native if let Some(why) = unloaded(source, written, index) => {
                    Standing::LeftOut { why }
                }
                SourceRunner::Native if let Some(why) = left_out(source, written, index) => {
                    Standing::LeftOut { why }
                }
                SourceRunner::Native if let Some(why) = no_such_event(host, source, written) => {
                    Standing::LeftOut { why }
                }
                SourceRunner::Native if let Some(why) = never_matched(host, written, handler) => {
                    Standing::LeftOut { why }
                }
                SourceRunner::Native => {
                    let gets = host.native_flavor(written.flavor);
                    match gets_its_payload(written, handler, record.as_ref(), gets) {
                        true => Standing::Native,
                        false => Standing::NativeOwnPayload { payload: gets },
                    }
                }
                SourceRunner::Hookx if let Some(why) = no_such_event(host, source, written) => {
                    Standing::LeftOut { why }
                }
                SourceRunner::Hookx if let Some(why) = never_matched(host, written, handler) => {
                    Standing::LeftOut { why }
                }
                SourceRunner::Hookx => Standing::Hookx {
                    trusted: trusted(source),
                    right: gets_its_payload(written, handler, record.as_ref(), written.flavor),
                },
                SourceRunner::Inactive | SourceRunner::Off => continue,
            };
            copies.push(Copy {
                source,
                rule: written,
                handler,
                index,
                standing,
                record,
                switched: key,
            });
        }
    }
    // Each copy's own identity, and each recorded copy's (file, recorded rule, index): a copy
    // of a copy records the file it was converted from and the first rule's pointer.
    let own: Vec<(PathBuf, String, usize)> = copies
        .iter()
        .map(|c| (source_file(c.source), copy_rule_id(c.rule), c.index))
        .collect();
    // Every copy in a file records the same source: each (file, record) resolved once.
    let mut resolved: HashMap<(&Path, &str), PathBuf> = HashMap::new();
    let raw: Vec<RuleKey> = copies
        .iter()
        .zip(&own)
        .map(|(c, (file, rule, index))| match &c.record {
            Some(r) => RuleKey {
                file: resolved
                    .entry((c.source.path.as_path(), r.source))
                    .or_insert_with(|| recorded_file(c.source, r.source))
                    .clone(),
                rule: r.rule.to_string(),
                index: r.index,
            },
            None => RuleKey {
                file: file.clone(),
                rule: rule.clone(),
                index: *index,
            },
        })
        .collect();
    let by_own: HashMap<&(PathBuf, String, usize), usize> =
        own.iter().enumerate().map(|(i, o)| (o, i)).collect();
    // A copy converted from a copy records the file it was converted from, the first rule's
    // pointer and the agent it was written for (`from`): two copies in one file (a Claude
    // rule's and a Codex rule's, both `/hooks/PreToolUse/0`) differ by that agent alone.
    let by_record: HashMap<(&Path, &str, usize, Option<Dialect>), usize> = copies
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let r = c.record.as_ref()?;
            Some(((own[i].0.as_path(), r.rule, r.index, first_dialect(c)), i))
        })
        .collect();
    // Handlers the host leaves to hookx under one key of its setting are one handler to it
    // (a Claude guard and its PascalCase copy in the host's own files): one rule, which
    // `dispatch_rules` runs once.
    let mut first_switched: HashMap<&str, usize> = HashMap::new();
    let mut keys: Vec<RuleKey> = Vec::with_capacity(copies.len());
    for i in 0..copies.len() {
        let mut key = raw[i].clone();
        if let Some(switched) = &copies[i].switched {
            let first = *first_switched.entry(switched).or_insert(i);
            if first != i {
                keys.push(keys[first].clone());
                continue;
            }
        }
        // A handler without a record is a rule of its own, wherever a copy of another says it
        // came from the same pointer of its file.
        if copies[i].record.is_some() {
            let written_for = first_dialect(&copies[i]);
            for _ in 0..8 {
                // A handler standing at the recorded place, written for the same agent, is what
                // the record names: where it is the rule itself (its identity is that place),
                // the key is found, even when a copy in that file records the same pointer of
                // another file (a Claude and a Codex guard, each its file's
                // `/hooks/PreToolUse/0`, converted each into the other's file: attacks row
                // 620). One written for another agent is not: the record is a copy's there
                // (row 631).
                let next = match by_own
                    .get(&(key.file.clone(), key.rule.clone(), key.index))
                    .filter(|&&j| j != i)
                {
                    Some(&j)
                        if written_for.is_none() || first_dialect(&copies[j]) == written_for =>
                    {
                        (raw[j] != key).then_some(j)
                    }
                    _ => by_record
                        .get(&(
                            key.file.as_path(),
                            key.rule.as_str(),
                            key.index,
                            written_for,
                        ))
                        .copied()
                        .filter(|&j| j != i && raw[j] != key),
                };
                match next {
                    Some(j) => key = raw[j].clone(),
                    None => break,
                }
            }
        }
        keys.push(key);
    }
    // The rules in the order first met, each with its copies.
    let mut order: Vec<RuleKey> = Vec::new();
    let mut members: HashMap<RuleKey, Vec<usize>> = HashMap::with_capacity(copies.len());
    for (i, key) in keys.iter().enumerate() {
        let list = members.entry(key.clone()).or_default();
        if list.is_empty() {
            order.push(key.clone());
        }
        list.push(i);
    }
    // Whether some event the host sends fires the rule: its own, or the host's post event
    // that marks a failed call for a failure rule (Gemini's AfterTool for Claude's
    // PostToolUseFailure, `crate::protocol::failed`; attacks row 2062: "nobody", no route).
    let own = host.own_events();
    let sent = |rule: &Rule| {
        own.iter().any(|(kind, _, flavor)| {
            crate::protocol::failed::can_fire(*flavor, kind, rule.flavor, &rule.event)
        })
    };
    let mut plan = Plan {
        host,
        rules: Vec::with_capacity(order.len()),
        hookx_runs: HashMap::with_capacity(copies.len()),
        keys: HashMap::with_capacity(copies.len()),
        beside: HashSet::new(),
        aside: HashMap::new(),
        host_runs_from: HashMap::new(),
    };
    for key in order {
        let list = &members[&key];
        let of = |pick: &dyn Fn(&Copy) -> bool| list.iter().copied().find(|&i| pick(&copies[i]));
        // What hookx may run with the payload the rule was written for: a trusted copy of a
        // file it runs, the original first.
        let by_hookx = |c: &Copy| {
            matches!(
                c.standing,
                Standing::Hookx {
                    trusted: true,
                    right: true
                }
            )
        };
        let hookx = of(&|c| c.record.is_none() && by_hookx(c))
            .or_else(|| of(&by_hookx))
            .or_else(|| of(&|c| matches!(c.standing, Standing::Hookx { trusted: true, .. })));
        // A copy the host runs itself takes the run from the trusted copy hookx would run only
        // when it is that rule beyond a record's word (text anyone writes): as much the
        // user's (a project file never stands in for one of the home or the machine's policy),
        // running the same command, wrapped as `convert` wraps it or written for the host's
        // own agent, and, where it claims to be a copy, trusted and handed its payload.
        // Otherwise it is one more run, never the only one: a forged copy running `true`,
        // or an original the repository changed since the user trusted a copy of it.
        // A plugin hookx generated is code, which no trust record covers: it is read as one
        // only while it is byte for byte what hookx writes around its data
        // (`route::converted_document`), so its routes are what it runs.
        let generated = |s: &Source| s.dialect.config().generated.is_some();
        // The rule beyond a record's word, as the copy hookx would run has it.
        let alike = |c: &Copy| {
            let Some(h) = hookx else {
                return true;
            };
            let first = &copies[h];
            let users = |s: &Source| matches!(s.scope, Scope::Managed | Scope::User);
            let as_written = match wrapper(c.handler) {
                Some(w) => faithful(&w, c, first),
                None => c.record.is_none() || first_dialect(first) == Some(c.rule.flavor.dialect()),
            };
            (users(c.source) || !users(first.source))
                && handler_text(c.handler).0 == handler_text(first.handler).0
                && as_written
                && filters_alike(c, first)
        };
        let displaces = |c: &Copy| {
            alike(c)
                && (hookx.is_none()
                    || c.record.is_none()
                    || (trusted(c.source) || generated(c.source)) && c.standing == Standing::Native)
        };
        let native = of(&|c| c.standing == Standing::Native && displaces(c));
        let own_payload =
            of(&|c| matches!(c.standing, Standing::NativeOwnPayload { .. }) && displaces(c));
        let (runner, runs) = match (native, own_payload, hookx) {
            (Some(i), _, _) => (
                Runner::Agent {
                    host,
                    file: copies[i].source.display.clone(),
                },
                Some(i),
            ),
            (None, Some(i), _) => {
                let Standing::NativeOwnPayload { payload, .. } = copies[i].standing else {
                    unreachable!("picked by its standing")
                };
                (
                    Runner::AgentOwnPayload {
                        host,
                        file: copies[i].source.display.clone(),
                        payload,
                    },
                    Some(i),
                )
            }
            // No route can bring an event the host never sends to hookx.
            (None, None, Some(i)) if !sent(copies[i].rule) => (
                Runner::Nobody {
                    why: format!(
                        "{} sends no {} event",
                        host.def().display,
                        copies[i].rule.event
                    ),
                },
                None,
            ),
            (None, None, Some(i)) => (
                Runner::Hookx {
                    file: copies[i].source.display.clone(),
                },
                Some(i),
            ),
            (None, None, None) => {
                let left_out = list.iter().find_map(|&i| match &copies[i].standing {
                    Standing::LeftOut { why } => Some(why.clone()),
                    _ => None,
                });
                let (refused, untrusted): (Vec<usize>, Vec<usize>) = list
                    .iter()
                    .filter(|&&i| !matches!(copies[i].standing, Standing::LeftOut { .. }))
                    .partition(|&&i| copies[i].standing == Standing::Refused);
                let files = |of: &[usize]| {
                    of.iter()
                        .map(|&i| copies[i].source.display.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let why = match (untrusted.is_empty(), left_out) {
                    (false, _) => format!("not trusted: {}", files(&untrusted)),
                    (true, Some(why)) if refused.is_empty() => why,
                    (true, _) => format!(
                        "{} refuses the whole of {} (hookx validate says where)",
                        host.def().display,
                        files(&refused)
                    ),
                };
                (Runner::Nobody { why }, None)
            }
        };
        // Whether hookx runs copy `i`: it is the runner, and the runner is hookx.
        let through_hookx = |i: usize| Some(i) == runs && matches!(runner, Runner::Hookx { .. });
        // The copy the host runs the rule from itself, one in a file of its own first, then
        // the runner: one more copy it reads would be one more run.
        let host_runs = |c: &Copy| {
            matches!(
                c.standing,
                Standing::Native | Standing::NativeOwnPayload { .. }
            ) && alike(c)
        };
        let by_host = of(&|c| host_runs(c) && c.source.dialect == host)
            .or_else(|| runs.filter(|&i| !through_hookx(i)))
            .or_else(|| of(&host_runs));
        if let Some(i) = by_host {
            let c = &copies[i];
            let at = plan.rules.len();
            let copy = (source_file(c.source), copy_rule_id(c.rule), c.index);
            plan.host_runs_from.insert(at, copy);
        }
        let own = by_host
            .map(|j| &copies[j])
            .filter(|o| o.source.dialect == host);
        let mut also = Vec::new();
        let mut skipped = Vec::new();
        for &i in list {
            let c = &copies[i];
            if Some(i) == runs && !through_hookx(i) {
                continue;
            }
            let read = matches!(
                c.standing,
                Standing::Native | Standing::NativeOwnPayload { .. }
            );
            if let Some(own) = own.filter(|own| read && stands_aside(c, own)) {
                let id = (c.source.path.clone(), copy_rule_id(c.rule), c.index);
                plan.aside.insert(id, source_file(own.source));
                continue;
            }
            match c.standing {
                Standing::Native => {
                    also.push(format!("{host} also runs the copy in {}", c.source.display));
                    let id = (c.source.path.clone(), copy_rule_id(c.rule), c.index);
                    plan.beside.insert(id);
                }
                Standing::NativeOwnPayload { payload, .. } => also.push(format!(
                    "{host} also runs {} itself, with its {payload} payload: {}",
                    c.source.display,
                    switch_sentence(host, c.source.dialect)
                )),
                Standing::Hookx { .. } if through_hookx(i) => {}
                Standing::Hookx { .. } if runs.is_some() => skipped.push(c.source.display.clone()),
                Standing::Hookx { .. } | Standing::Refused | Standing::LeftOut { .. } => {}
            }
        }
        // The label: the original's where it is here, else the first copy's record.
        let shown = list
            .iter()
            .copied()
            .find(|&i| copies[i].record.is_none())
            .unwrap_or(list[0]);
        let c = &copies[shown];
        let (handler, _) = handler_text(c.handler);
        let at = plan.rules.len();
        for &i in list {
            let copy = &copies[i];
            let id = (
                copy.source.path.clone(),
                copy_rule_id(copy.rule),
                copy.index,
            );
            if matches!(copy.standing, Standing::Hookx { .. }) || through_hookx(i) {
                plan.hookx_runs.insert(id.clone(), through_hookx(i));
            }
            plan.keys.insert(id, at);
        }
        plan.rules.push(Planned {
            key,
            event: c.rule.event.name().to_string(),
            matcher: match &c.record {
                Some(r) => r.matcher.map(str::to_string),
                None => c.rule.matcher.clone(),
            },
            handler,
            runner,
            also,
            skipped,
            cadence: host
                .flavors()
                .find_map(|f| {
                    f.tables()
                        .cadence_change(c.rule.flavor.tables(), &c.rule.event)
                })
                .or_else(|| unfired_change(host, c.rule)),
        });
    }
    plan
}

/// Where `host` fires no post event after a failed call that `rule`'s agent fires it after,
/// for a tool the rule's matcher takes: a sentence saying so
/// ([`crate::protocol::failed::unfired_change`], attacks row 2021).
pub fn unfired_change(host: Dialect, rule: &Rule) -> Option<String> {
    use crate::dispatch::select::{MatchVerdict, rules_match};
    let matches = |id: &str| {
        let event = crate::model::Event::tool_call(rule.event.clone(), id, Value::Null);
        matches!(
            rules_match([rule], &event).pop(),
            Some(MatchVerdict::Match | MatchVerdict::Unevaluable(_))
        )
    };
    host.flavors()
        .find_map(|f| crate::protocol::failed::unfired_change(f, rule.flavor, &rule.event, matches))
}
