//! Whether a policy file counts as policy: an agent that skips a policy file others could have
//! written ([`crate::tables::ManagedSpec::root_owned_only`]) is followed, and hookx does not
//! read it either; any other agent's policy file counts only when no account but root and the
//! user's own could have written it ([`Owners::RootOrYou`]): a policy file needs no `hookx
//! trust`, so it must be one only an administrator (or the user) wrote.

pub use crate::ownership::{OthersCouldWrite, Owners};
