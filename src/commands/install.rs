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

use crate::config::edit::{JsonText, Seg};
use crate::config::scripts;
use crate::config::update::Change;
use crate::config::{self, syntax};
use crate::discover::{Context, Runner};
use crate::error::Error;
use crate::model::{Handler, HandlerKind};
use crate::shell::shell_quote;
use crate::tables::Dialect;
use crate::tables::HandlerField;
use crate::tables::Root;
use serde_json::{Value, json};
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
/// the event as the host names it (Copilot's camelCase payloads do not say which event fired);
/// a project route says so where the host needs it ([`crate::tables::RouteSpec::names_project_route`]).
pub fn route_command(hookx: &str, host: Dialect, event: &str, scope: InstallScope) -> String {
    let names_scope = host.def().route.names_project_route && scope == InstallScope::Project;
    format!(
        "{} run --host {} --event {event}{}",
        shell_quote(hookx),
        host.name(),
        if names_scope {
            " --installed-in project"
        } else {
            ""
        }
    )
}

/// Whether a command line is a hookx routing entry: some simple command in it runs a hookx
/// program ([`is_hookx_program`]) with `run` and `--host HOST`, whatever comes before it
/// (`env A=1 hookx run …`, `exec hookx …`, `cd . && hookx run …`), or runs any program with
/// exactly the arguments [`route_command`] writes (an install with `--hookx hx`). The
/// dispatcher skips these, convert does not copy them.
pub fn is_hookx_entry(command: &str) -> bool {
    route_host(command).is_some()
}

/// The host a hookx routing command names (`… <hookx> run --host HOST …`), if it is one.
pub fn route_host(command: &str) -> Option<String> {
    // Every handler of every event is asked this on the hot path; most are not hookx.
    // A byte search first: a line without a `-` has no `--host`.
    if !command.as_bytes().contains(&b'-')
        || !command.contains("run")
        || !command.contains("--host")
    {
        return None;
    }
    let words = shell_words(command)?;
    words
        .split(|w| w.is_none())
        .find_map(|simple| route_of(simple.iter().flatten().map(String::as_str)))
}

/// Programs that run the command after them (with their options and `NAME=value` words).
const WRAPPERS: &[&str] = &[
    "env", "exec", "command", "nohup", "builtin", "time", "nice", "setsid", "stdbuf", "timeout",
];

/// The host of one simple command (its words, unquoted), if it runs hookx's router.
fn route_of<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<String> {
    let program = loop {
        let word = words.next()?;
        let name = Path::new(word).file_name()?.to_str()?;
        let assignment = word.split_once('=').is_some_and(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if assignment || word.starts_with('-') || WRAPPERS.contains(&name) {
            continue;
        }
        // `timeout 600 hookx …`, `nice 5 …`: a number is a wrapper's argument.
        if word.parse::<f64>().is_ok() {
            continue;
        }
        break word;
    };
    if words.next()? != "run" {
        return None;
    }
    let args: Vec<&str> = words.collect();
    if is_hookx_program(program) {
        return host_option(&args);
    }
    // Any other program name (`--hookx /opt/bin/hx`, `hx` on PATH): only the exact line
    // `install` writes, `run --host HOST --event EVENT` with a host hookx knows, is a route
    // (`./check.sh run --host claude` is the user's own).
    match args[..] {
        ["--host", host, "--event", _] if Dialect::named(host).is_some() => Some(host.to_string()),
        _ => None,
    }
}

/// The value of `--host H` or `--host=H` among a route's arguments.
fn host_option(args: &[&str]) -> Option<String> {
    let mut args = args.iter();
    while let Some(word) = args.next() {
        if *word == "--host" {
            return args.next().map(|h| h.to_string());
        }
        if let Some(host) = word.strip_prefix("--host=") {
            return Some(host.to_string());
        }
    }
    None
}

/// Whether `program` is hookx: its file name contains `hookx` (`hookx`, `/opt/x/my-hookx`,
/// `hookx-0.1`), or it is this very executable under another name.
pub fn is_hookx_program(program: &str) -> bool {
    let Some(name) = Path::new(program).file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if name.contains("hookx") {
        return true;
    }
    let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    program.contains('/') && std::env::current_exe().is_ok_and(|exe| same(Path::new(program), &exe))
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

/// The words of a POSIX shell command line, unquoted, with `None` for each control operator
/// (`;`, `&`, `&&`, `|`, `||`, a newline, a parenthesis). `None` when a quote is left open.
fn shell_words(line: &str) -> Option<Vec<Option<String>>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ';' | '&' | '|' | '\n' | '(' | ')' => {
                words.extend(word.take().map(Some));
                words.push(None);
            }
            c if c.is_whitespace() => words.extend(word.take().map(Some)),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.peek() {
                            Some(&c @ ('"' | '\\' | '$' | '`')) => {
                                w.push(c);
                                chars.next();
                            }
                            _ => w.push('\\'),
                        },
                        c => w.push(c),
                    }
                }
            }
            '\\' => {
                let w = word.get_or_insert_with(String::new);
                if let Some(c) = chars.next() {
                    w.push(c);
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word.take().map(Some));
    Some(words)
}

