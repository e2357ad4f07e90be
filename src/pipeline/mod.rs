//! One host event, from its payload to the host's answer: the steps `hookx run`, `hookx exec`
//! and `hookx simulate` share, in the order an event takes them.
//!
//! 1. decode: [`host::read_stdin`], then [`host::decode`] (through
//!    `protocol::payload::decode_event_as`) reads the host's payload into a canonical
//!    [`Event`] and finds the project. `simulate` decodes a payload file the same way, or builds
//!    the event ([`simulate::synthetic_event`]). `run` answers nothing when the event is not
//!    this route's to answer ([`host::another_agent_runs_route`]); routed from both of the host's
//!    files, the route claims the event first ([`crate::claim`]), and the route that comes
//!    second repeats the first's deny.
//! 2. discover: [`discover::Context::resolve`], the trust record ([`TrustStore`]), then
//!    [`discover::discover_firing`] (`run`: rules that cannot fire are not even built) or
//!    [`discover::discover_for_event`] (`simulate`) finds the hook files of project and home;
//!    files hookx would run are parsed only when trusted. `exec` is given its one handler on
//!    the command line (`exec_rule`).
//! 3. select: [`discover::dispatch_rules`] keeps the rules hookx runs itself (of trusted files;
//!    [`host::untrusted`] names the others, warned about once per content by
//!    [`crate::warned::to_warn`]); then [`dispatch::select::select`], called by step 4, picks the
//!    handlers the event fires, each rule matched in the dialect it was written in.
//! 4. run: [`dispatch::run::plan`] gives each handler its own dialect's payload and
//!    environment (`protocol::payload::encode_event`, `handler_env`) and the time the host
//!    leaves hookx ([`dispatch::run::budget`]); [`dispatch::run::Plan::run`] runs them
//!    ([`crate::spawn::Batch`]), reads each answer (`protocol::answer::decode_answer`) and
//!    merges them into one outcome. `run` with two handlers or more splits in two first
//!    (`answer_in_time`, [`crate::spawn::split`]), so that the answer goes out as soon as it is
//!    known while the handlers still running finish.
//! 5. answer: `protocol::answer::encode_answer` (in [`dispatch::run::Plan::run`]) says the
//!    outcome in the host's protocol, and `answer` prints it ([`host::print`]). `simulate`
//!    answers no host: it returns a [`Simulation`] for the CLI to report.
//!
//! Whatever fails or panics on the way, `run` and `exec` answer by the failure policy
//! (`guard::answering`).

mod guard;

use crate::claim;
use crate::context::{Places, Vars};
use crate::discover::{self, Context, EffectiveRule, Source};
use crate::dispatch::carry::Carry;
use crate::dispatch::run::{Dispatch, Limit};
use crate::dispatch::simulate::{self, Verdict};
use crate::dispatch::{self, failure, host};
use crate::error::Error;
use crate::model::Event;
use crate::protocol::HostAnswer;
use crate::route::{self, InstallScope};
use crate::source::SourceFile;
use crate::tables::{Dialect, Flavor, Rule};
use crate::trust::{self, TrustState, TrustStore};
use std::mem::ManuallyDrop;
use std::path::{Path, PathBuf};

/// What `hookx run` is told on its command line.
pub struct RunRequest {
    /// The agent calling hookx; detected from the environment and payload when `None`.
    pub host: Option<Dialect>,
    /// The event the host's config registered the route for, as the host names it.
    pub event: Option<String>,
    pub project: Option<PathBuf>,
    /// `--home`: the route's own (`hookx install --home`); `HOOKX_HOME` is never read here.
    pub home: Option<PathBuf>,
    /// `--managed-root`: the route's own; `HOOKX_MANAGED_ROOT` is never read here.
    pub managed_root: Option<PathBuf>,
    /// The host's file holding this route, where the host does not tell.
    pub installed_in: Option<InstallScope>,
    /// `--route-key`: on a route of the user's own files (`hookx install` writes it).
    pub route_key: Option<String>,
    /// `--route-folder`: the project route's folder below the project's root, where the host
    /// loads the project file of several folders ([`crate::tables::RouteSpec::names_folder`]).
    pub route_folder: Option<String>,
}

/// What `hookx exec` is told on its command line: one handler written for `flavor`.
pub struct ExecRequest {
    pub host: Option<Dialect>,
    /// The event the handler is registered for, in any dialect's spelling.
    pub event: Option<String>,
    pub project: Option<PathBuf>,
    pub flavor: Flavor,
    pub matcher: Option<String>,
    /// A Claude permission rule (`Bash(git *)`) the tool call must match.
    pub condition: Option<String>,
    pub timeout: Option<u64>,
    /// The command's own cap on its follow-ups in a row (Cursor's `loop_limit`).
    pub follow_up_limit: Option<u64>,
    /// `--async`: the command's own agent runs it in the background and ignores its answer.
    pub is_async: bool,
    /// One shell command line, or a program and its arguments.
    pub command: Vec<String>,
}

/// What `hookx simulate` is told on its command line: the event to fire, given as a payload
/// file or as its parts.
pub struct SimulateRequest {
    pub host: Flavor,
    pub event: Option<String>,
    pub tool: Option<String>,
    pub input: Option<String>,
    /// `KEY=VALUE` event fields.
    pub fields: Vec<String>,
    pub payload: Option<PathBuf>,
    pub project: Option<PathBuf>,
    pub home: Option<PathBuf>,
    pub managed_root: Option<PathBuf>,
    /// Run no handler: say which would run, with what.
    pub dry_run: bool,
}

/// What a simulated event caused: the handlers run through hookx, those the host runs itself
/// (with what it sends them), and the host's decision over both.
pub struct Simulation {
    pub through_hookx: Dispatch,
    pub native: Dispatch,
    pub verdict: Verdict,
    /// The agent stops after this answer (`continue: false`), with the reason (or empty).
    pub stop: Option<String>,
    /// Both outcomes merged as the host takes them, whose verdict is `verdict`.
    pub taken: crate::model::Outcome,
}

/// `hookx run`: the host's event on stdin, answered in the host's protocol. Returns the exit
/// code the host reads.
pub fn run(request: RunRequest) -> i32 {
    dispatch::run::arm();
    crate::spawn::forward_termination();
    let code = guard::answering(request.host, request.event.clone(), |known| {
        run_event(&request, known)
    });
    discover::remove_private_copies();
    code
}

/// Which command's line [`unreadable_command_line`] could not read.
pub enum Unread<'a> {
    /// A route: it runs only what the user trusted (or the machine's policy), found from the
    /// `--home` and `--managed-root` the line names, as far as they read.
    Run {
        home: Option<&'a Path>,
        managed_root: Option<&'a Path>,
    },
    /// A wrapped copy: a handler the host runs from its own file, which may be a guard.
    Exec,
}

