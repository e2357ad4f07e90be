//! Cursor: `.cursor/hooks.json`, `~/.cursor/hooks.json` and the enterprise `hooks.json` (Linux
//! `/etc/cursor`), `{"version": 1, "hooks": {event: [entry]}}` with camelCase events and flat
//! `{command, type, matcher, timeout}` entries.
//!
//! Every fact here is "docs": read in cursor.com/docs/agent/hooks and
//! cursor.com/docs/reference/third-party-hooks and in integrators' references that quote them
//! (conformance/cursor-facts.md names each source); none was verified by running Cursor.
//!
//! Some Cursor events are a tool category rather than a moment (`beforeShellExecution` is
//! `preToolUse` for the shell, with the command at the top of the payload and no `tool_name`).
//! Each category is a flavour of its own, with a [`ToolScope`] and top-level arguments, so
//! that its rules fire under other hosts only for those tools, and convert to a matcher.

use crate::tables::{
    BrokenPolicy, DetectSpec, Dialect, DialectDef, Flavor, HostSpec, KeyCase, ManagedSpec, MatchOn,
    RouteSpec, Schema, Tables, TimestampForm, ToolScope,
};

use crate::dialect::{CLAUDE_MATCHER_STYLE, CLAUDE_MATCHER_TARGETS};
use crate::model::EventKind;
use crate::model::tool::ids;
use crate::tables::ArgsForm;
use crate::tables::{ConfigSpec, DocumentKind, Documents, HandlerField, RunKeys};
use crate::tables::{Location, Pattern, Root, Scope};

pub static DIALECT: Dialect = Dialect(&DEF);
/// The generic events (`preToolUse`, `stop`, …).
pub static FLAVOR: Flavor = Flavor(&TABLES);

/// `preToolUse` tool names: "Shell", "Read", "Write", "StrReplace", MCP tools as
/// `MCP:server:tool` (agents.md, Cursor: match). Argument names are not documented: taken to
/// be Claude's.
const TOOLS: &[(&str, &[&str])] = &[
    (ids::SHELL, &["Shell"]),
    (ids::READ, &["Read"]),
    (ids::WRITE, &["Write"]),
    (ids::EDIT, &["StrReplace"]),
    (ids::TASK, &["Task"]),
];

/// One flavour's tables: what differs between the flavours is given, the rest is shared.
macro_rules! cursor_tables {
    (
        name: $name:expr,
        events: $events:expr,
        matcher_targets: $targets:expr,
        matcher_tries: $tries:expr,
        value_renames: &[],
        event_values: &[],
        key_renames: $renames:expr,
        matcher_values: $values:expr,
        protocol: $protocol:expr,
        tool_scope: $scope:expr $(,)?
    ) => {
        Tables {
            name: $name,
            dialect: Dialect(&DEF),
            events: $events,
            tools: TOOLS,
            tool_args: &[],
            matcher_targets: $targets,
            // Not documented beyond single names (`"matcher": "Shell"`): read as Claude's.
            matcher_style: CLAUDE_MATCHER_STYLE,
            exact_field_matchers: false,
            stop_fires_for_subagents: false,
            unfired: &[],
            cadences: &[],
            mcp_names: crate::tables::MCP_CANONICAL,
            matcher_tries_names_of: $tries,
            key_case: KeyCase::Snake,
            value_renames: &[],
            event_values: &[],
            key_renames: $renames,
            timestamp: TimestampForm::None,
            // Unit and default are not documented; hookx takes seconds, Claude's prompt default.
            default_timeout: [60, 30, 60],
            project_dir_var: None,
            project_root_markers: &[],
            project_root_setting: None,
            // "`workspace_roots`" in every payload [cupcake]; a shell event's `cwd` is the
            // command's, and the folder hooks run in is not documented (attacks row 565).
            project_from: crate::tables::ProjectFrom::Field("workspace_roots"),
            parallel: true,
            first_deny_stops_the_rest: false,
            rewrites_chain: false,
            handler_types: &["command", "prompt"],
            protocol: $protocol,
            verified_with: None,
            matcher_values: $values,
            handler_key_overrides: &[],
            invalid_matcher_effect: None,
            tool_scope: $scope,
            other_tools: &[],
            renamed_tools: &[],
            tool_codecs: &[],
            // No runnable client: no payload was ever recorded.
            payload_object_keys: &[],
            payload_keys: &[],
        }
    };
}

/// `conversation_id` names the session.
const SESSION: (&str, &str) = ("session_id", "conversation_id");

