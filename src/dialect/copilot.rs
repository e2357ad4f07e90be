//! GitHub Copilot CLI: `.github/hooks/*.json`, `{"version": 1, "hooks": …}`, in two flavours
//! chosen per event by the casing of its name.

use crate::tables::ResultForm;
use crate::tables::{
    BrokenPolicy, DetectSpec, Dialect, DialectDef, Flavor, FolderTrust, HostSpec, KeyCase,
    KillSwitch, ManagedSpec, MatchOn, RouteSpec, Schema, Tables, TimestampForm, TrustRecord,
};

use crate::dialect::CLAUDE_TOOLS;
use crate::model::tool::ids;
use crate::model::{EventKind, MatcherStyle};
use crate::tables::{ConfigSpec, DocumentKind, Documents, HandlerField, RunKeys};
use crate::tables::{Location, McpNames, Pattern, Root, Scope};

pub static DIALECT: Dialect = Dialect(&DEF);
/// The camelCase flavour.
pub static FLAVOR: Flavor = Flavor(&TABLES);
/// The PascalCase (VS Code-compatible) flavour.
pub static PASCAL: Flavor = Flavor(&PASCAL_TABLES);

const FILE_ARGS: &[(&str, &str)] = &[
    ("file_path", "path"),
    ("old_string", "old_str"),
    ("new_string", "new_str"),
    ("content", "file_text"),
];

/// Run 1.0.102 (attacks rows 1280-1284): an MCP tool is `SERVER-TOOL` in the payloads of
/// `preToolUse`/`PreToolUse` and the tool events after it, in both casings, and only that name
/// fires a matcher (`srv-.*`; neither `mcp__srv__run` nor `mcp__.*`). The model is offered the
/// same name, `.` in a server name written `-`. The name does not say where a server name with
/// `-` ends: hookx reads it every way (`x-y-run` is server `x`'s `y-run` and server `x-y`'s
/// `run`, [`McpNames::splits`]), and a rule fires on any reading (attacks row 1591).
/// `permissionRequest` (both casings) says `SERVER/TOOL`, the server as configured (`p.q/run`),
/// and only that form fires its matchers (run 1.0.102, attacks row 1860). A server's or tool's
/// name is written with each character but an ASCII letter, digit, `_` or `-` as `-` (`p.q` →
/// `p-q`, `sp ace` → `sp-ace`), a name holding a character past ASCII first in punycode
/// (`café` → `xn--caf-dma`, `tö` → `xn--t-1ga`); `permissionRequest` so writes the tool only
/// (`p.q/run`, `srv/dot-tool`; run 1.0.102, attacks row 1862). A name past 64 characters is
/// cut, the long server's `run` written `…_64_cha2`, and `permissionRequest` then names no tool
/// (`LONG/`): read as an MCP tool, of no known server or of that server, whose tool is not
/// known (attacks row 2271).
const MCP_NAMES: McpNames = McpNames {
    prefix: "",
    separator: "-",
    matchers: None,
    builtin: None,
    event_separators: &[(EventKind::PermissionRequest, "/")],
    rewrite: Some(crate::tables::NameRewrite {
        kept: "_-",
        to: '-',
        per_unit: false,
        punycode: true,
        servers_kept_on: &[EventKind::PermissionRequest],
        // Run 1.0.102: the long server's `run` is `a_very_long_…_64_cha2` (its first 63
        // characters and `2`), on `permissionRequest` `a_very_long_…_64_chars/` (attacks
        // rows 1946, 2271; `tests/fixtures/mcp-names/`).
        cut: Some(64),
        whole: None,
    }),
};

/// camelCase events: camelCase payload, Copilot tool names, anchored regex matchers.
/// Copilot's spelling of Claude's `source: "startup"` ([`Tables::value_renames`]).
///
/// [`Tables::value_renames`]: crate::tables::Tables::value_renames
const SESSION_VALUES: &[crate::tables::ValueRename] =
    &[(EventKind::SessionStart, "source", "startup", "new")];

