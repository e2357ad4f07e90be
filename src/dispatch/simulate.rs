//! `hookx simulate`: a synthetic event, fired at a hook set without an agent, and a report of
//! what every handler received and answered.

use super::host::parse_event;
use super::run::Dispatch;
use crate::error::Error;
use crate::model::{Decision, Event, EventKind, Outcome, ToolCall};
use crate::protocol::args_to_canonical;
use crate::spawn::Exit;
use crate::tables::Flavor;
use serde_json::{Map, Value, json};

/// The handlers of files the host runs by itself that `event` fires there, each with the stdin
/// the host gives it (Copilot runs `.claude/settings.json` as PascalCase hooks, with Copilot's
/// PascalCase payload and matcher rules): one line each, for the report.
pub fn native_runs(
    ctx: &crate::discover::Context,
    host: Flavor,
    event: &Event,
    sources: &[crate::discover::Source],
) -> Vec<String> {
    use crate::discover::{Runner, host_skips, runner, switched_keys};
    let mut rules = Vec::new();
    let switched = switched_keys(sources, host.dialect());
    let listed = listed_off(sources, host.dialect());
    for source in sources.iter().filter(|s| {
        runner(host.dialect(), s) == Runner::Native
            && super::gates::file_gate(ctx, sources, host.dialect(), s).is_none()
    }) {
        let left_out = left_out_in(source, host.dialect());
        let review = super::gates::Review::of(ctx, host.dialect(), source);
        for rule in source.document().into_iter().flat_map(|d| &d.rules) {
            let mut as_run = rule.clone();
            as_run.flavor = host.dialect().native_flavor(rule.flavor);
            // What its own setting lists (for hookx, or off by the user), or its own list of
            // handlers turned off (Gemini: attacks row 486), or it leaves out for its timeout,
            // or its user never reviewed or turned off (Codex: attacks row 441), it does not run.
            as_run.handlers = (rule.handlers.iter().enumerate())
                .filter(|(i, h)| {
                    !host_skips(host.dialect(), &switched, source, rule, h)
                        && !is_listed_off(host.dialect(), &listed, h)
                        && left_out(rule, *i).is_none()
                        && review.as_ref().is_none_or(|r| r.reviewed(rule, *i))
                })
                .map(|(_, h)| h.clone())
                .collect();
            if !as_run.handlers.is_empty() {
                rules.push((as_run, source.display.clone()));
            }
        }
    }
    let (selected, _) = super::select::select(rules.iter().map(|(r, d)| (r, d)), event);
    selected
        .iter()
        .map(|s| {
            let flavor = s.rule.flavor;
            let command = match &s.handler.kind {
                crate::model::HandlerKind::Command(c) => {
                    c.unix_line().unwrap_or_default().to_string()
                }
                _ => "(a prompt or agent hook)".to_string(),
            };
            format!(
                "{} runs {} ({}) itself as {} hooks, with stdin {}",
                host.dialect(),
                s.source,
                command,
                flavor.name(),
                serde_json::to_string(&crate::protocol::encode_event(event, flavor))
                    .unwrap_or_default()
            )
        })
        .collect()
}

