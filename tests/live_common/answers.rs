//! The answer book of a client: every answer form a live probe tried, with what the real client
//! did with it (`tests/fixtures/recorded/<client>-<version>/answers.json`). The probes try
//! hand-written forms and the forms hookx itself writes for each decision (computed here, by
//! hookx's encoder); `tests/replay.rs` then requires every answer hookx writes to be a form some
//! client run recorded with the effect hookx intends. A live run records the book under
//! `HOOKX_RECORD_ANSWERS=1`, else it fails on any effect that differs from the book.
//! Shared by the live suites and the replay test, which include it with `#[path]`.

#![allow(dead_code)]

use hookx::model::event::Event;
use hookx::model::{Decision, EventKind, Outcome};
use hookx::tables::Flavor;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;

/// What became of the probed tool call (`NotRun` where the event has none).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ran {
    /// The model's call ran as it was.
    Original,
    /// The answer's rewrite ran instead.
    Rewritten,
    /// Neither ran.
    NotRun,
}

impl Ran {
    /// As a suite's facts table of hand-written forms writes it: `f`, `rw`, or empty.
    pub fn short(self) -> &'static str {
        match self {
            Ran::Original => "f",
            Ran::Rewritten => "rw",
            Ran::NotRun => "",
        }
    }
}

/// What the client did with one answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Effect {
    pub tool: Ran,
    /// The answer's marker texts (`R-NAME`, `C-NAME`, …) that reached the model, and those that
    /// did not.
    pub seen: Vec<String>,
    pub unseen: Vec<String>,
    /// Whether the agent stopped after it (no further call of the run happened); only where the
    /// probe gave the run a call after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub halted: Option<bool>,
}

/// One answer as a handler printed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Form {
    /// Unique in its book; every marker text of the answer is derived from it.
    pub name: String,
    /// The event as the client's config names it.
    pub event: String,
    pub stdout: String,
    pub stderr: String,
    pub exit: i32,
    /// Where hookx wrote this form: the decision it means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intent: Option<Intent>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    #[serde(flatten)]
    pub form: Form,
    pub effect: Effect,
}

/// The events a book's probe drives hookx's forms on: (flavour, event name, name prefix).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probed {
    pub flavor: String,
    pub event: String,
    pub prefix: String,
}

/// The events of `flavor` a probe drives hookx's forms on: (event name, name prefix).
pub fn probed(flavor: &str, events: &[(&str, &str)]) -> Vec<Probed> {
    events
        .iter()
        .map(|(event, prefix)| Probed {
            flavor: flavor.into(),
            event: (*event).into(),
            prefix: (*prefix).into(),
        })
        .collect()
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Book {
    pub client: String,
    pub version: String,
    pub host: String,
    /// The canonical (Claude) tool input of hookx's rewrites, `<name>` standing for the form's
    /// name.
    pub rewrite: Value,
    pub probed: Vec<Probed>,
    pub forms: Vec<Entry>,
}

/// A decision hookx can write on a tool event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    Deny,
    Ask,
    Allow,
    /// An updated input, no decision.
    Rewrite,
    AllowRewrite,
    Context,
    Block,
    /// `continue: false`.
    Stop,
}

impl Intent {
    /// The name of the form hookx writes for this decision on the event probed as `prefix`.
    pub fn form_name(self, prefix: &str) -> String {
        format!("{prefix}{}", self.word())
    }

