//! The gates an agent puts before the hooks of a file it reads itself: the machine's policy
//! (only policy hooks, or none), the kill switch of the file's agent, its folder trust, and
//! the review records of an agent that runs only the handlers its user reviewed. All of it is
//! table data (`DialectDef::managed`, `kill_switch`, `folder_trust`, `route_trust`): simulate
//! runs only what passes them, and `doctor` says why a file is held back.

use crate::discover::{self, Context, Source};
use crate::model::Handler;
use crate::tables::{Dialect, Rule, Scope};
use serde_json::Value;
use std::path::Path;

/// Why `host` runs none of `source`'s hooks itself, though it reads the file: its policy
/// leaves only policy hooks or turns every hook off, the file's agent's kill switch is set, or
/// the project is not a folder `host` trusts. `None`: the file passes.
pub fn file_gate(
    ctx: &Context,
    sources: &[Source],
    host: Dialect,
    source: &Source,
) -> Option<String> {
    let display = host.def().display;
    if host == source.dialect
        && let Some(d) = refused_whole(source)
    {
        return Some(format!("{}:{}: {}", d.line, d.col, d.message));
    }
    if source.scope != Scope::Managed
        && let Some(policy) = discover::managed_only(sources, host)
    {
        let key = host
            .def()
            .managed
            .as_ref()
            .and_then(|m| m.only_managed_key)
            .unwrap_or_default();
        return Some(format!(
            "`{key}` in {} leaves {display} only policy hooks",
            policy.display
        ));
    }
    if let Some(stop) = discover::stopped_by_policy(sources, host) {
        return Some(format!("{display} runs no hook: {}", stop.why));
    }
    if source.scope != Scope::Managed
        && let Some(switch) = host_switch(ctx, sources, host)
    {
        return Some(host_switch_why(switch, host));
    }
    if let Some(switch) = discover::hooks_disabled_by_agent(sources, source.dialect)
        && discover::switched_off(switch, source)
    {
        let set = source
            .dialect
            .def()
            .kill_switch
            .as_ref()
            .map_or(String::new(), |k| k.json());
        return Some(format!("{set} in {} turns its hooks off", switch.display));
    }
    if let Some(gate) = host.def().folder_trust.as_ref()
        && gate.locations.contains(&source.location.id)
        && !folder_trusted(ctx, host, gate)
    {
        return Some(format!(
            "{display} reads it only in a trusted folder, and this project is not in {}: {}",
            crate::discover::folder_record(ctx, host, gate),
            gate.untrusted
        ));
    }
    None
}

/// The file whose host-wide kill switch turns off every hook `host` runs but policy hooks
/// ([`discover::host_switched_off`]), counted where `host` reads it (its folder trust).
pub fn host_switch<'a>(ctx: &Context, sources: &'a [Source], host: Dialect) -> Option<&'a Source> {
    let trust = host.def().folder_trust.as_ref();
    let trusted = std::cell::OnceCell::new();
    discover::host_switched_off(sources, host, &|s| match trust {
        Some(gate) if gate.locations.contains(&s.location.id) => {
            *trusted.get_or_init(|| folder_trusted(ctx, host, gate))
        }
        _ => true,
    })
}

/// What a host-wide kill switch in `switch` does, in a sentence part.
pub fn host_switch_why(switch: &Source, host: Dialect) -> String {
    let set = host
        .def()
        .kill_switch
        .as_ref()
        .map_or(String::new(), |k| k.json());
    format!(
        "{set} in {} turns off every hook {} runs, user-level ones and hookx's route too",
        switch.display,
        host.def().display
    )
}

pub use crate::discover::folder_trusted;

/// The review state of a file's handlers under an agent that runs only the handlers its user
/// reviewed (`DialectDef::route_trust`): the file's value and the agent's record text, in each
/// place it may be read from ([`discover::host_state_files`]).
pub struct Review {
    value: Value,
    records: Vec<String>,
    host: Dialect,
    /// The file as the agent names it in its keys ([`crate::route::review_key_path`]).
    path: std::path::PathBuf,
    /// The records' file as people read it.
    shown: String,
    home: std::path::PathBuf,
    /// The config layers the agent was started with ([`crate::route::layer_texts`]), read
    /// once and only where a record holds.
    layers: std::cell::OnceCell<Vec<String>>,
}

