//! Routes for a host whose hooks are code ([`crate::tables::GeneratedPlugin`]): one plugin file
//! hookx writes whole, holding a route per event that has rules. The file is hookx's by its
//! first line (the template's marker); a file without it is the user's and is left alone.

use super::{InstallScope, Program, route_command};
use crate::tables::{Dialect, GeneratedPlugin};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// The plugin text for `events` (the host's names), each routed to `hookx run --host HOST
/// --event EVENT`.
pub(crate) fn plugin_text(
    plugin: &GeneratedPlugin,
    host: Dialect,
    program: Program<'_>,
    events: &[&str],
    scope: InstallScope,
) -> String {
    let routes: Map<String, Value> = events
        .iter()
        .map(|e| {
            let line = route_command(program, host, e, scope);
            (e.to_string(), Value::String(line))
        })
        .collect();
    plugin_of(plugin, host, &Value::Object(routes), INSTALLED_BY)
}

/// The plugin `hookx convert` writes at `target` around the converted `document`'s handlers
/// (rules of the host's flavour, their commands already routed through `hookx exec`): per
/// event, each command handler with its matcher, timeout and provenance record (`"hookx"`,
/// [`crate::config::MARKER`], its source named from `target`'s folder), which the plugin
/// ignores and hookx reads back ([`converted_document`]): the plan sees the host run those
/// rules itself. Handlers that are not commands are the converter's losses already; here they
/// are skipped. The handlers of the plugin convert wrote there before (`current`) that other
/// sources' conversions wrote stay, first, as a JSON target keeps other sources' copies: one
/// plugin holds every file's copies (attacks row 767: a second file converted into it left
/// the first's guard to nobody).
pub(crate) fn converted_plugin(
    plugin: &GeneratedPlugin,
    host: Dialect,
    document: &crate::tables::Document,
    target: &Path,
    current: Option<&str>,
) -> String {
    use crate::config::MARKER;
    let ours: Vec<Value> = document
        .rules
        .iter()
        .map(|r| Value::from(crate::config::merge::source_record(target, &r.origin.file)))
        .collect();
    let mut routes = Map::new();
    for rule in &document.rules {
        let source = crate::config::merge::source_record(target, &rule.origin.file);
        let Some(event) = rule.flavor.tables().event_name(&rule.event) else {
            continue;
        };
        for handler in &rule.handlers {
            let crate::model::HandlerKind::Command(command) = &handler.kind else {
                continue;
            };
            let Some(line) = command.command.as_ref().or(command.bash.as_ref()) else {
                continue;
            };
            let millis = match host.config().timeout_unit {
                crate::tables::TimeoutUnit::Millis => handler.timeout,
                _ => handler.timeout.map(|s| s.saturating_mul(1000)),
            };
            let mut entry = serde_json::json!({
                "matcher": rule.matcher,
                "command": line,
                "timeout_ms": millis,
            });
            if let Some(Value::Object(record)) = handler.extra.get(MARKER) {
                let mut record = record.clone();
                record.insert("source".into(), Value::from(source.clone()));
                entry[MARKER] = Value::Object(record);
            }
            let list = routes
                .entry(event.to_string())
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = list {
                list.push(entry);
            }
        }
    }
    // Kept, first: other sources' copies, but one running what a new entry runs (the same
    // rule, copied into another file first, which each file's conversion brings again).
    let same = |a: &Value, b: &Value| a["matcher"] == b["matcher"] && a["command"] == b["command"];
    let mut all = Map::new();
    for (event, entries) in current
        .and_then(|c| routes_object(plugin, c))
        .unwrap_or_default()
    {
        let Value::Array(entries) = entries else {
            continue;
        };
        let new = routes
            .get(&event)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let theirs: Vec<Value> = entries
            .into_iter()
            .filter(|e| e[MARKER]["source"].is_string() && !ours.contains(&e[MARKER]["source"]))
            .filter(|e| !new.iter().any(|n| same(e, n)))
            .collect();
        if !theirs.is_empty() {
            all.insert(event, Value::Array(theirs));
        }
    }
    for (event, new) in routes {
        match (all.get_mut(&event), new) {
            (Some(Value::Array(kept)), Value::Array(new)) => kept.extend(new),
            (_, new) => {
                all.insert(event, new);
            }
        }
    }
    plugin_of(plugin, host, &Value::Object(all), CONVERTED_BY)
}

/// The digest the first line of a plugin hookx wrote ends in ([`plugin_of`]), and the plugin
/// without it: what the digest is of. `None` where that line ends in none (an older hookx's
/// plugin).
fn recorded_digest(text: &str) -> Option<(&str, String)> {
    let end = text.find('\n')?;
    let at = end.checked_sub(DIGEST_DIGITS)?;
    let digest = text.get(at..end)?;
    let hex = digest.bytes().all(|b| b.is_ascii_hexdigit());
    (hex && text[..at].ends_with(' ')).then(|| (digest, format!("{}{}", &text[..at], &text[end..])))
}

/// How many hex digits of its SHA-256 a plugin's digest keeps.
const DIGEST_DIGITS: usize = 16;

