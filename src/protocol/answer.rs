//! Answers: a handler's exit code and output, read in its own dialect, into a canonical
//! [`Outcome`]; and a merged [`Outcome`] written in the host's protocol.

use crate::diag::json_type;
use crate::model::{Decision, Event, EventKind, Outcome};
use crate::protocol::payload::{decode_tool_result, encode_tool_result, replace_lone_surrogates};
use crate::protocol::{event_name, input_from_canonical, input_to_canonical, is_permission_event};
use crate::spawn::{Exit, Finished};
use crate::tables::Flavor;
use crate::tables::{AnswerField, Exit2, ExitCodes, PermissionFold, ProtocolTables, Slot};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The deepest a handler's JSON answer may nest (arrays and objects, the answer object itself
/// the first level): deeper, hookx cannot read it whole (serde_json stops at 128), and the
/// answer is read by the failure policy instead.
pub const ANSWER_DEPTH_CAP: usize = 100;

/// How much of a handler's output an error message quotes.
const PREVIEW_CHARS: usize = 200;

/// What hookx prints for the host, and the exit code it ends with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostAnswer {
    /// JSON (no trailing newline), or empty.
    pub stdout: String,
    pub stderr: String,
    pub exit_code: i32,
}

/// Reads one handler's answer as its own dialect defines it: what its exit code, timeout,
/// silence and output mean. Updated tool input comes back under canonical argument names,
/// which is why the whole event (its tool) is needed, not only its kind.
pub fn decode_answer(flavor: Flavor, event: &Event, finished: &Finished) -> Outcome {
    let mut out = read_answer(flavor, event, finished);
    drop_ignored_blocks(flavor, &event.kind, &mut out);
    out
}

/// A block or stop on an event where the handler's own agent acts on none
/// ([`ProtocolTables::ignored_blocks`]) is a note, as that agent takes it: passed on, it would
/// block what the rule never could (attacks row 1320).
///
/// [`ProtocolTables::ignored_blocks`]: crate::tables::ProtocolTables::ignored_blocks
fn drop_ignored_blocks(flavor: Flavor, kind: &EventKind, out: &mut Outcome) {
    let t = flavor.tables();
    if !(out.block || out.stop) || !t.protocol.ignored_blocks.contains(kind) {
        return;
    }
    let what = match out.block {
        true => out.reasons.drain(..).collect::<Vec<_>>().join("\n"),
        false => out.stop_reason.take().unwrap_or_default(),
    };
    out.errors.push(format!(
        "{} ignores a hook's block or stop on {}, and so does hookx: {}",
        flavor.name(),
        event_name(t, kind),
        reason_or(&what, "blocked by hook")
    ));
    out.block = false;
    out.stop = false;
    out.stop_reason = None;
}

/// [`decode_answer`] before [`ProtocolTables::ignored_blocks`]: what the answer says, also
/// where its agent ignores it. A route line reads a failed start by it, so that the lines
/// installed before that table stay as they were (a guard that exits 0 harms nothing there).
pub(crate) fn read_answer(flavor: Flavor, event: &Event, finished: &Finished) -> Outcome {
    let p = &flavor.tables().protocol;
    let kind = &event.kind;
    let stderr = String::from_utf8_lossy(&finished.stderr).trim().to_string();
    let mut out = Outcome::default();
    // A handler killed by a signal, where its client reads that as an exit code. The client
    // starts the command itself; hookx starts it under `sh -c`, which reports the handler's
    // death by signal N (1 to 64) as exit 128 + N (dash does not exec the last command).
    let read_as;
    let exit = match (&finished.exit, p.signal_exit) {
        (Exit::Signal(_) | Exit::Code(129..=192), Some(code)) => {
            read_as = Exit::Code(code);
            &read_as
        }
        (exit, _) => exit,
    };
    if let ExitCodes::OutputFirst {
        warning,
        warning_prefix,
    } = p.exit_codes
    {
        read_output_first(
            flavor,
            event,
            (exit, finished),
            warning,
            warning_prefix,
            &mut out,
        );
        return out;
    }
    let exit2 = match exit {
        Exit::Code(2) => p.exit2(kind),
        _ => None,
    };
    // A JSON object on stdout counts at a non-zero exit too where the host reads it so.
    let json_too = matches!(exit, Exit::Code(c) if *c != 0)
        && p.exit_codes == ExitCodes::ByCodeAndJson
        && answer_is_object(p, finished);
    if json_too {
        read_stdout(flavor, event, finished, &mut out);
    }
    // The agent aborts itself: a stop, and the call it guards never runs.
    if let (Some(abort), Exit::Code(c)) = (p.abort_exit, exit)
        && *c == abort.code
    {
        let reason = reason_or(
            &stderr,
            &format!("hook exited with code {}: the agent aborts", abort.code),
        );
        if p.fails_closed(kind) {
            out.updated_input = None;
            out.reasons.clear();
            deny(&mut out, reason.clone());
        } else if abort.blocks.contains(kind) {
            out.decision = None;
            out.updated_input = None;
            out.reasons = vec![reason.clone()];
            out.block = true;
        }
        out.stop = true;
        out.stop_reason.get_or_insert(reason);
        return out;
    }
    if let Some(effect) = exit2 {
        if json_too
            && matches!(
                effect,
                Exit2::Deny | Exit2::DenyWithoutReason | Exit2::Block
            )
        {
            // The exit code's deny or block wins: nothing the JSON allowed or rewrote runs,
            // and stderr is the reason.
            out.decision = None;
            out.updated_input = None;
            out.reasons.clear();
        }
        match effect {
            Exit2::Deny => deny(&mut out, reason_or(&stderr, "hook exited with code 2")),
            Exit2::DenyWithoutReason => deny(&mut out, "hook exited with code 2".into()),
            Exit2::DenyWithStdout => {
                read_stdout(flavor, event, finished, &mut out);
                out.decision = Some(Decision::Deny);
            }
            Exit2::Block => {
                out.block = true;
                out.reasons.push(reason_or(&stderr, "blocked by hook"));
            }
            Exit2::Context if !stderr.is_empty() => out.additional_context.push(stderr),
            Exit2::Context => {}
        }
        return out;
    }
    let what = match exit {
        Exit::Code(0) => {
            read_stdout(flavor, event, finished, &mut out);
            return out;
        }
        // Every dialect lets a timed-out hook pass (Copilot: fail-open).
        Exit::TimedOut => {
            out.errors.push(failure("timed out", &stderr));
            return out;
        }
        Exit::Code(code) => format!("exited with code {code}"),
        Exit::Signal(sig) => format!("was killed by signal {sig}"),
        Exit::FailedToStart(why) => format!("could not start: {why}"),
    };
    if json_too {
        // The JSON is the answer; the failure is logged.
        out.errors.push(failure(&what, &stderr));
        return out;
    }
    if p.failure_denies.contains(kind) {
        deny(&mut out, reason_or(&stderr, &format!("hook {what}")));
    } else {
        out.errors.push(failure(&what, &stderr));
    }
    out
}

