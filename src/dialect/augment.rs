//! Augment (Auggie CLI): `hooks` in `/etc/augment/settings.json`, `~/.augment/settings.json`,
//! `<project>/.augment/settings.local.json` and `<project>/.augment/settings.json`. Claude's file
//! shape with seven events (`PromptSubmit`, not `UserPromptSubmit`), timeouts in milliseconds,
//! its own payload (`conversation_id`, `workspace_roots`, no `session_id` or `cwd`), answers
//! read only inside `hookSpecificOutput`, and its own tool names.
//!
//! Facts: conformance/augment-facts.md. "Run": `tests/live_augment.rs` drives `auggie -p`
//! 0.36.0 against a fake Augment backend on 127.0.0.1 (its `enable_hooks` feature flag on);
//! "source": read in its shipped `augment.mjs`, with the function and offset named there.

use crate::model::tool::ids;
use crate::model::{EventKind, MatcherStyle};
use crate::tables::ResultForm;
use crate::tables::{
    BrokenPolicy, DetectSpec, Dialect, DialectDef, Flavor, HostSpec, KeyCase, ManagedSpec, MatchOn,
    McpMatchers, McpNames, RouteSpec, Schema, Tables, TimestampForm, ToolCodec,
};
use crate::tables::{ConfigSpec, DocumentKind, Documents, HandlerField, RunKeys};
use crate::tables::{Location, Pattern, Root, Scope};
use serde_json::{Map, Value, json};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

/// Edits: `{command: "str_replace", path, str_replace_entries: [{old_str, new_str, …}]}` (run
/// 0.36.0: the schema offered to the model); `insert` and the older flat (`old_str`) and
/// numbered (`old_str_1`) forms are source 0.36.0.
const STR_REPLACE_EDITOR: &str = "str-replace-editor";

/// Every edit as one patch: `{input: PATCH}` in Codex's patch grammar (`x7n` reads its
/// `*** Add File:` / `*** Update File:` / `*** Delete File:` lines).
const APPLY_PATCH: &str = "apply_patch";

