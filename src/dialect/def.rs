//! [`DialectDef`]: everything about one agent besides its name tables, as data. Each dialect
//! file holds one `DEF`; [`super::DIALECTS`] lists them.

use super::Flavor;
use crate::config::spec::ConfigSpec;
use crate::discover::Location;
use crate::model::EventKind;

/// One agent: its names, config layout, where its files are, how to tell its files and its
/// payloads apart, and how `hookx install` routes it.
pub struct DialectDef {
    /// The `--host` / `--from` / `--to` name; also the name of its first flavour.
    pub name: &'static str,
    /// How messages name the agent ("Copilot").
    pub display: &'static str,
    /// The product, as `--help` lists it ("GitHub Copilot CLI").
    pub product: &'static str,
    /// Its flavours; new rules are written in the first.
    pub flavors: &'static [Flavor],
    pub config: &'static ConfigSpec,
    pub detect: DetectSpec,
    /// Every place the agent reads hooks from, widest scope first (ids are unique across
    /// dialects and appear in JSON output).
    pub locations: &'static [Location],
    /// The location ids, its own or other agents', whose files the agent runs by itself:
    /// hookx must not run them under this host, and they need no trust there.
    pub native: &'static [&'static str],
    /// A settings key that turns every hook of this dialect off, if it has one.
    pub kill_switch: Option<KillSwitch>,
    /// A settings list of handlers the agent never runs, if it has one.
    pub disabled_handlers: Option<DisabledHandlers>,
    pub host: HostSpec,
    pub route: RouteSpec,
    /// Where the agent reads its project file only in a folder the user trusted, how it
    /// records that trust: `hookx install` then tells the user the one step a project route
    /// needs.
    pub folder_trust: Option<FolderTrust>,
    pub schema: Schema,
}

/// How a file is told to be this agent's when `--from` is not given (`crate::config::detect`).
pub struct DetectSpec {
    /// Path fragments of the agent's own folders (`.claude/`); the one nearest the file name
    /// decides.
    pub dirs: &'static [&'static str],
    /// File names that are this agent's wherever they sit, when no folder decided.
    pub file_names: &'static [&'static str],
    /// Whether a file without any of the agent's marks may be its: false when its files are
    /// otherwise indistinguishable from another agent's (Copilot's PascalCase form is Claude's).
    pub unmarked: bool,
    /// Flavours whose event names only this agent writes: one of them settles the dialect.
    pub sole_event_flavors: &'static [Flavor],
    /// Top-level and handler keys only this agent writes: one settles the dialect.
    pub sole_top_keys: &'static [&'static str],
    pub sole_handler_keys: &'static [&'static str],
    /// Top-level and handler keys this agent shares with no agent that lacks them: a file with
    /// one is a file of one of the agents listing it.
    pub top_keys: &'static [&'static str],
    pub handler_keys: &'static [&'static str],
    /// Chosen when the content fits several dialects or none (the most common agent).
    pub preferred: bool,
}

/// A settings key that turns every hook of the dialect off: `"disableAllHooks": true` (Claude),
/// `"hooksConfig": {"enabled": false}` (Gemini).
pub struct KillSwitch {
    /// The top-level key.
    pub key: &'static str,
    /// The key inside it that holds the flag, when the flag is nested.
    pub inner: Option<&'static str>,
    /// The flag's value that turns the hooks off.
    pub off: bool,
    /// The location ids whose files may set it, lowest precedence first: the highest that sets
    /// it decides.
    pub locations: &'static [&'static str],
}

/// How hookx tells, when `--host` is not given, that this agent sent a payload.
pub struct HostSpec {
    /// Payload keys only this agent sends (asked after casing and timestamps).
    pub payload_keys: &'static [&'static str],
    /// Events only this agent sends, asked last.
    pub payload_events: &'static [EventKind],
    /// Variables the agent sets for its hooks that name it; asked when the payload does not
    /// tell. One another agent sets too (`CLAUDE_PROJECT_DIR`, set by Copilot) is asked last.
    pub env_markers: &'static [&'static str],
}

/// The routing entry `hookx install` writes into the host's file for one event.
pub struct RouteSpec {
    /// The matcher of the entry, if the host needs one to fire on every tool.
    pub matcher: Option<&'static str>,
    /// Whether the handler sits in a `{matcher?, hooks: […]}` group, else straight in the
    /// event's array.
    pub grouped: bool,
    /// The handler key the command goes in.
    pub command_key: &'static str,
    /// The handler key the route's timeout goes in, if the host needs one.
    pub timeout_key: Option<&'static str>,
}

