//! Kiro (CLI 3, IDE 1): standalone hook files `.kiro/hooks/*.json` (project) and
//! `~/.kiro/hooks/*.json` (user), each a versioned list of rules:
//! `{"version": "v1", "hooks": [{name, description?, trigger, matcher?, action: {type,
//! command | prompt}, timeout?, enabled?}]}` ([`RuleList`]).
//!
//! Every fact here is "docs": kiro.dev/docs/cli/v3/hooks, the pre-v3 CLI's `docs/hooks.md`
//! (aws/amazon-q-developer-cli) and the sources `conformance/kiro-facts.md` quotes; none was
//! verified by running Kiro, which has no CLI on npm.
//!
//! Triggers are PascalCase in files, while the payload names the event in camelCase
//! (`"hook_event_name": "preToolUse"`). An `agent` action hands its `prompt` to the agent: no
//! command hookx could run, and no Claude `agent` hook (that one asks a model for a verdict),
//! so it stays a Kiro handler: kept on round trip, never run by hookx, lost when converted.
//! The older forms are read and converted like a list ([`OlderForms`]), never written: `hooks`
//! as a map of events inside `.kiro/agents/*.json` (Kiro CLI 2), and the IDE's one-rule
//! `.kiro.hook` files (`when`/`then`).

use crate::model::tool::ids;
use crate::model::{EventKind, MatcherStyle};
use crate::tables::{
    ConfigSpec, DocumentKind, Documents, HandlerField, OlderForms, RuleList, RunKeys,
};
use crate::tables::{
    DetectSpec, Dialect, DialectDef, Flavor, HostSpec, KeyCase, MatchOn, McpNames, RouteSpec,
    Schema, Tables, TimestampForm, ToolScope,
};
use crate::tables::{Location, Pattern, Root, Scope};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

/// The file paths of `fs_write` (`{"command": "create", "path", "file_text"}`, a live 2.19.2
/// capture) and `str_replace` (`path`, `old_str`, `new_str`: the pre-v3 CLI's `fs_write`
/// `str_replace` command).
const WRITE_ARGS: &[(&str, &str)] = &[("file_path", "path"), ("content", "file_text")];
const EDIT_ARGS: &[(&str, &str)] = &[
    ("file_path", "path"),
    ("old_string", "old_str"),
    ("new_string", "new_str"),
];
const READ_ARGS: &[(&str, &str)] = &[("file_path", "path")];

