//! Factory Droid: `hooks` in `~/.factory/settings.json` and `<project>/.factory/settings.json`,
//! or the events at the top level of `.factory/hooks.json` beside them. Claude's file shape,
//! events (9 of them), payload keys and answers, with Droid's own tool and argument names.
//! Facts: conformance/droid-facts.md (run: droid 0.225.2, `tests/live_droid.rs`).

use crate::model::tool::ids;
use crate::model::{EventKind, MatcherStyle};
use crate::tables::ResultForm;
use crate::tables::{ConfigSpec, DocumentKind, Documents, HandlerField, PluginForm, RunKeys};
use crate::tables::{
    DetectSpec, Dialect, DialectDef, Flavor, HostSpec, KeyCase, KillSwitch, MatchOn, RouteSpec,
    Schema, Tables, TimestampForm,
};
use crate::tables::{Location, Pattern, Root, Scope};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

pub static TABLES: Tables = Tables {
    name: "droid",
    dialect: Dialect(&DEF),
    // Docs (hooks reference) and the 0.225.2 settings schema: these 9; `droid exec` fired
    // SessionStart, PreToolUse, PostToolUse, Stop and SessionEnd (run 0.225.2).
    events: &[
        (EventKind::SessionStart, "SessionStart"),
        (EventKind::SessionEnd, "SessionEnd"),
        (EventKind::UserPromptSubmit, "UserPromptSubmit"),
        (EventKind::PreToolUse, "PreToolUse"),
        (EventKind::PostToolUse, "PostToolUse"),
        (EventKind::Notification, "Notification"),
        (EventKind::SubagentStop, "SubagentStop"),
        (EventKind::Stop, "Stop"),
        (EventKind::PreCompact, "PreCompact"),
    ],
    // The tools 0.225.2 offered the model (the fake server's request log) and sent hooks
    // (`Execute`, `Read`, `Create`, `Edit`, `Task`: recorded); FetchUrl, WebSearch and TodoWrite
    // are named in the binary, not offered to a custom model. `LS` has no canonical tool and
    // keeps its name; `ApplyPatch` (binary, not offered) is not modelled.
    tools: &[
        (ids::SHELL, &["Execute"]),
        (ids::WRITE, &["Create"]),
        (ids::EDIT, &["Edit"]),
        (ids::READ, &["Read"]),
        (ids::GLOB, &["Glob"]),
        (ids::GREP, &["Grep"]),
        (ids::WEB_FETCH, &["FetchUrl"]),
        (ids::WEB_SEARCH, &["WebSearch"]),
        (ids::TASK, &["Task"]),
        (ids::TODO_WRITE, &["TodoWrite"]),
    ],
    // The request's tool schemas (0.225.2): `Edit {file_path, old_str, new_str}`, `Grep
    // {pattern, path, glob_pattern}`, `Glob {patterns: [...], folder}` (a list, not one
    // pattern: carried as it is).
    tool_args: &[
        (
            ids::EDIT,
            &[("old_string", "old_str"), ("new_string", "new_str")],
        ),
        (ids::GREP, &[("glob", "glob_pattern")]),
        (ids::GLOB, &[("path", "folder")]),
    ],
    // Docs: the matcher applies to PreToolUse and PostToolUse only.
    matcher_targets: &[
        (EventKind::PreToolUse, MatchOn::ToolName),
        (EventKind::PostToolUse, MatchOn::ToolName),
    ],
    // Binary 0.225.2: absent, empty or `*` = every tool; the exact name; else an unanchored
    // JavaScript regex (`new RegExp(m).test(name)`); an invalid regex never fires. So
    // `Create|Write` also fires for `TodoWrite`, and a comma list fires for nothing. Not
    // trimmed: `" "` fires for nothing (run, attacks row 1455).
    matcher_style: MatcherStyle::UnanchoredRegex {
        star_is_all: true,
        trims: false,
    },
    tool_scope: crate::tables::ToolScope::Any,
    exact_field_matchers: false,
    stop_fires_for_subagents: false,
    // Run 0.225.2 (attacks row 1787, tests/fixtures/cadence/, droid-facts): `droid exec` fires
    // no `UserPromptSubmit`.
    unfired: &[(EventKind::UserPromptSubmit, "in `droid exec`")],
    cadences: &[],
    mcp_names: crate::tables::MCP_CANONICAL,
    matcher_tries_names_of: &[],
    key_case: KeyCase::Snake,
    value_renames: &[],
    event_values: &[],
    key_renames: &[],
    timestamp: TimestampForm::None,
    // Binary 0.225.2: "default (60s)"; only command handlers.
    default_timeout: [60, 60, 60],
    project_dir_var: Some("FACTORY_PROJECT_DIR"),
    project_root_markers: &[],
    project_root_setting: None,
    project_from: crate::tables::ProjectFrom::Cwd,
    // Docs: matching hooks run in parallel.
    parallel: true,
    first_deny_stops_the_rest: false,
    rewrites_chain: false,
    handler_types: &["command"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: Some("droid 0.225.2"),
    // No field matchers (docs).
    matcher_values: &[],
    handler_key_overrides: &[],
    invalid_matcher_effect: Some("Factory Droid never fires this hook"),
    other_tools: &[],
    renamed_tools: &[],
    tool_codecs: &[],
    // Recorded by tests/live_droid.rs (0.225.2); tests/doctor.rs checks them.
    payload_object_keys: &[],
    payload_keys: &[
        (
            EventKind::SessionStart,
            &[
                "CLAUDE_ENV_FILE",
                "cwd",
                "hook_event_name",
                "permission_mode",
                "session_id",
                "source",
                "transcript_path",
            ],
        ),
        (
            EventKind::PreToolUse,
            &[
                "cwd",
                "hook_event_name",
                "permission_mode",
                "session_id",
                "tool_input",
                "tool_name",
                "transcript_path",
            ],
        ),
        (
            EventKind::PostToolUse,
            &[
                "cwd",
                "hook_event_name",
                "permission_mode",
                "session_id",
                "tool_input",
                "tool_name",
                "tool_response",
                "transcript_path",
            ],
        ),
        (
            EventKind::Stop,
            &[
                "cwd",
                "elapsed_time",
                "hook_event_name",
                "message_id",
                "permission_mode",
                "session_id",
                "stop_hook_active",
                "tool_execution_count",
                "transcript_path",
            ],
        ),
        (
            EventKind::SessionEnd,
            &[
                "cwd",
                "hook_event_name",
                "message_count",
                "message_id",
                "permission_mode",
                "reason",
                "session_duration_ms",
                "session_id",
                "transcript_path",
            ],
        ),
    ],
};

/// `settings.json`: a `hooks` object among other settings.
pub static SETTINGS: DocumentKind = DocumentKind {
    name: "DroidSettings",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: None,
    session_env: None,
    frontmatter: false,
};

/// `hooks.json` (and the legacy `hooks/hooks.json`): the events at the top level; a `{"hooks":
/// …}` wrapper there is ignored, and its events never run (run 0.225.2, droid-facts.md).
pub static HOOKS_FILE: DocumentKind = DocumentKind {
    name: "DroidHooks",
    wrapper_optional: true,
    wrapper_ignored: true,
    top_keys: None,
    session_env: None,
    frontmatter: false,
};

pub static DEF: DialectDef = DialectDef {
    name: "droid",
    display: "Droid",
    product: "Factory Droid",
    flavors: &[Flavor(&TABLES)],
    config: &CONFIG,
    detect: DetectSpec {
        dirs: &[".factory/"],
        file_names: &[],
        // Its files are Claude's shape: only the folder tells them apart.
        unmarked: false,
        sole_event_flavors: &[],
        sole_top_keys: &[],
        sole_handler_keys: &[],
        top_keys: &[],
        handler_keys: &[],
        preferred: false,
    },
    // Run 0.225.2 (tests/live_droid.rs `files_droid_reads`): in each `.factory` folder (user,
    // project) `hooks.json`, else the legacy `hooks/hooks.json`, and the `hooks` of
    // `settings.json` all load, an event of the hooks file replacing that event of
    // settings.json (hookx does not model this yet: it lists both); user and project hooks
    // both run, the project's with no trust step. `settings.local.json` hooks did not run.
    locations: &[
        Location {
            id: "droid-user",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".factory/settings.json"),
        },
        Location {
            id: "droid-user-hooks",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".factory/hooks.json"),
        },
        Location {
            id: "droid-user-legacy",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".factory/hooks/hooks.json"),
        },
        Location {
            id: "droid-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".factory/settings.json"),
        },
        Location {
            id: "droid-project-hooks",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".factory/hooks.json"),
        },
        Location {
            id: "droid-project-legacy",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".factory/hooks/hooks.json"),
        },
    ],
    // In the order Droid runs their hooks: the project's before the user's (run 0.225.2:
    // `live_droid::hooks_of_the_user_and_the_project_fold_as_simulate_says`, attacks row 2051).
    native: &[
        "droid-project",
        "droid-project-hooks",
        "droid-project-legacy",
        "droid-user",
        "droid-user-hooks",
        "droid-user-legacy",
    ],
    // Run 0.225.2 (`hooks_disabled_turns_every_hook_off`): `hooks.hooksDisabled: true` in the
    // user settings turns every hook off, the project's included. The project settings' flag
    // is read from the merged settings (binary), not run.
    kill_switch: Some(KillSwitch {
        key: "hooksDisabled",
        inner: None,
        among_events: true,
        off: true,
        host_wide: false,
        locations: &["droid-user", "droid-project"],
    }),
    // Docs: organisation-managed hooks come from Factory's servers, not a local file.
    managed: None,
    folder_trust: None,
    disabled_handlers: None,
    malformed_entry_skips_file: &[],
    // Droid's payloads are Claude's keys; its variables and a few keys name it.
    host: HostSpec {
        payload_keys: &["tool_execution_count", "session_duration_ms"],
        payload_events: &[],
        env_markers: &["FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR"],
    },
    route: RouteSpec {
        matcher: None,
        grouped: true,
        group_keys: &[],
        command_key: "command",
        timeout_key: Some("timeout"),
        // Binary 0.225.2: a hook's `timeout` (seconds, default 60) is its limit, with no cap
        // (`executeCommand(command, input, timeout || 60)`, killed after `timeout * 1000` ms,
        // then read as exit 1: the call goes on).
        limit: crate::tables::RouteLimit {
            secs: crate::tables::ROUTE_TIMEOUT,
            on: &[],
        },
        names_project_route: true,
        names_folder: false,
    },
    route_trust: None,
    home_var: None,
    scope_option: None,
    presence: crate::tables::Presence {
        programs: &["droid"],
        installs: &[".local/bin/droid", ".factory/bin/droid"],
        folders: &[".factory"],
    },
    schema: Schema {
        file_name: "droid.schema.json",
        text: include_str!("../../schemas/droid.schema.json"),
    },
};

