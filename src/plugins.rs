//! Which plugins an agent loads, read from its own registries the way the agent reads them
//! ([`PluginSpec`], data in the dialect's file).
//!
//! `hookx run` finds plugin hook files through a few small records (the settings' enabled
//! list, the install record, the marketplaces and their catalogs) and a `stat` of each enabled
//! plugin's hook file: never by walking the folders downloaded plugins sit in, which in a
//! lived-in home hold thousands of directories. A plugin the agent does not load (not
//! enabled, not installed, only downloaded) is not a hook source under any host; `hookx list`
//! walks the download folders to show such plugins as off.

use crate::tables::PluginSpec;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};

/// Whether the agent loads a plugin found on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    /// Enabled, and installed where the agent loads it from: its hooks run.
    Loaded,
    /// An install record names its folder, but the agent does not load it: not enabled, or
    /// enabled only in settings files hookx does not trust.
    Disabled,
    /// On disk only: downloaded with a marketplace, or a copy the agent does not load from.
    NotInstalled,
    /// Installed, and turned off for the project's folder by the agent's own per-folder switch
    /// (Gemini's `gemini extensions disable`: [`crate::tables::ExtensionSwitch`]).
    OffHere,
}

impl Standing {
    pub fn name(self) -> &'static str {
        match self {
            Standing::Loaded => "loaded",
            Standing::Disabled => "disabled",
            Standing::NotInstalled => "not-installed",
            Standing::OffHere => "off-here",
        }
    }

    /// Why hooks of a plugin in this standing do not run, for `hookx list`.
    pub fn why_off(self) -> Option<&'static str> {
        match self {
            Standing::Loaded => None,
            Standing::Disabled => {
                Some("off: plugin installed but not enabled (in settings hookx trusts)")
            }
            Standing::NotInstalled => Some("off: plugin not installed (downloaded only)"),
            Standing::OffHere => Some("off: extension turned off for this folder"),
        }
    }
}

/// The standings of the extension whose hook file is `hook_file`, when the agent's per-folder
/// switch turns it off in `project` (the last rule matching the folder decides, as the agent
/// reads them); `None` when it is on, or nothing says (no switch file, no name).
pub fn switched_off(
    home: &Path,
    project: &Path,
    switch: &crate::tables::ExtensionSwitch,
    location: &crate::tables::Location,
    hook_file: &Path,
) -> Option<Standings> {
    let dir = location.pattern.sub_folder(hook_file)?;
    let manifest = read_json(&dir.join(switch.manifest))?;
    let name = manifest.get(switch.name_key)?.as_str()?;
    let rules = read_json(&home.join(switch.file))?;
    let rules = rules.get(name)?.get(switch.overrides_key)?.as_array()?;
    // The folder as the agent writes it: one leading and one trailing `/`.
    let folder = format!("/{}/", project.to_string_lossy().trim_matches('/'));
    let mut on = true;
    for rule in rules.iter().filter_map(Value::as_str) {
        let (off, base) = match rule.strip_prefix('!') {
            Some(base) => (true, base),
            None => (false, rule),
        };
        let matches = match base.strip_suffix('*') {
            // `/dir/*`: the folder itself and every folder below it.
            Some(base) => {
                let base = base.trim_end_matches('/');
                folder == format!("{base}/") || folder.starts_with(&format!("{base}/"))
            }
            None => folder == base,
        };
        if matches {
            on = !off;
        }
    }
    (!on).then_some(Standings {
        agent: Standing::OffHere,
        trusted: Standing::OffHere,
    })
}

/// A plugin's standing twice over: as its agent sees it (from every settings file), and as
/// hookx may act on it (from the settings files trusted as found). The agent's view says what
/// the agent runs natively; hookx runs a plugin under another host only by the trusted view, so
/// that no untrusted file turns trusted hooks on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standings {
    pub agent: Standing,
    pub trusted: Standing,
}

