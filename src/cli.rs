//! The command line: argument definitions and the presentation of each command's result.
//! The work itself is in the library modules.

use crate::config::{self, Parsed};
use crate::convert::{self, loss};
use crate::diag::Severity;
use crate::dispatch::{failure, host};
use crate::error::Error;
use crate::source::SourceFile;
use crate::tables::{Dialect, Flavor};
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
/// stderr goes through `anstream`: colours only on a terminal, never under `NO_COLOR`.
macro_rules! err {
    ($($arg:tt)*) => { $crate::cli::write_to(&mut anstream::stderr(), format_args!($($arg)*)) };
}
macro_rules! errln {
    ($($arg:tt)*) => { err!("{}\n", format_args!($($arg)*)) };
}

pub fn write_to(stream: &mut impl std::io::Write, args: std::fmt::Arguments) {
    let _ = stream.write_fmt(args);
}

/// The one-line description, naming every registered agent.
fn about() -> String {
    let products: Vec<&str> = Dialect::all().iter().map(|d| d.def().product).collect();
    format!(
        "Portable hooks for AI coding agents: {}",
        products.join(", ")
    )
}

#[derive(Parser, Debug)]
#[command(
    name = "hookx",
    version,
    about = about(),
    after_help = concat!(
        "Example:\n  hookx convert .claude/settings.json --to copilot --write\n\n",
        "Exit codes:\n  0  success\n  1  an error: unreadable or invalid input, a failed write\n  2  a usage error\n  3  convert --strict: something is lost\n  4  simulate: the decision is not --expect (without it: a deny, ask or block)\n  5  doctor: a rule can fire under none of the hosts examined"
    )
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

/// `after_help` of a command: its example, then the exit codes.
macro_rules! example {
    ($($line:expr),+ $(,)?) => {
        concat!(
            "Example:\n",
            $("  ", $line, "\n",)+
            "\nExit codes:\n  0  success\n  1  an error: unreadable or invalid input, a failed write\n  2  a usage error\n  3  convert --strict: something is lost\n  4  simulate: the decision is not --expect (without it: a deny, ask or block)\n  5  doctor: a rule can fire under none of the hosts examined"
        )
    };
}

/// Each command's arguments are defined when that command runs (`defer`): hookx starts for
/// every hook event, and building every command's arguments first was a sixth of its start-up.
#[derive(Subcommand, Debug)]
#[command(defer = true)]
enum Command {
    /// Translate hook configs into another agent's dialect, reporting anything it cannot express.
    #[command(after_help = example!(
        "hookx convert .claude/settings.json --to copilot --write",
        "hookx convert - --to bricks < hooks.json"
    ))]
    Convert(ConvertArgs),
    /// Check hook configs: syntax, types, events, matchers, handler types.
    #[command(after_help = example!("hookx validate .claude/settings.json --deny-warnings"))]
    Validate(ValidateArgs),
    /// The dispatcher a host agent calls for every event: runs every matching handler of the
    /// project's hook set in its own dialect and answers in the host's protocol.
    #[command(after_help = example!("hookx run --host claude --event PreToolUse < payload.json"))]
    Run(RunArgs),
    /// Fire a synthetic event at the hook set and show what each handler received and answered.
    #[command(after_help = example!(
        "hookx simulate --host copilot --event preToolUse --tool bash --input '{\"command\":\"rm -rf /\"}' --expect deny"
    ))]
    Simulate(SimulateArgs),
    /// Run one handler written for another agent: translate the host's event into the
    /// handler's dialect and its answer back (what `convert` writes for such handlers).
    #[command(after_help = example!(
        "hookx exec --host copilot --as claude --event PreToolUse -- ./guard.sh < payload.json"
    ))]
    Exec(ExecArgs),
    /// Print the JSON Schema (draft-07) of a dialect's hook file, for editors.
    #[command(after_help = example!("hookx schema copilot > copilot-hooks.schema.json"))]
    Schema { dialect: Dialect },
    /// Show the effective hook set of a project across every scope and agent.
    #[command(after_help = example!("hookx list --host copilot"))]
    List(ListArgs),
    /// Record hook files as reviewed (by content hash) so that `hookx run` may run them.
    #[command(after_help = example!("hookx trust .github/hooks/hooks.json"))]
    Trust(TrustArgs),
    /// Why a hook does or does not fire: per hook file, rule and host, whether the host loads
    /// it, whether it can fire, who runs it, what payload it gets, and the fix.
    #[command(after_help = example!("hookx doctor --host copilot"))]
    Doctor(DoctorArgs),
    /// Route a host agent's events to `hookx run` through the host's own config.
    #[command(after_help = example!("hookx install --host claude"))]
    Install(InstallArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_help = example!("hookx completions bash > ~/.local/share/bash-completion/completions/hookx"))]
    Completions { shell: clap_complete::Shell },
    /// Print hookx's man page (roff).
    #[command(after_help = example!("hookx man > ~/.local/share/man/man1/hookx.1"))]
    Man,
}

