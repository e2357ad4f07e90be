//! Where a host folds its hooks' permission decisions on a tool call by their place
//! ([`crate::tables::ProtocolTables::permission_fold`]: the last hook's field, Qwen; the
//! first's, Droid), the files it runs itself in the order it runs their hooks, and the hooks
//! that run after hookx's first route on such an event: in the route's own list after it, and
//! in every file the host runs later (attacks rows 2131-2133: under Qwen an allow there
//! undoes hookx's deny, under Droid hookx's allow hides a deny there by the field).
//!
//! Read by `simulate` (the order), `doctor` and `install` (the hooks after the route).

use crate::discover::{Runner, Source};
use crate::model::EventKind;
use crate::tables::{Dialect, PermissionFold, Rule};

/// `sources` in the order `host` runs their hooks where it folds by place (its `native`
/// list: attacks rows 2051, 2120, 2121); elsewhere as they are, the order not being read.
pub fn in_fold_order(host: Dialect, sources: &[Source]) -> Vec<&Source> {
    let mut ordered: Vec<&Source> = sources.iter().collect();
    if folds_by_place(host) {
        let native = host.def().native;
        ordered.sort_by_key(|s| {
            (native.iter())
                .position(|id| *id == s.location.id)
                .unwrap_or(usize::MAX)
        });
    }
    ordered
}

/// Whether `host` decides a tool call by one hook's place among its own.
pub fn folds_by_place(host: Dialect) -> bool {
    host.default_flavor().tables().protocol.permission_fold != PermissionFold::Strictest
}

/// One place of an event list: a file and the entry's place in its list (from 0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    pub file: String,
    pub scope: crate::tables::Scope,
    /// The event as the file writes it.
    pub event: String,
    pub index: usize,
    /// The JSON pointer of the entry, for its line.
    pub pointer: String,
    pub path: std::path::PathBuf,
}

/// A hook that runs after hookx's route on a tool call's event.
#[derive(Clone, Debug)]
pub struct After {
    /// hookx's route it runs after.
    pub route: Place,
    /// The entry holding the hook.
    pub hook: Place,
    pub matcher: Option<String>,
    /// Whether the hook shares the route's group (a group install does not move).
    pub beside_route: bool,
}

/// The hooks `host` runs after hookx's first route on each event that decides a tool call
/// (`PreToolUse`, where the fold was probed), where it folds by place; empty elsewhere. A
/// hook the host does not run (`enabled: false`) is left out.
pub fn hooks_after_routes(host: Dialect, sources: &[Source]) -> Vec<After> {
    if !folds_by_place(host) {
        return Vec::new();
    }
    let ordered = in_fold_order(host, sources);
    let mut found = Vec::new();
    for (kind, _, _) in host.own_events() {
        if kind != EventKind::PreToolUse {
            continue;
        }
        let mut route: Option<Place> = None;
        for source in &ordered {
            if crate::discover::runner(host, source) != Runner::Native {
                continue;
            }
            let Some(doc) = source.document() else {
                continue;
            };
            for rule in doc.rules.iter().filter(|r| r.event == kind) {
                if source.dialect.config().is_disabled(rule) {
                    continue;
                }
                let place = place_of(source, rule);
                let routes = rule
                    .handlers
                    .iter()
                    .position(crate::route::is_hookx_handler);
                match (&route, routes) {
                    (None, Some(at)) => {
                        // Hooks of the user's after the route in its own group run after it.
                        if rule.handlers.len() > at + 1 {
                            found.push(After {
                                route: place.clone(),
                                hook: place.clone(),
                                matcher: rule.matcher.clone(),
                                beside_route: true,
                            });
                        }
                        route = Some(place);
                    }
                    (Some(first), _) => {
                        if rule.handlers.iter().all(crate::route::is_hookx_handler) {
                            continue;
                        }
                        found.push(After {
                            route: first.clone(),
                            hook: place,
                            matcher: rule.matcher.clone(),
                            beside_route: routes.is_some(),
                        });
                    }
                    (None, None) => {}
                }
            }
        }
    }
    found
}

/// Where `rule` of `source` sits: its file, event and place in the event's list.
fn place_of(source: &Source, rule: &Rule) -> Place {
    let pointer = &rule.origin.pointer;
    let mut segments = pointer.rsplit('/');
    let index = segments
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or_default();
    let event = segments
        .next()
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .unwrap_or_default();
    Place {
        file: source.display.clone(),
        scope: source.scope,
        event,
        index,
        pointer: pointer.clone(),
        path: source.path.clone(),
    }
}
