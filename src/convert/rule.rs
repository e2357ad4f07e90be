//! Converting one rule: its event, its matcher ([`super::rule_matcher`]), its handlers, its
//! shape (grouped or flat) and its other fields.

use super::converter::{Carry, Converter, FirstWritten};
use super::restore::recorded_flavor;
use super::{target_event, target_flavor};
use crate::config::MARKER;
use crate::config::walk::HandlerAt;
use crate::model::{EventKind, Handler};
use crate::source::SourceFile;
use crate::tables::{Document, Flavor, Rule, RuleShape, ToolScope};

impl Converter<'_> {
    /// `rule` converted to the target: none when it cannot be, several when the target splits
    /// it (by tool category, or into flat entries of one handler each).
    pub(super) fn rule(&mut self, src: &SourceFile, rule: &Rule) -> Vec<Rule> {
        // A rule of a hook folder is its own file, a script: losses name that file.
        let script;
        let src = match src.text.is_empty() && rule.origin.file != src.path {
            true => {
                script = SourceFile::new(rule.origin.file.clone(), String::new());
                &script
            }
            false => src,
        };
        let from = rule.flavor;
        let to = target_flavor(from, self.options.to);
        if from.dialect() != to.dialect() && from.dialect().config().is_disabled(rule) {
            // Converted, it would run: the target has no switch for one rule.
            self.lose(
                src,
                &rule.origin.pointer,
                &format!("the disabled rule on `{}`", rule.event),
                &format!(
                    "{} has no switch that turns one rule off; it is not converted",
                    self.options.to
                ),
            );
            return Vec::new();
        }
        // An event the source's table does not list is one its agent never fires (Gemini's
        // `UserPromptSubmit`, Droid's `PermissionRequest`): the rule never ran there, and
        // converted to an agent that fires it, it would start running.
        if let EventKind::Other(name) = &rule.event
            && from.dialect() != to.dialect()
            && !matches!(EventKind::from_name(name), EventKind::Other(_))
        {
            self.lose(
                src,
                &rule.origin.pointer,
                &format!(
                    "a rule with {} handler(s) on `{name}`",
                    rule.handlers.len()
                ),
                &format!(
                    "{} never fires `{name}` (it is not one of its events), so this rule never ran; converted, it would run under {} on every `{name}`, so it is not converted",
                    from.dialect().def().display,
                    self.options.to
                ),
            );
            return Vec::new();
        }
        let event = target_event(rule, to);
        // A target whose tool events are only categories (Windsurf's `pre_run_command`) gets
        // the rule once per category it fires for.
        if from.dialect() != to.dialect()
            && event.is_tool_event()
            && to.tables().event_name(&event).is_none()
        {
            let categories: Vec<Flavor> = self
                .options
                .to
                .flavors()
                .filter(|f| {
                    f.tables().tool_scope != ToolScope::Any
                        && f.tables().event_name(&event).is_some()
                })
                .collect();
            if !categories.is_empty() {
                return self.split_by_category(src, rule, &event, &categories);
            }
        }
        self.rule_to(src, rule, to, None)
    }

    /// `rule` converted to the flavour `to`; `category`: `to` is one of the target's tool
    /// categories, and the matcher `hookx exec --match` applies there, if any.
    pub(super) fn rule_to(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        to: Flavor,
        category: Option<Option<String>>,
    ) -> Vec<Rule> {
        let event = target_event(rule, to);
        if !self.knows_event(src, rule, &event, to) {
            return Vec::new();
        }
        // The target fires the event at another rate (Gemini's `PreCompress` before every
        // model request, attacks row 1761): converted, and said.
        if let Some(why) = to.tables().cadence_change(rule.flavor.tables(), &event) {
            let handlers = rule.handlers.len();
            self.lose(
                src,
                rule.origin.pointer.as_str(),
                &format!("how often a rule with {handlers} handler(s) on `{event}` runs"),
                &format!("{why}; it is converted as it is"),
            );
        }
        // The target's payload lacks the field the matcher reads (attacks row 1990).
        if let Some(why) = crate::dispatch::select::never_matches(to.dialect(), rule) {
            self.lose(
                src,
                rule.origin.pointer.as_str(),
                &format!("the matcher of a rule on `{event}`"),
                &format!("{why}; it is converted as it is"),
            );
        }
        let Some(matcher) = self.rule_matcher(src, rule, &event, to, category) else {
            return Vec::new();
        };
        let handlers = self.rule_handlers(src, rule, &event, to, matcher.wrap.as_deref());
        if handlers.is_empty() {
            return Vec::new();
        }
        let shape = target_shape(rule, to);
        let mut extra = self.rule_extra(src, rule, to);
        // A wrapped handler reads the payload as a route does: it asks for what the host
        // sends only when asked (Auggie: an MCP tool's server), where the rule can fire for an
        // MCP tool.
        if self.options.wrap
            && shape == RuleShape::Group
            && event.is_tool_event()
            && to
                .tables()
                .tool_matcher_for(matcher.text.as_deref(), &self.mcp_probe)
                .is_some()
        {
            for (key, value) in to.dialect().def().route.group_keys {
                let value = serde_json::from_str(value).expect("a route's group keys are JSON");
                extra.entry(*key).or_insert(value);
            }
        }
        let one = Rule {
            event,
            flavor: to,
            matcher: matcher.text,
            handlers,
            shape,
            extra,
            origin: rule.origin.clone(),
        };
        one_handler_each(one)
    }

    /// Whether `to` has the rule's event (else a loss: the rule is not converted).
    fn knows_event(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        event: &EventKind,
        to: Flavor,
    ) -> bool {
        let event_known = match event {
            EventKind::Other(_) => rule.flavor == to,
            kind => to.tables().event_name(kind).is_some(),
        };
        if !event_known {
            let handlers = rule.handlers.len();
            self.lose(
                src,
                rule.origin.pointer.as_str(),
                &format!("a rule with {handlers} handler(s) on the `{}` event", event),
                &format!(
                    "{} has no `{}` event; the rule is not converted",
                    self.options.to, event
                ),
            );
        }
        event_known
    }

    /// The rule's handlers, each converted (hookx's own routing entries left out); `wrap_match`:
    /// the matcher `hookx exec --match` applies.
    fn rule_handlers(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        event: &EventKind,
        to: Flavor,
        wrap_match: Option<&str>,
    ) -> Vec<Handler> {
        let from = rule.flavor;
        let at = rule.origin.pointer.as_str();
        let mut handlers = Vec::with_capacity(rule.handlers.len());
        for (i, handler) in rule.handlers.iter().enumerate() {
            if from.dialect() != to.dialect() && crate::route::is_hookx_handler(handler) {
                // It routes the source agent to hookx; the target gets its own route from
                // `hookx install`, and a copy would run every hook twice.
                self.routing += 1;
                continue;
            }
            let index = (rule.shape == RuleShape::Group).then_some(i);
            // A handler given back as it was first written is where it is now in the source.
            let carried = self.carry.as_ref().map(|c| c.at.clone());
            let pointer = match &carried {
                Some(here) => HandlerAt {
                    rule: here,
                    index: None,
                },
                None => HandlerAt { rule: at, index },
            };
            let Some(mut h) = self.handler(src, &pointer, handler, event, from, to, wrap_match)
            else {
                continue;
            };
            // Converted into another dialect, it says what it was; back home, nothing, but
            // written into another file of the dialect, where it is a copy too: the record
            // that makes it and its original one rule (attacks row 2061).
            if from.dialect() != to.dialect() {
                h.extra.remove(MARKER);
                if recorded_flavor(handler).is_none_or(|f| f.dialect() != to.dialect()) {
                    let record = self.record(src, rule, index, handler, from);
                    h.extra.insert(MARKER.into(), record);
                }
            } else if !h.extra.contains_key(MARKER) && self.copied_elsewhere(src, rule) {
                let record = self.record(src, rule, index, handler, from);
                h.extra.insert(MARKER.into(), record);
            }
            handlers.push(h);
        }
        handlers
    }

    /// Whether `rule` (of `src`) is written into a file other than its own
    /// ([`super::Options::copies_into`]).
    fn copied_elsewhere(&self, src: &SourceFile, rule: &Rule) -> bool {
        let Some(into) = &self.options.copies_into else {
            return false;
        };
        let file = match rule.origin.file.is_empty() {
            true => &src.path,
            false => &rule.origin.file,
        };
        real(std::path::Path::new(file)) != real(into)
    }

    /// `doc` (of `src`, in the target's dialect) with each handler of a rule written into
    /// another file ([`Converter::copied_elsewhere`]) carrying the record of where it was
    /// written, as a converted one does; `None` where the conversion is written nowhere.
    pub(super) fn copies_marked(&mut self, src: &SourceFile, doc: &Document) -> Option<Document> {
        self.options.copies_into.as_ref()?;
        let mut out = doc.clone();
        let mut routes = 0;
        for (at, (rule, original)) in out.rules.iter_mut().zip(&doc.rules).enumerate() {
            // A rule's place not counting hookx's own routes, as `pieces` counts it.
            let position = at - routes;
            if !original.handlers.is_empty()
                && original.handlers.iter().all(crate::route::is_hookx_handler)
            {
                routes += 1;
                continue;
            }
            if !self.copied_elsewhere(src, original) {
                continue;
            }
            self.position = position;
            for (i, (h, handler)) in rule.handlers.iter_mut().zip(&original.handlers).enumerate() {
                if h.extra.contains_key(MARKER) || crate::route::is_hookx_handler(handler) {
                    continue;
                }
                let index = (original.shape == RuleShape::Group).then_some(i);
                let record = self.record(src, original, index, handler, original.flavor);
                h.extra.insert(MARKER.into(), record);
            }
        }
        Some(out)
    }

    /// `rule`, a handler hookx converted given back into its own dialect (first written at
    /// `first`, at `at` in `src`), with the record of where it was first written where it is
    /// written into another file ([`Converter::copied_elsewhere`]): there it is a copy too.
    pub(super) fn restored_copy_marked(
        &mut self,
        src: &SourceFile,
        mut rule: Rule,
        first: Option<&FirstWritten>,
        at: &str,
    ) -> Rule {
        if first.is_none() || !self.copied_elsewhere(src, &rule) {
            return rule;
        }
        self.carry = Some(Carry {
            first: first.cloned(),
            at: at.to_string(),
        });
        let records: Vec<Option<serde_json::Value>> = rule
            .handlers
            .iter()
            .map(|h| {
                (!h.extra.contains_key(MARKER))
                    .then(|| self.record(src, &rule, None, h, rule.flavor))
            })
            .collect();
        self.carry = None;
        for (h, record) in rule.handlers.iter_mut().zip(records) {
            if let Some(record) = record {
                h.extra.insert(MARKER.into(), record);
            }
        }
        rule
    }

    /// The rule's other fields: kept within a dialect, else a loss.
    fn rule_extra(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        to: Flavor,
    ) -> serde_json::Map<String, serde_json::Value> {
        let mut extra = serde_json::Map::new();
        if rule.flavor.dialect() == to.dialect() {
            extra = rule.extra.clone();
            self.lose_trigger_keys(src, &rule.origin.pointer, to.dialect(), &mut extra);
        } else if !rule.extra.is_empty() {
            let keys = code_names(rule.extra.keys());
            self.lose(
                src,
                rule.origin.pointer.as_str(),
                &format!("rule field(s) {keys}"),
                &format!(
                    "{} does not know these fields; they are not carried over",
                    self.options.to
                ),
            );
        }
        extra
    }

    /// A one-rule file's trigger keys besides its type and tools (Kiro IDE's `when.patterns`,
    /// kept under the trigger's key, [`crate::tables::OlderForms::single_when`]) out of the
    /// other keys `extra` of the rule at `pointer`, written into the list of `to`, which has no
    /// place for them: a loss, said at them.
    pub(super) fn lose_trigger_keys(
        &mut self,
        src: &SourceFile,
        pointer: &str,
        to: crate::tables::Dialect,
        extra: &mut serde_json::Map<String, serde_json::Value>,
    ) {
        let Some(when) = to
            .config()
            .rule_list
            .and_then(|list| list.older)
            .map(|older| older.single_when)
        else {
            return;
        };
        let Some(serde_json::Value::Object(keys)) = extra.remove(when) else {
            return;
        };
        let Some(first) = keys.keys().next() else {
            return;
        };
        let names = code_names(keys.keys());
        self.lose(
            src,
            format!(
                "{pointer}/{}/{}",
                crate::positions::escape(when),
                crate::positions::escape(first)
            ),
            &format!("the trigger's {names}"),
            &format!(
                "a {} list rule has no such key (its file triggers match by `matcher`, a regex \
                 over the path): it would fire for every file; not carried over",
                to.def().display
            ),
        );
    }
}

