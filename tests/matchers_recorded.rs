//! What each real client fired for `live_common/matcher_probe.rs`'s matchers (recorded by the
//! live suites in `tests/fixtures/matchers/CLIENT-VERSION.json`), against what hookx
//! reads the same file as: `hookx simulate` on each recorded call's own payload must name the
//! matchers the client fired, no more, no fewer (attacks rows 1450-1469).

#[allow(dead_code)]
#[path = "live_common/matcher_probe.rs"]
mod matcher_probe;

use std::path::PathBuf;

#[test]
fn each_recorded_clients_matchers_fire_as_hookx_reads_them() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/matchers");
    let hookx = PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let mut seen = 0;
    let mut differ = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let file = entry.unwrap().path();
        let text = std::fs::read_to_string(&file).unwrap();
        let rec: matcher_probe::Recording =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        seen += 1;
        for d in matcher_probe::against_hookx(&hookx, &rec) {
            differ.push(format!("{} {}: {d}", rec.client, rec.version));
        }
    }
    assert!(seen > 0, "no recording under {}", root.display());
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// Each recorded client's tool names and their Claude Code, Gemini CLI and Copilot CLI
/// counterparts (Codex's `apply_patch` stands for several tools, and is left out).
const COUNTERPARTS: &[(&[&str], [&str; 3])] = &[
    (
        &["run_shell_command", "Bash", "bash", "Execute"],
        ["Bash", "run_shell_command", "bash"],
    ),
    (
        &["write_file", "Write", "create", "Create"],
        ["Write", "write_file", "create"],
    ),
    (&["edit", "Edit", "replace"], ["Edit", "replace", "edit"]),
    (
        &["read_file", "Read", "view"],
        ["Read", "read_file", "view"],
    ),
];

/// The hosts the recorded rules are dispatched under, with the event of each.
const HOSTS: [(&str, &str); 3] = [
    ("claude", "PreToolUse"),
    ("gemini", "BeforeTool"),
    ("copilot", "preToolUse"),
];

/// The recorded file's rules, trusted, dispatched by hookx's user routes under Claude Code,
/// Gemini CLI and Copilot CLI (those of the three that are not the recorded client) on each
/// recorded call's counterpart: the matchers that fire are those the client fired (a
/// Qwen guard on `shell` denies a Claude `Bash` call, attacks row 1450).
#[test]
fn each_recorded_clients_matchers_fire_so_under_other_hosts() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/matchers");
    let hookx = PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let mut differ = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let file = entry.unwrap().path();
        let text = std::fs::read_to_string(&file).unwrap();
        let rec: matcher_probe::Recording = serde_json::from_str(&text).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (home, project) = (dir.path().join("home"), dir.path().join("project"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let at = home.join(&rec.file);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        let body = matcher_probe::hook_file(&rec.host, &rec.event);
        std::fs::write(&at, body.to_string()).unwrap();
        let hx = |args: &[&str]| {
            std::process::Command::new(&hookx)
                .args(args)
                .arg("--project")
                .arg(&project)
                .arg("--home")
                .arg(&home)
                .env("HOME", &home)
                .current_dir(&project)
                .output()
                .unwrap()
        };
        let own = |host: &str| rec.host.split('-').next() == Some(host);
        for (host, _) in HOSTS.iter().filter(|(h, _)| !own(h)) {
            assert!(
                hx(&["install", "--host", host, "--scope", "user"])
                    .status
                    .success()
            );
        }
        assert!(hx(&["trust", "--yes"]).status.success());
        for call in &rec.calls {
            let name = matcher_probe::name(&call.payload)
                .as_str()
                .unwrap_or_default();
            let Some((_, tools)) = COUNTERPARTS.iter().find(|c| c.0.contains(&name)) else {
                continue;
            };
            for ((host, event), tool) in HOSTS.iter().zip(tools).filter(|((h, _), _)| !own(h)) {
                let out = hx(&[
                    "simulate",
                    "--host",
                    host,
                    "--event",
                    event,
                    "--tool",
                    tool,
                    "--input",
                    "{}",
                    "--dry-run",
                    "--format",
                    "json",
                ]);
                let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
                let mut fired: Vec<usize> = report["would_run"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|w| {
                        w["command"]
                            .as_str()?
                            .strip_prefix("true ")
                            .and_then(matcher_probe::index)
                    })
                    .collect();
                fired.sort();
                let fired: Vec<Option<String>> = fired
                    .into_iter()
                    .map(|i| matcher_probe::MATCHERS[i].map(str::to_string))
                    .collect();
                if fired != call.fired {
                    differ.push(format!(
                        "{}'s rules under {host} on {tool}: hookx ran {fired:?}, {} fired {:?} on {name}",
                        rec.client, rec.client, call.fired
                    ));
                }
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