pub static TABLES: Tables = Tables {
    name: "augment",
    dialect: Dialect(&DEF),
    // Source 0.36.0 `Whn` (offset 5588524): these seven.
    events: &[
        (EventKind::SessionStart, "SessionStart"),
        (EventKind::SessionEnd, "SessionEnd"),
        (EventKind::UserPromptSubmit, "PromptSubmit"),
        (EventKind::PreToolUse, "PreToolUse"),
        (EventKind::PostToolUse, "PostToolUse"),
        (EventKind::Notification, "Notification"),
        (EventKind::Stop, "Stop"),
    ],
    // Source 0.36.0: the tool classes' `super("name")`. `remove-files`, `grep-search`'s
    // siblings and the process tools have no canonical tool and keep their names.
    tools: &[
        (ids::SHELL, &["launch-process"]),
        (ids::READ, &["view"]),
        (ids::WRITE, &["save-file"]),
        (ids::EDIT, &[STR_REPLACE_EDITOR]),
        (ids::MULTI_EDIT, &[APPLY_PATCH]),
        (ids::GREP, &["grep-search"]),
        (ids::WEB_FETCH, &["web-fetch"]),
        (ids::WEB_SEARCH, &["web-search"]),
        (ids::TASK, &["sub-agent"]),
    ],
    // Run 0.36.0 (the tools offered to the model): `view {path}`, `save-file {path,
    // file_content}`; source: `grep-search {directory_absolute_path, query}`.
    // `str-replace-editor` is a codec ([`edit`]).
    tool_args: &[
        (ids::READ, &[("file_path", "path")]),
        (
            ids::WRITE,
            &[("file_path", "path"), ("content", "file_content")],
        ),
        (
            ids::GREP,
            &[("pattern", "query"), ("path", "directory_absolute_path")],
        ),
    ],
    // Source 0.36.0 (`znt`/`O6`): a matcher on the other five events is ignored.
    matcher_targets: &[
        (EventKind::PreToolUse, MatchOn::ToolName),
        (EventKind::PostToolUse, MatchOn::ToolName),
    ],
    // Source 0.36.0 (`f7n`/`aao`): `.*`, empty or absent = every tool, else
    // `new RegExp(m).test(tool_name)`, unanchored and case-sensitive, never on an MCP tool
    // (`mcp_names.matchers`); an invalid regex is refused at load. So `*` is no "all" but an
    // invalid regex (run 0.36.0: a converted `*` guard never fired, attacks row 1200). Not
    // trimmed: `" "` fires on no tool (run 0.36.0, the matcher probe: attacks row 1729).
    matcher_style: MatcherStyle::UnanchoredRegex {
        star_is_all: false,
        trims: false,
    },
    exact_field_matchers: false,
    stop_fires_for_subagents: false,
    unfired: &[],
    cadences: &[],
    matcher_tries_names_of: &[],
    // Source 0.36.0 (`createNamespacedToolName`, `f7n`): an MCP tool is named `TOOL_SERVER`
    // (server last, `is_mcp_tool: true`); the payload is read and written in that spelling
    // ([`mcp`]), hookx's own being the canonical one. Its matchers reach MCP tools only as
    // `mcp:*` / `mcp:REGEX` (REGEX on `TOOL_SERVER`).
    mcp_names: McpNames {
        matchers: Some(McpMatchers {
            prefix: "mcp:",
            separator: "_",
            all: &["", ".*"],
        }),
        ..crate::tables::MCP_CANONICAL
    },
    key_case: KeyCase::Snake,
    // Source 0.36.0 (`B7n`, `k7n`, `V7n`): `conversation_id` names the session; the tool's
    // result is `tool_output`, the prompt `user_prompt`, a notification's text
    // `notification_message`.
    value_renames: &[],
    event_values: &[],
    key_renames: &[
        ("session_id", "conversation_id"),
        ("tool_response", "tool_output"),
        ("prompt", "user_prompt"),
        ("message", "notification_message"),
    ],
    timestamp: TimestampForm::None,
    // Source 0.36.0: `Sao=6e4` ms for every hook; only command handlers.
    default_timeout: [60, 60, 60],
    project_dir_var: Some("AUGMENT_PROJECT_DIR"),
    project_root_markers: &[],
    project_root_setting: None,
    project_from: crate::tables::ProjectFrom::Cwd,
    // Source 0.36.0 (`I7n`): "Executing N hooks in parallel".
    parallel: true,
    first_deny_stops_the_rest: false,
    rewrites_chain: false,
    handler_types: &["command"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: Some("auggie 0.36.0"),
    matcher_values: &[],
    handler_key_overrides: &[],
    invalid_matcher_effect: Some("Auggie refuses the file's hooks for this event"),
    tool_scope: crate::tables::ToolScope::Any,
    other_tools: &[],
    renamed_tools: &[],
    tool_codecs: &[
        ToolCodec {
            name: STR_REPLACE_EDITOR,
            ids: &[ids::EDIT],
            decode: edit::decode,
            encode: edit::encode,
        },
        ToolCodec {
            name: APPLY_PATCH,
            ids: &[ids::MULTI_EDIT],
            decode: patch::decode,
            encode: patch::encode,
        },
    ],
    // Recorded by tests/live_augment.rs (0.36.0); tests/doctor.rs checks them.
    payload_object_keys: &[],
    payload_keys: &[
        (EventKind::SessionStart, COMMON_KEYS),
        (EventKind::SessionEnd, COMMON_KEYS),
        (
            EventKind::UserPromptSubmit,
            &[
                "conversation_id",
                "hook_event_name",
                "user_prompt",
                "workspace_roots",
            ],
        ),
        (EventKind::PreToolUse, TOOL_KEYS),
        (
            EventKind::PostToolUse,
            &[
                "conversation_id",
                "file_changes",
                "hook_event_name",
                "is_mcp_tool",
                "tool_error",
                "tool_input",
                "tool_name",
                "tool_output",
                "workspace_roots",
            ],
        ),
        (
            EventKind::Stop,
            &[
                "_exchange",
                "agent_stop_cause",
                "conversation_id",
                "hook_event_name",
                "workspace_roots",
            ],
        ),
    ],
};

/// The keys of every payload (run 0.36.0).
const COMMON_KEYS: &[&str] = &["conversation_id", "hook_event_name", "workspace_roots"];
/// PreToolUse's keys (run 0.36.0); `tool_output` is `"[undefined]"` there.
const TOOL_KEYS: &[&str] = &[
    "conversation_id",
    "hook_event_name",
    "is_mcp_tool",
    "tool_error",
    "tool_input",
    "tool_name",
    "tool_output",
    "workspace_roots",
];

/// `settings.json`: a `hooks` object among other settings.
pub static SETTINGS: DocumentKind = DocumentKind {
    name: "AugmentSettings",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: None,
    session_env: None,
    frontmatter: false,
};

pub static DEF: DialectDef = DialectDef {
    name: "augment",
    display: "Augment",
    product: "Augment Auggie CLI",
    flavors: &[Flavor(&TABLES)],
    config: &CONFIG,
    detect: DetectSpec {
        dirs: &[".augment/"],
        file_names: &[],
        // Its files are Claude's shape: the folder, or `PromptSubmit`, tells them apart.
        unmarked: false,
        sole_event_flavors: &[],
        sole_top_keys: &[],
        sole_handler_keys: &[],
        top_keys: &[],
        handler_keys: &[],
        preferred: false,
    },
    // Source 0.36.0 (`cle`, offset ~5656048): system, user, project local, project; all rules
    // of every file run (`wgi`: concatenated per event), the project's with no trust step (run
    // 0.36.0, `files_auggie_reads_and_millisecond_timeouts`: user, project and project local).
    locations: &[
        Location {
            id: "augment-system",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::File("settings.json"),
        },
        Location {
            id: "augment-user",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".augment/settings.json"),
        },
        Location {
            id: "augment-local",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".augment/settings.local.json"),
        },
        Location {
            id: "augment-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".augment/settings.json"),
        },
    ],
    native: &[
        "augment-system",
        "augment-user",
        "augment-local",
        "augment-project",
    ],
    // Source 0.36.0: no key turns the hooks off.
    kill_switch: None,
    // Source 0.36.0 (`n1e`, offset 5463875): `/etc/augment` (Windows
    // `%ProgramData%\augment`, not modelled); "System hooks cannot be modified or removed".
    managed: Some(ManagedSpec {
        dirs: &[("linux", "/etc/augment"), ("macos", "/etc/augment")],
        only_managed_key: None,
        hooks_off: None,
        // Source 0.36.0: a file that is no valid JSON is skipped with a warning.
        broken_policy: BrokenPolicy::Skipped,
        kill_switch_reaches_policy: false,
        any_kill_switch_reaches_policy: false,
        // Source 0.36.0: read wherever it lies, whoever owns it.
        root_owned_only: false,
        moved_by: &[],
        source: "source (auggie 0.36.0): augment.mjs `n1e` (systemConfigDir), `cle` (order), \
                 `wgi` (merge)",
    }),
    folder_trust: None,
    disabled_handlers: None,
    // Source 0.36.0: an invalid event skips that event's hooks of the file, with a warning.
    malformed_entry_skips_file: &[],
    // Cursor sends `conversation_id` and `workspace_roots` too; only Auggie `is_mcp_tool` and
    // `agent_stop_cause`.
    host: HostSpec {
        payload_keys: &["conversation_id", "workspace_roots", "is_mcp_tool"],
        payload_events: &[EventKind::UserPromptSubmit],
        env_markers: &["AUGMENT_PROJECT_DIR", "AUGMENT_CONVERSATION_ID"],
    },
    // Source 0.36.0 (`aao`): an absent matcher fires on every tool, MCP tools included (a
    // plain regex never fires on one). `includeMCPMetadata` adds `mcp_metadata`, which names
    // the server of an MCP tool (`kao`/`c7n`): hookx splits `TOOL_SERVER` by it. The default
    // timeout (60 s) would cut hookx short of its handlers' own.
    route: RouteSpec {
        matcher: None,
        grouped: true,
        group_keys: &[("metadata", r#"{"includeMCPMetadata": true}"#)],
        command_key: "command",
        timeout_key: Some("timeout"),
        // Source 0.36.0: a hook's `timeout` (milliseconds, default 60 000) is its limit, with
        // no cap; SIGTERM then, SIGKILL 5 s later, and the call goes on (fail-open).
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
        programs: &["auggie"],
        installs: &[],
        folders: &[".augment"],
    },
    schema: Schema {
        file_name: "augment.schema.json",
        text: include_str!("../../schemas/augment.schema.json"),
    },
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &[],
    scripts: None,
    generated: None,
    rule_list: None,
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
        ("timeout", HandlerField::Timeout),
    ],
    flat_handlers: false,
    wrapper_optional: false,
    implied_type: None,
    strict_load: None,
    matcher_not_string_stops_event: false,
    // Source 0.36.0: "Timeout must be a positive number (milliseconds)"; run 0.36.0: a hook of
    // `timeout: 1500` is cut off after 1.5 s and the call goes on.
    timeout_unit: crate::tables::TimeoutUnit::Millis,
    zero_timeout_is_none: false,
    // Bundle 0.36.0 (`t.timeout||Sao` into `setTimeout`, attacks row 1683): milliseconds as
    // written, on Node.
    timer_limit_ms: Some(crate::tables::NODE_TIMER_LIMIT_MS),
    skips_entry_without_positive_timeout: false,
    skips_entry_without_type: false,
    timeout_numeric_strings: false,
    // Source 0.36.0: a rule's `metadata` adds payload keys (`includeConversationData`, …).
    kept_keys: &["metadata"],
    project_dir_variable: Some("AUGMENT_PROJECT_DIR"),
    // Source 0.36.0 (`vao`).
    provided_env: &[
        "AUGMENT_CONVERSATION_ID",
        "AUGMENT_HOOK_EVENT",
        "AUGMENT_TOOL_NAME",
    ],
    // Source 0.36.0 (`_gi`): the same `command` + `args` in several files runs once.
    merges_identical_handlers: true,
    version: None,
    stamp: None,
    project_env: crate::tables::ProjectEnv::NONE,
    install_project: ".augment/settings.json",
    install_user: ".augment/settings.json",
    install_hidden_by: &[],
    hook_dir_var: None,
    foreign_switches: &[],
    reads_foreign_as: &[],
    // Source 0.36.0 (`vao`/`S7n`): `args` are the program's arguments.
    run_keys: RunKeys {
        exec_args: Some("args"),
        ..RunKeys::NONE
    },
    documents: Documents {
        file: &SETTINGS,
        plugin: None,
        frontmatter: None,
        toml: None,
    },
    // Plugins (`.augment-plugin/`, `.claude-plugin/`) get AUGMENT_PLUGIN_ROOT; where Auggie
    // records installed plugins is not read yet, so hookx does not load them.
    plugin_root_var: None,
    plugin_text: &[],
    convert_target: ".augment/settings.json",
    type_only_on: &[],
    plugins: None,
    extension_switch: None,
    // Not probed: whether auggie 0.36.0 reads comments in settings.json was not found in
    // augment.mjs nor run. Strict is the safe reading: hookx then refuses to rewrite a file
    // with comments instead of dropping them.
    agent_keys: &[],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax::STRICT,
};

