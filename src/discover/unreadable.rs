//! The places an agent reads one hook file from that hold what neither it nor hookx reads as
//! a file: discovery passes over them as over nothing there, so `validate` and `doctor` name
//! them (attacks row 587).

use super::{Context, Source};
use crate::tables::{Dialect, Pattern};
use std::path::PathBuf;

/// Each place of one hook file (in the project or the home, where the agent's variables put
/// it) that holds something `read::existing_text` cannot read: a link to nothing (a hook file
/// kept in a submodule not checked out), a folder, a pipe, a loop of links. With the agent
/// whose place it is, and what is there; a file `sources` holds (read, if badly) is not one.
pub fn unreadable_places(ctx: &Context, sources: &[Source]) -> Vec<(PathBuf, Dialect, String)> {
    let mut found: Vec<(PathBuf, Dialect, String)> = Vec::new();
    for location in crate::context::locations() {
        let Some((root, Pattern::File(rel))) = ctx.place(location) else {
            continue;
        };
        let path = root.join(rel);
        if std::fs::symlink_metadata(&path).is_err()
            || sources.iter().any(|s| s.path == path)
            || found.iter().any(|(p, ..)| *p == path)
        {
            continue;
        }
        if let Err(why) = crate::read::existing_text(&path, crate::read::MAX_FILE_BYTES) {
            found.push((path, location.dialect, why.to_string()));
        }
    }
    found
}
