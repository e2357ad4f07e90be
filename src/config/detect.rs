//! Telling a config file's dialect from its path and content, when `--from` is not given, by
//! each dialect's [`crate::tables::DetectSpec`].

use crate::error::Error;
use crate::source::SourceFile;
use crate::tables::Dialect;
use serde_json::Value;

/// The dialect of `src`. Path conventions decide first, then content; when content fits
/// several dialects (or none), the preferred one (Claude, by far the most common) is chosen:
/// see [`detect_noted`].
pub fn detect(src: &SourceFile) -> Result<Dialect, Error> {
    detect_noted(src).map(|(dialect, _)| dialect)
}

/// Like [`detect`], with a note for the user when the choice was not settled by the file
/// itself (it names `--from`).
pub fn detect_noted(src: &SourceFile) -> Result<(Dialect, Option<String>), Error> {
    let path = src.path.replace('\\', "/");
    if let Some(dialect) = from_path(&path) {
        return Ok((dialect, None));
    }
    let preferred = preferred();
    if src.path.ends_with(".md") {
        let reads_markdown = Dialect::all()
            .iter()
            .copied()
            .find(|d| d.config().documents.frontmatter.is_some());
        return Ok((reads_markdown.unwrap_or(preferred), None));
    }
    if src.path.ends_with(".toml") {
        let reads_toml = Dialect::all()
            .iter()
            .copied()
            .find(|d| d.config().documents.toml.is_some());
        return Ok((reads_toml.unwrap_or(preferred), None));
    }
    // Comments do not hide a file's dialect: reading it then decides whether they are allowed.
    let comments = crate::tables::JsonSyntax {
        comments: true,
        trailing_commas: true,
        bom: true,
        ..crate::tables::JsonSyntax::STRICT
    };
    let value = super::syntax::parse_json_as(src, comments)?;
    let candidates = from_content(&value);
    // A plugin layout (`hooks/hooks.json`) is its dialect's (other agents read it too) unless
    // the content has another dialect's marks.
    let plugin = Dialect::all().iter().copied().find(|d| {
        d.config()
            .documents
            .plugin
            .as_ref()
            .is_some_and(|p| path.ends_with(p.path_suffix))
    });
    if let Some(plugin) = plugin {
        let dialect = match candidates.as_slice() {
            [one] => *one,
            _ => plugin,
        };
        return Ok((dialect, None));
    }
    Ok(match candidates.as_slice() {
        [one] => (*one, None),
        [] => {
            let others: Vec<String> = Dialect::all()
                .iter()
                .filter(|d| **d != preferred)
                .map(|d| format!("--from {d}"))
                .collect();
            (
                preferred,
                Some(format!(
                    "{}: nothing in its path or content names an agent; read as {preferred} (pass {} to choose another)",
                    src.path,
                    others.join(" or ")
                )),
            )
        }
        many => (
            preferred,
            Some(format!(
                "{}: this file reads as {}; read as {preferred} (pass --from to choose)",
                src.path,
                many.iter()
                    .map(|d| d.name())
                    .collect::<Vec<_>>()
                    .join(" or "),
            )),
        ),
    })
}

/// The dialect chosen when nothing decides.
fn preferred() -> Dialect {
    let all = Dialect::all();
    all.iter()
        .copied()
        .find(|d| d.def().detect.preferred)
        .unwrap_or(all[0])
}

/// Where each agent keeps its files (dialects.md §1): the folder mark nearest the file name
/// decides, then the file name.
fn from_path(path: &str) -> Option<Dialect> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let mut best: Option<(usize, Dialect)> = None;
    for dialect in Dialect::all() {
        for dir in dialect.def().detect.dirs {
            if let Some(at) = path.rfind(dir)
                && best.is_none_or(|(b, _)| at > b)
            {
                best = Some((at, *dialect));
            }
        }
    }
    best.map(|(_, d)| d).or_else(|| {
        Dialect::all()
            .iter()
            .copied()
            .find(|d| d.def().detect.file_names.contains(&name))
    })
}

