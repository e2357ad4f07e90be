//! Whether a rule fires under a host: its event (does the host have it, does a route bring it
//! to hookx), its matcher, its timeouts, and what its handlers read of the payload.

use super::matcher::{alias_note, foreign_name_finding, hashed_name_finding, matcher_finding};
use super::{Doctor, Finding, Level, Loading, Runs, Status, Verdict};
use crate::config::walk::did_you_mean;
use crate::discover::{self, Runner, Source};
use crate::model::{EventKind, Handler};
use crate::route::InstallScope;
use crate::tables::HandlerField;
use crate::tables::Rule;
use crate::tables::{Dialect, Flavor};

/// Timeouts at or above this many seconds were most likely written as milliseconds.
const MILLISECONDS_LIKELY: u64 = 1000;

impl Doctor<'_> {
    /// A file `host` reads itself whose rule on `event` has a `matcher` that is not a string,
    /// where that stops every hook of the event (`ConfigSpec::matcher_not_string_stops_event`),
    /// with where the matcher is.
    fn event_stopper(&self, host: Dialect, event: &EventKind) -> Option<(&Source, usize, usize)> {
        if !host.config().matcher_not_string_stops_event {
            return None;
        }
        self.sources
            .iter()
            .filter(|s| s.dialect == host && discover::runner(host, s) == Runner::Native)
            .find_map(|s| {
                let d = s.diagnostics.iter().find(|d| {
                    d.message.starts_with("`matcher` must be a string")
                        && d.pointer.as_deref().is_some_and(|p| {
                            let mut parts = p.trim_start_matches('/').split('/');
                            let key = match parts.next() {
                                Some("hooks") => parts.next(),
                                first => first,
                            };
                            key.and_then(|k| {
                                s.dialect.flavors().find_map(|f| f.tables().event_kind(k))
                            })
                            .is_some_and(|k| &k == event)
                        })
                })?;
                Some((s, d.line, d.col))
            })
    }

    /// `rule` of `source` under the host `loading` is about.
    pub(super) fn verdict(&self, source: &Source, rule: &Rule, loading: &Loading) -> Verdict {
        let host = loading.host;
        // The host reads the file, but its own setting leaves every handler of the rule to
        // hookx, which runs them as written (Copilot's `disabledHooks`).
        let keys = discover::switched_keys(self.sources, host);
        let left_to_hookx = !rule.handlers.is_empty()
            && rule
                .handlers
                .iter()
                .all(|h| discover::is_switched_off(host, &keys, source, rule, h));
        let runner = match left_to_hookx {
            true => Runs::Hookx,
            false => loading.runner,
        };
        let planned = self.planned_runner(source, rule, host);
        let mut verdict = Verdict {
            host,
            status: loading.status,
            runner,
            payload: None,
            unrouted: Vec::new(),
            planned: planned.map(super::runner_text),
            run_elsewhere: planned
                .is_some_and(|r| !matches!(r, crate::plan::Runner::Nobody { .. })),
            findings: Vec::new(),
        };
        if loading.status == Status::Never {
            return verdict;
        }
        // Handlers the user listed off by hand run nowhere, as the user wanted.
        let off_by_user = rule
            .handlers
            .iter()
            .filter(|h| {
                discover::host_skips(host, &keys, source, rule, h)
                    && !discover::is_switched_off(host, &keys, source, rule, h)
            })
            .count();
        // Handlers of its own file the host's own list turns off (Gemini's
        // `hooksConfig.disabled`): doctor said they fire (attacks row 486).
        let listed = match loading.runner == Runs::Native && !left_to_hookx {
            true => crate::dispatch::simulate::listed_off(self.sources, host),
            false => Vec::new(),
        };
        let listed_off = (rule.handlers.iter())
            .filter(|h| crate::dispatch::simulate::is_listed_off(host, &listed, h))
            .count();
        if listed_off > 0
            && let Some(list) = &host.def().disabled_handlers
        {
            let said = format!(
                "{listed_off} of its {} handlers {} listed in `{}.{}` (by `{}`, else command): {} \
                 runs {} nowhere",
                rule.handlers.len(),
                if listed_off == 1 { "is" } else { "are" },
                list.key,
                list.inner,
                list.label_key,
                host.def().display,
                if listed_off == 1 { "it" } else { "them" },
            );
            verdict.findings.push(Finding::new(Level::Note, said, None));
            if listed_off == rule.handlers.len() {
                // Off as the user meant it: not a rule that fires nowhere by a fault.
                verdict.status = Status::Off;
                verdict.unrouted.clear();
                return verdict;
            }
        }
        if off_by_user > 0 {
            let setting = host.config().foreign_switches.iter().find_map(|s| s.hooks);
            let said = format!(
                "{off_by_user} of its {} handlers {} listed in `{}` of ~/{} by you, not by hookx: \
                 neither {} nor hookx runs {}",
                rule.handlers.len(),
                if off_by_user == 1 { "is" } else { "are" },
                setting.map_or("", |s| s.key),
                setting.map_or("", |s| s.file),
                host.def().display,
                if off_by_user == 1 { "it" } else { "them" },
            );
            verdict.findings.push(Finding::new(Level::Note, said, None));
            if off_by_user == rule.handlers.len() {
                verdict.status = Status::Never;
                verdict.unrouted.clear();
                return verdict;
            }
        }
        // Handlers of its own file the host skips as never reviewed or changed since (Codex's
        // `[hooks.state]`, counted by the file's warning): the rule is held back only when all
        // of them are (attacks row 582).
        if loading.runner == Runs::Native
            && !left_to_hookx
            && let Some(review) = crate::dispatch::gates::Review::of(self.ctx, host, source)
        {
            let n = rule.handlers.len();
            let skipped = (0..n).filter(|&i| !review.reviewed(rule, i)).count();
            if skipped == n && n > 0 {
                verdict.status = verdict.status.max(Status::Blocked);
            } else if skipped > 0 {
                let display = host.def().display;
                let said = format!(
                    "{skipped} of its {n} handlers {} not reviewed in {display} as {} now: \
                     {display} skips {} and runs the others",
                    if skipped == 1 { "is" } else { "are" },
                    if skipped == 1 { "it is" } else { "they are" },
                    if skipped == 1 { "it" } else { "them" },
                );
                verdict.findings.push(Finding::new(Level::Note, said, None));
            }
            // A profile that turns a handler off (attacks row 642): the agent started with it
            // skips the handler, and where it is a copy, hookx's route runs its original.
            let option = host
                .def()
                .route_trust
                .as_ref()
                .and_then(|r| r.layer)
                .and_then(|l| l.options.first());
            for i in 0..rule.handlers.len() {
                for name in review.layers_turning_off(rule, i) {
                    verdict.findings.push(Finding::new(
                        Level::Note,
                        format!(
                            "{} started with `{} {name}` skips handler {}: that layer turns it \
                             off; where it is a copy, hookx's route runs its original then",
                            host.def().display,
                            option.copied().unwrap_or_default(),
                            i + 1
                        ),
                        None,
                    ));
                }
            }
        }
        if let Some((stopper, line, col)) = self.event_stopper(host, &rule.event) {
            let display = host.def().display;
            verdict.status = verdict.status.max(Status::Blocked);
            verdict.findings.push(Finding::new(
                Level::Warning,
                format!(
                    "off under {display}: {} holds a `matcher` that is not a string at \
                     {line}:{col}, and {display} then runs no {} hook at all, this one and \
                     hookx's route included",
                    stopper.display, rule.event
                ),
                Some(format!("make that matcher a string in {}", stopper.display)),
            ));
        }
        // The flavour the rule is matched and fed as: the host reads a foreign file its own
        // way (also a plugin it would read once enabled); hookx runs a rule in its own flavour.
        let native = loading.runner == Runs::Native && !left_to_hookx;
        if left_to_hookx {
            verdict.findings.push(Finding::new(
                Level::Note,
                match &verdict.planned {
                    None => format!(
                        "{} reads it itself but leaves it to hookx by its own setting (`hookx \
                         install --host {host}` wrote it): hookx runs it, with the {} payload \
                         it was written for",
                        host.def().display,
                        rule.flavor.name()
                    ),
                    Some(runner) => format!(
                        "{} reads it itself but leaves it to hookx by its own setting (`hookx \
                         install --host {host}` wrote it); the rule's runner is {runner}",
                        host.def().display,
                    ),
                },
                None,
            ));
            let others = discover::switched_by_installs(
                self.sources,
                host,
                [source],
                &self.ctx.project,
                discover::Installs::Others,
                std::iter::empty(),
            );
            if let Some((_, owners)) = others.first() {
                let trusted = self.store.state(source) == crate::trust::TrustState::Trusted;
                verdict.findings.push(Finding::new(
                    if trusted { Level::Note } else { Level::Warning },
                    format!(
                        "the setting names handlers by their content: `hookx install --host \
                         {host}` in {} listed a byte-identical one, so {} runs it here no more; \
                         hookx's user route does{}",
                        owners.join(", "),
                        host.def().display,
                        match trusted {
                            true => String::new(),
                            false => format!(
                                ", once hookx trusts this file: until `hookx trust {}` (or that \
                                 install is undone) hookx denies the tool calls it guards and \
                                 runs none of its handlers",
                                crate::shell::shell_quote(&source.path.display().to_string()),
                            ),
                        }
                    ),
                    None,
                ));
            }
        }
        let flavor = match native {
            true => host.native_flavor(rule.flavor),
            false => rule.flavor,
        };
        let never = |verdict: &mut Verdict, finding: Finding| {
            verdict.findings.push(finding);
            verdict.status = Status::Never;
            // No route would make it fire.
            verdict.unrouted.clear();
        };
        let display = host.def().display;
        let event = &rule.event;
        if source.dialect.config().is_disabled(rule) {
            verdict.findings.push(Finding::new(
                Level::Note,
                "the rule is turned off (`enabled: false`): the agent never runs it, nor does hookx",
                None,
            ));
            verdict.status = Status::Off;
            return verdict;
        }
        // An event only the file's agent fires (Kiro's `PostFileSave`): there it fires as the
        // agent reads it; under any other host, never.
        let agent_only = match event {
            EventKind::Other(key) => source.dialect.config().has_other_event(key),
            _ => false,
        };
        if agent_only && native {
            let list = source.dialect.config().rule_list;
            if let EventKind::Other(key) = event
                && list.is_some_and(|l| l.by_hand.contains(&key.as_str()))
            {
                verdict.findings.push(Finding::new(
                    Level::Note,
                    format!(
                        "`{key}` fires only when the user starts it in {display}: no event of a \
                         session fires it, and it cannot block"
                    ),
                    None,
                ));
            }
            return verdict;
        }
        // The plan's "nobody" for a key the host never fires says what the finding below
        // says: said once.
        if let EventKind::Other(key) = event
            && verdict.planned.as_deref().is_some_and(|p| {
                p.strip_prefix("nobody (").and_then(|p| p.strip_suffix(')'))
                    == Some(crate::plan::unfired(host, key).as_str())
            })
        {
            verdict.planned = None;
        }
        if agent_only {
            never(
                &mut verdict,
                Finding::new(
                    Level::Note,
                    format!(
                        "`{event}` is an event only {} fires: {display} has none",
                        source.dialect.def().display
                    ),
                    None,
                ),
            );
            return verdict;
        }
        if let EventKind::Other(key) = event {
            let fix = closest_event(key, rule.flavor)
                .or_else(|| agent_only_events(source.dialect).find(|e| e.eq_ignore_ascii_case(key)))
                .map(|name| format!("rename the key `{key}` to `{name}`"));
            never(
                &mut verdict,
                Finding::new(
                    Level::Error,
                    // Of an agent no client here runs, its documents only: they name no such
                    // event, and what it does with one is not known.
                    match rule.flavor.tables().verified_with {
                        Some(_) => format!(
                            "`{key}` is no {} event: the agent skips it (at most a debug-log line)",
                            rule.flavor.name()
                        ),
                        None => format!(
                            "`{key}` is no {} event its documents name: take it as never firing \
                             (what the agent does with it is not known: no client checked)",
                            rule.flavor.name()
                        ),
                    },
                    fix,
                ),
            );
            return verdict;
        }
        if let Some(finding) = unsent(rule, host, (flavor, native), runner) {
            never(&mut verdict, finding);
            return verdict;
        }
        // A rule that fires for no tool category gets the matcher's finding below instead.
        if runner == Runs::Hookx {
            let names = route_names(host, rule);
            if !names.is_empty() && !self.routed(host, &rule.event, &names) {
                verdict.status = verdict.status.max(Status::Blocked);
                match self.unrunnable_route(rule, host, &names) {
                    Some(finding) => verdict.findings.push(finding),
                    None => verdict.unrouted = names,
                }
            } else if verdict.status < Status::Blocked
                && let on = routed_on(host, rule)
                && let Some(why) = self
                    .uncalled
                    .borrow_mut()
                    .entry((host, on.clone()))
                    .or_insert_with(|| {
                        crate::dispatch::simulate::uncalled(self.ctx, self.sources, host, &on)
                    })
                    .clone()
            {
                // Every route there is one the host holds back: turned off in its own list
                // (attacks rows 332, 334), not reviewed or turned off in Codex (row 335).
                verdict.status = Status::Blocked;
                verdict.findings.push(Finding::new(
                    Level::Warning,
                    format!("off under {display}: {why}"),
                    None,
                ));
            }
        }
        if let Some(finding) = matcher_finding(rule, flavor, host) {
            never(&mut verdict, finding);
            return verdict;
        }
        if let Some(finding) = alias_note(rule, flavor) {
            verdict.findings.push(finding);
        }
        if let Some(finding) = foreign_name_finding(rule, flavor) {
            verdict.findings.push(finding);
        }
        if let Some(finding) = hashed_name_finding(rule, flavor, host) {
            verdict.findings.push(finding);
        }
        if let Some(finding) = unseen_event_note(rule, host) {
            verdict.findings.push(finding);
        }
        if let Some(finding) = cadence_note(rule, host) {
            verdict.findings.push(finding);
        }
        for (i, handler) in rule.handlers.iter().enumerate() {
            if let Some(finding) = timeout_finding(handler, flavor) {
                verdict.findings.push(finding);
            }
            // Attacks row 2020: a block its own agent ignores, which hookx reads as a deny.
            if let Some(why) =
                crate::commands::unread_block::note(rule, handler, &[&self.ctx.project])
            {
                verdict.findings.push(Finding::new(
                    Level::Note,
                    why,
                    Some(crate::commands::unread_block::FIX.to_string()),
                ));
            }
            if runner == Runs::Hookx
                && let Some(finding) =
                    outlasts_the_route(handler, i, rule, host, self.written_route(host, rule))
            {
                verdict.findings.push(finding);
            }
            // The host runs the line itself: where hookx is missing, the guard answers it.
            if native {
                verdict
                    .findings
                    .extend(outdated_guard_finding(handler, i, rule.flavor, host));
            }
        }
        // A `hookx exec` copy of a rule the host runs from a file of its own stands aside for
        // it (attacks row 1100): what runs is that file's rule, once.
        let plan = self.plans.iter().find(|p| p.host == host);
        let aside = plan.and_then(|p| {
            let files: Vec<_> = (0..rule.handlers.len())
                .map(|i| p.stands_aside(source, rule, i))
                .collect::<Option<_>>()?;
            files.first().copied()
        });
        if let Some(file) = aside.filter(|_| native) {
            verdict.findings.push(Finding::new(
                Level::Note,
                format!(
                    "{display} runs this copy itself, and it stands aside (`hookx exec`) where \
                     {display} runs its rule from {}: the rule runs once",
                    self.ctx.display(file)
                ),
                None,
            ));
        }
        // The host runs a foreign file itself with its own payload (Copilot and Claude's
        // files): hookx cannot stop that run, and a run of its own would be a second one.
        else if native && flavor != rule.flavor {
            verdict.findings.push(Finding::new(
                Level::Warning,
                format!(
                    "{display} runs it itself with its {} payload, not the {} one it was \
                     written for ({}); hookx does not run it as well, or it would run twice \
                     (`hookx list --host {host}` shows who runs each rule)",
                    flavor.name(),
                    rule.flavor.name(),
                    crate::plan::switch_sentence(host, source.dialect)
                ),
                None,
            ));
        }
        for i in 0..rule.handlers.len() {
            if let Some(other) = self
                .likely_copies
                .get(&crate::plan::copy_key(source, rule, i))
            {
                // The host's own setting keys both as one handler, left to hookx: it runs one.
                let one = left_to_hookx
                    && self
                        .plans
                        .iter()
                        .find(|p| p.host == host)
                        .is_some_and(|p| p.one_rule_with(source, rule, i, other));
                verdict.findings.push(Finding::new(
                    Level::Note,
                    match one {
                        true => format!(
                            "the same handler as one in {other} to {}, whose setting leaves \
                             both to hookx: hookx runs it once per event",
                            host.def().display
                        ),
                        false => format!(
                            "likely a copy made by hand of a rule in {other} (the same event \
                             and command, no record of `convert`'s): hookx treats it as a rule \
                             of its own, so both run where both are read"
                        ),
                    },
                    None,
                ));
            }
        }
        // A copy the host runs beside its rule's runner (attacks row 627: one calling the path
        // hookx had before it moved, which does not stand in for its rule).
        if let Some(plan) = self.plans.iter().find(|p| p.host == host) {
            // hookx runs the rule only where its route for the event is there.
            let runs = |runner: &crate::plan::Runner| match runner {
                crate::plan::Runner::Hookx { .. } => {
                    self.routed(host, &rule.event, &route_names(host, rule))
                }
                _ => true,
            };
            for (i, handler) in rule.handlers.iter().enumerate() {
                if let Some(runner) = plan.runs_beside(source, rule, i).filter(|r| runs(r)) {
                    verdict
                        .findings
                        .push(self.beside_finding((source, handler), runner, host));
                }
            }
        }
        // A handler `hookx exec --as D` wraps gets D's payload, whoever runs the entry.
        verdict.payload = Some(
            super::payload::wrapped_flavor(rule)
                .unwrap_or(flavor)
                .name(),
        );
        verdict
            .findings
            .extend(self.rule_payload_findings(source, rule, host, (flavor, native)));
        verdict
    }

    /// A route of `host` for `names` that is there but cannot run (the hookx it names is gone):
    /// it exits 127, which the host reads as it reads any failed hook ([`failed_hook`]).
    /// `None` when there is no route.
    fn unrunnable_route(&self, rule: &Rule, host: Dialect, names: &[&str]) -> Option<Finding> {
        if !self.routed_by(host, &rule.event, names, &crate::route::is_hookx_handler) {
            return None;
        }
        Some(Finding::new(
            Level::Warning,
            format!(
                "{}'s hookx route for `{}` cannot run: the hookx it names is not there, empty \
                 or not executable, so nobody calls hookx for it; {} (an empty one exits 0, \
                 saying nothing)",
                host.def().display,
                names.join("`, `"),
                failed_hook(host.default_flavor(), &rule.event)
            ),
            Some(self.reinstall(host, names)),
        ))
    }

    /// The installs that re-point `host`'s routes for `names` in the scopes where they cannot
    /// run: a user route's in the user's scope, which a project install leaves as it is
    /// (attacks row 1086).
    fn reinstall(&self, host: Dialect, names: &[&str]) -> String {
        let (home, project) = (&self.ctx.home, &self.ctx.project);
        let fixes: Vec<String> = [
            (InstallScope::Project, ""),
            (InstallScope::User, " --scope user"),
        ]
        .into_iter()
        .filter(|(scope, _)| {
            crate::route::unrunnable_route_events(home, project, host, *scope)
                .iter()
                .any(|event| names.contains(event))
        })
        .map(|(_, scope)| format!("hookx install --host {host}{scope}"))
        .collect();
        match fixes.is_empty() {
            true => format!("hookx install --host {host}"),
            false => fixes.join("; "),
        }
    }

    /// The routes in files `host` reads itself, on an event where the host reads a failed route
    /// as a block ([`crate::route::failed_route_blocks`]), without the test of their hookx a
    /// route carries there now ([`crate::route::lacks_blocking_test`]). One that cannot run (the
    /// hookx it names is gone) exits 127 and every call of the event is refused, whatever
    /// another route of hookx's answers (Copilot CLI 1.0.102, attacks rows 604, 641; Gemini CLI
    /// 0.61.0, row 1143). One that runs was written by an older hookx and refuses them where
    /// that hookx is missing: a teammate's clone. Where a failed hook is a non-blocking error
    /// the other route runs the rules, and [`Self::unrunnable_route`] speaks when none can.
    pub(super) fn denying_routes(&self, host: Dialect) -> Vec<Finding> {
        let mut found = Vec::new();
        for source in self
            .sources
            .iter()
            .filter(|s| discover::runner(host, s) == Runner::Native)
        {
            for rule in source.document().into_iter().flat_map(|d| &d.rules) {
                let tables = rule.flavor.tables();
                let name = tables.event_name(&rule.event).unwrap_or_default();
                let said = (source.display.as_str(), name);
                // A user route's guard denies where its hookx is gone, saying why (`route::Gone`).
                let denies_gone = source.scope == crate::tables::Scope::User
                    && tables.protocol.failure_denies.contains(&rule.event);
                let untested = rule
                    .handlers
                    .iter()
                    .filter(|h| {
                        crate::route::lacks_blocking_test(h, host, name)
                            || (denies_gone
                                && crate::route::is_hookx_handler(h)
                                && !crate::route::hookx_handler_can_run(h))
                    })
                    .collect::<Vec<_>>();
                if untested.is_empty() || found.iter().any(|(s, _)| *s == said) {
                    continue;
                }
                let scope = match source.scope {
                    crate::tables::Scope::User => " --scope user",
                    _ => "",
                };
                let failed = failed_hook(rule.flavor, &rule.event);
                let says = match untested
                    .iter()
                    .all(|h| crate::route::hookx_handler_can_run(h))
                {
                    true => format!(
                        "the hookx route for `{name}` in {} was written by an older hookx, \
                         without the test of its hookx a route carries there now: where that \
                         hookx is missing (a teammate's clone without it, a move), {failed}, \
                         so every `{name}` is refused",
                        source.display
                    ),
                    false => format!(
                        "the hookx route for `{name}` in {} cannot run: the hookx it names \
                         is not there, empty or not executable, so it fails (an empty one \
                         exits 0, saying nothing); {failed}, whatever hookx's other routes \
                         answer",
                        source.display
                    ),
                };
                found.push((
                    said,
                    Finding::new(
                        Level::Warning,
                        says,
                        Some(format!("hookx install --host {host}{scope}")),
                    ),
                ));
            }
        }
        found.into_iter().map(|(_, f)| f).collect()
    }

    /// hookx's project routes in files `host` reads itself, where the host reads every folder's
    /// hook file on the way down ([`crate::tables::RouteSpec::names_folder`]: Codex), written by
    /// an older hookx without `--route-folder`: such a route runs the rules of the nested
    /// folders' files too, so each runs twice (attacks rows 680, 1347) until `install` rewrites it.
    pub(super) fn routes_without_their_folder(&self, host: Dialect) -> Vec<Finding> {
        let spec = &host.def().route;
        if !(spec.names_folder && spec.names_project_route) {
            return Vec::new();
        }
        let mut files: Vec<&str> = Vec::new();
        for source in self.sources.iter().filter(|s| {
            s.scope == crate::tables::Scope::Project && discover::runner(host, s) == Runner::Native
        }) {
            let older = source
                .document()
                .into_iter()
                .flat_map(|d| &d.rules)
                .flat_map(|r| &r.handlers)
                .filter(|h| crate::route::is_plain_route(h))
                .filter_map(|h| match &h.kind {
                    crate::model::HandlerKind::Command(c) => c.command.as_deref(),
                    _ => None,
                })
                .any(|line| {
                    crate::route::route_host(line).as_deref() == Some(host.name())
                        && crate::route::route_is_projects(line)
                        && crate::route::route_folder(line).is_none()
                });
            if older && !files.contains(&source.display.as_str()) {
                files.push(source.display.as_str());
            }
        }
        files
            .into_iter()
            .map(|file| {
                Finding::new(
                    Level::Warning,
                    format!(
                        "the hookx routes in {file} were written by an older hookx, without \
                         `--route-folder`: where a folder below holds {} hook file of its own, \
                         its rules run twice, from its route and from this one",
                        host.def().display
                    ),
                    Some(format!("hookx install --host {host}")),
                )
            })
            .collect()
    }

    /// hookx's routes in the user's files `host` reads itself, on an event that guards a tool
    /// call, written by an older hookx without the guard a user route carries now
    /// ([`crate::route::Gone`]): where the hookx they name is moved or removed, the host takes
    /// the failed route for a non-blocking error and every call goes through unguarded
    /// (attacks row 1080). `install --scope user` run again writes the guard.
    pub(super) fn unguarded_user_routes(&self, host: Dialect) -> Vec<Finding> {
        let mut events: Vec<(&str, &str, String)> = Vec::new();
        for source in self.sources.iter().filter(|s| {
            s.scope == crate::tables::Scope::User && discover::runner(host, s) == Runner::Native
        }) {
            for rule in source.document().into_iter().flat_map(|d| &d.rules) {
                let tables = rule.flavor.tables();
                let name = tables.event_name(&rule.event).unwrap_or_default();
                // Where a failed hook denies (Copilot), nothing is let through: row 641's.
                if tables.protocol.fails_closed(&rule.event)
                    && !crate::route::failed_route_blocks(host, name)
                    && rule
                        .handlers
                        .iter()
                        .any(|h| crate::route::lacks_gone_guard(h, host))
                    && !events
                        .iter()
                        .any(|(f, n, _)| *f == source.display && *n == name)
                {
                    let failed = failed_hook(rule.flavor, &rule.event);
                    events.push((source.display.as_str(), name, failed));
                }
            }
        }
        events
            .into_iter()
            .map(|(file, name, failed)| {
                Finding::new(
                    Level::Warning,
                    format!(
                        "the hookx route for `{name}` in {file} was written by an older hookx, \
                         without the guard a user route carries now: where the hookx it names \
                         is moved or removed, {failed}, so the call goes through and none of \
                         your trusted hooks run (with the guard, the call is denied, saying why)"
                    ),
                    Some(format!("hookx install --host {host} --scope user")),
                )
            })
            .collect()
    }

    /// Whether a hookx route for `event` sits in a file `host` reads itself; where the event is
    /// a tool category of the host (Windsurf), a route of one of `names`.
    pub(super) fn routed(&self, host: Dialect, event: &EventKind, names: &[&str]) -> bool {
        self.routed_by(host, event, names, &crate::route::hookx_handler_can_run)
    }

    /// [`Self::routed`] with `is_route` telling a route (that can run, or any).
    fn routed_by(
        &self,
        host: Dialect,
        event: &EventKind,
        names: &[&str],
        is_route: &dyn Fn(&crate::model::Handler) -> bool,
    ) -> bool {
        if let Some(plugin) = host.config().generated {
            return self
                .plugin_routes(host, plugin)
                .iter()
                .any(|(e, line)| names.contains(&e.as_str()) && is_route(&command_handler(line)));
        }
        let by_category = host.default_flavor().tables().event_name(event).is_none();
        self.sources
            .iter()
            .filter(|s| discover::runner(host, s) == Runner::Native)
            .filter_map(Source::document)
            .flat_map(|d| &d.rules)
            .any(|r| {
                r.event == *event
                    && r.handlers.iter().any(is_route)
                    && (!by_category
                        || r.flavor
                            .tables()
                            .event_name(event)
                            .is_some_and(|n| names.contains(&n)))
            })
    }
}

