//! Tool categories: a target whose tool events are one per category of tools (Windsurf's
//! `pre_run_command`) gets a tool rule once per category it fires for; [`RuleTools`] says
//! which tools, and how much of a category, a rule fires for.

use super::converter::Converter;
use super::matcher;
use crate::model::EventKind;
use crate::source::SourceFile;
use crate::tables::{Flavor, MatchOn, Rule, ToolScope};

/// The rules made for the categories a tool rule fires for.
struct CategoryRules<'e> {
    rules: Vec<Rule>,
    /// The categories' native event names where the rule fires for some of their tools only.
    partial: Vec<&'e str>,
    /// Whether it fires for any tool of any category (its rules may still be none).
    fired_any: bool,
}

impl Converter<'_> {
    /// A tool rule for a target that has an event per tool category: one rule per category
    /// the rule fires for. A category the rule fires for only in part gets the rule with its
    /// matcher applied by `hookx exec --match` (or, with `--no-wrap`, a loss: the target runs
    /// it for every tool of the category); tools it fires for that no category holds are a
    /// loss.
    pub(super) fn split_by_category(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        event: &EventKind,
        categories: &[Flavor],
    ) -> Vec<Rule> {
        if rule.handlers.is_empty() {
            // Nothing to run, nothing to lose.
            return Vec::new();
        }
        let at = rule.origin.pointer.as_str();
        let text = rule.matcher.as_deref().unwrap_or("");
        let tools = RuleTools::new(rule, event);
        // Each copy reports the same handler losses: they are kept once.
        let losses_before = self.losses.len();
        let Some(split) = self.category_rules(src, rule, event, categories, &tools) else {
            return Vec::new();
        };
        let CategoryRules {
            rules: out,
            partial,
            fired_any,
        } = split;
        self.drop_repeated_losses(losses_before);
        let missed = missed_tools(rule.flavor, categories, &tools);
        let what = || match text {
            "" => format!(
                "a rule with {} handler(s) on `{event}`",
                rule.handlers.len()
            ),
            _ => format!("matcher `{text}`"),
        };
        if !fired_any {
            let why = match missed.is_empty() {
                true => format!(
                    "it fires for no tool of any {} tool category; the rule is not converted",
                    self.options.to
                ),
                false => format!(
                    "it fires for {}, and {} has no hook event for those tools; the rule is not converted",
                    missed.join(", "),
                    self.options.to
                ),
            };
            self.lose(src, at, &what(), &why);
            return out;
        }
        if !missed.is_empty() {
            let why = format!(
                "{} has no hook event for {}: the converted hooks do not fire for those tools",
                self.options.to,
                missed.join(", ")
            );
            self.lose(src, at, &what(), &why);
        }
        if !partial.is_empty() && !self.options.wrap {
            let why = format!(
                "{} runs `{}` for every tool of its category; the rule fired for some of them only (without --no-wrap, hookx exec filters instead)",
                self.options.to,
                partial.join("`, `")
            );
            self.lose(src, at, &what(), &why);
        }
        out
    }

    /// The rule converted for each category it fires for; `None` (and a loss) when hookx
    /// cannot tell which tools it fires for.
    fn category_rules<'e>(
        &mut self,
        src: &SourceFile,
        rule: &Rule,
        event: &'e EventKind,
        categories: &[Flavor],
        tools: &RuleTools,
    ) -> Option<CategoryRules<'e>> {
        let from = rule.flavor;
        let at = rule.origin.pointer.as_str();
        let text = rule.matcher.as_deref().unwrap_or("");
        // The source matcher, for `hookx exec --match`, in the source's own tool names.
        let source_matcher = match tools.reads_tool_matcher {
            true => text.to_string(),
            false => category_matcher(from),
        };
        let mut out = Vec::new();
        let mut partial = Vec::new();
        let mut fired_any = false;
        for &category in categories {
            let Some(fired) = tools.in_category(category) else {
                self.lose(
                    src,
                    format!("{at}/matcher"),
                    &format!("a rule with {} handler(s), matcher `{text}`", rule.handlers.len()),
                    &format!(
                        "hookx cannot tell which tools it fires for, and {} has one event per tool category; the rule is not converted",
                        self.options.to
                    ),
                );
                return None;
            };
            if fired == CategoryFire::Never {
                continue;
            }
            fired_any = true;
            let native = category.tables().event_name(event).unwrap_or(event.name());
            let whole = fired == CategoryFire::Whole;
            if !whole {
                partial.push(native);
            }
            let wrap = (!whole && self.options.wrap).then(|| source_matcher.clone());
            out.extend(self.rule_to(src, rule, category, Some(wrap)));
        }
        Some(CategoryRules {
            rules: out,
            partial,
            fired_any,
        })
    }

    /// Drops the losses from `first` on that repeat an earlier one of them.
    fn drop_repeated_losses(&mut self, first: usize) {
        let mut seen = Vec::new();
        let mut i = first;
        while i < self.losses.len() {
            let l = &self.losses[i];
            let key = (l.pointer.clone(), l.what.clone(), l.why.clone());
            if seen.contains(&key) {
                self.losses.remove(i);
            } else {
                seen.push(key);
                i += 1;
            }
        }
    }
}

