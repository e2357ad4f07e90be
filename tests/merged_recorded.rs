//! What each real client made of two hooks answering one tool call their own ways (recorded by
//! the live suites in `tests/fixtures/merged/CLIENT-VERSION.json`, see
//! `live_common/merge_probe.rs`), against what `hookx simulate --host CLIENT` says of the same
//! file: whether the call ran, as whose rewrite, and a deny's texts (attacks rows 1900-1919).

#[path = "live_common/merge_probe.rs"]
mod merge_probe;

use std::path::PathBuf;

#[test]
fn simulate_merges_several_hooks_answers_as_each_recorded_client_did() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/merged");
    let hookx = PathBuf::from(env!("CARGO_BIN_EXE_hookx"));
    let mut seen = 0;
    let mut differ = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let file = entry.unwrap().path();
        let text = std::fs::read_to_string(&file).unwrap();
        let rec: merge_probe::Recording =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        seen += 1;
        differ.extend(merge_probe::against_hookx(&hookx, &rec));
    }
    assert!(seen > 0, "no recording under {}", root.display());
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
