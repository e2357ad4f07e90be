//! A fake OpenAI Responses API server playing the model for Codex CLI.
//!
//! `GET /v1/models` lists one model; `POST /v1/responses` answers from a script picked by a
//! `SCENARIO:<name>` marker in the user messages, at the step given by the number of tool
//! outputs (`function_call_output`, `custom_tool_call_output`) in the request's `input`.
//! Requests without `tools` (side requests) get a short text; a compaction request (its last
//! message asks for a "CONTEXT CHECKPOINT COMPACTION") gets a summary that keeps the marker, and
//! the scenario then counts on from where it was (compaction drops the tool outputs). Every
//! request body is logged so that tests can assert what reached the model.

use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// One tool call of a model turn.
#[derive(Clone, Debug)]
pub enum Call {
    /// A JSON function tool (`exec_command`, `view_image`, `spawn_agent`, ...) and its arguments.
    Function(&'static str, Value),
    /// A freeform tool (`apply_patch`) and its raw input.
    Custom(&'static str, String),
    /// A function tool inside a namespace (`collaboration` / `spawn_agent`) and its arguments.
    Namespaced(&'static str, &'static str, Value),
}

/// One model turn of a script.
#[derive(Clone, Debug)]
pub enum Step {
    /// Tool calls in one response.
    Calls(Vec<Call>),
    /// A final text answer.
    Text(&'static str),
}

pub struct FakeModel {
    pub port: u16,
    log: Arc<Mutex<Vec<Value>>>,
    server: Arc<tiny_http::Server>,
    thread: Option<JoinHandle<()>>,
}

/// The marker text a compaction request carries.
const COMPACTION: &str = "CONTEXT CHECKPOINT COMPACTION";

impl FakeModel {
    /// `script(name, project)` gives the steps of each scenario; the project path is handed
    /// over so that tools can name absolute paths.
    pub fn start(scripts: fn(&str, &str) -> Vec<Step>, project: String) -> FakeModel {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").expect("bind 127.0.0.1:0"));
        let port = server.server_addr().to_ip().expect("ip address").port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (srv, lg) = (server.clone(), log.clone());
        let thread = std::thread::spawn(move || {
            // Per scenario: the tool outputs its compactions dropped.
            let mut compacted: HashMap<String, usize> = HashMap::new();
            for mut request in srv.incoming_requests() {
                let mut body = String::new();
                let _ = request.as_reader().read_to_string(&mut body);
                let parsed: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                let url = request.url().to_string();
                lg.lock().unwrap().push(json!({"url": url, "body": parsed}));
                let (status, ctype, text) = if url.contains("/models") {
                    let models = json!({"object": "list", "data": [
                        {"id": "gpt-5.5", "object": "model", "created": 0, "owned_by": "hookx"}]});
                    (200, "application/json", models.to_string())
                } else if url.contains("/responses") {
                    let step = next_step(&parsed, scripts, &project, &mut compacted);
                    (200, "text/event-stream", stream(&step, body.len() / 4))
                } else {
                    let err = json!({"error": {"message": "not found"}});
                    (404, "application/json", err.to_string())
                };
                let header =
                    tiny_http::Header::from_bytes(&b"Content-Type"[..], ctype.as_bytes()).unwrap();
                let response = tiny_http::Response::from_string(text)
                    .with_status_code(status)
                    .with_header(header);
                let _ = request.respond(response);
            }
        });
        FakeModel {
            port,
            log,
            server,
            thread: Some(thread),
        }
    }

    /// Every request logged so far (`{url, body}`).
    pub fn requests(&self) -> Vec<Value> {
        self.log.lock().unwrap().clone()
    }

    /// The main-loop requests of one scenario: `/responses` bodies with tools and its marker.
    pub fn turns_of(&self, scenario: &str) -> Vec<Value> {
        self.requests()
            .into_iter()
            .filter(|r| r["url"].as_str().is_some_and(|u| u.contains("/responses")))
            .map(|r| r["body"].clone())
            .filter(|b| b["tools"].as_array().is_some_and(|t| !t.is_empty()))
            .filter(|b| scenario_of(b).as_deref() == Some(scenario))
            .collect()
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

/// The text of one `input` message (its `input_text` / `output_text` parts).
pub fn text_of(item: &Value) -> String {
    match &item["content"] {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn scenario_of(body: &Value) -> Option<String> {
    body["input"].as_array()?.iter().find_map(|m| {
        // A spawned agent's task comes as an `agent_message` whose payload part is
        // `encrypted_content` (multi_agent_v2, 0.171.0): its scenario is the spawn's message.
        let text = if m["type"] == "agent_message" {
            let parts = m["content"].as_array()?;
            parts
                .iter()
                .filter_map(|p| p["encrypted_content"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        } else if m["role"] == "user" {
            text_of(m)
        } else {
            return None;
        };
        let at = text.find("SCENARIO:")?;
        let rest = &text[at + "SCENARIO:".len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        Some(rest[..end].to_string())
    })
}

fn next_step(
    body: &Value,
    scripts: fn(&str, &str) -> Vec<Step>,
    project: &str,
    compacted: &mut HashMap<String, usize>,
) -> Step {
    let input = body["input"].as_array().cloned().unwrap_or_default();
    let scenario = scenario_of(body);
    let last = input.last().map(text_of).unwrap_or_default();
    let has_tools = body["tools"].as_array().is_some_and(|t| !t.is_empty());
    let outputs = input
        .iter()
        .filter(|i| {
            i["type"]
                .as_str()
                .is_some_and(|t| t.ends_with("call_output"))
        })
        .count();
    if last.contains(COMPACTION) {
        // The history being compacted holds the outputs that the summary replaces.
        let name = scenario.unwrap_or_default();
        *compacted.entry(name.clone()).or_default() += outputs;
        let summary = format!("Summary of the work so far. SCENARIO:{name} (compacted)");
        return Step::Text(Box::leak(summary.into_boxed_str()));
    }
    let (true, Some(name)) = (has_tools, scenario) else {
        return Step::Text("ok");
    };
    let at = outputs + compacted.get(&name).copied().unwrap_or(0);
    let steps = scripts(&name, project);
    steps
        .get(at)
        .or(steps.last())
        .cloned()
        .unwrap_or(Step::Text("done"))
}

/// The SSE stream of one response: `response.created`, one `response.output_item.done` per
/// item, `response.completed` with usage (`input_tokens`: about a quarter of the request's
/// bytes, so that auto-compaction sees growth).
fn stream(step: &Step, input_tokens: usize) -> String {
    let id = uniq();
    let items: Vec<Value> = match step {
        Step::Calls(calls) => calls
            .iter()
            .enumerate()
            .map(|(i, call)| {
                let call_id = format!("call_{id}_{i}");
                match call {
                    Call::Function(name, args) => json!({"type": "function_call",
                        "id": format!("fc_{id}_{i}"), "call_id": call_id, "name": name,
                        "arguments": args.to_string()}),
                    Call::Custom(name, input) => json!({"type": "custom_tool_call",
                        "id": format!("ctc_{id}_{i}"), "call_id": call_id, "name": name,
                        "input": input}),
                    Call::Namespaced(namespace, name, args) => json!({"type": "function_call",
                        "id": format!("fc_{id}_{i}"), "call_id": call_id, "name": name,
                        "namespace": namespace, "arguments": args.to_string()}),
                }
            })
            .collect(),
        Step::Text(text) => vec![json!({"type": "message", "id": format!("msg_{id}"),
            "role": "assistant", "content": [{"type": "output_text", "text": text}]})],
    };
    let response_id = format!("resp_{id}");
    let mut out = frame(
        "response.created",
        json!({"type": "response.created", "response": {"id": response_id}}),
    );
    for (i, item) in items.into_iter().enumerate() {
        out += &frame(
            "response.output_item.done",
            json!({"type": "response.output_item.done", "output_index": i, "item": item}),
        );
    }
    out += &frame(
        "response.completed",
        json!({"type": "response.completed", "response": {"id": response_id, "usage": {
            "input_tokens": input_tokens, "output_tokens": 5,
            "total_tokens": input_tokens + 5}}}),
    );
    out
}

fn frame(event: &str, data: Value) -> String {
    format!("event: {event}\ndata: {data}\n\n")
}

fn uniq() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}
