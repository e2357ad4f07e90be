//! One fired event, in canonical form: what a host sent, before it is re-encoded for a handler.

use crate::model::EventKind;
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};

/// A fired event. Field names in `fields` are canonical (Claude's snake_case names); each
/// dialect's payload table maps them to its own keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Event {
    pub kind: EventKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<DateTime<Utc>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<ToolCall>,
    /// Every other field (`session_id`, `cwd`, `prompt`, `source`, …, and unknown ones).
    pub fields: Map<String, Value>,
    /// The tool's result (`fields["tool_response"]`, in the host's shape) read into its
    /// parts, where the host's tables say how: a handler of another agent gets it in its own
    /// agent's shape (attacks rows 1554, 1555). `None`: passed on as the host sent it.
    #[serde(skip)]
    pub result: Option<ToolResult>,
}

/// A tool's result in parts, whatever agent's shape it came in: a shell call's output and
/// exit code, an MCP call's text. What the parts mean per tool is each dialect's table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToolResult {
    /// The dialect whose shape the event's `tool_response` is in: a handler of its own gets
    /// that as it is.
    pub shape_of: &'static str,
    /// What the tool printed on stdout (a shell), or its text (an MCP tool); where the host
    /// gives one text of both streams, that text.
    pub stdout: String,
    /// What the tool printed on stderr, where the host gives it apart.
    pub stderr: String,
    /// The shell's exit code, where the host says it.
    pub exit_code: Option<i64>,
}

/// The canonical name of the field that names an MCP call's server, `{"name": SERVER}`
/// (Claude's): exactly, where the canonical id splits at the first `__` (a server `a__b`).
pub const MCP_SERVER: &str = "mcp_server";
/// The canonical name of the field that names the event's session.
pub const SESSION_ID: &str = "session_id";
/// The canonical name of the field that names one tool call (Claude's, Codex's): the same
/// command run again is another call with another id.
pub const TOOL_USE_ID: &str = "tool_use_id";
/// The canonical name of the field that names the subagent an event is of.
pub const AGENT_ID: &str = "agent_id";
/// The canonical name of the field that names the agent that started this one (Copilot's and
/// Cline's subagents); absent or null for the main agent, which Cline also gives an `agent_id`.
pub const PARENT_AGENT_ID: &str = "parent_agent_id";

/// The tool call of a tool event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolCall {
    /// Canonical tool id (see `model::tool::ids`), or the name as sent when no table knows it.
    pub name: String,
    /// Arguments under canonical (Claude) names; a freeform tool may send a plain string.
    pub input: Value,
    /// The other canonical ids the host's name may stand for, where its spelling does not say
    /// where an MCP server's name ends (Copilot's `x-y-run`: server `x`, tool `y-run`, the
    /// `name`, or server `x-y`, tool `run`): a rule fires when its matcher accepts any.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_ids: Vec<String>,
    /// How the host rewrote the characters of an MCP tool's server and tool names, losing the
    /// originals (Codex's `x-y` → `x_y`): a rule of another agent is read as the host writes
    /// the names in it ([`super::tool::NameRewrite::matcher`]; attacks row 1593).
    #[serde(skip)]
    pub rewrite: Option<super::tool::NameRewrite>,
}

impl Event {
    /// An event of `kind` with nothing else: what a host's answer form depends on.
    pub fn bare(kind: EventKind) -> Self {
        Event {
            kind,
            timestamp: None,
            tool: None,
            fields: Map::new(),
            result: None,
        }
    }

    /// A call of the tool `name` with `input` and no other field: what a matcher reads.
    pub fn tool_call(kind: EventKind, name: &str, input: Value) -> Self {
        Event {
            tool: Some(ToolCall {
                name: name.to_string(),
                input,
                other_ids: Vec::new(),
                rewrite: None,
            }),
            ..Event::bare(kind)
        }
    }

    /// A string field, if present.
    pub fn field(&self, key: &str) -> Option<&str> {
        self.fields.get(key).and_then(Value::as_str)
    }
}
