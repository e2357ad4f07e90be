//! GitHub Copilot CLI: `.github/hooks/*.json`, `{"version": 1, "hooks": …}`, in two flavours
//! chosen per event by the casing of its name.

use super::{CLAUDE_MATCHER_STYLE, CLAUDE_TOOLS, Flavor, KeyCase, MatchOn, Tables, TimestampForm};
use crate::config::spec::{ConfigSpec, HandlerField};
use crate::model::tool::ids;
use crate::model::{EventKind, MatcherStyle};

const FILE_ARGS: &[(&str, &str)] = &[
    ("file_path", "path"),
    ("old_string", "old_str"),
    ("new_string", "new_str"),
    ("content", "file_text"),
];

/// camelCase events: camelCase payload, Copilot tool names, anchored regex matchers.
pub static TABLES: Tables = Tables {
    flavor: Flavor::Copilot,
    events: &[
        (EventKind::SessionStart, "sessionStart"),
        (EventKind::SessionEnd, "sessionEnd"),
        (EventKind::UserPromptSubmit, "userPromptSubmitted"),
        (EventKind::PreToolUse, "preToolUse"),
        (EventKind::PermissionRequest, "permissionRequest"),
        (EventKind::PostToolUse, "postToolUse"),
        (EventKind::PostToolUseFailure, "postToolUseFailure"),
        (EventKind::Notification, "notification"),
        (EventKind::SubagentStart, "subagentStart"),
        (EventKind::SubagentStop, "subagentStop"),
        (EventKind::Stop, "agentStop"),
        (EventKind::PreCompact, "preCompact"),
        (EventKind::ErrorOccurred, "errorOccurred"),
    ],
    tools: &[
        (ids::SHELL, &["bash"]),
        (ids::POWERSHELL, &["powershell"]),
        (ids::WRITE, &["create"]),
        (ids::EDIT, &["edit"]),
        (ids::READ, &["view"]),
        (ids::GLOB, &["glob"]),
        (ids::GREP, &["grep"]),
        (ids::WEB_FETCH, &["web_fetch"]),
        (ids::WEB_SEARCH, &["web_search"]),
        (ids::TASK, &["task"]),
        (ids::ASK_USER, &["ask_user"]),
    ],
    tool_args: &[
        (ids::WRITE, FILE_ARGS),
        (ids::EDIT, FILE_ARGS),
        (ids::READ, FILE_ARGS),
    ],
    matcher_targets: &[
        (EventKind::PreToolUse, MatchOn::ToolName),
        (EventKind::PostToolUse, MatchOn::ToolName),
        (EventKind::PostToolUseFailure, MatchOn::ToolName),
        (EventKind::PermissionRequest, MatchOn::ToolName),
        (EventKind::Notification, MatchOn::Field("notification_type")),
        (EventKind::SubagentStart, MatchOn::Field("agent_type")),
        (EventKind::PreCompact, MatchOn::Field("trigger")),
    ],
    matcher_style: MatcherStyle::AnchoredRegex,
    key_case: KeyCase::Camel,
    key_renames: &[
        ("tool_input", "toolArgs"),
        ("tool_response", "toolResult"),
        ("agent_type", "agentName"),
        ("stop_hook_active", "stopHookActive"),
    ],
    timestamp: TimestampForm::EpochMillis,
    default_timeout: [30, 30, 30],
    project_dir_var: None,
    parallel: false,
    handler_types: &["command", "prompt"],
};

/// PascalCase events (VS Code-compatible): snake_case payload with an ISO timestamp, Claude
/// tool names and Claude matcher rules (dialects.md §8). hookx's decision: tool arguments keep
/// Claude's names too, as the form exists to be Claude-compatible.
pub static PASCAL_TABLES: Tables = Tables {
    flavor: Flavor::CopilotPascal,
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
        (EventKind::ErrorOccurred, "ErrorOccurred"),
    ],
    tools: CLAUDE_TOOLS,
    tool_args: &[],
    matcher_targets: TABLES.matcher_targets,
    matcher_style: CLAUDE_MATCHER_STYLE,
    key_case: KeyCase::Snake,
    key_renames: &[
        ("tool_response", "tool_result"),
        ("agent_type", "agent_name"),
    ],
    timestamp: TimestampForm::Iso8601,
    default_timeout: [30, 30, 30],
    project_dir_var: None,
    parallel: false,
    handler_types: &["command", "prompt"],
};

pub static CONFIG: ConfigSpec = ConfigSpec {
    handler_keys: &[
        ("type", HandlerField::Type),
        ("bash", HandlerField::Bash),
        ("powershell", HandlerField::PowerShell),
        // VS Code-compatible and portable forms (field).
        ("command", HandlerField::Command),
        ("windows", HandlerField::Windows),
        ("linux", HandlerField::Linux),
        ("osx", HandlerField::Osx),
        ("cwd", HandlerField::Cwd),
        ("env", HandlerField::Env),
        ("prompt", HandlerField::Prompt),
        ("timeoutSec", HandlerField::Timeout),
        ("timeout", HandlerField::Timeout),
    ],
    flat_handlers: true,
    wrapper_optional: false,
    project_dir_variable: "PWD",
    provided_env: &["CLAUDE_PLUGIN_ROOT", "COPILOT_CLI"],
};