/// `hookx run` or `hookx exec` whose command line this hookx cannot read (an option or a host
/// of a newer hookx, a value out of range): the failure policy's answer for what the line
/// names (`--host`, `--event`, as far as they read) and the payload tells, with `why`. Never a
/// usage error's exit 2, which a host reads as a block: Claude keeps a Stop going on it,
/// forever. A route where nothing could run (no trust record in its home, no policy folder)
/// answers nothing, as a route whose hookx is gone does there (attacks rows 1140, 1341): a
/// teammate whose hookx is older than the one that wrote the project's routes, and who trusted
/// nothing, is not denied every tool call.
pub fn unreadable_command_line(
    line: Unread<'_>,
    host: Option<&str>,
    event: Option<&str>,
    why: &str,
) -> i32 {
    let named = host.map(Dialect::named);
    let host = named.flatten();
    let known = failure::Context::new(host, event);
    if guard::too_deep() {
        return 0;
    }
    // The payload tells the event (and, with no `--host`, the host, guessed as `run` guesses
    // it); a host this hookx does not know is not guessed at.
    if named != Some(None)
        && let Ok(payload) = host::read_stdin()
    {
        let senders = host.map(|_| host::senders(&payload)).unwrap_or_default();
        if host.is_some_and(|h| host::another_agent_runs_route(h, &senders)) {
            return 0;
        }
        if let Ok(hosted) = host::decode_from(
            &payload,
            host,
            event,
            Places::default(),
            host::Line::Unknown,
            &senders,
        ) {
            known.decoded(hosted.answered_as(), &hosted.also, &hosted.event.kind);
        }
    }
    if let Unread::Run { home, managed_root } = line
        && nothing_could_run(home, managed_root)
    {
        let stderr = format!(
            "hookx: cannot read its command line: {why}; nothing here could run (no trust \
             record, no policy folder), so it answers nothing\n"
        );
        return host::print(
            &HostAnswer {
                stdout: String::new(),
                stderr,
                exit_code: 0,
            },
            &[],
        );
    }
    host::print(
        &known.answer(&format!("cannot read its command line: {why}")),
        &[],
    )
}

/// Whether a route could run nothing: its home (`home`, else the account's) holds no trust
/// record and no agent has a policy folder below `managed_root` (else `/`). A home it cannot
/// tell, or a record it cannot tell is missing, could hold trusted rules.
fn nothing_could_run(home: Option<&Path>, managed_root: Option<&Path>) -> bool {
    let absent = |path: &Path| matches!(std::fs::metadata(path), Err(e) if e.kind() == std::io::ErrorKind::NotFound);
    let Some(home) = crate::context::dispatch_home(home) else {
        return false;
    };
    let root = managed_root.unwrap_or(Path::new("/"));
    absent(&TrustStore::record_in(&home))
        && Dialect::all()
            .iter()
            .filter_map(|d| crate::context::managed_dir(root, *d))
            .all(|dir| absent(&dir))
}

/// `hookx exec`: the host's event on stdin, given to one handler written for another agent,
/// its answer given back in the host's protocol.
pub fn exec(request: ExecRequest) -> i32 {
    dispatch::run::arm();
    crate::spawn::forward_termination();
    guard::answering(request.host, request.event.clone(), |known| {
        exec_event(request, known)
    })
}

/// `hookx simulate`: a payload the host would send, fired at the project's hook set as `run`
/// fires it, and at the hooks the host runs itself.
pub fn simulate(request: &SimulateRequest) -> Result<Simulation, Error> {
    crate::spawn::forward_termination();
    let project = match &request.project {
        Some(p) => p.clone(),
        None => std::env::current_dir().map_err(|e| Error::Io {
            path: ".".into(),
            message: e.to_string(),
        })?,
    };
    // 1. decode
    let event = simulated_event(request, &project)?;
    // 2. discover
    let ctx = Context::resolve_places(
        Places {
            project: Some(&project),
            home: request.home.as_deref(),
            managed_root: request.managed_root.as_deref(),
        },
        Vars::User,
    )?;
    let dialect = request.host.dialect();
    let store = TrustStore::load_or_empty(&ctx);
    // A user file found below an agent's folder variable is read where the agent reads it; not
    // by `hookx run`, which reads no variable a project could set: under another host its rules
    // run nowhere through hookx (attacks row 366, as doctor says: row 220).
    let (sources, moved): (Vec<Source>, Vec<Source>) =
        discover::discover_for_event(&ctx, dialect, &event.kind, &store)
            .into_iter()
            .partition(|s| discover::moved_from_hookx(&ctx, dialect, s).is_none());
    // 3. select
    let hook_set = hook_set(&ctx, &sources, dialect, &store);
    // 4. run: through hookx only where the host calls it (a route its own gates let through).
    let all = discover::discover(&ctx);
    // The folders above whose own route runs their rules too (Codex, attacks row 680).
    let above: Vec<(Context, Vec<Source>)> = routed_above(&ctx, dialect, &event.kind)
        .into_iter()
        .map(|folder| {
            let places = Places {
                project: Some(&folder),
                home: request.home.as_deref(),
                managed_root: request.managed_root.as_deref(),
            };
            let ctx = Context::resolve_places(places, Vars::User)?;
            let own = |s: &Source| s.path.starts_with(&ctx.project);
            let found = discover::discover_for_event(&ctx, dialect, &event.kind, &store);
            let sources = found.into_iter().filter(own).collect();
            Ok((ctx, sources))
        })
        .collect::<Result<_, Error>>()?;
    let above_sets: Vec<(&Path, HookSet)> = above
        .iter()
        .map(|(ctx, sources)| {
            (
                ctx.project.as_path(),
                self::hook_set(ctx, sources, dialect, &store),
            )
        })
        .collect();
    let held = simulate::routes_held(&ctx, &all, dialect, &event.kind);
    // A package with no route of its own, where a folder above has one: the agent started in it
    // runs that route, which runs its folder's rules and not the package's (attacks row 862:
    // `simulate` said "no route" and answered allow where the root's guard denies).
    let called_above = matches!(held, Err(simulate::NoRoute)) && !above_sets.is_empty();
    let why = match held {
        Ok(why) => why,
        Err(simulate::NoRoute) if called_above => {
            let above: Vec<String> = above_sets.iter().map(|(f, _)| ctx.display(f)).collect();
            Some(format!(
                "no hookx route in this folder's {} file: the route {} loads from {} runs that folder's rules only",
                dialect.def().display,
                dialect.def().display,
                above.join(", ")
            ))
        }
        Err(simulate::NoRoute) => Some(simulate::no_route(dialect)),
    };
    let mut through_hookx = match why.as_ref().filter(|_| !called_above) {
        None => {
            let own = hook_set.rules.iter().filter(|_| why.is_none());
            let mut plan = dispatch::run::plan(
                request.host,
                &event,
                own.map(|r| (r.rule.as_ref(), r.source)),
                &project,
                Limit::Route,
            );
            for (folder, set) in &above_sets {
                plan.absorb(dispatch::run::plan(
                    request.host,
                    &event,
                    set.rules.iter().map(|r| (r.rule.as_ref(), r.source)),
                    folder,
                    Limit::Route,
                ));
            }
            let plan = plan.showing_follow_up_counts(&ctx.home);
            match request.dry_run {
                true => plan.preview(),
                false => plan.run(None),
            }
        }
        Some(_) => fire(request.host, &event, &[], &project, true),
    };
    if let Some(why) = &why {
        let rules = hook_set.rules.iter().map(|r| (r.rule.as_ref(), r.source));
        let (selected, _) = dispatch::select::select(rules, &event);
        let mut held: Vec<String> = Vec::new();
        for s in selected {
            let mut line = format!("{}: not run through hookx: {why}", s.rule.origin.file);
            // Nor by the host: these rules run nowhere.
            if let Some(dropped) = s.source.dropped_by(dialect) {
                line.push_str(&format!(
                    "; and {}: they run nowhere (fix {})",
                    dropped.why(&s.source.display),
                    dropped.fix_at()
                ));
            }
            if !held.contains(&line) {
                held.push(line);
            }
        }
        through_hookx.skipped.extend(held);
    }
    for source in moved
        .iter()
        .filter(|s| s.document().is_some_and(|d| !d.rules.is_empty()))
    {
        if let Some(var) = discover::moved_from_hookx(&ctx, dialect, source) {
            through_hookx.skipped.push(format!(
                "{}: not run through hookx: found where `{}` says; hookx run reads the user's {} hooks below the home, not there",
                source.display,
                var.var,
                source.dialect.def().display
            ));
        }
    }
    // 5. answer: reported, with every untrusted file and what the host runs itself.
    let untrusted = above_sets.iter().flat_map(|(_, set)| set.untrusted.iter());
    through_hookx.skipped.extend(
        (hook_set.untrusted.iter().chain(untrusted))
            .map(|(source, state)| host::untrusted_warning(source, *state)),
    );
    through_hookx.native = simulate::native_runs(&ctx, request.host, &event, &sources);
    let (mut native, route_place) =
        run_natively(&ctx, &all, request.host, &event, &project, request.dry_run);
    for dispatch in [&mut through_hookx, &mut native] {
        let cadence = simulate::cadence_notes(dispatch, request.host, &event.kind);
        dispatch.notes.extend(cadence);
    }
    let shapes = simulate::result_notes(&through_hookx, request.host, &event);
    through_hookx.notes.extend(shapes);
    discover::remove_private_copies();
    // As the host takes each answer: hookx's, where an ask it cannot put and a rewrite it
    // cannot apply deny; its own handlers', which it runs by its own flow (attacks row 1900).
    let (host, kind) = (request.host, &event.kind);
    // Where the host folds by place and runs the route among its own hooks, hookx's answer is
    // folded there, as written (attacks row 2050); else it is merged after them.
    let at_the_route = route_place
        .filter(|_| why.is_none() && !native.runs.is_empty())
        .map(|place| fold_at_the_route(host, &event, &native, place, &through_hookx.answer));
    let mut outcome = crate::protocol::answer::as_the_host_takes_its_own(
        host,
        kind,
        at_the_route.as_ref().unwrap_or(&native.outcome),
    )
    .into_owned();
    let hookx = &through_hookx.outcome;
    // A replaced result of hookx's route's takes the place of the host's own handlers' (Claude
    // Code 2.1.332 gave the model the route's, live: attacks row 1962). A host that runs its
    // hooks side by side takes the one that ends last: which, is a race, and said so.
    if host.tables().parallel
        && (native.outcome.modified_result.as_ref())
            .is_some_and(|own| hookx.modified_result.as_ref().is_some_and(|h| h != own))
    {
        through_hookx.notes.push(format!(
            "{} runs its own hooks and hookx's route side by side and gives the model the replaced result that ends last: this takes the route's, but the host's own may win the race",
            host.dialect().def().display
        ));
    }
    if at_the_route.is_none() {
        outcome.merge_a_later_result(
            crate::protocol::answer::as_the_host_takes_it(host, kind, hookx).into_owned(),
        );
    }
    // Two rewrites of one call, where the host runs the one of the hook that ends last
    // (`rewrite_race`; Claude Code 2.1.332, live with each of two ending a second late: attacks
    // row 2052): a race; this takes the later hook's.
    let rewrites: Vec<&serde_json::Value> = (native.runs.iter().map(|r| &r.outcome))
        .chain([hookx])
        .filter_map(|o| o.updated_input.as_ref())
        .collect();
    if host.tables().protocol.rewrite_race && rewrites.iter().any(|r| *r != rewrites[0]) {
        native.notes.push(format!(
            "{} runs its hooks side by side and runs the rewrite of the hook that ends last: this takes the later hook's, but another's may win the race",
            host.dialect().def().display
        ));
    }
    // The agent stops where its own handler says so, or hookx's answer can tell it to.
    let stop = (native.outcome.stop
        || hookx.stop && host.tables().protocol.can_stop_the_agent(kind))
    .then(|| outcome.stop_reason.clone().unwrap_or_default());
    // A permission request no answer decides goes on to the host's own prompt (attacks row
    // 1902): the user is asked, as without the hooks.
    if *kind == crate::model::EventKind::PermissionRequest
        && outcome.decision.is_none()
        && !outcome.block
    {
        outcome.decision = Some(crate::model::Decision::Ask);
    }
    if let Some(note) = simulate::rewrite_note(host, &event, &outcome) {
        match native.outcome.updated_input == outcome.updated_input {
            true => native.notes.push(note),
            false => through_hookx.notes.push(note),
        }
    }
    Ok(Simulation {
        through_hookx,
        native,
        verdict: simulate::verdict(&outcome),
        stop,
        taken: outcome,
    })
}

