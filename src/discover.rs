//! Finding every hook source of a project and its user, for every agent, and the effective hook
//! set they add up to.
//!
//! Where each agent keeps its files ([`locations`]) and which host agent reads which of them by
//! itself (`DialectDef::native`) are data in the dialect files: a new agent is rows, not code.
//!
//! ```no_run
//! use hookx::discover::{self, Context};
//! use hookx::tables::Dialect;
//! use hookx::commands::trust::TrustStore;
//!
//! let ctx = Context::resolve(None, None).unwrap();
//! let store = TrustStore::load_or_empty(&ctx);
//! let sources = discover::discover_trusting(&ctx, &store);
//! // What `hookx run --host bricks` runs itself: not run by Bricks natively, and trusted.
//! for entry in discover::dispatch_rules(&sources, Dialect::named("bricks").unwrap(), &store) {
//!     println!("{} from {}", entry.rule.event, entry.source.path.display());
//! }
//! ```

use crate::cache;
use crate::cache::FileId;
use crate::commands::trust::{Identity, TrustState, TrustStore};
use crate::config::{self, syntax};
use crate::diag::{Diagnostic, Severity};
use crate::error::Error;
use crate::hash::sha256_hex;
use crate::model::{EventKind, HandlerKind};
use crate::source::SourceFile;
use crate::tables::{Dialect, Location, Pattern, Root, Scope};
use crate::tables::{Document, Rule};
use serde::Serialize;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// The directories discovery looks in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Context {
    /// The project directory (absolute; canonical when it exists).
    pub project: PathBuf,
    /// The user's home: user-level agent configs and hookx's own state live below it.
    pub home: PathBuf,
    /// Where the agents' machine-wide policy folders ([`crate::tables::ManagedSpec`]) are
    /// looked for: `/`, or `$HOOKX_MANAGED_ROOT` so that tests and images never depend on the
    /// machine's `/etc`.
    pub managed_root: PathBuf,
}

/// Moves the root the agents' policy folders are looked for under (default `/`).
pub const MANAGED_ROOT_VAR: &str = "HOOKX_MANAGED_ROOT";

fn managed_root() -> PathBuf {
    std::env::var_os(MANAGED_ROOT_VAR)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from("/"), |v| absolute(Path::new(&v)))
}

impl Context {
    /// A context from two directories, taken as given.
    pub fn new(project: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Context {
        Context {
            project: project.into(),
            home: home.into(),
            managed_root: managed_root(),
        }
    }

    /// The project from `--project` (default: the current directory) and the home from
    /// `--home`, else `$HOOKX_HOME`, else `$HOME`. `HOOKX_HOME` exists so that tests and
    /// sandboxes never read or write the real home.
    pub fn resolve(project: Option<&Path>, home: Option<&Path>) -> Result<Context, Error> {
        let project = project.unwrap_or(Path::new("."));
        let meta = std::fs::metadata(project).map_err(|e| Error::Io {
            path: project.display().to_string(),
            message: format!("cannot use as the project directory: {e}"),
        })?;
        if !meta.is_dir() {
            return Err(Error::Usage(format!(
                "{}: the project must be a directory",
                project.display()
            )));
        }
        let env_home = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let home = home
            .map(Path::to_path_buf)
            .or_else(|| env_home("HOOKX_HOME"))
            .or_else(|| env_home("HOME"))
            .ok_or_else(|| {
                Error::Usage(
                    "cannot tell the home directory: pass --home DIR or set HOOKX_HOME".into(),
                )
            })?;
        Ok(Context {
            project: absolute(project),
            home: absolute(&home),
            managed_root: managed_root(),
        })
    }

    /// A path as people read it: relative to the project, `~/…` below the home, else absolute.
    pub fn display(&self, path: &Path) -> String {
        if let Ok(rel) = path.strip_prefix(&self.project) {
            return if rel.as_os_str().is_empty() {
                ".".into()
            } else {
                rel.display().to_string()
            };
        }
        if let Ok(rel) = path.strip_prefix(&self.home) {
            return format!("~/{}", rel.display());
        }
        path.display().to_string()
    }

    /// The folder `location`'s pattern is below; `None` for a policy location of an agent
    /// with no policy folder on this operating system.
    fn root(&self, location: &Location) -> Option<Cow<'_, Path>> {
        match location.root {
            Root::Home => Some(Cow::Borrowed(&self.home)),
            Root::Project => Some(Cow::Borrowed(&self.project)),
            Root::Managed => self.managed_dir(location.dialect).map(Cow::Owned),
        }
    }

    /// `dialect`'s policy folder on this operating system, below [`Context::managed_root`].
    pub fn managed_dir(&self, dialect: Dialect) -> Option<PathBuf> {
        let managed = dialect.def().managed.as_ref()?;
        let (_, dir) = managed
            .dirs
            .iter()
            .find(|(os, _)| *os == std::env::consts::OS)?;
        Some(self.managed_root.join(dir.trim_start_matches('/')))
    }

    /// A policy file's path as people read it: as on the machine, or below
    /// `$HOOKX_MANAGED_ROOT` when that moved the root.
    fn display_managed(&self, path: &Path) -> String {
        match path.strip_prefix(&self.managed_root) {
            Ok(rel) if self.managed_root != Path::new("/") => {
                format!("${MANAGED_ROOT_VAR}/{}", rel.display())
            }
            _ => path.display().to_string(),
        }
    }
}

/// The part of `path` below `dir`, compared as bytes: [`Path::strip_prefix`] compares
/// component by component, which cost the run path more than the `stat` of each file.
fn below<'p>(path: &'p Path, dir: &Path) -> Option<&'p std::ffi::OsStr> {
    let (path, dir) = (
        path.as_os_str().as_encoded_bytes(),
        dir.as_os_str().as_encoded_bytes(),
    );
    let rest = path
        .strip_prefix(dir)?
        .strip_prefix(std::path::MAIN_SEPARATOR_STR.as_bytes())?;
    // SAFETY: `rest` follows an ASCII separator in an `OsStr`'s encoded bytes, so it starts and ends
    // on encoded boundaries, as `from_encoded_bytes_unchecked` requires.
    (!rest.is_empty()).then(|| unsafe { std::ffi::OsStr::from_encoded_bytes_unchecked(rest) })
}

