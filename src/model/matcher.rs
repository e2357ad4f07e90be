//! Matcher semantics: what a rule's `matcher` text means in the flavour it was written in.
//!
//! Claude and Bricks read a matcher as "all" when empty or `*`, as an exact list when it holds
//! only name characters, and otherwise as an ECMAScript regex tested unanchored. Copilot tests
//! an ECMAScript regex anchored as `^(?:PATTERN)$` (its PascalCase events read `*` as all). Agent matchers are ECMAScript regexes, so they are compiled with `regress`.

use serde::Serialize;

/// Longest regex handed to the engine: [`CompiledMatcher::compile`] refuses longer ones, and
/// [`super::bounded`] before they reach its worker. Real matchers are a few dozen bytes. The
/// engine's compile time grows faster than linearly with alternatives (a 16 KiB alternation
/// took over a second in a debug build); plain name lists of any length need no engine
/// ([`Literals`]).
pub const MAX_REGEX_BYTES: usize = 4 * 1024;

/// How a flavour reads matcher text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum MatcherStyle {
    /// Empty / `*` = all; name characters and separators = exact list; else unanchored regex.
    ListOrRegex {
        /// Characters besides word characters allowed in an exact list (`|` always is).
        list_extra: &'static str,
        /// Separators an exact list is split on.
        separators: &'static str,
    },
    /// Absent = all; anything else an ECMAScript regex anchored at both ends (so an empty
    /// matcher matches nothing), except `*` where `star_is_all`. `trims`: a matcher that is not
    /// empty is trimmed first, and white space alone is all (Copilot CLI 1.0.102's PascalCase
    /// events, run: `" Bash"`, `"Bash "` fire on Bash, `" "` and `"\t"` on every tool, `""`
    /// drops its entry; its camelCase events trim nothing: attacks row 1728).
    AnchoredRegex { star_is_all: bool, trims: bool },
    /// Empty / absent = all, `*` too where `star_is_all`; anything else an ECMAScript regex
    /// tested unanchored, with no exact-list reading (Gemini CLI: `shell` matches
    /// `run_shell_command`). Where `*` is not all it is an invalid regex (Auggie). `trims`:
    /// the text is trimmed first (Gemini CLI, so `" "` is all; Droid does not, and `" "`
    /// fires for nothing there: attacks row 1455).
    UnanchoredRegex { star_is_all: bool, trims: bool },
    /// Qwen Code (0.24.4 `matchesHookPattern`, run: attacks row 1450): trimmed; empty, `*` and
    /// `.*` = all; the tool's name or an alias exactly, or a `|` list (not starting with `^` or
    /// `(`) whose trimmed entries are tried so; else (the list's entries joined) an ECMAScript
    /// regex tested unanchored on the agent's own name only (`shell` fires on
    /// `run_shell_command`, `^Bash$` on nothing).
    NamesOrRegex,
}

/// The meaning of a matcher, independent of its flavour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum MatcherForm {
    /// Matches every value.
    All,
    /// Matches exactly these values.
    Exact(Vec<String>),
    /// An ECMAScript regex; `anchored` means it must match the whole value.
    Regex { pattern: String, anchored: bool },
}

impl MatcherStyle {
    /// Reads matcher text (`None` = the key was absent) in this style.
    pub fn form(self, text: Option<&str>) -> MatcherForm {
        match self.reading(text) {
            Reading::All => MatcherForm::All,
            Reading::List(text) => {
                let MatcherStyle::ListOrRegex { separators, .. } = self else {
                    unreachable!("only a list style reads lists")
                };
                let names = text
                    .split(|c: char| c == '|' || separators.contains(c))
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect();
                MatcherForm::Exact(names)
            }
            Reading::Regex(pattern, anchored) => match self.list_entries(pattern) {
                // A list's entries are trimmed before they are joined (Qwen: `Edit | Write`).
                Some(entries) if entries.iter().any(|e| *e == "*" || *e == ".*") => {
                    MatcherForm::All
                }
                Some(entries) if entries.is_empty() => MatcherForm::Exact(Vec::new()),
                Some(entries) => MatcherForm::Regex {
                    pattern: entries.join("|"),
                    anchored,
                },
                None => MatcherForm::Regex {
                    pattern: pattern.to_string(),
                    anchored,
                },
            },
        }
    }

