//! The subcommands: one module each, on top of the engine. `crate::cli` parses the command
//! line and calls these.

pub mod doctor;
pub mod install;
pub mod list;
pub mod schema;
pub mod trust;
pub mod validate;
