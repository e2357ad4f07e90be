//! Where the project is, for an agent that does not say it in a variable: from the payload
//! (its `cwd`, the folders it has open), the agent's own settings that mark a project's root,
//! and the folder of the line that started hookx.

use crate::context::Places;
use crate::model::Event;
use crate::route::InstallScope;
use crate::tables::{Flavor, ProjectFrom};
use std::path::{Path, PathBuf};

/// The project of `event` as `flavor` sent it: the flavour's project variable, else what its
/// payload says ([`ProjectFrom`]), `line` the line that started this process and `route_event`
/// the event it is registered for.
pub fn of_event(
    event: &Event,
    flavor: Flavor,
    places: Places<'_>,
    line: Line<'_>,
    route_event: Option<&str>,
) -> (PathBuf, Vec<PathBuf>) {
    let tables = flavor.tables();
    // An empty value names no folder (Cursor sends the handlers of Claude's files `"cwd": ""`,
    // attacks row 153): taken as one, every call failed closed.
    if let Some(dir) = (tables.project_dir_var)
        .and_then(std::env::var_os)
        .filter(|v| !v.is_empty())
    {
        return (PathBuf::from(dir), Vec::new());
    }
    let here = || std::env::current_dir().ok();
    let cwd = event
        .field("cwd")
        .filter(|c| !c.is_empty())
        .map(PathBuf::from)
        .or_else(here);
    let told = match tables.project_from {
        ProjectFrom::HookFolder => here(),
        ProjectFrom::Field(key) => open_folder(event, key, cwd.as_deref()),
        ProjectFrom::Cwd => None,
    };
    if let Some(dir) = told {
        return (dir, Vec::new());
    }
    let Some(cwd) = cwd else {
        return (PathBuf::from("."), Vec::new());
    };
    let root = project_at_or_above(cwd.clone(), &root_markers(flavor, places));
    let host = flavor.dialect();
    let holding = |holds: &dyn Fn(&Path, &Path) -> bool| folder_holding(&cwd, &root, places, holds);
    let found = match line {
        Line::Unknown => None,
        Line::ProjectRoute(Some(folder)) => {
            if let Some(event) = route_event
                && let Some(home) = crate::context::dispatch_home(places.home)
            {
                let cwd = std::path::absolute(&cwd).unwrap_or_else(|_| cwd.clone());
                let chain = Chain {
                    cwd: &cwd,
                    root: &root,
                    home: &home,
                    host,
                    event,
                };
                return chain.named(folder);
            }
            None
        }
        Line::ProjectRoute(None) => {
            let routes = |home: &Path, dir: &Path| {
                route_event.is_some_and(|e| crate::route::routed_in_project(home, dir, host, e))
            };
            let found = holding(&routes);
            // Only where a folder below the root routes it: the common path reads nothing more.
            let above = found.as_deref().map_or_else(Vec::new, |below| {
                folders_above(below, &root, places, &routes)
            });
            return (found.unwrap_or(root), above);
        }
        Line::Copy(command) => holding(&|home, dir| {
            let file = crate::route::target(home, dir, host, InstallScope::Project);
            holds_copy(&file, command)
        }),
    };
    (found.unwrap_or(root), Vec::new())
}

/// The folders above `below` up to and including the project's `root` whose host project
/// file also `holds` the route line. Codex loads every `.codex/` from the root down and runs
/// each copy of the line, all alike: none knows its file, so each runs the rules of every such
/// folder (twice, never zero). Taking the nearest alone, the root's guard ran nowhere (attacks
/// row 670).
fn folders_above(
    below: &Path,
    root: &Path,
    places: Places<'_>,
    holds: &dyn Fn(&Path, &Path) -> bool,
) -> Vec<PathBuf> {
    let Some(home) = crate::context::dispatch_home(places.home) else {
        return Vec::new();
    };
    below
        .ancestors()
        .skip(1)
        .take_while(|dir| dir.starts_with(root))
        .filter(|dir| holds(&home, dir))
        .map(Path::to_path_buf)
        .collect()
}

