//! A host's own list of the handlers it does not run, by label (Gemini's
//! `hooksConfig.disabled`: a handler's `name`, else its command). When one of hookx's writes
//! changes the label of a handler it keeps (a converted copy written again, row 329), a listed
//! old label follows it, so that what the user turned off stays off. A re-pointed route keeps
//! its label instead (`route::file::keep_label`, row 333: its lists are in other files too).

use super::edit::{JsonText, Seg};
use crate::tables::DisabledHandlers;
use serde_json::Value;

/// `after` (the file's text as hookx writes it) with each label of `off`'s list that named a
/// handler of `before` replaced by that handler's label in `after`, handlers told apart by
/// `identity` (`None`: not hookx's to follow). Both read with comments, as the host reads
/// them (row 322).
pub fn follow(
    off: &DisabledHandlers,
    before: &str,
    after: &str,
    identity: &dyn Fn(&Value) -> Option<String>,
) -> String {
    let labels = |text: &str| {
        let mut out: Vec<(String, String)> = Vec::new();
        if let Some(value) = JsonText::new(text).value(&[]) {
            collect(&value, off, identity, &mut out);
        }
        out
    };
    let (old, new) = (labels(before), labels(after));
    let mut text = JsonText::new(after.to_string());
    let at = [Seg::from(off.key), Seg::from(off.inner)];
    let Some(Value::Array(listed)) = text.value(&at) else {
        return after.to_string();
    };
    for (i, item) in listed.iter().enumerate() {
        let Some(label) = item.as_str() else {
            continue;
        };
        if new.iter().any(|(_, l)| l == label) {
            continue;
        }
        let now = old
            .iter()
            .filter(|(_, l)| l == label)
            .find_map(|(id, _)| new.iter().find(|(n, _)| n == id));
        if let Some((_, now)) = now {
            let _ = text.replace(
                &[at[0].clone(), at[1].clone(), Seg::from(i)],
                &Value::from(now.as_str()),
            );
        }
    }
    text.into_text()
}

/// The (identity, label) of every handler in `value` that `identity` knows.
fn collect(
    value: &Value,
    off: &DisabledHandlers,
    identity: &dyn Fn(&Value) -> Option<String>,
    out: &mut Vec<(String, String)>,
) {
    match value {
        Value::Object(map) => {
            if let Some(id) = identity(value) {
                let label = off.named(map.get(off.label_key), || {
                    map.get("command").and_then(Value::as_str)
                });
                if let Some(label) = label {
                    out.push((id, label.to_string()));
                }
            }
            map.values().for_each(|v| collect(v, off, identity, out));
        }
        Value::Array(list) => list.iter().for_each(|v| collect(v, off, identity, out)),
        _ => {}
    }
}

/// The labels `off`'s list in `text` names that are the label of a handler `identity` knows
/// (read with comments): each such handler the host runs nowhere.
pub fn listed(
    off: &DisabledHandlers,
    text: &str,
    identity: &dyn Fn(&Value) -> Option<String>,
) -> Vec<String> {
    let Some(value) = JsonText::new(text).value(&[]) else {
        return Vec::new();
    };
    let mut known = Vec::new();
    collect(&value, off, identity, &mut known);
    let Some(top) = value.as_object() else {
        return Vec::new();
    };
    let mut out: Vec<String> = off
        .labels(top)
        .filter(|label| known.iter().any(|(_, l)| l == label))
        .map(str::to_string)
        .collect();
    out.dedup();
    out
}
