//! `hookx doctor`: why a hook does or does not fire. For every hook file and rule of every
//! scope, per host agent: whether the host loads the file (location, folder trust, parse
//! problems, the machine's policy), whether the rule can fire (its event and matcher against
//! what the host sends, from the dialect tables and the client version that verified them),
//! who runs it (the host, hookx, nobody), what payload its handler gets and whether the handler
//! seems to read keys that payload lacks, and the fix, as a command where there is one.
//!
//! Everything agent-specific comes from the dialect tables: this file names no agent.

use crate::commands::trust::{TrustState, TrustStore};
use crate::config::walk::did_you_mean;
use crate::diag::Severity;
use crate::discover::{self, Context, Runner, Source};
use crate::dispatch::select::{MatchVerdict, rules_match};
use crate::error::Error;
use crate::model::{Event, EventKind, Handler, HandlerKind, ToolCall};
use crate::source::SourceFile;
use crate::tables::HandlerField;
use crate::tables::Rule;
use crate::tables::Scope;
use crate::tables::{Dialect, Flavor, MatchOn};
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Exit code when some rule can fire under none of the hosts examined.
pub const NEVER_FIRES_EXIT: i32 = 5;

/// Timeouts at or above this many seconds were most likely written as milliseconds.
const MILLISECONDS_LIKELY: u64 = 1000;

/// The most of a handler script read for the field scan.
const SCRIPT_LIMIT: u64 = 256 * 1024;

/// What `hookx doctor` examines.
#[derive(Clone, Debug)]
pub struct Options {
    pub ctx: Context,
    /// Only this host; every registered agent when `None`.
    pub host: Option<Dialect>,
    pub json: bool,
}

/// The whole diagnosis; its JSON form is `hookx doctor --format json`.
#[derive(Debug, Serialize)]
pub struct Report {
    pub hosts: Vec<HostReport>,
    pub files: Vec<FileReport>,
    /// Rules that fire under none of the hosts examined, plus files none of them can read and
    /// entries dropped whole.
    pub never_fire: usize,
}

/// One host agent: the client release its facts were verified with, and its policy.
#[derive(Debug, Serialize)]
pub struct HostReport {
    pub host: Dialect,
    /// `None`: documents only, no runnable client verified them.
    pub verified_with: Option<&'static str>,
    /// The machine's policy files for this host and what they switch off, and what a deny
    /// does to its run where that is more than the call.
    pub policy: Vec<Finding>,
}

/// One hook file.
#[derive(Debug, Serialize)]
pub struct FileReport {
    /// As people read it: relative to the project, `~/…`, or the policy path.
    pub file: String,
    pub dialect: Dialect,
    pub scope: &'static str,
    /// Entries the file's agent drops whole (no rule comes of them), whichever host reads it.
    pub problems: Vec<Finding>,
    /// Per host: who runs the file's hooks and what keeps them from loading.
    pub hosts: Vec<Loading>,
    pub rules: Vec<RuleReport>,
}

/// Who runs a file's hooks under one host, and whether it loads.
#[derive(Debug, Serialize)]
pub struct Loading {
    pub host: Dialect,
    pub runner: Runs,
    pub status: Status,
    pub findings: Vec<Finding>,
}

/// Who runs a hook under a host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Runs {
    /// The host reads the file itself.
    Native,
    /// Only `hookx run`, routed from the host's config.
    Hookx,
    Nobody,
}

/// Whether a rule fires under a host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// It fires when its event comes (findings may still be warnings).
    Fires,
    /// It would fire once its fix is applied (trust, a route, folder trust, a plugin enabled),
    /// or the machine's policy holds it back.
    Blocked,
    /// As written it cannot fire under this host.
    Never,
    /// The user turned it off (`enabled: false`): meant not to fire, so no fault.
    Off,
}

/// One rule (a matcher and its handlers under one event key).
#[derive(Debug, Serialize)]
pub struct RuleReport {
    /// The event key as written.
    pub event: String,
    pub matcher: Option<String>,
    /// 1-based line of the rule in its file, where known.
    pub line: Option<usize>,
    /// The first handler, shortened (`+N` when there are more).
    pub handler: String,
    pub hosts: Vec<Verdict>,
}

/// A rule under one host.
#[derive(Debug, Serialize)]
pub struct Verdict {
    pub host: Dialect,
    pub status: Status,
    pub runner: Runs,
    /// The flavour of the payload its handlers get, when it fires or could.
    pub payload: Option<&'static str>,
    pub findings: Vec<Finding>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
    Note,
}

/// One thing found, with its fix where there is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub level: Level,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Finding {
    fn new(level: Level, message: impl Into<String>, fix: Option<String>) -> Finding {
        Finding {
            level,
            message: message.into(),
            fix,
        }
    }
}

/// `hookx doctor`: prints the report; exits [`NEVER_FIRES_EXIT`] when a rule fires nowhere.
pub fn command(opts: &Options) -> Result<i32, Error> {
    let report = diagnose(&opts.ctx, opts.host);
    if opts.json {
        let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
        text.push('\n');
        print!("{text}");
    } else {
        print!("{}", render_text(&report));
    }
    Ok(if report.never_fire > 0 {
        NEVER_FIRES_EXIT
    } else {
        0
    })
}

