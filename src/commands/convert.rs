//! `hookx convert`: hook files read, converted into each target dialect ([`crate::convert`]),
//! and each conversion printed, merged into the target's file (`--write`), written over a
//! file (`--out`) or shown as a diff (`--dry-run`), with its report of what is lost.

use super::input::load;
use crate::config;
use crate::convert::{self, loss};
use crate::diag::{Diagnostic, Severity};
use crate::error::Error;
use crate::source::SourceFile;
use crate::tables::{Dialect, Document};
use std::mem::ManuallyDrop;
use std::path::{Path, PathBuf};

/// Exit status when `--strict` finds losses.
pub const EXIT_LOSSES: i32 = 3;

/// What `hookx convert` is asked (its command line).
pub struct Options {
    /// The inputs; `-` is stdin.
    pub files: Vec<PathBuf>,
    /// Their dialect; detected when `None`.
    pub from: Option<Dialect>,
    /// One target, or several with `write`.
    pub to: Vec<Dialect>,
    /// The file (or script folder) to write instead of stdout.
    pub out: Option<PathBuf>,
    /// Merge into the target (`out`, or the target agent's project file under `project`).
    pub write: bool,
    /// With `out` or `write`: show the change as a diff, write nothing.
    pub dry_run: bool,
    pub project: PathBuf,
    /// Write nothing lossy, and exit [`EXIT_LOSSES`] when anything is lost.
    pub strict: bool,
    /// Route handlers the target cannot express through `hookx exec`.
    pub wrap: bool,
    /// The hookx command wrapped entries call.
    pub hookx: String,
    /// The report as JSON on stdout, instead of text on stderr.
    pub json: bool,
    /// With `write`: overwrite the entries an earlier run wrote that were edited by hand since.
    pub force: bool,
}

/// The inputs, read: each file and its document, and the parts hookx cannot read.
pub struct Inputs {
    pub loaded: ManuallyDrop<Vec<(SourceFile, Document)>>,
    pub unread: Vec<loss::Loss>,
    pub unread_errors: Vec<Diagnostic>,
}

/// `hookx convert`: reads the inputs, converts them to each target, and writes or prints each
/// conversion with its report; returns the exit code.
pub fn command(opts: &Options) -> Result<i32, Error> {
    if let Some(from) = opts.from
        && from.config().generated.is_some()
    {
        return Err(Error::Usage(format!(
            "{from} is a target only: its hooks are code (plugins), which hookx writes but never \
             reads; convert from the hook files of another agent"
        )));
    }
    let several = opts.to.len() > 1;
    if several && (opts.out.is_some() || !opts.write) && !opts.json {
        return Err(Error::Usage(
            "several targets (--to a,b) are written with --write into each agent's project file; --out and stdout take one".into(),
        ));
    }
    if several && opts.out.is_some() {
        return Err(Error::Usage("--out takes one target (--to)".into()));
    }
    refuse_twice(&opts.files)?;
    let read = read_inputs(&opts.files, opts.from)?;
    // `--write` syncs with the entries converted from these inputs earlier.
    let sources: Vec<&str> = read.loaded.iter().map(|(s, _)| s.path.as_str()).collect();
    let reviewed = inputs_reviewed(opts, &read);
    let mut code = 0;
    let mut reports = Vec::new();
    for &to in &opts.to {
        let homeward = without_copies_of(opts, &read, to);
        let read = homeward.as_ref().map_or(&read, |(inputs, _)| inputs);
        let elsewhere = without_rules_the_agent_runs(opts, read, to);
        let read = elsewhere.as_ref().map_or(read, |(inputs, ..)| inputs);
        let native = read_by_agent(opts, read, to);
        let mut conversion = ManuallyDrop::new(match native.is_empty() {
            true => conversion(read, opts, to)?,
            false => {
                let some = without(read, &native);
                let conversion = conversion(&some, opts, to);
                drop(ManuallyDrop::into_inner(some.loaded));
                conversion?
            }
        });
        if let Some((_, copies)) = &homeward {
            conversion.notes.push(format!(
                "{copies} handler(s) of the inputs are copies hookx wrote of {}'s own rules: \
                 not written back beside their originals",
                opts.project.join(to.config().convert_target).display()
            ));
        }
        if let Some((_, handlers, files)) = &elsewhere {
            conversion.notes.push(format!(
                "{handlers} handler(s) of the inputs are rules {} already runs itself from {}: \
                 not copied for it, so that each runs once",
                to.def().display,
                files.join(", ")
            ));
        }
        for &i in &native {
            conversion.notes.push(format!(
                "{} reads {} itself: its rules are not copied for it, so that each runs once",
                to.def().display,
                read.loaded[i].0.path
            ));
        }
        // One file converted into its own dialect: where hookx's own entries were refreshed,
        // `--write` into that very file rewrites it in place instead of merging it into itself.
        let own_file = match read.loaded.as_slice() {
            [(src, doc)] if doc.dialect == to => std::fs::canonicalize(&src.path).ok(),
            _ => None,
        };
        // The inputs read as the target's own: the agent runs their rules itself, and none is
        // copied into its file, which may be one of them (row 214).
        let own_inputs: Vec<PathBuf> = read
            .loaded
            .iter()
            .filter(|(_, doc)| doc.dialect == to)
            .filter_map(|(src, _)| std::fs::canonicalize(&src.path).ok())
            .collect();
        let (report, to_code) = convert_to(
            opts,
            to,
            &conversion,
            Written {
                sources: &sources,
                reviewed,
            },
            several,
            own_file.as_deref(),
            &own_inputs,
        )?;
        reports.extend(report);
        code = code.max(to_code);
        if let Some((inputs, ..)) = elsewhere {
            drop(ManuallyDrop::into_inner(inputs.loaded));
        }
        if let Some((inputs, _)) = homeward {
            drop(ManuallyDrop::into_inner(inputs.loaded));
        }
    }
    if opts.json {
        let shown = if several {
            serde_json::Value::Array(reports)
        } else {
            reports.pop().unwrap_or_default()
        };
        outln!(
            "{}",
            serde_json::to_string_pretty(&shown).unwrap_or_default()
        );
    }
    Ok(code)
}

/// The inputs without the files at `left_out` (indices into `inputs.loaded`) and what could not be read of them.
pub fn without(inputs: &Inputs, left_out: &[usize]) -> Inputs {
    let files: Vec<&str> = left_out
        .iter()
        .filter_map(|&i| inputs.loaded.get(i))
        .map(|(s, _)| s.path.as_str())
        .collect();
    Inputs {
        loaded: std::mem::ManuallyDrop::new(
            inputs
                .loaded
                .iter()
                .enumerate()
                .filter(|(i, _)| !left_out.contains(i))
                .map(|(_, l)| l.clone())
                .collect(),
        ),
        unread: inputs
            .unread
            .iter()
            .filter(|l| !files.contains(&l.file.as_str()))
            .cloned()
            .collect(),
        unread_errors: inputs
            .unread_errors
            .iter()
            .filter(|d| !files.contains(&d.file.as_str()))
            .cloned()
            .collect(),
    }
}

