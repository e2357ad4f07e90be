//! Translating a matcher between flavours so that the converted rule fires for exactly the
//! values it fired for before: tool names are renamed inside the pattern, the anchored vs
//! unanchored difference is made explicit, and the result is checked against every tool name
//! the tables know. When the check fails, the matcher falls back to an exact list of the tools
//! it matched, and the caller reports the approximation.

use crate::model::bounded::{self, Answer, Job};
use crate::model::matcher::{Literals, Reading};
use crate::model::{EventKind, MatcherForm, MatcherStyle};
use crate::tables::{Flavor, MatchOn};
use std::collections::BTreeSet;

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

/// Names as a flavour's tool matchers try them: each with its counterparts
/// ([`crate::tables::Tables::matcher_tool_names`]), all in one list.
struct Tried {
    /// How many of `flat` each name took.
    groups: Vec<usize>,
    flat: std::sync::Arc<[String]>,
}

impl Tried {
    fn new(flavor: Flavor, names: &[&str]) -> Tried {
        let tables = flavor.tables();
        let mut groups = Vec::with_capacity(names.len());
        let mut flat = Vec::with_capacity(names.len());
        for name in names {
            let tried = tables.matcher_tool_names(name);
            groups.push(tried.len());
            flat.extend(tried.into_iter().map(str::to_string));
        }
        Tried {
            groups,
            flat: flat.into(),
        }
    }

    /// Per name, whether any of its tries fired.
    fn fold(&self, fired: Vec<bool>) -> Vec<bool> {
        let mut fired = fired.into_iter();
        self.groups
            .iter()
            .map(|&n| fired.by_ref().take(n).fold(false, |a, f| a | f))
            .collect()
    }
}

/// What every tool matcher converted from one flavour to another is checked against.
struct Universe {
    pairs: Vec<Counterpart>,
    /// The source names, as the source flavour's matchers try them.
    source: Tried,
    /// The counterparts there are, as the target flavour's matchers try them.
    targets: Vec<&'static str>,
    target: Tried,
}

/// The [`Universe`] of a pair of flavours, built once per process: every tool matcher of a
/// conversion is checked against it (rebuilt per matcher, it was a third of a 10 000-rule
/// conversion).
fn universe(from: Flavor, to: Flavor) -> &'static Universe {
    type Memo = Vec<((Flavor, Flavor), &'static Universe)>;
    static BUILT: std::sync::Mutex<Memo> = std::sync::Mutex::new(Vec::new());
    let mut built = BUILT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, universe)) = built.iter().find(|((f, t), _)| *f == from && *t == to) {
        return universe;
    }
    let pairs: Vec<Counterpart> = from
        .tables()
        .all_tool_names()
        .chain(PROBE_TOOLS.iter().copied())
        .map(|name| {
            (
                name,
                to.tables().tool_name(from.tables().canonical_tool(name)),
            )
        })
        .collect();
    let names: Vec<&str> = pairs.iter().map(|(n, _)| *n).collect();
    let targets: Vec<&'static str> = pairs.iter().filter_map(|(_, c)| *c).collect();
    let universe = Universe {
        source: Tried::new(from, &names),
        target: Tried::new(to, &targets),
        targets,
        pairs,
    };
    // Leaked on purpose: one small table per pair of flavours, for the process's lifetime.
    let universe: &'static Universe = Box::leak(Box::new(universe));
    built.push(((from, to), universe));
    universe
}

/// Every tool name `from` knows, plus [`PROBE_TOOLS`], each with its counterpart in `to`.
pub fn tool_universe(from: Flavor, to: Flavor) -> &'static [Counterpart] {
    &universe(from, to).pairs
}

/// Whether matcher `text`, read as `flavor` reads it, fires for each of `names` (regexes are
/// evaluated within [`bounded`]'s limits): `None` when it is invalid or cannot be evaluated.
/// Each name is tried with its counterparts where the flavour's tables say so
/// ([`crate::tables::Tables::matcher_tool_names`]).
pub fn fire_set(text: Option<&str>, flavor: Flavor, names: &[&str]) -> Option<Vec<bool>> {
    fire_tried(text, flavor, &Tried::new(flavor, names))
}

