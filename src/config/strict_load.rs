//! What makes an agent's own loader refuse its whole hook file where hookx reads on with a
//! warning ([`crate::tables::StrictLoad`], table data: Codex 0.171.0). `validate` makes each an
//! error that says so; `doctor` and `simulate` say the file's hooks run under none of that agent.

use super::syntax::{self, Format};
use crate::config::walk::HandlerAt;
use crate::diag::{Diagnostic, Severity};
use crate::model::HandlerKind;
use crate::positions::escape;
use crate::source::SourceFile;
use crate::tables::{Dialect, Document, HandlerField, Rule, RuleShape};
use serde_json::Value;

/// A warning for each top-level key the file's kind does not hold besides its hooks.
pub fn unknown_top_keys(src: &SourceFile, doc: &Document) -> Vec<Diagnostic> {
    let Some(known) = doc.kind.top_keys else {
        return Vec::new();
    };
    doc.extra
        .keys()
        .filter(|k| !known.contains(&k.as_str()))
        .map(|key| {
            let pointer = format!("/{}", escape(key));
            let message = format!(
                "unknown top-level key `{key}` in a {} file; it is kept as written",
                doc.dialect
            );
            let mut diag = match syntax::locate(src, &pointer) {
                Some(o) => Diagnostic::at_offset(Severity::Warning, src, o, message),
                None => Diagnostic::at_line_col(Severity::Warning, src, 1, 1, message),
            };
            diag.pointer = Some(pointer);
            diag
        })
        .collect()
}

/// An error for each setting of `doc` whose value is not of the type its agent requires
/// ([`crate::tables::StrictLoad::setting_types`]).
pub fn wrong_setting_types(src: &SourceFile, doc: &Document) -> Vec<Diagnostic> {
    let Some(strict) = doc.dialect.config().strict_load else {
        return Vec::new();
    };
    let Some(seen) = seen(src, doc.dialect) else {
        return Vec::new();
    };
    let settings = serde_json::Value::Object(doc.extra.clone());
    strict
        .setting_types
        .iter()
        .filter_map(|&(pointer, wanted)| {
            let found = crate::diag::json_type(settings.pointer(pointer)?);
            (found != wanted).then(|| {
                let message = format!(
                    "`{}` must be {wanted}, found {found}; {seen}",
                    pointer.trim_start_matches('/').replace('/', ".")
                );
                let mut diag = match syntax::locate(src, pointer) {
                    Some(o) => Diagnostic::at_offset(Severity::Error, src, o, message),
                    None => Diagnostic::at_line_col(Severity::Error, src, 1, 1, message),
                };
                diag.pointer = Some(pointer.to_string());
                diag
            })
        })
        .collect()
}

