//! The command line: argument definitions and the presentation of each command's result.
//! The work itself is in the library modules.

use crate::config::{self, Parsed};
use crate::convert::{self, loss};
use crate::diag::Severity;
use crate::dialect::{Dialect, Flavor};
use crate::dispatch::host;
use crate::error::Error;
use crate::source::SourceFile;
use clap::{Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};

/// Writes to stdout / stderr, ignoring a closed pipe (`hookx list | head`) instead of panicking
/// as `print!` does.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::write_to(&mut std::io::stdout(), format_args!($($arg)*)) };
}
macro_rules! outln {
    ($($arg:tt)*) => { out!("{}\n", format_args!($($arg)*)) };
}
macro_rules! err {
    ($($arg:tt)*) => { $crate::cli::write_to(&mut std::io::stderr(), format_args!($($arg)*)) };
}
macro_rules! errln {
    ($($arg:tt)*) => { err!("{}\n", format_args!($($arg)*)) };
}

pub fn write_to(stream: &mut impl std::io::Write, args: std::fmt::Arguments) {
    let _ = stream.write_fmt(args);
}

#[derive(Parser, Debug)]
#[command(
    name = "hookx",
    version,
    about = "Portable hooks for AI coding agents: Claude Code, GitHub Copilot CLI, Bricks"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Translate hook configs into another agent's dialect, reporting anything it cannot express.
    Convert(ConvertArgs),
    /// Check hook configs: syntax, types, events, matchers, handler types.
    Validate(ValidateArgs),
    /// Run one handler written for another agent: translate the host's event into the
    /// handler's dialect and its answer back (what `convert --wrap` emits).
    Exec(ExecArgs),
    /// Print the JSON Schema (draft-07) of a dialect's hook file, for editors.
    Schema { dialect: Dialect },
}

#[derive(clap::Args, Debug)]
struct ConvertArgs {
    /// Config files to convert (settings.json, hooks.json, SKILL.md, …).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The dialect of the input files; detected from path and content when omitted.
    #[arg(long)]
    from: Option<Dialect>,
    /// The dialect to convert to.
    #[arg(long)]
    to: Dialect,
    /// Write the result to this file (atomically) instead of stdout.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Merge into the target file (`--out`, or the target agent's project file under
    /// --project), keeping every other key and hook it has.
    #[arg(long)]
    write: bool,
    /// With --out or --write: show the change as a diff and write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Project directory for --write without --out.
    #[arg(long, value_name = "DIR", default_value = ".")]
    project: PathBuf,
    /// Exit with status 3 if anything is lost.
    #[arg(long)]
    strict: bool,
    /// Route handlers through `hookx exec` where the target cannot express them natively.
    #[arg(long)]
    wrap: bool,
    /// Report format: text (on stderr) or json (on stdout).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(clap::Args, Debug)]
struct ValidateArgs {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The dialect of the files; detected from path and content when omitted.
    #[arg(long)]
    from: Option<Dialect>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(clap::Args, Debug)]
struct ExecArgs {
    /// The dialect the command was written for: the stdin shape, env and answer it expects.
    #[arg(long = "as", value_name = "FLAVOR")]
    as_flavor: Flavor,
    /// The event the handler is registered for, in any dialect's spelling; other events pass.
    #[arg(long)]
    event: Option<String>,
    /// Only run when this matcher (read as the `--as` dialect reads it) accepts the event.
    #[arg(long = "match", value_name = "MATCHER")]
    matcher: Option<String>,
    /// The agent sending the event; detected from the environment and payload when omitted.
    #[arg(long)]
    host: Option<Dialect>,
    /// Project directory (default: the host's project variable, the event's cwd, or .).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Kill the command after this many seconds (default: the `--as` dialect's default).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<u64>,
    /// The command: one shell command line, or a program and its arguments.
    #[arg(last = true, required = true)]
    command: Vec<String>,
}

/// Exit status when `--strict` finds losses.
pub const EXIT_LOSSES: i32 = 3;

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            errln!("{e}");
            e.exit_code()
        }
    }
}

fn run(cli: Cli) -> Result<i32, Error> {
    match cli.command {
        Command::Convert(args) => convert_cmd(args),
        Command::Validate(args) => validate_cmd(args),
        Command::Exec(args) => exec_cmd(args),
        Command::Schema { dialect } => {
            out!("{}", crate::schema::schema(dialect));
            Ok(0)
        }
    }
}

/// Reads and parses one file, detecting its dialect unless given.
pub fn load(path: &Path, from: Option<Dialect>) -> Result<(SourceFile, Parsed), Error> {
    let src = SourceFile::read(path)?;
    let dialect = match from {
        Some(d) => d,
        None => config::detect::detect(&src)?,
    };
    let parsed = config::read(&src, dialect)?;
    Ok((src, parsed))
}

