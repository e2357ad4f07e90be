//! `hookx install`: routing a host agent's events to `hookx run --host HOST` through the host's
//! own config file, and taking that routing out again.
//!
//! One entry per event that has rules hookx runs under the host, in the files of the scope the
//! install serves (the project's files for a project install, the home's for a user install);
//! re-running install adds the routes of new events and removes those no rule needs any more.
//! Each entry is a command `<hookx> run --host HOST` with the hookx path POSIX-quoted. That prefix is the mark of a hookx entry ([`is_hookx_entry`]): install
//! updates those entries in place instead of adding more, uninstall removes exactly them, and
//! discovery never dispatches them (that would recurse).
//!
//! The target is edited as a JSON value, not re-emitted from the canonical model: every key,
//! hook and field that is not hookx's stays as written, in its order. A target hookx cannot read
//! cleanly is refused and left untouched.

use crate::config::{self, syntax};
use crate::convert::shell_quote;
use crate::dialect::Dialect;
use crate::discover::{Context, Root, Runner};
use crate::error::Error;
use crate::model::{EventKind, Handler, HandlerKind};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// Where the routing goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InstallScope {
    /// The project's file (committed with it).
    Project,
    /// The user's file, for every project.
    User,
}

/// Seconds the host gives the dispatcher where its default is shorter: hookx enforces each
/// handler's own timeout inside, and Claude's default for commands is 600.
pub const ROUTE_TIMEOUT: u64 = 600;

/// The host's own file that install writes (dialects.md §1).
pub fn target(ctx: &Context, host: Dialect, scope: InstallScope) -> PathBuf {
    let spec = host.config();
    match scope {
        InstallScope::Project => ctx.project.join(spec.install_project),
        InstallScope::User => ctx.home.join(spec.install_user),
    }
}

/// The command line a host runs for one event: the hookx path, quoted as one POSIX word, and
/// the event as the host names it (Copilot's camelCase payloads do not say which event fired).
pub fn route_command(hookx: &str, host: Dialect, event: &str) -> String {
    format!(
        "{} run --host {} --event {event}",
        shell_quote(hookx),
        host.name()
    )
}

/// Whether a command line is a hookx routing entry: its first shell word is a program whose
/// file name starts with `hookx`, followed by `run --host`. The dispatcher skips these.
pub fn is_hookx_entry(command: &str) -> bool {
    route_host(command).is_some()
}

/// The host a hookx routing command names (`<hookx> run --host HOST`), if it is one.
pub fn route_host(command: &str) -> Option<String> {
    // Every handler of every event is asked this on the hot path; most are not hookx.
    if !command.contains("hookx") {
        return None;
    }
    let (program, rest) = first_word(command.trim_start())?;
    let name = Path::new(&program).file_name()?.to_str()?;
    if !name.starts_with("hookx") {
        return None;
    }
    let mut words = rest.split_whitespace();
    if words.next()? != "run" {
        return None;
    }
    match words.next()? {
        "--host" => words.next().map(str::to_string),
        other => other.strip_prefix("--host=").map(str::to_string),
    }
}

/// Whether a handler is a hookx routing entry, whatever field carries its command line.
pub fn is_hookx_handler(handler: &Handler) -> bool {
    let HandlerKind::Command(c) = &handler.kind else {
        return false;
    };
    [&c.command, &c.bash, &c.linux, &c.osx]
        .into_iter()
        .flatten()
        .any(|line| is_hookx_entry(line))
}

/// The first word of a POSIX shell command line, unquoted, and the text after it. `None` when a
/// quote is left open.
fn first_word(line: &str) -> Option<(String, &str)> {
    let mut word = String::new();
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => return Some((word, &line[i..])),
            '\'' => loop {
                match chars.next()? {
                    (_, '\'') => break,
                    (_, c) => word.push(c),
                }
            },
            '"' => loop {
                match chars.next()? {
                    (_, '"') => break,
                    (_, '\\') => match chars.peek() {
                        Some(&(_, c @ ('"' | '\\' | '$' | '`'))) => {
                            word.push(c);
                            chars.next();
                        }
                        _ => word.push('\\'),
                    },
                    (_, c) => word.push(c),
                }
            },
            '\\' => {
                if let Some((_, c)) = chars.next() {
                    word.push(c);
                }
            }
            c => word.push(c),
        }
    }
    Some((word, ""))
}

