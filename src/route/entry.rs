//! A route's command line: writing it ([`route_command`]) and recognising one, whatever the
//! user wrapped it in ([`route_host`]), so that the engine never dispatches a route.

use super::InstallScope;
use crate::model::{Handler, HandlerKind};
use crate::shell::{shell_quote, shell_quote_shortest};
use crate::tables::Dialect;
use std::path::Path;

/// What a route runs: the hookx program, and the places `install` was given on its command
/// line (`--home`, `--managed-root`), carried on the route because `hookx run` reads neither
/// `HOOKX_HOME` nor `HOOKX_MANAGED_ROOT`: an agent passes a project's variables to its hooks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Program<'a> {
    pub hookx: &'a str,
    pub home: Option<&'a str>,
    pub managed_root: Option<&'a str>,
    /// The user's route key ([`route_key`]), on a route of the user's own files.
    pub key: Option<&'a str>,
    /// The project route's folder below the project's root (`.` for the root), where the host
    /// names it ([`crate::tables::RouteSpec::names_folder`]).
    pub folder: Option<&'a str>,
    /// What a user route answers where its hookx cannot run ([`Gone`]).
    pub gone: Option<Gone<'a>>,
}

/// What a route of the user's own files looks for before it runs its hookx (attacks row 1080):
/// where the hookx it names is gone (moved by an upgrade, removed) or empty, and the home it
/// runs for still holds a trust record, it denies a tool call itself, by hookx's failure
/// policy ([`crate::tables::ProtocolTables::fails_closed`]), saying why; without a record (hookx
/// and its state removed) it exits 0 and traps nobody. The record is named by its path, not
/// `$HOME`, which a project's settings can set; hookx is never looked for on `PATH` (a
/// project's settings can set that too, and name their own "hookx").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gone<'a> {
    /// The trust record of the home `hookx run` reads (`--home`, else the account's).
    pub store: &'a str,
    /// The user's file holding the routes, named in the reason.
    pub file: &'a str,
}

