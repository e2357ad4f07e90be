//! Converting hook configs between dialects, with a report of everything the target cannot
//! express. Nothing is dropped without a [`Loss`] item.

pub mod loss;
pub mod matcher;

pub use loss::Loss;

use crate::config::spec::HandlerField;
use crate::dialect::{Dialect, Flavor};
use crate::model::{
    Command, Document, DocumentKind, EventKind, Handler, HandlerKind, Rule, RuleShape,
};
use crate::source::SourceFile;
use serde_json::Value;

/// How to convert.
#[derive(Clone, Debug)]
pub struct Options {
    pub to: Dialect,
    /// Route handlers through `hookx exec` where the target cannot express them natively (a
    /// different stdin/answer protocol, a matcher the target ignores or cannot express).
    pub wrap: bool,
    /// The program name written into wrapped commands.
    pub hookx: String,
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
    let kind = match options.to {
        Dialect::Claude => DocumentKind::ClaudeSettings,
        Dialect::Copilot => DocumentKind::CopilotFile,
        Dialect::Bricks => DocumentKind::BricksFile,
    };
    let mut out = Document::new(options.to, kind);
    if options.to == Dialect::Copilot {
        out.extra.insert("version".into(), Value::from(1));
        out.hooks_index = 1;
    }
    let mut converter = Converter {
        options,
        losses: Vec::new(),
        foreign_protocol: 0,
    };
    for (src, doc) in inputs {
        if doc.dialect == options.to && inputs.len() == 1 {
            // Same dialect: the document is already exact; keep its layout and other keys.
            out = (*doc).clone();
        } else {
            if doc.disable_all_hooks() {
                converter.lose(src, "/disableAllHooks", "`disableAllHooks: true`", &format!(
                    "{} has no switch that turns every hook off; the converted hooks are active",
                    options.to
                ));
            }
            for rule in &doc.rules {
                out.rules.extend(converter.rule(src, rule));
            }
            for key in doc.extra_hooks.keys() {
                converter.lose(
                    src,
                    &format!("/hooks/{key}"),
                    &format!("the `{key}` entry"),
                    "hookx could not read it as an event with hooks, so it is not converted",
                );
            }
        }
    }
    let mut notes = Vec::new();
    if converter.foreign_protocol > 0 {
        notes.push(format!(
            "{} command handler(s) were written for another agent's stdin and answer format; under {} they receive {}'s payload. Convert with --wrap to run them through `hookx exec`, which translates both ways.",
            converter.foreign_protocol, options.to, options.to
        ));
    }
    Conversion {
        document: out,
        losses: converter.losses,
        notes,
    }
}

struct Converter<'a> {
    options: &'a Options,
    losses: Vec<Loss>,
    foreign_protocol: usize,
}

