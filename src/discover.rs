//! Finding every hook source of a project and its user, for every agent, and the effective hook
//! set they add up to.
//!
//! Where each agent keeps its files ([`LOCATIONS`]) and which host agent reads which of them by
//! itself ([`NATIVE`]) are data: a fourth agent is a few rows, not new code.
//!
//! ```no_run
//! use hookx::discover::{self, Context};
//! use hookx::dialect::Dialect;
//! use hookx::trust::TrustStore;
//!
//! let ctx = Context::resolve(None, None).unwrap();
//! let sources = discover::discover(&ctx);
//! let store = TrustStore::load_or_empty(&ctx);
//! // What `hookx run --host bricks` runs itself: not run by Bricks natively, and trusted.
//! for entry in discover::dispatch_rules(&sources, Dialect::Bricks, &store) {
//!     println!("{} from {}", entry.rule.event, entry.source.path.display());
//! }
//! ```

use crate::cache;
use crate::config::{self, syntax};
use crate::diag::{Diagnostic, Severity};
use crate::dialect::Dialect;
use crate::error::Error;
use crate::model::{Document, EventKind, HandlerKind, Rule};
use crate::source::SourceFile;
use crate::trust::{TrustState, TrustStore};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The directories discovery looks in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Context {
    /// The project directory (absolute; canonical when it exists).
    pub project: PathBuf,
    /// The user's home: user-level agent configs and hookx's own state live below it.
    pub home: PathBuf,
}

impl Context {
    /// A context from two directories, taken as given.
    pub fn new(project: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Context {
        Context {
            project: project.into(),
            home: home.into(),
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

    fn root(&self, root: Root) -> &Path {
        match root {
            Root::Home => &self.home,
            Root::Project => &self.project,
        }
    }
}

/// Canonical when the path exists (so that symlinked temp dirs and `..` compare equal),
/// otherwise made absolute against the current directory.
fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf())
}

/// How far a source reaches, as its agent defines it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
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
    /// `file` (a relative path) in `dir` or any directory below it, up to `max_depth` levels
    /// down; symlinked directories, `.git` and `node_modules` are not entered.
    Tree {
        dir: &'static str,
        file: &'static str,
        max_depth: usize,
    },
}

/// One place an agent reads hooks from.
#[derive(Debug, PartialEq, Eq)]
pub struct Location {
    /// Stable name, used by [`NATIVE`] and in JSON output.
    pub id: &'static str,
    pub dialect: Dialect,
    pub scope: Scope,
    pub root: Root,
    pub pattern: Pattern,
}

/// Plugins sit at `plugins/cache/<marketplace>/<plugin>/<version>/hooks/hooks.json` or
/// `plugins/marketplaces/<marketplace>/plugins/<plugin>/hooks/hooks.json`: four directories
/// down; two more leave room for other layouts without walking a whole tree.
const PLUGIN_DEPTH: usize = 6;

/// Directories entered at most while walking plugins, so a huge tree cannot slow start-up.
const PLUGIN_DIR_BUDGET: usize = 5_000;

