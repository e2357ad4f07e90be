//! The command line: `args` defines it, [`main`] parses it and hands each command to its
//! module (the pipeline for `run`, `exec` and `simulate`, `crate::commands` for the others);
//! what stays here is printing.

use crate::error::Error;
use crate::pipeline;
use clap::Parser;

use crate::commands::{errln, out, outln};

mod args;
mod simulate;
mod validate;

use args::Command;
pub use args::{Cli, Format};

/// Runs the command line and returns the process exit code.
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Built only when asked: the version plus the host versions the tables were verified by.
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayVersion => {
            out!("{}", version_text());
            return 0;
        }
        Err(e) if e.use_stderr() && dispatching().is_some() => {
            // A host started it: its answer follows the failure policy, never exit 2.
            let why = e.kind().to_string();
            let mut why = e
                .to_string()
                .lines()
                .next()
                .and_then(|l| l.strip_prefix("error: "))
                .map_or(why, str::to_string);
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::UnknownArgument | ErrorKind::InvalidValue
            ) {
                let exe = std::env::current_exe()
                    .map_or_else(|_| "hookx".to_string(), |p| p.display().to_string());
                why.push_str(&format!(
                    " (a newer hookx may have written this line: upgrade {exe})"
                ));
            }
            let home = option_value("--home").map(std::path::PathBuf::from);
            let managed_root = option_value("--managed-root").map(std::path::PathBuf::from);
            let line = match dispatching() {
                Some(Dispatching::Run) => pipeline::Unread::Run {
                    home: home.as_deref(),
                    managed_root: managed_root.as_deref(),
                },
                _ => pipeline::Unread::Exec,
            };
            return pipeline::unreadable_command_line(
                line,
                option_value("--host").as_deref(),
                option_value("--event").as_deref(),
                &why,
            );
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

/// A command a host starts.
enum Dispatching {
    Run,
    Exec,
}

/// Whether the command line is `hookx run …` or `hookx exec …` (the commands a host starts)
/// with the payload piped in: typed at a terminal, a usage error is a usage error.
fn dispatching() -> Option<Dispatching> {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        return None;
    }
    let command = std::env::args_os()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'))?;
    match command.to_str()? {
        "run" => Some(Dispatching::Run),
        "exec" => Some(Dispatching::Exec),
        _ => None,
    }
}

/// The value of `name` on the command line (`--name VALUE` or `--name=VALUE`), before any `--`.
fn option_value(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .take_while(|a| a != "--")
        .collect();
    let with_equals = format!("{name}=");
    args.iter()
        .enumerate()
        .find_map(|(i, a)| match a.strip_prefix(&with_equals) {
            Some(value) => Some(value.to_string()),
            None if a == name => args.get(i + 1).cloned(),
            None => None,
        })
}

/// `hookx --version`: this version, and each host release whose runs verified a dialect's
/// tables (`Tables::verified_with`).
fn version_text() -> String {
    let mut text = format!("hookx {}\n", env!("CARGO_PKG_VERSION"));
    let write_only = crate::tables::Dialect::write_only();
    for dialect in crate::tables::Dialect::all().iter().chain(write_only) {
        let verified: Vec<&str> = dialect
            .flavors()
            .filter_map(|f| f.tables().verified_with)
            .fold(Vec::new(), |mut seen, v| {
                if !seen.contains(&v) {
                    seen.push(v);
                }
                seen
            });
        let (seen, all) = dialect.default_flavor().tables().events_seen_firing();
        let what = if verified.is_empty() {
            "docs: facts from its documentation, not verified against a real client".to_string()
        } else {
            let events = match seen == all {
                true => format!("all {all} events seen firing; rows no run showed"),
                false => format!(
                    "{seen} of {all} events seen firing; the other events, and rows no run \
                     showed,"
                ),
            };
            format!(
                "run against {}: {events} are from its documents (conformance/{dialect}-facts.md \
                 says which; doctor notes a rule on an event never seen firing)",
                verified.join(", ")
            )
        };
        text.push_str(&format!("{dialect}: {what}\n"));
    }
    text
}

