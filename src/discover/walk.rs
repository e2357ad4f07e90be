//! The walk over every location: the files each names, each real file given to one location
//! ([`Claims`]), then read ([`load`]); plugins last, as the settings just read enable them.
//! The entry points: everything ([`discover`]), or what one `hookx run` needs
//! ([`discover_for_event`], [`discover_firing`]), or one file ([`find`]).

use super::claims::{Candidate, Claims};
use super::listing::{Found, Listings, candidates};
use super::read::{Run, load};
use super::source::Source;
use super::who_runs::{needed_for_run, read_for_copies};
use crate::config;
use crate::context::{Context, absolute, locations};
use crate::error::Error;
use crate::model::EventKind;
use crate::tables::{Dialect, Location, Pattern};
use crate::trust::{TrustState, TrustStore};
use std::path::{Path, PathBuf};

/// Whether a hook file of `dialect`'s own (not a plugin's) holds `text` as written: a look,
/// without parsing, before anything that needs the files read whole. Each file read up to
/// [`crate::read::MAX_FILE_BYTES`].
pub fn own_files_hold(ctx: &Context, dialect: Dialect, text: &str) -> bool {
    locations()
        .filter(|l| l.dialect == dialect && l.pattern != Pattern::Plugins)
        .filter_map(|l| ctx.place(l))
        .flat_map(|(root, pattern)| candidates(&root, pattern))
        .filter_map(|f| crate::read::text(&f.path, crate::read::MAX_FILE_BYTES).ok())
        .any(|t| t.contains(text))
}

/// Every hook source of the project and the home, in [`locations`] order, each file parsed
/// whole (for `hookx list` and `hookx trust`, which show and record what is in them). Files that
/// cannot be read or parsed are kept with their error; nothing here fails. A file reached twice
/// (the project is the home, or a symlink) is listed once: under the first location it is
/// trusted as in the home's trust record, else under its first location. Markdown files
/// (skills, agents) are sources only when their frontmatter has hooks.
pub fn discover(ctx: &Context) -> Vec<Source> {
    discover_with(ctx, &TrustStore::load_or_empty(ctx), None)
}

/// [`discover`], with the trust record given.
pub fn discover_trusting(ctx: &Context, store: &TrustStore) -> Vec<Source> {
    discover_with(ctx, store, None)
}

/// What `hookx run --host HOST` needs to fire `event`, and no more: the sources of
/// [`discover`] that [`needed_for_run`] keeps, each document holding only `event`'s rules
/// ([`config::read::read_event`]), with the plugins hookx generated for the host. Where one
/// of them holds a copy `convert` made, also the host's own hook files, for the plan
/// ([`crate::plan`]; see [`discover_with`]).
///
/// Trust comes first: a file hookx would run itself ([`Runner::Hookx`]) is parsed only when
/// `store` trusts it as found. One with no record is not even read (a `stat`, nothing more);
/// one with a record is read and hashed, and parsed only when the hash is the one trusted.
/// Such a withheld file keeps its [`TrustState`] in [`Source::withheld`]. Nothing of an
/// untrusted file reaches a parser or a matcher.
///
/// [`dispatch_rules`] and [`crate::dispatch::host::runnable`] give the same result for `event`
/// over these sources as over [`discover`]'s; `hookx list` and `hookx trust` need the whole
/// picture and use [`discover`].
///
/// [`Runner::Hookx`]: super::Runner::Hookx
/// [`dispatch_rules`]: super::dispatch_rules
pub fn discover_for_event(
    ctx: &Context,
    host: Dialect,
    event: &EventKind,
    store: &TrustStore,
) -> Vec<Source> {
    discover_with(ctx, store, Some((host, event, None)))
}

/// Like [`discover_for_event`], but the rules `fires` says cannot fire are never built (nor
/// parsed, when they come from the [`cache`]): what `hookx run` fires is the same, for less.
/// `fires` is only ever asked about rules of trusted files.
///
/// [`cache`]: crate::cache
pub fn discover_firing(
    ctx: &Context,
    host: Dialect,
    event: &EventKind,
    fires: config::read::Fires,
    store: &TrustStore,
) -> Vec<Source> {
    discover_with(ctx, store, Some((host, event, Some(fires))))
}

