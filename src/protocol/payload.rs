//! Event payloads: a host's stdin into a canonical [`Event`], and an [`Event`] into the stdin
//! and environment a handler of some flavour expects.

use crate::tables::{ArgsForm, EnvValue, Nested};

use crate::diag::{Diagnostic, Severity};
use crate::error::Error;
use crate::model::event::MCP_SERVER;
use crate::model::tool::is_mcp;
use crate::model::{Event, EventKind, ToolCall};
use crate::protocol::{
    args_from_canonical, args_to_canonical, canonical_key, event_name, native_key,
};
use crate::tables::{Dialect, Flavor, KeyCase, MCP_CANONICAL, Tables, TimestampForm, ToolScope};
use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// Canonical keys of the tool call, lifted out of `fields` into [`Event::tool`].
const TOOL_NAME: &str = "tool_name";
const TOOL_INPUT: &str = "tool_input";
pub(crate) const TOOL_RESPONSE: &str = "tool_response";
const TIMESTAMP: &str = "timestamp";
/// Canonical envelope keys of a tool result (Copilot's `toolResult`).
const RESULT_TYPE: &str = "result_type";
const RESULT_TEXT: &str = "text_result_for_llm";
/// The result type of a failed call (Copilot CLI's `resultType`: success, failure, rejected,
/// denied).
const RESULT_FAILURE: &str = "failure";
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
/// Keys written before the tool call, so that payloads read in the usual order.
const COMMON_KEYS: &[&str] = &["session_id", "transcript_path", "cwd", "permission_mode"];

/// Decodes a host's stdin; the event name comes from the payload (or, for payloads that name
/// none, from its shape).
pub fn decode_event(payload: &[u8], host: Dialect) -> Result<(Event, Flavor), Error> {
    decode_event_as(payload, host, None)
}

/// Decodes a host's stdin, with the event name as the host's config registered it
/// (`hookx run --event preToolUse`). Copilot's camelCase payloads do not name their event, and
/// a `permissionRequest` looks like a `preToolUse`: the registered name settles it. A name in
/// the payload wins over `event`.
pub fn decode_event_as(
    payload: &[u8],
    host: Dialect,
    event: Option<&str>,
) -> Result<(Event, Flavor), Error> {
    let obj = payload_object(payload, host)?;
    let flavor = detect_flavor(&obj, host, event);
    let t = flavor.tables();
    let p = &t.protocol;
    let mut obj = match p.reshape {
        Some(reshape) => (reshape.flatten)(obj),
        None => obj,
    };
    let mcp_name = unnest(&mut obj, p.tool_args);

    let kind = payload_kind(flavor, &obj, event)?;
    // The field the name it fired under tells, where the payload has none (Cline's
    // `TaskResume` is a SessionStart of `source: "resume"`).
    let named = obj.get(p.event_key).and_then(Value::as_str).or(event);
    let told = named.and_then(|name| t.event_value(name));

    let mut timestamp = None;
    let mut tool_name = None;
    let mut tool_input = None;
    let mut fields = Map::new();
    let mut top_level_args = Map::new();
    for (key, value) in obj {
        if let Some(arg_keys) = p.tool_args.loose_args()
            && arg_keys.contains(&key.as_str())
        {
            top_level_args.insert(key, value);
            continue;
        }
        if key == p.event_key {
            continue;
        }
        if key == TIMESTAMP
            && t.timestamp != TimestampForm::None
            && let Some(ts) = parse_timestamp(&value)
        {
            timestamp = Some(ts);
            continue;
        }
        let canonical = canonical_key(t, &key);
        match canonical.as_str() {
            TOOL_NAME if value.is_string() => tool_name = Some(value),
            TOOL_INPUT => tool_input = Some(value),
            TOOL_RESPONSE => {
                fields.insert(canonical, decode_tool_result(t, value));
            }
            _ => {
                fields.insert(canonical, value);
            }
        }
    }
    // A tool-category event names no tool: its scope does, and its arguments sit at the top.
    if let (Some(_), ToolScope::Only([id, ..]), true) =
        (p.tool_args.loose_args(), t.tool_scope, kind.is_tool_event())
    {
        tool_name = Some(Value::String(t.tool_name(id).unwrap_or(id).to_string()));
        tool_input = Some(Value::Object(top_level_args));
    } else {
        fields.extend(top_level_args);
    }
    if tool_name.is_none() {
        tool_name = mcp_name.map(Value::String);
    }
    if let Some((key, value)) = told {
        fields.entry(key).or_insert(Value::from(value));
    }
    let tool = payload_tool(flavor, &kind, tool_name, tool_input, &mut fields);
    implied_continuation(flavor, &kind, &mut fields);
    super::failed::decode_mark(t, &kind, &mut fields);
    let result = match (&tool, fields.get(TOOL_RESPONSE)) {
        (Some(tool), Some(value)) => Some(crate::protocol::result::read(flavor, tool, value)),
        _ => None,
    };
    Ok((
        Event {
            kind,
            timestamp,
            tool,
            fields,
            result,
        },
        flavor,
    ))
}

/// Where a host counts the follow-ups its stop continues (Cursor's `loop_count`) and does not
/// say whether it continues one, the canonical `stop_hook_active` that count implies. A
/// handler of another agent that ends its own loop on it (Claude's idiom: block once, let the
/// next stop pass) must see it on the stop after its block, or it blocks again until a cap
/// ends the row, each turn spent (attacks row 1163).
fn implied_continuation(flavor: Flavor, kind: &EventKind, fields: &mut Map<String, Value>) {
    use crate::protocol::CONTINUATION;
    let Some(spec) = flavor.dialect().config().run_keys.follow_ups.as_ref() else {
        return;
    };
    let (Some(key), true) = (spec.count_key, spec.events.contains(kind)) else {
        return;
    };
    if fields.contains_key(CONTINUATION) {
        return;
    }
    if let Some(count) = fields
        .get(&canonical_key(flavor.tables(), key))
        .and_then(Value::as_u64)
    {
        fields.insert(CONTINUATION.to_string(), (count > 0).into());
    }
}

