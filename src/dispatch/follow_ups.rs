//! The cap an agent keeps on a hook's follow-ups in a row (Cursor's `stop` hook: `loop_limit`,
//! default 5, the count so far in the payload's `loop_count`), kept by `hookx run` when another
//! host runs the hook. There a follow-up is a Stop block, which that host caps only sometimes
//! (Claude Code and Qwen Code after 8 in a row, Gemini CLI at its turn budget, Codex 0.171.0
//! not at all): without the hook's own cap an agent would be trapped by the translation
//! (attacks row 306).
//!
//! The counts live in `<home>/.hookx/follow-ups/`, one file per session (and subagent), keyed
//! by the rule and its command (`hookx exec`, which has no `--home`: under `$HOME`; with none,
//! or for a payload that names no session, no count). An agent whose cap is one for every hook
//! (Claude Code's, Qwen Code's: the stops in a row that any hook blocked) is counted so too:
//! one count for every such hook, so that two hooks taking turns to block end as under their
//! own agent (attacks row 460). A count starts again when the host says the stop continues
//! none ([`CONTINUATION`] `false`); a hook's own count also goes when the hook does not follow
//! up, a shared one only where the host says nothing of continuing and none of its hooks
//! followed up; the file goes when no count is left in it, or a day after its last follow-up
//! ([`STALE`]). A count hookx cannot read or write
//! never traps the agent: the follow-up is then not passed on (the agent stops, as at the
//! cap), and stderr says why.

use crate::model::{Event, Handler, Outcome};
use crate::tables::{Flavor, FollowUpCap};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub use crate::protocol::CONTINUATION;

/// The key of the one count kept for every hook whose agent caps all hooks' follow-ups
/// together ([`FollowUpCap::limit_key`] `None`): the stops in a row any of them blocked.
const EVERY_HOOK: &str = "stops kept going in a row";

/// How long a session's file outlives its last follow-up. A row is stops the agent makes one
/// after another; a file this old is a session that ended mid-row, or whose last stop a hook
/// let pass where the host said it continued one (Claude's idiom, block once: the shared count
/// stays, attacks row 460), which left one file per such session for ever (attacks row 1510).
/// A row dropped so counts from 0 again: at worst one more cap's worth, never a trap.
const STALE: std::time::Duration = std::time::Duration::from_secs(24 * 3600);

/// One handler's cap and its count.
pub struct Cap {
    spec: &'static FollowUpCap,
    limit: u64,
    /// The count's key in the session's file: the rule and its command.
    key: String,
    /// Its follow-ups in a row so far; `Err`: the count could not be read.
    count: Result<u64, String>,
    /// Whether the session's file holds a count for it (or might: it could not be read).
    stored: bool,
}

/// The cap `flavor`'s agent keeps on `handler`'s follow-ups on `event`, if any: its limit is
/// the handler's own where it gives a whole number, else the agent's default. `key` names the
/// handler's own count; an agent-wide cap counts every such hook's at [`EVERY_HOOK`].
pub fn cap(flavor: Flavor, event: &Event, handler: &Handler, key: String) -> Option<Cap> {
    let spec = flavor.dialect().config().run_keys.follow_ups.as_ref()?;
    if !spec.events.contains(&event.kind) {
        return None;
    }
    let limit = spec
        .limit_key
        .and_then(|key| handler.extra.get(key)?.as_u64())
        .unwrap_or(spec.default_limit);
    Some(Cap {
        spec,
        limit,
        key: match spec.limit_key {
            Some(_) => key,
            None => EVERY_HOOK.to_string(),
        },
        count: Ok(0),
        stored: false,
    })
}

/// One session's counts: `<home>/.hookx/follow-ups/<sha256 of the session id>.json`, an object
/// of counts by key; `Err`: there is no home to keep them in.
pub struct Counts {
    path: Result<PathBuf, String>,
    /// Counts a follow-up of this event kept going, and those one of its hooks did not: a
    /// count shared by several hooks starts again only when none of them followed up.
    followed: BTreeSet<String>,
    passed: BTreeMap<String, bool>,
    /// Whether the host says whether this stop continues one a hook blocked: a shared count
    /// then starts again by the host's word alone (a stop that continues none reads it as 0),
    /// not where a hook lets a stop pass, which cannot tell whether another, run by another
    /// `hookx exec`, blocked it (attacks row 460: such a reset kept two converted copies taking
    /// turns going without end).
    host_says: bool,
}

