//! The crate's shape, checked from its source.
//!
//! 1. "A new dialect is one file" (issue 12): code outside the dialect's home never names a
//!    dialect. It fails on:
//!    - an identifier with a registered dialect's name as a word (`Dialect::Claude`,
//!      `claude::DIALECT`, `is_claude_event`, `COPILOT_KEYS`);
//!    - a string literal that is a dialect or flavour name, or a kill switch
//!      (`"disableAllHooks"`);
//!    - a string literal holding a string the tables own: an environment variable, a path or
//!      file name, a location id, a schema file, a document kind, or an agent's display name as
//!      a word.
//!
//!    The strings come from the registry itself, so a new dialect's strings are checked as soon
//!    as its file is registered.
//! 2. Floors: each top-level module sits on one floor of [`FLOORS`], and a file refers only to
//!    modules on its own floor or below (`crate::x` paths in `use` items, use groups and inline
//!    paths; `super::` chains that reach the crate root count too).
//! 3. No cycle between top-level modules, nor between files (a module and its own ancestors
//!    and descendants aside).
//!
//! Every production line is scanned: the source is lexed (strings, raw strings, chars,
//! lifetimes, nested block comments), comments are dropped, and only the items under
//! `#[cfg(test)]` (or `#[cfg(all(test, ..))]`, `#[test]`; a file under `#![cfg(test)]` or
//! declared by `#[cfg(test)] mod x;`) are cut out, bracket-matched, so code after a test module
//! is scanned like any other. Attributes are left out of the dialect scan
//! (`--help` examples) but not of the import scan. String literals never count as imports.
//! The checks prove they can fail in the `probe_*` tests at the end.

// The table types the owned-strings check reads: the one place to change when they move
// (to `hookx::tables`).
use hookx::protocol::canonical_key;
use hookx::tables::{CANONICAL_CALL_KEYS, Dialect, Flavor, Pattern, TrustRecord};

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

/// The floors, bottom to top: each a name and the top-level modules on it (`src/NAME.rs` or
/// `src/NAME/`). A file may use modules on its own floor and the floors below. Names that do
/// not exist (yet) are fine; a module that exists and is on no floor fails the check.
const FLOORS: &[(&str, &[&str])] = &[
    (
        "base",
        &[
            "error",
            "diag",
            "read",
            "source",
            "positions",
            "shell",
            "hash",
            "heap",
            "spawn",
            "ownership",
        ],
    ),
    ("model", &["model"]),
    ("tables", &["tables"]),
    ("dialect", &["dialect"]),
    (
        "engine",
        &[
            "config", "context", "protocol", "discover", "convert", "dispatch", "cache", "plugins",
            "trust", "warned", "route", "pipeline", "plan", "claim",
        ],
    ),
    ("commands", &["commands", "cli"]),
];

/// Files on no floor: the crate roots.
const EXEMPT: &[&str] = &["lib.rs", "main.rs"];

/// Top-level modules that may name dialects.
const DIALECT_HOMES: &[&str] = &["dialect"];

/// How many file:line examples a report shows per module pair.
const EXAMPLES: usize = 3;
/// What the tables own, by how a literal is matched against it.
#[derive(Default)]
struct Owned {
    /// A literal equal to one of these.
    exact: Vec<&'static str>,
    /// A literal containing one of these.
    within: Vec<&'static str>,
    /// A literal containing one of these as a whole word.
    words: Vec<&'static str>,
    /// Dialect names: no identifier may have one as a word.
    names: Vec<String>,
}

fn owned() -> Owned {
    let mut o = Owned::default();
    for &d in Dialect::all() {
        let def = d.def();
        let config = d.config();
        o.names.push(d.name().to_lowercase());
        o.exact.push(d.name());
        o.words.push(def.display);
        o.within.extend([
            config.install_project,
            config.install_user,
            config.convert_target,
            def.schema.file_name,
        ]);
        o.within.extend(config.project_dir_variable);
        o.within.extend(config.provided_env);
        o.within.extend(config.hook_dir_var);
        o.within.extend(config.plugin_root_var);
        o.within.extend(def.detect.dirs);
        o.within.extend(def.detect.file_names);
        o.within.extend(def.host.env_markers);
        // Payload keys and handler keys are not checked: canonical field names are Claude's
        // (`transcript_path`, the `shell` tool), and handler keys are plain words.
        o.exact.extend(def.kill_switch.as_ref().map(|k| k.key));
        if let Some(m) = &def.managed {
            o.within.extend(m.dirs.iter().map(|(_, dir)| *dir));
            o.exact.extend(m.only_managed_key);
        }
        if let Some(t) = &def.folder_trust {
            match t.record {
                TrustRecord::List { file, keys, .. } => {
                    o.within.push(file);
                    o.within.extend(keys);
                }
                TrustRecord::Levels {
                    file,
                    trust_folder,
                    trust_parent,
                    ..
                } => {
                    o.within.push(file);
                    o.within.extend(trust_folder.iter().chain(trust_parent));
                }
                TrustRecord::TomlTable {
                    file, table, key, ..
                } => {
                    o.within.push(file);
                    o.exact.extend([table, key]);
                }
            }
        }
        if let Some(d) = &def.disabled_handlers {
            o.exact.push(d.key);
        }
        let docs = &config.documents;
        o.within.push(docs.file.name);
        o.within.extend(docs.frontmatter.map(|k| k.name));
        o.within.extend(docs.toml.as_ref().map(|t| t.kind.name));
        if let Some(p) = &docs.plugin {
            o.within.extend([p.kind.name, p.path_suffix]);
        }
        for location in def.locations {
            o.within.push(location.id);
            match location.pattern {
                Pattern::File(f) => o.within.push(f),
                Pattern::Dir { dir, .. } | Pattern::Scripts(dir) => o.within.push(dir),
                Pattern::Sub { dir, name } => o.within.extend([dir, name]),
                Pattern::Plugins => {}
            }
        }
        if let Some(p) = config.plugins {
            o.within.extend([
                p.registry,
                p.marketplaces,
                p.catalog,
                p.enabled_key,
                p.hook_file,
            ]);
            o.within.extend(p.downloads);
            o.within.extend(p.enabled_in);
        }
    }
    for &f in Flavor::all() {
        o.exact.push(f.name());
        o.within.extend(f.tables().project_dir_var);
        o.within
            .extend(f.tables().protocol.env.iter().map(|(name, _)| *name));
    }
    o
}

// ---------------------------------------------------------------------------------------------
// Lexing: tokens with their lines, comments dropped.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    Lifetime,
    /// A string literal (plain, byte, C or raw); the token's text is its body.
    Str,
    Char,
    Number,
    Punct,
}

#[derive(Clone, Debug)]
struct Tok {
    kind: Kind,
    text: String,
    line: usize,
}

impl Tok {
    /// An identifier or punctuation spelled `s` (never a literal's body).
    fn is(&self, s: &str) -> bool {
        matches!(self.kind, Kind::Ident | Kind::Punct) && self.text == s
    }
}

fn is_at(toks: &[Tok], i: usize, s: &str) -> bool {
    toks.get(i).is_some_and(|t| t.is(s))
}

