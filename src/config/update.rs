//! The one way hookx changes a file on disk ([`update`]): through symlinks, under a directory
//! lock, by an atomic rename.

use crate::error::Error;
use std::path::Path;
use std::time::{Duration, Instant};

/// The longest `hookx run` waits for a lock of its own state (a claim record, a session's
/// count of follow-ups). A run holds one only while it reads and writes a few lines; one held
/// longer has a holder that may never let go (a run stopped by SIGSTOP in that instant, any
/// process of the account), and waiting on it would keep the host waiting for an answer
/// until it gave up (attacks rows 500, 902).
pub const RUN_LOCK_WAIT: Duration = Duration::from_millis(500);

/// Locks `file` within [`RUN_LOCK_WAIT`], or fails.
pub fn lock_briefly(file: &std::fs::File) -> std::io::Result<()> {
    let until = Instant::now() + RUN_LOCK_WAIT;
    loop {
        match file.try_lock() {
            Err(std::fs::TryLockError::WouldBlock) if Instant::now() < until => {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::WouldBlock,
                    format!(
                        "another process has held its lock for over {} ms",
                        RUN_LOCK_WAIT.as_millis()
                    ),
                ));
            }
            locked => return locked.map_err(Into::into),
        }
    }
}

/// What an edit decided to do with the file it was shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Leave the file as it is.
    Keep,
    /// Replace its content (a no-op when the text is what the file already holds).
    Write(String),
    /// Delete it.
    Delete,
}

/// What [`update`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Unchanged,
    Written,
    Deleted,
}

/// The one way hookx changes a file (install, uninstall, `convert --out/--write`, trust).
///
/// * A symlink is written through: the file it points to changes, the link stays (a dotfiles
///   setup keeps working). Dangling links are followed too, and the file is created there.
/// * The read-modify-write runs under an advisory lock on the file's directory (`flock(2)` on
///   Unix; a lock file beside it elsewhere), so concurrent hookx runs keep every change.
/// * `edit` gets the current text (`None` when there is no file) and says what to do; text
///   equal to the current one is not rewritten (no new mtime).
/// * The new text goes to a temporary file in the same directory, then renamed over the old
///   one: readers see the old file or the new one, never half of one. An existing file keeps
///   its mode; a new one gets the umask's (as `touch` would).
/// * The host and the user write these files too, without hookx's lock (Claude Code its
///   `permissions`, Gemini CLI and Codex their MCP servers): just before the rename the file is
///   read again, and when it is no longer what `edit` was shown, `edit` is run again on what
///   it holds now, so that their write is kept (attacks row 1240). After [`RETRIES`] such
///   rounds the write fails, nothing written.
pub fn update(
    path: &Path,
    edit: impl FnMut(Option<&str>) -> Result<Change, Error>,
) -> Result<Outcome, Error> {
    update_as(path, 0o666, Lock::Wait, Writers::Others, edit)
}

/// [`update`] of a file whose host locks it while writing it: `flock` of the file named by
/// the file's path with `host_lock` added (Copilot CLI's `settings.json.lock`), where the host
/// made it, taken after hookx's own lock and held until the new text is in place, so that no
/// write of the host's lands between hookx's read and its rename (attacks row 1250).
pub fn update_under_host_lock(
    path: &Path,
    host_lock: Option<&str>,
    edit: impl FnMut(Option<&str>) -> Result<Change, Error>,
) -> Result<Outcome, Error> {
    let Some(ending) = host_lock else {
        return update(path, edit);
    };
    // Named as the host names it, from the path it opens (a linked file's too).
    let mut lock = path.as_os_str().to_owned();
    lock.push(ending);
    update_as(
        path,
        0o666,
        Lock::Wait,
        Writers::Host(Path::new(&lock)),
        edit,
    )
}

/// How many times [`update`] edits a file again that another program changed meanwhile.
pub const RETRIES: usize = 5;