/// The folder `dir` as its project route names it ([`crate::tables::RouteSpec::names_folder`]):
/// its path below the project's root as the agent's markers place it, `.` for the root.
pub fn route_folder_of(host: crate::tables::Dialect, places: Places<'_>, dir: &Path) -> String {
    let markers = root_markers(host.default_flavor(), places);
    let root = project_at_or_above(dir.to_path_buf(), &markers);
    let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    match dir.strip_prefix(&root) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.to_string_lossy().into_owned(),
        _ => ".".to_string(),
    }
}

/// The folders above `project`, up to its root as the agent's markers place it, whose project
/// file routes `event` (the host's name) too, where the host loads the project file of each
/// folder down to where it started ([`crate::tables::RouteSpec::names_folder`]): hookx's routes
/// there run their rules as well (attacks rows 670, 680). For the commands that show what runs
/// (`simulate`), which take `project` for the folder the agent started in.
pub fn routed_above(
    host: crate::tables::Dialect,
    home: &Path,
    managed_root: &Path,
    project: &Path,
    event: &str,
) -> Vec<PathBuf> {
    if !host.def().route.names_folder {
        return Vec::new();
    }
    let places = Places {
        project: None,
        home: Some(home),
        managed_root: Some(managed_root),
    };
    let root = project_at_or_above(
        project.to_path_buf(),
        &root_markers(host.default_flavor(), places),
    );
    let routes = |home: &Path, dir: &Path| crate::route::routed_in_project(home, dir, host, event);
    folders_above(project, &root, places, &routes)
}

/// The folders from `cwd` up to the project's `root` whose project files the agent loads
/// (Codex: every `.codex/` between them), and what `event`'s route lines in them say.
struct Chain<'a> {
    cwd: &'a Path,
    root: &'a Path,
    home: &'a Path,
    host: crate::tables::Dialect,
    event: &'a str,
}

impl Chain<'_> {
    /// The folders, nearest first, the root last.
    fn folders(&self) -> impl Iterator<Item = &Path> {
        let root = self.root;
        self.cwd
            .ancestors()
            .take_while(move |dir| dir.starts_with(root))
    }

    /// The folder a line naming `folder` (`--route-folder REL`) is in: the nearest whose file
    /// holds such a line for the event, else the root. The root itself is not read: where
    /// the agent starts in the root, the common path reads no file more.
    fn holder(&self, folder: &str) -> PathBuf {
        let names = |line: &String| crate::route::route_folder(line).as_deref() == Some(folder);
        self.folders()
            .take_while(|dir| *dir != self.root)
            .find(|dir| {
                crate::route::project_routes(self.home, dir, self.host, self.event, true)
                    .iter()
                    .any(names)
            })
            .unwrap_or(self.root)
            .to_path_buf()
    }

    /// Whether the rules of `dir` are run by a line of its own: a route line in its file that
    /// the agent runs for every call (reviewed, not turned off) and that names a folder whose
    /// [`Self::holder`] is `dir`.
    fn runs_its_own(&self, dir: &Path) -> bool {
        let file = crate::route::target(self.home, dir, self.host, InstallScope::Project);
        crate::route::project_routes(self.home, dir, self.host, self.event, false)
            .iter()
            .any(|line| {
                crate::route::route_folder(line).is_some_and(|f| self.holder(&f) == dir)
                    && crate::route::route_can_run(line)
                    && crate::route::review::runs_handler(self.home, self.host, &file, line)
            })
    }

    /// The project of a route line naming `folder` ([`crate::tables::RouteSpec::names_folder`]),
    /// and the other folders whose rules it runs too: its own folder's rules, and those of
    /// each other folder whose file routes the event but has no line of its own the agent runs
    /// ([`Self::runs_its_own`]): each rule once where every folder has its line, twice at
    /// worst, never nowhere. Two alike lines in a repository's root and its package, Codex
    /// started in the package, each ran both folders' rules: each rule twice (attacks row 680).
    fn named(&self, folder: &str) -> (PathBuf, Vec<PathBuf>) {
        let own = self.holder(folder);
        // Only where the agent starts below the root can it load another folder's file.
        if self.cwd == self.root {
            return (own, Vec::new());
        }
        let others = self
            .folders()
            .filter(|dir| *dir != own)
            .filter(|dir| crate::route::routed_in_project(self.home, dir, self.host, self.event))
            .filter(|dir| !self.runs_its_own(dir))
            .map(Path::to_path_buf)
            .collect();
        (own, others)
    }
}