fn lex(src: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let (mut i, mut line) = (0, 1);
    while let Some(c) = src[i..].chars().next() {
        let rest = &src[i..];
        let ident_start = |s: &str| s.starts_with(|c: char| c.is_alphabetic() || c == '_');
        let (len, tok) = if c.is_whitespace() {
            (c.len_utf8(), None)
        } else if rest.starts_with("//") {
            (rest.find('\n').unwrap_or(rest.len()), None)
        } else if rest.starts_with("/*") {
            (block_comment(rest), None)
        } else if let Some((len, body)) = string_literal(rest) {
            (len, Some((Kind::Str, body)))
        } else if let Some(len) = char_literal(rest) {
            (len, Some((Kind::Char, rest[..len].to_string())))
        } else if c == '\'' {
            let len = 1 + ident_len(&rest[1..]);
            (len, Some((Kind::Lifetime, rest[1..len].to_string())))
        } else if let Some(raw) = rest.strip_prefix("r#").filter(|r| ident_start(r)) {
            let len = ident_len(raw);
            (2 + len, Some((Kind::Ident, raw[..len].to_string())))
        } else if ident_start(rest) {
            let len = ident_len(rest);
            (len, Some((Kind::Ident, rest[..len].to_string())))
        } else if c.is_ascii_digit() {
            let len = number_len(rest);
            (len, Some((Kind::Number, rest[..len].to_string())))
        } else if rest.starts_with("::") {
            (2, Some((Kind::Punct, "::".to_string())))
        } else {
            (c.len_utf8(), Some((Kind::Punct, c.to_string())))
        };
        if let Some((kind, text)) = tok {
            toks.push(Tok { kind, text, line });
        }
        line += rest[..len].matches('\n').count();
        i += len;
    }
    toks
}

fn ident_len(s: &str) -> usize {
    s.find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len())
}

fn number_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut n = 0;
    while n < b.len()
        && (b[n].is_ascii_alphanumeric()
            || b[n] == b'_'
            || (b[n] == b'.' && b.get(n + 1).is_some_and(u8::is_ascii_digit)))
    {
        n += 1;
    }
    n
}

/// The length of a (nested) block comment at the start of `s`.
fn block_comment(s: &str) -> usize {
    let (mut depth, mut i) = (0, 0);
    while i < s.len() {
        if s[i..].starts_with("/*") {
            depth += 1;
            i += 2;
        } else if s[i..].starts_with("*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += s[i..].chars().next().unwrap().len_utf8();
        }
    }
    s.len()
}

/// A string literal at the start of `s` (plain, byte, C or raw): its length and its body.
fn string_literal(s: &str) -> Option<(usize, String)> {
    let b = s.as_bytes();
    let prefix = usize::from(matches!(b.first(), Some(b'b' | b'c')));
    if b.get(prefix) == Some(&b'r') {
        let hashes = s[prefix + 1..].bytes().take_while(|&c| c == b'#').count();
        let open = prefix + 1 + hashes;
        if b.get(open) != Some(&b'"') {
            return None;
        }
        let close = format!("\"{}", "#".repeat(hashes));
        let end = s[open + 1..].find(&close)?;
        let body = s[open + 1..open + 1 + end].to_string();
        return Some((open + 1 + end + close.len(), body));
    }
    if b.get(prefix) != Some(&b'"') {
        return None;
    }
    let body = &s[prefix + 1..];
    let mut escaped = false;
    for (j, c) in body.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return Some((prefix + 1 + j + 1, body[..j].to_string())),
            _ => escaped = false,
        }
    }
    None
}

/// The length of a char or byte literal at the start of `s` (not a lifetime).
fn char_literal(s: &str) -> Option<usize> {
    let prefix = usize::from(s.starts_with("b'"));
    let body = s[prefix..].strip_prefix('\'')?;
    let len = if let Some(esc) = body.strip_prefix('\\') {
        let c = esc.chars().next()?;
        let end = esc[c.len_utf8()..].find('\'')?;
        // `\u{10FFFF}` is the longest escape.
        if end > 8 {
            return None;
        }
        1 + c.len_utf8() + end
    } else {
        match body.chars().next()? {
            '\'' => return None,
            c => c.len_utf8(),
        }
    };
    body[len..]
        .starts_with('\'')
        .then_some(prefix + 1 + len + 1)
}

fn opens(t: &Tok) -> bool {
    t.is("(") || t.is("[") || t.is("{")
}

fn closes(t: &Tok) -> bool {
    t.is(")") || t.is("]") || t.is("}")
}

/// Where the bracket opened at `open` closes (the last token if it never does).
fn matching(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if opens(t) {
            depth += 1;
        } else if closes(t) {
            depth -= 1;
            if depth == 0 {
                return k;
            }
        }
    }
    toks.len() - 1
}

