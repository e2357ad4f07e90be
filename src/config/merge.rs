//! `convert --write`: merging a converted [`Document`] into the file already at its target, so
//! that entries an earlier run wrote from the same sources are replaced where they were and
//! every other byte stays.

use super::MARKER;
use super::edit::{JsonText, Seg};
use super::read;
use super::write::{event_key, rule_json, to_text};
use crate::error::Error;
use crate::tables::{Document, RuleList};
use serde_json::{Value, json};
use std::path::Path;

/// Merges `doc`'s rules into the config file at `path` (which may not exist yet): a sync from
/// the files its rules came from ([`sync_text`]). Returns the new text.
pub fn merge_into(path: &Path, doc: &Document, same_copy: SameCopy) -> Result<String, Error> {
    let mut sources: Vec<&str> = doc.rules.iter().map(|r| r.origin.file.as_str()).collect();
    sources.dedup();
    let current = match crate::read::text(path, crate::read::MAX_FILE_BYTES) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(Error::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            });
        }
    };
    sync_text(path, doc, &sources, current.as_deref(), same_copy)
}

/// An entry (without hookx's records) as it compares with a copy written again: equal for two
/// copies that differ only by the hookx program they call (convert's `but_its_hookx`).
pub type SameCopy = fn(&Value) -> Value;

/// `convert --write`: the text of the file at `path` (`current`, `None` when there is none)
/// once synced with `doc`, converted from the files `sources`.
///
/// Every handler written carries hookx's provenance record ([`MARKER`]) naming the source it
/// came from, relative to the target's folder. The entries an earlier run wrote from these
/// sources are replaced by the new ones where they were (or removed, when the source no longer
/// has them); hand-written entries, entries from other sources and every other byte stay. A
/// second run with the same sources gives the same text. A new entry equal to a hand-written
/// one is not added twice; a copy another run wrote that is the same by `same_copy` is
/// replaced by it.
///
/// Each entry written carries in its record the [`Owned::digest`] of what was written
/// (`"digest"`), so that the next write can tell a hand edit of it ([`hand_edited`]).
pub fn sync_text(
    path: &Path,
    doc: &Document,
    sources: &[&str],
    current: Option<&str>,
    same_copy: SameCopy,
) -> Result<String, Error> {
    let text = merged_text(path, doc, sources, current, same_copy)?;
    let owned: Vec<Value> = sources
        .iter()
        .map(|s| Value::from(source_record(path, s)))
        .collect();
    Ok(stamp(&text, &owned))
}