/// Factory Droid 0.225.2 runs none of a project `.factory/settings.json`'s hooks for one entry
/// it cannot read, on any event: a handler without `type`, a matcher that is a number, a timeout
/// `"5"`, an unknown type, a number as command, a `null` matcher or event, an `http` handler
/// without `url` (run, beside a recorder on another event of the same file, silently;
/// `live_droid::settings_forms_droid_skips_whole`; attacks row 256). A negative timeout it loads.
/// The user's file runs on.
const STRICT_LOAD: crate::tables::StrictLoad = crate::tables::StrictLoad {
    seen: "Factory Droid 0.225.2 runs none of this file's hooks for it, without a word",
    toml_seen: None,
    needs_type: true,
    whole_seconds: false,
    known_top_keys: false,
    reader_errors: true,
    setting_types: &[],
    whole_file_on: None,
    zero_timeout: false,
    service_needs: &[],
    handler_key_types: &[],
    null_matcher: true,
    null_event_is_none: false,
    negative_timeout_loads: true,
    duplicate_keys: false,
    loads_despite: &[],
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &[],
    scripts: None,
    generated: None,
    rule_list: None,
    // Run 0.225.2 (`tests/live_droid.rs`): `settings.json` and `hooks.json` are read with
    // comments; a trailing comma drops the file.
    agent_keys: &[],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax {
        comments: true,
        bom: false,
        strict_files: &[],
        ..crate::tables::JsonSyntax::STRICT
    },
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
        ("timeout", HandlerField::Timeout),
    ],
    flat_handlers: false,
    wrapper_optional: false,
    implied_type: None,
    strict_load: Some(STRICT_LOAD),
    matcher_not_string_stops_event: false,
    timeout_unit: crate::tables::TimeoutUnit::Seconds,
    zero_timeout_is_none: false,
    timer_limit_ms: None,
    skips_entry_without_positive_timeout: false,
    skips_entry_without_type: false,
    timeout_numeric_strings: false,
    // Binary 0.225.2: a group's `commandRegex` narrows it to Execute calls whose command
    // matches; `hooksDisabled` and `showHookOutput` sit among the events. hookx keeps them
    // without acting on them.
    kept_keys: &["commandRegex", "hooksDisabled", "showHookOutput"],
    project_dir_variable: Some("FACTORY_PROJECT_DIR"),
    // Run 0.225.2: hooks also get DROID_PROJECT_DIR and CLAUDE_PROJECT_DIR (the project) and,
    // on SessionStart, CLAUDE_ENV_FILE.
    // Run 0.225.2: the plugin roots too (`/PLUGIN_ROOT_NOT_EXPANDED_ERROR` outside plugins).
    provided_env: &[
        "DROID_PROJECT_DIR",
        "CLAUDE_PROJECT_DIR",
        "CLAUDE_ENV_FILE",
        "DROID_PLUGIN_ROOT",
        "CLAUDE_PLUGIN_ROOT",
    ],
    // Run 0.225.2 (tests/live_droid.rs `routed_handlers_of_every_dialect`): the same command in
    // the user and the project settings runs twice.
    merges_identical_handlers: false,
    version: None,
    stamp: None,
    project_env: crate::tables::ProjectEnv::NONE,
    // Not `hooks.json`: an event there would hide that event's hooks in settings.json.
    install_project: ".factory/settings.json",
    install_user: ".factory/settings.json",
    // Binary 0.225.2 (`{...settingsHooks, ...hooksFileHooks}`): an event of the folder's hooks
    // file replaces that event of settings.json, hookx's route with it.
    install_hidden_by: &[".factory/hooks.json", ".factory/hooks/hooks.json"],
    hook_dir_var: None,
    foreign_switches: &[],
    reads_foreign_as: &[],
    run_keys: RunKeys::NONE,
    documents: Documents {
        file: &SETTINGS,
        plugin: Some(PluginForm {
            kind: &HOOKS_FILE,
            path_suffix: ".factory/hooks.json",
            // Binary 0.225.2: `hooksDisabled` sits beside the events.
            marker_key: "hooksDisabled",
            never_named: &["settings.json"],
        }),
        frontmatter: None,
        toml: None,
    },
    plugin_root_var: None,
    plugin_text: &[],
    convert_target: ".factory/settings.json",
    type_only_on: &[],
    plugins: None,
    extension_switch: None,
};

