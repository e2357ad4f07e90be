//! VS Code agent hooks (the "Local" harness, Preview): `.github/hooks/*.json` with PascalCase
//! events and flat `{type, command, windows, linux, osx, cwd, env, timeout}` entries.
//!
//! Every fact here is "docs": read in microsoft/vscode-docs `docs/agent-customization/hooks.md`
//! (conformance/vscode-facts.md quotes each), none verified by running VS Code.
//!
//! VS Code has no file of its own: it reads Copilot's folders and Claude's settings files and
//! sends every handler in them its own payload. A file is VS Code's only when `--from vscode`
//! says so.

use crate::tables::{
    BrokenPolicy, DetectSpec, Dialect, DialectDef, Flavor, HostSpec, KeyCase, ManagedSpec,
    RouteSpec, Schema, Tables, TimestampForm, ToolScope,
};

use crate::dialect::CLAUDE_MATCHER_STYLE;
use crate::model::EventKind;
use crate::model::tool::ids;
use crate::tables::{ConfigSpec, DocumentKind, Documents, HandlerField, RunKeys};
use crate::tables::{Location, Pattern, Root, Scope};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

/// "Claude Code uses snake_case for tool input properties (`tool_input.file_path`), while VS
/// Code tools use camelCase (`tool_input.filePath`)" (hooks.md, FAQ).
const FILE_ARGS: &[(&str, &str)] = &[
    ("file_path", "filePath"),
    ("old_string", "oldString"),
    ("new_string", "newString"),
];

