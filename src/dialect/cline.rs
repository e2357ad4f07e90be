//! Cline CLI: no config file, but one executable per event, named after it, in hook folders
//! ([`ScriptLayout`]). Payloads are camelCase with the event's own keys nested under its name
//! (`preToolUse: {toolName, parameters}`, parameter values JSON-encoded strings) beside
//! `tool_call {id, name, input}`; answers `{cancel, errorMessage, contextModification}`, where a
//! PreToolUse `cancel: true` ends the whole run. Facts: conformance/cline-facts.md (run: cline
//! 3.0.65, `tests/live_cline.rs`; "source" facts read in its bundled JavaScript).

use crate::model::tool::ids;
use crate::model::{EventKind, MatcherStyle};
use crate::tables::ResultForm;
use crate::tables::{ConfigSpec, DocumentKind, Documents, RunKeys, ScriptLayout};
use crate::tables::{
    DetectSpec, Dialect, DialectDef, Flavor, HostSpec, KeyCase, RouteSpec, Schema, Tables,
    TimestampForm, ToolCodec,
};
use crate::tables::{Location, Pattern, Root, Scope};
use serde_json::{Map, Value, json};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

/// The shell tool: `{commands: [LINE, …]}`, each line run in turn.
const RUN_COMMANDS: &str = "run_commands";
/// Every edit: `{input: PATCH}` in Codex's patch grammar (offered in the 3.0.65 run; its
/// description names the grammar).
const APPLY_PATCH: &str = "apply_patch";