/// With `--write`, the inputs without the handlers that are hookx's copies of the target
/// file's own rules (their record's `source`, read from their file's folder, names the
/// target): written back, a copy sits beside its original, and where it lost something on
/// the way (Gemini's `name`, which Claude cannot say) the agent runs both (attacks row 246:
/// a round trip A → B → A doubled rules of real files). With the number of those handlers;
/// `None` when there is none.
pub fn without_copies_of(opts: &Options, read: &Inputs, to: Dialect) -> Option<(Inputs, usize)> {
    if !opts.write {
        return None;
    }
    let target = opts
        .out
        .clone()
        .unwrap_or_else(|| opts.project.join(to.config().convert_target));
    let target = std::fs::canonicalize(target).ok()?;
    let copy_here = |src: &SourceFile, h: &crate::model::Handler| {
        let dir = Path::new(&src.path).parent().unwrap_or(Path::new(""));
        let source = h.extra.get(config::MARKER).and_then(|r| r.get("source"));
        source
            .and_then(serde_json::Value::as_str)
            .and_then(|s| std::fs::canonicalize(dir.join(s)).ok())
            .is_some_and(|s| s == target || (target.is_dir() && s.starts_with(&target)))
    };
    let any = read.loaded.iter().any(|(src, doc)| {
        let mut handlers = doc.rules.iter().flat_map(|r| &r.handlers);
        handlers.any(|h| copy_here(src, h))
    });
    if !any {
        return None;
    }
    let mut copies = 0;
    let mut loaded = Vec::with_capacity(read.loaded.len());
    for (src, doc) in read.loaded.iter() {
        let copy_here = |h: &crate::model::Handler| copy_here(src, h);
        let mut doc = doc.clone();
        doc.rules.retain_mut(|rule| {
            let before = rule.handlers.len();
            rule.handlers.retain(|h| !copy_here(h));
            copies += before - rule.handlers.len();
            before == 0 || !rule.handlers.is_empty()
        });
        loaded.push((src.clone(), doc));
    }
    let inputs = Inputs {
        loaded: ManuallyDrop::new(loaded),
        unread: read.unread.clone(),
        unread_errors: read.unread_errors.clone(),
    };
    Some((inputs, copies))
}

/// With `--write` into `to`'s project file, the inputs without the handlers whose rule `to`'s
/// agent already runs itself from another file it reads (the plan's runner under it, the
/// target left out): a Gemini file's copy of a Claude rule is not written on into Copilot's
/// file, since Copilot runs the rule from `.claude/settings.json` itself, nor a Gemini rule
/// whose copy is there already; each would run twice (attacks row 880). [`read_by_agent`]
/// does the same for a whole input the agent reads. With the number of those handlers and the
/// files the agent runs them from; `None` when there is none.
fn without_rules_the_agent_runs(
    opts: &Options,
    read: &Inputs,
    to: Dialect,
) -> Option<(Inputs, usize, Vec<String>)> {
    if !opts.write || opts.out.is_some() {
        return None;
    }
    let target = opts.project.join(to.config().convert_target);
    without_rules_run_elsewhere(&opts.project, read, to, &target)
}

/// [`without_rules_the_agent_runs`] for a `target` file given: `hookx sync`'s, in any scope
/// (attacks row 1101).
pub fn without_rules_run_elsewhere(
    project: &Path,
    read: &Inputs,
    to: Dialect,
    target: &Path,
) -> Option<(Inputs, usize, Vec<String>)> {
    use crate::discover::{self, Runner};
    let ctx = discover::Context::resolve(Some(project), None).ok()?;
    let target = std::fs::canonicalize(target).unwrap_or_else(|_| target.to_path_buf());
    let real = |s: &discover::Source| s.canonical.clone().unwrap_or_else(|| s.path.clone());
    let mut sources: Vec<discover::Source> = discover::discover(&ctx)
        .into_iter()
        .filter(|s| real(s) != target)
        .collect();
    // Most targets' agents read no other agent's file: no plan to make.
    if !sources
        .iter()
        .any(|s| s.dialect != to && discover::runner(to, s) == Runner::Native)
    {
        return None;
    }
    let store = crate::trust::TrustStore::load_or_empty(&ctx);
    let plan = crate::plan::plan_in(&ctx, &mut sources, to, &store);
    let (mut left_out, mut files) = (0, Vec::new());
    let mut loaded = Vec::with_capacity(read.loaded.len());
    for (src, doc) in read.loaded.iter() {
        let mut doc = doc.clone();
        let here = std::fs::canonicalize(&src.path).ok();
        let found = sources.iter().find(|s| Some(real(s)) == here);
        // A whole input the agent reads itself is [`read_by_agent`]'s to leave out.
        let foreign =
            |s: &&discover::Source| doc.dialect != to && discover::runner(to, s) != Runner::Native;
        if let Some(found) = found.filter(foreign)
            && let Some(written) = found.document()
        {
            doc.rules.retain_mut(|rule| {
                let Some(as_found) = written
                    .rules
                    .iter()
                    .find(|r| r.origin.pointer == rule.origin.pointer && r.event == rule.event)
                else {
                    return true;
                };
                let before = rule.handlers.len();
                let mut index = 0;
                rule.handlers.retain(|_| {
                    let from = plan.host_runs_from(found, as_found, index);
                    index += 1;
                    let Some(from) = from.filter(|f| *f != target) else {
                        return true;
                    };
                    let shown = sources
                        .iter()
                        .find(|s| real(s) == from)
                        .map_or_else(|| from.display().to_string(), |s| s.display.clone());
                    if !files.contains(&shown) {
                        files.push(shown);
                    }
                    false
                });
                left_out += before - rule.handlers.len();
                before == 0 || !rule.handlers.is_empty()
            });
        }
        loaded.push((src.clone(), doc));
    }
    let inputs = Inputs {
        loaded: ManuallyDrop::new(loaded),
        unread: read.unread.clone(),
        unread_errors: read.unread_errors.clone(),
    };
    match left_out {
        0 => {
            drop(ManuallyDrop::into_inner(inputs.loaded));
            None
        }
        n => Some((inputs, n, files)),
    }
}

/// The inputs `to`'s agent reads itself, as indices into `read.loaded` (a project's
/// `.claude/settings.json` under Copilot, Cursor or VS Code): `convert --write` into the
/// agent's own project file copies none of their rules, or the agent would run each twice, and
/// nothing can stop its own run (issue 24). `--out` and stdout write what they are asked.
fn read_by_agent(opts: &Options, read: &Inputs, to: Dialect) -> Vec<usize> {
    if !opts.write || opts.out.is_some() {
        return Vec::new();
    }
    let Ok(ctx) = crate::discover::Context::resolve(Some(&opts.project), None) else {
        return Vec::new();
    };
    // The file written, among other inputs: merged into itself, a rule spelled otherwise once
    // converted (Qwen's 5000 ms as 5) would sit beside the original (attacks row 214). Alone,
    // [`convert_to`] writes nothing into it, or refreshes hookx's own entries in place.
    let target = std::fs::canonicalize(opts.project.join(to.config().convert_target)).ok();
    let written = |path: &str| {
        read.loaded.len() > 1 && target.is_some() && std::fs::canonicalize(path).ok() == target
    };
    read.loaded
        .iter()
        .enumerate()
        .filter(|(_, (s, _))| s.path != "-")
        .filter(|(_, (s, _))| {
            written(&s.path)
                || crate::discover::find(&ctx, Path::new(&s.path)).is_ok_and(|found| {
                    found.dialect != to
                        && crate::discover::runner(to, &found) == crate::discover::Runner::Native
                })
        })
        .map(|(i, _)| i)
        .collect()
}