/// The diagnosis of every hook file of the project and home, under `host` or every agent.
pub fn diagnose(ctx: &Context, host: Option<Dialect>) -> Report {
    let store = TrustStore::load_or_empty(ctx);
    let sources = discover::discover_trusting(ctx, &store);
    let hosts: Vec<Dialect> = match host {
        Some(h) => vec![h],
        None => Dialect::all().to_vec(),
    };
    let doctor = Doctor {
        ctx,
        sources: &sources,
        store: &store,
    };
    // Files that parsed and hold no hook (settings with other keys) have nothing to diagnose.
    let files: Vec<FileReport> = sources
        .iter()
        .filter(|s| {
            s.document().is_none_or(|d| !d.rules.is_empty())
                || s.diagnostics.iter().any(|d| d.severity == Severity::Error)
        })
        .map(|s| doctor.file(s, &hosts))
        .collect();
    // A file no host can read hides its rules: it counts as one.
    let unreadable = files
        .iter()
        .filter(|f| f.rules.is_empty() && f.problems.is_empty())
        .filter(|f| f.hosts.iter().all(|l| l.status == Status::Never))
        .filter(|f| f.hosts.iter().any(|l| l.runner != Runs::Nobody))
        .count();
    let dropped: usize = files.iter().map(|f| f.problems.len()).sum();
    let never_fire = unreadable
        + dropped
        + files
            .iter()
            .flat_map(|f| &f.rules)
            .filter(|r| r.hosts.iter().all(|v| v.status == Status::Never))
            .count();
    Report {
        hosts: hosts.iter().map(|h| doctor.host(*h)).collect(),
        files,
        never_fire,
    }
}

struct Doctor<'a> {
    ctx: &'a Context,
    sources: &'a [Source],
    store: &'a TrustStore,
}