pub static TABLES: Tables = Tables {
    name: "copilot",
    dialect: Dialect(&DEF),
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
        // Copilot only; no PascalCase twin (1.0.102 skips `UserPromptTransformed` as unknown).
        (EventKind::UserPromptTransformed, "userPromptTransformed"),
        (EventKind::PreMcpToolCall, "preMcpToolCall"),
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
    // Run 1.0.102 (attacks row 1728): not trimmed, `" "` fires on nothing.
    matcher_style: MatcherStyle::AnchoredRegex {
        star_is_all: false,
        trims: false,
    },
    exact_field_matchers: false,
    // A subagent's end fires `agentStop` (with its `agentId`) before `subagentStop` (recorded
    // 1.0.102, `tools.45`, `tools.47`): a Copilot Stop rule is written for both.
    stop_fires_for_subagents: true,
    // Run 1.0.102 (attacks row 1883, `live_copilot::converted_corpus_configs`): in `-p` with
    // `--allow-all-tools`, `permissionRequest` fired before the bash call, the create and the
    // edit (not the view), where nothing asked the user; both casings fire it from one place
    // (rows 1860-1862). A Claude or Codex `PermissionRequest` guard then runs on every such
    // call, which only adds denies: hookx skips none, as it cannot tell which would have asked.
    unfired: &[],
    cadences: &[(
        EventKind::PermissionRequest,
        crate::tables::Cadence::EveryWritingCall,
    )],
    matcher_tries_names_of: &[],
    mcp_names: MCP_NAMES,
    key_case: KeyCase::Camel,
    // Run 1.0.102 (recorded, both flavours): a session `-p` starts is `source: "new"` where
    // Claude says `startup` (attacks row 1323).
    value_renames: SESSION_VALUES,
    event_values: &[],
    key_renames: &[
        ("tool_input", "toolArgs"),
        ("tool_response", "toolResult"),
        ("agent_type", "agentName"),
    ],
    timestamp: TimestampForm::EpochMillis,
    default_timeout: [30, 30, 30],
    project_dir_var: Some("COPILOT_PROJECT_DIR"),
    project_root_markers: &[],
    project_root_setting: None,
    project_from: crate::tables::ProjectFrom::Cwd,
    parallel: false,
    // Run 1.0.102: a deny ends the preToolUse chain; later handlers never start.
    first_deny_stops_the_rest: true,
    // Run 1.0.102 (attacks rows 2043, 2200): a later preToolUse hook is given the call as
    // the one before it rewrote it (its payload held the rewritten command, an argument the
    // rewrite left out gone).
    rewrites_chain: true,
    handler_types: &["command", "prompt"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: Some("copilot-cli 1.0.102"),
    matcher_values: super::COPILOT_MATCHER_VALUES,
    handler_key_overrides: &[],
    invalid_matcher_effect: Some("Copilot skips this hook"),
    tool_scope: crate::tables::ToolScope::Any,
    // Every top-level key copilot-cli 1.0.102 sent per event (tests/fixtures/recorded/copilot-1.0.102).
    payload_object_keys: &[],
    payload_keys: &[
        (
            EventKind::ErrorOccurred,
            &[
                "cwd",
                "error",
                "errorContext",
                "recoverable",
                "sessionId",
                "timestamp",
            ],
        ),
        (
            EventKind::Notification,
            &[
                "cwd",
                "hook_event_name",
                "message",
                "notification_type",
                "sessionId",
                "timestamp",
                "title",
            ],
        ),
        (
            EventKind::PermissionRequest,
            &[
                "agentId",
                "agentType",
                "cwd",
                "hookName",
                "parentAgentId",
                "permissionSuggestions",
                "sessionId",
                "timestamp",
                "toolInput",
                "toolName",
            ],
        ),
        (
            EventKind::PostToolUse,
            &[
                "agentId",
                "agentType",
                "cwd",
                "parentAgentId",
                "sessionId",
                "timestamp",
                "toolArgs",
                "toolName",
                "toolResult",
            ],
        ),
        (
            EventKind::PostToolUseFailure,
            &[
                "cwd",
                "error",
                "sessionId",
                "timestamp",
                "toolArgs",
                "toolName",
            ],
        ),
        (
            EventKind::PreCompact,
            &[
                "customInstructions",
                "cwd",
                "sessionId",
                "timestamp",
                "transcriptPath",
                "trigger",
            ],
        ),
        (
            EventKind::PreMcpToolCall,
            &[
                "arguments",
                "cwd",
                "serverName",
                "sessionId",
                "timestamp",
                "toolCallId",
                "toolName",
            ],
        ),
        (
            EventKind::PreToolUse,
            &[
                "agentId",
                "agentType",
                "cwd",
                "parentAgentId",
                "sessionId",
                "timestamp",
                "toolArgs",
                "toolName",
            ],
        ),
        (
            EventKind::SessionEnd,
            &["cwd", "reason", "sessionId", "timestamp"],
        ),
        (
            EventKind::SessionStart,
            &["cwd", "initialPrompt", "sessionId", "source", "timestamp"],
        ),
        (
            EventKind::Stop,
            &[
                "agentId",
                "agentType",
                "cwd",
                "parentAgentId",
                "sessionId",
                "stopReason",
                "stop_hook_active",
                "timestamp",
                "transcriptPath",
            ],
        ),
        (
            EventKind::SubagentStart,
            &[
                "agentId",
                "agentName",
                "agentType",
                "cwd",
                "parentAgentId",
                "sessionId",
                "timestamp",
                "transcriptPath",
            ],
        ),
        (
            EventKind::SubagentStop,
            &[
                "agentId",
                "agentName",
                "agentType",
                "cwd",
                "parentAgentId",
                "response",
                "sessionId",
                "stopReason",
                "stop_hook_active",
                "timestamp",
                "transcriptPath",
            ],
        ),
        (
            EventKind::UserPromptSubmit,
            &[
                "agentId",
                "agentType",
                "cwd",
                "parentAgentId",
                "prompt",
                "sessionId",
                "timestamp",
            ],
        ),
        (
            EventKind::UserPromptTransformed,
            &[
                "agentId",
                "agentType",
                "cwd",
                "parentAgentId",
                "prompt",
                "sessionId",
                "timestamp",
                "transformedPrompt",
            ],
        ),
    ],
    other_tools: &[],
    renamed_tools: &[],
    tool_codecs: &[],
};

/// PascalCase events (VS Code-compatible): snake_case payload with an ISO timestamp, Claude
/// tool names, and anchored matchers tried against both tool names (dialects.md §4, §8). Tool arguments keep Copilot's names
/// (`Write {path, file_text}`, `Edit {path, old_str, new_str}`; run 1.0.102,
/// tests/live_copilot.rs).
pub static PASCAL_TABLES: Tables = Tables {
    name: "copilot-pascal",
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
        (EventKind::ErrorOccurred, "ErrorOccurred"),
    ],
    tools: CLAUDE_TOOLS,
    tool_args: TABLES.tool_args,
    matcher_targets: TABLES.matcher_targets,
    // Run 1.0.102 (dialects.md §4): anchored regexes, no comma lists, `*` = all, an empty
    // matcher drops the entry; tried against the Claude and the Copilot tool name. Trimmed,
    // white space alone all (the matcher probe, attacks row 1728).
    matcher_style: MatcherStyle::AnchoredRegex {
        star_is_all: true,
        trims: true,
    },
    exact_field_matchers: false,
    // `Stop` too (recorded `tools.46`, with `agent_id`).
    stop_fires_for_subagents: true,
    // Run 1.0.102 (attacks row 1883, `live_copilot::converted_corpus_configs`): in `-p` with
    // `--allow-all-tools`, `permissionRequest` fired before the bash call, the create and the
    // edit (not the view), where nothing asked the user; both casings fire it from one place
    // (rows 1860-1862). A Claude or Codex `PermissionRequest` guard then runs on every such
    // call, which only adds denies: hookx skips none, as it cannot tell which would have asked.
    unfired: &[],
    cadences: &[(
        EventKind::PermissionRequest,
        crate::tables::Cadence::EveryWritingCall,
    )],
    matcher_tries_names_of: &[Flavor(&TABLES)],
    mcp_names: MCP_NAMES,
    key_case: KeyCase::Snake,
    value_renames: SESSION_VALUES,
    event_values: &[],
    key_renames: &[
        ("tool_response", "tool_result"),
        ("agent_type", "agent_name"),
    ],
    timestamp: TimestampForm::Iso8601,
    default_timeout: [30, 30, 30],
    project_dir_var: Some("COPILOT_PROJECT_DIR"),
    project_root_markers: &[],
    project_root_setting: None,
    project_from: crate::tables::ProjectFrom::Cwd,
    parallel: false,
    // Run 1.0.102: a deny ends the preToolUse chain; later handlers never start.
    first_deny_stops_the_rest: true,
    // Run 1.0.102 (attacks rows 2043, 2200): a later preToolUse hook is given the call as
    // the one before it rewrote it (its payload held the rewritten command, an argument the
    // rewrite left out gone).
    rewrites_chain: true,
    handler_types: &["command", "prompt"],
    protocol: protocol_rows::PASCAL_PROTOCOL,
    verified_with: Some("copilot-cli 1.0.102"),
    matcher_values: super::COPILOT_MATCHER_VALUES,
    // The VS Code-compatible entries spell the timeout `timeout`.
    handler_key_overrides: &[(HandlerField::Timeout, "timeout")],
    invalid_matcher_effect: None,
    tool_scope: crate::tables::ToolScope::Any,
    // Every top-level key copilot-cli 1.0.102 sent per PascalCase event (its recordings).
    payload_object_keys: &[],
    payload_keys: &[
        (
            EventKind::ErrorOccurred,
            &[
                "cwd",
                "error",
                "error_context",
                "hook_event_name",
                "recoverable",
                "session_id",
                "timestamp",
            ],
        ),
        (
            EventKind::Notification,
            &[
                "cwd",
                "hook_event_name",
                "message",
                "notification_type",
                "sessionId",
                "timestamp",
                "title",
            ],
        ),
        (
            EventKind::PermissionRequest,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "hookName",
                "parent_agent_id",
                "permissionSuggestions",
                "sessionId",
                "timestamp",
                "toolInput",
                "toolName",
            ],
        ),
        (
            EventKind::PostToolUse,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "hook_event_name",
                "parent_agent_id",
                "session_id",
                "timestamp",
                "tool_input",
                "tool_name",
                "tool_result",
            ],
        ),
        (
            EventKind::PostToolUseFailure,
            &[
                "cwd",
                "error",
                "hook_event_name",
                "session_id",
                "timestamp",
                "tool_input",
                "tool_name",
            ],
        ),
        (
            EventKind::PreCompact,
            &[
                "custom_instructions",
                "cwd",
                "hook_event_name",
                "session_id",
                "timestamp",
                "transcript_path",
                "trigger",
            ],
        ),
        (
            EventKind::PreToolUse,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "hook_event_name",
                "parent_agent_id",
                "session_id",
                "timestamp",
                "tool_input",
                "tool_name",
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
            ],
        ),
        (
            EventKind::SessionStart,
            &[
                "cwd",
                "hook_event_name",
                "initial_prompt",
                "session_id",
                "source",
                "timestamp",
            ],
        ),
        (
            EventKind::Stop,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "hook_event_name",
                "parent_agent_id",
                "session_id",
                "stop_hook_active",
                "stop_reason",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::SubagentStart,
            &[
                "agentName",
                "agent_id",
                "agent_type",
                "cwd",
                "parent_agent_id",
                "sessionId",
                "timestamp",
                "transcriptPath",
            ],
        ),
        (
            EventKind::SubagentStop,
            &[
                "agent_id",
                "agent_name",
                "agent_type",
                "cwd",
                "hook_event_name",
                "last_assistant_message",
                "parent_agent_id",
                "session_id",
                "stop_hook_active",
                "stop_reason",
                "timestamp",
                "transcript_path",
            ],
        ),
        (
            EventKind::UserPromptSubmit,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "hook_event_name",
                "parent_agent_id",
                "prompt",
                "session_id",
                "timestamp",
            ],
        ),
    ],
    other_tools: &[],
    renamed_tools: &[],
    tool_codecs: &[],
};