pub static TABLES: Tables = Tables {
    name: "cline",
    dialect: Dialect(&DEF),
    // The hook file names 3.0.65 runs (source: its `HookEventName`), as events. A session
    // starts under two: `TaskStart` for a new task, `TaskResume` for a resumed one
    // ([`Tables::event_values`]). PreCompact is a file name 3.0.65 maps to no hook (source:
    // never fires).
    events: &[
        (EventKind::SessionStart, "TaskStart"),
        (EventKind::SessionStart, "TaskResume"),
        (EventKind::Stop, "TaskComplete"),
        (EventKind::Interrupt, "TaskCancel"),
        (EventKind::StopFailure, "TaskError"),
        (EventKind::PreToolUse, "PreToolUse"),
        (EventKind::PostToolUse, "PostToolUse"),
        (EventKind::UserPromptSubmit, "UserPromptSubmit"),
        (EventKind::PreCompact, "PreCompact"),
        (EventKind::SessionEnd, "SessionShutdown"),
    ],
    // The tools 3.0.65 offered the model (run: the fake model's request).
    tools: &[
        (ids::SHELL, &[RUN_COMMANDS]),
        (ids::EDIT, &[APPLY_PATCH]),
        (ids::WRITE, &[APPLY_PATCH]),
        (ids::MULTI_EDIT, &[APPLY_PATCH]),
        (ids::READ, &["read_files"]),
        (ids::GREP, &["search_codebase"]),
        (ids::WEB_FETCH, &["fetch_web_content"]),
        (ids::ASK_USER, &["ask_question"]),
        (ids::TASK, &["spawn_agent"]),
    ],
    tool_args: &[],
    // No matcher: the script decides. A SessionStart's `source` is told by the file's name
    // ([`Tables::event_values`]): a rule on one of them is a script under that name.
    matcher_targets: &[(
        EventKind::SessionStart,
        crate::tables::MatchOn::Field("source"),
    )],
    matcher_style: MatcherStyle::UnanchoredRegex {
        star_is_all: true,
        trims: true,
    },
    exact_field_matchers: true,
    stop_fires_for_subagents: false,
    // Run 3.0.65 (attacks row 1787, tests/fixtures/cadence/ and recorded/cline-3.0.65/): a
    // `--json` run fires no `UserPromptSubmit`, and `SessionShutdown` only after a hook's
    // cancel ended it (`tools`), never at the end of a run that completes (`failed`, `story`,
    // the cadence probe).
    unfired: &[
        (EventKind::UserPromptSubmit, "in `--json` runs"),
        (
            EventKind::SessionEnd,
            "at the end of a `--json` run that completes (only after a cancel)",
        ),
    ],
    cadences: &[],
    matcher_tries_names_of: &[],
    mcp_names: crate::tables::MCP_CANONICAL,
    key_case: KeyCase::Camel,
    value_renames: &[],
    // Run 3.0.65 (`live_cline::a_resumed_task_fires_task_resume`, attacks rows 2186, 2230): a
    // new task fires `TaskStart` (`hookName: agent_start`), a resumed one (`cline --id TASK`,
    // then a message) `TaskResume` (`agent_resume`), neither with a `source`.
    event_values: &[
        ("TaskStart", "source", "startup"),
        ("agent_start", "source", "startup"),
        ("TaskResume", "source", "resume"),
        ("agent_resume", "source", "resume"),
    ],
    key_renames: &[("session_id", "taskId"), ("duration_ms", "executionTimeMs")],
    // Run 3.0.65: `2026-12-02T02:04:39.034Z`.
    timestamp: TimestampForm::Iso8601,
    // Source 3.0.65: tool hooks are killed after 120 s; the others are not waited for.
    default_timeout: [120, 120, 120],
    project_dir_var: None,
    project_root_markers: &[],
    project_root_setting: None,
    project_from: crate::tables::ProjectFrom::Cwd,
    // Source 3.0.65: the scripts of one event run one after another, every answer merged.
    parallel: false,
    first_deny_stops_the_rest: false,
    rewrites_chain: false,
    handler_types: &["command"],
    protocol: protocol_rows::PROTOCOL,
    verified_with: Some("cline 3.0.65"),
    matcher_values: &[(EventKind::SessionStart, &["startup", "resume"])],
    handler_key_overrides: &[],
    invalid_matcher_effect: None,
    tool_scope: crate::tables::ToolScope::Any,
    other_tools: &[],
    renamed_tools: &[],
    tool_codecs: &[
        ToolCodec {
            name: RUN_COMMANDS,
            ids: &[ids::SHELL],
            decode: commands::decode,
            encode: commands::encode,
        },
        ToolCodec {
            name: APPLY_PATCH,
            ids: &[ids::WRITE, ids::EDIT, ids::MULTI_EDIT],
            decode: patch::decode,
            encode: patch::encode,
        },
    ],
    // Recorded by tests/live_cline.rs (3.0.65), before [`reshape`].
    // Recorded by tests/live_cline.rs (3.0.65): the keys of the object each event's
    // own keys sit in.
    payload_object_keys: &[
        ("preToolUse", &["parameters", "toolName"]),
        (
            "postToolUse",
            &[
                "executionTimeMs",
                "parameters",
                "result",
                "success",
                "toolName",
            ],
        ),
        ("taskStart", &["taskMetadata"]),
        ("taskComplete", &["taskMetadata"]),
    ],
    payload_keys: &[
        (
            EventKind::SessionStart,
            &[
                "agent_id",
                "clineVersion",
                "hookName",
                "parent_agent_id",
                "sessionContext",
                "taskId",
                "taskStart",
                "timestamp",
                "userId",
                "workspaceInfo",
                "workspaceRoots",
            ],
        ),
        (
            EventKind::PreToolUse,
            &[
                "agent_id",
                "clineVersion",
                "hookName",
                "iteration",
                "parent_agent_id",
                "preToolUse",
                "sessionContext",
                "taskId",
                "timestamp",
                "tool_call",
                "userId",
                "workspaceInfo",
                "workspaceRoots",
            ],
        ),
        (
            EventKind::PostToolUse,
            &[
                "agent_id",
                "clineVersion",
                "hookName",
                "iteration",
                "parent_agent_id",
                "postToolUse",
                "sessionContext",
                "taskId",
                "timestamp",
                "tool_result",
                "userId",
                "workspaceInfo",
                "workspaceRoots",
            ],
        ),
        (
            EventKind::Stop,
            &[
                "agent_id",
                "clineVersion",
                "hookName",
                "iteration",
                "parent_agent_id",
                "sessionContext",
                "taskComplete",
                "taskId",
                "timestamp",
                "turn",
                "userId",
                "workspaceInfo",
                "workspaceRoots",
            ],
        ),
        (
            EventKind::SessionEnd,
            &[
                "agent_id",
                "clineVersion",
                "hookName",
                "parent_agent_id",
                "sessionContext",
                "taskId",
                "timestamp",
                "userId",
                "workspaceInfo",
                "workspaceRoots",
            ],
        ),
    ],
};

/// What a converted or installed rule becomes: a script file.
pub static SCRIPT: DocumentKind = DocumentKind {
    name: "ClineHookScript",
    wrapper_optional: false,
    wrapper_ignored: false,
    top_keys: Some(&[]),
    session_env: None,
    frontmatter: false,
};

