//! Reading a config file into a [`Document`], for any dialect: its syntax parsed
//! ([`super::syntax`]), then its value walked as the dialect's tables say ([`super::walk`]).
//! Whole, checked before hookx writes into it, or only one event's rules (`hookx run`).

use super::syntax;
use super::walk::{self, event_of, key_event};
use crate::diag::{Diagnostic, Severity};
use crate::error::Error;
use crate::model::EventKind;
use crate::protocol::failed::may_fire;
use crate::source::SourceFile;
use crate::tables::Dialect;
use crate::tables::{Document, Origin, PluginForm, Rule, RuleShape};
use serde_json::{Map, Value};

/// A document and what was noticed while reading it (errors make it unfit to convert).
#[derive(Debug)]
pub struct Parsed {
    pub document: Document,
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }
}

/// Reads `src` as a config file of `dialect`. Syntax errors are an `Err`; problems inside a
/// well-formed file are diagnostics on the returned document, which keeps all it could read.
pub fn read(src: &SourceFile, dialect: Dialect) -> Result<Parsed, Error> {
    let (value, markdown) = match syntax::Format::of(&src.path) {
        syntax::Format::Frontmatter => {
            let (value, front) = syntax::parse_frontmatter(src)?;
            (value, Some(front))
        }
        syntax::Format::Toml => (parse_toml(src, dialect)?, None),
        syntax::Format::Json => (syntax::parse_json_as(src, json_syntax(src, dialect))?, None),
    };
    let events_at_top = has_top_level_events(dialect, &value);
    Ok(read_value(
        src,
        dialect,
        value,
        markdown,
        events_at_top,
        false,
    ))
}

/// SHA-256 of what hookx can read of `src` (JSON or TOML, parsed as [`read`] parses it): the
/// whole value with the top-level keys the agent writes itself (`agent_keys`) left out, in
/// the order parsed. Two texts with the same one hold the same hooks, read the same way.
/// `None` for a dialect without such keys, and for a text that does not parse to an object.
pub fn sha256_without_agent_keys(src: &SourceFile, dialect: Dialect) -> Option<String> {
    let keys = dialect.config().agent_keys;
    if keys.is_empty() {
        return None;
    }
    let value = match syntax::Format::of(&src.path) {
        syntax::Format::Toml => parse_toml(src, dialect).ok()?,
        syntax::Format::Json => syntax::parse_json_as(src, json_syntax(src, dialect)).ok()?,
        syntax::Format::Frontmatter => return None,
    };
    let Value::Object(mut top) = value else {
        return None;
    };
    for key in keys {
        // A dotted key names a table inside another (`hooks.state`).
        let path: Vec<&str> = key.split('.').collect();
        remove_agent_key(&mut top, &path);
    }
    let text = serde_json::to_string(&Value::Object(top)).ok()?;
    Some(crate::hash::sha256_hex(text.as_bytes()))
}

/// Removes the key at `path` from `map`, and each table on the way that it leaves empty: an
/// agent that moves a setting of its own creates the table it moves it into (Gemini CLI's
/// `general` for `tools.approvalMode`, attacks row 1506), which holds no hooks. `true` when
/// `map` is left empty by it.
fn remove_agent_key(map: &mut serde_json::Map<String, Value>, path: &[&str]) -> bool {
    match path {
        [] => false,
        [last] => map.shift_remove(*last).is_some() && map.is_empty(),
        [first, rest @ ..] => {
            let emptied = match map.get_mut(*first).and_then(Value::as_object_mut) {
                Some(inner) => remove_agent_key(inner, rest) || inner.is_empty(),
                None => false,
            };
            if emptied {
                map.shift_remove(*first);
            }
            emptied && map.is_empty()
        }
    }
}

/// What `dialect` accepts in the JSON file `src` beyond strict JSON.
pub fn json_syntax(src: &SourceFile, dialect: Dialect) -> crate::tables::JsonSyntax {
    dialect.config().json_syntax.of_file(&src.path)
}

/// Parses a `.toml` file of `dialect`; an error when the dialect has no TOML files.
fn parse_toml(src: &SourceFile, dialect: Dialect) -> Result<Value, Error> {
    if dialect.config().documents.toml.is_none() {
        return Err(Error::Invalid(vec![Diagnostic::at_line_col(
            Severity::Error,
            src,
            1,
            1,
            format!(
                "{} has no TOML hook files; pass --from with the agent that reads this file",
                dialect.def().display
            ),
        )]));
    }
    syntax::parse_toml(src)
}

/// Whether events of `dialect` sit at the top level, without the `hooks` wrapper.
fn has_top_level_events(dialect: Dialect, value: &Value) -> bool {
    value.get("hooks").is_none()
        && value
            .as_object()
            .is_some_and(|top| top.keys().any(|k| is_known_event(dialect, k)))
}

/// Whether a flavour of `dialect` names the event `key`.
fn is_known_event(dialect: Dialect, key: &str) -> bool {
    dialect
        .flavors()
        .any(|f| f.tables().event_kind(key).is_some())
}