#[cfg(test)]
mod route_tests {
    use super::route_host;

    #[test]
    fn routing_entries_are_recognised_whatever_comes_before_them() {
        for (line, host) in [
            ("hookx run --host claude --event Stop", Some("claude")),
            ("'/opt/my tools/hookx' run --host=copilot", Some("copilot")),
            ("env hookx run --host claude --event Stop", Some("claude")),
            ("env -i A=1 B=2 hookx run --host bricks", Some("bricks")),
            ("exec hookx run --host claude", Some("claude")),
            (
                "cd . && hookx run --host copilot --event agentStop",
                Some("copilot"),
            ),
            ("true; /opt/x/my-hookx run --host claude", Some("claude")),
            ("X=1 timeout 5 hookx run --host claude", Some("claude")),
            ("(hookx run --host claude)", Some("claude")),
            ("hookx exec --as claude -- run --host x", None),
            ("echo hookx run --host claude", None),
            ("./check.sh run --host claude", None),
            ("hookx run --host 'claude", None),
        ] {
            assert_eq!(route_host(line).as_deref(), host, "{line}");
        }
    }
}

/// Whether the route that fired from the folder `hook_dir` must leave `event` to the user's
/// route. A host that runs every handler it reads, user files first (Copilot), runs both routes
/// when the user and the project route are installed; only the user's route dispatches then,
/// so that no handler runs twice. An unreadable user file changes nothing.
pub fn left_to_user_route(ctx: &Context, host: Dialect, hook_dir: &Path, event: &str) -> bool {
    if host.config().merges_identical_handlers {
        return false;
    }
    let user = target(ctx, host, InstallScope::User);
    let Some(user_dir) = user.parent() else {
        return false;
    };
    let same = |a: &Path, b: &Path| {
        a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
    };
    if same(user_dir, hook_dir) {
        return false;
    }
    // A host of hook scripts: the user's route is the script named after the event.
    if host.config().scripts.is_some() {
        return std::fs::read_to_string(user.join(event)).is_ok_and(|t| scripts::is_route(&t));
    }
    let Ok(text) = std::fs::read_to_string(&user) else {
        return false;
    };
    if let Some(list) = host.config().rule_list {
        return routes_in_list(&user, &text, host, list)
            .is_ok_and(|events| events.iter().any(|e| e == event));
    }
    let Ok(events) = events_path(&user, &text, host) else {
        return false;
    };
    let list = path_to(&events, &[Seg::from(event)]);
    entries_of(&JsonText::new(&text), &list)
        .is_some_and(|entries| !find_routes(&entries, host).is_empty())
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
    /// Entries removed (uninstall, or surplus copies on install).
    pub removed: usize,
    /// Events whose route install removed because no rule needs it any more.
    pub dropped: Vec<String>,
    /// Events routed once install is done.
    pub routes: usize,
    /// Whether the file was deleted (uninstall left nothing in it).
    pub deleted: bool,
    /// The host's review records hookx keeps for its routes ([`crate::tables::RouteTrust`]):
    /// the file, and the keys set (install) or removed (uninstall).
    pub trust_file: Option<PathBuf>,
    pub trusted: Vec<String>,
    /// Events left unrouted, and why (a hook script of the user's own holds the name).
    pub refused: Vec<String>,
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

/// Installs or uninstalls, through [`config::update::update`]: the file is edited in place, only
/// hookx's entries change, and nothing is written when nothing changes. Uninstall gives back
/// the bytes the file had before install, and deletes the file only when install created it.
pub fn apply(opts: &Options) -> Result<Report, Error> {
    if opts.host.config().scripts.is_some() {
        return apply_scripts(opts);
    }
    if let Some(list) = opts.host.config().rule_list {
        return apply_rule_list(opts, list);
    }
    let path = target(&opts.ctx, opts.host, opts.scope);
    let mut report = Report {
        path: path.clone(),
        ..Report::default()
    };
    let hookx = match opts.uninstall {
        true => None,
        false => Some(hookx_program(opts)?),
    };
    let host = opts.host;
    let needed = match opts.uninstall {
        true => Vec::new(),
        false => routed_events(&opts.ctx, host, opts.scope),
    };
    // The host's review file is checked first: routes it could not record would not run.
    if let Some(trust) = &host.def().route_trust {
        let file = opts.ctx.home.join(trust.file);
        if let Ok(text) = std::fs::read_to_string(&file) {
            (trust.set)(&text, &[]).map_err(|message| Error::Io {
                path: opts.ctx.display(&file),
                message: format!("cannot record the review of hookx's routes: {message}"),
            })?;
        }
    }
    let mut before: Option<String> = None;
    config::update::update(&path, |current| {
        before = current.map(str::to_string);
        let fresh = fresh_text(host);
        let (mut text, events) = match current {
            None if opts.uninstall => return Ok(Change::Keep),
            None => (JsonText::new(fresh.clone()), vec![Seg::from("hooks")]),
            Some(current) => (JsonText::new(current), events_path(&path, current, host)?),
        };
        let edited = match &hookx {
            Some(hookx) => {
                let created = current.is_none();
                install_text(
                    &mut text,
                    &events,
                    (host, opts.scope),
                    hookx,
                    &needed,
                    created,
                    &mut report,
                );
                report.command = format!("{} run --host {}", shell_quote(hookx), host.name());
                report.changed()
            }
            None => {
                let created;
                (report.removed, created) = uninstall_text(&mut text, &events, host);
                if created && text.as_str() == fresh {
                    // Nothing is left but the file install created.
                    report.deleted = true;
                    return Ok(Change::Delete);
                }
                // A `hooks` object that only held hookx's entries goes too, as install may
                // have added it.
                if report.removed > 0 && !events.is_empty() && text.len(&events) == Some(0) {
                    let _ = text.remove(&events);
                }
                report.removed > 0
            }
        };
        Ok(match edited {
            true => Change::Write(text.into_text()),
            false => Change::Keep,
        })
    })?;
    if let Some(trust) = &host.def().route_trust {
        record_trust(opts, trust, &path, before.as_deref(), &mut report)?;
    }
    Ok(report)
}

/// Install for a host whose hooks are one script per event ([`crate::tables::ScriptLayout`]): a route is a
/// script named after its event in the scope's hook folder, running `hookx run`. Only scripts
/// install wrote ([`scripts::ROUTE_MARK`]) are replaced or removed; a script of the user's own under
/// an event's name leaves that event unrouted, and the report says so.
fn apply_scripts(opts: &Options) -> Result<Report, Error> {
    let dir = target(&opts.ctx, opts.host, opts.scope);
    let host = opts.host;
    let mut report = Report {
        path: dir.clone(),
        ..Report::default()
    };
    let needed = match opts.uninstall {
        true => Vec::new(),
        false => routed_events(&opts.ctx, host, opts.scope),
    };
    let hookx = match opts.uninstall {
        true => None,
        false => Some(hookx_program(opts)?),
    };
    let wanted: Vec<String> = needed.iter().map(|name| name.to_string()).collect();
    let io = |path: &Path, e: std::io::Error| Error::Io {
        path: opts.ctx.display(path),
        message: e.to_string(),
    };
    // hookx's scripts no rule needs any more go (all of them on uninstall).
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string)
        else {
            continue;
        };
        let ours = std::fs::read_to_string(&path).is_ok_and(|t| scripts::is_route(&t));
        if ours && !wanted.contains(&name) {
            std::fs::remove_file(&path).map_err(|e| io(&path, e))?;
            match opts.uninstall {
                true => report.removed += 1,
                false => report.dropped.push(name),
            }
        }
    }
    if let Some(hookx) = &hookx {
        for name in &wanted {
            let path = dir.join(name);
            let text = scripts::route_script(&route_command(hookx, host, name, opts.scope));
            match std::fs::read_to_string(&path) {
                Ok(current) if current == text && scripts::is_executable(&path) => {}
                Ok(current) if scripts::is_route(&current) => {
                    scripts::write_executable(&path, &text)?;
                    report.updated.push(name.clone());
                }
                Ok(_) => {
                    report.refused.push(format!(
                        "{name}: {} is a hook of your own, left as it is",
                        opts.ctx.display(&path)
                    ));
                    continue;
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    scripts::write_executable(&path, &text)?;
                    report.added.push(name.clone());
                }
                Err(e) => return Err(io(&path, e)),
            }
            report.routes += 1;
        }
        report.command = format!("{} run --host {}", shell_quote(hookx), host.name());
    }
    if opts.uninstall
        && report.removed > 0
        && std::fs::read_dir(&dir).is_ok_and(|mut d| d.next().is_none())
    {
        // The folder install created, now empty.
        let _ = std::fs::remove_dir(&dir);
    }
    Ok(report)
}