/// The payload as a JSON object; an error names what it is instead (nothing, not JSON, not an
/// object).
fn payload_object(payload: &[u8], host: Dialect) -> Result<Map<String, Value>, Error> {
    if payload.iter().all(u8::is_ascii_whitespace) {
        return Err(invalid(
            1,
            1,
            format!("the {host} event payload is empty: nothing was sent on stdin"),
        ));
    }
    let payload = readable(payload);
    let value: Value = serde_json::from_slice(&payload).map_err(|e| {
        // The position goes into the diagnostic, not twice into its message.
        let message = e.to_string();
        let message = message
            .split(" at line ")
            .next()
            .unwrap_or(&message)
            .to_string();
        invalid(
            e.line(),
            e.column(),
            format!("the {host} event payload is not JSON: {message}"),
        )
    })?;
    let Value::Object(obj) = value else {
        return Err(invalid(
            0,
            0,
            format!(
                "the {host} event payload must be a JSON object, not {}",
                crate::diag::json_type(&value)
            ),
        ));
    };
    Ok(obj)
}

/// The event a payload is: the name it gives, else `event` (the name registered in the host's
/// config), else the first event whose shape (keys) it has.
fn payload_kind(
    flavor: Flavor,
    obj: &Map<String, Value>,
    event: Option<&str>,
) -> Result<EventKind, Error> {
    let t = flavor.tables();
    let p = &t.protocol;
    let named = match obj.get(p.event_key) {
        Some(Value::String(name)) => Some(name.as_str()),
        Some(other) => {
            return Err(invalid(
                0,
                0,
                format!(
                    "`{}` must be a string, not {}",
                    p.event_key,
                    crate::diag::json_type(other)
                ),
            ));
        }
        None => None,
    };
    Ok(match named.or(event) {
        Some(name) => kind_of(flavor, name),
        None => match shape_kind(t, obj) {
            Some(kind) => kind,
            None if p.event_shapes.is_empty() => {
                return Err(invalid(
                    0,
                    0,
                    format!(
                        "the {} event payload has no `{}`",
                        flavor.name(),
                        p.event_key
                    ),
                ));
            }
            None => {
                return Err(Error::Usage(format!(
                    "the {} event payload names no event and its keys match no known event; \
                     pass the event name as registered in the host's config",
                    flavor.name()
                )));
            }
        },
    })
}

/// The tool call a payload names, its input under canonical argument names; `None` when it
/// names none (an input without a name stays in `fields`).
fn payload_tool(
    flavor: Flavor,
    kind: &EventKind,
    tool_name: Option<Value>,
    tool_input: Option<Value>,
    fields: &mut Map<String, Value>,
) -> Option<ToolCall> {
    let t = flavor.tables();
    let p = &t.protocol;
    match tool_name {
        Some(Value::String(name)) if t.tool_codecs.iter().any(|c| c.name == name) => {
            // One tool for several canonical ones: its input says which (or none: it keeps
            // its own name).
            let codec = t.tool_codecs.iter().find(|c| c.name == name);
            let input = tool_input
                .map(|v| decode_args(p.tool_args, v))
                .unwrap_or(Value::Null);
            let cwd = fields.get("cwd").and_then(Value::as_str);
            Some(match codec.and_then(|c| (c.decode)(&input, cwd)) {
                Some((id, input)) => ToolCall {
                    name: id.to_string(),
                    input,
                    other_ids: Vec::new(),
                    rewrite: None,
                },
                None => ToolCall {
                    name,
                    input,
                    other_ids: Vec::new(),
                    rewrite: None,
                },
            })
        }
        Some(Value::String(name)) => {
            let (id, mut other_ids) = mcp_id(t, kind, &name, fields)
                .unwrap_or_else(|| (tool_id(flavor, &name).to_string(), Vec::new()));
            // Where the payload names both parts as configured, the id holds them so.
            let named = mcp_context_parts(t, fields).is_some();
            let rewrite = t.mcp_names.rewrite.filter(|_| is_mcp(&id) && !named);
            // A name the host rewrote whole is also the name before its hash (Qwen's
            // `mcp__p_q__run_1bf5p4t`, Claude's `mcp__p_q__run`; attacks row 2270), one of the
            // limit's length too: Qwen cut it, or wrote a name of 55 units whole (`p.q`'s tool
            // of 45), which a rule on it must not miss (row 2432).
            if let Some(before) = rewrite.and_then(|r| r.hashed(&id))
                && is_mcp(before)
                && !other_ids.iter().any(|o| o == before)
            {
                other_ids.push(before.to_string());
            }
            let input = tool_input
                .map(|v| decode_args(p.tool_args, v))
                .map(|v| args_to_canonical(flavor, Some(&id), v))
                .unwrap_or(Value::Null);
            Some(ToolCall {
                name: id,
                input,
                other_ids,
                rewrite,
            })
        }
        _ => {
            if let Some(input) = tool_input {
                fields.insert(TOOL_INPUT.to_string(), input);
            }
            None
        }
    }
}

/// Lifts the fields of a payload's nested object ([`ArgsForm::Nested`]) to the top, where the
/// other payloads have theirs; the canonical name of an MCP tool its parts name, if they do.
fn unnest(obj: &mut Map<String, Value>, form: ArgsForm) -> Option<String> {
    let ArgsForm::Nested(nested) = form else {
        return None;
    };
    if let Some(Value::Object(inner)) = obj.remove(nested.key) {
        for (key, value) in inner {
            obj.entry(key).or_insert(value);
        }
    }
    let (server_key, tool_key) = nested.mcp_parts?;
    let part = |key: &str| obj.get(key).and_then(Value::as_str).map(str::to_string);
    let (server, tool) = (part(server_key)?, part(tool_key)?);
    obj.remove(server_key);
    obj.remove(tool_key);
    Some(MCP_CANONICAL.join(&server, &tool))
}

