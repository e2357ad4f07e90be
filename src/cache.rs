//! What `hookx run` parsed from a large config file, kept for the next event, so that a hook
//! set of thousands of rules costs an event little more than a small one: no reading, hashing
//! or parsing of the whole file, only of the part that event needs.
//!
//! An entry holds, for one (file, event), the pruned value the event needs
//! ([`PrunedEvent`]) and the SHA-256 of the whole file (for the trust check), under the file's
//! identity. The event's rules are kept as raw JSON texts: only those that can fire are parsed
//! again (see [`lookup`]). The identity is device, inode, size, mtime and ctime. Every write to a file sets its ctime to the
//! current time, and no user call can set it back, so an unchanged identity means unchanged
//! bytes. Two writes within one clock tick can share a ctime, so a file changed less than
//! [`SETTLE`] ago is not cached. Entries live in `<home>/.hookx/cache/`, next to the trust
//! record; they are written atomically, and one that is unreadable or stale is a miss.

use crate::config::read::{Fires, PrunedEvent, which_fire};
use crate::model::EventKind;
use crate::tables::Dialect;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Smaller files are parsed faster than an entry is read: not cached.
pub const MIN_BYTES: u64 = 64 * 1024;

/// How long a file must have stayed unchanged before it is cached: longer than the timestamp
/// granularity of any file system hookx may meet (FAT keeps ctime to 10 ms, mtime to 2 s).
pub const SETTLE: Duration = Duration::from_secs(2);

/// Entries kept; past this, the oldest written go (entries of deleted or moved files are
/// never looked up again).
pub const MAX_ENTRIES: usize = 256;

/// Entries larger than this are a miss: an entry holds part of a file of at most
/// [`crate::read::MAX_FILE_BYTES`], with its keys.
const MAX_ENTRY_BYTES: u64 = 2 * crate::read::MAX_FILE_BYTES;

#[derive(Debug)]
pub struct Hit {
    /// SHA-256 (hex) of the whole file when it was parsed.
    pub sha256: String,
    pub pruned: PrunedEvent,
}

#[derive(Serialize, Deserialize)]
struct Entry {
    /// hookx build ([`crate::hash::BUILD`]), dialect, event and path: another build (whose
    /// tables may prune otherwise) or a colliding file name is a miss, never a wrong answer.
    key: String,
    identity: FileId,
    sha256: String,
    events_at_top: bool,
    /// The pruned value with the event's arrays of rules emptied: they are in `arrays`.
    shell: Value,
    /// Each array's key and its rules, unparsed.
    arrays: Vec<(String, Vec<Box<RawValue>>)>,
}

/// What changes whenever the file's bytes do: its device, inode, size, mtime and ctime.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileId {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl FileId {
    /// The identity in `meta`; `None` where there is no ctime to trust (not Unix).
    #[cfg(unix)]
    pub fn of(meta: &Metadata) -> Option<FileId> {
        use std::os::unix::fs::MetadataExt;
        Some(FileId {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime: (meta.mtime(), meta.mtime_nsec()),
            ctime: (meta.ctime(), meta.ctime_nsec()),
        })
    }

    /// Elsewhere there is no ctime to trust: nothing is cached.
    #[cfg(not(unix))]
    pub fn of(_: &Metadata) -> Option<FileId> {
        None
    }

    /// Feeds every field to `hasher`.
    pub fn digest_into(&self, hasher: &mut impl std::hash::Hasher) {
        for n in [self.dev, self.ino, self.len] {
            hasher.write_u64(n);
        }
        for (secs, nanos) in [self.mtime, self.ctime] {
            hasher.write_i64(secs);
            hasher.write_i64(nanos);
        }
    }

    /// The file's size when it was found.
    pub fn bytes(&self) -> u64 {
        self.len
    }

    /// Whether the file has been unchanged for [`SETTLE`]: only then does an unchanged
    /// identity promise unchanged bytes.
    pub fn settled(&self) -> bool {
        let (secs, nanos) = self.ctime;
        let changed = u64::try_from(secs).ok().and_then(|secs| {
            SystemTime::UNIX_EPOCH.checked_add(Duration::new(secs, u32::try_from(nanos).ok()?))
        });
        changed.is_some_and(|changed| {
            SystemTime::now()
                .duration_since(changed)
                .is_ok_and(|age| age >= SETTLE)
        })
    }
}

/// Whether a file this size (`meta` taken before reading it) may be cached.
pub fn worth_caching(meta: &Metadata) -> bool {
    meta.len() >= MIN_BYTES && FileId::of(meta).is_some()
}

