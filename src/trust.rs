//! The trust store: which hook files the user has reviewed, each by its identity and content.
//!
//! `hookx run` never executes a file the host would not have run by itself unless the user has
//! trusted exactly its current content, found where it was trusted: a cloned repository cannot
//! make hookx run its hooks under another agent, a trusted file that changes must be reviewed
//! again, and a trusted file reached another way (a project symlink to it, read as another
//! agent's file) is not trusted that way.
//!
//! A file's identity is its real path (symlinks resolved), the [`Location`] it was found at and
//! so the dialect it is read in. Before a file is trusted, `hookx run` reads its bytes only to
//! hash them: nothing in it is parsed or evaluated ([`crate::discover`]); a file trusted with
//! other bytes is parsed, not evaluated, to hash what hookx reads of it without the keys its
//! agent writes itself ([`Record::without_agent_keys`]). This is the record alone; `hookx
//! trust` is [`crate::commands::trust`].
//!
//! The record lives in `<home>/.hookx/trust.json`, where `<home>` is the home the [`Context`]
//! resolved (`--home`, else `$HOME`; `$HOOKX_HOME` before `$HOME` for the commands a user
//! types, never for `run`): the user's state, never the project's, so that a repository cannot
//! ship its own trust; `run` refuses a record the project or another account could have
//! written ([`Refused`]). Version 2 lists one entry per identity.
//! Version 1 records (real path and hash only, written before identities) are read, kept and
//! never honoured: such a file shows as [`TrustState::Legacy`] and `hookx trust` records it
//! again with its identity. Guessing the location an old entry meant would re-open the hole
//! identities close.

use crate::context::{self, Context};
use crate::error::Error;
use crate::ownership::{OthersCouldWrite, Owners};
use crate::tables::Location;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A source's standing in the trust record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TrustState {
    /// Trusted with exactly its current content, as found.
    Trusted,
    /// Never trusted as found (or unreadable, or the record cannot be read: hookx fails closed).
    Untrusted,
    /// Trusted once, but its content has changed since.
    Changed,
    /// Trusted by a hookx that did not record identities (a version 1 record): not honoured.
    Legacy,
}

impl TrustState {
    pub fn name(self) -> &'static str {
        match self {
            TrustState::Trusted => "trusted",
            TrustState::Untrusted => "untrusted",
            TrustState::Changed => "changed",
            TrustState::Legacy => "legacy",
        }
    }

    /// Why a file in this state is not run, for warnings.
    pub fn why_not(self) -> &'static str {
        match self {
            TrustState::Trusted => "trusted",
            TrustState::Untrusted => "not trusted",
            TrustState::Changed => "changed since it was trusted",
            TrustState::Legacy => {
                "trusted by an older hookx that did not record where it was found"
            }
        }
    }
}

/// What a file was trusted as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity<'a> {
    /// The real path (symlinks resolved).
    pub canonical: &'a Path,
    pub location: &'static Location,
}

/// What the store judges a file by: what it was found as, and the hash of the bytes read of
/// it. A discovered source ([`crate::discover::Source`]) is one; the store asks nothing more of
/// it, and so does not depend on discovery.
pub trait Subject {
    /// What it is trusted as; `None` when its real path could not be resolved.
    fn identity(&self) -> Option<Identity<'_>>;
    /// SHA-256 (hex) of the bytes read; `None` when it was not read.
    fn sha256(&self) -> Option<&str>;
    /// [`Record::without_agent_keys`] of the bytes read, where it was worked out.
    fn without_agent_keys(&self) -> Option<&str> {
        None
    }
    /// The real path of the same file in another worktree of its repository, whose trust it
    /// follows when it has none of its own (`crate::discover`'s worktree check, which found
    /// the bytes and every file they name the same there).
    fn followed(&self) -> Option<&Path> {
        None
    }
}

impl<T: Subject + ?Sized> Subject for &T {
    fn identity(&self) -> Option<Identity<'_>> {
        (**self).identity()
    }

    fn sha256(&self) -> Option<&str> {
        (**self).sha256()
    }

    fn without_agent_keys(&self) -> Option<&str> {
        (**self).without_agent_keys()
    }

    fn followed(&self) -> Option<&Path> {
        (**self).followed()
    }
}

/// One trusted identity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The real path.
    pub path: String,
    /// The [`Location`] id it was found at.
    pub location: String,
    /// The dialect it is read in (its name).
    pub dialect: String,
    pub sha256: String,
    /// SHA-256 of what hookx reads of the trusted content, the keys the agent writes itself
    /// left out ([`crate::config::read::sha256_without_agent_keys`]): content whose bytes
    /// differ but whose this is the same (the agent recorded a permission in the file) is
    /// still trusted. Absent in older records and for dialects without such keys: then only
    /// the bytes count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub without_agent_keys: Option<String>,
    /// RFC 3339, UTC.
    pub trusted_at: String,
    /// The content hookx's own edit of the file is putting in place of the trusted content
    /// ([`trust_landing`]): trusted beside it from before the edit's rename until the record
    /// is saved again after it ([`trust_landed`]), so that no `hookx run` in between finds
    /// the file changed since trusted and skips it (attacks row 2085).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub landing: Option<Landing>,
}

/// The content of a [`Record::landing`]: its bytes' hash, and what hookx reads of it where
/// the record keeps that ([`Record::without_agent_keys`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Landing {
    pub sha256: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub without_agent_keys: Option<String>,
}

impl Record {
    /// Whether it trusts `bytes` as the content of its file: the same bytes, or the same read
    /// of them ([`Record::without_agent_keys`]), its own or its landing edit's.
    pub fn trusts(&self, bytes: &[u8]) -> bool {
        self.trusts_hash(&crate::hash::sha256_hex(bytes))
            || self.keeps_reads()
                && context::location(&self.location)
                    .and_then(|l| without_agent_keys(Path::new(&self.path), bytes)(l.dialect))
                    .is_some_and(|got| self.trusts_read(&got))
    }

    /// Whether it trusts the bytes hashed `sha256`: the trusted ones, or its landing edit's.
    pub fn trusts_hash(&self, sha256: &str) -> bool {
        self.sha256 == sha256 || self.landing.as_ref().is_some_and(|l| l.sha256 == sha256)
    }

    /// Whether it keeps what hookx reads of the content it trusts (for its content or its
    /// landing edit's), so that other bytes read the same way are trusted too.
    pub fn keeps_reads(&self) -> bool {
        self.without_agent_keys.is_some()
            || self
                .landing
                .as_ref()
                .is_some_and(|l| l.without_agent_keys.is_some())
    }

