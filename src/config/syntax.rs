//! Turning config text into a JSON value, with exact positions for syntax errors and for
//! values named by a JSON pointer. JSON, YAML (frontmatter) and TOML all end up as
//! `serde_json::Value`.

use crate::diag::{Diagnostic, Severity};
use crate::error::Error;
use crate::positions;
use crate::source::SourceFile;
use crate::tables::Frontmatter;
use crate::tables::JsonSyntax;
use serde_json::Value;

/// Parses JSON text; a syntax error names the file, line and column.
pub fn parse_json(src: &SourceFile) -> Result<Value, Error> {
    parse_json_as(src, JsonSyntax::STRICT)
}

/// Parses JSON text as an agent reading it with `syntax` does: comments, where it accepts them,
/// are read as whitespace, so that every position (of values and of errors) stays that of the
/// original text. A strict JSON text is parsed exactly as [`parse_json`] parses it.
pub fn parse_json_as(src: &SourceFile, syntax: JsonSyntax) -> Result<Value, Error> {
    with_syntax(src, syntax, |text| serde_json::from_str(text))
}

/// Parses `src` with `parse`, strict first; when that fails and `syntax` allows comments, again
/// with the comments blanked out. An error is the strict one, unless that sits at a comment
/// `syntax` allows (then it is the comment-aware parse's). A leading byte order mark that
/// `syntax` allows is read as whitespace (three spaces: every offset stays the text's).
fn with_syntax<T>(
    src: &SourceFile,
    syntax: JsonSyntax,
    parse: impl Fn(&str) -> Result<T, serde_json::Error>,
) -> Result<T, Error> {
    let text = match src.text.strip_prefix(BOM) {
        Some(rest) if syntax.bom => std::borrow::Cow::Owned(format!("   {rest}")),
        _ => std::borrow::Cow::Borrowed(src.text.as_str()),
    };
    let strict = match parse(&text) {
        Ok(value) => return Ok(value),
        Err(e) => e,
    };
    if !syntax.comments && !syntax.trailing_commas && !syntax.missing_commas {
        let comment = at_comment(src, &strict);
        let mut error = json_error(src, strict);
        if let (true, Error::Invalid(diags)) = (comment, &mut error) {
            diags[0].help = Some(
                "comments are not JSON, and the agent reads this file as strict JSON: it drops \
                 the whole file; remove the comment"
                    .to_string(),
            );
        }
        return Err(error);
    }
    let error = match blank_comments(&text, syntax) {
        Ok(Some(blanked)) => match parse(&blanked) {
            Ok(value) => return Ok(value),
            Err(e) => json_error(src, e),
        },
        Err(e) if at_comment(src, &strict) => jsonc_error(src, &e),
        _ => json_error(src, strict),
    };
    // What the offsets-keeping reading above cannot take, the agent's own parser may still
    // read (a comma left out with no space to write it into, a tab in a string, `0x10`):
    // read it so too, or the agent and hookx disagree on what the file says. (Copilot also
    // takes more than one byte order mark, or one after a space, off the start.)
    let start = text.trim_start_matches(|c: char| c == BOM || c.is_whitespace());
    match syntax.reader {
        Some(options) => jsonc_parser::parse_to_serde_value::<Value>(start, &options())
            .ok()
            .and_then(|value| parse(&value.to_string()).ok())
            .ok_or(error),
        None => Err(error),
    }
}

/// `text` (a JSON value, or a part of one that is a whole value) read as JSON with comments,
/// trailing commas and missing commas: `None` when it is not JSON even so.
pub fn loose_value(text: &str) -> Option<Value> {
    value_as(text, JsonSyntax::JSONC)
}

/// `text` read as JSON with what `syntax` allows beyond it: `None` when it is not JSON even so.
pub fn value_as(text: &str, syntax: JsonSyntax) -> Option<Value> {
    match blank_comments(text, syntax) {
        Ok(Some(blanked)) => serde_json::from_str(&blanked).ok(),
        Ok(None) => serde_json::from_str(text).ok(),
        Err(_) => None,
    }
}

/// The UTF-8 byte order mark.
const BOM: char = '\u{feff}';

