//! Diagnostics: a message tied to a file position, rendered as `file:line:col: severity: …`.

use crate::source::SourceFile;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Warning,
    Error,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    /// 1-based; 0 when the position is unknown.
    pub line: usize,
    pub col: usize,
    /// JSON pointer of the offending value, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The source line, for the snippet under the message.
    #[serde(skip)]
    pub snippet: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at a byte offset of `src`.
    pub fn at_offset(
        severity: Severity,
        src: &SourceFile,
        offset: usize,
        message: impl Into<String>,
    ) -> Diagnostic {
        let (line, col) = src.line_col(offset);
        Diagnostic {
            severity,
            file: src.path.clone(),
            line,
            col,
            pointer: None,
            message: message.into(),
            help: None,
            snippet: src.text.lines().nth(line - 1).map(str::to_string),
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
            snippet: line
                .checked_sub(1)
                .and_then(|l| src.text.lines().nth(l))
                .map(str::to_string),
        }
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {severity}: {}",
            self.file, self.line, self.col, self.message
        )?;
        if let Some(full) = &self.snippet {
            // Long lines (minified JSON) are cut to a window around the column.
            let (snippet, col) = window(full, self.col);
            let gutter = self.line.to_string();
            let pad = " ".repeat(gutter.len());
            let caret_pad: String = snippet
                .chars()
                .take(col.saturating_sub(1))
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            write!(f, "\n{pad} |\n{gutter} | {snippet}\n{pad} | {caret_pad}^")?;
        }
        if let Some(help) = &self.help {
            write!(
                f,
                "\n{} = help: {help}",
                " ".repeat(self.line.to_string().len())
            )?;
        }
        Ok(())
    }
}

/// At most [`SNIPPET_WIDTH`] characters of `line` around 1-based `col`, and the column within
/// that window.
fn window(line: &str, col: usize) -> (String, usize) {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= SNIPPET_WIDTH {
        return (line.to_string(), col);
    }
    let start = col
        .saturating_sub(SNIPPET_WIDTH / 2)
        .min(chars.len() - SNIPPET_WIDTH);
    let text: String = chars[start..start + SNIPPET_WIDTH].iter().collect();
    let prefix = if start > 0 { "…" } else { "" };
    (
        format!("{prefix}{text}…"),
        col - start + prefix.chars().count(),
    )
}

const SNIPPET_WIDTH: usize = 100;
