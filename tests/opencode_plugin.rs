//! OpenCode and Kilo: `hookx install --host opencode|kilo` writes one plugin hookx owns, `run
//! --host opencode` answers its payloads, and the plugin itself (run under node against a fake
//! hookx, no client needed) applies answers and follows the failure table: a tool-call guard
//! fails closed when hookx is missing, crashes, hangs or answers garbage; other events go on.

mod common;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Checks on what the binary printed (assert_cmd's `&str` wants it whole).
trait Says: Sized {
    fn says(self, text: &str) -> Self;
    fn warns(self, text: &str) -> Self;
    fn lacks(self, text: &str) -> Self;
}

impl Says for assert_cmd::assert::Assert {
    fn says(self, text: &str) -> Self {
        let out = String::from_utf8_lossy(&self.get_output().stdout).into_owned();
        assert!(out.contains(text), "stdout lacks {text:?}: {out}");
        self
    }
    fn lacks(self, text: &str) -> Self {
        let out = String::from_utf8_lossy(&self.get_output().stdout).into_owned();
        assert!(!out.contains(text), "stdout holds {text:?}: {out}");
        self
    }
    fn warns(self, text: &str) -> Self {
        let err = String::from_utf8_lossy(&self.get_output().stderr).into_owned();
        assert!(err.contains(text), "stderr lacks {text:?}: {err}");
        self
    }
}

struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
    project: PathBuf,
    home: PathBuf,
}

const CLAUDE_GUARD: &str = r#"input=$(cat); case "$input" in *'rm -rf /'*) echo "no rm -rf / (claude guard)" >&2; exit 2 ;; esac"#;

impl Project {
    fn new() -> Project {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let (project, home) = (root.join("project"), root.join("home"));
        // A repository of its own: OpenCode's project is the nearest `.git`, and a `.git`
        // above the test's folder for a moment made that folder the project (attacks row 1120).
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(&home).unwrap();
        Project {
            _dir: dir,
            root,
            project,
            home,
        }
    }

    /// A project whose Claude settings guard Bash (PreToolUse) and watch every tool after it.
    fn guarded() -> Project {
        let p = Project::new();
        p.write(
            ".claude/settings.json",
            &json!({"hooks": {
                "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": CLAUDE_GUARD}]}],
                "PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PostToolUse\",\"additionalContext\":\"AFTER-CONTEXT\"}}'"}]}]
            }})
            .to_string(),
        );
        p
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        common::write(&self.project, rel, text);
        self.project.join(rel)
    }

    fn hookx(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        common::hookx_at(&self.project, &self.home, args)
    }

    fn plugin(&self) -> PathBuf {
        self.project.join(".opencode/plugin/hookx.js")
    }

    /// `hookx convert .claude/settings.json --to TO --write` and `more`, in the project.
    fn convert(&self, to: &str, more: &[&str]) -> assert_cmd::assert::Assert {
        assert_cmd::Command::cargo_bin("hookx")
            .unwrap()
            .args(["convert", ".claude/settings.json", "--to", to, "--write"])
            .args(more)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .assert()
    }

    /// Installs hookx's plugin (routing to the hookx under test), trusts the project and
    /// converts its Claude file to an OpenCode plugin: the converted plugin.
    fn install_trust_and_convert(&self) -> PathBuf {
        let hookx = env!("CARGO_BIN_EXE_hookx");
        self.hookx(&["install", "--host", "opencode", "--hookx", hookx])
            .success();
        self.hookx(&["trust", "--yes"]).success();
        self.convert("opencode", &["--hookx", hookx]).success();
        self.project.join(".opencode/plugin/hookx-converted.js")
    }

    /// OpenCode's `tool.execute.before` payload of a `bash` call of `rm -rf /` in the project.
    fn rm_rf_payload(&self) -> Value {
        json!({"hook_event_name": "tool.execute.before", "session_id": "s",
            "cwd": self.project, "tool_name": "bash", "tool_input": {"command": "rm -rf /"},
            "tool_use_id": "c"})
    }
}

