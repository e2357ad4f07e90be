//! Hook folders of a dialect whose hooks are executables, one per event, named after it
//! ([`ScriptLayout`], Cline): reading one script as a rule, writing scripts.
//!
//! A script is one rule of its event with no matcher, whose handler's command is the script's
//! path. What the dialect knows about the layout is data in its [`ScriptLayout`].

use super::read::Parsed;
use crate::diag::{Diagnostic, Severity};
use crate::model::{Command, EventKind, Handler, HandlerKind};
use crate::shell::shell_quote;
use crate::tables::ScriptLayout;
use crate::tables::{Dialect, Flavor};
use crate::tables::{Document, Origin, Rule, RuleShape};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The second line of a route script `hookx install` writes; install replaces and removes
/// only scripts with it, and leaves one with lines of the user's as it is (attacks row 328).
pub const ROUTE_MARK: &str =
    "# hookx route (hookx install): do not edit, install leaves an edited route as it is";
/// The marks routes wore before [`ROUTE_MARK`]: their scripts are still hookx's.
const OLD_ROUTE_MARKS: &[&str] = &["# hookx route (hookx install): edits are overwritten"];
/// The second line of a script `hookx convert` writes; convert overwrites only scripts with it.
pub const CONVERTED_MARK: &str = "# written by hookx convert: edits are overwritten";

/// The event a script file name stands for in `dialect`'s layout, its flavour, and the matcher
/// the name is: the value of the field it tells ([`crate::tables::Tables::event_values`]:
/// Cline's `TaskResume` is a SessionStart on `resume`).
pub fn event_of(
    dialect: Dialect,
    layout: &ScriptLayout,
    name: &str,
) -> Option<(EventKind, Flavor, Option<&'static str>)> {
    let lower = name.to_ascii_lowercase();
    let stem = layout
        .extensions
        .iter()
        .filter(|ext| ext.is_empty() || lower.ends_with(&ext.to_ascii_lowercase()))
        .map(|ext| &name[..name.len() - ext.len()])
        // The longest ending that fits: `PreToolUse.sh` is not `PreToolUse.sh` without "".
        .min_by_key(|stem| stem.len())?;
    let stem = stem.trim();
    let known = dialect.flavors().find_map(|flavor| {
        let t = flavor.tables();
        let (kind, _) = t
            .events
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(stem))?;
        let told = t.event_value(stem).map(|(_, value)| value);
        Some((kind.clone(), flavor, told))
    });
    known.or_else(|| {
        let other = layout
            .other_events
            .iter()
            .find(|n| n.eq_ignore_ascii_case(stem))?;
        Some((EventKind::from_name(other), dialect.default_flavor(), None))
    })
}

