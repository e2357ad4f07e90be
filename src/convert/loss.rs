//! The loss report: one item for everything a conversion could not carry over exactly.

use serde::Serialize;

/// One thing the target cannot express, and where it was written.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Loss {
    /// What was lost (or approximated), e.g. "`async: true` on a PreToolUse handler".
    pub what: String,
    /// Why the target cannot express it, and what hookx did instead.
    pub why: String,
    pub file: String,
    pub pointer: String,
    /// 1-based; 0 when unknown.
    pub line: usize,
    pub col: usize,
}

impl std::fmt::Display for Loss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}:{} ({}): {}\n    {}",
            self.file, self.line, self.col, self.pointer, self.what, self.why
        )
    }
}

/// Renders the report for people: one item per loss, then a count.
pub fn render_text(losses: &[Loss], notes: &[String]) -> String {
    let mut out = String::new();
    for loss in losses {
        out.push_str(&format!("loss: {loss}\n"));
    }
    for note in notes {
        out.push_str(&format!("note: {note}\n"));
    }
    out.push_str(&match losses.len() {
        0 => "no losses: the target expresses every rule exactly\n".to_string(),
        1 => "1 loss\n".to_string(),
        n => format!("{n} losses\n"),
    });
    out
}
