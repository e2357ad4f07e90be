//! Finding every hook source of a project and its user, for every agent, and the effective hook
//! set they add up to.
//!
//! Where each agent keeps its files ([`locations`]) and which host agent reads which of them by
//! itself (`DialectDef::native`) are data in the dialect files: a new agent is rows, not code.
//!
//! The walk (`walk.rs`) lists the files each location names (`listing.rs`) and gives each real
//! file to one location (`claims.rs`); each is then read, trust first on the run path
//! (`read.rs`), into a [`Source`] (`source.rs`). Who runs a source under a host is answered in
//! `who_runs.rs`; what the sources add up to in `rules.rs`, with the kill switches and policy
//! keys of `switches.rs` and the single handlers a host leaves to hookx (`hook_switch.rs`). A
//! policy file others could write is not read (`policy_file.rs`).
//!
//! ```no_run
//! use hookx::discover::{self, Context};
//! use hookx::tables::Dialect;
//! use hookx::trust::TrustStore;
//!
//! let ctx = Context::resolve(None, None).unwrap();
//! let store = TrustStore::load_or_empty(&ctx);
//! let sources = discover::discover_trusting(&ctx, &store);
//! // What `hookx run --host bricks` runs itself: not run by Bricks natively, and trusted.
//! for entry in discover::dispatch_rules(&sources, Dialect::named("bricks").unwrap(), &store) {
//!     println!("{} from {}", entry.rule.event, entry.source.path.display());
//! }
//! ```

mod claims;
mod copies;
mod dropped;
mod hook_switch;
mod listing;
mod policy_file;
mod read;
mod rules;
mod source;
mod switches;
mod unreadable;
mod walk;
mod who_runs;
mod worktree;

pub use crate::context::{Context, MANAGED_ROOT_VAR, location, locations};
pub use copies::leave as leave_private_copies;
pub use copies::remove as remove_private_copies;
pub use hook_switch::{
    Installs, SwitchedKeys, UNREAD_OWNER, host_skips, is_switched_off, key_of, leaves_any,
    left_to_the_host_since_install, switched_by_installs, switched_keys,
};
pub use policy_file::{OthersCouldWrite, Owners};
pub use rules::{EffectiveRule, dispatch_rules, effective_rules, host_rules};
pub use source::{Dropped, Source, Twin};
pub use switches::{
    PolicyStop, hooks_disabled, hooks_disabled_by_agent, host_switched_off, managed_only,
    stopped_by_policy, switched_off,
};
pub use unreadable::unreadable_places;
pub use walk::{
    discover, discover_firing, discover_for_event, discover_trusting, find, generated_sources,
    has_copies, own_files_hold,
};
pub use who_runs::{
    Runner, folder_record, folder_trusted, host_state_files, is_native, location_runner,
    moved_from_hookx, needed_for_run, needs_trust, read_for_copies, runner,
};
pub use worktree::{loaded_instead, main_checkout};