/// [`ExitCodes::OutputFirst`]: a JSON object in the output is the answer whatever the exit
/// code; plain text means what the exit code says.
fn read_output_first(
    flavor: Flavor,
    event: &Event,
    (exit, finished): (&Exit, &Finished),
    warning: i32,
    warning_prefix: &str,
    out: &mut Outcome,
) {
    let code = match exit {
        Exit::Code(code) => *code,
        Exit::TimedOut => {
            out.errors.push("hook timed out".into());
            return;
        }
        Exit::Signal(sig) => {
            out.errors.push(format!("hook was killed by signal {sig}"));
            return;
        }
        Exit::FailedToStart(why) => {
            out.errors.push(format!("hook could not start: {why}"));
            return;
        }
    };
    let stdout = decoded(&finished.stdout);
    let stderr = decoded(&finished.stderr);
    let (text, truncated, stream) = match js_trim(&stdout) {
        "" => (js_trim(&stderr), finished.stderr_truncated, "stderr"),
        text => (text, finished.stdout_truncated, "stdout"),
    };
    if truncated {
        unreadable(flavor, &event.kind, &over_output_cap(stream), out);
        return;
    }
    if nested_deeper_than(text, ANSWER_DEPTH_CAP) {
        unreadable(flavor, &event.kind, &over_depth_cap(), out);
        return;
    }
    // A JSON string holding JSON is parsed again (source).
    let object = match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => Some(map),
        Ok(Value::String(inner)) if nested_deeper_than(&inner, ANSWER_DEPTH_CAP) => {
            unreadable(flavor, &event.kind, &over_depth_cap(), out);
            return;
        }
        Ok(Value::String(inner)) => match serde_json::from_str::<Value>(&inner) {
            Ok(Value::Object(map)) => Some(map),
            _ => None,
        },
        _ => None,
    };
    if let Some(map) = object {
        read_json(flavor, event, &map, out);
        return;
    }
    match code {
        _ if text.is_empty() => {
            if code != 0 {
                out.errors.push(format!("hook exited with code {code}"));
            }
        }
        0 => out.system_messages.push(text.to_string()),
        c if c == warning => out.system_messages.push(format!("{warning_prefix}{text}")),
        _ if is_permission_event(&event.kind) => deny(out, text.to_string()),
        _ => {
            out.block = true;
            out.reasons.push(text.to_string());
        }
    }
}

/// The merged outcome in the host's protocol. JSON at exit 0 wherever the host has a field for
/// it; exit 2 with the reason on stderr only where the host has no JSON form (e.g. Copilot's
/// `postToolUseFailure` guidance); anything the host cannot express goes to stderr as a
/// non-blocking note, never silently away.
pub fn encode_answer(host: Flavor, event: &Event, outcome: &Outcome) -> HostAnswer {
    let t = host.tables();
    let kind = &event.kind;
    let outcome = &*as_the_host_takes_it(host, kind, outcome);
    let mut w = Writer {
        p: &t.protocol,
        kind,
        event_name: event_name(t, kind),
        json: Map::new(),
    };
    // Reasons the host reads on stderr at exit 2, and notes for stderr at exit 0.
    let mut exit2: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let reason = outcome.reasons.join("\n");
    let tool_id = event.tool.as_ref().map(|t| t.name.as_str());
    let updated = outcome
        .updated_input
        .as_ref()
        .map(|v| input_from_canonical(host, tool_id, v));

    if is_permission_event(kind) {
        let spill = (&mut exit2, &mut notes);
        encode_permission(host, outcome, &reason, updated.as_ref(), &mut w, spill);
    } else if outcome.block {
        encode_block(host, &reason, &mut w, (&mut exit2, &mut notes));
    }
    let plain = encode_context(host, outcome, &mut w, (&mut exit2, &mut notes));
    encode_effects(host, event, outcome, &mut w, &mut notes);

    if !exit2.is_empty() {
        // The host reads stderr as the reason at exit 2 and ignores stdout.
        return HostAnswer {
            stdout: String::new(),
            stderr: exit2.join("\n"),
            exit_code: 2,
        };
    }
    notes.extend(outcome.errors.iter().cloned());
    let stdout = match plain {
        Some(text) if w.json.is_empty() => text,
        plain => {
            notes.extend(plain);
            if w.json.is_empty() {
                String::new()
            } else {
                Value::Object(w.json).to_string()
            }
        }
    };
    HostAnswer {
        stdout,
        stderr: notes.join("\n"),
        exit_code: 0,
    }
}

/// The merged outcome as the host takes it on a tool-call guard: an `ask` it cannot put to
/// anyone ([`unaskable_ask_denies`]) and a rewrite it cannot apply
/// ([`unapplied_rewrite_denies`]) deny the call. Borrowed when neither applies.
pub(crate) fn as_the_host_takes_it<'o>(
    host: Flavor,
    kind: &EventKind,
    outcome: &'o Outcome,
) -> Cow<'o, Outcome> {
    match unaskable_ask_denies(host, kind, outcome) {
        Cow::Borrowed(outcome) => match unapplied_rewrite_denies(host, kind, outcome) {
            Cow::Borrowed(outcome) => unapplied_result_blocks(host, kind, outcome),
            denied => denied,
        },
        Cow::Owned(denied) => Cow::Owned(denied),
    }
}