/// Every place hookx looks for hooks (dialects.md §1), in discovery order: per agent, widest
/// scope first. Managed (enterprise policy) settings are not read.
pub static LOCATIONS: &[Location] = &[
    Location {
        id: "claude-user",
        dialect: Dialect::Claude,
        scope: Scope::User,
        root: Root::Home,
        pattern: Pattern::File(".claude/settings.json"),
    },
    Location {
        id: "claude-project",
        dialect: Dialect::Claude,
        scope: Scope::Project,
        root: Root::Project,
        pattern: Pattern::File(".claude/settings.json"),
    },
    Location {
        id: "claude-local",
        dialect: Dialect::Claude,
        scope: Scope::Local,
        root: Root::Project,
        pattern: Pattern::File(".claude/settings.local.json"),
    },
    Location {
        id: "claude-plugin",
        dialect: Dialect::Claude,
        scope: Scope::Plugin,
        root: Root::Home,
        pattern: Pattern::Tree {
            dir: ".claude/plugins",
            file: "hooks/hooks.json",
            max_depth: PLUGIN_DEPTH,
        },
    },
    Location {
        id: "claude-skill-user",
        dialect: Dialect::Claude,
        scope: Scope::Skill,
        root: Root::Home,
        pattern: Pattern::Sub {
            dir: ".claude/skills",
            name: "SKILL.md",
        },
    },
    Location {
        id: "claude-skill-project",
        dialect: Dialect::Claude,
        scope: Scope::Skill,
        root: Root::Project,
        pattern: Pattern::Sub {
            dir: ".claude/skills",
            name: "SKILL.md",
        },
    },
    Location {
        id: "claude-agent-user",
        dialect: Dialect::Claude,
        scope: Scope::Agent,
        root: Root::Home,
        pattern: Pattern::Dir {
            dir: ".claude/agents",
            suffix: ".md",
        },
    },
    Location {
        id: "claude-agent-project",
        dialect: Dialect::Claude,
        scope: Scope::Agent,
        root: Root::Project,
        pattern: Pattern::Dir {
            dir: ".claude/agents",
            suffix: ".md",
        },
    },
    Location {
        id: "copilot-user",
        dialect: Dialect::Copilot,
        scope: Scope::User,
        root: Root::Home,
        pattern: Pattern::Dir {
            dir: ".copilot/hooks",
            suffix: ".json",
        },
    },
    // Run 1.0.102: inline `hooks` in the user's settings are always read.
    Location {
        id: "copilot-user-settings",
        dialect: Dialect::Copilot,
        scope: Scope::User,
        root: Root::Home,
        pattern: Pattern::File(".copilot/settings.json"),
    },
    Location {
        id: "copilot-project",
        dialect: Dialect::Copilot,
        scope: Scope::Project,
        root: Root::Project,
        pattern: Pattern::Dir {
            dir: ".github/hooks",
            suffix: ".json",
        },
    },
    // Run 1.0.102: read in a trusted folder, after `.claude/settings*.json`.
    Location {
        id: "copilot-settings",
        dialect: Dialect::Copilot,
        scope: Scope::Project,
        root: Root::Project,
        pattern: Pattern::File(".github/copilot/settings.json"),
    },
    Location {
        id: "copilot-settings-local",
        dialect: Dialect::Copilot,
        scope: Scope::Local,
        root: Root::Project,
        pattern: Pattern::File(".github/copilot/settings.local.json"),
    },
    Location {
        id: "bricks-global",
        dialect: Dialect::Bricks,
        scope: Scope::Global,
        root: Root::Home,
        pattern: Pattern::File(".bricks-project-desktop/hooks.json"),
    },
    Location {
        id: "bricks-project",
        dialect: Dialect::Bricks,
        scope: Scope::Project,
        root: Root::Project,
        pattern: Pattern::File(".bricks/hooks.json"),
    },
];

/// Which locations each host agent reads by itself. hookx must not run these under that host
/// (the host already does), and they need no trust there. Copilot also reads the project's
/// Claude settings (dialects.md §1, field); hookx takes that to mean the two project files, not
/// the user's `~/.claude/settings.json`, plugins, skills or agents.
pub static NATIVE: &[(Dialect, &[&str])] = &[
    (
        Dialect::Claude,
        &[
            "claude-user",
            "claude-project",
            "claude-local",
            "claude-plugin",
            "claude-skill-user",
            "claude-skill-project",
            "claude-agent-user",
            "claude-agent-project",
        ],
    ),
    (
        Dialect::Copilot,
        &[
            "copilot-user",
            "copilot-user-settings",
            "copilot-project",
            "claude-project",
            "claude-local",
            "copilot-settings",
            "copilot-settings-local",
        ],
    ),
    (Dialect::Bricks, &["bricks-global", "bricks-project"]),
];

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
}

impl Runner {
    pub fn name(self) -> &'static str {
        match self {
            Runner::Native => "native",
            Runner::Hookx => "hookx",
            Runner::Inactive => "inactive",
        }
    }
}

/// Whether `host` reads files of `location` by itself ([`NATIVE`]).
pub fn is_native(host: Dialect, location: &Location) -> bool {
    NATIVE
        .iter()
        .any(|(h, ids)| *h == host && ids.contains(&location.id))
}

