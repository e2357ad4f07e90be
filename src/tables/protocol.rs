//! [`ProtocolTables`]: the run-time half of a flavour's tables. How its payloads are shaped
//! and cased, what environment its handlers get, and how its exit codes and answer fields are
//! read, as data read by `crate::protocol`.

use crate::model::event::{AGENT_ID, TOOL_USE_ID};
use crate::model::{Decision, EventKind};

/// The protocol half of a flavour's tables.
pub struct ProtocolTables {
    /// The payload key that names the event.
    pub event_key: &'static str,
    /// `None`: every payload names its event under `event_key`. `Some`: only these events do,
    /// with the name written (Copilot's camelCase payloads name no event, except
    /// `notification`, which says `"Notification"`).
    pub event_key_only: Option<&'static [(EventKind, &'static str)]>,
    /// For payloads that name no event: the native keys that identify each event, tried in
    /// order (all keys of a row must be present).
    pub event_shapes: &'static [(EventKind, &'static [&'static str])],
    /// Keys written as they are whatever the key case (Copilot's camelCase notification
    /// payload has snake_case `notification_type`).
    pub verbatim_keys: &'static [&'static str],
    /// The decoded fields that name one tool call or one subagent, each part of an event's
    /// identity ([`crate::claim::identity`]): [`CANONICAL_CALL_KEYS`], and any id the flavour's
    /// payloads keep under a name of their own.
    pub call_keys: &'static [&'static str],
    pub tool_args: ArgsForm,
    /// Native keys (result type, text) of the tool-result envelope; `None`: the tool response is
    /// passed on as the tool returned it.
    pub tool_result_keys: Option<(&'static str, &'static str)>,
    /// The payload key of an MCP call's `{server_name, tool_name}`, which names the parts of
    /// an MCP tool name exactly (Gemini CLI `mcp_context`).
    pub mcp_context_key: Option<&'static str>,
    /// For an agent whose payload nests the event's own keys (Cline's `preToolUse: {toolName,
    /// parameters}`): the functions between its payload and the flat form every other row
    /// reads. `None`: its payloads are flat.
    pub reshape: Option<Reshape>,
    /// For an agent with no matcher of its own, whose wrapped copies keep a rule's matcher only
    /// in `hookx exec --match`: how their not-installed guard reads the call's tool name, so
    /// that a call the matcher never guards goes on without hookx (attacks rows 1203, 1209).
    /// `None`: the guard denies every call.
    pub guard_reads_name: Option<NameRead>,
    /// Environment variables a handler of this flavour expects.
    pub env: &'static [(&'static str, EnvValue)],
    /// The variables the agent also writes into the command's text, its value quoted, before
    /// the shell reads it (Gemini CLI): a guard written `$GEMINI_PROJECT_DIR/guard.sh` runs in
    /// a folder whose path has a space under its own agent, and must under hookx too. Those
    /// not in `env` hookx leaves to the shell; convert keeps each from the agent's writing.
    pub command_text_env: &'static [&'static str],
    /// Events on which plain (non-JSON) stdout at exit 0 becomes additional context.
    pub plain_stdout_context: &'static [EventKind],
    /// What exit code 2 means, per event; on other events it is a non-blocking error.
    pub exit2: &'static [(EventKind, Exit2)],
    /// How a handler's exit code and output are read.
    pub exit_codes: ExitCodes,
    /// The exit code a handler killed by a signal is read as, where the client starts the
    /// command itself and reads the signal so (Auggie 0.36.0: exit 0, its stdout then the
    /// answer; attacks row 824); hookx's shell's exit 128 + N for it is read so too. `None`: the
    /// handler failed.
    pub signal_exit: Option<i32>,
    /// The exit code by which a handler makes the agent abort itself (Droid 0.225.2: 3, "Agent
    /// aborted by PreToolUse hook", "… by Stop hook"): read as a stop, as a deny on the events
    /// that guard a call, and as a block on [`AbortExit::blocks`], so that what the agent
    /// would not have run does not run elsewhere (attacks rows 1577, 1724). `None`: no such
    /// code.
    pub abort_exit: Option<AbortExit>,
    /// Where in a handler's output its answer is, beside its whole stdout (read under
    /// `ExitCodes::ByCode` and `ExitCodes::ByCodeAndJson`).
    pub answer_text: AnswerText,
    /// Events on which any failure but a timeout denies (fail-closed).
    pub failure_denies: &'static [EventKind],
    /// hookx's own failure policy: the events on which hookx answers a deny when it cannot do
    /// its job (a bad payload, no home, an unevaluable trusted matcher, an internal error).
    /// Every other event passes with a non-blocking error. Read through
    /// [`ProtocolTables::fails_closed`]; see `crate::dispatch::failure`.
    pub fail_closed: &'static [EventKind],
    /// Where the answer JSON carries each slot, in the order read and written.
    pub answer: &'static [AnswerField],
    /// Whether an answer's updated tool input holds only the arguments to change, merged
    /// (shallow) into the call's own (Gemini CLI `hookSpecificOutput.tool_input`), rather than
    /// the whole new input.
    pub updated_input_merges: bool,
    /// Whether the host runs an updated tool input only beside an `allow` in the same answer,
    /// and refuses (runs the original call) an answer that carries one with any other decision
    /// or none, a deny included (Codex CLI). As a host hookx writes `allow` with the input when
    /// no handler decided (or one asked, which the host cannot), never the input beside a deny;
    /// from such a handler it reads the input only beside its `allow`.
    pub updated_input_needs_allow: bool,
    /// Whether a handler's reason with no deny or block beside it is context for the model
    /// (Cline's `errorMessage` without `cancel`: the call runs and the text reaches the model,
    /// run 3.0.65; its source reads `context ?? contextModification ?? errorMessage` as the
    /// context when there is no cancel). Context the answer also carries comes first and the
    /// reason is then unused, as in the client. hookx writes context in the context field,
    /// which the client reads first, and the reason only beside a deny or block.
    pub reason_alone_is_context: bool,
    /// The answer object that must name its event, and the key naming it.
    pub answer_event_key: Option<(&'static str, &'static str)>,
    /// Permission decisions the answer JSON can carry (others fall back to default behaviour).
    pub permission_values: &'static [Decision],
    /// Permission decision strings that make no decision and leave it to the host's own flow.
    pub permission_passes: &'static [&'static str],
    /// Permission decision strings that put the call off for someone outside the agent to
    /// decide (Claude's `defer`): read as an ask (the call does not run unless someone allows
    /// it), its rewrite dropped, as the agent defers the call as it came.
    pub permission_defers: &'static [&'static str],
    /// As a host: events whose hooks share one time budget in all, whatever each one's own
    /// timeout (Claude's SessionEnd), in milliseconds, and the host's variable that overrides
    /// it. hookx answers within it, as within its route's limit
    /// ([`crate::tables::RouteSpec::limit`]).
    pub hook_budget: &'static [(EventKind, u64, Option<&'static str>)],
    /// Events on which the agent acts on no block and no stop in a hook's answer (a
    /// `decision: block`, a blocking exit code, `continue: false`): it reads only context or a
    /// message there. A handler of this flavour that blocks there is read as its own agent reads
    /// it, a note, and never becomes a block another host acts on (attacks row 1320: a Gemini
    /// `PreCompress` hook's block, which Gemini ignores, stopped Claude Code's compaction).
    pub ignored_blocks: &'static [EventKind],
    /// How the agent folds several of its own hooks' permission decisions on one tool call
    /// ([`PermissionFold`]; attacks rows 2040-2059).
    pub permission_fold: PermissionFold,
    /// Whether the agent, running several of its hooks on one tool call side by side, runs the
    /// rewrite of the one that ends last (Claude Code 2.1.332, attacks row 2052; Codex CLI
    /// 0.171.0, row 2220): which one runs is then a race, which `simulate` says where two differ.
    pub rewrite_race: bool,
    /// Events on which the agent reads no `decision` in a JSON answer (its schema for the event
    /// has none, or its code looks at the exit code alone), though an exit code's block or
    /// `continue: false` still counts there: a handler's JSON `decision: block` on them is a
    /// note, and never becomes a block another host acts on (attacks row 1571: a Codex or
    /// Droid `PreCompact` hook's JSON block stopped Claude Code's compaction).
    pub decision_ignored: &'static [EventKind],
    /// Events where the agent acts on no JSON `decision: block` of its own hooks (on a tool
    /// call's guard only a permission decision denies), while hookx, running such a handler
    /// under another host, reads it as the deny it spells elsewhere: kept so (it gains denies,
    /// loses none; attacks row 1903), and said by `validate` and `doctor` where a handler's
    /// text answers so ([`crate::commands::unread_block`], row 2020).
    pub block_unread: &'static [EventKind],
    /// Events on which a block the host acts on takes the place of the tool's result the model
    /// sees (Gemini CLI 0.61.0 AfterTool: `{"error": REASON}`; Codex CLI 0.171.0 PostToolUse:
    /// the reason; Copilot CLI 1.0.102 postToolUse, both casings: "Tool result blocked:
    /// REASON"; all run). A hook's replacement of the result (a redaction) that the host has no
    /// field for is answered there with such a block, so the result the hook withheld never
    /// reaches the model (attacks row 1550); elsewhere it is a note.
    pub block_withholds_result: &'static [EventKind],
    /// How the agent's payloads give a tool's result, per kind of tool: what a handler of
    /// this flavour is given when another agent's result is read into its parts (attacks rows
    /// 1554, 1555: a Claude scanner on `.tool_response.stdout` read null under every other
    /// host). Each form of a tool is tried in order when reading; the first holding no `${_}`
    /// is written. A tool with no form here gets the host's result as the host sent it.
    pub result_forms: &'static [ResultForm],
    /// What a hook's `allow` on a tool call gets past in this agent's own permission flow (not
    /// a permission request's, where an allow is the approval in every agent). As a host, hookx
    /// passes a handler's allow on only where it gets past no more than in the handler's own
    /// agent; else the host's flow decides (attacks row 1496: a Gemini hook's allow, which
    /// Gemini's approval policy outranks, ran a call Copilot CLI's `--deny-tool` refuses).
    pub allow_reach: AllowReach,
    /// How a tool call that failed shows in this flavour's payloads, read by selection and by
    /// the payload encoder ([`crate::protocol::failed`]; attacks rows 1552, 1553, 1610).
    pub failed_call: FailedCall,
    /// A context the host drops on one event of a tool call and delivers on a later one of the
    /// same call, both naming the call: `hookx run` carries it there
    /// ([`crate::dispatch::carry`], attacks rows 1383, 1650). `None`: the host delivers it where
    /// it comes, or its payloads name no call, and a carried context could reach another call.
    pub carried_context: Option<CarriedContext>,
    /// Whether the agent gives the model what a handler it runs in the background (`async`)
    /// answers, once it ends: its context and messages, with a later request (Claude Code
    /// 2.1.332, live: attacks rows 2004, 2203). `hookx run` keeps them for the session's next
    /// event whose answer the host takes context from ([`crate::dispatch::carry`]).
    pub late_answer: bool,
}