    /// The names a tool matcher of this style is also tried against exactly, on any of the
    /// tool's names (its regex then on the agent's own name only); `None`: the style tries
    /// its regex on every name instead.
    pub fn exact_names(self, text: Option<&str>) -> Option<Vec<&str>> {
        match self.reading(text) {
            Reading::Regex(pattern, _) if self == MatcherStyle::NamesOrRegex => {
                Some(self.list_entries(pattern).unwrap_or_else(|| vec![pattern]))
            }
            _ => None,
        }
    }

    /// A `|` list's trimmed, non-empty entries, where this style reads lists so (Qwen's
    /// `splitListEntries`: a `|` inside a group, a class or after `\` splits nothing).
    fn list_entries(self, pattern: &str) -> Option<Vec<&str>> {
        if self != MatcherStyle::NamesOrRegex
            || !pattern.contains('|')
            || pattern.starts_with('^')
            || pattern.starts_with('(')
        {
            return None;
        }
        let (mut entries, mut start) = (Vec::new(), 0);
        let (mut escaped, mut class, mut depth) = (false, false, 0usize);
        for (at, c) in pattern.char_indices() {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if class {
                class = c != ']';
            } else if c == '[' {
                class = true;
            } else if c == '(' {
                depth += 1;
            } else if c == ')' {
                depth = depth.saturating_sub(1);
            } else if c == '|' && depth == 0 {
                entries.push(&pattern[start..at]);
                start = at + 1;
            }
        }
        entries.push(&pattern[start..]);
        Some(
            entries
                .into_iter()
                .map(trim_unescaped)
                .filter(|e| !e.is_empty())
                .collect(),
        )
    }

    /// What [`MatcherStyle::form`] reads `text` as, borrowing it: callers that only need to
    /// know which form it is (or the regex) copy nothing.
    pub fn reading<'t>(self, text: Option<&'t str>) -> Reading<'t> {
        let Some(text) = text else {
            return Reading::All;
        };
        match self {
            MatcherStyle::ListOrRegex { list_extra, .. } => {
                if text.is_empty() || text == "*" {
                    return Reading::All;
                }
                let is_list_char = |c: char| {
                    c.is_ascii_alphanumeric() || c == '_' || c == '|' || list_extra.contains(c)
                };
                if text.chars().all(is_list_char) {
                    Reading::List(text)
                } else {
                    Reading::Regex(text, false)
                }
            }
            MatcherStyle::UnanchoredRegex { star_is_all, trims } => {
                let text = if trims { text.trim() } else { text };
                if text.is_empty() || (star_is_all && text == "*") {
                    return Reading::All;
                }
                Reading::Regex(text, false)
            }
            MatcherStyle::AnchoredRegex { star_is_all, trims } => {
                let text = match trims && !text.is_empty() {
                    true if text.trim().is_empty() => return Reading::All,
                    true => text.trim(),
                    false => text,
                };
                if star_is_all && text == "*" {
                    return Reading::All;
                }
                Reading::Regex(text, true)
            }
            MatcherStyle::NamesOrRegex => {
                let text = trim_unescaped(text);
                if text.is_empty() || text == "*" || text == ".*" {
                    return Reading::All;
                }
                Reading::Regex(text, false)
            }
        }
    }

    /// Whether regexes of this style must match the whole value.
    pub fn anchored(self) -> bool {
        matches!(self, MatcherStyle::AnchoredRegex { .. })
    }
}

