//! Writing a [`Document`] back out in its dialect, and merging it into an existing file.

use super::edit::{JsonText, Seg};
use super::read;
use crate::error::Error;
use crate::model::{Handler, HandlerKind};
use crate::tables::Flavor;
use crate::tables::{Document, Rule, RuleShape};
use crate::tables::{HandlerField, RuleList};
use serde_json::{Map, Value, json};
use std::path::Path;

/// The document as its dialect writes it (every key hookx does not own in its place): JSON, or
/// markdown with YAML frontmatter.
pub fn to_text(doc: &Document) -> String {
    let value = document_out(doc);
    if doc.kind.frontmatter {
        let yaml = serde_saphyr::to_string(&value).unwrap_or_default();
        let body = doc.markdown.as_ref().map_or("", |m| m.body.as_str());
        return format!("---\n{yaml}---\n{body}");
    }
    pretty::text(&value, 0)
}

/// [`to_text`] written to `sink` as it is made: a 10 000-rule conversion's text is megabytes,
/// and building it whole before printing it cost more page faults than making it.
pub fn write_text(doc: &Document, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    if doc.kind.frontmatter {
        return sink.write_all(to_text(doc).as_bytes());
    }
    pretty::write(&document_out(doc), sink)
}

/// Pretty-printed JSON, byte for byte what `serde_json::to_string_pretty` writes, but with
/// strings checked for escapes sixteen bytes at a time: a converted file is mostly long wrapped command
/// lines, and serde_json's byte-by-byte escaping was a tenth of a 10 000-rule `convert`. It is
/// written as bytes: the text between two escapes (a wrapped command's guard holds a dozen) is
/// a few bytes, each a call to `memcpy` when pushed onto a `String`.
mod pretty {
    use super::{Object, Out, rule_values};
    use serde_json::Value;
    use std::io::Write;

    /// The JSON text of `node`, from `level` on.
    pub(super) fn text(node: &Out, level: usize) -> String {
        let mut text = Text::default();
        out(&mut text, node, level);
        text.push(b'\n');
        // Only whole strings and ASCII are written, and an escape cuts a string only at an
        // ASCII byte.
        String::from_utf8(text.bytes).expect("JSON text is UTF-8")
    }

    /// The JSON text of `node`, written to `sink` a buffer at a time.
    pub(super) fn write(node: &Out, sink: &mut dyn Write) -> std::io::Result<()> {
        let mut text = Text {
            bytes: Vec::with_capacity(2 * Text::SPILL_AT),
            sink: Some(sink),
            failed: None,
        };
        out(&mut text, node, 0);
        text.push(b'\n');
        text.spill_all();
        text.failed.map_or(Ok(()), Err)
    }