#[derive(clap::Args, Debug)]
struct ListArgs {
    /// Project directory.
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Home directory for user-level configs and hookx's trust record [default: $HOOKX_HOME,
    /// else $HOME].
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
    /// Show whether each hook runs natively under this agent or through hookx.
    #[arg(long)]
    host: Option<Dialect>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(clap::Args, Debug)]
struct DoctorArgs {
    /// Project directory.
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Home directory for user-level configs and hookx's trust record [default: $HOOKX_HOME,
    /// else $HOME].
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
    /// Only this host agent [default: every agent].
    #[arg(long)]
    host: Option<Dialect>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(clap::Args, Debug)]
struct TrustArgs {
    /// Files to trust; every hook file of the project and home when none is given.
    files: Vec<PathBuf>,
    /// Project directory.
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Home directory holding hookx's trust record [default: $HOOKX_HOME, else $HOME].
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct InstallArgs {
    /// The agent whose config receives the routing entries.
    #[arg(long)]
    host: Dialect,
    /// Project directory.
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Home directory, for --scope user [default: $HOOKX_HOME, else $HOME].
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
    /// Write into the project's config or the user's.
    #[arg(long, value_enum, default_value_t = crate::route::InstallScope::Project)]
    scope: crate::route::InstallScope,
    /// Remove hookx's entries instead, and nothing else.
    #[arg(long)]
    uninstall: bool,
    /// The hookx program the entries run [default: the absolute path of this executable].
    #[arg(long, value_name = "PATH")]
    hookx: Option<String>,
}

#[derive(clap::Args, Debug)]
struct ConvertArgs {
    /// Config files to convert (settings.json, hooks.json, SKILL.md, …); `-` reads stdin.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The dialect of the input files; detected from path and content when omitted (Claude
    /// when still ambiguous, with a note).
    #[arg(long)]
    from: Option<Dialect>,
    /// The dialect(s) to convert to: one, or several separated by commas (with --write).
    #[arg(long, value_delimiter = ',', required = true)]
    to: Vec<Dialect>,
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
    /// Write handlers as they are, not through `hookx exec`: a handler then receives the
    /// target's stdin payload, which it was not written for (each is a loss item).
    #[arg(long, conflicts_with = "wrap")]
    no_wrap: bool,
    /// Route handlers through `hookx exec` where the target cannot express them natively
    /// (the default).
    #[arg(long, hide = true)]
    wrap: bool,
    /// The hookx command wrapped entries call.
    #[arg(long, value_name = "PATH", default_value = "hookx")]
    hookx: String,
    /// Report format: text (on stderr) or json (on stdout).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

#[derive(clap::Args, Debug)]
struct ValidateArgs {
    /// Files to check; every hook file `hookx list` finds when none is given.
    files: Vec<PathBuf>,
    /// Exit 1 on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// Project directory, when no file is given.
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Home directory for user-level configs, when no file is given [default: $HOOKX_HOME,
    /// else $HOME].
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
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
    /// Only run when the tool call matches this Claude permission rule (`Bash(git *)`,
    /// `Edit(*.ts)`), the tool named as the `--as` dialect names it: Claude's `if` filter.
    #[arg(long = "if", value_name = "RULE")]
    condition: Option<String>,
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

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// The agent calling hookx; detected from the environment and payload when omitted.
    #[arg(long)]
    host: Option<Dialect>,
    /// The event the host's config registered this command for, as the host names it.
    #[arg(long)]
    event: Option<String>,
    /// Project directory (default: the host's project variable, the event's cwd, or .).
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    /// Home directory for user-scope hooks and hookx's trust record (default: $HOOKX_HOME, $HOME).
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
    /// The host's file holding this route, where the host does not tell (`hookx install`
    /// writes it): a project route leaves an event the user route also takes to that route.
    #[arg(long, value_enum, value_name = "SCOPE")]
    installed_in: Option<crate::route::InstallScope>,
}

#[derive(clap::Args, Debug)]
struct SimulateArgs {
    /// The agent to act as: the payload it sends and the answer it expects.
    #[arg(long, value_enum, default_value = Dialect::all()[0].name())]
    host: Flavor,
    /// The event, in the host's spelling or canonically (PreToolUse).
    #[arg(long, required_unless_present = "payload")]
    event: Option<String>,
    /// The tool, in the host's spelling (Bash, bash, …).
    #[arg(long)]
    tool: Option<String>,
    /// The tool's arguments as JSON, in the host's argument names.
    #[arg(long, value_name = "JSON")]
    input: Option<String>,
    /// Another event field, KEY=VALUE (prompt=…, source=startup, …); repeatable.
    #[arg(long = "field", value_name = "KEY=VALUE")]
    fields: Vec<String>,
    /// A host payload file to send instead of building one.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["tool", "input", "fields"])]
    payload: Option<PathBuf>,
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
    #[arg(long, value_name = "DIR")]
    home: Option<PathBuf>,
    /// Exit 0 when the host's decision is this one and 4 otherwise: a test step for CI.
    #[arg(long, value_enum)]
    expect: Option<crate::dispatch::simulate::Verdict>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// Exit status when `--strict` finds losses.
pub const EXIT_LOSSES: i32 = 3;

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Built only when asked: the version plus the host versions the tables were verified by.
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayVersion => {
            out!("{}", version_text());
            return 0;
        }
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            errln!("{}", crate::diag::style(&e.to_string()));
            e.exit_code()
        }
    }
}

/// `hookx --version`: this version, and each host release whose runs verified a dialect's
/// tables (`Tables::verified_with`).
fn version_text() -> String {
    let mut text = format!("hookx {}\n", env!("CARGO_PKG_VERSION"));
    for dialect in crate::tables::Dialect::all() {
        let verified: Vec<&str> = dialect
            .flavors()
            .filter_map(|f| f.tables().verified_with)
            .fold(Vec::new(), |mut seen, v| {
                if !seen.contains(&v) {
                    seen.push(v);
                }
                seen
            });
        let what = if verified.is_empty() {
            "docs: facts from its documentation, not verified against a real client".to_string()
        } else {
            format!("verified against {}", verified.join(", "))
        };
        text.push_str(&format!("{dialect}: {what}\n"));
    }
    text
}

fn run(cli: Cli) -> Result<i32, Error> {
    if matches!(
        cli.command,
        Command::Run(_) | Command::Exec(_) | Command::Simulate(_)
    ) {
        crate::spawn::forward_termination();
    }
    match cli.command {
        Command::Convert(args) => convert_cmd(args),
        Command::Validate(args) => validate_cmd(args),
        Command::Exec(args) => Ok(answering(args.host, args.event.clone(), |known| {
            exec_cmd(args, known)
        })),
        Command::Run(args) => Ok(answering(args.host, args.event.clone(), |known| {
            run_cmd(args, known)
        })),
        Command::Simulate(args) => simulate_cmd(args),
        Command::Schema { dialect } => {
            out!("{}", crate::commands::schema::schema(dialect));
            Ok(0)
        }
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "hookx", &mut script);
            out!("{}", String::from_utf8_lossy(&script));
            Ok(0)
        }
        Command::Man => {
            use clap::CommandFactory;
            let mut page = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut page)
                .map_err(|e| Error::Io {
                    path: "<stdout>".into(),
                    message: e.to_string(),
                })?;
            out!("{}", String::from_utf8_lossy(&page));
            Ok(0)
        }
        Command::List(args) => crate::commands::list::command(&crate::commands::list::Options {
            ctx: crate::discover::Context::resolve(args.project.as_deref(), args.home.as_deref())?,
            host: args.host,
            json: args.format == Format::Json,
        }),
        Command::Doctor(args) => {
            crate::commands::doctor::command(&crate::commands::doctor::Options {
                ctx: crate::discover::Context::resolve(
                    args.project.as_deref(),
                    args.home.as_deref(),
                )?,
                host: args.host,
                json: args.format == Format::Json,
            })
        }
        Command::Trust(args) => crate::commands::trust::command(&crate::commands::trust::Options {
            ctx: crate::discover::Context::resolve(args.project.as_deref(), args.home.as_deref())?,
            files: args.files,
        }),
        Command::Install(args) => {
            crate::commands::install::command(&crate::commands::install::Options {
                ctx: crate::discover::Context::resolve(
                    args.project.as_deref(),
                    args.home.as_deref(),
                )?,
                host: args.host,
                scope: args.scope,
                uninstall: args.uninstall,
                hookx: args.hookx,
            })
        }
    }
}

