//! Links the `hookx` executable on Linux as a position-dependent (non-PIE) program.
//!
//! `hookx run` is started for every tool call. As a PIE, the dynamic loader first patches about
//! 20 000 pointers in hookx's tables (one relocation each): a quarter of the instructions of a
//! one-rule `hookx run` (1.13 M against 0.86 M, BENCHMARKS.md). Without PIE they are fixed at
//! link time. The code itself is still compiled position-independent, so this only changes the
//! final link, and only of the executable: proc-macro crates and tests are untouched, which
//! `RUSTFLAGS` could not do. The cost: the executable's own code is not at a random address.
//!
//! It also sets `HOOKX_BUILD` ([`build_id`]), which `hookx::hash::BUILD` reads.
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    for input in INPUTS {
        println!("cargo:rerun-if-changed={input}");
    }
    println!("cargo:rustc-env=HOOKX_BUILD={}", build_id());
}

/// What a build is made of: its sources (tables included), its manifest and its locked
/// dependencies.
const INPUTS: &[&str] = &["src", "Cargo.toml", "Cargo.lock"];

/// The version and a hash (64-bit FNV-1a) of every file of [`INPUTS`], by path, in order:
/// two builds of other sources differ even where the version does not (it stayed 0.1.0
/// through every change). What `hookx run` remembers in `~/.hookx` under a key made with it
/// is never read by another build (attacks row 1340).
fn build_id() -> String {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let mut files = Vec::new();
    for input in INPUTS {
        collect(&root.join(input), &mut files);
    }
    files.sort();
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |bytes: &[u8]| {
        for b in bytes {
            hash = (hash ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for file in &files {
        let name = file.strip_prefix(&root).unwrap_or(file);
        mix(name.to_string_lossy().as_bytes());
        mix(&[0]);
        mix(&std::fs::read(file).unwrap_or_default());
        mix(&[0]);
    }
    format!(
        "{}+{hash:016x}",
        std::env::var("CARGO_PKG_VERSION").unwrap_or_default()
    )
}

/// The files at or below `path`.
fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    match std::fs::read_dir(path) {
        Ok(entries) => {
            for entry in entries.flatten() {
                collect(&entry.path(), files);
            }
        }
        Err(_) if path.is_file() => files.push(path.to_path_buf()),
        Err(_) => {}
    }
}
