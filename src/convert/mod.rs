//! Converting hook configs between dialects, with a report of everything the target cannot
//! express. Nothing is dropped without a [`Loss`] item.
//!
//! A conversion walks down: the documents (`document`), each rule (`rule`, its matcher in
//! `rule_matcher`, tool categories in `category`), each handler (`handler`) and its command
//! line (`command`), which runs through `hookx exec` (`wrap`) or has its agent variables
//! renamed (`variables`). Every step notes what it cannot carry on the `Converter`
//! (`converter`), which locates each loss in its source.

mod category;
mod command;
mod converter;
mod document;
mod handler;
pub mod loss;
pub mod matcher;
mod restore;
mod rule;
mod rule_matcher;
mod variables;
pub use variables::unset_project_variables;
mod wrap;

pub(crate) use category::{CategoryFire, RuleTools};
pub use loss::Loss;
pub use wrap::{
    NOT_INSTALLED, OutdatedGuard, Unwrapped, Wrapped, but_its_hookx, innermost,
    not_installed_guard, outdated_guard, runs_of, unwrapped, wrapped_command,
};

use crate::model::EventKind;
use crate::source::SourceFile;
use crate::tables::{Dialect, Document, Flavor, Rule};

/// How to convert.
#[derive(Clone, Debug)]
pub struct Options {
    pub to: Dialect,
    /// Route handlers through `hookx exec` where the target cannot express them natively (a
    /// different stdin/answer protocol, a matcher the target ignores or cannot express, an
    /// `if` filter). On by default; off, each such handler is a loss item.
    pub wrap: bool,
    /// The program name written into wrapped commands.
    pub hookx: String,
    /// The file the conversion is written into (`convert --write`, `--out`, `sync`), if any:
    /// a handler of another file of the target's own dialect is a copy there, and carries the
    /// record naming its rule ([`crate::plan`] takes it and its original for one rule: a Qwen
    /// source synced into `.qwen/settings.json` ran twice under a route, attacks row 2061).
    /// A handler of this file itself (a rewrite in place) carries none.
    pub copies_into: Option<std::path::PathBuf>,
}

impl Options {
    /// Wrapped conversion to `to`, calling `hookx` from `PATH`.
    pub fn new(to: Dialect) -> Options {
        Options {
            to,
            wrap: true,
            hookx: "hookx".into(),
            copies_into: None,
        }
    }
}

/// The converted document and what it could not carry.
#[derive(Debug)]
pub struct Conversion {
    pub document: Document,
    pub losses: Vec<Loss>,
    /// Things worth knowing that are not losses (e.g. handlers that will see another protocol).
    pub notes: Vec<String>,
    /// Wrapped entries of a file converted into its own dialect whose older not-installed
    /// guard became today's.
    pub refreshed: usize,
}

/// Converts every document (each with the source it was read from) into one target document.
pub fn convert(inputs: &[(&SourceFile, &Document)], options: &Options) -> Conversion {
    // The regex checks of every tool matcher, answered in one batch rather than one worker
    // thread each.
    let jobs = inputs
        .iter()
        .flat_map(|(_, doc)| &doc.rules)
        .flat_map(|rule| {
            let (from, to) = (rule.flavor, target_flavor(rule.flavor, options.to));
            let event = target_event(rule, to);
            match (
                from.tables().matcher_target(&event),
                to.tables().matcher_target(&event),
            ) {
                (Some(on), Some(on_target)) if on == on_target => {
                    matcher::translate_jobs(rule.matcher.as_deref(), on, from, to)
                }
                _ => Vec::new(),
            }
        })
        .collect();
    // One conversion, one budget (`bounded::with_own_budget`): its output never depends on
    // how long the conversions before it on this thread waited.
    crate::model::bounded::with_own_budget(|| {
        crate::model::bounded::with_answers(jobs, || document::convert_all(inputs, options))
    })
}

/// The flavour a rule of `from` is written in once converted to `to`.
fn target_flavor(from: Flavor, to: Dialect) -> Flavor {
    if from.dialect() == to {
        from
    } else {
        to.default_flavor()
    }
}