/// `text` read with what `syntax` allows beyond JSON, as JSON of the same length, so byte
/// offsets are unchanged: each comment, and each comma before a closing `]` or `}`, replaced
/// by spaces (line breaks kept), and a missing comma between two items written into the
/// whitespace between them. `None` when nothing was changed; an error when the text is not
/// JSON even so.
fn blank_comments(
    text: &str,
    syntax: JsonSyntax,
) -> Result<Option<String>, jsonc_parser::errors::ParseError> {
    use jsonc_parser::tokens::Token;
    let options = jsonc_parser::ParseOptions {
        allow_comments: true,
        allow_trailing_commas: syntax.trailing_commas,
        allow_missing_commas: syntax.missing_commas,
        ..STRICT_JSONC
    };
    let collect = jsonc_parser::CollectOptions {
        comments: jsonc_parser::CommentCollectionStrategy::AsTokens,
        tokens: true,
    };
    let parsed = jsonc_parser::parse_to_ast(text, &collect, &options)?;
    let mut bytes = text.as_bytes().to_vec();
    let mut blanked = false;
    let tokens = parsed.tokens.unwrap_or_default();
    let is_comment = |t: &Token| matches!(t, Token::CommentLine(_) | Token::CommentBlock(_));
    let ends = |t: &Token| {
        !matches!(
            t,
            Token::OpenBrace | Token::OpenBracket | Token::Comma | Token::Colon
        )
    };
    let starts = |t: &Token| {
        !matches!(
            t,
            Token::CloseBrace | Token::CloseBracket | Token::Comma | Token::Colon
        )
    };
    for (i, token) in tokens.iter().enumerate() {
        let next = tokens[i + 1..].iter().find(|t| !is_comment(&t.token));
        let trailing =
            next.is_some_and(|t| matches!(t.token, Token::CloseBrace | Token::CloseBracket));
        if is_comment(&token.token) || (token.token == Token::Comma && trailing) {
            for b in &mut bytes[token.range.start..token.range.end] {
                if !matches!(*b, b'\n' | b'\r') {
                    *b = b' ';
                }
            }
            blanked = true;
        }
        // Two items side by side (the parse above took them as items, so no colon is
        // missing): the comma goes into a byte of whitespace between them, if there is one.
        if let Some(next) = next.filter(|n| {
            syntax.missing_commas
                && !is_comment(&token.token)
                && ends(&token.token)
                && starts(&n.token)
        }) && let Some(gap) = (token.range.end..next.range.start)
            .find(|&i| bytes[i] == b' ' || bytes[i] == b'\t' || bytes[i] == b'\n')
        {
            bytes[gap] = b',';
            blanked = true;
        }
    }
    // Every byte of a comment (or comma) was replaced, so its characters went whole.
    Ok(blanked.then(|| String::from_utf8(bytes).expect("comments blanked whole")))
}

/// JSON with nothing allowed beyond it.
const STRICT_JSONC: jsonc_parser::ParseOptions = jsonc_parser::ParseOptions {
    allow_comments: false,
    allow_loose_object_property_names: false,
    allow_trailing_commas: false,
    allow_missing_commas: false,
    allow_single_quoted_strings: false,
    allow_hexadecimal_numbers: false,
    allow_unary_plus_numbers: false,
    allow_bare_decimal_point_numbers: false,
    allow_non_finite_numbers: false,
    allow_extended_string_escapes: false,
};

/// Whether serde_json's error sits at the start of a comment (`//` or `/*`).
fn at_comment(src: &SourceFile, e: &serde_json::Error) -> bool {
    src.text
        .split('\n')
        .nth(e.line().saturating_sub(1))
        .and_then(|line| line.get(e.column().saturating_sub(1)..))
        .is_some_and(|rest| rest.starts_with("//") || rest.starts_with("/*"))
}

/// A syntax error of the relaxed parse, at its place in the text.
fn jsonc_error(src: &SourceFile, e: &jsonc_parser::errors::ParseError) -> Error {
    let message = format!("invalid JSON: {}", e.kind());
    Error::Invalid(vec![Diagnostic::at_offset(
        Severity::Error,
        src,
        e.range().start,
        message,
    )])
}