/// An error for each handler its agent refuses though hookx reads it: a timeout of 0
/// ([`crate::tables::StrictLoad::zero_timeout`]), a handler of a type hookx keeps as written
/// without a key its agent needs ([`crate::tables::StrictLoad::service_needs`]: Claude's `http`
/// without a `url` that is a URL, `mcp_tool` without `server`).
pub fn refused_handlers(src: &SourceFile, doc: &Document) -> Vec<Diagnostic> {
    let Some(strict) = doc.dialect.config().strict_load else {
        return Vec::new();
    };
    let Some(seen) = seen(src, doc.dialect) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut refuse = |pointer: String, message: String| {
        let message = format!("{message}; {seen}");
        let mut diag = match syntax::locate(src, &pointer) {
            Some(o) => Diagnostic::at_offset(Severity::Error, src, o, message),
            None => Diagnostic::at_line_col(Severity::Error, src, 1, 1, message),
        };
        diag.pointer = Some(pointer);
        out.push(diag);
    };
    let timeout_key = doc.dialect.config().key(HandlerField::Timeout);
    // The file as written: hookx keeps the keys it does not know, not their JSON types.
    let raw = syntax::parse_json(src).ok();
    let at_pointer = |p: &str| raw.as_ref().and_then(|v| v.pointer(p));
    for rule in &doc.rules {
        if strict.null_matcher
            && rule.shape == RuleShape::Group
            && at_pointer(&format!("{}/matcher", rule.origin.pointer)).is_some_and(|m| m.is_null())
        {
            refuse(
                format!("{}/matcher", rule.origin.pointer),
                "`matcher` is null".to_string(),
            );
        }
        for (i, handler) in rule.handlers.iter().enumerate() {
            let index = (rule.shape == RuleShape::Group).then_some(i);
            let at = HandlerAt {
                rule: &rule.origin.pointer,
                index,
            };
            if let Some(key) = timeout_key.filter(|_| strict.zero_timeout)
                && handler.timeout == Some(0)
            {
                refuse(format!("{at}/{key}"), format!("`{key}` is 0"));
            }
            for &(key, wanted) in strict.handler_key_types {
                let pointer = format!("{at}/{}", escape(key));
                let Some(found) = at_pointer(&pointer).map(crate::diag::json_type) else {
                    continue;
                };
                if found != wanted {
                    refuse(pointer, format!("`{key}` must be {wanted}, found {found}"));
                }
            }
            let HandlerKind::Service(service) = &handler.kind else {
                continue;
            };
            let needs = strict.service_needs.iter();
            for &(_, key, url) in needs.filter(|n| n.0 == service.type_name) {
                let value = handler.extra.get(key).and_then(serde_json::Value::as_str);
                if !value.is_some_and(|v| !url || is_url(v)) {
                    let what = if url { " that is a URL" } else { "" };
                    let message = format!(
                        "a `{}` handler needs `{key}`, a string{what}",
                        service.type_name
                    );
                    refuse(at.to_string(), message);
                }
            }
        }
    }
    out
}

/// Whether `text` reads as a URL: a scheme, then `:` and something (`new URL()` takes no less).
fn is_url(text: &str) -> bool {
    let Some((scheme, rest)) = text.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
        && !rest.is_empty()
}

/// Whether a refusal at `pointer` (into a file of `dialect`) takes the whole file out, not just
/// its entry ([`crate::tables::StrictLoad::whole_file_on`]).
fn whole_file(dialect: Dialect, pointer: Option<&str>) -> bool {
    let Some(events) = dialect.config().strict_load.and_then(|s| s.whole_file_on) else {
        return true;
    };
    let Some(pointer) = pointer else {
        return true;
    };
    let Some(event) = pointer.strip_prefix("/hooks/") else {
        // A setting beside the hooks.
        return true;
    };
    let key = event.split('/').next().unwrap_or_default();
    dialect
        .flavors()
        .find_map(|f| f.tables().event_kind(key))
        .is_some_and(|kind| events.contains(&kind))
}

/// What the agent does with a file of `src`'s format it refuses, when it is strict about it.
fn seen(src: &SourceFile, dialect: Dialect) -> Option<&'static str> {
    let strict = dialect.config().strict_load?;
    match Format::of(&src.path) {
        Format::Json => Some(strict.seen),
        Format::Toml => strict.toml_seen,
        Format::Frontmatter => None,
    }
}

/// Makes an error, saying what the agent does, of each warning in `diags` (of `src`, a file of
/// `dialect`) for which the agent refuses the whole file.
pub fn apply(src: &SourceFile, dialect: Dialect, diags: &mut [Diagnostic]) {
    let (Some(strict), Some(seen)) = (dialect.config().strict_load, seen(src, dialect)) else {
        return;
    };
    for d in diags.iter_mut().filter(|d| d.severity == Severity::Warning) {
        let refused = (strict.needs_type && d.message.starts_with("handler has no `type`"))
            || (strict.whole_seconds && d.message.contains("` is fractional;"))
            || (strict.known_top_keys && d.message.starts_with("unknown top-level key"));
        if refused {
            d.severity = Severity::Error;
            d.message = format!("{}; {seen}", d.message);
        }
    }
}

/// Says on each of the reader's errors in `reader` (of `src`, a file of `dialect`) that the
/// agent refuses the whole file for it, where it does
/// ([`crate::tables::StrictLoad::reader_errors`]).
pub fn mark_reader_errors(src: &SourceFile, dialect: Dialect, reader: &mut [Diagnostic]) {
    let Some(seen) = seen(src, dialect) else {
        return;
    };
    if !dialect
        .config()
        .strict_load
        .is_some_and(|s| s.reader_errors)
    {
        return;
    }
    for d in reader.iter_mut().filter(|d| d.severity == Severity::Error) {
        if !agent_refuses(dialect, d) {
            continue;
        }
        if !d.message.ends_with(seen) {
            d.message = format!("{}; {seen}", d.message);
        }
    }
}

