//! The command line's arguments (clap): every command, its options and its help text. Only
//! definitions: `super` runs what they ask for.

use crate::tables::{Dialect, Flavor};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

/// The one-line description, naming every registered agent.
fn about() -> String {
    let products: Vec<&str> = Dialect::all().iter().map(|d| d.def().product).collect();
    // Agents whose hooks are code: hookx writes them a plugin, and reads none.
    let plugins: Vec<&str> = Dialect::write_only()
        .iter()
        .map(|d| d.def().product)
        .collect();
    format!(
        "Portable hooks for AI coding agents: {}; through a plugin hookx writes: {}",
        products.join(", "),
        plugins.join(", ")
    )
}

#[derive(Parser, Debug)]
#[command(
    name = "hookx",
    version,
    about = about(),
    after_help = concat!(
        "Example:\n  hookx convert .claude/settings.json --to copilot --write\n\n",
        "Exit codes:\n  0  success\n  1  an error: unreadable or invalid input, a failed write\n  2  a usage error\n  3  convert --strict: something is lost\n  4  simulate: the decision is not --expect (without it: a deny, ask or block)\n  5  doctor: a rule fires under none of the agents examined (blocked or never)"
    )
)]
pub struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

/// An event name for `--event`: any text is taken (a host may send an event this hookx does not
/// know), and the names of every dialect's tables are offered to shell completion.
#[derive(Clone, Copy, Debug)]
struct EventName;

impl clap::builder::TypedValueParser for EventName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        let mut names: Vec<&'static str> = Dialect::all()
            .iter()
            .flat_map(|d| d.flavors())
            .flat_map(|f| f.tables().events.iter().map(|(_, name)| *name))
            .collect();
        names.sort_unstable();
        names.dedup();
        Some(Box::new(
            names.into_iter().map(clap::builder::PossibleValue::new),
        ))
    }
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
            "\nExit codes:\n  0  success\n  1  an error: unreadable or invalid input, a failed write\n  2  a usage error\n  3  convert --strict: something is lost\n  4  simulate: the decision is not --expect (without it: a deny, ask or block)\n  5  doctor: a rule fires under none of the agents examined (blocked or never)"
        )
    };
}

/// Each command's arguments are defined when that command runs (`defer`): hookx starts for
/// every hook event, and building every command's arguments first was a sixth of its start-up.
#[derive(Subcommand, Debug)]
#[command(defer = true)]
pub(super) enum Command {
    /// Translate hook configs into another agent's dialect, reporting anything it cannot express.
    #[command(after_help = example!(
        "hookx convert .claude/settings.json --to copilot --write",
        "hookx convert - --to bricks < hooks.json"
    ))]
    Convert(ConvertArgs),
    /// Keep every agent's hook file generated from one source of truth (.hookx/sync.toml): write
    /// them, or check in CI that none is stale or edited by hand.
    #[command(after_help = example!(
        "hookx sync --init --to copilot,gemini,codex   # write .hookx/sync.toml",
        "hookx sync                                     # write every target",
        "hookx sync --check                             # CI: exit 1 with a diff when one is stale"
    ))]
    Sync(SyncArgs),
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
    #[command(after_help = example!(
        "hookx trust                # review the new and changed hook files, then trust them",
        "hookx trust .github/hooks/hooks.json",
        "hookx trust --list",
        "hookx trust --revoke .github/hooks/hooks.json"
    ))]
    Trust(TrustArgs),
    /// Why a hook does or does not fire: per hook file, rule and the agents you have, whether
    /// the agent loads it, whether it fires, who runs it, what payload it gets, and the fix.
    #[command(after_help = example!("hookx doctor --host copilot"))]
    Doctor(DoctorArgs),
    /// Route a host agent's events to `hookx run` through the host's own config.
    #[command(after_help = example!("hookx install --host claude"))]
    Install(InstallArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_help = example!(
        "mkdir -p ~/.local/share/bash-completion/completions",
        "hookx completions bash > ~/.local/share/bash-completion/completions/hookx"
    ))]
    Completions { shell: clap_complete::Shell },
    /// Print hookx's man page (roff), or a command's (`hookx man convert`), or with --dir write
    /// it and one page per command (hookx-convert.1, …), the pages it refers to.
    #[command(after_help = example!(
        "hookx man convert | man -l -",
        "mkdir -p ~/.local/share/man/man1 && hookx man --dir ~/.local/share/man/man1"
    ))]
    Man(ManArgs),
}

