//! Links the `hookx` executable on Linux as a position-dependent (non-PIE) program.
//!
//! `hookx run` is started for every tool call. As a PIE, the dynamic loader first patches about
//! 20 000 pointers in hookx's tables (one relocation each): a quarter of the instructions of a
//! one-rule `hookx run` (1.13 M against 0.86 M, BENCHMARKS.md). Without PIE they are fixed at
//! link time. The code itself is still compiled position-independent, so this only changes the
//! final link, and only of the executable: proc-macro crates and tests are untouched, which
//! `RUSTFLAGS` could not do. The cost: the executable's own code is not at a random address.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
