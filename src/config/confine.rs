//! Files a project's own files name stay in the project. A repository can ship a symbolic
//! link (`.gemini` → `~/.gemini`, `.claude/settings.json` → `~/.bashrc`) or a path in a file
//! it controls (`out = "../../.gemini/settings.json"` in `.hookx/sync.toml`); hookx writing
//! through either would write outside the project, into the user's own files.

use std::path::{Component, Path, PathBuf};

/// Why `path` (inside `project`, or meant to be) leads out of it: a `..` or an absolute part,
/// or a symbolic link on the way (the file itself or a folder, dangling or not) whose real
/// path is outside the project. `None`: it stays in. Links that stay inside are fine.
pub fn leaves(project: &Path, path: &Path) -> Option<String> {
    let Ok(rel) = path.strip_prefix(project) else {
        return Some("is not inside the project".into());
    };
    if rel
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Some("leads out of the project (an absolute path or `..`)".into());
    }
    let Ok(root) = project.canonicalize() else {
        return None;
    };
    let mut at = project.to_path_buf();
    for part in rel.components() {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {}
            Ok(_) => continue,
            // Nothing below a missing name exists yet.
            Err(_) => break,
        }
        let leads = match real_path(&at, 40) {
            Some(real) if real.starts_with(&root) => continue,
            Some(real) => format!("to {}", real.display()),
            None => "that cannot be resolved".to_string(),
        };
        let shown = at
            .strip_prefix(project)
            .unwrap_or(&at)
            .display()
            .to_string();
        return Some(match at == path {
            true => format!("is a symbolic link {leads}, outside the project"),
            false => {
                format!("is reached through {shown}, a symbolic link {leads}, outside the project")
            }
        });
    }
    None
}

/// Where `path` finally leads, following symlinks (dangling ones too: the path a write would
/// create); `None` past `hops` links or when it cannot be told.
fn real_path(path: &Path, hops: u32) -> Option<PathBuf> {
    if let Ok(real) = path.canonicalize() {
        return Some(real);
    }
    let hops = hops.checked_sub(1)?;
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            let target = std::fs::read_link(path).ok()?;
            let next = match path.parent() {
                Some(dir) => dir.join(target),
                None => target,
            };
            real_path(&next, hops)
        }
        Ok(_) => None,
        // Missing: where its folder leads, and its name there.
        Err(_) => {
            let name = path.file_name()?;
            Some(real_path(path.parent()?, hops)?.join(name))
        }
    }
}
