//! Starting a client whose program a test may just have written (the `unshare` wrappers of the
//! managed-scope suites).

use std::process::{Child, Command};

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
