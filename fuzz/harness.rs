//! The entry points the fuzz targets drive, shared with `tests/regressions.rs` (which includes
//! this file with `#[path]`), so that a crashing input kept under
//! `tests/fixtures/regressions/<target>/` is replayed through exactly the code that found it.
//!
//! Every function takes arbitrary bytes, must not panic, and checks that what comes back is a
//! proper answer: an `Err` carries at least one diagnostic with a message and a position that
//! exists in the input, and everything renders.

#![allow(dead_code)]

use hookx::config::{detect, syntax};
use hookx::diag::Diagnostic;
use hookx::error::Error;
use hookx::positions;
use hookx::source::SourceFile;
use hookx::tables::{Dialect, Flavor};

/// A target's entry point.
pub type Target = fn(&[u8]);

/// The targets, by the name of their folder under `tests/fixtures/regressions/`.
pub const TARGETS: &[(&str, Target)] = &[
    ("read_json", read_json),
    ("read_markdown", read_markdown),
    ("frontmatter", frontmatter),
    ("locate", locate),
    ("detect", detect),
    ("decode_event", decode_event),
    ("trust_mix", trust_mix),
];

/// Config text is UTF-8 (`SourceFile::read` refuses anything else); arbitrary bytes are read
/// lossily so that every input reaches the parsers.
fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// `a\0b` → (`a`, `b`); no NUL → (all, None).
fn split_nul(data: &[u8]) -> (&[u8], Option<&[u8]>) {
    match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], Some(&data[i + 1..])),
        None => (data, None),
    }
}

fn check_diagnostic(src: Option<&SourceFile>, d: &Diagnostic) {
    assert!(!d.message.is_empty(), "a diagnostic without a message");
    if let Some(src) = src {
        // Config diagnostics always name a real line (payload ones may say 0 = unknown).
        assert!(d.line >= 1 && d.col >= 1, "{}:{}: {d:?}", d.line, d.col);
        let lines = src.text.split('\n').count().max(1);
        assert!(
            d.line <= lines,
            "line {} of a {lines}-line file: {}",
            d.line,
            d.message
        );
    }
    let _ = d.to_string();
}

fn check_error(src: Option<&SourceFile>, e: &Error) {
    match e {
        Error::Invalid(diags) => {
            assert!(!diags.is_empty(), "Error::Invalid without a diagnostic");
            for d in diags {
                check_diagnostic(src, d);
            }
        }
        Error::Usage(m) => assert!(!m.is_empty()),
        Error::Io { message, .. } => assert!(!message.is_empty()),
    }
    assert!(!e.to_string().is_empty());
}

/// Reads `src` as `dialect`; what reads is validated, converted to every dialect and written.
fn read_as(src: &SourceFile, dialect: Dialect) {
    match hookx::config::read(src, dialect) {
        Ok(parsed) => {
            for d in &parsed.diagnostics {
                check_diagnostic(Some(src), d);
            }
            if parsed.has_errors() {
                return;
            }
            for d in hookx::commands::validate::check(src, &parsed.document) {
                check_diagnostic(Some(src), &d);
            }
            let _ = hookx::config::write::to_text(&parsed.document);
            for &to in Dialect::all() {
                let options = hookx::convert::Options {
                    to,
                    wrap: to != dialect,
                    hookx: "hookx".into(),
                    copies_into: None,
                };
                let out = hookx::convert::convert(&[(src, &parsed.document)], &options);
                let written = hookx::config::write::to_text(&out.document);
                // What hookx writes, hookx reads (a same-dialect conversion of a skill or agent
                // file stays markdown).
                let path = if out.document.kind.frontmatter {
                    "converted/SKILL.md"
                } else {
                    "converted.json"
                };
                let back = SourceFile::new(path, written);
                if let Err(e) = hookx::config::read(&back, to) {
                    panic!("converted output does not read back: {e}\n{}", back.text);
                }
            }
        }
        Err(e) => check_error(Some(src), &e),
    }
}

/// `config::read` of JSON text in every dialect, as a settings file and as a plugin file.
pub fn read_json(data: &[u8]) {
    let text = text(data);
    for &dialect in Dialect::all() {
        read_as(&SourceFile::new("p/settings.json", text.as_str()), dialect);
    }
    read_as(
        &SourceFile::new("plugin/hooks/hooks.json", text.as_str()),
        hookx::dialect::claude::DIALECT,
    );
}

/// `config::read` of a markdown file (YAML frontmatter) in every dialect.
pub fn read_markdown(data: &[u8]) {
    let text = text(data);
    for &dialect in Dialect::all() {
        read_as(
            &SourceFile::new("skills/x/SKILL.md", text.as_str()),
            dialect,
        );
    }
}