impl Doctor<'_> {
    fn host(&self, host: Dialect) -> HostReport {
        let mut policy = Vec::new();
        for source in self
            .sources
            .iter()
            .filter(|s| s.scope == Scope::Managed && s.dialect == host)
        {
            policy.push(match &source.refused_policy {
                Some(why) => Finding::new(
                    Level::Warning,
                    format!("policy file {} is skipped: {why}", source.display),
                    Some(why.fix()),
                ),
                None => Finding::new(Level::Note, format!("policy file {}", source.display), None),
            });
        }
        if let Some(policy_file) = discover::managed_only(self.sources, host)
            && let Some(key) = host.def().managed.as_ref().and_then(|m| m.only_managed_key)
        {
            policy.push(Finding::new(
                Level::Warning,
                format!(
                    "{} in {}: {} runs only policy hooks, and so does `hookx run --host {host}`",
                    only_managed(policy_file, key),
                    policy_file.display,
                    host.def().display
                ),
                None,
            ));
        }
        if let Some(stop) = discover::stopped_by_policy(self.sources, host) {
            policy.push(Finding::new(Level::Warning, stop.sentence(host), stop.fix));
        }
        // A deny through a route that ends more than the call (Cline: the whole run).
        if let Some(effect) = host.config().scripts.and_then(|l| l.deny_effect)
            && self.routed(host, &EventKind::PreToolUse, &[])
        {
            policy.push(Finding::new(Level::Warning, effect, None));
        }
        HostReport {
            host,
            verified_with: host.default_flavor().tables().verified_with,
            policy,
        }
    }

    fn file(&self, source: &Source, hosts: &[Dialect]) -> FileReport {
        let text = SourceFile::read(&source.path).ok();
        let loading: Vec<Loading> = hosts.iter().map(|h| self.loading(source, *h)).collect();
        let rules = source
            .document()
            .map(|d| d.rules.as_slice())
            .unwrap_or_default()
            .iter()
            .filter(|r| {
                !r.handlers
                    .iter()
                    .all(crate::commands::install::is_hookx_handler)
            })
            .map(|rule| RuleReport {
                event: written_key(rule),
                matcher: rule.matcher.clone(),
                line: text.as_ref().and_then(|src| {
                    let offset = crate::config::syntax::locate(src, &rule.origin.pointer)?;
                    Some(src.line_col(offset).0)
                }),
                handler: handler_summary(&rule.handlers),
                hosts: loading
                    .iter()
                    .map(|l| self.verdict(source, rule, l))
                    .collect(),
            })
            .collect();
        let problems = source
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| {
                Finding::new(
                    Level::Error,
                    format!(
                        "{}:{}: {}: no rule comes of this entry",
                        d.line, d.col, d.message
                    ),
                    Some(format!("hookx validate {}", shell_path(&source.display))),
                )
            })
            .collect();
        FileReport {
            file: source.display.clone(),
            dialect: source.dialect,
            scope: source.scope.name(),
            problems,
            hosts: loading,
            rules,
        }
    }

    /// Whether `host` (or hookx under it) loads `source`, and who runs it.
    fn loading(&self, source: &Source, host: Dialect) -> Loading {
        let runner = discover::runner(host, source);
        let runs = match runner {
            Runner::Native => Runs::Native,
            Runner::Hookx => Runs::Hookx,
            Runner::Inactive | Runner::Off => Runs::Nobody,
        };
        let mut findings = Vec::new();
        let display = host.def().display;
        let loading = |status, findings| Loading {
            host,
            runner: runs,
            status,
            findings,
        };
        if let Some(why) = &source.refused_policy {
            findings.push(Finding::new(
                Level::Error,
                format!(
                    "{} skips this policy file, as {why} (someone other than root could have written it): hookx does not read it either, and none of its hooks runs",
                    source.dialect.def().display
                ),
                Some(why.fix()),
            ));
            return loading(Status::Never, findings);
        }
        if let Some(error) = source.error_line()
            && source.withheld.is_none()
        {
            let who = match runs {
                Runs::Hookx => "hookx".to_string(),
                _ => display.to_string(),
            };
            // Comments its agent does not accept are all that is wrong with it.
            let comments = std::fs::read_to_string(&source.path)
                .is_ok_and(|text| crate::config::syntax::is_object_with_comments(&text));
            let why = match comments {
                true => format!(
                    "has comments, and {} reads it as strict JSON ({error}): {who} loads none of its hooks",
                    source.dialect.def().product
                ),
                false => format!("does not parse ({error}): {who} loads none of its hooks"),
            };
            findings.push(Finding::new(
                Level::Error,
                why,
                Some(format!("hookx validate {}", shell_path(&source.display))),
            ));
            return loading(Status::Never, findings);
        }
        if runs == Runs::Native
            && host == source.dialect
            && let Some((event, at)) = skipping_problem(source)
        {
            findings.push(Finding::new(
                Level::Error,
                format!(
                    "{display} skips this whole file: its malformed `{event}` entry ({at}) may guard what sits beside it ({})",
                    host.default_flavor().tables().verified_with.unwrap_or("documents only")
                ),
                Some(format!("hookx validate {}", shell_path(&source.display))),
            ));
            return loading(Status::Never, findings);
        }
        match runner {
            Runner::Inactive => {
                findings.push(Finding::new(
                    Level::Note,
                    format!(
                        "{} hooks apply only while their {} is active in {}: nobody runs them under {display}",
                        source.scope.name(),
                        source.scope.name(),
                        source.dialect.def().display
                    ),
                    None,
                ));
                return loading(Status::Never, findings);
            }
            Runner::Off => {
                let standings = source.plugin.unwrap_or(crate::plugins::Standings {
                    agent: crate::plugins::Standing::Disabled,
                    trusted: crate::plugins::Standing::Disabled,
                });
                let standing = match discover::is_native(host, source.location) {
                    true => standings.agent,
                    false => standings.trusted,
                };
                let why = match standing {
                    crate::plugins::Standing::NotInstalled => "not installed (downloaded only)",
                    crate::plugins::Standing::Disabled
                        if discover::is_native(host, source.location) =>
                    {
                        "installed but not enabled"
                    }
                    _ => "not enabled in the settings hookx trusts",
                };
                let enabled_key = source
                    .dialect
                    .config()
                    .plugins
                    .map_or("", |p| p.enabled_key);
                // The agent loads it, hookx's view does not: the enabling settings are untrusted.
                let fix = match standings.agent == crate::plugins::Standing::Loaded {
                    true => "review the settings that enable it, then `hookx trust`".to_string(),
                    false => format!(
                        "install it and set `\"{enabled_key}\": {{\"PLUGIN@MARKETPLACE\": true}}` in the {} user settings",
                        source.dialect.def().display
                    ),
                };
                findings.push(Finding::new(
                    Level::Warning,
                    format!("plugin {why}: nobody runs its hooks under {display}"),
                    Some(fix),
                ));
                return loading(Status::Blocked, findings);
            }
            Runner::Native | Runner::Hookx => {}
        }
        let mut status = Status::Fires;
        if source.scope != Scope::Managed
            && let Some(policy) = discover::managed_only(self.sources, host)
        {
            let key = host
                .def()
                .managed
                .as_ref()
                .and_then(|m| m.only_managed_key)
                .unwrap_or_default();
            findings.push(Finding::new(
                Level::Warning,
                format!(
                    "dropped under {display}: {} in {} leaves only policy hooks",
                    only_managed(policy, key),
                    policy.display
                ),
                None,
            ));
            status = Status::Blocked;
        }
        if let Some(stop) = discover::stopped_by_policy(self.sources, host) {
            findings.push(Finding::new(
                Level::Warning,
                format!("off under {display}: {}", stop.why),
                stop.fix,
            ));
            status = Status::Blocked;
        }
        // The agent obeys every settings file; hookx only trusted ones.
        let switch = match runs {
            Runs::Native => discover::hooks_disabled_by_agent(self.sources, source.dialect),
            _ => discover::hooks_disabled(self.sources, source.dialect, self.store),
        };
        if let Some(switch) = switch
            && discover::switched_off(switch, source)
        {
            let kill = source.dialect.def().kill_switch.as_ref();
            let name = kill.map_or(String::new(), |k| k.name());
            let set = kill.map_or(String::new(), |k| k.json());
            let fix = (switch.scope != Scope::Managed)
                .then(|| format!("remove \"{name}\" from {}", switch.display));
            findings.push(Finding::new(
                Level::Warning,
                format!("off: {set} in {} turns its hooks off", switch.display),
                fix,
            ));
            status = Status::Blocked;
        }
        match runs {
            Runs::Native => {
                if let Some(gate) = host.def().folder_trust.as_ref()
                    && gate.locations.contains(&source.location.id)
                    && !folder_trusted(self.ctx, gate)
                {
                    findings.push(Finding::new(
                        Level::Warning,
                        format!(
                            "{display} reads it only in a trusted folder, and this project is not in {}: {}",
                            gate.describe(),
                            gate.untrusted
                        ),
                        Some(gate.fix.to_string()),
                    ));
                    status = status.max(Status::Blocked);
                }
                if source.scope != Scope::Managed
                    && let Some(finding) = unreviewed(self.ctx, host, source)
                {
                    findings.push(finding);
                    status = status.max(Status::Blocked);
                }
            }
            Runs::Hookx => {
                let state = source.withheld.unwrap_or_else(|| self.store.state(source));
                if state != TrustState::Trusted {
                    findings.push(Finding::new(
                        Level::Warning,
                        format!(
                            "{display} does not read it; hookx runs it only once trusted, and it is {}",
                            state.why_not()
                        ),
                        Some(format!("hookx trust {}", shell_path(&source.display))),
                    ));
                    status = status.max(Status::Blocked);
                }
            }
            Runs::Nobody => {}
        }
        loading(status, findings)
    }

    /// `rule` of `source` under the host `loading` is about.
    fn verdict(&self, source: &Source, rule: &Rule, loading: &Loading) -> Verdict {
        let host = loading.host;
        let mut verdict = Verdict {
            host,
            status: loading.status,
            runner: loading.runner,
            payload: None,
            findings: Vec::new(),
        };
        if loading.status == Status::Never {
            return verdict;
        }
        // The flavour the rule is matched and fed as: the host reads a foreign file its own
        // way (also a plugin it would read once enabled); hookx runs a rule in its own flavour.
        let native = discover::is_native(host, source.location);
        let flavor = match native {
            true => host.native_flavor(rule.flavor),
            false => rule.flavor,
        };
        let never = |verdict: &mut Verdict, finding: Finding| {
            verdict.findings.push(finding);
            verdict.status = Status::Never;
        };
        let display = host.def().display;
        let event = &rule.event;
        if source.dialect.config().is_disabled(rule) {
            verdict.findings.push(Finding::new(
                Level::Note,
                "the rule is turned off (`enabled: false`): the agent never runs it, nor does hookx",
                None,
            ));
            verdict.status = Status::Off;
            return verdict;
        }
        // An event only the file's agent fires (Kiro's `PostFileSave`): there it fires as the
        // agent reads it; under any other host, never.
        let agent_only = match event {
            EventKind::Other(key) => source
                .dialect
                .config()
                .rule_list
                .is_some_and(|list| list.other_events.contains(&key.as_str())),
            _ => false,
        };
        if agent_only && native {
            return verdict;
        }
        if agent_only {
            never(
                &mut verdict,
                Finding::new(
                    Level::Note,
                    format!(
                        "`{event}` is an event only {} fires: {display} has none",
                        source.dialect.def().display
                    ),
                    None,
                ),
            );
            return verdict;
        }
        if let EventKind::Other(key) = event {
            let fix = closest_event(key, rule.flavor)
                .map(|name| format!("rename the key `{key}` to `{name}`"));
            never(
                &mut verdict,
                Finding::new(
                    Level::Error,
                    format!(
                        "`{key}` is no {} event: the agent skips it (at most a debug-log line)",
                        rule.flavor.name()
                    ),
                    fix,
                ),
            );
            return verdict;
        }
        match loading.runner {
            _ if native && flavor.tables().event_name(event).is_none() => {
                never(
                    &mut verdict,
                    Finding::new(
                        Level::Error,
                        format!(
                            "{display} has no `{event}` for {} hooks: it never fires here",
                            flavor.name()
                        ),
                        None,
                    ),
                );
                return verdict;
            }
            Runs::Hookx if !host.own_events().iter().any(|(kind, ..)| kind == event) => {
                never(
                    &mut verdict,
                    Finding::new(
                        Level::Error,
                        format!(
                            "{display} sends no `{event}` event: no route can bring it to hookx"
                        ),
                        None,
                    ),
                );
                return verdict;
            }
            // A rule that fires for no tool category gets the matcher's finding below instead.
            Runs::Hookx
                if !route_names(host, rule).is_empty()
                    && !self.routed(host, event, &route_names(host, rule)) =>
            {
                verdict.findings.push(Finding::new(
                    Level::Warning,
                    format!(
                        "{display} has no hookx route for `{}` in its config: nobody calls hookx for it",
                        route_names(host, rule).join("`, `")
                    ),
                    Some(format!("hookx install --host {host}")),
                ));
                verdict.status = verdict.status.max(Status::Blocked);
            }
            _ => {}
        }
        if let Some(finding) = matcher_finding(rule, flavor, host) {
            never(&mut verdict, finding);
            return verdict;
        }
        if let Some(finding) = alias_note(rule, flavor) {
            verdict.findings.push(finding);
        }
        for handler in &rule.handlers {
            if let Some(finding) = timeout_finding(handler, flavor) {
                verdict.findings.push(finding);
            }
        }
        verdict.payload = Some(flavor.name());
        let keys = match native {
            true => flavor
                .tables()
                .payload_keys(event)
                .map(|k| k.iter().map(|s| s.to_string()).collect()),
            false => routed_payload_keys(host, event, flavor),
        };
        let payload = match native {
            true => format!("the {} payload of `{event}`", flavor.name()),
            false => format!(
                "the {} payload hookx builds from {display}'s `{event}`",
                flavor.name()
            ),
        };
        if let Some(keys) = keys {
            for handler in &rule.handlers {
                verdict.findings.extend(self.payload_findings(
                    source,
                    handler,
                    (flavor, &payload),
                    event,
                    &keys,
                ));
            }
        }
        verdict
    }

    /// Whether a hookx route for `event` sits in a file `host` reads itself; where the event is
    /// a tool category of the host (Windsurf), a route of one of `names`.
    fn routed(&self, host: Dialect, event: &EventKind, names: &[&str]) -> bool {
        let by_category = host.default_flavor().tables().event_name(event).is_none();
        self.sources
            .iter()
            .filter(|s| discover::runner(host, s) == Runner::Native)
            .filter_map(Source::document)
            .flat_map(|d| &d.rules)
            .any(|r| {
                r.event == *event
                    && r.handlers
                        .iter()
                        .any(crate::commands::install::is_hookx_handler)
                    && (!by_category
                        || r.flavor
                            .tables()
                            .event_name(event)
                            .is_some_and(|n| names.contains(&n)))
            })
    }

    /// Keys the handler seems to read that its payload lacks (a guess from a scan).
    fn payload_findings(
        &self,
        source: &Source,
        handler: &Handler,
        (flavor, payload): (Flavor, &str),
        event: &EventKind,
        keys: &[String],
    ) -> Vec<Finding> {
        let HandlerKind::Command(command) = &handler.kind else {
            return Vec::new();
        };
        let Some(line) = command.unix_line() else {
            return Vec::new();
        };
        let mut text = line.to_string();
        let mut scanned = "its command".to_string();
        if let Some(script) = self.script_of(source, line)
            && let Ok(body) = read_limited(&script)
        {
            text.push('\n');
            text.push_str(&body);
            scanned = self.ctx.display(&script);
        }
        let known = known_payload_keys();
        let mut findings = Vec::new();
        let mut seen = BTreeSet::new();
        for (top, sub) in field_reads(&text) {
            if !seen.insert((top.clone(), sub.clone())) {
                continue;
            }
            if !keys.contains(&top) {
                if !known.contains(top.as_str()) {
                    continue;
                }
                let twin = [
                    crate::protocol::camel_to_snake(&top),
                    crate::protocol::snake_to_camel(&top),
                ]
                .into_iter()
                .find(|k| k != &top && keys.contains(k));
                findings.push(Finding::new(
                    Level::Warning,
                    format!(
                        "its handler seems to read `{top}`, which {payload} lacks (a guess from a scan of {scanned})"
                    ),
                    twin.map(|t| format!("read `.{t}` instead")),
                ));
                continue;
            }
            if let Some(sub) = sub
                && event.is_tool_event()
                && let Some(own) = argument_name(flavor, &sub)
            {
                findings.push(Finding::new(
                    Level::Warning,
                    format!(
                        "its handler seems to read `{top}.{sub}`, which {} payloads name `{own}` (a guess from a scan of {scanned})",
                        flavor.name()
                    ),
                    Some(format!("read `.{top}.{own}` instead")),
                ));
            }
        }
        findings
    }

    /// The script a command line runs, if one of its words names a file: relative to the
    /// project (where hooks run), or below a project-directory or plugin-root variable.
    fn script_of(&self, source: &Source, line: &str) -> Option<PathBuf> {
        let mut vars: Vec<(&str, PathBuf)> = Vec::new();
        for d in Dialect::all() {
            if let Some(v) = d.config().project_dir_variable {
                vars.push((v, self.ctx.project.clone()));
            }
            for f in d.flavors() {
                if let Some(v) = f.tables().project_dir_var {
                    vars.push((v, self.ctx.project.clone()));
                }
            }
            if let (Some(v), Some(root)) = (d.config().plugin_root_var, source.plugin_root()) {
                vars.push((v, root.to_path_buf()));
            }
        }
        line.split_whitespace()
            .map(|w| w.replace(['"', '\'', ';'], ""))
            .filter(|w| !w.is_empty() && !w.starts_with('-'))
            .map(|mut word| {
                for (var, value) in &vars {
                    for form in [format!("${{{var}}}"), format!("${var}")] {
                        word = word.replace(&form, &value.display().to_string());
                    }
                }
                word
            })
            .map(|word| match Path::new(&word).is_absolute() {
                true => PathBuf::from(word),
                false => self.ctx.project.join(word),
            })
            .find(|p| p.is_file() && p.extension().is_none_or(|e| e != "json"))
    }
}

