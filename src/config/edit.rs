//! Editing JSON text in place: the values hookx adds, replaces or removes are spliced into the
//! text, and every other byte stays as it was (key order, whitespace, inline arrays, comments,
//! CRLF line endings, numbers as written: `1e3`, `1.0`, integers beyond 2^64).
//!
//! Inserting only ever adds text, in the layout of its neighbours (their indentation, one line
//! per item or all on one line, the file's line ending), and removing an item takes exactly
//! what inserting it added: an insert undone by a removal gives the text back byte for byte.
//! (jsonc-parser's CST was evaluated for this: it re-lays out a one-line object or array that
//! receives a multi-line value, so minified files did not come back unchanged.)
//!
//! The text is parsed once, into where each value sits ([`Node`]); each edit then moves those
//! places by what it added or took, and parses only the value it writes. A merge of many
//! entries into a file reads the file once, not once per entry (attacks row 2323).

use jsonc_parser::ast;
use jsonc_parser::common::Ranged;
use serde_json::Value;
use std::cell::OnceCell;
use std::ops::Range;

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

/// JSON(C) text being edited. Paths always name what the text holds now: the places of its
/// values, read when first asked for, follow each edit.
#[derive(Clone, Debug)]
pub struct JsonText {
    text: String,
    newline: &'static str,
    indent: String,
    /// Where the text's values are (`None` inside: the text is not JSON(C), and nothing in it
    /// is found or edited).
    tree: OnceCell<Option<Node>>,
}

/// Where a value sits in the text (byte offsets, `end` past its last byte), and its items'
/// places when it is an object or an array.
#[derive(Clone, Debug, PartialEq)]
struct Node {
    start: usize,
    end: usize,
    items: Items,
}

#[derive(Clone, Debug, PartialEq)]
enum Items {
    Leaf,
    Array(Vec<Node>),
    Object(Vec<Prop>),
}

/// An object's property: from its name's first byte to its value's end.
#[derive(Clone, Debug, PartialEq)]
struct Prop {
    key: String,
    start: usize,
    /// Past the name's last byte (its closing quote).
    name_end: usize,
    end: usize,
    value: Node,
}

impl Node {
    /// The places of the values of `value`, parsed from a text that starts at `base`.
    fn of(value: &ast::Value, base: usize) -> Node {
        let items = match value {
            ast::Value::Object(o) => Items::Object(
                o.properties
                    .iter()
                    .map(|p| Prop {
                        key: p.name.as_str().to_string(),
                        start: base + p.range.start,
                        name_end: base + p.name.end(),
                        end: base + p.range.end,
                        value: Node::of(&p.value, base),
                    })
                    .collect(),
            ),
            ast::Value::Array(a) => {
                Items::Array(a.elements.iter().map(|e| Node::of(e, base)).collect())
            }
            _ => Items::Leaf,
        };
        Node {
            start: base + value.start(),
            end: base + value.end(),
            items,
        }
    }

    /// The value at `seg` in this one (a duplicated key names its last value, as the parsed
    /// value holds it).
    fn child(&self, seg: &Seg) -> Option<&Node> {
        match (&self.items, seg) {
            (Items::Object(props), Seg::Key(key)) => {
                props.iter().rev().find(|p| p.key == *key).map(|p| &p.value)
            }
            (Items::Array(elements), Seg::Index(i)) => elements.get(*i),
            _ => None,
        }
    }

    fn child_mut(&mut self, seg: &Seg) -> Option<&mut Node> {
        match (&mut self.items, seg) {
            (Items::Object(props), Seg::Key(key)) => props
                .iter_mut()
                .rev()
                .find(|p| p.key == *key)
                .map(|p| &mut p.value),
            (Items::Array(elements), Seg::Index(i)) => elements.get_mut(*i),
            _ => None,
        }
    }

    /// The offsets of each item (a property from its name, an element).
    fn item_ranges(&self) -> Option<Vec<(usize, usize)>> {
        match &self.items {
            Items::Object(props) => Some(props.iter().map(|p| (p.start, p.end)).collect()),
            Items::Array(elements) => Some(elements.iter().map(|e| (e.start, e.end)).collect()),
            Items::Leaf => None,
        }
    }

    /// Moves the offsets past an edit that replaced the text in `range` by `len` bytes: an
    /// offset at or after the range's end moves, but the end of a value just before a pure
    /// insertion stays (the new text comes after it).
    fn shift(&mut self, range: &Range<usize>, len: usize) {
        let (a, b) = (range.start, range.end);
        if self.end <= a {
            // Wholly before the edit: nothing in it moves.
            return;
        }
        let moved = |o: usize| o - (b - a) + len;
        let start = |o: &mut usize| {
            if *o >= b {
                *o = moved(*o);
            }
        };
        let end = |o: &mut usize| {
            if *o > b || (*o == b && a < b) {
                *o = moved(*o);
            }
        };
        start(&mut self.start);
        end(&mut self.end);
        match &mut self.items {
            Items::Leaf => {}
            Items::Array(elements) => {
                let from = elements.partition_point(|e| e.end <= a);
                for e in &mut elements[from..] {
                    e.shift(range, len);
                }
            }
            Items::Object(props) => {
                let from = props.partition_point(|p| p.end <= a);
                for p in &mut props[from..] {
                    start(&mut p.start);
                    end(&mut p.name_end);
                    end(&mut p.end);
                    p.value.shift(range, len);
                }
            }
        }
    }
}