#[test]
fn install_writes_one_marked_plugin_with_a_route_per_event_that_has_rules() {
    let p = Project::guarded();
    p.hookx(&["install", "--host", "opencode", "--hookx", "/opt/hookx/bin/hookx"])
        .success()
        .says("routed 2 opencode events to hookx in .opencode/plugin/hookx.js: tool.execute.before, tool.execute.after");
    let text = std::fs::read_to_string(p.plugin()).unwrap();
    assert!(text.starts_with("// hookx: this plugin is generated by `hookx install`"));
    let routes = hookx::route::plugin_routes(
        hookx::tables::Dialect::named("opencode")
            .unwrap()
            .config()
            .generated
            .unwrap(),
        &text,
    );
    let events: Vec<&str> = routes.iter().map(|(e, _)| e.as_str()).collect();
    assert_eq!(events, ["tool.execute.before", "tool.execute.after"]);
    assert!(routes[0].1.starts_with(
        "/opt/hookx/bin/hookx run --host opencode --event tool.execute.before --installed-in project"
    ));
    assert!(text.contains(r#"const GUARDS = ["tool.execute.before"];"#));
    // Again: nothing to do. Uninstall deletes the file.
    p.hookx(&[
        "install",
        "--host",
        "opencode",
        "--hookx",
        "/opt/hookx/bin/hookx",
    ])
    .success()
    .says("already installed");
    p.hookx(&["install", "--host", "opencode", "--uninstall"])
        .success()
        .says("removed 2 hookx entries for opencode");
    assert!(!p.plugin().exists());
}

#[test]
fn install_leaves_a_plugin_of_the_users_own_alone() {
    let p = Project::guarded();
    let own = "export const Mine = async () => ({});\n";
    p.write(".opencode/plugin/hookx.js", own);
    p.hookx(&["install", "--host", "opencode"])
        .failure()
        .warns("holds a plugin hookx did not write");
    p.hookx(&["install", "--host", "opencode", "--uninstall"])
        .failure();
    assert_eq!(std::fs::read_to_string(p.plugin()).unwrap(), own);
}

#[test]
fn kilo_and_user_scope_have_their_own_folders() {
    let p = Project::guarded();
    p.hookx(&["install", "--host", "kilo"]).success();
    assert!(p.project.join(".kilo/plugin/hookx.js").is_file());
    // A user install routes the user's rules: none here, so no file.
    p.hookx(&["install", "--host", "opencode", "--scope", "user"])
        .success()
        .says("no opencode events to route");
    common::write(
        &p.home,
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": CLAUDE_GUARD}]}]}}).to_string(),
    );
    p.hookx(&["install", "--host", "opencode", "--scope", "user"])
        .success();
    assert!(p.home.join(".config/opencode/plugin/hookx.js").is_file());
}

/// `hookx run --host opencode --event EVENT` with `stdin`, as the plugin runs it.
fn run_with(p: &Project, event: &str, stdin: String) -> assert_cmd::assert::Assert {
    assert_cmd::Command::cargo_bin("hookx")
        .unwrap()
        .args(["run", "--host", "opencode", "--event", event, "--home"])
        .arg(&p.home)
        .current_dir(&p.project)
        .env("HOME", &p.home)
        .env_remove("HOOKX_HOME")
        .write_stdin(stdin)
        .assert()
}

/// `hookx run --host opencode` with the plugin's payload.
fn run(p: &Project, event: &str, payload: Value) -> assert_cmd::assert::Assert {
    run_with(p, event, payload.to_string())
}

#[test]
fn run_answers_the_plugin_deny_rewrite_context_and_fails_closed_on_garbage() {
    let p = Project::guarded();
    p.write(
        ".github/hooks/rewrite.json",
        &json!({"version": 1, "hooks": {"preToolUse": [{"type": "command",
            "bash": r#"input=$(cat); case "$input" in *notes.txt*) echo '{"modifiedArgs":{"path":"/tmp/elsewhere.txt","file_text":"x"}}' ;; esac"#}]}})
        .to_string(),
    );
    p.hookx(&["trust", "--yes"]).success();
    let cwd = p.project.display().to_string();
    let before = |tool: &str, input: Value| {
        json!({"hook_event_name": "tool.execute.before", "session_id": "s", "cwd": cwd,
            "tool_name": tool, "tool_input": input, "tool_use_id": "c1"})
    };
    let out = run(
        &p,
        "tool.execute.before",
        before("bash", json!({"command": "rm -rf /"})),
    )
    .success()
    .get_output()
    .stdout
    .clone();
    let answer: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(answer["permissionDecision"], "deny");
    assert_eq!(
        answer["permissionDecisionReason"],
        "no rm -rf / (claude guard)"
    );
    // A Copilot rewrite of `create {path, file_text}` arrives in OpenCode's names.
    let out = run(
        &p,
        "tool.execute.before",
        before(
            "write",
            json!({"filePath": format!("{cwd}/notes.txt"), "content": "y"}),
        ),
    )
    .success()
    .get_output()
    .stdout
    .clone();
    let answer: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        answer["updatedInput"],
        json!({"filePath": "/tmp/elsewhere.txt", "content": "x"}),
        "{answer}"
    );
    let after = json!({"hook_event_name": "tool.execute.after", "session_id": "s", "cwd": cwd,
        "tool_name": "bash", "tool_input": {"command": "ls"}, "tool_use_id": "c1",
        "tool_response": "a b"});
    let out = run(&p, "tool.execute.after", after)
        .success()
        .get_output()
        .stdout
        .clone();
    let answer: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(answer["additionalContext"], "AFTER-CONTEXT", "{answer}");
    // Garbage: a guard denies; after it, a non-blocking error.
    let out = run_with(&p, "tool.execute.before", "garbage".into())
        .success()
        .get_output()
        .stdout
        .clone();
    let answer: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(answer["permissionDecision"], "deny");
    run_with(&p, "tool.execute.after", "garbage".into()).code(1);
}

/// Runs the plugin at `plugin` under node: calls `tool.execute.before` on `rm -rf /` and
/// `tool.execute.after` on `ls`, and prints what happened as JSON.
fn drive(plugin: &Path, env: &[(&str, &str)]) -> Value {
    drive_in(&Runtime::Node, plugin, env)
}

/// What runs a plugin: node, or the runtime OpenCode runs plugins in (its binary is Bun, and
/// acts as the bun CLI with `BUN_BE_BUN=1`).
enum Runtime {
    Node,
    OpenCode(PathBuf),
}

/// node, and OpenCode's own runtime where the pinned client is installed
/// (conformance/install-clients.sh).
fn runtimes() -> Vec<Runtime> {
    let root = std::env::var_os("HOOKX_CLIENTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var("HOME").unwrap_or_default()).join(".cache/hookx-conformance")
        });
    let bin = root.join("opencode-1.18.33/node_modules/opencode-linux-x64/bin/opencode");
    let mut all = vec![Runtime::Node];
    match bin.is_file() {
        true => all.push(Runtime::OpenCode(bin)),
        false => eprintln!(
            "note: OpenCode 1.18.33 is not installed at {}: the plugin runs under node only",
            bin.display()
        ),
    }
    all
}

fn drive_in(runtime: &Runtime, plugin: &Path, env: &[(&str, &str)]) -> Value {
    let script = r#"
const m = await import(process.argv[1]);
const hooks = await m.HookxPlugin({ directory: process.cwd() });
const r = {};
const output = { args: { command: "rm -rf /" } };
try { await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, output); r.before = { allowed: output.args }; }
catch (e) { r.before = { denied: e.message }; }
const after = { title: "", output: "a b", metadata: {} };
try { await hooks["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: "c", args: { command: "ls" } }, after); r.after = { output: after.output }; }
catch (e) { r.after = { threw: e.message }; }
console.log(JSON.stringify(r));
"#;
    let mut cmd = match runtime {
        Runtime::Node => {
            let mut cmd = Command::new("node");
            cmd.args(["--input-type=module", "-e", script]);
            cmd
        }
        Runtime::OpenCode(bin) => {
            let mut cmd = Command::new(bin);
            cmd.env("BUN_BE_BUN", "1").args(["-e", script, "--"]);
            cmd
        }
    };
    cmd.arg(plugin)
        // The project: where OpenCode runs, and the plugin's `directory`.
        .current_dir(plugin.ancestors().nth(3).unwrap());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("node");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// The plugin install writes with `--hookx PROGRAM`.
fn plugin_for(p: &Project, program: &str) -> PathBuf {
    p.hookx(&["install", "--host", "opencode", "--hookx", program])
        .success();
    p.plugin()
}

#[test]
fn the_plugin_applies_a_deny_and_context_from_the_real_hookx() {
    let p = Project::guarded();
    p.hookx(&["trust", "--yes"]).success();
    let hookx = env!("CARGO_BIN_EXE_hookx");
    p.hookx(&["install", "--host", "opencode", "--hookx", hookx])
        .success();
    // The route reads HOME for its trust record: the plugin runs with the project's.
    let home = p.home.display().to_string();
    let r = drive(&p.plugin(), &[("HOME", &home)]);
    assert_eq!(r["before"]["denied"], "no rm -rf / (claude guard)", "{r}");
    assert_eq!(r["after"]["output"], "a b\nAFTER-CONTEXT", "{r}");
}

#[test]
fn the_plugin_fails_closed_on_a_guard_only_when_hookx_cannot_answer() {
    let p = Project::guarded();
    let fake = |name: &str, body: &str| {
        let path = p.root.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path.display().to_string()
    };
    let cases = [
        (
            "missing",
            p.root.join("no-such-hookx").display().to_string(),
            "cannot start hookx: ",
        ),
        (
            "missing, through a shell (a path that needs quoting)",
            p.root.join("no such hookx").display().to_string(),
            "exited with 127",
        ),
        (
            "crashing",
            fake("crash", "cat >/dev/null; kill -SEGV $$"),
            "hookx was killed (SIGSEGV)",
        ),
        (
            "failing",
            fake("fail", "cat >/dev/null; echo boom >&2; exit 1"),
            "exited with 1: boom",
        ),
        (
            "hanging",
            fake("hang", "cat >/dev/null; exec sleep 600"),
            "did not answer within 300 ms",
        ),
        (
            "garbage",
            fake("garbage", "cat >/dev/null; echo '{not json'"),
            "not JSON",
        ),
        (
            "not an object",
            fake("array", "cat >/dev/null; echo '[1]'"),
            "not a JSON object",
        ),
    ];
    for ((what, program, why), runtime) in cases
        .iter()
        .flat_map(|case| runtimes().into_iter().map(move |r| (case, r)))
    {
        let plugin = plugin_for(&p, program);
        let r = drive_in(&runtime, &plugin, &[("HOOKX_PLUGIN_LIMIT_MS", "300")]);
        let denied = r["before"]["denied"]
            .as_str()
            .unwrap_or_else(|| panic!("{what}: {r}"));
        assert!(
            denied.starts_with("hookx could not check this tool call: ") && denied.contains(why),
            "{what}: {r}"
        );
        // After the call: the event goes on, its output as it was.
        assert_eq!(r["after"]["output"], "a b", "{what}: {r}");
    }
    // A well-formed empty answer allows, untouched.
    let plugin = plugin_for(&p, &fake("quiet", "cat >/dev/null; exit 0"));
    let r = drive(&plugin, &[]);
    assert_eq!(
        r["before"]["allowed"],
        json!({"command": "rm -rf /"}),
        "{r}"
    );
    // A rewrite replaces the arguments in place, keys it drops included.
    let plugin = plugin_for(
        &p,
        &fake(
            "rewrite",
            r#"cat >/dev/null; echo '{"updatedInput":{"command":"echo safe"}}'"#,
        ),
    );
    let r = drive(&plugin, &[]);
    assert_eq!(
        r["before"]["allowed"],
        json!({"command": "echo safe"}),
        "{r}"
    );
}

#[test]
fn convert_to_opencode_writes_a_plugin_around_the_converted_handlers() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": CLAUDE_GUARD, "timeout": 7}]}],
            "PreCompact": [{"hooks": [{"type": "command", "command": "echo compacting"}]}]
        }})
        .to_string(),
    );
    let out = p
        .convert("opencode", &["--hookx", env!("CARGO_BIN_EXE_hookx")])
        .success()
        .warns("wrote ")
        .get_output()
        .clone();
    // What a plugin cannot run is a loss, located in its source.
    let report = String::from_utf8_lossy(&out.stderr);
    assert!(report.contains("PreCompact"), "{report}");
    assert!(report.contains(".claude/settings.json:"), "{report}");
    let path = p.project.join(".opencode/plugin/hookx-converted.js");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("// hookx: this plugin is generated by `hookx convert`"));
    assert!(text.contains(r#""matcher": "bash""#), "{text}");
    assert!(text.contains(r#""timeout_ms": 7000"#), "{text}");
    assert!(
        text.contains("exec --host opencode --as claude --event PreToolUse"),
        "{text}"
    );
    // The plugin runs the converted guard through `hookx exec`: a deny with its reason.
    let r = drive(&path, &[]);
    assert_eq!(r["before"]["denied"], "no rm -rf / (claude guard)", "{r}");
    // A plugin of the user's own at that path is left alone.
    std::fs::write(&path, "export const Mine = async () => ({});\n").unwrap();
    p.convert("opencode", &[])
        .code(1)
        .warns("a plugin hookx did not write, not overwritten");
}

#[test]
fn opencode_is_no_source_of_a_conversion() {
    let p = Project::guarded();
    assert_cmd::Command::cargo_bin("hookx")
        .unwrap()
        .args([
            "convert",
            ".claude/settings.json",
            "--from",
            "opencode",
            "--to",
            "claude",
        ])
        .current_dir(&p.project)
        .assert()
        .code(2)
        .warns("opencode is a target only");
}

#[test]
fn doctor_knows_the_plugin_and_what_it_routes() {
    let p = Project::guarded();
    p.hookx(&["trust", "--yes"]).success();
    // Not installed: every agent is diagnosed but OpenCode; asked for, it has no route.
    p.hookx(&["doctor"]).success().lacks("opencode");
    // Exit 5: under the one agent examined, no rule can fire.
    p.hookx(&["doctor", "--host", "opencode"])
        .code(5)
        .says("no hookx route for `tool.execute.before`, `tool.execute.after` in OpenCode's config")
        .says("fix: hookx install --host opencode");
    // Installed: doctor lists it and sees the route.
    let hookx = env!("CARGO_BIN_EXE_hookx");
    p.hookx(&["install", "--host", "opencode", "--hookx", hookx])
        .success();
    p.hookx(&["doctor"])
        .success()
        .says("opencode (opencode-1.18.33; hookx's plugin .opencode/plugin/hookx.js)")
        .says("fires: opencode (through hookx, claude payload)");
    // A route whose hookx is gone is said to be unable to run.
    p.hookx(&["install", "--host", "opencode", "--hookx", "/nowhere/hookx"])
        .success();
    p.hookx(&["doctor", "--host", "opencode"])
        .code(5)
        .says("OpenCode's hookx route for `tool.execute.before` cannot run");
}

/// `hookx sync --init --to opencode,kilo`: each target is the plugin `convert --write` writes
/// (a write-only target: no JSON merged into a `.js` file), one that runs; `--check` passes on
/// it, fails on a hand edit, which sync keeps until `--force`; a plugin of the user's own at a
/// target's path is refused and left as it is.
#[test]
fn sync_writes_a_working_plugin_for_a_write_only_target() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": CLAUDE_GUARD}]}]}})
        .to_string(),
    );
    p.hookx(&["sync", "--init", "--to", "opencode,kilo"])
        .success();
    let manifest = std::fs::read_to_string(p.project.join(".hookx/sync.toml")).unwrap();
    assert!(
        manifest.contains(
            "project .opencode/plugin/hookx-converted.js (committed) (a plugin hookx writes whole"
        ),
        "{manifest}"
    );
    let hookx = env!("CARGO_BIN_EXE_hookx");
    // The wrapped handlers call `hookx`: the one built here, by the manifest's `hookx`.
    std::fs::write(
        p.project.join(".hookx/sync.toml"),
        manifest.replace(r#"hookx = "hookx""#, &format!("hookx = {hookx:?}")),
    )
    .unwrap();
    p.hookx(&["sync"])
        .success()
        .warns("opencode: .opencode/plugin/hookx-converted.js: written")
        .warns("kilo: .kilo/plugin/hookx-converted.js: written");
    let path = p.project.join(".opencode/plugin/hookx-converted.js");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("// hookx: this plugin is generated by `hookx convert`"));
    let r = drive(&path, &[]);
    assert_eq!(r["before"]["denied"], "no rm -rf / (claude guard)", "{r}");
    assert!(p.project.join(".kilo/plugin/hookx-converted.js").is_file());
    p.hookx(&["sync", "--check"])
        .success()
        .warns("opencode: .opencode/plugin/hookx-converted.js: up to date");
    // A hand edit: --check fails, sync keeps it, --force overwrites it.
    std::fs::write(&path, format!("{text}// mine\n")).unwrap();
    p.hookx(&["sync", "--check"]).code(1).warns(
        ".opencode/plugin/hookx-converted.js:1:1: the plugin hookx wrote was edited by hand",
    );
    p.hookx(&["sync"]).code(1).warns("not written");
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .ends_with("// mine\n")
    );
    p.hookx(&["sync", "--force"]).success();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // A plugin of the user's own where a target goes is left alone.
    let own = "export const Mine = async () => ({});\n";
    std::fs::write(p.project.join(".kilo/plugin/hookx-converted.js"), own).unwrap();
    p.hookx(&["sync"])
        .code(1)
        .warns("holds a plugin hookx did not write");
    assert_eq!(
        std::fs::read_to_string(p.project.join(".kilo/plugin/hookx-converted.js")).unwrap(),
        own
    );
}

/// `list` and `trust` know the plugins hookx writes (no hook file of theirs, so neither reads
/// one as such): install's routes, convert's handlers that OpenCode runs by itself, a plugin of
/// the user's own at hookx's path; `trust FILE` on a plugin says what it is and trusts nothing.
#[test]
fn list_and_trust_know_the_plugins() {
    let p = Project::guarded();
    let hookx = env!("CARGO_BIN_EXE_hookx");
    p.hookx(&["install", "--host", "opencode", "--hookx", hookx])
        .success();
    p.convert("kilo", &[]).success();
    common::write(
        &p.home,
        ".config/opencode/plugin/hookx.js",
        "export const Mine = async () => ({});\n",
    );
    let listed = p.hookx(&["list"]).success().get_output().stdout.clone();
    let listed = String::from_utf8_lossy(&listed);
    let line = |file: &str| {
        listed
            .lines()
            .find(|l| l.contains(file))
            .unwrap_or_else(|| panic!("{file} not listed: {listed}"))
            .to_string()
    };
    let install = line(".opencode/plugin/hookx.js");
    assert!(
        install.contains("opencode")
            && install.contains("project")
            && install.contains("hookx's plugin (hookx install): 2 routes to hookx"),
        "{install}"
    );
    let converted = line(".kilo/plugin/hookx-converted.js");
    assert!(
        converted.contains(
            "hookx's plugin (hookx convert): 2 converted handlers, run by Kilo Code CLI itself"
        ),
        "{converted}"
    );
    let own = line("~/.config/opencode/plugin/hookx.js");
    assert!(
        own.contains("user") && own.contains("a plugin hookx did not write"),
        "{own}"
    );
    // Trust: the hook file is reviewed and trusted; each plugin is said to need none.
    p.hookx(&["trust", "--yes"])
        .success()
        .says("trusted .claude/settings.json")
        .says("not a hook file: .opencode/plugin/hookx.js: hookx's plugin (hookx install)")
        .says("not a hook file: .kilo/plugin/hookx-converted.js: hookx's plugin (hookx convert)")
        .says("review the hook files it was converted from");
    p.hookx(&["trust", p.plugin().to_str().unwrap()])
        .code(1)
        .warns("not a hook file: .opencode/plugin/hookx.js")
        .lacks("trusted .opencode");
    // Uninstall at user scope leaves a plugin of the user's own; at project scope removes
    // hookx's, and list no longer shows it.
    p.hookx(&[
        "install",
        "--host",
        "opencode",
        "--scope",
        "user",
        "--uninstall",
    ])
    .failure()
    .warns("holds a plugin hookx did not write");
    assert!(p.home.join(".config/opencode/plugin/hookx.js").is_file());
    p.hookx(&["install", "--host", "opencode", "--uninstall"])
        .success();
    p.hookx(&["list"])
        .success()
        .lacks(".opencode/plugin/hookx.js");
}

/// `--version` names the client runs the write-only dialects were checked with, and `--help`
/// names them among the agents, as reached through a plugin.
#[test]
fn version_and_help_name_opencode_and_kilo() {
    let text = |arg: &str| {
        let out = assert_cmd::Command::cargo_bin("hookx")
            .unwrap()
            .arg(arg)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    let version = text("--version");
    assert!(
        version.contains("opencode: run against opencode-1.18.33: all 4 events seen firing;"),
        "{version}"
    );
    assert!(
        version.contains("kilo: run against kilo-7.7.7: all 4 events seen firing;"),
        "{version}"
    );
    let help = text("--help");
    assert!(
        help.contains(
            "through a plugin hookx writes: OpenCode 1.18.33 (plugins), Kilo Code CLI 7.7.7 (plugins)"
        ),
        "{help}"
    );
}

/// Installed at both scopes, OpenCode loads both plugins (the user's first) and awaits each
/// one's `tool.execute.before` in turn: the project's route leaves the event to the user's, so
/// that each rule, the user's and the project's, runs once per call.
#[test]
fn user_and_project_plugins_run_each_rule_once() {
    let p = Project::new();
    let log = p.root.join("ran.log");
    let logger = |who: &str| format!("cat >/dev/null; echo {who} >> '{}'", log.display());
    for (base, who) in [(&p.project, "project"), (&p.home, "user")] {
        common::write(
            base,
            ".claude/settings.json",
            &json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
                "hooks": [{"type": "command", "command": logger(who)}]}]}})
            .to_string(),
        );
    }
    p.hookx(&["trust", "--yes"]).success();
    let hookx = env!("CARGO_BIN_EXE_hookx");
    for scope in ["user", "project"] {
        p.hookx(&[
            "install", "--host", "opencode", "--scope", scope, "--hookx", hookx,
        ])
        .success();
    }
    let user = p.home.join(".config/opencode/plugin/hookx.js");
    let script = r#"
