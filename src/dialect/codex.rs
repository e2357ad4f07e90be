//! Codex CLI: `~/.codex/hooks.json` and `<project>/.codex/hooks.json` (Claude's file shape), the
//! same hooks as `[hooks]` tables in those layers' `config.toml` and in the `/etc/codex` policy,
//! a trust entry per handler in `~/.codex/config.toml`, and `apply_patch` for every edit. Facts:
//! `conformance/codex-facts.md` (Codex CLI 0.171.0, run).

use crate::model::tool::ids;
use crate::model::{EventKind, MatcherStyle};
use crate::tables::ResultForm;
use crate::tables::{
    BrokenPolicy, DetectSpec, Dialect, DialectDef, Flavor, FolderTrust, HostSpec, KeyCase,
    ManagedSpec, MatchOn, RouteSpec, RouteTrust, Schema, Tables, TimestampForm, ToolCodec,
    TrustRecord,
};
use crate::tables::{ConfigSpec, DocumentKind, Documents, HandlerField, RunKeys, TomlForm};
use crate::tables::{Location, Pattern, Root, Scope};
use serde_json::{Value, json};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

/// The tool every edit arrives as: `{"command": PATCH}`.
const APPLY_PATCH: &str = "apply_patch";

pub static TABLES: Tables = Tables {
    name: "codex",
    dialect: Dialect(&DEF),
    // The app-server protocol's `HookEventName` of 0.171.0; every one fired (run).
    events: &[
        (EventKind::SessionStart, "SessionStart"),
        (EventKind::SessionEnd, "SessionEnd"),
        (EventKind::UserPromptSubmit, "UserPromptSubmit"),
        (EventKind::PreModelRequest, "PreModelRequest"),
        (EventKind::PostModelRequest, "PostModelRequest"),
        (EventKind::PreToolUse, "PreToolUse"),
        (EventKind::PermissionRequest, "PermissionRequest"),
        (EventKind::PostToolUse, "PostToolUse"),
        (EventKind::PreCompact, "PreCompact"),
        (EventKind::PostCompact, "PostCompact"),
        (EventKind::SubagentStart, "SubagentStart"),
        (EventKind::SubagentStop, "SubagentStop"),
        (EventKind::Stop, "Stop"),
        (EventKind::Interrupt, "Interrupt"),
    ],
    // `exec_command` reaches hooks as `Bash {command}`; every patch as `apply_patch`, which
    // [`PATCH_CODEC`] turns into a write, an edit or several edits (run). A subagent is spawned
    // by the `collaboration` namespace's `spawn_agent`, whose hook name runs the two together
    // (`--enable multi_agent_v2`, run 0.171.0): a rule on Claude's `Task` guards it (attacks
    // row 1300: none did, so a deny of subagents let every spawn through).
    tools: &[
        (ids::SHELL, &["Bash"]),
        (ids::EDIT, &[APPLY_PATCH]),
        (ids::WRITE, &[APPLY_PATCH]),
        (ids::MULTI_EDIT, &[APPLY_PATCH]),
        (ids::TASK, &["collaborationspawn_agent"]),
    ],
    // The subagent's instructions: Claude's `prompt` is `spawn_agent`'s `message`.
    tool_args: &[(ids::TASK, &[("prompt", "message")])],
    // Matchers on other events are dropped (list); what SessionEnd, PostCompact and subagent
    // matchers filter on no run has shown.
    matcher_targets: &[
        (EventKind::PreToolUse, MatchOn::ToolName),
        (EventKind::PostToolUse, MatchOn::ToolName),
        (EventKind::PermissionRequest, MatchOn::ToolName),
        (EventKind::SessionStart, MatchOn::Field("source")),
        (EventKind::SessionEnd, MatchOn::Unverified),
        (EventKind::PreCompact, MatchOn::Field("trigger")),
        (EventKind::PostCompact, MatchOn::Unverified),
        (EventKind::SubagentStart, MatchOn::Unverified),
        (EventKind::SubagentStop, MatchOn::Unverified),
    ],
    // Exact lists of letters, digits, `_` and `|`, else unanchored regexes (run).
    matcher_style: MatcherStyle::ListOrRegex {
        list_extra: "",
        separators: "",
    },
    tool_scope: crate::tables::ToolScope::Any,
    exact_field_matchers: false,
    stop_fires_for_subagents: false,
    unfired: &[],
    cadences: &[],
    // A patch also answers to `Edit` and `Write` (run).
    matcher_tries_names_of: &[super::claude::FLAVOR],
    // Run 0.171.0 (attacks rows 1593, 1861): `mcp__SERVER__TOOL` with every character of the
    // server's and the tool's name but an ASCII letter, digit or `_` written `_` (`x-y` →
    // `x_y`, `dot.tool` → `dot_tool`, `tö` → `t_`), upper case and `__` kept, a long name
    // whole; no server key. A server whose name holds a space or a non-ASCII letter offers no
    // tool at all.
    mcp_names: crate::tables::McpNames {
        // Rust: a character, whatever its UTF-16 length, is one `_` (not run past the BMP).
        rewrite: Some(crate::tables::NameRewrite {
            kept: "_",
            to: '_',
            per_unit: false,
            punycode: false,
            servers_kept_on: &[],
            cut: None,
            whole: None,
        }),
        ..crate::tables::MCP_CANONICAL
    },
    key_case: KeyCase::Snake,
    value_renames: &[],
    event_values: &[],
    key_renames: &[],
    timestamp: TimestampForm::None,
    // Prompt and agent handlers are skipped (list): only the command default applies.
    default_timeout: [600, 600, 600],
    project_dir_var: None,
    // Started below the project (`-C sub`), it reads the project's `.codex/` at the nearest
    // `.git` above and sends that folder as `cwd` (its `project_root_markers` default; run
    // 0.171.0, attacks row 521).
    project_root_markers: &[".git"],
    // The user's own markers replace `.git` (`[".hg"]`; `[]`: the folder it started in),
    // from `/etc/codex/config.toml` and then `$CODEX_HOME/config.toml`, never a project's
    // (source: codex-rs/core config_loader `project_root_markers_from_config`; run 0.171.0,
    // live_codex::a_project_marked_by_the_users_own_markers_runs_its_guard,
    // no_markers_make_the_folder_codex_started_in_the_project).
    project_root_setting: Some(crate::tables::RootMarkersSetting {
        key: "project_root_markers",
        user_file: ".codex/config.toml",
        policy_file: "config.toml",
        // `--profile work`'s markers win (run 0.171.0:
        // live_codex::a_profiles_project_markers_place_the_project, attacks row 570).
        layer: Some(&PROFILE),
    }),
    project_from: crate::tables::ProjectFrom::Cwd,
    parallel: true,
    first_deny_stops_the_rest: false,
    rewrites_chain: false,
    handler_types: &["command"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: Some("codex 0.171.0"),
    matcher_values: &[],
    handler_key_overrides: &[],
    invalid_matcher_effect: Some("Codex skips this group with a warning"),
    // Every top-level key codex 0.171.0 sent per event (tests/fixtures/recorded/codex-0.171.0).
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
                "transcript_path",
            ],
        ),
        (
            EventKind::UserPromptSubmit,
            &[
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "prompt",
                "session_id",
                "transcript_path",
                "turn_id",
            ],
        ),
        (
            EventKind::PreModelRequest,
            &[
                "agent_id",
                "agent_type",
                "attempt_number",
                "cwd",
                "hook_event_name",
                "kind",
                "model",
                "request_id",
                "session_id",
                "thread_id",
                "transcript_path",
                "turn_id",
            ],
        ),
        (
            EventKind::PostModelRequest,
            &[
                "agent_id",
                "agent_type",
                "attempt_number",
                "cwd",
                "error",
                "hook_event_name",
                "kind",
                "model",
                "request_id",
                "response_id",
                "session_id",
                "status",
                "thread_id",
                "token_usage",
                "transcript_path",
                "turn_id",
            ],
        ),
        (
            EventKind::PreToolUse,
            &[
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "session_id",
                "tool_input",
                "tool_name",
                "tool_use_id",
                "transcript_path",
                "turn_id",
            ],
        ),
        (
            EventKind::PermissionRequest,
            &[
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "session_id",
                "tool_input",
                "tool_name",
                "transcript_path",
                "turn_id",
            ],
        ),
        (
            EventKind::PostToolUse,
            &[
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "session_id",
                "tool_input",
                "tool_name",
                "tool_response",
                "tool_use_id",
                "transcript_path",
                "turn_id",
            ],
        ),
        (
            EventKind::PreCompact,
            &[
                "cwd",
                "hook_event_name",
                "model",
                "session_id",
                "transcript_path",
                "trigger",
                "turn_id",
            ],
        ),
        (
            EventKind::PostCompact,
            &[
                "cwd",
                "hook_event_name",
                "model",
                "session_id",
                "transcript_path",
                "trigger",
                "turn_id",
            ],
        ),
        (
            EventKind::SubagentStart,
            &[
                "agent_id",
                "agent_type",
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "session_id",
                "transcript_path",
                "turn_id",
            ],
        ),
        (
            EventKind::SubagentStop,
            &[
                "agent_id",
                "agent_transcript_path",
                "agent_type",
                "cwd",
                "hook_event_name",
                "last_assistant_message",
                "model",
                "permission_mode",
                "session_id",
                "stop_hook_active",
                "transcript_path",
                "turn_id",
            ],
        ),
        (
            EventKind::Stop,
            &[
                "cwd",
                "hook_event_name",
                "last_assistant_message",
                "model",
                "permission_mode",
                "session_id",
                "stop_hook_active",
                "transcript_path",
                "turn_id",
            ],
        ),
        (
            EventKind::Interrupt,
            &[
                "cwd",
                "hook_event_name",
                "model",
                "permission_mode",
                "session_id",
                "transcript_path",
                "turn_id",
            ],
        ),
    ],
    other_tools: &[],
    renamed_tools: &[],
    tool_codecs: &[PATCH_CODEC],
};