/// The frontmatter reader: the split is exact and parsing answers.
pub fn frontmatter(data: &[u8]) {
    let text = text(data);
    if let Some(front) = syntax::split_frontmatter(&text) {
        // The file is exactly: opening fence, YAML, closing fence line, body.
        let open = if text.starts_with("---\r\n") { 5 } else { 4 };
        let rest = &text[open..];
        assert!(
            rest.starts_with(&front.yaml),
            "the YAML is not after the fence"
        );
        assert!(
            rest.ends_with(&front.body),
            "the body is not the end of the file"
        );
        let fence = &rest[front.yaml.len()..rest.len() - front.body.len()];
        assert_eq!(fence.trim_end(), "---", "the closing fence is not one line");
        assert!(!fence.trim_end_matches(['\r', '\n']).contains('\n'));
    }
    let src = SourceFile::new("agent.md", text.as_str());
    if let Err(e) = syntax::parse_frontmatter(&src) {
        check_error(Some(&src), &e);
    }
}

/// `locate_json` / `locate_yaml` with an arbitrary pointer: `TEXT\0POINTER`; without a NUL a
/// few pointers into the usual shape are tried.
pub fn locate(data: &[u8]) {
    let (text_bytes, pointer) = split_nul(data);
    let text = text(text_bytes);
    let pointers: Vec<String> = match pointer {
        Some(p) => vec![String::from_utf8_lossy(p).into_owned()],
        None => [
            "",
            "/hooks",
            "/hooks/PreToolUse/0",
            "/hooks/PreToolUse/0/hooks/0/command",
            "/hooks/preToolUse/0/bash",
            "/0/1",
        ]
        .map(String::from)
        .to_vec(),
    };
    for pointer in &pointers {
        for offset in [
            positions::locate_json(&text, pointer),
            positions::locate_yaml(&text, pointer),
        ]
        .into_iter()
        .flatten()
        {
            assert!(offset <= text.len(), "offset {offset} past the end");
            assert!(
                text.is_char_boundary(offset),
                "offset {offset} inside a char"
            );
            let _ = positions::line_col(&text, offset);
        }
    }
    // The one-pass scan that `convert` uses for its loss items gives, on every text the index
    // can read, exactly the index's answers.
    if positions::JsonPositions::new(&text).is_some() {
        let src = SourceFile::new("f.json", text.as_str());
        let refs: Vec<&str> = pointers.iter().map(String::as_str).collect();
        for (pointer, many) in refs.iter().zip(syntax::locate_many(&src, &refs)) {
            assert_eq!(
                many,
                positions::locate_json(&text, pointer),
                "pointer {pointer:?}"
            );
        }
    }
}

/// `detect` for arbitrary content under arbitrary paths: `TEXT\0PATH`, or a few usual paths.
pub fn detect(data: &[u8]) {
    let (text_bytes, path) = split_nul(data);
    let text = text(text_bytes);
    let paths: Vec<String> = match path {
        Some(p) => vec![String::from_utf8_lossy(p).into_owned()],
        None => [
            "a.json",
            "a.md",
            "repo/.github/hooks/x.json",
            "C:\\p\\.bricks\\hooks.json",
        ]
        .map(String::from)
        .to_vec(),
    };
    for path in paths {
        let src = SourceFile::new(path, text.as_str());
        match detect::detect(&src) {
            Ok(dialect) => {
                let _ = hookx::config::read(&src, dialect);
            }
            Err(e) => check_error(Some(&src), &e),
        }
    }
}

/// Every host's payload decoder, with and without a registered event name (`PAYLOAD\0EVENT`,
/// or a few usual names); what decodes is re-encoded for every flavour.
pub fn decode_event(data: &[u8]) {
    let (payload, event) = split_nul(data);
    let event = event.map(|e| String::from_utf8_lossy(e).into_owned());
    let names: Vec<Option<&str>> = match &event {
        Some(e) => vec![Some(e.as_str())],
        None => vec![
            None,
            Some("preToolUse"),
            Some("PreToolUse"),
            Some("permissionRequest"),
        ],
    };
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(payload) {
        let _ = hookx::protocol::detect_host(&value);
    }
    for &host in Dialect::all() {
        for name in &names {
            let result = match name {
                None => hookx::protocol::decode_event(payload, host),
                Some(name) => hookx::protocol::decode_event_as(payload, host, Some(name)),
            };
            match result {
                Ok((event, flavor)) => {
                    assert_eq!(flavor.dialect(), host);
                    for &to in Flavor::all() {
                        let encoded = hookx::protocol::encode_event(&event, to);
                        let _ = hookx::protocol::handler_env(&event, to, "/p", Some("/p/hooks"));
                        // What hookx sends a handler of `to`, hookx reads as that dialect.
                        let bytes = serde_json::to_vec(&encoded).expect("a JSON value");
                        if let Err(e) = hookx::protocol::decode_event_as(
                            &bytes,
                            to.dialect(),
                            Some(event.kind.name()),
                        ) {
                            check_error(None, &e);
                        }
                    }
                }
                Err(e) => check_error(None, &e),
            }
        }
    }
}