/// See [`ProtocolTables::failed_call`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailedCall {
    /// A failed call fires an event of its own, PostToolUseFailure with the canonical `error`
    /// text; PostToolUse follows a call that succeeded only (Claude, Qwen, Copilot, Cursor).
    OwnEvent,
    /// PostToolUse follows every call, a failed one marked in its payload (Gemini CLI's
    /// `tool_response.error`, Cline's `success: false` on the call or on a record of its
    /// result, Auggie's `tool_error`): any of the marks; the first is the one written for a
    /// handler of this flavour.
    Marked(&'static [FailMark]),
    /// PostToolUse follows every call, and its payload does not tell a failed one apart (Codex's
    /// result is the command's output text), or no client here showed how.
    Unmarked,
    /// PostToolUse follows a call that succeeded; a failed call of one of these tools
    /// (canonical ids, [`EVERY_TOOL`] for all) fires no post event at all, and a failed call
    /// of another fires PostToolUse unmarked (run: Droid 0.225.2 after every failed call,
    /// Codex 0.171.0 after a patch that does not apply; attacks rows 1841, 1842).
    Unfired(&'static [&'static str]),
}

/// [`FailedCall::Unfired`] for every tool.
pub const EVERY_TOOL: &[&str] = &["*"];

/// Where a flavour's post event marks a failed call, in canonical keys (after its reshape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailMark {
    /// The value that marks it: a failed call when it is there and not null (or `false`, when
    /// [`FailMark::is_false`]).
    pub path: &'static [&'static str],
    /// Whether the mark is the value `false` (Cline's `success`), rather than any value.
    pub is_false: bool,
    /// Where the failure's text is (the same as `path` where the mark is the text). Written
    /// with the text for a handler of this flavour when another host's failure is shown to it.
    pub message: &'static [&'static str],
}

