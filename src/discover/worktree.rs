//! Trust that follows a file into another worktree of its repository (attacks rows 1660-1666).
//!
//! A git worktree (`git worktree add`, Claude Code's `--worktree`, which makes one at
//! `<project>/.claude/worktrees/NAME`) checks the reviewed hook files out at a new path, where
//! their identity is new: skipped under every other host, a team's guard denied nothing in any
//! worktree. So a project file with no record of its own is taken as trusted
//! ([`super::Twin`]) when
//! all of this holds:
//! - a record trusts the file at the same place below another checkout, at the same location;
//! - both checkouts are worktrees of one repository, as git's own records in it say both ways
//!   ([`repository`]): a folder of anyone's cannot claim to be a worktree of the user's;
//! - the file there is, now, exactly the bytes here, and the record trusts them;
//! - every file its commands name below the project (`sh .gemini/hooks/guard.sh`,
//!   `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.py`) is the same bytes there, or absent in both.
//!
//! So hookx runs in the worktree only what it would run in the trusted checkout now. A copy
//! (`cp -r`), a clone or a moved project is another repository, or no record's: not followed.

use super::source::Source;
use crate::model::HandlerKind;
use crate::tables::{Dialect, Document, Root};
use crate::trust::{Record, TrustStore};
use std::path::{Path, PathBuf};

/// Git's folder (or file) at a checkout's root.
const DOT_GIT: &str = ".git";
/// The files git keeps of a linked worktree in the repository's `worktrees/NAME`: where its
/// `.git` file is, and where the repository's common folder is.
const BACK: &str = "gitdir";
const COMMON: &str = "commondir";
/// The repository's folder that holds its linked worktrees' records.
const WORKTREES: &str = "worktrees";
/// At most this many words of a file's commands are looked up; a file with more is not
/// followed.
const MAX_WORDS: usize = 512;

/// The real path of the repository (its common git folder) that the checkout at `root` is a
/// worktree of, when git's records say so both ways: `root/.git` is the repository's folder
/// itself (the main worktree), or a file naming `worktrees/NAME` whose own `gitdir` names
/// `root/.git` back, and that folder is in the repository's `worktrees/`. A submodule, a
/// `.git` file of anyone's naming the user's repository, or records of the folder's own
/// naming it as their common folder, is none.
pub fn repository(root: &Path) -> Option<PathBuf> {
    let dot = root.join(DOT_GIT);
    let meta = std::fs::symlink_metadata(&dot).ok()?;
    if meta.is_dir() {
        return std::fs::canonicalize(&dot).ok();
    }
    if !meta.is_file() {
        return None;
    }
    let small = |p: &Path| crate::read::text(p, 4096).ok();
    let text = small(&dot)?;
    let gitdir = std::fs::canonicalize(root.join(text.strip_prefix("gitdir:")?.trim())).ok()?;
    let back = small(&gitdir.join(BACK))?;
    let back = std::fs::canonicalize(gitdir.join(back.trim())).ok()?;
    if back != std::fs::canonicalize(&dot).ok()? {
        return None;
    }
    let common = small(&gitdir.join(COMMON)).map_or(gitdir.clone(), |c| gitdir.join(c.trim()));
    let common = std::fs::canonicalize(common).ok()?;
    // The records read so far may all be the folder's own (attacks row 1920): git keeps a
    // worktree's in its repository's `worktrees/NAME`, so only records there speak for it.
    (gitdir.parent() == Some(common.join(WORKTREES).as_path())).then_some(common)
}

/// The main checkout of the repository whose linked worktree is at `root` ([`repository`]
/// says so both ways); `None` for the main checkout itself, a bare repository's worktree, or no
/// worktree at all.
pub fn main_checkout(root: &Path) -> Option<PathBuf> {
    if std::fs::symlink_metadata(root.join(DOT_GIT)).ok()?.is_dir() {
        return None;
    }
    let common = repository(root)?;
    let main = common.parent()?;
    (common.file_name()? == DOT_GIT && repository(main).as_ref() == Some(&common))
        .then(|| main.to_path_buf())
}

/// The file `host` reads in place of `source`, its own project file, when started in this
/// linked worktree: the main checkout's at the same place
/// ([`crate::tables::FolderTrust::main_checkout_in_worktree`], attacks row 2022), and whether
/// it holds the same bytes, with the checkout. `None` where the host reads `source` itself.
pub fn loaded_instead(
    project: &Path,
    host: Dialect,
    source: &Source,
) -> Option<(PathBuf, bool, PathBuf)> {
    let gate = host.def().folder_trust.as_ref()?;
    if source.dialect != host
        || !gate.main_checkout_in_worktree
        || !gate.locations.contains(&source.location.id)
    {
        return None;
    }
    let project = std::fs::canonicalize(project).ok()?;
    let main = main_checkout(&project)?;
    let rel = std::fs::canonicalize(&source.path)
        .ok()?
        .strip_prefix(&project)
        .ok()?
        .to_path_buf();
    let there = main.join(rel);
    let same = std::fs::read(&there).ok() == std::fs::read(&source.path).ok();
    Some((there, same, main))
}

