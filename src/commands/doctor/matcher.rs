//! A rule's matcher against what the host sends: whether it can match at all, and tool names
//! written in another flavour's spelling or an old one.

use super::{Finding, Level};
use crate::dispatch::select::{MatchVerdict, rules_match};
use crate::model::Event;
use crate::tables::Rule;
use crate::tables::{Dialect, Flavor, MatchOn};
use serde_json::{Map, json};

/// Why the rule's matcher can never match what `host` sends, read as `flavor`; `None` when it
/// can (or is not checked).
pub(super) fn matcher_finding(rule: &Rule, flavor: Flavor, host: Dialect) -> Option<Finding> {
    let matcher = rule.matcher.as_deref()?;
    let tables = flavor.tables();
    let on = tables.matcher_target(&rule.event)?;
    let mut read_as = rule.clone();
    read_as.flavor = flavor;
    let sent = host.default_flavor().tables();
    let events: Vec<Event> = match on {
        // The host's tools of the table, by their ids, and its own others by their names.
        MatchOn::ToolName => sent
            .tools
            .iter()
            .map(|(id, _)| *id)
            .chain(sent.other_tools.iter().copied())
            // An old name the host's own matcher takes for the tool it became, for a rule
            // in the host's own spelling.
            .chain(
                sent.renamed_tools
                    .iter()
                    .map(|(old, _)| *old)
                    .filter(|_| tables.name == sent.name),
            )
            .map(|name| Event::tool_call(rule.event.clone(), name, json!({})))
            .collect(),
        MatchOn::Field(name) => sent
            .matcher_values(&rule.event)?
            .iter()
            .map(|value| Event {
                fields: Map::from_iter([(name.to_string(), json!(value))]),
                ..Event::bare(rule.event.clone())
            })
            .collect(),
        MatchOn::Unverified => return None,
    };
    let mut invalid = None;
    for event in &events {
        match rules_match([&read_as], event).pop() {
            Some(MatchVerdict::Match) => return None,
            Some(MatchVerdict::Unevaluable(_)) => return None,
            Some(MatchVerdict::Invalid(why)) => invalid = Some(why),
            _ => {}
        }
    }
    // Names the host makes up as it goes (MCP tools) are not in any table.
    if on == MatchOn::ToolName && matcher.contains("mcp") {
        return None;
    }
    let version = tables.verified_with.unwrap_or("documents only");
    if let Some(why) = invalid {
        let effect = tables
            .invalid_matcher_effect
            .unwrap_or("the agent cannot match it");
        return Some(Finding::new(Level::Error, format!("{why}; {effect}"), None));
    }
    let (what, sends) = match on {
        MatchOn::ToolName => (
            "tool",
            sent.tools
                .iter()
                .filter_map(|(id, _)| tables.tool_name(id))
                .chain(
                    sent.other_tools
                        .iter()
                        .copied()
                        .filter(|_| tables.name == sent.name),
                )
                .collect::<Vec<_>>(),
        ),
        MatchOn::Field(name) => (name, sent.matcher_values(&rule.event)?.to_vec()),
        MatchOn::Unverified => return None,
    };
    // A fix only where the rewritten matcher meets a tool the host sends: a matcher that is
    // no name list (`tool == "Bash" && … matches "gh pr create"`, a real file's, attacks row
    // 1184) had `create` rewritten inside its text, a fix that matched nothing either.
    let fix = (on == MatchOn::ToolName)
        .then(|| corrected_matcher(matcher, flavor))
        .flatten()
        .filter(|m| {
            let mut fixed = read_as.clone();
            fixed.matcher = Some(m.clone());
            events
                .iter()
                .any(|e| matches!(rules_match([&fixed], e).pop(), Some(MatchVerdict::Match)))
        })
        .map(|m| format!("matcher \"{m}\""));
    Some(Finding::new(
        Level::Error,
        format!(
            "matcher `{matcher}` matches no {what} {} sends for `{}` ({}: {}; {version})",
            host.def().display,
            rule.event,
            flavor.name(),
            sends.join(", ")
        ),
        fix,
    ))
}

/// A warning on a tool matcher that names a tool in another flavour's spelling, which the
/// agent never sends (`Write` in a Droid file, which Droid calls `Create`): that part never
/// fires, even where the rest of the matcher does (Droid's unanchored regex meets `TodoWrite`
/// with it; attacks row 1103). `validate` says the same of the file.
pub(super) fn foreign_name_finding(rule: &Rule, flavor: Flavor) -> Option<Finding> {
    let matcher = rule.matcher.as_deref()?;
    let tables = flavor.tables();
    if tables.matcher_target(&rule.event) != Some(MatchOn::ToolName) {
        return None;
    }
    let mut words = matcher.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    let (name, (other, own)) =
        words.find_map(|word| Some((word, tables.foreign_tool_name(word)?)))?;
    let calls = own.map_or(String::new(), |own| {
        format!(" ({} calls it `{own}`)", flavor.name())
    });
    Some(Finding::new(
        Level::Warning,
        format!(
            "`{name}` is a {} tool name, which {} never sends: that part of the matcher never \
             fires{calls}",
            other.name(),
            flavor.name()
        ),
        corrected_matcher(matcher, flavor).map(|m| format!("matcher \"{m}\"")),
    ))
}