/// The event a host would send for `--event`, `--tool`, `--input` and `--field key=value`:
/// names are read in the host's own spelling (canonical ones work too).
pub fn synthetic_event(
    host: Flavor,
    event: &str,
    tool: Option<&str>,
    input: Option<&str>,
    fields: &[String],
    cwd: &str,
) -> Result<Event, Error> {
    // The host's name for the event in its payloads too (Cline's `agent_resume`, `tool_call`:
    // attacks row 2434), as `run` reads it.
    let kind = host
        .tables()
        .payload_event_kind(event)
        .unwrap_or_else(|| parse_event(event));
    if let EventKind::Other(name) = &kind {
        let known = Flavor::all()
            .iter()
            .flat_map(|f| f.tables().events.iter().map(|(_, n)| *n));
        // The host's own spelling first, so that its name wins a tie.
        let names: Vec<&str> = host
            .tables()
            .events
            .iter()
            .map(|(_, n)| *n)
            .chain(known)
            .collect();
        if let Some(close) = crate::diag::did_you_mean(name, names) {
            return Err(Error::Usage(format!(
                "unknown event `{name}` (did you mean `{close}`?)"
            )));
        }
    }
    let tool = match tool {
        Some(name) => {
            let tables = host.tables();
            let known = tables.all_tool_names().any(|n| n == name);
            if !known
                && !crate::model::tool::is_mcp(name)
                && let Some(close) = crate::diag::did_you_mean(name, tables.all_tool_names())
            {
                return Err(Error::Usage(format!(
                    "unknown {} tool `{name}` (did you mean `{close}`?)",
                    host.name()
                )));
            }
            let id = host.tables().canonical_tool(name).to_string();
            let input: Value = match input {
                Some(text) => serde_json::from_str(text)
                    .map_err(|e| Error::Usage(format!("--input is not JSON: {e}")))?,
                None => Value::Object(Map::new()),
            };
            let input = args_to_canonical(host, Some(&id), input);
            Some(ToolCall {
                rewrite: host
                    .tables()
                    .mcp_names
                    .rewrite
                    .filter(|_| crate::model::tool::is_mcp(&id)),
                name: id,
                input,
                other_ids: Vec::new(),
            })
        }
        None if input.is_some() => return Err(Error::Usage("--input needs --tool".into())),
        None => None,
    };
    let mut map = Map::new();
    map.insert("session_id".into(), Value::from("hookx-simulate"));
    map.insert("cwd".into(), Value::from(cwd));
    for field in fields {
        let Some((key, value)) = field.split_once('=') else {
            return Err(Error::Usage(format!("--field `{field}` must be KEY=VALUE")));
        };
        let value = serde_json::from_str(value).unwrap_or_else(|_| Value::from(value));
        map.insert(key.to_string(), value);
    }
    // The field the host's name for the event tells (Cline's `TaskResume`: `source: resume`),
    // as `run` reads it from a payload sent under that name.
    if let Some((key, value)) = host.tables().event_value(event) {
        map.entry(key).or_insert(Value::from(value));
    }
    // A result given as a field is read as the host's, as `run` reads a payload's: a handler
    // of another agent is given it in its own agent's shape (it was the host's, unlike `run`).
    let result = match (&tool, map.get(crate::protocol::payload::TOOL_RESPONSE)) {
        (Some(tool), Some(value)) => Some(crate::protocol::result::read(host, tool, value)),
        _ => None,
    };
    Ok(Event {
        kind,
        timestamp: Some(chrono::Utc::now()),
        tool,
        fields: map,
        result,
    })
}

/// For each handler `dispatch` ran or would run that was written for an agent firing `kind`
/// at another rate than `host` (attacks row 1761), a note saying how, once per agent.
pub fn cadence_notes(dispatch: &Dispatch, host: Flavor, kind: &EventKind) -> Vec<String> {
    notes_once(dispatch, |flavor, origin| {
        let why = host.tables().cadence_change(flavor.tables(), kind)?;
        Some(format!("{origin}: {why}"))
    })
}

/// For each handler `dispatch` ran or would run whose agent has no form hookx knows for the
/// call's result, and is not the host's, a note: it is given the host's own shape of the
/// result, which its own agent may give elsewhere (attacks row 1808).
pub fn result_notes(dispatch: &Dispatch, host: Flavor, event: &Event) -> Vec<String> {
    let Some(tool) = &event.tool else {
        return Vec::new();
    };
    notes_once(dispatch, |flavor, origin| {
        crate::protocol::result::in_the_hosts_shape(event, flavor).then(|| {
            format!(
                "{origin}: hookx knows no shape of {}'s for a `{}` result, so this handler is given {}'s as {} sent it; its own agent may give it elsewhere, and a rule reading it there reads nothing",
                flavor.dialect().def().display,
                tool.name,
                host.name(),
                host.name()
            )
        })
    })
}

/// `note` of each handler `dispatch` ran, then of each it would run (its agent, its origin),
/// where it says one, each note once, in that order.
fn notes_once(dispatch: &Dispatch, note: impl Fn(Flavor, &str) -> Option<String>) -> Vec<String> {
    let ran = dispatch.runs.iter().map(|r| (r.flavor, r.origin.as_str()));
    let would = dispatch
        .would_run
        .iter()
        .map(|w| (w.flavor, w.origin.as_str()));
    let mut notes: Vec<String> = Vec::new();
    for (flavor, origin) in ran.chain(would) {
        if let Some(note) = note(flavor, origin)
            && !notes.contains(&note)
        {
            notes.push(note);
        }
    }
    notes
}