/// The folders above the project whose own route runs their rules for `kind` too
/// ([`dispatch::project::routed_above`]), under any of the host's names for it.
fn routed_above(ctx: &Context, host: Dialect, kind: &crate::model::EventKind) -> Vec<PathBuf> {
    let mut names: Vec<&str> = host
        .own_events()
        .into_iter()
        .filter(|(k, _, _)| k == kind)
        .map(|(_, name, _)| name)
        .collect();
    names.dedup();
    let mut folders: Vec<PathBuf> = Vec::new();
    for name in names {
        let found =
            dispatch::project::routed_above(host, &ctx.home, &ctx.managed_root, &ctx.project, name);
        folders.extend(
            found
                .into_iter()
                .filter(|f| !folders.contains(f))
                .collect::<Vec<_>>(),
        );
    }
    folders
}

fn run_event(request: &RunRequest, known: &failure::Context) -> Result<i32, Error> {
    if guard::too_deep() {
        return Ok(0);
    }
    // 1. decode
    let payload = host::read_stdin()?;
    // Read once, for both: whose payload this is by its shape.
    let senders = request
        .host
        .map(|_| host::senders(&payload))
        .unwrap_or_default();
    // Started by another agent that runs this host's files (Copilot, the Claude route): its
    // own route answers, when it has one (below).
    let aside = request
        .host
        .is_some_and(|h| host::another_agent_runs_route(h, &senders));
    let hosted = match decode(
        &payload,
        request.host,
        request.event.as_deref(),
        Places {
            project: request.project.as_deref(),
            home: request.home.as_deref(),
            managed_root: request.managed_root.as_deref(),
        },
        match request.installed_in {
            Some(InstallScope::Project) => {
                host::Line::ProjectRoute(request.route_folder.as_deref())
            }
            _ => host::Line::Unknown,
        },
        known,
        &senders,
    ) {
        Ok(hosted) => hosted,
        Err(_) if aside => return Ok(0),
        Err(e) => return Err(e),
    };
    // A route inside a hook the hookx above runs for this very event: it runs the rules.
    if dispatch::run::runs_below_same_event(&hosted.event) {
        return Ok(0);
    }
    // The home and the policy root from the route's command line (and `HOME`), never from a
    // variable a project's settings could have set for every hook.
    let ctx = match Context::resolve_places(
        Places {
            project: Some(&hosted.project),
            home: request.home.as_deref(),
            managed_root: request.managed_root.as_deref(),
        },
        Vars::Dispatch,
    ) {
        Ok(ctx) => ctx,
        Err(_) if aside => return Ok(0),
        Err(e) => return Err(e),
    };
    if request.home.is_none()
        && let Some(elsewhere) = trust::record_under_home_var(&ctx)
    {
        home_var_elsewhere(&elsewhere, &ctx, hosted.host, &hosted.event)?;
    }
    let sender = senders.first().copied().filter(|_| aside);
    if sender.is_some_and(|s| {
        let project = request.installed_in == Some(InstallScope::Project);
        let users = host::users_route(s, hosted.host.dialect(), project);
        host::senders_route_runs(&ctx, s, hosted.host.dialect(), users, &hosted.event.kind)
    }) {
        return Ok(0);
    }
    // Where the sender runs this route and has none of its own (attacks row 263), this route
    // is the one hookx has there: it runs what the sender's route would, not the rules the
    // sender runs itself, and leaves nothing to a route of this host's the sender never runs
    // (Copilot reads no `~/.claude/settings.json`).
    let dialect = sender.unwrap_or_else(|| hosted.host.dialect());
    if sender.is_none()
        && (left_to_another_hosts_user_route(
            &ctx,
            dialect,
            request.installed_in,
            request.event.as_deref(),
        ) || host::senders_own_route_answers(&ctx, dialect, &hosted.event.kind, &senders))
    {
        return Ok(0);
    }
    // Routed from both of the host's files: the host may run both routes for this call, and
    // the first to claim it runs the rules (below), whichever the host runs.
    let claims = sender.is_none()
        && request.event.as_deref().is_some_and(|event| {
            route::routed_in_both_scopes(&ctx.home, &ctx.project, dialect, event)
        });
    // 2. discover: rules that cannot fire are not even built, decided by the matching
    // dispatch uses. Trust first: the record decides which files are parsed at all.
    let fires = |rules: &[Rule]| dispatch::select::can_fire(rules, &hosted.event);
    // A record the project (or another account) could have written trusts nothing.
    let (store, refused) = TrustStore::load_for_run(&ctx);
    // Left for the OS to free when hookx exits: freeing thousands of rules one by one costs
    // an event more than reading them from the cache did.
    let sources = ManuallyDrop::new(discover::discover_firing(
        &ctx,
        dialect,
        &hosted.event.kind,
        &fires,
        &store,
    ));
    // 3. select
    let hook_set = ManuallyDrop::new(checked_hook_set(
        &ctx,
        &sources,
        dialect,
        (&store, refused.as_ref()),
        &hosted,
    )?);
    guard::injected_before_run();
    // 4. run and 5. answer, within the timeout the route's own entry has (row 223).
    let written = request.event.as_deref().and_then(|event| {
        route::written_timeout_ms(
            &ctx.home,
            &ctx.project,
            hosted.host.dialect(),
            request.installed_in,
            request.route_key.as_deref(),
            event,
        )
    });
    let limit = dispatch::run::route_limit(hosted.host, hosted.read_as, written);
    let mut plan = dispatch::run::plan(
        hosted.host,
        &hosted.event,
        hook_set.rules.iter().map(|r| (r.rule.as_ref(), r.source)),
        &hosted.project,
        limit,
    );
    for folder in &hosted.above {
        let places = Places {
            project: Some(folder),
            home: request.home.as_deref(),
            managed_root: request.managed_root.as_deref(),
        };
        plan.absorb(folder_above_plan(places, dialect, &hosted, limit)?);
    }
    let plan = plan.keeping_follow_up_caps(Ok(&ctx.home));
    // A context the host drops, carried to the same call's event where it delivers one (attacks
    // row 1650), and what background handlers answer, carried to the session's next event
    // (row 2004): by the route that answers with its own rules, in one host's form.
    let carries = hosted.read_as.is_none() && hosted.also.is_empty();
    let plan = match carries {
        true => plan.keeping_late_answers(&ctx.home),
        false => plan,
    };
    let claimed = match claims {
        true => match claim(&ctx, &plan, &hosted) {
            claim::Entry::Repeat(answer) => return Ok(repeat(&answer)),
            claim::Entry::Claimed(held) => Some(Claim {
                held,
                managed_root: &ctx.managed_root,
            }),
            claim::Entry::Run => None,
        },
        false => None,
    };
    let carry = match carries {
        true => Carry::for_event(&ctx.home, hosted.host, &hosted.event),
        false => Carry::none(),
    };
    Ok(answer_in_time(
        plan,
        known,
        (&hosted, &carry),
        claimed.as_ref(),
    ))
}