/// `str-replace-editor` ↔ Edit (one replacement) or MultiEdit (several); an `insert` keeps its
/// own name.
mod edit {
    use super::*;

    /// The (old, new) pairs of a `str_replace` call, in any of its three forms.
    fn replacements(input: &Value) -> Vec<(Value, Value)> {
        if let Some(entries) = input.get("str_replace_entries").and_then(Value::as_array) {
            return entries
                .iter()
                .filter_map(|e| Some((e.get("old_str")?.clone(), e.get("new_str")?.clone())))
                .collect();
        }
        if let (Some(old), Some(new)) = (input.get("old_str"), input.get("new_str")) {
            return vec![(old.clone(), new.clone())];
        }
        (1..)
            .map_while(|n| {
                let old = input.get(format!("old_str_{n}"))?;
                Some((old.clone(), input.get(format!("new_str_{n}"))?.clone()))
            })
            .collect()
    }

    /// `input` with one key renamed.
    fn renamed(input: &Value, from: &str, to: &str) -> Value {
        match input {
            Value::Object(map) => map
                .iter()
                .map(|(k, v)| (if k == from { to } else { k }.to_string(), v.clone()))
                .collect::<Map<_, _>>()
                .into(),
            other => other.clone(),
        }
    }

    pub(super) fn decode(input: &Value, _cwd: Option<&str>) -> Option<(&'static str, Value)> {
        if input.get("command").is_some_and(|c| c != "str_replace") {
            return None;
        }
        let path = input.get("path")?.clone();
        match replacements(input).as_slice() {
            // An edit in another shape (Cursor's `edits`): only the path is renamed.
            [] => Some((ids::EDIT, renamed(input, "path", "file_path"))),
            [(old, new)] => Some((
                ids::EDIT,
                json!({"file_path": path, "old_string": old, "new_string": new}),
            )),
            several => Some((
                ids::MULTI_EDIT,
                json!({"file_path": path, "edits": several.iter()
                    .map(|(old, new)| json!({"old_string": old, "new_string": new}))
                    .collect::<Vec<_>>()}),
            )),
        }
    }

