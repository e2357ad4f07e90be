//! `hookx trust`: records the discovered hook files (or the ones named) in the trust store
//! ([`crate::trust`]), each as what discovery finds it as; `--list` shows the record and
//! `--revoke` takes trust back.
//!
//! With no file named, `hookx trust` first shows what it is about to trust: each new or changed
//! file with its rules (event, matcher, what runs), a changed one also as a diff against the
//! copy of the bytes trusted before ([`crate::trust::COPY_LIMIT`]). hookx's own routes
//! ([`crate::route::is_own_route`]) run nothing and need no review: a file holding only those
//! is trusted without being listed. It then asks on a terminal, and wants `--yes` elsewhere.

use crate::discover::{self, Context, Source};
use crate::error::Error;
use crate::model::{Handler, HandlerKind};
use crate::plugins::Standing;
use crate::trust::{TrustState, TrustStore};
use serde_json::Value;
use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::PathBuf;

/// `hookx trust`: what to do.
#[derive(Clone, Debug)]
pub struct Options {
    pub ctx: Context,
    /// Files to trust (or, with `revoke`, to stop trusting); empty means every discovered
    /// source that parses, after a review.
    pub files: Vec<PathBuf>,
    /// Trust what the review shows without asking (needed when not on a terminal).
    pub yes: bool,
    /// Show the trust record instead.
    pub list: bool,
    /// Take back the trust of `files` instead.
    pub revoke: bool,
}

/// One line of `hookx trust`'s report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trusted {
    pub shown: String,
    pub sha256: String,
    /// False when it was already trusted with this content.
    pub new: bool,
}

/// Why a file is about to be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Why {
    /// Never trusted as found (or only by an older hookx).
    New,
    /// Trusted once with other content.
    Changed,
}

/// A file `hookx trust` would trust, as the review shows it.
struct Pending<'a> {
    source: &'a Source,
    why: Why,
    /// One line per handler that is not one of hookx's routes: event, matcher, what runs.
    rules: Vec<String>,
    /// The handlers that are hookx's routes.
    routes: usize,
}

/// The sources `hookx trust` with no file considers: every discovered source, but a plugin that
/// is off in every view (no hook source: trusted only when named) and a policy file that cannot
/// be used (it needs no trust, and `hookx doctor` says what is wrong with it).
fn candidates(ctx: &Context, store: &TrustStore) -> Vec<Source> {
    discover::discover_trusting(ctx, store)
        .into_iter()
        .filter(|source| {
            source
                .plugin
                .is_none_or(|p| p.agent == Standing::Loaded || p.trusted == Standing::Loaded)
                && (source.scope != crate::tables::Scope::Managed || source.document().is_some())
        })
        .collect()
}

/// Why `source` cannot be trusted, if it cannot: it was not read, did not parse, or its real
/// path is unknown.
fn untrustable(source: &Source) -> Option<String> {
    match (&source.sha256, &source.document) {
        (Some(_), Ok(_)) if source.identity().is_some() => None,
        _ => Some(format!(
            "{}: not trusted: {}",
            source.display,
            source
                .error_line()
                .unwrap_or_else(|| "cannot be read".into())
        )),
    }
}

/// The command lines of the handlers install wrote in `source`'s file
/// ([`crate::route::is_own_route`]: by install's mark), read from the file as it is: the parsed
/// document does not keep the mark. A file of route scripts gives its one line. Nothing when the
/// file is not the bytes discovery hashed, or not JSON.
fn own_route_lines(source: &Source) -> HashSet<String> {
    let mut lines = HashSet::new();
    let Ok(text) = crate::read::text(&source.path, crate::read::MAX_FILE_BYTES) else {
        return lines;
    };
    if source.sha256.as_deref() != Some(&crate::hash::sha256_hex(text.as_bytes())) {
        return lines;
    }
    if crate::config::scripts::is_route(&text) {
        let handlers = source.document().into_iter().flat_map(|d| &d.rules);
        lines.extend(
            handlers
                .flat_map(|r| &r.handlers)
                .filter_map(command_line)
                .map(str::to_string),
        );
        return lines;
    }
    let src = crate::source::SourceFile::new(source.path.display().to_string(), text);
    let syntax = crate::config::read::json_syntax(&src, source.dialect);
    if let Ok(value) = crate::config::syntax::parse_json_as(&src, syntax) {
        collect_own_routes(&value, &mut lines);
    }
    lines
}

