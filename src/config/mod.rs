//! Config files: reading them into the canonical model, writing them back, detecting their
//! dialect.

pub mod detect;
pub mod edit;
pub mod merge;
pub mod read;
pub mod scripts;
pub mod syntax;
pub mod update;
pub mod walk;
pub mod write;

pub use read::{Parsed, read};

/// The key of hookx's provenance record on a handler it wrote into a file:
/// `"hookx": {"source": "../x.json"}` on an entry `convert --write` converted from that file,
/// `"hookx": {"created": "file"}` on a routing entry of a file `install` created,
/// `"hookx": {"created": "entry"}` on one `install` added to a file it did not create (only
/// entries so marked are install's to edit, [`crate::route::is_own_route`]). Claude Code
/// 2.1.332 and Copilot CLI 1.0.102 load handlers that carry it (checked by running both); the
/// reader leaves it out of the handler.
pub const MARKER: &str = "hookx";
