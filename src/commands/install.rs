//! `hookx install`: routing a host agent's events to `hookx run --host HOST` through the host's
//! own config file, and taking that routing out again.
//!
//! One entry per event that has rules hookx runs under the host, in the files of the scope the
//! install serves (the project's files for a project install, the home's for a user install);
//! re-running install adds the routes of new events and removes those no rule needs any more.
//! The entries and how they are found and edited are [`crate::route`]'s; this is the command:
//! which events need a route, the host's review records, the report and what it prints.
//!
//! A target hookx cannot read cleanly is refused and left untouched.

use crate::config;
use crate::config::edit::{JsonText, Seg};
use crate::config::scripts;
use crate::config::update::{Change, keeping_links};
use crate::discover::{Context, Runner};
use crate::error::Error;
use crate::model::EventKind;
use crate::route::{
    Created, InstallScope, Tally, Timeouts, created_file, events_path, fresh_text, install_text,
    is_edited_route, is_hookx_handler, is_own_route, layout, route_command, route_timeout,
    routes_in_list, target, uninstall_text,
};
use crate::shell::shell_quote;
use crate::source::SourceFile;
use crate::tables::Dialect;
use crate::tables::Root;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// What install or uninstall should do.
#[derive(Clone, Debug)]
pub struct Options {
    pub ctx: Context,
    pub host: Dialect,
    pub scope: InstallScope,
    pub uninstall: bool,
    /// The hookx program written into the entries; the current executable when `None`.
    pub hookx: Option<String>,
    /// `--home` and `--managed-root` as install was given them (absolute), written on every
    /// route: `hookx run` reads neither `HOOKX_HOME` nor `HOOKX_MANAGED_ROOT`.
    pub route_home: Option<PathBuf>,
    pub route_managed_root: Option<PathBuf>,
}

/// What install writes before `run`, and the places it carries after the route's arguments.
struct Written {
    hookx: String,
    home: Option<String>,
    managed_root: Option<String>,
    /// The user's route key, on a route of the user's own files ([`crate::route::route_key`]).
    key: Option<String>,
    /// The project route's folder, where the host names it ([`crate::route::Program::folder`]).
    folder: Option<String>,
    /// A user route's trust record and file, for its guard ([`crate::route::Gone`]).
    gone: Option<(String, String)>,
}

impl Written {
    fn program(&self) -> crate::route::Program<'_> {
        crate::route::Program {
            hookx: &self.hookx,
            home: self.home.as_deref(),
            managed_root: self.managed_root.as_deref(),
            key: self.key.as_deref(),
            folder: self.folder.as_deref(),
            gone: self
                .gone
                .as_ref()
                .map(|(store, file)| crate::route::Gone { store, file }),
        }
    }
}

/// What changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub path: PathBuf,
    /// The routing command (install only).
    pub command: String,
    /// Events that got a new entry.
    pub added: Vec<String>,
    /// Events whose entry pointed elsewhere and now points at this hookx.
    pub updated: Vec<String>,
    /// Events whose route install moved after the other hooks of the list
    /// (`route::file::install_text`, attacks rows 2048, 2049).
    pub moved: Vec<String>,
    /// Entries removed (uninstall, or surplus copies on install).
    pub removed: usize,
    /// Events whose route install removed because no rule needs it any more.
    pub dropped: Vec<String>,
    /// Events routed once install is done.
    pub routes: usize,
    /// Whether the file was deleted (uninstall left nothing in it).
    pub deleted: bool,
    /// The host's review records hookx keeps for its routes ([`crate::tables::RouteTrust`]):
    /// the file, and the keys set (install) or removed (uninstall).
    pub trust_file: Option<PathBuf>,
    pub trusted: Vec<String>,
    /// Events left unrouted, and why (a hook script of the user's own holds the name).
    pub refused: Vec<String>,
    /// Routed events the host runs none of this file's routes for, and the file of its that
    /// replaces them ([`crate::route::route_hidden_by`], attacks row 387).
    pub hidden: Vec<(String, PathBuf)>,
    /// Files the user had trusted that install edited, trusted again as install left them
    /// ([`crate::trust::keep_trusted`]).
    pub kept_trusted: Vec<PathBuf>,
    /// Each host setting that leaves handlers to hookx ([`crate::tables::HookSwitch`]) that
    /// install wrote or holds hookx's keys: its file, and how many handlers hookx runs by it.
    pub switched: Vec<(PathBuf, usize)>,
    /// After an uninstall: each such setting that still turns off handlers of the scope's
    /// files, listed there not as hookx's (by the user, or a record taken out by hand), and
    /// how many: with hookx's routes gone, they run nowhere.
    pub still_off: Vec<(PathBuf, &'static str, usize)>,
    /// Events whose route had another timeout than install writes: the event, the timeout
    /// found, install's, and whether it was kept.
    pub timeouts: Vec<(String, serde_json::Value, serde_json::Value, bool)>,
    /// The user's route a project install keeps for the handlers it switched off
    /// (`user_route_for_switch`), when it touched it.
    pub user_route: Option<Box<Report>>,
    /// Folders install had created with a switch file the uninstall deleted, the deepest
    /// first: removed once the routes are out, while empty (a route may still sit below one).
    switch_folders: Vec<PathBuf>,
}

impl Report {
    /// Takes in what install changed in the file's routes (the report had none yet).
    fn take(&mut self, tally: Tally) {
        self.routes = tally.routes;
        self.added = tally.added;
        self.updated = tally.updated;
        self.moved = tally.moved;
        self.removed = tally.removed;
        self.dropped = tally.dropped;
        self.timeouts = tally.timeouts;
    }

    pub fn changed(&self) -> bool {
        !self.added.is_empty()
            || !self.updated.is_empty()
            || !self.moved.is_empty()
            || !self.dropped.is_empty()
            || self.removed > 0
            || self.deleted
    }
}

/// A file install reads (a host's config, one of its hook scripts): a regular file of text,
/// size-capped ([`crate::read`]).
fn read_text(path: &Path) -> std::io::Result<String> {
    crate::read::text(path, crate::read::MAX_FILE_BYTES)
}

/// [`config::update::update`] for a file install edits, keeping the user's trust in it: when
/// the trust record trusted the bytes install replaced, it trusts the bytes install wrote
/// ([`crate::trust::keep_trusted`]). Install's edit (a route, a review record) must not turn
/// the user's trusted hooks in that file into "changed since trusted". The record trusts the
/// new bytes beside the old before they are renamed into place, and them alone after
/// ([`crate::trust::trust_landing`]): a `hookx run` at any moment of the edit finds the file
/// trusted (attacks row 2085).
fn update_keeping_trust(
    ctx: &Context,
    (path, host_lock): (&Path, Option<&str>),
    report: &mut Vec<PathBuf>,
    mut edit: impl FnMut(Option<&str>) -> Result<Change, Error>,
) -> Result<config::update::Outcome, Error> {
    let mut edited = None;
    let mut landing = false;
    let outcome = config::update::update_under_host_lock(path, host_lock, |current| {
        let change = edit(current)?;
        edited = None;
        if let (Some(before), Change::Write(after)) = (current, &change)
            && before != after
        {
            landing |= crate::trust::trust_landing(ctx, path, before.as_bytes(), after.as_bytes())?;
            edited = Some(after.clone());
        }
        Ok(change)
    });
    let written = match &outcome {
        Ok(config::update::Outcome::Written) => edited.as_deref().map(str::as_bytes),
        _ => None,
    };
    if landing && crate::trust::trust_landed(ctx, path, written)? {
        report.push(path.to_path_buf());
    }
    outcome
}

/// [`crate::trust::trust_landing`] around install's `write` of the bytes `after` over the
/// bytes `before` of `path` (a route script), noting the file in `report` when the record
/// trusts `after` as it trusted `before`.
fn write_keeping_trust(
    ctx: &Context,
    (path, before, after): (&Path, &[u8], &[u8]),
    report: &mut Vec<PathBuf>,
    write: impl FnOnce() -> Result<(), Error>,
) -> Result<(), Error> {
    let landing = crate::trust::trust_landing(ctx, path, before, after)?;
    let wrote = write();
    let written = wrote.as_ref().ok().map(|()| after);
    if landing && crate::trust::trust_landed(ctx, path, written)? {
        report.push(path.to_path_buf());
    }
    wrote
}

/// For a project install, refuses a target reached through a symlink in the project that leads
/// out of it ([`crate::config::confine::leaves`]). A repository could otherwise ship
/// `.claude/settings.json` as a link to `~/.bashrc`, and install would write there.
fn stays_in_project(opts: &Options, path: &Path) -> Result<(), Error> {
    if opts.scope != InstallScope::Project {
        return Ok(());
    }
    match crate::config::confine::leaves(&opts.ctx.project, path) {
        None => Ok(()),
        Some(why) => Err(Error::Io {
            path: opts.ctx.display(path),
            message: format!(
                "{why}: a project install writes only inside the project; remove the link (or install with --scope user)"
            ),
        }),
    }
}

