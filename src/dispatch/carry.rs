//! A context the host drops, carried to where it delivers one (attacks rows 1383, 1650): Qwen
//! Code 0.24.4 drops a PreToolUse hook's `additionalContext` and delivers a PostToolUse or
//! PostToolUseFailure one with the call's result, and all three payloads name the call
//! ([`ProtocolTables::carried_context`]). The model reads nothing between a call and its
//! result, so the context delivered there reaches the same next request a Claude PreToolUse
//! context reaches under Claude.
//!
//! `hookx run` keeps such a context in `<home>/.hookx/carried/`, one file per session (0600 in
//! a 0700 folder, written atomically under the folder's lock, waited for briefly), under the
//! call's id; the same call's post event takes it out, once, and answers it before its own
//! handlers' context. A deny's context is not kept: the call never runs. A call the host
//! refuses after hookx answered (another hook) reaches no post event: its context goes with
//! the session's others past [`STALE`]. A session keeps at most [`MAX_CALLS`] calls' contexts,
//! each at most [`MAX_BYTES`]: nothing grows with events. A context hookx cannot keep is the
//! note on stderr it was before, saying why.
//!
//! [`ProtocolTables::carried_context`]: crate::tables::ProtocolTables::carried_context

use crate::model::event::SESSION_ID;
use crate::model::{Decision, Event, EventKind, Outcome};
use crate::protocol::answer::as_the_host_takes_it;
use crate::tables::{CarriedContext, Flavor, Slot};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a kept context waits for its call's post event: a call that runs longer (a build
/// of hours) loses it, said nowhere, as it was lost before. A session's file not written for
/// as long is swept.
pub const STALE: Duration = Duration::from_secs(24 * 3600);

/// The most calls whose contexts one session keeps: past it, the oldest goes. Calls the host
/// refused after hookx answered are the only ones that stay; a session has few.
pub const MAX_CALLS: usize = 64;

/// The most bytes of context kept for one call; a longer one is dropped whole, with the note,
/// rather than cut.
pub const MAX_BYTES: usize = 64 * 1024;

/// One call's kept context.
#[derive(Serialize, Deserialize)]
struct Kept {
    /// Seconds since the epoch when it was kept.
    at: u64,
    context: Vec<String>,
}

/// What this event does with a carried context.
pub struct Carry {
    role: Role,
}

enum Role {
    None,
    /// The event whose context the host drops: kept under `file`, at `call`.
    Keep {
        file: PathBuf,
        call: String,
        to: String,
        host: Flavor,
        kind: EventKind,
    },
    /// A later event of the call: what it took.
    Took(Vec<String>),
}

impl Carry {
    /// Carries nothing (`simulate`, a route that repeats another's answer).
    pub fn none() -> Self {
        Carry { role: Role::None }
    }

    /// What `event`, under `host`, does with a carried context in `home`: keeps the context
    /// the host drops, or takes what its call's earlier event kept (now, once).
    pub fn for_event(home: &Path, host: Flavor, event: &Event) -> Self {
        let none = Carry::none();
        let Some(spec) = carried(host) else {
            return none;
        };
        let (Some(session), Some(call)) = (
            event.field(SESSION_ID).filter(|s| !s.is_empty()),
            event.field(spec.call_key).filter(|c| !c.is_empty()),
        ) else {
            return none;
        };
        let file = home.join(".hookx/carried").join(format!(
            "{}.json",
            crate::hash::sha256_hex(session.as_bytes())
        ));
        let call = crate::hash::sha256_hex(call.as_bytes());
        if event.kind == spec.from {
            let to = spec
                .to
                .iter()
                .map(|k| crate::protocol::event_name(host.tables(), k))
                .collect::<Vec<_>>()
                .join(" or ");
            return Carry {
                role: Role::Keep {
                    file,
                    call,
                    to,
                    host,
                    kind: event.kind.clone(),
                },
            };
        }
        if spec.to.contains(&event.kind) {
            return Carry {
                role: Role::Took(take(&file, &call)),
            };
        }
        none
    }

