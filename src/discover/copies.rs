//! Private copies of hook scripts: a script is hashed when the event starts and run later by
//! path, so `hookx run` runs a copy of the very bytes it hashed, never what the path holds by
//! then (a script rewritten in between would run unreviewed).
//!
//! Each copy sits alone in a fresh folder only its owner may enter (`tempfile`, 0700, in the
//! temporary directory), under the script's own name and with its mode: `$0` ends in the same
//! name, the handler runs in the same directory as before, and a `#!` line or an interpreter
//! by ending reads it as it read the original. Beside it, links to the original's neighbours
//! ([`link_neighbours`]): a script that reads a file next to it (`$(dirname "$0")/lib.sh`)
//! reads what it reads where its agent runs it. [`remove`] deletes them once the event is
//! answered.
//!
//! A host may kill hookx mid-event, before it deletes anything. So each folder also holds a
//! lock file ([`LOCK`]) this process keeps an exclusive `flock` on while it lives (a worker it
//! forks shares the lock; no handler inherits it); the first copy a later `hookx run` makes
//! first sweeps the temporary directory of every such folder of this user's whose lock
//! nobody holds any more ([`sweep`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A copy's folder and the open lock file that says its owner still runs.
struct Copy {
    dir: tempfile::TempDir,
    _lock: std::fs::File,
    /// The script's own folder and name ([`move_back`]).
    origin: PathBuf,
    name: std::ffi::OsString,
    /// The neighbours linked beside the copy ([`link_neighbours`]).
    linked: Vec<std::ffi::OsString>,
}

static COPIES: Mutex<Vec<Copy>> = Mutex::new(Vec::new());

/// The prefix of every copy's folder in the temporary directory.
const PREFIX: &str = "hookx-script-";

/// The lock file in a copy's folder.
const LOCK: &str = ".hookx-lock";

/// A folder without a lock file is being made (or was made by a hookx that wrote none): it is
/// left alone until it is this old.
const UNLOCKED_GRACE: std::time::Duration = std::time::Duration::from_secs(600);

/// A private copy of `bytes`, the content read from the script at `path`, named and moded
/// as it.
pub(super) fn make(path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(sweep);
    // `TMPDIR` comes from the environment, which agents fill from a project's settings: one
    // naming a folder that is not there (or not writable) must not make the script
    // "changed" and skipped. The system's own folder is the fallback.
    make_in(&std::env::temp_dir(), path, bytes)
        .or_else(|_| make_in(Path::new(FALLBACK), path, bytes))
}

/// The temporary folder when `TMPDIR`'s cannot hold a copy.
const FALLBACK: &str = "/tmp";

/// [`make`] in the folder `tmp`.
fn make_in(tmp: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("a script path without a file name"))?;
    let dir = tempfile::Builder::new().prefix(PREFIX).tempdir_in(tmp)?;
    let lock = hold(&dir.path().join(LOCK))?;
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
    let linked = link_neighbours(path, bytes, dir.path());
    let origin = path
        .parent()
        .and_then(|p| std::path::absolute(p).ok())
        .unwrap_or_default();
    COPIES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .push(Copy {
            dir,
            _lock: lock,
            origin,
            name: name.to_os_string(),
            linked,
        });
    Ok(copy)
}

/// The most neighbours of a script linked beside its copy, and the most entries of its folder
/// looked at: a folder of more is a repository's doing, or a hook's logs, not its helpers.
const MAX_NEIGHBOURS: usize = 256;
const MAX_ENTRIES: usize = 65_536;

