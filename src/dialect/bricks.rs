//! Bricks: `~/.bricks-project-desktop/hooks.json` and `<project>/.bricks/hooks.json`.

use crate::model::tool::ids;
use crate::model::{EventKind, MatcherStyle};
use crate::tables::ResultForm;
use crate::tables::{ConfigSpec, DocumentKind, Documents, HandlerField, RunKeys};
use crate::tables::{
    DetectSpec, Dialect, DialectDef, Flavor, HostSpec, KeyCase, MatchOn, RouteSpec, Schema, Tables,
    TimestampForm,
};
use crate::tables::{Location, Pattern, Root, Scope};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

pub static TABLES: Tables = Tables {
    name: "bricks",
    dialect: Dialect(&DEF),
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
    exact_field_matchers: false,
    stop_fires_for_subagents: false,
    unfired: &[],
    cadences: &[],
    matcher_tries_names_of: &[],
    mcp_names: crate::tables::MCP_CANONICAL,
    key_case: KeyCase::Snake,
    value_renames: &[],
    event_values: &[],
    key_renames: &[],
    timestamp: TimestampForm::None,
    default_timeout: [60, 60, 60],
    project_dir_var: Some("BRICKS_PROJECT_DIR"),
    project_root_markers: &[],
    project_root_setting: None,
    project_from: crate::tables::ProjectFrom::Cwd,
    parallel: true,
    first_deny_stops_the_rest: false,
    rewrites_chain: false,
    handler_types: &["command"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: None,
    matcher_values: super::BRICKS_MATCHER_VALUES,
    handler_key_overrides: &[],
    invalid_matcher_effect: None,
    tool_scope: crate::tables::ToolScope::Any,
    // No runnable client: no payload was ever recorded.
    payload_object_keys: &[],
    payload_keys: &[],
    other_tools: &[],
    renamed_tools: &[],
    tool_codecs: &[],
};

/// `hooks.json`, with or without the `hooks` wrapper.
pub static FILE: DocumentKind = DocumentKind {
    name: "BricksFile",
    wrapper_optional: true,
    wrapper_ignored: false,
    top_keys: Some(&[]),
    session_env: None,
    frontmatter: false,
};

pub static DEF: DialectDef = DialectDef {
    name: "bricks",
    display: "Bricks",
    product: "Bricks",
    flavors: &[Flavor(&TABLES)],
    config: &CONFIG,
    detect: DetectSpec {
        dirs: &[".bricks/", ".bricks-project-desktop/"],
        file_names: &[],
        unmarked: true,
        sole_event_flavors: &[],
        sole_top_keys: &[],
        sole_handler_keys: &[],
        top_keys: &[],
        handler_keys: &[],
        preferred: false,
    },
    // Global and project files merge additively.
    locations: &[
        Location {
            id: "bricks-global",
            dialect: Dialect(&DEF),
            scope: Scope::Global,
            root: Root::Home,
            pattern: Pattern::File(".bricks-project-desktop/hooks.json"),
        },
        Location {
            id: "bricks-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".bricks/hooks.json"),
        },
    ],
    native: &["bricks-global", "bricks-project"],
    kill_switch: None,
    // The seed documents no machine-wide policy and no folder trust.
    managed: None,
    folder_trust: None,
    malformed_entry_skips_file: &[],
    // Bricks payloads look like Claude's without `transcript_path`.
    disabled_handlers: None,
    host: HostSpec {
        payload_keys: &[],
        payload_events: &[EventKind::GoalUpdate],
        env_markers: &["BRICKS_HOOK_EVENT"],
    },
    route: RouteSpec {
        matcher: Some("*"),
        grouped: true,
        group_keys: &[],
        command_key: "command",
        timeout_key: Some("timeout"),
        // The seed: a hook's `timeout` (seconds, default 60) is its limit.
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
    home_var: None,
    scope_option: None,
    presence: crate::tables::Presence {
        programs: &[],
        installs: &[],
        folders: &[".bricks", ".bricks-project-desktop"],
    },
    schema: Schema {
        file_name: "bricks.schema.json",
        text: include_str!("../../schemas/bricks.schema.json"),
    },
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &[],
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
        ("timeout", HandlerField::Timeout),
    ],
    flat_handlers: false,
    wrapper_optional: true,
    project_dir_variable: Some("BRICKS_PROJECT_DIR"),
    provided_env: &["BRICKS_SESSION_ID", "BRICKS_HOOK_EVENT"],
    merges_identical_handlers: true,
    version: None,
    stamp: None,
    project_env: crate::tables::ProjectEnv::NONE,
    install_project: ".bricks/hooks.json",
    run_keys: RunKeys::NONE,
    plugins: None,
    extension_switch: None,
    timeout_unit: crate::tables::TimeoutUnit::Seconds,
    zero_timeout_is_none: false,
    timer_limit_ms: None,
    skips_entry_without_positive_timeout: false,
    skips_entry_without_type: false,
    timeout_numeric_strings: false,
    kept_keys: &[],
    install_user: ".bricks-project-desktop/hooks.json",
    install_hidden_by: &[],
    hook_dir_var: None,
    foreign_switches: &[],
    reads_foreign_as: &[],
    implied_type: None,
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
    convert_target: ".bricks/hooks.json",
    type_only_on: &[],
    scripts: None,
    generated: None,
    rule_list: None,
    // hookx's own format: strict JSON.
    agent_keys: &[],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax::STRICT,
};

/// Run-time protocol rows (the seed's 実行プロトコル), read by `crate::protocol`.
mod protocol_rows {
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AnswerField as F, AnswerText, ArgsForm, CANONICAL_CALL_KEYS, EnvValue, Exit2, ExitCodes,
        ProtocolTables, Slot, Writes,
    };

    const HSO: &str = "hookSpecificOutput";
    const PRE: &[EventKind] = &[EventKind::PreToolUse];
    /// The events the seed calls blockable.
    const BLOCKABLE: &[EventKind] = &[EventKind::PreToolUse, EventKind::UserPromptSubmit];

    pub(super) const PROTOCOL: ProtocolTables = ProtocolTables {
        event_key: "hook_event_name",
        event_key_only: None,
        event_shapes: &[],
        verbatim_keys: &[],
        call_keys: CANONICAL_CALL_KEYS,
        tool_args: ArgsForm::Object,
        tool_result_keys: None,
        mcp_context_key: None,
        reshape: None,
        guard_reads_name: None,
        env: &[
            ("BRICKS_PROJECT_DIR", EnvValue::ProjectDir),
            ("BRICKS_SESSION_ID", EnvValue::SessionId),
            ("BRICKS_HOOK_EVENT", EnvValue::EventName),
        ],
        command_text_env: &[],
        plain_stdout_context: &[],
        exit2: &[
            (EventKind::PreToolUse, Exit2::Deny),
            (EventKind::UserPromptSubmit, Exit2::Block),
        ],
        exit_codes: ExitCodes::ByCode,
        signal_exit: None,
        abort_exit: None,
        answer_text: AnswerText::STDOUT,
        failure_denies: &[],
        fail_closed: &[EventKind::PreToolUse],
        // Only what the seed documents is written; Claude-style context is tolerated on input.
        answer: &[
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
            F::new(Slot::Decision, &["decision"], Writes::On(BLOCKABLE)),
            F::new(Slot::Reason, &["reason"], Writes::On(BLOCKABLE)),
            F::new(
                Slot::Context,
                &["additionalContext"],
                Writes::On(&[EventKind::PostToolUse]),
            ),
            F::new(Slot::Context, &[HSO, "additionalContext"], Writes::Never),
        ],
        updated_input_merges: false,
        updated_input_needs_allow: false,
        reason_alone_is_context: false,
        answer_event_key: None,
        // The seed shows deny only; allow and ask fall back to Bricks' own flow.
        permission_passes: &[],
        permission_defers: &[],
        // Bricks follows Claude Code's conventions (documents): taken as Claude's.
        allow_reach: crate::tables::AllowReach::Prompt,
        failed_call: crate::tables::FailedCall::Unmarked,
        permission_fold: crate::tables::PermissionFold::Strictest,
        rewrite_race: false,
        ignored_blocks: &[],
        decision_ignored: &[],
        block_unread: &[],
        block_withholds_result: &[],
        late_answer: false,
        carried_context: None,
        result_forms: super::RESULT_FORMS,
        hook_budget: &[],
        permission_values: &[Decision::Deny],
    };
}

/// Bricks' shell result, as its seed's PostToolUse payload gives it
/// (`tests/fixtures/payloads/bricks/PostToolUse.json`).
const RESULT_FORMS: &[ResultForm] = &[ResultForm::of(
    ids::SHELL,
    r#"{"stdout": "${stdout}", "exit_code": "${exit_code}"}"#,
)];
