//! [`Tables`]: everything one flavour of a dialect names differently (events, tools,
//! arguments, matchers, payload casing, timeouts), as data.

use super::{Dialect, Flavor, HandlerField, ProtocolTables};
pub use crate::model::tool::NameRewrite;
use crate::model::tool::is_mcp;
use crate::model::{EventKind, HandlerKind, MatcherForm, MatcherStyle};
use serde::Serialize;

/// What a matcher filters on for one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MatchOn {
    ToolName,
    /// A canonical payload field (`source`, `reason`, `trigger`, `notification_type`, …).
    Field(&'static str),
    /// Something the agent filters on that no run has shown hookx: the matcher is kept as
    /// written and not checked, and hookx lets it fire.
    Unverified,
}

/// How a flavour spells an MCP tool: `PREFIX` server `SEPARATOR` tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct McpNames {
    pub prefix: &'static str,
    pub separator: &'static str,
    /// How the flavour's tool matchers reach MCP tools; `None`: by the name above, as any
    /// other tool.
    pub matchers: Option<McpMatchers>,
    /// The matcher that fires for every tool but MCP tools (Kiro's `@builtin`, [q-cli]). Where
    /// there is one, a matcher that is one MCP name is a group, not a regex: `@git` fires for
    /// the tools of server `git` only (not `@github/…`), `@git/status` for that tool only.
    pub builtin: Option<&'static str>,
    /// Events whose payloads spell an MCP tool with another separator, (event, separator):
    /// Copilot CLI 1.0.102's `permissionRequest` says `SERVER/TOOL` where its tool events say
    /// `SERVER-TOOL`, and its own `permissionRequest` matchers fire on that form only (`srv/.*`,
    /// not `srv-.*`; run, attacks row 1860).
    pub event_separators: &'static [(EventKind, &'static str)],
    /// How the agent writes the characters of server and tool names in the names it gives;
    /// `None`: as configured.
    pub rewrite: Option<NameRewrite>,
}

/// Tool matchers that reach MCP tools only through a prefix (Auggie's `mcp:`, source 0.36.0
/// `f7n`): `PREFIX*` fires for every MCP tool and for nothing else, `PREFIX REGEX` tests REGEX
/// on an MCP tool's name spelled `TOOL SEPARATOR SERVER`, and any other matcher but the
/// match-all never fires for an MCP tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct McpMatchers {
    pub prefix: &'static str,
    pub separator: &'static str,
    /// Matchers besides an absent one that fire for every tool, MCP tools included.
    pub all: &'static [&'static str],
}

impl McpMatchers {
    /// The name `PREFIX REGEX` is tested on.
    pub fn name(&self, server: &str, tool: &str) -> String {
        format!("{tool}{}{server}", self.separator)
    }
}

/// `mcp__server__tool` (Claude, Copilot): also hookx's canonical id of an MCP tool.
pub const MCP_CANONICAL: McpNames = McpNames {
    prefix: "mcp__",
    separator: "__",
    matchers: None,
    builtin: None,
    event_separators: &[],
    rewrite: None,
};

impl McpNames {
    /// The names as payloads of event `kind` spell them ([`McpNames::event_separators`]).
    pub fn on(&self, kind: &EventKind) -> McpNames {
        match self.event_separators.iter().find(|(k, _)| k == kind) {
            Some((_, separator)) => McpNames { separator, ..*self },
            None => *self,
        }
    }

    /// Whether names are spelled as hookx's canonical id on event `kind`: `mcp__SERVER__TOOL`.
    pub fn canonical_on(&self, kind: &EventKind) -> bool {
        let on = self.on(kind);
        on.prefix == MCP_CANONICAL.prefix && on.separator == MCP_CANONICAL.separator
    }

