//! The host side of `hookx run` and `hookx exec`: reading the host's event, finding the
//! project, and answering in the host's protocol.

use super::run::{Dispatch, RuleSource};
use crate::dialect::{Dialect, Flavor};
use crate::discover::{self, EffectiveRule, Runner, Source};
use crate::error::Error;
use crate::model::{Event, EventKind};
use crate::protocol::payload::{decode_event_as, detect_host};
use crate::trust::{TrustState, TrustStore};
use std::io::Read;
use std::path::PathBuf;

/// Payloads larger than this are refused (a host event is a few kilobytes).
pub const MAX_PAYLOAD_BYTES: u64 = 16 * 1024 * 1024;

/// A decoded host event and where its project is.
pub struct HostEvent {
    pub host: Flavor,
    pub event: Event,
    pub project: PathBuf,
}

/// Reads the host's payload from stdin.
pub fn read_stdin() -> Result<Vec<u8>, Error> {
    let mut payload = Vec::new();
    std::io::stdin()
        .take(MAX_PAYLOAD_BYTES + 1)
        .read_to_end(&mut payload)
        .map_err(|e| Error::Io {
            path: "<stdin>".into(),
            message: e.to_string(),
        })?;
    if payload.len() as u64 > MAX_PAYLOAD_BYTES {
        return Err(Error::Io {
            path: "<stdin>".into(),
            message: format!("the event payload is larger than {MAX_PAYLOAD_BYTES} bytes"),
        });
    }
    Ok(payload)
}

/// Decodes a host payload. `host` may be omitted when the payload or the environment tells;
/// `event` is the event name the host's config registered the command under (Copilot's
/// camelCase payloads do not name their event), in any dialect's spelling.
pub fn decode(
    payload: &[u8],
    host: Option<Dialect>,
    event: Option<&str>,
    project: Option<PathBuf>,
) -> Result<HostEvent, Error> {
    let host = match host {
        Some(h) => h,
        None => guess_host(payload).ok_or_else(|| {
            Error::Usage("cannot tell which agent sent this event; pass --host claude, --host copilot or --host bricks".into())
        })?,
    };
    let registered = event.map(|name| host_event_name(host, name));
    let (mut event, flavor) = decode_event_as(payload, host, registered.as_deref())?;
    // Copilot handlers are promised a timestamp; a host that sends none fires the event now.
    event.timestamp.get_or_insert_with(chrono::Utc::now);
    let project = project
        .or_else(|| {
            flavor
                .tables()
                .project_dir_var
                .and_then(std::env::var_os)
                .map(PathBuf::from)
        })
        .or_else(|| event.field("cwd").map(PathBuf::from))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    Ok(HostEvent {
        host: flavor,
        event,
        project,
    })
}

/// The host's own spelling of an event given in any dialect's spelling (or canonically).
fn host_event_name(host: Dialect, name: &str) -> String {
    let kind = parse_event(name);
    Flavor::ALL
        .iter()
        .filter(|f| f.dialect() == host)
        .find_map(|f| f.tables().event_name(&kind))
        .map_or_else(|| name.to_string(), str::to_string)
}

/// An event name in any flavour's spelling, or canonical.
pub fn parse_event(name: &str) -> EventKind {
    Flavor::ALL
        .iter()
        .find_map(|f| f.tables().event_kind(name))
        .unwrap_or_else(|| EventKind::from_name(name))
}

/// The environment says who runs us (Bricks sets `BRICKS_*`, Claude `CLAUDE_PROJECT_DIR`,
/// Copilot `COPILOT_CLI`); otherwise the payload's shape.
fn guess_host(payload: &[u8]) -> Option<Dialect> {
    let from_env = [
        ("BRICKS_HOOK_EVENT", Dialect::Bricks),
        ("CLAUDE_PROJECT_DIR", Dialect::Claude),
        ("COPILOT_CLI", Dialect::Copilot),
    ];
    if let Some((_, d)) = from_env
        .iter()
        .find(|(var, _)| std::env::var_os(var).is_some())
    {
        return Some(*d);
    }
    serde_json::from_slice(payload)
        .ok()
        .as_ref()
        .and_then(detect_host)
}

/// Prints the host answer and everything worth knowing on stderr; returns the exit code.
pub fn answer(dispatch: &Dispatch) -> i32 {
    let mut stderr = String::new();
    // On exit 2 the host reads stderr as the block reason: nothing else may be in it.
    if dispatch.answer.exit_code != 2 {
        // Handler errors are already in the answer's stderr, among its notes.
        for line in &dispatch.skipped {
            stderr.push_str(&format!("hookx: {line}\n"));
        }
    }
    stderr.push_str(&dispatch.answer.stderr);
    if dispatch.answer.exit_code != 2 && !stderr.is_empty() && !stderr.ends_with('\n') {
        stderr.push('\n');
    }
    use std::io::Write;
    let _ = std::io::stdout().write_all(dispatch.answer.stdout.as_bytes());
    let _ = std::io::stderr().write_all(stderr.as_bytes());
    dispatch.answer.exit_code
}

impl RuleSource for Source {
    fn env(&self) -> Vec<(String, String)> {
        self.plugin_root()
            .map(|root| vec![("CLAUDE_PLUGIN_ROOT".to_string(), root.display().to_string())])
            .unwrap_or_default()
    }
}

/// The rules `hookx run --host` runs itself, and a warning for every source it
/// would run but does not trust as found (new, changed since `hookx trust`, or trusted by an
/// older hookx), whatever the file holds: its content is not looked at.
pub fn runnable<'a>(
    sources: &'a [Source],
    host: Dialect,
    store: &TrustStore,
) -> (Vec<EffectiveRule<'a>>, Vec<String>) {
    let rules = discover::dispatch_rules(sources, host, store);
    let warnings = untrusted(sources, host, store)
        .into_iter()
        .map(|(s, state)| untrusted_warning(s, state))
        .collect();
    (rules, warnings)
}

/// The sources `hookx run --host` would run itself but does not trust as found, with their
/// standing.
pub fn untrusted<'a>(
    sources: &'a [Source],
    host: Dialect,
    store: &TrustStore,
) -> Vec<(&'a Source, TrustState)> {
    sources
        .iter()
        .filter(|s| discover::runner(host, s) == Runner::Hookx)
        .filter_map(|s| {
            let state = s.withheld.unwrap_or_else(|| store.state(s));
            (state != TrustState::Trusted).then_some((s, state))
        })
        .collect()
}

/// The warning about a source not run because of its standing.
pub fn untrusted_warning(source: &Source, state: TrustState) -> String {
    format!(
        "skipped {} ({}): review it, then run `hookx trust {}`",
        source.display,
        state.why_not(),
        crate::convert::shell_quote(&source.path.display().to_string())
    )
}
