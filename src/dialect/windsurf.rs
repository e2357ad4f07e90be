//! Windsurf Cascade: `.windsurf/hooks.json`, `~/.codeium/windsurf/hooks.json` and the system
//! file, `{"hooks": {event: [{command, show_output, working_directory}]}}` with snake_case
//! events and no matchers.
//!
//! Every fact here is "docs": read in docs.windsurf.com/windsurf/cascade/hooks and in
//! CorridorSecurity/hookshot `docs/reference-cascade.md` (conformance/windsurf-facts.md quotes
//! each); none was verified by running Windsurf.
//!
//! Windsurf has no generic tool event: each tool event is a tool category
//! (`pre_run_command` is PreToolUse for the shell). Each category is a flavour of its own with
//! a [`ToolScope`], as Cursor's `beforeShellExecution` is, so that its rules fire under other
//! hosts only for those tools; `convert --to windsurf` splits a tool rule by the categories its
//! matcher fires for. Every payload carries its event-specific keys inside `tool_info`
//! ([`crate::tables::ArgsForm::Nested`]).

use crate::tables::{
    BrokenPolicy, DetectSpec, Dialect, DialectDef, Flavor, HostSpec, KeyCase, ManagedSpec,
    RouteSpec, Schema, Tables, TimestampForm, ToolCodec, ToolScope,
};

use crate::dialect::CLAUDE_MATCHER_STYLE;
use crate::model::EventKind;
use crate::model::tool::ids;
use crate::tables::Nested;
use crate::tables::{ConfigSpec, DocumentKind, Documents, HandlerField, RunKeys};
use crate::tables::{Location, Pattern, Root, Scope};

pub static DIALECT: Dialect = Dialect(&DEF);
/// The events that are no tool category (`pre_user_prompt`, `post_cascade_response`).
pub static FLAVOR: Flavor = Flavor(&TABLES);

/// Windsurf names no tools; these are its categories, named after their events, so that a
/// payload's tool reads back as the category's first tool.
const TOOLS: &[(&str, &[&str])] = &[
    (ids::SHELL, &["run_command"]),
    (ids::EDIT, &["write_code"]),
    (ids::WRITE, &["write_code"]),
    (ids::MULTI_EDIT, &["write_code"]),
    (ids::NOTEBOOK_EDIT, &["write_code"]),
    (ids::READ, &["read_code"]),
    (ids::GREP, &["read_code"]),
    (ids::GLOB, &["read_code"]),
];

/// `pre_run_command`: `tool_info.command_line` is the shell's `command`.
const SHELL_ARGS: &[(&str, &str)] = &[("command", "command_line")];

/// The keys beside `tool_info` (docs, "Common Input Structure").
const TOP: &[&str] = &[
    "agent_action_name",
    "trajectory_id",
    "execution_id",
    "timestamp",
];

/// One flavour's tables: what differs between the flavours is given, the rest is shared.
macro_rules! windsurf_tables {
    (
        name: $name:expr,
        events: $events:expr,
        key_renames: $renames:expr,
        protocol: $protocol:expr,
        tool_scope: $scope:expr,
        tool_codecs: $codecs:expr $(,)?
    ) => {
        Tables {
            name: $name,
            dialect: Dialect(&DEF),
            events: $events,
            tools: TOOLS,
            tool_args: &[(ids::SHELL, SHELL_ARGS)],
            // "There are no matchers": the event is the tool category.
            matcher_targets: &[],
            matcher_style: CLAUDE_MATCHER_STYLE,
            exact_field_matchers: false,
            stop_fires_for_subagents: false,
            unfired: &[],
            cadences: &[],
            mcp_names: crate::tables::MCP_CANONICAL,
            matcher_tries_names_of: &[],
            key_case: KeyCase::Snake,
            value_renames: &[],
            event_values: &[],
            key_renames: $renames,
            // "`timestamp` string: ISO 8601 timestamp when the hook was triggered".
            timestamp: TimestampForm::Iso8601,
            // Neither a timeout key nor a default is documented: hookx assumes 30 s.
            default_timeout: [30, 30, 30],
            project_dir_var: None,
            project_root_markers: &[],
            project_root_setting: None,
            // Hooks run in the workspace root ("`working_directory` … Defaults to your
            // workspace root" [hooks]; hookx's route names none); `tool_info.cwd` is where
            // the command runs (attacks row 566).
            project_from: crate::tables::ProjectFrom::HookFolder,
            // "all hooks will execute in order: system → user → workspace".
            parallel: false,
            first_deny_stops_the_rest: false,
            rewrites_chain: false,
            handler_types: &["command"],
            protocol: $protocol,
            verified_with: None,
            matcher_values: &[],
            handler_key_overrides: &[],
            invalid_matcher_effect: None,
            tool_scope: $scope,
            other_tools: &[],
            renamed_tools: &[],
            tool_codecs: $codecs,
            // No runnable client: no payload was ever recorded.
            payload_object_keys: &[],
            payload_keys: &[],
        }
    };
}

