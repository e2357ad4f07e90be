//! Translating a matcher between flavours so that the converted rule fires for exactly the
//! values it fired for before: tool names are renamed inside the pattern, the anchored vs
//! unanchored difference is made explicit, and the result is checked against every tool name
//! the tables know. When the check fails, the matcher falls back to an exact list of the tools
//! it matched, and the caller reports the approximation.

mod mcp;
mod read;
mod write;

pub use read::{counterparts_fired, fire_set, fires, target_fired, tool_universe};

use crate::model::bounded::Job;
use crate::model::matcher::{Literals, Reading};
use crate::model::{EventKind, MatcherForm};
use crate::tables::{Flavor, MatchOn};
use mcp::{McpName, mcp_matchers};
use read::{matches, universe};
use std::collections::BTreeSet;
use write::{reanchor, rename_tools, rename_words, translate_tool_regex, write};

/// A matcher in the target flavour, and what could not be carried over.
#[derive(Debug, PartialEq)]
pub struct Translated {
    pub text: Option<String>,
    /// Human-readable problems, each a loss item for the caller.
    pub problems: Vec<String>,
    /// The original fired for some tools and the target has a counterpart for none of them:
    /// the rule cannot fire there and is not converted.
    pub fires_for_nothing: bool,
}

/// Names of tools no table knows (MCP tools, tools newer than hookx), spelled alike by every
/// agent: a converted matcher must treat them as the original did.
pub const PROBE_TOOLS: &[&str] = &[
    "mcp__github__create_issue",
    "mcp__memory__read_graph",
    "SomeNewTool",
    "some_new_tool",
];

/// A tool name and its counterpart in another flavour (`None`: it has no such tool).
pub type Counterpart = (&'static str, Option<&'static str>);

/// Translates `text`, written in `from` for event `kind`, whose matcher filters `on`, to `to`
/// (an MCP name in each flavour's spelling for the event: Copilot's `permissionRequest` says
/// `SERVER/TOOL`, attacks row 1869); where `to`'s agent rewrites characters of MCP names
/// (Codex's `x_y` for server `x-y`), the names in it as that agent writes them, or its own
/// matcher never fires on them (attacks row 2060: a synced Codex copy of a Claude deny on
/// `mcp__x-y__.*` ran nowhere).
pub fn translate(
    text: Option<&str>,
    on: MatchOn,
    kind: &EventKind,
    from: Flavor,
    to: Flavor,
) -> Translated {
    // A name `from`'s agent hashed (Qwen's `mcp__p_q__run_1bf5p4t`) is translated as the
    // name before its hash, which `to`'s agent may write for it ([`hashed_names`] says so).
    let unhashed = text.filter(|_| on == MatchOn::ToolName).and_then(|t| {
        let own = from.tables().mcp_names.rewrite?;
        let names = crate::model::tool::literal_names(t)?;
        let before: Vec<String> = names
            .iter()
            .map(|n| regex::escape(own.unhashed(n).unwrap_or(n)))
            .collect();
        let names: Vec<String> = names.iter().map(|n| regex::escape(n)).collect();
        (before != names).then(|| before.join("|"))
    });
    let mut translated = translate_names(unhashed.as_deref().or(text), on, kind, from, to);
    // The event's spelling: Copilot's `permissionRequest` `SERVER/TOOL` keeps what it names.
    let names = to.tables().mcp_names.on(kind);
    if on == MatchOn::ToolName
        && let Some(rewrite) = to.tables().mcp_names.rewrite
        && from.tables().mcp_names.rewrite != Some(rewrite)
        && let Some(written) = &translated.text
        && let Some(rewritten) =
            rewrite.matcher(written, &format!("{}{}", names.prefix, names.separator))
    {
        translated.text = Some(rewritten);
    }
    if on == MatchOn::ToolName
        && let Some(text) = text
    {
        hashed_names(text, kind, from, to, &mut translated);
    }
    translated
}

/// Where `to`'s agent rewrites an MCP name whole, with a hash of it as configured (Qwen Code's
/// `mcp__p_q__run_1bf5p4t`), a matcher naming MCP tools literally is written as the names that
/// agent gives them, and a regex naming one it rewrites is a loss: the agent tries it on the
/// name before the hash (unanchored, Qwen's), where every character it rewrites is `_`. Where
/// `from`'s agent does, a name of that shape is a loss: the hash is not undone, and `to`'s
/// agent names the tool otherwise (attacks row 2270).
fn hashed_names(text: &str, kind: &EventKind, from: Flavor, to: Flavor, out: &mut Translated) {
    let (from_names, to_names) = (
        from.tables().mcp_names.on(kind),
        to.tables().mcp_names.on(kind),
    );
    let literals = crate::model::tool::literal_names(text);
    if let Some(host) = to_names.rewrite.filter(|r| r.whole.is_some())
        && from_names.rewrite != Some(host)
    {
        match &literals {
            Some(names) if names.iter().all(|n| !from_names.splits(n).is_empty()) => {
                let written = from_names.whole_names(host, text);
                let hashed = written.iter().any(|w| host.hashed(w).is_some());
                if hashed {
                    let names: Vec<String> = written.iter().map(|w| regex::escape(w)).collect();
                    out.text = Some(match names.as_slice() {
                        [one] => format!("^{one}$"),
                        _ => format!("^(?:{})$", names.join("|")),
                    });
                }
            }
            Some(_) => {}
            None => {
                let syntax = format!("{}{}", from_names.prefix, from_names.separator);
                if from_names.named_in(text) && host.matcher(text, &syntax).is_some() {
                    out.problems.push(format!(
                        "{to} writes an MCP name holding a character but `[A-Za-z0-9_-]`, or \
                         past 63, with those `_`, cut, and a hash of the name after \
                         (`mcp__p_q__run_1bf5p4t`): this regex is tried on the name before the \
                         hash, and fires on each name that differs from it only in those \
                         characters",
                        to = to.dialect()
                    ));
                }
            }
        }
    }
    if let Some(own) = from_names.rewrite.filter(|r| r.whole.is_some())
        && to_names.rewrite != Some(own)
    {
        for name in literals.unwrap_or_default() {
            if own.hashed(&name).is_some() {
                out.problems.push(format!(
                    "`{name}` is {from}'s name for an MCP tool whose name it rewrote, with a \
                     hash of the name as configured after, which hookx does not undo: {to} \
                     names that tool otherwise; name the server and tool as configured \
                     (`mcp__SERVER__TOOL`)",
                    from = from.dialect(),
                    to = to.dialect()
                ));
            }
        }
    }
}