/// Field names as a report writes them: `a`, `b`.
fn code_names<'a>(names: impl Iterator<Item = &'a String>) -> String {
    names
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Copilot documents flat handlers (each with its own matcher); a group there is a field
/// extension, so converted rules are written flat.
fn target_shape(rule: &Rule, to: Flavor) -> RuleShape {
    match (
        rule.flavor.dialect() == to.dialect(),
        to.dialect().config().flat_handlers,
    ) {
        (true, _) => rule.shape,
        (false, true) => RuleShape::Flat,
        (false, false) => RuleShape::Group,
    }
}

/// A flat entry holds one handler: one rule each, the others copies of it.
fn one_handler_each(mut one: Rule) -> Vec<Rule> {
    if one.shape == RuleShape::Flat && one.handlers.len() > 1 {
        let handlers = std::mem::take(&mut one.handlers);
        return handlers
            .into_iter()
            .map(|h| Rule {
                handlers: vec![h],
                ..one.clone()
            })
            .collect();
    }
    vec![one]
}

/// `path` resolved through symbolic links: the folder it names is, where the file is not yet
/// (a target written for the first time).
fn real(path: &std::path::Path) -> std::path::PathBuf {
    let path = crate::context::absolute(path);
    if let Ok(real) = std::fs::canonicalize(&path) {
        return real;
    }
    match (path.parent(), path.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .map(|d| d.join(name))
            .unwrap_or(path.clone()),
        _ => path.clone(),
    }
}
