//! Codex CLI 0.171.0's `config.toml [hooks]` layers and its machine policy
//! (`/etc/codex/requirements.toml`, `/etc/codex/config.toml`), with the real client
//! (conformance/README.md, conformance/codex-facts.md).
//!
//! Codex reads its policy only from `/etc/codex` on Linux (no variable moves it), so each client
//! run happens in a private mount namespace (`unshare --mount`) where an overlay puts the test's
//! `etc/codex` over `/etc`: the machine's `/etc` never changes and no other process sees it.
//! Without root or `unshare` the test skips.
//!
//! Each world has a SessionStart recorder in every place Codex reads hooks from: the policy's
//! managed hooks, the system `config.toml`, the user `hooks.json` and `config.toml`, and the
//! (trusted) project's `.codex/config.toml`; the user and project ones trusted by hash the way
//! the `/hooks` review trusts them. What Codex ran must be what `hookx list --host codex` says
//! it runs (with `--managed-root` at the same policy), and `hookx run --host codex` must run
//! a trusted Bricks hook only where the policy lets hooks of other scopes run.

#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "live_codex/client.rs"]
mod client;
mod common;
#[allow(dead_code)]
#[path = "live_codex/server.rs"]
mod server;

use client::{HookFile, Sandbox};
use serde_json::{Value, json};
use server::{FakeModel, Step};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn scripts(_name: &str, _project: &str) -> Vec<Step> {
    vec![Step::Text("policy done")]
}

/// Where a recorder sits, named after it.
const PLACES: &[&str] = &[
    "managed",
    "system",
    "user-json",
    "user-toml",
    "project-toml",
];

fn session_start(sb: &Sandbox, label: &str) -> Value {
    json!({"SessionStart": [{"hooks": [{"type": "command", "command": sb.dumper(label)}]}]})
}

/// `[[hooks.SessionStart]]` with one recorder, as TOML.
fn toml_session_start(sb: &Sandbox, label: &str) -> String {
    format!(
        "[[hooks.SessionStart]]\nhooks = [{{ type = \"command\", command = {} }}]\n",
        json!(sb.dumper(label))
    )
}

/// A world whose `requirements.toml` starts with `policy`; returns the folder standing in for
/// `/` (`--managed-root`).
fn build(sb: &Sandbox, policy: &str) -> PathBuf {
    let root = sb.root.join("managed-root");
    let etc = root.join("etc/codex");
    std::fs::create_dir_all(&etc).unwrap();
    std::fs::write(
        etc.join("requirements.toml"),
        format!("{policy}\n{}", toml_session_start(sb, "managed")),
    )
    .unwrap();
    std::fs::write(etc.join("config.toml"), toml_session_start(sb, "system")).unwrap();
    sb.trusted_hooks(HookFile::UserJson, &session_start(sb, "user-json"));
    sb.trusted_hooks(HookFile::UserToml, &session_start(sb, "user-toml"));
    sb.trusted_hooks(HookFile::ProjectToml, &session_start(sb, "project-toml"));
    sb.trust_project();
    // A Bricks hook only hookx runs, trusted.
    sb.write(
        "project/.bricks/hooks.json",
        &client::pretty(&json!({"hooks": session_start(sb, "bricks")})),
    );
    let trust = hookx(sb, &root, &["trust", "--yes"]).output().unwrap();
    assert!(trust.status.success(), "hookx trust: {trust:?}");
    root
}

/// `hookx ARGS… --project P --home H` with the policy at `root`.
fn hookx(sb: &Sandbox, root: &Path, args: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"));
    cmd.args(args)
        .arg("--project")
        .arg(&sb.project)
        .arg("--home")
        .arg(&sb.home)
        .arg("--managed-root")
        .arg(root)
        .env_remove("HOOKX_MANAGED_ROOT");
    cmd
}

