//! hookx: portable hooks for AI coding agents (Claude Code, GitHub Copilot CLI, Bricks).
//!
//! Config files are parsed by a dialect into the canonical model ([`model`]), converted, and
//! emitted by another dialect; at run time a host's event is decoded into a canonical
//! [`model::Event`], re-encoded for each handler in the dialect it was written for, and the
//! answers are merged back into the host's protocol.

pub mod cache;
pub mod claim;
pub mod cli;
pub mod commands;
pub mod config;
pub mod context;
pub mod convert;
pub mod diag;
pub mod dialect;
pub mod discover;
pub mod dispatch;
pub mod error;
pub mod hash;
pub mod heap;
pub mod model;
pub mod ownership;
pub mod pipeline;
pub mod plan;
pub mod plugins;
pub mod positions;
pub mod protocol;
pub mod read;
pub mod route;
pub mod shell;
pub mod source;
pub mod spawn;
pub mod tables;
pub mod trust;
pub mod warned;
