//! Where things are in config text: the line and column of a byte offset, and where the value
//! at a JSON pointer starts in JSON (comments tolerated), block-style YAML or TOML text. The
//! bottom of the house: it reads text only, so that [`crate::source::SourceFile`] can keep one
//! index per file and every floor above can point into it.

use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashMap;

/// 1-based line and column (in characters) of a byte offset into `text` (one scan; a
/// [`crate::source::SourceFile`] indexes its lines for many).
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..text.floor_char_boundary(offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// [`line_col`] of each of `offsets`, in one scan of `text` up to the last: cheaper than a
/// [`crate::source::SourceFile`]'s line index when a large file has a few positions to tell
/// (a conversion's losses).
pub fn line_cols(text: &str, offsets: &[usize]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_unstable_by_key(|&i| offsets[i]);
    let bytes = text.as_bytes();
    let (mut at, mut line, mut line_start) = (0, 1, 0);
    let mut out = vec![(0, 0); offsets.len()];
    for i in order {
        let offset = text.floor_char_boundary(offsets[i].min(text.len()));
        let span = &bytes[at..offset];
        if let Some(last) = span.iter().rposition(|&b| b == b'\n') {
            line += span.iter().filter(|&&b| b == b'\n').count();
            line_start = at + last + 1;
        }
        at = offset;
        out[i] = (line, text[line_start..offset].chars().count() + 1);
    }
    out
}

/// Escapes a key for use in a JSON pointer.
pub fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Byte offset of the value at `pointer` in JSON text, for diagnostics; `None` if it cannot be
/// found (the text is not JSON, or the pointer is stale). To locate many pointers in one text,
/// use [`crate::source::SourceFile::locate_json`], which parses it once.
pub fn locate_json(text: &str, pointer: &str) -> Option<usize> {
    JsonPositions::new(text)?.locate(pointer)
}

/// Where each value of a JSON text starts, so that many pointers are located with one parse.
#[derive(Clone, Debug)]
pub struct JsonPositions {
    root: Node,
}

#[derive(Clone, Debug)]
enum Node {
    /// A duplicated key names its last value, the one a JSON reader keeps.
    Object(usize, HashMap<String, Node>),
    Array(usize, Vec<Node>),
    Leaf(usize),
}

impl Node {
    fn new(value: &jsonc_parser::ast::Value) -> Node {
        let start = jsonc_parser::common::Ranged::start(value);
        match value {
            jsonc_parser::ast::Value::Object(obj) => {
                let mut props = HashMap::with_capacity(obj.properties.len());
                for p in &obj.properties {
                    props.insert(p.name.as_str().to_string(), Node::new(&p.value));
                }
                Node::Object(start, props)
            }
            jsonc_parser::ast::Value::Array(arr) => {
                Node::Array(start, arr.elements.iter().map(Node::new).collect())
            }
            _ => Node::Leaf(start),
        }
    }

    fn start(&self) -> usize {
        match self {
            Node::Object(start, _) | Node::Array(start, _) | Node::Leaf(start) => *start,
        }
    }
}

impl JsonPositions {
    /// `None` when the text is not JSON (comments and trailing commas are tolerated).
    pub fn new(text: &str) -> Option<JsonPositions> {
        let ast = jsonc_parser::parse_to_ast(
            text,
            &Default::default(),
            &jsonc_parser::ParseOptions::default(),
        )
        .ok()?
        .value?;
        Some(JsonPositions {
            root: Node::new(&ast),
        })
    }

    /// Byte offset of the value at `pointer`.
    pub fn locate(&self, pointer: &str) -> Option<usize> {
        let mut node = &self.root;
        for token in pointer.split('/').skip(1) {
            let token = token.replace("~1", "/").replace("~0", "~");
            node = match node {
                Node::Object(_, props) => props.get(&token)?,
                Node::Array(_, items) => items.get(token.parse::<usize>().ok()?)?,
                Node::Leaf(_) => return None,
            };
        }
        Some(node.start())
    }
}

/// Best-effort position of the value at `pointer` in YAML text (block style: keys and `- `
/// items down the indentation). Returns a byte offset into `text`. To locate many pointers in
/// one text, use [`YamlPositions`], which reads it once.
pub fn locate_yaml(text: &str, pointer: &str) -> Option<usize> {
    YamlPositions::new(text).locate(pointer)
}

/// Where each key and list item of block-style YAML starts, by JSON pointer, read in one pass.
#[derive(Clone, Debug)]
pub struct YamlPositions {
    offsets: HashMap<String, usize>,
}

/// A mapping or sequence being read: the column of its keys or `-`, and its pointer.
struct Frame {
    col: usize,
    pointer: String,
    /// `Some(items so far)` for a sequence.
    items: Option<usize>,
}

impl YamlPositions {
    pub fn new(text: &str) -> YamlPositions {
        let mut offsets = HashMap::new();
        let mut stack: Vec<Frame> = Vec::new();
        // The last key or item read: a block nested under it is its value.
        let mut last = String::new();
        // Inside a `|` / `>` block scalar: lines indented deeper than this column.
        let mut scalar: Option<usize> = None;
        let mut line_start = 0;
        for line in text.split_inclusive('\n') {
            let start = line_start;
            line_start += line.len();
            let trimmed = line.trim_start();
            let mut col = line.len() - trimmed.len();
            let mut rest = trimmed.trim_end();
            if rest.is_empty() || rest.starts_with('#') {
                continue;
            }
            match scalar {
                Some(c) if col > c => continue,
                _ => scalar = None,
            }
            loop {
                while stack.last().is_some_and(|f| f.col > col) {
                    stack.pop();
                }
                if rest == "-" || rest.starts_with("- ") {
                    let top = match stack.last_mut() {
                        Some(f) if f.col == col && f.items.is_some() => f,
                        _ => {
                            stack.push(Frame {
                                col,
                                pointer: last.clone(),
                                items: Some(0),
                            });
                            stack.last_mut().expect("just pushed")
                        }
                    };
                    let n = top.items.get_or_insert(0);
                    last = format!("{}/{n}", top.pointer);
                    *n += 1;
                    offsets.entry(last.clone()).or_insert(start + col);
                    let after = &rest[1..];
                    let content = after.trim_start();
                    col += 1 + after.len() - content.len();
                    rest = content;
                    if rest.is_empty() {
                        break;
                    }
                    // The item's own content: a nested item or the first key of a mapping.
                    continue;
                }
                let Some((key, value)) = split_key(rest) else {
                    break;
                };
                if stack
                    .last()
                    .is_some_and(|f| f.col == col && f.items.is_some())
                {
                    // A key beside a sequence written at its key's indentation ends it.
                    stack.pop();
                }
                let parent = match stack.last() {
                    Some(f) if f.col == col => f.pointer.clone(),
                    _ => {
                        stack.push(Frame {
                            col,
                            pointer: last.clone(),
                            items: None,
                        });
                        last.clone()
                    }
                };
                last = format!("{parent}/{}", escape(key));
                offsets.entry(last.clone()).or_insert(start + col);
                if value.starts_with(['|', '>']) {
                    scalar = Some(col);
                }
                break;
            }
        }
        YamlPositions { offsets }
    }

    /// Byte offset of the key or item at `pointer` (`""`: the start of the text).
    pub fn locate(&self, pointer: &str) -> Option<usize> {
        if pointer.is_empty() {
            return Some(0);
        }
        self.offsets.get(pointer).copied()
    }
}

/// `key: value` (the key plain or quoted) → the key and the rest after the colon.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let (key, after) = match text.as_bytes()[0] {
        quote @ (b'"' | b'\'') => {
            let end = text[1..].find(quote as char)? + 1;
            (&text[1..end], text[end + 1..].trim_start())
        }
        _ => {
            let colon = text
                .match_indices(':')
                .map(|(i, _)| i)
                .find(|&i| text[i + 1..].is_empty() || text[i + 1..].starts_with([' ', '\t']))?;
            (text[..colon].trim_end(), &text[colon..])
        }
    };
    let value = after.strip_prefix(':')?;
    Some((key, value.trim_start()))
}