/// The merged outcome of the host's own handlers as the host takes it (`simulate`'s
/// prediction of what it runs itself), where hookx's answer would take it otherwise
/// ([`as_the_host_takes_it`]): an `ask` the host cannot put is no decision there, and an
/// updated input the host does not apply beside the decision is dropped: the host's own flow
/// runs the original call (Codex CLI 0.171.0 and Droid 0.225.2 ran their own handler's `ask`,
/// and beside a rewrite the original: books `nativeask`, `askrw`; attacks row 1900).
pub(crate) fn as_the_host_takes_its_own<'o>(
    host: Flavor,
    kind: &EventKind,
    outcome: &'o Outcome,
) -> Cow<'o, Outcome> {
    let p = &host.tables().protocol;
    let unaskable = outcome.decision == Some(Decision::Ask)
        && !outcome.block
        && p.fails_closed(kind)
        && !p.can_ask(kind);
    let unapplied = outcome.updated_input.is_some() && !p.applies_rewrite(kind, outcome.decision);
    if !unaskable && !unapplied {
        return Cow::Borrowed(outcome);
    }
    let mut own = outcome.clone();
    if unaskable {
        own.decision = None;
        own.reasons.clear();
    }
    own.updated_input = None;
    Cow::Owned(own)
}

/// The host's own handlers' answers on one event, folded as the host folds them
/// ([`ProtocolTables::permission_fold`]): each run is (its flavour, how it ended, its outcome),
/// in the order the host runs them. Each handler is read as [`Outcome::merge_as_a_host`] reads
/// it; where the host decides by one hook's permission field, that hook's decision and
/// reasons are the fold's (attacks rows 2040-2059).
///
/// [`ProtocolTables::permission_fold`]: crate::tables::ProtocolTables::permission_fold
pub(crate) fn fold_as_the_host(host: Flavor, runs: &[(Flavor, &Finished, &Outcome)]) -> Outcome {
    let mut outcome = Outcome::default();
    for (_, _, o) in runs {
        outcome.merge_as_a_host((*o).clone());
    }
    let fold = host.tables().protocol.permission_fold;
    let fields: Vec<Option<Decision>> = runs
        .iter()
        .map(|(flavor, finished, _)| permission_field(*flavor, finished))
        .collect();
    let decider = match fold {
        PermissionFold::Strictest => None,
        PermissionFold::FirstField => fields.iter().position(Option::is_some),
        PermissionFold::LastField => fields.iter().rposition(Option::is_some),
    };
    let Some(i) = decider else {
        return outcome;
    };
    let (field, deciding) = (fields[i], runs[i].2);
    // A deny that is not the field's (exit 2) still denies where the first field decides.
    let other_denies: Vec<&Outcome> = runs
        .iter()
        .zip(&fields)
        .filter(|((_, _, o), f)| f.is_none() && o.decision == Some(Decision::Deny))
        .map(|((_, _, o), _)| *o)
        .collect();
    match (fold, field, other_denies.first()) {
        (PermissionFold::FirstField, Some(Decision::Allow | Decision::Ask), Some(deny)) => {
            outcome.decision = Some(Decision::Deny);
            outcome.reasons = deny.reasons.clone();
        }
        _ => {
            outcome.decision = field;
            outcome.reasons = deciding.reasons.clone();
        }
    }
    if fold == PermissionFold::FirstField {
        // The deciding hook's rewrite, else the first one.
        outcome.updated_input = deciding
            .updated_input
            .clone()
            .or_else(|| runs.iter().find_map(|(_, _, o)| o.updated_input.clone()));
    }
    outcome
}

/// The decision a handler's JSON answer puts in its dialect's permission field
/// ([`Slot::Permission`]), if any: what [`PermissionFold`] hosts fold by.
fn permission_field(flavor: Flavor, finished: &Finished) -> Option<Decision> {
    let p = &flavor.tables().protocol;
    if !matches!(finished.exit, Exit::Code(0)) || !answer_is_object(p, finished) {
        return None;
    }
    let (text, _, _) = answer_text(p, finished);
    let map = match serde_json::from_str::<Value>(js_trim(&text)).ok()? {
        Value::Object(map) => map,
        Value::String(inner) => match serde_json::from_str::<Value>(&inner).ok()? {
            Value::Object(map) => map,
            _ => return None,
        },
        _ => return None,
    };
    p.answer
        .iter()
        .filter(|f| f.slot == Slot::Permission)
        .find_map(|f| match lookup(&map, f.path)?.as_str()? {
            "allow" => Some(Decision::Allow),
            "deny" => Some(Decision::Deny),
            "ask" => Some(Decision::Ask),
            _ => None,
        })
}

/// A replacement of the tool's result (a redaction: Claude's `updatedToolOutput`, Copilot's
/// `modifiedResult`) that the host has no field for becomes a block where the host's block
/// takes the result's place ([`ProtocolTables::block_withholds_result`]): dropped with a note,
/// the very output the hook withheld reached the model (attacks row 1550). Elsewhere the
/// outcome is borrowed unchanged, and the replacement is a note.
fn unapplied_result_blocks<'o>(
    host: Flavor,
    kind: &EventKind,
    outcome: &'o Outcome,
) -> Cow<'o, Outcome> {
    let p = &host.tables().protocol;
    if outcome.modified_result.is_none()
        || p.writes(Slot::ToolResult, kind)
        || !p.block_withholds_result.contains(kind)
    {
        return Cow::Borrowed(outcome);
    }
    let mut blocked = outcome.clone();
    blocked.modified_result = None;
    blocked.block = true;
    blocked.reasons.push(format!(
        "hookx withheld this tool result: a hook replaced it, which {} cannot do on {}, and the model must not see it as it was",
        host.name(),
        event_name(host.tables(), kind)
    ));
    Cow::Owned(blocked)
}