pub static TABLES: Tables = Tables {
    name: "kiro",
    dialect: Dialect(&DEF),
    // The v1 triggers hookx has a canonical event for; the Kiro-only ones are
    // `RuleList::other_events` below.
    events: &[
        (EventKind::SessionStart, "SessionStart"),
        (EventKind::UserPromptSubmit, "UserPromptSubmit"),
        (EventKind::PreToolUse, "PreToolUse"),
        (EventKind::PostToolUse, "PostToolUse"),
        (EventKind::Stop, "Stop"),
    ],
    // "fs_read, fs_write (v3 aliases write, fsWrite), execute_bash / shell, str_replace,
    // use_aws"; `use_aws` has no canonical tool and keeps its name.
    tools: &[
        (ids::SHELL, &["execute_bash", "shell"]),
        (ids::WRITE, &["fs_write", "write", "fsWrite"]),
        (ids::EDIT, &["str_replace"]),
        (ids::READ, &["fs_read"]),
    ],
    tool_args: &[
        (ids::WRITE, WRITE_ARGS),
        (ids::EDIT, EDIT_ARGS),
        (ids::READ, READ_ARGS),
    ],
    // "matcher (regex over tool name for PreToolUse/PostToolUse)"; on the file triggers it is
    // a file-path regex, which hookx does not apply (they never fire under another host).
    matcher_targets: &[
        (EventKind::PreToolUse, MatchOn::ToolName),
        (EventKind::PostToolUse, MatchOn::ToolName),
    ],
    // `*` and no matcher: every tool; `fs_write|str_replace`: those names; `@builtin`, `@git`,
    // `@git/status`: groups ([`McpNames::builtin`]); anything else a regex over the tool name,
    // unanchored ([v3]), so `fs_*` fires on `fs_read`, `fs_write` (and any name holding `fs`).
    matcher_style: MatcherStyle::ListOrRegex {
        list_extra: "",
        separators: "",
    },
    exact_field_matchers: false,
    stop_fires_for_subagents: false,
    unfired: &[],
    cadences: &[],
    // "MCP tools `@server/tool` (`@postgres/query`)"; "`@git` All tools from git MCP
    // server; `@git/status` Specific tool from git MCP server; `@builtin` All built-in tools
    // only" [q-cli].
    mcp_names: McpNames {
        prefix: "@",
        separator: "/",
        matchers: None,
        builtin: Some("@builtin"),
        event_separators: &[],
        rewrite: None,
    },
    matcher_tries_names_of: &[],
    // `hook_event_name`, `cwd`, `session_id`, `tool_name`, `tool_input`, `tool_response`,
    // `prompt`.
    key_case: KeyCase::Snake,
    value_renames: &[],
    event_values: &[],
    key_renames: &[],
    timestamp: TimestampForm::None,
    // "`timeout` (seconds, default 60, `0` disables)": `0` is `ConfigSpec::zero_timeout_is_none`.
    default_timeout: [60, 60, 60],
    project_dir_var: None,
    project_root_markers: &[],
    project_root_setting: None,
    project_from: crate::tables::ProjectFrom::Cwd,
    // Not documented.
    parallel: false,
    first_deny_stops_the_rest: false,
    rewrites_chain: false,
    // "`action.type` (`"command"` | `"agent"`)".
    handler_types: &["command", "agent"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: None,
    matcher_values: &[],
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

/// `{"version": "v1", "hooks": [rule]}`.
pub static FILE: DocumentKind = DocumentKind {
    name: "KiroHookFile",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: Some(&["version"]),
    session_env: None,
    frontmatter: false,
};

/// A Kiro CLI 2 agent config (`.kiro/agents/<name>.json`): `name`, `tools`, `prompt`, … beside
/// its `hooks` map ([`OlderForms`]).
pub static AGENT_CONFIG: DocumentKind = DocumentKind {
    name: "KiroAgentConfig",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: None,
    session_env: None,
    frontmatter: false,
};

/// A Kiro IDE `.kiro.hook` file: one rule ([`OlderForms`]).
pub static IDE_HOOK: DocumentKind = DocumentKind {
    name: "KiroIdeHook",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: Some(&["version"]),
    session_env: None,
    frontmatter: false,
};

/// The v1 rule list.
static RULES: RuleList = RuleList {
    version: "v1",
    event_key: "trigger",
    handler_key: "action",
    handler_keys_on_rule: &["timeout"],
    name_key: "name",
    enabled_key: "enabled",
    // File and spec-task triggers (matcher: a file-path regex) and the manual one.
    other_events: &[
        "PostFileSave",
        "PostFileCreate",
        "PostFileDelete",
        "PreTaskExec",
        "PostTaskExec",
        "Manual",
    ],
    // Docs [v3] (kiro-facts): `Manual` is "User-triggered on demand", no matcher, cannot block.
    by_hand: &["Manual"],
    older: Some(&OLDER),
};

/// The older forms, read and converted like a list (never written): Kiro CLI 2's agent configs
/// and the IDE's one-rule files ([agents], [ide] in `conformance/kiro-facts.md`).
static OLDER: OlderForms = OlderForms {
    // `{"hooks": {"agentSpawn": [{"command": "…"}], "preToolUse": [{"matcher": "fs_write",
    // "command": "…", "timeout_ms": 30000}]}}` inside `.kiro/agents/<name>.json`; the event
    // names are the payload's.
    map_events: &[
        ("agentSpawn", "SessionStart"),
        ("userPromptSubmit", "UserPromptSubmit"),
        ("preToolUse", "PreToolUse"),
        ("postToolUse", "PostToolUse"),
        ("stop", "Stop"),
    ],
    map_timeout_ms: "timeout_ms",
    map_kind: &AGENT_CONFIG,
    // `{"name", "version", "description"?, "enabled"?, "when": {"type": "fileEdited",
    // "patterns": ["*.ts"]}, "then": {"type": "askAgent", "prompt": "…"}}` in
    // `.kiro/hooks/<name>.kiro.hook`.
    single_when: "when",
    single_kind: &IDE_HOOK,
    single_then: "then",
    single_type: "type",
    single_tools: "tools",
    single_triggers: &[
        ("promptSubmit", "UserPromptSubmit"),
        ("agentStop", "Stop"),
        ("preToolUse", "PreToolUse"),
        ("postToolUse", "PostToolUse"),
        ("fileEdited", "PostFileSave"),
        ("fileCreated", "PostFileCreate"),
        ("fileDeleted", "PostFileDelete"),
        // The spec-task triggers the IDE writes (victorrentea/petclinic's
        // `post-task-review.kiro.hook`; corpus SOURCES.txt).
        ("preTaskExecution", "PreTaskExec"),
        ("postTaskExecution", "PostTaskExec"),
        ("userTriggered", "Manual"),
    ],
    single_actions: &[
        ("runCommand", "command"),
        ("shellCommand", "command"),
        ("askAgent", "agent"),
    ],
};

pub static DEF: DialectDef = DialectDef {
    name: "kiro",
    display: "Kiro",
    product: "Kiro CLI / IDE (docs)",
    flavors: &[Flavor(&TABLES)],
    config: &CONFIG,
    // `.kiro/` settles it; elsewhere a `"version": "v1"` list of rules does
    // ([`RuleList::fits`]).
    detect: DetectSpec {
        dirs: &[".kiro/"],
        file_names: &[],
        unmarked: false,
        sole_event_flavors: &[],
        sole_top_keys: &[],
        sole_handler_keys: &[],
        top_keys: &[],
        handler_keys: &[],
        preferred: false,
    },
    // "You define them once in .kiro/hooks/ and they apply across all agents in the workspace";
    // `~/.kiro/hooks/*.json` for the user.
    locations: &[
        Location {
            id: "kiro-user",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::Dir {
                dir: ".kiro/hooks",
                suffix: ".json",
            },
        },
        Location {
            id: "kiro-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::Dir {
                dir: ".kiro/hooks",
                suffix: ".json",
            },
        },
        // The older forms ([`OLDER`]), where each lives: Kiro CLI 2's agent configs, the
        // user's and the workspace's ([q-cli]: `~/.kiro/agents/`, `.kiro/agents/`), and the
        // IDE's one-rule files in the workspace's hook folder ([ide]).
        Location {
            id: "kiro-user-agents",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::Dir {
                dir: ".kiro/agents",
                suffix: ".json",
            },
        },
        Location {
            id: "kiro-project-agents",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::Dir {
                dir: ".kiro/agents",
                suffix: ".json",
            },
        },
        Location {
            id: "kiro-project-ide",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::Dir {
                dir: ".kiro/hooks",
                suffix: ".kiro.hook",
            },
        },
    ],
    // Each form is one some Kiro build loads itself (CLI 2 the agent configs, CLI 3 the
    // lists, the IDE its `.kiro.hook` files).
    native: &[
        "kiro-user",
        "kiro-project",
        "kiro-user-agents",
        "kiro-project-agents",
        "kiro-project-ide",
    ],
    kill_switch: None,
    disabled_handlers: None,
    managed: None,
    folder_trust: None,
    malformed_entry_skips_file: &[],
    // Its payload keys are Claude's (`hook_event_name`, `tool_name`, …) and it sets no
    // variable of its own: `run --host kiro` names it.
    host: HostSpec {
        payload_keys: &[],
        payload_events: &[],
        env_markers: &[],
    },
    // One rule per event, no matcher ("No matcher – Applies to all tools"), in hookx's own
    // file of the folder (`install` writes it whole). Kiro runs the user's and the project's
    // files both and says nothing of which one fired: the project route names itself.
    route: RouteSpec {
        matcher: None,
        grouped: false,
        group_keys: &[],
        command_key: "command",
        timeout_key: Some("timeout"),
        // Docs (kiro-facts.md): a rule's `timeout` (seconds, default 60) is its limit.
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
        programs: &["kiro", "kiro-cli"],
        installs: &[".local/bin/kiro-cli"],
        folders: &[".kiro"],
    },
    schema: Schema {
        file_name: "kiro.schema.json",
        text: include_str!("../../schemas/kiro.schema.json"),
    },
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &[],
    // `action.type`, `action.command`, `action.prompt`; the rule's `timeout` is read with them
    // (`RuleList::handler_keys_on_rule`).
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
        ("prompt", HandlerField::Prompt),
        ("timeout", HandlerField::Timeout),
    ],
    flat_handlers: true,
    wrapper_optional: false,
    timeout_unit: crate::tables::TimeoutUnit::Seconds,
    // "`0` disables" ([v3]): no timeout.
    zero_timeout_is_none: true,
    timer_limit_ms: None,
    skips_entry_without_positive_timeout: false,
    skips_entry_without_type: false,
    timeout_numeric_strings: false,
    // The rule's `name`, `description` and `enabled` (a disabled rule never runs).
    // `version`: an IDE hook's own (`"1.0.0"`), kept with its rule.
    kept_keys: &["name", "description", "enabled", "version"],
    // Not documented: the payload's `cwd` is the working directory.
    project_dir_variable: None,
    provided_env: &[],
    merges_identical_handlers: false,
    version: None,
    stamp: None,
    project_env: crate::tables::ProjectEnv::NONE,
    // Kiro reads every file of the folder: hookx's routes are a file of their own.
    install_project: ".kiro/hooks/hookx.json",
    install_user: ".kiro/hooks/hookx.json",
    install_hidden_by: &[],
    hook_dir_var: None,
    foreign_switches: &[],
    reads_foreign_as: &[],
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
    convert_target: ".kiro/hooks/hookx-converted.json",
    type_only_on: &[],
    plugins: None,
    extension_switch: None,
    scripts: None,
    generated: None,
    rule_list: Some(&RULES),
    // Not documented: read as strict JSON.
    agent_keys: &[],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax::STRICT,
};