/// Every dialect the content is consistent with, judged by what only one dialect writes.
fn from_content(value: &Value) -> Vec<Dialect> {
    let Some(top) = value.as_object() else {
        return Vec::new();
    };
    let all = Dialect::all();
    // A versioned list of rules is the one dialect's whose files are lists.
    if let Some(d) = all
        .iter()
        .find(|d| d.config().rule_list.is_some_and(|list| list.fits(value)))
    {
        return vec![*d];
    }
    let sole = |pick: &dyn Fn(Dialect) -> bool| all.iter().copied().find(|d| pick(*d));
    let among = |pick: &dyn Fn(Dialect) -> bool| -> Vec<Dialect> {
        all.iter().copied().filter(|d| pick(*d)).collect()
    };
    // A dialect-only top key decides unless a dialect-only event or handler key (below) says
    // otherwise: Cursor's files declare Copilot's `version` too.
    let mut only: Option<Dialect> = sole(&|d| {
        d.def()
            .detect
            .sole_top_keys
            .iter()
            .any(|k| top.contains_key(*k))
    });
    let events = match top.get("hooks") {
        Some(Value::Object(hooks)) => hooks,
        _ => top,
    };
    let names = events.keys().map(String::as_str);
    let mut flat = false;
    let handlers = events
        .values()
        .filter_map(Value::as_array)
        .flatten()
        .flat_map(|entry| match entry.get("hooks") {
            Some(inner) => inner
                .as_array()
                .map(|a| a.iter().collect())
                .unwrap_or_default(),
            None => {
                flat = true;
                vec![entry]
            }
        })
        .filter_map(Value::as_object);
    let mut own_event: Option<Dialect> = None;
    // Dialects whose files may carry no mark of their own; the others need a mark.
    let mut possible = among(&|d| d.def().detect.unmarked);
    let mut keep = |d: &[Dialect]| {
        if !d.is_empty() {
            possible.retain(|p| d.contains(p))
        }
    };
    for name in names {
        let knows = |f: &crate::tables::Flavor| f.tables().event_kind(name).is_some();
        // A name another agent that may write it unmarked spells too (Gemini's and Claude's
        // `Notification`) settles nothing; one that needs its own mark (Cursor's `preToolUse`
        // beside Copilot's) does not stand in the way.
        let claim = |d: Dialect| {
            let detect = &d.def().detect;
            d.flavors().any(|f| knows(&f))
                && (detect.unmarked || detect.sole_event_flavors.iter().any(knows))
        };
        if let [d] = among(&claim).as_slice()
            && d.def().detect.sole_event_flavors.iter().any(knows)
        {
            only = Some(*d);
        }
        // An event name only one agent that needs a mark knows is the strongest mark (Cursor's
        // `stop`, in a flavour whose other names are Copilot's too).
        let knowers: Vec<Dialect> = all
            .iter()
            .copied()
            .filter(|d| d.flavors().any(|f| knows(&f)))
            .collect();
        if let [d] = knowers[..]
            && !d.def().detect.unmarked
        {
            own_event = Some(d);
        }
        keep(&among(&|d| {
            d.def().detect.unmarked && d.flavors().any(|f| knows(&f))
        }));
    }
    for handler in handlers {
        for key in handler.keys() {
            if let Some(d) = sole(&|d| d.def().detect.sole_handler_keys.contains(&key.as_str())) {
                only = Some(d);
            }
            keep(&among(&|d| {
                d.def().detect.handler_keys.contains(&key.as_str())
            }));
        }
        if let Some(t) = handler.get("type").and_then(Value::as_str) {
            keep(&among(&|d| {
                d.flavors().any(|f| f.tables().handler_types.contains(&t))
            }));
        }
    }
    for key in top.keys() {
        keep(&among(&|d| d.def().detect.top_keys.contains(&key.as_str())));
    }
    // Flat handlers are the weakest mark: several dialects write them.
    if flat
        && only.is_none()
        && let Some(d) = sole(&|d| d.config().flat_handlers)
    {
        only = Some(d);
    }
    match own_event.or(only) {
        Some(d) => vec![d],
        None => possible,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::{bricks, claude, copilot, cursor, gemini};

    fn detect_text(path: &str, text: &str) -> Result<Dialect, Error> {
        detect(&SourceFile::new(path, text))
    }

    #[test]
    fn paths_decide_first() {
        assert_eq!(
            detect_text("repo/.github/hooks/a.json", "{}").unwrap(),
            copilot::DIALECT
        );
        assert_eq!(
            detect_text("p/.bricks/hooks.json", "{}").unwrap(),
            bricks::DIALECT
        );
        assert_eq!(
            detect_text("p/.claude/settings.json", "{}").unwrap(),
            claude::DIALECT
        );
    }

    /// Cursor's files look like Copilot's (`version`, flat entries, shared camelCase events):
    /// its folder, its category events and its own event names tell them apart.
    #[test]
    fn cursor_files_by_folder_and_by_their_own_events() {
        assert_eq!(
            detect_text("p/.cursor/hooks.json", "{}").unwrap(),
            cursor::DIALECT
        );
        for events in [
            r#"{"beforeShellExecution":[{"command":"a"}]}"#,
            r#"{"stop":[{"command":"a"}]}"#,
            r#"{"beforeSubmitPrompt":[{"command":"a"}],"preToolUse":[{"command":"b"}]}"#,
        ] {
            let text = format!(r#"{{"version":1,"hooks":{events}}}"#);
            assert_eq!(
                detect_text("a.json", &text).unwrap(),
                cursor::DIALECT,
                "{text}"
            );
        }
        // Events both agents have: Copilot, as before.
        assert_eq!(
            detect_text(
                "a.json",
                r#"{"version":1,"hooks":{"preToolUse":[{"bash":"a"}]}}"#
            )
            .unwrap(),
            copilot::DIALECT
        );
    }

    #[test]
    fn content_decides_when_unambiguous() {
        assert_eq!(
            detect_text("a.json", r#"{"version":1,"hooks":{}}"#).unwrap(),
            copilot::DIALECT
        );
        assert_eq!(
            detect_text("a.json", r#"{"hooks":{"preToolUse":[]}}"#).unwrap(),
            copilot::DIALECT
        );
        assert_eq!(
            detect_text("a.json", r#"{"GoalUpdate":[]}"#).unwrap(),
            bricks::DIALECT
        );
        assert_eq!(
            detect_text("a.json", r#"{"hooks":{"Notification":[]}}"#).unwrap(),
            claude::DIALECT
        );
        assert_eq!(
            detect_text(
                "a.json",
                r#"{"hooks":{"BeforeTool":[], "Notification":[]}}"#
            )
            .unwrap(),
            gemini::DIALECT
        );
        assert_eq!(
            detect_text("p/.gemini/settings.json", "{}").unwrap(),
            gemini::DIALECT
        );
    }

    #[test]
    fn ambiguity_chooses_claude_and_says_how_to_choose() {
        let (dialect, note) = detect_noted(&SourceFile::new(
            "a.json",
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}"#,
        ))
        .unwrap();
        assert_eq!(dialect, claude::DIALECT);
        let note = note.unwrap();
        assert!(note.contains("--from") && note.contains("a.json"), "{note}");
    }

    #[test]
    fn a_plugin_layout_is_claude_without_a_note() {
        let text = r#"{"description":"x","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}"#;
        let plain =
            r#"{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}"#;
        for text in [text, plain] {
            let got = detect_noted(&SourceFile::new("my-plugin/hooks/hooks.json", text)).unwrap();
            assert_eq!(got, (claude::DIALECT, None));
        }
        let copilot = r#"{"version":1,"hooks":{"preToolUse":[{"bash":"x"}]}}"#;
        assert_eq!(
            detect_text("p/hooks/hooks.json", copilot).unwrap(),
            copilot::DIALECT
        );
    }
}