impl Converter<'_> {
    fn lose(&mut self, src: &SourceFile, pointer: &str, what: &str, why: &str) {
        let offset = if src.path.ends_with(".md") {
            src.locate_yaml(pointer)
        } else {
            src.locate_json(pointer)
        };
        let (line, col) = offset.map_or((0, 0), |o| src.line_col(o));
        self.losses.push(Loss {
            what: what.to_string(),
            why: why.to_string(),
            file: src.path.clone(),
            pointer: pointer.to_string(),
            line,
            col,
        });
    }

    fn target_flavor(&self, from: Flavor) -> Flavor {
        match (from, self.options.to) {
            (Flavor::Copilot | Flavor::CopilotPascal, Dialect::Copilot) => from,
            (_, to) => to.default_flavor(),
        }
    }

    fn rule(&mut self, src: &SourceFile, rule: &Rule) -> Vec<Rule> {
        let from = rule.flavor;
        let to = self.target_flavor(from);
        let at = rule.origin.pointer.as_str();
        let to_tables = to.tables();
        let event_known = match &rule.event {
            EventKind::Other(_) => from == to,
            kind => to_tables.event_name(kind).is_some(),
        };
        if !event_known {
            let handlers = rule.handlers.len();
            self.lose(
                src,
                at,
                &format!(
                    "a rule with {handlers} handler(s) on the `{}` event",
                    rule.event
                ),
                &format!(
                    "{} has no `{}` event; the rule is not converted",
                    self.options.to, rule.event
                ),
            );
            return Vec::new();
        }
        let mut wrap_match = None;
        let matcher = match (
            from.tables().matcher_target(&rule.event),
            to_tables.matcher_target(&rule.event),
        ) {
            (Some(on), Some(on_target)) if on == on_target => {
                let translated = matcher::translate(rule.matcher.as_deref(), on, from, to);
                for problem in &translated.problems {
                    self.lose(
                        src,
                        &format!("{at}/matcher"),
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
                if from.tables().matcher_style.form(rule.matcher.as_deref())
                    != crate::model::MatcherForm::All =>
            {
                if self.options.wrap {
                    wrap_match = rule.matcher.clone();
                } else {
                    self.lose(src, &format!("{at}/matcher"), &format!("matcher `{}` on `{}`", rule.matcher.as_deref().unwrap_or(""), rule.event), &format!(
                        "{} does not filter `{}` events by a matcher, so the hook would fire for all of them; the matcher is dropped (use --wrap to filter through hookx exec)",
                        self.options.to, rule.event
                    ));
                }
                None
            }
            // The source ignored the matcher too: keep its text where the target has a key.
            _ => rule
                .matcher
                .clone()
                .filter(|_| to_tables.matcher_style == from.tables().matcher_style),
        };
        let mut handlers = Vec::new();
        for (i, handler) in rule.handlers.iter().enumerate() {
            let pointer = match rule.shape {
                RuleShape::Group => format!("{at}/hooks/{i}"),
                RuleShape::Flat => at.to_string(),
            };
            if let Some(h) = self.handler(
                src,
                &pointer,
                handler,
                &rule.event,
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
        let make = |handlers: Vec<Handler>| Rule {
            event: rule.event.clone(),
            flavor: to,
            matcher: matcher.clone(),
            handlers,
            shape,
            extra: extra.clone(),
            origin: rule.origin.clone(),
        };
        match shape {
            // A flat entry holds one handler.
            RuleShape::Flat => handlers.into_iter().map(|h| make(vec![h])).collect(),
            RuleShape::Group => vec![make(handlers)],
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn handler(
        &mut self,
        src: &SourceFile,
        at: &str,
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
        let spec = target.config();
        let mut out = handler.clone();
        out.extra = if from.dialect() == target {
            handler.extra.clone()
        } else {
            Default::default()
        };
        if from.dialect() != target && !handler.extra.is_empty() {
            let keys = handler
                .extra
                .keys()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ");
            self.lose(
                src,
                at,
                &format!("handler field(s) {keys}"),
                &format!("{target} does not know these fields; they are not carried over"),
            );
        }
        match &handler.kind {
            HandlerKind::Command(command) => {
                let command = self.command(src, at, command, event, from, to, wrap_match)?;
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
        }
        // Timeouts: carry them, and write the source default where the target's differs.
        let from_default = from.tables().default_timeout(&handler.kind);
        if out.timeout.is_none() && to.tables().default_timeout(&out.kind) != from_default {
            out.timeout = Some(from_default);
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
                    at,
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

    #[allow(clippy::too_many_arguments)]
    fn command(
        &mut self,
        src: &SourceFile,
        at: &str,
        command: &Command,
        event: &EventKind,
        from: Flavor,
        to: Flavor,
        wrap_match: Option<&str>,
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
            self.lose(src, at, "PowerShell-only command handler", &format!(
                "{target} runs hooks with a POSIX shell and this handler has no bash command; it is not converted"
            ));
            return None;
        };
        let mut line = self.rewrite_env(src, at, unix, from, to);
        if let (Some(l), Some(o)) = (&command.linux, &command.osx)
            && l != o
        {
            self.lose(
                src,
                at,
                "separate Linux and macOS commands",
                &format!("{target} has one command for every OS; the Linux one is kept"),
            );
        }
        if let Some(cwd) = &command.cwd
            && spec.key(HandlerField::Cwd).is_none()
        {
            line = format!("cd {} && {line}", shell_quote(cwd));
        }
        if let Some(env) = &command.env
            && spec.key(HandlerField::Env).is_none()
        {
            let exports: Vec<String> = env
                .iter()
                .map(|(k, v)| {
                    format!(
                        "export {k}={};",
                        shell_double_quote(v.as_str().unwrap_or_default())
                    )
                })
                .collect();
            line = format!("{} {line}", exports.join(" "));
        }
        if self.options.wrap {
            let mut wrapped = format!(
                "{} exec --as {} --event {}",
                self.options.hookx,
                from.name(),
                event
            );
            if let Some(m) = wrap_match {
                wrapped.push_str(&format!(" --match {}", shell_quote(m)));
            }
            line = format!("{wrapped} -- {}", shell_quote(&line));
        } else {
            self.foreign_protocol += 1;
        }
        let mut out = Command::default();
        match target {
            Dialect::Copilot => {
                out.bash = Some(line);
                out.powershell = windows.cloned();
                out.cwd = command.cwd.clone();
                out.env = command.env.clone();
            }
            _ => {
                if windows.is_some() {
                    self.lose(
                        src,
                        at,
                        "the Windows (PowerShell) command",
                        &format!(
                            "{target} has one shell command for every OS; the bash command is kept"
                        ),
                    );
                }
                out.command = Some(line);
            }
        }
        if command.is_async == Some(true) && spec.key(HandlerField::Async).is_none() {
            self.lose(
                src,
                at,
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
    fn rewrite_env(
        &mut self,
        src: &SourceFile,
        at: &str,
        line: &str,
        from: Flavor,
        to: Flavor,
    ) -> String {
        let (from_spec, to_spec) = (from.dialect().config(), to.dialect().config());
        let mut line = line.to_string();
        if from_spec.project_dir_variable != "PWD" {
            line = replace_variable(
                &line,
                from_spec.project_dir_variable,
                to_spec.project_dir_variable,
            );
        }
        for var in from_spec.provided_env {
            if !to_spec.provided_env.contains(var) && references_variable(&line, var) {
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
        line
    }
}

fn references_variable(line: &str, var: &str) -> bool {
    replace_variable(line, var, "\u{0}") != line
}

/// Replaces `$VAR` and `${VAR…}` (not `$VARIABLE`) by the other name.
fn replace_variable(line: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find('$') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let (braced, name_start) = match after.strip_prefix('{') {
            Some(inner) => (true, inner),
            None => (false, after),
        };
        if let Some(tail) = name_start.strip_prefix(from)
            && !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        {
            out.push('$');
            if braced {
                out.push('{');
            }
            out.push_str(to);
            rest = tail;
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Quotes a string for a POSIX shell, as one word.
pub fn shell_quote(text: &str) -> String {
    if !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c))
    {
        return text.to_string();
    }
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Double-quotes a value so the shell expands `$VAR` in it (as Copilot's `env` does) but
/// nothing else.
fn shell_double_quote(text: &str) -> String {
    let mut out = String::from("\"");
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '"' | '`' => {
                out.push('\\');
                out.push(c);
            }
            '$' if chars.peek() == Some(&'(') => out.push_str("\\$"),
            _ => out.push(c),
        }
    }
    out.push('"');
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

    #[test]
    fn shell_quoting_is_one_word() {
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("plain"), "plain");
        assert_eq!(shell_double_quote("$HOME/$(x)`y`"), r#""$HOME/\$(x)\`y\`""#);
    }
}