/// Run-time protocol rows: exit codes and plain stdout only ("No JSON answer is documented").
mod protocol_rows {
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AnswerText, ArgsForm, CANONICAL_CALL_KEYS, Exit2, ExitCodes, ProtocolTables,
    };

    const PRE: &[EventKind] = &[EventKind::PreToolUse];

    pub(super) const PROTOCOL: ProtocolTables = ProtocolTables {
        // "The payload names the event in camelCase even for v1 files": the pre-v3 names.
        event_key: "hook_event_name",
        event_key_only: Some(&[
            (EventKind::SessionStart, "agentSpawn"),
            (EventKind::UserPromptSubmit, "userPromptSubmit"),
            (EventKind::PreToolUse, "preToolUse"),
            (EventKind::PostToolUse, "postToolUse"),
            (EventKind::Stop, "stop"),
        ]),
        event_shapes: &[],
        verbatim_keys: &[],
        call_keys: CANONICAL_CALL_KEYS,
        tool_args: ArgsForm::Object,
        tool_result_keys: None,
        mcp_context_key: None,
        reshape: None,
        guard_reads_name: None,
        env: &[],
        // "Exit 0: stdout is added to the agent's context (AgentSpawn, UserPromptSubmit)".
        command_text_env: &[],
        plain_stdout_context: &[EventKind::SessionStart, EventKind::UserPromptSubmit],
        // "Exit 2: (PreToolUse only) Block tool execution. STDERR is returned to the LLM".
        exit2: &[(EventKind::PreToolUse, Exit2::Deny)],
        exit_codes: ExitCodes::ByCode,
        // The sources disagree on other codes: the pre-v3 CLI calls them a warning, one
        // reading of v3 says "any non-zero exit blocks" PreToolUse. The safe reading: a Kiro
        // handler that fails on PreToolUse denies the call, under any host.
        signal_exit: None,
        abort_exit: None,
        answer_text: AnswerText::STDOUT,
        failure_denies: PRE,
        fail_closed: PRE,
        answer: &[],
        updated_input_merges: false,
        updated_input_needs_allow: false,
        reason_alone_is_context: false,
        answer_event_key: None,
        permission_values: &[Decision::Deny],
        permission_passes: &[],
        permission_defers: &[],
        // Kiro reads no allow (exit 2 or nothing).
        allow_reach: crate::tables::AllowReach::Nothing,
        failed_call: crate::tables::FailedCall::Unmarked,
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
}