/// The hookx path to write (`--hookx`, else the current executable) and the places given.
fn hookx_program(opts: &Options) -> Result<Written, Error> {
    let utf8 = |path: &Path, flag: &str| {
        path.to_str()
            .map(str::to_string)
            .ok_or_else(|| Error::Usage(format!("{flag} {} is not UTF-8", path.display())))
    };
    let home = opts
        .route_home
        .as_deref()
        .map(|p| utf8(p, "--home"))
        .transpose()?;
    let managed_root = opts
        .route_managed_root
        .as_deref()
        .map(|p| utf8(p, "--managed-root"))
        .transpose()?;
    let hookx = match &opts.hookx {
        Some(p) => given_program(p)?,
        None => {
            let exe = std::env::current_exe().map_err(|e| Error::Io {
                path: "hookx".into(),
                message: format!("cannot tell where this hookx is ({e}); pass --hookx PATH"),
            })?;
            exe.into_os_string().into_string().map_err(|_| {
                Error::Usage("the path of this hookx is not UTF-8; pass --hookx PATH".into())
            })?
        }
    };
    // A route of the user's own files is made unique to this user (attacks row 163).
    let key = match opts.scope {
        InstallScope::User => Some(crate::route::route_key(&opts.ctx.home)?),
        InstallScope::Project => None,
    };
    let places = crate::context::Places {
        project: None,
        home: Some(&opts.ctx.agents_home),
        managed_root: Some(&opts.ctx.managed_root),
    };
    let folder = (opts.scope == InstallScope::Project && opts.host.def().route.names_folder)
        .then(|| crate::dispatch::project::route_folder_of(opts.host, places, &opts.ctx.project));
    // A user route denies a tool call itself where its hookx is gone (attacks row 1080).
    let gone = (opts.scope == InstallScope::User && crate::route::guards_user_routes(opts.host))
        .then(|| {
            let store = crate::trust::TrustStore::path_for(&opts.ctx);
            let file = target(&opts.ctx.home, &opts.ctx.project, opts.host, opts.scope);
            (utf8(&store, "--home"), utf8(&file, "--home"))
        })
        .map(|(store, file)| Ok::<_, Error>((store?, file?)))
        .transpose()?;
    Ok(Written {
        hookx,
        home,
        managed_root,
        key,
        folder,
        gone,
    })
}

/// The program `--hookx` names, as a route line can run it wherever the host starts it: a name
/// (`hookx`, looked up on `PATH`) as given; a relative path made absolute against the current
/// folder, as `--home` is: the host runs the route in its own folder, where `bin/hookx` is
/// another file or a repository's own (attacks row 1532). Refused: an empty value, one that
/// starts with `-` (a route hookx would not know again as its own), and one that starts with
/// `~`, which the shell did not expand (`--hookx=~/…`) and the route, quoting it, would not
/// either.
fn given_program(given: &str) -> Result<String, Error> {
    let refuse = |why: &str| {
        Err(Error::Usage(format!(
            "--hookx {given}: {why}; give the absolute path of hookx, or a name found on PATH"
        )))
    };
    match given.chars().next() {
        None => return refuse("empty"),
        Some('-') => return refuse("a program whose name starts with `-`"),
        Some('~') => return refuse("`~` is not expanded in a route (the shell left it as it is)"),
        _ => {}
    }
    if !given.contains('/') || given.starts_with('/') {
        return Ok(given.to_string());
    }
    let absolute = std::path::absolute(given).map_err(|e| Error::Io {
        path: given.to_string(),
        message: format!("cannot make --hookx absolute ({e})"),
    })?;
    absolute
        .into_os_string()
        .into_string()
        .map_err(|_| Error::Usage(format!("--hookx {given}: its absolute path is not UTF-8")))
}

/// What every kind of install starts from.
struct Start {
    /// The file (or folder) the routes go in, kept inside the project by a project install.
    path: PathBuf,
    /// An empty report naming it.
    report: Report,
    /// The hookx the routes run: none on uninstall.
    hookx: Option<Written>,
}

fn start(opts: &Options) -> Result<Start, Error> {
    let path = target(&opts.ctx.home, &opts.ctx.project, opts.host, opts.scope);
    stays_in_project(opts, &path)?;
    let hookx = match opts.uninstall {
        true => None,
        false => Some(hookx_program(opts)?),
    };
    Ok(Start {
        report: Report {
            path: path.clone(),
            ..Report::default()
        },
        path,
        hookx,
    })
}

/// The folder the scope's files are below: the project's, or the home.
fn scope_root(opts: &Options) -> &Path {
    match opts.scope {
        InstallScope::Project => &opts.ctx.project,
        InstallScope::User => &opts.ctx.home,
    }
}

/// The events install routes ([`routed_events`]): none on uninstall.
fn events_to_route(opts: &Options) -> Vec<&'static str> {
    match opts.uninstall {
        true => Vec::new(),
        false => routed_events(&opts.ctx, opts.host, opts.scope),
    }
}

/// Installs or uninstalls, through [`config::update::update`]: the file is edited in place, only
/// hookx's entries change, and nothing is written when nothing changes. Uninstall gives back
/// the bytes the file had before install, and deletes the file only when install created it.
pub fn apply(opts: &Options) -> Result<Report, Error> {
    if let Some(plugin) = opts.host.config().generated {
        return apply_plugin(opts, plugin);
    }
    if let Some(layout) = opts.host.config().scripts {
        return apply_scripts(opts, layout);
    }
    if let Some(list) = opts.host.config().rule_list {
        return apply_rule_list(opts, list);
    }
    let mut report = Report::default();
    // The host's switch first: the handlers it then leaves to hookx need routes.
    let served = set_hook_switches(opts, &mut report)?;
    let routed = (|| {
        let needed = needed_routes(opts, &served);
        // A user uninstall keeps the routes project installs' switches still need.
        let routes = Options {
            uninstall: opts.uninstall && needed.is_empty(),
            ..opts.clone()
        };
        write_routes(&routes, &needed, Timeouts::Set, &mut report)?;
        report.hidden = needed
            .iter()
            .filter_map(|e| {
                Some((
                    e.to_string(),
                    crate::route::route_hidden_by(&report.path, opts.host, e)?,
                ))
            })
            .collect();
        if opts.scope == InstallScope::Project && has_hook_switch(opts.host) {
            user_route_for_switch(opts, &served, &mut report)?;
        }
        Ok(())
    })();
    remove_empty(&std::mem::take(&mut report.switch_folders));
    if routed.is_err() && !opts.uninstall {
        // Handlers switched off with no route to run them would run nowhere: this install's
        // keys go back out (the host runs them itself again, with its own payload).
        let undo = Options {
            uninstall: true,
            ..opts.clone()
        };
        let _ = set_hook_switches(&undo, &mut Report::default());
    }
    routed.map(|()| report)
}

