//! The host side of `hookx run` and `hookx exec`: reading the host's event, finding the
//! project ([`super::project`]), and answering in the host's protocol.

pub use super::project::Line;
use crate::context::Places;
use crate::discover::{self, EffectiveRule, Runner, Source};
use crate::error::Error;
use crate::model::{Event, EventKind};
use crate::protocol::HostAnswer;
use crate::protocol::payload::decode_event_as;
use crate::tables::{Dialect, Flavor};
use crate::trust::{TrustState, TrustStore};
use std::io::Read;
use std::path::{Path, PathBuf};

/// Payloads larger than this are refused. A host event is usually a few kilobytes, but a Write
/// of a large file carries the file: Node (Claude Code, Copilot CLI) cannot build a string of
/// more than 2^29 UTF-16 units, which is at most 1.5 GiB of UTF-8.
pub const MAX_PAYLOAD_BYTES: u64 = 3 << 29;

/// A decoded host event and where its project is.
pub struct HostEvent {
    pub host: Flavor,
    pub event: Event,
    pub project: PathBuf,
    /// Without `--host`, the other agents whose payload this could be as well
    /// ([`crate::protocol::payload::detect_hosts`]), as the flavour each would send it in:
    /// the answer must be one each of them reads ([`answer_all`]).
    pub also: Vec<Flavor>,
    /// With `--host`, where the payload is another agent's that runs this host's files
    /// itself, the flavour it reads their answers in ([`reader_of_route`]): the answer is
    /// written in it.
    pub read_as: Option<Flavor>,
    /// Whether the payload carried the event's instant (else it is when hookx read it): one
    /// of the fields that tell one call from another ([`crate::claim::event_id`]).
    pub stamped: bool,
    /// For a project route, the other folders whose project file routes the event too (above
    /// `project`; with a line naming its folder, any from `cwd` up to the root without a line
    /// of its own the agent runs), each project's rules run as well (attacks rows 670, 680);
    /// empty almost always.
    pub above: Vec<PathBuf>,
}

impl HostEvent {
    /// The flavour the answer is written in.
    pub fn answered_as(&self) -> Flavor {
        self.read_as.unwrap_or(self.host)
    }
}

/// Where `payload` is another agent's (by its shape alone) that runs `host`'s files itself,
/// the flavour it gives their handlers ([`crate::tables::ConfigSpec::reads_foreign_as`]): VS
/// Code runs Copilot's `.github/hooks` and `~/.copilot/hooks`, hookx's Copilot route and the
/// wrapped entries of a Copilot file among them, with its own payload, and reads its own
/// answer form there (vscode-facts: `hookSpecificOutput.permissionDecision`), not Copilot's
/// top-level one: a deny written in Copilot's form was lost (attacks row 224).
fn reader_of_route(host: Dialect, senders: &[Dialect]) -> Option<Flavor> {
    match senders {
        [sender] if *sender != host => sender
            .config()
            .reads_foreign_as
            .iter()
            .find(|(of, _)| *of == host)
            .map(|(_, flavor)| *flavor),
        _ => None,
    }
}

/// Every agent `payload` could be from by its shape alone
/// ([`crate::protocol::payload::detect_hosts`]): read once where `--host` is given, for
/// [`another_agent_runs_route`] and [`decode_from`].
pub fn senders(payload: &[u8]) -> Vec<Dialect> {
    serde_json::from_slice::<serde_json::Value>(&crate::protocol::payload::readable(payload))
        .map(|value| crate::protocol::payload::detect_hosts(&value))
        .unwrap_or_default()
}

/// Reads the host's payload from stdin.
pub fn read_stdin() -> Result<Vec<u8>, Error> {
    let mut payload = Vec::new();
    std::io::stdin()
        .take(MAX_PAYLOAD_BYTES + 1)
        .read_to_end(&mut payload)
        .map_err(|e| Error::Io {
            path: "<stdin>".into(),
            message: e.to_string(),
        })?;
    if payload.len() as u64 > MAX_PAYLOAD_BYTES {
        return Err(Error::Io {
            path: "<stdin>".into(),
            message: format!("the event payload is larger than {MAX_PAYLOAD_BYTES} bytes"),
        });
    }
    Ok(payload)
}

/// Decodes a host payload. `host` may be omitted when the payload or the environment tells;
/// `event` is the event name the host's config registered the command under (Copilot's
/// camelCase payloads do not name their event), in any dialect's spelling.
pub fn decode(
    payload: &[u8],
    host: Option<Dialect>,
    event: Option<&str>,
    project: Option<PathBuf>,
) -> Result<HostEvent, Error> {
    let senders = host.map(|_| senders(payload)).unwrap_or_default();
    let places = Places {
        project: project.as_deref(),
        ..Places::default()
    };
    decode_from(payload, host, event, places, Line::Unknown, &senders)
}

