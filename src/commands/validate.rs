//! Semantic checks beyond what reading a file finds: matchers, handler types per event,
//! suspicious values. Reading already reports syntax, types, unknown events and missing
//! commands.

use crate::config::syntax;
use crate::diag::{Diagnostic, Severity};
use crate::model::bounded::{self, Answer, Job};
use crate::model::{EventKind, Handler, HandlerKind, MatcherForm};
use crate::positions::escape;
use crate::source::SourceFile;
use crate::tables::HandlerField;
use crate::tables::MatchOn;
use crate::tables::{Document, Rule};

/// Timeouts at or above this many seconds were most likely meant as milliseconds.
const SUSPICIOUS_TIMEOUT: u64 = 1000;

/// Every diagnostic `hookx validate` shows for a file read: the reader's, then [`check`]'s. A key
/// that is no event of the file's agent is an error here, as `hookx doctor` calls it: the agent
/// skips it (the reader only warns, so that `convert` keeps it as written). Events the agent
/// has that hookx carries as unknown ([`crate::tables::ConfigSpec::other_events`]) are none.
pub fn diagnostics(src: &SourceFile, parsed: &crate::config::Parsed) -> Vec<Diagnostic> {
    let mut out = parsed.diagnostics.clone();
    let doc = &parsed.document;
    crate::config::strict_load::mark_reader_errors(src, doc.dialect, &mut out);
    let mut seen: Vec<&str> = Vec::new();
    for rule in &doc.rules {
        let EventKind::Other(key) = &rule.event else {
            continue;
        };
        if seen.contains(&key.as_str()) {
            continue;
        }
        seen.push(key);
        let message = format!("`{key}` is no {} event: the agent skips it", doc.dialect);
        let help = crate::config::walk::did_you_mean(key, doc.dialect)
            .map(|name| format!("rename the key `{key}` to `{name}`"));
        // The reader's warning about the key, where it said so, becomes the error.
        let key_at = format!("/{}", escape(key));
        let warned = out.iter_mut().find(|d| {
            d.severity == Severity::Warning
                && d.pointer.as_deref().is_some_and(|p| p.ends_with(&key_at))
                && d.message.contains(&format!("`{key}`"))
        });
        // Where the reader did not warn, the key is an event the agent has that hookx carries
        // as unknown (Kiro's `PostFileSave`, Qwen's `TodoCreated`): no error.
        if let Some(d) = warned {
            d.severity = Severity::Error;
            d.message = message;
            d.help = help;
        }
    }
    out.extend(check(src, doc));
    crate::config::strict_load::apply(src, doc.dialect, &mut out);
    out
}

/// Diagnostics for a document that was read without syntax errors.
pub fn check(src: &SourceFile, doc: &Document) -> Vec<Diagnostic> {
    let mut checker = Checker {
        src,
        diagnostics: Vec::new(),
    };
    // Copilot and Bricks files hold nothing but hooks (and Copilot's `version`); Claude's
    // settings, plugin and frontmatter files have many other keys.
    checker
        .diagnostics
        .extend(crate::config::strict_load::unknown_top_keys(src, doc));
    checker
        .diagnostics
        .extend(crate::config::strict_load::wrong_setting_types(src, doc));
    checker
        .diagnostics
        .extend(crate::config::strict_load::refused_handlers(src, doc));
    checker.diagnostics.extend(events_outside_hooks(src, doc));
    for rule in &doc.rules {
        checker.rule(doc, rule);
    }
    // TOML refuses duplicate keys when parsed; frontmatter is checked by its parser.
    if syntax::Format::of(&src.path) == syntax::Format::Json {
        checker
            .diagnostics
            .extend(crate::config::strict_load::duplicate_keys(src, doc.dialect));
    }
    checker.diagnostics
}

/// An event of the file's agent written beside `hooks` in a settings file, which holds other
/// keys too: its agent reads hooks under `hooks` only, so none of it runs, and hookx reads none
/// either (attacks row 1686). A file holding nothing but hooks says its other keys itself
/// (`unknown top-level key`).
fn events_outside_hooks(src: &SourceFile, doc: &Document) -> Vec<Diagnostic> {
    if doc.kind.wrapper_optional || doc.kind.wrapper_ignored || doc.kind.top_keys.is_some() {
        return Vec::new();
    }
    let agent = doc.dialect.def().display;
    doc.extra
        .keys()
        .filter(|key| {
            doc.dialect
                .flavors()
                .any(|f| f.tables().event_kind(key).is_some())
        })
        .map(|key| {
            let pointer = format!("/{}", crate::positions::escape(key));
            let message = format!(
                "`{key}` is an event, but it sits beside `hooks`, not in it: {agent} runs none of its hooks"
            );
            let mut diag = match syntax::locate(src, &pointer) {
                Some(o) => Diagnostic::at_offset(Severity::Error, src, o, message),
                None => Diagnostic::at_line_col(Severity::Error, src, 1, 1, message),
            };
            diag.pointer = Some(pointer);
            diag.with_help(format!("move `{key}` into `hooks`"))
        })
        .collect()
}