/// What install or uninstall should do.
#[derive(Clone, Debug)]
pub struct Options {
    pub ctx: Context,
    pub host: Dialect,
    pub scope: InstallScope,
    pub uninstall: bool,
    /// The hookx program written into the entries; the current executable when `None`.
    pub hookx: Option<String>,
}

/// What changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub path: PathBuf,
    /// The routing command (install only).
    pub command: String,
    /// Events that got a new entry.
    pub added: Vec<String>,
    /// Events whose entry pointed elsewhere and now points at this hookx.
    pub updated: Vec<String>,
    /// Entries removed (uninstall, surplus copies, or routes no rule needs any more).
    pub removed: usize,
    /// Events whose route install removed because no rule needs it any more.
    pub dropped: Vec<String>,
    /// Events routed once install is done.
    pub routes: usize,
    /// Whether the file was deleted (uninstall left nothing in it).
    pub deleted: bool,
}

impl Report {
    pub fn changed(&self) -> bool {
        !self.added.is_empty()
            || !self.updated.is_empty()
            || !self.dropped.is_empty()
            || self.removed > 0
            || self.deleted
    }
}

/// The hookx path to write: `--hookx`, else the current executable.
fn hookx_program(opts: &Options) -> Result<String, Error> {
    if let Some(p) = &opts.hookx {
        return Ok(p.clone());
    }
    let exe = std::env::current_exe().map_err(|e| Error::Io {
        path: "hookx".into(),
        message: format!("cannot tell where this hookx is ({e}); pass --hookx PATH"),
    })?;
    exe.into_os_string()
        .into_string()
        .map_err(|_| Error::Usage("the path of this hookx is not UTF-8; pass --hookx PATH".into()))
}

/// Installs or uninstalls, writing the target atomically only when something changes.
pub fn apply(opts: &Options) -> Result<Report, Error> {
    let path = target(&opts.ctx, opts.host, opts.scope);
    let existing = read_target(&path, opts.host)?;
    let mut report = Report {
        path: path.clone(),
        ..Report::default()
    };
    let existed = existing.is_some();
    let mut root = existing.unwrap_or_else(|| new_file(opts.host));
    if opts.uninstall {
        if !existed {
            return Ok(report);
        }
        report.removed = uninstall_value(&mut root, opts.host);
        if report.removed > 0 && is_empty_file(&root, opts.host) {
            std::fs::remove_file(&path).map_err(|e| Error::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
            report.deleted = true;
            return Ok(report);
        }
    } else {
        let hookx = hookx_program(opts)?;
        let needed = routed_events(&opts.ctx, opts.host, opts.scope);
        install_value(&mut root, opts.host, &hookx, &needed, &mut report);
        report.command = format!("{} run --host {}", shell_quote(&hookx), opts.host.name());
    }
    if report.changed() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::Io {
                path: dir.display().to_string(),
                message: e.to_string(),
            })?;
        }
        let mut text = serde_json::to_string_pretty(&finish(root)).unwrap_or_default();
        text.push('\n');
        config::write::write_atomic(&path, &text)?;
    }
    Ok(report)
}

/// The target as a JSON value, `None` when it does not exist. A file that hookx cannot read
/// cleanly in the host's dialect is refused: editing it would risk the hooks it has.
fn read_target(path: &Path, host: Dialect) -> Result<Option<Value>, Error> {
    let Some((src, parsed)) = config::read::read_target(path, host)? else {
        return Ok(None);
    };
    let value = syntax::parse_json(&src)?;
    let has_keys = value.as_object().is_some_and(|o| !o.is_empty());
    if host.config().wrapper_optional && !parsed.document.wrapped && has_keys {
        // Bricks may put events at the root; keep that layout.
        return Ok(Some(json!({ UNWRAPPED: value })));
    }
    Ok(Some(value))
}

/// Marks a file whose events sit at the root (no `hooks` key), while it is being edited.
const UNWRAPPED: &str = "\u{0}hookx-unwrapped";

fn new_file(host: Dialect) -> Value {
    match host.config().version {
        Some(version) => json!({"version": version, "hooks": {}}),
        None => json!({"hooks": {}}),
    }
}

