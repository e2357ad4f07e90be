//! The report as text for people: what is the same across agents is said once, for all of
//! them ("fires: claude, copilot, gemini"), and what differs is said per agent.

use super::{Finding, Level, Report, Runs, Status, Verdict};
use crate::tables::Dialect;

/// The report for people: the agents examined and why, the routes they lack; per file, who
/// runs it; per rule, under which agents it fires, and each finding once with the agents it
/// is about.
pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    let hosts: Vec<String> = report
        .hosts
        .iter()
        .map(|h| {
            format!(
                "{} ({}; {})",
                h.host,
                h.verified_with.unwrap_or("documents only"),
                h.found
            )
        })
        .collect();
    for finding in &report.trust {
        push_finding(&mut out, "trust record: ", finding);
    }
    for finding in &report.unreadable {
        push_finding(&mut out, "", finding);
    }
    out.push_str(&format!("agents examined: {}\n", hosts.join(", ")));
    if !report.not_examined.is_empty() && !report.hosts.is_empty() {
        let names: Vec<&str> = report.not_examined.iter().map(|d| d.name()).collect();
        out.push_str(&format!(
            "not examined (no client, folder or hookx route of theirs found): {} (--host NAME or --all-hosts)\n",
            names.join(", ")
        ));
    }
    for host in &report.hosts {
        for finding in &host.policy {
            push_finding(&mut out, &format!("  {}: ", host.host), finding);
        }
    }
    // The routes each agent lacks, once: every rule they block is marked "no route".
    for host in &report.hosts {
        let mut names: Vec<&str> = Vec::new();
        for verdict in report
            .files
            .iter()
            .flat_map(|f| &f.rules)
            .flat_map(|r| &r.hosts)
            .filter(|v| v.host == host.host)
        {
            for name in &verdict.unrouted {
                if !names.contains(name) {
                    names.push(name);
                }
            }
        }
        if !names.is_empty() && !names.iter().any(|n| host.install_routes.contains(n)) {
            // Install plans as if the agent read every file it runs itself: where it does not
            // read the one holding its copy (a folder it does not trust), install routes none
            // of these events, and naming it would send the user round (attacks row 2322).
            let finding = Finding::new(
                Level::Warning,
                format!(
                    "no hookx route for `{}` in {}'s config: nobody calls hookx for the rules marked \"no route\", and `hookx install --host {}` routes none of them: it counts on {}'s own copies of them, which {} does not read here (see the warning on the file of each copy below)",
                    names.join("`, `"),
                    host.host.def().display,
                    host.host,
                    host.host.def().display,
                    host.host.def().display,
                ),
                None,
            );
            push_finding(&mut out, &format!("  {}: ", host.host), &finding);
        } else if !names.is_empty() {
            // Where the agent writes back what a session read, a route installed while one ran
            // is gone at its next settings write (attacks row 1245).
            let undone = host.host.config().rewrites_from_memory.map(|writes| {
                format!(
                    " (if you installed it: a {} session that was running then wrote its settings \
                     back as it had read them, at one of its own settings writes ({writes}), \
                     taking the route out; install again with no session running)",
                    host.host.def().product
                )
            });
            let finding = Finding::new(
                Level::Warning,
                format!(
                    "no hookx route for `{}` in {}'s config: nobody calls hookx for the rules marked \"no route\"{}",
                    names.join("`, `"),
                    host.host.def().display,
                    undone.unwrap_or_default()
                ),
                Some(format!("hookx install --host {}", host.host)),
            );
            push_finding(&mut out, &format!("  {}: ", host.host), &finding);
        }
    }
    if report.files.is_empty() {
        out.push_str("\nno hook files found\n");
    }
    for file in &report.files {
        out.push_str(&format!(
            "\n{}  ({} {})\n",
            file.file, file.dialect, file.scope
        ));
        for problem in &file.problems {
            push_finding(&mut out, "  ", problem);
        }
        let runners: Vec<String> = group(&file.hosts, |l| l.runner)
            .into_iter()
            .map(|(runner, hosts)| {
                let how = match runner {
                    Runs::Native => "read by the agent itself",
                    Runs::Hookx => "run through hookx",
                    Runs::Nobody => "run by nobody",
                };
                format!("{}: {how}", names(&hosts))
            })
            .collect();
        if !runners.is_empty() {
            out.push_str(&format!("  {}\n", runners.join("; ")));
        }
        push_grouped(
            &mut out,
            "  ",
            file.hosts.iter().map(|l| (l.host, l.findings.as_slice())),
        );
        for rule in &file.rules {
            let matcher = rule
                .matcher
                .as_deref()
                .map_or(String::new(), |m| format!(" \"{m}\""));
            let line = rule.line.map_or(String::new(), |l| format!(" (line {l})"));
            out.push_str(&format!(
                "  {}{matcher}{line}: {}\n",
                rule.event, rule.handler
            ));
            let states: Vec<String> = group(&rule.hosts, state)
                .into_iter()
                .map(|((status, how), hosts)| {
                    let head = match status {
                        Status::Fires => "fires",
                        Status::Blocked => "blocked",
                        Status::Never => "never fires",
                        Status::Off => "turned off",
                    };
                    match how.is_empty() {
                        true => format!("{head}: {}", names(&hosts)),
                        false => format!("{head}: {} ({how})", names(&hosts)),
                    }
                })
                .collect();
            if !states.is_empty() {
                out.push_str(&format!("    {}\n", states.join("; ")));
            }
            push_grouped(
                &mut out,
                "    ",
                rule.hosts.iter().map(|v| (v.host, v.findings.as_slice())),
            );
        }
    }
    if report.never_fire > 0 {
        out.push_str(&format!(
            "\n{} rule{} fire{} under none of these agents (blocked or never)\n",
            report.never_fire,
            if report.never_fire == 1 { "" } else { "s" },
            if report.never_fire == 1 { "s" } else { "" }
        ));
    }
    out
}