/// The inputs' conversion to `to` with `opts`' `--no-wrap` and `--hookx`, the parts that could
/// not be read first among its losses; fails when nothing but such parts is there.
pub fn conversion(
    read: &Inputs,
    opts: &Options,
    to: Dialect,
) -> Result<convert::Conversion, Error> {
    let inputs: Vec<_> = read.loaded.iter().map(|(s, d)| (s, d)).collect();
    let options = convert::Options {
        to,
        wrap: opts.wrap,
        hookx: hookx_for(opts),
        copies_into: match (&opts.out, opts.write) {
            (Some(out), _) => Some(out.clone()),
            (None, true) => Some(opts.project.join(to.config().convert_target)),
            (None, false) => None,
        },
    };
    let mut conversion = convert::convert(&inputs, &options);
    let no_handler = conversion
        .document
        .rules
        .iter()
        .all(|r| r.handlers.is_empty());
    if no_handler && !read.unread_errors.is_empty() {
        // Nothing but what could not be read: the errors are the answer.
        return Err(Error::Invalid(read.unread_errors.clone()));
    }
    conversion.losses.splice(0..0, read.unread.iter().cloned());
    Ok(conversion)
}

/// The hookx a wrapped entry runs. A bare `hookx` is found on the `PATH` the agent hands the
/// hook, which a project's settings may set for every hook, the user's own included (Claude's
/// `env`, probed live: attacks row 84): in a file of the home outside the project (`--out
/// ~/.claude/settings.json`, a sync target of the user's), which the agent runs in every
/// project and no repository shares, it is written as this hookx's own path.
fn hookx_for(opts: &Options) -> String {
    // The nearest folder that is there, as its real path (`--out` may create folders).
    let real = |path: &Path| {
        let path = crate::context::absolute(path);
        path.ancestors().find_map(|a| std::fs::canonicalize(a).ok())
    };
    let in_home = |out: &Path| {
        let Ok(ctx) = crate::discover::Context::resolve(Some(&opts.project), None) else {
            return false;
        };
        let (Some(out), Some(home), Some(project)) =
            (real(out), real(&ctx.home), real(&opts.project))
        else {
            return false;
        };
        out.starts_with(&home) && (project == home || !out.starts_with(&project))
    };
    if opts.hookx != "hookx" || !opts.out.as_deref().is_some_and(in_home) {
        return opts.hookx.clone();
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.into_os_string().into_string().ok())
        .unwrap_or_else(|| opts.hookx.clone())
}

/// Refuses one file given twice, by two names or one (a link, `./`): its rules would be
/// converted twice, and the agent would run each twice (attacks row 542).
fn refuse_twice(files: &[PathBuf]) -> Result<(), Error> {
    for (i, file) in files.iter().enumerate() {
        if let Some(first) = files[..i]
            .iter()
            .find(|f| crate::context::same_place(f, file))
        {
            return Err(Error::Usage(format!(
                "{} is {} given twice; name each file once",
                file.display(),
                first.display()
            )));
        }
    }
    Ok(())
}

/// Refuses to write `target` where it is one of the inputs under another name (`.codex/hooks.json`
/// a link to `.claude/settings.json`): the copies would go in beside their originals, and the
/// agent reading it would run each rule twice (attacks row 541). As `sync` (a file is edited
/// or generated). An input read as the target's own dialect (`own_inputs`) is not refused: its
/// rules are not copied into it (rows 214, 541's fix had refused that too).
fn refuse_input_as_target(
    target: &Path,
    sources: &[&str],
    own_inputs: &[PathBuf],
) -> Result<(), Error> {
    let Ok(real) = std::fs::canonicalize(target) else {
        return Ok(());
    };
    match sources
        .iter()
        .find(|s| std::fs::canonicalize(s).is_ok_and(|s| s == real))
    {
        Some(source) if !own_inputs.contains(&real) => Err(Error::Usage(format!(
            "{}: the file to write is also an input ({source}); a file is either edited or \
             generated: write elsewhere (--out FILE), or remove the link",
            target.display()
        ))),
        _ => Ok(()),
    }
}

/// The inputs read, each warning printed; fails on an input with nothing readable or no hooks.
pub fn read_inputs(files: &[PathBuf], from: Option<Dialect>) -> Result<Inputs, Error> {
    // Input of a quarter megabyte or more (over a thousand rules) is read into a heap of huge
    // pages.
    let input_bytes: u64 = files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    if input_bytes >= crate::heap::LARGE_INPUT {
        crate::heap::grow_in_huge_pages();
    }
    // The documents, their sources and conversions are left for the OS to free when hookx
    // exits: at 10 000 rules, freeing them value by value cost a tenth of the conversion.
    let mut loaded = ManuallyDrop::new(Vec::new());
    // Parts of an input hookx cannot read: each a located loss; the rest converts.
    let mut unread = Vec::new();
    let mut unread_errors = Vec::new();
    for path in files {
        let (src, parsed) = load(path, from)?;
        let (errors, warnings): (Vec<_>, Vec<_>) = parsed
            .diagnostics
            .iter()
            .cloned()
            .partition(|d| d.severity == Severity::Error);
        for w in &warnings {
            errln!("{}", crate::diag::style(&w.to_string()));
        }
        let doc = &parsed.document;
        if doc.rules.is_empty() && doc.extra_hooks.is_empty() && !errors.is_empty() {
            // Nothing readable is left: the errors are the answer.
            return Err(Error::Invalid(errors));
        }
        if !super::input::has_hook_config(&src, doc) {
            return Err(Error::Io {
                path: src.path.clone(),
                message: format!(
                    "no hooks found (expected a `hooks` object of events, or {} events at the top level); nothing converted or written",
                    parsed.document.dialect
                ),
            });
        }
        unread_errors.extend(errors.iter().cloned());
        unread.extend(errors.iter().map(|d| loss::Loss {
            what: d.message.clone(),
            why:
                "hookx cannot read this part; it is not converted (the rest of the file is)".into(),
            file: d.file.clone(),
            pointer: d.pointer.clone().unwrap_or_default(),
            line: d.line,
            col: d.col,
        }));
        loaded.push((src, parsed.document));
    }
    Ok(Inputs {
        loaded,
        unread,
        unread_errors,
    })
}

