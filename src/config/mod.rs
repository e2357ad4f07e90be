//! Config files: reading them into the canonical model, writing them back, detecting their
//! dialect.

pub mod confine;
pub mod detect;
pub mod disabled;
pub mod edit;
pub mod merge;
pub mod read;
pub mod scripts;
pub mod strict_load;
pub mod syntax;
pub mod update;
pub mod walk;
pub mod write;

pub use read::{Parsed, read};

/// The key of hookx's provenance record on a handler it wrote into a file:
/// `"hookx": {"source": "../x.json", "from": …}` on an entry `convert` converted from that file
/// (what the handler was, so that converting it back gives it back: `crate::convert`'s
/// `restore`; `--write` names the source relative to the target),
/// `"hookx": {"created": "file"}` on a routing entry of a file `install` created (`"folder"`:
/// and the folders holding it, `"folders": N` above one),
/// `"hookx": {"created": "entry"}` on one `install` added to a file it did not create
/// (`"list"`, `"hooks"`: with the event's list, with the `hooks` object; only entries so
/// marked are install's to edit, [`crate::route::is_own_route`]; [`crate::route::Created`]).
/// Claude Code 2.1.332 and Copilot CLI 1.0.102 load handlers that carry it (checked by
/// running both); the reader keeps it among the handler's unknown fields, which `convert`
/// reads and `validate` does not report.
pub const MARKER: &str = "hookx";
