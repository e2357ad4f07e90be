//! Qwen Code: `hooks` in `~/.qwen/settings.json` and `<project>/.qwen/settings.json`. Claude's
//! file shape, events, payload keys and answers, with Qwen's own tool names (Claude's argument
//! names) and an ISO timestamp. Facts: conformance/qwen-facts.md (run: qwen-code 0.24.4,
//! `tests/live_qwen.rs`).

use crate::tables::ResultForm;
use crate::tables::{
    BrokenPolicy, DetectSpec, Dialect, DialectDef, Flavor, HostSpec, KeyCase, KillSwitch,
    ManagedSpec, MatchOn, RouteSpec, Schema, Tables, TimestampForm,
};

use crate::model::EventKind;
use crate::model::MatcherStyle;
use crate::model::tool::ids;
use crate::tables::{ConfigSpec, DocumentKind, Documents, HandlerField, RunKeys};
use crate::tables::{Location, Pattern, Root, Scope};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

pub static TABLES: Tables = Tables {
    name: "qwen",
    dialect: Dialect(&DEF),
    // qwen-code 0.24.4 `HookEventName`, less SessionDelete, TodoCreated and TodoCompleted,
    // which hookx carries as unknown events (none fires in `-p`).
    events: &[
        (EventKind::SessionStart, "SessionStart"),
        (EventKind::SessionEnd, "SessionEnd"),
        (EventKind::UserPromptSubmit, "UserPromptSubmit"),
        (EventKind::UserPromptExpansion, "UserPromptExpansion"),
        (EventKind::PreToolUse, "PreToolUse"),
        (EventKind::PermissionRequest, "PermissionRequest"),
        (EventKind::PermissionDenied, "PermissionDenied"),
        (EventKind::PostToolUse, "PostToolUse"),
        (EventKind::PostToolUseFailure, "PostToolUseFailure"),
        (EventKind::PostToolBatch, "PostToolBatch"),
        (EventKind::Notification, "Notification"),
        (EventKind::SubagentStart, "SubagentStart"),
        (EventKind::SubagentStop, "SubagentStop"),
        (EventKind::Stop, "Stop"),
        (EventKind::StopFailure, "StopFailure"),
        (EventKind::PreCompact, "PreCompact"),
        (EventKind::PostCompact, "PostCompact"),
        (EventKind::MessageDisplay, "MessageDisplay"),
        (EventKind::InstructionsLoaded, "InstructionsLoaded"),
    ],
    // The names Qwen sends (run 0.24.4); the second of each is the alias a matcher also
    // accepts exactly (its `TOOL_NAME_ALIASES`). Claude's names are tried through
    // `matcher_tries_names_of`.
    tools: &[
        (ids::SHELL, &["run_shell_command", "Shell"]),
        (ids::WRITE, &["write_file", "WriteFile"]),
        (ids::EDIT, &["edit", "replace"]),
        (ids::READ, &["read_file", "ReadFile"]),
        (ids::GLOB, &["glob", "FindFiles"]),
        (ids::GREP, &["grep_search", "SearchFiles"]),
        (ids::WEB_FETCH, &["web_fetch"]),
        (ids::WEB_SEARCH, &["web_search"]),
        (ids::TASK, &["agent", "task"]),
        (ids::ASK_USER, &["ask_user_question"]),
        (ids::NOTEBOOK_EDIT, &["notebook_edit"]),
        (ids::TODO_WRITE, &["todo_write", "TodoList"]),
    ],
    // Run 0.24.4: Claude's argument names (file_path, content, old_string, new_string).
    tool_args: &[],
    // qwen-code 0.24.4 `getHookMatcherTarget`; UserPromptSubmit, Stop, MessageDisplay and
    // PostToolBatch take no matcher.
    matcher_targets: &[
        (EventKind::PreToolUse, MatchOn::ToolName),
        (EventKind::PostToolUse, MatchOn::ToolName),
        (EventKind::PostToolUseFailure, MatchOn::ToolName),
        (EventKind::PermissionRequest, MatchOn::ToolName),
        (EventKind::PermissionDenied, MatchOn::ToolName),
        (EventKind::SubagentStart, MatchOn::Field("agent_type")),
        (EventKind::SubagentStop, MatchOn::Field("agent_type")),
        (EventKind::PreCompact, MatchOn::Field("trigger")),
        (EventKind::PostCompact, MatchOn::Field("trigger")),
        (EventKind::SessionStart, MatchOn::Field("source")),
        (EventKind::SessionEnd, MatchOn::Field("reason")),
        (EventKind::Notification, MatchOn::Field("notification_type")),
        (EventKind::StopFailure, MatchOn::Unverified),
        (EventKind::InstructionsLoaded, MatchOn::Field("file_path")),
        (EventKind::UserPromptExpansion, MatchOn::Unverified),
    ],
    // Run 0.24.4: empty, `*` or `.*` = all; a name or alias exactly; a `|` list of them; else
    // an unanchored regex on Qwen's own tool name only (`Ba.*` and `^Bash$` never fire,
    // `run_.*` and `shell` do: attacks row 1450, `tests/fixtures/matchers/
    // qwen-0.24.4.json`).
    matcher_style: MatcherStyle::NamesOrRegex,
    tool_scope: crate::tables::ToolScope::Any,
    exact_field_matchers: false,
    stop_fires_for_subagents: false,
    // Run 0.24.4 (tests/fixtures/cadence/, conformance/qwen-facts.md): `UserPromptSubmit`
    // fires before every model turn; the user's prompt carries `submitted_prompt`, a turn after
    // tool results `prompt: ""` and no `submitted_prompt` (the bundle's `sendMessageStream`
    // fires it for every message type but retries, steering, crons, notifications, teammates
    // and goals). `PreCompact` fires only past the threshold (`tryCompressChat`), as Claude's.
    // Run 0.24.4 (attacks rows 1782, 1787, tests/fixtures/cadence/): no `SessionEnd` in either
    // `-p` run, started or continued (qwen-facts: "Not fired in `-p`").
    unfired: &[(EventKind::SessionEnd, "in `-p`")],
    cadences: &[(
        EventKind::UserPromptSubmit,
        crate::tables::Cadence::EveryModelRequestTold {
            key: "submitted_prompt",
            blank: "prompt",
        },
    )],
    // Run 0.24.4 tries Claude's MCP spelling, `mcp__server__tool`, where the whole name is
    // `[A-Za-z][A-Za-z0-9_-]*` and at most 63 units; else each other unit `_`, cut to 55, `_`
    // and a hash of the name as configured after (`mcp__p_q__run_1bf5p4t`; the bundle's
    // `normalizeToolNameForProvider`, its recording in `tests/fixtures/mcp-names/`; attacks
    // rows 1944, 2270).
    mcp_names: crate::tables::McpNames {
        rewrite: Some(crate::tables::NameRewrite {
            kept: "_-",
            to: '_',
            per_unit: true,
            punycode: false,
            servers_kept_on: &[],
            cut: None,
            whole: Some(crate::model::tool::WholeName {
                max: 63,
                hash: crate::model::tool::NameHash::Fnv1a32Base36,
            }),
        }),
        ..crate::tables::MCP_CANONICAL
    },
    matcher_tries_names_of: &[Flavor(&super::claude::TABLES)],
    key_case: KeyCase::Snake,
    value_renames: &[],
    event_values: &[],
    key_renames: &[],
    // Run 0.24.4: `2026-12-02T00:52:33.333Z`.
    timestamp: TimestampForm::Iso8601,
    // qwen-code 0.24.4: command 60 s, prompt 30 s (seconds; large values are read as legacy
    // milliseconds), no agent handlers.
    default_timeout: [60, 30, 30],
    project_dir_var: Some("QWEN_PROJECT_DIR"),
    project_root_markers: &[],
    project_root_setting: None,
    project_from: crate::tables::ProjectFrom::Cwd,
    // Parallel unless a group says `sequential: true`.
    parallel: true,
    first_deny_stops_the_rest: false,
    rewrites_chain: false,
    // `function` handlers are registered from code only.
    handler_types: &["command", "http", "prompt"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: Some("qwen-code 0.24.4"),
    matcher_values: &[(EventKind::PreCompact, &["manual", "auto"])],
    handler_key_overrides: &[],
    invalid_matcher_effect: Some("Qwen Code never fires this hook"),
    other_tools: &[],
    renamed_tools: &[],
    tool_codecs: &[],
    // Recorded by tests/live_qwen.rs (0.24.4); tests/doctor.rs checks them.
    payload_object_keys: &[],
    payload_keys: &[
        (
            EventKind::SessionStart,
            &[
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "session_id",
                "source",
                "timestamp",
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
                "submitted_prompt",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::PreToolUse,
            &[
                "agent_id",
                "cwd",
                "hook_event_name",
                "permission_mode",
                "prompt_id",
                "session_id",
                "timestamp",
                "tool_call_id",
                "tool_input",
                "tool_name",
                "tool_use_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::PostToolUse,
            &[
                "agent_id",
                "cwd",
                "duration_ms",
                "hook_event_name",
                "permission_mode",
                "prompt_id",
                "session_id",
                "timestamp",
                "tool_call_id",
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
                "error",
                "hook_event_name",
                "is_interrupt",
                "permission_mode",
                "prompt_id",
                "session_id",
                "timestamp",
                "tool_call_id",
                "tool_input",
                "tool_name",
                "tool_use_id",
                "transcript_path",
            ],
        ),
        (
            EventKind::PostToolBatch,
            &[
                "agent_id",
                "cwd",
                "hook_event_name",
                "permission_mode",
                "prompt_id",
                "session_id",
                "timestamp",
                "tool_calls",
                "transcript_path",
            ],
        ),
        (
            EventKind::Notification,
            &[
                "cwd",
                "hook_event_name",
                "message",
                "notification_type",
                "permission_mode",
                "session_id",
                "timestamp",
                "title",
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
                "permission_mode",
                "prompt_id",
                "session_id",
                "timestamp",
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
                "crons",
                "cwd",
                "hook_event_name",
                "last_assistant_message",
                "permission_mode",
                "prompt_id",
                "session_id",
                "stop_hook_active",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::Stop,
            &[
                "background_tasks",
                "context_limit",
                "context_usage",
                "crons",
                "cwd",
                "hook_event_name",
                "input_tokens",
                "last_assistant_message",
                "permission_mode",
                "prompt_id",
                "session_id",
                "stop_hook_active",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::MessageDisplay,
            &[
                "cwd",
                "displayed_text",
                "hook_event_name",
                "is_final",
                "message_id",
                "permission_mode",
                "prompt_id",
                "session_id",
                "timestamp",
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
                "permission_mode",
                "session_id",
                "timestamp",
                "transcript_path",
            ],
        ),
    ],
};

/// `settings.json`: a `hooks` object among other settings.
pub static SETTINGS: DocumentKind = DocumentKind {
    name: "QwenSettings",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: None,
    // Its `env`: what reaches hooks is [`CONFIG`]'s `project_env`.
    session_env: Some("env"),
    frontmatter: false,
};

pub static DEF: DialectDef = DialectDef {
    name: "qwen",
    display: "Qwen",
    product: "Qwen Code",
    flavors: &[Flavor(&TABLES)],
    config: &CONFIG,
    detect: DetectSpec {
        dirs: &[".qwen/"],
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
    // Run 0.24.4: system (system defaults, then system settings), user and project hooks all
    // run, in that order (`processHooksFromConfig`), the project's with no trust step (its
    // folder-trust feature is off by default).
    locations: &[
        Location {
            id: "qwen-system-defaults",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::File("system-defaults.json"),
        },
        Location {
            id: "qwen-system",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::File("settings.json"),
        },
        Location {
            id: "qwen-user",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".qwen/settings.json"),
        },
        Location {
            id: "qwen-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".qwen/settings.json"),
        },
        // Bundle 0.24.4 (`ExtensionManager.loadExtension`, `loadExtensionsFromExtensionsDir`
        // of `Storage.getUserExtensionsDir`: `$QWEN_HOME/extensions` or `~/.qwen/extensions`,
        // no workspace folder), run 0.24.4 (`live_qwen::
        // an_extensions_hook_after_the_users_route_undoes_its_deny`, attacks rows 2410-2413):
        // an extension's hooks are its manifest's `hooks` object, else its `hooks/hooks.json`
        // (its `hooks` object, else the whole file); loaded while the extension is on
        // ([`EXTENSION_SWITCH`]). hookx reads both files of an extension that has both, and a
        // `hooks/hooks.json` only in the `hooks` wrapper; a manifest whose `hooks` names another
        // file, a linked extension (`.qwen-extension-install.json` `type: "link"`) and an
        // `agent-plugins-v1` one (`plugin.json`, no hooks) are not modelled.
        Location {
            id: "qwen-extension",
            dialect: Dialect(&DEF),
            scope: Scope::Plugin,
            root: Root::Home,
            pattern: Pattern::Sub {
                dir: ".qwen/extensions",
                name: "qwen-extension.json",
            },
        },
        Location {
            id: "qwen-extension-hooks",
            dialect: Dialect(&DEF),
            scope: Scope::Plugin,
            root: Root::Home,
            pattern: Pattern::Sub {
                dir: ".qwen/extensions",
                name: "hooks/hooks.json",
            },
        },
    ],
    // In the order Qwen runs their hooks (bundle 0.24.4: `HookRegistry.getSourcePriority`,
    // project, user, system with its defaults first, then extensions; run 0.24.4:
    // `live_qwen::hooks_of_the_user_and_the_project_fold_as_simulate_says`, attacks row 2051).
    native: &[
        "qwen-project",
        "qwen-user",
        "qwen-system-defaults",
        "qwen-system",
        "qwen-extension",
        "qwen-extension-hooks",
    ],
    // Source 0.24.4 (`getDisableAllHooks`, `mergeSettings`: system defaults, user, project,
    // system, the last that sets it winning); run 0.24.4 (tests/live_qwen.rs
    // `disable_all_hooks_merges_across_scopes`, attacks row 861): `true` runs no hook at all,
    // the user's (hookx's routes) and the system's included; a project's `false` over the
    // user's `true` runs them all.
    kill_switch: Some(KillSwitch {
        key: "disableAllHooks",
        inner: None,
        among_events: false,
        off: true,
        host_wide: false,
        locations: &[
            "qwen-system-defaults",
            "qwen-user",
            "qwen-project",
            "qwen-system",
        ],
    }),
    // `QWEN_CODE_SYSTEM_SETTINGS_PATH` moves the system settings, `QWEN_CODE_SYSTEM_DEFAULTS_PATH`
    // the defaults (default: beside them); unlike Gemini CLI, no ownership check. Windows
    // (`C:\ProgramData\qwen-code`) is not modelled.
    managed: Some(ManagedSpec {
        dirs: &[
            ("linux", "/etc/qwen-code"),
            ("macos", "/Library/Application Support/QwenCode"),
        ],
        only_managed_key: None,
        hooks_off: None,
        // Run 0.24.4 (tests/live_qwen.rs system_settings_that_do_not_parse_stop_qwen): exit 1,
        // "Cannot read operator sandbox policy from PATH"; a user or project settings file that
        // does not parse stops it too (source `FatalConfigError`): not modelled.
        broken_policy: BrokenPolicy::StopsAgent,
        kill_switch_reaches_policy: true,
        any_kill_switch_reaches_policy: true,
        // Source 0.24.4: read wherever it lies, whoever owns it.
        root_owned_only: false,
        moved_by: &[],
        source: "source 0.24.4 (getSystemSettingsPath, getSystemDefaultsPath, getSystemHooks); \
                 run 0.24.4 (tests/live_qwen.rs system_settings_hooks_run)",
    }),
    folder_trust: None,
    disabled_handlers: None,
    malformed_entry_skips_file: &[],
    // Qwen's payloads are Claude's plus a timestamp; its variables name it.
    host: HostSpec {
        payload_keys: &["tool_call_id"],
        payload_events: &[],
        env_markers: &["QWEN_PROJECT_DIR"],
    },
    route: RouteSpec {
        matcher: None,
        grouped: true,
        group_keys: &[],
        command_key: "command",
        timeout_key: Some("timeout"),
        // Source 0.24.4 (`hook-timeout.ts`): a command hook's `timeout` is its limit, in seconds
        // below 1000 (1000 and more are read as milliseconds), default 60.
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
        var: "QWEN_HOME",
        dir: ".qwen",
        source: "qwen-facts.md: `~/.qwen` is `$QWEN_HOME` when it is set (Qwen Code 0.24.4, `Storage.getGlobalQwenDir`)",
    }),
    scope_option: None,
    presence: crate::tables::Presence {
        programs: &["qwen"],
        installs: &[],
        folders: &[".qwen"],
    },
    schema: Schema {
        file_name: "qwen.schema.json",
        text: include_str!("../../schemas/qwen.schema.json"),
    },
};

/// qwen-code 0.24.4, source (bundle `ExtensionManager.isEnabled`, `applyStoreActivation`,
/// `ExtensionStore.getActivation`, `writeLegacyProjectionUnlocked`) and run (`live_qwen::
/// an_extensions_hook_after_the_users_route_undoes_its_deny`, the `turned-off` case): an
/// extension is on unless the last rule matching the folder Qwen starts in is a `!` one. Qwen
/// keeps its state in `~/.qwen/extension-store/state.json` and writes its rules to
/// `extension-enablement.json` at every change (`!/*` off everywhere, `!<folder>/*` below a
/// folder), reading that file back where it is newer; hookx reads that file. A `--extensions`
/// start option overrides it; hookx cannot see it.
static EXTENSION_SWITCH: crate::tables::ExtensionSwitch = crate::tables::ExtensionSwitch {
    locations: &["qwen-extension", "qwen-extension-hooks"],
    file: ".qwen/extensions/extension-enablement.json",
    overrides_key: "overrides",
    manifest: "qwen-extension.json",
    name_key: "name",
    enable: "qwen extensions enable NAME --scope workspace",
    disable: "qwen extensions disable NAME --scope workspace",
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &["SessionDelete", "TodoCreated", "TodoCompleted"],
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
        ("async", HandlerField::Async),
        ("prompt", HandlerField::Prompt),
        ("model", HandlerField::Model),
        ("timeout", HandlerField::Timeout),
        ("statusMessage", HandlerField::StatusMessage),
    ],
    flat_handlers: false,
    wrapper_optional: false,
    implied_type: None,
    strict_load: None,
    // Run 0.24.4 (live_qwen::a_projects_matcher_that_is_no_string_turns_off_the_users_hooks):
    // a project's numeric or list matcher on PreToolUse and the user's PreToolUse hook did
    // not run; on another event it did.
    matcher_not_string_stops_event: true,
    // Source (`hook-timeout.ts`, `LEGACY_MILLISECOND_TIMEOUT_THRESHOLD`): a command hook's
    // `timeout` of 1000 or more is still read as milliseconds, the unit it once was.
    timeout_unit: crate::tables::TimeoutUnit::SecondsBelow(1000),
    zero_timeout_is_none: false,
    // Bundle 0.24.4 (`readCommandHookTimeout`, attacks row 1682): a value of 1000 or more
    // is milliseconds, given to `setTimeout` as is (its `MAX_TIMER_DELAY_MS` is unused there).
    timer_limit_ms: Some(crate::tables::NODE_TIMER_LIMIT_MS),
    skips_entry_without_positive_timeout: false,
    skips_entry_without_type: false,
    timeout_numeric_strings: true,
    kept_keys: &[],
    // Run 0.24.4: hooks get QWEN_PROJECT_DIR, CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR, all
    // the project: Claude's name keeps a Claude command unchanged both ways.
    project_dir_variable: Some("CLAUDE_PROJECT_DIR"),
    provided_env: &[
        "QWEN_PROJECT_DIR",
        "GEMINI_PROJECT_DIR",
        "QWEN_CODE_SESSION_ID",
    ],
    // `getHookKey`: identical commands of one event run once.
    merges_identical_handlers: true,
    version: None,
    stamp: Some(("$version", 4)),
    // Live 0.24.4 (`live_qwen` `a_projects_env_reaches_the_users_hooks`; bundle
    // `loadEnvironment`, `findEnvFiles`, `isLoaderEnvKey`, `isReloadExcludedKey`): the first
    // of these files found from the project up (in trusted folders), then its settings' `env`,
    // each set a variable only where it is unset; neither its loader keys, nor from `env`
    // the library path (they all reach the hook's shell otherwise: `PYTHONPATH` does).
    project_env: crate::tables::ProjectEnv {
        files: &[".qwen/.env", ".env"],
        search: crate::tables::EnvSearch::FirstUp,
        when: "in a folder it trusts",
        only_unset: true,
        refused: &[
            "NODE_OPTIONS",
            "npm_config_node_options",
            "npm_config_userconfig",
            "npm_config_globalconfig",
            "npm_config_script_shell",
            "npm_config_prefix",
            "NODE_PATH",
            "OPENSSL_CONF",
            "NODE_REPL_EXTERNAL_MODULE",
            "npm_config_node_gyp",
            "npm_config_init_module",
            "LD_PRELOAD",
            "LD_AUDIT",
            "DYLD_INSERT_LIBRARIES",
            "BASH_ENV",
            "ZDOTDIR",
            "BASH_FUNC_*",
        ],
        refused_in_settings: &[
            "LD_LIBRARY_PATH",
            "DYLD_LIBRARY_PATH",
            "ENV",
            "PATH",
            "HOME",
        ],
    },
    install_project: ".qwen/settings.json",
    install_user: ".qwen/settings.json",
    install_hidden_by: &[],
    hook_dir_var: None,
    foreign_switches: &[],
    reads_foreign_as: &[],
    // `shell` is parsed (qwen-code 0.24.4 `parseHookMatcher`), not interpreted by hookx.
    // A hook's Stop blocks in a row end the turn past `stopHookBlockingCap` (default 8;
    // 0.24.4's bundled `docs/features/hooks.md`): hookx keeps that under another host
    // (attacks row 380). A subagent's SubagentStop blocks too (the bundle's
    // `runSubagentStopHookLoop` runs at most that many; attacks row 1302).
    run_keys: RunKeys {
        shell: Some("shell"),
        follow_ups: Some(crate::tables::FollowUpCap {
            events: &[EventKind::Stop, EventKind::SubagentStop],
            limit_key: None,
            default_limit: 8,
            count_key: None,
        }),
        ..RunKeys::NONE
    },
    documents: Documents {
        file: &SETTINGS,
        plugin: None,
        frontmatter: None,
        toml: None,
    },
    plugin_root_var: None,
    // Bundle 0.24.4: a manifest's strings get these `${KEY}`s when it loads
    // (`recursivelyHydrateStrings`), and every extension hook's command `${CLAUDE_PLUGIN_ROOT}`
    // (`substituteHookVariables`); a `hooks/hooks.json` gets only the last (hookx replaces
    // them all in both).
    plugin_text: &[
        ("CLAUDE_PLUGIN_ROOT", crate::tables::PluginText::Root),
        ("extensionPath", crate::tables::PluginText::Root),
        ("workspacePath", crate::tables::PluginText::Project),
        ("/", crate::tables::PluginText::Literal("/")),
        ("pathSeparator", crate::tables::PluginText::Literal("/")),
    ],
    convert_target: ".qwen/settings.json",
    type_only_on: &[],
    plugins: None,
    extension_switch: Some(&EXTENSION_SWITCH),
    scripts: None,
    generated: None,
    rule_list: None,
    // Run 0.24.4 (`tests/live_qwen.rs`): settings are read with comments; a trailing comma
    // drops the file.
    // Qwen Code writes these into the settings files holding hooks (attacks row 1241): `qwen
    // mcp add` its `mcpServers` (run 0.24.4), "Always allow" `permissions.allow` (as Claude
    // Code's, row 327), the auth dialog `security.auth.selectedType`, `/theme` `ui.theme`,
    // `/model` `model.name`, the IDE nudge `ide` (bundle 0.24.4 `setValue`).
    agent_keys: &[
        "mcpServers",
        "permissions",
        "security.auth",
        "ui",
        "model",
        "ide",
    ],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax {
        comments: true,
        bom: true,
        strict_files: &[],
        ..crate::tables::JsonSyntax::STRICT
    },
};

/// Run-time protocol rows (conformance/qwen-facts.md), read by `crate::protocol`.
mod protocol_rows {
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AnswerField as F, AnswerText, ArgsForm, CarriedContext, EnvValue, Exit2, ExitCodes,
        ProtocolTables, Slot, Writes,
    };

    const HSO: &str = "hookSpecificOutput";
    const PRE: &[EventKind] = &[EventKind::PreToolUse];
    const PERM: &[EventKind] = &[EventKind::PermissionRequest];
    /// The events around one tool call, where `continue: false` does not stop the agent.
    const TOOL_CALL: &[EventKind] = &[EventKind::PreToolUse, EventKind::PostToolUse];
    /// Events whose answer takes a top-level `decision: "block"`: Stop (run 0.24.4: the turn
    /// goes on with the reason as a user message) and Claude's others, except PostToolUse,
    /// whose block reason never reached the model (run 0.24.4).
    const BLOCKABLE: &[EventKind] = &[
        EventKind::UserPromptSubmit,
        EventKind::Stop,
        EventKind::SubagentStop,
    ];
    /// Run 0.24.4: context reached the model from SessionStart, UserPromptSubmit, PostToolUse
    /// and PostToolUseFailure (appended to the tool result); not from SubagentStart.
    const CONTEXT: &[EventKind] = &[
        EventKind::SessionStart,
        EventKind::UserPromptSubmit,
        EventKind::PostToolUse,
        EventKind::PostToolUseFailure,
    ];

    pub(super) const PROTOCOL: ProtocolTables = ProtocolTables {
        mcp_context_key: None,
        reshape: None,
        guard_reads_name: None,
        // Run 0.24.4 (tests/live_qwen.rs `ground_truth_deny`, issue 25): a JSON answer counts
        // at exit 1 (a deny denies with its reason, PostToolUse context reaches the model);
        // at exit 2 stderr denies over a JSON allow. Was `ByCode` (stdout read at exit 0 only).
        exit_codes: ExitCodes::ByCodeAndJson,
        updated_input_merges: false,
        updated_input_needs_allow: false,
        reason_alone_is_context: false,
        event_key: "hook_event_name",
        event_key_only: None,
        event_shapes: &[],
        verbatim_keys: &[],
        // A tool call's payload carries `tool_call_id` beside `tool_use_id`, another value
        // (0.24.4's recordings): both are part of the id.
        call_keys: &["tool_use_id", "tool_call_id", "agent_id"],
        tool_args: ArgsForm::Object,
        tool_result_keys: None,
        env: &[
            ("QWEN_PROJECT_DIR", EnvValue::ProjectDir),
            ("CLAUDE_PROJECT_DIR", EnvValue::ProjectDir),
            ("GEMINI_PROJECT_DIR", EnvValue::ProjectDir),
            ("QWEN_CODE_SESSION_ID", EnvValue::SessionId),
        ],
        // Run 0.24.4: plain stdout on PreToolUse is ignored; elsewhere not seen yet.
        command_text_env: &[],
        plain_stdout_context: &[],
        // Run 0.24.4: PreToolUse exit 2 denies with stderr as the reason, over any stdout JSON.
        exit2: &[
            (EventKind::PreToolUse, Exit2::Deny),
            (EventKind::UserPromptSubmit, Exit2::Block),
            (EventKind::Stop, Exit2::Block),
        ],
        signal_exit: None,
        abort_exit: None,
        // Source 0.24.4 (`HookRunner`, bundle `chunk-DPEB6S2R.js`): `stdout.trim() ||
        // stderr.trim()` is parsed at every exit but 2, and a JSON string parsed again (attacks
        // row 820).
        answer_text: AnswerText {
            stderr_when_stdout_empty: true,
            string_parsed_again: true,
            control_line: None,
        },
        failure_denies: &[],
        fail_closed: &[EventKind::PreToolUse, EventKind::PermissionRequest],
        answer: &[
            // Run 0.24.4 (tests/live_qwen.rs `hookx_answer_forms`, forms `hxprestop`,
            // `hxpoststop`, each alone with a call after it): on PreToolUse `continue: false`
            // blocks the call with the reason and the agent goes on; on PostToolUse the
            // reason reaches the model and the agent goes on. Neither stops: not written there.
            F::new(Slot::Continue, &["continue"], Writes::Except(TOOL_CALL)),
            F::new(Slot::StopReason, &["stopReason"], Writes::Except(TOOL_CALL)),
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
            // Run 0.24.4: PreToolUse `updatedInput` is ignored (the original command ran).
            F::new(Slot::UpdatedInput, &[HSO, "updatedInput"], Writes::Never),
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
            // qwen-code 0.24.4 reads `interrupt` beside `behavior` (`firePermissionRequestHook`);
            // no run has fired PermissionRequest (`-p` denies before asking).
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
            // Run 0.24.4: the legacy PreToolUse `decision: "block"` denies with `reason`.
            F::new(Slot::Decision, &["decision"], Writes::On(BLOCKABLE)),
            F::new(Slot::Reason, &["reason"], Writes::On(BLOCKABLE)),
            F::new(
                Slot::Context,
                &[HSO, "additionalContext"],
                Writes::On(CONTEXT),
            ),
        ],
        answer_event_key: Some((HSO, "hookEventName")),
        // Run 0.24.4: `ask` in `-p` denies with the reason as the result.
        permission_values: &[Decision::Allow, Decision::Ask, Decision::Deny],
        permission_passes: &[],
        permission_defers: &[],
        // Bundle 0.24.4: `fireSessionStartHook` and the compression's `firePreCompactEvent`
        // read only the context (PreCompact's joins the compaction instructions); the
        // SessionEnd callers drop the result.
        // 0.24.4 (bundle `_executeToolCallBody`): PreToolUse fires after the approval, and an allow
        // is not read.
        allow_reach: crate::tables::AllowReach::Nothing,
        // PostToolUseFailure after a failed call (run 0.24.4, `tools.22`).
        failed_call: crate::tables::FailedCall::OwnEvent,
        permission_fold: crate::tables::PermissionFold::LastField,
        rewrite_race: false,
        ignored_blocks: &[
            EventKind::SessionStart,
            EventKind::SessionEnd,
            EventKind::PreCompact,
        ],
        decision_ignored: &[],
        block_unread: &[],
        block_withholds_result: &[],
        late_answer: false,
        // Run 0.24.4 (live_qwen `a_claude_pretooluse_context_reaches_qwens_model_once`; bundle
        // `firePreToolUseHook` returns it and nothing reads it): a PreToolUse context never
        // reaches the model, a PostToolUse or PostToolUseFailure one does (CONTEXT), and all
        // three payloads of one call hold the same `tool_use_id` (`generateToolUseId`, one per
        // call, recorded `tools.05`/`tools.06`).
        carried_context: Some(CarriedContext {
            from: EventKind::PreToolUse,
            to: &[EventKind::PostToolUse, EventKind::PostToolUseFailure],
            call_key: crate::model::event::TOOL_USE_ID,
        }),
        result_forms: super::RESULT_FORMS,
        hook_budget: &[],
    };
}

/// The text the model reads and the line shown, for the tools whose result is those alone.
const TEXT_RESULT: &str = r#"{"llmContent": "${output}", "returnDisplay": "${shown}"}"#;

/// Qwen Code 0.24.4's tool results (recorded: `tools.06` a shell call, `tools.10` a write,
/// `tools.14` an edit). A shell call's `llmContent` is its sections (bundle
/// `chunk-DPEB6S2R.js`: `Command:` (not in code mode), `Directory:`, `Output:` (`(empty)` for
/// none), `Error:`, `Exit Code:`, `Signal:`, `Process Group PGID:`); a text in another form (a
/// timeout, a cancel) is read whole as the output.
const RESULT_FORMS: &[ResultForm] = &[
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "Command: ${input.command}\nDirectory: ${_}\nOutput: (empty)\nError: (none)\nExit Code: ${exit_code}\nSignal: ${_}\nProcess Group PGID: ${_}"}"#,
    ),
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "Command: ${input.command}\nDirectory: ${_}\nOutput: ${output}\nError: (none)\nExit Code: ${exit_code}\nSignal: ${_}\nProcess Group PGID: ${_}"}"#,
    ),
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "Directory: ${_}\nOutput: ${output}\nError: (none)\nExit Code: ${exit_code}\nSignal: ${_}\nProcess Group PGID: ${_}"}"#,
    ),
    // The same with an error of Qwen's own (`Error:` is `(none)` without one), read as the
    // stderr (attacks row 1803: it was dropped).
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "Command: ${input.command}\nDirectory: ${_}\nOutput: (empty)\nError: ${error}\nExit Code: ${exit_code}\nSignal: ${_}\nProcess Group PGID: ${_}"}"#,
    ),
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "Command: ${input.command}\nDirectory: ${_}\nOutput: ${output}\nError: ${error}\nExit Code: ${exit_code}\nSignal: ${_}\nProcess Group PGID: ${_}"}"#,
    ),
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "Directory: ${_}\nOutput: ${output}\nError: ${error}\nExit Code: ${exit_code}\nSignal: ${_}\nProcess Group PGID: ${_}"}"#,
    ),
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "Command: ${input.command}\nDirectory: (root)\nOutput: ${output}\nError: (none)\nExit Code: ${exit_code}\nSignal: (none)\nProcess Group PGID: (none)",
            "returnDisplay": "${shown}"}"#,
    ),
    // A write's and an edit's text is matched (a failure's is not), what follows the file's
    // name (the new code) read as `${shown}` and dropped, written empty (attacks row 1802).
    ResultForm::of(
        ids::WRITE,
        r#"{"llmContent": "Successfully created and wrote to new file: ${input.file_path}.${shown}",
            "returnDisplay": {"filePath": "${input.file_path}", "newContent": "${input.content}"}}"#,
    ),
    ResultForm::of(
        ids::EDIT,
        r#"{"llmContent": "The file: ${input.file_path} has been updated.${shown}",
            "returnDisplay": {"filePath": "${input.file_path}"}}"#,
    ),
    // Any other text (a timeout, a cancel): all of it.
    ResultForm::of(ids::SHELL, r#"{"llmContent": "${output}"}"#),
    // A text file's content as it is (an image's `llmContent` is an object, read whole).
    ResultForm::of(
        ids::READ,
        r#"{"llmContent": "${output}", "returnDisplay": ""}"#,
    ),
    ResultForm::of(ids::GLOB, TEXT_RESULT),
    ResultForm::of(ids::GREP, TEXT_RESULT),
    ResultForm::of(ids::WEB_FETCH, TEXT_RESULT),
    ResultForm::of(ids::WEB_SEARCH, TEXT_RESULT),
    ResultForm::of(
        ids::TASK,
        r#"{"llmContent": [{"text": "${output}"}], "returnDisplay": "${shown}"}"#,
    ),
];
