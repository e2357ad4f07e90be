//! A tool call that failed, between agents that give it an event of its own (Claude's
//! PostToolUseFailure) and agents whose one post event marks it (Gemini CLI's AfterTool with
//! `tool_response.error`): each rule fires as its own agent would fire it after that call, and
//! its handler is told the call failed in its own agent's terms (attacks rows 1552, 1553).
//! What each flavour does is [`crate::tables::ProtocolTables::failed_call`].

use crate::model::{Event, EventKind};
use crate::tables::{FailMark, FailedCall, Flavor, Tables};
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
/// failure event after a call that did not fail (or that its host does not tell apart), a post
/// rule of an agent with one post event after both. Any other rule: on its own event.
pub fn fires(flavor: Flavor, rule_event: &EventKind, event: &Event) -> bool {
    use EventKind::{PostToolUse, PostToolUseFailure};
    let own_event = flavor.tables().protocol.failed_call == FailedCall::OwnEvent;
    match (rule_event, &event.kind) {
        (PostToolUse, PostToolUse) => !(own_event && failed(event)),
        (PostToolUseFailure, PostToolUse) => failed(event),
        (PostToolUse, PostToolUseFailure) => !own_event,
        (rule, host) => rule == host,
    }
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
        (PostToolUseFailure, PostToolUse) => {
            flavor.tables().protocol.failed_call != FailedCall::OwnEvent
        }
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
    let FailedCall::Marked(mark) = t.protocol.failed_call else {
        return;
    };
    if *kind != EventKind::PostToolUse || fields.contains_key(ERROR) || !marked(&mark, fields) {
        return;
    }
    let text = match at(fields, mark.message) {
        Some(Value::String(s)) => s.clone(),
        Some(v) if !v.is_null() => v.to_string(),
        _ => "the tool call failed".to_string(),
    };
    fields.insert(ERROR.to_string(), text.into());
}

/// The fields a handler of `flavor` is given for a failed call: where its agent marks a failure
/// in its post event, the mark (written with the text where the host did not send it) instead
/// of [`ERROR`]. Other flavours read [`ERROR`] as it is (Claude's, Qwen's, Copilot's and
/// Cursor's failure events name it so).
pub(crate) fn shown_to<'e>(event: &'e Event, flavor: Flavor) -> Cow<'e, Event> {
    let FailedCall::Marked(mark) = flavor.tables().protocol.failed_call else {
        return Cow::Borrowed(event);
    };
    if !failed(event) || mark.path == [ERROR] {
        return Cow::Borrowed(event);
    }
    let mut shown = event.clone();
    let text = shown.fields.remove(ERROR).unwrap_or(Value::Null);
    if !marked(&mark, &shown.fields) {
        if mark.is_false {
            put(&mut shown.fields, mark.path, Value::Bool(false));
        }
        if at(&shown.fields, mark.message).is_none_or(Value::is_null) {
            put(&mut shown.fields, mark.message, text);
        }
    }
    Cow::Owned(shown)
}

/// Whether `fields` carry `mark`.
fn marked(mark: &FailMark, fields: &Map<String, Value>) -> bool {
    match at(fields, mark.path) {
        Some(Value::Bool(false)) => mark.is_false,
        Some(Value::Null) | None => false,
        Some(_) => !mark.is_false,
    }
}

fn at<'a>(fields: &'a Map<String, Value>, path: &[&str]) -> Option<&'a Value> {
    let (first, rest) = path.split_first()?;
    rest.iter()
        .try_fold(fields.get(*first)?, |value, key| value.get(*key))
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