/// The events whose route `opts` leaves in its scope's file: those of the scope's rules that
/// hookx runs ([`routed_events`], none on uninstall), and in the user's file, while a project
/// install has switched handlers off ([`set_hook_switches`]), the events of those handlers
/// too (`served`, and every event the user route held for them: the keys do not say their
/// event), since byte-identical handlers in every other project are switched off with them.
fn needed_routes(opts: &Options, served: &[&'static str]) -> Vec<&'static str> {
    let mut needed = events_to_route(opts);
    if opts.scope == InstallScope::User
        && switch_owners(opts).is_some_and(|o| o.iter().any(|p| p != crate::route::HOME_OWNER))
    {
        let path = target(
            &opts.ctx.home,
            &opts.ctx.project,
            opts.host,
            InstallScope::User,
        );
        let held = read_text(&path)
            .map(|t| crate::route::own_route_events(&path, &t, opts.host))
            .unwrap_or_default();
        for event in held.into_iter().chain(served.iter().copied()) {
            if !needed.contains(&event) {
                needed.push(event);
            }
        }
    }
    needed
}

/// The host's switch file below the home, beside hookx's user route, which runs what its keys
/// turn off in every project. Not below the host's folder variable (`$COPILOT_HOME`), where
/// the host reads the switch but not that route: a byte-identical guard in any project
/// without a route of hookx's then ran nowhere, and an uninstall from a shell without the
/// variable left the keys there (attacks rows 400-401). While the variable names another
/// folder, the host reads neither and runs the handlers itself, as the run path then tells
/// (it reads the switch where the host does): once each.
fn switch_file(opts: &Options, switch: &crate::tables::HookSwitch) -> PathBuf {
    opts.ctx.home.join(switch.file)
}

fn has_hook_switch(host: Dialect) -> bool {
    host.config()
        .foreign_switches
        .iter()
        .any(|s| s.hooks.is_some())
}

/// The installs whose keys hookx records in the host's switch file (`None`: the host has no
/// switch, or the file is not there).
fn switch_owners(opts: &Options) -> Option<Vec<String>> {
    let switch = opts
        .host
        .config()
        .foreign_switches
        .iter()
        .find_map(|s| s.hooks)?;
    let text = read_text(&switch_file(opts, switch)).ok()?;
    Some(crate::route::recorded_owners(&text, switch))
}

/// After a project install (or uninstall) that switched handlers off, keeps the user's route
/// (the one `--scope user` writes) routing their events while any project's keys are
/// recorded: a byte-identical handler in a project without a route would otherwise run
/// nowhere. Once no project's keys are, it routes only what the home's files need, and goes
/// with the file when install created it. Where both routes fire for one call, they claim it
/// ([`crate::claim`]): nothing runs twice.
fn user_route_for_switch(
    opts: &Options,
    served: &[&'static str],
    report: &mut Report,
) -> Result<(), Error> {
    let user = Options {
        scope: InstallScope::User,
        uninstall: false,
        ..opts.clone()
    };
    let needed = needed_routes(&user, served);
    let path = target(
        &user.ctx.home,
        &user.ctx.project,
        user.host,
        InstallScope::User,
    );
    // A user route this install has no part in is left as the user installed it.
    if !path.exists() && (served.is_empty() || needed.is_empty()) {
        return Ok(());
    }
    let user = Options {
        uninstall: needed.is_empty(),
        ..user
    };
    let mut routes = Report::default();
    // The user's route is touched for the project's sake: a timeout the user cut stays.
    write_routes(&user, &needed, Timeouts::KeepShorter, &mut routes)?;
    report.kept_trusted.append(&mut routes.kept_trusted);
    report.user_route = Some(Box::new(routes));
    Ok(())
}

/// Writes the routes of `needed` into the file of `opts`'s scope (all of them out on
/// uninstall), with the host's review records of them.
fn write_routes(
    opts: &Options,
    needed: &[&str],
    timeouts: Timeouts,
    report: &mut Report,
) -> Result<(), Error> {
    let Start { path, hookx, .. } = start(opts)?;
    report.path = path.clone();
    let host = opts.host;
    // The host's review file is checked first: routes it could not record would not run. The
    // check adds one record, as install will: a file that takes none (Codex's `[hooks]` an
    // inline table) stops install before any route is written (attacks row 545).
    if let Some(trust) = &host.def().route_trust {
        let file = crate::route::review::review_file(&opts.ctx, host, trust, &path);
        if let Ok(text) = read_text(&file) {
            // (Uninstall only takes records out.)
            let probe = (!opts.uninstall)
                .then(|| (format!("{}:hookx-check:0:0", path.display()), String::new()));
            (trust.set)(&text, probe.as_slice()).map_err(|message| Error::Io {
                path: opts.ctx.display(&file),
                message: format!("cannot record the review of hookx's routes: {message}"),
            })?;
        }
    }
    // A route in a file its host refuses whole would run nowhere.
    if !opts.uninstall
        && let Ok(text) = read_text(&path)
        && let Some(d) = crate::config::strict_load::refused_whole_text(
            &crate::source::SourceFile::new(opts.ctx.display(&path), text),
            host,
        )
    {
        let shown = opts.ctx.display(&path);
        return Err(crate::config::strict_load::refused_write(
            &shown, d, "route",
        ));
    }
    let mut before: Option<String> = None;
    let mut after: Option<String> = None;
    let mut kept = Vec::new();
    // The folders install makes for the file go with it, once nothing else is in them.
    let root = scope_root(opts);
    let folders = folders_below(root, &path);
    let new_folders = missing(&folders);
    let mut folders_too = 0;
    // The edit runs again on a file another program wrote meanwhile: what it said goes first.
    let refused = report.refused.len();
    update_keeping_trust(&opts.ctx, (&path, None), &mut kept, |current| {
        report.refused.truncate(refused);
        before = current.map(str::to_string);
        let fresh = fresh_text(host);
        let (mut text, events) = match current {
            None if opts.uninstall => return Ok(Change::Keep),
            None => (JsonText::new(fresh.clone()), vec![Seg::from("hooks")]),
            Some(current) => (JsonText::new(current), events_path(&path, current, host)?),
        };
        let edited = match &hookx {
            Some(hookx) => {
                let created = match (current, u8::try_from(new_folders)) {
                    (Some(_), _) => Created::Entry,
                    (None, Ok(0)) => Created::File,
                    (None, Ok(n)) => Created::Folder(n),
                    (None, Err(_)) => Created::Folder(u8::MAX),
                };
                let mut tally = Tally::default();
                install_text(
                    &mut text,
                    &events,
                    (host, opts.scope),
                    hookx.program(),
                    needed,
                    created,
                    timeouts,
                    &mut tally,
                );
                report.refused.extend(
                    tally
                        .edited
                        .iter()
                        .map(|event| edited_by_hand(&opts.ctx, event, &path)),
                );
                report.take(tally);
                report.command =
                    format!("{} run --host {}", shell_quote(&hookx.hookx), host.name());
                report.changed()
            }
            None => {
                let created;
                let mut edited = Vec::new();
                (report.removed, created) = uninstall_text(&mut text, &events, host, &mut edited);
                report.refused.extend(
                    edited
                        .iter()
                        .map(|event| edited_by_hand(&opts.ctx, event, &path)),
                );
                if created >= Created::File
                    && text.as_str() == fresh
                    && !crate::config::update::linked_in(root, &path)
                {
                    // Nothing is left but the file install created.
                    report.deleted = true;
                    folders_too = created.folders();
                    return Ok(Change::Delete);
                }
                // A `hooks` object install added goes too, once it holds nothing.
                if created >= Created::Hooks && !events.is_empty() && text.is_bare_empty(&events) {
                    let _ = text.remove(&events);
                }
                report.removed > 0
            }
        };
        Ok(match edited {
            true => {
                after = Some(text.as_str().to_string());
                Change::Write(text.into_text())
            }
            false => Change::Keep,
        })
    })?;
    report.kept_trusted.extend(kept);
    if let (Some(before), Some(after)) = (&before, &after) {
        let moved = crate::route::moved_switch_keys(before, after, opts.host, None);
        keep_switched_off(&opts.ctx, opts.host, &moved, &mut report.kept_trusted)?;
    }
    if let Some(trust) = &host.def().route_trust {
        record_trust(opts, trust, &path, before.as_deref(), report)?;
    }
    remove_empty(&folders[..folders_too.min(folders.len())]);
    Ok(())
}

/// A route the user turned off in the host's own switch (Copilot's `disabledHooks`, keyed by
/// the entry's JSON) stays off when install re-points it: the entry's new key is listed too
/// ([`crate::route::moved_switch_keys`]; attacks row 291's Copilot half: re-pointed, the key
/// named an entry no more there and the route ran again; row 360, a converted copy written
/// again).
pub(crate) fn keep_switched_off(
    ctx: &Context,
    host: Dialect,
    moved: &[(String, String)],
    kept: &mut Vec<PathBuf>,
) -> Result<(), Error> {
    if moved.is_empty() {
        return Ok(());
    }
    // Below the home and where the host reads its own file under its folder variable
    // (`$COPILOT_HOME/settings.json`, where its menu writes the key: attacks row 368).
    let files = crate::route::own_switches(host)
        .into_iter()
        .flat_map(|switch| {
            let read = crate::route::hosts_own_file(&ctx.home, host, switch.file);
            let home = ctx.home.join(switch.file);
            let both = match read == home {
                true => vec![home],
                false => vec![home, read],
            };
            both.into_iter().map(move |path| (switch, path))
        });
    for (switch, path) in files {
        if !path.is_file() {
            continue;
        }
        update_keeping_trust(ctx, (&path, switch.host_lock), kept, |current| {
            let Some(current) = current else {
                return Ok(Change::Keep);
            };
            let mut text = JsonText::new(current);
            let mut listed = crate::route::listed_keys(current, switch);
            // Added beside the old key, which stays: the key names no file, so it also turns
            // off the same entry in every other project (attacks row 364).
            let added: Vec<&String> = moved
                .iter()
                .filter(|(old, _)| listed.contains(old))
                .map(|(_, now)| now)
                .collect();
            for now in added {
                if !listed.contains(now) {
                    let _ = text.push(&[Seg::from(switch.key)], &json!(now));
                    listed.push(now.clone());
                }
            }
            Ok(match text.as_str() == current {
                true => Change::Keep,
                false => Change::Write(text.into_text()),
            })
        })?;
    }
    Ok(())
}

/// The folders between the file at `path` and `root` (the home, the project), the file's own
/// first: the ones install may create for it, and no other.
fn folders_below(root: &Path, path: &Path) -> Vec<PathBuf> {
    path.ancestors()
        .skip(1)
        .take_while(|d| d.starts_with(root) && *d != root)
        .map(Path::to_path_buf)
        .collect()
}

/// How many of `folders` ([`folders_below`]) are not there yet: the ones writing the file
/// creates.
fn missing(folders: &[PathBuf]) -> usize {
    folders
        .iter()
        .take_while(|d| std::fs::symlink_metadata(d).is_err())
        .count()
}

/// Removes `folders`, the deepest first, each only while empty: one holding a file of the
/// user's keeps it and those above it.
fn remove_empty(folders: &[PathBuf]) {
    for folder in folders {
        if std::fs::remove_dir(folder).is_err() {
            break;
        }
    }
}

/// Why install leaves the switch file at `path` (text `current`) as it is: `why`, and, for a
/// file the host reads all the same (its own reader takes more than JSON: a raw tab in a
/// string, `0x10`), that the refusal is hookx's (it edits only what it can write back
/// exactly) and what to do.
fn switch_refused(host: Dialect, path: &Path, current: Option<&str>, why: &str) -> String {
    let src = SourceFile::new(path.display().to_string(), current.unwrap_or_default());
    let syntax = host.config().json_syntax.of_file(&src.path);
    let read = crate::config::syntax::parse_json_as(&src, syntax).is_ok_and(|v| v.is_object());
    match read {
        false => format!("{why}; hookx leaves it as it is"),
        true => format!(
            "{} reads it (its reader takes more than JSON, and so does `hookx run`), but \
             hookx edits only a file it can write back exactly, and cannot this one ({why}): \
             it changed nothing, here or in the routes. Write that spot as plain JSON (a tab \
             in a string as `\\t`), then run this again",
            host.def().display,
        ),
    }
}

/// Keeps each setting with which the host leaves single handlers of another dialect's files
/// to hookx ([`crate::tables::HookSwitch`]) listing exactly the handlers of the install's
/// scope that the host reads itself with its own payload (none on uninstall), so that hookx
/// runs each of them once, with the payload it was written for.
/// Returns the host's names of the events of the handlers listed.
fn set_hook_switches(opts: &Options, report: &mut Report) -> Result<Vec<&'static str>, Error> {
    set_hook_switches_of(opts, report, &|_, _, _| true, None)
}

/// [`set_hook_switches`] for the handlers `admit` takes (the source, the host's name of the
/// event, the key): the others are not listed. With `unless_listed`, a switch file is left as
/// it is where every key wanted is among those.
fn set_hook_switches_of(
    opts: &Options,
    report: &mut Report,
    admit: &dyn Fn(&crate::discover::Source, &str, &str) -> bool,
    unless_listed: Option<&[String]>,
) -> Result<Vec<&'static str>, Error> {
    let host = opts.host;
    let root = match opts.scope {
        InstallScope::Project => Root::Project,
        InstallScope::User => Root::Home,
    };
    let switches: Vec<_> = host
        .config()
        .foreign_switches
        .iter()
        .filter_map(|s| Some((s.dialect, s.hooks?)))
        .collect();
    let mut served: Vec<&'static str> = Vec::new();
    if switches.is_empty() {
        return Ok(served);
    }
    let sources = crate::discover::discover(&opts.ctx);
    for (dialect, switch) in switches {
        let mut wanted: Vec<String> = Vec::new();
        for source in sources
            .iter()
            .filter(|s| s.dialect == dialect && s.location.root == root)
            .filter(|s| crate::discover::runner(host, s) == Runner::Native)
        {
            let Some(doc) = source.document() else {
                continue;
            };
            for rule in doc
                .rules
                .iter()
                .filter(|r| !dialect.config().is_disabled(r))
            {
                for handler in rule.handlers.iter().filter(|h| !is_hookx_handler(h)) {
                    let own = switch.events.iter().find(|e| e.0 == rule.event);
                    if let Some(key) = crate::discover::key_of(host, source, rule, handler)
                        && !wanted.contains(&key)
                        && admit(source, own.map_or("", |e| e.2), &key)
                    {
                        wanted.push(key);
                        if let Some(&(_, _, name, _)) = own
                            && !opts.uninstall
                            && !served.contains(&name)
                        {
                            served.push(name);
                        }
                    }
                }
            }
        }
        let owner = match opts.scope {
            InstallScope::Project => opts.ctx.project.display().to_string(),
            InstallScope::User => crate::route::HOME_OWNER.to_string(),
        };
        if unless_listed.is_some_and(|listed| wanted.iter().all(|k| listed.contains(k))) {
            continue;
        }
        let keys: &[String] = if opts.uninstall { &[] } else { &wanted };
        let path = switch_file(opts, switch);
        set_hook_switch(opts, switch, &owner, &path, keys, &wanted, report)?;
        // Where the folder variable moves the host's file, an older hookx wrote this install's
        // keys (attacks rows 400-401): they go, as the uninstall of a shell without the
        // variable could not find them there.
        let moved = crate::route::hosts_own_file(&opts.ctx.home, host, switch.file);
        if moved != path && moved.exists() {
            set_hook_switch(opts, switch, &owner, &moved, &[], &wanted, report)?;
        }
    }
    Ok(served)
}

/// For `hookx trust`: where `hookx install --host HOST` left a scope's handlers to hookx (the
/// switch file records the install), lists those added or edited since in the host's switch
/// too, as that install again would, so that the host stops running them with its own payload
/// and hookx runs them with theirs (attacks row 1424: a new Write guard read Copilot's `path`
/// as no `file_path` and let the write through). Only handlers of a file `trusted` takes, on
/// an event a route of hookx's serves in the scope's file and the user's (a project install
/// routes both): any other would run nowhere, and stays the host's until install runs. Keys
/// hookx records stay; the user's own stay. Per switch file changed, its list's key and how
/// many keys it lists now that it did not.
pub fn relist_for_trust(
    ctx: &Context,
    host: Dialect,
    trusted: &dyn Fn(&crate::discover::Source) -> bool,
) -> Result<Vec<(PathBuf, &'static str, usize)>, Error> {
    let Some(switch) = host.config().foreign_switches.iter().find_map(|s| s.hooks) else {
        return Ok(Vec::new());
    };
    let file = ctx.home.join(switch.file);
    let Ok(text) = read_text(&file) else {
        return Ok(Vec::new());
    };
    let owners = crate::route::recorded_owners(&text, switch);
    let recorded = crate::route::recorded_keys(&text, switch);
    let before = crate::route::listed_keys(&text, switch);
    let project = ctx.project.canonicalize().ok();
    let routed = |scope: InstallScope| {
        let path = target(&ctx.home, &ctx.project, host, scope);
        read_text(&path)
            .map(|t| crate::route::own_route_events(&path, &t, host))
            .unwrap_or_default()
    };
    let user_routes = routed(InstallScope::User);
    for scope in [InstallScope::Project, InstallScope::User] {
        let installed = owners.iter().any(|o| match scope {
            InstallScope::Project => Path::new(o).canonicalize().ok() == project,
            InstallScope::User => o == crate::route::HOME_OWNER,
        });
        if !installed {
            continue;
        }
        let own_routes = match scope {
            InstallScope::Project => routed(InstallScope::Project),
            InstallScope::User => user_routes.clone(),
        };
        let opts = Options {
            ctx: ctx.clone(),
            host,
            scope,
            uninstall: false,
            hookx: None,
            route_home: None,
            route_managed_root: None,
        };
        let admit = |source: &crate::discover::Source, event: &str, key: &str| {
            recorded.iter().any(|k| k == key)
                || (trusted(source) && own_routes.contains(&event) && user_routes.contains(&event))
        };
        let mut report = Report::default();
        set_hook_switches_of(&opts, &mut report, &admit, Some(&before))?;
    }
    let after = read_text(&file)
        .map(|t| crate::route::listed_keys(&t, switch))
        .unwrap_or_default();
    let new = after.iter().filter(|k| !before.contains(k)).count();
    Ok(match new {
        0 => Vec::new(),
        n => vec![(file, switch.key, n)],
    })
}

/// Lists `keys` in the switch file at `path` as `owner`'s, in place of what `owner` had
/// there (none: `owner`'s record goes); `wanted` are the keys of the handlers this install
/// leaves to hookx, for what an uninstall leaves off.
fn set_hook_switch(
    opts: &Options,
    switch: &'static crate::tables::HookSwitch,
    owner: &str,
    path: &Path,
    keys: &[String],
    wanted: &[String],
    report: &mut Report,
) -> Result<(), Error> {
    let host = opts.host;
    let shown = opts.ctx.display(path);
    let mut left = None;
    let mut before = Vec::new();
    let folders = folders_below(&opts.ctx.home, path);
    let new_folders = missing(&folders);
    let mut created_folders = 0;
    update_keeping_trust(
        &opts.ctx,
        (path, switch.host_lock),
        &mut report.kept_trusted,
        |current| {
            before = current.map_or_else(Vec::new, |t| crate::route::listed_keys(t, switch));
            let change = crate::route::switch_text(current, switch, owner, keys, new_folders)
                .map_err(|why| Error::Io {
                    path: shown.clone(),
                    message: switch_refused(host, path, current, &why),
                })?;
            let change = crate::config::update::keeping_links(&opts.ctx.home, path, change, || {
                "{}\n".into()
            });
            left = match &change {
                Change::Write(text) => Some(text.clone()),
                Change::Keep => current.map(str::to_string),
                Change::Delete => {
                    created_folders =
                        current.map_or(0, |t| crate::route::created_folders(t, switch));
                    None
                }
            };
            Ok(change)
        },
    )?;
    report
        .switch_folders
        .extend(folders.into_iter().take(created_folders));
    let listed = left
        .as_deref()
        .map_or_else(Vec::new, |t| crate::route::listed_keys(t, switch));
    if opts.uninstall {
        // A key another install records stays as hookx's: its user route runs the
        // handler here (attacks row 245: said to be the user's, to be taken out).
        let others = left
            .as_deref()
            .map_or_else(Vec::new, |t| crate::route::recorded_keys(t, switch));
        let off = wanted
            .iter()
            .filter(|k| listed.contains(k) && !others.contains(k))
            .count();
        if off > 0 {
            report.still_off.push((path.to_path_buf(), switch.key, off));
        }
    }
    // Said when the list changed (a rewrite of hookx's own record alone turns nothing on).
    if listed != before || !keys.is_empty() {
        report.switched.push((path.to_path_buf(), keys.len()));
    }
    Ok(())
}

/// A route script that holds lines besides hookx's (a guard of the user's before its `exec`:
/// the host runs one script per event) is left as it is, and said (attacks row 328: it was
/// written anew, or deleted, without a word); so is a route entry whose line the user edited
/// (row 540; `name`: the event).
fn edited_by_hand(ctx: &Context, name: &str, path: &Path) -> String {
    format!(
        "{name}: {} is hookx's route edited by hand, left as it is: move your lines out of it (or delete it), then run install again",
        ctx.display(path)
    )
}

/// The name of `event`'s route script in `dir`: the first of the event's names (its name, then
/// with each of the layout's endings) that holds a route of hookx's, else the first that is
/// free. The agent runs every script of an event (cline-facts: Cline 3.0.65 runs them all), so
/// a script of the user's own, or a converted copy, under the event's name leaves the route the
/// next name: before, install left the event unrouted and the rules only hookx runs ran nowhere
/// (attacks row 403). All taken: the event's name, refused as the user's.
fn route_script_name(dir: &Path, layout: &crate::tables::ScriptLayout, event: &str) -> String {
    let names: Vec<String> = layout
        .extensions
        .iter()
        .map(|ext| format!("{event}{ext}"))
        .collect();
    let text = |name: &String| read_text(&dir.join(name));
    names
        .iter()
        .find(|name| text(name).is_ok_and(|t| scripts::is_route(&t)))
        .or_else(|| {
            names
                .iter()
                .find(|name| std::fs::symlink_metadata(dir.join(name)).is_err())
        })
        .unwrap_or(&names[0])
        .clone()
}

/// Install for a host whose hooks are one script per event ([`crate::tables::ScriptLayout`]): a route is a
/// script named after its event in the scope's hook folder, running `hookx run`. Only scripts
/// install wrote ([`scripts::ROUTE_MARK`]) are replaced or removed; a script of the user's own under
/// an event's name leaves that event unrouted, and the report says so.
fn apply_scripts(opts: &Options, layout: &crate::tables::ScriptLayout) -> Result<Report, Error> {
    let Start {
        path: dir,
        mut report,
        hookx,
    } = start(opts)?;
    let host = opts.host;
    let needed = events_to_route(opts);
    // (event, the script's name).
    let wanted: Vec<(String, String)> = needed
        .iter()
        .map(|event| (event.to_string(), route_script_name(&dir, layout, event)))
        .collect();
    let io = |path: &Path, e: std::io::Error| Error::Io {
        path: opts.ctx.display(path),
        message: e.to_string(),
    };
    // hookx's scripts no rule needs any more go (all of them on uninstall).
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let path = entry.path();
        let Some(name) = path
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string)
        else {
            continue;
        };
        let text = read_text(&path).unwrap_or_default();
        if scripts::is_route(&text) && !wanted.iter().any(|(_, n)| *n == name) {
            if scripts::is_edited_route(&text) {
                report.refused.push(edited_by_hand(&opts.ctx, &name, &path));
                continue;
            }
            // A script the user linked in keeps its link; the file it names routes nothing.
            let linked = through_link(opts, &path);
            if linked != path {
                if scripts::is_emptied_route(&text) {
                    continue;
                }
                scripts::write_executable(&linked, &scripts::emptied_route())?;
            } else {
                std::fs::remove_file(&path).map_err(|e| io(&path, e))?;
            }
            match opts.uninstall {
                true => report.removed += 1,
                false => report.dropped.push(name),
            }
        }
    }
    if let Some(hookx) = &hookx {
        for (event, name) in &wanted {
            let path = dir.join(name);
            let text =
                scripts::route_script(&route_command(hookx.program(), host, event, opts.scope));
            match read_text(&path) {
                Ok(current) if current == text && scripts::is_executable(&path) => {}
                Ok(current) if scripts::is_edited_route(&current) => {
                    report.refused.push(edited_by_hand(&opts.ctx, name, &path));
                    continue;
                }
                Ok(current) if scripts::is_route(&current) => {
                    write_keeping_trust(
                        &opts.ctx,
                        (&path, current.as_bytes(), text.as_bytes()),
                        &mut report.kept_trusted,
                        || scripts::write_executable(&through_link(opts, &path), &text),
                    )?;
                    report.updated.push(name.clone());
                }
                Ok(_) => {
                    report.refused.push(format!(
                        "{name}: {} is a hook of your own, left as it is",
                        opts.ctx.display(&path)
                    ));
                    continue;
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    scripts::write_executable(&path, &text)?;
                    report.added.push(name.clone());
                }
                Err(e) => return Err(io(&path, e)),
            }
            report.routes += 1;
        }
        report.command = format!("{} run --host {}", shell_quote(&hookx.hookx), host.name());
    }
    if opts.uninstall
        && report.removed > 0
        && std::fs::read_dir(&dir).is_ok_and(|mut d| d.next().is_none())
    {
        // The folder install created, now empty.
        let _ = std::fs::remove_dir(&dir);
    }
    Ok(report)
}