/// Refuses `--out FILE` when FILE exists and is no hook file of `to`: it holds no hook
/// configuration read as `to`'s, and it is not a file `to` reads hooks from. With `--write`
/// (`merge`) the merge would put a hooks block into it (a `package.json`); without, the
/// conversion would replace it. An empty file holds nothing to keep.
fn refuse_foreign_target(
    to: Dialect,
    path: &Path,
    before: Option<&str>,
    merge: bool,
) -> Result<(), Error> {
    let Some(text) = before.filter(|t| !t.trim().is_empty()) else {
        return Ok(());
    };
    let src = SourceFile::new(path.display().to_string(), text);
    if config::read(&src, to)
        .is_ok_and(|parsed| super::input::has_hook_config(&src, &parsed.document))
    {
        return Ok(());
    }
    if super::input::at_hook_location(path, Some(to)) {
        return Ok(());
    }
    Err(Error::Io {
        path: path.display().to_string(),
        message: format!(
            "is not a {to} hook file (it holds no hooks, and {to} does not read hooks from it): \
             not {} it; name a hook file with --out, or use --write without \
             --out for {to}'s project file",
            if merge {
                "merging hooks into"
            } else {
                "replacing"
            }
        ),
    })
}

/// Writes or prints one target's conversion and its report; the JSON report (for --format
/// json) and the exit code.
fn convert_to(
    opts: &Options,
    to: Dialect,
    conversion: &convert::Conversion,
    written_from: Written,
    several: bool,
    own_file: Option<&Path>,
    own_inputs: &[PathBuf],
) -> Result<(Option<serde_json::Value>, i32), Error> {
    let sources = written_from.sources;
    if to.config().scripts.is_some() {
        let reviewed = written_from.reviewed;
        return convert_to_scripts(opts, to, conversion, sources, several, reviewed);
    }
    if let Some(plugin) = to.config().generated {
        return convert_to_plugin(opts, to, plugin, conversion, several);
    }
    let nothing =
        conversion.document.rules.is_empty() && conversion.document.extra_hooks.is_empty();
    let target = match (&opts.out, opts.write) {
        (Some(out), _) => Some(out.clone()),
        (None, true) => Some(opts.project.join(to.config().convert_target)),
        (None, false) => None,
    };
    if let (Some(path), None) = (&target, &opts.out) {
        default_target_stays_inside(opts, path)?;
    }
    if let Some(path) = &target {
        refuse_input_as_target(path, sources, own_inputs)?;
    }
    let before = target
        .as_ref()
        .and_then(|path| crate::read::text(path, crate::read::MAX_FILE_BYTES).ok());
    // Text for stdout is written as it is made ([`config::write::write_text`]).
    let streamed = target.is_none() && !opts.json;
    let onto_itself = opts.write
        && own_file.is_some()
        && target
            .as_ref()
            .and_then(|t| std::fs::canonicalize(t).ok())
            .as_deref()
            == own_file;
    let in_place = onto_itself && conversion.refreshed > 0;
    let merge = opts.write && !in_place;
    let text = match (&target, merge) {
        (Some(path), true) => {
            let text = config::merge::sync_text(
                path,
                &conversion.document,
                sources,
                before.as_deref(),
                convert::but_its_hookx,
            )?;
            if opts.out.is_some() {
                refuse_foreign_target(to, path, before.as_deref(), true)?;
            }
            text
        }
        _ if streamed => String::new(),
        (Some(path), false) => {
            refuse_foreign_target(to, path, before.as_deref(), false)?;
            config::write::to_text(&conversion.document)
        }
        _ => config::write::to_text(&conversion.document),
    };
    let lossy = !conversion.losses.is_empty();
    let mut refused = Vec::new();
    let (written, diff) = match &target {
        // The agent's own file into itself: its agent already runs every rule of it, and a
        // copy spelled otherwise (Qwen's 5000 ms as 5) would run beside the original (row 214).
        Some(path) if onto_itself && !in_place => {
            if !opts.json {
                errln!(
                    "{} is up to date (it is the file converted)",
                    path.display()
                );
            }
            (None, None)
        }
        // Nothing converts and there is no file to sync: nothing is created.
        Some(path) if nothing && !path.exists() => {
            errln!(
                "{}",
                crate::diag::style(&format!(
                    "note: no hooks found that convert to {to}; nothing written"
                ))
            );
            (None, None)
        }
        Some(path) => {
            let Wrote {
                written,
                diff,
                hand_edited,
                ..
            } = write_file(
                opts,
                merge,
                conversion,
                &written_from,
                path,
                before.clone(),
                &text,
            )?;
            let reviewed = written_from.reviewed;
            match (&before, &written) {
                (Some(before), Some(_)) => {
                    trust_after_write(opts, conversion, reviewed, path, before)?
                }
                (None, Some(_)) => trust_new_output(opts, conversion, reviewed, path)?,
                _ => {}
            }
            if path.exists() {
                say_unreviewed(opts, conversion.document.dialect, path);
            }
            refused = hand_edited;
            (written, diff)
        }
        None => (None, None),
    };
    let code = match (opts.strict && lossy, refused.is_empty()) {
        (true, _) => EXIT_LOSSES,
        (false, false) => 1,
        (false, true) => 0,
    };
    let mut fields = serde_json::json!({
        "output": if target.is_none() { Some(&text) } else { None },
        "written": written,
        "diff": diff,
    });
    if !refused.is_empty() {
        fields["refused"] = serde_json::json!(refused);
    }
    let print = || {
        if streamed {
            // As `out!`: a closed stdout is not an error of the conversion.
            let _ = config::write::write_text(&conversion.document, &mut std::io::stdout().lock());
        }
        if let Some(diff) = &diff {
            out!("{diff}");
        }
    };
    let done = Done {
        written: written.as_slice(),
        refused: &refused,
        fields,
        code,
    };
    Ok(report(opts, to, conversion, several, done, print))
}

/// The input files of one `convert` run, for a target's write.
pub struct Written<'a> {
    pub sources: &'a [&'a str],
    /// Whether every input is trusted as it is and read as the agent's it was reviewed as
    /// ([`inputs_reviewed`]).
    pub reviewed: bool,
}

/// Whether every input is a hook file trusted with its content as it is, and read as the
/// dialect it was reviewed as: a Droid file read `--from claude` runs its commands with
/// another agent's payload and answers than the ones reviewed (as `hookx sync` refuses a
/// manifest's `from` that misreads a source, attacks row 33).
fn inputs_reviewed(opts: &Options, read: &Inputs) -> bool {
    if !opts.write {
        return false;
    }
    let Ok(ctx) = crate::discover::Context::resolve(Some(&opts.project), None) else {
        return false;
    };
    read.loaded.iter().all(|(src, doc)| {
        src.path != "-"
            && crate::discover::find(&ctx, Path::new(&src.path)).is_ok_and(|found| {
                found.dialect == doc.dialect
                    && crate::trust::is_trusted(&ctx, &found) == crate::trust::TrustState::Trusted
            })
    })
}