    /// The outcome to answer instead of `outcome`, where this event carries: without the
    /// context it kept (and a note saying where it goes), or with the context it took first.
    /// `None`: answer `outcome` as it is.
    pub fn answer(&self, outcome: &Outcome) -> Option<Outcome> {
        match &self.role {
            Role::None => None,
            Role::Took(context) if context.is_empty() => None,
            Role::Took(context) => {
                let mut out = outcome.clone();
                out.additional_context = context
                    .iter()
                    .cloned()
                    .chain(out.additional_context)
                    .collect();
                Some(out)
            }
            // A deny's call never runs, nor one whose answer the host takes as a deny (a
            // rewrite it cannot apply: attacks row 1653).
            Role::Keep { host, kind, .. }
                if outcome.additional_context.is_empty()
                    || as_the_host_takes_it(*host, kind, outcome).decision
                        == Some(Decision::Deny) =>
            {
                None
            }
            Role::Keep { file, call, to, .. } => {
                let mut out = outcome.clone();
                match keep(file, call, &outcome.additional_context) {
                    Ok(()) => {
                        out.additional_context.clear();
                        out.errors.push(format!(
                            "hookx: additional context carried to the call's {to}, where the model reads it"
                        ));
                    }
                    Err(why) => out
                        .errors
                        .push(format!("hookx: additional context not carried: {why}")),
                }
                Some(out)
            }
        }
    }
}

