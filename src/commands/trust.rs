//! `hookx trust`: records the discovered hook files (or the ones named) in the trust store
//! ([`crate::trust`]), each as what discovery finds it as.

use crate::discover::{self, Context, Source};
use crate::error::Error;
use crate::plugins::Standing;
use crate::trust::TrustStore;
use std::path::PathBuf;

/// `hookx trust`: what to trust.
#[derive(Clone, Debug)]
pub struct Options {
    pub ctx: Context,
    /// Files to trust; empty means every discovered source that parses.
    pub files: Vec<PathBuf>,
}

/// One line of `hookx trust`'s report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trusted {
    pub shown: String,
    pub sha256: String,
    /// False when it was already trusted with this content.
    pub new: bool,
}

/// Trusts the given files (or every discovered source that parses) and saves the record.
/// A file is trusted as what discovery finds it as: the location its path (not its target)
/// is at. Returns what it trusted and what it skipped (with why).
pub fn trust(opts: &Options) -> Result<(Vec<Trusted>, Vec<String>), Error> {
    let mut store = TrustStore::load(&opts.ctx)?;
    let mut done = Vec::new();
    let mut skipped = Vec::new();
    let mut trust_one =
        |store: &mut TrustStore, source: &Source| match (&source.sha256, &source.document) {
            (Some(sha), Ok(_)) if source.identity().is_some() => {
                let new = store.trust_source(source);
                done.push(Trusted {
                    shown: source.display.clone(),
                    sha256: sha.clone(),
                    new,
                });
            }
            _ => skipped.push(format!(
                "{}: not trusted: {}",
                source.display,
                source
                    .error_line()
                    .unwrap_or_else(|| "cannot be read".into())
            )),
        };
    if opts.files.is_empty() {
        // A plugin that is off in every view is no hook source: trusted only when named. A
        // policy file needs no trust, and one that cannot be used is not the user's to fix
        // (`hookx doctor` says what is wrong with it).
        for source in discover::discover_trusting(&opts.ctx, &store) {
            if source
                .plugin
                .is_none_or(|p| p.agent == Standing::Loaded || p.trusted == Standing::Loaded)
                && (source.scope != crate::tables::Scope::Managed || source.document().is_some())
            {
                trust_one(&mut store, &source);
            }
        }
    } else {
        for file in &opts.files {
            let source = discover::find(&opts.ctx, file)?;
            trust_one(&mut store, &source);
        }
    }
    if done.iter().any(|t| t.new) {
        store.save()?;
    }
    Ok((done, skipped))
}
/// `hookx trust`, printing what it trusted.
pub fn command(opts: &Options) -> Result<i32, Error> {
    let (done, skipped) = trust(opts)?;
    for t in &done {
        let short = &t.sha256[..t.sha256.len().min(12)];
        if t.new {
            println!("trusted {} (sha256 {short})", t.shown);
        } else {
            println!("already trusted {} (sha256 {short})", t.shown);
        }
    }
    for s in &skipped {
        eprintln!("{s}");
    }
    if done.is_empty() && skipped.is_empty() {
        println!("no hook files found to trust");
    }
    Ok(if skipped.is_empty() { 0 } else { 1 })
}