impl Doctor<'_> {
    /// The timeout the routes that would run `rule` under `host` carry, in milliseconds, and
    /// the file saying it, where the user made it shorter than install writes (attacks row
    /// 223): the longest of the user's and the project's route, as the host runs both then
    /// ([`crate::claim`]: a route whose claimer was cut off sooner runs the rules itself).
    fn written_route(&self, host: Dialect, rule: &Rule) -> Option<(u64, String)> {
        let (home, project) = (&self.ctx.home, &self.ctx.project);
        let written = |scope| {
            route_names(host, rule)
                .into_iter()
                .filter_map(|event| {
                    crate::route::written_timeout_ms(home, project, host, Some(scope), None, event)
                })
                .max()
                .map(|ms| (ms, scope))
        };
        let (ms, scope) = [InstallScope::User, InstallScope::Project]
            .into_iter()
            .filter_map(written)
            .max_by_key(|(ms, _)| *ms)?;
        let file = crate::route::target(home, project, host, scope);
        Some((ms, self.ctx.display(&file)))
    }

    /// The routes in hookx's plugin for `host` (a host whose hooks are code), in the project's
    /// and the user's: (event, command line).
    pub(super) fn plugin_routes(
        &self,
        host: Dialect,
        plugin: &crate::tables::GeneratedPlugin,
    ) -> Vec<(String, String)> {
        crate::route::installed_plugin_routes(self.ctx, host, plugin)
    }
}