/// Where install re-points or empties the route script `path`: the file its link names, where
/// the user linked it in (a dotfiles folder: a plain file in its place, or the link removed,
/// left the old route there for a re-link to bring back, attacks row 408), as
/// [`config::update::update`] writes other files;
/// but a project's script whose link leads out of the project is no file of the project's
/// (a repository's link to the user's own route): `path` itself, the link replaced.
fn through_link(opts: &Options, path: &Path) -> PathBuf {
    let outside = opts.scope == InstallScope::Project
        && config::confine::leaves(&opts.ctx.project, path).is_some();
    match std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) && !outside {
        true => path.canonicalize().unwrap_or_else(|_| path.to_path_buf()),
        false => path.to_path_buf(),
    }
}

/// Install for a host whose hooks are code ([`crate::tables::GeneratedPlugin`]): one plugin
/// file of hookx's own, written whole, with a route per event that has rules. A file at that
/// path without hookx's marker is the user's: refused, left as it is. With no event to route
/// (and on uninstall) hookx's file is deleted.
fn apply_plugin(opts: &Options, plugin: &crate::tables::GeneratedPlugin) -> Result<Report, Error> {
    let Start {
        path,
        mut report,
        hookx,
    } = start(opts)?;
    let host = opts.host;
    let root = scope_root(opts);
    let needed = events_to_route(opts);
    let mut kept = Vec::new();
    update_keeping_trust(&opts.ctx, (&path, None), &mut kept, |current| {
        // Run again on a file another program wrote meanwhile: said from the last run only.
        report.added.clear();
        report.updated.clear();
        let old = match current {
            Some(text) if !crate::route::is_own_plugin(plugin, text) => {
                return Err(Error::Io {
                    path: opts.ctx.display(&path),
                    message: "holds a plugin hookx did not write; hookx writes this file whole \
                              and leaves it as it is (move it, or name yours otherwise)"
                        .into(),
                });
            }
            Some(text) => crate::route::plugin_routes(plugin, text),
            None => Vec::new(),
        };
        // A plugin routing nothing, where the file is the user's link (no program is named).
        let emptied = || {
            let program = crate::route::Program::plain("hookx");
            crate::route::plugin_text(plugin, host, program, &[], opts.scope)
        };
        let Some(hookx) = &hookx else {
            report.removed = old.len();
            let change = match current {
                Some(_) => keeping_links(root, &path, Change::Delete, emptied),
                None => Change::Keep,
            };
            report.deleted = matches!(change, Change::Delete);
            return Ok(change);
        };
        report.command = format!("{} run --host {}", shell_quote(&hookx.hookx), host.name());
        let text = crate::route::plugin_text(plugin, host, hookx.program(), &needed, opts.scope);
        for event in &needed {
            match old.iter().find(|(e, _)| e == event) {
                None => report.added.push(event.to_string()),
                Some((_, line))
                    if *line
                        != crate::route::route_command(
                            hookx.program(),
                            host,
                            event,
                            opts.scope,
                        ) =>
                {
                    report.updated.push(event.to_string())
                }
                Some(_) => {}
            }
        }
        report.dropped = old
            .iter()
            .filter(|(e, _)| !needed.contains(&e.as_str()))
            .map(|(e, _)| e.clone())
            .collect();
        report.routes = needed.len();
        Ok(match (current, needed.is_empty()) {
            (None, true) => Change::Keep,
            (Some(_), true) => keeping_links(root, &path, Change::Delete, emptied),
            (Some(now), false) if now == text => Change::Keep,
            _ => Change::Write(text),
        })
    })?;
    report.kept_trusted = kept;
    Ok(report)
}

