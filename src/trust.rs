//! Which hook files the user has reviewed, by content hash.
//!
//! `hookx run` never executes a file the host would not have run by itself unless the user has
//! trusted exactly its current content: a cloned repository cannot make hookx run its hooks
//! under another agent, and a trusted file that changes must be reviewed again.
//!
//! The record lives in `<home>/.hookx/trust.json`, where `<home>` is the home the [`Context`]
//! resolved (`--home`, else `$HOOKX_HOME`, else `$HOME`): the user's state, never the project's,
//! so that a repository cannot ship its own trust. Keys are canonical paths (symlinks resolved),
//! values the SHA-256 of the content trusted and when.

use crate::dialect::Dialect;
use crate::discover::{self, Context, Runner, Source};
use crate::error::Error;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A source's standing in the trust record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TrustState {
    /// Trusted with exactly its current content.
    Trusted,
    /// Never trusted (or unreadable, or the record cannot be read: hookx fails closed).
    Untrusted,
    /// Trusted once, but its content has changed since.
    Changed,
}

impl TrustState {
    pub fn name(self) -> &'static str {
        match self {
            TrustState::Trusted => "trusted",
            TrustState::Untrusted => "untrusted",
            TrustState::Changed => "changed",
        }
    }
}

/// One trusted file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub sha256: String,
    /// RFC 3339, UTC.
    pub trusted_at: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct StoreFile {
    version: u32,
    #[serde(default)]
    files: BTreeMap<String, Record>,
}

const STORE_VERSION: u32 = 1;

/// The trust record, loaded once and queried per source.
#[derive(Clone, Debug, Default)]
pub struct TrustStore {
    path: PathBuf,
    files: BTreeMap<String, Record>,
}

impl TrustStore {
    /// Where the record of `ctx`'s home lives.
    pub fn path_for(ctx: &Context) -> PathBuf {
        ctx.home.join(".hookx").join("trust.json")
    }

    /// Loads the record; a missing file is an empty record, a corrupt one an error (so that
    /// `hookx trust` never overwrites what it cannot read).
    pub fn load(ctx: &Context) -> Result<TrustStore, Error> {
        let path = Self::path_for(ctx);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(TrustStore {
                    path,
                    files: BTreeMap::new(),
                });
            }
            Err(e) => {
                return Err(Error::Io {
                    path: path.display().to_string(),
                    message: e.to_string(),
                });
            }
        };
        let file: StoreFile = serde_json::from_str(&text).map_err(|e| Error::Io {
            path: path.display().to_string(),
            message: format!("is not a hookx trust record ({e}); move it away to start afresh"),
        })?;
        if file.version != STORE_VERSION {
            return Err(Error::Io {
                path: path.display().to_string(),
                message: format!(
                    "has version {}; this hookx reads version {STORE_VERSION}",
                    file.version
                ),
            });
        }
        Ok(TrustStore {
            path,
            files: file.files,
        })
    }

    /// Like [`TrustStore::load`], but an unreadable record trusts nothing (for `run`/`list`,
    /// which must not fail open).
    pub fn load_or_empty(ctx: &Context) -> TrustStore {
        Self::load(ctx).unwrap_or_else(|_| TrustStore {
            path: Self::path_for(ctx),
            files: BTreeMap::new(),
        })
    }

    /// Where this record is stored.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The record of a file, by canonical path.
    pub fn get(&self, canonical: &Path) -> Option<&Record> {
        self.files.get(&key(canonical))
    }

    /// The standing of a file with the given content hash.
    pub fn state_of(&self, canonical: &Path, sha256: &str) -> TrustState {
        match self.get(canonical) {
            None => TrustState::Untrusted,
            Some(r) if r.sha256 == sha256 => TrustState::Trusted,
            Some(_) => TrustState::Changed,
        }
    }

    /// The standing of a discovered source, judged on the bytes discovery parsed.
    pub fn state(&self, source: &Source) -> TrustState {
        let (Some(sha), Some(canonical)) = (&source.sha256, &source.canonical) else {
            return TrustState::Untrusted;
        };
        self.state_of(canonical, sha)
    }

    /// Records a file as trusted with this content. Returns whether anything changed.
    pub fn trust(&mut self, canonical: &Path, sha256: &str) -> bool {
        if self.state_of(canonical, sha256) == TrustState::Trusted {
            return false;
        }
        let trusted_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        self.files.insert(
            key(canonical),
            Record {
                sha256: sha256.to_string(),
                trusted_at,
            },
        );
        true
    }

    /// Writes the record atomically, creating `~/.hookx` if needed.
    pub fn save(&self) -> Result<(), Error> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| Error::Io {
                path: dir.display().to_string(),
                message: e.to_string(),
            })?;
        }
        let file = StoreFile {
            version: STORE_VERSION,
            files: self.files.clone(),
        };
        let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
        text.push('\n');
        crate::config::write::write_atomic(&self.path, &text)
    }
}