/// Reads one script of a hook folder: the rule it is, or a warning saying why the agent does not
/// run it (a name that is no event, no executable bit where the agent needs one). `run_in`:
/// the project of the `run` that will start it, whose folders its program is not taken from
/// ([`program_outside`]); `None` names the program as the agent does (`list`, `convert`, …).
pub fn read(
    path: &Path,
    display: &str,
    text: &str,
    dialect: Dialect,
    layout: &ScriptLayout,
    run_in: Option<&Path>,
) -> Parsed {
    let mut document = Document::new(dialect, dialect.config().documents.file);
    let mut diagnostics = Vec::new();
    let warn = |message: String, help: Option<String>| Diagnostic {
        severity: Severity::Warning,
        file: display.to_string(),
        line: 0,
        col: 0,
        pointer: None,
        message,
        help,
        snippet: None,
    };
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let Some((event, flavor, told)) = event_of(dialect, layout, name) else {
        let events: Vec<&str> = dialect
            .flavors()
            .flat_map(|f| f.tables().events.iter().map(|(_, n)| *n))
            .chain(layout.other_events.iter().copied())
            .collect();
        diagnostics.push(warn(
            format!(
                "{} runs no hook named `{name}`: a hook's name is its event",
                dialect.def().display
            ),
            Some(format!(
                "name it after one of: {}, optionally ending in {}",
                events.join(", "),
                layout
                    .extensions
                    .iter()
                    .filter(|e| !e.is_empty())
                    .copied()
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
        ));
        return Parsed {
            document,
            diagnostics,
        };
    };
    if is_emptied_route(text) {
        return Parsed {
            document,
            diagnostics,
        };
    }
    if !layout.runs_unexecutable && !is_executable(path) {
        diagnostics.push(warn(
            format!("not executable: {} skips this hook", dialect.def().display),
            Some(format!(
                "chmod +x {}",
                shell_quote(&path.display().to_string())
            )),
        ));
        return Parsed {
            document,
            diagnostics,
        };
    }
    let (command, record) = match hookx_line(text) {
        Some((line, record)) => (line.to_string(), record),
        None => (launch(path, text, layout, run_in), None),
    };
    let mut extra = serde_json::Map::new();
    if let Some(mut record) = record {
        // The digest is of the script, not of the handler it is ([`stamped`]).
        if let Some(record) = record.as_object_mut() {
            record.shift_remove(DIGEST);
        }
        extra.insert(super::MARKER.into(), record);
    }
    document.rules.push(Rule {
        event,
        flavor,
        matcher: told.map(str::to_string),
        handlers: vec![Handler {
            kind: HandlerKind::Command(Command {
                command: Some(command),
                ..Command::default()
            }),
            timeout: None,
            status_message: None,
            once: None,
            extra,
        }],
        shape: RuleShape::Group,
        extra: Default::default(),
        origin: Origin {
            file: display.to_string(),
            pointer: String::new(),
        },
    });
    Parsed {
        document,
        diagnostics,
    }
}

/// The command line the agent runs a script with: the script itself where the agent needs
/// the executable bit, else its `#!` interpreter or the program for its ending, then its path.
/// With `run_in`, a program named without a folder is named by the path hookx found it at
/// ([`program_outside`]).
fn launch(path: &Path, text: &str, layout: &ScriptLayout, run_in: Option<&Path>) -> String {
    let file = shell_quote(&path.display().to_string());
    if !layout.runs_unexecutable {
        return file;
    }
    let shebang: Vec<&str> = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("#!"))
        .map(|l| l.split_whitespace().collect())
        .unwrap_or_default();
    let base = |w: &str| w.rsplit('/').next().unwrap_or(w).to_string();
    let mut words: Vec<String> = shebang.iter().map(|w| w.to_string()).collect();
    if words.first().is_some_and(|w| base(w) == "env") {
        words.remove(0);
    }
    if let Some(first) = words.first_mut()
        && layout.path_interpreters.contains(&base(first).as_str())
    {
        *first = base(first);
    }
    if words.is_empty() {
        let lower = path.display().to_string().to_ascii_lowercase();
        let program = (layout.runners.iter())
            .find(|(ext, _)| lower.ends_with(ext))
            .map_or(layout.default_runner, |(_, program)| program);
        words = program.split_whitespace().map(str::to_string).collect();
    }
    if let (Some(project), Some(first)) = (run_in, words.first_mut())
        && !first.contains('/')
        && let Some(found) = program_outside(first, project)
    {
        *first = found.display().to_string();
    }
    let program: Vec<String> = words.iter().map(|w| shell_quote(w)).collect();
    format!("{} {file}", program.join(" "))
}

/// The folders a program is looked for in where `PATH` has none of it outside the project.
const SYSTEM_PROGRAMS: &[&str] = &["/usr/local/bin", "/usr/bin", "/bin"];

/// Where `sh` would find the program `name` on `PATH`, leaving out the folders a project can
/// fill: relative ones (the script runs in the project) and those inside `project`. An agent
/// hands a project's `PATH` to every hook (Claude's settings `env`), while the agent whose
/// script it is finds its program on its own `PATH` (attacks row 780); where no other folder
/// on `PATH` has it, the system's own (row 781). `None`: found nowhere, the name is kept.
fn program_outside(name: &str, project: &Path) -> Option<PathBuf> {
    let real = |dir: &Path| dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let project = real(project);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let outside = |dir: &Path| dir.is_absolute() && !real(dir).starts_with(&project);
    let found = |dir: &Path| Some(dir.join(name)).filter(|f| f.is_file() && is_executable(f));
    // The program looked for first: only a folder that has it is made canonical.
    (std::env::split_paths(&path))
        .filter_map(|dir| found(&dir).filter(|_| outside(&dir)))
        .chain(
            SYSTEM_PROGRAMS
                .iter()
                .filter_map(|dir| found(Path::new(dir))),
        )
        .next()
}

/// Whether the file's mode lets its owner run it.
pub fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// Whether a script is a route `hookx install` wrote.
pub fn is_route(text: &str) -> bool {
    std::iter::once(&ROUTE_MARK)
        .chain(OLD_ROUTE_MARKS)
        .any(|mark| wears(text, mark))
}

/// Whether `text` begins as every script hookx writes does: `#!/bin/sh`, then `mark`. A script
/// with another interpreter runs as its `#!` line says, whatever its second line claims: hookx
/// must not read its body as a `/bin/sh` command line.
fn wears(text: &str, mark: &str) -> bool {
    let mut lines = text.lines();
    lines.next() == Some("#!/bin/sh") && lines.next() == Some(mark)
}

/// A route script that routes nothing: what uninstall leaves in place of a route script the
/// user linked in from elsewhere (a dotfiles folder), the link and the file it names kept, as
/// for JSON files and whole files behind links (attacks rows 280, 292, 408: removing the link
/// left the last route in the dotfiles copy, for a re-link to bring back). Cline runs it as a
/// hook that answers nothing (an empty stdout is `{}`: Cline 3.0.65's `@cline/core`); hookx
/// reads no rule in it, and the next install takes it back as its own.
pub fn emptied_route() -> String {
    format!("#!/bin/sh\n{ROUTE_MARK}\n")
}

/// Whether `text` is [`emptied_route`] (told without building it: every script read asks).
pub fn is_emptied_route(text: &str) -> bool {
    text.strip_prefix("#!/bin/sh\n")
        .and_then(|rest| rest.strip_prefix(ROUTE_MARK))
        == Some("\n")
}

/// Whether `text` is a route of hookx's the user edited: install leaves it as it is.
pub fn is_edited_route(text: &str) -> bool {
    is_route(text) && route_line(text).is_none() && !is_emptied_route(text)
}

/// The one command line of a route script `hookx install` wrote, if it is one.
pub fn route_line(text: &str) -> Option<&str> {
    is_route(text)
        .then(|| hookx_line(text).map(|(line, _)| line))
        .flatten()
}

/// The command line a route script ends in, hookx's as written or edited by the user (a guard
/// line of theirs before it, row 328's use): what it routes when it gets there. The run path
/// reads an edited route as still routing, so a project route leaves the event to it rather
/// than run every rule a second time (attacks row 361); install still leaves it as it is.
pub fn routed_line(text: &str) -> Option<&str> {
    if let Some(line) = route_line(text) {
        return Some(line);
    }
    let last = text.lines().rev().find(|l| !l.trim().is_empty())?;
    is_route(text).then(|| last.strip_prefix("exec ")).flatten()
}

/// An edited route ([`routed_line`] but not [`route_line`]) without the route line it ends
/// in: what hookx runs of it for another host. The user's lines run there as theirs; the
/// route would run every rule again inside the run that runs it (attacks row 365).
pub fn without_route_line(text: &str) -> Option<String> {
    if route_line(text).is_some() {
        return None;
    }
    let line = routed_line(text)?;
    let end = text.rfind(line)?.checked_sub("exec ".len())?;
    Some(text[..end].to_string())
}

/// Whether a script is one `hookx convert` wrote.
pub fn is_converted(text: &str) -> bool {
    wears(text, CONVERTED_MARK)
}

/// Whether the script `text`, written at `path`, runs `path` itself: a word of its command
/// line (split at spaces and quotes, so a wrapped `hookx exec … -- 'sh PATH'` too) that names
/// that file, read from `project`, where the agent runs its scripts. A Cline folder converted
/// to Claude and back, once the originals were gone, gave scripts whose one line was `sh
/// .clinerules/hooks/TaskResume` in `.clinerules/hooks/TaskResume`: each run started the next,
/// without end (attacks row 2438).
pub fn runs_itself(project: &Path, path: &Path, text: &str) -> bool {
    let Some((line, _)) = hookx_line(text) else {
        return false;
    };
    let plain = |p: &Path| -> Option<PathBuf> {
        let absolute = std::path::absolute(p).ok()?;
        Some(
            absolute
                .components()
                .filter(|c| !matches!(c, std::path::Component::CurDir))
                .collect(),
        )
    };
    let Some(own) = plain(path) else {
        return false;
    };
    line.split(|c: char| c.is_whitespace() || c == '\'' || c == '"')
        .filter(|w| w.contains('/'))
        .any(|w| plain(&project.join(w)).is_some_and(|p| p == own))
}

/// The command line a script hookx wrote runs ([`route_script`], [`converted_script`]), and
/// the provenance record a converted one carries: such a script is read as that line, so
/// that a route is known as hookx's and a converted handler converts back to what it was.
fn hookx_line(text: &str) -> Option<(&str, Option<serde_json::Value>)> {
    let body = text.splitn(3, '\n').nth(2)?;
    if is_converted(text) {
        let body = body.strip_suffix('\n').unwrap_or(body);
        let record = body
            .strip_prefix(RECORD_PREFIX)
            .and_then(|rest| rest.split_once('\n'))
            .and_then(|(json, line)| Some((serde_json::from_str(json).ok()?, line)));
        return Some(match record {
            Some((record, line)) => (line, Some(record)),
            None => (body, None),
        });
    }
    let line = body.strip_prefix("exec ")?.strip_suffix('\n')?;
    (is_route(text) && !line.contains('\n')).then_some((line, None))
}

/// Before a converted script's command line: the handler's provenance record
/// ([`super::MARKER`]), as one line of JSON in a comment.
const RECORD_PREFIX: &str = "# hookx: ";

/// The record's field holding what the script held when hookx wrote it ([`stamped`]), as a
/// JSON copy's record holds its entry's ([`super::merge::sync_text`]).
const DIGEST: &str = "digest";

/// A converted script's record: where its JSON lies in `text`, and the record.
fn record_of(text: &str) -> Option<(std::ops::Range<usize>, serde_json::Map<String, Value>)> {
    if !is_converted(text) {
        return None;
    }
    let start = "#!/bin/sh\n".len() + CONVERTED_MARK.len() + 1 + RECORD_PREFIX.len();
    let json = text.get(start - RECORD_PREFIX.len()..)?;
    let json = json.strip_prefix(RECORD_PREFIX)?;
    let end = start + json.find('\n')?;
    match serde_json::from_str(&text[start..end]).ok()? {
        Value::Object(record) => Some((start..end, record)),
        _ => None,
    }
}

/// `text` with `record` in place of its record's JSON at `at`.
fn with_record(
    text: &str,
    at: &std::ops::Range<usize>,
    record: serde_json::Map<String, Value>,
) -> String {
    format!(
        "{}{}{}",
        &text[..at.start],
        Value::Object(record),
        &text[at.end..]
    )
}

/// A converted script without its record's digest (as an older hookx wrote it, and as the
/// digest is taken of); other scripts as they are.
pub fn undigested(text: &str) -> String {
    match record_of(text) {
        Some((at, mut record)) => {
            record.shift_remove(DIGEST);
            with_record(text, &at, record)
        }
        None => text.to_string(),
    }
}

/// The digest of a script as [`undigested`] gives it: the first 16 digits of its SHA-256.
fn digest_of(undigested: &str) -> String {
    crate::hash::sha256_hex(undigested.as_bytes())[..16].to_string()
}

/// A converted script as `convert --write` and `sync` write it: its record carries the digest
/// of what the script is (the digest aside), so that the next write tells a hand edit of it
/// ([`hand_edit`]). A script without a record is as it is.
pub fn stamped(text: &str) -> String {
    let bare = undigested(text);
    match record_of(&bare) {
        Some((at, mut record)) => {
            record.insert(DIGEST.into(), Value::from(digest_of(&bare)));
            with_record(&bare, &at, record)
        }
        None => bare,
    }
}

/// Why a script hookx converted (`text`) is not to be written over (or removed) without
/// `--force`: it is not what its record's digest says hookx wrote (edited by hand since).
/// `None`: as hookx wrote it; not a converted script with a record (for its caller to refuse
/// or take); or written by an older hookx, which recorded no digest: taken as written, as a
/// JSON copy without one (its header told "edits are overwritten", and hookx's own text for
/// a handler changes between versions: an older copy is hookx's to bring up to date).
pub fn hand_edit(text: &str) -> Option<&'static str> {
    let (at, mut record) = record_of(text)?;
    let recorded = record.shift_remove(DIGEST)?;
    (recorded.as_str() != Some(&digest_of(&with_record(text, &at, record)))).then_some(
        "the script hookx wrote was edited by hand since (move the change into the source, \
         or --force to overwrite it)",
    )
}