/// The source `file` is, as discovery finds it: at the location its path (not what it links
/// to) is at. For `hookx trust FILE`.
pub fn find(ctx: &Context, file: &Path) -> Result<Source, Error> {
    let wanted = as_found(file);
    let store = TrustStore::default();
    for location in locations() {
        // Below the home too where a folder variable moves the agent's place: `hookx run`
        // reads there, so its files must be trustable (attacks row 367).
        let below_home = ctx
            .moved_by(location)
            .and_then(|_| Some((ctx.root(location)?, location.pattern)));
        for (root, pattern) in ctx.place(location).into_iter().chain(below_home) {
            for found in candidates(&root, pattern) {
                if as_found(&found.path) == wanted
                    && let Some(source) = load(ctx, &found, location, None, &store)
                {
                    return Ok(source);
                }
            }
        }
    }
    // Plugin hook files are found through the settings and registries: discover them all.
    if let Some(source) = discover_with(ctx, &store, None)
        .into_iter()
        .find(|s| s.location.pattern == Pattern::Plugins && as_found(&s.path) == wanted)
    {
        return Ok(source);
    }
    let io = |e: std::io::Error| Error::Io {
        path: file.display().to_string(),
        message: e.to_string(),
    };
    let meta = std::fs::metadata(file).map_err(io)?;
    Err(Error::Usage(if meta.is_file() {
        format!(
            "{}: not a hook file of this project or home (see `hookx list`); hookx trusts a \
             file as the agent file it is found as",
            file.display()
        )
    } else {
        format!("{}: can only trust files", file.display())
    }))
}

/// A path with its directories resolved through symlinks but not its last component: the
/// place a file is found at, whatever it links to.
fn as_found(path: &Path) -> PathBuf {
    let absolute = absolute(path.parent().unwrap_or(Path::new(".")));
    match path.file_name() {
        Some(name) => absolute.join(name),
        None => absolute,
    }
}

/// The plugins hookx generated for `host` that it reads back (an agent whose hooks are code:
/// its dialect's locations, which the walk over every readable dialect's does not reach), each
/// a source `host` runs itself. Empty for any other agent. Whoever plans for `host` adds them
/// to the sources ([`crate::plan`]): no other agent reads them, and hookx runs none of them.
pub fn generated_sources(ctx: &Context, host: Dialect) -> Vec<Source> {
    if host.config().generated.is_none() {
        return Vec::new();
    }
    let store = TrustStore::default();
    host.def()
        .locations
        .iter()
        .filter_map(|location| Some((location, ctx.place(location)?)))
        .flat_map(|(location, (root, pattern))| {
            candidates(&root, pattern)
                .into_iter()
                .map(move |found| (location, found))
        })
        .filter_map(|(location, found)| load(ctx, &found, location, None, &store))
        .collect()
}

/// Whether any handler of `sources` carries the provenance record `convert` writes (a
/// `"hookx"` object naming its source and rule): a copy of a rule another file may hold.
pub fn has_copies<'a>(sources: impl IntoIterator<Item = &'a Source>) -> bool {
    sources
        .into_iter()
        .filter_map(Source::document)
        .flat_map(|d| &d.rules)
        .flat_map(|r| &r.handlers)
        .filter_map(|h| h.extra.get(config::MARKER)?.as_object())
        .any(|r| {
            r.get("source").is_some_and(|v| v.is_string())
                && r.get("rule").is_some_and(|v| v.is_string())
        })
}

/// What one event reads of a host's own project files needed only for its switch
/// ([`super::who_runs::read_only_for_switch`]).
const SWITCH_ONLY_BYTES: u64 = 1024 * 1024;