/// Guesses which agent sent a payload, from the dialects' tables, strongest evidence first:
/// every key of an agent's own (`HostSpec::payload_keys`: Cursor's three, VS Code's
/// `hookEventName`, Claude's two), camelCase keys or a timestamp (only a dialect whose payloads
/// have them), some of an agent's own keys (the largest share wins: Cursor and VS Code send
/// Claude's `transcript_path` too, Copilot's PascalCase form sometimes), a camelCase event name,
/// events only one agent sends. Agents the payload contradicts are never guessed (a timestamp
/// habit broken, an event they lack, a key only other agents' recordings of the event have),
/// and a guess from some shared keys is refused when another agent's recordings fit as well:
/// no guess beats a wrong one. Bricks payloads look like Claude's without `transcript_path`;
/// telling them apart (by `BRICKS_*` variables) is the caller's business.
pub fn detect_host(payload: &Value) -> Option<Dialect> {
    detect(payload).map(|(host, _)| host)
}

/// Every agent that could have sent `payload`, the one [`detect_host`] guesses first: where
/// the guess rests on the event's name alone (a camelCase `hook_event_name` both Cursor and
/// Kiro send, in payloads whose other keys both have), the other agents that name that event
/// so and that nothing in the payload rules out follow it. Empty when nothing is guessed.
/// Their answers may differ: the caller answers in a form all of them read, or not at all.
pub fn detect_hosts(payload: &Value) -> Vec<Dialect> {
    let Some((host, by_name)) = detect(payload) else {
        return Vec::new();
    };
    let mut hosts = vec![host];
    if by_name && let Some(obj) = payload.as_object() {
        let name = obj.get("hook_event_name").and_then(Value::as_str);
        hosts.extend(Dialect::all().iter().copied().filter(|d| {
            *d != host
                && !rules_out(obj, *d)
                && name.is_some_and(|name| {
                    d.flavors().any(|f| {
                        let t = f.tables();
                        t.payload_event_kind(name).is_some() || t.event_kind(name).is_some()
                    })
                })
        }));
    }
    hosts
}

/// [`detect_host`]'s guess, and whether it rests on the event's name alone.
fn detect(payload: &Value) -> Option<(Dialect, bool)> {
    let obj = payload.as_object()?;
    let event = obj.get("hook_event_name").and_then(Value::as_str);
    let recorded = |t: &Tables| recorded_keys(obj, t);
    let contradicted = |d: Dialect| rules_out(obj, d);
    let find = |pred: &dyn Fn(Dialect) -> bool| {
        Dialect::all()
            .iter()
            .copied()
            .find(|d| !contradicted(*d) && pred(*d))
    };
    let any_flavor =
        |d: Dialect, pred: &dyn Fn(&Tables) -> bool| d.flavors().any(|f| pred(f.tables()));
    // (present, listed) of an agent's own keys.
    let own_keys = |d: &Dialect| {
        let keys = d.def().host.payload_keys;
        (
            keys.iter().filter(|k| obj.contains_key(**k)).count(),
            keys.len(),
        )
    };
    // Whether the payload, when it names its event under some agent's event key, names an
    // event of `d` under `d`'s own (a VS Code `hookEventName` is no Gemini payload, a Claude
    // `PreToolUse` no Gemini event).
    let names_event = Dialect::all()
        .iter()
        .flat_map(|d| d.flavors())
        .any(|f| obj.contains_key(f.tables().protocol.event_key));
    let names_own_event = |d: &Dialect| {
        !names_event
            || d.flavors().any(|f| {
                let t = f.tables();
                obj.get(t.protocol.event_key)
                    .and_then(Value::as_str)
                    .is_some_and(|name| t.payload_event_kind(name).is_some())
            })
    };
    // Of the agents whose payload names one of their events, the one whose own keys are
    // present in the largest share (`full`: all of them), the first registered on a tie.
    let best_by_keys = |full: bool| {
        Dialect::all()
            .iter()
            .copied()
            .filter(|d| {
                let (present, listed) = own_keys(d);
                present > 0
                    && (!full || present == listed)
                    && names_own_event(d)
                    && !contradicted(*d)
            })
            .fold(None, |best: Option<Dialect>, d| match best {
                Some(b) => {
                    let ((p, n), (bp, bn)) = (own_keys(&d), own_keys(&b));
                    Some(if p * bn > bp * n || (full && p > bp) {
                        d
                    } else {
                        b
                    })
                }
                None => Some(d),
            })
    };
    // Another agent whose recorded payloads of this event hold every key of this one makes
    // even a full match ambiguous (Droid's tool payloads are Claude's, fewer keys).
    let holds_every_key = |o: Dialect| {
        !contradicted(o)
            && o.flavors().any(|f| {
                recorded(f.tables())
                    .is_some_and(|keys| obj.keys().all(|k| keys.contains(&k.as_str())))
            })
    };
    if let Some(d) = best_by_keys(true) {
        let rival = Dialect::all()
            .iter()
            .any(|o| *o != d && holds_every_key(*o));
        return (!rival).then_some((d, false));
    }
    if obj.keys().any(|k| is_camel_case(k))
        && let Some(d) = find(&|d| any_flavor(d, &|t| t.key_case == KeyCase::Camel))
    {
        return Some((d, false));
    }
    if obj.contains_key(TIMESTAMP) {
        // Of the agents that send a timestamp (and spell the event so, when it is named), one
        // whose own keys are there, else the first: Gemini's and Copilot's PascalCase payloads
        // share some event names and both have an ISO timestamp; only Gemini's always carry
        // `transcript_path`.
        let names_event =
            |d: Dialect| event.is_none_or(|e| any_flavor(d, &|t| t.event_kind(e).is_some()));
        let stamped =
            |d: Dialect| any_flavor(d, &|t| t.timestamp != TimestampForm::None) && names_event(d);
        let own_keys = |d: Dialect| {
            d.def()
                .host
                .payload_keys
                .iter()
                .any(|k| obj.contains_key(*k))
        };
        if let Some(d) = find(&|d| stamped(d) && own_keys(d)).or_else(|| find(&stamped)) {
            return Some((d, false));
        }
    }
    // Some of an agent's keys are weak evidence: another agent whose recorded payloads of this
    // event hold every key of it (Codex's SessionEnd is Claude's without `prompt_id`) makes the
    // payload ambiguous.
    let fits_recorded =
        |d: Dialect| !contradicted(d) && d.flavors().any(|f| recorded(f.tables()).is_some());
    if let Some(d) = best_by_keys(false) {
        let rival = Dialect::all().iter().any(|o| *o != d && fits_recorded(*o));
        return (!rival).then_some((d, false));
    }

    let name = event?;
    let lower = |n: &str| n.starts_with(|c: char| c.is_ascii_lowercase());
    if lower(name)
        && let Some(d) =
            find(&|d| any_flavor(d, &|t| t.events.first().is_some_and(|(_, n)| lower(n))))
    {
        return Some((d, true));
    }
    find(&|d| {
        d.flavors().any(|f| {
            f.tables()
                .event_kind(name)
                .is_some_and(|k| d.def().host.payload_events.contains(&k))
        })
    })
    .map(|d| (d, true))
}