    /// The server and tool of a name in this form; the server ends at the first separator
    /// (a payload that names both parts, Gemini's `mcp_context`, is read instead where it has
    /// them).
    pub fn split<'a>(&self, name: &'a str) -> Option<(&'a str, &'a str)> {
        name.strip_prefix(self.prefix)?
            .split_once(self.separator)
            .filter(|(server, tool)| !server.is_empty() && !tool.is_empty())
    }

    /// Every way a name in this form splits into a server and a tool, the server ending at the
    /// first separator first (Copilot's `x-y-run`: `x`, `y-run`, then `x-y`, `run`).
    pub fn splits<'a>(&self, name: &'a str) -> Vec<(&'a str, &'a str)> {
        let Some(rest) = name.strip_prefix(self.prefix) else {
            return Vec::new();
        };
        rest.match_indices(self.separator)
            .map(|(at, sep)| (&rest[..at], &rest[at + sep.len()..]))
            .filter(|(server, tool)| !server.is_empty() && !tool.is_empty())
            .collect()
    }

    /// Whether matcher `text` spells an MCP name by this flavour's prefix; never where MCP names
    /// have none (Copilot's `SERVER-TOOL`), whose matchers name MCP tools as any other tool.
    pub fn named_in(&self, text: &str) -> bool {
        !self.prefix.is_empty() && text.contains(self.prefix)
    }

    /// A regex (anchored or not) for every MCP tool: `PREFIX.*`, or where MCP names have no
    /// prefix, every name holding the separator (Copilot's built-in tools hold no `-`).
    pub fn every(&self) -> String {
        match self.prefix.is_empty() {
            true => format!(".*{}.*", regex::escape(self.separator)),
            false => format!("{}.*", regex::escape(self.prefix)),
        }
    }

    pub fn join(&self, server: &str, tool: &str) -> String {
        format!("{}{server}{}{tool}", self.prefix, self.separator)
    }

    /// The names a host that rewrites names whole (`host`, [`NameRewrite::whole`]) writes for
    /// the MCP tools matcher `text` in this spelling names literally, as configured (Claude's
    /// `mcp__p\.q__run`, Gemini's `mcp_p\.q_run`), or as this flavour's agent writes them
    /// where that is undone (Copilot's `xn--`): every split of each name into a server and a
    /// tool (attacks row 2270). Empty where the matcher is no list of names.
    pub fn whole_names(&self, host: NameRewrite, text: &str) -> Vec<String> {
        let undo = |part: &str| {
            self.rewrite
                .and_then(|r| r.configured(part))
                .unwrap_or_else(|| part.to_string())
        };
        let literals = crate::model::tool::literal_names(text).unwrap_or_default();
        let mut written = Vec::new();
        for literal in &literals {
            for (server, tool) in self.splits(literal) {
                let configured = MCP_CANONICAL.join(&undo(server), &undo(tool));
                if let Some(name) = host.whole_name(&configured)
                    && !written.contains(&name)
                {
                    written.push(name);
                }
            }
        }
        written
    }

    /// Whether matcher `text` is a group of a flavour with [`McpNames::builtin`], and if so
    /// whether it fires for the tool `own_name` (this flavour's spelling): `@builtin` for every
    /// tool but MCP tools, `@server` for that server's tools, `@server/tool` for that tool.
    pub fn group_fires(&self, text: &str, own_name: &str) -> Option<bool> {
        let builtin = self.builtin?;
        let mcp = self.split(own_name);
        if text == builtin {
            // A canonical MCP name (`mcp__s__t`, another agent's spelling) is one too.
            return Some(mcp.is_none() && !crate::model::tool::is_mcp(own_name));
        }
        let plain = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        let rest = text.strip_prefix(self.prefix)?;
        match rest.split_once(self.separator) {
            None if plain(rest) => Some(mcp.is_some_and(|(server, _)| server == rest)),
            Some((server, tool)) if plain(server) && plain(tool) => {
                Some(mcp == Some((server, tool)))
            }
            _ => None,
        }
    }

    /// Whether a tool matcher of this flavour reads differently for MCP tools than as one
    /// regex over every name ([`McpNames::matchers`], [`McpNames::builtin`]).
    pub fn reads_mcp_apart(&self) -> bool {
        self.matchers.is_some() || self.builtin.is_some()
    }
}

/// How payload keys are cased.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyCase {
    Snake,
    Camel,
}

/// How a payload carries its timestamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimestampForm {
    None,
    EpochMillis,
    Iso8601,
}

/// Everything one flavour names differently, as data.
/// A top-level key of the agent's TOML settings that replaces its project markers
/// ([`Tables::project_root_markers`]; an empty list: the `cwd` is the project), read in its
/// policy folder, then in the user's file, then in the layer the agent's command line adds, the
/// later winning. A project's settings never
/// count: the agent reads the key before it knows the project (Codex 0.171.0's system and user
/// layers, attacks rows 560, 561).
pub struct RootMarkersSetting {
    pub key: &'static str,
    /// The user's file, below the home (moved by the agent's folder variable).
    pub user_file: &'static str,
    /// The file in the agent's policy folder ([`crate::tables::ManagedSpec::dirs`]).
    pub policy_file: &'static str,
    /// The layer the agent's command line puts on top of the user's file, winning over it.
    pub layer: Option<&'static crate::tables::ConfigLayer>,
}

