//! A context the host drops, carried to where it delivers one (attacks rows 1383, 1650): Qwen
//! Code 0.24.4 drops a PreToolUse hook's `additionalContext` and delivers a PostToolUse or
//! PostToolUseFailure one with the call's result, and all three payloads name the call
//! ([`ProtocolTables::carried_context`]). The model reads nothing between a call and its
//! result, so the context delivered there reaches the same next request a Claude PreToolUse
//! context reaches under Claude.
//!
//! `hookx run` keeps such a context in `<home>/.hookx/carried/<session>/`, one file per keep
//! (0600 in 0700 folders), named by the call and renamed into place whole; the same call's
//! post event takes it out by renaming it away, so exactly one event takes it, and answers it
//! before its own handlers' context. No lock is taken: a batch of calls, or the sessions of
//! several agents at once, each write and take files of their own (attacks row 2081: with
//! one file per session under its folder's lock, 96 runs at once lost 26 to 45 contexts,
//! kept ones silently). A deny's context is not kept: the call never runs. A call the host
//! refuses after hookx answered (another hook) reaches no post event: its context goes with
//! the session's others past [`STALE`]. A session keeps at most [`MAX_CALLS`] contexts, each
//! at most [`MAX_BYTES`]: nothing grows with events. A context hookx cannot keep is the note
//! on stderr it was before, saying why.
//!
//! [`ProtocolTables::carried_context`]: crate::tables::ProtocolTables::carried_context

use crate::model::event::SESSION_ID;
use crate::model::{Decision, Event, EventKind, Outcome};
use crate::protocol::answer::as_the_host_takes_it;
use crate::tables::{CarriedContext, Flavor, Slot};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a kept context waits for its call's post event: a call that runs longer (a build
/// of hours) loses it, said nowhere, as it was lost before. A session's file not written for
/// as long is swept.
pub const STALE: Duration = Duration::from_secs(24 * 3600);

