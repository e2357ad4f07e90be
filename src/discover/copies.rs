//! Private copies of hook scripts: a script is hashed when the event starts and run later by
//! path, so `hookx run` runs a copy of the very bytes it hashed, never what the path holds by
//! then (a script rewritten in between would run unreviewed).
//!
//! Each copy sits alone in a fresh folder only its owner may enter (`tempfile`, 0700, in the
//! temporary directory), under the script's own name and with its mode: `$0` ends in the same
//! name, the handler runs in the same directory as before, and a `#!` line or an interpreter
//! by ending reads it as it read the original. [`remove`] deletes them once the event is
//! answered.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

static COPIES: Mutex<Vec<tempfile::TempDir>> = Mutex::new(Vec::new());

/// A private copy of `bytes`, the content read from the script at `path`, named and moded
/// as it.
pub(super) fn make(path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("a script path without a file name"))?;
    let dir = tempfile::Builder::new().prefix("hookx-script-").tempdir()?;
    let copy = dir.path().join(name);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&copy)?;
    file.write_all(bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)?.permissions().mode() & 0o777;
        // Readable by its owner whatever the original said: an interpreter must read it.
        file.set_permissions(std::fs::Permissions::from_mode(mode | 0o400))?;
    }
    drop(file);
    COPIES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .push(dir);
    Ok(copy)
}

/// Deletes every copy made so far (the event is answered: no handler of it runs any more).
pub fn remove() {
    let copies = std::mem::take(
        &mut *COPIES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()),
    );
    drop(copies);
}