/// Where the hostile files of [`trust_mix`] go: every place hookx looks, project and home.
const UNTRUSTED_PLACES: &[&str] = &[
    "project/.github/hooks/a.json",
    "project/.github/hooks/b.json",
    "project/.bricks/hooks.json",
    "project/.claude/settings.json",
    "project/.claude/settings.local.json",
    "home/.claude/settings.json",
    "home/.copilot/hooks/u.json",
    "home/.claude/plugins/cache/m/p/1.0.0/hooks/hooks.json",
    "project/.claude/skills/s/SKILL.md",
    "project/.claude/agents/a.md",
    "project/.gemini/settings.json",
    "project/.codex/hooks.json",
    "project/.cursor/hooks.json",
    "project/.qwen/settings.json",
    "home/.gemini/settings.json",
    "home/.codex/hooks.json",
];

/// The trusted files: a Bricks deny and a Copilot deny of the shell tool, in the home.
const TRUSTED_FILES: &[(&str, &str)] = &[
    (
        "home/.bricks-project-desktop/hooks.json",
        r#"{"hooks": {"PreToolUse": [{"matcher": "ba.h", "hooks": [{"type": "command", "command": "exit 2"}]}]}}"#,
    ),
    (
        "home/.copilot/hooks/trusted.json",
        r#"{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "exit 3", "matcher": "bash|(a+)+$"}]}}"#,
    ),
];

/// Discovery + trust + dispatch with trusted and untrusted files mixed: untrusted files of any
/// content at any place hookx looks (some of them symlinks to a trusted file) never change what
/// the trusted files decide, under any host. Input: files separated by NUL, at most 10; each
/// file's first byte picks its place (low 4 bits) and whether it is a symlink to a trusted file
/// (high bit) instead of holding the rest as its content.
pub fn trust_mix(data: &[u8]) {
    let files: Vec<&[u8]> = data.split(|&b| b == 0).take(10).collect();
    let alone = trust_world(&[]);
    let mixed = trust_world(&files);
    assert_eq!(mixed, alone, "untrusted files changed the trusted outcome");
}

/// For each host: the handlers a shell PreToolUse selects (file, rule, command) and the rules
/// skipped, with `files` (see [`trust_mix`]) beside the trusted ones.
fn trust_world(files: &[&[u8]]) -> Vec<(Vec<String>, Vec<String>)> {
    use hookx::discover::{self, Context};
    use hookx::dispatch::select::{can_fire, select};
    use hookx::model::{Event, EventKind, ToolCall, tool::ids};
    use hookx::trust::TrustStore;

    let dir = tempfile::tempdir().expect("a temporary directory");
    let root = dir.path().canonicalize().expect("a canonical path");
    let put = |rel: &str| {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
        path
    };
    for (rel, text) in TRUSTED_FILES {
        std::fs::write(put(rel), text).expect("a trusted file");
    }
    for file in files {
        let Some((&head, content)) = file.split_first() else {
            continue;
        };
        let place = UNTRUSTED_PLACES[usize::from(head & 0x0f) % UNTRUSTED_PLACES.len()];
        let path = put(place);
        let _ = std::fs::remove_file(&path);
        #[cfg(unix)]
        if head & 0x80 != 0 {
            let target = root.join(TRUSTED_FILES[usize::from((head >> 4) & 1)].0);
            let _ = std::os::unix::fs::symlink(target, &path);
            continue;
        }
        std::fs::write(&path, content).expect("an untrusted file");
    }
    std::fs::create_dir_all(root.join("project")).expect("the project");
    std::fs::create_dir_all(root.join("home")).expect("the home");
    let ctx = Context::new(root.join("project"), root.join("home"));
    // The trusted files, trusted where they live (as `hookx trust FILE` does).
    let mut store = TrustStore::default();
    for (rel, _) in TRUSTED_FILES {
        let source = discover::find(&ctx, &root.join(rel)).expect("a trusted file is found");
        assert!(store.trust_source(&source), "{rel} is trusted");
    }
    let event = Event {
        kind: EventKind::PreToolUse,
        timestamp: None,
        tool: Some(ToolCall {
            name: ids::SHELL.into(),
            input: serde_json::json!({"command": "ls"}),
            other_ids: Vec::new(),
            rewrite: None,
        }),
        fields: Default::default(),
        result: None,
    };
    let fires = |rules: &[hookx::tables::Rule]| can_fire(rules, &event);
    Dialect::all()
        .iter()
        .map(|&host| {
            let sources = discover::discover_firing(&ctx, host, &event.kind, &fires, &store);
            let rules = discover::dispatch_rules(&sources, host, &store);
            let (selected, skipped) =
                select(rules.iter().map(|r| (r.rule.as_ref(), r.source)), &event);
            let selected = selected
                .iter()
                .map(|s| {
                    format!(
                        "{host} {} {} {:?}",
                        s.source.display, s.rule.origin.pointer, s.handler.kind
                    )
                })
                .collect();
            let skipped = skipped.iter().map(|s| s.reason.clone()).collect();
            (selected, skipped)
        })
        .collect()
}
