//! The handles on a dialect's data: [`Dialect`] on its [`DialectDef`], [`Flavor`] on one
//! flavour's [`Tables`]. Equal by name; the registry (`crate::dialect`) lists them and orders
//! them, and gives `all` and `named`.

use super::{ConfigSpec, DialectDef, HandlerField, Tables};
use crate::model::EventKind;
use serde::Serialize;

/// A config-file dialect: a handle on its [`DialectDef`]. Equal by name, ordered as registered.
#[derive(Clone, Copy)]
pub struct Dialect(pub(crate) &'static DialectDef);

impl Dialect {
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

/// The variant of a dialect a rule is written in: a handle on its [`Tables`]. Copilot has two:
/// camelCase event names get the camelCase payload, Copilot tool names and anchored matchers;
/// PascalCase event names (the VS Code-compatible form) get a snake_case payload, Claude tool
/// names and anchored matchers tried against both tool names.
#[derive(Clone, Copy)]
pub struct Flavor(pub(crate) &'static Tables);

impl Flavor {
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
    pub fn handler_key(self, field: HandlerField) -> Option<&'static str> {
        self.0
            .handler_key_overrides
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, k)| *k)
            .or_else(|| self.dialect().config().key(field))
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
