//! Claude Code: `settings.json` hooks blocks, plugin `hooks/hooks.json`, skill and agent
//! frontmatter.

use super::{
    CLAUDE_MATCHER_STYLE, CLAUDE_MATCHER_TARGETS, CLAUDE_TOOLS, Flavor, KeyCase, Tables,
    TimestampForm,
};
use crate::model::EventKind;

pub static TABLES: Tables = Tables {
    flavor: Flavor::Claude,
    events: &[
        (EventKind::SessionStart, "SessionStart"),
        (EventKind::SessionEnd, "SessionEnd"),
        (EventKind::UserPromptSubmit, "UserPromptSubmit"),
        (EventKind::PreToolUse, "PreToolUse"),
        (EventKind::PermissionRequest, "PermissionRequest"),
        (EventKind::PostToolUse, "PostToolUse"),
        (EventKind::PostToolUseFailure, "PostToolUseFailure"),
        (EventKind::Notification, "Notification"),
        (EventKind::SubagentStart, "SubagentStart"),
        (EventKind::SubagentStop, "SubagentStop"),
        (EventKind::Stop, "Stop"),
        (EventKind::PreCompact, "PreCompact"),
    ],
    tools: CLAUDE_TOOLS,
    // Canonical argument names are Claude's.
    tool_args: &[],
    matcher_targets: CLAUDE_MATCHER_TARGETS,
    matcher_style: CLAUDE_MATCHER_STYLE,
    key_case: KeyCase::Snake,
    key_renames: &[],
    timestamp: TimestampForm::None,
    default_timeout: [600, 30, 60],
    project_dir_var: Some("CLAUDE_PROJECT_DIR"),
    parallel: true,
    handler_types: &["command", "prompt", "agent"],
};