/// Canonical when the path exists (so that symlinked temp dirs and `..` compare equal),
/// otherwise made absolute against the current directory.
fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// Every place hookx looks for hooks (dialects.md §1), in discovery order: per agent (as
/// registered), widest scope first, the machine's policy before all. Each dialect lists its
/// own ([`crate::tables::DialectDef`]).
pub fn locations() -> impl Iterator<Item = &'static Location> {
    Dialect::all().iter().flat_map(|d| d.def().locations)
}

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

/// The location with this id.
pub fn location(id: &str) -> Option<&'static Location> {
    locations().find(|l| l.id == id)
}

/// Whether `host` reads files of `location` by itself (`DialectDef::native`).
pub fn is_native(host: Dialect, location: &Location) -> bool {
    host.def().native.contains(&location.id)
}

/// Who runs `source`'s hooks under `host`.
pub fn runner(host: Dialect, source: &Source) -> Runner {
    if !source.is_on_under(host) {
        return Runner::Off;
    }
    location_runner(host, source.location)
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
pub fn needed_for_run(host: Dialect, location: &Location) -> bool {
    // The host's policy may leave only policy hooks running (`allowManagedHooksOnly`).
    if location.scope == Scope::Managed && location.dialect == host {
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

/// One hook config file found on disk.
#[derive(Debug)]
pub struct Source {
    /// Absolute path as found (not resolved through symlinks).
    pub path: PathBuf,
    /// How people read the path: relative to the project, or `~/…`.
    pub display: String,
    pub location: &'static Location,
    pub dialect: Dialect,
    pub scope: Scope,
    /// The path resolved through symlinks; with the location, the identity trust records are
    /// keyed by ([`crate::commands::trust::Identity`]). `None` when it could not be resolved.
    pub canonical: Option<PathBuf>,
    /// SHA-256 (hex) of exactly the bytes that were parsed (or, for a file withheld, hashed);
    /// `None` when the file was not read. Trust compares this, so what is checked is what runs.
    pub sha256: Option<String>,
    /// The file's device, inode, size, mtime and ctime when it was found (run path only).
    pub file_id: Option<FileId>,
    /// On the run path, a file hookx would run itself but that is not trusted as found: its
    /// standing. Such a file is never parsed (`document` says so), at most read and hashed.
    pub withheld: Option<TrustState>,
    /// For a plugin's hook file, whether its agent loads the plugin, by every settings file and
    /// by the trusted ones; one that is off is no hook source ([`Runner::Off`]). The run path
    /// finds the plugins the trusted settings load, and no others.
    pub plugin: Option<crate::plugins::Standings>,
    /// For a policy file its agent skips because someone other than root could have written
    /// it ([`crate::tables::ManagedSpec::root_owned_only`]): why. hookx does not read it
    /// either (`document` says so), so none of its hooks runs anywhere.
    pub refused_policy: Option<OthersCouldWrite>,
    /// The parsed file, or why it could not be read or parsed.
    pub document: Result<Document, Error>,
    /// Warnings and errors noticed inside a file that did parse.
    pub diagnostics: Vec<Diagnostic>,
}

impl Source {
    /// False for a plugin its agent does not load, as the agent's settings files say.
    pub fn is_loaded_by_its_agent(&self) -> bool {
        self.plugin
            .is_none_or(|p| p.agent == crate::plugins::Standing::Loaded)
    }

    /// Whether this source's hooks run at all under `host` (natively, by the agent's view of
    /// its plugins; through hookx, by the trusted view).
    fn is_on_under(&self, host: Dialect) -> bool {
        self.plugin.is_none_or(|p| {
            let standing = match is_native(host, self.location) {
                true => p.agent,
                false => p.trusted,
            };
            standing == crate::plugins::Standing::Loaded
        })
    }

    /// The document, when the file parsed.
    pub fn document(&self) -> Option<&Document> {
        self.document.as_ref().ok()
    }

    /// What the file is trusted as: its real path and where it was found.
    pub fn identity(&self) -> Option<Identity<'_>> {
        Some(Identity {
            canonical: self.canonical.as_deref()?,
            location: self.location,
        })
    }

    /// Why the file could not be used, in one line.
    pub fn error_line(&self) -> Option<String> {
        match &self.document {
            Ok(_) => None,
            Err(Error::Invalid(diags)) => diags
                .iter()
                .find(|d| d.severity == Severity::Error)
                .or(diags.first())
                .map(|d| format!("{}:{}: {}", d.line, d.col, d.message)),
            Err(Error::Io { message, .. }) => Some(message.clone()),
            Err(e) => Some(e.to_string()),
        }
    }

    /// Whether the file is no JSON object at all: it does not parse, or its top is something
    /// else. Claude Code 2.1.332 does not start with such a policy file, while one whose entries
    /// are wrong (`"hooks": "x"`) only loses them (run, `tests/live_claude_managed.rs`).
    pub fn is_not_an_object(&self) -> bool {
        matches!(self.document, Err(Error::Invalid(_)))
            || self
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error && d.pointer.as_deref() == Some(""))
    }

    /// For a plugin, the directory `CLAUDE_PLUGIN_ROOT` names (the parent of `hooks/`).
    pub fn plugin_root(&self) -> Option<&Path> {
        if self.scope != Scope::Plugin {
            return None;
        }
        self.path.parent()?.parent()
    }

    /// How many of its handlers are hookx's own routing entries (`hookx install`).
    pub fn hookx_entries(&self) -> usize {
        self.document().map_or(0, |doc| {
            doc.rules
                .iter()
                .flat_map(|r| &r.handlers)
                .filter(|h| crate::route::is_hookx_handler(h))
                .count()
        })
    }

    /// Handlers that are not hookx's routing entries.
    pub fn handler_count(&self) -> usize {
        self.document().map_or(0, |doc| {
            doc.rules.iter().map(|r| r.handlers.len()).sum::<usize>()
        }) - self.hookx_entries()
    }
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
/// ([`config::read::read_event`]).
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
        let Some(root) = ctx.root(location) else {
            continue;
        };
        for found in candidates(&root, location.pattern) {
            if as_found(&found.path) == wanted
                && let Some(source) = load(ctx, &found, location, None, &store)
            {
                return Ok(source);
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

/// The host, event and matching of a run; `None` to discover everything.
type Run<'a> = Option<(Dialect, &'a EventKind, Option<config::read::Fires<'a>>)>;

fn discover_with(ctx: &Context, store: &TrustStore, run: Run) -> Vec<Source> {
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
        let Some(root) = ctx.root(location) else {
            continue;
        };
        if !listed.may_hold(&root, location.pattern) {
            continue;
        }
        for file in candidates(&root, location.pattern) {
            found.push(Candidate {
                order,
                location,
                file,
                plugin: None,
            });
        }
    }
    let mut claims = Claims::new(store, found.len());
    for i in 0..found.len() {
        claims.claim(&found, i);
    }
    let load_held = |claims: &Claims, i: usize, c: &Candidate| {
        if !claims.holds(i) || !wanted(c.location) {
            return None;
        }
        let mut source = load(ctx, &c.file, c.location, run, store)?;
        source.plugin = c.plugin;
        Some((c.order, source))
    };
    let mut sources: Vec<Option<(usize, Source)>> = found
        .iter()
        .enumerate()
        .map(|(i, c)| load_held(&claims, i, c))
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
            Some(Candidate {
                order,
                location,
                file: Found::at(p.hook_file, None)?,
                plugin: Some(p.standings),
            })
        }));
        for i in first..found.len() {
            if let Some(taken) = claims.claim(&found, i) {
                sources[taken] = None;
            }
        }
        for (i, candidate) in found.iter().enumerate().skip(first) {
            sources.push(load_held(&claims, i, candidate));
        }
    }
    let mut sources: Vec<(usize, Source)> = sources.into_iter().flatten().collect();
    sources.sort_by_key(|(order, _)| *order);
    sources.into_iter().map(|(_, source)| source).collect()
}

