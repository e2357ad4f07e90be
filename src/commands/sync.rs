//! `hookx sync`: one hook set as the source of truth, every other agent's file generated from
//! it. The manifest (`.hookx/sync.toml`) names the source files and the targets; each target
//! is written through `convert --write`'s own code ([`super::convert`]); `.hookx/sync.lock`
//! records, per target, a digest of each entry sync wrote, so that a later hand edit of such an
//! entry is told from a change of the source, reported, and kept unless `--force`.
//! `--check` writes nothing and fails on a stale target (CI, pre-commit); `--dry-run` shows
//! the same diffs; `--watch` syncs again whenever a source changes.

use super::convert as conv;
use crate::config::{self, MARKER};
use crate::convert::loss::Loss;
use crate::discover::{self, Context};
use crate::error::Error;
use crate::plan;
use crate::tables::{Dialect, Scope};
use crate::trust::{TrustState, TrustStore};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The manifest, relative to the project.
pub const MANIFEST: &str = ".hookx/sync.toml";
/// What sync last wrote, relative to the project (committed beside the manifest).
pub const LOCK: &str = ".hookx/sync.lock";

/// What `hookx sync` is asked.
pub struct Options {
    pub ctx: Context,
    /// `--init --to A,B`: write a manifest naming these targets.
    pub init: Option<Vec<Dialect>>,
    /// Write nothing; exit 1 when a target is stale or has hand edits to hookx's entries.
    pub check: bool,
    /// Write nothing; show the diffs, exit 0.
    pub dry_run: bool,
    /// Overwrite entries hookx wrote that were edited by hand (and an existing manifest with
    /// `--init`).
    pub force: bool,
    /// Sync again whenever a source changes.
    pub watch: bool,
    /// With `watch`: stop after this many runs (tests).
    pub watch_runs: Option<usize>,
}

/// One source file of the manifest.
#[derive(Clone, Debug)]
struct SourceSpec {
    /// As written, relative to the project.
    path: String,
    from: Option<Dialect>,
}

/// One target of the manifest: an agent and `convert`'s options for it.
#[derive(Clone, Debug)]
struct TargetSpec {
    to: Dialect,
    /// The file (or script folder) written, relative to the project (`~/…`: to the home):
    /// `out`, else the agent's own file of `scope`.
    out: Option<String>,
    /// Which of the agent's own files: `project` (committed, the default), `local` (this
    /// machine's, not committed) or `user` (in the home).
    scope: Scope,
    wrap: bool,
    hookx: String,
}

#[derive(Clone, Debug)]
struct Manifest {
    sources: Vec<SourceSpec>,
    targets: Vec<TargetSpec>,
}

/// `.hookx/sync.lock`: the sources of the last sync, its targets, and per target file
/// (relative to the project) the digest of each entry it wrote there
/// ([`config::merge::Owned::digest`]), or
/// of the whole script for a script target's file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Lock {
    version: u32,
    #[serde(default)]
    sources: Vec<String>,
    /// Per target file or script folder, the agent it was written for: a target that leaves
    /// the manifest is found here, and its synced entries removed.
    #[serde(default)]
    agents: BTreeMap<String, String>,
    #[serde(default)]
    targets: BTreeMap<String, Vec<String>>,
}

/// `hookx sync`: the exit code.
pub fn command(opts: &Options) -> Result<i32, Error> {
    if let Some(to) = &opts.init {
        return init(opts, to);
    }
    if opts.watch {
        return watch(opts);
    }
    let outcome = sync_once(opts)?;
    for line in &outcome.report {
        errln!("{line}");
    }
    Ok(outcome.code)
}

/// What one sync did: the report's lines, a one-line summary and the exit code.
struct Outcome {
    report: Vec<String>,
    summary: Vec<String>,
    code: i32,
}

/// The manifest's path in the project.
fn manifest_path(ctx: &Context) -> PathBuf {
    ctx.project.join(MANIFEST)
}

/// Reads and checks the manifest.
fn read_manifest(ctx: &Context) -> Result<Manifest, Error> {
    let path = manifest_path(ctx);
    let shown = MANIFEST.to_string();
    let text = match crate::read::text(&path, crate::read::MAX_FILE_BYTES) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::Usage(format!(
                "{shown}: no sync manifest in this project; write one with `hookx sync --init --to AGENT,…`"
            )));
        }
        Err(e) => {
            return Err(Error::Io {
                path: shown,
                message: e.to_string(),
            });
        }
    };
    parse_manifest(&shown, &text)
}

/// The manifest in `text` (shown as `shown`); an error names the line and column.
fn parse_manifest(shown: &str, text: &str) -> Result<Manifest, Error> {
    use toml_edit::Item;
    let at = |span: Option<std::ops::Range<usize>>, message: String| {
        let (line, col) = crate::positions::line_col(text, span.map_or(0, |s| s.start));
        Error::Io {
            path: format!("{shown}:{line}:{col}"),
            message,
        }
    };
    let doc = toml_edit::Document::parse(text).map_err(|e| {
        at(
            e.span(),
            format!("not TOML: {}", e.message().trim_end_matches('\n')),
        )
    })?;
    let root = doc.as_table();
    for (key, item) in root.iter() {
        if !["version", "sources", "targets"].contains(&key) {
            return Err(at(
                item.span(),
                format!("unknown key `{key}` (known: version, sources, targets)"),
            ));
        }
    }
    if let Some(version) = root.get("version")
        && version.as_integer() != Some(1)
    {
        return Err(at(
            version.span(),
            "`version` must be 1 (the manifest format this hookx writes)".into(),
        ));
    }
    let dialect = |name: &str, span| {
        Dialect::named(name).ok_or_else(|| {
            let known: Vec<&str> = Dialect::all().iter().map(|d| d.name()).collect();
            at(
                span,
                format!("unknown agent `{name}` (known: {})", known.join(", ")),
            )
        })
    };
    let mut sources = Vec::new();
    match root.get("sources") {
        None => {
            return Err(at(
                None,
                "no `sources` (the hook files to sync from)".into(),
            ));
        }
        Some(Item::Value(toml_edit::Value::Array(list))) => {
            for value in list.iter() {
                let spec = match value {
                    toml_edit::Value::String(s) if !relative_inside(s.value()) => {
                        return Err(at(value.span(), leaves_text("a source", s.value())));
                    }
                    toml_edit::Value::String(s) => SourceSpec {
                        path: s.value().clone(),
                        from: None,
                    },
                    toml_edit::Value::InlineTable(t) => {
                        for (key, v) in t.iter() {
                            if !["path", "from"].contains(&key) {
                                return Err(at(
                                    v.span(),
                                    format!("unknown key `{key}` of a source (known: path, from)"),
                                ));
                            }
                        }
                        let path = t.get("path").and_then(|p| p.as_str()).ok_or_else(|| {
                            at(value.span(), "a source needs `path = \"FILE\"`".into())
                        })?;
                        let from = match t.get("from") {
                            Some(f) => Some(dialect(
                                f.as_str().ok_or_else(|| {
                                    at(f.span(), "`from` is an agent's name".into())
                                })?,
                                f.span(),
                            )?),
                            None => None,
                        };
                        if !relative_inside(path) {
                            return Err(at(
                                t.get("path").and_then(|p| p.span()),
                                leaves_text("a source", path),
                            ));
                        }
                        SourceSpec {
                            path: path.to_string(),
                            from,
                        }
                    }
                    other => {
                        return Err(at(
                            other.span(),
                            "a source is a path or `{ path = \"FILE\", from = \"AGENT\" }`".into(),
                        ));
                    }
                };
                sources.push(spec);
            }
        }
        Some(other) => {
            return Err(at(other.span(), "`sources` is a list of hook files".into()));
        }
    }
    if sources.is_empty() {
        return Err(at(
            root.get("sources").and_then(Item::span),
            "`sources` is empty: name the hook files to sync from".into(),
        ));
    }
    let mut targets = Vec::new();
    let Some(table) = root.get("targets").and_then(Item::as_table_like) else {
        return Err(at(
            root.get("targets").and_then(Item::span),
            "no `[targets.AGENT]` table (the agents to write for)".into(),
        ));
    };
    for (name, item) in table.iter() {
        let to = dialect(name, item.span())?;
        let Some(options) = item.as_table_like() else {
            return Err(at(
                item.span(),
                format!("`targets.{name}` is a table of options"),
            ));
        };
        let mut spec = TargetSpec {
            to,
            out: None,
            scope: Scope::Project,
            wrap: true,
            hookx: "hookx".into(),
        };
        let mut scope_span = None;
        for (key, value) in options.iter() {
            match (key, value) {
                ("out", v) if v.as_str().is_some_and(|p| !relative_inside(p)) => {
                    return Err(at(
                        v.span(),
                        leaves_text("`out`", v.as_str().unwrap_or_default()),
                    ));
                }
                ("out", v) if v.as_str().is_some() => spec.out = v.as_str().map(str::to_string),
                ("scope", v) => {
                    let named = v.as_str().unwrap_or_default();
                    spec.scope = [Scope::Project, Scope::Local, Scope::User]
                        .into_iter()
                        .find(|s| s.name() == named)
                        .ok_or_else(|| {
                            at(
                                v.span(),
                                "`scope` is \"project\", \"local\" or \"user\"".into(),
                            )
                        })?;
                    if scope_file(to, spec.scope).is_none() {
                        return Err(at(
                            v.span(),
                            format!(
                                "{} has no {} hook file (it has: {})",
                                to.def().display,
                                spec.scope.name(),
                                scopes_of(to).join(", ")
                            ),
                        ));
                    }
                    scope_span = v.span();
                }
                ("wrap", v) if v.as_bool().is_some() => spec.wrap = v.as_bool() == Some(true),
                ("hookx", v) if v.as_str().is_some() => {
                    spec.hookx = v.as_str().unwrap_or_default().to_string()
                }
                ("out" | "hookx", v) => {
                    return Err(at(v.span(), format!("`{key}` is a string")));
                }
                ("wrap", v) => return Err(at(v.span(), "`wrap` is true or false".into())),
                (_, v) => {
                    return Err(at(
                        v.span(),
                        format!(
                            "unknown option `{key}` of a target (known: scope, out, wrap, hookx)"
                        ),
                    ));
                }
            }
        }
        if spec.out.is_some() && scope_span.is_some() {
            return Err(at(
                scope_span,
                format!(
                    "`targets.{name}` has both `out` and `scope`: `out` names any file, `scope` one of the agent's own; give one"
                ),
            ));
        }
        targets.push(spec);
    }
    if targets.is_empty() {
        return Err(at(
            root.get("targets").and_then(Item::span),
            "no targets: add a `[targets.AGENT]` table".into(),
        ));
    }
    Ok(Manifest { sources, targets })
}