/// A handler's `allow` on a tool call is no decision where the host's allow gets past more of
/// its own permission flow than the handler's agent's allow does
/// ([`crate::tables::ProtocolTables::allow_reach`]): the host's flow decides, as the
/// handler's agent's would have. A Gemini, Codex or Qwen hook's allow leaves its agent's
/// approval in place; under Copilot CLI 1.0.102 it ran a call `--deny-tool` refuses, and under
/// Claude Code one the user would have been asked about (attacks rows 1494, 1496). Not on a
/// permission request, where an allow is the approval in every agent.
pub(crate) fn allow_as_its_agent_reads_it(
    host: Flavor,
    handler: Flavor,
    kind: &EventKind,
    outcome: &mut Outcome,
) {
    let p = &host.tables().protocol;
    if outcome.decision != Some(Decision::Allow)
        || !p.fails_closed(kind)
        || p.writes(Slot::Behavior, kind)
        || p.allow_reach <= handler.tables().protocol.allow_reach
    {
        return;
    }
    outcome.decision = None;
    outcome.errors.push(format!(
        "hook answer's allow left to {}'s own permission flow: an allow gets past more of it there than in {}",
        host.dialect().def().display,
        handler.dialect().def().display
    ));
}

/// A hook's `ask` on a host that cannot ask on the event denies the call, with the hook's
/// reason and hookx's (attacks rows 1024, 1160): such a host's own flow would decide without
/// the hook, and it runs the call where nobody is asked (Codex 0.171.0 runs a handler's own
/// `ask` like an allow, `--full-auto` and bypass modes ask nobody). No payload tells hookx
/// whether that flow will put this call to a human (Codex's `permission_mode` says `default`
/// where approvals are on, yet a sandboxed command runs unasked), so the answer is the one a
/// guard that wanted a human can live with. On the events that guard a call (where hookx's
/// failure policy denies); hosts that can ask get the `ask`, and their own flow decides
/// whether a human is there (Claude Code, Qwen Code and Copilot CLI deny it in `-p`).
fn unaskable_ask_denies<'o>(
    host: Flavor,
    kind: &EventKind,
    outcome: &'o Outcome,
) -> Cow<'o, Outcome> {
    let p = &host.tables().protocol;
    if outcome.decision != Some(Decision::Ask)
        || outcome.block
        || !p.fails_closed(kind)
        || p.can_ask(kind)
    {
        return Cow::Borrowed(outcome);
    }
    let mut denied = outcome.clone();
    denied.decision = Some(Decision::Deny);
    denied.reasons.push(format!(
        "hookx denied this call: a hook asked for confirmation, which {} cannot ask for on {}",
        host.name(),
        event_name(host.tables(), kind)
    ));
    Cow::Owned(denied)
}

/// A tool call whose rewrite the host cannot apply is denied, not run as it was: a guard that
/// sanitizes a call by rewriting it (`rm -rf /` to `echo blocked`) would otherwise be lost
/// (Qwen Code 0.24.4 runs the original beside `updatedInput`; attacks rows 1020, 1021). On
/// the events that guard a call (where hookx's failure policy denies), else the outcome is
/// borrowed unchanged.
fn unapplied_rewrite_denies<'o>(
    host: Flavor,
    kind: &EventKind,
    outcome: &'o Outcome,
) -> Cow<'o, Outcome> {
    let p = &host.tables().protocol;
    let decision = if outcome.block {
        Some(Decision::Deny)
    } else {
        outcome.decision
    };
    if outcome.updated_input.is_none()
        || decision == Some(Decision::Deny)
        || !p.fails_closed(kind)
        || p.applies_rewrite(kind, decision)
    {
        return Cow::Borrowed(outcome);
    }
    let mut denied = outcome.clone();
    denied.decision = Some(Decision::Deny);
    denied.updated_input = None;
    denied.reasons.push(format!(
        "hookx denied this call: a hook rewrote its input, which {} cannot apply on {}, and the call must not run as it was",
        host.name(),
        event_name(host.tables(), kind)
    ));
    Cow::Owned(denied)
}

/// Where the host's JSON has no room: reasons for stderr at exit 2, notes for stderr at exit 0.
type Spill<'s> = (&'s mut Vec<String>, &'s mut Vec<String>);

