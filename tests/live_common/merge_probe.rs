//! The merge probe (attacks rows 1900-1919): two hooks on one tool call, each answering its
//! own way (a deny beside an allow, in either order; two denies; two rewrites; a rewrite of
//! one argument beside another's; an exit code beside JSON), run by the real client, against
//! what `hookx simulate --host CLIENT` predicts of the same two answers: whether the call ran,
//! and as whose rewrite, and which hook's texts reached the model in the call's result. The
//! client's outcomes are kept as `tests/fixtures/merged/CLIENT-VERSION.json` (written under
//! `HOOKX_RECORD_MERGED=1`, else a live run is checked against it), which
//! `tests/merged_recorded.rs` checks simulate against without the client. Included with
//! `#[path]`.

#![allow(dead_code)]

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// One hook's answer.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Answer {
    pub stdout: String,
    pub stderr: String,
    pub exit: i32,
    /// Seconds the hook sleeps before it answers (Claude runs its hooks side by side: the
    /// probe of attacks row 2052 orders their ends so). `simulate` reads no time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleep: Option<u32>,
}

/// Two hooks' answers on the call `printf x > o-NAME.txt`, in the order the file lists them;
/// a rewrite of hook `a` writes `r-NAME-a.txt`, of `b` `r-NAME-b.txt`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Case {
    pub name: String,
    pub a: Answer,
    pub b: Answer,
}

