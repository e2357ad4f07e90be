//! Hooks a host runs after hookx's route where it decides a tool call by one hook's place:
//! what doctor says of each, and `install` of the route it wrote (its own file, so that
//! install does not reach into doctor's).

use super::report::{Finding, Level};
use crate::discover::Source;
use crate::source::SourceFile;
use crate::tables::{Dialect, Scope};

/// The hooks `host` runs after hookx's route on a tool call's event, where it decides the
/// call by one hook's place ([`crate::dispatch::after_route`]): a warning each, located (file,
/// event, place, line), with what to do. `install` moves its route last in the file it edits,
/// but a hook added after it since, one in a group beside it, or one in a file the host runs
/// later (the user's after a project's route, the system's after the user's) is after it
/// (attacks rows 2131-2133: the deny was lost, live, to such a hook).
pub(super) fn hooks_after_the_route(sources: &[Source], host: Dialect) -> Vec<Finding> {
    crate::dispatch::after_route::hooks_after_routes(host, sources)
        .iter()
        .filter_map(|after| after_the_route(after, host))
        .collect()
}

/// What doctor says of one hook that runs after hookx's route ([`hooks_after_the_route`]);
/// `install` says it too, of the route it wrote. `None` where the host folds by no place.
pub(crate) fn after_the_route(
    after: &crate::dispatch::after_route::After,
    host: Dialect,
) -> Option<Finding> {
    use crate::tables::PermissionFold;
    let display = host.def().display;
    let fold = host.default_flavor().tables().protocol.permission_fold;
    let (which, loses) = match fold {
        PermissionFold::Strictest => return None,
        PermissionFold::LastField => (
            "last",
            "an allow from that hook undoes hookx's deny of the call",
        ),
        PermissionFold::FirstField => (
            "first",
            "hookx's allow of the call hides a deny from that hook by the permission field",
        ),
    };
    let line = |place: &crate::dispatch::after_route::Place| {
        let src = SourceFile::read(&place.path).ok()?;
        let offset = crate::config::syntax::locate(&src, &place.pointer)?;
        Some(src.line_col(offset).0)
    };
    let (route, hook) = (&after.route, &after.hook);
    let at = |p: &crate::dispatch::after_route::Place| {
        let line = line(p).map(|l| format!(", line {l}")).unwrap_or_default();
        format!("{} {}[{}]{line}", p.file, p.event, p.index)
    };
    let matcher = match after.matcher.as_deref() {
        Some(m) if !m.is_empty() => format!(" (matcher `{m}`)"),
        _ => String::new(),
    };
    let (whose, fix) = if after.beside_route {
        (
            format!(
                "a hook in the same entry as hookx's route, after it, at {}",
                at(hook)
            ),
            format!(
                "move that hook out of the route's entry into one of its own before \
                         it in {}, then run `hookx install --host {host}{}`",
                hook.file,
                scope_flag(route.scope)
            ),
        )
    } else if hook.file == route.file {
        (
            format!(
                "the hook at {}{matcher} comes after hookx's route at {}",
                at(hook),
                at(route)
            ),
            format!(
                "hookx install --host {host}{} (it moves the route last)",
                scope_flag(route.scope)
            ),
        )
    } else {
        let runs_after = format!(
            "the hook at {}{matcher} runs after hookx's route at {} ({display} runs the \
                     hooks of {} after those of {})",
            at(hook),
            at(route),
            hook.file,
            route.file
        );
        // An extension's hook (Qwen's, attacks rows 2410-2413): its own folder's, run after
        // every settings file; nothing moves it, but the agent's switch turns it off here.
        let switch = (host.config().extension_switch).filter(|_| hook.scope == Scope::Plugin);
        let fix = match switch {
            Some(switch) => format!(
                "remove that hook from the extension, or turn the extension off for this \
                 folder (`{}`) if its hooks are not to decide the call; no install moves a \
                 hook out of an extension",
                switch.disable
            ),
            None => format!(
                "move that hook into {} before hookx's route, or remove it; install \
                         orders hooks only within the file it edits",
                route.file
            ),
        };
        (runs_after, fix)
    };
    Some(Finding::new(
        Level::Warning,
        format!(
            "{whose}: {display} takes the {which} hook's permission decision on a tool \
                     call, so {loses}"
        ),
        Some(fix),
    ))
}

/// The `--scope` flag that names `scope`'s route file to install (the project's is its
/// default).
fn scope_flag(scope: Scope) -> &'static str {
    match scope {
        Scope::User => " --scope user",
        _ => "",
    }
}
