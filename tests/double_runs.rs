//! hookx installed twice, in the user's and in the project's hook file of one host: every
//! route runs all the rules, so when the host runs both routes for one event, each rule must
//! still run once. Each host's routes are fired the way that host fires them (the facts below,
//! from the conformance files), with its own payload, and a rule counts its runs.
#![cfg(unix)]

mod common;

use hookx::model::EventKind;
use hookx::tables::{Dialect, Flavor};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Runs `line` with `sh -c` in `project` as the user of `home` (`env` beside), `payload` on its
/// stdin, as an agent fires a route or a copy.
fn sh_with_stdin(line: &str, project: &Path, home: &Path, env: &[(&str, &OsStr)], payload: &str) {
    use std::io::Write;
    std::process::Command::new("/bin/sh")
        .args(["-c", line])
        .current_dir(project)
        .env("HOME", home)
        .envs(env.iter().copied())
        .env_remove("HOOKX_HOME")
        .stdin(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            child.stdin.take().unwrap().write_all(payload.as_bytes())?;
            child.wait()
        })
        .unwrap();
}

/// The lines of the log the rules append their names to, sorted (handlers may run in parallel).
fn ran_sorted(log: &Path) -> Vec<String> {
    let ran = std::fs::read_to_string(log).unwrap_or_default();
    let mut ran: Vec<String> = ran.lines().map(str::to_string).collect();
    ran.sort();
    ran
}

/// Whether the host runs a command of one event from both its user and its project file when
/// both hold it. Hosts that key a handler by its command run an identical one once.
fn runs_both(host: &str, identical: bool) -> bool {
    match host {
        // claude-facts.md, gemini-facts.md (run: the same command in user and project ran
        // once), qwen-facts.md (`getHookKey`), dialects.md (Bricks, as Claude),
        // augment-facts.md (source 0.36.0: "handlers with the same `command` + `args` are
        // deduplicated" across the merged files).
        "claude" | "gemini" | "qwen" | "bricks" | "augment" => !identical,
        // copilot (run 1.0.102), droid-facts.md (run 0.225.2: "The same command in the user
        // and the project settings runs twice"), cline-facts.md (run 3.0.65: both ran),
        // cursor-facts.md ("All matching hooks from every source run"), windsurf-facts.md
        // ("Hooks from all three locations are merged together … all hooks will execute"),
        // codex-facts.md (user and project layers both load; a handler is keyed by its file),
        // vscode (it reads every hook file; no merging is documented).
        _ => true,
    }
}

/// The host's name for `Stop` (every host has one), and the flavour that names it.
fn stop_event(host: Dialect) -> (Flavor, &'static str) {
    host.flavors()
        .find_map(|f| {
            f.tables()
                .events
                .iter()
                .find(|(kind, _)| *kind == EventKind::Stop)
                .map(|(_, name)| (f, *name))
        })
        .unwrap_or_else(|| panic!("{} has no Stop", host.name()))
}

/// The route lines hookx wrote for `event` into the host file (or script folder) at `path`.
fn routes(path: &Path, bin: &str, host: &str, event: &str) -> Vec<String> {
    let texts: Vec<String> = if path.is_dir() {
        std::fs::read_dir(path)
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect()
    } else {
        vec![std::fs::read_to_string(path).unwrap_or_default()]
    };
    let head = format!("{bin} run --host {host} --event {event}");
    texts
        .iter()
        .flat_map(|text| text.match_indices(&head).map(|(at, _)| &text[at..]))
        .map(|rest| {
            // A user route on a tool-call event goes on after its route (`; [ -e …`: the
            // guard for a gone hookx, attacks row 1080).
            let end = rest.find(['"', '\n', '\'', ';']).unwrap_or(rest.len());
            rest[..end].to_string()
        })
        .filter(|line| {
            // Only this event: not `--event StopFailure`.
            let after = &line[head.len()..];
            after.is_empty() || after.starts_with(' ')
        })
        .collect()
}

struct Fired {
    /// How often the user's and the project's rule ran.
    runs: [usize; 2],
    user: String,
    project: String,
}

/// Installs hookx for `host` in both scopes of a fresh project whose one rule counts its runs,
/// then fires `Stop` through each route the host would run.
fn fire_both_routes(host: Dialect) -> Fired {
    fire_routes(host, env!("CARGO_BIN_EXE_hookx"))
}

/// [`fire_both_routes`] with the user's route running `user_hookx` (the project's runs this
/// hookx); a user route that cannot start fails as the shell fails it (exit 127).
fn fire_routes(host: Dialect, user_hookx: &str) -> Fired {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let log = root.join("ran.log");
    // A user and a project rule (each scope's route routes its own rules' events), in files
    // the host does not read itself, so that hookx runs them.
    let (user_file, project_file) = match host.name() {
        "bricks" => (".claude/settings.json", ".claude/settings.json"),
        _ => (".bricks-project-desktop/hooks.json", ".bricks/hooks.json"),
    };
    for (dir, file, scope) in [
        (&home, user_file, "user"),
        (&project, project_file, "project"),
    ] {
        let count = format!("echo {scope} >> '{}'", log.display());
        let rule = serde_json::json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": count}]}]}});
        common::write(dir, file, &rule.to_string());
    }
    let bin = env!("CARGO_BIN_EXE_hookx");
    common::hookx_at(&project, &home, &["trust", "--yes"]).success();
    for (scope, hookx) in [("project", bin), ("user", user_hookx)] {
        common::hookx_at(
            &project,
            &home,
            &[
                "install",
                "--host",
                host.name(),
                "--scope",
                scope,
                "--hookx",
                hookx,
            ],
        )
        .success();
    }
    let (flavor, stop) = stop_event(host);
    let spec = host.config();
    let route_in = |path: PathBuf, bin: &str| -> (String, PathBuf) {
        let found = routes(&path, bin, host.name(), stop);
        assert_eq!(
            found.len(),
            1,
            "{}: routes in {path:?}: {found:?}",
            host.name()
        );
        (found[0].clone(), path)
    };
    let (project_route, project_file) = route_in(project.join(spec.install_project), bin);
    let (user_route, user_file) = route_in(home.join(spec.install_user), user_hookx);

    let event = hookx::dispatch::simulate::synthetic_event(
        flavor,
        stop,
        None,
        None,
        &[],
        project.to_str().unwrap(),
    )
    .unwrap();
    let payload = hookx::protocol::encode_event(&event, flavor).to_string();
    let identical = project_route == user_route;
    let mut fired = vec![(&user_route, &user_file)];
    if runs_both(host.name(), identical) {
        fired.push((&project_route, &project_file));
    }
    for (route, file) in fired {
        let mut cmd = assert_cmd::Command::new("sh");
        cmd.args(["-c", route])
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .env_remove("HOOKX_HOST")
            .write_stdin(payload.clone());
        // The host's variable naming the folder of the file whose hook runs (Copilot's).
        if let Some(var) = spec.hook_dir_var {
            let dir = if file.is_dir() {
                file
            } else {
                file.parent().unwrap()
            };
            cmd.env(var, dir);
        }
        if route == &user_route && user_hookx != bin {
            cmd.assert().code(127);
        } else {
            cmd.assert().success();
        }
    }
    let ran = std::fs::read_to_string(&log).unwrap_or_default();
    let runs = ["user", "project"].map(|rule| ran.lines().filter(|l| *l == rule).count());
    Fired {
        runs,
        user: user_route,
        project: project_route,
    }
}