/// `trajectory_id` is "the overall Cascade conversation".
const SESSION: (&str, &str) = ("session_id", "trajectory_id");

/// `pre_user_prompt` (`tool_info.user_prompt`), `post_cascade_response`
/// (`tool_info.response`).
pub static TABLES: Tables = windsurf_tables! {
    name: "windsurf",
    events: &[
        (EventKind::UserPromptSubmit, "pre_user_prompt"),
        (EventKind::Stop, "post_cascade_response"),
    ],
    key_renames: &[
        SESSION,
        ("prompt", "user_prompt"),
        ("last_assistant_message", "response"),
    ],
    protocol: protocol_rows::nested(&Nested { key: "tool_info", top: TOP, args: &[], mcp_parts: None }),
    tool_scope: ToolScope::Any,
    tool_codecs: &[],
};

/// `pre_run_command` / `post_run_command`: `command_line`, `cwd`; after, `exit_code` and
/// `output` (hookshot).
pub static COMMAND_TABLES: Tables = windsurf_tables! {
    name: "windsurf-command",
    events: &[
        (EventKind::PreToolUse, "pre_run_command"),
        (EventKind::PostToolUse, "post_run_command"),
    ],
    key_renames: &[SESSION, ("tool_response", "output")],
    protocol: protocol_rows::nested(&Nested {
        key: "tool_info",
        top: TOP,
        args: &["command_line"],
        mcp_parts: None,
    }),
    tool_scope: ToolScope::Only(&[ids::SHELL]),
    tool_codecs: &[],
};

/// `pre_write_code` / `post_write_code`: `file_path` and `edits: [{old_string, new_string}]`.
/// Whether it was a new file or an edit is not said: decoded, it is an edit. Every tool that
/// writes a file is in scope, a notebook's cell too, so that a write guard sees it under
/// another host.
pub static WRITE_TABLES: Tables = windsurf_tables! {
    name: "windsurf-write",
    events: &[
        (EventKind::PreToolUse, "pre_write_code"),
        (EventKind::PostToolUse, "post_write_code"),
    ],
    key_renames: &[SESSION],
    protocol: protocol_rows::nested(&Nested {
        key: "tool_info",
        top: TOP,
        args: &["file_path", "edits"],
        mcp_parts: None,
    }),
    tool_scope: ToolScope::Only(&[ids::EDIT, ids::WRITE, ids::MULTI_EDIT, ids::NOTEBOOK_EDIT]),
    tool_codecs: &[EDITS_CODEC],
};

/// `pre_read_code` / `post_read_code`: `file_path` ("may be a directory path when Cascade
/// reads a directory recursively"); after, `content` (hookshot). A search reads the files of
/// its path, so Grep and Glob are in scope too: a read guard sees them under another host.
pub static READ_TABLES: Tables = windsurf_tables! {
    name: "windsurf-read",
    events: &[
        (EventKind::PreToolUse, "pre_read_code"),
        (EventKind::PostToolUse, "post_read_code"),
    ],
    key_renames: &[SESSION],
    protocol: protocol_rows::nested(&Nested {
        key: "tool_info",
        top: TOP,
        args: &["file_path"],
        mcp_parts: None,
    }),
    tool_scope: ToolScope::Only(&[ids::READ, ids::GREP, ids::GLOB]),
    tool_codecs: &[READS_CODEC],
};

