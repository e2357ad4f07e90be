//! Round trips A → B → A and what makes one the identity (what the first conversion reported
//! lost aside): shared by `tests/roundtrip.rs` (every fixture) and `tests/corpus.rs` (the
//! public corpus).

use hookx::config::{Parsed, read, write};
use hookx::convert::{self, Loss, Options};
use hookx::model::HandlerKind;
use hookx::source::SourceFile;
use hookx::tables::{Dialect, Document, DocumentKind, Rule};
use serde_json::{Value, json};
use std::path::Path;

pub fn kind_of(dialect: Dialect) -> &'static DocumentKind {
    dialect.config().documents.file
}

// ---------------------------------------------------------------------------------------------
// Writing and reading back.

/// A document as its dialect writes it (the config text, or for a dialect whose hooks are one
/// script per event the scripts, written into `dir`), read back.
pub fn write_and_read(doc: &Document, dir: &Path) -> (String, Parsed) {
    let dialect = doc.dialect;
    if let Some(layout) = dialect.config().scripts {
        let (scripts, left) =
            hookx::config::scripts::emit(doc, layout, &hookx::dispatch::select::may_fire);
        assert!(left.is_empty(), "scripts left over: {left:?}");
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).unwrap();
        let mut text = String::new();
        for (name, script) in &scripts {
            hookx::config::scripts::write_executable(&dir.join(name), script).unwrap();
            text.push_str(&format!("==> {name} <==\n{script}"));
        }
        let shown = dir.display().to_string();
        let parsed = hookx::config::scripts::read_path(dir, &shown, dialect, layout);
        return (text, parsed);
    }
    let text = write::to_text(doc);
    let name = match doc.kind.frontmatter {
        true => format!("written.{dialect}.md"),
        false => format!("written.{dialect}.json"),
    };
    let parsed = read(&SourceFile::new(name, text.clone()), dialect)
        .unwrap_or_else(|e| panic!("{dialect}: hookx does not read what it wrote: {e}\n{text}"));
    (text, parsed)
}

/// The source a written document is read from: its text, or none for a hook folder (whose
/// rules name their scripts).
pub fn source_of(doc: &Document, text: &str, dir: &Path) -> SourceFile {
    match doc.dialect.config().scripts {
        Some(_) => SourceFile::new(dir.display().to_string(), String::new()),
        None => SourceFile::new(format!("written.{}.json", doc.dialect), text.to_string()),
    }
}