/// The route `hookx install` writes: POSIX sh that becomes `line` (one simple command).
pub fn route_script(line: &str) -> String {
    format!("#!/bin/sh\n{ROUTE_MARK}\nexec {line}\n")
}

/// A converted handler: POSIX sh running its command line as written, stdin and stdout the
/// agent's; its provenance record, where it has one, in a comment before the line.
pub fn converted_script(line: &str, record: Option<&serde_json::Value>) -> String {
    match record {
        Some(record) => format!("#!/bin/sh\n{CONVERTED_MARK}\n{RECORD_PREFIX}{record}\n{line}\n"),
        None => format!("#!/bin/sh\n{CONVERTED_MARK}\n{line}\n"),
    }
}

/// Writes `text` to `path` with mode 0755 in one rename: the agent never sees a half-written
/// or unexecutable script.
pub fn write_executable(path: &Path, text: &str) -> Result<(), crate::error::Error> {
    use std::io::Write;
    let io = |e: std::io::Error| crate::error::Error::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".hookx-");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o755));
    let mut tmp = builder.tempfile_in(dir).map_err(io)?;
    tmp.write_all(text.as_bytes()).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// The scripts a document becomes: (file name, text), one per command handler, and the
/// command lines left over. The agent reads one answer per script and merges the answers of
/// all scripts of an event, so each handler is a script of its own: the event's name, then
/// the event's name with each of the layout's endings (its `#!/bin/sh` line decides how it
/// runs, not the ending). An event with more handlers than names leaves the rest over.
/// `fires` tells whether a rule's matcher may fire on an event (the dispatcher's, passed in:
/// config sits below dispatch).
pub fn emit(
    doc: &Document,
    layout: &ScriptLayout,
    fires: &dyn Fn(&Rule, &crate::model::Event) -> bool,
) -> (Vec<(String, String)>, Vec<String>) {
    type Line<'a> = (String, Option<&'a serde_json::Value>);
    let mut events: Vec<(String, Vec<Line>)> = Vec::new();
    for rule in &doc.rules {
        let lines: Vec<Line> = (rule.handlers.iter())
            .filter_map(|h| match &h.kind {
                HandlerKind::Command(c) => {
                    Some((c.unix_line()?.to_string(), h.extra.get(super::MARKER)))
                }
                _ => None,
            })
            .collect();
        for name in names_of(rule, fires) {
            match events.iter_mut().find(|(n, _)| *n == name) {
                Some((_, existing)) => existing.extend(lines.iter().cloned()),
                None => events.push((name, lines.clone())),
            }
        }
    }
    let mut scripts = Vec::new();
    let mut left = Vec::new();
    for (name, lines) in events {
        for (i, (line, record)) in lines.into_iter().enumerate() {
            match layout.extensions.get(i) {
                Some(ext) => {
                    scripts.push((format!("{name}{ext}"), converted_script(&line, record)))
                }
                None => left.push(format!("{name}: {line}")),
            }
        }
    }
    (scripts, left)
}