#[test]
fn a_user_and_a_project_route_run_each_rule_once_under_every_host() {
    let mut wrong = Vec::new();
    for &host in Dialect::all() {
        let fired = fire_both_routes(host);
        if fired.runs != [1, 1] {
            wrong.push(format!(
                "{}: the user's and the project's rule ran {:?} times (user route `{}`, project route `{}`)",
                host.name(),
                fired.runs,
                fired.user,
                fired.project
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A project route leaves an event to the user's route only where that route can run: a user
/// route whose hookx is gone (moved, uninstalled) exits 127, a non-blocking error, and the
/// project route then runs every rule itself, the user's included, under every host.
#[test]
fn a_project_route_does_not_leave_an_event_to_a_user_route_that_cannot_run() {
    let gone = "/nonexistent/bin/hookx";
    let mut wrong = Vec::new();
    for &host in Dialect::all() {
        let fired = fire_routes(host, gone);
        if fired.runs != [1, 1] {
            wrong.push(format!(
                "{}: the user's and the project's rule ran {:?} times (user route `{}`, project route `{}`)",
                host.name(),
                fired.runs,
                fired.user,
                fired.project
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `install --host copilot` with the hookx under test in its routes.
const INSTALL: [&str; 5] = [
    "install",
    "--host",
    "copilot",
    "--hookx",
    env!("CARGO_BIN_EXE_hookx"),
];

/// Two projects with the same Claude guard, for hookx installed for Copilot in `a` only.
/// Copilot's `disabledHooks` keys a handler by its content, so the install turns the guard off
/// in `b` too, which has no route of its own: the user route install keeps runs it there.
struct TwoProjects {
    _tmp: tempfile::TempDir,
    a: PathBuf,
    b: PathBuf,
    home: PathBuf,
    log: PathBuf,
}

impl TwoProjects {
    fn new() -> TwoProjects {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let (a, b, home) = (root.join("a"), root.join("b"), root.join("home"));
        let log = root.join("ran.log");
        // Byte-identical in both projects: it logs the folder it runs in, and denies.
        let guard = format!(
            "pwd >> '{}'; echo 'no shell here' >&2; exit 2",
            log.display()
        );
        let rule = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": guard}]}]}});
        for dir in [&a, &b] {
            std::fs::create_dir_all(dir.join(".git")).unwrap();
            common::write(dir, ".claude/settings.json", &rule.to_string());
        }
        std::fs::create_dir_all(&home).unwrap();
        TwoProjects {
            _tmp: tmp,
            a,
            b,
            home,
            log,
        }
    }

    /// hookx run in `at` with this home; it must succeed. Its output.
    fn output(&self, at: &Path, args: &[&str]) -> std::process::Output {
        common::hookx_at(at, &self.home, args)
            .success()
            .get_output()
            .clone()
    }

    fn hookx(&self, at: &Path, args: &[&str]) -> String {
        String::from_utf8(self.output(at, args).stdout).unwrap()
    }

    fn trust(&self, at: &Path) {
        self.hookx(at, &["trust", "--yes"]);
    }

    /// `install --host copilot` in `at`, with the hookx under test in its routes: its stdout.
    fn install(&self, at: &Path) -> String {
        self.hookx(at, &INSTALL)
    }

    fn uninstall(&self, at: &Path) -> String {
        self.hookx(at, &["install", "--host", "copilot", "--uninstall"])
    }

    /// `install --host copilot --scope user --uninstall` in `at`: its stdout.
    fn uninstall_user(&self, at: &Path) -> String {
        self.hookx(
            at,
            &[
                "install",
                "--host",
                "copilot",
                "--scope",
                "user",
                "--uninstall",
            ],
        )
    }

    /// Copilot's settings, which hold `disabledHooks` (the switch) and hookx's record.
    fn settings(&self) -> PathBuf {
        self.home.join(".copilot/settings.json")
    }

    /// Two projects, with `a` trusted and installed for Copilot: its settings file and text.
    fn installed_in_a() -> (TwoProjects, PathBuf, String) {
        let p = TwoProjects::new();
        p.trust(&p.a);
        p.install(&p.a);
        let settings = p.settings();
        let text = std::fs::read_to_string(&settings).unwrap();
        (p, settings, text)
    }

    /// Fires in `project` (see [`TwoProjects::fire`]): the guard ran there once. The answers.
    fn fire_guard_once(&self, project: &Path) -> Vec<(String, String)> {
        let (answers, ran) = self.fire(project);
        assert_eq!(
            ran,
            [project.display().to_string()],
            "the guard once: {answers:?}"
        );
        answers
    }

    /// Fires in `project`: the guard ran there once, and its own deny is Copilot's answer.
    fn assert_guard_denies_once(&self, project: &Path) {
        let answers = self.fire_guard_once(project);
        let reason = copilot_deny(&answers).unwrap_or_else(|| panic!("no deny: {answers:?}"));
        assert!(reason.contains("no shell here"), "{reason}");
    }

    /// Fires in `project`, where the guard is untrusted: it did not run, and the call is
    /// denied. The deny's reason.
    fn untrusted_deny(&self, project: &Path) -> String {
        let (answers, ran) = self.fire(project);
        assert!(ran.is_empty(), "untrusted content never runs: {ran:?}");
        copilot_deny(&answers).unwrap_or_else(|| panic!("no deny: {answers:?}"))
    }

    /// Takes `b`'s Claude file (the guard) away: its `hooks`, to put elsewhere.
    fn take_claude_hooks_of_b(&self) -> serde_json::Value {
        let claude = self.b.join(".claude/settings.json");
        let rule: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&claude).unwrap()).unwrap();
        std::fs::remove_file(&claude).unwrap();
        rule["hooks"].clone()
    }

    /// Fires Copilot's `preToolUse` for a `bash` call in `project` through each route Copilot
    /// runs there (the user's, and the project's when it has one), as Copilot runs them; the
    /// answers, and the folders the guard ran in.
    fn fire(&self, project: &Path) -> (Vec<(String, String)>, Vec<String>) {
        let _ = std::fs::remove_file(&self.log);
        let bin = env!("CARGO_BIN_EXE_hookx");
        let spec = Dialect::named("copilot").unwrap().config();
        let payload = serde_json::json!({"timestamp": 1, "cwd": project, "toolName": "bash", "toolArgs": "{\"command\":\"ls\"}"}).to_string();
        let mut answers = Vec::new();
        for file in [
            self.home.join(spec.install_user),
            project.join(spec.install_project),
        ] {
            for route in routes(&file, bin, "copilot", "preToolUse") {
                let out = assert_cmd::Command::new("sh")
                    .args(["-c", &route])
                    .current_dir(project)
                    .env("HOME", &self.home)
                    .env_remove("HOOKX_HOME")
                    .env_remove("HOOKX_HOST")
                    .env(spec.hook_dir_var.unwrap(), file.parent().unwrap())
                    .write_stdin(payload.clone())
                    .output()
                    .unwrap();
                answers.push((
                    String::from_utf8(out.stdout).unwrap(),
                    String::from_utf8(out.stderr).unwrap(),
                ));
            }
        }
        let ran = std::fs::read_to_string(&self.log).unwrap_or_default();
        (answers, ran.lines().map(str::to_string).collect())
    }
}

/// The deny in Copilot's answers to one `preToolUse`, if any: its reason.
fn copilot_deny(answers: &[(String, String)]) -> Option<String> {
    answers.iter().find_map(|(stdout, _)| {
        let v: serde_json::Value = serde_json::from_str(stdout.trim()).ok()?;
        (v["permissionDecision"] == "deny").then(|| v["permissionDecisionReason"].to_string())
    })
}

/// hookx's user route runs a Claude guard that an install in another project switched off in
/// Copilot (the key is the handler's content): trusted, the guard's own deny, once; in the
/// installed project the guard still runs once (the project route leaves the event to the
/// user route). The last uninstall takes the user route back out with the keys.
#[test]
fn a_guard_switched_off_by_an_install_in_another_project_still_denies_there() {
    let p = TwoProjects::new();
    p.trust(&p.a);
    p.trust(&p.b);
    let out = p.install(&p.a);
    assert!(out.contains("(the user route)"), "{out}");
    for project in [&p.a, &p.b] {
        let (answers, ran) = p.fire(project);
        assert_eq!(ran, [project.display().to_string()], "{answers:?}");
        let reason = copilot_deny(&answers);
        assert!(
            reason
                .as_deref()
                .is_some_and(|r| r.contains("no shell here")),
            "{project:?}: {answers:?}"
        );
    }
    // A user uninstall keeps the routes a project's switch still needs.
    let out = p.uninstall_user(&p.a);
    assert!(out.contains("uninstall those first"), "{out}");
    let (answers, ran) = p.fire(&p.b);
    assert_eq!(ran, [p.b.display().to_string()], "{answers:?}");
    // Counted by the installs recorded: the route stays while one is left.
    p.install(&p.b);
    p.uninstall(&p.a);
    let spec = Dialect::named("copilot").unwrap().config();
    assert!(p.home.join(spec.install_user).exists());
    let (answers, ran) = p.fire(&p.b);
    assert_eq!(ran, [p.b.display().to_string()], "{answers:?}");
    p.uninstall(&p.b);
    assert!(!p.home.join(spec.install_user).exists());
    assert!(!p.settings().exists());
}

/// The same where `b`'s Claude file is not trusted by hookx: hookx does not run it, and the
/// guard Copilot no longer runs is not lost: the tool call is denied, with what to do.
#[test]
fn an_untrusted_guard_switched_off_by_another_project_fails_closed() {
    let p = TwoProjects::new();
    p.trust(&p.a);
    p.install(&p.a);
    let reason = p.untrusted_deny(&p.b);
    let file = p.b.join(".claude/settings.json");
    assert!(
        reason.contains(&format!("hookx trust {}", file.display()))
            && reason.contains(&p.a.display().to_string())
            && reason.contains("--uninstall"),
        "{reason}"
    );
    let doctor = common::hookx_at(&p.b, &p.home, &["doctor", "--host", "copilot"])
        .get_output()
        .clone();
    let doctor = String::from_utf8(doctor.stdout).unwrap();
    assert!(
        doctor.contains(&format!("--host copilot` in {} listed", p.a.display()))
            && doctor.contains("until `hookx trust"),
        "{doctor}"
    );
}

/// In the install's own project too: right after `install --host copilot`, before `hookx
/// trust`, Copilot no longer runs the Claude guard and hookx does not run an untrusted file:
/// the tool call is denied, with what to do, until the file is trusted; then the guard's own
/// deny, once.
#[test]
fn an_untrusted_guard_the_install_switched_off_in_its_own_project_fails_closed() {
    let p = TwoProjects::new();
    p.install(&p.a);
    let reason = p.untrusted_deny(&p.a);
    let file = p.a.join(".claude/settings.json");
    assert!(
        reason.contains(&format!("hookx trust {}", file.display())),
        "{reason}"
    );
    p.trust(&p.a);
    p.assert_guard_denies_once(&p.a);
}

/// An untrusted file (a repository's `.claude/settings.local.json`) holding a byte-identical
/// copy of a guard hookx runs from a trusted file: the command runs, from the trusted file, so
/// nothing is lost and the tool call gets the guard's own answer, not hookx's fail-closed deny.
#[test]
fn an_untrusted_byte_identical_copy_of_a_trusted_guard_does_not_deny_every_call() {
    let p = TwoProjects::new();
    p.install(&p.a);
    p.trust(&p.a);
    let settings = std::fs::read_to_string(p.a.join(".claude/settings.json")).unwrap();
    common::write(&p.a, ".claude/settings.local.json", &settings);
    p.assert_guard_denies_once(&p.a);
}

/// Copilot reads `~/.copilot/settings.json` with comments, trailing commas and a byte order
/// mark (Copilot CLI 1.0.102's own settings loader, `userSettingsLoad`, asked directly):
/// its `disabledHooks` still turns the guard off there, so hookx must still see it, and run
/// the guard. Install edits such a file in place, the user's comment kept.
#[test]
fn a_switch_file_with_comments_and_trailing_commas_still_leaves_the_guard_to_hookx() {
    let p = TwoProjects::new();
    let settings = p.settings();
    common::write(
        &p.home,
        ".copilot/settings.json",
        "\u{feff}{\n  // the model I want\n  \"model\": \"gpt-4.1\",\n}\n",
    );
    p.trust(&p.a);
    p.install(&p.a);
    let text = std::fs::read_to_string(&settings).unwrap();
    assert!(
        text.contains("// the model I want") && text.contains("disabledHooks"),
        "{text}"
    );
    // The user notes something in the list itself, and leaves a trailing comma.
    let noted = text.replacen(
        "\"disabledHooks\": [",
        "\"disabledHooks\": [ // hookx's\n",
        1,
    );
    let noted = noted.replacen("\"\n  ]", "\",\n  ]", 1);
    assert!(
        noted.contains("// hookx's") && noted.contains("\",\n  ]"),
        "{noted}"
    );
    std::fs::write(&settings, &noted).unwrap();
    p.assert_guard_denies_once(&p.a);
    // Uninstall takes back exactly hookx's keys and record.
    p.uninstall(&p.a);
    let text = std::fs::read_to_string(&settings).unwrap();
    assert!(
        text.contains("// the model I want") && !text.contains("hookx\""),
        "{text}"
    );
}

/// A project moved (or deleted) after `install --host copilot`: its recorded folder is gone,
/// so no uninstall can ever run there. Uninstalling in the moved project (or any install or
/// uninstall for Copilot) drops the gone install's keys: Copilot runs the guard again, and the
/// user route the record kept goes with the last install.
#[test]
fn an_install_whose_project_moved_is_undone_by_the_uninstall_in_its_new_place() {
    let p = TwoProjects::new();
    p.trust(&p.a);
    p.install(&p.a);
    let spec = Dialect::named("copilot").unwrap().config();
    assert!(p.home.join(spec.install_user).exists());
    let moved = p.a.with_file_name("a-moved");
    std::fs::rename(&p.a, &moved).unwrap();
    p.uninstall(&moved);
    let settings = p.settings();
    assert!(
        !settings.exists(),
        "the keys stay listed: {}",
        std::fs::read_to_string(&settings).unwrap_or_default()
    );
    assert!(!p.home.join(spec.install_user).exists());
}

/// An install that cannot write its routes (here a repository ships `.github/hooks` as a link
/// out of the project, which a project install refuses) must not leave the switch behind:
/// keys listed with no route of hookx's would run the guard nowhere, in every project.
#[test]
fn an_install_that_fails_to_write_its_routes_leaves_no_handler_switched_off() {
    let p = TwoProjects::new();
    p.trust(&p.a);
    let outside = p.home.with_file_name("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(p.a.join(".github")).unwrap();
    std::os::unix::fs::symlink(&outside, p.a.join(".github/hooks")).unwrap();
    common::hookx_at(&p.a, &p.home, &INSTALL).failure();
    let settings = p.settings();
    assert!(
        !settings.exists(),
        "listed without a route: {}",
        std::fs::read_to_string(&settings).unwrap_or_default()
    );
}

/// A project folder whose name holds a terminal escape (an archive unpacked as it was named):
/// install's notes and the deny `run` writes on stderr in another project name that folder
/// with the escape written out, never raw.
#[test]
fn a_project_folder_name_cannot_rewrite_the_terminal_through_the_switch_messages() {
    let p = TwoProjects::new();
    let odd = p.a.with_file_name("a\u{1b}[2Kb");
    std::fs::rename(&p.a, &odd).unwrap();
    let out = p.output(&odd, &INSTALL);
    let said = String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
    assert!(
        said.contains("a\\u{1b}[2Kb") && !said.contains('\u{1b}'),
        "{said}"
    );
    let (answers, _) = p.fire(&p.b);
    let stderr: String = answers.iter().map(|(_, e)| e.as_str()).collect();
    assert!(
        stderr.contains("a\\u{1b}[2Kb") && !stderr.contains('\u{1b}'),
        "{stderr}"
    );
}

/// After an uninstall, a handler of the project that the switch file still lists not as
/// hookx's (the user listed it, or took hookx's record out by hand) runs nowhere: Copilot
/// leaves it and hookx's routes are gone. Uninstall says so, naming the file; a plain
/// uninstall says nothing of it.
#[test]
fn an_uninstall_that_leaves_a_handler_switched_off_says_so() {
    let p = TwoProjects::new();
    let uninstall = |p: &TwoProjects| {
        let out = p.output(&p.a, &["install", "--host", "copilot", "--uninstall"]);
        String::from_utf8(out.stderr).unwrap()
    };
    p.install(&p.a);
    let stderr = uninstall(&p);
    assert!(!stderr.contains("still lists"), "{stderr}");
    p.install(&p.a);
    let settings = p.settings();
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    value.as_object_mut().unwrap().remove("hookx");
    std::fs::write(&settings, value.to_string()).unwrap();
    let stderr = uninstall(&p);
    assert!(
        stderr.contains("~/.copilot/settings.json still lists 1 handler(s) of this project"),
        "{stderr}"
    );
}

/// A comma the user left out in `~/.copilot/settings.json` (`"model": "x"` on a line of its
/// own above the list): Copilot CLI 1.0.102's settings loader still reads the list (asked
/// directly), so hookx must too, or the guard runs nowhere.
#[test]
fn a_switch_file_missing_a_comma_still_leaves_the_guard_to_hookx() {
    let (p, settings, text) = TwoProjects::installed_in_a();
    let body = text.trim_start().strip_prefix('{').unwrap();
    std::fs::write(&settings, format!("{{\n  \"model\": \"gpt-4.1\"\n  {body}")).unwrap();
    p.assert_guard_denies_once(&p.a);
}

/// Copilot keys a handler of its own `.github/hooks` files written in Claude's PascalCase form
/// as the same handler of `.claude/settings.json` (conformance/copilot-facts.md, "The key"): an
/// install in `a` that lists the Claude guard's key turns off a team's byte-identical PascalCase
/// guard in `b` too. hookx runs it there (trusted: its own deny, once) or denies the call with
/// the fix (untrusted); it is never left to Copilot, which no longer runs it.
#[test]
fn a_pascalcase_copilot_guard_switched_off_by_an_install_elsewhere_still_denies() {
    let p = TwoProjects::new();
    let team = serde_json::json!({"version": 1, "hooks": p.take_claude_hooks_of_b()});
    common::write(&p.b, ".github/hooks/team.json", &team.to_string());
    p.trust(&p.a);
    p.install(&p.a);
    let (answers, ran) = p.fire(&p.b);
    assert!(ran.is_empty(), "untrusted content never runs: {ran:?}");
    let reason =
        copilot_deny(&answers).unwrap_or_else(|| panic!("untrusted, no deny: {answers:?}"));
    let file = p.b.join(".github/hooks/team.json");
    assert!(
        reason.contains(&format!("hookx trust {}", file.display())),
        "{reason}"
    );
    p.trust(&p.b);
    let answers = p.fire_guard_once(&p.b);
    // Its deny as Copilot would have read it (an exit 2 of Copilot's own file).
    assert!(copilot_deny(&answers).is_some(), "no deny: {answers:?}");
}

/// Copilot leaves a handler's other keys out of its key (a `comment` of the team's: probed,
/// `live_copilot` `a_guard_whose_key_hookx_cannot_tell_still_runs_once`): `b`'s guard with one
/// is turned off by `a`'s install too, so hookx runs it there (attacks row 86; before, hookx
/// took its key for unknown, left it to Copilot, and it ran nowhere).
#[test]
fn a_guard_with_a_key_of_its_own_switched_off_elsewhere_still_denies() {
    let p = TwoProjects::new();
    let claude = p.b.join(".claude/settings.json");
    let mut rule: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&claude).unwrap()).unwrap();
    rule["hooks"]["PreToolUse"][0]["hooks"][0]["comment"] = "the team's guard".into();
    std::fs::write(&claude, rule.to_string()).unwrap();
    p.trust(&p.a);
    p.trust(&p.b);
    p.install(&p.a);
    p.assert_guard_denies_once(&p.b);
}

/// Attacks row 88 (found beside row 101, whose fix drops the record): the installed project is
/// moved after `install --host copilot`; until an install or uninstall drops its record, the
/// fail-closed deny in another project names that folder as the fix, and says it is no longer
/// there.
#[test]
fn the_deny_says_when_the_install_it_names_is_no_longer_there() {
    let p = TwoProjects::new();
    p.trust(&p.a);
    p.install(&p.a);
    let moved = p.a.with_file_name("a-moved");
    std::fs::rename(&p.a, &moved).unwrap();
    let reason = p.untrusted_deny(&p.b);
    assert!(reason.contains("a folder no longer there"), "{reason}");
}

/// While a project's keys are listed, `--scope user --uninstall` keeps the user route, which
/// runs the byte-identical guard in projects without a route of their own. The record is read
/// as Copilot reads the file, comments too (attacks row 135: with a `//` note in the file the
/// record was read strictly, taken for empty, and the route went; the key stayed listed, so
/// the guard ran nowhere in `b`).
#[test]
fn a_comment_in_the_switch_file_does_not_let_the_user_route_go_while_a_project_needs_it() {
    let p = TwoProjects::new();
    p.trust(&p.a);
    p.trust(&p.b);
    p.install(&p.a);
    let settings = p.settings();
    let text = std::fs::read_to_string(&settings).unwrap();
    let body = text.trim_start().strip_prefix('{').unwrap();
    std::fs::write(&settings, format!("{{ // my settings\n{body}")).unwrap();
    let out = p.uninstall_user(&p.a);
    assert!(out.contains("kept the copilot routes"), "{out}");
    let answers = p.fire_guard_once(&p.b);
    assert!(copilot_deny(&answers).is_some(), "no deny: {answers:?}");
}

/// Copilot reads its settings with jsonc-parser 0.34, which takes more than comments and
/// commas in whitespace (`userSettingsLoad` of Copilot CLI 1.0.102, asked directly: each file
/// below gave back the list with the guard's key). hookx reads each as Copilot does, so the
/// guard Copilot leaves to it still runs (attacks row 136: each was invalid for hookx, the
/// list taken for absent, and the guard ran nowhere, silently).
#[test]
fn a_switch_file_copilot_reads_loosely_still_leaves_the_guard_to_hookx() {
    let (p, settings, text) = TwoProjects::installed_in_a();
    assert!(text.contains("],\"hookx\""), "{text}");
    let body = text.trim_start().strip_prefix('{').unwrap();
    for (what, loose) in [
        (
            "a comma left out with no space",
            text.replacen("],\"hookx\"", "]\"hookx\"", 1),
        ),
        ("a tab in a string", format!("{{\"model\":\"a\tb\",{body}")),
        ("a hexadecimal number", format!("{{\"n\":0x10,{body}")),
        ("a number with a plus", format!("{{\"n\":+1,{body}")),
        ("a number ending in a point", format!("{{\"n\":1.,{body}")),
        ("two byte order marks", format!("\u{feff}\u{feff}{text}")),
    ] {
        std::fs::write(&settings, &loose).unwrap();
        let (answers, ran) = p.fire(&p.a);
        assert_eq!(
            ran,
            [p.a.display().to_string()],
            "{what}: the guard once: {answers:?}"
        );
        assert!(
            copilot_deny(&answers).is_some(),
            "{what}: no deny: {answers:?}"
        );
    }
}

/// What neither of hookx's readings takes, Copilot's own may: CLI 1.0.102's
/// `userSettingsLoad`, asked directly, read the list in each file below (`01` as 0, `1e` as 1,
/// `0x` as 0), and ignored the whole file for the last four. hookx counts every key in a
/// settings file it cannot parse as listed, so the guard runs, in both projects: once where
/// Copilot read the list, twice (Copilot too) where it ignored the file, never nowhere
/// (attacks row 136: the first five ran nowhere, silently).
#[test]
fn a_switch_file_only_copilot_reads_still_leaves_the_guard_to_hookx() {
    let p = TwoProjects::new();
    p.trust(&p.a);
    p.trust(&p.b);
    p.install(&p.a);
    let settings = p.settings();
    let text = std::fs::read_to_string(&settings).unwrap();
    let body = text.trim_start().strip_prefix('{').unwrap();
    // The key's first digit written as a `\u` escape, as JSON allows.
    let list = "\"disabledHooks\":[\"";
    let at = text.find(list).unwrap() + list.len();
    let digit = u32::from(text.as_bytes()[at]);
    let escaped = format!("{}\\u{digit:04x}{}", &text[..at], &text[at + 1..]);
    let escaped = escaped.trim_start().strip_prefix('{').unwrap();
    for (what, loose) in [
        (
            "a leading zero (Copilot reads it)",
            format!("{{\"n\":01,{body}"),
        ),
        (
            "leading zeros and a minus (Copilot reads it)",
            format!("{{\"n\":-0001,{body}"),
        ),
        (
            "an exponent without digits (Copilot reads it)",
            format!("{{\"n\":1e+,{body}"),
        ),
        (
            "a hex number without digits (Copilot reads it)",
            format!("{{\"n\":0x,{body}"),
        ),
        (
            "a leading zero and an escaped key",
            format!("{{\"n\":01,{escaped}"),
        ),
        (
            "a point before an exponent (Copilot ignores the file)",
            format!("{{\"n\":1.e5,{body}"),
        ),
        (
            "two points (Copilot ignores the file)",
            format!("{{\"n\":0.5.5,{body}"),
        ),
        (
            "a letter after a number (Copilot ignores the file)",
            format!("{{\"n\":1x,{body}"),
        ),
    ] {
        std::fs::write(&settings, &loose).unwrap();
        for project in [&p.a, &p.b] {
            let (answers, ran) = p.fire(project);
            assert_eq!(
                ran,
                [project.display().to_string()],
                "{what}: the guard once in {}: {answers:?}",
                project.display()
            );
            assert!(
                copilot_deny(&answers).is_some(),
                "{what}: no deny: {answers:?}"
            );
        }
    }
}

/// The same where `b`'s guard is not trusted: the call is denied, and the deny says hookx
/// cannot tell which install listed the key (attacks row 136).
#[test]
fn an_untrusted_guard_in_a_switch_file_only_copilot_reads_fails_closed() {
    let (p, settings, text) = TwoProjects::installed_in_a();
    let body = text.trim_start().strip_prefix('{').unwrap();
    std::fs::write(&settings, format!("{{\"n\":01,{body}")).unwrap();
    let reason = p.untrusted_deny(&p.b);
    assert!(
        reason.contains("hookx cannot tell") && !reason.contains("no longer there"),
        "{reason}"
    );
    // doctor says what hookx does with the file, not that nothing of it counts.
    let doctor = common::hookx_at(&p.b, &p.home, &["doctor", "--host", "copilot"]);
    let doctor = String::from_utf8_lossy(&doctor.get_output().stdout).to_string();
    assert!(
        doctor.contains("Copilot's own reader takes more than JSON and may read it: hookx counts each of the 1 keys in it as listed"),
        "{doctor}"
    );
}

/// A handler the user turned off by hand in Copilot's `disabledHooks` stays off after `hookx
/// install --host copilot`: install does not claim the key, and hookx's route does not run it
/// either (it did: the user's own switch was undone while hookx was installed). doctor says
/// why it runs nowhere.
#[test]
fn a_handler_the_user_listed_off_by_hand_stays_off_under_hookxs_route() {
    let (p, settings, text) = TwoProjects::installed_in_a();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let key = value["disabledHooks"][0].as_str().unwrap().to_string();
    p.uninstall(&p.a);
    let by_hand = format!("{{\"disabledHooks\": [\"{key}\"]}}\n");
    // The uninstall took away the folder install had created for the file (row 215).
    assert!(!settings.exists());
    common::write(&p.home, ".copilot/settings.json", &by_hand);
    p.install(&p.a);
    let (answers, ran) = p.fire(&p.a);
    assert!(
        ran.is_empty(),
        "the guard the user turned off ran: {answers:?}"
    );
    assert!(copilot_deny(&answers).is_none(), "{answers:?}");
    let doctor = common::hookx_at(&p.a, &p.home, &["doctor", "--host", "copilot"]);
    let doctor = String::from_utf8_lossy(&doctor.get_output().stdout).to_string();
    assert!(
        doctor.contains("1 of its 1 handlers is listed in `disabledHooks` of ~/.copilot/settings.json by you, not by hookx"),
        "{doctor}"
    );
    p.uninstall(&p.a);
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), by_hand);
}

/// Attacks row 207: the same key listed by hand after the install (the list then holds it
/// twice: the install's, and the user's "keep this off"). The uninstall took out both, and so
/// turned back on a handler the user had just turned off.
#[test]
fn a_key_the_user_lists_again_after_the_install_stays_listed_at_the_uninstall() {
    let p = TwoProjects::new();
    p.trust(&p.a);
    p.install(&p.a);
    let settings = p.settings();
    let text = std::fs::read_to_string(&settings).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let key = value["disabledHooks"][0].as_str().unwrap().to_string();
    let again = text.replacen(&format!("[\"{key}\""), &format!("[\"{key}\",\"{key}\""), 1);
    assert_ne!(again, text);
    std::fs::write(&settings, &again).unwrap();
    p.uninstall(&p.a);
    let after = std::fs::read_to_string(&settings).unwrap_or_default();
    let value: serde_json::Value = serde_json::from_str(&after).unwrap_or_default();
    assert_eq!(value["disabledHooks"], serde_json::json!([key]), "{after}");
}

/// The user's own `disabledHooks`, empty (a comment in it, or none), is the user's: an
/// install and its uninstall give the file back byte for byte (attacks row 137: uninstall
/// took the emptied list out, and the user's comment in it with it).
#[test]
fn the_users_empty_switch_list_comes_back_after_an_uninstall() {
    let p = TwoProjects::new();
    let settings = p.settings();
    for before in [
        "{\"disabledHooks\": []}\n",
        "{\n  \"disabledHooks\": [\n    // turned off by hand\n  ]\n}\n",
        "{\"disabledHooks\": [ // c\n]}\n",
    ] {
        common::write(&p.home, ".copilot/settings.json", before);
        p.install(&p.a);
        let installed = std::fs::read_to_string(&settings).unwrap();
        assert!(installed.contains("\"hookx\""), "{installed}");
        p.uninstall(&p.a);
        assert_eq!(std::fs::read_to_string(&settings).unwrap(), before);
    }
}

/// The same for an empty list written over lines (`[\n]`): its whitespace comes back byte for
/// byte, through two installs and their uninstalls too. Before, it came back `[]` (a list
/// emptied of hookx's keys reads the same whatever it held before).
#[test]
fn the_users_empty_list_over_two_lines_comes_back_byte_for_byte() {
    let p = TwoProjects::new();
    let settings = p.settings();
    for before in [
        "{\"disabledHooks\": [\n]}\n",
        "{\n  \"disabledHooks\": [\n  ]\n}\n",
        "{\r\n\t\"disabledHooks\": [\r\n\r\n\t]\r\n}\r\n",
        "{\"disabledHooks\": [ ]}",
    ] {
        common::write(&p.home, ".copilot/settings.json", before);
        p.install(&p.a);
        p.uninstall(&p.a);
        assert_eq!(std::fs::read_to_string(&settings).unwrap(), before);
        p.install(&p.a);
        p.install(&p.b);
        p.uninstall(&p.a);
        p.uninstall(&p.b);
        assert_eq!(std::fs::read_to_string(&settings).unwrap(), before);
    }
}

/// The hook folders install created for its routes (`~/.copilot/hooks/`, the project's
/// `.github/hooks/`) go with the last uninstall, while empty, and so do the folders above them
/// it created (`.github/`, `~/.copilot/`, row 215); one that was there before, or that holds
/// a file of the user's by then, stays. Before, an empty `~/.copilot/hooks/` was left behind,
/// then an empty `.github/`.
#[test]
fn the_hook_folders_install_created_go_with_the_last_uninstall() {
    let p = TwoProjects::new();
    let spec = Dialect::named("copilot").unwrap().config();
    let user_dir = p.home.join(spec.install_user);
    let user_dir = user_dir.parent().unwrap();
    let project_dir = p.a.join(spec.install_project);
    let project_dir = project_dir.parent().unwrap();
    p.install(&p.a);
    assert!(user_dir.is_dir() && project_dir.is_dir());
    p.uninstall(&p.a);
    // Every folder install created goes, the ones above the hook folder too (row 215:
    // `.github/` was left empty).
    for created in [user_dir, project_dir]
        .iter()
        .flat_map(|d| [d.to_path_buf(), d.parent().unwrap().to_path_buf()])
    {
        assert!(!created.exists(), "{} left", created.display());
    }

    // A folder above that was there before stays, with what it holds.
    common::write(&p.a, ".github/workflows/ci.yml", "on: push\n");
    std::fs::create_dir(p.home.join(".copilot")).unwrap();
    p.install(&p.a);
    p.uninstall(&p.a);
    assert!(p.a.join(".github/workflows/ci.yml").is_file());
    assert!(!project_dir.exists(), "{} left", project_dir.display());
    assert!(
        p.home.join(".copilot").is_dir(),
        "the user's ~/.copilot went"
    );
    assert!(!user_dir.exists(), "{} left", user_dir.display());
    std::fs::remove_dir(p.home.join(".copilot")).unwrap();

    // There before install: the user's, left even when empty.
    std::fs::create_dir_all(user_dir).unwrap();
    p.install(&p.a);
    p.uninstall(&p.a);
    assert!(user_dir.is_dir(), "the user's empty folder went");
    std::fs::remove_dir(user_dir).unwrap();

    // Created by install, then holding a file of the user's: left, with the file.
    p.install(&p.a);
    common::write(
        &p.home,
        ".copilot/hooks/mine.json",
        "{\"version\": 1, \"hooks\": {}}",
    );
    p.uninstall(&p.a);
    assert!(user_dir.join("mine.json").is_file());
    assert!(!user_dir.join("hookx.json").exists());
}

/// An uninstall that leaves `disabledHooks` as it was says nothing of handlers running again
/// (attacks row 149: with hookx's record written by hand, with a comment in it, a user-scope
/// uninstall rewrote the record and said "copilot runs again the handlers hookx had turned
/// off", while project `a`'s key stayed listed and the handler off).
#[test]
fn an_uninstall_that_turns_nothing_back_on_does_not_say_so() {
    let (p, settings, text) = TwoProjects::installed_in_a();
    let by_hand = text.replacen("\"hookx\":{", "\"hookx\":{ // hookx's\n", 1);
    assert_ne!(by_hand, text);
    std::fs::write(&settings, &by_hand).unwrap();
    let out = p.uninstall_user(&p.a);
    assert!(out.contains("kept the copilot routes"), "{out}");
    assert!(!out.contains("runs again"), "{out}");
    let listed = std::fs::read_to_string(&settings).unwrap();
    let (answers, ran) = p.fire(&p.a);
    assert_eq!(ran.len(), 1, "{listed}\n{answers:?}");
    // The uninstall that takes the key out says so.
    let out = p.uninstall(&p.a);
    assert!(out.contains("copilot runs again the handlers"), "{out}");
}

/// After row 83's fix, `hookx run --host copilot` reads Copilot's own project files to key
/// their PascalCase handlers: a repository's 20 files of 10 MB made every event take 40 s
/// (release build), past Copilot's limit, where the host fails open. Such files are read up
/// to 1 MiB per event (`walk::SWITCH_ONLY_BYTES`): a bigger one is not read, so its handler,
/// here an untrusted copy of the guard `a`'s install switched off, is taken for one Copilot
/// runs (the repository's own, in its own oversized file) and does not deny every call.
#[test]
fn a_repositorys_own_hook_files_past_the_switch_budget_are_not_read() {
    let p = TwoProjects::new();
    let mut hooks = p.take_claude_hooks_of_b();
    let filler = serde_json::json!({"matcher": "Nope", "hooks": [{"type": "command", "command": "x".repeat(1000)}]});
    for _ in 0..1100 {
        hooks["PreToolUse"]
            .as_array_mut()
            .unwrap()
            .push(filler.clone());
    }
    let big = serde_json::json!({"version": 1, "hooks": hooks}).to_string();
    assert!(big.len() > 1024 * 1024);
    common::write(&p.b, ".github/hooks/team.json", &big);
    p.trust(&p.a);
    p.install(&p.a);
    let (answers, ran) = p.fire(&p.b);
    assert!(
        ran.is_empty() && copilot_deny(&answers).is_none(),
        "read past the budget: {answers:?}"
    );
}

/// A team's Claude guard and its PascalCase copy in `.github/hooks` (the same handler, so one
/// Copilot key turns off both) in the installed project: hookx runs the guard once per event,
/// from the Claude file, with Claude's payload (the file it was written for). Before, both
/// copies ran (a guard that lets the call through ran twice). A deny is never lost: with only
/// the copy trusted, the copy runs, once, and its deny is Copilot's answer.
#[test]
fn a_claude_guard_and_its_pascalcase_copy_run_once_after_an_install() {
    let p = TwoProjects::new();
    let claude = p.a.join(".claude/settings.json");
    let payloads = p.log.with_file_name("payloads.log");
    let written = std::fs::read_to_string(&claude).unwrap();
    // The guard (on both copies) also keeps each payload it is given, one a line.
    let write_both = |exit: &str| {
        let text = written
            .replace(
                "pwd >>",
                &format!("cat >> '{}'; echo >> '{0}'; pwd >>", payloads.display()),
            )
            .replace("exit 2", exit);
        std::fs::write(&claude, &text).unwrap();
        let mut team: serde_json::Value = serde_json::from_str(&text).unwrap();
        team["version"] = 1.into();
        common::write(&p.a, ".github/hooks/team.json", &team.to_string());
    };
    write_both("exit 0");
    p.install(&p.a);
    p.trust(&p.a);
    p.fire_guard_once(&p.a);
    let sent = std::fs::read_to_string(&payloads).unwrap();
    let sent: serde_json::Value = serde_json::from_str(sent.trim()).unwrap();
    // Claude's payload: Copilot's PascalCase one, which the copy is given, has a timestamp.
    assert!(
        sent["tool_name"] == "Bash" && sent.get("timestamp").is_none(),
        "{sent}"
    );
    // `list` and `doctor` say so: one rule, hookx its runner from the Claude file.
    let list = p.hookx(&p.a, &["list", "--host", "copilot"]);
    let plan: Vec<&str> = list
        .split_once("plan (each rule once per agent):")
        .map_or("", |(_, plan)| plan)
        .lines()
        .filter(|l| l.starts_with("  copilot  "))
        .collect();
    assert!(
        plan.len() == 1
            && plan[0]
                .ends_with("hookx runs .claude/settings.json; hookx skips .github/hooks/team.json"),
        "{plan:?}"
    );
    // (It exits non-zero: Copilot reads no project hooks in a folder it was not told to trust.)
    let doctor = common::hookx_at(&p.a, &p.home, &["doctor", "--host", "copilot"]);
    let doctor = String::from_utf8_lossy(&doctor.get_output().stdout);
    assert!(
        doctor.contains("the same handler as one in .github/hooks/team.json to Copilot")
            && !doctor.contains("both run where both are read"),
        "{doctor}"
    );

    // A new command is a new key: install lists it.
    write_both("exit 2");
    p.install(&p.a);
    p.trust(&p.a);
    p.assert_guard_denies_once(&p.a);
    p.hookx(&p.a, &["trust", "--revoke", claude.to_str().unwrap()]);
    let answers = p.fire_guard_once(&p.a);
    // Its deny as Copilot reads an exit 2 of its own file's handler.
    assert!(copilot_deny(&answers).is_some(), "no deny: {answers:?}");
}

/// A switch file Copilot reads but hookx's editor cannot write back exactly (a raw tab in a
/// string: attacks rows 136, 145): install and uninstall refuse it and change nothing, and
/// say what is true: Copilot reads it, the refusal is hookx's, and what to do. Before, they
/// said the file was "not valid JSON", which Copilot contradicts. A file Copilot does not read
/// either keeps the plain message.
#[test]
fn a_switch_file_only_copilot_reads_is_refused_saying_so() {
    let (p, settings, text) = TwoProjects::installed_in_a();
    let body = text.trim_start().strip_prefix('{').unwrap();
    let spec = Dialect::named("copilot").unwrap().config();
    let routes = [
        p.home.join(spec.install_user),
        p.a.join(spec.install_project),
    ];
    let before: Vec<_> = routes.iter().map(|r| std::fs::read(r).unwrap()).collect();
    for (loose, copilot_reads) in [("\"a\tb\"", true), ("\"a\" \"b\" ]", false)] {
        let edited = format!("{{\"note\": {loose},{body}");
        std::fs::write(&settings, &edited).unwrap();
        for args in [
            &INSTALL[..],
            &["install", "--host", "copilot", "--uninstall"],
        ] {
            let out = common::hookx_at(&p.a, &p.home, args).failure();
            let said = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
            let truthful = said.contains("Copilot reads it (its reader takes more than JSON")
                && said.contains("hookx edits only a file it can write back exactly")
                && said.contains("Write that spot as plain JSON")
                && !said.contains("hookx leaves it as it is");
            assert_eq!(truthful, copilot_reads, "{loose}: {said}");
            assert!(said.contains("line 1 column"), "{said}");
            assert_eq!(std::fs::read_to_string(&settings).unwrap(), edited);
            let after: Vec<_> = routes.iter().map(|r| std::fs::read(r).unwrap()).collect();
            assert_eq!(after, before, "{args:?} changed a route");
        }
    }
}

/// Attacks row 192: Copilot leaves `async`, `once`, `statusMessage` and `shell` out of a
/// handler's key, so a repository's PascalCase copy of the team's guard in `.github/hooks` with
/// one of them is turned off by the same key, and hookx takes the two for one rule (one run
/// per key). Whichever copy hookx runs, the guard's deny comes back, once.
#[test]
fn a_pascalcase_copy_with_a_key_copilot_leaves_out_still_denies_once() {
    for (extra, value) in [
        ("async", serde_json::json!(true)),
        ("once", serde_json::json!(true)),
    ] {
        let p = TwoProjects::new();
        let claude = p.a.join(".claude/settings.json");
        let rule: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&claude).unwrap()).unwrap();
        let mut copy = rule["hooks"].clone();
        copy["PreToolUse"][0]["hooks"][0][extra] = value;
        let team = serde_json::json!({"version": 1, "hooks": copy});
        common::write(&p.a, ".github/hooks/team.json", &team.to_string());
        p.trust(&p.a);
        p.install(&p.a);
        for round in 0..2 {
            let (answers, ran) = p.fire(&p.a);
            assert_eq!(
                ran,
                [p.a.display().to_string()],
                "{extra}, round {round}: the guard once: {answers:?}"
            );
            assert!(
                copilot_deny(&answers).is_some(),
                "{extra}, round {round}: no deny: {answers:?}"
            );
        }
    }
}

/// Uninstalling one of two projects with a byte-identical handler: its key stays listed, as
/// the other install's (hookx's user route runs the handler in the first project now). The
/// uninstall said "not as hookx's (you listed them …) … nothing does; take their keys out":
/// followed, the advice would have made Copilot run the guard natively beside the other
/// project's route, twice there (attacks row 245).
#[test]
fn a_key_another_install_records_is_not_said_to_be_the_users_at_an_uninstall() {
    let p = TwoProjects::new();
    for at in [&p.a, &p.b] {
        p.trust(at);
        p.install(at);
    }
    let out = p.output(&p.a, &["install", "--host", "copilot", "--uninstall"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(!said.contains("still lists"), "{said}");
    let text = std::fs::read_to_string(p.settings()).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        value["disabledHooks"].as_array().map(Vec::len),
        Some(1),
        "{text}"
    );
}

/// Attacks row 404: a project's Claude guard converted into Gemini's own file (`convert --to
/// gemini --write`: the copy Gemini runs itself), all trusted, and a user route of hookx's for
/// the same event (a rule of the user's own in `~/.claude/settings.json` that only hookx runs
/// under Gemini). `list --host gemini` says "gemini runs .gemini/settings.json; hookx skips
/// .claude/settings.json", but the route ran the guard too: the run path reads the host's own
/// files for copies only once a file it runs holds one, and the original holds none. The
/// guard ran twice per call (the copy natively, the original through hookx).
///
/// Its fix's own hole: in a project folder Gemini does not trust, Gemini loads none of the
/// project's `.gemini/settings.json` (the user route still runs): the copy runs nowhere, and
/// the route skipping the original left the guard to nobody. There the route runs it.
#[test]
fn a_guard_converted_into_the_hosts_own_file_is_not_run_again_through_hookx() {
    assert_eq!(
        guard_converted_into_gemini_then_routed(true, true),
        ["mine"],
        "the route runs the user's rule, not the guard Gemini runs from its copy"
    );
    assert_eq!(
        guard_converted_into_gemini_then_routed(true, false),
        ["guard", "mine"],
        "Gemini loads no copy in a folder it does not trust: the route runs the guard"
    );
}

/// Attacks row 406: `convert --write` creating `.gemini/settings.json` from a trusted source
/// left it untrusted, without a word, and an untrusted copy never stands in for its original
/// (a repository could forge one): row 404's setup without `hookx trust` on the copy ran the
/// guard twice per call. The new file is trusted as hookx's output of trusted files, as `sync`
/// trusts its targets.
#[test]
fn a_file_convert_creates_from_trusted_sources_is_trusted() {
    assert_eq!(
        guard_converted_into_gemini_then_routed(false, true),
        ["mine"]
    );
}

/// Attacks row 585 (row 406's leftover): the Cline script `convert --write` (or `sync`) writes
/// from a trusted Claude guard was left untrusted, and an untrusted copy never stands in for its
/// original: with hookx's Cline route installed, the route ran the guard and Cline ran its copy,
/// twice per call. The script, nothing but hookx's converted line, is trusted as hookx's output
/// of trusted files, as a JSON file convert creates is; the route leaves the guard to it.
#[test]
fn a_cline_script_written_from_a_trusted_guard_stands_in_for_it() {
    let payload = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/recorded/cline-3.0.65/tools.02.PreToolUse.json"),
    )
    .unwrap();
    for how in ["convert", "sync"] {
        let w = GuardAndMine::new(true);
        let bin = env!("CARGO_BIN_EXE_hookx");
        // A project rule only hookx runs under Cline (and the user's `mine`): the route ran.
        let other = format!("echo other >> '{}'", w.log.display());
        common::write(
            &w.project,
            ".github/hooks/other.json",
            &serde_json::json!({"version": 1, "hooks": {"preToolUse": [
                {"type": "command", "bash": other}]}})
            .to_string(),
        );
        w.hookx(&["trust", ".github/hooks/other.json"]);
        match how {
            "convert" => {
                let to_cline = [".claude/settings.json", "--to", "cline", "--write"];
                w.hookx(&[&["convert"][..], &to_cline, &["--hookx", bin]].concat());
            }
            _ => {
                w.hookx(&["sync", "--init", "--to", "cline"]);
                w.hookx(&["sync"]);
            }
        }
        w.hookx(&[
            "install", "--host", "cline", "--scope", "project", "--hookx", bin,
        ]);
        let recorded: serde_json::Value = serde_json::from_str(&payload).unwrap();
        let stdin = recorded["stdin"]
            .to_string()
            .replace("<project>", &w.project.display().to_string());
        std::fs::remove_file(&w.log).ok();
        common::hookx_clean(&w.project)
            .args(["run", "--host", "cline", "--event", "PreToolUse"])
            .args(["--installed-in", "project", "--home"])
            .arg(&w.home)
            .env("HOME", &w.home)
            .write_stdin(stdin)
            .assert()
            .success();
        // Sync's manifest takes `other.json` as a source too: Cline runs its copy as well.
        let expected: &[&str] = match how {
            "convert" => &["mine", "other"],
            _ => &["mine"],
        };
        assert_eq!(ran_sorted(&w.log), expected, "{how}");
    }
}

/// A project's Claude guard and the user's own Claude rule, each appending its name (`guard`,
/// `mine`) to `log`, both trusted; `git` makes the project a repository first.
struct GuardAndMine {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
    log: PathBuf,
}

impl GuardAndMine {
    fn new(git: bool) -> GuardAndMine {
        let _tmp = tempfile::tempdir().unwrap();
        let root = _tmp.path().canonicalize().unwrap();
        let (project, home) = (root.join("project"), root.join("home"));
        if git {
            std::fs::create_dir_all(project.join(".git")).unwrap();
        }
        let log = root.join("ran.log");
        let rule = |name: &str| {
            serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": format!("echo {name} >> '{}'", log.display())}]}]}})
            .to_string()
        };
        common::write(&project, ".claude/settings.json", &rule("guard"));
        common::write(&home, ".claude/settings.json", &rule("mine"));
        let w = GuardAndMine {
            _tmp,
            project,
            home,
            log,
        };
        for file in [&w.project, &w.home] {
            w.hookx(&[
                "trust",
                &file.join(".claude/settings.json").to_string_lossy(),
            ]);
        }
        w
    }

    /// The project's Claude file converted into `.gemini/settings.json` (`convert --write`,
    /// trusted as its output) and hookx's Gemini user route installed.
    fn converted_to_gemini_beside_the_user_route(&self) {
        let bin = env!("CARGO_BIN_EXE_hookx");
        let to_gemini = [".claude/settings.json", "--to", "gemini", "--write"];
        self.hookx(&[&["convert"][..], &to_gemini, &["--hookx", bin]].concat());
        self.hookx(&[
            "install", "--host", "gemini", "--scope", "user", "--hookx", bin,
        ]);
    }

    /// The Gemini user route fired for a `BeforeTool` call of `ls` in the project, as the user
    /// of the home, with `args` after the route's and `env` beside: the rules it ran.
    fn gemini_route_ran(&self, args: &[&OsStr], env: &[(&str, &OsStr)]) -> Vec<String> {
        let bin = env!("CARGO_BIN_EXE_hookx");
        let settings = self.home.join(".gemini/settings.json");
        let found = routes(&settings, bin, "gemini", "BeforeTool");
        let [route] = &found[..] else {
            panic!("one user route: {found:?}");
        };
        let payload = serde_json::json!({"session_id": "s", "transcript_path": "/x",
            "cwd": self.project, "hook_event_name": "BeforeTool",
            "timestamp": "2026-12-01T14:57:40.307Z", "tool_name": "run_shell_command",
            "tool_input": {"command": "ls"}});
        std::fs::remove_file(&self.log).ok();
        common::hookx_clean(&self.project)
            .args(route.split_whitespace().skip(1))
            .args(args)
            .env("HOME", &self.home)
            .envs(env.iter().copied())
            .write_stdin(payload.to_string())
            .assert()
            .success();
        ran_sorted(&self.log)
    }

    /// `hookx ARGS…` in the project as the user of the home; it must succeed.
    fn hookx(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        common::hookx_clean(&self.project)
            .args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .assert()
            .success()
    }
}

/// Row 404's setup (`trust_copy`: the copy trusted by hand too; `gemini_trusts`: the project
/// folder in Gemini's `trustedFolders.json`); the rules the user route ran.
fn guard_converted_into_gemini_then_routed(trust_copy: bool, gemini_trusts: bool) -> Vec<String> {
    let w = GuardAndMine::new(false);
    let (project, home, log) = (&w.project, &w.home, &w.log);
    let bin = env!("CARGO_BIN_EXE_hookx");
    let hookx = |args: &[&str]| w.hookx(args);
    hookx(&[
        "convert",
        ".claude/settings.json",
        "--to",
        "gemini",
        "--write",
        "--hookx",
        bin,
    ]);
    if gemini_trusts {
        common::write(
            home,
            ".gemini/trustedFolders.json",
            &serde_json::json!({project.display().to_string(): "TRUST_FOLDER"}).to_string(),
        );
    }
    if trust_copy {
        hookx(&[
            "trust",
            &project.join(".gemini/settings.json").to_string_lossy(),
        ]);
    }
    hookx(&[
        "install", "--host", "gemini", "--scope", "user", "--hookx", bin,
    ]);
    let list = hookx(&["list", "--host", "gemini"]);
    let list = String::from_utf8_lossy(&list.get_output().stdout).into_owned();
    // In a folder Gemini does not trust, list says what the route does: it runs the guard.
    let said = match gemini_trusts {
        true => "gemini runs .gemini/settings.json; hookx skips .claude/settings.json",
        false => "hookx runs .claude/settings.json\n",
    };
    assert!(list.contains(said), "{list}");
    let settings = std::fs::read_to_string(home.join(".gemini/settings.json")).unwrap();
    let found = routes(
        &home.join(".gemini/settings.json"),
        bin,
        "gemini",
        "BeforeTool",
    );
    let [route] = &found[..] else {
        panic!("one user route: {settings}");
    };
    let payload = serde_json::json!({"session_id": "s", "transcript_path": "/dev/null",
        "cwd": project, "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00Z",
        "tool_name": "run_shell_command", "tool_input": {"command": "ls"}});
    let mut cmd = common::hookx_clean(project);
    cmd.args(route.split_whitespace().skip(1))
        .current_dir(project)
        .env("HOME", home)
        .env("GEMINI_PROJECT_DIR", project)
        .write_stdin(payload.to_string())
        .assert()
        .success();
    // Sorted: the route runs its handlers side by side, in no set order.
    let ran = std::fs::read_to_string(log).unwrap_or_default();
    let mut ran: Vec<String> = ran.lines().map(str::to_string).collect();
    ran.sort();
    ran
}

/// Attacks row 382: a team's route that runs hookx through a wrapper script (a committed
/// `.claude/settings.json` cannot name hookx's path on every machine, so it runs
/// `./hookx-route.sh`, which finds hookx and runs `hookx run --host claude …`). A teammate on
/// Gemini has hookx installed for Gemini: hookx runs the Claude file's hooks for Gemini, the
/// wrapper among them, and the `hookx run` inside it ran every rule hookx runs under Claude a
/// second time (a Cursor rule here). The route inside stands aside for the same event: each
/// rule once; under Claude itself the wrapper still routes.
#[test]
fn a_route_inside_a_hook_hookx_runs_stands_aside_for_the_same_event() {
    let root = tempfile::tempdir().unwrap();
    let (home, project) = (root.path().join("home"), root.path().join("project"));
    // A repository of its own: Codex's project is the nearest `.git` (attacks row 1120).
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let log = project.join("ran.log");
    let bin = env!("CARGO_BIN_EXE_hookx");
    let wrapper = common::write(
        &project,
        "hookx-route.sh",
        &format!(
            "#!/bin/sh\necho wrapper >> '{}'\nexec {bin} run --host claude --event PreToolUse --home '{}'\n",
            log.display(),
            home.display()
        ),
    );
    std::fs::set_permissions(
        &wrapper,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    common::write(
        &project,
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": wrapper}]}]}})
        .to_string(),
    );
    common::write(
        &project,
        ".cursor/hooks.json",
        &serde_json::json!({"version": 1, "hooks": {"beforeShellExecution": [
            {"command": format!("echo cursor-rule >> '{}'", log.display())}]}})
        .to_string(),
    );
    std::fs::create_dir_all(&home).unwrap();
    common::hookx_at(&project, &home, &["trust", "--yes"]).success();
    let fire = |host: &str, event: &str, payload: serde_json::Value| {
        std::fs::remove_file(&log).ok();
        common::hookx()
            .args(["run", "--host", host, "--event", event, "--home"])
            .arg(&home)
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .write_stdin(payload.to_string())
            .assert()
            .success();
        let mut ran: Vec<String> = std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        ran.sort();
        ran
    };
    let gemini = serde_json::json!({"session_id": "s", "transcript_path": "/x", "cwd": project,
        "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
        "tool_input": {"command": "ls"}});
    assert_eq!(
        fire("gemini", "BeforeTool", gemini),
        ["cursor-rule", "wrapper"],
        "under Gemini: the wrapper and the Cursor rule, once each"
    );
    // A converted copy of the wrapper run through `exec` (Codex, no route of hookx's there):
    // exec runs one handler, so the route inside is what runs the rules.
    std::fs::remove_file(&log).ok();
    let codex = serde_json::json!({"session_id": "s", "turn_id": "t", "transcript_path": "/x",
        "cwd": project, "hook_event_name": "PreToolUse", "model": "m",
        "permission_mode": "default", "tool_name": "Bash",
        "tool_input": {"command": "ls"}, "tool_use_id": "c"});
    common::hookx()
        .args([
            "exec",
            "--host",
            "codex",
            "--as",
            "claude",
            "--event",
            "PreToolUse",
            "--",
        ])
        .arg(&wrapper)
        .current_dir(&project)
        .env("HOME", &home)
        .env_remove("HOOKX_HOME")
        .write_stdin(codex.to_string())
        .assert()
        .success();
    let ran = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(
        ran.lines().filter(|l| *l == "cursor-rule").count(),
        1,
        "exec: {ran}"
    );
    // Claude runs the wrapper itself: the route in it runs the Cursor rule.
    let claude = serde_json::json!({"session_id": "s", "transcript_path": "/x", "cwd": project,
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}});
    std::fs::remove_file(&log).unwrap();
    let out = std::process::Command::new(&wrapper)
        .current_dir(&project)
        .env("HOME", &home)
        .env_remove("HOOKX_HOME")
        .stdin(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(claude.to_string().as_bytes())?;
            child.wait()
        })
        .unwrap();
    assert!(out.success());
    let ran = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(
        ran.lines().filter(|l| *l == "cursor-rule").count(),
        1,
        "{ran}"
    );
}

/// A project whose `host_file` runs the hook script `hook` (name, text) for `event` (`matcher`)
/// beside a Cursor guard (`guard.sh`, text `guard`) on `beforeShellExecution`, every file
/// trusted: rows 463's tests of a route run below a hook.
fn hook_beside_a_cursor_guard(
    project: &Path,
    home: &Path,
    hook: (&str, &str),
    guard: &str,
    (host_file, event, matcher): (&str, &str, &str),
) {
    let hook = common::write(project, hook.0, hook.1);
    let guard = common::write(project, "guard.sh", guard);
    for script in [&hook, &guard] {
        std::fs::set_permissions(script, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
    }
    common::write(
        project,
        host_file,
        &serde_json::json!({"hooks": {event: [{"matcher": matcher, "hooks": [
            {"type": "command", "command": hook}]}]}})
        .to_string(),
    );
    common::write(
        project,
        ".cursor/hooks.json",
        &serde_json::json!({"version": 1, "hooks": {"beforeShellExecution": [
            {"command": guard}]}})
        .to_string(),
    );
    std::fs::create_dir_all(home).unwrap();
    common::hookx_at(project, home, &["trust", "--yes"]).success();
}

/// Attacks row 463: row 382's event mark (kind, session, tool) against two calls of one session
/// and tool. Claude Code 2.1.332 resumes a session under its own id (binary: `--fork-session`,
/// "When resuming, create a new session ID instead of reusing the original"), so a trusted
/// PreToolUse hook that asks the session a second opinion (`claude -p --resume "$session_id"`)
/// starts an agent whose own shell calls reach hookx's route below the hookx running that hook,
/// with the same kind, session and tool: the route stood aside for a call no hookx above runs,
/// and a Cursor guard that denies `rm` never saw it (the nested route answered nothing, exit 0).
/// Stood for here by the hook running the route with the resumed agent's own call.
#[test]
fn a_route_below_a_hook_for_another_call_of_the_session_runs_the_rules() {
    let root = tempfile::tempdir().unwrap();
    let (home, project) = (root.path().join("home"), root.path().join("project"));
    let log = project.join("ran.log");
    let bin = env!("CARGO_BIN_EXE_hookx");
    let call = |command: &str| {
        serde_json::json!({"session_id": "s", "transcript_path": "/x", "cwd": project,
            "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
            "tool_input": {"command": command}})
    };
    let inner = common::write(
        &project,
        "resumed-call.json",
        &call("rm -rf build").to_string(),
    );
    let answer = project.join("resumed-answer.json");
    hook_beside_a_cursor_guard(
        &project,
        &home,
        (
            "second-opinion.sh",
            &format!(
                "#!/bin/sh\ncat > /dev/null\n{bin} run --host gemini --event BeforeTool --home '{}' < '{}' > '{}'\n",
                home.display(),
                inner.display(),
                answer.display()
            ),
        ),
        &format!(
            "#!/bin/sh\ncase \"$(cat)\" in *rm*) echo 'guard rm' >> '{0}'; echo '{{\"permission\":\"deny\"}}';; *) echo 'guard ls' >> '{0}';; esac\n",
            log.display()
        ),
        (".claude/settings.json", "PreToolUse", "Bash"),
    );
    common::hookx()
        .args(["run", "--host", "gemini", "--event", "BeforeTool", "--home"])
        .arg(&home)
        .current_dir(&project)
        .env("HOME", &home)
        .env_remove("HOOKX_HOME")
        .write_stdin(call("ls").to_string())
        .assert()
        .success();
    assert_eq!(ran_sorted(&log), ["guard ls", "guard rm"]);
    let said = std::fs::read_to_string(&answer).unwrap();
    let said: serde_json::Value = serde_json::from_str(said.trim()).unwrap_or_default();
    assert_eq!(said["decision"], "deny", "{said}");
}

/// Attacks row 385: Kiro runs the rules of both folders' files, so hookx's Kiro project route
/// leaves an event to the user route (kiro-facts). The user route is a rule of hookx's
/// `~/.kiro/hooks/hookx.json`, and Kiro's own keys on it narrow it as on any rule: turned off
/// (`"enabled": false`, "a disabled rule never runs"), a matcher of the user's (`fs_write`),
/// or `"timeout": 0` ("0 disables"). The project route still left the call to it: the user's
/// and the project's guards ran nowhere under Kiro. Fired as Kiro fires the project route,
/// with the documented payload: the project route runs both.
#[test]
fn a_kiro_user_route_turned_off_or_narrowed_does_not_take_the_event() {
    for (key, value) in [
        ("enabled", serde_json::json!(false)),
        ("matcher", serde_json::json!("fs_write")),
        ("timeout", serde_json::json!(0)),
    ] {
        let root = tempfile::tempdir().unwrap();
        let (home, project) = (root.path().join("home"), root.path().join("project"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let log = project.join("ran.log");
        for (dir, name) in [(&home, "user"), (&project, "project")] {
            common::write(
                dir,
                ".gemini/settings.json",
                &serde_json::json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command",
                    "command": format!("echo {name} >> '{}'", log.display())}]}]}})
                .to_string(),
            );
        }
        let hookx = |args: &[&str]| common::hookx_at(&project, &home, args).success();
        hookx(&["trust", "--yes"]);
        hookx(&[
            "trust",
            "--yes",
            &home.join(".gemini/settings.json").to_string_lossy(),
        ]);
        let bin = env!("CARGO_BIN_EXE_hookx");
        for scope in ["user", "project"] {
            hookx(&[
                "install", "--host", "kiro", "--scope", scope, "--hookx", bin,
            ]);
        }
        let user = home.join(".kiro/hooks/hookx.json");
        let mut rules: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&user).unwrap()).unwrap();
        for rule in rules["hooks"].as_array_mut().unwrap() {
            rule[key] = value.clone();
        }
        std::fs::write(&user, rules.to_string()).unwrap();
        let routes: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(project.join(".kiro/hooks/hookx.json")).unwrap(),
        )
        .unwrap();
        let line = routes["hooks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["trigger"] == "PreToolUse")
            .and_then(|r| r["action"]["command"].as_str())
            .unwrap()
            .to_string();
        let payload = serde_json::json!({"hook_event_name": "preToolUse", "session_id": "s",
            "cwd": project, "tool_name": "execute_bash", "tool_input": {"command": "npm test"}});
        sh_with_stdin(&line, &project, &home, &[], &payload.to_string());
        let ran = ran_sorted(&log);
        assert_eq!(ran, ["project", "user"], "the user route's {key} {value}");
    }
}

