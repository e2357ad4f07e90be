//! The dialects. Each is one file holding everything hookx knows about one agent as data: its
//! name tables ([`crate::tables::Tables`]), config layout, detection, discovery, host and install rows
//! ([`crate::tables::DialectDef`]); their types are in [`crate::tables`]. This module is the
//! registry: [`DIALECTS`] lists them, and orders and names the handles. Shared code reads the
//! data and never names a dialect.
//!
//! # How to add a dialect
//!
//! The README's "Adding a dialect" lists every step (file, schema, fixtures, facts page). The
//! file itself: copy the closest dialect (`claude.rs` for a Claude-compatible agent,
//! `copilot.rs` for one with its own payload casing) to `src/dialect/<name>.rs` and fill in:
//! - `TABLES` (one per flavour, a [`crate::tables::Tables`]): event and tool names, argument renames, matcher
//!   targets and style, payload casing, timeouts, handler types, and the run-time `protocol`
//!   rows (payload keys, env, exit codes, answer fields). An event that is really a tool
//!   category (Cursor's `beforeShellExecution`) is a flavour of its own with a
//!   [`crate::tables::ToolScope`] and, when its payload carries the arguments at the top,
//!   `ArgsForm::TopLevel` (`cursor.rs`). An agent with no generic tool event (Windsurf: every
//!   tool event is a category, its fields inside `tool_info`, `ArgsForm::Nested`) gets tool
//!   rules split by category in `convert` and a route per category event in `install`
//!   ([`Dialect::own_events`], `windsurf.rs`).
//! - `DEF` (a [`crate::tables::DialectDef`]): name, [`crate::tables::ConfigSpec`] (handler
//!   keys, document kinds, install paths, `json_syntax`: whether the agent reads its JSON files
//!   with comments; run the client on one, as the live suites'
//!   `*_with_comments_or_trailing_commas` tests do), detection, discovery `locations` and the
//!   ones the agent reads `native`ly (also other agents' files), host (how its payloads and
//!   environment identify it), the route `hookx install` writes, and its JSON Schema.
//! - `verified_with`: the client release whose recorded payloads
//!   (`tests/fixtures/recorded/<client>-<version>/`) confirm the tables; `None` without a
//!   runnable client (documents only).
//!
//! Then one `pub mod` line and one line in [`DIALECTS`] below.
//!
//! `tests/architecture.rs` fails when shared code names a dialect or one of its table strings.

pub mod augment;
pub mod bricks;
pub mod claude;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod cursor;
pub mod droid;
pub mod gemini;
pub mod kilo;
pub mod kiro;
pub mod opencode;
pub mod qwen;
pub mod vscode;
pub mod windsurf;

use crate::model::tool::ids;
use crate::model::{EventKind, MatcherStyle};
use crate::tables::{Dialect, Flavor, MatchOn};
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

/// The agents whose hooks are code (plugins): hookx routes their events through a plugin it
/// generates ([`crate::tables::GeneratedPlugin`]) and reads none of their files. Hosts and
/// targets (`--host`, `--to`), apart from [`DIALECTS`]: discovery, listings and every suite
/// that reads each dialect's files iterate those only.
pub static WRITE_ONLY: &[Dialect] = &[Dialect(&opencode::DEF), Dialect(&kilo::DEF)];

impl Dialect {
    /// Every registered dialect ([`DIALECTS`]).
    pub fn all() -> &'static [Dialect] {
        DIALECTS
    }

    /// The registered dialect with this name, a write-only one included ([`WRITE_ONLY`]).
    pub fn named(name: &str) -> Option<Dialect> {
        DIALECTS
            .iter()
            .chain(WRITE_ONLY)
            .copied()
            .find(|d| d.name() == name)
    }

    /// The write-only dialects ([`WRITE_ONLY`]).
    pub fn write_only() -> &'static [Dialect] {
        WRITE_ONLY
    }

    /// The position in [`DIALECTS`], then [`WRITE_ONLY`], which orders dialects.
    fn index(self) -> usize {
        DIALECTS
            .iter()
            .chain(WRITE_ONLY)
            .position(|d| *d == self)
            .unwrap_or(usize::MAX)
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

/// `--host`, `--from`, `--to`: the registered names, listed in `--help` (the write-only ones
/// last; `--from` refuses them).
impl clap::ValueEnum for Dialect {
    fn value_variants<'a>() -> &'a [Dialect] {
        static BOTH: OnceLock<Vec<Dialect>> = OnceLock::new();
        BOTH.get_or_init(|| DIALECTS.iter().chain(WRITE_ONLY).copied().collect())
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
    }
}

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
    /// ([`crate::tables::Tables::matcher_canonical_tools`] is `[name]`, [`crate::tables::Tables::tool_name`] is `name`,
    /// [`crate::tables::Tables::matcher_knows_tool`] is false), and a caller may skip asking them, which scans
    /// each table (`convert` asks for every name of every matcher). Two bits of a Bloom filter
    /// of every name the tables hold, made once: a name with either bit clear is in none. (A
    /// sorted list of the names cost a small conversion a tenth of its instructions to make.)
    pub fn is_unknown_tool(name: &str) -> bool {
        static KNOWN: OnceLock<[u64; 64]> = OnceLock::new();
        let known = KNOWN.get_or_init(|| {
            let mut bits = [0u64; 64];
            let write_only = WRITE_ONLY.iter().flat_map(|d| d.flavors());
            for flavor in Flavor::all().iter().copied().chain(write_only) {
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

    fn index(self) -> usize {
        Flavor::all()
            .iter()
            .position(|f| *f == self)
            .unwrap_or(usize::MAX)
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

/// `simulate --host`, `exec --as`: every flavour's name.
impl clap::ValueEnum for Flavor {
    fn value_variants<'a>() -> &'a [Flavor] {
        Flavor::all()
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()))
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
                // A second name of one event is one firing of it, told by a field's value.
                let first = t.event_name(kind);
                assert!(
                    first == Some(*name) || t.event_value(name).is_some(),
                    "{flavor:?} {name}"
                );
                assert_eq!(
                    t.event_names(kind).count() > 1,
                    t.event_value(name).is_some()
                );
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
