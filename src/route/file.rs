//! Routes in a host's JSON config file: where its event arrays sit, which entries are hookx's,
//! the entry install writes in the host's layout, and adding and removing them in place. The
//! file is edited as JSON text, not re-emitted from the canonical model: every key, hook and
//! field that is not hookx's stays as written, in its order.

use super::entry::written_route_host;
use super::{InstallScope, route_command, route_host};
use crate::config::edit::{JsonText, Seg};
use crate::config::{self, syntax};
use crate::error::Error;
use crate::model::EventKind;
use crate::tables::Dialect;
use crate::tables::HandlerField;
use serde_json::{Value, json};
use std::path::Path;

/// The events routed by hookx's own rule-list file; an error when the file holds anything
/// else (it is the user's, or was edited: hookx would overwrite what it does not own).
pub(crate) fn routes_in_list(
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

/// The command lines of the routes for `host` on `event` in hookx's own rule-list file (none
/// when the file is not hookx's whole) whose rule `runs` says the host runs on every call.
pub(super) fn list_route_commands(
    path: &Path,
    text: &str,
    host: Dialect,
    list: &crate::tables::RuleList,
    event: &str,
    runs: impl Fn(&Value) -> bool,
) -> Vec<String> {
    if routes_in_list(path, text, host, list).is_err() {
        return Vec::new();
    }
    let src = crate::source::SourceFile::new(path.display().to_string(), text);
    let Ok(value) = syntax::parse_json(&src) else {
        return Vec::new();
    };
    value
        .get("hooks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|rule| rule[list.event_key].as_str() == Some(event) && runs(rule))
        .filter_map(|rule| route_line(&rule[list.handler_key], host))
        .collect()
}

/// The routing command of `handler` for `host`, if it is a route.
pub(super) fn route_line(handler: &Value, host: Dialect) -> Option<String> {
    let key = routing_key(handler, host)?;
    handler.get(key)?.as_str().map(str::to_string)
}

/// The text of a file install creates, before its entries go in.
pub(crate) fn fresh_text(host: Dialect) -> String {
    let mut value = match host.config().version {
        Some(version) => json!({"version": version, "hooks": {}}),
        None => json!({"hooks": {}}),
    };
    // The number the agent would write into it when it starts (Qwen's `"$version": 4`): with
    // it the agent leaves the file as written, and the last uninstall finds nothing of the
    // agent's in it (attacks row 330: `{"$version": 4}` stayed).
    if let Some((key, stamp)) = host.config().stamp {
        value[key] = json!(stamp);
    }
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// Where the event arrays of an existing target sit: under `hooks`, or at the root where the
/// dialect allows that and the file has it so. A target hookx cannot read cleanly in the
/// host's dialect is refused: editing it would risk the hooks it has.
pub(crate) fn events_path(path: &Path, text: &str, host: Dialect) -> Result<Vec<Seg>, Error> {
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

/// Where the routes for `host` that install wrote sit in one event's array ([`is_own_route`]):
/// (entry, handler within its group). Only these are install's to re-point or remove.
pub(super) fn find_routes(entries: &[Value], host: Dialect) -> Vec<(usize, Option<usize>)> {
    find_handlers(entries, |h| {
        routing_key(h, host).is_some() && is_own_route(h)
    })
}

/// The routes for `host` on `event` in the host's parsed file `value`, where install puts
/// them: each handler, with its rule where the file is a rule list (whose rules carry some
/// handler keys, [`crate::tables::RuleList::handler_keys_on_rule`]).
pub(super) fn route_handlers<'v>(
    value: &'v Value,
    host: Dialect,
    event: &str,
) -> Vec<(&'v Value, Option<&'v Value>)> {
    handlers_where(value, host, event, &|h| routing_key(h, host).is_some())
}

/// [`route_handlers`] for any handler `is_route` picks (a converted copy: attacks row 360).
pub(super) fn handlers_where<'v>(
    value: &'v Value,
    host: Dialect,
    event: &str,
    is_route: &dyn Fn(&Value) -> bool,
) -> Vec<(&'v Value, Option<&'v Value>)> {
    if let Some(list) = host.config().rule_list {
        return value
            .get("hooks")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|rule| rule[list.event_key].as_str() == Some(event))
            .filter(|rule| is_route(&rule[list.handler_key]))
            .map(|rule| (&rule[list.handler_key], Some(rule)))
            .collect();
    }
    let events = match value.get("hooks") {
        None if host.config().wrapper_optional => value,
        events => events.unwrap_or(&Value::Null),
    };
    let entries = events
        .get(event)
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    find_handlers(entries, is_route)
        .into_iter()
        .filter_map(|(i, j)| match j {
            Some(j) => entries[i].get("hooks")?.get(j),
            None => entries.get(i),
        })
        .map(|handler| (handler, None))
        .collect()
}

/// Where any route for `host` sits in one event's array, written by install or not (a line of
/// the user's own that runs one among other things): what runs when the host fires the event.
pub(super) fn find_any_routes(entries: &[Value], host: Dialect) -> Vec<(usize, Option<usize>)> {
    find_handlers(entries, |h| routing_key(h, host).is_some())
}

fn find_handlers(
    entries: &[Value],
    wanted: impl Fn(&Value) -> bool,
) -> Vec<(usize, Option<usize>)> {
    let mut found = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        match entry.get("hooks").and_then(Value::as_array) {
            Some(handlers) => {
                for (j, h) in handlers.iter().enumerate() {
                    if wanted(h) {
                        found.push((i, Some(j)));
                    }
                }
            }
            None => {
                if wanted(entry) {
                    found.push((i, None));
                }
            }
        }
    }
    found
}

