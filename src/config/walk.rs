//! The walk over a parsed config value: its events, rules and handlers read into a
//! [`Document`] as the dialect's tables ([`crate::tables::ConfigSpec`]) say, every problem a
//! diagnostic at its JSON pointer. [`read`](mod@super::read) parses the file and hands
//! the value here.

use super::syntax;
use crate::diag::{Diagnostic, Severity, json_type};
use crate::model::{Command, EventKind, Handler, HandlerKind, PromptSpec, ServiceSpec};
use crate::positions::escape;
use crate::source::SourceFile;
use crate::tables::{Dialect, Flavor};
use crate::tables::{Document, Origin, Rule, RuleShape};
use crate::tables::{HandlerField, OlderForms, RuleList};
use serde_json::{Map, Value};

/// Reads `value` into `doc`, returning what was noticed. With `placeholders`, `null` rules
/// stand for rules left out by [`super::read::leave_out_unfired`] and are skipped.
pub(super) fn read_document(
    src: &SourceFile,
    dialect: Dialect,
    placeholders: bool,
    value: Value,
    doc: &mut Document,
) -> Vec<Diagnostic> {
    let mut reader = Reader {
        src,
        dialect,
        diagnostics: Vec::new(),
        placeholders,
    };
    reader.read_document(value, doc);
    reader.diagnostics
}

struct Reader<'a> {
    src: &'a SourceFile,
    dialect: Dialect,
    diagnostics: Vec<Diagnostic>,
    /// `null` rules are placeholders for rules left out by [`leave_out_unfired`]: skipped.
    placeholders: bool,
}

/// A handler's fields as read so far: one value per field, and the keys hookx does not know.
#[derive(Default)]
struct HandlerFields {
    /// Whether its `type` says (or, absent, leaves it) a command: a unit may read a command's
    /// timeout apart ([`crate::tables::TimeoutUnit::SecondsBelow`]).
    command_typed: bool,
    handler_type: Option<String>,
    command: Command,
    prompt: PromptSpec,
    timeout: Option<u64>,
    status_message: Option<String>,
    once: Option<bool>,
    extra: Map<String, Value>,
}

