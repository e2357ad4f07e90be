//! Which untrusted files `hookx run` has already warned about, so that it warns once per file
//! and content, and an unchanged untrusted file costs an event no more than a `stat`.
//!
//! Two records live in `<home>/.hookx/`, beside the trust record:
//!
//! - `warned.json`, one entry per file warned about, keyed by the identity it was found as (its
//!   location and real path, see [`crate::trust`]), holding the SHA-256 of the content warned
//!   about and the file's [`FileId`] when it was hashed. A file whose `FileId` is unchanged has
//!   unchanged bytes (see [`crate::cache`]): it is not read again. One whose `FileId` changed is
//!   read and hashed (never parsed); it is warned about again only when the hash differs.
//! - `warned.sum`, digests of whole sets of files (identity and `FileId` of each) that were
//!   all warned about as they are. When an event's untrusted files make a set listed there,
//!   nothing changed since: `warned.json` is not even read, so a thousand untrusted files cost
//!   a thousand `stat`s and one digest.
//!
//! Both are best effort: if they cannot be read or written, hookx warns again, which is the
//! safe side.
//!
//! Reading is bounded too: an event hashes at most [`MAX_HASHED_BYTES`] of untrusted files.
//! Files past it are not read: they are warned about and recorded by their identity alone
//! (so an unchanged one is not warned about again), and one line says so. A project that
//! ships gigabytes of hook files cannot make `hookx run` hash them before its handlers start
//! (the host's time runs from the moment it starts hookx). A warning missed that way costs
//! nothing: an untrusted file never runs.
//!
//! Both are bounded. `warned.json` keeps 4 096 entries, and more only while one
//! event has more untrusted files than that: past it, the entries of files the event did not
//! find go, those of files no longer there first, then the oldest recorded. The files of the
//! event itself are always kept, so that however many there are, each is warned about once.

use crate::cache::FileId;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::hash::Hasher;
use std::path::{Path, PathBuf};

/// Entries kept beyond those of the current event's files; an entry dropped past this is a
/// file warned about again, once, should it be found again.
const MAX_ENTRIES: usize = 4096;

/// Past this many entries, a save drops those of files that are gone (a `stat` each; only when
/// something new is recorded): a month of worktrees left thousands, 800 KB that each new set
/// read and rewrote whole (attacks row 1513). One dropped wrongly is a warning given again.
const GONE_CHECKED_PAST: usize = 256;

/// The most bytes of untrusted files one event reads and hashes (a debug build hashes this
/// in well under a second).
pub const MAX_HASHED_BYTES: u64 = 8 * 1024 * 1024;

/// Digests kept in `warned.sum`: one per recent (project, host) set. 32 were fewer than the
/// sets a busy user goes round (20 projects under two agents): past them every event missed
/// and read `warned.json` whole, up to 4 096 entries (800 KB), 25 times an event's
/// instructions (attacks row 1512). 256 digests are 4 KB.
const MAX_DIGESTS: usize = 256;

/// One untrusted file of an event.
#[derive(Clone, Copy, Debug)]
pub struct File<'a> {
    /// The [`crate::tables::Location`] id it was found at.
    pub location: &'a str,
    /// Its real path (symlinks resolved), else the path it was found at.
    pub real: &'a Path,
    /// Where to read it.
    pub path: &'a Path,
    /// Its identity when it was found.
    pub id: Option<&'a FileId>,
    /// Its SHA-256, when discovery already hashed it.
    pub sha256: Option<&'a str>,
}

impl File<'_> {
    fn key(&self) -> String {
        format!("{}\0{}", self.location, self.real.display())
    }
}

/// The real path a key names.
fn real_of(key: &str) -> Option<&Path> {
    key.split_once('\0').map(|(_, real)| Path::new(real))
}

/// What to say about an event's untrusted files.
#[derive(Debug, Default)]
pub struct ToWarn {
    /// The indices of the files to warn about now.
    pub files: Vec<usize>,
    /// Files not read, past [`MAX_HASHED_BYTES`]: their count and bytes.
    pub unread: (usize, u64),
}

