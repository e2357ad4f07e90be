//! The run-time claim: when hookx is routed from both of a host's files (the user's and the
//! project's), each route the host runs for one event claims it here, and only the first runs
//! the rules. Decided from what actually ran, not by predicting which routes the host runs
//! (every quirk a prediction missed lost a deny or ran a rule twice: attacks rows 385-388,
//! 420, 425).
//!
//! A claim lives in the account's `~/.hookx/claims/`, in the folder named by the first digit of
//! its event id ([`event_id`]), one record file per event id whose lines are the claims made for it (`ROUTE DEADLINE MATCHED`). Under an
//! exclusive lock on that file, a route either matches the oldest unmatched claim of *another*
//! route (a route never matches its own: two calls alike through one route both run) or adds
//! its own. The claimer holds an exclusive lock on its run file while it runs the rules (the
//! kernel lets go of it when the claimer dies) and leaves its answer beside it when known, kept
//! to what blocks (deny, ask, block, stop). The matcher waits, within its budget, for that answer
//! and repeats it; where the claimer ended without one, is stopped, or the budget is spent, it
//! runs the rules itself. A store that cannot be used runs the rules: twice at worst, never zero.

use crate::model::Event;
use crate::model::event::SESSION_ID;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long past its deadline a claim is kept: a matcher started late still finds it.
const GRACE: Duration = Duration::from_secs(30);

/// How far past now a claim's deadline can be: the longest budget, and the grace. A line
/// later than that was written before the clock was set back, and is as good as gone (attacks
/// row 511: kept live as long as the clock went back, a stale claim stood for a later call).
const HORIZON: Duration = Duration::from_secs(crate::tables::ROUTE_TIMEOUT + GRACE.as_secs());

/// The most files each of the store's 16 folders keeps; the oldest go first past it. Each claim
/// reads the folder of its own event: under a busy user the store is always full, and one
/// folder of 512 cost every claimed event 512 `statx` and more instructions than the rest of
/// `hookx run` (attacks row 1511).
const MAX_FILES: usize = 64;

/// What tells the event from another, the same in every route the host runs for it: its
/// kind, instant (where the payload `stamped` it), session, call and subagent ids (in
/// `call_keys`, the flavour's it was read in) and tool call as decoded.
pub fn identity(event: &Event, call_keys: &[&str], stamped: bool) -> serde_json::Value {
    let session = event.fields.get(SESSION_ID);
    let calls: Vec<_> = call_keys.iter().map(|k| event.fields.get(*k)).collect();
    let tool = event.tool.as_ref().map(|t| (&t.name, &t.input));
    serde_json::json!({
        "kind": format!("{:?}", event.kind),
        "timestamp": event.timestamp.filter(|_| stamped).map(|t| t.timestamp_millis()),
        "session": session,
        "calls": calls,
        "tool": tool,
    })
}

/// The event's id: its [`identity`], the flavour it is answered in, and the places whose rules
/// the route runs: the project and the policy root (attacks row 504: a route line a project
/// ships with its own `--managed-root` claimed the call, ran no policy rule, and the user's
/// route repeated its silence: the policy's deny lost); and the build
/// ([`crate::hash::BUILD`]): a claimer runs its own build's plan, and a route of another build
/// that repeated its answer ran nothing of what only its own plan gives hookx (attacks row
/// 1343: a project route run by a build of 2026-12-06 morning, before row 720, skipped a
/// Stop rule today's user route then repeated the silence of). Routes of two builds both run:
/// twice at worst.
pub fn event_id(
    event: &Event,
    call_keys: &[&str],
    stamped: bool,
    flavor: &str,
    [project, managed_root]: [&Path; 2],
) -> String {
    let text = serde_json::json!([
        identity(event, call_keys, stamped),
        flavor,
        project.to_string_lossy(),
        managed_root.to_string_lossy(),
        crate::hash::BUILD,
    ]);
    crate::hash::sha256_hex(text.to_string().as_bytes())
}

/// This route's identity: its whole command line and the hook folder the host named, if any
/// (the user's route carries the user's route key; the project's does not).
pub fn route_id(hook_dir_var: Option<&str>) -> String {
    let mut text = String::new();
    for arg in std::env::args_os() {
        text.push_str(&arg.to_string_lossy());
        text.push('\0');
    }
    if let Some(dir) = hook_dir_var.and_then(std::env::var_os) {
        text.push_str(&dir.to_string_lossy());
    }
    crate::hash::sha256_hex(text.as_bytes())[..32].to_string()
}