    /// Whether `read`, the hash of what hookx reads of some content (the agent's own keys
    /// left out), is that of the content it trusts or of its landing edit's.
    pub fn trusts_read(&self, read: &str) -> bool {
        self.without_agent_keys.as_deref() == Some(read)
            || self
                .landing
                .as_ref()
                .is_some_and(|l| l.without_agent_keys.as_deref() == Some(read))
    }
}

/// A version 1 entry: a real path and a hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegacyRecord {
    pub sha256: String,
    pub trusted_at: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct StoreFile {
    version: u32,
    #[serde(default)]
    trusted: Vec<Record>,
    /// Version 2: version 1 entries not trusted again since. Version 1: its entries.
    #[serde(default, alias = "files", skip_serializing_if = "BTreeMap::is_empty")]
    legacy: BTreeMap<String, LegacyRecord>,
}

const STORE_VERSION: u32 = 2;

/// A record as [`TrustStore::save`] reads it back from disk and writes it again: with what a
/// newer hookx wrote into it that this one does not read, kept as it is for that hookx (an
/// older build dropped `without_agent_keys` so when it trusted another file, and the newer one
/// then skipped the user's guard as changed: attacks row 1342). A record this hookx sets is
/// written without: what was kept described the content it trusted before. `run` reads
/// [`Record`] alone.
#[derive(Debug, Serialize, Deserialize)]
struct KeptRecord {
    #[serde(flatten)]
    record: Record,
    #[serde(flatten)]
    newer: BTreeMap<String, serde_json::Value>,
}

/// The record on disk as [`TrustStore::save`] merges into it and writes it.
#[derive(Debug, Serialize, Deserialize)]
struct SavedFile {
    version: u32,
    #[serde(default)]
    trusted: Vec<KeptRecord>,
    #[serde(default, alias = "files", skip_serializing_if = "BTreeMap::is_empty")]
    legacy: BTreeMap<String, LegacyRecord>,
}

/// The record's text as `run` reads it: the place of each record, by its path as written,
/// found by a scan for the `"path"` key that opens it; a record is parsed only when its path
/// is looked up. Every record stays in the file (a guard on a volume not mounted at the moment
/// must not come back untrusted); one of a file that is gone costs the scan only.
///
/// Only the form hookx writes is indexed ([`Index::of`]): version 2 first, the list of
/// records last (version 1 entries come after it where there are any), every `"path"` key
/// the first of its object, no `\` anywhere (no escape another writer might write
/// otherwise). Anything else is parsed whole, as before, and so is a text that does not end
/// as a whole record ends: a record cut short fails closed ([`Refused::Unreadable`]) as it
/// did. A record spoiled in its middle reads as no record for that file only (untrusted),
/// where a whole parse refused the whole record.
#[derive(Clone, Debug)]
struct Index {
    text: String,
    entries: Vec<Entry>,
}

/// One record's place in [`Index::text`].
#[derive(Clone, Debug)]
struct Entry {
    /// Its path as written (JSON-escaped, without the quotes).
    path: std::ops::Range<usize>,
    /// Where its object starts.
    object: usize,
    /// The record, once looked up (`None`: it does not read as one).
    record: std::cell::OnceCell<Option<Box<Record>>>,
}

impl Index {
    /// Indexes `text`, or gives it back where it is not in the form indexed.
    fn of(text: String) -> Result<Index, String> {
        match Self::entries(&text) {
            Some(entries) => Ok(Index { text, entries }),
            None => Err(text),
        }
    }

    fn entries(text: &str) -> Option<Vec<Entry>> {
        let bytes = text.as_bytes();
        let head = text.trim_start().strip_prefix('{')?.trim_start();
        let version = head
            .strip_prefix("\"version\"")?
            .trim_start()
            .strip_prefix(':')?;
        let rest = version
            .trim_start()
            .strip_prefix(&STORE_VERSION.to_string())?;
        // The list of records last, whole (`legacy` comes after it where there is one), and
        // no escape at all: a path whose writing another writer might escape otherwise is
        // rare enough to be parsed whole.
        let tail = text.trim_end().strip_suffix('}')?.trim_end();
        let list = ws(rest).strip_prefix(',').map(ws);
        if !list.is_some_and(|l| l.starts_with("\"trusted\""))
            || !tail.ends_with(']')
            || memchr::memchr(b'\\', bytes).is_some()
        {
            return None;
        }
        let mut entries = Vec::new();
        for key in memchr::memmem::find_iter(bytes, b"\"path\"") {
            // `{`, whitespace, then the key: the first of its object, as hookx writes it.
            let object = ws_back(&bytes[..key])?.checked_sub(1)?;
            if bytes[object] != b'{' {
                return None;
            }
            let value = ws(ws(&text[key + 6..]).strip_prefix(':')?).strip_prefix('"')?;
            let start = text.len() - value.len();
            let end = start + closing_quote(&bytes[start..])?;
            entries.push(Entry {
                path: start..end,
                object,
                record: std::cell::OnceCell::new(),
            });
        }
        Some(entries)
    }

    /// The record at `location` for the real path `canonical` (the last, as a whole parse
    /// keeps the last).
    fn get(&self, location: &str, canonical: &Path) -> Option<&Record> {
        let written = serde_json::to_string(canonical.to_str()?).ok()?;
        let written = written.as_bytes().get(1..written.len() - 1)?;
        self.entries
            .iter()
            .rev()
            .filter(|e| e.path.len() == written.len())
            .filter(|e| &self.text.as_bytes()[e.path.clone()] == written)
            .filter_map(|e| self.record(e))
            .find(|r| r.location == location)
    }

    /// The record of `entry`, parsed the first time it is asked for.
    fn record<'a>(&'a self, entry: &'a Entry) -> Option<&'a Record> {
        entry
            .record
            .get_or_init(|| {
                let mut de = serde_json::Deserializer::from_str(&self.text[entry.object..]);
                Record::deserialize(&mut de)
                    .ok()
                    .filter(|r| context::location(&r.location).is_some())
                    .map(Box::new)
            })
            .as_deref()
    }

    /// The records whose paths as written end with `written`.
    fn ending(&self, written: String) -> impl Iterator<Item = &Record> {
        self.entries
            .iter()
            .filter(move |e| self.text.as_bytes()[e.path.clone()].ends_with(written.as_bytes()))
            .filter_map(|e| self.record(e))
    }

