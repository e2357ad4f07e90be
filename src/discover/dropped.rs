//! Files a host reads itself but drops whole for one entry it refuses
//! ([`crate::tables::FileDrop`], table data: Copilot CLI 1.0.102 and `.claude/settings*.json`).
//! Under that host none of their hooks runs by the host, so [`super::runner`] names hookx's
//! route their runner, and doctor, list and validate say where the entry is and how to fix it.

use super::source::Dropped;
use crate::model::EventKind;
use crate::positions::escape;
use crate::source::SourceFile;
use crate::tables::{Dialect, FileDrop, Location};
use serde_json::Value;

/// The drop table `host` has for files of `location`, when it reads them itself.
fn drops_for(host: Dialect, location: &Location) -> Option<&'static FileDrop> {
    if !super::is_native(host, location) {
        return None;
    }
    host.config()
        .foreign_switches
        .iter()
        .find(|s| s.dialect == location.dialect)?
        .drops
}

/// Whether some host (`only`, when given) drops whole files of `location` for an entry it
/// refuses: only then is a file read for it ([`scan_all`]).
pub fn any_drops(location: &Location, only: Option<Dialect>) -> bool {
    Dialect::all()
        .iter()
        .filter(|h| only.is_none_or(|o| o == **h))
        .any(|h| drops_for(*h, location).is_some())
}

/// For each host that reads `location`'s files itself and drops one for an entry it refuses
/// (only `only`, when given), whether `src` holds such an entry, and where.
pub fn scan_all(location: &Location, only: Option<Dialect>, src: &SourceFile) -> Vec<Dropped> {
    let mut found = Vec::new();
    let mut value: Option<Option<Value>> = None;
    for host in Dialect::all() {
        if only.is_some_and(|o| o != *host) {
            continue;
        }
        let Some(drop) = drops_for(*host, location) else {
            continue;
        };
        let value = value.get_or_insert_with(|| {
            let syntax = crate::config::read::json_syntax(src, location.dialect);
            crate::config::syntax::parse_json_as(src, syntax).ok()
        });
        if let Some(value) = value
            && let Some(d) = scan(*host, drop, value, src)
        {
            found.push(d);
        }
    }
    found
}

/// The first entry of `value` (`src` its text) for which `host` drops it.
fn scan(host: Dialect, drop: &FileDrop, value: &Value, src: &SourceFile) -> Option<Dropped> {
    let events = value.get(drop.events_key)?.as_object()?;
    for (event, groups) in events {
        // An event the host does not read is skipped unread, whatever it holds.
        let Some((kind, _, _, keeps_matcher)) = drop
            .events
            .iter()
            .find(|(_, name, own, _)| name == event || own == event)
        else {
            continue;
        };
        let base = format!("/{}/{}", escape(drop.events_key), escape(event));
        for (g, group) in groups.as_array().into_iter().flatten().enumerate() {
            let at = |tail: &str| format!("{base}/{g}{tail}");
            let shape = |tail: &str, what: &str| {
                let what = format!("{what} on {event}");
                Some(found(host, src, &at(tail), what, drop.fixes.shape.into()))
            };
            let Some(group) = group.as_object() else {
                return shape("", "an entry that is not an object");
            };
            if group.get(drop.matcher_key).and_then(Value::as_str) == Some("") && *keeps_matcher {
                return Some(found(
                    host,
                    src,
                    &at(&format!("/{}", escape(drop.matcher_key))),
                    format!("`\"{}\": \"\"` on {event}", drop.matcher_key),
                    drop.fixes.empty_matcher.to_string(),
                ));
            }
            let handlers_at = format!("/{}", escape(drop.handlers_key));
            let handlers = match group.get(drop.handlers_key) {
                None => {
                    let what = format!("an entry without `\"{}\"`", drop.handlers_key);
                    return shape("", &what);
                }
                Some(Value::Array(handlers)) => handlers,
                Some(_) => {
                    let what = format!("`\"{}\"` that is not a list", drop.handlers_key);
                    return shape(&handlers_at, &what);
                }
            };
            for (h, handler) in handlers.iter().enumerate() {
                let handler_at = format!("{handlers_at}/{h}");
                if !handler.is_object() {
                    return shape(&handler_at, "a handler that is not an object");
                }
                if handler.get(drop.type_key).is_some_and(|t| !t.is_string()) {
                    let at = format!("{handler_at}/{}", escape(drop.type_key));
                    let what = format!("a handler whose `\"{}\"` is not a string", drop.type_key);
                    return shape(&at, &what);
                }
                if let Some((key, what, fix)) = refused_handler(drop, kind, event, handler) {
                    let at = at(&format!("{handler_at}/{}", escape(key)));
                    return Some(found(host, src, &at, what, fix));
                }
            }
        }
    }
    None
}

/// The key of `handler` that the host refuses on `kind`, with the sentence parts for it.
fn refused_handler(
    drop: &FileDrop,
    kind: &EventKind,
    event: &str,
    handler: &Value,
) -> Option<(&'static str, String, String)> {
    let timeout = handler.get(drop.timeout_key);
    if drop.timeout_must_be_positive
        && let Some(t) = timeout
        && !crate::tables::positive_seconds(t)
    {
        return Some((
            drop.timeout_key,
            format!("`\"{}\": {t}` on {event}", drop.timeout_key),
            drop.fixes.timeout.to_string(),
        ));
    }
    let kind_name = handler.get(drop.type_key).and_then(Value::as_str);
    let type_name = kind_name.unwrap_or(drop.default_type);
    let takes = drop
        .types
        .iter()
        .find(|(name, _)| *name == type_name)
        .is_some_and(|(_, on)| on.takes(kind));
    if !takes {
        return Some((
            drop.type_key,
            // Text of the file: shown with its control characters made visible.
            format!(
                "a handler of type `{}` on {event}",
                crate::diag::visible(type_name)
            ),
            drop.fixes.handler_type.to_string(),
        ));
    }
    if let Some((_, key)) = drop.needs.iter().find(|(t, _)| *t == type_name)
        && !handler.get(*key).is_some_and(Value::is_string)
    {
        return Some((
            key,
            format!("a handler of type `{type_name}` without a `\"{key}\"` string on {event}"),
            drop.fixes.needs.to_string(),
        ));
    }
    let rule = drop.url.as_ref().filter(|r| r.type_name == type_name)?;
    let Some(url) = handler.get(rule.key).and_then(Value::as_str) else {
        let what = format!(
            "a handler of type `{type_name}` without a `{}` string",
            rule.key
        );
        let at = match handler.get(rule.key) {
            Some(_) => rule.key,
            None => drop.type_key,
        };
        return rule
            .required
            .then(|| (at, format!("{what} on {event}"), drop.fixes.url.to_string()));
    };
    (rule.on.contains(kind) && !url.starts_with(rule.prefix)).then(|| {
        (
            rule.key,
            format!(
                "a handler of type `{type_name}` to `{}` on {event}",
                crate::diag::visible(url)
            ),
            drop.fixes.url.to_string(),
        )
    })
}

/// The entry at `pointer` of `src`, located (a key that is missing: the object it is missing
/// from).
fn found(host: Dialect, src: &SourceFile, pointer: &str, what: String, fix: String) -> Dropped {
    let (line, col) = src
        .locate_json(pointer)
        .or_else(|| src.locate_json(pointer.rsplit_once('/')?.0))
        .map_or((1, 1), |offset| src.line_col(offset));
    Dropped {
        host,
        line,
        col,
        what,
        fix,
    }
}
