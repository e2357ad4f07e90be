//! Claude Code 2.1.332's managed settings, with the real client (conformance/README.md).
//!
//! The public 2.1.332 build reads its policy only from `/etc/claude-code` on Linux (the
//! override its binary names, `CLAUDE_CODE_MANAGED_SETTINGS_PATH`, is compiled out), so each
//! client run happens in a private mount namespace (`unshare --mount`) where an overlay puts
//! the test's `managed-settings.json` over `/etc`: the machine's `/etc` never changes and other
//! processes never see the file. Without root or `unshare` the test skips.
//!
//! Each world has a SessionStart hook in the managed settings, in the user's settings and in
//! the project's settings, each recording under its scope's name. What Claude ran must be what
//! hookx says Claude runs (`hookx list --host claude`, with `--managed-root` pointing at the
//! same policy), and `hookx run --host claude` must run a trusted Bricks hook only where the
//! policy lets hooks of other scopes run.

// Shared with `live_claude.rs`, which uses the parts this suite does not.
#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "live_claude/client.rs"]
mod client;
#[allow(dead_code)]
#[path = "live_claude/server.rs"]
mod server;

use client::World;
use serde_json::{Value, json};
use server::{Block, FakeModel, Script};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn text_script(_step: usize, _project: &str) -> Vec<Block> {
    vec![Block::Text("Managed done.".into())]
}

static SCRIPTS: &[(&str, Script)] = &[("managed", text_script)];

const SCOPES: &[&str] = &["managed", "user", "project"];