/// A malformed entry that makes the file's agent skip the whole file: its event and position.
fn skipping_problem(source: &Source) -> Option<(EventKind, String)> {
    let skips = source.dialect.def().malformed_entry_skips_file;
    source
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .find_map(|d| {
            let pointer = d.pointer.as_deref()?;
            let key = pointer
                .strip_prefix("/hooks/")
                .unwrap_or(pointer.trim_start_matches('/'))
                .split('/')
                .next()?;
            let kind = source
                .dialect
                .flavors()
                .find_map(|f| f.tables().event_kind(key))?;
            skips
                .contains(&kind)
                .then(|| (kind, format!("{}:{}", d.line, d.col)))
        })
}

/// The event name an unknown key most likely meant: one of its own flavour's (same casing),
/// else any of its dialect's.
fn closest_event(key: &str, flavor: Flavor) -> Option<&'static str> {
    flavor
        .tables()
        .events
        .iter()
        .map(|(_, name)| {
            (
                strsim::jaro_winkler(&key.to_lowercase(), &name.to_lowercase()),
                *name,
            )
        })
        .filter(|(score, _)| *score > 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
        .or_else(|| did_you_mean(key, flavor.dialect()))
}

/// The event key as the file wrote it.
fn written_key(rule: &Rule) -> String {
    match &rule.event {
        EventKind::Other(key) => key.clone(),
        kind => rule
            .flavor
            .tables()
            .event_name(kind)
            .map_or_else(|| kind.name().to_string(), str::to_string),
    }
}

