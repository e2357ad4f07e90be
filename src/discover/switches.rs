//! What turns hooks off wholesale: a dialect's kill switch (Claude's `disableAllHooks`), and a
//! host's policy keys that leave only policy hooks running or none at all.

use super::source::Source;
use crate::tables::{Dialect, Scope};
use crate::trust::{TrustState, TrustStore};

/// The file whose kill switch (Claude's `disableAllHooks`) turns every hook of `dialect` off,
/// if any ([`crate::tables::KillSwitch`]).
///
/// Settings merge by precedence (Claude: managed > local > project > user), so the value comes
/// from the highest-precedence file that sets the key; when it is `true`, every source of the
/// dialect is off (settings, plugins, skills, agents), policy sources only where the switch is
/// the policy's own ([`switched_off`]). Like every other content, the key counts only in a file
/// `store` trusts as found (policy files are): an untrusted `.claude/settings.local.json` cannot
/// turn trusted hooks off.
pub fn hooks_disabled<'a>(
    sources: &'a [Source],
    dialect: Dialect,
    store: &TrustStore,
) -> Option<&'a Source> {
    kill_switch_source(sources, dialect, &|s| store.state(s) == TrustState::Trusted)
}

/// The file whose kill switch turns every hook of `dialect` off as the agent itself sees it:
/// every settings file counts, trusted by hookx or not.
pub fn hooks_disabled_by_agent(sources: &[Source], dialect: Dialect) -> Option<&Source> {
    kill_switch_source(sources, dialect, &|_| true)
}

fn kill_switch_source<'a>(
    sources: &'a [Source],
    dialect: Dialect,
    counts: &dyn Fn(&Source) -> bool,
) -> Option<&'a Source> {
    let switch = dialect
        .def()
        .kill_switch
        .as_ref()
        .filter(|k| !k.host_wide)?;
    let precedence = |s: &Source| switch.locations.iter().position(|id| *id == s.location.id);
    sources
        .iter()
        .filter_map(|s| {
            let precedence = precedence(s)?;
            let flag = switch.flag_in(s.document()?)?.ok()?;
            Some((precedence, flag == switch.off, s))
        })
        .filter(|(_, _, s)| counts(s))
        .max_by_key(|(p, _, _)| *p)
        .filter(|(_, flag, _)| *flag)
        .map(|(_, _, s)| s)
}

/// The file whose host-wide kill switch ([`crate::tables::KillSwitch::host_wide`], Copilot's
/// repo `disableAllHooks`) turns off every hook `host` runs but policy hooks, hookx's route
/// included, if any. As the agent sees it: every file counts that `host` reads, trusted by
/// hookx or not; `host_reads` says whether the host reads a file (its folder trust).
pub fn host_switched_off<'a>(
    sources: &'a [Source],
    host: Dialect,
    host_reads: &dyn Fn(&Source) -> bool,
) -> Option<&'a Source> {
    let switch = host.def().kill_switch.as_ref().filter(|k| k.host_wide)?;
    let precedence = |s: &Source| switch.locations.iter().position(|id| *id == s.location.id);
    sources
        .iter()
        .filter(|s| host_reads(s))
        .filter_map(|s| Some((precedence(s)?, switch.is_off(s.document()?), s)))
        .max_by_key(|(p, _, _)| *p)
        .filter(|(_, off, _)| *off)
        .map(|(_, _, s)| s)
}

/// The policy file that leaves only policy hooks running in `host`'s sessions (Claude's
/// `"allowManagedHooksOnly": true`), if any: the agent then runs no hook of another scope, and
/// neither does `hookx run --host HOST`. The policy files merge in discovery order
/// (`managed-settings.json`, then the `managed-settings.d` drop-ins by name): the last that sets
/// the key decides, a drop-in's `false` undoing an earlier `true` (run 2.1.332,
/// `tests/live_claude_managed.rs`). No other scope can set it.
pub fn managed_only(sources: &[Source], host: Dialect) -> Option<&Source> {
    let key = host.def().managed.as_ref()?.only_managed_key?;
    sources
        .iter()
        .filter(|s| s.scope == Scope::Managed && s.dialect == host)
        .filter_map(|s| Some((s, s.document()?.extra.get(key)?.as_bool()?)))
        .next_back()
        .filter(|(_, only)| *only)
        .map(|(s, _)| s)
}

/// Whether a kill switch set in `switch` turns `source`'s hooks off: a policy file's reaches
/// every hook of its dialect where the agent says so, any other file's leaves policy hooks on
/// unless the agent merges one flag over all files (Gemini).
pub fn switched_off(switch: &Source, source: &Source) -> bool {
    let reaches_policy = switch.dialect.def().managed.as_ref().is_some_and(|m| {
        if switch.scope == Scope::Managed {
            m.kill_switch_reaches_policy
        } else {
            m.any_kill_switch_reaches_policy
        }
    });
    source.dialect == switch.dialect && (source.scope != Scope::Managed || reaches_policy)
}

/// Why no hook at all runs in `host`'s sessions by its policy, if so: a policy file that is no
/// JSON object where that stops the agent ([`crate::tables::BrokenPolicy::StopsAgent`]),
/// or a policy key that turns every hook off ([`crate::tables::ManagedSpec::hooks_off`], the
/// last policy file setting it deciding). `hookx run --host HOST` then runs nothing either.
pub fn stopped_by_policy(sources: &[Source], host: Dialect) -> Option<PolicyStop<'_>> {
    let managed = host.def().managed.as_ref()?;
    let policy = sources
        .iter()
        .filter(|s| s.scope == Scope::Managed && s.dialect == host);
    if managed.broken_policy == crate::tables::BrokenPolicy::StopsAgent
        && let Some(broken) = policy.clone().find(|s| s.is_not_an_object())
    {
        return Some(PolicyStop {
            file: broken,
            why: format!(
                "{} is no JSON object, and {} does not start with such a policy file",
                broken.display,
                host.def().display
            ),
            fix: Some(format!("hookx validate '{}'", broken.path.display())),
        });
    }
    let (key, off) = managed.hooks_off?;
    let (file, _) = policy
        .filter_map(|s| Some((s, s.document()?.extra.get(key)?.as_bool()?)))
        .next_back()
        .filter(|(_, value)| *value == off)?;
    Some(PolicyStop {
        file,
        why: format!("\"{key}\": {off} in {} turns every hook off", file.display),
        fix: None,
    })
}

/// See [`stopped_by_policy`].
pub struct PolicyStop<'a> {
    /// The policy file.
    pub file: &'a Source,
    /// What it does, in a sentence part: `"ChatHooks": false in … turns every hook off`.
    pub why: String,
    pub fix: Option<String>,
}

impl PolicyStop<'_> {
    /// The whole of it under `host`, for `list` and `doctor`.
    pub fn sentence(&self, host: Dialect) -> String {
        format!(
            "{}: {} runs no hook, and neither does `hookx run --host {host}`",
            self.why,
            host.def().display
        )
    }
}

/// Whether `host`'s policy lets a source's hooks run in its sessions ([`managed_only`],
/// [`stopped_by_policy`]).
pub(super) fn allowed_under(sources: &[Source], host: Dialect) -> impl Fn(&Source) -> bool {
    let only_managed = managed_only(sources, host).is_some();
    let all_off = stopped_by_policy(sources, host).is_some();
    move |s: &Source| !all_off && (!only_managed || s.scope == Scope::Managed)
}
