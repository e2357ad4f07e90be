//! Writing a matcher as the target reads it: tool names renamed, anchoring made explicit,
//! and a regex checked against every tool the tables know (else an exact list of them).

use super::PROBE_TOOLS;
use super::read::{regex_fires_in, universe};
use crate::model::bounded::Answer;
use crate::model::matcher::Reading;
use crate::model::{MatcherForm, MatcherStyle};
use crate::tables::Flavor;
use std::collections::BTreeSet;

pub(super) fn rename_tools<'a>(
    names: &'a [String],
    from: Flavor,
    to: Flavor,
    problems: &mut Vec<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    // Sets beside the list: a 100 000-name matcher was quadratic here (issue 9).
    let mut seen = std::collections::HashSet::new();
    // A name no table knows stands for itself everywhere, and widens nothing.
    let canonical = |n: &'a str| match Flavor::is_unknown_tool(n) {
        true => vec![n],
        false => from.tables().matcher_canonical_tools(n),
    };
    let source_ids: std::collections::HashSet<&str> =
        names.iter().flat_map(|n| canonical(n)).collect();
    for name in names {
        if Flavor::is_unknown_tool(name) {
            if seen.insert(name.clone()) {
                out.push(name.clone());
            }
            continue;
        }
        // A name another agent's tool bears but no tool of the source (Augment's `view` in a
        // Claude file, a lowercase `bash`: attacks row 2160) fires for nothing there. It stays
        // itself where the target has no tool of that name either; else, written as it is or
        // as the target's name of a tool id it spells (`shell`), it would fire for the
        // target's tool: it is dropped.
        if !from.tables().matcher_knows_tool(name) {
            let itself = !to.tables().matcher_knows_tool(name)
                && to.tables().tool_name(name) == Some(name.as_str());
            if !itself {
                problems.push(format!(
                    "`{name}` names no {} tool, so it fired for nothing; under {} it would name a tool of its own: it is dropped from the matcher",
                    from.dialect(),
                    to.dialect()
                ));
            } else if seen.insert(name.clone()) {
                out.push(name.clone());
            }
            continue;
        }
        let targets: Vec<&str> = from
            .tables()
            .matcher_canonical_tools(name)
            .into_iter()
            .filter_map(|id| to.tables().tool_name(id))
            .collect();
        if targets.is_empty() {
            problems.push(format!(
                "tool `{name}` has no {} equivalent; it is dropped from the matcher",
                to.dialect()
            ));
        }
        for target in targets {
            if !seen.insert(target.to_string()) {
                continue;
            }
            // A target name that stands for more tools (Codex's `apply_patch`) widens the rule.
            let wider: Vec<&str> = to
                .tables()
                .matcher_canonical_tools(target)
                .into_iter()
                .filter(|id| !source_ids.contains(id))
                .filter_map(|id| from.tables().tool_name(id))
                .collect();
            if !wider.is_empty() {
                let wider: Vec<String> = wider.iter().map(|w| format!("`{w}`")).collect();
                problems.push(format!(
                    "`{target}` also stands for {} in {}; the converted matcher fires for it too",
                    wider.join(", "),
                    to.dialect()
                ));
            }
            out.push(target.to_string());
        }
    }
    out
}