    /// The text being written: kept whole, or passed on to a sink once it holds
    /// [`Text::SPILL_AT`] bytes (between two values, so only whole values are passed on).
    #[derive(Default)]
    struct Text<'a> {
        bytes: Vec<u8>,
        sink: Option<&'a mut dyn Write>,
        /// The sink's first error: nothing more is written to it.
        failed: Option<std::io::Error>,
    }

    impl Text<'_> {
        const SPILL_AT: usize = 64 * 1024;

        fn spill(&mut self) {
            if self.bytes.len() >= Self::SPILL_AT {
                self.spill_all();
            }
        }

        fn spill_all(&mut self) {
            let Some(sink) = self.sink.as_mut() else {
                return;
            };
            if let Err(e) = sink.write_all(&self.bytes) {
                self.sink = None;
                self.failed = Some(e);
            }
            self.bytes.clear();
        }
    }

    impl std::ops::Deref for Text<'_> {
        type Target = Vec<u8>;
        fn deref(&self) -> &Vec<u8> {
            &self.bytes
        }
    }

    impl std::ops::DerefMut for Text<'_> {
        fn deref_mut(&mut self) -> &mut Vec<u8> {
            &mut self.bytes
        }
    }

    fn out(text: &mut Text, node: &Out, level: usize) {
        match node {
            Out::Value(v) => value(text, v, level),
            Out::Str(s) => string(text, s),
            Out::String(s) => string(text, s),
            Out::U64(n) => text.extend_from_slice(itoa::Buffer::new().format(*n).as_bytes()),
            Out::Bool(b) => text.extend_from_slice(if *b { b"true" } else { b"false" }),
            Out::Array(items) => array(text, items, level, out),
            Out::Rules(doc, rules) => array(
                text,
                rules.iter().flat_map(|rule| rule_values(doc, rule)),
                level,
                |text, v, level| out(text, &v, level),
            ),
            Out::Object(Object(entries)) => {
                object(text, entries.iter().map(|(k, v)| (*k, v)), level, out)
            }
        }
    }

    fn value(text: &mut Text, node: &Value, level: usize) {
        match node {
            Value::Null => text.extend_from_slice(b"null"),
            Value::Bool(b) => text.extend_from_slice(if *b { b"true" } else { b"false" }),
            // Kept as written (`arbitrary_precision`), as serde_json prints it.
            Value::Number(n) => text.extend_from_slice(n.as_str().as_bytes()),
            Value::String(s) => string(text, s),
            Value::Array(items) => array(text, items, level, value),
            Value::Object(map) => {
                object(text, map.iter().map(|(k, v)| (k.as_str(), v)), level, value)
            }
        }
    }

    fn array<T>(
        text: &mut Text,
        items: impl IntoIterator<Item = T>,
        level: usize,
        item: impl Fn(&mut Text, T, usize),
    ) {
        let mut empty = true;
        for v in items {
            text.push(if empty { b'[' } else { b',' });
            empty = false;
            newline(text, level + 1);
            item(text, v, level + 1);
            text.spill();
        }
        if empty {
            text.extend_from_slice(b"[]");
            return;
        }
        newline(text, level);
        text.push(b']');
    }

    fn object<'a, T: 'a>(
        text: &mut Text,
        entries: impl ExactSizeIterator<Item = (&'a str, &'a T)>,
        level: usize,
        item: fn(&mut Text, &T, usize),
    ) {
        if entries.len() == 0 {
            text.extend_from_slice(b"{}");
            return;
        }
        text.push(b'{');
        for (i, (k, v)) in entries.enumerate() {
            if i > 0 {
                text.push(b',');
            }
            newline(text, level + 1);
            string(text, k);
            text.extend_from_slice(b": ");
            item(text, v, level + 1);
            text.spill();
        }
        newline(text, level);
        text.push(b'}');
    }

    /// A line break and the indent of `level`.
    fn newline(text: &mut Vec<u8>, level: usize) {
        text.push(b'\n');
        for _ in 0..level {
            text.extend_from_slice(b"  ");
        }
    }

    /// A JSON string as serde_json escapes it: `"`, `\\` and the control characters, which
    /// have a short form (`\n`) or `\u00xx`; nothing else. The bytes are checked sixteen at a
    /// time (the last few padded to sixteen), and copied in runs between escapes: most keys
    /// are shorter than sixteen bytes, and a wrapped command's guard holds a dozen quotes.
    pub(super) fn string(text: &mut Vec<u8>, s: &str) {
        let bytes = s.as_bytes();
        text.reserve(bytes.len() + 2);
        text.push(b'"');
        // Where the run not yet copied starts.
        let mut plain = 0;
        let mut chunks = bytes.chunks_exact(16);
        let tail = chunks.remainder();
        let mut padded = [b' '; 16];
        padded[..tail.len()].copy_from_slice(tail);
        let whole = chunks
            .by_ref()
            .map(|c| <&[u8; 16]>::try_from(c).expect("16 bytes"));
        for (n, chunk) in whole.chain([&padded]).enumerate() {
            // A fixed-size fold the compiler vectorizes.
            if !chunk.iter().fold(false, |any, &b| any | needs_escape(b)) {
                continue;
            }
            for (i, &b) in chunk.iter().enumerate() {
                if needs_escape(b) {
                    let at = n * 16 + i;
                    text.extend_from_slice(&bytes[plain..at]);
                    push_escape(text, b);
                    plain = at + 1;
                }
            }
        }
        text.extend_from_slice(&bytes[plain..]);
        text.push(b'"');
    }

    fn needs_escape(b: u8) -> bool {
        (b < 0x20) | (b == b'"') | (b == b'\\')
    }

    /// The escape of `"`, `\\` or a control character: a short form (`\n`) or `\u00xx`.
    fn push_escape(text: &mut Vec<u8>, b: u8) {
        let short = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                text.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 0xf)],
                ]);
                return;
            }
        };
        text.extend_from_slice(&[b'\\', short]);
    }

    #[cfg(test)]
    mod tests {
        /// Every byte value and mixes of them, against serde_json's own escaping.
        #[test]
        fn strings_are_escaped_as_serde_json_escapes_them() {
            let mut cases: Vec<String> = (0u8..128).map(|b| (b as char).to_string()).collect();
            cases.push("plain text longer than eight bytes, with é and 中文".into());
            cases.push("a\"b\\c\nd\u{1}e\u{1f}f\u{7f}g 'quoted' \"long enough\" \t".into());
            cases.push("12345678\"12345678\\1234567\u{0}".into());
            // Each byte value at each place of a word and of the tail after it.
            for b in 0u8..128 {
                for at in 0..17 {
                    let mut bytes = vec![b'x'; 17];
                    bytes[at] = b;
                    cases.push(String::from_utf8(bytes).unwrap());
                }
            }
            cases.push(format!(
                "{}\"{}\n{}",
                "x".repeat(15),
                "y".repeat(16),
                "é".repeat(9)
            ));
            for case in cases {
                let mut text = Vec::new();
                super::string(&mut text, &case);
                let text = String::from_utf8(text).unwrap();
                assert_eq!(text, serde_json::to_string(&case).unwrap(), "{case:?}");
            }
        }
    }
}

