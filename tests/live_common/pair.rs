//! Two real clients in one project at once (attacks rows 2070, 2087, 2180-2185): the team's
//! Claude hook set, routed through `hookx run` for both hosts, and what its log says per
//! session. Client-agnostic: `tests/live_pair.rs` runs the clients, each on its own fake model
//! server, both started together in one project and one home.
//!
//! The rules, each a line in `$CLAUDE_PROJECT_DIR/pair.log` (`RULE HOST SESSION REST`, HOST
//! being `$HOOKX_HOST`, which `hookx run` and `hookx exec` set, else `agent`: an agent that
//! ran the rule itself; SESSION the payload's `session_id`):
//! - `guard` (PreToolUse, `Bash`): denies a command holding `rm -rf` with [`REASON`] (exit 2),
//!   and answers any other with the context `CTX-PAIR-SESSION` (the session it was answered
//!   for: a context that reaches another session's model is one that crossed);
//! - `prompt` (UserPromptSubmit): logs, then waits until the log holds two `prompt` lines (the
//!   other client's too), bounded by 450 rounds of 0.1 s: both sessions are then at their
//!   prompt at once, which the log's order shows ([`overlapped`]);
//! - `post` (PostToolUse, every tool): logs the tool and its command.

use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The guard's reason for a denied call.
pub const REASON: &str = "R-PAIR-DENY";
/// The prefix of the context the guard answers for an allowed call (then the session id).
pub const CONTEXT: &str = "CTX-PAIR-";
/// The call each client's script lets through.
pub const SAFE: &str = "echo pair-safe";

/// The call the guard denies in `host`'s script: it writes `pair-canary-HOST` if it runs.
pub fn denied(host: &str) -> String {
    format!("echo rm -rf pair > pair-canary-{host}")
}

/// The team's `.claude/settings.json` (see the module's comment).
pub fn claude_rules() -> Value {
    let log = "\"$CLAUDE_PROJECT_DIR/pair.log\"";
    let guard = format!(
        "i=$(cat); s=$(printf '%s' \"$i\" | jq -r .session_id); \
         c=$(printf '%s' \"$i\" | jq -r '.tool_input.command // empty'); \
         echo \"guard ${{HOOKX_HOST:-agent}} $s $c\" >> {log}; \
         case \"$c\" in *'rm -rf'*) echo '{REASON}: no rm -rf here' >&2; exit 2;; esac; \
         printf '{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\
         \"additionalContext\":\"{CONTEXT}%s\"}}}}' \"$s\""
    );
    let prompt = format!(
        "s=$(jq -r .session_id); echo \"prompt ${{HOOKX_HOST:-agent}} $s\" >> {log}; n=0; \
         while [ \"$(grep -c '^prompt ' {log})\" -lt 2 ] && [ $n -lt 450 ]; \
         do sleep 0.1; n=$((n+1)); done; exit 0"
    );
    let post = format!(
        "jq -r '\"post \\(env.HOOKX_HOST // \"agent\") \\(.session_id) \\(.tool_name) \
         \\(.tool_input.command // \"-\")\"' >> {log}"
    );
    let handler = |c: &str| json!([{"type": "command", "command": c}]);
    json!({"hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": handler(&guard)}],
        "UserPromptSubmit": [{"hooks": handler(&prompt)}],
        "PostToolUse": [{"matcher": "*", "hooks": handler(&post)}],
    }})
}

/// One line of `pair.log`.
#[derive(Clone, Debug)]
pub struct Line {
    pub rule: String,
    pub host: String,
    pub session: String,
    pub rest: String,
}

/// The lines of `pair.log` in `project`, in the order they were written.
pub fn lines(project: &Path) -> Vec<Line> {
    std::fs::read_to_string(project.join("pair.log"))
        .unwrap_or_default()
        .lines()
        .map(|l| {
            let mut it = l.splitn(4, ' ');
            let mut next = || it.next().unwrap_or_default().to_string();
            Line {
                rule: next(),
                host: next(),
                session: next(),
                rest: next(),
            }
        })
        .collect()
}

