//! Writing a [`Document`] back out in its dialect, and merging it into an existing file.

use super::read;
use super::spec::HandlerField;
use crate::dialect::Flavor;
use crate::error::Error;
use crate::model::{Document, DocumentKind, Handler, HandlerKind, Rule, RuleShape};
use serde_json::{Map, Value};
use std::path::Path;

/// The document as its dialect writes it: JSON, or markdown with YAML frontmatter.
pub fn to_text(doc: &Document) -> String {
    let value = to_value(doc);
    if doc.kind == DocumentKind::ClaudeFrontmatter {
        let yaml = serde_saphyr::to_string(&value).unwrap_or_default();
        let body = doc.markdown.as_ref().map_or("", |m| m.body.as_str());
        return format!("---\n{yaml}---\n{body}");
    }
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    text
}

/// The document as a JSON value, every key hookx does not own in its place.
pub fn to_value(doc: &Document) -> Value {
    let hooks = hooks_object(doc);
    let mut top = Map::new();
    if !doc.wrapped {
        top.extend(doc.extra.clone());
        top.extend(hooks);
        return Value::Object(top);
    }
    for (i, (key, value)) in doc.extra.iter().enumerate() {
        if i == doc.hooks_index {
            top.insert("hooks".into(), Value::Object(hooks.clone()));
        }
        top.insert(key.clone(), value.clone());
    }
    if !top.contains_key("hooks") {
        top.insert("hooks".into(), Value::Object(hooks));
    }
    Value::Object(top)
}

fn hooks_object(doc: &Document) -> Map<String, Value> {
    let mut hooks = Map::new();
    for rule in &doc.rules {
        let name = rule
            .flavor
            .tables()
            .event_name(&rule.event)
            .unwrap_or(rule.event.name())
            .to_string();
        let entry = hooks
            .entry(name)
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(list) = entry {
            list.extend(rule_values(doc, rule));
        }
    }
    for (key, value) in &doc.extra_hooks {
        if !hooks.contains_key(key) {
            hooks.insert(key.clone(), value.clone());
        }
    }
    hooks
}

fn rule_values(doc: &Document, rule: &Rule) -> Vec<Value> {
    match rule.shape {
        RuleShape::Flat => rule
            .handlers
            .iter()
            .map(|h| {
                let mut entry = Map::new();
                if let Some(m) = &rule.matcher {
                    entry.insert("matcher".into(), Value::String(m.clone()));
                }
                if let Value::Object(fields) = handler_value(doc, rule.flavor, h) {
                    entry.extend(fields);
                }
                Value::Object(entry)
            })
            .collect(),
        RuleShape::Group => {
            let mut group = Map::new();
            if let Some(m) = &rule.matcher {
                group.insert("matcher".into(), Value::String(m.clone()));
            }
            let handlers = rule
                .handlers
                .iter()
                .map(|h| handler_value(doc, rule.flavor, h))
                .collect();
            group.insert("hooks".into(), Value::Array(handlers));
            group.extend(rule.extra.clone());
            vec![Value::Object(group)]
        }
    }
}