/// Source 3.0.65: a file is a hook when its name, less one of these endings, is an event's
/// (any case); it runs through its `#!` line, else by ending (`.sh` bash, `.js` node, `.py`
/// python3, …), else with bash: the executable bit is not asked for.
static LAYOUT: ScriptLayout = ScriptLayout {
    extensions: &[
        "", ".sh", ".bash", ".zsh", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".ps1",
    ],
    other_events: &[],
    runs_unexecutable: true,
    runners: &[
        (".sh", "bash"),
        (".bash", "bash"),
        (".zsh", "bash"),
        (".js", "node"),
        (".mjs", "node"),
        (".cjs", "node"),
        (".ts", "bun run"),
        (".mts", "bun run"),
        (".cts", "bun run"),
        (".py", "python3"),
        (".ps1", "pwsh -File"),
    ],
    default_runner: "bash",
    path_interpreters: &["bash", "sh", "zsh", "python3", "python"],
    deny_effect: Some(
        "a deny (`cancel: true`) on PreToolUse ends Cline's whole run, not only the tool call \
         (run 3.0.65)",
    ),
};

pub static DEF: DialectDef = DialectDef {
    name: "cline",
    display: "Cline",
    product: "Cline CLI",
    flavors: &[Flavor(&TABLES)],
    config: &CONFIG,
    // Its hooks are scripts, never JSON: no content is Cline's.
    detect: DetectSpec {
        dirs: &[".clinerules/hooks/", ".cline/hooks/", "Cline/Hooks/"],
        file_names: &[],
        unmarked: false,
        sole_event_flavors: &[],
        sole_top_keys: &[],
        sole_handler_keys: &[],
        top_keys: &[],
        handler_keys: &[],
        preferred: false,
    },
    // Source 3.0.65 `resolveHooksConfigSearchPaths`: ~/Documents/Cline/Hooks, ~/.cline/hooks
    // ($CLINE_DIR/hooks), then the workspace's .clinerules/hooks and .cline/hooks; run 3.0.65:
    // see conformance/cline-facts.md for which were seen to run.
    locations: &[
        Location {
            id: "cline-documents",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::Scripts("Documents/Cline/Hooks"),
        },
        Location {
            id: "cline-user",
            dialect: Dialect(&DEF),
            scope: Scope::User,
            root: Root::Home,
            pattern: Pattern::Scripts(".cline/hooks"),
        },
        Location {
            id: "cline-project-rules",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::Scripts(".clinerules/hooks"),
        },
        Location {
            id: "cline-project",
            dialect: Dialect(&DEF),
            scope: Scope::Project,
            root: Root::Project,
            pattern: Pattern::Scripts(".cline/hooks"),
        },
    ],
    native: &[
        "cline-documents",
        "cline-user",
        "cline-project-rules",
        "cline-project",
    ],
    kill_switch: None,
    disabled_handlers: None,
    managed: None,
    folder_trust: None,
    malformed_entry_skips_file: &[],
    host: HostSpec {
        payload_keys: &["taskId", "clineVersion", "workspaceRoots"],
        payload_events: &[],
        env_markers: &["CLINE_BUILD_ENV"],
    },
    // Not read: a Cline route is a script ([`ScriptLayout`]).
    route: RouteSpec {
        matcher: None,
        grouped: true,
        group_keys: &[],
        command_key: "command",
        timeout_key: None,
        // A script has no timeout: source 3.0.65 ends every hook after 120 s (the hook runner's
        // `timeoutMs`, `pE=120000`, which no script sets).
        limit: crate::tables::RouteLimit { secs: 120, on: &[] },
        // Cline runs the scripts of every folder (run 3.0.65): both routes would
        // (tests/double_runs.rs).
        names_project_route: true,
        names_folder: false,
    },
    route_trust: None,
    home_var: Some(crate::tables::HomeVar {
        var: "CLINE_DIR",
        dir: ".cline",
        source: "cline-facts.md: `~/.cline/hooks/` is `$CLINE_DIR/hooks`",
    }),
    scope_option: None,
    presence: crate::tables::Presence {
        programs: &["cline"],
        installs: &[],
        folders: &[".clinerules", ".cline", "Documents/Cline"],
    },
    schema: Schema {
        file_name: "cline.schema.json",
        text: include_str!("../../schemas/cline.schema.json"),
    },
};