/// See [`ProtocolTables::abort_exit`].
#[derive(Clone, Copy, Debug)]
pub struct AbortExit {
    pub code: i32,
    /// Events on which the code blocks what the hook was asked about, as a block does (Droid
    /// 0.225.2: the prompt on UserPromptSubmit, the compaction on PreCompact, as its exit 2
    /// there): a block too, beside the stop, for a host that acts on only one of them (Codex
    /// takes no stop on UserPromptSubmit; Claude Code no stop on PreCompact). Not where a
    /// block makes the agent go on (Stop).
    pub blocks: &'static [EventKind],
}

/// See [`ProtocolTables::carried_context`].
#[derive(Debug)]
pub struct CarriedContext {
    /// The event whose context the host drops.
    pub from: EventKind,
    /// The later events of the same call whose context reaches the model.
    pub to: &'static [EventKind],
    /// The decoded field that names the call in both events' payloads, the same value on both.
    pub call_key: &'static str,
}

/// One shape of a tool's result in an agent's payloads ([`ProtocolTables::result_forms`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResultForm {
    /// The tool (a canonical id), or `None` for every MCP tool.
    pub tool: Option<&'static str>,
    /// The result as JSON text (the canonical envelope keys of
    /// [`ProtocolTables::tool_result_keys`] where the flavour has one), its strings holding
    /// parts: `${stdout}`, `${stderr}`, `${output}` (stdout, then stderr on a line of its own
    /// if any: the one text of both streams most agents give), `${exit_code}`, `${error}` (a
    /// line of the agent's own error, the stderr where there is none), `${_}`
    /// (anything on one line, read and dropped: a form holding one is never written),
    /// `${shown}` (the output where the agent shows it the user) and `${input.KEY}` (the
    /// call's canonical argument), `${lines}` (the output's count of lines, a number): these
    /// are written, never read. A string that is
    /// `${exit_code}` alone is a number. A string read matches when its texts
    /// around the parts do; a part that ends a string before the closing text takes the most
    /// it can, so output holding the closing text stays output.
    pub json: &'static str,
    /// The value is sent JSON-encoded, as a string (Droid's file results).
    pub encoded: bool,
    /// The agent takes this form, written, as a hook's replacement of the result (Claude's
    /// `updatedToolOutput` must have the tool's own output shape, or the original output stays:
    /// a form is marked so where a live run showed the agent take it, or its bundle reads no
    /// shape, attacks row 1633).
    pub replaces: bool,
}

