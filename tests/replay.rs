//! Every payload a real client sent (`tests/fixtures/recorded/*/`, written by the live suites),
//! and every hand-written payload in a client's documented shape for the events that never fire
//! offline (`tests/fixtures/documented/*/`, each naming its `source`), replayed without the client: through `hookx run --host HOST`, with trusted recording
//! handlers of every other dialect, and through `hookx exec --as D` for every handler flavour.
//! Each handler must receive a payload of its own flavour naming the recorded event (and tool),
//! and silent handlers must leave the host a silent answer.
//!
//! The answers hookx writes are judged against what the real client did with them: every
//! form hookx writes for a decision on a probed event must be one a live run recorded in the
//! client's answer book (`recorded/<client>-<version>/answers.json`), with the effect the
//! decision means (see `live_common/answers.rs`).

#[path = "live_common/answers.rs"]
mod answers;
mod common;

use hookx::dialect::{
    augment, bricks, claude, cline, codex, copilot, cursor, droid, gemini, kiro, qwen,
};
use hookx::protocol::decode_event_as;
use hookx::tables::{Dialect, Flavor};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

struct Recorded {
    path: PathBuf,
    /// Which root the payload came from: `recorded` (a real client sent it) or `documented`
    /// (hand-written in the client's documented shape).
    origin: &'static str,
    host: Dialect,
    flavor: Flavor,
    /// The event as the host's config names it.
    event: String,
    stdin: String,
}

/// The fixture roots, each named by the origin its payloads are labelled with.
const ORIGINS: [&str; 2] = ["recorded", "documented"];