/// The record of `source` found in another worktree of the project's repository, with the
/// real path of the checkout that holds it, when that file is the same bytes as `sha256` (of
/// this file, asked only where such a record is) and trusted so. `project`: the run's project (`source` below it).
pub fn trusted_elsewhere<'s>(
    source: &Source,
    sha256: &dyn Fn() -> Option<String>,
    project: &Path,
    store: &'s TrustStore,
) -> Option<(&'s Record, PathBuf)> {
    if source.location.root != Root::Project {
        return None;
    }
    let here = std::fs::canonicalize(project).ok()?;
    let rel = source.canonical.as_deref()?.strip_prefix(&here).ok()?;
    // Records of the same place below another folder, whose file there is this one's size,
    // before this file is even read: a repository's untrusted files are read no more for it.
    // (This file is not even looked at where no such record is: an untrusted file costs one
    // stat, `trust_first::an_unchanged_untrusted_file_costs_one_stat`.)
    let records = store.records_at(source.location.id, rel);
    if records.is_empty() {
        return None;
    }
    let size = |p: &Path| std::fs::metadata(p).ok().map(|m| m.len());
    let here_size = size(&source.path);
    let mut candidates = records
        .into_iter()
        .filter(|r| size(Path::new(&r.path)) == here_size)
        .peekable();
    candidates.peek()?;
    let sha256 = sha256()?;
    let repo = repository(&here)?;
    candidates.find_map(|r| {
        if !r.trusts_hash(&sha256) {
            return None;
        }
        let there = root_of(Path::new(&r.path), rel)?;
        (there != here
            && crate::read::bytes(Path::new(&r.path), crate::read::MAX_FILE_BYTES)
                .is_ok_and(|b| crate::hash::sha256_hex(&b) == sha256)
            && repository(&there).as_ref() == Some(&repo))
        .then_some((r, there))
    })
}

/// The checkout `path` is `rel` below.
fn root_of(path: &Path, rel: &Path) -> Option<PathBuf> {
    let mut root = path;
    for _ in rel.components() {
        root = root.parent()?;
    }
    (root.join(rel) == path).then(|| root.to_path_buf())
}

/// The first file the commands of `doc` name below the checkout `here` that is not the same
/// bytes below `there` (or is there in one only), as the commands name it; also when there are
/// too many words to look up.
pub fn named_file_differs(doc: &Document, here: &Path, there: &Path) -> Option<String> {
    let vars: Vec<&str> = Dialect::all()
        .iter()
        .filter_map(|d| d.config().project_dir_variable)
        .collect();
    let mut looked = 0;
    for handler in doc.rules.iter().flat_map(|r| &r.handlers) {
        let HandlerKind::Command(c) = &handler.kind else {
            continue;
        };
        let lines = [&c.command, &c.bash, &c.linux, &c.osx];
        let cwd = c.cwd.as_deref().filter(|d| !d.starts_with('/'));
        for line in lines.into_iter().flatten() {
            // The folders a relative word may be below: the handler's own, and each folder a
            // word before it names (`cd .gemini && sh hooks/guard.sh`, `git -C tools …`: attacks
            // row 1923), each as one more place to look the later words up.
            let mut bases = vec![cwd.map_or(PathBuf::new(), PathBuf::from)];
            for word in words(line) {
                let Some(named) = below_project(&word, &vars, here) else {
                    continue;
                };
                let relative = !word.starts_with(['$', '/']);
                let places: Vec<PathBuf> = match relative {
                    true => bases
                        .iter()
                        .filter_map(|b| below(&b.join(&named)))
                        .collect(),
                    false => below(Path::new(&named)).into_iter().collect(),
                };
                for rel in places {
                    looked += 1;
                    if looked > MAX_WORDS {
                        return Some(format!("more than {MAX_WORDS} words of its commands"));
                    }
                    // The file, and the folder that holds it (what a script sources beside
                    // itself, what `cd .gemini/hooks && sh guard.sh` runs), unless that is the
                    // checkout's top.
                    let folder = rel.parent().filter(|p| !p.as_os_str().is_empty());
                    if !same_file(&here.join(&rel), &there.join(&rel))
                        || folder.is_some_and(|f| !same_folder(&here.join(f), &there.join(f)))
                    {
                        return Some(word);
                    }
                    let folder_named = here.join(&rel).is_dir() || there.join(&rel).is_dir();
                    if folder_named && bases.len() < MAX_BASES && !bases.contains(&rel) {
                        bases.push(rel);
                    }
                }
            }
        }
    }
    None
}