/// Whether every bracket closes the bracket it should: a lexing mistake shows here first.
fn balanced(toks: &[Tok]) -> Result<(), String> {
    let mut stack: Vec<&Tok> = Vec::new();
    for t in toks {
        if opens(t) {
            stack.push(t);
        } else if closes(t) {
            let pair = |o: &str| match o {
                "(" => ")",
                "[" => "]",
                _ => "}",
            };
            match stack.pop() {
                Some(o) if pair(&o.text) == t.text => {}
                Some(o) => {
                    return Err(format!(
                        "line {}: `{}` closes the `{}` of line {}",
                        t.line, t.text, o.text, o.line
                    ));
                }
                None => return Err(format!("line {}: `{}` closes nothing", t.line, t.text)),
            }
        }
    }
    match stack.pop() {
        Some(o) => Err(format!("line {}: `{}` never closes", o.line, o.text)),
        None => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------------
// Production code: everything but the items under `#[cfg(test)]`.

/// The attribute at `i` (`#[..]` or `#![..]`): the index after its `]`, and whether it is inner.
fn attribute_at(toks: &[Tok], i: usize) -> Option<(usize, bool)> {
    if !is_at(toks, i, "#") {
        return None;
    }
    let inner = is_at(toks, i + 1, "!");
    let open = i + 1 + usize::from(inner);
    is_at(toks, open, "[").then(|| (matching(toks, open) + 1, inner))
}

/// Whether an attribute's content (between `[` and `]`) compiles its item only for tests.
fn test_only(attr: &[Tok]) -> bool {
    match attr {
        [t] => t.is("test"),
        [cfg, open, pred @ .., close] if cfg.is("cfg") && open.is("(") && close.is(")") => {
            requires_test(pred)
        }
        _ => false,
    }
}

/// Whether a `cfg` predicate holds only when `test` does.
fn requires_test(pred: &[Tok]) -> bool {
    match pred {
        [t] => t.is("test"),
        [op, open, args @ .., close] if open.is("(") && close.is(")") => {
            let args = split_commas(args);
            if op.is("all") {
                args.iter().any(|a| requires_test(a))
            } else if op.is("any") {
                !args.is_empty() && args.iter().all(|a| requires_test(a))
            } else {
                false
            }
        }
        _ => false,
    }
}

fn split_commas(toks: &[Tok]) -> Vec<&[Tok]> {
    let (mut out, mut depth, mut from) = (Vec::new(), 0usize, 0);
    for (k, t) in toks.iter().enumerate() {
        if opens(t) {
            depth += 1;
        } else if closes(t) {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && t.is(",") {
            out.push(&toks[from..k]);
            from = k + 1;
        }
    }
    out.push(&toks[from..]);
    out.retain(|a| !a.is_empty());
    out
}

const ITEM_WORDS: &[&str] = &[
    "fn",
    "mod",
    "impl",
    "struct",
    "enum",
    "trait",
    "union",
    "const",
    "static",
    "unsafe",
    "async",
    "extern",
    "macro_rules",
    "use",
    "type",
];

/// Where the thing an outer attribute sits on ends, the attribute's `]` being at `from - 1`:
/// an item (to its `;` or its closing `}`), or a field, variant, match arm, statement or
/// expression (to its `,` or `;`, its block's `}`, or the end of the list it sits in).
fn item_end(toks: &[Tok], mut from: usize) -> usize {
    while let Some((end, _)) = attribute_at(toks, from) {
        from = end;
    }
    let mut k = from;
    if is_at(toks, k, "pub") {
        k += 1;
        if is_at(toks, k, "(") {
            k = matching(toks, k) + 1;
        }
    }
    let word =
        |k: usize, words: &[&str]| toks.get(k).is_some_and(|t| words.iter().any(|w| t.is(w)));
    let item = word(k, ITEM_WORDS);
    // Items whose `{ .. }` may be an initializer: they end at `;`.
    let to_semicolon = word(k, &["use", "type"])
        || (word(k, &["const", "static"]) && !word(k + 1, &["fn", "unsafe", "async", "extern"]));
    let mut depth = 0usize;
    for (k, t) in toks.iter().enumerate().skip(from) {
        if opens(t) {
            depth += 1;
        } else if closes(t) {
            if depth == 0 {
                return k;
            }
            depth -= 1;
            if depth == 0 && t.is("}") && !to_semicolon {
                let goes_on = toks
                    .get(k + 1)
                    .is_some_and(|n| [".", "?", "=", "else", "as"].iter().any(|s| n.is(s)));
                if item || !goes_on {
                    return k + 1;
                }
            }
        } else if depth == 0 && (t.is(";") || (!item && t.is(","))) {
            return k + 1;
        }
    }
    toks.len()
}

/// The production tokens of a lexed file, and the names of the out-of-line modules it declares
/// for tests only (`#[cfg(test)] mod tests;`).
fn production(toks: &[Tok]) -> (Vec<Tok>, Vec<String>) {
    let mut keep = vec![true; toks.len()];
    let mut test_mods = Vec::new();
    // The `{` of each block the walk is in.
    let mut blocks: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if let Some((end, inner)) = attribute_at(toks, i) {
            let body = &toks[i + 2 + usize::from(inner)..end - 1];
            if !test_only(body) {
                i = end;
                continue;
            }
            let (from, to) = if !inner {
                let to = item_end(toks, end);
                let mut k = end;
                while let Some((e, _)) = attribute_at(toks, k) {
                    k = e;
                }
                if blocks.is_empty() && is_at(toks, k, "mod") && is_at(toks, k + 2, ";") {
                    test_mods.push(toks[k + 1].text.clone());
                }
                (i, to)
            } else if let Some(&open) = blocks.last() {
                // `#![cfg(test)]` inside a block: the whole block's content.
                (open + 1, matching(toks, open))
            } else {
                // `#![cfg(test)]` at the top of a file: the whole file.
                (0, toks.len())
            };
            keep[from..to].fill(false);
            i = to.max(i + 1);
            continue;
        }
        if toks[i].is("{") {
            blocks.push(i);
        } else if toks[i].is("}") {
            blocks.pop();
        }
        i += 1;
    }
    let kept = toks
        .iter()
        .zip(&keep)
        .filter(|&(_, &k)| k)
        .map(|(t, _)| t.clone())
        .collect();
    (kept, test_mods)
}

// ---------------------------------------------------------------------------------------------
// Check 1: dialect names and owned strings.

/// Everything in `text` (one source file) that names a dialect.
fn violations(text: &str, owned: &Owned) -> Vec<String> {
    dialect_names(&production(&lex(text)).0, owned)
}

/// Everything in production tokens, attributes left out, that names a dialect.
fn dialect_names(toks: &[Tok], owned: &Owned) -> Vec<String> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if let Some((end, _)) = attribute_at(toks, i) {
            i = end;
            continue;
        }
        let t = &toks[i];
        match t.kind {
            Kind::Ident | Kind::Lifetime => {
                let ws = words(&t.text);
                if let Some(name) = owned.names.iter().find(|n| ws.contains(n)) {
                    found.push(format!(
                        "line {}: identifier `{}` names {name}",
                        t.line, t.text
                    ));
                }
            }
            Kind::Str => {
                let lit = &t.text;
                let hit = owned
                    .exact
                    .iter()
                    .find(|s| lit == *s)
                    .or_else(|| owned.within.iter().find(|s| lit.contains(*s)))
                    .or_else(|| owned.words.iter().find(|s| has_word(lit, s)));
                if let Some(s) = hit {
                    found.push(format!(
                        "line {}: \"{lit}\" holds the table string `{s}`",
                        t.line
                    ));
                }
            }
            _ => {}
        }
        i += 1;
    }
    found
}

// ---------------------------------------------------------------------------------------------
// The crate: files, their modules and what they refer to.

struct File {
    /// The path under `src/`, with `/`.
    rel: String,
    /// The module path: `config/read.rs` → config, read; `lib.rs` → none.
    module: Vec<String>,
    /// Production tokens.
    toks: Vec<Tok>,
}

struct Crate {
    files: Vec<File>,
    /// Each module (of a file, or inline in one) and the file it is in.
    modules: BTreeMap<Vec<String>, usize>,
}

fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .strip_suffix(".rs")
        .unwrap_or(rel)
        .split('/')
        .map(String::from)
        .collect();
    if EXEMPT.contains(&rel) || parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The crate of these sources (paths under `src/`); panics on a file whose brackets do not
/// balance (the lexer went wrong: a hole otherwise).
fn load(sources: &[(String, String)]) -> Crate {
    let mut files = Vec::new();
    let mut test_only: Vec<Vec<String>> = Vec::new();
    for (rel, text) in sources {
        let toks = lex(text);
        if let Err(e) = balanced(&toks) {
            panic!("src/{rel}: {e}");
        }
        let (toks, test_mods) = production(&toks);
        let module = module_of(rel);
        for name in test_mods {
            test_only.push(module.iter().cloned().chain([name]).collect());
        }
        files.push(File {
            rel: rel.clone(),
            module,
            toks,
        });
    }
    files.retain(|f| !test_only.iter().any(|t| f.module.starts_with(t)));
    let mut modules = BTreeMap::new();
    for (n, f) in files.iter().enumerate() {
        if f.rel == "main.rs" {
            continue;
        }
        let (_, scopes) = inline_modules(&f.toks);
        for scope in scopes {
            modules.insert(f.module.iter().cloned().chain(scope).collect(), n);
        }
    }
    Crate { files, modules }
}

/// For each token, the inline module it is in (an index into the second list: paths under the
/// file's module, the first one empty).
fn inline_modules(toks: &[Tok]) -> (Vec<usize>, Vec<Vec<String>>) {
    let mut paths = vec![Vec::new()];
    let (mut of, mut outer, mut here) = (Vec::with_capacity(toks.len()), Vec::new(), 0);
    for (i, t) in toks.iter().enumerate() {
        if t.is("{") {
            outer.push(here);
            if i >= 2 && toks[i - 2].is("mod") && toks[i - 1].kind == Kind::Ident {
                let mut path = paths[here].clone();
                path.push(toks[i - 1].text.clone());
                paths.push(path);
                here = paths.len() - 1;
            }
        } else if t.is("}") {
            here = outer.pop().unwrap_or(0);
        }
        of.push(here);
    }
    (of, paths)
}