/// The arguments of the call that the rewrite `taken` runs with leaves out, said where the
/// host rebuilds the call from a rewrite alone (attacks row 1908: Gemini CLI 0.61.0 refused a
/// call whose hook rewrote its description alone, "params must have required property
/// 'command'").
pub fn rewrite_note(host: Flavor, event: &Event, taken: &Outcome) -> Option<String> {
    if host.tables().protocol.updated_input_merges {
        return None;
    }
    let (Some(Value::Object(new)), Some(tool)) = (&taken.updated_input, &event.tool) else {
        return None;
    };
    let Value::Object(old) = &tool.input else {
        return None;
    };
    let left: Vec<String> = old
        .keys()
        .filter(|k| !new.contains_key(*k))
        .map(|k| format!("`{k}`"))
        .collect();
    (!left.is_empty()).then(|| {
        format!(
            "the rewrite the call runs with leaves out {} of the call's arguments: {} builds the call from the rewrite alone, so they are gone, and a tool that needs one refuses the call",
            left.join(", "),
            host.name()
        )
    })
}

/// The report as JSON: each handler's input, answer, timing and meaning, and the final answer.
pub fn report_json(dispatch: &Dispatch) -> Value {
    let runs: Vec<Value> = dispatch
        .runs
        .iter()
        .map(|r| {
            json!({
                "handler": r.origin,
                "flavor": r.flavor,
                "command": r.command_line,
                "stdin": r.stdin,
                "env": r.env.iter().map(|(k, v)| (k.clone(), Value::from(v.as_str()))).collect::<Map<_, _>>(),
                "exit": exit_text(&r.finished.exit),
                "millis": r.finished.elapsed.as_secs_f64() * 1000.0,
                "stdout": output_value(&r.finished.stdout),
                "stderr": String::from_utf8_lossy(&r.finished.stderr),
                "outcome": r.outcome,
            })
        })
        .collect();
    json!({
        "matched": dispatch.runs.len(),
        "runs": runs,
        "skipped": dispatch.skipped,
        "would_run": dispatch.would_run,
        "native": dispatch.native,
        "notes": dispatch.notes,
        "outcome": dispatch.outcome,
        "answer": {
            "stdout": output_value(dispatch.answer.stdout.as_bytes()),
            "stderr": dispatch.answer.stderr,
            "exit_code": dispatch.answer.exit_code,
        },
    })
}

/// The report for people.
///
/// Each field is one line: a path, command or note holding a newline (a project folder's name)
/// is shown escaped, never as a line of its own (attacks row 1531).
pub fn report_text(dispatch: &Dispatch) -> String {
    use crate::diag::visible;
    let mut out = String::new();
    if dispatch.runs.is_empty() && dispatch.would_run.is_empty() {
        out.push_str("no handler ran\n");
    }
    for (i, w) in dispatch.would_run.iter().enumerate() {
        out.push_str(&format!(
            "[{}] would run (--dry-run: not run) {} ({})\n    command: {}\n    stdin:   {}\n",
            i + 1,
            visible(&w.origin),
            w.flavor.name(),
            visible(&w.command),
            serde_json::to_string(&w.stdin).unwrap_or_default()
        ));
    }
    for (i, r) in dispatch.runs.iter().enumerate() {
        out.push_str(&format!(
            "[{}] ran (for real: what it does was done) {} ({})\n    command: {}\n    stdin:   {}\n",
            i + 1,
            visible(&r.origin),
            r.flavor.name(),
            visible(&r.command_line),
            serde_json::to_string(&r.stdin).unwrap_or_default()
        ));
        for (k, v) in &r.env {
            out.push_str(&format!("    env:     {k}={}\n", visible(v)));
        }
        out.push_str(&format!(
            "    ended:   {} after {:.1} ms\n",
            exit_text(&r.finished.exit),
            r.finished.elapsed.as_secs_f64() * 1000.0
        ));
        for (name, bytes) in [
            ("stdout", &r.finished.stdout),
            ("stderr", &r.finished.stderr),
        ] {
            let text = String::from_utf8_lossy(bytes);
            let text = text.trim_end();
            if !text.is_empty() {
                out.push_str(&format!("    {name}:  {}\n", preview(text)));
            }
        }
        out.push_str(&format!(
            "    meaning: {}\n",
            serde_json::to_string(&r.outcome).unwrap_or_default()
        ));
    }
    for s in &dispatch.skipped {
        // `run`'s own warning starts "skipped …" too: said once.
        let s = s.strip_prefix("skipped ").unwrap_or(s);
        out.push_str(&format!("skipped: {}\n", visible(s)));
    }
    for n in &dispatch.native {
        out.push_str(&format!("native: {}\n", visible(n)));
    }
    for n in &dispatch.notes {
        out.push_str(&format!("note: {}\n", visible(n)));
    }
    out.push_str(&format!(
        "answer to the host: exit {}{}{}\n",
        dispatch.answer.exit_code,
        if dispatch.answer.stdout.is_empty() {
            String::new()
        } else {
            format!(", stdout {}", dispatch.answer.stdout)
        },
        if dispatch.answer.stderr.is_empty() {
            String::new()
        } else {
            format!(", stderr {}", dispatch.answer.stderr.trim_end())
        },
    ));
    out
}

