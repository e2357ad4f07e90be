//! Choosing the handlers an event fires: each rule is matched with the semantics of the flavour
//! it was written in, and identical handlers run once.

use crate::dialect::MatchOn;
use crate::model::{CompiledMatcher, Event, Handler, Rule};

/// A handler the event fires, with the rule it belongs to.
#[derive(Debug)]
pub struct Selected<'a, S> {
    pub rule: &'a Rule,
    pub handler: &'a Handler,
    /// Whatever the caller attached to the rule (its source, say).
    pub source: &'a S,
}

/// A rule whose matcher could not be compiled (Copilot skips such hooks; so does hookx).
#[derive(Debug)]
pub struct Skipped<'a> {
    pub rule: &'a Rule,
    pub reason: String,
}

/// The handlers of `rules` that `event` fires, in rule order, identical handlers (same
/// dialect, same command or prompt) once. Only the matchers of this event's rules are compiled.
pub fn select<'a, S>(
    rules: impl IntoIterator<Item = (&'a Rule, &'a S)>,
    event: &Event,
) -> (Vec<Selected<'a, S>>, Vec<Skipped<'a>>) {
    let mut selected: Vec<Selected<'a, S>> = Vec::new();
    let mut skipped = Vec::new();
    for (rule, source) in rules {
        if rule.event != event.kind {
            continue;
        }
        match rule_matches(rule, event) {
            Ok(false) => continue,
            Ok(true) => {}
            Err(reason) => {
                skipped.push(Skipped { rule, reason });
                continue;
            }
        }
        for handler in &rule.handlers {
            let duplicate = selected.iter().any(|s| {
                s.rule.flavor.dialect() == rule.flavor.dialect() && s.handler.kind == handler.kind
            });
            if !duplicate {
                selected.push(Selected {
                    rule,
                    handler,
                    source,
                });
            }
        }
    }
    (selected, skipped)
}

/// Whether the rule's matcher accepts the event, read in the rule's own flavour: tool names
/// are compared in that flavour's spelling.
pub fn rule_matches(rule: &Rule, event: &Event) -> Result<bool, String> {
    let tables = rule.flavor.tables();
    let Some(on) = tables.matcher_target(&event.kind) else {
        // This flavour ignores matchers on this event.
        return Ok(true);
    };
    let form = tables.matcher_style.form(rule.matcher.as_deref());
    let matcher = CompiledMatcher::compile(&form).map_err(|e| {
        format!(
            "invalid matcher `{}`: {e}",
            rule.matcher.as_deref().unwrap_or("")
        )
    })?;
    let value = match on {
        // The name the handler sees in its payload.
        MatchOn::ToolName => match &event.tool {
            Some(tool) => crate::protocol::payload::tool_name(rule.flavor, &tool.name).to_string(),
            None => String::new(),
        },
        MatchOn::Field(name) => event.field(name).unwrap_or_default().to_string(),
    };
    Ok(matcher.is_match(&value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Flavor;
    use crate::model::tool::ids;
    use crate::model::{Command, EventKind, HandlerKind, Origin, RuleShape, ToolCall};

    fn rule(flavor: Flavor, matcher: &str, command: &str) -> Rule {
        Rule {
            event: EventKind::PreToolUse,
            flavor,
            matcher: Some(matcher.into()),
            handlers: vec![Handler {
                kind: HandlerKind::Command(Command {
                    command: Some(command.into()),
                    ..Command::default()
                }),
                timeout: None,
                status_message: None,
                once: None,
                extra: Default::default(),
            }],
            shape: RuleShape::Group,
            extra: Default::default(),
            origin: Origin::default(),
        }
    }

    fn edit_event() -> Event {
        Event {
            kind: EventKind::PreToolUse,
            timestamp: None,
            tool: Some(ToolCall {
                name: ids::EDIT.into(),
                input: serde_json::json!({}),
            }),
            fields: Default::default(),
        }
    }

    #[test]
    fn each_rule_matches_in_its_own_flavour() {
        let rules = [
            rule(Flavor::Claude, "Edit|Write", "claude"),
            rule(Flavor::Copilot, "edit", "copilot"),
            rule(Flavor::Copilot, "ed", "anchored: no"),
            rule(Flavor::Bricks, "edit_file", "bricks"),
            rule(Flavor::Claude, "Bash", "no"),
        ];
        let (selected, skipped) = select(rules.iter().map(|r| (r, &())), &edit_event());
        let names: Vec<_> = selected
            .iter()
            .map(|s| match &s.handler.kind {
                HandlerKind::Command(c) => c.command.clone().unwrap(),
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(names, ["claude", "copilot", "bricks"]);
        assert!(skipped.is_empty());
    }

    #[test]
    fn identical_handlers_run_once_and_bad_regexes_are_skipped() {
        let rules = [
            rule(Flavor::Claude, "Edit", "same"),
            rule(Flavor::Claude, "Edit|Write", "same"),
            rule(Flavor::Copilot, "(edit", "broken"),
        ];
        let (selected, skipped) = select(rules.iter().map(|r| (r, &())), &edit_event());
        assert_eq!(selected.len(), 1);
        assert_eq!(skipped.len(), 1);
    }
}