/// A path a file refers to, from the crate root.
#[derive(Clone, Debug)]
struct Ref {
    line: usize,
    path: Vec<String>,
    glob: bool,
    /// Written from the crate root or `super`/`self` (not through a name a `use` brought in).
    direct: bool,
}

impl Crate {
    fn top_modules(&self) -> BTreeMap<&str, &str> {
        let mut tops = BTreeMap::new();
        for f in &self.files {
            if let Some(top) = f.module.first() {
                tops.entry(top.as_str()).or_insert(f.rel.as_str());
            }
        }
        tops
    }

    /// The top-level module a path names, if it names one.
    fn top_of<'a>(&self, path: &'a [String]) -> Option<&'a str> {
        let top = path.first()?;
        self.modules
            .contains_key(std::slice::from_ref(top))
            .then_some(top)
    }

    /// The file of the longest module a path goes through (not the crate root).
    fn file_of(&self, path: &[String]) -> Option<usize> {
        (1..=path.len())
            .rev()
            .find_map(|k| self.modules.get(&path[..k]).copied())
    }

    /// Everything file `n` refers to in the crate: `crate::`, `super::`, `self::` paths (in
    /// `use` trees and inline), paths through a name a `use` brought in, and paths into a child
    /// module.
    fn refs(&self, n: usize) -> Vec<Ref> {
        let file = &self.files[n];
        let toks = &file.toks;
        let (scope_of, scopes) = inline_modules(toks);
        let here = |i: usize| -> Vec<String> {
            file.module
                .iter()
                .chain(&scopes[scope_of[i.min(toks.len() - 1)]])
                .cloned()
                .collect()
        };
        let mut aliases: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut refs = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            let after_path = i > 0 && (toks[i - 1].is("::") || toks[i - 1].is("."));
            let is_use = t.is("use") && !after_path;
            let at = i + usize::from(is_use);
            if (is_use || (t.kind == Kind::Ident && !after_path))
                && let Some((base, next, direct)) = self.path_start(toks, at, &here(at), &aliases)
            {
                let mut leaves = Vec::new();
                let end = use_tree(toks, next, base, toks[at].line, &mut leaves);
                for (line, path, glob, alias) in leaves {
                    if is_use
                        && !glob
                        && let Some(alias) = alias.filter(|a| a != "_")
                    {
                        aliases.insert(alias, path.clone());
                    }
                    refs.push(Ref {
                        line,
                        path,
                        glob,
                        direct,
                    });
                }
                i = end.max(i + 1);
                continue;
            }
            i += 1;
        }
        refs
    }

    /// Where a path starting at `at` begins, from the crate root: the start's module path, the
    /// index after its `::`, and whether it is written from the crate root, `super` or `self`.
    fn path_start(
        &self,
        toks: &[Tok],
        at: usize,
        here: &[String],
        aliases: &BTreeMap<String, Vec<String>>,
    ) -> Option<(Vec<String>, usize, bool)> {
        let t = toks.get(at)?;
        if t.kind != Kind::Ident || !is_at(toks, at + 1, "::") {
            return None;
        }
        let name = t.text.as_str();
        if name == "crate" || name == env!("CARGO_PKG_NAME") {
            return Some((Vec::new(), at + 2, true));
        }
        if name == "self" {
            return Some((here.to_vec(), at + 2, true));
        }
        if name == "super" {
            let mut base = here.to_vec();
            let mut k = at;
            while is_at(toks, k, "super") && is_at(toks, k + 1, "::") {
                base.pop()?;
                k += 2;
            }
            return Some((base, k, true));
        }
        if let Some(target) = aliases.get(name) {
            return Some((target.clone(), at + 2, false));
        }
        let child: Vec<String> = here.iter().cloned().chain([name.to_string()]).collect();
        self.modules
            .contains_key(&child)
            .then_some((child, at + 2, false))
    }
}

/// The paths of a use tree (or a plain path) at `p` under `prefix`: each with its line, whether
/// it is a glob and the name it brings in. Returns the index after the tree.
fn use_tree(
    toks: &[Tok],
    mut p: usize,
    mut path: Vec<String>,
    mut line: usize,
    out: &mut Vec<(usize, Vec<String>, bool, Option<String>)>,
) -> usize {
    while let Some(t) = toks.get(p) {
        if t.is("*") {
            out.push((t.line, path, true, None));
            return p + 1;
        }
        if t.is("{") {
            p += 1;
            while toks.get(p).is_some_and(|t| !t.is("}")) {
                let q = use_tree(toks, p, path.clone(), toks[p].line, out);
                p = q.max(p + 1);
                if is_at(toks, p, ",") {
                    p += 1;
                }
            }
            return p + 1;
        }
        if t.kind != Kind::Ident {
            break;
        }
        match t.text.as_str() {
            "self" => {}
            "super" => {
                path.pop();
            }
            name => path.push(name.to_string()),
        }
        line = t.line;
        p += 1;
        let more = toks
            .get(p + 1)
            .is_some_and(|n| n.kind == Kind::Ident || n.is("{") || n.is("*"));
        if is_at(toks, p, "::") && more {
            p += 1;
        } else {
            break;
        }
    }
    let alias = if is_at(toks, p, "as") {
        p += 2;
        toks.get(p - 1).map(|t| t.text.clone())
    } else {
        path.last().cloned()
    };
    out.push((line, path, false, alias));
    p
}
/// The words of an identifier: `is_claude_event` → is, claude, event; `ClaudeSettings` →
/// claude, settings.
fn words(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in ident.split('_').filter(|p| !p.is_empty()) {
        let mut word = String::new();
        let chars: Vec<char> = part.chars().collect();
        for (k, &c) in chars.iter().enumerate() {
            let boundary = k > 0
                && c.is_uppercase()
                && (chars[k - 1].is_lowercase()
                    || chars.get(k + 1).is_some_and(|n| n.is_lowercase()));
            if boundary {
                out.push(std::mem::take(&mut word).to_lowercase());
            }
            word.push(c);
        }
        out.push(word.to_lowercase());
    }
    out
}

fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

// ---------------------------------------------------------------------------------------------
// Checks 2 and 3: floors and cycles.

fn floor_of(module: &str) -> Option<usize> {
    FLOORS.iter().position(|(_, ms)| ms.contains(&module))
}

fn floor_name(module: &str) -> String {
    match floor_of(module) {
        Some(f) => format!("floor {f} `{}`", FLOORS[f].0),
        None => "no floor".to_string(),
    }
}

/// References between top-level modules: (from, to) → file:line of each.
type Pairs = BTreeMap<(String, String), Vec<String>>;

/// What the floor check finds.
#[derive(Default)]
struct Floors {
    /// Top-level modules on no floor, with a file of each.
    misplaced: Vec<(String, String)>,
    /// References that climb.
    climbs: Pairs,
    /// `use crate::*` and the like: which floors they reach cannot be told.
    root_globs: Vec<String>,
}

