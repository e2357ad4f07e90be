//! What handlers decided, in canonical form, and how several decisions merge.

use serde::Serialize;
use serde_json::Value;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    // Order matters: merging keeps the greatest (deny beats ask beats allow).
    Allow,
    Ask,
    Deny,
}

/// One handler's answer, or the merge of several.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Outcome {
    /// PreToolUse / PermissionRequest permission decision.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// Reasons given for the decision (or for a block), in handler order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    /// `decision: block` (Stop, PostToolUse, UserPromptSubmit, …) or exit 2.
    pub block: bool,
    /// Replacement tool arguments, under canonical (Claude) names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_input: Option<Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub additional_context: Vec<String>,
    /// `continue: false` stops the agent.
    pub stop: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub system_messages: Vec<String>,
    pub suppress_output: bool,
    /// PermissionRequest: interrupt the agent after a deny.
    pub interrupt: bool,
    /// UserPromptSubmit: the prompt to send instead of the user's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified_prompt: Option<String>,
    /// PostToolUse: the tool result the model sees instead, as the handler wrote it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub modified_result: Option<Value>,
    /// The dialect whose shape `modified_result` is in (its handler's), for a host that takes
    /// a replacement only in the tool's own shape.
    #[serde(skip)]
    pub modified_result_of: &'static str,
    /// Non-blocking errors (a crash, a timeout, unreadable output), shown to the user.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

/// The result the model is given where two handlers replaced the call's result differently,
/// read as the host's own shape (`modified_result_of` no handler's).
pub const TWO_RESULTS: &str = "hookx withheld this tool result: two hooks replaced it differently, and neither replacement keeps the other's change";

/// The reason of a call two handlers rewrote differently.
pub const TWO_REWRITES: &str = "hookx denied this call: two hooks rewrote its input differently, and neither rewrite keeps the other's change";

impl Outcome {
    /// Folds another handler's answer into this one: deny beats ask beats allow, block and stop
    /// win, reasons, context and messages are concatenated in order, the last prompt or result
    /// wins; two different updated inputs deny the call.
    pub fn merge(&mut self, other: Outcome) {
        self.decision = self.decision.max(other.decision);
        self.reasons.extend(other.reasons);
        self.block |= other.block;
        match (&self.updated_input, other.updated_input) {
            // Two handlers rewrote the call differently, each from the original: either
            // rewrite alone undoes the other's change (a sanitizer's among them), so the call
            // is denied (attacks row 1022).
            (Some(mine), Some(theirs)) if *mine != theirs => {
                self.decision = Some(Decision::Deny);
                self.reasons.push(TWO_REWRITES.into());
            }
            (_, Some(theirs)) => self.updated_input = Some(theirs),
            (_, None) => {}
        }
        self.additional_context.extend(other.additional_context);
        self.stop |= other.stop;
        if self.stop_reason.is_none() {
            self.stop_reason = other.stop_reason;
        }
        self.system_messages.extend(other.system_messages);
        self.suppress_output |= other.suppress_output;
        self.interrupt |= other.interrupt;
        if other.modified_prompt.is_some() {
            self.modified_prompt = other.modified_prompt;
        }
        match (&self.modified_result, other.modified_result) {
            // Two handlers replaced the result differently, each from the original: the later
            // replacement alone undoes the earlier's (a redaction's), so the model is given
            // neither, and no text of the original (attacks row 1961).
            (Some(mine), Some(theirs))
                if (mine, self.modified_result_of) != (&theirs, other.modified_result_of) =>
            {
                self.modified_result = Some(Value::String(TWO_RESULTS.into()));
                self.modified_result_of = "";
            }
            (_, Some(theirs)) => {
                self.modified_result = Some(theirs);
                self.modified_result_of = other.modified_result_of;
            }
            (_, None) => {}
        }
        self.errors.extend(other.errors);
    }

    /// Folds another of a host's own handlers' answers in as the host does: as [`Self::merge`],
    /// but a later rewrite takes the place of an earlier one. No agent denies a call two of
    /// its hooks rewrote differently (that is hookx's answer, attacks row 1022): Gemini CLI
    /// 0.61.0 and Codex CLI 0.171.0 ran the second hook's rewrite (attacks row 1906). A later
    /// replaced result likewise, as [`Self::merge_a_later_result`].
    pub fn merge_as_a_host(&mut self, mut other: Outcome) {
        let theirs = other.updated_input.take();
        self.merge_a_later_result(other);
        if theirs.is_some() {
            self.updated_input = theirs;
        }
    }

    /// As [`Self::merge`], but a later replaced result takes the place of an earlier one, as a
    /// host takes its hooks' in their order: withholding both is hookx's answer for its own
    /// handlers (attacks row 1961). Claude Code 2.1.332 gave the model the last of its hooks'
    /// `updatedToolOutput`, hookx's route's after its own (live, attacks row 1962).
    pub fn merge_a_later_result(&mut self, mut other: Outcome) {
        let result = other
            .modified_result
            .take()
            .map(|r| (r, other.modified_result_of));
        self.merge(other);
        if let Some((result, of)) = result {
            self.modified_result = Some(result);
            self.modified_result_of = of;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deny_beats_ask_beats_allow() {
        let mut merged = Outcome {
            decision: Some(Decision::Allow),
            ..Outcome::default()
        };
        merged.merge(Outcome {
            decision: Some(Decision::Deny),
            reasons: vec!["no".into()],
            ..Outcome::default()
        });
        merged.merge(Outcome {
            decision: Some(Decision::Ask),
            ..Outcome::default()
        });
        assert_eq!(merged.decision, Some(Decision::Deny));
        assert_eq!(merged.reasons, vec!["no".to_string()]);
    }
}