/// Runs `run` or `exec`, whose caller is a host agent: whatever goes wrong (an error, a panic),
/// the host gets the answer the failure policy gives for its event
/// ([`crate::dispatch::failure`]), never a bare exit code it may read as a block.
fn answering(
    host: Option<Dialect>,
    event: Option<String>,
    body: impl FnOnce(&failure::Context) -> Result<i32, Error>,
) -> i32 {
    let known = failure::Context::new(host, event.as_deref());
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let what = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("a panic");
        match info.location() {
            Some(at) => errln!("hookx: internal error at {at}: {what}"),
            None => errln!("hookx: internal error: {what}"),
        }
    }));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(&known)));
    match result {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => {
            let why = e.to_string();
            let why = why.strip_prefix("error: ").unwrap_or(&why);
            host::print(&known.answer(why), &[])
        }
        Err(_) => host::print(&known.answer("internal error (see above)"), &[]),
    }
}

/// Debug builds only: `HOOKX_TEST_PANIC=1` makes `run` and `exec` panic once the event is
/// decoded, so that the tests can check what a panic answers.
fn injected_panic() {
    #[cfg(debug_assertions)]
    if std::env::var_os("HOOKX_TEST_PANIC").is_some() {
        panic!("HOOKX_TEST_PANIC is set");
    }
}

