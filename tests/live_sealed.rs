//! The seal every live suite runs its real client under (`tests/live_common/sealed.rs`): after
//! it, the test's thread and what it starts reach loopback and nothing else. Skips where no
//! namespace can be made (not root), and fails there under `HOOKX_LIVE=require`.

#[path = "live_common/sealed.rs"]
mod sealed;

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A bound on each network attempt: a sealed one fails at once; this only keeps a broken seal
/// from hanging the test.
const BOUND: Duration = Duration::from_secs(20);

fn namespace_of(path: &str) -> String {
    std::fs::read_link(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .display()
        .to_string()
}

/// `git ARGS…` with a fresh HOME, bounded, from the calling thread (so in its namespace).
fn git(home: &Path, args: &[&str]) -> std::process::Output {
    let mut child = Command::new("timeout")
        .arg(BOUND.as_secs().to_string())
        .arg("git")
        .args(args)
        .env_clear()
        .env("HOME", home)
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("git");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    std::process::Output {
        status,
        stdout: Vec::new(),
        stderr: stderr.into_bytes(),
    }
}

#[test]
fn a_sealed_thread_reaches_loopback_and_nothing_else() {
    let host_namespace = namespace_of("/proc/thread-self/ns/net");
    if sealed::enter("the live suites").is_none() {
        return;
    }
    assert_ne!(
        namespace_of("/proc/thread-self/ns/net"),
        host_namespace,
        "the thread has a network namespace of its own"
    );
    assert_eq!(
        namespace_of("/proc/self/ns/net"),
        host_namespace,
        "the rest of the test process keeps the machine's"
    );

    // Outside: no route at all, so a connection fails at once (not by a timeout).
    let outside: SocketAddr = "1.1.1.1:443".parse().unwrap();
    let err = TcpStream::connect_timeout(&outside, BOUND).expect_err("1.1.1.1:443 is reachable");
    assert_eq!(err.kind(), ErrorKind::NetworkUnreachable, "{err}");
    let lookup = ("github.com", 443).to_socket_addrs();
    assert!(lookup.is_err(), "a DNS lookup answered: {lookup:?}");

    // A process started now (as every client is) is sealed too: what Codex tried, a `git
    // ls-remote` of a repository on GitHub, fails without reaching it.
    let home = tempfile::tempdir().unwrap();
    let remote = git(
        home.path(),
        &["ls-remote", "https://github.com/openai/codex.git"],
    );
    let said = String::from_utf8_lossy(&remote.stderr);
    assert!(
        !remote.status.success() && said.contains("Could not resolve host"),
        "git ls-remote from the sealed thread: {:?} {said}",
        remote.status
    );

    // Inside: loopback is up, for the fake servers. A listener made here is reached by a thread
    // and by a process started from here; a last `STOP` line ends it.
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind on loopback");
    let at = listener.local_addr().unwrap();
    let server = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for stream in listener.incoming() {
            let mut stream = stream.unwrap();
            stream.set_read_timeout(Some(BOUND)).unwrap();
            let mut line = String::new();
            let _ = BufReader::new(&stream).read_line(&mut line);
            if line.trim() == "STOP" {
                break;
            }
            let _ = stream.write_all(b"HTTP/1.0 404 Not Found\r\nContent-Length: 0\r\n\r\n");
            lines.push(line.trim().to_string());
        }
        lines
    });
    let sealed_namespace = namespace_of("/proc/thread-self/ns/net");
    let namespace = std::thread::spawn(move || {
        let mut stream = TcpStream::connect_timeout(&at, BOUND).expect("loopback from a thread");
        stream.write_all(b"HELLO\n").unwrap();
        namespace_of("/proc/thread-self/ns/net")
    })
    .join()
    .unwrap();
    assert_eq!(
        namespace, sealed_namespace,
        "a thread started now is sealed"
    );
    let local = git(
        home.path(),
        &[
            "ls-remote",
            &format!("http://127.0.0.1:{}/repo.git", at.port()),
        ],
    );
    TcpStream::connect_timeout(&at, BOUND)
        .and_then(|mut s| s.write_all(b"STOP\n"))
        .expect("loopback from the test's thread");
    let lines = server.join().unwrap();
    assert!(
        lines.first().map(String::as_str) == Some("HELLO")
            && lines
                .iter()
                .any(|l| l.starts_with("GET /repo.git/info/refs")),
        "the thread and git reached the loopback server: {lines:?}\ngit: {}",
        String::from_utf8_lossy(&local.stderr)
    );
}

/// The `#[path]` files `file` includes, and theirs, resolved from the including file's folder.
fn included(file: &Path, out: &mut Vec<std::path::PathBuf>) {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("#[path = \"") else {
            continue;
        };
        let rel = rest.split('"').next().unwrap();
        let path = file.parent().unwrap().join(rel);
        let path = path.canonicalize().unwrap_or(path);
        if !out.contains(&path) {
            out.push(path.clone());
            included(&path, out);
        }
    }
}

/// Every live suite finds its client through a lookup that seals the test's thread first
/// (`sealed::enter` in a file it includes), so a new suite cannot forget it.
#[test]
fn every_live_suite_seals_its_client() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut suites: Vec<_> = std::fs::read_dir(&tests)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            name.starts_with("live_") && name.ends_with(".rs") && name != "live_sealed.rs"
        })
        .collect();
    suites.sort();
    assert!(suites.len() >= 10, "live suites found: {suites:?}");
    let unsealed: Vec<_> = suites
        .iter()
        .filter(|suite| {
            let mut files = vec![suite.to_path_buf()];
            included(suite, &mut files);
            let seals = files.iter().any(|f| f.ends_with("live_common/sealed.rs"));
            let enters = files
                .iter()
                .any(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains("sealed::enter(")));
            !(seals && enters)
        })
        .collect();
    assert!(
        unsealed.is_empty(),
        "live suites whose client lookup does not seal (tests/live_common/sealed.rs): {unsealed:?}"
    );
}
