//! The one error type of the library, with the exit code each kind maps to.

use crate::diag::Diagnostic;

#[derive(Debug)]
pub enum Error {
    /// A file could not be read or written; `path` may carry `:line:col`.
    Io { path: String, message: String },
    /// A file could be read but not understood; each diagnostic names its position.
    Invalid(Vec<Diagnostic>),
    /// The command line asked for something impossible or ambiguous.
    Usage(String),
}

impl Error {
    /// 2 for usage errors, 1 for everything else.
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) => 2,
            _ => 1,
        }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // A path, and a usage error naming one, are shown as text: a newline or escape in
            // a folder's name forges no line (attacks row 1531).
            Error::Io { path, message } => {
                write!(f, "error: {}: {message}", crate::diag::visible(path))
            }
            Error::Invalid(diags) => {
                for (i, d) in diags.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{d}")?;
                }
                Ok(())
            }
            Error::Usage(message) => write!(f, "error: {}", crate::diag::visible(message)),
        }
    }
}

impl std::error::Error for Error {}