/// The digest of a plugin's text without it.
fn digest_of(bare: &str) -> String {
    crate::hash::sha256_hex(bare.as_bytes())[..DIGEST_DIGITS].to_string()
}

/// Why hookx's plugin `text` is not to be written over without `--force`: it is not what the
/// digest its first line ends in says hookx wrote (edited by hand since: its handlers' data or
/// its code). `None`: as hookx wrote it, not hookx's (for the caller to refuse), or written by
/// an older hookx, which recorded no digest: taken as written, as a JSON copy without one.
pub fn hand_edit(plugin: &GeneratedPlugin, text: &str) -> Option<&'static str> {
    if !is_own_plugin(plugin, text) {
        return None;
    }
    let (recorded, bare) = recorded_digest(text)?;
    (digest_of(&bare) != recorded).then_some(
        "the plugin hookx wrote was edited by hand since (move the change into the source, or \
         --force to overwrite it)",
    )
}

/// Who a converted plugin says wrote it.
const CONVERTED_BY: &str = "hookx convert";
/// Who an installed plugin says wrote it.
const INSTALLED_BY: &str = "hookx install";

/// The plugin text around `routes` (an object of the host's event names and what runs for
/// each), saying which command (`by`) wrote it.
fn plugin_of(plugin: &GeneratedPlugin, host: Dialect, routes: &Value, by: &str) -> String {
    let protocol = &host.default_flavor().tables().protocol;
    let guards: Vec<&str> = host
        .default_flavor()
        .tables()
        .events
        .iter()
        .filter(|(kind, _)| protocol.fail_closed.contains(kind))
        .map(|(_, name)| *name)
        .collect();
    let limit_ms = host.def().route.limit.secs * 1000;
    let (routes, guards, limit_ms) = (
        pretty(routes),
        Value::from(guards).to_string(),
        limit_ms.to_string(),
    );
    let with = |digest: &str| {
        fill(
            plugin.template,
            &[
                ("__HOOKX_BY__", by),
                ("__HOOKX_ROUTES__", &routes),
                ("__HOOKX_GUARDS__", &guards),
                ("__HOOKX_LIMIT_MS__", &limit_ms),
                ("__HOOKX_DIGEST__", digest),
            ],
        )
    };
    // The first line ends in the digest of the plugin without it: the next write tells a
    // hand edit (of the handlers' data or of the code) from what hookx wrote, whatever
    // template wrote it ([`hand_edit`]).
    with(&digest_of(&with("")))
}

/// `template` with each of its holes replaced by its value, in one pass over the template: a
/// value is never searched for holes (a command line holding `__HOOKX_GUARDS__` would
/// otherwise put a JSON array inside a JS string, and a plugin that does not parse is not
/// loaded: every guard in it fails open).
fn fill(template: &str, holes: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(at) = rest.find("__HOOKX_") {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let (text, len) = holes
            .iter()
            .find(|(hole, _)| tail.starts_with(hole))
            .map_or(("__HOOKX_", "__HOOKX_".len()), |(hole, value)| {
                (*value, hole.len())
            });
        out.push_str(text);
        rest = &tail[len..];
    }
    out.push_str(rest);
    out
}

/// JSON for a line of JS: pretty, indented as the template's constants are.
fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| "{}".into())
}

/// Whether `text` is a plugin hookx wrote (its first line is the marker).
pub fn is_own_plugin(plugin: &GeneratedPlugin, text: &str) -> bool {
    text.lines()
        .next()
        .is_some_and(|l| l.starts_with(plugin.marker))
}

/// The events and command lines of hookx's plugin `text` (none when it is not hookx's, or its
/// routes cannot be read back).
pub fn plugin_routes(plugin: &GeneratedPlugin, text: &str) -> Vec<(String, String)> {
    routes_object(plugin, text)
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k, v.as_str()?.to_string())))
        .collect()
}

/// The routes of hookx's plugin as install writes it for `host`, in the project and the home:
/// the user's where the agent loads it ([`crate::context::Context::agent_file`]: below
/// `XDG_CONFIG_HOME` when that is set, attacks row 388).
pub fn installed_plugin_routes(
    ctx: &crate::context::Context,
    host: crate::tables::Dialect,
    plugin: &GeneratedPlugin,
) -> Vec<(String, String)> {
    [
        ctx.project.join(host.config().install_project),
        ctx.agent_file(host, host.config().install_user),
    ]
    .iter()
    .filter_map(|path| crate::read::text(path, crate::read::MAX_FILE_BYTES).ok())
    .flat_map(|text| plugin_routes(plugin, &text))
    .collect()
}