/// [`sync_text`] before the digests are recorded.
fn merged_text(
    path: &Path,
    doc: &Document,
    sources: &[&str],
    current: Option<&str>,
    same_copy: SameCopy,
) -> Result<String, Error> {
    if doc.kind.frontmatter || path.extension().is_some_and(|e| e == "md") {
        return Err(Error::Usage(format!(
            "{}: hookx does not write into markdown frontmatter; use --out to write a new file",
            path.display()
        )));
    }
    if path.extension().is_some_and(|e| e == "toml") {
        return Err(Error::Usage(format!(
            "{}: hookx reads hooks in TOML but does not write them; write the {} hook file (the default target, or --out FILE.json)",
            path.display(),
            doc.dialect.def().display
        )));
    }
    let mut marked = doc.clone();
    for rule in &mut marked.rules {
        let source = Value::from(source_record(path, &rule.origin.file));
        for handler in &mut rule.handlers {
            // The record convert wrote (what the handler was), its source named from here.
            let record = handler.extra.entry(MARKER).or_insert_with(|| json!({}));
            match record.as_object_mut() {
                Some(fields) => {
                    fields.insert("source".into(), source.clone());
                }
                None => *record = json!({ "source": source.clone() }),
            }
        }
    }
    // Two sources' copies alike but for hookx's records (a file and the source of a copy it
    // holds, converted in one run): the first stands for both, as when the files are converted
    // one after the other. Codex runs each of two alike handlers (attacks row 681).
    let mut seen: Vec<(&str, Vec<Value>)> = Vec::new();
    let alike: Vec<bool> = marked
        .rules
        .iter()
        .map(|rule| {
            let this = (
                event_key(rule),
                rule_json(&marked, rule).iter().map(unmarked).collect(),
            );
            let again = seen.contains(&this);
            seen.push(this);
            again
        })
        .collect();
    let mut alike = alike.into_iter();
    marked.rules.retain(|_| !alike.next().unwrap_or(false));
    let Some(current) = current else {
        return Ok(to_text(&marked));
    };
    let src = crate::source::SourceFile::new(path.display().to_string(), current);
    let parsed = read::read_checked(&src, doc.dialect)?;
    // Copies written into a file the agent refuses whole would run nowhere (attacks row 621).
    if let Some(d) = super::strict_load::refused_whole(&src, &parsed.document, &parsed.diagnostics)
    {
        return Err(super::strict_load::refused_write(&src.path, d, "copy"));
    }
    let owned: Vec<Value> = sources
        .iter()
        .map(|s| Value::from(source_record(path, s)))
        .collect();
    if let Some(list) = doc.dialect.config().rule_list {
        // A file in an older form (an agent config, a one-rule file) is read, never written:
        // writing the list there would replace what the agent reads in it.
        if *parsed.document.kind != *doc.dialect.config().documents.file {
            return Err(Error::Usage(format!(
                "{}: is a {} file in a form hookx reads but does not write ({}); write another file of the folder (--out FILE.json)",
                path.display(),
                doc.dialect.def().display,
                parsed.document.kind.name
            )));
        }
        return sync_rule_list(path, doc, list, &marked, &owned, current);
    }
    let events: Vec<Seg> = match parsed.document.wrapped || parsed.document.rules.is_empty() {
        true => vec![Seg::from("hooks")],
        false => Vec::new(),
    };
    let mut text = JsonText::new(current);
    let mut wanted: Vec<(String, Vec<Value>)> = Vec::new();
    for rule in &marked.rules {
        let name = event_key(rule);
        let values = rule_json(&marked, rule);
        match wanted.iter_mut().find(|(n, _)| *n == name) {
            Some((_, list)) => list.extend(values),
            None => wanted.push((name.to_string(), values)),
        }
    }
    let mut names: Vec<String> = match text.value(&events) {
        Some(Value::Object(map)) => map.keys().cloned().collect(),
        _ => Vec::new(),
    };
    for (name, _) in &wanted {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    for name in names {
        let new: Vec<Value> = wanted
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, l)| l.clone())
            .unwrap_or_default();
        sync_event(&mut text, &events, &name, new, &owned, same_copy).ok_or_else(|| Error::Io {
            path: path.display().to_string(),
            message: format!("hookx could not edit the `{name}` entries in place"),
        })?;
    }
    Ok(text.into_text())
}

/// Whether a handler's provenance record names one of the `owned` sources.
fn is_owned(handler: &Value, owned: &[Value]) -> bool {
    handler
        .get(MARKER)
        .and_then(|m| m.get("source"))
        .is_some_and(|s| owned.contains(s))
}

/// The entry without hookx's provenance records, to compare with a hand-written one.
fn unmarked(entry: &Value) -> Value {
    let mut entry = entry.clone();
    if let Some(obj) = entry.as_object_mut() {
        obj.remove(MARKER);
        if let Some(Value::Array(handlers)) = obj.get_mut("hooks") {
            for h in handlers {
                if let Some(h) = h.as_object_mut() {
                    h.remove(MARKER);
                }
            }
        }
    }
    entry
}

/// The entry without the digests in its records ([`stamp`]), as this run makes it.
fn undigested(entry: &Value) -> Value {
    let mut entry = entry.clone();
    let strip = |v: &mut Value| {
        if let Some(record) = v.get_mut(MARKER).and_then(Value::as_object_mut) {
            record.remove(DIGEST);
        }
    };
    strip(&mut entry);
    if let Some(Value::Array(handlers)) = entry.get_mut("hooks") {
        handlers.iter_mut().for_each(strip);
    }
    entry
}

/// The record's field holding what the entry held when hookx wrote it ([`Owned::digest`]).
const DIGEST: &str = "digest";