    fn word(self) -> &'static str {
        match self {
            Intent::Deny => "deny",
            Intent::Ask => "ask",
            Intent::Allow => "allow",
            Intent::Rewrite => "rw",
            Intent::AllowRewrite => "allowrw",
            Intent::Context => "ctx",
            Intent::Block => "block",
            Intent::Stop => "stop",
        }
    }

    /// The decisions hookx can write on a tool event of `kind`.
    pub fn on(kind: &EventKind) -> &'static [Intent] {
        use Intent::*;
        match kind {
            EventKind::PreToolUse => &[Deny, Ask, Allow, Rewrite, AllowRewrite, Context, Stop],
            EventKind::PermissionRequest => &[Deny, Allow, AllowRewrite],
            EventKind::PostToolUse => &[Block, Context, Stop],
            // The agent goes on with the reason.
            EventKind::Stop => &[Block],
            _ => &[],
        }
    }

    /// The merged outcome that means this decision, its texts derived from `name`.
    fn outcome(self, name: &str, rewrite: &Value) -> Outcome {
        let n = name.to_uppercase();
        let mut o = Outcome::default();
        match self {
            Intent::Deny => {
                o.decision = Some(Decision::Deny);
                o.reasons.push(format!("R-{n}"));
            }
            Intent::Ask => {
                o.decision = Some(Decision::Ask);
                o.reasons.push(format!("R-{n}"));
            }
            Intent::Allow => o.decision = Some(Decision::Allow),
            Intent::Rewrite => o.updated_input = Some(named(rewrite, name)),
            Intent::AllowRewrite => {
                o.decision = Some(Decision::Allow);
                o.updated_input = Some(named(rewrite, name));
            }
            Intent::Context => o.additional_context.push(format!("C-{n}")),
            Intent::Block => {
                o.block = true;
                o.reasons.push(format!("R-{n}"));
            }
            Intent::Stop => {
                o.stop = true;
                o.stop_reason = Some(format!("R-{n}"));
            }
        }
        o
    }

    /// Whether `effect` is what this decision, as `form` carries it, means to do; else what it
    /// lacks. A reason or context in the answer is meant for the model; an `ask`, where nobody
    /// can answer it, must keep the call from running. Where hookx left a part out of the form
    /// (the host has no field for it: a rewrite, a reason, context), the part is a loss, named
    /// in the second value, and only the rest is judged.
    pub fn holds(self, form: &Form, effect: &Effect) -> (Result<(), String>, Option<String>) {
        let n = form.name.to_uppercase();
        // At exit 0, stderr holds hookx's notes for the user, not the answer.
        let carries =
            |t: &str| form.stdout.contains(t) || (form.exit != 0 && form.stderr.contains(t));
        let saw = |t: String| {
            if !carries(&t) || effect.seen.contains(&t) {
                Ok(())
            } else {
                Err(format!("{t} did not reach the model"))
            }
        };
        let ran = |want: Ran| {
            if effect.tool == want {
                Ok(())
            } else {
                Err(format!("the call became {:?}, not {want:?}", effect.tool))
            }
        };
        let (reason, context) = (format!("R-{n}"), format!("C-{n}"));
        // A rewrite carries the form's name (in lower case) in its input.
        let rewrites = carries(&form.name);
        let loss = match self {
            Intent::Deny | Intent::Block if !carries(&reason) => Some("the reason"),
            Intent::Rewrite | Intent::AllowRewrite if !rewrites => Some("the rewrite"),
            Intent::Context if !carries(&context) => Some("the context"),
            _ => None,
        };
        let verdict = match self {
            Intent::Deny => ran(Ran::NotRun).and_then(|_| saw(reason)),
            // Every probe runs where nobody can be asked (`-p`, `exec`): an ask must keep the
            // call from running, by the client's own flow or by hookx's deny where the client
            // cannot ask (attacks rows 1160, 1161: Codex and Auggie run a handler's own ask).
            Intent::Ask => ran(Ran::NotRun),
            Intent::Allow => ran(Ran::Original),
            Intent::Rewrite | Intent::AllowRewrite if rewrites => ran(Ran::Rewritten),
            // A rewrite the host cannot apply is a deny: the original must not run (attacks
            // row 1020).
            Intent::Rewrite | Intent::AllowRewrite => ran(Ran::NotRun),
            Intent::Context => saw(context),
            Intent::Block => saw(reason),
            Intent::Stop => match effect.halted {
                Some(true) => Ok(()),
                Some(false) => Err("the agent went on".into()),
                None => Err("no run looked at whether the agent stopped".into()),
            },
        };
        (verdict, loss.map(|l| format!("{l} is left out")))
    }
}

/// `template` with `<name>` replaced in every string.
fn named(template: &Value, name: &str) -> Value {
    serde_json::from_str(&template.to_string().replace("<name>", name)).unwrap()
}

pub fn flavor(name: &str) -> Flavor {
    *Flavor::all()
        .iter()
        .find(|f| f.name() == name)
        .unwrap_or_else(|| panic!("no flavour {name}"))
}

