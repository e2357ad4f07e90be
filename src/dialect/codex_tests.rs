//! Unit tests of `codex.rs`: its patch format and its handler trust records.

mod patch {
    use super::super::patch::{decode, encode};
    use crate::model::tool::ids;
    use serde_json::json;

    #[test]
    fn recorded_patches_decode_to_write_and_edit_with_absolute_paths() {
        let add =
            json!({"command": "*** Begin Patch\n*** Add File: notes.txt\n+one\n*** End Patch\n"});
        assert_eq!(
            decode(&add, Some("/p")),
            Some((
                ids::WRITE,
                json!({"file_path": "/p/notes.txt", "content": "one\n"})
            ))
        );
        let update = json!({"command": "*** Begin Patch\n*** Update File: notes.txt\n@@\n-one\n+two\n*** End Patch\n"});
        assert_eq!(
            decode(&update, Some("/p")),
            Some((
                ids::EDIT,
                json!({"file_path": "/p/notes.txt", "old_string": "one", "new_string": "two"})
            ))
        );
        let two = json!({"command": "*** Begin Patch\n*** Update File: /a\n@@\n a\n-b\n+c\n@@ f\n-d\n*** End Patch\n"});
        assert_eq!(
            decode(&two, None),
            Some((
                ids::MULTI_EDIT,
                json!({"file_path": "/a", "edits": [
                    {"old_string": "a\nb", "new_string": "a\nc"},
                    {"old_string": "d", "new_string": ""}]})
            ))
        );
    }

    #[test]
    fn deletions_moves_several_files_and_garbage_have_no_canonical_tool() {
        for text in [
            "*** Begin Patch\n*** Delete File: a\n*** End Patch\n",
            "*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** End Patch\n",
            "*** Begin Patch\n*** Add File: a\n+x\n*** Add File: b\n+y\n*** End Patch\n",
            "*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch\n",
            "*** Begin Patch\n*** Add File: a\n+x\n",
            "not a patch",
        ] {
            assert_eq!(decode(&json!({ "command": text }), None), None, "{text}");
        }
        assert_eq!(decode(&json!("*** Begin Patch"), None), None);
    }

    #[test]
    fn an_edit_given_as_a_diff_becomes_its_hunks() {
        let diff = "\ndiff --git a/n b/n\n--- a/dev/null\n+++ b/n\n@@ -1,0 +1,1 @@\n+one\n";
        let patch = encode(ids::EDIT, &json!({"file_path": "/n", "diff": diff}), None).unwrap();
        assert_eq!(
            patch["command"],
            "*** Begin Patch\n*** Update File: /n\n@@\n+one\n*** End Patch\n"
        );
        assert_eq!(decode(&patch, None).map(|(id, _)| id), Some(ids::EDIT));
    }

    #[test]
    fn encoded_patches_decode_to_the_same_call() {
        for (id, input) in [
            (
                ids::WRITE,
                json!({"file_path": "/a/b.txt", "content": "x\ny\n"}),
            ),
            (
                ids::EDIT,
                json!({"file_path": "/a", "old_string": "o\np", "new_string": "n"}),
            ),
            (
                ids::MULTI_EDIT,
                json!({"file_path": "/a", "edits": [
                    {"old_string": "o", "new_string": "n"},
                    {"old_string": "p", "new_string": "q"}]}),
            ),
        ] {
            let patch = encode(id, &input, None).expect("encodes");
            assert_eq!(decode(&patch, None), Some((id, input.clone())), "{patch}");
        }
    }
}

mod trust {
    use super::super::trust::{hash, set, unset};
    use serde_json::json;

    /// Hashes Codex 0.171.0's `hooks/list` gave (tests/live_codex.rs checks many more).
    #[test]
    fn hashes_are_codex_hashes() {
        let handler = json!({"type": "command", "command": "echo PreToolUse"});
        assert_eq!(
            hash("PreToolUse", Some(&json!("*")), &handler),
            "sha256:a6f0fcc89bcecd46a9998ad153fed21a1b774a69c5ebbf12873357b631dd5950"
        );
    }

