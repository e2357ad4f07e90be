//! The live suite for the Cline CLI 3.0.65: `cline --json PROMPT` offline, its provider
//! OpenAI-compatible (`cline auth -p openai -b URL`, run in the sandbox) against the fake model
//! on 127.0.0.1. Ground truth with a recording hook as the executable of each event in
//! `~/.cline/hooks/`, and hookx in the loop (`hookx install --host cline`). See
//! conformance/README.md and conformance/cline-facts.md.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[path = "live_common/answers.rs"]
mod answers;
#[allow(dead_code)]
#[path = "live_common/cadence.rs"]
mod cadence;
mod common;
#[path = "live_common/faults.rs"]
mod faults;
#[path = "live_common/minimal.rs"]
mod minimal;
#[allow(dead_code)]
#[path = "live_common/pty.rs"]
mod pty;
#[path = "live_common/recorded.rs"]
mod recorded;
#[path = "live_common/scopes.rs"]
mod scopes;
// The same OpenAI chat-completions API as Copilot's provider mode (no failing model call here).
#[allow(dead_code)]
#[path = "live_common/chat_server.rs"]
mod server;

use minimal::Sandbox;
use serde_json::json;
use server::{FakeModel, Step};

const VERSION: &str = "3.0.65";

/// Hook file names (Cline's docs; SessionShutdown and TaskError from its SDK).
const EVENTS: &[&str] = &[
    "TaskStart",
    "TaskResume",
    "TaskCancel",
    "TaskComplete",
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "PreCompact",
    "Notification",
    "TaskError",
    "SessionShutdown",
];

fn run(command: &str) -> Step {
    Step::Tools(vec![("run_commands", json!({"commands": [command]}))])
}

fn scripts(name: &str, project: &str) -> Vec<Step> {
    match name {
        // Attacks rows 1840-1859: four calls that fail, each its own way.
        "failed" => vec![
            run("echo FAIL-OUT-1840; echo FAIL-ERR-1840 >&2; exit 1"),
            run("/nonexistent-1840/cannot-start"),
            Step::Tools(vec![(
                "read_files",
                json!({"file_paths": [format!("{project}/missing-1840.txt")]}),
            )]),
            Step::Tools(vec![(
                "apply_patch",
                json!({"input": "*** Begin Patch\n*** Update File: notes.txt\n@@\n-absent-1840\n+new-1840\n*** End Patch\n"}),
            )]),
            Step::Text("failed done"),
        ],
        "cadence" => vec![
            run("echo cadence-one"),
            run("echo cadence-two"),
            Step::Tools(vec![(
                "apply_patch",
                json!({"input": "*** Begin Patch\n*** Add File: cadence.txt\n+one\n*** End Patch\n"}),
            )]),
            Step::Text("cadence done"),
        ],
        "twice" => vec![
            run("echo twice-call"),
            run("echo twice-call"),
            Step::Text("twice done"),
        ],
        "tools" => vec![
            run("echo hello-cline"),
            Step::Tools(vec![(
                "apply_patch",
                json!({"input": "*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n"}),
            )]),
            run("echo cancel-me"),
            Step::Text("all done"),
        ],
        "forms" => form_names()
            .iter()
            .map(|name| run(&format!("echo f.{name}.")))
            .chain([Step::Text("forms done")])
            .collect(),
        // One form that may end the run, then a call that shows whether it did.
        one if one.starts_with("fone-") => {
            let name = &one["fone-".len()..];
            vec![
                run(&format!("echo f.{name}.")),
                run(&format!("echo f.{name}after.")),
                Step::Text("one done"),
            ]
        }
        "routed" => vec![
            run("echo routed-ok"),
            run("echo rw-me"),
            Step::Tools(vec![(
                "apply_patch",
                json!({"input": "*** Begin Patch\n*** Add File: notes.txt\n+patched-by-cline\n*** End Patch\n"}),
            )]),
            run(&format!("touch {project}/MARKER")),
            Step::Text("all done"),
        ],
        "ctl" => vec![
            run(&format!("touch {project}/RAN-CTL")),
            Step::Text("all done"),
        ],
        "hxmsg" => vec![
            run(&format!("touch {project}/RAN-HXMSG")),
            Step::Text("all done"),
        ],
        "story" => vec![
            run("echo story-ok"),
            Step::Tools(vec![(
                "apply_patch",
                json!({"input": "*** Begin Patch\n*** Add File: notes.txt\n+one\n*** End Patch\n"}),
            )]),
            Step::Text("story done"),
        ],
        "nohx" => vec![
            run(&format!("touch {project}/RAN-NOHX")),
            Step::Text("nohx done"),
        ],
        // A call the guard does not match, then one it does (attacks row 1203).
        "nohx-read" => vec![
            Step::Tools(vec![(
                "read_files",
                json!({"file_paths": [format!("{project}/notes.txt")]}),
            )]),
            run(&format!("touch {project}/RAN-NOHX")),
            Step::Text("nohx done"),
        ],
        // One fault's command (a cancel ends the run), or the control alone.
        "faultctl" => vec![run(faults::CONTROL), Step::Text("control done")],
        one if one.starts_with("fault-") => vec![
            run(&faults::command(&one["fault-".len()..])),
            Step::Text("fault done"),
        ],
        // A deny ends Cline's whole run: the denied call comes in a run of its own.
        "story-deny" => vec![run(common::STORY_DENIED), Step::Text("not reached")],
        _ => vec![Step::Text("unknown scenario")],
    }
}

/// Ends the hub daemon Cline started for a sandbox (the one whose command line names the
/// sandbox's project), by its pid, when dropped.
struct HubGuard(String);

impl Drop for HubGuard {
    fn drop(&mut self) {
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|p| p.parse::<i32>().ok())
            else {
                continue;
            };
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains("--cline-hub-daemon")
                && cmdline.contains(&self.0)
                && let Some(pid) = rustix::process::Pid::from_raw(pid)
            {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
            }
        }
    }
}