/// Attacks row 387: Droid reads each `.factory` folder's `hooks.json` (else the legacy
/// `hooks/hooks.json`) beside `settings.json`, and an event in the hooks file replaces that
/// event of `settings.json` (droid-facts: binary `{...settingsHooks, ...hooksFileHooks}`, the
/// files run `files_droid_reads`). hookx routes in `settings.json`; a user who keeps hooks of
/// their own in `~/.factory/hooks.json` for the same event hides hookx's user route there, and
/// the project route left the call to it: the user's and the project's guards ran nowhere under
/// Droid. Fired as Droid fires the routes, with its recorded payload: both guards run once.
/// Row 420: a hooks file with a trailing comma Droid drops without a word (run,
/// `live_droid::hook_files_with_comments_or_trailing_commas`), so it hides nothing and Droid
/// runs both routes; read leniently, it hid the user route from the project route's deferral,
/// and each guard ran twice.
#[test]
fn a_droid_user_route_hidden_by_the_users_hooks_file_does_not_take_the_event() {
    let hides = r#"{"PreToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": "true"}]}]}"#;
    let dropped = r#"{"PreToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": "true"}]}],}"#;
    for (hooks_file, text, user_route_runs) in [
        (".factory/hooks.json", hides, false),
        (".factory/hooks/hooks.json", hides, false),
        (".factory/hooks.json", dropped, true),
    ] {
        let root = tempfile::tempdir().unwrap();
        let (home, project) = (root.path().join("home"), root.path().join("project"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let log = project.join("ran.log");
        for (dir, name) in [(&home, "user"), (&project, "project")] {
            common::write(
                dir,
                ".gemini/settings.json",
                &serde_json::json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command",
                    "command": format!("echo {name} >> '{}'", log.display())}]}]}})
                .to_string(),
            );
        }
        let hookx = |args: &[&str]| common::hookx_at(&project, &home, args).success();
        hookx(&["trust", "--yes"]);
        hookx(&[
            "trust",
            "--yes",
            &home.join(".gemini/settings.json").to_string_lossy(),
        ]);
        let bin = env!("CARGO_BIN_EXE_hookx");
        for scope in ["user", "project"] {
            hookx(&[
                "install", "--host", "droid", "--scope", scope, "--hookx", bin,
            ]);
        }
        common::write(&home, hooks_file, text);
        let line = |dir: &Path| {
            let settings: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(dir.join(".factory/settings.json")).unwrap(),
            )
            .unwrap();
            settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
                .as_str()
                .unwrap()
                .to_string()
        };
        let mut lines = vec![line(&project)];
        if user_route_runs {
            lines.push(line(&home));
        }
        let fixture = std::fs::read_to_string(
            common::fixtures_dir().join("recorded/droid-0.225.2/task.02.PreToolUse.json"),
        )
        .unwrap();
        let fixture: serde_json::Value = serde_json::from_str(&fixture).unwrap();
        let payload = fixture["stdin"]
            .to_string()
            .replace("<project>", project.to_str().unwrap())
            .replace("<home>", home.to_str().unwrap());
        for line in lines {
            sh_with_stdin(&line, &project, &home, &[], &payload);
        }
        let ran = ran_sorted(&log);
        assert_eq!(ran, ["project", "user"], "with {hooks_file}: {text}");
    }
}

