//! Editing JSON text in place: the values hookx adds, replaces or removes are spliced into the
//! text, and every other byte stays as it was (key order, whitespace, inline arrays, comments,
//! CRLF line endings, numbers as written: `1e3`, `1.0`, integers beyond 2^64).
//!
//! Inserting only ever adds text, in the layout of its neighbours (their indentation, one line
//! per item or all on one line, the file's line ending), and removing an item takes exactly
//! what inserting it added: an insert undone by a removal gives the text back byte for byte.
//! (jsonc-parser's CST was evaluated for this: it re-lays out a one-line object or array that
//! receives a multi-line value, so minified files did not come back unchanged.)

use jsonc_parser::ast::{self, ObjectProp};
use jsonc_parser::common::Ranged;
use serde_json::Value;

/// One step of a path into a JSON value: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

impl From<&str> for Seg {
    fn from(key: &str) -> Seg {
        Seg::Key(key.to_string())
    }
}

impl From<usize> for Seg {
    fn from(index: usize) -> Seg {
        Seg::Index(index)
    }
}

/// A path from the root value.
pub type Path = [Seg];

/// JSON(C) text being edited. Each edit re-reads the text it changes, so that paths always
/// name what the text holds now.
#[derive(Clone, Debug)]
pub struct JsonText {
    text: String,
    newline: &'static str,
    indent: String,
}

/// Where an item sits in its container.
struct Slot {
    /// Byte offsets of each item (a property from its name, an element) in the container.
    items: Vec<(usize, usize)>,
    /// The container's brackets: `[`/`{` and `]`/`}` offsets.
    open: usize,
    close: usize,
}

impl JsonText {
    pub fn new(text: impl Into<String>) -> JsonText {
        let text = text.into();
        let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
        let indent = text
            .split('\n')
            .skip(1)
            .map(|line| &line[..line.len() - line.trim_start_matches([' ', '\t']).len()])
            .find(|ws| !ws.is_empty())
            .unwrap_or("  ")
            .to_string();
        JsonText {
            text,
            newline,
            indent,
        }
    }

    pub fn as_str(&self) -> &str {
        &self.text
    }

    pub fn into_text(self) -> String {
        self.text
    }

    /// The value at `path`, as JSON (`None` when absent or when it is not JSON, comments and
    /// trailing commas aside).
    pub fn value(&self, path: &Path) -> Option<Value> {
        let (start, end) = self.with_node(path, |v| Some((v.start(), v.end())))?;
        let text = &self.text[start..end];
        serde_json::from_str(text)
            .ok()
            .or_else(|| super::syntax::loose_value(text))
    }

    /// Whether the object or array at `path` holds no item and nothing else but whitespace
    /// (no comment of the user's either).
    pub fn is_bare_empty(&self, path: &Path) -> bool {
        self.len(path) == Some(0)
            && self
                .with_node(path, |v| Some((v.start(), v.end())))
                .is_some_and(|(start, end)| self.text[start + 1..end - 1].trim().is_empty())
    }

    /// The inside of the empty object or array at `path` when it is whitespace only (`""` for
    /// `[]`): what [`JsonText::set_blank`] puts back.
    pub fn blank(&self, path: &Path) -> Option<&str> {
        let (start, end) = self.with_node(path, |v| Some((v.start(), v.end())))?;
        let inside = &self.text[start + 1..end - 1];
        (self.len(path) == Some(0) && inside.trim().is_empty()).then_some(inside)
    }

    /// Makes the inside of the empty object or array at `path`, whitespace only, `blank`
    /// (whitespace only too): a layout an insert and a remove cannot give back (`[\n  ]` and
    /// `[]` both hold one item as `[\n    "a"\n  ]`).
    pub fn set_blank(&mut self, path: &Path, blank: &str) -> Option<()> {
        self.blank(path)?;
        if !blank.trim().is_empty() {
            return None;
        }
        let (start, end) = self.with_node(path, |v| Some((v.start(), v.end())))?;
        self.text.replace_range(start + 1..end - 1, blank);
        Some(())
    }

    /// How many items the object or array at `path` holds.
    pub fn len(&self, path: &Path) -> Option<usize> {
        self.with_node(path, |v| match v {
            ast::Value::Object(o) => Some(o.properties.len()),
            ast::Value::Array(a) => Some(a.elements.len()),
            _ => None,
        })
    }

    /// Appends `"key": value` to the object at `path`.
    pub fn add_property(&mut self, path: &Path, key: &str, value: &Value) -> Option<()> {
        let slot = self.slot(path, true)?;
        let name = serde_json::to_string(key).ok()?;
        let colon = self.colon_style(path).unwrap_or_else(|| {
            if self.is_one_line() {
                ":".into()
            } else {
                ": ".into()
            }
        });
        self.insert_at(slot, usize::MAX, |this, indent| {
            format!("{name}{colon}{}", this.render(value, indent))
        })
    }

