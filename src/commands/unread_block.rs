//! A handler that answers `decision: block` on an event where its own agent acts on no such
//! block ([`crate::tables::ProtocolTables::block_unread`]: Copilot CLI's camelCase `preToolUse`,
//! Droid's `PreToolUse`). hookx, running it under another host, reads the block as a deny
//! (attacks row 1903: kept, it gains denies and loses none), so the call its own agent runs is
//! denied there. `validate` and `doctor` say so where the handler's text shows the answer: its
//! command line, or a script the line names (attacks row 2020).

use crate::model::{Handler, HandlerKind};
use crate::tables::Rule;
use std::path::Path;
use std::sync::LazyLock;

/// A script read for the answer is at most this long; a longer one is not read.
const MAX_SCRIPT: u64 = 256 * 1024;

/// `decision` set to `block` in JSON, a shell `jq`/`printf` line, Python or JavaScript.
static BLOCK: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r#"["']?\bdecision\\?["']?\s*[:=]\s*\\?["']block\b"#).expect("valid regex")
});

/// The sentence for `handler` of `rule`, where its agent acts on no `decision: block` on the
/// rule's event and the handler's text answers one. Words of its command line are looked up as
/// files below each of `roots` (the project, the handler's folder), first found first.
pub fn note(rule: &Rule, handler: &Handler, roots: &[&Path]) -> Option<String> {
    let tables = rule.flavor.tables();
    if !tables.protocol.block_unread.contains(&rule.event) {
        return None;
    }
    let HandlerKind::Command(command) = &handler.kind else {
        return None;
    };
    let line = command.unix_line()?;
    let said = BLOCK.is_match(line)
        || crate::shell::split_words(line)
            .unwrap_or_default()
            .iter()
            .take(32)
            .any(|word| script_blocks(word, roots));
    if !said {
        return None;
    }
    let event = tables.event_name(&rule.event).unwrap_or(rule.event.name());
    let product = rule.flavor.dialect().def().product;
    Some(format!(
        "this handler answers `decision: block`, which {product} does not act on at `{event}` \
         (only a permission decision denies there): the call runs under {product}, but hookx, \
         running the rule under another agent, reads the block as a deny"
    ))
}

/// The fix [`note`] suggests: one answer both read alike.
pub const FIX: &str = "to deny under both, answer a permission decision (`permissionDecision: \
                       \"deny\"`); to let the call run under both, drop the block";

/// Whether `word` names a small file below one of `roots` whose text answers a block.
fn script_blocks(word: &str, roots: &[&Path]) -> bool {
    let word = word.trim_start_matches("./");
    if word.is_empty() || word.starts_with('-') || word.contains('$') {
        return false;
    }
    let paths = match Path::new(word).is_absolute() {
        true => vec![Path::new(word).to_path_buf()],
        false => roots.iter().map(|r| r.join(word)).collect(),
    };
    paths.iter().any(|p| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= MAX_SCRIPT)
            && crate::read::text(p, MAX_SCRIPT).is_ok_and(|t| BLOCK.is_match(&t))
    })
}
