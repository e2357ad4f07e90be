//! `hookx validate`: the diagnostics of reading ([`crate::config::read()`]) and of the checks
//! beyond it ([`crate::commands::validate::check`]), printed.

use super::args::{Format, ValidateArgs};
use crate::commands::write_to;
use crate::commands::{errln, outln};
use crate::diag::Severity;
use crate::error::Error;
use crate::tables::Dialect;
use std::path::PathBuf;

/// `hookx validate`: every diagnostic of the files (or of every hook file `hookx list` finds),
/// printed; exit 1 on errors (or warnings, with `--deny-warnings`), worse when a file is
/// unreadable.
pub(super) fn command(args: ValidateArgs) -> Result<i32, Error> {
    let mut all = Vec::new();
    let mut unreadable = 0;
    let mut worst = 0;
    let resolved = crate::discover::Context::resolve(args.project.as_deref(), args.home.as_deref());
    // Named files need no project: without one, no host is known to drop them.
    let ctx = match resolved {
        Ok(ctx) => Some(ctx),
        Err(e) if args.files.is_empty() => return Err(e),
        Err(_) => None,
    };
    let sources = ctx
        .as_ref()
        .map(crate::discover::discover)
        .unwrap_or_default();
    let files: Vec<(PathBuf, Option<Dialect>)> = if args.files.is_empty() {
        // What `hookx list` finds, each in the dialect its location says.
        sources
            .iter()
            .map(|s| (s.path.clone(), Some(args.from.unwrap_or(s.dialect))))
            .collect()
    } else {
        args.files.iter().map(|p| (p.clone(), args.from)).collect()
    };
    let hosts: Vec<Dialect> = match (args.host, &ctx) {
        (Some(host), _) => vec![host],
        (None, Some(ctx)) => crate::commands::doctor::had(ctx, &sources)
            .into_iter()
            .map(|(d, _)| d)
            .collect(),
        (None, None) => Vec::new(),
    };
    let named = !args.files.is_empty();
    // With no file named: a place of a hook file that holds what no agent reads as one, as
    // doctor names it (attacks row 587).
    let places = match (&ctx, named) {
        (Some(ctx), false) => crate::discover::unreadable_places(ctx, &sources),
        _ => Vec::new(),
    };
    for (path, dialect, why) in &places {
        let shown = ctx
            .as_ref()
            .map_or(path.display().to_string(), |c| c.display(path));
        errln!(
            "{}",
            crate::diag::style(&format!(
                "error: {shown}: {why}: {} reads no hooks from it, nor does hookx",
                dialect.def().display
            ))
        );
        unreadable += 1;
        worst = worst.max(1);
    }
    for (path, from) in &files {
        match crate::commands::input::load(path, *from) {
            Ok((src, parsed)) if named && !is_hook_file(path, &src, &parsed) => {
                errln!(
                    "{}",
                    crate::diag::style(&format!(
                        "error: {}: not a hook file: it holds no hooks (no `hooks` object, no {} \
                         events at the top level), and no agent reads hooks from a file of its \
                         name",
                        src.path, parsed.document.dialect
                    ))
                );
                unreadable += 1;
                worst = worst.max(1);
            }
            Ok((src, parsed)) => {
                all.extend(crate::commands::validate::diagnostics(&src, &parsed));
                all.extend(dropped(&src, path, &sources, &hosts));
            }
            Err(Error::Invalid(diags)) => all.extend(diags),
            // An unreadable or ambiguous file is one failure among the files, not the end.
            Err(e) => {
                errln!("{e}");
                unreadable += 1;
                worst = worst.max(e.exit_code());
            }
        }
    }
    all.sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
    let warnings = all
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let errors = all.len() - warnings + unreadable;
    match args.format {
        Format::Text => {
            for d in &all {
                let text = crate::diag::style(&d.to_string());
                write_to(&mut anstream::stdout(), format_args!("{text}\n\n"));
            }
            let summary = format!(
                "{errors} error(s), {warnings} warning(s) in {} file(s)",
                files.len() + places.len()
            );
            outln!("{summary}");
            if args.deny_warnings && errors == 0 && warnings > 0 {
                errln!(
                    "{}",
                    crate::diag::style("error: warnings found (--deny-warnings)")
                );
            }
        }
        Format::Json => outln!("{}", serde_json::to_string_pretty(&all).unwrap_or_default()),
    }
    let failed = errors > 0 || (args.deny_warnings && warnings > 0);
    Ok(if failed { worst.max(1) } else { 0 })
}

/// A warning at each entry for which one of `hosts` drops the whole file at `path` (where the
/// walk found it: a host drops only files it reads itself, [`crate::discover::Dropped`]).
fn dropped(
    src: &crate::source::SourceFile,
    path: &std::path::Path,
    sources: &[crate::discover::Source],
    hosts: &[Dialect],
) -> Vec<crate::diag::Diagnostic> {
    let real = std::fs::canonicalize(path).ok();
    let Some(source) = sources
        .iter()
        .find(|s| s.path == path || (real.is_some() && s.canonical == real))
    else {
        return Vec::new();
    };
    source
        .dropped
        .iter()
        .filter(|d| hosts.contains(&d.host))
        .map(|d| {
            crate::diag::Diagnostic::at_line_col(
                Severity::Warning,
                src,
                d.line,
                d.col,
                format!(
                    "{}: under {} its rules run only through hookx's route",
                    d.why(&src.path),
                    d.host.def().display
                ),
            )
            .with_help(d.fix.clone())
        })
        .collect()
}

/// Whether a file named to `hookx validate` is a hook file: it holds hook configuration
/// ([`crate::commands::input::has_hook_config`]), or it is a file an agent reads hooks from,
/// hooks or not (a `.claude/settings.json` with other settings only,
/// [`crate::commands::input::at_hook_location`]). A `package.json` is none.
fn is_hook_file(
    path: &std::path::Path,
    src: &crate::source::SourceFile,
    parsed: &crate::config::Parsed,
) -> bool {
    if crate::commands::input::has_hook_config(src, &parsed.document)
        || parsed
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    {
        return true;
    }
    path.as_os_str() != "-" && crate::commands::input::at_hook_location(path, None)
}
