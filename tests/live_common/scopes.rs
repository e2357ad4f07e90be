//! The claim gate (issue 23, task "claims"): when a client runs a user-scope and a
//! project-scope hook for one event, do the two get one identifiable event? Each suite records
//! what its two recorders saw, in firing order per label, and checks it here: the pairs are
//! equal payloads (after the fields a client may fill per hook), and two calls alike (the same
//! command twice in one session) differ in a field that names the call.

use serde_json::Value;
use std::collections::BTreeMap;

/// What one scope's recorders saw: `(event, stdin)` in firing order.
#[allow(dead_code)] // Claude's and Copilot's suites record their own sides
pub type Seen = Vec<(String, Value)>;

/// The user's and the project's `(event, stdin)` in firing order, from recorders labelled by
/// their event, the project's with the prefix `project-`.
#[allow(dead_code)] // Claude's and Copilot's suites record their own sides
pub fn sides<'a>(labelled: impl Iterator<Item = (&'a str, &'a Value)>) -> (Seen, Seen) {
    let (mut user, mut project) = (Vec::new(), Vec::new());
    for (label, stdin) in labelled {
        match label.strip_prefix("project-") {
            Some(event) => project.push((event.to_string(), stdin.clone())),
            None => user.push((label.to_string(), stdin.clone())),
        }
    }
    (user, project)
}

/// Problems with the pairing of `user`'s and `project`'s payloads, each `(event, stdin)` in
/// firing order; empty when every event fired as often in each scope and the n-th payload of
/// an event is the same in both, leaving out the top-level keys in `per_hook`.
pub fn pairing(
    user: &[(String, Value)],
    project: &[(String, Value)],
    per_hook: &[&str],
) -> Vec<String> {
    let by_event = |seen: &[(String, Value)]| {
        let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        for (event, stdin) in seen {
            let mut v = stdin.clone();
            if let Some(map) = v.as_object_mut() {
                for key in per_hook {
                    map.remove(*key);
                }
            }
            out.entry(event.clone()).or_default().push(v);
        }
        out
    };
    let (u, p) = (by_event(user), by_event(project));
    let mut problems = Vec::new();
    for event in u
        .keys()
        .chain(p.keys())
        .collect::<std::collections::BTreeSet<_>>()
    {
        let (a, b) = (
            u.get(event).cloned().unwrap_or_default(),
            p.get(event).cloned().unwrap_or_default(),
        );
        if a.len() != b.len() {
            problems.push(format!(
                "{event}: the user hook ran {} times, the project hook {}",
                a.len(),
                b.len()
            ));
            continue;
        }
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            if x != y {
                problems.push(format!(
                    "{event} #{i}: the payloads differ in {:?}",
                    differing(x, y)
                ));
            }
        }
    }
    problems
}

/// The top-level keys whose values differ between `a` and `b` (a key missing in one counts).
pub fn differing(a: &Value, b: &Value) -> Vec<String> {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
        return vec!["<not objects>".into()];
    };
    a.keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| k.to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// The payloads of `event` in `seen` whose `tool_input`-like value carries `marker` (the
/// command run twice): what tells the two alike calls apart.
pub fn alike_calls<'a>(seen: &'a [(String, Value)], event: &str, marker: &str) -> Vec<&'a Value> {
    seen.iter()
        .filter(|(e, v)| e == event && v.to_string().contains(marker))
        .map(|(_, v)| v)
        .collect()
}

/// Under `HOOKX_RECORD=1`, writes the run's pairs to
/// `tests/fixtures/recorded/<folder>-<version>/scopes/pairs.json` (the run's folders replaced
/// by `placeholders`): what the claim's event identity is tested against.
pub fn record(
    folder_version: &str,
    host: &str,
    user: &[(String, Value)],
    project: &[(String, Value)],
    placeholders: &[(String, &str)],
) {
    if std::env::var("HOOKX_RECORD").as_deref() != Ok("1") {
        return;
    }
    let clean = |v: &Value| -> Value {
        let text = placeholders
            .iter()
            .fold(v.to_string(), |t, (from, to)| t.replace(from.as_str(), to));
        serde_json::from_str(&text).unwrap()
    };
    let side = |seen: &[(String, Value)]| -> Vec<Value> {
        seen.iter()
            .map(|(e, v)| serde_json::json!({"event": e, "stdin": clean(v)}))
            .collect()
    };
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/recorded")
        .join(folder_version)
        .join("scopes");
    std::fs::create_dir_all(&dir).unwrap();
    let doc = serde_json::json!({
        "what": "one session, a recorder in the user's and one in the project's hook file, the same command run twice; each side in firing order",
        "client": folder_version, "host": host,
        "user": side(user), "project": side(project),
    });
    std::fs::write(
        dir.join("pairs.json"),
        serde_json::to_string_pretty(&doc).unwrap() + "\n",
    )
    .unwrap();
}
