//! What the suites of the clients driven by a fake model share about one client run: soft
//! checks, and the team loop's checks of what reached the model.

use serde_json::Value;

/// Soft assertions: every failed check of a client run is reported, not just the first.
#[derive(Default)]
pub struct Checks {
    failed: Vec<String>,
}

impl Checks {
    pub fn that(&mut self, ok: bool, what: impl Into<String>) {
        if !ok {
            self.failed.push(what.into());
        }
    }

    /// Each of `failed` as a failed check, in its order.
    // Not every suite that shares these checks has a list of failures to add.
    #[allow(dead_code)]
    pub fn failed(&mut self, failed: impl IntoIterator<Item = String>) {
        self.failed.extend(failed);
    }

    /// That a client run ended with exit 0; else its `status` and `stderr` as a failed check.
    // Not every suite that shares these checks reads a run's exit this way.
    #[allow(dead_code)]
    pub fn exited(&mut self, status: Option<i32>, stderr: &str) {
        self.that(status == Some(0), format!("exit {status:?}: {stderr}"));
    }

    pub fn done(self, scenario: &str) {
        assert!(
            self.failed.is_empty(),
            "{scenario}: {} checks failed:\n{}",
            self.failed.len(),
            self.failed.join("\n")
        );
    }
}

/// A client run as the model saw it; each suite says how its model's wire carries a result.
pub trait Run {
    /// The main-loop requests the model got for `scenario`, in order.
    fn requests(&self, scenario: &str) -> Vec<Value>;

    /// The result the model got back for the call whose arguments contain `text`.
    fn tool_result(&self, scenario: &str, text: &str) -> String;

    /// Every main-loop request of the scenario, as one string (to find context and reasons).
    fn sent(&self, scenario: &str) -> String {
        self.requests(scenario)
            .iter()
            .map(Value::to_string)
            .collect()
    }
}

/// The team loop's checks where every rule ran (`claude_projects_loop` in the suites): the
/// guard's reason as the denied call's result, the prompt's context, the stop's reason, and
/// `turns` requests in all.
#[allow(dead_code)] // Qwen's suite runs no team loop
pub fn loop_answers(c: &mut Checks, who: &str, l: &impl Run, turns: usize) {
    let result = l.tool_result("teamloop", crate::common::LOOP_DENIED);
    c.that(
        result.contains(crate::common::LOOP_REASON),
        format!("{who}: the guard's deny is the call's result: {result}"),
    );
    let sent = l.sent("teamloop");
    c.that(
        sent.contains(crate::common::LOOP_CONTEXT) && sent.contains(crate::common::LOOP_STOP),
        format!("{who}: the prompt's context and the stop's reason reached the model"),
    );
    let n = l.requests("teamloop").len();
    c.that(n == turns, format!("{who}: {n} requests, {turns} wanted"));
}