/// The project an agent that sets no project variable runs from `cwd`: the nearest folder at
/// or above it holding one of `markers` (Codex's `.git`: started below the project, it reads
/// the project's files from there, attacks row 521), else `cwd` itself. A marker is looked at
/// through links, as Codex looks (a link to nothing marks no folder), and counts only where it
/// is the user's or root's ([`yours`]).
fn project_at_or_above(cwd: PathBuf, markers: &[String]) -> PathBuf {
    if markers.is_empty() {
        return cwd;
    }
    let cwd = std::path::absolute(&cwd).unwrap_or(cwd);
    let found = cwd
        .ancestors()
        .find(|dir| {
            markers
                .iter()
                .any(|m| dir.join(m).metadata().is_ok_and(|meta| yours(&meta)))
        })
        .map(Path::to_path_buf);
    found.unwrap_or(cwd)
}

/// Whether a marker is this user's or root's. Another account's `.git` in a folder anyone may
/// write (`/tmp/.git` above the user's `/tmp/work`) made `/tmp` the project, and the user's
/// own guards in `work` ran nowhere under Codex: a deny lost to someone else's folder (attacks
/// row 1121). Codex 0.171.0 takes such a marker (run:
/// `live_codex::another_accounts_git_above_marks_no_project`); git refuses that repository
/// (`safe.directory`), and so does hookx, for the rules it runs.
#[cfg(unix)]
fn yours(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.uid() == 0 || meta.uid() == rustix::process::geteuid().as_raw()
}

#[cfg(not(unix))]
fn yours(_meta: &std::fs::Metadata) -> bool {
    true
}

/// Which line of the host's files started this process, as far as its command line says.
#[derive(Clone, Copy)]
pub enum Line<'a> {
    /// Not told (the user's route, a command typed by hand).
    Unknown,
    /// hookx's route in the host's project file (`--installed-in project`), with the folder
    /// it names where it names one (`--route-folder REL`).
    ProjectRoute(Option<&'a str>),
    /// A wrapped copy (`hookx exec`) running `command`, in one of the host's files.
    Copy(&'a [String]),
}

/// The folder of a project's line, where the agent loads the host's project file of each
/// folder from the project's `root` down to `cwd` (Codex: every `.codex/`): the nearest at or
/// above `cwd`, below `root`, whose file `holds` the line (given the home and the folder). A
/// package of a repository with its own route or converted copies and guards, Codex started in
/// it, ran the root's rules (a copy: the root's `$CLAUDE_PROJECT_DIR`, its script not there),
/// and the package's guards ran nowhere (attacks rows 568, 569). A route line in folders
/// above it as well: [`folders_above`].
fn folder_holding(
    cwd: &Path,
    root: &Path,
    places: Places<'_>,
    holds: &dyn Fn(&Path, &Path) -> bool,
) -> Option<PathBuf> {
    let cwd = std::path::absolute(cwd).ok()?;
    let home = crate::context::dispatch_home(places.home)?;
    cwd.ancestors()
        .take_while(|dir| *dir != root && dir.starts_with(root))
        .find(|dir| holds(&home, dir))
        .map(Path::to_path_buf)
}

/// Whether the hook file `file` has a handler whose command line names each of `command`'s
/// words (a wrapped copy's `hookx exec … -- CMD`, CMD quoted into it).
fn holds_copy(file: &Path, command: &[String]) -> bool {
    fn strings<'v>(v: &'v serde_json::Value, out: &mut Vec<&'v str>) {
        match v {
            serde_json::Value::String(s) => out.push(s),
            serde_json::Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
            serde_json::Value::Object(map) => map.values().for_each(|i| strings(i, out)),
            _ => {}
        }
    }
    let Ok(text) = crate::read::text(file, crate::read::MAX_FILE_BYTES) else {
        return false;
    };
    let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) else {
        return false;
    };
    let mut all = Vec::new();
    strings(&value, &mut all);
    all.iter()
        .any(|line| command.iter().all(|word| line.contains(word.as_str())))
}