/// Whether a path of the manifest names a place inside the project: relative, with no `..`
/// (the manifest comes with the repository, which may not make sync read or write elsewhere).
fn relative_inside(path: &str) -> bool {
    !path.is_empty()
        && !path.starts_with('~')
        && Path::new(path).components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        })
}

fn leaves_text(what: &str, path: &str) -> String {
    format!(
        "{what} `{path}` is not inside the project: the manifest names paths relative to the project, without `..` (sync reads and writes only there)"
    )
}

/// [`stays_inside`] for a target's path, except the agent's own file in the home that a
/// target's `scope = "user"` names (`~/…`).
fn stays_inside_unless_home(ctx: &Context, rel: &str) -> Result<(), Error> {
    match rel.starts_with("~/") {
        true => Ok(()),
        false => stays_inside(ctx, rel),
    }
}

/// Refuses a manifest path (`rel`) that leads out of the project through a symbolic link the
/// repository ships ([`config::confine::leaves`]).
fn stays_inside(ctx: &Context, rel: &str) -> Result<(), Error> {
    match config::confine::leaves(&ctx.project, &ctx.project.join(rel)) {
        None => Ok(()),
        Some(why) => Err(Error::Io {
            path: rel.to_string(),
            message: format!(
                "{why}: sync reads and writes only inside the project; remove the link"
            ),
        }),
    }
}

/// The target's file (or script folder), relative to the project, or `~/…` in the home.
fn target_rel(spec: &TargetSpec) -> String {
    spec.out.clone().unwrap_or_else(|| {
        scope_file(spec.to, spec.scope)
            .unwrap_or_else(|| spec.to.config().convert_target.to_string())
    })
}

/// Where a target's file (as [`target_rel`] names it) is: `~/…` in the home.
fn target_path(ctx: &Context, rel: &str) -> PathBuf {
    match rel.strip_prefix("~/") {
        Some(rest) => ctx.home.join(rest),
        None => ctx.project.join(rel),
    }
}

/// The agent's own hook file (or script folder) of `scope`, as [`target_rel`] names it: the
/// project's is where `convert --write` writes; the others are the first of the agent's
/// locations of that scope that names one file or folder (in a folder of hook files, the
/// file `convert --write` would name there).
fn scope_file(to: Dialect, scope: Scope) -> Option<String> {
    use crate::tables::{Pattern, Root};
    if scope == Scope::Project {
        return Some(to.config().convert_target.to_string());
    }
    to.def().locations.iter().find_map(|l| {
        if l.scope != scope {
            return None;
        }
        let file = match l.pattern {
            Pattern::File(f) | Pattern::Scripts(f) => f.to_string(),
            Pattern::Dir { dir, suffix } => {
                let name = Path::new(to.config().convert_target)
                    .file_name()?
                    .to_str()?;
                name.ends_with(suffix).then(|| format!("{dir}/{name}"))?
            }
            _ => return None,
        };
        match l.root {
            Root::Project => Some(file),
            Root::Home => Some(format!("~/{file}")),
            Root::Managed => None,
        }
    })
}

/// The scopes a target may name for `to`, each with its file.
fn scopes_of(to: Dialect) -> Vec<String> {
    [Scope::Project, Scope::Local, Scope::User]
        .into_iter()
        .filter_map(|s| {
            let file = scope_file(to, s)?;
            Some(match s {
                Scope::Project => format!("project {file} (committed)"),
                Scope::Local => format!("local {file} (not committed)"),
                _ => format!("{} {file}", s.name()),
            })
        })
        .collect()
}

/// `hookx sync --init --to A,B`: the manifest, naming as sources the project's hook files
/// `hookx list` finds that are not the output of hookx nor a target's file.
fn init(opts: &Options, to: &[Dialect]) -> Result<i32, Error> {
    let path = manifest_path(&opts.ctx);
    stays_inside(&opts.ctx, MANIFEST)?;
    if path.exists() && !opts.force {
        return Err(Error::Usage(format!(
            "{MANIFEST} exists; edit it, or write it afresh with --force"
        )));
    }
    if to.is_empty() {
        return Err(Error::Usage(
            "--init needs the targets: --to AGENT,…".into(),
        ));
    }
    let targets: Vec<String> = to
        .iter()
        .map(|d| d.config().convert_target.to_string())
        .collect();
    let mut chosen = Vec::new();
    let mut skipped = Vec::new();
    // The files chosen so far, by what each handler of theirs runs ([`plan::copy_signature`]).
    let mut signatures: HashMap<(String, String), String> = HashMap::new();
    let mut copies = Vec::new();
    for source in discover::discover(&opts.ctx) {
        if source.scope != Scope::Project {
            continue;
        }
        let shown = source.display.clone();
        if targets
            .iter()
            .any(|t| crate::context::same_place(&opts.ctx.project.join(t), &source.path))
        {
            skipped.push(format!("{shown}: a target's own file"));
            continue;
        }
        let Some(doc) = source.document() else {
            skipped.push(format!(
                "{shown}: {}",
                source.error_line().unwrap_or_else(|| "unreadable".into())
            ));
            continue;
        };
        let handlers: Vec<_> = doc.rules.iter().flat_map(|r| &r.handlers).collect();
        if handlers.is_empty() {
            continue;
        }
        if handlers
            .iter()
            .all(|h| h.extra.contains_key(MARKER) || crate::route::is_hookx_handler(h))
        {
            skipped.push(format!("{shown}: written by hookx (convert or install)"));
            continue;
        }
        // A file that only repeats, by hand, rules of a source already chosen: listed too,
        // each target would hold every copy and run the rule once per copy (attacks row 920).
        let mine: Vec<_> = doc
            .rules
            .iter()
            .flat_map(|r| r.handlers.iter().map(move |h| plan::copy_signature(r, h)))
            .collect();
        let of: Option<BTreeSet<&String>> = mine
            .iter()
            .map(|s| s.as_ref().and_then(|s| signatures.get(s)))
            .collect();
        if let Some(of) = of {
            let of: Vec<&str> = of.into_iter().map(String::as_str).collect();
            copies.push((shown, source.dialect, of.join(", ")));
            continue;
        }
        for signature in mine.into_iter().flatten() {
            signatures.entry(signature).or_insert_with(|| shown.clone());
        }
        chosen.push((shown, source.dialect));
    }
    if chosen.is_empty() {
        return Err(Error::Usage(format!(
            "no project hook file to sync from (see `hookx list`){}",
            if skipped.is_empty() {
                String::new()
            } else {
                format!("; skipped: {}", skipped.join("; "))
            }
        )));
    }
    let text = manifest_text(&chosen, &copies, to);
    config::update::update(&path, |_| Ok(config::update::Change::Write(text.clone())))?;
    errln!("wrote {MANIFEST}");
    for s in &skipped {
        errln!("not a source: {s}");
    }
    for (shown, _, of) in &copies {
        errln!(
            "not a source: {shown}: {}; listed too, each target would hold the rule once per \
             copy and run it as often (its line in {MANIFEST} is left commented)",
            copy_note(of)
        );
    }
    errln!("next: `hookx sync`, then commit {MANIFEST}, {LOCK} and the files it writes");
    Ok(0)
}