/// Where each key, table and value of a TOML text starts, by JSON pointer.
#[derive(Clone, Debug)]
pub struct TomlPositions {
    offsets: HashMap<String, usize>,
}

impl TomlPositions {
    /// `None` when the text is not TOML.
    pub fn new(text: &str) -> Option<TomlPositions> {
        let doc = toml_edit::Document::parse(text).ok()?;
        let mut offsets = Some(HashMap::new());
        toml::item(doc.as_item(), "", 0, &mut offsets);
        offsets.map(|offsets| TomlPositions { offsets })
    }

    /// Byte offset of the table header, key or value at `pointer` (`""`: the start).
    pub fn locate(&self, pointer: &str) -> Option<usize> {
        match pointer {
            "" => Some(0),
            _ => self.offsets.get(pointer).copied(),
        }
    }
}

/// TOML items as JSON values, noting where each starts when asked.
mod toml {
    use serde_json::{Map, Value};
    use std::collections::HashMap;
    use toml_edit::{Item, Value as Toml};

    type Offsets = Option<HashMap<String, usize>>;

    fn note(offsets: &mut Offsets, pointer: &str, at: usize) {
        if let Some(map) = offsets {
            map.entry(pointer.to_string()).or_insert(at);
        }
    }

    fn child(pointer: &str, key: &str) -> String {
        format!("{pointer}/{}", super::escape(key))
    }