fn handler_summary(handlers: &[Handler]) -> String {
    let first = handlers.first().map_or(String::new(), |h| match &h.kind {
        HandlerKind::Command(c) => c
            .unix_line()
            .or_else(|| c.windows_line())
            .unwrap_or_default()
            .to_string(),
        HandlerKind::Prompt(p) | HandlerKind::Agent(p) => format!("prompt: {}", p.prompt),
        HandlerKind::Service(s) => s.type_name.to_string(),
    });
    let mut text = crate::commands::list::shorten(&first, 60);
    if handlers.len() > 1 {
        text.push_str(&format!(" (+{})", handlers.len() - 1));
    }
    text
}

/// A path for a command line: quoted when it needs it.
fn shell_path(display: &str) -> String {
    if display.starts_with("~/") && !display.contains([' ', '\'', '"']) {
        display.to_string()
    } else {
        crate::shell::shell_quote(display)
    }
}

/// The policy setting that leaves only policy hooks running, as `policy` writes it.
pub fn only_managed(policy: &Source, key: &str) -> String {
    crate::config::syntax::Format::of(&policy.path.to_string_lossy()).setting(key, "true")
}

/// For an agent that runs only the handlers its user reviewed (`DialectDef::route_trust`), the
/// handlers of `source` it skips because their review record is missing or hashes other
/// content; `None` when it runs them all.
fn unreviewed(ctx: &Context, host: Dialect, source: &Source) -> Option<Finding> {
    let review = host.def().route_trust.as_ref()?;
    let src = SourceFile::read(&source.path).ok()?;
    let value = match crate::config::syntax::Format::of(&src.path) {
        crate::config::syntax::Format::Toml => crate::config::syntax::parse_toml(&src).ok()?,
        crate::config::syntax::Format::Json => {
            let syntax = crate::config::read::json_syntax(&src, source.dialect);
            crate::config::syntax::parse_json_as(&src, syntax).ok()?
        }
        crate::config::syntax::Format::Frontmatter => return None,
    };
    let text = std::fs::read_to_string(ctx.home.join(review.file)).unwrap_or_default();
    let records = (review.records)(&source.path, &value, &|_| true);
    let (mut missing, mut stale) = (0, 0);
    for (key, value) in &records {
        match (review.recorded)(&text, key) {
            Some(recorded) if recorded == *value => {}
            Some(_) => stale += 1,
            None => missing += 1,
        }
    }
    if missing + stale == 0 {
        return None;
    }
    let display = host.def().display;
    let why: Vec<String> = [(missing, "never reviewed"), (stale, "changed since review")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    Some(Finding::new(
        Level::Warning,
        format!(
            "{display} runs only handlers its user reviewed (records in ~/{}), and silently skips {} of the {} here: {}",
            review.file,
            missing + stale,
            records.len(),
            why.join(", ")
        ),
        Some(format!("review and trust them in {display} itself")),
    ))
}

/// Whether the agent's trusted-folder record trusts the project.
fn folder_trusted(ctx: &Context, gate: &crate::tables::FolderTrust) -> bool {
    gate.trusts(&ctx.home, &ctx.project)
}

/// Why the rule's matcher can never match what `host` sends, read as `flavor`; `None` when it
/// can (or is not checked).
fn matcher_finding(rule: &Rule, flavor: Flavor, host: Dialect) -> Option<Finding> {
    let matcher = rule.matcher.as_deref()?;
    let tables = flavor.tables();
    let on = tables.matcher_target(&rule.event)?;
    let mut read_as = rule.clone();
    read_as.flavor = flavor;
    let sent = host.default_flavor().tables();
    let events: Vec<Event> = match on {
        MatchOn::ToolName => sent
            .tools
            .iter()
            .map(|(id, _)| Event {
                kind: rule.event.clone(),
                timestamp: None,
                tool: Some(ToolCall {
                    name: id.to_string(),
                    input: json!({}),
                }),
                fields: Map::new(),
            })
            .collect(),
        MatchOn::Field(name) => sent
            .matcher_values(&rule.event)?
            .iter()
            .map(|value| Event {
                kind: rule.event.clone(),
                timestamp: None,
                tool: None,
                fields: Map::from_iter([(name.to_string(), json!(value))]),
            })
            .collect(),
        MatchOn::Unverified => return None,
    };
    let mut invalid = None;
    for event in &events {
        match rules_match([&read_as], event).pop() {
            Some(MatchVerdict::Match) => return None,
            Some(MatchVerdict::Unevaluable(_)) => return None,
            Some(MatchVerdict::Invalid(why)) => invalid = Some(why),
            _ => {}
        }
    }
    // Names the host makes up as it goes (MCP tools) are not in any table.
    if on == MatchOn::ToolName && matcher.contains("mcp") {
        return None;
    }
    let version = tables.verified_with.unwrap_or("documents only");
    if let Some(why) = invalid {
        let effect = tables
            .invalid_matcher_effect
            .unwrap_or("the agent cannot match it");
        return Some(Finding::new(Level::Error, format!("{why}; {effect}"), None));
    }
    let (what, sends) = match on {
        MatchOn::ToolName => (
            "tool",
            sent.tools
                .iter()
                .filter_map(|(id, _)| tables.tool_name(id))
                .collect::<Vec<_>>(),
        ),
        MatchOn::Field(name) => (name, sent.matcher_values(&rule.event)?.to_vec()),
        MatchOn::Unverified => return None,
    };
    let fix = (on == MatchOn::ToolName)
        .then(|| corrected_matcher(matcher, flavor))
        .flatten()
        .map(|m| format!("matcher \"{m}\""));
    Some(Finding::new(
        Level::Error,
        format!(
            "matcher `{matcher}` matches no {what} {} sends for `{}` ({}: {}; {version})",
            host.def().display,
            rule.event,
            flavor.name(),
            sends.join(", ")
        ),
        fix,
    ))
}

/// A note on a tool matcher that names a tool by an old name its agent still accepts (Claude's
/// `Task` for `Agent`): it fires today, under a name that may go.
fn alias_note(rule: &Rule, flavor: Flavor) -> Option<Finding> {
    let matcher = rule.matcher.as_deref()?;
    let tables = flavor.tables();
    if tables.matcher_target(&rule.event) != Some(MatchOn::ToolName) {
        return None;
    }
    let words = matcher.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    let (alias, name) = words.into_iter().find_map(|word| {
        tables
            .tools
            .iter()
            .find(|(_, names)| names[1..].contains(&word))
            .map(|(_, names)| (word, names[0]))
    })?;
    Some(Finding::new(
        Level::Note,
        format!(
            "`{alias}` is an old name of `{name}`, which {} still matches ({})",
            flavor.name(),
            tables.verified_with.unwrap_or("documents only")
        ),
        corrected_matcher(matcher, flavor).map(|m| format!("matcher \"{m}\"")),
    ))
}

/// The matcher with every tool name another flavour spells rewritten in `flavor`'s spelling
/// (`Edit` → `edit`, `Task` → `Agent`); `None` when nothing changes.
fn corrected_matcher(matcher: &str, flavor: Flavor) -> Option<String> {
    let tables = flavor.tables();
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let id = Flavor::all()
            .iter()
            .find(|f| f.tables().all_tool_names().any(|n| n == word.as_str()))
            .map(|f| f.tables().canonical_tool(word));
        match id.and_then(|id| tables.tool_name(id)) {
            Some(own)
                if own != word.as_str()
                    && !tables
                        .tools
                        .iter()
                        .any(|(_, names)| names.first() == Some(&word.as_str())) =>
            {
                out.push_str(own)
            }
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in matcher.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    (out != matcher).then_some(out)
}

/// A timeout that reads like milliseconds in a field that counts seconds.
fn timeout_finding(handler: &Handler, flavor: Flavor) -> Option<Finding> {
    let t = handler.timeout.filter(|t| *t >= MILLISECONDS_LIKELY)?;
    let dialect = flavor.dialect();
    let key = flavor
        .handler_key(HandlerField::Timeout)
        .unwrap_or("timeout");
    Some(Finding::new(
        Level::Warning,
        format!(
            "timeout {t} is seconds ({} min) in {}: milliseconds in a seconds field? The hook is not cut off after {} s",
            t / 60,
            dialect.def().display,
            (t / 1000).max(1)
        ),
        Some(format!("\"{key}\": {}", (t / 1000).max(1))),
    ))
}

/// The keys a handler of `flavor` gets when hookx runs it for `host`'s `event`: the host's
/// recorded payload, decoded and encoded as hookx's run path does. `None` when the host's
/// payload was never recorded.
/// The host's event names that must route `rule` to hookx: its event's, or, where the host has
/// one event per tool category (Windsurf), those of the categories the rule fires for.
fn route_names(host: Dialect, rule: &Rule) -> Vec<&'static str> {
    let tools = crate::convert::RuleTools::new(rule, &rule.event);
    host.own_events()
        .into_iter()
        .filter(|(kind, _, flavor)| {
            *kind == rule.event
                && tools.in_category(*flavor) != Some(crate::convert::CategoryFire::Never)
        })
        .map(|(_, name, _)| name)
        .collect()
}

fn routed_payload_keys(host: Dialect, event: &EventKind, flavor: Flavor) -> Option<Vec<String>> {
    let sent = host.default_flavor();
    let t = sent.tables();
    let keys = t.payload_keys(event)?;
    let name = t.event_name(event)?;
    let tool = t.tools.first().and_then(|(_, n)| n.first()).copied();
    let mut payload = Map::new();
    // Values of the shape each key has (what decoding looks at); the keys are what counts.
    for key in keys {
        let value = match crate::protocol::canonical_key(t, key).as_str() {
            _ if *key == t.protocol.event_key => json!(name),
            "timestamp" => match t.timestamp {
                crate::tables::TimestampForm::EpochMillis => json!(1_700_000_000_000u64),
                _ => json!("2026-01-01T00:00:00Z"),
            },
            "tool_name" => json!(tool),
            "tool_input" | "tool_response" => json!({}),
            _ => json!("x"),
        };
        payload.insert(key.to_string(), value);
    }
    let bytes = serde_json::to_vec(&Value::Object(payload)).ok()?;
    let (mut decoded, _) =
        crate::protocol::payload::decode_event_as(&bytes, host, Some(name)).ok()?;
    // A host that nests the call in an object (Cline's `preToolUse`) gets none from the sample's
    // flat values: its tool events still carry one, and a result after it.
    if event.is_tool_event() && decoded.tool.is_none() {
        decoded.tool = Some(crate::model::ToolCall {
            name: t.canonical_tool(tool.unwrap_or_default()).to_string(),
            input: json!({}),
        });
        if *event == EventKind::PostToolUse {
            decoded.fields.insert("tool_response".into(), json!({}));
        }
    }
    match crate::protocol::payload::encode_event(&decoded, flavor) {
        Value::Object(out) => Some(out.keys().cloned().collect()),
        _ => None,
    }
}

/// Every top-level key any recorded payload had: a key a script reads that is none of these
/// is not a payload key (a variable, a config field) and is not reported.
fn known_payload_keys() -> BTreeSet<&'static str> {
    Flavor::all()
        .iter()
        .flat_map(|f| f.tables().payload_keys)
        .flat_map(|(_, keys)| keys.iter().copied())
        .collect()
}

