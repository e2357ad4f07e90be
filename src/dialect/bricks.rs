//! Bricks: `~/.bricks-project-desktop/hooks.json` and `<project>/.bricks/hooks.json`.

use super::{Flavor, KeyCase, MatchOn, Tables, TimestampForm};
use crate::config::spec::{ConfigSpec, HandlerField};
use crate::model::tool::ids;
use crate::model::{EventKind, MatcherStyle};

pub static TABLES: Tables = Tables {
    flavor: Flavor::Bricks,
    events: &[
        (EventKind::SessionStart, "SessionStart"),
        (EventKind::UserPromptSubmit, "UserPromptSubmit"),
        (EventKind::PreToolUse, "PreToolUse"),
        (EventKind::PostToolUse, "PostToolUse"),
        (EventKind::Stop, "Stop"),
        (EventKind::SubagentStart, "SubagentStart"),
        (EventKind::SubagentStop, "SubagentStop"),
        (EventKind::PreCompact, "PreCompact"),
        (EventKind::PostCompact, "PostCompact"),
        (EventKind::GoalUpdate, "GoalUpdate"),
    ],
    // The seed names only `bash` and `write_file`. The rest is hookx's decision, following the
    // snake_case verb_noun pattern of those two; see README "Bricks tool names".
    tools: &[
        (ids::SHELL, &["bash"]),
        (ids::WRITE, &["write_file"]),
        (ids::EDIT, &["edit_file"]),
        (ids::READ, &["read_file"]),
        (ids::GLOB, &["glob"]),
        (ids::GREP, &["grep"]),
        (ids::WEB_FETCH, &["web_fetch"]),
        (ids::WEB_SEARCH, &["web_search"]),
        (ids::TASK, &["task"]),
    ],
    // Bricks "follows Claude Code conventions": argument names are taken to be Claude's.
    tool_args: &[],
    matcher_targets: &[
        (EventKind::PreToolUse, MatchOn::ToolName),
        (EventKind::PostToolUse, MatchOn::ToolName),
        (EventKind::SessionStart, MatchOn::Field("source")),
        (EventKind::SubagentStart, MatchOn::Field("agent_type")),
        (EventKind::SubagentStop, MatchOn::Field("agent_type")),
        (EventKind::PreCompact, MatchOn::Field("trigger")),
        (EventKind::PostCompact, MatchOn::Field("trigger")),
        (EventKind::GoalUpdate, MatchOn::Field("trigger")),
    ],
    matcher_style: MatcherStyle::ListOrRegex {
        list_extra: "",
        separators: "",
    },
    key_case: KeyCase::Snake,
    key_renames: &[],
    timestamp: TimestampForm::None,
    default_timeout: [60, 60, 60],
    project_dir_var: Some("BRICKS_PROJECT_DIR"),
    parallel: true,
    handler_types: &["command"],
};

pub static CONFIG: ConfigSpec = ConfigSpec {
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
        ("timeout", HandlerField::Timeout),
    ],
    flat_handlers: false,
    wrapper_optional: true,
    project_dir_variable: "BRICKS_PROJECT_DIR",
    provided_env: &["BRICKS_SESSION_ID", "BRICKS_HOOK_EVENT"],
};
