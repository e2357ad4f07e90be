//! One location per real file: a file reached from several locations (the project is the
//! home, a symlink) is read once, as what the trust record knows it as.

use super::listing::Found;
use crate::tables::Location;
use crate::trust::{Identity, TrustStore};
use std::collections::HashMap;

/// Which candidate holds each real file: the first (in
/// [`locations`](crate::context::locations) order) that the trust record knows it as, else the
/// first. So a project symlink to a trusted file cannot take it over, nor make it run as another
/// agent's file.
pub(super) struct Claims<'s> {
    store: &'s TrustStore,
    /// Keyed hashing of real paths as bytes: no copy of each path, and no path hashed
    /// component by component.
    hasher: std::collections::hash_map::RandomState,
    /// Real-path hash → the candidate holding that file.
    by_hash: HashMap<u64, usize>,
    /// Holders whose path hash collided with another file's: looked through one by one.
    collided: Vec<usize>,
    /// Per candidate, whether it holds its file.
    holds: Vec<bool>,
}

impl<'s> Claims<'s> {
    pub(super) fn new(store: &'s TrustStore, capacity: usize) -> Claims<'s> {
        Claims {
            store,
            hasher: Default::default(),
            by_hash: HashMap::with_capacity(capacity),
            collided: Vec::new(),
            holds: Vec::with_capacity(capacity),
        }
    }

    fn real(c: &Candidate) -> &[u8] {
        c.file
            .canonical
            .as_deref()
            .unwrap_or(&c.file.path)
            .as_os_str()
            .as_encoded_bytes()
    }

    fn trusted(&self, c: &Candidate) -> bool {
        c.file.canonical.as_deref().is_some_and(|canonical| {
            self.store.knows(Identity {
                canonical,
                location: c.location,
            })
        })
    }

    /// Lets `found[i]` claim its real file; the index it took the file from, if any.
    pub(super) fn claim(&mut self, found: &[Candidate], i: usize) -> Option<usize> {
        let c = &found[i];
        let real = Self::real(c);
        if self.holds.len() <= i {
            self.holds.resize(i + 1, false);
        }
        let hash = std::hash::BuildHasher::hash_one(&self.hasher, real);
        let held = match self.by_hash.get(&hash) {
            Some(&j) if Self::real(&found[j]) == real => Some(j),
            Some(_) => self
                .collided
                .iter()
                .copied()
                .find(|&j| Self::real(&found[j]) == real),
            None => None,
        };
        let Some(held) = held else {
            match self.by_hash.entry(hash) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(i);
                }
                std::collections::hash_map::Entry::Occupied(_) => self.collided.push(i),
            }
            self.holds[i] = true;
            return None;
        };
        let (mine, theirs) = (self.trusted(c), self.trusted(&found[held]));
        let wins = (mine && !theirs) || (mine == theirs && c.order < found[held].order);
        if !wins {
            return None;
        }
        match self.by_hash.get_mut(&hash) {
            Some(j) if *j == held => *j = i,
            _ => self
                .collided
                .iter_mut()
                .filter(|j| **j == held)
                .for_each(|j| *j = i),
        }
        self.holds[held] = false;
        self.holds[i] = true;
        Some(held)
    }

    /// Whether `found[i]` holds its real file.
    pub(super) fn holds(&self, i: usize) -> bool {
        self.holds.get(i).copied().unwrap_or(false)
    }
}

/// A file a location names, as discovery found it.
pub(super) struct Candidate {
    /// The location's place in [`locations`](crate::context::locations).
    pub(super) order: usize,
    pub(super) location: &'static Location,
    pub(super) file: Found,
    /// For a plugin's hook file: whether the agent loads the plugin.
    pub(super) plugin: Option<crate::plugins::Standings>,
    /// For a plugin its agent gives a data folder: that folder.
    pub(super) plugin_data: Option<std::path::PathBuf>,
}