/// [`translate`], names as `to` names tools when nothing rewrites them.
fn translate_names(
    text: Option<&str>,
    on: MatchOn,
    kind: &EventKind,
    from: Flavor,
    to: Flavor,
) -> Translated {
    let source_style = from.tables().matcher_style;
    let target_style = to.tables().matcher_style;
    let field = matches!(on, MatchOn::Field(_));
    let source_exact = field && from.tables().exact_field_matchers;
    let target_exact = field && to.tables().exact_field_matchers;
    let form = if source_exact {
        crate::tables::exact_form(text)
    } else {
        source_style.form(text)
    };
    if from == to
        || (on != MatchOn::ToolName && source_style == target_style && source_exact == target_exact)
    {
        return Translated {
            text: text.map(str::to_string),
            problems: Vec::new(),
            fires_for_nothing: false,
        };
    }
    let mut problems = Vec::new();
    let (from_mcp, to_mcp) = (from.tables().mcp_names, to.tables().mcp_names);
    if on == MatchOn::ToolName
        && from_mcp.matchers != to_mcp.matchers
        && form != MatcherForm::All
        && let Some(translated) = mcp_matchers(text, from, to, &mut problems)
    {
        return translated;
    }
    // One MCP name (every MCP tool, a server's, a tool) is the target's spelling of it, with
    // nothing lost: no regex rewriting is tried on it first.
    if let Some(written) = mcp_name(text, on, kind, from, to) {
        return Translated {
            text: Some(written),
            problems,
            fires_for_nothing: false,
        };
    }
    let builtin_listed = lists_builtin(text, on, from, to);
    let form = if builtin_listed {
        builtin_as_list(text, from, to, &mut problems)
    } else {
        form
    };
    let form = name_list_as_exact(form);
    let form = plain_names_as_exact(text, on, form, from, to);
    if !builtin_listed && let Some(kept) = unknown_name_list(text, on, &form, from, to) {
        return Translated {
            text: write(&MatcherForm::Exact(kept), target_style, text),
            problems,
            fires_for_nothing: false,
        };
    }
    // Set when the written matcher was already checked as the target reads it.
    let (form, checked) = translate_form(on, form, from, to, &mut problems);
    let form = with_every_counterpart(text, on, form, from, to);
    write_checked(
        text,
        (on, kind),
        form,
        builtin_listed || checked,
        from,
        to,
        problems,
    )
}