/// Attacks row 388: OpenCode (and Kilo, its fork) read user plugins below `XDG_CONFIG_HOME`
/// when it is set (run, OpenCode 1.18.33: `live_opencode::opencode_user_plugins_below_xdg_config_home`
/// loaded `$XDG_CONFIG_HOME/opencode/plugin/` and not `~/.config/opencode/plugin/`). hookx's
/// user plugin sits below the home, so with the variable naming another folder OpenCode never
/// loads it, and the project plugin left every call to it: the guards ran nowhere. Fired as
/// the project plugin fires its route, with the variable set: both guards run.
#[test]
fn an_opencode_user_plugin_below_the_home_does_not_take_the_event_under_another_xdg_config_home() {
    for (host, event) in [
        ("opencode", "tool.execute.before"),
        ("kilo", "tool.execute.before"),
    ] {
        let root = tempfile::tempdir().unwrap();
        let (home, project) = (root.path().join("home"), root.path().join("project"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let log = project.join("ran.log");
        for (dir, name) in [(&home, "user"), (&project, "project")] {
            common::write(
                dir,
                ".gemini/settings.json",
                &serde_json::json!({"hooks": {"BeforeTool": [{"hooks": [{"type": "command",
                    "command": format!("echo {name} >> '{}'", log.display())}]}]}})
                .to_string(),
            );
        }
        let hookx = |args: &[&str]| common::hookx_at(&project, &home, args).success();
        hookx(&["trust", "--yes"]);
        hookx(&[
            "trust",
            "--yes",
            &home.join(".gemini/settings.json").to_string_lossy(),
        ]);
        let bin = env!("CARGO_BIN_EXE_hookx");
        for scope in ["user", "project"] {
            hookx(&["install", "--host", host, "--scope", scope, "--hookx", bin]);
        }
        let dot = match host {
            "opencode" => ".opencode",
            _ => ".kilo",
        };
        let plugin = std::fs::read_to_string(project.join(dot).join("plugin/hookx.js")).unwrap();
        let at = plugin
            .find(&format!("{bin} run --host {host} --event {event}"))
            .unwrap();
        let line = &plugin[at..at + plugin[at..].find('"').unwrap()];
        let payload = serde_json::json!({"hook_event_name": event, "session_id": "s",
            "cwd": project, "tool_name": "bash", "tool_input": {"command": "ls"}});
        sh_with_stdin(
            line,
            &project,
            &home,
            &[("XDG_CONFIG_HOME", root.path().join("xdg").as_os_str())],
            &payload.to_string(),
        );
        let ran = ran_sorted(&log);
        assert_eq!(ran, ["project", "user"], "{host}");
    }
}

/// Row 404's fix attacked under Codex, with row 406's trust: a Claude guard converted into
/// `.codex/hooks.json` (trusted as hookx's output, the project trusted by Codex) and a user
/// route of hookx's for the event. `convert` writes no Codex review record, and Codex skips a
/// handler its user never reviewed (codex-facts): the copy runs nowhere. The route skipped the
/// original for it ("codex runs .codex/hooks.json; hookx skips .claude/settings.json"): the
/// guard ran 0 times. A copy its host skips stands in for nothing: the route runs the guard.
#[test]
fn a_copy_codex_never_reviewed_does_not_take_the_guards_run() {
    let w = GuardAndMine::new(true);
    let (project, home, log) = (&w.project, &w.home, &w.log);
    common::write(
        home,
        ".codex/config.toml",
        &format!(
            "[projects.{:?}]\ntrust_level = \"trusted\"\n",
            project.display().to_string()
        ),
    );
    let bin = env!("CARGO_BIN_EXE_hookx");
    let hookx = |args: &[&str]| w.hookx(args);
    hookx(&[
        "convert",
        ".claude/settings.json",
        "--to",
        "codex",
        "--write",
        "--hookx",
        bin,
    ]);
    hookx(&[
        "install", "--host", "codex", "--scope", "user", "--hookx", bin,
    ]);
    let list = hookx(&["list", "--host", "codex"]);
    let list = String::from_utf8_lossy(&list.get_output().stdout).into_owned();
    assert!(
        list.contains("hookx runs .claude/settings.json\n"),
        "{list}"
    );
    let found = routes(&home.join(".codex/hooks.json"), bin, "codex", "PreToolUse");
    let [route] = &found[..] else {
        panic!("one user route: {found:?}");
    };
    let payload = serde_json::json!({"session_id": "s", "turn_id": "t", "cwd": project,
        "hook_event_name": "PreToolUse", "model": "m", "transcript_path": null,
        "tool_name": "Bash", "tool_input": {"command": "ls"}});
    common::hookx_clean(project)
        .args(route.split_whitespace().skip(1))
        .current_dir(project)
        .env("HOME", home)
        .write_stdin(payload.to_string())
        .assert()
        .success();
    let ran = ran_sorted(log);
    assert_eq!(ran, ["guard", "mine"], "{list}");
}

/// Attacks row 461: row 409's review read against `CODEX_HOME`. Codex reads its config.toml
/// (the project's trust, each handler's review) below `$CODEX_HOME` (codex-facts: run with it
/// fresh; hooks get the client's environment); the run path read `~/.codex/config.toml` alone.
/// A user who reviewed the guard's converted copy under the default home and later runs Codex
/// with `CODEX_HOME` elsewhere (a work profile; the project trusted there, the copy not
/// reviewed there, or the project not trusted there at all): Codex skips the copy, and the
/// route, reading the stale review below the home, skipped the original for it: the guard ran
/// nowhere. The host's state stands in only where each place it may be read from says so.
#[test]
fn a_review_below_the_home_does_not_stand_in_where_codex_home_names_another_folder() {
    for codex_home_trusts in [true, false] {
        let w = GuardAndMine::new(true);
        let (project, home, log) = (&w.project, &w.home, &w.log);
        let trusted = format!(
            "[projects.{:?}]\ntrust_level = \"trusted\"\n",
            project.display().to_string()
        );
        let bin = env!("CARGO_BIN_EXE_hookx");
        let hookx = |args: &[&str]| w.hookx(args);
        hookx(&[
            "convert",
            ".claude/settings.json",
            "--to",
            "codex",
            "--write",
            "--hookx",
            bin,
        ]);
        let path = project.join(".codex/hooks.json");
        let hooks: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let mut reviewed = trusted.clone();
        for (key, hash) in hookx::dialect::codex::trust::records(&path, &hooks, &|_| true) {
            reviewed.push_str(&format!(
                "\n[hooks.state.{key:?}]\ntrusted_hash = {hash:?}\n"
            ));
        }
        common::write(home, ".codex/config.toml", &reviewed);
        let codex_home = home.join("work-codex");
        let there = match codex_home_trusts {
            true => trusted.clone(),
            false => String::new(),
        };
        common::write(&codex_home, "config.toml", &there);
        hookx(&[
            "install", "--host", "codex", "--scope", "user", "--hookx", bin,
        ]);
        let found = routes(&home.join(".codex/hooks.json"), bin, "codex", "PreToolUse");
        let [route] = &found[..] else {
            panic!("one user route: {found:?}");
        };
        let payload = serde_json::json!({"session_id": "s", "turn_id": "t", "cwd": project,
            "hook_event_name": "PreToolUse", "model": "m", "transcript_path": null,
            "tool_name": "Bash", "tool_input": {"command": "ls"}});
        let fire = |codex_home: Option<&Path>| {
            let _ = std::fs::remove_file(log);
            let mut cmd = common::hookx_clean(project);
            cmd.args(route.split_whitespace().skip(1))
                .current_dir(project)
                .env("HOME", home);
            if let Some(dir) = codex_home {
                cmd.env("CODEX_HOME", dir);
            }
            cmd.write_stdin(payload.to_string()).assert().success();
            ran_sorted(log)
        };
        // Without the variable the review below the home is Codex's: the copy stands in.
        assert_eq!(fire(None), ["mine"]);
        assert_eq!(
            fire(Some(&codex_home)),
            ["guard", "mine"],
            "trusted under CODEX_HOME: {codex_home_trusts}"
        );
    }
}

/// Attacks row 440 (row 409's "left"): the same copy Codex never reviewed, and no rule of the
/// user's: `install --host codex --scope project` planned as if Codex ran every handler of
/// its own files ("no codex events to route: codex runs every rule of this scope itself"),
/// while Codex skips the copy and reads no Claude file: the guard ran nowhere under Codex.
/// Install routes by the host's own view of its files, as the run path reads it.
#[test]
fn a_project_install_routes_a_guard_whose_copy_codex_never_reviewed() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    let log = root.join("ran.log");
    common::write(
        &project,
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": format!("echo guard >> '{}'", log.display())}]}]}})
        .to_string(),
    );
    common::write(
        &home,
        ".codex/config.toml",
        &format!(
            "[projects.{:?}]\ntrust_level = \"trusted\"\n",
            project.display().to_string()
        ),
    );
    let bin = env!("CARGO_BIN_EXE_hookx");
    let hookx = |args: &[&str]| {
        let mut cmd = common::hookx_clean(&project);
        cmd.args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .assert()
            .success()
    };
    hookx(&["trust", ".claude/settings.json"]);
    hookx(&[
        "convert",
        ".claude/settings.json",
        "--to",
        "codex",
        "--write",
        "--hookx",
        bin,
    ]);
    hookx(&[
        "install", "--host", "codex", "--scope", "project", "--hookx", bin,
    ]);
    let found = routes(
        &project.join(".codex/hooks.json"),
        bin,
        "codex",
        "PreToolUse",
    );
    let [route] = &found[..] else {
        panic!("one project route: {found:?}");
    };
    let payload = serde_json::json!({"session_id": "s", "turn_id": "t", "cwd": project,
        "hook_event_name": "PreToolUse", "model": "m", "transcript_path": null,
        "tool_name": "Bash", "tool_input": {"command": "ls"}});
    common::hookx_clean(&project)
        .args(route.split_whitespace().skip(1))
        .current_dir(&project)
        .env("HOME", &home)
        .write_stdin(payload.to_string())
        .assert()
        .success();
    let ran = std::fs::read_to_string(&log).unwrap_or_default();
    assert_eq!(ran.lines().collect::<Vec<_>>(), ["guard"]);
    // Attacks row 444: doctor counted the copy Codex skips as a rule firing nowhere (exit 5)
    // though the route runs its rule: the guard fires, the copy is a warning, exit 0.
    let doctor = |code: i32| {
        let out = common::hookx_clean(&project)
            .args(["doctor", "--host", "codex"])
            .current_dir(&project)
            .env("HOME", &home)
            .assert()
            .code(code);
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    };
    let said = doctor(0);
    assert!(said.contains("fires: codex (through hookx"), "{said}");
    assert!(
        said.contains("runner: hookx, from .claude/settings.json"),
        "{said}"
    );
    // Without the route the guard runs nowhere under Codex, and doctor says so.
    hookx(&[
        "install",
        "--host",
        "codex",
        "--scope",
        "project",
        "--hookx",
        bin,
        "--uninstall",
    ]);
    let said = doctor(5);
    assert!(said.contains("1 rule fires under none"), "{said}");
}

/// Attacks row 442: a copy in `.codex/hooks.json` the user reviewed in Codex, so that install
/// left the event to Codex ("no codex events to route"), then converted again with hookx
/// elsewhere: the copy's command changed, Codex skipped it as changed since its review, without
/// a word, and no route of hookx's took the event: the guard ran nowhere. A copy hookx writes
/// again from a source trusted in hookx now keeps the review its previous bytes had (hookx
/// moved, or the rule edited and trusted again); one never reviewed, or from a source not
/// trusted as it is, gets none, and convert says Codex skips it and where its rule runs.
#[test]
fn convert_keeps_codex_review_of_a_copy_it_rewrites_from_a_trusted_source() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    let source = |guard: &str| {
        common::write(
            &project,
            ".claude/settings.json",
            &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": guard}]}]}})
            .to_string(),
        );
    };
    source("./guard.sh");
    let trusted = format!(
        "# the user's\nmodel = \"o3\"\n\n[projects.{:?}]\ntrust_level = \"trusted\"\n",
        project.display().to_string()
    );
    common::write(&home, ".codex/config.toml", &trusted);
    let bin = env!("CARGO_BIN_EXE_hookx");
    let moved = root.join("bin/hookx");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(bin, &moved).unwrap();
    let hookx = |args: &[&str]| {
        let out = common::hookx_clean(&project)
            .args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .assert()
            .success();
        let out = out.get_output();
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    };
    hookx(&["trust", ".claude/settings.json"]);
    let convert = |with: &str| {
        hookx(&[
            "convert",
            ".claude/settings.json",
            "--to",
            "codex",
            "--write",
            "--hookx",
            with,
        ])
    };
    let path = project.join(".codex/hooks.json");
    let config = home.join(".codex/config.toml");
    // What Codex's review would need for the copies as they are now.
    let records = || {
        let hooks: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        hookx::dialect::codex::trust::records(&path, &hooks, &|_| true)
    };
    let reviewed = || {
        let text = std::fs::read_to_string(&config).unwrap();
        let all = records();
        !all.is_empty()
            && all.iter().all(|(key, hash)| {
                let codex = Dialect::named("codex").unwrap();
                let trust = codex.def().route_trust.as_ref().unwrap();
                trust.recorded(&text, key).as_deref() == Some(hash)
            })
    };
    let note = "Codex skips 1 handler(s) of .codex/hooks.json";
    let kept = "kept Codex's review of 1 handler(s) of .codex/hooks.json";
    let said = convert(bin);
    assert!(
        said.contains(note) && !said.contains(kept),
        "never reviewed:\n{said}"
    );
    assert_eq!(std::fs::read_to_string(&config).unwrap(), trusted);
    // The user reviews the copy in Codex's `/hooks`.
    let mut text = trusted.clone();
    for (key, hash) in records() {
        text.push_str(&format!(
            "\n[hooks.state.{key:?}]\ntrusted_hash = {hash:?}\n"
        ));
    }
    common::write(&home, ".codex/config.toml", &text);
    let said = convert(bin);
    assert!(!said.contains("Codex skips"), "reviewed:\n{said}");
    // hookx moved: the copy's command changed, its review follows it.
    let said = convert(&moved.to_string_lossy());
    assert!(
        said.contains(kept) && !said.contains("Codex skips"),
        "hookx moved:\n{said}"
    );
    assert!(reviewed(), "{}", std::fs::read_to_string(&config).unwrap());
    let now = std::fs::read_to_string(&config).unwrap();
    assert!(now.starts_with(&trusted), "the user's keys kept:\n{now}");
    // The rule edited in the source and trusted again in hookx: the same.
    source("./guard.sh --strict");
    hookx(&["trust", ".claude/settings.json"]);
    let said = convert(bin);
    assert!(said.contains(kept), "edited and trusted:\n{said}");
    assert!(reviewed(), "{}", std::fs::read_to_string(&config).unwrap());
    // Edited and not trusted in hookx: hookx vouches for nothing, Codex skips the copy.
    source("./guard.sh --lax");
    let said = convert(bin);
    assert!(
        said.contains(note) && !said.contains(kept),
        "not trusted:\n{said}"
    );
    assert!(!reviewed());
    // Trusted later: the copy's bytes now were never reviewed in Codex, and stay so.
    hookx(&["trust", ".claude/settings.json"]);
    let said = convert(&moved.to_string_lossy());
    assert!(
        said.contains(note) && !said.contains(kept),
        "never reviewed:\n{said}"
    );
    assert!(!reviewed());
    // `hookx sync` writes through convert's code: the same, and says it in its report.
    std::fs::remove_file(&path).unwrap();
    common::write(&home, ".codex/config.toml", &trusted);
    hookx(&["sync", "--init", "--to", "codex"]);
    let said = hookx(&["sync"]);
    assert!(said.contains(note), "{said}");
    let mut text = trusted.clone();
    for (key, hash) in records() {
        text.push_str(&format!(
            "\n[hooks.state.{key:?}]\ntrusted_hash = {hash:?}\n"
        ));
    }
    common::write(&home, ".codex/config.toml", &text);
    source("./guard.sh --sync");
    hookx(&["trust", ".claude/settings.json"]);
    let said = hookx(&["sync"]);
    assert!(
        said.contains(kept) && !said.contains("Codex skips"),
        "sync:\n{said}"
    );
    assert!(reviewed(), "{}", std::fs::read_to_string(&config).unwrap());
}

