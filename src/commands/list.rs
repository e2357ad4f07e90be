//! `hookx list`: the effective hook set across every scope and dialect, as an aligned table or
//! a JSON array. Each row is one handler, with where it came from, whether it is trusted, and
//! (with `--host`) who runs it under that host.

use crate::diag::Severity;
use crate::discover::{self, Context, EffectiveRule, Runner, Source};
use crate::error::Error;
use crate::model::HandlerKind;
use crate::tables::Dialect;
use crate::trust::TrustStore;
use serde::Serialize;

/// What `hookx list` shows.
#[derive(Clone, Debug)]
pub struct Options {
    pub ctx: Context,
    /// Show who runs each hook under this host.
    pub host: Option<Dialect>,
    pub json: bool,
}

/// One handler of the effective hook set.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Canonical event name.
    pub event: String,
    /// As written; `None` when absent.
    pub matcher: Option<String>,
    /// `command`, `prompt` or `agent`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The full command line or prompt.
    pub handler: String,
    pub dialect: Dialect,
    /// The dialect variant (`copilot-pascal` for Copilot's PascalCase form).
    pub flavor: &'static str,
    /// The source file as people read it (relative to the project, or `~/…`).
    pub file: String,
    /// The source file, absolute.
    pub path: String,
    pub scope: &'static str,
    /// `trusted`, `untrusted` or `changed`; `null` under a host that runs the file natively or
    /// not at all, where trust does not matter.
    pub trust: Option<&'static str>,
    /// With `--host`: `native`, `hookx`, `inactive`, or `nobody` (a user file found below an
    /// agent's folder variable, which `hookx run` does not read; `off` sources have no rows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<&'static str>,
    /// With `--host`, for a file of another dialect the host runs by itself: the flavour of
    /// the payload its handlers get there (Copilot: `copilot-pascal` for Claude files).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<&'static str>,
    /// For an entry convert wrapped in `hookx exec` ([`crate::convert::wrapped_command`]): the
    /// command it runs, the dialect it runs it as and the hookx it calls; `handler` has the
    /// whole line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrapped: Option<crate::convert::Wrapped>,
}

/// The rows of the effective hook set, in event order, then discovery order.
pub fn rows(
    ctx: &Context,
    rules: &[EffectiveRule<'_>],
    host: Option<Dialect>,
    store: &TrustStore,
) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut sorted: Vec<&EffectiveRule<'_>> = rules.iter().collect();
    sorted.sort_by(|a, b| a.rule.event.cmp(&b.rule.event));
    for entry in sorted {
        let source = entry.source;
        let runner = host.map(|h| discover::runner(h, source));
        // Only hookx would run it under the host, and hookx does not read it there: nobody.
        let moved = host.is_some_and(|h| discover::moved_from_hookx(ctx, h, source).is_some());
        let trust = match runner {
            Some(Runner::Native | Runner::Inactive | Runner::Off) => None,
            _ if moved => None,
            _ => Some(store.state(source).name()),
        };
        for handler in &entry.rule.handlers {
            let (kind, text) = handler_text(handler);
            let wrapped = match kind {
                "command" => crate::convert::wrapped_command(&text),
                _ => None,
            };
            rows.push(Row {
                event: entry.rule.event.name().to_string(),
                matcher: entry.rule.matcher.clone(),
                kind,
                handler: text,
                dialect: source.dialect,
                flavor: entry.rule.flavor.name(),
                file: source.display.clone(),
                path: source.path.display().to_string(),
                scope: source.scope.name(),
                trust,
                run: runner.map(|r| if moved { "nobody" } else { r.name() }),
                payload: host
                    .filter(|_| runner == Some(Runner::Native))
                    .map(|h| h.native_flavor(entry.rule.flavor))
                    .filter(|f| *f != entry.rule.flavor)
                    .map(|f| f.name()),
                wrapped,
            });
        }
    }
    rows
}

/// A handler's type and what it runs: the command line (the Unix one where it has several), the
/// prompt, or what a service handler calls (an http hook's URL, an MCP hook's server and tool).
pub fn handler_text(handler: &crate::model::Handler) -> (&'static str, String) {
    match &handler.kind {
        HandlerKind::Command(c) => (
            "command",
            c.unix_line()
                .or_else(|| c.windows_line())
                .unwrap_or_default()
                .to_string(),
        ),
        HandlerKind::Prompt(p) => ("prompt", p.prompt.clone()),
        HandlerKind::Agent(p) => ("agent", p.prompt.clone()),
        HandlerKind::Service(s) => {
            let field = |k: &str| handler.extra.get(k).and_then(|v| v.as_str());
            let target = match (field("url"), field("server"), field("tool")) {
                (Some(url), _, _) => url.to_string(),
                (None, Some(server), Some(tool)) => format!("{server} {tool}"),
                _ => String::new(),
            };
            (s.type_name, target)
        }
    }
}

