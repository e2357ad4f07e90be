//! The config an agent's command line puts on top of its user file
//! ([`crate::tables::ConfigLayer`]: Codex's `--profile NAME` and `-c key=value`), read from
//! the command line of the agent above hookx: a handler it turns off is off, a setting it gives
//! wins (attacks rows 570, 605, 642, 740).

use crate::tables::{ConfigLayer, Dialect};
use std::path::{Path, PathBuf};

/// The value the command line `args` (the program first) gives the option of `names` (`--name
/// VALUE`, `--name=VALUE`, and for a one-letter name `-xVALUE`), the last one given.
pub(super) fn option_value<'a>(args: &'a [String], names: &[&str]) -> Option<&'a str> {
    option_values(args, names).pop()
}

/// Every value the command line `args` gives the option of `names`, in order (see
/// [`option_value`]).
fn option_values<'a>(args: &'a [String], names: &[&str]) -> Vec<&'a str> {
    let mut words = args.iter().skip(1).map(String::as_str);
    let mut values = Vec::new();
    while let Some(word) = words.next() {
        for name in names {
            if word == *name {
                values.extend(words.next());
            } else if let Some(rest) = word.strip_prefix(name) {
                let short = !name.starts_with("--");
                match rest.strip_prefix('=') {
                    Some(v) => values.push(v),
                    None if short && !rest.is_empty() => values.push(rest),
                    None => {}
                }
            }
        }
    }
    values
}

/// The layer files of `layer`, each with the name that selects it (Codex's
/// `$CODEX_HOME/NAME.config.toml`, `--profile NAME`): (NAME, file). Below the agent's folder
/// variable where it names one ([`super::hosts_own_file`]), as the agent looks for them: below
/// the home only, a profile in a `$CODEX_HOME` elsewhere was never read (attacks row 741).
pub fn layer_files(
    home: &Path,
    host: Dialect,
    layer: &ConfigLayer,
) -> impl Iterator<Item = (String, PathBuf)> {
    let pattern = Path::new(layer.file);
    let fixes = pattern
        .file_name()
        .and_then(|name| name.to_str()?.split_once("{}"));
    let own = super::hosts_own_file(home, host, layer.file);
    let entries = fixes.and_then(|_| std::fs::read_dir(own.parent()?).ok());
    let (prefix, suffix) = fixes.unwrap_or_default();
    entries
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(move |entry| {
            let file = entry.file_name();
            let name = file.to_string_lossy();
            let name = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
            (!name.is_empty()).then(|| (name.to_string(), entry.path()))
        })
}

/// The config texts the agent's command line puts on top of its user file, the winning one
/// first: each override (`-c key=value`, the last given first) as a TOML text of its own, then
/// the layer file (`--profile NAME`). Empty where the agent names none or hookx cannot read
/// its command line. Kept apart, not merged (hookx parses TOML but does not write it): a
/// reader asks each in turn, the first that sets a key deciding
/// ([`crate::tables::RouteTrust::runs`]).
pub fn layer_texts(home: &Path, host: Dialect, layer: &ConfigLayer) -> Vec<String> {
    let args = crate::spawn::nearest_ancestor_running(layer.program).unwrap_or_default();
    let mut texts: Vec<String> = option_values(&args, layer.overrides)
        .into_iter()
        .rev()
        .filter_map(override_text)
        .collect();
    let file = option_value(&args, layer.options)
        .filter(|name| !name.is_empty() && !name.contains('/'))
        .and_then(|name| {
            let file = super::hosts_own_file(home, host, &layer.file.replace("{}", name));
            crate::read::text(&file, crate::read::MAX_FILE_BYTES).ok()
        });
    texts.extend(file);
    texts
}

/// One `key=value` override as the TOML text that sets it, read as Codex 0.171.0 reads it
/// (`codex-rs/common/src/config_override.rs`): split at the first `=`, the key cut at every
/// `.` (quotes are no syntax there: a key naming a file, `hooks.state."/p/hooks.json:…"`,
/// sets nothing Codex looks at, run: attacks row 740), the value TOML where it parses as one,
/// else the raw text as a string. `None` for no `=` or an empty key (Codex refuses to start).
fn override_text(raw: &str) -> Option<String> {
    let (key, value) = raw.split_once('=')?;
    let (key, value) = (key.trim(), value.trim());
    if key.is_empty() {
        return None;
    }
    let path: Vec<String> = key.split('.').map(quoted).collect();
    // A value that parses only with more keys after it (`1\nb=2`) is one Codex takes the
    // first of; written out, it would set the others too here: left out.
    let value = match format!("_x_ = {value}").parse::<toml_edit::DocumentMut>() {
        Ok(doc) if doc.len() == 1 => value.to_string(),
        Ok(_) => return None,
        Err(_) => quoted(value),
    };
    Some(format!("{} = {value}\n", path.join(".")))
}

/// `text` as a TOML basic string.
fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(raw: &str) -> toml_edit::DocumentMut {
        override_text(raw).unwrap().parse().unwrap()
    }

    #[test]
    fn an_override_is_the_toml_that_sets_its_key_as_codex_cuts_it() {
        let doc =
            parsed(r#"hooks.state={"/h/.codex/hooks.json:pre_tool_use:0:0"={enabled=false}}"#);
        let state = &doc["hooks"]["state"]["/h/.codex/hooks.json:pre_tool_use:0:0"];
        assert_eq!(state["enabled"].as_bool(), Some(false));
        let doc = parsed(r#"project_root_markers=[".hg"]"#);
        assert_eq!(doc["project_root_markers"][0].as_str(), Some(".hg"));
        // Not TOML: the raw text, a string.
        assert_eq!(parsed("model=o3 mini")["model"].as_str(), Some("o3 mini"));
        // Quotes in the key are characters of a segment, cut at every dot.
        let doc = parsed(r#"hooks.state."/h/.codex/x".enabled=false"#);
        assert!(doc["hooks"]["state"].get(r#""/h/"#).is_some());
        assert_eq!(override_text("a=1\nb=2"), None);
        assert_eq!(override_text("no-equals"), None);
        assert_eq!(override_text(" =1"), None);
    }

    #[test]
    fn every_value_of_an_option_in_order() {
        let args: Vec<String> = [
            "codex",
            "-c",
            "a=1",
            "exec",
            "--config=b=2",
            "-cc=3",
            "-p",
            "w",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            option_values(&args, &["-c", "--config"]),
            ["a=1", "b=2", "c=3"]
        );
        assert_eq!(option_value(&args, &["--profile", "-p"]), Some("w"));
    }
}