/// The event `obj` names under `t`'s event key: `None` when it names none there, `Some(None)`
/// when `t` has no such event.
fn named_event(obj: &Map<String, Value>, t: &Tables) -> Option<Option<EventKind>> {
    let name = obj.get(t.protocol.event_key).and_then(Value::as_str)?;
    Some(t.payload_event_kind(name))
}

/// The recorded keys of the event `obj` names in `t`'s spelling, if recorded.
fn recorded_keys(obj: &Map<String, Value>, t: &Tables) -> Option<&'static [&'static str]> {
    named_event(obj, t)
        .flatten()
        .and_then(|kind| t.payload_keys(&kind))
}

/// Whether the payload rules agent `d` out as its sender: none of its flavours could have sent
/// it. The flavour stamps every payload and this one has no `timestamp` (or it never stamps and
/// this one has one), the payload names an event the flavour does not have, or it has a key the
/// flavour's recorded payloads of that event never had and another agent's had (a Codex
/// `turn_id` or `model` in a Claude PreToolUse, a Claude `prompt_id` in a Codex one). A key no
/// recording has (a documented one) tells nothing.
pub fn rules_out(obj: &Map<String, Value>, d: Dialect) -> bool {
    let others_key = |key: &str| {
        Dialect::all()
            .iter()
            .filter(|o| **o != d)
            .flat_map(|o| o.flavors())
            .any(|f| recorded_keys(obj, f.tables()).is_some_and(|keys| keys.contains(&key)))
    };
    d.flavors().all(|f| {
        let t = f.tables();
        (t.timestamp != TimestampForm::None) != obj.contains_key(TIMESTAMP)
            || named_event(obj, t).is_some_and(|kind| kind.is_none())
            || recorded_keys(obj, t).is_some_and(|keys| {
                obj.keys()
                    .any(|k| !keys.contains(&k.as_str()) && others_key(k))
            })
    })
}

/// The event hookx decodes from `host`'s recorded payload of `kind`, each key holding a value
/// of its shape: what a rule run under `host` is shown, for the checks that need no real call
/// (a payload key or a matched field the host never sends). `None` when never recorded.
pub fn recorded_event(host: Dialect, kind: &EventKind) -> Option<Event> {
    let t = host.default_flavor().tables();
    let keys = t.payload_keys(kind)?;
    let name = t.event_name(kind)?;
    let tool = t.tools.first().and_then(|(_, n)| n.first()).copied();
    let mut payload = Map::new();
    // Values of the shape each key has (what decoding looks at); the keys are what counts.
    for key in keys {
        let value = match super::canonical_key(t, key).as_str() {
            _ if *key == t.protocol.event_key => Value::from(name),
            "timestamp" => match t.timestamp {
                TimestampForm::EpochMillis => Value::from(1_700_000_000_000u64),
                _ => Value::from("2026-01-01T00:00:00Z"),
            },
            "tool_name" => tool.map_or(Value::Null, Value::from),
            "tool_input" | "tool_response" => Value::Object(Map::new()),
            _ => Value::from("x"),
        };
        payload.insert(key.to_string(), value);
    }
    let bytes = serde_json::to_vec(&Value::Object(payload)).ok()?;
    let (mut decoded, _) = decode_event_as(&bytes, host, Some(name)).ok()?;
    // A host that nests the call in an object (Cline's `preToolUse`) gets none from the sample's
    // flat values: its tool events still carry one, and a result after it.
    if kind.is_tool_event() && decoded.tool.is_none() {
        decoded.tool = Some(ToolCall {
            name: t.canonical_tool(tool.unwrap_or_default()).to_string(),
            input: Value::Object(Map::new()),
            other_ids: Vec::new(),
            rewrite: None,
        });
        if *kind == EventKind::PostToolUse {
            decoded
                .fields
                .insert("tool_response".into(), Value::Object(Map::new()));
        }
    }
    Some(decoded)
}

/// The stdin a handler of `flavor` expects for `event`.
pub fn encode_event(event: &Event, flavor: Flavor) -> Value {
    let event = &*super::failed::shown_to(event, flavor);
    let failed = super::failed::failed(event);
    let t = flavor.tables();
    let p = &t.protocol;
    let mut out = Map::new();
    let name = match p.event_key_only {
        None => Some(event_name(t, &event.kind)),
        Some(only) => {
            let names = || only.iter().filter(|(k, _)| *k == event.kind);
            // The name of the firing the event's field tells, else the event's first.
            let told = names().find(|(_, n)| {
                t.event_value(n)
                    .is_some_and(|(key, value)| event.field(key) == Some(value))
            });
            told.or_else(|| names().next())
                .map(|(_, n)| (*n).to_string())
        }
    };
    if let Some(name) = name {
        out.insert(p.event_key.to_string(), Value::String(name));
    }
    if let Some(ts) = event.timestamp {
        match t.timestamp {
            TimestampForm::None => {}
            TimestampForm::EpochMillis => {
                out.insert(TIMESTAMP.into(), ts.timestamp_millis().into());
            }
            TimestampForm::Iso8601 => {
                out.insert(
                    TIMESTAMP.into(),
                    ts.to_rfc3339_opts(SecondsFormat::AutoSi, true).into(),
                );
            }
        }
    }
    let mut tool_done = event.tool.is_none();
    for (key, value) in &event.fields {
        if !tool_done && !COMMON_KEYS.contains(&key.as_str()) {
            encode_tool(event, flavor, &mut out);
            tool_done = true;
        }
        let native = native_key(t, key);
        if out.contains_key(&native) {
            continue;
        }
        let value = if key == TOOL_RESPONSE {
            encode_tool_result(
                t,
                &crate::protocol::result::write(event, flavor, value),
                failed,
            )
        } else {
            value.clone()
        };
        out.insert(native, value);
    }
    if !tool_done {
        encode_tool(event, flavor, &mut out);
    }
    if let ArgsForm::Nested(nested) = p.tool_args {
        let (top, inner): (Map<String, Value>, Map<String, Value>) = out
            .into_iter()
            .partition(|(key, _)| nested.top.contains(&key.as_str()));
        out = top;
        out.insert(nested.key.to_string(), Value::Object(inner));
    }
    match p.reshape {
        Some(reshape) => Value::Object((reshape.nest)(&event.kind, out)),
        None => Value::Object(out),
    }
}