/// `pre_mcp_tool_use` / `post_mcp_tool_use`: `mcp_server_name`, `mcp_tool_name`,
/// `mcp_tool_arguments`; after, `mcp_result`.
pub static MCP_TABLES: Tables = windsurf_tables! {
    name: "windsurf-mcp",
    events: &[
        (EventKind::PreToolUse, "pre_mcp_tool_use"),
        (EventKind::PostToolUse, "post_mcp_tool_use"),
    ],
    key_renames: &[
        SESSION,
        ("tool_input", "mcp_tool_arguments"),
        ("tool_response", "mcp_result"),
    ],
    protocol: protocol_rows::nested(&Nested {
        key: "tool_info",
        top: TOP,
        args: &[],
        mcp_parts: Some(("mcp_server_name", "mcp_tool_name")),
    }),
    tool_scope: ToolScope::Mcp,
    tool_codecs: &[],
};

/// `pre_write_code`'s `{file_path, edits: [{old_string, new_string}]}` is every edit and write:
/// one edit reads as an Edit, several as a MultiEdit; a Write is written as one edit of nothing
/// into its content (the docs show no new file), and so is a NotebookEdit, of nothing into the
/// cell's new source (the cell's old source is not in the call).
const EDITS_CODEC: ToolCodec = ToolCodec {
    name: "write_code",
    ids: &[ids::EDIT, ids::WRITE, ids::MULTI_EDIT, ids::NOTEBOOK_EDIT],
    decode: edits::decode,
    encode: edits::encode,
};

mod edits {
    use crate::model::tool::ids;
    use serde_json::{Value, json};

    pub(super) fn decode(input: &Value, _cwd: Option<&str>) -> Option<(&'static str, Value)> {
        let path = input.get("file_path")?;
        // One edit is Claude's Edit; several, its MultiEdit (which has `edits` too).
        match input
            .get("edits")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
        {
            Some([one]) => Some((
                ids::EDIT,
                json!({"file_path": path, "old_string": one.get("old_string")?, "new_string": one.get("new_string")?}),
            )),
            Some([_, _, ..]) => Some((ids::MULTI_EDIT, input.clone())),
            // No edits to tell: an edit of that file.
            _ => Some((ids::EDIT, input.clone())),
        }
    }

    pub(super) fn encode(id: &str, input: &Value, _cwd: Option<&str>) -> Option<Value> {
        if id == ids::NOTEBOOK_EDIT {
            // A deleted cell has no new source: an edit into nothing.
            let source = input.get("new_source").cloned().unwrap_or(json!(""));
            return Some(json!({
                "file_path": input.get("notebook_path")?,
                "edits": [{"old_string": "", "new_string": source}],
            }));
        }
        let path = input.get("file_path")?;
        let edits = match id {
            ids::EDIT => {
                json!([{"old_string": input.get("old_string")?, "new_string": input.get("new_string")?}])
            }
            ids::WRITE => json!([{"old_string": "", "new_string": input.get("content")?}]),
            ids::MULTI_EDIT => input.get("edits")?.clone(),
            _ => return None,
        };
        Some(json!({"file_path": path, "edits": edits}))
    }
}

/// `pre_read_code`'s `{file_path}` is every read: it decodes as a Read; a Grep or a Glob is
/// written as a read of the path it searches.
const READS_CODEC: ToolCodec = ToolCodec {
    name: "read_code",
    ids: &[ids::READ, ids::GREP, ids::GLOB],
    decode: reads::decode,
    encode: reads::encode,
};

mod reads {
    use crate::model::tool::ids;
    use serde_json::{Value, json};

    pub(super) fn decode(input: &Value, _cwd: Option<&str>) -> Option<(&'static str, Value)> {
        Some((ids::READ, input.clone()))
    }

