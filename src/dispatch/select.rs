//! Choosing the handlers an event fires: each rule is matched with the semantics of the flavour
//! it was written in, and identical handlers run once.

use crate::dialect::MatchOn;
use crate::model::{CompiledMatcher, Event, Handler, MatcherForm, Rule};
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, MutexGuard, mpsc};
use std::thread;
use std::time::{Duration, Instant};

/// A handler the event fires, with the rule it belongs to.
#[derive(Debug)]
pub struct Selected<'a, S> {
    pub rule: &'a Rule,
    pub handler: &'a Handler,
    /// Whatever the caller attached to the rule (its source, say).
    pub source: &'a S,
}

/// A rule whose matcher could not be compiled (Copilot skips such hooks; so does hookx), or
/// could not be evaluated (the failure policy answers: [`crate::dispatch::failure`]).
#[derive(Debug)]
pub struct Skipped<'a> {
    pub rule: &'a Rule,
    pub reason: String,
    /// The matcher may be valid but was not evaluated (it ran away, or the budget was spent):
    /// whether the rule would have fired is unknown.
    pub unevaluated: bool,
}

/// Why a rule has no verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoVerdict {
    /// The matcher is invalid: it never fires, under the host as under hookx.
    Invalid(String),
    /// The matcher was not evaluated in time: whether it fires is unknown.
    Unevaluated(String),
}

impl NoVerdict {
    pub fn reason(&self) -> &str {
        match self {
            NoVerdict::Invalid(why) | NoVerdict::Unevaluated(why) => why,
        }
    }
}

/// How long one regex matcher may take to compile and test one value. Matchers are ECMAScript
/// regexes run by a backtracking engine (`regress`, which has no step limit): `(a+)+$` against
/// forty `a`s and a `!` would run for hours. Real matchers answer in microseconds.
pub const MATCH_TIME_LIMIT: Duration = Duration::from_secs(1);

/// How long all the regex matchers of one event may take together: a config with thousands of
/// slow (not runaway) matchers is bounded too. Matchers not evaluated by then skip their rules.
pub const MATCH_BUDGET: Duration = Duration::from_secs(3);

/// The handlers of `rules` that `event` fires, in rule order, identical handlers (same
/// dialect, same command or prompt) once. Only the matchers of this event's rules are compiled;
/// a matcher that is invalid or runs away skips its rule.
pub fn select<'a, S>(
    rules: impl IntoIterator<Item = (&'a Rule, &'a S)>,
    event: &Event,
) -> (Vec<Selected<'a, S>>, Vec<Skipped<'a>>) {
    let rules: Vec<(&'a Rule, &'a S)> = rules
        .into_iter()
        .filter(|(rule, _)| rule.event == event.kind)
        .collect();
    let verdicts = rules_match(rules.iter().map(|(rule, _)| *rule), event);
    let mut selected: Vec<Selected<'a, S>> = Vec::new();
    let mut skipped = Vec::new();
    for ((rule, source), verdict) in rules.into_iter().zip(verdicts) {
        match verdict {
            Ok(false) => continue,
            Ok(true) => {}
            Err(no) => {
                skipped.push(Skipped {
                    rule,
                    unevaluated: matches!(no, NoVerdict::Unevaluated(_)),
                    reason: no.reason().to_string(),
                });
                continue;
            }
        }
        for handler in &rule.handlers {
            let duplicate = selected.iter().any(|s| {
                s.rule.flavor.dialect() == rule.flavor.dialect() && s.handler.kind == handler.kind
            });
            if !duplicate {
                selected.push(Selected {
                    rule,
                    handler,
                    source,
                });
            }
        }
    }
    (selected, skipped)
}

/// Whether the rule's matcher accepts the event, read in the rule's own flavour: tool names
/// are compared in that flavour's spelling. A regex is evaluated within [`MATCH_TIME_LIMIT`].
pub fn rule_matches(rule: &Rule, event: &Event) -> Result<bool, String> {
    rules_match([rule], event)
        .pop()
        .expect("one verdict per rule")
        .map_err(|no| no.reason().to_string())
}