/// `hooks.json`: `{"hooks": {Event: [{matcher?, hooks: [handler]}]}}`.
pub static HOOKS_FILE: DocumentKind = DocumentKind {
    name: "CodexHooks",
    wrapper_optional: false,
    wrapper_ignored: false,
    // Codex 0.171.0 takes a `description` beside `hooks` and refuses the file for any other
    // key (STRICT_LOAD).
    top_keys: Some(&["description"]),
    session_env: None,
    frontmatter: false,
};

/// `config.toml` (user, project, and the machine's `/etc/codex`) and the policy's
/// `requirements.toml`: settings, with the hooks as `[[hooks.Event]]` tables in the shape of
/// `hooks.json` (run).
pub static TOML_FILE: DocumentKind = DocumentKind {
    name: "CodexToml",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: None,
    session_env: None,
    frontmatter: false,
};

/// `codex --profile NAME` (`-p`): `$CODEX_HOME/NAME.config.toml` on top of the user's file;
/// `-c key=value` on top of both.
static PROFILE: crate::tables::ConfigLayer = crate::tables::ConfigLayer {
    program: "codex",
    options: &["--profile", "-p"],
    file: ".codex/{}.config.toml",
    overrides: &["-c", "--config"],
    source: "run: live_codex::a_wrapper_copy_beside_a_user_route_a_profile_turns_off, a_wrapper_copy_beside_a_user_route_an_override_turns_off (Codex CLI 0.171.0); `codex exec --help`: \"Layer $CODEX_HOME/<name>.config.toml on top of the base user config\", \"-c, --config <key=value> Override a configuration value\"",
};