/// The plan of the rules in the project files of `places`' project, a folder above the
/// route's project whose project file routes the event too ([`host::HostEvent::above`],
/// attacks row 670), each with that folder for its project. Its user and policy files are
/// the route's own, already planned; its untrusted files are said as the route's are.
fn folder_above_plan<'e>(
    places: Places<'_>,
    dialect: Dialect,
    hosted: &'e host::HostEvent,
    limit: Limit,
) -> Result<dispatch::run::Plan<'e>, Error> {
    let ctx = Context::resolve_places(places, Vars::Dispatch)?;
    let fires = |rules: &[Rule]| dispatch::select::can_fire(rules, &hosted.event);
    let (store, refused) = TrustStore::load_for_run(&ctx);
    let found = discover::discover_firing(&ctx, dialect, &hosted.event.kind, &fires, &store);
    let own = |s: &Source| s.path.starts_with(&ctx.project);
    let sources: Vec<Source> = found.into_iter().filter(own).collect();
    let set = checked_hook_set(&ctx, &sources, dialect, (&store, refused.as_ref()), hosted)?;
    Ok(dispatch::run::plan(
        hosted.host,
        &hosted.event,
        set.rules.iter().map(|r| (r.rule.as_ref(), r.source)),
        &ctx.project,
        limit,
    ))
}

/// This route's claim of the event, and the policy root its id names.
struct Claim<'a> {
    held: claim::Held,
    managed_root: &'a Path,
}

/// `event`'s id ([`claim::event_id`]) as `hosted` was read, under `managed_root`'s policy.
fn event_id(hosted: &host::HostEvent, managed_root: &Path, event: &Event) -> String {
    let flavor = hosted.answered_as().name();
    let places = [hosted.project.as_path(), managed_root];
    let keys = hosted.host.tables().protocol.call_keys;
    claim::event_id(event, keys, hosted.stamped, flavor, places)
}

/// The id of the event a host that passes a rewrite on gives the next route: the call with
/// the input this route answered (Gemini's `sequential` chain hands the project's route the
/// user route's rewritten `tool_input`, bundle 0.61.0 `applyHookOutputToInput`: attacks rows
/// 506, 514). `None` where the answer rewrites nothing.
fn rewritten_id(
    dispatch: &Dispatch,
    hosted: &host::HostEvent,
    managed_root: &Path,
) -> Option<String> {
    let o = &dispatch.outcome;
    let deny = o.decision == Some(crate::model::Decision::Deny);
    let input = o.updated_input.as_ref().filter(|_| !deny)?;
    let mut event = hosted.event.clone();
    let tool = event.tool.as_mut().filter(|t| t.input != *input)?;
    tool.input = input.clone();
    Some(event_id(hosted, managed_root, &event))
}

/// This route's claim of the event ([`crate::claim`]), bounded by its budget.
fn claim(ctx: &Context, plan: &dispatch::run::Plan<'_>, hosted: &host::HostEvent) -> claim::Entry {
    let event = event_id(hosted, &ctx.managed_root, &hosted.event);
    let route = claim::route_id(hosted.host.dialect().config().hook_dir_var);
    let most = std::time::Duration::from_secs(crate::route::ROUTE_TIMEOUT);
    let budget = plan.budget().unwrap_or(most);
    let until = dispatch::run::started() + budget;
    claim::enter(&ctx.home, &event, &route, budget, until)
}