/// The generic events.
pub static TABLES: Tables = cursor_tables! {
    name: "cursor",
    events: &[
        (EventKind::SessionStart, "sessionStart"),
        (EventKind::SessionEnd, "sessionEnd"),
        (EventKind::UserPromptSubmit, "beforeSubmitPrompt"),
        (EventKind::PreToolUse, "preToolUse"),
        (EventKind::PostToolUse, "postToolUse"),
        (EventKind::PostToolUseFailure, "postToolUseFailure"),
        (EventKind::SubagentStart, "subagentStart"),
        (EventKind::SubagentStop, "subagentStop"),
        (EventKind::Stop, "stop"),
        (EventKind::PreCompact, "preCompact"),
        (EventKind::AfterAgentResponse, "afterAgentResponse"),
        (EventKind::AfterAgentThought, "afterAgentThought"),
    ],
    // "`matcher` only on the generic tool events".
    matcher_targets: &[
        (EventKind::PreToolUse, MatchOn::ToolName),
        (EventKind::PostToolUse, MatchOn::ToolName),
        (EventKind::PostToolUseFailure, MatchOn::ToolName),
    ],
    matcher_tries: &[],
    value_renames: &[],
    event_values: &[],
    key_renames: &[SESSION],
    matcher_values: &[],
    protocol: protocol_rows::GENERIC,
    tool_scope: ToolScope::Any,
};

/// `beforeShellExecution` / `afterShellExecution`: `command` (and `cwd`) at the top, `output`
/// after.
pub static SHELL_TABLES: Tables = cursor_tables! {
    name: "cursor-shell",
    events: &[
        (EventKind::PreToolUse, "beforeShellExecution"),
        (EventKind::PostToolUse, "afterShellExecution"),
    ],
    matcher_targets: &[],
    matcher_tries: &[],
    value_renames: &[],
    event_values: &[],
    key_renames: &[SESSION, ("tool_response", "output")],
    matcher_values: &[],
    protocol: protocol_rows::category(ArgsForm::TopLevel(&["command"])),
    tool_scope: ToolScope::Only(&[ids::SHELL]),
};

/// `beforeMCPExecution` / `afterMCPExecution`: `tool_name` (the server's own name for it),
/// `tool_input` as a JSON string, `result_json` after.
pub static MCP_TABLES: Tables = cursor_tables! {
    name: "cursor-mcp",
    events: &[
        (EventKind::PreToolUse, "beforeMCPExecution"),
        (EventKind::PostToolUse, "afterMCPExecution"),
    ],
    matcher_targets: &[],
    matcher_tries: &[],
    value_renames: &[],
    event_values: &[],
    key_renames: &[SESSION, ("tool_response", "result_json")],
    matcher_values: &[],
    protocol: protocol_rows::category(ArgsForm::JsonString),
    tool_scope: ToolScope::Mcp,
};

/// `beforeReadFile`: `file_path` (and the file's `content`) at the top.
pub static READ_TABLES: Tables = cursor_tables! {
    name: "cursor-read",
    events: &[(EventKind::PreToolUse, "beforeReadFile")],
    matcher_targets: &[],
    matcher_tries: &[],
    value_renames: &[],
    event_values: &[],
    key_renames: &[SESSION],
    matcher_values: &[],
    protocol: protocol_rows::category(ArgsForm::TopLevel(&["file_path"])),
    tool_scope: ToolScope::Only(&[ids::READ]),
};

/// `afterFileEdit`: `file_path` and the `edits` made.
pub static EDIT_TABLES: Tables = cursor_tables! {
    name: "cursor-edit",
    events: &[(EventKind::PostToolUse, "afterFileEdit")],
    matcher_targets: &[],
    matcher_tries: &[],
    value_renames: &[],
    event_values: &[],
    key_renames: &[SESSION],
    matcher_values: &[],
    protocol: protocol_rows::category(ArgsForm::TopLevel(&["file_path", "edits"])),
    tool_scope: ToolScope::Only(&[ids::EDIT, ids::WRITE, ids::MULTI_EDIT]),
};

