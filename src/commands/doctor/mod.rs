//! `hookx doctor`: why a hook does or does not fire. For every hook file and rule of every
//! scope, per host agent: whether the host loads the file (location, folder trust, parse
//! problems, the machine's policy), whether the rule can fire (its event and matcher against
//! what the host sends, from the dialect tables and the client version that verified them),
//! who runs it (the host, hookx, nobody), what payload its handler gets and whether the handler
//! seems to read keys that payload lacks, and the fix, as a command where there is one.
//!
//! Everything agent-specific comes from the dialect tables: this module names no agent.
//!
//! Here: the command and the diagnosis, file by file and host by host. The checks are by
//! kind: `loading` (does a host load the file), `verdict` (does a rule fire),
//! `matcher` (can its matcher match), `payload` (what its handlers read); `report` is
//! what they find, `render` prints it.

pub(crate) mod after_route;
mod loading;
mod matcher;
mod payload;
mod render;
mod report;
mod verdict;

use after_route::hooks_after_the_route;
pub use payload::field_reads;
pub use render::render_text;
pub use report::{
    FileReport, Finding, HostReport, Level, Loading, Report, RuleReport, Runs, Status, Verdict,
};

use crate::commands::list::{only_managed, shorten};
use crate::diag::Severity;
use crate::discover::{self, Context, Source};
use crate::error::Error;
use crate::model::{EventKind, Handler, HandlerKind};
use crate::source::SourceFile;
use crate::tables::Dialect;
use crate::tables::Rule;
use crate::tables::Scope;
use crate::trust::TrustStore;

/// Exit code when some rule fires under none of the agents examined: it is blocked (until
/// its fix) or never fires under each of them.
pub const NEVER_FIRES_EXIT: i32 = 5;

/// What `hookx doctor` examines.
#[derive(Clone, Debug)]
pub struct Options {
    pub ctx: Context,
    /// Only this host; when `None`, the agents the user has ([`Hosts::Had`]).
    pub host: Option<Dialect>,
    /// Every registered agent, had or not.
    pub all_hosts: bool,
    pub json: bool,
}

/// Which agents a diagnosis examines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hosts {
    One(Dialect),
    /// The agents the user has ([`had`]).
    Had,
    All,
}

/// `hookx doctor`: prints the report; exits [`NEVER_FIRES_EXIT`] when a rule fires nowhere.
pub fn command(opts: &Options) -> Result<i32, Error> {
    let hosts = match (opts.host, opts.all_hosts) {
        (Some(host), _) => Hosts::One(host),
        (None, true) => Hosts::All,
        (None, false) => Hosts::Had,
    };
    let report = diagnose(&opts.ctx, hosts);
    if opts.json {
        let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
        text.push('\n');
        crate::commands::out!("{text}");
    } else {
        // Coloured as validate's: on a terminal, unless NO_COLOR.
        // A matcher or command read from a file is shown as text, not sent to the terminal.
        let text = crate::diag::style(&crate::diag::visible_lines(&render_text(&report)));
        crate::commands::write_to(&mut anstream::stdout(), format_args!("{text}"));
    }
    Ok(if report.never_fire > 0 {
        NEVER_FIRES_EXIT
    } else {
        0
    })
}