/// Who else writes a file [`update_as`] writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Writers<'a> {
    /// Programs that take no lock of hookx's (the host, an editor): checked before the rename.
    Others,
    /// The host, under its lock on this file, which hookx takes too; others as [`Self::Others`].
    Host(&'a Path),
    /// hookx alone, under its folder's lock (its own state, 0600 in a 0700 folder): nothing
    /// to check, and `hookx run` reads no file more.
    HookxOnly,
}

/// How [`update_as`] takes its folder's lock.
#[derive(Clone, Copy)]
enum Lock {
    /// As long as it takes: a command the user runs, which they see waiting.
    Wait,
    /// Within [`RUN_LOCK_WAIT`], else an error: state `hookx run` keeps, whose host waits.
    Briefly,
}

/// [`update`] for a file only its owner may read or write (hookx's trust record): a new file
/// is created 0600, and a new folder for it 0700, whatever the umask (`hookx run` refuses a
/// record group or others could write). An existing file keeps its mode.
pub fn update_private(
    path: &Path,
    edit: impl FnOnce(Option<&str>) -> Result<Change, Error>,
) -> Result<Outcome, Error> {
    make_private_folder(path)?;
    update_as(path, 0o600, Lock::Wait, Writers::HookxOnly, once(edit))
}

/// `edit` as the `FnMut` [`update_as`] takes, for a file only hookx writes: it runs once.
fn once(
    edit: impl FnOnce(Option<&str>) -> Result<Change, Error>,
) -> impl FnMut(Option<&str>) -> Result<Change, Error> {
    let mut edit = Some(edit);
    move |current| edit.take().map_or(Ok(Change::Keep), |edit| edit(current))
}

/// Makes the folder of `path` 0700, where it is missing.
fn make_private_folder(path: &Path) -> Result<(), Error> {
    if let Some(dir) = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !d.exists())
    {
        private_dir(dir).map_err(|e| Error::Io {
            path: dir.display().to_string(),
            message: e.to_string(),
        })?;
    }
    Ok(())
}

/// Makes `dir`, and each folder above it that is missing, 0700 (one already there is left as
/// it is): hookx's own state (`~/.hookx` and its `cache/`, `claims/`) holds what the user's
/// hook files say and when they ran, for no other account to read.
pub fn private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// [`update_private`] for state `hookx run` keeps: the folder's lock is waited for at most
/// [`RUN_LOCK_WAIT`] (attacks row 902: a session's count of follow-ups waited without end on a
/// folder whose lock a stopped process held, and the Stop went unanswered).
pub fn update_private_briefly(
    path: &Path,
    edit: impl FnOnce(Option<&str>) -> Result<Change, Error>,
) -> Result<Outcome, Error> {
    make_private_folder(path)?;
    update_as(path, 0o600, Lock::Briefly, Writers::HookxOnly, once(edit))
}

fn update_as(
    path: &Path,
    new_mode: u32,
    lock: Lock,
    writers: Writers,
    edit: impl FnMut(Option<&str>) -> Result<Change, Error>,
) -> Result<Outcome, Error> {
    let real = resolve_links(path)?;
    let shown = path.display().to_string();
    let dir = match real.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    // The folders made here for the file, deepest first: taken out again (when still empty)
    // where nothing is written into them (attacks row 258: an install with nothing to route
    // left the host's empty folders behind).
    let made: Vec<std::path::PathBuf> = dir
        .ancestors()
        .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
        .map(Path::to_path_buf)
        .collect();
    std::fs::create_dir_all(&dir).map_err(|e| Error::Io {
        path: dir.display().to_string(),
        message: e.to_string(),
    })?;
    let _lock = lock_dir(&dir, lock).map_err(|e| Error::Io {
        path: dir.display().to_string(),
        message: format!("cannot lock the directory for writing: {e}"),
    })?;
    // Another writer may have taken the folder out while this one waited for its lock.
    std::fs::create_dir_all(&dir).map_err(|e| Error::Io {
        path: dir.display().to_string(),
        message: e.to_string(),
    })?;
    let _host_lock = match writers {
        Writers::Host(file) => lock_host(file).map_err(|e| Error::Io {
            path: file.display().to_string(),
            message: format!("cannot take the host's lock on {shown}: {e}"),
        })?,
        _ => None,
    };
    let outcome = edit_locked(&real, &dir, &shown, (new_mode, writers), edit);
    if !matches!(outcome, Ok(Outcome::Written)) {
        // Under the lock, so that a writer waiting for it finds the folder gone and makes it.
        for folder in &made {
            let _ = std::fs::remove_dir(folder);
        }
    }
    outcome
}

