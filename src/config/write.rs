//! Writing a [`Document`] out as the text of its dialect: JSON, or markdown with YAML
//! frontmatter. Merging that into an existing file is [`super::merge`]; putting text on disk is
//! [`super::update`].

use crate::model::{Handler, HandlerKind};
use crate::tables::Flavor;
use crate::tables::{Document, Rule, RuleShape};
use crate::tables::{HandlerField, RuleList};
use serde_json::{Map, Value};

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
        let command = matches!(handler.kind, HandlerKind::Command(_));
        let t = spec.timeout_unit.written(t, command);
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

/// The key a rule's event is written under: its flavour's name for it, else the event's own.
pub(super) fn event_key(rule: &Rule) -> &str {
    rule.flavor
        .tables()
        .event_name(&rule.event)
        .unwrap_or(rule.event.name())
}

/// A rule's entries as JSON values, as [`to_text`] writes them: what [`super::merge`] puts in
/// place of the entries an earlier run wrote.
pub(super) fn rule_json(doc: &Document, rule: &Rule) -> Vec<Value> {
    rule_values(doc, rule)
        .iter()
        .map(|v| serde_json::to_value(v).unwrap_or_default())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::read;
    use crate::dialect::claude;
    use crate::source::SourceFile;
    use serde_json::json;

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
}