fn recorded() -> Vec<Recorded> {
    let mut found = Vec::new();
    for origin in ORIGINS {
        let before = found.len();
        let root = common::fixtures_dir().join(origin);
        load(&root, origin, &mut found);
        assert!(
            found.len() > before,
            "no {origin} payloads in {}",
            root.display()
        );
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    found
}

fn load(root: &Path, origin: &'static str, found: &mut Vec<Recorded>) {
    for dir in std::fs::read_dir(root).unwrap_or_else(|e| panic!("{}: {e}", root.display())) {
        let dir = dir.unwrap().path();
        for file in std::fs::read_dir(&dir).unwrap() {
            let path = file.unwrap().path();
            // `answers.json` is the client's answer book, not a payload.
            if path.extension().and_then(|e| e.to_str()) != Some("json")
                || path.file_name().is_some_and(|n| n == "answers.json")
            {
                continue;
            }
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let host = Dialect::all()
                .iter()
                .copied()
                .find(|d| v["host"] == d.name())
                .unwrap_or_else(|| panic!("{}: host {}", path.display(), v["host"]));
            let flavor = Flavor::all()
                .iter()
                .copied()
                .find(|f| v["flavor"] == f.name())
                .unwrap_or_else(|| panic!("{}: flavor {}", path.display(), v["flavor"]));
            if origin == "documented" {
                let source = v["source"].as_str().unwrap_or_default();
                assert!(
                    source.starts_with("documented: "),
                    "{}: a documented payload names its source (\"documented: <where>\")",
                    path.display()
                );
            }
            found.push(Recorded {
                origin,
                host,
                flavor,
                event: v["event"].as_str().unwrap().to_string(),
                stdin: v["stdin"].to_string(),
                path,
            });
        }
    }
}

/// Every event of `flavor`, each with one group holding its recording handler.
fn grouped(flavor: Flavor) -> serde_json::Map<String, Value> {
    let group = json!([{"hooks": [{"type": "command", "command": recorder(flavor.name())}]}]);
    flavor
        .tables()
        .events
        .iter()
        .map(|(_, name)| (name.to_string(), group.clone()))
        .collect()
}

/// A project whose foreign hook files hold one recording handler per event, for every flavour
/// but the host's own, all trusted.
struct World {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
    out: PathBuf,
    /// Each flavour with recording handlers, and the location id of the file that holds them.
    placed: Vec<(Flavor, &'static str)>,
}

fn recorder(label: &str) -> String {
    format!("cat > \"$REPLAY_OUT/{label}.json\"")
}

impl World {
    fn new() -> World {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let (project, home, out) = (root.join("project"), root.join("home"), root.join("out"));
        // The project a repository of its own: Codex's project is the nearest `.git`, and a
        // `.git` above the test's folder for a moment made that folder the project (attacks
        // row 1120).
        for d in [&project.join(".git"), &home, &out] {
            std::fs::create_dir_all(d).unwrap();
        }
        // Copilot: both casings in one file (flat handlers); Bricks and Gemini: groups.
        let mut copilot = serde_json::Map::new();
        for flavor in [copilot::FLAVOR, copilot::PASCAL] {
            for (_, name) in flavor.tables().events {
                copilot.insert(
                    name.to_string(),
                    json!([{"type": "command", "bash": recorder(flavor.name())}]),
                );
            }
        }
        let (bricks, claude, qwen) = (
            grouped(bricks::FLAVOR),
            grouped(claude::FLAVOR),
            grouped(qwen::FLAVOR),
        );
        common::write(
            &project,
            ".github/hooks/replay.json",
            &json!({"version": 1, "hooks": copilot}).to_string(),
        );
        common::write(
            &project,
            ".bricks/hooks.json",
            &json!({"hooks": bricks}).to_string(),
        );
        let gemini: serde_json::Map<String, Value> = gemini::FLAVOR
            .tables()
            .events
            .iter()
            .map(|(_, name)| {
                let group =
                    json!([{"hooks": [{"type": "command", "command": recorder("gemini")}]}]);
                (name.to_string(), group)
            })
            .collect();
        common::write(
            &project,
            ".gemini/settings.json",
            &json!({"hooks": gemini}).to_string(),
        );
        // The user's Claude settings: Copilot runs the project's `.claude/settings.json` itself,
        // never the user's.
        common::write(
            &home,
            ".claude/settings.json",
            &json!({"hooks": claude}).to_string(),
        );
        common::write(
            &home,
            ".qwen/settings.json",
            &json!({"hooks": qwen}).to_string(),
        );
        // Cursor: every flavour in one file (the category events and the Claude names too).
        let mut cursor_events = serde_json::Map::new();
        for flavor in cursor::DIALECT.flavors() {
            for (_, name) in flavor.tables().events {
                cursor_events.insert(
                    name.to_string(),
                    json!([{"type": "command", "command": recorder(flavor.name())}]),
                );
            }
        }
        common::write(
            &project,
            ".cursor/hooks.json",
            &json!({"version": 1, "hooks": cursor_events}).to_string(),
        );
        common::write(
            &home,
            ".codex/hooks.json",
            &json!({"hooks": grouped(codex::FLAVOR)}).to_string(),
        );
        common::write(
            &project,
            ".factory/settings.json",
            &json!({"hooks": grouped(droid::FLAVOR)}).to_string(),
        );
        common::write(
            &project,
            ".augment/settings.json",
            &json!({"hooks": grouped(augment::FLAVOR)}).to_string(),
        );
        // Cline: one script per event in ~/.cline/hooks, named after it.
        for (_, name) in cline::FLAVOR.tables().events {
            let path = common::write(
                &home,
                &format!(".cline/hooks/{name}"),
                &format!("#!/bin/sh\n{}\n", recorder("cline")),
            );
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        // Kiro: a rule list, one rule per event.
        let kiro_rules: Vec<Value> = kiro::FLAVOR
            .tables()
            .events
            .iter()
            .map(|(_, name)| {
                json!({"name": name, "trigger": name,
                    "action": {"type": "command", "command": recorder("kiro")}})
            })
            .collect();
        common::write(
            &project,
            ".kiro/hooks/replay.json",
            &json!({"version": "v1", "hooks": kiro_rules}).to_string(),
        );
        common::hookx_at(&project, &home, &["trust", "--yes"]).success();
        let mut placed = vec![
            (kiro::FLAVOR, "kiro-project"),
            (copilot::FLAVOR, "copilot-project"),
            (copilot::PASCAL, "copilot-project"),
            (bricks::FLAVOR, "bricks-project"),
            (claude::FLAVOR, "claude-user"),
            (gemini::FLAVOR, "gemini-project"),
            (qwen::FLAVOR, "qwen-user"),
            (codex::FLAVOR, "codex-user"),
            (droid::FLAVOR, "droid-project"),
            (cline::FLAVOR, "cline-user"),
            (augment::FLAVOR, "augment-project"),
        ];
        placed.extend(cursor::DIALECT.flavors().map(|f| (f, "cursor-project")));
        World {
            _tmp: tmp,
            project,
            home,
            out,
            placed,
        }
    }

    fn clear(&self) {
        for f in std::fs::read_dir(&self.out).unwrap() {
            std::fs::remove_file(f.unwrap().path()).unwrap();
        }
    }

    fn stdin(&self, r: &Recorded) -> String {
        r.stdin
            .replace("<project>", self.project.to_str().unwrap())
            .replace("<home>", self.home.to_str().unwrap())
    }

    /// `hookx ARGS…` as `r`'s host runs it, once it and every handler it started have ended.
    /// hookx answers at the host's time limit and leaves the handlers still running to its
    /// worker, which outlives the answer (Codex gives `SessionEnd` 1 s, so hookx half of it:
    /// under load a recorder was still writing when the answer came, attacks row 2141). So the
    /// end is an event, not the answer: descriptor 3 of hookx is a pipe's write end, which its
    /// worker and every handler inherit, and the pipe's read end reaches EOF once all of them
    /// have let go of it.
    fn hookx(&self, r: &Recorded, args: &[&str]) -> std::process::Output {
        use std::io::{Read as _, Write as _};
        use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd};
        use std::os::unix::process::CommandExt as _;
        use std::process::Stdio;
        let mut ends = [-1; 2];
        // SAFETY: pipe2(2) writes two new descriptors, owned below and by nothing else.
        assert_eq!(
            unsafe { libc::pipe2(ends.as_mut_ptr(), libc::O_CLOEXEC) },
            0
        );
        // SAFETY: both were just opened.
        let (read, write) =
            unsafe { (OwnedFd::from_raw_fd(ends[0]), OwnedFd::from_raw_fd(ends[1])) };
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"));
        cmd.args(common::with_route_home(args, &self.home))
            .current_dir(&self.project)
            .env_remove("HOOKX_HOME")
            .env("HOME", &self.home)
            .env("REPLAY_OUT", &self.out)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in host_env(r.host, &self.project) {
            cmd.env(k, v);
        }
        let shared = write.as_raw_fd();
        // SAFETY: dup2(2) and fcntl(2) are async-signal-safe. Only this child gets the write
        // end (as descriptor 3, close-on-exec cleared); the test's other children do not.
        unsafe {
            cmd.pre_exec(move || {
                if libc::dup2(shared, 3) < 0 || libc::fcntl(3, libc::F_SETFD, 0) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let mut child = cmd.spawn().unwrap();
        drop(write);
        let mut stdin = child.stdin.take().unwrap();
        let payload = self.stdin(r);
        let feeder = std::thread::spawn(move || {
            // hookx may answer without reading it all.
            let _ = stdin.write_all(payload.as_bytes());
        });
        let out = child.wait_with_output().unwrap();
        let _ = feeder.join();
        let (done, ended) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = std::fs::File::from(read).read_to_end(&mut Vec::new());
            let _ = done.send(());
        });
        // A ceiling only for a handler that never ends (the recorders end on their stdin's EOF).
        ended
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("hookx's handlers did not end within 120 s");
        out
    }
}

/// The variables the host sets for its hooks (its own project-directory variable).
fn host_env(host: Dialect, project: &Path) -> Vec<(&'static str, String)> {
    host.default_flavor()
        .tables()
        .project_dir_var
        .map(|var| (var, project.display().to_string()))
        .into_iter()
        .collect()
}

/// What a handler of `flavor` received must be that flavour's payload of the recorded event.
/// The event a handler of `flavor` is shown for the host's `event`: after a tool call, the post
/// event its own agent fires after that call, failed or not (attacks rows 1552, 1553).
fn seen_kind(event: &hookx::model::Event, flavor: Flavor) -> hookx::model::EventKind {
    use hookx::model::EventKind::{PostToolUse, PostToolUseFailure};
    if !matches!(event.kind, PostToolUse | PostToolUseFailure) {
        return event.kind.clone();
    }
    [event.kind.clone(), PostToolUse, PostToolUseFailure]
        .into_iter()
        .find(|k| {
            flavor.tables().event_name(k).is_some()
                && hookx::protocol::failed::fires(flavor, k, event)
        })
        .unwrap_or_else(|| event.kind.clone())
}

fn check_received(
    failures: &mut Vec<String>,
    what: &str,
    r: &Recorded,
    flavor: Flavor,
    bytes: &[u8],
) {
    let host_event = decode_event_as(r.stdin.as_bytes(), r.host, Some(&r.event))
        .map(|(e, _)| e)
        .unwrap_or_else(|e| {
            panic!(
                "{}: the {} payload decodes: {e}",
                r.path.display(),
                r.origin
            )
        });
    let seen = seen_kind(&host_event, flavor);
    let native = flavor
        .tables()
        .event_name(&seen)
        .expect("the flavour knows the event");
    match decode_event_as(bytes, flavor.dialect(), Some(native)) {
        Ok((got, got_flavor)) => {
            if got_flavor != flavor || got.kind != seen {
                failures.push(format!(
                    "{what}: got a {} {} payload, expected {} {}",
                    got_flavor.name(),
                    got.kind,
                    flavor.name(),
                    seen
                ));
            }
            let tool = |e: &hookx::model::Event| e.tool.as_ref().map(|t| t.name.clone());
            // A tool-category payload names no tool (Cursor's `afterFileEdit`, Windsurf's
            // `pre_write_code` is an edit or a write): it must only be one its category holds.
            let named_by_category = flavor.tables().protocol.tool_args.loose_args().is_some()
                && tool(&host_event).is_some_and(|t| flavor.tables().tool_scope.admits(&t));
            if tool(&got) != tool(&host_event) && !named_by_category {
                failures.push(format!(
                    "{what}: tool {:?}, expected {:?}",
                    tool(&got),
                    tool(&host_event)
                ));
            }
        }
        Err(e) => failures.push(format!("{what}: does not decode as {}: {e}", flavor.name())),
    }
}

/// The hosts whose payloads are replayed, one test each (below): one test over every payload
/// ran for minutes on a busy machine, and libtest's "running for over 60 seconds" then named no
/// host. [`every_host_with_payloads_has_its_replay_test`] keeps the list whole.
const REPLAYED: &[&str] = &[
    "augment", "claude", "cline", "codex", "copilot", "cursor", "droid", "gemini", "kiro", "qwen",
    "vscode", "windsurf",
];

#[test]
fn every_host_with_payloads_has_its_replay_test() {
    for r in recorded() {
        assert!(
            REPLAYED.contains(&r.host.name()),
            "{}: no replay test for host {} (add one below and to REPLAYED)",
            r.path.display(),
            r.host.name()
        );
    }
}

#[test]
fn augment_payloads_run_through_hookx_run_and_exec() {
    replay("augment");
}

#[test]
fn claude_payloads_run_through_hookx_run_and_exec() {
    replay("claude");
}

#[test]
fn cline_payloads_run_through_hookx_run_and_exec() {
    replay("cline");
}

#[test]
fn codex_payloads_run_through_hookx_run_and_exec() {
    replay("codex");
}

#[test]
fn copilot_payloads_run_through_hookx_run_and_exec() {
    replay("copilot");
}

#[test]
fn cursor_payloads_run_through_hookx_run_and_exec() {
    replay("cursor");
}

#[test]
fn droid_payloads_run_through_hookx_run_and_exec() {
    replay("droid");
}

#[test]
fn gemini_payloads_run_through_hookx_run_and_exec() {
    replay("gemini");
}

#[test]
fn kiro_payloads_run_through_hookx_run_and_exec() {
    replay("kiro");
}

#[test]
fn qwen_payloads_run_through_hookx_run_and_exec() {
    replay("qwen");
}

#[test]
fn vscode_payloads_run_through_hookx_run_and_exec() {
    replay("vscode");
}

#[test]
fn windsurf_payloads_run_through_hookx_run_and_exec() {
    replay("windsurf");
}

/// Every recorded and documented payload `host` sent, through `hookx run` (with every other
/// flavour's recording handler) and `hookx exec` (as every flavour that has the event).
fn replay(host: &str) {
    let world = World::new();
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut received = 0;
    let payloads: Vec<Recorded> = recorded()
        .into_iter()
        .filter(|r| r.host.name() == host)
        .collect();
    common::waiting_for(
        &format!("replay: {host}"),
        &format!(
            "{} {host} payloads, each through `hookx run` and `hookx exec --as` every flavour \
             that has its event (a process each)",
            payloads.len()
        ),
    );
    for r in payloads {
        let name = format!(
            "{} {}",
            r.origin,
            r.path.file_name().unwrap().to_string_lossy()
        );
        let kind = r
            .flavor
            .tables()
            .event_kind(&r.event)
            // An event no table knows is carried under its own name: no other flavour has it.
            .unwrap_or_else(|| hookx::model::EventKind::Other(r.event.clone()));
        // The dispatcher, with every other flavour's recording handler.
        world.clear();
        let out = world.hookx(&r, &["run", "--host", r.host.name(), "--event", &r.event]);
        if out.status.code() != Some(0) || !out.stdout.is_empty() {
            failures.push(format!(
                "{name}: run: silent handlers gave {:?} {:?} {}",
                out.status.code(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let host_event = decode_event_as(r.stdin.as_bytes(), r.host, Some(&r.event))
            .ok()
            .map(|(e, _)| e);
        let host_tool = host_event
            .as_ref()
            .and_then(|e| e.tool.as_ref().map(|t| t.name.clone()));
        // A subagent's stop (Copilot's `agentStop` naming its parent): only the flavours whose
        // agent fires Stop there too have rules for it (attacks row 1307).
        let subagent_stop = host_event.as_ref().is_some_and(|e| {
            e.kind == hookx::model::EventKind::Stop && e.field("parent_agent_id").is_some()
        });
        // A firing beyond what the event names (Qwen's UserPromptSubmit after tool results,
        // attacks row 1780): only the flavours whose agent fires it so too have rules for it.
        let repeated = |flavor: Flavor| {
            host_event.as_ref().is_some_and(|e| {
                r.host
                    .flavors()
                    .any(|h| h.tables().repeated_firing(flavor.tables(), e))
            })
        };
        // Whether a flavour's category events fire for the payload's tool.
        let in_scope = |flavor: Flavor| {
            host_tool
                .as_deref()
                .is_none_or(|tool| flavor.tables().tool_scope.admits(tool))
                && (!subagent_stop || flavor.tables().stop_fires_for_subagents)
                && !repeated(flavor)
        };
        // A flavour that fires the event under several names, each telling a field's value
        // (Cline's `TaskStart` "startup", `TaskResume` "resume", attacks row 2230): its
        // scripts are rules on those values, so they run only where the host tells one
        // (row 2362: not under a host that sends no `source`, nor on Claude's `compact`).
        let told = |flavor: Flavor, kind: &hookx::model::EventKind| {
            let t = flavor.tables();
            let mut values = (t.event_values.iter())
                .filter(|(name, _, _)| t.event_kind(name).as_ref() == Some(kind))
                .peekable();
            values.peek().is_none()
                || values.any(|(_, key, value)| {
                    (host_event.as_ref())
                        .and_then(|e| e.field(key))
                        .is_some_and(|v| {
                            // The host's own spelling of the value (Copilot's "new").
                            v == *value
                                || (r.host.flavors()).any(|h| {
                                    h.tables().value_renames.iter().any(|(k, f, c, n)| {
                                        k == kind && f == key && c == value && v == *n
                                    })
                                })
                        })
                })
        };
        for &flavor in Flavor::all() {
            let file = world.out.join(format!("{}.json", flavor.name()));
            // The host runs its own files (and the foreign ones it reads) itself.
            let run_by_hookx = world
                .placed
                .iter()
                .any(|(f, location)| *f == flavor && !r.host.def().native.contains(location));
            let seen = host_event.as_ref().map(|e| seen_kind(e, flavor));
            let expected = run_by_hookx
                && in_scope(flavor)
                && seen.as_ref().is_some_and(|k| {
                    flavor.tables().event_name(k).is_some()
                        && told(flavor, k)
                        && host_event
                            .as_ref()
                            .is_some_and(|e| hookx::protocol::failed::fires(flavor, k, e))
                });
            match std::fs::read(&file) {
                Ok(bytes) if expected => {
                    received += 1;
                    check_received(
                        &mut failures,
                        &format!("{name}: run -> {}", flavor.name()),
                        &r,
                        flavor,
                        &bytes,
                    )
                }
                Ok(_) => failures.push(format!(
                    "{name}: run ran the {} handler, which the host runs itself or lacks the event",
                    flavor.name()
                )),
                Err(_) if expected => failures.push(format!(
                    "{name}: run did not run the {} handler",
                    flavor.name()
                )),
                Err(_) => {}
            }
            checked += 1;
        }
        // The adapter, for every handler flavour that has the event.
        for &flavor in Flavor::all() {
            if flavor.tables().event_name(&kind).is_none() || !in_scope(flavor) {
                continue;
            }
            world.clear();
            let out = world.hookx(
                &r,
                &[
                    "exec",
                    "--as",
                    flavor.name(),
                    "--host",
                    r.host.name(),
                    "--event",
                    &r.event,
                    "--",
                    "sh",
                    "-c",
                    &recorder("exec"),
                ],
            );
            let what = format!("{name}: exec --as {}", flavor.name());
            // A rule on the host's post event that its agent does not fire after this call
            // (a success rule after a failed one) does not run.
            let fires = host_event
                .as_ref()
                .is_none_or(|e| hookx::protocol::failed::fires(flavor, &kind, e))
                && !repeated(flavor);
            if out.status.code() != Some(0) || !out.stdout.is_empty() {
                failures.push(format!(
                    "{what}: a silent handler gave {:?} {:?} {}",
                    out.status.code(),
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            match std::fs::read(world.out.join("exec.json")) {
                Ok(bytes) if fires => {
                    received += 1;
                    check_received(&mut failures, &what, &r, flavor, &bytes)
                }
                Ok(_) => failures.push(format!("{what}: ran after a call its agent skips")),
                Err(_) if fires => failures.push(format!("{what}: the handler did not run")),
                Err(_) => {}
            }
            checked += 1;
        }
    }
    eprintln!("{host}: {checked} replays, {received} handler payloads checked");
    assert!(received > 0, "no handler ran for {host}'s payloads");
    assert!(
        failures.is_empty(),
        "{} of {checked} replays failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The hosts whose client the live suites drive, by the answer book of their probes. A host
/// moves from `UNBOOKED` to a book when its probe records one.
const BOOKED: &[&str] = &[
    "augment", "claude", "cline", "codex", "copilot", "droid", "gemini", "qwen",
];
const UNBOOKED: &[&str] = &["kilo", "opencode"];

/// Decisions a client cannot carry out as meant, whatever hookx writes, each with why: the
/// test prints them, and fails when one is honoured after all (take it off the list).
const SHORTFALLS: &[(&str, &str, answers::Intent, &str)] = &[(
    "cline-cli",
    "PreToolUse",
    answers::Intent::Deny,
    "Cline has no deny of one call: `cancel` ends the whole run, so the reason never reaches \
     the model (cline-facts.md; install and doctor warn)",
)];

/// The answer books in `recorded/`.
fn books() -> Vec<(PathBuf, answers::Book)> {
    let root = common::fixtures_dir().join("recorded");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let path = dir.unwrap().path().join("answers.json");
        if let Ok(text) = std::fs::read_to_string(&path) {
            let book =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            out.push((path, book));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[test]
fn every_client_with_a_live_suite_has_an_answer_book_or_is_listed_without() {
    let mut booked: Vec<String> = books().into_iter().map(|(_, b)| b.host).collect();
    booked.sort();
    assert_eq!(booked, BOOKED, "the hosts with an answer book");
    for host in UNBOOKED {
        assert!(
            !BOOKED.contains(host),
            "{host} has a book: take it off UNBOOKED"
        );
    }
}

/// Every answer hookx writes on a probed event (each decision it can make there) is a form the
/// client's live run recorded, and the client did with it what the decision means: a deny
/// kept the call from running and its reason reached the model, a rewrite ran, context
/// reached the model, a stop stopped the agent. Judged by the recorded effect, never by
/// hookx's own reading of the answer.
#[test]
fn every_answer_hookx_writes_is_a_form_its_client_was_seen_to_honour() {
    let mut failures = Vec::new();
    // The shortfalls seen, by (client, event, decision).
    let mut fell_short = Vec::new();
    let mut checked = 0;
    for (path, book) in books() {
        let who = format!("{} {}", book.client, book.version);
        assert!(
            !book.probed.is_empty(),
            "{}: no probed event",
            path.display()
        );
        for p in &book.probed {
            let flavor = answers::flavor(&p.flavor);
            let kind = flavor.tables().event_kind(&p.event).unwrap();
            for &intent in answers::Intent::on(&kind) {
                let name = intent.form_name(&p.prefix);
                let Some(form) =
                    answers::hookx_form(flavor, &p.event, intent, &name, &book.rewrite)
                else {
                    eprintln!("{who} {}: hookx writes nothing for {intent:?}", p.event);
                    continue;
                };
                checked += 1;
                let what = format!(
                    "{who} {} {intent:?}: hookx writes stdout {:?} stderr {:?} exit {}",
                    p.event, form.stdout, form.stderr, form.exit
                );
                let mut recorded: Vec<&answers::Entry> = book
                    .forms
                    .iter()
                    .filter(|e| e.form.shape() == form.shape())
                    .collect();
                // Only a run with a call after the form shows whether the agent stopped.
                if intent == answers::Intent::Stop
                    && recorded.iter().any(|e| e.effect.halted.is_some())
                {
                    recorded.retain(|e| e.effect.halted.is_some());
                }
                if recorded.is_empty() {
                    failures.push(format!("{what}, a form no client run recorded"));
                }
                for e in recorded {
                    let (verdict, loss) = intent.holds(&e.form, &e.effect);
                    if let Err(why) = verdict {
                        let known = SHORTFALLS.iter().find(|(c, e, i, _)| {
                            (*c, *e, *i) == (book.client.as_str(), p.event.as_str(), intent)
                        });
                        if let Some((client, event, intent, because)) = known {
                            eprintln!("{what}: {why}; a known shortfall: {because}");
                            fell_short.push((*client, *event, *intent));
                        } else {
                            failures.push(format!("{what}; as form {}: {why}", e.form.name));
                        }
                    }
                    if let Some(loss) = loss {
                        eprintln!(
                            "{who} {} {intent:?}: {loss} (the host has no field)",
                            p.event
                        );
                    }
                }
            }
        }
    }
    eprintln!("{checked} answers hookx writes, each judged by its client's recorded effect");
    assert!(checked > 0, "no answer judged");
    for (client, event, intent, _) in SHORTFALLS {
        assert!(
            fell_short.contains(&(*client, *event, *intent)),
            "{client} {event} {intent:?} is honoured now: take it off SHORTFALLS"
        );
    }
    assert!(
        failures.is_empty(),
        "{} answers not honoured as meant:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// What a run-time claim names one event by ([`hookx::claim::identity`]): the decoded kind,
/// instant, session, call and subagent ids and tool call, never the raw payload.
fn claim_identity(stdin: &Value, host: Dialect, event: &str) -> Value {
    let (e, flavor) = decode_event_as(stdin.to_string().as_bytes(), host, Some(event))
        .unwrap_or_else(|err| panic!("{event}: {err}"));
    let stamped = e.timestamp.is_some();
    hookx::claim::identity(&e, flavor.tables().protocol.call_keys, stamped)
}

/// The spellings, as the clients send them, of the fields that name a session, a tool call or
/// a subagent.
const ID_SPELLINGS: &[&str] = &[
    "session_id",
    "sessionId",
    "conversation_id",
    "taskId",
    "trajectory_id",
    "tool_use_id",
    "tool_call_id",
    "agent_id",
    "agentId",
];

/// Every id a payload carries, in any spelling, is part of the claim's identity (decoded to
/// its canonical name, or kept in the flavour's `call_keys`): two events that differ by one
/// alone are two events (attacks rows 463, 508, 509). Each recorded and documented payload,
/// with each such top-level field given another value, must name another event.
#[test]
fn every_id_a_payload_carries_tells_its_event_apart() {
    let mut failures = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for r in recorded() {
        let stdin: Value = serde_json::from_str(&r.stdin).unwrap();
        let identity = |stdin: &Value| claim_identity(stdin, r.host, &r.event);
        let before = identity(&stdin);
        for (key, value) in stdin.as_object().unwrap() {
            if !value.is_string() || !ID_SPELLINGS.contains(&key.as_str()) {
                continue;
            }
            let mut other = stdin.clone();
            other[key] = Value::from(format!("{}-other", value.as_str().unwrap()));
            seen.insert(format!("{}: {key}", r.flavor.name()));
            if identity(&other) == before {
                failures.push(format!("{}: `{key}` is not part of it", r.path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The one spelling no decoding makes canonical, held in its flavour's table.
    assert!(seen.contains("qwen: tool_call_id"), "{seen:?}");
}

/// The claim gate (each client's facts file, "Both scopes, one event"): every payload a client
/// handed its user-scope hook and its project-scope hook for one event
/// (`recorded/*/scopes/pairs.json`) decodes to one event; under Copilot, its own (camelCase)
/// hook's payload and the `.claude/settings.json` hook's (`claude-…`, PascalCase) decode to one
/// kind, instant, session and tool call. Two calls alike decode to two events where the client
/// names the call (an id or a timestamp), to one where it does not (Droid, Auggie).
#[test]
fn both_scopes_decode_to_one_event() {
    let mut hosts = Vec::new();
    for dir in std::fs::read_dir(common::fixtures_dir().join("recorded")).unwrap() {
        let path = dir.unwrap().path().join("scopes/pairs.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let doc: Value = serde_json::from_str(&text).unwrap();
        let host = Dialect::named(doc["host"].as_str().unwrap()).unwrap();
        let side = |key: &str| -> Vec<(String, Value)> {
            doc[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let event = s["event"].as_str().unwrap();
                    let name = event.trim_start_matches("claude-");
                    (event.to_string(), claim_identity(&s["stdin"], host, name))
                })
                .collect()
        };
        let (user, project) = (side("user"), side("project"));
        let nth = |seen: &[(String, Value)], event: &str| -> Vec<Value> {
            seen.iter()
                .filter(|(e, _)| e == event)
                .map(|(_, v)| v.clone())
                .collect()
        };
        for (event, _) in &project {
            assert_eq!(
                nth(&user, event),
                nth(&project, event),
                "{}: {event}",
                path.display()
            );
        }
        // Copilot's own hook and its Claude file's: one event in two shapes.
        for (event, id) in user.iter().filter(|(e, _)| e.starts_with("claude-")) {
            let own = user
                .iter()
                .filter(|(e, _)| !e.starts_with("claude-"))
                .any(|(e, v)| e.starts_with(|c: char| c.is_ascii_lowercase()) && v == id);
            assert!(own, "{}: {event} {id}: no camelCase twin", path.display());
        }
        // The two calls as the first hook name of the guard event to see them saw them.
        let twice = |(_, v): &&(String, Value)| {
            v["kind"] == "PreToolUse" && v["tool"].to_string().contains("twice-call")
        };
        let first = user.iter().find(twice).map(|(e, _)| e.clone());
        let calls: Vec<&Value> = user
            .iter()
            .filter(twice)
            .filter(|(e, _)| Some(e) == first.as_ref())
            .map(|(_, v)| v)
            .collect();
        assert_eq!(calls.len(), 2, "{}: two calls alike", path.display());
        let alike = !["droid", "augment"].contains(&host.name());
        assert_eq!(
            calls[0] != calls[1],
            alike,
            "{}: two calls alike name two events",
            path.display()
        );
        hosts.push(host.name());
    }
    hosts.sort();
    assert_eq!(
        hosts,
        [
            "augment", "claude", "cline", "codex", "copilot", "droid", "gemini", "qwen"
        ]
    );
}