    /// Inserts `value` into the array at `path` before item `index` (at the end when `index`
    /// is past it).
    pub fn insert(&mut self, path: &Path, index: usize, value: &Value) -> Option<()> {
        let slot = self.slot(path, false)?;
        self.insert_at(slot, index, |this, indent| this.render(value, indent))
    }

    /// Appends `value` to the array at `path`.
    pub fn push(&mut self, path: &Path, value: &Value) -> Option<()> {
        self.insert(path, usize::MAX, value)
    }

    /// Replaces the value at `path`, which keeps its place and the text around it.
    pub fn replace(&mut self, path: &Path, value: &Value) -> Option<()> {
        let (start, end) = self.with_node(path, |v| Some((v.start(), v.end())))?;
        let indent = self.line_indent(start).to_string();
        let text = if self.text[start..end].contains('\n') || !self.is_one_line() {
            self.render(value, &indent)
        } else {
            serde_json::to_string(value).ok()?
        };
        self.text.replace_range(start..end, &text);
        Some(())
    }

    /// Removes the item (an object's property or an array's element) at `path`, with the
    /// separator that inserting it added.
    pub fn remove(&mut self, path: &Path) -> Option<()> {
        let (last, parent) = path.split_last()?;
        let is_object = matches!(last, Seg::Key(_));
        let slot = self.slot(parent, is_object)?;
        let i = match last {
            Seg::Index(i) => *i,
            Seg::Key(key) => self.with_node(parent, |v| match v {
                ast::Value::Object(o) => o.properties.iter().rposition(|p| p.name.as_str() == key),
                _ => None,
            })?,
        };
        let (start, end) = *slot.items.get(i)?;
        let prev_end = i.checked_sub(1).map(|p| slot.items[p].1);
        let comment_line = prev_end
            .and_then(|p| self.comment_after(p, start))
            .filter(|&(_, eol)| eol < start);
        if let (Some(prev_end), Some((_, eol))) = (prev_end, comment_line) {
            // The previous item's comment stays on its line, as `insert_at` left it.
            match slot.items.get(i + 1) {
                Some(&(next, _)) => self.text.replace_range(start..next, ""),
                None => {
                    self.text.replace_range(eol..end, "");
                    if self.text[prev_end..].starts_with(',') {
                        self.text.remove(prev_end);
                    }
                }
            }
        } else if i > 0 {
            self.text.replace_range(slot.items[i - 1].1..end, "");
        } else if let Some(&(next, _)) = slot.items.get(1) {
            self.text.replace_range(start..next, "");
        } else {
            // The only item: the container is left empty, `[]` or `{}` (a trailing comma after
            // the item goes with it).
            let after = &self.text[end..slot.close];
            let end = match after.trim_start().strip_prefix(',') {
                Some(rest) => slot.close - rest.len(),
                None => end,
            };
            let inner_after = &self.text[end..slot.close];
            let close = if inner_after.trim().is_empty() {
                slot.close
            } else {
                end
            };
            self.text.replace_range(slot.open + 1..close, "");
        }
        Some(())
    }

    fn insert_at(
        &mut self,
        slot: Slot,
        index: usize,
        item: impl FnOnce(&JsonText, &str) -> String,
    ) -> Option<()> {
        let one_line = self.is_one_line();
        let nl = self.newline;
        match slot.items.len() {
            0 => {
                let base = self.line_indent(slot.open).to_string();
                let (text, at) = if one_line {
                    (item(self, &base), slot.open + 1)
                } else {
                    let inner = format!("{base}{}", self.indent);
                    let body = item(self, &inner);
                    if self.text[slot.open + 1..slot.close].is_empty() {
                        (format!("{nl}{inner}{body}{nl}{base}"), slot.open + 1)
                    } else {
                        (format!("{nl}{inner}{body}"), slot.open + 1)
                    }
                };
                self.text.insert_str(at, &text);
            }
            n => {
                // The layout of the items already there: one per line, or side by side.
                let (sep_start, sep_end) = if n >= 2 {
                    (slot.items[n - 2].1, slot.items[n - 1].0)
                } else {
                    (slot.open + 1, slot.items[0].0)
                };
                let between = &self.text[sep_start..sep_end];
                let multiline = between.contains('\n');
                let (last_start, last_end) = slot.items[n - 1];
                let indent = self.line_indent(last_start).to_string();
                let sep = if multiline {
                    format!(",{nl}{indent}")
                } else if n >= 2 && between.trim() == "," {
                    between.to_string()
                } else if one_line {
                    ",".to_string()
                } else {
                    ", ".to_string()
                };
                let body = if multiline {
                    item(self, &indent)
                } else {
                    let flat = JsonText {
                        text: String::new(),
                        newline: self.newline,
                        indent: String::new(),
                    };
                    item(&flat, "")
                };
                if index >= n {
                    match self
                        .comment_after(last_end, slot.close)
                        .filter(|_| multiline)
                    {
                        // The last item's comment stays on its line: the new item goes below it.
                        Some((comma, eol)) => {
                            self.text.insert_str(eol, &format!("{nl}{indent}{body}"));
                            if !comma {
                                self.text.insert(last_end, ',');
                            }
                        }
                        None => self.text.insert_str(last_end, &format!("{sep}{body}")),
                    }
                } else {
                    let at = slot.items[index].0;
                    self.text.insert_str(at, &format!("{body}{sep}"));
                }
            }
        }
        Some(())
    }