    pub(super) fn encode(id: &str, input: &Value, _cwd: Option<&str>) -> Option<Value> {
        if id != ids::EDIT {
            return None;
        }
        let (Some(old), Some(new)) = (input.get("old_string"), input.get("new_string")) else {
            return Some(renamed(input, "file_path", "path"));
        };
        Some(
            json!({"command": "str_replace", "path": input.get("file_path")?,
            "str_replace_entries": [{"old_str": old, "new_str": new}]}),
        )
    }
}

/// `apply_patch {input: PATCH}` ↔ Write, Edit, MultiEdit, through Codex's patch codec.
mod patch {
    use super::*;

    pub(super) fn decode(input: &Value, cwd: Option<&str>) -> Option<(&'static str, Value)> {
        let patch = input.get("input")?.clone();
        super::super::codex::patch::decode(&json!({ "command": patch }), cwd)
    }

    pub(super) fn encode(id: &str, input: &Value, cwd: Option<&str>) -> Option<Value> {
        let coded = super::super::codex::patch::encode(id, input, cwd)?;
        Some(json!({ "input": coded.get("command")? }))
    }
}

/// Between Auggie's payload and the flat form the protocol rows read: `workspace_roots[0]` is
/// the `cwd` a Claude handler expects.
mod reshape {
    use super::*;