/// What a route does with the event.
pub enum Entry {
    /// It claimed the event: it runs the rules, and [`Held::finish`]es with its answer.
    Claimed(Held),
    /// Another route ran it: this route says its blocking answer again.
    Repeat(Answer),
    /// It runs the rules without a claim (the store could not be used, or the claimer left
    /// no answer).
    Run,
}

/// An answer as printed: stdout, stderr and the exit code.
#[derive(Debug, PartialEq)]
pub struct Answer {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub code: i32,
}

/// The claimer's hold on its run file: locked while this process (or the worker it splits
/// into) lives. The file names the processes that run the rules, one pid a line.
pub struct Held {
    lock: File,
    run: PathBuf,
    route: String,
    deadline: u128,
}

impl Held {
    /// Names this process (the worker a claimer split into) in the run file beside the
    /// claimer: a matcher sees it stopped too.
    pub fn runs_here(&self) {
        let _ = (&self.lock).write_all(format!("{}\n", std::process::id()).as_bytes());
    }

    /// Writes the answer the matcher repeats: `None` where nothing blocks (the matcher then
    /// answers nothing). Whole or not at all (renamed into place); best effort: a matcher that
    /// finds none runs the rules. `rewritten`: the id of the event with the input this route
    /// answered, where it rewrote it, which a host that passes the rewrite on gives the next
    /// route (attacks row 506): the claim is made under it too, its answer already there.
    pub fn finish(&self, answer: Option<&Answer>, rewritten: Option<&str>) {
        let mut bytes = Vec::new();
        if let Some(a) = answer {
            bytes.extend(format!("{} {}\n", a.code, a.stdout.len()).as_bytes());
            bytes.extend(&a.stdout);
            bytes.extend(&a.stderr);
        }
        write_answer(&self.run, &bytes);
        if let Some(event) = rewritten {
            let _ = self.claim_answered(event, &bytes);
        }
    }

    /// This route's claim of `event` as well, answered with `bytes` before it is recorded.
    fn claim_answered(&self, event: &str, bytes: &[u8]) -> std::io::Result<()> {
        let store = self.run.parent().and_then(Path::parent);
        let dir = folder(store.unwrap_or(Path::new(".")), event);
        crate::config::update::private_dir(&dir)?;
        let mut record = open_record(&dir.join(event))?;
        let mut lines = live_lines(&mut record)?;
        let (deadline, run, _) = new_run_file(&dir, event, &self.route, self.deadline)?;
        write_answer(&run, bytes);
        lines.push(Line {
            route: self.route.clone(),
            deadline,
            matched: false,
        });
        write_lines(&mut record, &lines)
    }
}

/// Writes `bytes` as the answer of the claimer of `run`, whole or not at all.
fn write_answer(run: &Path, bytes: &[u8]) {
    let done = done_file(run);
    let part = done.with_extension("part");
    if std::fs::write(&part, bytes).is_ok() {
        let _ = std::fs::rename(&part, &done);
    }
}

/// Where the claimer of `run` leaves its answer.
fn done_file(run: &Path) -> PathBuf {
    run.with_extension("done")
}

/// The folder of `event`'s files in the store below the account's home.
fn store(home: &Path, event: &str) -> PathBuf {
    folder(&home.join(".hookx").join("claims"), event)
}

/// The folder of the store `store` that holds `event`'s files: one of 16, by the id's first
/// digit, which the routes of one event share.
fn folder(store: &Path, event: &str) -> PathBuf {
    store.join(event.get(..1).unwrap_or("_"))
}

fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
}

/// Claims `event` for `route`, or matches another route's claim of it and waits for its
/// answer until `until`. `budget`: how long this route may take, which bounds its claim.
pub fn enter(home: &Path, event: &str, route: &str, budget: Duration, until: Instant) -> Entry {
    match decide(home, event, route, budget) {
        Ok(Decided::Claimed(held)) => Entry::Claimed(held),
        Ok(Decided::Matched(run)) => wait(&run, until).map_or(Entry::Run, Entry::Repeat),
        Err(_) => Entry::Run,
    }
}