impl Floors {
    fn is_empty(&self) -> bool {
        self.misplaced.is_empty() && self.climbs.is_empty() && self.root_globs.is_empty()
    }

    fn render(&self) -> String {
        let mut out = Vec::new();
        for (module, rel) in &self.misplaced {
            out.push(format!(
                "module `{module}` (src/{rel}) is on no floor: place it in FLOORS at the top of \
                 tests/architecture.rs"
            ));
        }
        for at in &self.root_globs {
            out.push(format!(
                "{at}: a glob import of the crate root; name the modules it uses"
            ));
        }
        if !self.climbs.is_empty() {
            let total: usize = self.climbs.values().map(Vec::len).sum();
            out.push(format!(
                "{total} lines climb a floor, in {} module pairs (a file may use its own \
                 floor and the floors below):",
                self.climbs.len()
            ));
            let mut pairs: Vec<_> = self.climbs.iter().collect();
            pairs.sort_by_key(|((from, to), _)| (floor_of(from), floor_of(to), from, to));
            for ((from, to), at) in pairs {
                out.push(format!(
                    "  {from} ({}) -> {to} ({}): {}",
                    floor_name(from),
                    floor_name(to),
                    examples(at)
                ));
            }
        }
        out.join("\n")
    }
}

/// Adds a place where `from` uses `to`, once per line.
fn add(pairs: &mut Pairs, from: &str, to: &str, at: String) {
    let places = pairs.entry((from.to_string(), to.to_string())).or_default();
    if !places.contains(&at) {
        places.push(at);
    }
}

fn examples(at: &[String]) -> String {
    let shown = at
        .iter()
        .take(EXAMPLES)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    let refs = if at.len() == 1 { "line" } else { "lines" };
    format!(
        "{} {refs}: {shown}{}",
        at.len(),
        if at.len() > EXAMPLES { ", ..." } else { "" }
    )
}

/// The references between different top-level modules (written from the crate root or
/// `super`), and the glob imports of the crate root.
fn top_edges(krate: &Crate) -> (Pairs, Vec<String>) {
    let (mut pairs, mut root_globs) = (Pairs::new(), Vec::new());
    for (n, f) in krate.files.iter().enumerate() {
        let Some(from) = f.module.first() else {
            continue;
        };
        for r in krate.refs(n).into_iter().filter(|r| r.direct) {
            let at = format!("src/{}:{}", f.rel, r.line);
            if r.path.is_empty() && r.glob {
                root_globs.push(at);
            } else if let Some(to) = krate.top_of(&r.path).filter(|to| to != from) {
                add(&mut pairs, from, to, at);
            }
        }
    }
    (pairs, root_globs)
}

fn floors(krate: &Crate) -> Floors {
    let misplaced = krate
        .top_modules()
        .into_iter()
        .filter(|(m, _)| floor_of(m).is_none())
        .map(|(m, rel)| (m.to_string(), rel.to_string()))
        .collect();
    let (pairs, root_globs) = top_edges(krate);
    let climbs = pairs
        .into_iter()
        .filter(|((from, to), _)| match (floor_of(from), floor_of(to)) {
            (Some(a), Some(b)) => b > a,
            _ => false,
        })
        .collect();
    Floors {
        misplaced,
        climbs,
        root_globs,
    }
}

/// A directed graph: node names, and the edges with the file:line of each.
struct Graph {
    names: Vec<String>,
    edges: BTreeMap<(usize, usize), Vec<String>>,
}

impl Graph {
    fn from_pairs(pairs: &Pairs) -> Graph {
        let names: BTreeSet<&String> = pairs.keys().flat_map(|(a, b)| [a, b]).collect();
        let names: Vec<String> = names.into_iter().cloned().collect();
        let id = |s: &String| names.iter().position(|n| n == s).unwrap();
        let edges = pairs
            .iter()
            .map(|((a, b), at)| ((id(a), id(b)), at.clone()))
            .collect();
        Graph { names, edges }
    }

    fn next(&self) -> Vec<Vec<usize>> {
        let mut next = vec![Vec::new(); self.names.len()];
        for &(a, b) in self.edges.keys() {
            next[a].push(b);
        }
        next
    }

    /// The strongly connected components of more than one node (Tarjan).
    fn cycles(&self) -> Vec<Vec<usize>> {
        struct Walk {
            next: Vec<Vec<usize>>,
            index: Vec<Option<usize>>,
            low: Vec<usize>,
            on_stack: Vec<bool>,
            stack: Vec<usize>,
            count: usize,
            out: Vec<Vec<usize>>,
        }
        fn visit(w: &mut Walk, v: usize) {
            w.index[v] = Some(w.count);
            w.low[v] = w.count;
            w.count += 1;
            w.stack.push(v);
            w.on_stack[v] = true;
            for k in 0..w.next[v].len() {
                let u = w.next[v][k];
                match w.index[u] {
                    None => {
                        visit(w, u);
                        w.low[v] = w.low[v].min(w.low[u]);
                    }
                    Some(iu) if w.on_stack[u] => w.low[v] = w.low[v].min(iu),
                    Some(_) => {}
                }
            }
            if Some(w.low[v]) == w.index[v] {
                let mut scc = Vec::new();
                while let Some(u) = w.stack.pop() {
                    w.on_stack[u] = false;
                    scc.push(u);
                    if u == v {
                        break;
                    }
                }
                if scc.len() > 1 {
                    scc.sort_unstable();
                    w.out.push(scc);
                }
            }
        }
        let n = self.names.len();
        let mut w = Walk {
            next: self.next(),
            index: vec![None; n],
            low: vec![0; n],
            on_stack: vec![false; n],
            stack: Vec::new(),
            count: 0,
            out: Vec::new(),
        };
        for v in 0..n {
            if w.index[v].is_none() {
                visit(&mut w, v);
            }
        }
        w.out.sort();
        w.out
    }

    /// A shortest cycle through the first node of a component, inside it.
    fn cycle_in(&self, scc: &[usize]) -> Vec<usize> {
        let next = self.next();
        let start = scc[0];
        let mut came_from = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        while let Some(v) = queue.pop_front() {
            for &u in next[v].iter().filter(|u| scc.contains(u)) {
                if u == start {
                    let mut path = vec![v];
                    while let Some(&p) = came_from.get(path.last().unwrap()) {
                        path.push(p);
                    }
                    path.reverse();
                    return path;
                }
                if let std::collections::btree_map::Entry::Vacant(e) = came_from.entry(u) {
                    e.insert(v);
                    queue.push_back(u);
                }
            }
        }
        vec![start]
    }

    /// Each cycle: its nodes, a shortest loop through it and the edges inside it.
    fn render_cycles(&self, label: &dyn Fn(&str, &str) -> String) -> String {
        let mut out = Vec::new();
        for scc in self.cycles() {
            let names: Vec<&str> = scc.iter().map(|&v| self.names[v].as_str()).collect();
            out.push(format!("a cycle of {}: {}", scc.len(), names.join(", ")));
            let cycle = self.cycle_in(&scc);
            let mut looped: Vec<&str> = cycle.iter().map(|&v| self.names[v].as_str()).collect();
            looped.push(looped[0]);
            out.push(format!("  e.g. {}", looped.join(" -> ")));
            out.push("  its edges:".to_string());
            for ((a, b), at) in &self.edges {
                if scc.contains(a) && scc.contains(b) {
                    out.push(format!(
                        "    {} -> {}{}: {}",
                        self.names[*a],
                        self.names[*b],
                        label(&self.names[*a], &self.names[*b]),
                        examples(at)
                    ));
                }
            }
        }
        out.join("\n")
    }
}