/// Refuses a rule-list file holding a key beside `hooks` and the list's `version` (a user's
/// `description`, `$schema`): install writes the file whole, and uninstall deletes it, so the
/// key would be lost (attacks row 1401).
fn keys_beside_the_list(
    path: &Path,
    text: &str,
    list: &crate::tables::RuleList,
) -> Result<(), Error> {
    let src = SourceFile::new(path.display().to_string(), text);
    let value = crate::config::syntax::parse_json(&src)?;
    match list.key_beside(&value) {
        None => Ok(()),
        Some(key) => Err(Error::Invalid(vec![crate::diag::Diagnostic::at_line_col(
            crate::diag::Severity::Error,
            &src,
            1,
            1,
            format!(
                "holds `{key}`, which hookx does not write: hookx writes this file whole and leaves it as it is (move that key to another file of the folder)"
            ),
        )])),
    }
}

/// Install for a host whose files are rule lists ([`crate::tables::RuleList`]) and
/// which reads every file of its hook folder: hookx's routes are a file of its own, written
/// whole (one rule per event, each marked as install's). A file there that holds any rule
/// install did not write is refused and left as it is; a route of it whose line the user edited
/// is theirs, left as it is. Uninstall deletes the file (keeping such a route).
fn apply_rule_list(opts: &Options, list: &crate::tables::RuleList) -> Result<Report, Error> {
    let Start {
        path,
        mut report,
        hookx,
    } = start(opts)?;
    let host = opts.host;
    let root = scope_root(opts);
    let needed = events_to_route(opts);
    let mut kept = Vec::new();
    let refused = report.refused.len();
    update_keeping_trust(&opts.ctx, (&path, None), &mut kept, |current| {
        // Run again on a file another program wrote meanwhile: said from the last run only.
        report.refused.truncate(refused);
        let had: Vec<String> = match current {
            None => Vec::new(),
            Some(text) => {
                keys_beside_the_list(&path, text, list)?;
                routes_in_list(&path, text, host, list)?
            }
        };
        // A list of no rules, where the file is the user's link.
        let emptied = || {
            let value = json!({"version": list.version, "hooks": []});
            serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
        };
        // The routes as they are: a key the user put on one (Kiro's `enabled: false`, which
        // turns it off, a `description`) stays through a re-point, as on a route in a JSON
        // file; hookx's own keys are written anew (attacks row 481: the route turned back on).
        let previous: Vec<Value> = current
            .and_then(|text| {
                let src = SourceFile::new(path.display().to_string(), text);
                crate::config::syntax::parse_json(&src).ok()
            })
            .and_then(|value| value.get("hooks").and_then(Value::as_array).cloned())
            .unwrap_or_default();
        // A route whose line the user edited (`./my-guard.sh && hookx run …`) is theirs: it
        // stays as it is, carries its event, and is said, as in a JSON file (attacks row 580:
        // row 540's fix had left this file, written whole, rewriting the user's guard away).
        let edited = |rule: &Value| is_edited_route(&rule[list.handler_key], host);
        let edited_events: Vec<String> = previous
            .iter()
            .filter(|rule| edited(rule))
            .filter_map(|rule| rule[list.event_key].as_str().map(str::to_string))
            .collect();
        report.refused.extend(
            edited_events
                .iter()
                .map(|event| edited_by_hand(&opts.ctx, event, &path)),
        );
        let is_edited = |event: &str| edited_events.iter().any(|e| e == event);
        // The file as written: the edited routes where they were, install's `ours` (by event)
        // in place of its old ones, then the new.
        let whole = |mut ours: Vec<Value>| -> Change {
            let mut rules = Vec::new();
            for rule in &previous {
                if edited(rule) {
                    rules.push(rule.clone());
                } else if let Some(at) = ours
                    .iter()
                    .position(|r| r[list.event_key] == rule[list.event_key])
                {
                    rules.push(ours.remove(at));
                }
            }
            rules.extend(ours);
            if rules.is_empty() {
                return match current {
                    Some(_) => keeping_links(root, &path, Change::Delete, emptied),
                    None => Change::Keep,
                };
            }
            let value = json!({"version": list.version, "hooks": rules});
            let text = serde_json::to_string_pretty(&value).unwrap_or_default() + "\n";
            match current == Some(text.as_str()) {
                true => Change::Keep,
                false => Change::Write(text),
            }
        };
        let Some(hookx) = &hookx else {
            report.removed = had.len() - edited_events.len();
            let change = whole(Vec::new());
            report.deleted = matches!(change, Change::Delete);
            return Ok(change);
        };
        let keep_users_keys = |new: &mut serde_json::Map<String, Value>, old: Option<&Value>| {
            for (key, value) in old.and_then(Value::as_object).into_iter().flatten() {
                new.entry(key.clone()).or_insert_with(|| value.clone());
            }
        };
        let mut timeouts = Vec::new();
        let rules: Vec<Value> = needed
            .iter()
            .filter(|event| !is_edited(event))
            .map(|event| {
                let old = previous
                    .iter()
                    .find(|rule| rule[list.event_key].as_str() == Some(*event));
                let command = route_command(hookx.program(), host, event, opts.scope);
                let kind = host
                    .own_events()
                    .into_iter()
                    .find(|(_, name, _)| name == event)
                    .map_or_else(|| EventKind::Other(event.to_string()), |(kind, ..)| kind);
                let mut handler = layout(host, &kind, &command);
                let mut on_rule = Vec::new();
                if let Some(obj) = handler.as_object_mut() {
                    obj.insert(config::MARKER.into(), created_file());
                    for key in list.handler_keys_on_rule {
                        if let Some(value) = obj.remove(*key) {
                            on_rule.push((key.to_string(), value));
                        }
                    }
                    keep_users_keys(obj, old.map(|o| &o[list.handler_key]));
                }
                // Hookx's timeout is written anew, and another one there said, as on a JSON
                // route (attacks row 481's leftover: a raised one was set back silently).
                if let Some((key, ours)) = route_timeout(host, &kind)
                    && let Some(found) = old.and_then(|o| o.get(key))
                    && *found != ours
                {
                    timeouts.push((event.to_string(), found.clone(), ours, false));
                }
                let mut rule = serde_json::Map::new();
                rule.insert(list.name_key.into(), format!("hookx-{event}").into());
                rule.insert(list.event_key.into(), (*event).into());
                rule.insert(list.handler_key.into(), handler);
                rule.extend(on_rule);
                keep_users_keys(&mut rule, old);
                Value::Object(rule)
            })
            .collect();
        for event in &needed {
            match had.iter().any(|h| h == event) {
                true => {}
                false => report.added.push(event.to_string()),
            }
        }
        report.dropped = had
            .iter()
            .filter(|h| !needed.contains(&h.as_str()) && !is_edited(h))
            .cloned()
            .collect();
        report.routes = needed.len();
        report.timeouts = timeouts;
        report.command = format!("{} run --host {}", shell_quote(&hookx.hookx), host.name());
        let ours: Vec<String> = rules
            .iter()
            .filter_map(|rule| rule[list.event_key].as_str().map(str::to_string))
            .collect();
        let change = whole(rules);
        report.deleted = matches!(change, Change::Delete);
        if matches!(change, Change::Write(_))
            && report.added.is_empty()
            && report.dropped.is_empty()
        {
            // Same events, another hookx path.
            report.updated = ours;
        }
        Ok(change)
    })?;
    report.kept_trusted = kept;
    Ok(report)
}

