//! The subcommands: one module each, on top of the engine. `crate::cli` parses the command
//! line and calls these.

pub mod convert;
pub mod doctor;
pub mod input;
pub mod install;
pub mod list;
pub mod schema;
pub mod trust;
pub mod validate;