/// A plugin's hook file (which may not exist) and its standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plugin {
    pub hook_file: PathBuf,
    pub standings: Standings,
    /// Its ID (`name@marketplace`) where a settings file enabled it; not for a download found
    /// by walking.
    pub id: Option<String>,
}

/// The plugins to consider. `trusted`: the IDs enabled by the trusted settings. `agent`: the
/// IDs enabled by every settings file, for a full picture that also walks the download folders
/// for plugins that are off; `None` on the run path, which finds the trusted view's loaded
/// plugins and nothing else (their agent view is then not known, and given as loaded).
pub fn find(
    home: &Path,
    spec: &PluginSpec,
    trusted: &[String],
    agent: Option<&[String]>,
) -> Vec<Plugin> {
    let by_trusted = loaded(home, spec, trusted);
    let Some(agent) = agent else {
        return by_trusted
            .into_iter()
            .map(|(id, hook_file)| Plugin {
                hook_file,
                standings: Standings {
                    agent: Standing::Loaded,
                    trusted: Standing::Loaded,
                },
                id: Some(id),
            })
            .collect();
    };
    let by_agent = loaded(home, spec, agent);
    let id_of = |file: &PathBuf| {
        by_agent
            .iter()
            .chain(&by_trusted)
            .find(|(_, f)| f == file)
            .map(|(id, _)| id.clone())
    };
    let by_trusted: Vec<PathBuf> = by_trusted.iter().map(|(_, f)| f.clone()).collect();
    let by_agent: Vec<PathBuf> = by_agent.iter().map(|(_, f)| f.clone()).collect();
    let registry = Registry::read(home, spec);
    let off = |file: &Path| {
        let mut dir = file.to_path_buf();
        for _ in Path::new(spec.hook_file).components() {
            dir.pop();
        }
        if registry.installs(&dir) {
            Standing::Disabled
        } else {
            Standing::NotInstalled
        }
    };
    let mut files = by_agent.clone();
    files.extend(by_trusted.iter().filter(|f| !by_agent.contains(f)).cloned());
    for file in downloads(home, spec) {
        if !files.contains(&file) {
            files.push(file);
        }
    }
    files
        .into_iter()
        .map(|file| {
            let view = |loaded: &[PathBuf]| match loaded.contains(&file) {
                true => Standing::Loaded,
                false => off(&file),
            };
            let standings = Standings {
                agent: view(&by_agent),
                trusted: view(&by_trusted),
            };
            Plugin {
                id: id_of(&file),
                hook_file: file,
                standings,
            }
        })
        .collect()
}

/// The plugin IDs the settings turn on. `settings`: each settings file's location id and
/// top-level object, in any order; files of locations `spec` does not read are ignored.
pub fn enabled(spec: &PluginSpec, settings: &[(&str, &Map<String, Value>)]) -> Vec<String> {
    let mut merged: BTreeMap<&str, bool> = BTreeMap::new();
    for location in spec.enabled_in {
        for (_, top) in settings.iter().filter(|(l, _)| l == location) {
            if let Some(Value::Object(ids)) = top.get(spec.enabled_key) {
                for (id, on) in ids {
                    merged.insert(id, *on == Value::Bool(true));
                }
            }
        }
    }
    merged
        .into_iter()
        .filter(|(_, on)| *on)
        .map(|(id, _)| id.to_string())
        .collect()
}

