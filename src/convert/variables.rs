//! Agent variables in a command line that runs unwrapped under the target: the source's
//! project-directory variable renamed to the target's (where the shell would expand it), and
//! the others the target does not set reported.

use super::converter::Converter;
use crate::config::walk::HandlerAt;
use crate::source::SourceFile;
use crate::tables::Flavor;
use std::borrow::Cow;

impl Converter<'_> {
    /// Rewrites the source's project-directory variable to the target's, and reports other
    /// agent variables the target does not set.
    pub(super) fn rewrite_env<'l>(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        line: &'l str,
        from: Flavor,
        to: Flavor,
    ) -> Cow<'l, str> {
        // Every variable renamed or reported is `$NAME` or `${NAME…}`: a line without a `$`
        // names none.
        if !line.contains('$') {
            return Cow::Borrowed(line);
        }
        let (from_spec, to_spec) = (from.dialect().config(), to.dialect().config());
        let mut line = line.to_string();
        if let Some(from_var) = from_spec.project_dir_variable {
            line = replace_variable(
                &line,
                from_var,
                to_spec.project_dir_variable.unwrap_or("PWD"),
            );
        }
        for var in from_spec.provided_env {
            // The target's own project variable (Copilot and Gemini also set Claude's) is set.
            if !to_spec.provided_env.contains(var)
                && Some(*var) != to_spec.project_dir_variable
                && references_variable(&line, var)
            {
                self.lose(
                    src,
                    at,
                    &format!("`${var}` in the command"),
                    &format!(
                        "{} sets or substitutes `{var}` for its hooks; {} does neither, so the command will see it empty",
                        from.dialect(),
                        to.dialect()
                    ),
                );
            }
        }
        Cow::Owned(line)
    }
}

/// `quoted`, a wrapped line's argument to `hookx exec`, as the target's agent must get it where
/// that agent writes its variables' values into a command's text before the shell reads it
/// ([`crate::tables::ProtocolTables::command_text_env`]): Gemini CLI 0.61.0 writes
/// `$CLAUDE_PROJECT_DIR` inside single quotes too, so a wrapped Claude guard
/// `'"$CLAUDE_PROJECT_DIR"/guard.sh'` reached `hookx exec` as two words in a folder with a
/// space in its path, was not found, and its deny was lost (attacks row 1041). Each such name
/// is split from its `$` by empty quotes (`$''NAME`; `$""NAME` in double quotes), which the
/// agent does not see and the shell takes away: `hookx exec` gets the line as written.
pub(super) fn kept_from_command_text(quoted: &str, to: Flavor) -> Cow<'_, str> {
    use crate::shell::{Quoting, replace_names};
    let names = to.tables().protocol.command_text_env;
    replace_names(quoted, names, |name, tail, quoting| {
        Some(match quoting {
            Quoting::EscapedInDouble => format!("$\"\"{name}{tail}"),
            _ => format!("$''{name}{tail}"),
        })
    })
}

/// The other agents' project-directory variables `line` names that `flavor`'s agent sets for
/// none of its hooks (a Codex hook's `$CLAUDE_PROJECT_DIR`: the command sees it empty; attacks
/// row 1185), where its facts come from runs (an agent known from documents only may set more).
pub fn unset_project_variables(line: &str, flavor: Flavor) -> Vec<&'static str> {
    let spec = flavor.dialect().config();
    if flavor.tables().verified_with.is_none() || !line.contains('$') {
        return Vec::new();
    }
    let mut out: Vec<&'static str> = Vec::new();
    for other in crate::tables::Dialect::all() {
        let Some(var) = other.config().project_dir_variable else {
            continue;
        };
        if spec.project_dir_variable != Some(var)
            && !spec.provided_env.contains(&var)
            && !out.contains(&var)
            && references_variable(line, var)
        {
            out.push(var);
        }
    }
    out
}

fn references_variable(line: &str, var: &str) -> bool {
    // Most lines never name the variable: no copy of them is made then.
    line.contains(var) && replace_variable(line, var, "\u{0}") != line
}

/// Replaces `$VAR` and `${VAR…}` (not `$VARIABLE`) by the other name, where the shell would
/// expand it: not inside single quotes, not escaped with a backslash.
fn replace_variable(line: &str, from: &str, to: &str) -> String {
    if !line.contains(from) {
        return line.to_string();
    }
    let mut out = String::with_capacity(line.len());
    let (mut single, mut double) = (false, false);
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        out.push(c);
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '\\' if !single => {
                if let Some((_, escaped)) = chars.next() {
                    out.push(escaped);
                }
            }
            '$' if !single => {
                let after = &line[i + 1..];
                let (braced, name_start) = match after.strip_prefix('{') {
                    Some(name) => (true, name),
                    None => (false, after),
                };
                if let Some(tail) = name_start.strip_prefix(from)
                    && !tail.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                {
                    if braced {
                        out.push('{');
                    }
                    out.push_str(to);
                    let resume = line.len() - tail.len();
                    while chars.next_if(|(j, _)| *j < resume).is_some() {}
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::shell::shell_quote;
    #[test]
    fn project_dir_variable_forms_are_renamed() {
        assert_eq!(
            replace_variable(
                r#""$CLAUDE_PROJECT_DIR"/a ${CLAUDE_PROJECT_DIR:-.}/b $CLAUDE_PROJECT_DIRX"#,
                "CLAUDE_PROJECT_DIR",
                "BRICKS_PROJECT_DIR"
            ),
            r#""$BRICKS_PROJECT_DIR"/a ${BRICKS_PROJECT_DIR:-.}/b $CLAUDE_PROJECT_DIRX"#
        );
    }

    /// The shell does not expand a variable in single quotes or after a backslash: neither
    /// does the rename.
    #[test]
    fn quoted_and_escaped_variables_are_left_alone() {
        assert_eq!(
            replace_variable(
                r#"echo '$CLAUDE_PROJECT_DIR' "it's $CLAUDE_PROJECT_DIR" \$CLAUDE_PROJECT_DIR $CLAUDE_PROJECT_DIR"#,
                "CLAUDE_PROJECT_DIR",
                "PWD"
            ),
            r#"echo '$CLAUDE_PROJECT_DIR' "it's $PWD" \$CLAUDE_PROJECT_DIR $PWD"#
        );
    }

    #[test]
    fn shell_quoting_is_one_word() {
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote("plain"), "plain");
    }
}