/// A command handler running `line`, as a route's handler reads.
fn command_handler(line: &str) -> crate::model::Handler {
    crate::model::Handler {
        kind: crate::model::HandlerKind::Command(crate::model::Command {
            command: Some(line.to_string()),
            ..Default::default()
        }),
        timeout: None,
        status_message: None,
        once: None,
        extra: Default::default(),
    }
}

/// The event name an unknown key most likely meant: one of its own flavour's (same casing),
/// else any of its dialect's.
/// The events only `dialect` fires, which hookx has no canonical name for (Kiro's
/// `PostFileSave`).
fn agent_only_events(dialect: Dialect) -> impl Iterator<Item = &'static str> {
    let config = dialect.config();
    let list = config.rule_list.map_or(&[][..], |l| l.other_events);
    config.other_events.iter().chain(list).copied()
}

fn closest_event(key: &str, flavor: Flavor) -> Option<&'static str> {
    flavor
        .tables()
        .events
        .iter()
        .map(|(_, name)| {
            (
                strsim::jaro_winkler(&key.to_lowercase(), &name.to_lowercase()),
                *name,
            )
        })
        .filter(|(score, _)| *score > 0.85)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
        .or_else(|| did_you_mean(key, flavor.dialect()))
}

/// The host's event whose route brings `rule` to hookx: its own, else the post event that
/// marks a failed call for a failure rule (Gemini's AfterTool; attacks row 2062).
fn routed_on(host: Dialect, rule: &Rule) -> crate::model::EventKind {
    let own = host.own_events();
    if own.iter().any(|(kind, ..)| *kind == rule.event) {
        return rule.event.clone();
    }
    own.into_iter()
        .find(|(kind, _, sent)| {
            crate::protocol::failed::can_fire(*sent, kind, rule.flavor, &rule.event)
        })
        .map_or_else(|| rule.event.clone(), |(kind, ..)| kind)
}

