//! A converted rule's matcher: translated where both flavours filter the event the same way,
//! else left to `hookx exec --match` (or lost), a tool-category event made a tool matcher, and
//! a matcher the source ignored dropped.

use super::category::category_matcher;
use super::converter::Converter;
use super::matcher;
use crate::model::{EventKind, MatcherForm};
use crate::source::SourceFile;
use crate::tables::{Flavor, MatchOn, Rule, ToolScope};

/// A converted rule's matcher, and the one `hookx exec --match` applies to its handlers.
pub(super) struct RuleMatcher {
    pub(super) text: Option<String>,
    pub(super) wrap: Option<String>,
}

impl RuleMatcher {
    fn written(text: Option<String>) -> RuleMatcher {
        RuleMatcher { text, wrap: None }
    }

    fn wrapped(wrap: Option<String>) -> RuleMatcher {
        RuleMatcher { text: None, wrap }
    }
}

impl Converter<'_> {
    /// The matcher of `rule` converted to `to` for `event`; `None` (and a loss) when the rule
    /// fires for nothing there and is not converted. `category`: see [`Converter::rule_to`].
    pub(super) fn rule_matcher(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        event: &EventKind,
        to: Flavor,
        category: Option<Option<String>>,
    ) -> Option<RuleMatcher> {
        let from = rule.flavor;
        let at = rule.origin.pointer.as_str();
        // A matcher on a tool-category event of the source (Cursor's `beforeShellExecution`),
        // which reads none there: the hook fired for every call of the category, and the text
        // is not carried over.
        if from.dialect() != to.dialect()
            && from.tables().tool_scope != ToolScope::Any
            && from.tables().matcher_target(&rule.event).is_none()
            && from
                .tables()
                .matcher_form(&rule.event, rule.matcher.as_deref())
                != MatcherForm::All
        {
            let native = from
                .tables()
                .event_name(&rule.event)
                .unwrap_or(rule.event.name());
            self.lose(
                src,
                format!("{at}/matcher"),
                &format!(
                    "matcher `{}` on `{native}`",
                    rule.matcher.as_deref().unwrap_or("")
                ),
                &format!(
                    "{} reads no matcher on `{native}`, so the hook fired for every call of that category; the matcher text is not carried over to {}",
                    from.dialect().def().display,
                    self.options.to
                ),
            );
        }
        Some(
            match (
                from.tables().matcher_target(event),
                to.tables().matcher_target(event),
            ) {
                // The category is the filter; what it cannot say, `hookx exec --match` does.
                _ if category.is_some() => RuleMatcher::wrapped(category.flatten()),
                (Some(on), Some(on_target)) if on == on_target => {
                    self.translated(src, rule, event, on, to)?
                }
                (Some(_), _)
                    if from.tables().matcher_form(event, rule.matcher.as_deref())
                        != MatcherForm::All =>
                {
                    if self.options.wrap {
                        RuleMatcher::wrapped(rule.matcher.clone())
                    } else {
                        self.lose(src, format!("{at}/matcher"), &format!("matcher `{}` on `{}`", rule.matcher.as_deref().unwrap_or(""), event), &format!(
                            "{} does not filter `{}` events by a matcher, so the hook would fire for all of them; the matcher is dropped (without --no-wrap, hookx exec filters instead)",
                            self.options.to, event
                        ));
                        RuleMatcher::written(None)
                    }
                }
                // A tool-category event (Cursor's `beforeShellExecution`) becomes a tool matcher.
                (None, target)
                    if from.tables().tool_scope != ToolScope::Any && event.is_tool_event() =>
                {
                    self.category_event_matcher(src, rule, event, target, to)?
                }
                // The source ignores matchers here (VS Code): the hook fired for every tool, and a
                // target that reads matchers must not start filtering by a text nobody applied.
                (None, Some(_))
                    if from.tables().matcher_form(event, rule.matcher.as_deref())
                        != MatcherForm::All =>
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
                    RuleMatcher::written(None)
                }
                // Both ignore the matcher: keep its text where the target has a key (an agent
                // with no matcher anywhere, Windsurf, has none).
                _ => RuleMatcher::written(rule.matcher.clone().filter(|_| {
                    to.tables().matcher_style == from.tables().matcher_style
                        && (from.dialect() == to.dialect()
                            || to
                                .dialect()
                                .flavors()
                                .any(|f| !f.tables().matcher_targets.is_empty()))
                })),
            },
        )
    }

    /// Both flavours filter the event by the same thing: the matcher translated, each problem
    /// a loss (and, wrapped, the original applied by `hookx exec --match`).
    fn translated(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        event: &EventKind,
        on: MatchOn,
        to: Flavor,
    ) -> Option<RuleMatcher> {
        let from = rule.flavor;
        let at = rule.origin.pointer.as_str();
        let mut translated = matcher::translate(rule.matcher.as_deref(), on, event, from, to);
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
            return None;
        }
        if from.dialect() != to.dialect() {
            for value in matcher::values_never_sent(rule.matcher.as_deref(), event, from, to) {
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
        let mut wrap = None;
        if self.options.wrap && !translated.problems.is_empty() {
            wrap = rule.matcher.clone();
        }
        Some(RuleMatcher {
            text: translated.text,
            wrap,
        })
    }

    /// A rule on a tool-category event of the source: the category as a tool matcher where
    /// the target filters the event by tool, else applied by `hookx exec --match` (or lost).
    /// `None` (and a loss): no tool of the category exists in the target.
    fn category_event_matcher(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        event: &EventKind,
        target: Option<MatchOn>,
        to: Flavor,
    ) -> Option<RuleMatcher> {
        let from = rule.flavor;
        let at = rule.origin.pointer.as_str();
        let text = category_matcher(from);
        let native = from.tables().event_name(event).unwrap_or(event.name());
        let translated = match target {
            Some(on @ MatchOn::ToolName) => {
                Some(matcher::translate(Some(&text), on, event, from, to))
            }
            _ => None,
        };
        Some(match translated {
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
                return None;
            }
            Some(t) => {
                for problem in &t.problems {
                    self.lose(src, at, &format!("the tool category `{text}`"), problem);
                }
                RuleMatcher::written(t.text)
            }
            None if self.options.wrap => RuleMatcher::wrapped(Some(text)),
            None => {
                let what = format!("the tool category `{text}` of `{native}`");
                let why = format!(
                    "{} does not filter `{event}` events by tool, so the hook would fire for every tool (without --no-wrap, hookx exec filters instead)",
                    self.options.to
                );
                self.lose(src, at, &what, &why);
                RuleMatcher::written(None)
            }
        })
    }
}
