//! Where hookx looks for hooks: the project, the user's home and the machine's policy root
//! (a [`Context`]), and every location below them ([`locations`]).
//!
//! Discovery walks these places; the trust store and hookx's other state live in the home. Both
//! need the context, so it sits below both.

use crate::error::Error;
use crate::tables::{Dialect, Location, Pattern, Root};
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// The directories discovery looks in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Context {
    /// The project directory (absolute; canonical when it exists).
    pub project: PathBuf,
    /// The user's home: user-level agent configs and hookx's own state live below it.
    pub home: PathBuf,
    /// Where the agents' machine-wide policy folders ([`crate::tables::ManagedSpec`]) are
    /// looked for: `/`, or `--managed-root` (`$HOOKX_MANAGED_ROOT` for the commands a user
    /// runs) so that tests and images never depend on the machine's `/etc`.
    pub managed_root: PathBuf,
    /// The home the agents themselves read their user files from: `--home`, else `$HOME`
    /// (`HOOKX_HOME` moves what hookx reads and keeps, not where an agent looks).
    pub agents_home: PathBuf,
    /// The agents' own folder variables set for a command the user runs
    /// ([`crate::tables::HomeVar`]: `$CODEX_HOME`, …), and those naming a folder record
    /// (`$GEMINI_CLI_TRUSTED_FOLDERS_PATH`), with their values.
    pub agent_vars: Vec<(&'static str, PathBuf)>,
    /// Which variables placed it: a command the user runs, or `run`/`exec` started by an
    /// agent, where a variable may have been set for the hooks only.
    pub vars: Vars,
}

/// Moves the root the agents' policy folders are looked for under (default `/`), for the
/// commands a user runs ([`Vars::User`]); `run` and `exec` never read it.
pub const MANAGED_ROOT_VAR: &str = "HOOKX_MANAGED_ROOT";

/// Moves the home hookx's own state and the user's configs are looked for in (default
/// `$HOME`), for the commands a user runs ([`Vars::User`]); `run` and `exec` never read it.
pub const HOME_VAR: &str = "HOOKX_HOME";

/// Which environment variables may place the home and the policy root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vars {
    /// A command the user runs (`list`, `doctor`, `trust`, `install`, `validate`,
    /// `simulate`): [`HOME_VAR`] and [`MANAGED_ROOT_VAR`] count, as conveniences.
    User,
    /// `run` and `exec`, started by an agent that passes a project's settings `env` (or
    /// `.env`) to every hook: only the flags on the route's command line and `HOME`, which the
    /// agent sets from the user's account. A variable a repository sets must not move the
    /// user's trust record, hooks or policy.
    Dispatch,
}

/// Where to look, as the command line says; what it leaves out comes from the environment
/// ([`Vars`]) or the defaults.
#[derive(Clone, Copy, Debug, Default)]
pub struct Places<'a> {
    pub project: Option<&'a Path>,
    pub home: Option<&'a Path>,
    pub managed_root: Option<&'a Path>,
}

/// The home of `run` and `exec` ([`Vars::Dispatch`]): the route's `--home`, else the
/// account's, else `HOME` (see [`Context::resolve_places`]).
pub fn dispatch_home(given: Option<&Path>) -> Option<PathBuf> {
    given
        .map(Path::to_path_buf)
        .or_else(crate::ownership::account_home)
        .or_else(|| env_path("HOME"))
}

/// `dialect`'s policy folder below `root` on this operating system, if it has one.
pub fn managed_dir(root: &Path, dialect: Dialect) -> Option<PathBuf> {
    let managed = dialect.def().managed.as_ref()?;
    let (_, dir) = managed
        .dirs
        .iter()
        .find(|(os, _)| *os == std::env::consts::OS)?;
    Some(root.join(dir.trim_start_matches('/')))
}