/// The event names a rule's scripts take: its event's name, or, where the flavour fires the
/// event under several names each telling a field's value
/// ([`crate::tables::Tables::event_values`]), each name whose value the rule's matcher accepts
/// (a Claude SessionStart rule on `resume` goes in Cline's `TaskResume` only, one with no
/// matcher in `TaskStart` and `TaskResume`).
fn names_of(rule: &Rule, fires: &dyn Fn(&Rule, &crate::model::Event) -> bool) -> Vec<String> {
    let t = rule.flavor.tables();
    let names: Vec<&str> = t.event_names(&rule.event).collect();
    let Some(first) = names.first() else {
        return vec![rule.event.name().to_string()];
    };
    let accepts = |name: &str| {
        let Some((key, value)) = t.event_value(name) else {
            return true;
        };
        let mut event = crate::model::Event::bare(rule.event.clone());
        event.fields.insert(key.into(), value.into());
        fires(rule, &event)
    };
    match names.iter().filter(|n| accepts(n)).collect::<Vec<_>>() {
        // A matcher no name's value meets: the rule is written under the first, as before.
        chosen if chosen.is_empty() => vec![first.to_string()],
        chosen => chosen.into_iter().map(|n| n.to_string()).collect(),
    }
}

/// The names the scripts [`emit`] gives take in `dir`, which may hold scripts already: an
/// event's name, then the event's name with each of the layout's endings, skipping every name
/// that holds a script converted from a source this run does not convert (a copy of another
/// file's rule: the agent runs it beside these, attacks row 765: a second file's copies took
/// the names of the first's, whose guard then ran nowhere) or hookx's route (install came
/// first, row 771: convert refused to write beside it). A name holding one of this run's
/// sources' copies, or anything else, is taken in turn as before. Returns the scripts placed,
/// the command lines left over (no name free), and the names of this run's sources' scripts
/// in the folder that no new script takes (copies of rules their source no longer has, to
/// remove, as a JSON target's are). `sources`: the files this run converts, as convert names
/// them; a source that no longer has any rule makes no script, and its copies go too (attacks
/// row 2372: they ran on after their rules were deleted).
pub fn place(
    dir: &Path,
    scripts: Vec<(String, String)>,
    layout: &ScriptLayout,
    sources: &[&str],
) -> (Vec<(String, String)>, Vec<String>, Vec<String>) {
    let resolved =
        |source: &str| std::fs::canonicalize(source).unwrap_or_else(|_| PathBuf::from(source));
    let ours: Vec<PathBuf> = (scripts.iter())
        .filter_map(|(_, t)| source_of(t))
        .chain(sources.iter().map(|s| resolved(s)))
        .collect();
    let lines: Vec<String> = scripts
        .iter()
        .filter_map(|(_, t)| Some(hookx_line(t)?.0.to_string()))
        .collect();
    let at = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    // Ours: a copy from a source this run converts, or one running what a new script runs (the
    // same rule, copied into another file first: row 767's loop).
    let owned = |text: &str| {
        is_converted(text)
            && (source_of(text).is_some_and(|s| ours.contains(&s))
                || hookx_line(text).is_some_and(|l| lines.iter().any(|n| n == l.0)))
    };
    let theirs = |text: &str| {
        is_route(text) || is_converted(text) && source_of(text).is_some() && !owned(text)
    };
    let mut events: Vec<(String, Vec<String>)> = Vec::new();
    for (name, text) in scripts {
        let (stem, _, _) = folder_order(&name, layout);
        match events.iter_mut().find(|(e, _)| *e == stem) {
            Some((_, texts)) => texts.push(text),
            None => events.push((stem, vec![text])),
        }
    }
    let (mut placed, mut left) = (Vec::new(), Vec::new());
    for (event, texts) in events {
        let mut names = layout
            .extensions
            .iter()
            .map(|ext| format!("{event}{ext}"))
            .filter(|name| !at(name).is_some_and(|t| theirs(&t)));
        for text in texts {
            match names.next() {
                Some(name) => placed.push((name, text)),
                None => left.push(format!(
                    "{event}: {}",
                    hookx_line(&text).map_or("", |l| l.0)
                )),
            }
        }
    }
    let ours_left = |name: &String| {
        !placed.iter().any(|(n, _)| n == name) && at(name).is_some_and(|t| owned(&t))
    };
    let mut stale: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(ours_left)
        .collect();
    stale.sort();
    (placed, left, stale)
}

