//! Choosing the handlers an event fires: each rule is matched with the semantics of the flavour
//! it was written in, and identical handlers run once.

use crate::model::bounded::{self, Answer, Job};
use crate::model::event::PARENT_AGENT_ID;
use crate::model::matcher::Literals;
use crate::model::{CompiledMatcher, Event, EventKind, Handler, MatcherForm};
use crate::tables::Rule;
use crate::tables::{Flavor, MatchOn};
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, MutexGuard};

pub use crate::model::bounded::{MATCH_BUDGET, MATCH_TIME_LIMIT};

/// A handler the event fires, with the rule it belongs to.
#[derive(Debug)]
pub struct Selected<'a, S> {
    pub rule: &'a Rule,
    pub handler: &'a Handler,
    /// Whatever the caller attached to the rule (its source, say).
    pub source: &'a S,
}

/// A rule not fired because its matcher could not be decided.
#[derive(Debug)]
pub struct Skipped<'a> {
    pub rule: &'a Rule,
    /// [`MatchVerdict::Invalid`] or [`MatchVerdict::Unevaluable`].
    pub verdict: MatchVerdict,
    pub reason: String,
}

impl Skipped<'_> {
    /// Whether hookx could not tell if the rule fires (as opposed to an invalid matcher,
    /// which the agent skips too): the dispatcher must not read this as "no match".
    pub fn unevaluable(&self) -> bool {
        matches!(self.verdict, MatchVerdict::Unevaluable(_))
    }
}

/// What a rule's matcher says about an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchVerdict {
    Match,
    NoMatch,
    /// The matcher is not a valid regex: the agent skips such a hook (Copilot does), and so
    /// does hookx.
    Invalid(String),
    /// hookx could not evaluate the matcher within its bounds of time, stack and memory
    /// ([`bounded`]): a regex too large or a value too long for the engine, a runaway regex,
    /// or the process's regex budget spent. Whether the rule would fire is unknown; the
    /// dispatcher reports it and decides by its failure policy, never as "no match".
    Unevaluable(String),
}

impl MatchVerdict {
    /// The verdict as a result: `Err` (why) when the matcher could not be decided.
    pub fn as_result(&self) -> Result<bool, String> {
        match self {
            MatchVerdict::Match => Ok(true),
            MatchVerdict::NoMatch => Ok(false),
            MatchVerdict::Invalid(why) | MatchVerdict::Unevaluable(why) => Err(why.clone()),
        }
    }
}