/// A permission event's decision (a block denies), and the updated tool input an allow carries.
fn encode_permission(
    host: Flavor,
    outcome: &Outcome,
    reason: &str,
    updated: Option<&Value>,
    w: &mut Writer,
    (exit2, notes): Spill,
) {
    let (p, kind) = (w.p, w.kind);
    let decision = if outcome.block {
        Some(Decision::Deny)
    } else {
        outcome.decision
    };
    let mut input_written = false;
    if let Some(d) = decision {
        if p.writes(Slot::Behavior, kind) {
            // A permission request has no "ask": leaving it alone is asking.
            if d != Decision::Ask {
                w.set(Slot::Behavior, decision_str(d).into());
            }
            if d == Decision::Deny {
                w.set_str(Slot::BehaviorMessage, reason);
                if outcome.interrupt && !w.set(Slot::Interrupt, true.into()) {
                    notes.push(format!(
                        "hookx: interrupt dropped: {} cannot stop the agent from {}",
                        host.name(),
                        w.event_name
                    ));
                }
            }
            if d == Decision::Allow
                && let Some(input) = updated
            {
                input_written = w.set(Slot::BehaviorInput, input.clone());
            }
        } else if p.writes(Slot::Permission, kind) && p.permission_values.contains(&d) {
            if d == Decision::Deny && p.permission_fold == PermissionFold::FirstField {
                // Where the host reads only the first hook's field, a deny there after another
                // hook's allow is not read; its exit 2 is, after any allow (Droid 0.225.2):
                // the deny is the exit code's, with its reason (attacks row 2047). A stop
                // keeps its JSON: Droid reads `continue: false` first, from any hook.
                if let (Some(Exit2::Deny), false) = (p.exit2(kind), outcome.stop) {
                    exit2.push(reason_or(reason, "denied by hook"));
                }
            }
            if d == Decision::Allow && p.permission_fold == PermissionFold::LastField {
                // Where the host takes the last hook's field, an allow there would take the
                // place of an earlier hook's deny (Qwen Code 0.24.4, whose PreToolUse allow
                // reaches nothing besides: `allow_reach`): not written (attacks row 2046).
            } else if d == Decision::Deny {
                w.set(Slot::Permission, decision_str(d).into());
                // A deny always says why: Codex refuses (and runs) a deny without a reason.
                w.set(
                    Slot::PermissionReason,
                    reason_or(reason, "denied by hook").into(),
                );
            } else {
                w.set(Slot::Permission, decision_str(d).into());
                w.set_str(Slot::PermissionReason, reason);
            }
        } else if d == Decision::Deny && p.writes(Slot::Cancel, kind) {
            w.set(Slot::Cancel, true.into());
            w.set(Slot::Reason, reason_or(reason, "denied by hook").into());
        } else if d == Decision::Deny && p.writes(Slot::Decision, kind) {
            w.set(Slot::Decision, "block".into());
            w.set(Slot::Reason, reason_or(reason, "denied by hook").into());
        } else if d == Decision::Deny && p.exit2(kind).is_some() {
            exit2.push(reason_or(reason, "denied by hook"));
        } else if d == Decision::Deny {
            notes.push(format!(
                "hookx: {} cannot deny {}: {}",
                host.name(),
                w.event_name,
                reason_or(reason, "denied by hook")
            ));
        } else if d == Decision::Ask {
            // Allow needs no note (the host's own flow goes on); a lost "ask" does.
            notes.push(format!(
                "hookx: {} cannot ask on {}, its own permission flow decides: {}",
                host.name(),
                w.event_name,
                reason_or(reason, "a hook asked for confirmation")
            ));
        }
    }
    // Beside a deny the call does not run: its input is moot (and to a host that needs an
    // allow beside it, it would undo the deny).
    let Some(input) = updated.filter(|_| !input_written && decision != Some(Decision::Deny)) else {
        return;
    };
    // On an event that guards a call, only a rewrite the host applies is left here
    // ([`unapplied_rewrite_denies`]); elsewhere one it cannot apply is said.
    if !p.applies_rewrite(kind, decision) {
        notes.push(format!(
            "hookx: updated tool input dropped: {} cannot change the input on {}",
            host.name(),
            w.event_name
        ));
        return;
    }
    if p.updated_input_needs_allow && decision != Some(Decision::Allow) {
        // The host runs a rewrite only beside an allow, which leaves its own approval in place
        // (Codex); without it the handler's rewrite would be refused.
        w.set(Slot::Permission, decision_str(Decision::Allow).into());
    }
    w.set(Slot::UpdatedInput, input.clone());
}

/// A block on any other event: where the host reads one, else the closest it has, else a note.
fn encode_block(host: Flavor, reason: &str, w: &mut Writer, (exit2, notes): Spill) {
    let (p, kind) = (w.p, w.kind);
    let reason = reason_or(reason, "blocked by hook");
    if p.writes(Slot::Decision, kind) {
        w.set(Slot::Decision, "block".into());
        w.set(Slot::Reason, reason.into());
    } else if p.writes(Slot::BlockingReason, kind) {
        w.set(Slot::BlockingReason, reason.into());
    } else if matches!(
        p.exit2(kind),
        Some(Exit2::Block | Exit2::Deny | Exit2::DenyWithoutReason)
    ) {
        exit2.push(reason);
    } else if p.writes(Slot::Context, kind) {
        // The event cannot be undone (e.g. PostToolUse): the reason still reaches the model.
        w.set(Slot::Context, reason.into());
    } else {
        notes.push(format!(
            "hookx: {} cannot block {}: {reason}",
            host.name(),
            w.event_name
        ));
    }
}

/// Additional context for the model; the plain stdout text to print when the host reads its
/// context that way only.
fn encode_context(
    host: Flavor,
    outcome: &Outcome,
    w: &mut Writer,
    (exit2, notes): Spill,
) -> Option<String> {
    let (p, kind) = (w.p, w.kind);
    if outcome.additional_context.is_empty() {
        return None;
    }
    let context = outcome.additional_context.join("\n");
    if p.writes(Slot::Context, kind) {
        let joined = match w.json_get(Slot::Context) {
            Some(Value::String(prev)) => format!("{prev}\n{context}"),
            _ => context,
        };
        w.set(Slot::Context, joined.into());
    } else if p.exit2(kind) == Some(Exit2::Context) {
        exit2.push(context);
    } else if p.plain_stdout_context.contains(kind) {
        // No JSON field for it, but plain stdout is read (Claude's PreCompact instructions).
        return Some(context);
    } else if let Some(carried) = p
        .carried_context
        .as_ref()
        .filter(|c| c.from == *kind && outcome.decision != Some(Decision::Deny))
    {
        // `hookx run` keeps it for the call's later event (`crate::dispatch::carry`), and
        // answers this one without it; this is what `simulate` and a failed keep say.
        let to: Vec<String> = carried
            .to
            .iter()
            .map(|k| event_name(host.tables(), k))
            .collect();
        notes.push(format!(
            "hookx: additional context not given on {}, where {} takes none: a rule `hookx run` routes has it carried to the same call's {}: {context}",
            w.event_name,
            host.name(),
            to.join(" or ")
        ));
    } else {
        notes.push(format!(
            "hookx: additional context dropped: {} takes none on {}: {context}",
            host.name(),
            w.event_name
        ));
    }
    None
}

/// Stopping the agent, messages, hiding output, a modified prompt or tool result: each where
/// the host has a slot for it, else a note.
fn encode_effects(
    host: Flavor,
    event: &Event,
    outcome: &Outcome,
    w: &mut Writer,
    notes: &mut Vec<String>,
) {
    if outcome.stop {
        let written = w.set(Slot::Continue, false.into());
        if let Some(why) = &outcome.stop_reason {
            w.set(Slot::StopReason, why.clone().into());
        }
        if !written {
            notes.push(format!(
                "hookx: {} cannot be told to stop: {}",
                host.name(),
                outcome
                    .stop_reason
                    .as_deref()
                    .unwrap_or("a hook asked to stop")
            ));
        }
    }
    if !outcome.system_messages.is_empty() {
        let message = outcome.system_messages.join("\n");
        if !w.set(Slot::SystemMessage, message.clone().into()) {
            notes.push(message);
        }
    }
    if outcome.suppress_output && !w.set(Slot::SuppressOutput, true.into()) {
        notes.push(format!(
            "hookx: {} cannot hide a hook's output on {}",
            host.name(),
            w.event_name
        ));
    }
    if let Some(prompt) = &outcome.modified_prompt
        && !w.set(Slot::Prompt, prompt.clone().into())
    {
        notes.push(format!(
            "hookx: modified prompt dropped: {} cannot replace the prompt on {}: {prompt}",
            host.name(),
            w.event_name
        ));
    }
    // In the tool's own shape where the host takes no other (Claude's `updatedToolOutput`).
    if let Some(result) = &outcome.modified_result
        && !super::result::replacement(host, event, outcome.modified_result_of, result).is_some_and(
            |r| {
                w.set(
                    Slot::ToolResult,
                    encode_tool_result(host.tables(), &r, false),
                )
            },
        )
    {
        notes.push(format!(
            "hookx: modified tool result dropped: {} cannot replace the result on {}: {result}",
            host.name(),
            w.event_name
        ));
    }
}

