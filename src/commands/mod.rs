//! The subcommands: one module each, on top of the engine. `crate::cli` parses the command
//! line and calls these.

/// Writes to stdout / stderr, ignoring a closed pipe (`hookx list | head`) instead of panicking
/// as `print!` does; stderr goes through `anstream` (colours only on a terminal, never under
/// `NO_COLOR`). The CLI and every command print through these.
macro_rules! out {
    ($($arg:tt)*) => { $crate::commands::write_to(&mut std::io::stdout(), format_args!($($arg)*)) };
}
macro_rules! outln {
    ($($arg:tt)*) => { $crate::commands::out!("{}\n", format_args!($($arg)*)) };
}
macro_rules! err {
    ($($arg:tt)*) => { $crate::commands::write_to(&mut anstream::stderr(), format_args!($($arg)*)) };
}
macro_rules! errln {
    ($($arg:tt)*) => { $crate::commands::err!("{}\n", format_args!($($arg)*)) };
}
pub(crate) use {err, errln, out, outln};

pub fn write_to(stream: &mut impl std::io::Write, args: std::fmt::Arguments) {
    let _ = stream.write_fmt(args);
}

pub mod convert;
pub mod doctor;
pub mod input;
pub mod install;
pub mod list;
pub mod schema;
pub mod sync;
pub mod trust;
pub mod unread_block;
pub mod validate;