fn env_path(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

impl Context {
    /// A context from two directories, taken as given; the policy root is `/`.
    pub fn new(project: impl Into<PathBuf>, home: impl Into<PathBuf>) -> Context {
        let home = home.into();
        Context {
            project: project.into(),
            agents_home: home.clone(),
            home,
            managed_root: PathBuf::from("/"),
            agent_vars: Vec::new(),
            vars: Vars::User,
        }
    }

    /// The same context with the policy folders looked for below `root` instead of `/`.
    pub fn with_managed_root(mut self, root: &Path) -> Context {
        self.managed_root = absolute(root);
        self
    }

    /// [`Context::resolve_places`] for a command the user runs, from `--project` and `--home`.
    pub fn resolve(project: Option<&Path>, home: Option<&Path>) -> Result<Context, Error> {
        Context::resolve_places(
            Places {
                project,
                home,
                managed_root: None,
            },
            Vars::User,
        )
    }

    /// The project from `--project` (default: the current directory); the home from `--home`,
    /// else (`Vars::User`) `$HOOKX_HOME`, else `$HOME`, or (`Vars::Dispatch`) the home of the
    /// user's account (`getpwuid`), else `$HOME`; the policy root from
    /// `--managed-root`, else (`Vars::User` only) `$HOOKX_MANAGED_ROOT`, else `/`.
    /// `HOOKX_HOME` and `HOOKX_MANAGED_ROOT` exist so that tests and sandboxes never read or
    /// write the real home or `/etc`.
    pub fn resolve_places(places: Places<'_>, vars: Vars) -> Result<Context, Error> {
        let project = places.project.unwrap_or(Path::new("."));
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
        let user = vars == Vars::User;
        // `run`/`exec`: an agent passes a project's settings `env` to every hook, `HOME` among
        // them, so `HOME` would let a repository hide the user's trust record (or point at
        // one it wrote). Their home is the route's `--home`, else the account's; `HOME` only
        // where the account database has no entry for this user.
        let home = match user {
            true => places
                .home
                .map(Path::to_path_buf)
                .or_else(|| env_path(HOME_VAR))
                .or_else(|| env_path("HOME")),
            false => dispatch_home(places.home),
        }
        .ok_or_else(|| {
            Error::Usage(match vars {
                Vars::User => {
                    "cannot tell the home directory: pass --home DIR or set HOOKX_HOME".into()
                }
                Vars::Dispatch => {
                    "cannot tell the home directory: the account database has no entry for \
                         this user and HOME is unset (install with --home DIR)"
                        .into()
                }
            })
        })?;
        let managed_root = places
            .managed_root
            .map(Path::to_path_buf)
            .or_else(|| user.then(|| env_path(MANAGED_ROOT_VAR)).flatten())
            .map_or_else(|| PathBuf::from("/"), |root| absolute(&root));
        // Where the agents read: the home given, else the account's; their own folder
        // variables only for a command the user runs (a project may set any variable for `run`).
        let agents_home = places
            .home
            .map(Path::to_path_buf)
            .or_else(|| user.then(|| env_path("HOME")).flatten())
            .map_or_else(|| absolute(&home), |h| absolute(&h));
        let agent_vars = match user {
            // The plugin hosts' too (`XDG_CONFIG_HOME`: install's warning, doctor's routes,
            // attacks row 388).
            // And the variables naming a folder record itself (Gemini's
            // `GEMINI_CLI_TRUSTED_FOLDERS_PATH`, [`Context::agent_file`]).
            true => Dialect::all()
                .iter()
                .chain(Dialect::write_only())
                .flat_map(|d| {
                    let record = d.def().folder_trust.as_ref().and_then(|t| t.record_var);
                    d.def()
                        .home_var
                        .as_ref()
                        .map(|v| v.var)
                        .into_iter()
                        .chain(record)
                })
                .filter_map(|var| Some((var, absolute(&env_path(var)?))))
                .collect(),
            false => Vec::new(),
        };
        Ok(Context {
            project: absolute(project),
            home: absolute(&home),
            managed_root,
            agents_home,
            agent_vars,
            vars,
        })
    }

    /// A path as people read it: relative to the project, `~/…` below the home, else absolute.
    pub fn display(&self, path: &Path) -> String {
        shown(self.display_raw(path))
    }

    fn display_raw(&self, path: &Path) -> String {
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

    /// Where `dialect` itself reads its file `rel` (`.codex/config.toml`) below the home: below
    /// its folder variable when that is set ([`crate::tables::HomeVar`]), else below the home
    /// the agents read ([`Context::agents_home`]); its folder record where the variable naming
    /// that file is set ([`crate::tables::FolderTrust::record_var`]).
    pub fn agent_file(&self, dialect: Dialect, rel: &str) -> PathBuf {
        if let Some(trust) = dialect.def().folder_trust.as_ref()
            && trust.record.file() == rel
            && let Some((_, value)) =
                (self.agent_vars.iter()).find(|(v, _)| trust.record_var == Some(*v))
        {
            return value.clone();
        }
        if let Some(var) = dialect.def().home_var.as_ref()
            && let Some((_, value)) = self.agent_vars.iter().find(|(v, _)| *v == var.var)
        {
            let rest = match var.dir {
                "" => Some(rel),
                dir => rel.strip_prefix(dir).and_then(|r| r.strip_prefix('/')),
            };
            if let Some(rest) = rest {
                return value.join(rest);
            }
        }
        self.agents_home.join(rel)
    }

    /// The folder `location`'s pattern is below; `None` for a policy location of an agent
    /// with no policy folder on this operating system.
    pub(crate) fn root(&self, location: &Location) -> Option<Cow<'_, Path>> {
        match location.root {
            Root::Home => Some(Cow::Borrowed(&self.home)),
            Root::Project => Some(Cow::Borrowed(&self.project)),
            Root::Managed => self.managed_dir(location.dialect).map(Cow::Owned),
        }
    }

    /// Where `location`'s files are: its folder ([`Context::root`]) and its pattern below it,
    /// except that a home location of an agent whose folder variable is set for the command
    /// ([`Context::agent_vars`], `CLAUDE_CONFIG_DIR`, …) is below the folder it names, where
    /// the agent reads it (attacks row 220: `doctor` said a route below the home fired where
    /// Claude read `$CLAUDE_CONFIG_DIR/settings.json`). `run` and `exec` read no such variable.
    pub(crate) fn place(&self, location: &Location) -> Option<(Cow<'_, Path>, Pattern)> {
        if let Some((var, value)) = self.moved_by(location) {
            let below = |rel: &'static str| match var.dir {
                "" => Some(rel),
                dir => rel.strip_prefix(dir)?.strip_prefix('/'),
            };
            let moved = match location.pattern {
                Pattern::File(rel) => below(rel).map(Pattern::File),
                Pattern::Dir { dir, suffix } => below(dir).map(|dir| Pattern::Dir { dir, suffix }),
                Pattern::Sub { dir, name } => below(dir).map(|dir| Pattern::Sub { dir, name }),
                Pattern::Scripts(dir) => below(dir).map(Pattern::Scripts),
                Pattern::Plugins => None,
            };
            if let Some(pattern) = moved {
                return Some((Cow::Borrowed(value), pattern));
            }
        }
        Some((self.root(location)?, location.pattern))
    }

    /// The folder variable set for the command that moves the home location `location`
    /// ([`Context::place`]), and the folder it names.
    pub fn moved_by(
        &self,
        location: &Location,
    ) -> Option<(&'static crate::tables::HomeVar, &Path)> {
        let var = location.dialect.def().home_var.as_ref()?;
        let (_, value) = self.agent_vars.iter().find(|(v, _)| *v == var.var)?;
        (location.root == Root::Home).then_some((var, value.as_path()))
    }

    /// `dialect`'s policy folder on this operating system, below [`Context::managed_root`].
    pub fn managed_dir(&self, dialect: Dialect) -> Option<PathBuf> {
        managed_dir(&self.managed_root, dialect)
    }

    /// How people read the path of a file found at `location`: relative to the project,
    /// `~/…` below the home, a policy file's as on the machine.
    pub(crate) fn display_found(&self, location: &Location, path: &Path) -> String {
        let root = self.root(location);
        shown(
            match (location.root, root.as_deref().and_then(|r| below(path, r))) {
                (Root::Project, Some(rel)) => rel.to_string_lossy().into_owned(),
                (Root::Home, Some(rel)) => format!("~/{}", rel.to_string_lossy()),
                (Root::Project, None) => self.display_raw(path),
                (Root::Home, None) => path.display().to_string(),
                (Root::Managed, _) => self.display_managed(path),
            },
        )
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

/// A path as shown: a control character in a file's name (an escape, a newline) written out
/// ([`crate::diag::visible`]), so that no name a repository ships rewrites what hookx prints.
fn shown(text: String) -> String {
    match crate::diag::visible(&text) {
        Cow::Borrowed(_) => text,
        Cow::Owned(escaped) => escaped,
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

/// Whether two paths name the same place: equal, or the same once links are resolved, also
/// where one is not there yet ([`real_place`]).
pub(crate) fn same_place(a: &Path, b: &Path) -> bool {
    a == b || real_place(a) == real_place(b)
}

/// Where `path` is, through links: its real path, or, for one not there yet, the real path of
/// its deepest folder that is, with the rest of its names (a file sync is about to write,
/// reached through a linked folder, is the same place as by that folder's other name: attacks
/// row 583).
pub(crate) fn real_place(path: &Path) -> PathBuf {
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut rest = Vec::new();
    let mut at = path.as_path();
    loop {
        if let Ok(real) = at.canonicalize() {
            return rest.iter().rev().fold(real, |place, name| place.join(name));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name);
                at = parent;
            }
            _ => return path,
        }
    }
}

/// Canonical when the path exists (so that symlinked temp dirs and `..` compare equal),
/// otherwise made absolute against the current directory.
pub(crate) fn absolute(path: &Path) -> PathBuf {
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

/// The location with this id.
pub fn location(id: &str) -> Option<&'static Location> {
    locations().find(|l| l.id == id)
}