static CONFIG: ConfigSpec = ConfigSpec {
    other_events: &[],
    handler_keys: &[],
    flat_handlers: false,
    wrapper_optional: false,
    implied_type: Some("command"),
    strict_load: None,
    matcher_not_string_stops_event: false,
    // Source 3.0.65: hooks run in the workspace root; no variable names it.
    project_dir_variable: None,
    provided_env: &[],
    merges_identical_handlers: false,
    version: None,
    stamp: None,
    // Live 3.0.65 (`live_cline` `a_projects_env_file_reaches_the_users_hooks`): a Bun
    // executable, it loads the `.env` and `.env.local` of the folder it starts in, each
    // variable only where it is unset (so never `PATH`), and hands them to every hook; its own
    // `CLINE_DIR` among them, which moves the user's hook folder (attacks rows 782, 787).
    project_env: crate::tables::ProjectEnv {
        files: &[".env.local", ".env"],
        search: crate::tables::EnvSearch::EachHere,
        when: "when started here",
        only_unset: true,
        refused: &[],
        refused_in_settings: &[],
    },
    install_project: ".clinerules/hooks",
    install_user: ".cline/hooks",
    install_hidden_by: &[],
    hook_dir_var: None,
    foreign_switches: &[],
    reads_foreign_as: &[],
    run_keys: RunKeys::NONE,
    documents: Documents {
        file: &SCRIPT,
        plugin: None,
        frontmatter: None,
        toml: None,
    },
    plugin_root_var: None,
    plugin_text: &[],
    convert_target: ".clinerules/hooks",
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
    scripts: Some(&LAYOUT),
    generated: None,
    rule_list: None,
    // Its hooks are scripts, not JSON.
    agent_keys: &[],
    rewrites_from_memory: None,
    json_syntax: crate::tables::JsonSyntax::STRICT,
};

/// `run_commands {commands: [LINE, …]}` ↔ a shell call `{command}` (several lines joined by
/// newlines, as one script runs them).
mod commands {
    use super::*;

    pub(super) fn decode(input: &Value, _cwd: Option<&str>) -> Option<(&'static str, Value)> {
        let lines: Vec<&str> = match input.get("commands")? {
            Value::Array(items) => items.iter().map(Value::as_str).collect::<Option<_>>()?,
            Value::String(one) => vec![one.as_str()],
            _ => return None,
        };
        let mut canonical = input.as_object()?.clone();
        canonical.remove("commands");
        canonical.insert("command".into(), lines.join("\n").into());
        Some((ids::SHELL, Value::Object(canonical)))
    }

    pub(super) fn encode(_id: &str, input: &Value, _cwd: Option<&str>) -> Option<Value> {
        let mut native = input.as_object()?.clone();
        let command = native.remove("command")?;
        native.insert("commands".into(), json!([command]));
        Some(Value::Object(native))
    }
}

/// `apply_patch {input: PATCH}`: Codex's patch codec, whose input says `command`.
mod patch {
    use super::*;

    pub(super) fn decode(input: &Value, cwd: Option<&str>) -> Option<(&'static str, Value)> {
        let patch = input.get("input")?.clone();
        let (id, mut canonical) =
            super::super::codex::patch::decode(&json!({ "command": patch }), cwd)?;
        // Run 3.0.65: an added file is its lines joined, with no newline after the last.
        if id == ids::WRITE
            && let Some(Value::String(content)) = canonical.get_mut("content")
            && content.ends_with('\n')
        {
            content.pop();
        }
        Some((id, canonical))
    }

    pub(super) fn encode(id: &str, input: &Value, cwd: Option<&str>) -> Option<Value> {
        // The inverse of `decode`: Cline writes an added file's lines with no newline after
        // the last, so a content that ends in one needs an empty last line.
        let mut input = input.clone();
        if id == ids::WRITE
            && let Some(Value::String(content)) = input.get_mut("content")
            && content.ends_with('\n')
        {
            content.push('\n');
        }
        let coded = super::super::codex::patch::encode(id, &input, cwd)?;
        Some(json!({ "input": coded.get("command")? }))
    }
}

/// Between Cline's nested payload and the flat form the protocol rows read.
mod reshape {
    use super::*;

