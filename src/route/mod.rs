//! Routes: the entries `hookx install` writes into a host agent's own config file so that the
//! host runs `hookx run --host HOST` for an event, and the engine's knowledge of them.
//!
//! Each entry is a command `<hookx> run --host HOST` with the hookx path POSIX-quoted. Two
//! recognisers, for two questions:
//!
//! - Does this handler run a route? Any command line that runs `hookx run --host HOST`,
//!   whatever the user wrapped it in ([`is_hookx_entry`], [`is_hookx_handler`]): discovery
//!   never dispatches it (that would recurse) and convert does not copy it.
//! - Did install write this entry? Only one whose command line is exactly one install writes,
//!   carrying install's provenance record (`"hookx": {"created": …}`,
//!   [`crate::config::MARKER`]) or written before there was one ([`is_own_route`]): install
//!   re-points those in place instead of adding more, uninstall removes exactly them, and
//!   install records the host's review of exactly them. A line of the user's own that merely
//!   contains a route is left alone, also where the user edited it into install's entry.
//!
//! `entry` recognises and writes the command line; `file` finds, adds and removes the entries
//! in a host's file; `switch` keeps the host setting that leaves handlers to the routes.
//!
//! This module sits below discovery (which asks [`is_hookx_handler`]): it takes the home and
//! project folders it needs, never a discovery context.

mod entry;
mod file;
mod layer;
mod plugin;
pub mod review;
mod switch;

pub use entry::{
    Gone, Program, failed_route_blocks, guards_user_routes, hookx_handler_can_run, is_hookx_entry,
    is_hookx_handler, is_hookx_program, is_plain_route, is_this_hookx, is_users_route_key,
    lacks_blocking_test, lacks_gone_guard, route_can_run, route_command, route_folder, route_home,
    route_host, route_is_projects, route_key,
};
pub use file::{Created, is_own_route};
pub(crate) use file::{
    Tally, Timeouts, created_file, events_path, fresh_text, install_text, is_edited_route, layout,
    own_route_events, route_timeout, routes_in_list, uninstall_text,
};
pub use layer::{layer_files, layer_texts};
pub use plugin::{
    PluginFile, converted_document, installed_plugin_routes, is_own_plugin, plugin_files,
    plugin_routes,
};
pub(crate) use plugin::{converted_plugin, hand_edit as plugin_hand_edit, plugin_text};
pub use switch::{
    HOME_OWNER, created_folders, listed_keys, recorded_keys, recorded_owners, switch_text,
};

use crate::config::edit::{JsonText, Seg};
use crate::config::scripts;
use crate::tables::Dialect;
use file::{entries_of, find_any_routes, list_route_commands, path_to, route_line};
use layer::option_value;
use std::path::{Path, PathBuf};

/// Where the routing goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum InstallScope {
    /// The project's file (committed with it).
    Project,
    /// The user's file, for every project.
    User,
}

pub use crate::tables::ROUTE_TIMEOUT;

/// The host's own file that install writes (dialects.md §1).
/// `home` and `project` are the folders the two scopes are relative to.
pub fn target(home: &Path, project: &Path, host: Dialect, scope: InstallScope) -> PathBuf {
    let spec = host.config();
    match scope {
        InstallScope::Project => project.join(spec.install_project),
        InstallScope::User => home.join(spec.install_user),
    }
}

/// Whether hookx's user route answers every call of `kind` that `host` sends in `project`
/// ([`left_to_user_route`]'s test, from the project's folder): it runs the event's rules, so a
/// route inside a handler `exec` runs there stands aside (attacks row 421). A project route is
/// not looked for: a rule may run twice there, never zero times.
pub fn user_route_answers(
    home: &Path,
    host: Dialect,
    project: &Path,
    kind: &crate::model::EventKind,
) -> bool {
    let file = target(home, project, host, InstallScope::Project);
    let Some(dir) = file.parent() else {
        return false;
    };
    host.own_events()
        .into_iter()
        .filter(|(k, ..)| k == kind)
        .any(|(_, name, _)| left_to_user_route(home, host, dir, name))
}

/// Whether the user's route answers `event` for a route that fired from the folder `hook_dir`
/// (a prediction: `hookx run` claims the event instead, [`crate::claim`]; kept for a route
/// inside a handler `exec` runs, [`user_route_answers`]). A host runs both routes when the user and the project route are installed (an agent
/// that runs identical commands once, Claude say, too: the user route carries the user's key,
/// [`route_key`]); only the user's route dispatches then, so that no handler runs twice. The user's route takes the event only where it can run: its
/// program (and, for a host of scripts, the script) exists and may be executed
/// ([`route_can_run`]); a route whose hookx is gone exits 127 (a non-blocking error, or a
/// deny of every call where the host's `failure_denies` says so; a user route on a guard event
/// denies by itself, [`Gone`]), and the event's guards would run nowhere. An unreadable user file changes nothing. The user's route
/// is looked for below `home`.
pub fn left_to_user_route(home: &Path, host: Dialect, hook_dir: &Path, event: &str) -> bool {
    left_to_a_user_route(home, host, hook_dir, event, true)
}

/// [`left_to_user_route`]'s half that `hookx run` still predicts: another host's user route
/// beside this host's user file, which this host runs as its own (attacks row 310). Two hosts'
/// routes make no claim between them ([`crate::claim`] is between one host's two routes).
pub fn left_to_another_hosts_user_route(
    home: &Path,
    host: Dialect,
    hook_dir: &Path,
    event: &str,
) -> bool {
    left_to_a_user_route(home, host, hook_dir, event, false)
}

/// [`left_to_user_route`]; `own`: the host's own user route counts too. The host's command
/// line is read last, only where a user route would answer (a few reads of `/proc`).
fn left_to_a_user_route(
    home: &Path,
    host: Dialect,
    hook_dir: &Path,
    event: &str,
    own: bool,
) -> bool {
    user_route_in_place(home, host, hook_dir, event, own) && !leaves_user_scope_out(host)
}

