//! Entries hookx converted, given back as the handlers they were: a round trip is the identity.
//!
//! A command line hookx wrapped (`hookx exec --as F …`, [`super::innermost`]) or a handler
//! whose provenance record says it was converted from F (`"hookx": {"from": F, …}`, written
//! with `--no-wrap`) is restored as the rule of F it came from: its event (a tool category's
//! included, by F's own name), matcher, shape, timeout, command line and fields. Converted
//! into F's dialect, that rule is the original, with no record; into any other dialect, it is
//! converted from F afresh, so that a wrapper is re-targeted (`--host` the new target, `--as`
//! still F), never wrapped again.
//!
//! The record (see [`Converter::record`]) holds what neither the wrapper line nor the target
//! can say: where the handler was first written (its rule and place in the rule's group), the
//! original matcher, the keys its command lines sat under where they were not the ones hookx
//! writes, and the fields the conversion set aside without a loss (Claude's `args`, `shell:
//! bash`, a repeated timeout key). Without a record (a file an older hookx converted, a hook
//! script), the wrapper line and the converted rule say the rest.

use super::converter::{Converter, FirstWritten};
use super::matcher;
use super::wrap::{Unwrapped, innermost};
use crate::config::MARKER;
use crate::config::walk::HandlerAt;
use crate::model::{Command, EventKind, Handler, HandlerKind};
use crate::shell::shell_quote;
use crate::source::SourceFile;
use crate::tables::{Document, Flavor, HandlerField, Rule, RuleShape};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// A part of a document to convert.
pub(super) enum Piece<'d> {
    /// A rule (or what is left of it) as the document has it, and its place among the
    /// document's rules.
    Native(Cow<'d, Rule>, usize),
    /// A handler hookx converted, as the rule of its own flavour it was: one handler.
    Restored {
        rule: Rule,
        first: Option<FirstWritten>,
        /// Its pointer in the document.
        at: String,
        /// The place of its rule among the document's rules.
        position: usize,
    },
}

/// A handler's provenance record, as read.
struct Record<'a> {
    from: Option<Flavor>,
    first: Option<FirstWritten>,
    matcher: Option<&'a str>,
    keys: Vec<&'a str>,
    fields: Option<&'a Map<String, Value>>,
}