/// Why `--init` leaves out a file whose every rule is a copy of one in `of` (files, shown).
fn copy_note(of: &str) -> String {
    format!(
        "every rule of it is likely a copy made by hand of one in {of} (the same event and \
         command, as `hookx doctor` notes)"
    )
}

/// The manifest `--init` writes: a comment on every line; the files left out as copies
/// (path, agent, the files they copy) as lines commented out.
fn manifest_text(
    sources: &[(String, Dialect)],
    copies: &[(String, Dialect, String)],
    targets: &[Dialect],
) -> String {
    let mut text = String::new();
    text.push_str("# hookx sync manifest: the sources are the hook set; each target is generated from them.\n");
    text.push_str(
        "# `hookx sync` writes the targets, `hookx sync --check` fails when one is stale (CI).\n",
    );
    text.push_str("version = 1  # the format of this file\n");
    text.push_str(
        "sources = [  # the hook files you edit, relative to the project (any agent's)\n",
    );
    for (path, dialect) in sources {
        let entry = format!(
            "  {{ path = {}, from = \"{}\" }},",
            toml_string(path),
            dialect.name()
        );
        text.push_str(&format!("{entry}  # {} hooks\n", dialect.def().display));
    }
    for (path, dialect, of) in copies {
        text.push_str(&format!(
            "  # {{ path = {}, from = \"{}\" }},  # left out: {}\n",
            toml_string(path),
            dialect.name(),
            copy_note(of)
        ));
    }
    text.push_str("]  # end of the sources\n");
    for d in targets {
        text.push_str(&format!(
            "\n[targets.{}]  # write {} hooks\n",
            d.name(),
            d.def().display
        ));
        let whole = match d.config().generated {
            Some(_) => " (a plugin hookx writes whole; one of your own there is left alone)",
            None => "",
        };
        text.push_str(&format!(
            "scope = \"project\"  # the file written: {}{whole}; or out = \"FILE\" for another\n",
            scopes_of(*d).join(", ")
        ));
        text.push_str(
            "wrap = true  # false: handlers as written, with the target's payload (convert --no-wrap)\n",
        );
        text.push_str(
            "hookx = \"hookx\"  # the hookx command wrapped handlers call (convert --hookx)\n",
        );
    }
    text
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// One file of a target: what it holds and what sync would make of it.
struct FilePlan {
    path: PathBuf,
    /// Relative to the project.
    shown: String,
    before: Option<String>,
    /// `None`: no file (nothing converts, and there is none; or the file sync wrote goes).
    after: Option<String>,
}

/// An entry hookx wrote that was edited by hand since.
struct HandEdit {
    /// `FILE:LINE:COL`.
    at: String,
    what: String,
}

/// Everything one target needs: its conversion, files, hand edits.
struct TargetPlan<'a> {
    spec: &'a TargetSpec,
    rel: String,
    conversion: crate::convert::Conversion,
    files: Vec<FilePlan>,
    edits: Vec<HandEdit>,
    /// A target the manifest no longer names, whose synced entries go.
    removed: bool,
}

impl TargetPlan<'_> {
    fn stale(&self) -> bool {
        self.files.iter().any(|f| f.after != f.before)
    }
}