/// Install for a host whose files are rule lists ([`crate::tables::RuleList`]) and
/// which reads every file of its hook folder: hookx's routes are a file of its own, written
/// whole (one rule per event, each marked as install's). A file there that holds any rule
/// install did not write is refused and left as it is. Uninstall deletes the file.
fn apply_rule_list(opts: &Options, list: &crate::tables::RuleList) -> Result<Report, Error> {
    let path = target(&opts.ctx, opts.host, opts.scope);
    let host = opts.host;
    let mut report = Report {
        path: path.clone(),
        ..Report::default()
    };
    let hookx = match opts.uninstall {
        true => None,
        false => Some(hookx_program(opts)?),
    };
    let needed = match opts.uninstall {
        true => Vec::new(),
        false => routed_events(&opts.ctx, host, opts.scope),
    };
    config::update::update(&path, |current| {
        let had: Vec<String> = match current {
            None => Vec::new(),
            Some(text) => routes_in_list(&path, text, host, list)?,
        };
        let Some(hookx) = &hookx else {
            report.removed = had.len();
            report.deleted = current.is_some();
            return Ok(match current {
                Some(_) => Change::Delete,
                None => Change::Keep,
            });
        };
        let rules: Vec<Value> = needed
            .iter()
            .map(|event| {
                let command = route_command(hookx, host, event, opts.scope);
                let mut handler = layout(host, &command);
                let mut on_rule = Vec::new();
                if let Some(obj) = handler.as_object_mut() {
                    obj.insert(config::MARKER.into(), created_file());
                    for key in list.handler_keys_on_rule {
                        if let Some(value) = obj.remove(*key) {
                            on_rule.push((key.to_string(), value));
                        }
                    }
                }
                let mut rule = serde_json::Map::new();
                rule.insert(list.name_key.into(), format!("hookx-{event}").into());
                rule.insert(list.event_key.into(), (*event).into());
                rule.insert(list.handler_key.into(), handler);
                rule.extend(on_rule);
                Value::Object(rule)
            })
            .collect();
        for event in &needed {
            match had.iter().any(|h| h == event) {
                true => {}
                false => report.added.push(event.to_string()),
            }
        }
        report.dropped = had
            .iter()
            .filter(|h| !needed.contains(&h.as_str()))
            .cloned()
            .collect();
        report.routes = rules.len();
        report.command = format!("{} run --host {}", shell_quote(hookx), host.name());
        if rules.is_empty() {
            report.deleted = current.is_some();
            return Ok(match current {
                Some(_) => Change::Delete,
                None => Change::Keep,
            });
        }
        let value = json!({"version": list.version, "hooks": rules});
        let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
        text.push('\n');
        if current != Some(text.as_str()) && report.added.is_empty() && report.dropped.is_empty() {
            // Same events, another hookx path.
            report.updated = needed.iter().map(|e| e.to_string()).collect();
        }
        Ok(Change::Write(text))
    })?;
    Ok(report)
}