/// What became of a case's call, and which of its marker texts (`R-`, `E-`, `S-`, `C-`) were
/// in the result the model got for it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Became {
    /// `original`, `a`, `b` (whose rewrite ran) or `not_run`.
    pub ran: String,
    pub seen: Vec<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Recorded {
    #[serde(flatten)]
    pub case: Case,
    pub became: Became,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Recording {
    pub client: String,
    pub version: String,
    /// hookx's name for the client (`simulate --host`).
    pub host: String,
    pub event: String,
    /// The shell tool and the call's input besides `command`.
    pub tool: String,
    pub input: Value,
    /// Where the two hooks sit, `a`'s scope then `b`'s (`user`, `project`), when not both in
    /// the user's file: the scope probe of attacks row 2051.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes: Option<[String; 2]>,
    pub cases: Vec<Recorded>,
}

fn answer(stdout: Value, stderr: &str, exit: i32) -> Answer {
    Answer {
        stdout: match stdout {
            Value::Null => String::new(),
            v => v.to_string(),
        },
        stderr: stderr.into(),
        exit,
        sleep: None,
    }
}

/// The cases in Gemini CLI's own answer forms (BeforeTool). `input` is the call's other
/// arguments, which a rewrite keeps.
pub fn gemini_cases() -> Vec<Case> {
    let allow = || answer(json!({"decision": "allow"}), "", 0);
    let deny = |t: &str| answer(json!({"decision": "deny", "reason": t}), "", 0);
    let rw = |name: &str, who: &str| json!({"hookSpecificOutput": {"tool_input": {"command": format!("printf x > r-{name}-{who}.txt")}}});
    let case = |name: &str, a: Answer, b: Answer| Case {
        name: name.into(),
        a,
        b,
    };
    vec![
        case("m1", allow(), deny("R-M1B")),
        case("m2", deny("R-M2A"), allow()),
        case("m3", deny("R-M3A"), deny("R-M3B")),
        case("m4", answer(Value::Null, "E-M4A", 2), allow()),
        case(
            "m5",
            answer(rw("m5", "a"), "", 0),
            answer(rw("m5", "b"), "", 0),
        ),
        case("m6", answer(rw("m6", "a"), "", 0), deny("R-M6B")),
        case(
            "m7",
            answer(Value::Null, "E-M7A", 1),
            answer(rw("m7", "b"), "", 0),
        ),
        case(
            "m8",
            answer(json!({"systemMessage": "S-M8A"}), "", 0),
            deny("R-M8B"),
        ),
        case(
            "m9",
            answer(json!({"decision": "block", "reason": "R-M9A"}), "", 0),
            answer(json!({"decision": "allow", "reason": "R-M9B"}), "", 0),
        ),
        // One hook rewrites the command, the other another argument: Gemini merges each
        // hook's `tool_input` into the call's.
        case(
            "m10",
            answer(rw("m10", "a"), "", 0),
            answer(
                json!({"hookSpecificOutput": {"tool_input": {"description": "D-M10B"}}}),
                "",
                0,
            ),
        ),
        case(
            "m11",
            answer(
                json!({"decision": "allow", "hookSpecificOutput": {"tool_input": {"command": "printf x > r-m11-a.txt"}}}),
                "",
                0,
            ),
            answer(json!({"decision": "deny", "reason": "R-M11B"}), "E-M11B", 2),
        ),
        case(
            "m12",
            answer(json!({"reason": "R-M12A"}), "", 0),
            answer(json!({"decision": "deny"}), "", 0),
        ),
    ]
}

/// The cases in Claude's answer forms (PreToolUse), as Codex CLI reads them too.
pub fn claude_cases(prefix: &str) -> Vec<Case> {
    let hso = |inner: Value| {
        let mut o = json!({"hookEventName": "PreToolUse"});
        o.as_object_mut()
            .unwrap()
            .extend(inner.as_object().unwrap().clone());
        json!({"hookSpecificOutput": o})
    };
    let decide = |d: &str, t: Option<&str>| {
        let mut o = json!({"permissionDecision": d});
        if let Some(t) = t {
            o["permissionDecisionReason"] = json!(t);
        }
        answer(hso(o), "", 0)
    };
    let rw = |name: &str, who: &str| {
        answer(
            hso(json!({"permissionDecision": "allow",
                "updatedInput": {"command": format!("printf x > r-{name}-{who}.txt")}})),
            "",
            0,
        )
    };
    let n = |i: u32| format!("{prefix}{i}");
    let up = |i: u32, who: &str| format!("{}{i}{who}", prefix.to_uppercase());
    let case = |i: u32, a: Answer, b: Answer| Case { name: n(i), a, b };
    vec![
        case(
            1,
            decide("allow", None),
            decide("deny", Some(&format!("R-{}", up(1, "B")))),
        ),
        case(
            2,
            decide("deny", Some(&format!("R-{}", up(2, "A")))),
            decide("allow", None),
        ),
        case(
            3,
            decide("deny", Some(&format!("R-{}", up(3, "A")))),
            decide("deny", Some(&format!("R-{}", up(3, "B")))),
        ),
        case(
            4,
            answer(Value::Null, &format!("E-{}", up(4, "A")), 2),
            decide("allow", None),
        ),
        case(5, rw(&n(5), "a"), rw(&n(5), "b")),
        case(
            6,
            rw(&n(6), "a"),
            decide("deny", Some(&format!("R-{}", up(6, "B")))),
        ),
        case(
            7,
            answer(Value::Null, &format!("E-{}", up(7, "A")), 1),
            rw(&n(7), "b"),
        ),
        case(
            8,
            answer(json!({"systemMessage": format!("S-{}", up(8, "A"))}), "", 0),
            decide("deny", Some(&format!("R-{}", up(8, "B")))),
        ),
        case(
            9,
            answer(
                json!({"decision": "block", "reason": format!("R-{}", up(9, "A"))}),
                "",
                0,
            ),
            decide("allow", None),
        ),
        case(
            10,
            decide("ask", Some(&format!("R-{}", up(10, "A")))),
            decide("allow", None),
        ),
        case(
            11,
            answer(
                json!({"continue": true, "systemMessage": format!("S-{}", up(11, "A"))}),
                "",
                0,
            ),
            rw(&n(11), "b"),
        ),
    ]
}

/// The scope probe's cases (attacks row 2051), in Claude's answer forms: hook `a` in the
/// user's file, `b` in the project's. An allow beside a deny, each way round: a client that
/// folds by one hook's permission field (the first's, Droid; the last's, Qwen) tells by them
/// which file's hooks it runs first.
pub fn scope_cases(prefix: &str) -> Vec<Case> {
    let decide = |d: &str, t: Option<String>| {
        let mut o = json!({"hookEventName": "PreToolUse", "permissionDecision": d});
        if let Some(t) = t {
            o["permissionDecisionReason"] = json!(t);
        }
        answer(json!({"hookSpecificOutput": o}), "", 0)
    };
    let up = prefix.to_uppercase();
    vec![
        Case {
            name: format!("{prefix}1"),
            a: decide("allow", None),
            b: decide("deny", Some(format!("R-{up}1B"))),
        },
        Case {
            name: format!("{prefix}2"),
            a: decide("deny", Some(format!("R-{up}2A"))),
            b: decide("allow", None),
        },
    ]
}

/// The call of the approver probe (attacks rows 2046, 2047), the file it makes, and the
/// guard's reason for denying it.
pub const APPROVED_CALL: &str = "printf x > o-approver.txt";
pub const APPROVED_FILE: &str = "o-approver.txt";
pub const GUARD_REASON: &str = "R-APPROVER-GUARD";

/// Asserts the approver probe's call did not run in `project` and its `result` is the guard's
/// deny; `lost` says what a failure means.
pub fn assert_denied(project: &Path, result: &str, lost: &str) {
    let ran = project.join(APPROVED_FILE).exists();
    assert!(
        !ran && result.contains(GUARD_REASON),
        "{lost}: the call ran {ran}, its result {result:?}"
    );
}

/// Writes the project's `.claude/settings.json`: a guard that denies every shell call by its
/// permission field and an approver that allows every call, the guard first when
/// `guard_first`. Claude Code folds them to the deny in either order. Its path, for `convert`.
pub fn guard_and_approver(project: &Path, guard_first: bool) -> String {
    let rule = |decision: &str, reason: Option<&str>| {
        let mut o = json!({"hookEventName": "PreToolUse", "permissionDecision": decision});
        if let Some(r) = reason {
            o["permissionDecisionReason"] = json!(r);
        }
        let text = json!({"hookSpecificOutput": o}).to_string();
        json!({"matcher": "Bash",
            "hooks": [{"type": "command", "command": format!("echo '{text}'")}]})
    };
    let (guard, approver) = (rule("deny", Some(GUARD_REASON)), rule("allow", None));
    let groups = match guard_first {
        true => vec![guard, approver],
        false => vec![approver, guard],
    };
    let path = project.join(".claude/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let body = json!({"hooks": {"PreToolUse": groups}}).to_string();
    std::fs::write(&path, body).unwrap();
    path.display().to_string()
}

/// The marker texts of a case's answers.
pub fn markers(case: &Case) -> Vec<String> {
    let mut out = Vec::new();
    for a in [&case.a, &case.b] {
        for text in [&a.stdout, &a.stderr] {
            for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
                let marked = ["R-", "E-", "S-", "C-", "D-"]
                    .iter()
                    .any(|p| word.starts_with(p) && word.len() > 2);
                if marked && !out.contains(&word.to_string()) {
                    out.push(word.to_string());
                }
            }
        }
    }
    out
}

/// What became of `case`'s call in `project`, with the model's result for it.
pub fn became(case: &Case, project: &Path, result: &str) -> Became {
    let n = &case.name;
    let exists = |f: String| project.join(f).exists();
    let ran: Vec<&str> = [
        (format!("o-{n}.txt"), "original"),
        (format!("r-{n}-a.txt"), "a"),
        (format!("r-{n}-b.txt"), "b"),
    ]
    .into_iter()
    .filter(|(f, _)| exists(f.clone()))
    .map(|(_, w)| w)
    .collect();
    assert!(ran.len() <= 1, "{n}: ran {ran:?}");
    Became {
        ran: ran.first().copied().unwrap_or("not_run").into(),
        seen: markers(case)
            .into_iter()
            .filter(|m| result.contains(m.as_str()))
            .collect(),
    }
}

/// What each of the two hooks answers on each case's call, in order: `(label, case, when,
/// answer)`, hook `ma` answering `a` and `mb` `b` where the call's command holds `when`
/// (`o-NAME.txt`).
pub fn answers(cases: &[Case]) -> Vec<(&'static str, &str, String, &Answer)> {
    cases
        .iter()
        .flat_map(|c| {
            let when = format!("o-{}.txt", c.name);
            [("ma", &c.a), ("mb", &c.b)].map(|(label, a)| (label, c.name.as_str(), when.clone(), a))
        })
        .collect()
}

/// Each case as it became in `project`, `result_of` the model's result for the call whose
/// arguments hold `o-NAME.txt` (printed, case by case).
pub fn recorded(
    cases: &[Case],
    project: &Path,
    result_of: impl Fn(&str) -> String,
) -> Vec<Recorded> {
    cases
        .iter()
        .map(|c| {
            let result = result_of(&format!("o-{}.txt", c.name));
            eprintln!("{}: {result}", c.name);
            Recorded {
                case: c.clone(),
                became: became(c, project, &result),
            }
        })
        .collect()
}

/// A live recording's differences: from its fixture ([`settle`]), then from what this build's
/// simulate predicts ([`against_hookx`]).
pub fn differences(tag: &str, rec: &Recording) -> Vec<String> {
    let mut differ = settle(tag, rec);
    differ.extend(against_hookx(Path::new(env!("CARGO_BIN_EXE_hookx")), rec));
    differ
}

pub fn fixture(tag: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/merged")
        .join(format!("{tag}.json"))
}

/// Records `now` under `HOOKX_RECORD_MERGED=1`; else the cases where `now` differs from the
/// recording.
pub fn settle(tag: &str, now: &Recording) -> Vec<String> {
    let path = fixture(tag);
    if std::env::var_os("HOOKX_RECORD_MERGED").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let text = serde_json::to_string_pretty(now).unwrap() + "\n";
        std::fs::write(&path, text).unwrap();
        return Vec::new();
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (record with HOOKX_RECORD_MERGED=1)",
            path.display()
        )
    });
    let then: Recording = serde_json::from_str(&text).unwrap();
    let mut differ = Vec::new();
    if then.cases.len() != now.cases.len() {
        differ.push(format!(
            "{} cases recorded, {} now",
            then.cases.len(),
            now.cases.len()
        ));
    }
    for (a, b) in then.cases.iter().zip(&now.cases) {
        if a != b && !(a.case == b.case && raced(&now.client, &a.case.name, &a.became, &b.became)) {
            differ.push(format!(
                "{}: recorded {:?}, now {:?}",
                a.case.name, a.became, b.became
            ));
        }
    }
    differ
}

