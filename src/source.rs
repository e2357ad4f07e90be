//! A config file in memory: read with its limits, its lines and values indexed on first use,
//! and diagnostics made at its positions.

use crate::diag::{Diagnostic, Severity, Snippet};
use crate::error::Error;
use crate::positions::{JsonPositions, TomlPositions, YamlPositions, line_col};
use std::path::Path;
use std::sync::OnceLock;

/// Files larger than this are refused: no hook config is anywhere near it.
pub use crate::read::MAX_FILE_BYTES;

/// A config file's path and text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as the user gave it, for messages.
    pub path: String,
    /// The text; positions are indexed on first use, so it must not change after that.
    pub text: String,
    /// Where lines start, built on the first position asked for: a file with thousands of
    /// diagnostics must not be rescanned for each.
    lines: OnceLock<LineIndex>,
    /// Where each JSON value starts, built on the first pointer located.
    json: OnceLock<Option<JsonPositions>>,
    /// Where each YAML key and item starts (frontmatter), built on the first pointer located.
    yaml: OnceLock<YamlPositions>,
    /// Where each TOML key, table and value starts, built on the first pointer located.
    toml: OnceLock<Option<TomlPositions>>,
    /// The file it was read from ([`SourceFile::read`]), and whether diagnostics may quote
    /// its lines ([`quotable`]), decided on the first quote: a run that quotes nothing makes
    /// no system call for it.
    read_from: Option<std::path::PathBuf>,
    quotable: OnceLock<bool>,
}

impl SourceFile {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            path: path.into(),
            text: text.into(),
            lines: OnceLock::new(),
            json: OnceLock::new(),
            yaml: OnceLock::new(),
            toml: OnceLock::new(),
            read_from: None,
            quotable: OnceLock::new(),
        }
    }

    /// Byte offset of the JSON value at `pointer` ([`crate::positions::locate_json`]),
    /// parsing the text once however many pointers are located.
    pub fn locate_json(&self, pointer: &str) -> Option<usize> {
        self.json
            .get_or_init(|| JsonPositions::new(&self.text))
            .as_ref()?
            .locate(pointer)
    }

    /// Byte offset of the YAML key or item at `pointer` ([`crate::positions::locate_yaml`]),
    /// reading the text once however many pointers are located.
    pub fn locate_yaml(&self, pointer: &str) -> Option<usize> {
        self.yaml
            .get_or_init(|| YamlPositions::new(&self.text))
            .locate(pointer)
    }

    /// Byte offset of the TOML table, key or value at `pointer`, parsing the text once however
    /// many pointers are located.
    pub fn locate_toml(&self, pointer: &str) -> Option<usize> {
        self.toml
            .get_or_init(|| TomlPositions::new(&self.text))
            .as_ref()?
            .locate(pointer)
    }

    /// The text of 1-based `line`, without its line ending; `None` past the last line.
    pub fn line_text(&self, line: usize) -> Option<&str> {
        self.index().line_text(&self.text, line)
    }

    /// The text of 1-based `line` for a diagnostic to quote, where the file may be quoted.
    fn quoted(&self, line: usize) -> Option<&str> {
        let quotable = self
            .quotable
            .get_or_init(|| self.read_from.as_deref().is_none_or(quotable));
        self.line_text(line).filter(|_| *quotable)
    }

    /// Byte offset where 1-based `line` starts.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        self.index().starts.get(line.checked_sub(1)?).copied()
    }

    fn index(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }

    /// Reads a file ([`crate::read::bytes`]), refusing directories, FIFOs and other special
    /// files, huge files and non-UTF-8 text with an error that names the file (and, for bad
    /// bytes, the position).
    pub fn read(path: &Path) -> Result<SourceFile, Error> {
        let shown = path.display().to_string();
        let bytes = crate::read::bytes(path, MAX_FILE_BYTES).map_err(|e| Error::Io {
            path: shown.clone(),
            message: match e.kind() {
                std::io::ErrorKind::IsADirectory => "is a directory, not a config file".into(),
                _ => e.to_string(),
            },
        })?;
        match String::from_utf8(bytes) {
            Ok(text) => Ok(SourceFile {
                read_from: Some(path.to_path_buf()),
                ..SourceFile::new(shown, text)
            }),
            Err(e) => {
                let offset = e.utf8_error().valid_up_to();
                let valid = std::str::from_utf8(&e.as_bytes()[..offset]).unwrap_or_default();
                let (line, col) = line_col(valid, offset);
                Err(Error::Io {
                    path: format!("{shown}:{line}:{col}"),
                    message: "is not valid UTF-8".into(),
                })
            }
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.index().line_col(&self.text, offset)
    }
}