/// The tools of the source that no category holds and the rule fires for, as the source
/// names them (quoted).
fn missed_tools(from: Flavor, categories: &[Flavor], tools: &RuleTools) -> Vec<String> {
    let held = |id: &str| categories.iter().any(|c| c.tables().tool_scope.admits(id));
    let others: Vec<&str> = from
        .tables()
        .tools
        .iter()
        .map(|(id, _)| *id)
        .filter(|id| !held(id))
        .collect();
    tools
        .fire_set(&others)
        .unwrap_or_default()
        .into_iter()
        .zip(&others)
        .filter(|(fired, _)| *fired)
        .map(|(_, id)| format!("`{}`", crate::protocol::payload::tool_name(from, id)))
        .collect()
}

/// Which tools a tool rule fires for, in canonical ids.
pub(crate) struct RuleTools<'a> {
    rule: &'a Rule,
    /// Whether its flavour filters the event by a tool matcher; else its tool scope decides.
    reads_tool_matcher: bool,
}

/// How much of a tool category a rule fires for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CategoryFire {
    Whole,
    Part,
    Never,
}

impl<'a> RuleTools<'a> {
    pub(crate) fn new(rule: &'a Rule, event: &EventKind) -> RuleTools<'a> {
        let reads_tool_matcher =
            rule.flavor.tables().matcher_target(event) == Some(MatchOn::ToolName);
        RuleTools {
            rule,
            reads_tool_matcher,
        }
    }

    /// Whether the rule fires for each of these canonical tools; `None`: its matcher cannot be
    /// evaluated.
    pub(crate) fn fire_set(&self, ids: &[&str]) -> Option<Vec<bool>> {
        let from = self.rule.flavor;
        if !self.reads_tool_matcher {
            return Some(
                ids.iter()
                    .map(|id| from.tables().tool_scope.admits(id))
                    .collect(),
            );
        }
        let names: Vec<String> = ids
            .iter()
            .map(|id| crate::protocol::payload::tool_name(from, id).into_owned())
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        matcher::fire_set(self.rule.matcher.as_deref(), from, &names)
    }

    /// How much of the tools of `category` (a flavour whose events are a tool category) the
    /// rule fires for; `None`: its matcher cannot be evaluated. MCP tools cannot all be
    /// probed: a matcher naming the MCP prefix is taken to fire for some of them.
    pub(crate) fn in_category(&self, category: Flavor) -> Option<CategoryFire> {
        let ids: Vec<&str> = match category.tables().tool_scope {
            ToolScope::Only(ids) => ids.to_vec(),
            ToolScope::Mcp => matcher::PROBE_TOOLS
                .iter()
                .copied()
                .filter(|id| crate::model::tool::is_mcp(id))
                .collect(),
            ToolScope::Any => return Some(CategoryFire::Whole),
        };
        let fired = self.fire_set(&ids)?;
        let from = self.rule.flavor;
        let names_mcp = category.tables().tool_scope == ToolScope::Mcp
            && self.reads_tool_matcher
            && self
                .rule
                .matcher
                .as_deref()
                .is_some_and(|m| from.tables().mcp_names.named_in(m));
        Some(match (fired.contains(&true), fired.contains(&false)) {
            (true, false) => CategoryFire::Whole,
            (true, true) => CategoryFire::Part,
            (false, _) if names_mcp => CategoryFire::Part,
            (false, _) => CategoryFire::Never,
        })
    }
}

/// A matcher, in `flavor`'s own tool names and style, for the tools its category events fire
/// for.
pub(super) fn category_matcher(flavor: Flavor) -> String {
    let t = flavor.tables();
    match t.tool_scope {
        ToolScope::Any => String::new(),
        ToolScope::Mcp => format!("{}.*", t.mcp_names.prefix),
        ToolScope::Only(ids) => {
            // One name may stand for several tools of the category (Windsurf's `write_code`).
            let mut names: Vec<&str> = Vec::new();
            for name in ids.iter().filter_map(|id| t.tool_name(id)) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            names.join("|")
        }
    }
}
