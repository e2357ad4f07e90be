//! What the sources add up to: the effective hook set ([`effective_rules`]), as it plays out
//! under a host ([`host_rules`]), and what `hookx run` runs itself ([`dispatch_rules`]), each
//! with identical handlers de-duplicated as their dialect does.

use super::hook_switch::{key_of, switched_keys};
use super::source::Source;
use super::switches::{allowed_under, hooks_disabled, switched_off};
use super::who_runs::{Runner, runner};
use crate::model::{Handler, HandlerKind};
use crate::route::is_hookx_handler;
use crate::tables::{Dialect, Rule};
use crate::trust::{TrustState, TrustStore};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;

/// One rule of the effective hook set, with the source it came from.
#[derive(Debug)]
pub struct EffectiveRule<'a> {
    pub source: &'a Source,
    /// The rule as written, its handlers de-duplicated as its dialect does and hookx's own
    /// routing entries removed; never empty. Borrowed from the source when nothing was removed.
    pub rule: Cow<'a, Rule>,
}

/// The effective hook set of all sources: every rule of every source that parsed, in
/// discovery order, with hookx's own routing entries left out (running them would recurse),
/// a dialect's hooks left out when its kill switch is on ([`hooks_disabled`]), and
/// identical handlers de-duplicated:
///
/// - Bricks (global + project merge additively): same event, matcher and command, once.
/// - Claude (all scopes): same event, matcher and command (or prompt), once. Claude also
///   de-duplicates identical commands under *different* matchers when both match one event;
///   that needs the event, so the dispatcher does it ([`crate::dispatch::select::select`]).
/// - Copilot runs every handler in order: nothing is de-duplicated.
///
/// The first occurrence wins, so user and global files come before project ones.
pub fn effective_rules<'a>(sources: &'a [Source], store: &TrustStore) -> Vec<EffectiveRule<'a>> {
    select(
        sources,
        store,
        None,
        &[Pass::output(Source::is_loaded_by_its_agent)],
    )
}

/// The effective hook set as it plays out under `host`: de-duplication first keeps what the
/// host runs natively, then what hookx would run, so a handler the host already runs is not
/// listed again as hookx's.
pub fn host_rules<'a>(
    sources: &'a [Source],
    host: Dialect,
    store: &TrustStore,
) -> Vec<EffectiveRule<'a>> {
    let allowed = allowed_under(sources, host);
    select(
        sources,
        store,
        Some(host),
        &[
            Pass::output(|s| allowed(s) && runner(host, s) == Runner::Native),
            Pass::output(|s| {
                allowed(s) && matches!(runner(host, s), Runner::Hookx | Runner::Inactive)
            }),
        ],
    )
}

/// What `hookx run --host HOST` runs itself: the handlers the host reads but leaves to hookx
/// by a setting of its own ([`super::is_switched_off`]) in trusted files, and the effective rules of
/// sources that the host does not run natively, are not component-scoped ([`Runner::Hookx`])
/// and are trusted with their current content. A handler identical to one the host runs natively is left out (it would
/// run twice); de-duplication happens after the trust filter, so a trusted copy of a handler is
/// never dropped in favour of an untrusted one.
pub fn dispatch_rules<'a>(
    sources: &'a [Source],
    host: Dialect,
    store: &TrustStore,
) -> Vec<EffectiveRule<'a>> {
    let allowed = allowed_under(sources, host);
    let keys = switched_keys(sources, host);
    // A handler the host reads itself but leaves to hookx by its own setting runs here, from
    // a trusted file, once per key: the host keys a copy in its own files written in the other
    // dialect's form (a team's Claude guard copied to `.github/hooks` in PascalCase) as the
    // same handler, and ran it once per copy only while it ran them itself. The other
    // dialect's files go first, so the copy that runs gets the payload it was written for;
    // an untrusted copy claims no key. The rest of the host's files only mark handlers as
    // already run.
    let ran: RefCell<HashSet<String>> = RefCell::default();
    let switched = |s: &Source, rule: &Rule, h: &Handler| {
        if keys.to_hookx.is_empty() {
            return false;
        }
        key_of(host, s, rule, h).is_some_and(|k| {
            keys.to_hookx.contains(k.as_str())
                && store.state(s) == TrustState::Trusted
                && ran.borrow_mut().insert(k)
        })
    };
    let native = |s: &Source| allowed(s) && runner(host, s) == Runner::Native;
    select(
        sources,
        store,
        None,
        &[
            Pass::only(|s| native(s) && s.dialect != host, &switched),
            Pass::only(native, &switched),
            Pass::output(|s| {
                allowed(s)
                    && runner(host, s) == Runner::Hookx
                    && store.state(s) == TrustState::Trusted
            }),
        ],
    )
}

/// One round of [`select`]: the sources it takes, and which of their handlers are part of the
/// result.
struct Pass<'f> {
    take: Box<dyn Fn(&Source) -> bool + 'f>,
    /// The handlers of the sources taken that are part of the result (all when `None`); the
    /// others only mark handlers as already run.
    only: Option<&'f HandlerFilter<'f>>,
}

type HandlerFilter<'f> = dyn Fn(&Source, &Rule, &Handler) -> bool + 'f;