/// Past [`crate::dispatch::run::MAX_DEPTH`] nested hookx dispatches, hookx is dispatching its
/// own routing entries: it answers nothing and runs nothing (the outer levels run the hooks).
fn too_deep() -> bool {
    let depth = crate::dispatch::run::depth();
    let deep = depth >= crate::dispatch::run::MAX_DEPTH;
    if deep {
        errln!(
            "hookx: not dispatching: {depth} hookx dispatches are already running one inside \
             the other ({}); a hook runs hookx's own routing entry",
            crate::dispatch::run::DEPTH_VAR
        );
    }
    deep
}

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
                errln!("{}", crate::diag::style_note(&note));
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

fn convert_cmd(args: ConvertArgs) -> Result<i32, Error> {
    let several = args.to.len() > 1;
    if several && (args.out.is_some() || !args.write) && args.format == Format::Text {
        return Err(Error::Usage(
            "several targets (--to a,b) are written with --write into each agent's project file; --out and stdout take one".into(),
        ));
    }
    if several && args.out.is_some() {
        return Err(Error::Usage("--out takes one target (--to)".into()));
    }
    // Input of a quarter megabyte or more (over a thousand rules) is read into a heap of huge
    // pages.
    let input_bytes: u64 = args
        .files
        .iter()
        .filter_map(|f| std::fs::metadata(f).ok())
        .map(|m| m.len())
        .sum();
    if input_bytes >= crate::heap::LARGE_INPUT {
        crate::heap::grow_in_huge_pages();
    }
    // The documents, their sources and conversions are left for the OS to free when hookx
    // exits: at 10 000 rules, freeing them value by value cost a tenth of the conversion.
    let mut loaded = std::mem::ManuallyDrop::new(Vec::new());
    // Parts of an input hookx cannot read: each a located loss; the rest converts.
    let mut unread = Vec::new();
    let mut unread_errors = Vec::new();
    for path in &args.files {
        let (src, parsed) = load(path, args.from)?;
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
        if !has_hook_config(&src, doc) {
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
    let inputs: Vec<_> = loaded.iter().map(|(s, d)| (s, d)).collect();
    // `--write` syncs with the entries converted from these inputs earlier.
    let sources: Vec<&str> = loaded.iter().map(|(s, _)| s.path.as_str()).collect();
    let mut code = 0;
    let mut reports = Vec::new();
    for &to in &args.to {
        let options = convert::Options {
            to,
            wrap: !args.no_wrap,
            hookx: args.hookx.clone(),
        };
        let mut conversion = std::mem::ManuallyDrop::new(convert::convert(&inputs, &options));
        let no_handler = conversion
            .document
            .rules
            .iter()
            .all(|r| r.handlers.is_empty());
        if no_handler && !unread_errors.is_empty() {
            // Nothing but what could not be read: the errors are the answer.
            return Err(Error::Invalid(unread_errors));
        }
        conversion.losses.splice(0..0, unread.iter().cloned());
        let (report, to_code) = convert_to(&args, to, &conversion, &sources, several)?;
        reports.extend(report);
        code = code.max(to_code);
    }
    if args.format == Format::Json {
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

/// Whether a file holds hook configuration at all: rules, event arrays, a `hooks` key or a
/// kill switch such as `disableAllHooks` (a `package.json` holds none).
fn has_hook_config(src: &SourceFile, doc: &crate::tables::Document) -> bool {
    !doc.rules.is_empty()
        || !doc.extra_hooks.is_empty()
        || Dialect::all()
            .iter()
            .filter_map(|d| d.def().kill_switch.as_ref())
            .any(|k| k.flag_in(doc).is_some())
        || crate::config::syntax::parse_json_as(src, config::read::json_syntax(src, doc.dialect))
            .is_ok_and(|v| v.get("hooks").is_some())
}

/// Writes or prints one target's conversion and its report; the JSON report (for --format
/// json) and the exit code.
fn convert_to(
    args: &ConvertArgs,
    to: Dialect,
    conversion: &convert::Conversion,
    sources: &[&str],
    several: bool,
) -> Result<(Option<serde_json::Value>, i32), Error> {
    if to.config().scripts.is_some() {
        return convert_to_scripts(args, to, conversion, several);
    }
    let nothing =
        conversion.document.rules.is_empty() && conversion.document.extra_hooks.is_empty();
    let target = match (&args.out, args.write) {
        (Some(out), _) => Some(out.clone()),
        (None, true) => Some(args.project.join(to.config().convert_target)),
        (None, false) => None,
    };
    let sync = |path: &Path, current: Option<&str>| {
        config::merge::sync_text(path, &conversion.document, sources, current)
    };
    let before = target
        .as_ref()
        .and_then(|path| crate::read::text(path, crate::read::MAX_FILE_BYTES).ok());
    // Text for stdout is written as it is made ([`config::write::write_text`]).
    let streamed = target.is_none() && args.format == Format::Text;
    let text = match (&target, args.write) {
        (Some(path), true) => sync(path, before.as_deref())?,
        _ if streamed => String::new(),
        _ => config::write::to_text(&conversion.document),
    };
    let mut written = None;
    let mut diff = None;
    let lossy = !conversion.losses.is_empty();
    // Nothing converts and there is no file to sync: nothing is created.
    if nothing && target.as_ref().is_some_and(|p| !p.exists()) {
        errln!(
            "{}",
            crate::diag::style(&format!(
                "note: no hooks found that convert to {to}; nothing written"
            ))
        );
    } else if let Some(path) = &target {
        if args.dry_run {
            let before = before.unwrap_or_default();
            let shown = path.display().to_string();
            diff = Some(
                similar::TextDiff::from_lines(&before, &text)
                    .unified_diff()
                    .header(&shown, &shown)
                    .to_string(),
            );
        } else if args.strict && lossy {
            // --strict refuses a lossy result: the target stays as it was.
            errln!(
                "not writing {}: the conversion loses something (--strict)",
                path.display()
            );
        } else {
            // Under the writer's lock, from the file as it is then (another run may have
            // written it since it was read above).
            let outcome = config::update::update(path, |current| {
                if args.write && current.is_none() && conversion.document.rules.is_empty() {
                    // Nothing to sync into a file that does not exist.
                    return Ok(config::update::Change::Keep);
                }
                Ok(config::update::Change::Write(match args.write {
                    true => sync(path, current)?,
                    false => text.clone(),
                }))
            })?;
            match outcome {
                config::update::Outcome::Unchanged => {
                    if args.format == Format::Text {
                        match path.exists() {
                            true => errln!("{} is up to date", path.display()),
                            false => errln!("no hooks to write; {} not created", path.display()),
                        }
                    }
                }
                _ => written = Some(path.display().to_string()),
            }
        }
    }
    let code = if args.strict && lossy { EXIT_LOSSES } else { 0 };
    match args.format {
        Format::Text => {
            if streamed {
                // As `out!`: a closed stdout is not an error of the conversion.
                let _ =
                    config::write::write_text(&conversion.document, &mut std::io::stdout().lock());
            }
            if let Some(diff) = &diff {
                out!("{diff}");
            }
            if several {
                errln!("to {to}:");
            }
            if let Some(path) = &written {
                errln!("wrote {path}");
            }
            err!(
                "{}",
                crate::diag::style(&loss::render_text(&conversion.losses, &conversion.notes))
            );
            Ok((None, code))
        }
        Format::Json => Ok((
            Some(serde_json::json!({
                "to": to,
                "output": if target.is_none() { Some(&text) } else { None },
                "written": written,
                "diff": diff,
                "losses": conversion.losses,
                "notes": conversion.notes,
            })),
            code,
        )),
    }
}

/// [`convert_to`] for a dialect whose hooks are one script per event: the scripts are printed
/// (each after a `==> NAME <==` line) or written into a folder (`--out DIR`, or the dialect's
/// project folder with `--write`), each atomically with mode 0755. A script there that hookx
/// did not write is left as it is, and the report says so (exit 1).
fn convert_to_scripts(
    args: &ConvertArgs,
    to: Dialect,
    conversion: &convert::Conversion,
    several: bool,
) -> Result<(Option<serde_json::Value>, i32), Error> {
    let layout = to
        .config()
        .scripts
        .ok_or_else(|| Error::Usage(format!("{to} has no hook scripts")))?;
    let (scripts, left) = config::scripts::emit(&conversion.document, layout);
    let dir = match (&args.out, args.write) {
        (Some(out), _) => Some(out.clone()),
        (None, true) => Some(args.project.join(to.config().convert_target)),
        (None, false) => None,
    };
    let lossy = !conversion.losses.is_empty();
    let mut written = Vec::new();
    let mut refused: Vec<String> = left
        .iter()
        .map(|l| format!("{l}: {to} runs no more scripts of this event from one folder"))
        .collect();
    let mut shown = String::new();
    for (name, text) in &scripts {
        let Some(dir) = &dir else {
            shown.push_str(&format!("==> {name} <==\n{text}"));
            continue;
        };
        let path = dir.join(name);
        let before = crate::read::text(&path, crate::read::MAX_FILE_BYTES).ok();
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
        if args.dry_run {
            let shown_path = path.display().to_string();
            shown.push_str(
                &similar::TextDiff::from_lines(before.as_deref().unwrap_or_default(), text)
                    .unified_diff()
                    .header(&shown_path, &shown_path)
                    .to_string(),
            );
        } else if !(args.strict && lossy) && before.as_deref() != Some(text.as_str()) {
            config::scripts::write_executable(&path, text)?;
            written.push(path.display().to_string());
        }
    }
    if args.strict && lossy && dir.is_some() && !args.dry_run {
        errln!("not writing: the conversion loses something (--strict)");
    }
    let code = match (args.strict && lossy, refused.is_empty()) {
        (true, _) => EXIT_LOSSES,
        (false, false) => 1,
        (false, true) => 0,
    };
    match args.format {
        Format::Text => {
            out!("{shown}");
            if several {
                errln!("to {to}:");
            }
            for path in &written {
                errln!("wrote {path}");
            }
            for why in &refused {
                errln!("not written: {why}");
            }
            err!(
                "{}",
                crate::diag::style(&loss::render_text(&conversion.losses, &conversion.notes))
            );
            Ok((None, code))
        }
        Format::Json => Ok((
            Some(serde_json::json!({
                "to": to,
                "scripts": scripts
                    .iter()
                    .map(|(name, text)| serde_json::json!({"name": name, "text": text}))
                    .collect::<Vec<_>>(),
                "written": written,
                "refused": refused,
                "losses": conversion.losses,
                "notes": conversion.notes,
            })),
            code,
        )),
    }
}

fn validate_cmd(args: ValidateArgs) -> Result<i32, Error> {
    let mut all = Vec::new();
    let mut unreadable = 0;
    let mut worst = 0;
    let files: Vec<(PathBuf, Option<Dialect>)> = if args.files.is_empty() {
        // What `hookx list` finds, each in the dialect its location says.
        let ctx = crate::discover::Context::resolve(args.project.as_deref(), args.home.as_deref())?;
        crate::discover::discover(&ctx)
            .into_iter()
            .map(|s| (s.path.clone(), Some(args.from.unwrap_or(s.dialect))))
            .collect()
    } else {
        args.files.iter().map(|p| (p.clone(), args.from)).collect()
    };
    for (path, from) in &files {
        match load(path, *from) {
            Ok((src, parsed)) => {
                all.extend(parsed.diagnostics.iter().cloned());
                all.extend(crate::commands::validate::check(&src, &parsed.document));
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
                files.len()
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

fn exec_cmd(args: ExecArgs, known: &failure::Context) -> Result<i32, Error> {
    if too_deep() {
        return Ok(0);
    }
    let payload = host::read_stdin()?;
    let hosted = host::decode(&payload, args.host, args.event.as_deref(), args.project)?;
    known.decoded(hosted.host, &hosted.event.kind);
    injected_panic();
    let kind = match &args.event {
        Some(name) => host::parse_event(name),
        None => hosted.event.kind.clone(),
    };
    if kind != hosted.event.kind {
        // Registered for another event: nothing to do.
        return Ok(0);
    }
    if let Some(rule) = &args.condition {
        let condition = crate::dispatch::condition::Condition::parse(rule).map_err(Error::Usage)?;
        if !condition.matches(&hosted.event, args.as_flavor) {
            // The handler's own filter says no: it does not run, as under its own agent.
            return Ok(0);
        }
    }
    let line = match args.command.as_slice() {
        [one] => one.clone(),
        words => words
            .iter()
            .map(|w| crate::shell::shell_quote(w))
            .collect::<Vec<_>>()
            .join(" "),
    };
    let rule = crate::tables::Rule {
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
        shape: crate::tables::RuleShape::Group,
        extra: Default::default(),
        origin: crate::tables::Origin {
            file: "<hookx exec>".into(),
            pointer: String::new(),
        },
    };
    let dispatch =
        crate::dispatch::run::dispatch(hosted.host, &hosted.event, [(&rule, &())], &hosted.project);
    Ok(host::answer(&dispatch))
}

fn run_cmd(args: RunArgs, known: &failure::Context) -> Result<i32, Error> {
    if too_deep() {
        return Ok(0);
    }
    let payload = host::read_stdin()?;
    if args
        .host
        .is_some_and(|h| host::another_agent_runs_route(h, &payload))
    {
        return Ok(0);
    }
    let hosted = host::decode(&payload, args.host, args.event.as_deref(), args.project)?;
    known.decoded(hosted.host, &hosted.event.kind);
    injected_panic();
    let ctx = crate::discover::Context::resolve(Some(&hosted.project), args.home.as_deref())?;
    let host_dialect = hosted.host.dialect();
    // The folder of the host file whose route fired: the host's variable, else the project
    // file's folder when the route says it is the project's.
    let hook_dir = host_dialect
        .config()
        .hook_dir_var
        .and_then(std::env::var_os)
        .map(PathBuf::from)
        .or_else(|| {
            let project = crate::route::InstallScope::Project;
            (args.installed_in == Some(project)).then(|| {
                let file = crate::route::target(&ctx.home, &ctx.project, host_dialect, project);
                file.parent().map(Path::to_path_buf).unwrap_or(file)
            })
        });
    if let (Some(dir), Some(event)) = (hook_dir, &args.event)
        && crate::route::left_to_user_route(&ctx.home, host_dialect, &dir, event)
    {
        return Ok(0);
    }
    // Rules that cannot fire are not even built: decided by the matching dispatch uses.
    let fires =
        |rules: &[crate::tables::Rule]| crate::dispatch::select::can_fire(rules, &hosted.event);
    // Left for the OS to free when hookx exits: freeing thousands of rules one by one costs
    // an event more than reading them from the cache did.
    // Trust first: the record decides which files are parsed at all.
    let store = crate::trust::TrustStore::load_or_empty(&ctx);
    let sources = std::mem::ManuallyDrop::new(crate::discover::discover_firing(
        &ctx,
        hosted.host.dialect(),
        &hosted.event.kind,
        &fires,
        &store,
    ));
    let rules = crate::discover::dispatch_rules(&sources, hosted.host.dialect(), &store);
    let rules = std::mem::ManuallyDrop::new(rules);
    // Each untrusted file is warned about once per content (`hookx list` shows them all).
    let untrusted = host::untrusted(&sources, hosted.host.dialect(), &store);
    let files: Vec<crate::warned::File<'_>> = untrusted
        .iter()
        .map(|(source, _)| crate::warned::File {
            location: source.location.id,
            real: source.canonical.as_deref().unwrap_or(&source.path),
            path: &source.path,
            id: source.file_id.as_ref(),
            sha256: source.sha256.as_deref(),
        })
        .collect();
    for i in crate::warned::to_warn(&ctx.home, &files) {
        let (source, state) = untrusted[i];
        errln!("hookx: {}", host::untrusted_warning(source, state));
    }
    let dispatch = crate::dispatch::run::dispatch(
        hosted.host,
        &hosted.event,
        rules.iter().map(|r| (r.rule.as_ref(), r.source)),
        &hosted.project,
    );
    Ok(host::answer(&dispatch))
}

fn simulate_cmd(args: SimulateArgs) -> Result<i32, Error> {
    use crate::dispatch::simulate;
    let project = match &args.project {
        Some(p) => p.clone(),
        None => std::env::current_dir().map_err(|e| Error::Io {
            path: ".".into(),
            message: e.to_string(),
        })?,
    };
    let event = match &args.payload {
        Some(path) => {
            let src = SourceFile::read(path)?;
            let hosted = host::decode(
                src.text.as_bytes(),
                Some(args.host.dialect()),
                args.event.as_deref(),
                Some(project.clone()),
            )?;
            hosted.event
        }
        None => simulate::synthetic_event(
            args.host,
            args.event.as_deref().unwrap_or_default(),
            args.tool.as_deref(),
            args.input.as_deref(),
            &args.fields,
            &project.display().to_string(),
        )?,
    };
    let ctx = crate::discover::Context::resolve(Some(&project), args.home.as_deref())?;
    let host_dialect = args.host.dialect();
    let store = crate::trust::TrustStore::load_or_empty(&ctx);
    let sources = crate::discover::discover_for_event(&ctx, host_dialect, &event.kind, &store);
    let (rules, warnings) = host::runnable(&sources, host_dialect, &store);
    let mut dispatch = crate::dispatch::run::dispatch(
        args.host,
        &event,
        rules.iter().map(|r| (r.rule.as_ref(), r.source)),
        &project,
    );
    dispatch.skipped.extend(warnings);
    dispatch.native = crate::dispatch::simulate::native_runs(args.host, &event, &sources);
    // The files the host reads itself: their handlers run without hookx, with the payload the
    // host sends them (Copilot runs `.claude/settings.json` hooks as its PascalCase hooks).
    let all = crate::discover::discover(&ctx);
    let native_rules = simulate::native_rules(&all, host_dialect, &event.kind);
    let native = crate::dispatch::run::dispatch(
        args.host,
        &event,
        native_rules.iter().map(|r| (r, &())),
        &project,
    );
    let mut outcome = native.outcome.clone();
    outcome.merge(dispatch.outcome.clone());
    let verdict = simulate::verdict(&outcome);
    match args.format {
        Format::Text => {
            if !native.runs.is_empty() || !native.skipped.is_empty() {
                out!(
                    "run by {host_dialect} itself (natively, not through hookx), with what {host_dialect} sends them:\n{}\nrun through hookx:\n",
                    simulate::report_text(&native)
                );
            }
            out!("{}", simulate::report_text(&dispatch));
            outln!(
                "decision: {}",
                serde_json::to_value(verdict)
                    .unwrap_or_default()
                    .as_str()
                    .unwrap_or_default()
            );
        }
        Format::Json => {
            let mut report = simulate::report_json(&dispatch);
            report["native"] = simulate::report_json(&native);
            report["decision"] = serde_json::to_value(verdict).unwrap_or_default();
            outln!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            )
        }
    }
    let stopped = verdict != simulate::Verdict::Allow;
    Ok(match args.expect {
        Some(expected) if expected == verdict => 0,
        Some(expected) => {
            errln!(
                "{}",
                crate::diag::style(&format!(
                    "error: expected {}, the decision is {}",
                    serde_json::to_value(expected)
                        .unwrap_or_default()
                        .as_str()
                        .unwrap_or_default(),
                    serde_json::to_value(verdict)
                        .unwrap_or_default()
                        .as_str()
                        .unwrap_or_default()
                ))
            );
            simulate::EXIT_VERDICT
        }
        None if stopped => simulate::EXIT_VERDICT,
        None => 0,
    })
}
