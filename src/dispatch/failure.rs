//! The failure policy: what `hookx run` and `hookx exec` answer a host when they cannot do their
//! job (the payload cannot be read, there is no home or project, a trusted matcher cannot be
//! evaluated, hookx itself fails or panics).
//!
//! The rule is data, per flavour, in each dialect's protocol table ([`fail_closed`]):
//! * on a listed event (the tool-call guards: PreToolUse, PermissionRequest) hookx denies, in
//!   the host's own protocol, so that a guard it could not run never lets a tool call through;
//! * on every other event it exits [`EXIT_ERROR`], which every host reads as a non-blocking
//!   error (dialects.md §7): nothing is blocked by accident. Claude reads exit 2 on Stop as
//!   "keep going", forever, so hookx never exits 2 for a failure of its own;
//! * when even the event is unknown (no `--event` and no readable payload), the exit is
//!   [`EXIT_ERROR`] too: Copilot reads a non-zero exit on preToolUse as a deny, Claude and Bricks
//!   as a non-blocking error.
//!
//! [`fail_closed`]: crate::tables::ProtocolTables::fail_closed

use crate::model::{Decision, Event, EventKind, Outcome};
use crate::protocol::answer::{HostAnswer, encode_answer};
use crate::tables::{Dialect, Flavor};
use serde::Serialize;
use std::cell::RefCell;

/// The exit code every host reads as a non-blocking error (not 2: that blocks on some events).
pub const EXIT_ERROR: i32 = 1;

/// What hookx answers on one event when it cannot do its job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OnFailure {
    /// A deny in the host's protocol.
    Deny,
    /// A non-blocking error: exit [`EXIT_ERROR`], the reason on stderr.
    Pass,
}

/// The policy of `host` on `kind`: [`ProtocolTables::fails_closed`], the decision the
/// not-installed guard of a converted entry reads too.
///
/// [`ProtocolTables::fails_closed`]: crate::tables::ProtocolTables::fails_closed
pub fn policy(host: Flavor, kind: &EventKind) -> OnFailure {
    if host.tables().protocol.fails_closed(kind) {
        OnFailure::Deny
    } else {
        OnFailure::Pass
    }
}

/// What hookx's own failure on `kind` adds to the merged outcome when the event is otherwise
/// handled (a trusted matcher it could not evaluate): a deny, or nothing.
pub fn outcome(host: Flavor, kind: &EventKind, why: &str) -> Outcome {
    match policy(host, kind) {
        OnFailure::Deny => Outcome {
            decision: Some(Decision::Deny),
            reasons: vec![format!(
                "hookx could not check this tool call, so it is denied: {why}"
            )],
            ..Outcome::default()
        },
        // The skipped rule is reported on stderr by whoever skipped it.
        OnFailure::Pass => Outcome::default(),
    }
}

/// The answer to the host when hookx could not do its job on `kind` (unknown: `None`).
pub fn answer(host: Option<Flavor>, kind: Option<&EventKind>, why: &str) -> HostAnswer {
    let pass = HostAnswer {
        stdout: String::new(),
        stderr: format!("hookx: {why}\n"),
        exit_code: EXIT_ERROR,
    };
    let (Some(host), Some(kind)) = (host, kind) else {
        return pass;
    };
    match policy(host, kind) {
        OnFailure::Pass => pass,
        OnFailure::Deny => {
            let event = Event::bare(kind.clone());
            let mut answer = encode_answer(host, &event, &outcome(host, kind, why));
            if answer.exit_code != 2 {
                answer.stderr.push_str(&format!("hookx: {why}\n"));
            }
            answer
        }
    }
}

/// What is known of the event being answered, for a failure answer: from the command line at
/// first, from the payload once it is decoded.
#[derive(Debug, Default)]
pub struct Context {
    known: RefCell<(Option<Flavor>, Option<EventKind>)>,
    /// Other agents the payload may be from (no `--host`, a payload several send alike).
    also: RefCell<Vec<Flavor>>,
}