/// Whether one of an event's `entries` is a route of `host` the user edited ([`is_edited_route`]).
fn has_edited_route(entries: &[Value], host: Dialect) -> bool {
    !find_handlers(entries, |h| is_edited_route(h, host)).is_empty()
}

/// Whether a handler object is a route `install` wrote: its command line is exactly one
/// install writes (`PROGRAM run --host HOST --event EVENT` and nothing else), and where it
/// carries install's provenance record (`"hookx": {"created": "folder" | "file" | "entry"}`,
/// [`Created`]) that record is one install writes. Not a handler whose command merely contains
/// a route: that is the user's, also in an entry install marked ([`is_edited_route`]).
pub fn is_own_route(handler: &Value) -> bool {
    let written = COMMAND_KEYS.iter().any(|k| {
        handler
            .get(*k)
            .and_then(Value::as_str)
            .and_then(written_route_host)
            .is_some()
    });
    written && (handler.get(config::MARKER).is_none() || Created::of(handler).is_some())
}

/// Whether `handler` is a route install wrote for `host` whose line the user edited around it
/// (`./my-guard.sh && hookx run …` in the entry install marked): a line of the user's runs in
/// it, so install neither re-points nor removes it, and records no review of it (attacks row
/// 540: a re-point wrote the route line over the user's guard, an uninstall took it away).
pub(crate) fn is_edited_route(handler: &Value, host: Dialect) -> bool {
    Created::of(handler).is_some() && routing_key(handler, host).is_some() && !is_own_route(handler)
}

/// What install created along with a routing entry, as the entry's provenance record says:
/// nothing more (an entry in a list that was there), the event's list, the `hooks` object
/// holding it, the file, or the file and the folders above it (how many, counted up from the
/// file's own). Uninstall takes back as much, and only while it is empty but for hookx's
/// routes: a container the user had, empty or not, stays (attacks row 181).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Created {
    Entry,
    List,
    Hooks,
    File,
    Folder(u8),
}

impl Created {
    /// The provenance record of an entry (`"folders"` only above one).
    pub(crate) fn marker(self) -> Value {
        let name = match self {
            Created::Entry => "entry",
            Created::List => "list",
            Created::Hooks => "hooks",
            Created::File => "file",
            Created::Folder(n) if n > 1 => return json!({"created": "folder", "folders": n}),
            Created::Folder(_) => "folder",
        };
        json!({ "created": name })
    }

    /// What a routing handler's record says install created, if it is one of install's.
    fn of(handler: &Value) -> Option<Created> {
        let marker = handler.get(config::MARKER)?;
        let folders = marker.get("folders").map_or(Some(1), |n| {
            n.as_u64()
                .and_then(|n| u8::try_from(n).ok())
                .filter(|&n| n > 1)
        })?;
        [
            Created::Entry,
            Created::List,
            Created::Hooks,
            Created::File,
            Created::Folder(folders),
        ]
        .into_iter()
        .find(|c| c.marker() == *marker)
    }

