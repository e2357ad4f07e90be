//! Telling a config file's dialect from its path and content, when `--from` is not given.

use crate::dialect::{Dialect, Flavor};
use crate::error::Error;
use crate::source::SourceFile;
use serde_json::Value;

/// The dialect of `src`. Path conventions decide first, then content; when content fits
/// several dialects (or none), Claude, by far the most common, is chosen: see [`detect_noted`].
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
    if src.path.ends_with(".md") {
        return Ok((Dialect::Claude, None));
    }
    let value = super::syntax::parse_json(src)?;
    let candidates = from_content(&value);
    // A plugin's `hooks/hooks.json` is Claude's layout (Copilot reads it too): Claude unless
    // the content has Copilot-only marks.
    if path.ends_with("hooks/hooks.json") {
        let dialect = match candidates.as_slice() {
            [one] => *one,
            _ => Dialect::Claude,
        };
        return Ok((dialect, None));
    }
    Ok(match candidates.as_slice() {
        [one] => (*one, None),
        [] => (
            Dialect::Claude,
            Some(format!(
                "{}: nothing in its path or content names an agent; read as claude (pass --from copilot or --from bricks to choose another)",
                src.path
            )),
        ),
        many => (
            Dialect::Claude,
            Some(format!(
                "{}: this file reads as {}; read as claude (pass --from to choose)",
                src.path,
                many.iter()
                    .map(|d| d.name())
                    .collect::<Vec<_>>()
                    .join(" or "),
            )),
        ),
    })
}

/// Where each agent keeps its files (dialects.md §1).
fn from_path(path: &str) -> Option<Dialect> {
    let name = path.rsplit('/').next().unwrap_or(path);
    if path.contains(".github/hooks/") || path.contains(".copilot/hooks/") {
        Some(Dialect::Copilot)
    } else if path.contains(".bricks/") || path.contains(".bricks-project-desktop/") {
        Some(Dialect::Bricks)
    } else if path.contains(".claude/")
        || path.contains(".claude-plugin/")
        || name == "settings.json"
        || name == "settings.local.json"
        || name == "SKILL.md"
    {
        Some(Dialect::Claude)
    } else {
        None
    }
}

/// Every dialect the content is consistent with, judged by what only one dialect writes.
fn from_content(value: &Value) -> Vec<Dialect> {
    let Some(top) = value.as_object() else {
        return Vec::new();
    };
    if top.contains_key("version") {
        return vec![Dialect::Copilot];
    }
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
    let mut only: Option<Dialect> = None;
    // Copilot's PascalCase form looks exactly like Claude's; only Copilot-only marks (a
    // `version`, camelCase events, `bash`, flat handlers) make a file Copilot's.
    let mut possible = vec![Dialect::Claude, Dialect::Bricks];
    let mut keep = |d: &[Dialect]| possible.retain(|p| d.contains(p));
    for name in names {
        let in_flavor = |f: Flavor| f.tables().event_kind(name).is_some();
        if in_flavor(Flavor::Copilot) {
            only = Some(Dialect::Copilot);
        }
        let fits: Vec<Dialect> = [Flavor::Claude, Flavor::Bricks]
            .into_iter()
            .filter(|f| in_flavor(*f))
            .map(Flavor::dialect)
            .collect();
        if !fits.is_empty() {
            keep(&fits);
        }
    }
    for handler in handlers {
        for key in handler.keys() {
            match key.as_str() {
                "bash" | "powershell" | "timeoutSec" | "cwd" | "env" | "windows" | "linux"
                | "osx" => only = Some(Dialect::Copilot),
                "async" | "statusMessage" | "once" | "model" => keep(&[Dialect::Claude]),
                _ => {}
            }
        }
        if let Some(t @ ("prompt" | "agent")) = handler.get("type").and_then(Value::as_str) {
            keep(if t == "agent" {
                &[Dialect::Claude]
            } else {
                &[Dialect::Claude, Dialect::Copilot]
            });
        }
    }
    if top.keys().any(|k| {
        matches!(
            k.as_str(),
            "permissions" | "env" | "model" | "disableAllHooks" | "description"
        )
    }) {
        keep(&[Dialect::Claude]);
    }
    if flat {
        only = Some(Dialect::Copilot);
    }
    match only {
        Some(d) => vec![d],
        None => possible,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detect_text(path: &str, text: &str) -> Result<Dialect, Error> {
        detect(&SourceFile::new(path, text))
    }

    #[test]
    fn paths_decide_first() {
        assert_eq!(
            detect_text("repo/.github/hooks/a.json", "{}").unwrap(),
            Dialect::Copilot
        );
        assert_eq!(
            detect_text("p/.bricks/hooks.json", "{}").unwrap(),
            Dialect::Bricks
        );
        assert_eq!(
            detect_text("p/.claude/settings.json", "{}").unwrap(),
            Dialect::Claude
        );
    }

    #[test]
    fn content_decides_when_unambiguous() {
        assert_eq!(
            detect_text("a.json", r#"{"version":1,"hooks":{}}"#).unwrap(),
            Dialect::Copilot
        );
        assert_eq!(
            detect_text("a.json", r#"{"hooks":{"preToolUse":[]}}"#).unwrap(),
            Dialect::Copilot
        );
        assert_eq!(
            detect_text("a.json", r#"{"GoalUpdate":[]}"#).unwrap(),
            Dialect::Bricks
        );
        assert_eq!(
            detect_text("a.json", r#"{"hooks":{"Notification":[]}}"#).unwrap(),
            Dialect::Claude
        );
    }

    #[test]
    fn ambiguity_chooses_claude_and_says_how_to_choose() {
        let (dialect, note) = detect_noted(&SourceFile::new(
            "a.json",
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}"#,
        ))
        .unwrap();
        assert_eq!(dialect, Dialect::Claude);
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
            assert_eq!(got, (Dialect::Claude, None));
        }
        let copilot = r#"{"version":1,"hooks":{"preToolUse":[{"bash":"x"}]}}"#;
        assert_eq!(
            detect_text("p/hooks/hooks.json", copilot).unwrap(),
            Dialect::Copilot
        );
    }
}