/// Whether the agent of `dialect` refuses what the reader's error `d` is about: all but an
/// event that is `null` where it takes that as none, and a negative timeout where it loads
/// the file all the same ([`crate::tables::StrictLoad`]; the reader's words, `config::walk`).
pub fn agent_refuses(dialect: Dialect, d: &Diagnostic) -> bool {
    let Some(strict) = dialect.config().strict_load else {
        return true;
    };
    let null_event = d.message.ends_with("event must hold an array, found null");
    let negative = d
        .message
        .contains("must be a positive number of seconds, found -");
    let loaded = strict.loads_despite.iter().any(|m| d.message.contains(m));
    !(strict.null_event_is_none && null_event
        || strict.negative_timeout_loads && negative
        || loaded)
}

/// The first form in `src` (read as `doc`, with the reader's `diagnostics`) for which its
/// agent refuses the whole file, as `validate` says it.
pub fn refused_whole(
    src: &SourceFile,
    doc: &Document,
    diagnostics: &[Diagnostic],
) -> Option<Diagnostic> {
    refusals(src, doc, diagnostics)
        .into_iter()
        .find(|d| whole_file(doc.dialect, d.pointer.as_deref()))
}

/// Every form in `src` (read as `doc`, with the reader's `diagnostics`) its agent does not
/// load, as `validate` says it: those for which it refuses the whole file
/// ([`refused_whole`]) and those it leaves out alone ([`left_out`]).
fn refusals(src: &SourceFile, doc: &Document, diagnostics: &[Diagnostic]) -> Vec<Diagnostic> {
    let Some(seen) = seen(src, doc.dialect) else {
        return Vec::new();
    };
    let mut all: Vec<Diagnostic> = diagnostics.to_vec();
    mark_reader_errors(src, doc.dialect, &mut all);
    all.extend(unknown_top_keys(src, doc));
    apply(src, doc.dialect, &mut all);
    all.extend(wrong_setting_types(src, doc));
    all.extend(refused_handlers(src, doc));
    all.extend(duplicate_keys(src, doc.dialect));
    all.retain(|d| d.severity == Severity::Error && d.message.ends_with(seen));
    all
}

