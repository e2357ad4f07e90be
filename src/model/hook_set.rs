//! Parsed hook configuration: documents, rules and where each came from.

use super::{EventKind, Handler};
use crate::dialect::{Dialect, Flavor};
use serde::Serialize;
use serde_json::{Map, Value};

/// Where a rule or handler was written: a file and a JSON pointer into it (for YAML frontmatter,
/// a pointer into the frontmatter). Line and column are computed from the pointer when reported.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Origin {
    pub file: String,
    pub pointer: String,
}

/// How the rules sat in their file, so that the same dialect writes them back the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum RuleShape {
    /// `{matcher?, hooks: [handler…]}`.
    Group,
    /// Copilot: one handler straight in the event's array (its `matcher`, if any, on itself).
    Flat,
}

/// One matcher with its handlers, under one event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rule {
    pub event: EventKind,
    /// The dialect variant the rule was written in: it fixes matcher semantics and the stdin
    /// shape, tool names, env vars and default timeout its handlers expect.
    pub flavor: Flavor,
    /// Matcher text as written; `None` when the key was absent.
    pub matcher: Option<String>,
    pub handlers: Vec<Handler>,
    pub shape: RuleShape,
    /// Group fields hookx does not know, kept verbatim.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
    #[serde(skip)]
    pub origin: Origin,
}

/// The kind of file a document came from; it decides where its hooks block sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum DocumentKind {
    /// Claude `settings.json` / `settings.local.json`: a `hooks` object among other settings.
    ClaudeSettings,
    /// Claude plugin `hooks/hooks.json` (`description`, `hooks`; field: events at the top level).
    ClaudePlugin,
    /// YAML frontmatter of a Claude skill (`SKILL.md`) or agent markdown file.
    ClaudeFrontmatter,
    /// `{"version": 1, "hooks": …}`.
    CopilotFile,
    /// Bricks `hooks.json`.
    BricksFile,
}

/// One parsed config file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Document {
    pub dialect: Dialect,
    pub kind: DocumentKind,
    pub rules: Vec<Rule>,
    /// Whether the events sat under a `hooks` key (Bricks and Claude plugins may omit it).
    pub wrapped: bool,
    /// Every other top-level key, in order (settings, `version`, `description`,
    /// `disableAllHooks`, …).
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
    /// How many `extra` keys came before `hooks`, so that it is written back in its place.
    #[serde(skip)]
    pub hooks_index: usize,
    /// Keys of the hooks object that are not event arrays hookx could read, kept verbatim.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub extra_hooks: Map<String, Value>,
    /// For frontmatter: the markdown around the `hooks:` block, to write the file back.
    #[serde(skip)]
    pub markdown: Option<Frontmatter>,
}

/// A markdown file with YAML frontmatter; hookx owns only the `hooks` key.
#[derive(Clone, Debug, PartialEq)]
pub struct Frontmatter {
    /// The frontmatter as YAML text (without the `---` fences).
    pub yaml: String,
    /// Everything after the closing fence.
    pub body: String,
}

impl Document {
    /// An empty document of the given kind, as conversion builds one.
    pub fn new(dialect: Dialect, kind: DocumentKind) -> Document {
        Document {
            dialect,
            kind,
            rules: Vec::new(),
            wrapped: true,
            extra: Map::new(),
            extra_hooks: Map::new(),
            hooks_index: 0,
            markdown: None,
        }
    }

    /// Claude's `"disableAllHooks": true` turns every hook of the scope off.
    pub fn disable_all_hooks(&self) -> bool {
        self.extra.get("disableAllHooks") == Some(&Value::Bool(true))
    }
}