pub static DEF: DialectDef = DialectDef {
    name: "codex",
    display: "Codex",
    product: "Codex CLI",
    flavors: &[Flavor(&TABLES)],
    config: &CONFIG,
    // Its hooks.json is Claude's plugin file in shape: only the folder tells.
    detect: DetectSpec {
        dirs: &[".codex/"],
        file_names: &[],
        unmarked: false,
        sole_event_flavors: &[],
        sole_top_keys: &[],
        sole_handler_keys: &[],
        top_keys: &[],
        handler_keys: &[],
        preferred: false,
    },
    // `$CODEX_HOME` (default `~/.codex`) is read as `~/.codex`. The project layer loads only
    // in a project Codex trusts.
    locations: &[
        Location {
            id: "codex-user",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".codex/hooks.json"),
        },
        Location {
            id: "codex-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".codex/hooks.json"),
        },
        // The same layers' `config.toml [hooks]`: both representations load (run).
        Location {
            id: "codex-user-toml",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::File(".codex/config.toml"),
        },
        Location {
            id: "codex-project-toml",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::File(".codex/config.toml"),
        },
        // The machine's policy: `requirements.toml` `[hooks]` (managed hooks) and the system
        // `config.toml` `[hooks]`; both run without a trust review (source, run).
        Location {
            id: "codex-managed-requirements",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::File("requirements.toml"),
        },
        Location {
            id: "codex-managed-config",
            dialect: Dialect(&DEF),
            scope: Scope::Managed,
            root: Root::Managed,
            pattern: Pattern::File("config.toml"),
        },
    ],
    native: &[
        "codex-user",
        "codex-project",
        "codex-user-toml",
        "codex-project-toml",
        "codex-managed-requirements",
        "codex-managed-config",
    ],
    kill_switch: None,
    disabled_handlers: None,
    // `/etc/codex` on Linux and macOS (source: `SYSTEM_CONFIG_TOML_FILE_UNIX`, the system
    // `requirements.toml`); the macOS MDM profile and the cloud requirements are not files and
    // are not read. No variable moves the folder (binary 0.171.0).
    managed: Some(ManagedSpec {
        dirs: &[("linux", "/etc/codex"), ("macos", "/etc/codex")],
        // `allow_managed_hooks_only = true` in requirements.toml runs only the policy's hooks
        // (requirements and system config.toml): run 0.171.0, tests/live_codex_managed.rs.
        only_managed_key: Some("allow_managed_hooks_only"),
        hooks_off: None,
        // Not verified (what Codex does with a policy file that does not parse): taken as
        // skipped, the rest read, as before these facts existed.
        broken_policy: BrokenPolicy::Skipped,
        // Not verified either: read whoever owns it.
        root_owned_only: false,
        moved_by: &[],
        // Codex has no kill switch.
        kill_switch_reaches_policy: false,
        any_kill_switch_reaches_policy: false,
        source: "source: openai/codex codex-rs/config (requirements.toml `allow_managed_hooks_only`, \
                 `[hooks]` managed hooks, /etc/codex); run 0.171.0 (tests/live_codex_managed.rs)",
    }),
    // The project layer loads only in a project Codex trusts (run: `only_trusted_handlers_run`),
    // by the exact real path of the project (source: codex-rs/config loader,
    // `project_trust_for_lookup_key`).
    folder_trust: Some(FolderTrust {
        locations: &["codex-project", "codex-project-toml"],
        record: TrustRecord::TomlTable {
            file: ".codex/config.toml",
            table: "projects",
            key: "trust_level",
            trusted: "trusted",
        },
        record_var: None,
        trust_vars: &[],
        set_after_load: &[],
        distrust_vars: &[],
        off_setting: None,
        fix: "run `codex exec --trust` once in the project (or accept the trust prompt of `codex`)",
        untrusted: "Codex does not load the project's `.codex/` folder, in `codex exec` or \
                    interactively, so none of its hooks run",
        // Run 0.171.0 in a linked worktree (tests/live_codex.rs
        // codex_loads_the_checkouts_hooks_file_in_a_worktree): the checkout's file and trust.
        main_checkout_in_worktree: true,
        source: "run 0.171.0 (tests/live_codex.rs only_trusted_handlers_run); source: openai/codex \
                 codex-rs/config/src/loader (project trust by exact path)",
    }),
    malformed_entry_skips_file: &[],
    // Its payloads carry Claude's keys too; `turn_id`, its own events and the keys of its
    // recorded payloads (`payload_keys` above: `model` where Claude has `prompt_id`) tell it
    // apart; it sets no variable of its own (run).
    host: HostSpec {
        payload_keys: &["turn_id"],
        payload_events: &[
            EventKind::PreModelRequest,
            EventKind::PostModelRequest,
            EventKind::Interrupt,
        ],
        env_markers: &[],
    },
    route: RouteSpec {
        matcher: None,
        grouped: true,
        group_keys: &[],
        command_key: "command",
        timeout_key: Some("timeout"),
        // List (codex-facts.md): a handler's `timeout` (seconds, default 600) is its limit;
        // SessionEnd and Interrupt handlers get 1 s by default and at most 3 (a longer one is
        // clamped, with a warning): their routes say 1, Codex's default.
        limit: crate::tables::RouteLimit {
            secs: crate::tables::ROUTE_TIMEOUT,
            // codex-facts.md: "SessionEnd and Interrupt: default 1, clamped to at most 3".
            on: &[
                crate::tables::EventLimit {
                    kind: EventKind::SessionEnd,
                    secs: 1,
                    most: 3,
                },
                crate::tables::EventLimit {
                    kind: EventKind::Interrupt,
                    secs: 1,
                    most: 3,
                },
            ],
        },
        // The user and the project layer both load, each handler keyed by its file
        // (codex-facts.md): both routes would (tests/double_runs.rs).
        names_project_route: true,
        // Codex loads the `.codex/` of every folder from the project's root down to where it
        // started (source: `load_project_layers`; run: attacks row 670).
        names_folder: true,
    },
    // Codex skips every handler its `/hooks` review has not trusted by hash (run).
    route_trust: Some(RouteTrust {
        file: ".codex/config.toml",
        records: trust::records,
        set: trust::set,
        unset: trust::unset,
        hash: trust::recorded_hash,
        enabled: trust::enabled,
        // Run 0.171.0 (`live_codex::a_wrapper_copy_beside_a_user_route_a_profile_turns_off`,
        // attacks row 605): `codex exec --profile work` with `[hooks.state."KEY"] enabled =
        // false` in `work.config.toml` does not run the handler of KEY.
        layer: Some(&PROFILE),
    }),
    home_var: Some(crate::tables::HomeVar {
        var: "CODEX_HOME",
        dir: ".codex",
        source: "codex-facts.md: `$CODEX_HOME/hooks.json`, `$CODEX_HOME/config.toml` (default `~/.codex`)",
    }),
    scope_option: None,
    presence: crate::tables::Presence {
        programs: &["codex"],
        installs: &[],
        folders: &[".codex"],
    },
    schema: Schema {
        file_name: "codex.schema.json",
        text: include_str!("../../schemas/codex.schema.json"),
    },
};

