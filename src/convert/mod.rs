//! Converting hook configs between dialects, with a report of everything the target cannot
//! express. Nothing is dropped without a [`Loss`] item.

pub mod loss;
pub mod matcher;

pub use loss::Loss;

use crate::config::walk::HandlerAt;
use crate::model::{Command, EventKind, Handler, HandlerKind};
use crate::shell::{MAX_SHELL_ARGUMENT, push_shell_quote, push_shell_quote_shortest, shell_quote};
use crate::source::SourceFile;
use crate::tables::HandlerField;
use crate::tables::{Dialect, Flavor, MatchOn, ToolScope};
use crate::tables::{Document, Rule, RuleShape};
use serde_json::Value;
use std::borrow::Cow;

/// How to convert.
#[derive(Clone, Debug)]
pub struct Options {
    pub to: Dialect,
    /// Route handlers through `hookx exec` where the target cannot express them natively (a
    /// different stdin/answer protocol, a matcher the target ignores or cannot express, an
    /// `if` filter). On by default; off, each such handler is a loss item.
    pub wrap: bool,
    /// The program name written into wrapped commands.
    pub hookx: String,
}

impl Options {
    /// Wrapped conversion to `to`, calling `hookx` from `PATH`.
    pub fn new(to: Dialect) -> Options {
        Options {
            to,
            wrap: true,
            hookx: "hookx".into(),
        }
    }
}

/// The converted document and what it could not carry.
#[derive(Debug)]
pub struct Conversion {
    pub document: Document,
    pub losses: Vec<Loss>,
    /// Things worth knowing that are not losses (e.g. handlers that will see another protocol).
    pub notes: Vec<String>,
}

/// Converts every document (each with the source it was read from) into one target document.
pub fn convert(inputs: &[(&SourceFile, &Document)], options: &Options) -> Conversion {
    // The regex checks of every tool matcher, answered in one batch rather than one worker
    // thread each.
    let jobs = inputs
        .iter()
        .flat_map(|(_, doc)| &doc.rules)
        .flat_map(|rule| {
            let (from, to) = (rule.flavor, target_flavor(rule.flavor, options.to));
            let event = target_event(rule, to);
            match (
                from.tables().matcher_target(&event),
                to.tables().matcher_target(&event),
            ) {
                (Some(on), Some(on_target)) if on == on_target => {
                    matcher::translate_jobs(rule.matcher.as_deref(), on, from, to)
                }
                _ => Vec::new(),
            }
        })
        .collect();
    crate::model::bounded::with_answers(jobs, || convert_all(inputs, options))
}

/// The flavour a rule of `from` is written in once converted to `to`.
fn target_flavor(from: Flavor, to: Dialect) -> Flavor {
    if from.dialect() == to {
        from
    } else {
        to.default_flavor()
    }
}

/// The event a rule is on once converted to `to`: an event the source's table does not know
/// but that has a canonical name (Claude's newer `PostCompact`) is that event for a target
/// that knows it.
fn target_event(rule: &Rule, to: Flavor) -> EventKind {
    match &rule.event {
        EventKind::Other(name) if rule.flavor != to => EventKind::from_name(name),
        known => known.clone(),
    }
}

fn convert_all(inputs: &[(&SourceFile, &Document)], options: &Options) -> Conversion {
    let mut out = Document::new(options.to, options.to.config().documents.file);
    if let Some(version) = options.to.config().version {
        out.extra.insert("version".into(), Value::from(version));
        out.hooks_index = 1;
    }
    let mut converter = Converter {
        options,
        losses: Vec::new(),
        wrapped: 0,
        routing: 0,
        exec_lines: Vec::new(),
        mcp_probe: crate::tables::MCP_CANONICAL.join("server", "tool"),
    };
    for (src, doc) in inputs {
        let first_loss = converter.losses.len();
        // A TOML settings file is not the hook file `convert` writes: its hooks are converted.
        let documents = &doc.dialect.config().documents;
        if doc.dialect == options.to && inputs.len() == 1 && !documents.is_toml(doc.kind) {
            // Same dialect: the document is already exact; keep its layout and other keys. A
            // command handler reading found no command in (an error of its own) is not written.
            out = (*doc).clone();
            out.rules.retain_mut(|rule| {
                let before = rule.handlers.len();
                rule.handlers.retain(|h| match &h.kind {
                    HandlerKind::Command(c) => {
                        c.unix_line().is_some() || c.windows_line().is_some()
                    }
                    _ => true,
                });
                before == 0 || !rule.handlers.is_empty()
            });
        } else {
            if let Some(list) = &doc.dialect.def().disabled_handlers
                && doc.dialect != options.to
                && list.labels(&doc.extra).next().is_some()
            {
                let named: Vec<String> =
                    list.labels(&doc.extra).map(|l| format!("`{l}`")).collect();
                converter.lose(
                    src,
                    format!("/{}/{}", list.key, list.inner),
                    &format!("the disabled handlers {}", named.join(", ")),
                    &format!(
                        "{} has no list of disabled handlers; those of this file are converted and active",
                        options.to
                    ),
                );
            }
            if let Some(switch) = doc.kill_switch_on() {
                let why = if doc.dialect == options.to {
                    // Several inputs merged into one file of their own dialect.
                    "the inputs are merged into one file, where the switch would turn off the hooks of every input; it is not carried over and the converted hooks are active".to_string()
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
                converter.lose(
                    src,
                    switch.pointer(),
                    &format!("`{}`", switch.shown()),
                    &why,
                );
            }
            // Claude's settings `env` reaches every hook command of the session.
            let session_env = doc.kind.session_env.filter(|key| {
                doc.extra
                    .get(*key)
                    .and_then(Value::as_object)
                    .is_some_and(|e| !e.is_empty())
            });
            if let Some(key) = session_env
                && !doc.rules.is_empty()
                && doc.dialect != options.to
            {
                converter.lose(
                    src,
                    format!("/{key}"),
                    &format!("settings `{key}` (variables every hook command sees)"),
                    &format!("{} hook files have no session-wide environment; the converted commands run without these variables", options.to),
                );
            }
            out.rules.reserve(doc.rules.len());
            for rule in &doc.rules {
                out.rules.extend(converter.rule(src, rule));
            }
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
                    false => {
                        "hookx could not read it as an event with hooks, so it is not converted"
                            .to_string()
                    }
                };
                let base = if doc.wrapped { "/hooks" } else { "" };
                converter.lose(
                    src,
                    format!("{base}/{}", crate::positions::escape(key)),
                    &format!("the `{key}` entry"),
                    &why,
                );
            }
        }
        converter.locate_losses(src, first_loss);
    }
    let mut notes = Vec::new();
    if converter.wrapped > 0 {
        notes.push(format!(
            "{} handler(s) run through `{} exec`, which gives each the stdin, variables and answer rules of the agent it was written for; {} must be installed where {} runs (a wrapped entry says so and fails when it is not)",
            converter.wrapped, options.hookx, options.hookx, options.to
        ));
    }
    if converter.routing > 0 {
        notes.push(format!(
            "{} hookx routing entr{} (`hookx run --host …`) not converted: they route another agent to hookx; `hookx install --host {}` routes {} itself.",
            converter.routing,
            if converter.routing == 1 { "y" } else { "ies" },
            options.to,
            options.to
        ));
    }
    Conversion {
        document: out,
        losses: converter.losses,
        notes,
    }
}