/// A wrapper that runs the client with `root/etc/codex` over `/etc/codex`, in a mount namespace
/// of its own.
fn namespaced_client(sb: &Sandbox, bin: &Path, root: &Path) -> PathBuf {
    let upper = sb.root.join("overlay");
    let wrapper = sb.root.join("codex-in-namespace.sh");
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

/// The places whose SessionStart recorder ran.
fn fired(sb: &Sandbox) -> BTreeSet<String> {
    sb.dumps()
        .iter()
        .filter(|d| PLACES.contains(&d.label.as_str()) && d.raw.contains("SessionStart"))
        .map(|d| d.label.clone())
        .collect()
}

/// The places whose SessionStart handlers `hookx list --host codex --format json` says Codex
/// runs, with the policy at `root`.
fn listed(sb: &Sandbox, root: &Path) -> BTreeSet<String> {
    let out = hookx(sb, root, &["list", "--host", "codex", "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "hookx list: {out:?}");
    let rows: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    rows.iter()
        .filter(|r| r["event"] == "SessionStart" && r["run"] == "native")
        .filter_map(|r| Some(r["handler"].as_str()?.split(' ').nth(3)?.to_string()))
        .collect()
}

/// Whether `hookx run --host codex` (as a route would call it) runs the trusted Bricks hook.
fn hookx_runs_foreign_hook(sb: &Sandbox, root: &Path) -> bool {
    let before = sb.dumps().iter().filter(|d| d.label == "bricks").count();
    let mut child = hookx(sb, root, &["run", "--host", "codex"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let payload = json!({"session_id": "s", "transcript_path": null, "cwd": sb.project,
        "hook_event_name": "SessionStart", "model": "gpt-5.5",
        "permission_mode": "bypassPermissions", "source": "startup"});
    std::io::Write::write_all(
        child.stdin.as_mut().unwrap(),
        payload.to_string().as_bytes(),
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "hookx run: {out:?}");
    sb.dumps().iter().filter(|d| d.label == "bricks").count() > before
}

fn names(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn config_toml_layers_and_policy_decide_which_hooks_codex_runs() {
    let Some(bin) = client::binary() else {
        return;
    };
    if !can_namespace() {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "live_codex_managed needs root and unshare(1) for a private /etc overlay"
        );
        eprintln!("skip: no private mount namespace (needs root and unshare)");
        return;
    }
    // (requirements.toml before its managed hook, what Codex 0.171.0 ran, whether hookx runs
    // hooks of other scopes)
    let worlds: &[(&str, &[&str], bool)] = &[
        ("", PLACES, true),
        ("allow_managed_hooks_only = false", PLACES, true),
        (
            "allow_managed_hooks_only = true",
            &["managed", "system"],
            false,
        ),
    ];
    let mut failed = Vec::new();
    for (policy, want, foreign) in worlds {
        let sb = Sandbox::new();
        let root = build(&sb, policy);
        let wrapper = namespaced_client(&sb, &bin, &root);
        let model = FakeModel::start(scripts, sb.project.display().to_string());
        let out = sb.run(&wrapper, model.port, "SCENARIO:policy go", &[], &[]);
        let ran = fired(&sb);
        if out.status != Some(0) || ran != names(want) {
            failed.push(format!(
                "{policy:?}: Codex exit {:?}, ran {ran:?}, expected {want:?}\nstderr: {}",
                out.status, out.stderr
            ));
        }
        let listed = listed(&sb, &root);
        if listed != ran {
            failed.push(format!(
                "{policy:?}: hookx lists {listed:?} as Codex's, Codex ran {ran:?}"
            ));
        }
        let runs = hookx_runs_foreign_hook(&sb, &root);
        if runs != *foreign {
            failed.push(format!(
                "{policy:?}: hookx run --host codex ran the Bricks hook: {runs}, expected {foreign}"
            ));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    harness::main(
        "live_codex_managed",
        &[
            harness::client(
                "Codex CLI",
                format!(
                    "codex-{}/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
                    client::VERSION
                ),
            ),
            harness::Need::Condition {
                what: "root and unshare(1) for a private mount namespace",
                met: can_namespace(),
            },
        ],
        live_tests![config_toml_layers_and_policy_decide_which_hooks_codex_runs,],
    )
}