/// A key written twice in one object of `src`, a JSON file of `dialect`: JSON readers (hookx's,
/// the JavaScript agents') keep only the last value, so the earlier one, hooks and all, is
/// silently ignored; an agent that refuses the whole file for it
/// ([`crate::tables::StrictLoad::duplicate_keys`]) is said so.
pub fn duplicate_keys(src: &SourceFile, dialect: Dialect) -> Vec<Diagnostic> {
    let refused = match dialect.config().strict_load {
        Some(strict) if strict.duplicate_keys => seen(src, dialect),
        _ => None,
    };
    fn walk(
        src: &SourceFile,
        value: &jsonc_parser::ast::Value,
        refused: Option<&str>,
        out: &mut Vec<Diagnostic>,
    ) {
        use jsonc_parser::ast::Value as V;
        use jsonc_parser::common::Ranged;
        match value {
            V::Object(obj) => {
                for (i, prop) in obj.properties.iter().enumerate() {
                    let name = prop.name.as_str();
                    if let Some(first) =
                        obj.properties[..i].iter().find(|p| p.name.as_str() == name)
                    {
                        let (line, col) = src.line_col(first.start());
                        let message = match refused {
                            Some(seen) => format!(
                                "duplicate key `{name}` (also at line {line}, column {col}); {seen}"
                            ),
                            None => format!(
                                "duplicate key `{name}`: only this one is read; the one at line {line}, column {col} is ignored"
                            ),
                        };
                        out.push(
                            Diagnostic::at_offset(Severity::Error, src, prop.start(), message)
                                .with_help("merge the two into one key"),
                        );
                    }
                    walk(src, &prop.value, refused, out);
                }
            }
            V::Array(arr) => arr.elements.iter().for_each(|e| walk(src, e, refused, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if Format::of(&src.path) != Format::Json {
        return out;
    }
    if let Ok(parsed) =
        jsonc_parser::parse_to_ast(&src.text, &Default::default(), &Default::default())
        && let Some(value) = &parsed.value
    {
        walk(src, value, refused, &mut out);
    }
    out
}

/// The error for writing `what` (a route, a copy) into the file at `path`, which its agent
/// refuses whole for `d` ([`refused_whole`]): it would run nowhere, whatever it says (attacks
/// row 621).
pub fn refused_write(path: &str, d: Diagnostic, what: &str) -> crate::error::Error {
    let fix = format!(
        "hookx writes no {what} into a file its agent refuses whole (it would run nowhere); fix it first"
    );
    let at = SourceFile::new(path.to_string(), "");
    crate::error::Error::Invalid(vec![
        d,
        Diagnostic::at_line_col(Severity::Error, &at, 1, 1, &fix),
    ])
}

/// Whether the agent of `dialect` refuses its whole file for `d`, one of [`refusals_text`].
pub fn is_whole(dialect: Dialect, d: &Diagnostic) -> bool {
    whole_file(dialect, d.pointer.as_deref())
}

/// [`refusals`] of `src` read whole as a file of `dialect` (none when it does not parse).
pub fn refusals_text(src: &SourceFile, dialect: Dialect) -> Vec<Diagnostic> {
    super::read::read(src, dialect)
        .map(|parsed| refusals(src, &parsed.document, &parsed.diagnostics))
        .unwrap_or_default()
}

/// [`refused_whole`] of `src` read whole as a file of `dialect` (none when it does not parse:
/// that is said as it is).
pub fn refused_whole_text(src: &SourceFile, dialect: Dialect) -> Option<Diagnostic> {
    let parsed = super::read::read(src, dialect).ok()?;
    refused_whole(src, &parsed.document, &parsed.diagnostics)
}

/// A file of an agent that leaves out single entries of its own files ([`leaves_out_entries`]),
/// read for [`left_out`]: the JSON as the agent reads it (the model keeps no timeout it cannot
/// read, nor whether a `type` was written) and the forms it does not load alone.
pub struct Entries {
    raw: Value,
    refused: Vec<Diagnostic>,
}

/// The file at `path` read for [`left_out`]. `None` for a dialect whose agent leaves out no
/// single entry, and for a file that does not read.
pub fn raw_if_entries_left_out(path: &std::path::Path, dialect: Dialect) -> Option<Entries> {
    if !leaves_out_entries(dialect) {
        return None;
    }
    let src = SourceFile::read(path).ok()?;
    let syntax = super::read::json_syntax(&src, dialect);
    let raw = syntax::parse_json_as(&src, syntax).ok()?;
    let refused = match (dialect.config().strict_load, seen(&src, dialect)) {
        (Some(strict), Some(seen)) if strict.whole_file_on.is_some() => {
            refusals_text(&src, dialect)
                .into_iter()
                .filter(|d| !whole_file(dialect, d.pointer.as_deref()))
                .map(|mut d| {
                    // What the agent does is said by the caller.
                    let kept = d
                        .message
                        .trim_end_matches(seen)
                        .trim_end_matches("; ")
                        .len();
                    d.message.truncate(kept);
                    d
                })
                .collect()
        }
        _ => Vec::new(),
    };
    Some(Entries { raw, refused })
}

/// Whether `dialect`'s agent leaves out single entries of its own files ([`left_out`]): by
/// their values, or, where it refuses the whole file only for some events
/// ([`crate::tables::StrictLoad::whole_file_on`]), each form it does not load on the others.
pub fn leaves_out_entries(dialect: Dialect) -> bool {
    leaves_out_by_values(dialect)
        || dialect
            .config()
            .strict_load
            .is_some_and(|s| s.whole_file_on.is_some())
}

/// Whether `dialect`'s agent leaves out single entries by their values (a timeout, no `type`),
/// which [`crate::dispatch::gates::LoadedWhole`] does not remember.
pub fn leaves_out_by_values(dialect: Dialect) -> bool {
    let config = dialect.config();
    config.skips_entry_without_positive_timeout || config.skips_entry_without_type
}

/// One handler its own agent leaves out of its file.
pub struct LeftOut<'a> {
    /// Its place in the rule.
    pub index: usize,
    /// Why.
    pub reason: Reason<'a>,
}

/// Why an agent leaves out a handler.
pub enum Reason<'a> {
    /// Its timeout (the key and its value as written) is no number of seconds above 0.
    Timeout(&'static str, &'a Value),
    /// It has no `type` or no command ([`crate::tables::ConfigSpec::skips_entry_without_type`]).
    Untyped,
    /// A form the agent does not load, on an event where it loads the rest of the file: what
    /// `validate` says of it (Claude Code 2.1.332, attacks row 720).
    Refused(&'a Diagnostic),
}

impl LeftOut<'_> {
    /// Why, as a sentence part: `` `"timeoutSec": 0` is no number of seconds above 0 ``.
    pub fn why(&self) -> String {
        match self.reason {
            Reason::Timeout(key, value) => {
                format!("`\"{key}\": {value}` is no number of seconds above 0")
            }
            Reason::Untyped => "it has no `type`, or no command".to_string(),
            Reason::Refused(d) => format!("{} (line {})", d.message, d.line),
        }
    }

    /// What to write instead.
    pub fn fix(&self) -> String {
        match self.reason {
            Reason::Timeout(key, _) => {
                format!("write a number of seconds above 0, or leave `\"{key}\"` out")
            }
            Reason::Untyped => "write `\"type\": \"command\"` and its command".to_string(),
            Reason::Refused(_) => {
                "write it in the form the agent loads (hookx validate says where)".to_string()
            }
        }
    }
}

/// Whether the JSON pointer `inner` is `outer` or below it.
fn below(inner: &str, outer: &str) -> bool {
    inner
        .strip_prefix(outer)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// The handlers of `rule` its own agent leaves out of its file (`entries`,
/// [`raw_if_entries_left_out`]) for a timeout that is no number of seconds above 0
/// ([`crate::tables::positive_seconds`]; Copilot CLI 1.0.102: `0`, `-1`, `"5"`, `null`,
/// `true`), for no `type` or command (Gemini CLI 0.61.0), or for a form the agent does not
/// load on an event where it loads the rest of the file (Claude Code 2.1.332: a `null`
/// matcher, a handler without `type`, a timeout of 0; attacks row 720). The one place that
/// decides it: doctor, list's plan and simulate ask it.
pub fn left_out<'a>(rule: &Rule, entries: &'a Entries) -> Vec<LeftOut<'a>> {
    let config = rule.flavor.dialect().config();
    let key = rule
        .flavor
        .handler_key(crate::tables::HandlerField::Timeout)
        .unwrap_or("timeout");
    let raw = &entries.raw;
    let handlers: Vec<String> = (0..rule.handlers.len())
        .map(|index| rule.handler_pointer(index))
        .collect();
    // A form of the rule's own (its matcher) leaves out each of its handlers.
    let refused = |index: usize| {
        entries.refused.iter().find(|d| {
            let at = d.pointer.as_deref().unwrap_or_default();
            below(at, &handlers[index])
                || (below(at, &rule.origin.pointer) && !handlers.iter().any(|h| below(at, h)))
        })
    };
    (0..rule.handlers.len())
        .filter_map(|index| {
            if let Some(d) = refused(index) {
                return Some(LeftOut {
                    index,
                    reason: Reason::Refused(d),
                });
            }
            let handler = raw.pointer(&handlers[index])?;
            let untyped = || {
                handler.get("type").is_none()
                    || (handler.get("type") == Some(&Value::from("command"))
                        && handler
                            .get("command")
                            .is_none_or(|c| c.is_null() || c.as_str() == Some("")))
            };
            if config.skips_entry_without_type && untyped() {
                return Some(LeftOut {
                    index,
                    reason: Reason::Untyped,
                });
            }
            let value = handler.get(key)?;
            (config.skips_entry_without_positive_timeout && !crate::tables::positive_seconds(value))
                .then_some(LeftOut {
                    index,
                    reason: Reason::Timeout(key, value),
                })
        })
        .collect()
}