/// Why `rule`'s event never comes to whoever runs it under `host` (`runs`), read as `flavor`
/// (`native`: the host reads the file itself): the host has no such event for that flavour's
/// hooks, or sends none a route could bring to hookx.
fn unsent(
    rule: &Rule,
    host: Dialect,
    (flavor, native): (Flavor, bool),
    runs: Runs,
) -> Option<Finding> {
    let display = host.def().display;
    let event = &rule.event;
    match runs {
        _ if native && flavor.tables().event_name(event).is_none() => Some(Finding::new(
            Level::Error,
            format!(
                "{display} has no `{event}` for {} hooks: it never fires here",
                flavor.name()
            ),
            None,
        )),
        // A failure rule fires on the host's post event that marks the failed call
        // (Gemini's AfterTool; attacks row 2062).
        Runs::Hookx
            if !host.own_events().iter().any(|(kind, _, sent)| {
                crate::protocol::failed::can_fire(*sent, kind, rule.flavor, event)
            }) =>
        {
            Some(Finding::new(
                Level::Error,
                format!("{display} sends no `{event}` event: no route can bring it to hookx"),
                None,
            ))
        }
        _ => None,
    }
}

/// A note on a rule whose event no recorded run of `host`'s client showed firing: that it
/// fires, when, and with what payload, rest on the client's documents alone.
fn unseen_event_note(rule: &Rule, host: Dialect) -> Option<Finding> {
    let tables = host.default_flavor().tables();
    if tables.seen_firing(&rule.event)? {
        return None;
    }
    let name = tables.event_name(&rule.event)?;
    Some(Finding::new(
        Level::Note,
        format!(
            "no recorded run of {} showed `{name}` firing: that it fires, and its payload, are \
             from {}'s documents",
            tables.verified_with?,
            host.def().display
        ),
        None,
    ))
}