fn fire_tried(text: Option<&str>, flavor: Flavor, tried: &Tried) -> Option<Vec<bool>> {
    let tables = flavor.tables();
    if !tables.mcp_names.reads_mcp_apart() {
        return Some(tried.fold(fire_names(text, flavor, tried.flat.clone())?));
    }
    // The matcher reads differently for MCP tools ([`crate::tables::McpMatchers`]): each
    // reading is tried on the names it applies to.
    let mut fired = vec![false; tried.flat.len()];
    let mut readings: Vec<(Option<&str>, Vec<usize>, Vec<String>)> = Vec::new();
    for (i, own) in tried.flat.iter().enumerate() {
        let Some((read, name)) = tables.tool_matcher_for(text, own) else {
            continue;
        };
        let name = name.unwrap_or_else(|| own.clone());
        match readings.iter_mut().find(|(r, _, _)| *r == read) {
            Some((_, at, names)) => {
                at.push(i);
                names.push(name);
            }
            None => readings.push((read, vec![i], vec![name])),
        }
    }
    for (read, at, names) in readings {
        for (i, hit) in at.into_iter().zip(fire_names(read, flavor, names.into())?) {
            fired[i] = hit;
        }
    }
    Some(tried.fold(fired))
}

/// Whether matcher `text`, read in `flavor`'s style, fires for each of `names`.
fn fire_names(
    text: Option<&str>,
    flavor: Flavor,
    names: std::sync::Arc<[String]>,
) -> Option<Vec<bool>> {
    Some(match flavor.tables().matcher_style.form(text) {
        MatcherForm::All => vec![true; names.len()],
        MatcherForm::Exact(list) => names.iter().map(|n| list.iter().any(|l| l == n)).collect(),
        MatcherForm::Regex { pattern, anchored } => {
            if let Some(matched) = bounded::literal_matches(&pattern, anchored, &names) {
                return Some(matched);
            }
            match bounded::run_one(Job::new(&pattern, anchored, names)) {
                Answer::Matches(matched) => matched,
                _ => return None,
            }
        }
    })
}

/// Whether matcher `text`, read as `flavor` reads it, fires for tool `name`.
pub fn fires(text: Option<&str>, flavor: Flavor, name: &str) -> Option<bool> {
    fire_set(text, flavor, &[name]).map(|v| v[0])
}

/// The tools (of [`tool_universe`]) a tool matcher fires for, as the target names them, and the
/// source names of those it fires for that have no counterpart in `to`.
pub fn counterparts_fired(
    text: Option<&str>,
    from: Flavor,
    to: Flavor,
) -> Option<(BTreeSet<&'static str>, BTreeSet<&'static str>)> {
    let universe = universe(from, to);
    let fired = fire_tried(text, from, &universe.source)?;
    let mut hit = BTreeSet::new();
    let mut lacking = BTreeSet::new();
    for (&(name, counterpart), fired) in universe.pairs.iter().zip(fired) {
        match (fired, counterpart) {
            (true, Some(target)) => {
                hit.insert(target);
            }
            (true, None) => {
                lacking.insert(name);
            }
            _ => {}
        }
    }
    Some((hit, lacking))
}

/// The target-side tools (counterparts of the source's and [`PROBE_TOOLS`]) that matcher
/// `text`, read as `to` reads it, fires for.
pub fn target_fired(
    text: Option<&str>,
    from: Flavor,
    to: Flavor,
) -> Option<BTreeSet<&'static str>> {
    let universe = universe(from, to);
    let fired = fire_tried(text, to, &universe.target)?;
    Some(
        universe
            .targets
            .iter()
            .copied()
            .zip(fired)
            .filter(|(_, f)| *f)
            .map(|(n, _)| n)
            .collect(),
    )
}