/// The sessions each host's lines name.
pub fn sessions(lines: &[Line]) -> BTreeMap<String, BTreeSet<String>> {
    let mut by = BTreeMap::<String, BTreeSet<String>>::new();
    for l in lines {
        by.entry(l.host.clone())
            .or_default()
            .insert(l.session.clone());
    }
    by
}

/// What each rule logged in `session`, in order (`rest` of its lines).
pub fn runs<'a>(lines: &'a [Line], rule: &str, session: &str) -> Vec<&'a str> {
    lines
        .iter()
        .filter(|l| l.rule == rule && l.session == session)
        .map(|l| l.rest.as_str())
        .collect()
}

/// Whether both sessions were at their prompt before either's first guard ran: the two runs
/// overlapped, by the log's own order.
pub fn overlapped(lines: &[Line]) -> bool {
    let first_guard = lines
        .iter()
        .position(|l| l.rule == "guard")
        .unwrap_or(lines.len());
    lines[..first_guard]
        .iter()
        .filter(|l| l.rule == "prompt")
        .count()
        == 2
}

/// The sessions whose context (`CTX-PAIR-SESSION`) is in `text`, each with its count. The
/// guard's own command (`CTX-PAIR-%s`), which Claude Code quotes in a deny's result, names none.
pub fn contexts(text: &str) -> BTreeMap<String, usize> {
    let mut seen = BTreeMap::new();
    for (at, _) in text.match_indices(CONTEXT) {
        let rest = &text[at + CONTEXT.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(rest.len());
        if end > 0 {
            *seen.entry(rest[..end].to_string()).or_insert(0) += 1;
        }
    }
    seen
}

/// `pair.log` in `project`, printed (`who` names the run), and a failed check unless both
/// sessions were at their prompt before either's first call ([`overlapped`]).
pub fn log(project: &Path, who: &str) -> (Vec<Line>, Vec<String>) {
    let lines = lines(project);
    eprintln!("{who}: pair.log:\n{lines:#?}");
    let mut failed = Vec::new();
    if !overlapped(&lines) {
        failed.push(format!(
            "both sessions at their prompt before either's first call: {lines:?}"
        ));
    }
    (lines, failed)
}

/// The failed checks of `session`'s rules, run for `host` (`name` starts each): the prompt
/// logger once, the guard once for the safe call and once for `host`'s denied call, the post
/// logger once for the call that ran.
pub fn rules_once(lines: &[Line], host: &str, session: &str, name: &str) -> Vec<String> {
    let denied = denied(host);
    let mut failed = Vec::new();
    for (rule, want) in [
        ("prompt", vec![""]),
        ("guard", vec![SAFE, denied.as_str()]),
        ("post", vec!["Bash echo pair-safe"]),
    ] {
        let got = runs(lines, rule, session);
        if got != want {
            failed.push(format!(
                "{name}: {rule} ran {got:?}, once each of {want:?} wanted"
            ));
        }
    }
    failed
}

/// The failed checks of `host`'s one session `session` in `project` (`who` names the run in
/// what is printed): each rule once ([`rules_once`]), the denied call did not run (its canary
/// not written), the guard's reason reached the model (`sent`, what the model got), and every
/// context the model got is its own session's.
pub fn own_session(
    lines: &[Line],
    project: &Path,
    host: &str,
    session: &str,
    sent: &str,
    who: &str,
) -> Vec<String> {
    let mut failed = rules_once(lines, host, session, &format!("{host} {session}"));
    let canary = project.join(format!("pair-canary-{host}"));
    if canary.exists() {
        failed.push(format!(
            "{host}: the denied call ran ({} written)",
            canary.display()
        ));
    }
    if !sent.contains(REASON) {
        failed.push(format!("{host}: the guard's reason reached the model"));
    }
    let seen = contexts(sent);
    eprintln!("{who}: {host}: contexts in its model's requests: {seen:?}");
    if !seen.keys().all(|s| s == session) {
        failed.push(format!(
            "{host} {session}: a context of another session reached its model: {seen:?}"
        ));
    }
    failed
}