/// Every string field of every object in `value` that install marked as its route.
fn collect_own_routes(value: &Value, lines: &mut HashSet<String>) {
    match value {
        Value::Object(obj) => {
            if crate::route::is_own_route(value) {
                lines.extend(obj.values().filter_map(Value::as_str).map(str::to_string));
            }
            obj.values().for_each(|v| collect_own_routes(v, lines));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_own_routes(v, lines)),
        _ => {}
    }
}

/// The Unix command line of a command handler.
fn command_line(handler: &Handler) -> Option<&str> {
    match &handler.kind {
        HandlerKind::Command(c) => c.unix_line(),
        _ => None,
    }
}

/// Whether `handler` is one of hookx's routes: nothing but a route
/// ([`crate::route::is_plain_route`]: a line that runs more, which its agent runs as written,
/// is shown), and install wrote it (`own`, from [`own_route_lines`]). A mark alone is not
/// enough: a file could carry it on any command.
fn is_route(handler: &Handler, own: &HashSet<String>) -> bool {
    crate::route::is_plain_route(handler) && command_line(handler).is_some_and(|l| own.contains(l))
}

/// What the review shows of `source`, a file about to be trusted.
fn pending(source: &Source, why: Why) -> Pending<'_> {
    let own = own_route_lines(source);
    let mut rules = Vec::new();
    let mut routes = 0;
    for rule in source.document().into_iter().flat_map(|d| &d.rules) {
        let event = rule
            .flavor
            .tables()
            .event_name(&rule.event)
            .unwrap_or(rule.event.name());
        for handler in &rule.handlers {
            if is_route(handler, &own) {
                routes += 1;
                continue;
            }
            let (kind, mut text) = super::list::handler_text(handler);
            // A wrapped entry shows the command it runs (its guard is exactly hookx's).
            if let Some(w) = crate::convert::wrapped_command(&text).filter(|_| kind == "command") {
                text = format!("{} (via {} exec --as {})", w.command, w.hookx, w.as_flavor);
            }
            let matcher = match &rule.matcher {
                Some(m) => format!(" [{m}]"),
                None => String::new(),
            };
            let kind = match kind {
                "command" => String::new(),
                other => format!("({other}) "),
            };
            let line = format!("{event}{matcher}: {kind}{}", one_line(&text));
            rules.push(crate::diag::visible(&line).into_owned());
        }
    }
    Pending {
        source,
        why,
        rules,
        routes,
    }
}

/// A command on one line: its lines joined with ` ⏎ `, so that nothing hides below the first.
fn one_line(text: &str) -> String {
    text.trim_end().lines().collect::<Vec<_>>().join(" ⏎ ")
}