/// [`decode`], the agents the payload could be from ([`senders`]) read already; `places` as
/// the route's command line gives them (the home and the policy root place the agent's own
/// settings that say where its project is), and the host's file the
/// line that started this process ([`Line`]: a project's line is in the project,
/// [`super::project`]).
pub fn decode_from(
    payload: &[u8],
    host: Option<Dialect>,
    event: Option<&str>,
    places: Places<'_>,
    line: Line<'_>,
    senders: &[Dialect],
) -> Result<HostEvent, Error> {
    let route_event = event;
    let hosts = match host {
        Some(h) => vec![h],
        None => guess_hosts(payload, &|var| std::env::var_os(var).is_some()),
    };
    let Some(&first) = hosts.first() else {
        let names: Vec<String> = Dialect::all()
            .iter()
            .map(|d| format!("--host {d}"))
            .collect();
        let (last, rest) = names.split_last().expect("dialects are registered");
        return Err(Error::Usage(format!(
            "cannot tell which agent sent this event; pass {} or {last}",
            rest.join(", ")
        )));
    };
    let decode_as = |host: Dialect| {
        let registered = event.map(|name| host_event_name(host, name));
        decode_event_as(payload, host, registered.as_deref())
    };
    // Several agents could have sent it: each that can read it is answered; the event is
    // read as the first whose tables know its tool (Kiro's `execute_bash` is no Cursor tool).
    let mut decoded: Vec<(Event, Flavor)> = Vec::new();
    if hosts.len() > 1 {
        decoded.extend(hosts.iter().filter_map(|h| decode_as(*h).ok()));
    }
    if decoded.is_empty() {
        decoded.push(decode_as(first)?);
    }
    let knows_tool = |event: &Event| {
        event.tool.as_ref().is_some_and(|t| {
            crate::model::tool::is_canonical(&t.name) || crate::model::tool::is_mcp(&t.name)
        })
    };
    // Among those, one that runs no other agent's hook files itself: hookx then runs every
    // rule either agent needs it for. Taken for Cursor, a Kiro event would leave the rules of
    // `.claude/settings.json` to Cursor, which Kiro never runs: a deny lost without a word.
    // Under Cursor the other way, such a rule runs twice, which is the safe side.
    let reads_none = |f: &Flavor| f.dialect().config().reads_foreign_as.is_empty();
    let primary = decoded
        .iter()
        .position(|(e, f)| knows_tool(e) && reads_none(f))
        .or_else(|| decoded.iter().position(|(e, _)| knows_tool(e)))
        .unwrap_or(0);
    let (mut event, flavor) = decoded.swap_remove(primary);
    let also: Vec<Flavor> = decoded.into_iter().map(|(_, f)| f).collect();
    // Copilot handlers are promised a timestamp; a host that sends none fires the event now.
    let stamped = event.timestamp.is_some();
    event.timestamp.get_or_insert_with(chrono::Utc::now);
    let (project, above) = match places.project {
        Some(project) => (project.to_path_buf(), Vec::new()),
        None => super::project::of_event(&event, flavor, places, line, route_event),
    };
    // Handlers run elsewhere (their `cwd`) and are told this path: it must not be relative.
    let project = std::path::absolute(&project).unwrap_or(project);
    let read_as = host.and_then(|h| reader_of_route(h, senders));
    Ok(HostEvent {
        host: flavor,
        event,
        project,
        also,
        read_as,
        stamped,
        above,
    })
}