/// The environment variables a handler of `flavor` expects, beyond those it inherits.
/// `hook_dir` is the folder of the handler's hook file, where known. A value no variable can
/// hold (a session id with a NUL, from the payload) is left out: no process starts with it,
/// and a guard that could not start lost its deny (attacks row 520); its payload still has it.
pub fn handler_env(
    event: &Event,
    flavor: Flavor,
    project_dir: &str,
    hook_dir: Option<&str>,
) -> Vec<(String, String)> {
    let t = flavor.tables();
    t.protocol
        .env
        .iter()
        .filter_map(|(name, value)| {
            let value = match value {
                EnvValue::ProjectDir => project_dir.to_string(),
                EnvValue::HookDir => hook_dir?.to_string(),
                EnvValue::SessionId => event.field("session_id")?.to_string(),
                EnvValue::EventName => event_name(t, &event.kind),
                EnvValue::Literal(s) => (*s).to_string(),
            };
            Some(((*name).to_string(), value)).filter(|(_, v)| !v.contains('\0'))
        })
        .collect()
}

/// Which flavour of the host's dialect a payload is in. Only Copilot has two. The strongest
/// evidence wins: camelCase keys, then an event name the payload gives in the spelling of the
/// flavour that names every event, then the event name the caller registered (which `hookx
/// exec` gives in the handler's spelling, not the host's), then the timestamp's type, then
/// whether the payload names its event.
fn detect_flavor(obj: &Map<String, Value>, host: Dialect, event: Option<&str>) -> Flavor {
    let flavors: Vec<Flavor> = host.flavors().collect();
    let find = |pred: &dyn Fn(&Tables) -> bool| flavors.iter().copied().find(|f| pred(f.tables()));
    if let [only] = flavors.as_slice() {
        return *only;
    }
    if obj.keys().any(|k| is_camel_case(k))
        && let Some(f) = find(&|t| t.key_case == KeyCase::Camel)
    {
        return f;
    }
    if let Some(f) = find(&|t| {
        t.protocol.event_key_only.is_none()
            && obj
                .get(t.protocol.event_key)
                .and_then(Value::as_str)
                .is_some_and(|name| t.event_kind(name).is_some())
    }) {
        return f;
    }
    if let Some(name) = event
        && let Some(f) = find(&|t| t.event_kind(name).is_some())
    {
        return f;
    }
    let form = match obj.get(TIMESTAMP) {
        Some(Value::Number(_)) => Some(TimestampForm::EpochMillis),
        Some(Value::String(_)) => Some(TimestampForm::Iso8601),
        _ => None,
    };
    if let Some(form) = form
        && let Some(f) = find(&|t| t.timestamp == form)
    {
        return f;
    }
    // The flavour that names every event owns payloads that name one; the other names none
    // (or a few, and those have camelCase keys, seen above).
    find(&|t| t.protocol.event_key_only.is_none() == obj.contains_key(t.protocol.event_key))
        .unwrap_or(host.default_flavor())
}

/// The event an event name stands for: this flavour's name, else a sibling flavour's, else a
/// canonical name, else an unknown event kept under its name.
fn kind_of(flavor: Flavor, name: &str) -> EventKind {
    let t = flavor.tables();
    if let Some(kind) = t.event_kind(name) {
        return kind;
    }
    if let Some(only) = t.protocol.event_key_only
        && let Some((kind, _)) = only.iter().find(|(_, n)| *n == name)
    {
        return kind.clone();
    }
    Flavor::all()
        .iter()
        .filter(|f| f.dialect() == flavor.dialect())
        .find_map(|f| f.tables().event_kind(name))
        .unwrap_or_else(|| EventKind::from_name(name))
}

fn shape_kind(t: &Tables, obj: &Map<String, Value>) -> Option<EventKind> {
    t.protocol
        .event_shapes
        .iter()
        .find(|(_, keys)| keys.iter().all(|k| obj.contains_key(*k)))
        .map(|(kind, _)| kind.clone())
}

/// Epoch milliseconds or an ISO 8601 string; anything else stays a plain field.
fn parse_timestamp(value: &Value) -> Option<DateTime<Utc>> {
    match value {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64))
            .and_then(DateTime::from_timestamp_millis),
        Value::String(s) => DateTime::parse_from_rfc3339(s)
            .ok()
            .map(|d| d.with_timezone(&Utc)),
        _ => None,
    }
}

/// Tool arguments sent as a JSON string are parsed when they hold an object; any other string
/// is a freeform tool's plain input and stays a string.
fn decode_args(form: ArgsForm, value: Value) -> Value {
    match (form, value) {
        (ArgsForm::Object, v) => v,
        (_, Value::String(s)) => match serde_json::from_str::<Value>(&s) {
            Ok(parsed @ Value::Object(_)) => parsed,
            _ => Value::String(s),
        },
        (_, v) => v,
    }
}