fn convert_cmd(args: ConvertArgs) -> Result<i32, Error> {
    let mut loaded = Vec::new();
    for path in &args.files {
        let (src, parsed) = load(path, args.from)?;
        let (errors, warnings): (Vec<_>, Vec<_>) = parsed
            .diagnostics
            .iter()
            .cloned()
            .partition(|d| d.severity == Severity::Error);
        for w in &warnings {
            errln!("{w}");
        }
        if !errors.is_empty() {
            return Err(Error::Invalid(errors));
        }
        loaded.push((src, parsed.document));
    }
    let inputs: Vec<_> = loaded.iter().map(|(s, d)| (s, d)).collect();
    let options = convert::Options {
        to: args.to,
        wrap: args.wrap,
        hookx: "hookx".into(),
    };
    let conversion = convert::convert(&inputs, &options);
    let target = match (&args.out, args.write) {
        (Some(out), _) => Some(out.clone()),
        (None, true) => Some(args.project.join(default_target(args.to))),
        (None, false) => None,
    };
    let text = match (&target, args.write) {
        (Some(path), true) => config::write::merge_into(path, &conversion.document)?,
        _ => config::write::to_text(&conversion.document),
    };
    let mut written = None;
    if let Some(path) = &target {
        if args.dry_run {
            let before = std::fs::read_to_string(path).unwrap_or_default();
            let diff = similar::TextDiff::from_lines(&before, &text);
            out!(
                "{}",
                diff.unified_diff()
                    .header(&path.display().to_string(), &path.display().to_string())
            );
        } else {
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| Error::Io {
                    path: dir.display().to_string(),
                    message: e.to_string(),
                })?;
            }
            config::write::write_atomic(path, &text)?;
            written = Some(path.display().to_string());
        }
    }
    match args.format {
        Format::Text => {
            if target.is_none() {
                out!("{text}");
            }
            if let Some(path) = &written {
                errln!("wrote {path}");
            }
            err!(
                "{}",
                loss::render_text(&conversion.losses, &conversion.notes)
            );
        }
        Format::Json => {
            let report = serde_json::json!({
                "to": args.to,
                "output": if target.is_none() { Some(&text) } else { None },
                "written": written,
                "losses": conversion.losses,
                "notes": conversion.notes,
            });
            outln!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            );
        }
    }
    Ok(if args.strict && !conversion.losses.is_empty() {
        EXIT_LOSSES
    } else {
        0
    })
}

/// Where each agent reads project hooks, for `--write` without `--out`.
fn default_target(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::Claude => ".claude/settings.json",
        Dialect::Copilot => ".github/hooks/hooks.json",
        Dialect::Bricks => ".bricks/hooks.json",
    }
}

fn validate_cmd(args: ValidateArgs) -> Result<i32, Error> {
    let mut all = Vec::new();
    for path in &args.files {
        match load(path, args.from) {
            Ok((src, parsed)) => {
                all.extend(parsed.diagnostics.iter().cloned());
                all.extend(crate::validate::check(&src, &parsed.document));
            }
            Err(Error::Invalid(diags)) => all.extend(diags),
            Err(e) => return Err(e),
        }
    }
    all.sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
    let errors = all.iter().filter(|d| d.severity == Severity::Error).count();
    let warnings = all.len() - errors;
    match args.format {
        Format::Text => {
            for d in &all {
                outln!("{d}\n");
            }
            outln!(
                "{errors} error(s), {warnings} warning(s) in {} file(s)",
                args.files.len()
            );
        }
        Format::Json => outln!("{}", serde_json::to_string_pretty(&all).unwrap_or_default()),
    }
    Ok(if errors > 0 { 1 } else { 0 })
}

fn exec_cmd(args: ExecArgs) -> Result<i32, Error> {
    let payload = host::read_stdin()?;
    let hosted = host::decode(&payload, args.host, args.event.as_deref(), args.project)?;
    let kind = match &args.event {
        Some(name) => host::parse_event(name),
        None => hosted.event.kind.clone(),
    };
    if kind != hosted.event.kind {
        // Registered for another event: nothing to do.
        return Ok(0);
    }
    let line = match args.command.as_slice() {
        [one] => one.clone(),
        words => words
            .iter()
            .map(|w| convert::shell_quote(w))
            .collect::<Vec<_>>()
            .join(" "),
    };
    let rule = crate::model::Rule {
        event: kind,
        flavor: args.as_flavor,
        matcher: args.matcher,
        handlers: vec![crate::model::Handler {
            kind: crate::model::HandlerKind::Command(crate::model::Command {
                command: Some(line),
                ..Default::default()
            }),
            timeout: args.timeout,
            status_message: None,
            once: None,
            extra: Default::default(),
        }],
        shape: crate::model::RuleShape::Group,
        extra: Default::default(),
        origin: crate::model::Origin {
            file: "<hookx exec>".into(),
            pointer: String::new(),
        },
    };
    let dispatch =
        crate::dispatch::run::dispatch(hosted.host, &hosted.event, [(&rule, &())], &hosted.project);
    Ok(host::answer(&dispatch))
}