/// A note on a rule whose event `host` fires at another rate than the agent it was written
/// for (attacks row 1761: Gemini's `PreCompress` before every model request).
/// Or one whose agent fires it after failed calls that `host` fires nothing after (attacks
/// row 2021: Droid's PostToolUse).
fn cadence_note(rule: &Rule, host: Dialect) -> Option<Finding> {
    let why = host
        .flavors()
        .find_map(|f| f.tables().cadence_change(rule.flavor.tables(), &rule.event))
        .or_else(|| crate::plan::unfired_change(host, rule))?;
    Some(Finding::new(Level::Note, why, None))
}

/// A timeout that reads like milliseconds in a field that counts seconds.
fn timeout_finding(handler: &Handler, flavor: Flavor) -> Option<Finding> {
    let t = handler.timeout.filter(|t| *t >= MILLISECONDS_LIKELY)?;
    let dialect = flavor.dialect();
    let key = flavor
        .handler_key(HandlerField::Timeout)
        .unwrap_or("timeout");
    Some(Finding::new(
        Level::Warning,
        format!(
            "timeout {t} is seconds ({} min) in {}: milliseconds in a seconds field? The hook is not cut off after {} s",
            t / 60,
            dialect.def().display,
            (t / 1000).max(1)
        ),
        Some(format!("\"{key}\": {}", (t / 1000).max(1))),
    ))
}