impl<'a> Program<'a> {
    /// The program alone.
    pub fn plain(hookx: &'a str) -> Program<'a> {
        Program {
            hookx,
            ..Program::default()
        }
    }
}

/// The command line a host runs for one event: the hookx path, quoted as one POSIX word, and
/// the event as the host names it (Copilot's camelCase payloads do not say which event fired);
/// a project route says so where the host needs it ([`crate::tables::RouteSpec::names_project_route`]);
/// then the places install was given ([`Program`]); on a user route, the guard for a gone
/// hookx before it ([`Gone`]).
pub fn route_command(
    program: Program<'_>,
    host: Dialect,
    event: &str,
    scope: InstallScope,
) -> String {
    let names_scope = host.def().route.names_project_route && scope == InstallScope::Project;
    let mut line = format!(
        "{} run --host {} --event {event}{}",
        route_word(program.hookx),
        host.name(),
        if names_scope {
            " --installed-in project"
        } else {
            ""
        }
    );
    let folder = program
        .folder
        .filter(|_| names_scope && host.def().route.names_folder);
    for (flag, value) in [
        ("--route-folder", folder),
        ("--home", program.home),
        ("--managed-root", program.managed_root),
        ("--route-key", program.key),
    ] {
        if let Some(value) = value {
            line.push_str(&format!(" {flag} {}", route_word(value)));
        }
    }
    let gone = program.gone.filter(|_| scope == InstallScope::User);
    let answer = gone
        .and_then(|gone| gone_answer(program.hookx, host, event, gone))
        .or_else(|| failed_route_blocks(host, event).then(|| "exit 0".to_string()));
    match answer {
        Some(answer) => format!("{} && exec {line}; {answer}", can_run_test(program.hookx)),
        None => line,
    }
}

/// The shell's test that a route's hookx can run: a path names a file that is executable and
/// not empty (an empty one exits 0 saying nothing: attacks row 1082); a name is looked up on
/// `PATH`, as the route's own line would look it up.
fn can_run_test(hookx: &str) -> String {
    can_run_test_quoted(hookx, route_word)
}

/// [`can_run_test`] with the program quoted by `quote`.
fn can_run_test_quoted(hookx: &str, quote: fn(&str) -> String) -> String {
    let quoted = quote(hookx);
    match hookx.contains('/') {
        true => format!("[ -x {quoted} ] && [ -s {quoted} ]"),
        false => format!("command -v {quoted} >/dev/null 2>&1"),
    }
}

/// One word of a route's line: a POSIX shell reads it as the text, and so does an agent that
/// splits a plain line itself (Auggie 0.36.0 starts a line holding none of `|&;><$` and a
/// backquote without a shell, its words `"…"`, `'…'` or unquoted, no escape taken away): a
/// path holding a `'` is written in double quotes, where single ones (`'\''`) split it
/// there (attacks row 1535). A path holding a `'` and a `"` or `\` no form reads alike.
fn route_word(text: &str) -> String {
    shell_quote_shortest(text)
}

/// Whether `host` reads a route that failed to start (the shell's "not found" on stderr, exit
/// 127) as a block on `event`: Gemini CLI takes any exit but 0 and 1 with text for a deny or a
/// block (attacks row 1143: every prompt refused, a Stop kept going), Copilot a failed
/// `preToolUse` hook. There a route whose hookx is gone exits 0 where it does not deny by
/// [`Gone`]: what no hookx runs, runs nowhere (row 622), and traps nobody.
pub fn failed_route_blocks(host: Dialect, event: &str) -> bool {
    failed_route_read(host, event, crate::protocol::answer::read_answer)
}

/// [`failed_route_blocks`] where the host also acts on the block: not where it ignores any
/// (Gemini at `SessionStart`: [`crate::tables::ProtocolTables::ignored_blocks`]), so that
/// what doctor says a failed route refuses, it refuses.
fn failed_route_refuses(host: Dialect, event: &str) -> bool {
    failed_route_read(host, event, crate::protocol::decode_answer)
}

/// Whether `read`, a reader of the host's answers, takes a route that failed to start on
/// `event` for a block, a stop or a decision.
fn failed_route_read(
    host: Dialect,
    event: &str,
    read: fn(
        crate::tables::Flavor,
        &crate::model::Event,
        &crate::spawn::Finished,
    ) -> crate::model::Outcome,
) -> bool {
    let Some((event, flavor)) = own_event(host, event) else {
        return false;
    };
    let failed = crate::spawn::Finished {
        exit: crate::spawn::Exit::Code(127),
        stdout: Vec::new(),
        stderr: b"/bin/sh: 1: /opt/hookx/bin/hookx: not found".to_vec(),
        stdout_truncated: false,
        stderr_truncated: false,
        elapsed: std::time::Duration::ZERO,
    };
    let read = read(flavor, &event, &failed);
    read.block || read.stop || read.decision.is_some()
}

/// `event`, as `host` names it, as a bare event of the flavour whose answers it reads (no tool,
/// no fields: what a route line's answer depends on).
fn own_event(host: Dialect, event: &str) -> Option<(crate::model::Event, crate::tables::Flavor)> {
    let (kind, _, flavor) = host
        .own_events()
        .into_iter()
        .find(|(_, name, _)| *name == event)?;
    Some((crate::model::Event::bare(kind), flavor))
}

/// The end of a guarded user route ([`Gone`]): `[ -e STORE ] || { [ -e DIR ] && ! [ -x DIR ]; } || exit 0; ` and the host's deny,
/// where `event` is one hookx's failure policy denies on and the program is a path (a name is
/// looked up in `PATH`, which the route must not test). `None` elsewhere: a gone hookx on any
/// other event fails open ([`failed_route_blocks`]).
fn gone_answer(hookx: &str, host: Dialect, event: &str, gone: Gone<'_>) -> Option<String> {
    if !hookx.starts_with('/') {
        return None;
    }
    let (event, flavor) = own_event(host, event)?;
    if !flavor.tables().protocol.fails_closed(&event.kind) {
        return None;
    }
    let reason = format!(
        "hookx could not check this tool call, so it is denied: hookx is not at {hookx} (moved, \
         removed or empty), and its routes in {} run your trusted hooks. Run `hookx install \
         --host {} --scope user` again, or remove the hookx entries from that file",
        gone.file,
        host.name()
    );
    let outcome = crate::model::Outcome {
        decision: Some(crate::model::Decision::Deny),
        block: true,
        reasons: vec![reason.clone()],
        ..Default::default()
    };
    let answer = crate::protocol::encode_answer(flavor, &event, &outcome);
    let say = match answer.stdout.is_empty() {
        // A host that reads no JSON answer there (Windsurf, Kiro): the reason on stderr.
        true => format!("printf '%s\\n' {} >&2", shell_quote(&reason)),
        false => {
            let format = answer.stdout.replace('\\', "\\\\").replace('%', "%%");
            format!("printf {}", shell_quote(&format!("{format}\\n")))
        }
    };
    Some(format!(
        "[ -e {} ] || {}exit 0; {say}; exit {}",
        shell_quote(gone.store),
        unsearchable(gone.store).unwrap_or_default(),
        answer.exit_code
    ))
}

/// `{ [ -e DIR ] && ! [ -x DIR ]; } || ` for the folder holding `store`: a record in a folder
/// its account cannot search is not seen by `[ -e ]`, where `hookx run` itself denies, not
/// able to read it (attacks row 1147); a folder that is not there, or searchable without the
/// record, is a user who removed hookx's state, whom the route does not trap.
fn unsearchable(store: &str) -> Option<String> {
    let dir = std::path::Path::new(store).parent()?.to_str()?;
    let dir = shell_quote(dir);
    Some(format!("{{ [ -e {dir} ] && ! [ -x {dir} ]; }} || "))
}

/// The route inside a guarded route line ([`route_command`]): `[ -x P ] && [ -s P ] && exec
/// ROUTE;` (or `command -v NAME >/dev/null 2>&1 && exec ROUTE;`) [ -e STORE ] || { … } || exit 0; printf ANSWER; exit N` ([`Gone`]), or `…; exit 0`
/// ([`failed_route_blocks`]), each word as written there, nothing that expands; `None` for any
/// other line.
fn guarded_route(line: &str) -> Option<&str> {
    let (quoted, rest) = match line.strip_prefix("[ -x ") {
        Some(rest) => {
            let (quoted, rest) = rest.split_once(" ] && [ -s ")?;
            (
                quoted,
                rest.strip_prefix(quoted)?.strip_prefix(" ] && exec ")?,
            )
        }
        None => line
            .strip_prefix("command -v ")?
            .split_once(" >/dev/null 2>&1 && exec ")?,
    };
    let words = crate::shell::split_words(quoted)?;
    // As written now ([`route_word`]), or in single quotes, as an older hookx wrote it.
    let written =
        |quote| line == format!("{} && exec {rest}", can_run_test_quoted(&words[0], quote));
    if words.len() != 1 || !(written(route_word) || written(shell_quote)) {
        return None;
    }
    let answered = |tail: &str| -> Option<()> {
        let (store, answer) = tail.split_once(" ] || ")?;
        // The folder's test ([`unsearchable`]), which an older hookx did not write.
        let answer = match answer.strip_prefix("{ [ -e ") {
            Some(test) => {
                let (dir, rest) = test.split_once(" ] && ! [ -x ")?;
                let rest = rest.strip_prefix(dir)?.strip_prefix(" ]; } || ")?;
                crate::shell::split_words(dir).filter(|w| w.len() == 1)?;
                rest
            }
            None => answer,
        };
        let answer = answer.strip_prefix("exit 0; ")?;
        let (say, code) = answer.rsplit_once("; exit ")?;
        let one = |text: &str| crate::shell::split_words(text).is_some_and(|w| w.len() == 1);
        let say = say.strip_prefix("printf ")?;
        let said = match say.strip_suffix(" >&2") {
            Some(err) => {
                crate::shell::split_words(err).is_some_and(|w| w.len() == 2 && w[0] == "%s\\n")
            }
            None => one(say),
        };
        (one(store) && said && !code.is_empty() && code.bytes().all(|b| b.is_ascii_digit()))
            .then_some(())
    };
    let runs_it = |route: &str| {
        route
            .strip_prefix(quoted)
            .is_some_and(|r| r.starts_with(" run "))
    };
    // Where no deny is due, the line ends `; exit 0` ([`failed_route_blocks`]).
    if let Some(route) = rest.strip_suffix("; exit 0")
        && runs_it(route)
        && !route.contains("; [ -e ")
    {
        return Some(route);
    }
    rest.match_indices("; [ -e ").find_map(|(at, sep)| {
        let route = &rest[..at];
        (runs_it(route) && answered(&rest[at + sep.len()..]).is_some()).then_some(route)
    })
}

/// The route a line install writes runs: the line itself, or the route inside a guarded user
/// route ([`guarded_route`]).
fn unguarded(line: &str) -> &str {
    guarded_route(line).unwrap_or(line)
}

/// Whether `host`'s user routes carry the guard for a gone hookx ([`Gone`]): those in its JSON
/// files. A hook script (Cline) runs its route after `exec`; a plugin (OpenCode) fails closed
/// by itself.
pub fn guards_user_routes(host: Dialect) -> bool {
    host.config().scripts.is_none() && host.config().generated.is_none()
}

/// Whether `handler` is a route of `host` as install writes it, run by a hookx named by its
/// path, without the guard a user route carries on an event that guards a tool call
/// ([`Gone`]): one an older hookx wrote, which lets every tool call through where that hookx
/// is gone (attacks row 1080). The caller knows the event and the scope.
pub fn lacks_gone_guard(handler: &Handler, host: Dialect) -> bool {
    unguarded_route_line(handler, host, |line| {
        shell_words(line)
            .and_then(|w| w.into_iter().next().flatten())
            .is_some_and(|program| program.starts_with('/'))
    })
}

/// Whether `handler` is a route of `host` as install writes it on `event` (as the host names
/// it), where the host reads a failed route as a block it acts on, without the
/// test of its hookx a route carries there now: one an older hookx wrote, which refuses every
/// such event where that hookx is missing (a teammate's clone, a move: attacks row 1143).
pub fn lacks_blocking_test(handler: &Handler, host: Dialect, event: &str) -> bool {
    failed_route_refuses(host, event) && unguarded_route_line(handler, host, |_| true)
}

/// Whether `handler` is nothing but routes and one of its lines is a route of `host` without a
/// guard ([`guarded_route`]) that is `also`, in a JSON file of the host's ([`guards_user_routes`]).
fn unguarded_route_line(handler: &Handler, host: Dialect, also: impl Fn(&str) -> bool) -> bool {
    let HandlerKind::Command(c) = &handler.kind else {
        return false;
    };
    guards_user_routes(host)
        && is_plain_route(handler)
        && [&c.command, &c.bash, &c.linux, &c.osx]
            .into_iter()
            .flatten()
            .any(|line| {
                guarded_route(line).is_none()
                    && written_route_host(line).is_some_and(|h| h == host.name())
                    && also(line)
            })
}

/// Whether `rest`, the words after a route's `--event EVENT`, are what [`route_command`] may
/// write there: `--installed-in project` (then `--route-folder REL`), `--home DIR`,
/// `--managed-root DIR`, `--route-key KEY`, each at most once and in that order.
fn written_tail(rest: &[&str]) -> bool {
    let rest = match rest {
        ["--installed-in", "project", "--route-folder", _, rest @ ..] => rest,
        ["--installed-in", "project", rest @ ..] => rest,
        rest => rest,
    };
    let rest = match rest {
        ["--home", dir, rest @ ..] if !dir.is_empty() => rest,
        rest => rest,
    };
    let rest = match rest {
        ["--managed-root", _, rest @ ..] => rest,
        rest => rest,
    };
    matches!(rest, [] | ["--route-key", _])
}

/// The file holding the user's route key, below the home.
const ROUTE_KEY: &str = ".hookx/route-key";

/// The user's route key: 32 random hex digits, made once and kept in `~/.hookx/route-key`,
/// written on every route of the user's own files. An agent that runs identical commands once
/// per event takes one definition for all (Claude Code 2.1.332 took a project's copy of the
/// user's route line with `"async": true`, and the deny was not waited for: attacks row 163);
/// a repository can guess hookx's path and the home, not this.
pub fn route_key(home: &Path) -> Result<String, crate::error::Error> {
    let path = home.join(ROUTE_KEY);
    let valid = |k: &str| k.len() == 32 && k.bytes().all(|b| b.is_ascii_hexdigit());
    if let Ok(key) = crate::read::text(&path, 64)
        && valid(key.trim())
    {
        return Ok(key.trim().to_string());
    }
    let io = |e: std::io::Error| crate::error::Error::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes))
        .map_err(io)?;
    let mut key: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    if let Some(dir) = path.parent() {
        crate::config::update::private_dir(dir).map_err(io)?;
    }
    // Decided under the writer's lock: of two installs that found no key, the second takes the
    // first's, so that every route line carries the key the file holds (attacks row 903).
    crate::config::update::update(&path, |current| {
        Ok(match current.map(str::trim).filter(|k| valid(k)) {
            Some(theirs) => {
                key = theirs.to_string();
                crate::config::update::Change::Keep
            }
            None => crate::config::update::Change::Write(format!("{key}\n")),
        })
    })?;
    Ok(key)
}

