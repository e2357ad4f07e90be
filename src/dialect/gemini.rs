//! Gemini CLI: `hooks` in `~/.gemini/settings.json` and `.gemini/settings.json`, and an
//! extension's `hooks/hooks.json`. Every fact here was seen with the real client 0.61.0
//! (`tests/live_gemini.rs`, `conformance/gemini-facts.md`) unless it says otherwise.

use crate::model::tool::ids;
use crate::model::{EventKind, MatcherStyle};
use crate::tables::ResultForm;
use crate::tables::{
    BrokenPolicy, DetectSpec, Dialect, DialectDef, DisabledHandlers, Flavor, FolderTrust, HostSpec,
    KeyCase, KillSwitch, ManagedSpec, MatchOn, McpNames, RouteSpec, Schema, Tables, TimestampForm,
    TrustRecord,
};
use crate::tables::{ConfigSpec, DocumentKind, Documents, HandlerField, RunKeys};
use crate::tables::{Location, Pattern, Root, Scope};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

pub static TABLES: Tables = Tables {
    name: "gemini",
    dialect: Dialect(&DEF),
    // All 11 fired in `-p` runs. BeforeAgent is the prompt hook (once per prompt, its context
    // joins the prompt, a block stops the model request); AfterAgent the end of the turn (a
    // block continues it with the reason, `stop_hook_active` on re-entry); AfterTool also fires
    // after a failed tool, with `tool_response.error`.
    events: &[
        (EventKind::SessionStart, "SessionStart"),
        (EventKind::SessionEnd, "SessionEnd"),
        (EventKind::UserPromptSubmit, "BeforeAgent"),
        (EventKind::Stop, "AfterAgent"),
        (EventKind::PreToolUse, "BeforeTool"),
        (EventKind::PostToolUse, "AfterTool"),
        (EventKind::PreCompact, "PreCompress"),
        (EventKind::Notification, "Notification"),
        (EventKind::BeforeModel, "BeforeModel"),
        (EventKind::AfterModel, "AfterModel"),
        (EventKind::BeforeToolSelection, "BeforeToolSelection"),
    ],
    // The tools a `--yolo` run offered (their names and argument names, run).
    tools: &[
        (ids::SHELL, &["run_shell_command"]),
        (ids::WRITE, &["write_file"]),
        (ids::EDIT, &["replace"]),
        (ids::READ, &["read_file"]),
        (ids::GLOB, &["glob"]),
        (ids::GREP, &["grep_search"]),
        (ids::WEB_FETCH, &["web_fetch"]),
        (ids::WEB_SEARCH, &["google_web_search"]),
        (ids::TASK, &["invoke_agent"]),
    ],
    // Canonical (Claude) argument names → Gemini's, where only the name differs. `file_path`,
    // `content`, `old_string`, `new_string`, `command`, `pattern`, `prompt`, `query` are the
    // same; Read's `offset`/`limit` and `start_line`/`end_line` mean different things and are
    // not renamed.
    tool_args: &[
        (ids::SHELL, &[("run_in_background", "is_background")]),
        (ids::EDIT, &[("replace_all", "allow_multiple")]),
        (ids::GLOB, &[("path", "dir_path")]),
        (
            ids::GREP,
            &[("path", "dir_path"), ("glob", "include_pattern")],
        ),
        (ids::TASK, &[("subagent_type", "agent_name")]),
    ],
    // The agent, model and Notification events ignore their matcher (run: a BeforeAgent
    // matcher `no-such-thing` ran).
    matcher_targets: &[
        (EventKind::PreToolUse, MatchOn::ToolName),
        (EventKind::PostToolUse, MatchOn::ToolName),
        (EventKind::SessionStart, MatchOn::Field("source")),
        (EventKind::SessionEnd, MatchOn::Field("reason")),
        (EventKind::PreCompact, MatchOn::Field("trigger")),
    ],
    // Tool matchers: a JavaScript RegExp tested unanchored, case-sensitive; `*`, empty and
    // absent match all (run).
    matcher_style: MatcherStyle::UnanchoredRegex {
        star_is_all: true,
        trims: true,
    },
    tool_scope: crate::tables::ToolScope::Any,
    // SessionStart/SessionEnd/PreCompress compare the trimmed matcher with the value exactly
    // (run: `startup` matched, `start` did not).
    exact_field_matchers: true,
    stop_fires_for_subagents: false,
    // Run 0.61.0 (attacks row 1761, tests/fixtures/cadence/): `PreCompress` fires with
    // `trigger: "auto"` before every model request, a subagent's turns included; the bundle's
    // `ChatCompressionService.compress` fires it, then compares the token count with the
    // threshold. Its payload says nothing of which, so hookx cannot tell a compression from a
    // turn: a foreign `PreCompact` rule runs each time (its answer is ignored there, so nothing
    // it says is lost), and `convert`, `list`, `doctor` and `simulate` say so.
    unfired: &[],
    cadences: &[(
        EventKind::PreCompact,
        crate::tables::Cadence::EveryModelRequest,
    )],
    matcher_tries_names_of: &[],
    // Run: the MCP server `probe`'s tool `echo` is `mcp_probe_echo`; the payload's
    // `mcp_context` names both parts as configured. Each character but an ASCII letter, digit,
    // `_`, `-`, `.` or `:` is written `_` (run 0.61.0, `café` → `mcp_caf__run`; the bundle's
    // `generateValidName`, which also cuts a name past 63 characters to its first and last 30
    // around `...`, not modelled; attacks rows 1868, 1941).
    mcp_names: McpNames {
        prefix: "mcp_",
        separator: "_",
        matchers: None,
        builtin: None,
        event_separators: &[],
        rewrite: Some(crate::tables::NameRewrite {
            kept: "_-.:",
            to: '_',
            per_unit: true,
            punycode: false,
            servers_kept_on: &[],
            cut: None,
            whole: None,
        }),
    },
    key_case: KeyCase::Snake,
    // AfterAgent's answer text is Claude Stop's `last_assistant_message`.
    value_renames: &[],
    event_values: &[],
    key_renames: &[("last_assistant_message", "prompt_response")],
    timestamp: TimestampForm::Iso8601,
    // 60000 ms (source).
    default_timeout: [60, 60, 60],
    project_dir_var: Some("GEMINI_PROJECT_DIR"),
    project_root_markers: &[],
    project_root_setting: None,
    project_from: crate::tables::ProjectFrom::Cwd,
    // In parallel unless a matching definition says `sequential: true`.
    parallel: true,
    first_deny_stops_the_rest: false,
    rewrites_chain: false,
    handler_types: &["command"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: Some("gemini-cli 0.61.0"),
    matcher_values: &[
        (EventKind::SessionStart, &["startup", "resume", "clear"]),
        (
            EventKind::SessionEnd,
            &["exit", "clear", "logout", "prompt_input_exit", "other"],
        ),
        (EventKind::PreCompact, &["manual", "auto"]),
    ],
    handler_key_overrides: &[],
    // Source: an invalid regex is compared as an exact string.
    invalid_matcher_effect: Some("Gemini CLI compares it with the tool name as plain text"),
    other_tools: &[],
    renamed_tools: &[],
    tool_codecs: &[],
    // The top-level keys of every recorded payload (tests/fixtures/recorded/gemini-0.61.0/).
    payload_object_keys: &[],
    payload_keys: &[
        (
            EventKind::SessionStart,
            &[
                "cwd",
                "hook_event_name",
                "session_id",
                "source",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::SessionEnd,
            &[
                "cwd",
                "hook_event_name",
                "reason",
                "session_id",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::UserPromptSubmit,
            &[
                "cwd",
                "hook_event_name",
                "prompt",
                "session_id",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::Stop,
            &[
                "cwd",
                "hook_event_name",
                "prompt",
                "prompt_response",
                "session_id",
                "stop_hook_active",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::PreToolUse,
            &[
                "cwd",
                "hook_event_name",
                "mcp_context",
                "original_request_name",
                "session_id",
                "timestamp",
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
                "mcp_context",
                "original_request_name",
                "session_id",
                "timestamp",
                "tool_input",
                "tool_name",
                "tool_response",
                "transcript_path",
            ],
        ),
        (
            EventKind::PreCompact,
            &[
                "cwd",
                "hook_event_name",
                "session_id",
                "timestamp",
                "transcript_path",
                "trigger",
            ],
        ),
        (
            EventKind::Notification,
            &[
                "cwd",
                "details",
                "hook_event_name",
                "message",
                "notification_type",
                "session_id",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::BeforeModel,
            &[
                "cwd",
                "hook_event_name",
                "llm_request",
                "session_id",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::AfterModel,
            &[
                "cwd",
                "hook_event_name",
                "llm_request",
                "llm_response",
                "session_id",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::BeforeToolSelection,
            &[
                "cwd",
                "hook_event_name",
                "llm_request",
                "session_id",
                "timestamp",
                "transcript_path",
            ],
        ),
    ],
};

/// `settings.json`: a `hooks` object among other settings (`hooksConfig`, `security`, …).
pub static SETTINGS: DocumentKind = DocumentKind {
    name: "GeminiSettings",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: None,
    session_env: None,
    frontmatter: false,
};

pub static DEF: DialectDef = DialectDef {
    name: "gemini",
    display: "Gemini",
    product: "Gemini CLI",
    flavors: &[Flavor(&TABLES)],
    config: &CONFIG,
    // `settings.json` is Claude's file name too: the `.gemini/` folder, Gemini's event names
    // or `hooksConfig` make a file Gemini's.
    detect: DetectSpec {
        dirs: &[".gemini/"],
        file_names: &[],
        unmarked: false,
        sole_event_flavors: &[Flavor(&TABLES)],
        sole_top_keys: &["hooksConfig"],
        sole_handler_keys: &[],
        top_keys: &[],
        handler_keys: &[],
        preferred: false,
    },
    // Merged in this order (system defaults, user, project, system settings, then extensions),
    // each event's arrays concatenated (source 0.61.0: `mergeSettings`, `hooks.*` "concat").
    locations: &[
        // Machine-wide defaults an administrator ships (`system-defaults.json` beside the
        // system settings): lowest precedence for plain settings, but its hooks still run.
        Location {
            id: "gemini-system-defaults",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::File("system-defaults.json"),
        },
        Location {
            id: "gemini-user",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".gemini/settings.json"),
        },
        // Read only in a trusted folder (`trustedFolders.json`, GEMINI_CLI_TRUST_WORKSPACE).
        Location {
            id: "gemini-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".gemini/settings.json"),
        },
        // System settings: merged last, so they override every other file's plain settings
        // (`hooksConfig.enabled` included); their hooks are appended after the project's.
        Location {
            id: "gemini-system",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::File("settings.json"),
        },
        Location {
            id: "gemini-extension",
            dialect: Dialect(&DEF),
            scope: Scope::Plugin,
            root: Root::Home,
            pattern: Pattern::Sub {
                dir: ".gemini/extensions",
                name: "hooks/hooks.json",
            },
        },
    ],
    // Gemini CLI reads no other agent's hook files.
    native: &[
        "gemini-system-defaults",
        "gemini-user",
        "gemini-project",
        "gemini-system",
        "gemini-extension",
    ],
    // Source: `hooksConfig.enabled: false` runs no hook (the merged settings: system over
    // project over user over system defaults).
    kill_switch: Some(KillSwitch {
        key: "hooksConfig",
        inner: Some("enabled"),
        among_events: false,
        off: false,
        host_wide: false,
        locations: &[
            "gemini-system-defaults",
            "gemini-user",
            "gemini-project",
            "gemini-system",
        ],
    }),
    // Run: a handler named in `hooksConfig.disabled` (its `name`, else its command) never runs.
    // System settings and system defaults: `GEMINI_CLI_SYSTEM_SETTINGS_PATH` moves the first,
    // `GEMINI_CLI_SYSTEM_DEFAULTS_PATH` the second (default: beside the first). Windows
    // (`C:\ProgramData\gemini-cli`) is not modelled. No key keeps only system hooks.
    managed: Some(ManagedSpec {
        dirs: &[
            ("linux", "/etc/gemini-cli"),
            ("macos", "/Library/Application Support/GeminiCli"),
        ],
        only_managed_key: None,
        hooks_off: None,
        // Source 0.61.0 (`FatalConfigError`, "Please fix the configuration file(s) and try
        // again"), run 0.61.0 (`live_gemini::system_settings_others_could_write_are_skipped`).
        // A user or project settings file that does not parse stops it too: not modelled.
        broken_policy: BrokenPolicy::StopsAgent,
        kill_switch_reaches_policy: true,
        any_kill_switch_reaches_policy: true,
        // Source 0.61.0: "Security Warning: Skipping system settings file" unless it, its
        // folders and what it links to are root's and not group/other-writable.
        root_owned_only: true,
        // Source 0.61.0 (`getSystemSettingsPath`, `getSystemDefaultsPath`): read before the
        // project's `.env`, which still reaches the hooks' environment.
        moved_by: &[
            ("gemini-system", "GEMINI_CLI_SYSTEM_SETTINGS_PATH"),
            ("gemini-system-defaults", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"),
        ],
        source: "source 0.61.0 (getSystemSettingsPath, getSystemDefaultsPath, mergeSettings, \
                 isFileAndDirectorySecureSync); \
                 run 0.61.0 (tests/live_gemini.rs system_settings_hooks_run)",
    }),
    // Run: an unknown event is skipped and the rest loads; a definition without `hooks` is
    // discarded (source): never the whole file.
    malformed_entry_skips_file: &[],
    disabled_handlers: Some(DisabledHandlers {
        key: "hooksConfig",
        inner: "disabled",
        label_key: "name",
        // Source: the lists of all four files are joined ("union").
        locations: &[
            "gemini-system-defaults",
            "gemini-user",
            "gemini-project",
            "gemini-system",
        ],
    }),
    host: HostSpec {
        // With an ISO `timestamp`: Copilot's PascalCase payloads have no `transcript_path`.
        payload_keys: &["transcript_path"],
        payload_events: &[
            EventKind::BeforeModel,
            EventKind::AfterModel,
            EventKind::BeforeToolSelection,
        ],
        env_markers: &["GEMINI_CWD"],
    },
    // No matcher: every tool and every value.
    route: RouteSpec {
        matcher: None,
        grouped: true,
        group_keys: &[],
        command_key: "command",
        timeout_key: Some("timeout"),
        // Source 0.61.0: a hook's `timeout` (milliseconds, default 60 000) is its limit; SIGTERM
        // then, SIGKILL 5 s later (fail-open).
        limit: crate::tables::RouteLimit {
            secs: crate::tables::ROUTE_TIMEOUT,
            on: &[],
        },
        // The user route carries the user's key, so the two lines differ and the agent runs both
        // (attacks row 163): the project route says it is one and leaves the event to the user's.
        names_project_route: true,
        names_folder: false,
    },
    // Source, run: the trust dialog writes `realpath → "TRUST_FOLDER"`; `TRUST_PARENT` trusts
    // the parent, `DO_NOT_TRUST` distrusts; the longest matching path wins. In `-p` an
    // untrusted folder is refused (exit 55).
    folder_trust: Some(FolderTrust {
        locations: &["gemini-project"],
        record: TrustRecord::Levels {
            file: ".gemini/trustedFolders.json",
            trust_folder: &["TRUST_FOLDER"],
            trust_parent: &["TRUST_PARENT"],
            // Bundle 0.61.0 `parseTrustedFoldersJson`: `JSON.parse(stripJsonComments(…))`;
            // one it cannot parse stops the CLI (`checkPathTrust`: `FatalConfigError`).
            json: crate::tables::JsonSyntax {
                comments: true,
                ..crate::tables::JsonSyntax::STRICT
            },
        },
        // Bundle 0.61.0 `Storage.getTrustedFoldersPath`: the variable's file, else the one
        // below the home (conformance/attacks row 462's leftover).
        record_var: Some("GEMINI_CLI_TRUSTED_FOLDERS_PATH"),
        trust_vars: &[("GEMINI_CLI_TRUST_WORKSPACE", "true")],
        // Bundle 0.61.0 `checkPathTrust`: `GEMINI_RESTRICTED_MODE=true` or
        // `GEMINI_CLI_TRUST_WORKSPACE=false` distrust every folder first; with
        // `security.folderTrust.enabled` false (user settings) every folder is trusted (attacks
        // row 422: hookx took such a folder as untrusted, and a converted copy Gemini runs did not
        // stand in for its original, which the route ran too; gemini-facts "Folder trust").
        // Bundle 0.61.0: `--skip-trust` sets it after the settings were read as untrusted
        // (`live_gemini::skip_trust_drops_project_hooks`: user hooks run, project hooks do
        // not), and the hooks inherit it.
        set_after_load: &["GEMINI_CLI_TRUST_WORKSPACE"],
        distrust_vars: &[
            ("GEMINI_RESTRICTED_MODE", "true"),
            ("GEMINI_CLI_TRUST_WORKSPACE", "false"),
        ],
        off_setting: Some(crate::tables::TrustOff {
            file: ".gemini/settings.json",
            pointer: "/security/folderTrust/enabled",
            json: crate::tables::JsonSyntax {
                comments: true,
                ..crate::tables::JsonSyntax::STRICT
            },
        }),
        fix: "trust the folder in Gemini CLI's folder-trust dialog (run `gemini` there once), or \
              run it with GEMINI_CLI_TRUST_WORKSPACE=true",
        untrusted: "in `-p` mode Gemini CLI exits (55) before any hook runs; interactively it \
                    does not read the file, and registers no hook",
        main_checkout_in_worktree: false,
        source: "run 0.61.0 (an untrusted folder in -p exits 55; trustedFolders.json TRUST_FOLDER \
                 and GEMINI_CLI_TRUST_WORKSPACE trust it); source (TRUST_PARENT, DO_NOT_TRUST, \
                 the longest path wins)",
    }),
    route_trust: None,
    home_var: Some(crate::tables::HomeVar {
        var: "GEMINI_CLI_HOME",
        dir: "",
        source: "gemini-facts.md: `~` is `$GEMINI_CLI_HOME` if set (source)",
    }),
    scope_option: None,
    presence: crate::tables::Presence {
        programs: &["gemini"],
        installs: &[],
        folders: &[".gemini"],
    },
    schema: Schema {
        file_name: "gemini.schema.json",
        text: include_str!("../../schemas/gemini.schema.json"),
    },
};

/// gemini-cli 0.61.0, source (`ExtensionEnablementManager.isEnabled`, bundle
/// `chunk-4GP6HFBO.js`) and run (`tests/live_gemini.rs`,
/// `an_extension_turned_off_for_the_folder_runs_no_hook`): an extension's hooks register only
/// while it is active (`extension.isActive && extension.hooks`), and it is active unless the
/// last rule of `extension-enablement.json` matching the folder Gemini starts in is a `!` one.
/// `gemini extensions disable NAME` writes `!<home>/*` (user scope: only folders below the
/// home), `--scope workspace` `!<folder>/*`. A `--extensions` start option overrides the file;
/// hookx cannot see it.
static EXTENSION_SWITCH: crate::tables::ExtensionSwitch = crate::tables::ExtensionSwitch {
    locations: &["gemini-extension"],
    file: ".gemini/extensions/extension-enablement.json",
    overrides_key: "overrides",
    manifest: "gemini-extension.json",
    name_key: "name",
    enable: "gemini extensions enable NAME --scope workspace",
    disable: "gemini extensions disable NAME --scope workspace",
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &[],
    // `name` and `description` are labels (kept verbatim): `name` replaces the command in
    // messages and in the de-duplication key.
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
        ("timeout", HandlerField::Timeout),
        ("env", HandlerField::Env),
    ],
    flat_handlers: false,
    wrapper_optional: false,
    implied_type: None,
    strict_load: None,
    matcher_not_string_stops_event: false,
    project_dir_variable: Some("GEMINI_PROJECT_DIR"),
    // With them, the placeholders Gemini substitutes in an extension's command text
    // (`${extensionPath}`, `${workspacePath}`; source 0.61.0, gemini-facts.md).
    provided_env: &[
        "extensionPath",
        "workspacePath",
        "GEMINI_CWD",
        "GEMINI_SESSION_ID",
        "GEMINI_PLANS_DIR",
        "CLAUDE_PROJECT_DIR",
    ],
    // Handlers with the same `name:command` run once per event, across scopes.
    merges_identical_handlers: true,
    version: None,
    stamp: None,
    // Live 0.61.0 (`live_gemini` `a_projects_env_file_reaches_the_users_hooks`,
    // `an_env_file_above_the_project_reaches_the_users_hooks`; bundle `loadEnvironment`,
    // `findEnvFile`): in a trusted folder the first of these found, from the project up
    // (a `.env` in the folder above before the home's), sets every variable not already set,
    // for every hook. Its `excludedEnvVars` (`DEBUG`, …) change no program.
    project_env: crate::tables::ProjectEnv {
        files: &[".gemini/.env", ".env"],
        search: crate::tables::EnvSearch::FirstUp,
        when: "in a folder it trusts",
        only_unset: true,
        refused: &[],
        refused_in_settings: &[],
    },
    install_project: ".gemini/settings.json",
    install_user: ".gemini/settings.json",
    install_hidden_by: &[],
    hook_dir_var: None,
    foreign_switches: &[],
    reads_foreign_as: &[],
    // An AfterAgent block sends its reason as the next message within the same turn budget
    // (0.61.0 bundle: `sendMessageStream(continueRequest, …, boundedTurns - 1, …, true)`,
    // `MAX_TURNS = 100`): a hook that always blocks ends there. Under another host hookx keeps
    // that (attacks row 380).
    run_keys: RunKeys {
        follow_ups: Some(crate::tables::FollowUpCap {
            events: &[EventKind::Stop],
            limit_key: None,
            default_limit: 100,
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
    // Bundle 0.61.0 (`loadExtensionHooks`, `hydrateString`): every string of an extension's
    // `hooks/hooks.json` gets these `${KEY}`s as raw text when it loads.
    plugin_text: &[
        ("extensionPath", crate::tables::PluginText::Root),
        ("workspacePath", crate::tables::PluginText::Project),
        ("/", crate::tables::PluginText::Literal("/")),
        ("pathSeparator", crate::tables::PluginText::Literal("/")),
    ],
    convert_target: ".gemini/settings.json",
    type_only_on: &[],
    plugins: None,
    extension_switch: Some(&EXTENSION_SWITCH),
    timeout_unit: crate::tables::TimeoutUnit::Millis,
    zero_timeout_is_none: false,
    // Run 0.61.0 (`live_gemini::a_guards_timeout_past_the_timers_reach`, attacks row 1681):
    // `setTimeout(kill, timeout)` as written; at 2147483648 ms a guard is ended at once.
    timer_limit_ms: Some(crate::tables::NODE_TIMER_LIMIT_MS),
    skips_entry_without_positive_timeout: false,
    skips_entry_without_type: true,
    timeout_numeric_strings: false,
    // Labels (`name` also keys de-duplication and `hooksConfig.disabled`), and a definition's
    // `sequential` (its event's handlers run one after another; hookx runs them in parallel).
    kept_keys: &["name", "description", "sequential"],
    scripts: None,
    generated: None,
    rule_list: None,
    // Run 0.61.0 (`tests/live_gemini.rs`): settings are read with comments
    // (`strip-json-comments`), a trailing comma stops the CLI; an extension's `hooks/hooks.json`
    // with either is dropped without a word.
    // Gemini CLI writes these into the settings files holding hooks (attacks row 1241):
    // `gemini mcp add` its `mcpServers` (run 0.61.0, `--scope user` and `project`: the whole
    // file written again, comments kept), the auth dialog `security.auth.selectedType`,
    // `/theme` and the settings dialog `ui`, `/model` `model.name`, the IDE nudge `ide` (bundle
    // 0.61.0 `setValue`). Hooks depend only on `hooks` and `hooksConfig` (bundle:
    // `enableHooks: settings.hooksConfig.enabled`); `security.folderTrust` is read, not these.
    // At every start (attacks row 1506, run 0.61.0: `gemini mcp list`), `migrateDeprecatedSettings`
    // writes a file holding deprecated settings again (bundle `chunk-2YTYPKEZ.js`): the
    // `general` switches turned round, `tools.approvalMode` moved to
    // `general.defaultApprovalMode`, `context.fileFiltering`'s, and the `experimental` agent
    // settings moved to `agents.overrides` and `general.plan`; only those keys, not `tools` or
    // `experimental` whole.
    agent_keys: &[
        "mcpServers",
        "security.auth",
        "ui",
        "model",
        "ide",
        "agents",
        "general.disableAutoUpdate",
        "general.enableAutoUpdate",
        "general.disableUpdateNag",
        "general.enableAutoUpdateNotification",
        "general.defaultApprovalMode",
        "general.plan",
        "tools.approvalMode",
        "context.fileFiltering.disableFuzzySearch",
        "context.fileFiltering.enableFuzzySearch",
        "experimental.codebaseInvestigatorSettings",
        "experimental.cliHelpAgentSettings",
        "experimental.plan",
    ],
    // Run 0.61.0 (attacks row 1245, `gemini mcp add --scope user` with a route added after
    // its read): the file written back from the session's copy, the route gone. Qwen Code
    // 0.24.4 under the same kept it; Codex edits its TOML as it is (row 1248).
    rewrites_from_memory: Some("`/theme`, `/model`, the auth dialog, `gemini mcp add`"),
    json_syntax: crate::tables::JsonSyntax {
        comments: true,
        bom: false,
        strict_files: &["hooks/hooks.json"],
        ..crate::tables::JsonSyntax::STRICT
    },
};

/// Run-time protocol rows (gemini-facts.md "Answers"), read by `crate::protocol`.
mod protocol_rows {
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AnswerField as F, AnswerText, ArgsForm, CANONICAL_CALL_KEYS, EnvValue, Exit2, ExitCodes,
        ProtocolTables, Slot, Writes,
    };

    const HSO: &str = "hookSpecificOutput";
    const PRE: &[EventKind] = &[EventKind::PreToolUse];
    /// `decision: block`: BeforeAgent stops the model request, AfterAgent continues the turn
    /// with the reason, AfterTool gives the model `{"error": REASON}` instead of the result.
    const BLOCKS: &[EventKind] = &[
        EventKind::UserPromptSubmit,
        EventKind::Stop,
        EventKind::PostToolUse,
    ];
    /// `hookSpecificOutput.additionalContext` reaches the model: appended to the tool result
    /// (AfterTool), to the prompt (BeforeAgent), before the input (SessionStart).
    const CONTEXT: &[EventKind] = &[
        EventKind::PostToolUse,
        EventKind::UserPromptSubmit,
        EventKind::SessionStart,
    ];

    pub(super) const PROTOCOL: ProtocolTables = ProtocolTables {
        event_key: "hook_event_name",
        event_key_only: None,
        event_shapes: &[],
        verbatim_keys: &[],
        call_keys: CANONICAL_CALL_KEYS,
        tool_args: ArgsForm::Object,
        // `tool_response {llmContent, returnDisplay, error?}` is passed on as it is.
        tool_result_keys: None,
        mcp_context_key: Some("mcp_context"),
        reshape: None,
        guard_reads_name: None,
        // `GEMINI_CWD` is the CLI's working directory, which is the project directory hookx
        // knows; `GEMINI_PLANS_DIR` (below the CLI's own tmp folder) is not set by hookx.
        env: &[
            ("GEMINI_PROJECT_DIR", EnvValue::ProjectDir),
            ("GEMINI_CWD", EnvValue::ProjectDir),
            ("GEMINI_SESSION_ID", EnvValue::SessionId),
            ("CLAUDE_PROJECT_DIR", EnvValue::ProjectDir),
        ],
        // Bundle 0.61.0 `expandCommand`: before spawning, each `$NAME` of these (as text: in
        // single quotes too, `$NAMEX` too, not `${NAME}`) becomes its value quoted by
        // `shell-quote`. `GEMINI_PLANS_DIR` too: hookx cannot compute it (a run leaves it to
        // the shell), but a wrapped copy must keep Gemini from writing it into the quoted
        // line (`convert`; attacks row 1533).
        command_text_env: &[
            "GEMINI_PROJECT_DIR",
            "GEMINI_CWD",
            "GEMINI_SESSION_ID",
            "GEMINI_PLANS_DIR",
            "CLAUDE_PROJECT_DIR",
        ],
        plain_stdout_context: &[],
        // Text at exit 2 (any code but 0 and 1) denies BeforeTool, blocks BeforeAgent, makes
        // AfterAgent continue and AfterTool's result an error (run). Handlers' answers are read
        // by `exit_codes`; this row tells which events a hook guards (a wrapped entry whose
        // hookx is missing denies there).
        exit2: &[
            (EventKind::PreToolUse, Exit2::Deny),
            (EventKind::UserPromptSubmit, Exit2::Block),
            (EventKind::Stop, Exit2::Block),
            (EventKind::PostToolUse, Exit2::Block),
        ],
        exit_codes: ExitCodes::OutputFirst {
            warning: 1,
            warning_prefix: "Warning: ",
        },
        // A failing or timed-out hook lets the tool run (fail-open, run).
        signal_exit: None,
        abort_exit: None,
        answer_text: AnswerText::STDOUT,
        failure_denies: &[],
        fail_closed: &[EventKind::PreToolUse],
        // `decision` carries both: on BeforeTool it is the permission (`allow`, `deny`, `ask`;
        // `block` and `approve` read too), elsewhere a block. Read once, as a decision.
        answer: &[
            F::new(Slot::Continue, &["continue"], Writes::All),
            F::new(Slot::StopReason, &["stopReason"], Writes::All),
            F::new(Slot::SuppressOutput, &["suppressOutput"], Writes::All),
            F::new(Slot::SystemMessage, &["systemMessage"], Writes::All),
            F::new(Slot::Decision, &["decision"], Writes::On(BLOCKS)),
            F::new(Slot::Reason, &["reason"], Writes::On(BLOCKS)),
            F::new(Slot::Permission, &["decision"], Writes::On(PRE)),
            F::new(Slot::PermissionReason, &["reason"], Writes::On(PRE)),
            // Merged (shallow) into the arguments, as Gemini's hook reference says ("merges
            // with and overrides the model's arguments"). Gemini CLI 0.61.0 itself rebuilds
            // the call from its own hooks' `tool_input` alone (bundle: the scheduler's
            // `evaluateBeforeToolHook` runs `tool.build(modifiedInput)`; the `Object.assign`
            // is in `executeToolWithHooks`, which it calls with `skipBeforeHook`), and refused
            // one of the description alone (live, attacks row 1908): its bug; hookx writes it
            // the whole input.
            F::new(Slot::UpdatedInput, &[HSO, "tool_input"], Writes::On(PRE)),
            F::new(
                Slot::Context,
                &[HSO, "additionalContext"],
                Writes::On(CONTEXT),
            ),
        ],
        updated_input_merges: true,
        updated_input_needs_allow: false,
        reason_alone_is_context: false,
        answer_event_key: None,
        permission_values: &[Decision::Allow, Decision::Ask, Decision::Deny],
        permission_passes: &[],
        permission_defers: &[],
        // Bundle 0.61.0: SessionStart's caller reads only `systemMessage` and the context,
        // `firePreCompressEvent` and `fireSessionEndEvent` are awaited and their result
        // dropped, Notification's likewise but for `systemMessage`.
        // 0.61.0 (bundle `evaluateBeforeToolHook`): an allow is not read; the approval policy
        // decides (`checkPolicy`), an `ask` only forces a prompt.
        allow_reach: crate::tables::AllowReach::Nothing,
        // AfterTool after a failed call too, with `tool_response.error {message, type}` (run
        // 0.61.0, `tools.32`); a shell command's non-zero exit is no failure there (bundle: only
        // an execution error sets it).
        failed_call: crate::tables::FailedCall::Marked(&[crate::tables::FailMark {
            path: &["tool_response", "error"],
            is_false: false,
            message: &["tool_response", "error", "message"],
        }]),
        permission_fold: crate::tables::PermissionFold::Strictest,
        rewrite_race: false,
        ignored_blocks: &[
            EventKind::SessionStart,
            EventKind::SessionEnd,
            EventKind::PreCompact,
            EventKind::Notification,
        ],
        decision_ignored: &[],
        block_unread: &[],
        // AfterTool `decision: block`: the model gets `{"error": REASON}` instead (run).
        block_withholds_result: &[EventKind::PostToolUse],
        late_answer: false,
        // 0.61.0: BeforeTool and AfterTool payloads name no call (attacks row 1382).
        carried_context: None,
        result_forms: super::RESULT_FORMS,
        hook_budget: &[],
    };
}

/// The text the model reads and the line shown, for the tools whose result is those alone.
const TEXT_RESULT: &str = r#"{"llmContent": "${output}", "returnDisplay": "${shown}"}"#;

/// Gemini CLI 0.61.0's tool results (recorded: `tools.8` a shell call, `tools.14` a write,
/// `tools.20` a replace, `tools.64` an MCP tool). A shell call's `llmContent` is its sections
/// (bundle: `Output:` (`(empty)` for none), then `Error:`, `Exit Code:` (not 0), `Signal:`,
/// `Background PIDs:`, `Process Group PGID:` where there are), in `<untrusted_context>`; a
/// text in another form (a cancelled call, a signal) is read whole as the output.
const RESULT_FORMS: &[ResultForm] = &[
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "<untrusted_context>\nOutput: (empty)\nProcess Group PGID: ${_}\n</untrusted_context>"}"#,
    ),
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "<untrusted_context>\nOutput: ${output}\nError: ${error}\nExit Code: ${exit_code}\nProcess Group PGID: ${_}\n</untrusted_context>"}"#,
    ),
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "<untrusted_context>\nOutput: ${output}\nExit Code: ${exit_code}\nProcess Group PGID: ${_}\n</untrusted_context>"}"#,
    ),
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "<untrusted_context>\nOutput: ${output}\nProcess Group PGID: ${_}\n</untrusted_context>"}"#,
    ),
    ResultForm::of(
        ids::SHELL,
        r#"{"llmContent": "<untrusted_context>\nOutput: ${output}\n</untrusted_context>",
            "returnDisplay": "${shown}"}"#,
    ),
    // A write's and an edit's text is matched (a failure's is not), what follows the file's
    // name (the new code) read as `${shown}` and dropped, written empty (attacks row 1802).
    ResultForm::of(
        ids::WRITE,
        r#"{"llmContent": "Successfully created and wrote to new file: ${input.file_path}.${shown}",
            "returnDisplay": {"filePath": "${input.file_path}", "newContent": "${input.content}",
            "isNewFile": true}}"#,
    ),
    ResultForm::of(
        ids::EDIT,
        r#"{"llmContent": "Successfully modified file: ${input.file_path} (1 replacements).${shown}",
            "returnDisplay": {"filePath": "${input.file_path}", "isNewFile": false}}"#,
    ),
    ResultForm::mcp(
        r#"{"llmContent": [{"text": "<untrusted_context>\n${output}\n</untrusted_context>"}],
            "returnDisplay": "${shown}"}"#,
    ),
    // Any other text (a cancelled call, one moved to the background): all of it.
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
