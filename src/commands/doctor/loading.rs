//! Whether a host (or hookx under it) loads a hook file, and who runs it: the machine's
//! policy, parse problems, plugins, kill switches, folder trust and review records.

use super::{Doctor, Finding, Level, Loading, Runs, Status, shell_path};
use crate::commands::list::only_managed;
use crate::diag::Severity;
use crate::discover::{self, Context, Runner, Source};
use crate::model::EventKind;
use crate::source::SourceFile;
use crate::tables::Dialect;
use crate::tables::{EnvSearch, Root, Scope};
use crate::trust::TrustState;
use std::path::Path;

/// Variables that change which program a command runs or what it loads (the system's, not an
/// agent's), with what each does to a hook.
const PROGRAM_VARS: &[(&str, &str)] = &[
    (
        "PATH",
        "a command named without a `/` (`jq`, `hookx`) runs whatever that PATH finds first",
    ),
    (
        "LD_PRELOAD",
        "every program a hook starts loads the libraries it names, hookx included",
    ),
    (
        "LD_LIBRARY_PATH",
        "every program a hook starts may load its libraries from there, hookx included",
    ),
    // Attacks rows 788, 840-842: hookx takes these four out of what it starts, the agent
    // does not.
    (
        "BASH_ENV",
        "a `bash` a hook starts first runs the file it names",
    ),
    (
        "SHELLOPTS",
        "a `bash` a hook starts takes these options (`noexec`: it runs none of its commands)",
    ),
    (
        "BASHOPTS",
        "a `bash` a hook starts takes these `shopt` options (`nullglob`: an unmatched pattern \
         becomes nothing)",
    ),
    (
        "POSIXLY_CORRECT",
        "a `bash` a hook starts runs in POSIX mode (a `source` of a missing file ends it)",
    ),
    // The interpreters' own: a guard written in node, python, perl or ruby loads the
    // repository's code (attacks row 129).
    (
        "NODE_OPTIONS",
        "a `node` a hook starts takes its options (`--require FILE` runs that file first)",
    ),
    (
        "PYTHONPATH",
        "a `python` a hook starts imports its modules from there first (`import json` too)",
    ),
    (
        "PYTHONHOME",
        "a `python` a hook starts takes its standard library from there",
    ),
    (
        "PERL5OPT",
        "a `perl` a hook starts takes its options (`-MModule` loads that module)",
    ),
    (
        "PERL5LIB",
        "a `perl` a hook starts loads its modules from there first",
    ),
    (
        "RUBYOPT",
        "a `ruby` a hook starts takes its options (`-rFILE` loads that file)",
    ),
    (
        "RUBYLIB",
        "a `ruby` a hook starts loads its libraries from there first",
    ),
    // A prefix: `BASH_FUNC_grep%%`, `BASH_FUNC_grep()` in older bash (attacks row 128, probed
    // live).
    (
        "BASH_FUNC_*",
        "a `bash` a hook starts runs the function it defines in place of the command of that \
         name",
    ),
];

/// The names of `env` that `var` of [`PROGRAM_VARS`] stands for (a `*` at its end: a prefix).
fn set_in<'a>(var: &str, env: &'a serde_json::Map<String, serde_json::Value>) -> Vec<&'a str> {
    match var.strip_suffix('*') {
        Some(prefix) => env
            .keys()
            .filter(|k| k.starts_with(prefix))
            .map(String::as_str)
            .collect(),
        None => env
            .get_key_value(var)
            .map(|(k, _)| k.as_str())
            .into_iter()
            .collect(),
    }
}

