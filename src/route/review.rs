//! A host that keys its review of a handler by the handler's place (Codex:
//! `FILE:event:group:handler`, codex-facts) loses the review when one of hookx's writes moves
//! the handler (a route or a stale copy taken out before it): the record moves with it
//! (attacks rows 284, 285: a reviewed handler of the user's was skipped without a word). A
//! copy hookx wrote again from a source trusted in hookx keeps the review its previous bytes
//! had (attacks row 442: hookx moved, the copy's command changed, and Codex skipped it).

use crate::context::Context;
use crate::error::Error;
use crate::tables::Dialect;
use crate::tables::{Record, RouteTrust};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Where `host` reads its review of the handlers of `path`: beside a user file below the home
/// (hookx writes there whatever the host's folder variable says, and warns: attacks row 281),
/// else the user layer the host reads.
pub fn review_file(ctx: &Context, host: Dialect, trust: &RouteTrust, path: &Path) -> PathBuf {
    match path == ctx.home.join(host.config().install_user) {
        true => ctx.home.join(trust.file),
        false => ctx.agent_file(host, trust.file),
    }
}

/// Whether `host` runs the handler of its project hook file `file` whose command is
/// `command`: for an agent that runs only handlers its user reviewed (Codex), one whose review
/// holds in each place the agent may read it from (below the home, and below its folder
/// variable) and that no layer the agent was started with turns off. A line that stands in
/// for another's run of a rule must be one the agent runs: else the rule runs nowhere.
pub fn runs_handler(home: &Path, host: Dialect, file: &Path, command: &str) -> bool {
    let Some(trust) = &host.def().route_trust else {
        return true;
    };
    let Some(value) = crate::read::text(file, crate::read::MAX_FILE_BYTES)
        .ok()
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
    else {
        return false;
    };
    let named = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    let key = host.def().route.command_key;
    let records = (trust.records)(&named, &value, &|h| {
        h.get(key).and_then(Value::as_str) == Some(command)
    });
    let mut places = vec![home.join(trust.file)];
    places.push(super::hosts_own_file(home, host, trust.file));
    places.dedup();
    let texts: Vec<String> = places
        .iter()
        .map(|f| crate::read::text(f, crate::read::MAX_FILE_BYTES).unwrap_or_default())
        .collect();
    let hashed = records.iter().all(|(key, value)| {
        texts
            .iter()
            .all(|text| (trust.hash)(text, key).as_deref() == Some(value))
    });
    if records.is_empty() || !hashed {
        return false;
    }
    // The agent's process is looked at only where a review holds (its `-c` is seen there
    // only: attacks rows 740, 860).
    let layers = (trust.layer)
        .map(|layer| super::layer_texts(home, host, layer))
        .unwrap_or_default();
    records
        .iter()
        .all(|(key, value)| trust.runs(&texts, &layers, key, value))
}

/// The (old key, new key) of each handler `moving` picks that sits elsewhere in `after` than in
/// `before` (both the hook file's text; `named` the path the host keys it by). Matched in
/// order by their review value, which does not hold the place: hookx's writes take out, add
/// and append, and never reorder what they keep. `install` records its own routes' reviews
/// itself and picks the other handlers; a conversion moves hookx's routes as any other
/// (attacks row 630: a route moved up by a copy taken out lost its review).
pub fn moved(
    trust: &RouteTrust,
    named: &Path,
    (before, after): (Option<&str>, Option<&str>),
    moving: &dyn Fn(&Value) -> bool,
) -> Vec<(String, String)> {
    let records = |text: Option<&str>| {
        text.and_then(|t| serde_json::from_str::<Value>(t).ok())
            .map(|v| (trust.records)(named, &v, moving))
            .unwrap_or_default()
    };
    let (was, now) = (records(before), records(after));
    let mut from = 0;
    let mut out = Vec::new();
    for (new, value) in now {
        if let Some(i) = was[from..].iter().position(|(_, v)| *v == value) {
            let old = &was[from + i].0;
            if *old != new {
                out.push((old.clone(), new));
            }
            from += i + 1;
        }
    }
    out
}

/// The review file's `text` with the reviews of the `moved` handlers at their new keys (each
/// old and new key taken out first: a chain of moves up frees the places it fills). A record that is
/// no review (Codex's `enabled = false`) goes too, not left at a place another handler takes
/// next (attacks row 320: the next install's route there ran nowhere).
pub fn carried(
    trust: &RouteTrust,
    text: &str,
    moved: &[(String, String)],
) -> Result<String, String> {
    if moved.is_empty() {
        return Ok(text.to_string());
    }
    let reviews: Vec<(String, String)> = moved
        .iter()
        .filter_map(|(old, new)| Some((new.clone(), trust.recorded(text, old)?)))
        .collect();
    // The new places' records go too: a record there is of a handler no longer there (a copy
    // taken out), and its `enabled = false` would turn off the handler moved in (attacks row
    // 369: the user's guard, moved into a deleted check's place, skipped by Codex).
    let places: Vec<String> = moved
        .iter()
        .flat_map(|(old, new)| [old.clone(), new.clone()])
        .collect();
    (trust.set)(&(trust.unset)(text, &places)?, &reviews)
}

/// The copies of hookx's whose review a write keeps when it changes them: those whose
/// provenance record names one of `sources` (trusted in hookx, the copies running what was
/// reviewed there).
pub struct Vouched<'a> {
    pub sources: &'a [Value],
    /// What a copy runs, whatever hookx wrote it with (convert's `runs_of`, given by the
    /// caller: `convert` uses this module).
    pub runs: fn(&Value) -> Option<Value>,
}