/// A JSON value to write, borrowing what the document holds: a document is serialized without
/// first being copied into a `serde_json::Value` (at 10 000 rules, building that copy cost as
/// much as printing it). Objects keep `serde_json::Map`'s order and its rule for a key given
/// twice (the later value, in the earlier place).
enum Out<'a> {
    Value(&'a Value),
    Str(&'a str),
    /// A string hookx made up (a rule list's rule name).
    String(String),
    U64(u64),
    Bool(bool),
    Array(Vec<Out<'a>>),
    /// The values of these rules (of one event), made one rule at a time as they are written:
    /// a 10 000-rule document's tree cost as much as printing it.
    Rules(&'a Document, Vec<&'a Rule>),
    Object(Object<'a>),
}

#[derive(Default)]
struct Object<'a>(Vec<(&'a str, Out<'a>)>);

impl<'a> Object<'a> {
    /// As `Map::insert`: a key already there keeps its place and takes the new value.
    fn insert(&mut self, key: &'a str, value: Out<'a>) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, old)) => *old = value,
            None => self.0.push((key, value)),
        }
    }

    /// As `Map::entry(key).or_insert(value)`: a key already there keeps its value.
    fn insert_new(&mut self, key: &'a str, value: Out<'a>) {
        if !self.contains(key) {
            self.0.push((key, value));
        }
    }

    fn contains(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| *k == key)
    }

    fn extend(&mut self, other: impl IntoIterator<Item = (&'a str, Out<'a>)>) {
        for (key, value) in other {
            self.insert(key, value);
        }
    }

    fn values(map: &'a Map<String, Value>) -> impl Iterator<Item = (&'a str, Out<'a>)> {
        map.iter().map(|(k, v)| (k.as_str(), Out::Value(v)))
    }
}

impl serde::Serialize for Out<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Out::Value(v) => v.serialize(s),
            Out::Str(v) => s.serialize_str(v),
            Out::String(v) => s.serialize_str(v),
            Out::U64(v) => s.serialize_u64(*v),
            Out::Bool(v) => s.serialize_bool(*v),
            Out::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Out::Rules(doc, rules) => {
                let values: Vec<Out> = rules.iter().flat_map(|r| rule_values(doc, r)).collect();
                Out::Array(values).serialize(s)
            }
            Out::Object(Object(entries)) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                for (key, value) in entries {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}

fn document_out(doc: &Document) -> Out<'_> {
    if let Some(list) = doc.dialect.config().rule_list {
        return rule_list_out(doc, list);
    }
    let hooks = hooks_object(doc);
    let mut top = Object::default();
    if !doc.wrapped {
        top.extend(Object::values(&doc.extra));
        top.extend(hooks.0);
        return Out::Object(top);
    }
    let mut hooks = Some(hooks);
    for (i, (key, value)) in doc.extra.iter().enumerate() {
        if i == doc.hooks_index
            && let Some(hooks) = hooks.take()
        {
            top.insert("hooks", Out::Object(hooks));
        }
        top.insert(key, Out::Value(value));
    }
    if !top.contains("hooks") {
        top.insert("hooks", Out::Object(hooks.unwrap_or_default()));
    }
    Out::Object(top)
}