/// The source file a converted script's provenance record names, resolved from the working
/// directory (as convert names it) where it exists.
fn source_of(text: &str) -> Option<PathBuf> {
    let (_, record) = hookx_line(text)?;
    let source = record?.get("source")?.as_str()?.to_string();
    Some(std::fs::canonicalize(&source).unwrap_or_else(|_| PathBuf::from(source)))
}

/// Where a script sorts in its folder: by its event, then in the order of the layout's
/// endings (the order [`emit`] gives an event's scripts), so that a folder hookx wrote reads
/// back in the order it was written.
fn folder_order(name: &str, layout: &ScriptLayout) -> (String, usize, String) {
    let lower = name.to_ascii_lowercase();
    let (stem, ending) = layout
        .extensions
        .iter()
        .enumerate()
        .filter(|(_, ext)| ext.is_empty() || lower.ends_with(&ext.to_ascii_lowercase()))
        .map(|(i, ext)| (&name[..name.len() - ext.len()], i))
        .min_by_key(|(stem, _)| stem.len())
        .unwrap_or((name, usize::MAX));
    (stem.to_string(), ending, name.to_string())
}

/// Reads a hook folder (or one script) of a script-layout dialect as one document: every
/// script's rule, in name order, and every warning.
pub fn read_path(path: &Path, display: &str, dialect: Dialect, layout: &ScriptLayout) -> Parsed {
    let files: Vec<std::path::PathBuf> = match std::fs::read_dir(path) {
        Ok(entries) => {
            let mut files: Vec<_> = entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| !n.starts_with('.'))
                })
                .collect();
            files.sort_by_cached_key(|p| {
                folder_order(p.file_name().and_then(|n| n.to_str()).unwrap_or(""), layout)
            });
            files
        }
        Err(_) => vec![path.to_path_buf()],
    };
    let mut document = Document::new(dialect, dialect.config().documents.file);
    let mut diagnostics = Vec::new();
    for file in files {
        let absolute = std::fs::canonicalize(&file).unwrap_or(file.clone());
        let shown = match file.strip_prefix(path) {
            Ok(rel) if !rel.as_os_str().is_empty() => {
                format!("{}/{}", display.trim_end_matches('/'), rel.display())
            }
            _ => display.to_string(),
        };
        let text = crate::read::bytes(&file, crate::read::MAX_FILE_BYTES)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let mut parsed = read(&absolute, &shown, &text, dialect, layout, None);
        // What `convert` writes from it may be committed: the script is named from the
        // project (or the home), not by this machine's path.
        let portable = portable_path(&absolute, dialect);
        let quoted = shell_quote(&absolute.display().to_string());
        for rule in &mut parsed.document.rules {
            for handler in &mut rule.handlers {
                if let HandlerKind::Command(c) = &mut handler.kind
                    && let Some(line) = c.command.as_mut()
                    && let Some(program) = line.strip_suffix(quoted.as_str())
                {
                    *line = format!("{program}{portable}");
                }
            }
        }
        document.rules.extend(parsed.document.rules);
        diagnostics.extend(parsed.diagnostics);
    }
    Parsed {
        document,
        diagnostics,
    }
}

/// A script of a hook folder as a shell word that names it from where hooks run: relative to
/// the project when it lies in one of the dialect's project folders (agents run hooks from the
/// project root), from `$HOME` in one of its home folders, else by its path.
fn portable_path(absolute: &Path, dialect: Dialect) -> String {
    let shown = absolute.display().to_string();
    for location in dialect.def().locations {
        let crate::tables::Pattern::Scripts(dir) = location.pattern else {
            continue;
        };
        let Some(at) = shown.find(&format!("/{dir}/")) else {
            continue;
        };
        let rest = &shown[at + 1..];
        match location.root {
            crate::tables::Root::Project => return shell_quote(rest),
            crate::tables::Root::Home => {
                let home = std::env::var("HOME").unwrap_or_default();
                if !home.is_empty() && shown[..at] == *home.trim_end_matches('/') {
                    return format!("\"$HOME\"/{}", shell_quote(rest));
                }
            }
            crate::tables::Root::Managed => {}
        }
    }
    shell_quote(&shown)
}