fn exit_text(exit: &Exit) -> String {
    match exit {
        Exit::Code(c) => format!("exit {c}"),
        Exit::Signal(s) => format!("killed by signal {s}"),
        Exit::TimedOut => "timed out".into(),
        Exit::FailedToStart(why) => format!("failed to start: {why}"),
    }
}

fn preview(text: &str) -> String {
    const MAX: usize = 300;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}… ({} bytes)", &text[..i], text.len()),
        None => text.replace('\n', "\n             "),
    }
}

/// What `--expect` compares: the decision the host ends up with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Nothing stopped the action (an explicit allow, or no decision).
    Allow,
    Deny,
    Ask,
    /// The prompt, stop or tool result was blocked (`decision: block`, exit 2 where it blocks).
    Block,
}

/// The verdict of a merged outcome: a deny wins over a block, a block over an ask.
pub fn verdict(outcome: &Outcome) -> Verdict {
    match (outcome.decision, outcome.block) {
        (Some(Decision::Deny), _) => Verdict::Deny,
        (_, true) => Verdict::Block,
        (Some(Decision::Ask), _) => Verdict::Ask,
        _ => Verdict::Allow,
    }
}

/// Exit status of `simulate` when the verdict is not the one expected (with `--expect`) or
/// the action is stopped (deny, ask or block, without it).
pub const EXIT_VERDICT: i32 = 4;

/// The rules of `event` in the files `host` reads itself that it runs, each in the flavour
/// the host runs it as (a foreign file's rules get the host's flavour of the same event
/// casing), without hookx's own routing entries and the rules the agent never runs
/// (`enabled: false`); and, for `event`, each handler the host's own gates hold back
/// ([`super::gates`]: its policy, the kill switch, folder trust, review records) with why;
/// and where the first hookx route on `event` sits among the rules: how many come before it
/// (the rule holding it, where the user put hooks of their own beside it, counts before).
pub fn native_rules(
    ctx: &crate::discover::Context,
    sources: &[crate::discover::Source],
    host: crate::tables::Dialect,
    event: &Event,
) -> (Vec<crate::tables::Rule>, Vec<String>, Option<usize>) {
    let mut rules = Vec::new();
    let mut route_at = None;
    let mut gated: Vec<(crate::tables::Rule, String)> = Vec::new();
    // Handlers the host's own setting lists it does not run (hookx runs those it was left).
    let switched = crate::discover::switched_keys(sources, host);
    let listed = listed_off(sources, host);
    // Where the host folds by place, its files in the order it runs their hooks (row 2051).
    let all = sources;
    let sources = super::after_route::in_fold_order(host, sources);
    for &source in &sources {
        if crate::discover::runner(host, source) != crate::discover::Runner::Native {
            continue;
        }
        let Some(doc) = source.document() else {
            continue;
        };
        let file_gate = super::gates::file_gate(ctx, all, host, source);
        let review = super::gates::Review::of(ctx, host, source);
        let runs = |r: &&crate::tables::Rule| {
            r.event == event.kind && !source.dialect.config().is_disabled(r)
        };
        let left_out = left_out_in(source, host);
        for rule in doc.rules.iter().filter(runs) {
            let (mut open, mut held) = (rule.clone(), rule.clone());
            open.handlers.clear();
            held.handlers.clear();
            let mut why = String::new();
            let mut holds_route = false;
            for (i, handler) in rule.handlers.iter().enumerate() {
                if crate::route::is_hookx_handler(handler) {
                    holds_route = true;
                    continue;
                }
                if crate::discover::host_skips(host, &switched, source, rule, handler) {
                    continue;
                }
                let gate = file_gate.clone().or_else(|| {
                    review
                        .as_ref()
                        .filter(|r| !r.reviewed(rule, i))
                        .map(super::gates::Review::why)
                        .or_else(|| left_out(rule, i))
                        .or_else(|| {
                            is_listed_off(host, &listed, handler)
                                .then(|| format!("it is turned off in {}", own_list(host)))
                        })
                });
                match gate {
                    Some(reason) => {
                        why = reason;
                        held.handlers.push(handler.clone());
                    }
                    None => open.handlers.push(handler.clone()),
                }
            }
            if holds_route && route_at.is_none() {
                route_at = Some(rules.len() + usize::from(!open.handlers.is_empty()));
            }
            for (mut rule, why) in [(open, None), (held, Some(why))] {
                if rule.handlers.is_empty() {
                    continue;
                }
                rule.flavor = host.native_flavor(rule.flavor);
                match why {
                    Some(why) => gated.push((rule, why)),
                    None => rules.push(rule),
                }
            }
        }
    }
    // Only what the event would fire is said to be held back.
    let (selected, _) = super::select::select(gated.iter().map(|(r, why)| (r, why)), event);
    let mut held: Vec<String> = Vec::new();
    for s in selected {
        let line = format!("{}: not run by {host}: {}", describe(s.rule), s.source);
        if !held.contains(&line) {
            held.push(line);
        }
    }
    (rules, held, route_at)
}