/// A rule-list file ([`RuleList`]): its version, the other top-level keys in their place, and
/// one rule per handler, in the document's order.
fn rule_list_out<'a>(doc: &'a Document, list: &'a RuleList) -> Out<'a> {
    let mut rules = Vec::with_capacity(doc.rules.len());
    for rule in &doc.rules {
        for handler in &rule.handlers {
            rules.push(Out::Object(rule_out(doc, list, rule, handler, rules.len())));
        }
    }
    let mut top = Object::default();
    top.insert("version", Out::Str(list.version));
    let mut hooks = Some(Out::Array(rules));
    for (i, (key, value)) in doc.extra.iter().enumerate() {
        if i == doc.hooks_index
            && let Some(hooks) = hooks.take()
        {
            top.insert("hooks", hooks);
        }
        top.insert(key, Out::Value(value));
    }
    if let Some(hooks) = hooks {
        top.insert("hooks", hooks);
    }
    for (key, value) in &doc.extra_hooks {
        // A `hooks` that was no list, kept as it was.
        if key.is_empty() {
            top.insert("hooks", Out::Value(value));
        }
    }
    Out::Object(top)
}

/// One rule of a rule list: its name (made up from its event and place when it has none),
/// its other keys, event, matcher, handler object, the handler keys that sit on the rule, and
/// `enabled` last.
fn rule_out<'a>(
    doc: &'a Document,
    list: &'a RuleList,
    rule: &'a Rule,
    handler: &'a Handler,
    index: usize,
) -> Object<'a> {
    let mut out = Object::default();
    let event = event_key(rule);
    match rule.extra.get(list.name_key) {
        Some(name) => out.insert(list.name_key, Out::Value(name)),
        None => out.insert(list.name_key, Out::String(format!("{event}-{}", index + 1))),
    }
    for (key, value) in &rule.extra {
        if key != list.enabled_key {
            out.insert(key, Out::Value(value));
        }
    }
    out.insert(list.event_key, Out::Str(event));
    if let Some(m) = &rule.matcher {
        out.insert("matcher", Out::Str(m));
    }
    let mut fields = handler_out(doc, rule.flavor, handler);
    let on_rule: Vec<(&str, Out)> = list
        .handler_keys_on_rule
        .iter()
        .filter_map(|key| {
            let at = fields.0.iter().position(|(k, _)| k == key)?;
            Some(fields.0.remove(at))
        })
        .collect();
    out.insert(list.handler_key, Out::Object(fields));
    out.extend(on_rule);
    if let Some(enabled) = rule.extra.get(list.enabled_key) {
        out.insert(list.enabled_key, Out::Value(enabled));
    }
    out
}

fn hooks_object(doc: &Document) -> Object<'_> {
    let mut hooks: Object = Object::default();
    for rule in &doc.rules {
        let name = event_key(rule);
        match hooks.0.iter_mut().find(|(k, _)| *k == name) {
            Some((_, Out::Rules(_, list))) => list.push(rule),
            Some(_) => {}
            None => hooks.0.push((name, Out::Rules(doc, vec![rule]))),
        }
    }
    for (key, value) in &doc.extra_hooks {
        hooks.insert_new(key, Out::Value(value));
    }
    hooks
}

fn rule_values<'a>(doc: &Document, rule: &'a Rule) -> Vec<Out<'a>> {
    match rule.shape {
        RuleShape::Flat => rule
            .handlers
            .iter()
            .map(|h| {
                let mut entry = Object::default();
                if let Some(m) = &rule.matcher {
                    entry.insert("matcher", Out::Str(m));
                }
                entry.extend(handler_out(doc, rule.flavor, h).0);
                Out::Object(entry)
            })
            .collect(),
        RuleShape::Group => {
            let mut group = Object::default();
            if let Some(m) = &rule.matcher {
                group.insert("matcher", Out::Str(m));
            }
            let handlers = rule
                .handlers
                .iter()
                .map(|h| Out::Object(handler_out(doc, rule.flavor, h)))
                .collect();
            group.insert("hooks", Out::Array(handlers));
            group.extend(Object::values(&rule.extra));
            vec![Out::Object(group)]
        }
    }
}

