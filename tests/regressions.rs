//! Every input under `tests/fixtures/regressions/<target>/` (crashes the fuzzers found, and
//! inputs kept for what they once broke) is fed to the entry point of that fuzz target: it must
//! not panic, and every error must be a proper one (at least one diagnostic, with a message and
//! a position inside the file). The entry points are `fuzz/harness.rs`, shared with the fuzz
//! targets, so a fixture replays exactly what the fuzzer ran.

#[path = "../fuzz/harness.rs"]
mod harness;

use std::path::Path;

#[test]
fn every_regression_fixture_is_handled() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/regressions");
    let mut seen = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let Some((_, run)) = harness::TARGETS.iter().find(|(t, _)| *t == name) else {
            panic!("{}: no fuzz target named `{name}`", dir.display());
        };
        let mut files: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in files {
            let data = std::fs::read(&file).unwrap();
            let outcome = std::panic::catch_unwind(|| run(&data));
            assert!(outcome.is_ok(), "{}: panicked (see above)", file.display());
            seen += 1;
        }
    }
    assert!(seen > 0, "no fixtures under {}", root.display());
}