/// Where an agent that sets no project variable tells its project ([`Tables::project_from`]).
pub enum ProjectFrom {
    /// The payload's `cwd` (else the folder the hook runs in), at or above which
    /// [`Tables::project_root_markers`] mark it.
    Cwd,
    /// A field naming the folders the agent has open (Cursor's `workspace_roots`), whose hook
    /// files it read: of several, the one at or above `cwd`, which names where a command runs
    /// (a terminal the agent moved into a subfolder); the `cwd` where none is sent.
    Field(&'static str),
    /// The folder the hook runs in: the payload's `cwd` is the command's, which the agent
    /// picks per command (Windsurf's `run_command`), not the project's.
    HookFolder,
}

/// How often an agent fires an event where that is not each time the thing the event names
/// happens ([`Tables::cadences`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cadence {
    /// Before each model request of the session and of each subagent's turn, whether or not
    /// the thing then happens (the agent decides after the hooks ran, and the payload does
    /// not say which).
    EveryModelRequest,
    /// Before each model request too, but the firing the event names is the one whose payload
    /// holds `key`, the others `blank` empty (Qwen Code 0.24.4's `UserPromptSubmit`:
    /// `submitted_prompt` on the user's prompt; after tool results neither it nor any text in
    /// `prompt`): a rule written for an agent that fires the event as named runs on that one
    /// only ([`Tables::repeated_firing`]). Both must say so: a firing with text is never
    /// skipped, so no prompt a guard was written to read goes by it.
    EveryModelRequestTold {
        key: &'static str,
        blank: &'static str,
    },
    /// Before each call of a tool that runs or writes (not a read), whether or not anything
    /// would ask the user (Copilot CLI 1.0.102's `permissionRequest` in `-p`, with
    /// `--allow-all-tools` too: attacks row 1883). hookx cannot tell the call that would have
    /// asked, so it skips none: a guard then refuses calls its own agent never asks about, and
    /// no deny is lost.
    EveryWritingCall,
}

impl Cadence {
    /// When the event `name` fires, as a sentence's end: "fires `name` …".
    pub fn said(self, name: &str) -> String {
        match self {
            Cadence::EveryModelRequest | Cadence::EveryModelRequestTold { .. } => format!(
                "before every model request, not only when it then does what `{name}` names"
            ),
            Cadence::EveryWritingCall => format!(
                "before every call of a tool that runs or writes, even one nothing would ask \
                 the user about, not only when it then does what `{name}` names"
            ),
        }
    }
}