impl<'a> Record<'a> {
    fn of(handler: &'a Handler) -> Option<Record<'a>> {
        let record = handler.extra.get(MARKER)?.as_object()?;
        let text = |key: &str| record.get(key).and_then(Value::as_str);
        let number = |key: &str| record.get(key).and_then(Value::as_u64).map(|i| i as usize);
        Some(Record {
            from: text("from").and_then(Flavor::named),
            first: text("rule").map(|rule| FirstWritten {
                source: text("source").unwrap_or_default().to_string(),
                rule: rule.to_string(),
                order: number("order"),
                index: number("index"),
            }),
            matcher: text("matcher"),
            keys: record
                .get("keys")
                .and_then(Value::as_array)
                .map(|keys| keys.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default(),
            fields: record.get("fields").and_then(Value::as_object),
        })
    }
}

/// The flavour a handler's record says it was converted from.
pub(super) fn recorded_flavor(handler: &Handler) -> Option<Flavor> {
    Record::of(handler)?.from
}

/// A rule's identity in its file: its pointer, or a hook script's file name.
fn rule_id(rule: &Rule) -> String {
    match rule.origin.pointer.is_empty() {
        true => std::path::Path::new(&rule.origin.file)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string(),
        false => rule.origin.pointer.clone(),
    }
}

/// The keys a command's POSIX line is read from, in the order the converter keeps one.
const UNIX_LINES: [HandlerField; 4] = [
    HandlerField::Bash,
    HandlerField::Linux,
    HandlerField::Command,
    HandlerField::Osx,
];
const WINDOWS_LINES: [HandlerField; 2] = [HandlerField::PowerShell, HandlerField::Windows];

fn line_of(command: &Command, field: HandlerField) -> Option<&String> {
    match field {
        HandlerField::Bash => command.bash.as_ref(),
        HandlerField::Linux => command.linux.as_ref(),
        HandlerField::Command => command.command.as_ref(),
        HandlerField::Osx => command.osx.as_ref(),
        HandlerField::PowerShell => command.powershell.as_ref(),
        HandlerField::Windows => command.windows.as_ref(),
        _ => None,
    }
}

fn set_line(command: &mut Command, field: HandlerField, line: String) {
    match field {
        HandlerField::Bash => command.bash = Some(line),
        HandlerField::Linux => command.linux = Some(line),
        HandlerField::Command => command.command = Some(line),
        HandlerField::Osx => command.osx = Some(line),
        HandlerField::PowerShell => command.powershell = Some(line),
        HandlerField::Windows => command.windows = Some(line),
        _ => {}
    }
}

/// The fields a restored command's lines go under when its record does not say: the flavour's
/// bash key where it has one, else its command key; its PowerShell key, else its Windows key.
fn default_line_fields(flavor: Flavor, windows: bool) -> Vec<HandlerField> {
    let has = |field| flavor.handler_key(field).is_some();
    let mut out = vec![match has(HandlerField::Bash) {
        true => HandlerField::Bash,
        false => HandlerField::Command,
    }];
    if windows {
        out.extend(WINDOWS_LINES.into_iter().find(|&f| has(f)));
    }
    out
}

/// The fields holding the command lines a conversion keeps (the first POSIX line, the first
/// Windows line, and every other field with the same line).
fn line_fields(command: &Command) -> Vec<HandlerField> {
    let mut out = Vec::new();
    for group in [&UNIX_LINES[..], &WINDOWS_LINES[..]] {
        let Some(kept) = group.iter().find_map(|&f| line_of(command, f)) else {
            continue;
        };
        out.extend(
            group
                .iter()
                .copied()
                .filter(|&f| line_of(command, f) == Some(kept)),
        );
    }
    out
}

/// The source a record names: a path given absolute, inside the folder `convert` runs in, is
/// named from there (what it writes may be committed; this machine's path means nothing to a
/// teammate).
fn portable_source(file: &str) -> String {
    let path = std::path::Path::new(file);
    if path.is_absolute()
        && let Ok(here) = std::env::current_dir()
    {
        let canonical = std::fs::canonicalize(&here).unwrap_or_else(|_| here.clone());
        for base in [&here, &canonical] {
            if let Ok(rel) = path.strip_prefix(base)
                && !rel.as_os_str().is_empty()
            {
                return rel.display().to_string();
            }
        }
    }
    file.to_string()
}

impl Converter<'_> {
    /// The provenance record of `handler` of `rule` (of `from`), converted into another
    /// dialect: `"hookx": {"source": FILE, "from": FLAVOUR, "rule": POINTER, "order": N,
    /// "index": I, "matcher": …, "keys": […], "fields": {…}}`: the file converted, the
    /// flavour the handler was written for, where it was first written (its rule, the rule's
    /// place among that file's rules, its place in the rule's group), and the rest only where
    /// there is something to say.
    pub(super) fn record(
        &self,
        src: &SourceFile,
        rule: &Rule,
        index: Option<usize>,
        handler: &Handler,
        from: Flavor,
    ) -> Value {
        let mut record = Map::new();
        let file = match rule.origin.file.is_empty() {
            true => &src.path,
            false => &rule.origin.file,
        };
        record.insert("source".into(), Value::from(portable_source(file)));
        record.insert("from".into(), Value::from(from.name()));
        let first = match &self.carry {
            Some(carry) => carry.first.clone(),
            None => Some(FirstWritten {
                source: file.clone(),
                rule: rule_id(rule),
                order: Some(self.position),
                index,
            }),
        };
        if let Some(first) = first {
            record.insert("rule".into(), Value::from(first.rule));
            if let Some(n) = first.order {
                record.insert("order".into(), Value::from(n));
            }
            if let Some(i) = first.index {
                record.insert("index".into(), Value::from(i));
            }
        }
        if let Some(matcher) = &rule.matcher {
            record.insert("matcher".into(), Value::from(matcher.as_str()));
        }
        if let HandlerKind::Command(command) = &handler.kind {
            let fields = line_fields(command);
            let windows = fields.iter().any(|f| WINDOWS_LINES.contains(f));
            if !fields.is_empty() && fields != default_line_fields(from, windows) {
                let keys: Vec<Value> = fields
                    .iter()
                    .filter_map(|&f| from.handler_key(f))
                    .map(Value::from)
                    .collect();
                record.insert("keys".into(), Value::Array(keys));
            }
        }
        let set_aside = self.set_aside(handler, from);
        if !set_aside.is_empty() {
            record.insert("fields".into(), Value::Object(set_aside));
        }
        Value::Object(record)
    }

    /// The fields of `handler` a conversion sets aside without a loss, as they were: a timeout
    /// key repeating the timeout, and the run keys it reads into the command line or that say
    /// what happens anyway (Claude's `args`, `shell: bash`, `onFailure: continue`,
    /// `asyncRewake: false`, and wrapped, `if`).
    fn set_aside(&self, handler: &Handler, from: Flavor) -> Map<String, Value> {
        handler
            .extra
            .iter()
            .filter(|(k, v)| set_aside_field(from, k, v, handler.timeout, self.options.wrap))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// `doc`'s rules in pieces: what stays as it is, and each handler hookx converted, as it
    /// was.
    pub(super) fn pieces<'d>(&mut self, src: &SourceFile, doc: &'d Document) -> Vec<Piece<'d>> {
        let mut out = Vec::with_capacity(doc.rules.len());
        // A rule's place among the file's rules, not counting hookx's own routes (`hookx
        // install`): adding or removing a route leaves the places of the rules as they were,
        // and so the records of their copies.
        let mut routes = 0;
        for (index, rule) in doc.rules.iter().enumerate() {
            let position = index - routes;
            if !rule.handlers.is_empty() && rule.handlers.iter().all(crate::route::is_hookx_handler)
            {
                routes += 1;
            }
            // A rule its dialect has switched off is not restored: converting reports it.
            if rule.flavor.dialect().config().is_disabled(rule) {
                out.push(Piece::Native(Cow::Borrowed(rule), position));
                continue;
            }
            let restored: Vec<Option<(Rule, Option<FirstWritten>, String)>> = rule
                .handlers
                .iter()
                .enumerate()
                .map(|(i, h)| self.restore(src, rule, i, h))
                .collect();
            if restored.iter().all(Option::is_none) {
                out.push(Piece::Native(Cow::Borrowed(rule), position));
                continue;
            }
            if restored.iter().all(Option::is_some) {
                self.lose_rule_fields(src, rule);
            }
            let mut natives = Vec::new();
            let flush = |natives: &mut Vec<Handler>, out: &mut Vec<Piece<'d>>| {
                if !natives.is_empty() {
                    let rule = Rule {
                        handlers: std::mem::take(natives),
                        ..rule.clone()
                    };
                    out.push(Piece::Native(Cow::Owned(rule), position));
                }
            };
            for (handler, restored) in rule.handlers.iter().zip(restored) {
                match restored {
                    None => natives.push(handler.clone()),
                    Some((rule, first, at)) => {
                        flush(&mut natives, &mut out);
                        out.push(Piece::Restored {
                            rule,
                            first,
                            at,
                            position,
                        });
                    }
                }
            }
            flush(&mut natives, &mut out);
        }
        out
    }

    /// A restored rule's fields other than those the conversion itself wrote (a route's group
    /// keys): its dialect's, not the restored flavour's, so they are not carried over.
    fn lose_rule_fields(&mut self, src: &SourceFile, rule: &Rule) {
        let written = rule.flavor.dialect().def().route.group_keys;
        let keys: Vec<String> = rule
            .extra
            .keys()
            .filter(|k| !written.iter().any(|(w, _)| w == k))
            .map(|k| format!("`{k}`"))
            .collect();
        if !keys.is_empty() {
            self.lose(
                src,
                rule.origin.pointer.as_str(),
                &format!("rule field(s) {}", keys.join(", ")),
                &format!(
                    "the rule's handlers are given back as {} wrote them, which has no such fields; they are not carried over",
                    self.options.to
                ),
            );
        }
    }

    /// Handler `index` of `rule` as the rule of its own flavour it was, with where it was first
    /// written and its pointer here; `None` for a handler hookx did not convert.
    fn restore(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        index: usize,
        handler: &Handler,
    ) -> Option<(Rule, Option<FirstWritten>, String)> {
        let HandlerKind::Command(command) = &handler.kind else {
            return None;
        };
        let here = rule.flavor;
        let record = Record::of(handler);
        let unwrapped = command.unix_line().and_then(innermost);
        let from = match (&unwrapped, &record) {
            (Some(u), _) => u.flavor,
            (None, Some(Record { from: Some(f), .. })) => *f,
            _ => return None,
        };
        if from.dialect() == here.dialect() {
            // Written for the agent of the file it is in: it is that file's own.
            return None;
        }
        // A record written with this very conversion says exactly what it was.
        let record = record.filter(|r| r.from == Some(from));
        let at = HandlerAt {
            rule: &rule.origin.pointer,
            index: (rule.shape == RuleShape::Group).then_some(index),
        }
        .to_string();
        let event = unwrapped
            .as_ref()
            .and_then(|u| u.event.as_deref())
            .map_or_else(|| rule.event.clone(), |name| event_named(from, name));
        // An event the flavour's tables do not know is written by its own name, as read.
        let event = match event {
            EventKind::Other(_) => event,
            kind if from.tables().event_name(&kind).is_none() => {
                EventKind::Other(kind.name().to_string())
            }
            kind => kind,
        };
        let matcher = match (&record, &unwrapped) {
            (Some(r), _) => r.matcher.map(str::to_string),
            (
                None,
                Some(Unwrapped {
                    matcher: Some(m), ..
                }),
            ) => Some(m.clone()),
            _ => {
                let on = (
                    here.tables().matcher_target(&rule.event),
                    from.tables().matcher_target(&event),
                );
                match on {
                    (Some(a), Some(b)) if a == b => {
                        matcher::translate(rule.matcher.as_deref(), a, &event, here, from).text
                    }
                    _ => None,
                }
            }
        };
        let (shape, first) = match record.as_ref().and_then(|r| r.first.clone()) {
            Some(first) => (
                // A record without a place in a group is flat only where the dialect's rules
                // may be (a group dialect reads a flat entry as no hook at all).
                match first.index.is_none() && from.dialect().config().flat_handlers {
                    true => RuleShape::Flat,
                    false => RuleShape::Group,
                },
                Some(first),
            ),
            None => (
                match from.dialect().config().flat_handlers {
                    true => RuleShape::Flat,
                    false => RuleShape::Group,
                },
                None,
            ),
        };
        let pointer = HandlerAt {
            rule: &at,
            index: None,
        };
        let restored = self.restored_handler(
            src,
            &pointer,
            here,
            handler,
            command,
            unwrapped.as_ref(),
            record.as_ref(),
            from,
        )?;
        Some((
            Rule {
                event,
                flavor: from,
                matcher,
                handlers: vec![restored],
                shape,
                extra: Map::new(),
                origin: rule.origin.clone(),
            },
            first,
            at,
        ))
    }

    /// The handler `handler` (of `here`) was in `from`, what it holds that `from` has no place
    /// for reported lost.
    #[allow(clippy::too_many_arguments)]
    fn restored_handler(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        here: Flavor,
        handler: &Handler,
        command: &Command,
        unwrapped: Option<&Unwrapped>,
        record: Option<&Record>,
        from: Flavor,
    ) -> Option<Handler> {
        let (own, this) = (from.dialect().config(), here.dialect().config());
        let line = match unwrapped {
            Some(u) => u.command.clone(),
            // Converted as written (`--no-wrap`): its variables named as its own agent names them.
            None => self
                .rewrite_env(src, at, command.unix_line()?, here, from)
                .into_owned(),
        };
        // `cwd` and `env` that went before the line where this dialect had no keys for them.
        let (line, env) = match (own.key(HandlerField::Env), this.key(HandlerField::Env)) {
            (Some(_), None) => without_exports(&line),
            _ => (line, command.env.clone()),
        };
        let (line, cwd) = match (own.key(HandlerField::Cwd), this.key(HandlerField::Cwd)) {
            (Some(_), None) => without_cd(&line),
            // A wrapped line carries an absolute folder itself (`convert::command`'s
            // `cwd_in_line`, attacks row 1887).
            (Some(_), Some(_)) if unwrapped.is_some() && command.cwd.is_none() => {
                match without_cd(&line) {
                    (rest, Some(dir)) if std::path::Path::new(&dir).is_absolute() => {
                        (rest, Some(dir))
                    }
                    _ => (line, None),
                }
            }
            _ => (line, command.cwd.clone()),
        };
        let default = from.tables().default_timeout(&handler.kind);
        let timeout = match unwrapped {
            Some(u) if record.is_some() => u.timeout,
            // An older hookx wrote the default of a handler that had none.
            Some(u) => u.timeout.filter(|&t| t != default),
            // Converted as written: the default was written where the two differ.
            None => handler.timeout.filter(|&t| {
                t != default || here.tables().default_timeout(&handler.kind) == default
            }),
        };
        // The fields the record says were set aside: only those a conversion sets aside.
        let mut extra = Map::new();
        let mut forged = Vec::new();
        for (key, value) in record.and_then(|r| r.fields).into_iter().flatten() {
            match set_aside_field(from, key, value, timeout, unwrapped.is_some()) {
                true => {
                    extra.insert(key.clone(), value.clone());
                }
                false => forged.push(format!("`{key}`")),
            }
        }
        if !forged.is_empty() {
            self.lose(
                src,
                at,
                &format!("recorded field(s) {}", forged.join(", ")),
                "the `hookx` record holds fields a conversion never sets aside (it was not written by hookx, or was edited); they would change how the handler runs, so they are not carried over",
            );
        }
        let run_keys = &own.run_keys;
        if let Some(key) = run_keys.condition {
            match unwrapped.and_then(|u| u.condition.clone()) {
                Some(rule) => {
                    extra.insert(key.into(), Value::String(rule));
                }
                None if unwrapped.is_some() => {
                    extra.remove(key);
                }
                None => {}
            }
        }
        // The cap on its follow-ups `exec` kept for it (row 306).
        if let (Some(key), Some(limit)) = (
            run_keys.follow_ups.as_ref().and_then(|s| s.limit_key),
            unwrapped.and_then(|u| u.follow_up_limit),
        ) {
            extra.insert(key.into(), limit.into());
        }
        // The exec form: the line is the program and these arguments, each quoted.
        let mut line = line;
        if let Some(key) = run_keys.exec_args
            && let Some(args) = extra.get(key).and_then(Value::as_array).cloned()
        {
            let words: Option<Vec<&str>> = args.iter().map(Value::as_str).collect();
            let program = words.and_then(|words| {
                let tail: String = words
                    .iter()
                    .map(|w| format!(" {}", shell_quote(w)))
                    .collect();
                let program = line.strip_suffix(tail.as_str())?;
                let word = super::wrap::unwrapped_word(program)?;
                (shell_quote(&word) == program).then_some(word)
            });
            match program {
                Some(program) => line = program,
                None => {
                    extra.remove(key);
                }
            }
        }
        let windows = command.powershell.as_ref().or(command.windows.as_ref());
        let mut fields: Vec<HandlerField> = record
            .map(|r| r.keys.iter().filter_map(|k| own.field(k)).collect())
            .unwrap_or_default();
        if fields.is_empty() {
            fields = default_line_fields(from, windows.is_some());
        }
        // The POSIX line always has a key, whatever the record's `keys` say.
        if !fields.iter().any(|f| UNIX_LINES.contains(f)) {
            fields.insert(0, default_line_fields(from, false)[0]);
        }
        let mut out = Command::default();
        for field in fields {
            match (WINDOWS_LINES.contains(&field), windows) {
                (false, _) => set_line(&mut out, field, line.clone()),
                (true, Some(w)) => set_line(&mut out, field, w.clone()),
                (true, None) => {}
            }
        }
        if windows.is_some() && out.powershell.is_none() && out.windows.is_none() {
            self.not_carried(src, at, "the Windows command", from);
        }
        let keep = |this: &mut Self, present: bool, field: HandlerField, what: &str| {
            let kept = own.key(field).is_some();
            if present && !kept {
                this.not_carried(src, at, what, from);
            }
            kept
        };
        if keep(self, cwd.is_some(), HandlerField::Cwd, "`cwd`") {
            out.cwd = cwd;
        }
        if keep(self, env.is_some(), HandlerField::Env, "`env`") {
            out.env = env;
        }
        // `exec --async` ran it in the background, as its own agent does (row 1762).
        let background = unwrapped.is_some_and(|u| u.is_async);
        if keep(
            self,
            command.is_async == Some(true) || background,
            HandlerField::Async,
            "`async: true`",
        ) {
            out.is_async = command.is_async.or(background.then_some(true));
        }
        let status_message = match keep(
            self,
            handler.status_message.is_some(),
            HandlerField::StatusMessage,
            "`statusMessage`",
        ) {
            true => handler.status_message.clone(),
            false => None,
        };
        let once = match keep(self, handler.once.is_some(), HandlerField::Once, "`once`") {
            true => handler.once,
            false => None,
        };
        let unknown: Vec<String> = handler
            .extra
            .keys()
            .filter(|k| *k != MARKER && this.field(k) != Some(HandlerField::Timeout))
            .map(|k| format!("`{k}`"))
            .collect();
        if !unknown.is_empty() {
            self.not_carried(
                src,
                at,
                &format!("handler field(s) {}", unknown.join(", ")),
                from,
            );
        }
        Some(Handler {
            kind: HandlerKind::Command(out),
            timeout,
            status_message,
            once,
            extra,
        })
    }

    /// A loss: what the handler holds here that the flavour it is given back as has no place
    /// for.
    fn not_carried(&mut self, src: &SourceFile, at: &HandlerAt, what: &str, from: Flavor) {
        let why = format!(
            "the handler is given back as {} wrote it, which has no such field; it is dropped",
            from.dialect()
        );
        self.lose(src, at, what, &why);
    }
}

