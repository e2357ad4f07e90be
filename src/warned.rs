//! Which untrusted files `hookx run` has already warned about, so that it warns once per file
//! and content, and an unchanged untrusted file costs an event no more than a `stat`.
//!
//! The record lives in `<home>/.hookx/warned.json`, beside the trust record. Each entry is keyed
//! by the identity a file was found as (its location and real path, see [`crate::trust`]) and
//! holds the SHA-256 of the content warned about and the file's [`FileId`] when it was hashed.
//! A file whose `FileId` is unchanged has unchanged bytes (see [`crate::cache`]): it is not
//! read again. One whose `FileId` changed is read and hashed (never parsed); it is warned about
//! again only when the hash differs. The record is best effort: if it cannot be read or
//! written, hookx warns again, which is the safe side.

use crate::cache::FileId;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Entries kept; past this, the record starts afresh (files warned about again, once).
const MAX_ENTRIES: usize = 4096;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Seen {
    sha256: String,
    /// `None` when the file had changed too recently for its identity to be relied on.
    id: Option<FileId>,
}

#[derive(Default, Serialize, Deserialize)]
struct RecordFile {
    version: u32,
    #[serde(default)]
    files: HashMap<String, Seen>,
}

const VERSION: u32 = 1;

/// The record of warnings given, loaded once per run.
#[derive(Debug, Default)]
pub struct Warned {
    path: PathBuf,
    files: HashMap<String, Seen>,
    dirty: bool,
}

impl Warned {
    /// Loads `<home>/.hookx/warned.json`; missing or unreadable is an empty record.
    pub fn load(home: &Path) -> Warned {
        let path = home.join(".hookx").join("warned.json");
        let files = std::fs::read(&path)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<RecordFile>(&bytes).ok())
            .filter(|r| r.version == VERSION)
            .map(|r| r.files)
            .unwrap_or_default();
        Warned {
            path,
            files,
            dirty: false,
        }
    }

    /// Whether to warn about the file `key` names, found at `path` with identity `id`:
    /// `false` when it was warned about with this content. `sha256` is its hash when the caller
    /// already has one; otherwise the file is read and hashed only if its identity changed.
    pub fn should_warn(
        &mut self,
        key: &str,
        path: &Path,
        id: Option<&FileId>,
        sha256: Option<&str>,
    ) -> bool {
        let id = id.cloned();
        let known = self.files.get(key);
        if sha256.is_none()
            && let (Some(seen), Some(id)) = (known, &id)
            && seen.id.as_ref() == Some(id)
        {
            return false;
        }
        let sha = match sha256 {
            Some(sha) => sha.to_string(),
            None => match read_hash(path) {
                Some(sha) => sha,
                // Unreadable: warn, and remember nothing.
                None => return true,
            },
        };
        let settled = id.filter(FileId::settled);
        let warn = known.is_none_or(|seen| seen.sha256 != sha);
        let seen = Seen {
            sha256: sha,
            id: settled,
        };
        if self.files.get(key) != Some(&seen) {
            if self.files.len() >= MAX_ENTRIES {
                self.files.clear();
            }
            self.files.insert(key.to_string(), seen);
            self.dirty = true;
        }
        warn
    }

    /// Writes the record if anything changed (atomically; errors are ignored).
    pub fn save(&self) {
        if !self.dirty {
            return;
        }
        let record = RecordFile {
            version: VERSION,
            files: self.files.clone(),
        };
        let Ok(text) = serde_json::to_string(&record) else {
            return;
        };
        if let Some(dir) = self.path.parent()
            && std::fs::create_dir_all(dir).is_ok()
        {
            let _ = crate::cache::write_entry(dir, &self.path, &text);
        }
    }
}

/// The SHA-256 of a file's bytes, read up to [`crate::source::MAX_FILE_BYTES`].
fn read_hash(path: &Path) -> Option<String> {
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    file.take(crate::source::MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(crate::discover::sha256_hex(&bytes))
}