/// Links in `dir` (a copy's folder) to the other entries of the folder `script` is in, by the
/// same name: an agent runs the script by its path, and a guard that reads a helper beside
/// it, not finding it beside its copy, fails and lets the call through (attacks row 152).
/// Those the script names (`bytes`, its text) come first, so that many other files beside it
/// (a logger's, row 165) do not crowd its helpers out. The links lead to what the agent would
/// read (the helper is no more reviewed than there); the script's own bytes stay the copy's.
/// Best effort: a link not made leaves the copy as it was before. Returns the names linked.
fn link_neighbours(script: &Path, bytes: &[u8], dir: &Path) -> Vec<std::ffi::OsString> {
    #[cfg(unix)]
    {
        let Some(folder) = script.parent().and_then(|p| std::path::absolute(p).ok()) else {
            return Vec::new();
        };
        // A script that is a link (a dotfiles folder linked in) may find its helpers beside
        // what it links to (`$(dirname "$(readlink -f "$0")")/lib.sh`, attacks row 234): those
        // come after the link's own neighbours, for the names not already taken.
        let target = std::fs::canonicalize(script)
            .ok()
            .and_then(|t| t.parent().map(Path::to_path_buf))
            .filter(|t| *t != folder);
        let own = script.file_name();
        let text = String::from_utf8_lossy(bytes);
        let mut named = Vec::new();
        let mut others = Vec::new();
        for folder in std::iter::once(folder).chain(target) {
            let Ok(entries) = std::fs::read_dir(&folder) else {
                continue;
            };
            for name in entries.flatten().take(MAX_ENTRIES).map(|e| e.file_name()) {
                if Some(name.as_os_str()) == own || name.to_string_lossy().starts_with(LOCK) {
                    continue;
                }
                let list = match text.contains(name.to_string_lossy().as_ref()) {
                    true => &mut named,
                    false => &mut others,
                };
                list.push((folder.join(&name), name));
            }
        }
        let mut linked = Vec::new();
        for (path, name) in named.into_iter().chain(others) {
            if linked.len() == MAX_NEIGHBOURS {
                break;
            }
            // The first of a name wins: the link fails where it is taken.
            if std::os::unix::fs::symlink(path, dir.join(&name)).is_ok() {
                linked.push(name);
            }
        }
        linked
    }
    #[cfg(not(unix))]
    {
        let _ = (script, bytes, dir);
        Vec::new()
    }
}

/// Creates the lock file at `path` and takes an exclusive lock on it, closed on `exec`. The
/// file is locked under another name and then renamed into place (the lock stays with the open
/// file): a sweep never finds it there unlocked, which would read as a dead owner's.
fn hold(path: &Path) -> std::io::Result<std::fs::File> {
    hold_between(path, &mut || {})
}

/// [`hold`], calling `between` after each of its steps: where another process's [`sweep`]
/// may come in. A test passes one that sweeps; [`hold`] passes nothing.
fn hold_between(path: &Path, between: &mut dyn FnMut()) -> std::io::Result<std::fs::File> {
    let new = path.with_extension("new");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&new)?;
    between();
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        // SAFETY: flock on a descriptor this function owns.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    between();
    std::fs::rename(&new, path)?;
    between();
    Ok(file)
}

/// Deletes the copy folders of this user's left in the temporary directory by a hookx that
/// died before deleting them: those whose lock no process holds.
fn sweep() {
    sweep_in(&std::env::temp_dir());
}

/// [`sweep`] in the folder `tmp`.
#[cfg(unix)]
fn sweep_in(tmp: &Path) {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
    let me = rustix::process::geteuid().as_raw();
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_name().to_string_lossy().starts_with(PREFIX) {
            continue;
        }
        let dir = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&dir) else {
            continue;
        };
        if !meta.is_dir() || meta.uid() != me {
            continue;
        }
        let lock = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(dir.join(LOCK));
        let dead = match &lock {
            // SAFETY: flock on a descriptor this function owns; released when it closes.
            Ok(file) => unsafe {
                libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0
            },
            Err(_) => meta
                .modified()
                .ok()
                .and_then(|m| m.elapsed().ok())
                .is_some_and(|age| age > UNLOCKED_GRACE),
        };
        if dead {
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

#[cfg(not(unix))]
fn sweep_in(_: &Path) {}

/// Leaves the copies to the process that still runs their handlers (the worker of a split
/// run): this one deletes none of them, and they go when that one ends, or at a later sweep.
pub fn leave() {
    let copies = std::mem::take(
        &mut *COPIES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()),
    );
    for copy in copies {
        // The folder stays; the lock closes when this process exits.
        let _ = copy.dir.keep();
    }
}

/// Deletes every copy made so far (the event is answered: no handler of it runs any more),
/// the files a script made beside its copy moved to its own folder first ([`move_back`]).
pub fn remove() {
    let copies = std::mem::take(
        &mut *COPIES
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()),
    );
    for copy in &copies {
        move_back(copy.dir.path(), &copy.origin, &copy.name, &copy.linked);
    }
    drop(copies);
}

