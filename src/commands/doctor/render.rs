//! The report as text for people.

use super::{Finding, Level, Report, Runs, Status};

/// The report for people: per file, who runs it under each host; per rule, whether it fires.
pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    let hosts: Vec<String> = report
        .hosts
        .iter()
        .map(|h| {
            format!(
                "{} ({})",
                h.host,
                h.verified_with.unwrap_or("documents only")
            )
        })
        .collect();
    for finding in &report.trust {
        push_finding(&mut out, "trust record: ", finding);
    }
    out.push_str(&format!("hosts: {}\n", hosts.join(", ")));
    for host in &report.hosts {
        for finding in &host.policy {
            push_finding(&mut out, &format!("  {}: ", host.host), finding);
        }
    }
    if report.files.is_empty() {
        out.push_str("\nno hook files found\n");
    }
    let width = report
        .hosts
        .iter()
        .map(|h| h.host.name().len())
        .max()
        .unwrap_or(0);
    for file in &report.files {
        out.push_str(&format!(
            "\n{}  ({} {})\n",
            file.file, file.dialect, file.scope
        ));
        for problem in &file.problems {
            push_finding(&mut out, "  ", problem);
        }
        for loading in &file.hosts {
            let runner = match loading.runner {
                Runs::Native => "read by the host",
                Runs::Hookx => "run through hookx",
                Runs::Nobody => "run by nobody",
            };
            out.push_str(&format!("  {:width$}  {runner}\n", loading.host.name()));
            for finding in &loading.findings {
                push_finding(&mut out, &" ".repeat(width + 4), finding);
            }
        }
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
            for verdict in &rule.hosts {
                let mut head = match verdict.status {
                    Status::Fires => "fires".to_string(),
                    Status::Blocked => "blocked".to_string(),
                    Status::Never => "never fires".to_string(),
                    Status::Off => "turned off".to_string(),
                };
                if verdict.status < Status::Never && verdict.runner != Runs::Nobody {
                    let runner = match verdict.runner {
                        Runs::Native => "natively",
                        Runs::Hookx => "through hookx",
                        Runs::Nobody => "by nobody",
                    };
                    head.push_str(&format!(", {runner}"));
                    if let Some(payload) = verdict.payload {
                        head.push_str(&format!(", {payload} payload"));
                    }
                }
                out.push_str(&format!("    {:width$}  {head}\n", verdict.host.name()));
                for finding in &verdict.findings {
                    push_finding(&mut out, &" ".repeat(width + 6), finding);
                }
            }
        }
    }
    if report.never_fire > 0 {
        out.push_str(&format!(
            "\n{} rule{} can fire under none of these hosts\n",
            report.never_fire,
            if report.never_fire == 1 { "" } else { "s" }
        ));
    }
    out
}

fn push_finding(out: &mut String, indent: &str, finding: &Finding) {
    let mark = match finding.level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "note",
    };
    out.push_str(&format!("{indent}{mark}: {}\n", finding.message));
    if let Some(fix) = &finding.fix {
        out.push_str(&format!("{indent}  fix: {fix}\n"));
    }
}
