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

/// Ends every process still at work in `root` (its working folder below it, or its command line
/// naming it) and waits until each is gone, bounded by rounds. A sandbox's folder is removed
/// when the sandbox drops; a detached process writing there meanwhile (Cline's hub daemon
/// shutting down after its SIGTERM, a hookx worker still waiting on a handler past its answer,
/// the handler itself) made the removal fail half-way and left the folder behind: 101
/// `/tmp/hookx-live-*` folders, 1.6 GB, mostly `cline-faults`.
pub fn end_stragglers(root: &std::path::Path) {
    let named = root.display().to_string();
    let me = std::process::id();
    for _ in 0..400 {
        let mut left = false;
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|p| p.parse::<u32>().ok())
                .filter(|p| *p != me)
            else {
                continue;
            };
            let here =
                std::fs::read_link(entry.path().join("cwd")).is_ok_and(|c| c.starts_with(root));
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            if (here || String::from_utf8_lossy(&cmdline).contains(&named))
                && let Some(pid) = rustix::process::Pid::from_raw(pid as i32)
            {
                left = true;
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
        }
        if !left {
            return;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}