impl ResultForm {
    /// A form of `tool`'s result.
    pub const fn of(tool: &'static str, json: &'static str) -> ResultForm {
        ResultForm {
            tool: Some(tool),
            json,
            encoded: false,
            replaces: false,
        }
    }

    /// A form of every MCP tool's result.
    pub const fn mcp(json: &'static str) -> ResultForm {
        ResultForm {
            tool: None,
            json,
            encoded: false,
            replaces: false,
        }
    }

    /// This form, which the agent takes as a hook's replacement of the result.
    pub const fn replaces(self) -> ResultForm {
        ResultForm {
            replaces: true,
            ..self
        }
    }

    /// This form, sent JSON-encoded.
    pub const fn encoded(self) -> ResultForm {
        ResultForm {
            encoded: true,
            ..self
        }
    }
}

/// See [`ProtocolTables::allow_reach`]; ordered, each reaching past what the one before does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum AllowReach {
    /// Nothing: the agent's own approval (or policy, sandbox) still decides, or it reads no
    /// allow at all.
    Nothing,
    /// The agent's permission prompt: the call runs unasked where the user would have been
    /// asked (or refused, with nobody to ask); the user's own deny and ask rules still hold.
    Prompt,
    /// The prompt and the user's own deny rules.
    DenyRules,
}

/// The canonical fields that name one tool call and one subagent (attacks rows 463, 508), which
/// most flavours decode theirs to.
pub const CANONICAL_CALL_KEYS: &[&str] = &[TOOL_USE_ID, AGENT_ID];

