//! The dialects. Each is one file holding everything hookx knows about one agent as data: its
//! name tables ([`Tables`]), config layout ([`ConfigSpec`]), detection, discovery, host and
//! install rows ([`DialectDef`]). Shared code reads these and never names a dialect.
//!
//! # How to add a dialect
//!
//! 1. Copy the closest dialect file (`claude.rs` for a Claude-compatible agent, `copilot.rs`
//!    for one with its own payload casing) to `src/dialect/<name>.rs` and fill its tables:
//!    - `TABLES` (one per flavour): event and tool names, argument renames, matcher targets and
//!      style, payload casing, timeouts, handler types, and the run-time `protocol` rows
//!      (payload keys, env, exit codes, answer fields). An event that is really a tool category
//!      (Cursor's `beforeShellExecution`) is a flavour of its own with a [`ToolScope`] and, when
//!      its payload carries the arguments at the top, `ArgsForm::TopLevel` (`cursor.rs`). An
//!      agent with no generic tool event (Windsurf: every tool event is a category, its fields
//!      inside `tool_info`, `ArgsForm::Nested`) gets tool rules split by category in `convert`
//!      and a route per category event in `install` ([`Dialect::own_events`], `windsurf.rs`).
//!    - `DEF`: the [`DialectDef`]: name, [`ConfigSpec`] (handler keys, document kinds, install
//!      paths, `json_syntax`: whether the agent reads its JSON files with comments; run the
//!      client on one, as the live suites' `*_with_comments_or_trailing_commas` tests do),
//!      [`DetectSpec`] (path and content marks), discovery `locations` and the ones the
//!      agent reads `native`ly (also other agents' files), [`HostSpec`] (how its payloads and
//!      environment identify it), [`RouteSpec`] (the entry `hookx install` writes) and its
//!      JSON Schema (`schemas/<name>.schema.json`).
//! 2. Add one line to [`DIALECTS`] below.
//! 3. Record real payloads under `tests/fixtures/recorded/<client>-<version>/` and set
//!    `verified_with`; without a runnable client, leave it `None` (documents only).
//!
//! `tests/architecture.rs` fails when shared code names a dialect or one of its table strings.

pub mod augment;
pub mod bricks;
pub mod claude;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod cursor;
mod def;
pub mod droid;
pub mod gemini;
pub mod kiro;
pub mod qwen;
pub mod vscode;
pub mod windsurf;

pub use crate::config::spec::ConfigSpec;
pub use def::{
    BrokenPolicy, DetectSpec, DialectDef, DisabledHandlers, FolderTrust, HostSpec, KillSwitch,
    ManagedSpec, RouteRecords, RouteSpec, RouteTrust, Schema, TrustRecord,
};

use crate::model::tool::{ids, is_mcp};
use crate::model::{EventKind, HandlerKind, MatcherForm, MatcherStyle};
use serde::Serialize;
use std::sync::OnceLock;

/// Every dialect, in the order discovery, listings and `--help` show them.
pub static DIALECTS: &[Dialect] = &[
    Dialect(&claude::DEF),
    Dialect(&copilot::DEF),
    Dialect(&bricks::DEF),
    Dialect(&gemini::DEF),
    Dialect(&qwen::DEF),
    Dialect(&cursor::DEF),
    Dialect(&vscode::DEF),
    Dialect(&codex::DEF),
    Dialect(&windsurf::DEF),
    Dialect(&droid::DEF),
    Dialect(&cline::DEF),
    Dialect(&augment::DEF),
    Dialect(&kiro::DEF),
];