impl Reader<'_> {
    fn diag(
        &mut self,
        severity: Severity,
        pointer: &str,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        let mut diag = match syntax::locate(self.src, pointer) {
            Some(offset) => Diagnostic::at_offset(severity, self.src, offset, message),
            None => Diagnostic::at_line_col(severity, self.src, 1, 1, message),
        };
        diag.pointer = Some(pointer.to_string());
        self.diagnostics.push(diag);
        self.diagnostics.last_mut().expect("just pushed")
    }

    fn error(&mut self, pointer: &str, message: impl Into<String>) {
        self.diag(Severity::Error, pointer, message);
    }

    fn warn(&mut self, pointer: &str, message: impl Into<String>) {
        self.diag(Severity::Warning, pointer, message);
    }

    fn read_document(&mut self, value: Value, doc: &mut Document) {
        let Value::Object(top) = value else {
            self.error(
                "",
                format!(
                    "expected a JSON object at the top level, found {}",
                    json_type(&value)
                ),
            );
            return;
        };
        let spec = self.dialect.config();
        if let Some(list) = spec.rule_list {
            self.read_rule_list(list, top, doc);
            return;
        }
        let has_wrapper = top.contains_key("hooks");
        if has_wrapper && doc.kind.wrapper_ignored {
            self.warn(
                "/hooks",
                format!(
                    "{} reads the events of this file at its top level: it takes this `hooks` wrapper for an event it does not have and runs none of the hooks inside it; move the events out of the wrapper",
                    self.dialect.def().display
                ),
            );
        }
        let events_at_root = !has_wrapper && doc.kind.wrapper_optional;
        doc.wrapped = !events_at_root;
        if events_at_root {
            // Bricks (and Claude plugins in the wild) may put events at the root: every key
            // that is not a known non-event key is read as an event.
            let mut hooks = Map::new();
            for (key, value) in top {
                let marker = spec
                    .documents
                    .plugin
                    .as_ref()
                    .filter(|p| *p.kind == *doc.kind);
                if marker.is_some_and(|p| key == p.marker_key) {
                    doc.extra.insert(key, value);
                } else {
                    hooks.insert(key, value);
                }
            }
            self.read_hooks(hooks, "", doc);
            return;
        }
        doc.hooks_index = top.len();
        for (key, value) in top {
            if key != "hooks" {
                doc.extra.insert(key, value);
                continue;
            }
            doc.hooks_index = doc.extra.len();
            match value {
                Value::Object(hooks) => self.read_hooks(hooks, "/hooks", doc),
                other => {
                    self.error(
                        "/hooks",
                        format!(
                            "`hooks` must be an object of event names, found {}",
                            json_type(&other)
                        ),
                    );
                    doc.extra_hooks.insert(String::new(), other);
                }
            }
        }
        // Two agents may share a key (`disableAllHooks`): one error each.
        let mut checked = Vec::new();
        for switch in Dialect::all()
            .iter()
            .filter_map(|d| d.def().kill_switch.as_ref())
        {
            if checked.contains(&switch.pointer()) {
                continue;
            }
            checked.push(switch.pointer());
            if let Some(Err(_)) = switch.flag_in(doc) {
                self.error(
                    &switch.pointer(),
                    format!("`{}` must be true or false", switch.name()),
                );
            }
        }
        // Asked of a file that holds hooks: a settings file holding only hookx's switch
        // (Copilot's `disabledHooks`) declares no version, and Copilot asks for none.
        if let Some(version) = spec.version.filter(|_| !doc.rules.is_empty()) {
            let display = self.dialect.def().display;
            match doc.extra.get("version") {
                None => self.warn(
                    "",
                    format!("no `version`; {display} files declare `\"version\": {version}`"),
                ),
                Some(v) if v != &Value::from(version) => self.warn(
                    "/version",
                    format!("unknown version {v}; hookx reads version {version}"),
                ),
                _ => {}
            }
        }
    }

    /// A file whose `hooks` is a list of rules ([`RuleList`]): each rule's handler object and
    /// its handler keys on the rule are read as one flat handler; the rule's other keys
    /// (`name`, `description`, `enabled`) are kept on the rule. A file in one of the agent's
    /// older forms ([`OlderForms`], known by its shape) is read into the same rules.
    fn read_rule_list(&mut self, list: &RuleList, top: Map<String, Value>, doc: &mut Document) {
        if let Some(older) = list.older {
            if top.contains_key(older.single_when) && !top.contains_key("hooks") {
                return self.read_single_rule(list, older, top, doc);
            }
            if top.get("hooks").is_some_and(Value::is_object) {
                return self.read_rule_map(list, older, top, doc);
            }
            // A list rule's event key at the top of the file (`trigger`), with no `hooks`: one
            // rule in no form the agent documents (real files: `"trigger": {"type": "manual"}`
            // beside an `action` or a `prompt`), where an agent config has no such key. hookx
            // reads nothing of it, and says so where it is (attacks row 1574).
            if !top.contains_key("hooks") && top.contains_key(list.event_key) {
                self.error(
                    &format!("/{}", escape(list.event_key)),
                    format!(
                        "a {display} rule at the top of the file, outside a `hooks` list: no \
                         form {display} documents (its lists hold rules under `hooks` beside \
                         `\"version\": \"{}\"`; a one-rule file names them `{}` and `{}`); the \
                         rule is not read",
                        list.version,
                        older.single_when,
                        older.single_then,
                        display = self.dialect.def().display,
                    ),
                );
            }
            // An agent config without hooks: not a list missing its `version`.
            if !top.is_empty() && !top.contains_key("hooks") && !top.contains_key("version") {
                self.read_rule_map(list, older, top, doc);
                doc.wrapped = false;
                return;
            }
        }
        doc.hooks_index = top.len();
        let mut rules = None;
        for (key, value) in top {
            if key == "hooks" {
                doc.hooks_index = doc.extra.len();
                rules = Some(value);
            } else {
                doc.extra.insert(key, value);
            }
        }
        match doc.extra.get("version") {
            None => self.warn(
                "",
                format!(
                    "no `version`; these files declare `\"version\": \"{}\"`",
                    list.version
                ),
            ),
            Some(v) if v.as_str() != Some(list.version) => self.warn(
                "/version",
                format!(
                    "unknown version {v}; hookx reads version \"{}\"",
                    list.version
                ),
            ),
            _ => {}
        }
        let rules = match rules {
            None => return,
            Some(Value::Array(rules)) => rules,
            Some(other) => {
                self.error(
                    "/hooks",
                    format!(
                        "`hooks` must be an array of rules, found {}",
                        json_type(&other)
                    ),
                );
                doc.extra_hooks.insert(String::new(), other);
                return;
            }
        };
        for (i, entry) in rules.into_iter().enumerate() {
            let pointer = join_pointer("/hooks", &[itoa::Buffer::new().format(i)]);
            let Value::Object(entry) = entry else {
                self.error(
                    &pointer,
                    format!("a rule must be an object, found {}", json_type(&entry)),
                );
                continue;
            };
            if !entry.get(list.name_key).is_some_and(Value::is_string) {
                self.warn(
                    &pointer,
                    format!(
                        "a rule needs a `{}` string; hookx writes it back as its event and place",
                        list.name_key
                    ),
                );
            }
            let handler_at = format!("{pointer}/{}", escape(list.handler_key));
            self.read_listed_rule(list, entry, pointer, handler_at, doc);
        }
    }

    /// One rule of a list, `entry` in the list's own keys; its handler is at `handler_at`.
    fn read_listed_rule(
        &mut self,
        list: &RuleList,
        mut entry: Map<String, Value>,
        pointer: String,
        handler_at: String,
        doc: &mut Document,
    ) {
        let event_at = format!("{pointer}/{}", escape(list.event_key));
        let (event, flavor) = match entry.remove(list.event_key) {
            Some(Value::String(name)) if list.other_events.contains(&name.as_str()) => {
                (EventKind::Other(name), self.dialect.default_flavor())
            }
            Some(Value::String(name)) => self.event(&name, &event_at),
            Some(other) => {
                self.error(
                    &event_at,
                    format!(
                        "`{}` must be a string, found {}",
                        list.event_key,
                        json_type(&other)
                    ),
                );
                return;
            }
            None => {
                self.error(&pointer, format!("a rule needs a `{}`", list.event_key));
                return;
            }
        };
        let matcher = self.matcher(&mut entry, &pointer);
        if let Some(enabled) = entry.get(list.enabled_key)
            && !enabled.is_boolean()
        {
            self.error(
                &format!("{pointer}/{}", list.enabled_key),
                format!("`{}` must be true or false", list.enabled_key),
            );
        }
        let mut fields = match entry.remove(list.handler_key) {
            Some(Value::Object(fields)) => fields,
            Some(other) => {
                self.error(
                    &handler_at,
                    format!(
                        "`{}` must be an object, found {}",
                        list.handler_key,
                        json_type(&other)
                    ),
                );
                return;
            }
            None => {
                self.error(&pointer, format!("a rule needs an `{}`", list.handler_key));
                return;
            }
        };
        for key in list.handler_keys_on_rule {
            if let Some(value) = entry.remove(*key) {
                fields.insert(key.to_string(), value);
            }
        }
        let Some(handler) = self.handler(fields, &handler_at) else {
            return;
        };
        doc.rules.push(Rule {
            event,
            flavor,
            matcher,
            handlers: vec![handler],
            shape: RuleShape::Flat,
            extra: entry,
            origin: Origin {
                file: self.src.path.clone(),
                pointer,
            },
        });
    }

    /// The one-rule form (`{name, when: {type, tools?, …}, then: {type, command | prompt}}`):
    /// its trigger and action types mapped to the list's, its tools the matcher, the trigger's
    /// other keys (`patterns`) kept on the rule under the trigger's key. The file's `version`
    /// is the rule's own, not a schema's: kept beside the rule.
    fn read_single_rule(
        &mut self,
        list: &RuleList,
        older: &OlderForms,
        mut top: Map<String, Value>,
        doc: &mut Document,
    ) {
        doc.kind = older.single_kind;
        doc.hooks_index = 0;
        let when_at = format!("/{}", escape(older.single_when));
        let then_at = format!("/{}", escape(older.single_then));
        let Some(Value::Object(mut when)) = top.remove(older.single_when) else {
            self.error(
                &when_at,
                format!("`{}` must be an object", older.single_when),
            );
            return;
        };
        let type_at = format!("{when_at}/{}", escape(older.single_type));
        let trigger = match when.remove(older.single_type) {
            Some(Value::String(name)) => match older.single_trigger(&name) {
                Some(trigger) => trigger,
                None => {
                    self.error(
                        &type_at,
                        format!(
                            "unknown {} trigger `{name}`; the rule is not read",
                            self.dialect.def().display
                        ),
                    );
                    return;
                }
            },
            _ => {
                self.error(
                    &type_at,
                    format!("a rule needs a `{}` string", older.single_type),
                );
                return;
            }
        };
        // Its other keys (`name`, the hook's own `version`, …) are the rule's: a list written
        // from it says the list's version.
        let mut entry = top;
        entry.insert(list.event_key.into(), Value::String(trigger.into()));
        match when.remove(older.single_tools) {
            None => {}
            Some(Value::Array(tools)) if tools.iter().all(Value::is_string) => {
                let names: Vec<&str> = tools.iter().filter_map(Value::as_str).collect();
                if !names.is_empty() && !names.contains(&"*") {
                    entry.insert("matcher".into(), Value::String(names.join("|")));
                }
            }
            Some(other) => {
                self.error(
                    &format!("{when_at}/{}", escape(older.single_tools)),
                    format!(
                        "`{}` must be a list of tool names, found {}",
                        older.single_tools,
                        json_type(&other)
                    ),
                );
                return;
            }
        }
        // The trigger's other keys (`patterns`, `excludePatterns`) stay with the rule, under
        // the trigger's key: a list has no place for them (`convert` says so).
        if !when.is_empty() {
            entry.insert(older.single_when.into(), Value::Object(when));
        }
        let mut then = match entry.remove(older.single_then) {
            Some(Value::Object(then)) => then,
            _ => {
                self.error(
                    &then_at,
                    format!("`{}` must be an object", older.single_then),
                );
                return;
            }
        };
        let action_at = format!("{then_at}/{}", escape(older.single_type));
        match then.remove(older.single_type) {
            Some(Value::String(name)) => match older.single_action(&name) {
                Some(kind) => {
                    then.insert("type".into(), Value::String(kind.into()));
                }
                None => {
                    self.error(
                        &action_at,
                        format!(
                            "unknown {} action `{name}`; the rule is not read",
                            self.dialect.def().display
                        ),
                    );
                    return;
                }
            },
            _ => {
                self.error(
                    &action_at,
                    format!("an action needs a `{}` string", older.single_type),
                );
                return;
            }
        }
        entry.insert(list.handler_key.into(), Value::Object(then));
        self.read_listed_rule(list, entry, String::new(), then_at, doc);
    }

    /// The map form (`{"hooks": {event: [{matcher?, command, timeout_ms?, …}]}}` among an agent
    /// config's other keys, which are kept): each entry one rule, its timeout in seconds.
    fn read_rule_map(
        &mut self,
        list: &RuleList,
        older: &OlderForms,
        top: Map<String, Value>,
        doc: &mut Document,
    ) {
        doc.kind = older.map_kind;
        doc.hooks_index = top.len();
        let mut hooks = Map::new();
        for (key, value) in top {
            match (key.as_str(), value) {
                ("hooks", Value::Object(map)) => {
                    doc.hooks_index = doc.extra.len();
                    hooks = map;
                }
                (_, value) => {
                    doc.extra.insert(key, value);
                }
            }
        }
        for (name, entries) in hooks {
            let event_at = join_pointer("/hooks", &[&name]);
            let Some(trigger) = older.map_event(&name) else {
                self.error(
                    &event_at,
                    format!(
                        "unknown {} event `{name}`; its hooks are not read",
                        self.dialect.def().display
                    ),
                );
                continue;
            };
            let Value::Array(entries) = entries else {
                self.error(
                    &event_at,
                    format!(
                        "`{name}` must be an array of hooks, found {}",
                        json_type(&entries)
                    ),
                );
                continue;
            };
            for (i, entry) in entries.into_iter().enumerate() {
                let pointer = join_pointer(&event_at, &[itoa::Buffer::new().format(i)]);
                let Value::Object(mut fields) = entry else {
                    self.error(
                        &pointer,
                        format!("a hook must be an object, found {}", json_type(&entry)),
                    );
                    continue;
                };
                let mut rule = Map::new();
                rule.insert(list.event_key.into(), Value::String(trigger.into()));
                if let Some(matcher) = fields.remove("matcher") {
                    rule.insert("matcher".into(), matcher);
                }
                if let Some(ms) = fields.remove(older.map_timeout_ms) {
                    let at = join_pointer(&pointer, &[older.map_timeout_ms]);
                    match ms.as_u64() {
                        Some(ms) => {
                            let secs = ms.div_ceil(1000);
                            if secs * 1000 != ms {
                                self.warn(
                                    &at,
                                    format!(
                                        "{ms} ms is read as {secs} s: hookx counts whole seconds"
                                    ),
                                );
                            }
                            fields.insert("timeout".into(), Value::from(secs));
                        }
                        None => self.error(
                            &at,
                            format!(
                                "`{}` must be a whole number of milliseconds",
                                older.map_timeout_ms
                            ),
                        ),
                    }
                }
                fields
                    .entry("type")
                    .or_insert_with(|| Value::String("command".into()));
                rule.insert(list.handler_key.into(), Value::Object(fields));
                self.read_listed_rule(list, rule, pointer.clone(), pointer, doc);
            }
        }
    }

    fn read_hooks(&mut self, hooks: Map<String, Value>, base: &str, doc: &mut Document) {
        let documents = &self.dialect.config().documents;
        // Room for every rule at once: a 10 000-rule file's rules are megabytes, and each
        // doubling copied them into new pages.
        doc.rules.reserve(
            hooks
                .values()
                .filter_map(Value::as_array)
                .map(Vec::len)
                .sum(),
        );
        for (key, value) in hooks {
            if documents.is_hook_setting(doc.kind, &key) {
                doc.extra_hooks.insert(key, value);
                continue;
            }
            let pointer = format!("{base}/{}", escape(&key));
            // A setting beside the events (Droid's `hooksDisabled`): kept, not an event.
            if !value.is_array() && self.dialect.config().kept_keys.contains(&key.as_str()) {
                doc.extra_hooks.insert(key, value);
                continue;
            }
            let (event, flavor) = self.event(&key, &pointer);
            let Value::Array(entries) = value else {
                self.error(
                    &pointer,
                    format!(
                        "the `{key}` event must hold an array, found {}",
                        json_type(&value)
                    ),
                );
                doc.extra_hooks.insert(key, value);
                continue;
            };
            if entries.is_empty() {
                self.warn(&pointer, format!("the `{key}` event has no hooks"));
                doc.extra_hooks.insert(key, Value::Array(entries));
                continue;
            }
            for (i, entry) in entries.into_iter().enumerate() {
                if self.placeholders && entry.is_null() {
                    continue;
                }
                let pointer = join_pointer(&pointer, &[itoa::Buffer::new().format(i)]);
                if let Some(rule) = self.rule(entry, &event, flavor, pointer) {
                    doc.rules.push(rule);
                }
            }
        }
    }

    /// The event a key names, and the flavour its rules are written in.
    fn event(&mut self, key: &str, pointer: &str) -> (EventKind, Flavor) {
        if let Some(found) = event_of(self.dialect, key) {
            return found;
        }
        let (event, flavor) = key_event(self.dialect, key);
        if self.dialect.config().other_events.contains(&key) {
            return (event, flavor);
        }
        let mut message = match event {
            // A name other agents fire (Gemini's `UserPromptSubmit`): this one never does.
            EventKind::Other(_) if !matches!(EventKind::from_name(key), EventKind::Other(_)) => {
                format!(
                    "{} never fires `{key}` (it is not one of its events): these hooks never run; kept as written, and not converted to an agent that fires it",
                    self.dialect.def().display
                )
            }
            _ => format!(
                "unknown {} event `{key}`; it is kept as written",
                self.dialect
            ),
        };
        if let Some(close) = did_you_mean(key, self.dialect) {
            message = format!("{message} (did you mean `{close}`?)");
        }
        self.warn(pointer, message);
        (event, flavor)
    }

    /// The rule's `matcher`, taken out of its fields; not a string is an error (no matcher).
    fn matcher(&mut self, entry: &mut Map<String, Value>, pointer: &str) -> Option<String> {
        match entry.remove("matcher") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(other) => {
                self.error(
                    &format!("{pointer}/matcher"),
                    format!("`matcher` must be a string, found {}", json_type(&other)),
                );
                None
            }
        }
    }

    fn rule(
        &mut self,
        entry: Value,
        event: &EventKind,
        flavor: Flavor,
        owned_pointer: String,
    ) -> Option<Rule> {
        let pointer = owned_pointer.as_str();
        let Value::Object(mut entry) = entry else {
            self.error(
                pointer,
                format!("expected an object, found {}", json_type(&entry)),
            );
            return None;
        };
        let matcher = self.matcher(&mut entry, pointer);
        let grouped = entry.contains_key("hooks") || !self.dialect.config().flat_handlers;
        if !grouped {
            let handler = self.handler(entry, &pointer)?;
            let origin = Origin {
                file: self.src.path.clone(),
                pointer: owned_pointer,
            };
            return Some(Rule {
                event: event.clone(),
                flavor,
                matcher,
                handlers: vec![handler],
                shape: RuleShape::Flat,
                extra: Map::new(),
                origin,
            });
        }
        let handlers = match entry.remove("hooks") {
            Some(Value::Array(list)) => {
                // Sized up front: collecting a filtered list reserves room for four handlers,
                // and a rule has one (a 10 000-rule file: 3 MB of empty room).
                let mut handlers = Vec::with_capacity(list.len());
                for (i, h) in list.into_iter().enumerate() {
                    let at = HandlerAt {
                        rule: pointer,
                        index: Some(i),
                    };
                    match h {
                        Value::Object(h) => handlers.extend(self.handler(h, &at)),
                        other => self.error(
                            &at.to_string(),
                            format!("a handler must be an object, found {}", json_type(&other)),
                        ),
                    }
                }
                handlers
            }
            Some(other) => {
                self.error(
                    &format!("{pointer}/hooks"),
                    format!(
                        "`hooks` must be an array of handlers, found {}",
                        json_type(&other)
                    ),
                );
                return None;
            }
            None => {
                self.error(pointer, "a rule needs a `hooks` array of handlers");
                return None;
            }
        };
        let origin = Origin {
            file: self.src.path.clone(),
            pointer: owned_pointer,
        };
        Some(Rule {
            event: event.clone(),
            flavor,
            matcher,
            handlers,
            shape: RuleShape::Group,
            // An emptied map still holds its room (a 10 000-rule file: 2.8 MB): dropped, the
            // next rules' maps are made in it.
            extra: if entry.is_empty() { Map::new() } else { entry },
            origin,
        })
    }

    /// A handler from its fields; `pointer` is written out only for a diagnostic (most
    /// handlers have none, and making it was a string per handler).
    fn handler(
        &mut self,
        fields: Map<String, Value>,
        pointer: &dyn std::fmt::Display,
    ) -> Option<Handler> {
        let spec = self.dialect.config();
        let mut read = HandlerFields {
            command_typed: spec
                .key(HandlerField::Type)
                .and_then(|key| fields.get(key))
                .and_then(Value::as_str)
                .is_none_or(|t| t == "command"),
            ..HandlerFields::default()
        };
        // A command key with a value of the wrong type is already an error of its own.
        let command_key_given = fields.keys().any(|k| {
            matches!(
                spec.field(k),
                Some(
                    HandlerField::Command
                        | HandlerField::Bash
                        | HandlerField::PowerShell
                        | HandlerField::Windows
                        | HandlerField::Linux
                        | HandlerField::Osx
                )
            )
        });
        for (key, value) in fields {
            // hookx's provenance record ([`super::MARKER`]) is kept among the unknown fields:
            // a conversion reads it, the same dialect writes it back.
            let Some(field) = spec.field(&key) else {
                read.extra.insert(key, value);
                continue;
            };
            self.handler_field(&mut read, field, key, value, pointer);
        }
        let kind = self.handler_kind(
            read.handler_type,
            read.command,
            read.prompt,
            command_key_given,
            pointer,
        )?;
        Some(Handler {
            kind,
            timeout: read.timeout,
            status_message: read.status_message,
            once: read.once,
            extra: read.extra,
        })
    }

    /// One known field of a handler, read into `read`; a value of the wrong type is an error.
    fn handler_field(
        &mut self,
        read: &mut HandlerFields,
        field: HandlerField,
        key: String,
        value: Value,
        pointer: &dyn std::fmt::Display,
    ) {
        let spec = self.dialect.config();
        let HandlerFields {
            command_typed,
            handler_type,
            command,
            prompt,
            timeout,
            status_message,
            once,
            extra,
        } = read;
        // Built only for a diagnostic: most handlers have none.
        let at = || format!("{pointer}/{}", escape(&key));
        // An alias of a field already read (Copilot `timeout` beside `timeoutSec`) is kept
        // verbatim rather than overriding it.
        let string = |r: &mut Self, value: Value| match value {
            Value::String(s) => Some(s),
            other => {
                r.error(
                    &at(),
                    format!("`{key}` must be a string, found {}", json_type(&other)),
                );
                None
            }
        };
        let boolean = |r: &mut Self, value: &Value| match value {
            Value::Bool(b) => Some(*b),
            other => {
                r.error(
                    &at(),
                    format!("`{key}` must be true or false, found {}", json_type(other)),
                );
                None
            }
        };
        // A timeout the agent reads from a string: the number it spells.
        let value = match (&value, field) {
            (Value::String(s), HandlerField::Timeout) if spec.timeout_numeric_strings => {
                js_number(s)
                    .filter(|n| n.is_finite())
                    .and_then(
                        |n| match n.fract() == 0.0 && n >= 0.0 && n < u64::MAX as f64 {
                            true => Some(Value::from(n as u64)),
                            false => serde_json::Number::from_f64(n).map(Value::Number),
                        },
                    )
                    .unwrap_or(value)
            }
            _ => value,
        };
        match field {
            HandlerField::Type => *handler_type = string(self, value),
            HandlerField::Command => command.command = string(self, value),
            HandlerField::Bash => command.bash = string(self, value),
            HandlerField::PowerShell => command.powershell = string(self, value),
            HandlerField::Windows => command.windows = string(self, value),
            HandlerField::Linux => command.linux = string(self, value),
            HandlerField::Osx => command.osx = string(self, value),
            HandlerField::Cwd => command.cwd = string(self, value),
            HandlerField::Prompt => prompt.prompt = string(self, value).unwrap_or_default(),
            HandlerField::Model => prompt.model = string(self, value),
            HandlerField::StatusMessage => *status_message = string(self, value),
            HandlerField::Async => command.is_async = boolean(self, &value),
            HandlerField::Once => *once = boolean(self, &value),
            HandlerField::Env => match value {
                Value::Object(env) => {
                    for (name, v) in &env {
                        if !v.is_string() {
                            self.error(
                                &format!("{}/{}", at(), escape(name)),
                                format!("env value `{name}` must be a string"),
                            );
                        }
                    }
                    command.env = Some(env);
                }
                other => self.error(
                    &at(),
                    format!(
                        "`env` must be an object of strings, found {}",
                        json_type(&other)
                    ),
                ),
            },
            HandlerField::Timeout if timeout.is_some() => {
                extra.insert(key, value);
            }
            HandlerField::Timeout
                if spec
                    .timeout_unit
                    .reads_millis(value.as_f64(), *command_typed) =>
            {
                match value.as_f64() {
                    Some(ms) if ms > 0.0 => {
                        self.past_timer(&at(), &key, ms);
                        let seconds = (ms / 1000.0).ceil();
                        if seconds * 1000.0 != ms {
                            self.warn(
                                &at(),
                                format!(
                                    "`{key}` is {ms} ms; hookx runs hooks with whole seconds and rounds it up to {seconds} s"
                                ),
                            );
                        }
                        *timeout = Some(seconds as u64);
                    }
                    _ => self.error(
                        &at(),
                        format!("`{key}` must be a positive number of milliseconds, found {value}"),
                    ),
                }
            }
            HandlerField::Timeout => match value.as_u64() {
                Some(seconds) => {
                    self.past_timer(&at(), &key, seconds as f64 * 1000.0);
                    *timeout = Some(seconds);
                }
                None => match value.as_f64() {
                    Some(seconds) if seconds > 0.0 => {
                        self.past_timer(&at(), &key, seconds * 1000.0);
                        self.warn(
                            &at(),
                            format!("`{key}` is fractional; hookx rounds it up to whole seconds"),
                        );
                        *timeout = Some(seconds.ceil() as u64);
                    }
                    _ => {
                        // The agent's own reading of it, where it has one.
                        let skipped = match spec.skips_entry_without_positive_timeout {
                            true => format!(
                                "; {} does not load this entry (the rest of the file runs)",
                                self.dialect.def().display
                            ),
                            false => String::new(),
                        };
                        self.error(
                            &at(),
                            format!(
                                "`{key}` must be a positive number of seconds, found {value}{skipped}"
                            ),
                        )
                    }
                },
            },
        }
    }

    /// A timeout of `ms` milliseconds past what the agent's hook timer holds
    /// ([`crate::tables::ConfigSpec::timer_limit_ms`]): the agent ends the hook at once and goes
    /// on with the call, so a guard never denies there (attacks row 1681).
    fn past_timer(&mut self, at: &str, key: &str, ms: f64) {
        let Some(limit) = self.dialect.config().timer_limit_ms else {
            return;
        };
        if ms > limit as f64 {
            let agent = self.dialect.def().display;
            self.error(
                at,
                format!(
                    "`{key}` is {ms} ms, longer than the {limit} ms {agent}'s timer holds: {agent} \
                     ends the hook as soon as it starts and goes on with the call (a deny is \
                     lost); write at most {limit} ms"
                ),
            );
        }
    }

    /// What kind of handler the fields make: its `type`, or the one implied by what it holds
    /// (a command, else a prompt); `None` for a type the dialect does not have.
    fn handler_kind(
        &mut self,
        handler_type: Option<String>,
        command: Command,
        prompt: PromptSpec,
        command_key_given: bool,
        pointer: &dyn std::fmt::Display,
    ) -> Option<HandlerKind> {
        let spec = self.dialect.config();
        let has_command = command.command.is_some()
            || command.bash.is_some()
            || command.powershell.is_some()
            || command.windows.is_some()
            || command.linux.is_some()
            || command.osx.is_some();
        let type_name_written =
            handler_type
                .as_deref()
                .unwrap_or(if has_command || prompt.prompt.is_empty() {
                    "command"
                } else {
                    "prompt"
                });
        if handler_type.is_none() && spec.skips_entry_without_type {
            // Its agent loads the rest of the file without it (attacks row 489).
            self.error(
                &pointer.to_string(),
                format!(
                    "handler has no `type`; {} does not load this entry (the rest of the file \
                     runs), hookx reads it as `{type_name_written}`",
                    self.dialect.def().display
                ),
            );
        } else if handler_type.is_none() && spec.implied_type != Some(type_name_written) {
            self.warn(
                &pointer.to_string(),
                format!("handler has no `type`; read as `{type_name_written}`"),
            );
        }
        let kind = match type_name_written {
            "command" => {
                if !has_command && !command_key_given {
                    let keys = ["command", "bash", "powershell"]
                        .iter()
                        .filter(|k| spec.field(k).is_some())
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(" or ");
                    self.error(
                        &pointer.to_string(),
                        format!("command handler has no command ({keys})"),
                    );
                } else if spec.skips_entry_without_type && command.command.as_deref() == Some("") {
                    // Its agent loads the rest of the file without it (attacks row 489).
                    self.error(
                        &pointer.to_string(),
                        format!(
                            "`command` is empty; {} does not load this entry (the rest of the \
                             file runs)",
                            self.dialect.def().display
                        ),
                    );
                }
                HandlerKind::Command(command)
            }
            "prompt" | "agent" if spec.key(HandlerField::Prompt).is_none() => {
                self.error(
                    &format!("{pointer}/type"),
                    format!(
                        "{} has no `{type_name_written}` handlers; its handlers run a `command`",
                        self.dialect
                    ),
                );
                return None;
            }
            "prompt" | "agent" => {
                if prompt.prompt.is_empty() {
                    self.error(
                        &pointer.to_string(),
                        format!("{type_name_written} handler has no `prompt`"),
                    );
                }
                if type_name_written == "prompt" {
                    HandlerKind::Prompt(prompt)
                } else {
                    HandlerKind::Agent(prompt)
                }
            }
            other => match self
                .dialect
                .default_flavor()
                .tables()
                .handler_types
                .iter()
                .find(|t| **t == other)
            {
                // Another type the dialect has (Claude `http`, `mcp_tool`): kept as written.
                Some(type_name) => HandlerKind::Service(ServiceSpec { type_name }),
                None => {
                    self.error(
                        &format!("{pointer}/type"),
                        format!("unknown handler type `{other}`"),
                    );
                    return None;
                }
            },
        };
        Some(kind)
    }
}

