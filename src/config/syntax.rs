//! Turning config text into a JSON value, with exact positions for syntax errors and for
//! values named by a JSON pointer. JSON and YAML (frontmatter) both end up as `serde_json::Value`.

use crate::diag::{Diagnostic, Severity};
use crate::error::Error;
use crate::model::Frontmatter;
use crate::source::SourceFile;
use serde_json::Value;

/// Parses JSON text; a syntax error names the file, line and column.
pub fn parse_json(src: &SourceFile) -> Result<Value, Error> {
    serde_json::from_str(&src.text).map_err(|e| json_error(src, e))
}

/// Like [`parse_json`], but builds only part of the value: a top-level key is kept when
/// `keep_top(key)` and the keys of the top-level `hooks` object when `keep_hook(key)`; what is
/// left out is still parsed (so exactly the texts [`parse_json`] refuses are refused, with the
/// same error), but nothing of it is allocated. Duplicate keys keep the last value, as
/// [`parse_json`] does.
pub fn parse_json_pruned(
    src: &SourceFile,
    keep_top: &dyn Fn(&str) -> bool,
    keep_hook: &dyn Fn(&str) -> bool,
) -> Result<Value, Error> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_str(&src.text);
    let value = pruned::Pruned {
        keep: keep_top,
        hooks: Some(keep_hook),
    }
    .deserialize(&mut de)
    .and_then(|value| de.end().map(|()| value))
    .map_err(|e| json_error(src, e))?;
    Ok(value)
}

/// The value built by [`parse_json_pruned`]: the visitor mirrors `serde_json::Value`'s own, so
/// that what is kept is exactly what [`parse_json`] would have built.
mod pruned {
    use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess};
    use serde_json::{Map, Value};
    use std::fmt;

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
            while let Some(key) = map.next_key::<String>()? {
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
    let mut diag = Diagnostic::at_line_col(Severity::Error, src, e.line(), e.column(), message);
    if e.to_string().contains("trailing comma") {
        diag = diag.with_help("JSON does not allow a comma after the last item; remove it");
    }
    Error::Invalid(vec![diag])
}

/// serde_json appends " at line L column C", which the diagnostic already shows.
fn strip_position(message: &str) -> &str {
    message.split(" at line ").next().unwrap_or(message)
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
            // The frontmatter starts on line 2 (after the opening fence).
            let (line, col) = e
                .location()
                .map(|l| (l.line() as usize + 1, l.column() as usize))
                .unwrap_or((2, 1));
            let message = e.to_string();
            let first = message.lines().next().unwrap_or("syntax error");
            Err(Error::Invalid(vec![Diagnostic::at_line_col(
                Severity::Error,
                src,
                line,
                col.max(1),
                format!("invalid YAML frontmatter: {first}"),
            )]))
        }
    }
}

/// Byte offset of the value at `pointer` in JSON text, for diagnostics; `None` if it cannot be
/// found (the text is not JSON, or the pointer is stale).
pub fn locate_json(text: &str, pointer: &str) -> Option<usize> {
    let ast = jsonc_parser::parse_to_ast(
        text,
        &Default::default(),
        &jsonc_parser::ParseOptions::default(),
    )
    .ok()?
    .value?;
    let mut node = &ast;
    for token in pointer.split('/').skip(1) {
        let token = token.replace("~1", "/").replace("~0", "~");
        node = match node {
            jsonc_parser::ast::Value::Object(obj) => {
                &obj.properties
                    .iter()
                    .find(|p| p.name.as_str() == token)?
                    .value
            }
            jsonc_parser::ast::Value::Array(arr) => {
                arr.elements.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(jsonc_parser::common::Ranged::start(node))
}

/// Best-effort line of the value at `pointer` in YAML text: follows the pointer's keys and
/// list items down the indentation. Returns a byte offset into `text`.
pub fn locate_yaml(text: &str, pointer: &str) -> Option<usize> {
    let mut offset = 0;
    let mut min_indent = 0;
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0, |pos, line| {
            let start = *pos;
            *pos += line.len();
            Some((start, line))
        })
        .collect();
    let mut i = 0;
    for token in pointer.split('/').skip(1) {
        let index = token.parse::<usize>().ok();
        let mut seen = 0;
        let mut found = false;
        while i < lines.len() {
            let (start, line) = lines[i];
            let indent = line.len() - line.trim_start().len();
            let trimmed = line.trim_start();
            i += 1;
            if trimmed.is_empty() || trimmed.starts_with('#') || indent < min_indent {
                continue;
            }
            let hit = match index {
                Some(n) if trimmed.starts_with("- ") || trimmed == "-\n" || trimmed == "-" => {
                    seen += 1;
                    seen == n + 1
                }
                _ => {
                    let key = trimmed.trim_start_matches("- ");
                    key.starts_with(&format!("{token}:"))
                        || key.starts_with(&format!("\"{token}\":"))
                }
            };
            if hit {
                offset = start + indent;
                min_indent = indent;
                found = true;
                if index.is_some() {
                    // The item's own keys sit on this line after "- "; rescan it.
                    i -= 1;
                    min_indent = indent;
                }
                break;
            }
        }
        if !found {
            return None;
        }
    }
    Some(offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_json_values_by_pointer() {
        let text = "{\n  \"hooks\": {\n    \"Stop\": [ {\"hooks\": []} ]\n  }\n}";
        let offset = locate_json(text, "/hooks/Stop/0").unwrap();
        assert_eq!(crate::source::line_col(text, offset), (3, 15));
    }

    #[test]
    fn frontmatter_splits_at_closing_fence() {
        let front = split_frontmatter("---\nname: x\n---\n# Body\n").unwrap();
        assert_eq!(front.yaml, "name: x\n");
        assert_eq!(front.body, "# Body\n");
        assert!(split_frontmatter("# no frontmatter").is_none());
    }

    #[test]
    fn locates_yaml_keys() {
        let text = "name: x\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n";
        let offset = locate_yaml(text, "/hooks/PreToolUse/0/hooks/0").unwrap();
        assert_eq!(crate::source::line_col(text, offset).0, 6);
    }
}
