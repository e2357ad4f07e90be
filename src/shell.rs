//! Quoting for a POSIX shell: how hookx writes a command line that `sh -c` reads back as
//! the words it meant.

/// The longest command line a host can pass to `sh -c`: Linux's limit on one argument
/// (`MAX_ARG_STRLEN`, 128 KiB with its NUL), less room for the shell's own words.
pub const MAX_SHELL_ARGUMENT: usize = 128 * 1024 - 1024;

/// One shell word for `text`, in single or double quotes, whichever is shorter: a quote-heavy
/// handler grows up to 4× in single quotes (`'\''` per quote) but at most 2× in double quotes,
/// and it must stay under the host's argument limit once wrapped.
pub fn shell_quote_shortest(text: &str) -> String {
    let mut out = String::new();
    push_shell_quote_shortest(&mut out, text);
    out
}

/// [`shell_quote_shortest`], appended to `out`.
pub fn push_shell_quote_shortest(out: &mut String, text: &str) {
    let double_specials = |b: &u8| matches!(b, b'"' | b'$' | b'`' | b'\\');
    let specials = text.bytes().filter(double_specials).count();
    let single_len = if is_plain_word(text) {
        text.len()
    } else {
        text.len() + 2 + 3 * text.bytes().filter(|b| *b == b'\'').count()
    };
    if text.len() + specials + 2 >= single_len {
        return push_shell_quote(out, text);
    }
    out.reserve(text.len() + specials + 2);
    out.push('"');
    let mut done = 0;
    for (at, _) in text.bytes().enumerate().filter(|(_, b)| double_specials(b)) {
        out.push_str(&text[done..at]);
        out.push('\\');
        done = at;
    }
    out.push_str(&text[done..]);
    out.push('"');
}

/// Quotes a string for a POSIX shell, as one word.
pub fn shell_quote(text: &str) -> String {
    let mut out = String::new();
    push_shell_quote(&mut out, text);
    out
}

/// [`shell_quote`], appended to `out`.
pub fn push_shell_quote(out: &mut String, text: &str) {
    if is_plain_word(text) {
        out.push_str(text);
        return;
    }
    out.reserve(text.len() + 2);
    out.push('\'');
    for (i, part) in text.split('\'').enumerate() {
        if i > 0 {
            out.push_str(r"'\''");
        }
        out.push_str(part);
    }
    out.push('\'');
}

/// The words of `text` read as a POSIX shell reads the words of one simple command: quotes
/// (`'…'`, and `"…"` where a backslash escapes `"`, `$`, `` ` ``, `\\` and a newline) and
/// backslashes taken away. `None` where the shell would do anything but split words: an
/// operator (`;`, `&`, `|`, `<`, `>`, a parenthesis, a newline), an expansion (`$`, `` ` ``,
/// a glob or `~` left unquoted), or a quote left open. The reverse of [`shell_quote`].
pub fn split_words(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '$' | '`' => return None,
                        '\\' => match chars.next()? {
                            c @ ('"' | '$' | '`' | '\\') => w.push(c),
                            '\n' => {}
                            c => {
                                w.push('\\');
                                w.push(c);
                            }
                        },
                        c => w.push(c),
                    }
                }
            }
            '\\' => match chars.next()? {
                '\n' => {}
                c => word.get_or_insert_with(String::new).push(c),
            },
            ';' | '&' | '|' | '<' | '>' | '(' | ')' | '\n' | '$' | '`' | '*' | '?' | '[' => {
                return None;
            }
            '~' if word.is_none() => return None,
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(w) = word {
        words.push(w);
    }
    Some(words)
}

/// How a POSIX shell reads what follows a `$` in a command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quoting {
    /// Outside quotes: expanded, then split into words.
    Bare,
    /// Inside `"…"`: expanded, one word.
    Double,
    /// Inside `'…'`: literal.
    Single,
    /// After a backslash, outside quotes: a literal `$`.
    Escaped,
    /// After a backslash inside `"…"`: a literal `$`.
    EscapedInDouble,
}

/// `line` with each `$NAME` of `names` (as text, the way an agent's own substitution matches
/// it: `$NAMEX` too, never `${NAME}`) and the name characters right after it (`X`) replaced
/// by what `with` gives for the name, those characters and the quoting the `$` stands in;
/// `None` leaves them.
pub fn replace_names<'l>(
    line: &'l str,
    names: &[&str],
    with: impl Fn(&str, &str, Quoting) -> Option<String>,
) -> std::borrow::Cow<'l, str> {
    if names.is_empty() || !line.contains('$') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let (mut single, mut double, mut escaped) = (false, false, false);
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        let quoting = match (escaped, single, double) {
            (true, _, true) => Quoting::EscapedInDouble,
            (true, ..) => Quoting::Escaped,
            (_, true, _) => Quoting::Single,
            (_, _, true) => Quoting::Double,
            _ => Quoting::Bare,
        };
        if c == '$'
            && let Some(name) = names.iter().find(|n| rest[1..].starts_with(**n))
        {
            let after = &rest[1 + name.len()..];
            let tail_len = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            if let Some(text) = with(name, &after[..tail_len], quoting) {
                out.push_str(&text);
                rest = &after[tail_len..];
                escaped = false;
                continue;
            }
        }
        match c {
            _ if escaped => escaped = false,
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            _ => {}
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    std::borrow::Cow::Owned(out)
}

/// `text` as the inside of a `"…"` word: `"`, `$`, `` ` `` and `\` escaped.
pub fn double_quoted_inside(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '"' | '$' | '`' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A word the shell takes literally without quotes.
fn is_plain_word(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
}

#[cfg(test)]
mod split_tests {
    use super::*;

    /// Each `$NAME` is replaced by what its quoting asks for; `${NAME}` and other names are
    /// left, and a longer name that starts with it is matched, as Gemini CLI matches it.
    #[test]
    fn replace_names_sees_where_each_dollar_stands() {
        let got = replace_names(
            r#"$A/x "$A/y" '$A/z' \$A "\$A" ${A} $B $AX_1/"#,
            &["A"],
            |name, tail, quoting| Some(format!("<{name}+{tail}:{quoting:?}>")),
        );
        assert_eq!(
            got,
            r#"<A+:Bare>/x "<A+:Double>/y" '<A+:Single>/z' \<A+:Escaped> "\<A+:EscapedInDouble>" ${A} $B <A+X_1:Bare>/"#
        );
        assert!(matches!(
            replace_names("no names here", &["A"], |_, _, _| None),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn split_words_undoes_quoting() {
        for text in [
            "plain",
            "it's",
            "a \"b\" $c `d` \\e",
            "./guard.sh --flag 'x y'",
            "",
        ] {
            for quoted in [shell_quote(text), shell_quote_shortest(text)] {
                assert_eq!(
                    split_words(&quoted),
                    Some(vec![text.to_string()]),
                    "{quoted}"
                );
            }
        }
        assert_eq!(
            split_words("hookx exec --as claude -- ./g.sh"),
            Some(
                ["hookx", "exec", "--as", "claude", "--", "./g.sh"]
                    .map(String::from)
                    .to_vec()
            )
        );
        for refused in [
            "a; b", "a && b", "$(x)", "a $b", "'open", "a > f", "~/x", "a*",
        ] {
            assert_eq!(split_words(refused), None, "{refused}");
        }
    }
}
