//! hookx's benchmark harness: wall time, peak memory and instruction counts of the real binary,
//! against a no-op handler started directly. Run it with `scripts/bench.sh` (which builds the
//! release binary first) or `cargo bench --bench hookx -- [OPTIONS]`.
//!
//! Every case is a fresh process, as a host agent starts it: `hookx run`, `hookx exec` and
//! `hookx convert` get their payload on stdin and their output is drained through pipes. The
//! cases of a group are measured round-robin (one run of each, repeated), so a change in the
//! machine's load hits all of them alike; with `--baseline BIN` a second binary joins the same
//! rounds, which makes before/after comparisons fair on a noisy machine.
//!
//! Each binary is measured as a fresh copy in the harness's temporary directory, as
//! `cargo install` copies it into place: the same static binary started 0.2 to 0.3 ms slower
//! from the file the linker wrote into `target/` than from a copy of it (ext4, 2-CPU VM), and
//! a baseline kept in `/tmp` had been copied.
//!
//! Options:
//!   --runs N         timed runs per case (default 200; the 8×200 ms groups use N/20, at least 5)
//!   --warmup N       untimed runs per case first (default 20)
//!   --bin PATH       the hookx under test (default: this build's `hookx`)
//!   --baseline PATH  a second hookx measured in the same rounds, shown as `before`
//!   --also NAME=PATH one more hookx in the same rounds, shown as NAME (repeatable)
//!   --only LIST      groups to run, comma-separated: startup, convert, sync, parallel
//!   --no-callgrind   skip the instruction counts (`valgrind --tool=callgrind`)

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Rule counts of the generated hook sets.
const SIZES: &[usize] = &[1, 10, 100, 1_000, 10_000];
/// Handlers of the parallel group, and how long each sleeps.
const SLEEPERS: usize = 8;
const SLEEP: &str = "0.2";

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some(PROBE) => probe(&args[2..]),
        Some(FLOOR) => floor(),
        Some(JSON_FLOOR) => json_floor(&args[2]),
        _ => {}
    }
    let opts = Opts::parse(&args[1..]);
    // What a run leaves behind comes back here, to be waited for before the next run.
    #[cfg(target_os = "linux")]
    let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path().canonicalize().expect("canonical temp dir");
    let mut bins = vec![("after".to_string(), opts.bin.clone())];
    if let Some(base) = &opts.baseline {
        bins.insert(0, ("before".to_string(), base.clone()));
    }
    bins.extend(opts.extra.iter().cloned());
    // The floors are this harness run again, from a copy too.
    std::fs::create_dir_all(root.join("bin"))
        .and_then(|()| std::fs::copy(std::env::current_exe()?, floor_exe(&root)))
        .expect("a copy of the harness");
    let shown = bins.clone();
    for (name, bin) in &mut bins {
        let copy = root.join("bin").join(name.as_str()).join("hookx");
        std::fs::create_dir_all(copy.parent().expect("a folder"))
            .and_then(|()| std::fs::copy(&*bin, &copy))
            .unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
        *bin = copy;
    }
    let load_before = loadavg();
    let started = Instant::now();
    let mut rows = Vec::new();
    if opts.wants("startup") {
        rows.extend(startup_group(&root, &bins, &opts));
    }
    if opts.wants("convert") {
        rows.extend(convert_group(&root, &bins, &opts));
    }
    if opts.wants("sync") {
        rows.extend(sync_group(&root, &bins, &opts));
    }
    if opts.wants("parallel") {
        rows.extend(parallel_group(&root, &bins, &opts));
    }
    let load_after = loadavg();
    print_report(
        &opts,
        &shown,
        &rows,
        &load_before,
        &load_after,
        started.elapsed(),
    );
}

struct Opts {
    runs: usize,
    warmup: usize,
    bin: PathBuf,
    baseline: Option<PathBuf>,
    /// More builds measured in the same rounds, e.g. `static=target/static/hookx`.
    extra: Vec<(String, PathBuf)>,
    only: Option<Vec<String>>,
    callgrind: bool,
}

impl Opts {
    fn parse(args: &[String]) -> Opts {
        let mut opts = Opts {
            runs: 200,
            warmup: 20,
            bin: PathBuf::from(env!("CARGO_BIN_EXE_hookx")),
            baseline: None,
            extra: Vec::new(),
            only: None,
            callgrind: true,
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = || it.next().cloned().unwrap_or_else(|| usage(arg));
            match arg.as_str() {
                "--runs" => opts.runs = value().parse().unwrap_or_else(|_| usage(arg)),
                "--warmup" => opts.warmup = value().parse().unwrap_or_else(|_| usage(arg)),
                "--bin" => opts.bin = PathBuf::from(value()),
                "--baseline" => opts.baseline = Some(PathBuf::from(value())),
                "--also" => {
                    let spec = value();
                    let (name, path) = spec.split_once('=').unwrap_or_else(|| usage(arg));
                    opts.extra.push((name.to_string(), PathBuf::from(path)));
                }
                "--only" => opts.only = Some(value().split(',').map(str::to_string).collect()),
                "--no-callgrind" => opts.callgrind = false,
                // `cargo bench` passes `--bench` to every bench target.
                "--bench" => {}
                _ => usage(arg),
            }
        }
        opts.runs = opts.runs.max(1);
        opts
    }

    fn wants(&self, group: &str) -> bool {
        self.only
            .as_ref()
            .is_none_or(|only| only.iter().any(|g| g == group))
    }
}

fn usage(arg: &str) -> ! {
    eprintln!(
        "bench: bad argument `{arg}`\n\
         usage: cargo bench --bench hookx -- [--runs N] [--warmup N] [--bin PATH] \
         [--baseline PATH] [--also NAME=PATH]... [--only startup,convert,sync,parallel] [--no-callgrind]"
    );
    std::process::exit(2)
}