/// hookx's copies of the `vouched` sources that a write changed, each as its (key, value)
/// before and after: paired first by what they run (hookx moved, the wrap changed), then by
/// the rule, handler and matcher their record names (the rule's command edited in the
/// source; a rule taken out moves the next one to its place, and its copy, never reviewed,
/// must not take the review of the one taken out: the matcher tells them apart where they
/// differ). Copies whose value stayed are [`moved`]'s.
fn rewritten(
    trust: &RouteTrust,
    named: &Path,
    (before, after): (Option<&str>, Option<&str>),
    vouched: &Vouched,
) -> Vec<(Record, Record)> {
    let copies = |text: Option<&str>| {
        let Some(value) = text.and_then(|t| serde_json::from_str::<Value>(t).ok()) else {
            return Vec::new();
        };
        // `records` asks `is_route` once for each record it gives, in order.
        let taken = std::cell::RefCell::new(Vec::new());
        let records = (trust.records)(named, &value, &|handler| {
            let copy = handler
                .get(crate::config::MARKER)
                .and_then(|m| m.get("source"))
                .is_some_and(|s| vouched.sources.contains(s));
            if copy {
                taken.borrow_mut().push(handler.clone());
            }
            copy
        });
        records
            .into_iter()
            .zip(taken.into_inner())
            .collect::<Vec<_>>()
    };
    let (was, now) = (copies(before), copies(after));
    let source = |h: &Value| h.get(crate::config::MARKER)?.get("source").cloned();
    let runs = |h: &Value| Some(serde_json::json!([source(h)?, (vouched.runs)(h)?]));
    let place = |h: &Value| {
        let record = h.get(crate::config::MARKER)?;
        Some(serde_json::json!([
            source(h)?,
            record.get("rule")?,
            record.get("index")?,
            record.get("matcher")
        ]))
    };
    let mut left: Vec<Option<&(Record, Value)>> = was.iter().map(Some).collect();
    let mut paired: Vec<Option<Record>> = vec![None; now.len()];
    for by in [&runs as &dyn Fn(&Value) -> Option<Value>, &place] {
        for (i, (_, handler)) in now.iter().enumerate() {
            let Some(id) = by(handler).filter(|_| paired[i].is_none()) else {
                continue;
            };
            let at = left
                .iter()
                .position(|old| old.is_some_and(|(_, old)| by(old).as_ref() == Some(&id)));
            paired[i] = at
                .and_then(|j| left[j].take())
                .map(|(record, _)| record.clone());
        }
    }
    now.into_iter()
        .zip(paired)
        .filter_map(|((record, _), was)| Some((was?, record)))
        .filter(|(was, now)| was.1 != now.1)
        .collect()
}

/// After hookx wrote `host`'s hook file `path` from `before` to `after`: the reviews of the
/// handlers it moved follow them, and a copy of the `vouched` sources (trusted in hookx, the
/// copies running what was reviewed there) that it changed keeps the review its previous
/// bytes had, at its new value: never a review of a copy that had none, or whose review no
/// longer held. The number of reviews kept so.
pub fn follow(
    ctx: &Context,
    host: Dialect,
    path: &Path,
    (before, after): (Option<&str>, Option<&str>),
    vouched: Option<&Vouched>,
) -> Result<usize, Error> {
    let Some(trust) = &host.def().route_trust else {
        return Ok(0);
    };
    // Codex names a project's file by its real path, the user's below `$HOME` as set.
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let named = match path == ctx.home.join(host.config().install_user) {
        true => super::review_key_path(&ctx.home, host, &path),
        false => path.canonicalize().unwrap_or_else(|_| path.clone()),
    };
    let moved = moved(trust, &named, (before, after), &|_| true);
    let mut rewritten = match vouched {
        Some(vouched) => rewritten(trust, &named, (before, after), vouched),
        None => Vec::new(),
    };
    rewritten.retain(|(_, now)| !moved.iter().any(|(_, to)| *to == now.0));
    if moved.is_empty() && rewritten.is_empty() {
        return Ok(0);
    }
    let file = review_file(ctx, host, trust, &path);
    let shown = ctx.display(&file);
    let mut kept = 0;
    crate::config::update::update(&file, |current| {
        let Some(text) = current else {
            return Ok(crate::config::update::Change::Keep);
        };
        let held: Vec<&(Record, Record)> = rewritten
            .iter()
            .filter(|(was, _)| trust.recorded(text, &was.0).as_deref() == Some(&was.1))
            .collect();
        // A record at a new place is of the handler there before (its `enabled = false` would
        // turn the copy off, as in [`carried`]); at the same place, its line is replaced.
        let places: Vec<String> = held
            .iter()
            .filter(|(was, now)| was.0 != now.0)
            .map(|(_, now)| now.0.clone())
            .collect();
        let held: Vec<Record> = held.into_iter().map(|(_, now)| now.clone()).collect();
        let edited = carried(trust, text, &moved)
            .and_then(|text| (trust.unset)(&text, &places))
            .and_then(|text| (trust.set)(&text, &held))
            .map_err(|message| Error::Io {
                path: shown.clone(),
                message: format!("cannot move the reviews of the handlers hookx moved: {message}"),
            })?;
        kept = held.len();
        Ok(crate::config::update::Change::Write(edited))
    })?;
    Ok(kept)
}