fn read_lock(ctx: &Context) -> Result<Lock, Error> {
    let path = ctx.project.join(LOCK);
    match crate::read::text(&path, crate::read::MAX_FILE_BYTES) {
        Ok(text) => serde_json::from_str(&text).map_err(|e| Error::Io {
            path: format!("{LOCK}:{}:{}", e.line(), e.column()),
            message: format!("is not a hookx sync lock ({e}); delete it to start afresh"),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Lock::default()),
        Err(e) => Err(Error::Io {
            path: LOCK.into(),
            message: e.to_string(),
        }),
    }
}

/// The convert options of a target, as `convert --write` takes them.
fn convert_options(ctx: &Context, manifest: &Manifest, spec: &TargetSpec) -> conv::Options {
    conv::Options {
        files: manifest
            .sources
            .iter()
            .map(|s| source_path(ctx, &s.path))
            .collect(),
        from: None,
        to: vec![spec.to],
        out: Some(target_path(ctx, &target_rel(spec))),
        write: true,
        dry_run: false,
        project: ctx.project.clone(),
        strict: false,
        wrap: spec.wrap,
        hookx: spec.hookx.clone(),
        json: true,
        // Sync tells hand edits by its lock, and writes only when there are none or --force.
        force: true,
    }
}

/// A source's path as reports show it: relative to the working directory when under it.
fn source_path(ctx: &Context, rel: &str) -> PathBuf {
    let path = ctx.project.join(rel);
    std::env::current_dir()
        .ok()
        .and_then(|cwd| path.strip_prefix(cwd).ok().map(Path::to_path_buf))
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(path)
}

/// Reads every source: one [`conv::Inputs`] per dialect given (`from`), in manifest order.
fn read_sources(ctx: &Context, manifest: &Manifest) -> Result<conv::Inputs, Error> {
    let mut all: Option<conv::Inputs> = None;
    for source in &manifest.sources {
        let path = source_path(ctx, &source.path);
        let read = conv::read_inputs(std::slice::from_ref(&path), source.from)?;
        match &mut all {
            None => all = Some(read),
            Some(all) => {
                let conv::Inputs {
                    mut loaded,
                    unread,
                    unread_errors,
                } = read;
                all.loaded.append(&mut loaded);
                all.unread.extend(unread);
                all.unread_errors.extend(unread_errors);
            }
        }
    }
    all.ok_or_else(|| Error::Usage("the manifest names no source".into()))
}

/// One sync (or check, or dry run) of every target.
fn sync_once(opts: &Options) -> Result<Outcome, Error> {
    let ctx = &opts.ctx;
    let manifest = read_manifest(ctx)?;
    stays_inside(ctx, LOCK)?;
    for (i, source) in manifest.sources.iter().enumerate() {
        stays_inside(ctx, &source.path)?;
        // One file listed twice would be converted twice: each rule twice in every target
        // (attacks row 543).
        let path = ctx.project.join(&source.path);
        if let Some(first) = manifest.sources[..i]
            .iter()
            .find(|s| crate::context::same_place(&ctx.project.join(&s.path), &path))
        {
            return Err(Error::Usage(format!(
                "{MANIFEST}: the source {} is {} listed twice; list each file once",
                source.path, first.path
            )));
        }
    }
    // Two targets writing one file take each other's entries out in turn (attacks row 544).
    for (i, spec) in manifest.targets.iter().enumerate() {
        let target = target_path(ctx, &target_rel(spec));
        if let Some(first) = manifest.targets[..i]
            .iter()
            .find(|t| crate::context::same_place(&target_path(ctx, &target_rel(t)), &target))
        {
            return Err(Error::Usage(format!(
                "{MANIFEST}: the {} and {} targets name one file, {}, twice; a file is one agent's",
                first.to,
                spec.to,
                target_rel(spec)
            )));
        }
    }
    for spec in &manifest.targets {
        let rel = target_rel(spec);
        stays_inside_unless_home(ctx, &rel)?;
        let target = target_path(ctx, &rel);
        if [MANIFEST, LOCK]
            .iter()
            .any(|own| crate::context::same_place(&ctx.project.join(own), &target))
        {
            return Err(Error::Usage(format!(
                "{MANIFEST}: the {} target's file {rel} is sync's own; name the agent's hook file",
                spec.to
            )));
        }
    }
    let lock = read_lock(ctx)?;
    let inputs = read_sources(ctx, &manifest)?;
    for spec in &manifest.targets {
        let target = target_path(ctx, &target_rel(spec));
        if let Some(s) = manifest
            .sources
            .iter()
            .find(|s| crate::context::same_place(&ctx.project.join(&s.path), &target))
        {
            return Err(Error::Usage(format!(
                "{MANIFEST}: the {} target's file {} is also a source; a file is either edited or generated",
                spec.to, s.path
            )));
        }
    }
    // The entries of these sources are sync's, and so are those of sources an earlier sync
    // had (their entries go when the source leaves the manifest).
    let mut owned: Vec<String> = manifest
        .sources
        .iter()
        .map(|s| ctx.project.join(&s.path).display().to_string())
        .collect();
    for old in &lock.sources {
        let path = ctx.project.join(old).display().to_string();
        if !owned.contains(&path) {
            owned.push(path);
        }
    }
    let owned_refs: Vec<&str> = owned.iter().map(String::as_str).collect();
    let found: Vec<Option<discover::Source>> = manifest
        .sources
        .iter()
        .map(|s| discover::find(ctx, &ctx.project.join(&s.path)).ok())
        .collect();
    // Targets an earlier sync wrote that the manifest no longer names: their synced entries
    // (and files left with nothing else) go, as a source's rule that is gone does. A file
    // that has since become a source is left as it is.
    let current: Vec<String> = manifest.targets.iter().map(target_rel).collect();
    let removed: Vec<TargetSpec> = lock
        .agents
        .iter()
        .filter(|(rel, _)| !current.contains(rel))
        .filter(|(rel, _)| {
            !manifest.sources.iter().any(|s| {
                crate::context::same_place(&ctx.project.join(&s.path), &target_path(ctx, rel))
            })
        })
        .filter_map(|(rel, agent)| {
            Some(TargetSpec {
                to: Dialect::named(agent)?,
                out: Some(rel.clone()),
                scope: Scope::Project,
                wrap: true,
                hookx: "hookx".into(),
            })
        })
        .collect();
    let mut plans = Vec::new();
    // Per target, the notes on what is not copied into it: the agent runs it itself.
    let mut not_copied = Vec::new();
    // Targets sync cannot write (one it cannot read, a file it would refuse): sync plans every
    // target before it writes any, and writes none while one is refused, each named (attacks
    // row 581: the first one's error alone stopped the others, unnamed; a Cline target was
    // passed over instead, "nothing to write").
    let mut refusals = Vec::new();
    for spec in &manifest.targets {
        let copts = convert_options(ctx, &manifest, spec);
        // A source the target's agent reads itself is not copied for it: the agent would run
        // each of its rules twice (issue 24's plan: each rule once per agent).
        let native: Vec<usize> = found
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                f.as_ref()
                    .is_some_and(|f| discover::runner(spec.to, f) == discover::Runner::Native)
            })
            .map(|(i, _)| i)
            .collect();
        // Nor are a source's copies of the target's own rules (attacks row 252).
        let homeward = conv::without_copies_of(&copts, &inputs, spec.to);
        let inputs_here = homeward.as_ref().map_or(&inputs, |(read, _)| read);
        // Nor a rule the agent runs itself from another file it reads: a Gemini source's copy
        // of a Claude rule, for Copilot (attacks row 1101, as `convert --write`: row 880).
        let target = target_path(ctx, &target_rel(spec));
        let elsewhere =
            conv::without_rules_run_elsewhere(&ctx.project, inputs_here, spec.to, &target);
        let inputs_here = elsewhere.as_ref().map_or(inputs_here, |(read, ..)| read);
        let conversion = match native.is_empty() {
            true => conv::conversion(inputs_here, &copts, spec.to),
            false => {
                let some = conv::without(inputs_here, &native);
                let conversion = conv::conversion(&some, &copts, spec.to);
                drop(std::mem::ManuallyDrop::into_inner(some.loaded));
                conversion
            }
        };
        let display = spec.to.def().display;
        let mut notes: Vec<String> = native
            .iter()
            .map(|&i| {
                format!(
                    "  note: {display} reads {} itself: its rules are not copied here, so that each runs once",
                    manifest.sources[i].path
                )
            })
            .collect();
        if let Some((read, handlers, files)) = elsewhere {
            drop(std::mem::ManuallyDrop::into_inner(read.loaded));
            notes.push(format!(
                "  note: {handlers} handler(s) of the sources are rules {display} already runs \
                 itself from {}: not copied here, so that each runs once",
                files.join(", ")
            ));
        }
        if let Some((read, _)) = homeward {
            drop(std::mem::ManuallyDrop::into_inner(read.loaded));
        }
        let conversion = conversion?;
        not_copied.push(notes);
        match plan(ctx, spec, conversion, &owned_refs, &lock, false) {
            Ok(plan) => plans.push(plan),
            Err(e) => refusals.push((spec.to, target_rel(spec), e)),
        }
    }
    for spec in &removed {
        let copts = convert_options(ctx, &manifest, spec);
        let all: Vec<usize> = (0..manifest.sources.len()).collect();
        let none = conv::without(&inputs, &all);
        let conversion = conv::conversion(&none, &copts, spec.to);
        drop(std::mem::ManuallyDrop::into_inner(none.loaded));
        not_copied.push(Vec::new());
        match plan(ctx, spec, conversion?, &owned_refs, &lock, true) {
            Ok(plan) => plans.push(plan),
            Err(e) => refusals.push((spec.to, target_rel(spec), e)),
        }
    }
    // Read again for the next run of `--watch`; the conversions own what they need.
    drop(std::mem::ManuallyDrop::into_inner(inputs.loaded));
    if !refusals.is_empty() {
        return Ok(refused(opts, &refusals));
    }
    let mut report = Vec::new();
    let mut summary = Vec::new();
    let mut code = 0;
    let mut new_lock = Lock {
        version: 1,
        sources: manifest.sources.iter().map(|s| s.path.clone()).collect(),
        agents: lock.agents.clone(),
        targets: lock.targets.clone(),
    };
    let store = TrustStore::load(ctx);
    let mut store_changed = false;
    let mut store = store.ok();
    let untrusted: Vec<(String, TrustState)> = manifest
        .sources
        .iter()
        .map(|s| {
            let state = discover::find(ctx, &ctx.project.join(&s.path))
                .ok()
                .zip(store.as_ref())
                .map_or(TrustState::Untrusted, |(found, store)| store.state(&found));
            (s.path.clone(), state)
        })
        .filter(|(_, state)| *state != TrustState::Trusted)
        .collect();
    // A source the manifest reads as another agent's than the one it was reviewed as: its
    // handlers would run with that agent's payload and answer rules, not those reviewed.
    let misread: Option<String> = manifest.sources.iter().find_map(|s| {
        let from = s.from?;
        let found = discover::find(ctx, &ctx.project.join(&s.path)).ok()?;
        (found.dialect != from).then(|| {
            format!(
                "  not trusted for `hookx run`: the manifest reads its source {} as {from}'s, but it is {}'s (as reviewed); fix `from` in {MANIFEST}",
                s.path, found.dialect
            )
        })
    });
    let mut stale_seen = false;
    for (plan, native_lines) in plans.iter().zip(&not_copied) {
        let name = plan.spec.to.name();
        let head = match plan.removed {
            false => format!("{name}: {}", plan.rel),
            true => format!("{name}: {}: no longer a target", plan.rel),
        };
        let nothing = plan
            .files
            .iter()
            .all(|f| f.after.is_none() && f.before.is_none());
        let losses = &plan.conversion.losses;
        let loss_text = match losses.len() {
            0 => String::new(),
            1 => ", 1 loss".into(),
            n => format!(", {n} losses"),
        };
        let off_lines = copies_turned_off(ctx, plan);
        if opts.check || opts.dry_run {
            for file in plan.files.iter().filter(|f| f.after != f.before) {
                out!("{}", diff(file));
            }
            if opts.check && !off_lines.is_empty() {
                code = 1;
            }
            let state = match (plan.stale(), plan.edits.is_empty()) {
                (false, true) => "up to date".to_string(),
                (true, true) => match opts.check {
                    true => "stale (the diff above is what `hookx sync` writes)".into(),
                    false => "would be written (the diff above)".into(),
                },
                (_, false) => format!(
                    "{} hookx entr{} edited by hand",
                    plan.edits.len(),
                    if plan.edits.len() == 1 { "y" } else { "ies" }
                ),
            };
            if opts.check && (plan.stale() || !plan.edits.is_empty()) {
                code = 1;
                stale_seen = true;
            }
            let state = match nothing {
                true => "nothing to write".to_string(),
                false => state,
            };
            summary.push(format!("{name} {}", short_state(&state)));
            report.push(format!("{head}: {state}{loss_text}"));
            report.extend(native_lines.iter().cloned());
            report.extend(hand_copy_lines(plan, &manifest.sources, &owned_refs));
            report.extend(edit_lines(plan));
            report.extend(off_lines);
            report.extend(loss_lines(losses));
            continue;
        }
        if plan.rel.starts_with("~/")
            && let Some(why) = home_refusal(plan, &untrusted)
        {
            // The manifest comes with the repository: a file in the home (`scope = "user"`)
            // is one the agent runs in every project, without asking.
            code = 1;
            summary.push(format!("{name} not written"));
            report.push(format!("{head}: not written: {why}"));
            continue;
        }
        if !plan.edits.is_empty() && !opts.force {
            code = 1;
            summary.push(format!("{name} hand-edited"));
            report.push(format!(
                "{head}: not written: {} hookx entr{} edited by hand (move the change into the source, or --force to overwrite)",
                plan.edits.len(),
                if plan.edits.len() == 1 { "y was" } else { "ies were" }
            ));
            report.extend(edit_lines(plan));
            continue;
        }
        let copts = convert_options(ctx, &manifest, plan.spec);
        let mut kept_reviews = None;
        let reviewed = untrusted.is_empty() && misread.is_none();
        let written = write_target(&copts, plan, &owned_refs, reviewed, &mut kept_reviews)?;
        let state = match (written, nothing, plan.removed) {
            (true, _, false) => "written",
            (false, true, false) => "nothing to write",
            (false, false, false) => "up to date",
            (true, _, true) if plan.files.iter().all(|f| f.after.is_none()) => {
                "removed (it held nothing but synced hooks)"
            }
            (true, _, true) => "its synced hooks removed",
            (false, _, true) => "nothing synced left in it",
        };
        let short = match plan.removed {
            true => "removed",
            false => state,
        };
        summary.push(format!("{name} {short}"));
        report.push(format!("{head}: {state}{loss_text}"));
        report.extend(native_lines.iter().cloned());
        report.extend(hand_copy_lines(plan, &manifest.sources, &owned_refs));
        report.extend(off_lines);
        report.extend(loss_lines(losses));
        if plan.removed {
            // Nothing of it is sync's any more.
            let folder = format!("{}/", plan.rel.trim_end_matches('/'));
            new_lock
                .targets
                .retain(|k, _| *k != plan.rel && !k.starts_with(&folder));
            new_lock.agents.remove(&plan.rel);
            continue;
        }
        new_lock
            .agents
            .insert(plan.rel.clone(), plan.spec.to.name().to_string());
        // What sync wrote, for telling a later hand edit.
        for file in &plan.files {
            let now = crate::read::text(&file.path, crate::read::MAX_FILE_BYTES).ok();
            let scripts = plan.spec.to.config().scripts.is_some();
            match now {
                // A plugin is one entry: its whole text.
                Some(text) if plan.spec.to.config().generated.is_some() => {
                    let digest = crate::hash::sha256_hex(text.as_bytes());
                    new_lock.targets.insert(file.shown.clone(), vec![digest]);
                }
                Some(text) if scripts && config::scripts::is_converted(&text) => {
                    let digest = crate::hash::sha256_hex(text.as_bytes());
                    new_lock.targets.insert(file.shown.clone(), vec![digest]);
                }
                Some(text) if !scripts => {
                    let sources = owned_sources(&file.path, &owned_refs);
                    let mut digests: Vec<String> = config::merge::owned_entries(&text, &sources)
                        .into_iter()
                        .map(|o| o.digest)
                        .collect();
                    digests.sort();
                    new_lock.targets.insert(file.shown.clone(), digests);
                }
                _ => {
                    new_lock.targets.remove(&file.shown);
                }
            }
        }
        if let Some(store) = &mut store {
            let (changed, line) = match &misread {
                Some(line) => (false, Some(line.clone())),
                None => trust_target(ctx, store, plan, &untrusted, &owned_refs),
            };
            store_changed |= changed;
            report.extend(line);
        }
        report.extend(kept_reviews.map(|l| format!("  {l}")));
        // Copies the agent skips until its user reviews them (Codex, attacks row 442); the
        // reviews are each user's own, so `--check` (CI) leaves them out.
        if !plan.removed && !opts.check {
            for file in plan.files.iter().filter(|f| f.path.exists()) {
                let line = super::convert::unreviewed(ctx, plan.spec.to, &file.path);
                report.extend(line.map(|l| format!("  {l}")));
            }
        }
    }
    if !opts.check && !opts.dry_run {
        if new_lock != lock {
            let mut text = serde_json::to_string_pretty(&new_lock).unwrap_or_default();
            text.push('\n');
            config::update::update(&ctx.project.join(LOCK), |_| {
                Ok(config::update::Change::Write(text.clone()))
            })?;
        }
        if store_changed && let Some(store) = &store {
            store.save()?;
        }
    }
    if opts.check && stale_seen {
        report.push("stale: run `hookx sync` and commit the result".into());
    }
    Ok(Outcome {
        report,
        summary,
        code,
    })
}

