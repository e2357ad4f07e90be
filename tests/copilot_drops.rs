//! A `.claude/settings.json` Copilot CLI 1.0.102 drops whole for one entry it refuses
//! (`"matcher": ""` on PostToolUse here; conformance/copilot-facts.md, `src/dialect/copilot.rs`
//! `DROPS_CLAUDE_FILE`): hookx's plan runs its rules through hookx's route, and list, doctor,
//! simulate and validate say which entry and where. Through the real binary.

mod common;

use common::{hookx_at, write};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The file: a Bash guard that denies, the dropping logger at line 7, column 19, a Stop hook
/// with `"matcher": ""` (which Copilot takes).
const SETTINGS: &str = r#"{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo GUARD-NO >&2; exit 2"}]}
    ],
    "PostToolUse": [
      {"matcher": "", "hooks": [{"type": "command", "command": "true"}]}
    ],
    "Stop": [
      {"matcher": "", "hooks": [{"type": "command", "command": "true"}]}
    ]
  }
}
"#;

/// The lines of `list`'s plan under Copilot.
fn plan_lines(list: &str) -> Vec<&str> {
    list.split_once("plan (each rule once per agent):")
        .map_or("", |(_, plan)| plan)
        .lines()
        .filter(|l| l.starts_with("  copilot  "))
        .collect()
}

/// A fresh project (a git checkout) and home, in a folder that goes with the first.
fn fresh() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let (project, home) = (dir.path().join("p"), dir.path().join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    (dir, project, home)
}

/// `list --host copilot` in `project`: its stdout and stderr.
fn copilot_list(project: &Path, home: &Path) -> String {
    out(&hookx_at(project, home, &["list", "--host", "copilot"]).success())
}

/// Trusts the project, then lists it under Copilot: whether the plan has the three rules,
/// each on a line that `fits`, and the list.
fn trust_and_plan_all(project: &Path, home: &Path, fits: impl Fn(&str) -> bool) -> (bool, String) {
    hookx_at(project, home, &["trust", "--yes"]).success();
    let list = copilot_list(project, home);
    let plan = plan_lines(&list);
    let all = plan.len() == 3 && plan.iter().all(|l| fits(l));
    (all, list)
}

fn out(a: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&a.get_output().stdout).into_owned()
        + &String::from_utf8_lossy(&a.get_output().stderr)
}

