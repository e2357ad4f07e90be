//! Parsed hook configuration: documents, rules and where each came from.

use super::{Dialect, Flavor};
use crate::model::{EventKind, Handler};
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

impl Rule {
    /// The JSON pointer of its handler `i` in its file.
    pub fn handler_pointer(&self, i: usize) -> String {
        match self.shape {
            RuleShape::Group => format!("{}/hooks/{i}", self.origin.pointer),
            RuleShape::Flat => self.origin.pointer.clone(),
        }
    }
}

/// The kind of file a document came from (Claude settings, plugin or frontmatter; a Copilot
/// file): rows of a dialect's [`crate::tables::Documents`]. It decides where the hooks
/// block sits and which other keys the file holds. Equal by name; serialized as the name.
#[derive(Debug)]
pub struct DocumentKind {
    pub name: &'static str,
    /// Whether events may sit at the top level, without the `hooks` wrapper.
    pub wrapper_optional: bool,
    /// Whether its agent reads the events at the top level only: a `hooks` wrapper is read as
    /// an event it does not have, and none of the hooks inside it runs (Droid's `hooks.json`).
    pub wrapper_ignored: bool,
    /// The only top-level keys the file holds besides its hooks; `None`: any (settings).
    pub top_keys: Option<&'static [&'static str]>,
    /// A top-level key whose variables every hook command of the session sees (`env`).
    pub session_env: Option<&'static str>,
    /// Whether it is markdown frontmatter (where `once` applies).
    pub frontmatter: bool,
}

impl PartialEq for DocumentKind {
    fn eq(&self, other: &DocumentKind) -> bool {
        self.name == other.name
    }
}

impl Eq for DocumentKind {}

impl Serialize for DocumentKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name)
    }
}

/// One parsed config file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Document {
    pub dialect: Dialect,
    pub kind: &'static DocumentKind,
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
    pub fn new(dialect: Dialect, kind: &'static DocumentKind) -> Document {
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

    /// A kill switch that is on in this file (Claude's `"disableAllHooks": true` turns every
    /// hook of the scope off), if any.
    pub fn kill_switch_on(&self) -> Option<&'static crate::tables::KillSwitch> {
        Dialect::all()
            .iter()
            .filter_map(|d| d.def().kill_switch.as_ref())
            .find(|k| k.is_off(self))
    }
}