/// What simulate predicts of `case`: the client's own file (Gemini's user settings) holding the
/// two hooks, each printing its answer.
pub fn predict(hookx: &Path, rec: &Recording, case: &Case) -> (Became, Value) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = dir.path().join("project");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let scopes = rec
        .scopes
        .clone()
        .unwrap_or_else(|| ["user".into(), "user".into()]);
    // Each scope's file and its hooks, in the order the probe wrote them.
    let mut files: Vec<(PathBuf, Vec<Value>)> = Vec::new();
    for ((who, a), scope) in [("a", &case.a), ("b", &case.b)].into_iter().zip(&scopes) {
        std::fs::write(dir.path().join(format!("{who}.out")), &a.stdout).unwrap();
        std::fs::write(dir.path().join(format!("{who}.err")), &a.stderr).unwrap();
        // As the live probe's recorder answers: only to a payload holding the model's call
        // (a host that hands a later hook the call an earlier one rewrote gets nothing from it).
        let command = format!(
            "case \"$(cat)\" in *'o-{2}.txt'*) cat '{0}/{who}.out'; cat '{0}/{who}.err' >&2; exit {1};; esac",
            dir.path().display(),
            a.exit,
            case.name
        );
        let group = json!({"hooks": [{"type": "command", "command": command}]});
        let root = match scope.as_str() {
            "user" => &home,
            "project" => &project,
            other => panic!("no scope {other}"),
        };
        match files.iter_mut().find(|(r, _)| r == root) {
            Some((_, groups)) => groups.push(group),
            None => files.push((root.clone(), vec![group])),
        }
    }
    let file = match rec.host.as_str() {
        "gemini" => ".gemini/settings.json",
        "claude" => ".claude/settings.json",
        "codex" => ".codex/hooks.json",
        "qwen" => ".qwen/settings.json",
        "droid" => ".factory/settings.json",
        "copilot" => ".copilot/hooks/merge.json",
        other => panic!("no layout for {other}"),
    };
    let (mut at, mut body) = (home.join(file), Value::Null);
    for (root, groups) in files {
        body = json!({"hooks": {&rec.event: groups}});
        if rec.host == "copilot" {
            body["version"] = json!(1);
        }
        at = root.join(file);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(&at, body.to_string()).unwrap();
    }
    if rec.host == "codex" {
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
    let mut input = rec.input.clone();
    input["command"] = json!(format!("printf x > o-{}.txt", case.name));
    let out = std::process::Command::new(hookx)
        .args(["simulate", "--host", &rec.host, "--event", &rec.event])
        .args(["--tool", &rec.tool, "--input"])
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
    let taken = &report["taken"];
    let command = taken["updated_input"]["command"]
        .as_str()
        .unwrap_or_default();
    let ran = match report["decision"].as_str() {
        Some("allow") if command.ends_with("-a.txt") => "a",
        Some("allow") if command.ends_with("-b.txt") => "b",
        Some("allow") => "original",
        _ => "not_run",
    };
    // The texts simulate's merged answer carries to the model: a deny's reasons, context.
    let carried = [&taken["reasons"], &taken["additional_context"]]
        .iter()
        .flat_map(|v| v.as_array().cloned().unwrap_or_default())
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect::<Vec<_>>()
        .join("\n");
    let seen = markers(case)
        .into_iter()
        .filter(|m| carried.contains(m.as_str()))
        .collect();
    (
        Became {
            ran: ran.into(),
            seen,
        },
        report,
    )
}