/// Row 442's fix from the other side: a rule taken out of the source moves the next one to
/// its place (the provenance record's rule is a place). The copy of the rule taken out was
/// reviewed in Codex, the next one's never; both edited and trusted again, convert must not
/// hand the first copy's review to the second.
#[test]
fn convert_keeps_no_review_for_a_copy_that_moved_into_a_reviewed_copys_place() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    let source = |rules: serde_json::Value| {
        common::write(
            &project,
            ".claude/settings.json",
            &serde_json::json!({"hooks": {"PreToolUse": rules}}).to_string(),
        );
    };
    let rule = |matcher: &str, command: &str| serde_json::json!({"matcher": matcher, "hooks": [{"type": "command", "command": command}]});
    source(serde_json::json!([
        rule("Bash", "./guard.sh"),
        rule("Write", "./lint.sh")
    ]));
    let trusted = format!(
        "[projects.{:?}]\ntrust_level = \"trusted\"\n",
        project.display().to_string()
    );
    let bin = env!("CARGO_BIN_EXE_hookx");
    let hookx = |args: &[&str]| {
        let out = common::hookx_clean(&project)
            .args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .assert()
            .success();
        String::from_utf8_lossy(&out.get_output().stderr).into_owned()
    };
    let convert = || {
        hookx(&["trust", ".claude/settings.json"]);
        hookx(&[
            "convert",
            ".claude/settings.json",
            "--to",
            "codex",
            "--write",
            "--hookx",
            bin,
        ])
    };
    convert();
    // The user reviews the guard's copy only (the first group).
    let path = project.join(".codex/hooks.json");
    let hooks: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let records = hookx::dialect::codex::trust::records(&path, &hooks, &|_| true);
    let (key, hash) = &records[0];
    assert!(key.ends_with(":pre_tool_use:0:0"), "{records:?}");
    let config = format!("{trusted}\n[hooks.state.{key:?}]\ntrusted_hash = {hash:?}\n");
    common::write(&home, ".codex/config.toml", &config);
    // The guard taken out, the lint edited: its copy takes the guard's place and key.
    source(serde_json::json!([rule("Write", "./lint.sh --fix")]));
    let said = convert();
    assert!(
        !said.contains("kept Codex's review")
            && said.contains("Codex skips 1 handler(s) of .codex/hooks.json"),
        "{said}"
    );
    let config = std::fs::read_to_string(home.join(".codex/config.toml")).unwrap();
    assert!(config.contains(hash.as_str()), "{config}");
}