fn write_json(path: &Path, value: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

fn session_start(world: &World, label: &str) -> Value {
    json!({"SessionStart": [{"hooks": [{"type": "command",
        "command": world.dumper_command(label, "SessionStart")}]}]})
}

/// A world whose managed settings hold `policy` plus a SessionStart recorder; returns the
/// folder standing in for `/` (`--managed-root`).
fn build(world: &World, policy: Value) -> PathBuf {
    let root = world.home.parent().unwrap().join("managed-root");
    let mut managed = policy;
    managed["hooks"] = session_start(world, "managed");
    write_json(
        &root.join("etc/claude-code/managed-settings.json"),
        &managed,
    );
    for (label, file) in [
        ("user", world.home.join(".claude/settings.json")),
        ("project", world.project.join(".claude/settings.json")),
    ] {
        write_json(&file, &json!({"hooks": session_start(world, label)}));
    }
    // A Bricks hook only hookx runs, trusted.
    write_json(
        &world.project.join(".bricks/hooks.json"),
        &json!({"hooks": session_start(world, "bricks")}),
    );
    for label in SCOPES.iter().chain(&["bricks"]) {
        world.answers(label, &[]);
    }
    let trust = hookx(world, &root, &["trust", "--yes"]).output().unwrap();
    assert!(trust.status.success(), "hookx trust: {trust:?}");
    root
}

/// `hookx ARGS… --project P --home H` with the policy at `root`.
fn hookx(world: &World, root: &Path, args: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"));
    cmd.args(args)
        .arg("--project")
        .arg(&world.project)
        .arg("--home")
        .arg(&world.home)
        .arg("--managed-root")
        .arg(root)
        .env_remove("HOOKX_MANAGED_ROOT");
    cmd
}

/// Whether `hookx run --host claude` (as a route in the managed settings would call it) runs
/// the trusted Bricks hook.
fn hookx_runs_foreign_hook(world: &World, root: &Path) -> bool {
    world.clear_records();
    let mut child = hookx(
        world,
        root,
        &["run", "--host", "claude", "--event", "SessionStart"],
    )
    .stdin(std::process::Stdio::piped())
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    let payload = json!({"session_id": "s", "transcript_path": "/dev/null", "cwd": world.project,
                         "hook_event_name": "SessionStart", "source": "startup"});
    std::io::Write::write_all(
        child.stdin.as_mut().unwrap(),
        payload.to_string().as_bytes(),
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "hookx run: {out:?}");
    world
        .records("bricks")
        .iter()
        .any(|r| r.event == "SessionStart")
}

/// A wrapper that runs the client with `root/etc/claude-code` over `/etc/claude-code`, in a
/// mount namespace of its own.
fn namespaced_client(world: &World, bin: &Path, root: &Path) -> PathBuf {
    let upper = world.home.parent().unwrap().join("overlay");
    let wrapper = world.dump.join("claude-in-namespace.sh");
    let script = format!(
        "#!/bin/sh\nexec unshare --mount --propagation private /bin/sh -c 'set -e\n\
         mount -t tmpfs tmpfs {upper}\nmkdir -p {upper}/u {upper}/w\n\
         cp -r {etc}/. {upper}/u/\n\
         mount -t overlay overlay -o lowerdir=/etc,upperdir={upper}/u,workdir={upper}/w /etc\n\
         exec \"$0\" \"$@\"' {bin} \"$@\"\n",
        upper = upper.display(),
        etc = root.join("etc").display(),
        bin = bin.display(),
    );
    std::fs::create_dir_all(&upper).unwrap();
    std::fs::write(&wrapper, script).unwrap();
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    wrapper
}

/// Whether this process may make private mounts (root with `unshare`).
fn can_namespace() -> bool {
    std::process::Command::new("unshare")
        .args(["--mount", "--propagation", "private", "true"])
        .output()
        .is_ok_and(|o| o.status.success())
}

fn fired(world: &World) -> BTreeSet<String> {
    SCOPES
        .iter()
        .filter(|l| world.records(l).iter().any(|r| r.event == "SessionStart"))
        .map(|l| l.to_string())
        .collect()
}

/// The labels of the SessionStart handlers `hookx list --host claude --format json` says
/// Claude runs, with the policy at `root`.
fn listed(world: &World, root: &Path) -> BTreeSet<String> {
    let out = hookx(
        world,
        root,
        &["list", "--host", "claude", "--format", "json"],
    )
    .output()
    .unwrap();
    assert!(out.status.success(), "hookx list: {out:?}");
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    rows.iter()
        .filter(|r| r["event"] == "SessionStart" && r["run"] == "native")
        .filter_map(|r| Some(r["handler"].as_str()?.split(' ').nth(3)?.to_string()))
        .collect()
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn managed_settings_decide_which_hooks_claude_runs() {
    let Some(bin) = client::binary() else {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "Claude Code {} is not installed (conformance/install-clients.sh) or cannot run sealed",
            client::VERSION
        );
        eprintln!(
            "skip: Claude Code {} is not installed or cannot run sealed",
            client::VERSION
        );
        return;
    };
    if !can_namespace() {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "live_claude_managed needs root and unshare(1) for a private /etc overlay"
        );
        eprintln!("skip: no private mount namespace (needs root and unshare)");
        return;
    }
    let model = FakeModel::start(SCRIPTS);
    // (policy, what Claude 2.1.332 ran)
    let cases = [
        (json!({}), names(&["managed", "user", "project"])),
        (json!({"allowManagedHooksOnly": true}), names(&["managed"])),
        (json!({"disableAllHooks": true}), names(&[])),
    ];
    for (policy, want) in cases {
        let world = World::new();
        let root = build(&world, policy.clone());
        let wrapper = namespaced_client(&world, &bin, &root);
        let hookx_says = listed(&world, &root);
        let run = client::run(&wrapper, &world, model.port, "SCRIPT:managed hello", &[]);
        let claude_ran = fired(&world);
        assert_eq!(
            claude_ran,
            want,
            "policy {policy}: Claude {} ran other hooks than recorded\n{}",
            client::VERSION,
            run.describe()
        );
        assert_eq!(
            hookx_says, claude_ran,
            "policy {policy}: hookx list --host claude disagrees with Claude"
        );
        // Under `allowManagedHooksOnly`, hookx runs no hook of another scope either; a
        // disabled Claude never calls hookx at all.
        if policy.get("disableAllHooks").is_none() {
            let managed_only = policy.get("allowManagedHooksOnly").is_some();
            assert_eq!(
                hookx_runs_foreign_hook(&world, &root),
                !managed_only,
                "policy {policy}: hookx run --host claude and the trusted Bricks hook"
            );
        }
    }
}