/// Claude's files run by Cursor (third-party hooks): Claude's event names and answers, with
/// Cursor's values in the payload ("Shell", `workspace_roots`, `conversation_id`).
pub static CLAUDE_COMPAT_TABLES: Tables = cursor_tables! {
    name: "cursor-claude",
    events: &[
        (EventKind::SessionStart, "SessionStart"),
        (EventKind::SessionEnd, "SessionEnd"),
        (EventKind::UserPromptSubmit, "UserPromptSubmit"),
        (EventKind::PreToolUse, "PreToolUse"),
        (EventKind::PostToolUse, "PostToolUse"),
        (EventKind::PostToolUseFailure, "PostToolUseFailure"),
        (EventKind::SubagentStart, "SubagentStart"),
        (EventKind::SubagentStop, "SubagentStop"),
        (EventKind::Stop, "Stop"),
        (EventKind::PreCompact, "PreCompact"),
    ],
    matcher_targets: CLAUDE_MATCHER_TARGETS,
    // Claude's files name Claude's tools: their matchers are taken to be read in Claude's
    // names too (not documented), while the payload carries Cursor's.
    matcher_tries: &[super::claude::FLAVOR],
    value_renames: &[],
    event_values: &[],
    key_renames: &[SESSION],
    matcher_values: super::CLAUDE_MATCHER_VALUES,
    protocol: super::claude::protocol_rows::PROTOCOL,
    tool_scope: ToolScope::Any,
};

/// `{"version": 1, "hooks": …}`.
pub static FILE: DocumentKind = DocumentKind {
    name: "CursorHooksFile",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: Some(&["version"]),
    session_env: None,
    frontmatter: false,
};

pub static DEF: DialectDef = DialectDef {
    name: "cursor",
    display: "Cursor",
    product: "Cursor (docs)",
    flavors: &[
        Flavor(&TABLES),
        Flavor(&SHELL_TABLES),
        Flavor(&MCP_TABLES),
        Flavor(&READ_TABLES),
        Flavor(&EDIT_TABLES),
        Flavor(&CLAUDE_COMPAT_TABLES),
    ],
    config: &CONFIG,
    // Its generic camelCase events are Copilot's too; the category events are Cursor's alone.
    detect: DetectSpec {
        dirs: &[".cursor/"],
        file_names: &[],
        unmarked: false,
        sole_event_flavors: &[
            Flavor(&SHELL_TABLES),
            Flavor(&MCP_TABLES),
            Flavor(&READ_TABLES),
            Flavor(&EDIT_TABLES),
        ],
        sole_top_keys: &[],
        sole_handler_keys: &["failClosed", "loop_limit"],
        top_keys: &[],
        handler_keys: &[],
        preferred: false,
    },
    locations: &[
        // "Global (Enterprise-managed)": one `hooks.json` in the policy folder, above team,
        // project and user hooks [hooks].
        Location {
            id: "cursor-enterprise",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::File("hooks.json"),
        },
        Location {
            id: "cursor-user",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".cursor/hooks.json"),
        },
        Location {
            id: "cursor-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".cursor/hooks.json"),
        },
    ],
    // Third-party hooks: `.claude/settings.local.json`, `.claude/settings.json` and
    // `~/.claude/settings.json`, when the user turns the setting on (hookx assumes on).
    native: &[
        "cursor-enterprise",
        "cursor-user",
        "cursor-project",
        "claude-user",
        "claude-project",
        "claude-local",
    ],
    kill_switch: None,
    // Enterprise hooks [hooks]: "Linux/WSL: /etc/cursor/hooks.json", "macOS: /Library/Application
    // Support/Cursor/hooks.json" (Windows `C:\ProgramData\Cursor` is not modelled). "All matching
    // hooks from every source run" [third-party]: no key keeps only them, and Cursor has no kill
    // switch. Team hooks come from the dashboard, to a folder not documented: not read. Project
    // hooks "run in any trusted workspace", but where Cursor records trust is not documented, and
    // neither is what a malformed entry does.
    managed: Some(ManagedSpec {
        dirs: &[
            ("linux", "/etc/cursor"),
            ("macos", "/Library/Application Support/Cursor"),
        ],
        only_managed_key: None,
        hooks_off: None,
        // Not documented: taken as skipped, the rest read.
        broken_policy: BrokenPolicy::Skipped,
        kill_switch_reaches_policy: false,
        any_kill_switch_reaches_policy: false,
        // Not documented: read wherever it lies, whoever owns it.
        root_owned_only: false,
        moved_by: &[],
        source: "docs: cursor.com/docs/agent/hooks (Configuration, MDM Distribution), \
                 cursor.com/docs/reference/third-party-hooks (Priority Order)",
    }),
    folder_trust: None,
    disabled_handlers: None,
    route_trust: None,
    home_var: None,
    malformed_entry_skips_file: &[],
    host: HostSpec {
        payload_keys: &["conversation_id", "generation_id", "workspace_roots"],
        payload_events: &[],
        env_markers: &[],
    },
    route: RouteSpec {
        matcher: None,
        grouped: false,
        group_keys: &[],
        command_key: "command",
        // Docs: cursor.com/docs/agent/hooks, "Per-Script Configuration Options": `timeout`,
        // number, default "platform default", "Execution timeout in seconds" (and the
        // command-hook example `"timeout": 30`). The platform default itself is not given and
        // no cap is documented, so install writes the 60 s hookx assumed before: the route's
        // limit is then the one the entry sets, not a guess (cursor-facts.md).
        timeout_key: Some("timeout"),
        limit: crate::tables::RouteLimit { secs: 60, on: &[] },
        // Docs: "All matching hooks from every source run" (cursor-facts.md): both routes
        // would (tests/double_runs.rs).
        names_project_route: true,
        names_folder: false,
    },
    scope_option: None,
    presence: crate::tables::Presence {
        programs: &["cursor", "cursor-agent"],
        installs: &[".local/bin/cursor-agent"],
        folders: &[".cursor"],
    },
    schema: Schema {
        file_name: "cursor.schema.json",
        text: include_str!("../../schemas/cursor.schema.json"),
    },
};