/// Codex 0.171.0 reads `hooks.json` as one typed value (run, `hooks/list`: the file's hooks are
/// gone and its warnings say `failed to parse hooks config … missing field \`type\``, `invalid
/// type: map` for a timeout of `1.5` or `2.0`, `unknown field \`version\``); the session goes on
/// without a word. Unknown handler and rule keys are kept, an unknown event is skipped.
const STRICT_LOAD: crate::tables::StrictLoad = crate::tables::StrictLoad {
    seen: "Codex 0.171.0 refuses the whole file for it (\"failed to parse hooks config\", said only in its /hooks list) and runs none of its hooks",
    // A `config.toml` with such a handler stops Codex itself: `codex exec` prints "Error
    // loading config.toml: invalid type: floating point `1.5`, expected u64 in `hooks`" and runs
    // nothing (run); `hooks/list` says "missing field `type`" as an error.
    toml_seen: Some(
        "Codex 0.171.0 refuses the whole config.toml for it (\"Error loading config.toml\") and does not start",
    ),
    needs_type: true,
    whole_seconds: true,
    known_top_keys: true,
    // Run 0.171.0 (`live_codex::hooks_json_forms_codex_refuses_whole`, attacks row 1689): a
    // value of the wrong type (a string timeout, a number as command or matcher, a string
    // `async`, an event that is `null`) refuses the file too; a `null` timeout and a `prompt`
    // handler it loads the file with.
    reader_errors: true,
    setting_types: &[],
    whole_file_on: None,
    zero_timeout: false,
    service_needs: &[],
    handler_key_types: &[],
    null_matcher: false,
    null_event_is_none: false,
    negative_timeout_loads: false,
    // Run 0.171.0 (`live_codex::hooks_json_forms_codex_refuses_whole`, attacks row 1685):
    // `hooks`, an event, a matcher or a handler's `command` twice each refuse the file.
    duplicate_keys: true,
    loads_despite: &[
        "must be a positive number of seconds, found null",
        "has no `prompt` handlers",
    ],
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &[],
    handler_keys: &[
        ("type", HandlerField::Type),
        ("command", HandlerField::Command),
        ("commandWindows", HandlerField::Windows),
        ("timeout", HandlerField::Timeout),
        ("async", HandlerField::Async),
        ("statusMessage", HandlerField::StatusMessage),
    ],
    flat_handlers: false,
    wrapper_optional: false,
    implied_type: None,
    strict_load: Some(STRICT_LOAD),
    matcher_not_string_stops_event: false,
    // Codex sets no variable for hooks; they run in the project directory (run).
    project_dir_variable: None,
    provided_env: &[],
    merges_identical_handlers: false,
    version: None,
    stamp: None,
    project_env: crate::tables::ProjectEnv::NONE,
    install_project: ".codex/hooks.json",
    install_user: ".codex/hooks.json",
    install_hidden_by: &[],
    hook_dir_var: None,
    foreign_switches: &[],
    reads_foreign_as: &[],
    run_keys: RunKeys::NONE,
    documents: Documents {
        file: &HOOKS_FILE,
        plugin: None,
        frontmatter: None,
        toml: Some(TomlForm {
            kind: &TOML_FILE,
            // `state`: the trust review's records (config.toml); `managed_dir` and
            // `windows_managed_dir`: the policy's script folder (requirements.toml).
            hook_settings: &["state", "managed_dir", "windows_managed_dir"],
        }),
    },
    plugin_root_var: None,
    plugin_text: &[],
    convert_target: ".codex/hooks.json",
    type_only_on: &[],
    plugins: None,
    extension_switch: None,
    timeout_unit: crate::tables::TimeoutUnit::Seconds,
    zero_timeout_is_none: false,
    timer_limit_ms: None,
    skips_entry_without_positive_timeout: false,
    skips_entry_without_type: false,
    timeout_numeric_strings: false,
    kept_keys: &[],
    scripts: None,
    generated: None,
    rule_list: None,
    // Run 0.171.0 (`tests/live_codex.rs`): a `hooks.json` with a comment or a trailing comma
    // is dropped without a word.
    // `codex exec --trust` and the trust prompt write `[projects."<path>"] trust_level` into
    // `~/.codex/config.toml` (`folder_trust` above, run 0.171.0); hookx reads that table only
    // as Codex's folder trust, never as hooks. Its review of handlers (`/hooks`, the startup
    // "Trust all and continue") writes `[hooks.state."KEY"] trusted_hash` and `enabled` there
    // (binary 0.171.0: `hooks.state."`, `TrustHook`, `SetHookEnabled`; codex-facts "Trust"):
    // hookx reads those only as Codex's review of what Codex runs (`hook_settings`, never an
    // event), so they change nothing hookx runs from the file under another host. `codex mcp
    // add` writes `[mcp_servers.NAME]` there (run 0.171.0, attacks row 1241).
    agent_keys: &["projects", "hooks.state", "mcp_servers"],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax::STRICT,
};