fn handler_out<'a>(doc: &Document, flavor: Flavor, handler: &'a Handler) -> Object<'a> {
    let spec = doc.dialect.config();
    let mut out = Object(Vec::with_capacity(4 + handler.extra.len()));
    let mut put = |field: HandlerField, value: Out<'a>| {
        if let Some(key) = flavor.handler_key(field) {
            out.insert(key, value);
        }
    };
    let string = |s: &'a Option<String>| s.as_deref().map(Out::Str);
    let type_name = match &handler.kind {
        HandlerKind::Command(_) => "command",
        HandlerKind::Prompt(_) => "prompt",
        HandlerKind::Agent(_) => "agent",
        HandlerKind::Service(s) => s.type_name,
    };
    if spec.implied_type != Some(type_name) {
        put(HandlerField::Type, Out::Str(type_name));
    }
    // Arrays, not a list per handler: at 10 000 handlers each list was an allocation.
    let mut put_all = |fields: &mut dyn Iterator<Item = (HandlerField, Option<Out<'a>>)>| {
        for (field, value) in fields {
            if let Some(value) = value {
                put(field, value);
            }
        }
    };
    match &handler.kind {
        HandlerKind::Command(c) => put_all(
            &mut [
                (HandlerField::Bash, string(&c.bash)),
                (HandlerField::PowerShell, string(&c.powershell)),
                (HandlerField::Command, string(&c.command)),
                (HandlerField::Windows, string(&c.windows)),
                (HandlerField::Linux, string(&c.linux)),
                (HandlerField::Osx, string(&c.osx)),
                (HandlerField::Cwd, string(&c.cwd)),
                (
                    HandlerField::Env,
                    c.env
                        .as_ref()
                        .map(|env| Out::Object(Object(Object::values(env).collect()))),
                ),
                (HandlerField::Async, c.is_async.map(Out::Bool)),
            ]
            .into_iter(),
        ),
        HandlerKind::Prompt(p) | HandlerKind::Agent(p) => put_all(
            &mut [
                (HandlerField::Prompt, Some(Out::Str(&p.prompt))),
                (HandlerField::Model, string(&p.model)),
            ]
            .into_iter(),
        ),
        // Its fields are all in `extra`, written below.
        HandlerKind::Service(_) => {}
    }
    if let Some(t) = handler.timeout {
        let t = if spec.timeout_millis { t * 1000 } else { t };
        put(HandlerField::Timeout, Out::U64(t));
    }
    if let Some(s) = &handler.status_message {
        put(HandlerField::StatusMessage, Out::Str(s));
    }
    if let Some(o) = handler.once {
        put(HandlerField::Once, Out::Bool(o));
    }
    for (key, value) in &handler.extra {
        out.insert_new(key, Out::Value(value));
    }
    out
}

/// Merges `doc`'s rules into the config file at `path` (which may not exist yet): a sync from
/// the files its rules came from ([`sync_text`]). Returns the new text.
pub fn merge_into(path: &Path, doc: &Document) -> Result<String, Error> {
    let mut sources: Vec<&str> = doc.rules.iter().map(|r| r.origin.file.as_str()).collect();
    sources.dedup();
    let current = match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(Error::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            });
        }
    };
    sync_text(path, doc, &sources, current.as_deref())
}

