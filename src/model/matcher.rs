//! Matcher semantics: what a rule's `matcher` text means in the flavour it was written in.
//!
//! Claude and Bricks (and Copilot's PascalCase events) read a matcher as "all" when empty or
//! `*`, as an exact list when it holds only name characters, and otherwise as an ECMAScript regex
//! tested unanchored. Copilot's camelCase events test an ECMAScript regex anchored as
//! `^(?:PATTERN)$`. Agent matchers are ECMAScript regexes, so they are compiled with `regress`.

use serde::Serialize;

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
    /// Absent = all; anything else an ECMAScript regex anchored at both ends.
    AnchoredRegex,
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
        let Some(text) = text else {
            return MatcherForm::All;
        };
        match self {
            MatcherStyle::ListOrRegex {
                list_extra,
                separators,
            } => {
                if text.is_empty() || text == "*" {
                    return MatcherForm::All;
                }
                let is_list_char = |c: char| {
                    c.is_ascii_alphanumeric() || c == '_' || c == '|' || list_extra.contains(c)
                };
                if text.chars().all(is_list_char) {
                    let names = text
                        .split(|c: char| c == '|' || separators.contains(c))
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect();
                    MatcherForm::Exact(names)
                } else {
                    MatcherForm::Regex {
                        pattern: text.to_string(),
                        anchored: false,
                    }
                }
            }
            MatcherStyle::AnchoredRegex => MatcherForm::Regex {
                pattern: text.to_string(),
                anchored: true,
            },
        }
    }
}

/// A compiled matcher, ready to test values at run time.
pub enum CompiledMatcher {
    All,
    Exact(Vec<String>),
    Regex(regress::Regex, bool),
}

impl CompiledMatcher {
    /// Compiles a form. An invalid regex is an error the caller reports (Copilot skips such a hook).
    pub fn compile(form: &MatcherForm) -> Result<CompiledMatcher, String> {
        Ok(match form {
            MatcherForm::All => CompiledMatcher::All,
            MatcherForm::Exact(names) => CompiledMatcher::Exact(names.clone()),
            MatcherForm::Regex { pattern, anchored } => {
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
        assert!(!matches(MatcherStyle::AnchoredRegex, "edit", "multi_edit"));
        assert!(matches(
            MatcherStyle::AnchoredRegex,
            "edit|create",
            "create"
        ));
    }

    #[test]
    fn empty_and_star_match_all() {
        assert_eq!(CLAUDE.form(Some("")), MatcherForm::All);
        assert_eq!(CLAUDE.form(Some("*")), MatcherForm::All);
        assert_eq!(CLAUDE.form(None), MatcherForm::All);
    }

    #[test]
    fn list_splits_on_pipe_and_comma() {
        assert_eq!(
            CLAUDE.form(Some("Edit, Write|Bash")),
            MatcherForm::Exact(vec!["Edit".into(), "Write".into(), "Bash".into()])
        );
    }
}