/// Reads a parsed value (JSON, or frontmatter when `markdown` is given) into a document.
fn read_value(
    src: &SourceFile,
    dialect: Dialect,
    value: Value,
    markdown: Option<crate::tables::Frontmatter>,
    events_at_top: bool,
    placeholders: bool,
) -> Parsed {
    let documents = &dialect.config().documents;
    let plugin = documents
        .plugin
        .as_ref()
        .filter(|p| is_plugin_file(p, src, &value, events_at_top));
    let toml = documents
        .toml
        .as_ref()
        .filter(|_| syntax::Format::of(&src.path) == syntax::Format::Toml);
    let kind = match (&markdown, toml, plugin) {
        (Some(_), _, _) => documents.frontmatter.unwrap_or(documents.file),
        (None, Some(toml), _) => toml.kind,
        (None, None, Some(plugin)) => plugin.kind,
        (None, None, None) => documents.file,
    };
    let mut document = Document::new(dialect, kind);
    document.markdown = markdown;
    let diagnostics = walk::read_document(src, dialect, placeholders, value, &mut document);
    Parsed {
        document,
        diagnostics,
    }
}

/// Like [`read`], but the document holds only the rules of `event`: what `hookx run` needs to
/// fire one event. Other events' arrays are parsed (a file [`read`] refuses is refused here
/// too, with the same error) but not built, so a large hook set costs little more than its
/// parse. Every top-level key that is not another event stays (settings such as
/// `disableAllHooks`, `description`, `version`). Diagnostics cover only what was built.
pub fn read_event(src: &SourceFile, dialect: Dialect, event: &EventKind) -> Result<Parsed, Error> {
    if syntax::Format::of(&src.path) == syntax::Format::Frontmatter {
        // Frontmatter is small; read it whole.
        let mut parsed = read(src, dialect)?;
        parsed.document.rules.retain(|r| may_fire(event, &r.event));
        return Ok(parsed);
    }
    Ok(read_pruned(src, dialect, prune_event(src, dialect, event)?))
}

/// What of a JSON config file one event needs: the value with every other event left out.
#[derive(Clone, Debug, PartialEq)]
pub struct PrunedEvent {
    pub value: Value,
    /// Whether the file had events at the top level, without the `hooks` wrapper (pruning may
    /// have dropped them all, so the value alone cannot tell).
    pub events_at_top: bool,
    /// The event: in a file read with its events at the top level, a key no table knows is
    /// kept (it may be a setting) and read as an event of its own, whose rules are not this
    /// event's.
    pub event: EventKind,
}

/// Parses `src` (JSON) keeping only what `event` needs; see [`read_pruned`].
pub fn prune_event(
    src: &SourceFile,
    dialect: Dialect,
    event: &EventKind,
) -> Result<PrunedEvent, Error> {
    let is_event = |key: &str| event_of(dialect, key).map(|(kind, _)| kind);
    // Pruning drops the other events, which the document kind is read from: note them here.
    let top_level_event = std::cell::Cell::new(false);
    let keep_top = |key: &str| {
        if key != "hooks" && is_known_event(dialect, key) {
            top_level_event.set(true);
        }
        is_event(key).is_none_or(|kind| may_fire(event, &kind))
    };
    // Settings among the events (Droid's `hooksDisabled`) stay: a kill switch may be one.
    let keep_hook = |key: &str| match is_event(key) {
        Some(kind) => may_fire(event, &kind),
        None => {
            matches!(event, EventKind::Other(name) if name == key)
                || dialect.config().kept_keys.contains(&key)
        }
    };
    let value = match syntax::Format::of(&src.path) {
        // A rule list names each rule's event inside the rule: parsed whole, and the event's
        // rules picked by `read_pruned`.
        _ if dialect.config().rule_list.is_some() => syntax::parse_json(src)?,
        // TOML settings files are small: parsed whole, then pruned.
        syntax::Format::Toml => prune(parse_toml(src, dialect)?, &keep_top, &keep_hook),
        _ => syntax::parse_json_pruned(src, json_syntax(src, dialect), &keep_top, &keep_hook)?,
    };
    let events_at_top = value.get("hooks").is_none() && top_level_event.get();
    Ok(PrunedEvent {
        value,
        events_at_top,
        event: event.clone(),
    })
}

/// `value` with the top-level keys `keep_top` refuses and the `hooks` keys `keep_hook` refuses
/// left out, as [`syntax::parse_json_pruned`] builds it from JSON text.
fn prune(value: Value, keep_top: &dyn Fn(&str) -> bool, keep_hook: &dyn Fn(&str) -> bool) -> Value {
    let Value::Object(top) = value else {
        return value;
    };
    let top = top
        .into_iter()
        .filter_map(|(key, value)| match (key.as_str(), value) {
            ("hooks", Value::Object(hooks)) => {
                let hooks = hooks.into_iter().filter(|(k, _)| keep_hook(k)).collect();
                Some((key, Value::Object(hooks)))
            }
            (_, value) => (key == "hooks" || keep_top(&key)).then_some((key, value)),
        })
        .collect();
    Value::Object(top)
}