/// The dialects a round trip goes through: those hookx both writes and reads back (every
/// registered dialect today: an empty document of each is written and read back). A
/// write-only target would have no way back and is left out.
pub fn round_trip_dialects() -> Vec<Dialect> {
    let tmp = tempfile::tempdir().unwrap();
    Dialect::all()
        .iter()
        .copied()
        .filter(|&d| {
            let doc = Document::new(d, kind_of(d));
            std::panic::catch_unwind(|| write_and_read(&doc, &tmp.path().join(d.name()))).is_ok()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Comparing: A's rules as its dialect writes them, what was reported lost masked.

/// Stands for a part of A the first conversion reported lost: it may come back changed, or
/// not at all.
pub const LOST: &str = "\u{0}lost";

/// One rule as its dialect writes it: its event key, flavour and entries (one group, or one
/// flat entry per handler).
pub fn rule_view(dialect: Dialect, rule: &Rule) -> Value {
    let mut doc = Document::new(dialect, kind_of(dialect));
    doc.rules = vec![rule.clone()];
    let written: Value = serde_json::from_str(&write::to_text(&doc)).unwrap();
    let entries = match written.get("hooks") {
        Some(Value::Array(list)) => list.clone(),
        Some(Value::Object(events)) => events
            .values()
            .find_map(|v| v.as_array().cloned())
            .unwrap_or_default(),
        _ => written
            .as_object()
            .and_then(|top| top.values().find_map(|v| v.as_array().cloned()))
            .unwrap_or_default(),
    };
    let event = rule
        .flavor
        .tables()
        .event_name(&rule.event)
        .unwrap_or(rule.event.name());
    json!({"event": event, "flavor": rule.flavor.name(), "entries": entries})
}

/// Replaces the value at `pointer` (relative, `/a/0/b`) in `value` with [`LOST`]; a pointer
/// that goes further than the value masks the deepest part it reaches.
pub fn mask(value: &mut Value, pointer: &str) {
    let mut reached = Vec::new();
    let mut at: &Value = value;
    for segment in pointer.split('/').skip(1) {
        let segment = segment.replace("~1", "/").replace("~0", "~");
        let next = match at {
            Value::Object(map) => map.get(&segment),
            Value::Array(list) => segment.parse::<usize>().ok().and_then(|i| list.get(i)),
            _ => None,
        };
        match next {
            Some(next) => {
                at = next;
                reached.push(segment);
            }
            None => break,
        }
    }
    let path: String = reached
        .iter()
        .map(|s| format!("/{}", s.replace('~', "~0").replace('/', "~1")))
        .collect();
    if let Some(place) = value.pointer_mut(&path) {
        *place = Value::String(LOST.into());
    }
}

/// The keys a loss about unknown fields names: "rule field(s) `a`, `b`".
pub fn field_names(what: &str) -> Option<Vec<String>> {
    let list = what
        .strip_prefix("rule field(s) ")
        .or_else(|| what.strip_prefix("handler field(s) "))?;
    Some(
        list.split(", ")
            .map(|k| k.trim_matches('`').to_string())
            .collect(),
    )
}

/// Masks `keys` in `object` and in the objects directly inside it (a rule list's handler
/// object, under its own key).
pub fn mask_keys(object: &mut Value, keys: &[String]) {
    let Some(map) = object.as_object_mut() else {
        return;
    };
    for (key, value) in map.iter_mut() {
        if keys.contains(key) {
            *value = Value::String(LOST.into());
        } else if let Some(inner) = value.as_object_mut() {
            for (key, value) in inner.iter_mut() {
                if keys.contains(key) {
                    *value = Value::String(LOST.into());
                }
            }
        }
    }
    for key in keys {
        map.entry(key.clone())
            .or_insert_with(|| Value::String(LOST.into()));
    }
}

/// A's rules, each as its dialect writes it, with every part `losses` names masked.
pub fn expected_view(doc: &Document, src: &SourceFile, losses: &[Loss]) -> Vec<Value> {
    doc.rules
        .iter()
        // A rule with no handler holds no hook: there is nothing to convert.
        .filter(|rule| !rule.handlers.is_empty())
        .map(|rule| {
            let mut view = rule_view(doc.dialect, rule);
            let file = match rule.origin.file.is_empty() {
                true => src.path.as_str(),
                false => rule.origin.file.as_str(),
            };
            let at = rule.origin.pointer.as_str();
            for loss in losses
                .iter()
                .filter(|l| l.file == file || l.file == src.path)
            {
                let Some(rest) = loss.pointer.strip_prefix(at) else {
                    continue;
                };
                if let Some(keys) = field_names(&loss.what) {
                    // Fields of the rule or handler it points at, not the whole of it.
                    if let Some(place) = view.pointer_mut("/entries/0")
                        && (rest.is_empty() || rest.starts_with('/'))
                    {
                        let place = match rest {
                            "" => Some(place),
                            rest => place.pointer_mut(rest),
                        };
                        if let Some(place) = place {
                            mask_keys(place, &keys);
                        }
                    }
                    continue;
                }
                // "a rule with N handler(s), matcher …" (located at the matcher): the rule is
                // not converted.
                let whole = loss.what.starts_with("a rule with") && rest.starts_with('/');
                if whole || rest.is_empty() || (!rest.starts_with('/') && at.is_empty()) {
                    if loss.file == file || whole {
                        view["entries"] = Value::String(LOST.into());
                    }
                } else if rest.starts_with('/')
                    && let Some(entry) = view.pointer_mut("/entries/0")
                {
                    // Within the rule: in its (only) entry.
                    mask(entry, rest);
                }
            }
            // A lost `asyncRewake` loses its wake, not its background run: the copy may come
            // back as `async` (attacks row 1821).
            if let Some(hooks) = view
                .pointer_mut("/entries/0/hooks")
                .and_then(Value::as_array_mut)
            {
                for h in hooks.iter_mut().filter_map(Value::as_object_mut) {
                    if h.get("asyncRewake").and_then(Value::as_str) == Some(LOST) {
                        h.entry("async")
                            .or_insert_with(|| Value::String(LOST.into()));
                    }
                }
            }
            // A group whose every handler is lost is dropped with them.
            let handlers = view.pointer("/entries/0/hooks");
            if handlers
                .and_then(Value::as_array)
                .is_some_and(|h| !h.is_empty() && h.iter().all(|h| h == LOST))
            {
                view["entries"] = Value::String(LOST.into());
            }
            view
        })
        .collect()
}

/// Whether the rules `got` are the rules `expected` where these are not [`LOST`]: event by
/// event (the order of events is the order of keys in an object, which a hook folder does not
/// keep), each event's rules in order, a lost rule standing for one rule or none.
pub fn rules_fit(expected: &[Value], got: &[Value]) -> bool {
    let mut events: Vec<&Value> = Vec::new();
    for rule in expected.iter().chain(got) {
        if !events.contains(&&rule["event"]) {
            events.push(&rule["event"]);
        }
    }
    events.into_iter().all(|event| {
        let of = |rules: &[Value]| -> Vec<Value> {
            rules
                .iter()
                .filter(|r| r["event"] == *event)
                .map(|r| match r["entries"] == LOST {
                    true => Value::String(LOST.into()),
                    false => r.clone(),
                })
                .collect()
        };
        seq_fits(&of(expected), &of(got))
    })
}

pub fn view(doc: &Document) -> Vec<Value> {
    doc.rules
        .iter()
        .map(|r| rule_view(doc.dialect, r))
        .collect()
}

/// Whether `got` is `expected` where it is not [`LOST`].
pub fn fits(expected: &Value, got: Option<&Value>) -> bool {
    if expected == LOST {
        return true;
    }
    let Some(got) = got else {
        return false;
    };
    match (expected, got) {
        (Value::Object(e), Value::Object(g)) => {
            e.iter().all(|(k, v)| fits(v, g.get(k))) && g.keys().all(|k| e.contains_key(k))
        }
        (Value::Array(e), Value::Array(g)) => seq_fits(e, g),
        _ => expected == got,
    }
}

/// [`fits`] for lists: a lost element stands for one element or none.
pub fn seq_fits(expected: &[Value], got: &[Value]) -> bool {
    match expected.first() {
        None => got.is_empty(),
        Some(lost) if lost == LOST => {
            seq_fits(&expected[1..], got)
                || (!got.is_empty() && seq_fits(&expected[1..], &got[1..]))
        }
        Some(first) => {
            !got.is_empty() && fits(first, Some(&got[0])) && seq_fits(&expected[1..], &got[1..])
        }
    }
}

/// A wrapped command line that runs another wrapped command line: `hookx exec` in `hookx exec`.
pub fn nested_wrappers(doc: &Document) -> usize {
    let exec = regex::Regex::new(r"exec --(host|as) ").unwrap();
    doc.rules
        .iter()
        .flat_map(|r| &r.handlers)
        .filter_map(|h| match &h.kind {
            HandlerKind::Command(c) => c.unix_line(),
            _ => None,
        })
        .filter(|line| exec.find_iter(line).count() > 1)
        .count()
}

/// One round trip A → `via` → A.
pub struct RoundTrip {
    /// Whether it is the identity (what was reported lost aside).
    pub identity: bool,
    /// Whether nothing was reported lost.
    pub lossless: bool,
    /// Whether the writer's text came back byte for byte.
    pub bytes: bool,
    pub nested: usize,
    /// What differs, for the failure message.
    pub shown: String,
}

pub fn round_trip(
    src: &SourceFile,
    doc: &Document,
    unread: &[Loss],
    via: Dialect,
    wrap: bool,
    dir: &Path,
) -> RoundTrip {
    let from = doc.dialect;
    let options = |to| Options {
        to,
        wrap,
        hookx: "hookx".into(),
        copies_into: None,
    };
    let there = convert::convert(&[(src, doc)], &options(via));
    let (mid_text, mid) = write_and_read(&there.document, &dir.join("mid"));
    let mid_src = source_of(&there.document, &mid_text, &dir.join("mid"));
    let back = convert::convert(&[(&mid_src, &mid.document)], &options(from));
    let nested = nested_wrappers(&there.document) + nested_wrappers(&back.document);
    let mut losses = unread.to_vec();
    losses.extend(there.losses.iter().cloned());
    let expected = expected_view(doc, src, &losses);
    let got = view(&back.document);
    let identity = rules_fit(&expected, &got);
    let lossless = losses.is_empty();
    // A hook folder keeps no order of events: only its events' own order is the writer's.
    let bytes = via.config().scripts.is_some() || {
        let mut a = Document::new(from, kind_of(from));
        a.rules = doc
            .rules
            .iter()
            .filter(|r| !r.handlers.is_empty())
            .cloned()
            .collect();
        let mut b = Document::new(from, kind_of(from));
        b.rules = back.document.rules.clone();
        a.extra = b.extra.clone();
        write::to_text(&a) == write::to_text(&b)
    };
    let shown = match identity && (bytes || !lossless) {
        true => String::new(),
        false => format!(
            "{} → {via} → {from}{}\nexpected:\n{}\ngot:\n{}\nmiddle:\n{mid_text}\nlosses there: {:#?}\nlosses back: {:#?}",
            src.path,
            if wrap { "" } else { " (--no-wrap)" },
            serde_json::to_string_pretty(&expected)
                .unwrap()
                .replace(LOST, "<lost>"),
            serde_json::to_string_pretty(&got).unwrap(),
            there
                .losses
                .iter()
                .map(|l| format!("{} {}", l.pointer, l.what))
                .collect::<Vec<_>>(),
            back.losses
                .iter()
                .map(|l| format!("{} {}", l.pointer, l.what))
                .collect::<Vec<_>>(),
        ),
    };
    RoundTrip {
        identity,
        lossless,
        bytes,
        nested,
        shown,
    }
}

// ---------------------------------------------------------------------------------------------
// Every fixture, through every dialect.

/// Reads a fixture (a config file, or a hook folder of a script-layout dialect): its source,
/// its document and, as `convert` reports them, the parts it could not read.
pub fn read_fixture(path: &str, dialect: Dialect) -> Option<(SourceFile, Document, Vec<Loss>)> {
    let (src, parsed) = match dialect.config().scripts {
        Some(layout) => (
            SourceFile::new(path, String::new()),
            hookx::config::scripts::read_path(Path::new(path), path, dialect, layout),
        ),
        None => {
            let src = SourceFile::read(Path::new(path)).ok()?;
            let parsed = read(&src, dialect).ok()?;
            (src, parsed)
        }
    };
    let unread = parsed
        .diagnostics
        .iter()
        .filter(|d| d.severity == hookx::diag::Severity::Error)
        .map(|d| Loss {
            what: d.message.clone(),
            why: "unread".into(),
            file: d.file.clone(),
            pointer: d.pointer.clone().unwrap_or_default(),
            line: d.line,
            col: d.col,
        })
        .collect();
    Some((src, parsed.document, unread))
}
