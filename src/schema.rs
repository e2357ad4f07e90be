//! The hand-written JSON Schemas (draft-07) of each dialect's hook config files.
//!
//! The files live in `schemas/` at the top of the repository, where editors can use them; they
//! are embedded in the binary so that `hookx schema DIALECT` needs nothing at run time.

use crate::dialect::Dialect;

/// `schemas/claude.schema.json`: a Claude Code settings file, plugin `hooks/hooks.json` or
/// skill/agent frontmatter.
pub const CLAUDE: &str = include_str!("../schemas/claude.schema.json");

/// `schemas/copilot.schema.json`: a GitHub Copilot CLI `.github/hooks/*.json` file.
pub const COPILOT: &str = include_str!("../schemas/copilot.schema.json");

/// `schemas/bricks.schema.json`: a Bricks `hooks.json` file, with or without the `hooks` wrapper.
pub const BRICKS: &str = include_str!("../schemas/bricks.schema.json");

/// The JSON Schema text of `dialect`'s hook config files.
pub fn schema(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Claude => CLAUDE,
        Dialect::Copilot => COPILOT,
        Dialect::Bricks => BRICKS,
    }
}

/// The file name of `dialect`'s schema under `schemas/`, e.g. `claude.schema.json`.
pub fn file_name(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Claude => "claude.schema.json",
        Dialect::Copilot => "copilot.schema.json",
        Dialect::Bricks => "bricks.schema.json",
    }
}
