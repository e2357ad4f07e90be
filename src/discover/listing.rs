//! The files a location's pattern names below its root, found with as few system calls as
//! the run path can afford: each root listed once ([`Listings`]), one `stat` per file.

use crate::tables::Pattern;
use std::path::{Path, PathBuf};

/// A file a location names.
pub(super) struct Found {
    pub(super) path: PathBuf,
    /// The real path (symlinks resolved).
    pub(super) canonical: Option<PathBuf>,
    /// From the one `stat` discovery makes of it.
    pub(super) meta: std::fs::Metadata,
}

impl Found {
    /// `path` if it is a file (through symlinks); `canonical` is its real path when known (a
    /// file that is not itself a symlink, in a resolved directory), else it is resolved here.
    pub(super) fn at(path: PathBuf, canonical: Option<PathBuf>) -> Option<Found> {
        let meta = std::fs::metadata(&path).ok().filter(|m| m.is_file())?;
        let canonical = canonical.or_else(|| std::fs::canonicalize(&path).ok());
        Some(Found {
            path,
            canonical,
            meta,
        })
    }
}

/// The names directly in each root the locations start from, each listed once: most agents'
/// folders are absent from a given home or project, and a first component that is not there
/// spares the `stat` or `open` of every path below it (a one-rule `hookx run` made 62 of them
/// for 13 agents). Names are compared without ASCII case, so that a case-insensitive file
/// system's `.Claude` still gets its `stat`, which then decides; a root that cannot be listed
/// (no read permission) filters nothing.
#[derive(Default)]
pub(super) struct Listings {
    roots: Vec<(PathBuf, Option<Vec<std::ffi::OsString>>)>,
}

impl Listings {
    /// Whether `pattern` below `root` may name anything: `false` only when the listing shows
    /// its first component, or `root` itself, is not there.
    pub(super) fn may_hold(&mut self, root: &Path, pattern: Pattern) -> bool {
        let first = match pattern {
            Pattern::File(rel) | Pattern::Dir { dir: rel, .. } | Pattern::Sub { dir: rel, .. } => {
                rel
            }
            Pattern::Scripts(dir) => dir,
            Pattern::Plugins => return true,
        };
        let first = first.split('/').next().unwrap_or(first);
        // As bytes: `Path`'s `==` compares component by component, which cost more here than
        // the listings.
        let at = match self
            .roots
            .iter()
            .position(|(r, _)| r.as_os_str() == root.as_os_str())
        {
            Some(at) => at,
            None => {
                self.roots.push((root.to_path_buf(), Self::list(root)));
                self.roots.len() - 1
            }
        };
        match &self.roots[at].1 {
            Some(names) => names
                .iter()
                .any(|n| n.as_encoded_bytes().eq_ignore_ascii_case(first.as_bytes())),
            None => true,
        }
    }

    /// `Some(names)`; `Some(empty)` for a root that does not exist; `None` when it cannot be
    /// told (the root or an entry cannot be read, or it is not a directory).
    fn list(root: &Path) -> Option<Vec<std::ffi::OsString>> {
        match std::fs::read_dir(root) {
            Ok(entries) => entries.map(|e| Some(e.ok()?.file_name())).collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Vec::new()),
            Err(_) => None,
        }
    }
}

/// The files a pattern names below `root` that exist, in a stable order.
pub(super) fn candidates(root: &Path, pattern: Pattern) -> Vec<Found> {
    match pattern {
        Pattern::File(rel) => Found::at(root.join(rel), None).into_iter().collect(),
        Pattern::Dir { dir, suffix } => {
            let dir = root.join(dir);
            let names: Vec<_> = sorted_entries(&dir)
                .into_iter()
                .filter(|(name, _)| {
                    name.to_str()
                        .is_some_and(|n| n.ends_with(suffix) && !n.starts_with('.'))
                })
                .collect();
            let real_dir = resolved_if_any(&dir, &names);
            names
                .into_iter()
                .filter_map(|(name, is_link)| {
                    let real = real_dir.as_deref().filter(|_| !is_link);
                    Found::at(join(&dir, &name), real.map(|d| join(d, &name)))
                })
                .collect()
        }
        Pattern::Sub { dir, name } => {
            let dir = root.join(dir);
            sorted_entries(&dir)
                .into_iter()
                .filter_map(|(sub, _)| Found::at(join(&dir, &sub).join(name), None))
                .collect()
        }
        Pattern::Scripts(dir) => {
            let dir = root.join(dir);
            let names: Vec<_> = sorted_entries(&dir)
                .into_iter()
                .filter(|(name, _)| !name.as_encoded_bytes().starts_with(b"."))
                .collect();
            let real_dir = resolved_if_any(&dir, &names);
            names
                .into_iter()
                .filter_map(|(name, is_link)| {
                    let real = real_dir.as_deref().filter(|_| !is_link);
                    Found::at(join(&dir, &name), real.map(|d| join(d, &name)))
                })
                .collect()
        }
        // Found through the registries, once the settings are read (see `discover_with`).
        Pattern::Plugins => Vec::new(),
    }
}

/// `dir`'s real path, resolved only when it holds candidates: most folders a location names do
/// not exist, and resolving costs a `readlink` per component of the path.
fn resolved_if_any<T>(dir: &Path, names: &[T]) -> Option<PathBuf> {
    if names.is_empty() {
        return None;
    }
    std::fs::canonicalize(dir).ok()
}

/// `dir/name` in one allocation (`Path::join` grows its buffer a second time).
fn join(dir: &Path, name: &std::ffi::OsStr) -> PathBuf {
    let mut path = std::ffi::OsString::with_capacity(dir.as_os_str().len() + 1 + name.len());
    path.push(dir.as_os_str());
    path.push(std::path::MAIN_SEPARATOR_STR);
    path.push(name);
    PathBuf::from(path)
}

/// The names in a directory in byte order, each with whether it is a symlink (from the
/// directory listing: no `stat`). Names, not paths: comparing whole paths component by component
/// cost `hookx run` more than anything else in a folder of a thousand files.
fn sorted_entries(dir: &Path) -> Vec<(std::ffi::OsString, bool)> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<(std::ffi::OsString, bool)> = read
        .filter_map(|e| {
            let e = e.ok()?;
            let is_link = e.file_type().map_or(true, |t| t.is_symlink());
            Some((e.file_name(), is_link))
        })
        .collect();
    names.sort_unstable_by(|a, b| a.0.as_encoded_bytes().cmp(b.0.as_encoded_bytes()));
    names
}

#[cfg(test)]
mod tests {
    use super::{Listings, Pattern};

    #[test]
    fn a_first_component_missing_from_the_listing_spares_its_paths() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join(".Claude")).unwrap();
        let mut listed = Listings::default();
        // Compared without case: a case-insensitive file system would find `.claude` there.
        assert!(listed.may_hold(root.path(), Pattern::File(".claude/settings.json")));
        assert!(!listed.may_hold(root.path(), Pattern::File(".factory/settings.json")));
        assert!(!listed.may_hold(
            root.path(),
            Pattern::Dir {
                dir: ".github/hooks",
                suffix: ".json"
            }
        ));
        assert!(listed.may_hold(root.path(), Pattern::Plugins));
        let missing = root.path().join("no-such-root");
        assert!(!listed.may_hold(&missing, Pattern::File("hooks.json")));
        // A root that is a file cannot be listed: nothing is filtered, the `stat` decides.
        let file = root.path().join("file");
        std::fs::write(&file, "").unwrap();
        assert!(listed.may_hold(&file, Pattern::File("hooks.json")));
    }
}
