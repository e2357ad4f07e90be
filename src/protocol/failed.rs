//! A tool call that failed, between agents that give it an event of its own (Claude's
//! PostToolUseFailure) and agents whose one post event marks it (Gemini CLI's AfterTool with
//! `tool_response.error`): each rule fires as its own agent would fire it after that call, and
//! its handler is told the call failed in its own agent's terms (attacks rows 1552, 1553).
//! What each flavour does is [`crate::tables::ProtocolTables::failed_call`].

use crate::model::{Event, EventKind};
use crate::tables::{EVERY_TOOL, FailMark, FailedCall, Flavor, Tables};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The canonical field that holds a failed call's text (Claude's PostToolUseFailure `error`).
/// A post event decoded from a host that marks the failure carries it too ([`decode_mark`]).
pub const ERROR: &str = "error";

/// Whether `event` follows a tool call that failed: a failure event, or a post event its host
/// marked failed.
pub fn failed(event: &Event) -> bool {
    match event.kind {
        EventKind::PostToolUseFailure => true,
        EventKind::PostToolUse => event.fields.get(ERROR).is_some_and(|v| !v.is_null()),
        _ => false,
    }
}

/// Whether a rule of `flavor` on `rule_event` fires on `event`, as its own agent would after
/// the same call: a failure rule after a failed call only, a success rule of an agent with a
/// failure event (or with none after such a failed call) after a call that did not fail (or
/// that its host does not tell apart), a post rule of an agent with one post event after both.
/// Any other rule: on its own event.
pub fn fires(flavor: Flavor, rule_event: &EventKind, event: &Event) -> bool {
    use EventKind::{PostToolUse, PostToolUseFailure};
    let tool = event.tool.as_ref().map(|t| t.name.as_str());
    let none_after = |failed: bool| failed && silent_after(flavor, tool);
    match (rule_event, &event.kind) {
        (PostToolUse, PostToolUse) => !none_after(failed(event)),
        (PostToolUseFailure, PostToolUse) => failed(event),
        (PostToolUse, PostToolUseFailure) => !none_after(true),
        (rule, host) => rule == host,
    }
}

/// Whether `flavor`'s agent fires no PostToolUse after a failed call of `tool`: it has an
/// event of its own for it, or none at all ([`FailedCall::Unfired`]).
fn silent_after(flavor: Flavor, tool: Option<&str>) -> bool {
    match flavor.tables().protocol.failed_call {
        FailedCall::OwnEvent => true,
        FailedCall::Unfired(tools) => {
            tools == EVERY_TOOL || tool.is_some_and(|t| tools.contains(&t))
        }
        FailedCall::Marked(_) | FailedCall::Unmarked => false,
    }
}