/// Widest handler text shown in the table; the JSON has it whole.
const HANDLER_WIDTH: usize = 48;

/// A command or prompt on one line, cut to `max` characters.
pub fn shorten(text: &str, max: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        return one_line;
    }
    let cut: String = one_line.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", cut.trim_end())
}

/// The table, then the sources and anything that switched hooks off.
pub fn render_text(
    rows: &[Row],
    sources: &[Source],
    plugins: &[(String, crate::route::PluginFile)],
    store: &TrustStore,
    with_host: bool,
) -> String {
    let mut header = vec![
        "EVENT", "MATCHER", "HANDLER", "DIALECT", "SOURCE", "SCOPE", "TRUST",
    ];
    if with_host {
        header.push("RUN");
    }
    let mut table: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    for row in rows {
        let handler = match (row.kind, &row.wrapped) {
            // A wrapped entry: its command, not the guard every such entry starts with.
            (_, Some(w)) => {
                let via = format!(" ({})", w.via());
                let room = HANDLER_WIDTH.saturating_sub(via.chars().count()).max(12);
                format!("{}{via}", shorten(&w.command, room))
            }
            ("command", None) => shorten(&row.handler, HANDLER_WIDTH),
            (kind, None) => shorten(&format!("{kind}: {}", row.handler), HANDLER_WIDTH),
        };
        let mut cells = vec![
            row.event.clone(),
            match row.matcher.as_deref() {
                None | Some("") => "*".to_string(),
                Some(m) => shorten(m, 24),
            },
            handler,
            row.flavor.to_string(),
            row.file.clone(),
            row.scope.to_string(),
            row.trust.unwrap_or("-").to_string(),
        ];
        if let Some(run) = row.run {
            cells.push(match row.payload {
                Some(flavor) => format!("{run}, {flavor} payload"),
                None => run.to_string(),
            });
        }
        // Text read from files, shown as text ([`crate::diag::visible`]).
        table.push(
            cells
                .iter()
                .map(|c| crate::diag::visible(c).into_owned())
                .collect(),
        );
    }
    let mut out = String::new();
    if rows.is_empty() {
        out.push_str("no hooks found\n");
    } else {
        out.push_str(&align(&table));
    }
    out.push_str(&render_sources(sources, plugins, store));
    out
}

