//! Reading what the walk found, trust first: on the run path a file hookx would run itself is
//! parsed only when the trust record trusts it as found, with exactly the content hashed; an
//! untrusted one is withheld ([`withhold`]), at most read and hashed (one trusted with other
//! bytes also parsed, for [`Record::without_agent_keys`]). Large JSON files come from
//! the [`cache`] when unchanged.

use super::listing::Found;
use super::policy_file::{OthersCouldWrite, Owners};
use super::source::{Source, Twin};
use super::who_runs::{Runner, location_runner};
use super::worktree;
use crate::cache::{self, FileId};
use crate::config::{self, syntax};
use crate::context::Context;
use crate::error::Error;
use crate::hash::sha256_hex;
use crate::model::EventKind;
use crate::protocol::failed::may_fire;
use crate::source::SourceFile;
use crate::tables::{Dialect, Location, Scope, ScriptLayout};
use crate::trust::{Record, TrustState, TrustStore};
use std::path::Path;

/// The host, event and matching of a run; `None` to discover everything.
pub(super) type Run<'a> = Option<(Dialect, &'a EventKind, Option<config::read::Fires<'a>>)>;

/// Reads and parses one file (for `run`, only what that host and event need, and only once
/// trusted when hookx would run it). `None` for markdown without hooks.
pub(super) fn load(
    ctx: &Context,
    found: &Found,
    location: &'static Location,
    run: Run,
    store: &TrustStore,
) -> Option<Source> {
    let mut source = unread(ctx, found, location, run);
    // A policy file its agent would skip is no policy: not read at all.
    if let Some(why) = skipped_policy(location, &source.path) {
        source.document = Err(Error::Io {
            path: source.display.clone(),
            message: match why.rule {
                Owners::Root => format!(
                    "not read: {} skips it, as {why}",
                    location.dialect.def().display
                ),
                Owners::RootOrYou => format!(
                    "not read as policy: {why}, and a policy file needs no trust, so it must \
                     be one no other account could have written"
                ),
            },
        });
        source.refused_policy = Some(why);
        return Some(source);
    }
    // Trust first: on the run path, a file hookx would run itself is parsed only with the
    // content trusted for it as found.
    let gated = run.is_some_and(|(host, _, _)| location_runner(host, location) == Runner::Hookx)
        && location.scope != Scope::Managed;
    // A file with no record of its own may follow the same file's in another worktree of the
    // repository: read then as that record's bytes, and checked once parsed (`follow`).
    let mut twin = None;
    let record = if gated {
        match trusted_record(&source, store) {
            Ok(record) => Some(record),
            Err(state) => match (state == TrustState::Untrusted)
                .then(|| elsewhere(ctx, &source, store, None))
                .flatten()
            {
                Some((record, there)) => {
                    twin = Some(there);
                    Some(record)
                }
                None => return Some(withhold(source, state, None)),
            },
        }
    } else {
        None
    };
    let read = read_as(ctx, found, location, run, store, source, record, gated)?;
    Some(follow(ctx, store, read, twin, gated))
}

/// The record of `source` in another worktree of the project's repository
/// ([`worktree::trusted_elsewhere`]) with that worktree's real root; `sha256` when its bytes
/// were hashed already, else they are read and hashed here, only where such a record is.
fn elsewhere<'s>(
    ctx: &Context,
    source: &Source,
    store: &'s TrustStore,
    sha256: Option<&str>,
) -> Option<(&'s Record, std::path::PathBuf)> {
    let hash = || match sha256 {
        Some(sha) => Some(sha.to_string()),
        None => crate::read::bytes(&source.path, crate::read::MAX_FILE_BYTES)
            .ok()
            .map(|b| sha256_hex(&b)),
    };
    worktree::trusted_elsewhere(source, &hash, &ctx.project, store)
}