/// One verdict per rule (`Err`: no verdict, and why). Exact lists are decided here; regexes on
/// a worker thread, each within [`MATCH_TIME_LIMIT`]. Only a rule's event, flavour and matcher
/// are read.
pub fn rules_match<'a>(
    rules: impl IntoIterator<Item = &'a Rule>,
    event: &Event,
) -> Vec<Result<bool, NoVerdict>> {
    let mut verdicts = Vec::new();
    let mut regexes = Vec::new();
    for rule in rules {
        let tables = rule.flavor.tables();
        let Some(on) = tables.matcher_target(&event.kind) else {
            // This flavour ignores matchers on this event.
            verdicts.push(Ok(true));
            continue;
        };
        let value = match on {
            // The name the handler sees in its payload.
            MatchOn::ToolName => match &event.tool {
                Some(tool) => {
                    crate::protocol::payload::tool_name(rule.flavor, &tool.name).to_string()
                }
                None => String::new(),
            },
            MatchOn::Field(name) => event.field(name).unwrap_or_default().to_string(),
        };
        let matcher = rule.matcher.as_deref().unwrap_or("");
        match tables.matcher_style.form(rule.matcher.as_deref()) {
            MatcherForm::Regex { pattern, anchored } => {
                let key = (pattern, anchored, value);
                match lock_verdicts().get(&key) {
                    Some(known) => verdicts.push(known.clone()),
                    None => {
                        regexes.push((verdicts.len(), RegexJob::new(matcher, key)));
                        verdicts.push(Ok(false));
                    }
                }
            }
            form => verdicts.push(
                CompiledMatcher::compile(&form)
                    .map(|m| m.is_match(&value))
                    .map_err(|e| NoVerdict::Invalid(format!("invalid matcher `{matcher}`: {e}"))),
            ),
        }
    }
    let (slots, jobs): (Vec<usize>, Vec<RegexJob>) = regexes.into_iter().unzip();
    let keys: Vec<RegexKey> = jobs.iter().map(|job| job.key.clone()).collect();
    for ((slot, key), verdict) in slots.into_iter().zip(keys).zip(run_bounded(jobs)) {
        lock_verdicts().insert(key, verdict.clone());
        verdicts[slot] = verdict;
    }
    verdicts
}

/// For each rule, whether `event` may fire it: its matcher accepts the event, or cannot be
/// evaluated (dispatch then reports it). What `hookx run` builds rules by
/// ([`crate::discover::discover_firing`]).
pub fn can_fire(rules: &[Rule], event: &Event) -> Vec<bool> {
    rules_match(rules, event)
        .into_iter()
        .map(|verdict| !matches!(verdict, Ok(false)))
        .collect()
}

/// A regex matcher (pattern, anchored) and the value it is tested against.
type RegexKey = (String, bool, String);

/// The regex verdicts reached in this process: `hookx run` asks about the rules that can fire
/// twice (to build only those, then to dispatch them), and a runaway matcher must not cost its
/// time limit twice.
static REGEX_VERDICTS: LazyLock<Mutex<HashMap<RegexKey, Result<bool, NoVerdict>>>> =
    LazyLock::new(Mutex::default);

fn lock_verdicts() -> MutexGuard<'static, HashMap<RegexKey, Result<bool, NoVerdict>>> {
    REGEX_VERDICTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A regex matcher to compile and test against one value.
#[derive(Clone)]
struct RegexJob {
    /// The matcher as written, for messages.
    matcher: String,
    key: RegexKey,
}

impl RegexJob {
    fn new(matcher: &str, key: RegexKey) -> RegexJob {
        RegexJob {
            matcher: matcher.to_string(),
            key,
        }
    }

    fn run(&self) -> Result<bool, NoVerdict> {
        let (pattern, anchored, value) = &self.key;
        let form = MatcherForm::Regex {
            pattern: pattern.clone(),
            anchored: *anchored,
        };
        CompiledMatcher::compile(&form)
            .map(|m| m.is_match(value))
            .map_err(|e| NoVerdict::Invalid(format!("invalid matcher `{}`: {e}", self.matcher)))
    }
}

/// Runs the jobs in order on a worker thread, giving each [`MATCH_TIME_LIMIT`] and all of them
/// [`MATCH_BUDGET`]. A job that overruns is abandoned (its thread spins until the process
/// exits) and the rest go on on a new worker; once the budget is spent the rest are skipped.
fn run_bounded(jobs: Vec<RegexJob>) -> Vec<Result<bool, NoVerdict>> {
    let started = Instant::now();
    let mut verdicts = Vec::with_capacity(jobs.len());
    while verdicts.len() < jobs.len() {
        let (tx, rx) = mpsc::channel();
        let batch = jobs[verdicts.len()..].to_vec();
        let worker = thread::Builder::new()
            .name("hookx-matcher".into())
            .spawn(move || {
                for job in &batch {
                    if tx.send(job.run()).is_err() {
                        return;
                    }
                }
            });
        if let Err(e) = worker {
            let why = format!("matcher not evaluated: cannot start a thread for it: {e}");
            verdicts.resize(jobs.len(), Err(NoVerdict::Unevaluated(why)));
            break;
        }
        while verdicts.len() < jobs.len() {
            let job = &jobs[verdicts.len()];
            let wait = MATCH_TIME_LIMIT.min(MATCH_BUDGET.saturating_sub(started.elapsed()));
            match rx.recv_timeout(wait) {
                Ok(verdict) => verdicts.push(verdict),
                Err(mpsc::RecvTimeoutError::Timeout) if wait < MATCH_TIME_LIMIT => {
                    // The budget is spent: this job and every later one are skipped.
                    for job in &jobs[verdicts.len()..] {
                        verdicts.push(Err(NoVerdict::Unevaluated(format!(
                            "matcher `{}` not evaluated: this event's regex matchers took more \
                             than {} ms in all; hookx skips the rest",
                            job.matcher,
                            MATCH_BUDGET.as_millis()
                        ))));
                    }
                    return verdicts;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    verdicts.push(Err(NoVerdict::Unevaluated(format!(
                        "matcher `{}` ran away: no answer on `{}` within {} ms (catastrophic \
                         backtracking? nested quantifiers such as `(a+)+` explode on long values); \
                         the rule is skipped",
                        job.matcher,
                        shorten(&job.key.2),
                        MATCH_TIME_LIMIT.as_millis()
                    ))));
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    verdicts.push(Err(NoVerdict::Unevaluated(format!(
                        "matcher `{}` could not be evaluated (the matcher thread died)",
                        job.matcher
                    ))));
                    break;
                }
            }
        }
    }
    verdicts
}