/// How a handler is routed through `hookx exec` (the default; `--no-wrap` turns it off).
struct Wrap<'a> {
    /// The source matcher, when the target cannot express it: `exec --match` applies it.
    matcher: Option<&'a str>,
    timeout: u64,
    /// A Claude `if` permission-rule filter (`Bash(git *)`): `exec --if` applies it.
    condition: Option<String>,
}

struct Converter<'a> {
    options: &'a Options,
    losses: Vec<Loss>,
    /// Handlers written through `hookx exec`.
    wrapped: usize,
    /// hookx routing entries left out.
    routing: usize,
    /// The start of a wrapped command line (the [`not_installed_guard`] and `hookx exec` with
    /// its host, flavour and event) per event and pair of flavours, built once: it is the same
    /// for every handler of an event (building it was a sixth of a 10 000-rule conversion).
    exec_lines: Vec<((EventKind, Flavor, Flavor), String)>,
    /// An MCP tool's canonical name, which a wrapped group's matcher is tried on (made once,
    /// not per rule).
    mcp_probe: String,
}

impl Converter<'_> {
    /// Notes a loss; [`Converter::locate_losses`] finds where it is once the source is done.
    fn lose(&mut self, src: &SourceFile, pointer: impl std::fmt::Display, what: &str, why: &str) {
        // A source read without its text (a hook script) is located at its start.
        let (line, col) = match src.text.is_empty() {
            true => (1, 1),
            false => (0, 0),
        };
        self.losses.push(Loss {
            what: what.to_string(),
            why: why.to_string(),
            file: src.path.clone(),
            pointer: pointer.to_string(),
            line,
            col,
        });
    }

    /// Finds the lines and columns of the losses from `first` on that name `src`, reading its
    /// text once for all of them.
    fn locate_losses(&mut self, src: &SourceFile, first: usize) {
        let unlocated: Vec<usize> = (first..self.losses.len())
            .filter(|&i| self.losses[i].line == 0 && self.losses[i].file == src.path)
            .collect();
        if unlocated.is_empty() {
            return;
        }
        let pointers: Vec<&str> = unlocated
            .iter()
            .map(|&i| self.losses[i].pointer.as_str())
            .collect();
        let offsets = crate::config::syntax::locate_many(src, &pointers);
        let found: Vec<(usize, usize)> = unlocated
            .into_iter()
            .zip(offsets)
            .filter_map(|(i, offset)| Some((i, offset?)))
            .collect();
        let at: Vec<usize> = found.iter().map(|&(_, offset)| offset).collect();
        let line_cols = crate::positions::line_cols(&src.text, &at);
        for ((i, _), (line, col)) in found.into_iter().zip(line_cols) {
            (self.losses[i].line, self.losses[i].col) = (line, col);
        }
    }

    /// `<guard> hookx exec --host <to's dialect> --as <from> --event <event>`.
    fn exec_line(&mut self, event: &EventKind, from: Flavor, to: Flavor) -> &str {
        let at = match self
            .exec_lines
            .iter()
            .position(|((e, f, t), _)| e == event && *f == from && *t == to)
        {
            Some(at) => at,
            None => {
                let line = format!(
                    "{} {} exec --host {} --as {} --event {event}",
                    not_installed_guard(&self.options.hookx, event, to),
                    shell_quote(&self.options.hookx),
                    to.dialect(),
                    from.name(),
                );
                self.exec_lines.push(((event.clone(), from, to), line));
                self.exec_lines.len() - 1
            }
        };
        &self.exec_lines[at].1
    }

    fn rule(&mut self, src: &SourceFile, rule: &Rule) -> Vec<Rule> {
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

    /// A tool rule for a target that has an event per tool category: one rule per category
    /// the rule fires for. A category the rule fires for only in part gets the rule with its
    /// matcher applied by `hookx exec --match` (or, with `--no-wrap`, a loss: the target runs
    /// it for every tool of the category); tools it fires for that no category holds are a
    /// loss.
    fn split_by_category(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        event: &EventKind,
        categories: &[Flavor],
    ) -> Vec<Rule> {
        if rule.handlers.is_empty() {
            // Nothing to run, nothing to lose.
            return Vec::new();
        }
        let from = rule.flavor;
        let at = rule.origin.pointer.as_str();
        let text = rule.matcher.as_deref().unwrap_or("");
        let tools = RuleTools::new(rule, event);
        let fires = |ids: &[&str]| tools.fire_set(ids);
        let reads_tool_matcher = tools.reads_tool_matcher;
        // The source matcher, for `hookx exec --match`, in the source's own tool names.
        let source_matcher = match reads_tool_matcher {
            true => text.to_string(),
            false => category_matcher(from),
        };
        let mut out = Vec::new();
        let mut partial = Vec::new();
        let mut fired_any = false;
        // Each copy reports the same handler losses: they are kept once.
        let losses_before = self.losses.len();
        for &category in categories {
            let Some(fired) = tools.in_category(category) else {
                self.lose(
                    src,
                    format!("{at}/matcher"),
                    &format!("a rule with {} handler(s), matcher `{text}`", rule.handlers.len()),
                    &format!(
                        "hookx cannot tell which tools it fires for, and {} has one event per tool category; the rule is not converted",
                        self.options.to
                    ),
                );
                return Vec::new();
            };
            if fired == CategoryFire::Never {
                continue;
            }
            fired_any = true;
            let native = category.tables().event_name(event).unwrap_or(event.name());
            let whole = fired == CategoryFire::Whole;
            if !whole {
                partial.push(native);
            }
            let wrap = (!whole && self.options.wrap).then(|| source_matcher.clone());
            out.extend(self.rule_to(src, rule, category, Some(wrap)));
        }
        let mut seen = Vec::new();
        let mut i = losses_before;
        while i < self.losses.len() {
            let l = &self.losses[i];
            let key = (l.pointer.clone(), l.what.clone(), l.why.clone());
            if seen.contains(&key) {
                self.losses.remove(i);
            } else {
                seen.push(key);
                i += 1;
            }
        }
        // The tools of the source that no category holds.
        let held = |id: &str| categories.iter().any(|c| c.tables().tool_scope.admits(id));
        let others: Vec<&str> = from
            .tables()
            .tools
            .iter()
            .map(|(id, _)| *id)
            .filter(|id| !held(id))
            .collect();
        let missed: Vec<String> = fires(&others)
            .unwrap_or_default()
            .into_iter()
            .zip(&others)
            .filter(|(fired, _)| *fired)
            .map(|(_, id)| format!("`{}`", crate::protocol::payload::tool_name(from, id)))
            .collect();
        let what = || match text {
            "" => format!(
                "a rule with {} handler(s) on `{event}`",
                rule.handlers.len()
            ),
            _ => format!("matcher `{text}`"),
        };
        if !fired_any {
            let why = match missed.is_empty() {
                true => format!(
                    "it fires for no tool of any {} tool category; the rule is not converted",
                    self.options.to
                ),
                false => format!(
                    "it fires for {}, and {} has no hook event for those tools; the rule is not converted",
                    missed.join(", "),
                    self.options.to
                ),
            };
            self.lose(src, at, &what(), &why);
            return out;
        }
        if !missed.is_empty() {
            let why = format!(
                "{} has no hook event for {}: the converted hooks do not fire for those tools",
                self.options.to,
                missed.join(", ")
            );
            self.lose(src, at, &what(), &why);
        }
        if !partial.is_empty() && !self.options.wrap {
            let why = format!(
                "{} runs `{}` for every tool of its category; the rule fired for some of them only (without --no-wrap, hookx exec filters instead)",
                self.options.to,
                partial.join("`, `")
            );
            self.lose(src, at, &what(), &why);
        }
        out
    }

    /// `rule` converted to the flavour `to`; `category`: `to` is one of the target's tool
    /// categories, and the matcher `hookx exec --match` applies there, if any.
    fn rule_to(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        to: Flavor,
        category: Option<Option<String>>,
    ) -> Vec<Rule> {
        let from = rule.flavor;
        let at = rule.origin.pointer.as_str();
        let to_tables = to.tables();
        let event = target_event(rule, to);
        let event_known = match &event {
            EventKind::Other(_) => from == to,
            kind => to_tables.event_name(kind).is_some(),
        };
        if !event_known {
            let handlers = rule.handlers.len();
            self.lose(
                src,
                at,
                &format!("a rule with {handlers} handler(s) on the `{}` event", event),
                &format!(
                    "{} has no `{}` event; the rule is not converted",
                    self.options.to, event
                ),
            );
            return Vec::new();
        }
        let mut wrap_match = None;
        let matcher = match (
            from.tables().matcher_target(&event),
            to_tables.matcher_target(&event),
        ) {
            // The category is the filter; what it cannot say, `hookx exec --match` does.
            _ if category.is_some() => {
                wrap_match = category.flatten();
                None
            }
            (Some(on), Some(on_target)) if on == on_target => {
                let mut translated = matcher::translate(rule.matcher.as_deref(), on, from, to);
                if translated.fires_for_nothing {
                    let mut why = translated.problems.join("; ");
                    if !why.is_empty() {
                        why.push_str("; ");
                    }
                    why.push_str(&format!(
                        "no tool it fires for exists in {}, so the rule is not converted",
                        self.options.to
                    ));
                    self.lose(
                        src,
                        format!("{at}/matcher"),
                        &format!(
                            "a rule with {} handler(s), matcher `{}`",
                            rule.handlers.len(),
                            rule.matcher.as_deref().unwrap_or("")
                        ),
                        &why,
                    );
                    return Vec::new();
                }
                if from.dialect() != to.dialect() {
                    for value in
                        matcher::values_never_sent(rule.matcher.as_deref(), &event, from, to)
                    {
                        translated.problems.push(format!(
                            "{} never sends `{value}` for `{event}`: that part of the matcher never fires",
                            to.dialect()
                        ));
                    }
                }
                for problem in &translated.problems {
                    self.lose(
                        src,
                        format!("{at}/matcher"),
                        &format!("matcher `{}`", rule.matcher.as_deref().unwrap_or("")),
                        problem,
                    );
                }
                if self.options.wrap && !translated.problems.is_empty() {
                    wrap_match = rule.matcher.clone();
                }
                translated.text
            }
            (Some(_), _)
                if from.tables().matcher_form(&event, rule.matcher.as_deref())
                    != crate::model::MatcherForm::All =>
            {
                if self.options.wrap {
                    wrap_match = rule.matcher.clone();
                } else {
                    self.lose(src, format!("{at}/matcher"), &format!("matcher `{}` on `{}`", rule.matcher.as_deref().unwrap_or(""), event), &format!(
                        "{} does not filter `{}` events by a matcher, so the hook would fire for all of them; the matcher is dropped (without --no-wrap, hookx exec filters instead)",
                        self.options.to, event
                    ));
                }
                None
            }
            // A tool-category event (Cursor's `beforeShellExecution`) becomes a tool matcher.
            (None, target)
                if from.tables().tool_scope != ToolScope::Any && event.is_tool_event() =>
            {
                let text = category_matcher(from);
                let native = from.tables().event_name(&event).unwrap_or(event.name());
                let translated = match target {
                    Some(on @ MatchOn::ToolName) => {
                        Some(matcher::translate(Some(&text), on, from, to))
                    }
                    _ => None,
                };
                match translated {
                    Some(t) if t.fires_for_nothing => {
                        let what = format!(
                            "a rule with {} handler(s) on `{native}`",
                            rule.handlers.len()
                        );
                        let why = format!(
                            "no tool of that category exists in {}, so the rule is not converted",
                            self.options.to
                        );
                        self.lose(src, at, &what, &why);
                        return Vec::new();
                    }
                    Some(t) => {
                        for problem in &t.problems {
                            self.lose(src, at, &format!("the tool category `{text}`"), problem);
                        }
                        t.text
                    }
                    None if self.options.wrap => {
                        wrap_match = Some(text);
                        None
                    }
                    None => {
                        let what = format!("the tool category `{text}` of `{native}`");
                        let why = format!(
                            "{} does not filter `{event}` events by tool, so the hook would fire for every tool (without --no-wrap, hookx exec filters instead)",
                            self.options.to
                        );
                        self.lose(src, at, &what, &why);
                        None
                    }
                }
            }
            // The source ignores matchers here (VS Code): the hook fired for every tool, and a
            // target that reads matchers must not start filtering by a text nobody applied.
            (None, Some(_))
                if from.tables().matcher_form(&event, rule.matcher.as_deref())
                    != crate::model::MatcherForm::All =>
            {
                self.lose(
                    src,
                    format!("{at}/matcher"),
                    &format!("matcher `{}`", rule.matcher.as_deref().unwrap_or("")),
                    &format!(
                        "{} ignores matchers on `{event}`, so the hook fires for everything; the matcher is dropped so that it still does in {}",
                        from.dialect(),
                        self.options.to
                    ),
                );
                None
            }
            // Both ignore the matcher: keep its text where the target has a key (an agent
            // with no matcher anywhere, Windsurf, has none).
            _ => rule.matcher.clone().filter(|_| {
                to_tables.matcher_style == from.tables().matcher_style
                    && (from.dialect() == to.dialect()
                        || to
                            .dialect()
                            .flavors()
                            .any(|f| !f.tables().matcher_targets.is_empty()))
            }),
        };
        let mut handlers = Vec::with_capacity(rule.handlers.len());
        for (i, handler) in rule.handlers.iter().enumerate() {
            if from.dialect() != to.dialect() && crate::commands::install::is_hookx_handler(handler)
            {
                // It routes the source agent to hookx; the target gets its own route from
                // `hookx install`, and a copy would run every hook twice.
                self.routing += 1;
                continue;
            }
            let pointer = HandlerAt {
                rule: at,
                index: (rule.shape == RuleShape::Group).then_some(i),
            };
            if let Some(h) = self.handler(
                src,
                &pointer,
                handler,
                &event,
                from,
                to,
                wrap_match.as_deref(),
            ) {
                handlers.push(h);
            }
        }
        if handlers.is_empty() {
            return Vec::new();
        }
        // Copilot documents flat handlers (each with its own matcher); a group there is a
        // field extension, so converted rules are written flat.
        let shape = match (
            from.dialect() == to.dialect(),
            to.dialect().config().flat_handlers,
        ) {
            (true, _) => rule.shape,
            (false, true) => RuleShape::Flat,
            (false, false) => RuleShape::Group,
        };
        let mut extra = serde_json::Map::new();
        if from.dialect() == to.dialect() {
            extra = rule.extra.clone();
        } else if !rule.extra.is_empty() {
            let keys = rule
                .extra
                .keys()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ");
            self.lose(
                src,
                at,
                &format!("rule field(s) {keys}"),
                &format!(
                    "{} does not know these fields; they are not carried over",
                    self.options.to
                ),
            );
        }
        // A wrapped handler reads the payload as a route does: it asks for what the host
        // sends only when asked (Auggie: an MCP tool's server), where the rule can fire for an
        // MCP tool.
        if self.options.wrap
            && shape == RuleShape::Group
            && event.is_tool_event()
            && to_tables
                .tool_matcher_for(matcher.as_deref(), &self.mcp_probe)
                .is_some()
        {
            for (key, value) in to.dialect().def().route.group_keys {
                let value = serde_json::from_str(value).expect("a route's group keys are JSON");
                extra.entry(*key).or_insert(value);
            }
        }
        let mut one = Rule {
            event,
            flavor: to,
            matcher,
            handlers,
            shape,
            extra,
            origin: rule.origin.clone(),
        };
        // A flat entry holds one handler: one rule each, the others copies of it.
        if shape == RuleShape::Flat && one.handlers.len() > 1 {
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

    #[allow(clippy::too_many_arguments)]
    fn handler(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        handler: &Handler,
        event: &EventKind,
        from: Flavor,
        to: Flavor,
        wrap_match: Option<&str>,
    ) -> Option<Handler> {
        if from == to {
            return Some(handler.clone());
        }
        let target = to.dialect();
        if let HandlerKind::Service(s) = &handler.kind
            && !to.tables().handler_types.contains(&s.type_name)
        {
            let type_name = s.type_name;
            self.lose(
                src,
                at,
                &format!("`{type_name}` handler on `{event}`"),
                &format!("{target} has no {type_name} handler; it is not converted"),
            );
            return None;
        }
        let spec = target.config();
        // A service handler's fields (an `http` handler's `url`, `headers`, …) are its whole
        // definition, and a target with the same type reads them under the same names.
        let service = matches!(handler.kind, HandlerKind::Service(_));
        let keeps_extra = from.dialect() == target || service;
        let mut out = Handler {
            // A command is made below; its copy would only be dropped.
            kind: match &handler.kind {
                HandlerKind::Command(_) => HandlerKind::Command(Command::default()),
                other => other.clone(),
            },
            timeout: handler.timeout,
            status_message: handler.status_message.clone(),
            once: handler.once,
            extra: if keeps_extra {
                handler.extra.clone()
            } else {
                Default::default()
            },
        };
        // A timeout alias repeating the timeout that was read (Copilot `timeout` beside
        // `timeoutSec`) carries nothing more.
        let repeated_timeout = |key: &str, value: &Value| {
            from.dialect().config().field(key) == Some(HandlerField::Timeout)
                && value.as_u64().is_some()
                && value.as_u64() == handler.timeout
        };
        let unknown: Vec<String> = handler
            .extra
            .iter()
            .filter(|(k, v)| {
                !repeated_timeout(k, v)
                    && !from
                        .dialect()
                        .config()
                        .run_keys
                        .keys()
                        .any(|r| r == k.as_str())
            })
            .map(|(k, _)| format!("`{k}`"))
            .collect();
        if !keeps_extra && !unknown.is_empty() {
            let keys = unknown.join(", ");
            self.lose(
                src,
                at,
                &format!("handler field(s) {keys}"),
                &format!("{target} does not know these fields; they are not carried over"),
            );
        }
        match &handler.kind {
            HandlerKind::Command(command) => {
                let (command, condition) =
                    self.command_form(src, at, command, &handler.extra, from)?;
                // A wrapped handler keeps the timeout it was written with (its dialect's
                // default when it had none), whatever the wrapper's dialect defaults to.
                let wrap = self.options.wrap.then(|| Wrap {
                    matcher: wrap_match,
                    timeout: handler
                        .timeout
                        .unwrap_or_else(|| from.tables().default_timeout(&handler.kind)),
                    condition,
                });
                let command = self.command(src, at, &command, event, from, to, wrap)?;
                out.kind = HandlerKind::Command(command);
            }
            HandlerKind::Prompt(_) | HandlerKind::Agent(_) => {
                let type_name = if matches!(handler.kind, HandlerKind::Prompt(_)) {
                    "prompt"
                } else {
                    "agent"
                };
                // Claude's prompt hook asks a model for a decision; Copilot's submits text as
                // if the user typed it: same name, different meaning.
                self.lose(src, at, &format!("`{type_name}` handler on `{event}`"), &format!(
                    "{target} has no {type_name} handler with the meaning {} gives it; it is not converted",
                    from.dialect()
                ));
                return None;
            }
            HandlerKind::Service(_) => {}
        }
        // "No timeout" (`0` where the source says so) where the target cannot say it: the
        // target's default applies.
        let no_timeout = handler.timeout == Some(0)
            && from.dialect().config().zero_timeout_is_none
            && !to.dialect().config().zero_timeout_is_none;
        if no_timeout {
            out.timeout = None;
            let limit = to.tables().default_timeout(&out.kind);
            self.lose(
                src,
                field_pointer(at, from, HandlerField::Timeout),
                &format!("timeout 0 on `{event}`"),
                &format!(
                    "{} reads it as no timeout, which {target} cannot say: it is left out, and \
                     {target}'s default applies ({limit} s in hookx's table)",
                    from.dialect()
                ),
            );
        }
        // Timeouts: carry them, and write the source default where the target's differs.
        let from_default = from.tables().default_timeout(&handler.kind);
        if !no_timeout
            && out.timeout.is_none()
            && to.tables().default_timeout(&out.kind) != from_default
        {
            out.timeout = Some(from_default);
        }
        // A target without a timeout field (a hook script) runs every hook under its own fixed
        // limit, so a timeout the source set is lost unless it is that limit; wrapped, `hookx
        // exec --timeout` still ends the hook sooner, so only a longer one is.
        if spec.key(HandlerField::Timeout).is_none()
            && !no_timeout
            && let Some(asked) = handler.timeout
        {
            let limit = to.tables().default_timeout(&out.kind);
            if asked > limit || !self.options.wrap && asked != limit {
                self.lose(
                    src,
                    field_pointer(at, from, HandlerField::Timeout),
                    &format!("timeout of {asked} s on `{event}`"),
                    &format!(
                        "{target} has no per-hook timeout: it is dropped, and {target}'s own \
                         limit applies ({limit} s in hookx's table)"
                    ),
                );
            }
        }
        for (present, field, what) in [
            (
                handler.status_message.is_some(),
                HandlerField::StatusMessage,
                "`statusMessage`",
            ),
            (handler.once.is_some(), HandlerField::Once, "`once`"),
        ] {
            if present && spec.key(field).is_none() {
                self.lose(
                    src,
                    field_pointer(at, from, field),
                    what,
                    &format!("{target} has no such handler field; it is dropped"),
                );
            }
        }
        if spec.key(HandlerField::StatusMessage).is_none() {
            out.status_message = None;
        }
        if spec.key(HandlerField::Once).is_none() {
            out.once = None;
        }
        Some(out)
    }

    /// Reads the source dialect's other command-handler forms ([`crate::tables::RunKeys`]; Claude's `args`,
    /// `shell`, `if`, `onFailure`, `asyncRewake`, kept among the handler's unknown fields): the
    /// command line they amount to, and the `if` filter, which `hookx exec --if` applies. What no target can express is
    /// a loss item; a form that would change the command drops the handler.
    fn command_form<'c>(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        command: &'c Command,
        extra: &serde_json::Map<String, Value>,
        from: Flavor,
    ) -> Option<(Cow<'c, Command>, Option<String>)> {
        // Copied only when another form changes it.
        let mut command = Cow::Borrowed(command);
        let target = self.options.to;
        let keys = &from.dialect().config().run_keys;
        let get = |key: Option<&'static str>| key.and_then(|k| Some((k, extra.get(k)?)));
        if let Some((key, args)) = get(keys.exec_args) {
            let words = args.as_array().and_then(|a| {
                a.iter()
                    .map(|w| w.as_str().map(shell_quote))
                    .collect::<Option<Vec<_>>>()
            });
            let (Some(words), Some(program)) = (words, command.command.as_deref()) else {
                self.lose(
                    src,
                    format!("{at}/{key}"),
                    &format!("`{key}` that are not a list of strings"),
                    "hookx cannot tell which command they make; the handler is not converted",
                );
                return None;
            };
            // The exec form runs the program with these arguments and no shell: one quoted
            // word each, taken literally (as `hookx run` runs the exec form).
            let mut line = shell_quote(program);
            for word in words {
                line.push(' ');
                line.push_str(&word);
            }
            command.to_mut().command = Some(line);
        }
        match get(keys.shell).map(|(k, v)| (k, v.as_str())) {
            None | Some((_, Some("bash" | "sh"))) => {}
            Some((_, Some("powershell" | "pwsh"))) => {
                // A PowerShell command line: it goes where the target keeps those.
                let command = command.to_mut();
                command.powershell = command.command.take();
            }
            Some((key, other)) => {
                self.lose(
                    src,
                    format!("{at}/{key}"),
                    &format!("`{key}: {}`", other.unwrap_or("?")),
                    "hookx knows no such shell; the handler is not converted",
                );
                return None;
            }
        }
        if let Some(failure) = &keys.on_failure {
            match extra.get(failure.key).map(|v| v.as_str()) {
                None => {}
                Some(Some(value)) if value == failure.continues => {}
                Some(value) => self.lose(
                    src,
                    format!("{at}/{}", failure.key),
                    &format!("`{}: {}`", failure.key, value.unwrap_or("?")),
                    &format!(
                        "{target} applies its own rule when a hook fails; a failing command no longer counts as a block"
                    ),
                ),
            }
        }
        for &key in keys.wake {
            if extra.get(key).is_some_and(|v| v != &Value::Bool(false)) {
                self.lose(
                    src,
                    format!("{at}/{key}"),
                    &format!("`{key}`"),
                    &format!(
                        "{target} cannot wake the agent when a background hook ends; it is dropped"
                    ),
                );
            }
        }
        let condition = match get(keys.condition) {
            None => None,
            Some((_, Value::String(rule))) if self.options.wrap => Some(rule.clone()),
            Some((key, Value::String(rule))) => {
                self.lose(
                    src,
                    format!("{at}/{key}"),
                    &format!("the `{key}: {rule}` filter"),
                    &format!("{target} has no such filter, so the handler runs on every call its matcher accepts (without --no-wrap, `hookx exec --if` applies it)"),
                );
                None
            }
            Some((key, other)) => {
                self.lose(
                    src,
                    format!("{at}/{key}"),
                    &format!("`{key}: {other}`"),
                    &format!(
                        "an `{key}` filter is a permission rule string; the handler is not converted"
                    ),
                );
                return None;
            }
        };
        Some((command, condition))
    }

    #[allow(clippy::too_many_arguments)]
    fn command(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        command: &Command,
        event: &EventKind,
        from: Flavor,
        to: Flavor,
        wrap: Option<Wrap>,
    ) -> Option<Command> {
        let target = to.dialect();
        let spec = target.config();
        let unix = command
            .bash
            .as_ref()
            .or(command.linux.as_ref())
            .or(command.command.as_ref())
            .or(command.osx.as_ref());
        let windows = command.powershell.as_ref().or(command.windows.as_ref());
        let Some(unix) = unix else {
            // No command at all: reading reported it.
            windows?;
            self.lose(src, at, "PowerShell-only command handler", &format!(
                "{target} runs hooks with a POSIX shell and this handler has no bash command; it is not converted"
            ));
            return None;
        };
        let rewritten = self.rewrite_env(src, at, unix, from, to);
        // Wrapped, the handler runs through `hookx exec --as <its flavour>`, which gives it
        // its own dialect's variables: the command line stays exactly as written.
        let mut line: Cow<str> = if self.options.wrap {
            Cow::Borrowed(unix)
        } else {
            rewritten
        };
        // Every other POSIX command line that differs from the one kept is lost.
        let name = |field: HandlerField| {
            let key = from.dialect().config().key(field).unwrap_or_default();
            format!("{} (`{key}`)", field.describe())
        };
        let mut lines = [
            (HandlerField::Bash, &command.bash),
            (HandlerField::Linux, &command.linux),
            (HandlerField::Command, &command.command),
            (HandlerField::Osx, &command.osx),
        ]
        .into_iter()
        .filter_map(|(field, line)| line.as_ref().map(|line| (field, line)));
        if let Some((kept, _)) = lines.next() {
            for (field, line) in lines {
                if line != unix {
                    self.lose(
                        src,
                        field_pointer(at, from, field),
                        &format!("the {}", name(field)),
                        &format!(
                            "{target} has one command for every OS; the {} is kept",
                            name(kept)
                        ),
                    );
                }
            }
        }
        if let Some(cwd) = &command.cwd
            && spec.key(HandlerField::Cwd).is_none()
        {
            line = format!("cd {} && {line}", shell_quote(cwd)).into();
        }
        if let Some(env) = &command.env
            && spec.key(HandlerField::Env).is_none()
        {
            let mut exports = Vec::new();
            for (k, v) in env {
                let is_name = k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                    && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !is_name {
                    // `export A B=…` or `export X;rm …=…` would do something else entirely.
                    self.lose(
                        src,
                        format!("{at}/env/{}", crate::positions::escape(k)),
                        &format!("environment variable `{k}`"),
                        "it is not a shell variable name, so it cannot be exported in the command; it is dropped",
                    );
                    continue;
                }
                exports.push(format!(
                    "export {k}={};",
                    shell_quote(v.as_str().unwrap_or_default())
                ));
            }
            if !exports.is_empty() {
                line = format!("{} {line}", exports.join(" ")).into();
            }
        }
        if let Some(wrap) = wrap {
            // The host is named: an agent that sets another's variables (Copilot sets
            // CLAUDE_PROJECT_DIR) must not be taken for it. Built with pushes, not `format!`:
            // at 10 000 handlers the formatting machinery cost more than the text.
            let start = self.exec_line(event, from, to);
            let mut wrapped = String::with_capacity(start.len() + 2 * line.len() + 32);
            wrapped.push_str(start);
            wrapped.push_str(" --timeout ");
            wrapped.push_str(itoa::Buffer::new().format(wrap.timeout));
            if let Some(m) = wrap.matcher {
                wrapped.push_str(" --match ");
                push_shell_quote(&mut wrapped, m);
            }
            if let Some(rule) = &wrap.condition {
                wrapped.push_str(" --if ");
                push_shell_quote(&mut wrapped, rule);
            }
            wrapped.push_str(" -- ");
            push_shell_quote_shortest(&mut wrapped, &line);
            if wrapped.len() > MAX_SHELL_ARGUMENT {
                self.lose(
                    src,
                    at,
                    &format!("a {}-byte command", line.len()),
                    &format!(
                        "wrapped, it is {} bytes, and the host hands it to `sh -c` as one argument, which Linux refuses over 128 KiB; it is left unwrapped, so under {target} it receives {target}'s payload (move it into a script file and convert again)",
                        wrapped.len()
                    ),
                );
            } else {
                line = wrapped.into();
                self.wrapped += 1;
                let unread = crate::protocol::unreadable_answers(
                    &from.tables().protocol,
                    &to.tables().protocol,
                    event,
                );
                if !unread.is_empty() {
                    self.lose(
                        src,
                        at,
                        &format!("its answers on `{event}`: {}", unread.join(", ")),
                        &format!(
                            "{target} reads no JSON answer, only exit codes (and plain stdout as context where it says so); `hookx exec` cannot pass these on"
                        ),
                    );
                }
            }
        } else {
            self.lose(
                src,
                at,
                &format!("a command written for {}'s hook protocol", from.dialect()),
                &format!(
                    "under {target} it receives {target}'s stdin payload (other field and tool names) and its answer is read by {target}'s rules, so it may misread its input and let through what it meant to stop (convert without --no-wrap to run it through `hookx exec`)"
                ),
            );
        }
        let mut out = Command::default();
        // Where the target has keys for them, `cwd` and `env` stay (else they were prefixed).
        if spec.key(HandlerField::Cwd).is_some() {
            out.cwd = command.cwd.clone();
        }
        if spec.key(HandlerField::Env).is_some() {
            out.env = command.env.clone();
        }
        // A target with its own bash key (Copilot) carries every form; one with a Windows key
        // (VS Code) keeps the Windows line beside the one POSIX line; the others get one line.
        match target.config().key(HandlerField::Bash) {
            Some(_) => {
                out.bash = Some(line.into_owned());
                out.powershell = windows.cloned();
            }
            None if spec.key(HandlerField::Windows).is_some() => {
                out.command = Some(line.into_owned());
                out.windows = windows.cloned();
                if let (Some(ps), Some(win)) = (&command.powershell, &command.windows)
                    && ps != win
                {
                    self.lose(
                        src,
                        field_pointer(at, from, HandlerField::Windows),
                        &format!("the {}", name(HandlerField::Windows)),
                        &format!(
                            "{target} has one Windows command; the {} is kept",
                            name(HandlerField::PowerShell)
                        ),
                    );
                }
            }
            _ => {
                let kept = [
                    (HandlerField::Bash, &command.bash),
                    (HandlerField::Linux, &command.linux),
                    (HandlerField::Command, &command.command),
                ]
                .into_iter()
                .find_map(|(field, line)| line.as_ref().map(|_| field))
                .unwrap_or(HandlerField::Osx);
                for (field, line) in [
                    (HandlerField::PowerShell, &command.powershell),
                    (HandlerField::Windows, &command.windows),
                ] {
                    if line.is_some() {
                        self.lose(
                            src,
                            field_pointer(at, from, field),
                            &format!("the {}", name(field)),
                            &format!(
                                "{target} has one shell command for every OS; the {} is kept",
                                name(kept)
                            ),
                        );
                    }
                }
                out.command = Some(line.into_owned());
            }
        }
        if command.is_async == Some(true) && spec.key(HandlerField::Async).is_none() {
            self.lose(
                src,
                field_pointer(at, from, HandlerField::Async),
                "`async: true`",
                &format!("{target} cannot run a hook in the background; it runs synchronously"),
            );
        } else if spec.key(HandlerField::Async).is_some() {
            out.is_async = command.is_async;
        }
        Some(out)
    }

    /// Rewrites the source's project-directory variable to the target's, and reports other
    /// agent variables the target does not set.
    fn rewrite_env<'l>(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        line: &'l str,
        from: Flavor,
        to: Flavor,
    ) -> Cow<'l, str> {
        // Every variable renamed or reported is `$NAME` or `${NAME…}`: a line without a `$`
        // names none.
        if !line.contains('$') {
            return Cow::Borrowed(line);
        }
        let (from_spec, to_spec) = (from.dialect().config(), to.dialect().config());
        let mut line = line.to_string();
        if let Some(from_var) = from_spec.project_dir_variable {
            line = replace_variable(
                &line,
                from_var,
                to_spec.project_dir_variable.unwrap_or("PWD"),
            );
        }
        for var in from_spec.provided_env {
            // The target's own project variable (Copilot and Gemini also set Claude's) is set.
            if !to_spec.provided_env.contains(var)
                && Some(*var) != to_spec.project_dir_variable
                && references_variable(&line, var)
            {
                self.lose(
                    src,
                    at,
                    &format!("`${var}` in the command"),
                    &format!(
                        "{} does not set {var}; the command will see it empty",
                        to.dialect()
                    ),
                );
            }
        }
        Cow::Owned(line)
    }
}