/// `source` read, checked against the file it follows in another worktree (`there`, its
/// root; found here for a command's discovery, where nothing was gated): the file read again
/// whole, still the bytes trusted there, and every file its commands name the same bytes in
/// both ([`worktree::named_file_differs`]). A file that fails is withheld on the run path, and
/// keeps its own standing elsewhere; either way the [`Twin`] says why.
fn follow(
    ctx: &Context,
    store: &TrustStore,
    mut source: Source,
    there: Option<std::path::PathBuf>,
    gated: bool,
) -> Source {
    // Withheld (its bytes changed while read) or unreadable: nothing of it runs anyway.
    if source.withheld.is_some() || source.document.is_err() {
        return source;
    }
    let there = match there {
        Some(there) => there,
        None if gated => return source,
        // Only a file with no record at all: one trusted here with other bytes is changed.
        None if store.state(&source) != TrustState::Untrusted => return source,
        None => match elsewhere(ctx, &source, store, source.sha256.as_deref()) {
            Some((_, there)) => there,
            None => return source,
        },
    };
    let (Ok(here), Some(canonical)) = (
        std::fs::canonicalize(&ctx.project),
        source.canonical.clone(),
    ) else {
        return source;
    };
    let Some(path) = canonical
        .strip_prefix(&here)
        .ok()
        .map(|rel| there.join(rel))
    else {
        return source;
    };
    let src = SourceFile::read(&source.path).ok();
    if src.as_ref().map(|s| sha256_hex(s.text.as_bytes())) != source.sha256 {
        let sha = source.sha256.take();
        return withhold(source, TrustState::Changed, sha);
    }
    let differs = match source.location.dialect.config().scripts {
        // The script is the file: its bytes are all it runs of the checkout's.
        Some(_) => None,
        None => src
            .and_then(|src| config::read(&src, source.location.dialect).ok())
            .and_then(|parsed| worktree::named_file_differs(&parsed.document, &here, &there)),
    };
    let refused = differs.is_some();
    source.twin = Some(Twin { path, differs });
    if refused && gated {
        let (twin, sha) = (source.twin.take(), source.sha256.take());
        source = withhold(source, TrustState::Untrusted, sha);
        source.twin = twin;
    }
    source
}

/// [`load`] once trust is settled: `record` the one the bytes must match where `gated`.
#[allow(clippy::too_many_arguments)]
fn read_as(
    ctx: &Context,
    found: &Found,
    location: &'static Location,
    run: Run,
    store: &TrustStore,
    mut source: Source,
    record: Option<&Record>,
    gated: bool,
) -> Option<Source> {
    let markdown = source.display.ends_with(".md");
    let accept = |sha: &str| record.is_none_or(|r| r.trusts_hash(sha));
    // Bytes other than the trusted ones, where the record keeps what hookx reads of them:
    // the same read of those bytes, the agent's own keys left out (its hash, when it is the
    // trusted one). Worked out only then, so an unchanged file costs nothing more.
    let same_read = |src: &SourceFile| {
        let record = record?;
        config::read::sha256_without_agent_keys(src, location.dialect)
            .filter(|got| record.trusts_read(got))
    };
    let same_read_if: SameRead = record
        .is_some_and(Record::keeps_reads)
        .then_some(&same_read);
    if let Some(layout) = location.dialect.config().scripts {
        return Some(read_script(
            source,
            layout,
            run,
            gated,
            &accept,
            &ctx.project,
        ));
    }
    if let Some(plugin) = location.dialect.config().generated {
        return Some(read_generated(source, plugin));
    }
    // A host that drops such a file whole for one entry must see all of it, not one event's.
    let only = run.map(|(host, _, _)| host);
    let drops = super::dropped::any_drops(location, only);
    let mut dropped = Vec::new();
    let parsed = match run {
        // Frontmatter is read whole: whether it has hooks decides whether it is a source.
        Some((_, event, fires)) if !markdown => {
            match read_for_event(
                store.caches().then_some(ctx.home.as_path()),
                (&source.path, &found.meta),
                source.display.clone(),
                location.dialect,
                (event, fires),
                (&accept, same_read_if),
            ) {
                EventRead::Parsed(sha256, without_agent_keys, parsed) => {
                    if drops && let Ok(src) = SourceFile::read(&source.path) {
                        dropped = super::dropped::scan_all(location, only, &src);
                    }
                    source.sha256 = sha256;
                    source.without_agent_keys = without_agent_keys;
                    *parsed
                }
                EventRead::Refused(sha256) => {
                    return Some(withhold(source, TrustState::Changed, Some(sha256)));
                }
            }
        }
        _ => {
            let src = match SourceFile::read(&source.path) {
                Ok(src) => SourceFile::new(source.display.clone(), src.text),
                // Trusted once, unreadable now: nothing of it runs.
                Err(_) if gated => return Some(withhold(source, TrustState::Changed, None)),
                Err(e) => {
                    source.document = Err(e);
                    return Some(source);
                }
            };
            let sha256 = sha256_hex(src.text.as_bytes());
            source.without_agent_keys = match accept(&sha256) {
                true if run.is_none() => {
                    config::read::sha256_without_agent_keys(&src, location.dialect)
                }
                true => None,
                false => match same_read(&src) {
                    Some(same) => Some(same),
                    None => return Some(withhold(source, TrustState::Changed, Some(sha256))),
                },
            };
            if markdown && syntax::split_frontmatter(&src.text).is_none() {
                return None;
            }
            source.sha256 = Some(sha256);
            if drops {
                dropped = super::dropped::scan_all(location, only, &src);
            }
            config::read(&src, location.dialect)
        }
    };
    source.dropped = dropped;
    if parsed.is_err()
        && super::hook_switch::holds_a_switch(location)
        && let Ok(bytes) = crate::read::bytes(&source.path, crate::source::MAX_FILE_BYTES)
    {
        source.unparsed_keys = super::hook_switch::keys_in_unparsed(&bytes);
    }
    with_parsed(source, parsed, markdown, run)
}