/// The answer to `answer`'s outcome that every agent of `hosted` reads as meant, when the
/// payload did not say which of them sent it: their answers when they agree; else, for a
/// deny or block, exit 2 with the reason on stderr where each of them reads that as one on
/// this event; else none (`Err`: the failure policy answers, in no agent's form). Never the
/// first agent's form alone, which another may ignore (Kiro reads no JSON: a Cursor deny
/// would let the call through).
pub fn answer_all(
    hosted: &HostEvent,
    outcome: &crate::model::Outcome,
    answer: HostAnswer,
) -> Result<HostAnswer, String> {
    if hosted.also.is_empty() {
        return Ok(answer);
    }
    let kind = &hosted.event.kind;
    let answers: Vec<HostAnswer> = hosted
        .also
        .iter()
        .map(|f| crate::protocol::answer::encode_answer(*f, &hosted.event, outcome))
        .collect();
    if answers
        .iter()
        .all(|a| a.stdout == answer.stdout && a.exit_code == answer.exit_code)
    {
        return Ok(answer);
    }
    let all: Vec<Flavor> = std::iter::once(hosted.host)
        .chain(hosted.also.iter().copied())
        .collect();
    let stops = outcome.decision == Some(crate::model::Decision::Deny) || outcome.block;
    let exit2_stops = |f: &Flavor| {
        matches!(
            f.tables().protocol.exit2(kind),
            Some(crate::tables::Exit2::Deny | crate::tables::Exit2::Block)
        )
    };
    if stops && all.iter().all(exit2_stops) {
        let reason = match outcome.reasons.join("\n") {
            r if r.trim().is_empty() => "blocked by a hook".to_string(),
            r => r,
        };
        return Ok(HostAnswer {
            stdout: String::new(),
            stderr: reason,
            exit_code: 2,
        });
    }
    let names: Vec<String> = all
        .iter()
        .map(|f| format!("--host {}", f.dialect()))
        .collect();
    Err(format!(
        "cannot tell which agent sent this event, and they read answers differently: pass {}",
        names.join(" or ")
    ))
}

/// The host's own spelling of an event given in any dialect's spelling (or canonically).
fn host_event_name(host: Dialect, name: &str) -> String {
    let kind = parse_event(name);
    host.flavors()
        .find_map(|f| f.tables().event_name(&kind))
        .map_or_else(|| name.to_string(), str::to_string)
}

/// An event name in any flavour's spelling (a write-only dialect's too), or canonical.
pub fn parse_event(name: &str) -> EventKind {
    let write_only = crate::tables::Dialect::write_only()
        .iter()
        .flat_map(|d| d.flavors());
    Flavor::all()
        .iter()
        .copied()
        .chain(write_only)
        .find_map(|f| f.tables().event_kind(name))
        .unwrap_or_else(|| EventKind::from_name(name))
}

/// The payload's shape says who sent it; when it does not, the environment does: a variable
/// an agent sets for its hooks (`DialectDef::host`). The payload comes first: a variable may
/// be inherited from an agent that started the one calling hookx. A marker another agent sets
/// too (Copilot 1.0.102 sets `CLAUDE_PROJECT_DIR`) is asked after every other.
/// `is_set` says whether a variable is set in the environment hookx runs in.
pub fn guess_host(payload: &[u8], is_set: &dyn Fn(&str) -> bool) -> Option<Dialect> {
    guess_hosts(payload, is_set).first().copied()
}

/// [`guess_host`], with every other agent the payload could be from as well when its shape
/// rests on the event's name alone ([`crate::protocol::payload::detect_hosts`]); empty when
/// nothing tells.
pub fn guess_hosts(payload: &[u8], is_set: &dyn Fn(&str) -> bool) -> Vec<Dialect> {
    let value =
        serde_json::from_slice::<serde_json::Value>(&crate::protocol::payload::readable(payload))
            .ok();
    if let Some(value) = &value {
        let hosts = crate::protocol::payload::detect_hosts(value);
        if !hosts.is_empty() {
            return hosts;
        }
    }
    // A variable may be inherited (a Claude session started from a Copilot hook): it never
    // names an agent the payload rules out.
    let possible = |d: Dialect| {
        value
            .as_ref()
            .and_then(serde_json::Value::as_object)
            .is_none_or(|obj| !crate::protocol::payload::rules_out(obj, d))
    };
    let set_by_another = |d: Dialect, var: &str| {
        Dialect::all().iter().filter(|o| **o != d).any(|o| {
            o.flavors()
                .any(|f| f.tables().protocol.env.iter().any(|(n, _)| *n == var))
        })
    };
    let markers = || {
        Dialect::all()
            .iter()
            .flat_map(|d| d.def().host.env_markers.iter().map(move |v| (*d, *v)))
    };
    markers()
        .filter(|(d, var)| !set_by_another(*d, var))
        .chain(markers().filter(|(d, var)| set_by_another(*d, var)))
        .find(|(d, var)| is_set(var) && possible(*d))
        .map(|(d, _)| d)
        .into_iter()
        .collect()
}

/// Whether `hookx run --host HOST` was started by another agent that runs HOST's hooks itself
/// (Copilot runs those of `.claude/settings.json`, hookx's Claude route among them): that
/// agent's own route answers the event, and answering here too would run every handler twice.
/// Both the payload's shape and the other agent's marker variable (a literal its hooks get,
/// such as `COPILOT_CLI=1`) must say so: the variable alone may be inherited, e.g. into a
/// Claude session started from a Copilot hook.
pub fn another_agent_runs_route(host: Dialect, senders: &[Dialect]) -> bool {
    let marked = |sender: Dialect| {
        sender.flavors().any(|f| {
            f.tables().protocol.env.iter().any(|(name, value)| {
                matches!(value, crate::tables::EnvValue::Literal(_))
                    && std::env::var_os(name).is_some()
            })
        })
    };
    senders
        .first()
        .is_some_and(|sender| *sender != host && marked(*sender))
}