/// The claimer's answer said again by the route that matched its claim.
fn repeat(answer: &claim::Answer) -> i32 {
    use std::io::Write;
    let _ = std::io::stdout().write_all(&answer.stdout);
    let _ = std::io::stderr().write_all(&answer.stderr);
    answer.code
}

/// What a route that matched the claim repeats of `dispatch`'s answer: only what blocks (a
/// deny, an ask, a block, a stop), with its reasons; no context, no output.
fn blocking_answer(dispatch: &Dispatch, hosted: &host::HostEvent) -> Option<claim::Answer> {
    use crate::model::{Decision, Outcome};
    let o = &dispatch.outcome;
    let decision = o.decision.filter(|d| *d != Decision::Allow);
    if !(o.block || o.stop || decision.is_some()) {
        return None;
    }
    let kept = Outcome {
        decision,
        reasons: o.reasons.clone(),
        block: o.block,
        stop: o.stop,
        stop_reason: o.stop_reason.clone(),
        interrupt: o.interrupt,
        ..Outcome::default()
    };
    let answer = crate::protocol::answer::encode_answer(hosted.host, &hosted.event, &kept);
    let only = Dispatch {
        runs: Vec::new(),
        skipped: Vec::new(),
        native: Vec::new(),
        notes: Vec::new(),
        would_run: Vec::new(),
        outcome: kept,
        answer,
        cut_short: false,
    };
    let answer = host_answer(&only, hosted, &Carry::none());
    let (stdout, stderr) = host::rendered(&answer, &[]);
    Some(claim::Answer {
        stdout: stdout.as_bytes().to_vec(),
        stderr: stderr.into_bytes(),
        code: answer.exit_code,
    })
}

/// Steps 4 and 5 for `run` and `exec`: the host's answer printed before its time limit. With several
/// handlers, hookx splits in two ([`crate::spawn::split`]): the worker runs them and hands
/// its answer over as soon as it is known (a deny, the budget spent, all ended), and the
/// process the host started prints it and exits while the worker waits for the rest. One
/// handler (the usual case) is simply run, and killed when the budget is spent.
#[cfg_attr(not(unix), allow(unused_variables))]
fn answer_in_time(
    plan: dispatch::run::Plan<'_>,
    known: &failure::Context,
    (hosted, carry): (&host::HostEvent, &Carry),
    claimed: Option<&Claim<'_>>,
) -> i32 {
    // An answer cut short by the budget is none to repeat: the matcher runs the rules itself
    // once this route has ended (a user route the user cut to 4 s, attacks row 342).
    let finish = |dispatch: &Dispatch| {
        if let Some(c) = claimed.filter(|_| !dispatch.cut_short) {
            let rewritten = rewritten_id(dispatch, hosted, c.managed_root);
            c.held.finish(
                blocking_answer(dispatch, hosted).as_ref(),
                rewritten.as_deref(),
            );
        }
    };
    // One handler is answered here, after it ends or is killed; where a kill would outlast the
    // host's limit, it is answered as two are, without waiting for the kill (attacks row 341).
    #[cfg(unix)]
    // A handler run in the background (row 1827) runs past the answer: in the worker.
    if plan.handlers() >= 2
        || (plan.handlers() == 1 && plan.kill_outlasts_margin())
        || plan.in_background() > 0
    {
        use crate::spawn::split::{self, Answer, Split};
        // The host's process waits past the worker's due time, not past the host's limit
        // (the budget leaves a third of itself, at least, before that).
        let bound = plan.budget().and_then(|b| {
            let grace = (b / 6).min(ANSWER_GRACE);
            let at = dispatch::run::started().checked_add(b + grace)?;
            Some(split::Bound { at, grace })
        });
        match split::split(bound) {
            Split::Host(Some(answer)) => {
                use std::io::Write;
                // The worker may still run handlers from them: it deletes them.
                discover::leave_private_copies();
                let _ = std::io::stdout().write_all(&answer.stdout);
                let _ = std::io::stderr().write_all(&answer.stderr);
                return answer.code;
            }
            Split::Host(None) => {
                discover::leave_private_copies();
                let why = "the handlers' run ended before it answered (see above)";
                return host::print(&known.answer(why), &[]);
            }
            Split::Worker(answerer) => {
                if let Some(c) = claimed {
                    c.held.runs_here();
                }
                let mut answerer = Some(answerer);
                let mut hand_over = |dispatch: &Dispatch| {
                    finish(dispatch);
                    let (stdout, stderr, code) = rendered(dispatch, hosted, carry);
                    if let Some(answerer) = answerer.take() {
                        answerer.answer(&Answer {
                            stdout,
                            stderr,
                            code,
                        });
                    }
                };
                plan.run(Some(&mut hand_over));
                return 0;
            }
            Split::Unavailable => {}
        }
    }
    let dispatch = plan.run(None);
    finish(&dispatch);
    answer(&dispatch, hosted, carry)
}

/// The most the host's process waits past the worker's due time for its answer: the worker
/// hands it over at once then; this only covers a worker that cannot.
#[cfg(unix)]
const ANSWER_GRACE: std::time::Duration = std::time::Duration::from_secs(1);

fn exec_event(request: ExecRequest, known: &failure::Context) -> Result<i32, Error> {
    if guard::too_deep() {
        return Ok(0);
    }
    // 1. decode
    let payload = host::read_stdin()?;
    let senders = request
        .host
        .map(|_| host::senders(&payload))
        .unwrap_or_default();
    let hosted = decode(
        &payload,
        request.host,
        request.event.as_deref(),
        Places {
            project: request.project.as_deref(),
            ..Places::default()
        },
        host::Line::Copy(&request.command),
        known,
        &senders,
    )?;
    // 2. discover and 3. select: the one handler, when the event is its own and its filter
    // lets the event through.
    let kind = match &request.event {
        Some(name) => host::parse_event(name),
        None => hosted.event.kind.clone(),
    };
    if kind != hosted.event.kind {
        // Registered for another event: nothing to do.
        return Ok(0);
    }
    if let Some(rule) = &request.condition {
        let condition = dispatch::condition::Condition::parse(rule).map_err(Error::Usage)?;
        if !condition.matches(&hosted.event, request.flavor) {
            // The handler's own filter says no: it does not run, as under its own agent.
            return Ok(0);
        }
    }
    // The agent running the entry: another than the file's where it reads that file too.
    let runner = senders
        .first()
        .copied()
        .filter(|_| host::another_agent_runs_route(hosted.host.dialect(), &senders))
        .unwrap_or_else(|| hosted.host.dialect());
    // A copy in another agent's file that agent reads itself (Copilot running the Claude
    // file), of a rule it runs from its own file: it stands aside (attacks row 880). Asked
    // only there, never of an agent running its own file.
    if runner != hosted.host.dialect()
        && let Ok(ctx) = Context::resolve(Some(&hosted.project), None)
        && crate::plan::runs_from_own_file(
            &ctx,
            (runner, hosted.host.dialect()),
            &hosted.event,
            request.flavor,
            &request.command,
        )
    {
        return Ok(0);
    }
    let limit = Limit::Entry(request.timeout);
    let background = request.is_async;
    let late_answer = request.flavor.tables().protocol.late_answer;
    let rule = exec_rule(kind, request);
    // 4. run: the one handler, ended before the host ends the entry. Its agent's cap on its
    // follow-ups is kept as `run` keeps it (a converted Cursor stop hook under Codex, which
    // caps none: attacks row 306), counted under `$HOME`, the one home `exec` knows (a
    // project that sets it runs this handler anyway); with none, no follow-up goes on.
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    let plan = dispatch::run::plan(
        hosted.host,
        &hosted.event,
        [(&rule, &())],
        &hosted.project,
        limit,
    )
    .keeping_follow_up_caps(home.as_deref().ok_or_else(|| "HOME is unset".to_string()));
    // Where hookx's user route runs the event's rules beside this entry, a route inside its
    // handler stands aside for it, as inside the route's own handlers (attacks row 421). The
    // user route of the agent that runs the entry: Copilot runs a copy in Claude's project
    // file but never Claude's user file, whose route would leave the rules to nobody (row 601).
    let beside_route = home.as_deref().is_some_and(|home| {
        route::user_route_answers(home, runner, &hosted.project, &hosted.event.kind)
    });
    let plan = match beside_route {
        true => plan.marking_event(),
        false => plan,
    };
    // What a background handler answered, where its own agent gives it to the model later,
    // kept under `$HOME` for the session's next event that takes context (attacks row 2206).
    let late_home = home.as_deref().filter(|_| late_answer);
    if background {
        return Ok(in_background(plan, &hosted, late_home));
    }
    // 5. answer: as `run` answers, before the host's limit (where a kill would outlast it,
    // without waiting for the kill: Codex's 1 s SessionEnd, attacks row 2147).
    let carry = match home.as_deref() {
        Some(home) => Carry::late_only(home, hosted.host, &hosted.event),
        None => Carry::none(),
    };
    Ok(answer_in_time(plan, known, (&hosted, &carry), None))
}