/// Handler `i` of `rule`, run by hookx under `host`, whose own timeout is longer than the time
/// hookx has to answer the host (its route's limit less a margin,
/// [`crate::dispatch::run::budget`]): past that hookx answers without it, and on a tool-call
/// guard its failure policy denies the call. Under a host that runs handlers one after another,
/// they all share that time.
/// `written`: the timeout the route's entry carries, where the user shortened it
/// ([`Doctor::written_route`]): the host cuts hookx off there.
fn outlasts_the_route(
    handler: &Handler,
    i: usize,
    rule: &Rule,
    host: Dialect,
    written: Option<(u64, String)>,
) -> Option<Finding> {
    use crate::dispatch::run::{Limit, budget, handler_timeout};
    if !matches!(handler.kind, crate::model::HandlerKind::Command(_)) {
        return None;
    }
    let host_flavor = host
        .flavors()
        .find(|f| f.tables().event_name(&rule.event).is_some())
        .unwrap_or(host.default_flavor());
    let table = budget(host_flavor, &rule.event, Limit::Route)?;
    let limit = written
        .as_ref()
        .map_or(Limit::Route, |(ms, _)| Limit::RouteWritten(*ms));
    let budget = budget(host_flavor, &rule.event, limit)?;
    let own = handler_timeout(rule.flavor, handler);
    if own <= budget {
        return None;
    }
    // Said on the route where the user shortened it, else on the route's limit.
    let route = match written.filter(|_| budget < table) {
        Some((ms, file)) => format!(
            "the timeout of {} s its route has in {file}",
            ms.div_ceil(1000)
        ),
        None => "its route's limit".to_string(),
    };
    let display = host.def().display;
    let own = match own {
        std::time::Duration::MAX => "no timeout".to_string(),
        own if handler.timeout.filter(|t| *t > 0).is_some() => {
            format!("a timeout of {} s", own.as_secs())
        }
        own => format!(
            "{}'s default timeout, {} s",
            rule.flavor.dialect().def().display,
            own.as_secs()
        ),
    };
    let shared = match host_flavor.tables().parallel {
        true => String::new(),
        false => "; hookx runs the handlers one after another there, in that time".to_string(),
    };
    let then = match host_flavor.tables().protocol.fails_closed(&rule.event) {
        true => "answers without it and denies the call (its failure policy)",
        false => "answers without it",
    };
    let secs = budget.as_secs();
    let key = rule
        .flavor
        .handler_key(HandlerField::Timeout)
        .unwrap_or("timeout");
    let command = matches!(handler.kind, crate::model::HandlerKind::Command(_));
    let value = rule
        .flavor
        .dialect()
        .config()
        .timeout_unit
        .written(secs, command);
    Some(Finding::new(
        Level::Warning,
        format!(
            "handler {}: {own}, longer than the {secs} s hookx has to answer {display} in ({route}, less a margin{shared}): past that, hookx {then}",
            i + 1
        ),
        Some(format!("\"{key}\": {value}")),
    ))
}