    pub(super) fn encode(id: &str, input: &Value, cwd: Option<&str>) -> Option<Value> {
        match id {
            ids::READ => Some(input.clone()),
            // A search with no `path` reads the working directory recursively, which Cascade
            // sends as that directory's path: a guard that blocks a path (or a path under it)
            // then sees the directory it must judge, not an empty path it would let through.
            ids::GREP => {
                let path = input.get("path").and_then(Value::as_str).or(cwd)?;
                Some(json!({"file_path": path}))
            }
            // An absolute pattern searches its own folder, whatever `path` says: Claude Code
            // 2.1.332 searches (and checks its permissions on) the pattern's text before its
            // first wildcard, cut at its last `/` (`/root/.ssh/id_*`: `/root/.ssh`).
            ids::GLOB => {
                let base = input.get("path").and_then(Value::as_str).or(cwd)?;
                let pattern = input.get("pattern").and_then(Value::as_str).unwrap_or("");
                let path = match pattern.starts_with('/') {
                    true => {
                        let fixed =
                            &pattern[..pattern.find(['*', '?', '[', '{']).unwrap_or(pattern.len())];
                        match fixed.rfind('/') {
                            Some(0) | None => "/",
                            Some(at) => &fixed[..at],
                        }
                    }
                    false => base,
                };
                Some(json!({"file_path": path}))
            }
            _ => None,
        }
    }
}

/// `{"hooks": {event: [entry]}}`.
pub static FILE: DocumentKind = DocumentKind {
    name: "WindsurfHooksFile",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: Some(&[]),
    session_env: None,
    frontmatter: false,
};

pub static DEF: DialectDef = DialectDef {
    name: "windsurf",
    display: "Windsurf",
    product: "Windsurf Cascade (docs)",
    flavors: &[
        Flavor(&TABLES),
        Flavor(&COMMAND_TABLES),
        Flavor(&WRITE_TABLES),
        Flavor(&READ_TABLES),
        Flavor(&MCP_TABLES),
    ],
    config: &CONFIG,
    // Its snake_case event names are its own.
    detect: DetectSpec {
        dirs: &[".windsurf/", ".codeium/windsurf/"],
        file_names: &[],
        unmarked: false,
        sole_event_flavors: &[
            Flavor(&TABLES),
            Flavor(&COMMAND_TABLES),
            Flavor(&WRITE_TABLES),
            Flavor(&READ_TABLES),
            Flavor(&MCP_TABLES),
        ],
        sole_top_keys: &[],
        sole_handler_keys: &["show_output", "working_directory"],
        top_keys: &[],
        handler_keys: &[],
        preferred: false,
    },
    locations: &[
        Location {
            id: "windsurf-system",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::File("hooks.json"),
        },
        Location {
            id: "windsurf-user",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".codeium/windsurf/hooks.json"),
        },
        Location {
            id: "windsurf-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".windsurf/hooks.json"),
        },
    ],
    // "Hooks from all three locations are merged together".
    native: &["windsurf-system", "windsurf-user", "windsurf-project"],
    kill_switch: None,
    managed: Some(ManagedSpec {
        dirs: &[
            ("linux", "/etc/windsurf"),
            ("macos", "/Library/Application Support/Windsurf"),
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
        source: "docs: docs.windsurf.com/windsurf/cascade/hooks (System-Level)",
    }),
    // Not documented.
    folder_trust: None,
    disabled_handlers: None,
    route_trust: None,
    home_var: None,
    malformed_entry_skips_file: &[],
    host: HostSpec {
        payload_keys: &["agent_action_name", "trajectory_id", "execution_id"],
        payload_events: &[],
        env_markers: &[],
    },
    route: RouteSpec {
        matcher: None,
        grouped: false,
        group_keys: &[],
        command_key: "command",
        timeout_key: None,
        // Neither a timeout key nor a limit is documented: hookx assumes 30 s, as for the
        // handlers it runs (windsurf-facts.md).
        limit: crate::tables::RouteLimit { secs: 30, on: &[] },
        // Docs: the hooks of all locations "are merged together … all hooks will execute"
        // (windsurf-facts.md): both routes would (tests/double_runs.rs).
        names_project_route: true,
        names_folder: false,
    },
    scope_option: None,
    presence: crate::tables::Presence {
        programs: &["windsurf"],
        installs: &[],
        folders: &[".windsurf", ".codeium/windsurf"],
    },
    schema: Schema {
        file_name: "windsurf.schema.json",
        text: include_str!("../../schemas/windsurf.schema.json"),
    },
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &["post_setup_worktree"],
    scripts: None,
    generated: None,
    rule_list: None,
    // Its documents say nothing of comments: read as strict JSON.
    agent_keys: &[],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax::STRICT,
    handler_keys: &[
        ("command", HandlerField::Command),
        // "The directory to execute the command from. Defaults to your workspace root."
        ("working_directory", HandlerField::Cwd),
    ],
    flat_handlers: true,
    wrapper_optional: false,
    timeout_unit: crate::tables::TimeoutUnit::Seconds,
    zero_timeout_is_none: false,
    timer_limit_ms: None,
    skips_entry_without_positive_timeout: false,
    skips_entry_without_type: false,
    timeout_numeric_strings: false,
    // "Whether to display the hook's stdout/stderr output on the user-facing Cascade UI".
    kept_keys: &["show_output"],
    // No variable documented; commands run from the workspace root.
    project_dir_variable: None,
    provided_env: &[],
    merges_identical_handlers: false,
    version: None,
    stamp: None,
    project_env: crate::tables::ProjectEnv::NONE,
    install_project: ".windsurf/hooks.json",
    install_user: ".codeium/windsurf/hooks.json",
    install_hidden_by: &[],
    hook_dir_var: None,
    foreign_switches: &[],
    reads_foreign_as: &[],
    run_keys: RunKeys::NONE,
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
    convert_target: ".windsurf/hooks.json",
    type_only_on: &[],
    plugins: None,
    extension_switch: None,
};

