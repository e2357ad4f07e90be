//! A fake Anthropic Messages API on 127.0.0.1 that plays the model for Claude Code.
//!
//! Stateless scripting: the script is picked by a `SCRIPT:name` marker in the request's last
//! prompt that holds one (the first user message of a `-p` run; in an interactive session each
//! prompt may start a script of its own), the step by the number of assistant messages after
//! that prompt. Every request body is logged so that tests can assert what reached the model.

use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A marker in the first user message that makes the API refuse the request (HTTP 400).
pub const API_ERROR: &str = "SCRIPT:apierror";

/// One content block the model sends.
#[derive(Clone, Debug)]
pub enum Block {
    Text(String),
    Tool(&'static str, Value),
}

/// A script: the blocks of the assistant message at a step (no tool block: the turn ends).
pub type Script = fn(step: usize, project: &str) -> Vec<Block>;

pub struct FakeModel {
    pub port: u16,
    server: Arc<tiny_http::Server>,
    log: Arc<Mutex<Vec<Value>>>,
    thread: Option<JoinHandle<()>>,
}

impl FakeModel {
    /// Serves `scripts` (marker name → script) for requests naming `project` in their system text.
    pub fn start(scripts: &'static [(&'static str, Script)]) -> FakeModel {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").expect("bind 127.0.0.1:0"));
        let port = server.server_addr().to_ip().expect("an IP address").port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (s, l) = (server.clone(), log.clone());
        let ids = AtomicUsize::new(0);
        let thread = std::thread::spawn(move || {
            for mut request in s.incoming_requests() {
                let mut body = String::new();
                let _ = request.as_reader().read_to_string(&mut body);
                let url = request.url().to_string();
                let parsed: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                let (status, content_type, reply) = if url.starts_with("/v1/messages/count_tokens")
                {
                    (
                        200,
                        "application/json",
                        json!({"input_tokens": 100}).to_string(),
                    )
                } else if url.starts_with("/v1/messages")
                    && first_user_text(&parsed).contains(API_ERROR)
                {
                    // A request the API refuses: the turn fails (StopFailure).
                    l.lock().unwrap().push(parsed.clone());
                    let error = json!({"type": "error", "error": {"type": "invalid_request_error", "message": "REASON-API-REFUSED"}});
                    (400, "application/json", error.to_string())
                } else if url.starts_with("/v1/messages") {
                    l.lock().unwrap().push(parsed.clone());
                    let n = ids.fetch_add(1, Ordering::Relaxed);
                    let message = answer(scripts, &parsed, n);
                    if parsed["stream"] == true {
                        (200, "text/event-stream", sse(&message))
                    } else {
                        (200, "application/json", message.to_string())
                    }
                } else {
                    let error = json!({"type": "error", "error": {"type": "not_found_error", "message": url}});
                    (404, "application/json", error.to_string())
                };
                let header =
                    tiny_http::Header::from_bytes("Content-Type", content_type).expect("header");
                let response = tiny_http::Response::from_string(reply)
                    .with_status_code(status)
                    .with_header(header);
                let _ = request.respond(response);
            }
        });
        FakeModel {
            port,
            server,
            log,
            thread: Some(thread),
        }
    }

    /// Every `/v1/messages` request body so far.
    pub fn requests(&self) -> Vec<Value> {
        self.log.lock().unwrap().clone()
    }

    /// Forgets the logged requests (between client runs).
    pub fn clear(&self) {
        self.log.lock().unwrap().clear();
    }
}