impl Doctor<'_> {
    /// A copy `host` runs itself while `runner` runs its rule as well: twice per event. A copy
    /// calling another hookx than this one does not stand in for its rule
    /// (`route::is_this_hookx`): converting its source again with this hookx makes it do so.
    fn beside_finding(
        &self,
        (source, handler): (&Source, &Handler),
        runner: &crate::plan::Runner,
        host: Dialect,
    ) -> Finding {
        let calls = match &handler.kind {
            crate::model::HandlerKind::Command(c) => c.command.as_deref(),
            _ => None,
        }
        .and_then(crate::convert::unwrapped)
        .map(|u| u.program)
        .filter(|p| !crate::route::is_this_hookx(p));
        let said = format!(
            "{} runs this copy, and its rule runs as well (runner: {}): it runs twice per event",
            host.def().display,
            super::runner_text(runner)
        );
        let Some(program) = calls else {
            let fix = format!("keep one of the two (`hookx list --host {host}` names both)");
            return Finding::new(Level::Warning, said, Some(fix));
        };
        // The file the copy was converted from, as its record names it (from the copy's folder).
        let from = (handler.extra.get(crate::config::MARKER))
            .and_then(|m| m.get("source")?.as_str())
            .and_then(|rel| {
                let mut at = source.path.parent()?.to_path_buf();
                for part in std::path::Path::new(rel).components() {
                    match part {
                        std::path::Component::ParentDir => _ = at.pop(),
                        std::path::Component::CurDir => {}
                        part => at.push(part),
                    }
                }
                Some(self.ctx.display(&at))
            })
            .unwrap_or_else(|| "SOURCE".into());
        Finding::new(
            Level::Warning,
            format!(
                "{said}: this copy calls {program}, not this hookx, so it does not stand in for \
                 its rule"
            ),
            Some(format!(
                "hookx convert {from} --to {} --write --hookx hookx (or this hookx's path)",
                source.dialect
            )),
        )
    }
}