/// The most contexts one session keeps: past it, the oldest go. Calls the host refused after
/// hookx answered are the only ones that stay; a session has few.
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
    /// The event whose context the host drops: kept in the session's folder `dir`, for `call`.
    Keep {
        dir: PathBuf,
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
    /// the host drops, or takes what its call's earlier event kept (now, once), and where the
    /// host takes context on it, what the session's background handlers answered since
    /// ([`keep_late`]).
    pub fn for_event(home: &Path, host: Flavor, event: &Event) -> Self {
        let none = Carry::none();
        let Some(dir) = session_dir(home, event) else {
            return none;
        };
        let takes_late = host.tables().protocol.writes(Slot::Context, &event.kind);
        let spec_call = carried(host).and_then(|spec| {
            let call = event.field(spec.call_key).filter(|c| !c.is_empty())?;
            Some((spec, crate::hash::sha256_hex(call.as_bytes())))
        });
        let Some((spec, call)) = spec_call else {
            return match takes_late {
                true => Carry {
                    role: Role::Took(take(&dir, LATE)),
                },
                false => none,
            };
        };
        if event.kind == spec.from {
            let to = spec
                .to
                .iter()
                .map(|k| crate::protocol::event_name(host.tables(), k))
                .collect::<Vec<_>>()
                .join(" or ");
            return Carry {
                role: Role::Keep {
                    dir,
                    call,
                    to,
                    host,
                    kind: event.kind.clone(),
                },
            };
        }
        let mut took = match takes_late {
            true => take(&dir, LATE),
            false => Vec::new(),
        };
        if spec.to.contains(&event.kind) {
            took.extend(take(&dir, &call));
        }
        Carry {
            role: Role::Took(took),
        }
    }

    /// What `exec`'s event takes: the session's kept background answers ([`keep_late`]) where
    /// the host takes context on it, and nothing of a call's ([`Carry::for_event`] is the
    /// route's, which answers for the host's every rule).
    pub fn late_only(home: &Path, host: Flavor, event: &Event) -> Self {
        match session_dir(home, event) {
            Some(dir) if host.tables().protocol.writes(Slot::Context, &event.kind) => Carry {
                role: Role::Took(take(&dir, LATE)),
            },
            _ => Carry::none(),
        }
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
            Role::Keep { dir, call, to, .. } => {
                let mut out = outcome.clone();
                match keep(dir, call, &outcome.additional_context) {
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

/// The name kept background answers go under in a session's folder, where a call's go under
/// its hash (64 hex digits): never the same.
const LATE: &str = "late";

/// The folder of `event`'s session under `home`; `None`: its payload names no session.
fn session_dir(home: &Path, event: &Event) -> Option<PathBuf> {
    let session = event.field(SESSION_ID).filter(|s| !s.is_empty())?;
    Some(
        home.join(".hookx/carried")
            .join(crate::hash::sha256_hex(session.as_bytes())),
    )
}

/// Keeps what handlers run in the background for `event` answered, once they ended (`texts`:
/// their messages and context, in their order), for the session's next event whose answer
/// the host takes context from, as their own agent gives them to the model with a later
/// request ([`crate::tables::ProtocolTables::late_answer`]; attacks rows 2004, 2203). Past
/// the answer nobody reads an error: it says why it was not kept, for `simulate`'s notes.
pub fn keep_late(home: &Path, event: &Event, texts: &[String]) -> Result<(), String> {
    if texts.is_empty() {
        return Ok(());
    }
    let dir = session_dir(home, event).ok_or("the event names no session")?;
    keep(&dir, LATE, texts)
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

/// A kept context in `text`; a file hookx did not write holds none.
fn parse(text: &str) -> Option<Kept> {
    serde_json::from_str(text).ok()
}

/// Whether `name` (in a session's folder) is a context kept for `call`: `CALL-UNIQUE.json`.
fn kept_for<'a>(name: &'a str, call: &str) -> Option<&'a str> {
    name.strip_prefix(call)?
        .strip_prefix('-')?
        .strip_suffix(".json")
}

/// Keeps `context` for `call` in the session's folder `dir`, a file of its own renamed into
/// place whole (two routes of one agent may each keep what their rules answered); past
/// [`MAX_CALLS`] the session's oldest go; then sweeps the sessions gone stale.
fn keep(dir: &Path, call: &str, context: &[String]) -> Result<(), String> {
    use std::io::Write;
    let bytes: usize = context.iter().map(String::len).sum();
    if bytes > MAX_BYTES {
        return Err(format!(
            "{bytes} bytes, more than the {MAX_BYTES} hookx keeps for a call"
        ));
    }
    let text = serde_json::to_string(&Kept {
        at: now_secs(),
        context: context.to_vec(),
    })
    .unwrap_or_default();
    let shown = |e: std::io::Error| format!("{}: {e}", dir.display());
    // Another run's take may remove the session's folder, emptied, in between: once more.
    let mut tries = 0;
    let tmp = loop {
        crate::config::update::private_dir(dir).map_err(shown)?;
        let mut builder = tempfile::Builder::new();
        builder.prefix(".hookx-");
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o600));
        match builder.tempfile_in(dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && tries == 0 => tries += 1,
            made => break made.map_err(shown)?,
        }
    };
    let mut tmp = tmp;
    tmp.write_all(text.as_bytes()).map_err(shown)?;
    let unique = tmp
        .path()
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix(".hookx-"))
        .unwrap_or_default()
        .to_string();
    tmp.persist_noclobber(dir.join(format!("{call}-{unique}.json")))
        .map_err(|e| shown(e.error))?;
    bound(dir);
    if let Some(carried) = dir.parent() {
        sweep(carried);
    }
    Ok(())
}

/// Removes the session's oldest contexts past [`MAX_CALLS`].
fn bound(dir: &Path) {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    let mut kept: Vec<(SystemTime, PathBuf)> = listing
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.ends_with(".json")))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if kept.len() <= MAX_CALLS {
        return;
    }
    kept.sort();
    for (_, path) in &kept[..kept.len() - MAX_CALLS] {
        let _ = std::fs::remove_file(path);
    }
}

/// Takes `call`'s kept contexts out of the session's folder `dir`: each file is renamed away
/// before it is read, so that of two events that look at once only one takes it. None where
/// nothing was kept, or it cannot be read (then it is not delivered twice either).
fn take(dir: &Path, call: &str) -> Vec<String> {
    // An event whose session kept nothing pays a look.
    let Ok(listing) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut mine: Vec<(String, PathBuf)> = listing
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let unique = kept_for(&name, call)?.to_string();
            Some((unique, e.path()))
        })
        .collect();
    if mine.is_empty() {
        return Vec::new();
    }
    let now = now_secs();
    let mut took: Vec<(u64, Vec<String>)> = Vec::new();
    mine.sort();
    for (unique, path) in mine {
        let taken = dir.join(format!("{call}-{unique}.took-{}", std::process::id()));
        if std::fs::rename(&path, &taken).is_err() {
            continue;
        }
        let text = crate::read::text(&taken, (MAX_BYTES as u64) * 8);
        let _ = std::fs::remove_file(&taken);
        if let Some(kept) = text.ok().as_deref().and_then(parse)
            && !stale(kept.at, now)
        {
            took.push((kept.at, kept.context));
        }
    }
    // Emptied: gone (a keep that raced it makes the folder again).
    let _ = std::fs::remove_dir(dir);
    took.sort_by_key(|(at, _)| *at);
    took.into_iter().flat_map(|(_, c)| c).collect()
}