/// Writes slots where the host reads them on one event.
struct Writer<'a> {
    p: &'a ProtocolTables,
    kind: &'a EventKind,
    event_name: String,
    json: Map<String, Value>,
}

impl Writer<'_> {
    /// Writes `value` at every place the host reads `slot`; false when there is none.
    fn set(&mut self, slot: Slot, value: Value) -> bool {
        let fields: Vec<&AnswerField> = self.p.written(slot, self.kind).collect();
        for field in &fields {
            self.put(field.path, value.clone());
        }
        !fields.is_empty()
    }

    fn set_str(&mut self, slot: Slot, value: &str) {
        if !value.is_empty() {
            self.set(slot, value.into());
        }
    }

    fn json_get(&self, slot: Slot) -> Option<&Value> {
        let field = self.p.written(slot, self.kind).next()?;
        lookup(&self.json, field.path)
    }

    fn put(&mut self, path: &[&str], value: Value) {
        let Some((last, parents)) = path.split_last() else {
            return;
        };
        let mut map = &mut self.json;
        for (depth, key) in parents.iter().enumerate() {
            let entry = map
                .entry(key.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if !entry.is_object() {
                *entry = Value::Object(Map::new());
            }
            let Value::Object(inner) = entry else { return };
            if depth == 0
                && let Some((object, key)) = self.p.answer_event_key
                && object == path[0]
                && !inner.contains_key(key)
            {
                inner.insert(key.to_string(), self.event_name.clone().into());
            }
            map = inner;
        }
        map.insert(last.to_string(), value);
    }
}

fn lookup<'a>(map: &'a Map<String, Value>, path: &[&str]) -> Option<&'a Value> {
    let (first, rest) = path.split_first()?;
    let mut value = map.get(*first)?;
    for key in rest {
        value = value.as_object()?.get(*key)?;
    }
    Some(value)
}

/// Exit 0: the handler's stdout, as JSON or (where the dialect says so) plain context. Decoded
/// lossily, as the agents decode it (a deny whose reason holds one stray byte still denies);
/// an answer hookx cannot read whole (cut at the output cap, nested past the depth cap) is
/// read by the failure policy ([`unreadable`]).
fn read_stdout(flavor: Flavor, event: &Event, finished: &Finished, out: &mut Outcome) {
    let p = &flavor.tables().protocol;
    let (text, truncated, stream) = answer_text(p, finished);
    if truncated {
        unreadable(flavor, &event.kind, &over_output_cap(stream), out);
        return;
    }
    let text = js_trim(&text);
    if text.is_empty() {
        return;
    }
    if nested_deeper_than(text, ANSWER_DEPTH_CAP) {
        unreadable(flavor, &event.kind, &over_depth_cap(), out);
        return;
    }
    let plain_context = p.plain_stdout_context.contains(&event.kind);
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(map)) => read_json(flavor, event, &map, out),
        Ok(Value::String(inner)) if p.answer_text.string_parsed_again => {
            if nested_deeper_than(&inner, ANSWER_DEPTH_CAP) {
                unreadable(flavor, &event.kind, &over_depth_cap(), out);
                return;
            }
            match serde_json::from_str::<Value>(&inner) {
                Ok(Value::Object(map)) => read_json(flavor, event, &map, out),
                _ => out.errors.push(format!(
                    "hook {stream} is a string where a JSON object was expected: {}",
                    preview(text)
                )),
            }
        }
        _ if plain_context && !text.starts_with('{') => {
            out.additional_context.push(text.to_string());
        }
        Ok(other) => out.errors.push(format!(
            "hook {stream} is {} where a JSON object was expected: {}",
            json_type(&other),
            preview(text)
        )),
        Err(e) if text.starts_with(['{', '[']) => out.errors.push(format!(
            "hook {stream} is not valid JSON ({e}): {}",
            preview(text)
        )),
        Err(_) => out.errors.push(format!(
            "hook {stream} is not JSON, ignored: {}",
            preview(text)
        )),
    }
}

/// The text a handler's own client reads as its answer ([`crate::tables::AnswerText`]): the
/// last control line where the client reads one, else stderr where the client reads it in
/// place of an empty stdout, else the whole stdout; with whether that stream was cut at the
/// output cap, and its name. The common case borrows stdout and reads nothing more.
fn answer_text<'a>(
    p: &ProtocolTables,
    finished: &'a Finished,
) -> (Cow<'a, str>, bool, &'static str) {
    let stdout = decoded(&finished.stdout);
    let wants = &p.answer_text;
    if let Some(prefix) = wants.control_line
        && let Some(line) = stdout
            .lines()
            .rev()
            .map(js_trim)
            .find(|line| line.starts_with(prefix))
    {
        let answer = line[prefix.len()..].to_string();
        return (Cow::Owned(answer), finished.stdout_truncated, "stdout");
    }
    if wants.stderr_when_stdout_empty
        && finished.exit != Exit::Code(2)
        && js_trim(&stdout).is_empty()
    {
        return (
            decoded(&finished.stderr),
            finished.stderr_truncated,
            "stderr",
        );
    }
    (stdout, finished.stdout_truncated, "stdout")
}