/// Why `host` leaves out a handler of `source` (a rule, its place in it) for its timeout
/// ([`crate::config::strict_load::left_out`]; only the host's own files).
fn left_out_in(
    source: &crate::discover::Source,
    host: crate::tables::Dialect,
) -> impl Fn(&crate::tables::Rule, usize) -> Option<String> {
    let raw = (source.dialect == host)
        .then(|| crate::config::strict_load::raw_if_entries_left_out(&source.path, host))
        .flatten();
    move |rule, index| {
        let raw = raw.as_ref()?;
        let entry = crate::config::strict_load::left_out(rule, raw)
            .into_iter()
            .find(|e| e.index == index)?;
        Some(format!(
            "{} does not load this entry: {}",
            host.def().display,
            entry.why()
        ))
    }
}

/// Why `host` does not call hookx for `event` (so that nothing runs through hookx): no hookx
/// route for it in a file the host reads itself, or the host's gates hold back every such
/// route. `None`: a route is called.
pub fn uncalled(
    ctx: &crate::discover::Context,
    sources: &[crate::discover::Source],
    host: crate::tables::Dialect,
    event: &EventKind,
) -> Option<String> {
    match routes_held(ctx, sources, host, event) {
        Ok(None) => None,
        Ok(Some(why)) => Some(why),
        Err(NoRoute) => Some(no_route(host)),
    }
}

/// There is no hookx route for the event in a file the host reads.
pub struct NoRoute;