    const WORKSPACE_ROOTS: &str = "workspace_roots";
    const IS_MCP_TOOL: &str = "is_mcp_tool";
    const TOOL_ERROR: &str = "tool_error";

    /// What Auggie's serializer writes for an absent value (run 0.36.0: PreToolUse's
    /// `tool_output`).
    const UNDEFINED: &str = "[undefined]";

    pub(super) fn flatten(mut obj: Map<String, Value>) -> Map<String, Value> {
        obj.retain(|_, v| v.as_str() != Some(UNDEFINED));
        let canonical = (obj.get(IS_MCP_TOOL) == Some(&Value::Bool(true)))
            .then(|| obj.get("tool_name")?.as_str())
            .flatten()
            .and_then(|name| mcp::canonical(name, obj.get(mcp::METADATA)));
        if let Some(canonical) = canonical {
            obj.insert("tool_name".into(), canonical.into());
        }
        let root = obj
            .get(WORKSPACE_ROOTS)
            .and_then(|r| r.get(0))
            .and_then(Value::as_str)
            .map(str::to_string);
        if let Some(root) = root {
            obj.entry("cwd").or_insert(root.into());
        }
        obj
    }

    /// The flat form as Auggie sends it on `kind`: the `cwd` as `workspace_roots`, and the
    /// tool events' `is_mcp_tool` and `tool_error`.
    pub(super) fn nest(kind: &EventKind, mut flat: Map<String, Value>) -> Map<String, Value> {
        if let Some(cwd) = flat.remove("cwd") {
            flat.entry(WORKSPACE_ROOTS).or_insert(json!([cwd]));
        }
        if kind.is_tool_event() {
            let parts = flat
                .get("tool_name")
                .and_then(Value::as_str)
                .and_then(|name| TABLES.mcp_names.split(name))
                .map(|(server, tool)| (server.to_string(), tool.to_string()));
            if let Some((server, tool)) = &parts {
                flat.insert("tool_name".into(), mcp::native(server, tool).into());
                // As Auggie sends it under `includeMCPMetadata`: the name alone may not split.
                flat.entry(mcp::METADATA).or_insert(json!({
                    mcp::SERVER: server,
                    mcp::TOOL: tool,
                }));
            }
            flat.entry(IS_MCP_TOOL).or_insert(parts.is_some().into());
            flat.entry(TOOL_ERROR).or_insert(Value::Null);
        }
        flat
    }
}