pub struct Tables {
    /// The flavour's name (`copilot-pascal`); a dialect's first flavour bears its name.
    pub name: &'static str,
    pub dialect: Dialect,
    /// Canonical event ↔ the name this flavour writes.
    pub events: &'static [(EventKind, &'static str)],
    /// Canonical tool id ↔ this flavour's tool names; the first name is the one written.
    pub tools: &'static [(&'static str, &'static [&'static str])],
    /// Canonical tool id → (canonical argument name, this flavour's name) for renamed arguments.
    pub tool_args: &'static [(&'static str, &'static [(&'static str, &'static str)])],
    /// Events whose matcher filters something, and what; a matcher on any other event is ignored.
    pub matcher_targets: &'static [(EventKind, MatchOn)],
    pub matcher_style: MatcherStyle,
    /// Whether a matcher on a field (SessionStart `source`, …) is one exact value, not read in
    /// `matcher_style` (Gemini CLI compares the trimmed text, run 0.61.0).
    pub exact_field_matchers: bool,
    /// Whether the agent fires this flavour's Stop at a subagent's end too (Copilot CLI
    /// 1.0.102: `agentStop` naming the subagent, beside `subagentStop`). Where not (Claude,
    /// Qwen, Codex: SubagentStop; Gemini: nothing), a stop whose payload names a parent agent
    /// (`parent_agent_id`) runs none of the flavour's Stop rules (attacks row 1307: a Gemini `AfterAgent` block kept a
    /// Copilot subagent going).
    pub stop_fires_for_subagents: bool,
    /// The events this flavour fires at another rate than each time the thing the event names
    /// happens (a compaction, a prompt, a session's start): a rule on one of them written for
    /// another flavour, converted or routed, runs at this rate here, and the other way round
    /// (attacks row 1761: Gemini CLI 0.61.0 fires `PreCompress` before every model request).
    /// Empty: each event fires as named. `tests/cadence_recorded.rs` checks the lifecycle
    /// events against the counts of real sessions (`tests/fixtures/cadence/`).
    pub cadences: &'static [(EventKind, Cadence)],
    /// The events this flavour's agent does not fire in one of its modes, each with the mode
    /// as a phrase ("in `-p`"): a rule on one, written for another flavour, never runs there
    /// (attacks rows 1782, 1787: Qwen Code 0.24.4 fires no `SessionEnd` in `-p`, Droid
    /// 0.225.2 no `UserPromptSubmit` in `droid exec`). hookx cannot fire what the agent does
    /// not; `convert`, `list`, `doctor` and `simulate` say it with the rate changes.
    pub unfired: &'static [(EventKind, &'static str)],
    /// Flavours whose tool names a tool matcher is tried against besides this flavour's own:
    /// the matcher fires when it accepts any of them (Copilot PascalCase: the Copilot name too,
    /// so a `Read` rule and a `view` rule both fire on view; run 1.0.102).
    pub matcher_tries_names_of: &'static [Flavor],
    /// How the flavour spells an MCP tool's name (Gemini CLI: `mcp_server_tool`).
    pub mcp_names: McpNames,
    /// Payload key casing, plus canonical ↔ native keys that casing alone does not give.
    pub key_case: KeyCase,
    pub key_renames: &'static [(&'static str, &'static str)],
    /// Field values the flavour spells its own way, per event: (event, canonical key,
    /// canonical value, native value). A matcher on the field accepts either spelling
    /// ([`crate::protocol::spellings`]; attacks row 1323: Copilot CLI 1.0.102 starts a `-p`
    /// session with `source: "new"`, and a rule written for `startup` never ran under it).
    /// Payloads keep the value the host sent.
    pub value_renames: &'static [ValueRename],
    /// Names under which the flavour fires one firing of an event it fires under several names
    /// (beside [`Tables::events`], or its payloads' names: `event_key_only`), each with the
    /// field its payload never sends but that tells the firing: (native name, canonical key,
    /// value). A payload read under the name gets the value where it has none, so that a rule
    /// written for another flavour matches as its own agent would; a rule written here goes
    /// under each name whose value its matcher accepts (Cline 3.0.65 fires `TaskStart` for a
    /// new task and `TaskResume` for a resumed one, neither with a `source`: attacks row 2230).
    pub event_values: &'static [EventValue],
    pub timestamp: TimestampForm,
    /// Default timeouts in seconds: command, prompt, agent.
    pub default_timeout: [u64; 3],
    /// Environment variable that holds the project directory, if the dialect sets one.
    pub project_dir_var: Option<&'static str>,
    /// Where it sets none: the names (`.git`) whose folder, the nearest at or above the
    /// payload's `cwd`, is the project the agent read its files from (Codex's
    /// `project_root_markers`); empty: the `cwd` is the project.
    pub project_root_markers: &'static [&'static str],
    /// Where the user replaces those markers with their own; `None`: they are fixed.
    pub project_root_setting: Option<RootMarkersSetting>,
    /// Where, without a project variable, the payload tells the project.
    pub project_from: ProjectFrom,
    /// Whether several matching handlers run in parallel (else in order).
    pub parallel: bool,
    /// Whether, running in order, the first handler that denies stops the ones after it.
    pub first_deny_stops_the_rest: bool,
    /// Whether, running in order, a handler is given the tool call as the handlers before it
    /// rewrote it (not as the model made it), and its own rewrite is of that call.
    pub rewrites_chain: bool,
    /// Handler types the dialect has, by the `type` string.
    pub handler_types: &'static [&'static str],
    /// The values the agent sends for a field matcher, where the set is closed (SessionStart
    /// `source`, compaction `trigger`, …): a value outside it never fires.
    pub matcher_values: &'static [(EventKind, &'static [&'static str])],
    /// Run-time payload and answer rules, read by `crate::protocol`.
    pub protocol: ProtocolTables,
    /// The client release whose runs verified these facts (`None`: documents only).
    pub verified_with: Option<&'static str>,
    /// Handler keys this flavour spells unlike its dialect's [`super::ConfigSpec`] (Copilot's
    /// PascalCase entries write `timeout`, not `timeoutSec`).
    pub handler_key_overrides: &'static [(HandlerField, &'static str)],
    /// What the agent does with a rule whose matcher is no valid regex, when known
    /// ("Copilot skips this hook").
    pub invalid_matcher_effect: Option<&'static str>,
    /// The tools this flavour's events fire for: a flavour whose events are really a tool
    /// category (Cursor's `beforeShellExecution`) fires only for those, whatever the matcher.
    pub tool_scope: ToolScope,
    /// The top-level payload keys the agent sent on each event in recorded runs (optional
    /// ones included), so that `hookx doctor` can tell a handler reading a key that is never
    /// there; events never recorded are absent. `tests/doctor.rs` checks it against the
    /// recordings.
    pub payload_keys: &'static [(EventKind, &'static [&'static str])],
    /// The keys of a top-level payload key whose value is an object of fixed keys, as recorded
    /// (Cline's `preToolUse {toolName, parameters}`), so that `hookx doctor` can tell a handler
    /// reading `.preToolUse.tool` (attacks row 927). Keys whose objects vary (`tool_input`) are
    /// not listed; `tests/doctor.rs` checks these against the recordings.
    pub payload_object_keys: &'static [(&'static str, &'static [&'static str])],
    /// Tools the agent offers its model that no other flavour has, so no canonical id names
    /// them (Claude's `Skill`): a tool matcher naming one fires there. Where a name is in no
    /// table, doctor says its matcher matches no tool (attacks row 1182).
    pub other_tools: &'static [&'static str],
    /// Names a tool had before the agent renamed it, which the agent's own matcher still
    /// takes for the tool (old name, name sent): Claude's `KillShell` fires on `TaskStop`
    /// (attacks row 1461). Read by doctor's matcher check, for a rule in the agent's own
    /// spelling; a renamed tool with a canonical id keeps its old name in `tools` instead
    /// (`Task`).
    pub renamed_tools: &'static [(&'static str, &'static str)],
    /// Tools whose call is no renaming of a canonical one (Codex's `apply_patch`: every edit,
    /// its paths inside a patch text), with the functions that translate them.
    pub tool_codecs: &'static [ToolCodec],
}