/// The graph of files: an edge for each reference to another file that is not the file's own
/// ancestor or descendant (a `mod.rs` re-exporting its children, a child using `super::`).
fn file_graph(krate: &Crate) -> Graph {
    let mut pairs = Pairs::new();
    for (n, f) in krate.files.iter().enumerate() {
        if f.module.is_empty() {
            continue;
        }
        for r in krate.refs(n) {
            let Some(to) = krate.file_of(&r.path) else {
                continue;
            };
            let g = &krate.files[to];
            if g.module.is_empty()
                || f.module.starts_with(&g.module)
                || g.module.starts_with(&f.module)
            {
                continue;
            }
            add(
                &mut pairs,
                &f.rel,
                &g.rel,
                format!("src/{}:{}", f.rel, r.line),
            );
        }
    }
    Graph::from_pairs(&pairs)
}

/// Whether an edge between top-level modules climbs, as a label.
fn climb_label(from: &str, to: &str) -> String {
    match (floor_of(from), floor_of(to)) {
        (Some(a), Some(b)) if b > a => format!(" (climbs {a} -> {b})"),
        _ => String::new(),
    }
}

// ---------------------------------------------------------------------------------------------
// The checks on the crate.

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn the_crate() -> Crate {
    let src = src_dir();
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths.sort();
    let sources: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).unwrap();
            let rel: Vec<_> = rel.iter().map(|c| c.to_string_lossy()).collect();
            (rel.join("/"), std::fs::read_to_string(p).unwrap())
        })
        .collect();
    assert!(sources.len() > 20, "found only {paths:?}");
    load(&sources)
}

/// What `check` finds in each file outside the dialects' homes, as `src/FILE: finding`.
fn in_shared_code(check: impl Fn(&[Tok]) -> Vec<String>) -> Vec<String> {
    let krate = the_crate();
    let shared = krate.files.iter().filter(|f| {
        !f.module
            .first()
            .is_some_and(|m| DIALECT_HOMES.contains(&m.as_str()))
    });
    shared
        .flat_map(|f| {
            check(&f.toks)
                .into_iter()
                .map(move |v| format!("src/{}: {v}", f.rel))
        })
        .collect()
}

#[test]
fn shared_code_names_no_dialect() {
    let owned = owned();
    let report = in_shared_code(|toks| dialect_names(toks, &owned));
    assert!(
        report.is_empty(),
        "shared code names a dialect; move it into the dialect's tables:\n{}",
        report.join("\n")
    );
}

/// An agent's own spellings of payload keys, from the tables: every key a flavour's payloads
/// carry (`payload_keys`, `key_renames`) that decoding renames (`sessionId`, `taskId`,
/// `conversation_id`, `agentId`), and every id a flavour's `call_keys` keeps under a name of
/// its own, not Claude's (Qwen's `tool_call_id`). The canonical names they decode to are Claude's, which
/// shared code may name; plain words (`output`) are left out, as in [`owned`].
fn payload_spellings() -> BTreeSet<&'static str> {
    let mut out = BTreeSet::new();
    // Claude's call keys are canonical names (its Stop's `stop_hook_active`).
    let claude = Flavor::all().iter().find(|f| f.name() == "claude").unwrap();
    let canonical: Vec<&str> = CANONICAL_CALL_KEYS
        .iter()
        .chain(claude.tables().protocol.call_keys)
        .copied()
        .collect();
    for &f in Flavor::all() {
        let t = f.tables();
        let sent = t.payload_keys.iter().flat_map(|(_, keys)| keys.iter());
        let renamed = t.key_renames.iter().map(|(_, native)| native);
        out.extend(
            sent.chain(renamed)
                .filter(|k| canonical_key(t, k) != **k)
                .copied(),
        );
        let own = t.protocol.call_keys.iter();
        out.extend(own.filter(|k| !canonical.contains(k)).copied());
    }
    out.retain(|k| words(k).len() > 1);
    out
}

/// A string literal in `toks` that is one of `spellings`.
fn spellings_in(toks: &[Tok], spellings: &BTreeSet<&str>) -> Vec<String> {
    toks.iter()
        .filter(|t| t.kind == Kind::Str && spellings.contains(t.text.as_str()))
        .map(|t| format!("line {}: \"{}\"", t.line, t.text))
        .collect()
}

/// Shared code reads decoded payloads by canonical names and the tables' own: an agent's
/// spelling written into it (the run-time claim's session and call fields were, until the
/// tables held them) holds for that agent alone, and does not follow a change of the tables.
#[test]
fn shared_code_reads_no_agents_payload_spelling() {
    let spellings = payload_spellings();
    let report = in_shared_code(|toks| spellings_in(toks, &spellings));
    assert!(
        report.is_empty(),
        "shared code reads an agent's spelling of a payload key; name it in the tables:\n{}",
        report.join("\n")
    );
}

#[test]
fn each_module_uses_only_its_floor_and_below() {
    for (k, (_, ms)) in FLOORS.iter().enumerate() {
        for m in *ms {
            assert_eq!(floor_of(m), Some(k), "`{m}` is on two floors in FLOORS");
        }
    }
    let found = floors(&the_crate());
    assert!(
        found.is_empty(),
        "the floors do not hold:\n{}",
        found.render()
    );
}

#[test]
fn top_level_modules_form_no_cycle() {
    let (pairs, _) = top_edges(&the_crate());
    let graph = Graph::from_pairs(&pairs);
    assert!(
        graph.cycles().is_empty(),
        "top-level modules use each other in a circle:\n{}",
        graph.render_cycles(&climb_label)
    );
}

/// A warning only, for now: run with `-- --nocapture` to see it.
#[test]
fn files_form_no_cycle() {
    let graph = file_graph(&the_crate());
    assert!(
        graph.cycles().is_empty(),
        "files use each other in a circle (a module and its own ancestors and descendants \
         aside):\n{}",
        graph.render_cycles(&|_, _| String::new())
    );
}

// ---------------------------------------------------------------------------------------------
// Probes: the checks can fail, and do not fail on what they should let pass.

fn krate(files: &[(&str, &str)]) -> Crate {
    let sources: Vec<(String, String)> = files
        .iter()
        .map(|(rel, text)| (rel.to_string(), text.to_string()))
        .collect();
    load(&sources)
}

/// The climbing references in a made-up crate, as `from -> to at file:line`.
fn climbs(files: &[(&str, &str)]) -> Vec<String> {
    floors(&krate(files))
        .climbs
        .iter()
        .flat_map(|((from, to), at)| at.iter().map(move |at| format!("{from} -> {to} at {at}")))
        .collect()
}

