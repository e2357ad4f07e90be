//! The ground floor every dialect is written in: the types of its tables and the
//! [`Dialect`]/[`Flavor`] handles on them. These import only `crate::model`; the data itself
//! is in `crate::dialect`, and the code that reads it is above both.
//!
//! - [`def`]: [`DialectDef`], one agent as a whole (files, detection, host, install, trust);
//! - [`flavor`]: [`Tables`], one flavour's names (events, tools, matchers, casing);
//! - [`protocol`]: [`ProtocolTables`], its payloads and answers;
//! - [`config`]: [`ConfigSpec`], the shape of its config files;
//! - [`location`]: where its files are;
//! - [`hook_set`]: documents and rules read from those files, each tagged with its flavour;
//! - [`handle`]: the handles.

pub mod config;
pub mod def;
pub mod flavor;
pub mod handle;
pub mod hook_set;
pub mod location;
pub mod protocol;

pub use config::*;
pub use def::*;
pub use flavor::*;
pub use handle::{Dialect, Flavor};
pub use hook_set::*;
pub use location::*;
pub use protocol::*;
