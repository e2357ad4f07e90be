//! Where an agent reads hooks from: [`Location`]s, each a [`Root`], a [`Pattern`] below it and
//! the [`Scope`] its files have. Each dialect lists its own; `crate::discover` looks there.

use super::Dialect;
use serde::Serialize;

/// How far a source reaches, as its agent defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// The machine's policy, deployed by an administrator (Claude's managed settings,
    /// Copilot's policy hooks): above every other scope.
    Managed,
    /// The user's own settings, for every project.
    User,
    /// Committed with the project.
    Project,
    /// Claude `.claude/settings.local.json`, Copilot `.github/copilot/settings.local.json`:
    /// this project, this machine, not committed.
    Local,
    /// A Claude plugin's `hooks/hooks.json`.
    Plugin,
    /// Frontmatter of a Claude skill: active while the skill is.
    Skill,
    /// Frontmatter of a Claude agent: active while the agent is.
    Agent,
    /// Bricks' global file.
    Global,
}

impl Scope {
    pub fn name(self) -> &'static str {
        match self {
            Scope::Managed => "managed",
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Local => "local",
            Scope::Plugin => "plugin",
            Scope::Skill => "skill",
            Scope::Agent => "agent",
            Scope::Global => "global",
        }
    }

    /// Hooks that only apply while one component (a skill, an agent) is active.
    pub fn is_component(self) -> bool {
        matches!(self, Scope::Skill | Scope::Agent)
    }
}

/// Which directory a location is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Root {
    Home,
    Project,
    /// The dialect's policy folder for this operating system (`Context::managed_dir` in `crate::context`).
    Managed,
}

/// Which files below a root a location names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// One file.
    File(&'static str),
    /// Every file directly in `dir` whose name ends with `suffix`, in name order.
    Dir {
        dir: &'static str,
        suffix: &'static str,
    },
    /// `dir/*/name`: one file per subdirectory (skills).
    Sub {
        dir: &'static str,
        name: &'static str,
    },
    /// Every file directly in `dir`, in name order: hook scripts named after their event
    /// ([`crate::tables::ScriptLayout`]).
    Scripts(&'static str),
    /// The hook files of the plugins the agent loads, found through its plugin registries
    /// (its dialect's [`crate::tables::PluginSpec`], [`crate::plugins`]).
    Plugins,
}

impl Pattern {
    /// For `dir/*/name`, the folder `*` that `file`, one of its files, is in: `file` less
    /// `name`'s parts (a plugin's or extension's folder).
    pub fn sub_folder<'a>(&self, file: &'a std::path::Path) -> Option<&'a std::path::Path> {
        match self {
            Pattern::Sub { name, .. } => file
                .ancestors()
                .nth(std::path::Path::new(name).components().count()),
            _ => None,
        }
    }
}

/// One place an agent reads hooks from.
#[derive(Debug, PartialEq, Eq)]
pub struct Location {
    /// Stable name, used by `DialectDef::native` and in JSON output.
    pub id: &'static str,
    pub dialect: Dialect,
    pub scope: Scope,
    pub root: Root,
    pub pattern: Pattern,
}