pub static TABLES: Tables = Tables {
    name: "vscode",
    dialect: Dialect(&DEF),
    // "VS Code supports eight hook events" (hooks.md, Hook lifecycle events).
    events: &[
        (EventKind::SessionStart, "SessionStart"),
        (EventKind::UserPromptSubmit, "UserPromptSubmit"),
        (EventKind::PreToolUse, "PreToolUse"),
        (EventKind::PostToolUse, "PostToolUse"),
        (EventKind::PreCompact, "PreCompact"),
        (EventKind::SubagentStart, "SubagentStart"),
        (EventKind::SubagentStop, "SubagentStop"),
        (EventKind::Stop, "Stop"),
    ],
    // The tool names the docs show: `runTerminalCommand`, `editFiles`, `createFile` (usage
    // scenarios), `create_file`, `replace_string_in_file` (FAQ). The first is the one written.
    // After them, source (not run): the FAQ's two are values of the Copilot extension's
    // `ToolName` (microsoft/vscode-copilot-chat `toolNames.ts`), whose others for the same
    // tools are listed too, so that a guard's matcher fires on them and, where hookx is
    // missing, a read is not denied by a `Bash` guard's copy (attacks row 1389).
    tools: &[
        (ids::SHELL, &["runTerminalCommand", "run_in_terminal"]),
        (ids::WRITE, &["create_file", "createFile"]),
        (
            ids::EDIT,
            &[
                "replace_string_in_file",
                "editFiles",
                "insert_edit_into_file",
            ],
        ),
        (ids::MULTI_EDIT, &["multi_replace_string_in_file"]),
        (ids::READ, &["read_file"]),
        (ids::GLOB, &["file_search"]),
        (ids::GREP, &["grep_search"]),
    ],
    tool_args: &[
        (ids::WRITE, FILE_ARGS),
        (ids::EDIT, FILE_ARGS),
        (ids::MULTI_EDIT, FILE_ARGS),
        (ids::READ, FILE_ARGS),
    ],
    // "Hook matchers like "Edit|Write" are parsed but not applied. All hooks run on every
    // matching event" (hooks.md, FAQ): no event filters on a matcher.
    matcher_targets: &[],
    matcher_style: CLAUDE_MATCHER_STYLE,
    exact_field_matchers: false,
    stop_fires_for_subagents: false,
    unfired: &[],
    cadences: &[],
    mcp_names: crate::tables::MCP_CANONICAL,
    matcher_tries_names_of: &[],
    // Mixed casing: `sessionId`, `hookEventName` beside `tool_name`, `tool_input`,
    // `transcript_path` (hooks.md, Common input fields).
    key_case: KeyCase::Snake,
    // Docs: SessionStart `source` is "Currently always "new"", a new session (attacks row 1323).
    value_renames: &[(EventKind::SessionStart, "source", "startup", "new")],
    event_values: &[],
    key_renames: &[("session_id", "sessionId")],
    timestamp: TimestampForm::Iso8601,
    // "Timeout in seconds (default: 30)".
    default_timeout: [30, 30, 30],
    project_dir_var: None,
    project_root_markers: &[],
    project_root_setting: None,
    project_from: crate::tables::ProjectFrom::Cwd,
    // Not stated; "the most restrictive decision wins" either way.
    parallel: false,
    first_deny_stops_the_rest: false,
    rewrites_chain: false,
    // "Each hook entry must have type: "command"".
    handler_types: &["command"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: None,
    // SessionStart `source`: "Currently always "new"".
    matcher_values: &[(EventKind::SessionStart, &["new"])],
    handler_key_overrides: &[],
    invalid_matcher_effect: None,
    tool_scope: ToolScope::Any,
    other_tools: &[],
    renamed_tools: &[],
    tool_codecs: &[],
    // No runnable client: no payload was ever recorded.
    payload_object_keys: &[],
    payload_keys: &[],
};

/// `{"hooks": {Event: [entry]}}`.
pub static FILE: DocumentKind = DocumentKind {
    name: "VsCodeHookFile",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: Some(&[]),
    session_env: None,
    frontmatter: false,
};

pub static DEF: DialectDef = DialectDef {
    name: "vscode",
    display: "VS Code",
    product: "VS Code agent hooks (docs)",
    flavors: &[Flavor(&TABLES)],
    config: &CONFIG,
    // Its files are Copilot's folders with Claude's event names: nothing marks one as VS Code's.
    detect: DetectSpec {
        dirs: &[],
        file_names: &[],
        unmarked: false,
        sole_event_flavors: &[],
        sole_top_keys: &[],
        sole_handler_keys: &[],
        top_keys: &[],
        handler_keys: &[],
        preferred: false,
    },
    // The Linux policy file (enterprise/policies.md, "Linux JSON policies"): policy names and
    // values, no hooks of its own; read for `ChatHooks` and `ChatAllowManagedHooksOnly`.
    locations: &[Location {
        id: "vscode-policy",
        dialect: Dialect(&DEF),
        scope: Scope::Managed,
        root: Root::Managed,
        pattern: Pattern::File("policy.json"),
    }],
    // hooks.md, Hook file locations: `.github/hooks/*.json`, `.claude/settings.json`,
    // `.claude/settings.local.json`, `~/.copilot/hooks`, `~/.claude/settings.json`.
    native: &[
        "vscode-policy",
        "copilot-user",
        "copilot-project",
        "claude-user",
        "claude-project",
        "claude-local",
    ],
    kill_switch: None,
    // Device policies (enterprise/manage-ai-settings.md, "Enable or disable hooks"): "Set the
    // `ChatHooks` device policy to `false` to disable hooks in the Local harness"; "Use the
    // `ChatAllowManagedHooksOnly` device policy to allow hooks only from enterprise-managed
    // sources and plugins that policy force-enables" (hookx reads no managed hook source of VS
    // Code's, nor its plugins: under it nothing but other agents' policy files runs). Linux
    // reads them from `/etc/vscode/policy.json` (VS Code 1.106 and later); macOS from a
    // configuration profile and Windows from the registry, neither a file hookx reads. The
    // `chat.useHooks` user setting, folder trust and what a malformed entry does are not read.
    managed: Some(ManagedSpec {
        dirs: &[("linux", "/etc/vscode")],
        only_managed_key: Some("ChatAllowManagedHooksOnly"),
        hooks_off: Some(("ChatHooks", false)),
        // Not documented: taken as skipped (it holds no hooks anyway).
        broken_policy: BrokenPolicy::Skipped,
        kill_switch_reaches_policy: false,
        any_kill_switch_reaches_policy: false,
        root_owned_only: false,
        moved_by: &[],
        source: "docs: microsoft/vscode-docs docs/enterprise/manage-ai-settings.md (Enable or \
                 disable hooks), docs/enterprise/policies.md (Linux JSON policies)",
    }),
    folder_trust: None,
    disabled_handlers: None,
    route_trust: None,
    home_var: None,
    malformed_entry_skips_file: &[],
    host: HostSpec {
        // Its event key; `sessionId` is Copilot's too.
        payload_keys: &["hookEventName"],
        payload_events: &[],
        env_markers: &[],
    },
    route: RouteSpec {
        matcher: None,
        grouped: false,
        group_keys: &[],
        command_key: "command",
        timeout_key: Some("timeout"),
        // Docs: "`timeout` Timeout in seconds (default: 30)".
        limit: crate::tables::RouteLimit {
            secs: crate::tables::ROUTE_TIMEOUT,
            on: &[],
        },
        // It reads every hook file and merges none (vscode-facts.md): both routes would
        // (tests/double_runs.rs).
        names_project_route: true,
        names_folder: false,
    },
    scope_option: None,
    presence: crate::tables::Presence {
        programs: &["code"],
        installs: &[],
        folders: &[],
    },
    schema: Schema {
        file_name: "vscode.schema.json",
        text: include_str!("../../schemas/vscode.schema.json"),
    },
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &[],
    // hooks.md, Hook command properties.
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
        ("windows", HandlerField::Windows),
        ("linux", HandlerField::Linux),
        ("osx", HandlerField::Osx),
        ("cwd", HandlerField::Cwd),
        ("env", HandlerField::Env),
        ("timeout", HandlerField::Timeout),
    ],
    // Copilot's `bash` and `powershell` ("mapped to OS-specific commands", FAQ) are VS Code
    // reading Copilot's files, which are Copilot's dialect; `timeoutSec`, in one example of the
    // docs but in no table, is kept as written.
    flat_handlers: true,
    wrapper_optional: false,
    timeout_unit: crate::tables::TimeoutUnit::Seconds,
    zero_timeout_is_none: false,
    timer_limit_ms: None,
    skips_entry_without_positive_timeout: false,
    skips_entry_without_type: false,
    timeout_numeric_strings: false,
    kept_keys: &[],
    // No variable documented; `cwd` is "relative to repository root".
    project_dir_variable: None,
    provided_env: &[],
    merges_identical_handlers: false,
    version: None,
    stamp: None,
    project_env: crate::tables::ProjectEnv::NONE,
    // Copilot CLI reads `.github/hooks` too: a file of its own keeps the two routes apart.
    install_project: ".github/hooks/hookx-vscode.json",
    install_user: ".copilot/hooks/hookx-vscode.json",
    install_hidden_by: &[],
    hook_dir_var: None,
    // "VS Code parses Claude Code's hook configuration format" and "parses Copilot CLI hook
    // configurations": their handlers get VS Code's payload.
    foreign_switches: &[],
    reads_foreign_as: &[
        (Dialect(&super::claude::DEF), Flavor(&TABLES)),
        (Dialect(&super::copilot::DEF), Flavor(&TABLES)),
    ],
    run_keys: RunKeys::NONE,
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
    convert_target: ".github/hooks/vscode-hooks.json",
    type_only_on: &[],
    plugins: None,
    extension_switch: None,
    scripts: None,
    generated: None,
    rule_list: None,
    // Source (microsoft/vscode, `PromptsService` hook discovery): `parseJSONC(text, errors)`,
    // and a file with any error is skipped; its JSONC reader allows comments, and no trailing
    // comma by default.
    agent_keys: &[],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax {
        comments: true,
        bom: false,
        strict_files: &[],
        ..crate::tables::JsonSyntax::STRICT
    },
};