/// The outcome of a sync that writes nothing because some `targets` cannot be written: each,
/// with why; `--check` and `--dry-run` fail the same way (the target cannot be in sync).
fn refused(opts: &Options, targets: &[(Dialect, String, Error)]) -> Outcome {
    let mut report = Vec::new();
    for (to, rel, e) in targets {
        report.push(format!("{to}: {rel}: cannot be written:"));
        report.extend(e.to_string().lines().map(|l| format!("  {l}")));
    }
    report.push(match opts.check || opts.dry_run {
        true => "not in sync: `hookx sync` cannot write the target(s) above".into(),
        false => "nothing written: sync writes every target or none; fix the above, then run `hookx sync` again".into(),
    });
    Outcome {
        report,
        summary: targets
            .iter()
            .map(|(to, ..)| format!("{to} refused"))
            .collect(),
        code: 1,
    }
}

/// A state in one or two words, for `--watch`'s line.
/// The copies a target's own list of handlers the agent never runs names (Gemini's
/// `hooksConfig.disabled`, which Gemini's `/hooks disable` writes into the project's file,
/// the target itself: attacks row 402), or its whole-file switch turns off ([`switched_off`]).
/// sync keeps the list and the switch (row 329), and the file is as sync writes it, but the
/// source's rule then runs nowhere under that agent, for everyone who checks the file out:
/// `--check` fails on it.
fn copies_turned_off(ctx: &Context, plan: &TargetPlan) -> Vec<String> {
    if plan.removed {
        return Vec::new();
    }
    let mut lines = switched_off(ctx, plan);
    let to = plan.spec.to;
    let Some(off) = &to.def().disabled_handlers else {
        return lines;
    };
    let copy = |h: &Value| h.get(config::MARKER)?.get("source").map(|_| String::new());
    lines.extend(plan.files
        .iter()
        .filter_map(|f| {
            let text = f.after.as_deref().or(f.before.as_deref())?;
            let labels = config::disabled::listed(off, text, &copy);
            (!labels.is_empty()).then(|| {
                format!(
                    "  {}: {} synced cop{} turned off in its `{}.{}` ({} runs {} nowhere): take {} out of that list, or the rule{} out of the source",
                    f.shown,
                    labels.len(),
                    if labels.len() == 1 { "y" } else { "ies" },
                    off.key,
                    off.inner,
                    to.def().display,
                    if labels.len() == 1 { "it" } else { "them" },
                    if labels.len() == 1 { "it" } else { "them" },
                    if labels.len() == 1 { "" } else { "s" },
                )
            })
        }));
    lines
}