/// Attacks row 421: row 382's exec half (a converted copy of a team's wrapper that runs
/// `hookx run` inside, run by Codex through `hookx exec`: exec marks no event, so the route
/// inside runs the rules) beside a Codex route of hookx's for the same event, the copy reviewed
/// in Codex and the project trusted there: Codex runs both, the copy (and the route inside it)
/// and hookx's user route. Fired as Codex fires both: each rule once.
#[test]
fn a_wrapper_copy_codex_runs_beside_hookxs_route_runs_each_rule_once() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let log = root.join("ran.log");
    let bin = env!("CARGO_BIN_EXE_hookx");
    let wrapper = project.join("hookx-route.sh");
    common::write(
        &project,
        "hookx-route.sh",
        &format!(
            "#!/bin/sh\necho wrapper >> '{}'\nexec {bin} run --host claude --event PreToolUse --home '{}'\n",
            log.display(),
            home.display()
        ),
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let echo = |name: &str| format!("echo {name} >> '{}'", log.display());
    common::write(
        &project,
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "./hookx-route.sh"}]}]}})
        .to_string(),
    );
    common::write(
        &project,
        ".cursor/hooks.json",
        &serde_json::json!({"version": 1, "hooks": {"beforeShellExecution": [
            {"command": echo("cursor-rule")}]}})
        .to_string(),
    );
    common::write(
        &home,
        ".claude/settings.json",
        &serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": echo("mine")}]}]}})
        .to_string(),
    );
    let hookx = |args: &[&str]| {
        let mut cmd = common::hookx_clean(&project);
        cmd.args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .assert()
            .success()
    };
    hookx(&["trust", "--yes"]);
    hookx(&[
        "trust",
        &home.join(".claude/settings.json").to_string_lossy(),
    ]);
    hookx(&[
        "convert",
        ".claude/settings.json",
        "--to",
        "codex",
        "--write",
        "--hookx",
        bin,
    ]);
    hookx(&[
        "install", "--host", "codex", "--scope", "user", "--hookx", bin,
    ]);
    // The project trusted in Codex, and the copy reviewed there, as `/hooks` records it.
    let hooks_file = project.join(".codex/hooks.json");
    let copies: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&hooks_file).unwrap()).unwrap();
    let reviews = hookx::dialect::codex::trust::records(&hooks_file, &copies, &|_| true);
    assert_eq!(reviews.len(), 1, "{copies}");
    let mut config = format!(
        "[projects.{:?}]\ntrust_level = \"trusted\"\n",
        project.display().to_string()
    );
    for (key, hash) in &reviews {
        config.push_str(&format!(
            "\n[hooks.state.{key:?}]\ntrusted_hash = {hash:?}\n"
        ));
    }
    let config_file = home.join(".codex/config.toml");
    let before = std::fs::read_to_string(&config_file).unwrap_or_default();
    std::fs::write(&config_file, format!("{before}\n{config}")).unwrap();
    let list = hookx(&["list", "--host", "codex"]);
    let list = String::from_utf8_lossy(&list.get_output().stdout).into_owned();
    let found = routes(&home.join(".codex/hooks.json"), bin, "codex", "PreToolUse");
    let [route] = &found[..] else {
        panic!("one user route: {found:?}");
    };
    let copy = copies["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let payload = serde_json::json!({"session_id": "s", "turn_id": "t", "cwd": project,
        "hook_event_name": "PreToolUse", "model": "m", "transcript_path": null,
        "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": "ls"},
        "tool_use_id": "c"});
    for line in [route.as_str(), copy.as_str()] {
        let path = format!(
            "{}:/usr/bin:/bin",
            Path::new(bin).parent().unwrap().display()
        );
        let env = [("PATH", OsStr::new(&path))];
        sh_with_stdin(line, &project, &home, &env, &payload.to_string());
    }
    let ran = ran_sorted(&log);
    assert_eq!(ran, ["cursor-rule", "mine", "wrapper"], "{list}");
}

/// Attacks row 422: Gemini CLI trusts every folder when its user turned folder trust off
/// (`security.folderTrust.enabled: false` in `~/.gemini/settings.json`; bundle 0.61.0
/// `checkPathTrust`), and none in restricted mode (`GEMINI_RESTRICTED_MODE=true`), whatever
/// `trustedFolders.json` says. A project's Claude guard converted into `.gemini/settings.json`
/// and hookx's Gemini user route (the user's own Claude rule): with folder trust off, Gemini
/// runs the copy, and the route ran the guard too (twice per call). In restricted mode Gemini
/// treats the folder as untrusted and registers no hook at all (gemini-facts), so the route is
/// not fired there; fired by hand it shows the plan list and doctor give: no copy stands in.
#[test]
fn geminis_own_folder_trust_switches_decide_whether_its_copy_stands_in() {
    let w = GuardAndMine::new(true);
    let (project, home) = (&w.project, &w.home);
    w.converted_to_gemini_beside_the_user_route();
    let settings = home.join(".gemini/settings.json");
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    value["security"] = serde_json::json!({"folderTrust": {"enabled": false}});
    std::fs::write(&settings, value.to_string()).unwrap();
    // What the route runs (Gemini runs the copy itself where it loads the project's file).
    let fire = |restricted: bool| {
        let env = [("GEMINI_RESTRICTED_MODE", OsStr::new("true"))];
        w.gemini_route_ran(&[], &env[..usize::from(restricted)])
    };
    assert_eq!(
        fire(false),
        ["mine"],
        "folder trust off: Gemini runs the copy"
    );
    // The folder trusted in Gemini's record too: restricted mode still loads no project file.
    common::write(
        home,
        ".gemini/trustedFolders.json",
        &serde_json::json!({project.display().to_string(): "TRUST_FOLDER"}).to_string(),
    );
    assert_eq!(
        fire(false),
        ["mine"],
        "trusted folder: Gemini runs the copy"
    );
    assert_eq!(
        fire(true),
        ["guard", "mine"],
        "restricted: Gemini loads no copy"
    );
}

/// Attacks row 462: row 404's folder-trust read against how Gemini CLI 0.61.0 reads its record
/// (bundle: `isPathTrusted`: of the entries covering the folder, the longest path as written
/// decides; the path an entry covers is taken real). A user who chose "Don't trust" for this
/// folder and later "Trust parent folder" in a sibling with a longer name, or whose entry names
/// the folder through a link: Gemini trusts the folder and runs the guard's converted copy in
/// `.gemini/settings.json`; the route took the folder as untrusted (the deeper entry decided,
/// the link covered nothing) and ran the original too: twice per call. A sibling with a
/// shorter name leaves the folder distrusted, as in Gemini.
#[test]
fn geminis_record_decides_by_its_longest_entry_and_real_paths() {
    let w = GuardAndMine::new(true);
    let (project, home) = (&w.project, &w.home);
    let root = project.parent().unwrap();
    w.converted_to_gemini_beside_the_user_route();
    std::os::unix::fs::symlink(root, root.join("link")).unwrap();
    let at = |rel: &str| root.join(rel).display().to_string();
    let own = project.display().to_string();
    for (record, ran) in [
        (
            serde_json::json!({own.clone(): "DO_NOT_TRUST", at("a-sibling-with-a-longer-name"): "TRUST_PARENT"}),
            vec!["mine"],
        ),
        (
            serde_json::json!({at("link/project"): "TRUST_FOLDER"}),
            vec!["mine"],
        ),
        (
            serde_json::json!({own.clone(): "DO_NOT_TRUST", at("x"): "TRUST_PARENT"}),
            vec!["guard", "mine"],
        ),
    ] {
        common::write(home, ".gemini/trustedFolders.json", &record.to_string());
        assert_eq!(w.gemini_route_ran(&[], &[]), ran, "{record}");
    }
}

/// Row 462's record read where Gemini reads it: Gemini CLI started with `GEMINI_CLI_HOME`
/// reads its `~/.gemini/trustedFolders.json` below that folder (gemini-facts: `~` is
/// `$GEMINI_CLI_HOME`), so the route's copy stands in only where the record below `$HOME` and
/// the one below the variable both trust the folder: one that names it nowhere leaves the
/// guard to the route.
#[test]
fn geminis_record_below_its_home_variable_decides_too() {
    let w = GuardAndMine::new(true);
    w.converted_to_gemini_beside_the_user_route();
    let trusts = serde_json::json!({w.project.display().to_string(): "TRUST_FOLDER"}).to_string();
    common::write(&w.home, ".gemini/trustedFolders.json", &trusts);
    let moved = w.project.parent().unwrap().join("gemini-home");
    for (below_the_variable, ran) in [(None, vec!["guard", "mine"]), (Some(&trusts), vec!["mine"])]
    {
        std::fs::create_dir_all(&moved).unwrap();
        if let Some(record) = below_the_variable {
            common::write(&moved, ".gemini/trustedFolders.json", record);
        }
        let env = [("GEMINI_CLI_HOME", moved.as_os_str())];
        assert_eq!(w.gemini_route_ran(&[], &env), ran, "{below_the_variable:?}");
    }
}

/// Attacks row 466: row 404's copy that stands in, turned off by the user in Gemini's own list
/// (`hooksConfig.disabled`, which `/hooks disable` writes; Gemini joins the lists of every
/// scope and runs no handler they name, gemini-facts, row 305): the guard's converted copy in
/// `.gemini/settings.json` listed in the user's `~/.gemini/settings.json`, the folder trusted.
/// Gemini skips the copy; the route took it as run ("gemini runs .gemini/settings.json; hookx
/// skips .claude/settings.json") and skipped the original: the guard ran nowhere.
#[test]
fn a_copy_geminis_own_list_turns_off_does_not_take_the_guards_run() {
    let w = GuardAndMine::new(true);
    let (project, home) = (&w.project, &w.home);
    w.converted_to_gemini_beside_the_user_route();
    common::write(
        home,
        ".gemini/trustedFolders.json",
        &serde_json::json!({project.display().to_string(): "TRUST_FOLDER"}).to_string(),
    );
    let settings = home.join(".gemini/settings.json");
    let fire = || w.gemini_route_ran(&[], &[]);
    assert_eq!(fire(), ["mine"], "the copy on: Gemini runs it");
    let copy: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(project.join(".gemini/settings.json")).unwrap(),
    )
    .unwrap();
    let command = copy["hooks"]["BeforeTool"][0]["hooks"][0]["command"].clone();
    assert!(command.as_str().unwrap().contains(" exec "), "{copy}");
    let mut user: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    user["hooksConfig"] = serde_json::json!({"disabled": [command]});
    std::fs::write(&settings, user.to_string()).unwrap();
    assert_eq!(fire(), ["guard", "mine"], "the copy off in Gemini's list");
}

/// Attacks row 466's leftover: Gemini joins the `hooksConfig.disabled` lists of its system
/// settings (`/etc/gemini-cli/settings.json`) and system defaults (`system-defaults.json`
/// beside them) with the user's and the project's (source 0.61.0, gemini-facts, row 305). A
/// copy listed off only there stood in for the guard all the same: the guard ran nowhere under
/// Gemini. A system file someone other than root could have written is skipped by Gemini
/// (`live_gemini::system_settings_others_could_write_are_skipped`): its list turns nothing off.
#[test]
fn a_copy_geminis_system_list_turns_off_does_not_take_the_guards_run() {
    a_copy_in_a_system_list(|w, dir| {
        w.gemini_route_ran(&[OsStr::new("--managed-root"), dir.as_os_str()], &[])
    });
}

/// The guard's copy in Gemini's project file, its route beside it, the folder trusted; then the
/// copy named in the `hooksConfig.disabled` of `etc/gemini-cli/settings.json` (or the
/// `system-defaults.json` beside it) below a fresh folder only root can write. `fire` runs the
/// route with Gemini's system folder at that folder: root's list turns the copy off (the route
/// runs the guard), a list another account owns turns nothing off.
fn a_copy_in_a_system_list(fire: impl Fn(&GuardAndMine, &Path) -> Vec<String>) {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let Some(base) = [target, Path::new("/run")]
        .into_iter()
        .find(|b| root_owned_path(b))
    else {
        eprintln!("skip: Gemini CLI reads system settings only on a path that only root can write");
        return;
    };
    for (file, root_owns, runs) in [
        ("settings.json", true, &["guard", "mine"][..]),
        ("system-defaults.json", true, &["guard", "mine"]),
        ("settings.json", false, &["mine"]),
    ] {
        let w = GuardAndMine::new(true);
        let (project, home) = (&w.project, &w.home);
        w.converted_to_gemini_beside_the_user_route();
        common::write(
            home,
            ".gemini/trustedFolders.json",
            &serde_json::json!({project.display().to_string(): "TRUST_FOLDER"}).to_string(),
        );
        let system_root = tempfile::tempdir_in(base).unwrap();
        assert_eq!(
            fire(&w, system_root.path()),
            ["mine"],
            "the copy on: Gemini runs it"
        );
        let copy: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(project.join(".gemini/settings.json")).unwrap(),
        )
        .unwrap();
        let command = &copy["hooks"]["BeforeTool"][0]["hooks"][0]["command"];
        let system = common::write(
            system_root.path(),
            &format!("etc/gemini-cli/{file}"),
            &serde_json::json!({"hooksConfig": {"disabled": [command]}}).to_string(),
        );
        if !root_owns {
            std::os::unix::fs::chown(&system, Some(1000), Some(1000)).unwrap();
        }
        assert_eq!(
            fire(&w, system_root.path()),
            runs,
            "the copy in the list of {file}, root's: {root_owns}"
        );
    }
}

/// Whether `dir` and every folder above it are root's and not writable by group or others:
/// where Gemini CLI reads a system settings file.
fn root_owned_path(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    dir.ancestors()
        .all(|d| std::fs::metadata(d).is_ok_and(|m| m.uid() == 0 && m.mode() & 0o022 == 0))
}