/// `{"version": 1, "hooks": …}`; the user's settings file also holds `disabledHooks` and
/// hookx's record of the keys it put there ([`DISABLED_HOOKS`]).
pub static FILE: DocumentKind = DocumentKind {
    name: "CopilotFile",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: Some(&["version", "disabledHooks", "hookx"]),
    session_env: None,
    frontmatter: false,
};

pub static DEF: DialectDef = DialectDef {
    name: "copilot",
    display: "Copilot",
    product: "GitHub Copilot CLI",
    flavors: &[Flavor(&TABLES), Flavor(&PASCAL_TABLES)],
    config: &CONFIG,
    // The PascalCase form looks exactly like Claude's: only Copilot-only marks (a `version`,
    // camelCase events, `bash`, flat handlers) make a file Copilot's.
    detect: DetectSpec {
        dirs: &[".github/hooks/", ".copilot/hooks/"],
        file_names: &[],
        unmarked: false,
        sole_event_flavors: &[Flavor(&TABLES)],
        sole_top_keys: &["version"],
        sole_handler_keys: &[
            "bash",
            "powershell",
            "timeoutSec",
            "cwd",
            "env",
            "windows",
            "linux",
            "osx",
        ],
        top_keys: &[],
        handler_keys: &[],
        preferred: false,
    },
    locations: &[
        // Policy hooks: machine-wide, loaded before all others, whatever the folder trust
        // (docs: hooks reference; the 1.0.102 debug log and binary name the Linux folder).
        Location {
            id: "copilot-policy",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::Dir {
                dir: "policy.d",
                suffix: ".json",
            },
        },
        Location {
            id: "copilot-user",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::Dir {
                dir: ".copilot/hooks",
                suffix: ".json",
            },
        },
        // Run 1.0.102: inline `hooks` in the user's settings are always read.
        Location {
            id: "copilot-user-settings",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".copilot/settings.json"),
        },
        Location {
            id: "copilot-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::Dir {
                dir: ".github/hooks",
                suffix: ".json",
            },
        },
        // Run 1.0.102: read in a trusted folder, after `.claude/settings*.json`.
        Location {
            id: "copilot-settings",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".github/copilot/settings.json"),
        },
        Location {
            id: "copilot-settings-local",
            dialect: Dialect(&DEF),
            scope: Scope::Local,
            root: Root::Project,
            pattern: Pattern::File(".github/copilot/settings.local.json"),
        },
    ],
    // Copilot also reads the project's Claude settings (dialects.md §1, field); hookx takes
    // that to mean the two project files, not the user's `~/.claude/settings.json`, plugins,
    // skills or agents.
    native: &[
        "copilot-policy",
        "copilot-user",
        "copilot-user-settings",
        "copilot-project",
        "claude-project",
        "claude-local",
        "copilot-settings",
        "copilot-settings-local",
    ],
    // Run 1.0.102 (tests/live_copilot.rs `a_repo_kill_switch_turns_off_the_users_hooks_too`):
    // `"disableAllHooks": true` in any of these files of a trusted folder runs no hook at all,
    // the user's `~/.copilot/hooks` (hookx's route) included; in `~/.copilot/settings.json`
    // it does nothing, and in an untrusted folder the files are not read.
    kill_switch: Some(KillSwitch {
        key: "disableAllHooks",
        inner: None,
        among_events: false,
        off: true,
        host_wide: true,
        locations: &[
            "claude-project",
            "claude-local",
            "copilot-settings",
            "copilot-settings-local",
        ],
    }),
    disabled_handlers: None,
    // The macOS and Windows policy folders were not found in the material read. Copilot
    // 1.0.102's settings schema has an `allowManagedHooksOnly` too, set by enterprise-managed
    // settings rather than by a policy file: not modelled.
    managed: Some(ManagedSpec {
        dirs: &[("linux", "/etc/github-copilot")],
        only_managed_key: None,
        hooks_off: None,
        // Run 1.0.102 (tests/live_copilot_policy.rs): the broken file is skipped, the rest runs.
        broken_policy: BrokenPolicy::Skipped,
        kill_switch_reaches_policy: false,
        any_kill_switch_reaches_policy: false,
        root_owned_only: false,
        moved_by: &[],
        source: "docs: docs.github.com/en/copilot/reference/hooks-reference (policy hooks load \
                 first, ignore folder trust and disableAllHooks); run 1.0.102 debug log and \
                 binary (/etc/github-copilot/policy.d)",
    }),
    folder_trust: Some(FolderTrust {
        locations: &[
            "copilot-project",
            "claude-project",
            "claude-local",
            "copilot-settings",
            "copilot-settings-local",
        ],
        // Copilot 1.0.102 rewrites the file on every run with two comment lines first and the
        // list as `trustedFolders`, and reads either (run, sealed: attacks row 324).
        record: TrustRecord::List {
            file: ".copilot/config.json",
            keys: &["trustedFolders", "trusted_folders"],
            json: crate::tables::JsonSyntax::JSONC,
        },
        record_var: None,
        trust_vars: &[
            ("COPILOT_ALLOW_ALL", "true"),
            ("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true"),
        ],
        set_after_load: &[],
        distrust_vars: &[],
        off_setting: None,
        fix: "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true copilot -p …  (or trust the folder \
              once in an interactive `copilot` session)",
        untrusted: "in `-p` mode none of its hooks run",
        main_checkout_in_worktree: false,
        source: "run 1.0.102 (an untrusted folder in -p mode runs no repo hook; the variable \
                 loads them); docs (trusted_folders in ~/.copilot/config.json)",
    }),
    // run 1.0.102: a malformed entry (no command) drops only that entry.
    malformed_entry_skips_file: &[],
    host: HostSpec {
        payload_keys: &[],
        payload_events: &[],
        env_markers: &["COPILOT_CLI"],
    },
    route: RouteSpec {
        matcher: None,
        grouped: false,
        group_keys: &[],
        command_key: "bash",
        timeout_key: Some("timeoutSec"),
        // Run 1.0.102: a hook's `timeoutSec` (seconds, default 30) is its limit; past it the
        // hook is killed and the call goes on (fail-open).
        limit: crate::tables::RouteLimit {
            secs: crate::tables::ROUTE_TIMEOUT,
            on: &[],
        },
        names_project_route: false,
        names_folder: false,
    },
    route_trust: None,
    home_var: Some(crate::tables::HomeVar {
        var: "COPILOT_HOME",
        dir: ".copilot",
        source: "copilot-facts.md: `~/.copilot` is `$COPILOT_HOME` when it is set (Copilot CLI 1.0.102, `resolveCopilotHome`: user hooks and settings)",
    }),
    scope_option: None,
    presence: crate::tables::Presence {
        programs: &["copilot"],
        installs: &[".local/bin/copilot"],
        folders: &[".copilot", ".github/hooks"],
    },
    schema: Schema {
        file_name: "copilot.schema.json",
        text: include_str!("../../schemas/copilot.schema.json"),
    },
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &[],
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
    // Run 1.0.102: hooks get COPILOT_PROJECT_DIR and CLAUDE_PROJECT_DIR (the repository root,
    // also when the handler's `cwd` moves it elsewhere) and COPILOT_HOOK_DIR.
    project_dir_variable: Some("COPILOT_PROJECT_DIR"),
    provided_env: &[
        "CLAUDE_PLUGIN_ROOT",
        "COPILOT_CLI",
        "CLAUDE_PROJECT_DIR",
        "COPILOT_HOOK_DIR",
    ],
    merges_identical_handlers: false,
    version: Some(1),
    stamp: None,
    project_env: crate::tables::ProjectEnv::NONE,
    install_project: ".github/hooks/hookx.json",
    run_keys: RunKeys::NONE,
    plugins: None,
    extension_switch: None,
    timeout_unit: crate::tables::TimeoutUnit::Seconds,
    zero_timeout_is_none: false,
    // Run 1.0.102 (`live_copilot::a_guards_timeout_past_the_timers_reach`, attacks row 1683):
    // a guard at `timeoutSec` 1e10 still denies.
    timer_limit_ms: None,
    // Run 1.0.102 (`live_copilot` `own_file_timeouts`): an entry of its own files whose
    // `timeoutSec` (PascalCase `timeout`) is 0, -1, "5", null or true is not loaded; the
    // rest of the file runs. 0.5, 1.5 and 1e12 load and run.
    skips_entry_without_positive_timeout: true,
    skips_entry_without_type: false,
    timeout_numeric_strings: false,
    kept_keys: &[],
    install_user: ".copilot/hooks/hookx.json",
    install_hidden_by: &[],
    hook_dir_var: Some("COPILOT_HOOK_DIR"),
    // Run 1.0.102: `.claude/settings*.json` handlers get the PascalCase payload.
    reads_foreign_as: &[(Dialect(&super::claude::DEF), Flavor(&PASCAL_TABLES))],
    // Nothing turns the reading of `.claude/settings*.json` off as a whole short of
    // `disableAllHooks` (every hook, Copilot's own included); no setting, variable or flag
    // names Claude's files. Single handlers are turned off by the user setting
    // `disabledHooks` ("Hooks discovered but not executed (content-hash keys)", settings
    // schema in prebuilds/linux-x64/runtime.node; not one a repository may set:
    // `user.settings.listGovernanceKeys`), keyed by a hash the client computes from the
    // handler as it reads it: [`DISABLED_HOOKS`] (conformance/copilot-facts.md).
    foreign_switches: &[crate::tables::ForeignSwitch {
        dialect: Dialect(&super::claude::DEF),
        off: None,
        source: "client 1.0.102: settings schema in runtime.node (disableAllHooks, \
                 disabledHooks by content hash), schemas/api.schema.json; keys probed \
                 with hooks.discover (conformance/copilot-facts.md)",
        hooks: Some(&DISABLED_HOOKS),
        drops: Some(&DROPS_CLAUDE_FILE),
    }],
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
    convert_target: ".github/hooks/hooks.json",
    type_only_on: &[("prompt", &[EventKind::SessionStart])],
    scripts: None,
    generated: None,
    rule_list: None,
    // Run 1.0.102 (`tests/live_copilot.rs`): a hook file with a comment or a trailing comma is
    // dropped; the session goes on. Its own settings are read with both and a byte order mark
    // (`userSettingsLoad` of its runtime, asked directly): a `disabledHooks` there holds. A
    // repository's `.github/copilot/settings.json` is strict ("could not be loaded").
    // `copilot config model X` and `copilot config theme X` write `model` and `theme` into
    // `~/.copilot/settings.json`, the file that may hold the user's hooks (run 1.0.102, attacks
    // row 1249: the whole file written again under `flock` of `settings.json.lock`, then
    // renamed); hookx reads neither.
    agent_keys: &["model", "theme"],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax {
        jsonc_files: &["/.copilot/settings.json"],
        ..crate::tables::JsonSyntax::STRICT
    },
};