/// After `--write` into a file the user had trusted: hookx's edit keeps the trust where every
/// input is trusted as it is and the entries run what was reviewed (this hookx, or the
/// commands as written with nothing lost), as `hookx sync` asks; else the file is changed since
/// trusted, and that is said, since `hookx run` then runs none of its hooks, the user's own
/// among them (attacks row 243: the user's guard was skipped under every routed host).
fn trust_after_write(
    opts: &Options,
    conversion: &convert::Conversion,
    inputs_reviewed: bool,
    path: &Path,
    before: &str,
) -> Result<(), Error> {
    let Ok(ctx) = crate::discover::Context::resolve(Some(&opts.project), None) else {
        return Ok(());
    };
    let Ok(after) = std::fs::read(path) else {
        return Ok(());
    };
    if reviewed_runs(opts, conversion)
        && inputs_reviewed
        && crate::trust::keep_trusted(&ctx, path, before.as_bytes(), &after)?
    {
        return Ok(());
    }
    let was_trusted = crate::discover::find(&ctx, path).is_ok_and(|found| {
        found.identity().is_some_and(|id| {
            let hash = crate::hash::sha256_hex(before.as_bytes());
            crate::trust::TrustStore::load_or_empty(&ctx).state_of(id, Some(&hash))
                == crate::trust::TrustState::Trusted
        })
    });
    if was_trusted && !opts.json {
        let shown = ctx.display(&std::fs::canonicalize(path).unwrap_or(path.to_path_buf()));
        errln!(
            "note: you had trusted {shown}; what this wrote into it is not reviewed, so `hookx \
             run` runs none of its hooks, yours among them, until you review it and run `hookx \
             trust {shown}`"
        );
    }
    Ok(())
}

/// Whether the entries written run what was reviewed of their inputs: this hookx runs the
/// wrapped ones, or the commands as written lose nothing.
fn reviewed_runs(opts: &Options, conversion: &convert::Conversion) -> bool {
    match opts.wrap {
        true => crate::route::is_this_hookx(&opts.hookx),
        false => conversion.losses.is_empty(),
    }
}

/// After `--write` created `path`: it holds only copies of the inputs' rules, so where every
/// input is trusted as it is and the entries run what was reviewed (as [`trust_after_write`]
/// asks), it is trusted as hookx's output, as `hookx sync` trusts its targets. Left untrusted, a
/// copy the host runs itself never stood in for its original: under a route of hookx's for the
/// event (another rule's) the original ran through hookx as well, each such rule twice per
/// call (attacks row 406). So is a hook script it writes, which holds nothing but hookx's
/// converted line (row 585: a Cline copy left untrusted ran beside its original). A plugin is
/// code around the data, and is not trusted here (as sync).
fn trust_new_output(
    opts: &Options,
    conversion: &convert::Conversion,
    inputs_reviewed: bool,
    path: &Path,
) -> Result<(), Error> {
    let to = conversion.document.dialect.config();
    if to.generated.is_some() || !inputs_reviewed {
        return Ok(());
    }
    let Ok(ctx) = crate::discover::Context::resolve(Some(&opts.project), None) else {
        return Ok(());
    };
    let Ok(found) = crate::discover::find(&ctx, path) else {
        return Ok(());
    };
    let (Some(id), Some(sha256)) = (found.identity(), found.sha256.clone()) else {
        return Ok(());
    };
    if !reviewed_runs(opts, conversion) {
        return Ok(());
    }
    let mut store = crate::trust::TrustStore::load(&ctx)?;
    if store.trust(id, &sha256, found.without_agent_keys.as_deref()) {
        if let Ok(text) = std::fs::read_to_string(path) {
            store.keep_copy(&sha256, &text)?;
        }
        store.save()?;
        if !opts.json {
            errln!(
                "note: trusted {} for `hookx run`, as hookx's output of trusted files",
                ctx.display(&std::fs::canonicalize(path).unwrap_or(path.to_path_buf()))
            );
        }
    }
    Ok(())
}

/// After `--write` into a file of an agent that runs only the handlers its user reviewed
/// (Codex: `DialectDef::route_trust`): how many handlers there it skips until they are
/// reviewed, and where their rules run meanwhile. A copy written again (hookx moved, the rule
/// edited) no longer matches its review: Codex skipped it without a word, and where no route
/// of hookx's took the event, the rule ran nowhere (attacks row 442; `hookx sync` too).
fn say_unreviewed(opts: &Options, to: Dialect, path: &Path) {
    if opts.json {
        return;
    }
    let Ok(ctx) = crate::discover::Context::resolve(Some(&opts.project), None) else {
        return;
    };
    if let Some(line) = unreviewed(&ctx, to, path) {
        errln!("note: {line}");
    }
    if let Some(line) = untrusted_folder(&ctx, to, path) {
        errln!("note: {line}");
    }
}

/// After `--write` into a file its agent reads only in a folder the user trusted
/// (`DialectDef::folder_trust`), where this project is not: until it is, none of the written
/// rules runs there. `install` said so of its route; `convert` said nothing, and Copilot CLI
/// 1.0.102 in `-p` ran none of a converted sample's rules (attacks row 1881).
pub(crate) fn untrusted_folder(
    ctx: &crate::discover::Context,
    to: Dialect,
    path: &Path,
) -> Option<String> {
    let gate = to.def().folder_trust.as_ref()?;
    let found = crate::discover::find(ctx, path).ok()?;
    if !gate.locations.contains(&found.location.id)
        || crate::discover::folder_trusted(ctx, to, gate)
    {
        return None;
    }
    Some(format!(
        "{} reads {} only in a folder the user trusted, and {} does not trust this project: {}; {}",
        to.def().display,
        found.display,
        crate::discover::folder_record(ctx, to, gate),
        gate.untrusted,
        gate.fix
    ))
}

/// [`say_unreviewed`]'s sentence, if the agent skips any handler of `path`.
pub(crate) fn unreviewed(
    ctx: &crate::discover::Context,
    to: Dialect,
    path: &Path,
) -> Option<String> {
    to.def().route_trust.as_ref()?;
    let found = crate::discover::find(ctx, path).ok()?;
    let review = crate::dispatch::gates::Review::of(ctx, to, &found)?;
    let skipped = found
        .document()?
        .rules
        .iter()
        .flat_map(|r| (0..r.handlers.len()).map(move |i| (r, i)))
        .filter(|(r, i)| !review.reviewed(r, *i))
        .count();
    let display = to.def().display;
    (skipped > 0).then(|| {
        format!(
            "{display} skips {skipped} handler(s) of {}, never reviewed in {display} or changed \
             since; until they are, their rules run under {display} only through a route of \
             hookx's (`hookx install --host {to}`; `hookx doctor --host {to}` says which)",
            found.display
        )
    })
}

/// What converting into one target did, for [`report`].
struct Done<'a> {
    /// The files written, and those left as they were, each with why.
    written: &'a [String],
    refused: &'a [String],
    /// The JSON report's fields particular to the target's kind, between `to` and `losses`.
    fields: serde_json::Value,
    code: i32,
}