fn handler_value(doc: &Document, flavor: Flavor, handler: &Handler) -> Value {
    let spec = doc.dialect.config();
    let mut out = Map::new();
    let mut put = |field: HandlerField, value: Value| {
        // Copilot's VS Code-compatible (PascalCase) entries spell the timeout `timeout`.
        let key = match (flavor, field) {
            (Flavor::CopilotPascal, HandlerField::Timeout) => Some("timeout"),
            _ => spec.key(field),
        };
        if let Some(key) = key {
            out.insert(key.to_string(), value);
        }
    };
    let string = |s: &Option<String>| s.clone().map(Value::String);
    let (type_name, fields): (&str, Vec<(HandlerField, Option<Value>)>) = match &handler.kind {
        HandlerKind::Command(c) => (
            "command",
            vec![
                (HandlerField::Bash, string(&c.bash)),
                (HandlerField::PowerShell, string(&c.powershell)),
                (HandlerField::Command, string(&c.command)),
                (HandlerField::Windows, string(&c.windows)),
                (HandlerField::Linux, string(&c.linux)),
                (HandlerField::Osx, string(&c.osx)),
                (HandlerField::Cwd, string(&c.cwd)),
                (HandlerField::Env, c.env.clone().map(Value::Object)),
                (HandlerField::Async, c.is_async.map(Value::Bool)),
            ],
        ),
        HandlerKind::Prompt(p) | HandlerKind::Agent(p) => (
            if matches!(handler.kind, HandlerKind::Prompt(_)) {
                "prompt"
            } else {
                "agent"
            },
            vec![
                (HandlerField::Prompt, Some(Value::String(p.prompt.clone()))),
                (HandlerField::Model, string(&p.model)),
            ],
        ),
        // Its fields are all in `extra`, written below.
        HandlerKind::Service(s) => (s.type_name, Vec::new()),
    };
    put(HandlerField::Type, Value::String(type_name.into()));
    for (field, value) in fields {
        if let Some(value) = value {
            put(field, value);
        }
    }
    if let Some(t) = handler.timeout {
        put(HandlerField::Timeout, Value::from(t));
    }
    if let Some(s) = &handler.status_message {
        put(HandlerField::StatusMessage, Value::String(s.clone()));
    }
    if let Some(o) = handler.once {
        put(HandlerField::Once, Value::Bool(o));
    }
    for (key, value) in &handler.extra {
        out.entry(key.clone()).or_insert_with(|| value.clone());
    }
    Value::Object(out)
}

/// Merges `doc`'s rules into the config file at `path` (which may not exist yet), keeping every
/// key and rule it already has; identical rules are not added twice. Returns the new text.
pub fn merge_into(path: &Path, doc: &Document) -> Result<String, Error> {
    if doc.kind == DocumentKind::ClaudeFrontmatter || path.extension().is_some_and(|e| e == "md") {
        return Err(Error::Usage(format!(
            "{}: hookx does not write into markdown frontmatter; use --out to write a new file",
            path.display()
        )));
    }
    let Some((src, parsed)) = read::read_target(path, doc.dialect)? else {
        return Ok(to_text(doc));
    };
    let original = super::syntax::parse_json(&src)?;
    let mut target = parsed.document;
    for rule in &doc.rules {
        let already = target.rules.iter().any(|r| {
            r.event == rule.event
                && r.matcher == rule.matcher
                && r.handlers == rule.handlers
                && r.flavor == rule.flavor
        });
        if !already {
            target.rules.push(rule.clone());
        }
    }
    let mut value = to_value(&target);
    keep_order(&mut value, &original);
    let mut text = serde_json::to_string_pretty(&value).unwrap_or_default();
    text.push('\n');
    Ok(text)
}

/// Puts every object's keys in the order `original` has them (keys it lacks go after them),
/// down through arrays item by item, so that writing into a file reorders nothing it had.
fn keep_order(value: &mut Value, original: &Value) {
    match (value, original) {
        (Value::Object(map), Value::Object(orig)) => {
            let mut ordered = Map::new();
            for (key, orig_value) in orig {
                if let Some(v) = map.get(key) {
                    let mut v = v.clone();
                    keep_order(&mut v, orig_value);
                    ordered.insert(key.clone(), v);
                }
            }
            for (key, v) in map.iter() {
                if !ordered.contains_key(key) {
                    ordered.insert(key.clone(), v.clone());
                }
            }
            *map = ordered;
        }
        (Value::Array(items), Value::Array(orig)) => {
            for (item, orig_item) in items.iter_mut().zip(orig) {
                keep_order(item, orig_item);
            }
        }
        _ => {}
    }
}

/// Writes `text` to `path` atomically: a temporary file in the same directory, then a rename,
/// keeping the permissions of the file it replaces.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), Error> {
    use std::io::Write;
    let shown = path.display().to_string();
    let io = |e: std::io::Error| Error::Io {
        path: shown.clone(),
        message: e.to_string(),
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io)?;
    tmp.write_all(text.as_bytes()).map_err(io)?;
    tmp.as_file().sync_all().map_err(io)?;
    if let Ok(meta) = std::fs::metadata(path) {
        std::fs::set_permissions(tmp.path(), meta.permissions()).map_err(io)?;
    }
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}