/// A file a location names, as discovery found it.
struct Candidate {
    /// The location's place in [`locations`].
    order: usize,
    location: &'static Location,
    file: Found,
    /// For a plugin's hook file: whether the agent loads the plugin.
    plugin: Option<crate::plugins::Standings>,
}

/// Which candidate holds each real file: the first (in [`locations`] order) that the trust
/// record knows it as, else the first. So a project symlink to a trusted file cannot take it
/// over, nor make it run as another agent's file.
struct Claims<'s> {
    store: &'s TrustStore,
    /// Keyed hashing of real paths as bytes: no copy of each path, and no path hashed
    /// component by component.
    hasher: std::collections::hash_map::RandomState,
    /// Real-path hash → the candidate holding that file.
    by_hash: HashMap<u64, usize>,
    /// Holders whose path hash collided with another file's: looked through one by one.
    collided: Vec<usize>,
    /// Per candidate, whether it holds its file.
    holds: Vec<bool>,
}

impl<'s> Claims<'s> {
    fn new(store: &'s TrustStore, capacity: usize) -> Claims<'s> {
        Claims {
            store,
            hasher: Default::default(),
            by_hash: HashMap::with_capacity(capacity),
            collided: Vec::new(),
            holds: Vec::with_capacity(capacity),
        }
    }

    fn real(c: &Candidate) -> &[u8] {
        c.file
            .canonical
            .as_deref()
            .unwrap_or(&c.file.path)
            .as_os_str()
            .as_encoded_bytes()
    }

    fn trusted(&self, c: &Candidate) -> bool {
        c.file.canonical.as_deref().is_some_and(|canonical| {
            self.store.knows(Identity {
                canonical,
                location: c.location,
            })
        })
    }

    /// Lets `found[i]` claim its real file; the index it took the file from, if any.
    fn claim(&mut self, found: &[Candidate], i: usize) -> Option<usize> {
        let c = &found[i];
        let real = Self::real(c);
        if self.holds.len() <= i {
            self.holds.resize(i + 1, false);
        }
        let hash = std::hash::BuildHasher::hash_one(&self.hasher, real);
        let held = match self.by_hash.get(&hash) {
            Some(&j) if Self::real(&found[j]) == real => Some(j),
            Some(_) => self
                .collided
                .iter()
                .copied()
                .find(|&j| Self::real(&found[j]) == real),
            None => None,
        };
        let Some(held) = held else {
            match self.by_hash.entry(hash) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(i);
                }
                std::collections::hash_map::Entry::Occupied(_) => self.collided.push(i),
            }
            self.holds[i] = true;
            return None;
        };
        let (mine, theirs) = (self.trusted(c), self.trusted(&found[held]));
        let wins = (mine && !theirs) || (mine == theirs && c.order < found[held].order);
        if !wins {
            return None;
        }
        match self.by_hash.get_mut(&hash) {
            Some(j) if *j == held => *j = i,
            _ => self
                .collided
                .iter_mut()
                .filter(|j| **j == held)
                .for_each(|j| *j = i),
        }
        self.holds[held] = false;
        self.holds[i] = true;
        Some(held)
    }

    /// Whether `found[i]` holds its real file.
    fn holds(&self, i: usize) -> bool {
        self.holds.get(i).copied().unwrap_or(false)
    }
}

/// A file a location names.
struct Found {
    path: PathBuf,
    /// The real path (symlinks resolved).
    canonical: Option<PathBuf>,
    /// From the one `stat` discovery makes of it.
    meta: std::fs::Metadata,
}

impl Found {
    /// `path` if it is a file (through symlinks); `canonical` is its real path when known (a
    /// file that is not itself a symlink, in a resolved directory), else it is resolved here.
    fn at(path: PathBuf, canonical: Option<PathBuf>) -> Option<Found> {
        let meta = std::fs::metadata(&path).ok().filter(|m| m.is_file())?;
        let canonical = canonical.or_else(|| std::fs::canonicalize(&path).ok());
        Some(Found {
            path,
            canonical,
            meta,
        })
    }
}

/// The names directly in each root the locations start from, each listed once: most agents'
/// folders are absent from a given home or project, and a first component that is not there
/// spares the `stat` or `open` of every path below it (a one-rule `hookx run` made 62 of them
/// for 13 agents). Names are compared without ASCII case, so that a case-insensitive file
/// system's `.Claude` still gets its `stat`, which then decides; a root that cannot be listed
/// (no read permission) filters nothing.
#[derive(Default)]
struct Listings {
    roots: Vec<(PathBuf, Option<Vec<std::ffi::OsString>>)>,
}