    /// `item` at `pointer`; `at` is where its key starts, used when it has no span of its own
    /// (an implicit table such as `hooks` in `[hooks.state."k"]`).
    pub(super) fn item(item: &Item, pointer: &str, at: usize, offsets: &mut Offsets) -> Value {
        let at = item.span().map_or(at, |span| span.start);
        note(offsets, pointer, at);
        match item {
            Item::None => Value::Null,
            Item::Value(v) => value(v, pointer, offsets),
            Item::Table(table) => {
                let mut out = Map::new();
                for (key, sub) in table.iter() {
                    let key_at = table
                        .key(key)
                        .and_then(|k| k.span())
                        .map_or(at, |s| s.start);
                    let p = child(pointer, key);
                    out.insert(key.to_string(), self::item(sub, &p, key_at, offsets));
                }
                Value::Object(out)
            }
            Item::ArrayOfTables(tables) => Value::Array(
                tables
                    .iter()
                    .enumerate()
                    .map(|(i, table)| {
                        let table_at = table.span().map_or(at, |s| s.start);
                        let p = format!("{pointer}/{i}");
                        let whole = Item::Table(table.clone());
                        self::item(&whole, &p, table_at, offsets)
                    })
                    .collect(),
            ),
        }
    }

    fn value(v: &Toml, pointer: &str, offsets: &mut Offsets) -> Value {
        if let Some(span) = v.span() {
            note(offsets, pointer, span.start);
        }
        match v {
            Toml::String(s) => Value::String(s.value().clone()),
            Toml::Integer(i) => Value::from(*i.value()),
            Toml::Float(f) => {
                serde_json::Number::from_f64(*f.value()).map_or(Value::Null, Value::Number)
            }
            Toml::Boolean(b) => Value::Bool(*b.value()),
            Toml::Datetime(d) => Value::String(d.value().to_string()),
            Toml::Array(items) => Value::Array(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, v)| value(v, &format!("{pointer}/{i}"), offsets))
                    .collect(),
            ),
            Toml::InlineTable(table) => {
                let mut out = Map::new();
                for (key, sub) in table.iter() {
                    let p = child(pointer, key);
                    out.insert(key.to_string(), value(sub, &p, offsets));
                    // Where the value has no span of its own, its key.
                    if let Some(span) = table.key(key).and_then(|k| k.span()) {
                        note(offsets, &p, span.start);
                    }
                }
                Value::Object(out)
            }
        }
    }
}