/// The entries for which Copilot CLI 1.0.102 drops a whole `.claude/settings.json` or
/// `.claude/settings.local.json` (the other file still runs): probed with `copilot -p`, each
/// form beside a Bash guard (`tests/live_copilot.rs` `ground_truth_dropped_files`, recorded in
/// `tests/fixtures/recorded/copilot-1.0.102/drops/dropped-files.json`; conformance/copilot-facts.md).
/// An entry without its handlers, a handler whose type is not a string or that lacks the
/// string its type runs (`command`, `prompt`, `url`) drops the file too (attacks rows 150-151).
/// An empty matcher counts only on the events whose matcher Copilot keeps (the `true` rows of
/// [`DISABLED_HOOKS`]); `prompt` runs on SessionStart only, `agent` nowhere, `http` anywhere
/// but to an `http://` address on the two events that can deny, and nowhere without a `url`
/// string. An event whose value is not a list is skipped, the file kept. Copilot's own `.github/hooks/*.json` skips such an entry
/// alone and runs the rest.
static DROPS_CLAUDE_FILE: crate::tables::FileDrop = crate::tables::FileDrop {
    events_key: "hooks",
    matcher_key: "matcher",
    handlers_key: "hooks",
    type_key: "type",
    default_type: "command",
    timeout_key: "timeout",
    events: CLAUDE_EVENTS,
    timeout_must_be_positive: true,
    types: &[
        ("command", crate::tables::TypeOn::Every),
        (
            "prompt",
            crate::tables::TypeOn::Only(&[EventKind::SessionStart]),
        ),
        ("http", crate::tables::TypeOn::Every),
    ],
    // Probed (attacks rows 150-151): each missing, `null`, a number or a list drops the file;
    // an empty string does not. `http`'s `url`: `url.required` below.
    needs: &[("command", "command"), ("prompt", "prompt")],
    // `http://…` drops the file there (loopback or not); `https://…` does not (the hook then
    // fails closed where it cannot connect). No `url`, or one that is not a string, drops it
    // on every event (PreToolUse, PostToolUse, Stop probed).
    url: Some(crate::tables::UrlRule {
        type_name: "http",
        key: "url",
        prefix: "https://",
        on: &[EventKind::PreToolUse, EventKind::PermissionRequest],
        required: true,
    }),
    fixes: crate::tables::DropFixes {
        shape: "write each entry as `{\"matcher\": …, \"hooks\": [{\"type\": \"command\", …}]}`: \
                an entry, its `\"hooks\"` and each handler in it of another JSON type make \
                Copilot drop the file",
        empty_matcher: "remove `\"matcher\": \"\"` (no matcher matches every tool, in Claude and \
                        Copilot alike)",
        timeout: "write a number of seconds above 0, or leave `\"timeout\"` out",
        handler_type: "Copilot takes no such handler there: move it to a file Copilot does not \
                       read (`~/.claude/settings.json`), or remove it",
        needs: "give the handler its `command` (`prompt` for a prompt) as a string, or remove \
                it",
        url: "use an `https://` address, or move the handler to a file Copilot does not read \
              (`~/.claude/settings.json`)",
    },
    source: "run 1.0.102: tests/live_copilot.rs ground_truth_dropped_files \
             (recorded/copilot-1.0.102/drops/dropped-files.json)",
};