/// Keeps the host's review records of hookx's routes in step with the routes: on install, one
/// per route of the file as written; on uninstall, those of the routes it had.
fn record_trust(
    opts: &Options,
    trust: &crate::tables::RouteTrust,
    path: &Path,
    before: Option<&str>,
    report: &mut Report,
) -> Result<(), Error> {
    let named = crate::route::review_key_path(&opts.ctx.home, opts.host, path);
    let routes_of = |text: Option<&str>, named: &Path| -> Vec<(String, String)> {
        text.and_then(|t| serde_json::from_str::<Value>(t).ok())
            .map(|value| (trust.records)(named, &value, &is_own_route))
            .unwrap_or_default()
    };
    let records = match opts.uninstall {
        true => routes_of(before, &named),
        false => routes_of(read_text(path).ok().as_deref(), &named),
    };
    // What an older hookx recorded under the home's real path (attacks row 240) goes too.
    let stale = match opts.uninstall && named != path {
        true => routes_of(before, path),
        false => Vec::new(),
    };
    // The user's own handlers that moved up when routes went keep their review (row 284).
    let after = read_text(path).ok();
    let others = |h: &Value| !is_own_route(h);
    let moved = crate::route::review::moved(trust, &named, (before, after.as_deref()), &others);
    let file = crate::route::review::review_file(&opts.ctx, opts.host, trust, path);
    if records.is_empty() && moved.is_empty() && !file.exists() {
        return Ok(());
    }
    let shown = opts.ctx.display(&file);
    update_keeping_trust(
        &opts.ctx,
        (&file, None),
        &mut report.kept_trusted,
        |current| {
            let text = current.unwrap_or_default();
            let edited = match opts.uninstall {
                true => {
                    let keys: Vec<String> = records
                        .iter()
                        .chain(&stale)
                        .map(|(k, _)| k.clone())
                        .collect();
                    (trust.unset)(text, &keys)
                }
                // A record at a place no route held before is another handler's (one hookx moved
                // or the user deleted): its `enabled = false` would turn the route off (row 320).
                false => {
                    let held = routes_of(before, &named);
                    let fresh: Vec<String> = records
                        .iter()
                        .filter(|(k, _)| !held.iter().any(|(h, _)| h == k))
                        .map(|(k, _)| k.clone())
                        .collect();
                    (trust.unset)(text, &fresh).and_then(|text| (trust.set)(&text, &records))
                }
            }
            .and_then(|edited| crate::route::review::carried(trust, &edited, &moved))
            .map_err(|message| Error::Io {
                path: shown.clone(),
                message: format!("cannot record the review of hookx's routes: {message}"),
            })?;
            Ok(match edited == text {
                true => Change::Keep,
                // Nothing left but hookx's records: the file goes, and with it the folder install
                // made for the route (attacks row 287: an empty `~/.codex/config.toml` stayed).
                false
                    if opts.uninstall
                        && edited.trim().is_empty()
                        && !crate::config::update::linked_in(&opts.ctx.home, &file) =>
                {
                    Change::Delete
                }
                false => Change::Write(edited),
            })
        },
    )?;
    report.trust_file = Some(file);
    report.trusted = records.into_iter().map(|(k, _)| k).collect();
    Ok(())
}

/// Each file `host` runs itself with its own payload, not the one its rules were written for
/// (Copilot reading `.claude/settings.json`), as a sentence: hookx routes none of its rules,
/// since the host's own run cannot be stopped and a second would double each (`crate::plan`).
/// And each rule hookx's route runs while the host also runs a copy that does not stand in
/// for it (one calling another hookx than this one, after hookx moved: attacks row 627).
fn own_payload_runs(ctx: &Context, host: Dialect) -> Vec<String> {
    let sources = crate::plan::sources_under(ctx, host);
    let plan = crate::plan::plan_once_trusted(ctx, &sources, host);
    let mut out: Vec<String> = Vec::new();
    for rule in plan.rules() {
        if let crate::plan::Runner::Hookx { file } = &rule.runner {
            let handler: String = rule.handler.chars().take(48).collect();
            out.extend(rule.also.iter().map(|also| {
                format!(
                    "hookx runs the {} rule `{handler}` of {file} through this route, and {also}: \
                     it runs twice until that copy stands in for it (a copy calling another hookx \
                     than this one does not: convert its source again; hookx list --host {host} \
                     says each)",
                    rule.event
                )
            }));
        }
        if let crate::plan::Runner::AgentOwnPayload { file, payload, .. } = &rule.runner {
            let Some(source) = sources.iter().find(|s| &s.display == file) else {
                continue;
            };
            let line = format!(
                "{} runs {file} itself with its {payload} payload, not the {} one its rules were \
                 written for ({}); hookx routes none of them, or each would run twice (hookx \
                 doctor --host {host} names each)",
                host.def().display,
                source.dialect,
                crate::plan::switch_sentence(host, source.dialect)
            );
            if !out.contains(&line) {
                out.push(line);
            }
        }
    }
    out
}