/// Says what converting into `to` did. In text: `print` writes the output (or diff) on stdout,
/// then stderr names the target (when there are `several`), each file written or refused, and
/// the losses. With --format json, one object instead: `to`, `done.fields`, the losses.
fn report(
    opts: &Options,
    to: Dialect,
    conversion: &convert::Conversion,
    several: bool,
    done: Done,
    print: impl FnOnce(),
) -> (Option<serde_json::Value>, i32) {
    if opts.json {
        let mut json = serde_json::Map::new();
        json.insert("to".into(), serde_json::json!(to));
        if let serde_json::Value::Object(fields) = done.fields {
            json.extend(fields);
        }
        json.insert("losses".into(), serde_json::json!(conversion.losses));
        json.insert("notes".into(), serde_json::json!(conversion.notes));
        return (Some(serde_json::Value::Object(json)), done.code);
    }
    print();
    if several {
        errln!("to {to}:");
    }
    for path in done.written {
        errln!("wrote {path}");
    }
    for why in done.refused {
        errln!("not written: {why}");
    }
    err!(
        "{}",
        crate::diag::style(&loss::render_text(&conversion.losses, &conversion.notes))
    );
    (None, done.code)
}

/// `--write` without `--out` writes the agent's project file: never through a symbolic link
/// the repository ships that leads out of the project (`.gemini` → `~/.gemini`). A path given
/// with `--out` is the user's to choose.
fn default_target_stays_inside(opts: &Options, path: &Path) -> Result<(), Error> {
    match config::confine::leaves(&opts.project, path) {
        None => Ok(()),
        Some(why) => Err(Error::Io {
            path: path.display().to_string(),
            message: format!(
                "{why}: `convert --write` writes the agent's project file only inside the project; remove the link, or name the file with --out"
            ),
        }),
    }
}

/// A converted copy is known by the source, rule and handler its provenance record names, and
/// by what it runs (each string of the handler as the innermost command a `hookx exec` wrap
/// runs): the record's rule is a place, and a rule taken out of the source moves the next one
/// there, whose copy a label following by place alone turned off (attacks row 362: the
/// user's trusted guard, off in Gemini's list after the slow check before it was deleted).
/// A copy whose own command was edited is then not followed: it runs again (never a
/// different handler turned off).
fn copy_identity(handler: &serde_json::Value) -> Option<String> {
    let record = handler.get(config::MARKER)?;
    let field = |k: &str| record.get(k).map(|v| v.to_string());
    Some(format!(
        "{}\0{}\0{}\0{}",
        field("source")?,
        field("rule")?,
        field("index")?,
        convert::runs_of(handler)?
    ))
}

/// Writes one target file: `text` (with `merge`, the `--write` that is not a rewrite in place,
/// the conversion merged into what the file holds when it is written), or with `--dry-run`
/// only the diff from `before`. `--strict`
/// writes nothing lossy. The path written and the diff, where there is one.
pub fn write_file(
    opts: &Options,
    merge: bool,
    conversion: &convert::Conversion,
    from: &Written,
    path: &Path,
    before: Option<String>,
    text: &str,
) -> Result<Wrote, Error> {
    let sources = from.sources;
    let sync = |current: Option<&str>| {
        config::merge::sync_text(
            path,
            &conversion.document,
            sources,
            current,
            convert::but_its_hookx,
        )
    };
    // An entry an earlier run wrote and the user edited since is not written over unless
    // --force (as `hookx sync`): the file is left as it is, and each such entry named.
    let owned: Vec<serde_json::Value> = sources
        .iter()
        .map(|s| config::merge::source_record(path, s).into())
        .collect();
    let edited = |current: &str| -> Vec<String> {
        if !merge || opts.force {
            return Vec::new();
        }
        config::merge::hand_edited(current, &owned)
            .iter()
            .map(|o| {
                let (line, col) = crate::positions::locate_json(current, &o.pointer)
                    .map_or((0, 0), |at| crate::positions::line_col(current, at));
                format!(
                    "{}:{line}:{col}: the entry hookx wrote at {} was edited by hand since (move \
                     the change into the source, or --force to overwrite it)",
                    path.display(),
                    o.pointer
                )
            })
            .collect()
    };
    if let Some(hand) = before.as_deref().map(edited).filter(|h| !h.is_empty()) {
        return Ok(Wrote {
            hand_edited: hand,
            ..Wrote::default()
        });
    }
    if opts.dry_run {
        let before = before.unwrap_or_default();
        let shown = path.display().to_string();
        let diff = similar::TextDiff::from_lines(&before, text)
            .unified_diff()
            .header(&shown, &shown)
            .to_string();
        return Ok(Wrote {
            diff: Some(diff),
            ..Wrote::default()
        });
    }
    if opts.strict && !conversion.losses.is_empty() {
        // --strict refuses a lossy result: the target stays as it was.
        errln!(
            "not writing {}: the conversion loses something (--strict)",
            path.display()
        );
        return Ok(Wrote::default());
    }
    // Where the write keeps the file's trust (every input trusted as it is, the entries run
    // what was reviewed), the record trusts the new bytes beside the old before they are
    // renamed into place, and them alone after ([`crate::trust::trust_landing`], as install
    // does): a `hookx run` at any moment of the write finds the user's trusted guards in the
    // file trusted (attacks rows 2085, 2100).
    let keeps_trust = from.reviewed && reviewed_runs(opts, conversion);
    let ctx = crate::discover::Context::resolve(Some(&opts.project), None).ok();
    let mut landing = false;
    // Under the writer's lock, from the file as it is then (another run may have written it
    // since it was read).
    let mut was = None;
    let mut now = String::new();
    let mut hand = Vec::new();
    let outcome = config::update::update(path, |current| {
        if merge && current.is_none() && conversion.document.rules.is_empty() {
            // Nothing to sync into a file that does not exist.
            return Ok(config::update::Change::Keep);
        }
        hand = current.map(edited).unwrap_or_default();
        if !hand.is_empty() {
            return Ok(config::update::Change::Keep);
        }
        was = current.map(str::to_string);
        now = match merge {
            true => sync(current)?,
            false => text.to_string(),
        };
        // A copy the user turned off in the agent's own list stays off when its label
        // changes (attacks row 329).
        if let (Some(off), Some(current)) = (
            &conversion.document.dialect.def().disabled_handlers,
            current,
        ) {
            now = config::disabled::follow(off, current, &now, &copy_identity);
        }
        if let (true, Some(ctx), Some(current)) = (keeps_trust, &ctx, current)
            && current != now
        {
            landing |= crate::trust::trust_landing(ctx, path, current.as_bytes(), now.as_bytes())?;
        }
        Ok(config::update::Change::Write(now.clone()))
    });
    let written = match &outcome {
        Ok(config::update::Outcome::Written) => Some(now.as_bytes()),
        _ => None,
    };
    if let (true, Some(ctx)) = (landing, &ctx) {
        crate::trust::trust_landed(ctx, path, written)?;
    }
    let outcome = outcome?;
    if !hand.is_empty() {
        return Ok(Wrote {
            hand_edited: hand,
            ..Wrote::default()
        });
    }
    let mut kept_reviews = None;
    // A handler the write moved keeps its agent's review (Codex keys it by place: row 285), and
    // a copy it rewrote from trusted sources the review its previous bytes had (row 442).
    if outcome == config::update::Outcome::Written
        && let Ok(ctx) = crate::discover::Context::resolve(Some(&opts.project), None)
    {
        let to = conversion.document.dialect;
        let sources: Vec<serde_json::Value> = sources
            .iter()
            .map(|s| config::merge::source_record(path, s).into())
            .collect();
        let vouched = crate::route::review::Vouched {
            sources: &sources,
            runs: convert::runs_of,
        };
        let vouched = (from.reviewed && reviewed_runs(opts, conversion)).then_some(&vouched);
        let kept =
            crate::route::review::follow(&ctx, to, path, (was.as_deref(), Some(&now)), vouched)?;
        if kept > 0 {
            let line = kept_review_line(&ctx, to, path, kept);
            if !opts.json {
                errln!("note: {line}");
            }
            kept_reviews = Some(line);
        }
        // A copy the user turned off in the agent's own switch (Copilot's `disabledHooks`,
        // keyed by the entry) stays off when the write changes it (attacks row 360).
        if let Some(was) = &was {
            let moved = crate::route::moved_switch_keys(was, &now, to, Some(&copy_identity));
            super::install::keep_switched_off(&ctx, to, &moved, &mut Vec::new())?;
        }
    }
    match outcome {
        config::update::Outcome::Unchanged => {
            if !opts.json {
                match path.exists() {
                    true => errln!("{} is up to date", path.display()),
                    false => errln!("no hooks to write; {} not created", path.display()),
                }
            }
            Ok(Wrote::default())
        }
        _ => Ok(Wrote {
            written: Some(path.display().to_string()),
            kept_reviews,
            ..Wrote::default()
        }),
    }
}