    /// Where the line of an item ending at `end` ends, when the rest of that line (before
    /// `close`) is a comment, with whether a comma already follows the item: a comment written
    /// after the last item belongs to it.
    fn comment_after(&self, end: usize, close: usize) -> Option<(bool, usize)> {
        let rest = &self.text[end..close];
        let line = &rest[..rest.find(['\r', '\n'])?];
        let after = line.trim_start();
        let (comma, after) = match after.strip_prefix(',') {
            Some(after) => (true, after.trim_start()),
            None => (false, after),
        };
        let comment = after.starts_with("//")
            || (after.starts_with("/*") && after.trim_end().ends_with("*/"));
        comment.then_some((comma, end + line.len()))
    }

    /// A new value as text: on one line in a one-line file (or for a flat sibling), else
    /// indented like the file, its lines starting at `indent`.
    fn render(&self, value: &Value, indent: &str) -> String {
        if self.indent.is_empty() || self.is_one_line() {
            return serde_json::to_string(value).unwrap_or_default();
        }
        let mut out = Vec::new();
        let formatter = serde_json::ser::PrettyFormatter::with_indent(self.indent.as_bytes());
        let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
        if serde::Serialize::serialize(value, &mut ser).is_err() {
            return String::new();
        }
        let pretty = String::from_utf8(out).unwrap_or_default();
        pretty.replace('\n', &format!("{}{indent}", self.newline))
    }

    fn is_one_line(&self) -> bool {
        !self.text.trim_end().contains('\n')
    }

    /// The whitespace that starts the line holding `offset`.
    fn line_indent(&self, offset: usize) -> &str {
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line = &self.text[line_start..];
        &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
    }

    /// How the object at `path` separates a key from its value (`": "`, `":"`), from its last
    /// property.
    fn colon_style(&self, path: &Path) -> Option<String> {
        self.with_node(path, |v| {
            let prop: &ObjectProp = v.as_object()?.properties.last()?;
            let between = &self.text[prop.name.end()..prop.value.start()];
            (between.trim() == ":").then(|| between.to_string())
        })
    }

    fn slot(&self, path: &Path, object: bool) -> Option<Slot> {
        self.with_node(path, |v| {
            let range = v.range();
            let items = match (v, object) {
                (ast::Value::Object(o), true) => o
                    .properties
                    .iter()
                    .map(|p| (p.range.start, p.range.end))
                    .collect(),
                (ast::Value::Array(a), false) => {
                    a.elements.iter().map(|e| (e.start(), e.end())).collect()
                }
                _ => return None,
            };
            Some(Slot {
                items,
                open: range.start,
                close: range.end - 1,
            })
        })
    }

    /// Runs `f` on the node at `path` (a duplicated key names its last value, as the parsed
    /// value holds it).
    fn with_node<T>(&self, path: &Path, f: impl FnOnce(&ast::Value) -> Option<T>) -> Option<T> {
        // A byte order mark (a file read with a syntax that takes it off) is whitespace of
        // the same length here: the offsets stay those of the text, and the mark stays.
        let text = match self.text.strip_prefix('\u{feff}') {
            Some(rest) => std::borrow::Cow::Owned(format!("   {rest}")),
            None => std::borrow::Cow::Borrowed(self.text.as_str()),
        };
        #[cfg(test)]
        PARSES.with(|n| n.set(n.get() + 1));
        let parsed = jsonc_parser::parse_to_ast(
            &text,
            &Default::default(),
            &jsonc_parser::ParseOptions::default(),
        )
        .ok()?;
        let mut node = parsed.value.as_ref()?;
        for seg in path {
            node = match (node, seg) {
                (ast::Value::Object(o), Seg::Key(key)) => {
                    &o.properties
                        .iter()
                        .rev()
                        .find(|p| p.name.as_str() == key)?
                        .value
                }
                (ast::Value::Array(a), Seg::Index(i)) => a.elements.get(*i)?,
                _ => return None,
            };
        }
        f(node)
    }
}