/// The target files whose own whole-file switch turns every hook in them off (Claude's
/// `disableAllHooks: true`, Gemini's `hooksConfig.enabled: false`, where the agent reads the
/// switch in that file): each synced copy there runs nowhere under the agent, for everyone
/// who checks the file out (attacks row 402's leftover), as with the list above.
fn switched_off(ctx: &Context, plan: &TargetPlan) -> Vec<String> {
    let to = plan.spec.to;
    let Some(switch) = &to.def().kill_switch else {
        return Vec::new();
    };
    let display = to.def().display;
    plan.files
        .iter()
        .filter_map(|f| {
            let text = f.after.as_deref().or(f.before.as_deref())?;
            let found = discover::find(ctx, &f.path).ok()?;
            if !switch.locations.contains(&found.location.id) {
                return None;
            }
            let src = crate::source::SourceFile::new(f.shown.clone(), text);
            let doc = config::read(&src, to).ok()?.document;
            let copies = doc
                .rules
                .iter()
                .flat_map(|r| &r.handlers)
                .filter(|h| h.extra.get(MARKER).and_then(|m| m.get("source")).is_some())
                .count();
            (copies > 0 && switch.is_off(&doc)).then(|| {
                format!(
                    "  {}: `{}` is {} there, so {display} runs none of its hooks, the {copies} \
                     synced cop{} among them: take the switch out, or the target out of {MANIFEST}",
                    f.shown,
                    switch.name(),
                    switch.off,
                    if copies == 1 { "y" } else { "ies" },
                )
            })
        })
        .collect()
}

fn short_state(state: &str) -> &str {
    match state {
        s if s.starts_with("stale") => "stale",
        s if s.starts_with("would") => "would be written",
        s if s.contains("edited by hand") => "hand-edited",
        s => s,
    }
}

/// Each entry written by hand in a target file that is likely a copy of a rule sync writes
/// there (the same event and command, [`plan::copy_signature`]): the agent runs both, so each
/// event runs the rule twice. A hand copy is never merged; sync says so (attacks row 922).
fn hand_copy_lines(plan: &TargetPlan, sources: &[SourceSpec], owned: &[&str]) -> Vec<String> {
    let to = plan.spec.to;
    if to.config().scripts.is_some() || to.config().generated.is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for file in &plan.files {
        let Some(text) = &file.after else {
            continue;
        };
        let src = crate::source::SourceFile::new(file.shown.clone(), text.clone());
        let Ok(parsed) = config::read::read(&src, to) else {
            continue;
        };
        // The manifest's sources as this file's records name them.
        let named: Vec<(Value, &str)> = owned_sources(&file.path, owned)
            .into_iter()
            .zip(sources.iter().map(|s| s.path.as_str()))
            .collect();
        let rules = &parsed.document.rules;
        let synced: HashMap<(String, String), &str> = rules
            .iter()
            .flat_map(|r| r.handlers.iter().map(move |h| (r, h)))
            .filter_map(|(r, h)| {
                let record = h.extra.get(MARKER)?.get("source")?;
                let (_, from) = named.iter().find(|(n, _)| n == record)?;
                Some((plan::run_signature(r, h)?, *from))
            })
            .collect();
        for rule in rules {
            let copied = rule
                .handlers
                .iter()
                .find_map(|h| synced.get(&plan::copy_signature(rule, h)?));
            if let Some(from) = copied {
                let (line, col) = src
                    .locate_json(&rule.origin.pointer)
                    .map_or((1, 1), |at| src.line_col(at));
                out.push(format!(
                    "  {}:{line}:{col}: likely a copy made by hand of a rule sync writes here \
                     from {from} (the same event and command): {} runs both, twice per event \
                     (delete yours to run it once: sync's copy runs it with the payload it was \
                     written for)",
                    file.shown,
                    to.def().display
                ));
            }
        }
    }
    out
}

fn edit_lines(plan: &TargetPlan) -> Vec<String> {
    plan.edits
        .iter()
        .map(|e| format!("  {}: {}", e.at, e.what))
        .collect()
}

fn loss_lines(losses: &[Loss]) -> Vec<String> {
    losses
        .iter()
        .map(|l| format!("  loss: {}", l.to_string().replace('\n', "\n  ")))
        .collect()
}

/// A unified diff of one file, named relative to the project.
fn diff(file: &FilePlan) -> String {
    let before = file.before.as_deref().unwrap_or_default();
    let after = file.after.as_deref().unwrap_or_default();
    similar::TextDiff::from_lines(before, after)
        .unified_diff()
        .header(&format!("a/{}", file.shown), &format!("b/{}", file.shown))
        .to_string()
}

/// The sources' records as a target at `path` names them.
fn owned_sources(path: &Path, owned: &[&str]) -> Vec<Value> {
    owned
        .iter()
        .map(|s| Value::from(config::merge::source_record(path, s)))
        .collect()
}

/// What sync would make of one target, and the hand edits in it. A target no longer in the
/// manifest (`removed`) has an empty conversion: its synced entries go, and so does its file
/// when nothing else is left in it.
fn plan<'a>(
    ctx: &Context,
    spec: &'a TargetSpec,
    conversion: crate::convert::Conversion,
    owned: &[&str],
    lock: &Lock,
    removed: bool,
) -> Result<TargetPlan<'a>, Error> {
    let rel = target_rel(spec);
    let path = target_path(ctx, &rel);
    let mut files = Vec::new();
    let mut edits = Vec::new();
    if let Some(layout) = spec.to.config().scripts {
        scripts_plan(ctx, &rel, &conversion, layout, lock, &mut files, &mut edits)?;
        return Ok(TargetPlan {
            spec,
            rel,
            conversion,
            files,
            edits,
            removed,
        });
    }
    if let Some(plugin) = spec.to.config().generated {
        let (files, edits) = plugin_plan(&rel, path, spec.to, &conversion, plugin, lock)?;
        return Ok(TargetPlan {
            spec,
            rel,
            conversion,
            files,
            edits,
            removed,
        });
    }
    let before = match crate::read::text(&path, crate::read::MAX_FILE_BYTES) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(Error::Io {
                path: rel,
                message: e.to_string(),
            });
        }
    };
    let nothing = conversion.document.rules.is_empty();
    let mut after = match (&before, nothing) {
        (None, true) => None,
        _ => Some(config::merge::sync_text(
            &path,
            &conversion.document,
            owned,
            before.as_deref(),
            crate::convert::but_its_hookx,
        )?),
    };
    if removed
        && after != before
        && after
            .as_deref()
            .is_some_and(|a| holds_nothing(a, &conversion))
    {
        // Sync's entries were all the file held: it goes with them (a file that held
        // none of them stays as it is).
        after = None;
    }
    if let Some(text) = &before {
        // The lock's digests, and where it has none for the file (a copy `convert --write`
        // made before sync took it over), each entry's own record.
        let known = lock.targets.get(&rel);
        let sources = owned_sources(&path, owned);
        for entry in config::merge::owned_entries(text, &sources) {
            // A lock an older hookx wrote may hold the entry's earlier digest.
            let written = |k: &Vec<String>| {
                k.contains(&entry.digest) || entry.earlier.as_ref().is_some_and(|e| k.contains(e))
            };
            if known.map_or(!entry.edited(), written) {
                continue;
            }
            let pointer = entry.pointer;
            let (line, col) = crate::positions::locate_json(text, &pointer)
                .map_or((0, 0), |o| crate::positions::line_col(text, o));
            edits.push(HandEdit {
                at: format!("{rel}:{line}:{col}"),
                what: format!(
                    "the entry hookx wrote at {pointer} was edited by hand (it is not what sync wrote)"
                ),
            });
        }
    }
    files.push(FilePlan {
        path,
        shown: rel.clone(),
        before,
        after,
    });
    Ok(TargetPlan {
        spec,
        rel,
        conversion,
        files,
        edits,
        removed,
    })
}

/// Whether `text` holds no more than the empty file of the conversion's dialect.
fn holds_nothing(text: &str, conversion: &crate::convert::Conversion) -> bool {
    let empty = config::write::to_text(&conversion.document);
    let parse = |t: &str| config::edit::JsonText::new(t).value(&[]);
    parse(text).is_some() && parse(text) == parse(&empty)
}