/// The events routed by hookx's own rule-list file; an error when the file holds anything
/// else (it is the user's, or was edited: hookx would overwrite what it does not own).
fn routes_in_list(
    path: &Path,
    text: &str,
    host: Dialect,
    list: &crate::tables::RuleList,
) -> Result<Vec<String>, Error> {
    let src = crate::source::SourceFile::new(path.display().to_string(), text);
    let value = syntax::parse_json(&src)?;
    let rules = value.get("hooks").and_then(Value::as_array);
    let ours = |rule: &Value| {
        let handler = &rule[list.handler_key];
        says_created(handler) && routing_key(handler, host).is_some()
    };
    match rules {
        Some(rules) if list.fits(&value) && rules.iter().all(ours) => Ok(rules
            .iter()
            .filter_map(|r| r[list.event_key].as_str().map(str::to_string))
            .collect()),
        _ => Err(Error::Invalid(vec![crate::diag::Diagnostic::at_line_col(
            crate::diag::Severity::Error,
            &src,
            1,
            1,
            "holds rules hookx did not write; hookx writes this file whole and leaves it as it is (move your rules to another file of the folder)",
        )])),
    }
}

/// Keeps the host's review records of hookx's routes in step with the routes: on install, one
/// per route of the file as written; on uninstall, those of the routes it had.
fn record_trust(
    opts: &Options,
    trust: &crate::tables::RouteTrust,
    path: &Path,
    before: Option<&str>,
    report: &mut Report,
) -> Result<(), Error> {
    let routes_of = |text: Option<&str>| -> Vec<(String, String)> {
        text.and_then(|t| serde_json::from_str::<Value>(t).ok())
            .map(|value| (trust.records)(path, &value, &is_hookx_entry))
            .unwrap_or_default()
    };
    let records = match opts.uninstall {
        true => routes_of(before),
        false => routes_of(std::fs::read_to_string(path).ok().as_deref()),
    };
    let file = opts.ctx.home.join(trust.file);
    if records.is_empty() && !file.exists() {
        return Ok(());
    }
    let shown = opts.ctx.display(&file);
    config::update::update(&file, |current| {
        let text = current.unwrap_or_default();
        let edited = match opts.uninstall {
            true => {
                let keys: Vec<String> = records.iter().map(|(k, _)| k.clone()).collect();
                (trust.unset)(text, &keys)
            }
            false => (trust.set)(text, &records),
        }
        .map_err(|message| Error::Io {
            path: shown.clone(),
            message: format!("cannot record the review of hookx's routes: {message}"),
        })?;
        Ok(match edited == text {
            true => Change::Keep,
            false => Change::Write(edited),
        })
    })?;
    report.trust_file = Some(file);
    report.trusted = records.into_iter().map(|(k, _)| k).collect();
    Ok(())
}