fn key(canonical: &Path) -> String {
    canonical.to_string_lossy().into_owned()
}

/// The standing of `source` in the trust record of `ctx`'s home (an unreadable record trusts
/// nothing). Host-independent: see [`needs_trust`] for whether it matters.
pub fn is_trusted(ctx: &Context, source: &Source) -> TrustState {
    TrustStore::load_or_empty(ctx).state(source)
}

/// Whether hookx must see `source` trusted before running it under `host`: only sources hookx
/// runs itself need trust; what the host runs natively was the host's call.
pub fn needs_trust(host: Dialect, source: &Source) -> bool {
    discover::runner(host, source) == Runner::Hookx
}

/// `hookx trust`: what to trust.
#[derive(Clone, Debug)]
pub struct Options {
    pub ctx: Context,
    /// Files to trust; empty means every discovered source that parses.
    pub files: Vec<PathBuf>,
}

/// One line of `hookx trust`'s report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trusted {
    pub shown: String,
    pub sha256: String,
    /// False when it was already trusted with this content.
    pub new: bool,
}

/// Trusts the given files (or every discovered source that parses) and saves the record.
/// Returns what it trusted and what it skipped (with why).
pub fn trust(opts: &Options) -> Result<(Vec<Trusted>, Vec<String>), Error> {
    let mut store = TrustStore::load(&opts.ctx)?;
    let mut done = Vec::new();
    let mut skipped = Vec::new();
    if opts.files.is_empty() {
        for source in discover::discover(&opts.ctx) {
            match (&source.sha256, &source.document, &source.canonical) {
                (Some(sha), Ok(_), Some(canonical)) => {
                    let new = store.trust(canonical, sha);
                    done.push(Trusted {
                        shown: source.display.clone(),
                        sha256: sha.clone(),
                        new,
                    });
                }
                _ => skipped.push(format!(
                    "{}: not trusted: {}",
                    source.display,
                    source
                        .error_line()
                        .unwrap_or_else(|| "cannot be read".into())
                )),
            }
        }
    } else {
        for file in &opts.files {
            let io = |e: std::io::Error| Error::Io {
                path: file.display().to_string(),
                message: e.to_string(),
            };
            let canonical = std::fs::canonicalize(file).map_err(io)?;
            if !canonical.is_file() {
                return Err(Error::Usage(format!(
                    "{}: can only trust files",
                    file.display()
                )));
            }
            let bytes = std::fs::read(&canonical).map_err(io)?;
            let sha = discover::sha256_hex(&bytes);
            let new = store.trust(&canonical, &sha);
            done.push(Trusted {
                shown: opts.ctx.display(&canonical),
                sha256: sha,
                new,
            });
        }
    }
    if done.iter().any(|t| t.new) {
        store.save()?;
    }
    Ok((done, skipped))
}

/// `hookx trust`, printing what it trusted.
pub fn command(opts: &Options) -> Result<i32, Error> {
    let (done, skipped) = trust(opts)?;
    for t in &done {
        let short = &t.sha256[..t.sha256.len().min(12)];
        if t.new {
            println!("trusted {} (sha256 {short})", t.shown);
        } else {
            println!("already trusted {} (sha256 {short})", t.shown);
        }
    }
    for s in &skipped {
        eprintln!("{s}");
    }
    if done.is_empty() && skipped.is_empty() {
        println!("no hook files found to trust");
    }
    Ok(if skipped.is_empty() { 0 } else { 1 })
}