/// One process to start: what a host would run.
#[derive(Clone)]
struct Case {
    program: PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
    cwd: PathBuf,
    stdin: Vec<u8>,
}

impl Case {
    fn command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args);
        self.configure(cmd)
    }

    /// The case's directory and environment on some command (the case itself, or a wrapper
    /// that starts it).
    fn configure(&self, mut cmd: Command) -> Command {
        cmd.current_dir(&self.cwd);
        // Whatever agent runs the benchmark must not leak into the cases.
        for var in [
            "CLAUDE_PROJECT_DIR",
            "COPILOT_CLI",
            "BRICKS_PROJECT_DIR",
            "BRICKS_HOOK_EVENT",
            "HOOKX_HOME",
        ] {
            cmd.env_remove(var);
        }
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        cmd
    }

    /// `wrapper… PROGRAM ARGS…` in the case's directory and environment.
    fn wrapped(&self, wrapper: &Path, wrapper_args: &[&str]) -> Command {
        let mut cmd = Command::new(wrapper);
        cmd.args(wrapper_args).arg(&self.program).args(&self.args);
        self.configure(cmd)
    }

    /// Starts the process, feeds stdin, drains stdout and stderr; returns the wall time.
    fn time(&self) -> Duration {
        let start = Instant::now();
        let mut child = self
            .command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.program.display()));
        let mut stdin = child.stdin.take().expect("piped stdin");
        let payload = self.stdin.clone();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&payload);
        });
        let out = child.wait_with_output().expect("wait");
        let elapsed = start.elapsed();
        let _ = writer.join();
        wait_for_leftovers();
        assert!(
            out.status.success(),
            "{} {:?} failed: {}\n{}",
            self.program.display(),
            self.args,
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        elapsed
    }

    /// Runs `cmd` with the case's stdin, and its output.
    fn fed(&self, mut cmd: Command) -> Option<std::process::Output> {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .ok()?;
        let mut stdin = child.stdin.take()?;
        let _ = stdin.write_all(&self.stdin);
        drop(stdin);
        child.wait_with_output().ok()
    }

    /// Peak resident set (KiB) over a few runs, measured by a probe process that runs the case
    /// as its only child and reads `getrusage(RUSAGE_CHILDREN)` (hookx's own children included).
    fn max_rss_kib(&self, runs: usize) -> Option<u64> {
        let exe = std::env::current_exe().ok()?;
        let mut best = None;
        for _ in 0..runs {
            let out = self.fed(self.wrapped(&exe, &[PROBE]))?;
            let kib: u64 = String::from_utf8_lossy(&out.stdout).trim().parse().ok()?;
            best = Some(best.map_or(kib, |b: u64| b.max(kib)));
        }
        best
    }

    /// Instructions executed by the process itself (not its children), by callgrind.
    fn instructions(&self) -> Option<u64> {
        let out = self.fed(self.wrapped(
            Path::new("valgrind"),
            &[
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                "--trace-children=no",
            ],
        ))?;
        let err = String::from_utf8_lossy(&out.stderr);
        let line = err.lines().find(|l| l.contains("Collected :"))?;
        line.rsplit(':').next()?.trim().parse().ok()
    }
}

/// Waits, untimed, for what the last run left running (the guardian freeing hookx's memory, a
/// split worker's handlers): else it runs during the next case, and on a busy machine slows it
/// (attacks row 1000). On Linux they are this harness's children by then: it is their
/// subreaper.
fn wait_for_leftovers() {
    #[cfg(target_os = "linux")]
    while let Ok(Some(_)) = rustix::process::wait(rustix::process::WaitOptions::empty()) {}
}

/// Hidden first argument: run the rest as a child, print its peak RSS.
const PROBE: &str = "__hookx_bench_rss_probe";

/// Where the floors run from: a copy of this harness (see the module's doc).
fn floor_exe(root: &Path) -> PathBuf {
    root.join("bin").join("floor")
}

/// Makes this binary the floor: a Rust program that only passes its stdin to the no-op handler
/// through pipes and waits for it, as any tool between the agent and the handler must.
const FLOOR: &str = "__hookx_bench_floor";