/// Who runs `source`'s hooks under `host`.
pub fn runner(host: Dialect, source: &Source) -> Runner {
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
/// only a Claude settings file sets and only Claude sources obey). Copilot de-duplicates
/// nothing, and component-scoped files run nowhere but natively.
pub fn needed_for_run(host: Dialect, location: &Location) -> bool {
    match location_runner(host, location) {
        Runner::Hookx => true,
        Runner::Inactive => false,
        Runner::Native => {
            location.dialect != Dialect::Copilot
                && LOCATIONS.iter().any(|l| {
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
    /// The path resolved through symlinks, which trust records are keyed by; `None` when it
    /// could not be resolved.
    pub canonical: Option<PathBuf>,
    /// SHA-256 (hex) of exactly the bytes that were parsed; `None` when the file could not be
    /// read. Trust compares this, so what is checked is what runs.
    pub sha256: Option<String>,
    /// The parsed file, or why it could not be read or parsed.
    pub document: Result<Document, Error>,
    /// Warnings and errors noticed inside a file that did parse.
    pub diagnostics: Vec<Diagnostic>,
}

impl Source {
    /// The document, when the file parsed.
    pub fn document(&self) -> Option<&Document> {
        self.document.as_ref().ok()
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
                .filter(|h| crate::install::is_hookx_handler(h))
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

/// Every hook source of the project and the home, in [`LOCATIONS`] order. Files that cannot be
/// read or parsed are kept with their error; nothing here fails. A file reached twice (the
/// project is the home, or a symlink) is listed once, under its first location. Markdown files
/// (skills, agents) are sources only when their frontmatter has hooks.
pub fn discover(ctx: &Context) -> Vec<Source> {
    discover_with(ctx, None)
}

/// What `hookx run --host HOST` needs to fire `event`, and no more: the sources of
/// [`discover`] that [`needed_for_run`] keeps, each document holding only `event`'s rules
/// ([`config::read::read_event`]), and a content hash only where trust is checked (sources
/// hookx runs itself; `sha256` is `None` for the others). [`dispatch_rules`] and
/// [`crate::dispatch::host::runnable`] give the same result for `event` over these sources as
/// over [`discover`]'s; `hookx list` and `hookx trust` need the whole picture and use
/// [`discover`].
pub fn discover_for_event(ctx: &Context, host: Dialect, event: &EventKind) -> Vec<Source> {
    discover_with(ctx, Some((host, event, None)))
}

/// Like [`discover_for_event`], but the rules `fires` says cannot fire are never built (nor
/// parsed, when they come from the [`cache`]): what `hookx run` fires is the same, for less.
/// A source left with no rule for the event is not warned about as untrusted.
pub fn discover_firing(
    ctx: &Context,
    host: Dialect,
    event: &EventKind,
    fires: config::read::Fires,
) -> Vec<Source> {
    discover_with(ctx, Some((host, event, Some(fires))))
}

/// The host, event and matching of a run; `None` to discover everything.
type Run<'a> = Option<(Dialect, &'a EventKind, Option<config::read::Fires<'a>>)>;

fn discover_with(ctx: &Context, run: Run) -> Vec<Source> {
    let mut seen = HashSet::new();
    let mut sources = Vec::new();
    for location in LOCATIONS {
        let needed = run.is_none_or(|(host, _, _)| needed_for_run(host, location));
        for path in candidates(ctx.root(location.root), location.pattern) {
            // Files not needed are still claimed by their location, so that a file reached
            // twice is attributed as by [`discover`].
            let canonical = std::fs::canonicalize(&path).ok();
            if !seen.insert(canonical.clone().unwrap_or_else(|| path.clone())) || !needed {
                continue;
            }
            if let Some(source) = load(ctx, path, canonical, location, run) {
                sources.push(source);
            }
        }
    }
    sources
}

/// The files a pattern names below `root` that exist, in a stable order.
fn candidates(root: &Path, pattern: Pattern) -> Vec<PathBuf> {
    match pattern {
        Pattern::File(rel) => {
            let path = root.join(rel);
            if path.is_file() { vec![path] } else { vec![] }
        }
        Pattern::Dir { dir, suffix } => sorted_entries(&root.join(dir))
            .into_iter()
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.ends_with(suffix) && !n.starts_with('.'))
                    && p.is_file()
            })
            .collect(),
        Pattern::Sub { dir, name } => sorted_entries(&root.join(dir))
            .into_iter()
            .map(|p| p.join(name))
            .filter(|p| p.is_file())
            .collect(),
        Pattern::Tree {
            dir,
            file,
            max_depth,
        } => {
            let mut found = Vec::new();
            let mut budget = PLUGIN_DIR_BUDGET;
            walk(&root.join(dir), file, max_depth, &mut budget, &mut found);
            found
        }
    }
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    paths
}

fn walk(dir: &Path, file: &str, depth: usize, budget: &mut usize, found: &mut Vec<PathBuf>) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let candidate = dir.join(file);
    if candidate.is_file() {
        found.push(candidate);
    }
    if depth == 0 {
        return;
    }
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut subdirs: Vec<PathBuf> = read
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| {
            let name = e.file_name();
            name != ".git" && name != "node_modules"
        })
        .map(|e| e.path())
        .collect();
    subdirs.sort();
    for sub in subdirs {
        walk(&sub, file, depth - 1, budget, found);
    }
}

/// Reads and parses one file (for `run`, only what that host and event need). `None` for
/// markdown without hooks.
fn load(
    ctx: &Context,
    path: PathBuf,
    canonical: Option<PathBuf>,
    location: &'static Location,
    run: Run,
) -> Option<Source> {
    let display = match location.root {
        Root::Project => ctx.display(&path),
        Root::Home => match path.strip_prefix(&ctx.home) {
            Ok(rel) => format!("~/{}", rel.display()),
            Err(_) => path.display().to_string(),
        },
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
        document: Err(Error::Usage(String::new())),
        diagnostics: Vec::new(),
    };
    let wants_sha = run.is_none_or(|(host, _, _)| location_runner(host, location) == Runner::Hookx);
    let parsed = match run {
        // Frontmatter is read whole: whether it has hooks decides whether it is a source.
        Some((_, event, fires)) if !markdown => {
            let (sha256, parsed) = read_for_event(
                ctx,
                &source.path,
                display,
                location.dialect,
                (event, fires),
                wants_sha,
            );
            if wants_sha {
                source.sha256 = sha256;
            }
            parsed
        }
        _ => {
            let src = match SourceFile::read(&source.path) {
                Ok(src) => SourceFile::new(display, src.text),
                Err(e) => {
                    source.document = Err(e);
                    return Some(source);
                }
            };
            if markdown && syntax::split_frontmatter(&src.text).is_none() {
                return None;
            }
            if wants_sha {
                source.sha256 = Some(sha256_hex(src.text.as_bytes()));
            }
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

/// One event of a JSON config file, and the file's SHA-256 (when wanted, or to be cached):
/// from the [`cache`] when the file is large and unchanged, else parsed (and then cached, if
/// large).
fn read_for_event(
    ctx: &Context,
    path: &Path,
    display: String,
    dialect: Dialect,
    (event, fires): (&EventKind, Option<config::read::Fires>),
    wants_sha: bool,
) -> (Option<String>, Result<config::Parsed, Error>) {
    use config::read::{leave_out_unfired, prune_event, read_pruned};
    let before = std::fs::metadata(path).ok().filter(cache::worth_caching);
    if let Some(meta) = &before
        && let Some(hit) = cache::lookup(&ctx.home, path, meta, dialect, event, fires)
    {
        // Entries are stored only for files that read without diagnostics, which are the
        // only use of the text: none is needed.
        let src = SourceFile::new(display, String::new());
        return (Some(hit.sha256), Ok(read_pruned(&src, dialect, hit.pruned)));
    }
    let src = match SourceFile::read(path) {
        Ok(src) => SourceFile::new(display, src.text),
        Err(e) => return (None, Err(e)),
    };
    let sha256 = (wants_sha || before.is_some()).then(|| sha256_hex(src.text.as_bytes()));
    let mut pruned = match prune_event(&src, dialect, event) {
        Ok(pruned) => pruned,
        Err(e) => return (sha256, Err(e)),
    };
    // The cache keeps every rule of the event: the next event may fire others.
    let kept = before.as_ref().map(|_| pruned.clone());
    if let Some(fires) = fires {
        leave_out_unfired(&mut pruned, dialect, fires);
    }
    let parsed = read_pruned(&src, dialect, pruned);
    if let (Some(before), Some(kept), Some(sha256)) = (&before, kept, &sha256)
        && parsed.diagnostics.is_empty()
    {
        cache::store(&ctx.home, path, dialect, event, before, sha256, kept);
    }
    (sha256, Ok(parsed))
}

/// Lower-case hex SHA-256 of some bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// One rule of the effective hook set, with the source it came from.
#[derive(Debug)]
pub struct EffectiveRule<'a> {
    pub source: &'a Source,
    /// The rule as written, its handlers de-duplicated as its dialect does and hookx's own
    /// routing entries removed; never empty. Borrowed from the source when nothing was removed.
    pub rule: Cow<'a, Rule>,
}

/// The Claude settings file whose `disableAllHooks` turns every Claude hook off, if any.
///
/// Claude merges settings with precedence local > project > user, so the value comes from
/// the highest-precedence settings file that sets the key; when it is `true`, every Claude
/// source is off (settings, plugins, skills, agents). Managed policy settings are not read.
pub fn claude_hooks_disabled(sources: &[Source]) -> Option<&Source> {
    let precedence = |s: &Source| match s.location.id {
        "claude-local" => Some(3),
        "claude-project" => Some(2),
        "claude-user" => Some(1),
        _ => None,
    };
    sources
        .iter()
        .filter_map(|s| {
            let doc = s.document()?;
            let flag = doc.extra.get("disableAllHooks")?.as_bool()?;
            Some((precedence(s)?, flag, s))
        })
        .max_by_key(|(p, _, _)| *p)
        .filter(|(_, flag, _)| *flag)
        .map(|(_, _, s)| s)
}

/// The effective hook set of all sources: every rule of every source that parsed, in
/// discovery order, with hookx's own routing entries left out (running them would recurse),
/// Claude hooks left out when `disableAllHooks` is on ([`claude_hooks_disabled`]), and
/// identical handlers de-duplicated:
///
/// - Bricks (global + project merge additively): same event, matcher and command, once.
/// - Claude (all scopes): same event, matcher and command (or prompt), once. Claude also
///   de-duplicates identical commands under *different* matchers when both match one event;
///   that needs the event, so the dispatcher does it ([`crate::dispatch::select::select`]).
/// - Copilot runs every handler in order: nothing is de-duplicated.
///
/// The first occurrence wins, so user and global files come before project ones.
pub fn effective_rules(sources: &[Source]) -> Vec<EffectiveRule<'_>> {
    select(sources, &[Pass::output(|_| true)])
}

/// The effective hook set as it plays out under `host`: de-duplication first keeps what the
/// host runs natively, then what hookx would run, so a handler the host already runs is not
/// listed again as hookx's.
pub fn host_rules(sources: &[Source], host: Dialect) -> Vec<EffectiveRule<'_>> {
    select(
        sources,
        &[
            Pass::output(|s| is_native(host, s.location)),
            Pass::output(|s| !is_native(host, s.location)),
        ],
    )
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
    select(
        sources,
        &[
            Pass::seed(|s| is_native(host, s.location)),
            Pass::output(|s| {
                runner(host, s) == Runner::Hookx && store.state(s) == TrustState::Trusted
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
fn select<'a>(sources: &'a [Source], passes: &[Pass<'_>]) -> Vec<EffectiveRule<'a>> {
    let claude_off = claude_hooks_disabled(sources).is_some();
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
            if taken[i] || (claude_off && source.dialect == Dialect::Claude) {
                continue;
            }
            if !(pass.take)(source) {
                continue;
            }
            taken[i] = true;
            for (j, rule) in doc.rules.iter().enumerate() {
                let keep: Vec<bool> = rule
                    .handlers
                    .iter()
                    .map(|h| {
                        if crate::install::is_hookx_handler(h) {
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