/// An exact list completed with every counterpart of what the source fires it for: a name the
/// source tries on a tool that stands for several (Codex tries a patch, a write, an edit or
/// several edits, as `Edit` and `Write`) fires for all of them, so `Write|Edit` there is
/// `Write|Edit|MultiEdit` where those are three tools.
fn with_every_counterpart(
    text: Option<&str>,
    on: MatchOn,
    form: MatcherForm,
    from: Flavor,
    to: Flavor,
) -> MatcherForm {
    let MatcherForm::Exact(mut names) = form else {
        return form;
    };
    if on != MatchOn::ToolName
        || names.is_empty()
        || from.tables().matcher_tries_names_of.is_empty()
    {
        return MatcherForm::Exact(names);
    }
    if let Some((expected, _)) = counterparts_fired(text, from, to) {
        for name in expected {
            if !PROBE_TOOLS.contains(&name) && !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
    }
    MatcherForm::Exact(names)
}

/// Whether `text` is the source's matcher for every tool but MCP tools (Kiro's `@builtin`),
/// which the target has no form of.
fn lists_builtin(text: Option<&str>, on: MatchOn, from: Flavor, to: Flavor) -> bool {
    let (from_mcp, to_mcp) = (from.tables().mcp_names, to.tables().mcp_names);
    on == MatchOn::ToolName
        && text.is_some()
        && text == from_mcp.builtin
        && to_mcp.builtin != from_mcp.builtin
}

/// A matcher for every tool but MCP tools, in a flavour without one: the built-in tools hookx
/// knows, by name (a problem says so).
fn builtin_as_list(
    text: Option<&str>,
    from: Flavor,
    to: Flavor,
    problems: &mut Vec<String>,
) -> MatcherForm {
    problems.push(format!(
        "`{}` fires for every tool but MCP tools, which {} cannot say: it is the list of the built-in tools hookx knows, and a newer one does not fire it",
        text.unwrap_or_default(),
        to.dialect()
    ));
    MatcherForm::Exact(from.tables().all_tool_names().map(str::to_string).collect())
}

/// An anchored regex that is an alternation of plain names, read as the exact list it is.
fn name_list_as_exact(form: MatcherForm) -> MatcherForm {
    match form {
        MatcherForm::Regex {
            pattern,
            anchored: true,
        } if is_name_list(&pattern) => MatcherForm::Exact(
            pattern
                .split('|')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        ),
        form => form,
    }
}

/// An unanchored regex of plain names (Droid's `Execute`) that fires for the same tools as the
/// exact list of those names: that list, which every target can say without a regex.
fn plain_names_as_exact(
    text: Option<&str>,
    on: MatchOn,
    form: MatcherForm,
    from: Flavor,
    to: Flavor,
) -> MatcherForm {
    let MatcherForm::Regex {
        pattern,
        anchored: false,
    } = &form
    else {
        return form;
    };
    if on != MatchOn::ToolName || !is_name_list(pattern) || pattern.contains('-') {
        return form;
    }
    let names: Vec<String> = pattern
        .split('|')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect();
    match counterparts_fired(text, from, to) {
        Some((fired, _)) if fired == read::exact_counterparts(&names, from, to) => {
            MatcherForm::Exact(names)
        }
        _ => form,
    }
}

/// A list of plain names no table knows (`tool_1|other_1`), between flavours that read MCP
/// names as any other: each name stays itself, and the check [`translate`] ends with tries
/// only names the tables know and the probes, which neither the list nor what it is written
/// as fires for (see `unknown_lists_are_written_as_the_check_would_pass_them`): it is not run.
/// The names, each once; `None` when the matcher is not such a list.
fn unknown_name_list(
    text: Option<&str>,
    on: MatchOn,
    form: &MatcherForm,
    from: Flavor,
    to: Flavor,
) -> Option<Vec<String>> {
    let (from_mcp, to_mcp) = (from.tables().mcp_names, to.tables().mcp_names);
    if on == MatchOn::ToolName
        && !from_mcp.reads_mcp_apart()
        && !to_mcp.reads_mcp_apart()
        && text.is_some_and(|t| !from_mcp.named_in(t))
        && let MatcherForm::Exact(names) = form
        && !names.is_empty()
        && names.iter().all(|n| is_unknown_plain_name(n))
    {
        // In its first place, as `rename_tools` keeps a name given twice (a set beside the
        // list: a 100 000-name list was quadratic there, issue 9).
        let mut seen = std::collections::HashSet::with_capacity(names.len());
        let kept: Vec<String> = names
            .iter()
            .filter(|n| seen.insert(n.as_str()))
            .cloned()
            .collect();
        return Some(kept);
    }
    None
}

/// The form in the target's terms: tool names renamed, anchoring made explicit. The flag
/// says whether a regex was already checked as the target reads it.
fn translate_form(
    on: MatchOn,
    form: MatcherForm,
    from: Flavor,
    to: Flavor,
    problems: &mut Vec<String>,
) -> (MatcherForm, bool) {
    match (on, form) {
        (_, MatcherForm::All) => (MatcherForm::All, false),
        (MatchOn::ToolName, MatcherForm::Exact(names)) => (
            MatcherForm::Exact(rename_tools(&names, from, to, problems)),
            false,
        ),
        (MatchOn::ToolName, MatcherForm::Regex { pattern, anchored }) => {
            translate_tool_regex(&pattern, anchored, from, to, problems)
        }
        // Agent names, triggers, …: no names to rename, but the anchoring must be made
        // explicit where the target reads regexes the other way.
        (MatchOn::Field(_), MatcherForm::Regex { pattern, anchored }) => {
            let target_anchored = to.tables().matcher_style.anchored();
            let form = MatcherForm::Regex {
                pattern: reanchor(&pattern, anchored, target_anchored),
                anchored: target_anchored,
            };
            (form, false)
        }
        (MatchOn::Field(_) | MatchOn::Unverified, form) => (form, false),
    }
}

/// The translated form written in the target's style, checked against the original on every
/// tool unless `checked` says that was done.
fn write_checked(
    text: Option<&str>,
    (on, kind): (MatchOn, &EventKind),
    form: MatcherForm,
    checked: bool,
    from: Flavor,
    to: Flavor,
    mut problems: Vec<String>,
) -> Translated {
    // Nothing left to fire for: never an empty matcher, which some agents read as "all" and
    // Copilot drops.
    if matches!(&form, MatcherForm::Exact(names) if names.is_empty()) {
        return Translated {
            text: None,
            problems,
            fires_for_nothing: true,
        };
    }
    if matches!(on, MatchOn::Field(_)) && to.tables().exact_field_matchers {
        return exact_field(form, text, (on, kind), to, problems);
    }
    if let Some(written) = mcp_name(text, on, kind, from, to) {
        return Translated {
            text: Some(written),
            problems,
            fires_for_nothing: false,
        };
    }
    let (from_mcp, to_mcp) = (
        from.tables().mcp_names.on(kind),
        to.tables().mcp_names.on(kind),
    );
    if on == MatchOn::ToolName
        && from_mcp.prefix != to_mcp.prefix
        && !lists_builtin(text, on, from, to)
        && text.is_some_and(|t| from_mcp.named_in(t))
    {
        problems.push(format!(
            "{} names MCP tools `{}`: the MCP names in this matcher are not rewritten and may not fire",
            to.dialect(),
            to_mcp.join("<server>", "<tool>")
        ));
    }
    let written = write(&form, to.tables().matcher_style, text);
    if on == MatchOn::ToolName && !checked {
        check_tools(text, written.as_deref(), from, to, &mut problems);
    }
    Translated {
        text: written,
        problems,
        fires_for_nothing: false,
    }
}

/// A matcher that is one MCP name in the source's spelling for event `kind` (every MCP tool, a
/// server's tools, one tool), written in the target's, where the target's prefix does not hold
/// the source's (Kiro's `@git` is Claude's `mcp__git__.*`, Claude's `mcp__git__.*` Gemini's
/// `mcp_git_.*`: attacks row 2071, a synced Claude deny on an MCP server never fired under
/// Gemini), or the source has none but a separator no name holds (Copilot's
/// `permissionRequest` `srv/.*` is Claude's `mcp__srv__.*`); `None` when it is not one.
fn mcp_name(
    text: Option<&str>,
    on: MatchOn,
    kind: &EventKind,
    from: Flavor,
    to: Flavor,
) -> Option<String> {
    let (from_mcp, to_mcp) = (
        from.tables().mcp_names.on(kind),
        to.tables().mcp_names.on(kind),
    );
    // A source without a prefix (Copilot's `SERVER-TOOL`) names no MCP tool apart from the
    // others, but where its separator is no character of a name.
    let apart = match from_mcp.prefix.is_empty() {
        true => {
            McpName::separates(from_mcp.separator)
                && text.is_some_and(|t| t.contains(from_mcp.separator))
        }
        // One whose prefix the target's holds (Gemini's `mcp_` in `mcp__`) does not say where
        // its server ends (`mcp_my_srv_run`).
        false => !to_mcp.prefix.starts_with(from_mcp.prefix),
    };
    if on == MatchOn::ToolName
        && from_mcp != to_mcp
        && apart
        && text != from_mcp.builtin
        && let Some(name) = text.and_then(|t| McpName::parse(t, from_mcp))
    {
        return Some(match name {
            McpName::Every => to_mcp.every(),
            McpName::Server(server) => to_mcp.join(server, ".*"),
            McpName::Tool(server, tool) => to_mcp.join(server, tool),
        });
    }
    None
}

/// A tool name of word characters that no table knows and that is none of the
/// [`PROBE_TOOLS`]: no tool a converted matcher is checked against bears it.
fn is_unknown_plain_name(name: &str) -> bool {
    !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !PROBE_TOOLS.contains(&name)
        && Flavor::is_unknown_tool(name)
}

/// Whether an anchored pattern is an alternation of plain names (`-` is literal outside a
/// class): an exact list.
fn is_name_list(pattern: &str) -> bool {
    !pattern.is_empty()
        && pattern
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '|' || c == '-')
}

