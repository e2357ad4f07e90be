//! A tool's result between agents' shapes: read from the host's payload into its parts
//! ([`ToolResult`]) by the host's [`ResultForm`]s, written for a handler of another agent by
//! that agent's (attacks rows 1554, 1555: a Claude secret scanner on `.tool_response.stdout`
//! read null under every other host, and never blocked).
//!
//! A result no form of the host's matches (a shape no run has shown, a host without forms) is
//! read whole as the output: a string as it is, anything else as its JSON text, so that what
//! the model reads is what a handler of another agent scans, never nothing.

use crate::model::tool::is_mcp;
use crate::model::{Event, ToolCall, ToolResult};
use crate::tables::{Flavor, ResultForm};
use serde_json::{Map, Value};
use std::collections::HashMap;

const OPEN: &str = "${";
const STDOUT: &str = "stdout";
const STDERR: &str = "stderr";
const OUTPUT: &str = "output";
const EXIT_CODE: &str = "exit_code";
/// A line of the agent's own error beside the output (Gemini's and Qwen's `Error:`), read as
/// the stderr where there is none (attacks row 1803).
const ERROR: &str = "error";
const ANY: &str = "_";
const INPUT: &str = "input.";
const SHOWN: &str = "shown";
const LINES: &str = "lines";
/// A string that is the exit code alone, which is a number in the JSON.
const EXIT_NUMBER: &str = "${exit_code}";
/// A string that is the output's count of lines alone, a number in the JSON.
const LINES_NUMBER: &str = "${lines}";

/// The forms `flavor` gives `tool`'s result in, in order.
fn forms(flavor: Flavor, tool: &str) -> impl Iterator<Item = &'static ResultForm> {
    let mcp = is_mcp(tool);
    flavor
        .tables()
        .protocol
        .result_forms
        .iter()
        .filter(move |f| match f.tool {
            Some(id) => id == tool,
            None => mcp,
        })
}

fn template(form: &ResultForm) -> Value {
    // The tables' own text: a form that is not JSON fails every test that reads the tables.
    serde_json::from_str(form.json).unwrap_or(Value::Null)
}

/// `value`, the result of `tool` in `host`'s payload (the envelope's keys canonical), in parts:
/// by the host's forms, else by any agent's (a host that passes another agent's shape on, as
/// Claude-compatible ones do), else whole.
pub(crate) fn read(host: Flavor, tool: &ToolCall, value: &Value) -> ToolResult {
    let others = Flavor::all().iter().filter(|f| **f != host);
    let mut parts = std::iter::once(host)
        .chain(others.copied())
        .flat_map(|f| forms(f, &tool.name))
        .find_map(|form| {
            let mut parts = HashMap::new();
            let value = match (form.encoded, value) {
                (true, Value::String(s)) => serde_json::from_str(s).ok()?,
                (true, _) => return None,
                (false, v) => v.clone(),
            };
            matches(&template(form), &value, &mut parts).then_some(parts)
        })
        .unwrap_or_else(|| {
            let whole = match value {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                v => v.to_string(),
            };
            HashMap::from([(OUTPUT.to_string(), whole)])
        });
    let mut take = |name: &str| parts.remove(name);
    let stdout = take(STDOUT).or_else(|| take(OUTPUT)).unwrap_or_default();
    let stderr = take(STDERR).or_else(|| take(ERROR)).unwrap_or_default();
    ToolResult {
        shape_of: host.dialect().name(),
        stdout,
        stderr,
        exit_code: take(EXIT_CODE).and_then(|c| c.trim().parse().ok()),
    }
}