/// See [`ProtocolTables::reshape`]. The flat form has the agent's own key case and names.
#[derive(Clone, Copy)]
pub struct Reshape {
    /// The agent's payload → flat keys (`toolName`, `toolInput`, `toolResponse`, `cwd`, …).
    pub flatten: fn(
        serde_json::Map<String, serde_json::Value>,
    ) -> serde_json::Map<String, serde_json::Value>,
    /// Flat keys → the payload the agent sends on `kind`.
    pub nest: fn(
        &EventKind,
        serde_json::Map<String, serde_json::Value>,
    ) -> serde_json::Map<String, serde_json::Value>,
}

/// See [`ProtocolTables::guard_reads_name`]: where the payload holds the tool's name, and what
/// reads it where hookx is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameRead {
    /// Every place (a path of keys) the payload's decoding may take the name from, read by the
    /// host's own `node` (Cline's runtime is node: attacks row 1203).
    Node(&'static [&'static [&'static str]]),
    /// The key that holds the name, read from the payload's text by POSIX `awk`, wherever the
    /// key stands: each `"KEY":` in it must hold an unguarded name (VS Code, whose hooks find
    /// no node of its own on `PATH`: attacks row 1209). The key is letters, digits and `_`.
    Key(&'static str),
}

impl NameRead {
    /// Whether the guard can tell `name` exactly: any name for `node`; for `awk`, a name of
    /// letters, digits, `_`, `.` and `-`, which its pattern spells without a special character.
    pub fn tells(self, name: &str) -> bool {
        match self {
            NameRead::Node(_) => true,
            NameRead::Key(_) => {
                !name.is_empty()
                    && (name.bytes()).all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b))
            }
        }
    }
}

/// How a payload carries tool arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgsForm {
    /// A JSON object, passed as is.
    Object,
    /// A JSON object; a string holding a JSON object is parsed on input.
    ObjectOrString,
    /// A string holding JSON (Copilot camelCase); an object is accepted on input.
    JsonString,
    /// No `tool_input`: the event is the tool (Cursor's `beforeShellExecution`), and these
    /// native keys of its arguments sit at the payload's top level.
    TopLevel(&'static [&'static str]),
    /// Every event-specific key sits inside one object beside the common keys (Windsurf's
    /// `tool_info`): read as if it were at the top level, written there.
    Nested(&'static Nested),
}

/// See [`ArgsForm::Nested`].
#[derive(Debug, PartialEq, Eq)]
pub struct Nested {
    /// The key of the object.
    pub key: &'static str,
    /// The native keys that stay at the top.
    pub top: &'static [&'static str],
    /// As [`ArgsForm::TopLevel`]: the native keys of the tool's arguments, for an event that
    /// is the tool.
    pub args: &'static [&'static str],
    /// The keys naming an MCP tool's server and tool, which together are its name.
    pub mcp_parts: Option<(&'static str, &'static str)>,
}

impl ArgsForm {
    /// The native keys of the tool's arguments when they sit among the payload's own keys.
    pub fn loose_args(self) -> Option<&'static [&'static str]> {
        match self {
            ArgsForm::TopLevel(keys) => Some(keys),
            ArgsForm::Nested(n) if !n.args.is_empty() => Some(n.args),
            _ => None,
        }
    }
}

/// The value of an environment variable set for a handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvValue {
    ProjectDir,
    /// The folder of the hook file the handler was read from.
    HookDir,
    SessionId,
    /// The event name in the handler's flavour.
    EventName,
    Literal(&'static str),
}

/// How a handler's exit code and output are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitCodes {
    /// Stdout is read at exit 0; exit 2 means what `exit2` says; any other code is a failure
    /// (Copilot, Bricks).
    ByCode,
    /// As [`ExitCodes::ByCode`], and a JSON object on stdout is read at every exit code: at
    /// exit 2 beside what `exit2` says (a deny or block wins over the JSON's decision), at any
    /// other code as the answer, the failure logged (Claude Code 2.1.332, run: exit 1 with a
    /// deny denies, with `allow` + `updatedInput` runs the rewrite; PostToolUse exit 2 gives
    /// the model both stderr and the JSON's `additionalContext`).
    ByCodeAndJson,
    /// The output (stdout, else stderr when stdout is empty) is the answer whatever the exit
    /// code when it is a JSON object. Otherwise its text is, at exit 0, a system message; at
    /// `warning`, a system message after `warning_prefix`; at any other code, the reason of a
    /// deny (a block off the tool-call events). A non-zero exit with no output is a failure
    /// (Gemini CLI 0.61.0, run).
    OutputFirst {
        warning: i32,
        warning_prefix: &'static str,
    },
}