impl Drop for FakeModel {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The first user message's text (all its blocks), where the marker is.
pub fn first_user_text(request: &Value) -> String {
    request["messages"]
        .as_array()
        .and_then(|m| m.iter().find(|m| m["role"] == "user"))
        .map(|m| m["content"].to_string())
        .unwrap_or_default()
}

/// The last user message whose own text (not a tool result) holds a `SCRIPT:` marker: its
/// text, and how many assistant messages came after it (the script's step).
fn scripted_prompt(request: &Value) -> (String, usize) {
    let messages = request["messages"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let typed = |m: &Value| match &m["content"] {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter(|b| b["type"] == "text")
            .map(|b| b["text"].as_str().unwrap_or_default())
            .collect(),
        _ => String::new(),
    };
    let at = messages
        .iter()
        .rposition(|m| m["role"] == "user" && typed(m).contains("SCRIPT:"))
        .unwrap_or(0);
    let steps = messages[at.min(messages.len())..]
        .iter()
        .filter(|m| m["role"] == "assistant")
        .count();
    let text = messages.get(at).map(|m| m["content"].to_string());
    (text.unwrap_or_default(), steps)
}

fn answer(scripts: &[(&'static str, Script)], request: &Value, n: usize) -> Value {
    let model = request["model"]
        .as_str()
        .unwrap_or("claude-sonnet-4-5")
        .to_string();
    let has_tools = request["tools"].as_array().is_some_and(|t| !t.is_empty());
    let (first, steps) = scripted_prompt(request);
    let text = request.to_string();
    let project = text
        .split("Primary working directory: ")
        .nth(1)
        .and_then(|rest| rest.split(['\\', '"']).next())
        .unwrap_or("")
        .trim()
        .to_string();
    // Never let a script write outside a project it could not find.
    let project = if project.starts_with('/') {
        project
    } else {
        "/nonexistent-project".to_string()
    };
    // The compaction request asks for a text summary of the conversation.
    let last = request["messages"]
        .as_array()
        .and_then(|m| m.last())
        .map(|m| m["content"].to_string())
        .unwrap_or_default();
    let summary = last.contains("Respond with TEXT ONLY");
    let blocks = scripts
        .iter()
        .find(|(name, _)| has_tools && !summary && first.contains(&format!("SCRIPT:{name}")))
        .map(|(_, script)| script(steps, &project))
        .unwrap_or_else(|| vec![Block::Text("Summary: nothing to report.".into())]);
    let stop = if blocks.iter().any(|b| matches!(b, Block::Tool(..))) {
        "tool_use"
    } else {
        "end_turn"
    };
    let content: Vec<Value> = blocks
        .iter()
        .enumerate()
        .map(|(i, b)| match b {
            Block::Text(t) => json!({"type": "text", "text": t}),
            Block::Tool(name, input) => json!({
                "type": "tool_use", "id": format!("toolu_{n:04}_{i}"), "name": name, "input": input
            }),
        })
        .collect();
    json!({
        "id": format!("msg_{n:04}"), "type": "message", "role": "assistant", "model": model,
        "content": content, "stop_reason": stop, "stop_sequence": null,
        "usage": {"input_tokens": 100, "output_tokens": 10}
    })
}

/// The message as one SSE body.
fn sse(message: &Value) -> String {
    let mut out = String::new();
    let mut frame = |name: &str, data: Value| {
        out.push_str(&format!("event: {name}\ndata: {data}\n\n"));
    };
    let mut start = message.clone();
    start["content"] = json!([]);
    start["stop_reason"] = Value::Null;
    frame(
        "message_start",
        json!({"type": "message_start", "message": start}),
    );
    for (i, block) in message["content"].as_array().unwrap().iter().enumerate() {
        let (empty, delta) = if block["type"] == "text" {
            (
                json!({"type": "text", "text": ""}),
                json!({"type": "text_delta", "text": block["text"]}),
            )
        } else {
            (
                json!({"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}),
                json!({"type": "input_json_delta", "partial_json": block["input"].to_string()}),
            )
        };
        frame(
            "content_block_start",
            json!({"type": "content_block_start", "index": i, "content_block": empty}),
        );
        frame(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": i, "delta": delta}),
        );
        frame(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": i}),
        );
    }
    frame(
        "message_delta",
        json!({"type": "message_delta",
               "delta": {"stop_reason": message["stop_reason"], "stop_sequence": null},
               "usage": {"output_tokens": 10}}),
    );
    frame("message_stop", json!({"type": "message_stop"}));
    out
}