/// The form hookx writes to a `flavor` host on `event` (a shell call) for `intent`, named
/// `name`; `None` where it answers nothing (the host has no field for it; hookx says so to
/// the user).
pub fn hookx_form(
    flavor: Flavor,
    event: &str,
    intent: Intent,
    name: &str,
    rewrite: &Value,
) -> Option<Form> {
    let kind = flavor
        .tables()
        .event_kind(event)
        .unwrap_or_else(|| panic!("{} has no event {event}", flavor.name()));
    let call = Event::tool_call(
        kind,
        hookx::model::tool::ids::SHELL,
        serde_json::json!({"command": "true"}),
    );
    let a = hookx::protocol::encode_answer(flavor, &call, &intent.outcome(name, rewrite));
    // At exit 0 with nothing on stdout, stderr holds only hookx's notes for the user.
    if a.stdout.is_empty() && a.exit_code == 0 {
        return None;
    }
    Some(Form {
        name: name.into(),
        event: event.into(),
        stdout: a.stdout,
        stderr: a.stderr,
        exit: a.exit_code,
        intent: Some(intent),
    })
}

/// Every form hookx writes on the probed events.
pub fn hookx_forms(probed: &[Probed], rewrite: &Value) -> Vec<Form> {
    let mut out = Vec::new();
    for p in probed {
        let f = flavor(&p.flavor);
        let kind = f.tables().event_kind(&p.event).unwrap();
        for &intent in Intent::on(&kind) {
            let name = intent.form_name(&p.prefix);
            out.extend(hookx_form(f, &p.event, intent, &name, rewrite));
        }
    }
    out
}

impl Form {
    /// The marker texts of the answer: `R-`, `C-`, `E-`, `S-`, `P-`, `M-` and the name in
    /// capitals, where the answer holds them.
    pub fn texts(&self) -> Vec<String> {
        let n = self.name.to_uppercase();
        ["R-", "C-", "E-", "S-", "P-", "M-"]
            .iter()
            .map(|p| format!("{p}{n}"))
            .filter(|t| self.stdout.contains(t.as_str()) || self.stderr.contains(t.as_str()))
            .collect()
    }

    /// What the client did, from what the probe saw: the call, whether each marker text
    /// reached the model, whether the agent stopped.
    pub fn effect(
        &self,
        tool: Ran,
        reached: impl Fn(&str) -> bool,
        halted: Option<bool>,
    ) -> Effect {
        let (seen, unseen) = self.texts().into_iter().partition(|t| reached(t));
        Effect {
            tool,
            seen,
            unseen,
            halted,
        }
    }

    /// The answer with its name (any case) written `<name>`: two forms that differ only in
    /// their texts are one form.
    pub fn shape(&self) -> (String, String, String, i32) {
        let blank = |s: &str| {
            s.replace(&self.name.to_uppercase(), "<name>")
                .replace(&self.name, "<name>")
        };
        (
            self.event.clone(),
            blank(&self.stdout),
            blank(&self.stderr),
            self.exit,
        )
    }
}

impl Book {
    /// The book of `client` `version` (hookx's `host`) with the probe's events and rewrite and
    /// the `forms` it tried.
    pub fn new(
        client: &str,
        version: &str,
        host: &str,
        (probed, rewrite): (Vec<Probed>, Value),
        forms: Vec<Entry>,
    ) -> Book {
        Book {
            client: client.into(),
            version: version.into(),
            host: host.into(),
            rewrite,
            probed,
            forms,
        }
    }

    pub fn path(folder: &str, version: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/recorded")
            .join(format!("{folder}-{version}"))
            .join("answers.json")
    }

