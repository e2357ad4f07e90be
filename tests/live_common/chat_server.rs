//! A fake OpenAI chat-completions server playing the model for the clients that speak that API:
//! Copilot CLI (provider mode), Cline, Droid, Qwen Code, OpenCode and Kilo.
//!
//! `GET /v1/models` lists one model; `POST /v1/chat/completions` answers from a script picked by
//! a `SCENARIO:<name>` marker in the user messages, at the step given by the number of
//! `role:"tool"` messages in the request. Requests without `tools` (titles, summaries) get a
//! short text; a compaction request gets a summary that keeps the marker, and the scenario
//! then continues from its own counter (compaction drops the tool messages). Every request
//! body is logged so that tests can assert what reached the model.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// One model turn of a script.
#[derive(Clone, Debug)]
pub enum Step {
    /// Tool calls in one assistant message: (tool name, arguments).
    Tools(Vec<(&'static str, Value)>),
    /// A final text answer.
    Text(&'static str),
    /// An HTTP 400 (a failed model call: errorOccurred, sessionEnd `error`).
    Fail,
}

pub struct FakeModel {
    pub port: u16,
    log: Arc<Mutex<Vec<Value>>>,
    server: Arc<tiny_http::Server>,
    thread: Option<JoinHandle<()>>,
}

#[derive(Default)]
struct State {
    /// Scenarios compacted so far (their tool messages are gone).
    after_compaction: std::collections::HashSet<String>,
}

impl FakeModel {
    /// `script(project)` gives the steps of each scenario; the project path is handed over so
    /// that tools can name absolute paths. Requests are answered one after the other.
    pub fn start(scripts: fn(&str, &str) -> Vec<Step>, project: String) -> FakeModel {
        FakeModel::serve(scripts, project, false)
    }

    /// As `start`, but each request is answered in a thread of its own: OpenCode and Kilo keep a
    /// request waiting while they send the next, and answering one at a time stalls them.
    #[allow(dead_code)] // only the suites whose client overlaps its requests
    pub fn start_concurrent(scripts: fn(&str, &str) -> Vec<Step>, project: String) -> FakeModel {
        FakeModel::serve(scripts, project, true)
    }

    fn serve(scripts: fn(&str, &str) -> Vec<Step>, project: String, concurrent: bool) -> FakeModel {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").expect("bind 127.0.0.1:0"));
        let port = server.server_addr().to_ip().expect("ip address").port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (srv, lg) = (server.clone(), log.clone());
        let thread = std::thread::spawn(move || {
            let state = Arc::new(Mutex::new(State::default()));
            for request in srv.incoming_requests() {
                let (lg, state, project) = (lg.clone(), state.clone(), project.clone());
                let reply = move || respond(request, &lg, &state, scripts, &project);
                if concurrent {
                    std::thread::spawn(reply);
                } else {
                    reply();
                }
            }
        });
        FakeModel {
            port,
            log,
            server,
            thread: Some(thread),
        }
    }

    /// Every chat-completions request body received so far.
    pub fn chats(&self) -> Vec<Value> {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter(|r| {
                r["url"]
                    .as_str()
                    .is_some_and(|u| u.contains("chat/completions"))
            })
            .map(|r| r["body"].clone())
            .collect()
    }

    /// The chat requests of one scenario (those whose messages carry its marker).
    pub fn requests_of(&self, scenario: &str) -> Vec<Value> {
        let marker = format!("SCENARIO:{scenario}");
        self.chats()
            .into_iter()
            .filter(|b| b["messages"].to_string().contains(&marker))
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

/// Logs one request and answers it (the scenario state is locked only while the answer is made).
fn respond(
    mut request: tiny_http::Request,
    log: &Mutex<Vec<Value>>,
    state: &Mutex<State>,
    scripts: fn(&str, &str) -> Vec<Step>,
    project: &str,
) {
    let mut body = String::new();
    let _ = request.as_reader().read_to_string(&mut body);
    let parsed: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let url = request.url().to_string();
    log.lock()
        .unwrap()
        .push(json!({"url": url, "body": parsed}));
    let (status, ctype, text) = answer(&url, &parsed, scripts, project, &mut state.lock().unwrap());
    let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], ctype.as_bytes()).unwrap();
    let response = tiny_http::Response::from_string(text)
        .with_status_code(status)
        .with_header(header);
    let _ = request.respond(response);
}

fn text_of(message: &Value) -> String {
    match &message["content"] {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

fn scenario_of(messages: &[Value]) -> Option<String> {
    messages
        .iter()
        .filter(|m| m["role"] == "user")
        .find_map(|m| {
            let text = text_of(m);
            let at = text.find("SCENARIO:")?;
            let rest = &text[at + "SCENARIO:".len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .unwrap_or(rest.len());
            Some(rest[..end].to_string())
        })
}

fn answer(
    url: &str,
    body: &Value,
    scripts: fn(&str, &str) -> Vec<Step>,
    project: &str,
    state: &mut State,
) -> (u16, &'static str, String) {
    if url.contains("/models") {
        let models = json!({"object": "list", "data": [
            {"id": "gpt-4.1", "object": "model", "created": 0, "owned_by": "hookx"}]});
        return (200, "application/json", models.to_string());
    }
    if !url.contains("chat/completions") {
        return (
            404,
            "application/json",
            json!({"error": {"message": "not found"}}).to_string(),
        );
    }
    let stream = body["stream"].as_bool().unwrap_or(false);
    let messages = body["messages"].as_array().cloned().unwrap_or_default();
    let last = messages.last().map(text_of).unwrap_or_default();
    let has_tools = body["tools"].as_array().is_some_and(|t| !t.is_empty());
    let scenario = scenario_of(&messages);
    let compaction =
        last.to_lowercase().contains("compact") && last.to_lowercase().contains("summar");
    let step = if compaction {
        let name = scenario.clone().unwrap_or_default();
        state.after_compaction.insert(name.clone());
        let summary = format!("Summary of the work so far. SCENARIO:{name} (compacted)");
        return (
            200,
            ctype(stream),
            completion(stream, &Step::Text(leak(summary)), 100),
        );
    } else if !has_tools || scenario.is_none() {
        Step::Text("ok")
    } else {
        let name = scenario.unwrap();
        let steps = scripts(&name, project);
        // After a compaction the tool messages are gone: the scenario goes on to its end.
        let at = if state.after_compaction.contains(&name) {
            steps.len().saturating_sub(1)
        } else {
            messages.iter().filter(|m| m["role"] == "tool").count()
        };
        steps
            .get(at)
            .or(steps.last())
            .cloned()
            .unwrap_or(Step::Text("done"))
    };
    if let Step::Fail = step {
        let err = json!({"error": {"message": "scripted failure", "type": "invalid_request_error",
            "code": "scripted"}});
        return (400, "application/json", err.to_string());
    }
    (
        200,
        ctype(stream),
        completion(stream, &step, body.to_string().len() / 4),
    )
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn ctype(stream: bool) -> &'static str {
    if stream {
        "text/event-stream"
    } else {
        "application/json"
    }
}

/// `prompt_tokens`: about a quarter of the request's bytes, so that compaction sees growth.
fn completion(stream: bool, step: &Step, prompt_tokens: usize) -> String {
    let usage = json!({"prompt_tokens": prompt_tokens, "completion_tokens": 10,
        "total_tokens": prompt_tokens + 10});
    let (message, finish) = match step {
        Step::Tools(calls) => {
            let calls: Vec<Value> = calls
                .iter()
                .enumerate()
                .map(|(i, (name, args))| {
                    json!({"index": i, "id": format!("call_{}_{}", name, uniq()), "type": "function",
                        "function": {"name": name, "arguments": args.to_string()}})
                })
                .collect();
            (
                json!({"role": "assistant", "content": null, "tool_calls": calls}),
                "tool_calls",
            )
        }
        Step::Text(text) => (json!({"role": "assistant", "content": text}), "stop"),
        Step::Fail => unreachable!(),
    };
    if !stream {
        return json!({"id": "chatcmpl-1", "object": "chat.completion", "created": 0,
            "model": "gpt-4.1", "choices": [{"index": 0, "message": message,
            "finish_reason": finish}], "usage": usage})
        .to_string();
    }
    let chunk = |delta: Value, finish: Value, usage: Value| {
        let mut c = json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0,
            "model": "gpt-4.1", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
        if !usage.is_null() {
            c["usage"] = usage;
        }
        format!("data: {c}\n\n")
    };
    let mut out = String::new();
    match step {
        Step::Tools(_) => {
            for call in message["tool_calls"].as_array().unwrap() {
                let mut head = call.clone();
                head["function"]["arguments"] = json!("");
                out += &chunk(
                    json!({"role": "assistant", "tool_calls": [head]}),
                    Value::Null,
                    Value::Null,
                );
                let args = json!({"index": call["index"],
                    "function": {"arguments": call["function"]["arguments"]}});
                out += &chunk(json!({"tool_calls": [args]}), Value::Null, Value::Null);
            }
        }
        Step::Text(text) => {
            out += &chunk(
                json!({"role": "assistant", "content": text}),
                Value::Null,
                Value::Null,
            );
        }
        Step::Fail => unreachable!(),
    }
    out += &chunk(json!({}), json!(finish), usage);
    out += "data: [DONE]\n\n";
    out
}

fn uniq() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}
