//! The run-time protocol: a host's event payload in, a handler's stdin and env out, a handler's
//! answer in, the host's answer out.
//!
//! Every dialect difference is data in [`ProtocolTables`] (one per flavour, in each dialect's
//! `Tables`); the code in [`payload`] and [`answer`] reads those tables and never asks which
//! dialect it serves.

pub mod answer;
pub mod failed;
pub mod payload;
pub mod result;

pub use answer::{HostAnswer, decode_answer, encode_answer};
pub use payload::{decode_event, decode_event_as, detect_host, encode_event, handler_env};

use crate::model::EventKind;
use crate::tables::{Exit2, Flavor, KeyCase, ProtocolTables, Slot, Tables};

/// The canonical payload field in which a host says its Stop continues one a hook blocked.
pub const CONTINUATION: &str = "stop_hook_active";

/// What a handler answering by `from`'s rules may say on `kind` that a host answering by
/// `to`'s cannot hear, when `to` reads no JSON answer at all (only exit codes, and plain stdout
/// as context on its `plain_stdout_context` events): empty for a host with JSON answers.
pub fn unreadable_answers(
    from: &ProtocolTables,
    to: &ProtocolTables,
    kind: &EventKind,
) -> Vec<&'static str> {
    if !to.answer.is_empty() {
        return Vec::new();
    }
    let stops = matches!(
        to.exit2(kind),
        Some(Exit2::Deny | Exit2::DenyWithoutReason | Exit2::DenyWithStdout | Exit2::Block)
    );
    let mut out: Vec<&'static str> = Vec::new();
    for field in from.answer.iter().filter(|f| f.written_on(kind)) {
        let lost = match field.slot {
            Slot::Permission | Slot::Behavior => Some("allow and ask decisions"),
            Slot::Decision | Slot::Cancel | Slot::BlockingReason if !stops => {
                Some("blocking decisions")
            }
            Slot::Context if !to.plain_stdout_context.contains(kind) => Some("additional context"),
            Slot::UpdatedInput | Slot::BehaviorInput => Some("updated tool input"),
            Slot::Continue => Some("stopping the agent"),
            Slot::SystemMessage => Some("a message to the user"),
            Slot::Prompt => Some("a replacement prompt"),
            Slot::ToolResult => Some("a replacement tool result"),
            Slot::Interrupt => Some("interrupting the agent"),
            _ => None,
        };
        if let Some(lost) = lost
            && !out.contains(&lost)
        {
            out.push(lost);
        }
    }
    if !stops
        && from
            .exit2
            .iter()
            .any(|(k, e)| k == kind && !matches!(e, Exit2::Context))
        && !out.contains(&"blocking decisions")
    {
        out.push("blocking decisions");
    }
    out
}

/// Whether the event asks for a permission decision on a tool call.
pub(crate) fn is_permission_event(kind: &EventKind) -> bool {
    matches!(kind, EventKind::PreToolUse | EventKind::PermissionRequest)
}

/// The name a flavour gives an event; events it lacks keep their canonical (or original) name.
pub(crate) fn event_name(tables: &Tables, kind: &EventKind) -> String {
    tables
        .event_name(kind)
        .map(str::to_string)
        .unwrap_or_else(|| kind.name().to_string())
}

/// A field's value and its other spellings ([`Tables::value_renames`] of every flavour), which
/// a matcher on the field is tried against: Copilot's `new` is Claude's `startup`.
pub(crate) fn spellings(kind: &EventKind, key: &str, value: &str) -> Vec<String> {
    let mut all = vec![value.to_string()];
    let rows = Flavor::all().iter().flat_map(|f| f.tables().value_renames);
    for (k, c, canonical, native) in rows {
        let other = match value {
            _ if k != kind || *c != key => continue,
            v if v == *native => canonical,
            v if v == *canonical => native,
            _ => continue,
        };
        if !all.iter().any(|s| s == other) {
            all.push(other.to_string());
        }
    }
    all
}

/// The canonical (snake_case) key of a native payload key.
pub fn canonical_key(tables: &Tables, key: &str) -> String {
    if let Some((canonical, _)) = tables.key_renames.iter().find(|(_, n)| *n == key) {
        return (*canonical).to_string();
    }
    if tables.protocol.verbatim_keys.contains(&key) {
        return key.to_string();
    }
    match tables.key_case {
        KeyCase::Snake => key.to_string(),
        KeyCase::Camel => camel_to_snake(key),
    }
}

/// The native payload key of a canonical key.
pub(crate) fn native_key(tables: &Tables, key: &str) -> String {
    if let Some((_, native)) = tables.key_renames.iter().find(|(c, _)| *c == key) {
        return (*native).to_string();
    }
    if tables.protocol.verbatim_keys.contains(&key) {
        return key.to_string();
    }
    match tables.key_case {
        KeyCase::Snake => key.to_string(),
        KeyCase::Camel => snake_to_camel(key),
    }
}