/// The entry for `event` of `path` (whose metadata, [`worth_caching`], is `meta`), if there is
/// one and the file has not changed since. `accept` is asked about the file's SHA-256 before
/// anything of the entry is used: when it refuses, the answer is `Some(Err(sha256))` (the file
/// is not trusted with this content). With `fires`, the rules it says cannot fire are left out
/// as `null` placeholders, unparsed; `file` is the name rules of this file carry in their
/// origin (what matcher verdicts are remembered under).
pub fn lookup(
    home: &Path,
    path: &Path,
    meta: &Metadata,
    (dialect, event, file): (Dialect, &EventKind, &str),
    fires: Option<Fires>,
    accept: &dyn Fn(&str) -> bool,
) -> Option<Result<Hit, String>> {
    let key = key(path, dialect, event);
    let text = crate::read::text(&entry_path(home, &key), MAX_ENTRY_BYTES).ok()?;
    let entry: Entry = serde_json::from_str(&text).ok()?;
    if entry.key != key || Some(&entry.identity) != FileId::of(meta).as_ref() {
        return None;
    }
    if !accept(&entry.sha256) {
        return Some(Err(entry.sha256));
    }
    let mut pruned = PrunedEvent {
        value: entry.shell,
        events_at_top: entry.events_at_top,
        event: event.clone(),
    };
    let mut arrays = entry.arrays;
    for (key, slot) in pruned.event_arrays(dialect) {
        let at = arrays.iter().position(|(k, _)| k == key)?;
        let (_, raws) = arrays.swap_remove(at);
        let keep = match fires {
            Some(fires) => {
                let matchers: Vec<Option<Value>> = raws.iter().map(|raw| matcher_of(raw)).collect();
                which_fire(
                    (dialect, key, file),
                    matchers.iter().map(Option::as_ref),
                    fires,
                )
            }
            None => vec![true; raws.len()],
        };
        // A kept rule that does not parse makes the entry a miss: never a rule lost.
        *slot = raws
            .iter()
            .zip(keep)
            .map(|(raw, keep)| match keep {
                true => serde_json::from_str(raw.get()).ok(),
                false => Some(Value::Null),
            })
            .collect::<Option<Vec<Value>>>()?;
    }
    arrays.is_empty().then_some(Ok(Hit {
        sha256: entry.sha256,
        pruned,
    }))
}

/// A raw rule's matcher, read without building the rest of it. `None` when it cannot be read
/// this way: the rule is then kept, and reading it decides.
fn matcher_of(raw: &RawValue) -> Option<Value> {
    #[derive(Deserialize)]
    struct Probe {
        matcher: Option<Value>,
    }
    serde_json::from_str::<Probe>(raw.get()).ok()?.matcher
}

/// Records what `event` of `path` parsed to. `before` is the file's metadata from before it was
/// read: if the file changed meanwhile, or too recently, nothing is stored. Best effort: a
/// cache that cannot be written only costs speed.
pub fn store(
    home: &Path,
    path: &Path,
    dialect: Dialect,
    event: &EventKind,
    before: &Metadata,
    sha256: &str,
    mut pruned: PrunedEvent,
) {
    let Some(identity) = FileId::of(before) else {
        return;
    };
    let after = std::fs::metadata(path).ok();
    if after.and_then(|m| FileId::of(&m)).as_ref() != Some(&identity) || !identity.settled() {
        return;
    }
    let mut arrays = Vec::new();
    for (key, entries) in pruned.event_arrays(dialect) {
        let raws: Result<Vec<Box<RawValue>>, _> = std::mem::take(entries)
            .iter()
            .map(serde_json::value::to_raw_value)
            .collect();
        let Ok(raws) = raws else { return };
        arrays.push((key.to_string(), raws));
    }
    let key = key(path, dialect, event);
    let entry = Entry {
        key: key.clone(),
        identity,
        sha256: sha256.to_string(),
        events_at_top: pruned.events_at_top,
        shell: pruned.value,
        arrays,
    };
    let Ok(text) = serde_json::to_string(&entry) else {
        return;
    };
    let file = entry_path(home, &key);
    if let Some(dir) = file.parent()
        && crate::config::update::private_dir(dir).is_ok()
        && write_entry(dir, &file, &text).is_ok()
    {
        evict(dir);
    }
}

/// One small fact `hookx run` found out from a file, kept under the file's identity so that
/// the next event need not read and parse the file for it again ([`recall`], [`remember`]):
/// the timeout of a route's entry ([`crate::route::written_timeout_ms`]).
#[derive(Serialize, Deserialize)]
struct Fact<T> {
    key: String,
    identity: FileId,
    value: T,
}

fn fact_key(what: &str) -> String {
    format!("hookx {} fact {FORMAT}\0{what}", crate::hash::BUILD)
}

/// Where the fact keyed `key` is kept: among the cache's entries (evicted with them), named by
/// a 64-bit hash, cheaper than [`entry_path`]'s SHA-256 on the path of every event. A name
/// two keys share is a miss: the entry holds its whole key.
fn fact_path(home: &Path, key: &str) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    key.hash(&mut hasher);
    home.join(".hookx")
        .join("cache")
        .join(format!("{:016x}.json", hasher.finish()))
}