enum Decided {
    Claimed(Held),
    Matched(PathBuf),
}

/// One claim line: the route, its deadline (ms since the epoch), whether a route matched it.
struct Line {
    route: String,
    deadline: u128,
    matched: bool,
}

/// The record of an event's claims, opened and locked ([`crate::config::update::lock_briefly`]).
fn open_record(record: &Path) -> std::io::Result<File> {
    let file = regular(
        OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false),
        record,
    )?;
    crate::config::update::lock_briefly(&file)?;
    Ok(file)
}

/// The record's claims still live.
fn live_lines(file: &mut File) -> std::io::Result<Vec<Line>> {
    let mut text = String::new();
    file.read_to_string(&mut text)?;
    let now = now_ms();
    Ok(text
        .lines()
        .filter_map(|l| {
            let mut words = l.split(' ');
            let line = Line {
                route: words.next()?.to_string(),
                deadline: words.next()?.parse().ok()?,
                matched: words.next()? == "1",
            };
            (line.deadline + GRACE.as_millis() > now && line.deadline <= now + HORIZON.as_millis())
                .then_some(line)
        })
        .collect())
}

/// Writes `lines` over the record.
fn write_lines(file: &mut File, lines: &[Line]) -> std::io::Result<()> {
    let text: String = lines
        .iter()
        .map(|l| format!("{} {} {}\n", l.route, l.deadline, u8::from(l.matched)))
        .collect();
    file.set_len(0)?;
    file.seek(SeekFrom::Start(0))?;
    file.write_all(text.as_bytes())
}

fn decide(home: &Path, event: &str, route: &str, budget: Duration) -> std::io::Result<Decided> {
    let dir = store(home, event);
    crate::config::update::private_dir(&dir)?;
    let mut file = open_record(&dir.join(event))?;
    let mut lines = live_lines(&mut file)?;
    let now = now_ms();
    let found = lines
        .iter()
        .position(|l| !l.matched && l.route != route)
        .map(|at| {
            (
                at,
                run_file(&dir, event, &lines[at].route, lines[at].deadline),
            )
        });
    let decided = match found {
        Some((at, run)) => {
            lines[at].matched = true;
            Decided::Matched(run)
        }
        None => {
            // After this route's other claims of the event: each has a run file of its own.
            let after = lines
                .iter()
                .filter(|l| l.route == route)
                .map(|l| l.deadline + 1);
            let deadline = after.fold(now + budget.as_millis(), u128::max);
            let (deadline, run, lock) = new_run_file(&dir, event, route, deadline)?;
            lock.try_lock()?;
            let held = Held {
                lock,
                run,
                route: route.to_string(),
                deadline,
            };
            held.runs_here();
            lines.push(Line {
                route: route.to_string(),
                deadline,
                matched: false,
            });
            Decided::Claimed(held)
        }
    };
    write_lines(&mut file, &lines)?;
    drop(file);
    if matches!(decided, Decided::Claimed(_)) {
        collect(&dir);
        // The files an older build left at the store's top (before its 16 folders: attacks
        // row 1511), past their time, by one claim in 16 (the folder `0`'s), which lists the
        // top's 16 folders and its files, if any.
        if let Some(top) = dir.parent().filter(|_| dir.ends_with("0")) {
            collect(top);
        }
    }
    Ok(decided)
}

/// Opens `path` with `options` without waiting on it and without following a link, and only
/// as a regular file: a FIFO put in the store's place would hold `hookx run` until the host
/// gives up (issue 23's bounded reads), so anything else is an error and the rules run.
fn regular(options: &mut OpenOptions, path: &Path) -> std::io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(file)
}

/// A run file of this claim's own, its deadline moved on by a millisecond where one is there
/// already (attacks row 501: two calls alike through one route in one millisecond, as Droid
/// sends parallel ones, shared a run file, the second truncating the first's and waiting on
/// its lock while holding the record's).
fn new_run_file(
    dir: &Path,
    event: &str,
    route: &str,
    mut deadline: u128,
) -> std::io::Result<(u128, PathBuf, File)> {
    for _ in 0..64 {
        let run = run_file(dir, event, route, deadline);
        match regular(OpenOptions::new().write(true).create_new(true), &run) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => deadline += 1,
            opened => return Ok((deadline, run, opened?)),
        }
    }
    Err(std::io::ErrorKind::AlreadyExists.into())
}

