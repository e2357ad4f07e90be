//! Single handlers a host reads in another dialect's files but does not run, turned off by a
//! setting of its own ([`HookSwitch`]: Copilot's `disabledHooks`). hookx runs those through its
//! route, with the payload they were written for, once their file is trusted.
//!
//! The list counts as the host reads it, trusted by hookx or not: it says what the host does
//! not run, and hookx runs nothing for it that it does not trust on its own.

use super::source::Source;
use super::who_runs::is_native;
use crate::model::Handler;
use crate::tables::{Dialect, HookSwitch, Location, Root, Rule, RuleShape};
use serde_json::Value;
use std::collections::HashSet;
use std::path::Path;

/// The setting with which `host` turns off single handlers of `rule` in a file of `dialect`
/// it reads itself, if it has one: the one for that dialect's files, or, in the host's own
/// files, the one for the dialect whose form the rule is written in (Copilot keys a
/// PascalCase handler of `.github/hooks` as the same handler of `.claude/settings.json`, so a
/// key an install lists turns off both).
fn switch_for(host: Dialect, dialect: Dialect, rule: &Rule) -> Option<&'static HookSwitch> {
    let config = host.config();
    let written_as = |d: Dialect| {
        dialect == host
            && config
                .reads_foreign_as
                .iter()
                .any(|(foreign, flavor)| *foreign == d && *flavor == rule.flavor)
    };
    config
        .foreign_switches
        .iter()
        .find(|s| s.dialect == dialect || written_as(s.dialect))
        .and_then(|s| s.hooks)
}

/// Whether files of `location` hold a host's list of switched-off handlers.
pub fn holds_a_switch(location: &Location) -> bool {
    location
        .dialect
        .config()
        .foreign_switches
        .iter()
        .any(|s| s.hooks.is_some_and(|h| h.location == location.id))
}

/// The files of `sources` that hold `host`'s lists.
fn switch_files(
    sources: &[Source],
    host: Dialect,
) -> impl Iterator<Item = (&'static HookSwitch, &Source)> {
    host.config()
        .foreign_switches
        .iter()
        .filter_map(|s| s.hooks)
        .flat_map(move |h| {
            sources
                .iter()
                .filter(move |s| s.location.id == h.location && s.dialect == host)
                .map(move |s| (h, s))
        })
}

/// What `host`'s lists say, over every file that holds one ([`switched_keys`]).
#[derive(Default)]
pub struct SwitchedKeys<'a> {
    /// Every key listed: the host runs none of those handlers.
    pub listed: HashSet<&'a str>,
    /// The listed keys an install of hookx's recorded, and every key in a file hookx could not
    /// parse ([`keys_in_unparsed`]): hookx runs those handlers. A key the user listed by hand
    /// is only in `listed`: off, as the user wanted.
    pub to_hookx: HashSet<&'a str>,
}

/// What `host`'s lists say ([`SwitchedKeys`]).
pub fn switched_keys(sources: &[Source], host: Dialect) -> SwitchedKeys<'_> {
    let mut keys = SwitchedKeys::default();
    for (h, s) in switch_files(sources, host) {
        let doc = s.document();
        let listed = strings(doc.and_then(|d| d.extra.get(h.key)));
        let records = doc.and_then(|d| d.extra.get(h.owned_key)?.get(h.key)?.as_object());
        let recorded: HashSet<&str> = records
            .into_iter()
            .flat_map(|owners| owners.values())
            .flat_map(|keys| strings(Some(keys)))
            .collect();
        let unparsed = s.unparsed_keys.iter().map(String::as_str);
        keys.to_hookx
            .extend(listed.iter().filter(|k| recorded.contains(*k)));
        keys.to_hookx.extend(unparsed.clone());
        keys.listed.extend(listed.into_iter().chain(unparsed));
    }
    keys
}

/// The strings of the list `v`.
fn strings(v: Option<&Value>) -> Vec<&str> {
    let list = v.and_then(Value::as_array).into_iter().flatten();
    list.filter_map(Value::as_str).collect()
}