/// A wrapped entry of handler `i` whose not-installed guard, written for `host`, is an older
/// hookx's: where hookx is missing it answers otherwise than the failure policy says today.
fn outdated_guard_finding(
    handler: &Handler,
    i: usize,
    flavor: Flavor,
    host: Dialect,
) -> Option<Finding> {
    let crate::model::HandlerKind::Command(c) = &handler.kind else {
        return None;
    };
    let old = [&c.command, &c.bash, &c.linux, &c.osx]
        .into_iter()
        .flatten()
        .find_map(|line| crate::convert::outdated_guard(line, flavor))
        .filter(|old| old.host.dialect() == host)?;
    let event = old
        .host
        .tables()
        .event_name(&old.event)
        .unwrap_or(old.event.name());
    Some(Finding::new(
        Level::Warning,
        format!(
            "handler {}: its `hookx not found` guard was written by an older hookx: where hookx is not installed it answers `{event}` otherwise than hookx's failure policy, which today {}",
            i + 1,
            old.today()
        ),
        Some("convert the source file again (`hookx convert SOURCE --to DIALECT --write`)".into()),
    ))
}

/// The host's event names that must route `rule` to hookx: its event's, or, where the host has
/// one event per tool category (Windsurf), those of the categories the rule fires for.
fn route_names(host: Dialect, rule: &Rule) -> Vec<&'static str> {
    let tools = crate::convert::RuleTools::new(rule, &rule.event);
    host.own_events()
        .into_iter()
        .filter(|(kind, _, flavor)| {
            *kind == rule.event
                && tools.in_category(*flavor) != Some(crate::convert::CategoryFire::Never)
        })
        .map(|(_, name, _)| name)
        .collect()
}

/// What `flavor`'s agent does with a hook that fails on `event` (exits 127, say), from its
/// table: a deny where its `failure_denies` holds the event (Copilot's preToolUse: "Denied by
/// preToolUse hook … (hook errored)", live row 604), else a non-blocking error.
fn failed_hook(flavor: Flavor, event: &EventKind) -> String {
    let tables = flavor.tables();
    let display = flavor.dialect().def().display;
    let name = tables.event_name(event).unwrap_or_default();
    if !tables.protocol.failure_denies.contains(event)
        && crate::route::failed_route_blocks(flavor.dialect(), name)
    {
        return format!(
            "{display} reads a hook that fails to start there (the shell's error, exit 127) as \
             a block"
        );
    }
    match (
        tables.protocol.failure_denies.contains(event),
        tables.verified_with,
    ) {
        (true, Some(_)) => format!("{display} denies every call on a hook that fails there"),
        (true, None) => format!(
            "{display}, by hookx's reading of its documents (no client checked), denies every \
             call on a hook that fails there"
        ),
        (false, _) => format!("{display} takes a hook that fails there as a non-blocking error"),
    }
}
