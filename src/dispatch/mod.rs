//! The run-time half: from one host event to the host's answer.

pub mod run;
pub mod select;
