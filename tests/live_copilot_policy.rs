//! Copilot CLI 1.0.102's policy hooks and folder trust, with the real client
//! (conformance/README.md). Copilot reads machine policy hooks from
//! `/etc/github-copilot/policy.d/*.json`; each client run happens in a private mount namespace
//! (`unshare --mount`) where an overlay puts the test's policy over `/etc`, so the machine's
//! `/etc` never changes. Without root or `unshare` the test skips.
//!
//! A sessionStart recorder sits in a policy file, in the user's hooks and in the repo's
//! `.github/hooks`, and the folder is not trusted (`-p` without the opt-in variable). What the
//! client ran must be exactly what `hookx doctor --host copilot` says fires, with
//! `HOOKX_MANAGED_ROOT` pointing at the same policy.

// Shared with `live_copilot.rs`, which uses the parts this suite does not.
#[macro_use]
#[path = "live_common/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "live_copilot/client.rs"]
mod client;
#[allow(dead_code)]
#[path = "live_common/chat_server.rs"]
mod server;

use client::Sandbox;
use serde_json::{Value, json};
use server::{FakeModel, Step};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn scripts(_name: &str, _project: &str) -> Vec<Step> {
    vec![Step::Text("Policy done.")]
}

/// (file below the sandbox root, label).
const FILES: &[(&str, &str)] = &[
    ("managed/etc/github-copilot/policy.d/audit.json", "policy"),
    ("home/.copilot/hooks/mine.json", "user"),
    ("project/.github/hooks/repo.json", "repo"),
];

fn can_namespace() -> bool {
    std::process::Command::new("unshare")
        .args(["--mount", "--propagation", "private", "true"])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// A wrapper that runs the client with `root/etc` laid over `/etc` in a namespace of its own.
fn namespaced(sb: &Sandbox, bin: &Path, root: &Path) -> PathBuf {
    let upper = sb.root.join("overlay");
    std::fs::create_dir_all(&upper).unwrap();
    let wrapper = sb.root.join("copilot-in-namespace.sh");
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
    std::fs::write(&wrapper, script).unwrap();
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    wrapper
}

/// The labels of the files whose sessionStart rule `hookx doctor --host copilot` says fires,
/// with the policy under `managed`; the report must list `files` files.
fn doctor_fires(sb: &Sandbox, managed: &Path, files: usize) -> BTreeSet<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args([
            "doctor",
            "--host",
            "copilot",
            "--format",
            "json",
            "--project",
        ])
        .arg(&sb.project)
        .arg("--home")
        .arg(&sb.home)
        .env("HOOKX_MANAGED_ROOT", managed)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let doctor_fires: BTreeSet<String> = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rules"][0]["hosts"][0]["status"] == "fires")
        .filter_map(|f| {
            let file = f["file"].as_str()?;
            let (_, label) = FILES.iter().find(|(path, _)| {
                let rel = path.split_once('/').map_or(*path, |(_, rest)| rest);
                file.ends_with(rel)
            })?;
            Some(label.to_string())
        })
        .collect();
    assert_eq!(
        report["files"].as_array().unwrap().len(),
        files,
        "{report:#}"
    );
    doctor_fires
}

fn policy_hooks_run_in_an_untrusted_folder_and_doctor_says_so() {
    let Some(bin) = client::binary() else {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "Copilot CLI {} is not installed (conformance/install-clients.sh)",
            client::VERSION
        );
        eprintln!("skip: Copilot CLI {} is not installed", client::VERSION);
        return;
    };
    if !can_namespace() {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "live_copilot_policy needs root and unshare(1) for a private /etc overlay"
        );
        eprintln!("skip: no private mount namespace (needs root and unshare)");
        return;
    }
    let sb = Sandbox::new();
    for (file, label) in FILES {
        let hooks = json!({"version": 1, "hooks": {"sessionStart": [
            {"type": "command", "bash": sb.dumper(label)}]}});
        sb.write(file, &hooks.to_string());
    }
    let managed = sb.root.join("managed");

    let doctor_fires = doctor_fires(&sb, &managed, FILES.len());

    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let wrapper = namespaced(&sb, &bin, &managed);
    let run = sb.run(&wrapper, model.port, "SCENARIO:policy say hi", &[], &[]);
    let ran: BTreeSet<String> = sb.dumps().into_iter().map(|d| d.label).collect();
    assert!(
        ran.contains("user"),
        "the run did not get far enough: {ran:?}\n{}\n{}",
        run.stdout,
        run.stderr
    );
    assert_eq!(
        ran,
        ["policy", "user"].map(String::from).into(),
        "Copilot {} ran other hooks than recorded",
        client::VERSION
    );
    assert_eq!(doctor_fires, ran, "hookx doctor disagrees with Copilot");
}

/// A policy file that does not parse, beside one that does: Copilot skips it and runs the rest
/// (unlike Claude Code, which does not start), as `hookx doctor --host copilot` says.
fn a_policy_file_that_does_not_parse() {
    let Some(bin) = client::binary() else {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "Copilot CLI {} is not installed (conformance/install-clients.sh)",
            client::VERSION
        );
        eprintln!("skip: Copilot CLI {} is not installed", client::VERSION);
        return;
    };
    if !can_namespace() {
        assert!(
            std::env::var("HOOKX_LIVE").as_deref() != Ok("require"),
            "live_copilot_policy needs root and unshare(1) for a private /etc overlay"
        );
        eprintln!("skip: no private mount namespace (needs root and unshare)");
        return;
    }
    let sb = Sandbox::new();
    for (file, label) in FILES {
        let hooks = json!({"version": 1, "hooks": {"sessionStart": [
            {"type": "command", "bash": sb.dumper(label)}]}});
        sb.write(file, &hooks.to_string());
    }
    sb.write(
        "managed/etc/github-copilot/policy.d/broken.json",
        "{\"version\": 1, \"hooks\": tru",
    );
    let managed = sb.root.join("managed");
    // The broken file is listed too, with no rule.
    let doctor_fires = doctor_fires(&sb, &managed, FILES.len() + 1);
    let model = FakeModel::start(scripts, sb.project.display().to_string());
    let wrapper = namespaced(&sb, &bin, &managed);
    let run = sb.run(&wrapper, model.port, "SCENARIO:policy say hi", &[], &[]);
    let ran: BTreeSet<String> = sb.dumps().into_iter().map(|d| d.label).collect();
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert_eq!(
        ran,
        ["policy", "user"].map(String::from).into(),
        "Copilot {} ran other hooks than recorded",
        client::VERSION
    );
    assert_eq!(doctor_fires, ran, "hookx doctor disagrees with Copilot");
}

/// The suite's tests, run by the live harness: ignored, saying why, when the client is missing.
fn main() -> std::process::ExitCode {
    harness::main(
        "live_copilot_policy",
        &[
            harness::client(
                "Copilot CLI",
                format!(
                    "copilot-{}/node_modules/@github/copilot-linux-x64/copilot",
                    client::VERSION
                ),
            ),
            harness::Need::Condition {
                what: "root and unshare(1) for a private mount namespace",
                met: can_namespace(),
            },
        ],
        live_tests![
            policy_hooks_run_in_an_untrusted_folder_and_doctor_says_so,
            a_policy_file_that_does_not_parse,
        ],
    )
}