/// The review screen of the files about to be trusted.
fn review(store: &TrustStore, pending: &[Pending<'_>], quiet: usize) -> String {
    let mut out = String::new();
    let (new, changed) = (
        pending.iter().filter(|p| p.why == Why::New).count(),
        pending.iter().filter(|p| p.why == Why::Changed).count(),
    );
    out.push_str(&format!(
        "hookx trust: {} file{} to review ({new} new, {changed} changed): hookx runs their hooks \
         once they are trusted\n",
        pending.len(),
        plural(pending.len())
    ));
    for p in pending {
        let source = p.source;
        let record = source.identity().and_then(|id| store.get(id));
        out.push('\n');
        match (p.why, record) {
            (Why::Changed, Some(r)) => out.push_str(&format!(
                "changed: {} ({}, trusted {}):\n",
                source.display, source.location.id, r.trusted_at
            )),
            _ => out.push_str(&format!(
                "new: {} ({}):\n",
                source.display, source.location.id
            )),
        }
        if p.rules.is_empty() {
            out.push_str(
                "  no hooks (hookx obeys its settings, such as a switch that turns hooks off or \
                 plugins on, only once it is trusted)\n",
            );
        }
        for line in &p.rules {
            out.push_str(&format!("  {line}\n"));
        }
        if p.routes > 0 {
            out.push_str(&format!(
                "  and {} of hookx's own routes (hookx install), which run nothing\n",
                p.routes
            ));
        }
        for line in switches(source) {
            out.push_str(&format!("  {line}\n"));
        }
        if let Some(r) = record.filter(|_| p.why == Why::Changed) {
            match (
                store.trusted_copy(&r.sha256),
                crate::read::text(&source.path, crate::read::MAX_FILE_BYTES),
            ) {
                (Some(before), Ok(now)) => {
                    let diff = similar::TextDiff::from_lines(&before, &now)
                        .unified_diff()
                        .context_radius(3)
                        .header("trusted", "now")
                        .to_string();
                    for line in diff.lines() {
                        out.push_str(&format!("  {}\n", crate::diag::visible(line)));
                    }
                }
                _ => out.push_str(&format!(
                    "  (no copy of the trusted version is kept, so no diff: it was trusted by an \
                     older hookx or is larger than {} KiB; review the file whole)\n",
                    crate::trust::COPY_LIMIT / 1024
                )),
            }
        }
    }
    if quiet > 0 {
        out.push_str(&format!(
            "\nwith them, needing no review: {quiet} file{} holding only hookx's own routes, which \
             run nothing\n",
            plural(quiet)
        ));
    }
    out
}

/// What trusting a project's `source` lets its settings turn off beyond its own hooks, said on
/// the review
/// (attacks row 229): its agent's kill switch (Claude's `disableAllHooks`, Gemini's
/// `hooksConfig.enabled`) and its list of handlers never run (Gemini's `hooksConfig.disabled`)
/// reach the hooks of the user's own files too once it is trusted, and the review showed only
/// the file's hooks.
fn switches(source: &Source) -> Vec<String> {
    use crate::tables::Scope;
    let shared = matches!(source.scope, Scope::Project | Scope::Local);
    let Some(doc) = source.document().filter(|_| shared) else {
        return Vec::new();
    };
    let def = source.dialect.def();
    let here = |locations: &[&str]| locations.contains(&source.location.id);
    let mut lines = Vec::new();
    if let Some(switch) = def
        .kill_switch
        .as_ref()
        .filter(|k| here(k.locations) && k.is_off(doc))
    {
        let key = match switch.inner {
            Some(inner) => format!("{}.{inner}", switch.key),
            None => switch.key.to_string(),
        };
        lines.push(format!(
            "and `{key}` turns off every {} hook, those of your own files too",
            def.display
        ));
    }
    if let Some(list) = def.disabled_handlers.as_ref().filter(|l| here(l.locations)) {
        let labels: Vec<String> = list
            .labels(&doc.extra)
            .map(|l| format!("`{}`", one_line(l)))
            .collect();
        if !labels.is_empty() {
            lines.push(format!(
                "and `{}.{}` turns off every {} hook named {} (its `{}`, else its command), \
                 those of your own files too",
                list.key,
                list.inner,
                def.display,
                labels.join(", "),
                list.label_key
            ));
        }
    }
    lines
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Trusts `sources` in `store`, keeping a copy of each file's trusted bytes; returns the report
/// lines. The store is saved by the caller.
fn trust_all(store: &mut TrustStore, sources: &[&Source]) -> Result<Vec<Trusted>, Error> {
    let mut done = Vec::new();
    for source in sources {
        let Some(sha) = source.sha256.clone() else {
            continue;
        };
        // The record names a file by its path in JSON text: a path that is not UTF-8 would be
        // recorded changed, found by nothing, and the file said trusted while every run skips
        // it (attacks row 1537).
        if let Some(id) = crate::trust::Subject::identity(*source)
            && id.canonical.to_str().is_none()
        {
            return Err(Error::Io {
                path: source.display.clone(),
                message: format!(
                    "cannot be trusted: its path ({}) is not UTF-8, which hookx's trust record cannot hold; rename the folder to trust it",
                    crate::diag::visible(&id.canonical.to_string_lossy())
                ),
            });
        }
        let new = store.trust_source(*source);
        if new && let Ok(text) = crate::read::text(&source.path, crate::read::MAX_FILE_BYTES) {
            store.keep_copy(&sha, &text)?;
        }
        let sha = match new.then(|| stamp(source, &sha)).flatten() {
            Some((canonical, after)) => {
                let after_sha = crate::hash::sha256_hex(after.as_bytes());
                store.carry_over(
                    &canonical,
                    (&sha, &after_sha),
                    [
                        &|_| None,
                        &crate::trust::without_agent_keys(&canonical, after.as_bytes()),
                    ],
                );
                store.keep_copy(&after_sha, &after)?;
                after_sha
            }
            None => sha,
        };
        done.push(Trusted {
            shown: source.display.clone(),
            sha256: sha,
            new,
        });
    }
    Ok(done)
}

/// Writes into `source`, just trusted with the content hashed `sha`, the number its agent
/// writes into a file of hooks alone when it starts, where it lacks it (Qwen's `"$version": 4`,
/// [`crate::tables::ConfigSpec::stamp`]): otherwise the agent's next start changes the bytes
/// the user trusted, and hookx skips the file as "changed since trusted" under every other
/// host (attacks row 87). In place, only while the file holds the bytes trusted; the file's
/// real path and its new text, to carry the trust over to.
fn stamp(source: &Source, sha: &str) -> Option<(PathBuf, String)> {
    use crate::config::edit::{JsonText, Seg};
    let (key, value) = source.dialect.config().stamp?;
    // Only a file holding hooks alone and no stamp: the agent then writes just the stamp
    // (Qwen 0.24.4's `loadAndMigrate`; `hooks` is none of its migrations' signs), where a file
    // with other settings or another stamp may be migrated, which a stamp would prevent.
    let extra = &source.document()?.extra;
    if !extra.is_empty() {
        if !extra.contains_key(key) {
            outln!(
                "{}: {} writes \"{key}\" into it on its next start (and may migrate its other \
                 settings), which hookx then sees as a change: run `hookx trust {}` again after \
                 that start",
                source.display,
                source.dialect.def().display,
                crate::shell::shell_quote(&source.path.display().to_string())
            );
        }
        return None;
    }
    let meta = std::fs::symlink_metadata(&source.path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let mut after = None;
    crate::config::update::update(&source.path, |current| {
        let Some(current) = current.filter(|c| crate::hash::sha256_hex(c.as_bytes()) == sha) else {
            return Ok(crate::config::update::Change::Keep);
        };
        let mut text = JsonText::new(current.to_string());
        if text.value(&[Seg::from(key)]).is_some()
            || text.add_property(&[], key, &Value::from(value)).is_none()
        {
            return Ok(crate::config::update::Change::Keep);
        }
        let new = text.into_text();
        after = Some(new.clone());
        Ok(crate::config::update::Change::Write(new))
    })
    .ok()?;
    let after = after?;
    outln!(
        "{}: wrote \"{key}\": {value} into it, as {} does on its next start where a file lacks \
         it: the file stays as trusted",
        source.display,
        source.dialect.def().display
    );
    Some((std::fs::canonicalize(&source.path).ok()?, after))
}

/// Trusts the named files, each as what discovery finds it as: the location its path (not its
/// target) is at. Returns what it trusted and what it skipped (with why).
pub fn trust_files(ctx: &Context, files: &[PathBuf]) -> Result<(Vec<Trusted>, Vec<String>), Error> {
    let mut store = TrustStore::load(ctx)?;
    let mut sources = Vec::new();
    let mut skipped = Vec::new();
    let plugins = crate::route::plugin_files(&ctx.project, &ctx.home);
    for file in files {
        let resolved = |p: &std::path::Path| {
            std::fs::canonicalize(p).unwrap_or_else(|_| crate::context::absolute(p))
        };
        if let Some(plugin) = plugins.iter().find(|p| resolved(&p.path) == resolved(file)) {
            skipped.push(plugin_line(ctx, plugin));
            continue;
        }
        let source = discover::find(ctx, file)?;
        match untrustable(&source) {
            Some(why) => skipped.push(why),
            None => sources.push(source),
        }
    }
    let done = trust_all(&mut store, &sources.iter().collect::<Vec<_>>())?;
    if done.iter().any(|t| t.new) {
        store.save()?;
    }
    Ok((done, skipped))
}

/// Asks on the terminal whether to trust what the review showed.
fn confirm(count: usize) -> bool {
    err!("trust {count} file{}? [y/N] ", plural(count));
    let mut answer = String::new();
    if std::io::stdin().read_line(&mut answer).is_err() {
        return false;
    }
    matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes")
}

/// `hookx trust`, printing what it trusted.
pub fn command(opts: &Options) -> Result<i32, Error> {
    if opts.list {
        return list(&opts.ctx);
    }
    if opts.revoke {
        return revoke(&opts.ctx, &opts.files);
    }
    if !opts.files.is_empty() {
        let (done, skipped) = trust_files(&opts.ctx, &opts.files)?;
        print_report(&done, &skipped);
        note_left_to_hosts(&opts.ctx);
        warn_if_refused(&opts.ctx);
        return Ok(if skipped.is_empty() { 0 } else { 1 });
    }
    let mut store = TrustStore::load(&opts.ctx)?;
    let sources = candidates(&opts.ctx, &store);
    let mut skipped = Vec::new();
    let mut already = Vec::new();
    let mut to_review = Vec::new();
    let mut quiet = Vec::new();
    for source in &sources {
        if let Some(why) = untrustable(source) {
            skipped.push(why);
            continue;
        }
        let why = match store.state(source) {
            TrustState::Trusted => {
                already.push(source);
                continue;
            }
            TrustState::Changed => Why::Changed,
            TrustState::Untrusted | TrustState::Legacy => Why::New,
        };
        let p = pending(source, why);
        if p.rules.is_empty() && p.routes > 0 {
            quiet.push(source);
        } else {
            to_review.push(p);
        }
    }
    if !to_review.is_empty() {
        outln!("{}", review(&store, &to_review, quiet.len()));
        if !opts.yes {
            if !std::io::stdin().is_terminal() {
                for s in &skipped {
                    errln!("{s}");
                }
                return Err(Error::Usage(format!(
                    "nothing trusted: not on a terminal to ask; after reviewing the above, run \
                     `hookx trust --yes` to trust {} (or `hookx trust FILE` for one file)",
                    match to_review.len() {
                        1 => "it".to_string(),
                        n => format!("these {n} files"),
                    }
                )));
            }
            if !confirm(to_review.len()) {
                outln!("nothing trusted");
                return Ok(1);
            }
        }
    }
    let mut trusting: Vec<&Source> = to_review.iter().map(|p| p.source).collect();
    trusting.extend(quiet.iter().copied());
    let mut done = trust_all(&mut store, &trusting)?;
    if done.iter().any(|t| t.new) {
        store.save()?;
    }
    done.extend(already.iter().map(|s| Trusted {
        // Trusted as the same file in another worktree of the repository: said, as where.
        shown: match s.twin.as_ref().filter(|t| t.differs.is_none()) {
            Some(twin) => format!(
                "{} (as {}, in another worktree of this repository)",
                s.display,
                twin.path.display()
            ),
            None => s.display.clone(),
        },
        sha256: s.sha256.clone().unwrap_or_default(),
        new: false,
    }));
    print_report(&done, &skipped);
    for plugin in crate::route::plugin_files(&opts.ctx.project, &opts.ctx.home) {
        outln!("{}", plugin_line(&opts.ctx, &plugin));
    }
    note_left_to_hosts(&opts.ctx);
    warn_if_refused(&opts.ctx);
    Ok(if skipped.is_empty() { 0 } else { 1 })
}

/// What trust makes of a plugin file where hookx writes one: no hook file, nothing to trust.
/// The agent loads every plugin without asking; what hookx's own route to runs is trusted or
/// not as the hook files it runs are.
fn plugin_line(ctx: &Context, plugin: &crate::route::PluginFile) -> String {
    let then = match (plugin.own, plugin.handlers) {
        (true, 0) => "nothing to trust in it".to_string(),
        (true, _) => "nothing to trust in it: review the hook files it was converted from".into(),
        (false, _) => "not hookx's to trust".into(),
    };
    format!(
        "not a hook file: {}: {}; {then}",
        ctx.display(&plugin.path),
        plugin.status()
    )
}

/// Where `hookx install` left a project's (or the home's) handlers to hookx, lists those added
/// or edited since in the host's switch, now that they are trusted
/// ([`crate::commands::install::relist_for_trust`]): an edit is reviewed here, so the host
/// stops running them with its own payload (attacks row 1424: live, a new Write guard let the
/// write through under Copilot CLI 1.0.102 until `install` ran again). Then names any the host
/// still runs itself ([`discover::left_to_the_host_since_install`]: of a file not trusted, or
/// on an event no route serves), and the install that lists them.
fn note_left_to_hosts(ctx: &Context) {
    let store = TrustStore::load(ctx).ok();
    let trusted = |source: &Source| {
        store
            .as_ref()
            .is_some_and(|s| s.state(source) == TrustState::Trusted)
    };
    for &host in crate::tables::Dialect::all() {
        match crate::commands::install::relist_for_trust(ctx, host, &trusted) {
            Ok(listed) => {
                for (file, key, n) in listed {
                    outln!(
                        "listed {n} handler{} added or edited since `hookx install --host \
                         {host}` in {}'s `{key}`: hookx runs {} with the payload {} written \
                         for, not {}'s",
                        plural(n),
                        ctx.display(&file),
                        if n == 1 { "it" } else { "them" },
                        if n == 1 { "it was" } else { "they were" },
                        host.def().display,
                    );
                }
            }
            Err(e) => errln!("warning: {e}"),
        }
    }
    let sources = discover::discover(ctx);
    for &host in crate::tables::Dialect::all() {
        for (source, n) in discover::left_to_the_host_since_install(&sources, host, &ctx.project) {
            errln!(
                "note: {} runs {n} handler{} of {} itself, with its own payload, not the one {} \
                 written for: added or edited since `hookx install --host {host}` left this \
                 project's handlers to hookx; run `hookx install --host {host}` again",
                host.def().display,
                plural(n),
                source.display,
                if n == 1 { "it was" } else { "they were" },
            );
        }
    }
}

/// Says so when `hookx run` would not honour the record just written ([`crate::trust::Refused`]).
fn warn_if_refused(ctx: &Context) {
    if let Some(why) = crate::trust::Refused::check(ctx) {
        errln!(
            "warning: `hookx run` does not honour this trust record: {why}; fix: {}",
            why.fix()
        );
    }
}

/// The lines saying what was trusted and what could not be.
fn print_report(done: &[Trusted], skipped: &[String]) {
    for t in done {
        let short = &t.sha256[..t.sha256.len().min(12)];
        if t.new {
            outln!("trusted {} (sha256 {short})", t.shown);
        } else {
            outln!("already trusted {} (sha256 {short})", t.shown);
        }
    }
    for s in skipped {
        errln!("{s}");
    }
    if done.is_empty() && skipped.is_empty() {
        outln!("no hook files found to trust");
    }
}

/// `hookx trust --list`: every record, with the standing of the file now.
fn list(ctx: &Context) -> Result<i32, Error> {
    let store = TrustStore::load(ctx)?;
    let mut records: Vec<_> = store.records().collect();
    records.sort_by(|a, b| (&a.path, &a.location).cmp(&(&b.path, &b.location)));
    let shown = |path: &str| ctx.display(std::path::Path::new(path));
    let mut missing = 0;
    for r in &records {
        let now =
            match crate::read::bytes(std::path::Path::new(&r.path), crate::read::MAX_FILE_BYTES) {
                Ok(bytes) if r.trusts(&bytes) => "trusted",
                Ok(_) => "changed",
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => "missing",
                Err(_) => "unreadable",
            };
        missing += usize::from(now == "missing");
        outln!(
            "{now:<10} {} ({}, {}, trusted {}, sha256 {})",
            shown(&r.path),
            r.location,
            r.dialect,
            r.trusted_at,
            &r.sha256[..r.sha256.len().min(12)]
        );
    }
    // Never dropped by hookx itself: a file on a volume not mounted now would come back
    // untrusted, its guard's deny lost (attacks row 1514).
    if missing > 0 {
        outln!(
            "{missing} record{} of files not found now: kept, in case they come back (a volume \
             not mounted); `hookx trust --revoke FILE…` takes back those no longer used",
            plural(missing)
        );
    }
    let legacy: Vec<_> = store.legacy_records().collect();
    for (path, r) in &legacy {
        outln!(
            "{:<10} {} (trusted {} by an older hookx that did not record where it was found: \
             not honoured; `hookx trust FILE` records it again)",
            "legacy",
            shown(path),
            r.trusted_at
        );
    }
    if records.is_empty() && legacy.is_empty() {
        outln!(
            "nothing is trusted ({} holds no records)",
            ctx.display(store.path())
        );
    }
    Ok(0)
}

/// `hookx trust --revoke FILE…`: takes back the trust of each file, at every location it was
/// trusted as.
fn revoke(ctx: &Context, files: &[PathBuf]) -> Result<i32, Error> {
    if files.is_empty() {
        return Err(Error::Usage(
            "--revoke needs the files to stop trusting (`hookx trust --list` shows them)".into(),
        ));
    }
    let mut store = TrustStore::load(ctx)?;
    let mut missing = Vec::new();
    let mut revoked = Vec::new();
    for file in files {
        let real = std::fs::canonicalize(file)
            .unwrap_or_else(|_| std::path::absolute(file).unwrap_or_else(|_| file.clone()));
        match store.revoke(&real) {
            0 => missing.push(file),
            _ => revoked.push(real),
        }
    }
    if !revoked.is_empty() {
        store.save()?;
    }
    for real in &revoked {
        outln!(
            "revoked {}: hookx no longer runs its hooks until it is trusted again",
            ctx.display(real)
        );
    }
    for file in &missing {
        errln!(
            "{}: not trusted, nothing to revoke (`hookx trust --list` shows what is)",
            file.display()
        );
    }
    Ok(if missing.is_empty() { 0 } else { 1 })
}