/// `text` without its leading white space and its trailing white space that no `\` escapes
/// (Qwen Code's `trimMatcherEdges`).
fn trim_unescaped(text: &str) -> &str {
    let text = text.trim_start();
    let mut end = text.len();
    while let Some(c) = text[..end]
        .chars()
        .next_back()
        .filter(|c| c.is_whitespace())
    {
        let before = &text[..end - c.len_utf8()];
        let slashes = before.len() - before.trim_end_matches('\\').len();
        if slashes % 2 == 1 {
            break;
        }
        end -= c.len_utf8();
    }
    &text[..end]
}

/// Which [`MatcherForm`] a text is, borrowing it ([`MatcherStyle::reading`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading<'t> {
    All,
    /// An exact list, still to be split on the style's separators.
    List(&'t str),
    /// A regex, and whether it is anchored.
    Regex(&'t str, bool),
}

/// A compiled matcher, ready to test values at run time.
pub enum CompiledMatcher {
    All,
    Exact(Vec<String>),
    Regex(regress::Regex, bool),
    /// A regex of literal alternatives (see [`Literals`]), tested without a regex engine.
    Literals(Literals),
}

/// The regexes matchers are mostly written as, recognised so that firing an event over a large
/// hook set compiles no regex for them: alternatives of a literal name, optionally preceded
/// and/or followed by `.*` (`mcp__github__.*`, `Notebook.*|Bash`, `.*_file`), and, unanchored,
/// optionally `^` and `$` instead (`^mcp__`, `Edit$`). Every such text is a valid regex, so
/// nothing that would fail to compile takes this path, and the answer is the one the regex
/// gives: [`CompiledMatcher::is_match`] is checked against `regress` in the tests.
pub struct Literals {
    branches: Vec<Branch>,
    anchored: bool,
}

struct Branch {
    literal: String,
    /// `^` (unanchored patterns only): the literal starts the value.
    start: bool,
    /// `$` (unanchored patterns only): the literal ends the value.
    end: bool,
    /// `.*` before / after the literal.
    any_before: bool,
    any_after: bool,
}

impl Literals {
    /// The pattern as literal alternatives, if it is one of the recognised shapes.
    pub fn parse(pattern: &str, anchored: bool) -> Option<Literals> {
        let branches = pattern
            .split('|')
            .map(|text| Branch::parse(text, anchored))
            .collect::<Option<Vec<_>>>()?;
        Some(Literals { branches, anchored })
    }

    /// Whether [`Literals::parse`] reads the pattern, without making its branches.
    pub fn is_shape(pattern: &str, anchored: bool) -> bool {
        pattern
            .split('|')
            .all(|text| Branch::shape(text, anchored).is_some())
    }

    /// Whether the pattern matches `value`, as the regex would.
    pub fn is_match(&self, value: &str) -> bool {
        self.branches
            .iter()
            .any(|b| b.is_match(value, self.anchored))
    }
}

/// `stripped` is `text` without an affix, if it had one: whether it had, and what is left.
/// An affix where it is not `allowed` means the pattern is not of a literal shape (`None`).
fn strip<'t>(text: &'t str, stripped: Option<&'t str>, allowed: bool) -> Option<(bool, &'t str)> {
    match stripped {
        Some(rest) if allowed => Some((true, rest)),
        Some(_) => None,
        None => Some((false, text)),
    }
}

impl Branch {
    fn parse(text: &str, anchored: bool) -> Option<Branch> {
        let (literal, start, end, any_before, any_after) = Branch::shape(text, anchored)?;
        Some(Branch {
            literal: literal.to_string(),
            start,
            end,
            any_before,
            any_after,
        })
    }

    /// An alternative's literal and its `^`, `$`, `.*` before and `.*` after, if it is of a
    /// recognised shape.
    fn shape(text: &str, anchored: bool) -> Option<(&str, bool, bool, bool, bool)> {
        let (start, text) = strip(text, text.strip_prefix('^'), !anchored)?;
        let (end, text) = strip(text, text.strip_suffix('$'), !anchored)?;
        let (any_before, text) = strip(text, text.strip_prefix(".*"), !start)?;
        let (any_after, text) = strip(text, text.strip_suffix(".*"), !end)?;
        let plain = text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
        // An empty literal only as `.*`: `^`, `$`, `^$` and empty alternatives are left to
        // the regex engine.
        let shaped = !text.is_empty() || (any_before && !start && !end);
        (plain && shaped).then_some((text, start, end, any_before, any_after))
    }