/// `exec --async`: a handler its own agent runs in the background, its answer ignored
/// (Claude's and Qwen's `async: true`), under a host with no such key. The host is answered at
/// once as if no handler ran; the worker ([`crate::spawn::split`]) runs the handler within its
/// own timeout, holding none of the host's descriptors, so the host waits for nothing and no
/// block or deny it prints counts (attacks row 1762: written in the foreground, a converted
/// async logger's deny stopped the call, and Gemini, Copilot and Droid waited for it).
///
/// With `late_home`, what it answers (messages, then context) is kept there for the session's
/// next event whose answer the host takes context on ([`crate::dispatch::carry::keep_late`]).
fn in_background(
    plan: dispatch::run::Plan<'_>,
    hosted: &host::HostEvent,
    late_home: Option<&Path>,
) -> i32 {
    let keep_late = |done: &Dispatch| -> Option<String> {
        let home = late_home?;
        let texts: Vec<String> = (done.outcome.system_messages.iter())
            .chain(&done.outcome.additional_context)
            .cloned()
            .collect();
        crate::dispatch::carry::keep_late(home, &hosted.event, &texts).err()
    };
    let none = |skipped: Vec<String>| Dispatch {
        runs: Vec::new(),
        skipped,
        native: Vec::new(),
        notes: Vec::new(),
        would_run: Vec::new(),
        outcome: crate::model::Outcome::default(),
        answer: crate::protocol::answer::encode_answer(
            hosted.host,
            &hosted.event,
            &crate::model::Outcome::default(),
        ),
        cut_short: false,
    };
    if plan.handlers() == 0 {
        // Its matcher or filter said no; one that could not be evaluated denies nothing
        // either: the handler's answer would not have counted.
        return answer(&none(plan.preview().skipped), hosted, &Carry::none());
    }
    #[cfg(unix)]
    {
        use crate::spawn::split::{self, Answer, Split};
        match split::split(None) {
            Split::Worker(answerer) => {
                // Out of the host's process group before the host can have its answer
                // (`Answerer::answer`, attacks row 1831).
                answerer.answer(&Answer {
                    stdout: Vec::new(),
                    stderr: Vec::new(),
                    code: 0,
                });
                // Past the answer: nobody would read why it was not kept.
                let _ = keep_late(&plan.run(None));
                return 0;
            }
            Split::Host(_) => return answer(&none(Vec::new()), hosted, &Carry::none()),
            Split::Unavailable => {}
        }
    }
    // No second process: the handler runs before the answer, which still ignores it.
    let done = plan.run(None);
    let not_kept = keep_late(&done);
    let mut skipped = done.skipped;
    skipped.extend(not_kept.map(|why| format!("hookx exec --async: its answer not kept: {why}")));
    skipped.push(
        "hookx exec --async: no second process to run it in the background; it ran before \
         the answer, which ignores it"
            .to_string(),
    );
    answer(&none(skipped), hosted, &Carry::none())
}

/// Step 5 for `run` and `exec`: the host answer (one every agent the payload may be from
/// reads, [`host::answer_all`], else the failure policy's for no agent).
fn host_answer(dispatch: &Dispatch, hosted: &host::HostEvent, carry: &Carry) -> HostAnswer {
    let carried = carry.answer(&dispatch.outcome);
    let outcome = carried.as_ref().unwrap_or(&dispatch.outcome);
    let answer = match (hosted.read_as, &carried) {
        (Some(flavor), _) => crate::protocol::answer::encode_answer(flavor, &hosted.event, outcome),
        (None, Some(_)) => {
            crate::protocol::answer::encode_answer(hosted.host, &hosted.event, outcome)
        }
        (None, None) => dispatch.answer.clone(),
    };
    match host::answer_all(hosted, outcome, answer) {
        Ok(answer) => answer,
        Err(why) => failure::answer(None, Some(&hosted.event.kind), &why),
    }
}

/// Prints [`host_answer`] and everything worth knowing on stderr; returns the exit code.
fn answer(dispatch: &Dispatch, hosted: &host::HostEvent, carry: &Carry) -> i32 {
    let answer = host_answer(dispatch, hosted, carry);
    host::print(&answer, notes(dispatch, &answer))
}

/// The notes printed before the answer on stderr.
fn notes<'d>(dispatch: &'d Dispatch, answer: &HostAnswer) -> &'d [String] {
    // On exit 2 the host reads stderr as the block reason: nothing else may be in it.
    if answer.exit_code != 2 {
        // Handler errors are already in the answer's stderr, among its notes.
        &dispatch.skipped[..]
    } else {
        &[]
    }
}

/// What [`answer`] prints, as bytes: stdout, stderr and the exit code.
#[cfg(unix)]
fn rendered(
    dispatch: &Dispatch,
    hosted: &host::HostEvent,
    carry: &Carry,
) -> (Vec<u8>, Vec<u8>, i32) {
    let answer = host_answer(dispatch, hosted, carry);
    let (stdout, stderr) = host::rendered(&answer, notes(dispatch, &answer));
    (
        stdout.as_bytes().to_vec(),
        stderr.into_bytes(),
        answer.exit_code,
    )
}

/// Step 1 for `run` and `exec`: the payload decoded (`senders`: whose it may be by its shape,
/// [`host::senders`]), and the failure policy told which host and event it now answers.
fn decode(
    payload: &[u8],
    host: Option<Dialect>,
    event: Option<&str>,
    places: Places<'_>,
    line: host::Line<'_>,
    known: &failure::Context,
    senders: &[Dialect],
) -> Result<host::HostEvent, Error> {
    let hosted = host::decode_from(payload, host, event, places, line, senders)?;
    known.decoded(hosted.answered_as(), &hosted.also, &hosted.event.kind);
    guard::injected_panic();
    Ok(hosted)
}

