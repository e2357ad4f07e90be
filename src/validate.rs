//! Semantic checks beyond what reading a file finds: matchers, handler types per event,
//! suspicious values.

use crate::diag::Diagnostic;
use crate::model::Document;
use crate::source::SourceFile;

/// Diagnostics for a document that was read without syntax errors.
pub fn check(src: &SourceFile, doc: &Document) -> Vec<Diagnostic> {
    let _ = (src, doc);
    Vec::new()
}