/// The events Copilot CLI 1.0.102 reads from `.claude/settings*.json`: (kind, Claude's name,
/// Copilot's own name, whether it keeps the group matcher). An entry refused under either name
/// drops the file (case and all: `pretooluse` is skipped; a valid Claude entry under the own
/// name does not run); any other event, `Setup` or `PostCompact` say, is skipped unread
/// (probed: `ground_truth_dropped_files`).
const CLAUDE_EVENTS: &[(EventKind, &str, &str, bool)] = &[
    (EventKind::PreToolUse, "PreToolUse", "preToolUse", true),
    (EventKind::PostToolUse, "PostToolUse", "postToolUse", true),
    (
        EventKind::PostToolUseFailure,
        "PostToolUseFailure",
        "postToolUseFailure",
        false,
    ),
    (
        EventKind::PermissionRequest,
        "PermissionRequest",
        "permissionRequest",
        true,
    ),
    (
        EventKind::UserPromptSubmit,
        "UserPromptSubmit",
        "userPromptSubmitted",
        false,
    ),
    (EventKind::Stop, "Stop", "agentStop", false),
    (
        EventKind::SubagentStart,
        "SubagentStart",
        "subagentStart",
        true,
    ),
    (
        EventKind::SubagentStop,
        "SubagentStop",
        "subagentStop",
        false,
    ),
    (
        EventKind::SessionStart,
        "SessionStart",
        "sessionStart",
        false,
    ),
    (EventKind::SessionEnd, "SessionEnd", "sessionEnd", false),
    (EventKind::PreCompact, "PreCompact", "preCompact", true),
    (
        EventKind::Notification,
        "Notification",
        "notification",
        true,
    ),
];

