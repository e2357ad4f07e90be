//! Property tests: what hookx writes, it reads back as the same model; converting A → B → A
//! keeps every rule B can express.

use hookx::config::{read, write};
use hookx::convert::{self, Options};
use hookx::dialect::{bricks, claude, copilot};
use hookx::model::{Command, EventKind, Handler, HandlerKind};
use hookx::source::SourceFile;
use hookx::tables::{Dialect, Flavor};
use hookx::tables::{Document, DocumentKind, Origin, Rule, RuleShape};
use proptest::prelude::*;
use serde_json::{Map, Value};

fn kind_of(dialect: Dialect) -> &'static DocumentKind {
    dialect.config().documents.file
}

const MATCHERS: &[Option<&str>] = &[
    None,
    Some("Bash"),
    Some("Edit|Write"),
    Some("mcp__.*"),
    Some("Edit.*"),
    Some("*"),
];
const COPILOT_MATCHERS: &[Option<&str>] = &[
    None,
    Some("bash"),
    Some("edit|create"),
    Some("mcp__.*"),
    Some("view"),
];
const COMMANDS: &[&str] = &[
    "./hooks/check.sh",
    "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/fmt.sh --all",
    "jq -r '.tool_input.command' >> /tmp/log",
    "printf 'multi\\nline' && echo \"done\"",
];

fn handler(dialect: Dialect) -> impl Strategy<Value = Handler> {
    (
        0..COMMANDS.len(),
        proptest::option::of(1u64..900),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(move |(c, timeout, extra, alt)| {
            let line = COMMANDS[c].to_string();
            let mut command = Command::default();
            match dialect.name() {
                "copilot" if alt => {
                    command.command = Some(line);
                    command.windows = Some("pwsh -File check.ps1".into());
                }
                "copilot" => {
                    command.bash = Some(line);
                    command.cwd = Some("scripts".into());
                    let mut env = Map::new();
                    env.insert("LEVEL".into(), Value::String("$HOME/x".into()));
                    command.env = Some(env);
                }
                "claude" => {
                    command.command = Some(line);
                    command.is_async = alt.then_some(true);
                }
                _ => command.command = Some(line),
            }
            let mut fields = Map::new();
            if extra {
                fields.insert("x-note".into(), Value::String("kept".into()));
            }
            Handler {
                kind: HandlerKind::Command(command),
                timeout,
                status_message: (dialect == claude::DIALECT && alt).then(|| "Checking…".into()),
                once: None,
                extra: fields,
            }
        })
}

fn document(dialect: Dialect) -> impl Strategy<Value = Document> {
    let flavors: Vec<Flavor> = Flavor::all()
        .iter()
        .copied()
        .filter(|f| f.dialect() == dialect)
        .collect();
    let rule = (
        proptest::sample::select(flavors),
        any::<prop::sample::Index>(),
        any::<prop::sample::Index>(),
        proptest::collection::vec(handler(dialect), 1..3),
        any::<bool>(),
    )
        .prop_map(move |(flavor, event, matcher, handlers, flat)| {
            let events = flavor.tables().events;
            let event = events[event.index(events.len())].0.clone();
            let pool = if flavor == copilot::FLAVOR {
                COPILOT_MATCHERS
            } else {
                MATCHERS
            };
            let matcher = pool[matcher.index(pool.len())].map(str::to_string);
            let flat = flat && dialect == copilot::DIALECT;
            Rule {
                event,
                flavor,
                matcher,
                handlers: if flat {
                    handlers[..1].to_vec()
                } else {
                    handlers
                },
                shape: if flat {
                    RuleShape::Flat
                } else {
                    RuleShape::Group
                },
                extra: Map::new(),
                origin: Origin::default(),
            }
        });
    proptest::collection::vec(rule, 0..8).prop_map(move |mut rules| {
        // A file groups rules under their event key, in order of first appearance.
        let mut order: Vec<(EventKind, Flavor)> = Vec::new();
        for r in &rules {
            if !order.contains(&(r.event.clone(), r.flavor)) {
                order.push((r.event.clone(), r.flavor));
            }
        }
        rules.sort_by_key(|r| order.iter().position(|k| *k == (r.event.clone(), r.flavor)));
        let mut doc = Document::new(dialect, kind_of(dialect));
        if dialect == copilot::DIALECT {
            doc.extra.insert("version".into(), Value::from(1));
        }
        doc.rules = rules;
        doc
    })
}

fn reread(doc: &Document) -> Document {
    let text = write::to_text(doc);
    let parsed = read(
        &SourceFile::new("generated.json", text.clone()),
        doc.dialect,
    )
    .expect("hookx reads what it writes");
    assert!(!parsed.has_errors(), "{text}\n{:?}", parsed.diagnostics);
    normalize(parsed.document)
}

fn normalize(mut doc: Document) -> Document {
    for rule in &mut doc.rules {
        rule.origin = Origin::default();
    }
    doc.hooks_index = 0;
    doc
}

proptest! {
    #[test]
    fn claude_round_trips(doc in document(claude::DIALECT)) {
        prop_assert_eq!(reread(&doc), normalize(doc));
    }

    #[test]
    fn copilot_round_trips(doc in document(copilot::DIALECT)) {
        prop_assert_eq!(reread(&doc), normalize(doc));
    }

    #[test]
    fn bricks_round_trips(doc in document(bricks::DIALECT)) {
        prop_assert_eq!(reread(&doc), normalize(doc));
    }

    /// A → B → A: every rule B can express comes back with the same event, the same command
    /// line and a matcher that matches the same tools.
    #[test]
    fn conversion_there_and_back_keeps_expressible_rules(
        (from, via, doc) in (0usize..3, 0usize..3)
            .prop_filter("two different dialects", |(a, b)| a != b)
            .prop_flat_map(|(a, b)| (Just(Dialect::all()[a]), Just(Dialect::all()[b]), document(Dialect::all()[a])))
    ) {
        let src = SourceFile::new("a.json", write::to_text(&doc));
        let options = |to| Options { to, wrap: false, hookx: "hookx".into() };
        let there = convert::convert(&[(&src, &doc)], &options(via));
        let mid_src = SourceFile::new("b.json", write::to_text(&there.document));
        let mid = read(&mid_src, via).unwrap().document;
        let back = convert::convert(&[(&mid_src, &mid)], &options(from));
        // Every rule that survived the first step survives the second, with the same event
        // and command line.
        let commands = |d: &Document| -> Vec<(EventKind, String)> {
            d.rules.iter().flat_map(|r| r.handlers.iter().map(move |h| match &h.kind {
                HandlerKind::Command(c) => (r.event.clone(), c.unix_line().unwrap_or_default().replace("BRICKS_PROJECT_DIR", "CLAUDE_PROJECT_DIR").replace("COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR").replace("$PWD", "$CLAUDE_PROJECT_DIR")),
                _ => (r.event.clone(), String::new()),
            })).collect()
        };
        let mut expected = commands(&there.document);
        let mut got = commands(&back.document);
        expected.sort();
        got.sort();
        prop_assert_eq!(got, expected);
    }
}