/// Whether `key` is the user's route key below `home` (read, never made: the run path writes
/// nothing for it). A line carrying it is a route of the user's own files, which no
/// repository can copy.
pub fn is_users_route_key(home: &Path, key: &str) -> bool {
    crate::read::text(&home.join(ROUTE_KEY), 64).is_ok_and(|k| !key.is_empty() && k.trim() == key)
}

/// Whether a command line is a hookx routing entry: some simple command in it runs a hookx
/// program ([`is_hookx_program`]) with `run` and `--host HOST`, whatever comes before it
/// (`env A=1 hookx run …`, `exec hookx …`, `cd . && hookx run …`), or runs any program with
/// exactly the arguments [`route_command`] writes (an install with `--hookx hx`). The
/// dispatcher skips these, convert does not copy them.
pub fn is_hookx_entry(command: &str) -> bool {
    route_host(command).is_some()
}

/// The host a hookx routing command names (`… <hookx> run --host HOST …`), if it is one.
pub fn route_host(command: &str) -> Option<String> {
    // Every handler of every event is asked this on the hot path; most are not hookx.
    // A byte search first: a line without a `-` has no `--host`.
    if !command.as_bytes().contains(&b'-')
        || !command.contains("run")
        || !command.contains("--host")
    {
        return None;
    }
    route_parts(command).map(|(_, host)| host)
}