/// [`update_as`] in the folder `dir` that holds `real`, under its lock: `edit` run on the
/// file's text, again while another program changed it before hookx's change landed.
fn edit_locked(
    real: &Path,
    dir: &Path,
    shown: &str,
    (new_mode, writers): (u32, Writers),
    mut edit: impl FnMut(Option<&str>) -> Result<Change, Error>,
) -> Result<Outcome, Error> {
    let io = |e: std::io::Error| Error::Io {
        path: shown.to_string(),
        message: e.to_string(),
    };
    let read = || match crate::read::bytes(real, crate::read::MAX_FILE_BYTES) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(e)),
    };
    let mut current = read()?;
    for round in 0..=RETRIES {
        let text = match &current {
            Some(bytes) => Some(std::str::from_utf8(bytes).map_err(|_| Error::Io {
                path: shown.to_string(),
                message: "is not UTF-8 text; hookx does not write into it".into(),
            })?),
            None => None,
        };
        let change = match edit(text)? {
            Change::Keep => return Ok(Outcome::Unchanged),
            Change::Write(new) if text == Some(new.as_str()) => return Ok(Outcome::Unchanged),
            Change::Delete if text.is_none() => return Ok(Outcome::Unchanged),
            change => change,
        };
        let tmp = match &change {
            Change::Write(new) => Some(temporary(real, dir, new, new_mode).map_err(io)?),
            _ => None,
        };
        if writers != Writers::HookxOnly {
            injected_before_rename(real, round);
            let now = read()?;
            if now != current {
                current = now;
                continue;
            }
        }
        return match tmp {
            Some(tmp) => {
                tmp.persist(real).map_err(|e| io(e.error))?;
                Ok(Outcome::Written)
            }
            None => {
                std::fs::remove_file(real).map_err(io)?;
                Ok(Outcome::Deleted)
            }
        };
    }
    Err(Error::Io {
        path: shown.to_string(),
        message: format!(
            "another program changed it each of the {} times hookx was about to write it; \
             nothing written: run the command again once it is done",
            RETRIES + 1
        ),
    })
}

/// Debug builds only: `HOOKX_TEST_BEFORE_RENAME=COMMAND` makes [`update`] run COMMAND
/// (`/bin/sh -c`; the file in `HOOKX_TEST_RENAMING`, the round from 0 in `HOOKX_TEST_ROUND`)
/// each time its new text is ready to be renamed into place, so that the tests can write the
/// file as a host would in that moment.
fn injected_before_rename(real: &Path, round: usize) {
    #[cfg(debug_assertions)]
    if let Some(command) = std::env::var_os("HOOKX_TEST_BEFORE_RENAME") {
        let _ = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(command)
            .env("HOOKX_TEST_RENAMING", real)
            .env("HOOKX_TEST_ROUND", round.to_string())
            .status();
    }
    #[cfg(not(debug_assertions))]
    let _ = (real, round);
}

/// Whether the file at `path` below `root` (the home, the project) is reached through a
/// symbolic link, its own or one of its folders': the user put it there (a dotfiles setup), so
/// hookx empties it rather than deleting it, even a file install once created (attacks row 280:
/// the last uninstall deleted the user's dotfiles file, the link left dangling).
pub fn linked_in(root: &Path, path: &Path) -> bool {
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return true;
    }
    let (Ok(root_real), Some(dir)) = (root.canonicalize(), path.parent()) else {
        return false;
    };
    let Ok(below) = dir.strip_prefix(root) else {
        return false;
    };
    dir.canonicalize().is_ok_and(|d| d != root_real.join(below))
}