/// The diagnosis of every hook file of the project and home, under the agents `hosts` names.
pub fn diagnose(ctx: &Context, hosts: Hosts) -> Report {
    // The record as `hookx run` reads it: one it refuses trusts nothing here either.
    let (store, refused) = TrustStore::load_for_run(ctx);
    let mut sources = discover::discover_trusting(ctx, &store);
    let one = matches!(hosts, Hosts::One(_));
    let mut found: Vec<(Dialect, String)> = match hosts {
        Hosts::One(h) => vec![(h, "--host".to_string())],
        Hosts::All => Dialect::all()
            .iter()
            .map(|d| (*d, "--all-hosts".to_string()))
            .collect(),
        Hosts::Had => had(ctx, &sources),
    };
    // An agent whose hooks are code, where hookx's plugin for it is installed.
    for plugin in crate::route::plugin_files(&ctx.project, &ctx.home) {
        if !one && plugin.own && plugin.routes > 0 && !found.iter().any(|(d, _)| *d == plugin.host)
        {
            found.push((
                plugin.host,
                format!("hookx's plugin {}", ctx.display(&plugin.path)),
            ));
        }
    }
    let not_examined: Vec<Dialect> = Dialect::all()
        .iter()
        .filter(|d| !found.iter().any(|(f, _)| f == *d))
        .copied()
        .collect();
    let hosts: Vec<Dialect> = found.iter().map(|(d, _)| *d).collect();
    let plans = hosts
        .iter()
        .map(|h| crate::plan::plan_in(ctx, &mut sources, *h, &store))
        .collect();
    let doctor = Doctor {
        ctx,
        sources: &sources,
        store: &store,
        likely_copies: crate::plan::likely_copies(&sources),
        plans,
        uncalled: Default::default(),
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
    // A rule fires nowhere when it fires under none of the agents (blocked until its fix, or
    // never); one the user turned off somewhere is meant not to. Under an agent whose plan
    // gives a copy's rule another file's runner, the rule is that file's, counted there
    // (attacks row 444: a copy Codex never reviewed, its rule run through hookx's route,
    // failed CI).
    let never_fire = unreadable
        + dropped
        + files
            .iter()
            .flat_map(|f| &f.rules)
            .filter(|r| {
                let mut own = r.hosts.iter().filter(|v| !v.run_elsewhere).peekable();
                own.peek().is_some()
                    && own.all(|v| matches!(v.status, Status::Never | Status::Blocked))
            })
            .count();
    let trust: Vec<Finding> = refused
        .iter()
        .map(|why| {
            Finding::new(
                Level::Error,
                format!(
                    "{why}: `hookx run` refuses it and trusts nothing, so no file that needs `hookx trust` runs (a tool call it would guard is denied)"
                ),
                Some(why.fix()),
            )
        })
        .collect();
    // Places of a hook file that hold what no agent reads as one (attacks row 587).
    let unreadable: Vec<Finding> = discover::unreadable_places(ctx, &sources)
        .into_iter()
        .map(|(path, dialect, why)| {
            let said = format!(
                "{} {why}: {} reads no hooks from it, nor does hookx",
                ctx.display(&path),
                dialect.def().display
            );
            let fix = "make it the hook file, or remove it".to_string();
            Finding::new(Level::Warning, said, Some(fix))
        })
        .collect();
    Report {
        never_fire: never_fire + trust.len() + unreadable.len(),
        unreadable,
        hosts: found
            .iter()
            .map(|(h, why)| doctor.host(*h, why.clone()))
            .collect(),
        not_examined,
        trust,
        files,
    }
}

/// The agents the user has, each with the first sign of it: its client on `PATH` or where its
/// installer puts it, one of its folders in the project or home (`DialectDef::presence`), or
/// a hookx route for it in a file it reads.
pub fn had(ctx: &Context, sources: &[Source]) -> Vec<(Dialect, String)> {
    let path: Vec<std::path::PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    let executable = |p: &std::path::Path| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let mut had = Vec::new();
    for dialect in Dialect::all() {
        let presence = &dialect.def().presence;
        let program = presence
            .programs
            .iter()
            .find(|p| path.iter().any(|dir| executable(&dir.join(p))))
            .map(|p| format!("`{p}` on PATH"));
        let installed = || {
            presence
                .installs
                .iter()
                .find(|rel| executable(&ctx.home.join(rel)))
                .map(|rel| format!("~/{rel}"))
        };
        let folder = || {
            presence.folders.iter().find_map(|rel| {
                [(&ctx.project, ""), (&ctx.home, "~/")]
                    .into_iter()
                    .find(|(root, _)| root.join(rel).is_dir())
                    .map(|(_, shown)| format!("{shown}{rel}/"))
            })
        };
        let routed = || {
            sources
                .iter()
                .filter(|s| discover::runner(*dialect, s) == discover::Runner::Native)
                .filter(|s| s.dialect == *dialect)
                .any(|s| {
                    s.document().is_some_and(|d| {
                        d.rules
                            .iter()
                            .any(|r| r.handlers.iter().any(crate::route::is_hookx_handler))
                    })
                })
                .then(|| "a hookx route".to_string())
        };
        if let Some(why) = program.or_else(installed).or_else(folder).or_else(routed) {
            had.push((*dialect, why));
        }
    }
    had
}

/// Who runs `rule` of `source` under a host by the plan of the hook set (issue "One hook set,
/// each rule once", [`crate::plan`]): the agent from one file, hookx from one copy, or nobody.
/// Said without the host's name, which the line gives, so that agents alike group.
fn runner_text(runner: &crate::plan::Runner) -> String {
    use crate::plan::Runner;
    match runner {
        Runner::Agent { file, .. } => format!("the agent, from {file}"),
        Runner::AgentOwnPayload { file, payload, .. } => {
            format!("the agent, from {file}, with its {payload} payload")
        }
        Runner::Hookx { file } => format!("hookx, from {file}"),
        Runner::Nobody { why } => format!("nobody ({why})"),
    }
}

/// What every check reads: the folders, every source found, and hookx's trust record.
struct Doctor<'a> {
    ctx: &'a Context,
    sources: &'a [Source],
    store: &'a TrustStore,
    /// Handlers that look like hand-made copies of another file's rule ([`crate::plan`]).
    likely_copies: std::collections::HashMap<crate::plan::CopyKey, String>,
    /// The plan of each agent examined: who runs each rule, once.
    plans: Vec<crate::plan::Plan>,
    /// Why each agent does not call hookx for an event it has a route for
    /// ([`crate::dispatch::simulate::uncalled`]), asked once per agent and event.
    uncalled: std::cell::RefCell<std::collections::HashMap<(Dialect, EventKind), Option<String>>>,
}

