//! Claude Code: `settings.json` hooks blocks, plugin `hooks/hooks.json`, skill and agent
//! frontmatter.

use super::{
    CLAUDE_MATCHER_STYLE, CLAUDE_MATCHER_TARGETS, CLAUDE_TOOLS, Flavor, KeyCase, Tables,
    TimestampForm,
};
use crate::config::spec::{ConfigSpec, HandlerField};
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

pub static CONFIG: ConfigSpec = ConfigSpec {
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
        ("async", HandlerField::Async),
        ("prompt", HandlerField::Prompt),
        ("model", HandlerField::Model),
        ("timeout", HandlerField::Timeout),
        ("statusMessage", HandlerField::StatusMessage),
        ("once", HandlerField::Once),
    ],
    flat_handlers: false,
    // Plugin hooks.json files in the wild put events at the top level.
    wrapper_optional: true,
    project_dir_variable: "CLAUDE_PROJECT_DIR",
    provided_env: &[
        "CLAUDE_PLUGIN_ROOT",
        "CLAUDE_ENV_FILE",
        "CLAUDE_CODE_REMOTE",
    ],
};