/// [`left_to_a_user_route`] by the files alone.
fn user_route_in_place(
    home: &Path,
    host: Dialect,
    hook_dir: &Path,
    event: &str,
    own: bool,
) -> bool {
    // The user's `target`: only the home is needed for it.
    let user = home.join(host.config().install_user);
    let Some(user_dir) = user.parent() else {
        return false;
    };
    let same = crate::context::same_place;
    if same(user_dir, hook_dir) {
        return false;
    }
    if reads_user_file_elsewhere(home, host) {
        return false;
    }
    // The agent joins the lists of handlers turned off of every scope, and Gemini's own `/hooks
    // disable` writes the workspace's, the project's file beside this route (attacks row 305):
    // a route turned off there is none the agent runs in this project.
    let project_file = Path::new(host.config().install_project)
        .file_name()
        .filter(|_| host.def().disabled_handlers.is_some())
        .map(|name| hook_dir.join(name));
    let mut listed = project_file
        .and_then(|file| crate::read::text(&file, crate::read::MAX_FILE_BYTES).ok())
        .map(|text| disabled_labels(host, &text))
        .unwrap_or_default();
    // The machine's lists too (Gemini's system settings and defaults): a route an
    // administrator turned off is none the agent runs (attacks row 640).
    if own {
        listed.extend(policy_disabled_labels(host));
    }
    let routes = match event_hidden(home, host, event) {
        Some(_) => Vec::new(),
        None if !own => Vec::new(),
        None => answering_routes(home, &user, host, event, &listed),
    };
    if !routes.is_empty() && reviewed(home, &user, host, &routes) && !refused_whole(&user, host) {
        return true;
    }
    // Another host's user route that install writes beside this host's user file, which this
    // host runs as its own (hookx's VS Code user route in `~/.copilot/hooks`, which Copilot
    // runs, for itself: attacks row 310): a route of the user's, so the call is left to it.
    let names = event_names_of(host, event);
    Dialect::all()
        .iter()
        .filter(|d| **d != host)
        .map(|d| (*d, home.join(d.config().install_user)))
        .filter(|(_, file)| file.parent() == Some(user_dir))
        .any(|(d, file)| {
            names.iter().any(|name| {
                route_commands(home, &file, host, d, name, &listed)
                    .iter()
                    .any(|c| route_can_run(c) && !route_is_projects(c) && reads_home(c, home))
            })
        })
}

/// Whether hookx has a route for `event` in both of `host`'s files, the user's (where the host
/// reads it) and the project's: the host may then run both for one call, and each claims the
/// event ([`crate::claim`]): whichever reaches it first runs the rules, the other repeats its
/// blocking answer. One route alone touches no claim. Remembered by each file's identity.
pub fn routed_in_both_scopes(home: &Path, project: &Path, host: Dialect, event: &str) -> bool {
    [InstallScope::Project, InstallScope::User]
        .into_iter()
        .all(|scope| routed_in(home, project, host, scope, event))
}

/// Whether the host's project file in `project` routes `event`.
pub fn routed_in_project(home: &Path, project: &Path, host: Dialect, event: &str) -> bool {
    routed_in(home, project, host, InstallScope::Project, event)
}

/// The route lines for `event` in `host`'s project file of the folder `dir` (`any`: also those
/// turned off or narrowed to some calls).
pub fn project_routes(
    home: &Path,
    dir: &Path,
    host: Dialect,
    event: &str,
    any: bool,
) -> Vec<String> {
    let file = read_target(home, dir, host, InstallScope::Project);
    routes_of(home, &file, host, host, event, &[], any)
}

/// [`routed_in_both_scopes`] for one scope's file.
fn routed_in(home: &Path, project: &Path, host: Dialect, scope: InstallScope, event: &str) -> bool {
    let path = read_target(home, project, host, scope);
    let Ok(meta) = std::fs::metadata(&path) else {
        return false;
    };
    let routed = || !routes_of(home, &path, host, host, event, &[], true).is_empty();
    // A folder of scripts changes its scripts without changing itself: read each time.
    if meta.is_dir() {
        return routed();
    }
    let what = format!("routed\0{host:?}\0{scope:?}\0{event}\0{}", path.display());
    if let Some(known) = crate::cache::recall(home, &what, &meta) {
        return known;
    }
    let known = routed();
    crate::cache::remember(home, &what, &path, &meta, known);
    known
}

/// Every name `host` gives the event it calls `event` (Copilot's `preToolUse` and
/// `PreToolUse`).
fn event_names_of(host: Dialect, event: &str) -> Vec<&'static str> {
    let tables = || host.flavors().flat_map(|f| f.tables().events.iter());
    let Some((kind, _)) = tables().find(|(_, name)| *name == event) else {
        return Vec::new();
    };
    let mut names: Vec<&'static str> = tables()
        .filter(|(k, _)| k == kind)
        .map(|(_, name)| *name)
        .collect();
    names.dedup();
    names
}

/// Whether the routing command `command` reads `home` (names none, or the same folder).
fn reads_home(command: &str, home: &Path) -> bool {
    route_home(command).is_none_or(|h| crate::context::same_place(Path::new(&h), home))
}

/// Whether `host`'s folder variable (`CODEX_HOME`, `CLINE_DIR`, `COPILOT_HOME`) names another
/// folder than its own below `home`: it reads its user file there, and a route below the home
/// is none it runs (attacks rows 191, 264). A project setting the variable for every hook
/// makes a handler run twice at worst.
pub fn reads_user_file_elsewhere(home: &Path, host: Dialect) -> bool {
    host.def().home_var.as_ref().is_some_and(|var| {
        std::env::var_os(var.var)
            .filter(|d| !d.is_empty())
            .is_some_and(|dir| !crate::context::same_place(Path::new(&dir), &home.join(var.dir)))
    })
}

