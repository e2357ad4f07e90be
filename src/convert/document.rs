//! Converting whole documents: the rules of each input, the file-wide settings the target has
//! no place for (a disabled-handler list, a kill switch, a session environment, other
//! entries), and the notes that close a conversion.

use super::converter::Converter;
use super::converter::{Carry, FirstWritten};
use super::restore::Piece;
use super::{Conversion, Options};
use crate::model::HandlerKind;
use crate::source::SourceFile;
use crate::tables::{Document, Flavor, Rule, RuleShape};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// Converts every input in turn into one target document.
pub(super) fn convert_all(inputs: &[(&SourceFile, &Document)], options: &Options) -> Conversion {
    let mut out = Document::new(options.to, options.to.config().documents.file);
    if let Some(version) = options.to.config().version {
        out.extra.insert("version".into(), Value::from(version));
        out.hooks_index = 1;
    }
    if let Some((key, value)) = options.to.config().stamp {
        out.extra.insert(key.into(), Value::from(value));
    }
    let mut converter = Converter::new(options);
    for (src, doc) in inputs {
        let first_loss = converter.losses.len();
        // A TOML settings file is not the hook file `convert` writes: its hooks are converted.
        let documents = &doc.dialect.config().documents;
        if doc.dialect == options.to && inputs.len() == 1 && !documents.is_toml(doc.kind) {
            let marked = converter.copies_marked(src, doc);
            out = same_dialect(marked.as_ref().unwrap_or(doc), &mut converter.refreshed);
            for rule in &mut out.rules {
                converter.lose_trigger_keys(
                    src,
                    &rule.origin.pointer,
                    doc.dialect,
                    &mut rule.extra,
                );
            }
        } else {
            converter.document(src, doc, &mut out);
        }
        converter.locate_losses(src, first_loss);
    }
    let notes = converter.notes();
    Conversion {
        document: out,
        refreshed: converter.refreshed,
        losses: converter.losses,
        notes,
    }
}

/// Handlers given back into their own dialect: the groups they were in, made whole again,
/// and the order their rules were in.
#[derive(Default)]
struct Home {
    /// Each rule given back, by where it was first written, and its place in the output.
    groups: Vec<(FirstWritten, usize)>,
    /// The rule given back for each (flavour, source, rule): an index into `groups`.
    group_of: HashMap<(Flavor, String, String), usize>,
    /// Each handler given back, by where it was first written: a copy comes back once.
    seen: HashSet<(Flavor, FirstWritten)>,
    /// The last rule given back with no record of where it was written.
    last_unrecorded: Option<usize>,
}

impl Home {
    /// Adds `rule` (one handler, first written at `first`) to `rules`: into the group it was
    /// in when that is there already.
    fn add(&mut self, rules: &mut Vec<Rule>, rule: Rule, first: Option<FirstWritten>) {
        let flavor = rule.flavor;
        let Some(first) = first else {
            // No record says where it was: a group is a run of groups alike.
            let alike = self.last_unrecorded.map(|i| &rules[i]).is_some_and(|r| {
                r.shape == RuleShape::Group
                    && rule.shape == RuleShape::Group
                    && r.flavor == flavor
                    && r.event == rule.event
                    && r.matcher == rule.matcher
            });
            match (alike, self.last_unrecorded) {
                (true, Some(i)) => rules[i].handlers.extend(rule.handlers),
                _ => {
                    self.last_unrecorded = Some(rules.len());
                    rules.push(rule);
                }
            }
            return;
        };
        self.last_unrecorded = None;
        if !self.seen.insert((flavor, first.clone())) {
            // Another copy of a handler already given back (one per tool category).
            return;
        }
        let key = (flavor, first.source.clone(), first.rule.clone());
        match self.group_of.get(&key) {
            Some(&g) if first.index.is_some() => {
                let at = self.groups[g].1;
                rules[at].handlers.extend(rule.handlers);
            }
            _ => {
                self.group_of.insert(key, self.groups.len());
                self.groups.push((first, rules.len()));
                rules.push(rule);
            }
        }
    }

    /// Puts the rules given back in the order they were first written in, each in a place
    /// one of them holds: the rules of one file in their order there.
    fn reorder(&self, rules: &mut [Rule]) {
        let mut placed: Vec<(usize, usize, usize)> = Vec::new();
        let mut sources: Vec<&str> = Vec::new();
        for (first, at) in &self.groups {
            let Some(order) = first.order else {
                continue;
            };
            let source = match sources.iter().position(|s| *s == first.source) {
                Some(i) => i,
                None => {
                    sources.push(&first.source);
                    sources.len() - 1
                }
            };
            placed.push((source, order, *at));
        }
        let mut slots: Vec<usize> = placed.iter().map(|&(_, _, at)| at).collect();
        slots.sort_unstable();
        placed.sort();
        let taken: Vec<Rule> = placed.iter().map(|&(_, _, at)| rules[at].clone()).collect();
        for (slot, rule) in slots.into_iter().zip(taken) {
            rules[slot] = rule;
        }
    }
}