/// The text of a file install creates, before its entries go in.
fn fresh_text(host: Dialect) -> String {
    let value = match host.config().version {
        Some(version) => json!({"version": version, "hooks": {}}),
        None => json!({"hooks": {}}),
    };
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// Where the event arrays of an existing target sit: under `hooks`, or at the root where the
/// dialect allows that and the file has it so. A target hookx cannot read cleanly in the
/// host's dialect is refused: editing it would risk the hooks it has.
fn events_path(path: &Path, text: &str, host: Dialect) -> Result<Vec<Seg>, Error> {
    let src = crate::source::SourceFile::new(path.display().to_string(), text);
    let parsed = config::read::read_checked(&src, host)?;
    let value = syntax::parse_json_as(&src, config::read::json_syntax(&src, host))?;
    let has_keys = value.as_object().is_some_and(|o| !o.is_empty());
    if host.config().wrapper_optional && !parsed.document.wrapped && has_keys {
        // Bricks may put events at the root; keep that layout.
        return Ok(Vec::new());
    }
    Ok(vec![Seg::from("hooks")])
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

/// The provenance record on the routing entries of a file install created.
fn created_file() -> Value {
    json!({"created": "file"})
}

/// Whether a routing handler says install created its file.
fn says_created(handler: &Value) -> bool {
    handler.get(config::MARKER) == Some(&created_file())
}

/// The entry install adds for one event, in the host's own layout; `created`: install is
/// creating the file, and the entry says so.
fn new_entry(host: Dialect, command: &str, created: bool) -> Value {
    let mut entry = layout(host, command);
    if created {
        let handler = match entry.get_mut("hooks").and_then(|h| h.get_mut(0)) {
            Some(inner) => inner,
            None => &mut entry,
        };
        if let Some(obj) = handler.as_object_mut() {
            obj.insert(config::MARKER.into(), created_file());
        }
    }
    entry
}

/// The route's entry in the host's layout ([`crate::tables::RouteSpec`]).
fn layout(host: Dialect, command: &str) -> Value {
    let route = &host.def().route;
    let mut handler = serde_json::Map::new();
    // An agent whose entries have no `type` (Windsurf) gets none.
    if host.config().key(HandlerField::Type).is_some() {
        handler.insert("type".into(), "command".into());
    }
    handler.insert(route.command_key.into(), command.into());
    if let Some(key) = route.timeout_key {
        let timeout = if host.config().timeout_millis {
            ROUTE_TIMEOUT * 1000
        } else {
            ROUTE_TIMEOUT
        };
        handler.insert(key.into(), timeout.into());
    }
    if !route.grouped {
        return Value::Object(handler);
    }
    let mut group = serde_json::Map::new();
    if let Some(matcher) = route.matcher {
        group.insert("matcher".into(), matcher.into());
    }
    for (key, value) in route.group_keys {
        let value = serde_json::from_str(value).expect("a route's group keys are JSON");
        group.insert((*key).into(), value);
    }
    group.insert("hooks".into(), Value::Array(vec![Value::Object(handler)]));
    Value::Object(group)
}

fn path_to(base: &[Seg], tail: &[Seg]) -> Vec<Seg> {
    base.iter().chain(tail).cloned().collect()
}

/// The event's entries as the text holds them now.
fn entries_of(text: &JsonText, list: &[Seg]) -> Option<Vec<Value>> {
    text.value(list)?.as_array().cloned()
}

/// The events that need a route: those with rules that hookx (not the host itself) runs under
/// `host`, in the files of the scope the install serves. Trust is not asked: a file trusted
/// later needs its route already.
/// The host's event names are returned: an event that is a tool category (Windsurf's
/// `pre_run_command`) needs a route only when some rule fires for a tool of it.
pub fn routed_events(ctx: &Context, host: Dialect, scope: InstallScope) -> Vec<&'static str> {
    let root = match scope {
        InstallScope::Project => Root::Project,
        InstallScope::User => Root::Home,
    };
    let sources: Vec<_> = crate::discover::discover(ctx)
        .into_iter()
        .filter(|s| s.location.root == root && crate::discover::runner(host, s) == Runner::Hookx)
        .collect();
    let rules: Vec<&crate::tables::Rule> = sources
        .iter()
        .filter_map(|s| s.document())
        .flat_map(|d| &d.rules)
        .filter(|r| !r.handlers.iter().all(is_hookx_handler))
        .collect();
    host.own_events()
        .into_iter()
        .filter(|(kind, _, flavor)| {
            rules.iter().any(|r| {
                r.event == *kind
                    && crate::convert::RuleTools::new(r, kind)
                        .in_category(*flavor)
                        .is_none_or(|fire| fire != crate::convert::CategoryFire::Never)
            })
        })
        .map(|(_, name, _)| name)
        .collect()
}

fn install_text(
    text: &mut JsonText,
    events: &[Seg],
    (host, scope): (Dialect, InstallScope),
    hookx: &str,
    needed: &[&str],
    created: bool,
    report: &mut Report,
) {
    if needed.is_empty() && text.value(events).is_none_or(|v| !v.is_object()) {
        return;
    }
    if text.value(events).is_none_or(|v| !v.is_object()) {
        // A file without `hooks` gets one (a file whose `hooks` is not an object was refused).
        if text.add_property(&[], "hooks", &json!({})).is_none() {
            return;
        }
    }
    for (_, name, _) in host.own_events() {
        let list = path_to(events, &[Seg::from(name)]);
        if !needed.contains(&name) {
            // A route no rule needs costs the host a process per event: take it out.
            let Some(entries) = entries_of(text, &list) else {
                continue;
            };
            let routes = find_routes(&entries, host);
            if routes.is_empty() {
                continue;
            }
            remove_routes(text, &list, &entries, &routes);
            if text.len(&list) == Some(0) {
                let _ = text.remove(&list);
            }
            report.dropped.push(name.to_string());
            continue;
        }
        report.routes += 1;
        let command = &route_command(hookx, host, name, scope);
        let Some(entries) = entries_of(text, &list) else {
            if text.value(&list).is_none()
                && text
                    .add_property(events, name, &json!([new_entry(host, command, created)]))
                    .is_some()
            {
                report.added.push(name.to_string());
            }
            continue;
        };
        let routes = find_routes(&entries, host);
        let Some(&(first, inner)) = routes.first() else {
            if text
                .push(&list, &new_entry(host, command, created))
                .is_some()
            {
                report.added.push(name.to_string());
            }
            continue;
        };
        // Keep the first entry (and whatever the user tuned on it), pointed at this hookx.
        let handler_path = match inner {
            Some(j) => path_to(
                &list,
                &[Seg::Index(first), Seg::from("hooks"), Seg::Index(j)],
            ),
            None => path_to(&list, &[Seg::Index(first)]),
        };
        let handler = match inner {
            Some(j) => entries[first].get("hooks").and_then(|h| h.get(j)),
            None => entries.get(first),
        };
        if let Some(handler) = handler
            && let Some(key) = routing_key(handler, host)
            && handler.get(key).and_then(Value::as_str) != Some(command)
            && text
                .replace(&path_to(&handler_path, &[Seg::from(key)]), &json!(command))
                .is_some()
        {
            report.updated.push(name.to_string());
        }
        // Surplus copies would run the dispatcher twice per event.
        report.removed += remove_routes(text, &list, &entries, &routes[1..]);
    }
}

/// Removes every routing entry of `host`: how many, and whether one said install created the
/// file.
fn uninstall_text(text: &mut JsonText, events: &[Seg], host: Dialect) -> (usize, bool) {
    let Some(Value::Object(names)) = text.value(events) else {
        return (0, false);
    };
    let mut removed = 0;
    let mut created = false;
    for name in names.keys() {
        let list = path_to(events, &[Seg::from(name.as_str())]);
        let Some(entries) = entries_of(text, &list) else {
            continue;
        };
        let routes = find_routes(&entries, host);
        if routes.is_empty() {
            continue;
        }
        created |= routes.iter().any(|&(i, inner)| {
            let handler = match inner {
                Some(j) => entries[i].get("hooks").and_then(|h| h.get(j)),
                None => entries.get(i),
            };
            handler.is_some_and(says_created)
        });
        removed += remove_routes(text, &list, &entries, &routes);
        if text.len(&list) == Some(0) {
            let _ = text.remove(&list);
        }
    }
    (removed, created)
}

/// Removes the given routes (in ascending order) from the event array at `list`, whose
/// entries were `entries`; a group left without handlers goes whole.
fn remove_routes(
    text: &mut JsonText,
    list: &[Seg],
    entries: &[Value],
    routes: &[(usize, Option<usize>)],
) -> usize {
    let mut groups: Vec<usize> = routes.iter().map(|r| r.0).collect();
    groups.dedup();
    // Last entry first, so that the indices still to remove stay valid.
    for &i in groups.iter().rev() {
        let inner: Vec<usize> = routes
            .iter()
            .filter(|r| r.0 == i)
            .filter_map(|r| r.1)
            .collect();
        let handlers = entries[i]
            .get("hooks")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if inner.is_empty() || inner.len() == handlers {
            let _ = text.remove(&path_to(list, &[Seg::Index(i)]));
        } else {
            for &j in inner.iter().rev() {
                let _ = text.remove(&path_to(
                    list,
                    &[Seg::Index(i), Seg::from("hooks"), Seg::Index(j)],
                ));
            }
        }
    }
    routes.len()
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
        if let Some(file) = &report.trust_file
            && !report.trusted.is_empty()
        {
            println!(
                "removed {host}'s review records of those entries from {}",
                opts.ctx.display(file)
            );
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
    for refused in &report.refused {
        eprintln!("note: not routed: {refused}");
    }
    println!("command: {}", report.command);
    if let Some(effect) = host.config().scripts.and_then(|l| l.deny_effect)
        && report.routes > 0
    {
        eprintln!("warning: {effect}");
    }
    if let Some(trust) = &host.def().folder_trust
        && opts.scope == InstallScope::Project
        && report.routes > 0
    {
        let project = opts.ctx.project.canonicalize();
        let project = project.as_deref().unwrap_or(&opts.ctx.project);
        if !trust.trusts(&opts.ctx.home, project) {
            eprintln!(
                "note: {} reads {} only in a folder the user trusted, and {} does not trust {}: {}",
                host.def().product,
                host.config().install_project,
                trust.describe(),
                project.display(),
                trust.fix
            );
        }
    }
    if let Some(file) = &report.trust_file {
        // Exactly what is trusted: each route, by its position and the hash of its entry.
        println!(
            "trusted for {host} in {}: the {} hookx entries of {shown} and nothing else ({})",
            opts.ctx.display(file),
            report.trusted.len(),
            report.trusted.join(", ")
        );
    }
    if opts.hookx.is_none() && opts.scope == InstallScope::Project && report.changed() {
        eprintln!(
            "note: the entries name this hookx by its absolute path; for a file the team shares, \
             `--hookx hookx` finds it on each developer's PATH instead"
        );
    }
    Ok(0)
}