/// A config-file dialect: a handle on its [`DialectDef`]. Equal by name, ordered as registered.
#[derive(Clone, Copy)]
pub struct Dialect(&'static DialectDef);

impl Dialect {
    /// Every registered dialect ([`DIALECTS`]).
    pub fn all() -> &'static [Dialect] {
        DIALECTS
    }

    /// The registered dialect with this name.
    pub fn named(name: &str) -> Option<Dialect> {
        DIALECTS.iter().copied().find(|d| d.name() == name)
    }

    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// Everything hookx knows about this dialect.
    pub fn def(self) -> &'static DialectDef {
        self.0
    }

    /// How this dialect lays out its config files.
    pub fn config(self) -> &'static ConfigSpec {
        self.0.config
    }

    /// The flavours its rules may be written in.
    pub fn flavors(self) -> impl Iterator<Item = Flavor> {
        self.0.flavors.iter().copied()
    }

    /// The flavour of an event key no table knows: the one whose event names share its
    /// casing (Copilot: camelCase or PascalCase), else the default.
    pub fn flavor_of_unknown_event(self, key: &str) -> Flavor {
        let upper = |name: &str| name.starts_with(|c: char| c.is_ascii_uppercase());
        self.flavors()
            .find(|f| {
                f.tables()
                    .events
                    .first()
                    .is_some_and(|(_, name)| upper(name) == upper(key))
            })
            .unwrap_or(self.default_flavor())
    }

    /// The flavour whose payload this agent sends a rule of `flavor` in a file it runs by
    /// itself: its own, or the one it reads another dialect's files as.
    pub fn native_flavor(self, flavor: Flavor) -> Flavor {
        self.config()
            .reads_foreign_as
            .iter()
            .find(|(d, _)| *d == flavor.dialect())
            .map_or(flavor, |(_, f)| *f)
    }

    /// The flavour a new rule of this dialect is written in: its first.
    pub fn default_flavor(self) -> Flavor {
        self.0.flavors[0]
    }

    /// The events the agent's own files register, with the name and flavour of each: the
    /// default flavour's, then those of its other own flavours for events the default lacks
    /// (Windsurf's tool categories: PreToolUse is `pre_run_command`, `pre_write_code`, …).
    pub fn own_events(self) -> Vec<(EventKind, &'static str, Flavor)> {
        let default = self.default_flavor();
        let foreign = |f: &Flavor| self.config().reads_foreign_as.iter().any(|(_, g)| g == f);
        let mut out: Vec<_> = default
            .tables()
            .events
            .iter()
            .map(|(k, n)| (k.clone(), *n, default))
            .collect();
        for flavor in self.flavors().skip(1).filter(|f| !foreign(f)) {
            for (kind, name) in flavor.tables().events {
                if default.tables().event_name(kind).is_none() {
                    out.push((kind.clone(), *name, flavor));
                }
            }
        }
        out
    }

    /// The position in [`DIALECTS`], which orders dialects.
    fn index(self) -> usize {
        DIALECTS
            .iter()
            .position(|d| *d == self)
            .unwrap_or(usize::MAX)
    }
}

impl PartialEq for Dialect {
    fn eq(&self, other: &Dialect) -> bool {
        std::ptr::eq(self.0, other.0) || self.name() == other.name()
    }
}

impl Eq for Dialect {}

impl std::hash::Hash for Dialect {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state)
    }
}