#[test]
fn probe_the_lexer_reads_literals_comments_and_lifetimes() {
    let toks = lex(
        "a /* x /* y */ z */ b'\\'' '\\u{1F600}' '}' r##\"q\"#}\"## br\"}\" c\"}\" \"\\\"}\" \
         r#type 'static 'a' x::y 1.5 // }\n b",
    );
    let seen: Vec<(Kind, &str)> = toks.iter().map(|t| (t.kind, t.text.as_str())).collect();
    assert_eq!(
        seen,
        [
            (Kind::Ident, "a"),
            (Kind::Char, "b'\\''"),
            (Kind::Char, "'\\u{1F600}'"),
            (Kind::Char, "'}'"),
            (Kind::Str, "q\"#}"),
            (Kind::Str, "}"),
            (Kind::Str, "}"),
            (Kind::Str, "\\\"}"),
            (Kind::Ident, "type"),
            (Kind::Lifetime, "static"),
            (Kind::Char, "'a'"),
            (Kind::Ident, "x"),
            (Kind::Punct, "::"),
            (Kind::Ident, "y"),
            (Kind::Number, "1.5"),
            (Kind::Ident, "b"),
        ]
    );
    assert_eq!(toks.last().unwrap().line, 2);
}

/// (a) A dialect literal after a test module is caught; nothing inside the module is, however
/// its braces hide in strings, chars and comments.
#[test]
fn probe_a_literal_after_a_test_module_is_caught() {
    let owned = owned();
    let name = Dialect::all()[0].name();
    let text = format!(
        r##"fn f() {{}}
#[cfg(test)]
mod tests {{
    // a brace in a comment: }}
    /* and in a /* nested */ block: }} */
    const S: &str = "}} {name}";
    const C: char = '}}';
    const E: char = '\'';
    const R: &str = r#"}} " }}"#;
    fn t<'a>(x: &'a str) -> &'a str {{ x }}
    #[test] fn u() {{ let _ = "{name}"; }}
}}
fn g() -> &'static str {{ "{name}" }}
"##
    );
    let found = violations(&text, &owned);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("line 13: "), "{found:?}");
    // The same in a module nested in a module, and after an `all(test, ..)` one.
    let nested = format!(
        "mod pretty {{\n    #[cfg(test)]\n    mod tests {{ const N: &str = \"{name}\"; }}\n    \
         fn h() {{ let _ = \"{name}\"; }}\n}}\n#[cfg(all(test, unix))]\nmod t {{}}\n\
         fn i() -> &'static str {{ \"{name}\" }}\n"
    );
    let found = violations(&nested, &owned);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0].starts_with("line 4: ") && found[1].starts_with("line 8: "));
}

/// (a2) The claim's field lists as they were, in shared code: the agents' spellings are
/// caught, the canonical names they decode to are not.
#[test]
fn probe_an_agents_payload_spelling_is_caught() {
    let text = r#"
const SESSION_FIELDS: &[&str] = &["session_id", "sessionId", "conversation_id", "taskId"];
const CALL_FIELDS: &[&str] = &["tool_use_id", "tool_call_id", "agent_id", "agentId"];
"#;
    let found = spellings_in(&production(&lex(text)).0, &payload_spellings());
    assert_eq!(
        found,
        [
            "line 2: \"sessionId\"",
            "line 2: \"conversation_id\"",
            "line 2: \"taskId\"",
            "line 3: \"tool_call_id\"",
            "line 3: \"agentId\"",
        ]
    );
}

/// (b) A file in `model` using `dialect`.
#[test]
fn probe_b_an_upward_use_is_caught() {
    let files = [
        ("lib.rs", "pub mod model;\npub mod dialect;\n"),
        (
            "model/mod.rs",
            "//! Events.\n\nuse crate::dialect::Dialect;\n",
        ),
        ("dialect/mod.rs", "pub struct Dialect;\nuse crate::model;\n"),
    ];
    assert_eq!(climbs(&files), ["model -> dialect at src/model/mod.rs:3"]);
    let render = floors(&krate(&files)).render();
    assert!(
        render.contains("model (floor 1 `model`) -> dialect (floor 3 `dialect`): 1 line"),
        "{render}"
    );
}

/// (c) An upward path in a use group, nested or not.
#[test]
fn probe_c_an_upward_use_in_a_group_is_caught() {
    let files = [
        ("model/mod.rs", "pub struct Event;"),
        ("cli.rs", "pub struct Cli;"),
        ("commands.rs", "pub fn run() {}"),
        (
            "dialect/mod.rs",
            "use crate::{model::Event, cli::Cli};\n\
             pub use crate::{\n    model::{self, Event as E},\n    commands::{self as d, run},\n};\n",
        ),
    ];
    assert_eq!(
        climbs(&files),
        [
            "dialect -> cli at src/dialect/mod.rs:1",
            "dialect -> commands at src/dialect/mod.rs:4",
        ]
    );
}

/// (d) An upward path inline in code, and one through `super::super`.
#[test]
fn probe_d_an_upward_inline_path_is_caught() {
    let files = [
        ("config/mod.rs", "pub mod read;"),
        (
            "config/read.rs",
            "pub fn f(x: u8) {\n    crate::commands::run(x)\n}\n\
             fn g() -> Vec::<crate::cli::Cli> { Vec::new() }\n",
        ),
        ("commands.rs", "pub fn run(_: u8) {}"),
        ("cli.rs", "pub struct Cli;"),
        ("model/mod.rs", "pub mod x;\npub mod y;"),
        ("model/x.rs", "fn f() {\n    super::super::cli::Cli;\n}\n"),
        // `super` from an inline module: `model::y::inner` → `model`: no climb.
        (
            "model/y.rs",
            "mod inner {\n    fn f() { super::super::cli::Cli; }\n}\n\
             mod deep { mod er { fn f() { super::super::super::super::commands::run(1) } } }\n",
        ),
    ];
    assert_eq!(
        climbs(&files),
        [
            "config -> cli at src/config/read.rs:4",
            "config -> commands at src/config/read.rs:2",
            "model -> cli at src/model/x.rs:2",
            "model -> commands at src/model/y.rs:4",
        ]
    );
}

/// (e) Two modules using each other.
#[test]
fn probe_e_a_two_module_cycle_is_caught() {
    let files = [
        ("model/mod.rs", "use crate::tables::T;\npub struct M;"),
        (
            "tables.rs",
            "pub struct T;\npub fn f(_: crate::model::M) {}",
        ),
        ("error.rs", "use crate::model::M;"),
    ];
    let (pairs, _) = top_edges(&krate(&files));
    let graph = Graph::from_pairs(&pairs);
    let cycles = graph.cycles();
    assert_eq!(cycles.len(), 1);
    let names: Vec<&str> = cycles[0].iter().map(|&v| graph.names[v].as_str()).collect();
    assert_eq!(names, ["model", "tables"]);
    let render = graph.render_cycles(&climb_label);
    assert!(render.contains("e.g. model -> tables -> model"), "{render}");
    assert!(
        render.contains("model -> tables (climbs 1 -> 2): 1 line: src/model/mod.rs:1"),
        "{render}"
    );
}