/// Whether diagnostics may quote the lines of the file at `path`: it is inside the working
/// folder, or reached through no symbolic link. Not a file a repository's link leads to
/// (`.claude/settings.json` → `/proc/self/environ` or `~/.netrc`, `.github/hooks` → a folder
/// of credentials), whose lines an error or warning would print, in a CI log too.
fn quotable(path: &Path) -> bool {
    let Ok(real) = std::fs::canonicalize(path) else {
        return true;
    };
    let here = std::env::current_dir().and_then(std::fs::canonicalize);
    if here.is_ok_and(|here| real.starts_with(here)) {
        return true;
    }
    let Ok(absolute) = std::path::absolute(path) else {
        return true;
    };
    let mut lexical = std::path::PathBuf::new();
    for part in absolute.components() {
        match part {
            std::path::Component::ParentDir => {
                lexical.pop();
            }
            std::path::Component::CurDir => {}
            other => lexical.push(other),
        }
    }
    lexical == real
}

/// Diagnostics at a place in a file, made here beside the line index they read rather than in
/// [`crate::diag`]: diag, and [`Error`] which carries diagnostics, then need not know files, and
/// the base floor has no circle.
impl Diagnostic {
    /// A diagnostic at a byte offset of `src`.
    pub fn at_offset(
        severity: Severity,
        src: &SourceFile,
        offset: usize,
        message: impl Into<String>,
    ) -> Diagnostic {
        let (line, col) = src.line_col(offset);
        let offset = src.text.floor_char_boundary(offset.min(src.text.len()));
        let snippet = src.quoted(line).map(|text| {
            let start = src.line_start(line).unwrap_or(0);
            Snippet::new(text, offset.saturating_sub(start).min(text.len()))
        });
        Diagnostic {
            severity,
            file: src.path.clone(),
            line,
            col,
            pointer: None,
            message: message.into(),
            help: None,
            snippet,
        }
    }

    /// A diagnostic at 1-based `line`:`col` of `src`.
    pub fn at_line_col(
        severity: Severity,
        src: &SourceFile,
        line: usize,
        col: usize,
        message: impl Into<String>,
    ) -> Diagnostic {
        let (line, col) = (line.max(1), col.max(1));
        Diagnostic {
            severity,
            file: src.path.clone(),
            line,
            col,
            pointer: None,
            message: message.into(),
            help: None,
            snippet: src.quoted(line).map(|text| {
                let at = text
                    .char_indices()
                    .nth(col - 1)
                    .map_or(text.len(), |(i, _)| i);
                Snippet::new(text, at)
            }),
        }
    }
}

/// Line starts and character counts of a text, so that the line and column of an offset cost
/// a binary search and at most [`CHUNK`] bytes of counting, not a scan from the top.
#[derive(Clone, Debug)]
struct LineIndex {
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
    /// For each `k`, the byte offset `k * CHUNK` floored to a character boundary, and how many
    /// characters come before it (columns in long, minified lines).
    chars: Vec<(usize, usize)>,
}

const CHUNK: usize = 4096;

impl LineIndex {
    fn new(text: &str) -> LineIndex {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let mut chars = Vec::with_capacity(text.len() / CHUNK + 1);
        let (mut at, mut count) = (0, 0);
        for k in 0..=text.len() / CHUNK {
            let next = text.floor_char_boundary(k * CHUNK);
            count += text[at..next].chars().count();
            at = next;
            chars.push((at, count));
        }
        LineIndex { starts, chars }
    }

    /// Characters in `text[..offset]`; `offset` is on a character boundary.
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        let (at, count) = self.chars[offset / CHUNK];
        count + text[at..offset].chars().count()
    }

    fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = text.floor_char_boundary(offset.min(text.len()));
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        let col = self.chars_before(text, offset) - self.chars_before(text, start);
        (line, col + 1)
    }

    /// As `text.lines().nth(line - 1)`.
    fn line_text<'t>(&self, text: &'t str, line: usize) -> Option<&'t str> {
        let start = *self.starts.get(line.checked_sub(1)?)?;
        if start == text.len() {
            return None;
        }
        Some(match self.starts.get(line) {
            Some(&next) => {
                let line = &text[start..next - 1];
                line.strip_suffix('\r').unwrap_or(line)
            }
            None => &text[start..],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::positions::line_cols;

    #[test]
    fn one_scan_gives_the_line_index_answers() {
        let text = "{\n  \"é\": \"ü\",\r\n\n  \"b\": [1,\n2]\n}\n";
        let src = SourceFile::new("f.json", text);
        let offsets: Vec<usize> = (0..=text.len() + 2).rev().collect();
        let expected: Vec<(usize, usize)> = offsets.iter().map(|&o| src.line_col(o)).collect();
        assert_eq!(line_cols(text, &offsets), expected);
        assert!(expected.contains(&(4, 4)) && expected.contains(&(2, 5)));
    }

    #[test]
    fn indexed_positions_agree_with_a_scan() {
        let long = "é".repeat(3 * CHUNK);
        let texts = [
            String::new(),
            "a\n".into(),
            "a\r\nbé\n\nc".into(),
            format!("{{\n{long}x\n{long}\r\n"),
            "\n\n".into(),
        ];
        for text in texts {
            let src = SourceFile::new("t", text.as_str());
            for offset in 0..=text.len() + 1 {
                assert_eq!(src.line_col(offset), line_col(&text, offset), "{offset}");
            }
            for line in 1..=text.lines().count() + 2 {
                assert_eq!(src.line_text(line), text.lines().nth(line - 1), "{line}");
            }
        }
    }
}