/// A hook script at `root/rel` running `command`, with `mode`.
fn executable(root: &std::path::Path, rel: &str, command: &str, mode: u32) {
    let path = common::write(root, rel, &format!("#!/bin/sh\nexec {command}\n"));
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// `cline auth` against the fake model, then one `cline --json` run of `scenario`; its output
/// and stdout. `HOOKX_LIVE_KEEP` keeps the sandbox, the requests and stdout under `keep`.
fn run_client(
    bin: &std::path::Path,
    sb: &Sandbox,
    model: &FakeModel,
    scenario: &str,
    keep: &str,
) -> (std::process::Output, String) {
    run_client_with(bin, sb, model, scenario, keep, &[])
}

/// [`run_client`] with the extra variables `env` for the run (not for `cline auth`).
fn run_client_with(
    bin: &std::path::Path,
    sb: &Sandbox,
    model: &FakeModel,
    scenario: &str,
    keep: &str,
    env: &[(&str, &str)],
) -> (std::process::Output, String) {
    let mut auth = sb.command(bin);
    auth.args(["auth", "-p", "openai", "-k", "dummy", "-m", "gpt-4.1", "-b"])
        .arg(format!("http://127.0.0.1:{}/v1", model.port));
    let configured = sb.run(auth);
    assert!(
        configured.status.success(),
        "cline auth: {}",
        String::from_utf8_lossy(&configured.stderr)
    );
    // Cline starts a hub daemon in a session of its own, which outlives the run and which
    // later runs would share: each run gets its own port, and the guard ends its daemon.
    let hub_port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let _hub = HubGuard(sb.project.display().to_string());
    let mut cmd = sb.command(bin);
    cmd.envs(env.iter().copied())
        .env("CLINE_HUB_PORT", hub_port.to_string())
        .args(["--json", &format!("SCENARIO:{scenario} do the work")]);
    let out = sb.run(cmd);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    if let Some(dir) = std::env::var_os("HOOKX_LIVE_KEEP") {
        let dir = std::path::Path::new(&dir).join(keep);
        let _ = std::fs::remove_dir_all(&dir);
        common::copy_tree(&sb.root, &dir);
        let requests = serde_json::to_string_pretty(&model.chats()).unwrap();
        std::fs::write(dir.join("requests.json"), requests).unwrap();
        std::fs::write(dir.join("stdout.txt"), &stdout).unwrap();
    }
    (out, stdout)
}

/// Ground truth: the recorder as every hook file; a shell call that runs (context after it),
/// a patch that adds a file, a shell call a PreToolUse hook cancels, then the end of the task.
fn ground_truth_run_commands_and_answers() {
    let Some(bin) = cline() else { return };
    let sb = Sandbox::new("hookx-live-cline");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    for e in EVENTS {
        executable(&sb.home, &format!(".cline/hooks/{e}"), &sb.dumper(e), 0o755);
    }
    sb.answer(
        "PostToolUse",
        "a",
        "hello-cline",
        (r#"{"contextModification":"CTX-POST"}"#, "", 0),
    );
    sb.answer(
        "PreToolUse",
        "a",
        "cancel-me",
        (r#"{"cancel":true,"errorMessage":"R-CANCEL"}"#, "", 0),
    );
    let (out, stdout) = run_client(&bin, &sb, &model, "tools", "cline");
    let dumps = sb.dumps();
    let requests = model.requests_of("tools");
    let project = sb.project.display().to_string();
    let mut failed = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failed.push(what)
        }
    };
    check(out.status.success(), format!("exit {:?}", out.status));
    let labels: Vec<&str> = dumps.iter().map(|d| d.label.as_str()).collect();
    check(!labels.is_empty(), "hooks ran".into());
    for d in &dumps {
        check(
            d.stdin["taskId"].is_string() && d.stdin["workspaceRoots"] == json!([project]),
            format!("{} common payload: {}", d.label, d.raw),
        );
    }
    // The hook file names and the `hookName` each payload carries.
    for (label, hook_name) in [
        ("TaskStart", "agent_start"),
        ("PreToolUse", "tool_call"),
        ("PostToolUse", "tool_result"),
        ("SessionShutdown", "session_shutdown"),
    ] {
        let names: Vec<&serde_json::Value> = dumps
            .iter()
            .filter(|d| d.label == label)
            .map(|d| &d.stdin["hookName"])
            .collect();
        check(
            !names.is_empty() && names.iter().all(|n| **n == hook_name),
            format!("{label} fired with hookName {hook_name}: {names:?}"),
        );
    }
    let ran = minimal::tool_result(&requests, "hello-cline");
    check(ran.contains("hello-cline"), format!("the call ran: {ran}"));
    // PostToolUse `contextModification` reaches the model as a user message after the result.
    let context = requests.iter().any(|b| {
        b["messages"].as_array().into_iter().flatten().any(|m| {
            m["role"] == "user"
                && m["content"].as_str().is_some_and(|c| {
                    c.starts_with("<hook_context source=\"PostToolUse\"") && c.contains("CTX-POST")
                })
        })
    });
    check(
        context,
        "PostToolUse context as a <hook_context> user message".into(),
    );
    // PreToolUse `cancel: true` aborts the whole run: the call never runs, its result never
    // goes back, no further model request; the run ends `aborted` (exit 0).
    check(
        !dumps
            .iter()
            .any(|d| d.label == "PostToolUse" && d.raw.contains("cancel-me")),
        "the cancelled call did not run".into(),
    );
    check(
        !requests.iter().any(|b| {
            b["messages"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|m| m["role"] == "tool" && m.to_string().contains("cancel-me"))
        }),
        "no result of the cancelled call reached the model".into(),
    );
    check(
        stdout.contains(r#""finishReason":"aborted""#),
        "the run ended aborted".into(),
    );
    check_recorded(&sb, &dumps, "tools");
    assert!(
        failed.is_empty(),
        "{} checks failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// Records (`HOOKX_RECORD=1`) or checks the payloads of the recorders labelled by event.
fn check_recorded(sb: &Sandbox, dumps: &[minimal::Dump], scenario: &str) {
    let seen: Vec<recorded::Seen> = dumps
        .iter()
        .map(|d| recorded::Seen {
            label: &d.label,
            raw: &d.raw,
            env: &d.env,
            cwd: &d.cwd,
        })
        .collect();
    recorded::Recording {
        client: "cline",
        version: VERSION,
        folder: "cline",
        host: "cline",
        events: EVENTS,
        // What Cline sets for hooks, less its launcher line and the hub port the run gave it.
        relevant_env: |key| {
            key.starts_with("CLINE_")
                && !matches!(key, "CLINE_CONNECTOR_CLI_LAUNCH" | "CLINE_HUB_PORT")
        },
        placeholders: vec![
            (sb.project.display().to_string(), "<project>"),
            (sb.home.display().to_string(), "<home>"),
        ],
    }
    .check(scenario, &seen, &[]);
}

/// Answer forms probed against Cline 3.0.65 with hookx out of the loop (issue 25): (name, hook,
/// stdout, exit). The model calls run_commands `echo f.NAME.`; a rewrite is `echo rw.NAME.`.
/// The cancel at exit 2 is last: a cancel ends the run.
const CLINE_FORMS: &[(&str, &str, &str, i32)] = &[
    (
        "ovr",
        "PreToolUse",
        r#"{"overrideInput":{"commands":["echo rw.ovr."]}}"#,
        0,
    ),
    (
        "prectx",
        "PreToolUse",
        r#"{"contextModification":"C-PRECTX"}"#,
        0,
    ),
    ("ctxkey", "PostToolUse", r#"{"context":"C-CTXKEY"}"#, 0),
    (
        "post1",
        "PostToolUse",
        r#"{"contextModification":"C-POST1"}"#,
        1,
    ),
    (
        "post2",
        "PostToolUse",
        r#"{"contextModification":"C-POST2"}"#,
        2,
    ),
    (
        "msg",
        "PreToolUse",
        r#"{"cancel":false,"errorMessage":"R-MSG"}"#,
        0,
    ),
    (
        "cancel2",
        "PreToolUse",
        r#"{"cancel":true,"errorMessage":"R-CANCEL2"}"#,
        2,
    ),
];

/// The events hookx's own forms are probed on, and the rewrite they carry.
fn hookx_probed() -> (Vec<answers::Probed>, serde_json::Value) {
    let probed = answers::probed(
        "cline",
        &[("PreToolUse", "hxpre"), ("PostToolUse", "hxpost")],
    );
    (probed, json!({"command": "echo rw.<name>."}))
}

fn hookx_forms() -> Vec<answers::Form> {
    let (probed, rewrite) = hookx_probed();
    answers::hookx_forms(&probed, &rewrite)
}

/// Whether the form may end the run (a cancel, a stop): it is probed in a run of its own.
fn alone(f: &answers::Form) -> bool {
    f.stdout.contains(r#""cancel":true"#) || f.intent == Some(answers::Intent::Stop)
}

/// The calls of the `forms` run: [`CLINE_FORMS`] with hookx's forms that cannot end the run
/// before the last (the cancel).
fn form_names() -> &'static [String] {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| {
        let hand = CLINE_FORMS.iter().map(|f| f.0.to_string()).collect();
        let mine = hookx_forms().into_iter().filter(|f| !alone(f));
        answers::before_last(hand, mine.map(|f| f.name))
    })
}

/// What Cline 3.0.65 did with each of [`CLINE_FORMS`]: (name, ran: "f" original, "rw"
/// rewritten, "" not run; texts that reached the model; texts that did not).
/// `errorMessage` without a cancel reaches the model and the call runs; a cancel at exit 2
/// cancels (the call never runs, the run ends before the model is asked again).
const CLINE_FORMS_SEEN: &[(&str, &str, &[&str], &[&str])] = &[
    ("ovr", "rw", &[], &[]),
    ("prectx", "f", &["C-PRECTX"], &[]),
    ("ctxkey", "f", &["C-CTXKEY"], &[]),
    ("post1", "f", &["C-POST1"], &[]),
    ("post2", "f", &["C-POST2"], &[]),
    ("msg", "f", &["R-MSG"], &[]),
    ("cancel2", "", &[], &["R-CANCEL2"]),
];

/// Cline's answer rows, and every form hookx writes on PreToolUse and PostToolUse, each
/// against the real client with the raw recorder as the handler: the hand-written forms
/// checked against the facts (conformance/cline-facts.md), every form against the answer book
/// (`answers.json`, see `live_common/answers.rs`).
fn ground_truth_answer_forms() {
    let Some(bin) = cline() else { return };
    let hand: Vec<answers::Form> = CLINE_FORMS
        .iter()
        .map(|(name, hook, stdout, exit)| answers::hand(name, hook, stdout, "", *exit))
        .collect();
    let mine = hookx_forms();
    let book_forms = answers::before_last(hand, mine.iter().filter(|f| !alone(f)).cloned());
    let probe = |scenario: &str, forms: &[&answers::Form]| {
        let sb = Sandbox::new("hookx-live-cline");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        for e in ["PreToolUse", "PostToolUse"] {
            executable(&sb.home, &format!(".cline/hooks/{e}"), &sb.dumper(e), 0o755);
        }
        for f in forms {
            let out = (f.stdout.as_str(), f.stderr.as_str(), f.exit);
            sb.answer(&f.event, &f.name, &format!("f.{}.", f.name), out);
        }
        run_client(&bin, &sb, &model, scenario, scenario);
        let sent: String = model
            .requests_of(scenario)
            .iter()
            .map(|r| r["messages"].to_string())
            .collect();
        (sb.dumps(), sent)
    };
    let ran = |dumps: &[minimal::Dump], name: &str| {
        let post = |what: &str| {
            dumps
                .iter()
                .any(|d| d.label == "PostToolUse" && d.raw.contains(&format!("{what}.{name}.")))
        };
        if post("rw") {
            answers::Ran::Rewritten
        } else if post("f") {
            answers::Ran::Original
        } else {
            answers::Ran::NotRun
        }
    };
    let (dumps, sent) = probe("forms", &book_forms.iter().collect::<Vec<_>>());
    let mut entries = Vec::new();
    for f in &book_forms {
        let effect = f.effect(ran(&dumps, &f.name), |t| sent.contains(t), None);
        eprintln!("form {:<13} {effect:?}", f.name);
        entries.push(answers::Entry {
            form: f.clone(),
            effect,
        });
    }
    let mut failed = Vec::new();
    for (name, want, seen, unseen) in CLINE_FORMS_SEEN {
        let got = ran(&dumps, name).short();
        if got != *want {
            failed.push(format!("{name}: ran {got:?}, recorded {want:?}"));
        }
        failed.extend(answers::reach_differs(name, &sent, seen, unseen));
    }
    for f in mine.iter().filter(|f| alone(f)) {
        let scenario = format!("fone-{}", f.name);
        let (dumps, sent) = probe(&scenario, &[f]);
        let after = format!("f.{}after.", f.name);
        let went_on = dumps
            .iter()
            .any(|d| d.label == "PreToolUse" && d.raw.contains(&after));
        let effect = f.effect(ran(&dumps, &f.name), |t| sent.contains(t), Some(!went_on));
        eprintln!("form {:<13} {effect:?}", f.name);
        entries.push(answers::Entry {
            form: f.clone(),
            effect,
        });
    }
    let book = answers::Book::new("cline-cli", VERSION, "cline", hookx_probed(), entries);
    failed.extend(book.settle("cline"));
    assert!(
        failed.is_empty(),
        "{} forms differ:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// Cline's `errorMessage` without `cancel` is context for the model (its source reads
/// `context ?? contextModification ?? errorMessage` when there is no cancel; form `msg` above):
/// a Cline handler's message, wrapped by `hookx exec --as cline`, reaches the model and the
/// call runs. Before (issue 25), hookx read it as a reason with no deny and dropped it.
fn error_message_without_cancel_reaches_the_model_through_hookx() {
    let Some(bin) = cline() else { return };
    let hookx = std::path::PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let sb = Sandbox::new("hookx-live-cline-msg");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let handler = common::write(
        &sb.root,
        "handler.sh",
        "cat > /dev/null\nprintf '%s' '{\"errorMessage\":\"R-HXMSG\"}'\n",
    );
    let wrapped = format!(
        "{} exec --as cline --host cline --event PreToolUse -- sh {}",
        hookx.display(),
        handler.display()
    );
    executable(&sb.home, ".cline/hooks/PreToolUse", &wrapped, 0o755);
    run_client(&bin, &sb, &model, "hxmsg", "hxmsg");
    let sent: String = model
        .requests_of("hxmsg")
        .iter()
        .map(|r| r["messages"].to_string())
        .collect();
    assert!(
        sb.project.join("RAN-HXMSG").exists(),
        "the call ran (no cancel)"
    );
    assert!(
        sent.contains("R-HXMSG"),
        "the handler's errorMessage reached the model through hookx"
    );
}

/// Attacks row 822: Cline reads the last stdout line starting `HOOK_CONTROL\t` as the answer,
/// whatever else stdout holds (source 3.0.65, `@cline/core`). A handler printing log lines, an
/// earlier control line and then a cancel on one (`tests/fixtures/real/cline-3.0.65/`) cancels
/// the call: run as Cline's own hook, and wrapped by `hookx exec --as cline`, which read the
/// whole stdout before and let the call run.
fn a_cancel_on_a_control_line_after_log_lines_cancels() {
    let Some(bin) = cline() else { return };
    let hookx = std::path::PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let answer = common::fixtures_dir().join("real/cline-3.0.65/cancel-on-a-control-line.out");
    let handler = format!("sh -c 'cat >/dev/null; cat {}'", answer.display());
    let wrapped = format!(
        "{} exec --as cline --host cline --event PreToolUse -- {handler}",
        hookx.display()
    );
    let mut failed = Vec::new();
    for (label, hook) in [("cline alone", handler.clone()), ("through hookx", wrapped)] {
        let sb = Sandbox::new("hookx-live-cline-ctl");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        executable(&sb.home, ".cline/hooks/PreToolUse", &hook, 0o755);
        run_client(&bin, &sb, &model, "ctl", "ctl");
        if sb.project.join("RAN-CTL").exists() {
            failed.push(format!("{label}: the call ran"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("; "));
}

/// Attacks row 927, live: a guard written as real Cline scripts write it (YosefHayim/Template's
/// `.clinerules/hooks/PreToolUse`: `TOOL=$(jq -r '.preToolUse.tool // empty')`, allow when it
/// is empty) never cancels under Cline 3.0.65, whose `preToolUse` holds `toolName`: the call
/// runs. The same guard reading `.preToolUse.toolName` cancels it. `doctor --host cline` names
/// the first read and not the second.
fn a_guard_reading_a_key_cline_does_not_send_never_cancels() {
    let Some(bin) = cline() else { return };
    let mut failed = Vec::new();
    for (key, cancels) in [("tool", false), ("toolName", true)] {
        let sb = Sandbox::new("hookx-live-cline-key");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let guard = format!(
            "#!/bin/bash\nINPUT=$(cat)\nTOOL=$(echo \"$INPUT\" | jq -r '.preToolUse.{key} // empty')\n\
             [ -z \"$TOOL\" ] && {{ echo '{{\"cancel\": false}}'; exit 0; }}\n\
             echo '{{\"cancel\": true, \"errorMessage\": \"no commands here\"}}'\n"
        );
        let path = common::write(&sb.home, ".cline/hooks/PreToolUse", &guard);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        run_client(&bin, &sb, &model, "ctl", "key");
        let ran = sb.project.join("RAN-CTL").exists();
        if ran == cancels {
            failed.push(format!(".preToolUse.{key}: the call ran: {ran}"));
        }
        let out = common::hookx_at(&sb.project, &sb.home, &["doctor", "--host", "cline"])
            .get_output()
            .clone();
        let report = String::from_utf8_lossy(&out.stdout);
        let said = report.contains("seems to read `preToolUse.tool`,");
        if said == cancels {
            failed.push(format!(
                ".preToolUse.{key}: doctor names the read: {said}: {report}"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("; "));
}

/// Attacks row 1201: the fault matrix in Cline (tests/live_common/faults.rs): a hanging, slow,
/// crashing, noisy or oversized handler beside a deny, through `hookx run` on Cline's route and
/// through the scripts `hookx convert --to cline` writes (one per handler, which Cline runs one
/// after another and whose answers it merges). A cancel ends Cline's run and its reason
/// reaches no model, so each fault has a run of its own and the check is that the command
/// never ran; a run of the control alone shows that commands do run. The odd paths (hookx in a
/// folder [`faults::SHELL_READS`], attacks rows 1534, 1726) also check that no part of the
/// folder's name ran.
fn faulty_handlers_beside_a_deny() {
    let Some(bin) = cline() else { return };
    let mut wrong = Vec::new();
    for via in [
        faults::Via::Run,
        faults::Via::Wrapped,
        faults::Via::OddRun,
        faults::Via::OddWrapped,
    ] {
        for scenario in faults::FAULTS
            .iter()
            .map(|f| format!("fault-{f}"))
            .chain(["faultctl".to_string()])
        {
            let sb = Sandbox::new("hookx-live-cline-faults");
            let model = FakeModel::start(scripts, sb.project.display().to_string());
            faults::set_up(via, "cline", &sb.root, &sb.project, &sb.home);
            // Cline hands its own environment to its hooks: the shortened limit reaches hookx.
            let limit = [("HOOKX_TEST_HOST_LIMIT_MS", faults::TEST_LIMIT_MS)];
            let keep = format!("faults-{via:?}-{scenario}");
            run_client_with(&bin, &sb, &model, &scenario, &keep, &limit);
            std::fs::write(sb.root.join("release"), "").unwrap();
            // A route or copy naming the folder `faults::SHELL_READS` runs none of its name.
            let made = faults::made_by_a_folders_name(&sb.root);
            if !made.is_empty() {
                wrong.push(format!(
                    "cline {via:?}, {scenario}: the folder's name ran: {made:?}"
                ));
            }
            let ran = |name: &str| sb.project.join(format!("ran-{name}")).exists();
            match scenario.strip_prefix("fault-") {
                Some(fault) if ran(fault) => {
                    wrong.push(format!("cline {via:?}, {fault}: the denied command ran"))
                }
                None if !ran("control") => {
                    wrong.push(format!("cline {via:?}: the allowed command did not run"))
                }
                _ => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A recording handler of another dialect: its label, the file (below the sandbox root) and
/// the file's JSON, with the recorder on the dialect's tool events.
fn foreign_handlers(sb: &Sandbox) -> Vec<(&'static str, &'static str, serde_json::Value)> {
    let group =
        |label: &str| json!([{"hooks": [{"type": "command", "command": sb.dumper(label)}]}]);
    let flat = |label: &str| json!([{"type": "command", "bash": sb.dumper(label)}]);
    vec![
        (
            "claude",
            "home/.claude/settings.json",
            json!({"hooks": {
                "PreToolUse": [
                    {"matcher": "Bash", "hooks": [{"type": "command", "command": sb.dumper("claude")}]},
                    // Cline's apply_patch, read as the edit it is.
                    {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": sb.dumper("claude-edits")}]},
                ],
                "PostToolUse": group("claude"),
            }}),
        ),
        (
            "gemini",
            "home/.gemini/settings.json",
            json!({"hooks": {"BeforeTool": group("gemini"), "AfterTool": group("gemini")}}),
        ),
        (
            "copilot",
            "home/.copilot/hooks/record.json",
            json!({"version": 1, "hooks": {"preToolUse": flat("copilot"), "postToolUse": flat("copilot")}}),
        ),
        (
            "codex",
            "home/.codex/hooks.json",
            json!({"hooks": {"PreToolUse": group("codex"), "PostToolUse": group("codex")}}),
        ),
        (
            "qwen",
            "home/.qwen/settings.json",
            json!({"hooks": {"PreToolUse": group("qwen"), "PostToolUse": group("qwen")}}),
        ),
        (
            "bricks",
            "home/.bricks-project-desktop/hooks.json",
            json!({"hooks": {"PreToolUse": group("bricks"), "PostToolUse": group("bricks")}}),
        ),
    ]
}

/// hookx in the loop: `hookx install --host cline --scope user` writes `~/.cline/hooks/
/// PreToolUse` and `PostToolUse` routes; trusted handlers of six dialects run under them, each
/// with its own dialect's payload and `HOOKX_HOST=cline`. A Claude PreToolUse deny on Bash
/// stops Cline's `run_commands` (the run aborts; the command never runs: no marker file); a
/// Claude PostToolUse context reaches the model. Cline's own scripts in the other hook folders
/// (`~/Documents/Cline/Hooks`, `.clinerules/hooks` without the executable bit, `.cline/hooks`
/// of the project) run natively, once each time.
fn routed_handlers_of_every_dialect_run_under_cline() {
    let Some(bin) = cline() else { return };
    let hookx = std::path::PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let sb = Sandbox::new("hookx-live-cline-routed");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    for (_, file, value) in foreign_handlers(&sb) {
        common::write(&sb.root, file, &value.to_string());
    }
    sb.answer(
        "claude",
        "a-deny",
        "MARKER",
        (
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"R-CLAUDE-DENY"}}"#,
            "",
            0,
        ),
    );
    // A Claude rewrite beside allow (issue 25): Cline runs it as `overrideInput`.
    sb.answer(
        "claude",
        "a-rewrite",
        "rw-me",
        (
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo rw-done"}}}"#,
            "",
            0,
        ),
    );
    sb.answer(
        "claude",
        "b-context",
        "tool_response",
        (
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"CTX-CLAUDE"}}"#,
            "",
            0,
        ),
    );
    // Cline's own hooks in its other folders.
    executable(
        &sb.home,
        "Documents/Cline/Hooks/TaskStart",
        &sb.dumper("documents-folder"),
        0o755,
    );
    executable(
        &sb.project,
        ".clinerules/hooks/PreToolUse.sh",
        &sb.dumper("rules-folder-unexecutable"),
        0o644,
    );
    executable(
        &sb.project,
        ".cline/hooks/SessionShutdown",
        &sb.dumper("project-folder"),
        0o755,
    );
    let hookx_run = |args: &[&str]| {
        let out = std::process::Command::new(&hookx)
            .args(args)
            .current_dir(&sb.project)
            .env("HOME", &sb.home)
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "hookx {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    hookx_run(&["trust", "--yes"]);
    let installed = hookx_run(&["install", "--host", "cline", "--scope", "user"]);
    let (out, stdout) = run_client(&bin, &sb, &model, "routed", "cline-routed");
    let dumps = sb.dumps();
    let requests = model.requests_of("routed");
    let mut failed = Vec::new();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failed.push(what)
        }
    };
    check(
        String::from_utf8_lossy(&installed.stderr).contains("ends Cline's whole run"),
        format!(
            "install warns that a deny ends the run: {}",
            String::from_utf8_lossy(&installed.stderr)
        ),
    );
    check(out.status.success(), format!("exit {:?}", out.status));
    // The deny: the run aborted before the command ran.
    check(
        !sb.project.join("MARKER").exists(),
        "the denied command never ran (no MARKER)".into(),
    );
    check(
        stdout.contains(r#""finishReason":"aborted""#),
        "the deny aborted the run".into(),
    );
    check(
        !dumps.iter().any(|d| {
            d.label == "claude" && d.raw.contains("MARKER") && d.raw.contains("tool_response")
        }),
        "no PostToolUse for the denied call".into(),
    );
    // The allowed call ran, and the Claude context followed its result.
    let ran = minimal::tool_result(&requests, "routed-ok");
    check(ran.contains("routed-ok"), format!("the call ran: {ran}"));
    let rewritten = minimal::tool_result(&requests, "rw-me");
    check(
        rewritten.contains("rw-done") && !rewritten.contains("\"result\":\"rw-me"),
        format!("the Claude handler's rewrite ran instead: {rewritten}"),
    );
    let context = requests.iter().any(|b| {
        b["messages"].as_array().into_iter().flatten().any(|m| {
            m["role"] == "user"
                && m["content"].as_str().is_some_and(|c| {
                    c.starts_with("<hook_context source=\"PostToolUse\"")
                        && c.contains("CTX-CLAUDE")
                })
        })
    });
    check(
        context,
        "the Claude PostToolUse context reached the model".into(),
    );
    // Each dialect's handler got its own payload, told HOOKX_HOST=cline.
    for (label, _, _) in foreign_handlers(&sb) {
        let dialect = hookx::tables::Dialect::named(label).unwrap();
        let mine: Vec<&minimal::Dump> = dumps.iter().filter(|d| d.label == label).collect();
        check(
            mine.len() >= 3,
            format!("{label}: ran on the tool events: {}", mine.len()),
        );
        for d in &mine {
            check(
                d.env.get("HOOKX_HOST").map(String::as_str) == Some("cline"),
                format!("{label}: HOOKX_HOST=cline: {:?}", d.env.get("HOOKX_HOST")),
            );
            // Its own dialect's payload: it decodes as that dialect into the call Cline made.
            let decoded = hookx::protocol::decode_event(d.raw.as_bytes(), dialect);
            let tool = decoded.as_ref().ok().and_then(|(e, _)| e.tool.clone());
            check(
                tool.as_ref().is_some_and(|t| match t.name.as_str() {
                    "shell" => t.input["command"].as_str().is_some_and(|c| {
                        ["routed-ok", "rw-me", "rw-done", "MARKER"]
                            .iter()
                            .any(|s| c.contains(s))
                    }),
                    "write" => t.input["file_path"]
                        .as_str()
                        .is_some_and(|p| p.ends_with("/notes.txt")),
                    _ => false,
                }),
                format!("{label}: its own payload of the call: {}", d.raw),
            );
        }
    }
    let claude = dumps
        .iter()
        .find(|d| d.label == "claude" && d.raw.contains("MARKER"));
    check(
        claude.is_some_and(|d| {
            d.stdin["hook_event_name"] == "PreToolUse"
                && d.stdin["tool_name"] == "Bash"
                && d.stdin["tool_input"]["command"]
                    .as_str()
                    .is_some_and(|c| c.starts_with("touch "))
        }),
        format!("the Claude handler got a Claude PreToolUse: {claude:?}"),
    );
    // The patch reached the Claude edit guard as a Write of the file, with its content.
    let edits: Vec<&minimal::Dump> = dumps.iter().filter(|d| d.label == "claude-edits").collect();
    check(
        edits.len() == 1
            && edits[0].stdin["tool_name"] == "Write"
            && edits[0].stdin["tool_input"]["file_path"]
                == json!(sb.project.join("notes.txt").display().to_string())
            && edits[0].stdin["tool_input"]["content"] == "patched-by-cline",
        format!("the Write|Edit guard saw the patch as a Write: {edits:?}"),
    );
    check(
        std::fs::read_to_string(sb.project.join("notes.txt"))
            .ok()
            .as_deref()
            == Some("patched-by-cline"),
        "the patch was applied (no newline after the last line)".into(),
    );
    // Cline's own scripts ran natively, once per event (hookx did not run them again).
    let count = |label: &str| dumps.iter().filter(|d| d.label == label).count();
    for (label, expected) in [
        ("documents-folder", 1),
        ("rules-folder-unexecutable", 4),
        ("project-folder", 1),
    ] {
        check(
            count(label) == expected,
            format!("{label} ran {expected} times: {}", count(label)),
        );
    }
    assert!(
        failed.is_empty(),
        "{} checks failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// The README's migration story under Cline (issue 24): the Claude project converted with
/// `--write` to Cline, Gemini and Codex (Cline's copy: one wrapped script per event in
/// `.clinerules/hooks/`), `hookx install --host cline`, `hookx trust --yes`; then two runs, one
/// with a shell call and a patch that adds a file, one with a shell call the guard denies (a
/// deny ends Cline's run, and its reason reaches neither the model nor the output: Cline has no
/// deny of one call). hookx runs neither the Claude file nor the other copies. A recorder of
/// Cline's own in `~/Documents/Cline/Hooks/` counts each event: every rule runs once per event,
/// with Claude's payload, and the denied command never runs. TaskComplete (Stop) fires when a
/// run completes; UserPromptSubmit never fires in `cline --json` runs (cline-facts.md): the
/// logger runs as often as its event, which is never offline. A personal Claude rule routed through
/// hookx in the user scope ([`common::story_user_route`]) puts `hookx run` on every event with
/// all the copies in sight: it runs that rule once and no copy.
/// All of it twice, each in a fresh sandbox ([`common::story_targets`]): as above, and with the
/// README's own conversion (Copilot, Gemini and Codex: no Cline copy, so hookx runs the Claude
/// file through its project route, beside the user route). Beside them, the emptied route
/// script an uninstall leaves behind a link (attacks row 408) changes nothing.
fn migration_story_runs_each_rule_once() {
    let Some(bin) = cline() else { return };
    let mut failed = Vec::new();
    for targets in common::story_targets("cline") {
        let sb = Sandbox::new("hookx-live-cline-story");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let events = [
            "PreToolUse",
            "PostToolUse",
            "UserPromptSubmit",
            "TaskComplete",
        ];
        for file in events {
            executable(
                &sb.home,
                &format!("Documents/Cline/Hooks/{file}"),
                &sb.dumper(file),
                0o755,
            );
        }
        common::migration_story(&sb.project, &sb.home, &targets, "cline");
        common::story_user_route(&sb.project, &sb.home, "cline");
        // What an uninstall leaves of a route script the user linked in (attacks row 408):
        // Cline runs it with the event's other scripts, and it answers nothing.
        let emptied = common::write(
            &sb.home,
            ".cline/hooks/PostToolUse.sh",
            &hookx::config::scripts::emptied_route(),
        );
        let mode = std::os::unix::fs::PermissionsExt::from_mode(0o755);
        std::fs::set_permissions(&emptied, mode).unwrap();
        let (first, _) = run_client(&bin, &sb, &model, "story", "cline-story");
        let (denied, stdout) = run_client(&bin, &sb, &model, "story-deny", "cline-story-deny");
        let dumps = sb.dumps();
        let fired = |file: &str, tools: &[&str]| {
            dumps
                .iter()
                .filter(|d| d.label == file)
                .filter(|d| {
                    let tool = match file {
                        "PostToolUse" => &d.stdin["tool_result"]["name"],
                        _ => &d.stdin["tool_call"]["name"],
                    };
                    tools.is_empty() || tools.iter().any(|t| tool == *t)
                })
                .count()
        };
        let mut wrong = Vec::new();
        for out in [&first, &denied] {
            if !out.status.success() {
                wrong.push(format!("exit {:?}", out.status));
            }
        }
        for (label, fired) in [
            ("guard", fired("PreToolUse", &["run_commands"])),
            ("fmt", fired("PostToolUse", &["apply_patch"])),
            ("stop", fired("TaskComplete", &[])),
        ] {
            wrong.extend(common::story_once(&sb.project, label, fired));
        }
        let prompts = fired("UserPromptSubmit", &[]);
        wrong.extend(common::story_never_prompted(
            &sb.project,
            prompts,
            "cline --json",
        ));
        // The personal rule, through hookx's user route: once per event, every event.
        let all = events.iter().map(|e| fired(e, &[])).sum();
        wrong.extend(common::story_once(&sb.project, "user", all));
        let requests = model.requests_of("story-deny");
        if requests
            .iter()
            .any(|b| b.to_string().contains("\"role\":\"tool\""))
            || fired("PostToolUse", &["run_commands"]) != 1
        {
            wrong.push("the denied call ran, or its result reached the model".into());
        }
        if !stdout.contains(r#""finishReason":"aborted""#) {
            wrong.push(format!("the deny ended the run: {stdout}"));
        }
        check_recorded(&sb, &dumps, "story");
        failed.extend(wrong.into_iter().map(|w| format!("{targets}: {w}")));
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The team loop under Cline (attacks rows 760-779, [`common::team_of_four`]): hooks written
/// for Claude, Qwen, Droid and Auggie, each file converted into the three others', hookx
/// installed for Cline in both scopes, trusted. Cline reads none of the four files: hookx's
/// project routes run every rule, each once, and no copy. Recorders of Cline's own (user hook
/// scripts) count the events over two runs, an allowed call and the denied one (a deny ends
/// Cline's run): every rule once per event, the denied call never run.
fn team_loop_runs_each_rule_once() {
    let Some(bin) = cline() else { return };
    let sb = Sandbox::new("hookx-live-cline-team");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    for file in ["PreToolUse", "UserPromptSubmit", "TaskComplete"] {
        executable(
            &sb.home,
            &format!("Documents/Cline/Hooks/{file}"),
            &sb.dumper(file),
            0o755,
        );
    }
    common::team_of_four(&sb.project, &sb.home, "cline", env!("CARGO_BIN_EXE_hookx"));
    let (first, _) = run_client(&bin, &sb, &model, "story", "cline-team");
    let (denied, stdout) = run_client(&bin, &sb, &model, "story-deny", "cline-team-deny");
    let dumps = sb.dumps();
    let fired = |file: &str, tool: Option<&str>| {
        dumps
            .iter()
            .filter(|d| d.label == file)
            .filter(|d| tool.is_none_or(|t| d.stdin["tool_call"]["name"] == t))
            .count()
    };
    let mut wrong = common::team_of_four_once(
        &sb.project,
        [
            fired("PreToolUse", Some("run_commands")),
            fired("UserPromptSubmit", None),
            fired("TaskComplete", None),
        ],
        (&[], 0),
    );
    for out in [&first, &denied] {
        if !out.status.success() {
            wrong.push(format!("exit {:?}", out.status));
        }
    }
    let requests = model.requests_of("story-deny");
    if requests
        .iter()
        .any(|b| b.to_string().contains("\"role\":\"tool\""))
    {
        wrong.push("the denied call ran, or its result reached the model".into());
    }
    if !stdout.contains(r#""finishReason":"aborted""#) {
        wrong.push(format!("the deny ended the run: {stdout}"));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Four files converted into Cline's scripts one after another (attacks row 765,
/// [`common::team_of_four_written`]): the Claude, Qwen, Droid and Augment files, none
/// converted into the others, each `convert --to cline --write` (the copies calling this
/// build), nothing installed; and with the files trusted and hookx installed for Cline in
/// both scopes first (row 771: convert then refused to write beside install's route scripts).
/// Cline runs every script of an event: each file's copies must stand beside the others' (and
/// the routes), so that every rule runs once per event and the Qwen guard's copy denies the
/// call (a deny ends Cline's run).
fn four_files_converted_into_cline_each_run_once() {
    for install_first in [false, true] {
        four_files_into_cline(install_first);
    }
}

/// [`four_files_converted_into_cline_each_run_once`], with or without hookx installed first.
fn four_files_into_cline(install_first: bool) {
    let Some(bin) = cline() else { return };
    let sb = Sandbox::new("hookx-live-cline-four");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    for file in ["PreToolUse", "TaskComplete"] {
        executable(
            &sb.home,
            &format!("Documents/Cline/Hooks/{file}"),
            &sb.dumper(file),
            0o755,
        );
    }
    common::team_of_four_written(&sb.project);
    let hookx = env!("CARGO_BIN_EXE_hookx");
    if install_first {
        common::hookx_at(&sb.project, &sb.home, &["trust", "--yes"]).success();
        for scope in ["project", "user"] {
            let args = [
                "install", "--host", "cline", "--scope", scope, "--hookx", hookx,
            ];
            common::hookx_at(&sb.project, &sb.home, &args).success();
        }
    }
    for file in common::TEAM4_FILES {
        common::hookx_clean(&sb.project)
            .env("HOME", &sb.home)
            .args([
                "convert", file, "--to", "cline", "--write", "--hookx", hookx,
            ])
            .assert()
            .success();
    }
    let (first, _) = run_client(&bin, &sb, &model, "story", "cline-four");
    let (denied, stdout) = run_client(&bin, &sb, &model, "story-deny", "cline-four-deny");
    let dumps = sb.dumps();
    let fired = |file: &str, tool: Option<&str>| {
        dumps
            .iter()
            .filter(|d| d.label == file)
            .filter(|d| tool.is_none_or(|t| d.stdin["tool_call"]["name"] == t))
            .count()
    };
    // No prompt event in `cline --json`.
    let mut wrong = common::team_of_four_once(
        &sb.project,
        [
            fired("PreToolUse", Some("run_commands")),
            0,
            fired("TaskComplete", None),
        ],
        (&[], 0),
    );
    for out in [&first, &denied] {
        if !out.status.success() {
            wrong.push(format!("exit {:?}", out.status));
        }
    }
    if !stdout.contains(r#""finishReason":"aborted""#) {
        wrong.push(format!("the Qwen guard's copy denied the call: {stdout}"));
    }
    assert!(
        wrong.is_empty(),
        "install first: {install_first}: {}",
        wrong.join("\n")
    );
}

/// The pinned binary, or `None` after a skip line.
fn cline() -> Option<std::path::PathBuf> {
    minimal::client(
        &format!("cline-{VERSION}/node_modules/@cline/cli-linux-x64/bin/cline"),
        "Cline CLI",
    )
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    harness::main(
        "live_cline",
        &[harness::client(
            "Cline CLI",
            format!("cline-{VERSION}/node_modules/@cline/cli-linux-x64/bin/cline"),
        )],
        live_tests![
            lifecycle_events_fire_as_often_as_recorded,
            ground_truth_run_commands_and_answers,
            ground_truth_answer_forms,
            error_message_without_cancel_reaches_the_model_through_hookx,
            a_cancel_on_a_control_line_after_log_lines_cancels,
            routed_handlers_of_every_dialect_run_under_cline,
            migration_story_runs_each_rule_once,
            team_loop_runs_each_rule_once,
            four_files_converted_into_cline_each_run_once,
            both_scopes_get_one_event,
            a_projects_env_file_reaches_the_users_hooks,
            a_guard_reading_a_key_cline_does_not_send_never_cancels,
            faulty_handlers_beside_a_deny,
            a_guards_copy_without_hookx_cancels_the_shell_call,
            failed_calls_as_cline_marks_them,
            a_failed_call_runs_each_teams_rule_once_under_cline,
            a_resumed_task_fires_task_resume,
            a_claude_session_start_rule_runs_on_a_resumed_task,
            a_converted_claude_session_start_rule_runs_on_a_resumed_task,
        ],
    )
}

/// The claim gate (task "claims"): the recorder as every hook file in the user's
/// `~/.cline/hooks/` (labelled by event) and the project's `.cline/hooks/` (`project-…`), one
/// `cline --json` run of the same command twice. Cline 3.0.65 hands both hooks of one event the
/// same payload (recorded in `scopes/pairs.json`); two calls alike differ by their call id.
fn both_scopes_get_one_event() {
    let Some(bin) = cline() else { return };
    let sb = Sandbox::new("hookx-live-cline-scopes");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    for e in EVENTS {
        executable(&sb.home, &format!(".cline/hooks/{e}"), &sb.dumper(e), 0o755);
        let label = format!("project-{e}");
        executable(
            &sb.project,
            &format!(".cline/hooks/{e}"),
            &sb.dumper(&label),
            0o755,
        );
    }
    let (out, _) = run_client(&bin, &sb, &model, "twice", "scopes");
    let dumps = sb.dumps();
    let (user, project) = scopes::sides(dumps.iter().map(|d| (d.label.as_str(), &d.stdin)));
    let mut failed = Vec::new();
    let problems = scopes::pairing(&user, &project, &[]);
    if !problems.is_empty() || user.is_empty() {
        failed.push(format!("both scopes, one payload per event: {problems:?}"));
    }
    let calls = scopes::alike_calls(&user, "PreToolUse", "twice-call");
    let apart = calls.get(..2).map(|c| scopes::differing(c[0], c[1]));
    eprintln!("two calls alike differ by: {apart:?}");
    if apart.as_ref().is_none_or(|a| a.is_empty()) {
        failed.push(format!("two calls alike, payloads differing in: {apart:?}"));
    }
    scopes::record(
        &format!("cline-{VERSION}"),
        "cline",
        &user,
        &project,
        &[
            (sb.project.display().to_string(), "<project>"),
            (sb.home.display().to_string(), "<home>"),
        ],
    );
    assert!(failed.is_empty(), "{}\n{out:?}", failed.join("\n"));
}

/// Attacks rows 782, 787: the Cline CLI is a Bun executable, and Bun loads the `.env` files of
/// the folder it starts in. A project's `.env` (or `.env.local`) with variables that change
/// what a hook's program loads, beside the user's own hook in `~/.cline/hooks/`: those that
/// reach that hook are those `doctor --host cline` says. Then one with `CLINE_DIR`: the user's
/// hook does not run, one below the folder it names does, and doctor says so.
fn a_projects_env_file_reaches_the_users_hooks() {
    let Some(bin) = cline() else { return };
    let vars = [
        ("PATH", "/repo-tools:/usr/bin:/bin"),
        ("LD_PRELOAD", "/repo-preload.so"),
        ("LD_LIBRARY_PATH", "/repo-lib"),
        ("BASH_ENV", "/repo-bashenv"),
        ("PYTHONPATH", "/repo-py"),
        ("SHELLOPTS", "noexec"),
        ("HXPROBE", "seen"),
    ];
    let doctor = |sb: &Sandbox| {
        let out = common::hookx_at(&sb.project, &sb.home, &["doctor", "--host", "cline"]);
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    };
    let mut failed = Vec::new();
    for file in [".env", ".env.local"] {
        let sb = Sandbox::new("hookx-live-cline-env");
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let probe = sb.root.join("probe.env");
        let hook = common::write(
            &sb.home,
            ".cline/hooks/PreToolUse",
            &format!(
                "#!/bin/sh\ntr '\\0' '\\n' < /proc/$$/environ > '{}'\necho '{{}}'\n",
                probe.display()
            ),
        );
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
        let dotenv: String = vars.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
        common::write(&sb.project, file, &dotenv);
        let (out, _) = run_client(&bin, &sb, &model, "twice", "env");
        let seen = std::fs::read_to_string(&probe).unwrap_or_default();
        if seen.is_empty() {
            failed.push(format!("{file}: the user's hook did not run: {out:?}"));
        }
        let report = doctor(&sb);
        for (name, value) in vars {
            let reached = seen.lines().any(|line| line == format!("{name}={value}"));
            eprintln!("{file:<11} {name:<16} reached the user's hook: {reached}");
            if name == "HXPROBE" {
                if !reached {
                    failed.push(format!(
                        "{file}: the project's variable did not reach the hook"
                    ));
                }
                continue;
            }
            let said = report.contains(&format!("sets `{name}` for every hook Cline runs"));
            if said != reached {
                failed.push(format!(
                    "{file}: `{name}` reached the hook: {reached}; doctor says it: {said}"
                ));
            }
        }
    }
    // `CLINE_DIR` from the project's `.env`: where Cline then looks for the user's hooks.
    let sb = Sandbox::new("hookx-live-cline-dir");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let probe = sb.root.join("ran");
    for (root, rel, label) in [
        (&sb.home, ".cline/hooks/PreToolUse", "home"),
        (&sb.project, "elsewhere/hooks/PreToolUse", "moved"),
    ] {
        let hook = common::write(
            root,
            rel,
            &format!(
                "#!/bin/sh\necho {label} >> '{}'\necho '{{}}'\n",
                probe.display()
            ),
        );
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let elsewhere = sb.project.join("elsewhere");
    common::write(
        &sb.project,
        ".env",
        &format!("CLINE_DIR={}\n", elsewhere.display()),
    );
    let (out, _) = run_client(&bin, &sb, &model, "twice", "cline-dir");
    let ran = std::fs::read_to_string(&probe).unwrap_or_default();
    eprintln!("CLINE_DIR from .env: the hooks that ran: {ran:?}");
    if ran.is_empty() || ran.lines().any(|l| l != "moved") {
        failed.push(format!("CLINE_DIR: the hooks that ran: {ran:?}; {out:?}"));
    }
    if !doctor(&sb).contains(".env sets `CLINE_DIR` (when started here)") {
        failed.push("CLINE_DIR: doctor does not say it".into());
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Attacks row 1203: a teammate without hookx (README "When hookx cannot do its job"): a
/// Claude `Bash` guard converted into Cline's scripts with `--hookx hookx`, no `hookx` on
/// Cline's `PATH`. The copy's stub answers `cancel`: the shell call never runs. Cline's scripts
/// have no matcher of their own; the stub reads the tool's name with `node` (Cline's runtime,
/// on the same `PATH`), so a `read_files` call before it goes on: the model gets the file, and
/// the shell call after it is still cancelled.
fn a_guards_copy_without_hookx_cancels_the_shell_call() {
    let Some(bin) = cline() else { return };
    let sb = Sandbox::new("hookx-live-cline-nohx");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    common::write(
        &sb.project,
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "echo no >&2; exit 2"}]}]}})
        .to_string(),
    );
    let convert = [
        ".claude/settings.json",
        "--to",
        "cline",
        "--write",
        "--hookx",
        "hookx",
    ];
    common::hookx_clean(&sb.project)
        .env("HOME", &sb.home)
        .arg("convert")
        .args(convert)
        .assert()
        .success();
    let path = [("PATH", "/usr/local/bin:/usr/bin:/bin")];
    let (_, stdout) = run_client_with(&bin, &sb, &model, "nohx", "nohx", &path);
    assert!(
        !sb.project.join("RAN-NOHX").exists(),
        "the shell call ran: {stdout}"
    );
    assert!(
        stdout.contains(r#""finishReason":"aborted""#),
        "the run was not cancelled: {stdout}"
    );
    // A `read_files` call first: it runs (its content reaches the model's next request), and
    // the shell call after it is cancelled.
    common::write(&sb.project, "notes.txt", "read-without-hookx\n");
    let (_, stdout) = run_client_with(&bin, &sb, &model, "nohx-read", "nohx-read", &path);
    let requests = model.requests_of("nohx-read");
    let read = requests
        .iter()
        .any(|r| r["messages"].to_string().contains("read-without-hookx"));
    assert!(read, "the read_files call did not run: {stdout}");
    assert!(
        !sb.project.join("RAN-NOHX").exists(),
        "the shell call after it ran: {stdout}"
    );
    assert!(
        stdout.contains(r#""finishReason":"aborted""#),
        "the run was not cancelled: {stdout}"
    );
}

/// Attacks rows 1840-1859, ground truth: the recorder as every hook file, and four calls that
/// fail: a command's exit 1 (with stderr), a command that cannot start, a read of a missing
/// file, a patch whose context is not in the file. Which events fire after each, and
/// `postToolUse.success` (hookx's `failed_call` mark for Cline); recorded as `failed.*`.
fn failed_calls_as_cline_marks_them() {
    let Some(bin) = cline() else { return };
    let sb = Sandbox::new("hookx-live-cline-failed");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    common::write(&sb.project, "notes.txt", "one\n");
    for e in EVENTS {
        executable(&sb.home, &format!(".cline/hooks/{e}"), &sb.dumper(e), 0o755);
    }
    let (out, _) = run_client(&bin, &sb, &model, "failed", "cline-failed");
    let dumps = sb.dumps();
    type Post = (String, serde_json::Value, Vec<serde_json::Value>);
    let posts: Vec<Post> = dumps
        .iter()
        .filter(|d| d.label == "PostToolUse")
        .map(|d| {
            let output = &d.stdin["tool_result"]["output"];
            let records = output.as_array().cloned().unwrap_or(vec![output.clone()]);
            let marks: Vec<serde_json::Value> =
                records.iter().map(|r| r["success"].clone()).collect();
            (
                d.stdin["postToolUse"]["toolName"].to_string(),
                d.stdin["postToolUse"]["success"].clone(),
                marks,
            )
        })
        .collect();
    eprintln!("cline {VERSION} after four failed calls: {posts:?}");
    let mut failed = Vec::new();
    if !out.status.success() {
        failed.push(format!("exit {:?}", out.status));
    }
    // Observed 3.0.65: PostToolUse after each call, `postToolUse.success: true` on each (it
    // is false only where the tool threw), the result's record `success: false`.
    let each = posts
        .iter()
        .all(|(_, s, r)| *s == json!(true) && *r == [json!(false)]);
    if posts.len() != 4 || !each {
        failed.push(format!(
            "PostToolUse once per call, its result's record `success: false`: {posts:?}"
        ));
    }
    check_recorded(&sb, &dumps, "failed");
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Attacks rows 1840, 1841: a team's Claude PostToolUse and PostToolUseFailure rules and a
/// Droid PostToolUse rule, trusted, hookx installed for Cline; the four failed calls of
/// `failed_calls_as_cline_marks_them`. Cline 3.0.65 marks each failed in its result's record
/// only (`postToolUse.success` stays true), which hookx read as a success: the Claude success
/// rule ran after each, the failure rule never. Now the failure rule runs once per call, with
/// `error`; the success rule never, nor Droid's (Droid fires none after a failed call).
fn a_failed_call_runs_each_teams_rule_once_under_cline() {
    let Some(bin) = cline() else { return };
    let hookx = std::path::PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let sb = Sandbox::new("hookx-live-cline-failrules");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    common::write(&sb.project, "notes.txt", "one\n");
    let rule = |label: &str| json!([{"matcher": "", "hooks": [{"type": "command", "command": sb.dumper(label)}]}]);
    let claude = json!({"hooks": {"PostToolUse": rule("claude-post"),
        "PostToolUseFailure": rule("claude-fail")}});
    common::write(&sb.project, ".claude/settings.json", &claude.to_string());
    let droid = json!({"hooks": {"PostToolUse": rule("droid-post")}});
    common::write(&sb.project, ".factory/settings.json", &droid.to_string());
    for args in [&["trust", "--yes"][..], &["install", "--host", "cline"]] {
        let out = std::process::Command::new(&hookx)
            .args(args)
            .current_dir(&sb.project)
            .env("HOME", &sb.home)
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap();
        assert!(out.status.success(), "hookx {args:?}: {out:?}");
    }
    let (out, _) = run_client(&bin, &sb, &model, "failed", "cline-failrules");
    let dumps = sb.dumps();
    let of = |label: &str| -> Vec<&minimal::Dump> {
        dumps.iter().filter(|d| d.label == label).collect()
    };
    let tools = |label: &str| -> Vec<String> {
        of(label)
            .iter()
            .map(|d| {
                d.stdin["tool_name"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect()
    };
    let mut failed = Vec::new();
    if !out.status.success() {
        failed.push(format!("exit {:?}", out.status));
    }
    let fails = of("claude-fail");
    if fails.len() != 4 || !fails.iter().all(|d| d.stdin["error"].is_string()) {
        failed.push(format!(
            "the Claude failure rule ran once per failed call, with `error`: {:?}",
            tools("claude-fail")
        ));
    }
    for label in ["claude-post", "droid-post"] {
        if !of(label).is_empty() {
            failed.push(format!(
                "{label} ran after a failed call: {:?}",
                tools(label)
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Attacks rows 1787 and 1980-1999: how many times Cline fires each of its hook files in one
/// session (a prompt, two `run_commands` calls and a patch, the answer), the recorder as each
/// file in `~/.cline/hooks/`: kept in `tests/fixtures/cadence/`, which
/// `tests/cadence_recorded.rs` checks hookx's tables against. No resumed run: `--id` opens the
/// interactive chat, which `--json` refuses (source: "JSON output mode requires a prompt").
fn lifecycle_events_fire_as_often_as_recorded() {
    let Some(bin) = cline() else { return };
    let sb = Sandbox::new("hookx-live-cline-cadence");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    for e in EVENTS {
        executable(&sb.home, &format!(".cline/hooks/{e}"), &sb.dumper(e), 0o755);
    }
    let main_loop = |m: &FakeModel| {
        m.requests_of("cadence")
            .iter()
            .filter(|b| b["tools"].as_array().is_some_and(|t| !t.is_empty()))
            .count()
    };
    let mut failed = Vec::new();
    let (out, stdout) = run_client(&bin, &sb, &model, "cadence", "cline-cadence");
    if !out.status.success() {
        failed.push(format!("exit {:?}: {stdout}", out.status));
    }
    let dumps = sb.dumps();
    let first = cadence::Run {
        run: "start".into(),
        prompts: 1,
        model_requests: main_loop(&model),
        tool_calls: 3,
        compactions: 0,
        fired: cadence::fired(dumps.iter().map(|d| d.label.as_str()), EVENTS),
    };
    let now = cadence::Recording {
        client: "cline".into(),
        version: VERSION.into(),
        host: "cline".into(),
        how: "--json, an OpenAI provider on the fake chat server".into(),
        runs: vec![first],
    };
    failed.extend(cadence::settle(&format!("cline-{VERSION}"), &now));
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Attacks row 2186 (1987): a task resumed with `cline --id TASK`, which opens Cline's
/// interactive chat (`--json` refuses `--id`), run on a terminal of its own (`live_common/pty.rs`)
/// after a `--json` run made the task. The recorder as every hook file in `~/.cline/hooks/`:
/// what fires on the resume, and its payload (printed, and checked for the task's id).
fn a_resumed_task_fires_task_resume() {
    let Some(bin) = cline() else { return };
    let sb = Sandbox::new("hookx-live-cline-resume");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    for e in EVENTS {
        executable(&sb.home, &format!(".cline/hooks/{e}"), &sb.dumper(e), 0o755);
    }
    let (out, stdout) = run_client(&bin, &sb, &model, "cadence", "cline-resume");
    assert!(out.status.success(), "exit {:?}: {stdout}", out.status);
    let first = sb.dumps();
    let task = first
        .iter()
        .find(|d| d.label == "TaskStart")
        .map(|d| d.stdin["taskId"].as_str().unwrap_or_default().to_string())
        .expect("TaskStart fired in the --json run");
    let fired = resume_task(&bin, &sb, &task, |_| true);
    for d in &fired {
        eprintln!("resume fired {}: {}", d.label, d.raw);
    }
    let labels: Vec<&str> = fired.iter().map(|d| d.label.as_str()).collect();
    let resume = fired.iter().find(|d| d.label == "TaskResume");
    // The resumed task's id is the payload's `sessionContext.rootSessionId`; its `taskId` is
    // a conversation of its own.
    assert!(
        resume.is_some_and(
            |d| d.stdin["sessionContext"]["rootSessionId"] == task.as_str()
                && d.stdin["hookName"] == "agent_resume"
        ) && !labels.contains(&"TaskStart"),
        "`cline --id {task}` fires TaskResume (agent_resume, rootSessionId the task's id), no \
         TaskStart: {labels:?}"
    );
}

/// What `found` finds, looked for again until it does; fails naming `what` after the
/// terminal's ceiling (a hook Cline does not wait for may end after the run).
fn wait_for<T>(what: &str, mut found: impl FnMut() -> Option<T>) -> T {
    let start = std::time::Instant::now();
    loop {
        if let Some(it) = found() {
            return it;
        }
        assert!(
            start.elapsed() < pty::CEILING,
            "waiting for {what}: not within {:?}",
            pty::CEILING
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// `cline --id TASK` on a terminal of its own, a message typed; the recordings made after it
/// once the recorder's `TaskResume` and `TaskComplete` are among them and `done` says the
/// rest are (Cline waits for no lifecycle hook: they may end after the task's answer).
fn resume_task(
    bin: &std::path::Path,
    sb: &Sandbox,
    task: &str,
    mut done: impl FnMut(&[minimal::Dump]) -> bool,
) -> Vec<minimal::Dump> {
    let before = sb.dumps().len();
    let hub_port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let _hub = HubGuard(sb.project.display().to_string());
    // `Sandbox::command`'s variables, in no process group of its own: the terminal's child
    // leads a session (setsid fails for a group leader).
    let mut cmd = std::process::Command::new(bin);
    cmd.env_clear()
        .env("HOME", &sb.home)
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("LANG", "C.UTF-8")
        .env("TMPDIR", std::env::temp_dir())
        .current_dir(&sb.project)
        .env("TERM", "xterm-256color")
        .env("CLINE_HUB_PORT", hub_port.to_string())
        .args(["--id", task]);
    let mut term = pty::Terminal::spawn(cmd, 40, 120).expect("cline on a terminal");
    // No hook fires when the chat opens: the resume fires with the first message sent.
    term.wait_for_text("Ask anything");
    term.enter_line("SCENARIO:cadence and now the follow-up");
    // The resumed task answers (its history holds the three calls: the script's answer).
    term.wait_for_text("cadence done");
    term.wait("the resume's hooks ran", |_| {
        let fired: Vec<minimal::Dump> = sb.dumps().into_iter().skip(before).collect();
        ["TaskResume", "TaskComplete"]
            .iter()
            .all(|l| fired.iter().any(|d| d.label == *l))
            && done(&fired)
    });
    sb.dumps().into_iter().skip(before).collect()
}

/// Attacks rows 2230-2233 (2186): a team's Claude SessionStart rules, on `resume`, on
/// `startup` and with no matcher, each a recorder; under Cline routed (`trust`, `install
/// --host cline`) and converted (`convert --to cline --write`), a `--json` run makes a task,
/// then `cline --id TASK` resumes it. Main carried Cline's `TaskResume` as no event: the
/// `resume` rule and the rule with no matcher never ran on the resume. Now each rule runs as
/// under Claude: on the new task the `startup` one and the one with no matcher, on the
/// resume the `resume` one and the one with no matcher, each once, shown `source: "resume"`.
fn a_claude_session_start_rule_runs_on_a_resumed_task() {
    session_start_rules_on_a_resume(false);
}

/// [`a_claude_session_start_rule_runs_on_a_resumed_task`], the rules converted
/// (`convert --to cline --write --hookx`): each a script under `TaskStart`, `TaskResume` or
/// both, as its matcher says.
fn a_converted_claude_session_start_rule_runs_on_a_resumed_task() {
    session_start_rules_on_a_resume(true);
}

/// [`a_claude_session_start_rule_runs_on_a_resumed_task`], routed or converted.
fn session_start_rules_on_a_resume(converted: bool) {
    let Some(bin) = cline() else { return };
    let hookx = env!("CARGO_BIN_EXE_hookx");
    let sb = Sandbox::new("hookx-live-cline-resume-rules");
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    for e in ["TaskStart", "TaskResume", "TaskComplete"] {
        executable(&sb.home, &format!(".cline/hooks/{e}"), &sb.dumper(e), 0o755);
    }
    let rule = |matcher: Option<&str>, label: &str| {
        let mut group = json!({"hooks": [{"type": "command", "command": sb.dumper(label)}]});
        if let Some(m) = matcher {
            group["matcher"] = json!(m);
        }
        group
    };
    let claude = json!({"hooks": {"SessionStart": [
        rule(Some("resume"), "claude-resume"),
        rule(Some("startup"), "claude-startup"),
        rule(None, "claude-any"),
    ]}});
    common::write(&sb.project, ".claude/settings.json", &claude.to_string());
    let steps: Vec<Vec<&str>> = match converted {
        false => vec![
            vec!["trust", "--yes"],
            vec!["install", "--host", "cline", "--hookx", hookx],
        ],
        true => vec![vec![
            "convert",
            ".claude/settings.json",
            "--to",
            "cline",
            "--write",
            "--hookx",
            hookx,
        ]],
    };
    for args in steps {
        match converted {
            false => common::hookx_at(&sb.project, &sb.home, &args).success(),
            true => common::hookx_clean(&sb.project)
                .env("HOME", &sb.home)
                .args(args)
                .assert()
                .success(),
        };
    }
    let keep = format!("cline-resume-rules-{converted}");
    let (out, stdout) = run_client(&bin, &sb, &model, "cadence", &keep);
    assert!(out.status.success(), "exit {:?}: {stdout}", out.status);
    let count =
        |dumps: &[minimal::Dump], label: &str| dumps.iter().filter(|d| d.label == label).count();
    // The new task's SessionStart rules ran in `TaskStart`'s firing, which Cline does not wait
    // for: bound by the recording of the rule with no matcher (it ran on main too).
    let first = wait_for("the new task's rule with no matcher ran", || {
        let dumps = sb.dumps();
        (count(&dumps, "claude-any") >= 1).then_some(dumps)
    });
    let task = first
        .iter()
        .find(|d| d.label == "TaskStart")
        .map(|d| d.stdin["taskId"].as_str().unwrap_or_default().to_string())
        .expect("TaskStart fired in the --json run");
    let mut wrong = Vec::new();
    let started = [
        count(&first, "claude-startup"),
        count(&first, "claude-any"),
        count(&first, "claude-resume"),
    ];
    if started != [1, 1, 0] {
        wrong.push(format!(
            "new task: startup, no matcher, resume ran {started:?} times, not [1, 1, 0]"
        ));
    }
    // The rules a resume fires are bound by their own recordings: at most a round's wait for
    // the ones that must not run (none of which main's code ran either).
    for problem in &wrong {
        eprintln!("converted: {converted}: {problem}");
    }
    // Bound by the recordings the resume must make (Cline waits for no lifecycle hook); one
    // that is never made fails at the terminal's ceiling, naming it.
    let fired = resume_task(&bin, &sb, &task, |fired| {
        count(fired, "claude-resume") >= 1 && count(fired, "claude-any") >= 1
    });
    let resumed = [
        count(&fired, "claude-resume"),
        count(&fired, "claude-any"),
        count(&fired, "claude-startup"),
    ];
    if resumed != [1, 1, 0] {
        wrong.push(format!(
            "resume: resume, no matcher, startup ran {resumed:?} times, not [1, 1, 0]"
        ));
    }
    for d in first
        .iter()
        .chain(&fired)
        .filter(|d| d.label.starts_with("claude-"))
    {
        eprintln!("converted: {converted}: {} was shown {}", d.label, d.raw);
    }
    for d in fired.iter().filter(|d| d.label.starts_with("claude-")) {
        if d.stdin["source"] != "resume" || d.stdin["hook_event_name"] != "SessionStart" {
            wrong.push(format!("{} was shown {}", d.label, d.raw));
        }
    }
    assert!(
        wrong.is_empty(),
        "converted: {converted}: {}",
        wrong.join("\n")
    );
}