/// The result `value` (the host's, envelope keys canonical) for a handler of `flavor`: the
/// host's own where the handler's agent is the host's or has no form for the tool; else
/// written in the handler's first form that reads no `${_}`, beside every key of the host's
/// object result the form has not (the host's original, for a handler that reads it). A
/// failed call's result is left as the host sent it.
pub(crate) fn write(event: &Event, flavor: Flavor, value: &Value) -> Value {
    let (Some(result), Some(tool)) = (&event.result, &event.tool) else {
        return value.clone();
    };
    // A failed call's result is the failure's (`protocol::failed`): its forms are a success's.
    if result.shape_of == flavor.dialect().name() || super::failed::failed(event) {
        return value.clone();
    }
    let Some(form) = forms(flavor, &tool.name).find(|f| !f.json.contains("${_}")) else {
        return value.clone();
    };
    // A form with no place for the output (a write's) cannot carry a result read whole, a
    // failure's text (attacks row 1802): the host's own goes on.
    let output = [STDOUT, OUTPUT].map(|p| format!("{OPEN}{p}}}"));
    let carries = output.iter().any(|p| form.json.contains(p.as_str()));
    if !carries && (!result.stdout.is_empty() || !result.stderr.is_empty()) {
        return value.clone();
    }
    let mut out = fill(&template(form), result, &tool.input);
    if form.encoded {
        return Value::String(out.to_string());
    }
    if let (Value::Object(out), Value::Object(original)) = (&mut out, value) {
        for (key, v) in original {
            out.entry(key.clone()).or_insert_with(|| v.clone());
        }
    }
    out
}

/// A hook's replacement of the tool's result, `value` in the shape of the dialect `of` (the
/// handler's), as `host` takes it. A host with forms it takes as a replacement
/// ([`ResultForm::replaces`]) gets it in its form for the call's tool, read from the handler's
/// shape, and cannot be given it where it has none (`None`): Claude Code keeps its original
/// output for a value not in the tool's own shape (attacks row 1633). A handler of the host's
/// own agent's is as it wrote it, as is any for a host whose field takes any value.
pub(crate) fn replacement(host: Flavor, event: &Event, of: &str, value: &Value) -> Option<Value> {
    let p = &host.tables().protocol;
    if of == host.dialect().name() {
        return Some(value.clone());
    }
    let handler = Flavor::all()
        .iter()
        .find(|f| f.dialect().name() == of)
        .copied()
        .unwrap_or(host);
    if !p.result_forms.iter().any(|f| f.replaces) {
        // A field that takes any value (Copilot's `modifiedResult` text) gets the text the
        // handler's value is by its own agent's forms: a Claude `updatedToolOutput` object
        // reached the model as its JSON text (attacks row 1811). A value that reads as no text
        // (a Write's shape, its path alone) goes as it was, never as nothing.
        let text = event
            .tool
            .as_ref()
            .map(|tool| part(OUTPUT, &read(handler, tool, value), &tool.input))
            .filter(|text| !text.is_empty());
        return Some(text.map_or_else(|| value.clone(), Value::String));
    }
    let tool = event.tool.as_ref()?;
    let form = forms(host, &tool.name).find(|f| f.replaces)?;
    let out = fill(&template(form), &read(handler, tool, value), &tool.input);
    Some(if form.encoded {
        Value::String(out.to_string())
    } else {
        out
    })
}

/// Whether a handler of `flavor`, another agent's, is given the call's result as the host
/// sent it because its agent has no form hookx knows for the tool's result (attacks row
/// 1808): its own agent may give the result elsewhere, and a rule reading it there reads
/// nothing.
pub fn in_the_hosts_shape(event: &Event, flavor: Flavor) -> bool {
    let (Some(result), Some(tool)) = (&event.result, &event.tool) else {
        return false;
    };
    result.shape_of != flavor.dialect().name()
        && !super::failed::failed(event)
        && forms(flavor, &tool.name).all(|f| f.json.contains("${_}"))
}

/// The template with its parts filled in.
fn fill(template: &Value, result: &ToolResult, input: &Value) -> Value {
    match template {
        Value::String(s) if s == EXIT_NUMBER => result.exit_code.unwrap_or(0).into(),
        Value::String(s) if s == LINES_NUMBER => result.stdout.lines().count().into(),
        Value::String(s) if s.contains(OPEN) => Value::String(
            tokens(s)
                .into_iter()
                .map(|t| match t {
                    Token::Text(text) => text.to_string(),
                    Token::Part(name) => part(name, result, input),
                })
                .collect(),
        ),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| (k.clone(), fill(v, result, input)))
            .collect::<Map<_, _>>()
            .into(),
        Value::Array(items) => items.iter().map(|v| fill(v, result, input)).collect(),
        other => other.clone(),
    }
}

