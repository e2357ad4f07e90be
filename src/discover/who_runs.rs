//! Who runs a source's hooks under a host: the host itself (it reads the file natively),
//! `hookx run` (only once the file is trusted), or nobody.

use super::source::Source;
use crate::context::locations;
use crate::tables::{Dialect, Location, Scope};
use serde::Serialize;

/// Who runs a source's hooks under a given host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Runner {
    /// The host reads the file itself.
    Native,
    /// Only `hookx run` can run it, and only once it is trusted.
    Hookx,
    /// Skill or agent hooks under another host: they apply only while their component is
    /// active in Claude, which hookx cannot know, so nobody runs them.
    Inactive,
    /// A plugin its agent does not load (not enabled, not installed): nobody runs it.
    Off,
}

impl Runner {
    pub fn name(self) -> &'static str {
        match self {
            Runner::Native => "native",
            Runner::Hookx => "hookx",
            Runner::Inactive => "inactive",
            Runner::Off => "off",
        }
    }
}

/// Whether `host` reads files of `location` by itself (`DialectDef::native`).
pub fn is_native(host: Dialect, location: &Location) -> bool {
    host.def().native.contains(&location.id)
}

/// Who runs `source`'s hooks under `host`.
pub fn runner(host: Dialect, source: &Source) -> Runner {
    if !is_on_under(source, host) {
        return Runner::Off;
    }
    // A file the host drops whole runs only through hookx's route.
    if source.dropped_by(host).is_some() {
        return Runner::Hookx;
    }
    location_runner(host, source.location)
}

/// The folder variable that takes `source` out of what runs it under `host`: a user file found
/// where the variable says, as its own agent reads it, which only `hookx run` would run under
/// `host`, and `hookx run` reads no variable a project could set (attacks rows 220, 366). Doctor,
/// simulate and list all ask here.
pub fn moved_from_hookx(
    ctx: &crate::context::Context,
    host: Dialect,
    source: &Source,
) -> Option<&'static crate::tables::HomeVar> {
    if runner(host, source) != Runner::Hookx {
        return None;
    }
    ctx.moved_by(source.location).map(|(var, _)| var)
}

/// Whether `source`'s hooks run at all under `host` (natively, by the agent's view of its
/// plugins; through hookx, by the trusted view).
fn is_on_under(source: &Source, host: Dialect) -> bool {
    source.plugin.is_none_or(|p| {
        let standing = match is_native(host, source.location) {
            true => p.agent,
            false => p.trusted,
        };
        standing == crate::plugins::Standing::Loaded
    })
}

/// Who runs the hooks of files at `location` under `host`.
pub fn location_runner(host: Dialect, location: &Location) -> Runner {
    if is_native(host, location) {
        Runner::Native
    } else if location.scope.is_component() {
        Runner::Inactive
    } else {
        Runner::Hookx
    }
}

/// Whether `hookx run --host HOST` needs to read files at `location`: files it runs itself, and
/// files the host runs natively whose handlers could make one of those a duplicate (same
/// dialect, de-duplicated: see [`effective_rules`]) or turn them off (`disableAllHooks`, which
/// which only sources of its own dialect obey). A dialect that de-duplicates nothing (Copilot)
/// needs none of its native files, and component-scoped files run nowhere but natively.
///
/// [`effective_rules`]: super::effective_rules
pub fn needed_for_run(host: Dialect, location: &Location) -> bool {
    // The host's policy may leave only policy hooks running (`allowManagedHooksOnly`).
    if location.scope == Scope::Managed && location.dialect == host {
        return true;
    }
    // Handlers the host leaves to hookx by a setting of its own, and that setting's file.
    if needed_for_switch(host, location) {
        return true;
    }
    match location_runner(host, location) {
        Runner::Hookx => true,
        Runner::Inactive | Runner::Off => false,
        Runner::Native => {
            location.dialect.config().merges_identical_handlers
                && locations().any(|l| {
                    l.dialect == location.dialect && location_runner(host, l) == Runner::Hookx
                })
        }
    }
}

/// Whether `hookx run --host HOST` reads files at `location` once a file it runs holds a copy
/// `convert` made (`crate::plan`): the host's own hook files, which may hold the rule the copy
/// came from, or another copy of it (not plugins or components: `convert` writes none there).
pub fn read_for_copies(host: Dialect, location: &Location) -> bool {
    location.dialect == host
        && !location.scope.is_component()
        && location.scope != Scope::Plugin
        && location_runner(host, location) == Runner::Native
}

/// Whether hookx must see `source` trusted before running it under `host`: only sources hookx
/// runs itself need trust; what the host runs natively was the host's call.
pub fn needs_trust(host: Dialect, source: &Source) -> bool {
    runner(host, source) == Runner::Hookx
}

/// Whether `hookx run --host HOST` reads files at `location` only to tell which of the host's
/// own handlers, written in a foreign dialect's form, its switch turns off ([`needed_for_switch`]):
/// such files are read up to a byte budget per event (`walk::SWITCH_ONLY_BYTES`).
pub fn read_only_for_switch(host: Dialect, location: &Location) -> bool {
    let config = host.config();
    let keyed_alike = config.foreign_switches.iter().any(|s| {
        s.hooks.is_some_and(|h| h.location != location.id)
            && config.reads_foreign_as.iter().any(|(d, _)| *d == s.dialect)
    });
    keyed_alike
        && location.dialect == host
        && is_native(host, location)
        && location.scope != Scope::Managed
        && location_runner(host, location) == Runner::Native
        && !location.dialect.config().merges_identical_handlers
}