/// The source of `found` at `location`, before anything of it is read.
fn unread(ctx: &Context, found: &Found, location: &'static Location, run: Run) -> Source {
    let path = found.path.clone();
    let canonical = found.canonical.clone();
    let display = ctx.display_found(location, &path);
    Source {
        path,
        canonical,
        display,
        location,
        dialect: location.dialect,
        scope: location.scope,
        sha256: None,
        without_agent_keys: None,
        file_id: run.and_then(|_| FileId::of(&found.meta)),
        withheld: None,
        plugin: None,
        plugin_data: None,
        refused_policy: None,
        document: Err(Error::Usage(String::new())),
        diagnostics: Vec::new(),
        dropped: Vec::new(),
        unparsed_keys: Vec::new(),
        twin: None,
    }
}

/// Why the policy file at `path` is not read as policy: its agent skips policy files others
/// could have written and this is one, or (an agent with no such rule) another account than
/// root and the user's could have written it.
fn skipped_policy(location: &Location, path: &Path) -> Option<OthersCouldWrite> {
    if location.scope != Scope::Managed {
        return None;
    }
    let root_owned_only = location
        .dialect
        .def()
        .managed
        .as_ref()
        .is_some_and(|m| m.root_owned_only);
    let rule = match root_owned_only {
        true => Owners::Root,
        false => Owners::RootOrYou,
    };
    OthersCouldWrite::find(path, rule)
}

/// The record `store` trusts `source` by as found, or (`Err`) its standing when there is none
/// to compare with.
fn trusted_record<'s>(source: &Source, store: &'s TrustStore) -> Result<&'s Record, TrustState> {
    let Some(id) = source.identity() else {
        return Err(TrustState::Untrusted);
    };
    store.get(id).ok_or_else(|| store.state_of(id, None))
}

/// The plugin hookx generated for an agent whose hooks are code: its rules read back from its
/// data ([`crate::route::converted_document`]), never run by hookx. A file hookx did not write
/// (or with no handler) holds no rule hookx can know.
fn read_generated(mut source: Source, plugin: &crate::tables::GeneratedPlugin) -> Source {
    let text = match crate::read::text(&source.path, crate::read::MAX_FILE_BYTES) {
        Ok(text) => text,
        Err(e) => {
            source.document = Err(Error::Io {
                path: source.display.clone(),
                message: e.to_string(),
            });
            return source;
        }
    };
    // No hash: nothing in it is ever trusted (the agent runs it; hookx runs none of it).
    let display = source.display.clone();
    source.document = Ok(
        crate::route::converted_document(plugin, source.dialect, &text, &display).unwrap_or_else(
            || crate::tables::Document::new(source.dialect, source.dialect.config().documents.file),
        ),
    );
    source
}