/// Same dialect: the document is already exact; keep its layout and other keys. A command
/// handler reading found no command in (an error of its own) is not written. A wrapped entry
/// an older hookx wrote gets today's not-installed guard (`refreshed` counts them): the guard
/// is hookx's, and an older one may keep a Stop going or refuse prompts where hookx is missing.
fn same_dialect(doc: &Document, refreshed: &mut usize) -> Document {
    let mut out = doc.clone();
    for rule in &mut out.rules {
        let flavor = rule.flavor;
        for handler in &mut rule.handlers {
            if let HandlerKind::Command(c) = &mut handler.kind {
                let mut any = false;
                for line in [&mut c.command, &mut c.bash, &mut c.linux, &mut c.osx]
                    .into_iter()
                    .flatten()
                {
                    if let Some(new) = super::wrap::refreshed_guard(line, flavor) {
                        *line = new;
                        any = true;
                    }
                }
                *refreshed += usize::from(any);
            }
        }
    }
    out.rules.retain_mut(|rule| {
        let before = rule.handlers.len();
        rule.handlers.retain(|h| match &h.kind {
            HandlerKind::Command(c) => c.unix_line().is_some() || c.windows_line().is_some(),
            _ => true,
        });
        before == 0 || !rule.handlers.is_empty()
    });
    out
}

