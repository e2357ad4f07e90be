//! Reading a matcher as a flavour reads it: whether it fires for each tool name (each tried
//! with its counterparts), and which counterparts in another flavour it fires for. Regexes
//! are evaluated within [`bounded`]'s limits; a pair of flavours' tool list is built once.

use super::{Counterpart, PROBE_TOOLS};
use crate::model::MatcherForm;
use crate::model::bounded::{self, Answer, Job};
use crate::tables::Flavor;
use std::collections::BTreeSet;

/// Names as a flavour's tool matchers try them: each with its counterparts
/// ([`crate::tables::Tables::matcher_tool_names`]), all in one list.
pub(super) struct Tried {
    /// How many of `flat` each name took.
    groups: Vec<usize>,
    pub(super) flat: std::sync::Arc<[String]>,
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

    /// Each name as the flavour spells it (the first of its tries).
    fn firsts(&self) -> Vec<String> {
        let mut at = 0;
        self.groups
            .iter()
            .map(|&n| {
                let own = self.flat[at].clone();
                at += n;
                own
            })
            .collect()
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
pub(super) struct Universe {
    pub(super) pairs: Vec<Counterpart>,
    /// The source names, as the source flavour's matchers try them.
    pub(super) source: Tried,
    /// The counterparts there are, as the target flavour's matchers try them.
    pub(super) targets: Vec<&'static str>,
    pub(super) target: Tried,
}

/// The [`Universe`] of a pair of flavours, built once per process: every tool matcher of a
/// conversion is checked against it (rebuilt per matcher, it was a third of a 10 000-rule
/// conversion).
pub(super) fn universe(from: Flavor, to: Flavor) -> &'static Universe {
    type Memo = Vec<((Flavor, Flavor), &'static Universe)>;
    static BUILT: std::sync::Mutex<Memo> = std::sync::Mutex::new(Vec::new());
    let mut built = BUILT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, universe)) = built.iter().find(|((f, t), _)| *f == from && *t == to) {
        return universe;
    }
    // One pair per tool a name stands for: Codex's `apply_patch` is a write, an edit and a
    // multi-edit, and a matcher that fires for it fires for all three.
    let pairs: Vec<Counterpart> = from
        .tables()
        .tools
        .iter()
        .flat_map(|(id, names)| names.iter().map(move |name| (*name, *id)))
        .chain(PROBE_TOOLS.iter().map(|name| (*name, *name)))
        .map(|(name, id)| (name, counterpart(to, id)))
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

/// The name `to` gives the tool `id`: an MCP tool spelled in its MCP form (Copilot's
/// `SERVER-TOOL`), leaked as the universe that holds it is.
fn counterpart(to: Flavor, id: &'static str) -> Option<&'static str> {
    let mcp = to.tables().mcp_names;
    match crate::tables::MCP_CANONICAL.split(id) {
        Some((server, tool)) if crate::model::tool::is_mcp(id) && mcp.prefix.is_empty() => {
            Some(Box::leak(mcp.join(server, tool).into_boxed_str()))
        }
        _ => to.tables().tool_name(id),
    }
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
    if let Some(exact) = tables.matcher_style.exact_names(text) {
        // Qwen: its names exactly on every try, its regex on each tool's own name only.
        let own = fire_names(text, flavor, tried.firsts().into())?;
        let named = tried.fold(tried.flat.iter().map(|n| exact.contains(&&**n)).collect());
        return Some(named.into_iter().zip(own).map(|(a, b)| a || b).collect());
    }
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

/// The counterparts in `to` of the tools an exact list of `names` fires for in `from` (each
/// tool tried with its counterparts, as `from`'s matchers try it).
pub(super) fn exact_counterparts(
    names: &[String],
    from: Flavor,
    to: Flavor,
) -> BTreeSet<&'static str> {
    let universe = universe(from, to);
    let tried: Vec<bool> = universe
        .source
        .flat
        .iter()
        .map(|n| names.iter().any(|l| l == n))
        .collect();
    universe
        .pairs
        .iter()
        .zip(universe.source.fold(tried))
        .filter_map(|(&(_, counterpart), fired)| counterpart.filter(|_| fired))
        .collect()
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

/// Whether a regex fires for each name of `tried`, evaluated within [`bounded`]'s limits.
pub(super) fn regex_fires(pattern: &str, anchored: bool, tried: &Tried) -> Answer {
    if let Some(fired) = bounded::literal_matches(pattern, anchored, &tried.flat) {
        return Answer::Matches(tried.fold(fired));
    }
    match bounded::run_one(Job::new(pattern, anchored, tried.flat.clone())) {
        Answer::Matches(fired) => Answer::Matches(tried.fold(fired)),
        other => other,
    }
}

/// [`regex_fires`] as `flavor` reads the regex: Qwen tries it on each tool's own name only, and
/// the text as a name on every try ([`crate::model::MatcherStyle::exact_names`]).
pub(super) fn regex_fires_in(
    flavor: Flavor,
    pattern: &str,
    anchored: bool,
    tried: &Tried,
) -> Answer {
    let Some(exact) = flavor.tables().matcher_style.exact_names(Some(pattern)) else {
        return regex_fires(pattern, anchored, tried);
    };
    let firsts: std::sync::Arc<[String]> = tried.firsts().into();
    let own = match bounded::literal_matches(pattern, anchored, &firsts) {
        Some(own) => own,
        None => match bounded::run_one(Job::new(pattern, anchored, firsts)) {
            Answer::Matches(own) => own,
            other => return other,
        },
    };
    let named = tried.fold(tried.flat.iter().map(|n| exact.contains(&&**n)).collect());
    Answer::Matches(named.into_iter().zip(own).map(|(a, b)| a || b).collect())
}

/// Whether a regex matches each value, evaluated within [`bounded`]'s limits; `None` when it
/// is invalid or cannot be evaluated.
pub(super) fn matches<'v>(
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
