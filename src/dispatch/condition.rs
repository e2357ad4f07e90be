//! Claude's `if` filter on a command handler: a permission rule (`Bash(git *)`,
//! `Edit(src/**/*.ts)`, `WebFetch(domain:example.com)`, `Read`) that the tool call must match
//! for the handler to run. `hookx exec --if` applies it where the host has no such filter.
//!
//! The rule names the tool as the handler's flavour does; its pattern is tested against the
//! call's main argument: the command line of a shell call (`*` matches anything, a trailing
//! `:*` is a prefix), the path of a file tool (gitignore-like: `*` within one path segment,
//! `**` across them; a pattern without `/` also matches the file name), the host of a fetch
//! (`domain:HOST`). A tool with none of these is tested on each string argument.

use crate::model::Event;
use crate::model::tool::ids;
use crate::tables::Flavor;
use serde_json::Value;

/// A parsed `if` rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    tool: String,
    pattern: Option<String>,
}

impl Condition {
    /// Parses `Tool` or `Tool(pattern)`.
    pub fn parse(text: &str) -> Result<Condition, String> {
        let text = text.trim();
        let (tool, pattern) = match text.split_once('(') {
            Some((tool, rest)) => {
                let pattern = rest.strip_suffix(')').ok_or_else(|| {
                    format!("`if` rule `{text}` has an opening `(` but does not end with `)`")
                })?;
                (tool.trim(), Some(pattern.to_string()))
            }
            None => (text, None),
        };
        if tool.is_empty() {
            return Err(format!("`if` rule `{text}` names no tool"));
        }
        Ok(Condition {
            tool: tool.to_string(),
            pattern: pattern.filter(|p| !p.is_empty() && p != "*"),
        })
    }

    /// Whether the event's tool call matches, the tool named as `flavor` names it.
    pub fn matches(&self, event: &Event, flavor: Flavor) -> bool {
        let Some(call) = &event.tool else {
            // Not a tool event: the filter is about tool calls and does not apply.
            return true;
        };
        if flavor.tables().canonical_tool(&self.tool) != call.name {
            return false;
        }
        let Some(pattern) = &self.pattern else {
            return true;
        };
        let string = |key: &str| call.input.get(key).and_then(Value::as_str);
        match call.name.as_str() {
            ids::SHELL | ids::POWERSHELL => {
                string("command").is_some_and(|c| command_matches(pattern, c))
            }
            ids::WRITE | ids::EDIT | ids::MULTI_EDIT | ids::READ | ids::NOTEBOOK_EDIT => {
                let path = string("file_path").or_else(|| string("notebook_path"));
                path.is_some_and(|p| path_matches(pattern, p))
            }
            ids::WEB_FETCH => match (pattern.strip_prefix("domain:"), string("url")) {
                (Some(domain), Some(url)) => host_of(url) == Some(domain),
                (None, Some(url)) => glob(pattern, true).is_match(url),
                _ => false,
            },
            _ => {
                let re = glob(pattern, true);
                match &call.input {
                    Value::String(s) => re.is_match(s),
                    Value::Object(map) => map
                        .values()
                        .filter_map(Value::as_str)
                        .any(|s| re.is_match(s)),
                    _ => false,
                }
            }
        }
    }
}

fn command_matches(pattern: &str, command: &str) -> bool {
    // Legacy `npm run test:*`: a prefix.
    if let Some(prefix) = pattern.strip_suffix(":*") {
        return command.starts_with(prefix);
    }
    glob(pattern, true).is_match(command.trim())
}

fn path_matches(pattern: &str, path: &str) -> bool {
    let pattern = pattern.strip_prefix("./").unwrap_or(pattern);
    let path = path.strip_prefix("./").unwrap_or(path);
    if !pattern.contains('/') {
        let name = path.rsplit('/').next().unwrap_or(path);
        return glob(pattern, false).is_match(name);
    }
    // `/x` and `//x` anchor at a root; a relative pattern may match any tail of an absolute path.
    let anchored = pattern.trim_start_matches('/');
    let re = glob(anchored, false);
    let trimmed = path.trim_start_matches('/');
    re.is_match(trimmed)
        || (!pattern.starts_with('/')
            && trimmed
                .match_indices('/')
                .any(|(i, _)| re.is_match(&trimmed[i + 1..])))
}

fn host_of(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    Some(host.split(':').next().unwrap_or(host))
}

/// A whole-string regex for a glob: `**` any text, `*` any text (within one path segment
/// unless `star_crosses_slash`), `?` one character; everything else literal.
fn glob(pattern: &str, star_crosses_slash: bool) -> regex::Regex {
    let mut re = String::from("^(?s:");
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '*' if chars.peek() == Some(&'*') => {
                chars.next();
                // `**/` also matches no directory at all.
                if chars.peek() == Some(&'/') {
                    chars.next();
                    re.push_str("(?:.*/)?");
                } else {
                    re.push_str(".*");
                }
            }
            '*' if star_crosses_slash => re.push_str(".*"),
            '*' => re.push_str("[^/]*"),
            '?' => re.push_str(if star_crosses_slash { "." } else { "[^/]" }),
            c => re.push_str(&regex::escape(&c.to_string())),
        }
    }
    re.push_str(")$");
    regex::Regex::new(&re).expect("a glob's regex is valid")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::claude;
    use crate::model::EventKind;
    use serde_json::json;

    fn call(tool: &str, input: Value) -> Event {
        Event::tool_call(EventKind::PreToolUse, tool, input)
    }

    fn fires(rule: &str, event: &Event) -> bool {
        Condition::parse(rule)
            .unwrap()
            .matches(event, claude::FLAVOR)
    }

    #[test]
    fn shell_rules_match_the_command_line() {
        let git = call(ids::SHELL, json!({"command": "git push origin main"}));
        let rm = call(ids::SHELL, json!({"command": "rm -rf /"}));
        assert!(fires("Bash(git *)", &git));
        assert!(!fires("Bash(git *)", &rm));
        assert!(fires("Bash", &rm));
        assert!(fires("Bash(git:*)", &git));
        assert!(fires("Bash(rm -rf *)", &rm));
        assert!(!fires("Edit", &rm));
    }

    #[test]
    fn file_rules_match_the_path() {
        let ts = call(ids::EDIT, json!({"file_path": "/repo/src/a/b.ts"}));
        assert!(fires("Edit(*.ts)", &ts));
        assert!(fires("Edit(src/**/*.ts)", &ts));
        assert!(!fires("Edit(*.rs)", &ts));
        assert!(!fires("Write(*.ts)", &ts));
        let fetch = call(ids::WEB_FETCH, json!({"url": "https://example.com:8080/x"}));
        assert!(fires("WebFetch(domain:example.com)", &fetch));
        assert!(!fires("WebFetch(domain:example.org)", &fetch));
    }

    #[test]
    fn events_without_a_tool_call_are_not_filtered() {
        let stop = Event::bare(EventKind::Stop);
        assert!(fires("Bash(git *)", &stop));
    }

    #[test]
    fn bad_rules_are_errors() {
        assert!(Condition::parse("Bash(git *").is_err());
        assert!(Condition::parse("(x)").is_err());
    }
}