/// The program a routing command runs (as written: a path, or a name the shell looks up in
/// `PATH`) and the host it names, if it is a route.
fn route_parts(command: &str) -> Option<(String, String)> {
    let words = shell_words(command)?;
    words
        .split(|w| w.is_none())
        .find_map(|simple| route_of(simple.iter().flatten().map(String::as_str)))
}

/// The home a routing command names (`--home DIR`, `--home=DIR`), if it names one: the user's
/// trust store and hooks are read there.
pub fn route_home(command: &str) -> Option<String> {
    route_option(command, "--home")
}

/// The folder a project routing command names (`--route-folder REL`), if it names one.
pub fn route_folder(command: &str) -> Option<String> {
    route_option(command, "--route-folder")
}

/// The value of option `flag` (`FLAG VALUE`, `FLAG=VALUE`) of the route in `command`.
fn route_option(command: &str, flag: &str) -> Option<String> {
    let words = shell_words(command)?;
    let with = format!("{flag}=");
    words.split(|w| w.is_none()).find_map(|simple| {
        let simple: Vec<&str> = simple.iter().flatten().map(String::as_str).collect();
        route_of(simple.iter().copied())?;
        simple
            .iter()
            .enumerate()
            .find_map(|(i, w)| match w.strip_prefix(with.as_str()) {
                Some(value) => Some(value.to_string()),
                None => (*w == flag).then(|| simple.get(i + 1).map(|d| d.to_string()))?,
            })
    })
}