/// A settings list naming handlers the agent never runs (Gemini CLI `hooksConfig.disabled`,
/// run 0.61.0): `{KEY: {INNER: [label, …]}}`, a handler's label being its `label_key`, else its
/// command. Read from the trusted files of `locations`; a label listed in any of them is off.
pub struct DisabledHandlers {
    pub key: &'static str,
    pub inner: &'static str,
    pub label_key: &'static str,
    pub locations: &'static [&'static str],
}

impl DisabledHandlers {
    /// The labels a file's top-level keys list.
    pub fn labels<'a>(
        &self,
        top: &'a serde_json::Map<String, serde_json::Value>,
    ) -> impl Iterator<Item = &'a str> {
        top.get(self.key)
            .and_then(|v| v.get(self.inner))
            .and_then(serde_json::Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(serde_json::Value::as_str)
    }

    /// A handler's label: its `label_key`, else its command line.
    pub fn label<'a>(&self, handler: &'a crate::model::Handler) -> Option<&'a str> {
        if let Some(label) = handler.extra.get(self.label_key).and_then(|v| v.as_str()) {
            return Some(label);
        }
        match &handler.kind {
            crate::model::HandlerKind::Command(c) => c.unix_line(),
            _ => None,
        }
    }
}

/// An agent's folder trust: a file below the home mapping real folder paths to trust levels
/// (`{"/path": "LEVEL"}`); the longest path that covers a folder decides.
pub struct FolderTrust {
    pub file: &'static str,
    /// Levels that trust the folder named and every folder below it.
    pub trust_folder: &'static [&'static str],
    /// Levels that trust the parent of the folder named and every folder below it.
    pub trust_parent: &'static [&'static str],
    /// The one step that trusts a folder, for messages.
    pub step: &'static str,
}

impl FolderTrust {
    /// Whether the trust file below `home` trusts `folder` (a real path).
    pub fn trusts(&self, home: &std::path::Path, folder: &std::path::Path) -> bool {
        let Ok(text) = std::fs::read_to_string(home.join(self.file)) else {
            return false;
        };
        let Ok(serde_json::Value::Object(levels)) = serde_json::from_str(&text) else {
            return false;
        };
        let covering = levels.iter().filter_map(|(path, level)| {
            let level = level.as_str()?;
            let path = std::path::Path::new(path);
            let base = match self.trust_parent.contains(&level) {
                true => path.parent()?,
                false => path,
            };
            folder
                .starts_with(base)
                .then(|| (base.components().count(), level))
        });
        covering
            .max_by_key(|(depth, _)| *depth)
            .is_some_and(|(_, level)| {
                self.trust_folder.contains(&level) || self.trust_parent.contains(&level)
            })
    }
}

impl KillSwitch {
    /// The flag as a file's top-level keys set it, if they do (a non-boolean is `Err`).
    pub fn flag<'a>(
        &self,
        top: &'a serde_json::Map<String, serde_json::Value>,
    ) -> Option<Result<bool, &'a serde_json::Value>> {
        let mut value = top.get(self.key)?;
        if let Some(inner) = self.inner {
            value = value.as_object()?.get(inner)?;
        }
        Some(value.as_bool().ok_or(value))
    }

    /// Whether a file's top-level keys turn the hooks off.
    pub fn is_off(&self, top: &serde_json::Map<String, serde_json::Value>) -> bool {
        matches!(self.flag(top), Some(Ok(flag)) if flag == self.off)
    }

    /// The flag's JSON pointer in a file.
    pub fn pointer(&self) -> String {
        match self.inner {
            Some(inner) => format!("/{}/{inner}", self.key),
            None => format!("/{}", self.key),
        }
    }

    /// The flag's name: `disableAllHooks`, `hooksConfig.enabled`.
    pub fn name(&self) -> String {
        match self.inner {
            Some(inner) => format!("{}.{inner}", self.key),
            None => self.key.to_string(),
        }
    }

    /// The setting that turns the hooks off: `disableAllHooks: true`.
    pub fn shown(&self) -> String {
        format!("{}: {}", self.name(), self.off)
    }

    /// The same as JSON text: `"disableAllHooks": true`, `"hooksConfig": {"enabled": false}`.
    pub fn json(&self) -> String {
        match self.inner {
            Some(inner) => format!("\"{}\": {{\"{inner}\": {}}}", self.key, self.off),
            None => format!("\"{}\": {}", self.key, self.off),
        }
    }
}

/// The hand-written JSON Schema of the dialect's files (`schemas/`).
pub struct Schema {
    pub file_name: &'static str,
    pub text: &'static str,
}