    /// Objects named after the event that hold its own keys, lifted to the top.
    const BODIES: &[&str] = &[
        "preToolUse",
        "postToolUse",
        "userPromptSubmit",
        "taskStart",
        "taskResume",
        "taskCancel",
        "taskComplete",
    ];

    /// Where [`flatten`] may find the tool's name: `tool_call.name` (or `tool_result.name`),
    /// else the first `toolName` at the top or in a body.
    pub(super) const TOOL_NAME_AT: &[&[&str]] = &[
        &["tool_call", "name"],
        &["tool_result", "name"],
        &["toolName"],
        &["preToolUse", "toolName"],
        &["postToolUse", "toolName"],
        &["userPromptSubmit", "toolName"],
        &["taskStart", "toolName"],
        &["taskResume", "toolName"],
        &["taskCancel", "toolName"],
        &["taskComplete", "toolName"],
    ];

    /// Each body [`flatten`] lifts may carry the name: the guard reads each.
    #[test]
    fn every_body_is_a_place_of_the_tools_name() {
        for body in BODIES {
            let at: &[&str] = &[body, "toolName"];
            assert!(TOOL_NAME_AT.contains(&at), "{body}");
        }
    }

    /// `tool_call {id, name, input}` / `tool_result {…, output}` give the call exactly (its
    /// input an object); `preToolUse.parameters` holds each value JSON-encoded, read only when
    /// they are missing. `workspaceRoots[0]` is the `cwd`.
    pub(super) fn flatten(mut obj: Map<String, Value>) -> Map<String, Value> {
        let call = obj
            .remove("tool_call")
            .or_else(|| obj.remove("tool_result"));
        for body in BODIES {
            if let Some(Value::Object(inner)) = obj.remove(*body) {
                for (key, value) in inner {
                    obj.entry(key).or_insert(value);
                }
            }
        }
        if let Some(Value::Object(params)) = obj.remove("parameters") {
            let decoded = params
                .into_iter()
                .map(|(k, v)| match v {
                    Value::String(s) => {
                        let parsed = serde_json::from_str::<Value>(&s)
                            .ok()
                            .filter(|p| p.is_array() || p.is_object());
                        (k, parsed.unwrap_or(Value::String(s)))
                    }
                    v => (k, v),
                })
                .collect::<Map<_, _>>();
            obj.insert("toolInput".into(), Value::Object(decoded));
        }
        if let Some(result) = obj.remove("result") {
            obj.insert("toolResponse".into(), result);
        }
        if let Some(Value::Object(call)) = call {
            if let Some(id) = call.get("id") {
                obj.insert("toolUseId".into(), id.clone());
            }
            if let Some(name) = call.get("name") {
                obj.insert("toolName".into(), name.clone());
            }
            if let Some(input) = call.get("input") {
                obj.insert("toolInput".into(), input.clone());
            }
            if let Some(output) = call.get("output") {
                obj.insert("toolResponse".into(), output.clone());
            }
        }
        let root = obj
            .get("workspaceRoots")
            .and_then(|r| r.get(0))
            .and_then(Value::as_str)
            .map(str::to_string);
        if let Some(root) = root {
            obj.entry("cwd").or_insert(root.into());
        }
        obj
    }