/// The scripts of a script-folder target (Cline): one per handler of the conversion, and the
/// removal of each script an earlier sync wrote (the lock names it) that no rule makes any
/// more. A script sync wrote whose text is not what the lock recorded was edited by hand.
/// Scripts hookx did not write stay; one where a script is to go refuses the target.
fn scripts_plan(
    ctx: &Context,
    rel: &str,
    conversion: &crate::convert::Conversion,
    layout: &crate::tables::ScriptLayout,
    lock: &Lock,
    files: &mut Vec<FilePlan>,
    edits: &mut Vec<HandEdit>,
) -> Result<(), Error> {
    let folder = format!("{}/", rel.trim_end_matches('/'));
    let edited = |shown: &str, before: &str| {
        lock.targets
            .get(shown)
            .is_some_and(|known| !known.contains(&crate::hash::sha256_hex(before.as_bytes())))
    };
    let (scripts, left) = config::scripts::emit(
        &conversion.document,
        layout,
        &crate::dispatch::select::may_fire,
    );
    // A handler with no script of its own, or whose script's place holds a hook hookx did not
    // write (one it cannot read as text among them: attacks row 480), refuses the target, as
    // convert refuses it: passed over, it ran nowhere under the agent while sync said "nothing
    // to write" and `--check` passed (row 581).
    let mut refused: Vec<(String, String)> = left
        .iter()
        .map(|l| {
            let why = "the agent runs no more scripts of this event from one folder";
            (rel.to_string(), format!("{l}: {why}"))
        })
        .collect();
    let mut made = Vec::new();
    for (name, text) in scripts {
        // Written as `convert --write` writes it: its record carries its digest.
        let text = config::scripts::stamped(&text);
        let shown = format!("{folder}{name}");
        stays_inside_unless_home(ctx, &shown)?;
        let path = target_path(ctx, &shown);
        let before = match crate::read::existing_text(&path, crate::read::MAX_FILE_BYTES) {
            Ok(Some(b)) if !config::scripts::is_converted(&b) => {
                refused.push((shown, "a hook hookx did not write, not overwritten".into()));
                continue;
            }
            Ok(before) => before,
            Err(e) => {
                let why = format!("not a hook hookx wrote ({e}), not overwritten");
                refused.push((shown, why));
                continue;
            }
        };
        // The lock's digest, and where it has none for the script (one `convert --write` made
        // before sync took it over), the digest in the script's own record.
        let what = match (before.as_deref(), lock.targets.contains_key(&shown)) {
            (Some(b), _) if b == text => None,
            (Some(b), true) => edited(&shown, b)
                .then_some("the script hookx wrote was edited by hand (it is not what sync wrote)"),
            (Some(b), false) => config::scripts::hand_edit(b),
            (None, _) => None,
        };
        if let Some(what) = what {
            edits.push(HandEdit {
                at: format!("{shown}:1:1"),
                what: what.into(),
            });
        }
        made.push(shown.clone());
        files.push(FilePlan {
            path,
            shown,
            before,
            after: Some(text),
        });
    }
    let gone = lock
        .targets
        .keys()
        .filter(|k| k.starts_with(&folder) && !made.contains(k));
    for shown in gone {
        // The lock comes with the repository: a name it forged (`…/../../x`) is not removed.
        if !relative_inside(shown.trim_start_matches("~/")) {
            continue;
        }
        stays_inside_unless_home(ctx, shown)?;
        let path = target_path(ctx, shown);
        let Ok(before) = crate::read::text(&path, crate::read::MAX_FILE_BYTES) else {
            continue;
        };
        if !config::scripts::is_converted(&before) {
            continue;
        }
        if edited(shown, &before) {
            edits.push(HandEdit {
                at: format!("{shown}:1:1"),
                what: "the script hookx wrote, whose rule is gone, was edited by hand since".into(),
            });
        }
        files.push(FilePlan {
            path,
            shown: shown.clone(),
            before: Some(before),
            after: None,
        });
    }
    let Some(((path, why), more)) = refused.split_first() else {
        return Ok(());
    };
    let more: String = more.iter().map(|(p, w)| format!("\n{p}: {w}")).collect();
    Err(Error::Io {
        path: path.clone(),
        message: format!(
            "{why}{more}\n(rename the hooks of yours, or move their lines into a source)"
        ),
    })
}

/// The file of a target whose agent's hooks are code (a write-only target): the plugin
/// `convert --write` writes around the converted handlers, whole, or none (removed) when
/// nothing converts. A plugin there that hookx did not write is refused, untouched; one that
/// is not what sync last wrote (the lock holds the file's digest) was edited by hand.
fn plugin_plan(
    rel: &str,
    path: PathBuf,
    to: Dialect,
    conversion: &crate::convert::Conversion,
    plugin: &crate::tables::GeneratedPlugin,
    lock: &Lock,
) -> Result<(Vec<FilePlan>, Vec<HandEdit>), Error> {
    let before = match crate::read::text(&path, crate::read::MAX_FILE_BYTES) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(Error::Io {
                path: rel.to_string(),
                message: e.to_string(),
            });
        }
    };
    if let Some(text) = &before {
        not_a_foreign_plugin(plugin, rel, text)?;
    }
    let after = match conversion.document.rules.is_empty() {
        true => None,
        false => Some(crate::route::converted_plugin(
            plugin,
            to,
            &conversion.document,
            &path,
            None,
        )),
    };
    let mut edits = Vec::new();
    // The lock's digest, and where it has none for the file (one `convert --write` made
    // before sync took it over), the digest the plugin's first line ends in.
    let edited = |text: &str| match lock.targets.get(rel) {
        Some(known) => (!known.contains(&crate::hash::sha256_hex(text.as_bytes())))
            .then_some("the plugin hookx wrote was edited by hand (it is not what sync wrote)"),
        None => crate::route::plugin_hand_edit(plugin, text),
    };
    if let Some(what) = before.as_deref().and_then(edited) {
        edits.push(HandEdit {
            at: format!("{rel}:1:1"),
            what: what.into(),
        });
    }
    let file = FilePlan {
        path,
        shown: rel.to_string(),
        before,
        after,
    };
    Ok((vec![file], edits))
}

/// Refuses a plugin at a target's path that hookx did not write: sync writes that file whole.
fn not_a_foreign_plugin(
    plugin: &crate::tables::GeneratedPlugin,
    rel: &str,
    text: &str,
) -> Result<(), Error> {
    match crate::route::is_own_plugin(plugin, text) {
        true => Ok(()),
        false => Err(Error::Io {
            path: rel.to_string(),
            message: format!(
                "holds a plugin hookx did not write; sync writes this file whole and leaves it \
                 as it is: name the target's file otherwise (`out` in {MANIFEST})"
            ),
        }),
    }
}

/// Writes one target through `convert --write`'s code, and removes the files sync wrote
/// that nothing makes any more; whether a byte changed. `reviewed`: every source is trusted as
/// it is and read as the agent's it was reviewed as; `kept_reviews` gets what the write said
/// of the agent's reviews it kept for copies it rewrote.
fn write_target(
    copts: &conv::Options,
    plan: &TargetPlan,
    owned: &[&str],
    reviewed: bool,
    kept_reviews: &mut Option<String>,
) -> Result<bool, Error> {
    let mut changed = false;
    for file in plan.files.iter().filter(|f| f.after.is_none()) {
        if file.before.is_some() {
            std::fs::remove_file(&file.path).map_err(|e| Error::Io {
                path: file.shown.clone(),
                message: format!("cannot remove: {e}"),
            })?;
            changed = true;
        }
    }
    if let Some(plugin) = plan.spec.to.config().generated {
        let Some(file) = plan.files.first().filter(|f| f.after.is_some()) else {
            return Ok(changed);
        };
        let after = file.after.clone().unwrap_or_default();
        // Under the writer's lock, from the file as it is then.
        let outcome = config::update::update(&file.path, |current| {
            if let Some(text) = current {
                not_a_foreign_plugin(plugin, &plan.rel, text)?;
            }
            Ok(config::update::Change::Write(after.clone()))
        })?;
        return Ok(changed || outcome != config::update::Outcome::Unchanged);
    }
    if plan.spec.to.config().scripts.is_some() {
        if !plan
            .files
            .iter()
            .any(|f| f.after.is_some() && f.after != f.before)
        {
            return Ok(changed);
        }
        let (report, _) =
            // Sync removes what its lock names itself (`scripts_plan`).
            conv::convert_to_scripts(copts, plan.spec.to, &plan.conversion, &[], false, reviewed)?;
        return Ok(changed
            || report
                .and_then(|r| {
                    r.get("written")
                        .and_then(Value::as_array)
                        .map(|w| !w.is_empty())
                })
                .unwrap_or(false));
    }
    let Some(file) = plan.files.first().filter(|f| f.after.is_some()) else {
        return Ok(changed);
    };
    let from = conv::Written {
        sources: owned,
        reviewed,
    };
    let wrote = conv::write_file(
        copts,
        copts.write,
        &plan.conversion,
        &from,
        &file.path,
        file.before.clone(),
        file.after.as_deref().unwrap_or_default(),
    )?;
    *kept_reviews = wrote.kept_reviews;
    Ok(wrote.written.is_some())
}