/// Translates `text`, written in `from` for an event whose matcher filters `on`, to `to`.
pub fn translate(text: Option<&str>, on: MatchOn, from: Flavor, to: Flavor) -> Translated {
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
    // A matcher for every tool but MCP tools (Kiro's `@builtin`) has no form in a flavour
    // without one: the built-in tools hookx knows, by name.
    let builtin_listed = on == MatchOn::ToolName
        && text.is_some()
        && text == from_mcp.builtin
        && to_mcp.builtin != from_mcp.builtin;
    let form = if builtin_listed {
        problems.push(format!(
            "`{}` fires for every tool but MCP tools, which {} cannot say: it is the list of the built-in tools hookx knows, and a newer one does not fire it",
            text.unwrap_or_default(),
            to.dialect()
        ));
        MatcherForm::Exact(from.tables().all_tool_names().map(str::to_string).collect())
    } else {
        form
    };
    let form = match form {
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
    };
    // A list of plain names no table knows (`tool_1|other_1`), between flavours that read MCP
    // names as any other: each name stays itself, and the check below tries only names the
    // tables know and the probes, which neither the list nor what it is written as fires for
    // (see `unknown_lists_are_written_as_the_check_would_pass_them`): it is not run.
    if on == MatchOn::ToolName
        && !builtin_listed
        && !from_mcp.reads_mcp_apart()
        && !to_mcp.reads_mcp_apart()
        && text.is_some_and(|t| !t.contains(from_mcp.prefix))
        && let MatcherForm::Exact(names) = &form
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
        return Translated {
            text: write(&MatcherForm::Exact(kept), target_style, text),
            problems,
            fires_for_nothing: false,
        };
    }
    // Set when the written matcher was already checked as the target reads it.
    let mut checked = builtin_listed;
    let form = match (on, form) {
        (_, MatcherForm::All) => MatcherForm::All,
        (MatchOn::ToolName, MatcherForm::Exact(names)) => {
            MatcherForm::Exact(rename_tools(&names, from, to, &mut problems))
        }
        (MatchOn::ToolName, MatcherForm::Regex { pattern, anchored }) => {
            let translated = translate_tool_regex(&pattern, anchored, from, to, &mut problems);
            checked = translated.1;
            translated.0
        }
        // Agent names, triggers, …: no names to rename, but the anchoring must be made
        // explicit where the target reads regexes the other way.
        (MatchOn::Field(_), MatcherForm::Regex { pattern, anchored }) => {
            let target_anchored = target_style.anchored();
            MatcherForm::Regex {
                pattern: reanchor(&pattern, anchored, target_anchored),
                anchored: target_anchored,
            }
        }
        (MatchOn::Field(_) | MatchOn::Unverified, form) => form,
    };
    // Nothing left to fire for: never an empty matcher, which some agents read as "all" and
    // Copilot drops.
    if matches!(&form, MatcherForm::Exact(names) if names.is_empty()) {
        return Translated {
            text: None,
            problems,
            fires_for_nothing: true,
        };
    }
    if target_exact {
        return exact_field(form, text, to, problems);
    }
    // A matcher that is one MCP name in the source's spelling (every MCP tool, a server's
    // tools, one tool) is written in the target's, where the two prefixes share nothing
    // (Kiro's `@git` is Claude's `mcp__git__.*`).
    if on == MatchOn::ToolName
        && from_mcp != to_mcp
        && !to_mcp.prefix.starts_with(from_mcp.prefix)
        && !from_mcp.prefix.starts_with(to_mcp.prefix)
        && text != from_mcp.builtin
        && let Some(name) = text.and_then(|t| McpName::parse(t, from_mcp))
    {
        return Translated {
            text: Some(match name {
                McpName::Every => format!("{}.*", to_mcp.prefix),
                McpName::Server(server) => to_mcp.join(server, ".*"),
                McpName::Tool(server, tool) => to_mcp.join(server, tool),
            }),
            problems,
            fires_for_nothing: false,
        };
    }
    if on == MatchOn::ToolName
        && from_mcp.prefix != to_mcp.prefix
        && !builtin_listed
        && text.is_some_and(|t| t.contains(from_mcp.prefix))
    {
        problems.push(format!(
            "{} names MCP tools `{}`: the MCP names in this matcher are not rewritten and may not fire",
            to.dialect(),
            to_mcp.join("<server>", "<tool>")
        ));
    }
    let written = write(&form, target_style, text);
    if on == MatchOn::ToolName && !checked {
        check_tools(text, written.as_deref(), from, to, &mut problems);
    }
    Translated {
        text: written,
        problems,
        fires_for_nothing: false,
    }
}