static CONFIG: ConfigSpec = ConfigSpec {
    // Tab's events (Tab, not the agent) and the workspace's: Cursor's own (cursor-facts.md),
    // with no counterpart elsewhere (attacks row 1180: validate called them unknown).
    other_events: &["beforeTabFileRead", "afterTabFileEdit", "workspaceOpen"],
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
        ("prompt", HandlerField::Prompt),
        ("timeout", HandlerField::Timeout),
    ],
    flat_handlers: true,
    wrapper_optional: false,
    timeout_unit: crate::tables::TimeoutUnit::Seconds,
    zero_timeout_is_none: false,
    timer_limit_ms: None,
    skips_entry_without_positive_timeout: false,
    skips_entry_without_type: false,
    timeout_numeric_strings: false,
    kept_keys: &[],
    // No variable documented; "command paths are relative to the .cursor/hooks.json file".
    project_dir_variable: None,
    provided_env: &[],
    merges_identical_handlers: false,
    version: Some(1),
    stamp: None,
    project_env: crate::tables::ProjectEnv::NONE,
    install_project: ".cursor/hooks.json",
    install_user: ".cursor/hooks.json",
    install_hidden_by: &[],
    hook_dir_var: None,
    reads_foreign_as: &[(Dialect(&super::claude::DEF), Flavor(&CLAUDE_COMPAT_TABLES))],
    // [third-party] "Requirements … Enable Third-party skills in Cursor Settings → Rules,
    // Skills, Subagents → Include third-party Plugins, Skills, and other configs": a switch in
    // the settings window, in no documented file, so `install` cannot set it.
    foreign_switches: &[crate::tables::ForeignSwitch {
        dialect: Dialect(&super::claude::DEF),
        off: Some(
            "turn off Cursor Settings → Rules, Skills, Subagents → \"Include third-party \
             Plugins, Skills, and other configs\"",
        ),
        source: "docs: cursor.com/docs/reference/third-party-hooks (Requirements)",
        hooks: None,
        drops: None,
    }],
    // `stop`: "max 5 enforced by Cursor" [hookshot], per hook `loop_limit` (default 5), and
    // the payload's `loop_count`, the follow-ups so far (cursor-facts.md). Under another host
    // hookx keeps them (attacks row 306). `loop_limit: null` is in none of the sources read:
    // taken as the default, as is any value that is not a whole number. `subagentStop`: the
    // sources read document neither a follow-up nor a cap there, but hookx reads its
    // `followup_message` as a SubagentStop block all the same, so it caps it as `stop`'s: a
    // hook that always follows up never traps a subagent (row 306's leftover).
    // `failClosed: true`: "failures fail-open unless `failClosed`" [agents]; a failure (a
    // crash, a timeout) then counts as exit 2, a deny, under every host hookx runs it for
    // (attacks row 1823: a routed Cursor guard that failed let the call through elsewhere).
    run_keys: RunKeys {
        on_failure: Some(crate::tables::OnFailure {
            key: "failClosed",
            continues: "false",
            blocks: "true",
        }),
        follow_ups: Some(crate::tables::FollowUpCap {
            events: &[EventKind::Stop, EventKind::SubagentStop],
            limit_key: Some("loop_limit"),
            default_limit: 5,
            count_key: Some("loop_count"),
        }),
        ..RunKeys::NONE
    },
    implied_type: Some("command"),
    strict_load: None,
    matcher_not_string_stops_event: false,
    documents: Documents {
        file: &FILE,
        plugin: None,
        frontmatter: None,
        toml: None,
    },
    plugin_root_var: None,
    plugin_text: &[],
    convert_target: ".cursor/hooks.json",
    type_only_on: &[],
    plugins: None,
    extension_switch: None,
    scripts: None,
    generated: None,
    rule_list: None,
    // Its documents say nothing of comments: read as strict JSON.
    agent_keys: &[],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax::STRICT,
};