/// `change` to the file at `path` below `root`, except that where it deletes a file reached
/// through a link ([`linked_in`]) it writes `emptied` there instead: a file of hookx's own the
/// user linked in from a dotfiles folder keeps its link and the file it names (attacks rows
/// 280, 292).
pub fn keeping_links(
    root: &Path,
    path: &Path,
    change: Change,
    emptied: impl FnOnce() -> String,
) -> Change {
    match change {
        Change::Delete if linked_in(root, path) => Change::Write(emptied()),
        change => change,
    }
}

/// Writes `text` to `path` whole, through [`update`].
pub fn write_atomic(path: &Path, text: &str) -> Result<(), Error> {
    update(path, |_| Ok(Change::Write(text.to_string()))).map(|_| ())
}

/// The file a path finally names, following symlinks (also a dangling last one), so that
/// writing replaces that file and not the link.
fn resolve_links(path: &Path) -> Result<std::path::PathBuf, Error> {
    let mut current = path.to_path_buf();
    // As many links as Linux follows (MAXSYMLINKS); more is a loop.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&current).map_err(|e| Error::Io {
                    path: current.display().to_string(),
                    message: e.to_string(),
                })?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(Error::Io {
        path: path.display().to_string(),
        message: "too many levels of symbolic links".into(),
    })
}

/// An exclusive advisory lock held until dropped: on the directory itself where it can be
/// opened as a file (Unix), else on a lock file in it.
fn lock_dir(dir: &Path, lock: Lock) -> std::io::Result<std::fs::File> {
    #[cfg(unix)]
    let file = std::fs::File::open(dir)?;
    #[cfg(not(unix))]
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(".hookx.lock"))?;
    match lock {
        Lock::Wait => file.lock()?,
        Lock::Briefly => lock_briefly(&file)?,
    }
    Ok(file)
}

/// The host's lock file `file`, held (`flock`) until dropped; none where the host never made
/// it (it has not written the file since: hookx leaves no lock file of its own behind, which
/// would keep a folder install made from going with the uninstall).
fn lock_host(file: &Path) -> std::io::Result<Option<std::fs::File>> {
    let lock = match std::fs::OpenOptions::new().write(true).open(file) {
        Ok(lock) => lock,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    lock.lock()?;
    Ok(Some(lock))
}

/// A new file in `dir` holding `text`, with the mode of `real` where it exists, synced: to be
/// renamed over `real`.
fn temporary(
    real: &Path,
    dir: &Path,
    text: &str,
    new_mode: u32,
) -> std::io::Result<tempfile::NamedTempFile> {
    use std::io::Write;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".hookx-");
    // The kernel applies the umask to a new file's mode (0666, as for any file a program
    // creates), and `update_private` asks for 0600.
    #[cfg(unix)]
    let create_mode = std::os::unix::fs::PermissionsExt::from_mode(new_mode);
    #[cfg(not(unix))]
    let _ = new_mode;
    #[cfg(unix)]
    builder.permissions(create_mode);
    let mut tmp = builder.tempfile_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    if let Ok(meta) = std::fs::metadata(real) {
        keep_owner(&tmp, &meta);
        std::fs::set_permissions(tmp.path(), meta.permissions())?;
    }
    tmp.as_file().sync_all()?;
    Ok(tmp)
}

/// Gives the new file the owner and group of the file it replaces, where they differ and hookx
/// may (root): a `sudo hookx install` into a user's home left their `0600` settings root's,
/// and the user's own agent could no longer read them (attacks row 1243). Anyone else keeps
/// the file as their own, as an editor that renames does.
fn keep_owner(tmp: &tempfile::NamedTempFile, was: &std::fs::Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let now = tmp.as_file().metadata();
        if now.is_ok_and(|now| (now.uid(), now.gid()) != (was.uid(), was.gid())) {
            let _ = std::os::unix::fs::fchown(tmp.as_file(), Some(was.uid()), Some(was.gid()));
        }
    }
    #[cfg(not(unix))]
    let _ = (tmp, was);
}