/// A tool matcher between a flavour whose matchers reach MCP tools only through a prefix
/// ([`crate::tables::McpMatchers`], Auggie's `mcp:`) and one whose matchers reach them by
/// name; `None`: the matcher concerns no MCP tool, or only its non-MCP part can be written (a
/// problem says so), and it is translated as any other. Where the written matcher fires for
/// more MCP tools than the original, a problem says which (`hookx exec --match` then filters).
fn mcp_matchers(
    text: Option<&str>,
    from: Flavor,
    to: Flavor,
    problems: &mut Vec<String>,
) -> Option<Translated> {
    let (from_mcp, to_mcp) = (from.tables().mcp_names, to.tables().mcp_names);
    let written = |text: String, problems: &mut Vec<String>| {
        Some(Translated {
            text: Some(text),
            problems: std::mem::take(problems),
            fires_for_nothing: false,
        })
    };
    if let Some(matchers) = from_mcp.matchers {
        // From `mcp:…`: every MCP tool is the target's MCP prefix.
        let rest = text?.strip_prefix(matchers.prefix)?;
        let every = reanchor(
            &format!("{}.*", regex_escape(to_mcp.prefix)),
            true,
            to.tables().matcher_style.anchored(),
        );
        if rest != "*" {
            problems.push(format!(
                "`{}` tests a regex on {}'s MCP names (`TOOL{}SERVER`), which {} does not write: it fires for every MCP tool there",
                text?,
                from.dialect(),
                matchers.separator,
                to.dialect()
            ));
        }
        return written(every, problems);
    }
    let matchers = to_mcp.matchers?;
    let text = text?;
    let mcp_probes: Vec<std::borrow::Cow<str>> = PROBE_TOOLS
        .iter()
        .copied()
        .filter(|id| crate::model::tool::is_mcp(id))
        .map(|id| crate::protocol::payload::tool_name(from, id))
        .collect();
    let mcp_probes: Vec<&str> = mcp_probes.iter().map(|n| n.as_ref()).collect();
    let fires_for_mcp = (text.contains(from_mcp.prefix) && Some(text) != from_mcp.builtin)
        || fire_set(Some(text), from, &mcp_probes).is_some_and(|f| f.contains(&true));
    if !fires_for_mcp {
        return None;
    }
    let others: Vec<&str> = from
        .tables()
        .all_tool_names()
        .chain(PROBE_TOOLS.iter().copied())
        .filter(|name| !crate::model::tool::is_mcp(name))
        .collect();
    if fire_set(Some(text), from, &others).is_none_or(|f| f.contains(&true)) {
        problems.push(format!(
            "{} reaches MCP tools only with a matcher of its own (`{}*`, `{}REGEX`), and this one fires for other tools too: its MCP part never fires there",
            to.dialect(),
            matchers.prefix,
            matchers.prefix
        ));
        return None;
    }
    // A leading `^` anchors nothing more: a name starts with the prefix.
    let text = text.trim_start_matches('^');
    let (regex, exact) = match McpName::parse(text, from_mcp) {
        _ if text == from_mcp.prefix => return written(format!("{}*", matchers.prefix), problems),
        Some(McpName::Every) => return written(format!("{}*", matchers.prefix), problems),
        Some(McpName::Server(server)) => (
            format!("{}{}$", matchers.separator, regex_escape(server)),
            false,
        ),
        Some(McpName::Tool(server, tool)) => {
            let native = matchers.name(server, tool);
            // Auggie's name splits one way only when it has one separator.
            let exact = native.matches(matchers.separator).count() == 1;
            (format!("^{}$", regex_escape(&native)), exact)
        }
        None => {
            problems.push(format!(
                "{} tests an MCP matcher on `TOOL{}SERVER`, where this one cannot be written: it is `{}*` there, every MCP tool",
                to.dialect(),
                matchers.separator,
                matchers.prefix
            ));
            return written(format!("{}*", matchers.prefix), problems);
        }
    };
    let regex = format!("{}{regex}", matchers.prefix);
    if !exact {
        problems.push(format!(
            "{} names an MCP tool `TOOL{}SERVER`: `{regex}` also fires for a tool of another server whose name ends the same way",
            to.dialect(),
            matchers.separator
        ));
    }
    written(regex, problems)
}

/// A matcher that is one MCP name in a flavour's spelling: `PREFIX.*` (`^PREFIX.*` too),
/// `PREFIX server` or `PREFIX server SEPARATOR .*` (its tools), `PREFIX server SEPARATOR tool`,
/// names being word characters and `-`.
enum McpName<'a> {
    Every,
    Server(&'a str),
    Tool(&'a str, &'a str),
}

