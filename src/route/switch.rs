//! The host setting `hookx install` writes beside its routes where the host reads another
//! dialect's files itself with its own payload and lists single handlers it leaves alone
//! ([`HookSwitch`], Copilot's `disabledHooks`): those handlers then run once, through hookx,
//! with the payload they were written for.
//!
//! The list is the user's, one for every project, and may hold keys of the user's own. hookx
//! records the keys it added in an object of its own in the same file, per install (`"hookx":
//! {"disabledHooks": {"/the/project": […]}}`), adds and removes only those, and never claims a
//! key the user had listed first. The file is edited in place ([`JsonText`]): every other
//! byte stays as it was.

use crate::config::edit::{JsonText, Seg};
use crate::config::update::Change;
use crate::tables::HookSwitch;
use serde_json::{Map, Value, json};

/// The record's mark of a list the user had before hookx listed a key in it.
const USERS_LIST: &str = "usersList";

/// The whitespace inside such a list when it was empty (`[\n]`): put back when it is empty
/// again, for an emptied list reads `[]`.
const USERS_BLANK: &str = "usersListBlank";

/// How the record names an install of the home's files (`--scope user`).
pub const HOME_OWNER: &str = "~";

/// The record's count of the folders hookx created with the file (above it, its own first).
const FOLDERS: &str = "folders";

/// The change that leaves the keys hookx records for `owner` (the install's project, or the
/// home) exactly `wanted` (none on uninstall), and none for a project whose folder is gone;
/// the file hookx created is deleted once nothing else is in it (`new_folders`: how many
/// folders writing a new file creates, recorded for [`created_folders`]). `Err` names what in
/// the file stops the edit.
pub fn switch_text(
    current: Option<&str>,
    switch: &HookSwitch,
    owner: &str,
    wanted: &[String],
    new_folders: usize,
) -> Result<Change, String> {
    let list = [Seg::from(switch.key)];
    let record_at = [Seg::from(switch.owned_key)];
    let mut text = JsonText::new(current.unwrap_or("{}\n").to_string());
    if !text.value(&[]).is_some_and(|v| v.is_object()) {
        // Where the JSON breaks, for the user to mend (serde_json says the line and column).
        return Err(
            match serde_json::from_str::<serde::de::IgnoredAny>(current.unwrap_or("{}")) {
                Err(e) => format!("not valid JSON: {e}"),
                Ok(_) => "not a JSON object".into(),
            },
        );
    }
    let strings = |v: &Value| -> Option<Vec<String>> {
        v.as_array()?
            .iter()
            .map(|i| i.as_str().map(str::to_string))
            .collect()
    };
    let listed = match text.value(&list) {
        None => Vec::new(),
        Some(v) => strings(&v).ok_or(format!("`{}` is not a list of strings", switch.key))?,
    };
    let record = match text.value(&record_at) {
        None if current.is_none() && new_folders > 0 => {
            json!({"created": true, FOLDERS: new_folders, switch.key: {}})
        }
        None => json!({"created": current.is_none(), switch.key: {}}),
        Some(r) => r,
    };
    let bad = || format!("`{}` is not the record hookx writes", switch.owned_key);
    let created = record
        .get("created")
        .and_then(Value::as_bool)
        .ok_or_else(bad)?;
    let mut owners: Map<String, Value> = record
        .get(switch.key)
        .and_then(Value::as_object)
        .cloned()
        .ok_or_else(bad)?;
    let union = |owners: &Map<String, Value>| -> Option<Vec<String>> {
        let mut all: Vec<String> = Vec::new();
        for keys in owners.values() {
            for k in strings(keys)? {
                if !all.contains(&k) {
                    all.push(k);
                }
            }
        }
        Some(all)
    };
    // A list that was there before hookx's first key went in is the user's, empty or not:
    // it stays when hookx's keys go (an old record, without the mark, says nothing of it).
    let users_list = match record.get(USERS_LIST) {
        None if owners.is_empty() => text.value(&list).is_some(),
        None => false,
        Some(v) => v.as_bool().ok_or_else(bad)?,
    };
    let blank = match record.get(USERS_BLANK) {
        None if owners.is_empty() => text.blank(&list).map(str::to_string),
        None => None,
        Some(v) => Some(v.as_str().ok_or_else(bad)?.to_string()),
    }
    .filter(|b| users_list && !b.is_empty());
    let had = union(&owners).ok_or_else(bad)?;
    // An install whose folder is gone (moved, deleted) can never be uninstalled from it: its
    // keys would stay listed, the handlers off everywhere for good. Any edit drops it.
    owners.retain(|o, _| o == HOME_OWNER || std::path::Path::new(o).is_dir());
    // The user's own keys: listed, and recorded for no install.
    let users: Vec<&String> = listed.iter().filter(|k| !had.contains(k)).collect();
    let mut mine: Vec<String> = Vec::new();
    for k in wanted.iter().filter(|k| !users.contains(k)) {
        if !mine.contains(k) {
            mine.push(k.clone());
        }
    }
    match mine.is_empty() {
        true => owners.remove(owner),
        false => owners.insert(owner.to_string(), json!(mine)),
    };
    let ours = union(&owners).ok_or_else(bad)?;
    // hookx's keys no install wants any more go, from the last so the indices hold: once
    // each, as hookx listed each once (the same key listed again is the user's; row 207).
    let mut gone: Vec<&String> = Vec::new();
    for (i, key) in listed.iter().enumerate().rev() {
        if had.contains(key) && !ours.contains(key) && !gone.contains(&key) {
            gone.push(key);
            text.remove(&[Seg::from(switch.key), Seg::Index(i)])
                .ok_or("cannot edit the list")?;
        }
    }
    for key in ours.iter().filter(|k| !listed.contains(k)) {
        match text.value(&list) {
            Some(_) => text.push(&list, &json!(key)),
            None => text.add_property(&[], switch.key, &json!([key])),
        }
        .ok_or("cannot edit the list")?;
    }
    if text.len(&list) == Some(0) && !users_list {
        text.remove(&list).ok_or("cannot edit the list")?;
    }
    if let Some(blank) = &blank
        && text.blank(&list).is_some()
    {
        text.set_blank(&list, blank).ok_or_else(bad)?;
    }
    let has_record = text.value(&record_at).is_some();
    let mut new_record = json!({"created": created, switch.key: owners});
    if let Some(folders) = record.get(FOLDERS) {
        new_record[FOLDERS] = folders.clone();
    }
    if users_list {
        new_record[USERS_LIST] = json!(true);
    }
    if let Some(blank) = blank {
        new_record[USERS_BLANK] = json!(blank);
    }
    match (has_record, owners.is_empty()) {
        (true, true) => text.remove(&record_at),
        (true, false) => text.replace(&record_at, &new_record),
        (false, false) => text.add_property(&[], switch.owned_key, &new_record),
        (false, true) => Some(()),
    }
    .ok_or("cannot edit hookx's record")?;
    // Nothing else: no key, and no comment of the user's either.
    let emptied = serde_json::from_str::<Value>(text.as_str()).is_ok_and(|v| v == json!({}));
    Ok(match (emptied && created, current) {
        (true, Some(_)) => Change::Delete,
        (true, None) => Change::Keep,
        (false, Some(now)) if now == text.as_str() => Change::Keep,
        _ => Change::Write(text.into_text()),
    })
}