/// Trust after a sync: the target counts as hookx's own output, trusted, only when every
/// source is trusted with its current content, and the target was trusted before or holds
/// nothing but entries synced from them. Nothing is trusted otherwise; the line says what to
/// review. Whether the record changed, and that line.
fn trust_target(
    ctx: &Context,
    store: &mut TrustStore,
    plan: &TargetPlan,
    untrusted: &[(String, TrustState)],
    owned: &[&str],
) -> (bool, Option<String>) {
    let Some(file) = plan
        .files
        .first()
        .filter(|_| plan.spec.to.config().scripts.is_none())
        // A plugin is code the agent runs by itself: no file hookx reads, nothing to trust.
        .filter(|_| plan.spec.to.config().generated.is_none())
    else {
        return (false, None);
    };
    let Ok(found) = discover::find(ctx, &file.path) else {
        return (false, None);
    };
    let (Some(id), Some(after_hash)) = (found.identity(), found.sha256.clone()) else {
        return (false, None);
    };
    if store.state(&found) == TrustState::Trusted {
        // Already trusted as it is: sync wrote no byte, or the user trusted it.
        return (false, None);
    }
    if plan.spec.wrap && !crate::route::is_this_hookx(&plan.spec.hookx) {
        // The manifest comes with the repository: the program it names would run every
        // wrapped handler, and nobody reviewed it.
        return (
            false,
            Some(format!(
                "  not trusted for `hookx run`: its handlers run `{}` (the manifest's `hookx`), not this hookx; review it with `hookx trust {}`",
                crate::diag::visible(&plan.spec.hookx),
                plan.rel
            )),
        );
    }
    if !plan.spec.wrap && !plan.conversion.losses.is_empty() {
        // `wrap = false` (from the manifest, which nobody reviewed) runs the reviewed commands
        // with the target's payload and answer rules: not what was reviewed.
        return (
            false,
            Some(format!(
                "  not trusted for `hookx run`: `wrap = false` runs its handlers as written under {}'s rules, with the losses above; review it with `hookx trust {}`",
                plan.spec.to.def().display,
                plan.rel
            )),
        );
    }
    if let Some((source, state)) = untrusted.first() {
        return (
            false,
            Some(format!(
                "  not trusted for `hookx run`: its source {source} is {}; review it with `hookx trust {source}`, then `hookx sync`",
                state.why_not()
            )),
        );
    }
    let before_hash = file
        .before
        .as_deref()
        .map(|b| crate::hash::sha256_hex(b.as_bytes()));
    let was_trusted = before_hash
        .as_deref()
        .is_some_and(|h| store.state_of(id, Some(h)) == TrustState::Trusted);
    let only_synced = found.document().is_some_and(|doc| {
        let sources = owned_sources(&file.path, owned);
        doc.rules.iter().flat_map(|r| &r.handlers).all(|h| {
            h.extra
                .get(MARKER)
                .and_then(|m| m.get("source"))
                .is_some_and(|s| sources.contains(s))
        })
    });
    let changed = match (was_trusted, before_hash) {
        (true, Some(before)) => store.carry_over(
            id.canonical,
            (&before, &after_hash),
            [&|_| None, &|_| found.without_agent_keys.clone()],
        ),
        _ if only_synced => store.trust(id, &after_hash, found.without_agent_keys.as_deref()),
        _ => {
            return (
                false,
                Some(format!(
                    "  not trusted for `hookx run`: it holds hooks not synced from the sources; review it with `hookx trust {}`",
                    plan.rel
                )),
            );
        }
    };
    if changed && let Ok(text) = std::fs::read_to_string(&file.path) {
        let _ = store.keep_copy(&after_hash, &text);
    }
    (
        changed,
        changed.then(|| "  trusted as hookx's output of trusted sources".to_string()),
    )
}

/// Why a target in the home is not written, if it is not: the agent runs that file in every
/// project without asking, and the manifest naming it is the repository's. It is written only
/// from trusted sources, each handler run by this hookx as reviewed (the manifest's own
/// `hookx`, say `./tools/hookx`, would run whatever each project ships under that name;
/// a lossy `wrap = false` runs the commands under another agent's rules).
fn home_refusal(plan: &TargetPlan, untrusted: &[(String, TrustState)]) -> Option<String> {
    if let Some((source, state)) = untrusted.first() {
        return Some(format!(
            "a file in your home is written only from trusted sources, and {source} is {}; review it with `hookx trust {source}`",
            state.why_not()
        ));
    }
    if plan.spec.wrap && !crate::route::is_this_hookx(&plan.spec.hookx) {
        return Some(format!(
            "a file in your home runs only this hookx, and the manifest's `hookx` is `{}`",
            crate::diag::visible(&plan.spec.hookx)
        ));
    }
    (!plan.spec.wrap && !plan.conversion.losses.is_empty()).then(|| {
        "a file in your home holds the handlers as reviewed, and the manifest's `wrap = false` runs them under another agent's rules, which loses some (`hookx sync --check` lists them)".to_string()
    })
}

/// The files `--watch` looks at: the manifest and every source, each with its size and
/// modification time (`None`: missing).
fn stamps(ctx: &Context) -> Vec<(PathBuf, Option<(u64, std::time::SystemTime)>)> {
    let mut paths = vec![manifest_path(ctx)];
    if let Ok(manifest) = read_manifest(ctx) {
        paths.extend(manifest.sources.iter().map(|s| ctx.project.join(&s.path)));
    }
    paths
        .into_iter()
        .map(|p| {
            let meta = std::fs::metadata(&p)
                .ok()
                .and_then(|m| Some((m.len(), m.modified().ok()?)));
            (p, meta)
        })
        .collect()
}

/// How often `--watch` looks at the sources, and how long they must stay still before a run.
const POLL: std::time::Duration = std::time::Duration::from_millis(200);
const DEBOUNCE: std::time::Duration = std::time::Duration::from_millis(300);

/// `hookx sync --watch`: a sync now and after every change to a source or the manifest (once
/// it has been still for [`DEBOUNCE`]), one line each on stdout; an error is a line too, and
/// the watch goes on.
fn watch(opts: &Options) -> Result<i32, Error> {
    let mut runs = 0;
    loop {
        let seen = stamps(&opts.ctx);
        let time = chrono::Utc::now().format("%H:%M:%S");
        match sync_once(opts) {
            Ok(outcome) => {
                for line in outcome.report.iter().filter(|l| l.starts_with("  ")) {
                    errln!("{line}");
                }
                outln!("[{time}] sync: {}", outcome.summary.join(", "));
            }
            Err(e) => outln!("[{time}] sync failed: {e}"),
        }
        runs += 1;
        if opts.watch_runs.is_some_and(|n| runs >= n) {
            return Ok(0);
        }
        // Wait for a change, then for the files to stay still.
        let mut last = seen;
        loop {
            std::thread::sleep(POLL);
            let now = stamps(&opts.ctx);
            if now != last {
                last = now;
                loop {
                    std::thread::sleep(DEBOUNCE);
                    let settled = stamps(&opts.ctx);
                    if settled == last {
                        break;
                    }
                    last = settled;
                }
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_init_manifest_reads_back() {
        let first = Dialect::all()[0];
        let copy = ("copy.json".into(), first, "hooks.json".into());
        let text = manifest_text(&[("hooks.json".into(), first)], &[copy], Dialect::all());
        let manifest = parse_manifest("m", &text).unwrap();
        assert_eq!(manifest.sources.len(), 1);
        assert_eq!(manifest.targets.len(), Dialect::all().len());
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            assert!(line.contains('#'), "a line without a comment: {line}");
        }
    }

    #[test]
    fn a_bad_manifest_names_its_line() {
        let err = parse_manifest("m", "version = 1\nsources = [\"a\"]\n[targets.nope]\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("m:3:"), "{err}");
    }
}