/// Whether `host` was started with the user's scope left out of the scopes it reads
/// ([`crate::tables::ScopeOption`]: Claude Code's `--setting-sources project,local`): it reads
/// no user file, and hookx's user route there runs nowhere (attacks row 602). An option hookx
/// cannot read leaves the user's scope in, as before it was read.
pub fn leaves_user_scope_out(host: Dialect) -> bool {
    let Some(scope) = host.def().scope_option.as_ref() else {
        return false;
    };
    let pid = std::env::var(scope.pid_var).ok();
    let Some(args) = pid
        .and_then(|p| p.trim().parse().ok())
        .and_then(crate::spawn::ancestor_args)
    else {
        return false;
    };
    option_value(&args, &[scope.option])
        .is_some_and(|list| !list.split(',').any(|s| s.trim() == scope.user))
}

/// Where `host` reads its own file `rel` (`.copilot/settings.json`, below the home): below its
/// folder variable when that names a folder (`$COPILOT_HOME/settings.json`), else below
/// `home`. For the run path's reads of the host's own switch (`disabledHooks`), which the host
/// started hookx with the variable of: read below the home, a route turned off in Copilot's
/// menu stood in for one that answers, and a handler left to hookx ran twice (attacks rows
/// 300, 301). A project that could set the variable for the host's hooks would at worst make a
/// handler run twice, as [`reads_user_file_elsewhere`].
pub fn hosts_own_file(home: &Path, host: Dialect, rel: &str) -> PathBuf {
    let var = host.def().home_var.as_ref();
    let set = var.and_then(|v| Some((v, std::env::var_os(v.var).filter(|d| !d.is_empty())?)));
    let below = |(var, dir): (&crate::tables::HomeVar, std::ffi::OsString)| {
        let rest = match var.dir {
            "" => Some(rel),
            own => rel.strip_prefix(own)?.strip_prefix('/'),
        };
        Some(Path::new(&dir).join(rest?))
    };
    set.and_then(below).unwrap_or_else(|| home.join(rel))
}

/// The path by which `host` names `file` in its review keys ([`crate::tables::RouteTrust`]):
/// its user hook file below `home` is named below the agent's folder variable made canonical
/// where that names the same folder, else below `$HOME` as it is set, links unresolved (Codex
/// 0.171.0's `hooks/list`: `$CODEX_HOME` canonical, `$HOME/.codex` as spelled). hookx's home
/// is the real path: keyed by it, the record of a route in a home reached through a symbolic
/// link named no file Codex reads, and Codex skipped the route silently (attacks row 240).
/// Any other file as it is. The variables are read from the environment: a project that set
/// them could at worst make a review look missing, and a handler run twice.
pub fn review_key_path(home: &Path, host: Dialect, file: &Path) -> PathBuf {
    let rel = host.config().install_user;
    if file != home.join(rel) {
        return file.to_path_buf();
    }
    let set = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let real = |path: &Path| path.canonicalize().ok();
    if let Some(var) = host.def().home_var.as_ref()
        && let Some(value) = set(var.var).as_deref().and_then(real)
        && real(&home.join(var.dir)).as_ref() == Some(&value)
        && let Ok(rest) = Path::new(rel).strip_prefix(var.dir)
    {
        return value.join(rest);
    }
    match set("HOME") {
        Some(spelled) if real(&spelled).as_deref() == real(home).as_deref() => {
            std::path::absolute(&spelled).unwrap_or(spelled).join(rel)
        }
        _ => file.to_path_buf(),
    }
}

/// The file that replaces the install file's event lists below `root`
/// ([`crate::tables::ConfigSpec::install_hidden_by`]), when it holds `event`: the agent runs
/// none of the install file's routes for it (attacks row 387). Read with the agent's own
/// syntax: a file it drops (Droid: a trailing comma) hides nothing (attacks row 420: read
/// leniently, it hid a user route Droid runs, and each rule ran twice).
fn event_hidden(root: &Path, host: Dialect, event: &str) -> Option<PathBuf> {
    let hiding = host
        .config()
        .install_hidden_by
        .iter()
        .map(|rel| root.join(rel));
    let file = hiding.into_iter().find(|file| file.is_file())?;
    crate::source::SourceFile::read(&file)
        .ok()
        .and_then(|src| {
            let syntax = crate::config::read::json_syntax(&src, host);
            crate::config::syntax::parse_json_as(&src, syntax).ok()
        })
        .is_some_and(|value| value.get(event).is_some())
        .then_some(file)
}

/// [`event_hidden`] for `host`'s install file `file` of either scope: the file that hides its
/// routes for `event`, so that install, doctor and simulate say the route runs never (attacks
/// row 387's tools half). `None` for any other file.
pub fn route_hidden_by(file: &Path, host: Dialect, event: &str) -> Option<PathBuf> {
    let config = host.config();
    let root = [config.install_project, config.install_user]
        .iter()
        .filter(|rel| file.ends_with(rel))
        .find_map(|rel| file.ancestors().nth(Path::new(rel).components().count()))?;
    event_hidden(root, host, event)
}

/// Whether an agent that runs only the handlers its user reviewed ([`crate::tables::RouteTrust`],
/// Codex) has a review of one of `routes` in its file `file` that still holds (attacks row 195:
/// a hook of the user's put before hookx's route moves it, its record no longer names it, and
/// Codex skips it silently). A file that does not read as JSON has none.
fn reviewed(home: &Path, file: &Path, host: Dialect, routes: &[String]) -> bool {
    let Some(review) = host.def().route_trust.as_ref() else {
        return true;
    };
    let Some(value) = crate::read::text(file, crate::read::MAX_FILE_BYTES)
        .ok()
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
    else {
        return false;
    };
    let records =
        crate::read::text(&home.join(review.file), crate::read::MAX_FILE_BYTES).unwrap_or_default();
    let is_route = |handler: &serde_json::Value| {
        let command = handler.get("command").and_then(serde_json::Value::as_str);
        command.is_some_and(|c| routes.iter().any(|r| r == c))
    };
    let held: Vec<(String, String)> =
        (review.records)(&review_key_path(home, host, file), &value, &is_route)
            .into_iter()
            .filter(|(key, hash)| (review.hash)(&records, key).as_deref() == Some(hash))
            .collect();
    // A layer the agent was started with (Codex's `--profile`, `-c`) may turn the route off
    // or on again (attacks rows 605, 740, 860): read only where a review holds.
    if held.is_empty() {
        return false;
    }
    let layers = review
        .layer
        .map(|l| layer_texts(home, host, l))
        .unwrap_or_default();
    let records = [records];
    held.iter()
        .any(|(key, hash)| review.runs(&records, &layers, key, hash))
}