/// An entry in a file that names one of the sources in its hookx record.
pub struct Owned {
    /// Where it is.
    pub path: Vec<Seg>,
    /// The same as a JSON pointer.
    pub pointer: String,
    /// SHA-256 of what it holds: the handler (its record's digest aside), the other keys of
    /// the object holding it (a Claude group's `matcher`, a Kiro rule's `matcher` and
    /// `timeout`) and where it sits, indices aside; so a hand edit of any of these shows as a
    /// digest hookx never wrote. `hookx sync`'s lock keeps these too.
    pub digest: String,
    /// The digest an older hookx's sync lock holds for a handler held by a key of its rule
    /// (Kiro's `action`), made without the rule's keys; `None` elsewhere (the same).
    pub earlier: Option<String>,
    /// The record's `digest`: the first 16 digits of [`Owned::digest`] when it was written;
    /// `None` in a copy an older hookx wrote.
    pub recorded: Option<String>,
}

impl Owned {
    /// What the record keeps of the digest.
    fn short(&self) -> &str {
        &self.digest[..16]
    }

    /// Whether the entry is not what hookx wrote there (a copy without a digest cannot be
    /// told, and is taken as written).
    pub fn edited(&self) -> bool {
        self.recorded.as_deref().is_some_and(|r| r != self.short())
    }
}

/// Each entry of `text` whose hookx record names one of `sources`, in the file's order.
pub fn owned_entries(text: &str, sources: &[Value]) -> Vec<Owned> {
    let Some(value) = JsonText::new(text).value(&[]) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut path = Vec::new();
    walk(&value, &mut path, "", None, sources, &mut out);
    out
}

/// The entries hookx wrote from `sources` into `text` and that were edited by hand since.
pub fn hand_edited(text: &str, sources: &[Value]) -> Vec<Owned> {
    owned_entries(text, sources)
        .into_iter()
        .filter(Owned::edited)
        .collect()
}

/// The object holding an owned handler, and the key it is under there: a Claude group
/// (`{"matcher": …, "hooks": [...]}`) or a Kiro rule (`{"matcher": …, "action": {…}}`), whose
/// other keys are part of the entry.
type Holder<'a> = Option<(&'a serde_json::Map<String, Value>, &'a str)>;