/// Copilot CLI 1.0.102's `disabledHooks` (`~/.copilot/settings.json`), as it keys a handler
/// of `.claude/settings*.json`: probed by asking the client for each handler's `disableKey`
/// (`copilot --headless --stdio`, `hooks.discover`) over files that varied one field at a
/// time, then `copilot -p` with the key listed (`tests/live_copilot.rs`
/// `a_claude_rule_copilot_reads_runs_once_with_its_own_payload`). A Claude `command` is read
/// as both `bash` and `powershell`, `timeout` as `timeoutSec` (the number as written: `30`,
/// `30.0` and `1e1` key differently, so hookx keys only the whole seconds it reads without a
/// finding), `statusMessage`, `async`, `once` and `shell` are left out, and the matcher of
/// the events below marked `false` is dropped. The key does not depend on the file or the
/// project: a byte-identical handler anywhere else is turned off too.
static DISABLED_HOOKS: crate::tables::HookSwitch = crate::tables::HookSwitch {
    location: "copilot-user-settings",
    file: ".copilot/settings.json",
    key: "disabledHooks",
    owned_key: "hookx",
    events: CLAUDE_EVENTS,
    type_key: "type",
    command_type: "command",
    command_keys: &["bash", "powershell"],
    // `hooks.discover` of 1.0.102 over `~/.copilot/hooks` entries (attacks row 302): the key
    // of a camelCase entry is `type, bash, powershell, cwd, env, timeoutSec, matcher`, in that
    // order, whatever order they are written in; `comment`, `statusMessage`, `async`, `once`,
    // `shell`, `name`, `description`, an unknown key and hookx's record are left out.
    kept_keys: &["cwd", "env"],
    timeout_key: "timeoutSec",
    written_timeout_key: "timeout",
    written_command_key: "command",
    matcher_key: "matcher",
    event_key: "_vsCodeCompat",
    // Run 1.0.102 (strace of `copilot config model X`): `flock(LOCK_EX)` of
    // `settings.json.lock`, then the file read and a new one renamed over it (attacks row 1250).
    host_lock: Some(".lock"),
};