/// Nothing left but what hookx itself would create (`hooks`, Copilot's `version`).
fn is_empty_file(root: &Value, host: Dialect) -> bool {
    let Some(top) = root.as_object() else {
        return false;
    };
    if let Some(Value::Object(events)) = top.get(UNWRAPPED) {
        return events.is_empty();
    }
    top.iter().all(|(k, v)| match k.as_str() {
        "hooks" => v.as_object().is_some_and(Map::is_empty),
        "version" => host.config().version.is_some(),
        _ => false,
    })
}

/// The object holding the event arrays, created if missing.
fn events_mut(root: &mut Value) -> Option<&mut Map<String, Value>> {
    let top = root.as_object_mut()?;
    if top.contains_key(UNWRAPPED) {
        return top.get_mut(UNWRAPPED)?.as_object_mut();
    }
    top.entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
}

/// The command-line fields of a handler object that may hold a routing command.
const COMMAND_KEYS: &[&str] = &["command", "bash", "linux", "osx"];

/// The key of `handler` whose command routes to hookx for `host`.
fn routing_key(handler: &Value, host: Dialect) -> Option<&'static str> {
    let obj = handler.as_object()?;
    COMMAND_KEYS.iter().copied().find(|k| {
        obj.get(*k)
            .and_then(Value::as_str)
            .and_then(route_host)
            .is_some_and(|h| h == host.name())
    })
}

/// Where hookx entries for `host` sit in one event's array: (entry, handler within its group).
fn find_routes(entries: &[Value], host: Dialect) -> Vec<(usize, Option<usize>)> {
    let mut found = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        match entry.get("hooks").and_then(Value::as_array) {
            Some(handlers) => {
                for (j, h) in handlers.iter().enumerate() {
                    if routing_key(h, host).is_some() {
                        found.push((i, Some(j)));
                    }
                }
            }
            None => {
                if routing_key(entry, host).is_some() {
                    found.push((i, None));
                }
            }
        }
    }
    found
}

/// The entry install adds for one event, in the host's own layout.
fn new_entry(host: Dialect, command: &str) -> Value {
    match host {
        Dialect::Claude => json!({"hooks": [{"type": "command", "command": command}]}),
        Dialect::Copilot => {
            json!({"type": "command", "bash": command, "timeoutSec": ROUTE_TIMEOUT})
        }
        Dialect::Bricks => json!({
            "matcher": "*",
            "hooks": [{"type": "command", "command": command, "timeout": ROUTE_TIMEOUT}],
        }),
    }
}

/// The events that need a route: those with rules that hookx (not the host itself) runs under
/// `host`, in the files of the scope the install serves. Trust is not asked: a file trusted
/// later needs its route already.
pub fn routed_events(ctx: &Context, host: Dialect, scope: InstallScope) -> Vec<EventKind> {
    let root = match scope {
        InstallScope::Project => Root::Project,
        InstallScope::User => Root::Home,
    };
    let mut events = Vec::new();
    for source in crate::discover::discover(ctx) {
        if source.location.root != root || crate::discover::runner(host, &source) != Runner::Hookx {
            continue;
        }
        for rule in source.document().map(|d| d.rules.as_slice()).unwrap_or(&[]) {
            if !rule.handlers.iter().all(is_hookx_handler) && !events.contains(&rule.event) {
                events.push(rule.event.clone());
            }
        }
    }
    events
}

fn install_value(
    root: &mut Value,
    host: Dialect,
    hookx: &str,
    needed: &[EventKind],
    report: &mut Report,
) {
    let Some(events) = events_mut(root) else {
        return;
    };
    for (kind, name) in host.default_flavor().tables().events {
        if !needed.contains(kind) {
            // A route no rule needs costs the host a process per event: take it out.
            let Some(entries) = events.get_mut(*name).and_then(Value::as_array_mut) else {
                continue;
            };
            let routes = find_routes(entries, host);
            if routes.is_empty() {
                continue;
            }
            remove_routes(entries, &routes);
            report.dropped.push(name.to_string());
            if entries.is_empty() {
                events.shift_remove(*name);
            }
            continue;
        }
        report.routes += 1;
        let command = &route_command(hookx, host, name);
        let list = events
            .entry(name.to_string())
            .or_insert_with(|| Value::Array(Vec::new()));
        let Some(entries) = list.as_array_mut() else {
            continue;
        };
        let routes = find_routes(entries, host);
        let Some(&(first, inner)) = routes.first() else {
            entries.push(new_entry(host, command));
            report.added.push(name.to_string());
            continue;
        };
        // Keep the first entry (and whatever the user tuned on it), pointed at this hookx.
        let handler = match inner {
            Some(j) => entries[first].get_mut("hooks").and_then(|h| h.get_mut(j)),
            None => entries.get_mut(first),
        };
        if let Some(handler) = handler
            && let Some(key) = routing_key(handler, host)
            && let Some(obj) = handler.as_object_mut()
            && obj.get(key).and_then(Value::as_str) != Some(command)
        {
            obj.insert(key.to_string(), Value::String(command.to_string()));
            report.updated.push(name.to_string());
        }
        // Surplus copies would run the dispatcher twice per event.
        report.removed += remove_routes(entries, &routes[1..]);
    }
}