/// Renames whole-word tool names in the pattern, then checks the result against every known
/// tool and the probe names of unknown ones: it must match exactly the counterparts of the
/// tools the original matched. Tools without a counterpart are reported. Regexes are evaluated
/// within [`bounded`](crate::model::bounded)'s limits. The flag says whether the result was checked as the target
/// reads its text, which is what [`check_tools`] would check again.
pub(super) fn translate_tool_regex(
    pattern: &str,
    anchored: bool,
    from: Flavor,
    to: Flavor,
    problems: &mut Vec<String>,
) -> (MatcherForm, bool) {
    let target_anchored = to.tables().matcher_style.anchored();
    let universe = universe(from, to);
    // As the source reads it: Qwen tries a regex on each tool's own name only.
    let original = match regex_fires_in(from, pattern, anchored, &universe.source) {
        Answer::Matches(matched) => matched,
        Answer::Unevaluable(why) => {
            // Renamed and re-anchored as text, which needs no regex engine, but unchecked.
            problems.push(format!(
                "regex matcher `{}` cannot be checked ({why}); its tool names are renamed and its \
                 anchoring made explicit, unchecked",
                shorten(pattern)
            ));
            let form = MatcherForm::Regex {
                pattern: reanchor(&rename_words(pattern, from, to), anchored, target_anchored),
                anchored: target_anchored,
            };
            return (form, false);
        }
        Answer::Invalid(_) => {
            problems.push(format!(
                "matcher `{}` is not a valid regex; it is copied unchanged",
                shorten(pattern)
            ));
            let form = MatcherForm::Regex {
                pattern: pattern.to_string(),
                anchored: target_anchored,
            };
            return (form, false);
        }
    };
    let mut expected = BTreeSet::new();
    let mut lacking = BTreeSet::new();
    for ((name, counterpart), fired) in universe.pairs.iter().zip(&original) {
        match (fired, counterpart) {
            (true, Some(target)) => {
                expected.insert(*target);
            }
            (true, None) => {
                lacking.insert(*name);
            }
            _ => {}
        }
    }
    // A regex that fires for every tool (`.*`) is match-all: the target's missing tools are
    // not missing from it.
    let fires_for_all = original.iter().all(|m| *m);
    if !lacking.is_empty() && !fires_for_all {
        problems.push(format!(
            "{} {} no {} counterpart; the converted matcher cannot fire for {}",
            lacking
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if lacking.len() == 1 { "has" } else { "have" },
            to.dialect(),
            if lacking.len() == 1 { "it" } else { "them" },
        ));
    }
    if expected.is_empty() && !lacking.is_empty() {
        return (MatcherForm::Exact(Vec::new()), false);
    }
    let renamed = rename_words(pattern, from, to);
    let candidate_pattern = reanchor(&renamed, anchored, target_anchored);
    // What the rewrite fires for among the target's tools, when it can be evaluated.
    let got: Option<BTreeSet<&str>> =
        match regex_fires_in(to, &candidate_pattern, target_anchored, &universe.target) {
            Answer::Matches(matched) => Some(
                universe
                    .targets
                    .iter()
                    .zip(matched)
                    .filter(|(_, m)| *m)
                    .map(|(n, _)| *n)
                    .collect(),
            ),
            _ => None,
        };
    if got.as_ref() == Some(&expected) {
        // A regex the target would read as a list of names (Droid's unanchored
        // `Create|Write` renamed to Claude's `Write|Write`) is grouped, which it reads as
        // the regex it is.
        let style = to.tables().matcher_style;
        let read_as_written =
            |p: &str| style.reading(Some(p)) == Reading::Regex(p, target_anchored);
        let grouped = format!("(?:{candidate_pattern})");
        let read_otherwise = !read_as_written(&candidate_pattern)
            && super::read::target_fired(Some(&candidate_pattern), from, to)
                .is_none_or(|fired| fired != expected);
        let candidate_pattern = match read_otherwise && read_as_written(&grouped) {
            true => grouped,
            false => candidate_pattern,
        };
        let form = MatcherForm::Regex {
            pattern: candidate_pattern,
            anchored: target_anchored,
        };
        // Checked as a regex: the same check as the target's, if it reads the text so.
        let checked = matches!(&form, MatcherForm::Regex { pattern, anchored }
            if to.tables().matcher_style.reading(Some(pattern))
                == Reading::Regex(pattern, *anchored));
        return (form, checked);
    }
    // A probe's counterpart (Copilot's `github-create_issue`) is no tool either.
    let is_tool = |n: &&str| {
        !PROBE_TOOLS.contains(n)
            && !universe
                .pairs
                .iter()
                .any(|(source, c)| PROBE_TOOLS.contains(source) && *c == Some(*n))
    };
    let known: Vec<String> = expected
        .iter()
        .copied()
        .filter(is_tool)
        .map(str::to_string)
        .collect();
    // The rewrite fires for a tool of the target whose counterpart the original never fired
    // for (Claude's `view.*` is Copilot's `.*view.*`, which fires for Copilot's `view`, its
    // read tool: attacks row 2166). The best guess below would widen the rule onto it, and no
    // regex hookx reads (no lookahead) can take those names out: the rule is not converted.
    let widened: Vec<String> = got
        .iter()
        .flatten()
        .copied()
        .filter(|n| !expected.contains(n) && is_tool(n))
        .map(|n| format!("`{n}`"))
        .collect();
    if known.is_empty() && !widened.is_empty() {
        problems.push(format!(
            "regex matcher `{}` fires for no {} tool hookx knows, and rewritten for {} as `{}` it would fire for {}, which it never fired for",
            shorten(pattern),
            from.dialect(),
            to.dialect(),
            shorten(&candidate_pattern),
            widened.join(", ")
        ));
        return (MatcherForm::Exact(Vec::new()), false);
    }
    if known.is_empty() {
        // It fires only for tools outside the tables: the rewritten regex is the best guess.
        problems.push(format!(
            "regex matcher `{}` cannot be checked for {}; it is rewritten as `{}`",
            shorten(pattern),
            to.dialect(),
            shorten(&candidate_pattern)
        ));
        let form = MatcherForm::Regex {
            pattern: candidate_pattern,
            anchored: target_anchored,
        };
        return (form, false);
    }
    let unknown = expected.len() > known.len();
    problems.push(format!(
        "regex matcher `{}` cannot be rewritten exactly for {}; replaced by the exact list of tools it matched ({}){}",
        shorten(pattern),
        to.dialect(),
        known.join(", "),
        if unknown {
            ", so MCP tools and tools outside hookx's tables no longer match"
        } else {
            ""
        }
    ));
    (MatcherForm::Exact(known), false)
}

/// At most 80 characters of a pattern, for messages (a matcher can be kilobytes long).
fn shorten(pattern: &str) -> String {
    match pattern.char_indices().nth(80) {
        Some((end, _)) => format!("{}…", &pattern[..end]),
        None => pattern.to_string(),
    }
}