/// Whether the host refuses the whole of its file `file`, routes and all
/// ([`crate::tables::StrictLoad`]; attacks row 190: a project route left its events to a user
/// route in a `~/.claude/settings.json` Claude does not load, and every guard ran nowhere).
fn refused_whole(file: &Path, host: Dialect) -> bool {
    host.config().strict_load.is_some()
        && crate::source::SourceFile::read(file)
            .is_ok_and(|src| crate::config::strict_load::refused_whole_text(&src, host).is_some())
}

/// Whether the host waits for a route's handler on every call of `event`, as long as the route
/// install writes: no condition of the user's on it (Claude's `"if": "Bash(*)"`), not run in
/// the background (`"async": true`) (attacks row 196), and no shorter timeout than install
/// writes (`"timeout": 30`: the host cuts the route off there, a slower guard with it, and
/// reads that as a non-blocking error; attacks row 223).
fn answers_every_call(handler: &serde_json::Value, host: Dialect, event: &str) -> bool {
    let config = host.config();
    let keys = &config.run_keys;
    let in_background = config.key(crate::tables::HandlerField::Async);
    keys.condition.is_none_or(|k| handler.get(k).is_none())
        && keys
            .background
            .iter()
            .chain(&in_background)
            .all(|k| handler.get(*k) != Some(&serde_json::Value::Bool(true)))
        && !shorter_timeout(handler, host, event)
}

/// Whether a route's entry (or rule) holds no matcher of the user's (`"matcher": "Bash"`): it
/// runs on every call, not on some only, which leave no route for the others (attacks row
/// 196).
fn every_call(entry: &serde_json::Value, host: Dialect) -> bool {
    match entry.get("matcher") {
        None => true,
        Some(m) => m
            .as_str()
            .is_some_and(|m| ["", "*"].contains(&m) || Some(m) == host.def().route.matcher),
    }
}

/// Whether the route `handler` of `event` has a timeout shorter than the one install writes
/// there ([`file::route_timeout`]), or one the host may read so (not a number).
fn shorter_timeout(handler: &serde_json::Value, host: Dialect, event: &str) -> bool {
    let kind = host
        .flavors()
        .flat_map(|f| f.tables().events.iter())
        .find(|(_, name)| *name == event)
        .map(|(kind, _)| kind);
    let written = kind.and_then(|kind| file::route_timeout(host, kind));
    let Some((key, written)) = written else {
        return false;
    };
    handler.get(key).is_some_and(|timeout| {
        let number = |v: &serde_json::Value| {
            v.as_f64()
                .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
        };
        match (number(timeout), number(&written)) {
            (Some(set), Some(written)) => set < written,
            _ => true,
        }
    })
}

/// Whether the file `file` that `reader` reads as its own, the user's or a project's, holds a
/// route of `host` for `event` that runs there for `home`: its program can run, it reads this
/// home, and nothing of the reader's or the user's narrows it or turns it off (another host's
/// route counts: hookx's VS Code route in `.github/hooks`, which Copilot runs too, attacks row
/// 304). A project's route line counts: it answers where no user route does
/// ([`left_to_user_route`]).
pub fn routes_event_as(
    home: &Path,
    file: &Path,
    reader: Dialect,
    host: Dialect,
    event: &str,
) -> bool {
    route_commands(home, file, reader, host, event, &[])
        .iter()
        .any(|command| {
            route_can_run(command)
                && route_home(command)
                    .is_none_or(|h| crate::context::same_place(Path::new(&h), home))
        })
}

/// The events whose hookx routes in `host`'s file of `scope` all name a program that cannot
/// run ([`route_can_run`]: hookx moved, removed or cut short). `install` writes one scope's
/// file and leaves the other's as it is, so it says these (attacks row 1085).
pub fn unrunnable_route_events(
    home: &Path,
    project: &Path,
    host: Dialect,
    scope: InstallScope,
) -> Vec<&'static str> {
    let file = read_target(home, project, host, scope);
    if !file.is_file() {
        return Vec::new();
    }
    host.own_events()
        .into_iter()
        .map(|(_, name, _)| name)
        .filter(|name| {
            let lines = routes_of(home, &file, host, host, name, &[], true);
            !lines.is_empty() && !lines.iter().any(|line| route_can_run(line))
        })
        .collect()
}

/// Whether the host's file `file` (what [`target`] names below `home`) holds a route for
/// `event` that answers there ([`answering_routes`]).
pub fn has_route(home: &Path, file: &Path, host: Dialect, event: &str) -> bool {
    !answering_routes(home, file, host, event, &[]).is_empty()
}

/// The user's routes for `event` in `file` below `home` that answer for that home: their
/// program can run ([`route_can_run`]) and they read no other home. A route reading another
/// home (a settings file synced from another machine, with hookx at one path on both) finds
/// none of this home's trust, and every guard is skipped there as untrusted (attacks row 222).
/// A project's route line copied into the user's file leaves the event to the user's route,
/// itself among them (attacks row 237): it is none.
/// `also_off`: more labels of handlers the agent does not run (another scope's list).
fn answering_routes(
    home: &Path,
    file: &Path,
    host: Dialect,
    event: &str,
    also_off: &[String],
) -> Vec<String> {
    route_commands(home, file, host, host, event, also_off)
        .into_iter()
        .filter(|c| route_can_run(c) && !route_is_projects(c) && reads_home(c, home))
        .collect()
}

/// The command lines of the routes of `route_host` for `event` in the file `user` that `host`
/// reads as its own (its events, matchers, timeouts and switches are `host`'s; for a host of
/// hook scripts, the line of the event's script, when the host runs it: Cline 3.0.65 runs one
/// whatever its mode, attacks row 363).
fn route_commands(
    home: &Path,
    user: &Path,
    host: Dialect,
    route_host: Dialect,
    event: &str,
    also_off: &[String],
) -> Vec<String> {
    routes_of(home, user, host, route_host, event, also_off, false)
}