struct Checker<'a> {
    src: &'a SourceFile,
    diagnostics: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn push(&mut self, severity: Severity, pointer: &str, message: String, help: Option<String>) {
        let mut diag = match syntax::locate(self.src, pointer) {
            Some(o) => Diagnostic::at_offset(severity, self.src, o, message),
            None => Diagnostic::at_line_col(severity, self.src, 1, 1, message),
        };
        diag.pointer = Some(pointer.to_string());
        diag.help = help;
        self.diagnostics.push(diag);
    }

    fn rule(&mut self, doc: &Document, rule: &Rule) {
        let tables = rule.flavor.tables();
        let at = &rule.origin.pointer;
        let matcher_at = format!("{at}/matcher");
        let form = tables.matcher_form(&rule.event, rule.matcher.as_deref());
        match tables.matcher_target(&rule.event) {
            None if form != MatcherForm::All && !matches!(rule.event, EventKind::Other(_)) => self
                .push(
                    Severity::Warning,
                    &matcher_at,
                    format!(
                        "{} ignores matchers on `{}`; this hook fires every time",
                        rule.flavor.dialect(),
                        rule.event
                    ),
                    Some("remove the matcher, or filter inside the command".into()),
                ),
            _ => {}
        }
        if let MatcherForm::Regex { pattern, anchored } = &form {
            let shown = shorten(pattern);
            match bounded::run_one(Job::new(pattern, *anchored, Vec::new())) {
                Answer::Matches(_) => {}
                Answer::Invalid(e) => {
                    let consequence = rule
                        .flavor
                        .tables()
                        .invalid_matcher_effect
                        .unwrap_or("the agent cannot match it");
                    self.push(
                        Severity::Error,
                        &matcher_at,
                        format!(
                            "matcher `{shown}` is not a valid JavaScript regex: {e}; {consequence}"
                        ),
                        None,
                    );
                }
                Answer::Unevaluable(why) => self.push(
                    Severity::Error,
                    &matcher_at,
                    format!(
                        "matcher `{shown}` {why}: hookx cannot tell which events fire this rule"
                    ),
                    Some("split it into several rules, or list the names it should match".into()),
                ),
            }
        }
        if let MatcherForm::Regex {
            pattern,
            anchored: true,
        } = &form
        {
            let word =
                |w: &str| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '_');
            if pattern.is_empty() {
                self.push(
                    Severity::Warning,
                    &matcher_at,
                    format!(
                        "an empty matcher matches nothing in {}: {} drops this entry, it never fires",
                        rule.flavor.name(),
                        rule.flavor.dialect()
                    ),
                    Some("remove the `matcher` key to fire every time".into()),
                );
            } else if pattern.contains(',') && pattern.split([',', '|']).all(word) {
                self.push(
                    Severity::Warning,
                    &matcher_at,
                    format!(
                        "`,` is not a list separator in {} matchers: `{}` is one regex, matched whole",
                        rule.flavor.name(),
                        shorten(pattern)
                    ),
                    Some("separate the names with `|`".into()),
                );
            }
        }
        if tables.matcher_target(&rule.event) == Some(MatchOn::ToolName) {
            self.foreign_tool_names(rule, &form, &matcher_at);
        }
        let kept = rule.flavor.dialect().config().kept_keys;
        // A one-rule file's trigger keys (Kiro IDE's `when.patterns`) are its agent's.
        let trigger = (rule.flavor.dialect().config().rule_list)
            .and_then(|list| list.older)
            .filter(|older| *older.single_kind == *doc.kind)
            .map(|older| older.single_when);
        for key in (rule.extra.keys())
            .filter(|k| !kept.contains(&k.as_str()) && Some(k.as_str()) != trigger)
        {
            self.push(
                Severity::Warning,
                &format!("{at}/{}", escape(key)),
                format!(
                    "unknown rule field `{key}`; it is kept as written, but converting to another dialect drops it"
                ),
                None,
            );
        }
        for (i, handler) in rule.handlers.iter().enumerate() {
            self.handler(doc, rule, handler, &rule.handler_pointer(i));
        }
    }

    /// A matcher that names tools by another flavour's names never fires (`Edit` in a Copilot
    /// camelCase file, `edit` in Claude).
    fn foreign_tool_names(&mut self, rule: &Rule, form: &MatcherForm, at: &str) {
        let tables = rule.flavor.tables();
        let names: Vec<String> = match form {
            MatcherForm::Exact(names) => names.clone(),
            MatcherForm::Regex { pattern, .. } => pattern
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect(),
            MatcherForm::All => return,
        };
        for name in names {
            // A name of this flavour, or of one its matchers are also tried against, is not.
            if let Some((other, own)) = tables.foreign_tool_name(&name) {
                let help = own.map(|n| format!("{} calls this tool `{n}`", rule.flavor.dialect()));
                self.push(
                    Severity::Warning,
                    at,
                    format!("`{name}` is a {} tool name; {} never sends it, so this part of the matcher never fires", other.name(), rule.flavor.name()),
                    help,
                );
            }
        }
    }

    fn handler(&mut self, doc: &Document, rule: &Rule, handler: &Handler, at: &str) {
        let tables = rule.flavor.tables();
        let dialect = rule.flavor.dialect();
        // Only a Windows line (Copilot's `powershell`, `windows`): Copilot CLI 1.0.102 runs
        // nothing of it on Linux (live, attacks row 1687), and neither does hookx.
        if let HandlerKind::Command(c) = &handler.kind
            && c.unix_line().is_none()
            && c.windows_line().is_some()
        {
            self.push(
                Severity::Warning,
                at,
                format!(
                    "this handler has a Windows command only: on Linux and macOS {dialect} runs nothing of it (nor does hookx)"
                ),
                Some("add `bash` (or `command`) for Linux and macOS".into()),
            );
        }
        let type_name = match &handler.kind {
            HandlerKind::Command(_) => "command",
            HandlerKind::Prompt(_) => "prompt",
            HandlerKind::Agent(_) => "agent",
            HandlerKind::Service(s) => s.type_name,
        };
        let kept = dialect.config().kept_keys;
        let unknown = |k: &&String| !kept.contains(&k.as_str()) && *k != crate::config::MARKER;
        for key in handler.extra.keys().filter(unknown) {
            let message = match dialect.config().field(key) {
                Some(field) => format!(
                    "`{key}` gives the {} a second time; only the first key is read",
                    field.describe()
                ),
                None => format!(
                    "unknown handler field `{key}`; it is kept as written, but converting to another dialect drops it"
                ),
            };
            self.push(
                Severity::Warning,
                &format!("{at}/{}", escape(key)),
                message,
                None,
            );
        }
        if let HandlerKind::Command(command) = &handler.kind
            && let Some(line) = command.unix_line()
        {
            for var in crate::convert::unset_project_variables(line, rule.flavor) {
                self.push(
                    Severity::Warning,
                    at,
                    format!(
                        "`${var}` is another agent's project folder: {} sets it for none of its \
                         hooks, so the command sees it empty",
                        dialect.def().display
                    ),
                    None,
                );
            }
        }
        if !tables.handler_types.contains(&type_name) {
            self.push(
                Severity::Error,
                &format!("{at}/type"),
                format!("{dialect} has no `{type_name}` handlers"),
                Some(format!(
                    "{dialect} handler types: {}",
                    tables.handler_types.join(", ")
                )),
            );
        } else if let Some((_, events)) = dialect
            .config()
            .type_only_on
            .iter()
            .find(|(t, _)| *t == type_name)
            && !events.contains(&rule.event)
        {
            let names: Vec<&str> = events
                .iter()
                .filter_map(|e| dialect.default_flavor().tables().event_name(e))
                .collect();
            self.push(
                Severity::Error,
                &format!("{at}/type"),
                format!(
                    "{} runs `{type_name}` hooks only on {}, not on `{}`",
                    dialect.def().display,
                    names.join(", "),
                    rule.event
                ),
                None,
            );
        }
        // Point at the timeout itself, under whichever of the dialect's keys it was written.
        let timeout_at = || {
            dialect
                .config()
                .handler_keys
                .iter()
                .filter(|(_, field)| *field == HandlerField::Timeout)
                .map(|(key, _)| format!("{at}/{key}"))
                .find(|p| syntax::locate(self.src, p).is_some())
                .unwrap_or_else(|| at.to_string())
        };
        if handler.timeout == Some(0) && dialect.config().skips_entry_without_positive_timeout {
            let at = timeout_at();
            let key = at.rsplit('/').next().unwrap_or("timeout");
            self.push(
                Severity::Warning,
                &at,
                format!(
                    "{} does not load an entry whose `{key}` is 0 (the rest of the file runs)",
                    dialect.def().display
                ),
                Some(format!(
                    "write a number of seconds above 0, or leave `{key}` out"
                )),
            );
        } else if handler.timeout == Some(0)
            && !dialect.config().zero_timeout_is_none
            // Said as an error where the agent refuses it ([`strict_load::refused_handlers`]).
            && !dialect.config().strict_load.is_some_and(|s| s.zero_timeout)
        {
            let default = dialect
                .default_flavor()
                .tables()
                .default_timeout(&handler.kind);
            self.push(
                Severity::Warning,
                &timeout_at(),
                format!(
                    "timeout 0 would kill the hook at once; hookx runs it with {dialect}'s default ({default} s)"
                ),
                Some("remove it, or write the seconds the hook may take".to_string()),
            );
        }
        // Milliseconds are the unit already where the dialect's timeouts are milliseconds.
        if let Some(t) = handler.timeout
            && t >= SUSPICIOUS_TIMEOUT
            && dialect.config().timeout_unit == crate::tables::TimeoutUnit::Seconds
        {
            let timeout_at = timeout_at();
            self.push(
                Severity::Warning,
                &timeout_at,
                format!(
                    "timeout {t} is in seconds ({} minutes); was it meant as milliseconds?",
                    t / 60
                ),
                Some(format!(
                    "{dialect} timeouts are seconds: write {} for {t} ms",
                    (t / 1000).max(1)
                )),
            );
        }
        if handler.once.is_some() && !doc.kind.frontmatter {
            self.push(
                Severity::Warning,
                &format!("{at}/once"),
                "`once` only applies to hooks in skill frontmatter; here it is ignored".into(),
                None,
            );
        }
        if let HandlerKind::Command(c) = &handler.kind {
            self.outdated_guards(rule, c, at);
        }
        // Attacks row 2020: a block its own agent ignores, which hookx reads as a deny. Words
        // of the line are looked up below the file's folders (the project is one of them).
        let roots: Vec<&std::path::Path> = std::path::Path::new(&self.src.path)
            .ancestors()
            .skip(1)
            .take(4)
            .collect();
        if let Some(why) = crate::commands::unread_block::note(rule, handler, &roots) {
            self.push(
                Severity::Warning,
                at,
                why,
                Some(crate::commands::unread_block::FIX.into()),
            );
        }
        if let HandlerKind::Command(c) = &handler.kind
            && c.is_async == Some(true)
            && rule.event == EventKind::PreToolUse
        {
            self.push(Severity::Warning, &format!("{at}/async"), "an async PreToolUse hook cannot block or allow the tool: its answer arrives too late".into(), None);
        }
    }
}

