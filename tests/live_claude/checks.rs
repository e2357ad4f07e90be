//! Collects failed checks so that one client run reports all of its differences at once
//! (the Claude suites: live_claude, live_claude_pty).

#[derive(Default)]
pub struct Checks {
    failed: Vec<String>,
    count: usize,
}

impl Checks {
    pub fn check(&mut self, ok: bool, what: impl Into<String>) {
        self.count += 1;
        if !ok {
            self.failed.push(what.into());
        }
    }

    /// Fails with every failed check, then `context` (what the client left: its output).
    pub fn finish(self, scenario: &str, context: &str) {
        eprintln!("{scenario}: {} checks", self.count);
        assert!(
            self.failed.is_empty(),
            "{scenario}: {} of {} checks failed:\n  {}\n{context}",
            self.failed.len(),
            self.count,
            self.failed.join("\n  "),
        );
    }
}
