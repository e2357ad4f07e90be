//! `hookx simulate`'s report: what each handler received and answered, through hookx and run
//! by the host itself, and the host's decision, checked against `--expect`.

use super::args::{Format, SimulateArgs};
use crate::commands::{errln, out, outln};
use crate::dispatch::simulate;
use crate::error::Error;
use crate::pipeline::{self, SimulateRequest};

/// `hookx simulate`: the event fired ([`pipeline::simulate`]), the report printed; exit
/// [`simulate::EXIT_VERDICT`] when the decision is not `--expect` (without it: when the action
/// is stopped).
pub(super) fn command(args: SimulateArgs) -> Result<i32, Error> {
    let request = SimulateRequest {
        host: args.host,
        event: args.event,
        tool: args.tool,
        input: args.input,
        fields: args.fields,
        payload: args.payload,
        project: args.project,
        home: args.home,
        managed_root: args.managed_root,
        dry_run: args.dry_run,
    };
    let pipeline::Simulation {
        through_hookx: dispatch,
        native,
        verdict,
        stop,
        taken,
    } = pipeline::simulate(&request)?;
    let host_dialect = args.host.dialect();
    match args.format {
        Format::Text => {
            if !native.runs.is_empty() || !native.skipped.is_empty() || !native.would_run.is_empty()
            {
                out!(
                    "run by {host_dialect} itself (natively, not through hookx), with what {host_dialect} sends them:\n{}\nrun through hookx:\n",
                    crate::diag::visible_lines(&simulate::report_text(&native))
                );
            }
            // What handlers and files said, as text: not sent to the terminal raw.
            out!(
                "{}",
                crate::diag::visible_lines(&simulate::report_text(&dispatch))
            );
            let ran = native.runs.len() + dispatch.runs.len();
            match args.dry_run {
                true => outln!(
                    "--dry-run: ran none of the {} handlers that would run",
                    native.would_run.len() + dispatch.would_run.len()
                ),
                false if ran > 0 => outln!(
                    "ran {ran} handler{} for real, with their side effects (--dry-run runs none)",
                    if ran == 1 { "" } else { "s" }
                ),
                false => {}
            }
            outln!(
                "decision: {}",
                serde_json::to_value(verdict)
                    .unwrap_or_default()
                    .as_str()
                    .unwrap_or_default()
            );
            if let Some(reason) = &stop {
                outln!(
                    "the agent stops after this answer (continue: false){}",
                    match reason.is_empty() {
                        true => String::new(),
                        false => format!(": {}", crate::diag::visible(reason)),
                    }
                );
            }
        }
        Format::Json => {
            let mut report = simulate::report_json(&dispatch);
            report["native"] = simulate::report_json(&native);
            report["decision"] = serde_json::to_value(verdict).unwrap_or_default();
            report["stop"] = serde_json::json!(stop);
            report["taken"] = serde_json::to_value(&taken).unwrap_or_default();
            outln!(
                "{}",
                serde_json::to_string_pretty(&report).unwrap_or_default()
            )
        }
    }
    // A stop of the agent stops the action too (attacks row 1901).
    let stopped = verdict != simulate::Verdict::Allow || stop.is_some();
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