/// The canonical id (`mcp__server__tool`) of an MCP tool named in a flavour's own form, from
/// the payload's MCP context where it has one, else from the name: the server ending at the
/// first separator, with the ids of every later end beside it (attacks row 1287: Copilot's
/// `x-y-run` is server `x-y`'s tool `run` as well as server `x`'s `y-run`).
fn mcp_id(
    t: &Tables,
    kind: &EventKind,
    name: &str,
    fields: &Map<String, Value>,
) -> Option<(String, Vec<String>)> {
    let names = t.mcp_names.on(kind);
    if names.canonical_on(kind) {
        return None;
    }
    let mut ids: Vec<String> = match mcp_context_parts(t, fields) {
        Some((server, tool)) => vec![MCP_CANONICAL.join(server, tool)],
        None => names
            .splits(name)
            .into_iter()
            .map(|(server, tool)| MCP_CANONICAL.join(server, tool))
            .collect(),
    };
    // Where the host's rewrite can be undone (Copilot's `xn--caf-dma` is `café`), the names as
    // configured, first; where the payload names the server as configured, the server as the
    // rewrite writes it too, which a rule the rewrite read names (attacks row 1862).
    if let Some(rewrite) = names
        .rewrite
        .filter(|_| mcp_context_parts(t, fields).is_none())
    {
        let (mut undone, mut written) = (Vec::new(), Vec::new());
        for (server, tool) in names.splits(name) {
            let undo = |part: &str| rewrite.configured(part).unwrap_or_else(|| part.to_string());
            let (s, t) = (undo(server), undo(tool));
            if (s.as_str(), t.as_str()) != (server, tool) {
                undone.push(MCP_CANONICAL.join(&s, &t));
            }
            written.push(MCP_CANONICAL.join(&rewrite.name(&s), &t));
        }
        let all = undone.into_iter().chain(ids).chain(written);
        ids = Vec::new();
        for id in all {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    // A name cut where the server ends (Copilot's `permissionRequest` `LONG/`): that server's
    // tool, which it does not name; a name of the length the host cuts to, which no split
    // reads (Copilot's `…_64_cha2`): an MCP tool too, whose server is not known (attacks row
    // 2271).
    if ids.is_empty()
        && let Some(server) = name
            .strip_prefix(names.prefix)
            .and_then(|n| n.strip_suffix(names.separator))
            .filter(|s| !s.is_empty() && !s.contains(names.separator))
    {
        ids.push(MCP_CANONICAL.join(server, ""));
    } else if ids.is_empty()
        && names
            .rewrite
            .and_then(|r| r.cut)
            .is_some_and(|cut| name.encode_utf16().count() == cut)
    {
        return Some((
            name.to_string(),
            vec![format!("{}{name}", MCP_CANONICAL.prefix)],
        ));
    }
    let mut ids = ids.into_iter();
    Some((ids.next()?, ids.collect()))
}

/// The server and tool a payload's MCP context names as configured (Gemini's `mcp_context`),
/// whatever the tool name says: Gemini CLI 0.61.0 writes `café`'s `run` as `mcp_caf__run`
/// (attacks rows 1868, 1941).
fn mcp_context_parts<'a>(t: &Tables, fields: &'a Map<String, Value>) -> Option<(&'a str, &'a str)> {
    let context = fields.get(t.protocol.mcp_context_key?)?;
    let part = |key: &str| context.get(key).and_then(Value::as_str);
    let (server, tool) = (part("server_name")?, part("tool_name")?);
    (!server.is_empty() && !tool.is_empty()).then_some((server, tool))
}

/// The server `event`'s MCP call `id` names, where the payload says it exactly
/// ([`MCP_SERVER`], Claude's): the server as configured, then as the id holds it (the host's
/// [`crate::model::tool::NameRewrite`]: Claude's `p.q` is `mcp__p_q__run`, attacks row 1867),
/// and the tool. The id alone splits at the first `__`.
fn named_mcp_parts<'a>(event: &'a Event, id: &'a str) -> Option<(&'a str, &'a str, &'a str)> {
    let server = event.fields.get(MCP_SERVER)?.get("name")?.as_str()?;
    let rest = id.strip_prefix(MCP_CANONICAL.prefix)?;
    let written = match event.tool.as_ref().and_then(|t| t.rewrite) {
        Some(rewrite) => rewrite.server(&event.kind, server),
        None => server.to_string(),
    };
    let tool = rest
        .strip_prefix(written.as_str())?
        .strip_prefix(MCP_CANONICAL.separator)?;
    let written = &rest[..written.len()];
    (!server.is_empty() && !tool.is_empty()).then_some((server, written, tool))
}

/// [`tool_name`] for the tool `id` of `event`: an MCP tool's server as the payload names it,
/// where it does (attacks row 1289: Claude's server `a__b`, which Copilot spells `a__b-run`),
/// in the flavour's spelling for the event (Copilot's `permissionRequest`: `SERVER/TOOL`), its
/// characters as the flavour's agent writes them (a Codex handler gets `x-y`'s `mcp__x_y__run`
/// under Claude, as Codex sends it; attacks row 1942).
pub fn event_tool_name<'a>(flavor: Flavor, event: &'a Event, id: &'a str) -> Cow<'a, str> {
    let mcp = flavor.tables().mcp_names;
    // A name the host hashed (Qwen's `mcp__p_q__run_1bf5p4t`) is, to an agent that does not,
    // the name before the hash (Claude's `mcp__p_q__run`; attacks row 2270).
    let host = event.tool.as_ref().and_then(|t| t.rewrite);
    let id = match host.filter(|r| mcp.rewrite != Some(*r)) {
        Some(r) => r.unhashed(id).filter(|before| is_mcp(before)).unwrap_or(id),
        None => id,
    };
    let rewrite = mcp.rewrite.filter(|_| is_mcp(id));
    if mcp.canonical_on(&event.kind) && rewrite.is_none() {
        return tool_name(flavor, id);
    }
    let mcp = mcp.on(&event.kind);
    let parts = named_mcp_parts(event, id).map(|(server, _, tool)| (server, tool));
    // A server's tool it does not name (Copilot's `LONG/`, attacks row 2271).
    let unnamed = || {
        id.strip_prefix(MCP_CANONICAL.prefix)?
            .strip_suffix(MCP_CANONICAL.separator)
            .filter(|s| !s.is_empty() && !s.contains(MCP_CANONICAL.separator))
            .map(|s| (s, ""))
    };
    match parts.or_else(|| MCP_CANONICAL.split(id)).or_else(unnamed) {
        Some((server, tool)) => Cow::Owned(match rewrite {
            // Qwen's `mcp__p_q__run_1bf5p4t` for `p.q`'s `run` (attacks row 2270).
            Some(r) if r.whole.is_some() => r
                .whole_name(&mcp.join(server, tool))
                .unwrap_or_else(|| mcp.join(server, tool)),
            Some(r) => mcp.join(&r.server(&event.kind, server), &r.name(tool)),
            None => mcp.join(server, tool),
        }),
        None => tool_name(flavor, id),
    }
}

