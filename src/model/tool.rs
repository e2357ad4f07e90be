//! Canonical tool names, so that a matcher or a payload written for one agent can name the same
//! tool in another. The per-dialect spellings are data in each dialect's `Tables`.

/// Canonical tool ids. A tool name found in no table is its own canonical id, so unknown and
/// MCP tools (`mcp__server__tool`, spelled alike everywhere) pass through unchanged.
pub mod ids {
    pub const SHELL: &str = "shell";
    pub const WRITE: &str = "write";
    pub const EDIT: &str = "edit";
    pub const MULTI_EDIT: &str = "multi_edit";
    pub const READ: &str = "read";
    pub const GLOB: &str = "glob";
    pub const GREP: &str = "grep";
    pub const WEB_FETCH: &str = "web_fetch";
    pub const WEB_SEARCH: &str = "web_search";
    pub const TASK: &str = "task";
    pub const ASK_USER: &str = "ask_user";
    pub const NOTEBOOK_EDIT: &str = "notebook_edit";
    pub const TODO_WRITE: &str = "todo_write";
    pub const POWERSHELL: &str = "powershell";
}

/// Tools whose call is calls of others, for a rule that names only those: a multi-edit is
/// edits of one file (Claude Code 2.1.332 has no MultiEdit tool, and its permission rules read
/// the name as Edit; Codex's patch of several hunks and Windsurf's `write_code` reach hooks as
/// one).
pub const PARTS: &[(&str, &[&str])] = &[(ids::MULTI_EDIT, &[ids::EDIT])];

/// Whether `name` is one of the canonical ids: a tool some table knows.
pub fn is_canonical(name: &str) -> bool {
    use ids::*;
    [
        SHELL,
        WRITE,
        EDIT,
        MULTI_EDIT,
        READ,
        GLOB,
        GREP,
        WEB_FETCH,
        WEB_SEARCH,
        TASK,
        ASK_USER,
        NOTEBOOK_EDIT,
        TODO_WRITE,
        POWERSHELL,
    ]
    .contains(&name)
}

/// Whether `name` is an MCP tool name, which every dialect spells the same.
pub fn is_mcp(name: &str) -> bool {
    name.starts_with("mcp__")
}

/// The characters of an MCP server or tool name an agent writes otherwise: each but an ASCII
/// letter, digit or one of `kept` becomes `to` (Codex CLI 0.171.0, run: `x-y` → `x_y`,
/// `dot.tool` → `dot_tool`, `tö` → `t_`; attacks rows 1593, 1861). The original is lost, so a
/// rule of another agent naming it is read as the agent writes the name ([`NameRewrite::matcher`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRewrite {
    pub kept: &'static str,
    pub to: char,
    /// Each UTF-16 unit of a rewritten character becomes `to`: a JavaScript regex without the
    /// `u` flag (Claude Code's and Gemini CLI's) writes `😀` as `__` (attacks row 1950).
    pub per_unit: bool,
    /// A name holding a character past ASCII is first written in its ASCII form, each such
    /// `.`-separated label `xn--` and punycode (Copilot CLI 1.0.102: `café` → `xn--caf-dma`,
    /// attacks row 1862). Reversible: such a label is read back ([`NameRewrite::configured`]),
    /// and a matcher's characters past ASCII are left as written.
    pub punycode: bool,
    /// Events whose payloads name the server as configured, the rewrite on the tool only
    /// (Copilot's `permissionRequest`: `p.q/dot-tool`, run 1.0.102, attacks row 1862).
    pub servers_kept_on: &'static [super::EventKind],
    /// The whole name (`mcp__SERVER__TOOL`) rewritten at once instead of its parts, where it
    /// is not one the agent keeps; `None`: the parts are rewritten as above.
    pub whole: Option<WholeName>,
    /// The length (UTF-16 units) the agent cuts a longer name to, the rest and where the
    /// server ended lost (Copilot CLI 1.0.102: 64, a `2` last where two names cut alike, run,
    /// attacks rows 1946, 2271): a name of that length no split reads is an MCP tool still.
    pub cut: Option<usize>,
}