/// `host`'s carried context, where its table has one and the host indeed drops the context
/// where it is kept (a table that says otherwise carries nothing).
fn carried(host: Flavor) -> Option<&'static CarriedContext> {
    let p = &host.tables().protocol;
    let spec = p.carried_context.as_ref()?;
    let drops = !p.writes(Slot::Context, &spec.from);
    let delivers = spec.to.iter().all(|k| p.writes(Slot::Context, k));
    (drops && delivers).then_some(spec)
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Whether a context kept at `at` has waited past [`STALE`] (or was kept ahead of the clock
/// by as much: before the clock was set back).
fn stale(at: u64, now: u64) -> bool {
    now.abs_diff(at) > STALE.as_secs()
}

/// The session's kept contexts in `text`; a file hookx did not write holds none.
fn parse(text: Option<&str>) -> BTreeMap<String, Kept> {
    text.and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_default()
}

/// Keeps `context` for `call` in the session's `file`, dropping the stale and, past
/// [`MAX_CALLS`], the oldest; then sweeps the folder's stale files.
fn keep(file: &Path, call: &str, context: &[String]) -> Result<(), String> {
    use crate::config::update::{Change, update_private_briefly};
    let bytes: usize = context.iter().map(String::len).sum();
    if bytes > MAX_BYTES {
        return Err(format!(
            "{bytes} bytes, more than the {MAX_BYTES} hookx keeps for a call"
        ));
    }
    let now = now_secs();
    update_private_briefly(file, |current| {
        let mut map = parse(current);
        map.retain(|_, k| !stale(k.at, now));
        let entry = map.entry(call.to_string()).or_insert(Kept {
            at: now,
            context: Vec::new(),
        });
        // Two routes of one agent may each keep what their rules answered.
        entry.context.extend(context.iter().cloned());
        while map.len() > MAX_CALLS {
            let oldest = map.iter().min_by_key(|(_, k)| k.at).map(|(c, _)| c.clone());
            oldest.map(|c| map.remove(&c));
        }
        Ok(Change::Write(
            serde_json::to_string(&map).unwrap_or_default(),
        ))
    })
    .map_err(|e| e.to_string())?;
    if let Some(dir) = file.parent() {
        sweep(dir);
    }
    Ok(())
}

/// Takes `call`'s kept context out of the session's `file`: none where there is no file, none
/// kept, or it cannot be read or written (then it is not delivered twice either).
fn take(file: &Path, call: &str) -> Vec<String> {
    use crate::config::update::{Change, update_private_briefly};
    // An event whose session kept nothing pays a look, not the folder's lock.
    if std::fs::symlink_metadata(file).is_err() {
        return Vec::new();
    }
    let mut took = Vec::new();
    let now = now_secs();
    let _ = update_private_briefly(file, |current| {
        let mut map = parse(current);
        if let Some(kept) = map.remove(call).filter(|k| !stale(k.at, now)) {
            took = kept.context;
        }
        map.retain(|_, k| !stale(k.at, now));
        Ok(match map.is_empty() {
            true => Change::Delete,
            false => Change::Write(serde_json::to_string(&map).unwrap_or_default()),
        })
    });
    took
}

/// Removes from `dir` (`carried/`, hookx's own folder) the regular files not written for
/// [`STALE`]: sessions that ended with a call refused after hookx answered, and the temporary
/// file of a write a host killed.
fn sweep(dir: &Path) {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    let now = SystemTime::now();
    for entry in listing.flatten() {
        // Not followed: a link is no file of hookx's.
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let old = meta.modified().is_ok_and(|at| {
            now.duration_since(at)
                .map_or_else(|ahead| ahead.duration() > STALE, |age| age > STALE)
        });
        if meta.is_file() && old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn event(kind: EventKind, call: &str) -> Event {
        let mut e = Event::tool_call(kind, "Bash", serde_json::json!({"command": "ls"}));
        e.fields.insert(SESSION_ID.into(), Value::from("s1"));
        e.fields.insert("tool_use_id".into(), Value::from(call));
        e
    }

    fn context(text: &str) -> Outcome {
        Outcome {
            additional_context: vec![text.into()],
            ..Outcome::default()
        }
    }

    fn qwen() -> Flavor {
        crate::dialect::qwen::FLAVOR
    }

    #[test]
    fn a_kept_context_is_taken_once_by_its_own_call() {
        let home = tempfile::tempdir().unwrap();
        let pre = Carry::for_event(home.path(), qwen(), &event(EventKind::PreToolUse, "c1"));
        let kept = pre.answer(&context("CTX")).unwrap();
        assert!(kept.additional_context.is_empty(), "{:?}", kept.errors);
        let other = Carry::for_event(home.path(), qwen(), &event(EventKind::PostToolUse, "c2"));
        assert!(other.answer(&Outcome::default()).is_none());
        let post = Carry::for_event(home.path(), qwen(), &event(EventKind::PostToolUse, "c1"));
        let took = post.answer(&context("OWN")).unwrap();
        assert_eq!(took.additional_context, ["CTX", "OWN"]);
        let again = Carry::for_event(
            home.path(),
            qwen(),
            &event(EventKind::PostToolUseFailure, "c1"),
        );
        assert!(again.answer(&Outcome::default()).is_none());
        // Nothing left behind.
        let dir = home.path().join(".hookx/carried");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    }

    #[test]
    fn a_deny_keeps_nothing_and_a_session_keeps_a_bounded_number() {
        let home = tempfile::tempdir().unwrap();
        let mut deny = context("CTX");
        deny.decision = Some(Decision::Deny);
        let pre = Carry::for_event(home.path(), qwen(), &event(EventKind::PreToolUse, "d"));
        assert!(pre.answer(&deny).is_none());
        for n in 0..(MAX_CALLS + 10) {
            let pre = Carry::for_event(
                home.path(),
                qwen(),
                &event(EventKind::PreToolUse, &format!("c{n}")),
            );
            pre.answer(&context("CTX")).unwrap();
        }
        let dir = home.path().join(".hookx/carried");
        let files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(files.len(), 1);
        let map = parse(std::fs::read_to_string(files[0].path()).ok().as_deref());
        assert_eq!(map.len(), MAX_CALLS);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&dir), 0o700);
            assert_eq!(mode(&files[0].path()), 0o600);
        }
        let long = "x".repeat(MAX_BYTES + 1);
        let pre = Carry::for_event(home.path(), qwen(), &event(EventKind::PreToolUse, "long"));
        let kept = pre.answer(&context(&long)).unwrap();
        assert_eq!(kept.additional_context.len(), 1);
        assert!(kept.errors[0].contains("not carried"), "{:?}", kept.errors);
    }

    #[test]
    fn only_a_host_that_drops_the_context_and_names_the_call_carries() {
        let dialects = crate::tables::Dialect::all()
            .iter()
            .chain(crate::tables::Dialect::write_only());
        for flavor in dialects.flat_map(|d| d.flavors()) {
            let p = &flavor.tables().protocol;
            if let Some(spec) = &p.carried_context {
                assert!(
                    carried(flavor).is_some(),
                    "{}: table contradicts itself",
                    flavor.name()
                );
                assert!(!spec.call_key.is_empty());
            }
        }
        let home = tempfile::tempdir().unwrap();
        let claude = crate::dialect::claude::FLAVOR;
        let pre = Carry::for_event(home.path(), claude, &event(EventKind::PreToolUse, "c1"));
        assert!(pre.answer(&context("CTX")).is_none());
    }
}
