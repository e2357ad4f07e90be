//! Every real client runs sealed off the network: before a live test starts its fake model
//! server and its client, its thread moves into a network namespace of its own that has only
//! loopback (`unshare(CLONE_NEWNET)`, then `lo` up). Threads and processes started from that
//! thread afterwards (the server's threads, the client, the hooks, `hookx`, `unshare --mount`
//! wrappers) live there too, so the fake servers on 127.0.0.1 answer and nothing else does: a
//! connection or a DNS query to the outside fails at once (Codex was seen running `git
//! ls-remote` against its plugins repository, and a DNS query). Needs root (CAP_SYS_ADMIN);
//! where no namespace can be made a suite skips, and fails under `HOOKX_LIVE=require`.
//! Included with `#[path]` by every suite's client lookup; `tests/live_sealed.rs` proves it.

use std::cell::Cell;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

thread_local! {
    static SEALED: Cell<bool> = const { Cell::new(false) };
}

/// Moves the calling thread into a new network namespace whose only interface is `lo`, up.
/// Once per thread: a second call keeps the namespace the first made.
pub fn seal() -> io::Result<()> {
    if SEALED.with(Cell::get) {
        return Ok(());
    }
    // SAFETY: unshare(2) with CLONE_NEWNET changes only the network namespace of the calling
    // thread; no memory and no file descriptor is touched.
    if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
        return Err(io::Error::last_os_error());
    }
    loopback_up()?;
    SEALED.with(|s| s.set(true));
    Ok(())
}

/// Brings `lo` up in the calling thread's network namespace (SIOCGIFFLAGS, then SIOCSIFFLAGS
/// with IFF_UP), as `ip link set lo up` does.
fn loopback_up() -> io::Result<()> {
    // SAFETY: a plain socket(2) call; the descriptor is owned (and closed) by `OwnedFd`.
    let raw = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) };
    if raw < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `raw` is a fresh descriptor that nothing else owns.
    let socket = unsafe { OwnedFd::from_raw_fd(raw) };
    // SAFETY: `ifreq` is plain data, valid when zeroed.
    let mut req: libc::ifreq = unsafe { std::mem::zeroed() };
    for (to, from) in req.ifr_name.iter_mut().zip(b"lo\0") {
        *to = *from as libc::c_char;
    }
    // SAFETY: both ioctls read and write the `ifreq` they are given, which outlives them.
    unsafe {
        if libc::ioctl(socket.as_raw_fd(), libc::SIOCGIFFLAGS as _, &mut req) < 0 {
            return Err(io::Error::last_os_error());
        }
        req.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
        if libc::ioctl(socket.as_raw_fd(), libc::SIOCSIFFLAGS as _, &req) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Seals the calling test's thread for a run of `client`: `Some(())` when sealed; `None`, after
/// a skip line, when no namespace can be made; a failure instead under `HOOKX_LIVE=require`.
pub fn enter(client: &str) -> Option<()> {
    match seal() {
        Ok(()) => Some(()),
        Err(e) if std::env::var("HOOKX_LIVE").as_deref() == Ok("require") => panic!(
            "HOOKX_LIVE=require but {client} cannot run sealed: no loopback-only network \
             namespace ({e}; needs root)"
        ),
        Err(e) => {
            eprintln!(
                "skip: {client} runs only sealed off the network, and no loopback-only network \
                 namespace can be made here ({e}; needs root)"
            );
            None
        }
    }
}