impl PartialOrd for Dialect {
    fn partial_cmp(&self, other: &Dialect) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Dialect {
    fn cmp(&self, other: &Dialect) -> std::cmp::Ordering {
        self.index().cmp(&other.index())
    }
}

impl std::fmt::Display for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::fmt::Debug for Dialect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Dialect {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// `--host`, `--from`, `--to`: the registered names, listed in `--help`.
impl clap::ValueEnum for Dialect {
    fn value_variants<'a>() -> &'a [Dialect] {
        DIALECTS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

/// The variant of a dialect a rule is written in: a handle on its [`Tables`]. Copilot has two:
/// camelCase event names get the camelCase payload, Copilot tool names and anchored matchers;
/// PascalCase event names (the VS Code-compatible form) get a snake_case payload, Claude tool
/// names and anchored matchers tried against both tool names.
#[derive(Clone, Copy)]
pub struct Flavor(&'static Tables);

/// The two bits of [`Flavor::is_unknown_tool`]'s filter (of 4 096) a name sets: from its
/// length and its first, middle and last bytes.
fn bloom_bits(name: &str) -> [usize; 2] {
    let bytes = name.as_bytes();
    let byte = |at: usize| u64::from(bytes.get(at).copied().unwrap_or(0));
    let key = bytes.len() as u64
        | byte(0) << 16
        | byte(bytes.len() / 2) << 24
        | byte(bytes.len().wrapping_sub(1)) << 32;
    let hash = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    [(hash >> 52) as usize, ((hash >> 40) & 0xfff) as usize]
}

impl Flavor {
    /// Every flavour of every dialect, in registry order.
    pub fn all() -> &'static [Flavor] {
        static ALL: OnceLock<Vec<Flavor>> = OnceLock::new();
        ALL.get_or_init(|| DIALECTS.iter().flat_map(|d| d.flavors()).collect())
    }

    /// Whether no flavour's tables know `name`, as a tool name or as a canonical tool id, for
    /// certain (`false`: they may): every table then reads it as itself
    /// ([`Tables::matcher_canonical_tools`] is `[name]`, [`Tables::tool_name`] is `name`,
    /// [`Tables::matcher_knows_tool`] is false), and a caller may skip asking them, which scans
    /// each table (`convert` asks for every name of every matcher). Two bits of a Bloom filter
    /// of every name the tables hold, made once: a name with either bit clear is in none. (A
    /// sorted list of the names cost a small conversion a tenth of its instructions to make.)
    pub fn is_unknown_tool(name: &str) -> bool {
        static KNOWN: OnceLock<[u64; 64]> = OnceLock::new();
        let known = KNOWN.get_or_init(|| {
            let mut bits = [0u64; 64];
            for flavor in Flavor::all() {
                for (id, names) in flavor.tables().tools {
                    for name in std::iter::once(id).chain(names.iter()) {
                        for bit in bloom_bits(name) {
                            bits[bit / 64] |= 1 << (bit % 64);
                        }
                    }
                }
            }
            bits
        });
        bloom_bits(name)
            .iter()
            .any(|&bit| known[bit / 64] & (1 << (bit % 64)) == 0)
    }

    /// The flavour with this name (`copilot-pascal`).
    pub fn named(name: &str) -> Option<Flavor> {
        Flavor::all().iter().copied().find(|f| f.name() == name)
    }

    pub fn dialect(self) -> Dialect {
        self.0.dialect
    }

    pub fn tables(self) -> &'static Tables {
        self.0
    }

    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The key of a handler field in this flavour's files: a flavour may spell one unlike its
    /// dialect (Copilot's PascalCase `timeout`).
    pub fn handler_key(self, field: crate::config::spec::HandlerField) -> Option<&'static str> {
        self.0
            .handler_key_overrides
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, k)| *k)
            .or_else(|| self.dialect().config().key(field))
    }

    fn index(self) -> usize {
        Flavor::all()
            .iter()
            .position(|f| *f == self)
            .unwrap_or(usize::MAX)
    }
}

impl PartialEq for Flavor {
    fn eq(&self, other: &Flavor) -> bool {
        std::ptr::eq(self.0, other.0) || self.name() == other.name()
    }
}

impl Eq for Flavor {}

impl std::hash::Hash for Flavor {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.name().hash(state)
    }
}

impl PartialOrd for Flavor {
    fn partial_cmp(&self, other: &Flavor) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Flavor {
    fn cmp(&self, other: &Flavor) -> std::cmp::Ordering {
        self.index().cmp(&other.index())
    }
}

impl std::fmt::Display for Flavor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::fmt::Debug for Flavor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Flavor {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// `simulate --host`, `exec --as`: every flavour's name.
impl clap::ValueEnum for Flavor {
    fn value_variants<'a>() -> &'a [Flavor] {
        Flavor::all()
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

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
};

impl McpNames {
    /// The server and tool of a name in this form; the server ends at the first separator
    /// (a payload that names both parts, Gemini's `mcp_context`, is read instead where it has
    /// them).
    pub fn split<'a>(&self, name: &'a str) -> Option<(&'a str, &'a str)> {
        name.strip_prefix(self.prefix)?
            .split_once(self.separator)
            .filter(|(server, tool)| !server.is_empty() && !tool.is_empty())
    }