impl Listings {
    /// Whether `pattern` below `root` may name anything: `false` only when the listing shows
    /// its first component, or `root` itself, is not there.
    fn may_hold(&mut self, root: &Path, pattern: Pattern) -> bool {
        let first = match pattern {
            Pattern::File(rel) | Pattern::Dir { dir: rel, .. } | Pattern::Sub { dir: rel, .. } => {
                rel
            }
            Pattern::Scripts(dir) => dir,
            Pattern::Plugins => return true,
        };
        let first = first.split('/').next().unwrap_or(first);
        // As bytes: `Path`'s `==` compares component by component, which cost more here than
        // the listings.
        let at = match self
            .roots
            .iter()
            .position(|(r, _)| r.as_os_str() == root.as_os_str())
        {
            Some(at) => at,
            None => {
                self.roots.push((root.to_path_buf(), Self::list(root)));
                self.roots.len() - 1
            }
        };
        match &self.roots[at].1 {
            Some(names) => names
                .iter()
                .any(|n| n.as_encoded_bytes().eq_ignore_ascii_case(first.as_bytes())),
            None => true,
        }
    }

    /// `Some(names)`; `Some(empty)` for a root that does not exist; `None` when it cannot be
    /// told (the root or an entry cannot be read, or it is not a directory).
    fn list(root: &Path) -> Option<Vec<std::ffi::OsString>> {
        match std::fs::read_dir(root) {
            Ok(entries) => entries.map(|e| Some(e.ok()?.file_name())).collect(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Vec::new()),
            Err(_) => None,
        }
    }
}

/// The files a pattern names below `root` that exist, in a stable order.
fn candidates(root: &Path, pattern: Pattern) -> Vec<Found> {
    match pattern {
        Pattern::File(rel) => Found::at(root.join(rel), None).into_iter().collect(),
        Pattern::Dir { dir, suffix } => {
            let dir = root.join(dir);
            let names: Vec<_> = sorted_entries(&dir)
                .into_iter()
                .filter(|(name, _)| {
                    name.to_str()
                        .is_some_and(|n| n.ends_with(suffix) && !n.starts_with('.'))
                })
                .collect();
            let real_dir = resolved_if_any(&dir, &names);
            names
                .into_iter()
                .filter_map(|(name, is_link)| {
                    let real = real_dir.as_deref().filter(|_| !is_link);
                    Found::at(join(&dir, &name), real.map(|d| join(d, &name)))
                })
                .collect()
        }
        Pattern::Sub { dir, name } => {
            let dir = root.join(dir);
            sorted_entries(&dir)
                .into_iter()
                .filter_map(|(sub, _)| Found::at(join(&dir, &sub).join(name), None))
                .collect()
        }
        Pattern::Scripts(dir) => {
            let dir = root.join(dir);
            let names: Vec<_> = sorted_entries(&dir)
                .into_iter()
                .filter(|(name, _)| !name.as_encoded_bytes().starts_with(b"."))
                .collect();
            let real_dir = resolved_if_any(&dir, &names);
            names
                .into_iter()
                .filter_map(|(name, is_link)| {
                    let real = real_dir.as_deref().filter(|_| !is_link);
                    Found::at(join(&dir, &name), real.map(|d| join(d, &name)))
                })
                .collect()
        }
        // Found through the registries, once the settings are read (see `discover_with`).
        Pattern::Plugins => Vec::new(),
    }
}

/// `dir`'s real path, resolved only when it holds candidates: most folders a location names do
/// not exist, and resolving costs a `readlink` per component of the path.
fn resolved_if_any<T>(dir: &Path, names: &[T]) -> Option<PathBuf> {
    if names.is_empty() {
        return None;
    }
    std::fs::canonicalize(dir).ok()
}

/// `dir/name` in one allocation (`Path::join` grows its buffer a second time).
fn join(dir: &Path, name: &std::ffi::OsStr) -> PathBuf {
    let mut path = std::ffi::OsString::with_capacity(dir.as_os_str().len() + 1 + name.len());
    path.push(dir.as_os_str());
    path.push(std::path::MAIN_SEPARATOR_STR);
    path.push(name);
    PathBuf::from(path)
}

/// The names in a directory in byte order, each with whether it is a symlink (from the
/// directory listing: no `stat`). Names, not paths: comparing whole paths component by component
/// cost `hookx run` more than anything else in a folder of a thousand files.
fn sorted_entries(dir: &Path) -> Vec<(std::ffi::OsString, bool)> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<(std::ffi::OsString, bool)> = read
        .filter_map(|e| {
            let e = e.ok()?;
            let is_link = e.file_type().map_or(true, |t| t.is_symlink());
            Some((e.file_name(), is_link))
        })
        .collect();
    names.sort_unstable_by(|a, b| a.0.as_encoded_bytes().cmp(b.0.as_encoded_bytes()));
    names
}