/// [`route_commands`]; `any`: every route line of the event, also one turned off or narrowed
/// to some calls (it may still fire for one).
fn routes_of(
    home: &Path,
    user: &Path,
    host: Dialect,
    route_host: Dialect,
    event: &str,
    also_off: &[String],
    any: bool,
) -> Vec<String> {
    // A host of hook scripts: the user's route is a script under one of the event's names
    // (install takes the next when a script of the user's holds the event's: attacks row 403).
    if let Some(layout) = host.config().scripts {
        return layout
            .extensions
            .iter()
            .map(|ext| user.join(format!("{event}{ext}")))
            .filter_map(|script| {
                crate::read::text(&script, crate::read::MAX_FILE_BYTES)
                    .ok()
                    .filter(|_| layout.runs_unexecutable || scripts::is_executable(&script))
            })
            .filter_map(|t| script_route(&t))
            .collect();
    }
    let Ok(text) = crate::read::text(user, crate::read::MAX_FILE_BYTES) else {
        return Vec::new();
    };
    if let Some(plugin) = host.config().generated {
        return plugin_routes(plugin, &text)
            .into_iter()
            .filter(|(e, _)| e == event)
            .map(|(_, line)| line)
            .collect();
    }
    if let Some(list) = host.config().rule_list {
        // A rule the user turned off, narrowed to some tools or given a shorter timeout (Kiro:
        // `"timeout": 0` turns it off) is no route for every call (attacks row 385).
        let runs = |rule: &serde_json::Value| {
            any || rule.get(list.enabled_key) != Some(&serde_json::Value::Bool(false))
                && every_call(rule, host)
                && !shorter_timeout(rule, host, event)
        };
        return list_route_commands(user, &text, host, list, event, runs);
    }
    json_routes(home, user, &text, host, route_host, event, also_off)
        .into_iter()
        .filter(|r| any || (r.every_call && !r.off))
        .map(|r| r.line)
        .collect()
}

/// The route line a hook script of hookx's runs ([`scripts::routed_line`]: as written, or last
/// after lines of the user's); else, in a route the user edited around its line, the last line
/// at the script's own level that is exactly the route install wrote, with or without `exec`
/// (lines of the user's after it: attacks row 381, where the project route ran every rule a
/// second time). A route line wrapped in more of the user's (`… || exit 2`, an indented block)
/// is not read as one: twice at worst, never a route taken for one that may not run.
fn script_route(text: &str) -> Option<String> {
    let last = scripts::routed_line(text).filter(|line| is_hookx_entry(line));
    let at_top = || {
        text.lines()
            .rev()
            .map(|line| line.strip_prefix("exec ").unwrap_or(line))
            .find(|line| entry::written_route_host(line).is_some())
    };
    last.or_else(|| scripts::is_route(text).then(at_top).flatten())
        .map(str::to_string)
}

/// Whether every route for `event` in the host's JSON file `file` is one the host's own list
/// turns off (Gemini's `hooksConfig.disabled`, its own or `also_off` from another scope's;
/// Copilot's `disabledHooks`): the host never calls hookx for it there (`doctor`, attacks row
/// 332). `None` where the file holds no such route.
pub fn turned_off_by_host(
    home: &Path,
    file: &Path,
    host: Dialect,
    event: &str,
    also_off: &[String],
) -> Option<bool> {
    let text = crate::read::text(file, crate::read::MAX_FILE_BYTES).ok()?;
    let routes = json_routes(home, file, &text, host, host, event, also_off);
    (!routes.is_empty()).then(|| routes.iter().all(|r| r.off))
}

/// A route of hookx's in a host's JSON file, as the host runs it.
struct JsonRoute {
    line: String,
    /// Nothing of the user's narrows it to some calls (a matcher, `if`, `async`).
    every_call: bool,
    /// The host's own list turns it off.
    off: bool,
}

/// The labels `host`'s own list of handlers turned off names in a file of its (`text`):
/// Gemini's `hooksConfig.disabled`, by `name`, else command (attacks row 228), read with
/// comments, as Gemini reads its settings (row 323).
pub fn disabled_labels(host: Dialect, text: &str) -> Vec<String> {
    host.def()
        .disabled_handlers
        .as_ref()
        .and_then(|list| {
            let value = JsonText::new(text).value(&[])?;
            Some(
                list.labels(value.as_object()?)
                    .map(str::to_string)
                    .collect(),
            )
        })
        .unwrap_or_default()
}

/// The labels the host's policy files turn off ([`crate::tables::DisabledHandlers`] in a
/// policy location): those in its policy folder below `/`, and [`moved_policy_labels`].
fn policy_disabled_labels(host: Dialect) -> Vec<String> {
    let dir = crate::context::managed_dir(Path::new("/"), host);
    let mut files: Vec<PathBuf> = policy_lists(host)
        .filter_map(|(_, name)| Some(dir.as_ref()?.join(name)))
        .collect();
    files.extend(moved_policy_files(host));
    labels_of_policy_files(host, files)
}

/// The labels the host's policy files turn off where its variables move them
/// ([`crate::tables::ManagedSpec::moved_by`]; for `run`, whose policy folder is its own
/// `--managed-root`). A variable a project fills (Gemini loads a trusted project's `.env`
/// after reading its system files, and its hooks inherit it) can only add a list, never
/// replace the policy folder's: a rule then runs beside its copy, at worst twice, never none;
/// and each file counts only where the agent would read it (root's alone, where it asks that).
pub fn moved_policy_labels(host: Dialect) -> Vec<String> {
    labels_of_policy_files(host, moved_policy_files(host))
}

/// The host's policy locations whose lists of turned-off handlers it joins: (id, file name).
fn policy_lists(host: Dialect) -> impl Iterator<Item = (&'static str, &'static str)> {
    let list = host.def().disabled_handlers.as_ref();
    host.def()
        .locations
        .iter()
        .filter(move |l| {
            l.scope == crate::tables::Scope::Managed
                && list.is_some_and(|list| list.locations.contains(&l.id))
        })
        .filter_map(|l| match l.pattern {
            crate::tables::Pattern::File(name) => Some((l.id, name)),
            _ => None,
        })
}