/// Whether `text` is a JSON object once `//` and `/* */` comments are taken out (what agents
/// that strip comments before `JSON.parse` accept; nothing else is tolerated), and holds one:
/// a file whose only fault is another (a raw tab in a string, which this reader takes) has no
/// comments to blame (attacks row 483).
pub fn is_object_with_comments(text: &str) -> bool {
    let object = |allow_comments| {
        let options = jsonc_parser::ParseOptions {
            allow_comments,
            ..STRICT_JSONC
        };
        matches!(
            jsonc_parser::parse_to_value(text, &options),
            Ok(Some(jsonc_parser::JsonValue::Object(_)))
        )
    };
    object(true) && !object(false)
}

/// Like [`parse_json`], but builds only part of the value: a top-level key is kept when
/// `keep_top(key)` and the keys of the top-level `hooks` object when `keep_hook(key)`; what is
/// left out is still parsed (so exactly the texts [`parse_json`] refuses are refused, with the
/// same error), but nothing of it is allocated. Duplicate keys keep the last value, as
/// [`parse_json`] does.
pub fn parse_json_pruned(
    src: &SourceFile,
    syntax: JsonSyntax,
    keep_top: &dyn Fn(&str) -> bool,
    keep_hook: &dyn Fn(&str) -> bool,
) -> Result<Value, Error> {
    use serde::de::DeserializeSeed;
    with_syntax(src, syntax, |text| {
        let mut de = serde_json::Deserializer::from_str(text);
        pruned::Pruned {
            keep: keep_top,
            hooks: Some(keep_hook),
        }
        .deserialize(&mut de)
        .and_then(|value| de.end().map(|()| value))
    })
}

/// The value built by [`parse_json_pruned`]: the visitor mirrors `serde_json::Value`'s own, so
/// that what is kept is exactly what [`parse_json`] would have built.
mod pruned {
    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess};
    use serde_json::{Map, Value};
    use std::fmt;

    /// The key under which serde_json's `arbitrary_precision` hands a number to a visitor (as
    /// a one-entry map holding its text). serde_json does not export it; `Value`'s own visitor
    /// matches the same string.
    const NUMBER_TOKEN: &str = "$serde_json::private::Number";

    /// An object's keys filtered by `keep`; `hooks`, when given, filters the keys of the
    /// object under the key `hooks` (one level down only).
    pub(super) struct Pruned<'f> {
        pub keep: &'f dyn Fn(&str) -> bool,
        pub hooks: Option<&'f dyn Fn(&str) -> bool>,
    }

    impl<'de> DeserializeSeed<'de> for Pruned<'_> {
        type Value = Value;

        fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<Value, D::Error> {
            de.deserialize_any(self)
        }
    }

    impl<'de> de::Visitor<'de> for Pruned<'_> {
        type Value = Value;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any valid JSON value")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
            let mut out = Map::new();
            let mut first = true;
            while let Some(key) = map.next_key::<String>()? {
                if std::mem::take(&mut first) && key == NUMBER_TOKEN {
                    // A number kept as written (`arbitrary_precision`), as `Value` reads it.
                    let text: String = map.next_value()?;
                    return text.parse().map(Value::Number).map_err(de::Error::custom);
                }
                if let (Some(hooks), "hooks") = (self.hooks, key.as_str()) {
                    let value = map.next_value_seed(Pruned {
                        keep: hooks,
                        hooks: None,
                    })?;
                    out.insert(key, value);
                } else if (self.keep)(&key) {
                    out.insert(key, map.next_value()?);
                } else {
                    map.next_value_seed(Discard)?;
                }
            }
            Ok(Value::Object(out))
        }

        // Anything but an object is kept whole, as `serde_json::Value` builds it.
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
            let mut out = Vec::new();
            while let Some(v) = seq.next_element()? {
                out.push(v);
            }
            Ok(Value::Array(out))
        }

        fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
            Ok(Value::Bool(v))
        }

        fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
            Ok(Value::from(v))
        }

        fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
            Ok(Value::from(v))
        }

        fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
            Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
        }

        fn visit_str<E>(self, v: &str) -> Result<Value, E> {
            Ok(Value::String(v.to_string()))
        }

        fn visit_string<E>(self, v: String) -> Result<Value, E> {
            Ok(Value::String(v))
        }

        fn visit_unit<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }

        fn visit_none<E>(self) -> Result<Value, E> {
            Ok(Value::Null)
        }
    }

    /// A value parsed as fully as `serde_json::Value` parses it (numbers in range, escapes
    /// and surrogates valid), then dropped: unlike `IgnoredAny`, which only skips tokens and
    /// would accept some texts `Value` refuses.
    struct Discard;

    impl<'de> DeserializeSeed<'de> for Discard {
        type Value = ();

        fn deserialize<D: Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
            de.deserialize_any(Discard)
        }
    }

    impl<'de> de::Visitor<'de> for Discard {
        type Value = ();

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any valid JSON value")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while map.next_key_seed(Discard)?.is_some() {
                map.next_value_seed(Discard)?;
            }
            Ok(())
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            while seq.next_element_seed(Discard)?.is_some() {}
            Ok(())
        }

        fn visit_bool<E>(self, _: bool) -> Result<(), E> {
            Ok(())
        }

        fn visit_i64<E>(self, _: i64) -> Result<(), E> {
            Ok(())
        }

        fn visit_u64<E>(self, _: u64) -> Result<(), E> {
            Ok(())
        }

        fn visit_f64<E>(self, _: f64) -> Result<(), E> {
            Ok(())
        }

        fn visit_str<E>(self, _: &str) -> Result<(), E> {
            Ok(())
        }

        fn visit_unit<E>(self) -> Result<(), E> {
            Ok(())
        }

        fn visit_none<E>(self) -> Result<(), E> {
            Ok(())
        }
    }
}