/// A TOML item as a JSON value (dates become their TOML text, non-finite floats `null`): the
/// walk [`TomlPositions`] notes its offsets on, so a pointer it locates names a value of this.
pub fn toml_to_json(item: &toml_edit::Item) -> Value {
    toml::item(item, "", 0, &mut None)
}

/// Byte offsets in JSON `text` of the values at `pointers`, in one pass that descends only
/// into the values on their paths and skips the rest without building anything; `None` on
/// anything the scan does not expect (an unquoted key, an escape in a single-quoted key, the
/// text ending early): the caller then asks [`JsonPositions`].
pub fn scan_json(text: &str, pointers: &[&str]) -> Option<Vec<Option<usize>>> {
    PointerScan::run(text, pointers)
}

/// One pass over JSON text (comments, single quotes and trailing commas as jsonc-parser takes
/// them) finding where the values at some pointers start. `None` on anything it does not
/// expect (an unquoted key, an escape in a single-quoted key, the text ending early): the
/// caller then asks [`JsonPositions`], which parses the whole text.
struct PointerScan<'t> {
    bytes: &'t [u8],
    at: usize,
    /// Each pointer's reference tokens, unescaped.
    paths: Vec<Vec<String>>,
    found: Vec<Option<usize>>,
}

impl<'t> PointerScan<'t> {
    fn run(text: &'t str, pointers: &[&str]) -> Option<Vec<Option<usize>>> {
        let paths: Vec<Vec<String>> = pointers
            .iter()
            .map(|p| {
                p.split('/')
                    .skip(1)
                    .map(|t| t.replace("~1", "/").replace("~0", "~"))
                    .collect()
            })
            .collect();
        let mut scan = PointerScan {
            bytes: text.as_bytes(),
            at: 0,
            found: vec![None; paths.len()],
            paths,
        };
        let all: Vec<usize> = (0..pointers.len()).collect();
        scan.space()?;
        scan.value(0, &all)?;
        Some(scan.found)
    }

    /// The value starting here, at `depth` tokens down the paths of `wanted`.
    fn value(&mut self, depth: usize, wanted: &[usize]) -> Option<()> {
        let (here, deeper): (Vec<usize>, Vec<usize>) =
            wanted.iter().partition(|&&p| self.paths[p].len() == depth);
        for p in here {
            self.found[p] = Some(self.at);
        }
        if deeper.is_empty() {
            return self.skip_value();
        }
        let close = match self.bytes.get(self.at)? {
            b'{' => b'}',
            b'[' => b']',
            _ => return self.skip_value(),
        };
        self.at += 1;
        let mut index = 0usize;
        loop {
            self.space()?;
            if *self.bytes.get(self.at)? == close {
                self.at += 1;
                return Some(());
            }
            let matched: Vec<usize> = if close == b'}' {
                let key = self.key()?;
                self.space()?;
                (*self.bytes.get(self.at)? == b':').then_some(())?;
                self.at += 1;
                deeper
                    .iter()
                    .copied()
                    .filter(|&p| self.paths[p][depth] == key)
                    .collect()
            } else {
                deeper
                    .iter()
                    .copied()
                    .filter(|&p| self.paths[p][depth].parse::<usize>().ok() == Some(index))
                    .collect()
            };
            self.space()?;
            // A duplicated key names its last value, the one a JSON reader keeps.
            for &p in &matched {
                self.found[p] = None;
            }
            match matched.is_empty() {
                true => self.skip_value()?,
                false => self.value(depth + 1, &matched)?,
            }
            self.space()?;
            match *self.bytes.get(self.at)? {
                b',' => {
                    self.at += 1;
                    index += 1;
                }
                b if b == close => {}
                _ => return None,
            }
        }
    }