/// The policy files the host's variables name: each location's own, else beside the first.
fn moved_policy_files(host: Dialect) -> Vec<PathBuf> {
    let Some(managed) = &host.def().managed else {
        return Vec::new();
    };
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let first = managed.moved_by.first().and_then(|(_, v)| var(v));
    policy_lists(host)
        .filter_map(|(id, name)| {
            managed
                .moved_by
                .iter()
                .find(|(l, _)| *l == id)
                .and_then(|(_, v)| var(v))
                .or_else(|| Some(first.as_deref()?.parent()?.join(name)))
        })
        .collect()
}

/// The labels `files` turn off, each read only where the host would read it as policy.
fn labels_of_policy_files(host: Dialect, files: Vec<PathBuf>) -> Vec<String> {
    let owners = match host
        .def()
        .managed
        .as_ref()
        .is_some_and(|m| m.root_owned_only)
    {
        true => crate::ownership::Owners::Root,
        false => crate::ownership::Owners::RootOrYou,
    };
    files
        .into_iter()
        .filter(|file| crate::ownership::OthersCouldWrite::find(file, owners).is_none())
        .filter_map(|file| crate::read::text(&file, crate::read::MAX_FILE_BYTES).ok())
        .flat_map(|text| disabled_labels(host, &text))
        .collect()
}

/// The routes for `event` in the host's JSON file `file` (its `text`); `route_host`: whose
/// routes (another host's, in a file `host` reads as its own: attacks row 304); `also_off`:
/// labels another scope's list turns off.
fn json_routes(
    home: &Path,
    file: &Path,
    text: &str,
    host: Dialect,
    route_host: Dialect,
    event: &str,
    also_off: &[String],
) -> Vec<JsonRoute> {
    let Ok(events) = events_path(file, text, host) else {
        return Vec::new();
    };
    let list = path_to(&events, &[Seg::from(event)]);
    let Some(entries) = entries_of(&JsonText::new(text), &list) else {
        return Vec::new();
    };
    // A route the user's own list turns off (Gemini's `hooksConfig.disabled`, by `name`, else
    // command: attacks row 228) is none the agent runs; so is one another scope's list names
    // (`also_off`: the agent joins them).
    let mut disabled = disabled_labels(host, text);
    disabled.extend_from_slice(also_off);
    // Copilot's list of handler keys it does not run (`disabledHooks`), where the user turned
    // the route off in Copilot itself (live, 1.0.102: its key is `EVENT\0` and the entry's
    // compact JSON without hookx's marker; attacks row 236). The key anywhere in the file
    // counts: Copilot reads lists hookx cannot parse (`"n": 01`, row 136; row 238).
    let switches = own_switches(host);
    let switched: Vec<String> = switches
        .iter()
        .filter_map(|h| {
            crate::read::text(
                &hosts_own_file(home, host, h.file),
                crate::read::MAX_FILE_BYTES,
            )
            .ok()
        })
        .collect();
    let turned_off = |handler: &serde_json::Value, line: &str| {
        let label = host.def().disabled_handlers.as_ref().and_then(|list| {
            handler
                .get(list.label_key)
                .and_then(serde_json::Value::as_str)
        });
        if disabled.iter().any(|d| d == label.unwrap_or(line)) {
            return true;
        }
        switch_keys(handler, event, &switches)
            .iter()
            .any(|key| switched.iter().any(|text| text.contains(key)))
    };
    // Another host's route (hookx's VS Code route, which Copilot runs too) carries that host's
    // timeout key; where the reader reads that key as well (Copilot: `timeout` is its
    // `timeoutSec`), a timeout the user cut there narrows the route too (attacks row 343).
    let cut_as_written = |handler: &serde_json::Value| {
        route_host != host
            && route_host.def().route.timeout_key.is_some_and(|key| {
                host.config().field(key) == Some(crate::tables::HandlerField::Timeout)
            })
            && shorter_timeout(handler, route_host, event)
    };
    find_any_routes(&entries, route_host)
        .into_iter()
        .filter_map(|(i, j)| {
            let entry = entries.get(i)?;
            let handler = match j {
                Some(j) => entry.get("hooks")?.get(j)?,
                None => entry,
            };
            let line = route_line(handler, route_host)?;
            Some(JsonRoute {
                every_call: every_call(entry, host)
                    && answers_every_call(handler, host, event)
                    && !cut_as_written(handler),
                off: turned_off(handler, &line),
                line,
            })
        })
        .collect()
}

/// The keys a host's switch ([`crate::tables::HookSwitch`], Copilot's `disabledHooks`) may
/// list for `handler` of `event` in one of the host's own files: the entry as written without
/// hookx's marker, then with each switch's own keys only, in its own order (Copilot keys the
/// entry it read, not its text: an entry whose keys the user reordered keys as before, live
/// 1.0.102; attacks rows 236, 262, 302), then in the foreign form it also reads there (row
/// 304).
fn switch_keys(
    handler: &serde_json::Value,
    event: &str,
    switches: &[&crate::tables::HookSwitch],
) -> Vec<String> {
    let mut bare = handler.clone();
    if let Some(object) = bare.as_object_mut() {
        object.remove(crate::config::MARKER);
    }
    as_the_switch_prints(&mut bare);
    // Its own keys in its own order, no other: a `comment` the user put on the route is left
    // out (`hooks.discover`, 1.0.102, attacks row 302).
    let ordered = switches.iter().map(|switch| {
        let mut order = vec![switch.type_key];
        order.extend(switch.command_keys);
        order.extend(switch.kept_keys);
        order.extend([switch.timeout_key, switch.matcher_key, switch.event_key]);
        let entry: serde_json::Map<String, serde_json::Value> = order
            .iter()
            .filter_map(|k| Some((k.to_string(), bare.get(*k)?.clone())))
            .collect();
        (event.to_string(), serde_json::Value::Object(entry))
    });
    // An entry in the other form the host reads in its own files (PascalCase, as hookx's VS
    // Code route in `.github/hooks`): keyed as that handler in the foreign file, under the
    // host's own name of the event (`hooks.discover`, 1.0.102, attacks row 304).
    let foreign = switches.iter().filter_map(|switch| {
        let (.., own, _) = switch
            .events
            .iter()
            .find(|(_, written, ..)| *written == event)?;
        let command = bare.get(switch.written_command_key)?.clone();
        let mut entry = serde_json::Map::new();
        let kind = bare.get(switch.type_key).cloned();
        entry.insert(
            switch.type_key.into(),
            kind.unwrap_or_else(|| switch.command_type.into()),
        );
        for key in switch.command_keys {
            entry.insert(key.to_string(), command.clone());
        }
        if let Some(timeout) = bare.get(switch.written_timeout_key) {
            entry.insert(switch.timeout_key.into(), timeout.clone());
        }
        entry.insert(switch.event_key.into(), event.into());
        Some((own.to_string(), serde_json::Value::Object(entry)))
    });
    std::iter::once((event.to_string(), bare.clone()))
        .chain(ordered)
        .chain(foreign)
        .map(|(event, entry)| crate::hash::sha256_hex(format!("{event}\0{entry}").as_bytes()))
        .collect()
}