/// Comments, doc comments, strings and test-only items are not imports; code after them is.
#[test]
fn probe_comments_strings_and_tests_are_not_imports() {
    let model = r###"//! Uses [`crate::cli::Cli`] in a doc comment.
/// See [`crate::commands::run`] and crate::cli::Cli.
// use crate::cli::Cli;
/* crate::cli::run() /* nested crate::cli */ crate::cli */
const A: &str = "use crate::cli::Cli;";
const B: &str = r#"crate::commands::run(x) " }"#;
const C: &[u8] = b"crate::cli";
#[cfg(test)]
mod tests {
    use crate::cli::Cli;
    const Q: &str = "}";
}
#[cfg(test)]
use crate::cli::Cli;
#[cfg(test)]
#[allow(dead_code)]
pub(crate) fn helper() -> u8 { crate::commands::run(1) }
#[cfg(all(test, unix))]
mod unix_tests { use crate::cli::Cli; }
#[cfg(any(test, all(test, unix)))]
impl crate::model::X { fn f() { crate::cli::run() } }
#[test]
fn t() { crate::cli::run() }
#[cfg(test)]
const T: crate::cli::Cli = crate::cli::Cli { a: 1 };
struct S {
    #[cfg(test)]
    cli: crate::cli::Cli,
    a: u8,
}
fn g() {
    #[cfg(test)]
    let _ = crate::cli::run();
    #[cfg(test)]
    { crate::cli::run(); }
    match 1 {
        #[cfg(test)]
        0 => crate::cli::run(),
        _ => {}
    }
}
mod inner {
    #![cfg(test)]
    use crate::cli::Cli;
}
#[cfg(test)]
mod tests_file;
#[cfg(not(test))]
use crate::cli::A;
#[cfg(any(test, feature = "x"))]
use crate::commands::B;
fn last() { crate::cli::run() }
"###;
    let files = [
        ("model/mod.rs", model),
        ("model/tests_file.rs", "use crate::cli::Cli;"),
        ("model/only.rs", "#![cfg(test)]\nuse crate::cli::Cli;"),
        ("cli.rs", ""),
        ("commands.rs", ""),
    ];
    let lines = model.lines().count();
    assert_eq!(
        climbs(&files),
        [
            format!("model -> cli at src/model/mod.rs:{}", lines - 3),
            format!("model -> cli at src/model/mod.rs:{lines}"),
            format!("model -> commands at src/model/mod.rs:{}", lines - 1),
        ]
    );
}

#[test]
fn probe_a_module_on_no_floor_and_a_root_glob_are_caught() {
    let found = floors(&krate(&[
        ("lib.rs", "pub mod newthing;"),
        ("newthing.rs", ""),
        ("newdir/mod.rs", "pub mod leaf;"),
        ("newdir/leaf.rs", ""),
        ("model/mod.rs", "use crate::*;"),
        ("error.rs", "use super::*;"),
    ]));
    let misplaced: Vec<&str> = found.misplaced.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(misplaced, ["newdir", "newthing"]);
    assert_eq!(found.root_globs, ["src/model/mod.rs:1", "src/error.rs:1"]);
    let render = found.render();
    assert!(render.contains("module `newthing` (src/newthing.rs) is on no floor: place it"));
}

/// File cycles: between siblings yes, with a module's own `mod.rs` no.
#[test]
fn probe_file_cycles_leave_out_ancestors() {
    let files = [
        (
            "config/mod.rs",
            "pub mod a;\npub mod b;\npub use a::A;\nfn f() { b::B; }",
        ),
        (
            "config/a.rs",
            "use super::b;\npub struct A;\nfn f() { b::B; super::f(); }",
        ),
        (
            "config/b.rs",
            "use crate::config::a::A;\npub struct B;\nfn f() { super::A; }",
        ),
        ("model/mod.rs", "pub struct M;"),
    ];
    let graph = file_graph(&krate(&files));
    let edges: Vec<(&str, &str, &Vec<String>)> = graph
        .edges
        .iter()
        .map(|((a, b), at)| (graph.names[*a].as_str(), graph.names[*b].as_str(), at))
        .collect();
    assert_eq!(
        edges,
        [
            (
                "config/a.rs",
                "config/b.rs",
                &vec![
                    "src/config/a.rs:1".to_string(),
                    "src/config/a.rs:3".to_string()
                ]
            ),
            (
                "config/b.rs",
                "config/a.rs",
                &vec!["src/config/b.rs:1".to_string()]
            ),
        ]
    );
    assert_eq!(graph.cycles().len(), 1);
}

/// The check can fail: each kind of naming the scan must catch, in a made-up file.
#[test]
fn the_scan_catches_each_way_of_naming_a_dialect() {
    let owned = owned();
    let d = Dialect::all()[0];
    let def = d.def();
    let display = def.display;
    let env = def.host.env_markers[0];
    let variant = {
        let mut name = d.name().to_string();
        name[..1].make_ascii_uppercase();
        name
    };
    let bad = [
        format!("match d {{ Dialect::{variant} => 1, _ => 0 }}"),
        format!("let f = {}::FLAVOR;", d.name()),
        format!("fn is_{}_event() {{}}", d.name()),
        format!("if d.name() == \"{}\" {{}}", d.name()),
        format!("std::env::var(\"{env}\")"),
        format!("let p = \"x/{}\";", def.locations[0].id),
        format!("let m = \"hooks run in {display} only\";"),
        format!("let m = r#\"{}\"#;", d.config().convert_target),
    ];
    for text in &bad {
        assert!(!violations(text, &owned).is_empty(), "not caught: {text}");
    }
    let fine = [
        format!(
            "// {display} does this; so does \"{}\"\nfn f() {{}}",
            d.name()
        ),
        format!(
            "#[command(after_help = \"hookx convert --to {}\")]\nstruct A;",
            d.name()
        ),
        format!(
            "fn f() {{}}\n#[cfg(test)]\nmod tests {{ use {}::DIALECT; }}",
            d.name()
        ),
        "let x = Dialect::all()[0].name(); let c = 'a'; let s = \"it's fine\";".to_string(),
    ];
    for text in &fine {
        assert_eq!(violations(text, &owned), Vec::<String>::new(), "{text}");
    }
}

/// "A new dialect is its file, its fixtures and its facts page" (README, "Adding a dialect"):
/// every registered dialect has its fixtures (`tests/fixtures/<name>/`, which the suites find by
/// its name), its schema (`schemas/`) and its facts page (`conformance/<name>-facts.md`).
#[test]
fn each_dialect_has_its_fixtures_schema_and_facts_page() {
    // Bricks' facts are its seed documents (Claude's and Copilot's have pages now, issue 25).
    const FACTS_ELSEWHERE: [&str; 1] = ["bricks"];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    for &d in Dialect::all() {
        let name = d.name();
        let fixtures = root.join("tests/fixtures").join(name);
        let has_fixtures = std::fs::read_dir(&fixtures).is_ok_and(|mut e| e.next().is_some());
        if !has_fixtures {
            missing.push(format!(
                "{name}: tests/fixtures/{name}/, with at least one of its hook files"
            ));
        }
        let schema = hookx::commands::schema::file_name(d);
        if !root.join("schemas").join(schema).is_file() {
            missing.push(format!("{name}: schemas/{schema}"));
        }
        let facts = format!("conformance/{name}-facts.md");
        match (root.join(&facts).is_file(), FACTS_ELSEWHERE.contains(&name)) {
            (false, false) => missing.push(format!("{name}: {facts}")),
            (true, true) => missing.push(format!(
                "{name} has {facts} now: take it off FACTS_ELSEWHERE in tests/architecture.rs"
            )),
            _ => {}
        }
    }
    for name in FACTS_ELSEWHERE {
        assert!(Dialect::named(name).is_some(), "{name} is not registered");
    }
    assert!(
        missing.is_empty(),
        "a registered dialect lacks a part (README, \"Adding a dialect\"):\n{}",
        missing.join("\n")
    );
}