/// `toolUseId` → `tool_use_id`.
pub fn camel_to_snake(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `tool_use_id` → `toolUseId`.
pub fn snake_to_camel(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut upper = false;
    for c in key.chars() {
        if c == '_' && !out.is_empty() {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    if upper {
        out.push('_');
    }
    out
}

/// Tool arguments renamed from one flavour's names to canonical (Claude) names.
pub fn args_to_canonical(
    flavor: Flavor,
    tool_id: Option<&str>,
    input: serde_json::Value,
) -> serde_json::Value {
    rename_args(flavor, tool_id, input, true)
}

/// A canonical tool input in one flavour's form: through its codec where the flavour has one
/// for the tool (Augment's `str-replace-editor` for Edit), else with its arguments renamed.
pub(crate) fn input_from_canonical(
    flavor: Flavor,
    tool_id: Option<&str>,
    input: &serde_json::Value,
) -> serde_json::Value {
    let coded = tool_id.and_then(|id| {
        flavor
            .tables()
            .tool_codecs
            .iter()
            .filter(|c| c.ids.contains(&id))
            .find_map(|c| (c.encode)(id, input, None))
    });
    coded.unwrap_or_else(|| args_from_canonical(flavor, tool_id, input))
}

/// One flavour's tool input in canonical form: through its codec where it has one for the
/// tool, else with its arguments renamed (the inverse of [`input_from_canonical`]).
pub(crate) fn input_to_canonical(
    flavor: Flavor,
    tool_id: Option<&str>,
    input: serde_json::Value,
) -> serde_json::Value {
    let decoded = tool_id.and_then(|id| {
        flavor
            .tables()
            .tool_codecs
            .iter()
            .filter(|c| c.ids.contains(&id))
            .find_map(|c| (c.decode)(&input, None))
    });
    match decoded {
        Some((_, canonical)) => canonical,
        None => args_to_canonical(flavor, tool_id, input),
    }
}

/// Tool arguments renamed from canonical names to one flavour's names.
pub(crate) fn args_from_canonical(
    flavor: Flavor,
    tool_id: Option<&str>,
    input: &serde_json::Value,
) -> serde_json::Value {
    rename_args(flavor, tool_id, input.clone(), false)
}

fn rename_args(
    flavor: Flavor,
    tool_id: Option<&str>,
    input: serde_json::Value,
    to_canonical: bool,
) -> serde_json::Value {
    let (Some(id), serde_json::Value::Object(map)) = (tool_id, &input) else {
        return input;
    };
    let tables = flavor.tables();
    // A tool the flavour lacks that is calls of one it has (a MultiEdit: Edits) names its
    // file as that one does: a Copilot guard reads `path` (attacks row 1066).
    let renames = match tables.arg_renames(id) {
        [] => crate::model::tool::PARTS
            .iter()
            .find(|(whole, _)| *whole == id)
            .and_then(|(_, parts)| parts.first())
            .map_or(&[][..], |part| tables.arg_renames(part)),
        own => own,
    };
    if renames.is_empty() {
        return input;
    }
    let renamed = |k: &str| {
        renames.iter().find_map(|(canonical, native)| {
            if to_canonical {
                (*native == k).then_some(*canonical)
            } else {
                (*canonical == k).then_some(*native)
            }
        })
    };
    // A key the model added under the other name (`file_path` beside Copilot's `path`) is
    // one the tool never reads: the renamed key wins, else a guard checks the decoy while
    // the tool writes the real path (attacks row 1060).
    let mut out = serde_json::Map::with_capacity(map.len());
    for (k, v) in map {
        match renamed(k) {
            Some(name) => {
                out.insert(name.to_string(), v.clone());
            }
            None => {
                out.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Additive fields written twice would be read twice; decisions may sit in two places.
    #[test]
    fn additive_fields_are_written_once_per_event() {
        for &flavor in Flavor::all() {
            let p = &flavor.tables().protocol;
            for kind in EventKind::KNOWN {
                for slot in [Slot::Context, Slot::SystemMessage] {
                    assert!(
                        p.written(slot, &kind).count() <= 1,
                        "{} writes {slot:?} twice on {kind}",
                        flavor.name()
                    );
                }
                for slot in [Slot::Permission, Slot::Behavior] {
                    assert!(
                        !p.writes(slot, &kind) || is_permission_event(&kind),
                        "{} writes {slot:?} on {kind}",
                        flavor.name()
                    );
                }
            }
        }
    }

    #[test]
    fn key_case_round_trips() {
        for key in ["session_id", "tool_use_id", "cwd", "text_result_for_llm"] {
            assert_eq!(camel_to_snake(&snake_to_camel(key)), key);
        }
        assert_eq!(snake_to_camel("text_result_for_llm"), "textResultForLlm");
        assert_eq!(camel_to_snake("sessionId"), "session_id");
    }
}