/// Where a handler's client finds the answer in the handler's output, beside its whole stdout
/// trimmed: a deny read there by the client must deny wherever hookx runs the handler (attacks
/// rows 820, 822).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnswerText {
    /// Stderr is the answer when stdout is empty, at every exit code but 2 (Qwen Code 0.24.4,
    /// bundle `chunk-DPEB6S2R.js`: `stdoutText || stderr.trim()`).
    pub stderr_when_stdout_empty: bool,
    /// A JSON string holding a JSON object is that object (Qwen Code 0.24.4 parses it again).
    pub string_parsed_again: bool,
    /// The last line that starts with this prefix (each line trimmed) is the answer, after the
    /// prefix, whatever else stdout holds (Cline 3.0.65: `HOOK_CONTROL\t`, its `@cline/core`).
    pub control_line: Option<&'static str>,
}

impl AnswerText {
    /// The whole stdout, and nothing else.
    pub const STDOUT: AnswerText = AnswerText {
        stderr_when_stdout_empty: false,
        string_parsed_again: false,
        control_line: None,
    };
}

/// What a handler's exit code 2 means on one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit2 {
    /// Permission denied; stderr is the reason.
    Deny,
    /// Permission denied; stderr is not used, the reason is that the hook exited with 2
    /// (Copilot `preToolUse`, run 1.0.102).
    DenyWithoutReason,
    /// Permission denied; stdout JSON still counts and stderr is ignored (Copilot
    /// `permissionRequest`).
    DenyWithStdout,
    /// The action is blocked; stderr is the reason.
    Block,
    /// stderr is fed to the model as context.
    Context,
}

/// How an agent folds the permission decisions of several of its own hooks on one tool call,
/// each hook given the same call (read in each agent's bundle, probed live by the merge probe,
/// `tests/fixtures/merged/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PermissionFold {
    /// Deny beats ask beats allow, whichever hook said it (Claude Code, Gemini CLI, Codex CLI,
    /// Copilot CLI).
    Strictest,
    /// The first hook whose answer has the permission field ([`Slot::Permission`]) decides
    /// by it; a deny in another form (exit 2) still denies after its allow or ask, and the
    /// first rewrite is the one run. Droid 0.225.2: a later hook's `permissionDecision: deny`
    /// after an earlier one's `allow` is not read.
    FirstField,
    /// The last hook whose answer has the permission field decides by it (the agent merges
    /// the hooks' `hookSpecificOutput` keys, a later one's over an earlier one's); without
    /// one, any deny or block. Qwen Code 0.24.4: an earlier hook's deny, by the field, exit 2
    /// or `decision: block`, gives way to a later hook's `permissionDecision: allow`.
    LastField,
}

/// One piece of an answer, whatever key it sits under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// `continue: false` stops the agent.
    Continue,
    StopReason,
    SuppressOutput,
    SystemMessage,
    /// A top-level `decision` string: `block`/`allow`/`approve`/`deny`/`ask`.
    Decision,
    /// The reason that goes with `Decision`.
    Reason,
    /// `allow`/`deny`/`ask` on a tool call.
    Permission,
    PermissionReason,
    UpdatedInput,
    /// `allow`/`deny` on a permission request.
    Behavior,
    BehaviorMessage,
    Interrupt,
    BehaviorInput,
    Context,
    /// A replacement for the user's prompt.
    Prompt,
    /// A replacement for the tool's result, in the host's result form.
    ToolResult,
    /// A boolean whose `true` denies the tool call (blocks elsewhere); the reason goes in
    /// [`Slot::Reason`] (Cline's `cancel`, which ends the agent's whole run).
    Cancel,
    /// A message whose presence blocks the event and is its reason (Cursor `stop`'s
    /// `followup_message`: the agent goes on with it).
    BlockingReason,
}

/// On which events a host reads a field, and so where hookx writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Writes {
    All,
    On(&'static [EventKind]),
    /// Every event but these (the field was probed there and the host ignores it).
    Except(&'static [EventKind]),
    /// Accepted from handlers, never written (tolerated variants).
    Never,
}

/// Where one slot sits in an answer object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnswerField {
    pub slot: Slot,
    pub path: &'static [&'static str],
    pub writes: Writes,
}