/// Auggie's MCP tool names (source 0.36.0 `createNamespacedToolName`): `TOOL_SERVER`, each part
/// with every character outside `[A-Za-z0-9_-]` made `_`, cut at 64 characters, marked by
/// `is_mcp_tool: true`; hookx's canonical name is `mcp__SERVER__TOOL`.
mod mcp {
    use super::*;

    /// The payload key a group's `metadata.includeMCPMetadata` adds (source 0.36.0 `kao`,
    /// `c7n`): `mcpExecutedToolServerName` names the server.
    pub(super) const METADATA: &str = "mcp_metadata";
    pub(super) const SERVER: &str = "mcpExecutedToolServerName";
    pub(super) const TOOL: &str = "mcpExecutedToolName";
    const MAX_LEN: usize = 64;

    fn sanitized(name: &str) -> String {
        name.chars()
            .map(
                |c| match c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    true => c,
                    false => '_',
                },
            )
            .collect()
    }

    /// Auggie's name of tool `tool` of server `server`.
    pub(super) fn native(server: &str, tool: &str) -> String {
        let matchers = TABLES.mcp_names.matchers.expect("Auggie's MCP matchers");
        let mut name = matchers.name(&sanitized(server), &sanitized(tool));
        name.truncate(MAX_LEN);
        name
    }

    /// The canonical name of MCP tool `name` when hookx can split it exactly: the payload's
    /// metadata names the server (and `name` ends with it), or `name` has one `_`. Otherwise
    /// (`read_graph_memory` without metadata could be server `memory` or `graph_memory`)
    /// `None`: the name stays Auggie's and an `mcp__…` matcher does not fire for it.
    pub(super) fn canonical(name: &str, metadata: Option<&Value>) -> Option<String> {
        let server = metadata
            .and_then(|m| m.get(SERVER))
            .and_then(Value::as_str)
            .map(sanitized);
        let (tool, server) = match server {
            Some(server) => (
                name.strip_suffix(server.as_str())?.strip_suffix('_')?,
                server,
            ),
            None => match name.split('_').collect::<Vec<_>>().as_slice() {
                [tool, server] => (*tool, server.to_string()),
                _ => return None,
            },
        };
        (!tool.is_empty() && !server.is_empty())
            .then(|| crate::tables::MCP_CANONICAL.join(&server, tool))
    }
}