/// Whether the route of `host` that `sender` runs is the user's: it does not say
/// `--installed-in project` (`project`), and `sender` reads the user's file of `host` at all
/// (Copilot reads hookx's VS Code user route in `~/.copilot/hooks`, never
/// `~/.claude/settings.json`: a Claude route it runs is a project's, whatever its line says).
pub fn users_route(sender: Dialect, host: Dialect, project: bool) -> bool {
    use crate::tables::{Pattern, Root};
    let rel = Path::new(host.config().install_user);
    let reads = |location: &crate::tables::Location| {
        location.root == Root::Home
            && match location.pattern {
                Pattern::File(file) => rel == Path::new(file),
                Pattern::Dir { dir, .. } => rel.parent() == Some(Path::new(dir)),
                _ => false,
            }
    };
    !project
        && sender
            .def()
            .native
            .iter()
            .filter_map(|id| crate::context::location(id))
            .any(reads)
}

/// `sender`'s names of the events of `kind` that fire on every call of it: a route on an
/// event of one tool category (Cursor's `beforeShellExecution`) runs for no other tool
/// (attacks row 261).
fn event_names<'a>(
    sender: Dialect,
    kind: &'a EventKind,
) -> impl Iterator<Item = &'static str> + 'a {
    sender
        .flavors()
        .filter(|f| matches!(f.tables().tool_scope, crate::tables::ToolScope::Any))
        .flat_map(|f| f.tables().events.iter())
        .filter(move |(k, _)| k == kind)
        .map(|(_, name)| *name)
}

/// Whether the agent that started this route ([`another_agent_runs_route`]) has a route of
/// hookx's own for `kind` that runs: in the user's file or in the project's (attacks row 263:
/// hookx installed for Claude only, Copilot runs the project's Claude route, and a route that
/// stood aside for a Copilot route that was not there ran the project's guards nowhere).
///
/// Another host's route that install writes beside the sender's own (hookx's VS Code route in
/// `.github/hooks`, which Copilot reads as its own) counts too, for a route that is not one
/// (`host`): Copilot ran both it and the Claude route, each for it, and every rule twice
/// (attacks row 304). It counts as the sender reads it, its switch and all.
///
/// For a route of the user's ([`users_route`]), only routes of the user's count, never one in
/// a project's file, which a repository may have written to answer nothing (`true || hookx
/// run …`: attacks row 309, row 159's rule): a rule may run twice there, never zero times.
pub fn senders_route_runs(
    ctx: &crate::context::Context,
    sender: Dialect,
    host: Dialect,
    users: bool,
    kind: &EventKind,
) -> bool {
    use crate::route::InstallScope;
    // Its user file elsewhere (`COPILOT_HOME`): a route below the home is none it runs.
    let user_elsewhere = crate::route::reads_user_file_elsewhere(&ctx.home, sender);
    let target =
        |d: Dialect, scope: InstallScope| crate::route::target(&ctx.home, &ctx.project, d, scope);
    [InstallScope::User, InstallScope::Project]
        .iter()
        .filter(|scope| !(user_elsewhere && **scope == InstallScope::User))
        .filter(|scope| !(users && **scope == InstallScope::Project))
        .any(|scope| {
            let own = target(sender, *scope);
            let beside = |d: &Dialect| *d == sender || target(*d, *scope).parent() == own.parent();
            Dialect::all()
                .iter()
                // This host's own user route too, for its project route (attacks row 311).
                .filter(|d| {
                    let own_user = !users && *scope == InstallScope::User;
                    (**d != host || own_user) && beside(d)
                })
                .any(|d| {
                    let file = target(*d, *scope);
                    event_names(sender, kind).any(|name| {
                        crate::route::routes_event_as(&ctx.home, &file, sender, *d, name)
                    })
                })
        })
}

