//! Stamps hooks write into one file (`<ns> <what>` lines, `date +%s%N`): when a client went
//! on, read after its run. Ground truths about waiting are pinned by the order of stamps, which
//! a loaded machine does not change, not by durations.
#![allow(dead_code)] // each suite uses what it needs

use std::path::Path;

/// The stamps of one run, in the order they were written.
pub struct Stamps(Vec<(u128, String)>);

impl Stamps {
    /// The shell command that appends stamp `what` to `file`.
    pub fn command(file: &Path, what: &str) -> String {
        format!("echo \"$(date +%s%N) {what}\" >> '{}'", file.display())
    }

    pub fn read(file: &Path) -> Self {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        Stamps(
            text.lines()
                .filter_map(|l| {
                    let (t, w) = l.split_once(' ')?;
                    Some((t.parse().ok()?, w.to_string()))
                })
                .collect(),
        )
    }

    fn at(&self, what: &str) -> Option<u128> {
        self.0.iter().find(|(_, w)| w == what).map(|(t, _)| *t)
    }

    /// Milliseconds from the first stamp `from` to the first `to`, where both were written.
    pub fn ms(&self, from: &str, to: &str) -> Option<u128> {
        let (a, b) = (self.at(from)?, self.at(to)?);
        Some(b.saturating_sub(a) / 1_000_000)
    }

    /// Whether `first` was stamped, and before `then` (or `then` never was).
    pub fn before(&self, first: &str, then: &str) -> bool {
        self.at(first)
            .is_some_and(|a| self.at(then).is_none_or(|b| a <= b))
    }
}

/// Whether the process whose pid `file` holds still runs (a zombie does not count).
pub fn pid_runs(file: &Path) -> bool {
    let pid = std::fs::read_to_string(file).unwrap_or_default();
    std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())).is_ok_and(|s| {
        !s.rsplit(')')
            .next()
            .unwrap_or("")
            .trim_start()
            .starts_with('Z')
    })
}

/// Ends the processes whose pids the files `names` in `dir` hold (what a run left behind).
pub fn kill_left(dir: &Path, names: &[&str]) {
    for name in names {
        if let Ok(pid) = std::fs::read_to_string(dir.join(name)) {
            let _ = std::process::Command::new("kill").arg(pid.trim()).status();
        }
    }
}