/// A hook script: its bytes are what trust hashes, its name the event. `project`: the run's,
/// whose folders the program a script runs with is not taken from.
fn read_script(
    mut source: Source,
    layout: &ScriptLayout,
    run: Run,
    gated: bool,
    accept: &dyn Fn(&str) -> bool,
    project: &Path,
) -> Source {
    let bytes = match crate::read::bytes(&source.path, crate::read::MAX_FILE_BYTES) {
        Ok(bytes) => bytes,
        Err(_) if gated => return withhold(source, TrustState::Changed, None),
        Err(e) => {
            source.document = Err(Error::Io {
                path: source.display.clone(),
                message: e.to_string(),
            });
            return source;
        }
    };
    let sha256 = sha256_hex(&bytes);
    if !accept(&sha256) {
        return withhold(source, TrustState::Changed, Some(sha256));
    }
    source.sha256 = Some(sha256);
    let text = String::from_utf8_lossy(&bytes);
    let mut parsed = config::scripts::read(
        &source.path,
        &source.display,
        &text,
        source.location.dialect,
        layout,
        None,
    );
    if run.is_some() {
        let dialect = source.location.dialect;
        keep_event_rules(&mut parsed, run, dialect);
        // hookx runs it: from a private copy of the bytes just hashed, not by its path.
        // (A route of hookx's own is never run: it runs no script. One that only wears the
        // route's mark, its body not a route's one line, is run as a script like any other;
        // one the user edited, ending in the route's line, without that line: row 365.)
        let route = config::scripts::route_line(&text).is_some();
        if gated && !parsed.document.rules.is_empty() && !route {
            let users = config::scripts::without_route_line(&text).filter(|_| {
                config::scripts::routed_line(&text).is_some_and(crate::route::is_hookx_entry)
            });
            let bytes = users.as_ref().map_or(&bytes[..], |t| t.as_bytes());
            let Ok(copy) = super::copies::make(&source.path, bytes) else {
                return withhold(source, TrustState::Changed, None);
            };
            parsed = config::scripts::read(
                &copy,
                &source.display,
                &text,
                source.location.dialect,
                layout,
                Some(project),
            );
            keep_event_rules(&mut parsed, run, dialect);
        }
    }
    source.diagnostics = parsed.diagnostics;
    source.document = Ok(parsed.document);
    source
}

/// On the run path, keeps only the rules of a file of `dialect` the run's event may fire
/// ([`event_rule`]).
fn keep_event_rules(parsed: &mut config::Parsed, run: Run, dialect: Dialect) {
    if let Some((host, event, _)) = run {
        parsed
            .document
            .rules
            .retain(|r| event_rule(host, dialect, event, r));
    }
}

/// Whether `hookx run`'s reading of a file of `dialect` for the host's `event` keeps `rule`:
/// another agent's rule that the event may fire ([`may_fire`]: the other post event's too);
/// in the host's own files, the event's own rules only, as the host fires them: its copy of
/// another agent's rule on its PostToolUse does not run on its PostToolUseFailure, and must
/// not stand for that rule there (attacks row 1613).
fn event_rule(
    host: Dialect,
    dialect: Dialect,
    event: &EventKind,
    rule: &crate::tables::Rule,
) -> bool {
    match dialect == host {
        true => rule.event == *event,
        false => may_fire(event, &rule.event),
    }
}

/// `source` with what parsing it gave (for `run`, only the event's rules); `None` for markdown
/// without hooks, and for a config of the agent's own that holds none (a Kiro agent config).
fn with_parsed(
    mut source: Source,
    parsed: Result<config::Parsed, Error>,
    markdown: bool,
    run: Run,
) -> Option<Source> {
    match parsed {
        Ok(mut parsed) => {
            let doc = &parsed.document;
            let hookless = match markdown {
                true => doc.rules.is_empty() && doc.extra_hooks.is_empty(),
                false => source.dialect.config().holds_no_hooks(doc),
            };
            if hookless && parsed.diagnostics.is_empty() {
                return None;
            }
            keep_event_rules(&mut parsed, run, source.location.dialect);
            source.diagnostics = parsed.diagnostics;
            source.document = Ok(parsed.document);
        }
        Err(e) => source.document = Err(e),
    }
    Some(source)
}