/// Moves the regular files and folders a script made beside its copy in `dir` (not the copy,
/// its lock or a link to a neighbour) to the script's own folder `origin`, where its agent
/// would have made them (attacks row 197: a logger's `"$(dirname "$0")/audit.log"` went with
/// the folder, and the log was never written; row 221: the same for `"$here/logs/audit.log"`
/// after a `mkdir -p "$here/logs"`), never over an entry already there, but for a neighbour
/// the script itself replaced: a file where its link was (`mv state.tmp state`, an atomic
/// update; row 230) takes the neighbour's place, as it would have beside the script. At most
/// [`MAX_NEIGHBOURS`] entries in all. Best effort, as the links.
fn move_back(dir: &Path, origin: &Path, own: &std::ffi::OsStr, linked: &[std::ffi::OsString]) {
    let mut left = MAX_NEIGHBOURS;
    carry(dir, origin, Some(own), linked, &mut left);
}

/// [`move_back`] of the entries of the folder `from` into the folder `to`, `own` (the copy)
/// and the lock left out, the neighbours `replaced` over their originals, `left` entries at
/// most.
fn carry(
    from: &Path,
    to: &Path,
    own: Option<&std::ffi::OsStr>,
    replaced: &[std::ffi::OsString],
    left: &mut usize,
) {
    let Ok(entries) = std::fs::read_dir(from) else {
        return;
    };
    for entry in entries.flatten() {
        let Some(rest) = left.checked_sub(1) else {
            return;
        };
        *left = rest;
        let name = entry.file_name();
        if Some(name.as_os_str()) == own || name.to_string_lossy().starts_with(LOCK) {
            continue;
        }
        let (source, target) = (entry.path(), to.join(&name));
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_file() && replaced.contains(&name) {
            // Only over a file: a folder or a link put there since is left as it is.
            if std::fs::symlink_metadata(&target).is_ok_and(|m| m.is_file()) {
                let _ = replace(&source, &target);
            }
            continue;
        }
        // A link where both are on one file system; else a copy. Neither replaces a file.
        if kind.is_file() && std::fs::hard_link(&source, &target).is_err() {
            let _ = new_copy(&source, &target);
        }
        // A folder it made: made there too, never into one already there.
        if kind.is_dir() && std::fs::create_dir(&target).is_ok() {
            carry(&source, &target, None, &[], left);
        }
    }
}

/// A copy of `source` made at `target`, which must not exist.
fn new_copy(source: &Path, target: &Path) -> std::io::Result<u64> {
    let mut out = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(target)?;
    std::io::copy(&mut std::fs::File::open(source)?, &mut out)
}

/// `source` put in `target`'s place in one step: linked or copied beside it under a name of
/// hookx's, then renamed over it.
fn replace(source: &Path, target: &Path) -> std::io::Result<()> {
    let mut name = std::ffi::OsString::from(".");
    name.push(target.file_name().unwrap_or_default());
    name.push(format!(".hookx-{}", std::process::id()));
    let beside = target.with_file_name(name);
    std::fs::hard_link(source, &beside).or_else(|_| new_copy(source, &beside).map(|_| ()))?;
    // Only what this made goes again.
    std::fs::rename(&beside, target).inspect_err(|_| {
        let _ = std::fs::remove_file(&beside);
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Attacks row 52: two `hookx run` at once, B's sweep coming in while A takes the lock of
    /// its fresh copy folder. Whatever step A is at, B leaves A's folder alone; and the same
    /// sweep does delete a folder whose lock nobody holds (so it is a sweep that deletes).
    #[test]
    fn a_sweep_between_any_two_steps_of_taking_the_lock_leaves_the_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let dead = tempfile::Builder::new()
            .prefix(PREFIX)
            .tempdir_in(tmp.path())
            .unwrap()
            .keep();
        std::fs::write(dead.join(LOCK), "").unwrap();
        let live = tempfile::Builder::new()
            .prefix(PREFIX)
            .tempdir_in(tmp.path())
            .unwrap();
        let mut steps = 0;
        let lock = hold_between(&live.path().join(LOCK), &mut || {
            steps += 1;
            sweep_in(tmp.path());
            assert!(
                live.path().is_dir(),
                "a sweep after step {steps} deleted the folder being locked"
            );
        })
        .unwrap();
        assert!(steps >= 2, "{steps} steps");
        assert!(!dead.exists(), "the sweep deleted no dead folder");
        drop(lock);
        // A child another test forks here holds a copy of the descriptor, and so the lock,
        // until it execs: a later sweep takes the folder.
        let swept = (0..100).any(|_| {
            sweep_in(tmp.path());
            let gone = !live.path().exists();
            if !gone {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            gone
        });
        assert!(swept, "unlocked, the folder is a dead one");
    }
}
