//! A hook config file as discovery found it ([`Source`]): where, as what, and what it holds.

use super::policy_file::OthersCouldWrite;
use crate::cache::FileId;
use crate::diag::{Diagnostic, Severity};
use crate::error::Error;
use crate::route::is_hookx_handler;
use crate::tables::{Dialect, Document, Location, Scope};
use crate::trust::{self, Identity, TrustState};
use std::path::{Path, PathBuf};

/// One hook config file found on disk.
#[derive(Debug)]
pub struct Source {
    /// Absolute path as found (not resolved through symlinks).
    pub path: PathBuf,
    /// How people read the path: relative to the project, or `~/…`.
    pub display: String,
    pub location: &'static Location,
    pub dialect: Dialect,
    pub scope: Scope,
    /// The path resolved through symlinks; with the location, the identity trust records are
    /// keyed by ([`crate::trust::Identity`]). `None` when it could not be resolved.
    pub canonical: Option<PathBuf>,
    /// SHA-256 (hex) of exactly the bytes that were parsed (or, for a file withheld, hashed);
    /// `None` when the file was not read. Trust compares this, so what is checked is what runs.
    pub sha256: Option<String>,
    /// [`crate::trust::Record::without_agent_keys`] of those bytes: off the run path for every
    /// file of a dialect with such keys, on it only where the bytes are not the trusted ones.
    pub without_agent_keys: Option<String>,
    /// The file's device, inode, size, mtime and ctime when it was found (run path only).
    pub file_id: Option<FileId>,
    /// On the run path, a file hookx would run itself but that is not trusted as found: its
    /// standing. Such a file is never parsed (`document` says so), at most read and hashed.
    pub withheld: Option<TrustState>,
    /// For a plugin's hook file, whether its agent loads the plugin, by every settings file and
    /// by the trusted ones; one that is off is no hook source ([`Runner::Off`]). The run path
    /// finds the plugins the trusted settings load, and no others.
    ///
    /// [`Runner::Off`]: super::Runner::Off
    pub plugin: Option<crate::plugins::Standings>,
    /// For a plugin its agent gives a data folder ([`crate::tables::PluginData`]): that folder.
    pub plugin_data: Option<PathBuf>,
    /// For a policy file its agent skips because someone other than root could have written
    /// it ([`crate::tables::ManagedSpec::root_owned_only`]): why. hookx does not read it
    /// either (`document` says so), so none of its hooks runs anywhere.
    pub refused_policy: Option<OthersCouldWrite>,
    /// The parsed file, or why it could not be read or parsed.
    pub document: Result<Document, Error>,
    /// Warnings and errors noticed inside a file that did parse.
    pub diagnostics: Vec<Diagnostic>,
    /// Each host that reads this file itself but drops it whole for an entry it refuses
    /// ([`super::dropped`]), with that entry.
    pub dropped: Vec<Dropped>,
    /// For a host's switch file hookx could not parse: every key it may hold
    /// ([`super::hook_switch::keys_in_unparsed`]).
    pub unparsed_keys: Vec<String>,
    /// A project file with no trust of its own, trusted as the same file in another worktree
    /// of its repository, and whether it follows that trust.
    pub twin: Option<Twin>,
}

/// A project file with no record of its own, and the same file trusted in another worktree of
/// its repository (`super::worktree`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Twin {
    /// The trusted file's real path, in the other worktree.
    pub path: PathBuf,
    /// Why it is not followed, when it is not: a file its commands name differs there.
    pub differs: Option<String>,
}

impl Source {
    /// The entry for which `host` drops this whole file, if it does.
    pub fn dropped_by(&self, host: crate::tables::Dialect) -> Option<&Dropped> {
        self.dropped.iter().find(|d| d.host == host)
    }

    /// False for a plugin its agent does not load, as the agent's settings files say.
    pub fn is_loaded_by_its_agent(&self) -> bool {
        self.plugin
            .is_none_or(|p| p.agent == crate::plugins::Standing::Loaded)
    }

    /// The document, when the file parsed.
    pub fn document(&self) -> Option<&Document> {
        self.document.as_ref().ok()
    }