    /// Every record, parsed.
    fn records(&self) -> impl Iterator<Item = &Record> {
        self.entries.iter().filter_map(|e| self.record(e))
    }
}

/// `s` without the JSON whitespace it starts with.
fn ws(s: &str) -> &str {
    s.trim_start_matches([' ', '\n', '\r', '\t'])
}

/// The length of `bytes` without the JSON whitespace it ends with.
fn ws_back(bytes: &[u8]) -> Option<usize> {
    Some(
        bytes
            .iter()
            .rposition(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t'))?
            + 1,
    )
}

/// Where the JSON string whose text starts `bytes` ends: its first quote not escaped.
fn closing_quote(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    loop {
        at += memchr::memchr(b'"', &bytes[at..])?;
        let escapes = bytes[..at]
            .iter()
            .rev()
            .take_while(|&&b| b == b'\\')
            .count();
        if escapes % 2 == 0 {
            return Some(at);
        }
        at += 1;
    }
}

/// The largest file of which the store keeps a copy of the trusted bytes (`<home>/.hookx/
/// trusted/<sha256>`), for `hookx trust` to show a later change to it as a diff. A larger file
/// is trusted all the same, without a copy: its review shows its rules, not a diff.
pub const COPY_LIMIT: usize = 256 * 1024;

/// The trust record, loaded once and queried per source.
#[derive(Clone, Debug, Default)]
pub struct TrustStore {
    path: PathBuf,
    /// Real paths whose records `hookx trust --revoke` removed: [`TrustStore::save`] drops
    /// them from the record on disk too, where its merge would otherwise keep them.
    revoked: Vec<String>,
    /// The records this process set (location id, real path): the only ones
    /// [`TrustStore::save`] writes over the record on disk. Another process's trust, revoke
    /// or carry-over since this one loaded stays (attacks rows 900, 901).
    changed: HashSet<(&'static str, OsString)>,
    /// Per location id (only those with records, found by a short scan), by real path (as
    /// bytes: hashing a `Path` goes component by component): a lookup builds no key, and a
    /// file at a location nothing is trusted at costs no hashing at all.
    trusted: Vec<(&'static str, HashMap<OsString, Record>)>,
    /// For `run`: the record's text, indexed by path and parsed one record at a time as a
    /// file is looked up ([`Index`]), in place of `trusted`; `None` once parsed whole.
    index: Option<Index>,
    legacy: BTreeMap<String, LegacyRecord>,
    /// `run` refused the record of this home ([`Refused`]): nothing of the home is used,
    /// its parse cache included (the cache may be the project's as much as the record).
    refused: bool,
}

impl TrustStore {
    /// Whether `run` may use the parse cache of the home (not under a refused record).
    pub fn caches(&self) -> bool {
        !self.refused
    }

    /// The folder of the record, where `run` keeps what it may reuse, when it may
    /// ([`TrustStore::caches`]; none for a record not loaded from a home).
    pub fn dir(&self) -> Option<&Path> {
        self.path
            .parent()
            .filter(|d| self.caches() && !d.as_os_str().is_empty())
    }

    /// Where the record of `ctx`'s home lives.
    pub fn path_for(ctx: &Context) -> PathBuf {
        Self::record_in(&ctx.home)
    }

    /// Where the record of `home` lives.
    pub fn record_in(home: &Path) -> PathBuf {
        home.join(".hookx").join("trust.json")
    }

    /// Loads the record; a missing file is an empty record, a corrupt one (or a FIFO, device or
    /// huge file in its place, [`crate::read`]) an error (so that `hookx trust` never
    /// overwrites what it cannot read).
    pub fn load(ctx: &Context) -> Result<TrustStore, Error> {
        let path = Self::path_for(ctx);
        match Self::text(&path)? {
            Some(text) => Self::parsed(path, &text),
            None => Ok(TrustStore {
                path,
                ..TrustStore::default()
            }),
        }
    }

    /// The record's text; `None` when there is no record. A link in its place whose target is
    /// gone (a dotfiles folder not mounted) is a record that does not read, not "no record":
    /// the guards it trusted would be skipped as untrusted and a tool call let through
    /// (attacks row 2334); so is a link in its folder's place (`~/.hookx` itself kept in the
    /// dotfiles folder: row 2433).
    fn text(path: &Path) -> Result<Option<String>, Error> {
        match crate::read::text(path, crate::read::MAX_FILE_BYTES) {
            Ok(text) => Ok(Some(text)),
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    && let Some((link, what)) = Self::dangling(path) =>
            {
                Err(Error::Io {
                    path: link.display().to_string(),
                    message: format!(
                        "is a link to a {what} that does not exist; restore what it links \
                         to, or move the link away to start afresh, then `hookx trust` again \
                         what you reviewed"
                    ),
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::Io {
                path: path.display().to_string(),
                message: format!(
                    "{e}; move it away to start afresh, then `hookx trust` again what you \
                     reviewed"
                ),
            }),
        }
    }

    /// The record `path`, or its folder, where it is a link whose target is gone, and which
    /// of the two it is.
    fn dangling(path: &Path) -> Option<(&Path, &'static str)> {
        let gone = |p: &Path| std::fs::symlink_metadata(p).is_ok() && std::fs::metadata(p).is_err();
        if gone(path) {
            return Some((path, "file"));
        }
        path.parent().filter(|d| gone(d)).map(|d| (d, "folder"))
    }

    /// The record `text`, parsed whole.
    fn parsed(path: PathBuf, text: &str) -> Result<TrustStore, Error> {
        let file: StoreFile = serde_json::from_str(text).map_err(|e| Error::Io {
            path: path.display().to_string(),
            message: format!("is not a hookx trust record ({e}); move it away to start afresh"),
        })?;
        if !(1..=STORE_VERSION).contains(&file.version) {
            return Err(Error::Io {
                path: path.display().to_string(),
                message: format!(
                    "has version {}; this hookx reads versions 1 and {STORE_VERSION}",
                    file.version
                ),
            });
        }
        let mut store = TrustStore {
            path,
            legacy: file.legacy,
            ..TrustStore::default()
        };
        for r in file.trusted {
            if let Some(location) = context::location(&r.location) {
                store.at(location.id).insert(OsString::from(&r.path), r);
            }
        }
        Ok(store)
    }

    /// [`TrustStore::load`] for the commands that only look files up (`run`, `doctor`): a
    /// record in the form hookx writes is indexed, not parsed ([`Index`]), so that an event's
    /// cost does not grow with the records of files it never looks up (a month of trusted
    /// worktrees since removed: attacks row 1514). Any other form is parsed whole.
    fn load_indexed(ctx: &Context) -> Result<TrustStore, Error> {
        let path = Self::path_for(ctx);
        match Self::text(&path)? {
            Some(text) => Self::indexed(path, text),
            None => Ok(TrustStore {
                path,
                ..TrustStore::default()
            }),
        }
    }

    /// The record `text`, indexed where it is in the form hookx writes, else parsed whole.
    fn indexed(path: PathBuf, text: String) -> Result<TrustStore, Error> {
        match Index::of(text) {
            Ok(index) => Ok(TrustStore {
                path,
                index: Some(index),
                ..TrustStore::default()
            }),
            Err(text) => Self::parsed(path, &text),
        }
    }

    /// Parses an indexed record whole, before it is changed (never where it already is).
    fn parse_whole(&mut self) {
        if let Some(index) = self.index.take()
            && let Ok(whole) = Self::parsed(self.path.clone(), &index.text)
        {
            self.trusted = whole.trusted;
            self.legacy = whole.legacy;
        }
    }

    /// The records of one location, made if missing.
    fn at(&mut self, location: &'static str) -> &mut HashMap<OsString, Record> {
        let i = match self.trusted.iter().position(|(l, _)| *l == location) {
            Some(i) => i,
            None => {
                self.trusted.push((location, HashMap::new()));
                self.trusted.len() - 1
            }
        };
        &mut self.trusted[i].1
    }

    /// Like [`TrustStore::load`], but an unreadable record trusts nothing (for `run`/`list`,
    /// which must not fail open).
    pub fn load_or_empty(ctx: &Context) -> TrustStore {
        Self::load(ctx).unwrap_or_else(|_| TrustStore {
            path: Self::path_for(ctx),
            ..TrustStore::default()
        })
    }

    /// For `hookx run`: the record, unless `run` must not honour it ([`Refused`]); then an
    /// empty record (nothing is trusted) and why.
    pub fn load_for_run(ctx: &Context) -> (TrustStore, Option<Refused>) {
        match Refused::check(ctx) {
            Some(refused) => (
                TrustStore {
                    path: Self::path_for(ctx),
                    refused: true,
                    ..TrustStore::default()
                },
                Some(refused),
            ),
            None => match Self::load_indexed(ctx) {
                Ok(store) => (store, None),
                // A record that does not read (cut short, a newer hookx's format, a FIFO)
                // trusts nothing, which must not pass for "nothing is trusted".
                Err(e) => (
                    TrustStore {
                        path: Self::path_for(ctx),
                        refused: true,
                        ..TrustStore::default()
                    },
                    Some(Refused::Unreadable(match e {
                        Error::Io { path, message } => format!("{path} {message}"),
                        other => other.to_string(),
                    })),
                ),
            },
        }
    }

    /// Where this record is stored.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The record of an identity.
    pub fn get(&self, id: Identity<'_>) -> Option<&Record> {
        if let Some(index) = &self.index {
            return index
                .get(id.location.id, id.canonical)
                .filter(|r| r.dialect == id.location.dialect.name());
        }
        self.trusted
            .iter()
            .find(|(l, _)| *l == id.location.id)?
            .1
            .get(id.canonical.as_os_str())
            .filter(|r| r.dialect == id.location.dialect.name())
    }

    /// The record at a location id for a real path, whatever its dialect.
    fn get_at(&self, location: &str, canonical: &OsString) -> Option<&Record> {
        self.trusted
            .iter()
            .find(|(l, _)| *l == location)?
            .1
            .get(canonical)
    }

    /// Whether an identity has a record at all (whatever its hash): the identity a file is
    /// found as, when several locations reach it.
    pub fn knows(&self, id: Identity<'_>) -> bool {
        self.get(id).is_some()
    }

    /// The standing of an identity with the given content hash (`None`: not hashed, which is
    /// never trusted).
    pub fn state_of(&self, id: Identity<'_>, sha256: Option<&str>) -> TrustState {
        self.state_with(id, sha256, None)
    }

    /// [`TrustStore::state_of`], where content whose bytes differ from the trusted ones is
    /// trusted too when what hookx reads of it is the same (`without_agent_keys`).
    pub fn state_with(
        &self,
        id: Identity<'_>,
        sha256: Option<&str>,
        without_agent_keys: Option<&str>,
    ) -> TrustState {
        // The machine's policy is trusted as the agent trusts it: only an administrator can
        // write it, and hookx must never override it.
        if id.location.scope == crate::tables::Scope::Managed {
            return TrustState::Trusted;
        }
        match (self.get(id), sha256) {
            (Some(r), Some(sha)) if r.trusts_hash(sha) => TrustState::Trusted,
            (Some(r), Some(_)) if without_agent_keys.is_some_and(|read| r.trusts_read(read)) => {
                TrustState::Trusted
            }
            (Some(_), _) => TrustState::Changed,
            (None, _)
                if !self.legacy.is_empty() && self.legacy.contains_key(&key(id.canonical)) =>
            {
                TrustState::Legacy
            }
            (None, _) => TrustState::Untrusted,
        }
    }

    /// The standing of a discovered source, judged on the bytes discovery hashed: as found,
    /// else, with no record of its own, as the file it follows in another worktree
    /// ([`Subject::followed`]).
    pub fn state(&self, source: &impl Subject) -> TrustState {
        let Some(id) = source.identity() else {
            return TrustState::Untrusted;
        };
        let own = self.state_with(id, source.sha256(), source.without_agent_keys());
        let there = |canonical| Identity {
            canonical,
            location: id.location,
        };
        match source.followed() {
            Some(twin) if own == TrustState::Untrusted => {
                match self.state_of(there(twin), source.sha256()) {
                    TrustState::Trusted => TrustState::Trusted,
                    _ => own,
                }
            }
            _ => own,
        }
    }

    /// The records at a location id whose paths end with `rel` (whole components), in no
    /// particular order. An indexed record ([`Index`]) is parsed only where its path as
    /// written ends so.
    pub fn records_at(&self, location: &str, rel: &Path) -> Vec<&Record> {
        let written = rel.to_str().and_then(|r| serde_json::to_string(r).ok());
        let written = written.and_then(|w| w.get(1..w.len() - 1).map(str::to_string));
        let indexed = self
            .index
            .iter()
            .zip(written)
            .flat_map(|(index, w)| index.ending(w));
        self.trusted
            .iter()
            .filter(|(l, _)| *l == location)
            .flat_map(|(_, records)| records.values())
            .chain(indexed)
            .filter(|r| r.location == location && Path::new(&r.path).ends_with(rel))
            .collect()
    }

    /// Records an identity as trusted with this content (its bytes' hash, and the hash of what
    /// hookx reads of it, where worked out). Returns whether anything changed.
    pub fn trust(
        &mut self,
        id: Identity<'_>,
        sha256: &str,
        without_agent_keys: Option<&str>,
    ) -> bool {
        self.parse_whole();
        if self.state_of(id, Some(sha256)) == TrustState::Trusted {
            return false;
        }
        let trusted_at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        self.legacy.remove(&key(id.canonical));
        self.changed
            .insert((id.location.id, id.canonical.as_os_str().to_owned()));
        self.at(id.location.id).insert(
            id.canonical.as_os_str().to_owned(),
            Record {
                path: key(id.canonical),
                location: id.location.id.to_string(),
                dialect: id.location.dialect.to_string(),
                sha256: sha256.to_string(),
                without_agent_keys: without_agent_keys.map(str::to_string),
                trusted_at,
                landing: None,
            },
        );
        true
    }

    /// Moves the trust of the file at the real path `canonical` from the content hashed
    /// `before` to the content hashed `after`, at every location where it trusted `before`:
    /// its bytes, or what hookx reads of them (an agent's own write since, attacks row 327);
    /// nothing else is touched, so nothing untrusted or changed becomes trusted.
    /// `without_agent_keys` works out [`Record::without_agent_keys`] of the content before and
    /// after, for the dialect a record reads it in. Returns whether anything changed.
    pub fn carry_over(
        &mut self,
        canonical: &Path,
        (before, after): (&str, &str),
        without_agent_keys: [&dyn Fn(crate::tables::Dialect) -> Option<String>; 2],
    ) -> bool {
        self.each_trusting(
            canonical,
            (before, after),
            without_agent_keys,
            |record, kept| {
                record.sha256 = after.to_string();
                record.without_agent_keys = kept;
                true
            },
        )
    }

    /// [`TrustStore::carry_over`] in two steps around hookx's own edit of the file, for
    /// [`trust_landing`]: each record that trusts `before` (as `carry_over` decides) trusts
    /// `after` beside it ([`Record::landing`]), until [`TrustStore::landed`]. Returns whether
    /// anything changed.
    pub fn land(
        &mut self,
        canonical: &Path,
        (before, after): (&str, &str),
        without_agent_keys: [&dyn Fn(crate::tables::Dialect) -> Option<String>; 2],
    ) -> bool {
        self.each_trusting(
            canonical,
            (before, after),
            without_agent_keys,
            |record, kept| {
                let landing = Landing {
                    sha256: after.to_string(),
                    without_agent_keys: kept,
                };
                let new = record.landing.as_ref() != Some(&landing);
                record.landing = Some(landing);
                new
            },
        )
    }

    /// Calls `apply` on each record of the file at `canonical` that trusts `before` (its bytes,
    /// or what hookx reads of them), with what it would keep of `after` read without the
    /// agent's keys; `apply` says whether it changed the record. Returns whether any changed.
    fn each_trusting(
        &mut self,
        canonical: &Path,
        (before, after): (&str, &str),
        without_agent_keys: [&dyn Fn(crate::tables::Dialect) -> Option<String>; 2],
        mut apply: impl FnMut(&mut Record, Option<String>) -> bool,
    ) -> bool {
        if before == after {
            return false;
        }
        self.parse_whole();
        let mut changed = false;
        for (location, records) in &mut self.trusted {
            let dialect = context::location(location).map(|l| l.dialect);
            let projection = |which: usize| dialect.and_then(without_agent_keys[which]);
            if let Some(record) = records.get_mut(canonical.as_os_str())
                && (record.sha256 == before
                    || record.without_agent_keys.is_some()
                        && record.without_agent_keys == projection(0))
            {
                let kept = projection(1).filter(|_| record.without_agent_keys.is_some());
                if apply(record, kept) {
                    self.changed
                        .insert((*location, canonical.as_os_str().to_owned()));
                    changed = true;
                }
            }
        }
        changed
    }

    /// Ends each landing edit of the file at `canonical` ([`TrustStore::land`]): where the
    /// content hashed `written` landed, the record trusts it alone; where nothing was written
    /// (`None`, or other content), the landing goes and the record trusts what it did before.
    /// Returns whether any record now trusts `written`.
    pub fn landed(&mut self, canonical: &Path, written: Option<&str>) -> bool {
        self.parse_whole();
        let mut carried = false;
        for (location, records) in &mut self.trusted {
            let Some(record) = records.get_mut(canonical.as_os_str()) else {
                continue;
            };
            let Some(landing) = record.landing.take() else {
                continue;
            };
            if written == Some(landing.sha256.as_str()) {
                record.sha256 = landing.sha256;
                record.without_agent_keys = landing.without_agent_keys;
                carried = true;
            }
            self.changed
                .insert((*location, canonical.as_os_str().to_owned()));
        }
        carried
    }

    /// Every record, in no particular order: `hookx trust --list`.
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.trusted
            .iter()
            .flat_map(|(_, records)| records.values())
            .chain(self.index.iter().flat_map(Index::records))
    }

    /// The version 1 entries not trusted again since (real path, record).
    pub fn legacy_records(&self) -> impl Iterator<Item = (&String, &LegacyRecord)> {
        self.legacy.iter()
    }

    /// Takes back the trust of the file at the real path `canonical`: its record at every
    /// location, and a version 1 entry. Returns how many records went.
    pub fn revoke(&mut self, canonical: &Path) -> usize {
        self.parse_whole();
        let mut gone = 0;
        for (_, records) in &mut self.trusted {
            gone += usize::from(records.remove(canonical.as_os_str()).is_some());
        }
        gone += usize::from(self.legacy.remove(&key(canonical)).is_some());
        if gone > 0 {
            self.revoked.push(key(canonical));
        }
        gone
    }

    /// Where the copies of trusted bytes are kept: `trusted/` beside the record.
    fn copies(&self) -> PathBuf {
        self.path.with_file_name("trusted")
    }

    /// Keeps a copy of `text`, the bytes trusted under the hash `sha256`, for the review of a
    /// later change ([`TrustStore::trusted_copy`]); nothing for a text past [`COPY_LIMIT`] or
    /// one whose hash is not `sha256`. A copy is a review aid, never what trust is decided by.
    pub fn keep_copy(&self, sha256: &str, text: &str) -> Result<(), Error> {
        if text.len() > COPY_LIMIT
            || !is_sha256(sha256)
            || crate::hash::sha256_hex(text.as_bytes()) != sha256
        {
            return Ok(());
        }
        let path = self.copies().join(sha256);
        crate::config::update::update_private(&path, |current| {
            Ok(match current {
                Some(_) => crate::config::update::Change::Keep,
                None => crate::config::update::Change::Write(text.to_string()),
            })
        })
        .map(|_| ())
    }

    /// The copy of the bytes trusted under the hash `sha256`, when one was kept and still has
    /// that hash.
    pub fn trusted_copy(&self, sha256: &str) -> Option<String> {
        if !is_sha256(sha256) {
            return None;
        }
        let text = crate::read::text(&self.copies().join(sha256), COPY_LIMIT as u64).ok()?;
        (crate::hash::sha256_hex(text.as_bytes()) == sha256).then_some(text)
    }

    /// Removes the copies no record names any more (`keep`: the hashes the record holds).
    fn forget_copies(&self, keep: &HashSet<String>) {
        let Ok(entries) = std::fs::read_dir(self.copies()) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            if let Some(name) = name.to_str()
                && is_sha256(name)
                && !keep.contains(name)
            {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    /// Records a discovered source as trusted with the content discovery hashed. Returns
    /// whether anything changed; `false` too when the source was not hashed.
    pub fn trust_source(&mut self, source: &impl Subject) -> bool {
        match (source.identity(), source.sha256()) {
            (Some(id), Some(sha)) => self.trust(id, sha, source.without_agent_keys()),
            _ => false,
        }
    }

    /// Writes the record through hookx's one writer (creating `~/.hookx` if needed, through a
    /// symlinked record), merged under the writer's lock with the record as it is on disk then:
    /// concurrent `hookx trust` runs keep each other's records, and legacy entries either run
    /// re-trusted stay gone.
    pub fn save(&self) -> Result<(), Error> {
        let shown = self.path.display().to_string();
        let mut hashes = HashSet::new();
        crate::config::update::update_private(&self.path, |current| {
            let mut trusted = BTreeMap::new();
            let mut legacy = self.legacy.clone();
            if let Some(text) = current {
                let disk: SavedFile = serde_json::from_str(text).map_err(|e| Error::Io {
                    path: shown.clone(),
                    message: format!(
                        "is not a hookx trust record ({e}); move it away to start afresh"
                    ),
                })?;
                for kept in disk.trusted {
                    let r = &kept.record;
                    if !self.revoked.contains(&r.path) {
                        trusted.insert(format!("{}\0{}", r.location, r.path), kept);
                    }
                }
                legacy.retain(|k, _| disk.legacy.contains_key(k));
            }
            for (location, path) in &self.changed {
                if let Some(r) = self.get_at(location, path) {
                    let kept = KeptRecord {
                        record: r.clone(),
                        newer: BTreeMap::new(),
                    };
                    trusted.insert(format!("{}\0{}", r.location, r.path), kept);
                }
            }
            hashes.extend(trusted.values().map(|k| k.record.sha256.clone()));
            let file = SavedFile {
                version: STORE_VERSION,
                trusted: trusted.into_values().collect(),
                legacy,
            };
            let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
            text.push('\n');
            // A record `load` refuses would deny every guarded tool call, everywhere.
            let cap = crate::read::MAX_FILE_BYTES;
            if text.len() as u64 > cap {
                return Err(Error::Io {
                    path: shown.clone(),
                    message: format!(
                        "would be {} bytes, too large for hookx to read back (up to {cap}); \
                         nothing was trusted: take back the records of files no longer used \
                         (`hookx trust --list`, `hookx trust --revoke FILE`)",
                        text.len()
                    ),
                });
            }
            Ok(crate::config::update::Change::Write(text))
        })?;
        // A copy written by a concurrent `hookx trust` whose record is not saved yet may go
        // too: its review then shows the rules without a diff.
        self.forget_copies(&hashes);
        Ok(())
    }
}

/// Whether `name` is a SHA-256 in hex (the name of a kept copy).
fn is_sha256(name: &str) -> bool {
    name.len() == 64 && name.bytes().all(|b| b.is_ascii_hexdigit())
}

/// After hookx's own edit of the file at `path` (an install's routes or review records) from
/// the bytes `before` to `after`: if the user had trusted `before` (or what hookx reads of it,
/// [`Record::trusts`]), `after` is trusted too, so
/// that hookx's edit does not turn the user's trusted hooks in that file into "changed since
/// trusted" (and skipped). Content the user had not trusted is never trusted this way.
/// Whether the record changed; a record that cannot be read trusts nothing, so keeps nothing,
/// and an error is only a record that could not be written.
pub fn keep_trusted(
    ctx: &Context,
    path: &Path,
    before: &[u8],
    after: &[u8],
) -> Result<bool, Error> {
    let (Ok(canonical), Ok(mut store)) = (std::fs::canonicalize(path), TrustStore::load(ctx))
    else {
        return Ok(false);
    };
    let (before_hash, after_hash) = (
        crate::hash::sha256_hex(before),
        crate::hash::sha256_hex(after),
    );
    if !store.carry_over(
        &canonical,
        (&before_hash, &after_hash),
        [
            &without_agent_keys(path, before),
            &without_agent_keys(path, after),
        ],
    ) {
        return Ok(false);
    }
    if let Ok(text) = std::str::from_utf8(after) {
        store.keep_copy(&after_hash, text)?;
    }
    store.save().map(|()| true)
}

/// [`keep_trusted`] for an edit not yet in place, first step: before hookx renames `after`
/// over the bytes `before` of the file at `path`, each record that trusts `before` trusts
/// `after` beside it ([`Record::landing`]), saved. `hookx run` reads the file and the record
/// without a lock, each renamed into place whole: a record saved after the edit left a run in
/// between to find the user's trusted guard changed and skip it (attacks row 2085). Whether
/// the record changed (then [`trust_landed`] is owed once the edit is in place or given up);
/// a record that cannot be read trusts nothing, so lands nothing.
pub fn trust_landing(
    ctx: &Context,
    path: &Path,
    before: &[u8],
    after: &[u8],
) -> Result<bool, Error> {
    let (Ok(canonical), Ok(mut store)) = (std::fs::canonicalize(path), TrustStore::load(ctx))
    else {
        return Ok(false);
    };
    let hashes = (
        crate::hash::sha256_hex(before),
        crate::hash::sha256_hex(after),
    );
    if !store.land(
        &canonical,
        (&hashes.0, &hashes.1),
        [
            &without_agent_keys(path, before),
            &without_agent_keys(path, after),
        ],
    ) {
        return Ok(false);
    }
    store.save().map(|()| true)
}

/// [`trust_landing`]'s second step, once hookx's edit of the file at `path` is in place
/// (`written`, its bytes) or given up (`None`): the records trust the written bytes alone, or
/// again only what they trusted before. Whether a record now trusts `written`.
pub fn trust_landed(ctx: &Context, path: &Path, written: Option<&[u8]>) -> Result<bool, Error> {
    let (Ok(canonical), Ok(mut store)) = (std::fs::canonicalize(path), TrustStore::load(ctx))
    else {
        return Ok(false);
    };
    let hash = written.map(crate::hash::sha256_hex);
    let carried = store.landed(&canonical, hash.as_deref());
    if let (true, Some(hash), Some(text)) = (
        carried,
        &hash,
        written.and_then(|w| std::str::from_utf8(w).ok()),
    ) {
        store.keep_copy(hash, text)?;
    }
    store.save().map(|()| carried)
}

/// [`Record::without_agent_keys`] of the content `text` of the file at `path`, per dialect
/// (for [`TrustStore::carry_over`]).
pub fn without_agent_keys<'a>(
    path: &'a Path,
    text: &'a [u8],
) -> impl Fn(crate::tables::Dialect) -> Option<String> + 'a {
    move |dialect| {
        let text = std::str::from_utf8(text).ok()?.to_string();
        let src = crate::source::SourceFile::new(path.display().to_string(), text);
        crate::config::read::sha256_without_agent_keys(&src, dialect)
    }
}

fn key(canonical: &Path) -> String {
    canonical.to_string_lossy().into_owned()
}

/// The standing of `source` in the trust record of `ctx`'s home (an unreadable record trusts
/// nothing). Host-independent: see [`crate::discover::needs_trust`] for whether it matters.
pub fn is_trusted(ctx: &Context, source: &impl Subject) -> TrustState {
    TrustStore::load_or_empty(ctx).state(source)
}

/// Why `hookx run` does not honour the trust record of its home: the record would be the
/// project's, or another account could have written it. A repository can put a variable in
/// every hook's environment (`HOME` among them): a record it could write would trust whatever
/// it ships, and one in a home it invented holds none of the user's trust.
#[derive(Debug)]
pub enum Refused {
    /// The record (or the folder it would be in) is inside the project, and the home is not
    /// the user's account's own (a user working in their home directory is fine).
    InProject { record: PathBuf, project: PathBuf },
    /// The record, its folder or the home is owned by another account or writable by group or
    /// others (the checks `sshd` makes of `~/.ssh/authorized_keys`).
    OthersCouldWrite(OthersCouldWrite),
    /// The record does not read as one (why, naming the file).
    Unreadable(String),
}

impl Refused {
    /// Why the record of `ctx`'s home must not be honoured, if it must not.
    pub fn check(ctx: &Context) -> Option<Refused> {
        let record = TrustStore::path_for(ctx);
        let folder = record.parent().unwrap_or(&ctx.home).to_path_buf();
        // Where the record really is: the file, else its folder, else the home, resolved.
        let real = [&record, &folder, &ctx.home]
            .into_iter()
            .find_map(|p| std::fs::canonicalize(p).ok().map(|r| (p, r)));
        let inside = match &real {
            Some((p, r)) => {
                let rest = p.strip_prefix(&ctx.home).unwrap_or(Path::new(""));
                r.join(rest).starts_with(&ctx.project) || record.starts_with(&ctx.project)
            }
            None => record.starts_with(&ctx.project),
        };
        let accounts_own = || {
            crate::ownership::account_home()
                .map(|h| context::absolute(&h))
                .is_some_and(|h| h == ctx.home)
        };
        if inside && !accounts_own() {
            return Some(Refused::InProject {
                record,
                project: ctx.project.clone(),
            });
        }
        OthersCouldWrite::first(vec![ctx.home.clone(), folder, record], Owners::RootOrYou)
            .map(Refused::OthersCouldWrite)
    }

    /// The fix, as a command where there is one.
    pub fn fix(&self) -> String {
        match self {
            Refused::InProject { .. } => {
                "keep hookx's home outside the project: install the routes with `hookx install \
                 --home DIR`, DIR your own home"
                    .into()
            }
            Refused::OthersCouldWrite(why) => why.fix(),
            Refused::Unreadable(_) => {
                "run the hookx that wrote it, or move the record away and trust again".into()
            }
        }
    }
}

/// For `run` without `--home`: the home `HOME` names when it is not the one `run` reads (the
/// account's) and holds a trust record, as a home did whose routes an older hookx installed
/// without `--home` (`run` then read `HOME`). That record is not used (a project's settings can
/// set `HOME`), and the user's guards there would be lost without a word.
pub fn record_under_home_var(ctx: &Context) -> Option<PathBuf> {
    let var = std::env::var_os("HOME").filter(|v| !v.is_empty())?;
    let home = context::absolute(Path::new(&var));
    if home == ctx.home {
        return None;
    }
    let record = home.join(".hookx").join("trust.json");
    std::fs::symlink_metadata(&record).ok().map(|_| home)
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::InProject { record, project } => write!(
                f,
                "the trust record {} is inside the project {} (the home is not your account's), \
                 so the project could have written it",
                record.display(),
                project.display()
            ),
            Refused::OthersCouldWrite(why) => write!(
                f,
                "{why}, so another account could have written the trust record"
            ),
            Refused::Unreadable(why) => write!(f, "{why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record as hookx writes it: `real` (path, location id), then `gone` records of files
    /// that are gone.
    fn written(real: &[(&str, &str)], gone: usize) -> String {
        let record = |path: &str, location: &str, n: usize| Record {
            path: path.to_string(),
            location: location.to_string(),
            dialect: context::location(location).unwrap().dialect.to_string(),
            sha256: format!("{n:064x}"),
            without_agent_keys: None,
            trusted_at: "2026-11-07T10:00:00Z".to_string(),
            landing: None,
        };
        let mut trusted: Vec<_> = real
            .iter()
            .enumerate()
            .map(|(n, (path, location))| record(path, location, n))
            .collect();
        trusted.extend((0..gone).map(|n| {
            let path = format!("/gone/worktree-{n:05}/.gemini/settings.json");
            record(&path, "gemini-project", n)
        }));
        let file = StoreFile {
            version: STORE_VERSION,
            trusted,
            legacy: BTreeMap::new(),
        };
        serde_json::to_string_pretty(&file).unwrap() + "\n"
    }

    fn id(canonical: &str, location: &str) -> (PathBuf, &'static Location) {
        (
            PathBuf::from(canonical),
            context::location(location).unwrap(),
        )
    }

    /// How many records the store has parsed so far.
    fn parsed(store: &TrustStore) -> usize {
        let whole: usize = store.trusted.iter().map(|(_, r)| r.len()).sum();
        let indexed = store.index.as_ref().map_or(0, |i| {
            i.entries
                .iter()
                .filter(|e| e.record.get().is_some())
                .count()
        });
        whole + indexed
    }

    /// Attacks row 1514: `run` parsed the whole record on every event, 152 M instructions at
    /// 3 021 records (debug) against 5 M at 21. It parses the records it looks up.
    #[test]
    fn a_record_run_reads_parses_only_the_records_it_looks_up() {
        let guard = "/p/.gemini/settings.json";
        let text = written(&[(guard, "gemini-project")], 3000);
        let store = TrustStore::indexed(PathBuf::from("/h/.hookx/trust.json"), text).unwrap();
        let (path, location) = id(guard, "gemini-project");
        let found = store.get(Identity {
            canonical: &path,
            location,
        });
        assert_eq!(found.map(|r| r.path.as_str()), Some(guard));
        let (other, location) = id("/p/.claude/settings.json", "claude-project");
        let other = Identity {
            canonical: &other,
            location,
        };
        assert_eq!(store.state_of(other, Some("x")), TrustState::Untrusted);
        assert_eq!(parsed(&store), 1, "the records parsed for two lookups");
        // Every record is still there for `hookx trust --list`.
        assert_eq!(store.records().count(), 3001);
    }

    /// Every lookup answers as a whole parse does, on the records it indexes and on those it
    /// leaves to the whole parse.
    #[test]
    fn an_indexed_record_answers_as_the_whole_one() {
        let odd = "/p/a \"quoted\" \\ back\tslash ünï/.gemini/settings.json";
        let real = [
            ("/p/.gemini/settings.json", "gemini-project"),
            ("/p/.gemini/settings.json", "gemini-user"),
            ("/p/ünï/.gemini/settings.json", "gemini-project"),
            ("/p/.claude/settings.json", "claude-project"),
            ("/p/.claude/settings.json", "claude-project"),
        ];
        let plain = written(&real, 3);
        let escaped = written(&[real[0], (odd, "gemini-project")], 3);
        let mut value: serde_json::Value = serde_json::from_str(&plain).unwrap();
        value["trusted"][0]["of_tomorrow"] =
            serde_json::json!({"path": "/p/.claude/settings.json"});
        let tomorrow = serde_json::to_string_pretty(&value).unwrap();
        value["trusted"][0]["of_tomorrow"] = serde_json::json!({"at": 1, "path": "/x"});
        let nested = serde_json::to_string_pretty(&value).unwrap();
        let legacy = plain.replacen(
            "\"trusted\": [",
            "\"legacy\": {\"/p/.codex/hooks.json\": {\"sha256\": \"a\", \"trusted_at\": \"b\"}},\n  \"trusted\": [",
            1,
        );
        let mut file: StoreFile = serde_json::from_str(&plain).unwrap();
        file.legacy.insert(
            "/p/.codex/hooks.json".into(),
            LegacyRecord {
                sha256: "a".into(),
                trusted_at: "b".into(),
            },
        );
        let legacy_after = serde_json::to_string_pretty(&file).unwrap();
        let compact = serde_json::from_str::<serde_json::Value>(&plain)
            .unwrap()
            .to_string();
        let reordered = plain.replace(
            "\"path\": \"/p/.claude/settings.json\",\n      \"location\": \"claude-project\",",
            "\"location\": \"claude-project\",\n      \"path\": \"/p/.claude/settings.json\",",
        );
        let slashed = plain.replace("/p/.gemini", "\\/p\\/.gemini");
        let lookups = [
            (odd, "gemini-project"),
            real[0],
            real[1],
            real[2],
            real[3],
            ("/p/.gemini/settings.json", "claude-project"),
            ("/p/.codex/hooks.json", "codex-project"),
            (
                "/gone/worktree-00001/.gemini/settings.json",
                "gemini-project",
            ),
            ("/p", "gemini-project"),
        ];
        for (name, text, indexed) in [
            ("as written", &plain, true),
            ("a newer field naming a path", &tomorrow, true),
            (
                "a newer field whose object names a path second",
                &nested,
                false,
            ),
            ("version 1 entries", &legacy, false),
            ("version 1 entries after the list", &legacy_after, false),
            ("written compact", &compact, true),
            ("a path key second", &reordered, false),
            ("an escaped slash", &slashed, false),
            ("a path written with escapes", &escaped, false),
        ] {
            let whole = TrustStore::parsed(PathBuf::new(), text).unwrap();
            let store = TrustStore::indexed(PathBuf::new(), text.clone()).unwrap();
            assert_eq!(store.index.is_some(), indexed, "{name}");
            for (canonical, location) in lookups {
                let (path, location) = id(canonical, location);
                let id = Identity {
                    canonical: &path,
                    location,
                };
                for sha in ["0".repeat(64), format!("{:064x}", 1), format!("{:064x}", 4)] {
                    assert_eq!(
                        store.state_of(id, Some(&sha)),
                        whole.state_of(id, Some(&sha)),
                        "{name}: {canonical} at {}",
                        location.id
                    );
                }
                assert_eq!(store.get(id), whole.get(id), "{name}: {canonical}");
            }
        }
        assert!(TrustStore::indexed(PathBuf::new(), plain[..plain.len() / 2].into()).is_err());
        let newer = plain.replacen("\"version\": 2", "\"version\": 3", 1);
        assert!(TrustStore::indexed(PathBuf::new(), newer).is_err());
    }
}