#[test]
fn a_claude_file_copilot_drops_runs_through_hookx_and_every_command_says_where() {
    let (_dir, project, home) = fresh();
    write(&project, ".claude/settings.json", SETTINGS);
    let at = "`\"matcher\": \"\"` on PostToolUse at 7:19";

    // Before a route and trust: nobody runs the rules under Copilot, and list says why.
    let list = copilot_list(&project, &home);
    assert!(
        list.contains(&format!(
            "Copilot drops the whole of .claude/settings.json for {at}"
        )) && list.contains("fix at 7:19: remove `\"matcher\": \"\"`"),
        "{list}"
    );
    let plan = plan_lines(&list);
    assert_eq!(plan.len(), 3, "{list}");
    assert!(
        plan.iter()
            .all(|l| l.contains("nobody (not trusted: .claude/settings.json)")),
        "{list}"
    );
    let validate = out(&hookx_at(
        &project,
        &home,
        &["validate", "--host", "copilot"],
    ));
    assert!(
        validate.contains(".claude/settings.json:7:19: warning: Copilot drops the whole"),
        "{validate}"
    );
    // Not a Copilot project and not asked for it: no warning.
    let plain = out(&hookx_at(&project, &home, &["validate"]).success());
    assert!(plain.contains("0 warning(s)"), "{plain}");

    // Install routes the three events and lists none of the file's handlers in
    // `disabledHooks`: Copilot runs none of them to turn off.
    let install = out(&hookx_at(&project, &home, &["install", "--host", "copilot"]).success());
    assert!(
        install.contains("preToolUse, postToolUse, agentStop"),
        "{install}"
    );
    assert!(!home.join(".copilot/settings.json").exists(), "{install}");
    // Copilot reads hookx's route in `.github/hooks` only in a folder it trusts (copilot-facts,
    // run 1.0.102): the user trusts this one, as its first interactive session asks.
    write(
        &home,
        ".copilot/config.json",
        &format!(
            "{{\"trustedFolders\": [{}]}}",
            Value::from(project.to_str().unwrap())
        ),
    );
    let (all, list) = trust_and_plan_all(&project, &home, |l| {
        l.contains("hookx runs .claude/settings.json")
    });
    assert!(all, "{list}");

    // Doctor: hookx runs it, with Claude's payload, and the finding is located with its fix.
    let doctor = hookx_at(
        &project,
        &home,
        &["doctor", "--host", "copilot", "--format", "json"],
    );
    let report: Value = serde_json::from_slice(&doctor.get_output().stdout).unwrap();
    let text = report.to_string();
    assert!(
        text.contains(&format!(
            "Copilot drops the whole of .claude/settings.json for {}",
            at.replace('"', "\\\"")
        )),
        "{text}"
    );
    let file = report["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == ".claude/settings.json")
        .unwrap();
    let loading = file["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["host"] == "copilot")
        .unwrap();
    assert_eq!(loading["runner"], "hookx", "{loading}");

    // The route runs the guard with Claude's payload, and its deny is Copilot's answer.
    let payload = json!({"timestamp": 1, "cwd": project, "toolName": "bash",
        "toolArgs": "{\"command\":\"ls\"}"});
    let run = common::hookx()
        .args([
            "run",
            "--host",
            "copilot",
            "--event",
            "preToolUse",
            "--project",
        ])
        .arg(&project)
        .arg("--home")
        .arg(&home)
        .env("HOME", &home)
        .env_remove("HOOKX_HOME")
        .write_stdin(payload.to_string())
        .assert();
    let answer = out(&run);
    assert!(
        answer.contains("\"permissionDecision\":\"deny\"") && answer.contains("GUARD-NO"),
        "{answer}"
    );
}

/// A file install switched off handler by handler (`disabledHooks`, while Copilot ran it) that
/// then gains an entry Copilot drops it for: its rules stay hookx's, each once, and the next
/// install takes back the keys, which now turn off nothing of this file.
#[test]
fn keys_listed_before_the_file_was_dropped_leave_each_rule_once_and_go_at_the_next_install() {
    let (_dir, project, home) = fresh();
    let kept: Value = serde_json::from_str(SETTINGS).unwrap();
    let mut taken = kept.clone();
    taken["hooks"]
        .as_object_mut()
        .unwrap()
        .remove("PostToolUse");
    write(&project, ".claude/settings.json", &taken.to_string());
    hookx_at(&project, &home, &["install", "--host", "copilot"]).success();
    let settings = home.join(".copilot/settings.json");
    let keys = |path: &Path| -> usize {
        std::fs::read_to_string(path).map_or(0, |t| {
            serde_json::from_str::<Value>(&t).unwrap()["disabledHooks"]
                .as_array()
                .map_or(0, Vec::len)
        })
    };
    assert_eq!(
        keys(&settings),
        2,
        "Copilot runs the file: both handlers listed"
    );

    write(&project, ".claude/settings.json", &kept.to_string());
    let (all, list) = trust_and_plan_all(&project, &home, |l| {
        l.ends_with("hookx runs .claude/settings.json")
    });
    assert!(all, "{list}");
    hookx_at(&project, &home, &["install", "--host", "copilot"]).success();
    assert!(
        !settings.exists(),
        "the keys install listed are gone with the file it created"
    );
}

/// The table (`src/dialect/copilot.rs` `DROPS_CLAUDE_FILE`) against the client: every form of
/// the recorded probe (`recorded/copilot-1.0.102/drops/dropped-files.json`, `tests/live_copilot.rs`
/// `ground_truth_dropped_files`), written as the probe wrote it (an item of the event's list,
/// or its whole value where the row says `whole`), makes `validate --host
/// copilot` warn that Copilot drops the file exactly where Copilot ran none of its hooks.
#[test]
fn the_drop_table_says_what_the_recorded_client_did() {
    let book: Value = serde_json::from_str(
        &std::fs::read_to_string(
            common::fixtures_dir().join("recorded/copilot-1.0.102/drops/dropped-files.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for row in book["rows"].as_array().unwrap() {
        let file = row["file"].as_str().unwrap();
        if !file.starts_with(".claude/") {
            continue;
        }
        let (_dir, project, home) = fresh();
        let entry: Value =
            serde_json::from_str(&row["entry"].to_string().replace("ODD", "true")).unwrap();
        let guard = json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]});
        let mut hooks = serde_json::Map::new();
        hooks.insert("PreToolUse".into(), json!([guard]));
        let event = row["event"].as_str().unwrap();
        match row["whole"] == true {
            true => {
                hooks.insert(event.into(), entry);
            }
            false => hooks
                .entry(event)
                .or_insert_with(|| json!([]))
                .as_array_mut()
                .unwrap()
                .push(entry),
        }
        write(&project, file, &json!({ "hooks": hooks }).to_string());
        let validate = hookx_at(
            &project,
            &home,
            &["validate", "--host", "copilot", "--format", "json"],
        );
        let said = out(&validate).contains("Copilot drops the whole");
        let dropped = row["guard_runs"] == 0;
        if said != dropped {
            wrong.push(format!(
                "{file} {}: Copilot dropped it: {dropped}, hookx says so: {said}",
                row["form"]
            ));
        }
        checked += 1;
    }
    assert!(checked > 40, "{checked} forms checked");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