/// The `files` to warn about now, recording that they were.
pub fn to_warn(home: &Path, files: &[File<'_>]) -> ToWarn {
    if files.is_empty() {
        return ToWarn::default();
    }
    let sums = crate::cache::Digests::load(&home.join(".hookx").join("warned.sum"), MAX_DIGESTS);
    let digest = digest(files);
    if digest.is_some_and(|d| sums.has(d)) {
        return ToWarn::default();
    }
    let mut record = Warned::load(home);
    let mut all_known = true;
    let warn: Vec<usize> = (0..files.len())
        .filter(|&i| match record.should_warn(&files[i]) {
            Some(warn) => warn,
            None => {
                all_known = false;
                true
            }
        })
        .collect();
    if record.save()
        && all_known
        && let Some(digest) = digest
    {
        sums.with(digest).save();
    }
    ToWarn {
        files: warn,
        unread: record.unread,
    }
}

/// A digest of the files' locations and `FileId`s (and hashes, where known), in order; `None`
/// when one has no settled `FileId`, which promises nothing about its bytes. Paths are not
/// digested: a file renamed or linked anew gets a new ctime, so a new `FileId`.
fn digest(files: &[File<'_>]) -> Option<u64> {
    let mut mix = Mix(files.len() as u64);
    mix.write(crate::hash::BUILD.as_bytes());
    for file in files {
        let id = file.id.filter(|id| id.settled())?;
        mix.write(file.location.as_bytes());
        id.digest_into(&mut mix);
        mix.write(file.sha256.unwrap_or_default().as_bytes());
    }
    Some(mix.finish())
}

/// A fast 64-bit mix (splitmix64's finaliser, word by word): a set of a thousand files digests
/// in microseconds. Not a defence: a collision could only cost a warning about a file that
/// never runs.
struct Mix(u64);

impl Hasher for Mix {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
        self.write_u64(bytes.len() as u64);
    }

    fn write_u64(&mut self, word: u64) {
        let mut z = (self.0 ^ word).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = z ^ (z >> 31);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Seen {
    sha256: String,
    /// `None` when the file had changed too recently for its identity to be relied on.
    id: Option<FileId>,
    /// When the entry was recorded, in the record's own count: the oldest go first.
    #[serde(default)]
    seq: u64,
}

#[derive(Default, Serialize, Deserialize)]
struct RecordFile {
    version: u32,
    #[serde(default)]
    files: HashMap<String, Seen>,
}

const VERSION: u32 = 1;

/// `warned.json`: the record of warnings given, file by file.
#[derive(Debug, Default)]
struct Warned {
    path: PathBuf,
    files: HashMap<String, Seen>,
    /// The keys of the files asked about: never dropped.
    asked: HashSet<String>,
    /// The `seq` of the next entry recorded.
    next: u64,
    dirty: bool,
    /// Bytes read and hashed for this event, at most [`MAX_HASHED_BYTES`].
    hashed: u64,
    /// Files not read for want of that room: their count and bytes.
    unread: (usize, u64),
}

impl Warned {
    /// Loads `<home>/.hookx/warned.json`; missing or unreadable is an empty record.
    fn load(home: &Path) -> Warned {
        let path = home.join(".hookx").join("warned.json");
        let files = crate::read::bytes(&path, crate::read::MAX_FILE_BYTES)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<RecordFile>(&bytes).ok())
            .filter(|r| r.version == VERSION)
            .map(|r| r.files)
            .unwrap_or_default();
        let next = files.values().map(|s| s.seq + 1).max().unwrap_or(0);
        Warned {
            path,
            files,
            asked: HashSet::new(),
            next,
            dirty: false,
            hashed: 0,
            unread: (0, 0),
        }
    }

    /// Whether to warn about `file`: `false` when it was warned about with this content. The
    /// file is read and hashed only if discovery did not and its identity changed. `None` when
    /// it cannot be read: warn, and remember nothing.
    fn should_warn(&mut self, file: &File<'_>) -> Option<bool> {
        let key = file.key();
        self.asked.insert(key.clone());
        let id = file.id.cloned();
        let known = self.files.get(&key);
        if file.sha256.is_none()
            && let (Some(seen), Some(id)) = (known, &id)
            && seen.id.as_ref() == Some(id)
        {
            return Some(false);
        }
        let size = match (file.sha256, &id) {
            (Some(_), _) => 0,
            (None, Some(id)) => id.bytes(),
            (None, None) => std::fs::metadata(file.path).map_or(0, |m| m.len()),
        };
        if self.hashed.saturating_add(size) > MAX_HASHED_BYTES {
            // Not read: warned about, and recorded by its identity alone (even one not
            // settled), so that it is not read nor warned about again while unchanged.
            self.unread = (self.unread.0 + 1, self.unread.1.saturating_add(size));
            let id = id?;
            let warn = known.is_none_or(|seen| seen.id.as_ref() != Some(&id));
            let seen = Seen {
                sha256: String::new(),
                id: Some(id),
                seq: self.next,
            };
            self.next += 1;
            self.files.insert(key, seen);
            self.dirty = true;
            return Some(warn);
        }
        let sha = match file.sha256 {
            Some(sha) => sha.to_string(),
            None => {
                self.hashed += size;
                read_hash(file.path)?
            }
        };
        let settled = id.filter(FileId::settled);
        let warn = known.is_none_or(|seen| seen.sha256 != sha);
        if known.is_none_or(|seen| seen.sha256 != sha || seen.id != settled) {
            let seen = Seen {
                sha256: sha,
                id: settled,
                seq: self.next,
            };
            self.next += 1;
            self.files.insert(key, seen);
            self.dirty = true;
        }
        Some(warn)
    }

    /// Drops entries past [`MAX_ENTRIES`], never those of the files asked about: first those
    /// of files that are gone (all of them past [`GONE_CHECKED_PAST`]), then the oldest
    /// recorded.
    fn evict(&mut self) {
        if self.files.len() > GONE_CHECKED_PAST {
            let asked = &self.asked;
            self.files.retain(|key, _| {
                asked.contains(key) || real_of(key).is_none_or(|real| real.exists())
            });
        }
        let excess = self.files.len().saturating_sub(MAX_ENTRIES);
        if excess == 0 {
            return;
        }
        let mut others: Vec<(bool, u64, &String)> = self
            .files
            .iter()
            .filter(|(key, _)| !self.asked.contains(*key))
            .map(|(key, seen)| {
                let present = real_of(key).is_some_and(|real| real.exists());
                (present, seen.seq, key)
            })
            .collect();
        others.sort_unstable();
        let gone: Vec<String> = others
            .into_iter()
            .take(excess)
            .map(|(_, _, key)| key.clone())
            .collect();
        for key in gone {
            self.files.remove(&key);
        }
    }

    /// Writes the record if anything changed (atomically). Whether the record on disk is now
    /// this one.
    fn save(&mut self) -> bool {
        if !self.dirty {
            return true;
        }
        self.evict();
        let record = RecordFile {
            version: VERSION,
            files: self.files.clone(),
        };
        let Ok(text) = serde_json::to_string(&record) else {
            return false;
        };
        self.path.parent().is_some_and(|dir| {
            crate::config::update::private_dir(dir).is_ok()
                && crate::cache::write_entry(dir, &self.path, &text).is_ok()
        })
    }
}

/// The SHA-256 of a file's bytes; `None` when it is not a regular file of at most
/// [`crate::read::MAX_FILE_BYTES`].
fn read_hash(path: &Path) -> Option<String> {
    let bytes = crate::read::bytes(path, crate::read::MAX_FILE_BYTES).ok()?;
    Some(crate::hash::sha256_hex(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seen(seq: u64) -> Seen {
        Seen {
            sha256: "00".into(),
            id: None,
            seq,
        }
    }

    /// Attacks row 1513: a record of 1 000 worktrees' files, all gone, and one file there: the
    /// next save keeps the file there and the one asked about, not the gone ones.
    #[test]
    fn a_record_past_256_entries_drops_those_of_files_that_are_gone() {
        let dir = tempfile::tempdir().unwrap();
        let present = dir.path().join("present.json");
        std::fs::write(&present, "{}").unwrap();
        let key = |real: &Path| format!("loc\0{}", real.display());
        let mut record = Warned {
            path: dir.path().join("warned.json"),
            dirty: true,
            ..Warned::default()
        };
        for i in 0..1000 {
            let gone = dir.path().join(format!("wt-{i}/.cursor/hooks.json"));
            record.files.insert(key(&gone), seen(i));
        }
        record.files.insert(key(&present), seen(0));
        let asked = key(&dir.path().join("new-wt/.cursor/hooks.json"));
        record.asked.insert(asked.clone());
        record.files.insert(asked.clone(), seen(1000));
        assert!(record.save());
        let bytes = std::fs::metadata(&record.path).unwrap().len();
        assert_eq!(
            record.files.len(),
            2,
            "the record keeps gone files: {bytes} bytes"
        );
        assert!(record.files.contains_key(&asked) && record.files.contains_key(&key(&present)));
        assert!(bytes < 1024, "{bytes} bytes");
    }

    /// Past the bound, the entries of files that are gone go first, then the oldest; those of
    /// the files asked about stay, however many.
    #[test]
    fn the_record_keeps_the_files_asked_about_and_drops_the_gone_and_the_oldest() {
        let dir = tempfile::tempdir().unwrap();
        let present = dir.path().join("present.json");
        std::fs::write(&present, "{}").unwrap();
        let key = |real: &Path| format!("loc\0{}", real.display());
        let mut record = Warned::default();
        // Asked about now: more than the bound on their own.
        for i in 0..MAX_ENTRIES + 10 {
            let k = key(&dir.path().join(format!("asked{i}")));
            record.asked.insert(k.clone());
            record.files.insert(k, seen(1_000_000 + i as u64));
        }
        let old_present = key(&present);
        let new_gone = key(&dir.path().join("gone.json"));
        record.files.insert(old_present.clone(), seen(0));
        record.files.insert(new_gone.clone(), seen(2_000_000));
        record.evict();
        assert_eq!(record.files.len(), MAX_ENTRIES + 10);
        assert!(record.asked.iter().all(|k| record.files.contains_key(k)));

        // With room for one more: the gone file goes, the present one stays, though older.
        record.files.insert(old_present.clone(), seen(0));
        record.files.insert(new_gone.clone(), seen(2_000_000));
        let asked: Vec<String> = record.asked.iter().take(11).cloned().collect();
        for k in &asked {
            record.asked.remove(k);
            record.files.remove(k);
        }
        record.evict();
        assert_eq!(record.files.len(), MAX_ENTRIES);
        assert!(record.files.contains_key(&old_present));
        assert!(!record.files.contains_key(&new_gone));
    }
}