/// Reads and parses one file (for `run`, only what that host and event need, and only once
/// trusted when hookx would run it). `None` for markdown without hooks.
fn load(
    ctx: &Context,
    found: &Found,
    location: &'static Location,
    run: Run,
    store: &TrustStore,
) -> Option<Source> {
    let path = found.path.clone();
    let canonical = found.canonical.clone();
    let root = ctx.root(location);
    let display = match (location.root, root.as_deref().and_then(|r| below(&path, r))) {
        (Root::Project, Some(rel)) => rel.to_string_lossy().into_owned(),
        (Root::Home, Some(rel)) => format!("~/{}", rel.to_string_lossy()),
        (Root::Project, None) => ctx.display(&path),
        (Root::Home, None) => path.display().to_string(),
        (Root::Managed, _) => ctx.display_managed(&path),
    };
    let markdown = display.ends_with(".md");
    let mut source = Source {
        path,
        canonical,
        display: display.clone(),
        location,
        dialect: location.dialect,
        scope: location.scope,
        sha256: None,
        file_id: run.and_then(|_| FileId::of(&found.meta)),
        withheld: None,
        plugin: None,
        refused_policy: None,
        document: Err(Error::Usage(String::new())),
        diagnostics: Vec::new(),
    };
    // A policy file its agent would skip is no policy: not read at all.
    if location.scope == Scope::Managed
        && location
            .dialect
            .def()
            .managed
            .as_ref()
            .is_some_and(|m| m.root_owned_only)
        && let Some(why) = OthersCouldWrite::find(&source.path)
    {
        source.document = Err(Error::Io {
            path: source.display.clone(),
            message: format!(
                "not read: {} skips it, as {why}",
                location.dialect.def().display
            ),
        });
        source.refused_policy = Some(why);
        return Some(source);
    }
    // Trust first: on the run path, a file hookx would run itself is parsed only with the
    // content trusted for it as found.
    let gated = run.is_some_and(|(host, _, _)| location_runner(host, location) == Runner::Hookx)
        && location.scope != Scope::Managed;
    let trusted_sha: Option<String> = if gated {
        let record = source.identity().and_then(|id| store.get(id));
        match record {
            Some(record) => Some(record.sha256.clone()),
            None => {
                let state = match source.identity() {
                    Some(id) => store.state_of(id, None),
                    None => TrustState::Untrusted,
                };
                return Some(withhold(source, state, None));
            }
        }
    } else {
        None
    };
    let accept = |sha: &str| trusted_sha.as_deref().is_none_or(|t| t == sha);
    if let Some(layout) = location.dialect.config().scripts {
        // A hook script: its bytes are what trust hashes, its name the event.
        let bytes = match std::fs::read(&source.path) {
            Ok(bytes) => bytes,
            Err(_) if gated => return Some(withhold(source, TrustState::Changed, None)),
            Err(e) => {
                source.document = Err(Error::Io {
                    path: display,
                    message: e.to_string(),
                });
                return Some(source);
            }
        };
        let sha256 = sha256_hex(&bytes);
        if !accept(&sha256) {
            return Some(withhold(source, TrustState::Changed, Some(sha256)));
        }
        source.sha256 = Some(sha256);
        let text = String::from_utf8_lossy(&bytes);
        let mut parsed =
            config::scripts::read(&source.path, &display, &text, location.dialect, layout);
        if let Some((_, event, _)) = run {
            parsed.document.rules.retain(|r| r.event == *event);
        }
        source.diagnostics = parsed.diagnostics;
        source.document = Ok(parsed.document);
        return Some(source);
    }
    let parsed = match run {
        // Frontmatter is read whole: whether it has hooks decides whether it is a source.
        Some((_, event, fires)) if !markdown => {
            match read_for_event(
                ctx,
                (&source.path, &found.meta),
                display,
                location.dialect,
                (event, fires),
                &accept,
            ) {
                EventRead::Parsed(sha256, parsed) => {
                    source.sha256 = sha256;
                    *parsed
                }
                EventRead::Refused(sha256) => {
                    return Some(withhold(source, TrustState::Changed, Some(sha256)));
                }
            }
        }
        _ => {
            let src = match SourceFile::read(&source.path) {
                Ok(src) => SourceFile::new(display, src.text),
                // Trusted once, unreadable now: nothing of it runs.
                Err(_) if gated => return Some(withhold(source, TrustState::Changed, None)),
                Err(e) => {
                    source.document = Err(e);
                    return Some(source);
                }
            };
            let sha256 = sha256_hex(src.text.as_bytes());
            if !accept(&sha256) {
                return Some(withhold(source, TrustState::Changed, Some(sha256)));
            }
            if markdown && syntax::split_frontmatter(&src.text).is_none() {
                return None;
            }
            source.sha256 = Some(sha256);
            config::read(&src, location.dialect)
        }
    };
    match parsed {
        Ok(mut parsed) => {
            let doc = &parsed.document;
            if markdown
                && doc.rules.is_empty()
                && doc.extra_hooks.is_empty()
                && parsed.diagnostics.is_empty()
            {
                return None;
            }
            if let Some((_, event, _)) = run {
                parsed.document.rules.retain(|r| r.event == *event);
            }
            source.diagnostics = parsed.diagnostics;
            source.document = Ok(parsed.document);
        }
        Err(e) => source.document = Err(e),
    }
    Some(source)
}

/// Why a policy file may have been written by someone other than root: the file, a folder
/// above it, or a symlink on its way, as given or as resolved, that is not root's or that
/// group or others may write (the checks of Gemini CLI 0.61.0 `isFileAndDirectorySecureSync`).
#[derive(Debug)]
pub struct OthersCouldWrite {
    /// The file, folder or symlink at fault.
    pub path: PathBuf,
    /// Its owner, when root is not.
    pub owner: Option<u32>,
    /// Its permission bits, when group or others may write it.
    pub mode: Option<u32>,
}

impl OthersCouldWrite {
    /// The first fault on the way to `file`, if any: each folder from `/` down, then the file,
    /// then the same along its real path when symlinks lead elsewhere.
    #[cfg(unix)]
    pub fn find(file: &Path) -> Option<OthersCouldWrite> {
        let real = std::fs::canonicalize(file).ok();
        let paths = |p: &Path| -> Vec<PathBuf> {
            let mut all: Vec<PathBuf> = p.ancestors().map(Path::to_path_buf).collect();
            all.reverse();
            all
        };
        let mut order = paths(file);
        if let Some(real) = real.filter(|r| r != file) {
            order.extend(paths(&real));
        }
        order.iter().find_map(|p| OthersCouldWrite::of(p))
    }

    #[cfg(not(unix))]
    pub fn find(_file: &Path) -> Option<OthersCouldWrite> {
        None
    }

    /// One path's fault: a symlink not root's, or what it names (or it) not root's or
    /// writable by group or others. A path that cannot be read is no fault here: reading the
    /// file fails on its own.
    #[cfg(unix)]
    fn of(path: &Path) -> Option<OthersCouldWrite> {
        use std::os::unix::fs::MetadataExt;
        let fault = |meta: &std::fs::Metadata| {
            let owner = (meta.uid() != 0).then_some(meta.uid());
            let mode = (meta.mode() & 0o022 != 0).then_some(meta.mode() & 0o7777);
            (owner.is_some() || mode.is_some()).then(|| OthersCouldWrite {
                path: path.to_path_buf(),
                owner,
                mode,
            })
        };
        let link = std::fs::symlink_metadata(path).ok()?;
        if link.file_type().is_symlink() && link.uid() != 0 {
            return Some(OthersCouldWrite {
                path: path.to_path_buf(),
                owner: Some(link.uid()),
                mode: None,
            });
        }
        fault(&std::fs::metadata(path).ok()?)
    }