/// Run-time protocol rows (hooks.md, Hook input and output and the per-event sections).
mod protocol_rows {
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AnswerField as F, AnswerText, ArgsForm, CANONICAL_CALL_KEYS, Exit2, ExitCodes, NameRead,
        ProtocolTables, Slot, Writes,
    };

    const HSO: &str = "hookSpecificOutput";
    const PRE: &[EventKind] = &[EventKind::PreToolUse];
    /// `hookSpecificOutput.additionalContext`: PreToolUse, PostToolUse, SessionStart,
    /// SubagentStart.
    const CONTEXT: &[EventKind] = &[
        EventKind::PreToolUse,
        EventKind::PostToolUse,
        EventKind::SessionStart,
        EventKind::SubagentStart,
    ];
    /// Top-level `decision: "block"` + `reason`: PostToolUse, SubagentStop.
    const TOP_BLOCK: &[EventKind] = &[EventKind::PostToolUse, EventKind::SubagentStop];
    /// Stop's `decision` sits in `hookSpecificOutput`.
    const STOP: &[EventKind] = &[EventKind::Stop];

    pub(super) const PROTOCOL: ProtocolTables = ProtocolTables {
        event_key: "hookEventName",
        event_key_only: None,
        mcp_context_key: None,
        reshape: None,
        // "tool_name" (hooks.md, PreToolUse input); a hook's PATH has no node of VS Code's
        // (Electron's is inside the app), so the guard reads it with `awk` (attacks row 1209).
        guard_reads_name: Some(NameRead::Key("tool_name")),
        exit_codes: ExitCodes::ByCode,
        updated_input_merges: false,
        updated_input_needs_allow: false,
        reason_alone_is_context: false,
        event_shapes: &[],
        verbatim_keys: &[],
        call_keys: CANONICAL_CALL_KEYS,
        tool_args: ArgsForm::Object,
        tool_result_keys: None,
        env: &[],
        command_text_env: &[],
        plain_stdout_context: &[],
        // "2: Blocking error: stop processing and show error to model".
        exit2: &[
            (EventKind::PreToolUse, Exit2::Deny),
            (EventKind::UserPromptSubmit, Exit2::Block),
            (EventKind::Stop, Exit2::Block),
            (EventKind::SubagentStop, Exit2::Block),
            (EventKind::PostToolUse, Exit2::Context),
        ],
        signal_exit: None,
        abort_exit: None,
        answer_text: AnswerText::STDOUT,
        failure_denies: &[],
        fail_closed: &[EventKind::PreToolUse],
        answer: &[
            // "All hooks support these output fields".
            F::new(Slot::Continue, &["continue"], Writes::All),
            F::new(Slot::StopReason, &["stopReason"], Writes::All),
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
            F::new(Slot::Decision, &["decision"], Writes::On(TOP_BLOCK)),
            F::new(Slot::Reason, &["reason"], Writes::On(TOP_BLOCK)),
            F::new(Slot::Decision, &[HSO, "decision"], Writes::On(STOP)),
            F::new(Slot::Reason, &[HSO, "reason"], Writes::On(STOP)),
            F::new(
                Slot::Context,
                &[HSO, "additionalContext"],
                Writes::On(CONTEXT),
            ),
        ],
        answer_event_key: Some((HSO, "hookEventName")),
        // "deny (most restrictive) … ask … allow".
        permission_values: &[Decision::Allow, Decision::Ask, Decision::Deny],
        permission_passes: &[],
        permission_defers: &[],
        // VS Code's documents: an allow auto-approves the tool (no client here).
        allow_reach: crate::tables::AllowReach::Prompt,
        // One PostToolUse (docs); how a failure shows is not known here.
        failed_call: crate::tables::FailedCall::Unmarked,
        permission_fold: crate::tables::PermissionFold::Strictest,
        rewrite_race: false,
        ignored_blocks: &[],
        // Docs (vscode-facts): PreCompact takes the common output only (`continue`,
        // `stopReason`, `systemMessage`), SessionStart `additionalContext` only (attacks row
        // 1571).
        decision_ignored: &[EventKind::SessionStart, EventKind::PreCompact],
        block_unread: &[],
        block_withholds_result: &[],
        late_answer: false,
        carried_context: None,
        result_forms: &[],
        hook_budget: &[],
    };
}