/// The rules of the plugin `convert` wrote (`text`, shown as `file`), read back from its
/// `ROUTES` data (never run): per event of the host's, each handler a rule of the host's
/// flavour with its matcher, command, timeout and provenance record. `None` when `text` is
/// not hookx's plugin, holds no handlers (install's routes are no rules), or is not byte for
/// byte the plugin this hookx writes around that data: the data is all hookx reads, so code
/// that does something else (a repository's forgery, a hand edit, an older template) must
/// not stand in for the rules the data names.
pub fn converted_document(
    plugin: &GeneratedPlugin,
    host: Dialect,
    text: &str,
    file: &str,
) -> Option<crate::tables::Document> {
    use crate::model::{Command, Handler, HandlerKind};
    use crate::tables::{Origin, Rule, RuleShape};
    let flavor = host.default_flavor();
    let mut document = crate::tables::Document::new(host, host.config().documents.file);
    let routes = routes_object(plugin, text)?;
    if plugin_of(plugin, host, &Value::Object(routes.clone()), CONVERTED_BY) != text {
        return None;
    }
    for (event, entries) in routes {
        let (Some(kind), Some(entries)) = (flavor.tables().event_kind(&event), entries.as_array())
        else {
            continue;
        };
        for (i, entry) in entries.iter().enumerate() {
            let Some(line) = entry.get("command").and_then(Value::as_str) else {
                continue;
            };
            let millis = entry.get("timeout_ms").and_then(Value::as_u64);
            let timeout = match host.config().timeout_unit {
                crate::tables::TimeoutUnit::Millis => millis,
                _ => millis.map(|m| m / 1000),
            };
            let mut extra = Map::new();
            if let Some(record) = entry.get(crate::config::MARKER) {
                extra.insert(crate::config::MARKER.into(), record.clone());
            }
            document.rules.push(Rule {
                event: kind.clone(),
                flavor,
                matcher: entry
                    .get("matcher")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                handlers: vec![Handler {
                    kind: HandlerKind::Command(Command {
                        command: Some(line.to_string()),
                        ..Command::default()
                    }),
                    timeout,
                    status_message: None,
                    once: None,
                    extra,
                }],
                shape: RuleShape::Flat,
                extra: Map::new(),
                origin: Origin {
                    file: file.to_string(),
                    pointer: format!("/{event}/{i}"),
                },
            });
        }
    }
    (!document.rules.is_empty()).then_some(document)
}

/// The `ROUTES` object of hookx's plugin `text`: per event, a route (install's) or a list of
/// handlers (convert's).
fn routes_object(plugin: &GeneratedPlugin, text: &str) -> Option<Map<String, Value>> {
    if !is_own_plugin(plugin, text) {
        return None;
    }
    let start = text.find("const ROUTES = ")?;
    let rest = &text[start + "const ROUTES = ".len()..];
    let end = rest.find(";\n")?;
    match serde_json::from_str::<Value>(&rest[..end]) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    }
}

/// A plugin file where hookx writes one (install's at either scope, convert's), for `list`
/// and `trust` to show: hookx reads no plugin as a hook file.
#[derive(Clone, Debug)]
pub struct PluginFile {
    pub host: Dialect,
    pub path: PathBuf,
    pub scope: crate::tables::Scope,
    /// hookx wrote it (its marker). Not: a plugin of the user's own at hookx's path, which
    /// install and convert leave as it is, and the agent runs.
    pub own: bool,
    /// Events it routes to `hookx run` (install's plugin).
    pub routes: usize,
    /// Handlers it runs by itself (convert's plugin, each through `hookx exec`).
    pub handlers: usize,
}

/// The plugin files at the places hookx writes them, for every agent whose hooks are code.
pub fn plugin_files(project: &Path, home: &Path) -> Vec<PluginFile> {
    use crate::tables::Scope;
    let mut out = Vec::new();
    for &host in Dialect::write_only() {
        let Some(plugin) = host.config().generated else {
            continue;
        };
        let config = host.config();
        for (path, scope) in [
            (project.join(config.install_project), Scope::Project),
            (project.join(config.convert_target), Scope::Project),
            (home.join(config.install_user), Scope::User),
        ] {
            let Ok(text) = crate::read::text(&path, crate::read::MAX_FILE_BYTES) else {
                continue;
            };
            let routes = routes_object(plugin, &text).unwrap_or_default();
            out.push(PluginFile {
                host,
                path,
                scope,
                own: is_own_plugin(plugin, &text),
                routes: routes.values().filter(|v| v.is_string()).count(),
                handlers: routes
                    .values()
                    .filter_map(Value::as_array)
                    .map(Vec::len)
                    .sum(),
            });
        }
    }
    out
}

impl PluginFile {
    /// What it is, in a few words (`hookx list`'s sources, `hookx trust`).
    pub fn status(&self) -> String {
        let display = self.host.def().display;
        let n = |count: usize, word: &str| match count {
            1 => format!("1 {word}"),
            n => format!("{n} {word}s"),
        };
        match (self.own, self.handlers) {
            (false, _) => format!(
                "a plugin hookx did not write: {display} runs it by itself; hookx leaves it alone"
            ),
            (true, 0) => format!(
                "hookx's plugin (hookx install): {} to hookx, which runs only trusted hook files",
                n(self.routes, "route")
            ),
            (true, handlers) => format!(
                "hookx's plugin (hookx convert): {}, run by {display} itself, whatever hookx trusts",
                n(handlers, "converted handler")
            ),
        }
    }
}