    /// The commands that remove the fault.
    pub fn fix(&self) -> String {
        let path = self.path.display();
        let mut steps = Vec::new();
        if self.owner.is_some() {
            steps.push(format!("sudo chown -h root:root '{path}'"));
        }
        if self.mode.is_some() {
            steps.push(format!("sudo chmod g-w,o-w '{path}'"));
        }
        steps.join(" && ")
    }
}

impl std::fmt::Display for OthersCouldWrite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut faults = Vec::new();
        if let Some(uid) = self.owner {
            faults.push(format!("owned by uid {uid}, not root"));
        }
        if let Some(mode) = self.mode {
            faults.push(format!("writable by group or others (mode {mode:o})"));
        }
        write!(f, "{} is {}", self.path.display(), faults.join(" and "))
    }
}

/// A source left unparsed because it is not trusted as found.
fn withhold(mut source: Source, state: TrustState, sha256: Option<String>) -> Source {
    source.document = Err(Error::Io {
        path: source.display.clone(),
        message: ["not read: ", state.why_not()].concat(),
    });
    source.sha256 = sha256;
    source.withheld = Some(state);
    source
}

/// What reading one event of a file gave.
enum EventRead {
    /// The file's SHA-256 (when it was read) and the event's part of it.
    Parsed(Option<String>, Box<Result<config::Parsed, Error>>),
    /// Not parsed: `accept` refused this SHA-256.
    Refused(String),
}

/// One event of a JSON config file, and the file's SHA-256: from the [`cache`] when the file
/// is large and unchanged, else parsed (and then cached, if large). `accept` is asked about
/// the SHA-256 before anything else is done with the content.
fn read_for_event(
    ctx: &Context,
    (path, meta): (&Path, &std::fs::Metadata),
    display: String,
    dialect: Dialect,
    (event, fires): (&EventKind, Option<config::read::Fires>),
    accept: &dyn Fn(&str) -> bool,
) -> EventRead {
    use config::read::{leave_out_unfired, prune_event, read_pruned};
    let before = Some(meta).filter(|m| cache::worth_caching(m));
    if let Some(meta) = before
        && let Some(hit) = cache::lookup(
            &ctx.home,
            path,
            meta,
            (dialect, event, &display),
            fires,
            accept,
        )
    {
        return match hit {
            // Entries are stored only for files that read without diagnostics, which are
            // the only use of the text: none is needed.
            Ok(hit) => {
                let src = SourceFile::new(display, String::new());
                EventRead::Parsed(
                    Some(hit.sha256),
                    Box::new(Ok(read_pruned(&src, dialect, hit.pruned))),
                )
            }
            Err(sha256) => EventRead::Refused(sha256),
        };
    }
    let src = match SourceFile::read(path) {
        Ok(src) => SourceFile::new(display, src.text),
        Err(e) => return EventRead::Parsed(None, Box::new(Err(e))),
    };
    let sha256 = sha256_hex(src.text.as_bytes());
    if !accept(&sha256) {
        return EventRead::Refused(sha256);
    }
    let mut pruned = match prune_event(&src, dialect, event) {
        Ok(pruned) => pruned,
        Err(e) => return EventRead::Parsed(Some(sha256), Box::new(Err(e))),
    };
    // The cache keeps every rule of the event: the next event may fire others.
    let kept = before.map(|_| pruned.clone());
    if let Some(fires) = fires {
        leave_out_unfired(&mut pruned, dialect, &src.path, fires);
    }
    let parsed = read_pruned(&src, dialect, pruned);
    if let (Some(before), Some(kept)) = (before, kept)
        && parsed.diagnostics.is_empty()
    {
        cache::store(&ctx.home, path, dialect, event, before, &sha256, kept);
    }
    EventRead::Parsed(Some(sha256), Box::new(Ok(parsed)))
}

/// One rule of the effective hook set, with the source it came from.
#[derive(Debug)]
pub struct EffectiveRule<'a> {
    pub source: &'a Source,
    /// The rule as written, its handlers de-duplicated as its dialect does and hookx's own
    /// routing entries removed; never empty. Borrowed from the source when nothing was removed.
    pub rule: Cow<'a, Rule>,
}

/// The file whose kill switch (Claude's `disableAllHooks`) turns every hook of `dialect` off,
/// if any ([`crate::tables::KillSwitch`]).
///
/// Settings merge by precedence (Claude: managed > local > project > user), so the value comes
/// from the highest-precedence file that sets the key; when it is `true`, every source of the
/// dialect is off (settings, plugins, skills, agents), policy sources only where the switch is
/// the policy's own ([`switched_off`]). Like every other content, the key counts only in a file
/// `store` trusts as found (policy files are): an untrusted `.claude/settings.local.json` cannot
/// turn trusted hooks off.
pub fn hooks_disabled<'a>(
    sources: &'a [Source],
    dialect: Dialect,
    store: &TrustStore,
) -> Option<&'a Source> {
    kill_switch_source(sources, dialect, &|s| store.state(s) == TrustState::Trusted)
}

/// The file whose kill switch turns every hook of `dialect` off as the agent itself sees it:
/// every settings file counts, trusted by hookx or not.
pub fn hooks_disabled_by_agent(sources: &[Source], dialect: Dialect) -> Option<&Source> {
    kill_switch_source(sources, dialect, &|_| true)
}

fn kill_switch_source<'a>(
    sources: &'a [Source],
    dialect: Dialect,
    counts: &dyn Fn(&Source) -> bool,
) -> Option<&'a Source> {
    let switch = dialect.def().kill_switch.as_ref()?;
    let precedence = |s: &Source| switch.locations.iter().position(|id| *id == s.location.id);
    sources
        .iter()
        .filter_map(|s| {
            let precedence = precedence(s)?;
            let flag = switch.flag_in(s.document()?)?.ok()?;
            Some((precedence, flag == switch.off, s))
        })
        .filter(|(_, _, s)| counts(s))
        .max_by_key(|(p, _, _)| *p)
        .filter(|(_, flag, _)| *flag)
        .map(|(_, _, s)| s)
}