/// The regex jobs [`translate`] gives the engine for a tool matcher `text` (the original
/// tried on the source's tools, the rewritten one on the target's), so that a caller can have
/// them answered ahead, in one batch ([`bounded::with_answers`](crate::model::bounded::with_answers)).
pub fn translate_jobs(text: Option<&str>, on: MatchOn, from: Flavor, to: Flavor) -> Vec<Job> {
    let Reading::Regex(pattern, anchored) = from.tables().matcher_style.reading(text) else {
        return Vec::new();
    };
    if from == to || on != MatchOn::ToolName || (anchored && is_name_list(pattern)) {
        return Vec::new();
    }
    let universe = universe(from, to);
    let target_anchored = to.tables().matcher_style.anchored();
    let candidate = reanchor(&rename_words(pattern, from, to), anchored, target_anchored);
    // A regex of literal alternatives needs no engine: [`bounded::with_answers`] would leave
    // its job out of the batch.
    [
        (pattern, anchored, &universe.source.flat),
        (candidate.as_str(), target_anchored, &universe.target.flat),
    ]
    .into_iter()
    .filter(|(pattern, anchored, _)| !Literals::is_shape(pattern, *anchored))
    .map(|(pattern, anchored, values)| Job::new(pattern, anchored, values.clone()))
    .collect()
}

/// A field matcher for a target that compares it with one value exactly (Gemini CLI): all, or
/// exactly one value; anything else cannot be written and is reported (the rule then fires
/// for every value unless hookx filters it), but where the target fires the event split by
/// the field's value ([`split_by_names`]).
fn exact_field(
    form: MatcherForm,
    original: Option<&str>,
    (on, kind): (MatchOn, &EventKind),
    to: Flavor,
    mut problems: Vec<String>,
) -> Translated {
    let text = match form {
        MatcherForm::All => original.map(str::to_string),
        MatcherForm::Exact(values) if values.len() == 1 => values.into_iter().next(),
        form => match split_by_names(&form, on, kind, to) {
            Some(text) => text,
            None => {
                problems.push(format!(
                    "{} compares this matcher with one value exactly; `{}` cannot be written so",
                    to.dialect(),
                    original.unwrap_or("")
                ));
                None
            }
        },
    };
    Translated {
        text,
        problems,
        fires_for_nothing: false,
    }
}

