//! The live suites' test harness (libtest-mimic; `harness = false` for each `live_*` target in
//! Cargo.toml). A suite whose client is not installed shows every test as ignored and says why,
//! instead of passing tests that checked nothing; a suite that runs says which client versions
//! it runs against. With `HOOKX_LIVE=require` nothing is ignored for a missing client: the tests
//! run, and fail on it. Included with `#[path]`; each suite's `main` calls [`main`].

use libtest_mimic::{Arguments, Trial};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What a suite needs to run.
pub enum Need {
    /// A pinned client (`what`, as people name it) at `rel` below the conformance cache
    /// (every suite but precommit_hook, which needs no client of hookx's pins).
    #[allow(dead_code)]
    Client { what: &'static str, rel: String },
    /// Anything else (`what` the suite needs, and whether this machine has it); only some
    /// suites have such needs.
    #[allow(dead_code)]
    Condition { what: &'static str, met: bool },
}

/// A pinned client at `rel` below the conformance cache.
#[allow(dead_code)]
pub fn client(what: &'static str, rel: impl Into<String>) -> Need {
    Need::Client {
        what,
        rel: rel.into(),
    }
}

/// Where `conformance/install-clients.sh` installs the clients: `$HOOKX_CLIENTS`, else
/// `~/.cache/hookx-conformance` (as every suite's client module finds them).
fn clients_root() -> PathBuf {
    std::env::var_os("HOOKX_CLIENTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var("HOME").unwrap_or_default()).join(".cache/hookx-conformance")
        })
}

/// The version in the `package.json` nearest above `bin` (the npm package that holds it).
fn package_version(bin: &Path, root: &Path) -> Option<String> {
    let mut dir = bin.parent();
    while let Some(d) = dir {
        if !d.starts_with(root) {
            break;
        }
        if let Ok(text) = std::fs::read_to_string(d.join("package.json")) {
            let value: serde_json::Value = serde_json::from_str(&text).ok()?;
            return value["version"].as_str().map(str::to_string);
        }
        dir = d.parent();
    }
    None
}

/// Runs `tests` (name, body) under libtest-mimic's command line (filters, `--list`,
/// `--test-threads`, `RUST_TEST_THREADS`, `--ignored`). When a need is missing, each test is
/// ignored and the reason printed, unless `HOOKX_LIVE=require`; otherwise the versions of the
/// clients the suite runs against are printed first.
pub fn main(suite: &str, needs: &[Need], tests: Vec<(&'static str, fn())>) -> ExitCode {
    let mut args = Arguments::from_args();
    if args.test_threads.is_none() {
        args.test_threads = std::env::var("RUST_TEST_THREADS")
            .ok()
            .and_then(|n| n.parse().ok());
    }
    let root = clients_root();
    let mut missing = Vec::new();
    let mut running = Vec::new();
    for need in needs {
        match need {
            Need::Client { what, rel } => {
                let bin = root.join(rel);
                if bin.is_file() {
                    let version =
                        package_version(&bin, &root).unwrap_or_else(|| "(version unknown)".into());
                    running.push(format!("{what} {version} ({})", bin.display()));
                } else {
                    missing.push(format!(
                        "{what} is not installed at {} (conformance/install-clients.sh)",
                        bin.display()
                    ));
                }
            }
            Need::Condition { what, met } => {
                if !met {
                    missing.push(format!("this machine lacks {what}"));
                }
            }
        }
    }
    let required = std::env::var("HOOKX_LIVE").as_deref() == Ok("require");
    let ignore = !missing.is_empty() && !required;
    let kind = match missing.iter().any(|m| m.contains("not installed")) {
        true => "no client",
        false => "not on this machine",
    };
    if !args.list {
        for why in &missing {
            match required {
                true => println!("{suite}: HOOKX_LIVE=require, so the tests run and fail: {why}"),
                false => println!("{suite}: every test ignored: {why}"),
            }
        }
        if missing.is_empty() && !running.is_empty() {
            println!("{suite}: runs against {}", running.join(", "));
        }
    }
    let trials = tests
        .into_iter()
        .map(|(name, body)| {
            let trial = Trial::test(name, move || {
                body();
                Ok(())
            });
            match ignore {
                true => trial.with_ignored_flag(true).with_kind(kind),
                false => trial,
            }
        })
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}

/// `(name, body)` for each test function named, as [`main`] takes them.
macro_rules! live_tests {
    ($($path:path),+ $(,)?) => {
        vec![$((stringify!($path), $path as fn())),+]
    };
}