    /// What the routes at `routes` of one event's `entries` say install created, at the most;
    /// a route an older hookx wrote without a record may have come with its list and `hooks`.
    fn of_routes(entries: &[Value], routes: &[(usize, Option<usize>)]) -> Created {
        let handler = |&(i, inner): &(usize, Option<usize>)| match inner {
            Some(j) => entries[i].get("hooks").and_then(|h| h.get(j)),
            None => entries.get(i),
        };
        routes
            .iter()
            .filter_map(handler)
            .map(|h| Created::of(h).unwrap_or(Created::Hooks))
            .max()
            .unwrap_or(Created::Entry)
    }

    /// How many folders install created above the file (none below [`Created::Folder`]).
    pub(crate) fn folders(self) -> usize {
        match self {
            Created::Folder(n) => usize::from(n),
            _ => 0,
        }
    }
}

/// The provenance record on the routing entries of a file install created.
pub(crate) fn created_file() -> Value {
    Created::File.marker()
}

/// Whether a routing handler says install created its file.
fn says_created(handler: &Value) -> bool {
    Created::of(handler).is_some_and(|c| c >= Created::File)
}

/// The entry install adds for one event, in the host's own layout, marked as install's
/// ([`is_own_route`]) with what install `created` for it.
fn new_entry(host: Dialect, kind: &EventKind, command: &str, created: Created) -> Value {
    let mut entry = layout(host, kind, command);
    let handler = match entry.get_mut("hooks").and_then(|h| h.get_mut(0)) {
        Some(inner) => inner,
        None => &mut entry,
    };
    if let Some(obj) = handler.as_object_mut() {
        obj.insert(config::MARKER.into(), created.marker());
    }
    entry
}

/// The route's timeout on `kind`, in the host's unit, where its entries have one: the limit
/// `hookx run` answers within ([`crate::tables::RouteSpec::limit`]).
pub(crate) fn route_timeout(host: Dialect, kind: &EventKind) -> Option<(&'static str, Value)> {
    let route = &host.def().route;
    let key = route.timeout_key?;
    let secs = route.limit.on(kind);
    let timeout = host.config().timeout_unit.written(secs, true);
    Some((key, timeout.into()))
}

/// The route's entry for `kind` in the host's layout ([`crate::tables::RouteSpec`]).
pub(crate) fn layout(host: Dialect, kind: &EventKind, command: &str) -> Value {
    let route = &host.def().route;
    let mut handler = serde_json::Map::new();
    // An agent whose entries have no `type` (Windsurf) gets none.
    if host.config().key(HandlerField::Type).is_some() {
        handler.insert("type".into(), "command".into());
    }
    handler.insert(route.command_key.into(), command.into());
    if let Some((key, timeout)) = route_timeout(host, kind) {
        handler.insert(key.into(), timeout);
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

/// `base` followed by `tail`: a path into the JSON text.
pub(super) fn path_to(base: &[Seg], tail: &[Seg]) -> Vec<Seg> {
    base.iter().chain(tail).cloned().collect()
}

/// The event's entries as the text holds them now.
pub(super) fn entries_of(text: &JsonText, list: &[Seg]) -> Option<Vec<Value>> {
    text.value(list)?.as_array().cloned()
}

/// What install changed in one file's routes.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    /// Events routed once install is done.
    pub routes: usize,
    /// Events that got a new entry.
    pub added: Vec<String>,
    /// Events whose entry pointed elsewhere and now points at this hookx.
    pub updated: Vec<String>,
    /// Surplus copies removed.
    pub removed: usize,
    /// Events whose route was moved to the end of the list ([`route_last`]).
    pub moved: Vec<String>,
    /// Events whose route was removed because no rule needs it any more.
    pub dropped: Vec<String>,
    /// Events whose route the user edited by hand ([`is_edited_route`]), left as it is.
    pub edited: Vec<String>,
    /// Events whose route had another timeout than install writes (one the user cut, or an
    /// older hookx wrote): the event, the timeout found, install's, and whether it was kept.
    pub timeouts: Vec<(String, Value, Value, bool)>,
}

/// What install does with a timeout on its route other than its own.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Timeouts {
    /// Sets its own (the file install was asked for), and the report says which it replaced.
    Set,
    /// Keeps a shorter one (a route install touches for another file's sake: the user cut it
    /// short, and `hookx run` answers within it; attacks row 342).
    KeepShorter,
}