const denied = [];
for (const file of process.argv.slice(1)) {
  const hooks = await (await import(file)).HookxPlugin({ directory: process.cwd() });
  try { await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, { args: { command: "ls" } }); }
  catch (e) { denied.push(e.message); break; }
}
console.log(JSON.stringify(denied));
"#;
    let out = Command::new("node")
        .args(["--input-type=module", "-e", script])
        .arg(&user)
        .arg(p.plugin())
        .current_dir(&p.project)
        .env("HOME", &p.home)
        .output()
        .expect("node");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let denied: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(denied, json!([]));
    let mut ran: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    ran.sort();
    assert_eq!(ran, ["project", "user"], "each rule once");
}

/// A source with nothing OpenCode can run: convert writes no plugin (a located loss instead).
#[test]
fn convert_writes_no_plugin_when_nothing_converts() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"PreCompact": [{"hooks": [{"type": "command", "command": "echo c"}]}]}})
            .to_string(),
    );
    p.convert("opencode", &[])
        .success()
        .warns("no hooks found that convert to opencode; nothing written")
        .warns("PreCompact");
    assert!(
        !p.project
            .join(".opencode/plugin/hookx-converted.js")
            .exists()
    );
}

/// A command line holding the name of one of the plugin template's holes
/// (`__HOOKX_GUARDS__`, `__HOOKX_LIMIT_MS__`, …) is kept as written: the holes are filled in
/// one pass over the template, never inside what was put in. (Filled one after another, a
/// logger's `echo __HOOKX_GUARDS__` put a JSON array inside a JS string; the plugin no longer
/// parsed, OpenCode skips a plugin that does not load, and the guard beside the logger failed
/// open.)
#[test]
fn a_command_naming_a_template_hole_leaves_the_plugin_working() {
    let p = Project::new();
    let logger =
        "echo __HOOKX_GUARDS__ __HOOKX_LIMIT_MS__ __HOOKX_ROUTES__ __HOOKX_BY__ >/dev/null";
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": CLAUDE_GUARD}]}],
            "PostToolUse": [{"hooks": [{"type": "command", "command": logger}]}]
        }})
        .to_string(),
    );
    p.convert("opencode", &["--hookx", env!("CARGO_BIN_EXE_hookx")])
        .success();
    let path = p.project.join(".opencode/plugin/hookx-converted.js");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(logger), "{text}");
    let r = drive(&path, &[]);
    assert_eq!(r["before"]["denied"], "no rm -rf / (claude guard)", "{r}");
}