/// A [`ToolCodec`]'s decoder: the canonical tool id and input of a call with this input;
/// `cwd` makes relative paths absolute. `None`: no canonical tool says it.
pub type ToolDecoder =
    fn(input: &serde_json::Value, cwd: Option<&str>) -> Option<(&'static str, serde_json::Value)>;

/// A [`ToolCodec`]'s encoder (see [`ToolCodec::encode`]).
pub type ToolEncoder =
    fn(id: &str, input: &serde_json::Value, cwd: Option<&str>) -> Option<serde_json::Value>;

/// One tool of a flavour that stands for several canonical tools, told apart by its input.
pub struct ToolCodec {
    /// The flavour's tool name.
    pub name: &'static str,
    /// The canonical tools it stands for.
    pub ids: &'static [&'static str],
    /// The call keeps the flavour's name when it gives `None`.
    pub decode: ToolDecoder,
    /// The flavour's input for a canonical call of one of `ids` (canonical input); `cwd`, the
    /// event's working directory where known, stands for a path the call leaves out.
    pub encode: ToolEncoder,
}

/// Which tool calls a flavour's tool events fire for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolScope {
    /// Every tool (a matcher may narrow it).
    Any,
    /// Only these canonical tool ids; the first is the tool of a payload that names none.
    Only(&'static [&'static str]),
    /// Only MCP tools.
    Mcp,
}

impl ToolScope {
    /// Whether a tool call with this canonical id is in scope.
    pub fn admits(self, tool_id: &str) -> bool {
        match self {
            ToolScope::Any => true,
            ToolScope::Only(ids) => ids.contains(&tool_id),
            ToolScope::Mcp => is_mcp(tool_id),
        }
    }
}