    pub fn join(&self, server: &str, tool: &str) -> String {
        format!("{}{server}{}{tool}", self.prefix, self.separator)
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
    /// Flavours whose tool names a tool matcher is tried against besides this flavour's own:
    /// the matcher fires when it accepts any of them (Copilot PascalCase: the Copilot name too,
    /// so a `Read` rule and a `view` rule both fire on view; run 1.0.102).
    pub matcher_tries_names_of: &'static [Flavor],
    /// How the flavour spells an MCP tool's name (Gemini CLI: `mcp_server_tool`).
    pub mcp_names: McpNames,
    /// Payload key casing, plus canonical ↔ native keys that casing alone does not give.
    pub key_case: KeyCase,
    pub key_renames: &'static [(&'static str, &'static str)],
    pub timestamp: TimestampForm,
    /// Default timeouts in seconds: command, prompt, agent.
    pub default_timeout: [u64; 3],
    /// Environment variable that holds the project directory, if the dialect sets one.
    pub project_dir_var: Option<&'static str>,
    /// Whether several matching handlers run in parallel (else in order).
    pub parallel: bool,
    /// Whether, running in order, the first handler that denies stops the ones after it.
    pub first_deny_stops_the_rest: bool,
    /// Handler types the dialect has, by the `type` string.
    pub handler_types: &'static [&'static str],
    /// The values the agent sends for a field matcher, where the set is closed (SessionStart
    /// `source`, compaction `trigger`, …): a value outside it never fires.
    pub matcher_values: &'static [(EventKind, &'static [&'static str])],
    /// Run-time payload and answer rules, read by `crate::protocol`.
    pub protocol: crate::protocol::ProtocolTables,
    /// The client release whose runs verified these facts (`None`: documents only).
    pub verified_with: Option<&'static str>,
    /// Handler keys this flavour spells unlike its dialect's [`ConfigSpec`] (Copilot's
    /// PascalCase entries write `timeout`, not `timeoutSec`).
    pub handler_key_overrides: &'static [(crate::config::spec::HandlerField, &'static str)],
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
    /// Tools whose call is no renaming of a canonical one (Codex's `apply_patch`: every edit,
    /// its paths inside a patch text), with the functions that translate them.
    pub tool_codecs: &'static [ToolCodec],
}

/// A [`ToolCodec`]'s decoder: the canonical tool id and input of a call with this input;
/// `cwd` makes relative paths absolute. `None`: no canonical tool says it.
pub type ToolDecoder =
    fn(input: &serde_json::Value, cwd: Option<&str>) -> Option<(&'static str, serde_json::Value)>;

/// One tool of a flavour that stands for several canonical tools, told apart by its input.
pub struct ToolCodec {
    /// The flavour's tool name.
    pub name: &'static str,
    /// The canonical tools it stands for.
    pub ids: &'static [&'static str],
    /// The call keeps the flavour's name when it gives `None`.
    pub decode: ToolDecoder,
    /// The flavour's input for a canonical call of one of `ids` (canonical input).
    pub encode: fn(id: &str, input: &serde_json::Value) -> Option<serde_json::Value>,
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

    pub fn event_kind(&self, name: &str) -> Option<EventKind> {
        self.events
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(k, _)| k.clone())
    }

    /// The event a payload names under the flavour's event key: by its config name, or by the
    /// name its payloads give it where that differs ([`crate::protocol::ProtocolTables`]
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