/// Whether `hookx run --host HOST` needs files at `location` to tell which handlers the host
/// leaves to hookx: the foreign files it reads, its own files (which may hold a handler in
/// the foreign dialect's form, keyed alike), and the file holding its list.
fn needed_for_switch(host: Dialect, location: &Location) -> bool {
    let config = host.config();
    config.foreign_switches.iter().any(|s| {
        let written_as = || config.reads_foreign_as.iter().any(|(d, _)| *d == s.dialect);
        (s.drops.is_some() && s.dialect == location.dialect && is_native(host, location))
            || s.hooks.is_some_and(|h| {
                location.id == h.location
                    || (is_native(host, location)
                        && (s.dialect == location.dialect
                            || (location.dialect == host && written_as())))
            })
    })
}

/// Each place `host`'s own state file `rel` (`.codex/config.toml`) may be read from: where
/// [`crate::context::Context::agent_file`] says and, on the run path (which takes no folder
/// variable for where hooks are: a project could set one), also below the agent's folder
/// variable the environment sets (`CODEX_HOME`), where the agent started with it reads it
/// ([`crate::route::hosts_own_file`]). What the host does by its state there (a folder it
/// trusts, a handler its user reviewed) stands in for hookx's own run of a rule only where
/// every place says so: read below the home alone, a review left there from before the user
/// set `CODEX_HOME` made the route skip a guard Codex skipped too (attacks row 461); read below
/// the variable alone, a project setting it could make a guard run nowhere. Twice at worst.
pub fn host_state_files(
    ctx: &crate::context::Context,
    host: Dialect,
    rel: &str,
) -> Vec<std::path::PathBuf> {
    let mut each = vec![ctx.agent_file(host, rel)];
    let moved = crate::route::hosts_own_file(&ctx.agents_home, host, rel);
    // A command the user types already reads where the variables it was given say.
    if each[0] == ctx.agents_home.join(rel) && !each.contains(&moved) {
        each.push(moved);
    }
    each
}

/// Where `host`'s folder record is, for messages: its file where the agent started from this
/// command's shell reads it ([`crate::context::Context::agent_file`]).
pub fn folder_record(
    ctx: &crate::context::Context,
    host: Dialect,
    gate: &crate::tables::FolderTrust,
) -> String {
    let file = gate.record.file();
    let at = ctx.agent_file(host, file);
    match at == ctx.agents_home.join(file) {
        true => gate.describe(&format!("~/{file}")),
        false => gate.describe(&ctx.display(&at)),
    }
}

/// Whether `host` trusts the project folder: its record says so (read where the agent reads
/// it, each place [`host_state_files`] gives), its own setting turns folder trust off
/// (`FolderTrust::off_setting`), or a variable that trusts it is set (`FolderTrust::trust_vars`;
/// on the run path not one the agent sets itself, `FolderTrust::set_after_load`); a variable
/// that distrusts it (`FolderTrust::distrust_vars`) outweighs them all, as in Gemini CLI
/// (attacks row 422).
///
/// A variable naming the record itself (`FolderTrust::record_var`) is read for the commands a
/// user types only: `hookx run` takes no place from a variable a project could set for the
/// host's hooks (issue 23 item 4). Where only the record it names trusts the folder, the route
/// runs the original beside the host's copy: twice at worst; in a folder it does not trust,
/// Gemini CLI registers no hook at all (attacks row 462) or, under `--skip-trust`, no project
/// hook, so a record there that distrusts it never leaves a guard to nobody.
pub fn folder_trusted(
    ctx: &crate::context::Context,
    host: Dialect,
    gate: &crate::tables::FolderTrust,
) -> bool {
    let project = ctx.project.canonicalize();
    let project = project.as_deref().unwrap_or(&ctx.project);
    // In a linked worktree an agent that reads its project files at the main checkout judges
    // the checkout (attacks row 2023).
    let main = gate
        .main_checkout_in_worktree
        .then(|| super::worktree::main_checkout(project))
        .flatten();
    let project = main.as_deref().unwrap_or(project);
    let set = |vars: &[(&str, &str)]| {
        vars.iter()
            .any(|(var, value)| std::env::var(var).is_ok_and(|v| v == *value))
    };
    if set(gate.distrust_vars) {
        return false;
    }
    let json = crate::config::syntax::value_as;
    // Trusted where the host reads each file first (`n` 0), and where it reads it second
    // (`n` 1: below the folder the agent's variable names, where it does; else first again).
    let trusted_at = |n: usize| {
        let place = |f: &str| {
            let each = host_state_files(ctx, host, f);
            each.get(n).unwrap_or(&each[0]).clone()
        };
        gate.off_setting
            .as_ref()
            .is_some_and(|off| off.is_off(place, json))
            || gate.trusts(place, project, json)
    };
    // On the run path a variable the agent sets after reading its settings is no proof (Gemini
    // CLI's `--skip-trust`, the project's file not loaded): taken for trust, a copy there stood
    // in for a guard that then ran nowhere.
    let proves = |(var, _): &&(&str, &str)| {
        ctx.vars == crate::context::Vars::User || !gate.set_after_load.contains(var)
    };
    let trusting = gate
        .trust_vars
        .iter()
        .filter(proves)
        .any(|(var, value)| std::env::var(var).is_ok_and(|v| v == *value));
    trusting || (trusted_at(0) && trusted_at(1))
}