impl Context {
    /// From `--host` and `--event` (the event in any dialect's spelling; a Copilot route names
    /// its camelCase event, which fixes the flavour).
    pub fn new(host: Option<Dialect>, event: Option<&str>) -> Context {
        let flavor = host.map(|host| {
            event
                .and_then(|name| {
                    host.flavors()
                        .find(|f| f.tables().event_kind(name).is_some())
                })
                .unwrap_or(host.default_flavor())
        });
        let kind = event.map(super::host::parse_event);
        Context {
            known: RefCell::new((flavor, kind)),
            also: RefCell::new(Vec::new()),
        }
    }

    /// The payload told the flavour and the event, and the other agents it may be from.
    pub fn decoded(&self, host: Flavor, also: &[Flavor], kind: &EventKind) {
        *self.known.borrow_mut() = (Some(host), Some(kind.clone()));
        *self.also.borrow_mut() = also.to_vec();
    }

    /// The failure answer for what is known now: where the payload may be from several
    /// agents, their common answer (agreeing answers, or a deny by exit 2 that each reads as
    /// one), else the answer to no known agent.
    pub fn answer(&self, why: &str) -> HostAnswer {
        let known = self.known.borrow();
        let first = answer(known.0, known.1.as_ref(), why);
        let also = self.also.borrow();
        if also.is_empty() {
            return first;
        }
        let answers: Vec<HostAnswer> = also
            .iter()
            .map(|f| answer(Some(*f), known.1.as_ref(), why))
            .collect();
        if answers
            .iter()
            .all(|a| a.stdout == first.stdout && a.exit_code == first.exit_code)
        {
            return first;
        }
        let exit2_denies = |f: Flavor| {
            known.1.as_ref().is_some_and(|kind| {
                f.tables().protocol.fails_closed(kind)
                    && f.tables().protocol.exit2(kind) == Some(crate::tables::Exit2::Deny)
            })
        };
        if known
            .0
            .into_iter()
            .chain(also.iter().copied())
            .all(exit2_denies)
        {
            return HostAnswer {
                stdout: String::new(),
                stderr: format!("hookx could not check this tool call, so it is denied: {why}"),
                exit_code: 2,
            };
        }
        answer(None, known.1.as_ref(), why)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Denying is only a policy where the host can express a deny: in JSON at exit 0, or, for a
    /// host that reads no JSON answer there (Windsurf), by the exit 2 its table says denies
    /// (never an exit 2 that means anything else: Claude reads it as "keep going" on Stop), and
    /// by that exit 2 where the host reads only the first hook's field (Droid, attacks row 2047).
    #[test]
    fn every_fail_closed_event_denies_in_json_at_exit_0_or_by_its_deny_exit() {
        use crate::tables::{Exit2, PermissionFold, Slot};
        for &flavor in Flavor::all() {
            let p = &flavor.tables().protocol;
            for kind in p.fail_closed {
                let a = answer(Some(flavor), Some(kind), "why");
                let exit_deny = p.exit2(kind) == Some(Exit2::Deny)
                    && (!p.writes(Slot::Permission, kind)
                        || p.permission_fold == PermissionFold::FirstField);
                if exit_deny && a.exit_code == 2 {
                    assert!(a.stderr.contains("denied: why"), "{flavor:?} {kind}: {a:?}");
                    continue;
                }
                assert_eq!(a.exit_code, 0, "{flavor:?} {kind}: {a:?}");
                // Read back as the host reads a hook's answer: a deny.
                let event = crate::model::Event::bare(kind.clone());
                let finished = crate::spawn::Finished {
                    exit: crate::spawn::Exit::Code(0),
                    stdout: a.stdout.clone().into_bytes(),
                    stderr: Vec::new(),
                    stdout_truncated: false,
                    stderr_truncated: false,
                    elapsed: std::time::Duration::ZERO,
                };
                let read = crate::protocol::decode_answer(flavor, &event, &finished);
                assert_eq!(
                    read.decision,
                    Some(crate::model::Decision::Deny),
                    "{flavor:?} {kind}: {a:?}"
                );
            }
        }
    }
}
