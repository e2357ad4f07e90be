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

/// A word the shell takes literally without quotes.
fn is_plain_word(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+@%".contains(&b))
}