/// Whether the handler's answer is a JSON object (not cut at the output cap), read as
/// [`read_stdout`] reads it: a deny at exit 1 with a stray byte or after a byte order mark
/// still counts (attacks row 700), and so does one where [`answer_text`] finds it (rows
/// 820, 822).
fn answer_is_object(p: &ProtocolTables, finished: &Finished) -> bool {
    let (text, truncated, _) = answer_text(p, finished);
    let text = js_trim(&text);
    if truncated {
        return false;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(_)) => true,
        // Too deep to read is read as unreadable, by the failure policy.
        Ok(Value::String(inner)) if p.answer_text.string_parsed_again => {
            nested_deeper_than(&inner, ANSWER_DEPTH_CAP)
                || serde_json::from_str::<Value>(&inner).is_ok_and(|v| v.is_object())
        }
        _ => false,
    }
}

/// A handler's output as the agents decode it: lossily, and with each lone surrogate escape
/// (`\ud83d`, half an emoji a Node hook cut off) read as U+FFFD, which `JSON.parse` takes and
/// serde_json refuses the whole answer for (attacks row 709). Borrowed when nothing changed.
fn decoded(output: &[u8]) -> Cow<'_, str> {
    match replace_lone_surrogates(output) {
        Cow::Borrowed(bytes) => String::from_utf8_lossy(bytes),
        Cow::Owned(bytes) => Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()),
    }
}

/// An answer's text trimmed as the JavaScript agents trim it before they parse it
/// (`String.prototype.trim`: Claude Code, Gemini CLI, Qwen Code): a byte order mark is white
/// space there, and U+0085 is not (attacks row 700: a deny after a mark denies in Claude Code
/// 2.1.332).
fn js_trim(text: &str) -> &str {
    text.trim_matches(|c: char| c == '\u{FEFF}' || (c.is_whitespace() && c != '\u{0085}'))
}

/// A handler's answer hookx cannot read whole, by the failure policy of its event
/// ([`ProtocolTables::fails_closed`]): where the event guards a tool call the call is denied,
/// saying why (the answer may have been a deny); elsewhere a non-blocking error, nothing
/// blocked.
///
/// [`ProtocolTables::fails_closed`]: crate::tables::ProtocolTables::fails_closed
fn unreadable(flavor: Flavor, kind: &EventKind, why: &str, out: &mut Outcome) {
    if flavor.tables().protocol.fails_closed(kind) {
        deny(
            out,
            format!("hookx could not check this tool call, so it is denied: {why}"),
        );
    } else {
        out.errors.push(format!("hook answer ignored: {why}"));
    }
}

/// Why an answer cut at [`OUTPUT_CAP`] is not read.
///
/// [`OUTPUT_CAP`]: crate::spawn::OUTPUT_CAP
fn over_output_cap(stream: &str) -> String {
    format!(
        "the hook's {stream} is over hookx's {} MiB cap, so its answer cannot be read whole",
        crate::spawn::OUTPUT_CAP >> 20
    )
}

/// Why an answer nested past [`ANSWER_DEPTH_CAP`] is not read.
fn over_depth_cap() -> String {
    format!(
        "the hook's JSON answer is nested deeper than hookx's cap of {ANSWER_DEPTH_CAP} levels, so it cannot be read"
    )
}