/// The events that need a route: those with rules that hookx (not the host itself) runs under
/// `host`, in the files of the scope the install serves. Trust is not asked: a file trusted
/// later needs its route already.
/// The host's event names are returned: an event that is a tool category (Windsurf's
/// `pre_run_command`) needs a route only when some rule fires for a tool of it.
pub fn routed_events(ctx: &Context, host: Dialect, scope: InstallScope) -> Vec<&'static str> {
    let root = match scope {
        InstallScope::Project => Root::Project,
        InstallScope::User => Root::Home,
    };
    // Only the rules hookx will run once their files are trusted (`crate::plan`): none whose
    // copy the host runs itself, so that the routes need as few skips as possible.
    let sources = crate::plan::sources_under(ctx, host);
    let plan = crate::plan::plan_once_trusted(ctx, &sources, host);
    let in_scope = || {
        sources
            .iter()
            .filter(|s| s.location.root == root)
            .filter_map(|s| Some((s, s.document()?)))
            .flat_map(|(s, d)| d.rules.iter().map(move |r| (s, r)))
    };
    let rules: Vec<&crate::tables::Rule> = in_scope()
        .filter(|(s, r)| {
            r.handlers
                .iter()
                .enumerate()
                .any(|(i, h)| !is_hookx_handler(h) && plan.through_hookx(s, r, i))
        })
        .map(|(_, r)| r)
        .collect();
    // Rules the host runs from a copy on another event than one that fires them too (a Gemini
    // AfterTool rule copied onto Claude's PostToolUse, which Claude's PostToolUseFailure fires
    // too): hookx runs them there (attacks row 1613). Each with the event its copy is on.
    let copy_event = |file: &Path, pointer: &str| {
        sources
            .iter()
            .filter(|o| crate::plan::source_file(o) == file)
            .filter_map(|o| o.document())
            .flat_map(|d| &d.rules)
            .find(|c| crate::plan::copy_rule_id(c) == pointer)
            .map(|c| c.event.clone())
    };
    let copied: Vec<(&crate::tables::Rule, crate::model::EventKind)> = in_scope()
        .filter_map(|(s, r)| {
            let (file, pointer) = (0..r.handlers.len()).find_map(|i| plan.host_copy(s, r, i))?;
            Some((r, copy_event(file, pointer)?))
        })
        .collect();
    let own = host.own_events();
    let fires = |kind: &crate::model::EventKind, flavor: crate::tables::Flavor| {
        let off_its_copy = copied.iter().filter(|(_, on)| on != kind).map(|(r, _)| *r);
        rules.iter().copied().chain(off_its_copy).any(|r| {
            crate::protocol::failed::can_fire(flavor, kind, r.flavor, &r.event)
                && (r.event != *kind || rules.contains(&r))
                && crate::convert::RuleTools::new(r, kind)
                    .in_category(flavor)
                    .is_none_or(|fire| fire != crate::convert::CategoryFire::Never)
        })
    };
    // A context the host drops on a routed event is carried to the same call's later events,
    // which need a route to deliver it (`crate::dispatch::carry`, attacks row 1650).
    let carried_to: Vec<&crate::model::EventKind> = own
        .iter()
        .filter(|(kind, _, flavor)| fires(kind, *flavor))
        .filter_map(|(kind, _, flavor)| {
            let carried = flavor.tables().protocol.carried_context.as_ref()?;
            (carried.from == *kind).then_some(carried.to)
        })
        .flatten()
        .collect();
    own.iter()
        .filter(|(kind, _, flavor)| fires(kind, *flavor) || carried_to.contains(&kind))
        .map(|(_, name, _)| *name)
        .collect()
}

/// The hook files whose rules `hookx run --host HOST` would run itself but that are not trusted
/// (new, changed, or trusted by an older hookx), as people read their paths: until `hookx
/// trust`, the routes run none of their hooks, and a guard among them lets everything through.
pub fn waiting_for_trust(ctx: &Context, host: Dialect) -> Vec<String> {
    let store = crate::trust::TrustStore::load_or_empty(ctx);
    let sources = crate::discover::discover_trusting(ctx, &store);
    let keys = crate::discover::switched_keys(&sources, host);
    sources
        .iter()
        .filter(|s| {
            crate::discover::runner(host, s) == Runner::Hookx
                || crate::discover::leaves_any(host, &keys, s)
        })
        .filter(|s| {
            s.document().is_some_and(|d| {
                d.rules
                    .iter()
                    .flat_map(|r| &r.handlers)
                    .any(|h| !is_hookx_handler(h))
            })
        })
        .filter(|s| store.state(s) != crate::trust::TrustState::Trusted)
        .map(|s| s.display.clone())
        .collect()
}

/// The hook files hookx would run under `host` that it cannot read (a trailing comma, no JSON),
/// each with where it fails: no route is made for their rules, so once fixed they run nowhere
/// under the host until install runs again. Install said only "no events to route: the host
/// runs every rule itself" (attacks row 483).
fn unreadable(ctx: &Context, host: Dialect) -> Vec<String> {
    crate::discover::discover(ctx)
        .iter()
        .filter(|s| crate::discover::runner(host, s) == Runner::Hookx)
        .filter_map(|s| {
            Some(format!(
                "{}:{}: hookx cannot read it, so no route is made for its rules; fix it (`hookx \
                 validate {}`), then run install again",
                s.display,
                s.error_line()?,
                s.display
            ))
        })
        .collect()
}