/// Whether a routing command says it is a project's route (`--installed-in project`): it
/// leaves its event to the user's route, so it is never the user's route, wherever it sits.
pub fn route_is_projects(command: &str) -> bool {
    let Some(words) = shell_words(command) else {
        return false;
    };
    words.split(|w| w.is_none()).any(|simple| {
        let simple: Vec<&str> = simple.iter().flatten().map(String::as_str).collect();
        route_of(simple.iter().copied()).is_some()
            && (simple
                .windows(2)
                .any(|w| w == ["--installed-in", "project"])
                || simple.contains(&"--installed-in=project"))
    })
}

/// Whether the shell could start the program of the routing command `command`: a path (with a
/// `/`) to an executable file, not empty, or a name found so in a folder of `PATH`, as the
/// shell looks it up. A route whose hookx is gone exits 127: nothing it guards runs, and the host
/// reads it as any failed hook, a non-blocking error or, where its `failure_denies` holds the
/// event (Copilot's preToolUse), a deny of every call (attacks rows 604, 641).
///
/// A `~` the shell expands (unquoted, at the start of the word) is `HOME`; a quoted one is a
/// folder named `~` (`install` once wrote `--hookx '~/bin/hookx'` so: attacks row 1532).
pub fn route_can_run(command: &str) -> bool {
    let home = std::env::var("HOME").ok();
    shell_words_in(command, home.as_deref()).is_some_and(|words| {
        words
            .split(|w| w.is_none())
            .find_map(|simple| route_of(simple.iter().flatten().map(String::as_str)))
            .is_some_and(|(program, _)| program_can_run(&program))
    })
}

fn program_can_run(program: &str) -> bool {
    if program.contains('/') {
        return executable_file(Path::new(program));
    }
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    // An empty entry is the current folder, as POSIX says.
    std::env::split_paths(&path).any(|dir| {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".").to_path_buf()
        } else {
            dir
        };
        executable_file(&dir.join(program))
    })
}