/// `convert --write`: the text of the file at `path` (`current`, `None` when there is none)
/// once synced with `doc`, converted from the files `sources`.
///
/// Every handler written carries hookx's provenance record ([`MARKER`]) naming the source it
/// came from, relative to the target's folder. The entries an earlier run wrote from these
/// sources are replaced by the new ones where they were (or removed, when the source no longer
/// has them); hand-written entries, entries from other sources and every other byte stay. A
/// second run with the same sources gives the same text. A new entry equal to a hand-written
/// one is not added twice.
pub fn sync_text(
    path: &Path,
    doc: &Document,
    sources: &[&str],
    current: Option<&str>,
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
        let record = json!({ "source": source_record(path, &rule.origin.file) });
        for handler in &mut rule.handlers {
            handler.extra.insert(MARKER.into(), record.clone());
        }
    }
    let Some(current) = current else {
        return Ok(to_text(&marked));
    };
    let src = crate::source::SourceFile::new(path.display().to_string(), current);
    let parsed = read::read_checked(&src, doc.dialect)?;
    let owned: Vec<Value> = sources
        .iter()
        .map(|s| json!({ "source": source_record(path, s) }))
        .collect();
    if let Some(list) = doc.dialect.config().rule_list {
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
        let values = rule_values(&marked, rule)
            .iter()
            .map(|v| serde_json::to_value(v).unwrap_or_default())
            .collect::<Vec<_>>();
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
        sync_event(&mut text, &events, &name, new, &owned).ok_or_else(|| Error::Io {
            path: path.display().to_string(),
            message: format!("hookx could not edit the `{name}` entries in place"),
        })?;
    }
    Ok(text.into_text())
}

/// Whether a handler carries one of the `owned` provenance records.
fn is_owned(handler: &Value, owned: &[Value]) -> bool {
    handler.get(MARKER).is_some_and(|m| owned.contains(m))
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

/// Syncs one event's array: `new` replaces the entries (and handlers) owned by this run.
fn sync_event(
    text: &mut JsonText,
    events: &[Seg],
    name: &str,
    new: Vec<Value>,
    owned: &[Value],
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
    let kept: Vec<Value> = (0..entries.len())
        .filter(|i| !whole.contains(i))
        .map(|i| unmarked(&entries[i]))
        .collect();
    let new: Vec<Value> = new
        .into_iter()
        .filter(|e| !kept.contains(&unmarked(e)))
        .collect();
    let old: Vec<&Value> = whole.iter().map(|&i| &entries[i]).collect();
    if partial.is_empty() && old.iter().copied().eq(new.iter()) {
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
fn source_record(target: &Path, source: &str) -> String {
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

fn event_key(rule: &Rule) -> &str {
    rule.flavor
        .tables()
        .event_name(&rule.event)
        .unwrap_or(rule.event.name())
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

/// The key of hookx's provenance record on a handler it wrote into a file:
/// `"hookx": {"source": "../x.json"}` on an entry `convert --write` converted from that file,
/// `"hookx": {"created": "file"}` on a routing entry of a file `install` created. Claude Code
/// 2.1.332 and Copilot CLI 1.0.102 load handlers that carry it (checked by running both); the
/// reader leaves it out of the handler.
pub const MARKER: &str = "hookx";

/// What an edit decided to do with the file it was shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Leave the file as it is.
    Keep,
    /// Replace its content (a no-op when the text is what the file already holds).
    Write(String),
    /// Delete it.
    Delete,
}

/// What [`update`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Unchanged,
    Written,
    Deleted,
}

/// The one way hookx changes a file (install, uninstall, `convert --out/--write`, trust).
///
/// * A symlink is written through: the file it points to changes, the link stays (a dotfiles
///   setup keeps working). Dangling links are followed too, and the file is created there.
/// * The read-modify-write runs under an advisory lock on the file's directory (`flock(2)` on
///   Unix; a lock file beside it elsewhere), so concurrent hookx runs keep every change.
/// * `edit` gets the current text (`None` when there is no file) and says what to do; text
///   equal to the current one is not rewritten (no new mtime).
/// * The new text goes to a temporary file in the same directory, then renamed over the old
///   one: readers see the old file or the new one, never half of one. An existing file keeps
///   its mode; a new one gets the umask's (as `touch` would).
pub fn update(
    path: &Path,
    edit: impl FnOnce(Option<&str>) -> Result<Change, Error>,
) -> Result<Outcome, Error> {
    let real = resolve_links(path)?;
    let shown = path.display().to_string();
    let io = |e: std::io::Error| Error::Io {
        path: shown.clone(),
        message: e.to_string(),
    };
    let dir = match real.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| Error::Io {
        path: dir.display().to_string(),
        message: e.to_string(),
    })?;
    let _lock = lock_dir(&dir).map_err(|e| Error::Io {
        path: dir.display().to_string(),
        message: format!("cannot lock the directory for writing: {e}"),
    })?;
    let current = match std::fs::read(&real) {
        Ok(bytes) => Some(String::from_utf8(bytes).map_err(|_| Error::Io {
            path: shown.clone(),
            message: "is not UTF-8 text; hookx does not write into it".into(),
        })?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(e)),
    };
    match edit(current.as_deref())? {
        Change::Keep => Ok(Outcome::Unchanged),
        Change::Write(text) if current.as_deref() == Some(text.as_str()) => Ok(Outcome::Unchanged),
        Change::Write(text) => {
            replace(&real, &dir, &text, current.is_some()).map_err(io)?;
            Ok(Outcome::Written)
        }
        Change::Delete if current.is_none() => Ok(Outcome::Unchanged),
        Change::Delete => {
            std::fs::remove_file(&real).map_err(io)?;
            Ok(Outcome::Deleted)
        }
    }
}

/// Writes `text` to `path` whole, through [`update`].
pub fn write_atomic(path: &Path, text: &str) -> Result<(), Error> {
    update(path, |_| Ok(Change::Write(text.to_string()))).map(|_| ())
}

/// The file a path finally names, following symlinks (also a dangling last one), so that
/// writing replaces that file and not the link.
fn resolve_links(path: &Path) -> Result<std::path::PathBuf, Error> {
    let mut current = path.to_path_buf();
    // As many links as Linux follows (MAXSYMLINKS); more is a loop.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&current).map_err(|e| Error::Io {
                    path: current.display().to_string(),
                    message: e.to_string(),
                })?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(Error::Io {
        path: path.display().to_string(),
        message: "too many levels of symbolic links".into(),
    })
}