/// The handlers of `rules` that `event` fires, in rule order, identical handlers (same
/// dialect, same command or prompt) once. Only the matchers of this event's rules are compiled;
/// a matcher that is invalid or cannot be evaluated skips its rule, with the verdict. A rule
/// after a tool call fires as its own agent fires it after that call, failed or not
/// ([`crate::protocol::failed::fires`]): a Claude PostToolUseFailure rule on Gemini CLI's
/// AfterTool that marks a failure, a Gemini AfterTool rule on Claude's PostToolUseFailure.
pub fn select<'a, S>(
    rules: impl IntoIterator<Item = (&'a Rule, &'a S)>,
    event: &Event,
) -> (Vec<Selected<'a, S>>, Vec<Skipped<'a>>) {
    let rules: Vec<(&'a Rule, &'a S)> = rules
        .into_iter()
        .filter(|(rule, _)| crate::protocol::failed::fires(rule.flavor, &rule.event, event))
        .collect();
    let verdicts = rules_match(rules.iter().map(|(rule, _)| *rule), event);
    let mut selected: Vec<Selected<'a, S>> = Vec::new();
    let mut skipped = Vec::new();
    for ((rule, source), verdict) in rules.into_iter().zip(verdicts) {
        match verdict {
            MatchVerdict::NoMatch => continue,
            MatchVerdict::Match => {}
            MatchVerdict::Invalid(ref why) | MatchVerdict::Unevaluable(ref why) => {
                let reason = why.clone();
                skipped.push(Skipped {
                    rule,
                    verdict,
                    reason,
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
/// are compared in that flavour's spelling. A regex is evaluated within [`bounded`]'s limits.
pub fn rule_matches(rule: &Rule, event: &Event) -> MatchVerdict {
    rules_match([rule], event)
        .pop()
        .expect("one verdict per rule")
}

/// Whether `rule` may fire on `event`: its matcher matches it, or cannot be evaluated here.
pub fn may_fire(rule: &Rule, event: &Event) -> bool {
    rule_matches(rule, event) != MatchVerdict::NoMatch
}

/// Why `rule` never runs under `host`: its matcher reads a field `host`'s recorded payload of
/// the event never carries, and no value the field could then hold matches (attacks row 1990:
/// Auggie's `SessionStart` has no `source`, so a Claude rule on `startup` or `resume` never
/// runs there). `None` where the field is sent, or the matcher fires without it.
pub fn never_matches(host: crate::tables::Dialect, rule: &Rule) -> Option<String> {
    let Some(MatchOn::Field(field)) = rule.flavor.tables().matcher_target(&rule.event) else {
        return None;
    };
    let event = crate::protocol::payload::recorded_event(host, &rule.event)?;
    if event.field(field).is_some() || rule_matches(rule, &event) != MatchVerdict::NoMatch {
        return None;
    }
    let t = host.default_flavor().tables();
    Some(format!(
        "{}'s `{}` payload carries no `{field}`, which the rule's matcher `{}` reads: there \
         the rule never runs",
        host.def().display,
        t.event_name(&rule.event).unwrap_or(rule.event.name()),
        rule.matcher.as_deref().unwrap_or_default()
    ))
}

/// One verdict per rule. Exact lists and literal alternatives are decided here; other regexes
/// by [`bounded::run`]. Only a rule's event, flavour, matcher and origin file are read.
/// Verdicts are remembered within the process per file, never shared between files.
pub fn rules_match<'a>(
    rules: impl IntoIterator<Item = &'a Rule>,
    event: &Event,
) -> Vec<MatchVerdict> {
    let rules: Vec<&Rule> = rules.into_iter().collect();
    let mut verdicts = match_each(&rules, event);
    unshown_calls(&rules, event, &mut verdicts);
    verdicts
}

/// A call a rule guards under a name it does not give. A multi-edit is edits: a rule that fires
/// on the flavour's Edit fires on it ([`crate::model::tool::PARTS`]; attacks row 1062: Codex
/// sends a patch of two hunks of `.env` as a MultiEdit, which Claude Code 2.1.332 no longer has,
/// and a Claude `Write|Edit` guard never ran). A call one tool of the host makes for several of
/// a rule's tools, which hookx could not decode into one of them (a Codex patch of several
/// files, a move or a deletion: no Write or Edit shows it), cannot be shown to a rule that
/// does not know the host's tool but fires on one of those: its verdict is unevaluable, so the
/// failure policy answers (a deny before the call), never a silent pass (attacks row 1061: a
/// Claude `Write` guard on `.env` let a patch of `.env` and `notes.txt` through under Codex).
fn unshown_calls(rules: &[&Rule], event: &Event, verdicts: &mut [MatchVerdict]) {
    let Some(tool) = event.tool.as_ref().filter(|_| event.kind.is_tool_event()) else {
        return;
    };
    let name = tool.name.as_str();
    let part = crate::model::tool::PARTS
        .iter()
        .find(|(whole, _)| *whole == name);
    let ids: &[&str] = match part {
        Some((_, parts)) => parts,
        None if crate::model::tool::is_canonical(name) => return,
        None => match Flavor::all()
            .iter()
            .flat_map(|f| f.tables().tool_codecs)
            .find(|c| c.name == name)
        {
            Some(codec) => codec.ids,
            None => return,
        },
    };
    for (rule, verdict) in rules.iter().zip(verdicts.iter_mut()) {
        let knows_it = || {
            rule.flavor
                .tables()
                .tools
                .iter()
                .any(|(_, names)| names.contains(&name))
        };
        if *verdict != MatchVerdict::NoMatch || (part.is_none() && knows_it()) {
            continue;
        }
        let fires_on = ids.iter().find(|id| {
            let one = Event::tool_call(event.kind.clone(), id, serde_json::Value::Null);
            match_each(&[rule], &one)[0] == MatchVerdict::Match
        });
        let Some(id) = fires_on else { continue };
        *verdict = match part {
            Some(_) => MatchVerdict::Match,
            None => {
                let shown = crate::protocol::payload::tool_name(rule.flavor, id);
                MatchVerdict::Unevaluable(format!(
                    "this `{name}` call changes what a `{shown}` rule guards, but is no one \
                     `{shown}` call it can be shown (a patch of several files, a move or a \
                     deletion); make one change per call"
                ))
            }
        };
    }
}

/// [`rules_match`] on the tool the event names.
fn match_each(rules: &[&Rule], event: &Event) -> Vec<MatchVerdict> {
    let mut verdicts = Vec::new();
    let mut regexes: Vec<(usize, RegexKey)> = Vec::new();
    // The tool names a matcher is tried against depend on the rule's flavour only: found once
    // per flavour, not once per rule (a 10 000-rule file has a few flavours).
    let mut tool_names: Vec<(Flavor, Vec<String>)> = Vec::new();
    for &rule in rules {
        let tables = rule.flavor.tables();
        if event.kind.is_tool_event()
            && let Some(tool) = &event.tool
            && !tables.tool_scope.admits(&tool.name)
        {
            // The rule's event is a tool category that does not hold this tool.
            verdicts.push(MatchVerdict::NoMatch);
            continue;
        }
        if event.kind == EventKind::Stop
            && event.field(PARENT_AGENT_ID).is_some()
            && !tables.stop_fires_for_subagents
        {
            // A subagent's stop, which this flavour's agent never shows its Stop rules.
            verdicts.push(MatchVerdict::NoMatch);
            continue;
        }
        let Some(on) = tables.matcher_target(&event.kind) else {
            // This flavour ignores matchers on this event.
            verdicts.push(MatchVerdict::Match);
            continue;
        };
        let mut text = rule.matcher.as_deref();
        // Under a host that rewrote an MCP tool's names, a rule naming them as configured is
        // read as the host writes them (Codex's `x_y` for `x-y`; attacks row 1593).
        let rewritten = match (&event.tool, text) {
            (Some(tool), Some(t)) if on == MatchOn::ToolName => tool.rewrite.and_then(|r| {
                let names = tables.mcp_names.on(&event.kind);
                r.matcher(t, &format!("{}{}", names.prefix, names.separator))
            }),
            _ => None,
        };
        if rewritten.is_some() {
            text = rewritten.as_deref();
        }
        // Under a host that writes a name it rewrote whole with a hash (Qwen's
        // `mcp__p_q__run_1bf5p4t`), a rule naming servers and tools literally fires on the
        // names the host writes for them (attacks row 2270).
        if let (Some(tool), Some(t)) = (&event.tool, rule.matcher.as_deref())
            && on == MatchOn::ToolName
            && let Some(r) = tool.rewrite.filter(|r| r.whole.is_some())
            && tables
                .mcp_names
                .on(&event.kind)
                .whole_names(r, t)
                .contains(&tool.name)
        {
            verdicts.push(MatchVerdict::Match);
            continue;
        }
        let values: Cow<[String]> = match on {
            // The name the handler sees in its payload, and any other the flavour tries.
            MatchOn::ToolName => match &event.tool {
                Some(tool) => {
                    let at = match tool_names.iter().position(|(f, _)| *f == rule.flavor) {
                        Some(at) => at,
                        None => {
                            let spell = |id| {
                                crate::protocol::payload::event_tool_name(rule.flavor, event, id)
                            };
                            let own = spell(&tool.name);
                            let mut names: Vec<String> = tables
                                .matcher_tool_names(&own)
                                .into_iter()
                                .map(String::from)
                                .collect();
                            // Every other reading of a name the host's spelling leaves open,
                            // and of the canonical id in the rule's spelling.
                            let ids = std::iter::once(&tool.name).chain(&tool.other_ids);
                            for other in ids.flat_map(|id| {
                                crate::protocol::payload::event_tool_names(rule.flavor, event, id)
                            }) {
                                if !names.contains(&other) {
                                    names.push(other);
                                }
                            }
                            tool_names.push((rule.flavor, names));
                            tool_names.len() - 1
                        }
                    };
                    let own = &tool_names[at].1[0];
                    match tables.tool_matcher_for(text, own) {
                        // An MCP tool this flavour's matcher never reaches, or the reverse.
                        None => {
                            verdicts.push(MatchVerdict::NoMatch);
                            continue;
                        }
                        Some((read, name)) => {
                            text = read;
                            match name {
                                Some(name) => Cow::Owned(vec![name]),
                                None => Cow::Borrowed(&tool_names[at].1),
                            }
                        }
                    }
                }
                None => Cow::Owned(vec![String::new()]),
            },
            // With the value's other agents' spellings (Copilot's `new` for `startup`).
            MatchOn::Field(name) => Cow::Owned(crate::protocol::spellings(
                &event.kind,
                name,
                event.field(name).unwrap_or_default(),
            )),
            MatchOn::Unverified => {
                verdicts.push(MatchVerdict::Match);
                continue;
            }
        };
        // Qwen's names are tried exactly on the tool's every name, its regex on its own only.
        let values = match tables.matcher_style.exact_names(text) {
            Some(names) if on == MatchOn::ToolName => {
                if names.iter().any(|n| values.iter().any(|v| v == n)) {
                    verdicts.push(MatchVerdict::Match);
                    continue;
                }
                Cow::Owned(values[..1].to_vec())
            }
            _ => values,
        };
        let matcher = rule.matcher.as_deref().unwrap_or("");
        match tables.matcher_form(&event.kind, text) {
            MatcherForm::Regex { pattern, anchored } if !Literals::is_shape(&pattern, anchored) => {
                let key = RegexKey {
                    file: rule.origin.file.clone(),
                    pattern,
                    anchored,
                    values: values.into_owned(),
                };
                match lock_verdicts().get(&key) {
                    Some(known) => verdicts.push(known.clone()),
                    None => {
                        regexes.push((verdicts.len(), key));
                        verdicts.push(MatchVerdict::NoMatch);
                    }
                }
            }
            form => verdicts.push(match CompiledMatcher::compile(&form) {
                Ok(m) if values.iter().any(|v| m.is_match(v)) => MatchVerdict::Match,
                Ok(_) => MatchVerdict::NoMatch,
                Err(e) => MatchVerdict::Invalid(format!("invalid matcher `{matcher}`: {e}")),
            }),
        }
    }
    let jobs = regexes
        .iter()
        .map(|(_, k)| Job::new(&k.pattern, k.anchored, k.values.clone()))
        .collect();
    for ((slot, key), answer) in regexes.into_iter().zip(bounded::run(jobs)) {
        let verdict = match answer {
            Answer::Matches(m) if m.contains(&true) => MatchVerdict::Match,
            Answer::Matches(_) => MatchVerdict::NoMatch,
            Answer::Invalid(e) => {
                MatchVerdict::Invalid(format!("invalid matcher `{}`: {e}", shorten(&key.pattern)))
            }
            Answer::Unevaluable(why) => MatchVerdict::Unevaluable(format!(
                "matcher `{}` {why} (tested on `{}`); whether the rule fires is unknown",
                shorten(&key.pattern),
                shorten(&key.values.join("`, `"))
            )),
        };
        lock_verdicts().insert(key, verdict.clone());
        verdicts[slot] = verdict;
    }
    verdicts
}

/// For each rule, whether `event` may fire it: its matcher accepts the event, or cannot be
/// decided (dispatch then reports it). What `hookx run` builds rules by
/// ([`crate::discover::discover_firing`]), for trusted files only.
pub fn can_fire(rules: &[Rule], event: &Event) -> Vec<bool> {
    rules_match(rules, event)
        .into_iter()
        .map(|verdict| verdict != MatchVerdict::NoMatch)
        .collect()
}

/// A regex matcher of one file (pattern, anchored) and the values it is tested against (it
/// fires when it accepts any).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct RegexKey {
    /// The rule's origin file: verdicts are never shared between files.
    file: String,
    pattern: String,
    anchored: bool,
    values: Vec<String>,
}

/// The regex verdicts reached in this process: `hookx run` asks about the rules that can fire
/// twice (to build only those, then to dispatch them), and a runaway matcher must not cost its
/// time limit twice.
static REGEX_VERDICTS: LazyLock<Mutex<HashMap<RegexKey, MatchVerdict>>> =
    LazyLock::new(Mutex::default);

fn lock_verdicts() -> MutexGuard<'static, HashMap<RegexKey, MatchVerdict>> {
    REGEX_VERDICTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
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
    use crate::dialect::{augment, bricks, claude, copilot};
    use crate::model::tool::ids;
    use crate::model::{Command, EventKind, HandlerKind};
    use crate::tables::Flavor;
    use crate::tables::{Origin, RuleShape};

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
        Event::tool_call(EventKind::PreToolUse, ids::EDIT, serde_json::json!({}))
    }

    #[test]
    fn each_rule_matches_in_its_own_flavour() {
        let rules = [
            rule(claude::FLAVOR, "Edit|Write", "claude"),
            rule(copilot::FLAVOR, "edit", "copilot"),
            rule(copilot::FLAVOR, "ed", "anchored: no"),
            rule(bricks::FLAVOR, "edit_file", "bricks"),
            rule(claude::FLAVOR, "Bash", "no"),
        ];
        let (selected, skipped) = select(rules.iter().map(|r| (r, &())), &edit_event());
        assert_eq!(commands(&selected), ["claude", "copilot", "bricks"]);
        assert!(skipped.is_empty());
    }

    /// Augment's rules reach an MCP tool only as `mcp:*` / `mcp:REGEX` on `TOOL_SERVER`, or
    /// by the match-all (source 0.36.0 `f7n`), whichever host hookx runs them under.
    #[test]
    fn augment_rules_reach_mcp_tools_only_through_mcp_matchers() {
        let mut mcp = edit_event();
        mcp.tool.as_mut().unwrap().name = "mcp__memory__read_graph".into();
        let rules = [
            rule(augment::FLAVOR, "mcp:_memory$", "server"),
            rule(augment::FLAVOR, "mcp:_github$", "other server: no"),
            rule(augment::FLAVOR, "mcp:*", "every MCP tool"),
            rule(augment::FLAVOR, "read", "plain regex: no"),
            rule(augment::FLAVOR, ".*", "every tool"),
            rule(claude::FLAVOR, "mcp__memory__.*", "claude"),
        ];
        let (selected, skipped) = select(rules.iter().map(|r| (r, &())), &mcp);
        assert_eq!(
            commands(&selected),
            ["server", "every MCP tool", "every tool", "claude"]
        );
        assert!(skipped.is_empty());
        let (selected, _) = select(rules.iter().map(|r| (r, &())), &edit_event());
        assert_eq!(commands(&selected), ["every tool"]);
    }

    #[test]
    fn runaway_matchers_are_skipped_in_bounded_time() {
        let mut event = edit_event();
        event.tool.as_mut().unwrap().name = format!("{}!", "a".repeat(40));
        // Two runaways: this test process's regex budget (shared by every test in it) is
        // three seconds. The budget running out is tested through the binary (tests/limits.rs).
        let rules = [
            rule(claude::FLAVOR, "(a+)+$", "evil"),
            rule(claude::FLAVOR, "a+!", "good"),
            rule(claude::FLAVOR, "(a|a)*b", "evil too"),
            rule(claude::FLAVOR, "*", "all"),
        ];
        let (selected, skipped) = select(rules.iter().map(|r| (r, &())), &event);
        assert_eq!(commands(&selected), ["good", "all"]);
        let reasons: Vec<_> = skipped.iter().map(|s| s.reason.as_str()).collect();
        assert_eq!(reasons.len(), 2, "{reasons:?}");
        assert!(reasons[0].contains("`(a+)+$` ran away"), "{}", reasons[0]);
        assert!(reasons[1].contains("`(a|a)*b` ran away"), "{}", reasons[1]);
        assert!(skipped.iter().all(Skipped::unevaluable));
    }

    #[test]
    fn identical_handlers_run_once_and_bad_regexes_are_skipped() {
        let rules = [
            rule(claude::FLAVOR, "Edit", "same"),
            rule(claude::FLAVOR, "Edit|Write", "same"),
            rule(copilot::FLAVOR, "(edit", "broken"),
        ];
        let (selected, skipped) = select(rules.iter().map(|r| (r, &())), &edit_event());
        assert_eq!(selected.len(), 1);
        assert_eq!(skipped.len(), 1);
    }
}