impl Counts {
    /// Reads the counts of `event`'s session into `caps` and tells each hook its count in its
    /// payload (`stdin`, the hook's dialect's key). The count a stop that continues none gets is
    /// 0; one that could not be read is given as the limit (its follow-up will not be passed on).
    pub fn load<'c>(
        home: Result<&Path, String>,
        event: &Event,
        caps: impl Iterator<Item = (&'c mut Cap, &'c mut Value)>,
    ) -> Counts {
        // A subagent's stops are a row of their own (its session's id is its parent's).
        let session = match (event.field("session_id"), event.field("agent_id")) {
            (Some(""), _) | (None, _) => None,
            (Some(id), None) => Some(id.to_string()),
            (Some(id), Some(agent)) => Some(format!("{id}\n{agent}")),
        };
        let name =
            |session: String| format!("{}.json", crate::hash::sha256_hex(session.as_bytes()));
        let counts = Counts {
            path: match session {
                // Sessions without an id would share one count: one could end another's row
                // early, or start it again so that it never ends. None is kept.
                None => Err("the payload names no session to count them in".to_string()),
                Some(session) => {
                    home.map(|home| home.join(".hookx").join("follow-ups").join(name(session)))
                }
            },
            followed: BTreeSet::new(),
            passed: BTreeMap::new(),
            host_says: event
                .fields
                .get(CONTINUATION)
                .is_some_and(Value::is_boolean),
        };
        let read = counts.read();
        let continues = event.fields.get(CONTINUATION) != Some(&Value::Bool(false));
        for (cap, stdin) in caps {
            // Nothing to take out where there is no file to keep counts in.
            cap.stored =
                counts.path.is_ok() && read.as_ref().map_or(true, |m| m.contains_key(&cap.key));
            cap.count = match &read {
                _ if !continues => Ok(0),
                Ok(map) => Ok(map.get(&cap.key).copied().unwrap_or(0)),
                Err(why) => Err(why.clone()),
            };
            let shown = *cap.count.as_ref().unwrap_or(&cap.limit);
            if let (Some(key), Value::Object(payload)) = (cap.spec.count_key, &mut *stdin) {
                payload.insert(key.to_string(), shown.into());
            }
        }
        counts
    }

    /// Keeps `cap` on the answer `one` of the handler from `origin`: a follow-up past the cap,
    /// or one whose count cannot be kept, is taken out of it, and `notes` says why.
    pub fn settle(
        &mut self,
        cap: &Cap,
        mut one: Outcome,
        origin: &str,
        notes: &mut Vec<String>,
    ) -> Outcome {
        if !one.block {
            // No follow-up: the next one starts a new row ([`Counts::finish`] for a shared one).
            match cap.spec.limit_key {
                None if self.host_says => {}
                None => {
                    self.passed.insert(cap.key.clone(), cap.stored);
                }
                Some(_) => self.forget(&cap.key, cap.stored, origin, notes),
            }
            return one;
        }
        self.followed.insert(cap.key.clone());
        let limit = cap.limit;
        let key = match cap.spec.limit_key {
            Some(key) => format!("its `{key}` of {limit}"),
            None => format!("its agent's cap of {limit}"),
        };
        let why = match &cap.count {
            Ok(n) if *n >= limit && cap.spec.limit_key.is_none() => format!(
                "its agent's hooks have kept it going {n} times in a row, {key}, where its own \
                 agent stops it"
            ),
            Ok(n) if *n >= limit => format!(
                "it has followed up {n} times in a row, {key}, where its own agent stops it"
            ),
            Ok(n) => match self.set(&cap.key, Some(n + 1)) {
                Ok(()) => return one,
                Err(why) => format!(
                    "hookx cannot keep the count {key} needs, so the loop might not end: {why}"
                ),
            },
            Err(why) => {
                format!("hookx cannot read the count {key} needs, so the loop might not end: {why}")
            }
        };
        one.block = false;
        one.reasons.clear();
        notes.push(format!(
            "{origin}: its follow-up does not keep the agent going: {why}"
        ));
        one
    }

    /// Once every handler has answered: a shared count none of its hooks followed up on starts
    /// again.
    pub fn finish(&self, notes: &mut Vec<String>) {
        for (key, stored) in &self.passed {
            if !self.followed.contains(key) {
                self.forget(key, *stored, "hookx", notes);
            }
        }
    }

    /// Takes `key`'s count out, where the file holds one (`stored`).
    fn forget(&self, key: &str, stored: bool, origin: &str, notes: &mut Vec<String>) {
        if stored && let Err(why) = self.set(key, None) {
            notes.push(format!("{origin}: its count of follow-ups stays: {why}"));
        }
    }

    /// The counts on disk: none when there is no file, or when it holds no counts (a file
    /// hookx did not write: it is replaced by the next count); `Err` when it cannot be read.
    fn read(&self) -> Result<BTreeMap<String, u64>, String> {
        let path = self.path.as_ref()?;
        match crate::read::bytes(path, crate::read::MAX_FILE_BYTES) {
            Ok(bytes) => Ok(serde_json::from_slice(&bytes).unwrap_or_default()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
            Err(e) => Err(format!("{}: {e}", path.display())),
        }
    }

    /// Sets the count of `key` (`None`: takes it out), atomically, keeping the others.
    fn set(&self, key: &str, count: Option<u64>) -> Result<(), String> {
        use crate::config::update::{Change, update_private_briefly};
        update_private_briefly(self.path.as_ref()?, |current| {
            let mut map: BTreeMap<String, u64> = current
                .and_then(|text| serde_json::from_str(text).ok())
                .unwrap_or_default();
            match count {
                Some(n) => map.insert(key.to_string(), n),
                None => map.remove(key),
            };
            Ok(match map.is_empty() {
                true => Change::Delete,
                false => Change::Write(serde_json::to_string(&map).unwrap_or_default()),
            })
        })
        .map_err(|e| e.to_string())?;
        // Only where a follow-up is counted (a stop kept going), the moment a file is made:
        // never on the path of an event that blocks nothing.
        if count.is_some()
            && let Ok(path) = &self.path
            && let Some(dir) = path.parent()
        {
            sweep(dir);
        }
        Ok(())
    }
}

/// Removes from `dir` (`follow-ups/`, hookx's own folder) the regular files not written for
/// [`STALE`]: sessions' counts, and the temporary file of a write a host killed. A time ahead
/// of the clock by as much was written before it was set back.
fn sweep(dir: &Path) {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    let now = std::time::SystemTime::now();
    for entry in listing.flatten() {
        // Not followed: a link is no file of hookx's.
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let stale = meta.modified().is_ok_and(|at| {
            now.duration_since(at)
                .map_or_else(|ahead| ahead.duration() > STALE, |age| age > STALE)
        });
        if meta.is_file() && stale {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
