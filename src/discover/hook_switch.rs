//! Single handlers a host reads in another dialect's files but does not run, turned off by a
//! setting of its own ([`HookSwitch`]: Copilot's `disabledHooks`). hookx runs those through its
//! route, with the payload they were written for, once their file is trusted.
//!
//! The list counts as the host reads it, trusted by hookx or not: it says what the host does
//! not run, and hookx runs nothing for it that it does not trust on its own.

use super::source::Source;
use super::who_runs::is_native;
use crate::model::Handler;
use crate::tables::{Dialect, HookSwitch, Rule, RuleShape};
use std::collections::HashSet;

/// The setting with which `host` turns off single handlers of `dialect`'s files it reads
/// itself, if it has one.
fn switch_for(host: Dialect, dialect: Dialect) -> Option<&'static HookSwitch> {
    host.config()
        .foreign_switches
        .iter()
        .find(|s| s.dialect == dialect)
        .and_then(|s| s.hooks)
}

/// The keys `host`'s lists name, over every file that holds one.
pub fn switched_keys(sources: &[Source], host: Dialect) -> HashSet<&str> {
    host.config()
        .foreign_switches
        .iter()
        .filter_map(|s| s.hooks)
        .flat_map(|h| {
            sources
                .iter()
                .filter(move |s| s.location.id == h.location && s.dialect == host)
                .filter_map(|s| s.document()?.extra.get(h.key)?.as_array())
                .flatten()
                .filter_map(serde_json::Value::as_str)
        })
        .collect()
}

/// The key `host` gives `source`'s `handler` of `rule`, when it reads the file itself and
/// hookx can tell the key exactly: not when hookx read the handler's timeout otherwise than
/// written (a finding there: `30.0`, `1.5`), since the key holds the number as written.
pub fn key_of(host: Dialect, source: &Source, rule: &Rule, handler: &Handler) -> Option<String> {
    if !is_native(host, source.location) {
        return None;
    }
    let switch = switch_for(host, source.dialect)?;
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
/// and its list (`keys`, [`switched_keys`]) names the handler.
pub fn is_switched_off(
    host: Dialect,
    keys: &HashSet<&str>,
    source: &Source,
    rule: &Rule,
    handler: &Handler,
) -> bool {
    !keys.is_empty()
        && key_of(host, source, rule, handler).is_some_and(|k| keys.contains(k.as_str()))
}

/// Whether `host` leaves any handler of `source` to hookx.
pub fn leaves_any(host: Dialect, keys: &HashSet<&str>, source: &Source) -> bool {
    source.document().is_some_and(|doc| {
        doc.rules.iter().any(|r| {
            r.handlers
                .iter()
                .any(|h| is_switched_off(host, keys, source, r, h))
        })
    })
}