fn part(name: &str, result: &ToolResult, input: &Value) -> String {
    match name {
        STDOUT => result.stdout.clone(),
        STDERR | ERROR => result.stderr.clone(),
        OUTPUT | SHOWN if result.stderr.is_empty() => result.stdout.clone(),
        OUTPUT | SHOWN => format!("{}\n{}", result.stdout, result.stderr),
        // A result that does not say its exit code is a post-call event's success.
        EXIT_CODE => result.exit_code.unwrap_or(0).to_string(),
        LINES => result.stdout.lines().count().to_string(),
        _ => match name.strip_prefix(INPUT).and_then(|key| input.get(key)) {
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        },
    }
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Text(&'a str),
    Part(&'a str),
}

/// A template string's texts and parts, alternating, starting and ending with a text.
fn tokens(s: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(at) = rest.find(OPEN) {
        let Some(len) = rest[at..].find('}') else {
            break;
        };
        out.push(Token::Text(&rest[..at]));
        out.push(Token::Part(&rest[at + OPEN.len()..at + len]));
        rest = &rest[at + len + 1..];
    }
    out.push(Token::Text(rest));
    out
}

/// Whether `value` has the template's shape, the parts it holds put in `parts`. Only what
/// holds a part is compared: fixed values (`interrupted: false`) are the agent's to vary.
///
/// A string holding only parts that are written (the call's input) is compared by its texts
/// too, and its key must be there: a form of a write's result holds no part read, and matched
/// any result of the tool, a failure's text among them, which then reached another agent's
/// handler as a success made up from the call's input (attacks row 1802).
fn matches(template: &Value, value: &Value, parts: &mut HashMap<String, String>) -> bool {
    match (template, value) {
        (t @ Value::String(_), _) if !holds_any(t) => true,
        (Value::String(t), Value::Number(n)) if t == EXIT_NUMBER => {
            parts.insert(EXIT_CODE.to_string(), n.to_string());
            true
        }
        (Value::String(t), Value::Number(_)) if t == LINES_NUMBER => true,
        (Value::String(t), Value::String(v)) => match_text(t, v, parts),
        (Value::String(_), _) => false,
        (Value::Object(t), Value::Object(v)) => t
            .iter()
            .all(|(k, tv)| !holds_any(tv) || v.get(k).is_some_and(|vv| matches(tv, vv, parts))),
        (Value::Object(t), _) => !t.values().any(holds_any),
        (Value::Array(t), Value::Array(v)) => {
            !t.iter().any(holds_any)
                || (t.len() == v.len() && t.iter().zip(v).all(|(t, v)| matches(t, v, parts)))
        }
        (Value::Array(t), _) => !t.iter().any(holds_any),
        _ => true,
    }
}

/// Whether a template holds any part, read or written.
fn holds_any(template: &Value) -> bool {
    match template {
        Value::String(s) => s.contains(OPEN),
        Value::Object(map) => map.values().any(holds_any),
        Value::Array(items) => items.iter().any(holds_any),
        _ => false,
    }
}

/// Whether a part is written and never read.
fn write_only(name: &str) -> bool {
    name == SHOWN || name == LINES || name.starts_with(INPUT)
}

/// Whether a part is the tool's output, which may hold any text.
fn is_long(name: &str) -> bool {
    matches!(name, STDOUT | STDERR | OUTPUT)
}

/// Matches `text` against a template string. The texts before the first output part are
/// found from the left, each at its first place, those after it from the right, each at its
/// last: the output read is never less than what the tool printed, whatever that holds (a
/// model's command, before the output, that holds the texts around it makes it more; the texts
/// after it are the host's). A part other than the output and the call's input is one line.
fn match_text(template: &str, text: &str, parts: &mut HashMap<String, String>) -> bool {
    let tokens = tokens(template);
    let long = tokens
        .iter()
        .position(|t| matches!(t, Token::Part(name) if is_long(name)));
    let split = long.unwrap_or(tokens.len());
    let (mut start, mut end) = (0, text.len());
    let mut found = Vec::new();
    // From the left, up to the long part.
    for (i, token) in tokens[..split].iter().enumerate() {
        match token {
            Token::Text(t) => {
                if !text[start..end].starts_with(t) {
                    return false;
                }
                start += t.len();
            }
            Token::Part(name) => {
                let next = match tokens.get(i + 1) {
                    Some(Token::Text(t)) if !t.is_empty() => *t,
                    _ if i + 2 >= tokens.len() => {
                        found.push((*name, &text[start..end]));
                        start = end;
                        continue;
                    }
                    _ => return false,
                };
                let Some(at) = text[start..end].find(next) else {
                    return false;
                };
                found.push((*name, &text[start..start + at]));
                start += at;
            }
        }
    }
    if let Some(long) = long {
        // From the right, down to the long part.
        for (i, token) in tokens.iter().enumerate().skip(long + 1).rev() {
            match token {
                Token::Text(t) => {
                    if !text[start..end].ends_with(t) {
                        return false;
                    }
                    end -= t.len();
                }
                Token::Part(name) => {
                    let Some(Token::Text(before)) = tokens.get(i - 1) else {
                        return false;
                    };
                    if before.is_empty() {
                        return false;
                    }
                    let Some(at) = text[start..end].rfind(before) else {
                        return false;
                    };
                    let at = start + at + before.len();
                    found.push((*name, &text[at..end]));
                    end = at;
                }
            }
        }
        if let Token::Part(name) = tokens[long] {
            found.push((name, &text[start..end]));
        }
    } else if start != end {
        return false;
    }
    let fits = |(name, v): &(&str, &str)| match *name {
        EXIT_CODE => v.trim().parse::<i64>().is_ok(),
        name if is_long(name) || write_only(name) => true,
        _ => !v.contains('\n'),
    };
    if !found.iter().all(fits) {
        return false;
    }
    for (name, v) in found {
        if name != ANY && !write_only(name) {
            parts.insert(name.to_string(), v.to_string());
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(template: &str, text: &str) -> Option<Vec<(String, String)>> {
        let mut parts = HashMap::new();
        match_text(template, text, &mut parts).then(|| {
            let mut v: Vec<_> = parts.into_iter().collect();
            v.sort();
            v
        })
    }

    fn pairs(p: &[(&str, &str)]) -> Option<Vec<(String, String)>> {
        Some(
            p.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
        )
    }

    #[test]
    fn a_long_part_takes_the_most_it_can_and_short_parts_one_line() {
        let droid = "${output}\n\n[Process exited with code ${exit_code}]";
        assert_eq!(
            read_text(
                droid,
                "a\n\n[Process exited with code 1]\n\n[Process exited with code 0]"
            ),
            pairs(&[
                ("exit_code", "0"),
                ("output", "a\n\n[Process exited with code 1]")
            ])
        );
        assert_eq!(read_text(droid, "no marker"), None);
        assert_eq!(read_text(droid, "x\n\n[Process exited with code z]"), None);
        let pgid = "Output: ${output}\nProcess Group PGID: ${_}\nend";
        assert_eq!(
            read_text(pgid, "Output: a\nb\nProcess Group PGID: 12\nend"),
            pairs(&[("output", "a\nb")])
        );
        assert_eq!(
            read_text(pgid, "Output: a\nProcess Group PGID: 1\n2\nend"),
            None
        );
        // No long part: the texts must cover it all.
        assert_eq!(
            read_text("Exit ${exit_code}.", "Exit 3."),
            pairs(&[("exit_code", "3")])
        );
        assert_eq!(read_text("Exit ${exit_code}.", "Exit 3.x"), None);
        assert_eq!(read_text("literal", "literal"), pairs(&[]));
    }

    /// Each form is JSON, and each string in it holds at most one output part: the rest are
    /// found around it.
    #[test]
    fn every_form_is_json_with_one_output_a_string() {
        fn strings(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::String(s) => out.push(s.clone()),
                Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
                Value::Object(map) => map.values().for_each(|v| strings(v, out)),
                _ => {}
            }
        }
        for flavor in Flavor::all() {
            for form in flavor.tables().protocol.result_forms {
                let value: Value = serde_json::from_str(form.json)
                    .unwrap_or_else(|e| panic!("{}: {e}: {}", flavor.name(), form.json));
                let mut texts = Vec::new();
                strings(&value, &mut texts);
                for text in texts {
                    let long = tokens(&text)
                        .iter()
                        .filter(|t| matches!(t, Token::Part(name) if is_long(name)))
                        .count();
                    assert!(long <= 1, "{}: {text}", flavor.name());
                }
            }
        }
    }
}