/// The policy file that leaves only policy hooks running in `host`'s sessions (Claude's
/// `"allowManagedHooksOnly": true`), if any: the agent then runs no hook of another scope, and
/// neither does `hookx run --host HOST`. The policy files merge in discovery order
/// (`managed-settings.json`, then the `managed-settings.d` drop-ins by name): the last that sets
/// the key decides, a drop-in's `false` undoing an earlier `true` (run 2.1.332,
/// `tests/live_claude_managed.rs`). No other scope can set it.
pub fn managed_only(sources: &[Source], host: Dialect) -> Option<&Source> {
    let key = host.def().managed.as_ref()?.only_managed_key?;
    sources
        .iter()
        .filter(|s| s.scope == Scope::Managed && s.dialect == host)
        .filter_map(|s| Some((s, s.document()?.extra.get(key)?.as_bool()?)))
        .next_back()
        .filter(|(_, only)| *only)
        .map(|(s, _)| s)
}

/// Whether a kill switch set in `switch` turns `source`'s hooks off: a policy file's reaches
/// every hook of its dialect where the agent says so, any other file's leaves policy hooks on
/// unless the agent merges one flag over all files (Gemini).
pub fn switched_off(switch: &Source, source: &Source) -> bool {
    let reaches_policy = switch.dialect.def().managed.as_ref().is_some_and(|m| {
        if switch.scope == Scope::Managed {
            m.kill_switch_reaches_policy
        } else {
            m.any_kill_switch_reaches_policy
        }
    });
    source.dialect == switch.dialect && (source.scope != Scope::Managed || reaches_policy)
}

/// The effective hook set of all sources: every rule of every source that parsed, in
/// discovery order, with hookx's own routing entries left out (running them would recurse),
/// a dialect's hooks left out when its kill switch is on ([`hooks_disabled`]), and
/// identical handlers de-duplicated:
///
/// - Bricks (global + project merge additively): same event, matcher and command, once.
/// - Claude (all scopes): same event, matcher and command (or prompt), once. Claude also
///   de-duplicates identical commands under *different* matchers when both match one event;
///   that needs the event, so the dispatcher does it ([`crate::dispatch::select::select`]).
/// - Copilot runs every handler in order: nothing is de-duplicated.
///
/// The first occurrence wins, so user and global files come before project ones.
pub fn effective_rules<'a>(sources: &'a [Source], store: &TrustStore) -> Vec<EffectiveRule<'a>> {
    select(
        sources,
        store,
        &[Pass::output(Source::is_loaded_by_its_agent)],
    )
}

/// The effective hook set as it plays out under `host`: de-duplication first keeps what the
/// host runs natively, then what hookx would run, so a handler the host already runs is not
/// listed again as hookx's.
pub fn host_rules<'a>(
    sources: &'a [Source],
    host: Dialect,
    store: &TrustStore,
) -> Vec<EffectiveRule<'a>> {
    let allowed = allowed_under(sources, host);
    select(
        sources,
        store,
        &[
            Pass::output(|s| allowed(s) && runner(host, s) == Runner::Native),
            Pass::output(|s| {
                allowed(s) && !is_native(host, s.location) && runner(host, s) != Runner::Off
            }),
        ],
    )
}

/// Why no hook at all runs in `host`'s sessions by its policy, if so: a policy file that is no
/// JSON object where that stops the agent ([`crate::tables::BrokenPolicy::StopsAgent`]),
/// or a policy key that turns every hook off ([`crate::tables::ManagedSpec::hooks_off`], the
/// last policy file setting it deciding). `hookx run --host HOST` then runs nothing either.
pub fn stopped_by_policy(sources: &[Source], host: Dialect) -> Option<PolicyStop<'_>> {
    let managed = host.def().managed.as_ref()?;
    let policy = sources
        .iter()
        .filter(|s| s.scope == Scope::Managed && s.dialect == host);
    if managed.broken_policy == crate::tables::BrokenPolicy::StopsAgent
        && let Some(broken) = policy.clone().find(|s| s.is_not_an_object())
    {
        return Some(PolicyStop {
            file: broken,
            why: format!(
                "{} is no JSON object, and {} does not start with such a policy file",
                broken.display,
                host.def().display
            ),
            fix: Some(format!("hookx validate '{}'", broken.path.display())),
        });
    }
    let (key, off) = managed.hooks_off?;
    let (file, _) = policy
        .filter_map(|s| Some((s, s.document()?.extra.get(key)?.as_bool()?)))
        .next_back()
        .filter(|(_, value)| *value == off)?;
    Some(PolicyStop {
        file,
        why: format!("\"{key}\": {off} in {} turns every hook off", file.display),
        fix: None,
    })
}

/// See [`stopped_by_policy`].
pub struct PolicyStop<'a> {
    /// The policy file.
    pub file: &'a Source,
    /// What it does, in a sentence part: `"ChatHooks": false in … turns every hook off`.
    pub why: String,
    pub fix: Option<String>,
}

impl PolicyStop<'_> {
    /// The whole of it under `host`, for `list` and `doctor`.
    pub fn sentence(&self, host: Dialect) -> String {
        format!(
            "{}: {} runs no hook, and neither does `hookx run --host {host}`",
            self.why,
            host.def().display
        )
    }
}

/// Whether `host`'s policy lets a source's hooks run in its sessions ([`managed_only`],
/// [`stopped_by_policy`]).
fn allowed_under(sources: &[Source], host: Dialect) -> impl Fn(&Source) -> bool {
    let only_managed = managed_only(sources, host).is_some();
    let all_off = stopped_by_policy(sources, host).is_some();
    move |s: &Source| !all_off && (!only_managed || s.scope == Scope::Managed)
}

/// What `hookx run --host HOST` runs itself: the effective rules of sources that the host does
/// not run natively, are not component-scoped ([`Runner::Hookx`]) and are trusted with their
/// current content. A handler identical to one the host runs natively is left out (it would
/// run twice); de-duplication happens after the trust filter, so a trusted copy of a handler is
/// never dropped in favour of an untrusted one.
pub fn dispatch_rules<'a>(
    sources: &'a [Source],
    host: Dialect,
    store: &TrustStore,
) -> Vec<EffectiveRule<'a>> {
    let allowed = allowed_under(sources, host);
    select(
        sources,
        store,
        &[
            Pass::seed(|s| allowed(s) && runner(host, s) == Runner::Native),
            Pass::output(|s| {
                allowed(s)
                    && runner(host, s) == Runner::Hookx
                    && store.state(s) == TrustState::Trusted
            }),
        ],
    )
}