/// Removes from `carried` (hookx's own folder) the sessions none of whose files was written
/// for [`STALE`] (those that ended with a call refused after hookx answered), and anything
/// else not written for as long: the temporary file of a keep a host killed, the one file per
/// session of hookx before row 2081.
fn sweep(carried: &Path) {
    let now = SystemTime::now();
    let old = |meta: &std::fs::Metadata| {
        meta.modified().is_ok_and(|at| {
            now.duration_since(at)
                .map_or_else(|ahead| ahead.duration() > STALE, |age| age > STALE)
        })
    };
    let Ok(listing) = std::fs::read_dir(carried) else {
        return;
    };
    for entry in listing.flatten() {
        // Not followed: a link is no file of hookx's.
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        if meta.is_file() && old(&meta) {
            let _ = std::fs::remove_file(entry.path());
        } else if meta.is_dir() && old(&meta) {
            let Ok(files) = std::fs::read_dir(entry.path()) else {
                continue;
            };
            let files: Vec<_> = files.flatten().collect();
            let all_old = files.iter().all(|f| {
                f.path()
                    .symlink_metadata()
                    .is_ok_and(|m| m.is_file() && old(&m))
            });
            if all_old {
                for f in files {
                    let _ = std::fs::remove_file(f.path());
                }
                let _ = std::fs::remove_dir(entry.path());
            }
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
        let sessions: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
        assert_eq!(sessions.len(), 1);
        let files: Vec<_> = std::fs::read_dir(sessions[0].path())
            .unwrap()
            .flatten()
            .collect();
        assert_eq!(files.len(), MAX_CALLS);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&dir), 0o700);
            assert_eq!(mode(&sessions[0].path()), 0o700);
            assert_eq!(mode(&files[0].path()), 0o600);
        }
        let long = "x".repeat(MAX_BYTES + 1);
        let pre = Carry::for_event(home.path(), qwen(), &event(EventKind::PreToolUse, "long"));
        let kept = pre.answer(&context(&long)).unwrap();
        assert_eq!(kept.additional_context.len(), 1);
        assert!(kept.errors[0].contains("not carried"), "{:?}", kept.errors);
    }

    #[test]
    fn a_background_answer_is_taken_once_by_the_sessions_next_event_that_takes_context() {
        let home = tempfile::tempdir().unwrap();
        let gemini = crate::dialect::gemini::FLAVOR;
        let pre = event(EventKind::PreToolUse, "c1");
        keep_late(home.path(), &pre, &["MSG".into(), "CTX".into()]).unwrap();
        let mut other = event(EventKind::PostToolUse, "c2");
        other.fields.insert(SESSION_ID.into(), Value::from("s2"));
        let elsewhere = Carry::for_event(home.path(), gemini, &other);
        assert!(elsewhere.answer(&Outcome::default()).is_none());
        let mut ended = Event {
            kind: EventKind::SessionEnd,
            timestamp: None,
            tool: None,
            fields: Default::default(),
            result: None,
        };
        ended.fields.insert(SESSION_ID.into(), Value::from("s1"));
        assert!(!gemini.tables().protocol.writes(Slot::Context, &ended.kind));
        let at_end = Carry::for_event(home.path(), gemini, &ended);
        assert!(at_end.answer(&Outcome::default()).is_none());
        let post = Carry::for_event(home.path(), gemini, &event(EventKind::PostToolUse, "c1"));
        let took = post.answer(&context("OWN")).unwrap();
        assert_eq!(took.additional_context, ["MSG", "CTX", "OWN"]);
        let again = Carry::for_event(home.path(), gemini, &event(EventKind::PostToolUse, "c3"));
        assert!(again.answer(&Outcome::default()).is_none());
        // Under Qwen, whose PreToolUse drops context and keeps it for the call's post event,
        // that event takes both, the earlier event's background answer first.
        keep_late(home.path(), &pre, &["LATE".into()]).unwrap();
        let qpre = Carry::for_event(home.path(), qwen(), &event(EventKind::PreToolUse, "q1"));
        qpre.answer(&context("PRE")).unwrap();
        let qpost = Carry::for_event(home.path(), qwen(), &event(EventKind::PostToolUse, "q1"));
        let took = qpost.answer(&Outcome::default()).unwrap();
        assert_eq!(took.additional_context, ["LATE", "PRE"]);
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