/// The event a key of `dialect` names, and the flavour its rules are written in. An unknown key
/// is kept as an event of its own name; Copilot's casing still decides its flavour.
pub(super) fn key_event(dialect: Dialect, key: &str) -> (EventKind, Flavor) {
    event_of(dialect, key).unwrap_or_else(|| {
        (
            EventKind::Other(key.to_string()),
            dialect.flavor_of_unknown_event(key),
        )
    })
}

/// The event a key of `dialect` names, and the flavour its rules are written in; `None` for a
/// key no flavour of the dialect knows.
pub(super) fn event_of(dialect: Dialect, key: &str) -> Option<(EventKind, Flavor)> {
    dialect
        .flavors()
        .find_map(|flavor| Some((flavor.tables().event_kind(key)?, flavor)))
}

pub(crate) fn did_you_mean(key: &str, dialect: Dialect) -> Option<&'static str> {
    dialect
        .flavors()
        .flat_map(|f| f.tables().events.iter().map(|(_, n)| *n))
        .map(|name| {
            (
                strsim::jaro_winkler(&key.to_lowercase(), &name.to_lowercase()),
                name,
            )
        })
        .filter(|(score, _)| *score > 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}

/// A handler's JSON pointer: its rule's, then `/hooks/INDEX` in a group. Written out only when
/// shown (a diagnostic, a loss), which most handlers need none of: making it was a string per
/// handler.
pub struct HandlerAt<'a> {
    pub rule: &'a str,
    pub index: Option<usize>,
}