/// Whether field `key: value` of a handler of `from` (its timeout `timeout`) is one a
/// conversion sets aside without a loss ([`Converter::set_aside`]): a timeout key repeating the
/// timeout, and run keys that say what happens anyway. Read back from a record, nothing else
/// is taken: a record is text in a file anyone may have written, and a field such as `async`
/// or `once` would change how the restored handler runs.
fn set_aside_field(
    from: Flavor,
    key: &str,
    value: &Value,
    timeout: Option<u64>,
    wrap: bool,
) -> bool {
    let config = from.dialect().config();
    let keys = &config.run_keys;
    (config.field(key) == Some(HandlerField::Timeout)
        && value.as_u64().is_some()
        && value.as_u64() == timeout)
        || Some(key) == keys.exec_args
        || (Some(key) == keys.shell && matches!(value.as_str(), Some("bash" | "sh")))
        || keys
            .on_failure
            .as_ref()
            .is_some_and(|f| f.key == key && f.goes_on(value))
        || (keys.wake.contains(&key) && *value == Value::Bool(false))
        || (wrap && Some(key) == keys.condition && value.is_string())
}

/// The event `name` names for `flavor`: its own name for it, a canonical name, or another
/// flavour's name.
fn event_named(flavor: Flavor, name: &str) -> EventKind {
    if let Some(kind) = flavor.tables().event_kind(name) {
        return kind;
    }
    match EventKind::from_name(name) {
        EventKind::Other(_) => Flavor::all()
            .iter()
            .find_map(|f| f.tables().event_kind(name))
            .unwrap_or_else(|| EventKind::Other(name.to_string())),
        kind => kind,
    }
}