/// Step 1 for `simulate`: the payload file decoded as `run` decodes stdin, else the event
/// built from its parts.
fn simulated_event(request: &SimulateRequest, project: &Path) -> Result<Event, Error> {
    match &request.payload {
        Some(path) => {
            let src = SourceFile::read(path)?;
            let hosted = host::decode(
                src.text.as_bytes(),
                Some(request.host.dialect()),
                request.event.as_deref(),
                Some(project.to_path_buf()),
            )?;
            Ok(hosted.event)
        }
        None => simulate::synthetic_event(
            request.host,
            request.event.as_deref().unwrap_or_default(),
            request.tool.as_deref(),
            request.input.as_deref(),
            &request.fields,
            &project.display().to_string(),
        ),
    }
}

/// Whether this route leaves the event to another host's user route that this host runs as
/// its own (attacks row 310): the folder of the host file whose route fired is the host's
/// variable, else the project file's folder when the route says it is the project's.
fn left_to_another_hosts_user_route(
    ctx: &Context,
    host: Dialect,
    installed_in: Option<InstallScope>,
    event: Option<&str>,
) -> bool {
    let hook_dir = host
        .config()
        .hook_dir_var
        .and_then(std::env::var_os)
        .map(PathBuf::from)
        .or_else(|| {
            let project = InstallScope::Project;
            (installed_in == Some(project)).then(|| {
                let file = route::target(&ctx.home, &ctx.project, host, project);
                file.parent().map(Path::to_path_buf).unwrap_or(file)
            })
        });
    match (hook_dir, event) {
        (Some(dir), Some(event)) => {
            route::left_to_another_hosts_user_route(&ctx.home, host, &dir, event)
        }
        _ => false,
    }
}

/// Step 3: the rules hookx runs itself, and the files it would run but does not trust as found.
struct HookSet<'a> {
    rules: Vec<EffectiveRule<'a>>,
    untrusted: Vec<(&'a Source, TrustState)>,
}

fn hook_set<'a>(
    ctx: &Context,
    sources: &'a [Source],
    host: Dialect,
    store: &TrustStore,
) -> HookSet<'a> {
    HookSet {
        rules: crate::plan::hookx_rules(ctx, sources, host, store),
        untrusted: host::untrusted(sources, host, store),
    }
}

/// [`hook_set`], its untrusted files said (or, where hookx cannot do its job for a guarded
/// call, an error the failure policy answers): the route's own project and each folder above
/// it (attacks row 670) go through the same checks: the trust store, and why it was refused.
fn checked_hook_set<'a>(
    ctx: &Context,
    sources: &'a [Source],
    host: Dialect,
    (store, refused): (&TrustStore, Option<&trust::Refused>),
    hosted: &host::HostEvent,
) -> Result<HookSet<'a>, Error> {
    let set = hook_set(ctx, sources, host, store);
    let (flavor, event) = (hosted.host, &hosted.event);
    match refused {
        Some(why) => refused_store(why, &set.untrusted, flavor, event)?,
        None => warn_untrusted(ctx, &set.untrusted),
    }
    switched_off_untrusted(ctx, sources, &set.untrusted, flavor, event)?;
    trusted_in_an_older_record(&set.untrusted, flavor, event)?;
    Ok(set)
}

/// Untrusted files whose handlers the host does not run because `hookx install` switched off
/// their byte-identical handlers, here or for another install ([`discover::switched_by_installs`]):
/// hookx must not run them, and they run nowhere else (here: until the user trusts the file
/// install just left to hookx). Where the event guards a tool call, an error,
/// which the failure policy answers with a deny that says what to do; on other events the
/// untrusted file's warning (once per content, [`warn_untrusted`]) stands.
fn switched_off_untrusted(
    ctx: &Context,
    sources: &[Source],
    untrusted: &[(&Source, TrustState)],
    host: Flavor,
    event: &Event,
) -> Result<(), Error> {
    if failure::policy(host, &event.kind) != failure::OnFailure::Deny {
        return Ok(());
    }
    let files = untrusted.iter().map(|(s, _)| *s);
    // A byte-identical handler in a file hookx trusts runs (hookx runs it): not lost.
    let is_untrusted = |s: &Source| untrusted.iter().any(|(u, _)| std::ptr::eq(*u, s));
    let held = discover::switched_by_installs(
        sources,
        host.dialect(),
        files,
        &ctx.project,
        discover::Installs::All,
        sources.iter().filter(|s| !is_untrusted(s)),
    );
    let Some((source, owners)) = held.first() else {
        return Ok(());
    };
    let state = untrusted
        .iter()
        .find(|(s, _)| std::ptr::eq(*s, *source))
        .map(|(s, state)| s.withheld.unwrap_or(*state));
    let name = host.dialect().name();
    // A project moved or deleted since its install: no uninstall can be run there.
    let gone = owners.iter().any(|o| {
        ![crate::route::HOME_OWNER, discover::UNREAD_OWNER].contains(&o.as_str())
            && !Path::new(o).is_dir()
    });
    Err(Error::Usage(format!(
        "{} holds a handler that `hookx install --host {name}` in {} turned off for {} by its \
         content (byte-identical handlers are off everywhere), and hookx does not run this file \
         ({}): review it, then run `hookx trust {}`; or, in {1}, run `hookx install --host {name} \
         --uninstall` to turn the handler back on{}",
        source.display,
        crate::diag::visible(&owners.join(", ")),
        host.dialect().def().display,
        state.map_or("not trusted", |s| s.why_not()),
        crate::shell::shell_quote(&source.path.display().to_string()),
        match gone {
            true => format!(
                " (a folder no longer there: `hookx install --host {name} --uninstall` in any \
                 project drops its record)"
            ),
            false => String::new(),
        },
    )))
}

/// A trust record `run` refused ([`trust::Refused`]): said on stderr every time. Where the
/// event guards a tool call and a file needing trust is there (one the user may have trusted,
/// whose guard would now be lost), an error, which the failure policy answers with a deny.
fn refused_store(
    why: &trust::Refused,
    untrusted: &[(&Source, TrustState)],
    host: Flavor,
    event: &Event,
) -> Result<(), Error> {
    let files: Vec<&str> = untrusted.iter().map(|(s, _)| s.display.as_str()).collect();
    let why = format!("not using the trust record: {why} ({})", why.fix());
    if !files.is_empty() && failure::policy(host, &event.kind) == failure::OnFailure::Deny {
        return Err(Error::Usage(format!(
            "{why}; the guards of {} cannot be checked",
            files.join(", ")
        )));
    }
    guard::note(format_args!(
        "hookx: {why}{}",
        match files.is_empty() {
            true => String::new(),
            false => format!("; not running {}", files.join(", ")),
        }
    ));
    Ok(())
}

/// `HOME` names another home than the one `run` reads, with a trust record there
/// ([`trust::record_under_home_var`]): said on stderr every time, and where the event guards a
/// tool call an error, which the failure policy answers with a deny (the guards trusted there
/// would be lost). The fix: routes installed from that home, which name it (`--home`).
fn home_var_elsewhere(
    elsewhere: &Path,
    ctx: &Context,
    host: Flavor,
    event: &Event,
) -> Result<(), Error> {
    let why = format!(
        "HOME is {}, which holds a trust record, but `hookx run` reads the home of your account, \
         {} (a project's settings can set HOME for every hook); if your hooks' state is under \
         HOME, run `hookx install` again from there (its routes then name it with --home)",
        elsewhere.display(),
        ctx.home.display()
    );
    if failure::policy(host, &event.kind) == failure::OnFailure::Deny {
        return Err(Error::Usage(format!(
            "{why}; the guards trusted there cannot be checked"
        )));
    }
    guard::note(format_args!("hookx: {why}"));
    Ok(())
}