/// Brings the routes of the event arrays at `events` in line with the `needed` events: adds
/// the missing ones, re-points those that run another hookx, removes surplus copies and the
/// routes no rule needs; `created`: what install is creating with the file (nothing when the
/// file was there), `timeouts`: what it does with another timeout on a route.
#[allow(clippy::too_many_arguments)]
pub(crate) fn install_text(
    text: &mut JsonText,
    events: &[Seg],
    (host, scope): (Dialect, InstallScope),
    hookx: super::Program<'_>,
    needed: &[&str],
    created: Created,
    timeouts: Timeouts,
    tally: &mut Tally,
) {
    if needed.is_empty() && text.value(events).is_none_or(|v| !v.is_object()) {
        return;
    }
    // What a new event list comes with: the list, and `hooks` when install adds it.
    let mut new_list = created.max(Created::List);
    if text.value(events).is_none_or(|v| !v.is_object()) {
        // A file without `hooks` gets one (a file whose `hooks` is not an object was refused).
        if text.add_property(&[], "hooks", &json!({})).is_none() {
            return;
        }
        new_list = created.max(Created::Hooks);
    }
    for (kind, name, _) in host.own_events() {
        let list = path_to(events, &[Seg::from(name)]);
        if !needed.contains(&name) {
            // A route no rule needs costs the host a process per event: take it out.
            let Some(entries) = entries_of(text, &list) else {
                continue;
            };
            if has_edited_route(&entries, host) {
                tally.edited.push(name.to_string());
            }
            let routes = find_routes(&entries, host);
            if routes.is_empty() {
                continue;
            }
            let list_too = Created::of_routes(&entries, &routes) >= Created::List;
            remove_routes(text, &list, &entries, &routes);
            if list_too && text.is_bare_empty(&list) {
                let _ = text.remove(&list);
            }
            tally.dropped.push(name.to_string());
            continue;
        }
        tally.routes += 1;
        let command = &route_command(hookx, host, name, scope);
        let Some(entries) = entries_of(text, &list) else {
            if text.value(&list).is_none()
                && text
                    .add_property(
                        events,
                        name,
                        &json!([new_entry(host, &kind, command, new_list)]),
                    )
                    .is_some()
            {
                tally.added.push(name.to_string());
            }
            continue;
        };
        let routes = find_routes(&entries, host);
        if has_edited_route(&entries, host) {
            // The user's edited route carries the event; a route of install's beside it would
            // run the dispatcher twice.
            tally.edited.push(name.to_string());
            tally.removed += remove_routes(text, &list, &entries, &routes);
            continue;
        }
        let Some(&(first, inner)) = routes.first() else {
            if text
                .push(&list, &new_entry(host, &kind, command, created))
                .is_some()
            {
                tally.added.push(name.to_string());
            }
            continue;
        };
        // Keep the first entry (and whatever the user tuned on it), pointed at this hookx,
        // with the timeout `hookx run` answers within: the host's to enforce, hookx's to set.
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
            && let Some(old) = handler.get(key).and_then(Value::as_str)
            && old != command
            && text
                .replace(&path_to(&handler_path, &[Seg::from(key)]), &json!(command))
                .is_some()
        {
            keep_label(text, &handler_path, handler, host, old);
            tally.updated.push(name.to_string());
        }
        if let Some(handler) = handler
            && let Some((key, timeout)) = route_timeout(host, &kind)
            && handler.get(key) != Some(&timeout)
        {
            // Another timeout is said either way (attacks row 342: a user's cut was undone
            // without a word); a shorter one kept where install was not asked for the file.
            let found = handler.get(key).cloned();
            let shorter = found
                .as_ref()
                .and_then(|t| super::timeout_ms(host, t))
                .zip(super::timeout_ms(host, &timeout))
                .is_some_and(|(found, ours)| found < ours);
            let keep = timeouts == Timeouts::KeepShorter && shorter;
            if let Some(found) = found {
                let said = (name.to_string(), found, timeout.clone(), keep);
                tally.timeouts.push(said);
            }
            let set = match handler.get(key) {
                _ if keep => None,
                Some(_) => text.replace(&path_to(&handler_path, &[Seg::from(key)]), &timeout),
                None => text.add_property(&handler_path, key, &timeout),
            };
            if set.is_some() && !tally.updated.iter().any(|e| e == name) {
                tally.updated.push(name.to_string());
            }
        }
        // Surplus copies would run the dispatcher twice per event.
        tally.removed += remove_routes(text, &list, &entries, &routes[1..]);
        // Where the host decides a tool call by one hook's place among its own (the first
        // hook's permission field, Droid; the last's, Qwen: `permission_fold`), the route goes
        // last in the list: a deny of the user's own hook before it is then read (Droid), and
        // no allow of theirs after it undoes hookx's deny (Qwen; attacks rows 2048, 2049).
        let fold = host.default_flavor().tables().protocol.permission_fold;
        if fold != crate::tables::PermissionFold::Strictest && route_last(text, &list, host) {
            tally.moved.push(name.to_string());
        }
    }
}