/// Row 462's leftover: Gemini CLI reads its folder record where
/// `$GEMINI_CLI_TRUSTED_FOLDERS_PATH` names it, in place of `~/.gemini/trustedFolders.json`
/// (bundle 0.61.0, `Storage.getTrustedFoldersPath`). The commands a user types read it there, as
/// the Gemini started from the same shell does: `list` said the route runs the guard while that
/// Gemini runs the copy. `hookx run` takes no place from it (a project may set any variable for
/// the host's hooks): where only the record the variable names trusts the folder, the route
/// runs the guard beside the copy, twice at worst; where that record does not, Gemini registers
/// no hook at all (row 462), so the route never fires.
#[test]
fn geminis_record_where_its_variable_names_it_is_read_by_the_users_commands_only() {
    let w = GuardAndMine::new(true);
    let (project, home, log) = (&w.project, &w.home, &w.log);
    let bin = env!("CARGO_BIN_EXE_hookx");
    w.converted_to_gemini_beside_the_user_route();
    let record = common::write(
        home,
        "elsewhere/folders.json",
        &serde_json::json!({project.display().to_string(): "TRUST_FOLDER"}).to_string(),
    );
    let var = "GEMINI_CLI_TRUSTED_FOLDERS_PATH";
    let list = |set: bool| {
        let mut cmd = common::hookx_clean(project);
        cmd.args(["list", "--host", "gemini"]).env("HOME", home);
        if set {
            cmd.env(var, &record);
        }
        let out = cmd.assert().success();
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    };
    let runs = "gemini runs .gemini/settings.json; hookx skips .claude/settings.json";
    assert!(!list(false).contains(runs), "no record below the home");
    let said = list(true);
    assert!(said.contains(runs), "{said}");
    // Doctor names the record Gemini reads.
    let empty = common::write(home, "elsewhere/none.json", "{}");
    let doctor = common::hookx_clean(project)
        .args(["doctor", "--host", "gemini"])
        .env("HOME", home)
        .env(var, &empty)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&doctor.stdout);
    assert!(
        said.contains("this project is not in ~/elsewhere/none.json"),
        "{said}"
    );
    let found = routes(
        &home.join(".gemini/settings.json"),
        bin,
        "gemini",
        "BeforeTool",
    );
    let [route] = &found[..] else {
        panic!("one user route: {found:?}");
    };
    let payload = serde_json::json!({"session_id": "s", "transcript_path": "/x", "cwd": project,
        "hook_event_name": "BeforeTool", "timestamp": "2026-12-01T14:57:40.307Z",
        "tool_name": "run_shell_command", "tool_input": {"command": "ls"}});
    common::hookx_clean(project)
        .args(route.split_whitespace().skip(1))
        .env("HOME", home)
        .env(var, &record)
        .write_stdin(payload.to_string())
        .assert()
        .success();
    assert_eq!(
        ran_sorted(log),
        ["guard", "mine"],
        "the route reads no record from it"
    );
}

/// Row 489's leftover, the forms Gemini's settings schema refuses but Gemini CLI 0.61.0 still
/// loads (its schema check only warns, `loadSettings`): a `hooksConfig.disabled` that is a lone
/// string is merged into the defaults' empty list as a one-item list (`mergeRecursively`,
/// union), and a handler's label is `name || command` (`getHookName`), so a `name` of `""`
/// gives way to the command. hookx read neither list: the copy Gemini turned off stood in
/// for the guard, which ran nowhere under Gemini.
#[test]
fn a_copy_gemini_lists_off_in_forms_its_schema_refuses_does_not_take_the_guards_run() {
    for case in ["a lone string", "an empty name"] {
        let w = GuardAndMine::new(true);
        let (project, home) = (&w.project, &w.home);
        w.converted_to_gemini_beside_the_user_route();
        common::write(
            home,
            ".gemini/trustedFolders.json",
            &serde_json::json!({project.display().to_string(): "TRUST_FOLDER"}).to_string(),
        );
        let settings = home.join(".gemini/settings.json");
        let fire = || w.gemini_route_ran(&[], &[]);
        assert_eq!(fire(), ["mine"], "{case}: the copy on, Gemini runs it");
        let copy_path = project.join(".gemini/settings.json");
        let mut copy: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&copy_path).unwrap()).unwrap();
        let command = copy["hooks"]["BeforeTool"][0]["hooks"][0]["command"].clone();
        let listed = match case {
            "a lone string" => command,
            _ => {
                copy["hooks"]["BeforeTool"][0]["hooks"][0]["name"] = serde_json::json!("");
                std::fs::write(&copy_path, copy.to_string()).unwrap();
                w.hookx(&["trust", &copy_path.to_string_lossy()]);
                assert_eq!(fire(), ["mine"], "{case}: named, not listed");
                serde_json::json!([command])
            }
        };
        let mut user: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
        user["hooksConfig"] = serde_json::json!({ "disabled": listed });
        std::fs::write(&settings, user.to_string()).unwrap();
        assert_eq!(
            fire(),
            ["guard", "mine"],
            "{case}: the copy off in Gemini's list"
        );
    }
}

/// Found in the leftovers pass (2026-12-06), beside row 462's: Gemini CLI's `--skip-trust` sets
/// `GEMINI_CLI_TRUST_WORKSPACE=true` after the settings were read as untrusted (bundle 0.61.0;
/// `live_gemini::skip_trust_drops_project_hooks`: user hooks run, project hooks do not), and its
/// hooks inherit it. The route took the variable for Gemini trusting the folder: the copy in
/// `.gemini/settings.json`, which Gemini never loaded, stood in for the guard, which ran
/// nowhere. On the run path a trusting variable is no proof (set before the start, Gemini does
/// load the copy: twice at worst); the record still decides.
#[test]
fn a_variable_that_trusts_the_folder_does_not_let_a_copy_gemini_never_loaded_stand_in() {
    let w = GuardAndMine::new(true);
    let (project, home) = (&w.project, &w.home);
    w.converted_to_gemini_beside_the_user_route();
    let fire = || w.gemini_route_ran(&[], &[("GEMINI_CLI_TRUST_WORKSPACE", OsStr::new("true"))]);
    assert_eq!(fire(), ["guard", "mine"], "no record trusts the folder");
    common::write(
        home,
        ".gemini/trustedFolders.json",
        &serde_json::json!({project.display().to_string(): "TRUST_FOLDER"}).to_string(),
    );
    assert_eq!(
        fire(),
        ["mine"],
        "the record trusts it: Gemini runs the copy"
    );
}

/// Attacks row 463, the same command again: the resumed agent (row 463's test) runs the very
/// command the outer call is held for, another call with another `tool_use_id` (Claude Code,
/// Codex). Kind, session, tool and input alike, the route below stood aside and the guard never
/// saw that call. A payload naming the same call id (or none, as one hookx hands a hook in a
/// dialect without them) is still the same event.
#[test]
fn a_route_below_a_hook_for_the_same_command_called_again_runs_the_rules() {
    let root = tempfile::tempdir().unwrap();
    let (home, project) = (root.path().join("home"), root.path().join("project"));
    let log = project.join("ran.log");
    let bin = env!("CARGO_BIN_EXE_hookx");
    let call = |id: &str| {
        serde_json::json!({"session_id": "s", "transcript_path": "/x", "cwd": project,
            "hook_event_name": "PreToolUse", "permission_mode": "default", "tool_name": "Bash",
            "tool_input": {"command": "rm -rf build"}, "tool_use_id": id})
    };
    let inner = project.join("resumed-call.json");
    hook_beside_a_cursor_guard(
        &project,
        &home,
        (
            "second-opinion.sh",
            &format!(
                "#!/bin/sh\ncat > /dev/null\n{bin} run --host claude --event PreToolUse --home '{}' < '{}' > /dev/null\n",
                home.display(),
                inner.display(),
            ),
        ),
        &format!(
            "#!/bin/sh\ncat > /dev/null\necho guard >> '{}'\necho '{{\"permission\":\"deny\"}}'\n",
            log.display()
        ),
        (".gemini/settings.json", "BeforeTool", ".*"),
    );
    for (inner_id, runs) in [("toolu_2", 2), ("toolu_1", 1), ("", 1)] {
        std::fs::write(&inner, call(inner_id).to_string()).unwrap();
        std::fs::remove_file(&log).ok();
        common::hookx()
            .args(["run", "--host", "claude", "--event", "PreToolUse", "--home"])
            .arg(&home)
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("HOOKX_HOME")
            .write_stdin(call("toolu_1").to_string())
            .assert()
            .success();
        assert_eq!(ran_sorted(&log).len(), runs, "inner call id {inner_id:?}");
    }
}

/// A team's Gemini wrapper (`./hookx-route.sh`, which runs `hookx run --host gemini`) converted
/// into an agent's project file (`.claude/settings.json`: `hookx exec --host claude --as
/// gemini`; Codex's reviewed, the project trusted there), a project Cursor rule and one of the
/// user's (`mine`), hookx's user route for that agent, the project trusted in Gemini (which runs
/// the wrapper itself, from its own file). Each rule appends its name to `log`.
struct WrapperCopy {
    _tmp: tempfile::TempDir,
    project: PathBuf,
    home: PathBuf,
    log: PathBuf,
    /// The copy's command line in the Claude file.
    copy: String,
    /// `PATH` with hookx's folder first.
    path: String,
}

impl WrapperCopy {
    /// The wrapper converted into `to`'s project file, hookx's `to` user route beside it.
    fn new(to: Dialect) -> WrapperCopy {
        WrapperCopy::from_into(Dialect::named("gemini").unwrap(), to)
    }

    /// A wrapper of `from`'s (its route for the tool-call guard event, in its project file)
    /// converted into `to`'s project file, hookx's `to` user route beside it.
    fn from_into(from: Dialect, to: Dialect) -> WrapperCopy {
        let tables = |d: Dialect| d.default_flavor().tables();
        let pre = |d: Dialect| tables(d).event_name(&EventKind::PreToolUse).unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let (project, home) = (root.join("project"), root.join("home"));
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let log = root.join("ran.log");
        let bin = env!("CARGO_BIN_EXE_hookx");
        let wrapper = project.join("hookx-route.sh");
        common::write(
            &project,
            "hookx-route.sh",
            &format!(
                "#!/bin/sh\necho wrapper >> '{}'\nexec {bin} run --host {from} --event {} --home '{}'\n",
                log.display(),
                pre(from),
                home.display()
            ),
        );
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
        let source = from.config().install_project;
        let shell = tables(from).tool_name("shell").unwrap();
        common::write(
            &project,
            source,
            &serde_json::json!({"hooks": {pre(from): [{"matcher": shell, "hooks": [
                {"type": "command", "command": "./hookx-route.sh"}]}]}})
            .to_string(),
        );
        let cursor = |name: &str| {
            serde_json::json!({"version": 1, "hooks": {"beforeShellExecution": [
                {"command": format!("echo {name} >> '{}'", log.display())}]}})
            .to_string()
        };
        common::write(&project, ".cursor/hooks.json", &cursor("cursor-rule"));
        common::write(&home, ".cursor/hooks.json", &cursor("mine"));
        common::write(
            &home,
            ".gemini/trustedFolders.json",
            &serde_json::json!({project.display().to_string(): "TRUST_FOLDER"}).to_string(),
        );
        let w = WrapperCopy {
            _tmp: tmp,
            copy: String::new(),
            path: format!(
                "{}:/usr/bin:/bin",
                Path::new(bin).parent().unwrap().display()
            ),
            project,
            home,
            log,
        };
        w.hookx(&["trust", "--yes"]);
        w.hookx(&[
            "trust",
            &w.home.join(".cursor/hooks.json").to_string_lossy(),
        ]);
        let host = to.name();
        w.hookx(&["convert", source, "--to", host, "--write", "--hookx", bin]);
        w.hookx(&["trust", "--yes"]);
        w.hookx(&["install", "--host", host, "--scope", "user", "--hookx", bin]);
        let file = w.project.join(to.config().install_project);
        let copies: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let copy = copies["hooks"][pre(to)][0]["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            copy.contains(&format!("exec --host {host} --as {from}")),
            "{copy}"
        );
        w.user_route(host, to.config().install_user, pre(to));
        if let Some(review) = to.def().route_trust.as_ref() {
            // The project trusted in Codex, and the copy reviewed there, as `/hooks` records it.
            let mut config = format!(
                "[projects.{:?}]\ntrust_level = \"trusted\"\n",
                w.project.display().to_string()
            );
            for (key, hash) in (review.records)(&file, &copies, &|_| true) {
                config.push_str(&format!(
                    "\n[hooks.state.{key:?}]\ntrusted_hash = {hash:?}\n"
                ));
            }
            let records = w.home.join(review.file);
            let before = std::fs::read_to_string(&records).unwrap_or_default();
            std::fs::write(&records, format!("{before}\n{config}")).unwrap();
        }
        WrapperCopy { copy, ..w }
    }

    fn hookx(&self, args: &[&str]) {
        common::hookx_clean(&self.project)
            .args(args)
            .current_dir(&self.project)
            .env("HOME", &self.home)
            .assert()
            .success();
    }

    /// hookx's user route for `host`'s `event` in the user's file `rel`.
    fn user_route(&self, host: &str, rel: &str, event: &str) -> String {
        let bin = env!("CARGO_BIN_EXE_hookx");
        let found = routes(&self.home.join(rel), bin, host, event);
        let [route] = &found[..] else {
            panic!("one user route: {found:?}");
        };
        route.clone()
    }

    /// Codex's review key of hookx's one user route in `~/.codex/hooks.json`.
    fn codex_user_route_key(&self) -> String {
        let file = self.home.join(".codex/hooks.json");
        let routes: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let codex = Dialect::named("codex").unwrap();
        let review = codex.def().route_trust.as_ref().unwrap();
        let [(key, _)] = &(review.records)(&file, &routes, &|_| true)[..] else {
            panic!("one user route: {routes}");
        };
        key.clone()
    }

    /// `line` run by a shell named `codex` whose command line goes on with `options` (each
    /// quoted), as Codex's own process is: what hookx reads a profile or an override from.
    fn as_codex(&self, line: &str, options: &[&str]) -> String {
        let codex = self.home.join("bin/codex");
        if !codex.exists() {
            std::fs::create_dir_all(codex.parent().unwrap()).unwrap();
            std::os::unix::fs::symlink("/bin/sh", &codex).unwrap();
        }
        let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
        let options: Vec<String> = options.iter().map(|o| quote(o)).collect();
        format!(
            "{} -c {} codex {}",
            codex.display(),
            quote(&format!("{line}; true")),
            options.join(" ")
        )
    }

    /// Runs `line` as the agent fires it (`env` beside hookx's `PATH`), `payload` on stdin.
    fn fire(&self, line: &str, env: &[(&str, &OsStr)], payload: &serde_json::Value) {
        let mut all = vec![("PATH", OsStr::new(&self.path))];
        all.extend_from_slice(env);
        sh_with_stdin(line, &self.project, &self.home, &all, &payload.to_string());
    }

    /// What ran since the last call, sorted.
    fn ran(&self) -> Vec<String> {
        let ran = ran_sorted(&self.log);
        let _ = std::fs::remove_file(&self.log);
        ran
    }
}

/// Attacks row 601: row 421's prediction under an agent that runs the host's file but never the
/// host's user file: Copilot CLI 1.0.102 runs the [`WrapperCopy`] from the project's Claude file,
/// with its PascalCase payload, and never `~/.claude/settings.json`; no route of hookx's for
/// Copilot. `exec` took the Claude user route for one that runs the event's rules and marked the
/// event, so the route inside the copy stood aside for a route Copilot never runs: the Cursor
/// rules ran nowhere.
#[test]
fn a_wrapper_copy_copilot_runs_from_claudes_file_is_not_left_to_claudes_user_route() {
    let w = WrapperCopy::new(Dialect::named("claude").unwrap());
    // Copilot's PascalCase payload for a Claude file's handler (recorded, `scopes/pairs.json`).
    let payload = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "timestamp": "2026-12-06T01:50:45.187Z", "cwd": w.project, "tool_name": "Bash",
        "tool_input": {"command": "ls", "description": "d"}});
    let copilot = [("COPILOT_CLI", OsStr::new("1"))];
    w.fire(&w.copy, &copilot, &payload);
    assert_eq!(w.ran(), ["cursor-rule", "mine", "wrapper"]);
    // With hookx's Copilot user route, which Copilot runs beside the copy (its camelCase
    // payload, the same call): the route runs the Cursor rules, and the route inside the copy
    // stands aside for it. (The route also runs the wrapper's Gemini original, which the plan
    // names as run twice: "copilot also runs .claude/settings.json itself".)
    let bin = env!("CARGO_BIN_EXE_hookx");
    w.hookx(&[
        "install", "--host", "copilot", "--scope", "user", "--hookx", bin,
    ]);
    let route = w.user_route("copilot", ".copilot/hooks/hookx.json", "preToolUse");
    let camel = serde_json::json!({"sessionId": "s", "timestamp": 1796521845187u64,
        "cwd": w.project, "toolName": "bash",
        "toolArgs": {"command": "ls", "description": "d"}});
    w.fire(&route, &copilot, &camel);
    w.fire(&w.copy, &copilot, &payload);
    let ran = w.ran();
    let runs = |name: &str| ran.iter().filter(|r| *r == name).count();
    assert_eq!((runs("cursor-rule"), runs("mine")), (1, 1), "{ran:?}");
}

