//! Diagnostics: a message tied to a file position, rendered as `file:line:col: severity: …`.
//! They are made at a position by [`crate::source`], which knows the file's lines.

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
    /// The source line around the column, for the snippet under the message.
    #[serde(skip)]
    pub snippet: Option<Snippet>,
}

/// At most [`SNIPPET_WIDTH`] characters of a source line around a column (`…` where cut), cut
/// when the diagnostic is made: a minified file is one line of megabytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Snippet {
    pub text: String,
    /// 1-based column of the caret in `text`.
    pub col: usize,
}

impl Snippet {
    /// The window of `line` around byte `at` (a character boundary, at most `line.len()`), in
    /// time proportional to the window, not the line.
    pub(crate) fn new(line: &str, at: usize) -> Snippet {
        let fits = line.len() <= SNIPPET_WIDTH || line.char_indices().nth(SNIPPET_WIDTH).is_none();
        if fits {
            return Snippet {
                text: line.to_string(),
                col: line[..at].chars().count() + 1,
            };
        }
        // Start half a window before the caret, or a window before the end of the line.
        // The offset of the `n`th character before `from` (n ≥ 1), or 0.
        let back = |from: usize, n: usize| {
            line[..from]
                .char_indices()
                .rev()
                .nth(n - 1)
                .map_or(0, |(i, _)| i)
        };
        let mut start = back(at, SNIPPET_WIDTH / 2 - 1);
        let end = match line[start..].char_indices().nth(SNIPPET_WIDTH) {
            Some((i, _)) => start + i,
            None => {
                start = back(line.len(), SNIPPET_WIDTH);
                line.len()
            }
        };
        let prefix = if start > 0 { "…" } else { "" };
        Snippet {
            text: format!("{prefix}{}…", &line[start..end]),
            col: line[start..at.max(start)].chars().count() + 1 + prefix.chars().count(),
        }
    }
}

impl Diagnostic {
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
        // The file's name is a path: a newline or escape in it would forge or rewrite a line
        // of the report (attacks row 1531).
        write!(
            f,
            "{}:{}:{}: {severity}: {}",
            visible(&self.file),
            self.line,
            self.col,
            self.message
        )?;
        if let Some(Snippet { text: snippet, col }) = &self.snippet {
            let col = *col;
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

const SNIPPET_WIDTH: usize = 100;

/// Colours the severity words of hookx's own messages (`error:`, `warning:`, `loss:`,
/// `note:`, `help:`) where a line starts with one or a `file:line:col: ` prefix precedes it.
/// The escapes are stripped on the way out unless stderr/stdout is a terminal and `NO_COLOR`
/// is unset (`anstream`, behind the `cli` output macros).
pub fn style(text: &str) -> String {
    use anstyle::{AnsiColor, Style};
    let words: [(&str, Style); 5] = [
        ("error:", AnsiColor::Red.on_default().bold()),
        ("warning:", AnsiColor::Yellow.on_default().bold()),
        ("loss:", AnsiColor::Yellow.on_default().bold()),
        ("note:", AnsiColor::Cyan.on_default().bold()),
        ("= help:", AnsiColor::Cyan.on_default().bold()),
    ];
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        let found = words.iter().find_map(|(word, style)| {
            let at = line.find(word)?;
            let before = &line[..at];
            (before.trim().is_empty() || before.ends_with(": ")).then_some((at, *word, *style))
        });
        match found {
            Some((at, word, style)) => {
                out.push_str(&line[..at]);
                out.push_str(&format!("{style}{word}{style:#}"));
                out.push_str(&line[at + word.len()..]);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// A `note: …` line, styled.
pub fn style_note(message: &str) -> String {
    style(&format!("note: {message}"))
}

/// The candidate closest to `word` (case-insensitive Jaro-Winkler above 0.85), for a
/// "did you mean" hint.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = word.to_lowercase();
    // Ties on the case-insensitive score go to the closer spelling (`preToolUs` →
    // `preToolUse`, not `PreToolUse`), then to the first candidate.
    candidates
        .into_iter()
        .map(|name| {
            let score = strsim::jaro_winkler(&lower, &name.to_lowercase());
            (score, strsim::jaro_winkler(word, name), name)
        })
        .filter(|(score, _, _)| *score > 0.85)
        .fold(None, |best: Option<(f64, f64, &str)>, c| match best {
            Some(b) if (b.0, b.1) >= (c.0, c.1) => Some(b),
            _ => Some(c),
        })
        .map(|(_, _, name)| name)
}

/// What a JSON value is, for a message: `found a string`.
pub fn json_type(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `text` as a terminal shows it, for text read from a file or a path that hookx prints (a
/// command, a matcher, a file name): each control character (an escape, a carriage return, a
/// newline, …) and each bidirectional override written as an escape (`\u{1b}`), so that what
/// is shown cannot move the cursor, erase or recolour a line, or reorder what follows. A file
/// could otherwise make `hookx trust`'s review show `echo safe` for `curl … | sh`.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    let hidden = |c: char| {
        c.is_control()
            || matches!(
                c,
                '\u{061c}'
                    | '\u{200e}'
                    | '\u{200f}'
                    | '\u{202a}'..='\u{202e}'
                    | '\u{2066}'..='\u{2069}'
            )
    };
    if !text.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if hidden(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// [`visible`] line by line: a report's own line breaks kept, every other control character
/// and bidirectional override in it written out.
pub fn visible_lines(text: &str) -> std::borrow::Cow<'_, str> {
    if !text
        .split('\n')
        .any(|l| matches!(visible(l), std::borrow::Cow::Owned(_)))
    {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(text.split('\n').map(visible).collect::<Vec<_>>().join("\n"))
}
