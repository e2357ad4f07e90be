//! Kilo Code's CLI (`@kilocode/cli` 7.7.7): a fork of OpenCode with the same plugin system under
//! its own names: `.kilo/` (and `.kilocode/`) folders, `~/.config/kilo/`, `kilo.json`, `KILO_*`
//! variables. Its tools, arguments, hooks and events are OpenCode's (run 7.7.7: the same ground
//! truth passes, tests/live_opencode.rs); what differs is in conformance/opencode-facts.md. The
//! plugin hookx writes is OpenCode's ([`super::opencode::PLUGIN`]).

use super::opencode::{
    Engine, engine_config, engine_def, engine_file, engine_location, engine_tables,
};
use crate::tables::{ConfigSpec, Dialect, DialectDef, DocumentKind, Flavor, Location, Tables};

pub static DIALECT: Dialect = Dialect(&DEF);
pub static FLAVOR: Flavor = Flavor(&TABLES);

/// What names Kilo: its folders, files and version (conformance/opencode-facts.md).
static KILO: Engine = Engine {
    name: "kilo",
    display: "Kilo Code CLI",
    product: "Kilo Code CLI 7.7.7 (plugins)",
    verified_with: "kilo-7.7.7",
    document: "KiloPlugin",
    programs: &["kilo"],
    folders: &[".kilo", ".kilocode", ".config/kilo"],
    install_project: ".kilo/plugin/hookx.js",
    install_user: ".config/kilo/plugin/hookx.js",
    converted: ".kilo/plugin/hookx-converted.js",
    converted_id: "kilo-converted",
    schema: "kilo.schema.json",
};

pub static TABLES: Tables = engine_tables(&KILO, Dialect(&DEF));
pub static FILE: DocumentKind = engine_file(&KILO);
/// The plugin `convert` wrote, read back as OpenCode's is (Kilo 7.7.7 does not load
/// OpenCode's: run, `migration_story_runs_each_rule_once` in tests/live_opencode.rs).
pub static LOCATIONS: [Location; 1] = [engine_location(&KILO, Dialect(&DEF))];
pub static DEF: DialectDef = engine_def(&KILO, &[Flavor(&TABLES)], &CONFIG, &LOCATIONS);
static CONFIG: ConfigSpec = engine_config(&KILO, &FILE);
