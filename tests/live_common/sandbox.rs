//! What every recording sandbox of the live suites writes below its root: the answers its
//! recording hook gives, and files. Included with `#[path]` by the suites' clients, whose
//! `Sandbox` methods call these with their root.

use std::path::{Path, PathBuf};

/// Makes the hook labelled `label` answer `stdout` (and exit with `exit`, stderr `stderr`)
/// when its stdin contains `when` (the first matching answer, by `name` order, wins). Returns
/// the answer's folder, where more of it may be written.
pub fn answer(
    root: &Path,
    label: &str,
    name: &str,
    (when, stdout, stderr, exit): (&str, &str, &str, i32),
) -> PathBuf {
    let dir = root.join("answers").join(label).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("match"), when).unwrap();
    std::fs::write(dir.join("stdout"), stdout).unwrap();
    std::fs::write(dir.join("stderr"), stderr).unwrap();
    std::fs::write(dir.join("exit"), exit.to_string()).unwrap();
    dir
}

/// Writes `text` at `rel` below `root`, making its folders.
pub fn write(root: &Path, rel: &str, text: &str) -> PathBuf {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}