impl Tables {
    pub fn event_name(&self, kind: &EventKind) -> Option<&'static str> {
        self.events.iter().find(|(k, _)| k == kind).map(|(_, n)| *n)
    }

    /// Every name the flavour gives `kind`, its first (the one [`Tables::event_name`] gives)
    /// first.
    pub fn event_names<'a>(
        &'a self,
        kind: &'a EventKind,
    ) -> impl Iterator<Item = &'static str> + 'a {
        self.events
            .iter()
            .filter(move |(k, _)| k == kind)
            .map(|(_, n)| *n)
    }

    /// The (canonical key, value) the firing the flavour names `name` carries
    /// ([`Tables::event_values`]); a script's name in any case.
    pub fn event_value(&self, name: &str) -> Option<(&'static str, &'static str)> {
        self.event_values
            .iter()
            .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, key, value)| (*key, *value))
    }

    /// The values of the field `key` that the flavour's names for `kind` tell, each once, in
    /// the table's order, where every one of its names for `kind` tells one
    /// ([`Tables::event_values`]): the flavour fires the event split by the field's value, a
    /// rule written under each name whose value its matcher accepts (Cline's `TaskStart`
    /// `startup`, `TaskResume` `resume`). `None` where a name tells none, or another field.
    pub fn values_told_by_names(&self, kind: &EventKind, key: &str) -> Option<Vec<&'static str>> {
        let mut told = Vec::new();
        for name in self.event_names(kind) {
            match self.event_value(name) {
                Some((k, value)) if k == key => {
                    if !told.contains(&value) {
                        told.push(value);
                    }
                }
                _ => return None,
            }
        }
        (!told.is_empty()).then_some(told)
    }

    pub fn event_kind(&self, name: &str) -> Option<EventKind> {
        self.events
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(k, _)| k.clone())
    }

    /// The event a payload names under the flavour's event key: by its config name, or by the
    /// name its payloads give it where that differs ([`ProtocolTables`]
    /// `event_key_only`: Cline's `tool_call`).
    pub fn payload_event_kind(&self, name: &str) -> Option<EventKind> {
        self.event_kind(name).or_else(|| {
            self.protocol
                .event_key_only?
                .iter()
                .find(|(_, n)| *n == name)
                .map(|(k, _)| k.clone())
        })
    }

    /// The canonical id of a tool name of this flavour (unknown names are their own id).
    pub fn canonical_tool<'a>(&self, name: &'a str) -> &'a str {
        self.tools
            .iter()
            .find(|(_, names)| names.contains(&name))
            .map(|(id, _)| *id)
            .unwrap_or(name)
    }

    /// This flavour's name for a canonical tool id: `None` when the flavour has no such tool.
    pub fn tool_name<'a>(&self, id: &'a str) -> Option<&'a str> {
        if let Some((_, names)) = self.tools.iter().find(|(i, _)| *i == id) {
            return names.first().copied();
        }
        let known_elsewhere = Flavor::all()
            .iter()
            .any(|f| f.tables().tools.iter().any(|(i, _)| *i == id));
        (!known_elsewhere || is_mcp(id)).then_some(id)
    }

    /// Every tool name this flavour knows, for testing matchers against.
    pub fn all_tool_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.tools
            .iter()
            .flat_map(|(_, names)| names.iter().copied())
    }

    pub fn arg_renames(&self, tool_id: &str) -> &'static [(&'static str, &'static str)] {
        self.tool_args
            .iter()
            .find(|(id, _)| *id == tool_id)
            .map(|(_, pairs)| *pairs)
            .unwrap_or(&[])
    }

    pub fn matcher_target(&self, kind: &EventKind) -> Option<MatchOn> {
        self.matcher_targets
            .iter()
            .find(|(k, _)| k == kind)
            .map(|(_, on)| *on)
    }

    /// What a matcher of this flavour on `kind` means: a field matcher of a flavour with
    /// [`Tables::exact_field_matchers`] is its trimmed text as one value (`*` or empty: all),
    /// any other is read in [`Tables::matcher_style`].
    pub fn matcher_form(&self, kind: &EventKind, text: Option<&str>) -> MatcherForm {
        match self.matcher_target(kind) {
            Some(MatchOn::Field(_)) if self.exact_field_matchers => exact_form(text),
            _ => self.matcher_style.form(text),
        }
    }

    /// What tool matcher `text` is, as this flavour reads it, for the tool `own_name` (this
    /// flavour's spelling): the matcher to read in [`Tables::matcher_style`] and the name to
    /// try it on, or `None` when it never fires for that tool ([`McpMatchers`]).
    pub fn tool_matcher_for<'t>(
        &self,
        text: Option<&'t str>,
        own_name: &str,
    ) -> Option<(Option<&'t str>, Option<String>)> {
        if let Some(fires) = text.and_then(|t| self.mcp_names.group_fires(t, own_name)) {
            return fires.then_some((None, None));
        }
        let Some(matchers) = self.mcp_names.matchers else {
            return Some((text, None));
        };
        let mcp = self.mcp_names.split(own_name);
        match (text.and_then(|t| t.strip_prefix(matchers.prefix)), mcp) {
            (Some("*"), Some(_)) => Some((None, None)),
            (Some(regex), Some((server, tool))) => {
                Some((Some(regex), Some(matchers.name(server, tool))))
            }
            (Some(_), None) => None,
            (None, Some(_))
                if text.is_some_and(|t| !matchers.all.contains(&t))
                    && self.matcher_style.form(text) != MatcherForm::All =>
            {
                None
            }
            (None, _) => Some((text, None)),
        }
    }

    /// The names a tool matcher of this flavour is tried against for the tool `own_name` (this
    /// flavour's spelling): that name, its aliases in this table, then its counterparts in
    /// [`Tables::matcher_tries_names_of`].
    pub fn matcher_tool_names<'a>(&self, own_name: &'a str) -> Vec<&'a str> {
        // A name that stands for several tools (Codex's `apply_patch`) tries each one's names.
        let mut ids: Vec<&str> = self
            .tools
            .iter()
            .filter(|(_, names)| names.contains(&own_name))
            .map(|(id, _)| *id)
            .collect();
        if ids.is_empty() {
            ids.push(self.canonical_tool(own_name));
        }
        let mut names = vec![own_name];
        // The other names this flavour's table lists for the tool are matcher aliases: a
        // Claude `Task` rule fires on the `Agent` tool (claude-code 2.1.332 run,
        // tests/live_claude_doctor.rs).
        for id in &ids {
            if let Some((_, aliases)) = self.tools.iter().find(|(i, _)| i == id) {
                for alias in *aliases {
                    if !names.contains(alias) {
                        names.push(alias);
                    }
                }
            }
        }
        for flavor in self.matcher_tries_names_of {
            for id in &ids {
                if let Some(name) = flavor.tables().tool_name(id)
                    && !names.contains(&name)
                {
                    names.push(name);
                }
            }
        }
        names
    }

    /// The flavour that spells `name` as a tool, and this flavour's name for that tool, when a
    /// tool matcher of this flavour never meets `name` but another flavour's does (`Write` in a
    /// Droid file: Droid calls it `Create`). `validate` warns of it, `doctor` too.
    pub fn foreign_tool_name(&self, name: &str) -> Option<(Flavor, Option<&'static str>)> {
        if self.matcher_knows_tool(name) {
            return None;
        }
        Flavor::all()
            .iter()
            .filter(|f| !std::ptr::eq(f.tables(), self))
            .find_map(|f| {
                let tables = f.tables();
                let known = tables.all_tool_names().find(|n| *n == name)?;
                Some((*f, self.tool_name(tables.canonical_tool(known))))
            })
    }

    /// The canonical id of a tool name in a matcher of this flavour: its own names first, then
    /// those of [`Tables::matcher_tries_names_of`] (a PascalCase `view` rule means Read).
    pub fn matcher_canonical_tool<'a>(&self, name: &'a str) -> &'a str {
        self.matcher_tables()
            .find(|t| t.all_tool_names().any(|n| n == name))
            .map_or(name, |t| t.canonical_tool(name))
    }

    /// Every canonical tool a name in a matcher of this flavour stands for: each one where the
    /// flavour gives several tools that name (Codex's `apply_patch`), else the one
    /// [`Tables::matcher_canonical_tool`] gives.
    pub fn matcher_canonical_tools<'a>(&self, name: &'a str) -> Vec<&'a str> {
        let own: Vec<&str> = self
            .tools
            .iter()
            .filter(|(_, names)| names.contains(&name))
            .map(|(id, _)| *id)
            .collect();
        if own.len() > 1 {
            own
        } else {
            vec![self.matcher_canonical_tool(name)]
        }
    }

    /// Whether `name` is a tool name a tool matcher of this flavour can meet.
    pub fn matcher_knows_tool(&self, name: &str) -> bool {
        self.matcher_tables()
            .any(|t| t.all_tool_names().any(|n| n == name))
    }

    /// These tables, then those of [`Tables::matcher_tries_names_of`].
    fn matcher_tables(&self) -> impl Iterator<Item = &Tables> {
        std::iter::once(self).chain(self.matcher_tries_names_of.iter().map(|f| f.tables()))
    }

    /// The keys recorded in the object the top-level payload key `key` holds, where that
    /// object has fixed keys ([`Tables::payload_object_keys`]).
    pub fn object_keys(&self, key: &str) -> Option<&'static [&'static str]> {
        self.payload_object_keys
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, keys)| *keys)
    }

    /// The top-level keys this flavour's agent sends on `kind`, if recorded.
    pub fn payload_keys(&self, kind: &EventKind) -> Option<&'static [&'static str]> {
        self.payload_keys
            .iter()
            .find(|(k, _)| k == kind)
            .map(|(_, keys)| *keys)
    }

    /// Whether a recorded run of [`Tables::verified_with`] showed `kind` firing (its payload is
    /// in [`Tables::payload_keys`]); `None` for tables no client run confirmed at all. An event
    /// never seen firing is the documents' word (issue 25: facts say where they come from).
    pub fn seen_firing(&self, kind: &EventKind) -> Option<bool> {
        self.verified_with?;
        Some(self.payload_keys(kind).is_some())
    }

    /// How often this flavour fires `kind`, where not each time the thing it names happens.
    pub fn cadence(&self, kind: &EventKind) -> Option<Cadence> {
        self.cadences
            .iter()
            .find(|(k, _)| k == kind)
            .map(|&(_, c)| c)
    }

    /// Where a rule of `from` on `kind`, run under this flavour (converted, or routed through
    /// hookx), runs at another rate than under its own agent: a sentence saying how. `None`
    /// where both fire the event alike, or this flavour has no such event.
    pub fn cadence_change(&self, from: &Tables, kind: &EventKind) -> Option<String> {
        let rate = self.rate_change(from, kind);
        let unfired = self.unfired_change(from, kind);
        match (rate, unfired) {
            (Some(a), Some(b)) => Some(format!("{a}; {b}")),
            (a, b) => a.or(b),
        }
    }

    /// The mode in which this flavour's agent does not fire `kind`, if any ([`Self::unfired`]).
    pub fn unfired_in(&self, kind: &EventKind) -> Option<&'static str> {
        self.unfired
            .iter()
            .find(|(k, _)| k == kind)
            .map(|&(_, mode)| mode)
    }

    /// Where this flavour's agent does not fire `kind` in a mode where `from`'s agent fires it:
    /// a sentence saying so.
    fn unfired_change(&self, from: &Tables, kind: &EventKind) -> Option<String> {
        let mode = self.unfired_in(kind)?;
        if from.unfired_in(kind) == Some(mode) || matches!(kind, EventKind::Other(_)) {
            return None;
        }
        let name = self.event_name(kind)?;
        let here_by = self.dialect.def().product;
        Some(format!(
            "{here_by} does not fire `{name}` {mode}: there the rule never runs"
        ))
    }

    /// [`Self::cadence_change`] for the rates of [`Self::cadences`].
    fn rate_change(&self, from: &Tables, kind: &EventKind) -> Option<String> {
        let here = self.cadence(kind);
        let there = from.cadence(kind);
        // Firings the payload tells apart: hookx (its route, `hookx exec`) skips the others.
        let evened = matches!(here, Some(Cadence::EveryModelRequestTold { .. })) && there.is_none();
        if here == there || evened || matches!(kind, EventKind::Other(_)) {
            return None;
        }
        let name = self.event_name(kind)?;
        let theirs = from.event_name(kind).unwrap_or(name);
        let (here_by, there_by) = (self.dialect.def().product, from.dialect.def().product);
        Some(match (here, there) {
            (Some(c), _) => format!(
                "{here_by} fires `{name}` {}; {there_by} fires `{theirs}` only when that \
                 happens, which the rule was written for: here it runs each time {here_by} \
                 fires `{name}`",
                c.said(name)
            ),
            (None, Some(c)) => format!(
                "{there_by} fires `{theirs}` {}, which the rule was written for; {here_by} \
                 fires `{name}` only when that happens: here it runs that much less often",
                c.said(theirs)
            ),
            (None, None) => return None,
        })
    }

    /// Whether `event`, as this flavour's agent fired it, is one of the firings beyond what
    /// the event names, which a rule of `rule_flavor` is not written for: this flavour's
    /// cadence tells them apart ([`Cadence::EveryModelRequestTold`]) and the rule's agent
    /// fires the event otherwise. Such a firing runs none of that rule's handlers.
    pub fn repeated_firing(&self, rule_flavor: &Tables, event: &crate::model::Event) -> bool {
        let Some(Cadence::EveryModelRequestTold { key, blank }) = self.cadence(&event.kind) else {
            return false;
        };
        rule_flavor.cadence(&event.kind) != self.cadence(&event.kind)
            && event.fields.get(key).is_none()
            && event
                .field(blank)
                .is_some_and(|text| text.trim().is_empty())
    }

    /// How many of this flavour's events a recorded run showed firing, of how many.
    pub fn events_seen_firing(&self) -> (usize, usize) {
        let seen = self
            .events
            .iter()
            .filter(|(k, _)| self.payload_keys(k).is_some())
            .count();
        (seen, self.events.len())
    }

    /// The closed set of values this flavour sends for `kind`'s field matcher, if known.
    pub fn matcher_values(&self, kind: &EventKind) -> Option<&'static [&'static str]> {
        self.matcher_values
            .iter()
            .find(|(k, _)| k == kind)
            .map(|(_, values)| *values)
    }

    pub fn default_timeout(&self, kind: &HandlerKind) -> u64 {
        match kind {
            HandlerKind::Command(_) | HandlerKind::Service(_) => self.default_timeout[0],
            HandlerKind::Prompt(_) => self.default_timeout[1],
            HandlerKind::Agent(_) => self.default_timeout[2],
        }
    }
}

/// A matcher compared with the value as one exact string, after trimming; `*`, empty and
/// absent match everything.
pub fn exact_form(text: Option<&str>) -> MatcherForm {
    match text.map(str::trim) {
        None | Some("" | "*") => MatcherForm::All,
        Some(value) => MatcherForm::Exact(vec![value.to_string()]),
    }
}

/// One row of [`Tables::event_values`]: native event name, canonical key, value.
pub type EventValue = (&'static str, &'static str, &'static str);

/// One row of [`Tables::value_renames`]: event, canonical key, canonical value, native value.
pub type ValueRename = (EventKind, &'static str, &'static str, &'static str);