/// What [`write_file`] did: the path written, or the diff it would write, and what it said
/// of the agent's reviews it kept.
#[derive(Default)]
pub struct Wrote {
    pub written: Option<String>,
    pub diff: Option<String>,
    pub kept_reviews: Option<String>,
    /// The entries an earlier run wrote that were edited by hand since, each `FILE:LINE:COL:
    /// why`: the file was left as it is.
    pub hand_edited: Vec<String>,
}

/// The sentence for the agent's reviews [`write_file`] kept for copies it rewrote.
fn kept_review_line(
    ctx: &crate::discover::Context,
    to: Dialect,
    path: &Path,
    kept: usize,
) -> String {
    let display = to.def().display;
    let shown = ctx.display(&std::fs::canonicalize(path).unwrap_or(path.to_path_buf()));
    format!(
        "kept {display}'s review of {kept} handler(s) of {shown} that hookx wrote again from \
         sources trusted in hookx (the review their previous bytes had), so that {display} \
         runs them"
    )
}

/// [`convert_to`] for a dialect whose hooks are one script per event: the scripts are printed
/// (each after a `==> NAME <==` line) or written into a folder (`--out DIR`, or the dialect's
/// project folder with `--write`), each atomically with mode 0755. A script there that hookx
/// did not write is left as it is, and the report says so (exit 1); one hookx wrote that was
/// edited by hand since leaves the whole folder as it is unless `--force` (exit 1).
/// `reviewed`: every input is trusted as it is ([`Written::reviewed`]): each script written
/// then is trusted as hookx's output, as a JSON file convert creates is.
pub fn convert_to_scripts(
    opts: &Options,
    to: Dialect,
    conversion: &convert::Conversion,
    sources: &[&str],
    several: bool,
    reviewed: bool,
) -> Result<(Option<serde_json::Value>, i32), Error> {
    let layout = to
        .config()
        .scripts
        .ok_or_else(|| Error::Usage(format!("{to} has no hook scripts")))?;
    let (scripts, mut left) = config::scripts::emit(
        &conversion.document,
        layout,
        &crate::dispatch::select::may_fire,
    );
    let dir = match (&opts.out, opts.write) {
        (Some(out), _) => Some(out.clone()),
        (None, true) => Some(opts.project.join(to.config().convert_target)),
        (None, false) => None,
    };
    let (scripts, stale) = match &dir {
        Some(dir) => {
            let (placed, more, stale) = config::scripts::place(dir, scripts, layout, sources);
            left.extend(more);
            // Written, each script's record carries the digest of what it is, as a JSON
            // copy's entry does.
            let placed = (placed.into_iter())
                .map(|(name, text)| (name, config::scripts::stamped(&text)))
                .collect();
            (placed, stale)
        }
        None => (scripts, Vec::new()),
    };
    let lossy = !conversion.losses.is_empty();
    let mut written = Vec::new();
    let mut refused: Vec<String> = left
        .iter()
        .map(|l| format!("{l}: {to} runs no more scripts of this event from one folder"))
        .collect();
    // Every script's place is checked before any is written: a refusal after the first
    // scripts left the folder half converted (attacks row 480).
    if let (Some(dir), None) = (&dir, &opts.out) {
        for (name, _) in &scripts {
            default_target_stays_inside(opts, &dir.join(name))?;
        }
    }
    // A script an earlier run wrote and the user edited since (one to write over, or one to
    // remove with its rule) is not written over unless --force, as a JSON copy's entry and as
    // `hookx sync`: the folder is left as it is, and each such script named (attacks rows
    // 2320, 2370).
    let hand: Vec<String> = match (&dir, opts.force) {
        (Some(dir), false) => (scripts.iter())
            .map(|(name, text)| (name, Some(text.as_str())))
            .chain(stale.iter().map(|name| (name, None)))
            .filter_map(|(name, new)| {
                let path = dir.join(name);
                let before = crate::read::existing_text(&path, crate::read::MAX_FILE_BYTES);
                let before = before.ok().flatten().filter(|b| Some(b.as_str()) != new)?;
                let why = config::scripts::hand_edit(&before)?;
                Some(format!("{}:1:1: {why}", path.display()))
            })
            .collect(),
        _ => Vec::new(),
    };
    let held = !hand.is_empty();
    refused.extend(hand);
    // Where the write keeps the scripts' trust (every input trusted as it is, the entries
    // running what was reviewed).
    let ctx = (reviewed && reviewed_runs(opts, conversion))
        .then(|| crate::discover::Context::resolve(Some(&opts.project), None).ok())
        .flatten();
    let mut shown = String::new();
    for (name, text) in scripts.iter().filter(|_| !held) {
        let Some(dir) = &dir else {
            shown.push_str(&format!("==> {name} <==\n{text}"));
            continue;
        };
        let path = dir.join(name);
        let before = match crate::read::existing_text(&path, crate::read::MAX_FILE_BYTES) {
            Ok(before) => before,
            Err(e) => {
                refused.push(format!(
                    "{}: a hook hookx convert did not write ({e}), not overwritten",
                    path.display()
                ));
                continue;
            }
        };
        if before
            .as_deref()
            .is_some_and(|b| !config::scripts::is_converted(b))
        {
            refused.push(format!(
                "{}: a hook hookx convert did not write, not overwritten",
                path.display()
            ));
            continue;
        }
        // A rule whose command is this very script (the copy of a script converted back where
        // the original is gone): written, each run would start the next without end.
        if config::scripts::runs_itself(&opts.project, &path, text) {
            refused.push(format!(
                "{}: its command runs this script itself, which would start itself again \
                 without end; not written (the rule's command names a script of {to}'s hook \
                 folder: restore that script, or give the rule the command it runs)",
                path.display()
            ));
            continue;
        }
        if opts.dry_run {
            let shown_path = path.display().to_string();
            shown.push_str(
                &similar::TextDiff::from_lines(before.as_deref().unwrap_or_default(), text)
                    .unified_diff()
                    .header(&shown_path, &shown_path)
                    .to_string(),
            );
        } else if !(opts.strict && lossy) && before.as_deref() != Some(text.as_str()) {
            // A script rewritten from trusted inputs keeps its trust at every moment: the
            // record trusts the new bytes beside the old before the rename, and them alone
            // after, as `write_file` (attacks row 2109: a run in between found the copy
            // changed, and Cline's route ran its original beside it).
            let landing = match (&ctx, before.as_deref()) {
                (Some(ctx), Some(before)) => {
                    crate::trust::trust_landing(ctx, &path, before.as_bytes(), text.as_bytes())?
                }
                _ => false,
            };
            let wrote = config::scripts::write_executable(&path, text);
            if let (true, Some(ctx)) = (landing, &ctx) {
                let landed = wrote.as_ref().ok().map(|()| text.as_bytes());
                crate::trust::trust_landed(ctx, &path, landed)?;
            }
            wrote?;
            written.push(path.display().to_string());
            trust_new_output(opts, conversion, reviewed, &path)?;
        }
    }
    if opts.strict && lossy && dir.is_some() && !opts.dry_run {
        errln!("not writing: the conversion loses something (--strict)");
    }
    let mut removed = Vec::new();
    if let (Some(dir), false) = (&dir, opts.dry_run || (opts.strict && lossy) || held) {
        for name in &stale {
            let path = dir.join(name);
            std::fs::remove_file(&path).map_err(|e| Error::Io {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
            errln!(
                "removed {}: a copy of a rule its source no longer has",
                path.display()
            );
            removed.push(path.display().to_string());
        }
    }
    let code = match (opts.strict && lossy, refused.is_empty()) {
        (true, _) => EXIT_LOSSES,
        (false, false) => 1,
        (false, true) => 0,
    };
    let fields = serde_json::json!({
        "scripts": scripts
            .iter()
            .map(|(name, text)| serde_json::json!({"name": name, "text": text}))
            .collect::<Vec<_>>(),
        "written": written,
        "removed": removed,
        "refused": refused,
    });
    let done = Done {
        written: &written,
        refused: &refused,
        fields,
        code,
    };
    Ok(report(opts, to, conversion, several, done, || {
        out!("{shown}")
    }))
}

/// [`convert_to`] for an agent whose hooks are code: one plugin around the converted handlers
/// (a write-only target: no file of the agent's is read or merged). Printed, or written whole
/// (`--out FILE`, or the agent's project file with `--write`); a file there that hookx did not
/// write is left as it is (exit 1), and so is one hookx wrote that was edited by hand since,
/// unless `--force` (named, exit 1).
fn convert_to_plugin(
    opts: &Options,
    to: Dialect,
    plugin: &crate::tables::GeneratedPlugin,
    conversion: &convert::Conversion,
    several: bool,
) -> Result<(Option<serde_json::Value>, i32), Error> {
    let target = match (&opts.out, opts.write) {
        (Some(out), _) => Some(out.clone()),
        (None, true) => Some(opts.project.join(to.config().convert_target)),
        (None, false) => None,
    };
    if let (Some(path), None) = (&target, &opts.out) {
        default_target_stays_inside(opts, path)?;
    }
    // Printed, it is the plugin `--write` would write.
    let at = target
        .clone()
        .unwrap_or_else(|| opts.project.join(to.config().convert_target));
    let make = |current: Option<&str>| {
        crate::route::converted_plugin(plugin, to, &conversion.document, &at, current)
    };
    let before = target
        .as_ref()
        .and_then(|path| crate::read::text(path, crate::read::MAX_FILE_BYTES).ok());
    let text = make(before.as_deref());
    let lossy = !conversion.losses.is_empty();
    // A plugin an earlier run wrote and the user edited since (its handlers' data or its
    // code) is not written over unless --force, as a JSON copy's entry and as `hookx sync`:
    // the file is left as it is, and named (attacks rows 2320, 2371).
    let edited = |path: &Path, current: &str| -> Vec<String> {
        match opts.force {
            true => Vec::new(),
            false => crate::route::plugin_hand_edit(plugin, current)
                .map(|why| format!("{}:1:1: {why}", path.display()))
                .into_iter()
                .collect(),
        }
    };
    let mut written = None;
    let mut refused = Vec::new();
    let mut diff = None;
    if let Some(path) = &target {
        let hand = before.as_deref().map_or_else(Vec::new, |b| edited(path, b));
        if before
            .as_deref()
            .is_some_and(|b| !crate::route::is_own_plugin(plugin, b))
        {
            refused.push(format!(
                "{}: a plugin hookx did not write, not overwritten",
                path.display()
            ));
        } else if !hand.is_empty() {
            refused = hand;
        } else if opts.dry_run {
            let shown = path.display().to_string();
            diff = Some(
                similar::TextDiff::from_lines(before.as_deref().unwrap_or_default(), &text)
                    .unified_diff()
                    .header(&shown, &shown)
                    .to_string(),
            );
        } else if opts.strict && lossy {
            errln!(
                "not writing {}: the conversion loses something (--strict)",
                path.display()
            );
        } else if before.is_none() && conversion.document.rules.is_empty() {
            // Nothing converts and there is no plugin to update: nothing is created.
            errln!(
                "{}",
                crate::diag::style(&format!(
                    "note: no hooks found that convert to {to}; nothing written"
                ))
            );
        } else {
            // Under the writer's lock, from the file as it is then.
            let mut hand = Vec::new();
            let outcome = config::update::update(path, |current| {
                if current.is_some_and(|c| !crate::route::is_own_plugin(plugin, c)) {
                    return Err(Error::Io {
                        path: path.display().to_string(),
                        message: "a plugin hookx did not write, not overwritten".into(),
                    });
                }
                hand = current.map_or_else(Vec::new, |c| edited(path, c));
                match hand.is_empty() {
                    true => Ok(config::update::Change::Write(make(current))),
                    false => Ok(config::update::Change::Keep),
                }
            })?;
            if !hand.is_empty() {
                refused = hand;
            } else if outcome != config::update::Outcome::Unchanged {
                written = Some(path.display().to_string());
            }
        }
    }
    let code = match (opts.strict && lossy, !refused.is_empty()) {
        (true, _) => EXIT_LOSSES,
        (false, true) => 1,
        (false, false) => 0,
    };
    // One file: what stops its write is one string.
    let refusal = refused.first();
    let fields = serde_json::json!({
        "output": if target.is_none() { Some(&text) } else { None },
        "written": written,
        "refused": refusal,
        "diff": diff,
    });
    let print = || {
        if target.is_none() {
            out!("{text}");
        }
        if let Some(diff) = &diff {
            out!("{diff}");
        }
    };
    let done = Done {
        written: written.as_slice(),
        refused: &refused,
        fields,
        code,
    };
    Ok(report(opts, to, conversion, several, done, print))
}