/// At most 60 characters of a value, for messages.
fn shorten(value: &str) -> String {
    match value.char_indices().nth(60) {
        Some((end, _)) => format!("{}…", &value[..end]),
        None => value.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Flavor;
    use crate::model::tool::ids;
    use crate::model::{Command, EventKind, HandlerKind, Origin, RuleShape, ToolCall};

    fn rule(flavor: Flavor, matcher: &str, command: &str) -> Rule {
        Rule {
            event: EventKind::PreToolUse,
            flavor,
            matcher: Some(matcher.into()),
            handlers: vec![Handler {
                kind: HandlerKind::Command(Command {
                    command: Some(command.into()),
                    ..Command::default()
                }),
                timeout: None,
                status_message: None,
                once: None,
                extra: Default::default(),
            }],
            shape: RuleShape::Group,
            extra: Default::default(),
            origin: Origin::default(),
        }
    }

    fn commands(selected: &[Selected<'_, ()>]) -> Vec<String> {
        selected
            .iter()
            .map(|s| match &s.handler.kind {
                HandlerKind::Command(c) => c.command.clone().unwrap(),
                _ => unreachable!(),
            })
            .collect()
    }

    fn edit_event() -> Event {
        Event {
            kind: EventKind::PreToolUse,
            timestamp: None,
            tool: Some(ToolCall {
                name: ids::EDIT.into(),
                input: serde_json::json!({}),
            }),
            fields: Default::default(),
        }
    }

    #[test]
    fn each_rule_matches_in_its_own_flavour() {
        let rules = [
            rule(Flavor::Claude, "Edit|Write", "claude"),
            rule(Flavor::Copilot, "edit", "copilot"),
            rule(Flavor::Copilot, "ed", "anchored: no"),
            rule(Flavor::Bricks, "edit_file", "bricks"),
            rule(Flavor::Claude, "Bash", "no"),
        ];
        let (selected, skipped) = select(rules.iter().map(|r| (r, &())), &edit_event());
        assert_eq!(commands(&selected), ["claude", "copilot", "bricks"]);
        assert!(skipped.is_empty());
    }

    #[test]
    fn runaway_matchers_are_skipped_in_bounded_time() {
        let mut event = edit_event();
        event.tool.as_mut().unwrap().name = format!("{}!", "a".repeat(40));
        let rules = [
            rule(Flavor::Claude, "(a+)+$", "evil"),
            rule(Flavor::Claude, "a+!", "good"),
            rule(Flavor::Claude, "(a|a)*b", "evil too"),
            rule(Flavor::Claude, "(a|aa)*c", "not evaluated"),
            rule(Flavor::Claude, "*", "all"),
        ];
        let started = std::time::Instant::now();
        let (selected, skipped) = select(rules.iter().map(|r| (r, &())), &event);
        let elapsed = started.elapsed();
        assert!(elapsed < MATCH_BUDGET + MATCH_TIME_LIMIT, "{elapsed:?}");
        assert_eq!(commands(&selected), ["good", "all"]);
        let reasons: Vec<_> = skipped.iter().map(|s| s.reason.as_str()).collect();
        assert_eq!(reasons.len(), 3, "{reasons:?}");
        assert!(reasons[0].contains("`(a+)+$` ran away"), "{}", reasons[0]);
        assert!(reasons[1].contains("`(a|a)*b` ran away"), "{}", reasons[1]);
        assert!(reasons[2].contains("not evaluated"), "{}", reasons[2]);
    }

    #[test]
    fn identical_handlers_run_once_and_bad_regexes_are_skipped() {
        let rules = [
            rule(Flavor::Claude, "Edit", "same"),
            rule(Flavor::Claude, "Edit|Write", "same"),
            rule(Flavor::Copilot, "(edit", "broken"),
        ];
        let (selected, skipped) = select(rules.iter().map(|r| (r, &())), &edit_event());
        assert_eq!(selected.len(), 1);
        assert_eq!(skipped.len(), 1);
    }
}
