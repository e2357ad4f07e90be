//! What makes an agent's own loader refuse its whole hook file where hookx reads on with a
//! warning ([`crate::tables::StrictLoad`], table data: Codex 0.171.0). `validate` makes each an
//! error that says so; `doctor` and `simulate` say the file's hooks run under none of that agent.

use super::syntax::{self, Format};
use crate::diag::{Diagnostic, Severity};
use crate::positions::escape;
use crate::source::SourceFile;
use crate::tables::{Dialect, Document};

/// A warning for each top-level key the file's kind does not hold besides its hooks.
pub fn unknown_top_keys(src: &SourceFile, doc: &Document) -> Vec<Diagnostic> {
    let Some(known) = doc.kind.top_keys else {
        return Vec::new();
    };
    doc.extra
        .keys()
        .filter(|k| !known.contains(&k.as_str()))
        .map(|key| {
            let pointer = format!("/{}", escape(key));
            let message = format!(
                "unknown top-level key `{key}` in a {} file; it is kept as written",
                doc.dialect
            );
            let mut diag = match syntax::locate(src, &pointer) {
                Some(o) => Diagnostic::at_offset(Severity::Warning, src, o, message),
                None => Diagnostic::at_line_col(Severity::Warning, src, 1, 1, message),
            };
            diag.pointer = Some(pointer);
            diag
        })
        .collect()
}

/// What the agent does with a file of `src`'s format it refuses, when it is strict about it.
fn seen(src: &SourceFile, dialect: Dialect) -> Option<&'static str> {
    let strict = dialect.config().strict_load?;
    match Format::of(&src.path) {
        Format::Json => Some(strict.seen),
        Format::Toml => strict.toml_seen,
        Format::Frontmatter => None,
    }
}

/// Makes an error, saying what the agent does, of each warning in `diags` (of `src`, a file of
/// `dialect`) for which the agent refuses the whole file.
pub fn apply(src: &SourceFile, dialect: Dialect, diags: &mut [Diagnostic]) {
    let (Some(strict), Some(seen)) = (dialect.config().strict_load, seen(src, dialect)) else {
        return;
    };
    for d in diags.iter_mut().filter(|d| d.severity == Severity::Warning) {
        let refused = (strict.needs_type && d.message.starts_with("handler has no `type`"))
            || (strict.whole_seconds && d.message.contains("` is fractional;"))
            || (strict.known_top_keys && d.message.starts_with("unknown top-level key"));
        if refused {
            d.severity = Severity::Error;
            d.message = format!("{}; {seen}", d.message);
        }
    }
}

/// The first form in `src` (read as `doc`, with the reader's `diagnostics`) for which its
/// agent refuses the whole file, as `validate` says it.
pub fn refused_whole(
    src: &SourceFile,
    doc: &Document,
    diagnostics: &[Diagnostic],
) -> Option<Diagnostic> {
    let seen = seen(src, doc.dialect)?;
    let mut all: Vec<Diagnostic> = diagnostics.to_vec();
    all.extend(unknown_top_keys(src, doc));
    apply(src, doc.dialect, &mut all);
    all.into_iter()
        .find(|d| d.severity == Severity::Error && d.message.ends_with(seen))
}

/// [`refused_whole`] of `src` read whole as a file of `dialect` (none when it does not parse:
/// that is said as it is).
pub fn refused_whole_text(src: &SourceFile, dialect: Dialect) -> Option<Diagnostic> {
    let parsed = super::read::read(src, dialect).ok()?;
    refused_whole(src, &parsed.document, &parsed.diagnostics)
}
