//! MCP tool matchers between flavours that spell MCP names differently, or reach MCP tools
//! only through a matcher prefix of their own.

use super::write::{reanchor, regex_escape};
use super::{PROBE_TOOLS, Translated, fire_set};
use crate::tables::Flavor;

/// A tool matcher between a flavour whose matchers reach MCP tools only through a prefix
/// ([`crate::tables::McpMatchers`], Auggie's `mcp:`) and one whose matchers reach them by
/// name; `None`: the matcher concerns no MCP tool, or only its non-MCP part can be written (a
/// problem says so), and it is translated as any other. Where the written matcher fires for
/// more MCP tools than the original, a problem says which (`hookx exec --match` then filters).
pub(super) fn mcp_matchers(
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
        let every = reanchor(&to_mcp.every(), true, to.tables().matcher_style.anchored());
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
    let fires_for_mcp = (from_mcp.named_in(text) && Some(text) != from_mcp.builtin)
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
            format!("{}{}$", matchers.separator, regex_escape(&literal(server))),
            false,
        ),
        Some(McpName::Tool(server, tool)) => {
            let native = matchers.name(&literal(server), &literal(tool));
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
/// names being word characters, `-` and escaped punctuation (`my-srv\.x`: a server named with
/// a `.`, attacks row 2063), each name as the regex writes it ([`literal`] reads it).
pub(super) enum McpName<'a> {
    Every,
    Server(&'a str),
    Tool(&'a str, &'a str),
}

/// A character of a name [`McpName`] reads.
fn in_name(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// Whether the regex `text` is one literal name: characters [`in_name`] and ASCII punctuation
/// escaped (`\.`, which an unescaped `.` is not: it matches any character).
fn is_name_regex(text: &str) -> bool {
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        let literal = match c {
            '\\' => chars.next().is_some_and(|e| e.is_ascii_punctuation()),
            c => in_name(c),
        };
        if !literal {
            return false;
        }
    }
    true
}

/// The name a regex [`McpName`] read stands for: its escapes undone (`my-srv\.x` is
/// `my-srv.x`).
pub(super) fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            c => out.push(c),
        }
    }
    out
}

impl<'a> McpName<'a> {
    /// Whether `separator` is no character of a name: it alone ends a server's name.
    pub(super) fn separates(separator: &str) -> bool {
        !separator.is_empty() && !separator.chars().any(in_name)
    }

    pub(super) fn parse(text: &'a str, names: crate::tables::McpNames) -> Option<McpName<'a>> {
        let rest = text.strip_prefix(names.prefix)?;
        if rest == ".*" {
            return Some(McpName::Every);
        }
        let name = |s: &str| !s.is_empty() && is_name_regex(s);
        match rest.split_once(names.separator) {
            None if name(rest) => Some(McpName::Server(rest)),
            Some((server, ".*")) if name(server) => Some(McpName::Server(server)),
            Some((server, tool)) if name(server) && name(tool) => Some(McpName::Tool(server, tool)),
            _ => None,
        }
    }
}