/// Where `host`'s agent fires no post event after a failed call (a [`FailedCall::Unfired`]
/// tool) that `flavor`'s agent fires `PostToolUse` after: a rule of `flavor` on PostToolUse,
/// written to see those failures too, runs there after calls that succeed only (Droid 0.225.2
/// after any failed call, Codex 0.171.0 after a failed patch; attacks rows 1841, 2021). A
/// sentence saying so, for `list` and `doctor`; `matches` says whether the rule's matcher takes
/// a canonical tool id. `None` where the rule misses no failure it would see at home.
pub fn unfired_change(
    host: Flavor,
    flavor: Flavor,
    rule_event: &EventKind,
    matches: impl Fn(&str) -> bool,
) -> Option<String> {
    let (ht, ft) = (host.tables(), flavor.tables());
    let FailedCall::Unfired(unfired) = ht.protocol.failed_call else {
        return None;
    };
    if *rule_event != EventKind::PostToolUse {
        return None;
    }
    let missed: Vec<&str> = ht
        .tools
        .iter()
        .map(|(id, _)| *id)
        .filter(|&id| silent_after(host, Some(id)) && !silent_after(flavor, Some(id)))
        .filter(|&id| matches(id))
        .collect();
    if missed.is_empty() {
        return None;
    }
    let name = ht.event_name(rule_event)?;
    let theirs = ft.event_name(rule_event).unwrap_or(name);
    let calls = match unfired == EVERY_TOOL {
        true => "a failed call".to_string(),
        false => {
            let mut names: Vec<String> = Vec::new();
            for id in &missed {
                let name = format!("`{}`", ht.tool_name(id).unwrap_or(id));
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            format!("a failed call of {}", names.join(", "))
        }
    };
    let (here_by, there_by) = (ht.dialect.def().product, ft.dialect.def().product);
    Some(format!(
        "{here_by} fires no `{name}` after {calls}; {there_by} fires `{theirs}` after failed \
         calls too, which the rule was written for: here it runs after calls that succeed only"
    ))
}

/// Whether a host's `event` may fire rules written for `rule_event` ([`fires`] decides, with
/// the rule's flavour): what reading a file for one event keeps.
pub fn may_fire(event: &EventKind, rule_event: &EventKind) -> bool {
    use EventKind::{PostToolUse, PostToolUseFailure};
    event == rule_event
        || matches!(
            (event, rule_event),
            (PostToolUse, PostToolUseFailure) | (PostToolUseFailure, PostToolUse)
        )
}

/// Whether `host`'s event `kind` can fire a rule of `flavor` on `rule_event` after some call
/// ([`fires`]): what a route must be installed for. A host that does not mark a failure never
/// fires a failure rule on its post event.
pub fn can_fire(host: Flavor, kind: &EventKind, flavor: Flavor, rule_event: &EventKind) -> bool {
    use EventKind::{PostToolUse, PostToolUseFailure};
    match (kind, rule_event) {
        (PostToolUse, PostToolUseFailure) => {
            matches!(host.tables().protocol.failed_call, FailedCall::Marked(_))
        }
        (PostToolUseFailure, PostToolUse) => !matches!(
            flavor.tables().protocol.failed_call,
            FailedCall::OwnEvent | FailedCall::Unfired(EVERY_TOOL)
        ),
        (kind, rule) => kind == rule,
    }
}

/// The event as a rule on `rule_event` is shown it: under its own event's name, where the host
/// fired the other post event ([`fires`]).
pub fn seen_as<'e>(event: &'e Event, rule_event: &EventKind) -> Cow<'e, Event> {
    if event.kind == *rule_event {
        return Cow::Borrowed(event);
    }
    let mut seen = event.clone();
    seen.kind = rule_event.clone();
    Cow::Owned(seen)
}

/// A host's post event that its flavour marks failed gets the canonical [`ERROR`], the
/// failure's text, so that the call reads as failed whatever flavour reads it next.
pub(crate) fn decode_mark(t: &Tables, kind: &EventKind, fields: &mut Map<String, Value>) {
    let FailedCall::Marked(marks) = t.protocol.failed_call else {
        return;
    };
    if *kind != EventKind::PostToolUse || fields.contains_key(ERROR) {
        return;
    }
    let Some(mark) = marks.iter().find(|m| marked(m, fields)) else {
        return;
    };
    let texts: Vec<String> = all_at(fields, mark.message)
        .into_iter()
        .filter_map(|v| match v {
            Value::String(s) => Some(s.clone()),
            Value::Null => None,
            v => Some(v.to_string()),
        })
        .collect();
    let text = match texts.is_empty() {
        true => "the tool call failed".to_string(),
        false => texts.join("\n"),
    };
    fields.insert(ERROR.to_string(), text.into());
}

