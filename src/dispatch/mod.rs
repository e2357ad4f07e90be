//! The run-time parts of an event's path: the host side (decoding, answering), choosing the
//! handlers, running them, the failure policy, and simulate's events and reports.
//! [`crate::pipeline`] puts them in order.

pub mod after_route;
pub mod carry;
pub mod condition;
pub mod failure;
pub mod follow_ups;
pub mod gates;
pub mod host;
pub mod project;
pub mod run;
pub mod select;
pub mod simulate;