/// A name an agent keeps only where it is `[A-Za-z][A-Za-z0-9_-]*` and at most `max` UTF-16
/// units, and else writes with every other character rewritten ([`NameRewrite::name`]), cut
/// so that `_` and a hash of the name as configured fit in `max` after it (Qwen Code
/// 0.24.4's `normalizeToolNameForProvider`: `p.q`'s `run` is `mcp__p_q__run_1bf5p4t`, run,
/// attacks rows 1944, 2270). The hash is not undone: a rule naming a server and tool
/// literally is read as the name the agent writes for them ([`NameRewrite::whole_name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WholeName {
    pub max: usize,
    pub hash: NameHash,
}

/// The hashes agents append to a name they rewrote whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameHash {
    /// 32-bit FNV-1a over the name's UTF-16 units, in base 36, padded to 7 with `0` (Qwen
    /// Code 0.24.4's `stableToolNameHash`).
    Fnv1a32Base36,
}

impl NameHash {
    fn of(self, name: &str) -> String {
        match self {
            NameHash::Fnv1a32Base36 => {
                let mut hash: u32 = 2166136261;
                for unit in name.encode_utf16() {
                    hash = (hash ^ u32::from(unit)).wrapping_mul(16777619);
                }
                let mut digits = Vec::new();
                loop {
                    digits.push(char::from_digit(hash % 36, 36).unwrap_or('0'));
                    hash /= 36;
                    if hash == 0 {
                        break;
                    }
                }
                digits.resize(digits.len().max(7), '0');
                digits.iter().rev().collect()
            }
        }
    }
}

/// The names a matcher `text` names literally: its `|` alternatives, each with at most `^`
/// before and `$` after, an escaped character being itself; `None` where any holds other
/// regex syntax (a class, a group, a repeat, an unescaped `.`).
pub fn literal_names(text: &str) -> Option<Vec<String>> {
    let mut names = Vec::new();
    let mut name = String::new();
    let mut chars = text.chars().peekable();
    let mut first = true;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e) if !e.is_ascii_alphanumeric() => name.push(e),
                _ => return None,
            },
            '|' => {
                names.push(std::mem::take(&mut name));
                first = true;
                continue;
            }
            '^' if first => {}
            '$' if matches!(chars.peek(), None | Some('|')) => {}
            '.' | '^' | '$' | '*' | '+' | '?' | '(' | ')' | '{' | '}' | '[' | ']' => return None,
            c => name.push(c),
        }
        first = false;
    }
    names.push(name);
    (!names.iter().any(String::is_empty)).then_some(names)
}

impl NameRewrite {
    fn keeps(&self, c: char) -> bool {
        c.is_ascii_alphanumeric() || self.kept.contains(c) || (self.punycode && !c.is_ascii())
    }

    /// The server `name` as payloads of event `kind` write it.
    pub fn server(&self, kind: &super::EventKind, name: &str) -> String {
        match self.servers_kept_on.contains(kind) {
            true => name.to_string(),
            false => self.name(name),
        }
    }

    /// The name as configured that a written `name` stands for, where the rewrite can be
    /// undone and changed it (a `xn--` label: `xn--caf-dma` is `café`).
    pub fn configured(&self, name: &str) -> Option<String> {
        self.punycode
            .then(|| super::punycode::label_of(name))
            .flatten()
    }

    /// What the agent writes for a character it rewrites, `c`, onto `out`.
    fn push(&self, c: char, out: &mut String) {
        let times = if self.per_unit { c.len_utf16() } else { 1 };
        out.extend(std::iter::repeat_n(self.to, times));
    }