/// Reads a pruned value of `src` as [`read`] reads the whole file: the same rules for the
/// event, with the same origins.
/// `null` rules are placeholders for rules left out by [`leave_out_unfired`], and skipped.
pub fn read_pruned(src: &SourceFile, dialect: Dialect, pruned: PrunedEvent) -> Parsed {
    let mut parsed = read_value(src, dialect, pruned.value, None, pruned.events_at_top, true);
    parsed
        .document
        .rules
        .retain(|r| may_fire(&pruned.event, &r.event));
    parsed
}

/// Which of an event's rules can fire: one verdict per rule given, each carrying only its
/// event, flavour and matcher ([`which_fire`]). `hookx run` answers with the very matching it
/// dispatches with.
pub type Fires<'a> = &'a dyn Fn(&[Rule]) -> Vec<bool>;

impl PrunedEvent {
    /// The event's arrays of rules, with their keys: under `hooks`, or at the top level in a
    /// file without the wrapper (pruning left only the event's keys there).
    pub fn event_arrays(&mut self, dialect: Dialect) -> Vec<(&str, &mut Vec<Value>)> {
        let Value::Object(top) = &mut self.value else {
            return Vec::new();
        };
        let arrays: Vec<_> = if top.contains_key("hooks") {
            match top.get_mut("hooks") {
                Some(Value::Object(hooks)) => hooks.iter_mut().collect(),
                _ => Vec::new(),
            }
        } else {
            top.iter_mut()
                .filter(|(key, _)| event_of(dialect, key).is_some())
                .collect()
        };
        arrays
            .into_iter()
            .filter_map(|(key, value)| match value {
                Value::Array(entries) => Some((key.as_str(), entries)),
                _ => None,
            })
            .collect()
    }
}

/// Which of the rules under an event's `key` of `file` can fire, from their matchers alone.
/// Each is asked as a rule of the event and flavour the key names, written in `file` (rules
/// are told apart by their file: no verdict is shared between files); a matcher that is not a
/// string reads as none, so its rule is kept and reading it reports it.
pub fn which_fire<'m>(
    (dialect, key, file): (Dialect, &str, &str),
    matchers: impl Iterator<Item = Option<&'m Value>>,
    fires: Fires,
) -> Vec<bool> {
    let (event, flavor) = key_event(dialect, key);
    let skeletons: Vec<Rule> = matchers
        .map(|matcher| Rule {
            event: event.clone(),
            flavor,
            matcher: matcher.and_then(Value::as_str).map(str::to_string),
            handlers: Vec::new(),
            shape: RuleShape::Group,
            extra: Map::new(),
            origin: Origin {
                file: file.to_string(),
                pointer: String::new(),
            },
        })
        .collect();
    fires(&skeletons)
}

/// Replaces with `null` every rule of the event that `fires` says cannot fire, so that it is
/// never built; [`read_pruned`] skips the placeholders, and every other rule keeps its index
/// (and so its origin). `file` is the name the rules carry in their origin.
pub fn leave_out_unfired(pruned: &mut PrunedEvent, dialect: Dialect, file: &str, fires: Fires) {
    for (key, entries) in pruned.event_arrays(dialect) {
        let keep = which_fire(
            (dialect, key, file),
            entries.iter().map(|e| e.get("matcher")),
            fires,
        );
        for (entry, fires) in entries.iter_mut().zip(keep) {
            if !fires {
                *entry = Value::Null;
            }
        }
    }
}

/// Reads a file hookx is about to write into: `None` when it does not exist, an error when
/// hookx cannot read all of it (editing it would risk the hooks it has).
pub fn read_target(
    path: &std::path::Path,
    dialect: Dialect,
) -> Result<Option<(SourceFile, Parsed)>, Error> {
    if !path.exists() {
        return Ok(None);
    }
    let src = SourceFile::read(path)?;
    let parsed = read_checked(&src, dialect)?;
    Ok(Some((src, parsed)))
}

/// Reads the text of a file hookx is about to write into; an error when hookx cannot read all
/// of it.
pub fn read_checked(src: &SourceFile, dialect: Dialect) -> Result<Parsed, Error> {
    let parsed = read(src, dialect)?;
    if parsed.has_errors() {
        let mut diags: Vec<Diagnostic> = parsed
            .diagnostics
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        diags.push(Diagnostic::at_line_col(
            Severity::Error,
            src,
            1,
            1,
            "refusing to write into a file hookx cannot fully read; fix it first",
        ));
        return Err(Error::Invalid(diags));
    }
    Ok(parsed)
}

/// A Claude plugin's `hooks/hooks.json` (it may carry a `description`), or any file other than
/// a settings file whose events sit at the top level without the `hooks` wrapper.
fn is_plugin_file(form: &PluginForm, src: &SourceFile, value: &Value, events_at_top: bool) -> bool {
    let path = src.path.replace('\\', "/");
    let name = path.rsplit('/').next().unwrap_or(&path);
    path.ends_with(form.path_suffix)
        || value.get(form.marker_key).is_some()
        || (events_at_top && !form.never_named.contains(&name))
}
