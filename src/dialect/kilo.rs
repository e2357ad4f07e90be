//! Kilo Code's CLI (`@kilocode/cli` 7.7.7): a fork of OpenCode with the same plugin system under
//! its own names: `.kilo/` (and `.kilocode/`) folders, `~/.config/kilo/`, `kilo.json`, `KILO_*`
//! variables. Its tools, arguments, hooks and events are OpenCode's (run 7.7.7: the same ground
//! truth passes, tests/live_opencode.rs); what differs is in conformance/opencode-facts.md. The
//! plugin hookx writes is OpenCode's ([`super::opencode::PLUGIN`]).

use super::opencode::{Engine, engine_config, engine_def, engine_file, engine_tables};
use crate::tables::{
    ConfigSpec, Dialect, DialectDef, DocumentKind, Flavor, Location, Pattern, Root, Scope, Tables,
};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

pub static TABLES: Tables = engine_tables("kilo", Dialect(&DEF), "kilo-7.7.7");

pub static FILE: DocumentKind = engine_file("KiloPlugin");

const CONVERTED: &str = ".kilo/plugin/hookx-converted.js";

/// The plugin `convert` wrote, read back as OpenCode's is.
pub static LOCATIONS: [Location; 1] = [Location {
    id: "kilo-converted",
    dialect: Dialect(&DEF),
    scope: Scope::Project,
    root: Root::Project,
    pattern: Pattern::File(CONVERTED),
}];

pub static DEF: DialectDef = engine_def(
    Engine {
        name: "kilo",
        display: "Kilo Code CLI",
        product: "Kilo Code CLI 7.7.7 (plugins)",
        programs: &["kilo"],
        folders: &[".kilo", ".kilocode", ".config/kilo"],
        schema: "kilo.schema.json",
    },
    &[Flavor(&TABLES)],
    &CONFIG,
    &LOCATIONS,
    &["kilo-converted"],
);

static CONFIG: ConfigSpec = engine_config(
    ".kilo/plugin/hookx.js",
    ".config/kilo/plugin/hookx.js",
    CONVERTED,
    &FILE,
);
