//! The fault-injection matrix in a real client (tests/fault_matrix.rs drives the same faults at
//! the binary alone): a handler that hangs, one that is slow, one that crashes, one that floods
//! stderr and one whose answer is over the output cap, each beside a handler that denies. The
//! model runs one shell command per fault (`echo fault-NAME > ran-NAME`), then one neither
//! handler objects to ([`CONTROL`]); the faulty handler
//! picks its fault from the command it is shown, the deny denies every one of them. Whatever the
//! fault does, the deny must reach the client: the command never runs, and the deny's reason
//! is the call's result (or, where the faulty handler's own answer is over the output cap and
//! the client takes the first deny, hookx's failure policy's deny).
//!
//! Two paths: the handlers in a Bricks file that `hookx run` runs through the client's route
//! (`hookx install`, `hookx trust`), and the same file converted into the client's own hook
//! file (`hookx convert --write`), whose wrapped entries the client runs itself through `hookx
//! exec`. The hosts' limits are shortened for hookx (`HOOKX_TEST_HOST_LIMIT_MS`, debug builds
//! only, passed to the client, which passes it to its hooks), so that a hanging handler costs
//! seconds; the client's own limit stays what it is. Included with `#[path]`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The faults, by the name in the command the model runs.
pub const FAULTS: [&str; 5] = ["hanging", "slow", "crashing", "noisy", "oversized"];

/// The reason the deny gives, which must reach the model.
pub const REASON: &str = "R-FAULT-DENY";

/// What hookx's failure policy says when it denies a tool call it could not check.
pub const FAILURE_POLICY: &str = "hookx could not check this tool call";

/// The limit hookx is told the host gives it (`HOOKX_TEST_HOST_LIMIT_MS`).
pub const TEST_LIMIT_MS: &str = "3000";

/// A command neither handler objects to, run after the faults: it must run (`ran-control`), or
/// the client ran no command at all and the denials prove nothing.
pub const CONTROL: &str = "echo control > ran-control";

/// Every command the model runs, in order: one per fault, then [`CONTROL`].
pub fn commands() -> Vec<String> {
    FAULTS
        .iter()
        .map(|f| command(f))
        .chain([CONTROL.to_string()])
        .collect()
}

/// The shell command the model runs for `fault`: it leaves `ran-FAULT` in the project if it
/// runs (it must not).
pub fn command(fault: &str) -> String {
    format!("echo fault-{fault} > ran-{fault}")
}

/// The two handlers' command lines, their scripts written below `root`: the faulty one and
/// the deny (exit 2, [`REASON`] on stderr, on every fault's command).
pub fn handlers(root: &Path) -> (String, String) {
    let faulty = root.join("faulty.sh");
    let release = root.join("release");
    let cap = hookx::spawn::OUTPUT_CAP + 1024 * 1024;
    std::fs::write(
        &faulty,
        format!(
            r#"input=$(cat)
case "$input" in
*fault-hanging*)
  # Until the test releases it (or its folder is gone): it outlasts every limit.
  while [ ! -e '{release}' ] && [ -d '{root}' ]; do sleep 0.05; done ;;
*fault-slow*) sleep 1; echo '{{}}' ;;
*fault-crashing*) kill -SEGV $$ ;;
*fault-noisy*) head -c 8000000 /dev/zero | tr '\0' x >&2 ;;
*fault-oversized*) head -c {cap} /dev/zero | tr '\0' ' '; echo '{{}}' ;;
esac
exit 0
"#,
            release = release.display(),
            root = root.display(),
        ),
    )
    .unwrap();
    let deny = root.join("deny.sh");
    std::fs::write(
        &deny,
        format!("case \"$(cat)\" in *fault-*) echo '{REASON}' >&2; exit 2 ;; esac\nexit 0\n"),
    )
    .unwrap();
    (
        format!("sh {}", faulty.display()),
        format!("sh {}", deny.display()),
    )
}

/// The Bricks hook file (`.bricks/hooks.json` in `project`): the faulty handler first, so that
/// a host running handlers one by one meets it before the deny, each with a timeout far past
/// the limit.
pub fn bricks_file(root: &Path, project: &Path) -> PathBuf {
    let (faulty, deny) = handlers(root);
    let hooks = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": faulty, "timeout": 300},
        {"type": "command", "command": deny, "timeout": 300},
    ]}]}});
    let path = project.join(".bricks/hooks.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, hooks.to_string()).unwrap();
    path
}

/// `hookx ARGS` in `project` for `home` (`HOME`, as a user types it); fails the test on a
/// non-zero exit.
pub fn hookx(project: &Path, home: &Path, args: &[&str]) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
        .args(args)
        .current_dir(project)
        .env("HOME", home)
        .env_remove("HOOKX_HOME")
        .env_remove("HOOKX_MANAGED_ROOT")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "hookx {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The path: `hookx run` through the client's route, or the client running wrapped entries;