/// A warning on a tool matcher naming an MCP tool by a name `flavor`'s agent rewrote whole,
/// with a hash of the name as configured (Qwen's `mcp__p_q__run_1bf5p4t`), under a host that
/// names it otherwise: hookx does not undo the hash, and writes it only where the host names
/// the server and tool as configured or as it rewrote them. And a note on a regex naming an MCP
/// tool under a host that does (Qwen): it is read on the name before the hash, where each
/// character the host rewrites is `_` (attacks row 2270).
pub(super) fn hashed_name_finding(rule: &Rule, flavor: Flavor, host: Dialect) -> Option<Finding> {
    let matcher = rule.matcher.as_deref()?;
    let tables = flavor.tables();
    if tables.matcher_target(&rule.event) != Some(MatchOn::ToolName) {
        return None;
    }
    let (own, sent) = (
        tables.mcp_names.on(&rule.event),
        host.default_flavor().tables().mcp_names.on(&rule.event),
    );
    let literals = crate::model::tool::literal_names(matcher);
    if let Some(r) = own.rewrite.filter(|r| r.whole.is_some())
        && sent.rewrite != Some(r)
        && let Some(name) = literals.iter().flatten().find(|n| r.hashed(n).is_some())
    {
        return Some(Finding::new(
            Level::Warning,
            format!(
                "`{name}` is {}'s name for an MCP tool whose name it rewrote, with a hash of the \
                 name as configured after, which hookx does not undo: under {} it fires only \
                 where hookx can write that name from the server and tool {} sends",
                flavor.name(),
                host.def().display,
                host.def().display
            ),
            Some("name the server and tool as configured (`mcp__SERVER__TOOL`)".to_string()),
        ));
    }
    let r = sent.rewrite.filter(|r| r.whole.is_some())?;
    let syntax = format!("{}{}", own.prefix, own.separator);
    (literals.is_none()
        && own.rewrite != Some(r)
        && own.named_in(matcher)
        && r.matcher(matcher, &syntax).is_some())
    .then(|| {
        Finding::new(
            Level::Note,
            format!(
                "{} writes an MCP name holding a character but `[A-Za-z0-9_-]`, or past 63, \
                 with those `_`, cut, and a hash of the name after (`mcp__p_q__run_1bf5p4t`): \
                 hookx tries this regex on the name before the hash, where it also fires on \
                 each name that differs only in those characters",
                host.def().display
            ),
            Some("name each tool literally, as configured".to_string()),
        )
    })
}

/// A note on a tool matcher that names a tool by an old name its agent still accepts (Claude's
/// `Task` for `Agent`): it fires today, under a name that may go.
pub(super) fn alias_note(rule: &Rule, flavor: Flavor) -> Option<Finding> {
    let matcher = rule.matcher.as_deref()?;
    let tables = flavor.tables();
    if tables.matcher_target(&rule.event) != Some(MatchOn::ToolName) {
        return None;
    }
    let words = matcher.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
    let (alias, name) = words.into_iter().find_map(|word| {
        tables
            .tools
            .iter()
            .find(|(_, names)| names[1..].contains(&word))
            .map(|(_, names)| (word, names[0]))
    })?;
    Some(Finding::new(
        Level::Note,
        format!(
            "`{alias}` is an old name of `{name}`, which {} still matches ({})",
            flavor.name(),
            tables.verified_with.unwrap_or("documents only")
        ),
        corrected_matcher(matcher, flavor).map(|m| format!("matcher \"{m}\"")),
    ))
}

/// The matcher with every tool name another flavour spells rewritten in `flavor`'s spelling
/// (`Edit` → `edit`, `Task` → `Agent`); `None` when nothing changes.
fn corrected_matcher(matcher: &str, flavor: Flavor) -> Option<String> {
    let tables = flavor.tables();
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let id = Flavor::all()
            .iter()
            .find(|f| f.tables().all_tool_names().any(|n| n == word.as_str()))
            .map(|f| f.tables().canonical_tool(word));
        match id.and_then(|id| tables.tool_name(id)) {
            Some(own)
                if own != word.as_str()
                    && !tables
                        .tools
                        .iter()
                        .any(|(_, names)| names.first() == Some(&word.as_str())) =>
            {
                out.push_str(own)
            }
            _ => out.push_str(word),
        }
        word.clear();
    };
    for c in matcher.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    (out != matcher).then_some(out)
}