fn floor() -> ! {
    let mut input = Vec::new();
    std::io::Read::read_to_end(&mut std::io::stdin(), &mut input).expect("floor: stdin");
    let mut child = Command::new("/bin/sh")
        .args(["-c", "true"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("floor: cannot start sh");
    let _ = child.stdin.take().expect("piped").write_all(&input);
    let out = child.wait_with_output().expect("floor: wait");
    std::process::exit(out.status.code().unwrap_or(1))
}

/// Makes this binary the floor of `convert`: a Rust program that only parses a JSON file with
/// serde_json (hookx's own build of it, key order kept) and pretty-prints it to stdout.
const JSON_FLOOR: &str = "__hookx_bench_json_floor";

fn json_floor(path: &str) -> ! {
    let text = std::fs::read_to_string(path).expect("json floor: read");
    let value: serde_json::Value = serde_json::from_str(&text).expect("json floor: parse");
    let mut out = serde_json::to_string_pretty(&value).expect("json floor: print");
    out.push('\n');
    std::io::stdout()
        .write_all(out.as_bytes())
        .expect("json floor: write");
    std::process::exit(0)
}

fn probe(argv: &[String]) -> ! {
    let status = Command::new(&argv[0])
        .args(&argv[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("probe: cannot start the case");
    if !status.success() {
        std::process::exit(1);
    }
    println!("{}", children_max_rss_kib());
    std::process::exit(0)
}

/// `getrusage(RUSAGE_CHILDREN).ru_maxrss` (KiB on Linux), declared here so that the harness
/// needs no crate for it.
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn children_max_rss_kib() -> u64 {
    /// `struct rusage` on 64-bit Linux: two `timeval`s, then 14 `long`s, `ru_maxrss` first.
    #[repr(C)]
    struct Rusage {
        utime: [i64; 2],
        stime: [i64; 2],
        maxrss: i64,
        rest: [i64; 13],
    }
    unsafe extern "C" {
        fn getrusage(who: i32, usage: *mut Rusage) -> i32;
    }
    const RUSAGE_CHILDREN: i32 = -1;
    let mut usage = Rusage {
        utime: [0; 2],
        stime: [0; 2],
        maxrss: 0,
        rest: [0; 13],
    };
    // SAFETY: `usage` is a valid, writable `struct rusage` for this target.
    let rc = unsafe { getrusage(RUSAGE_CHILDREN, &mut usage) };
    if rc == 0 { usage.maxrss as u64 } else { 0 }
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn children_max_rss_kib() -> u64 {
    0
}

/// A temporary project and home, its hook file trusted through `hookx trust`.
struct Project {
    dir: PathBuf,
    home: PathBuf,
}

impl Project {
    fn new(root: &Path, name: &str, files: &[(&str, String)], hookx: &Path) -> Project {
        let dir = root.join(name).join("project");
        let home = root.join(name).join("home");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        for (rel, text) in files {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let project = Project { dir, home };
        if !files.is_empty() {
            let out = Command::new(hookx)
                .args(["trust", "--yes"])
                .arg("--project")
                .arg(&project.dir)
                .env("HOOKX_HOME", &project.home)
                .output()
                .expect("hookx trust");
            assert!(
                out.status.success(),
                "hookx trust failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        project
    }
}

/// A host and the payload it sends for one `PreToolUse` of its shell tool.
#[derive(Clone, Copy, PartialEq)]
enum Host {
    Claude,
    Copilot,
    Bricks,
}

impl Host {
    fn name(self) -> &'static str {
        match self {
            Host::Claude => "claude",
            Host::Copilot => "copilot",
            Host::Bricks => "bricks",
        }
    }

    fn event(self) -> &'static str {
        match self {
            Host::Copilot => "preToolUse",
            _ => "PreToolUse",
        }
    }

    fn payload(self, project: &Path) -> Vec<u8> {
        let cwd = project.display().to_string();
        let value = match self {
            Host::Claude => serde_json::json!({
                "session_id": "bench",
                "transcript_path": "/tmp/bench.jsonl",
                "cwd": cwd,
                "permission_mode": "default",
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": "ls -la", "description": "List files"},
            }),
            Host::Bricks => serde_json::json!({
                "session_id": "bench",
                "cwd": cwd,
                "hook_event_name": "PreToolUse",
                "tool_name": "bash",
                "tool_input": {"command": "ls -la"},
            }),
            Host::Copilot => serde_json::json!({
                "timestamp": 1_700_000_000_000u64,
                "cwd": cwd,
                "toolName": "bash",
                "toolArgs": "{\"command\":\"ls -la\"}",
            }),
        };
        serde_json::to_vec(&value).unwrap()
    }

    fn env(self, project: &Path, home: &Path) -> Vec<(String, String)> {
        let dir = project.display().to_string();
        // HOME for what the handlers read; `hookx run` takes its home from `--home` (see
        // `run_case`), never from HOME or HOOKX_HOME.
        let mut env = vec![("HOME".to_string(), home.display().to_string())];
        match self {
            Host::Claude => env.push(("CLAUDE_PROJECT_DIR".into(), dir)),
            Host::Bricks => env.push(("BRICKS_PROJECT_DIR".into(), dir)),
            Host::Copilot => env.push(("COPILOT_CLI".into(), "1".into())),
        }
        env
    }

    fn run_case(self, hookx: &Path, project: &Project) -> Case {
        Case {
            program: hookx.to_path_buf(),
            args: vec![
                "run".into(),
                "--host".into(),
                self.name().into(),
                "--event".into(),
                self.event().into(),
                // As install writes it on a route: without it, `run` takes the account's
                // home, not the one the project's files were trusted in.
                "--home".into(),
                project.home.display().to_string(),
            ],
            env: self.env(&project.dir, &project.home),
            cwd: project.dir.clone(),
            stdin: self.payload(&project.dir),
        }
    }
}

/// A Bricks `hooks.json` of `n` rules spread over five events, exact tool lists and regexes
/// mixed, of which only the last (`PreToolUse` on `bash`, running `command`) fires for the
/// benchmark's event. Every handler is distinct, so nothing is de-duplicated away.
fn bricks_rules(n: usize, command: &str) -> String {
    const EVENTS: [&str; 5] = [
        "PostToolUse",
        "UserPromptSubmit",
        "SessionStart",
        "Stop",
        "PreToolUse",
    ];
    let mut by_event: Vec<Vec<serde_json::Value>> = vec![Vec::new(); EVENTS.len()];
    for i in 0..n.saturating_sub(1) {
        let e = i % EVENTS.len();
        let matcher = match EVENTS[e] {
            "PreToolUse" | "PostToolUse" if i % 2 == 0 => format!("tool_{i}|other_{i}"),
            "PreToolUse" | "PostToolUse" => format!("mcp__server{i}__.*"),
            "SessionStart" => "startup|resume".to_string(),
            _ => String::new(),
        };
        let mut rule = serde_json::json!({
            "hooks": [{"type": "command", "command": format!("echo rule {i}"), "timeout": 10}]
        });
        if !matcher.is_empty() {
            rule["matcher"] = matcher.into();
        }
        by_event[e].push(rule);
    }
    by_event[EVENTS.len() - 1].push(serde_json::json!({
        "matcher": "bash",
        "hooks": [{"type": "command", "command": command, "timeout": 10}]
    }));
    let mut hooks = serde_json::Map::new();
    for (name, rules) in EVENTS.iter().zip(by_event) {
        if !rules.is_empty() {
            hooks.insert((*name).to_string(), rules.into());
        }
    }
    serde_json::to_string_pretty(&serde_json::json!({ "hooks": hooks })).unwrap()
}

/// A Copilot hook file with one handler per command, all on `preToolUse`.
fn copilot_handlers(commands: &[String]) -> String {
    let handlers: Vec<_> = commands
        .iter()
        .map(|c| serde_json::json!({"type": "command", "bash": c, "timeoutSec": 10}))
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({
        "version": 1,
        "hooks": {"preToolUse": handlers},
    }))
    .unwrap()
}

/// What a row measured.
enum Kind {
    /// The no-op handler started directly: what every other row is compared with.
    Direct,
    /// The least any program between agent and handler costs (see [`FLOOR`]).
    Floor,
    /// `hookx run` or `hookx exec` starting the no-op handler; `rules` in the hook set.
    Hookx { rules: Option<usize> },
    /// `hookx convert` of a config of `rules` rules.
    Convert { rules: usize },
    /// `hookx sync --dry-run` of a source of `rules` rules into one target.
    Sync { rules: usize },
    /// serde_json parsing and pretty-printing the same config (see [`JSON_FLOOR`]).
    ConvertFloor { rules: usize },
    /// One trusted rule beside this many hostile untrusted files.
    Untrusted { files: usize },
    /// One trusted rule in a home holding Claude plugin marketplaces (see [`lived_in_home`]).
    LivedIn,
    /// Eight sleeping handlers under one host.
    Sleepers { parallel: bool },
    /// One sleeping handler started directly.
    Sleep,
}

struct Row {
    group: &'static str,
    label: String,
    bin: String,
    kind: Kind,
    samples: Vec<Duration>,
    rss_kib: Option<u64>,
    instructions: Option<u64>,
}

impl Row {
    fn median(&self) -> f64 {
        quantile(&self.samples, 0.5)
    }

    fn p95(&self) -> f64 {
        quantile(&self.samples, 0.95)
    }
}

/// Nearest-rank quantile, in milliseconds.
fn quantile(samples: &[Duration], q: f64) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort();
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1].as_secs_f64() * 1e3
}

/// Runs `warmup` untimed rounds, then `runs` timed rounds, each round one run of every case in
/// order: load changes during the group hit every case alike.
fn measure(cases: &[Case], runs: usize, warmup: usize, what: &str) -> Vec<Vec<Duration>> {
    eprint!("bench: {what}: {} cases × {runs} runs ", cases.len());
    for _ in 0..warmup {
        for case in cases {
            case.time();
        }
    }
    let mut samples = vec![Vec::with_capacity(runs); cases.len()];
    for round in 0..runs {
        for (case, out) in cases.iter().zip(&mut samples) {
            out.push(case.time());
        }
        if round % (runs / 10).max(1) == 0 {
            eprint!(".");
        }
    }
    eprintln!();
    samples
}

/// Builds rows from cases, measuring time, memory and (optionally) instructions.
fn rows_for(
    group: &'static str,
    cases: Vec<(String, String, Kind, Case, bool)>,
    runs: usize,
    warmup: usize,
    callgrind: bool,
) -> Vec<Row> {
    let plain: Vec<Case> = cases.iter().map(|c| c.3.clone()).collect();
    let samples = measure(&plain, runs, warmup, group);
    cases
        .into_iter()
        .zip(samples)
        .map(|((label, bin, kind, case, count), samples)| {
            let rss_kib = case.max_rss_kib(5);
            let instructions = (count && callgrind).then(|| case.instructions()).flatten();
            Row {
                group,
                label,
                bin,
                kind,
                samples,
                rss_kib,
                instructions,
            }
        })
        .collect()
}

fn direct(program: &str, args: &[&str], project: &Project, stdin: Vec<u8>) -> Case {
    Case {
        program: PathBuf::from(program),
        args: args.iter().map(|s| s.to_string()).collect(),
        env: Vec::new(),
        cwd: project.dir.clone(),
        stdin,
    }
}

/// Group 1 and 2: the no-op handler directly, through `hookx exec`, and through `hookx run`
/// over hook sets of 1 … 10 000 rules.
/// Untrusted files in the hostile row of the startup group.
const UNTRUSTED_FILES: usize = 1000;

fn startup_group(root: &Path, bins: &[(String, PathBuf)], opts: &Opts) -> Vec<Row> {
    let host = Host::Claude;
    let trusting = &bins.last().unwrap().1;
    let projects: Vec<(usize, Project)> = SIZES
        .iter()
        .map(|&n| {
            let files = [(".bricks/hooks.json", bricks_rules(n, "true"))];
            (
                n,
                Project::new(root, &format!("rules-{n}"), &files, trusting),
            )
        })
        .collect();
    // One trusted rule, then (after `hookx trust`) untrusted files built to hurt beside it:
    // runaway, huge and invalid matchers, `disableAllHooks`, a copy of the trusted handler.
    let hostile = Project::new(
        root,
        "untrusted",
        &[(".bricks/hooks.json", bricks_rules(1, "true"))],
        trusting,
    );
    let huge: Vec<String> = (0..2000).map(|i| format!("t{i}.")).collect();
    let matchers = [
        "(a+)+$".to_string(),
        ".*".repeat(20) + "Z",
        huge.join("|"),
        "(".into(),
    ];
    for i in 0..UNTRUSTED_FILES {
        let path = hostile.dir.join(format!(".github/hooks/evil{i:04}.json"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let text = serde_json::json!({"version": 1, "disableAllHooks": true, "hooks": {
            "preToolUse": [{"type": "command", "bash": "true", "matcher": matchers[i % 4]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}],
        }});
        std::fs::write(path, text.to_string()).unwrap();
    }
    // One trusted rule, then (after `hookx trust`) a home as a Claude user's looks.
    let lived_in = Project::new(
        root,
        "lived-in",
        &[(".bricks/hooks.json", bricks_rules(1, "true"))],
        trusting,
    );
    let home = lived_in_home(&lived_in.home);
    let first = &projects[0].1;
    let mut cases = vec![(
        "no-op handler directly (`sh -c true`)".to_string(),
        "-".to_string(),
        Kind::Direct,
        direct("sh", &["-c", "true"], first, host.payload(&first.dir)),
        false,
    )];
    let this = floor_exe(root);
    cases.push((
        "floor: a Rust program relaying stdin to it".to_string(),
        "-".to_string(),
        Kind::Floor,
        direct(
            this.to_str().expect("utf-8 path"),
            &[FLOOR],
            first,
            host.payload(&first.dir),
        ),
        false,
    ));
    for (name, bin) in bins {
        cases.push((
            "`hookx exec --as bricks`, 1 handler".to_string(),
            name.clone(),
            Kind::Hookx { rules: None },
            Case {
                program: bin.clone(),
                args: [
                    "exec",
                    "--host",
                    "claude",
                    "--as",
                    "bricks",
                    "--event",
                    "PreToolUse",
                    "--match",
                    "bash",
                    "--",
                    "true",
                ]
                .iter()
                .map(|s| s.to_string())
                .collect(),
                env: host.env(&first.dir, &first.home),
                cwd: first.dir.clone(),
                stdin: host.payload(&first.dir),
            },
            true,
        ));
        for (n, project) in &projects {
            cases.push((
                match n {
                    1 => "`hookx run --host claude`, 1 rule, empty home".to_string(),
                    n => format!("`hookx run --host claude`, {n} rules"),
                },
                name.clone(),
                Kind::Hookx { rules: Some(*n) },
                host.run_case(bin, project),
                true,
            ));
        }
        cases.push((
            format!(
                "`hookx run --host claude`, 1 rule, lived-in home ({} marketplaces, {} dirs, {} plugin hook files)",
                home.marketplaces, home.dirs, home.hook_files
            ),
            name.clone(),
            Kind::LivedIn,
            host.run_case(bin, &lived_in),
            true,
        ));
        cases.push((
            format!(
                "`hookx run --host claude`, 1 rule + {UNTRUSTED_FILES} hostile untrusted files"
            ),
            name.clone(),
            Kind::Untrusted {
                files: UNTRUSTED_FILES,
            },
            host.run_case(bin, &hostile),
            true,
        ));
    }
    rows_for("startup", cases, opts.runs, opts.warmup, opts.callgrind)
}

/// What [`lived_in_home`] made.
struct LivedIn {
    marketplaces: usize,
    dirs: usize,
    hook_files: usize,
}

/// Fills `home` as a Claude Code user's looks after adding three plugin marketplaces (the
/// home issue 11 measured): each a git clone under `~/.claude/plugins/marketplaces/` (its
/// `.git/objects` fan-out, a catalog, 20 plugins with skills, commands and a `hooks/hooks.json`),
/// a few plugins installed into `~/.claude/plugins/cache/`, and the registries as Claude
/// 2.1.332 writes them (`known_marketplaces.json`, `installed_plugins.json` version 2; see
/// `tests/fixtures/recorded/claude-2.1.332/plugins/facts.json`). No plugin is enabled (the
/// installed ones are set to `false` in `enabledPlugins`) and none is trusted: hookx must not
/// run any of them, and must not pay for them either.
fn lived_in_home(home: &Path) -> LivedIn {
    const MARKETPLACES: [&str; 3] = ["acme-tools", "community-plugins", "team-internal"];
    const PLUGINS: usize = 20;
    const SKILLS: usize = 10;
    const INSTALLED: usize = 4;
    let plugins = home.join(".claude/plugins");
    let mut hook_files = 0;
    let mkdir = |path: &Path| std::fs::create_dir_all(path).unwrap();
    let hooks = |name: &str| {
        serde_json::json!({
            "description": format!("{name}: checks before shell and file tools"),
            "hooks": {
                "PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit", "hooks": [
                    {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/check.sh", "timeout": 10}
                ]}],
                "PostToolUse": [{"matcher": "Write|Edit", "hooks": [
                    {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/format.sh"}
                ]}],
                "SessionStart": [{"matcher": "startup", "hooks": [
                    {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/hooks/start.sh"}
                ]}]
            }
        })
    };
    let write = |path: PathBuf, value: serde_json::Value| {
        std::fs::write(path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    };
    let mut known = serde_json::Map::new();
    let mut installed = serde_json::Map::new();
    let mut enabled = serde_json::Map::new();
    for market in MARKETPLACES {
        let clone = plugins.join("marketplaces").join(market);
        for git in [
            "refs/heads",
            "refs/remotes/origin",
            "refs/tags",
            "hooks",
            "info",
            "logs/refs/heads",
        ] {
            mkdir(&clone.join(".git").join(git));
        }
        for byte in 0..=255u8 {
            mkdir(&clone.join(format!(".git/objects/{byte:02x}")));
        }
        mkdir(&clone.join(".claude-plugin"));
        let mut catalog = Vec::new();
        for p in 0..PLUGINS {
            let name = format!("{market}-plugin-{p:02}");
            let dir = clone.join("plugins").join(&name);
            mkdir(&dir.join(".claude-plugin"));
            mkdir(&dir.join("hooks"));
            mkdir(&dir.join("commands"));
            mkdir(&dir.join("agents"));
            for s in 0..SKILLS {
                mkdir(&dir.join(format!("skills/skill-{s}/references")));
            }
            write(
                dir.join(".claude-plugin/plugin.json"),
                serde_json::json!({"name": name, "version": "1.0.0", "description": name}),
            );
            write(dir.join("hooks/hooks.json"), hooks(&name));
            hook_files += 1;
            catalog.push(serde_json::json!({
                "name": name, "source": format!("./plugins/{name}"), "description": name
            }));
            if p < INSTALLED {
                let id = format!("{name}@{market}");
                let cache = plugins.join("cache").join(market).join(&name).join("1.0.0");
                mkdir(&cache.join("hooks"));
                write(cache.join("hooks/hooks.json"), hooks(&name));
                hook_files += 1;
                installed.insert(
                    id.clone(),
                    serde_json::json!([{
                        "scope": "user",
                        "installPath": cache.display().to_string(),
                        "version": "1.0.0",
                        "installedAt": "2026-12-01T14:53:24.000Z",
                        "lastUpdated": "2026-12-01T14:53:24.000Z",
                        "gitCommitSha": "0123456789abcdef0123456789abcdef01234567"
                    }]),
                );
                enabled.insert(id, false.into());
            }
        }
        write(
            clone.join(".claude-plugin/marketplace.json"),
            serde_json::json!({"name": market, "owner": {"name": market}, "plugins": catalog}),
        );
        known.insert(
            market.to_string(),
            serde_json::json!({
                "source": {"source": "git", "url": format!("https://example.com/{market}.git")},
                "installLocation": clone.display().to_string(),
                "lastUpdated": "2026-12-01T14:53:21.469Z"
            }),
        );
    }
    write(plugins.join("known_marketplaces.json"), known.into());
    write(
        plugins.join("installed_plugins.json"),
        serde_json::json!({"version": 2, "plugins": installed}),
    );
    write(
        home.join(".claude/settings.json"),
        serde_json::json!({
            "permissions": {"allow": ["Bash(git status)", "Read"]},
            "enabledPlugins": enabled,
        }),
    );
    LivedIn {
        marketplaces: MARKETPLACES.len(),
        dirs: count_dirs(&plugins),
        hook_files,
    }
}

/// Directories under `dir`, itself included.
fn count_dirs(dir: &Path) -> usize {
    1 + std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| count_dirs(&e.path()))
        .sum::<usize>()
}

/// Group 3: `hookx convert` of 10 … 10 000 rules (Bricks to Claude), of the 10 000-rule file
/// read as Claude's to Copilot (every matcher translated), and the floor: serde_json parsing and
/// pretty-printing the same file.
fn convert_group(root: &Path, bins: &[(String, PathBuf)], opts: &Opts) -> Vec<Row> {
    let dir = root.join("convert");
    std::fs::create_dir_all(&dir).unwrap();
    let project = Project {
        dir: dir.clone(),
        home: dir.clone(),
    };
    let file = |n: usize| {
        let file = dir.join(format!("hooks-{n}.json"));
        if !file.exists() {
            std::fs::write(&file, bricks_rules(n, "true")).unwrap();
        }
        file.display().to_string()
    };
    let this = floor_exe(root);
    let mut cases = Vec::new();
    for &n in &SIZES[1..] {
        cases.push((
            format!("floor: serde_json parse + pretty-print, {n} rules"),
            "-".to_string(),
            Kind::ConvertFloor { rules: n },
            direct(
                this.to_str().expect("utf-8 path"),
                &[JSON_FLOOR, &file(n)],
                &project,
                Vec::new(),
            ),
            true,
        ));
    }
    let largest = *SIZES.last().unwrap();
    for (name, bin) in bins {
        let convert = |n: usize, from: &str, to: &str| Case {
            program: bin.clone(),
            args: ["convert", &file(n), "--from", from, "--to", to]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            env: Vec::new(),
            cwd: project.dir.clone(),
            stdin: Vec::new(),
        };
        for &n in &SIZES[1..] {
            cases.push((
                format!("`hookx convert --to claude`, {n} rules"),
                name.clone(),
                Kind::Convert { rules: n },
                convert(n, "bricks", "claude"),
                true,
            ));
        }
        cases.push((
            format!("`hookx convert --from claude --to copilot`, {largest} rules"),
            name.clone(),
            Kind::Convert { rules: largest },
            convert(largest, "claude", "copilot"),
            true,
        ));
    }
    rows_for("convert", cases, opts.runs, opts.warmup, opts.callgrind)
}

/// Rules of the sync group's source.
const SYNC_RULES: usize = 200;

/// Group 4: `hookx sync --dry-run` of a Claude file of [`SYNC_RULES`] rules (one `PreToolUse`
/// `Bash` handler each, about 230 bytes) into Gemini's file: with no file yet (the entries
/// written, each then given its digest) and after the first rule changed (every entry removed
/// and written again). The merge edits the target once per entry (attacks row 2323); a dry run
/// writes nothing, so every run does the same work.
fn sync_group(root: &Path, bins: &[(String, PathBuf)], opts: &Opts) -> Vec<Row> {
    let trusting = &bins.last().unwrap().1;
    let source = |first: &str| {
        let rules: Vec<serde_json::Value> = (0..SYNC_RULES)
            .map(|i| {
                let command = match i {
                    0 => format!("echo rule0 {first}"),
                    _ => format!("echo rule{i} {}", "x".repeat(200)),
                };
                serde_json::json!({"matcher": "Bash", "hooks": [{"type": "command", "command": command}]})
            })
            .collect();
        serde_json::json!({"hooks": {"PreToolUse": rules}}).to_string()
    };
    let manifest = "version = 1\nsources = [{ path = \".claude/settings.json\", from = \"claude\" }]\n[targets.gemini]\n";
    let project = |name: &str| {
        let files = [
            (".claude/settings.json", source("first")),
            (".hookx/sync.toml", manifest.to_string()),
        ];
        let project = Project::new(root, name, &files, trusting);
        std::fs::create_dir_all(project.dir.join(".git")).unwrap();
        project
    };
    let hookx = |bin: &Path, project: &Project, args: &[&str]| {
        let out = Command::new(bin)
            .args(args)
            .arg("--project")
            .arg(&project.dir)
            .arg("--home")
            .arg(&project.home)
            .current_dir(&project.dir)
            .output()
            .expect("hookx");
        assert!(
            out.status.success(),
            "hookx {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let fresh = project("sync-fresh");
    let changed = project("sync-changed");
    hookx(trusting, &changed, &["sync"]);
    std::fs::write(changed.dir.join(".claude/settings.json"), source("changed")).unwrap();
    hookx(trusting, &changed, &["trust", "--yes"]);
    let mut cases = Vec::new();
    for (name, bin) in bins {
        for (project, what) in [
            (&fresh, "no file yet"),
            (&changed, "after one rule changed"),
        ] {
            cases.push((
                format!("`hookx sync --dry-run`, {SYNC_RULES} rules into Gemini's file, {what}"),
                name.clone(),
                Kind::Sync { rules: SYNC_RULES },
                Case {
                    program: bin.clone(),
                    args: ["sync", "--dry-run", "--project", ".", "--home"]
                        .iter()
                        .map(|s| s.to_string())
                        .chain([project.home.display().to_string()])
                        .collect(),
                    env: vec![("HOME".into(), project.home.display().to_string())],
                    cwd: project.dir.clone(),
                    stdin: Vec::new(),
                },
                true,
            ));
        }
    }
    rows_for("sync", cases, opts.runs, opts.warmup, opts.callgrind)
}

/// Group 5: eight handlers sleeping 200 ms, under hosts that run hooks in parallel (Claude,
/// Bricks) and in order (Copilot).
fn parallel_group(root: &Path, bins: &[(String, PathBuf)], opts: &Opts) -> Vec<Row> {
    let trusting = &bins.last().unwrap().1;
    let sleepers: Vec<String> = (0..SLEEPERS)
        .map(|i| format!("sleep {SLEEP}; : handler {i}"))
        .collect();
    let as_bricks = {
        let rules: Vec<_> = sleepers
            .iter()
            .map(|c| serde_json::json!({"matcher": "bash", "hooks": [{"type": "command", "command": c}]}))
            .collect();
        serde_json::to_string_pretty(&serde_json::json!({"hooks": {"PreToolUse": rules}})).unwrap()
    };
    // Each host gets a hook file it does not read itself, so that hookx runs it.
    let claude = Project::new(
        root,
        "sleep-claude",
        &[(".bricks/hooks.json", as_bricks.clone())],
        trusting,
    );
    let bricks = Project::new(
        root,
        "sleep-bricks",
        &[(".github/hooks/bench.json", copilot_handlers(&sleepers))],
        trusting,
    );
    let copilot = Project::new(
        root,
        "sleep-copilot",
        &[(".bricks/hooks.json", as_bricks)],
        trusting,
    );
    let mut cases = vec![(
        format!("one `sleep {SLEEP}` directly"),
        "-".to_string(),
        Kind::Sleep,
        direct(
            "sh",
            &["-c", &format!("sleep {SLEEP}")],
            &claude,
            Host::Claude.payload(&claude.dir),
        ),
        false,
    )];
    for (name, bin) in bins {
        for (host, project, parallel) in [
            (Host::Claude, &claude, true),
            (Host::Bricks, &bricks, true),
            (Host::Copilot, &copilot, false),
        ] {
            cases.push((
                format!(
                    "{SLEEPERS} × `sleep {SLEEP}`, `hookx run --host {}` ({})",
                    host.name(),
                    if parallel { "parallel" } else { "in order" }
                ),
                name.clone(),
                Kind::Sleepers { parallel },
                host.run_case(bin, project),
                false,
            ));
        }
    }
    rows_for("parallel", cases, sleeper_runs(opts), 1, false)
}

fn sleeper_runs(opts: &Opts) -> usize {
    (opts.runs / 20).max(5)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "n/a".into())
}

fn cpus() -> usize {
    std::thread::available_parallelism().map_or(0, |n| n.get())
}

fn print_report(
    opts: &Opts,
    bins: &[(String, PathBuf)],
    rows: &[Row],
    load_before: &str,
    load_after: &str,
    took: Duration,
) {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "hookx benchmark: {} runs per case after {} warm-up runs ({} runs for the 200 ms groups); \
         {} CPUs; load average {load_before} before, {load_after} after; took {:.0} s",
        opts.runs,
        opts.warmup,
        sleeper_runs(opts),
        cpus(),
        took.as_secs_f64()
    );
    for (name, bin) in bins {
        let _ = writeln!(out, "{name}: {}", bin.display());
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "| case | bin | median ms | p95 ms | added median ms | added p95 ms | ratio | max RSS MB | instructions | check |"
    );
    let _ = writeln!(out, "|---|---|--:|--:|--:|--:|--:|--:|--:|---|");
    let base = |group: &str| {
        rows.iter()
            .find(|r| r.group == group && matches!(r.kind, Kind::Direct | Kind::Sleep))
    };
    for row in rows {
        let (median, p95) = (row.median(), row.p95());
        let reference = base(row.group);
        let (added, added95, ratio) = match (&row.kind, reference) {
            (
                Kind::Floor
                | Kind::Hookx { .. }
                | Kind::LivedIn
                | Kind::Untrusted { .. }
                | Kind::Sleepers { .. },
                Some(r),
            ) => (
                format!("{:+.2}", median - r.median()),
                format!("{:+.2}", p95 - r.p95()),
                format!("{:.2}×", median / r.median()),
            ),
            _ => ("".into(), "".into(), "".into()),
        };
        let check = [check(row, rows, reference), regression(row, rows)]
            .into_iter()
            .filter(|c| !c.is_empty())
            .collect::<Vec<_>>()
            .join("; ");
        let rss = row
            .rss_kib
            .map_or("n/a".into(), |k| format!("{:.1}", k as f64 / 1024.0));
        let ir = row.instructions.map_or(String::new(), group_digits);
        let _ = writeln!(
            out,
            "| {} | {} | {median:.2} | {p95:.2} | {added} | {added95} | {ratio} | {rss} | {ir} | {check} |",
            row.label, row.bin
        );
    }
    print!("{out}");
}

/// Whether a row meets the target, with the figure that decides it.
fn check(row: &Row, rows: &[Row], reference: Option<&Row>) -> String {
    let ok = |pass: bool| if pass { "ok" } else { "MISSED" };
    let rss_ok = row.rss_kib.is_none_or(|k| k <= 10 * 1024);
    match (&row.kind, reference) {
        (Kind::Hookx { rules: None } | Kind::Hookx { rules: Some(1) } | Kind::LivedIn, Some(r)) => {
            let added = row.median() - r.median();
            match rows.iter().find(|o| matches!(o.kind, Kind::Floor)) {
                Some(f) => {
                    let times = added / (f.median() - r.median());
                    format!(
                        "{}: adds {times:.2}× what the floor adds ≤ 1.3×, RSS < 10 MB; \
                         {:+.2} ms over the floor",
                        ok(times <= 1.3 && rss_ok),
                        row.median() - f.median()
                    )
                }
                None => format!("+{added:.2} ms"),
            }
        }
        (Kind::Hookx { rules: Some(n) }, Some(r)) => {
            let one = rows
                .iter()
                .find(|o| o.bin == row.bin && matches!(o.kind, Kind::Hookx { rules: Some(1) }));
            let per_rule = one.map(|o| (row.median() - o.median()) * 1e3 / (*n as f64 - 1.0));
            let per = per_rule.map_or(String::new(), |p| format!("{p:.2} µs/rule over 1 rule"));
            if *n == 10_000 {
                let added = row.median() - r.median();
                format!(
                    "{}: +{added:.2} ms ≤ 10 ms, RSS ≤ 10 MB; {per}",
                    ok(added <= 10.0 && rss_ok)
                )
            } else {
                per
            }
        }
        (Kind::Untrusted { files }, _) => {
            let one = rows
                .iter()
                .find(|o| o.bin == row.bin && matches!(o.kind, Kind::Hookx { rules: Some(1) }));
            one.map_or(String::new(), |o| {
                let per = (row.median() - o.median()) * 1e3 / *files as f64;
                format!("{per:.2} µs per untrusted file over 1 rule")
            })
        }
        (Kind::Convert { rules }, _) => {
            let per_rule = format!("{:.2} µs/rule", row.median() * 1e3 / *rules as f64);
            let floor = rows
                .iter()
                .find(|o| matches!(o.kind, Kind::ConvertFloor { rules: f } if f == *rules));
            match floor {
                Some(f) if *rules == 10_000 => {
                    let times = row.median() / f.median();
                    let ir = match (row.instructions, f.instructions) {
                        (Some(a), Some(b)) => {
                            format!("; {:.2}× the floor's instructions", a as f64 / b as f64)
                        }
                        _ => String::new(),
                    };
                    format!(
                        "{}: {times:.2}× the floor ≤ 2×{ir}; {per_rule}",
                        ok(times <= 2.0)
                    )
                }
                Some(f) => format!("{:.2}× the floor; {per_rule}", row.median() / f.median()),
                None => per_rule,
            }
        }
        (Kind::Sync { rules }, _) => {
            format!("{:.2} µs/rule", row.median() * 1e3 / *rules as f64)
        }
        (Kind::Sleepers { parallel: true }, _) => {
            format!(
                "{}: {:.0} ms < 300 ms",
                ok(row.median() < 300.0),
                row.median()
            )
        }
        (Kind::Sleepers { parallel: false }, _) => {
            format!("in order: {:.0} ms ≈ {SLEEPERS} × 200 ms", row.median())
        }
        _ => String::new(),
    }
}

/// Slower than the baseline by more than this share is a regression: of its instructions where
/// callgrind counted them, else of its median time (rows of one run differ by a few per cent on
/// a quiet machine).
const REGRESSION_TOLERANCE: f64 = 0.05;

/// The last target: no case slower than the baseline (`before`, measured in the same
/// rounds). Only `after` is compared: it is built the same way as the baseline.
fn regression(row: &Row, rows: &[Row]) -> String {
    if row.bin != "after" {
        return String::new();
    }
    let Some(before) = rows
        .iter()
        .find(|o| o.bin == "before" && o.group == row.group && o.label == row.label)
    else {
        return String::new();
    };
    let bound = 1.0 + REGRESSION_TOLERANCE;
    let ok = |pass: bool| if pass { "ok" } else { "MISSED" };
    let times = row.median() / before.median();
    match (row.instructions, before.instructions) {
        // Instruction counts do not depend on the machine's load: they decide where counted.
        (Some(now), Some(then)) => {
            let ir = now as f64 / then as f64;
            format!(
                "{}: {ir:.2}× before's instructions ≤ {bound:.2}× (time {times:.2}×)",
                ok(ir <= bound)
            )
        }
        _ => format!("{}: {times:.2}× before ≤ {bound:.2}×", ok(times <= bound)),
    }
}

fn group_digits(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
