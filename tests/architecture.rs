//! "A new dialect is one file" (issue 12): code outside `src/dialect/` never names a dialect.
//!
//! Every `.rs` file under `src/` except `src/dialect/` is scanned, without its comments,
//! attributes (`--help` examples) and `#[cfg(test)]` modules (tests may name dialects). It
//! fails on:
//! - an identifier with a registered dialect's name as a word (`Dialect::Claude`,
//!   `claude::DIALECT`, `is_claude_event`, `COPILOT_KEYS`);
//! - a string literal that is a dialect or flavour name, or a kill switch (`"disableAllHooks"`);
//! - a string literal holding a string the tables own: an environment variable, a path or file
//!   name, a location id, a schema file, a document kind, or an agent's display name as a word.
//!
//! The strings come from the registry itself, so a new dialect's strings are checked as soon as
//! its file is registered.

use hookx::dialect::{Dialect, Flavor, TrustRecord};
use hookx::discover::Pattern;
use std::path::{Path, PathBuf};

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
                TrustRecord::List { file, key } => o.within.extend([file, key]),
                TrustRecord::Levels {
                    file,
                    trust_folder,
                    trust_parent,
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

/// Code and string literals of a Rust source, comments and attributes left out.
struct Scanned {
    code: String,
    literals: Vec<(usize, String)>,
}

fn scan(text: &str) -> Scanned {
    let b = text.as_bytes();
    let (mut code, mut literals) = (String::new(), Vec::new());
    let line_of = |i: usize| text[..i].matches('\n').count() + 1;
    let mut i = 0;
    // Depth of `[` inside an attribute; 0 outside attributes.
    let mut attr = 0usize;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if let Some((len, body)) = literal(rest) {
            if attr == 0 {
                literals.push((line_of(i), body));
                code.push_str("\"\"");
            }
            i += len;
        } else if rest.starts_with("'") && rest.len() > 2 && char_literal(rest).is_some() {
            i += char_literal(rest).unwrap();
        } else if attr == 0 && (rest.starts_with("#[") || rest.starts_with("#![")) {
            attr = 1;
            i += rest.find('[').unwrap() + 1;
        } else {
            let c = rest.chars().next().unwrap();
            if attr > 0 {
                match c {
                    '[' => attr += 1,
                    ']' => attr -= 1,
                    _ => {}
                }
            } else {
                code.push(c);
            }
            i += c.len_utf8();
        }
    }
    Scanned { code, literals }
}

/// A string literal at the start of `s` (plain, byte or raw): its length and its body.
fn literal(s: &str) -> Option<(usize, String)> {
    let start = s.strip_prefix('b').unwrap_or(s);
    let prefix = s.len() - start.len();
    if let Some(raw) = start.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let body = raw[hashes..].strip_prefix('"')?;
        let end = body.find(&format!("\"{}", "#".repeat(hashes)))?;
        return Some((
            prefix + 1 + hashes + 1 + end + 1 + hashes,
            body[..end].into(),
        ));
    }
    let body = start.strip_prefix('"')?;
    let mut escaped = false;
    for (j, c) in body.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return Some((prefix + 1 + j + 1, body[..j].into())),
            _ => escaped = false,
        }
    }
    None
}

/// The length of a char literal at the start of `s` (not a lifetime).
fn char_literal(s: &str) -> Option<usize> {
    let body = &s[1..];
    let len = if let Some(esc) = body.strip_prefix('\\') {
        1 + esc.find('\'')?
    } else {
        body.chars().next()?.len_utf8()
    };
    (body[len..].starts_with('\'')).then_some(len + 2)
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

/// Everything in `text` (one source file) that names a dialect.
fn violations(text: &str, owned: &Owned) -> Vec<String> {
    // Test modules may name dialects: they sit at the end of a file.
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => text,
    };
    let scanned = scan(text);
    let mut found = Vec::new();
    let mut ident = String::new();
    for c in scanned.code.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' {
            ident.push(c);
            continue;
        }
        if !ident.is_empty() {
            let ws = words(&ident);
            if let Some(name) = owned.names.iter().find(|n| ws.contains(n)) {
                found.push(format!("identifier `{ident}` names {name}"));
            }
            ident.clear();
        }
    }
    for (line, lit) in &scanned.literals {
        let hit = owned
            .exact
            .iter()
            .find(|s| lit == *s)
            .or_else(|| owned.within.iter().find(|s| lit.contains(*s)))
            .or_else(|| owned.words.iter().find(|s| has_word(lit, s)));
        if let Some(s) = hit {
            found.push(format!(
                "line {line}: \"{lit}\" holds the table string `{s}`"
            ));
        }
    }
    found
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

#[test]
fn shared_code_names_no_dialect() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.retain(|f| !f.starts_with(src.join("dialect")));
    assert!(files.len() > 20, "found only {files:?}");
    let owned = owned();
    let mut report = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for v in violations(&text, &owned) {
            report.push(format!(
                "{}: {v}",
                file.strip_prefix(&src).unwrap().display()
            ));
        }
    }
    assert!(
        report.is_empty(),
        "shared code names a dialect; move it into the dialect's tables:\n{}",
        report.join("\n")
    );
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
    // The first three: their facts are in `conformance/README.md` (the live suites of Claude
    // Code and Copilot CLI), `tests/claude_facts.rs` and, for Bricks, its seed documents.
    const FACTS_ELSEWHERE: [&str; 3] = ["claude", "copilot", "bricks"];
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
        let schema = hookx::schema::file_name(d);
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