/// The converted plugin names each handler's rule (its provenance record), and hookx reads it
/// back: under OpenCode the plugin is the rule's runner. `list` says so; install, after the
/// conversion, routes none of its events; `hookx run`, where install's plugin came first,
/// leaves the rule to the converted plugin (else the guard would run twice per call). The
/// Kilo plugin beside it is no runner under OpenCode.
#[test]
fn the_converted_plugin_runs_its_rules_and_hookx_leaves_them_alone() {
    let p = Project::guarded();
    let hookx = env!("CARGO_BIN_EXE_hookx");
    p.hookx(&["install", "--host", "opencode", "--hookx", hookx])
        .success();
    p.hookx(&["trust", "--yes"]).success();
    let payload = p.rm_rf_payload();
    // Only install's plugin: hookx runs the Claude guard.
    run(&p, "tool.execute.before", payload.clone())
        .success()
        .says("no rm -rf / (claude guard)");
    p.convert("opencode,kilo", &["--hookx", hookx]).success();
    let text =
        std::fs::read_to_string(p.project.join(".opencode/plugin/hookx-converted.js")).unwrap();
    assert!(
        text.contains(r#""source": "../../.claude/settings.json""#)
            && text.contains(r#""rule": "/hooks/PreToolUse/0""#),
        "{text}"
    );
    // Both plugins: the converted one runs the guard, hookx does not run it again.
    run(&p, "tool.execute.before", payload)
        .success()
        .lacks("claude guard");
    p.hookx(&["list", "--host", "opencode"])
        .success()
        .says(
            "opencode runs .opencode/plugin/hookx-converted.js; hookx skips .claude/settings.json",
        )
        .lacks("hookx runs .claude/settings.json")
        .lacks(".kilo/plugin/hookx-converted.js;");
    // Installed again, nothing is left for hookx to route under OpenCode or Kilo.
    p.hookx(&["install", "--host", "opencode", "--hookx", hookx])
        .success()
        .says("removed the routes of 2 events no rule needs any more");
    p.hookx(&["install", "--host", "kilo", "--hookx", hookx])
        .success()
        .says("no kilo events to route");
    assert!(!p.project.join(".kilo/plugin/hookx.js").exists());
}

/// A converted plugin stands in for its rules only while it is byte for byte what hookx
/// writes around its data: hookx reads the data, never the code, so a plugin whose code was
/// changed (a repository's forgery that keeps the marker line and the records) is one more
/// plugin, and the user's trusted guard still runs through hookx.
#[test]
fn a_converted_plugin_whose_code_was_changed_does_not_stand_in_for_its_rules() {
    let p = Project::guarded();
    let path = p.install_trust_and_convert();
    let text = std::fs::read_to_string(&path).unwrap();
    let payload = p.rm_rf_payload();
    // As written, the converted plugin runs the guard and hookx leaves it alone.
    run(&p, "tool.execute.before", payload.clone())
        .success()
        .lacks("claude guard");
    // Its code replaced by a plugin that runs nothing, the data and marker line kept.
    let routes = text.find("const ROUTES = ").expect("the ROUTES constant");
    let data_end = routes
        + text[routes..]
            .find(";\n")
            .expect("the ROUTES constant ends")
        + 2;
    let forged = format!(
        "{}export const HookxConverted = async () => ({{}});\n",
        &text[..data_end]
    );
    assert!(forged.lines().next() == text.lines().next() && forged.contains("/hooks/PreToolUse/0"));
    std::fs::write(&path, forged).unwrap();
    run(&p, "tool.execute.before", payload)
        .success()
        .says("no rm -rf / (claude guard)");
    p.hookx(&["list", "--host", "opencode"])
        .success()
        .says("hookx runs .claude/settings.json")
        .lacks("opencode runs .opencode/plugin/hookx-converted.js");
}

/// A rule on an event OpenCode never sends has no runner there: no route can bring it to
/// hookx, so the plan says nobody runs it, not hookx.
#[test]
fn the_plan_gives_no_runner_to_an_event_opencode_never_sends() {
    let p = Project::new();
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo logged"}]}]}})
            .to_string(),
    );
    p.hookx(&["trust", "--yes"]).success();
    p.hookx(&["list", "--host", "opencode"])
        .success()
        .says("nobody (OpenCode sends no UserPromptSubmit event)")
        .lacks("hookx runs .claude/settings.json");
    p.hookx(&["list", "--host", "claude"])
        .success()
        .says("claude runs .claude/settings.json");
}

/// A converted plugin exactly as hookx writes it, but whose data gives the guard's copy a
/// matcher the plugin never fits to the call (`nevermatches`): the plugin does not run the
/// guard for `bash`, so it does not stand in for it there, and hookx runs the guard.
#[test]
fn a_converted_plugin_whose_copy_never_fits_the_call_does_not_stand_in_for_it() {
    a_converted_copy_changed_leaves_the_guard_to_hookx(
        "\"matcher\": \"bash\"",
        "\"matcher\": \"nevermatches\"",
    );
}

/// Attacks row 89: the same with the copy's limit changed in the data (`"timeout_ms": 1`: the
/// plugin gives up on the guard at once). A copy whose timeout is shorter than the rule's is
/// not the rule (`plan::filters_alike`), so hookx runs the user's trusted guard itself.
#[test]
fn a_converted_plugin_whose_copy_gives_up_sooner_does_not_stand_in_for_it() {
    a_converted_copy_changed_leaves_the_guard_to_hookx("\"timeout_ms\": null", "\"timeout_ms\": 1");
}

/// The converted plugin, exactly as hookx writes it but for `from` in the guard's copy's data
/// changed to `to`: it no longer stands in for the guard, so hookx runs it.
fn a_converted_copy_changed_leaves_the_guard_to_hookx(from: &str, to: &str) {
    let p = Project::guarded();
    let path = p.install_trust_and_convert();
    let text = std::fs::read_to_string(&path).unwrap();
    let forged = text.replacen(from, to, 1);
    assert_ne!(forged, text);
    std::fs::write(&path, forged).unwrap();
    run(&p, "tool.execute.before", p.rm_rf_payload())
        .success()
        .says("no rm -rf / (claude guard)");
}

/// OpenCode does not await a plugin's `event` hook, and `opencode run` ends at `session.idle`
/// (attacks row 764, live: `live_opencode::team_loop_runs_each_rule_once`, 1.18.33 and Kilo
/// 7.7.7): a converted plugin that awaited its Stop handlers in turn started the first one or
/// two, and the run ended before the others ever started. The plugin starts every handler of
/// such an event at once. Here the first Stop handler waits for the second to have run: in
/// turn, the plugin gives up on the first at its limit ("did not answer within") before the
/// second starts; at once, both end, and the event's hook returns after both. The event is
/// OpenCode's recorded `session.idle`.
#[test]
fn the_plugin_starts_every_handler_of_an_event_opencode_does_not_await_at_once() {
    let p = Project::new();
    let first = format!(
        "while [ ! -e '{0}/second-ran' ]; do sleep 0.05; done; touch '{0}/first-ran'",
        p.root.display()
    );
    let second = format!("touch '{}/second-ran'", p.root.display());
    p.write(
        ".claude/settings.json",
        &json!({"hooks": {"Stop": [
            {"hooks": [{"type": "command", "command": first}]},
            {"hooks": [{"type": "command", "command": second}]}
        ]}})
        .to_string(),
    );
    p.convert("opencode", &["--hookx", env!("CARGO_BIN_EXE_hookx")])
        .success();
    let path = p.project.join(".opencode/plugin/hookx-converted.js");
    let recorded =
        common::fixtures_dir().join("plugin-events/opencode-1.18.33/event.session.idle.json");
    let recorded: Value =
        serde_json::from_str(&std::fs::read_to_string(recorded).unwrap()).unwrap();
    let script = format!(
        r#"
const m = await import(process.argv[1]);
const hooks = await m.HookxPlugin({{ directory: process.cwd() }});
await hooks.event({{ event: {} }});
console.log(JSON.stringify({{}}));
"#,
        recorded["event"]
    );
    let out = Command::new("node")
        .args(["--input-type=module", "-e", &script])
        .arg(&path)
        .current_dir(&p.project)
        .env("HOOKX_PLUGIN_LIMIT_MS", "5000")
        .output()
        .expect("node");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        !stderr.contains("did not answer within"),
        "the first Stop handler was not cut short waiting for the second: {stderr}"
    );
    for marker in ["second-ran", "first-ran"] {
        assert!(p.root.join(marker).exists(), "{marker}: {stderr}");
    }
}