/// Hands the parsed command to the module that does it; returns the exit code.
fn run(cli: Cli) -> Result<i32, Error> {
    match cli.command {
        Command::Convert(args) => {
            crate::commands::convert::command(&crate::commands::convert::Options {
                files: args.files,
                from: args.from,
                to: args.to,
                out: args.out,
                write: args.write,
                dry_run: args.dry_run,
                project: args.project,
                strict: args.strict,
                wrap: !args.no_wrap,
                hookx: args.hookx,
                json: args.format == Format::Json,
                force: args.force,
            })
        }
        Command::Sync(args) => crate::commands::sync::command(&crate::commands::sync::Options {
            ctx: user_context(
                args.project.as_deref(),
                args.home.as_deref(),
                args.managed_root.as_deref(),
            )?,
            init: args.init.then_some(args.to),
            check: args.check,
            dry_run: args.dry_run,
            force: args.force,
            watch: args.watch,
            watch_runs: args.watch_runs,
        }),
        Command::Validate(args) => validate::command(args),
        Command::Exec(args) => Ok(pipeline::exec(pipeline::ExecRequest {
            host: args.host,
            event: args.event,
            project: args.project,
            flavor: args.as_flavor,
            matcher: args.matcher,
            condition: args.condition,
            timeout: args.timeout,
            follow_up_limit: args.follow_up_limit,
            is_async: args.is_async,
            command: args.command,
        })),
        Command::Run(args) => Ok(pipeline::run(pipeline::RunRequest {
            installed_in: args.installed_in,
            route_key: args.route_key,
            route_folder: args.route_folder,
            host: args.host,
            event: args.event,
            project: args.project,
            home: args.home,
            managed_root: args.managed_root,
        })),
        Command::Simulate(args) => simulate::command(args),
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
        Command::Man(args) => man(args.command.as_deref(), args.dir.as_deref()),
        Command::List(args) => crate::commands::list::command(&crate::commands::list::Options {
            ctx: user_context(
                args.project.as_deref(),
                args.home.as_deref(),
                args.managed_root.as_deref(),
            )?,
            host: args.host,
            json: args.format == Format::Json,
        }),
        Command::Doctor(args) => {
            crate::commands::doctor::command(&crate::commands::doctor::Options {
                ctx: user_context(
                    args.project.as_deref(),
                    args.home.as_deref(),
                    args.managed_root.as_deref(),
                )?,
                host: args.host,
                all_hosts: args.all_hosts,
                json: args.format == Format::Json,
            })
        }
        Command::Trust(args) => crate::commands::trust::command(&crate::commands::trust::Options {
            ctx: user_context(
                args.project.as_deref(),
                args.home.as_deref(),
                args.managed_root.as_deref(),
            )?,
            files: args.files,
            yes: args.yes,
            list: args.list,
            revoke: args.revoke,
        }),
        Command::Install(args) => {
            crate::commands::install::command(&crate::commands::install::Options {
                ctx: user_context(
                    args.project.as_deref(),
                    args.home.as_deref(),
                    args.managed_root.as_deref(),
                )?,
                host: args.host,
                scope: args.scope,
                uninstall: args.uninstall,
                hookx: args.hookx,
                // `run` takes its home from the account, not `HOME`: any other home the
                // routes are for goes on their command line.
                route_home: route_place(
                    args.home.as_deref().or(std::env::var_os("HOME")
                        .as_deref()
                        .map(std::path::Path::new)),
                    crate::ownership::account_home()
                        .map(std::ffi::OsString::from)
                        .or_else(|| std::env::var_os("HOME")),
                ),
                route_managed_root: route_place(args.managed_root.as_deref(), Some("/".into())),
            })
        }
    }
}

/// `hookx man`: hookx.1 on stdout (or `command`'s page, hookx-COMMAND.1), or with `dir`
/// hookx.1 and one page per command (`hookx-convert.1`, …: the pages hookx.1 refers to)
/// written there, each atomically.
fn man(command: Option<&str>, dir: Option<&std::path::Path>) -> Result<i32, Error> {
    use clap::CommandFactory;
    // No `help` command: its page would be one more to refer to, and `--help` says it all.
    let mut cli = Cli::command().disable_help_subcommand(true);
    cli.build();
    let render = |cmd: &clap::Command, shown: &str| -> Result<(String, String), Error> {
        let man = clap_mangen::Man::new(cmd.clone());
        let mut page = Vec::new();
        man.render(&mut page).map_err(|e| Error::Io {
            path: shown.to_string(),
            message: e.to_string(),
        })?;
        Ok((
            man.get_filename(),
            String::from_utf8_lossy(&page).into_owned(),
        ))
    };
    let Some(dir) = dir else {
        let page = match command {
            None => &cli,
            Some(name) => {
                let shown = || cli.get_subcommands().filter(|s| !s.is_hide_set());
                match shown().find(|s| s.get_name() == name) {
                    Some(sub) => sub,
                    None => {
                        let names: Vec<&str> = shown().map(|s| s.get_name()).collect();
                        let hint = crate::diag::did_you_mean(name, names.iter().copied())
                            .map_or(String::new(), |n| format!(" (did you mean `{n}`?)"));
                        return Err(Error::Usage(format!(
                            "no command `{name}`{hint}: the commands are {}",
                            names.join(", ")
                        )));
                    }
                }
            }
        };
        out!("{}", render(page, "<stdout>")?.1);
        return Ok(0);
    };
    let mut pages = vec![render(&cli, &dir.display().to_string())?];
    for sub in cli.get_subcommands().filter(|s| !s.is_hide_set()) {
        pages.push(render(sub, &dir.display().to_string())?);
    }
    for (name, text) in &pages {
        let path = dir.join(name);
        crate::config::update::update(&path, |_| {
            Ok(crate::config::update::Change::Write(text.clone()))
        })?;
        outln!("wrote {}", path.display());
    }
    Ok(0)
}

/// The context of a command the user runs: `--project`, `--home` and `--managed-root`, with
/// `HOOKX_HOME` and `HOOKX_MANAGED_ROOT` as their defaults.
fn user_context(
    project: Option<&std::path::Path>,
    home: Option<&std::path::Path>,
    managed_root: Option<&std::path::Path>,
) -> Result<crate::discover::Context, Error> {
    crate::discover::Context::resolve_places(
        crate::context::Places {
            project,
            home,
            managed_root,
        },
        crate::context::Vars::User,
    )
}

/// A place install was given, for its routes: absolute, and only where it is not what
/// `hookx run` takes without it (`HOME`, `/`).
fn route_place(
    given: Option<&std::path::Path>,
    default: Option<std::ffi::OsString>,
) -> Option<std::path::PathBuf> {
    let given = crate::context::absolute(given?);
    let default = default
        .filter(|d| !d.is_empty())
        .map(|d| crate::context::absolute(d.as_ref()));
    (default.as_ref() != Some(&given)).then_some(given)
}