/// Every spelling of the MCP tool `id` of `event` for `flavor`, [`event_tool_name`]'s first:
/// the names as configured where its agent rewrites them (a rule may name them so), and where
/// the payload names the server, the server as the id holds it too (read by a matcher the
/// host's rewrite changed); where it does not, a canonical id holding `__` more than once splits
/// every way (Codex's server `a__b`, whose `mcp__a__b__run` a Gemini `mcp_a__b_run` names;
/// attacks row 1863).
pub fn event_tool_names(flavor: Flavor, event: &Event, id: &str) -> Vec<String> {
    let first = event_tool_name(flavor, event, id).into_owned();
    if !is_mcp(id) {
        return vec![first];
    }
    let mcp = flavor.tables().mcp_names.on(&event.kind);
    let parts = match named_mcp_parts(event, id) {
        Some((server, written, tool)) => vec![(server, tool), (written, tool)],
        None => MCP_CANONICAL.splits(id),
    };
    let mut names = vec![first];
    for (server, tool) in parts {
        let name = mcp.join(server, tool);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

fn encode_tool(event: &Event, flavor: Flavor, out: &mut Map<String, Value>) {
    let Some(tool) = &event.tool else { return };
    let t = flavor.tables();
    let cwd = event.fields.get("cwd").and_then(Value::as_str);
    let coded = t
        .tool_codecs
        .iter()
        .filter(|c| c.ids.contains(&tool.name.as_str()))
        .find_map(|c| Some((c.name, (c.encode)(&tool.name, &tool.input, cwd)?)));
    if let Some((name, input)) = coded {
        match (t.protocol.tool_args.loose_args(), input) {
            // The event is the tool: its arguments sit among the payload's keys.
            (Some(_), Value::Object(map)) => {
                for (key, value) in map {
                    out.entry(key).or_insert(value);
                }
            }
            (_, input) => {
                out.insert(native_key(t, TOOL_NAME), Value::String(name.to_string()));
                out.insert(native_key(t, TOOL_INPUT), input);
            }
        }
        return;
    }
    let args = args_from_canonical(flavor, Some(&tool.name), &tool.input);
    if let ArgsForm::Nested(Nested {
        mcp_parts: Some((server_key, tool_key)),
        ..
    }) = t.protocol.tool_args
        && let Some((server, name)) = MCP_CANONICAL.split(&tool.name)
    {
        // The name is its two parts.
        out.insert(server_key.to_string(), server.into());
        out.insert(tool_key.to_string(), name.into());
        if !tool.input.is_null() {
            out.insert(native_key(t, TOOL_INPUT), args);
        }
        return;
    }
    if t.protocol.tool_args.loose_args().is_some() {
        // The event is the tool: its arguments sit at the top level, no name is sent.
        if let Value::Object(map) = args {
            for (key, value) in map {
                out.entry(key).or_insert(value);
            }
        }
        return;
    }
    let name = event_tool_name(flavor, event, &tool.name).into_owned();
    out.insert(native_key(t, TOOL_NAME), Value::String(name));
    if tool.input.is_null() {
        return;
    }
    let args = match (t.protocol.tool_args, args) {
        (ArgsForm::JsonString, v @ (Value::Object(_) | Value::Array(_))) => {
            Value::String(v.to_string())
        }
        (_, v) => v,
    };
    out.insert(native_key(t, TOOL_INPUT), args);
}

/// The name a handler of `flavor` sees for a tool: its own dialect's, else (a tool its dialect
/// does not have, such as Claude's `NotebookEdit` for Copilot) the name an agent that has it
/// gives it, never hookx's internal id (`notebook_edit`); unknown tools keep their name. An MCP
/// tool is spelled in the flavour's MCP form.
pub fn tool_name(flavor: Flavor, id: &str) -> Cow<'_, str> {
    let mcp = flavor.tables().mcp_names;
    if !mcp.canonical_on(&EventKind::PreToolUse)
        && let Some((server, tool)) = MCP_CANONICAL.split(id)
    {
        return Cow::Owned(mcp.join(server, tool));
    }
    Cow::Borrowed(
        flavor
            .tables()
            .tool_name(id)
            .or_else(|| Flavor::all().iter().find_map(|f| f.tables().tool_name(id)))
            .unwrap_or(id),
    )
}

/// The canonical id of a tool name in a `flavor` payload: its own dialect's name, else a name
/// another agent gives it (what [`tool_name`] writes for a tool the dialect lacks), else the
/// name itself.
fn tool_id(flavor: Flavor, name: &str) -> &str {
    let known = |f: Flavor| {
        f.tables()
            .tools
            .iter()
            .find(|(_, names)| names.contains(&name))
            .map(|(id, _)| *id)
    };
    known(flavor)
        .or_else(|| Flavor::all().iter().copied().find_map(known))
        .unwrap_or(name)
}

/// A tool-result envelope gets canonical keys; a raw tool response is kept as it is.
pub(crate) fn decode_tool_result(t: &Tables, value: Value) -> Value {
    let (Some((type_key, text_key)), Value::Object(map)) = (t.protocol.tool_result_keys, &value)
    else {
        return value;
    };
    map.iter()
        .map(|(k, v)| {
            let k = if k == type_key {
                RESULT_TYPE
            } else if k == text_key {
                RESULT_TEXT
            } else {
                k
            };
            (k.to_string(), v.clone())
        })
        .collect::<Map<_, _>>()
        .into()
}

/// The tool result in a flavour's envelope. A raw tool response (from a flavour without an
/// envelope) is wrapped as a success whose text is the response (JSON-encoded unless a string),
/// or as a failure after a call that `failed` (attacks row 1552: Gemini's failed call reached
/// a Copilot hook as `resultType: "success"`).
pub(crate) fn encode_tool_result(t: &Tables, value: &Value, failed: bool) -> Value {
    let Some((type_key, text_key)) = t.protocol.tool_result_keys else {
        return value.clone();
    };
    match value {
        Value::Object(map) if map.contains_key(RESULT_TYPE) || map.contains_key(RESULT_TEXT) => map
            .iter()
            .map(|(k, v)| {
                let k = match k.as_str() {
                    RESULT_TYPE => type_key,
                    RESULT_TEXT => text_key,
                    other => other,
                };
                (k.to_string(), v.clone())
            })
            .collect::<Map<_, _>>()
            .into(),
        other => {
            let text = match other {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            let mut map = Map::new();
            let kind = if failed { RESULT_FAILURE } else { "success" };
            map.insert(type_key.to_string(), kind.into());
            map.insert(text_key.to_string(), text.into());
            Value::Object(map)
        }
    }
}

/// A camelCase key (`toolName`); an upper-case one (`CLAUDE_ENV_FILE`, which Factory Droid
/// 0.225.2 sends in its snake_case SessionStart payload) is not.
fn is_camel_case(key: &str) -> bool {
    key.starts_with(|c: char| c.is_ascii_lowercase()) && key.chars().any(|c| c.is_ascii_uppercase())
}

/// A host's payload as JSON can read it: without the UTF-8 byte order mark some hosts (Cursor)
/// put first, which JSON forbids, and with lone surrogates replaced
/// ([`replace_lone_surrogates`]).
pub fn readable(payload: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    replace_lone_surrogates(payload.strip_prefix(UTF8_BOM).unwrap_or(payload))
}

/// `payload` with every lone UTF-16 surrogate escape (`"\ud83d"` without its pair, as Node
/// writes half an emoji cut off by `slice`) replaced by `\ufffd`, the replacement character: a
/// Rust string cannot hold one, and serde_json refuses the whole payload for it. Same length;
/// borrowed unless something was replaced. Backslashes only occur inside strings in JSON, so
/// escapes are read without tracking quotes.
pub fn replace_lone_surrogates(payload: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let hex4 = |at: usize| -> Option<u32> {
        let digits = payload.get(at..at + 4)?;
        u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
    };
    let unit_at = |at: usize| -> Option<u32> {
        (payload.get(at..at + 2)? == b"\\u")
            .then(|| hex4(at + 2))
            .flatten()
    };
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while let Some(off) = payload
        .get(i..)
        .and_then(|rest| rest.iter().position(|&b| b == b'\\'))
    {
        let at = i + off;
        let Some(unit) = unit_at(at) else {
            // Any other escape: skip the escaped character (it may be a backslash).
            i = at + 2;
            continue;
        };
        let high = (0xD800..0xDC00).contains(&unit);
        let paired = high && unit_at(at + 6).is_some_and(|u| (0xDC00..0xE000).contains(&u));
        if paired {
            i = at + 12;
        } else {
            if (0xD800..0xE000).contains(&unit) {
                let buf = out.get_or_insert_with(|| payload.to_vec());
                buf[at..at + 6].copy_from_slice(b"\\ufffd");
            }
            i = at + 6;
        }
    }
    match out {
        Some(fixed) => std::borrow::Cow::Owned(fixed),
        None => std::borrow::Cow::Borrowed(payload),
    }
}

fn invalid(line: usize, col: usize, message: String) -> Error {
    Error::Invalid(vec![Diagnostic {
        severity: Severity::Error,
        file: "<stdin>".to_string(),
        line,
        col,
        pointer: None,
        message,
        help: None,
        snippet: None,
    }])
}

#[cfg(test)]
mod surrogate_tests {
    use super::replace_lone_surrogates;

    fn fixed(s: &str) -> String {
        String::from_utf8(replace_lone_surrogates(s.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn lone_surrogates_become_replacement_characters_and_pairs_stay() {
        assert_eq!(fixed(r#"{"a":"x\ud83d"}"#), r#"{"a":"x\ufffd"}"#);
        assert_eq!(fixed(r#"{"a":"\udc00y"}"#), r#"{"a":"\ufffdy"}"#);
        assert_eq!(fixed(r#"{"a":"\ud83d\ude00"}"#), r#"{"a":"\ud83d\ude00"}"#);
        assert_eq!(
            fixed(r#"{"a":"\ud83d\ud83d\ude00"}"#),
            r#"{"a":"\ufffd\ud83d\ude00"}"#
        );
        // An escaped backslash followed by `ud83d` is text, not an escape.
        assert_eq!(fixed(r#"{"a":"\\ud83d"}"#), r#"{"a":"\\ud83d"}"#);
        assert_eq!(fixed(r#"{"a":"\ud83d"#), r#"{"a":"\ufffd"#);
        assert_eq!(fixed(r#"{"a":"\ud8"}"#), r#"{"a":"\ud8"}"#);
        assert_eq!(fixed("\\"), "\\");
    }
}

#[cfg(test)]
mod mcp_tests {
    use super::*;
    use crate::dialect::{claude, gemini};

    /// Gemini CLI 0.61.0 (run): the MCP server `probe`'s tool `echo` is `mcp_probe_echo`, with
    /// `mcp_context` naming both parts. Other agents spell it `mcp__probe__echo`.
    #[test]
    fn mcp_tool_names_follow_each_flavour() {
        let payload = br#"{"session_id": "s", "cwd": "/p", "hook_event_name": "BeforeTool",
            "timestamp": "2026-12-01T14:57:53.788Z", "tool_name": "mcp_my_server_echo_all",
            "tool_input": {"text": "hi"},
            "mcp_context": {"server_name": "my_server", "tool_name": "echo_all"}}"#;
        let (event, _) = decode_event(payload, gemini::DIALECT).unwrap();
        assert_eq!(
            event.tool.as_ref().unwrap().name,
            "mcp__my_server__echo_all"
        );
        assert_eq!(
            encode_event(&event, claude::FLAVOR)["tool_name"],
            "mcp__my_server__echo_all"
        );
        assert_eq!(
            encode_event(&event, gemini::FLAVOR)["tool_name"],
            "mcp_my_server_echo_all"
        );
        // Without a context, the server ends at the first separator.
        let bare = br#"{"session_id": "s", "cwd": "/p", "hook_event_name": "BeforeTool",
            "tool_name": "mcp_probe_echo", "tool_input": {}}"#;
        let (event, _) = decode_event(bare, gemini::DIALECT).unwrap();
        assert_eq!(event.tool.unwrap().name, "mcp__probe__echo");
    }
}