/// The event a rule is on once converted to `to`: an event the source's table does not know
/// but that has a canonical name (Claude's newer `PostCompact`) is that event for a target
/// that knows it.
fn target_event(rule: &Rule, to: Flavor) -> EventKind {
    match &rule.event {
        EventKind::Other(name) if rule.flavor != to => EventKind::from_name(name),
        known => known.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceFile;

    /// A conversion after others spent this thread's regex budget converts as it does alone:
    /// under load the corpus suites' many conversions on one thread had spent it, and a later
    /// file's matcher came out unevaluable (one file in two of eight runs).
    #[test]
    fn a_conversion_after_others_spent_the_budget_converts_as_alone() {
        let text = r#"{"hooks": {"PreToolUse": [{"matcher": "^(Ba|Wr).*",
            "hooks": [{"type": "command", "command": "guard"}]}]}}"#;
        let src = SourceFile::new("settings.json", text);
        let doc = crate::config::read::read(&src, crate::dialect::claude::DIALECT)
            .unwrap()
            .document;
        let options = Options {
            to: crate::dialect::gemini::DIALECT,
            wrap: false,
            hookx: "hookx".into(),
            copies_into: None,
        };
        let losses = |c: &Conversion| loss::render_text(&c.losses, &c.notes);
        let alone = std::thread::scope(|s| {
            s.spawn(|| losses(&convert(&[(&src, &doc)], &options)))
                .join()
                .unwrap()
        });
        let after = std::thread::scope(|s| {
            s.spawn(|| {
                crate::model::bounded::spend_this_threads_budget();
                losses(&convert(&[(&src, &doc)], &options))
            })
            .join()
            .unwrap()
        });
        assert!(!alone.contains("not evaluated"), "{alone}");
        assert_eq!(after, alone);
    }

    /// A wrapped handler on an event where its own agent hands additional context to the model
    /// and the target takes none says so, located at the handler (attacks row 2188: a Claude
    /// guard's PreToolUse context converted to Qwen never reached Qwen's model, and `convert`
    /// said "no losses"); where the target takes it, nothing is said. Every event Claude takes
    /// context on, to every dialect.
    #[test]
    fn a_context_the_target_drops_is_a_located_loss_of_each_wrapped_handler() {
        let claude = crate::dialect::claude::FLAVOR;
        let events: Vec<(EventKind, &str)> = EventKind::KNOWN
            .into_iter()
            .filter(|k| claude.tables().protocol.takes_context(k))
            .filter_map(|k| claude.tables().event_name(&k).map(|n| (k, n)))
            .collect();
        assert!(events.len() > 3, "{events:?}");
        let hooks: serde_json::Map<String, serde_json::Value> = events
            .iter()
            .map(|(_, name)| {
                let group = serde_json::json!([{"hooks": [{"type": "command", "command": "ctx"}]}]);
                (name.to_string(), group)
            })
            .collect();
        let text = serde_json::json!({ "hooks": hooks }).to_string();
        let src = SourceFile::new("settings.json", &text);
        let doc = crate::config::read::read(&src, crate::dialect::claude::DIALECT)
            .unwrap()
            .document;
        let mut wrong = Vec::new();
        let mut said = Vec::new();
        for &to in Dialect::all() {
            if to == crate::dialect::claude::DIALECT {
                continue;
            }
            let options = Options {
                to,
                wrap: true,
                hookx: "hookx".into(),
                copies_into: None,
            };
            let conversion = convert(&[(&src, &doc)], &options);
            let target = to.default_flavor();
            let p = &target.tables().protocol;
            for (kind, name) in &events {
                let pointer = format!("/hooks/{name}/0/hooks/0");
                let lost = conversion
                    .losses
                    .iter()
                    .find(|l| l.pointer == pointer && l.what.starts_with("any additional context"));
                // Converted at all: no loss says the rule or the event is not.
                let converted = !conversion.losses.iter().any(|l| {
                    l.pointer.starts_with(&format!("/hooks/{name}"))
                        && l.why.contains("not converted")
                }) && target.tables().event_name(kind).is_some();
                // A host that reads no JSON answer has its own loss, which names the context.
                let unread =
                    crate::protocol::unreadable_answers(&claude.tables().protocol, p, kind);
                let expect =
                    converted && !p.takes_context(kind) && !unread.contains(&"additional context");
                match (expect, lost) {
                    (true, None) => wrong.push(format!(
                        "{to}: `{name}`: no loss said the context is dropped"
                    )),
                    (false, Some(l)) => {
                        wrong.push(format!("{to}: `{name}`: said, though it takes it: {l}"))
                    }
                    (true, Some(l)) => {
                        assert!(l.line > 0 && l.why.contains(&to.to_string()), "{l}");
                        said.push(format!("{to} {name}"));
                    }
                    (false, None) => {}
                }
            }
        }
        eprintln!("context dropped, from claude: {said:?}");
        assert!(said.iter().any(|s| s == "qwen PreToolUse"), "{said:?}");
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