/// Replaces every identifier that is a source tool name by the target's name for that tool.
pub(super) fn rename_words(pattern: &str, from: Flavor, to: Flavor) -> String {
    let mut out = String::with_capacity(pattern.len());
    let push = |word: &str, out: &mut String| {
        // Most words of a pattern are no tool name: they are not looked up further.
        if word.is_empty()
            || Flavor::is_unknown_tool(word)
            || !from.tables().matcher_knows_tool(word)
        {
            out.push_str(word);
            return;
        }
        // A name that stands for several tools (Codex's `apply_patch`) becomes the target's
        // name of each, as one group.
        let mut names: Vec<&str> = Vec::new();
        for id in from.tables().matcher_canonical_tools(word) {
            if let Some(name) = to.tables().tool_name(id)
                && !names.contains(&name)
            {
                names.push(name);
            }
        }
        match names.as_slice() {
            [] => out.push_str(word),
            [one] => out.push_str(one),
            many => {
                out.push_str("(?:");
                out.push_str(&many.join("|"));
                out.push(')');
            }
        }
    };
    // Where the word being read starts, if one is.
    let mut word = None;
    let mut escaped = false;
    for (at, c) in pattern.char_indices() {
        if !escaped && (c.is_ascii_alphanumeric() || c == '_') {
            word.get_or_insert(at);
            continue;
        }
        if let Some(start) = word.take() {
            push(&pattern[start..at], &mut out);
        }
        escaped = !escaped && c == '\\';
        out.push(c);
    }
    if let Some(start) = word {
        push(&pattern[start..], &mut out);
    }
    out
}

/// Makes an unanchored pattern whole-value (or the reverse) without changing what it accepts.
pub(super) fn reanchor(pattern: &str, from_anchored: bool, to_anchored: bool) -> String {
    let grouped = if pattern.contains('|') {
        format!("(?:{pattern})")
    } else {
        pattern.to_string()
    };
    match (from_anchored, to_anchored) {
        (false, true) => {
            // A leading `^` or `.*` (trailing `$` or `.*`) covers the whole pattern only when
            // it is not an alternation, and only when it is not an escaped character.
            let whole = !pattern.contains('|');
            let head = if whole && (pattern.starts_with('^') || pattern.starts_with(".*")) {
                ""
            } else {
                ".*"
            };
            let tail = if whole
                && ((pattern.ends_with('$') && !pattern.ends_with("\\$"))
                    || (pattern.ends_with(".*") && !pattern.ends_with("\\.*")))
            {
                ""
            } else {
                ".*"
            };
            format!("{head}{grouped}{tail}")
        }
        (true, false) => format!("^{grouped}$"),
        _ => pattern.to_string(),
    }
}

/// Matcher text for a form in the target's style. `All` keeps the original spelling where the
/// target reads it as all too (`*`, empty) and is omitted otherwise: Auggie reads `*` as an
/// invalid regex and drops the event's hooks (attacks row 1200).
pub(super) fn write(
    form: &MatcherForm,
    style: MatcherStyle,
    original: Option<&str>,
) -> Option<String> {
    match (form, style) {
        (
            MatcherForm::All,
            MatcherStyle::ListOrRegex { .. }
            | MatcherStyle::UnanchoredRegex { .. }
            | MatcherStyle::NamesOrRegex,
        ) => original
            .filter(|o| style.reading(Some(o)) == Reading::All)
            .map(str::to_string),
        // Anchored for Qwen too: a name it does not hold exactly is tried as a regex there
        // (`edit` fires on `notebook_edit`).
        (
            MatcherForm::Exact(names),
            MatcherStyle::UnanchoredRegex { .. } | MatcherStyle::NamesOrRegex,
        ) => {
            let alternatives = names
                .iter()
                .map(|n| regex_escape(n))
                .collect::<Vec<_>>()
                .join("|");
            Some(match names.len() {
                1 => format!("^{alternatives}$"),
                _ => format!("^(?:{alternatives})$"),
            })
        }
        (MatcherForm::All, MatcherStyle::AnchoredRegex { .. }) => None,
        (MatcherForm::Exact(names), MatcherStyle::AnchoredRegex { .. }) => Some(
            names
                .iter()
                .map(|n| regex_escape(n))
                .collect::<Vec<_>>()
                .join("|"),
        ),
        (MatcherForm::Exact(names), MatcherStyle::ListOrRegex { list_extra, .. }) => {
            let joined = names.join("|");
            let is_list = !joined.is_empty()
                && joined != "*"
                && joined.chars().all(|c| {
                    c.is_ascii_alphanumeric() || c == '_' || c == '|' || list_extra.contains(c)
                });
            if is_list {
                Some(joined)
            } else {
                let alternatives = names
                    .iter()
                    .map(|n| regex_escape(n))
                    .collect::<Vec<_>>()
                    .join("|");
                Some(format!("^(?:{alternatives})$"))
            }
        }
        (MatcherForm::Regex { pattern, .. }, _) => Some(pattern.clone()),
    }
}

pub(super) fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}/-".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