/// Differences that stay, with their rows: (client, case).
pub const KNOWN: &[(&str, &str, &str)] = &[
    // Claude Code 2.1.332 runs its hooks side by side: of two denies the model reads the
    // reason of the one that ends last, of two rewrites the one that ends last runs (both
    // seen with each hook ending last); simulate names both reasons and runs the later
    // hook's rewrite (row 2052).
    ("claude-code", "k3", "2052"),
    ("claude-code", "k5", "2052"),
    // Codex gives the model the first deny's reason only; simulate names both (row 1907).
    ("codex-cli", "c3", "1907"),
    // A command rewrite, then another hook's rewrite of the description alone: Gemini's
    // aggregate keeps the last `tool_input` whole, and its 0.61.0 scheduler rebuilds the call
    // from it alone (not merged, as its reference says), which failed "params must have
    // required property 'command'" (row 1908): Gemini's bug; simulate reads it as documented.
    ("gemini-cli", "m10", "1908"),
    // Copilot runs its preToolUse hooks one after another: a deny ends the chain (the model
    // reads the first deny's reason only, and an exit 1's "hook errored" without its text;
    // row 2044). A later hook is given the call as an earlier one rewrote it, as simulate
    // gives it now (rows 2043, 2200: `p5`, `p6` predicted).
    ("copilot-cli", "p3", "2044"),
    ("copilot-cli", "p7", "2044"),
    // A PreToolUse `decision: block` neither Copilot nor Droid reads, which hookx reads as a
    // deny (row 1903).
    ("copilot-cli", "p9", "1903"),
    ("factory-droid", "d9", "1903"),
];