impl Doctor<'_> {
    /// The runner of `rule` of `source` (its first handler's) under `host`, by the plan,
    /// where it is not this copy (how this copy runs is said already): another file's copy,
    /// or nobody.
    fn planned_runner(
        &self,
        source: &Source,
        rule: &Rule,
        host: Dialect,
    ) -> Option<&crate::plan::Runner> {
        use crate::plan::Runner;
        let plan = self.plans.iter().find(|p| p.host == host)?;
        // The runner of a handler someone runs, where one is: the host may skip some handlers
        // of a rule and run the rest (Codex's review, attacks row 582).
        let runners =
            (0..rule.handlers.len().max(1)).filter_map(|i| plan.runner_for(source, rule, i));
        let runner = runners
            .clone()
            .find(|r| !matches!(r, Runner::Nobody { .. }))
            .or_else(|| runners.clone().next())?;
        match runner {
            Runner::Agent { file, .. }
            | Runner::AgentOwnPayload { file, .. }
            | Runner::Hookx { file }
                if *file == source.display =>
            {
                None
            }
            _ => Some(runner),
        }
    }
}

impl Doctor<'_> {
    /// One host: its verified client release and what its machine's policy does.
    fn host(&self, host: Dialect, found: String) -> HostReport {
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
        // The agent's folder variable names another folder: it reads its user hooks there,
        // where doctor reads them too, and not hookx's install file below the home (attacks
        // row 388: doctor said "no route" without naming the variable).
        let rel = host.config().install_user;
        let (read_there, below_home) = (self.ctx.agent_file(host, rel), self.ctx.home.join(rel));
        if let Some(var) = host.def().home_var.as_ref()
            && !crate::context::same_place(&read_there, &below_home)
        {
            let display = host.def().display;
            let left = below_home.exists().then(|| {
                format!(
                    ", not {}, which is there: {display} does not run it while {} is set",
                    self.ctx.display(&below_home),
                    var.var
                )
            });
            // Said as a note where nothing below the home is left out.
            let level = match left {
                Some(_) => Level::Warning,
                None => Level::Note,
            };
            policy.push(Finding::new(
                level,
                format!(
                    "{} is set, so {display} reads its user hooks from {}{}",
                    var.var,
                    read_there.display(),
                    left.as_deref().unwrap_or_default()
                ),
                left.map(|_| {
                    format!(
                        "move {} to {}, or unset {}",
                        self.ctx.display(&below_home),
                        read_there.display(),
                        var.var
                    )
                }),
            ));
        }
        // A deny through a route that ends more than the call (Cline: the whole run).
        if let Some(effect) = host.config().scripts.and_then(|l| l.deny_effect)
            && self.routed(host, &EventKind::PreToolUse, &[])
        {
            policy.push(Finding::new(Level::Warning, effect, None));
        }
        // A route whose hookx is gone, where a failed hook denies (attacks row 641).
        policy.extend(self.denying_routes(host));
        policy.extend(self.unguarded_user_routes(host));
        policy.extend(self.routes_without_their_folder(host));
        policy.extend(self.routed_above(host));
        let install_routes = [
            crate::route::InstallScope::Project,
            crate::route::InstallScope::User,
        ]
        .into_iter()
        .flat_map(|scope| super::install::routed_events(self.ctx, host, scope))
        .collect();
        policy.extend(hooks_after_the_route(self.sources, host));
        HostReport {
            host,
            verified_with: host.default_flavor().tables().verified_with,
            found,
            policy,
            install_routes,
        }
    }

    /// The folders above the project whose project file the host loads too, started here, and
    /// whose own hookx route runs their rules as well ([`crate::dispatch::project::routed_above`]):
    /// a note each, naming the events. Doctor shows the project's files; Codex started in a
    /// package ran the root's guard too, and doctor did not say so (attacks row 682).
    fn routed_above(&self, host: Dialect) -> Vec<Finding> {
        let mut folders: Vec<(std::path::PathBuf, Vec<&str>)> = Vec::new();
        for (_, name, _) in host.own_events() {
            let ctx = self.ctx;
            let above = crate::dispatch::project::routed_above(
                host,
                &ctx.home,
                &ctx.managed_root,
                &ctx.project,
                name,
            );
            for folder in above {
                match folders.iter_mut().find(|(f, _)| *f == folder) {
                    Some((_, events)) if !events.contains(&name) => events.push(name),
                    Some(_) => {}
                    None => folders.push((folder, vec![name])),
                }
            }
        }
        folders
            .into_iter()
            .map(|(folder, events)| {
                let file = crate::route::target(
                    &self.ctx.home,
                    &folder,
                    host,
                    crate::route::InstallScope::Project,
                );
                let shown = folder.display().to_string();
                Finding::new(
                    Level::Note,
                    format!(
                        "{} started here also loads {}, whose hookx route runs the rules of {shown} as well ({}): `hookx doctor --project {}` shows them",
                        host.def().display,
                        file.display(),
                        events.join(", "),
                        shell_path(&shown)
                    ),
                    None,
                )
            })
            .collect()
    }

    /// One file: who runs it under each host, its rules' verdicts, the entries dropped whole.
    fn file(&self, source: &Source, hosts: &[Dialect]) -> FileReport {
        let text = SourceFile::read(&source.path).ok();
        // Read again only where the agent leaves out single entries.
        let raw = crate::config::strict_load::raw_if_entries_left_out(&source.path, source.dialect);
        let loading: Vec<Loading> = hosts.iter().map(|h| self.loading(source, *h)).collect();
        let rules = source
            .document()
            .map(|d| d.rules.as_slice())
            .unwrap_or_default()
            .iter()
            .filter(|r| !r.handlers.iter().all(crate::route::is_plain_route))
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
                    .map(|l| {
                        let mut verdict = self.verdict(source, rule, l);
                        if verdict.runner == Runs::Native && l.host == source.dialect {
                            left_out(&mut verdict, rule, raw.as_ref(), &source.display);
                        }
                        verdict
                    })
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
}