/// `apply_patch {command: PATCH}` ↔ Write, Edit, MultiEdit with the patch's path.
const PATCH_CODEC: ToolCodec = ToolCodec {
    name: APPLY_PATCH,
    ids: &[ids::WRITE, ids::EDIT, ids::MULTI_EDIT],
    decode: patch::decode,
    encode: patch::encode,
};

/// Codex's patch format: `*** Begin Patch`, then per file `*** Add File: P` (lines `+…`),
/// `*** Update File: P` (optional `*** Move to: Q`, hunks `@@ …` of ` `, `-`, `+` lines) or
/// `*** Delete File: P`, then `*** End Patch`.
pub(super) mod patch {
    use super::*;

    enum Op {
        Add {
            path: String,
            lines: Vec<String>,
        },
        Update {
            path: String,
            moved: bool,
            hunks: Vec<(Vec<String>, Vec<String>)>,
        },
        Delete,
    }

    fn parse(text: &str) -> Option<Vec<Op>> {
        let mut lines = text.lines();
        if lines.next()?.trim() != "*** Begin Patch" {
            return None;
        }
        let mut ops: Vec<Op> = Vec::new();
        for line in lines {
            if let Some(path) = line.strip_prefix("*** Add File: ") {
                ops.push(Op::Add {
                    path: path.trim().to_string(),
                    lines: Vec::new(),
                });
            } else if let Some(path) = line.strip_prefix("*** Update File: ") {
                ops.push(Op::Update {
                    path: path.trim().to_string(),
                    moved: false,
                    hunks: Vec::new(),
                });
            } else if line.starts_with("*** Delete File: ") {
                ops.push(Op::Delete);
            } else if line.starts_with("*** Move to: ") {
                if let Some(Op::Update { moved, .. }) = ops.last_mut() {
                    *moved = true;
                }
            } else if line.trim() == "*** End Patch" {
                return Some(ops);
            } else if line.starts_with("*** ") {
                // `*** End of File` and the like change no text.
            } else {
                match ops.last_mut()? {
                    Op::Add { lines, .. } => lines.push(line.strip_prefix('+')?.to_string()),
                    Op::Update { hunks, .. } => {
                        if line.starts_with("@@") || hunks.is_empty() {
                            hunks.push((Vec::new(), Vec::new()));
                        }
                        if line.starts_with("@@") {
                            continue;
                        }
                        let (old, new) = hunks.last_mut()?;
                        match line.split_at(line.chars().next().map_or(0, char::len_utf8)) {
                            ("-", rest) => old.push(rest.to_string()),
                            ("+", rest) => new.push(rest.to_string()),
                            (" ", rest) | ("", rest) => {
                                old.push(rest.to_string());
                                new.push(rest.to_string());
                            }
                            _ => return None,
                        }
                    }
                    Op::Delete => return None,
                }
            }
        }
        None
    }

    fn absolute(path: &str, cwd: Option<&str>) -> String {
        match cwd {
            Some(cwd) if !std::path::Path::new(path).is_absolute() => {
                std::path::Path::new(cwd).join(path).display().to_string()
            }
            _ => path.to_string(),
        }
    }

    /// A patch of one added or updated file is a Write, an Edit or a MultiEdit of that file;
    /// deletions, moves and patches of several files have no canonical tool.
    pub(in crate::dialect) fn decode(
        input: &Value,
        cwd: Option<&str>,
    ) -> Option<(&'static str, Value)> {
        let mut ops = parse(input.get("command")?.as_str()?)?;
        if ops.len() != 1 {
            return None;
        }
        let joined = |lines: &[String]| lines.join("\n");
        match ops.pop()? {
            Op::Add { path, lines } => Some((
                ids::WRITE,
                json!({"file_path": absolute(&path, cwd), "content": joined(&lines) + "\n"}),
            )),
            Op::Update {
                path,
                moved: false,
                hunks,
            } => {
                let file_path = absolute(&path, cwd);
                match hunks.as_slice() {
                    [(old, new)] => Some((
                        ids::EDIT,
                        json!({"file_path": file_path, "old_string": joined(old),
                            "new_string": joined(new)}),
                    )),
                    [] => None,
                    several => {
                        let edits: Vec<Value> = several
                            .iter()
                            .map(|(old, new)| {
                                json!({"old_string": joined(old), "new_string": joined(new)})
                            })
                            .collect();
                        Some((
                            ids::MULTI_EDIT,
                            json!({"file_path": file_path, "edits": edits}),
                        ))
                    }
                }
            }
            Op::Update { .. } | Op::Delete => None,
        }
    }