impl Review {
    /// `None` when `host` runs every handler of `source` without a review.
    pub fn of(ctx: &Context, host: Dialect, source: &Source) -> Option<Review> {
        let review = host.def().route_trust.as_ref()?;
        if source.scope == Scope::Managed || !discover::is_native(host, source.location) {
            return None;
        }
        let src = crate::source::SourceFile::read(&source.path).ok()?;
        let value = match crate::config::syntax::Format::of(&src.path) {
            crate::config::syntax::Format::Toml => crate::config::syntax::parse_toml(&src).ok()?,
            crate::config::syntax::Format::Json => {
                let syntax = crate::config::read::json_syntax(&src, source.dialect);
                crate::config::syntax::parse_json_as(&src, syntax).ok()?
            }
            crate::config::syntax::Format::Frontmatter => return None,
        };
        let file = ctx.agent_file(host, review.file);
        let records = discover::host_state_files(ctx, host, review.file)
            .iter()
            .map(|f| crate::read::text(f, crate::read::MAX_FILE_BYTES).unwrap_or_default())
            .collect();
        Some(Review {
            value,
            records,
            host,
            // In a linked worktree Codex reads, and keys its reviews by, the main checkout's
            // file (attacks row 2024).
            path: crate::route::review_key_path(
                &ctx.home,
                host,
                &discover::loaded_instead(&ctx.project, host, source)
                    .map_or(source.path.clone(), |(there, _, _)| there),
            ),
            shown: ctx.display(&file),
            home: ctx.home.clone(),
            layers: std::cell::OnceCell::new(),
        })
    }

    /// Whether the agent runs handler `index` of `rule`: its record is there (in each place)
    /// and hashes what the file holds now, and no layer the agent was started with (Codex's
    /// `--profile`, `-c`) turns it off: a copy turned off there stands in for nothing, and
    /// hookx's route runs its original (attacks rows 642, 740, as a copy Gemini's list turns
    /// off).
    /// A handler the file's value does not show where the rule says is taken as reviewed
    /// (nothing to compare).
    pub fn reviewed(&self, rule: &Rule, index: usize) -> bool {
        let Some((review, records)) = self.records_of(rule, index) else {
            return true;
        };
        let hashed = records.iter().all(|(key, value)| {
            self.records
                .iter()
                .all(|text| (review.hash)(text, key).as_deref() == Some(value))
        });
        if !hashed {
            return false;
        }
        let layers = self.layers.get_or_init(|| {
            (review.layer)
                .map(|l| crate::route::layer_texts(&self.home, self.host, l))
                .unwrap_or_default()
        });
        records
            .iter()
            .all(|(key, value)| review.runs(&self.records, layers, key, value))
    }

    /// The names of the config layers below the home (Codex's profiles, `~/.codex/NAME.config.toml`)
    /// that turn handler `index` of `rule` off: the agent started with one of them skips it.
    /// For the commands a user types, which run under no agent and so see no layer
    /// ([`Self::reviewed`] reads the one the agent was started with; attacks row 642).
    pub fn layers_turning_off(&self, rule: &Rule, index: usize) -> Vec<String> {
        let Some((review, keys)) = self.records_of(rule, index) else {
            return Vec::new();
        };
        let Some(layer) = review.layer else {
            return Vec::new();
        };
        let mut names: Vec<String> = crate::route::layer_files(&self.home, self.host, layer)
            .filter(|(_, file)| {
                crate::read::text(file, crate::read::MAX_FILE_BYTES)
                    .is_ok_and(|text| keys.iter().any(|(k, _)| review.turned_off(&text, k)))
            })
            .map(|(name, _)| name)
            .collect();
        names.sort();
        names
    }

    /// The agent's review table and the records handler `index` of `rule` should have; `None`
    /// where the agent reviews nothing or the file's value does not show the handler.
    fn records_of(
        &self,
        rule: &Rule,
        index: usize,
    ) -> Option<(
        &'static crate::tables::RouteTrust,
        Vec<crate::tables::Record>,
    )> {
        let review = self.host.def().route_trust.as_ref()?;
        let pointer = format!("{}/hooks/{index}", rule.origin.pointer);
        let target = self.value.pointer(&pointer)?;
        let records = (review.records)(&self.path, &self.value, &|h| std::ptr::eq(h, target));
        Some((review, records))
    }

    /// How the agent keeps its records, for the reason a handler is skipped.
    pub fn why(&self) -> String {
        format!(
            "{} runs only handlers its user reviewed (records in {}), and this one is not reviewed or changed since",
            self.host.def().display,
            self.shown
        )
    }
}

/// What makes `source`'s own agent refuse the whole file where hookx reads on
/// ([`crate::config::strict_load`]).
/// Read whole: `hookx run` reads only its event's part of a file.
pub fn refused_whole(source: &Source) -> Option<crate::diag::Diagnostic> {
    source.dialect.config().strict_load?;
    let src = crate::source::SourceFile::read(&source.path).ok()?;
    let src = crate::source::SourceFile::new(source.display.clone(), src.text);
    crate::config::strict_load::refused_whole_text(&src, source.dialect)
}