/// How many folders hookx created with the switch file whose text is `current`, as its record
/// says (none when it does not say).
pub fn created_folders(current: &str, switch: &HookSwitch) -> usize {
    JsonText::new(current)
        .value(&[Seg::from(switch.owned_key), Seg::from(FOLDERS)])
        .and_then(|n| n.as_u64())
        .and_then(|n| usize::try_from(n).ok())
        .unwrap_or(0)
}

/// The installs (projects, or `~` for the home) whose keys hookx records in the switch file's
/// text `current` (read as the host reads it, as [`listed_keys`]): while a project is among
/// them, a byte-identical handler in any other project is switched off too, and hookx's user
/// route runs it there.
pub fn recorded_owners(current: &str, switch: &HookSwitch) -> Vec<String> {
    JsonText::new(current)
        .value(&[Seg::from(switch.owned_key), Seg::from(switch.key)])
        .as_ref()
        .and_then(Value::as_object)
        .map(|owners| owners.keys().cloned().collect())
        .unwrap_or_default()
}

/// The keys hookx records for any install in the switch file's text `current`: listed there
/// as hookx's, whoever else listed them too.
pub fn recorded_keys(current: &str, switch: &HookSwitch) -> Vec<String> {
    JsonText::new(current)
        .value(&[Seg::from(switch.owned_key), Seg::from(switch.key)])
        .as_ref()
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|owners| owners.values())
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|k| k.as_str().map(str::to_string))
        .collect()
}

/// The keys the switch file's text `current` lists (comments and trailing commas read as
/// the host reads them).
pub fn listed_keys(current: &str, switch: &HookSwitch) -> Vec<String> {
    JsonText::new(current)
        .value(&[Seg::from(switch.key)])
        .and_then(|v| {
            v.as_array()?
                .iter()
                .map(|k| k.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