impl Converter<'_> {
    /// A document of another dialect (or one of several merged into one file): its rules, each
    /// converted, into `out`, and a loss for each file-wide setting the target cannot carry.
    /// Hooks in a skill's or agent's frontmatter run only while that skill or agent is active;
    /// the hook file `convert` writes has no such scope: each rule would run always.
    fn lose_scope(&mut self, src: &SourceFile, doc: &Document) {
        let to = self.options.to;
        if !doc.kind.frontmatter || doc.dialect == to || to.config().documents.file.frontmatter {
            return;
        }
        for rule in doc.rules.iter().filter(|r| !r.handlers.is_empty()) {
            let native = rule
                .flavor
                .tables()
                .event_name(&rule.event)
                .unwrap_or(rule.event.name());
            self.lose(
                src,
                &rule.origin.pointer,
                &format!("the scope of the `{native}` rule in this frontmatter"),
                &format!(
                    "{} runs a skill's or agent's frontmatter hooks only while that skill or agent is active; {to} has no such scope, so converted they run in every session",
                    doc.dialect.def().display
                ),
            );
        }
    }

    fn document(&mut self, src: &SourceFile, doc: &Document, out: &mut Document) {
        self.lose_disabled_handlers(src, doc);
        self.lose_kill_switch(src, doc);
        self.lose_session_env(src, doc);
        self.lose_scope(src, doc);
        out.rules.reserve(doc.rules.len());
        // Handlers hookx converted come back as they were first written ([`super::restore`]):
        // in their own dialect, each group whole again (a group that became flat entries, or
        // one copy per tool category, is one group) and each rule in its first place; in any
        // other, converted afresh.
        let mut home = Home::default();
        for piece in self.pieces(src, doc) {
            let (rule, first, at) = match piece {
                Piece::Native(rule, position) => {
                    self.position = position;
                    out.rules.extend(self.rule(src, &rule));
                    home.last_unrecorded = None;
                    continue;
                }
                Piece::Restored {
                    rule,
                    first,
                    at,
                    position,
                } => {
                    self.position = position;
                    (rule, first, at)
                }
            };
            if rule.flavor.dialect() != self.options.to {
                self.carry = Some(Carry { first, at });
                out.rules.extend(self.rule(src, &rule));
                self.carry = None;
                home.last_unrecorded = None;
                continue;
            }
            let rule = self.restored_copy_marked(src, rule, first.as_ref(), &at);
            home.add(&mut out.rules, rule, first);
        }
        home.reorder(&mut out.rules);
        self.lose_other_entries(src, doc);
    }

    /// The source's list of disabled handlers, which no other dialect has.
    fn lose_disabled_handlers(&mut self, src: &SourceFile, doc: &Document) {
        if let Some(list) = &doc.dialect.def().disabled_handlers
            && doc.dialect != self.options.to
            && list.labels(&doc.extra).next().is_some()
        {
            let named: Vec<String> = list.labels(&doc.extra).map(|l| format!("`{l}`")).collect();
            self.lose(
                src,
                format!("/{}/{}", list.key, list.inner),
                &format!("the disabled handlers {}", named.join(", ")),
                &format!(
                    "{} has no list of disabled handlers; those of this file are converted and active",
                    self.options.to
                ),
            );
        }
    }

    /// A switch that turns every hook of the file off: it is never carried over.
    fn lose_kill_switch(&mut self, src: &SourceFile, doc: &Document) {
        let options = self.options;
        if let Some(switch) = doc.kill_switch_on() {
            let why = if doc.dialect == options.to {
                // Several inputs merged into one file of their own dialect.
                "the inputs are merged into one file, where the switch would turn off the hooks of every input; it is not carried over and the converted hooks are active".to_string()
            } else if let Some(target) = &options.to.def().kill_switch
                && target.host_wide
            {
                format!(
                    "the switch is not carried over and the converted hooks are active; `{}` in the project's settings turns off every hook {} runs",
                    target.shown(),
                    options.to
                )
            } else if let Some(target) = &options.to.def().kill_switch {
                format!(
                    "the switch is not carried over and the converted hooks are active; `{}` in the {} file turns them off",
                    target.shown(),
                    options.to
                )
            } else {
                format!(
                    "{} has no switch that turns every hook off; the converted hooks are active",
                    options.to
                )
            };
            self.lose(
                src,
                switch.pointer(),
                &format!("`{}`", switch.shown()),
                &why,
            );
        }
    }

    /// Claude's (and Qwen's) settings `env` reaches every hook command of the session; convert
    /// does not copy it, not even to an agent whose settings have one.
    fn lose_session_env(&mut self, src: &SourceFile, doc: &Document) {
        let session_env = doc.kind.session_env.filter(|key| {
            doc.extra
                .get(*key)
                .and_then(Value::as_object)
                .is_some_and(|e| !e.is_empty())
        });
        if let Some(key) = session_env
            && !doc.rules.is_empty()
            && doc.dialect != self.options.to
        {
            self.lose(
                src,
                format!("/{key}"),
                &format!("settings `{key}` (variables every hook command sees)"),
                &match self.options.to.config().documents.file.session_env {
                    Some(theirs) => format!("convert does not copy it into {}'s settings `{theirs}`, which reaches every hook there; the converted commands run without these variables", self.options.to),
                    None => format!("{} hook files have no session-wide environment; the converted commands run without these variables", self.options.to),
                },
            );
        }
    }

    /// Entries among the events that are no event with hooks (kept settings, unreadable ones).
    fn lose_other_entries(&mut self, src: &SourceFile, doc: &Document) {
        let options = self.options;
        let documents = &doc.dialect.config().documents;
        let switch_on = doc.kill_switch_on();
        for (key, value) in &doc.extra_hooks {
            // An empty event array holds nothing to lose; a kill switch is reported above;
            // TOML settings are no hooks.
            if value.as_array().is_some_and(Vec::is_empty)
                || switch_on.is_some_and(|k| k.among_events && k.key == key)
                || documents.is_hook_setting(doc.kind, key)
            {
                continue;
            }
            let why = match doc.dialect.config().kept_keys.contains(&key.as_str()) {
                true => format!("{} has no such setting; it is not carried over", options.to),
                false => "hookx could not read it as an event with hooks, so it is not converted"
                    .to_string(),
            };
            let base = if doc.wrapped { "/hooks" } else { "" };
            self.lose(
                src,
                format!("{base}/{}", crate::positions::escape(key)),
                &format!("the `{key}` entry"),
                &why,
            );
        }
    }

    /// What is worth knowing that is no loss: handlers run through `hookx exec`, and hookx
    /// routing entries left out.
    fn notes(&self) -> Vec<String> {
        let options = self.options;
        let mut notes = Vec::new();
        if self.refreshed > 0 {
            notes.push(format!(
                "{} wrapped handler(s) had the not-installed guard of an older hookx: each now has today's (it never keeps a Stop going or refuses a prompt where {} is missing)",
                self.refreshed, options.hookx
            ));
        }
        if self.wrapped > 0 {
            notes.push(format!(
                "{} handler(s) run through `{} exec`, which gives each the stdin, variables and answer rules of the agent it was written for; {} must be installed where {} runs (a wrapped entry says so and fails when it is not)",
                self.wrapped, options.hookx, options.hookx, options.to
            ));
        }
        if self.routing > 0 {
            notes.push(format!(
                "{} hookx routing entr{} (`hookx run --host …`) not converted: they route another agent to hookx; `hookx install --host {}` routes {} itself.",
                self.routing,
                if self.routing == 1 { "y" } else { "ies" },
                options.to,
                options.to
            ));
        }
        notes
    }
}