fn json_error(src: &SourceFile, e: serde_json::Error) -> Error {
    let message = match e.classify() {
        serde_json::error::Category::Eof if src.text.trim().is_empty() => {
            "the file is empty; expected a JSON object".to_string()
        }
        _ => format!("invalid JSON: {}", strip_position(&e.to_string())),
    };
    let mut diag = Diagnostic::at_line_col(
        Severity::Error,
        src,
        e.line(),
        char_column(src, &e),
        message,
    );
    if e.to_string().contains("trailing comma") {
        diag = diag.with_help("JSON does not allow a comma after the last item; remove it");
    } else if src.text.starts_with(BOM) && (e.line(), e.column()) <= (1, 1) {
        // Only a syntax that does not take a BOM off stops there.
        diag = diag.with_help(
            "the file starts with a byte order mark (U+FEFF), which this agent's files are not \
             known to allow; save it as UTF-8 without a BOM",
        );
    }
    Error::Invalid(vec![diag])
}

/// serde_json counts columns in bytes; diagnostics count characters.
fn char_column(src: &SourceFile, e: &serde_json::Error) -> usize {
    let Some(line) = src.text.split('\n').nth(e.line().saturating_sub(1)) else {
        return e.column();
    };
    let bytes = line.floor_char_boundary(e.column().saturating_sub(1));
    line[..bytes].chars().count() + 1
}

/// serde_json appends " at line L column C", which the diagnostic already shows.
fn strip_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
}

/// The YAML parser's message without its position (`error: line 5 column 16: …`, `… at line 5,
/// column 16`), which counts from the frontmatter and is in the diagnostic already.
fn strip_yaml_position(message: &str) -> &str {
    let message = message.strip_prefix("error: ").unwrap_or(message);
    match message
        .strip_prefix("line ")
        .and_then(|rest| rest.split_once(": "))
    {
        Some((position, rest)) if position.contains(" column ") => rest,
        _ => strip_position(message),
    }
}

/// Splits a markdown file into its YAML frontmatter and body; `None` when it has none.
pub fn split_frontmatter(text: &str) -> Option<Frontmatter> {
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return Some(Frontmatter {
                yaml: rest[..offset].to_string(),
                body: rest[offset + line.len()..].to_string(),
            });
        }
        offset += line.len();
    }
    None
}

