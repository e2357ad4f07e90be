//! Config files: reading them into the canonical model, writing them back, detecting their
//! dialect.

pub mod detect;
pub mod edit;
pub mod read;
pub mod scripts;
pub mod syntax;
pub mod write;

pub use read::{Parsed, read};