impl Checker<'_> {
    /// A wrapped entry (`… hookx exec …`) whose not-installed guard an older hookx wrote: where
    /// hookx is missing it answers otherwise than the failure policy says today (it kept a Stop
    /// going, refused prompts). Located at the command line that carries it.
    fn outdated_guards(&mut self, rule: &Rule, command: &crate::model::Command, at: &str) {
        let dialect = rule.flavor.dialect();
        for (field, line) in [
            (HandlerField::Command, &command.command),
            (HandlerField::Bash, &command.bash),
            (HandlerField::Linux, &command.linux),
            (HandlerField::Osx, &command.osx),
        ] {
            let Some(old) = line
                .as_deref()
                .and_then(|l| crate::convert::outdated_guard(l, rule.flavor))
            else {
                continue;
            };
            let pointer = dialect
                .config()
                .handler_keys
                .iter()
                .filter(|(_, f)| *f == field)
                .map(|(key, _)| format!("{at}/{key}"))
                .find(|p| syntax::locate(self.src, p).is_some())
                .unwrap_or_else(|| at.to_string());
            let event = old
                .host
                .tables()
                .event_name(&old.event)
                .unwrap_or(old.event.name());
            self.push(
                Severity::Warning,
                &pointer,
                format!(
                    "this entry's `hookx not found` guard was written by an older hookx: where hookx is not installed it answers `{event}` otherwise than hookx's failure policy, which today {}",
                    old.today()
                ),
                Some(
                    "convert the source file again (`hookx convert SOURCE --to DIALECT --write`) to rewrite the guard"
                        .into(),
                ),
            );
        }
    }
}

/// At most 80 characters of a pattern, for messages (a matcher can be kilobytes long).
fn shorten(pattern: &str) -> String {
    match pattern.char_indices().nth(80) {
        Some((end, _)) => format!("{}…", &pattern[..end]),
        None => pattern.to_string(),
    }
}
