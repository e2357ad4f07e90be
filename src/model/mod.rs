//! The canonical model: everything between a dialect's parser and its emitter, and between a
//! host's payload and a handler's answer.

pub mod bounded;
pub mod event;
pub mod event_kind;
pub mod handler;
pub mod matcher;
pub mod outcome;
pub mod punycode;
pub mod tool;

pub use event::{Event, ToolCall, ToolResult};
pub use event_kind::EventKind;
pub use handler::{Command, Handler, HandlerKind, PromptSpec, ServiceSpec};
pub use matcher::{CompiledMatcher, MatcherForm, MatcherStyle};
pub use outcome::{Decision, Outcome};