impl std::fmt::Display for HandlerAt<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.index {
            Some(i) => write!(f, "{}/hooks/{i}", self.rule),
            None => f.write_str(self.rule),
        }
    }
}

/// `base` followed by `/segment` for each segment (already escaped), without `format!`: a
/// pointer is built for every rule and handler of a file.
pub fn join_pointer(base: &str, segments: &[&str]) -> String {
    let len = segments.iter().map(|s| s.len() + 1).sum::<usize>();
    let mut out = String::with_capacity(base.len() + len);
    out.push_str(base);
    for segment in segments {
        out.push('/');
        out.push_str(segment);
    }
    out
}

/// JavaScript's `Number(s)` of a string (ECMA-262 StringToNumber), as an agent written in it
/// reads a timeout given as one ([`crate::tables::ConfigSpec::timeout_numeric_strings`]):
/// JavaScript's white space trimmed (a byte order mark among it, not U+0085), blank as 0,
/// `Infinity` with a sign or without, a decimal with a sign, fraction and exponent, and
/// `0x`/`0b`/`0o` integers without a sign. `None` where it gives `NaN`.
fn js_number(s: &str) -> Option<f64> {
    let js_space = |c: char| {
        matches!(
            c,
            '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
                ..='\u{200a}'
                    | '\u{2028}'
                    | '\u{2029}'
                    | '\u{202f}'
                    | '\u{205f}'
                    | '\u{3000}'
                    | '\u{feff}'
        )
    };
    let s = s.trim_matches(js_space);
    if s.is_empty() {
        return Some(0.0);
    }
    let radix = match s.get(..2) {
        Some("0x" | "0X") => Some(16),
        Some("0b" | "0B") => Some(2),
        Some("0o" | "0O") => Some(8),
        _ => None,
    };
    if let Some(radix) = radix {
        let digits = &s[2..];
        if digits.is_empty() {
            return None;
        }
        return digits.chars().try_fold(0.0_f64, |n, c| {
            Some(n * f64::from(radix) + f64::from(c.to_digit(radix)?))
        });
    }
    let unsigned = s.strip_prefix(['+', '-']).unwrap_or(s);
    if unsigned == "Infinity" {
        return Some(if s.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    // Rust's reader takes what JavaScript's decimal literal does, and words besides
    // (`inf`, `nan`): only digits, a point and an exponent are let through to it.
    let decimal = unsigned.chars().any(|c| c.is_ascii_digit())
        && unsigned
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'));
    s.parse::<f64>().ok().filter(|_| decimal)
}

#[cfg(test)]
mod js_number_tests {
    use super::js_number;

    #[test]
    fn reads_strings_as_javascripts_number_does() {
        let cases: [(&str, Option<f64>); 24] = [
            ("30", Some(30.0)),
            (" 30 ", Some(30.0)),
            ("\u{feff}30\u{2028}", Some(30.0)),
            ("\u{85}30", None),
            ("", Some(0.0)),
            (" \t", Some(0.0)),
            ("0x10", Some(16.0)),
            ("0X1f", Some(31.0)),
            ("0b11", Some(3.0)),
            ("0o7", Some(7.0)),
            ("-0x10", None),
            ("+0x10", None),
            ("0x", None),
            ("0x1.5", None),
            ("0b2", None),
            ("1e3", Some(1000.0)),
            (".5", Some(0.5)),
            ("5.", Some(5.0)),
            ("+5", Some(5.0)),
            ("-0", Some(-0.0)),
            ("Infinity", Some(f64::INFINITY)),
            ("infinity", None),
            ("nan", None),
            ("1_000", None),
        ];
        for (s, want) in cases {
            assert_eq!(js_number(s), want, "{s:?}");
        }
    }
}