/// Cases whose two hooks both rewrite the call under a client that runs the rewrite of the
/// hook that ends last (`rewrite_race` in its tables): either hook's may run, and a run differs
/// from its recording only if something else changed.
pub const RACES: &[(&str, &str, &str)] = &[
    // codex-rs `latest_updated_input`: "resolves competing rewrites by completion order";
    // Codex CLI 0.171.0 ran the first hook's in 2 of 6 runs (row 2220).
    ("codex-cli", "c5", "2220"),
];

/// Whether `one` and `other`, what became of case `name`, differ only by which hook's rewrite
/// won a [`RACES`] race.
fn raced(client: &str, name: &str, one: &Became, other: &Became) -> bool {
    let either = |b: &Became| b.ran == "a" || b.ran == "b";
    RACES.iter().any(|(c, n, _)| *c == client && *n == name)
        && one.seen == other.seen
        && either(one)
        && either(other)
}

/// Each case where simulate's prediction differs from what the client did, but [`KNOWN`]'s.
pub fn against_hookx(hookx: &Path, rec: &Recording) -> Vec<String> {
    let mut differ = Vec::new();
    for r in &rec.cases {
        if KNOWN
            .iter()
            .any(|(c, n, _)| *c == rec.client && *n == r.case.name)
        {
            continue;
        }
        let (predicted, report) = predict(hookx, rec, &r.case);
        // Texts are compared where the call did not run: a deny's reasons go to the model.
        let texts = r.became.ran != "not_run" || predicted.seen == r.became.seen;
        let ran = predicted.ran == r.became.ran
            || raced(&rec.client, &r.case.name, &predicted, &r.became);
        if !ran || !texts {
            differ.push(format!(
                "{} {}: {} did {:?}, simulate says {:?} (taken {})",
                rec.client, r.case.name, rec.client, r.became, predicted, report["taken"]
            ));
        }
    }
    differ
}