/// A regular file (through symlinks), not empty, that this process may execute. An empty one
/// (an upgrade's `cp` cut short, a download that failed) is no program: the shell runs it as an
/// empty script, exit 0 with nothing said, so a route or copy naming it allows every call
/// unguarded (attacks row 1082).
fn executable_file(path: &Path) -> bool {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0) {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: `c` is a NUL-terminated path that lives across the call.
        unsafe { libc::access(c.as_ptr(), libc::X_OK) == 0 }
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// Programs that run the command after them (with their options and `NAME=value` words).
const WRAPPERS: &[&str] = &[
    "env", "exec", "command", "nohup", "builtin", "time", "nice", "setsid", "stdbuf", "timeout",
];

/// The program and host of one simple command (its words, unquoted), if it runs hookx's
/// router.
fn route_of<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<(String, String)> {
    let program = loop {
        let word = words.next()?;
        let name = Path::new(word).file_name()?.to_str()?;
        let assignment = word.split_once('=').is_some_and(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if assignment || word.starts_with('-') || WRAPPERS.contains(&name) {
            continue;
        }
        // `timeout 600 hookx …`, `nice 5 …`: a number is a wrapper's argument.
        if word.parse::<f64>().is_ok() {
            continue;
        }
        break word;
    };
    if words.next()? != "run" {
        return None;
    }
    let args: Vec<&str> = words.collect();
    if is_hookx_program(program) {
        return host_option(&args).map(|host| (program.to_string(), host));
    }
    // Any other program name (`--hookx /opt/bin/hx`, `hx` on PATH): only the exact line
    // `install` writes, `run --host HOST --event EVENT` with a host hookx knows, is a route
    // (`./check.sh run --host claude` is the user's own).
    match args[..] {
        ["--host", host, "--event", _, ref rest @ ..]
            if Dialect::named(host).is_some() && written_tail(rest) =>
        {
            Some((program.to_string(), host.to_string()))
        }
        _ => None,
    }
}

/// The host of a command line that is exactly one [`route_command`] wrote, whatever program
/// it names: `PROGRAM run --host HOST`, then `--event EVENT` and `--installed-in project` where
/// install wrote them, and nothing else (no other command, operator, wrapper or option). Only
/// such a line is one install may edit or remove ([`super::file`]); a line of the user's own
/// that merely runs a route among other things (`./guard.sh && hookx run …`) is the user's,
/// also in an entry carrying install's marker (attacks row 540).
pub(super) fn written_route_host(command: &str) -> Option<String> {
    if !command.contains("--host") {
        return None;
    }
    let command = unguarded(command);
    let words = shell_words(command)?;
    let words: Vec<&str> = words.iter().map(|w| w.as_deref()).collect::<Option<_>>()?;
    let [program, "run", "--host", host, ref rest @ ..] = words[..] else {
        return None;
    };
    let rest: &[&str] = match rest {
        ["--event", _, rest @ ..] => rest,
        rest => rest,
    };
    let plain = !program.is_empty() && !program.starts_with('-') && !program.contains('=');
    (plain && written_tail(rest) && Dialect::named(host).is_some()).then(|| host.to_string())
}

/// The value of `--host H` or `--host=H` among a route's arguments.
fn host_option(args: &[&str]) -> Option<String> {
    let mut args = args.iter();
    while let Some(word) = args.next() {
        if *word == "--host" {
            return args.next().map(|h| h.to_string());
        }
        if let Some(host) = word.strip_prefix("--host=") {
            return Some(host.to_string());
        }
    }
    None
}

/// Whether `program` is hookx: its file name contains `hookx` (`hookx`, `/opt/x/my-hookx`,
/// `hookx-0.1`), or it is this very executable under another name.
pub fn is_hookx_program(program: &str) -> bool {
    let Some(name) = Path::new(program).file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    if name.contains("hookx") {
        return true;
    }
    program.contains('/') && is_running_exe(program)
}

/// Whether the file at `program` is the running executable.
fn is_running_exe(program: &str) -> bool {
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    std::env::current_exe()
        .is_ok_and(|exe| real(&exe).is_some_and(|e| Some(e) == real(Path::new(program))))
}

/// Whether `program` is this hookx for certain: `hookx` (found on `PATH` by the agent, as
/// `install` and `convert` assume), or the path of the running executable. Not a program a
/// repository names (`./tools/hookx`), which would run whatever it ships under that name.
pub fn is_this_hookx(program: &str) -> bool {
    program == "hookx" || (Path::new(program).is_absolute() && is_running_exe(program))
}

/// Whether a handler is a hookx routing entry, whatever field carries its command line.
pub fn is_hookx_handler(handler: &Handler) -> bool {
    let HandlerKind::Command(c) = &handler.kind else {
        return false;
    };
    [&c.command, &c.bash, &c.linux, &c.osx]
        .into_iter()
        .flatten()
        .any(|line| is_hookx_entry(line))
}

/// Whether a handler is nothing but a route: each of its command lines exactly what `install`
/// writes ([`written_route_host`]), run by a hookx program. What [`is_hookx_handler`] also
/// takes (`touch x; hookx run --host copilot`, `./evil run --host copilot --event E`) runs
/// more than hookx, or maybe not hookx: the agent that reads it runs it as written, so the
/// commands that show what runs (`list`, `doctor`) show it.
pub fn is_plain_route(handler: &Handler) -> bool {
    let HandlerKind::Command(c) = &handler.kind else {
        return false;
    };
    let lines: Vec<&String> = [&c.command, &c.bash, &c.linux, &c.osx]
        .into_iter()
        .flatten()
        .collect();
    !lines.is_empty()
        && lines.iter().all(|line| {
            written_route_host(line).is_some()
                && shell_words(unguarded(line))
                    .and_then(|w| w.into_iter().next().flatten())
                    .is_some_and(|program| is_hookx_program(&program))
        })
}

/// Whether a handler is a hookx routing entry whose program the shell could start
/// ([`route_can_run`]).
pub fn hookx_handler_can_run(handler: &Handler) -> bool {
    let HandlerKind::Command(c) = &handler.kind else {
        return false;
    };
    [&c.command, &c.bash, &c.linux, &c.osx]
        .into_iter()
        .flatten()
        .any(|line| route_can_run(line))
}

/// The words of a POSIX shell command line, unquoted, with `None` for each control operator
/// (`;`, `&`, `&&`, `|`, `||`, a newline, a parenthesis). `None` when a quote is left open.
fn shell_words(line: &str) -> Option<Vec<Option<String>>> {
    shell_words_in(line, None)
}

/// [`shell_words`], with `home` (where given) for a `~` the shell expands: unquoted, the
/// first character of a word, before a `/` or the word's end.
fn shell_words_in(line: &str, home: Option<&str>) -> Option<Vec<Option<String>>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ';' | '&' | '|' | '\n' | '(' | ')' => {
                words.extend(word.take().map(Some));
                words.push(None);
            }
            c if c.is_whitespace() => words.extend(word.take().map(Some)),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.peek() {
                            Some(&c @ ('"' | '\\' | '$' | '`')) => {
                                w.push(c);
                                chars.next();
                            }
                            _ => w.push('\\'),
                        },
                        c => w.push(c),
                    }
                }
            }
            '\\' => {
                let w = word.get_or_insert_with(String::new);
                if let Some(c) = chars.next() {
                    w.push(c);
                }
            }
            '~' if word.is_none()
                && home.is_some()
                && chars
                    .peek()
                    .is_none_or(|&n| n == '/' || n.is_whitespace() || ";&|()".contains(n)) =>
            {
                word = home.map(str::to_string);
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word.take().map(Some));
    Some(words)
}