/// Which tools a tool rule fires for, in canonical ids.
pub(crate) struct RuleTools<'a> {
    rule: &'a Rule,
    /// Whether its flavour filters the event by a tool matcher; else its tool scope decides.
    reads_tool_matcher: bool,
}

/// How much of a tool category a rule fires for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CategoryFire {
    Whole,
    Part,
    Never,
}

impl<'a> RuleTools<'a> {
    pub(crate) fn new(rule: &'a Rule, event: &EventKind) -> RuleTools<'a> {
        let reads_tool_matcher =
            rule.flavor.tables().matcher_target(event) == Some(MatchOn::ToolName);
        RuleTools {
            rule,
            reads_tool_matcher,
        }
    }

    /// Whether the rule fires for each of these canonical tools; `None`: its matcher cannot be
    /// evaluated.
    pub(crate) fn fire_set(&self, ids: &[&str]) -> Option<Vec<bool>> {
        let from = self.rule.flavor;
        if !self.reads_tool_matcher {
            return Some(
                ids.iter()
                    .map(|id| from.tables().tool_scope.admits(id))
                    .collect(),
            );
        }
        let names: Vec<String> = ids
            .iter()
            .map(|id| crate::protocol::payload::tool_name(from, id).into_owned())
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        matcher::fire_set(self.rule.matcher.as_deref(), from, &names)
    }

    /// How much of the tools of `category` (a flavour whose events are a tool category) the
    /// rule fires for; `None`: its matcher cannot be evaluated. MCP tools cannot all be
    /// probed: a matcher naming the MCP prefix is taken to fire for some of them.
    pub(crate) fn in_category(&self, category: Flavor) -> Option<CategoryFire> {
        let ids: Vec<&str> = match category.tables().tool_scope {
            ToolScope::Only(ids) => ids.to_vec(),
            ToolScope::Mcp => matcher::PROBE_TOOLS
                .iter()
                .copied()
                .filter(|id| crate::model::tool::is_mcp(id))
                .collect(),
            ToolScope::Any => return Some(CategoryFire::Whole),
        };
        let fired = self.fire_set(&ids)?;
        let from = self.rule.flavor;
        let names_mcp = category.tables().tool_scope == ToolScope::Mcp
            && self.reads_tool_matcher
            && self
                .rule
                .matcher
                .as_deref()
                .is_some_and(|m| m.contains(from.tables().mcp_names.prefix));
        Some(match (fired.contains(&true), fired.contains(&false)) {
            (true, false) => CategoryFire::Whole,
            (true, true) => CategoryFire::Part,
            (false, _) if names_mcp => CategoryFire::Part,
            (false, _) => CategoryFire::Never,
        })
    }
}

/// A matcher, in `flavor`'s own tool names and style, for the tools its category events fire
/// for.
fn category_matcher(flavor: Flavor) -> String {
    let t = flavor.tables();
    match t.tool_scope {
        ToolScope::Any => String::new(),
        ToolScope::Mcp => format!("{}.*", t.mcp_names.prefix),
        ToolScope::Only(ids) => {
            // One name may stand for several tools of the category (Windsurf's `write_code`).
            let mut names: Vec<&str> = Vec::new();
            for name in ids.iter().filter_map(|id| t.tool_name(id)) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            names.join("|")
        }
    }
}

/// What a wrapped entry says where hookx is not installed: what to do about it. No quote,
/// backslash or `%`, so it stands as is inside JSON, a single-quoted word and a `printf` format.
pub const NOT_INSTALLED: &str = "hookx not found: install it or convert again with --hookx PATH";

/// The start of a wrapped entry: where hookx is not installed, it prints [`NOT_INSTALLED`]
/// (stderr) and answers the host by its own protocol. On an event where the host's exit-code
/// table makes a hook a guard (exit 2 denies or blocks), the answer is a deny or block with that
/// message as the reason, written as the host reads it (Copilot's `preToolUse` ignores stderr at
/// exit 2, so its JSON answer carries the reason): a guard is never dropped silently, and the
/// agent says why. Elsewhere it exits 1, a non-blocking error the host reports. The message is
/// in the line once (a shell variable where the answer repeats it): every wrapped handler of a
/// converted file carries this guard.
pub fn not_installed_guard(hookx: &str, event: &EventKind, to: Flavor) -> String {
    use crate::tables::Exit2;
    // Where the target refuses the event at exit 2, and where it reads no exit code at all
    // but hookx fails closed (Cline's PreToolUse, refused only in JSON): a missing hookx
    // refuses.
    let p = &to.tables().protocol;
    let guards = matches!(
        p.exit2(event),
        Some(Exit2::Deny | Exit2::DenyWithoutReason | Exit2::DenyWithStdout | Exit2::Block)
    ) || (p.exit2.is_empty() && p.fail_closed.contains(event));
    let test = format!("command -v {} >/dev/null 2>&1 ||", shell_quote(hookx));
    let message = shell_quote(NOT_INSTALLED);
    if !guards {
        return format!("{test} {{ echo {message} >&2; exit 1; }};");
    }
    let event = crate::model::Event {
        kind: event.clone(),
        timestamp: None,
        tool: None,
        fields: Default::default(),
    };
    let outcome = crate::model::Outcome {
        decision: Some(crate::model::Decision::Deny),
        block: true,
        reasons: vec![NOT_INSTALLED.to_string()],
        ..Default::default()
    };
    let host = crate::protocol::encode_answer(to, &event, &outcome);
    let code = host.exit_code;
    if host.stdout.is_empty() {
        return format!("{test} {{ echo {message} >&2; exit {code}; }};");
    }
    // The answer as a `printf` format, the message's places in it taken by `%s`.
    let uses = host.stdout.matches(NOT_INSTALLED).count();
    let format = host
        .stdout
        .replace('\\', "\\\\")
        .replace('%', "%%")
        .replace(NOT_INSTALLED, "%s");
    format!(
        "{test} {{ m={message}; printf {}{}; echo \"$m\" >&2; exit {code}; }};",
        shell_quote(&format!("{format}\\n")),
        " \"$m\"".repeat(uses),
    )
}

/// The pointer of a handler field as the source dialect spells its key (the handler's own
/// pointer when the dialect has no key for it).
fn field_pointer(handler_at: &HandlerAt, from: Flavor, field: HandlerField) -> String {
    match from.handler_key(field) {
        Some(key) => format!("{handler_at}/{key}"),
        None => handler_at.to_string(),
    }
}

fn references_variable(line: &str, var: &str) -> bool {
    // Most lines never name the variable: no copy of them is made then.
    line.contains(var) && replace_variable(line, var, "\u{0}") != line
}

/// Replaces `$VAR` and `${VAR…}` (not `$VARIABLE`) by the other name, where the shell would
/// expand it: not inside single quotes, not escaped with a backslash.
fn replace_variable(line: &str, from: &str, to: &str) -> String {
    if !line.contains(from) {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let (mut single, mut double) = (false, false);
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        out.push(c);
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single => {
                if let Some((_, escaped)) = chars.next() {
                    out.push(escaped);
                }
            }
            '$' if !single => {
                let after = &line[i + 1..];
                let (braced, name_start) = match after.strip_prefix('{') {
                    Some(name) => (true, name),
                    None => (false, after),
                };
                if let Some(tail) = name_start.strip_prefix(from)
                    && !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                {
                    if braced {
                        out.push('{');
                    }
                    out.push_str(to);
                    let resume = line.len() - tail.len();
                    while chars.next_if(|(j, _)| *j < resume).is_some() {}
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_dir_variable_forms_are_renamed() {
        assert_eq!(
            replace_variable(
                r#""$CLAUDE_PROJECT_DIR"/a ${CLAUDE_PROJECT_DIR:-.}/b $CLAUDE_PROJECT_DIRX"#,
                "CLAUDE_PROJECT_DIR",
                "BRICKS_PROJECT_DIR"
            ),
            r#""$BRICKS_PROJECT_DIR"/a ${BRICKS_PROJECT_DIR:-.}/b $CLAUDE_PROJECT_DIRX"#
        );
    }

    /// The shell does not expand a variable in single quotes or after a backslash: neither
    /// does the rename.
    #[test]
    fn quoted_and_escaped_variables_are_left_alone() {
        assert_eq!(
            replace_variable(
                r#"echo '$CLAUDE_PROJECT_DIR' "it's $CLAUDE_PROJECT_DIR" \$CLAUDE_PROJECT_DIR $CLAUDE_PROJECT_DIR"#,
                "CLAUDE_PROJECT_DIR",
                "PWD"
            ),
            r#"echo '$CLAUDE_PROJECT_DIR' "it's $PWD" \$CLAUDE_PROJECT_DIR $PWD"#
        );
    }

    #[test]
    fn shell_quoting_is_one_word() {
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("plain"), "plain");
    }
}

#[cfg(test)]
mod guard_tests {
    use super::*;
    use crate::tables::Flavor;

    /// Runs a guard line in `sh` where its hookx is not installed.
    fn run_guard(line: &str) -> (i32, String, String) {
        let out = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("{line} echo ran"))
            .env("PATH", "/nonexistent")
            .output()
            .unwrap();
        let text = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
        (
            out.status.code().unwrap(),
            text(&out.stdout),
            text(&out.stderr),
        )
    }

    /// For every target flavour and every event it has: without hookx, the guard says
    /// [`NOT_INSTALLED`] once on stderr and answers exactly what hookx itself answers for a deny
    /// with that reason (the same exit code and JSON, message included), or exits 1 where
    /// exit 2 would not refuse.
    #[test]
    fn without_hookx_every_guard_answers_as_the_host_reads_a_deny() {
        let mut refusing = 0;
        for &to in Flavor::all() {
            for (kind, _) in to.tables().events {
                let hookx = "/no where/it's/hookx";
                let line = not_installed_guard(hookx, kind, to);
                assert_eq!(line.matches(NOT_INSTALLED).count(), 1, "{line}");
                let (code, stdout, stderr) = run_guard(&line);
                assert_eq!(stderr, format!("{NOT_INSTALLED}\n"), "{line}");
                let event = crate::model::Event {
                    kind: kind.clone(),
                    timestamp: None,
                    tool: None,
                    fields: Default::default(),
                };
                let deny = crate::model::Outcome {
                    decision: Some(crate::model::Decision::Deny),
                    block: true,
                    reasons: vec![NOT_INSTALLED.to_string()],
                    ..Default::default()
                };
                let host = crate::protocol::encode_answer(to, &event, &deny);
                if code == 1 && stdout.is_empty() {
                    continue;
                }
                refusing += 1;
                assert_eq!(
                    (code, stdout.trim_end()),
                    (host.exit_code, &*host.stdout),
                    "{line}"
                );
                if !stdout.is_empty() {
                    let answer: serde_json::Value = serde_json::from_str(&stdout).unwrap();
                    assert!(answer.to_string().contains(NOT_INSTALLED), "{stdout}");
                }
            }
        }
        assert!(refusing > 10, "{refusing}");
    }
}