/// Every key-shaped string (64 hex digits: the host's content hashes) in a switch file hookx
/// could not parse, `\u` escapes read. The host's own reader takes more than hookx's (Copilot
/// CLI 1.0.102 reads `"n": 01`, `1e`, `0x` and lists what follows: attacks row 136), so each
/// such key counts as listed: a handler then runs twice at worst (by hookx, and by the host if
/// it ignored the file), never nowhere.
pub fn keys_in_unparsed(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let mut chars = String::with_capacity(text.len());
    let mut rest = text.as_ref();
    while let Some(c) = rest.chars().next() {
        let escaped = rest
            .strip_prefix("\\u")
            .and_then(|r| r.get(..4))
            .and_then(|hex| char::from_u32(u32::from_str_radix(hex, 16).ok()?));
        match escaped {
            Some(e) => {
                chars.push(e);
                rest = &rest[6..];
            }
            None => {
                chars.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    let mut keys: Vec<String> = chars
        .split(|c: char| !c.is_ascii_hexdigit())
        .filter(|run| run.len() == KEY_DIGITS)
        .map(str::to_ascii_lowercase)
        .collect();
    keys.sort();
    keys.dedup();
    keys
}

/// The length of a key: a SHA-256 in hex ([`HookSwitch::key`]).
const KEY_DIGITS: usize = 64;

/// The key `host` gives `source`'s `handler` of `rule`, when it reads the file itself and
/// hookx can tell the key exactly: not when hookx read the handler's timeout otherwise than
/// written (a finding there: `30.0`, `1.5`), since the key holds the number as written.
pub fn key_of(host: Dialect, source: &Source, rule: &Rule, handler: &Handler) -> Option<String> {
    if !is_native(host, source.location) {
        return None;
    }
    let switch = switch_for(host, source.dialect, rule)?;
    let index = rule
        .handlers
        .iter()
        .position(|h| std::ptr::eq(h, handler))
        .or_else(|| rule.handlers.iter().position(|h| h == handler))?;
    let at = match rule.shape {
        RuleShape::Group => format!("{}/hooks/{index}", rule.origin.pointer),
        RuleShape::Flat => rule.origin.pointer.clone(),
    };
    let timeout = format!("{at}/{}", switch.written_timeout_key);
    let read_otherwise = source
        .diagnostics
        .iter()
        .any(|d| d.pointer.as_deref() == Some(timeout.as_str()));
    match read_otherwise {
        true => None,
        false => switch.key(rule, handler),
    }
}

/// Whether `host` leaves `source`'s `handler` of `rule` to hookx: it reads the file itself,
/// and an install of hookx's listed the handler ([`SwitchedKeys::to_hookx`]).
pub fn is_switched_off(
    host: Dialect,
    keys: &SwitchedKeys,
    source: &Source,
    rule: &Rule,
    handler: &Handler,
) -> bool {
    names(host, &keys.to_hookx, source, rule, handler)
}

/// Whether `host` reads `source` itself but does not run its `handler` of `rule`: a list
/// names it, hookx's or the user's own ([`SwitchedKeys::listed`]).
pub fn host_skips(
    host: Dialect,
    keys: &SwitchedKeys,
    source: &Source,
    rule: &Rule,
    handler: &Handler,
) -> bool {
    names(host, &keys.listed, source, rule, handler)
}

/// Whether `keys` holds the key `host` gives `handler`.
fn names(host: Dialect, keys: &HashSet<&str>, source: &Source, rule: &Rule, h: &Handler) -> bool {
    !keys.is_empty() && key_of(host, source, rule, h).is_some_and(|k| keys.contains(k.as_str()))
}

/// Whether `host` leaves any handler of `source` to hookx.
pub fn leaves_any(host: Dialect, keys: &SwitchedKeys, source: &Source) -> bool {
    source.document().is_some_and(|doc| {
        doc.rules.iter().any(|r| {
            r.handlers
                .iter()
                .any(|h| is_switched_off(host, keys, source, r, h))
        })
    })
}

/// The install [`switched_by_installs`] names for a key in a switch file hookx could not parse.
pub const UNREAD_OWNER: &str = "a project hookx cannot tell (the host's settings file, which \
                                lists the key, does not read as JSON to hookx)";

/// Which installs [`switched_by_installs`] counts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Installs {
    /// Only installs of another project (or home) than the source's own.
    Others,
    /// Every install, the source's own project's too.
    All,
}

/// The sources among `among` that hold a handler `host` leaves to hookx because `hookx
/// install` listed its key (for another install than the one of the source's own project or
/// home, with [`Installs::Others`]), as the switch file records them (`"hookx":
/// {"disabledHooks": {PROJECT: [keys]}}`), with those installs. The key is the handler's
/// content, so an install switches off every byte-identical handler: the host does not run it
/// here either, and this project may have no route and no trust of its own for hookx to run
/// it. `project`: the project's folder. `covering`: the files hookx may run here (none it holds
/// back for trust): a byte-identical handler in one is that same command, which runs, so it
/// is left out.
pub fn switched_by_installs<'a, 'c>(
    sources: &[Source],
    host: Dialect,
    among: impl IntoIterator<Item = &'a Source>,
    project: &Path,
    installs: Installs,
    covering: impl IntoIterator<Item = &'c Source>,
) -> Vec<(&'a Source, Vec<String>)> {
    let project = project.canonicalize().ok();
    // Every recorded key, with the install that recorded it and whether that is this project's.
    let mut recorded: Vec<(&str, &str, bool)> = Vec::new();
    for (switch, file) in switch_files(sources, host) {
        let records = file
            .document()
            .and_then(|d| d.extra.get(switch.owned_key)?.get(switch.key));
        for (owner, keys) in records.and_then(Value::as_object).into_iter().flatten() {
            let here = Path::new(owner).canonicalize().ok() == project;
            let keys = keys.as_array().into_iter().flatten();
            recorded.extend(keys.filter_map(|k| Some((k.as_str()?, owner.as_str(), here))));
        }
        // A file hookx cannot parse: whose install listed a key, it cannot tell.
        recorded.extend(
            file.unparsed_keys
                .iter()
                .map(|k| (k.as_str(), UNREAD_OWNER, false)),
        );
    }
    // A key the user took out of the list by hand is the host's to run again.
    let listed = switched_keys(sources, host).listed;
    recorded.retain(|(k, ..)| listed.contains(k));
    if recorded.is_empty() {
        return Vec::new();
    }
    let covered: HashSet<String> = covering
        .into_iter()
        .filter_map(|s| Some((s, s.document()?)))
        .flat_map(|(s, doc)| {
            doc.rules
                .iter()
                .flat_map(move |r| r.handlers.iter().filter_map(move |h| key_of(host, s, r, h)))
        })
        .collect();
    let mut out = Vec::new();
    for source in among {
        let Some(doc) = source.document() else {
            continue;
        };
        let mut owners: Vec<String> = Vec::new();
        for rule in &doc.rules {
            for handler in &rule.handlers {
                let Some(key) = key_of(host, source, rule, handler) else {
                    continue;
                };
                if covered.contains(&key) {
                    continue;
                }
                let is_own = |owner: &str, here: bool| {
                    installs == Installs::Others
                        && match source.location.root {
                            Root::Home => owner == crate::route::HOME_OWNER,
                            _ => here,
                        }
                };
                let others = recorded
                    .iter()
                    .filter(|&&(k, o, here)| k == key && !is_own(o, here));
                for &(_, owner, _) in others {
                    if !owners.iter().any(|o| o == owner) {
                        owners.push(owner.to_string());
                    }
                }
            }
        }
        if !owners.is_empty() {
            out.push((source, owners));
        }
    }
    out
}

/// The handlers `host` runs itself, with its own payload, in files of another dialect it reads
/// in `project`, where `hookx install` left that project's handlers to hookx (its record in
/// the switch file names the project) and the list does not name them: added or edited since
/// that install (an edit changes the key, which is the handler's content). Until `hookx
/// install --host HOST` lists them, the host runs them with a payload they were not written
/// for (Copilot's PascalCase one, where a Write's file is `path`, not `file_path`: a guard
/// reading `file_path` lets every write through), and hookx leaves them to it, or they would
/// run twice (attacks row 1424). Per source, how many.
pub fn left_to_the_host_since_install<'a>(
    sources: &'a [Source],
    host: Dialect,
    project: &Path,
) -> Vec<(&'a Source, usize)> {
    let project = project.canonicalize().ok();
    let installed_here = switch_files(sources, host).any(|(switch, file)| {
        let records = file
            .document()
            .and_then(|d| d.extra.get(switch.owned_key)?.get(switch.key)?.as_object());
        records
            .into_iter()
            .flatten()
            .any(|(owner, _)| Path::new(owner).canonicalize().ok() == project)
    });
    if !installed_here {
        return Vec::new();
    }
    let listed = switched_keys(sources, host).listed;
    let mut out = Vec::new();
    for source in sources.iter().filter(|s| s.location.root != Root::Home) {
        let Some(doc) = source.document() else {
            continue;
        };
        let left = doc
            .rules
            .iter()
            .flat_map(|r| r.handlers.iter().map(move |h| key_of(host, source, r, h)))
            .filter(|k| k.as_ref().is_some_and(|k| !listed.contains(k.as_str())))
            .count();
        if left > 0 {
            out.push((source, left));
        }
    }
    out
}