/// The handlers of `rule` its own agent leaves out ([`crate::config::strict_load::left_out`]:
/// a timeout that is no number of seconds above 0, no `type`, a form it does not load), read
/// in the file as written (`raw`, `None` where the agent keeps them): said, and the rule never
/// fires when it leaves out all of them.
/// `file`: the source's name as the plan's runner gives it.
fn left_out(
    verdict: &mut Verdict,
    rule: &Rule,
    raw: Option<&crate::config::strict_load::Entries>,
    file: &str,
) {
    let Some(raw) = raw else {
        return;
    };
    let left_out = crate::config::strict_load::left_out(rule, raw);
    let display = verdict.host.def().display;
    // The plan's runner for the rule (its first handler) says the same: said once, with the
    // fix, below.
    if let Some(first) = left_out.iter().find(|e| e.index == 0) {
        let plan_says = format!(
            "nobody ({display} does not load this entry of {file}: {})",
            first.why()
        );
        if verdict.planned.as_deref() == Some(plan_says.as_str()) {
            verdict.planned = None;
        }
    }
    for entry in &left_out {
        let which = match rule.handlers.len() {
            1 => "this entry".to_string(),
            _ => format!("its handler {}", entry.index + 1),
        };
        verdict.findings.push(Finding::new(
            Level::Warning,
            format!(
                "{display} does not load {which}: {} (the rest of the file runs)",
                entry.why()
            ),
            Some(entry.fix()),
        ));
    }
    if !left_out.is_empty()
        && left_out.len() == rule.handlers.len()
        && verdict.status != Status::Off
    {
        verdict.status = Status::Never;
        verdict.unrouted.clear();
    }
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

/// A rule's first handler on one line, shortened, with how many more there are.
fn handler_summary(handlers: &[Handler]) -> String {
    let first = handlers.first().map_or(String::new(), |h| match &h.kind {
        // A converted entry is shown as the command it runs, not its wrapper.
        HandlerKind::Command(c) => {
            let line = c
                .unix_line()
                .or_else(|| c.windows_line())
                .unwrap_or_default();
            match crate::convert::innermost(line) {
                Some(inner) => format!(
                    "{} (via hookx exec --as {})",
                    shorten(&inner.command, 60),
                    inner.flavor.name()
                ),
                None => shorten(line, 60),
            }
        }
        HandlerKind::Prompt(p) | HandlerKind::Agent(p) => {
            shorten(&format!("prompt: {}", p.prompt), 60)
        }
        HandlerKind::Service(s) => s.type_name.to_string(),
    });
    let mut text = first;
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