/// Moves the one route of the event array at `list` to its end, where it is an entry of its
/// own (a group holding the route alone, or a flat handler) and not last already: a group the
/// user put hooks of their own in stays where it is. Whether it moved.
fn route_last(text: &mut JsonText, list: &[Seg], host: Dialect) -> bool {
    let Some(entries) = entries_of(text, list) else {
        return false;
    };
    let [(i, inner)] = find_routes(&entries, host)[..] else {
        return false;
    };
    let alone = inner.is_none()
        || (entries[i].get("hooks").and_then(Value::as_array)).is_some_and(|h| h.len() == 1);
    if !alone || i + 1 == entries.len() {
        return false;
    }
    // Added at the end first: its old place, before it, keeps its index.
    text.push(list, &entries[i]).is_some()
        && text.remove(&path_to(list, &[Seg::Index(i)])).is_some()
}

/// A re-pointed route keeps the label the host's off lists know it by
/// ([`crate::tables::DisabledHandlers`]: Gemini's `hooksConfig.disabled`, by `name`, else
/// command): a route without a `name` gets its old command as one. The lists that name it can
/// be in any scope's file, most often in a project's, where Gemini's `/hooks disable` writes
/// (attacks row 333): install reaches none of them, and a changed label would turn the route
/// the user turned off on again there.
fn keep_label(
    text: &mut JsonText,
    handler_path: &[Seg],
    handler: &Value,
    host: Dialect,
    old: &str,
) {
    if let Some(off) = &host.def().disabled_handlers
        && handler.get(off.label_key).is_none()
    {
        let _ = text.add_property(handler_path, off.label_key, &json!(old));
    }
}

/// Removes every routing entry of `host`: how many, and the most one said install created
/// with it; the events whose route the user edited by hand, left, go to `edited`.
pub(crate) fn uninstall_text(
    text: &mut JsonText,
    events: &[Seg],
    host: Dialect,
    edited: &mut Vec<String>,
) -> (usize, Created) {
    let Some(Value::Object(names)) = text.value(events) else {
        return (0, Created::Entry);
    };
    let mut removed = 0;
    let mut created = Created::Entry;
    for name in names.keys() {
        let list = path_to(events, &[Seg::from(name.as_str())]);
        let Some(entries) = entries_of(text, &list) else {
            continue;
        };
        if has_edited_route(&entries, host) {
            edited.push(name.clone());
        }
        let routes = find_routes(&entries, host);
        if routes.is_empty() {
            continue;
        }
        let here = Created::of_routes(&entries, &routes);
        created = created.max(here);
        removed += remove_routes(text, &list, &entries, &routes);
        if here >= Created::List && text.is_bare_empty(&list) {
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

/// The events of `host` that hold a route install wrote ([`find_routes`]) in the text of a
/// host file at `path` (none when hookx cannot read it).
pub(crate) fn own_route_events(path: &Path, text: &str, host: Dialect) -> Vec<&'static str> {
    let Ok(events) = events_path(path, text, host) else {
        return Vec::new();
    };
    let text = JsonText::new(text);
    host.own_events()
        .into_iter()
        .map(|(_, name, _)| name)
        .filter(|name| {
            entries_of(&text, &path_to(&events, &[Seg::from(*name)]))
                .is_some_and(|entries| !find_routes(&entries, host).is_empty())
        })
        .collect()
}