/// `line` without the `export NAME=VALUE;` words a conversion put before it, and the
/// variables they set.
fn without_exports(line: &str) -> (String, Option<Map<String, Value>>) {
    let mut rest = line;
    let mut env = Map::new();
    while let Some(after) = rest.strip_prefix("export ") {
        let Some((name, value, tail)) = assignment(after) else {
            break;
        };
        env.insert(name.to_string(), Value::String(value));
        rest = tail;
    }
    match env.is_empty() {
        true => (line.to_string(), None),
        false => (rest.to_string(), Some(env)),
    }
}

/// `NAME=VALUE; rest`, VALUE one word as hookx quotes it: the name, the value and the rest.
fn assignment(text: &str) -> Option<(&str, String, &str)> {
    let (name, after) = text.split_once('=')?;
    let is_name = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name {
        return None;
    }
    // The quoted value ends at the first `; ` it is whole at.
    let mut from = 0;
    while let Some(end) = after[from..].find("; ") {
        let quoted = &after[..from + end];
        // hookx quotes in single quotes; one version quoted in double quotes.
        if let Some(value) = super::wrap::unwrapped_word(quoted)
            && (shell_quote(&value) == quoted || double_quoted(&value) == quoted)
        {
            return Some((name, value, &after[from + end + 2..]));
        }
        from += end + 2;
    }
    None
}