    /// The agent's name for the whole `name` as configured (`mcp__p.q__run`), where it rewrites
    /// names whole ([`NameRewrite::whole`]).
    pub fn whole_name(&self, name: &str) -> Option<String> {
        let whole = self.whole?;
        let kept = name.encode_utf16().count() <= whole.max
            && name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name.chars().all(|c| self.keeps(c));
        if kept {
            return Some(name.to_string());
        }
        let mut written = self.name(name);
        if !written.starts_with(|c: char| c.is_ascii_alphabetic()) {
            written.insert_str(0, "tool_");
        }
        let suffix = format!("_{}", whole.hash.of(name));
        // Every character written is ASCII: a cut by units is a cut by characters.
        let cut: String = written
            .chars()
            .take(whole.max.saturating_sub(suffix.len()))
            .collect();
        Some(cut + &suffix)
    }

    /// The name `written` stands for before its hash, where it has the shape of a name this
    /// agent rewrote whole and did not cut (`mcp__p_q__run_1bf5p4t`: `mcp__p_q__run`, every
    /// character the agent rewrites already so): another reading of the call, on which a rule
    /// fires as on the name its own agent writes (Claude's `mcp__p_q__run`, attacks row 2270).
    /// A configured name of that shape (`run_abcdefg`) reads so too.
    pub fn unhashed<'a>(&self, written: &'a str) -> Option<&'a str> {
        let whole = self.whole?;
        self.hashed(written).filter(|_| written.len() < whole.max)
    }

    /// The part of `written` before a hash, where it has the shape of a name this agent
    /// rewrote whole, cut or not (the cut one is [`WholeName::max`] long).
    pub fn hashed<'a>(&self, written: &'a str) -> Option<&'a str> {
        let whole = self.whole?;
        let (before, hash) = written.split_at_checked(written.len().checked_sub(8)?)?;
        let hashed = hash.strip_prefix('_').is_some_and(|h| {
            h.len() == 7
                && h.bytes()
                    .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
        });
        (hashed && written.len() <= whole.max && !before.is_empty()).then_some(before)
    }

    /// A server's or tool's `name` as the agent writes it.
    pub fn name(&self, name: &str) -> String {
        let ascii;
        let name = match self.punycode && !name.is_ascii() {
            true => {
                ascii = super::punycode::to_ascii(name);
                ascii.as_str()
            }
            false => name,
        };
        let mut out = String::with_capacity(name.len());
        for c in name.chars() {
            match self.keeps(c) {
                true => out.push(c),
                false => self.push(c, &mut out),
            }
        }
        out
    }

    /// Matcher `text` of a flavour whose MCP names are spelled with `syntax` (its prefix and
    /// separator), with each literal character the agent rewrites written as it writes it, the
    /// regex syntax kept (a character class as it is; an unescaped `.` already matches `to`).
    /// `None` where nothing changes, or where `syntax` holds a character rewritten (Copilot's
    /// `-`: which `-` ends the server is not known).
    pub fn matcher(&self, text: &str, syntax: &str) -> Option<String> {
        if !syntax.chars().all(|c| self.keeps(c)) {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let (mut chars, mut class) = (text.chars(), false);
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    // An escaped punctuation or space is that literal character.
                    Some(e) if !class && !e.is_ascii_alphanumeric() && !self.keeps(e) => {
                        self.push(e, &mut out)
                    }
                    Some(e) => {
                        out.push(c);
                        out.push(e);
                    }
                    None => out.push(c),
                },
                // A group's flags or name (`(?:`, `(?i)`, `(?P<n>`) are syntax, not a name.
                '(' if !class && chars.clone().next() == Some('?') => {
                    out.push(c);
                    for f in chars.by_ref() {
                        out.push(f);
                        if matches!(f, ':' | ')' | '>' | '=' | '!') {
                            break;
                        }
                    }
                }
                '[' if !class => {
                    class = true;
                    out.push(c);
                }
                ']' if class => {
                    class = false;
                    out.push(c);
                }
                '.' | '^' | '$' | '*' | '+' | '?' | '(' | ')' | '{' | '}' | '|' | '[' | ']' => {
                    out.push(c)
                }
                c if !class && !self.keeps(c) => self.push(c, &mut out),
                c => out.push(c),
            }
        }
        (out != text).then_some(out)
    }
}