/// Run-time protocol rows: exit codes only (docs, "Exit Codes").
mod protocol_rows {
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AnswerText, ArgsForm, CANONICAL_CALL_KEYS, Exit2, ExitCodes, Nested, ProtocolTables,
    };

    /// "Only pre-hooks (pre_read_code, pre_write_code, pre_run_command, pre_mcp_tool_use) can
    /// block actions using exit code 2"; `pre_user_prompt` blocks the prompt the same way
    /// (hookshot `BlockPromptWithError`). On post-hooks "the Cascade agent will see the error
    /// message from stderr".
    const EXIT2: &[(EventKind, Exit2)] = &[
        (EventKind::PreToolUse, Exit2::Deny),
        (EventKind::UserPromptSubmit, Exit2::Block),
        (EventKind::PostToolUse, Exit2::Context),
    ];

    /// The rows of a flavour whose payload nests its fields as `nested` says.
    pub(super) const fn nested(nested: &'static Nested) -> ProtocolTables {
        ProtocolTables {
            reshape: None,
            guard_reads_name: None,
            event_key: "agent_action_name",
            event_key_only: None,
            mcp_context_key: None,
            // "0: Action proceeds normally; 2: Blocking Error; Any other: Action proceeds
            // normally".
            exit_codes: ExitCodes::ByCode,
            updated_input_merges: false,
            updated_input_needs_allow: false,
            reason_alone_is_context: false,
            event_shapes: &[],
            verbatim_keys: &[],
            call_keys: CANONICAL_CALL_KEYS,
            tool_args: ArgsForm::Nested(nested),
            tool_result_keys: None,
            env: &[],
            command_text_env: &[],
            plain_stdout_context: &[],
            exit2: EXIT2,
            signal_exit: None,
            abort_exit: None,
            answer_text: AnswerText::STDOUT,
            failure_denies: &[],
            fail_closed: &[EventKind::PreToolUse],
            // No JSON answer is documented.
            answer: &[],
            answer_event_key: None,
            permission_values: &[Decision::Deny],
            permission_passes: &[],
            permission_defers: &[],
            // Windsurf reads no allow (exit 2 or nothing).
            allow_reach: crate::tables::AllowReach::Nothing,
            // Its post events' payloads show no failure (docs; no client here).
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
        }
    }
}