/// The folder the agent has open, as its payload's field `key` names them
/// ([`ProjectFrom::Field`]): of several, the nearest at or above `cwd`, else the first. Taken
/// from a shell event's `cwd` instead, a Cursor agent whose shell had moved into a subfolder
/// ran none of the project's guards (attacks row 565).
fn open_folder(event: &Event, key: &str, cwd: Option<&Path>) -> Option<PathBuf> {
    let value = event.fields.get(key)?;
    let roots: Vec<&Path> = match value {
        serde_json::Value::Array(items) => items.iter().filter_map(|v| v.as_str()).collect(),
        serde_json::Value::String(one) => vec![one.as_str()],
        _ => Vec::new(),
    }
    .into_iter()
    .filter(|r| !r.is_empty())
    .map(Path::new)
    .collect();
    let within = |cwd: &Path| {
        (roots.iter())
            .filter(|r| cwd.starts_with(r))
            .max_by_key(|r| r.components().count())
    };
    cwd.and_then(within)
        .or(roots.first())
        .map(|r| r.to_path_buf())
}

/// The folders that mark `flavor`'s project: its table's, unless the user replaced them in the
/// agent's own settings ([`crate::tables::RootMarkersSetting`]). Read below the home the route
/// names (else the account's) and the agent's folder variable, which the agent itself started
/// this route with: Codex passes its hooks its own environment, no project's (codex-facts).
/// Read as the agent reads it, a user's `[".hg"]` or `[]` took another folder than the agent's
/// for the project, and its guards ran nowhere (attacks rows 560, 561). A file that does not
/// parse, or a value not a list of names, is one the agent refuses to start with: the table's.
fn root_markers(flavor: Flavor, places: Places<'_>) -> Vec<String> {
    let tables = flavor.tables();
    let own = || {
        tables
            .project_root_markers
            .iter()
            .map(|m| m.to_string())
            .collect()
    };
    let Some(setting) = tables.project_root_setting.as_ref() else {
        return own();
    };
    let dialect = flavor.dialect();
    let root = places.managed_root.unwrap_or(Path::new("/"));
    let policy =
        crate::context::managed_dir(root, dialect).map(|dir| dir.join(setting.policy_file));
    let home = crate::context::dispatch_home(places.home);
    let user = (home.as_deref())
        .map(|home| crate::route::hosts_own_file(home, dialect, setting.user_file));
    let file = |file: &Option<PathBuf>| {
        let file = file.as_deref()?;
        crate::read::text(file, crate::read::MAX_FILE_BYTES).ok()
    };
    // The layers the agent's command line puts on top (Codex's `-c`, then `--profile`, attacks
    // rows 570, 740) win over the user's file, which wins over the policy's. Looked for on
    // every run of the flavour: a `-c` is seen on the command line only (under Codex, its
    // process is the hook's shell's parent: 31,000 instructions more of 1.87 million, debug).
    let layers = || {
        let (Some(layer), Some(home)) = (setting.layer, home.as_deref()) else {
            return Vec::new();
        };
        crate::route::layer_texts(home, dialect, layer)
    };
    let read = |text: Option<String>| -> Option<Vec<String>> {
        let text = text?;
        // Most settings never name the key: no parse on the common path.
        if !text.contains(setting.key) {
            return None;
        }
        let doc = text.parse::<toml_edit::DocumentMut>().ok()?;
        let list = doc.get(setting.key)?.as_array()?;
        list.iter()
            .map(|m| m.as_str().map(str::to_string))
            .collect()
    };
    let files: [&dyn Fn() -> Option<String>; 2] = [&|| file(&user), &|| file(&policy)];
    (layers().into_iter().find_map(|text| read(Some(text))))
        .or_else(|| files.iter().find_map(|text| read(text())))
        .unwrap_or_else(own)
}