/// Run-time protocol rows (conformance/droid-facts.md), read by `crate::protocol`.
mod protocol_rows {
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AbortExit, AnswerField as F, AnswerText, ArgsForm, CANONICAL_CALL_KEYS, EnvValue, Exit2,
        ExitCodes, ProtocolTables, Slot, Writes,
    };

    const HSO: &str = "hookSpecificOutput";
    const PRE: &[EventKind] = &[EventKind::PreToolUse];
    /// Events whose answer takes a top-level `decision: "block"` (docs; Stop run 0.225.2: the
    /// turn goes on with the reason as a user message). Run 0.225.2 (tests/live_droid.rs
    /// `ground_truth_answer_forms`, issue 25): on PostToolUse the reason never reaches the
    /// model, so PostToolUse (documented) is left out and a block there is written as context.
    const BLOCKABLE: &[EventKind] = &[
        EventKind::UserPromptSubmit,
        EventKind::Stop,
        EventKind::SubagentStop,
    ];
    /// Run 0.225.2: PostToolUse context reaches the model as its own user message; the
    /// others are from the docs.
    const CONTEXT: &[EventKind] = &[
        EventKind::SessionStart,
        EventKind::UserPromptSubmit,
        EventKind::PostToolUse,
    ];

    pub(super) const PROTOCOL: ProtocolTables = ProtocolTables {
        reshape: None,
        guard_reads_name: None,
        mcp_context_key: None,
        // Run 0.225.2 (`ground_truth_answer_forms`, issue 25): a JSON answer counts at exit 1
        // (a deny denies, a rewrite runs, PostToolUse context reaches the model); at exit 2
        // stderr denies over a JSON allow. Was `ByCode`.
        exit_codes: ExitCodes::ByCodeAndJson,
        // Binary 0.225.2: `updatedInput` is merged over the call's input.
        updated_input_merges: true,
        updated_input_needs_allow: false,
        reason_alone_is_context: false,
        event_key: "hook_event_name",
        event_key_only: None,
        event_shapes: &[],
        verbatim_keys: &[],
        call_keys: CANONICAL_CALL_KEYS,
        tool_args: ArgsForm::Object,
        tool_result_keys: None,
        env: &[
            ("FACTORY_PROJECT_DIR", EnvValue::ProjectDir),
            ("DROID_PROJECT_DIR", EnvValue::ProjectDir),
            ("CLAUDE_PROJECT_DIR", EnvValue::ProjectDir),
        ],
        // Docs: plain stdout of SessionStart and UserPromptSubmit is context.
        command_text_env: &[],
        plain_stdout_context: &[EventKind::SessionStart, EventKind::UserPromptSubmit],
        // Run 0.225.2: PreToolUse exit 2 denies with stderr as the reason (`Error: REASON`);
        // the others are from the docs.
        exit2: &[
            (EventKind::PreToolUse, Exit2::Deny),
            (EventKind::UserPromptSubmit, Exit2::Block),
            (EventKind::Stop, Exit2::Block),
            (EventKind::SubagentStop, Exit2::Block),
            (EventKind::PostToolUse, Exit2::Context),
            // Binary 0.225.2: "PreCompact hook blocked compaction" at exit 2 (or 3).
            (EventKind::PreCompact, Exit2::Block),
        ],
        signal_exit: None,
        // Binary 0.225.2: exit 3 aborts the agent (PreToolUse, PostToolUse, Stop:
        // `AgentAbortError`, attacks row 1577) and blocks a prompt ("User prompt submission
        // aborted by hook") or a compaction, as exit 2 does there (attacks row 1724).
        abort_exit: Some(AbortExit {
            code: 3,
            blocks: &[EventKind::UserPromptSubmit, EventKind::PreCompact],
        }),
        answer_text: AnswerText::STDOUT,
        failure_denies: &[],
        // Binary 0.225.2: a hook that fails lets the tool run; hookx's own policy for a guard
        // it cannot check is to deny (README).
        fail_closed: &[EventKind::PreToolUse],
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
            F::new(Slot::Decision, &["decision"], Writes::On(BLOCKABLE)),
            F::new(Slot::Reason, &["reason"], Writes::On(BLOCKABLE)),
            F::new(
                Slot::Context,
                &[HSO, "additionalContext"],
                Writes::On(CONTEXT),
            ),
        ],
        answer_event_key: Some((HSO, "hookEventName")),
        // `ask` only logs, and Droid's own flow goes on (binary 0.225.2); beside a rewrite it
        // runs the original (run 0.225.2, droid-facts.md): hookx writes neither, so a guard's
        // ask with a rewrite runs the rewrite under the same flow (attacks row 1025).
        permission_values: &[Decision::Allow, Decision::Deny],
        permission_passes: &[],
        permission_defers: &[],
        // Run 0.225.2 (attacks row 1723): its own allow runs a call of high risk below `--auto
        // high` (binary: `allow-bypass` skips the level's confirmation); its command blocklist
        // is checked before hooks run.
        allow_reach: crate::tables::AllowReach::Prompt,
        // No PostToolUse after a failed call, of any tool: a command's exit 1 or 127, a
        // missing file's Read, an Edit whose text is not there (run 0.225.2, `failed.*`;
        // attacks row 1841). "[Process exited with code 0]" ends a success's output.
        failed_call: crate::tables::FailedCall::Unfired(crate::tables::EVERY_TOOL),
        permission_fold: crate::tables::PermissionFold::FirstField,
        rewrite_race: false,
        ignored_blocks: &[],
        // Binary 0.225.2: compaction looks at each PreCompact hook's exit code alone (2 or 3
        // blocks it), not at its JSON (attacks row 1571). Run 0.225.2: a SessionStart
        // `decision: block` is not acted on, its reason reaches no model (attacks row 1845).
        decision_ignored: &[EventKind::PreCompact, EventKind::SessionStart],
        // Attacks row 1903 (answer books `cblock`, `blockold`): a `decision: block` on the
        // call's guard runs the call; only a permission decision denies.
        block_unread: &[EventKind::PreToolUse],
        block_withholds_result: &[],
        late_answer: false,
        // 0.225.2: PreToolUse and PostToolUse payloads name no call (attacks row 1382).
        carried_context: None,
        result_forms: super::RESULT_FORMS,
        hook_budget: &[],
    };
}

/// Factory Droid 0.225.2's tool results, strings (recorded: `tools.03` Execute, `tools.08`
/// Create, `tools.10` Edit, whose are JSON-encoded).
const RESULT_FORMS: &[ResultForm] = &[
    ResultForm::of(
        ids::SHELL,
        r#""${output}\n\n[Process exited with code ${exit_code}]""#,
    ),
    ResultForm::of(
        ids::WRITE,
        r#"{"success": true, "file_path": "${input.file_path}"}"#,
    )
    .encoded(),
    ResultForm::of(
        ids::EDIT,
        r#"{"success": true, "file_path": "${input.file_path}"}"#,
    )
    .encoded(),
    ResultForm::of(ids::SHELL, r#""${output}""#),
];