/// Attacks row 602: the [`WrapperCopy`] under Claude Code started with `--setting-sources
/// project,local` (2.1.332 then loads no `~/.claude/settings.json`: live, `live_claude::
/// a_wrapper_copy_claude_runs_without_its_user_settings`). Claude runs the copy, not hookx's
/// user route; the route inside the copy must run the Cursor rules. The agent's process is a
/// shell here started with the option, named by `CLAUDE_PID` as Claude names its own.
#[test]
fn a_wrapper_copy_claude_runs_without_its_user_scope_runs_the_routes_rules() {
    let w = WrapperCopy::new(Dialect::named("claude").unwrap());
    let route = w.user_route("claude", ".claude/settings.json", "PreToolUse");
    let payload = serde_json::json!({"session_id": "s", "transcript_path": "/t",
        "cwd": w.project, "hook_event_name": "PreToolUse", "permission_mode": "default",
        "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "c"});
    let claude = [("CLAUDE_PROJECT_DIR", w.project.as_os_str())];
    // `sh -c LINE sh OPTION…`: the shell's own command line carries the option.
    let as_claude = |line: &str, option: &str| {
        format!(
            "sh -c 'CLAUDE_PID=$$; export CLAUDE_PID; {}' sh {option}",
            line.replace('\'', "'\\''")
        )
    };
    w.fire(
        &as_claude(&w.copy, "--setting-sources project,local"),
        &claude,
        &payload,
    );
    assert_eq!(
        w.ran(),
        ["cursor-rule", "mine", "wrapper"],
        "user scope out"
    );
    for option in ["--setting-sources=user,project,local", ""] {
        w.fire(&as_claude(&route, option), &claude, &payload);
        w.fire(&as_claude(&w.copy, option), &claude, &payload);
        assert_eq!(w.ran(), ["cursor-rule", "mine", "wrapper"], "{option:?}");
    }
}

/// Attacks row 605: the [`WrapperCopy`] in `.codex/hooks.json` under Codex started with
/// `--profile work`, whose `$CODEX_HOME/work.config.toml` turns hookx's user route off
/// (`[hooks.state."KEY"] enabled = false`; Codex CLI 0.171.0 then does not run it, live:
/// `live_codex::a_wrapper_copy_beside_a_user_route_a_profile_turns_off`). The route inside the
/// copy must run the Cursor rules; without the option the user route runs them and the route
/// inside stands aside. The agent's process is a shell named `codex` started with the option.
#[test]
fn a_wrapper_copy_codex_runs_beside_a_user_route_its_profile_turns_off() {
    let w = WrapperCopy::new(Dialect::named("codex").unwrap());
    let route = w.user_route("codex", ".codex/hooks.json", "PreToolUse");
    let key = w.codex_user_route_key();
    common::write(
        &w.home,
        ".codex/work.config.toml",
        &format!("[hooks.state.{key:?}]\nenabled = false\n"),
    );
    let payload = codex_shell_payload(&w);
    w.fire(
        &w.as_codex(&w.copy, &["exec", "--profile", "work"]),
        &[],
        &payload,
    );
    assert_eq!(w.ran(), ["cursor-rule", "mine", "wrapper"], "the profile's");
    for options in [&["exec"][..], &["exec", "-p", "other"]] {
        w.fire(&w.as_codex(&route, options), &[], &payload);
        w.fire(&w.as_codex(&w.copy, options), &[], &payload);
        assert_eq!(w.ran(), ["cursor-rule", "mine", "wrapper"], "{options:?}");
    }
}

/// A Codex PreToolUse payload for one shell call in the [`WrapperCopy`]'s project.
fn codex_shell_payload(w: &WrapperCopy) -> serde_json::Value {
    serde_json::json!({"session_id": "s", "turn_id": "t", "cwd": w.project,
        "hook_event_name": "PreToolUse", "model": "m", "transcript_path": null,
        "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": "ls"},
        "tool_use_id": "c"})
}

/// Attacks row 740: row 605 through Codex's `-c` overrides: `codex exec -c
/// 'hooks.state={"KEY"={enabled=false}}'` (or `hooks={state=…}`), KEY the user route's review
/// key, and Codex CLI 0.171.0 does not run the route (live:
/// `live_codex::a_wrapper_copy_beside_a_user_route_an_override_turns_off`); `exec` read the
/// profile only, took the route for one that answers, and the Cursor rules ran nowhere. The
/// dotted form (`hooks.state."KEY".enabled=false`) Codex cuts at every `.` of the path: the
/// route runs, and the route inside the copy stands aside.
#[test]
fn a_wrapper_copy_codex_runs_beside_a_user_route_an_override_turns_off() {
    let w = WrapperCopy::new(Dialect::named("codex").unwrap());
    let route = w.user_route("codex", ".codex/hooks.json", "PreToolUse");
    let key = serde_json::json!(w.codex_user_route_key());
    let payload = codex_shell_payload(&w);
    for form in [
        format!("hooks.state={{{key}={{enabled=false}}}}"),
        format!("hooks={{state={{{key}={{enabled=false}}}}}}"),
    ] {
        w.fire(&w.as_codex(&w.copy, &["exec", "-c", &form]), &[], &payload);
        assert_eq!(w.ran(), ["cursor-rule", "mine", "wrapper"], "{form}");
    }
    let dotted = format!("hooks.state.{key}.enabled=false");
    for options in [&["exec"][..], &["exec", "-c", &dotted]] {
        w.fire(&w.as_codex(&route, options), &[], &payload);
        w.fire(&w.as_codex(&w.copy, options), &[], &payload);
        assert_eq!(w.ran(), ["cursor-rule", "mine", "wrapper"], "{options:?}");
    }
}

/// Attacks row 860: row 740's leftover. An override of the route's `enabled` above the `work`
/// profile that turns it off, or above another override: Codex CLI 0.171.0 decides by the
/// highest layer that sets it, the last `-c` first (live:
/// `live_codex::an_override_turns_on_again_what_a_profile_turns_off`), the user's own
/// `config.toml` last. hookx read any layer's `false` as off, and the user's `enabled = false`
/// as no review whatever the layers: where an override turned the route on again, the route
/// inside the copy ran the Cursor rules beside the user route (twice each).
#[test]
fn an_override_turning_a_route_on_again_above_a_profile_is_read_as_on() {
    let w = WrapperCopy::new(Dialect::named("codex").unwrap());
    let route = w.user_route("codex", ".codex/hooks.json", "PreToolUse");
    let key = serde_json::json!(w.codex_user_route_key());
    common::write(
        &w.home,
        ".codex/work.config.toml",
        &format!("[hooks.state.{key}]\nenabled = false\n"),
    );
    let payload = codex_shell_payload(&w);
    let set = |on: bool| format!("hooks.state={{{key}={{enabled={on}}}}}");
    let (on, off) = (set(true), set(false));
    let runs_route: [&[&str]; 2] = [
        &["exec", "--profile", "work", "-c", &on],
        &["exec", "-c", &off, "-c", &on],
    ];
    for options in runs_route {
        w.fire(&w.as_codex(&route, options), &[], &payload);
        w.fire(&w.as_codex(&w.copy, options), &[], &payload);
        assert_eq!(w.ran(), ["cursor-rule", "mine", "wrapper"], "{options:?}");
    }
    let skips_route: [&[&str]; 2] = [
        &["exec", "-c", &on, "-c", &off],
        &["exec", "--profile", "work", "-c", &on, "-c", &off],
    ];
    for options in skips_route {
        w.fire(&w.as_codex(&w.copy, options), &[], &payload);
        assert_eq!(w.ran(), ["cursor-rule", "mine", "wrapper"], "{options:?}");
    }
    // The user's own `enabled = false` in `config.toml` (Codex's `/hooks`), `-c …true` above
    // it: Codex runs the route; without the override, not.
    let config = w.home.join(".codex/config.toml");
    let before = std::fs::read_to_string(&config).unwrap();
    let header = format!("[hooks.state.{key}]\n");
    assert!(before.contains(&header), "{before}");
    let off_there = before.replacen(&header, &format!("{header}enabled = false\n"), 1);
    std::fs::write(&config, off_there).unwrap();
    let options: &[&str] = &["exec", "-c", &on];
    w.fire(&w.as_codex(&route, options), &[], &payload);
    w.fire(&w.as_codex(&w.copy, options), &[], &payload);
    assert_eq!(w.ran(), ["cursor-rule", "mine", "wrapper"], "{options:?}");
    w.fire(&w.as_codex(&w.copy, &["exec"]), &[], &payload);
    assert_eq!(
        w.ran(),
        ["cursor-rule", "mine", "wrapper"],
        "off in config.toml"
    );
}

/// Attacks row 640 (row 605 under Gemini): a Claude wrapper (`./hookx-route.sh`, running `hookx
/// run --host claude`) converted into `.gemini/settings.json` (`hookx exec --host gemini --as
/// claude`), the Cursor rules, hookx's Gemini user route, which the machine's system settings
/// turn off (`hooksConfig.disabled` naming it: Gemini CLI 0.61.0 joins every scope's list,
/// system settings and system defaults included, source `mergeSettings`; the file moved with
/// `$GEMINI_CLI_SYSTEM_SETTINGS_PATH`, as `live_gemini::system_settings_hooks_run` moves it).
/// Gemini then runs the copy and not the route; `exec` read only the project's and the user's
/// lists, took the route for one that answers and marked the event: the Cursor rules ran
/// nowhere. A list in a file someone other than root could have written is skipped by Gemini,
/// and by `exec`: Gemini runs the route, and the route inside the copy stands aside.
#[test]
fn a_wrapper_copy_gemini_runs_beside_a_user_route_its_system_settings_turn_off() {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let Some(base) = [target, Path::new("/run")]
        .into_iter()
        .find(|b| root_owned_path(b))
    else {
        eprintln!("skip: Gemini CLI reads system settings only on a path that only root can write");
        return;
    };
    let w = WrapperCopy::from_into(
        Dialect::named("claude").unwrap(),
        Dialect::named("gemini").unwrap(),
    );
    let route = w.user_route("gemini", ".gemini/settings.json", "BeforeTool");
    let user: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(w.home.join(".gemini/settings.json")).unwrap(),
    )
    .unwrap();
    // Gemini's label for a handler: its `name`, else its command.
    let handler = user["hooks"]["BeforeTool"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["hooks"].as_array().unwrap())
        .find(|h| {
            h["command"]
                .as_str()
                .is_some_and(|c| c.contains(route.as_str()))
        })
        .unwrap();
    let label = handler.get("name").unwrap_or(&handler["command"]).clone();
    let payload = serde_json::json!({"session_id": "s", "transcript_path": "/x",
        "cwd": w.project, "hook_event_name": "BeforeTool",
        "timestamp": "2026-12-01T14:57:40.307Z", "tool_name": "run_shell_command",
        "tool_input": {"command": "ls"}});
    let all = ["cursor-rule", "mine", "wrapper"];
    for (file, root_owns) in [
        ("settings.json", true),
        ("system-defaults.json", true),
        ("settings.json", false),
    ] {
        let managed = tempfile::tempdir_in(base).unwrap();
        let system = common::write(
            managed.path(),
            &format!("etc/gemini-cli/{file}"),
            &serde_json::json!({"hooksConfig": {"disabled": [label]}}).to_string(),
        );
        if !root_owns {
            std::os::unix::fs::chown(&system, Some(1000), Some(1000)).unwrap();
        }
        let var = managed.path().join("etc/gemini-cli/settings.json");
        let env = [("GEMINI_CLI_SYSTEM_SETTINGS_PATH", var.as_os_str())];
        if root_owns {
            w.fire(&w.copy, &env, &payload);
        } else {
            w.fire(&route, &env, &payload);
            w.fire(&w.copy, &env, &payload);
        }
        assert_eq!(w.ran(), all, "{file}, root's: {root_owns}");
    }
    // No system list: Gemini runs the route, and the route inside the copy stands aside.
    w.fire(&route, &[], &payload);
    w.fire(&w.copy, &[], &payload);
    assert_eq!(w.ran(), all, "no system list");
}

/// Attacks row 642 (row 605's leftover): a Claude guard converted into `.codex/hooks.json`,
/// the copy reviewed in Codex and the project trusted there, hookx's Codex user route; Codex
/// started with `--profile work`, whose `$CODEX_HOME/work.config.toml` turns the copy off
/// (`[hooks.state."KEY"] enabled = false`: Codex 0.171.0 then runs no handler so turned off,
/// live row 605 for a route). The plan's review of copies read no profile: it took the copy for
/// one Codex runs, and the route left the guard to it; the guard ran nowhere. As for a copy
/// Gemini's own list turns off, a copy turned off stands in for nothing: the route runs the
/// guard. Without the profile the copy runs it and the route does not. Row 740: `-c
/// 'hooks.state={"KEY"={enabled=false}}'` turns it off the same way.
#[test]
fn a_copy_a_codex_profile_turns_off_does_not_take_the_guards_run() {
    let w = GuardAndMine::new(true);
    let (project, home, log) = (&w.project, &w.home, &w.log);
    let bin = env!("CARGO_BIN_EXE_hookx");
    w.hookx(&[
        "convert",
        ".claude/settings.json",
        "--to",
        "codex",
        "--write",
        "--hookx",
        bin,
    ]);
    w.hookx(&[
        "install", "--host", "codex", "--scope", "user", "--hookx", bin,
    ]);
    let codex = Dialect::named("codex").unwrap();
    let review = codex.def().route_trust.as_ref().unwrap();
    let file = project.join(".codex/hooks.json");
    let copies: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let [(key, hash)] = &(review.records)(&file, &copies, &|_| true)[..] else {
        panic!("one copy: {copies}");
    };
    common::write(
        home,
        ".codex/config.toml",
        &format!(
            "[projects.{:?}]\ntrust_level = \"trusted\"\n\n[hooks.state.{key:?}]\ntrusted_hash = {hash:?}\n",
            project.display().to_string()
        ),
    );
    common::write(
        home,
        ".codex/work.config.toml",
        &format!("[hooks.state.{key:?}]\nenabled = false\n"),
    );
    let found = routes(&home.join(".codex/hooks.json"), bin, "codex", "PreToolUse");
    let [route] = &found[..] else {
        panic!("one user route: {found:?}");
    };
    let payload = serde_json::json!({"session_id": "s", "turn_id": "t", "cwd": project,
        "hook_event_name": "PreToolUse", "model": "m", "transcript_path": null,
        "permission_mode": "default", "tool_name": "Bash", "tool_input": {"command": "ls"},
        "tool_use_id": "c"});
    // A shell whose own command line is `codex … OPTIONS`, as Codex's process is.
    let shell = home.join("bin/codex");
    std::fs::create_dir_all(shell.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("/bin/sh", &shell).unwrap();
    // Row 740: the same through `-c` (an inline table: Codex cuts a dotted key at every `.`).
    let inline = format!(
        "exec -c 'hooks.state={{{}={{enabled=false}}}}'",
        serde_json::json!(key)
    );
    for (options, ran) in [
        ("exec --profile work", &["guard", "mine"][..]),
        ("exec", &["mine"]),
        ("exec -p other", &["mine"]),
        (&inline, &["guard", "mine"]),
    ] {
        let line = format!(
            "{} -c '{}; true' codex {options}",
            shell.display(),
            route.replace('\'', "'\\''")
        );
        sh_with_stdin(
            &line,
            project,
            home,
            &[("PATH", OsStr::new("/usr/bin:/bin"))],
            &payload.to_string(),
        );
        assert_eq!(ran_sorted(log), ran, "{options}");
        let _ = std::fs::remove_file(log);
    }
}

/// Attacks row 643 (row 640 on the run path): a guard converted into Gemini's project file,
/// the copy named in the `hooksConfig.disabled` of system settings (or the defaults beside
/// them) that `$GEMINI_CLI_SYSTEM_SETTINGS_PATH` moves out of `/etc/gemini-cli` (Gemini
/// CLI 0.61.0 joins that list: `live_gemini::a_wrapper_copy_beside_a_user_route_the_system_settings_turn_off`
/// for a route). The plan read the policy folder's list only: it took the copy for one Gemini
/// runs, and the route left the guard to it; the guard ran nowhere. A file someone other than
/// root could have written counts for nothing, as for Gemini.
#[test]
fn a_copy_the_moved_system_list_turns_off_does_not_take_the_guards_run() {
    a_copy_in_a_system_list(|w, dir| {
        let settings = dir.join("etc/gemini-cli/settings.json");
        w.gemini_route_ran(
            &[],
            &[("GEMINI_CLI_SYSTEM_SETTINGS_PATH", settings.as_os_str())],
        )
    });
}

/// Attacks row 880: a Copilot guard in `.github/hooks/hooks.json` converted into Claude's file
/// (which Claude needs), fired as Copilot CLI 1.0.102 fires the Claude file's entries (its
/// PascalCase payload, `COPILOT_CLI`): Copilot runs the guard from its own file on that call,
/// so the copy stands aside. Where Copilot's own entry does not fire for the call (its matcher
/// another tool) or is gone, the copy runs: a stand-aside never leaves the rule to nobody.
#[test]
fn a_copilot_rules_copy_in_the_claude_file_stands_aside_where_copilot_runs_the_rule_itself() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let log = project.join("ran.log");
    let guard = |matcher: &str| {
        let line = format!("echo pguard >> {}", log.display());
        serde_json::json!({"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": line, "matcher": matcher}]}})
        .to_string()
    };
    common::write(&project, ".github/hooks/hooks.json", &guard("bash"));
    let bin = env!("CARGO_BIN_EXE_hookx");
    common::hookx_clean(&project)
        .env("HOME", &home)
        .args(["convert", ".github/hooks/hooks.json", "--to", "claude"])
        .args(["--write", "--hookx", bin])
        .assert()
        .success();
    let claude = std::fs::read_to_string(project.join(".claude/settings.json")).unwrap();
    let claude: serde_json::Value = serde_json::from_str(&claude).unwrap();
    let copy = claude["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .to_string();
    let payload = serde_json::json!({"hook_event_name": "PreToolUse", "session_id": "s",
        "timestamp": "2026-12-06T01:50:45.187Z", "cwd": project, "tool_name": "Bash",
        "tool_input": {"command": "ls", "description": "d"}})
    .to_string();
    let copilot = [
        ("COPILOT_CLI", OsStr::new("1")),
        ("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", OsStr::new("true")),
    ];
    let fired = |what: &str| {
        sh_with_stdin(&copy, &project, &home, &copilot, &payload);
        let ran = std::fs::read_to_string(&log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        format!("{what}: {}", ran.lines().count())
    };
    let mut seen = vec![fired("Copilot runs its own guard")];
    // Its own guard changed since the copy was made (row 1100), its line still holding the
    // copy's: the copy runs another command, and runs, as `hookx list` says ("copilot also
    // runs .claude/settings.json itself").
    let changed = guard("bash").replace("ran.log", "ran.log; true");
    common::write(&project, ".github/hooks/hooks.json", &changed);
    seen.push(fired("its own guard changed"));
    common::write(&project, ".github/hooks/hooks.json", &guard("view"));
    seen.push(fired("its own guard on another tool"));
    std::fs::remove_file(project.join(".github/hooks/hooks.json")).unwrap();
    seen.push(fired("its own guard gone"));
    assert_eq!(
        seen,
        [
            "Copilot runs its own guard: 0",
            "its own guard changed: 1",
            "its own guard on another tool: 1",
            "its own guard gone: 1"
        ]
    );
}