/// Parses the YAML frontmatter of a markdown file. Booleans are YAML 1.2 strict, so `no` stays
/// a string. Positions in errors are relative to the whole file.
pub fn parse_frontmatter(src: &SourceFile) -> Result<(Value, Frontmatter), Error> {
    let Some(front) = split_frontmatter(&src.text) else {
        return Err(Error::Invalid(vec![Diagnostic::at_line_col(
            Severity::Error,
            src,
            1,
            1,
            "expected YAML frontmatter between `---` lines at the top of the file",
        )]));
    };
    let options = serde_saphyr::options! { strict_booleans: true };
    match serde_saphyr::from_str_with_options::<Value>(&front.yaml, options) {
        Ok(Value::Null) => Ok((Value::Object(Default::default()), front)),
        Ok(value) => Ok((value, front)),
        Err(e) => {
            let message = e.to_string();
            let first = message.lines().next().unwrap_or("syntax error");
            let message = format!("invalid YAML frontmatter: {}", strip_yaml_position(first));
            // The YAML parser's lines also break at a lone `\r`; its byte offset is exact. The
            // frontmatter starts after the opening fence.
            let start = if src.text.starts_with("---\r\n") {
                5
            } else {
                4
            };
            let location = e.location();
            let offset = location.and_then(|l| {
                let span = l.span();
                let byte = span.byte_offset().and_then(|o| usize::try_from(o).ok());
                byte.or_else(|| {
                    let chars = usize::try_from(span.offset()).ok()?;
                    front.yaml.char_indices().nth(chars).map(|(i, _)| i)
                })
            });
            let diag = match (offset, location) {
                (Some(offset), _) => {
                    Diagnostic::at_offset(Severity::Error, src, start + offset, message)
                }
                (None, Some(l)) => Diagnostic::at_line_col(
                    Severity::Error,
                    src,
                    l.line() as usize + 1,
                    l.column() as usize,
                    message,
                ),
                (None, None) => Diagnostic::at_line_col(Severity::Error, src, 2, 1, message),
            };
            Err(Error::Invalid(vec![diag]))
        }
    }
}

/// Byte offset in `src` of the value at `pointer`: in JSON text, in a markdown file's YAML
/// frontmatter, or in TOML. Positions are indexed once per file, however many are asked for.
pub fn locate(src: &SourceFile, pointer: &str) -> Option<usize> {
    match Format::of(&src.path) {
        Format::Frontmatter => src.locate_yaml(pointer),
        Format::Toml => src.locate_toml(pointer),
        Format::Json => src.locate_json(pointer),
    }
}

/// The syntax of a config file, told by its name: `.md` (YAML frontmatter), `.toml`, else JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Json,
    Frontmatter,
    Toml,
}

impl Format {
    /// A top-level setting as a file of this format writes it: `"key": true`, `key = true`.
    pub fn setting(self, key: &str, value: &str) -> String {
        match self {
            Format::Toml => format!("{key} = {value}"),
            Format::Json | Format::Frontmatter => format!("\"{key}\": {value}"),
        }
    }

    pub fn of(path: &str) -> Format {
        if path.ends_with(".md") {
            Format::Frontmatter
        } else if path.ends_with(".toml") {
            Format::Toml
        } else {
            Format::Json
        }
    }
}

/// Parses TOML text as a JSON value (dates become their TOML text, non-finite floats `null`);
/// a syntax error names the file, line and column.
pub fn parse_toml(src: &SourceFile) -> Result<Value, Error> {
    let doc = toml_edit::Document::parse(src.text.as_str()).map_err(|e| {
        let message = e.message().lines().next().unwrap_or("syntax error").trim();
        let message = format!("invalid TOML: {message}");
        let offset = e.span().map_or(0, |span| span.start);
        Error::Invalid(vec![Diagnostic::at_offset(
            Severity::Error,
            src,
            offset,
            message,
        )])
    })?;
    Ok(positions::toml_to_json(doc.as_item()))
}