    fn is_match(&self, value: &str, anchored: bool) -> bool {
        let lit = self.literal.as_str();
        if !anchored {
            // Searched anywhere: a `.*` beside the literal may match nothing, so only the
            // anchors constrain where the literal sits.
            return match (self.start, self.end) {
                (true, true) => value == lit,
                (true, false) => value.starts_with(lit),
                (false, true) => value.ends_with(lit),
                // Longer than the value, it is not in it: most tool names are shorter than
                // an MCP prefix, and `contains` prepares its search before it looks.
                (false, false) => value.len() >= lit.len() && value.contains(lit),
            };
        }
        // The whole value must match: `.*` covers the rest, which must then hold no line
        // terminator (`.` matches none).
        match (self.any_before, self.any_after) {
            (false, false) => value == lit,
            (false, true) => value
                .strip_prefix(lit)
                .is_some_and(|rest| !has_line_terminator(rest)),
            (true, false) => value
                .strip_suffix(lit)
                .is_some_and(|rest| !has_line_terminator(rest)),
            (true, true) => {
                value.len() >= lit.len() && value.contains(lit) && !has_line_terminator(value)
            }
        }
    }
}

/// What ECMAScript's `.` does not match.
fn has_line_terminator(s: &str) -> bool {
    s.contains(['\n', '\r', '\u{2028}', '\u{2029}'])
}

impl CompiledMatcher {
    /// Compiles a form. An invalid regex is an error the caller reports (Copilot skips such a
    /// hook). This runs the regex engine on the calling thread with no time bound: matchers
    /// from files go through [`super::bounded`], which calls this within its bounds. A regex
    /// longer than [`MAX_REGEX_BYTES`] is refused here too.
    pub fn compile(form: &MatcherForm) -> Result<CompiledMatcher, String> {
        Ok(match form {
            MatcherForm::All => CompiledMatcher::All,
            MatcherForm::Exact(names) => CompiledMatcher::Exact(names.clone()),
            MatcherForm::Regex { pattern, anchored } => {
                if let Some(literals) = Literals::parse(pattern, *anchored) {
                    return Ok(CompiledMatcher::Literals(literals));
                }
                if pattern.len() > MAX_REGEX_BYTES {
                    return Err(format!(
                        "the regex is {} bytes; hookx evaluates regexes of up to {} bytes",
                        pattern.len(),
                        MAX_REGEX_BYTES
                    ));
                }
                let source = if *anchored {
                    format!("^(?:{pattern})$")
                } else {
                    pattern.clone()
                };
                let re = regress::Regex::new(&source).map_err(|e| e.to_string())?;
                CompiledMatcher::Regex(re, *anchored)
            }
        })
    }

