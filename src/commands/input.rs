//! Reading the config files named on a command line (`-`: stdin): the dialect given, or
//! detected from path and content; a script folder is read as one file. For `hookx convert`
//! and `hookx validate`.

use crate::config::{self, Parsed};
use crate::error::Error;
use crate::source::SourceFile;
use crate::tables::{Dialect, Document};
use std::path::Path;

/// Reads and parses one file (`-`: stdin), detecting its dialect unless given; a note on
/// stderr says when detection had to choose.
pub fn load(path: &Path, from: Option<Dialect>) -> Result<(SourceFile, Parsed), Error> {
    if let Some((dialect, layout)) = script_dialect(path, from) {
        // A hook folder (or script) of a dialect whose hooks are one script per event.
        if !path.exists() {
            return Err(Error::Io {
                path: path.display().to_string(),
                message: "no such file or folder".into(),
            });
        }
        let shown = path.display().to_string();
        let parsed = config::scripts::read_path(path, &shown, dialect, layout);
        return Ok((SourceFile::new(shown, String::new()), parsed));
    }
    let src = read_source(path)?;
    let dialect = match from {
        Some(d) => d,
        None => {
            let (dialect, note) = config::detect::detect_noted(&src)?;
            if let Some(note) = note {
                // As the CLI writes: colours only on a terminal, a closed pipe ignored.
                use std::io::Write;
                let _ = anstream::stderr()
                    .write_fmt(format_args!("{}\n", crate::diag::style_note(&note)));
            }
            dialect
        }
    };
    let parsed = config::read(&src, dialect)?;
    Ok((src, parsed))
}

/// The script-layout dialect a path is read in: `from` when it has that layout, else the one
/// whose folders the path is in (or is), when the path is no JSON file.
fn script_dialect(
    path: &Path,
    from: Option<Dialect>,
) -> Option<(Dialect, &'static crate::tables::ScriptLayout)> {
    if let Some(d) = from {
        return Some((d, d.config().scripts?));
    }
    if path.as_os_str() == "-" {
        return None;
    }
    let shown = format!("{}/", path.display());
    Dialect::all().iter().find_map(|d| {
        let layout = d.config().scripts?;
        let inside = d.def().detect.dirs.iter().any(|dir| shown.contains(dir));
        (inside && (path.is_dir() || path.extension().is_none_or(|e| e != "json")))
            .then_some((*d, layout))
    })
}

/// A config file's text; `-` reads standard input (shown as `<stdin>`).
fn read_source(path: &Path) -> Result<SourceFile, Error> {
    if path.as_os_str() != "-" {
        return SourceFile::read(path);
    }
    use std::io::Read;
    let mut bytes = Vec::new();
    let io = |e: std::io::Error| Error::Io {
        path: "<stdin>".into(),
        message: e.to_string(),
    };
    std::io::stdin()
        .take(crate::source::MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() as u64 > crate::source::MAX_FILE_BYTES {
        return Err(Error::Io {
            path: "<stdin>".into(),
            message: format!(
                "holds more than {} bytes; hookx reads config files up to that size",
                crate::source::MAX_FILE_BYTES
            ),
        });
    }
    let text = String::from_utf8(bytes).map_err(|_| Error::Io {
        path: "<stdin>".into(),
        message: "is not valid UTF-8".into(),
    })?;
    Ok(SourceFile::new("<stdin>", text))
}

/// Whether a file holds hook configuration at all: rules, event arrays, a `hooks` key or a
/// kill switch such as `disableAllHooks` (a `package.json` holds none).
pub fn has_hook_config(src: &SourceFile, doc: &Document) -> bool {
    !doc.rules.is_empty()
        || !doc.extra_hooks.is_empty()
        || Dialect::all()
            .iter()
            .filter_map(|d| d.def().kill_switch.as_ref())
            .any(|k| k.flag_in(doc).is_some())
        || crate::config::syntax::parse_json_as(src, config::read::json_syntax(src, doc.dialect))
            .is_ok_and(|v| v.get("hooks").is_some())
}

/// Whether `path` has the shape of a file an agent reads hooks from (any agent, or `dialect`
/// and the files it reads natively): its name is that of an agent's settings or hooks file
/// (`settings.json`, `hooks.json`, `config.toml`, …), or it sits where an agent keeps a folder
/// of them (`.github/hooks/*.json`, `skills/*/SKILL.md`, a hook-script folder). Where it is
/// does not matter: a synced `settings.json` is still one. A `package.json` is none.
pub fn at_hook_location(path: &Path, dialect: Option<Dialect>) -> bool {
    use crate::tables::Pattern;
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let parent = path.parent().unwrap_or(Path::new(""));
    crate::context::locations()
        .filter(|l| dialect.is_none_or(|d| l.dialect == d || d.def().native.contains(&l.id)))
        .any(|l| match l.pattern {
            Pattern::File(rel) => Path::new(rel).file_name().is_some_and(|n| n == name),
            Pattern::Dir { dir, suffix } => name.ends_with(suffix) && parent.ends_with(dir),
            Pattern::Sub { dir, name: file } => {
                name == file && parent.parent().is_some_and(|p| p.ends_with(dir))
            }
            Pattern::Scripts(dir) => parent.ends_with(dir) || path.ends_with(dir),
            Pattern::Plugins => false,
        })
}