/// Run-time protocol rows (the seed's payload and decision-control sections), read by
/// `crate::protocol`. Exit codes and fail-closed `preToolUse` are the CLI's behaviour whatever
/// the payload form, so both flavours share them.
mod protocol_rows {
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AnswerField as F, AnswerText, ArgsForm, CANONICAL_CALL_KEYS, EnvValue, Exit2, ExitCodes,
        ProtocolTables, Slot, Writes,
    };

    const HSO: &str = "hookSpecificOutput";
    const PRE: &[EventKind] = &[EventKind::PreToolUse];
    const PERM: &[EventKind] = &[EventKind::PermissionRequest];
    /// `modifiedPrompt` replaces the prompt, in both casings (run 1.0.102).
    const PROMPT: &[EventKind] = &[EventKind::UserPromptSubmit];
    /// `modifiedResult {resultType, textResultForLlm}` replaces the tool result (run 1.0.102,
    /// camelCase postToolUse).
    const POST: &[EventKind] = &[EventKind::PostToolUse];
    /// The events whose top-level `additionalContext` reaches the model (run 1.0.102,
    /// tests/live_copilot.rs; notification: seed). postToolUseFailure also takes stderr at
    /// exit 2.
    const CONTEXT: &[EventKind] = &[
        EventKind::SessionStart,
        EventKind::UserPromptSubmit,
        // Run 1.0.102 (tests/live_copilot.rs `ground_truth_answer_forms`, forms `cctx`,
        // `ptopctx`): top-level `additionalContext` on preToolUse reaches the model as a user
        // message "Additional context from preToolUse hook", both casings. Was left out.
        EventKind::PreToolUse,
        EventKind::PostToolUse,
        EventKind::PostToolUseFailure,
        EventKind::SubagentStart,
        EventKind::Notification,
    ];
    /// `{decision: "block", reason}`: agentStop and subagentStop continue with the reason;
    /// userPromptSubmitted refuses the prompt (run 1.0.102).
    const BLOCKS: &[EventKind] = &[
        EventKind::Stop,
        EventKind::SubagentStop,
        EventKind::UserPromptSubmit,
        // Run 1.0.102 (`ground_truth_answer_forms`, forms `cpostblock`, `ppostblock`): on
        // postToolUse the tool has run and its result is replaced by "Tool result blocked:
        // REASON", both casings. Was left out (hookx wrote the reason as context).
        EventKind::PostToolUse,
    ];
    /// Where a PascalCase `continue: false` is not written: the session goes on (run 1.0.102,
    /// tests/live_copilot.rs `ground_truth_answer_forms`, forms `hxpprestop`, `hxppoststop`:
    /// the next call ran). The other events were not probed.
    const NO_STOP: &[EventKind] = &[EventKind::PreToolUse, EventKind::PostToolUse];
    /// What the CLI sets for its hooks (run 1.0.102).
    const ENV: &[(&str, EnvValue)] = &[
        ("COPILOT_CLI", EnvValue::Literal("1")),
        ("COPILOT_PROJECT_DIR", EnvValue::ProjectDir),
        ("CLAUDE_PROJECT_DIR", EnvValue::ProjectDir),
        ("COPILOT_HOOK_DIR", EnvValue::HookDir),
    ];
    const EXIT2: &[(EventKind, Exit2)] = &[
        // Denied "hook exited with code 2"; stderr is not used (run 1.0.102).
        (EventKind::PreToolUse, Exit2::DenyWithoutReason),
        (EventKind::PermissionRequest, Exit2::DenyWithStdout),
        (EventKind::PostToolUseFailure, Exit2::Context),
    ];
    /// Field: a crashing or failing preToolUse hook denies the call (fail-closed).
    const FAILURE_DENIES: &[EventKind] = &[EventKind::PreToolUse];
    /// hookx's failure policy: the tool-call guards fail closed.
    const FAIL_CLOSED: &[EventKind] = &[EventKind::PreToolUse, EventKind::PermissionRequest];
    const ALL_DECISIONS: &[Decision] = &[Decision::Allow, Decision::Ask, Decision::Deny];

    pub(super) const PROTOCOL: ProtocolTables = ProtocolTables {
        event_key: "hook_event_name",
        event_key_only: Some(&[(EventKind::Notification, "Notification")]),
        // camelCase payloads name no event: recognise them by their keys. permissionRequest
        // looks like preToolUse and must be named by the caller.
        event_shapes: &[
            (EventKind::PostToolUse, &["toolName", "toolResult"]),
            (EventKind::PostToolUseFailure, &["toolName", "error"]),
            (EventKind::PreToolUse, &["toolName"]),
            (EventKind::ErrorOccurred, &["errorContext"]),
            (EventKind::ErrorOccurred, &["error", "recoverable"]),
            (EventKind::SubagentStop, &["agentName", "stopReason"]),
            (EventKind::SubagentStart, &["agentName"]),
            (EventKind::Stop, &["stopReason"]),
            (EventKind::PreCompact, &["trigger"]),
            (
                EventKind::UserPromptTransformed,
                &["prompt", "transformedPrompt"],
            ),
            (EventKind::UserPromptSubmit, &["prompt"]),
            (EventKind::SessionStart, &["source"]),
            (EventKind::SessionEnd, &["reason"]),
            (EventKind::Notification, &["notification_type"]),
        ],
        // `stop_hook_active` stays snake_case in camelCase payloads (run 1.0.102).
        verbatim_keys: &["notification_type", "stop_hook_active"],
        call_keys: CANONICAL_CALL_KEYS,
        // An object since 1.0.x (run 1.0.102); a JSON string in older versions (seed).
        tool_args: ArgsForm::ObjectOrString,
        tool_result_keys: Some(("resultType", "textResultForLlm")),
        mcp_context_key: None,
        reshape: None,
        guard_reads_name: None,
        env: ENV,
        command_text_env: &[],
        plain_stdout_context: &[],
        exit2: EXIT2,
        exit_codes: ExitCodes::ByCode,
        signal_exit: None,
        abort_exit: None,
        answer_text: AnswerText::STDOUT,
        failure_denies: FAILURE_DENIES,
        fail_closed: FAIL_CLOSED,
        answer: &[
            F::new(Slot::Permission, &["permissionDecision"], Writes::On(PRE)),
            F::new(
                Slot::PermissionReason,
                &["permissionDecisionReason"],
                Writes::On(PRE),
            ),
            F::new(Slot::UpdatedInput, &["modifiedArgs"], Writes::On(PRE)),
            F::new(Slot::Behavior, &["behavior"], Writes::On(PERM)),
            F::new(Slot::BehaviorMessage, &["message"], Writes::On(PERM)),
            F::new(Slot::Interrupt, &["interrupt"], Writes::On(PERM)),
            F::new(Slot::Decision, &["decision"], Writes::On(BLOCKS)),
            F::new(Slot::Reason, &["reason"], Writes::On(BLOCKS)),
            F::new(Slot::Context, &["additionalContext"], Writes::On(CONTEXT)),
            F::new(Slot::Prompt, &["modifiedPrompt"], Writes::On(PROMPT)),
            F::new(Slot::ToolResult, &["modifiedResult"], Writes::On(POST)),
        ],
        updated_input_merges: false,
        updated_input_needs_allow: false,
        reason_alone_is_context: false,
        answer_event_key: None,
        permission_values: ALL_DECISIONS,
        permission_passes: &[],
        permission_defers: &[],
        // Run 1.0.102 (`live_copilot::permission_modes_and_a_hooks_answer`): a `preToolUse` allow
        // runs the call without `--allow-all-tools` and past `--deny-tool shell` (attacks row 1494).
        allow_reach: crate::tables::AllowReach::DenyRules,
        // postToolUseFailure with `error` after a failed call (run 1.0.102, `tools.30`).
        failed_call: crate::tables::FailedCall::OwnEvent,
        permission_fold: crate::tables::PermissionFold::Strictest,
        rewrite_race: false,
        ignored_blocks: &[],
        // Binary 1.0.102, its settings' description: preCompact hooks "cannot block it"
        // (attacks row 1571; what a `continue: false` there does was not probed). Its
        // package's `SessionStartHookOutput` is `{additionalContext, modifiedConfig}`, read
        // not run (attacks row 1743).
        decision_ignored: &[EventKind::PreCompact, EventKind::SessionStart],
        // Attacks row 1903 (answer books `cblock`, `blockold`): a `decision: block` on the
        // call's guard runs the call; only a permission decision denies.
        block_unread: &[EventKind::PreToolUse],
        // postToolUse `decision: block`: "Tool result blocked: REASON" instead (run, both casings).
        block_withholds_result: &[EventKind::PostToolUse],
        late_answer: false,
        carried_context: None,
        result_forms: super::RESULT_FORMS,
        hook_budget: &[],
    };

    /// The VS Code-compatible form. hookx's choice for answering it: permission decisions are
    /// written twice, Claude-style in `hookSpecificOutput` (which the CLI's Claude-compatible
    /// entry reads, field) and at the top level (where the seed documents them); both carry
    /// the same value, so a host reading either agrees. Additive fields (context) are written
    /// once, where the seed documents them. Claude-style answers are accepted on input.
    pub(super) const PASCAL_PROTOCOL: ProtocolTables = ProtocolTables {
        event_key: "hook_event_name",
        event_key_only: None,
        event_shapes: &[],
        verbatim_keys: &[],
        call_keys: CANONICAL_CALL_KEYS,
        tool_args: ArgsForm::ObjectOrString,
        tool_result_keys: Some(("result_type", "text_result_for_llm")),
        mcp_context_key: None,
        reshape: None,
        guard_reads_name: None,
        env: ENV,
        command_text_env: &[],
        plain_stdout_context: &[],
        exit2: EXIT2,
        exit_codes: ExitCodes::ByCode,
        signal_exit: None,
        abort_exit: None,
        answer_text: AnswerText::STDOUT,
        failure_denies: FAILURE_DENIES,
        fail_closed: FAIL_CLOSED,
        answer: &[
            F::new(Slot::Continue, &["continue"], Writes::Except(NO_STOP)),
            F::new(Slot::StopReason, &["stopReason"], Writes::Except(NO_STOP)),
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
            F::new(Slot::Permission, &["permissionDecision"], Writes::On(PRE)),
            F::new(
                Slot::PermissionReason,
                &["permissionDecisionReason"],
                Writes::On(PRE),
            ),
            F::new(Slot::UpdatedInput, &["modifiedArgs"], Writes::On(PRE)),
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
            // Read from a handler, never written: the original call runs (run 1.0.102,
            // tests/live_copilot.rs `ground_truth_answer_forms`, form `hxppermallowrw`).
            F::new(
                Slot::BehaviorInput,
                &[HSO, "decision", "updatedInput"],
                Writes::Never,
            ),
            F::new(Slot::Behavior, &["behavior"], Writes::On(PERM)),
            F::new(Slot::BehaviorMessage, &["message"], Writes::On(PERM)),
            F::new(Slot::Interrupt, &["interrupt"], Writes::On(PERM)),
            F::new(Slot::Decision, &["decision"], Writes::On(BLOCKS)),
            F::new(Slot::Reason, &["reason"], Writes::On(BLOCKS)),
            F::new(Slot::Context, &["additionalContext"], Writes::On(CONTEXT)),
            F::new(Slot::Context, &[HSO, "additionalContext"], Writes::Never),
            F::new(Slot::Prompt, &["modifiedPrompt"], Writes::On(PROMPT)),
        ],
        updated_input_merges: false,
        updated_input_needs_allow: false,
        reason_alone_is_context: false,
        answer_event_key: Some((HSO, "hookEventName")),
        permission_values: ALL_DECISIONS,
        permission_passes: &[],
        permission_defers: &[],
        // As the camelCase form (the same reader: not run apart).
        allow_reach: crate::tables::AllowReach::DenyRules,
        // postToolUseFailure with `error` after a failed call (run 1.0.102, `tools.30`).
        failed_call: crate::tables::FailedCall::OwnEvent,
        permission_fold: crate::tables::PermissionFold::Strictest,
        rewrite_race: false,
        ignored_blocks: &[],
        // Binary 1.0.102, its settings' description: preCompact hooks "cannot block it"
        // (attacks row 1571; what a `continue: false` there does was not probed). Its
        // package's `SessionStartHookOutput` is `{additionalContext, modifiedConfig}`, read
        // not run (attacks row 1743).
        decision_ignored: &[EventKind::PreCompact, EventKind::SessionStart],
        block_unread: &[],
        // postToolUse `decision: block`: "Tool result blocked: REASON" instead (run, both casings).
        block_withholds_result: &[EventKind::PostToolUse],
        late_answer: false,
        carried_context: None,
        result_forms: super::RESULT_FORMS,
        hook_budget: &[],
    };
}