/// Attacks row 767: a Qwen guard and an Auggie logger, each file converted into OpenCode's
/// plugin one after the other (`convert --to opencode --write`). The plugin was written whole
/// from the second file: it held the logger's copy only, and under OpenCode without hookx's
/// route the guard ran nowhere. The plugin keeps the copies other files' conversions wrote, as
/// a JSON target does; a file converted again replaces its own. Run under node, the plugin
/// denies with the guard's reason and runs the logger.
#[test]
fn a_second_file_converted_into_the_plugin_keeps_the_first_files_copies() {
    let p = Project::new();
    let log = p.root.join("log");
    let logger = format!("echo aguard >> '{}'", log.display());
    p.write(
        ".qwen/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "run_shell_command",
            "hooks": [{"type": "command", "command": CLAUDE_GUARD}]}]}})
        .to_string(),
    );
    p.write(
        ".augment/settings.json",
        &json!({"hooks": {"PreToolUse": [{"matcher": "launch-process",
            "hooks": [{"type": "command", "command": logger}]}]}})
        .to_string(),
    );
    let hookx = env!("CARGO_BIN_EXE_hookx");
    for file in [
        ".qwen/settings.json",
        ".augment/settings.json",
        ".qwen/settings.json",
    ] {
        assert_cmd::Command::cargo_bin("hookx")
            .unwrap()
            .args([
                "convert", file, "--to", "opencode", "--write", "--hookx", hookx,
            ])
            .current_dir(&p.project)
            .env("HOME", &p.home)
            .assert()
            .success();
    }
    let path = p.project.join(".opencode/plugin/hookx-converted.js");
    let r = drive(&path, &[]);
    assert_eq!(r["before"]["denied"], "no rm -rf / (claude guard)", "{r}");
    assert_eq!(
        std::fs::read_to_string(&log).unwrap_or_default(),
        "aguard\n"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.matches("(claude guard)").count(), 1, "{text}");
}
