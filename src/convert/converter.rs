//! The converter's state: the options, the losses noted so far (and where in the source each
//! one is), and the counts and caches the steps share.

use super::{Loss, Options};
use crate::config::walk::HandlerAt;
use crate::model::EventKind;
use crate::source::SourceFile;
use crate::tables::{Flavor, HandlerField};

/// An event, the flavours from and to, and the tools a guard lets through without hookx.
pub(super) type ExecKey = (EventKind, Flavor, Flavor, Vec<&'static str>);

/// Converts rule by rule, noting on the way everything the target cannot carry.
pub(super) struct Converter<'a> {
    pub(super) options: &'a Options,
    pub(super) losses: Vec<Loss>,
    /// Handlers written through `hookx exec`.
    pub(super) wrapped: usize,
    /// Wrapped entries of a same-dialect conversion whose older not-installed guard became
    /// today's.
    pub(super) refreshed: usize,
    /// hookx routing entries left out.
    pub(super) routing: usize,
    /// The start of a wrapped command line (the [`not_installed_guard`](super::not_installed_guard) and `hookx exec` with
    /// its host, flavour and event) per event, pair of flavours and the tools its guard lets
    /// through, built once: it is the same for every handler of an event (building it was a
    /// sixth of a 10 000-rule conversion).
    pub(super) exec_lines: Vec<(ExecKey, String)>,
    /// An MCP tool's canonical name, which a wrapped group's matcher is tried on (made once,
    /// not per rule).
    pub(super) mcp_probe: String,
    /// A handler given back as it was first written, being converted into another dialect:
    /// its record keeps where it was first written.
    pub(super) carry: Option<Carry>,
    /// The place of the rule being converted among its document's rules.
    pub(super) position: usize,
}

impl<'a> Converter<'a> {
    /// A converter with nothing noted yet.
    pub(super) fn new(options: &'a Options) -> Converter<'a> {
        Converter {
            options,
            losses: Vec::new(),
            wrapped: 0,
            refreshed: 0,
            routing: 0,
            exec_lines: Vec::new(),
            mcp_probe: crate::tables::MCP_CANONICAL.join("server", "tool"),
            carry: None,
            position: 0,
        }
    }
}

impl Converter<'_> {
    /// Notes a loss; [`Converter::locate_losses`] finds where it is once the source is done.
    pub(super) fn lose(
        &mut self,
        src: &SourceFile,
        pointer: impl std::fmt::Display,
        what: &str,
        why: &str,
    ) {
        // A source read without its text (a hook script) is located at its start.
        let (line, col) = match src.text.is_empty() {
            true => (1, 1),
            false => (0, 0),
        };
        self.losses.push(Loss {
            what: what.to_string(),
            why: why.to_string(),
            file: src.path.clone(),
            pointer: pointer.to_string(),
            line,
            col,
        });
    }

    /// Finds the lines and columns of the losses from `first` on that name `src`, reading its
    /// text once for all of them.
    pub(super) fn locate_losses(&mut self, src: &SourceFile, first: usize) {
        let unlocated: Vec<usize> = (first..self.losses.len())
            .filter(|&i| self.losses[i].line == 0 && self.losses[i].file == src.path)
            .collect();
        if unlocated.is_empty() {
            return;
        }
        // A part an older form spells elsewhere (a one-rule file's matcher is its `tools`) is
        // at the nearest part of it the file holds.
        let mut found: Vec<(usize, usize)> = Vec::new();
        let mut left: Vec<(usize, &str)> = unlocated
            .iter()
            .map(|&i| (i, self.losses[i].pointer.as_str()))
            .collect();
        while !left.is_empty() {
            let pointers: Vec<&str> = left.iter().map(|&(_, p)| p).collect();
            let offsets = crate::config::syntax::locate_many(src, &pointers);
            let mut next = Vec::new();
            for ((i, pointer), offset) in left.into_iter().zip(offsets) {
                match (offset, pointer.rsplit_once('/')) {
                    (Some(offset), _) => found.push((i, offset)),
                    (None, Some((parent, _))) => next.push((i, parent)),
                    (None, None) => {}
                }
            }
            left = next;
        }
        let at: Vec<usize> = found.iter().map(|&(_, offset)| offset).collect();
        let line_cols = crate::positions::line_cols(&src.text, &at);
        for ((i, _), (line, col)) in found.into_iter().zip(line_cols) {
            (self.losses[i].line, self.losses[i].col) = (line, col);
        }
    }
}

/// The pointer of a handler field as the source dialect spells its key (the handler's own
/// pointer when the dialect has no key for it).
pub(super) fn field_pointer(handler_at: &HandlerAt, from: Flavor, field: HandlerField) -> String {
    match from.handler_key(field) {
        Some(key) => format!("{handler_at}/{key}"),
        None => handler_at.to_string(),
    }
}

/// Where a converted handler was first written: its rule (a JSON pointer, or a hook script's
/// file name), the rule's place among the file's rules, and in a group, the handler's place
/// there; `source` is the file its record names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) struct FirstWritten {
    pub(super) source: String,
    pub(super) rule: String,
    pub(super) order: Option<usize>,
    pub(super) index: Option<usize>,
}

/// A handler restored as it was first written, being converted into another dialect than its
/// own: where it was first written (carried into the new record) and where it is now (for
/// loss items).
pub(super) struct Carry {
    pub(super) first: Option<FirstWritten>,
    pub(super) at: String,
}