/// A world whose `managed-settings.json` holds `policy` plus the "managed" SessionStart
/// recorder, with the drop-ins `(file name, keys, whether it adds a recorder under its name)` in
/// `managed-settings.d/`, and the user's and project's recorders; returns the policy root.
fn build_with_drop_ins(world: &World, policy: Value, drop_ins: &[(&str, Value, bool)]) -> PathBuf {
    let root = build(world, policy);
    let dir = root.join("etc/claude-code/managed-settings.d");
    for (name, keys, hooked) in drop_ins {
        let mut doc = keys.clone();
        if *hooked {
            doc["hooks"] = session_start(world, label_of(name));
            world.answers(label_of(name), &[]);
        }
        write_json(&dir.join(name), &doc);
    }
    root
}

/// A drop-in's recorder label: its file name without `.json` (`10-audit`).
fn label_of(name: &str) -> &str {
    name.trim_end_matches(".json")
}

/// Like [`fired`], for these labels too.
fn fired_of(world: &World, extra: &[&str]) -> BTreeSet<String> {
    SCOPES
        .iter()
        .chain(extra)
        .filter(|l| world.records(l).iter().any(|r| r.event == "SessionStart"))
        .map(|l| l.to_string())
        .collect()
}

/// `managed-settings.d/*.json` (Claude Code 2.1.332): how the drop-ins merge with
/// `managed-settings.json` and with each other, as Claude runs them and as `hookx list --host
/// claude` says it does.
fn managed_drop_ins_merge_with_managed_settings() {
    let Some(bin) = client::binary() else {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "Claude Code {} is not installed (conformance/install-clients.sh) or cannot run sealed",
            client::VERSION
        );
        eprintln!(
            "skip: Claude Code {} is not installed or cannot run sealed",
            client::VERSION
        );
        return;
    };
    if !can_namespace() {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "live_claude_managed needs root and unshare(1) for a private /etc overlay"
        );
        eprintln!("skip: no private mount namespace (needs root and unshare)");
        return;
    }
    let model = FakeModel::start(SCRIPTS);
    let on = |key: &str| json!({key: true});
    let off = |key: &str| json!({key: false});
    let none = json!({});
    type Case<'a> = (&'a str, Value, Vec<(&'a str, Value, bool)>, &'a [&'a str]);
    // (what the case shows, managed-settings.json keys, drop-ins, what Claude 2.1.332 ran)
    let cases: Vec<Case> = vec![
        (
            "drop-in hooks run beside the file's, a dot-file and a non-.json file are not read",
            none.clone(),
            vec![
                ("10-audit.json", none.clone(), true),
                (".20-hidden.json", none.clone(), true),
                ("30-notes.txt", none.clone(), true),
            ],
            &["10-audit", "managed", "project", "user"],
        ),
        (
            "allowManagedHooksOnly in a drop-in",
            none.clone(),
            vec![("10-only.json", on("allowManagedHooksOnly"), true)],
            &["10-only", "managed"],
        ),
        (
            "a drop-in's allowManagedHooksOnly false undoes the file's true",
            on("allowManagedHooksOnly"),
            vec![("10-undo.json", off("allowManagedHooksOnly"), false)],
            &["managed", "project", "user"],
        ),
        (
            "of two drop-ins the later in name order decides allowManagedHooksOnly",
            none.clone(),
            vec![
                ("10-only.json", on("allowManagedHooksOnly"), true),
                ("20-undo.json", off("allowManagedHooksOnly"), false),
            ],
            &["10-only", "managed", "project", "user"],
        ),
        (
            "disableAllHooks in a drop-in",
            none.clone(),
            vec![("10-off.json", on("disableAllHooks"), true)],
            &[],
        ),
        (
            "a later drop-in's disableAllHooks false over the file's true",
            on("disableAllHooks"),
            vec![("10-on.json", off("disableAllHooks"), false)],
            &["managed", "project", "user"],
        ),
        (
            "of two drop-ins the later in name order decides disableAllHooks",
            none.clone(),
            vec![
                ("10-on.json", off("disableAllHooks"), false),
                ("20-off.json", on("disableAllHooks"), false),
            ],
            &[],
        ),
    ];
    let mut failures = Vec::new();
    for (what, policy, drop_ins, want) in cases {
        let world = World::new();
        let root = build_with_drop_ins(&world, policy, &drop_ins);
        let wrapper = namespaced_client(&world, &bin, &root);
        let labels: Vec<&str> = drop_ins.iter().map(|(n, _, _)| label_of(n)).collect();
        let hookx_says = listed(&world, &root);
        let run = client::run(&wrapper, &world, model.port, "SCRIPT:managed hello", &[]);
        let claude_ran = fired_of(&world, &labels);
        if claude_ran != names(want) {
            failures.push(format!(
                "{what}: Claude {} ran {claude_ran:?}, recorded {want:?}\n{}",
                client::VERSION,
                run.describe()
            ));
        }
        if hookx_says != claude_ran {
            failures.push(format!(
                "{what}: hookx list --host claude says {hookx_says:?}, Claude ran {claude_ran:?}"
            ));
        }
        // `hookx run --host claude` runs the trusted Bricks hook exactly when Claude runs hooks
        // of other scopes than the policy's (a disabled Claude never calls hookx).
        if !want.is_empty() && hookx_runs_foreign_hook(&world, &root) != want.contains(&"user") {
            failures.push(format!(
                "{what}: hookx run --host claude and the trusted Bricks hook disagree with Claude"
            ));
        }
    }
    // A policy document that is no JSON object (it does not parse, or its top is an array),
    // `managed-settings.json` or a drop-in before one that adds a hook: Claude refuses to start
    // ("Managed settings document could not be parsed as a JSON object; none of its settings are
    // in effect. Fix or remove it.", exit 1). One whose `hooks` is wrong only loses them ("Managed
    // settings contain invalid entries (remaining valid policies are still enforced)").
    let bad_json = "{\"disableAllHooks\": tru";
    let started: &[&str] = &["20-audit", "project", "user"];
    let cases: [(&str, &str, &[&str], &str); 5] = [
        (
            "managed-settings.json",
            "// a comment\n{}",
            &[],
            "could not be parsed",
        ),
        (
            "managed-settings.json",
            bad_json,
            &[],
            "could not be parsed",
        ),
        (
            "managed-settings.d/10-broken.json",
            bad_json,
            &[],
            "could not be parsed",
        ),
        ("managed-settings.json", "[1]", &[], "could not be parsed"),
        (
            "managed-settings.json",
            "{\"hooks\": \"x\"}",
            started,
            "invalid entries",
        ),
    ];
    for (broken, text, want, said) in cases {
        let world = World::new();
        let root = build_with_drop_ins(
            &world,
            none.clone(),
            &[("20-audit.json", none.clone(), true)],
        );
        std::fs::write(root.join("etc/claude-code").join(broken), text).unwrap();
        let wrapper = namespaced_client(&world, &bin, &root);
        let hookx_says = listed(&world, &root);
        let run = client::run(&wrapper, &world, model.port, "SCRIPT:managed hello", &[]);
        let claude_ran = fired_of(&world, &["20-audit"]);
        let status = if want.is_empty() { Some(1) } else { Some(0) };
        if claude_ran != names(want) || run.status != status || !run.stderr.contains(said) {
            failures.push(format!(
                "{broken} {text}: Claude {} ran {claude_ran:?}, recorded {want:?} and {said:?}\n{}",
                client::VERSION,
                run.describe()
            ));
        }
        if hookx_says != claude_ran {
            failures.push(format!(
                "{broken} {text}: hookx list --host claude says {hookx_says:?}, Claude ran {claude_ran:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    harness::main(
        "live_claude_managed",
        &[
            harness::client(
                "Claude Code",
                format!(
                    "claude-{}/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
                    client::VERSION
                ),
            ),
            harness::Need::Condition {
                what: "root and unshare(1) for a private mount namespace",
                met: can_namespace(),
            },
        ],
        live_tests![
            managed_settings_decide_which_hooks_claude_runs,
            managed_drop_ins_merge_with_managed_settings,
        ],
    )
}