/// Parses `text`, which starts at `base` in the text being edited.
fn parse(text: &str, base: usize) -> Option<Node> {
    let parsed = jsonc_parser::parse_to_ast(
        text,
        &Default::default(),
        &jsonc_parser::ParseOptions::default(),
    )
    .ok()?;
    Some(Node::of(parsed.value.as_ref()?, base))
}

/// Parses a whole text being edited.
fn parse_text(text: &str) -> Option<Node> {
    // A byte order mark (a file read with a syntax that takes it off) is whitespace of the
    // same length here: the offsets stay those of the text, and the mark stays.
    match text.strip_prefix('\u{feff}') {
        Some(rest) => parse(&format!("   {rest}"), 0),
        None => parse(text, 0),
    }
}

/// Where an item sits in its container.
struct Slot {
    /// Byte offsets of each item (a property from its name, an element) in the container.
    items: Vec<(usize, usize)>,
    /// The container's brackets: `[`/`{` and `]`/`}` offsets.
    open: usize,
    close: usize,
}

/// A property being added: its key, and where its value starts in the text inserted.
struct NewProp<'a> {
    key: &'a str,
    name_len: usize,
    value_at: usize,
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
            tree: OnceCell::new(),
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
        let node = self.node(path)?;
        let text = &self.text[node.start..node.end];
        serde_json::from_str(text)
            .ok()
            .or_else(|| super::syntax::loose_value(text))
    }

    /// Whether the object or array at `path` holds no item and nothing else but whitespace
    /// (no comment of the user's either).
    pub fn is_bare_empty(&self, path: &Path) -> bool {
        self.len(path) == Some(0)
            && self
                .node(path)
                .is_some_and(|n| self.text[n.start + 1..n.end - 1].trim().is_empty())
    }

    /// The inside of the empty object or array at `path` when it is whitespace only (`""` for
    /// `[]`): what [`JsonText::set_blank`] puts back.
    pub fn blank(&self, path: &Path) -> Option<&str> {
        let node = self.node(path)?;
        let inside = &self.text[node.start + 1..node.end - 1];
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
        let (start, end) = self.node(path).map(|n| (n.start, n.end))?;
        self.splice(start + 1..end - 1, blank);
        self.edited();
        Some(())
    }

    /// How many items the object or array at `path` holds.
    pub fn len(&self, path: &Path) -> Option<usize> {
        match &self.node(path)?.items {
            Items::Object(props) => Some(props.len()),
            Items::Array(elements) => Some(elements.len()),
            Items::Leaf => None,
        }
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
        let prop = NewProp {
            key,
            name_len: name.len(),
            value_at: name.len() + colon.len(),
        };
        self.insert_at(path, slot, usize::MAX, Some(prop), |this, indent| {
            format!("{name}{colon}{}", this.render(value, indent))
        })
    }

    /// Inserts `value` into the array at `path` before item `index` (at the end when `index`
    /// is past it).
    pub fn insert(&mut self, path: &Path, index: usize, value: &Value) -> Option<()> {
        let slot = self.slot(path, false)?;
        self.insert_at(path, slot, index, None, |this, indent| {
            this.render(value, indent)
        })
    }

    /// Appends `value` to the array at `path`.
    pub fn push(&mut self, path: &Path, value: &Value) -> Option<()> {
        self.insert(path, usize::MAX, value)
    }

    /// Replaces the value at `path`, which keeps its place and the text around it.
    pub fn replace(&mut self, path: &Path, value: &Value) -> Option<()> {
        let (start, end) = self.node(path).map(|n| (n.start, n.end))?;
        let indent = self.line_indent(start).to_string();
        let text = if self.text[start..end].contains('\n') || !self.is_one_line() {
            self.render(value, &indent)
        } else {
            serde_json::to_string(value).ok()?
        };
        let node = parse(&text, start)?;
        self.splice(start..end, &text);
        *self.node_mut(path)? = node;
        self.edited();
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
            Seg::Key(key) => match &self.node(parent)?.items {
                Items::Object(props) => props.iter().rposition(|p| p.key == *key)?,
                _ => return None,
            },
        };
        let (start, end) = *slot.items.get(i)?;
        // The item leaves the places first: the text it was in goes below.
        match &mut self.node_mut(parent)?.items {
            Items::Object(props) => {
                props.remove(i);
            }
            Items::Array(elements) => {
                elements.remove(i);
            }
            Items::Leaf => return None,
        }
        let prev_end = i.checked_sub(1).map(|p| slot.items[p].1);
        let comment_line = prev_end
            .and_then(|p| self.comment_after(p, start))
            .filter(|&(_, eol)| eol < start);
        if let (Some(prev_end), Some((_, eol))) = (prev_end, comment_line) {
            // The previous item's comment stays on its line, as `insert_at` left it.
            match slot.items.get(i + 1) {
                Some(&(next, _)) => self.splice(start..next, ""),
                None => {
                    self.splice(eol..end, "");
                    if self.text[prev_end..].starts_with(',') {
                        self.splice(prev_end..prev_end + 1, "");
                    }
                }
            }
        } else if i > 0 {
            self.splice(slot.items[i - 1].1..end, "");
        } else if let Some(&(next, _)) = slot.items.get(1) {
            self.splice(start..next, "");
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
            self.splice(slot.open + 1..close, "");
        }
        self.edited();
        Some(())
    }

    /// Puts the item `item` makes into the container at `path` (whose place is `slot`) before
    /// its item `index`, and its place among the container's items.
    fn insert_at(
        &mut self,
        path: &Path,
        slot: Slot,
        index: usize,
        prop: Option<NewProp>,
        item: impl FnOnce(&JsonText, &str) -> String,
    ) -> Option<()> {
        let one_line = self.is_one_line();
        let nl = self.newline;
        // The item's text, and where it starts once inserted.
        let (body, at) = match slot.items.len() {
            0 => {
                let base = self.line_indent(slot.open).to_string();
                let at = slot.open + 1;
                if one_line {
                    let body = item(self, &base);
                    self.splice(at..at, &body);
                    (body, at)
                } else {
                    let inner = format!("{base}{}", self.indent);
                    let body = item(self, &inner);
                    let text = if self.text[slot.open + 1..slot.close].is_empty() {
                        format!("{nl}{inner}{body}{nl}{base}")
                    } else {
                        format!("{nl}{inner}{body}")
                    };
                    self.splice(at..at, &text);
                    (body, at + nl.len() + inner.len())
                }
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
                        tree: OnceCell::new(),
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
                            self.splice(eol..eol, &format!("{nl}{indent}{body}"));
                            let mut at = eol + nl.len() + indent.len();
                            if !comma {
                                self.splice(last_end..last_end, ",");
                                at += 1;
                            }
                            (body, at)
                        }
                        None => {
                            self.splice(last_end..last_end, &format!("{sep}{body}"));
                            (body, last_end + sep.len())
                        }
                    }
                } else {
                    let at = slot.items[index].0;
                    self.splice(at..at, &format!("{body}{sep}"));
                    (body, at)
                }
            }
        };
        let container = self.node_mut(path)?;
        match (&mut container.items, prop) {
            (Items::Object(props), Some(prop)) => {
                let value = parse(&body[prop.value_at..], at + prop.value_at)?;
                let new = Prop {
                    key: prop.key.to_string(),
                    start: at,
                    name_end: at + prop.name_len,
                    end: at + body.len(),
                    value,
                };
                props.insert(index.min(props.len()), new);
            }
            (Items::Array(elements), None) => {
                let new = parse(&body, at)?;
                elements.insert(index.min(elements.len()), new);
            }
            _ => return None,
        }
        self.edited();
        Some(())
    }

    /// Replaces the text in `range` by `with`, and moves the places of the values after it.
    fn splice(&mut self, range: Range<usize>, with: &str) {
        if let Some(Some(tree)) = self.tree.get_mut() {
            tree.shift(&range, with.len());
        }
        self.text.replace_range(range, with);
    }

    /// After an edit: in tests, the places kept are those a parse of the text finds.
    fn edited(&self) {
        #[cfg(test)]
        if let Some(kept) = self.tree.get() {
            assert_eq!(
                kept,
                &parse_text(&self.text),
                "the places kept, against the text:\n{}",
                self.text
            );
        }
    }

    /// Where the value at `path` is.
    fn node(&self, path: &Path) -> Option<&Node> {
        let mut node = self
            .tree
            .get_or_init(|| {
                #[cfg(test)]
                PARSES.with(|n| n.set(n.get() + 1));
                parse_text(&self.text)
            })
            .as_ref()?;
        for seg in path {
            node = node.child(seg)?;
        }
        Some(node)
    }

    fn node_mut(&mut self, path: &Path) -> Option<&mut Node> {
        self.node(&[])?;
        let mut node = self.tree.get_mut()?.as_mut()?;
        for seg in path {
            node = node.child_mut(seg)?;
        }
        Some(node)
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
        let Items::Object(props) = &self.node(path)?.items else {
            return None;
        };
        let prop = props.last()?;
        let between = &self.text[prop.name_end..prop.value.start];
        (between.trim() == ":").then(|| between.to_string())
    }

    fn slot(&self, path: &Path, object: bool) -> Option<Slot> {
        let node = self.node(path)?;
        if matches!(node.items, Items::Object(_)) != object {
            return None;
        }
        Some(Slot {
            items: node.item_ranges()?,
            open: node.start,
            close: node.end - 1,
        })
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