fn walk(
    value: &Value,
    path: &mut Vec<Seg>,
    place: &str,
    holder: Holder,
    sources: &[Value],
    out: &mut Vec<Owned>,
) {
    match value {
        Value::Object(map) => {
            let record = map.get(MARKER);
            if record
                .and_then(|m| m.get("source"))
                .is_some_and(|s| sources.contains(s))
            {
                let recorded = record.and_then(|r| r.get(DIGEST)).map(|d| match d {
                    Value::String(d) => d.clone(),
                    other => other.to_string(),
                });
                let digest_of = |context: serde_json::Map<String, Value>| {
                    crate::hash::sha256_hex(
                        json!([place, context, undigested(value)])
                            .to_string()
                            .as_bytes(),
                    )
                };
                let context = |(holder, key): (&serde_json::Map<String, Value>, &str)| {
                    let mut context = holder.clone();
                    context.remove(key);
                    context
                };
                let digest = digest_of(holder.map(context).unwrap_or_default());
                // Before row 1399 a rule's keys counted only for a `hooks` group.
                let earlier = holder
                    .filter(|(_, key)| *key != "hooks")
                    .map(|_| digest_of(Default::default()));
                let pointer = path
                    .iter()
                    .map(|s| match s {
                        Seg::Key(k) => format!("/{}", crate::positions::escape(k)),
                        Seg::Index(i) => format!("/{i}"),
                    })
                    .collect();
                out.push(Owned {
                    path: path.clone(),
                    pointer,
                    digest,
                    earlier,
                    recorded,
                });
                return;
            }
            for (key, v) in map {
                let place = format!("{place}/{}", crate::positions::escape(key));
                let holds = (key == "hooks" && v.is_array()) || v.get(MARKER).is_some();
                let holder = holds.then_some((map, key.as_str()));
                path.push(Seg::from(key.as_str()));
                walk(v, path, &place, holder, sources, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(Seg::Index(i));
                walk(v, path, place, holder, sources, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// `text` with each entry from `owned` recording its digest, where it does not yet.
fn stamp(text: &str, owned: &[Value]) -> String {
    let mut edit = JsonText::new(text);
    for entry in owned_entries(text, owned) {
        if entry.recorded.as_deref() == Some(entry.short()) {
            continue;
        }
        let record: Vec<Seg> = entry
            .path
            .iter()
            .cloned()
            .chain([Seg::from(MARKER)])
            .collect();
        let digest = Value::from(entry.short());
        // Where the edit fails, the entry is left without one: taken as written next time, as
        // an older copy is.
        let _ = match entry.recorded {
            Some(_) => edit.replace(&[record.as_slice(), &[Seg::from(DIGEST)]].concat(), &digest),
            None => edit.add_property(&record, DIGEST, &digest),
        };
    }
    edit.into_text()
}

/// Whether every handler of `entry` carries hookx's provenance record: a copy convert wrote.
fn is_written_by_hookx(entry: &Value) -> bool {
    match entry.get("hooks").and_then(Value::as_array) {
        Some(handlers) => !handlers.is_empty() && handlers.iter().all(|h| h.get(MARKER).is_some()),
        None => entry.get(MARKER).is_some(),
    }
}

/// Syncs one event's array: `new` replaces the entries (and handlers) owned by this run.
fn sync_event(
    text: &mut JsonText,
    events: &[Seg],
    name: &str,
    new: Vec<Value>,
    owned: &[Value],
    same_copy: SameCopy,
) -> Option<()> {
    let list: Vec<Seg> = events.iter().cloned().chain([Seg::from(name)]).collect();
    let Some(current) = text.value(&list) else {
        if new.is_empty() {
            return Some(());
        }
        if events.is_empty() || text.value(events).is_some_and(|v| v.is_object()) {
            return text.add_property(events, name, &Value::Array(new));
        }
        text.add_property(&[], "hooks", &json!({}))?;
        return text.add_property(events, name, &Value::Array(new));
    };
    let Value::Array(entries) = current else {
        // Not an event array (the reader kept it aside): left alone.
        return Some(());
    };
    // Each entry: owned whole, owned in part (a group with hand-written handlers too), or not.
    let mut whole = Vec::new();
    let mut partial = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        match entry.get("hooks").and_then(Value::as_array) {
            Some(handlers) => {
                let mine: Vec<usize> = (0..handlers.len())
                    .filter(|&j| is_owned(&handlers[j], owned))
                    .collect();
                if !mine.is_empty() && mine.len() == handlers.len() {
                    whole.push(i);
                } else if !mine.is_empty() {
                    partial.push((i, mine));
                }
            }
            None if is_owned(entry, owned) => whole.push(i),
            None => {}
        }
    }
    // A copy another run wrote that differs from a new one only by the hookx it calls (hookx
    // moved) is the same copy: replaced, not run beside it (attacks row 660).
    let written_again: Vec<Value> = new.iter().map(|e| same_copy(&unmarked(e))).collect();
    for (i, entry) in entries.iter().enumerate() {
        if !whole.contains(&i)
            && is_written_by_hookx(entry)
            && written_again.contains(&same_copy(&unmarked(entry)))
            && !new.iter().any(|n| unmarked(n) == unmarked(entry))
        {
            whole.push(i);
        }
    }
    whole.sort_unstable();
    let kept: Vec<Value> = (0..entries.len())
        .filter(|i| !whole.contains(i))
        .map(|i| unmarked(&entries[i]))
        .collect();
    let new: Vec<Value> = new
        .into_iter()
        .filter(|e| !kept.contains(&unmarked(e)))
        .collect();
    // Written again the same: the text stays (its digests included).
    let old: Vec<Value> = whole.iter().map(|&i| undigested(&entries[i])).collect();
    if partial.is_empty() && old.iter().eq(new.iter()) {
        return Some(());
    }
    // Where the first entry of this run was, the new ones go; else after the others.
    let at = whole
        .first()
        .map_or(entries.len() - whole.len(), |&first| first);
    for i in (0..entries.len()).rev() {
        if whole.contains(&i) {
            text.remove(&[list.as_slice(), &[Seg::Index(i)]].concat())?;
        } else if let Some((_, mine)) = partial.iter().find(|(p, _)| *p == i) {
            for &j in mine.iter().rev() {
                let at = [Seg::Index(i), Seg::from("hooks"), Seg::Index(j)];
                text.remove(&[list.as_slice(), &at].concat())?;
            }
        }
    }
    if new.is_empty() && text.len(&list) == Some(0) && !whole.is_empty() {
        // Only this run's entries were there: the event goes with them.
        return text.remove(&list);
    }
    for (k, entry) in new.iter().enumerate() {
        text.insert(&list, at + k, entry)?;
    }
    Some(())
}

/// How a target's provenance record names a source file: relative to the target's folder
/// (both with symlinks resolved), so that the same file is named the same from any working
/// directory.
pub fn source_record(target: &Path, source: &str) -> String {
    let absolute = |p: &Path| match std::fs::canonicalize(p) {
        Ok(p) => p,
        Err(_) => std::env::current_dir().map_or(p.to_path_buf(), |d| d.join(p)),
    };
    let source_path = absolute(Path::new(source));
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    // The folder may not exist yet: resolve the part that does.
    let mut existing = dir;
    let mut rest = Vec::new();
    while !existing.exists() {
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => break,
        }
    }
    let mut dir = absolute(if existing.as_os_str().is_empty() {
        Path::new(".")
    } else {
        existing
    });
    dir.extend(rest.iter().rev());
    let a: Vec<_> = dir.components().collect();
    let b: Vec<_> = source_path.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    // Sharing only the root (or a drive), the absolute path says more than a `../../..` chain.
    if common <= 1 {
        return source_path.to_string_lossy().into_owned();
    }
    let mut out = std::path::PathBuf::new();
    for _ in common..a.len() {
        out.push("..");
    }
    out.extend(&b[common..]);
    out.to_string_lossy().replace('\\', "/")
}

/// [`sync_text`] for a rule-list file, which the agent reads beside the others of its folder:
/// hookx syncs only a file that holds nothing but rules it converted. Rules converted from
/// other sources stay, first; those from `owned` sources are replaced by the new ones.
fn sync_rule_list(
    path: &Path,
    doc: &Document,
    list: &RuleList,
    marked: &Document,
    owned: &[Value],
    current: &str,
) -> Result<String, Error> {
    let value: Value = serde_json::from_str(current).unwrap_or_default();
    // The list is written whole: a key beside it (which `validate` says is kept as written) or
    // another `version` (a file in a form hookx does not know, a Kiro IDE hook with a `trigger`
    // object: attacks row 1400) would be lost, so such a file is left as it is.
    if let Some(key) = list.key_beside(&value) {
        return Err(Error::Usage(format!(
            "{}: holds `{key}`, which hookx does not write into {} rule lists (it writes a list whole, `version` \"{}\" and `hooks`), so write another file of the folder (--out FILE.json)",
            path.display(),
            doc.dialect.def().display,
            list.version
        )));
    }
    let rules = value["hooks"].as_array().cloned().unwrap_or_default();
    if rules
        .iter()
        .any(|r| r[list.handler_key].get(MARKER).is_none())
    {
        return Err(Error::Usage(format!(
            "{}: holds rules hookx did not write; hookx writes {} rule lists of its own, so write another file of the folder (--out FILE.json)",
            path.display(),
            doc.dialect.def().display
        )));
    }
    let mut synced: Value = serde_json::from_str(&to_text(marked)).unwrap_or_default();
    let kept = rules
        .into_iter()
        .filter(|r| !is_owned(&r[list.handler_key], owned));
    if let Some(new) = synced["hooks"].as_array_mut() {
        let fresh = std::mem::take(new);
        new.extend(kept);
        new.extend(fresh);
    }
    let mut text = serde_json::to_string_pretty(&synced).unwrap_or_default();
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::claude;
    use crate::source::SourceFile;

    /// Reads `text` as a Claude file written at `dir/name`, and syncs it into `target`.
    fn sync(dir: &Path, name: &str, text: &str, target: &str) -> String {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let src = SourceFile::new(path.to_str().unwrap(), text);
        let doc = read::read(&src, claude::DIALECT).unwrap().document;
        let out = dir.join("settings.json");
        sync_text(
            &out,
            &doc,
            &[path.to_str().unwrap()],
            Some(target),
            Value::clone,
        )
        .unwrap()
    }

    fn stop(command: &str) -> String {
        format!(
            r#"{{"hooks": {{"Stop": [{{"hooks": [{{"type": "command", "command": "{command}"}}]}}]}}}}"#
        )
    }

    #[test]
    fn entries_from_other_sources_and_hand_written_handlers_stay() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let one = sync(dir, "a.json", &stop("a1"), "{\"hooks\": {}}");
        let two = sync(dir, "b.json", &stop("b1"), &one);
        assert!(two.contains("a1") && two.contains("b1"), "{two}");
        // A handler added by hand into a's group stays when a's entries are synced again.
        let mut v: Value = serde_json::from_str(&two).unwrap();
        let group = v["hooks"]["Stop"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|g| g["hooks"][0]["command"] == "a1")
            .unwrap();
        group["hooks"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"type": "command", "command": "mine"}));
        let hand = serde_json::to_string_pretty(&v).unwrap();
        let three = sync(dir, "a.json", &stop("a2"), &hand);
        assert!(!three.contains("a1") && three.contains("a2"), "{three}");
        assert!(three.contains("mine") && three.contains("b1"), "{three}");
        // The same sync again changes nothing.
        assert_eq!(sync(dir, "a.json", &stop("a2"), &three), three);
    }

    #[test]
    fn a_changed_entry_is_replaced_where_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let first = sync(dir, "a.json", &stop("old"), "{\"hooks\": {\"Stop\": []}}");
        // A hand-written entry after it.
        let mut v: Value = serde_json::from_str(&first).unwrap();
        v["hooks"]["Stop"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"hooks": [{"type": "command", "command": "mine"}]}));
        let with_mine = serde_json::to_string_pretty(&v).unwrap();
        let second = sync(dir, "a.json", &stop("new"), &with_mine);
        let after: Value = serde_json::from_str(&second).unwrap();
        let commands: Vec<&str> = after["hooks"]["Stop"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["hooks"][0]["command"].as_str().unwrap())
            .collect();
        assert_eq!(commands, ["new", "mine"]);
        // Its digest is what it holds now.
        let digest = |v: &Value| v["hooks"]["Stop"][0]["hooks"][0]["hookx"]["digest"].clone();
        let (was, now) = (digest(&v), digest(&after));
        let (was, now) = (was.as_str().unwrap(), now.as_str().unwrap());
        assert_ne!(was, now);
        let expected = with_mine.replace("\"old\"", "\"new\"").replace(was, now);
        assert_eq!(second, expected);
    }

    /// A sync of many entries parses the target's text a bounded number of times, the same
    /// for 10 rules as for 200: an edit does not parse the whole text again (attacks row 2323:
    /// each entry's edit parsed the file, ×4 time per doubling of the rules).
    #[test]
    fn a_sync_parses_the_target_as_often_for_200_rules_as_for_10() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let rules =
            |n: usize, first: &str| {
                let rules: Vec<Value> = (0..n)
                .map(|i| {
                    let command = if i == 0 { first.to_string() } else { format!("echo {i}") };
                    json!({"matcher": "Bash", "hooks": [{"type": "command", "command": command}]})
                })
                .collect();
                json!({"hooks": {"PreToolUse": rules}}).to_string()
            };
        let parses = |n: usize| {
            let before = super::super::edit::texts_parsed();
            // Into a file without them (each entry gets its digest), then again after the first
            // rule changed (every entry removed and written again).
            let first = sync(dir, "a.json", &rules(n, "echo first"), "{\n  \"x\": 1\n}\n");
            let again = sync(dir, "a.json", &rules(n, "echo changed"), &first);
            let v: Value = serde_json::from_str(&again).unwrap();
            assert_eq!(v["hooks"]["PreToolUse"].as_array().unwrap().len(), n);
            assert!(again.contains("echo changed") && !again.contains("echo first"));
            super::super::edit::texts_parsed() - before
        };
        let (few, many) = (parses(10), parses(200));
        assert_eq!(few, many, "parses of the target's text: 10 rules, then 200");
    }

    #[test]
    fn the_source_is_named_relative_to_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("p/.claude")).unwrap();
        std::fs::write(root.join("p/src.json"), "{}").unwrap();
        let source = root.join("p/src.json");
        assert_eq!(
            source_record(
                &root.join("p/.claude/settings.json"),
                source.to_str().unwrap()
            ),
            "../src.json"
        );
        // The target's folder need not exist yet.
        assert_eq!(
            source_record(
                &root.join("p/.github/hooks/x.json"),
                source.to_str().unwrap()
            ),
            "../../src.json"
        );
    }
}