/// Whether `hookx run --host HOST` was started by another agent that reads HOST's files
/// itself, with its own payload, and has a hookx route of its own for the event (Cursor runs
/// the handlers of Claude's files, VS Code those of Claude's and Copilot's, hookx's routes
/// among them; neither marks its hooks with a variable, so [`another_agent_runs_route`]
/// cannot tell): that route answers the event, and answering here too would run every
/// handler twice (attacks row 154). Only where that route is the user's, in the home, and
/// can run: else this route is the only one hookx has there, and it runs. Never one in a
/// project's file, which the repository may have written to answer nothing (a route with
/// another `--home`: attacks row 159); there a rule may run twice, never zero times.
/// `senders`: whose the payload may be by its shape ([`senders`]).
pub fn senders_own_route_answers(
    ctx: &crate::context::Context,
    host: Dialect,
    kind: &EventKind,
    senders: &[Dialect],
) -> bool {
    use crate::route::InstallScope;
    let reads_hosts_files = |sender: &Dialect| {
        let native = sender.def().native;
        native
            .iter()
            .any(|id| host.def().locations.iter().any(|l| l.id == *id))
    };
    let has_route = |sender: &Dialect| {
        let file = crate::route::target(&ctx.home, &ctx.project, *sender, InstallScope::User);
        event_names(*sender, kind)
            .any(|name| crate::route::has_route(&ctx.home, &file, *sender, name))
    };
    let routed: Vec<Dialect> = Dialect::all()
        .iter()
        .copied()
        .filter(|s| *s != host && !marks_its_hooks(*s) && reads_hosts_files(s))
        .filter(has_route)
        .collect();
    !routed.is_empty()
        && senders
            .first()
            .is_some_and(|sender| routed.contains(sender))
}

/// Whether `sender` gives its hooks a variable of its own ([`another_agent_runs_route`]
/// tells its calls by it).
fn marks_its_hooks(sender: Dialect) -> bool {
    sender.flavors().any(|f| {
        f.tables()
            .protocol
            .env
            .iter()
            .any(|(_, value)| matches!(value, crate::tables::EnvValue::Literal(_)))
    })
}

/// Prints `answer` for the host, `notes` first on stderr (`hookx: ` each); returns its exit code.
pub fn print(answer: &HostAnswer, notes: &[String]) -> i32 {
    let (stdout, stderr) = rendered(answer, notes);
    use std::io::Write;
    let _ = std::io::stdout().write_all(stdout.as_bytes());
    let _ = std::io::stderr().write_all(stderr.as_bytes());
    answer.exit_code
}

/// What [`print()`] prints: stdout and stderr.
pub fn rendered<'a>(answer: &'a HostAnswer, notes: &[String]) -> (&'a str, String) {
    let mut stderr = String::new();
    for line in notes {
        stderr.push_str(&format!("hookx: {line}\n"));
    }
    stderr.push_str(&answer.stderr);
    if answer.exit_code != 2 && !stderr.is_empty() && !stderr.ends_with('\n') {
        stderr.push('\n');
    }
    (&answer.stdout, stderr)
}

/// The rules `hookx run --host` runs itself, and a warning for every source it
/// would run but does not trust as found (new, changed since `hookx trust`, or trusted by an
/// older hookx), whatever the file holds: its content is not looked at.
pub fn runnable<'a>(
    sources: &'a [Source],
    host: Dialect,
    store: &TrustStore,
) -> (Vec<EffectiveRule<'a>>, Vec<String>) {
    let rules = discover::dispatch_rules(sources, host, store);
    let warnings = untrusted(sources, host, store)
        .into_iter()
        .map(|(s, state)| untrusted_warning(s, state))
        .collect();
    (rules, warnings)
}

/// The sources `hookx run --host` would run itself (or handlers of, which the host leaves to
/// it) but does not trust as found, with their standing.
pub fn untrusted<'a>(
    sources: &'a [Source],
    host: Dialect,
    store: &TrustStore,
) -> Vec<(&'a Source, TrustState)> {
    let keys = discover::switched_keys(sources, host);
    sources
        .iter()
        .filter(|s| {
            discover::runner(host, s) == Runner::Hookx || discover::leaves_any(host, &keys, s)
        })
        .filter_map(|s| {
            let state = s.withheld.unwrap_or_else(|| store.state(s));
            (state != TrustState::Trusted).then_some((s, state))
        })
        .collect()
}

/// The warning about a source not run because of its standing.
pub fn untrusted_warning(source: &Source, state: TrustState) -> String {
    // The same bytes trusted in another worktree, not followed: what differs there.
    let elsewhere = match source.twin.as_ref() {
        Some(crate::discover::Twin {
            path,
            differs: Some(word),
        }) => format!(
            "; the same file is trusted at {}, but `{word}`, which it runs, or a file beside \
             it, is not the same there",
            path.display()
        ),
        _ => String::new(),
    };
    format!(
        "skipped {} ({}{elsewhere}): review it, then run `hookx trust {}`",
        source.display,
        state.why_not(),
        crate::shell::shell_quote(&source.path.display().to_string())
    )
}