/// A source left unparsed because it is not trusted as found.
fn withhold(mut source: Source, state: TrustState, sha256: Option<String>) -> Source {
    source.document = Err(Error::Io {
        path: source.display.clone(),
        message: ["not read: ", state.why_not()].concat(),
    });
    source.sha256 = sha256;
    source.withheld = Some(state);
    source
}

/// Where the record keeps what hookx reads of the trusted content: whether a text whose bytes
/// are not the trusted ones still reads the same (then its hash without the agent's keys).
type SameRead<'a> = Option<&'a dyn Fn(&SourceFile) -> Option<String>>;

/// What reading one event of a file gave.
enum EventRead {
    /// The file's SHA-256 (when it was read), [`Source::without_agent_keys`] (when the bytes
    /// were accepted by it) and the event's part of it.
    Parsed(
        Option<String>,
        Option<String>,
        Box<Result<config::Parsed, Error>>,
    ),
    /// Not parsed: `accept` refused this SHA-256.
    Refused(String),
}

/// One event of a JSON config file, and the file's SHA-256: from the [`cache`] when the file
/// is large and unchanged, else parsed (and then cached, if large). `accept` is asked about
/// the SHA-256 before anything else is done with the content; where it refuses it, `same_read`
/// may still accept the text read (then its hash without the agent's keys).
fn read_for_event(
    cache_home: Option<&Path>,
    (path, meta): (&Path, &std::fs::Metadata),
    display: String,
    dialect: Dialect,
    (event, fires): (&EventKind, Option<config::read::Fires>),
    (accept, same_read): (&dyn Fn(&str) -> bool, SameRead),
) -> EventRead {
    use config::read::{leave_out_unfired, prune_event, read_pruned};
    let before = Some(meta).filter(|m| cache_home.is_some() && cache::worth_caching(m));
    if let Some(meta) = before
        && let Some(home) = cache_home
        && let Some(hit) =
            cache::lookup(home, path, meta, (dialect, event, &display), fires, accept)
    {
        return match hit {
            // Entries are stored only for files that read without diagnostics, which are
            // the only use of the text: none is needed.
            Ok(hit) => {
                let src = SourceFile::new(display, String::new());
                EventRead::Parsed(
                    Some(hit.sha256),
                    None,
                    Box::new(Ok(read_pruned(&src, dialect, hit.pruned))),
                )
            }
            // Other bytes, which may still read the same: read them.
            Err(_) if same_read.is_some() => read_for_event(
                None,
                (path, meta),
                display,
                dialect,
                (event, fires),
                (accept, same_read),
            ),
            Err(sha256) => EventRead::Refused(sha256),
        };
    }
    let src = match SourceFile::read(path) {
        Ok(src) => SourceFile::new(display, src.text),
        Err(e) => return EventRead::Parsed(None, None, Box::new(Err(e))),
    };
    let sha256 = sha256_hex(src.text.as_bytes());
    let mut without_agent_keys = None;
    if !accept(&sha256) {
        without_agent_keys = same_read.and_then(|same| same(&src));
        if without_agent_keys.is_none() {
            return EventRead::Refused(sha256);
        }
    }
    let mut pruned = match prune_event(&src, dialect, event) {
        Ok(pruned) => pruned,
        Err(e) => return EventRead::Parsed(Some(sha256), without_agent_keys, Box::new(Err(e))),
    };
    // The cache keeps every rule of the event: the next event may fire others.
    let kept = before.map(|_| pruned.clone());
    if let Some(fires) = fires {
        leave_out_unfired(&mut pruned, dialect, &src.path, fires);
    }
    let parsed = read_pruned(&src, dialect, pruned);
    if let (Some(before), Some(kept), Some(home)) = (before, kept, cache_home)
        && parsed.diagnostics.is_empty()
    {
        cache::store(home, path, dialect, event, before, &sha256, kept);
    }
    EventRead::Parsed(Some(sha256), without_agent_keys, Box::new(Ok(parsed)))
}