/// Run-time protocol rows (conformance/augment-facts.md), read by `crate::protocol`.
mod protocol_rows {
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AnswerField as F, AnswerText, ArgsForm, CANONICAL_CALL_KEYS, EnvValue, Exit2, ExitCodes,
        ProtocolTables, Reshape, Slot, Writes,
    };

    const HSO: &str = "hookSpecificOutput";
    const PRE: &[EventKind] = &[EventKind::PreToolUse];
    /// The events around one tool call, where `continue: false` does not stop the agent.
    const TOOL_CALL: &[EventKind] = &[EventKind::PreToolUse, EventKind::PostToolUse];
    /// Source 0.36.0 (`zIt`): `hookSpecificOutput.decision: "block"` with `reason`, on
    /// PostToolUse and Stop (its answer is unused by the CLI's agent loop, `triggerStopHook`).
    /// Run 0.36.0 (`tests/live_augment.rs` `ground_truth_answer_forms`, issue 25): on
    /// PostToolUse the reason never reaches the model, so PostToolUse is left out and a block
    /// there is written as `additionalContext`, which does. Was `[PostToolUse, Stop]`.
    const BLOCKABLE: &[EventKind] = &[EventKind::Stop];
    /// A top-level `additionalContext` goes to the agent (source 0.36.0 `Gao`): a
    /// PostToolUse's is appended to the tool result after `[Hook Context]` (run 0.36.0);
    /// SessionStart's is read (`sessionStartContext`) but the CLI drops that answer (source),
    /// PromptSubmit's is not waited for.
    const CONTEXT: &[EventKind] = &[EventKind::SessionStart, EventKind::PostToolUse];

    pub(super) const PROTOCOL: ProtocolTables = ProtocolTables {
        reshape: Some(Reshape {
            flatten: super::reshape::flatten,
            nest: super::reshape::nest,
        }),
        // Its rules have matchers: its copies never carry one in `--match`.
        guard_reads_name: None,
        mcp_context_key: None,
        // Run 0.36.0 (`ground_truth_answer_forms`): a JSON deny at exit 1 is not read (the call
        // runs), exit 2 denies with stderr over a JSON allow.
        exit_codes: ExitCodes::ByCode,
        // Source 0.36.0: the last `updatedInput` is the call's new input. Run 0.36.0
        // (`ground_truth_answer_forms`): it runs with `allow` and with no decision.
        updated_input_merges: false,
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
            ("AUGMENT_PROJECT_DIR", EnvValue::ProjectDir),
            ("AUGMENT_CONVERSATION_ID", EnvValue::SessionId),
            ("AUGMENT_HOOK_EVENT", EnvValue::EventName),
        ],
        // Source 0.36.0 (`Wao`): plain stdout at exit 0 goes to the agent on SessionStart only
        // (to the user elsewhere).
        command_text_env: &[],
        plain_stdout_context: &[EventKind::SessionStart],
        // Source 0.36.0 (`wao`, `Dao`): "Exit code 2 only blocks for PreToolUse"; on
        // PostToolUse its stderr joins the tool result.
        exit2: &[
            (EventKind::PreToolUse, Exit2::Deny),
            (EventKind::PostToolUse, Exit2::Context),
        ],
        // Source 0.36.0 (`xao`: `exitCode: c || 0`): a handler killed by a signal is read as
        // at exit 0, its stdout the answer (run: `live_augment::
        // a_deny_from_a_handler_killed_by_a_signal_denies`, attacks row 824).
        signal_exit: Some(0),
        abort_exit: None,
        answer_text: AnswerText::STDOUT,
        // Source 0.36.0: other exit codes, spawn errors and timeouts fail open.
        failure_denies: &[],
        // hookx's own policy for a guard it cannot check is to deny (README).
        fail_closed: &[EventKind::PreToolUse],
        answer: &[
            // Source 0.36.0 (`zIt`): `continue: false` stops; on PreToolUse it blocks the call.
            // Run 0.36.0 (tests/live_augment.rs `ground_truth_answer_forms`, forms
            // `hxprestop`, `hxpoststop`, each alone with a call after it): on PreToolUse
            // `continue: false` blocks the call, on PostToolUse it does nothing, and either way
            // the agent goes on. Neither stops: not written there.
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
            F::new(Slot::UpdatedInput, &[HSO, "updatedInput"], Writes::On(PRE)),
            // Claude's top-level `decision`/`reason` are not read: they go inside.
            F::new(Slot::Decision, &[HSO, "decision"], Writes::On(BLOCKABLE)),
            F::new(Slot::Reason, &[HSO, "reason"], Writes::On(BLOCKABLE)),
            F::new(Slot::Context, &["additionalContext"], Writes::On(CONTEXT)),
            // Source 0.36.0: PostToolUse's and SessionStart's `hookSpecificOutput` take it too.
            F::new(Slot::Context, &[HSO, "additionalContext"], Writes::Never),
        ],
        answer_event_key: Some((HSO, "hookEventName")),
        // Source 0.36.0: the decision is read only from a hook that stops the call (`t.find(v =>
        // !v.shouldContinue)?.permissionDecision`, and only `deny` stops), so an `ask` is parsed
        // and never acted on: the call runs (run: form `nativeask`, `auggie -p`). Auggie cannot
        // ask; a hook's ask is denied there (attacks row 1161).
        permission_values: &[Decision::Allow, Decision::Deny],
        permission_passes: &[],
        permission_defers: &[],
        // Auggie 0.36.0 reads a decision only from the hook that stops the call (source): an allow is
        // never acted on.
        allow_reach: crate::tables::AllowReach::Nothing,
        // `tool_error`, null after a call that succeeded (run 0.36.0).
        failed_call: crate::tables::FailedCall::Marked(&[crate::tables::FailMark {
            path: &["tool_error"],
            is_false: false,
            message: &["tool_error"],
        }]),
        permission_fold: crate::tables::PermissionFold::Strictest,
        rewrite_race: false,
        ignored_blocks: &[],
        decision_ignored: &[],
        block_unread: &[],
        block_withholds_result: &[],
        late_answer: false,
        // 0.36.0: PreToolUse and PostToolUse payloads name no call (attacks row 1382).
        carried_context: None,
        result_forms: super::RESULT_FORMS,
        hook_budget: &[],
    };
}

