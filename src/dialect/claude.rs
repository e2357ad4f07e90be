//! Claude Code: `settings.json` hooks blocks, plugin `hooks/hooks.json`, skill and agent
//! frontmatter.

use crate::model::tool::ids;
use crate::tables::ResultForm;
use crate::tables::{
    BrokenPolicy, DetectSpec, Dialect, DialectDef, Flavor, HostSpec, KeyCase, KillSwitch,
    ManagedSpec, RouteSpec, Schema, Tables, TimestampForm,
};

use crate::dialect::{CLAUDE_MATCHER_STYLE, CLAUDE_MATCHER_TARGETS, CLAUDE_TOOLS};
use crate::model::EventKind;
use crate::tables::{
    ConfigSpec, DocumentKind, Documents, HandlerField, OnFailure, PluginData, PluginForm,
    PluginSpec, RunKeys,
};
use crate::tables::{Location, Pattern, Root, Scope};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

pub static TABLES: Tables = Tables {
    name: "claude",
    dialect: Dialect(&DEF),
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
        // Newer than the seed (dialects.md §8), with the same `manual`/`auto` trigger.
        (EventKind::PostCompact, "PostCompact"),
        // The rest of the 34 events of the claude-code 2.1.332 settings schema. PostToolBatch
        // and MessageDisplay fired in `-p` runs (tests/live_claude.rs), Setup in an
        // `--init-only` run, the others in an interactive session on a pseudo-terminal
        // (tests/live_claude_pty.rs); PermissionDenied was never seen firing
        // (conformance/claude-facts.md says what was tried).
        (EventKind::PostToolBatch, "PostToolBatch"),
        (EventKind::UserPromptExpansion, "UserPromptExpansion"),
        (EventKind::StopFailure, "StopFailure"),
        (EventKind::PreModelSwitch, "PreModelSwitch"),
        (EventKind::PostModelSwitch, "PostModelSwitch"),
        (EventKind::PermissionDenied, "PermissionDenied"),
        (EventKind::Setup, "Setup"),
        (EventKind::TeammateIdle, "TeammateIdle"),
        (EventKind::TaskCreated, "TaskCreated"),
        (EventKind::TaskCompleted, "TaskCompleted"),
        (EventKind::Elicitation, "Elicitation"),
        (EventKind::ElicitationResult, "ElicitationResult"),
        (EventKind::ConfigChange, "ConfigChange"),
        (EventKind::WorktreeCreate, "WorktreeCreate"),
        (EventKind::WorktreeRemove, "WorktreeRemove"),
        (EventKind::InstructionsLoaded, "InstructionsLoaded"),
        (EventKind::CwdChanged, "CwdChanged"),
        (EventKind::FileChanged, "FileChanged"),
        (EventKind::DirectoryAdded, "DirectoryAdded"),
        (EventKind::MessageDisplay, "MessageDisplay"),
        (EventKind::PreSkillShellCommand, "PreSkillShellCommand"),
    ],
    tools: CLAUDE_TOOLS,
    // Canonical argument names are Claude's.
    tool_args: &[],
    matcher_targets: CLAUDE_MATCHER_TARGETS,
    matcher_style: CLAUDE_MATCHER_STYLE,
    exact_field_matchers: false,
    stop_fires_for_subagents: false,
    unfired: &[],
    cadences: &[],
    matcher_tries_names_of: &[],
    // Run 2.1.332 (attacks rows 1867, 1940): `mcp__SERVER__TOOL` with each character of either
    // name but an ASCII letter, digit, `_` or `-` written `_` (`p.q` → `p_q`, `café` → `caf_`;
    // the binary's `normalizeMcpServerName`, `/[^a-zA-Z0-9_-]/g`), a long name whole; the
    // payload's `mcp_server.name` names the server as configured.
    mcp_names: crate::tables::McpNames {
        rewrite: Some(crate::tables::NameRewrite {
            kept: "_-",
            to: '_',
            per_unit: true,
            punycode: false,
            servers_kept_on: &[],
            cut: None,
            whole: None,
        }),
        ..crate::tables::MCP_CANONICAL
    },
    key_case: KeyCase::Snake,
    value_renames: &[],
    event_values: &[],
    key_renames: &[],
    timestamp: TimestampForm::None,
    default_timeout: [600, 30, 60],
    project_dir_var: Some("CLAUDE_PROJECT_DIR"),
    project_root_markers: &[],
    project_root_setting: None,
    project_from: crate::tables::ProjectFrom::Cwd,
    parallel: true,
    first_deny_stops_the_rest: false,
    rewrites_chain: false,
    // `http` and `mcp_tool`: claude-code 2.1.332 settings schema.
    handler_types: &["command", "prompt", "agent", "http", "mcp_tool"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: Some("claude-code 2.1.332"),
    matcher_values: super::CLAUDE_MATCHER_VALUES,
    handler_key_overrides: &[],
    invalid_matcher_effect: None,
    tool_scope: crate::tables::ToolScope::Any,
    // Every top-level key claude-code 2.1.332 sent per event (tests/fixtures/recorded/claude-2.1.332:
    // `-p` runs, `init.*` an `--init-only` run, `pty.*` an interactive session). An event here
    // was seen firing (`Tables::seen_firing`). `mcp_server` is sent on the tool events of an
    // MCP tool call.
    payload_object_keys: &[],
    payload_keys: &[
        (
            EventKind::ConfigChange,
            &[
                "cwd",
                "file_path",
                "hook_event_name",
                "prompt_id",
                "session_id",
                "source",
                "transcript_path",
            ],
        ),
        (
            EventKind::CwdChanged,
            &[
                "cwd",
                "hook_event_name",
                "new_cwd",
                "old_cwd",
                "prompt_id",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::DirectoryAdded,
            &[
                "cwd",
                "directory",
                "hook_event_name",
                "prompt_id",
                "session_id",
                "source",
                "transcript_path",
            ],
        ),
        (
            EventKind::Elicitation,
            &[
                "cwd",
                "hook_event_name",
                "mcp_server_name",
                "message",
                "mode",
                "prompt_id",
                "requested_schema",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::ElicitationResult,
            &[
                "action",
                "content",
                "cwd",
                "hook_event_name",
                "mcp_server_name",
                "mode",
                "prompt_id",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::FileChanged,
            &[
                "cwd",
                "event",
                "file_path",
                "hook_event_name",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::InstructionsLoaded,
            &[
                "cwd",
                "file_path",
                "hook_event_name",
                "load_reason",
                "memory_type",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::MessageDisplay,
            &[
                "cwd",
                "delta",
                "final",
                "hook_event_name",
                "index",
                "message_id",
                "prompt_id",
                "session_id",
                "transcript_path",
                "turn_id",
            ],
        ),
        (
            EventKind::Notification,
            &[
                "cwd",
                "hook_event_name",
                "message",
                "notification_type",
                "prompt_id",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::PermissionRequest,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "effort",
                "hook_event_name",
                "mcp_server",
                "permission_mode",
                "permission_suggestions",
                "prompt_id",
                "session_id",
                "tool_input",
                "tool_name",
                "transcript_path",
            ],
        ),
        (
            EventKind::PostCompact,
            &[
                "compact_summary",
                "cwd",
                "hook_event_name",
                "prompt_id",
                "session_id",
                "transcript_path",
                "trigger",
            ],
        ),
        (
            EventKind::PostModelSwitch,
            &[
                "cache_ttl",
                "context_tokens",
                "cwd",
                "estimated_cache_write_usd",
                "from_model",
                "hook_event_name",
                "pricing",
                "prompt_cache_warm",
                "prompt_id",
                "requested_model",
                "session_id",
                "source",
                "to_model",
                "transcript_path",
            ],
        ),
        (
            EventKind::PostToolBatch,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "effort",
                "hook_event_name",
                "permission_mode",
                "prompt_id",
                "session_id",
                "tool_calls",
                "transcript_path",
            ],
        ),
        (
            EventKind::PostToolUse,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "duration_ms",
                "effort",
                "hook_event_name",
                "mcp_server",
                "permission_mode",
                "prompt_id",
                "session_id",
                "tool_input",
                "tool_name",
                "tool_response",
                "tool_use_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::PostToolUseFailure,
            &[
                "cwd",
                "duration_ms",
                "effort",
                "error",
                "hook_event_name",
                "is_interrupt",
                "permission_mode",
                "prompt_id",
                "session_id",
                "tool_input",
                "tool_name",
                "tool_use_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::PreCompact,
            &[
                "custom_instructions",
                "cwd",
                "hook_event_name",
                "prompt_id",
                "session_id",
                "transcript_path",
                "trigger",
            ],
        ),
        (
            EventKind::PreModelSwitch,
            &[
                "cache_ttl",
                "context_tokens",
                "cwd",
                "estimated_cache_write_usd",
                "from_model",
                "hook_event_name",
                "pricing",
                "prompt_cache_warm",
                "prompt_id",
                "requested_model",
                "session_id",
                "source",
                "to_model",
                "transcript_path",
            ],
        ),
        (
            EventKind::PreSkillShellCommand,
            &[
                "command_name",
                "command_source",
                "cwd",
                "effort",
                "hook_event_name",
                "invoked_by",
                "permission_mode",
                "prompt_id",
                "session_id",
                "tool_input",
                "tool_name",
                "tool_use_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::PreToolUse,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "effort",
                "hook_event_name",
                "mcp_server",
                "permission_mode",
                "prompt_id",
                "session_id",
                "tool_input",
                "tool_name",
                "tool_use_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::SessionEnd,
            &[
                "cwd",
                "hook_event_name",
                "prompt_id",
                "reason",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::SessionStart,
            &[
                "context_tokens",
                "cwd",
                "estimated_cache_write_usd",
                "hook_event_name",
                "model",
                "prompt_cache_likely_expired",
                "prompt_id",
                "seconds_since_last_response",
                "session_id",
                "source",
                "transcript_path",
            ],
        ),
        (
            EventKind::Setup,
            &[
                "cwd",
                "hook_event_name",
                "session_id",
                "transcript_path",
                "trigger",
            ],
        ),
        (
            EventKind::Stop,
            &[
                "background_tasks",
                "cwd",
                "effort",
                "hook_event_name",
                "last_assistant_message",
                "permission_mode",
                "prompt_id",
                "session_crons",
                "session_id",
                "stop_hook_active",
                "transcript_path",
            ],
        ),
        (
            EventKind::StopFailure,
            &[
                "cwd",
                "effort",
                "error",
                "hook_event_name",
                "last_assistant_message",
                "prompt_id",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::SubagentStart,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "hook_event_name",
                "prompt_id",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::SubagentStop,
            &[
                "agent_id",
                "agent_transcript_path",
                "agent_type",
                "background_tasks",
                "cwd",
                "effort",
                "hook_event_name",
                "last_assistant_message",
                "permission_mode",
                "prompt_id",
                "session_crons",
                "session_id",
                "stop_hook_active",
                "transcript_path",
            ],
        ),
        (
            EventKind::TaskCompleted,
            &[
                "cwd",
                "hook_event_name",
                "prompt_id",
                "session_id",
                "task_description",
                "task_id",
                "task_subject",
                "transcript_path",
            ],
        ),
        (
            EventKind::TaskCreated,
            &[
                "cwd",
                "hook_event_name",
                "prompt_id",
                "session_id",
                "task_description",
                "task_id",
                "task_subject",
                "transcript_path",
            ],
        ),
        (
            EventKind::TeammateIdle,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "hook_event_name",
                "permission_mode",
                "prompt_id",
                "session_id",
                "team_name",
                "teammate_name",
                "transcript_path",
            ],
        ),
        (
            EventKind::UserPromptExpansion,
            &[
                "command_args",
                "command_name",
                "command_source",
                "cwd",
                "expansion_type",
                "hook_event_name",
                "permission_mode",
                "prompt",
                "prompt_id",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::UserPromptSubmit,
            &[
                "cwd",
                "hook_event_name",
                "permission_mode",
                "prompt",
                "prompt_id",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::WorktreeCreate,
            &[
                "cwd",
                "hook_event_name",
                "name",
                "prompt_id",
                "session_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::WorktreeRemove,
            &[
                "cwd",
                "hook_event_name",
                "prompt_id",
                "session_id",
                "transcript_path",
                "worktree_path",
            ],
        ),
    ],
    // The tools 2.1.332 offered its model in a run beside those of `CLAUDE_TOOLS`
    // (tests/live_claude_doctor.rs, `a_rule_on_a_tool_only_claude_has_fires_as_doctor_says`,
    // which runs a `Skill` rule on a Skill call), then the rest of its built-in tool names
    // (the binary's list beside its legacy names, attacks row 1460: doctor called a `TaskStop`
    // rule one that never fires); no other agent has them.
    other_tools: &[
        "Skill",
        "ToolSearch",
        "ListAgents",
        "ReportFindings",
        "ScheduleWakeup",
        "Workflow",
        "DeferredToolPlaceholder",
        "Artifact",
        "ClaudeDesign",
        "CronCreate",
        "CronDelete",
        "CronList",
        "EndConversation",
        "EnterPlanMode",
        "EnterWorktree",
        "ExitPlanMode",
        "ExitWorktree",
        "ListMcpResourcesTool",
        "LSP",
        "Monitor",
        "OfferChromeSetup",
        "PowerShell",
        "Projects",
        "propose_skills",
        "PushNotification",
        "ReadMcpResourceDirTool",
        "ReadMcpResourceTool",
        "ReadNotifications",
        "RemoteTrigger",
        "SendFeedback",
        "SendMessage",
        "SendUserFile",
        "SendUserMessage",
        "SetGoal",
        "ShareOnboardingGuide",
        "ShowOnboardingRolePicker",
        "SubagentHandback",
        "TaskCreate",
        "TaskGet",
        "TaskList",
        "TaskStop",
        "TaskUpdate",
        "WaitForMcpServers",
    ],
    // The 2.1.332 binary's map of old tool names (`jKo`, beside `Task: "Agent"`): a hook's
    // matcher naming one fires on the tool it became.
    renamed_tools: &[
        ("KillShell", "TaskStop"),
        ("KillBash", "TaskStop"),
        ("ListPeers", "ListAgents"),
        ("Brief", "SendUserMessage"),
        ("ListMcpResources", "ListMcpResourcesTool"),
        ("ReadMcpResource", "ReadMcpResourceTool"),
        ("ReadMcpResourceDir", "ReadMcpResourceDirTool"),
        ("ProposeGoal", "SetGoal"),
    ],
    tool_codecs: &[],
};

/// `settings.json` / `settings.local.json`: a `hooks` object among other settings.
pub static SETTINGS: DocumentKind = DocumentKind {
    name: "ClaudeSettings",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: None,
    session_env: Some("env"),
    frontmatter: false,
};

/// A plugin's `hooks/hooks.json` (`description`, `hooks`; field: events at the top level).
pub static PLUGIN: DocumentKind = DocumentKind {
    name: "ClaudePlugin",
    wrapper_optional: true,
    wrapper_ignored: false,
    top_keys: None,
    session_env: None,
    frontmatter: false,
};

/// YAML frontmatter of a skill (`SKILL.md`) or agent markdown file.
pub static FRONTMATTER: DocumentKind = DocumentKind {
    name: "ClaudeFrontmatter",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: None,
    session_env: None,
    frontmatter: true,
};

pub static DEF: DialectDef = DialectDef {
    name: "claude",
    display: "Claude",
    product: "Claude Code",
    flavors: &[Flavor(&TABLES)],
    config: &CONFIG,
    detect: DetectSpec {
        dirs: &[".claude/", ".claude-plugin/"],
        file_names: &["settings.json", "settings.local.json", "SKILL.md"],
        unmarked: true,
        sole_event_flavors: &[],
        sole_top_keys: &[],
        sole_handler_keys: &[],
        top_keys: &[
            "permissions",
            "env",
            "model",
            "disableAllHooks",
            "description",
        ],
        handler_keys: &["async", "statusMessage", "once", "model"],
        // By far the most common agent.
        preferred: true,
    },
    locations: &[
        // The managed policy: `managed-settings.json`, then the `managed-settings.d/*.json`
        // drop-ins in name order, dot-files left out, above every other scope; hooks add up and
        // the last document that sets a flag decides it (binary and run 2.1.332).
        Location {
            id: "claude-managed",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::File("managed-settings.json"),
        },
        Location {
            id: "claude-managed-d",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::Dir {
                dir: "managed-settings.d",
                suffix: ".json",
            },
        },
        Location {
            id: "claude-user",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".claude/settings.json"),
        },
        Location {
            id: "claude-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".claude/settings.json"),
        },
        Location {
            id: "claude-local",
            dialect: Dialect(&DEF),
            scope: Scope::Local,
            root: Root::Project,
            pattern: Pattern::File(".claude/settings.local.json"),
        },
        Location {
            id: "claude-plugin",
            dialect: Dialect(&DEF),
            scope: Scope::Plugin,
            root: Root::Home,
            pattern: Pattern::Plugins,
        },
        Location {
            id: "claude-skill-user",
            dialect: Dialect(&DEF),
            scope: Scope::Skill,
            root: Root::Home,
            pattern: Pattern::Sub {
                dir: ".claude/skills",
                name: "SKILL.md",
            },
        },
        Location {
            id: "claude-skill-project",
            dialect: Dialect(&DEF),
            scope: Scope::Skill,
            root: Root::Project,
            pattern: Pattern::Sub {
                dir: ".claude/skills",
                name: "SKILL.md",
            },
        },
        Location {
            id: "claude-agent-user",
            dialect: Dialect(&DEF),
            scope: Scope::Agent,
            root: Root::Home,
            pattern: Pattern::Dir {
                dir: ".claude/agents",
                suffix: ".md",
            },
        },
        Location {
            id: "claude-agent-project",
            dialect: Dialect(&DEF),
            scope: Scope::Agent,
            root: Root::Project,
            pattern: Pattern::Dir {
                dir: ".claude/agents",
                suffix: ".md",
            },
        },
    ],
    native: &[
        "claude-managed",
        "claude-managed-d",
        "claude-user",
        "claude-project",
        "claude-local",
        "claude-plugin",
        "claude-skill-user",
        "claude-skill-project",
        "claude-agent-user",
        "claude-agent-project",
    ],
    // Claude merges settings with precedence managed > local > project > user.
    kill_switch: Some(KillSwitch {
        key: "disableAllHooks",
        inner: None,
        among_events: false,
        off: true,
        host_wide: false,
        locations: &[
            "claude-user",
            "claude-project",
            "claude-local",
            "claude-managed",
            "claude-managed-d",
        ],
    }),
    disabled_handlers: None,
    managed: Some(ManagedSpec {
        dirs: &[
            ("linux", "/etc/claude-code"),
            ("macos", "/Library/Application Support/ClaudeCode"),
        ],
        only_managed_key: Some("allowManagedHooksOnly"),
        hooks_off: None,
        // Run 2.1.332 (tests/live_claude_managed.rs): it exits 1, `managed-settings.json` or
        // a drop-in alike.
        broken_policy: BrokenPolicy::StopsAgent,
        // docs: `disableAllHooks` in managed settings turns managed hooks off too; in user,
        // project or local settings it cannot.
        kill_switch_reaches_policy: true,
        any_kill_switch_reaches_policy: false,
        root_owned_only: false,
        moved_by: &[],
        source: "docs: code.claude.com/docs/en/settings (managed-settings.json paths, \
                 allowManagedHooksOnly, disableAllHooks); binary 2.1.332 (/etc/claude-code, \
                 managed-settings.d); run 2.1.332 (tests/live_claude_managed.rs, drop-ins \
                 included)",
    }),
    // run 2.1.332: `-p` runs project hooks with no trust step.
    folder_trust: None,
    // run 2.1.332 (tests/live_claude_doctor.rs): "a PreToolUse/PermissionRequest hook that
    // cannot be loaded may be what guards the permissions declared beside it, so nothing it
    // sits in is applied" — the settings file's other hooks did not run.
    malformed_entry_skips_file: &[EventKind::PreToolUse, EventKind::PermissionRequest],
    host: HostSpec {
        payload_keys: &["transcript_path", "permission_mode"],
        payload_events: &[],
        env_markers: &["CLAUDE_PROJECT_DIR"],
    },
    route: RouteSpec {
        matcher: None,
        grouped: true,
        group_keys: &[],
        command_key: "command",
        timeout_key: Some("timeout"),
        // Docs: a command hook's `timeout` (seconds; the default, 600, is `default_timeout`
        // above) is its limit: past it the hook is cancelled. SessionEnd hooks share less in
        // all (`hook_budget`).
        limit: crate::tables::RouteLimit {
            secs: crate::tables::ROUTE_TIMEOUT,
            on: &[],
        },
        // The user route carries the user's key, so the two lines differ and the agent runs both
        // (attacks row 163): the project route says it is one and leaves the event to the user's.
        names_project_route: true,
        names_folder: false,
    },
    route_trust: None,
    home_var: Some(crate::tables::HomeVar {
        var: "CLAUDE_CONFIG_DIR",
        dir: ".claude",
        source: "claude-facts.md: the user's settings are `$CLAUDE_CONFIG_DIR/settings.json` when it is set (live, Claude Code 2.1.332, attacks row 220)",
    }),
    // Run 2.1.332 (`live_claude::a_wrapper_copy_claude_runs_without_its_user_settings`, attacks
    // row 602): started with `--setting-sources project,local` Claude loads no
    // `~/.claude/settings.json`; its hooks get `CLAUDE_PID`, its own process.
    scope_option: Some(crate::tables::ScopeOption {
        pid_var: "CLAUDE_PID",
        option: "--setting-sources",
        user: "user",
        source: "run: live_claude::a_wrapper_copy_claude_runs_without_its_user_settings (Claude Code 2.1.332)",
    }),
    presence: crate::tables::Presence {
        programs: &["claude"],
        installs: &[".claude/local/claude", ".local/bin/claude"],
        folders: &[".claude"],
    },
    schema: Schema {
        file_name: "claude.schema.json",
        text: include_str!("../../schemas/claude.schema.json"),
    },
};

/// Claude Code 2.1.332 reads a settings file against its schema (run,
/// `live_claude::settings_forms_claude_skips_whole`): a setting of the wrong type (`"model": 5`,
/// `"env": "x"`, `"permissions": {"allow": "Bash"}`, `"statusLine": 5`, `"cleanupPeriodDays":
/// "x"`, `"enabledPlugins": ["x"]`) and none of the file's hooks runs; a handler without `type`
/// is not run, and on PreToolUse or PermissionRequest none of the file's hooks runs
/// (`malformed_entry_skips_file`). Unknown keys, a fractional timeout and an `env` value that
/// is a number leave the file running.
const STRICT_LOAD: crate::tables::StrictLoad = crate::tables::StrictLoad {
    seen: "Claude Code 2.1.332 does not load it, and for a setting or an entry on PreToolUse or PermissionRequest runs none of this file's hooks (said only in its /doctor)",
    toml_seen: None,
    needs_type: true,
    whole_seconds: false,
    known_top_keys: false,
    // Live (attacks rows 253-254): an entry hookx's reader refuses (an unknown type, a command
    // that is no string, a matcher that is a number, a timeout that is no positive number), a
    // timeout of 0, an `http` handler without a `url` that is a URL, an `mcp_tool` one without
    // `server`, an `if`, `shell` or `headers` of another type, a `null` matcher: Claude Code
    // 2.1.332 runs none of the file's hooks. An event that is `null` it takes as none.
    reader_errors: true,
    setting_types: &[
        ("/model", "a string"),
        ("/env", "an object"),
        ("/permissions", "an object"),
        ("/permissions/allow", "an array"),
        ("/permissions/deny", "an array"),
        ("/permissions/ask", "an array"),
        ("/statusLine", "an object"),
        ("/cleanupPeriodDays", "a number"),
        ("/enabledPlugins", "an object"),
    ],
    whole_file_on: Some(&[EventKind::PreToolUse, EventKind::PermissionRequest]),
    zero_timeout: true,
    service_needs: &[
        ("http", "url", true),
        ("mcp_tool", "server", false),
        ("mcp_tool", "tool", false),
    ],
    handler_key_types: &[
        ("if", "a string"),
        ("shell", "a string"),
        ("headers", "an object"),
    ],
    null_matcher: true,
    null_event_is_none: true,
    negative_timeout_loads: false,
    // Row 123: Claude Code reads the last of a duplicate key, as JSON.parse does.
    duplicate_keys: false,
    loads_despite: &[],
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &[],
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
    project_dir_variable: Some("CLAUDE_PROJECT_DIR"),
    provided_env: &[
        "CLAUDE_PLUGIN_ROOT",
        "CLAUDE_PLUGIN_DATA",
        "CLAUDE_ENV_FILE",
        "CLAUDE_CODE_REMOTE",
    ],
    merges_identical_handlers: true,
    version: None,
    stamp: None,
    project_env: crate::tables::ProjectEnv::NONE,
    install_project: ".claude/settings.json",
    install_user: ".claude/settings.json",
    install_hidden_by: &[],
    hook_dir_var: None,
    foreign_switches: &[],
    reads_foreign_as: &[],
    // claude-code 2.1.332 settings schema: `args` (exec form), `onFailure` (`continue` by
    // default, or `block`: a failure counts as exit 2), `asyncRewake` (background, like
    // `async`). `if` (a permission-rule filter) and `shell` are kept but not interpreted:
    // 2.1.332 runs every command with /bin/sh -c, `"shell": "bash"` included (run).
    run_keys: RunKeys {
        exec_args: Some("args"),
        shell: Some("shell"),
        on_failure: Some(OnFailure {
            key: "onFailure",
            continues: "continue",
            blocks: "block",
        }),
        background: &["asyncRewake"],
        wake: &["asyncRewake", "rewakeMessage", "rewakeSummary"],
        condition: Some("if"),
        // A Stop or SubagentStop block past 8 in a row is overridden and the turn ends
        // (2.1.332, binary read: `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP ?? 8`, "A hook blocked the
        // turn from ending N consecutive times"). A hook that never reads `stop_hook_active`
        // relies on it; under another host hookx keeps it (attacks row 380).
        follow_ups: Some(crate::tables::FollowUpCap {
            events: &[EventKind::Stop, EventKind::SubagentStop],
            limit_key: None,
            default_limit: 8,
            count_key: None,
        }),
    },
    implied_type: None,
    strict_load: Some(STRICT_LOAD),
    matcher_not_string_stops_event: false,
    documents: Documents {
        file: &SETTINGS,
        plugin: Some(PluginForm {
            kind: &PLUGIN,
            path_suffix: "hooks/hooks.json",
            marker_key: "description",
            never_named: &["settings.json", "settings.local.json"],
        }),
        frontmatter: Some(&FRONTMATTER),
        toml: None,
    },
    plugin_root_var: Some("CLAUDE_PLUGIN_ROOT"),
    plugin_text: &[],
    convert_target: ".claude/settings.json",
    type_only_on: &[],
    plugins: Some(&PLUGINS),
    extension_switch: None,
    timeout_unit: crate::tables::TimeoutUnit::Seconds,
    zero_timeout_is_none: false,
    // Run 2.1.332 (`live_claude::a_guards_timeout_past_the_timers_reach`, attacks row 1680): a
    // guard at 1e10 s still denies (its runtime, Bun, holds the seconds times 1000).
    timer_limit_ms: None,
    skips_entry_without_positive_timeout: false,
    skips_entry_without_type: false,
    timeout_numeric_strings: false,
    kept_keys: &[],
    scripts: None,
    generated: None,
    rule_list: None,
    // Run 2.1.332 (`tests/live_claude_doctor.rs`): settings with a comment or a trailing comma
    // are dropped whole; the session goes on.
    // "Yes, and don't ask again" writes `permissions.allow` into the settings file
    // (`.claude/settings.local.json`; public issues anthropics/claude-code#21080, #29400, not
    // run here); hookx reads no `permissions` (attack row 327). `/model` writes `model` into
    // `~/.claude/settings.json` (binary 2.1.332: `("userSettings",{model:`; attacks row 1241):
    // hookx reads it only as a setting whose wrong type drops the file (`setting_types`).
    agent_keys: &["permissions", "model"],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax::STRICT,
};

/// claude-code 2.1.332, run (`tests/live_claude.rs`, `plugins_*`; recorded in
/// `tests/fixtures/recorded/claude-2.1.332/plugins/`): a plugin's hooks load when the merged
/// `enabledPlugins` (user < project < local; managed settings are not read) sets its ID to
/// `true`, its marketplace is in `known_marketplaces.json` and that marketplace's catalog
/// lists it. It then loads from its `installed_plugins.json` record's `installPath`, except a
/// relative-path plugin of a `directory` marketplace, which loads from the marketplace folder
/// even when not installed. Installed but not enabled, enabled but not installed (a `git`
/// marketplace), and downloaded only (a marketplace clone): not loaded. An installed plugin
/// with no `enabledPlugins` entry is not loaded either.
static PLUGINS: PluginSpec = PluginSpec {
    registry: ".claude/plugins/installed_plugins.json",
    registry_version: 2,
    plugins_key: "plugins",
    install_path_key: "installPath",
    marketplaces: ".claude/plugins/known_marketplaces.json",
    location_key: "installLocation",
    source_key: "source",
    catalog: ".claude-plugin/marketplace.json",
    catalog_plugins_key: "plugins",
    in_place_kinds: &["directory"],
    enabled_key: "enabledPlugins",
    enabled_in: &["claude-user", "claude-project", "claude-local"],
    hook_file: "hooks/hooks.json",
    downloads: &[".claude/plugins/marketplaces", ".claude/plugins/cache"],
    // `marketplaces/M/plugins/P/hooks/hooks.json`, `cache/M/P/VERSION/hooks/hooks.json`.
    download_depth: 4,
    // 2.1.332, binary: `CLAUDE_PLUGIN_DATA:Eet(n.source)`, `sw(e)=join(Yd(),"data",wye(e))`,
    // `wye(e)=e.replace(/[^a-zA-Z0-9\-_]/g,"-")`, `Yd()` the plugins folder, `mkdirSync`
    // (attacks row 1045); live, `live_claude::plugins_*`.
    data: Some(PluginData {
        var: "CLAUDE_PLUGIN_DATA",
        dir: ".claude/plugins/data",
    }),
};

/// Run-time protocol rows (dialects.md §6, §7), read by `crate::protocol`.
pub(crate) mod protocol_rows {
    use crate::model::event::{AGENT_ID, TOOL_USE_ID};
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AnswerField as F, AnswerText, ArgsForm, EnvValue, Exit2, ExitCodes, ProtocolTables, Slot,
        Writes,
    };

    const HSO: &str = "hookSpecificOutput";
    const PRE: &[EventKind] = &[EventKind::PreToolUse];
    const PERM: &[EventKind] = &[EventKind::PermissionRequest];
    /// Events whose answer takes a top-level `decision: "block"`.
    const BLOCKABLE: &[EventKind] = &[
        EventKind::UserPromptSubmit,
        EventKind::PostToolUse,
        EventKind::PostToolUseFailure,
        EventKind::Stop,
        EventKind::SubagentStop,
    ];
    /// Events whose `hookSpecificOutput` takes `additionalContext` (Stop: the turn goes on
    /// with it, seen in claude-code 2.1.332; SubagentStop: its schema).
    const CONTEXT: &[EventKind] = &[
        EventKind::Stop,
        EventKind::SubagentStop,
        EventKind::SessionStart,
        EventKind::UserPromptSubmit,
        EventKind::PreToolUse,
        EventKind::PostToolUse,
        EventKind::PostToolUseFailure,
        EventKind::Notification,
        EventKind::SubagentStart,
    ];

    pub(crate) const PROTOCOL: ProtocolTables = ProtocolTables {
        event_key: "hook_event_name",
        event_key_only: None,
        event_shapes: &[],
        verbatim_keys: &[],
        // A Stop, a prompt or a task names no call: its prompt, the stop's flag and last
        // message, the task tell it from the session's next one, which would otherwise match
        // a claim left from this one and repeat its block (attacks row 563). Both routes get
        // the same payload (2.1.332, `scopes/pairs.json`).
        call_keys: &[
            TOOL_USE_ID,
            AGENT_ID,
            "prompt_id",
            "prompt",
            "stop_hook_active",
            "last_assistant_message",
            "task_id",
        ],
        tool_args: ArgsForm::Object,
        tool_result_keys: None,
        mcp_context_key: None,
        reshape: None,
        guard_reads_name: None,
        env: &[("CLAUDE_PROJECT_DIR", EnvValue::ProjectDir)],
        // PreCompact: stdout at exit 0 joins the compaction instructions (claude-code 2.1.332).
        command_text_env: &[],
        plain_stdout_context: &[
            EventKind::SessionStart,
            EventKind::UserPromptSubmit,
            EventKind::PreCompact,
        ],
        // Stderr at exit 2 on PostToolUse(Failure) is shown to Claude: that is context.
        // claude-code 2.1.332: PermissionRequest exit 2 is a non-blocking error (the permission
        // flow goes on, stderr never reaches the model); PreCompact exit 2 blocks compaction.
        exit2: &[
            (EventKind::PreToolUse, Exit2::Deny),
            (EventKind::PreCompact, Exit2::Block),
            (EventKind::UserPromptSubmit, Exit2::Block),
            (EventKind::Stop, Exit2::Block),
            (EventKind::SubagentStop, Exit2::Block),
            (EventKind::PostToolUse, Exit2::Context),
            (EventKind::PostToolUseFailure, Exit2::Context),
        ],
        // Run 2.1.332 (tests/live_claude.rs `ground_truth_answer_forms`): a JSON answer on
        // stdout counts at exit 1 (a deny denies, an allow's rewrite runs, PostToolUse context
        // reaches the model) and at exit 2 beside stderr (PreToolUse: the block wins over an
        // allow; PostToolUse: both reach the model). Was `ByCode` (stdout read at exit 0 only).
        exit_codes: ExitCodes::ByCodeAndJson,
        signal_exit: None,
        abort_exit: None,
        answer_text: AnswerText::STDOUT,
        failure_denies: &[],
        fail_closed: &[EventKind::PreToolUse, EventKind::PermissionRequest],
        answer: &[
            F::new(Slot::Continue, &["continue"], Writes::All),
            F::new(Slot::StopReason, &["stopReason"], Writes::All),
            F::new(Slot::SuppressOutput, &["suppressOutput"], Writes::All),
            F::new(Slot::SystemMessage, &["systemMessage"], Writes::All),
            F::new(
                Slot::Permission,
                &[HSO, "permissionDecision"],
                Writes::On(PRE),
            ),
            F::new(
                Slot::PermissionReason,
                &[HSO, "permissionDecisionReason"],
                Writes::On(PRE),
            ),
            F::new(Slot::UpdatedInput, &[HSO, "updatedInput"], Writes::On(PRE)),
            F::new(
                Slot::Behavior,
                &[HSO, "decision", "behavior"],
                Writes::On(PERM),
            ),
            F::new(
                Slot::BehaviorMessage,
                &[HSO, "decision", "message"],
                Writes::On(PERM),
            ),
            F::new(
                Slot::Interrupt,
                &[HSO, "decision", "interrupt"],
                Writes::On(PERM),
            ),
            F::new(
                Slot::BehaviorInput,
                &[HSO, "decision", "updatedInput"],
                Writes::On(PERM),
            ),
            // Current on BLOCKABLE; deprecated `approve`/`block` on PreToolUse, still read.
            F::new(Slot::Decision, &["decision"], Writes::On(BLOCKABLE)),
            F::new(Slot::Reason, &["reason"], Writes::On(BLOCKABLE)),
            F::new(
                Slot::Context,
                &[HSO, "additionalContext"],
                Writes::On(CONTEXT),
            ),
            // Field: many hooks print a top-level additionalContext.
            F::new(Slot::Context, &["additionalContext"], Writes::Never),
            // PostToolUse: the output the model sees instead of the tool's (2.1.332 schema;
            // `updatedMCPToolOutput` for MCP tools, `updatedToolOutput` wins beside it, on MCP
            // tools too). Claude Code keeps the original output when the value is not the
            // tool's own output shape (bundle: "does not match … output shape; using original
            // output"): written in the result forms marked `replaces` (attacks row 1633).
            F::new(
                Slot::ToolResult,
                &[HSO, "updatedMCPToolOutput"],
                Writes::Never,
            ),
            F::new(
                Slot::ToolResult,
                &[HSO, "updatedToolOutput"],
                Writes::On(&[EventKind::PostToolUse]),
            ),
        ],
        updated_input_merges: false,
        updated_input_needs_allow: false,
        reason_alone_is_context: false,
        answer_event_key: Some((HSO, "hookEventName")),
        permission_values: &[Decision::Allow, Decision::Ask, Decision::Deny],
        permission_passes: &[],
        // PreToolUse `defer`: in `-p` Claude Code 2.1.332 runs not the call and ends the run,
        // the call deferred with its original input (live, the answer book's `deferrw` and
        // `deferbare`); interactively it ignores it ("defer is print-mode only", its source).
        // Attacks row 2002 (row 1904): read as no decision, the call ran under other hosts.
        permission_defers: &["defer"],
        // SessionEnd hooks share 1.5 s in all (claude-code 2.1.332 binary, field).
        // Run 2.1.332 (`live_claude::a_block_at_the_session_edges_under_claude_itself`): a
        // SessionStart hook's `decision: block` and its `continue: false` change nothing (the
        // session goes on, the reason reaches nobody); a PreCompact JSON block does stop the
        // compaction (attacks rows 1570, 1571).
        permission_fold: crate::tables::PermissionFold::Strictest,
        // Run 2.1.332 (`live_claude::several_hooks_answers_merge_as_simulate_says`, `k5`,
        // each of two rewriting hooks ending a second late): the last to end's rewrite ran.
        rewrite_race: true,
        ignored_blocks: &[EventKind::SessionStart],
        decision_ignored: &[],
        block_unread: &[],
        block_withholds_result: &[],
        // Run 2.1.332 (attacks rows 2004, 2203): an async hook's `additionalContext` and
        // `systemMessage` reach the model as one message with a later request.
        late_answer: true,
        carried_context: None,
        result_forms: super::RESULT_FORMS,
        // Run 2.1.332 (`live_claude::permission_modes_and_a_hooks_answer`): an allow runs a call `-p`
        // would refuse unasked, in every mode but plan; `permissions.deny` and `permissions.ask`
        // rules still hold (a `Bash` deny rule refuses the call before the hook runs).
        allow_reach: crate::tables::AllowReach::Prompt,
        // PostToolUseFailure with `error` after a failed call (run 2.1.332, `tools.20`).
        failed_call: crate::tables::FailedCall::OwnEvent,
        hook_budget: &[(
            EventKind::SessionEnd,
            1500,
            Some("CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"),
        )],
    };
}

/// Claude Code 2.1.332's tool results (recorded: `tools.05` Bash, `tools.09` Write, `tools.16`
/// Edit, `pty.58` an MCP tool's content).
pub(crate) const RESULT_FORMS: &[ResultForm] = &[
    ResultForm::of(
        ids::SHELL,
        r#"{"stdout": "${stdout}", "stderr": "${stderr}", "interrupted": false,
            "isImage": false, "noOutputExpected": false}"#,
    )
    .replaces(), // live: `live_claude::a_copilot_redaction_replaces_claudes_output`
    // A text file's (an image's is `{"type": "image", …}`, read whole).
    ResultForm::of(
        ids::READ,
        r#"{"type": "text", "file": {"filePath": "${input.file_path}", "content": "${output}",
            "numLines": "${lines}", "startLine": 1, "totalLines": "${lines}"}}"#,
    )
    .replaces(),
    // A subagent's answer, one text part (the other keys are the run's status and counts, not
    // written: another agent's subagent call may have only started one).
    ResultForm::of(
        ids::TASK,
        r#"{"prompt": "${input.prompt}", "content": [{"type": "text", "text": "${output}"}]}"#,
    ),
    ResultForm::of(
        ids::WRITE,
        r#"{"type": "create", "filePath": "${input.file_path}", "content": "${input.content}",
            "structuredPatch": [], "originalFile": null, "userModified": false}"#,
    ),
    // The shape Claude Code's hook documentation gives a Write's result.
    ResultForm::of(
        ids::WRITE,
        r#"{"filePath": "${input.file_path}", "success": true}"#,
    ),
    ResultForm::of(
        ids::EDIT,
        r#"{"filePath": "${input.file_path}", "oldString": "${input.old_string}",
            "newString": "${input.new_string}", "structuredPatch": [], "userModified": false,
            "replaceAll": false}"#,
    ),
    // Taken as a replacement: Claude Code 2.1.332 checks no shape on an MCP tool's (bundle).
    ResultForm::mcp(r#"[{"type": "text", "text": "${output}"}]"#).replaces(),
];
