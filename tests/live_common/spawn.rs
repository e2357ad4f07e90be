//! Starting a client whose program a test may just have written (the `unshare` wrappers of the
//! managed-scope suites), and waiting for one, bounded.
#![allow(dead_code)] // each client uses what it needs

use std::process::{Child, Command, Output};
use std::time::Duration;

/// Spawns `cmd`, again while the program is busy: tests run in threads, and a child another
/// thread forks while a wrapper script is still open for writing holds that descriptor until it
/// execs, so the exec of the wrapper fails with ETXTBSY for that moment. Bounded by attempts.
pub fn spawn(cmd: &mut Command) -> std::io::Result<Child> {
    let mut attempts = 0;
    loop {
        match cmd.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && attempts < 50 => {
                attempts += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            result => return result,
        }
    }
}

/// Waits for `child` (started in a process group of its own) to end, with its output; `None`
/// once it overran `limit` (a hang, not a pace), after killing its process group.
pub fn wait_bounded(child: Child, limit: Duration) -> Option<std::io::Result<Output>> {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx.recv_timeout(limit).ok();
    if out.is_none()
        && let Some(pid) = rustix::process::Pid::from_raw(pid as i32)
    {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    out
}