    /// A project folder whose name holds DEL (row 184): JSON leaves it raw, TOML refuses it
    /// raw, so the install failed ("invalid basic string"); escaped, the record reads back.
    #[test]
    fn a_key_holding_del_is_written_as_toml_reads_it() {
        let key = "/p/we\u{7f}ird/.codex/hooks.json:pre_tool_use:0:0".to_string();
        let records = vec![(key.clone(), "sha256:1".to_string())];
        let text = set("model = \"o3\"\n", &records).unwrap();
        assert!(text.contains("we\\u007Fird"), "{text}");
        assert_eq!(
            super::super::trust::recorded(&text, &key).as_deref(),
            Some("sha256:1")
        );
        assert_eq!(unset(&text, &[key]).unwrap(), "model = \"o3\"\n");
    }

    #[test]
    fn records_are_set_and_unset_keeping_every_other_line() {
        let text = "# mine\nmodel = \"o3\"\n\n[hooks.state.\"/a:stop:0:0\"]\nenabled = false\n";
        let records = vec![
            ("/a:stop:0:0".to_string(), "sha256:1".to_string()),
            ("/a:pre_tool_use:0:1".to_string(), "sha256:2".to_string()),
        ];
        let set_once = set(text, &records).unwrap();
        assert_eq!(
            set_once,
            "# mine\nmodel = \"o3\"\n\n[hooks.state.\"/a:stop:0:0\"]\ntrusted_hash = \"sha256:1\"\nenabled = false\n\n[hooks.state.\"/a:pre_tool_use:0:1\"]\ntrusted_hash = \"sha256:2\"\n"
        );
        assert_eq!(set(&set_once, &records).unwrap(), set_once);
        let changed = vec![("/a:stop:0:0".to_string(), "sha256:3".to_string())];
        assert!(
            set(&set_once, &changed)
                .unwrap()
                .contains("trusted_hash = \"sha256:3\"\nenabled")
        );
        let gone = unset(&set_once, &["/a:pre_tool_use:0:1".to_string()]).unwrap();
        assert_eq!(
            gone,
            "# mine\nmodel = \"o3\"\n\n[hooks.state.\"/a:stop:0:0\"]\ntrusted_hash = \"sha256:1\"\nenabled = false\n"
        );
    }

    /// A config saved with CRLF line ends (a Windows editor, a synced dotfile) keeps them:
    /// the record comes in CRLF, and taking it out gives back the file byte for byte (every
    /// line of it turned LF, plus a blank line at the end, before).
    #[test]
    fn a_crlf_config_gets_its_records_in_crlf_and_comes_back_byte_for_byte() {
        let text = "# mine\r\nmodel = \"o3\"\r\n\r\n[tui]\r\nx = 1\r\n";
        let key = "/a:pre_tool_use:0:0".to_string();
        let with = set(text, &[(key.clone(), "sha256:1".to_string())]).unwrap();
        assert_eq!(
            with.matches('\n').count(),
            with.matches("\r\n").count(),
            "{with:?}"
        );
        assert_eq!(unset(&with, &[key]).unwrap(), text);
    }

    /// A config with both line ends (a file edited on two systems) keeps each line's own:
    /// an uninstall that takes no record out, or the one install put in, gives it back byte
    /// for byte (attacks row 139: every LF line became CRLF).
    #[test]
    fn a_config_with_mixed_line_ends_comes_back_byte_for_byte() {
        let text = "model = \"o3\"\r\n[tui]\ntheme = \"x\"\n";
        let key = "/a:pre_tool_use:0:0".to_string();
        assert_eq!(unset(text, std::slice::from_ref(&key)).unwrap(), text);
        let with = set(text, &[(key.clone(), "sha256:1".to_string())]).unwrap();
        let again = set(&with, &[(key.clone(), "sha256:2".to_string())]).unwrap();
        assert_eq!(again.replace("sha256:2", "sha256:1"), with);
        assert_eq!(unset(&with, &[key]).unwrap(), text);
    }

    #[test]
    fn files_hookx_cannot_edit_are_refused() {
        let records = vec![("/a:stop:0:0".to_string(), "sha256:1".to_string())];
        assert!(set("model = ", &records).unwrap_err().contains("line 1"));
        let inline = "hooks = { state = { \"/a:stop:0:0\" = { enabled = true } } }\n";
        assert!(set(inline, &records).is_err());
    }
}