/// A file the user trusted in the record's older format (version 1, without where it was
/// found), which `run` does not honour: guessing where the entry meant would re-open the hole
/// identities close. Its guards must not be lost without a word after the first warning:
/// where the event guards a tool call, an error, which the failure policy answers with a deny
/// naming the fix.
fn trusted_in_an_older_record(
    untrusted: &[(&Source, TrustState)],
    host: Flavor,
    event: &Event,
) -> Result<(), Error> {
    if failure::policy(host, &event.kind) != failure::OnFailure::Deny {
        return Ok(());
    }
    let legacy =
        |(s, state): &&(&Source, TrustState)| s.withheld.unwrap_or(*state) == TrustState::Legacy;
    let Some((source, _)) = untrusted.iter().find(legacy) else {
        return Ok(());
    };
    Err(Error::Usage(format!(
        "{} was {}, a record hookx no longer honours: review it, then run `hookx trust {}`",
        source.display,
        TrustState::Legacy.why_not(),
        crate::shell::shell_quote(&source.path.display().to_string()),
    )))
}

/// Each untrusted file is warned about once per content (`hookx list` shows them all).
fn warn_untrusted(ctx: &Context, untrusted: &[(&Source, TrustState)]) {
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
    let to_warn = crate::warned::to_warn(&ctx.home, &files);
    for &i in &to_warn.files {
        let (source, state) = untrusted[i];
        guard::note(format_args!(
            "hookx: {}",
            host::untrusted_warning(source, state)
        ));
    }
    if let (count @ 1.., bytes) = to_warn.unread {
        guard::note(format_args!(
            "hookx: {count} untrusted hook file(s) ({} MiB) not read to tell whether they \
             changed: past the {} MiB of untrusted files hookx reads per event; each is \
             warned about once as it stands",
            bytes.div_ceil(1024 * 1024),
            crate::warned::MAX_HASHED_BYTES / (1024 * 1024)
        ));
    }
}

/// Steps 4 and 5 over a hook set: its handlers run, their answers merged and said in the
/// host's protocol.
fn fire(
    host: Flavor,
    event: &Event,
    rules: &[EffectiveRule<'_>],
    project: &Path,
    dry_run: bool,
) -> Dispatch {
    let plan = dispatch::run::plan(
        host,
        event,
        rules.iter().map(|r| (r.rule.as_ref(), r.source)),
        project,
        Limit::Route,
    );
    match dry_run {
        true => plan.preview(),
        false => plan.run(None),
    }
}

/// What the host runs by itself: the files it reads itself, their handlers run without hookx,
/// with the payload the host sends them (Copilot runs `.claude/settings.json` hooks as its
/// PascalCase hooks).
/// Those the host's own gates hold back ([`dispatch::gates`]) are not run, and said. Where the
/// host folds its hooks' permission decisions by their place ([`PermissionFold`]), also how
/// many of its runs come before hookx's route, when a file it runs holds one.
///
/// [`PermissionFold`]: crate::tables::PermissionFold
fn run_natively(
    ctx: &Context,
    all: &[discover::Source],
    host: Flavor,
    event: &Event,
    project: &Path,
    dry_run: bool,
) -> (Dispatch, Option<usize>) {
    let (rules, held, route_at) = simulate::native_rules(ctx, all, host.dialect(), event);
    let by_place =
        host.tables().protocol.permission_fold != crate::tables::PermissionFold::Strictest;
    let at = route_at.filter(|_| by_place).unwrap_or(rules.len());
    let fire = |rules: &[Rule]| {
        let plan = dispatch::run::plan(
            host,
            event,
            rules.iter().map(|r| (r, &())),
            project,
            Limit::Route,
        );
        match dry_run {
            true => plan.preview(),
            false => plan.run(None),
        }
    };
    // Those before the route and those after it, each in the host's order.
    let mut dispatch = fire(&rules[..at]);
    let place = dispatch.runs.len();
    if at < rules.len() {
        let after = fire(&rules[at..]);
        dispatch.runs.extend(after.runs);
        dispatch.skipped.extend(after.skipped);
        dispatch.notes.extend(after.notes);
        dispatch.would_run.extend(after.would_run);
        dispatch.cut_short |= after.cut_short;
    }
    // The host folds its own handlers' answers itself (attacks rows 1906, 2040-2059).
    if !dispatch.runs.is_empty() {
        let runs: Vec<_> = (dispatch.runs.iter())
            .map(|r| (r.flavor, &r.finished, &r.outcome))
            .collect();
        let outcome = crate::protocol::answer::fold_as_the_host(host, &runs);
        dispatch.answer = crate::protocol::encode_answer(host, event, &outcome);
        dispatch.outcome = outcome;
    }
    dispatch.skipped.extend(held);
    (dispatch, route_at.filter(|_| by_place).map(|_| place))
}

/// hookx's answer as the host takes it among its own hooks' where it folds them by their place
/// (attacks row 2050): the route's answer, as written, read as one more of the host's own
/// hooks at the route's `place` among `native`'s runs and folded with them as the host folds
/// them. Under Qwen Code 0.24.4 a hook of the user's after the route that allows undoes
/// hookx's deny; under Droid 0.225.2 hookx's allow before a hook of the user's that denies by
/// the field hides it.
fn fold_at_the_route(
    host: Flavor,
    event: &Event,
    native: &Dispatch,
    place: usize,
    answer: &crate::protocol::HostAnswer,
) -> crate::model::Outcome {
    let finished = crate::spawn::Finished {
        exit: crate::spawn::Exit::Code(answer.exit_code),
        stdout: answer.stdout.clone().into_bytes(),
        stderr: answer.stderr.clone().into_bytes(),
        stdout_truncated: false,
        stderr_truncated: false,
        elapsed: std::time::Duration::ZERO,
    };
    let read = crate::protocol::decode_answer(host, event, &finished);
    let mut runs: Vec<_> = (native.runs.iter())
        .map(|r| (r.flavor, &r.finished, &r.outcome))
        .collect();
    runs.insert(place.min(runs.len()), (host, &finished, &read));
    crate::protocol::answer::fold_as_the_host(host, &runs)
}

/// `exec`'s one handler as a rule of its own dialect, so that it runs as a hook file's would.
fn exec_rule(kind: crate::model::EventKind, request: ExecRequest) -> Rule {
    let line = match request.command.as_slice() {
        [one] => one.clone(),
        words => words
            .iter()
            .map(|w| crate::shell::shell_quote(w))
            .collect::<Vec<_>>()
            .join(" "),
    };
    Rule {
        event: kind,
        flavor: request.flavor,
        matcher: request.matcher,
        handlers: vec![crate::model::Handler {
            kind: crate::model::HandlerKind::Command(crate::model::Command {
                command: Some(line),
                ..Default::default()
            }),
            timeout: request.timeout,
            status_message: None,
            once: None,
            // Where its dialect reads its cap on follow-ups (row 306).
            extra: request
                .flavor
                .dialect()
                .config()
                .run_keys
                .follow_ups
                .as_ref()
                .and_then(|spec| spec.limit_key)
                .zip(request.follow_up_limit)
                .map(|(key, limit)| (key.to_string(), limit.into()))
                .into_iter()
                .collect(),
        }],
        shape: crate::tables::RuleShape::Group,
        extra: Default::default(),
        origin: crate::tables::Origin {
            file: "<hookx exec>".into(),
            pointer: String::new(),
        },
    }
}
