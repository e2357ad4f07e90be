//! The hand-written JSON Schemas (draft-07) of each dialect's hook config files.
//!
//! The files live in `schemas/` at the top of the repository, where editors can use them; they
//! are embedded in the binary (each dialect's [`crate::tables::Schema`]) so that `hookx schema
//! DIALECT` needs nothing at run time.

use crate::tables::Dialect;

/// The JSON Schema text of `dialect`'s hook config files.
pub fn schema(dialect: Dialect) -> &'static str {
    dialect.def().schema.text
}

/// The file name of `dialect`'s schema under `schemas/`, e.g. `claude.schema.json`.
pub fn file_name(dialect: Dialect) -> &'static str {
    dialect.def().schema.file_name
}