/// each also with the route or the entries naming a hookx in a folder [`SHELL_READS`]
/// (attacks row 1534).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Via {
    Run,
    Wrapped,
    OddRun,
    OddWrapped,
    /// The route naming a hookx in a folder [`QUOTED`] (attacks row 1535).
    QuotedRun,
}

/// A folder's name with a `'` and a space but nothing else a shell reads: a line naming it
/// holds none of the characters that make Auggie start a line through bash, so Auggie splits
/// it itself.
pub const QUOTED: &str = "bob's tools";

/// The name of a folder holding every character a shell reads: a space, both quotes, `$(…)`,
/// backquotes, `;`, `&`, `*`, `~`, a newline, a leading `-` after it, a backslash and `%s`.
/// Where a line lets the shell read any of it, `P1`, `P2` or `P3` is made in the folder the
/// line runs in.
pub const SHELL_READS: &str = "b a'q\"d$(touch P1)`touch P2`;touch P3&*~\n-x\\y%s";

/// A copy of this hookx in `root`'s folder [`SHELL_READS`].
pub fn odd_hookx(root: &Path) -> PathBuf {
    hookx_in(root, SHELL_READS)
}

/// A copy of this hookx in `root`'s folder `name`.
fn hookx_in(root: &Path, name: &str) -> PathBuf {
    let hookx = root.join(name).join("hookx");
    std::fs::create_dir_all(hookx.parent().unwrap()).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_hookx"), &hookx).unwrap();
    hookx
}

/// Every file below `dir` named `P1`, `P2` or `P3`: what [`SHELL_READS`] makes where a shell
/// ran a part of it.
pub fn made_by_a_folders_name(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if ["P1", "P2", "P3"]
            .iter()
            .any(|n| path.file_name() == Some(n.as_ref()))
        {
            found.push(path.clone());
        }
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            found.extend(made_by_a_folders_name(&path));
        }
    }
    found
}

/// Sets up `path` for `host` in `project`: the Bricks file, then the route and trust, or the
/// conversion into the client's own file (and no route).
pub fn set_up(path: Via, host: &str, root: &Path, project: &Path, home: &Path) {
    let file = bricks_file(root, project);
    let odd = match path {
        Via::OddRun | Via::OddWrapped => Some(odd_hookx(root)),
        Via::QuotedRun => Some(hookx_in(root, QUOTED)),
        Via::Run | Via::Wrapped => None,
    };
    // The entries name this hookx: the client's PATH has none.
    let bin = odd
        .as_deref()
        .map_or(env!("CARGO_BIN_EXE_hookx"), |p| p.to_str().unwrap());
    match path {
        Via::Run | Via::OddRun | Via::QuotedRun => {
            hookx(project, home, &["install", "--host", host, "--hookx", bin]);
            hookx(project, home, &["trust", "--yes"]);
        }
        Via::Wrapped | Via::OddWrapped => {
            let file = file.to_str().unwrap();
            let args = ["convert", file, "--to", host, "--write", "--hookx", bin];
            hookx(project, home, &args);
        }
    }
}

/// What went wrong for each fault on `path`: the command ran, or its result is neither the
/// deny's reason nor hookx's failure policy's (`result` gives the result the model saw for the call whose arguments hold a text).
/// Releases the hanging handler.
pub fn check(
    path: Via,
    host: &str,
    root: &Path,
    project: &Path,
    result: &dyn Fn(&str) -> String,
) -> Vec<String> {
    std::fs::write(root.join("release"), "").unwrap();
    let mut wrong = Vec::new();
    if !project.join("ran-control").exists() {
        wrong.push(format!("{host} {path:?}: the allowed command did not run"));
    }
    let made = made_by_a_folders_name(root);
    if !made.is_empty() {
        wrong.push(format!("{host} {path:?}: the folder's name ran: {made:?}"));
    }
    for fault in FAULTS {
        if project.join(format!("ran-{fault}")).exists() {
            wrong.push(format!("{host} {path:?}, {fault}: the denied command ran"));
        }
        let seen = result(&format!("fault-{fault}"));
        // An answer over the output cap is itself read by the failure policy, a deny on a
        // tool call: a host that takes the first deny of its entries may give that reason.
        if !seen.contains(REASON) && !seen.contains(FAILURE_POLICY) {
            wrong.push(format!(
                "{host} {path:?}, {fault}: the deny's reason is not the result: {seen:?}"
            ));
        }
    }
    wrong
}
