//! Canonical tool names, so that a matcher or a payload written for one agent can name the same
//! tool in another. The per-dialect spellings are data in each dialect's `Tables`.

/// Canonical tool ids. A tool name found in no table is its own canonical id, so unknown and
/// MCP tools (`mcp__server__tool`, spelled alike everywhere) pass through unchanged.
pub mod ids {
    pub const SHELL: &str = "shell";
    pub const WRITE: &str = "write";
    pub const EDIT: &str = "edit";
    pub const MULTI_EDIT: &str = "multi_edit";
    pub const READ: &str = "read";
    pub const GLOB: &str = "glob";
    pub const GREP: &str = "grep";
    pub const WEB_FETCH: &str = "web_fetch";
    pub const WEB_SEARCH: &str = "web_search";
    pub const TASK: &str = "task";
    pub const ASK_USER: &str = "ask_user";
    pub const NOTEBOOK_EDIT: &str = "notebook_edit";
    pub const TODO_WRITE: &str = "todo_write";
    pub const POWERSHELL: &str = "powershell";
}

/// Tools whose call is calls of others, for a rule that names only those: a multi-edit is
/// edits of one file (Claude Code 2.1.332 has no MultiEdit tool, and its permission rules read
/// the name as Edit; Codex's patch of several hunks and Windsurf's `write_code` reach hooks as
/// one).
pub const PARTS: &[(&str, &[&str])] = &[(ids::MULTI_EDIT, &[ids::EDIT])];

/// Whether `name` is one of the canonical ids: a tool some table knows.
pub fn is_canonical(name: &str) -> bool {
    use ids::*;
    [
        SHELL,
        WRITE,
        EDIT,
        MULTI_EDIT,
        READ,
        GLOB,
        GREP,
        WEB_FETCH,
        WEB_SEARCH,
        TASK,
        ASK_USER,
        NOTEBOOK_EDIT,
        TODO_WRITE,
        POWERSHELL,
    ]
    .contains(&name)
}

/// Whether `name` is an MCP tool name, which every dialect spells the same.
pub fn is_mcp(name: &str) -> bool {
    name.starts_with("mcp__")
}
