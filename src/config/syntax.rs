//! Turning config text into a JSON value, with exact positions for syntax errors and for
//! values named by a JSON pointer. JSON and YAML (frontmatter) both end up as `serde_json::Value`.

use crate::diag::{Diagnostic, Severity};
use crate::error::Error;
use crate::model::Frontmatter;
use crate::source::SourceFile;
use serde_json::Value;

/// Parses JSON text; a syntax error names the file, line and column.
pub fn parse_json(src: &SourceFile) -> Result<Value, Error> {
    serde_json::from_str(&src.text).map_err(|e| {
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
        }
        Error::Invalid(vec![diag])
    })
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

/// serde-saphyr starts its messages with "error: line L column C: ", a position relative to
/// the frontmatter that disagrees with the one the diagnostic shows.
fn strip_yaml_position(message: &str) -> &str {
    let message = message.strip_prefix("error: ").unwrap_or(message);
    match message.split_once(": ") {
        Some((position, rest))
            if position.starts_with("line ") && position.contains(" column ") =>
        {
            rest
        }
        _ => message,
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
            // The frontmatter starts on line 2 (after the opening fence).
            let (line, col) = e
                .location()
                .map(|l| (l.line() as usize + 1, l.column() as usize))
                .unwrap_or((2, 1));
            let message = e.to_string();
            let first = strip_yaml_position(message.lines().next().unwrap_or("syntax error"));
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

/// Byte offset in `src` of the value at `pointer`: in JSON text, or (for a markdown file) in
/// its YAML frontmatter. `None` if it cannot be found.
pub fn locate(src: &SourceFile, pointer: &str) -> Option<usize> {
    if !src.path.ends_with(".md") {
        return locate_json(&src.text, pointer);
    }
    // Only the frontmatter is searched, so the body cannot answer for a missing key; offsets
    // are shifted past the opening fence.
    let front = split_frontmatter(&src.text)?;
    let start = src.text.find('\n')? + 1;
    locate_yaml(&src.text[start..start + front.yaml.len()], pointer).map(|o| o + start)
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
        // The indentation of this list's items: deeper items belong to nested lists.
        let mut item_indent = None;
        let mut found = false;
        while i < lines.len() {
            let (start, line) = lines[i];
            let indent = line.len() - line.trim_start().len();
            let trimmed = line.trim_start();
            i += 1;
            if trimmed.is_empty() || trimmed.starts_with('#') || indent < min_indent {
                continue;
            }
            let key = trimmed.trim_start_matches("- ");
            let hit = match index {
                Some(n) if trimmed.starts_with("- ") || trimmed == "-\n" || trimmed == "-" => {
                    let level = *item_indent.get_or_insert(indent);
                    if indent < level {
                        return None;
                    }
                    seen += usize::from(indent == level);
                    indent == level && seen == n + 1
                }
                _ => {
                    key.starts_with(&format!("{token}:"))
                        || key.starts_with(&format!("\"{token}\":"))
                }
            };
            if hit {
                // A key on an item's line (`- matcher: x`) starts after the dash.
                let dash = if index.is_none() {
                    trimmed.len() - key.len()
                } else {
                    0
                };
                offset = start + indent + dash;
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
    fn locates_yaml_items_of_the_right_list_and_keys_after_dashes() {
        let text = "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n        - type: command\n    - matcher: Edit\n";
        let at = |p| crate::source::line_col(text, locate_yaml(text, p).unwrap());
        assert_eq!(at("/hooks/PreToolUse/1"), (7, 5));
        assert_eq!(at("/hooks/PreToolUse/1/matcher"), (7, 7));
        assert_eq!(at("/hooks/PreToolUse/0/hooks/1"), (6, 9));
        assert!(locate_yaml(text, "/hooks/PreToolUse/2").is_none());
    }

    #[test]
    fn locates_yaml_keys() {
        let text = "name: x\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n";
        let offset = locate_yaml(text, "/hooks/PreToolUse/0/hooks/0").unwrap();
        assert_eq!(crate::source::line_col(text, offset).0, 6);
    }
}