    /// Under `HOOKX_RECORD_ANSWERS=1` writes the book; else checks a live run against it:
    /// the same forms, each with the effect recorded. Returns the differences.
    pub fn settle(&self, folder: &str) -> Vec<String> {
        let path = Book::path(folder, &self.version);
        if std::env::var_os("HOOKX_RECORD_ANSWERS").is_some() {
            let text = serde_json::to_string_pretty(self).unwrap() + "\n";
            let tmp = path.with_extension("json.tmp");
            std::fs::write(&tmp, text).unwrap();
            std::fs::rename(&tmp, &path).unwrap();
            eprintln!(
                "recorded {} answer forms in {}",
                self.forms.len(),
                path.display()
            );
            return Vec::new();
        }
        let recorded: Book = match std::fs::read_to_string(&path) {
            Ok(text) => {
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            }
            Err(e) => {
                return vec![format!(
                    "{}: {e} (record it with HOOKX_RECORD_ANSWERS=1)",
                    path.display()
                )];
            }
        };
        let mut diffs = Vec::new();
        if (&recorded.rewrite, &recorded.probed) != (&self.rewrite, &self.probed) {
            diffs.push("the probe's rewrite or events differ from the book's".into());
        }
        for e in &self.forms {
            match recorded.forms.iter().find(|r| r.form.name == e.form.name) {
                None => diffs.push(format!(
                    "{}: not in the book (record it with HOOKX_RECORD_ANSWERS=1)",
                    e.form.name
                )),
                Some(r) if r.form != e.form => diffs.push(format!(
                    "{}: the answer differs from the book's: {:?}, recorded {:?}",
                    e.form.name, e.form, r.form
                )),
                Some(r) if r.effect != e.effect => diffs.push(format!(
                    "{} {}: {} {} did {:?}, the book says {:?}",
                    e.form.event, e.form.name, self.client, self.version, e.effect, r.effect
                )),
                Some(_) => {}
            }
        }
        for r in &recorded.forms {
            if !self.forms.iter().any(|e| e.form.name == r.form.name) {
                diffs.push(format!("{}: in the book, not probed", r.form.name));
            }
        }
        diffs
    }
}

/// Where what reached the model (`sent`) differs from the facts of the hand-written form
/// `name`: each of `seen` reached it, none of `unseen` did.
pub fn reach_differs(name: &str, sent: &str, seen: &[&str], unseen: &[&str]) -> Vec<String> {
    let missed = seen.iter().filter(|t| !sent.contains(*t));
    let leaked = unseen.iter().filter(|t| sent.contains(*t));
    missed
        .map(|t| format!("{name}: {t} did not reach the model"))
        .chain(leaked.map(|t| format!("{name}: {t} reached the model")))
        .collect()
}

/// A sh snippet printing `stdout` and `stderr` as they are and exiting `exit`.
pub fn sh(stdout: &str, stderr: &str, exit: i32) -> String {
    let quoted = |s: &str| format!("'{}'", s.replace('\'', r"'\''"));
    let mut s = String::new();
    if !stdout.is_empty() {
        s.push_str(&format!("printf '%s' {}\n", quoted(stdout)));
    }
    if !stderr.is_empty() {
        s.push_str(&format!("printf '%s' {} >&2\n", quoted(stderr)));
    }
    s.push_str(&format!("exit {exit}\n"));
    s
}

/// Whether the probe's call `name` only shows whether the run went on after the call before it.
pub fn is_after(name: &str) -> bool {
    name.starts_with("after") || name.ends_with("after")
}

/// What became of the call `printf x > o-NAME.txt` whose rewrite writes `r-NAME.txt`, both in
/// `dir`.
pub fn ran_by_files(dir: &std::path::Path, name: &str) -> Ran {
    let o = dir.join(format!("o-{name}.txt")).exists();
    let r = dir.join(format!("r-{name}.txt")).exists();
    match (o, r) {
        (false, false) => Ran::NotRun,
        (true, false) => Ran::Original,
        (false, true) => Ran::Rewritten,
        (true, true) => panic!("{name}: both ran"),
    }
}

/// `hand` with `more` put in before its last item (a form that ends the run: it goes last).
pub fn before_last<T>(mut hand: Vec<T>, more: impl IntoIterator<Item = T>) -> Vec<T> {
    let last = hand.pop();
    hand.extend(more);
    hand.extend(last);
    hand
}

/// A hand-written form (no intent).
pub fn hand(name: &str, event: &str, stdout: &str, stderr: &str, exit: i32) -> Form {
    Form {
        name: name.into(),
        event: event.into(),
        stdout: stdout.into(),
        stderr: stderr.into(),
        exit,
        intent: None,
    }
}