/// The fields a handler of `flavor` is given for a failed call: where its agent marks a failure
/// in its post event, the mark (its first, written with the text where the host did not send
/// it) instead of [`ERROR`]. Other flavours read [`ERROR`] as it is (Claude's, Qwen's, Copilot's
/// and Cursor's failure events name it so).
pub(crate) fn shown_to<'e>(event: &'e Event, flavor: Flavor) -> Cow<'e, Event> {
    let FailedCall::Marked(marks) = flavor.tables().protocol.failed_call else {
        return Cow::Borrowed(event);
    };
    let Some(mark) = marks.first() else {
        return Cow::Borrowed(event);
    };
    if !failed(event) || mark.path == [ERROR] {
        return Cow::Borrowed(event);
    }
    let mut shown = event.clone();
    let text = shown.fields.remove(ERROR).unwrap_or(Value::Null);
    if !marks.iter().any(|m| marked(m, &shown.fields)) {
        if mark.is_false {
            put(&mut shown.fields, mark.path, Value::Bool(false));
        }
        if at(&shown.fields, mark.message).is_none_or(Value::is_null) {
            put(&mut shown.fields, mark.message, text);
        }
    }
    Cow::Owned(shown)
}

/// Whether `fields` carry `mark`: any value at its path does, where the path runs through a
/// list (one record per command or file, Cline's `run_commands` and `read_files`).
fn marked(mark: &FailMark, fields: &Map<String, Value>) -> bool {
    all_at(fields, mark.path).into_iter().any(|v| match v {
        Value::Bool(false) => mark.is_false,
        Value::Null => false,
        _ => !mark.is_false,
    })
}

fn at<'a>(fields: &'a Map<String, Value>, path: &[&str]) -> Option<&'a Value> {
    let (first, rest) = path.split_first()?;
    rest.iter()
        .try_fold(fields.get(*first)?, |value, key| value.get(*key))
}

/// The values at `path`, a list on the way standing for each of its items.
fn all_at<'a>(fields: &'a Map<String, Value>, path: &[&str]) -> Vec<&'a Value> {
    fn walk<'a>(value: &'a Value, path: &[&str], out: &mut Vec<&'a Value>) {
        let Some((key, rest)) = path.split_first() else {
            out.push(value);
            return;
        };
        match value {
            Value::Array(items) => items.iter().for_each(|v| walk(v, path, out)),
            Value::Object(map) => {
                if let Some(v) = map.get(*key) {
                    walk(v, rest, out)
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Some((first, rest)) = path.split_first()
        && let Some(v) = fields.get(*first)
    {
        walk(v, rest, &mut out);
    }
    out
}

/// Writes `value` at `path`, making the objects on the way where nothing (or null) is; a
/// value of another kind on the way is left as it is, and nothing is written.
fn put(fields: &mut Map<String, Value>, path: &[&str], value: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut map = fields;
    for key in parents {
        let slot = map
            .entry(key.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
        if slot.is_null() {
            *slot = Value::Object(Map::new());
        }
        let Value::Object(inner) = slot else {
            return;
        };
        map = inner;
    }
    map.insert(last.to_string(), value);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flavour has a failure event exactly where its table says so: selection reads the
    /// table, the event list names the event.
    #[test]
    fn own_failure_events_are_the_flavours_that_name_one() {
        for flavor in Flavor::all() {
            let t = flavor.tables();
            assert_eq!(
                t.protocol.failed_call == FailedCall::OwnEvent,
                t.event_name(&EventKind::PostToolUseFailure).is_some(),
                "{}",
                flavor.name()
            );
        }
    }

    #[test]
    fn a_mark_is_written_where_nothing_is_and_read_back() {
        let gemini = crate::dialect::gemini::FLAVOR;
        let mut event = Event::tool_call(EventKind::PostToolUse, "read", Value::Null);
        event.fields.insert(ERROR.into(), "R-GONE".into());
        let shown = shown_to(&event, gemini);
        assert!(shown.fields.get(ERROR).is_none());
        assert_eq!(
            shown.fields["tool_response"],
            serde_json::json!({"error": {"message": "R-GONE"}})
        );
        let mut fields = shown.fields.clone();
        decode_mark(gemini.tables(), &EventKind::PostToolUse, &mut fields);
        assert_eq!(fields[ERROR], "R-GONE");
    }
}