#[cfg(test)]
thread_local! {
    static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many times this thread has parsed a whole text being edited: what a test bounds an
/// edit's work by.
#[cfg(test)]
pub fn texts_parsed() -> usize {
    PARSES.with(std::cell::Cell::get)
}

/// A path from its segments: `path!["hooks", "Stop", 0]`.
#[macro_export]
macro_rules! json_path {
    ($($seg:expr),* $(,)?) => {
        [$($crate::config::edit::Seg::from($seg)),*]
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn edit(text: &str, f: impl FnOnce(&mut JsonText)) -> String {
        let mut t = JsonText::new(text);
        f(&mut t);
        t.into_text()
    }

    /// Adding a hook and removing it again gives back the exact text, whatever its layout.
    #[test]
    fn insert_then_remove_is_the_identity() {
        let texts = [
            "{\n  \"a\": 1e3,\n  \"b\": [1, 2, 3],\n  // c\n  \"hooks\": {\n    \"Stop\": [\n      { \"hooks\": [ {\"command\": \"x\", \"timeout\": 18446744073709551616} ] }\n    ]\n  }\n}\n",
            "{\r\n\t\"hooks\": {\r\n\t\t\"Stop\": [\r\n\t\t\t{\"x\": 1.0}\r\n\t\t]\r\n\t}\r\n}\r\n",
            "{\"x\":1,\"hooks\":{\"Stop\":[{\"a\":1}]}}",
            "{\"hooks\": {\"Stop\": []}}",
            "{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}",
            "{\n  \"hooks\": {\n    \"Stop\": [{\"a\": 1}, {\"a\": 2},]\n  }\n}",
            "{\n  \"hooks\": {\n    \"Stop\": [{\"a\": 1}]\n  }\n}",
            "{\n  \"hooks\": {\n    \"Stop\": [\n      {\"a\": 1} // mine\n    ]\n  }\n}",
            "{\r\n  \"hooks\": {\r\n    \"Stop\": [\r\n      {\"a\": 0},\r\n      {\"a\": 1} /* mine */\r\n    ]\r\n  }\r\n}",
        ];
        let entry = json!({"hooks": [{"type": "command", "command": "hookx run"}]});
        for text in texts {
            let stop = json_path!["hooks", "Stop"];
            let added = edit(text, |t| t.push(&stop, &entry).unwrap());
            assert!(added.contains("hookx run"), "{added}");
            // A comment after the last item stays on that item's line.
            for comment in ["// mine", "/* mine */"] {
                if text.contains(comment) {
                    let line = format!("{{\"a\": 1}}, {comment}");
                    assert!(added.contains(&line), "{added}");
                }
            }
            let n = JsonText::new(added.clone()).len(&stop).unwrap();
            let back = edit(&added, |t| {
                t.remove(&json_path!["hooks", "Stop", n - 1]).unwrap()
            });
            assert_eq!(back, text, "after adding:\n{added}");
        }
    }

    #[test]
    fn a_new_property_follows_the_file_layout() {
        let text = "{\r\n    \"a\": 1\r\n}\r\n";
        let added = edit(text, |t| {
            t.add_property(&[], "hooks", &json!({"Stop": []})).unwrap()
        });
        assert_eq!(
            added,
            "{\r\n    \"a\": 1,\r\n    \"hooks\": {\r\n        \"Stop\": []\r\n    }\r\n}\r\n"
        );
        assert_eq!(
            edit(&added, |t| t.remove(&json_path!["hooks"]).unwrap()),
            text
        );
        let empty = edit("{}", |t| t.add_property(&[], "hooks", &json!({})).unwrap());
        assert_eq!(empty, "{\"hooks\":{}}");
        assert_eq!(
            edit(&empty, |t| t.remove(&json_path!["hooks"]).unwrap()),
            "{}"
        );
        let first = edit("{\n  \"a\": 1,\n  \"b\": 2\n}", |t| {
            t.remove(&json_path!["a"]).unwrap()
        });
        assert_eq!(first, "{\n  \"b\": 2\n}");
    }

    #[test]
    fn replacing_keeps_everything_around() {
        let text = "{\"a\": [1, 2], \"b\": \"x\" /* c */}";
        let out = edit(text, |t| t.replace(&json_path!["b"], &json!("y")).unwrap());
        assert_eq!(out, "{\"a\": [1, 2], \"b\": \"y\" /* c */}");
        let inline = edit(text, |t| t.push(&json_path!["a"], &json!(3)).unwrap());
        assert_eq!(inline, "{\"a\": [1, 2, 3], \"b\": \"x\" /* c */}");
    }
}

#[cfg(test)]
mod proptests {
    use super::*;
    use proptest::prelude::*;

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(Value::from),
            "[a-z \"\\\\]{0,6}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                proptest::collection::vec(("[a-z]{1,3}", inner), 0..4)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    /// `value` as text, each container inline or one item per line as `layout` says.
    fn render(
        value: &Value,
        indent: &str,
        unit: &str,
        nl: &str,
        layout: &mut impl Iterator<Item = bool>,
    ) -> String {
        let (open, close, items): (&str, &str, Vec<(Option<&String>, &Value)>) = match value {
            Value::Array(a) => ("[", "]", a.iter().map(|v| (None, v)).collect()),
            Value::Object(o) => ("{", "}", o.iter().map(|(k, v)| (Some(k), v)).collect()),
            leaf => return serde_json::to_string(leaf).unwrap(),
        };
        let multiline = layout.next().unwrap_or(false) && !items.is_empty();
        let inner = format!("{indent}{unit}");
        let parts: Vec<String> = items
            .into_iter()
            .map(|(k, v)| {
                let key = k.map_or(String::new(), |k| {
                    format!("{}: ", serde_json::to_string(k).unwrap())
                });
                let at = if multiline { inner.as_str() } else { indent };
                format!("{key}{}", render(v, at, unit, nl, layout))
            })
            .collect();
        if multiline {
            format!(
                "{open}{nl}{inner}{}{nl}{indent}{close}",
                parts.join(&format!(",{nl}{inner}"))
            )
        } else {
            format!("{open}{}{close}", parts.join(", "))
        }
    }

    /// Every path to an array or object in `value`.
    fn containers(value: &Value, at: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
        match value {
            Value::Array(a) => {
                out.push(at.clone());
                for (i, v) in a.iter().enumerate() {
                    at.push(Seg::Index(i));
                    containers(v, at, out);
                    at.pop();
                }
            }
            Value::Object(o) => {
                out.push(at.clone());
                for (k, v) in o {
                    at.push(Seg::Key(k.clone()));
                    containers(v, at, out);
                    at.pop();
                }
            }
            _ => {}
        }
    }

    proptest! {
        /// In any layout, adding an item anywhere and removing it again gives back the text,
        /// and the text in between reads as the value with the item added.
        #[test]
        fn adding_then_removing_is_the_identity(
            root in proptest::collection::vec(("[a-z]{1,3}", value()), 0..4),
            layout in proptest::collection::vec(any::<bool>(), 0..40),
            crlf in any::<bool>(),
            tabs in any::<bool>(),
            pick in any::<prop::sample::Index>(),
            item in value(),
        ) {
            let root = Value::Object(root.into_iter().collect());
            let (nl, unit) = (if crlf { "\r\n" } else { "\n" }, if tabs { "\t" } else { "  " });
            let text = render(&root, "", unit, nl, &mut layout.into_iter());
            let mut all = Vec::new();
            containers(&root, &mut Vec::new(), &mut all);
            let at = pick.get(&all).clone();
            let mut edited = JsonText::new(text.clone());
            let mut expected = root.clone();
            let mut target = &mut expected;
            for seg in &at {
                target = match seg {
                    Seg::Key(k) => &mut target[k.as_str()],
                    Seg::Index(i) => &mut target[*i],
                };
            }
            let removal = match target {
                Value::Array(a) => {
                    a.push(item.clone());
                    edited.push(&at, &item).unwrap();
                    [at.clone(), vec![Seg::Index(a.len() - 1)]].concat()
                }
                Value::Object(o) => {
                    let key = "new key";
                    if o.contains_key(key) {
                        return Ok(());
                    }
                    o.insert(key.into(), item.clone());
                    edited.add_property(&at, key, &item).unwrap();
                    [at.clone(), vec![Seg::from(key)]].concat()
                }
                _ => unreachable!(),
            };
            let added: Value = serde_json::from_str(edited.as_str()).unwrap();
            prop_assert_eq!(&added, &expected, "{}", edited.as_str());
            if crlf {
                prop_assert!(!edited.as_str().replace("\r\n", "").contains('\n'));
            }
            edited.remove(&removal).unwrap();
            prop_assert_eq!(edited.as_str(), text.as_str());
        }
    }
}