impl<'f> Pass<'f> {
    fn output(take: impl Fn(&Source) -> bool + 'f) -> Pass<'f> {
        Pass {
            take: Box::new(take),
            only: None,
        }
    }

    fn only(take: impl Fn(&Source) -> bool + 'f, only: &'f HandlerFilter<'f>) -> Pass<'f> {
        Pass {
            take: Box::new(take),
            only: Some(only),
        }
    }
}

/// Runs the passes in order over the sources no earlier pass took, de-duplicating across all
/// of them; the result is in discovery order. `host`: the host the rules play out under, whose
/// own lists of handlers it does not run count trusted or not ([`disabled_labels`]).
fn select<'a>(
    sources: &'a [Source],
    store: &TrustStore,
    host: Option<Dialect>,
    passes: &[Pass<'_>],
) -> Vec<EffectiveRule<'a>> {
    let switches: Vec<&Source> = Dialect::all()
        .iter()
        .filter_map(|d| hooks_disabled(sources, *d, store))
        .collect();
    let disabled = disabled_labels(sources, store, host);
    // The host's own lists where its variables move its policy files (Gemini's system
    // settings and defaults): read by the host alone, so for its own handlers only (attacks
    // row 742: `list` and `doctor` said Gemini ran a handler it skipped).
    let moved = host
        .map(crate::route::moved_policy_labels)
        .unwrap_or_default();
    let mut taken = vec![false; sources.len()];
    // Keys borrow from the sources: de-duplicating allocates nothing per handler.
    let handlers = sources
        .iter()
        .filter_map(Source::document)
        .flat_map(|d| &d.rules)
        .map(|r| r.handlers.len())
        .sum();
    let mut seen: HashSet<(Dialect, &'a str, &'a str, HandlerKey<'a>)> =
        HashSet::with_capacity(handlers);
    let mut out: Vec<(usize, usize, EffectiveRule<'a>)> = Vec::new();
    for pass in passes {
        for (i, source) in sources.iter().enumerate() {
            let Some(doc) = source.document() else {
                continue;
            };
            if taken[i] || switches.iter().any(|switch| switched_off(switch, source)) {
                continue;
            }
            if !(pass.take)(source) {
                continue;
            }
            taken[i] = true;
            for (j, rule) in doc.rules.iter().enumerate() {
                if source.dialect.config().is_disabled(rule) {
                    // The agent never runs it (a rule list's `enabled: false`).
                    continue;
                }
                let keep: Vec<bool> = rule
                    .handlers
                    .iter()
                    .map(|h| {
                        if is_hookx_handler(h) {
                            return false;
                        }
                        if let Some(list) = &source.dialect.def().disabled_handlers
                            && list.label(h).is_some_and(|label| {
                                disabled.contains(&(source.dialect, label))
                                    || (host == Some(source.dialect)
                                        && moved.iter().any(|m| m == label))
                            })
                        {
                            return false;
                        }
                        let wanted = pass.only.is_none_or(|only| only(source, rule, h));
                        if !source.dialect.config().merges_identical_handlers {
                            return wanted;
                        }
                        // Seeded whether wanted or not: it runs either way.
                        let first = seen.insert((
                            source.dialect,
                            rule.event.name(),
                            matcher_key(rule.matcher.as_deref()),
                            HandlerKey::of(&h.kind),
                        ));
                        wanted && first
                    })
                    .collect();
                if keep.contains(&true) {
                    // Borrowed unless a handler was dropped; then only the kept ones are cloned.
                    let kept = if keep.iter().all(|k| *k) {
                        Cow::Borrowed(rule)
                    } else {
                        Cow::Owned(Rule {
                            handlers: rule
                                .handlers
                                .iter()
                                .zip(&keep)
                                .filter(|(_, keep)| **keep)
                                .map(|(h, _)| h.clone())
                                .collect(),
                            event: rule.event.clone(),
                            matcher: rule.matcher.clone(),
                            extra: rule.extra.clone(),
                            origin: rule.origin.clone(),
                            ..*rule
                        })
                    };
                    out.push((i, j, EffectiveRule { source, rule: kept }));
                }
            }
        }
    }
    out.sort_by_key(|(i, j, _)| (*i, *j));
    out.into_iter().map(|(_, _, rule)| rule).collect()
}

/// The handlers each dialect's disabled list names ([`crate::tables::DisabledHandlers`]), from
/// the trusted files of its locations: an untrusted file's list turns no handler hookx runs
/// off. Under `host`, its own lists count trusted or not, as the host follows every list it
/// loads, for the handlers of its own dialect, which it runs itself (attacks row 486's
/// leftover: `list` showed them run).
fn disabled_labels<'a>(
    sources: &'a [Source],
    store: &TrustStore,
    host: Option<Dialect>,
) -> HashSet<(Dialect, &'a str)> {
    sources
        .iter()
        .filter_map(|s| {
            let list = s.dialect.def().disabled_handlers.as_ref()?;
            let listed = list.locations.contains(&s.location.id)
                && (host == Some(s.dialect) || store.state(s) == TrustState::Trusted);
            Some((s, list, s.document().filter(|_| listed)?))
        })
        .flat_map(|(s, list, doc)| list.labels(&doc.extra).map(move |l| (s.dialect, l)))
        .collect()
}

/// Absent, empty and `*` all mean "everything" in Claude and Bricks.
fn matcher_key(matcher: Option<&str>) -> &str {
    match matcher {
        None | Some("") | Some("*") => "",
        Some(m) => m,
    }
}

/// What makes two handlers "identical": the command line, or the whole prompt spec.
#[derive(PartialEq, Eq, Hash)]
enum HandlerKey<'a> {
    Command(&'a str),
    Other(String),
}

impl<'a> HandlerKey<'a> {
    fn of(kind: &'a HandlerKind) -> HandlerKey<'a> {
        match kind {
            HandlerKind::Command(c) => HandlerKey::Command(c.unix_line().unwrap_or_default()),
            other => HandlerKey::Other(serde_json::to_string(other).unwrap_or_default()),
        }
    }
}