/// Columns padded to their widest cell, two spaces apart, no trailing blanks.
fn align(table: &[Vec<String>]) -> String {
    let columns = table.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            table
                .iter()
                .filter_map(|r| r.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in table {
        let mut line = String::new();
        for (c, cell) in row.iter().enumerate() {
            line.push_str(cell);
            let pad = widths[c].saturating_sub(cell.chars().count());
            line.push_str(&" ".repeat(pad + 2));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The events of `source`'s hookx routes that a hooks file beside it replaces
/// ([`crate::route::route_hidden_by`], Droid's): its agent runs those routes never (attacks
/// row 387), as doctor and simulate say.
fn hidden_routes(source: &Source) -> Option<String> {
    let dir = source.path.parent()?;
    let mut hidden: Vec<String> = source
        .document()?
        .rules
        .iter()
        .filter(|r| r.handlers.iter().any(crate::route::is_hookx_handler))
        .filter_map(|r| {
            let event = r.flavor.tables().event_name(&r.event)?;
            let file = crate::route::route_hidden_by(&source.path, source.dialect, event)?;
            let file = file
                .strip_prefix(dir)
                .unwrap_or(&file)
                .display()
                .to_string();
            Some(format!(
                "{event} ({file} beside it holds the event, which replaces this file's)"
            ))
        })
        .collect();
    hidden.dedup();
    (!hidden.is_empty()).then(|| {
        format!(
            "{} runs none of its routes for {}",
            source.dialect.def().display,
            hidden.join(", ")
        )
    })
}

/// Every source found, with what became of it.
fn render_sources(
    sources: &[Source],
    plugins: &[(String, crate::route::PluginFile)],
    store: &TrustStore,
) -> String {
    if sources.is_empty() && plugins.is_empty() {
        return "\nno hook files found\n".into();
    }
    // Each dialect whose kill switch is on, with the file that turns it on.
    let disabled: Vec<(Dialect, &Source)> = Dialect::all()
        .iter()
        .filter_map(|d| discover::hooks_disabled(sources, *d, store).map(|s| (*d, s)))
        .collect();
    let switch = |d: Dialect| d.def().kill_switch.as_ref();
    let switch_key = |d: Dialect| switch(d).map_or(String::new(), |k| k.name());
    // Each host whose policy leaves only policy hooks running, the key and the file saying so.
    let managed_only: Vec<(Dialect, &str, &Source)> = Dialect::all()
        .iter()
        .filter_map(|d| {
            let key = d.def().managed.as_ref()?.only_managed_key?;
            Some((*d, key, discover::managed_only(sources, *d)?))
        })
        .collect();
    // Each host whose policy stops every hook, and why.
    let all_off: Vec<(Dialect, discover::PolicyStop)> = Dialect::all()
        .iter()
        .filter_map(|d| Some((*d, discover::stopped_by_policy(sources, *d)?)))
        .collect();
    let mut table = Vec::new();
    for source in sources {
        let status = match source.error_line() {
            Some(error) => format!("error: {error}"),
            None => {
                let handlers = source.handler_count();
                let mut parts = vec![plural(handlers, "handler")];
                let errors = source
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .count();
                let warnings = source.diagnostics.len() - errors;
                if errors > 0 {
                    parts.push(plural(errors, "error"));
                }
                if warnings > 0 {
                    parts.push(plural(warnings, "warning"));
                }
                let dressed = source.dressed_routes();
                let routes = source.hookx_entries() - dressed;
                if routes > 0 {
                    parts.push(format!("{} (not listed)", plural(routes, "hookx route")));
                }
                if let Some(hidden) = hidden_routes(source) {
                    parts.push(hidden);
                }
                if dressed > 0 {
                    parts.push(format!(
                        "{} in a hookx route's form that run more than a route, or a program \
                         not named hookx: hookx never runs them, the agent reading the file runs \
                         them as written (hookx doctor shows them)",
                        plural(dressed, "handler")
                    ));
                }
                match source
                    .plugin
                    .map(|p| (p.agent.why_off(), p.trusted.why_off()))
                {
                    Some((Some(off), _)) => parts.push(off.into()),
                    Some((None, Some(_))) => parts.push(
                        "enabled only in settings hookx does not trust: not run through hookx"
                            .into(),
                    ),
                    _ => {}
                }
                if disabled
                    .iter()
                    .any(|(_, switch)| discover::switched_off(switch, source))
                {
                    parts.push(format!("off ({})", switch_key(source.dialect)));
                }
                // A policy file without hooks (VS Code's) is not "not run".
                let mut hosts: Vec<String> = all_off
                    .iter()
                    .filter(|_| handlers > 0)
                    .map(|(h, stop)| format!("{} ({})", h.def().display, stop.file.display))
                    .collect();
                if source.scope != crate::tables::Scope::Managed {
                    hosts.extend(
                        managed_only
                            .iter()
                            .map(|(h, key, _)| format!("{} ({key})", h.def().display)),
                    );
                }
                if !hosts.is_empty() {
                    parts.push(format!("not run under {}", hosts.join(", ")));
                }
                parts.join(", ")
            }
        };
        table.push(vec![
            source.dialect.to_string(),
            source.scope.name().to_string(),
            source.display.clone(),
            status,
        ]);
    }
    // The plugins hookx writes for agents whose hooks are code: no hook file, shown as such.
    for (shown, plugin) in plugins {
        table.push(vec![
            plugin.host.to_string(),
            plugin.scope.name().to_string(),
            shown.clone(),
            plugin.status(),
        ]);
    }
    let mut out = format!("\nsources:\n{}", indent(&align(&table)));
    for (dialect, s) in disabled {
        let reaches_all = sources
            .iter()
            .filter(|other| other.dialect == dialect)
            .all(|other| discover::switched_off(s, other));
        let which = if reaches_all {
            "every"
        } else {
            "every non-managed"
        };
        out.push_str(&format!(
            "\n{} in {} turns {which} {} hook off\n",
            switch(dialect).map_or(String::new(), |k| k.json()),
            s.display,
            dialect.def().display
        ));
    }
    for (host, stop) in &all_off {
        out.push_str(&format!("\n{}\n", stop.sentence(*host)));
    }
    for source in sources.iter().filter(|s| s.handler_count() > 0) {
        for dropped in &source.dropped {
            out.push_str(&format!(
                "\n{}: its rules run under {} only through hookx's route, once hookx trusts \
                 the file (fix {})\n",
                dropped.why(&source.display),
                dropped.host,
                dropped.fix_at()
            ));
        }
    }
    for (host, key, policy) in &managed_only {
        out.push_str(&format!(
            "\n{} in {}: {} runs only managed hooks, and so does `hookx run --host {host}`\n",
            only_managed(policy, key),
            policy.display,
            host.def().display
        ));
    }
    out
}

/// The agents whose plan `list` shows: `--host`'s, else every agent with a hook file here or
/// reading another agent's here itself (Copilot reading `.claude/settings.json`), and every
/// agent whose hooks are code with a plugin hookx generated for it that holds rules.
fn plan_hosts(ctx: &discover::Context, sources: &[Source], host: Option<Dialect>) -> Vec<Dialect> {
    let generated = |d: &Dialect| {
        discover::generated_sources(ctx, *d)
            .iter()
            .any(|s| s.handler_count() > 0)
    };
    match host {
        Some(host) => vec![host],
        None => Dialect::all()
            .iter()
            .copied()
            .filter(|d| {
                sources.iter().any(|s| {
                    s.handler_count() > 0
                        && (s.dialect == *d
                            || (d
                                .config()
                                .reads_foreign_as
                                .iter()
                                .any(|(f, _)| *f == s.dialect)
                                && (crate::discover::runner(*d, s)
                                    == crate::discover::Runner::Native
                                    || s.dropped_by(*d).is_some())))
                })
            })
            .chain(Dialect::write_only().iter().copied().filter(generated))
            .collect(),
    }
}

/// The plan of each agent ([`crate::plan`]): one line per rule, naming who runs it, then
/// what else runs it that hookx cannot stop and the copies hookx leaves out. `refused`: why an
/// agent never calls hookx for an event, refusing whole every file holding hookx's routes
/// ([`crate::dispatch::gates::routes_refused_whole`], attacks row 210) or holding back every
/// route it has for the event (a Droid `hooks.json` that replaces it, row 387): a rule hookx
/// would run runs nowhere there.
pub fn render_plan(
    plans: &[crate::plan::Plan],
    refused: impl Fn(Dialect, &str) -> Option<String>,
) -> String {
    if plans.iter().all(|p| p.rules().is_empty()) {
        return String::new();
    }
    let mut table = Vec::new();
    let mut notes = Vec::new();
    let mut rates = Vec::new();
    for plan in plans {
        for rule in plan.rules() {
            let mut runner = rule.runner.to_string();
            if let crate::plan::Runner::Hookx { file } = &rule.runner
                && let Some(why) = refused(plan.host, &rule.event)
            {
                runner = format!("nobody (hookx would run {file}, but {why})");
            }
            if !rule.skipped.is_empty() {
                runner.push_str(&format!("; hookx skips {}", rule.skipped.join(", ")));
            }
            table.push(vec![
                plan.host.to_string(),
                rule.event.clone(),
                match rule.matcher.as_deref() {
                    None | Some("") => "*".to_string(),
                    Some(m) => shorten(&crate::diag::visible(m), 24),
                },
                shorten(&crate::diag::visible(&rule.handler), 32),
                crate::diag::visible(&runner).into_owned(),
            ]);
            let said = |what: &str| {
                format!(
                    "{} {} {}: {}",
                    plan.host,
                    rule.event,
                    shorten(&crate::diag::visible(&rule.handler), 32),
                    crate::diag::visible(what)
                )
            };
            if let Some(why) = &rule.cadence {
                rates.push(said(why));
            }
            for also in &rule.also {
                notes.push(said(also));
            }
        }
    }
    let mut out = format!(
        "\nplan (each rule once per agent):\n{}",
        indent(&align(&table))
    );
    if !notes.is_empty() {
        out.push_str("\nalso run, which hookx cannot stop:\n");
        for note in notes {
            out.push_str(&format!("  {note}\n"));
        }
    }
    if !rates.is_empty() {
        out.push_str("\nrun at another rate than where they were written:\n");
        for rate in rates {
            out.push_str(&format!("  {rate}\n"));
        }
    }
    out
}

/// The policy setting that leaves only policy hooks running (a phrase `hookx doctor` also
/// prints), as `policy` writes it.
pub fn only_managed(policy: &Source, key: &str) -> String {
    crate::config::syntax::Format::of(&policy.path.to_string_lossy()).setting(key, "true")
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// The rows as a pretty JSON array.
pub fn render_json(rows: &[Row]) -> String {
    let mut text = serde_json::to_string_pretty(rows).unwrap_or_default();
    text.push('\n');
    text
}

/// `hookx list`. Files that cannot be read are reported (on stderr with `--format json`) and
/// the rest are listed; it still exits 0, as listing itself succeeded.
pub fn command(opts: &Options) -> Result<i32, Error> {
    let store = TrustStore::load(&opts.ctx).unwrap_or_else(|e| {
        errln!("{e}\nwarning: treating every file as untrusted");
        TrustStore::load_or_empty(&opts.ctx)
    });
    let mut sources = discover::discover_trusting(&opts.ctx, &store);
    let rules = match opts.host {
        Some(host) => discover::host_rules(&sources, host, &store),
        None => discover::effective_rules(&sources, &store),
    };
    let rows = rows(&opts.ctx, &rules, opts.host, &store);
    let plugins: Vec<_> = crate::route::plugin_files(&opts.ctx.project, &opts.ctx.home)
        .into_iter()
        .map(|p| (opts.ctx.display(&p.path), p))
        .collect();
    let hosts = plan_hosts(&opts.ctx, &sources, opts.host);
    let plans: Vec<crate::plan::Plan> = hosts
        .iter()
        .map(|host| crate::plan::plan_in(&opts.ctx, &mut sources, *host, &store))
        .collect();
    if opts.json {
        out!("{}", render_json(&rows));
        for source in &sources {
            if let Some(error) = source.error_line() {
                errln!("{}: error: {error}", source.display);
            }
        }
    } else {
        let held = std::cell::RefCell::new(std::collections::HashMap::new());
        out!(
            "{}{}{}",
            render_text(&rows, &sources, &plugins, &store, opts.host.is_some()),
            render_plan(&plans, |host, event| {
                // Asked once per agent and event: each asking reads the agent's files.
                held.borrow_mut()
                    .entry((host, event.to_string()))
                    .or_insert_with(|| {
                        crate::dispatch::gates::routes_refused_whole(&sources, host)
                            .map(|(_, why)| why)
                            .or_else(|| {
                                let event = crate::model::EventKind::from_name(event);
                                let held = crate::dispatch::simulate::routes_held(
                                    &opts.ctx, &sources, host, &event,
                                );
                                held.ok().flatten()
                            })
                    })
                    .clone()
            }),
            render_layers(&opts.ctx, &sources, &hosts)
        );
    }
    Ok(0)
}

/// The handlers a config layer the agent can be started with turns off (Codex's profiles,
/// `codex --profile NAME`): `list` runs under no agent and sees none, so it names each, as
/// `doctor` does (attacks rows 642, 746). The run path reads the one the agent was started with.
fn render_layers(ctx: &discover::Context, sources: &[Source], hosts: &[Dialect]) -> String {
    let mut notes = Vec::new();
    for host in hosts {
        let Some(option) = (host.def().route_trust.as_ref())
            .and_then(|r| r.layer)
            .and_then(|l| l.options.first())
        else {
            continue;
        };
        for source in sources.iter().filter(|s| s.dialect == *host) {
            let (Some(review), Some(doc)) = (
                crate::dispatch::gates::Review::of(ctx, *host, source),
                source.document(),
            ) else {
                continue;
            };
            for rule in &doc.rules {
                for (i, handler) in rule.handlers.iter().enumerate() {
                    for name in review.layers_turning_off(rule, i) {
                        notes.push(format!(
                            "{host} {} {} ({}): {} started with `{option} {name}` skips it",
                            rule.event,
                            shorten(&crate::diag::visible(&handler_text(handler).1), 32),
                            source.display,
                            host.def().display,
                        ));
                    }
                }
            }
        }
    }
    match notes.is_empty() {
        true => String::new(),
        false => format!(
            "\nturned off by a layer the agent may be started with (a copy's original then runs \
             through hookx's route):\n{}",
            notes.iter().map(|n| format!("  {n}\n")).collect::<String>()
        ),
    }
}