    /// The patch Codex would send for a canonical Write, Edit or MultiEdit.
    pub(in crate::dialect) fn encode(id: &str, input: &Value, _cwd: Option<&str>) -> Option<Value> {
        let path = input.get("file_path")?.as_str()?;
        let prefixed = |text: &str, mark: char| -> String {
            text.lines().map(|l| format!("{mark}{l}\n")).collect()
        };
        let hunk = |edit: &Value| -> Option<String> {
            let old = edit.get("old_string")?.as_str()?;
            let new = edit.get("new_string")?.as_str()?;
            Some(format!("@@\n{}{}", prefixed(old, '-'), prefixed(new, '+')))
        };
        let body = match id {
            ids::WRITE => format!(
                "*** Add File: {path}\n{}",
                prefixed(input.get("content")?.as_str()?, '+')
            ),
            // An edit given as a list of edits (Cursor's `afterFileEdit`): one hunk each.
            ids::EDIT | ids::MULTI_EDIT if input.get("edits").is_some() => {
                let hunks: Option<String> =
                    input.get("edits")?.as_array()?.iter().map(hunk).collect();
                format!("*** Update File: {path}\n{}", hunks?)
            }
            // An edit given as a unified diff (Copilot's `edit` permission request): its hunks.
            ids::EDIT if input.get("old_string").is_none() => format!(
                "*** Update File: {path}\n{}",
                hunks_of_diff(input.get("diff")?.as_str()?)?
            ),
            ids::EDIT => format!("*** Update File: {path}\n{}", hunk(input)?),
            _ => return None,
        };
        Some(json!({ "command": format!("*** Begin Patch\n{body}*** End Patch\n") }))
    }

    /// The hunks of a unified diff as patch hunks: each `@@ … @@` starts one, ` `, `-` and `+`
    /// lines carry over, file headers are dropped.
    fn hunks_of_diff(diff: &str) -> Option<String> {
        let mut out = String::new();
        let mut in_hunk = false;
        for line in diff.lines() {
            if line.starts_with("@@") {
                in_hunk = true;
                out.push_str("@@\n");
            } else if in_hunk && line.starts_with([' ', '-', '+']) {
                out.push_str(line);
                out.push('\n');
            }
        }
        (!out.is_empty()).then_some(out)
    }
}

/// Codex's handler trust (conformance/codex-facts.md, "Trust", checked against Codex 0.171.0's
/// own `hooks/list`): one `[hooks.state."KEY"] trusted_hash = "sha256:HEX"` table per handler
/// in `~/.codex/config.toml`.
pub mod trust {
    use super::*;
    use sha2::Digest;
    use std::collections::BTreeMap;
    use std::path::Path;

    /// `PreToolUse` → `pre_tool_use`: the event label of trust keys.
    fn label(event: &str) -> String {
        let mut out = String::new();
        for (i, c) in event.chars().enumerate() {
            if c.is_ascii_uppercase() && i > 0 {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        }
        out
    }

    /// The SHA-256, over the compact JSON with sorted keys, of `{event_name, matcher?, hooks:
    /// [{type, command, timeout, async, statusMessage?}]}`: the timeout as Codex normalises it
    /// (default 600 s, at least 1; SessionEnd and Interrupt default 1, at most 3), the matcher
    /// only on events that take one, `commandWindows` never.
    pub fn hash(event: &str, matcher: Option<&Value>, handler: &Value) -> String {
        let short = matches!(event, "SessionEnd" | "Interrupt");
        let timeout = match handler.get("timeout").and_then(Value::as_u64) {
            Some(t) if short => t.clamp(1, 3),
            Some(t) => t.max(1),
            None if short => 1,
            None => 600,
        };
        let mut hook = BTreeMap::new();
        hook.insert("type", json!("command"));
        hook.insert(
            "command",
            handler.get("command").cloned().unwrap_or(Value::Null),
        );
        hook.insert("timeout", json!(timeout));
        let is_async = handler.get("async").and_then(Value::as_bool);
        hook.insert("async", json!(is_async.unwrap_or(false)));
        if let Some(status) = handler.get("statusMessage") {
            hook.insert("statusMessage", status.clone());
        }
        let mut identity = BTreeMap::new();
        identity.insert("event_name", json!(label(event)));
        identity.insert("hooks", json!([hook]));
        let takes_matcher = TABLES
            .event_kind(event)
            .is_some_and(|kind| TABLES.matcher_target(&kind).is_some());
        if let (true, Some(m)) = (takes_matcher, matcher) {
            identity.insert("matcher", m.clone());
        }
        // Maps serialise with sorted keys, as Codex's canonical JSON does.
        let bytes = serde_json::to_vec(&identity).unwrap_or_default();
        let hex: String = sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        format!("sha256:{hex}")
    }

    /// The trust keys and hashes of the command handlers of `hook_file` (a hooks.json value,
    /// read from `path`) that `is_route` accepts.
    pub fn records(
        path: &Path,
        hook_file: &Value,
        is_route: &dyn Fn(&Value) -> bool,
    ) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let Some(events) = hook_file.get("hooks").and_then(Value::as_object) else {
            return out;
        };
        for (event, groups) in events {
            if TABLES.event_kind(event).is_none() {
                continue;
            }
            for (g, group) in groups.as_array().into_iter().flatten().enumerate() {
                let handlers = group.get("hooks").and_then(Value::as_array);
                for (h, handler) in handlers.into_iter().flatten().enumerate() {
                    let command = handler.get("command").and_then(Value::as_str);
                    if handler.get("type").and_then(Value::as_str) != Some("command")
                        || command.is_none()
                        || !is_route(handler)
                    {
                        continue;
                    }
                    let key = format!("{}:{}:{g}:{h}", path.display(), label(event));
                    out.push((key, hash(event, group.get("matcher"), handler)));
                }
            }
        }
        out
    }

    /// The key as a TOML basic string: JSON's escapes, and DEL, which JSON writes raw and TOML
    /// refuses raw (a project folder named with it could not be installed, row 184).
    fn header(key: &str) -> String {
        format!(
            "[hooks.state.{}]",
            json!(key).to_string().replace('\u{7f}', "\\u007F")
        )
    }

