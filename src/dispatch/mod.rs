//! The run-time half: from one host event to the host's answer.

pub mod condition;
pub mod failure;
pub mod host;
pub mod run;
pub mod select;
pub mod simulate;
