//! Whether a policy file is root's alone: an agent that skips a policy file others could have
//! written ([`crate::tables::ManagedSpec::root_owned_only`]) is followed, and hookx does not
//! read it either.

use std::path::{Path, PathBuf};

/// Why a policy file may have been written by someone other than root: the file, a folder
/// above it, or a symlink on its way, as given or as resolved, that is not root's or that
/// group or others may write (the checks of Gemini CLI 0.61.0 `isFileAndDirectorySecureSync`).
#[derive(Debug)]
pub struct OthersCouldWrite {
    /// The file, folder or symlink at fault.
    pub path: PathBuf,
    /// Its owner, when root is not.
    pub owner: Option<u32>,
    /// Its permission bits, when group or others may write it.
    pub mode: Option<u32>,
}

impl OthersCouldWrite {
    /// The first fault on the way to `file`, if any: each folder from `/` down, then the file,
    /// then the same along its real path when symlinks lead elsewhere.
    #[cfg(unix)]
    pub fn find(file: &Path) -> Option<OthersCouldWrite> {
        let real = std::fs::canonicalize(file).ok();
        let paths = |p: &Path| -> Vec<PathBuf> {
            let mut all: Vec<PathBuf> = p.ancestors().map(Path::to_path_buf).collect();
            all.reverse();
            all
        };
        let mut order = paths(file);
        if let Some(real) = real.filter(|r| r != file) {
            order.extend(paths(&real));
        }
        order.iter().find_map(|p| OthersCouldWrite::of(p))
    }

    #[cfg(not(unix))]
    pub fn find(_file: &Path) -> Option<OthersCouldWrite> {
        None
    }

    /// One path's fault: a symlink not root's, or what it names (or it) not root's or
    /// writable by group or others. A path that cannot be read is no fault here: reading the
    /// file fails on its own.
    #[cfg(unix)]
    fn of(path: &Path) -> Option<OthersCouldWrite> {
        use std::os::unix::fs::MetadataExt;
        let fault = |meta: &std::fs::Metadata| {
            let owner = (meta.uid() != 0).then_some(meta.uid());
            let mode = (meta.mode() & 0o022 != 0).then_some(meta.mode() & 0o7777);
            (owner.is_some() || mode.is_some()).then(|| OthersCouldWrite {
                path: path.to_path_buf(),
                owner,
                mode,
            })
        };
        let link = std::fs::symlink_metadata(path).ok()?;
        if link.file_type().is_symlink() && link.uid() != 0 {
            return Some(OthersCouldWrite {
                path: path.to_path_buf(),
                owner: Some(link.uid()),
                mode: None,
            });
        }
        fault(&std::fs::metadata(path).ok()?)
    }

    /// The commands that remove the fault.
    pub fn fix(&self) -> String {
        let path = self.path.display();
        let mut steps = Vec::new();
        if self.owner.is_some() {
            steps.push(format!("sudo chown -h root:root '{path}'"));
        }
        if self.mode.is_some() {
            steps.push(format!("sudo chmod g-w,o-w '{path}'"));
        }
        steps.join(" && ")
    }
}

impl std::fmt::Display for OthersCouldWrite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut faults = Vec::new();
        if let Some(uid) = self.owner {
            faults.push(format!("owned by uid {uid}, not root"));
        }
        if let Some(mode) = self.mode {
            faults.push(format!("writable by group or others (mode {mode:o})"));
        }
        write!(f, "{} is {}", self.path.display(), faults.join(" and "))
    }
}
