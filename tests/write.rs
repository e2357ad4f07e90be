//! hookx's one writer as `hookx trust` uses it: through a symlinked record (install and
//! `convert --write` are tested in `install.rs` and `cli.rs`).

mod common;

use serde_json::Value;

fn record(home: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(home.join(".hookx/trust.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[cfg(unix)]
#[test]
fn trust_writes_through_a_symlinked_record() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let (project, home) = (root.join("project"), root.join("home"));
    let hooks = common::write(&project, ".bricks/hooks.json", r#"{"hooks": {}}"#);
    let real = common::write(
        &root,
        "dotfiles/trust.json",
        "{\"version\": 1, \"files\": {}}\n",
    );
    std::fs::create_dir_all(home.join(".hookx")).unwrap();
    let link = home.join(".hookx/trust.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    common::hookx_at(&project, &home, &["trust", hooks.to_str().unwrap()]).success();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let files = &record(&home)["files"];
    assert!(files.get(hooks.to_str().unwrap()).is_some(), "{files}");
}