/// A field matcher of several values (`startup|resume`) for a target that fires the event
/// under one name per value of the field and reads the value from the name
/// ([`crate::tables::Tables::values_told_by_names`]: Cline's `TaskStart`, `TaskResume`):
/// the rule goes under the names whose values it accepts, so it is written exactly as no
/// matcher (every value the names tell) or as the one value it accepts of them (attacks row
/// 2236). Values the names never tell are said by [`values_never_sent`]. `None` where the
/// target does not split the event so, or the matcher accepts none or several but not all.
fn split_by_names(
    form: &MatcherForm,
    on: MatchOn,
    kind: &EventKind,
    to: Flavor,
) -> Option<Option<String>> {
    let MatchOn::Field(key) = on else {
        return None;
    };
    let told = to.tables().values_told_by_names(kind, key)?;
    let accepted: Vec<&str> = match form {
        MatcherForm::All => return Some(None),
        MatcherForm::Exact(values) => told
            .iter()
            .copied()
            .filter(|v| values.iter().any(|w| w == v))
            .collect(),
        MatcherForm::Regex { pattern, anchored } => told
            .iter()
            .copied()
            .zip(matches(pattern, *anchored, told.iter().copied())?)
            .filter(|(_, m)| *m)
            .map(|(v, _)| v)
            .collect(),
    };
    match accepted.as_slice() {
        [] => None,
        [one] if told.len() > 1 => Some(Some(one.to_string())),
        _ if accepted.len() == told.len() => Some(None),
        _ => None,
    }
}

/// Checks the written matcher, read by the target's own matcher rules, against the original on
/// every tool: it must fire for exactly the counterparts of the tools the original fired for.
fn check_tools(
    original: Option<&str>,
    written: Option<&str>,
    from: Flavor,
    to: Flavor,
    problems: &mut Vec<String>,
) {
    let (Some((expected, _)), Some(got)) = (
        counterparts_fired(original, from, to),
        target_fired(written, from, to),
    ) else {
        return;
    };
    if expected != got {
        let list = |set: &BTreeSet<&str>| {
            if set.is_empty() {
                "none".to_string()
            } else {
                set.iter().copied().collect::<Vec<_>>().join(", ")
            }
        };
        problems.push(format!(
            "the translated matcher `{}` fires under {} for {} instead of {}",
            written.unwrap_or(""),
            to.dialect(),
            list(&got),
            list(&expected)
        ));
    }
}

