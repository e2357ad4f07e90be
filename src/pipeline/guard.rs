//! What a host gets when `run` or `exec` cannot do their job: an error or a panic is answered
//! by the failure policy ([`crate::dispatch::failure`]), and a hookx running inside itself
//! answers nothing. A host reads a bare exit code as it pleases (exit 2 blocks), so nothing may
//! escape without an answer.

use crate::dispatch::{failure, host, run};
use crate::error::Error;
use crate::tables::Dialect;

/// One line on stderr through `anstream` (colours only on a terminal, never under `NO_COLOR`),
/// a closed pipe ignored: as the CLI writes its own messages.
pub(super) fn note(line: std::fmt::Arguments) {
    use std::io::Write;
    let _ = anstream::stderr().write_fmt(format_args!("{line}\n"));
}

/// Runs `run` or `exec`, whose caller is a host agent: whatever goes wrong (an error, a panic),
/// the host gets the answer the failure policy gives for its event, never a bare exit code it
/// may read as a block. `host` and `event` are the command line's, known before the payload.
pub(super) fn answering(
    host: Option<Dialect>,
    event: Option<String>,
    body: impl FnOnce(&failure::Context) -> Result<i32, Error>,
) -> i32 {
    let known = failure::Context::new(host, event.as_deref());
    std::panic::set_hook(Box::new(|info| {
        let payload = info.payload();
        let what = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("a panic");
        match info.location() {
            Some(at) => note(format_args!("hookx: internal error at {at}: {what}")),
            None => note(format_args!("hookx: internal error: {what}")),
        }
    }));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(&known)));
    match result {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => {
            let why = e.to_string();
            let why = why.strip_prefix("error: ").unwrap_or(&why);
            host::print(&known.answer(why), &[])
        }
        Err(_) => host::print(&known.answer("internal error (see above)"), &[]),
    }
}

/// Debug builds only: `HOOKX_TEST_PANIC=1` makes `run` and `exec` panic once the event is
/// decoded, so that the tests can check what a panic answers.
pub(super) fn injected_panic() {
    #[cfg(debug_assertions)]
    if std::env::var_os("HOOKX_TEST_PANIC").is_some() {
        panic!("HOOKX_TEST_PANIC is set");
    }
}

/// Debug builds only: `HOOKX_TEST_BEFORE_RUN=COMMAND` makes `run` run COMMAND (`/bin/sh -c`)
/// after the hook files are read and hashed and before their handlers run, so that the tests
/// can change a file in between.
pub(super) fn injected_before_run() {
    #[cfg(debug_assertions)]
    if let Some(command) = std::env::var_os("HOOKX_TEST_BEFORE_RUN") {
        let _ = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(command)
            .status();
    }
}

/// Past [`run::MAX_DEPTH`] nested hookx dispatches, hookx is dispatching its own routing
/// entries: it answers nothing and runs nothing (the outer levels run the hooks).
pub(super) fn too_deep() -> bool {
    let depth = run::depth();
    let deep = depth >= run::MAX_DEPTH;
    if deep {
        note(format_args!(
            "hookx: not dispatching: {depth} hookx dispatches are already running one inside \
             the other ({}); a hook runs hookx's own routing entry",
            run::DEPTH_VAR
        ));
    }
    deep
}