/// An exclusive advisory lock held until dropped: on the directory itself where it can be
/// opened as a file (Unix), else on a lock file in it.
fn lock_dir(dir: &Path) -> std::io::Result<std::fs::File> {
    #[cfg(unix)]
    let file = std::fs::File::open(dir)?;
    #[cfg(not(unix))]
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(".hookx.lock"))?;
    file.lock()?;
    Ok(file)
}

/// Renames a new file with `text` over `real`, keeping the mode of the file replaced.
fn replace(real: &Path, dir: &Path, text: &str, existed: bool) -> std::io::Result<()> {
    use std::io::Write;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".hookx-");
    // The kernel applies the umask to a new file's 0666, as for any file a program creates.
    #[cfg(unix)]
    let create_mode = std::os::unix::fs::PermissionsExt::from_mode(0o666);
    #[cfg(unix)]
    builder.permissions(create_mode);
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    if existed && let Ok(meta) = std::fs::metadata(real) {
        std::fs::set_permissions(tmp.path(), meta.permissions())?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(real).map_err(|e| e.error)?;
    Ok(())
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
        sync_text(&out, &doc, &[path.to_str().unwrap()], Some(target)).unwrap()
    }

    /// A document written as it is made, in spills of 64 KiB, is the text [`to_text`] makes,
    /// which is what serde_json prints: rules of several events, an empty event, keys hookx
    /// does not own, escapes.
    #[test]
    fn written_text_is_the_made_text() {
        let mut rules = serde_json::Map::new();
        let events = ["PreToolUse", "Stop", "PostToolUse"];
        for event in events {
            let list: Vec<Value> = (0..700)
                .map(|i| {
                    json!({
                        "matcher": format!("tool_{i}|other"),
                        "hooks": [{"type": "command", "command": format!("echo \"{event} {i}\"\t\u{1}"), "timeout": i}],
                        "note": {"kept": [i, "as written"]}
                    })
                })
                .collect();
            rules.insert(event.to_string(), Value::Array(list));
        }
        rules.insert("Notification".into(), json!([]));
        let value = json!({"model": "x", "hooks": rules, "env": {"A": "1"}});
        let text = serde_json::to_string_pretty(&value).unwrap() + "\n";
        let doc = read::read(
            &SourceFile::new("settings.json", text.as_str()),
            claude::DIALECT,
        )
        .unwrap()
        .document;
        let made = to_text(&doc);
        assert!(made.len() > 3 * 64 * 1024, "{} bytes", made.len());
        let mut written = Vec::new();
        write_text(&doc, &mut written).unwrap();
        assert_eq!(String::from_utf8(written).unwrap(), made);
        assert_eq!(made, text);
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
        assert_eq!(second, with_mine.replace("\"old\"", "\"new\""));
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