/// [`uncalled`] where the host has a route for `event`: why it holds back every one (a file
/// beside it hides the event, a gate, its own list), `None` when one is called.
pub fn routes_held(
    ctx: &crate::discover::Context,
    sources: &[crate::discover::Source],
    host: crate::tables::Dialect,
    event: &EventKind,
) -> Result<Option<String>, NoRoute> {
    let display = host.def().display;
    let mut held = None;
    let also_off = listed_off(sources, host);
    let names: Vec<&str> = host
        .own_events()
        .into_iter()
        .filter(|(kind, _, _)| kind == event)
        .map(|(_, name, _)| name)
        .collect();
    // A host whose route is hookx's generated plugin (OpenCode, Kilo) calls hookx where the
    // plugin routes the event: it has no file rules, and no gate of its own on the plugin.
    if let Some(plugin) = host.config().generated {
        let routed = crate::route::installed_plugin_routes(ctx, host, plugin)
            .iter()
            .any(|(name, _)| names.contains(&name.as_str()));
        return match routed {
            true => Ok(None),
            false => Err(NoRoute),
        };
    }
    for source in sources {
        if crate::discover::runner(host, source) != crate::discover::Runner::Native {
            continue;
        }
        let Some(doc) = source.document() else {
            continue;
        };
        let routes: Vec<(&crate::tables::Rule, usize)> = doc
            .rules
            .iter()
            .filter(|r| r.event == *event && !source.dialect.config().is_disabled(r))
            .flat_map(|r| {
                r.handlers
                    .iter()
                    .enumerate()
                    .filter(|(_, h)| crate::route::is_hookx_handler(h))
                    .map(move |(i, _)| (r, i))
            })
            .collect();
        if routes.is_empty() {
            continue;
        }
        if let Some(file) = names
            .iter()
            .find_map(|name| crate::route::route_hidden_by(&source.path, host, name))
        {
            held = Some(format!(
                "{} holds {}, which replaces that event of {}: {display} does not run this \
                 route for it",
                ctx.display(&file),
                names.join(", "),
                source.display
            ));
            continue;
        }
        if let Some(why) = super::gates::file_gate(ctx, sources, host, source) {
            held = Some(format!(
                "{display} skips hookx's route in {}: {why}",
                source.display
            ));
            continue;
        }
        let off: Vec<bool> = names
            .iter()
            .filter_map(|name| {
                crate::route::turned_off_by_host(&ctx.home, &source.path, host, name, &also_off)
            })
            .collect();
        if !off.is_empty() && off.iter().all(|off| *off) {
            held = Some(format!(
                "{display} skips hookx's route in {}: it is turned off in {}",
                source.display,
                own_list(host)
            ));
            continue;
        }
        let review = super::gates::Review::of(ctx, host, source);
        match review {
            Some(review) if routes.iter().all(|(r, i)| !review.reviewed(r, *i)) => {
                held = Some(format!(
                    "{display} skips hookx's route in {}: {}",
                    source.display,
                    review.why()
                ));
            }
            _ => return Ok(None),
        }
    }
    held.map(Some).ok_or(NoRoute)
}

/// The host's own list of handlers it does not run, joined over its scopes (Gemini's
/// `hooksConfig.disabled`, by `name`, else command; attacks rows 332, 334), from every file of
/// the host's that `sources` holds: the host follows each it loads, trusted in hookx or not;
/// and those of its policy files its variables move ([`crate::route::moved_policy_labels`],
/// attacks row 742).
pub fn listed_off(
    sources: &[crate::discover::Source],
    host: crate::tables::Dialect,
) -> Vec<String> {
    if host.def().disabled_handlers.is_none() {
        return Vec::new();
    }
    sources
        .iter()
        .filter(|s| s.dialect == host)
        .filter_map(|s| crate::read::text(&s.path, crate::read::MAX_FILE_BYTES).ok())
        .flat_map(|text| crate::route::disabled_labels(host, &text))
        .chain(crate::route::moved_policy_labels(host))
        .collect()
}

/// Whether `host`'s own list (`listed`, [`listed_off`]) turns `handler` off.
pub fn is_listed_off(
    host: crate::tables::Dialect,
    listed: &[String],
    handler: &crate::model::Handler,
) -> bool {
    let label = host
        .def()
        .disabled_handlers
        .as_ref()
        .and_then(|l| l.label(handler));
    label.is_some_and(|label| listed.iter().any(|l| l == label))
}

/// Why a host with no hookx route for an event never calls hookx for it.
pub fn no_route(host: crate::tables::Dialect) -> String {
    format!(
        "{} has no hookx route for this event in a file it reads, so it never calls hookx \
         (`hookx install --host {host}` writes them)",
        host.def().display
    )
}

/// The host's own list of the handlers it does not run, as people find it.
fn own_list(host: crate::tables::Dialect) -> String {
    let switch = host.config().foreign_switches.iter().find_map(|s| s.hooks);
    match (&host.def().disabled_handlers, switch) {
        (Some(off), _) => format!("`{}.{}`", off.key, off.inner),
        (None, Some(switch)) => format!("`{}` of ~/{}", switch.key, switch.file),
        (None, None) => format!("{}'s own list", host.def().display),
    }
}

/// Where a rule was written, for the report.
fn describe(rule: &crate::tables::Rule) -> String {
    match rule.origin.pointer.as_str() {
        "" => rule.origin.file.clone(),
        pointer => format!("{} ({pointer})", rule.origin.file),
    }
}

/// A handler's output as JSON where it parses as an object or array, else as text.
fn output_value(bytes: &[u8]) -> Value {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(v @ (Value::Object(_) | Value::Array(_))) => v,
        _ => Value::from(String::from_utf8_lossy(bytes).into_owned()),
    }
}