/// Whether JSON `text` nests arrays and objects more than `cap` levels deep (strings skipped;
/// text that is not JSON is scanned all the same).
fn nested_deeper_than(text: &str, cap: usize) -> bool {
    if !text.starts_with(['{', '[', '"']) {
        return false;
    }
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for b in text.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                if depth > cap {
                    return true;
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// Reads every slot the handler's dialect places in its answer object.
fn read_json(flavor: Flavor, event: &Event, map: &Map<String, Value>, out: &mut Outcome) {
    let p = &flavor.tables().protocol;
    let kind = &event.kind;
    let permission_event = is_permission_event(kind);
    let tool_id = event.tool.as_ref().map(|t| t.name.as_str());
    let mut seen_paths: Vec<&[&str]> = Vec::new();
    let mut seen_text: Vec<(Slot, String)> = Vec::new();
    let mut deferred = false;
    for field in p.answer {
        if seen_paths.contains(&field.path) {
            continue;
        }
        seen_paths.push(field.path);
        let Some(value) = lookup(map, field.path) else {
            continue;
        };
        if value.is_null() {
            continue;
        }
        let key = field.path.join(".");
        // Where the agent reads no `decision`, neither it nor its reason is an answer.
        if p.decision_ignored.contains(kind) && matches!(field.slot, Slot::Decision | Slot::Reason)
        {
            if field.slot == Slot::Decision && value != "approve" && value != "allow" {
                out.errors.push(format!(
                    "{} reads no `{key}` on {}, and neither does hookx: {value} is not passed on",
                    flavor.name(),
                    event_name(flavor.tables(), kind),
                ));
            }
            continue;
        }
        let mut text = |slot: Slot, out: &mut Outcome| -> Option<String> {
            let Value::String(s) = value else {
                out.errors.push(format!(
                    "hook answer `{key}` must be a string, not {}",
                    json_type(value)
                ));
                return None;
            };
            if s.is_empty() || seen_text.iter().any(|(sl, t)| *sl == slot && t == s) {
                return None;
            }
            seen_text.push((slot, s.clone()));
            Some(s.clone())
        };
        match field.slot {
            Slot::Continue => match value {
                Value::Bool(b) => out.stop |= !b,
                other => out.errors.push(format!(
                    "hook answer `{key}` must be a boolean, not {}",
                    json_type(other)
                )),
            },
            Slot::StopReason => {
                if let Some(s) = text(Slot::StopReason, out) {
                    out.stop_reason.get_or_insert(s);
                }
            }
            Slot::SuppressOutput => out.suppress_output |= value.as_bool().unwrap_or(false),
            Slot::SystemMessage => {
                if let Some(s) = text(Slot::SystemMessage, out) {
                    out.system_messages.push(s);
                }
            }
            Slot::Decision => {
                if let Some(s) = text(Slot::Decision, out) {
                    match (s.as_str(), permission_event) {
                        ("block" | "deny", true) => set_decision(out, Decision::Deny),
                        ("block" | "deny", false) => out.block = true,
                        ("approve" | "allow", true) => set_decision(out, Decision::Allow),
                        ("approve" | "allow", false) => {}
                        ("ask", true) => set_decision(out, Decision::Ask),
                        (other, _) => out.errors.push(format!(
                            "hook answer `{key}` has an unknown value {other:?}"
                        )),
                    }
                }
            }
            Slot::Permission | Slot::Behavior => {
                if let Some(s) = text(field.slot, out) {
                    match s.as_str() {
                        pass if p.permission_passes.contains(&pass) => {}
                        defer
                            if field.slot == Slot::Permission
                                && p.permission_defers.contains(&defer) =>
                        {
                            set_decision(out, Decision::Ask);
                            deferred = true;
                        }
                        "allow" => set_decision(out, Decision::Allow),
                        "deny" => set_decision(out, Decision::Deny),
                        "ask" if field.slot == Slot::Permission => set_decision(out, Decision::Ask),
                        other => out.errors.push(format!(
                            "hook answer `{key}` has an unknown value {other:?}"
                        )),
                    }
                }
            }
            Slot::Cancel => match value {
                Value::Bool(true) if permission_event => set_decision(out, Decision::Deny),
                Value::Bool(true) => out.block = true,
                Value::Bool(false) => {}
                other => out.errors.push(format!(
                    "hook answer `{key}` must be a boolean, not {}",
                    json_type(other)
                )),
            },
            Slot::Reason | Slot::PermissionReason | Slot::BehaviorMessage => {
                if let Some(s) = text(Slot::Reason, out) {
                    out.reasons.push(s);
                }
            }
            Slot::Interrupt => out.interrupt |= value.as_bool().unwrap_or(false),
            Slot::UpdatedInput | Slot::BehaviorInput => {
                let input = match value {
                    // Copilot may send arguments JSON-encoded, as it does in its payloads.
                    Value::String(s) => serde_json::from_str::<Value>(s)
                        .ok()
                        .filter(Value::is_object)
                        .unwrap_or_else(|| value.clone()),
                    v => v.clone(),
                };
                let mut input = input_to_canonical(flavor, tool_id, input);
                if p.updated_input_merges
                    && let (Some(tool), Value::Object(changes)) = (&event.tool, &input)
                    && let Value::Object(original) = &tool.input
                {
                    let mut merged = original.clone();
                    merged.extend(changes.clone());
                    input = Value::Object(merged);
                }
                out.updated_input = Some(input);
            }
            Slot::Context => {
                if let Some(s) = text(Slot::Context, out) {
                    out.additional_context.push(s);
                }
            }
            Slot::Prompt => {
                if let Some(s) = text(Slot::Prompt, out) {
                    out.modified_prompt = Some(s);
                }
            }
            Slot::ToolResult => {
                out.modified_result = Some(decode_tool_result(flavor.tables(), value.clone()));
                out.modified_result_of = flavor.dialect().name();
            }
            Slot::BlockingReason => {
                if let Some(s) = text(Slot::Reason, out) {
                    out.block = true;
                    out.reasons.push(s);
                }
            }
        }
    }
    if p.reason_alone_is_context && out.decision != Some(Decision::Deny) && !out.block {
        // The client shows the reason to the model as context, unless context came too.
        let reasons = std::mem::take(&mut out.reasons);
        if out.additional_context.is_empty() {
            out.additional_context.extend(reasons);
        }
    }
    if deferred {
        // The call is put off as it came (`permission_defers`).
        out.updated_input = None;
    }
    if p.updated_input_needs_allow
        && out.updated_input.is_some()
        && out.decision != Some(Decision::Allow)
    {
        // Its own agent would refuse the answer and run the original call (a deny stays a deny
        // here: the stricter reading).
        out.updated_input = None;
        out.errors.push(format!(
            "hook answer's updated tool input ignored: {} takes it only beside an allow",
            flavor.name()
        ));
    }
}

/// Deny beats ask beats allow, within one answer as across answers.
fn set_decision(out: &mut Outcome, decision: Decision) {
    out.decision = out.decision.max(Some(decision));
}

fn deny(out: &mut Outcome, reason: String) {
    out.decision = Some(Decision::Deny);
    out.reasons.push(reason);
}

fn decision_str(decision: Decision) -> &'static str {
    match decision {
        Decision::Allow => "allow",
        Decision::Ask => "ask",
        Decision::Deny => "deny",
    }
}

fn reason_or(reason: &str, default: &str) -> String {
    if reason.is_empty() {
        default.to_string()
    } else {
        reason.to_string()
    }
}

fn failure(what: &str, stderr: &str) -> String {
    if stderr.is_empty() {
        format!("hook {what}")
    } else {
        format!("hook {what}: {}", preview(stderr))
    }
}

fn preview(text: &str) -> String {
    let text = text.trim();
    match text.char_indices().nth(PREVIEW_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The depth cap is hookx's, not serde_json's: an answer nested exactly to the cap parses,
    /// one level more is over it; brackets inside strings (escaped quotes too) do not count.
    #[test]
    fn the_depth_cap_is_within_what_serde_json_reads() {
        let nested = |levels: usize| {
            format!(
                "{{\"a\":{}{}}}",
                "[".repeat(levels - 1),
                "]".repeat(levels - 1)
            )
        };
        let at_cap = nested(ANSWER_DEPTH_CAP);
        assert!(serde_json::from_str::<Value>(&at_cap).is_ok());
        assert!(!nested_deeper_than(&at_cap, ANSWER_DEPTH_CAP));
        assert!(nested_deeper_than(
            &nested(ANSWER_DEPTH_CAP + 1),
            ANSWER_DEPTH_CAP
        ));
        let brackets = "[".repeat(ANSWER_DEPTH_CAP * 2);
        let in_string = format!(r#"{{"reason":"\"{brackets}\\"}}"#);
        assert!(
            serde_json::from_str::<Value>(&in_string).is_ok(),
            "{in_string}"
        );
        assert!(!nested_deeper_than(&in_string, ANSWER_DEPTH_CAP));
        assert!(!nested_deeper_than(&brackets[1..], 1_000) && !nested_deeper_than("deny", 0));
    }
}