/// The hook files of the enabled plugins the agent loads, with their IDs, in ID order. Reads
/// nothing when no plugin is enabled; otherwise the marketplace record, the catalogs of the
/// marketplaces named and, for plugins that load from an install, the install record.
fn loaded(home: &Path, spec: &PluginSpec, enabled: &[String]) -> Vec<(String, PathBuf)> {
    if enabled.is_empty() {
        return Vec::new();
    }
    let marketplaces = read_json(&home.join(spec.marketplaces));
    let mut registry: Option<Registry> = None;
    let mut catalogs: HashMap<&str, Option<Value>> = HashMap::new();
    let mut plugins = Vec::new();
    for id in enabled {
        let Some((name, market)) = id.rsplit_once('@') else {
            continue;
        };
        let Some(entry) = marketplaces.as_ref().and_then(|m| m.get(market)) else {
            continue;
        };
        let Some(location) = entry.get(spec.location_key).and_then(Value::as_str) else {
            continue;
        };
        let location = Path::new(location);
        let kind = entry
            .get(spec.source_key)
            .and_then(|s| s.get(spec.source_key))
            .and_then(Value::as_str);
        let catalog = catalogs
            .entry(market)
            .or_insert_with(|| read_json(&location.join(spec.catalog)));
        let listed = catalog
            .as_ref()
            .and_then(|c| c.get(spec.catalog_plugins_key))
            .and_then(Value::as_array)
            .and_then(|all| {
                all.iter()
                    .find(|p| p.get("name") == Some(&Value::from(name)))
            });
        let Some(listed) = listed else {
            continue;
        };
        let in_place = match listed.get(spec.source_key) {
            Some(Value::String(rel)) if kind.is_some_and(|k| spec.in_place_kinds.contains(&k)) => {
                Some(relative_below(location, rel))
            }
            _ => None,
        };
        let dir = match in_place {
            // A path leaving the marketplace folder loads nothing.
            Some(dir) => dir,
            None => registry
                .get_or_insert_with(|| Registry::read(home, spec))
                .install_dir(id),
        };
        if let Some(dir) = dir {
            plugins.push((id.clone(), dir.join(spec.hook_file)));
        }
    }
    plugins
}

/// Never on the run path: the hook files in the download folders, found by a walk bounded in
/// depth and directories entered.
fn downloads(home: &Path, spec: &PluginSpec) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in spec.downloads {
        let mut budget = WALK_BUDGET;
        walk(
            &home.join(dir),
            spec.hook_file,
            spec.download_depth,
            &mut budget,
            &mut files,
        );
    }
    files
}

/// Directories entered at most per download folder, so a huge tree cannot make `hookx list`
/// crawl.
const WALK_BUDGET: usize = 5_000;

/// `dir/rel` with `rel`'s `.` components dropped; `None` when `rel` is absolute or climbs out
/// with `..`.
fn relative_below(dir: &Path, rel: &str) -> Option<PathBuf> {
    let mut out = dir.to_path_buf();
    for component in Path::new(rel).components() {
        match component {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(out)
}

/// The install record: each plugin ID's install folders, in the record's order.
struct Registry {
    installs: HashMap<String, Vec<PathBuf>>,
}

impl Registry {
    /// An unreadable record, or one of another version, installs nothing.
    fn read(home: &Path, spec: &PluginSpec) -> Registry {
        let value = read_json(&home.join(spec.registry))
            .filter(|v| v.get("version").and_then(Value::as_u64) == Some(spec.registry_version));
        let installs = value
            .as_ref()
            .and_then(|v| v.get(spec.plugins_key))
            .and_then(Value::as_object)
            .map(|plugins| {
                plugins
                    .iter()
                    .map(|(id, records)| {
                        let dirs = records
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(|r| r.get(spec.install_path_key)?.as_str())
                            .map(PathBuf::from)
                            .collect();
                        (id.clone(), dirs)
                    })
                    .collect()
            })
            .unwrap_or_default();
        Registry { installs }
    }

    /// The folder the agent loads `id` from: its first install folder that exists.
    fn install_dir(&self, id: &str) -> Option<PathBuf> {
        self.installs
            .get(id)?
            .iter()
            .find(|dir| dir.is_dir())
            .cloned()
    }

    /// Whether some install record names `dir`.
    fn installs(&self, dir: &Path) -> bool {
        self.installs.values().flatten().any(|d| d == dir)
    }
}

/// A JSON file's value; `None` when it is missing, not a regular file, too large or not JSON.
fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_slice(&crate::read::bytes(path, crate::read::MAX_FILE_BYTES).ok()?).ok()
}

/// Every `dir/…/file` up to `depth` levels down, in name order; symlinked directories, `.git`
/// and `node_modules` are not entered.
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