    /// Whether the matcher accepts `value`.
    pub fn is_match(&self, value: &str) -> bool {
        match self {
            CompiledMatcher::All => true,
            CompiledMatcher::Exact(names) => names.iter().any(|n| n == value),
            CompiledMatcher::Regex(re, _) => re.find(value).is_some(),
            CompiledMatcher::Literals(literals) => literals.is_match(value),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLAUDE: MatcherStyle = MatcherStyle::ListOrRegex {
        list_extra: "-, ",
        separators: ",",
    };

    fn matches(style: MatcherStyle, text: &str, value: &str) -> bool {
        CompiledMatcher::compile(&style.form(Some(text)))
            .unwrap()
            .is_match(value)
    }

    #[test]
    fn claude_regex_is_unanchored() {
        assert!(matches(CLAUDE, "Edit.*", "NotebookEdit"));
        assert!(!matches(CLAUDE, "Edit|Write", "NotebookEdit"));
    }

    #[test]
    fn copilot_regex_is_anchored() {
        assert!(!matches(
            MatcherStyle::AnchoredRegex {
                star_is_all: false,
                trims: false,
            },
            "edit",
            "multi_edit"
        ));
        assert!(matches(
            MatcherStyle::AnchoredRegex {
                star_is_all: false,
                trims: false,
            },
            "edit|create",
            "create"
        ));
    }

    /// Attacks row 1728: Copilot's PascalCase matchers are trimmed, white space alone is all;
    /// an empty one matches nothing (Copilot drops its entry). Its camelCase ones are not.
    #[test]
    fn copilot_pascal_matchers_are_trimmed() {
        let pascal = MatcherStyle::AnchoredRegex {
            star_is_all: true,
            trims: true,
        };
        for text in [" Bash", "Bash ", "\tBash", " bash"] {
            assert!(matches(pascal, text, "Bash") || matches(pascal, text, "bash"));
        }
        for text in [" ", "\t", "  ", " .*"] {
            assert!(matches(pascal, text, "Write"), "{text:?}");
        }
        assert!(!matches(pascal, "", "Write"));
        assert!(!matches(pascal, "Edit | Write", "Write"));
        let camel = MatcherStyle::AnchoredRegex {
            star_is_all: false,
            trims: false,
        };
        for text in [" bash", " ", "bash "] {
            assert!(!matches(camel, text, "bash"), "{text:?}");
        }
    }

    #[test]
    fn empty_and_star_match_all() {
        assert_eq!(CLAUDE.form(Some("")), MatcherForm::All);
        assert_eq!(CLAUDE.form(Some("*")), MatcherForm::All);
        assert_eq!(CLAUDE.form(None), MatcherForm::All);
    }

    #[test]
    fn literal_shapes_answer_as_the_regex_does() {
        let patterns = [
            "mcp__github__.*",
            ".*",
            ".*_file",
            ".*edit.*",
            "Notebook.*|Bash",
            "bash",
            "edit|create",
            "^mcp__",
            "Edit$",
            "^Edit$",
            "^Edit.*",
            ".*Edit$",
            "a-b|c_d",
            // Not literal shapes: left to the regex engine, still answered the same.
            "^",
            "$",
            "^$",
            "|",
            "Edit|",
            "^.*x",
            "x.*$",
            "Ed.t",
            "(?:Edit)",
            "Edit.+",
        ];
        let values = [
            "",
            "Edit",
            "NotebookEdit",
            "Edit2",
            "Edited",
            "bash",
            "Bash",
            "xbash",
            "edit",
            "create",
            "multi_edit",
            "read_file",
            "read_file\n",
            "mcp__github__create_issue",
            "mcp__github__",
            "mcp__github__x\ny",
            "xmcp__github__y",
            "mcp__",
            "a-b",
            "c_d",
            "x\u{2028}Edit",
            "Edit\r",
            "ünïcode_edit",
            "x",
        ];
        for anchored in [false, true] {
            for pattern in patterns {
                let form = MatcherForm::Regex {
                    pattern: pattern.into(),
                    anchored,
                };
                let fast = CompiledMatcher::compile(&form).unwrap();
                let source = if anchored {
                    format!("^(?:{pattern})$")
                } else {
                    pattern.to_string()
                };
                let re = regress::Regex::new(&source).unwrap();
                for value in values {
                    assert_eq!(
                        fast.is_match(value),
                        re.find(value).is_some(),
                        "pattern {pattern:?} anchored {anchored} value {value:?}"
                    );
                }
            }
        }
        assert!(matches!(
            CompiledMatcher::compile(&MatcherForm::Regex {
                pattern: "mcp__github__.*".into(),
                anchored: false
            }),
            Ok(CompiledMatcher::Literals(_))
        ));
    }

    #[test]
    fn list_splits_on_pipe_and_comma() {
        assert_eq!(
            CLAUDE.form(Some("Edit, Write|Bash")),
            MatcherForm::Exact(vec!["Edit".into(), "Write".into(), "Bash".into()])
        );
    }
}
