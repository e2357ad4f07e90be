//! A client driven interactively, as a person at a terminal drives it: it runs on a
//! pseudo-terminal of its own (`openpty`, in a new session whose controlling terminal that is),
//! and what it prints is read into a screen as a terminal shows it (`vt100`: Claude Code's
//! renderer moves the cursor over unchanged cells, so the raw bytes seldom hold a line whole).
//! Every wait ends on an event, something on the screen or on disk, under a generous ceiling
//! that only keeps a broken run from hanging the suite.

use std::fs::File;
use std::io::{self, Read, Write};
use std::num::NonZeroU16;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long any one wait may take before the run counts as stuck.
pub const CEILING: Duration = Duration::from_secs(240);

/// How often a wait looks again.
const POLL: Duration = Duration::from_millis(50);

pub struct Terminal {
    master: File,
    child: Child,
    screen: Arc<Mutex<vt100::Parser>>,
    /// Set once the reader has read all there is: every holder of the terminal let go of it.
    read_all: Arc<std::sync::atomic::AtomicBool>,
}

/// Marks `fd` close-on-exec, so that no other child inherits it.
fn cloexec(fd: &OwnedFd) -> io::Result<()> {
    // SAFETY: F_SETFD on a descriptor this process owns.
    match unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) } {
        0 => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

impl Terminal {
    /// Starts `cmd` on a new `rows` × `cols` terminal. `cmd` is consumed: the parent keeps no
    /// copy of the terminal's other end, so reading ends when the client and its children have
    /// all let go of it.
    pub fn spawn(mut cmd: Command, rows: u16, cols: u16) -> io::Result<Terminal> {
        let (mut master, mut slave) = (-1, -1);
        let size = libc::winsize {
            ws_row: rows,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: openpty(3) writes the two descriptors it opens; no name buffer, default modes.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                &size,
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both descriptors were just opened by openpty and nothing else owns them.
        let (master, slave) =
            unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        cloexec(&master)?;
        cloexec(&slave)?;
        cmd.stdin(Stdio::from(slave.try_clone()?))
            .stdout(Stdio::from(slave.try_clone()?))
            .stderr(Stdio::from(slave));
        // SAFETY: setsid(2) and ioctl(2) are async-signal-safe; the child makes the terminal on
        // its stdin its controlling one, as a terminal emulator's shell does.
        unsafe {
            cmd.pre_exec(|| {
                if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY as _, 0) < 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd.spawn()?;
        drop(cmd);
        let master = File::from(master);
        let (rows, cols) = (NonZeroU16::new(rows), NonZeroU16::new(cols));
        let parser = vt100::Parser::new(rows.expect("rows"), cols.expect("columns"), 0);
        let screen = Arc::new(Mutex::new(parser));
        let (mut reader, into) = (master.try_clone()?, screen.clone());
        let read_all = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let done = read_all.clone();
        // Not joined: a grandchild that outlives the client may hold the terminal open.
        std::thread::spawn(move || {
            let mut buf = [0u8; 65536];
            while let Ok(n @ 1..) = reader.read(&mut buf) {
                into.lock().unwrap().process(&buf[..n]);
            }
            done.store(true, std::sync::atomic::Ordering::SeqCst);
        });
        Ok(Terminal {
            master,
            child,
            screen,
            read_all,
        })
    }

    /// The screen's text now, row by row.
    pub fn screen(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    /// Types `keys` (text, or control sequences such as `"\r"` for Enter, `"\x1b"` for Escape).
    pub fn send(&mut self, keys: &str) {
        self.master
            .write_all(keys.as_bytes())
            .and_then(|()| self.master.flush())
            .unwrap_or_else(|e| panic!("typing {keys:?}: {e}\n{}", self.screen()));
    }

    /// The Down arrow, as the terminal's cursor-key mode says it is sent.
    pub fn down(&self) -> &'static str {
        match self.screen.lock().unwrap().screen().application_cursor() {
            true => "\x1bOB",
            false => "\x1b[B",
        }
    }

    /// Presses `keys` until `done` holds, again each second it does not: a dialog ignores keys
    /// for a moment after it shows (Claude Code's guard against answers typed ahead), so one
    /// press may be lost. `keys` must be one key, so that a lost press loses all of it.
    pub fn press_until(&mut self, keys: &str, what: &str, mut done: impl FnMut(&str) -> bool) {
        let start = Instant::now();
        loop {
            self.send(keys);
            let pressed = Instant::now();
            let mut met = false;
            self.wait(what, |s| {
                met = done(s);
                met || pressed.elapsed() > Duration::from_secs(1)
            });
            if met {
                return;
            }
            assert!(
                start.elapsed() < CEILING,
                "pressing {keys:?} for {what}: nothing within {CEILING:?}\nscreen:\n{}",
                self.screen()
            );
        }
    }

    /// Waits until `done` holds; each look also gets the screen. Fails, showing the screen, if
    /// the client exits first or the ceiling passes.
    pub fn wait(&mut self, what: &str, mut done: impl FnMut(&str) -> bool) {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if done(&screen) {
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("waiting for {what}: the client exited ({status})\nscreen:\n{screen}");
            }
            if start.elapsed() > CEILING {
                panic!("waiting for {what}: not within {CEILING:?}\nscreen:\n{screen}");
            }
            std::thread::sleep(POLL);
        }
    }

    /// Waits until the client exits and all it printed is on the screen (under the ceiling);
    /// its status (`tests/races.rs`). The exit alone came before the reader had read the last
    /// lines: the screen then lacked them (attacks row 2142).
    #[allow(dead_code)]
    pub fn exit_status(&mut self) -> std::process::ExitStatus {
        let start = Instant::now();
        loop {
            if let Ok(Some(status)) = self.child.try_wait()
                && self.read_all.load(std::sync::atomic::Ordering::SeqCst)
            {
                return status;
            }
            assert!(
                start.elapsed() < CEILING,
                "the client did not exit within {CEILING:?}\nscreen:\n{}",
                self.screen()
            );
            std::thread::sleep(POLL);
        }
    }

    /// Waits until the screen shows `text`.
    pub fn wait_for_text(&mut self, text: &str) {
        self.wait(&format!("{text:?} on the screen"), |s| s.contains(text));
    }

    /// Types `line` (which must not be on the screen yet), waits until it shows in the prompt,
    /// then presses Enter: keys typed at once could reach the prompt as a paste.
    pub fn enter_line(&mut self, line: &str) {
        self.send(line);
        self.wait_for_text(line);
        self.send("\r");
    }
}

impl Drop for Terminal {
    /// Ends the client's whole session (its process group: the hooks and servers it started).
    fn drop(&mut self) {
        let group = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) of the process group this terminal's child leads.
        unsafe { libc::kill(-group, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}
