//! What `hookx doctor` finds, file by file, host by host and rule by rule: the report that
//! prints as text ([`super::render_text`]) or serialises as JSON.

use crate::tables::Dialect;
use serde::Serialize;

/// The whole diagnosis; its JSON form is `hookx doctor --format json`.
#[derive(Debug, Serialize)]
pub struct Report {
    /// What is wrong with hookx's own trust record: one `hookx run` refuses (inside the
    /// project, or writable by another account) trusts nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trust: Vec<Finding>,
    /// The places an agent reads one hook file from that hold something no agent reads as one
    /// (a link to nothing, a folder, a pipe): the hooks meant there run nowhere.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<Finding>,
    /// The agents examined: `--host`, every one (`--all-hosts`), or those the user has.
    pub hosts: Vec<HostReport>,
    /// The agents not examined (the user has none of their signs).
    pub not_examined: Vec<Dialect>,
    pub files: Vec<FileReport>,
    /// Rules that fire under none of the agents examined (blocked or never under each), plus
    /// files none of them can read and entries dropped whole.
    pub never_fire: usize,
}

/// One host agent: the client release its facts were verified with, and its policy.
#[derive(Debug, Serialize)]
pub struct HostReport {
    pub host: Dialect,
    /// `None`: documents only, no runnable client verified them.
    pub verified_with: Option<&'static str>,
    /// Why it is examined: the sign the user has it (`\`codex\` on PATH`, `.gemini/`, a hookx
    /// route), or `--host` / `--all-hosts`.
    pub found: String,
    /// The machine's policy files for this host and what they switch off, and what a deny
    /// does to its run where that is more than the call.
    pub policy: Vec<Finding>,
    /// The events `hookx install --host H` routes in either scope
    /// ([`crate::commands::install::routed_events`]): a missing route is one install writes only
    /// if its event is among them (attacks row 2322).
    #[serde(skip)]
    pub install_routes: Vec<&'static str>,
}

/// One hook file.
#[derive(Debug, Serialize)]
pub struct FileReport {
    /// As people read it: relative to the project, `~/…`, or the policy path.
    pub file: String,
    pub dialect: Dialect,
    pub scope: &'static str,
    /// Entries the file's agent drops whole (no rule comes of them), whichever host reads it.
    pub problems: Vec<Finding>,
    /// Per host: who runs the file's hooks and what keeps them from loading.
    pub hosts: Vec<Loading>,
    pub rules: Vec<RuleReport>,
}

/// Who runs a file's hooks under one host, and whether it loads.
#[derive(Debug, Serialize)]
pub struct Loading {
    pub host: Dialect,
    pub runner: Runs,
    pub status: Status,
    pub findings: Vec<Finding>,
}

/// Who runs a hook under a host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Runs {
    /// The host reads the file itself.
    Native,
    /// Only `hookx run`, routed from the host's config.
    Hookx,
    Nobody,
}

/// Whether a rule fires under a host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// It fires when its event comes (findings may still be warnings).
    Fires,
    /// It would fire once its fix is applied (trust, a route, folder trust, a plugin enabled),
    /// or the machine's policy holds it back.
    Blocked,
    /// As written it cannot fire under this host.
    Never,
    /// The user turned it off (`enabled: false`): meant not to fire, so no fault.
    Off,
}

/// One rule (a matcher and its handlers under one event key).
#[derive(Debug, Serialize)]
pub struct RuleReport {
    /// The event key as written.
    pub event: String,
    pub matcher: Option<String>,
    /// 1-based line of the rule in its file, where known.
    pub line: Option<usize>,
    /// The first handler, shortened (`+N` when there are more).
    pub handler: String,
    pub hosts: Vec<Verdict>,
}

/// A rule under one host.
#[derive(Debug, Serialize)]
pub struct Verdict {
    pub host: Dialect,
    pub status: Status,
    pub runner: Runs,
    /// The flavour of the payload its handlers get, when it fires or could.
    pub payload: Option<&'static str>,
    /// The host's event names that no hookx route brings to hookx (`hookx install --host`
    /// writes them); the rule is blocked until then.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unrouted: Vec<&'static str>,
    /// Who runs this rule under the host by the plan of the hook set ([`crate::plan`]: the
    /// agent from one file, hookx from one copy, or nobody), where the plan has the rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned: Option<String>,
    /// Whether that runner is another file's: the rule is that file's, which the count of
    /// rules firing nowhere counts.
    #[serde(skip)]
    pub run_elsewhere: bool,
    pub findings: Vec<Finding>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
    Note,
}

/// One thing found, with its fix where there is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub level: Level,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Finding {
    pub(super) fn new(level: Level, message: impl Into<String>, fix: Option<String>) -> Finding {
        Finding {
            level,
            message: message.into(),
            fix,
        }
    }
}