    /// An object key, unescaped.
    fn key(&mut self) -> Option<Cow<'t, str>> {
        let start = self.at;
        let quote = *self.bytes.get(start)?;
        if quote != b'"' && quote != b'\'' {
            return None;
        }
        self.skip_string()?;
        let bytes = self.bytes;
        let raw = std::str::from_utf8(&bytes[start + 1..self.at - 1]).ok()?;
        match (raw.contains('\\'), quote) {
            (false, _) => Some(Cow::Borrowed(raw)),
            (true, b'"') => serde_json::from_str::<String>(&format!("\"{raw}\""))
                .ok()
                .map(Cow::Owned),
            (true, _) => None,
        }
    }

    /// Whitespace and comments.
    fn space(&mut self) -> Option<()> {
        loop {
            match self.bytes.get(self.at) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/') => match self.bytes.get(self.at + 1)? {
                    b'/' => {
                        let rest = &self.bytes[self.at..];
                        self.at += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                    }
                    b'*' => {
                        let rest = &self.bytes[self.at + 2..];
                        self.at += 2 + rest.windows(2).position(|w| w == b"*/")? + 2;
                    }
                    _ => return None,
                },
                _ => return Some(()),
            }
        }
    }

    /// A string from its opening quote to past its closing one.
    fn skip_string(&mut self) -> Option<()> {
        let quote = self.bytes[self.at];
        self.at += 1;
        loop {
            self.at += memchr::memchr2(quote, b'\\', self.bytes.get(self.at..)?)?;
            match self.bytes[self.at] {
                b'\\' => self.at += 2,
                _ => {
                    self.at += 1;
                    return Some(());
                }
            }
        }
    }

    /// One value, whatever it holds.
    fn skip_value(&mut self) -> Option<()> {
        /// The bytes that open or close something inside a container: all others are skipped.
        const MARKS: [bool; 256] = {
            let mut marks = [false; 256];
            let mut i = 0;
            let set = b"\"'{}[]/";
            while i < set.len() {
                marks[set[i] as usize] = true;
                i += 1;
            }
            marks
        };
        match *self.bytes.get(self.at)? {
            b'"' | b'\'' => self.skip_string(),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    let rest = self.bytes.get(self.at..)?;
                    self.at += rest.iter().position(|&b| MARKS[b as usize])?;
                    match self.bytes[self.at] {
                        b'"' | b'\'' => self.skip_string()?,
                        b'/' => self.space()?,
                        b'{' | b'[' => {
                            depth += 1;
                            self.at += 1;
                        }
                        _ => {
                            depth -= 1;
                            self.at += 1;
                            if depth == 0 {
                                return Some(());
                            }
                        }
                    }
                }
            }
            _ => {
                let rest = &self.bytes[self.at..];
                self.at += rest
                    .iter()
                    .position(|b| {
                        matches!(b, b',' | b'}' | b']' | b'/' | b' ' | b'\t' | b'\n' | b'\r')
                    })
                    .unwrap_or(rest.len());
                Some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_json_values_by_pointer() {
        let text = "{\n  \"hooks\": {\n    \"Stop\": [ {\"hooks\": []} ]\n  }\n}";
        let offset = locate_json(text, "/hooks/Stop/0").unwrap();
        assert_eq!(line_col(text, offset), (3, 15));
    }

    #[test]
    fn locates_yaml_keys() {
        let text = "name: x\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n";
        let offset = locate_yaml(text, "/hooks/PreToolUse/0/hooks/0").unwrap();
        assert_eq!(line_col(text, offset).0, 6);
    }

    #[test]
    fn yaml_items_are_counted_in_their_own_list_only() {
        let text = "---\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - command: a\n        - command: |\n            - not: an item\n    - matcher: Edit\n      hooks:\n        - type: command\n---\n";
        let at = |pointer: &str| {
            let offset = locate_yaml(text, pointer).unwrap();
            line_col(text, offset)
        };
        assert_eq!(at("/hooks/PreToolUse/1"), (9, 5));
        assert_eq!(at("/hooks/PreToolUse/1/matcher"), (9, 7));
        assert_eq!(at("/hooks/PreToolUse/0/hooks/1/command"), (7, 11));
        assert_eq!(at("/hooks/PreToolUse/1/hooks/0/type"), (11, 11));
        assert_eq!(locate_yaml(text, "/hooks/PreToolUse/2"), None);
    }
}