/// One round of [`select`]: the sources it takes, and whether their rules are part of the
/// result or only mark handlers as already run.
struct Pass<'f> {
    take: Box<dyn Fn(&Source) -> bool + 'f>,
    output: bool,
}

impl<'f> Pass<'f> {
    fn output(take: impl Fn(&Source) -> bool + 'f) -> Pass<'f> {
        Pass {
            take: Box::new(take),
            output: true,
        }
    }

    fn seed(take: impl Fn(&Source) -> bool + 'f) -> Pass<'f> {
        Pass {
            take: Box::new(take),
            output: false,
        }
    }
}

/// Runs the passes in order over the sources no earlier pass took, de-duplicating across all
/// of them; the result is in discovery order.
fn select<'a>(
    sources: &'a [Source],
    store: &TrustStore,
    passes: &[Pass<'_>],
) -> Vec<EffectiveRule<'a>> {
    let switches: Vec<&Source> = Dialect::all()
        .iter()
        .filter_map(|d| hooks_disabled(sources, *d, store))
        .collect();
    let disabled = disabled_labels(sources, store);
    let mut taken = vec![false; sources.len()];
    // Keys borrow from the sources: de-duplicating allocates nothing per handler.
    let handlers = sources
        .iter()
        .filter_map(Source::document)
        .flat_map(|d| &d.rules)
        .map(|r| r.handlers.len())
        .sum();
    let mut seen: HashSet<(Dialect, &'a str, &'a str, HandlerKey<'a>)> =
        HashSet::with_capacity(handlers);
    let mut out: Vec<(usize, usize, EffectiveRule<'a>)> = Vec::new();
    for pass in passes {
        for (i, source) in sources.iter().enumerate() {
            let Some(doc) = source.document() else {
                continue;
            };
            if taken[i] || switches.iter().any(|switch| switched_off(switch, source)) {
                continue;
            }
            if !(pass.take)(source) {
                continue;
            }
            taken[i] = true;
            for (j, rule) in doc.rules.iter().enumerate() {
                if source.dialect.config().is_disabled(rule) {
                    // The agent never runs it (a rule list's `enabled: false`).
                    continue;
                }
                let keep: Vec<bool> = rule
                    .handlers
                    .iter()
                    .map(|h| {
                        if crate::route::is_hookx_handler(h) {
                            return false;
                        }
                        if let Some(list) = &source.dialect.def().disabled_handlers
                            && list
                                .label(h)
                                .is_some_and(|label| disabled.contains(&(source.dialect, label)))
                        {
                            return false;
                        }
                        if !source.dialect.config().merges_identical_handlers {
                            return true;
                        }
                        seen.insert((
                            source.dialect,
                            rule.event.name(),
                            matcher_key(rule.matcher.as_deref()),
                            HandlerKey::of(&h.kind),
                        ))
                    })
                    .collect();
                if pass.output && keep.contains(&true) {
                    // Borrowed unless a handler was dropped; then only the kept ones are cloned.
                    let kept = if keep.iter().all(|k| *k) {
                        Cow::Borrowed(rule)
                    } else {
                        Cow::Owned(Rule {
                            handlers: rule
                                .handlers
                                .iter()
                                .zip(&keep)
                                .filter(|(_, keep)| **keep)
                                .map(|(h, _)| h.clone())
                                .collect(),
                            event: rule.event.clone(),
                            matcher: rule.matcher.clone(),
                            extra: rule.extra.clone(),
                            origin: rule.origin.clone(),
                            ..*rule
                        })
                    };
                    out.push((i, j, EffectiveRule { source, rule: kept }));
                }
            }
        }
    }
    out.sort_by_key(|(i, j, _)| (*i, *j));
    out.into_iter().map(|(_, _, rule)| rule).collect()
}

/// The handlers each dialect's disabled list names ([`crate::tables::DisabledHandlers`]), from
/// the trusted files of its locations.
fn disabled_labels<'a>(sources: &'a [Source], store: &TrustStore) -> HashSet<(Dialect, &'a str)> {
    sources
        .iter()
        .filter_map(|s| {
            let list = s.dialect.def().disabled_handlers.as_ref()?;
            let listed =
                list.locations.contains(&s.location.id) && store.state(s) == TrustState::Trusted;
            Some((s, list, s.document().filter(|_| listed)?))
        })
        .flat_map(|(s, list, doc)| list.labels(&doc.extra).map(move |l| (s.dialect, l)))
        .collect()
}

/// Absent, empty and `*` all mean "everything" in Claude and Bricks.
fn matcher_key(matcher: Option<&str>) -> &str {
    match matcher {
        None | Some("") | Some("*") => "",
        Some(m) => m,
    }
}

/// What makes two handlers "identical": the command line, or the whole prompt spec.
#[derive(PartialEq, Eq, Hash)]
enum HandlerKey<'a> {
    Command(&'a str),
    Other(String),
}

impl<'a> HandlerKey<'a> {
    fn of(kind: &'a HandlerKind) -> HandlerKey<'a> {
        match kind {
            HandlerKind::Command(c) => HandlerKey::Command(c.unix_line().unwrap_or_default()),
            other => HandlerKey::Other(serde_json::to_string(other).unwrap_or_default()),
        }
    }
}

#[cfg(test)]
mod listing_tests {
    use super::{Listings, Pattern};

    #[test]
    fn a_first_component_missing_from_the_listing_spares_its_paths() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir(root.path().join(".Claude")).unwrap();
        let mut listed = Listings::default();
        // Compared without case: a case-insensitive file system would find `.claude` there.
        assert!(listed.may_hold(root.path(), Pattern::File(".claude/settings.json")));
        assert!(!listed.may_hold(root.path(), Pattern::File(".factory/settings.json")));
        assert!(!listed.may_hold(
            root.path(),
            Pattern::Dir {
                dir: ".github/hooks",
                suffix: ".json"
            }
        ));
        assert!(listed.may_hold(root.path(), Pattern::Plugins));
        let missing = root.path().join("no-such-root");
        assert!(!listed.may_hold(&missing, Pattern::File("hooks.json")));
        // A root that is a file cannot be listed: nothing is filtered, the `stat` decides.
        let file = root.path().join("file");
        std::fs::write(&file, "").unwrap();
        assert!(listed.may_hold(&file, Pattern::File("hooks.json")));
    }
}
