//! A fake Gemini API server playing the model for Gemini CLI.
//!
//! `POST /v1beta/models/MODEL:streamGenerateContent?alt=sse` and `…:generateContent` answer
//! from a script picked by a `SCENARIO:<name>` marker in the user text of the request's
//! `contents`, at the step given by the number of `functionResponse` parts already there (a
//! subagent is its own conversation, whose first user text is the `invoke_agent` prompt).
//! Requests that ask for JSON (`responseJsonSchema`: the model router's classifier, the
//! next-speaker check) get an object built from their schema; other requests without `tools`
//! (compression summaries) get a short text. `…:countTokens` answers a count. Every request is
//! logged, so that tests can assert what reached the model.

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// One model turn of a script.
#[derive(Clone, Debug)]
pub enum Step {
    /// Function calls in one model message: (tool name, arguments).
    Calls(Vec<(&'static str, Value)>),
    /// A final text answer.
    Text(&'static str),
    /// A subagent's end: `complete_task`, its required arguments filled from its schema.
    Finish,
}

pub struct FakeModel {
    pub port: u16,
    log: Arc<Mutex<Vec<Value>>>,
    server: Arc<tiny_http::Server>,
    thread: Option<JoinHandle<()>>,
}

impl FakeModel {
    /// `scripts(name, project)` gives the steps of each scenario; the project path is handed
    /// over so that tools can name absolute paths.
    pub fn start(scripts: fn(&str, &str) -> Vec<Step>, project: String) -> FakeModel {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").expect("bind 127.0.0.1:0"));
        let port = server.server_addr().to_ip().expect("ip address").port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (srv, lg) = (server.clone(), log.clone());
        let thread = std::thread::spawn(move || {
            for mut request in srv.incoming_requests() {
                let mut body = String::new();
                let _ = request.as_reader().read_to_string(&mut body);
                let parsed: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
                let url = request.url().to_string();
                lg.lock().unwrap().push(json!({"url": url, "body": parsed}));
                let (status, ctype, text) = answer(&url, &parsed, scripts, &project);
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

    /// Every logged request: `{"url", "body"}`.
    pub fn requests(&self) -> Vec<Value> {
        self.log.lock().unwrap().clone()
    }

    /// The bodies of the scenario's main-loop requests (with tools, carrying its marker).
    pub fn turns_of(&self, scenario: &str) -> Vec<Value> {
        self.requests()
            .into_iter()
            .map(|r| r["body"].clone())
            .filter(|b| has_tools(b) && scenario_of(b).as_deref() == Some(scenario))
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

fn has_tools(body: &Value) -> bool {
    body["tools"].as_array().is_some_and(|t| !t.is_empty())
}

/// The texts of the user turns, in order.
pub fn user_texts(body: &Value) -> Vec<String> {
    body["contents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["role"] == "user")
        .flat_map(|c| c["parts"].as_array().cloned().unwrap_or_default())
        .filter_map(|p| p["text"].as_str().map(str::to_string))
        .collect()
}

fn scenario_of(body: &Value) -> Option<String> {
    user_texts(body).iter().find_map(|text| {
        let at = text.find("SCENARIO:")?;
        let rest = &text[at + "SCENARIO:".len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        Some(rest[..end].to_string())
    })
}

fn function_responses(body: &Value) -> usize {
    body["contents"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| c["parts"].as_array().cloned().unwrap_or_default())
        .filter(|p| p.get("functionResponse").is_some())
        .count()
}

fn answer(
    url: &str,
    body: &Value,
    scripts: fn(&str, &str) -> Vec<Step>,
    project: &str,
) -> (u16, &'static str, String) {
    if url.contains(":countTokens") {
        return (
            200,
            "application/json",
            json!({"totalTokens": 100}).to_string(),
        );
    }
    if !url.contains(":generateContent") && !url.contains(":streamGenerateContent") {
        let err = json!({"error": {"code": 404, "message": "not found", "status": "NOT_FOUND"}});
        return (404, "application/json", err.to_string());
    }
    let config = &body["generationConfig"];
    let schema = config
        .get("responseJsonSchema")
        .or_else(|| config.get("responseSchema"));
    let parts = if let Some(schema) = schema {
        vec![json!({"text": example(schema).to_string()})]
    } else if let (true, Some(name)) = (has_tools(body), scenario_of(body)) {
        let steps = scripts(&name, project);
        let at = function_responses(body).min(steps.len().saturating_sub(1));
        match steps.get(at).cloned().unwrap_or(Step::Text("done")) {
            Step::Calls(calls) => calls
                .into_iter()
                .map(|(name, args)| json!({"functionCall": {"name": name, "args": args}}))
                .collect(),
            Step::Text(text) => vec![json!({"text": text})],
            Step::Finish => vec![json!({"functionCall": {"name": "complete_task",
                "args": finish_args(body)}})],
        }
    } else {
        vec![json!({"text": "ok"})]
    };
    let response = json!({
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP",
            "index": 0}],
        "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 10,
            "totalTokenCount": 110},
        "modelVersion": "gemini-2.5-flash",
    });
    if url.contains(":streamGenerateContent") {
        (
            200,
            "text/event-stream",
            format!("data: {response}\r\n\r\n"),
        )
    } else {
        (200, "application/json", response.to_string())
    }
}

/// `complete_task`'s arguments, from the schema the request declares for it.
fn finish_args(body: &Value) -> Value {
    let declared = body["tools"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| {
            t["functionDeclarations"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .find(|d| d["name"] == "complete_task");
    declared
        .map(|d| {
            let schema = d
                .get("parametersJsonSchema")
                .or_else(|| d.get("parameters"))
                .cloned()
                .unwrap_or(Value::Null);
            example(&schema)
        })
        .unwrap_or_else(|| json!({"result": "done"}))
}

/// A value of the (Gemini- or JSON-Schema-cased) `schema`: an enum's first value, "done" for
/// strings, 1 for numbers, every declared property of an object.
fn example(schema: &Value) -> Value {
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    let kind = schema["type"].as_str().unwrap_or("object").to_lowercase();
    match kind.as_str() {
        "string" => json!("done"),
        "integer" | "number" => json!(1),
        "boolean" => json!(true),
        "array" => json!([]),
        _ => {
            let props = schema["properties"]
                .as_object()
                .cloned()
                .unwrap_or_default();
            Value::Object(props.iter().map(|(k, v)| (k.clone(), example(v))).collect())
        }
    }
}