/// At most this many folders a line's words name are places its later words are looked up.
const MAX_BASES: usize = 16;

/// `rel` with its `.` and `..` taken out, when it names something strictly below the
/// checkout's top (neither the top itself nor anything above it).
fn below(rel: &Path) -> Option<PathBuf> {
    use std::path::Component::{CurDir, Normal, ParentDir};
    let mut out = PathBuf::new();
    for part in rel.components() {
        match part {
            CurDir => {}
            ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Normal(name) => out.push(name),
            _ => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

/// The words of a command line, split where a shell could split them, quotes taken out.
fn words(line: &str) -> impl Iterator<Item = String> + '_ {
    line.split(|c: char| c.is_whitespace() || ";&|<>()`".contains(c))
        .map(|w| w.replace(['\'', '"'], ""))
        .map(|w| match w.split_once('=') {
            Some((_, value)) => value.to_string(),
            None => w,
        })
        .filter(|w| !w.is_empty())
}

/// `word` as a path relative to the project, when it names one: relative, or below a project
/// folder variable (`$NAME/…`, `${NAME}/…`) or the project's own path. Other variables,
/// `~`, options and absolute paths elsewhere name nothing the checkout holds.
fn below_project(word: &str, vars: &[&str], here: &Path) -> Option<String> {
    if let Some(rest) = word.strip_prefix('$') {
        return vars.iter().find_map(|v| {
            let rest = rest
                .strip_prefix(v)
                .or_else(|| rest.strip_prefix('{')?.strip_prefix(v)?.strip_prefix('}'))?;
            Some(rest.strip_prefix('/')?.to_string())
        });
    }
    if word.starts_with('/') {
        let rest = Path::new(word).strip_prefix(here).ok()?;
        return Some(rest.to_string_lossy().into_owned());
    }
    (!word.starts_with(['-', '~'])).then(|| word.to_string())
}

/// Whether two files are the same bytes, two folders hold the same files ([`same_folder`]),
/// or neither is there.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Err(_), Err(_)) => true,
        (Ok(x), Ok(y)) if x.is_dir() && y.is_dir() => same_folder(a, b),
        _ => same_bytes(a, b),
    }
}

/// At most this many entries of a folder are compared; a larger one is not the same.
const MAX_ENTRIES: usize = 256;

/// Whether two folders hold the same files (one level: names, then bytes).
fn same_folder(a: &Path, b: &Path) -> bool {
    // Folders inside are left out: a checkout's own (Claude's `.claude/worktrees`) is no
    // file a script runs.
    let list = |p: &Path| -> Option<Vec<std::ffi::OsString>> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(p).ok()?.take(MAX_ENTRIES + 1) {
            let entry = entry.ok()?;
            if !entry.path().is_dir() {
                names.push(entry.file_name());
            }
        }
        names.sort();
        (names.len() <= MAX_ENTRIES).then_some(names)
    };
    match (list(a), list(b)) {
        (Some(x), Some(y)) if x == y => x.iter().all(|n| same_bytes(&a.join(n), &b.join(n))),
        (None, None) => !a.exists() && !b.exists(),
        _ => false,
    }
}

/// Whether two paths are regular files of the same bytes.
fn same_bytes(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) if x.is_file() && y.is_file() => {
            let read = |p| crate::read::bytes(p, crate::read::MAX_FILE_BYTES).ok();
            x.len() == y.len() && read(a).is_some_and(|bytes| Some(bytes) == read(b))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a command names below the project: relative words, a project folder variable's
    /// paths, the project's own path; never the top itself, `..`, options or other folders.
    #[test]
    fn the_words_a_command_names_below_the_project() {
        let here = Path::new("/w/p");
        let vars = ["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"];
        let line = r#"cd .gemini/hooks && sh guard.sh; "$CLAUDE_PROJECT_DIR"/.claude/x.py --f=a/b ${GEMINI_PROJECT_DIR}/y /w/p/z /etc/passwd $HOME/k ../up . ~/t -v"#;
        let named: Vec<String> = words(line)
            .filter_map(|w| below_project(&w, &vars, here))
            .filter_map(|r| below(Path::new(&r)))
            .map(|r| r.display().to_string())
            .collect();
        assert_eq!(
            named,
            [
                "cd",
                ".gemini/hooks",
                "sh",
                "guard.sh",
                ".claude/x.py",
                "a/b",
                "y",
                "z"
            ]
        );
    }
}