/// Byte offsets in `src` of the values at `pointers`, as [`locate`] gives them one by one. A
/// JSON text is read once for all of them, descending only into the values on their paths and
/// skipping the rest without building anything: a conversion of a large file reporting a few
/// losses must not index every value of it (that cost more than parsing the file).
pub fn locate_many(src: &SourceFile, pointers: &[&str]) -> Vec<Option<usize>> {
    let scanned = match Format::of(&src.path) {
        Format::Json => positions::scan_json(&src.text, pointers),
        Format::Frontmatter | Format::Toml => None,
    };
    scanned.unwrap_or_else(|| pointers.iter().map(|p| locate(src, p)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::positions::JsonPositions;

    /// Every value of texts with comments, single quotes, escaped keys, duplicated keys and
    /// trailing commas, located in one scan, is where the whole-text index puts it; so are the
    /// pointers that name nothing.
    #[test]
    fn one_scan_locates_json_values_where_the_index_does() {
        let texts = [
            "{\n  \"hooks\": {\n    \"Stop\": [ {\"hooks\": []} ]\n  }\n}",
            "// lead\n{ /* a { [ */ \"a\": [1, 'x}', {\"b\": \"q\\\"]\"}, ],\n \"a~b/c\": {\"d\\u0041\": null},\n \"a\": [true, [2, 3], // ]\n {\"e\": -1.5e3} ], }",
            "{\"k\": {\"x\": 1, \"y\": [ ]}, \"k\": {\"y\": [ \"é\" , 7 ]}, 'l': 'it\\'s'}",
        ];
        let pointers = [
            "",
            "/hooks",
            "/hooks/Stop",
            "/hooks/Stop/0",
            "/hooks/Stop/0/hooks",
            "/hooks/Stop/1",
            "/a",
            "/a/0",
            "/a/1",
            "/a/1/0",
            "/a/2",
            "/a/2/e",
            "/a/3",
            "/a/02",
            "/a~0b~1c",
            "/a~0b~1c/dA",
            "/k",
            "/k/x",
            "/k/y",
            "/k/y/0",
            "/k/y/1",
            "/k/y/1/z",
            "/l",
            "/missing",
            "/hooks/Stop/0/hooks/0",
        ];
        for text in texts {
            let src = SourceFile::new("hooks.json", text);
            let index = JsonPositions::new(text).expect("the text is JSON with comments");
            let expected: Vec<Option<usize>> = pointers.iter().map(|p| index.locate(p)).collect();
            assert!(
                expected.iter().filter(|o| o.is_some()).count() >= 4,
                "{text}"
            );
            assert_eq!(
                positions::scan_json(text, &pointers),
                Some(expected.clone()),
                "{text}"
            );
            assert_eq!(locate_many(&src, &pointers), expected, "{text}");
        }
    }

    #[test]
    fn yaml_errors_point_into_the_file_even_after_lone_carriage_returns() {
        let at = |text: &str| {
            let src = SourceFile::new("a.md", text);
            let Err(Error::Invalid(diags)) = parse_frontmatter(&src) else {
                panic!("{text:?} parsed");
            };
            (diags[0].line, diags[0].col, diags[0].message.clone())
        };
        let (line, col, message) = at("---\nname: x\nhooks:\n  - matcher: \"Bash\n---\n");
        assert_eq!((line, col), (4, 14), "{message}");
        assert_eq!(message, "invalid YAML frontmatter: unclosed quote");
        // The YAML parser counts a lone `\r` as a line break; hookx counts `\n` only.
        // The error is at `b`, on the second line of the file (it once said line 8).
        let (line, col, message) = at("---\nname: a\r\r\r\r\r\rb\nc: d\n---\n");
        assert_eq!((line, col), (2, 14), "{message}");
    }

    /// Numbers are kept as written, whether or not pruning builds the value around them: the
    /// pruned parse hands a top-level number, and numbers one level under `hooks`, through its
    /// own visitor.
    #[test]
    fn pruned_and_full_parses_keep_numbers_as_written() {
        let keep_all = |_: &str| true;
        for text in [
            "18446744073709551616",
            "1e+400",
            r#"{"hooks": 1.10, "big": -123456789012345678901234567890}"#,
            r#"{"hooks": {"Stop": 1e-3, "PreToolUse": [{"timeout": 18446744073709551616}]}}"#,
        ] {
            let src = SourceFile::new("a.json", text);
            let full = parse_json(&src).unwrap();
            let pruned = parse_json_pruned(&src, JsonSyntax::STRICT, &keep_all, &keep_all).unwrap();
            assert_eq!(pruned, full, "{text}");
            let compact: String = text.split_whitespace().collect();
            assert_eq!(serde_json::to_string(&pruned).unwrap(), compact);
        }
    }

    /// With comments allowed, a text parses (whole or pruned, for `hookx run`) to what it holds
    /// without them; strict, it is refused at the comment.
    #[test]
    fn comments_read_as_whitespace_where_allowed() {
        let keep_all = |_: &str| true;
        let comments = JsonSyntax {
            comments: true,
            bom: false,
            strict_files: &[],
            ..crate::tables::JsonSyntax::STRICT
        };
        let text = "/* é */ {\"hooks\": {\"Stop\": [] // x\n, \"Pre\": [1]}, \"k\": \"//not\"}";
        let src = SourceFile::new("a.json", text);
        let expected = serde_json::json!({"hooks": {"Stop": [], "Pre": [1]}, "k": "//not"});
        assert_eq!(parse_json_as(&src, comments).unwrap(), expected);
        let pruned = parse_json_pruned(&src, comments, &keep_all, &|k| k == "Pre").unwrap();
        assert_eq!(
            pruned,
            serde_json::json!({"hooks": {"Pre": [1]}, "k": "//not"})
        );
        let Err(Error::Invalid(diags)) = parse_json(&src) else {
            panic!("strict JSON took a comment");
        };
        assert_eq!((diags[0].line, diags[0].col), (1, 1));
        assert!(
            diags[0]
                .help
                .as_deref()
                .unwrap()
                .contains("comments are not JSON")
        );
    }

    /// Copilot's own settings (`JsonSyntax::JSONC`): comments, trailing commas and a comma
    /// left out between two items read as its loader reads them; strict JSON refuses them.
    #[test]
    fn copilots_settings_read_with_what_its_loader_takes() {
        let text = "\u{feff}{\"model\": \"x\" // mine\n \"disabledHooks\": [\"k1\"\n\"k2\",],\n}\n";
        let src = SourceFile::new("/h/.copilot/settings.json", text);
        let value = parse_json_as(&src, JsonSyntax::JSONC).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"model": "x", "disabledHooks": ["k1", "k2"]})
        );
        assert_eq!(
            loose_value(text.trim_start_matches('\u{feff}')),
            Some(value)
        );
        assert!(parse_json(&src).is_err());
    }

    #[test]
    fn toml_reads_as_json_with_every_table_key_and_value_located() {
        let text = "model = \"o3\"\n\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{ type = \"command\", timeout = 5 }]\n\n[hooks.state.\"/a:stop:0:0\"]\nenabled = false\nwhen = 1979-05-27\n";
        let src = SourceFile::new("config.toml", text);
        let value = parse_toml(&src).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"model": "o3", "hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "timeout": 5}]}],
                "state": {"/a:stop:0:0": {"enabled": false, "when": "1979-05-27"}}}})
        );
        let at = |pointer: &str| src.line_col(locate(&src, pointer).expect(pointer));
        assert_eq!(at("/model"), (1, 9));
        assert_eq!(at("/hooks/PreToolUse/0"), (3, 1));
        assert_eq!(at("/hooks/PreToolUse/0/matcher"), (4, 11));
        assert_eq!(at("/hooks/PreToolUse/0/hooks/0/timeout"), (5, 40));
        assert_eq!(at("/hooks/state/~1a:stop:0:0/enabled"), (8, 11));
        assert_eq!(locate(&src, "/hooks/PreToolUse/1"), None);
    }

    #[test]
    fn toml_syntax_errors_name_line_and_column() {
        let src = SourceFile::new("config.toml", "[hooks]\nStop = [\n");
        let Err(Error::Invalid(diags)) = parse_toml(&src) else {
            panic!("parsed");
        };
        assert_eq!(
            (diags[0].line, diags[0].col),
            (2, 9),
            "{}",
            diags[0].message
        );
        assert!(diags[0].message.starts_with("invalid TOML: "));
        let src = SourceFile::new("config.toml", "a = 1\na = 2\n");
        let Err(Error::Invalid(diags)) = parse_toml(&src) else {
            panic!("a duplicate key parsed");
        };
        assert_eq!(diags[0].line, 2, "{}", diags[0].message);
    }

    #[test]
    fn frontmatter_splits_at_closing_fence() {
        let front = split_frontmatter("---\nname: x\n---\n# Body\n").unwrap();
        assert_eq!(front.yaml, "name: x\n");
        assert_eq!(front.body, "# Body\n");
        assert!(split_frontmatter("# no frontmatter").is_none());
    }
}
