//! Reading config files and finding positions in them.

use crate::error::Error;
use std::path::Path;

/// Files larger than this are refused: no hook config is anywhere near it.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// A config file's path and text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as the user gave it, for messages.
    pub path: String,
    pub text: String,
}

impl SourceFile {
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            path: path.into(),
            text: text.into(),
        }
    }

    /// Reads a file, refusing directories, huge files and non-UTF-8 text with an error that
    /// names the file (and, for bad bytes, the position).
    pub fn read(path: &Path) -> Result<SourceFile, Error> {
        let shown = path.display().to_string();
        let io = |e: std::io::Error| Error::Io {
            path: shown.clone(),
            message: e.to_string(),
        };
        let meta = std::fs::metadata(path).map_err(io)?;
        if meta.is_dir() {
            return Err(Error::Io {
                path: shown,
                message: "is a directory, not a config file".into(),
            });
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(Error::Io {
                path: shown,
                message: format!(
                    "is {} bytes; hookx reads config files up to {MAX_FILE_BYTES} bytes",
                    meta.len()
                ),
            });
        }
        let bytes = std::fs::read(path).map_err(io)?;
        match String::from_utf8(bytes) {
            Ok(text) => Ok(SourceFile::new(shown, text)),
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
        line_col(&self.text, offset)
    }
}

/// 1-based line and column (in characters) of a byte offset into `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..text.floor_char_boundary(offset)];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}