/// Attacks rows 2048 and 2049: the user's `~/.claude/settings.json` with one rule answering
/// every shell call `routed` (`allow`, or `deny` with [`GUARD_REASON`]), trusted; hookx's user
/// route for `host` installed in `HOME/file`; then a hook of the host's own answering every
/// call `own` (the same way, by the permission field both Qwen and Droid read) put after the
/// route by the user, and `install` run again, as the user does when their rules change.
pub fn routed_rule_then_own_hook(
    project: &Path,
    home: &Path,
    host: &str,
    file: &str,
    routed: &str,
    own: &str,
) {
    let answer = |decision: &str| {
        let mut o = json!({"hookEventName": "PreToolUse", "permissionDecision": decision});
        if decision == "deny" {
            o["permissionDecisionReason"] = json!(GUARD_REASON);
        }
        format!("echo '{}'", json!({"hookSpecificOutput": o}))
    };
    let claude = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": answer(routed)}]}]}});
    let rules = home.join(".claude/settings.json");
    std::fs::create_dir_all(rules.parent().unwrap()).unwrap();
    std::fs::write(&rules, claude.to_string()).unwrap();
    let hookx = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_hookx"))
            .args(args)
            .current_dir(project)
            .env("HOME", home)
            .env_remove("HOOKX_HOME")
            .output()
            .unwrap();
        assert!(out.status.success(), "hookx {args:?}: {out:?}");
        eprintln!("hookx {args:?}: {}", String::from_utf8_lossy(&out.stdout));
    };
    let bin = env!("CARGO_BIN_EXE_hookx");
    let install = ["install", "--host", host, "--scope", "user", "--hookx", bin];
    hookx(&["trust", "--yes", &rules.to_string_lossy()]);
    hookx(&install);
    let at = home.join(file);
    let mut settings: Value = serde_json::from_str(&std::fs::read_to_string(&at).unwrap()).unwrap();
    let own = json!({"hooks": [{"type": "command", "command": answer(own)}]});
    settings["hooks"]["PreToolUse"]
        .as_array_mut()
        .expect("the route's PreToolUse list")
        .push(own);
    std::fs::write(&at, serde_json::to_string_pretty(&settings).unwrap()).unwrap();
    hookx(&install);
}
