//! The payload keys a handler seems to read (a scan of its command and script) against those
//! its payload has, as the host sends it or as hookx builds it.

use super::{Doctor, Finding, Level};
use crate::discover::Source;
use crate::model::{EventKind, Handler, HandlerKind};
use crate::tables::Rule;
use crate::tables::{Dialect, Flavor};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The most of a handler script read for the field scan.
const SCRIPT_LIMIT: u64 = 256 * 1024;

impl Doctor<'_> {
    /// What `rule`'s handlers seem to read that their payload under `host` lacks; `flavor` is
    /// the one the rule is fed as, `native` whether the host feeds it (else hookx does).
    pub(super) fn rule_payload_findings(
        &self,
        source: &Source,
        rule: &Rule,
        host: Dialect,
        (flavor, native): (Flavor, bool),
    ) -> Vec<Finding> {
        let display = host.def().display;
        let event = &rule.event;
        let keys = match native {
            true => flavor
                .tables()
                .payload_keys(event)
                .map(|k| k.iter().map(|s| s.to_string()).collect()),
            false => routed_payload_keys(host, event, flavor),
        };
        let payload = match native {
            true => format!("the {} payload of `{event}`", flavor.name()),
            false => format!(
                "the {} payload hookx builds from {display}'s `{event}`",
                flavor.name()
            ),
        };
        let mut findings = Vec::new();
        for handler in &rule.handlers {
            // A wrapped handler (`hookx exec --host H --as D -- CMD`) gets D's payload, which
            // hookx exec builds from whatever the host sends: CMD is read against that.
            if let Some(inner) = wrapped(handler) {
                let as_payload = format!(
                    "the {} payload `hookx exec` builds from {display}'s `{event}`",
                    inner.flavor.name()
                );
                let Some(keys) = routed_payload_keys(host, event, inner.flavor) else {
                    continue;
                };
                let mut unwrapped = handler.clone();
                unwrapped.kind = HandlerKind::Command(crate::model::Command {
                    command: Some(inner.command.clone()),
                    ..Default::default()
                });
                findings.extend(self.payload_findings(
                    source,
                    &unwrapped,
                    (inner.flavor, &as_payload),
                    event,
                    &keys,
                ));
                continue;
            }
            if let Some(keys) = &keys {
                findings.extend(self.payload_findings(
                    source,
                    handler,
                    (flavor, &payload),
                    event,
                    keys,
                ));
            }
        }
        findings
    }

    /// Keys the handler seems to read that its payload lacks (a guess from a scan).
    fn payload_findings(
        &self,
        source: &Source,
        handler: &Handler,
        (flavor, payload): (Flavor, &str),
        event: &EventKind,
        keys: &[String],
    ) -> Vec<Finding> {
        let HandlerKind::Command(command) = &handler.kind else {
            return Vec::new();
        };
        let Some(line) = command.unix_line() else {
            return Vec::new();
        };
        let mut text = line.to_string();
        let mut scanned = "its command".to_string();
        if let Some(script) = self.script_of(source, line)
            && let Ok(body) = read_limited(&script)
        {
            text.push('\n');
            text.push_str(&body);
            scanned = self.ctx.display(&script);
        }
        let known = &*KNOWN_PAYLOAD_KEYS;
        let mut findings = Vec::new();
        let mut seen = BTreeSet::new();
        for (top, sub) in field_reads(&text) {
            if !seen.insert((top.clone(), sub.clone())) {
                continue;
            }
            if !keys.contains(&top) {
                if !known.contains(top.as_str()) {
                    continue;
                }
                let twin = [
                    crate::protocol::camel_to_snake(&top),
                    crate::protocol::snake_to_camel(&top),
                ]
                .into_iter()
                .find(|k| k != &top && keys.contains(k));
                // Reading either keeps the hook working where it gets `top` today.
                findings.push(Finding::new(
                    Level::Warning,
                    format!(
                        "its handler seems to read `{top}`, which {payload} lacks (a guess from a scan of {scanned})"
                    ),
                    twin.map(|t| format!("read `.{top} // .{t}` (either, where each is sent)")),
                ));
                continue;
            }
            // A key below one whose object has fixed keys (Cline's `preToolUse {toolName,
            // parameters}`): a guard reading `.preToolUse.tool` finds nothing, and allows.
            if let Some(sub) = &sub
                && let Some(held) = flavor.tables().object_keys(&top)
                && !held.contains(&sub.as_str())
            {
                let listed: Vec<String> = held.iter().map(|k| format!("`{k}`")).collect();
                let like = held
                    .iter()
                    .find(|k| k.to_lowercase().starts_with(&sub.to_lowercase()));
                findings.push(Finding::new(
                    Level::Warning,
                    format!(
                        "its handler seems to read `{top}.{sub}`, which {payload} lacks: its `{top}` holds {} (a guess from a scan of {scanned})",
                        listed.join(", ")
                    ),
                    like.map(|k| format!("read `.{top}.{k}`")),
                ));
                continue;
            }
            if let Some(sub) = sub
                && event.is_tool_event()
                && let Some(own) = argument_name(flavor, &sub)
            {
                findings.push(Finding::new(
                    Level::Warning,
                    format!(
                        "its handler seems to read `{top}.{sub}`, which {} payloads name `{own}` (a guess from a scan of {scanned})",
                        flavor.name()
                    ),
                    Some(format!(
                        "read `.{top}.{sub} // .{top}.{own}` (either, where each is sent)"
                    )),
                ));
            }
        }
        findings
    }

    /// The script a command line runs, if one of its words names a file: relative to the
    /// project (where hooks run), or below a project-directory or plugin-root variable.
    fn script_of(&self, source: &Source, line: &str) -> Option<PathBuf> {
        let mut vars: Vec<(&str, PathBuf)> = Vec::new();
        for d in Dialect::all() {
            if let Some(v) = d.config().project_dir_variable {
                vars.push((v, self.ctx.project.clone()));
            }
            for f in d.flavors() {
                if let Some(v) = f.tables().project_dir_var {
                    vars.push((v, self.ctx.project.clone()));
                }
            }
            if let (Some(v), Some(root)) = (d.config().plugin_root_var, source.plugin_root()) {
                vars.push((v, root.to_path_buf()));
            }
        }
        line.split_whitespace()
            .map(|w| w.replace(['"', '\'', ';'], ""))
            .filter(|w| !w.is_empty() && !w.starts_with('-'))
            .map(|mut word| {
                for (var, value) in &vars {
                    for form in [format!("${{{var}}}"), format!("${var}")] {
                        word = word.replace(&form, &value.display().to_string());
                    }
                }
                word
            })
            .map(|word| match Path::new(&word).is_absolute() {
                true => PathBuf::from(word),
                false => self.ctx.project.join(word),
            })
            .find(|p| p.is_file() && p.extension().is_none_or(|e| e != "json"))
    }
}