/// The text the model reads, for the tools whose result is that text alone.
const TEXT_RESULT: &str = r#"{"result_type": "success", "text_result_for_llm": "${output}"}"#;

/// Copilot CLI 1.0.102's tool results, in the envelope's canonical keys (both casings;
/// recorded: `tools.10` a shell call, `tools.16` a create, `tools.22` an edit, `mcp.11` an
/// MCP tool).
const RESULT_FORMS: &[ResultForm] = &[
    ResultForm::of(
        ids::SHELL,
        r#"{"result_type": "success",
            "text_result_for_llm": "${output}\n<shellId: ${_} completed with exit code ${exit_code}>"}"#,
    ),
    ResultForm::of(
        ids::SHELL,
        r#"{"result_type": "success",
            "text_result_for_llm": "${output}\n<shellId: 0 completed with exit code ${exit_code}>"}"#,
    ),
    ResultForm::of(
        ids::WRITE,
        r#"{"result_type": "success", "text_result_for_llm": "Created file ${input.file_path}"}"#,
    ),
    ResultForm::of(
        ids::EDIT,
        r#"{"result_type": "success",
            "text_result_for_llm": "File ${input.file_path} updated with changes."}"#,
    ),
    ResultForm::mcp(TEXT_RESULT),
    // Any other text (a call moved to the background): all of it.
    ResultForm::of(ids::SHELL, r#"{"text_result_for_llm": "${output}"}"#),
    // The other tools' text, as the model reads it.
    ResultForm::of(ids::READ, TEXT_RESULT),
    ResultForm::of(ids::GLOB, TEXT_RESULT),
    ResultForm::of(ids::GREP, TEXT_RESULT),
    ResultForm::of(ids::WEB_FETCH, TEXT_RESULT),
    ResultForm::of(ids::WEB_SEARCH, TEXT_RESULT),
    ResultForm::of(ids::TASK, TEXT_RESULT),
];