#[derive(clap::Args, Debug)]
pub(super) struct ManArgs {
    /// The command whose page to print instead of hookx.1 (`convert`: hookx-convert.1).
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    pub(super) command: Option<String>,
    /// Write hookx.1 and a page per command into this folder (made if missing) instead of
    /// printing hookx.1.
    #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
    pub(super) dir: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub(super) struct ListArgs {
    /// Project directory.
    #[arg(long, value_name = "DIR")]
    pub(super) project: Option<PathBuf>,
    /// Home directory for user-level configs and hookx's trust record [default: $HOOKX_HOME,
    /// else $HOME].
    #[arg(long, value_name = "DIR")]
    pub(super) home: Option<PathBuf>,
    /// The folder standing for `/` when looking for the agents' policy files (tests, images)
    /// [default: $HOOKX_MANAGED_ROOT, else /].
    #[arg(long, value_name = "DIR")]
    pub(super) managed_root: Option<PathBuf>,
    /// Show whether each hook runs natively under this agent or through hookx.
    #[arg(long)]
    pub(super) host: Option<Dialect>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(super) format: Format,
}

#[derive(clap::Args, Debug)]
pub(super) struct DoctorArgs {
    /// Project directory.
    #[arg(long, value_name = "DIR")]
    pub(super) project: Option<PathBuf>,
    /// Home directory for user-level configs and hookx's trust record [default: $HOOKX_HOME,
    /// else $HOME].
    #[arg(long, value_name = "DIR")]
    pub(super) home: Option<PathBuf>,
    /// The folder standing for `/` when looking for the agents' policy files (tests, images)
    /// [default: $HOOKX_MANAGED_ROOT, else /].
    #[arg(long, value_name = "DIR")]
    pub(super) managed_root: Option<PathBuf>,
    /// Only this host agent [default: the agents you have: a client on PATH or where its
    /// installer puts it, a folder of theirs in the project or home, a hookx route].
    #[arg(long, conflicts_with = "all_hosts")]
    pub(super) host: Option<Dialect>,
    /// Every agent hookx knows, had or not.
    #[arg(long)]
    pub(super) all_hosts: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(super) format: Format,
}

#[derive(clap::Args, Debug)]
pub(super) struct TrustArgs {
    /// Files to trust, each at once; with none, every new or changed hook file of the project
    /// and home, after showing them (their rules, and what changed) and asking.
    pub(super) files: Vec<PathBuf>,
    /// Trust what the review shows without asking (needed when not on a terminal).
    #[arg(long, short = 'y')]
    pub(super) yes: bool,
    /// Show what is trusted, and whether each file still has the trusted content.
    #[arg(long, conflicts_with_all = ["files", "yes", "revoke"])]
    pub(super) list: bool,
    /// Take back the trust of the files named instead, and nothing else.
    #[arg(long, requires = "files", conflicts_with = "yes")]
    pub(super) revoke: bool,
    /// Project directory.
    #[arg(long, value_name = "DIR")]
    pub(super) project: Option<PathBuf>,
    /// Home directory holding hookx's trust record [default: $HOOKX_HOME, else $HOME].
    #[arg(long, value_name = "DIR")]
    pub(super) home: Option<PathBuf>,
    /// The folder standing for `/` when looking for the agents' policy files (tests, images)
    /// [default: $HOOKX_MANAGED_ROOT, else /].
    #[arg(long, value_name = "DIR")]
    pub(super) managed_root: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub(super) struct InstallArgs {
    /// The agent whose config receives the routing entries.
    #[arg(long)]
    pub(super) host: Dialect,
    /// Project directory.
    #[arg(long, value_name = "DIR")]
    pub(super) project: Option<PathBuf>,
    /// Home directory, for --scope user and hookx's trust record [default: $HOOKX_HOME, else
    /// $HOME]. Given here (and not $HOME), it is also written on every route (`hookx run
    /// --home DIR`).
    #[arg(long, value_name = "DIR")]
    pub(super) home: Option<PathBuf>,
    /// The folder standing for `/` when looking for the agents' policy files (tests, images)
    /// [default: $HOOKX_MANAGED_ROOT, else /]. Given here (and not /), it is also written on
    /// every route, as is --home: `hookx run` reads neither variable.
    #[arg(long, value_name = "DIR")]
    pub(super) managed_root: Option<PathBuf>,
    /// Write into the project's config or the user's.
    #[arg(long, value_enum, default_value_t = crate::route::InstallScope::Project)]
    pub(super) scope: crate::route::InstallScope,
    /// Remove hookx's entries instead, and nothing else.
    #[arg(long)]
    pub(super) uninstall: bool,
    /// The hookx program the entries run [default: the absolute path of this executable].
    #[arg(long, value_name = "PATH")]
    pub(super) hookx: Option<String>,
}

#[derive(clap::Args, Debug)]
pub(super) struct ConvertArgs {
    /// Config files to convert (settings.json, hooks.json, SKILL.md, …); `-` reads stdin.
    #[arg(required = true)]
    pub(super) files: Vec<PathBuf>,
    /// The dialect of the input files; detected from path and content when omitted (Claude
    /// when still ambiguous, with a note).
    #[arg(long)]
    pub(super) from: Option<Dialect>,
    /// The dialect(s) to convert to: one, or several separated by commas (with --write).
    #[arg(long, value_delimiter = ',', required = true)]
    pub(super) to: Vec<Dialect>,
    /// Write the result to this file (atomically) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub(super) out: Option<PathBuf>,
    /// Merge into the target file (`--out`, or the target agent's project file under
    /// --project), keeping every other key and hook it has.
    #[arg(long)]
    pub(super) write: bool,
    /// With --out or --write: show the change as a diff and write nothing.
    #[arg(long)]
    pub(super) dry_run: bool,
    /// With --write: overwrite the entries an earlier --write made that were edited by hand
    /// since (without it, such a file is left as it is, and each edited entry named).
    #[arg(long, requires = "write")]
    pub(super) force: bool,
    /// Project directory for --write without --out.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub(super) project: PathBuf,
    /// Exit with status 3 if anything is lost.
    #[arg(long)]
    pub(super) strict: bool,
    /// Write handlers as they are, not through `hookx exec`: a handler then receives the
    /// target's stdin payload, which it was not written for (each is a loss item).
    #[arg(long, conflicts_with = "wrap")]
    pub(super) no_wrap: bool,
    /// Route handlers through `hookx exec` where the target cannot express them natively
    /// (the default).
    #[arg(long, hide = true)]
    pub(super) wrap: bool,
    /// The hookx command wrapped entries call.
    #[arg(long, value_name = "PATH", default_value = "hookx")]
    pub(super) hookx: String,
    /// Report format: text (on stderr) or json (on stdout).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(super) format: Format,
}

#[derive(clap::Args, Debug)]
pub(super) struct SyncArgs {
    /// Write .hookx/sync.toml: the project's hook files (as `hookx list` finds them) as the
    /// sources, the agents of --to as the targets.
    #[arg(long, requires = "to", conflicts_with_all = ["check", "dry_run", "watch"])]
    pub(super) init: bool,
    /// With --init: the agents to generate hook files for, separated by commas.
    #[arg(long, value_delimiter = ',', requires = "init")]
    pub(super) to: Vec<Dialect>,
    /// Write nothing; exit 1, showing a unified diff per file, when a target is not what sync
    /// would write or an entry hookx wrote was edited by hand (CI, pre-commit).
    #[arg(long, conflicts_with_all = ["dry_run", "watch", "force"])]
    pub(super) check: bool,
    /// Write nothing; show the diff of each file sync would change, and exit 0.
    #[arg(long, conflicts_with = "watch")]
    pub(super) dry_run: bool,
    /// Overwrite entries hookx wrote that were edited by hand since (with --init: the
    /// manifest).
    #[arg(long)]
    pub(super) force: bool,
    /// Sync again whenever a source or the manifest changes, one line per run, until stopped.
    #[arg(long)]
    pub(super) watch: bool,
    /// With --watch: stop after this many runs.
    #[arg(long, value_name = "N", requires = "watch", hide = true)]
    pub(super) watch_runs: Option<usize>,
    /// Project directory (holding .hookx/sync.toml) [default: .].
    #[arg(long, value_name = "DIR")]
    pub(super) project: Option<PathBuf>,
    /// Home directory holding hookx's trust record [default: $HOOKX_HOME, else $HOME].
    #[arg(long, value_name = "DIR")]
    pub(super) home: Option<PathBuf>,
    /// The folder standing for `/` when looking for the agents' policy files (tests, images)
    /// [default: $HOOKX_MANAGED_ROOT, else /].
    #[arg(long, value_name = "DIR")]
    pub(super) managed_root: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub(super) struct ValidateArgs {
    /// Files to check; every hook file `hookx list` finds when none is given.
    pub(super) files: Vec<PathBuf>,
    /// Exit 1 on warnings too.
    #[arg(long)]
    pub(super) deny_warnings: bool,
    /// Project directory, when no file is given.
    #[arg(long, value_name = "DIR")]
    pub(super) project: Option<PathBuf>,
    /// Home directory for user-level configs, when no file is given [default: $HOOKX_HOME,
    /// else $HOME].
    #[arg(long, value_name = "DIR")]
    pub(super) home: Option<PathBuf>,
    /// The dialect of the files; detected from path and content when omitted.
    #[arg(long)]
    pub(super) from: Option<Dialect>,
    /// Also warn where this agent drops a whole file it reads (Copilot and a Claude file) [default:
    /// the agents the user has, as `hookx doctor` finds them].
    #[arg(long)]
    pub(super) host: Option<Dialect>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(super) format: Format,
}

#[derive(clap::Args, Debug)]
pub(super) struct ExecArgs {
    /// The dialect the command was written for: the stdin shape, env and answer it expects.
    #[arg(long = "as", value_name = "FLAVOR")]
    pub(super) as_flavor: Flavor,
    /// The event the handler is registered for, in any dialect's spelling; other events pass.
    #[arg(long, value_parser = EventName, hide_possible_values = true)]
    pub(super) event: Option<String>,
    /// Only run when this matcher (read as the `--as` dialect reads it) accepts the event.
    #[arg(long = "match", value_name = "MATCHER")]
    pub(super) matcher: Option<String>,
    /// Only run when the tool call matches this Claude permission rule (`Bash(git *)`,
    /// `Edit(*.ts)`), the tool named as the `--as` dialect names it: Claude's `if` filter.
    #[arg(long = "if", value_name = "RULE")]
    pub(super) condition: Option<String>,
    /// The agent sending the event; detected from the environment and payload when omitted.
    #[arg(long)]
    pub(super) host: Option<Dialect>,
    /// Project directory (default: the host's project variable, the event's cwd, or .).
    #[arg(long, value_name = "DIR")]
    pub(super) project: Option<PathBuf>,
    /// Kill the command after this many seconds (default: the `--as` dialect's default).
    #[arg(long, value_name = "SECONDS")]
    pub(super) timeout: Option<u64>,
    /// The command's own cap on its follow-ups in a row, where its dialect has one (Cursor's
    /// `loop_limit`; default: the dialect's).
    #[arg(long, value_name = "N")]
    pub(super) follow_up_limit: Option<u64>,
    /// Answer the host at once, as if no handler ran, and run the command in the background
    /// within its timeout, its answer ignored: its own agent's `async: true`.
    #[arg(long = "async")]
    pub(super) is_async: bool,
    /// The command: one shell command line, or a program and its arguments.
    #[arg(last = true, required = true)]
    pub(super) command: Vec<String>,
}

#[derive(clap::Args, Debug)]
pub(super) struct RunArgs {
    /// The agent calling hookx; detected from the environment and payload when omitted.
    #[arg(long)]
    pub(super) host: Option<Dialect>,
    /// The event the host's config registered this command for, as the host names it.
    #[arg(long, value_parser = EventName, hide_possible_values = true)]
    pub(super) event: Option<String>,
    /// Project directory (default: the host's project variable, the event's cwd, or .).
    #[arg(long, value_name = "DIR")]
    pub(super) project: Option<PathBuf>,
    /// Home directory for user-scope hooks and hookx's trust record [default: $HOME;
    /// $HOOKX_HOME is not read: an agent passes a project's variables to its hooks].
    #[arg(long, value_name = "DIR")]
    pub(super) home: Option<PathBuf>,
    /// The folder standing for `/` when looking for the agents' policy files [default: /;
    /// $HOOKX_MANAGED_ROOT is not read].
    #[arg(long, value_name = "DIR")]
    pub(super) managed_root: Option<PathBuf>,
    /// The host's file holding this route, where the host does not tell (`hookx install`
    /// writes it): a project route leaves an event the user route also takes to that route.
    #[arg(long, value_enum, value_name = "SCOPE")]
    pub(super) installed_in: Option<crate::route::InstallScope>,
    /// The user's route key (`hookx install` writes it on a route of the user's files): it
    /// makes the line unique, so that no repository's copy of it is run in its place.
    #[arg(long, value_name = "KEY", hide = true)]
    pub(super) route_key: Option<String>,
    /// The project route's folder below the project's root (`hookx install` writes it where
    /// the agent loads the project file of every folder down to where it started): the route
    /// runs that folder's rules, and another's only where no line of its own runs them.
    #[arg(long, value_name = "REL", requires = "installed_in")]
    pub(super) route_folder: Option<String>,
}

#[derive(clap::Args, Debug)]
pub(super) struct SimulateArgs {
    /// The agent to act as: the payload it sends and the answer it expects.
    #[arg(long, value_enum, default_value = Dialect::all()[0].name())]
    pub(super) host: Flavor,
    /// The event, in the host's spelling or canonically (PreToolUse).
    #[arg(
        long,
        required_unless_present = "payload",
        value_parser = EventName,
        hide_possible_values = true
    )]
    pub(super) event: Option<String>,
    /// The tool, in the host's spelling (Bash, bash, …).
    #[arg(long)]
    pub(super) tool: Option<String>,
    /// The tool's arguments as JSON, in the host's argument names.
    #[arg(long, value_name = "JSON")]
    pub(super) input: Option<String>,
    /// Another event field, KEY=VALUE (prompt=…, source=startup, …); repeatable.
    #[arg(long = "field", value_name = "KEY=VALUE")]
    pub(super) fields: Vec<String>,
    /// A host payload file to send instead of building one.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["tool", "input", "fields"])]
    pub(super) payload: Option<PathBuf>,
    #[arg(long, value_name = "DIR")]
    pub(super) project: Option<PathBuf>,
    #[arg(long, value_name = "DIR")]
    pub(super) home: Option<PathBuf>,
    /// The folder standing for `/` when looking for the agents' policy files (tests, images)
    /// [default: $HOOKX_MANAGED_ROOT, else /].
    #[arg(long, value_name = "DIR")]
    pub(super) managed_root: Option<PathBuf>,
    /// Exit 0 when the host's decision is this one and 4 otherwise: a test step for CI.
    #[arg(long, value_enum)]
    pub(super) expect: Option<crate::dispatch::simulate::Verdict>,
    /// Run no handler: show which would run, and what each would get (the decision is then
    /// the host's when no handler answers).
    #[arg(long)]
    pub(super) dry_run: bool,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(super) format: Format,
}
