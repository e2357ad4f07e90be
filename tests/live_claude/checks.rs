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

/// Each handler of `flavor` (`records`, at least one) got its own flavour's payload of the
/// event it is registered on, and the project as its folder.
pub fn foreign_payloads(
    c: &mut Checks,
    world: &crate::client::World,
    flavor: hookx::tables::Flavor,
    records: &[crate::client::Record],
) {
    c.check(
        !records.is_empty(),
        format!("{} handlers ran", flavor.name()),
    );
    for r in records {
        let what = format!("{} {} {}", flavor.name(), r.order, r.event);
        match hookx::protocol::decode_event_as(
            r.stdin_text.as_bytes(),
            flavor.dialect(),
            Some(&r.event),
        ) {
            Ok((event, got)) => {
                c.check(got == flavor, format!("{what}: a {} payload", got.name()));
                c.check(
                    flavor.tables().event_name(&event.kind) == Some(r.event.as_str()),
                    format!("{what}: names {}", event.kind),
                );
            }
            Err(e) => c.check(
                false,
                format!("{what}: not a {} payload: {e}", flavor.name()),
            ),
        }
        c.check(
            r.cwd == world.project.display().to_string(),
            format!("{what}: cwd is the project"),
        );
    }
}
