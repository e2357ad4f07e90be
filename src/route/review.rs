//! A host that keys its review of a handler by the handler's place (Codex:
//! `FILE:event:group:handler`, codex-facts) loses the review when one of hookx's writes moves
//! the handler (a route or a stale copy taken out before it): the record moves with it
//! (attacks rows 284, 285: a reviewed handler of the user's was skipped without a word).

use crate::context::Context;
use crate::error::Error;
use crate::tables::Dialect;
use crate::tables::RouteTrust;
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

/// The (old key, new key) of each handler that is no route of hookx's and sits elsewhere in
/// `after` than in `before` (both the hook file's text; `named` the path the host keys it by).
/// Matched in order by their review value, which does not hold the place: hookx's writes take
/// out, add and append, and never reorder what they keep.
pub fn moved(
    trust: &RouteTrust,
    named: &Path,
    before: Option<&str>,
    after: Option<&str>,
) -> Vec<(String, String)> {
    let records = |text: Option<&str>| {
        text.and_then(|t| serde_json::from_str::<Value>(t).ok())
            .map(|v| (trust.records)(named, &v, &|h| !super::is_own_route(h)))
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
        .filter_map(|(old, new)| Some((new.clone(), (trust.recorded)(text, old)?)))
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

/// After hookx wrote `host`'s hook file `path` from `before` to `after`: the reviews of the
/// handlers it moved follow them.
pub fn follow(
    ctx: &Context,
    host: Dialect,
    path: &Path,
    before: Option<&str>,
    after: Option<&str>,
) -> Result<(), Error> {
    let Some(trust) = &host.def().route_trust else {
        return Ok(());
    };
    // Codex names a project's file by its real path, the user's below `$HOME` as set.
    let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let named = match path == ctx.home.join(host.config().install_user) {
        true => super::review_key_path(&ctx.home, host, &path),
        false => path.canonicalize().unwrap_or_else(|_| path.clone()),
    };
    let moved = moved(trust, &named, before, after);
    if moved.is_empty() {
        return Ok(());
    }
    let file = review_file(ctx, host, trust, &path);
    let shown = ctx.display(&file);
    crate::config::update::update(&file, |current| {
        let Some(text) = current else {
            return Ok(crate::config::update::Change::Keep);
        };
        let edited = carried(trust, text, &moved).map_err(|message| Error::Io {
            path: shown.clone(),
            message: format!("cannot move the reviews of the handlers hookx moved: {message}"),
        })?;
        Ok(crate::config::update::Change::Write(edited))
    })?;
    Ok(())
}