    /// The top-level keys this flavour's agent sends on `kind`, if recorded.
    pub fn payload_keys(&self, kind: &EventKind) -> Option<&'static [&'static str]> {
        self.payload_keys
            .iter()
            .find(|(k, _)| k == kind)
            .map(|(_, keys)| *keys)
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
pub(crate) fn exact_form(text: Option<&str>) -> MatcherForm {
    match text.map(str::trim) {
        None | Some("" | "*") => MatcherForm::All,
        Some(value) => MatcherForm::Exact(vec![value.to_string()]),
    }
}

/// Claude's tool spellings, shared by Copilot's PascalCase form.
pub(crate) const CLAUDE_TOOLS: &[(&str, &[&str])] = &[
    (ids::SHELL, &["Bash"]),
    (ids::WRITE, &["Write"]),
    (ids::EDIT, &["Edit"]),
    (ids::MULTI_EDIT, &["MultiEdit"]),
    (ids::READ, &["Read"]),
    (ids::GLOB, &["Glob"]),
    (ids::GREP, &["Grep"]),
    (ids::WEB_FETCH, &["WebFetch"]),
    (ids::WEB_SEARCH, &["WebSearch"]),
    // The subagent tool is `Agent` (claude-code 2.1.332 run); `Task` is a matcher alias
    // (a `Task` rule fired on `Agent`, run 2.1.332, tests/live_claude_doctor.rs).
    (ids::TASK, &["Agent", "Task"]),
    (ids::ASK_USER, &["AskUserQuestion"]),
    (ids::NOTEBOOK_EDIT, &["NotebookEdit"]),
    (ids::TODO_WRITE, &["TodoWrite"]),
];

/// Claude's matcher targets (tool events, SessionStart source, …); shared by Copilot PascalCase.
pub(crate) const CLAUDE_MATCHER_TARGETS: &[(EventKind, MatchOn)] = &[
    (EventKind::PreToolUse, MatchOn::ToolName),
    (EventKind::PostToolUse, MatchOn::ToolName),
    (EventKind::PostToolUseFailure, MatchOn::ToolName),
    (EventKind::PermissionRequest, MatchOn::ToolName),
    (EventKind::SessionStart, MatchOn::Field("source")),
    (EventKind::SessionEnd, MatchOn::Field("reason")),
    (EventKind::Notification, MatchOn::Field("notification_type")),
    (EventKind::SubagentStart, MatchOn::Field("agent_type")),
    (EventKind::SubagentStop, MatchOn::Field("agent_type")),
    (EventKind::PreCompact, MatchOn::Field("trigger")),
    (EventKind::PostCompact, MatchOn::Field("trigger")),
    // The newer events of the claude-code 2.1.332 schema (Copilot's PascalCase form has none
    // of them): what their matchers filter (FileChanged file names, StopFailure error types,
    // …) no run has shown yet.
    (EventKind::PostToolBatch, MatchOn::Unverified),
    (EventKind::UserPromptExpansion, MatchOn::Unverified),
    (EventKind::StopFailure, MatchOn::Unverified),
    (EventKind::PreModelSwitch, MatchOn::Unverified),
    (EventKind::PostModelSwitch, MatchOn::Unverified),
    (EventKind::PermissionDenied, MatchOn::Unverified),
    (EventKind::Setup, MatchOn::Unverified),
    (EventKind::TeammateIdle, MatchOn::Unverified),
    (EventKind::TaskCreated, MatchOn::Unverified),
    (EventKind::TaskCompleted, MatchOn::Unverified),
    (EventKind::Elicitation, MatchOn::Unverified),
    (EventKind::ElicitationResult, MatchOn::Unverified),
    (EventKind::ConfigChange, MatchOn::Unverified),
    (EventKind::WorktreeCreate, MatchOn::Unverified),
    (EventKind::WorktreeRemove, MatchOn::Unverified),
    (EventKind::InstructionsLoaded, MatchOn::Unverified),
    (EventKind::CwdChanged, MatchOn::Unverified),
    (EventKind::FileChanged, MatchOn::Unverified),
    (EventKind::DirectoryAdded, MatchOn::Unverified),
    (EventKind::MessageDisplay, MatchOn::Unverified),
    (EventKind::PreSkillShellCommand, MatchOn::Unverified),
];

const COMPACT_TRIGGERS: &[&str] = &["manual", "auto"];

/// Claude's closed matcher values (the claude-code 2.1.332 settings schema).
pub(crate) const CLAUDE_MATCHER_VALUES: &[(EventKind, &[&str])] = &[
    (
        EventKind::SessionStart,
        &["startup", "resume", "clear", "compact", "fork"],
    ),
    (
        EventKind::SessionEnd,
        &["clear", "resume", "logout", "prompt_input_exit", "other"],
    ),
    (EventKind::PreCompact, COMPACT_TRIGGERS),
    (EventKind::PostCompact, COMPACT_TRIGGERS),
];

/// Copilot's closed matcher values (both flavours).
pub(crate) const COPILOT_MATCHER_VALUES: &[(EventKind, &[&str])] = &[
    (EventKind::SessionStart, &["startup", "resume", "new"]),
    (EventKind::PreCompact, COMPACT_TRIGGERS),
];

/// Bricks' closed matcher values (its seed's event table).
pub(crate) const BRICKS_MATCHER_VALUES: &[(EventKind, &[&str])] = &[
    (EventKind::SessionStart, &["startup", "resume"]),
    (EventKind::PreCompact, COMPACT_TRIGGERS),
    (EventKind::PostCompact, COMPACT_TRIGGERS),
    (
        EventKind::GoalUpdate,
        &["set", "evaluated", "complete", "cancel"],
    ),
];

/// Claude's matcher reading (field: exact lists also allow `-`, `,` and spaces).
pub(crate) const CLAUDE_MATCHER_STYLE: MatcherStyle = MatcherStyle::ListOrRegex {
    list_extra: "-, ",
    separators: ",",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flavor_names_each_event_once() {
        for &flavor in Flavor::all() {
            let t = flavor.tables();
            assert_eq!(Flavor::named(t.name), Some(flavor));
            for (kind, name) in t.events {
                assert_eq!(t.event_kind(name).as_ref(), Some(kind), "{flavor:?} {name}");
                assert_eq!(t.event_name(kind), Some(*name));
            }
        }
    }

    #[test]
    fn names_are_unique_and_first_flavors_bear_the_dialect_name() {
        for (i, d) in DIALECTS.iter().enumerate() {
            assert_eq!(Dialect::named(d.name()), Some(*d));
            assert_eq!(d.default_flavor().name(), d.name());
            assert!(d.flavors().all(|f| f.dialect() == *d), "{d}");
            assert!(DIALECTS[..i].iter().all(|e| e.name() != d.name()));
        }
        let names: std::collections::HashSet<_> = Flavor::all().iter().map(|f| f.name()).collect();
        assert_eq!(names.len(), Flavor::all().len());
    }

    #[test]
    fn tool_names_translate_through_canonical_ids() {
        let claude = claude::FLAVOR.tables();
        let copilot = copilot::FLAVOR.tables();
        assert_eq!(
            copilot.tool_name(claude.canonical_tool("Edit")),
            Some("edit")
        );
        assert_eq!(
            copilot.tool_name(claude.canonical_tool("Write")),
            Some("create")
        );
        assert_eq!(
            claude.tool_name(copilot.canonical_tool("view")),
            Some("Read")
        );
        assert_eq!(
            claude.tool_name(claude.canonical_tool("Task")),
            Some("Agent")
        );
        // A tool the target lacks has no name there; an unknown tool passes through.
        assert_eq!(copilot.tool_name(ids::NOTEBOOK_EDIT), None);
        assert_eq!(
            copilot.tool_name("mcp__github__create_issue"),
            Some("mcp__github__create_issue")
        );
        assert_eq!(copilot.tool_name("SomeNewTool"), Some("SomeNewTool"));
    }
}