#[cfg(test)]
mod route_tests {
    use super::route_host;

    #[test]
    fn routing_entries_are_recognised_whatever_comes_before_them() {
        for (line, host) in [
            ("hookx run --host claude --event Stop", Some("claude")),
            ("'/opt/my tools/hookx' run --host=copilot", Some("copilot")),
            ("env hookx run --host claude --event Stop", Some("claude")),
            ("env -i A=1 B=2 hookx run --host bricks", Some("bricks")),
            ("exec hookx run --host claude", Some("claude")),
            (
                "cd . && hookx run --host copilot --event agentStop",
                Some("copilot"),
            ),
            ("true; /opt/x/my-hookx run --host claude", Some("claude")),
            ("X=1 timeout 5 hookx run --host claude", Some("claude")),
            ("(hookx run --host claude)", Some("claude")),
            ("hookx exec --as claude -- run --host x", None),
            ("echo hookx run --host claude", None),
            ("./check.sh run --host claude", None),
            (
                "hx run --host claude --event Stop --home /h",
                Some("claude"),
            ),
            ("hx run --host claude --event Stop --home", None),
            ("hookx run --host 'claude", None),
        ] {
            assert_eq!(route_host(line).as_deref(), host, "{line}");
        }
    }

    /// Auggie 0.36.0's own split of a plain line (bundle `QIt`): `"…"` or `'…'` at a word's
    /// start up to the next such quote, nothing taken away, else up to white space.
    fn auggie_words(line: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut rest = line.trim_start();
        while !rest.is_empty() {
            let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''));
            let quoted = quote.and_then(|q| rest[1..].find(q).map(|end| (&rest[1..=end], end + 2)));
            let (word, len) = quoted.unwrap_or_else(|| {
                let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                (&rest[..end], end)
            });
            words.push(word.to_string());
            rest = rest[len..].trim_start();
        }
        words
    }

    /// Attacks row 1535: Auggie starts a route line holding none of `|&;><$` and a backquote
    /// without a shell, split by its own rule. A hookx or home whose path holds a `'` was
    /// written `'…'\''…'`, which that rule cut into three words: the route did not start
    /// (a spawn error, which Auggie lets through), so every guard it runs was lost. Now such a
    /// word is written in double quotes, which Auggie and the shell read alike; lines written
    /// in single quotes are still known as routes.
    #[test]
    fn a_route_line_reads_alike_in_auggies_split_and_the_shell() {
        use super::{InstallScope, Program, route_command, written_route_host};
        use crate::tables::Dialect;
        let augment = Dialect::named("augment").unwrap();
        for hookx in ["/opt/bob's tools/hookx", "/opt/a b/hookx", "/opt/hookx"] {
            let program = Program {
                home: Some("/home/o'hara"),
                ..Program::plain(hookx)
            };
            for (event, scope) in [
                ("PreToolUse", InstallScope::Project),
                ("Stop", InstallScope::User),
            ] {
                let line = route_command(program, augment, event, scope);
                assert!(
                    !line.contains(['|', '&', ';', '>', '<', '$', '`']),
                    "{line}"
                );
                let auggie = auggie_words(&line);
                let shell = crate::shell::split_words(&line).unwrap();
                assert_eq!(auggie, shell, "{line}");
                assert_eq!(auggie[0], hookx, "{line}");
                assert!(
                    auggie.windows(2).any(|w| w == ["--home", "/home/o'hara"]),
                    "{line}"
                );
                assert_eq!(written_route_host(&line).as_deref(), Some("augment"));
            }
        }
        // A guarded route an older hookx wrote, in single quotes, is still its own.
        let old = "[ -x '/h/b'\\''s/hookx' ] && [ -s '/h/b'\\''s/hookx' ] && exec '/h/b'\\''s/hookx' run --host claude --event PreToolUse; [ -e /u/.hookx/trust.json ] || exit 0; printf '{}\\n'; exit 0";
        assert_eq!(written_route_host(old).as_deref(), Some("claude"), "{old}");
    }

    #[test]
    fn only_the_line_install_writes_is_a_written_route() {
        use super::written_route_host;
        for (line, host) in [
            ("hookx run --host claude --event Stop", Some("claude")),
            ("'/opt/my tools/hookx' run --host copilot", Some("copilot")),
            (
                "/opt/bin/hx run --host droid --event Stop --installed-in project",
                Some("droid"),
            ),
            ("./guard.sh && hookx run --host claude --event Stop", None),
            ("hookx run --host claude --event Stop; rm -rf x", None),
            ("env hookx run --host claude --event Stop", None),
            (
                "hx run --host droid --event Stop --installed-in project --home '/h' --managed-root /m",
                Some("droid"),
            ),
            (
                "hx run --host claude --event Stop --managed-root /m",
                Some("claude"),
            ),
            (
                "hx run --host claude --event Stop --managed-root /m --home /h",
                None,
            ),
            ("hookx run --host claude --event Stop --verbose", None),
            ("hookx run --host=claude --event Stop", None),
            ("hookx run --host nosuch --event Stop", None),
            ("A=1 hookx run --host claude", None),
            ("hookx exec --as claude -- run --host claude", None),
            // A user route with its guard for a gone hookx (attacks row 1140), and the same
            // with something else run in its answer.
            (
                "[ -x /h/hookx ] && [ -s /h/hookx ] && exec /h/hookx run --host claude --event PreToolUse; [ -e /u/.hookx/trust.json ] || exit 0; printf '{}\\n'; exit 0",
                Some("claude"),
            ),
            (
                "[ -x /h/hookx ] && [ -s /h/hookx ] && exec /h/hookx run --host kiro --event PreToolUse; [ -e /u/.hookx/trust.json ] || exit 0; printf '%s\\n' 'gone' >&2; exit 2",
                Some("kiro"),
            ),
            (
                "[ -x /h/hookx ] && [ -s /h/hookx ] && exec /h/hookx run --host claude --event PreToolUse; [ -e /u/.hookx/trust.json ] || exit 0; printf \"$(rm -rf x)\"; exit 0",
                None,
            ),
            (
                "[ -x /h/hookx ] && [ -s /h/hookx ] && exec /h/hookx run --host claude --event PreToolUse; [ -e /u/.hookx/trust.json ] || rm -rf x; printf '{}'; exit 0",
                None,
            ),
            (
                "[ -x /h/hookx ] && [ -s /h/hookx ] && exec /other run --host claude --event PreToolUse; [ -e /u/.hookx/trust.json ] || exit 0; printf '{}'; exit 0",
                None,
            ),
            // With the folder's own test (row 1147), and forgeries of it.
            (
                "[ -x /h/hookx ] && [ -s /h/hookx ] && exec /h/hookx run --host claude --event PreToolUse; [ -e /u/.hookx/trust.json ] || { [ -e /u/.hookx ] && ! [ -x /u/.hookx ]; } || exit 0; printf '{}\\n'; exit 0",
                Some("claude"),
            ),
            (
                "[ -x /h/hookx ] && [ -s /h/hookx ] && exec /h/hookx run --host claude --event PreToolUse; [ -e /u/.hookx/trust.json ] || { [ -e /u/.hookx ] && ! [ -x /u/x ]; } || exit 0; printf '{}'; exit 0",
                None,
            ),
            (
                "[ -x /h/hookx ] && [ -s /h/hookx ] && exec /h/hookx run --host claude --event PreToolUse; [ -e /u/.hookx/trust.json ] || { [ -e $(rm x) ] && ! [ -x $(rm x) ]; } || exit 0; printf '{}'; exit 0",
                None,
            ),
            (
                "[ -x /h/hookx ] && [ -s /h/hookx ] && exec /h/hookx run --host claude --event PreToolUse; [ -e /u/.hookx/trust.json ] || { rm -rf x; } || exit 0; printf '{}'; exit 0",
                None,
            ),
        ] {
            assert_eq!(written_route_host(line).as_deref(), host, "{line}");
        }
    }
}