fn run_file(dir: &Path, event: &str, route: &str, deadline: u128) -> PathBuf {
    dir.join(format!("{event}.{route}.{deadline}.run"))
}

/// The claimer's answer, once its run file holds one; `None` where it ended without one, is
/// stopped, or `until` passed first.
fn wait(run: &Path, until: Instant) -> Option<Answer> {
    let mut file = regular(OpenOptions::new().read(true), run).ok()?;
    loop {
        if let Some(answer) = read_answer(run) {
            return Some(answer);
        }
        // The claimer gone (its lock let go) and no answer: it died before one.
        if file.try_lock_shared().is_ok() {
            return read_answer(run);
        }
        if Instant::now() >= until || stopped(&mut file) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Whether a process the run file names is stopped (SIGSTOP, a debugger, a terminal's
/// Ctrl-Z: state `T` or `t` in `/proc/PID/stat`). Such a claimer holds its lock and answers
/// nothing until someone continues it, so the matcher runs the rules at once rather than
/// wait out its budget and fail closed (attacks row 502). Twice at worst: once continued, the
/// claimer runs them too. Where there is no `/proc`, none is seen stopped.
fn stopped(run: &mut File) -> bool {
    let mut pids = String::new();
    if run.seek(SeekFrom::Start(0)).is_err() || run.read_to_string(&mut pids).is_err() {
        return false;
    }
    pids.lines()
        .filter_map(|l| l.parse::<u32>().ok())
        .any(|pid| {
            let stat = std::fs::read(format!("/proc/{pid}/stat")).unwrap_or_default();
            // The state follows the command's name, which is in parentheses and may hold any.
            let state = stat
                .iter()
                .rposition(|b| *b == b')')
                .and_then(|at| stat.get(at + 2));
            matches!(state, Some(b'T' | b't'))
        })
}

/// The answer the claimer wrote (nothing blocking: an empty one), if it wrote one.
fn read_answer(run: &Path) -> Option<Answer> {
    let bytes = crate::read::bytes(&done_file(run), crate::read::MAX_FILE_BYTES).ok()?;
    let empty = || Answer {
        stdout: Vec::new(),
        stderr: Vec::new(),
        code: 0,
    };
    if bytes.is_empty() {
        return Some(empty());
    }
    let end = bytes.iter().position(|b| *b == b'\n')?;
    let (code, len) = std::str::from_utf8(&bytes[..end]).ok()?.split_once(' ')?;
    let (code, len): (i32, usize) = (code.parse().ok()?, len.parse().ok()?);
    let body = &bytes[end + 1..];
    Some(Answer {
        stdout: body.get(..len)?.to_vec(),
        stderr: body.get(len..)?.to_vec(),
        code,
    })
}

/// Removes the files of the store's folder `dir` past their time, and the oldest past
/// [`MAX_FILES`]; regular files only (the store's top holds its folders).
fn collect(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let keep = Duration::from_secs(3600);
    let mut files: Vec<(SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    let now = SystemTime::now();
    files.retain(|(at, path)| {
        // A time ahead of the clock was written before it was set back: kept, it would be
        // the newest, and each new claim's files the first to go (attacks row 512).
        let old = now
            .duration_since(*at)
            .map_or_else(|ahead| ahead.duration() > GRACE, |age| age > keep);
        if old {
            let _ = std::fs::remove_file(path);
        }
        !old
    });
    if files.len() > MAX_FILES {
        files.sort();
        for (_, path) in &files[..files.len() - MAX_FILES] {
            let _ = std::fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    /// Attacks row 1343: the id is this build's, so that a route of another build, whose plan
    /// may give hookx other rules, never matches its claims (shown with a real build of
    /// 2026-12-06 morning by hand: its claim hid a Stop rule from today's route).
    #[test]
    fn the_build_is_part_of_the_events_id() {
        let event = Event::bare(crate::model::EventKind::Stop);
        let places = [Path::new("/p"), Path::new("/")];
        let id = event_id(&event, &[], false, "claude", places);
        let without = serde_json::json!([identity(&event, &[], false), "claude", "/p", "/"]);
        assert_ne!(
            id,
            crate::hash::sha256_hex(without.to_string().as_bytes()),
            "another build's route matches this one's claims"
        );
    }

    #[test]
    fn a_route_never_matches_its_own_claim() {
        let home = tempfile::tempdir().unwrap();
        let budget = Duration::from_secs(60);
        let a = enter(home.path(), "e", "a", budget, far());
        let again = enter(home.path(), "e", "a", budget, far());
        assert!(matches!(a, Entry::Claimed(_)));
        assert!(matches!(again, Entry::Claimed(_)));
    }

    /// Attacks row 501: claims of one route in one millisecond each get a run file of their
    /// own (a hundred claims made in a loop share milliseconds).
    #[test]
    fn a_routes_claims_held_together_are_all_claims() {
        let home = tempfile::tempdir().unwrap();
        let budget = Duration::from_secs(60);
        let held: Vec<Entry> = (0..100)
            .map(|_| enter(home.path(), "e", "a", budget, far()))
            .collect();
        assert!(held.iter().all(|e| matches!(e, Entry::Claimed(_))));
    }

    /// Attacks row 509: two subagents' stops of one session, stamped in one millisecond, as
    /// each host spells the subagent's id (Copilot's own flavour: `agentId`, decoded to
    /// `agent_id`), are two events.
    #[test]
    fn two_subagents_stops_are_two_events_in_every_spelling() {
        use crate::protocol::payload::decode_event_as;
        use crate::tables::Dialect;
        let stops = [
            (
                "claude",
                "SubagentStop",
                r#"{"session_id": "s1", "agent_id": "AGENT"}"#,
            ),
            (
                "copilot",
                "subagentStop",
                r#"{"sessionId": "s1", "timestamp": 1796103458392, "agentId": "AGENT"}"#,
            ),
        ];
        for (host, event, payload) in stops {
            let id = |agent: &str| {
                let payload = payload.replace("AGENT", agent);
                let host = Dialect::named(host).unwrap();
                let (stop, flavor) =
                    decode_event_as(payload.as_bytes(), host, Some(event)).unwrap();
                let keys = flavor.tables().protocol.call_keys;
                event_id(&stop, keys, true, "f", [Path::new("/p"), Path::new("/")])
            };
            assert_ne!(id("a-one"), id("a-two"), "{host}");
        }
    }

    #[test]
    fn another_route_repeats_the_claimers_answer() {
        let home = tempfile::tempdir().unwrap();
        let budget = Duration::from_secs(60);
        let Entry::Claimed(held) = enter(home.path(), "e", "a", budget, far()) else {
            panic!("not claimed");
        };
        let deny = Answer {
            stdout: b"{\"deny\":1}\n".to_vec(),
            stderr: b"why".to_vec(),
            code: 2,
        };
        held.finish(Some(&deny), None);
        let Entry::Repeat(again) = enter(home.path(), "e", "b", budget, far()) else {
            panic!("not matched");
        };
        assert_eq!(again, deny);
        // Matched once: a third route claims anew.
        assert!(matches!(
            enter(home.path(), "e", "c", budget, far()),
            Entry::Claimed(_)
        ));
    }

    /// Attacks row 511: a claim whose deadline is further ahead than any budget reaches was
    /// made before the clock was set back; it is not matched, its answer not repeated.
    #[test]
    fn a_claim_from_before_the_clock_went_back_is_not_matched() {
        let home = tempfile::tempdir().unwrap();
        let budget = Duration::from_secs(60);
        let Entry::Claimed(held) = enter(home.path(), "e", "a", budget, far()) else {
            panic!("not claimed");
        };
        held.finish(None, None);
        let run = held.run.clone();
        drop(held);
        // The same claim, as the record holds it with the clock an hour behind.
        let dir = store(home.path(), "e");
        let ahead = now_ms() + 3_600_000;
        let moved = run_file(&dir, "e", "a", ahead);
        std::fs::rename(&run, &moved).unwrap();
        std::fs::rename(done_file(&run), done_file(&moved)).unwrap();
        std::fs::write(dir.join("e"), format!("a {ahead} 0\n")).unwrap();
        assert!(matches!(
            enter(home.path(), "e", "b", budget, far()),
            Entry::Claimed(_)
        ));
    }

    #[test]
    fn a_claimer_gone_without_an_answer_leaves_the_rules_to_the_matcher() {
        let home = tempfile::tempdir().unwrap();
        let budget = Duration::from_secs(60);
        let held = enter(home.path(), "e", "a", budget, far());
        drop(held);
        assert!(matches!(
            enter(home.path(), "e", "b", budget, far()),
            Entry::Run
        ));
    }

    /// A FIFO in place of a claim record, or of a claimer's run file: no wait, the rules run.
    #[cfg(unix)]
    #[test]
    fn a_fifo_in_the_store_runs_the_rules_without_waiting() {
        let home = tempfile::tempdir().unwrap();
        let dir = store(home.path(), "e");
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = |path: &Path| {
            let status = std::process::Command::new("mkfifo").arg(path).status();
            assert!(status.unwrap().success());
        };
        fifo(&dir.join("e"));
        let budget = Duration::from_secs(60);
        assert!(matches!(
            enter(home.path(), "e", "a", budget, far()),
            Entry::Run
        ));
        // A claim whose run and answer files are FIFOs: the matcher neither waits on them
        // nor takes them for an answer.
        let Entry::Claimed(held) = enter(home.path(), "f", "a", budget, far()) else {
            panic!("not claimed");
        };
        let run = held.run.clone();
        drop(held);
        std::fs::remove_file(&run).unwrap();
        fifo(&run);
        fifo(&done_file(&run));
        assert!(matches!(
            enter(home.path(), "f", "b", budget, far()),
            Entry::Run
        ));
    }

    /// Attacks row 1511: under a busy user the store is always full. A claim reads only the
    /// folder of its own event, which keeps at most [`MAX_FILES`] besides the files of the
    /// claim itself: 600 events claimed, none read a folder of more than 67 files.
    #[test]
    fn a_claim_reads_a_folder_of_at_most_64_files_however_full_the_store() {
        let home = tempfile::tempdir().unwrap();
        let budget = Duration::from_secs(60);
        let mut largest = 0;
        for n in 0..600 {
            let event = crate::hash::sha256_hex(format!("event {n}").as_bytes());
            let Entry::Claimed(held) = enter(home.path(), &event, "a", budget, far()) else {
                panic!("not claimed");
            };
            held.finish(None, None);
            let dir = held.run.parent().unwrap();
            largest = largest.max(std::fs::read_dir(dir).unwrap().count());
        }
        assert!(
            largest <= 64 + 3,
            "a claim read a folder of {largest} files"
        );
    }

    /// Left by row 1511: the files an older build left at the store's top (before the 16
    /// folders) stayed for ever. Those past their hour go with a claim of the folder `0`; a
    /// newer one stays (its build may still wait on it), and so do the folders. The folders a
    /// claim makes are the user's alone (they were 0755).
    #[test]
    fn an_older_builds_files_at_the_stores_top_go_once_past_their_time() {
        let home = tempfile::tempdir().unwrap();
        let top = home.path().join(".hookx").join("claims");
        let budget = Duration::from_secs(60);
        let claim = |event: &str| {
            let Entry::Claimed(held) = enter(home.path(), event, "a", budget, far()) else {
                panic!("not claimed");
            };
            held.finish(None, None);
        };
        claim("1e");
        let old = SystemTime::now() - Duration::from_secs(2 * 3600);
        for n in 0..40 {
            let file = top.join(format!("{n:064x}"));
            File::create(&file).unwrap().set_modified(old).unwrap();
        }
        File::create(top.join("fresh")).unwrap();
        let files = || {
            let mut names: Vec<String> = std::fs::read_dir(&top)
                .unwrap()
                .flatten()
                .filter(|e| e.file_type().unwrap().is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        };
        claim("fe");
        assert_eq!(files().len(), 41, "a claim of another folder lists the top");
        claim("0e");
        assert_eq!(files(), ["fresh"], "an older build's files left at the top");
        for folder in ["0", "1", "f"] {
            assert!(top.join(folder).is_dir(), "{folder}");
        }
        #[cfg(unix)]
        for dir in [home.path().join(".hookx"), top.clone(), top.join("1")] {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o700, "{}", dir.display());
        }
    }

    #[test]
    fn an_unusable_store_runs_the_rules() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join(".hookx"), "a file, not a folder").unwrap();
        let entry = enter(home.path(), "e", "a", Duration::from_secs(1), far());
        assert!(matches!(entry, Entry::Run));
    }
}