/// The numbers of an entry as the switch's host prints them in its key: an integer as
/// written, any other number as the float it reads (live, Copilot 1.0.102: a `timeoutSec`
/// written `6.05e2` or `605.0` is keyed `605.0`, one written `605` is keyed `605`; attacks
/// row 262's leftover). hookx keeps numbers as written, so it prints them over.
fn as_the_switch_prints(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Number(n) if !n.is_u64() && !n.is_i64() => {
            if let Some(float) = n.as_f64().and_then(serde_json::Number::from_f64) {
                *n = float;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(as_the_switch_prints),
        Value::Object(map) => map.values_mut().for_each(as_the_switch_prints),
        _ => {}
    }
}

/// The host's switches whose list may name its own handlers ([`switch_keys`]).
pub fn own_switches(host: Dialect) -> Vec<&'static crate::tables::HookSwitch> {
    host.config()
        .foreign_switches
        .iter()
        .filter_map(|s| s.hooks)
        .collect()
}

/// What tells a handler hookx keeps from the others of its file (`None`: not one of them).
pub type Identity = dyn Fn(&serde_json::Value) -> Option<String>;

/// Where a write of hookx's changes a handler it keeps in `host`'s own file (`before` →
/// `after`, its text), the key each switch may list for the handler before, with the key it has
/// after, in the same form: a handler the user turned off in the host (Copilot's hook menu)
/// stays off only if its new key is listed too. `identity` tells the handlers apart (a converted
/// copy by its record: attacks row 360); `None`, hookx's routes, each event's in order (install
/// re-pointing them: row 291's Copilot half). Read with comments, as the host reads them.
pub fn moved_switch_keys(
    before: &str,
    after: &str,
    host: Dialect,
    identity: Option<&Identity>,
) -> Vec<(String, String)> {
    let switches = own_switches(host);
    let parse = |text: &str| JsonText::new(text).value(&[]);
    let (Some(before), Some(after), false) = (parse(before), parse(after), switches.is_empty())
    else {
        return Vec::new();
    };
    let events = after.get("hooks").and_then(serde_json::Value::as_object);
    let mut moved = Vec::new();
    for event in events.into_iter().flat_map(|e| e.keys()) {
        let pairs: Vec<(&serde_json::Value, &serde_json::Value)> = match identity {
            None => {
                let old = file::route_handlers(&before, host, event);
                let new = file::route_handlers(&after, host, event);
                old.iter()
                    .zip(&new)
                    .map(|((o, _), (n, _))| (*o, *n))
                    .collect()
            }
            Some(identity) => {
                let known = |h: &serde_json::Value| identity(h).is_some();
                let old = file::handlers_where(&before, host, event, &known);
                let new = file::handlers_where(&after, host, event, &known);
                old.iter()
                    .filter_map(|(o, _)| {
                        let id = identity(o);
                        let (n, _) = new.iter().find(|(n, _)| identity(n) == id)?;
                        Some((*o, *n))
                    })
                    .collect()
            }
        };
        for (old, new) in pairs.into_iter().filter(|(o, n)| o != n) {
            let keys = switch_keys(old, event, &switches)
                .into_iter()
                .zip(switch_keys(new, event, &switches));
            moved.extend(keys.filter(|(o, n)| o != n));
        }
    }
    moved
}

/// How long the host lets its route for `event` run, in milliseconds, as the route's own entry
/// says: the user may have shortened the timeout install wrote (`"timeout": 30`: "no hook should
/// hang for ten minutes"), and the host kills hookx there, not at what install wrote
/// ([`crate::tables::RouteSpec::limit`]), so every deny still to come would be lost to the kill
/// rather than answered by the failure policy (attacks row 223). The route's file is the
/// user's below `home`, or with `installed_in` the project's (both, the shorter, where the
/// host's routes do not say: [`crate::tables::RouteSpec::names_project_route`]); the shortest
/// where a file holds several routes for the event; the user's file read where the host reads
/// it ([`hosts_own_file`]: `$COPILOT_HOME/hooks/hookx.json`). `None`: the host's routes have no
/// timeout key, or no route there carries a positive number. Read on every event (`hookx run`): remembered by the file's identity
/// ([`crate::cache::recall`]), and only the event's entries built. `route_key`: the line's; where
/// it is the user's ([`is_users_route_key`]) the line is the user's route whatever the host
/// says, and a repository's route file, which can say any timeout, bounds only its own line
/// (attacks row 340).
pub fn written_timeout_ms(
    home: &Path,
    project: &Path,
    host: Dialect,
    installed_in: Option<InstallScope>,
    route_key: Option<&str>,
    event: &str,
) -> Option<u64> {
    let route = &host.def().route;
    let config = host.config();
    if route.timeout_key.is_none() || config.scripts.is_some() || config.generated.is_some() {
        return None;
    }
    // A host whose routes do not say their file (Copilot) runs the user's and the project's
    // both, and takes a deny from either: the shorter bounds the answer.
    let scopes = match (route.names_project_route, installed_in) {
        (true, scope) => vec![scope.unwrap_or(InstallScope::User)],
        (false, _) => match fired_from(home, project, host) {
            Some(scope) => vec![scope],
            None if route_key.is_some_and(|key| is_users_route_key(home, key)) => {
                vec![InstallScope::User]
            }
            None => vec![InstallScope::User, InstallScope::Project],
        },
    };
    scopes
        .into_iter()
        .filter_map(|scope| file_timeout_ms(home, project, host, scope, event, route_key))
        .min()
}

