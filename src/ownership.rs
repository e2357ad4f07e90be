//! Who could have written a file: its owner and its permission bits, and those of the folders
//! above it. hookx honours a policy file, and its own trust record, only where no other
//! account could have written them ([`OthersCouldWrite`]); and the user's account says where
//! the user's home is ([`account_home`]), whatever the environment says.

use std::path::{Path, PathBuf};

/// Whose files are trusted not to have been written by someone else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owners {
    /// Root's alone, and writable by neither group nor others, a sticky folder included: an
    /// agent's own rule for its policy files (Gemini CLI 0.61.0 `isFileAndDirectorySecureSync`).
    Root,
    /// Root's or this process's user's, and writable by neither group nor others, except a
    /// folder with the sticky bit (`/tmp`), where others cannot replace what is not theirs:
    /// hookx's own rule, for policy files whose agent has none and for its trust record.
    RootOrYou,
}

/// Why a file may have been written by another account: the file, a folder above it, or a
/// symlink on its way, as given or as resolved, that is owned by another account or that group
/// or others may write.
#[derive(Debug)]
pub struct OthersCouldWrite {
    /// The file, folder or symlink at fault.
    pub path: PathBuf,
    /// Its owner, when it is not one [`OthersCouldWrite::rule`] allows.
    pub owner: Option<u32>,
    /// Its permission bits, when group or others may write it.
    pub mode: Option<u32>,
    /// The rule it breaks.
    pub rule: Owners,
}

impl OthersCouldWrite {
    /// The first fault on the way to `file`, if any: each folder from `/` down, then the file,
    /// then the same along its real path when symlinks lead elsewhere.
    pub fn find(file: &Path, rule: Owners) -> Option<OthersCouldWrite> {
        let mut order: Vec<PathBuf> = file.ancestors().map(Path::to_path_buf).collect();
        order.reverse();
        Self::first(order, rule)
    }

    /// The first fault among `paths`, in order, then along the real path of the last of them
    /// when symlinks lead elsewhere.
    pub fn first(paths: Vec<PathBuf>, rule: Owners) -> Option<OthersCouldWrite> {
        let mut order = paths;
        if let Some(last) = order.last()
            && let Ok(real) = std::fs::canonicalize(last)
            && &real != last
        {
            let mut along: Vec<PathBuf> = real.ancestors().map(Path::to_path_buf).collect();
            along.reverse();
            order.extend(along);
        }
        order.iter().find_map(|p| OthersCouldWrite::of(p, rule))
    }

    /// One path's fault: a symlink not owned as the rule says, or what it names (or it) owned
    /// by another account or writable by group or others. A path that cannot be read is no
    /// fault here: reading the file fails on its own.
    #[cfg(unix)]
    pub fn of(path: &Path, rule: Owners) -> Option<OthersCouldWrite> {
        use std::os::unix::fs::MetadataExt;
        let me = rustix::process::geteuid().as_raw();
        let allowed = |uid: u32| uid == 0 || (rule == Owners::RootOrYou && uid == me);
        let link = std::fs::symlink_metadata(path).ok()?;
        if link.file_type().is_symlink() && !allowed(link.uid()) {
            return Some(OthersCouldWrite {
                path: path.to_path_buf(),
                owner: Some(link.uid()),
                mode: None,
                rule,
            });
        }
        let meta = std::fs::metadata(path).ok()?;
        let sticky_folder = meta.is_dir() && meta.mode() & 0o1000 != 0;
        let writable = meta.mode() & 0o022 != 0 && !(rule == Owners::RootOrYou && sticky_folder);
        let owner = (!allowed(meta.uid())).then_some(meta.uid());
        let mode = writable.then_some(meta.mode() & 0o7777);
        (owner.is_some() || mode.is_some()).then(|| OthersCouldWrite {
            path: path.to_path_buf(),
            owner,
            mode,
            rule,
        })
    }

    #[cfg(not(unix))]
    pub fn of(_path: &Path, _rule: Owners) -> Option<OthersCouldWrite> {
        None
    }

    /// The commands that remove the fault.
    pub fn fix(&self) -> String {
        let path = format!("'{}'", self.path.display());
        let mut steps = Vec::new();
        if self.owner.is_some() {
            steps.push(match self.rule {
                Owners::Root => format!("sudo chown -h root:root {path}"),
                Owners::RootOrYou => format!("sudo chown -h \"$(id -u)\" {path}"),
            });
        }
        if self.mode.is_some() {
            steps.push(match (self.rule, self.owner) {
                (Owners::RootOrYou, None) => format!("chmod g-w,o-w {path}"),
                _ => format!("sudo chmod g-w,o-w {path}"),
            });
        }
        steps.join(" && ")
    }
}

impl std::fmt::Display for OthersCouldWrite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut faults = Vec::new();
        if let Some(uid) = self.owner {
            faults.push(match self.rule {
                Owners::Root => format!("owned by uid {uid}, not root"),
                Owners::RootOrYou => format!("owned by uid {uid}, neither root nor you"),
            });
        }
        if let Some(mode) = self.mode {
            faults.push(format!("writable by group or others (mode {mode:o})"));
        }
        write!(f, "{} is {}", self.path.display(), faults.join(" and "))
    }
}

/// The home directory of this process's user in the account database (`getpwuid`), not
/// `$HOME`; `None` where there is no such entry.
#[cfg(unix)]
pub fn account_home() -> Option<PathBuf> {
    use std::ffi::CStr;
    use std::os::unix::ffi::OsStrExt;
    let uid = rustix::process::geteuid().as_raw();
    let mut buf = vec![0u8; 16 * 1024];
    // SAFETY: a zeroed `passwd` is a valid out-parameter; `getpwuid_r` fills it with pointers
    // into `buf`, which outlives every use of them below.
    let mut entry: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    let rc = unsafe {
        libc::getpwuid_r(
            uid,
            &mut entry,
            buf.as_mut_ptr().cast(),
            buf.len(),
            &mut found,
        )
    };
    if rc != 0 || found.is_null() || entry.pw_dir.is_null() {
        return None;
    }
    // SAFETY: `pw_dir` is a NUL-terminated string in `buf`.
    let dir = unsafe { CStr::from_ptr(entry.pw_dir) };
    let dir = Path::new(std::ffi::OsStr::from_bytes(dir.to_bytes()));
    (!dir.as_os_str().is_empty()).then(|| dir.to_path_buf())
}

#[cfg(not(unix))]
pub fn account_home() -> Option<PathBuf> {
    None
}