/// `"value"`, with `\`, `"`, `` ` `` and `$` escaped.
fn double_quoted(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        if matches!(c, '\\' | '"' | '`' | '$') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// `line` without the `cd DIR || exit 1;` a conversion put before it (`cd DIR &&` before
/// 2026-12-07), and the folder.
fn without_cd(line: &str) -> (String, Option<String>) {
    let found = line.strip_prefix("cd ").and_then(|after| {
        [" || exit 1; ", " && "].into_iter().find_map(|sep| {
            let mut from = 0;
            while let Some(end) = after[from..].find(sep) {
                let quoted = &after[..from + end];
                if let Some(dir) = super::wrap::unwrapped_word(quoted)
                    && shell_quote(&dir) == quoted
                {
                    return Some((after[from + end + sep.len()..].to_string(), dir));
                }
                from += end + sep.len();
            }
            None
        })
    });
    match found {
        Some((tail, dir)) => (tail, Some(dir)),
        None => (line.to_string(), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `export` and `cd` words a conversion put before a line come off it exactly; a line
    /// that only looks alike keeps what is not hookx's quoting.
    #[test]
    fn cwd_and_env_prefixes_come_off_the_line() {
        let (line, env) = without_exports("export A='x; y'; export B=plain; cd 'my dir' && run it");
        let env = env.unwrap();
        assert_eq!(env["A"], "x; y");
        assert_eq!(env["B"], "plain");
        assert_eq!(
            without_cd(&line),
            ("run it".to_string(), Some("my dir".to_string()))
        );
        assert_eq!(
            without_cd("cd 'my dir' || exit 1; run it && more"),
            ("run it && more".to_string(), Some("my dir".to_string()))
        );
        // An older hookx quoted values in double quotes.
        let (line, env) = without_exports("export A=\"two words\"; run");
        assert_eq!(
            (line.as_str(), env.unwrap()["A"].as_str()),
            ("run", Some("two words"))
        );
        for line in [
            "export A=$HOME; run",
            "export 1A=x; run",
            "exported",
            "cd $D && x",
            "cd $D || exit 1; x",
        ] {
            assert_eq!(without_exports(line).0, line);
            assert_eq!(without_cd(line).0, line);
        }
    }
}