    /// The flat form as Cline sends it on `kind`.
    pub(super) fn nest(kind: &EventKind, mut flat: Map<String, Value>) -> Map<String, Value> {
        if let Some(cwd) = flat.remove("cwd") {
            flat.entry("workspaceRoots").or_insert(json!([cwd]));
        }
        flat.entry("clineVersion").or_insert("".into());
        let name = flat.remove("toolName");
        let input = flat.remove("toolInput");
        let id = flat.remove("toolUseId");
        let response = flat.remove("toolResponse");
        // Each parameter JSON-encoded unless a string, as Cline writes them.
        let parameters = |input: &Option<Value>| -> Value {
            let Some(Value::Object(map)) = input else {
                return json!({});
            };
            map.iter()
                .map(|(k, v)| {
                    let text = match v {
                        Value::String(s) => s.clone(),
                        v => v.to_string(),
                    };
                    (k.clone(), Value::String(text))
                })
                .collect::<Map<_, _>>()
                .into()
        };
        let mut call = Map::new();
        for (key, value) in [("id", &id), ("name", &name), ("input", &input)] {
            if let Some(value) = value {
                call.insert(key.into(), value.clone());
            }
        }
        let call = Value::Object(call);
        match kind {
            EventKind::PreToolUse => {
                flat.insert("tool_call".into(), call);
                flat.insert(
                    "preToolUse".into(),
                    json!({"toolName": name, "parameters": parameters(&input)}),
                );
            }
            EventKind::PostToolUse => {
                let mut record = call;
                record["output"] = response.clone().unwrap_or(Value::Null);
                flat.insert("tool_result".into(), record);
                let result = match &response {
                    Some(Value::String(s)) => Value::String(s.clone()),
                    Some(v) => Value::String(v.to_string()),
                    None => Value::String(String::new()),
                };
                let mut body = json!({
                    "toolName": name,
                    "parameters": parameters(&input),
                    "result": result,
                    "success": flat.remove("success").unwrap_or(Value::Bool(true)),
                });
                if let Some(ms) = flat.remove("executionTimeMs") {
                    body["executionTimeMs"] = ms;
                }
                flat.insert("postToolUse".into(), body);
            }
            EventKind::UserPromptSubmit => {
                let prompt = flat.remove("prompt").unwrap_or(Value::Null);
                let attachments = flat.remove("attachments").unwrap_or(json!([]));
                flat.insert(
                    "userPromptSubmit".into(),
                    json!({"prompt": prompt, "attachments": attachments}),
                );
            }
            EventKind::SessionStart => {
                let metadata = flat.remove("taskMetadata").unwrap_or(json!({}));
                // Run 3.0.65: no `source`; a resumed task's body is `taskResume`, with the
                // state it was in.
                match flat.remove("source") {
                    Some(source) if source == "resume" => {
                        let state = flat.remove("previousState").unwrap_or(json!({}));
                        flat.insert(
                            "taskResume".into(),
                            json!({"taskMetadata": metadata, "previousState": state}),
                        );
                    }
                    _ => {
                        flat.insert("taskStart".into(), json!({"taskMetadata": metadata}));
                    }
                }
            }
            EventKind::Stop => {
                let metadata = flat.remove("taskMetadata").unwrap_or(json!({}));
                flat.insert("taskComplete".into(), json!({"taskMetadata": metadata}));
            }
            EventKind::Interrupt | EventKind::StopFailure => {
                let metadata = flat.remove("taskMetadata").unwrap_or(json!({}));
                flat.insert("taskCancel".into(), json!({"taskMetadata": metadata}));
            }
            _ => {
                // A tool call on another event keeps its flat keys.
                for (key, value) in [("toolName", name), ("toolInput", input)] {
                    if let Some(value) = value {
                        flat.insert(key.into(), value);
                    }
                }
            }
        }
        flat
    }
}

/// Run-time protocol rows (conformance/cline-facts.md), read by `crate::protocol`.
mod protocol_rows {
    use crate::model::EventKind;
    use crate::tables::{
        AnswerField as F, AnswerText, ArgsForm, CANONICAL_CALL_KEYS, EnvValue, ExitCodes, NameRead,
        ProtocolTables, Reshape, Slot, Writes,
    };

    const PRE: &[EventKind] = &[EventKind::PreToolUse];
    /// Run 3.0.65: `contextModification` reaches the model as a user message
    /// `<hook_context source="...">` on PostToolUse and on PreToolUse (`tests/live_cline.rs`
    /// `ground_truth_answer_forms`, issue 25).
    const CONTEXT: &[EventKind] = &[EventKind::PreToolUse, EventKind::PostToolUse];