/// The command a handler runs through `hookx exec --as D`, with D; `None` for any other.
fn wrapped(handler: &Handler) -> Option<crate::convert::Unwrapped> {
    let HandlerKind::Command(command) = &handler.kind else {
        return None;
    };
    crate::convert::innermost(command.unix_line()?)
}

/// The flavour every command handler of `rule` is wrapped as (`hookx exec --as D`), if one.
pub(super) fn wrapped_flavor(rule: &Rule) -> Option<Flavor> {
    let mut flavors = rule.handlers.iter().map(|h| wrapped(h).map(|u| u.flavor));
    let first = flavors.next()??;
    flavors.all(|f| f == Some(first)).then_some(first)
}

/// The keys a handler of `flavor` gets when hookx runs it for `host`'s `event`: the host's
/// recorded payload, decoded and encoded as hookx's run path does. `None` when the host's
/// payload was never recorded.
fn routed_payload_keys(host: Dialect, event: &EventKind, flavor: Flavor) -> Option<Vec<String>> {
    let decoded = crate::protocol::payload::recorded_event(host, event)?;
    match crate::protocol::payload::encode_event(&decoded, flavor) {
        Value::Object(out) => Some(out.keys().cloned().collect()),
        _ => None,
    }
}

/// Every top-level key any recorded payload had: a key a script reads that is none of these
/// is not a payload key (a variable, a config field) and is not reported. Built once: it was
/// built again for every handler.
static KNOWN_PAYLOAD_KEYS: std::sync::LazyLock<BTreeSet<&'static str>> =
    std::sync::LazyLock::new(|| {
        Flavor::all()
            .iter()
            .flat_map(|f| f.tables().payload_keys)
            .flat_map(|(_, keys)| keys.iter().copied())
            .collect()
    });