/// The fact remembered as `what` of the file whose metadata (taken now) is `meta`, if the
/// file is unchanged since.
pub fn recall<T: serde::de::DeserializeOwned>(
    home: &Path,
    what: &str,
    meta: &Metadata,
) -> Option<T> {
    let key = fact_key(what);
    let text = crate::read::text(&fact_path(home, &key), 4096).ok()?;
    let fact: Fact<T> = serde_json::from_str(&text).ok()?;
    (fact.key == key && Some(&fact.identity) == FileId::of(meta).as_ref()).then_some(fact.value)
}

/// Remembers `value` as `what` of `path`, whose metadata from before it was read is `before`:
/// only if the file has not changed since and has settled ([`FileId::settled`]). Best effort.
pub fn remember<T: Serialize>(home: &Path, what: &str, path: &Path, before: &Metadata, value: T) {
    let Some(identity) = FileId::of(before) else {
        return;
    };
    let after = std::fs::metadata(path).ok();
    if after.and_then(|m| FileId::of(&m)).as_ref() != Some(&identity) || !identity.settled() {
        return;
    }
    let key = fact_key(what);
    let file = fact_path(home, &key);
    let Ok(text) = serde_json::to_string(&Fact {
        key,
        identity,
        value,
    }) else {
        return;
    };
    if let Some(dir) = file.parent()
        && crate::config::update::private_dir(dir).is_ok()
        && write_entry(dir, &file, &text).is_ok()
    {
        evict(dir);
    }
}

/// A temporary file renamed into place: readers see a whole entry or none. Not synced: after
/// a crash an entry may be empty or missing, which is a miss, and an event does not wait for
/// the disk. A hookx killed between the two (a host cancelling it) leaves its temporary file:
/// those of `dir` go first, once old (attacks row 1270).
pub(crate) fn write_entry(dir: &Path, file: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    remove_left_parts(dir);
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    tmp.persist(file)?;
    Ok(())
}

/// How old a temporary file of [`write_entry`]'s is before it is taken for one a killed hookx
/// left: a write takes milliseconds.
const LEFT_PART_AGE: Duration = Duration::from_secs(600);

/// Removes from `dir`, one of hookx's own folders, the temporary files (`tempfile`'s `.tmp`
/// names, regular files only) older than [`LEFT_PART_AGE`].
fn remove_left_parts(dir: &Path) {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in listing.flatten() {
        if !entry.file_name().as_encoded_bytes().starts_with(b".tmp") {
            continue;
        }
        // Not followed: a link is no file of hookx's.
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let old = meta
            .modified()
            .ok()
            .and_then(|at| now.duration_since(at).ok())
            .is_some_and(|age| age > LEFT_PART_AGE);
        if meta.is_file() && old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Removes the oldest entries past [`MAX_ENTRIES`]. Only on a store (a miss), never on the
/// path of a hit.
fn evict(dir: &Path) {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<(SystemTime, PathBuf)> = listing
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if entries.len() <= MAX_ENTRIES {
        return;
    }
    entries.sort();
    for (_, path) in &entries[..entries.len() - MAX_ENTRIES] {
        let _ = std::fs::remove_file(path);
    }
}

/// Changes whenever [`Entry`] does, so that builds of one version never misread each other.
const FORMAT: u32 = 2;

fn key(path: &Path, dialect: Dialect, event: &EventKind) -> String {
    format!(
        "hookx {} cache {FORMAT}\0{dialect:?}\0{}\0{}",
        crate::hash::BUILD,
        event.name(),
        path.display()
    )
}

fn entry_path(home: &Path, key: &str) -> PathBuf {
    let name = &crate::hash::sha256_hex(key.as_bytes())[..32];
    home.join(".hookx")
        .join("cache")
        .join(format!("{name}.json"))
}

/// A file of 64-bit digests (one hex line each, newest last, at most `max` kept) of what
/// `hookx run` found out once and need not again: sets of files warned about
/// (`warned.sum`), files their agent loads whole (`loaded.sum`). Missing or unreadable is
/// empty; written atomically.
pub struct Digests {
    path: PathBuf,
    digests: Vec<u64>,
    max: usize,
}

impl Digests {
    pub fn load(path: &Path, max: usize) -> Digests {
        let digests = crate::read::text(path, max as u64 * 64)
            .map(|text| {
                text.lines()
                    .filter_map(|l| u64::from_str_radix(l.trim(), 16).ok())
                    .collect()
            })
            .unwrap_or_default();
        Digests {
            path: path.to_path_buf(),
            digests,
            max,
        }
    }

    pub fn has(&self, digest: u64) -> bool {
        self.digests.contains(&digest)
    }

    /// The set with `digest` added as the newest, the oldest dropped past `max`.
    pub fn with(mut self, digest: u64) -> Digests {
        self.digests.retain(|d| *d != digest);
        self.digests.push(digest);
        let excess = self.digests.len().saturating_sub(self.max);
        self.digests.drain(..excess);
        self
    }

    pub fn save(&self) {
        let text: String = self.digests.iter().map(|d| format!("{d:016x}\n")).collect();
        if let Some(dir) = self.path.parent() {
            let _ = write_entry(dir, &self.path, &text);
        }
    }
}