impl<'a> McpName<'a> {
    fn parse(text: &'a str, names: crate::tables::McpNames) -> Option<McpName<'a>> {
        let rest = text.strip_prefix(names.prefix)?;
        if rest == ".*" {
            return Some(McpName::Every);
        }
        let name = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        };
        match rest.split_once(names.separator) {
            None if name(rest) => Some(McpName::Server(rest)),
            Some((server, ".*")) if name(server) => Some(McpName::Server(server)),
            Some((server, tool)) if name(server) && name(tool) => Some(McpName::Tool(server, tool)),
            _ => None,
        }
    }
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
/// them answered ahead, in one batch ([`bounded::with_answers`]).
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
/// for every value unless hookx filters it).
fn exact_field(
    form: MatcherForm,
    original: Option<&str>,
    to: Flavor,
    mut problems: Vec<String>,
) -> Translated {
    let text = match form {
        MatcherForm::All => original.map(str::to_string),
        MatcherForm::Exact(values) if values.len() == 1 => values.into_iter().next(),
        _ => {
            problems.push(format!(
                "{} compares this matcher with one value exactly; `{}` cannot be written so",
                to.dialect(),
                original.unwrap_or("")
            ));
            None
        }
    };
    Translated {
        text,
        problems,
        fires_for_nothing: false,
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

fn rename_tools<'a>(
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
/// within [`bounded`]'s limits. The flag says whether the result was checked as the target
/// reads its text, which is what [`check_tools`] would check again.
fn translate_tool_regex(
    pattern: &str,
    anchored: bool,
    from: Flavor,
    to: Flavor,
    problems: &mut Vec<String>,
) -> (MatcherForm, bool) {
    let target_anchored = to.tables().matcher_style.anchored();
    let universe = universe(from, to);
    let original = match regex_fires(pattern, anchored, &universe.source) {
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
    if let Answer::Matches(matched) =
        regex_fires(&candidate_pattern, target_anchored, &universe.target)
    {
        let got: BTreeSet<&str> = universe
            .targets
            .iter()
            .zip(matched)
            .filter(|(_, m)| *m)
            .map(|(n, _)| *n)
            .collect();
        if got == expected {
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
    }
    let known: Vec<String> = expected
        .iter()
        .copied()
        .filter(|n| !PROBE_TOOLS.contains(n))
        .map(str::to_string)
        .collect();
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

/// Whether a regex fires for each name of `tried`, evaluated within [`bounded`]'s limits.
fn regex_fires(pattern: &str, anchored: bool, tried: &Tried) -> Answer {
    if let Some(fired) = bounded::literal_matches(pattern, anchored, &tried.flat) {
        return Answer::Matches(tried.fold(fired));
    }
    match bounded::run_one(Job::new(pattern, anchored, tried.flat.clone())) {
        Answer::Matches(fired) => Answer::Matches(tried.fold(fired)),
        other => other,
    }
}

/// Whether a regex matches each value, evaluated within [`bounded`]'s limits; `None` when it
/// is invalid or cannot be evaluated.
fn matches<'v>(
    pattern: &str,
    anchored: bool,
    values: impl Iterator<Item = &'v str>,
) -> Option<Vec<bool>> {
    match bounded::run_one(Job::new(
        pattern,
        anchored,
        values.map(str::to_string).collect::<Vec<_>>(),
    )) {
        Answer::Matches(matched) => Some(matched),
        _ => None,
    }
}

/// At most 80 characters of a pattern, for messages (a matcher can be kilobytes long).
fn shorten(pattern: &str) -> String {
    match pattern.char_indices().nth(80) {
        Some((end, _)) => format!("{}…", &pattern[..end]),
        None => pattern.to_string(),
    }
}

/// Replaces every identifier that is a source tool name by the target's name for that tool.
fn rename_words(pattern: &str, from: Flavor, to: Flavor) -> String {
    let mut out = String::with_capacity(pattern.len());
    let push = |word: &str, out: &mut String| {
        // Most words of a pattern are no tool name: they are not looked up further.
        let renamed = (!word.is_empty()
            && !Flavor::is_unknown_tool(word)
            && from.tables().matcher_knows_tool(word))
        .then(|| {
            to.tables()
                .tool_name(from.tables().matcher_canonical_tool(word))
        })
        .flatten();
        out.push_str(renamed.unwrap_or(word));
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
fn reanchor(pattern: &str, from_anchored: bool, to_anchored: bool) -> String {
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
/// target reads it the same way (`*`, empty) and is omitted otherwise.
fn write(form: &MatcherForm, style: MatcherStyle, original: Option<&str>) -> Option<String> {
    match (form, style) {
        (MatcherForm::All, MatcherStyle::ListOrRegex { .. } | MatcherStyle::UnanchoredRegex) => {
            original.map(str::to_string)
        }
        (MatcherForm::Exact(names), MatcherStyle::UnanchoredRegex) => {
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

fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\^$.|?*+()[]{}/-".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::{augment, bricks, claude, copilot, gemini};

    fn tools(text: &str, from: Flavor, to: Flavor) -> Translated {
        translate(Some(text), MatchOn::ToolName, from, to)
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
                    let t = translate(Some(text), MatchOn::ToolName, from, to);
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
        let t = tools("mcp__github__.*", claude::FLAVOR, copilot::FLAVOR);
        assert_eq!(t.text.as_deref(), Some(".*mcp__github__.*"));
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
        let field = |text, from, to| translate(Some(text), MatchOn::Field("agent_type"), from, to);
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
}