/// Where `host` reads its route file of `scope`: the user's where its folder variable says
/// ([`hosts_own_file`]; a route installed below the home is then none it runs, and one the
/// user keeps there is the one it kills at its timeout).
fn read_target(home: &Path, project: &Path, host: Dialect, scope: InstallScope) -> PathBuf {
    match scope == InstallScope::User && reads_user_file_elsewhere(home, host) {
        true => hosts_own_file(home, host, host.config().install_user),
        false => target(home, project, host, scope),
    }
}

/// The scope of the route file that fired, where the host says its folder
/// ([`crate::tables::ConfigSpec::hook_dir_var`]: Copilot's `COPILOT_HOOK_DIR`): the project
/// route's own timeout, not the user route's the user shortened, bounds it (attacks row 342).
fn fired_from(home: &Path, project: &Path, host: Dialect) -> Option<InstallScope> {
    let dir = PathBuf::from(std::env::var_os(host.config().hook_dir_var?)?);
    [InstallScope::User, InstallScope::Project]
        .into_iter()
        .find(|&scope| {
            read_target(home, project, host, scope)
                .parent()
                .is_some_and(|folder| crate::context::same_place(folder, &dir))
        })
}

/// [`written_timeout_ms`] of the route's file in `scope`, remembered.
fn file_timeout_ms(
    home: &Path,
    project: &Path,
    host: Dialect,
    scope: InstallScope,
    event: &str,
    route_key: Option<&str>,
) -> Option<u64> {
    let path = read_target(home, project, host, scope);
    // A user file where the host's folder variable says may be anyone's: the variable reaches
    // hookx from the host's environment, which a project's settings can fill for every hook
    // (Claude's `env`, Gemini's `.env`). Only the line that carries the user's route key, the
    // route now running, counts there: a repository's file cannot cut it (attacks row 340).
    let only = match scope == InstallScope::User && reads_user_file_elsewhere(home, host) {
        false => None,
        true => Some(route_key.filter(|key| is_users_route_key(home, key))?),
    };
    // Remembered by the file's identity: most events pay a look at it, not its parse.
    let meta = std::fs::metadata(&path).ok()?;
    let what = format!(
        "route timeout\0{host:?}\0{scope:?}\0{event}\0{}\0{}",
        path.display(),
        only.unwrap_or_default()
    );
    if let Some(ms) = crate::cache::recall(home, &what, &meta) {
        return ms;
    }
    let ms = read_timeout_ms(&path, host, scope, event, only);
    crate::cache::remember(home, &what, &path, &meta, ms);
    ms
}

/// A route entry's timeout `timeout`, as `host` reads it, in milliseconds; `None`: not a
/// positive number.
pub(crate) fn timeout_ms(host: Dialect, timeout: &serde_json::Value) -> Option<u64> {
    let config = host.config();
    let number = timeout.as_f64().or_else(|| {
        config
            .timeout_numeric_strings
            .then(|| timeout.as_str()?.trim().parse().ok())?
    })?;
    let ms = match config.timeout_unit.reads_millis(Some(number), true) {
        true => number,
        false => number * 1000.0,
    };
    // Saturating: a timeout past `u64` milliseconds is none that matters.
    (ms > 0.0).then_some(ms.ceil() as u64)
}

/// [`written_timeout_ms`] read from the route's file `path`; `only`: of the lines carrying
/// this route key alone.
fn read_timeout_ms(
    path: &Path,
    host: Dialect,
    scope: InstallScope,
    event: &str,
    only: Option<&str>,
) -> Option<u64> {
    let key = host.def().route.timeout_key?;
    let config = host.config();
    let src = crate::source::SourceFile::read(path).ok()?;
    // Only the event's entries are built: the rest of a settings file is skipped unparsed.
    let value = crate::config::syntax::parse_json_pruned(
        &src,
        crate::config::read::json_syntax(&src, host),
        &|key| key == "hooks" || (config.wrapper_optional && key == event),
        &|key| key == event,
    )
    .ok()?;
    // Only a host whose project routes say so tells them from the user's by their line.
    let projects = scope == InstallScope::Project && host.def().route.names_project_route;
    let ms = |timeout: &serde_json::Value| timeout_ms(host, timeout);
    file::route_handlers(&value, host, event)
        .into_iter()
        .filter(|(handler, _)| {
            route_line(handler, host).is_some_and(|line| {
                // Most lines say no scope: the words are not split again for them.
                (line.contains("--installed-in") && route_is_projects(&line)) == projects
                    && only.is_none_or(|key| line.contains(key))
            })
        })
        .filter_map(|(handler, rule)| handler.get(key).or_else(|| rule?.get(key)).and_then(ms))
        .min()
}

#[cfg(test)]
mod tests {
    /// Copilot 1.0.102 keys `6.05e2` and `605.0` as `605.0`, `605` as `605` (live).
    #[test]
    fn numbers_are_keyed_as_copilot_prints_them() {
        for (written, keyed) in [("6.05e2", "605.0"), ("605.0", "605.0"), ("605", "605")] {
            let mut value: serde_json::Value =
                serde_json::from_str(&format!(r#"{{"timeoutSec":{written}}}"#)).unwrap();
            super::as_the_switch_prints(&mut value);
            assert_eq!(value.to_string(), format!(r#"{{"timeoutSec":{keyed}}}"#));
        }
    }
}