/// When every file of `host`'s own holding one of hookx's routes is one `host` refuses whole
/// ([`refused_whole`]: a Claude setting of the wrong type, a Droid matcher that is no string),
/// the first of them and a sentence saying so: `host` then never calls hookx, and nothing
/// hookx would run runs (attacks rows 185, 210). `None` where a route file loads, or there is
/// none.
pub fn routes_refused_whole(sources: &[Source], host: Dialect) -> Option<(&Source, String)> {
    let mut refused = route_files(sources, host).map(|s| Some((s, refused_whole(s)?)));
    let (first, d) = refused.next()??;
    refused.all(|r| r.is_some()).then(|| {
        let why = format!(
            "{} loads none of {}, which holds hookx's route ({}:{}: {})",
            host.def().display,
            first.display,
            d.line,
            d.col,
            d.message
        );
        (first, why)
    })
}

/// `host`'s own files that hold one of hookx's routes.
pub fn route_files(sources: &[Source], host: Dialect) -> impl Iterator<Item = &Source> {
    sources.iter().filter(move |s| {
        s.dialect == host
            && s.document().is_some_and(|d| {
                d.rules
                    .iter()
                    .any(|r| r.handlers.iter().any(crate::route::is_hookx_handler))
            })
    })
}

/// Files remembered as loaded whole ([`LoadedWhole`]).
const MAX_LOADED: usize = 256;

/// [`refused_whole`], remembered by content in `hookx_dir` (`loaded.sum`, beside the trust
/// record) for a file its agent loads whole: `hookx run` reads only its event's part of a
/// file, and reading and parsing the whole one on every event cost a plan with copies 5 %.
/// `loaded.sum` is read once, at the first file asked about, however many are.
pub struct LoadedWhole {
    path: Option<std::path::PathBuf>,
    loaded: Option<crate::cache::Digests>,
    /// The files asked about that are remembered so ([`LoadedWhole::remembered`]).
    hits: std::collections::HashSet<*const Source>,
}

impl LoadedWhole {
    pub fn new(hookx_dir: Option<&Path>) -> LoadedWhole {
        LoadedWhole {
            path: hookx_dir.map(|dir| dir.join("loaded.sum")),
            loaded: None,
            hits: std::collections::HashSet::new(),
        }
    }

    /// [`refused_whole`] of `source`, unless its content is remembered as loaded. Remembered
    /// only where its agent loads every entry of it: a file it leaves entries out of
    /// ([`crate::config::strict_load::left_out`]) is read again for them.
    pub fn refused_whole(&mut self, source: &Source) -> Option<crate::diag::Diagnostic> {
        source.dialect.config().strict_load?;
        let (Some(path), Some(digest)) = (&self.path, self.digest(source)) else {
            return refused_whole(source);
        };
        let loaded = self
            .loaded
            .take()
            .unwrap_or_else(|| crate::cache::Digests::load(path, MAX_LOADED));
        if loaded.has(digest) {
            self.loaded = Some(loaded);
            self.hits.insert(std::ptr::from_ref(source));
            return None;
        }
        let src = crate::source::SourceFile::read(&source.path).ok();
        // Only the content the run read is remembered, not one written since.
        let as_read = src.as_ref().is_some_and(|src| {
            Some(crate::hash::sha256_hex(src.text.as_bytes())).as_deref()
                == source.sha256.as_deref()
        });
        let refusals = src
            .map(|src| {
                let src = crate::source::SourceFile::new(source.display.clone(), src.text);
                crate::config::strict_load::refusals_text(&src, source.dialect)
            })
            .unwrap_or_default();
        self.loaded = Some(match refusals.is_empty() && as_read {
            true => {
                let loaded = loaded.with(digest);
                loaded.save();
                loaded
            }
            false => loaded,
        });
        refusals
            .into_iter()
            .find(|d| crate::config::strict_load::is_whole(source.dialect, d))
    }

    /// Whether `source` was found remembered as a file its agent loads whole, every entry of
    /// it, when [`LoadedWhole::refused_whole`] was asked about it.
    pub fn remembered(&self, source: &Source) -> bool {
        self.hits.contains(&std::ptr::from_ref(source))
    }

    /// Keyed by the build: an older one remembered files whose entries it did not know the
    /// agent leaves out (attacks row 1340).
    fn digest(&self, source: &Source) -> Option<u64> {
        let sha256 = source.sha256.as_deref()?;
        let key = format!(
            "{}\0{}\0{sha256}",
            crate::hash::BUILD,
            source.dialect.name()
        );
        u64::from_str_radix(&crate::hash::sha256_hex(key.as_bytes())[..16], 16).ok()
    }
}

/// Whether a handler is one of hookx's own routes (it runs `hookx run`).
pub fn is_route(handler: &Handler) -> bool {
    crate::route::is_hookx_handler(handler)
}