    pub(super) const PROTOCOL: ProtocolTables = ProtocolTables {
        // Run 3.0.65: `hookName` says `tool_call`, `tool_result`, `agent_start`,
        // `session_shutdown`; source 3.0.65 the others.
        event_key: "hookName",
        event_key_only: Some(&[
            (EventKind::SessionStart, "agent_start"),
            (EventKind::SessionStart, "agent_resume"),
            (EventKind::Stop, "agent_end"),
            (EventKind::Interrupt, "agent_abort"),
            (EventKind::StopFailure, "agent_error"),
            (EventKind::PreToolUse, "tool_call"),
            (EventKind::PostToolUse, "tool_result"),
            (EventKind::UserPromptSubmit, "prompt_submit"),
            (EventKind::SessionEnd, "session_shutdown"),
        ]),
        event_shapes: &[],
        // Snake_case keys it sends as they are.
        verbatim_keys: &["agent_id", "parent_agent_id"],
        call_keys: CANONICAL_CALL_KEYS,
        tool_args: ArgsForm::Object,
        tool_result_keys: None,
        mcp_context_key: None,
        reshape: Some(Reshape {
            flatten: super::reshape::flatten,
            nest: super::reshape::nest,
        }),
        guard_reads_name: Some(NameRead::Node(super::reshape::TOOL_NAME_AT)),
        // Run 3.0.65: the only `CLINE_*` variable its hooks get.
        env: &[("CLINE_BUILD_ENV", EnvValue::Literal("production"))],
        command_text_env: &[],
        plain_stdout_context: &[],
        // Source 3.0.65: the exit code is not read; stdout JSON (or its last `HOOK_CONTROL\t`
        // line) is, whatever the code. Run 3.0.65 (`ground_truth_answer_forms`, issue 25):
        // PostToolUse context at exit 1 and 2 reaches the model, a cancel at exit 2 cancels.
        // Was `ByCode` (read at exit 0 only).
        exit2: &[],
        exit_codes: ExitCodes::ByCodeAndJson,
        signal_exit: None,
        abort_exit: None,
        // Source 3.0.65 (`@cline/core`, `zl`): the last line of stdout starting
        // `HOOK_CONTROL\t` (each line trimmed) is the answer, log lines around it (attacks
        // row 822).
        answer_text: AnswerText {
            control_line: Some("HOOK_CONTROL\t"),
            ..AnswerText::STDOUT
        },
        failure_denies: &[],
        // A deny ends Cline's whole run; hookx still fails closed on a tool call, as for
        // every other host: a guard hookx could not consult must not let the call through.
        fail_closed: &[EventKind::PreToolUse],
        answer: &[
            // Run 3.0.65: `cancel: true` ends the run, `errorMessage` its reason.
            F::new(Slot::Cancel, &["cancel"], Writes::On(PRE)),
            F::new(Slot::Reason, &["errorMessage"], Writes::On(PRE)),
            F::new(Slot::Context, &["contextModification"], Writes::On(CONTEXT)),
            // Run 3.0.65 (`ground_truth_answer_forms`): `context` reaches the model like
            // `contextModification`.
            F::new(Slot::Context, &["context"], Writes::Never),
            // Run 3.0.65 (`ground_truth_answer_forms`, issue 25): `overrideInput` replaces the
            // call's input with no decision beside it (`{"commands": [...]}` runs). Was `Never`.
            F::new(Slot::UpdatedInput, &["overrideInput"], Writes::On(PRE)),
        ],
        updated_input_merges: false,
        updated_input_needs_allow: false,
        // `errorMessage` without `cancel` reaches the model and the call runs (run 3.0.65,
        // tests/live_cline.rs `error_message_without_cancel_reaches_the_model_through_hookx`).
        reason_alone_is_context: true,
        answer_event_key: None,
        permission_values: &[],
        permission_passes: &[],
        permission_defers: &[],
        // Cline reads no allow (a cancel or nothing).
        allow_reach: crate::tables::AllowReach::Nothing,
        // `postToolUse.success` is false only where the tool itself failed (3.0.65 source:
        // `success: !record.error`, the tool's `isError`). A command's exit 1, a command that
        // cannot start, a missing file's read, a patch that does not apply: `success: true`,
        // each record of the result (`run_commands`, `read_files`: a list; `apply_patch`: one)
        // `success: false` with its `error` text (run 3.0.65, `failed.*`; attacks row 1840).
        failed_call: crate::tables::FailedCall::Marked(&[
            crate::tables::FailMark {
                path: &["success"],
                is_false: true,
                message: &["tool_response"],
            },
            crate::tables::FailMark {
                path: &["tool_response", "success"],
                is_false: true,
                message: &["tool_response", "error"],
            },
        ]),
        permission_fold: crate::tables::PermissionFold::Strictest,
        rewrite_race: false,
        ignored_blocks: &[],
        decision_ignored: &[],
        block_unread: &[],
        block_withholds_result: &[],
        late_answer: false,
        carried_context: None,
        result_forms: super::RESULT_FORMS,
        hook_budget: &[],
    };
}

/// Cline 3.0.65's `run_commands` result, one record per command (recorded `tools.03`); a call
/// of several commands is read whole as the output.
const RESULT_FORMS: &[ResultForm] = &[ResultForm::of(
    ids::SHELL,
    r#"[{"query": "${input.command}", "result": "${output}", "success": true}]"#,
)];
