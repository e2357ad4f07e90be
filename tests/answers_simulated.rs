//! `hookx simulate` against what each real client did with its own hook's answer (attacks rows
//! 1900-1919): every form of each answer book (`tests/fixtures/recorded/CLIENT-VERSION/
//! answers.json`, recorded by the live suites with the client's own hook printing the form)
//! printed by a handler in the client's own file, and `simulate --host CLIENT` asked what
//! becomes of the shell call: whether it runs (and rewritten), and whether the agent stops.
//! The books' probes run where nobody can be asked (`-p`), so an `ask` that holds is a call
//! not run. Where simulate's prediction is known to differ and is left so, [`KNOWN`] says why.

#[path = "live_common/answers.rs"]
mod answers;

use answers::{Book, Ran};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Where each client's own hook file sits below the home, and its shell tool's name and input
/// as its hooks see them.
fn layout(host: &str) -> Option<(&'static str, &'static str, Value)> {
    let input = json!({"command": "printf x > o.txt", "description": "d"});
    Some(match host {
        "claude" => (".claude/settings.json", "Bash", input),
        "codex" => (
            ".codex/hooks.json",
            "Bash",
            json!({"command": "printf x > o.txt"}),
        ),
        "gemini" => (".gemini/settings.json", "run_shell_command", input),
        "qwen" => (".qwen/settings.json", "run_shell_command", input),
        "droid" => (
            ".factory/settings.json",
            "Execute",
            json!({"command": "printf x > o.txt"}),
        ),
        // Either casing: simulate reads Copilot's own tool names.
        "copilot" => (".copilot/hooks/probe.json", "bash", input),
        _ => return None,
    })
}

/// Differences between simulate and a book that stay, each with its row: (client, form).
const KNOWN: &[(&str, &str, &str)] = &[
    // hookx reads a handler's answer more leniently than its own client (a deny the client
    // drops is still a deny): simulate says deny, the client ran the call (row 1903).
    ("copilot-cli", "cblock", "1903"),
    ("factory-droid", "blockold", "1903"),
    ("copilot-cli", "chalfdeny", "1903"),
    // `continue: false` on the call's guard: these clients run no call beside it, Claude Code
    // runs it; no table says which (row 1901: simulate says the agent stops).
    ("factory-droid", "hxprestop", "1901"),
    ("gemini-cli", "hxprestop", "1901"),
    // An `ask` in `-p`: Gemini CLI ends the run, which simulate calls an ask (row 1905).
    ("gemini-cli", "nativeask", "1905"),
    ("gemini-cli", "hxpreask", "1905"),
    // `defer`: Claude Code runs not the call (an ask, as simulate says) and ends the `-p` run;
    // interactively it ignores the defer (its source), so simulate, which cannot tell the two,
    // says no stop (row 2002).
    ("claude-code", "deferrw", "2002"),
    ("claude-code", "deferbare", "2002"),
];

/// What simulate predicts of one form's call: (the call ran as, the agent stopped).
fn predict(hookx: &Path, host: &str, form: &answers::Form) -> Option<(Ran, bool, Value)> {
    let (file, tool, input) = layout(host)?;
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::write(dir.path().join("out"), &form.stdout).unwrap();
    std::fs::write(dir.path().join("err"), &form.stderr).unwrap();
    let command = format!(
        "cat '{0}/out'; cat '{0}/err' >&2; exit {1}",
        dir.path().display(),
        form.exit
    );
    let body = match host {
        "copilot" => {
            let key = match form.event.starts_with(char::is_lowercase) {
                true => "bash",
                false => "command",
            };
            json!({"version": 1, "hooks": {&form.event: [{"type": "command", key: command}]}})
        }
        _ => {
            json!({"hooks": {&form.event: [{"hooks": [{"type": "command", "command": command}]}]}})
        }
    };
    let at = home.join(file);
    std::fs::create_dir_all(at.parent().unwrap()).unwrap();
    std::fs::write(&at, body.to_string()).unwrap();
    if host == "codex" {
        // Reviewed in Codex's `/hooks`, as the live probe's handlers were.
        let mut config = String::new();
        for (key, hash) in hookx::dialect::codex::trust::records(&at, &body, &|_| true) {
            config += &format!(
                "[hooks.state.{}]\ntrusted_hash = {}\n\n",
                json!(key),
                json!(hash)
            );
        }
        std::fs::write(home.join(".codex/config.toml"), config).unwrap();
    }
    let out = std::process::Command::new(hookx)
        .args([
            "simulate",
            "--host",
            host,
            "--event",
            &form.event,
            "--tool",
            tool,
        ])
        .arg("--input")
        .arg(input.to_string())
        .arg("--project")
        .arg(&project)
        .arg("--home")
        .arg(&home)
        .args(["--format", "json"])
        .env("HOME", &home)
        .current_dir(&project)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "simulate: {e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let native = &report["native"];
    assert_eq!(
        native["matched"], 1,
        "{host} {}: the handler did not run: {native}",
        form.name
    );
    let outcome = &report["taken"];
    let ran = match report["decision"].as_str() {
        Some("allow") if outcome.get("updated_input").is_some() => Ran::Rewritten,
        Some("allow") => Ran::Original,
        _ => Ran::NotRun,
    };
    Some((ran, report["stop"].is_string(), report))
}

/// Whether the event guards the call (the call may not run), as the books name them.
fn guards(event: &str) -> bool {
    let e = event.to_lowercase();
    e.starts_with("pre") || e == "beforetool" || e == "permissionrequest"
}

#[test]
fn simulate_predicts_what_each_client_did_with_its_own_hooks_answer() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/recorded");
    let hookx = PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let mut differ = Vec::new();
    let mut compared = 0;
    let mut known_seen = Vec::new();
    let mut books: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path().join("answers.json"))
        .filter(|p| p.exists())
        .collect();
    books.sort();
    for path in books {
        let book: Book = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for entry in &book.forms {
            let form = &entry.form;
            if !guards(&form.event) && !form.event.to_lowercase().starts_with("post") {
                continue;
            }
            let Some((ran, stopped, report)) = predict(&hookx, &book.host, form) else {
                continue;
            };
            compared += 1;
            let mut said = Vec::new();
            if guards(&form.event) && ran != entry.effect.tool {
                said.push(format!(
                    "the call {:?}, simulate says {:?} (decision {})",
                    entry.effect.tool, ran, report["decision"]
                ));
            }
            if let Some(halted) = entry.effect.halted
                && halted != stopped
            {
                said.push(format!(
                    "the agent stopped: {halted}, simulate says {stopped}"
                ));
            }
            if said.is_empty() {
                continue;
            }
            let key = (book.client.as_str(), form.name.as_str());
            if KNOWN.iter().any(|(c, f, _)| (*c, *f) == key) {
                known_seen.push(format!("{}/{}", key.0, key.1));
                continue;
            }
            differ.push(format!(
                "{} {} {} {} (exit {}, stdout {:?}): {}; simulate's outcome {}",
                book.client,
                book.version,
                form.event,
                form.name,
                form.exit,
                form.stdout,
                said.join("; "),
                report["taken"]
            ));
        }
    }
    assert!(compared > 100, "only {compared} forms compared");
    let stale: Vec<_> = KNOWN
        .iter()
        .filter(|(c, f, _)| !known_seen.contains(&format!("{c}/{f}")))
        .collect();
    assert!(
        stale.is_empty(),
        "known differences no longer seen: {stale:?}"
    );
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