fn uninstall_value(root: &mut Value, host: Dialect) -> usize {
    let Some(events) = events_mut(root) else {
        return 0;
    };
    let mut removed = 0;
    let mut emptied = Vec::new();
    for (name, list) in events.iter_mut() {
        let Some(entries) = list.as_array_mut() else {
            continue;
        };
        let routes = find_routes(entries, host);
        if routes.is_empty() {
            continue;
        }
        removed += remove_routes(entries, &routes);
        if entries.is_empty() {
            emptied.push(name.clone());
        }
    }
    for name in emptied {
        events.shift_remove(&name);
    }
    // A `hooks` object that only held hookx's entries goes too, as install may have added it.
    if removed > 0
        && events.is_empty()
        && let Some(top) = root.as_object_mut()
    {
        top.shift_remove("hooks");
    }
    removed
}

/// Removes the given routes (in ascending order); a group left without handlers goes too.
fn remove_routes(entries: &mut Vec<Value>, routes: &[(usize, Option<usize>)]) -> usize {
    let mut drop_entries = Vec::new();
    for &(i, inner) in routes.iter().rev() {
        match inner {
            Some(j) => {
                if let Some(handlers) = entries[i].get_mut("hooks").and_then(Value::as_array_mut) {
                    handlers.remove(j);
                    if handlers.is_empty() {
                        drop_entries.push(i);
                    }
                }
            }
            None => drop_entries.push(i),
        }
    }
    drop_entries.sort_unstable();
    drop_entries.dedup();
    for i in drop_entries.into_iter().rev() {
        entries.remove(i);
    }
    routes.len()
}

/// Unwraps the editing marker before writing.
fn finish(root: Value) -> Value {
    match root {
        Value::Object(mut top) if top.contains_key(UNWRAPPED) => {
            top.remove(UNWRAPPED).unwrap_or(Value::Object(Map::new()))
        }
        other => other,
    }
}

/// `hookx install`, printing what it did.
pub fn command(opts: &Options) -> Result<i32, Error> {
    let report = apply(opts)?;
    let shown = opts.ctx.display(&report.path);
    let host = opts.host;
    if opts.uninstall {
        if report.deleted {
            println!(
                "removed {} hookx entries for {host} and the file {shown}, which held nothing else",
                report.removed
            );
        } else if report.removed > 0 {
            println!(
                "removed {} hookx entries for {host} from {shown}",
                report.removed
            );
        } else {
            println!("no hookx entries for {host} in {shown}");
        }
        return Ok(0);
    }
    if !report.changed() && report.routes == 0 {
        println!(
            "no {host} events to route: no hook file that hookx runs under {host} has rules in \
             this scope (hookx list --host {host} shows who runs what)"
        );
    } else if !report.changed() {
        println!("hookx is already installed for {host} in {shown}");
    } else {
        if !report.added.is_empty() {
            println!(
                "routed {} {host} events to hookx in {shown}: {}",
                report.added.len(),
                report.added.join(", ")
            );
        }
        if !report.updated.is_empty() {
            println!(
                "re-pointed {} existing hookx entries: {}",
                report.updated.len(),
                report.updated.join(", ")
            );
        }
        if !report.dropped.is_empty() {
            println!(
                "removed the routes of {} events no rule needs any more: {}",
                report.dropped.len(),
                report.dropped.join(", ")
            );
        }
        if report.removed > 0 {
            println!("removed {} duplicate hookx entries", report.removed);
        }
    }
    println!("command: {}", report.command);
    if opts.hookx.is_none() && opts.scope == InstallScope::Project && report.changed() {
        eprintln!(
            "note: the entries name this hookx by its absolute path; for a file the team shares, \
             `--hookx hookx` finds it on each developer's PATH instead"
        );
    }
    Ok(0)
}