/// A rule's state under one agent, as grouped: its status, and how it runs there (natively or
/// through hookx, the payload, a missing route, the runner the plan names).
fn state(verdict: &Verdict) -> (Status, String) {
    let mut how = Vec::new();
    if verdict.status < Status::Never && verdict.runner != Runs::Nobody {
        how.push(
            match verdict.runner {
                Runs::Native => "natively",
                Runs::Hookx => "through hookx",
                Runs::Nobody => "by nobody",
            }
            .to_string(),
        );
        if let Some(payload) = verdict.payload {
            how.push(format!("{payload} payload"));
        }
    }
    if !verdict.unrouted.is_empty() {
        how.push("no route".to_string());
    }
    if let Some(runner) = &verdict.planned {
        how.push(format!("runner: {runner}"));
    }
    (verdict.status, how.join(", "))
}

/// `items` grouped by `key`, in the order each key first comes, with the agents of each.
fn group<T, K: PartialEq>(items: &[T], key: impl Fn(&T) -> K) -> Vec<(K, Vec<Dialect>)>
where
    T: HasHost,
{
    let mut groups: Vec<(K, Vec<Dialect>)> = Vec::new();
    for item in items {
        let k = key(item);
        match groups.iter_mut().find(|(g, _)| *g == k) {
            Some((_, hosts)) => hosts.push(item.host()),
            None => groups.push((k, vec![item.host()])),
        }
    }
    groups
}

/// What [`group`] groups: things about one agent.
trait HasHost {
    fn host(&self) -> Dialect;
}

impl HasHost for super::Loading {
    fn host(&self) -> Dialect {
        self.host
    }
}

impl HasHost for Verdict {
    fn host(&self) -> Dialect {
        self.host
    }
}

fn names(hosts: &[Dialect]) -> String {
    hosts
        .iter()
        .map(|h| h.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Each finding once, with the agents it is about: findings that differ only by the agent's
/// name are one ("the agent" standing for it).
fn push_grouped<'a>(
    out: &mut String,
    indent: &str,
    per_host: impl Iterator<Item = (Dialect, &'a [Finding])>,
) {
    let mut groups: Vec<(Finding, Vec<Dialect>)> = Vec::new();
    for (host, findings) in per_host {
        for finding in findings {
            let general = generalise(finding, host);
            match groups.iter_mut().find(|(g, _)| *g == general) {
                Some((_, hosts)) => hosts.push(host),
                None => groups.push((general, vec![host])),
            }
        }
    }
    for (finding, hosts) in groups {
        let finding = match hosts.as_slice() {
            [one] => particular(&finding, *one),
            _ => finding,
        };
        push_finding(out, &format!("{indent}{}: ", names(&hosts)), &finding);
    }
}

/// Stands for an agent in a finding said of several.
const AGENT: &str = "the agent";
const AGENT_FLAG: &str = "--host AGENT";

/// `finding` with `host`'s names replaced, so that the same finding about another agent is
/// equal to it.
fn generalise(finding: &Finding, host: Dialect) -> Finding {
    let display = host.def().display;
    let flag = format!("--host {host}");
    Finding {
        level: finding.level,
        message: finding.message.replace(display, AGENT),
        fix: finding
            .fix
            .as_ref()
            .map(|f| f.replace(&flag, AGENT_FLAG).replace(display, AGENT)),
    }
}

/// A finding [`generalise`]d back for one agent.
fn particular(finding: &Finding, host: Dialect) -> Finding {
    let display = host.def().display;
    Finding {
        level: finding.level,
        message: finding.message.replace(AGENT, display),
        fix: finding.fix.as_ref().map(|f| {
            f.replace(AGENT_FLAG, &format!("--host {host}"))
                .replace(AGENT, display)
        }),
    }
}

fn push_finding(out: &mut String, indent: &str, finding: &Finding) {
    let mark = match finding.level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "note",
    };
    // After "warning: " a message starts in lower case, "the agent" too.
    let message = &finding.message;
    match &finding.fix {
        Some(fix) => out.push_str(&format!("{indent}{mark}: {message} (fix: {fix})\n")),
        None => out.push_str(&format!("{indent}{mark}: {message}\n")),
    }
}