    fn parse(text: &str) -> Result<toml_edit::DocumentMut, String> {
        text.parse::<toml_edit::DocumentMut>()
            .map_err(|e| e.to_string().trim_end().to_string())
    }

    fn trusted(doc: &toml_edit::DocumentMut, key: &str) -> Option<String> {
        let state = doc.get("hooks")?.get("state")?;
        Some(state.get(key)?.get("trusted_hash")?.as_str()?.to_string())
    }

    /// The `trusted_hash` the config text records for `key`, whatever its `enabled`.
    pub fn recorded_hash(text: &str, key: &str) -> Option<String> {
        trusted(&parse(text).ok()?, key)
    }

    /// The `trusted_hash` the config text records for `key`, if the record holds: not
    /// `enabled = false` (the table's [`crate::tables::RouteTrust::recorded`]).
    pub fn recorded(text: &str, key: &str) -> Option<String> {
        super::DEF.route_trust.as_ref()?.recorded(text, key)
    }

    /// The `enabled` the config text sets for the handler of `key`, if it does (`false`, set
    /// by the user in Codex's `/hooks`, turns it off).
    pub fn enabled(text: &str, key: &str) -> Option<bool> {
        switch(&parse(text).ok()?, key)
    }

    fn switch(doc: &toml_edit::DocumentMut, key: &str) -> Option<bool> {
        doc.get("hooks")?
            .get("state")?
            .get(key)?
            .get("enabled")?
            .as_bool()
    }

    /// The lines of the table under `header`: its header line and the lines up to the next
    /// table header.
    fn table_lines(lines: &[&str], header: &str) -> Option<std::ops::Range<usize>> {
        let is_header = |l: &str| l.trim_start().starts_with('[');
        let start = lines.iter().position(|l| {
            l.trim() == header
                || l.trim()
                    .strip_prefix(header)
                    .is_some_and(|r| r.trim_start().starts_with('#'))
        })?;
        let end = (start + 1..lines.len())
            .find(|&i| is_header(lines[i]))
            .unwrap_or(lines.len());
        Some(start..end)
    }

    /// The file's line end: CRLF when it has one (a Windows editor), else LF.
    fn newline(text: &str) -> &'static str {
        if text.contains("\r\n") { "\r\n" } else { "\n" }
    }

    /// `text` with `trusted_hash` set for each record: its table's line replaced or added, a
    /// new table appended; every other line kept as it was. Checked by parsing before and
    /// after: a file that is no TOML, or that defines a record in a form hookx does not edit
    /// (inline tables, dotted keys), is refused.
    pub fn set(text: &str, records: &[(String, String)]) -> Result<String, String> {
        parse(text)?;
        let nl = newline(text);
        let mut out = text.to_string();
        for (key, hash) in records {
            if trusted(&parse(&out)?, key).as_deref() == Some(hash.as_str()) {
                continue;
            }
            let line = format!("trusted_hash = {}", json!(hash));
            // Each line with its own end (a file edited on two systems has both).
            let mut lines: Vec<String> = out.split_inclusive('\n').map(str::to_string).collect();
            let view: Vec<&str> = lines.iter().map(String::as_str).collect();
            match table_lines(&view, &header(key)) {
                Some(range) => {
                    let at = range.clone().skip(1).find(|&i| {
                        let l = lines[i].trim_start();
                        l.strip_prefix("trusted_hash")
                            .is_some_and(|r| r.trim_start().starts_with('='))
                    });
                    for l in &mut lines {
                        if !l.ends_with('\n') {
                            l.push_str(nl);
                        }
                    }
                    match at {
                        Some(i) => {
                            let end = if lines[i].ends_with("\r\n") {
                                "\r\n"
                            } else {
                                "\n"
                            };
                            lines[i] = format!("{line}{end}");
                        }
                        None => lines.insert(range.start + 1, format!("{line}{nl}")),
                    }
                    out = lines.concat();
                }
                None => {
                    // The file as it is, each line's end kept, then a blank line (which
                    // `unset` takes out with the table).
                    let mut text = match out.trim().is_empty() {
                        true => String::new(),
                        false => out.clone(),
                    };
                    if !text.is_empty() {
                        if !text.ends_with('\n') {
                            text.push_str(nl);
                        }
                        text.push_str(nl);
                    }
                    out = format!("{text}{}{nl}{line}{nl}", header(key));
                }
            }
            let doc = parse(&out).map_err(|e| {
                format!("the trust of {key} cannot be added where the file defines it: {e}")
            })?;
            if trusted(&doc, key).as_deref() != Some(hash.as_str()) {
                return Err(format!(
                    "`hooks.state` entry {key} is written in a form hookx does not edit"
                ));
            }
        }
        Ok(out)
    }

    /// `text` without the `[hooks.state."KEY"]` tables of these keys.
    /// Each line keeps its own end (a file edited on two systems has both).
    pub fn unset(text: &str, keys: &[String]) -> Result<String, String> {
        parse(text)?;
        let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
        for key in keys {
            if let Some(range) = table_lines(&lines, &header(key)) {
                let start = range.start;
                lines.drain(range);
                // The blank line `set` put before a table it appended goes with it.
                if start == lines.len() && start > 0 && lines[start - 1].trim().is_empty() {
                    lines.pop();
                }
            }
        }
        let out = lines.concat();
        parse(&out)?;
        Ok(out)
    }
}

/// Run-time protocol rows (conformance/codex-facts.md), read by `crate::protocol`.
mod protocol_rows {
    use crate::model::{Decision, EventKind};
    use crate::tables::{
        AnswerField as F, AnswerText, ArgsForm, CANONICAL_CALL_KEYS, Exit2, ExitCodes,
        ProtocolTables, Slot, Writes,
    };

