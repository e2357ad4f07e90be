//! Kilo Code's CLI (`@kilocode/cli` 7.7.7): a fork of OpenCode with the same plugin system under
//! its own names: `.kilo/` (and `.kilocode/`) folders, `~/.config/kilo/`, `kilo.json`, `KILO_*`
//! variables. Its tools, arguments, hooks and events are OpenCode's (run 7.7.7: the same ground
//! truth passes, tests/live_opencode.rs); what differs is in conformance/opencode-facts.md. The
//! plugin hookx writes is OpenCode's ([`super::opencode::PLUGIN`]).

use super::opencode::{EVENTS, PAYLOAD_KEYS, PLUGIN, TOOL_ARGS, TOOLS, protocol_rows};
use crate::model::{EventKind, MatcherStyle};
use crate::tables::{ConfigSpec, DocumentKind, Documents, HandlerField, RunKeys};
use crate::tables::{
    DetectSpec, Dialect, DialectDef, Flavor, HostSpec, KeyCase, MatchOn, McpNames, RouteSpec,
    Schema, Tables, TimestampForm, ToolScope,
};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

pub static TABLES: Tables = Tables {
    name: "kilo",
    dialect: Dialect(&DEF),
    events: EVENTS,
    tools: TOOLS,
    tool_args: TOOL_ARGS,
    matcher_targets: &[
        (EventKind::PreToolUse, MatchOn::ToolName),
        (EventKind::PostToolUse, MatchOn::ToolName),
    ],
    matcher_style: MatcherStyle::ListOrRegex {
        list_extra: "",
        separators: "",
    },
    exact_field_matchers: false,
    mcp_names: McpNames {
        prefix: "",
        separator: "_",
        matchers: None,
        builtin: None,
    },
    matcher_tries_names_of: &[],
    key_case: KeyCase::Snake,
    key_renames: &[],
    timestamp: TimestampForm::None,
    default_timeout: [600, 600, 600],
    project_dir_var: None,
    parallel: false,
    first_deny_stops_the_rest: true,
    handler_types: &["command"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: Some("kilo-7.7.7"),
    matcher_values: &[],
    handler_key_overrides: &[],
    invalid_matcher_effect: None,
    tool_scope: ToolScope::Any,
    tool_codecs: &[],
    payload_keys: PAYLOAD_KEYS,
};

pub static FILE: DocumentKind = DocumentKind {
    name: "KiloPlugin",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: None,
    session_env: None,
    frontmatter: false,
};

pub static DEF: DialectDef = DialectDef {
    name: "kilo",
    display: "Kilo Code CLI",
    product: "Kilo Code CLI 7.7.7 (plugins)",
    flavors: &[Flavor(&TABLES)],
    config: &CONFIG,
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
    locations: &[],
    native: &[],
    kill_switch: None,
    disabled_handlers: None,
    managed: None,
    folder_trust: None,
    malformed_entry_skips_file: &[],
    host: HostSpec {
        payload_keys: &[],
        payload_events: &[],
        env_markers: &[],
    },
    route: RouteSpec {
        matcher: None,
        grouped: false,
        group_keys: &[],
        command_key: "command",
        timeout_key: None,
        limit: crate::tables::RouteLimit {
            secs: crate::tables::ROUTE_TIMEOUT,
            on: &[],
        },
        names_project_route: true,
    },
    route_trust: None,
    home_var: None,
    presence: crate::tables::Presence {
        programs: &["kilo"],
        installs: &[],
        folders: &[".kilo", ".kilocode", ".config/kilo"],
    },
    schema: Schema {
        file_name: "kilo.schema.json",
        text: "{}",
    },
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &[],
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
    ],
    flat_handlers: true,
    wrapper_optional: false,
    timeout_millis: false,
    zero_timeout_is_none: false,
    kept_keys: &[],
    project_dir_variable: None,
    provided_env: &[],
    merges_identical_handlers: false,
    version: None,
    install_project: ".kilo/plugin/hookx.js",
    install_user: ".config/kilo/plugin/hookx.js",
    hook_dir_var: None,
    foreign_switches: &[],
    reads_foreign_as: &[],
    run_keys: RunKeys::NONE,
    implied_type: None,
    documents: Documents {
        file: &FILE,
        plugin: None,
        frontmatter: None,
        toml: None,
    },
    plugin_root_var: None,
    convert_target: ".kilo/plugin/hookx-converted.js",
    type_only_on: &[],
    plugins: None,
    scripts: None,
    generated: Some(&PLUGIN),
    rule_list: None,
    json_syntax: crate::tables::JsonSyntax::STRICT,
};