/// How `flavor` names a tool argument written `name` in another flavour, when it differs.
fn argument_name(flavor: Flavor, name: &str) -> Option<&'static str> {
    let canonical = Flavor::all()
        .iter()
        .flat_map(|f| f.tables().tool_args)
        .flat_map(|(_, pairs)| pairs.iter())
        .find(|(canonical, native)| *native == name || *canonical == name)
        .map(|(canonical, _)| *canonical)?;
    let own: Vec<&'static str> = flavor
        .tables()
        .tool_args
        .iter()
        .flat_map(|(_, pairs)| pairs.iter())
        .filter(|(c, _)| *c == canonical)
        .map(|(_, n)| *n)
        .collect();
    let own = own.first().copied().unwrap_or_else(|| {
        Flavor::all()
            .iter()
            .flat_map(|f| f.tables().tool_args)
            .flat_map(|(_, pairs)| pairs.iter())
            .find(|(c, _)| *c == canonical)
            .map_or("", |(c, _)| *c)
    });
    (own != name && !own.is_empty()).then_some(own)
}

/// Up to [`SCRIPT_LIMIT`] bytes of a script, if it is text.
fn read_limited(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(SCRIPT_LIMIT)
        .read_to_end(&mut bytes)?;
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// The payload fields a command or script seems to read: `jq` paths (`.tool_input.command`)
/// on lines that call `jq`, and subscripts or `get` calls (`["tool_name"]`, `.get('cwd')`)
/// anywhere. Each read is a top-level key and, when chained, the key below it.
pub fn field_reads(text: &str) -> Vec<(String, Option<String>)> {
    let mut reads = Vec::new();
    let ident = |s: &str| -> usize {
        s.char_indices()
            .find(|(i, c)| {
                !(c.is_ascii_alphanumeric() || *c == '_') || (*i == 0 && c.is_ascii_digit())
            })
            .map_or(s.len(), |(i, _)| i)
    };
    for line in text.lines() {
        if line.contains("jq") {
            let bytes = line.as_bytes();
            for (i, _) in line.match_indices('.') {
                let before = if i == 0 { b' ' } else { bytes[i - 1] };
                if !matches!(
                    before,
                    b' ' | b'\'' | b'"' | b'(' | b'|' | b',' | b'{' | b'[' | b'\t'
                ) {
                    continue;
                }
                let rest = &line[i + 1..];
                let n = ident(rest);
                if n == 0 {
                    continue;
                }
                let top = rest[..n].to_string();
                let sub = rest[n..]
                    .strip_prefix('.')
                    .map(|r| &r[..ident(r)])
                    .filter(|s| !s.is_empty())
                    .map(str::to_string);
                reads.push((top, sub));
            }
        }
        // `["key"]`, `['key']`, `.get("key")`, chained.
        let mut rest = line;
        while let Some(at) = rest.find(['[', '(']) {
            let after = &rest[at + 1..];
            let opener_ok = rest[at..].starts_with('[') || rest[..at].ends_with("get");
            let quoted = after.strip_prefix('"').or_else(|| after.strip_prefix('\''));
            rest = after;
            let (true, Some(q)) = (opener_ok, quoted) else {
                continue;
            };
            let n = ident(q);
            if n == 0 || !q[n..].starts_with(['"', '\'']) {
                continue;
            }
            let top = q[..n].to_string();
            let tail = &q[n + 1..];
            rest = tail;
            let sub = tail
                .strip_prefix("][\"")
                .or_else(|| tail.strip_prefix("]['"))
                .or_else(|| tail.strip_prefix(").get(\""))
                .or_else(|| tail.strip_prefix(").get('"))
                .map(|r| r[..ident(r)].to_string())
                .filter(|s| !s.is_empty());
            if let Some(sub) = &sub {
                // The chained subscript is read here, not again as a key of its own.
                rest = &tail[tail.find(sub.as_str()).map_or(0, |i| i + sub.len())..];
            }
            reads.push((top, sub));
        }
    }
    reads
}

/// The report for people: per file, who runs it under each host; per rule, whether it fires.
pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    let hosts: Vec<String> = report
        .hosts
        .iter()
        .map(|h| {
            format!(
                "{} ({})",
                h.host,
                h.verified_with.unwrap_or("documents only")
            )
        })
        .collect();
    out.push_str(&format!("hosts: {}\n", hosts.join(", ")));
    for host in &report.hosts {
        for finding in &host.policy {
            push_finding(&mut out, &format!("  {}: ", host.host), finding);
        }
    }
    if report.files.is_empty() {
        out.push_str("\nno hook files found\n");
    }
    let width = report
        .hosts
        .iter()
        .map(|h| h.host.name().len())
        .max()
        .unwrap_or(0);
    for file in &report.files {
        out.push_str(&format!(
            "\n{}  ({} {})\n",
            file.file, file.dialect, file.scope
        ));
        for problem in &file.problems {
            push_finding(&mut out, "  ", problem);
        }
        for loading in &file.hosts {
            let runner = match loading.runner {
                Runs::Native => "read by the host",
                Runs::Hookx => "run through hookx",
                Runs::Nobody => "run by nobody",
            };
            out.push_str(&format!("  {:width$}  {runner}\n", loading.host.name()));
            for finding in &loading.findings {
                push_finding(&mut out, &" ".repeat(width + 4), finding);
            }
        }
        for rule in &file.rules {
            let matcher = rule
                .matcher
                .as_deref()
                .map_or(String::new(), |m| format!(" \"{m}\""));
            let line = rule.line.map_or(String::new(), |l| format!(" (line {l})"));
            out.push_str(&format!(
                "  {}{matcher}{line}: {}\n",
                rule.event, rule.handler
            ));
            for verdict in &rule.hosts {
                let mut head = match verdict.status {
                    Status::Fires => "fires".to_string(),
                    Status::Blocked => "blocked".to_string(),
                    Status::Never => "never fires".to_string(),
                    Status::Off => "turned off".to_string(),
                };
                if verdict.status < Status::Never && verdict.runner != Runs::Nobody {
                    let runner = match verdict.runner {
                        Runs::Native => "natively",
                        Runs::Hookx => "through hookx",
                        Runs::Nobody => "by nobody",
                    };
                    head.push_str(&format!(", {runner}"));
                    if let Some(payload) = verdict.payload {
                        head.push_str(&format!(", {payload} payload"));
                    }
                }
                out.push_str(&format!("    {:width$}  {head}\n", verdict.host.name()));
                for finding in &verdict.findings {
                    push_finding(&mut out, &" ".repeat(width + 6), finding);
                }
            }
        }
    }
    if report.never_fire > 0 {
        out.push_str(&format!(
            "\n{} rule{} can fire under none of these hosts\n",
            report.never_fire,
            if report.never_fire == 1 { "" } else { "s" }
        ));
    }
    out
}

fn push_finding(out: &mut String, indent: &str, finding: &Finding) {
    let mark = match finding.level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "note",
    };
    out.push_str(&format!("{indent}{mark}: {}\n", finding.message));
    if let Some(fix) = &finding.fix {
        out.push_str(&format!("{indent}  fix: {fix}\n"));
    }
}