impl Doctor<'_> {
    /// Whether `host` (or hookx under it) loads `source`, and who runs it.
    pub(super) fn loading(&self, source: &Source, host: Dialect) -> Loading {
        let runner = discover::runner(host, source);
        let runs = match runner {
            Runner::Native => Runs::Native,
            Runner::Hookx => Runs::Hookx,
            Runner::Inactive | Runner::Off => Runs::Nobody,
        };
        let loading = |status, findings| Loading {
            host,
            runner: runs,
            status,
            findings,
        };
        if let Some(finding) = unloadable(source, host, runs) {
            return loading(Status::Never, vec![finding]);
        }
        if let Some((status, finding)) = not_running(source, host, runner) {
            return loading(status, vec![finding]);
        }
        // Found below the agent's folder variable, where the agent reads it: `hookx run`, which
        // reads no variable a project could set, reads below the home.
        if let Some(var) = discover::moved_from_hookx(self.ctx, host, source) {
            let below_home = match &source.location.pattern {
                crate::tables::Pattern::File(rel) => format!("~/{rel}"),
                _ => "the home".to_string(),
            };
            return loading(
                Status::Blocked,
                vec![Finding::new(
                    Level::Warning,
                    format!(
                        "found where `{}` says, as {} reads it; hookx run reads the user's {} hooks below the home ({below_home}), not there: under {} nobody runs these",
                        var.var,
                        source.dialect.def().display,
                        source.dialect.def().display,
                        host.def().display
                    ),
                    Some(format!(
                        "keep them in {below_home} too, for hookx to run them under other agents"
                    )),
                )],
            );
        }
        // Each finding from here on holds the file back.
        let mut status = Status::Fires;
        let mut findings = self.switched_off(source, host, runs);
        if !findings.is_empty() {
            status = Status::Blocked;
        }
        // Not holding it back by itself: hookx's route runs it (each rule says whether a route
        // is there).
        findings.extend(dropped_finding(source, host));
        let gated = self.gated(source, host, runs);
        if !gated.is_empty() {
            status = status.max(Status::Blocked);
        }
        findings.extend(gated);
        // Handlers the host skips unreviewed do not hold the file back: each rule says how
        // many of its own it skips, and is held back when that is all of them (attacks row 582:
        // one such handler had each rule of the file said blocked, rules Codex ran among them).
        if runs == Runs::Native && source.scope != Scope::Managed {
            findings.extend(unreviewed(self.ctx, host, source));
        }
        findings.extend(self.project_env(source, host));
        findings.extend(self.copied_by_project(source, host));
        loading(status, findings)
    }

    /// A handler of a file of the home that a project's file of the same agent holds too, with
    /// `async` or a shorter timeout, where the agent runs identical commands once per event
    /// (Claude Code 2.1.332, live: it took the project's `"async": true` and did not wait for
    /// the user's guard; attacks row 166). hookx cannot make the agent run the user's
    /// definition; it says so.
    fn copied_by_project(&self, source: &Source, host: Dialect) -> Vec<Finding> {
        if source.location.root == Root::Project
            || source.dialect != host
            || !host.config().merges_identical_handlers
        {
            return Vec::new();
        }
        let Some(doc) = source.document() else {
            return Vec::new();
        };
        use crate::model::{Handler, HandlerKind};
        let line = |h: &Handler| match &h.kind {
            HandlerKind::Command(c) => c.command.clone(),
            _ => None,
        };
        let is_async = |h: &Handler| match &h.kind {
            HandlerKind::Command(c) => c.is_async == Some(true),
            _ => false,
        };
        let weaker = |mine: &Handler, theirs: &Handler| {
            line(mine).is_some()
                && line(mine) == line(theirs)
                && ((is_async(theirs) && !is_async(mine))
                    || theirs
                        .timeout
                        .is_some_and(|t| mine.timeout.is_none_or(|m| t < m)))
        };
        let mut findings = Vec::new();
        for other in self
            .sources
            .iter()
            .filter(|s| s.location.root == Root::Project && s.dialect == host)
        {
            let Some(theirs) = other.document() else {
                continue;
            };
            let copied = doc.rules.iter().flat_map(|r| &r.handlers).any(|mine| {
                let mut handlers = theirs.rules.iter().flat_map(|r| &r.handlers);
                handlers.any(|h| weaker(mine, h))
            });
            if copied {
                findings.push(Finding::new(
                    Level::Warning,
                    format!(
                        "{} holds a command of this file's with `async` or a shorter timeout: {} \
                         runs identical commands once per event, and may take that definition \
                         (not waiting for this file's guard, or cutting it off)",
                        other.display,
                        host.def().display
                    ),
                    Some(format!(
                        "make this file's command differ from the project's (a comment at its \
                         end: `… # mine`), or remove the copy from {}",
                        other.display
                    )),
                ));
            }
        }
        findings
    }

    /// What the project's settings set for every hook `host` runs (Claude's `env`), read for
    /// a file of the home or the machine: a variable that changes which program a command
    /// runs, or what it loads, makes the user's own guard run the repository's code (attacks
    /// row 84, probed live). hookx names itself by its path in what it writes there; a bare
    /// command of the user's own is the user's to name, so it is said here.
    fn project_env(&self, source: &Source, host: Dialect) -> Vec<Finding> {
        if source.location.root == Root::Project {
            return Vec::new();
        }
        let display = host.def().display;
        let project_env = &host.config().project_env;
        let unset = match project_env.only_unset {
            true => " where it is unset",
            false => "",
        };
        let mut findings = self.env_file(source, host);
        let settings = self
            .sources
            .iter()
            .filter(|s| s.location.root == Root::Project && s.dialect == host)
            .filter_map(|s| {
                let doc = s.document()?;
                let key = doc.kind.session_env?;
                Some((s, key, doc.extra.get(key)?.as_object()?))
            })
            .flat_map(|(s, key, env)| {
                PROGRAM_VARS
                    .iter()
                    .flat_map(move |(pattern, what)| {
                        set_in(pattern, env).into_iter().map(move |var| (var, what))
                    })
                    .filter(|(var, _)| project_env.takes(var, true))
                    .map(move |(var, what)| {
                        Finding::new(
                            Level::Warning,
                            format!(
                                "{} sets `{var}` for every hook {display} runs{unset} (its \
                                 `{key}`), this file's too: {what}",
                                s.display
                            ),
                            Some(format!(
                                "{}remove `{var}` from {}'s `{key}`",
                                match var == "PATH" {
                                    true =>
                                        "name the programs of this file by their absolute \
                                             path, or ",
                                    false => "",
                                },
                                s.display
                            )),
                        )
                    })
            });
        findings.extend(settings);
        findings
    }

    /// [`Self::project_env`] for the project's variables files the host loads
    /// ([`crate::tables::ProjectEnv::files`]: Gemini's `.gemini/.env`, the first found from
    /// the project up, short of the home, the user's own; Cline's `.env` and `.env.local` in
    /// the project). One that sets the host's own folder variable (`CLINE_DIR`) moves the
    /// folder the host reads `source`, a file of the home, from: its hooks, a route of
    /// hookx's among them, do not run in this project (attacks row 787).
    fn env_file(&self, source: &Source, host: Dialect) -> Vec<Finding> {
        let project_env = &host.config().project_env;
        let read = |path: std::path::PathBuf| {
            let bytes = crate::read::head(&path, crate::read::MAX_FILE_BYTES).ok()?;
            Some((path, String::from_utf8_lossy(&bytes).into_owned()))
        };
        let here = |dir: &Path| -> Vec<std::path::PathBuf> {
            project_env.files.iter().map(|f| dir.join(f)).collect()
        };
        let found: Vec<(std::path::PathBuf, String)> = match project_env.search {
            // The first that exists, as the agent's `existsSync`; of a larger one, its start.
            EnvSearch::FirstUp => (self.ctx.project.ancestors())
                .take_while(|dir| *dir != self.ctx.home)
                .flat_map(here)
                .find(|path| path.exists())
                .and_then(read)
                .into_iter()
                .collect(),
            EnvSearch::EachHere => (here(&self.ctx.project).into_iter())
                .filter_map(read)
                .collect(),
        };
        let display = host.def().display;
        let when = project_env.when;
        let mut findings = Vec::new();
        for (path, text) in &found {
            let names = dotenv_names(text);
            let shown = self.ctx.display(path);
            findings.extend(
                (PROGRAM_VARS.iter())
                    .filter(|(var, _)| {
                        project_env.takes(var, false) && names.iter().any(|n| n == var)
                    })
                    .map(|(var, what)| {
                        Finding::new(
                            Level::Warning,
                            format!(
                                "{shown} sets `{var}` for every hook {display} runs where it \
                                 is unset ({when}), this file's too: {what}"
                            ),
                            Some(format!("remove `{var}` from {shown}")),
                        )
                    }),
            );
            if let Some(var) = host.def().home_var.as_ref()
                && names.contains(&var.var)
                && std::env::var_os(var.var).is_none_or(|v| v.is_empty())
                && source.dialect == host
                && source.location.root == Root::Home
                && source.path.starts_with(self.ctx.home.join(var.dir))
            {
                findings.push(Finding::new(
                    Level::Error,
                    format!(
                        "{shown} sets `{}` ({when}): {display} then reads its user hooks below \
                         the folder it names, not ~/{}: the hooks of this file (a route of \
                         hookx's too) do not run in this project",
                        var.var, var.dir
                    ),
                    Some(format!(
                        "remove `{0}` from {shown}, or set `{0}` in your own environment (to \
                         ~/{1}): {display} takes it from {shown} only where it is unset",
                        var.var, var.dir
                    )),
                ));
            }
        }
        findings
    }

    /// What turns the file's hooks off under `host`: the machine's policy (only policy hooks,
    /// or none at all) and the kill switch of the file's agent.
    fn switched_off(&self, source: &Source, host: Dialect, runs: Runs) -> Vec<Finding> {
        let mut findings = Vec::new();
        let display = host.def().display;
        if source.scope != Scope::Managed
            && let Some(policy) = discover::managed_only(self.sources, host)
        {
            let key = host
                .def()
                .managed
                .as_ref()
                .and_then(|m| m.only_managed_key)
                .unwrap_or_default();
            findings.push(Finding::new(
                Level::Warning,
                format!(
                    "dropped under {display}: {} in {} leaves only policy hooks",
                    only_managed(policy, key),
                    policy.display
                ),
                None,
            ));
        }
        if let Some(stop) = discover::stopped_by_policy(self.sources, host) {
            findings.push(Finding::new(
                Level::Warning,
                format!("off under {display}: {}", stop.why),
                stop.fix,
            ));
        }
        if source.scope != Scope::Managed
            && let Some(switch) = crate::dispatch::gates::host_switch(self.ctx, self.sources, host)
        {
            let name = host
                .def()
                .kill_switch
                .as_ref()
                .map_or(String::new(), |k| k.name());
            findings.push(Finding::new(
                Level::Warning,
                format!(
                    "off under {display}: {}",
                    crate::dispatch::gates::host_switch_why(switch, host)
                ),
                Some(format!("remove \"{name}\" from {}", switch.display)),
            ));
        }
        // The host's own switch, as the host reads it, turns off the files holding hookx's
        // routes (Claude's project `disableAllHooks` turns off the user's hooks too, attacks
        // row 85): the host never calls hookx, whatever hookx would run.
        if runs == Runs::Hookx
            && let Some(switch) = discover::hooks_disabled_by_agent(self.sources, host)
        {
            let routes: Vec<&Source> =
                crate::dispatch::gates::route_files(self.sources, host).collect();
            if !routes.is_empty() && routes.iter().all(|r| discover::switched_off(switch, r)) {
                let kill = host.def().kill_switch.as_ref();
                let set = kill.map_or(String::new(), |k| k.json());
                let name = kill.map_or(String::new(), |k| k.name());
                findings.push(Finding::new(
                    Level::Warning,
                    format!(
                        "off under {display}: {set} in {} turns off every hook {display} runs, \
                         hookx's route in {} too",
                        switch.display,
                        routes
                            .iter()
                            .map(|r| r.display.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    (switch.scope != Scope::Managed)
                        .then(|| format!("remove \"{name}\" from {}", switch.display)),
                ));
            }
        }
        // Every file holding hookx's routes is one the host refuses whole (a Claude setting of
        // the wrong type, attacks row 185): the host never calls hookx.
        if runs == Runs::Hookx
            && let Some((first, why)) =
                crate::dispatch::gates::routes_refused_whole(self.sources, host)
        {
            findings.push(Finding::new(
                Level::Warning,
                format!("off under {display}: {why}"),
                Some(format!("hookx validate {}", shell_path(&first.display))),
            ));
        }
        // The agent obeys every settings file; hookx only trusted ones.
        let switch = match runs {
            Runs::Native => discover::hooks_disabled_by_agent(self.sources, source.dialect),
            _ => discover::hooks_disabled(self.sources, source.dialect, self.store),
        };
        if let Some(switch) = switch
            && discover::switched_off(switch, source)
        {
            let kill = source.dialect.def().kill_switch.as_ref();
            let name = kill.map_or(String::new(), |k| k.name());
            let set = kill.map_or(String::new(), |k| k.json());
            let fix = (switch.scope != Scope::Managed)
                .then(|| format!("remove \"{name}\" from {}", switch.display));
            findings.push(Finding::new(
                Level::Warning,
                format!("off: {set} in {} turns its hooks off", switch.display),
                fix,
            ));
        }
        findings
    }

    /// The gate the file must pass under `host` for its runner: the folder trust and review
    /// records of a host that reads it itself, hookx's trust for a file hookx runs.
    fn gated(&self, source: &Source, host: Dialect, runs: Runs) -> Vec<Finding> {
        let mut findings = Vec::new();
        let display = host.def().display;
        match runs {
            Runs::Native => {
                // Attacks row 2022: in a linked worktree Codex loads the main checkout's file.
                if let Some((there, same, main)) =
                    crate::discover::loaded_instead(&self.ctx.project, host, source)
                {
                    let (level, bytes) = match same {
                        true => (Level::Note, "the same bytes as this file"),
                        false => (Level::Warning, "other bytes: this file's rules do not run"),
                    };
                    findings.push(Finding::new(
                        level,
                        format!(
                            "{display} started in this linked worktree reads the main \
                             checkout's {} instead, {bytes}",
                            there.display()
                        ),
                        (!same).then(|| {
                            format!(
                                "hookx list --project {} --host {} shows what it runs",
                                crate::shell::shell_quote(&main.display().to_string()),
                                host.name()
                            )
                        }),
                    ));
                }
                if let Some(gate) = host.def().folder_trust.as_ref()
                    && gate.locations.contains(&source.location.id)
                    && !crate::dispatch::gates::folder_trusted(self.ctx, host, gate)
                {
                    findings.push(Finding::new(
                        Level::Warning,
                        format!(
                            "{display} reads it only in a trusted folder, and this project is not in {}: {}",
                            crate::discover::folder_record(self.ctx, host, gate),
                            gate.untrusted
                        ),
                        Some(gate.fix.to_string()),
                    ));
                }
            }
            Runs::Hookx => {
                let state = source.withheld.unwrap_or_else(|| self.store.state(source));
                if state != TrustState::Trusted {
                    findings.push(Finding::new(
                        Level::Warning,
                        format!(
                            "{display} does not read it; hookx runs it only once trusted, and it is {}",
                            state.why_not()
                        ),
                        Some(format!("hookx trust {}", shell_path(&source.display))),
                    ));
                }
            }
            Runs::Nobody => {}
        }
        findings
    }
}

/// Why `host` (or hookx under it) loads none of `source`'s hooks, whoever `runs` it: the
/// policy file is refused, the file does not parse, or a malformed entry makes its agent skip it.
fn unloadable(source: &Source, host: Dialect, runs: Runs) -> Option<Finding> {
    let display = host.def().display;
    if let Some(why) = &source.refused_policy {
        let said = match why.rule {
            crate::discover::Owners::Root => format!(
                "{} skips this policy file, as {why} (someone other than root could have written it): hookx does not read it either, and none of its hooks runs",
                source.dialect.def().display
            ),
            crate::discover::Owners::RootOrYou => format!(
                "hookx does not read this policy file, as {why} (an account other than root and yours could have written it, and a policy file runs without `hookx trust`): none of its hooks runs through hookx"
            ),
        };
        return Some(Finding::new(Level::Error, said, Some(why.fix())));
    }
    if let Some(error) = source.error_line()
        && source.withheld.is_none()
    {
        let who = match runs {
            Runs::Hookx => "hookx".to_string(),
            _ => display.to_string(),
        };
        // A switch file the host's own, looser reader may take: its keys count as listed.
        if !source.unparsed_keys.is_empty() {
            return Some(Finding::new(
                Level::Warning,
                format!(
                    "does not parse for hookx ({error}), but {display}'s own reader takes more \
                     than JSON and may read it: hookx counts each of the {} keys in it as \
                     listed, so the handlers they name run through hookx (and by {display} too, \
                     if it ignores the file)",
                    source.unparsed_keys.len()
                ),
                Some(format!("hookx validate {}", shell_path(&source.display))),
            ));
        }
        // Comments its agent does not accept are all that is wrong with it.
        let comments = crate::read::text(&source.path, crate::read::MAX_FILE_BYTES)
            .is_ok_and(|text| crate::config::syntax::is_object_with_comments(&text));
        let why = match comments {
            true => format!(
                "has comments, and {} reads it as strict JSON ({error}): {who} loads none of its hooks",
                source.dialect.def().product
            ),
            false => format!("does not parse ({error}): {who} loads none of its hooks"),
        };
        return Some(Finding::new(
            Level::Error,
            why,
            Some(format!("hookx validate {}", shell_path(&source.display))),
        ));
    }
    if runs == Runs::Native
        && host == source.dialect
        && source
            .document
            .as_ref()
            .is_ok_and(|d| d.wrapped && d.kind.wrapper_ignored && !d.rules.is_empty())
    {
        return Some(Finding::new(
            Level::Error,
            format!(
                "{display} runs none of its hooks: it reads this file's events at the top level, and takes the `hooks` wrapper for an event it does not have ({})",
                host.default_flavor()
                    .tables()
                    .verified_with
                    .unwrap_or("documents only")
            ),
            Some(format!(
                "move the events out of the `hooks` wrapper in {}",
                source.display
            )),
        ));
    }
    if runs == Runs::Native
        && host == source.dialect
        && let Some((event, at)) = skipping_problem(source)
    {
        return Some(Finding::new(
            Level::Error,
            format!(
                "{display} skips this whole file: its malformed `{event}` entry ({at}) may guard what sits beside it ({})",
                host.default_flavor()
                    .tables()
                    .verified_with
                    .unwrap_or("documents only")
            ),
            Some(format!("hookx validate {}", shell_path(&source.display))),
        ));
    }
    // The reader's own errors are said above; what else the agent refuses whole, here.
    if runs == Runs::Native
        && host == source.dialect
        && let Some(d) = crate::dispatch::gates::refused_whole(source)
    {
        return Some(Finding::new(
            Level::Error,
            format!("{}:{}: {}", d.line, d.col, d.message),
            Some(format!("hookx validate {}", shell_path(&source.display))),
        ));
    }
    None
}

/// The entry for which `host` drops `source` whole ([`Source::dropped_by`]): where it is, that
/// only hookx's route runs the file's rules under `host`, and the fix.
pub(super) fn dropped_finding(source: &Source, host: Dialect) -> Option<Finding> {
    let dropped = source.dropped_by(host)?;
    Some(Finding::new(
        Level::Warning,
        format!(
            "{}: only hookx's route runs its rules under {}, once hookx trusts the file; \
             where no route brings their event, they run nowhere",
            dropped.why(&source.display),
            host.def().display
        ),
        Some(format!(
            "{}; or `hookx install --host {host}`, then `hookx trust {}`",
            dropped.fix_at(),
            crate::shell::shell_quote(&source.path.display().to_string())
        )),
    ))
}

/// Why nobody runs `source`'s hooks under `host` though they load (`runner`): hooks of a scope
/// that is not active, or of a plugin not installed or not enabled; with the status that gives.
fn not_running(source: &Source, host: Dialect, runner: Runner) -> Option<(Status, Finding)> {
    let display = host.def().display;
    match runner {
        Runner::Inactive => Some((
            Status::Never,
            Finding::new(
                Level::Note,
                format!(
                    "{} hooks apply only while their {} is active in {}: nobody runs them under {display}",
                    source.scope.name(),
                    source.scope.name(),
                    source.dialect.def().display
                ),
                None,
            ),
        )),
        Runner::Off => {
            let standings = source.plugin.unwrap_or(crate::plugins::Standings {
                agent: crate::plugins::Standing::Disabled,
                trusted: crate::plugins::Standing::Disabled,
            });
            let standing = match discover::is_native(host, source.location) {
                true => standings.agent,
                false => standings.trusted,
            };
            // Turned off for this folder by the agent's own switch (Gemini's extensions).
            if let (crate::plugins::Standing::OffHere, Some(switch)) =
                (standing, source.dialect.config().extension_switch)
            {
                return Some((
                    Status::Blocked,
                    Finding::new(
                        Level::Warning,
                        format!(
                            "extension turned off for this folder in ~/{}: nobody runs its hooks \
                             under {display}",
                            switch.file
                        ),
                        Some(format!("{}, if they should run", switch.enable)),
                    ),
                ));
            }
            let why = match standing {
                crate::plugins::Standing::NotInstalled => "not installed (downloaded only)",
                crate::plugins::Standing::Disabled
                    if discover::is_native(host, source.location) =>
                {
                    "installed but not enabled"
                }
                _ => "not enabled in the settings hookx trusts",
            };
            let enabled_key = source
                .dialect
                .config()
                .plugins
                .map_or("", |p| p.enabled_key);
            // The agent loads it, hookx's view does not: the enabling settings are untrusted.
            let fix = match standings.agent == crate::plugins::Standing::Loaded {
                true => "review the settings that enable it, then `hookx trust`".to_string(),
                false => format!(
                    "install it and set `\"{enabled_key}\": {{\"PLUGIN@MARKETPLACE\": true}}` in the {} user settings",
                    source.dialect.def().display
                ),
            };
            Some((
                Status::Blocked,
                Finding::new(
                    Level::Warning,
                    format!("plugin {why}: nobody runs its hooks under {display}"),
                    Some(fix),
                ),
            ))
        }
        Runner::Native | Runner::Hookx => None,
    }
}

/// A malformed entry that makes the file's agent skip the whole file: its event and position.
fn skipping_problem(source: &Source) -> Option<(EventKind, String)> {
    let skips = source.dialect.def().malformed_entry_skips_file;
    source
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter(|d| crate::config::strict_load::agent_refuses(source.dialect, d))
        .find_map(|d| {
            let pointer = d.pointer.as_deref()?;
            let key = pointer
                .strip_prefix("/hooks/")
                .unwrap_or(pointer.trim_start_matches('/'))
                .split('/')
                .next()?;
            let kind = source
                .dialect
                .flavors()
                .find_map(|f| f.tables().event_kind(key))?;
            skips
                .contains(&kind)
                .then(|| (kind, format!("{}:{}", d.line, d.col)))
        })
}

/// For an agent that runs only the handlers its user reviewed (`DialectDef::route_trust`), the
/// handlers of `source` it skips because their review record is missing or hashes other
/// content; `None` when it runs them all.
fn unreviewed(ctx: &Context, host: Dialect, source: &Source) -> Option<Finding> {
    let review = host.def().route_trust.as_ref()?;
    let src = SourceFile::read(&source.path).ok()?;
    let value = match crate::config::syntax::Format::of(&src.path) {
        crate::config::syntax::Format::Toml => crate::config::syntax::parse_toml(&src).ok()?,
        crate::config::syntax::Format::Json => {
            let syntax = crate::config::read::json_syntax(&src, source.dialect);
            crate::config::syntax::parse_json_as(&src, syntax).ok()?
        }
        crate::config::syntax::Format::Frontmatter => return None,
    };
    let records_file = ctx.agent_file(host, review.file);
    let text = crate::read::text(&records_file, crate::read::MAX_FILE_BYTES).unwrap_or_default();
    // The file Codex keys its reviews by: the main checkout's in a linked worktree (row 2024).
    let path = crate::discover::loaded_instead(&ctx.project, host, source)
        .map_or(source.path.clone(), |(there, _, _)| there);
    let named = crate::route::review_key_path(&ctx.home, host, &path);
    let records = (review.records)(&named, &value, &|_| true);
    let (mut missing, mut stale, mut off) = (0, 0, 0);
    for (key, value) in &records {
        match review.recorded(&text, key) {
            Some(recorded) if recorded == *value => {}
            Some(_) => stale += 1,
            None if review.turned_off(&text, key) => off += 1,
            None => missing += 1,
        }
    }
    if missing + stale + off == 0 {
        return None;
    }
    let display = host.def().display;
    let turned_off = format!("turned off in {display} itself");
    let why: Vec<String> = [
        (missing, "never reviewed"),
        (stale, "changed since review"),
        (off, turned_off.as_str()),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    // A handler the user turned off stays off: the fix is for the others.
    let fix = match missing + stale {
        0 => format!("turn them on again in {display} itself, if they should run"),
        _ => format!("review and trust them in {display} itself"),
    };
    Some(Finding::new(
        Level::Warning,
        format!(
            "{display} runs only handlers its user reviewed and left on (records in {}), and silently skips {} of the {} here: {}",
            ctx.display(&records_file),
            missing + stale + off,
            records.len(),
            why.join(", ")
        ),
        Some(fix),
    ))
}

/// The names npm `dotenv`'s `parse` sets from `text` (Gemini 0.61.0 and Qwen 0.24.4 read their
/// variables files with it, decoded lossily), line by line as its `LINE` pattern takes them:
/// `[export ]NAME=` or `NAME: ` (`[\w.-]+`), after its `\r\n?` → `\n` (a lone CR ends a line).
/// The pattern itself, run by a backtracking engine, took a minute over a 16 MiB file; a
/// line inside a quoted value over several lines may count too (a warning too many).
fn dotenv_names(text: &str) -> Vec<&str> {
    let name_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    text.split(['\n', '\r'])
        .filter_map(|line| {
            let line = line.trim_start();
            let line = match line.strip_prefix("export") {
                Some(rest) if rest.starts_with(char::is_whitespace) => rest.trim_start(),
                _ => line,
            };
            let end = line.find(|c| !name_char(c)).unwrap_or(line.len());
            let (name, rest) = line.split_at(end);
            let set = rest.trim_start().starts_with('=')
                || rest
                    .strip_prefix(':')
                    .is_some_and(|r| r.is_empty() || r.starts_with(char::is_whitespace));
            (!name.is_empty() && set).then_some(name)
        })
        .collect()
}