    const HSO: &str = "hookSpecificOutput";
    const PRE: &[EventKind] = &[EventKind::PreToolUse];
    const PERM: &[EventKind] = &[EventKind::PermissionRequest];
    /// `decision: "block"` + `reason` (run): UserPromptSubmit ends the run before the model
    /// sees the prompt, PostToolUse replaces the tool's output with the reason, Stop continues
    /// the turn with the reason.
    const BLOCKABLE: &[EventKind] = &[
        EventKind::UserPromptSubmit,
        EventKind::PostToolUse,
        EventKind::Stop,
    ];
    /// `hookSpecificOutput.additionalContext` reaches the model as a developer message (run).
    const CONTEXT: &[EventKind] = &[
        EventKind::SessionStart,
        EventKind::UserPromptSubmit,
        EventKind::PreToolUse,
        EventKind::PostToolUse,
    ];

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
        // Codex sets no variable of its own for hooks (run).
        env: &[],
        // Plain stdout on PreToolUse reaches nobody (run); elsewhere unknown.
        command_text_env: &[],
        plain_stdout_context: &[],
        // Run 0.171.0: exit 2 denies with stderr as the reason; with stderr empty the call runs
        // (`ground_truth_updated_input`), which hookx, reading a Codex handler, still takes
        // for a deny (the stricter reading).
        exit2: &[(EventKind::PreToolUse, Exit2::Deny)],
        exit_codes: ExitCodes::ByCode,
        signal_exit: None,
        abort_exit: None,
        answer_text: AnswerText::STDOUT,
        failure_denies: &[],
        fail_closed: &[EventKind::PreToolUse, EventKind::PermissionRequest],
        answer: &[
            F::new(
                Slot::Permission,
                &[HSO, "permissionDecision"],
                Writes::On(PRE),
            ),
            // Run 0.171.0: a deny without a non-empty reason is refused and the call runs;
            // hookx writes a reason with every deny.
            F::new(
                Slot::PermissionReason,
                &[HSO, "permissionDecisionReason"],
                Writes::On(PRE),
            ),
            // Run 0.171.0 (`ground_truth_updated_input`): beside `permissionDecision: "allow"` at
            // exit 0, the rewritten command (`{command}`; a patch: `{command: PATCH}`) runs
            // instead, and PostToolUse sees it. Without a decision, with `ask`, `deny` or
            // `decision: "approve"` the whole answer is refused: the original runs (see
            // `updated_input_needs_allow`). On PermissionRequest (`decision.updatedInput`) the
            // answer is refused and Codex's own review decides: not written there.
            F::new(Slot::UpdatedInput, &[HSO, "updatedInput"], Writes::On(PRE)),
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
            // Also `{"decision": "block"}` on PreToolUse, which denies (run).
            F::new(Slot::Decision, &["decision"], Writes::On(BLOCKABLE)),
            F::new(Slot::Reason, &["reason"], Writes::On(BLOCKABLE)),
            F::new(
                Slot::Context,
                &[HSO, "additionalContext"],
                Writes::On(CONTEXT),
            ),
        ],
        updated_input_merges: false,
        // Run 0.171.0: a rewrite counts only beside `allow`; a PreToolUse `allow` does not skip
        // Codex's own approval (PermissionRequest still fires, on the rewritten command).
        updated_input_needs_allow: true,
        reason_alone_is_context: false,
        answer_event_key: Some((HSO, "hookEventName")),
        // `ask` runs the call like `allow` (run): only allow and deny decide.
        permission_values: &[Decision::Allow, Decision::Deny],
        permission_passes: &[],
        permission_defers: &[],
        // The 1 s SessionEnd and Interrupt routes get is their route's limit (`RouteLimit::on`).
        // Run 0.171.0 (codex-facts): a PreToolUse allow does not skip Codex's own approval.
        allow_reach: crate::tables::AllowReach::Nothing,
        // PostToolUse after a failed command too (exit 1 or 127), its result the output text
        // alone: nothing tells it apart. None after a patch that does not apply (nor after a
        // failed `view_image`, which no other agent has); run 0.171.0, `failed.*`, attacks
        // row 1842.
        failed_call: crate::tables::FailedCall::Unfired(&[
            crate::model::tool::ids::WRITE,
            crate::model::tool::ids::EDIT,
            crate::model::tool::ids::MULTI_EDIT,
        ]),
        permission_fold: crate::tables::PermissionFold::Strictest,
        // codex-rs `hooks/src/events/pre_tool_use.rs` (`latest_updated_input`): "resolves
        // competing rewrites by completion order"; 0.171.0 ran the first hook's of two in 2 of
        // 6 probes (attacks row 2220).
        rewrite_race: true,
        ignored_blocks: &[],
        // Binary 0.171.0: the output schemas of these events (`session-start.command.output`,
        // `pre-compact.command.output`, …) have no `decision` and allow no other key (attacks
        // row 1571).
        decision_ignored: &[
            EventKind::SessionStart,
            EventKind::SubagentStart,
            EventKind::PreCompact,
            EventKind::PostCompact,
        ],
        block_unread: &[],
        // PostToolUse `decision: block` replaces the tool's output with the reason (run).
        block_withholds_result: &[EventKind::PostToolUse],
        late_answer: false,
        carried_context: None,
        result_forms: super::RESULT_FORMS,
        hook_budget: &[],
    };
}

#[cfg(test)]
#[path = "codex_tests.rs"]
mod tests;

/// Codex CLI 0.171.0's shell result: its output, a string (recorded `tools.6`).
const RESULT_FORMS: &[ResultForm] = &[ResultForm::of(ids::SHELL, r#""${output}""#)];