/// `hookx install`, printing what it did.
pub fn command(opts: &Options) -> Result<i32, Error> {
    let report = apply(opts)?;
    let shown = opts.ctx.display(&report.path);
    let host = opts.host;
    if !opts.uninstall {
        for (var, flag, given) in [
            (crate::context::HOME_VAR, "--home", &opts.route_home),
            (
                crate::context::MANAGED_ROOT_VAR,
                "--managed-root",
                &opts.route_managed_root,
            ),
        ] {
            if given.is_none() && std::env::var_os(var).is_some_and(|v| !v.is_empty()) {
                errln!(
                    "note: {var} is set, but `hookx run` does not read it (an agent passes a \
                     project's variables to every hook): install with {flag} DIR to have the \
                     routes use it"
                );
            }
        }
    }
    // The agent's folder variable (`CODEX_HOME`) names another folder: the agent reads its
    // user file there, not where the route went (attacks row 191).
    let rel = host.config().install_user;
    let read_there = opts.ctx.agent_file(host, rel);
    if opts.scope == InstallScope::User
        && !opts.uninstall
        && !crate::context::same_place(&read_there, &opts.ctx.home.join(rel))
        && let Some(var) = host.def().home_var.as_ref()
    {
        errln!(
            "warning: {var} is set, so {} reads its user hooks from {}, not from {shown}, where \
             this route is: it does not run it while {var} is set (hookx reads its hooks below \
             the home)",
            host.def().display,
            read_there.display(),
            var = var.var,
        );
    }
    for file in &report.kept_trusted {
        errln!(
            "note: {} stays trusted: you had trusted it, and hookx recorded its own edit as trusted too",
            opts.ctx.display(file)
        );
    }
    for (file, handlers) in &report.switched {
        if let (false, Some(var)) = (opts.uninstall, host.def().home_var.as_ref())
            && let Ok(rel) = file.strip_prefix(&opts.ctx.home)
            && let Some(rel) = rel.to_str()
            && crate::route::hosts_own_file(&opts.ctx.home, host, rel) != *file
        {
            errln!(
                "note: {var} is set, so {} reads neither {} nor hookx's user route while it is: \
                 it runs those handlers itself then (once each, with its own payload)",
                host.def().display,
                opts.ctx.display(file),
                var = var.var,
            );
        }
        let file = opts.ctx.display(file);
        match (opts.uninstall, handlers) {
            (true, _) | (false, 0) => {
                outln!("{host} runs again the handlers hookx had turned off for it in {file}")
            }
            (false, n) => outln!(
                "{host} leaves {n} handlers it reads in another agent's files to hookx \
                 ({file}): hookx runs each once, with the payload it was written for"
            ),
        }
    }
    for (file, key, handlers) in &report.still_off {
        errln!(
            "warning: {} still lists {handlers} handler(s) of this {} in `{key}`, not as \
             hookx's (you listed them, or took hookx's record out): {host} does not run them, and \
             with hookx's routes gone nothing does; take their keys out there to turn them back on",
            opts.ctx.display(file),
            match opts.scope {
                InstallScope::Project => "project",
                InstallScope::User => "home",
            }
        );
    }
    for route in std::iter::once(&report).chain(report.user_route.as_deref()) {
        let Some(key) = host.def().route.timeout_key else {
            break;
        };
        let file = opts.ctx.display(&route.path);
        for kept in [true, false] {
            let said: Vec<String> = route
                .timeouts
                .iter()
                .filter(|t| t.3 == kept)
                .map(|(event, found, ours, _)| format!("{event} {found} (hookx writes {ours})"))
                .collect();
            if said.is_empty() {
                continue;
            }
            let said = said.join(", ");
            match kept {
                true => errln!(
                    "note: kept the shorter `{key}` on hookx's routes in {file}: {said}; hookx \
                     run answers within it (install --scope user sets hookx's own)"
                ),
                false => errln!(
                    "warning: set `{key}` on hookx's routes in {file} back to hookx's: {said}; \
                     hookx run answers within the route's timeout: cut it again if you meant it"
                ),
            }
        }
    }
    if let Some(user) = report.user_route.as_deref().filter(|u| u.changed()) {
        let file = opts.ctx.display(&user.path);
        match user.routes {
            0 => outln!(
                "removed hookx's user route for {host} from {file}: no project install switches \
                 handlers off any more"
            ),
            _ => outln!(
                "{host} events routed to hookx in {file} too (the user route): {}; {host} turns \
                 a handler off by its content, in every project, and this route runs the \
                 byte-identical ones in projects without a route of hookx's",
                user.added.join(", ")
            ),
        }
    }
    if opts.uninstall && report.routes > 0 {
        outln!(
            "kept the {host} routes in {shown} that hookx runs handlers by for project installs \
             ({}): uninstall those first",
            switch_owners(opts)
                .unwrap_or_default()
                .into_iter()
                .filter(|o| o != crate::route::HOME_OWNER)
                .collect::<Vec<_>>()
                .join(", ")
        );
        return Ok(0);
    }
    if opts.uninstall {
        if report.deleted {
            outln!(
                "removed {} hookx entries for {host} and the file {shown}, which held nothing else",
                report.removed
            );
        } else if report.removed > 0 {
            outln!(
                "removed {} hookx entries for {host} from {shown}",
                report.removed
            );
        } else {
            outln!("no hookx entries for {host} in {shown}");
        }
        for refused in &report.refused {
            errln!("note: not removed: {refused}");
        }
        if report.removed > 0 || report.deleted {
            say_rewritten_from_memory(host, &shown);
        }
        if let Some(file) = &report.trust_file
            && !report.trusted.is_empty()
        {
            outln!(
                "removed {host}'s review records of those entries from {}",
                opts.ctx.display(file)
            );
        }
        return Ok(0);
    }
    if !report.changed() && report.routes == 0 {
        outln!(
            "no {host} events to route: {host} runs every rule of this scope itself, or none \
             is there (hookx list --host {host} shows who runs each rule)"
        );
    } else if !report.changed() {
        outln!("hookx is already installed for {host} in {shown}");
    } else {
        if !report.added.is_empty() {
            outln!(
                "routed {} {host} events to hookx in {shown}: {}",
                report.added.len(),
                report.added.join(", ")
            );
        }
        if !report.updated.is_empty() {
            outln!(
                "re-pointed {} existing hookx entries: {}",
                report.updated.len(),
                report.updated.join(", ")
            );
        }
        if !report.moved.is_empty() {
            outln!(
                "moved hookx's route after the other hooks of {} events ({host} decides a \
                 tool call by one hook's place among them: a hook of yours after the route \
                 would hide or undo its deny): {}",
                report.moved.len(),
                report.moved.join(", ")
            );
        }
        if !report.dropped.is_empty() {
            outln!(
                "removed the routes of {} events no rule needs any more: {}",
                report.dropped.len(),
                report.dropped.join(", ")
            );
        }
        if report.removed > 0 {
            outln!("removed {} duplicate hookx entries", report.removed);
        }
    }
    for refused in &report.refused {
        errln!("note: not routed: {refused}");
    }
    for (event, file) in &report.hidden {
        errln!(
            "warning: {} holds {event}, which replaces that event of {shown}: {} does not run \
             this route for it (only a route of another scope runs those rules then); move the \
             {event} hooks of that file into {shown}",
            opts.ctx.display(file),
            host.def().display,
        );
    }
    if !opts.uninstall {
        // Hooks the host runs after the route just written, where it decides a tool call by
        // one hook's place: those install cannot move (another file's, one beside the route
        // in its entry; attacks rows 2131, 2132).
        let sources = crate::discover::discover(&opts.ctx);
        for after in crate::dispatch::after_route::hooks_after_routes(host, &sources) {
            let ours = crate::context::same_place(&after.route.path, &report.path);
            if ours
                && let Some(said) =
                    crate::commands::doctor::after_route::after_the_route(&after, host)
            {
                let fix = said.fix.map(|f| format!(" (fix: {f})")).unwrap_or_default();
                errln!("warning: {}{fix}", said.message);
            }
        }
        for warning in own_payload_runs(&opts.ctx, host) {
            errln!("warning: {warning}");
        }
        if let Some(warning) = unrunnable_other_scope(&opts.ctx, host, opts.scope) {
            errln!("warning: {warning}");
        }
    }
    // The command holds hookx's path, the text a newline or escape of which would forge a line
    // (attacks row 1531).
    outln!("command: {}", crate::diag::visible(&report.command));
    if let Some(effect) = host.config().scripts.and_then(|l| l.deny_effect)
        && report.routes > 0
    {
        errln!("warning: {effect}");
    }
    if let Some(trust) = &host.def().folder_trust
        && opts.scope == InstallScope::Project
        && report.routes > 0
    {
        let project = opts.ctx.project.canonicalize();
        let project = project.as_deref().unwrap_or(&opts.ctx.project);
        // Attacks row 2025: started in this linked worktree, Codex reads the main checkout's
        // file, trust and reviews, never the route just written here.
        let main = trust
            .main_checkout_in_worktree
            .then(|| crate::discover::main_checkout(project))
            .flatten();
        if let Some(main) = &main {
            errln!(
                "warning: {} started in this linked worktree reads the main checkout's {} \
                 instead of this one's, and keys its reviews by it: the route written here runs \
                 under it only once the checkout's file holds it (`hookx install --host {host} \
                 --project {}`, or this branch merged there)",
                host.def().product,
                crate::diag::visible(
                    &main
                        .join(host.config().install_project)
                        .display()
                        .to_string()
                ),
                crate::shell::shell_quote(&main.display().to_string()),
            );
        } else if !trust.trusts(
            |f| opts.ctx.agent_file(host, f),
            project,
            crate::config::syntax::value_as,
        ) {
            errln!(
                "note: {} reads {} only in a folder the user trusted, and {} does not trust {}: {}",
                host.def().product,
                host.config().install_project,
                crate::discover::folder_record(&opts.ctx, host, trust),
                crate::diag::visible(&project.display().to_string()),
                trust.fix
            );
        }
    }
    if report.changed() {
        say_rewritten_from_memory(host, &shown);
    }
    if let Some(file) = &report.trust_file {
        // Exactly what is trusted: each route, by its position and the hash of its entry.
        outln!(
            "trusted for {host} in {}: the {} hookx entries of {shown} and nothing else ({})",
            opts.ctx.display(file),
            report.trusted.len(),
            crate::diag::visible(&report.trusted.join(", "))
        );
        // The user's own `enabled = false` stays: said, for the route runs nowhere there.
        if let Some(trust) = &host.def().route_trust {
            let text = read_text(file).unwrap_or_default();
            let off = report
                .trusted
                .iter()
                .filter(|key| trust.turned_off(&text, key))
                .count();
            if off > 0 {
                outln!(
                    "note: {off} of them you turned off in {} itself, which stays so: {} runs those routes nowhere, nor what they route (turn them on again there to have them run)",
                    host.def().display,
                    host.def().display
                );
            }
        }
    }
    if opts.hookx.is_none() && opts.scope == InstallScope::Project && report.changed() {
        errln!(
            "note: the entries name this hookx by its absolute path; for a file the team shares, \
             `--hookx hookx` finds it on each developer's PATH instead"
        );
    }
    let waiting = match report.routes {
        0 => Vec::new(),
        _ => waiting_for_trust(&opts.ctx, host),
    };
    if !opts.uninstall {
        for line in unreadable(&opts.ctx, host) {
            errln!("warning: {line}");
        }
    }
    if !waiting.is_empty() {
        // The routes are in place, but hookx runs no untrusted file: until the user reviews
        // them, every routed event passes as if it had no hooks (a guard allows everything).
        outln!(
            "next: review and run `hookx trust`: until then hookx runs none of the hooks of {} \
             (not trusted), and the routed events pass as if they had no hooks",
            waiting.join(", ")
        );
    }
    Ok(0)
}

/// Where `host` writes its settings back whole as a session read them (attacks row 1245): a
/// session running now undoes the change install just made to `shown` at its next write.
fn say_rewritten_from_memory(host: Dialect, shown: &str) {
    if let Some(writes) = host.config().rewrites_from_memory {
        errln!(
            "note: a {} session running now writes its settings back whole, as it read them when \
             it started, at its next settings write ({writes}): that undoes this change to \
             {shown}; start running sessions again, or run this again once they have written \
             (`hookx doctor --host {host}` names a route that is gone)",
            host.def().product
        );
    }
}

/// The other scope's routes of `host` whose program cannot run (hookx moved or removed since
/// they were written), which this install leaves as they are: a user route naming a hookx
/// that is gone runs nothing in every project without a route of its own, and under a host
/// that takes a failed hook for a deny (Copilot) denies every call (attacks row 1085).
fn unrunnable_other_scope(ctx: &Context, host: Dialect, scope: InstallScope) -> Option<String> {
    let other = match scope {
        InstallScope::Project => InstallScope::User,
        InstallScope::User => InstallScope::Project,
    };
    let events = crate::route::unrunnable_route_events(&ctx.home, &ctx.project, host, other);
    if events.is_empty() {
        return None;
    }
    let file = crate::route::target(&ctx.home, &ctx.project, host, other);
    let name = match other {
        InstallScope::User => "user",
        InstallScope::Project => "project",
    };
    // A user route's guard denies a tool call where its hookx is gone (attacks row 1151).
    let denies = match other {
        InstallScope::User if crate::route::guards_user_routes(host) => {
            ", and those that guard a tool call (as this hookx writes them) deny every call in \
             every project while your trust record is there"
        }
        _ => "",
    };
    Some(format!(
        "the hookx routes in {} for {} name a hookx that cannot run (moved, removed or empty), \
         and this install leaves that file as it is: nothing they route runs from there{denies}; \
         `hookx install --host {host} --scope {name}` re-points them",
        ctx.display(&file),
        events.join(", ")
    ))
}