/// How `flavor` names a tool argument written `name` in another flavour, when it differs.
fn argument_name(flavor: Flavor, name: &str) -> Option<&'static str> {
    let canonical = Flavor::all()
        .iter()
        .flat_map(|f| f.tables().tool_args)
        .flat_map(|(_, pairs)| pairs.iter())
        .find(|(canonical, native)| *native == name || *canonical == name)
        .map(|(canonical, _)| *canonical)?;
    let own: Vec<&'static str> = flavor
        .tables()
        .tool_args
        .iter()
        .flat_map(|(_, pairs)| pairs.iter())
        .filter(|(c, _)| *c == canonical)
        .map(|(_, n)| *n)
        .collect();
    let own = own.first().copied().unwrap_or_else(|| {
        Flavor::all()
            .iter()
            .flat_map(|f| f.tables().tool_args)
            .flat_map(|(_, pairs)| pairs.iter())
            .find(|(c, _)| *c == canonical)
            .map_or("", |(c, _)| *c)
    });
    (own != name && !own.is_empty()).then_some(own)
}

/// Up to [`SCRIPT_LIMIT`] bytes of a script, if it is a regular file of text.
fn read_limited(path: &Path) -> std::io::Result<String> {
    let bytes = crate::read::head(path, SCRIPT_LIMIT)?;
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// The payload fields a command or script seems to read: `jq` paths (`.tool_input.command`)
/// on lines that call `jq`, and subscripts or `get` calls (`["tool_name"]`, `.get('cwd')`)
/// anywhere. Each read is a top-level key and, when chained, the key below it.
pub fn field_reads(text: &str) -> Vec<(String, Option<String>)> {
    let mut reads = Vec::new();
    let ident = |s: &str| -> usize {
        s.char_indices()
            .find(|(i, c)| {
                !(c.is_ascii_alphanumeric() || *c == '_') || (*i == 0 && c.is_ascii_digit())
            })
            .map_or(s.len(), |(i, _)| i)
    };
    for line in text.lines() {
        if line.contains("jq") {
            let bytes = line.as_bytes();
            for (i, _) in line.match_indices('.') {
                let before = if i == 0 { b' ' } else { bytes[i - 1] };
                if !matches!(
                    before,
                    b' ' | b'\'' | b'"' | b'(' | b'|' | b',' | b'{' | b'[' | b'\t'
                ) {
                    continue;
                }
                let rest = &line[i + 1..];
                let n = ident(rest);
                if n == 0 {
                    continue;
                }
                let top = rest[..n].to_string();
                let sub = rest[n..]
                    .strip_prefix('.')
                    .map(|r| &r[..ident(r)])
                    .filter(|s| !s.is_empty())
                    .map(str::to_string);
                reads.push((top, sub));
            }
        }
        // `["key"]`, `['key']`, `.get("key")`, chained.
        let mut rest = line;
        while let Some(at) = rest.find(['[', '(']) {
            let after = &rest[at + 1..];
            let opener_ok = rest[at..].starts_with('[') || rest[..at].ends_with("get");
            let quoted = after.strip_prefix('"').or_else(|| after.strip_prefix('\''));
            rest = after;
            let (true, Some(q)) = (opener_ok, quoted) else {
                continue;
            };
            let n = ident(q);
            if n == 0 || !q[n..].starts_with(['"', '\'']) {
                continue;
            }
            let top = q[..n].to_string();
            let tail = &q[n + 1..];
            rest = tail;
            let sub = tail
                .strip_prefix("][\"")
                .or_else(|| tail.strip_prefix("]['"))
                .or_else(|| tail.strip_prefix(").get(\""))
                .or_else(|| tail.strip_prefix(").get('"))
                .map(|r| r[..ident(r)].to_string())
                .filter(|s| !s.is_empty());
            if let Some(sub) = &sub {
                // The chained subscript is read here, not again as a key of its own.
                rest = &tail[tail.find(sub.as_str()).map_or(0, |i| i + sub.len())..];
            }
            reads.push((top, sub));
        }
    }
    reads
}