/// Run-time protocol rows: the answer shapes per event (cursor.com/docs/agent/hooks, as quoted
/// by cupcake.eqtylab.io and pivanov.github.io/agent-hooks-bridge).
mod protocol_rows {
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AnswerField as F, AnswerText, ArgsForm, CANONICAL_CALL_KEYS, Exit2, ExitCodes,
        ProtocolTables, Slot, Writes,
    };

    const PRE: &[EventKind] = &[EventKind::PreToolUse];
    /// `beforeSubmitPrompt`: `{continue, user_message}`.
    const PROMPT: &[EventKind] = &[EventKind::UserPromptSubmit];
    /// `stop`: `followup_message` makes the agent go on with it.
    const STOP: &[EventKind] = &[EventKind::Stop];
    /// `additional_context`: sessionStart, postToolUse.
    const CONTEXT: &[EventKind] = &[EventKind::SessionStart, EventKind::PostToolUse];
    /// "exit 2 = deny".
    const EXIT2: &[(EventKind, Exit2)] = &[
        (EventKind::PreToolUse, Exit2::Deny),
        (EventKind::UserPromptSubmit, Exit2::Block),
    ];
    const ALL_DECISIONS: &[Decision] = &[Decision::Allow, Decision::Ask, Decision::Deny];
    /// The permission answer of the `before…` events: the reason goes to the model
    /// (`agent_message`) and to the user (`user_message`).
    const PERMISSION: [F; 3] = [
        F::new(Slot::Permission, &["permission"], Writes::On(PRE)),
        F::new(Slot::PermissionReason, &["agent_message"], Writes::On(PRE)),
        F::new(Slot::PermissionReason, &["user_message"], Writes::On(PRE)),
    ];

    pub(super) const GENERIC: ProtocolTables = ProtocolTables {
        event_key: "hook_event_name",
        event_key_only: None,
        mcp_context_key: None,
        reshape: None,
        guard_reads_name: None,
        exit_codes: ExitCodes::ByCode,
        updated_input_merges: false,
        updated_input_needs_allow: false,
        reason_alone_is_context: false,
        event_shapes: &[],
        verbatim_keys: &[],
        call_keys: CANONICAL_CALL_KEYS,
        tool_args: ArgsForm::ObjectOrString,
        tool_result_keys: None,
        env: &[],
        command_text_env: &[],
        plain_stdout_context: &[],
        exit2: EXIT2,
        // "failures fail-open unless `failClosed`".
        signal_exit: None,
        abort_exit: None,
        answer_text: AnswerText::STDOUT,
        failure_denies: &[],
        fail_closed: PRE,
        answer: &[
            PERMISSION[0],
            PERMISSION[1],
            PERMISSION[2],
            // `updated_input` on preToolUse only.
            F::new(Slot::UpdatedInput, &["updated_input"], Writes::On(PRE)),
            F::new(Slot::Continue, &["continue"], Writes::On(PROMPT)),
            F::new(Slot::StopReason, &["user_message"], Writes::On(PROMPT)),
            F::new(
                Slot::BlockingReason,
                &["followup_message"],
                Writes::On(STOP),
            ),
            F::new(Slot::Context, &["additional_context"], Writes::On(CONTEXT)),
        ],
        answer_event_key: None,
        permission_values: ALL_DECISIONS,
        permission_passes: &[],
        permission_defers: &[],
        // Cursor's documents: an allow runs the call without asking (no client here).
        allow_reach: crate::tables::AllowReach::Prompt,
        // postToolUseFailure (docs).
        failed_call: crate::tables::FailedCall::OwnEvent,
        permission_fold: crate::tables::PermissionFold::Strictest,
        rewrite_race: false,
        ignored_blocks: &[],
        decision_ignored: &[],
        block_unread: &[],
        block_withholds_result: &[],
        late_answer: false,
        carried_context: None,
        result_forms: &[],
        hook_budget: &[],
    };

    /// A tool-category flavour: the permission answer before, nothing after
    /// ("fire-and-forget").
    pub(super) const fn category(args: ArgsForm) -> ProtocolTables {
        ProtocolTables {
            tool_args: args,
            answer: &PERMISSION,
            // Its after event follows every call: it has no failure event of its own.
            failed_call: crate::tables::FailedCall::Unmarked,
            ..GENERIC
        }
    }
}