/// Every source of `ctx`'s locations (for a `run`, only those it needs), in [`locations`]
/// order, one per real file.
///
/// For a `run`, the plugins hookx generated for the host come last ([`generated_sources`]);
/// and where a file read (or such a plugin) holds a copy `convert` made ([`has_copies`]), the
/// host's own hook files are read too ([`read_for_copies`]): the plan must see the rule the
/// copy came from. They were listed and claimed with the rest, so only they are read then:
/// most projects have no copy, and pay for nothing more.
pub(super) fn discover_with(ctx: &Context, store: &TrustStore, run: Run) -> Vec<Source> {
    let plugins_needed = locations()
        .filter(|l| l.pattern == Pattern::Plugins)
        .filter(|l| run.is_none_or(|(host, _, _)| needed_for_run(host, l)))
        .filter_map(|l| Some((l, l.dialect.config().plugins?)))
        .collect::<Vec<_>>();
    // The settings files that say which plugins are on are read whenever plugins are.
    let wanted = |location: &Location| {
        run.is_none_or(|(host, _, _)| needed_for_run(host, location))
            || plugins_needed
                .iter()
                .any(|(_, spec)| spec.enabled_in.contains(&location.id))
    };
    // Every file each location names, then one location per real file (see `Claims`).
    let mut found: Vec<Candidate> = Vec::new();
    let mut listed = Listings::default();
    for (order, location) in locations().enumerate() {
        let Some((root, pattern)) = ctx.place(location) else {
            continue;
        };
        // The host's own switch file is read where the host reads it (attacks row 301).
        let moved = run.and_then(|(host, _, _)| hosts_switch_file(ctx, host, location));
        if moved.is_none() && !listed.may_hold(&root, pattern) {
            continue;
        }
        let files = match moved {
            Some(path) => Found::at(path, None).into_iter().collect(),
            None => candidates(&root, pattern),
        };
        // An extension the agent turns off for this folder runs nowhere (its switch file is
        // read only where an extension's hook file is found).
        let switch = (location.dialect.config().extension_switch)
            .filter(|switch| switch.locations.contains(&location.id));
        for file in files {
            let plugin = switch.and_then(|switch| {
                crate::plugins::switched_off(&ctx.home, &ctx.project, switch, location, &file.path)
            });
            found.push(Candidate {
                order,
                location,
                file,
                plugin,
                plugin_data: None,
            });
        }
    }
    let mut claims = Claims::new(store, found.len());
    for i in 0..found.len() {
        claims.claim(&found, i);
    }
    let load_held = |claims: &Claims, i: usize, c: &Candidate| {
        if !claims.holds(i) {
            return None;
        }
        let mut source = load(ctx, &c.file, c.location, run, store)?;
        source.plugin = c.plugin;
        source.plugin_data = c.plugin_data.clone();
        Some((c.order, source))
    };
    // A host's own project files read only for its switch: up to a byte budget per event
    // (a repository's 20 files of 10 MB made every Copilot event take 40 s, past Copilot's
    // limit: attacks row 83's fix). A file past it is not read (nor counted), and a handler of
    // the repository's own in it is taken for one the host runs.
    let switch_bytes = std::cell::Cell::new(0u64);
    let within_switch_budget = |c: &Candidate| {
        let Some((host, _, _)) = run else {
            return true;
        };
        let enables_plugins = plugins_needed
            .iter()
            .any(|(_, spec)| spec.enabled_in.contains(&c.location.id));
        if c.location.root != crate::tables::Root::Project
            || enables_plugins
            || !super::who_runs::read_only_for_switch(host, c.location)
        {
            return true;
        }
        let used = switch_bytes.get().saturating_add(c.file.meta.len());
        let within = used <= SWITCH_ONLY_BYTES;
        if within {
            switch_bytes.set(used);
        }
        within
    };
    let load_wanted = |claims: &Claims, i: usize, c: &Candidate| {
        (wanted(c.location) && within_switch_budget(c))
            .then(|| load_held(claims, i, c))
            .flatten()
    };
    let mut sources: Vec<Option<(usize, Source)>> = found
        .iter()
        .enumerate()
        .map(|(i, c)| load_wanted(&claims, i, c))
        .collect();
    // Plugins come from the registries, as the settings just read enable them: they may take
    // a real file over from a location read above, whose source then goes. Like
    // `disableAllHooks`, `enabledPlugins` counts only in a settings file trusted as found: the
    // run path parses no other, and an untrusted file must not turn trusted hooks on or off.
    for &(location, spec) in &plugins_needed {
        let settings = |trusted_only: bool| {
            let files: Vec<(&str, &serde_json::Map<String, serde_json::Value>)> = sources
                .iter()
                .flatten()
                .filter(|(_, s)| spec.enabled_in.contains(&s.location.id))
                .filter(|(_, s)| !trusted_only || store.state(s) == TrustState::Trusted)
                .filter_map(|(_, s)| Some((s.location.id, &s.document()?.extra)))
                .collect();
            crate::plugins::enabled(spec, &files)
        };
        let by_agent = run.is_none().then(|| settings(false));
        let plugins = crate::plugins::find(&ctx.home, spec, &settings(true), by_agent.as_deref());
        let order = locations()
            .position(|l| std::ptr::eq(l, location))
            .unwrap_or(usize::MAX);
        let first = found.len();
        found.extend(plugins.into_iter().filter_map(|p| {
            let data = spec.data.as_ref().zip(p.id.as_deref());
            Some(Candidate {
                order,
                location,
                file: Found::at(p.hook_file, None)?,
                plugin: Some(p.standings),
                plugin_data: data.map(|(data, id)| data.folder(&ctx.home, id)),
            })
        }));
        for i in first..found.len() {
            if let Some(taken) = claims.claim(&found, i) {
                sources[taken] = None;
            }
        }
        for (i, candidate) in found.iter().enumerate().skip(first) {
            sources.push(load_wanted(&claims, i, candidate));
        }
    }
    let mut sources: Vec<(usize, Source)> = sources.into_iter().flatten().collect();
    let generated = run.map_or_else(Vec::new, |(host, _, fires)| {
        let mut generated = generated_sources(ctx, host);
        // As for every other file, only the rules that can fire: a copy whose matcher the
        // plugin never fits to this call (its data says `nevermatches`) does not stand in for
        // the rule it names.
        if let Some(fires) = fires {
            for doc in generated
                .iter_mut()
                .filter_map(|s| s.document.as_mut().ok())
            {
                let mut keep = fires(&doc.rules).into_iter();
                doc.rules.retain(|_| keep.next().unwrap_or(true));
            }
        }
        generated
    });
    if let Some((host, _, _)) = run {
        let copies_read = has_copies(sources.iter().map(|(_, s)| s)) || has_copies(&generated);
        // A copy in the host's own file of a rule hookx runs from a file without one (a Claude
        // guard converted into `.gemini/settings.json`): the plan must see it too, or a route
        // the host calls for another rule ran the guard again (attacks row 404). Such a file
        // is read only where its bytes name a record's keys, within the switch's byte budget.
        let copy_bytes = std::cell::Cell::new(0u64);
        let may_hold_copy = |c: &Candidate| {
            let used = copy_bytes.get().saturating_add(c.file.meta.len());
            if used > SWITCH_ONLY_BYTES {
                return false;
            }
            copy_bytes.set(used);
            crate::read::bytes(&c.file.path, SWITCH_ONLY_BYTES).is_ok_and(|b| {
                let has = |needle: &[u8]| memchr::memmem::find(&b, needle).is_some();
                has(b"\"source\"") && has(b"\"rule\"")
            })
        };
        for (i, candidate) in found.iter().enumerate() {
            if !wanted(candidate.location)
                && read_for_copies(host, candidate.location)
                && (copies_read || may_hold_copy(candidate))
            {
                sources.extend(load_held(&claims, i, candidate));
            }
        }
    }
    sources.sort_by_key(|(order, _)| *order);
    let sources = sources.into_iter().map(|(_, source)| source);
    sources.chain(generated).collect()
}

/// For a run under `host`, its own file at `location` that holds its switch of single
/// handlers (Copilot's `~/.copilot/settings.json`, [`super::hook_switch::holds_a_switch`]),
/// where `host` reads it when its folder variable moves it (`$COPILOT_HOME/settings.json`):
/// read below the home, a handler `install` left to hookx there was run by the host too
/// (attacks row 301). `None`: read as the location says.
fn hosts_switch_file(ctx: &Context, host: Dialect, location: &Location) -> Option<PathBuf> {
    let Pattern::File(rel) = location.pattern else {
        return None;
    };
    (location.dialect == host
        && location.root == crate::tables::Root::Home
        && super::hook_switch::holds_a_switch(location)
        && crate::route::reads_user_file_elsewhere(&ctx.home, host))
    .then(|| crate::route::hosts_own_file(&ctx.home, host, rel))
}