/// Values a field matcher (SessionStart source, compaction trigger, …) accepts in `from` that
/// `to` never sends for `event`: after conversion those parts of it can never fire.
pub fn values_never_sent(
    text: Option<&str>,
    event: &EventKind,
    from: Flavor,
    to: Flavor,
) -> Vec<String> {
    let Some(sent) = to.tables().matcher_values(event) else {
        return Vec::new();
    };
    let form = from.tables().matcher_form(event, text);
    let accepted: Vec<String> = match form {
        MatcherForm::All => return Vec::new(),
        MatcherForm::Exact(values) => values,
        MatcherForm::Regex { pattern, anchored } => {
            let Some(known) = from.tables().matcher_values(event) else {
                return Vec::new();
            };
            let Some(matched) = matches(&pattern, anchored, known.iter().copied()) else {
                return Vec::new();
            };
            known
                .iter()
                .zip(matched)
                .filter(|(_, m)| *m)
                .map(|(v, _)| v.to_string())
                .collect()
        }
    };
    accepted
        .into_iter()
        .filter(|v| !sent.contains(&v.as_str()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::{augment, bricks, claude, copilot, gemini, qwen};

    fn tools(text: &str, from: Flavor, to: Flavor) -> Translated {
        translate(
            Some(text),
            MatchOn::ToolName,
            &EventKind::PreToolUse,
            from,
            to,
        )
    }

    /// What `translate` takes for granted of a list of names no table knows: between
    /// flavours that read MCP names as any other, the names stay, nothing is lost, and the
    /// check it skips finds that neither the list nor what it is written as fires for any
    /// tool it tries.
    #[test]
    fn unknown_lists_are_written_as_the_check_would_pass_them() {
        let lists = ["tool_1|other_1", "tool_2", "a|b|a", "x_9|Y_10|z"];
        for &from in Flavor::all() {
            for &to in Flavor::all() {
                if from == to
                    || from.tables().mcp_names.reads_mcp_apart()
                    || to.tables().mcp_names.reads_mcp_apart()
                {
                    continue;
                }
                for text in lists {
                    // An exact list, or an anchored regex of names, which is read as one.
                    if let MatcherForm::Regex {
                        anchored: false, ..
                    } = from.tables().matcher_style.form(Some(text))
                    {
                        continue;
                    }
                    let t = translate(
                        Some(text),
                        MatchOn::ToolName,
                        &EventKind::PreToolUse,
                        from,
                        to,
                    );
                    assert!(t.problems.is_empty(), "{from:?} -> {to:?} {text}: {t:?}");
                    assert!(!t.fires_for_nothing);
                    let mut problems = Vec::new();
                    check_tools(Some(text), t.text.as_deref(), from, to, &mut problems);
                    assert!(
                        problems.is_empty(),
                        "{from:?} -> {to:?} {text}: {problems:?}"
                    );
                    let (hit, lacking) = counterparts_fired(Some(text), from, to).unwrap();
                    assert!(hit.is_empty() && lacking.is_empty());
                    assert_eq!(
                        target_fired(t.text.as_deref(), from, to),
                        Some(BTreeSet::new())
                    );
                    let mut renamed = Vec::new();
                    let names: Vec<String> = text.split('|').map(str::to_string).collect();
                    let kept = rename_tools(&names, from, to, &mut renamed);
                    assert!(renamed.is_empty());
                    assert_eq!(
                        t.text,
                        write(
                            &MatcherForm::Exact(kept),
                            to.tables().matcher_style,
                            Some(text)
                        )
                    );
                }
            }
        }
    }

    /// Attacks row 1454: Qwen Code tries a regex on its own tool name only (run 0.24.4), so
    /// Claude's `Ba.*`, which fires on `Bash`, was written unchanged and fired for nothing
    /// under Qwen; a plain name would fire on every tool holding it (`edit`, `notebook_edit`).
    #[test]
    fn a_claude_matcher_converted_to_qwen_fires_there_as_under_claude() {
        let t = tools("Ba.*", claude::FLAVOR, qwen::FLAVOR);
        assert_eq!(t.text.as_deref(), Some("^run_shell_command$"), "{t:?}");
        let t = tools("Edit", claude::FLAVOR, qwen::FLAVOR);
        assert_eq!(t.text.as_deref(), Some("^edit$"), "{t:?}");
        assert!(t.problems.is_empty(), "{t:?}");
    }

    /// A PascalCase Copilot matcher is tried against the Copilot tool name too (run 1.0.102):
    /// `view` there means Read, and a converted rule fires for it.
    #[test]
    fn pascal_case_matchers_name_copilot_tools_too() {
        assert_eq!(
            tools("view", copilot::PASCAL, claude::FLAVOR)
                .text
                .as_deref(),
            Some("Read")
        );
        assert_eq!(
            tools("view|Bash", copilot::PASCAL, copilot::FLAVOR)
                .text
                .as_deref(),
            Some("view|bash")
        );
        assert_eq!(fires(Some("view"), copilot::PASCAL, "Read"), Some(true));
        assert_eq!(fires(Some("Rea"), copilot::PASCAL, "Read"), Some(false));
    }

    #[test]
    fn values_the_target_never_sends_are_found() {
        let session = EventKind::SessionStart;
        assert_eq!(
            values_never_sent(
                Some("startup|compact"),
                &session,
                claude::FLAVOR,
                bricks::FLAVOR
            ),
            ["compact"]
        );
        assert_eq!(
            values_never_sent(Some(".*"), &session, claude::FLAVOR, bricks::FLAVOR),
            ["clear", "compact", "fork"]
        );
        assert!(
            values_never_sent(Some("startup"), &session, claude::FLAVOR, copilot::FLAVOR)
                .is_empty()
        );
        assert!(values_never_sent(None, &session, claude::FLAVOR, bricks::FLAVOR).is_empty());
    }

    #[test]
    fn exact_lists_rename_tools() {
        assert_eq!(
            tools("Edit|Write", claude::FLAVOR, copilot::FLAVOR)
                .text
                .as_deref(),
            Some("edit|create")
        );
        assert_eq!(
            tools("bash|write_file", bricks::FLAVOR, claude::FLAVOR)
                .text
                .as_deref(),
            Some("Bash|Write")
        );
        assert_eq!(
            tools("edit|create", copilot::FLAVOR, bricks::FLAVOR)
                .text
                .as_deref(),
            Some("edit_file|write_file")
        );
    }

    #[test]
    fn unanchored_regex_becomes_explicit_for_copilot() {
        let t = tools("Edit.*", claude::FLAVOR, copilot::FLAVOR);
        assert_eq!(t.text.as_deref(), Some(".*edit.*"));
        // It fired for MultiEdit and NotebookEdit too, which Copilot lacks: counted.
        assert_eq!(t.problems.len(), 1, "{:?}", t.problems);
        assert!(t.problems[0].contains("`MultiEdit`, `NotebookEdit`"));
        // Copilot 1.0.102 names an MCP tool `SERVER-TOOL` (attacks row 1284).
        let t = tools("mcp__github__.*", claude::FLAVOR, copilot::FLAVOR);
        assert_eq!(t.text.as_deref(), Some("github-.*"));
    }

    #[test]
    fn anchors_of_one_alternative_do_not_anchor_the_others() {
        let t = tools("Bash|Edit.*", claude::FLAVOR, copilot::FLAVOR);
        assert_eq!(t.text.as_deref(), Some(".*(?:bash|edit.*).*"));
        let t = tools("^Write|Read", claude::FLAVOR, copilot::FLAVOR);
        assert_eq!(t.text.as_deref(), Some(".*(?:^create|view).*"));
        let field = translate(
            Some("cost\\$"),
            MatchOn::Field("notification_type"),
            &EventKind::Notification,
            claude::FLAVOR,
            copilot::FLAVOR,
        );
        assert_eq!(field.text.as_deref(), Some(".*cost\\$.*"));
    }

    #[test]
    fn anchored_regex_becomes_explicit_for_claude() {
        let t = tools("edit|create", copilot::FLAVOR, claude::FLAVOR);
        assert_eq!(t.text.as_deref(), Some("Edit|Write"));
        let t = tools("ed.*", copilot::FLAVOR, claude::FLAVOR);
        assert_eq!(t.text.as_deref(), Some("Edit"), "{:?}", t.problems);
        assert_eq!(t.problems.len(), 1);
    }

    #[test]
    fn tool_without_equivalent_is_reported() {
        let t = tools("Edit|NotebookEdit", claude::FLAVOR, copilot::FLAVOR);
        assert_eq!(t.text.as_deref(), Some("edit"));
        assert_eq!(t.problems.len(), 1);
    }

    #[test]
    fn field_regexes_keep_their_anchoring() {
        let field = |text, from, to| {
            let kind = EventKind::SubagentStart;
            translate(Some(text), MatchOn::Field("agent_type"), &kind, from, to)
        };
        assert_eq!(
            field("code-.*", claude::FLAVOR, copilot::FLAVOR)
                .text
                .as_deref(),
            Some(".*code-.*")
        );
        assert_eq!(
            field("rev.*", copilot::FLAVOR, bricks::FLAVOR)
                .text
                .as_deref(),
            Some("^rev.*$")
        );
        assert_eq!(
            field("explore|code-review", copilot::FLAVOR, bricks::FLAVOR)
                .text
                .as_deref(),
            Some("^(?:explore|code\\-review)$")
        );
        assert_eq!(
            field("explore|code-review", copilot::FLAVOR, claude::FLAVOR)
                .text
                .as_deref(),
            Some("explore|code-review")
        );
    }

    /// Auggie's matchers reach MCP tools only as `mcp:*` / `mcp:REGEX` (on `TOOL_SERVER`), and
    /// a plain regex other than the match-all never fires for one (source 0.36.0 `f7n`).
    #[test]
    fn augment_reaches_mcp_tools_only_through_mcp_matchers() {
        let mcp = "mcp__memory__read_graph";
        for (text, tool, fired) in [
            ("mcp:*", mcp, true),
            ("mcp:*", "view", false),
            ("mcp:_memory$", mcp, true),
            ("mcp:^read_graph_memory$", mcp, true),
            ("mcp:_github$", mcp, false),
            (".*", mcp, true),
            ("", mcp, true),
            ("read", mcp, false),
            ("mcp__memory__.*", mcp, false),
            ("view", "view", true),
        ] {
            assert_eq!(
                fires(Some(text), augment::FLAVOR, tool),
                Some(fired),
                "`{text}` on {tool}"
            );
        }
    }

    #[test]
    fn mcp_matchers_are_written_in_augment_form() {
        let to_augment = |text| tools(text, claude::FLAVOR, augment::FLAVOR);
        let every = to_augment("mcp__.*");
        assert_eq!(every.text.as_deref(), Some("mcp:*"));
        assert!(every.problems.is_empty(), "{:?}", every.problems);
        let one = to_augment("mcp__github__search");
        assert_eq!(one.text.as_deref(), Some("mcp:^search_github$"));
        assert!(one.problems.is_empty(), "{:?}", one.problems);
        // `tool_x_memory` may be tool `tool_x` of `memory` or `tool` of `x_memory`.
        let server = to_augment("mcp__memory__.*");
        assert_eq!(server.text.as_deref(), Some("mcp:_memory$"));
        assert_eq!(server.problems.len(), 1, "{:?}", server.problems);
        let tool = to_augment("mcp__memory__read_graph");
        assert_eq!(tool.text.as_deref(), Some("mcp:^read_graph_memory$"));
        assert_eq!(tool.problems.len(), 1, "{:?}", tool.problems);
        let gemini_every = tools("^mcp_", gemini::FLAVOR, augment::FLAVOR);
        assert_eq!(gemini_every.text.as_deref(), Some("mcp:*"));
        assert!(
            gemini_every.problems.is_empty(),
            "{:?}",
            gemini_every.problems
        );
        let wider = to_augment("mcp__.*__write.*");
        assert_eq!(wider.text.as_deref(), Some("mcp:*"));
        assert_eq!(wider.problems.len(), 1, "{:?}", wider.problems);
        // One Auggie matcher cannot reach both: the MCP part is reported.
        let mixed = to_augment("Write|mcp__memory__.*");
        assert!(
            mixed
                .problems
                .iter()
                .any(|p| p.contains("its MCP part never fires")),
            "{:?}",
            mixed.problems
        );
        // Tools only, or every tool: as before.
        assert_eq!(
            to_augment("Bash").text.as_deref(),
            Some("^launch\\-process$")
        );
        assert_eq!(to_augment(".*").text.as_deref(), Some(".*"));
    }

    #[test]
    fn augment_mcp_matchers_are_read_as_mcp_only() {
        let every = tools("mcp:*", augment::FLAVOR, claude::FLAVOR);
        assert_eq!(every.text.as_deref(), Some("^mcp__.*$"));
        assert!(every.problems.is_empty(), "{:?}", every.problems);
        let server = tools("mcp:_memory$", augment::FLAVOR, claude::FLAVOR);
        assert_eq!(server.text.as_deref(), Some("^mcp__.*$"));
        assert_eq!(server.problems.len(), 1, "{:?}", server.problems);
        assert_eq!(
            fires(Some("^mcp__.*$"), claude::FLAVOR, "Bash"),
            Some(false)
        );
    }

    #[test]
    fn all_is_absent_for_copilot_and_kept_for_claude() {
        assert_eq!(tools("*", claude::FLAVOR, copilot::FLAVOR).text, None);
        assert_eq!(
            tools("", claude::FLAVOR, bricks::FLAVOR).text.as_deref(),
            Some("")
        );
    }

    /// A name no tool of the source bears fires for nothing there (Augment's `view` in a
    /// Claude plugin's `hooks.json`, attacks row 2160): converted, it fires for nothing either,
    /// never for the target's own tool of that name (Copilot's `view`, its read tool), between
    /// every two flavours and for every tool name a table knows.
    #[test]
    fn a_name_the_source_has_no_tool_of_fires_for_no_tool_of_the_target() {
        let names: BTreeSet<&str> = Flavor::all()
            .iter()
            .flat_map(|f| f.tables().all_tool_names())
            .collect();
        let mut widened = Vec::new();
        for &from in Flavor::all() {
            for &to in Flavor::all() {
                for &name in names
                    .iter()
                    .filter(|n| !from.tables().matcher_knows_tool(n))
                {
                    if from == to
                        || from.tables().matcher_style.form(Some(name))
                            != MatcherForm::Exact(vec![name.to_string()])
                    {
                        continue;
                    }
                    let (expected, _) =
                        counterparts_fired(Some(name), from, to).unwrap_or_default();
                    let t = tools(name, from, to);
                    let got = match t.fires_for_nothing {
                        true => BTreeSet::new(),
                        false => target_fired(t.text.as_deref(), from, to).unwrap_or_default(),
                    };
                    if got != expected {
                        widened.push(format!(
                            "{from:?} `{name}` -> {to:?} {:?} fires for {got:?}, not {expected:?}",
                            t.text
                        ));
                    }
                }
            }
        }
        assert!(
            widened.is_empty(),
            "{} widened, e.g.:\n{}",
            widened.len(),
            widened
                .iter()
                .take(8)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }

    /// A regex that fires for no tool of the source's but for another agent's tool name
    /// (Augment's `view` in a Claude matcher, `view.*`, `^(bash|view)$`: attacks row 2166) is
    /// not rewritten onto the target's own tool of that name: between every two flavours, for
    /// regexes around every tool name either knows, the converted matcher fires for a tool of
    /// the target only where the original fires for its counterpart.
    #[test]
    fn a_translated_regex_fires_for_no_target_tool_the_source_never_fired_for() {
        let mut widened = Vec::new();
        let mut tried = 0;
        for &from in Flavor::all() {
            for &to in Flavor::all() {
                if from == to {
                    continue;
                }
                let names: BTreeSet<&str> = from
                    .tables()
                    .all_tool_names()
                    .chain(to.tables().all_tool_names())
                    .collect();
                for name in names {
                    let word = write::regex_escape(name);
                    let last = from.tables().all_tool_names().last().unwrap_or("x");
                    for pattern in [
                        format!("{word}.*"),
                        format!(".*{word}"),
                        format!("^({word}|{})$", write::regex_escape(last)),
                    ] {
                        if !matches!(
                            from.tables().matcher_style.form(Some(&pattern)),
                            MatcherForm::Regex { .. }
                        ) {
                            continue;
                        }
                        tried += 1;
                        let t = tools(&pattern, from, to);
                        if t.fires_for_nothing {
                            continue;
                        }
                        let (Some((expected, _)), Some(got)) = (
                            counterparts_fired(Some(&pattern), from, to),
                            target_fired(t.text.as_deref(), from, to),
                        ) else {
                            continue;
                        };
                        // The probes' counterparts stand for tools no table knows.
                        let wrong: BTreeSet<&str> = got
                            .difference(&expected)
                            .copied()
                            .filter(|n| {
                                !PROBE_TOOLS.contains(n)
                                    && !tool_universe(from, to)
                                        .iter()
                                        .any(|(s, c)| PROBE_TOOLS.contains(s) && *c == Some(*n))
                            })
                            .collect();
                        if !wrong.is_empty() {
                            widened.push(format!(
                                "{from:?} `{pattern}` -> {to:?} {:?} fires for {wrong:?}, which the original never fired for (it fired for {expected:?})",
                                t.text
                            ));
                        }
                    }
                }
            }
        }
        assert!(tried > 1000, "only {tried} regexes tried");
        assert!(
            widened.is_empty(),
            "{} of {tried} widened, e.g.:\n{}",
            widened.len(),
            widened
                .iter()
                .take(200)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }

    /// The probe file of row 2166: both of its regexes are not converted to Copilot, each with
    /// a loss that says which of Copilot's tools the rewrite would have fired for.
    #[test]
    fn regexes_around_a_name_claude_lacks_are_not_converted_to_copilot() {
        for (pattern, widened) in [("view.*", "`view`"), ("^(bash|view)$", "`bash`, `view`")] {
            let t = tools(pattern, claude::FLAVOR, copilot::FLAVOR);
            assert!(t.fires_for_nothing, "{pattern}: {t:?}");
            assert!(
                t.problems
                    .iter()
                    .any(|p| p.contains("fires for no claude tool")
                        && p.contains(&format!("would fire for {widened}, which it never"))),
                "{pattern}: {:?}",
                t.problems
            );
        }
    }
}