/// Auggie 0.36.0's tool results, `tool_output` strings (recorded: `tools.04` launch-process,
/// `tools.08` save-file).
const RESULT_FORMS: &[ResultForm] = &[
    ResultForm::of(
        ids::SHELL,
        r#""Here are the results from executing the command.\n<return-code>\n${exit_code}\n</return-code>\n<output>\n${output}\n</output>""#,
    ),
    ResultForm::of(
        ids::WRITE,
        r#""File saved.  Saved file {${input.file_path}}""#,
    ),
    ResultForm::of(ids::SHELL, r#""${output}""#),
];

#[cfg(test)]
mod tests {
    use crate::dialect::{augment, claude};
    use crate::protocol::payload::{decode_event, encode_event};
    use serde_json::{Value, json};

    fn decoded_tool(payload: Value) -> String {
        let (event, _) = decode_event(payload.to_string().as_bytes(), augment::DIALECT)
            .expect("an Auggie payload");
        event.tool.expect("a tool event").name
    }

    fn pre_tool_use(name: &str) -> Value {
        json!({"hook_event_name": "PreToolUse", "conversation_id": "c", "workspace_roots": ["/w"],
            "tool_name": name, "tool_input": {}, "tool_output": "[undefined]",
            "tool_error": null, "is_mcp_tool": true})
    }

    /// Auggie's `TOOL_SERVER` reaches a Claude handler as `mcp__SERVER__TOOL` when the split
    /// is certain: the metadata names the server, or the name has one `_`.
    #[test]
    fn mcp_tools_are_split_when_certain() {
        let mut with_server = pre_tool_use("read_graph_memory");
        with_server["mcp_metadata"] = json!({"mcpExecutedToolServerName": "memory",
            "mcpExecutedToolName": "read_graph"});
        assert_eq!(decoded_tool(with_server), "mcp__memory__read_graph");
        assert_eq!(
            decoded_tool(pre_tool_use("search_github")),
            "mcp__github__search"
        );
        // Server `memory` or `graph_memory`: the name stays Auggie's.
        assert_eq!(
            decoded_tool(pre_tool_use("read_graph_memory")),
            "read_graph_memory"
        );
        // Not an MCP tool: never split.
        let mut native = pre_tool_use("apply_patch");
        native["is_mcp_tool"] = false.into();
        assert_eq!(decoded_tool(native), "apply_patch");
        // Metadata naming another server than the name's end: not split.
        let mut other = pre_tool_use("read_graph_memory");
        other["mcp_metadata"] = json!({"mcpExecutedToolServerName": "github"});
        assert_eq!(decoded_tool(other), "read_graph_memory");
    }

    /// The split name is what a Claude handler sees, and an Augment handler run by hookx for
    /// another host gets Auggie's own spelling back.
    #[test]
    fn mcp_tools_are_spelled_per_handler() {
        let payload = json!({"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/w",
            "tool_name": "mcp__memory__read_graph", "tool_input": {}});
        let (event, _) =
            decode_event(payload.to_string().as_bytes(), claude::DIALECT).expect("Claude");
        let out = encode_event(&event, augment::FLAVOR);
        assert_eq!(out["tool_name"], "read_graph_memory");
        assert_eq!(out["is_mcp_tool"], true);
        let (event, _) =
            decode_event(out.to_string().as_bytes(), augment::DIALECT).expect("Auggie");
        let mut back = encode_event(&event, claude::FLAVOR);
        assert_eq!(
            back["tool_name"], "mcp__memory__read_graph",
            "by mcp_metadata"
        );
        back["tool_name"] = "mcp__github__search".into();
        back.as_object_mut().unwrap().remove("mcp_metadata");
        let (event, _) =
            decode_event(back.to_string().as_bytes(), claude::DIALECT).expect("Claude");
        let out = encode_event(&event, augment::FLAVOR);
        assert_eq!(out["tool_name"], "search_github");
        assert_eq!(
            encode_event(
                &decode_event(out.to_string().as_bytes(), augment::DIALECT)
                    .unwrap()
                    .0,
                claude::FLAVOR
            )["tool_name"],
            "mcp__github__search"
        );
    }
}