    /// What the file is trusted as: its real path and where it was found.
    pub fn identity(&self) -> Option<Identity<'_>> {
        Some(Identity {
            canonical: self.canonical.as_deref()?,
            location: self.location,
        })
    }

    /// Why the file could not be used, in one line.
    pub fn error_line(&self) -> Option<String> {
        match &self.document {
            Ok(_) => None,
            Err(Error::Invalid(diags)) => diags
                .iter()
                .find(|d| d.severity == Severity::Error)
                .or(diags.first())
                .map(|d| format!("{}:{}: {}", d.line, d.col, d.message)),
            Err(Error::Io { message, .. }) => Some(message.clone()),
            Err(e) => Some(e.to_string()),
        }
    }

    /// Whether the file is no JSON object at all: it does not parse, or its top is something
    /// else. Claude Code 2.1.332 does not start with such a policy file, while one whose entries
    /// are wrong (`"hooks": "x"`) only loses them (run, `tests/live_claude_managed.rs`).
    pub fn is_not_an_object(&self) -> bool {
        matches!(self.document, Err(Error::Invalid(_)))
            || self
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error && d.pointer.as_deref() == Some(""))
    }

    /// For a plugin, the directory `CLAUDE_PLUGIN_ROOT` names: the parent of `hooks/`, or of
    /// the file its location names below the plugin's folder (Qwen's `qwen-extension.json`).
    pub fn plugin_root(&self) -> Option<&Path> {
        if self.scope != Scope::Plugin {
            return None;
        }
        match self.location.pattern {
            crate::tables::Pattern::Sub { .. } => self.location.pattern.sub_folder(&self.path),
            _ => self.path.parent()?.parent(),
        }
    }

    /// How many of its handlers are hookx's own routing entries (`hookx install`).
    pub fn hookx_entries(&self) -> usize {
        self.document().map_or(0, |doc| {
            doc.rules
                .iter()
                .flat_map(|r| &r.handlers)
                .filter(|h| is_hookx_handler(h))
                .count()
        })
    }

    /// Entries that call hookx's route and run more, or another program in its form
    /// ([`crate::route::is_plain_route`]): hookx never runs them, the agent runs them as
    /// written.
    pub fn dressed_routes(&self) -> usize {
        self.document().map_or(0, |doc| {
            doc.rules
                .iter()
                .flat_map(|r| &r.handlers)
                .filter(|h| is_hookx_handler(h) && !crate::route::is_plain_route(h))
                .count()
        })
    }

    /// Handlers that are not hookx's routing entries.
    pub fn handler_count(&self) -> usize {
        self.document().map_or(0, |doc| {
            doc.rules.iter().map(|r| r.handlers.len()).sum::<usize>()
        }) - self.hookx_entries()
    }
}

/// The store judges a source on what discovery found it as and the bytes it hashed.
impl trust::Subject for Source {
    fn identity(&self) -> Option<Identity<'_>> {
        Source::identity(self)
    }

    fn sha256(&self) -> Option<&str> {
        self.sha256.as_deref()
    }

    fn without_agent_keys(&self) -> Option<&str> {
        self.without_agent_keys.as_deref()
    }

    fn followed(&self) -> Option<&Path> {
        let twin = self.twin.as_ref().filter(|t| t.differs.is_none())?;
        Some(&twin.path)
    }
}

/// The first entry for which `host` drops the whole file, and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Dropped {
    pub host: crate::tables::Dialect,
    pub line: usize,
    pub col: usize,
    /// The entry, as a sentence part (`` `"matcher": ""` on PostToolUse ``).
    pub what: String,
    /// What to change in the file.
    pub fix: String,
}

impl Dropped {
    /// The fix, located: `at LINE:COL: FIX`.
    pub fn fix_at(&self) -> String {
        format!("at {}:{}: {}", self.line, self.col, self.fix)
    }

    /// One sentence: who drops which file, for what, where.
    pub fn why(&self, file: &str) -> String {
        format!(
            "{} drops the whole of {file} for {} at {}:{}, so it runs none of its hooks",
            self.host.def().display,
            self.what,
            self.line,
            self.col
        )
    }
}