impl AnswerField {
    pub const fn new(slot: Slot, path: &'static [&'static str], writes: Writes) -> AnswerField {
        AnswerField { slot, path, writes }
    }

    pub fn written_on(&self, kind: &EventKind) -> bool {
        match self.writes {
            Writes::All => true,
            Writes::On(kinds) => kinds.contains(kind),
            Writes::Except(kinds) => !kinds.contains(kind),
            Writes::Never => false,
        }
    }
}

impl ProtocolTables {
    /// hookx's failure policy on `kind`, the one decision every failure of hookx's own reads:
    /// `true` where the event guards a tool call ([`ProtocolTables::fail_closed`]), so that a
    /// guard hookx could not run denies the call; `false` everywhere else, where the failure is
    /// a non-blocking error and nothing is blocked (never a Stop kept going, a prompt refused).
    /// `hookx run`/`exec` answer their own failures by it, a wrapped entry's not-installed
    /// guard answers by it, and so does a handler answer hookx cannot read whole.
    pub fn fails_closed(&self, kind: &EventKind) -> bool {
        self.fail_closed.contains(kind)
    }

    /// Whether the host is told to stop the agent in its answer on `kind` (`continue: false`
    /// has a slot there).
    pub fn can_stop_the_agent(&self, kind: &EventKind) -> bool {
        self.answer
            .iter()
            .any(|f| f.slot == Slot::Continue && f.written_on(kind))
    }

    /// Whether the host can be told to ask the user about a tool call on `kind`: an `ask` it
    /// reads, or (a permission request) leaving the decision alone, which is asking.
    pub fn can_ask(&self, kind: &EventKind) -> bool {
        self.writes(Slot::Behavior, kind)
            || (self.writes(Slot::Permission, kind)
                && self.permission_values.contains(&Decision::Ask))
    }

    /// Whether the host runs an updated tool input on `kind` beside `decision` (none: no
    /// handler decided; an ask the host cannot take counts as none, as its own flow decides),
    /// in the answer hookx writes for it: beside a permission request's `allow`, or in its own
    /// slot (with the `allow` hookx adds where the host needs one).
    pub fn applies_rewrite(&self, kind: &EventKind, decision: Option<Decision>) -> bool {
        let decision = decision.filter(|d| *d != Decision::Ask || self.can_ask(kind));
        let allows = decision == Some(Decision::Allow);
        if allows && self.writes(Slot::Behavior, kind) && self.writes(Slot::BehaviorInput, kind) {
            return true;
        }
        self.writes(Slot::UpdatedInput, kind)
            && (!self.updated_input_needs_allow
                || allows
                || (decision.is_none() && self.writes(Slot::Permission, kind)))
    }

    /// Whether a handler of this flavour can ask to stop the agent (its answers have a
    /// `continue` slot).
    pub fn asks_to_stop(&self) -> bool {
        self.answer.iter().any(|f| f.slot == Slot::Continue)
    }

    /// The time the host gives all hooks of `kind`, if it caps them.
    pub fn hook_budget(&self, kind: &EventKind) -> Option<std::time::Duration> {
        let (_, ms, var) = self.hook_budget.iter().find(|(k, _, _)| k == kind)?;
        let ms = var
            .and_then(|v| std::env::var(v).ok())
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(*ms);
        Some(std::time::Duration::from_millis(ms))
    }

    pub fn exit2(&self, kind: &EventKind) -> Option<Exit2> {
        self.exit2.iter().find(|(k, _)| k == kind).map(|(_, e)| *e)
    }

    /// The fields a host reads for `slot` on `kind`.
    pub fn written(&self, slot: Slot, kind: &EventKind) -> impl Iterator<Item = &AnswerField> {
        self.answer
            .iter()
            .filter(move |f| f.slot == slot && f.written_on(kind))
    }

    pub fn writes(&self, slot: Slot, kind: &EventKind) -> bool {
        self.written(slot, kind).next().is_some()
    }

    /// Whether the host hands a hook's additional context on `kind` to the model in any form
    /// it reads: a JSON field, stderr at exit 2, or plain stdout.
    pub fn takes_context(&self, kind: &EventKind) -> bool {
        self.writes(Slot::Context, kind)
            || self.exit2(kind) == Some(Exit2::Context)
            || self.plain_stdout_context.contains(kind)
    }
}
