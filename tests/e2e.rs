//! End to end: the real `hookx` binary between a host agent and a handler written for another
//! one. Every host (Claude, Copilot camelCase, Copilot PascalCase, Bricks, Gemini, Qwen, Codex, Droid, Cline) sends its own payload
//! (the seeds' examples where they fit, `tests/fixtures/e2e/payloads/` otherwise) to a real
//! shell handler of every flavour (`tests/fixtures/e2e/handlers/`). The handler checks that it
//! got its own dialect's stdin and environment (plus `HOOKX_HOST`, the agent running it) and
//! answers in its own dialect; the test checks
//! what the handler received and what the host gets back, in the host's protocol.
//!
//! One row per case; each row runs for every (host, handler) pair it applies to. Rows run
//! through `hookx exec` ([`Via::Exec`]); [`Via::Run`] runs the same rows through `hookx run` and
//! a hook file in a temp project, once that command exists.
#![cfg(unix)]

mod common;

use assert_cmd::Command;
use common::OutputWithStdin as _;
use common::fixtures_dir;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Generous: the machine is shared and a debug build is slow to start.
const TIMEOUT: Duration = Duration::from_secs(60);

// ---------------------------------------------------------------------------------------------
// Flavours, as dialects.md names things (an oracle independent of hookx's own tables).

/// A dialect flavour: the protocol a host speaks, or the one a handler was written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum F {
    Claude,
    Copilot,
    Pascal,
    Bricks,
    Gemini,
    Qwen,
    Codex,
    Droid,
    Cline,
}
use F::*;

const ALL: &[F] = &[
    Claude, Copilot, Pascal, Bricks, Gemini, Qwen, Codex, Droid, Cline,
];
/// Those whose hooks take a matcher (a Cline hook is a script named after its event).
const WITH_MATCHERS: &[F] = &[Claude, Copilot, Pascal, Bricks, Gemini, Qwen, Codex, Droid];

impl F {
    /// `--as` value, handler script and fixture folder.
    fn name(self) -> &'static str {
        match self {
            Claude => "claude",
            Copilot => "copilot",
            Pascal => "copilot-pascal",
            Bricks => "bricks",
            Gemini => "gemini",
            Qwen => "qwen",
            Codex => "codex",
            Droid => "droid",
            Cline => "cline",
        }
    }

    /// `--host` value.
    fn dialect(self) -> &'static str {
        match self {
            Claude => "claude",
            Copilot | Pascal => "copilot",
            Bricks => "bricks",
            Gemini => "gemini",
            Qwen => "qwen",
            Codex => "codex",
            Droid => "droid",
            Cline => "cline",
        }
    }

    /// The event's name in this flavour's config (§3, gemini-facts.md); `None`: the flavour
    /// lacks it.
    fn event(self, e: Ev) -> Option<&'static str> {
        Some(match (self, e) {
            (Bricks, Ev::PermissionRequest | Ev::Notification | Ev::PostToolUseFailure) => {
                return None;
            }
            (Copilot, Ev::PreToolUse) => "preToolUse",
            (Copilot, Ev::PostToolUse) => "postToolUse",
            (Copilot, Ev::PostToolUseFailure) => "postToolUseFailure",
            (Copilot, Ev::UserPromptSubmit) => "userPromptSubmitted",
            (Copilot, Ev::Stop) => "agentStop",
            (Copilot, Ev::SubagentStart) => "subagentStart",
            (Copilot, Ev::PermissionRequest) => "permissionRequest",
            (Copilot, Ev::Notification) => "notification",
            (Copilot, Ev::SessionStart) => "sessionStart",
            (Gemini, Ev::PermissionRequest | Ev::PostToolUseFailure | Ev::SubagentStart) => {
                return None;
            }
            (Gemini, Ev::PreToolUse) => "BeforeTool",
            (Gemini, Ev::PostToolUse) => "AfterTool",
            (Gemini, Ev::UserPromptSubmit) => "BeforeAgent",
            (Gemini, Ev::Stop) => "AfterAgent",
            (Codex, Ev::Notification | Ev::PostToolUseFailure) => return None,
            (Droid, Ev::PostToolUseFailure | Ev::SubagentStart | Ev::PermissionRequest) => {
                return None;
            }
            // Hook file names (cline-facts.md).
            (
                Cline,
                Ev::PostToolUseFailure
                | Ev::SubagentStart
                | Ev::PermissionRequest
                | Ev::Notification,
            ) => return None,
            (Cline, Ev::SessionStart) => "TaskStart",
            (Cline, Ev::Stop) => "TaskComplete",
            (_, e) => e.pascal(),
        })
    }

    /// The event name the payload carries (§6) under [`F::event_key`]: Copilot's camelCase
    /// payloads name none but the notification, which says `Notification`; Cline's `hookName`
    /// has names of its own (run 3.0.65; source for `agent_end` and `prompt_submit`).
    fn payload_event(self, e: Ev) -> Option<&'static str> {
        match (self, e) {
            (Copilot, Ev::Notification) => Some("Notification"),
            (Copilot, _) => None,
            (Cline, Ev::PreToolUse) => Some("tool_call"),
            (Cline, Ev::PostToolUse) => Some("tool_result"),
            (Cline, Ev::SessionStart) => Some("agent_start"),
            (Cline, Ev::Stop) => Some("agent_end"),
            (Cline, Ev::UserPromptSubmit) => Some("prompt_submit"),
            _ => self.event(e),
        }
    }

    /// The payload key that names the event.
    fn event_key(self) -> &'static str {
        match self {
            Cline => "hookName",
            _ => "hook_event_name",
        }
    }

    /// The tool's name in this flavour (§5; Bricks `edit_file` is hookx's documented choice;
    /// Gemini's, run 0.61.0, with Claude's argument names for these three tools).
    fn tool(self, t: Tool) -> &'static str {
        match (self, t) {
            (Claude | Pascal, Tool::Edit) => "Edit",
            (Claude | Pascal, Tool::Write) => "Write",
            (Claude | Pascal, Tool::Bash) => "Bash",
            (Copilot, Tool::Edit) => "edit",
            (Copilot, Tool::Write) => "create",
            (Copilot | Bricks, Tool::Bash) => "bash",
            (Bricks, Tool::Edit) => "edit_file",
            (Bricks | Gemini, Tool::Write) => "write_file",
            (Gemini, Tool::Edit) => "replace",
            (Gemini, Tool::Bash) => "run_shell_command",
            (Qwen, Tool::Write) => "write_file",
            // Qwen Code's own names (run 0.24.4).
            (Qwen, Tool::Edit) => "edit",
            (Qwen, Tool::Bash) => "run_shell_command",
            // Every edit is a patch (codex-facts.md).
            (Codex, Tool::Edit | Tool::Write) => "apply_patch",
            (Codex, Tool::Bash) => "Bash",
            // Factory Droid's own names (run 0.225.2).
            (Droid, Tool::Edit) => "Edit",
            (Droid, Tool::Write) => "Create",
            (Droid, Tool::Bash) => "Execute",
            // Run 3.0.65: every edit is Codex's patch grammar, a shell call a list of lines.
            (Cline, Tool::Edit | Tool::Write) => "apply_patch",
            (Cline, Tool::Bash) => "run_commands",
        }
    }

    /// A tool argument's name in this flavour (§5: Copilot's file tools rename them, in both
    /// casings).
    fn arg(self, tool: Tool, canonical: &str) -> String {
        let renamed = match canonical {
            "file_path" => "path",
            "old_string" => "old_str",
            "new_string" => "new_str",
            "content" => "file_text",
            other => other,
        };
        match (self, tool) {
            // PascalCase payloads keep Copilot's argument names (run 1.0.102).
            (Copilot | Pascal, Tool::Edit | Tool::Write) => renamed.into(),
            // A patch is one text.
            (Codex, Tool::Edit | Tool::Write) => "command".into(),
            (Cline, Tool::Edit | Tool::Write) => "input".into(),
            (Cline, Tool::Bash) => "commands".into(),
            // Droid's Edit: Copilot's old_str and new_str beside Claude's file_path (0.225.2).
            (Droid, Tool::Edit) if canonical != "file_path" => renamed.into(),
            _ => canonical.into(),
        }
    }

    /// The payload key of a canonical (snake_case) key.
    fn key(self, canonical: &str) -> String {
        match (self, canonical) {
            (Copilot, "tool_input") => "toolArgs".into(),
            (Copilot, "tool_response") => "toolResult".into(),
            (Pascal, "tool_response") => "tool_result".into(),
            (Copilot, "notification_type") => "notification_type".into(),
            (Copilot, key) => camel(key),
            (Cline, "session_id") => "taskId".into(),
            (_, key) => key.into(),
        }
    }

    /// Variables this flavour's handlers get from their agent (§6), with their values.
    fn own_env(self, project: &Path, session: &str, event: &str) -> Vec<(&'static str, String)> {
        match self {
            Claude => vec![("CLAUDE_PROJECT_DIR", project.display().to_string())],
            // Run 1.0.102: the Copilot CLI sets COPILOT_CLI=1 and both project variables.
            Copilot | Pascal => vec![
                ("COPILOT_CLI", "1".into()),
                ("COPILOT_PROJECT_DIR", project.display().to_string()),
                ("CLAUDE_PROJECT_DIR", project.display().to_string()),
            ],
            Bricks => vec![
                ("BRICKS_PROJECT_DIR", project.display().to_string()),
                ("BRICKS_SESSION_ID", session.into()),
                ("BRICKS_HOOK_EVENT", event.into()),
            ],
            // Run 0.61.0: the project (the CLI's cwd) three times and the session.
            Gemini => vec![
                ("GEMINI_PROJECT_DIR", project.display().to_string()),
                ("GEMINI_CWD", project.display().to_string()),
                ("GEMINI_SESSION_ID", session.into()),
                ("CLAUDE_PROJECT_DIR", project.display().to_string()),
            ],
            // Run 0.24.4: three project variables and the session id.
            Qwen => vec![
                ("QWEN_PROJECT_DIR", project.display().to_string()),
                ("CLAUDE_PROJECT_DIR", project.display().to_string()),
                ("GEMINI_PROJECT_DIR", project.display().to_string()),
                ("QWEN_CODE_SESSION_ID", session.into()),
            ],
            // Codex sets none (run 0.171.0).
            Codex => vec![],
            // Run 0.225.2: three project variables.
            Droid => vec![
                ("FACTORY_PROJECT_DIR", project.display().to_string()),
                ("DROID_PROJECT_DIR", project.display().to_string()),
                ("CLAUDE_PROJECT_DIR", project.display().to_string()),
            ],
            // Run 3.0.65: only this one, naming no project.
            Cline => vec![("CLINE_BUILD_ENV", "production".into())],
        }
    }
}

/// Every variable some agent sets for its hooks: the test starts hookx without any of them
/// but the host's own, whatever the environment the test runs in.
const AGENT_VARS: &[&str] = &[
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_PLUGIN_ROOT",
    "CLAUDE_ENV_FILE",
    "CLAUDE_CODE_REMOTE",
    "COPILOT_CLI",
    "COPILOT_PROJECT_DIR",
    "BRICKS_PROJECT_DIR",
    "BRICKS_SESSION_ID",
    "BRICKS_HOOK_EVENT",
    "GEMINI_PROJECT_DIR",
    "GEMINI_CWD",
    "GEMINI_SESSION_ID",
    "QWEN_PROJECT_DIR",
    "QWEN_CODE_SESSION_ID",
    "FACTORY_PROJECT_DIR",
    "DROID_PROJECT_DIR",
    "CLINE_BUILD_ENV",
];

fn camel(key: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in key.chars() {
        match c {
            '_' => upper = true,
            c if upper => {
                out.push(c.to_ascii_uppercase());
                upper = false;
            }
            c => out.push(c),
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ev {
    PreToolUse,
    PostToolUse,
    PostToolUseFailure,
    UserPromptSubmit,
    Stop,
    SubagentStart,
    PermissionRequest,
    Notification,
    SessionStart,
}

impl Ev {
    fn pascal(self) -> &'static str {
        match self {
            Ev::PreToolUse => "PreToolUse",
            Ev::PostToolUse => "PostToolUse",
            Ev::PostToolUseFailure => "PostToolUseFailure",
            Ev::UserPromptSubmit => "UserPromptSubmit",
            Ev::Stop => "Stop",
            Ev::SubagentStart => "SubagentStart",
            Ev::PermissionRequest => "PermissionRequest",
            Ev::Notification => "Notification",
            Ev::SessionStart => "SessionStart",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tool {
    Edit,
    Write,
    Bash,
}

// ---------------------------------------------------------------------------------------------
// Scenarios: one event as every host sends it.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sc {
    PreEdit,
    PreWrite,
    PreBash,
    PostBash,
    FailedBash,
    Prompt,
    Stop,
    SubagentStart,
    Permission,
    Notification,
    SessionStart,
}

impl Sc {
    fn event(self) -> Ev {
        match self {
            Sc::PreEdit | Sc::PreWrite | Sc::PreBash => Ev::PreToolUse,
            Sc::PostBash => Ev::PostToolUse,
            Sc::FailedBash => Ev::PostToolUseFailure,
            Sc::Prompt => Ev::UserPromptSubmit,
            Sc::Stop => Ev::Stop,
            Sc::SubagentStart => Ev::SubagentStart,
            Sc::Permission => Ev::PermissionRequest,
            Sc::Notification => Ev::Notification,
            Sc::SessionStart => Ev::SessionStart,
        }
    }

    /// The tool call and its arguments under Claude's names, the same from every host.
    fn tool(self) -> Option<(Tool, Value)> {
        match self {
            Sc::PreEdit => Some((
                Tool::Edit,
                json!({"file_path": "/repo/src/main.rs", "old_string": "a", "new_string": "b"}),
            )),
            Sc::PreWrite => Some((
                Tool::Write,
                json!({"file_path": "/work/app/src/index.ts", "content": "export {}\n"}),
            )),
            Sc::PreBash => Some((Tool::Bash, json!({"command": "npm test"}))),
            Sc::PostBash | Sc::FailedBash => Some((Tool::Bash, json!({"command": "cargo test"}))),
            Sc::Permission => Some((
                Tool::Bash,
                json!({"command": "rm -rf node_modules", "description": "Remove node_modules directory"}),
            )),
            Sc::Prompt | Sc::Stop | Sc::SubagentStart | Sc::Notification | Sc::SessionStart => None,
        }
    }

    /// The host payload, under `tests/fixtures/`: the seeds' examples where they fit.
    fn payload(self, host: F) -> Option<&'static str> {
        Some(match (self, host) {
            (Sc::PreEdit, Claude) => "e2e/payloads/claude/PreToolUse-edit.json",
            (Sc::PreEdit, Copilot) => "payloads/copilot/preToolUse.json",
            (Sc::PreEdit, Pascal) => "payloads/copilot-pascal/PreToolUse.json",
            (Sc::PreEdit, Bricks) => "e2e/payloads/bricks/PreToolUse-edit.json",
            (Sc::PreWrite, Claude) => "e2e/payloads/claude/PreToolUse-write.json",
            (Sc::PreWrite, Copilot) => "e2e/payloads/copilot/preToolUse-create.json",
            (Sc::PreWrite, Pascal) => "e2e/payloads/copilot-pascal/PreToolUse-write.json",
            (Sc::PreWrite, Bricks) => "payloads/bricks/PreToolUse.json",
            (Sc::PreBash, Claude) => "payloads/claude/PreToolUse.json",
            // The newer Copilot form: toolArgs as an object.
            (Sc::PreBash, Copilot) => "e2e/payloads/copilot/preToolUse-bash-object.json",
            // tool_input as a JSON string, parsed when possible.
            (Sc::PreBash, Pascal) => "e2e/payloads/copilot-pascal/PreToolUse-bash.json",
            (Sc::PreBash, Bricks) => "e2e/payloads/bricks/PreToolUse-bash.json",
            (Sc::PostBash, Claude) => "e2e/payloads/claude/PostToolUse-bash.json",
            (Sc::PostBash, Copilot) => "payloads/copilot/postToolUse.json",
            (Sc::PostBash, Pascal) => "payloads/copilot-pascal/PostToolUse.json",
            (Sc::PostBash, Bricks) => "e2e/payloads/bricks/PostToolUse-bash.json",
            (Sc::Prompt, Claude) => "payloads/claude/UserPromptSubmit.json",
            (Sc::Prompt, Copilot) => "payloads/copilot/userPromptSubmitted.json",
            (Sc::Prompt, Pascal) => "payloads/copilot-pascal/UserPromptSubmit.json",
            (Sc::Prompt, Bricks) => "payloads/bricks/UserPromptSubmit.json",
            (Sc::Stop, Claude) => "payloads/claude/Stop.json",
            (Sc::Stop, Copilot) => "payloads/copilot/agentStop.json",
            (Sc::Stop, Pascal) => "payloads/copilot-pascal/Stop.json",
            (Sc::Stop, Bricks) => "payloads/bricks/Stop.json",
            (Sc::SubagentStart, Claude) => "payloads/claude/SubagentStart.json",
            (Sc::SubagentStart, Copilot) => "payloads/copilot/subagentStart.json",
            (Sc::SubagentStart, Pascal) => "e2e/payloads/copilot-pascal/SubagentStart.json",
            (Sc::SubagentStart, Bricks) => "payloads/bricks/SubagentStart.json",
            (Sc::Permission, Claude) => "payloads/claude/PermissionRequest.json",
            (Sc::Permission, Copilot) => "e2e/payloads/copilot/permissionRequest.json",
            (Sc::Permission, Pascal) => "e2e/payloads/copilot-pascal/PermissionRequest.json",
            (Sc::Permission | Sc::Notification | Sc::FailedBash, Bricks) => return None,
            (Sc::FailedBash, Claude) => "e2e/payloads/claude/PostToolUseFailure-cargo.json",
            // toolArgs as an object.
            (Sc::FailedBash, Copilot) => "payloads/copilot/postToolUseFailure.json",
            (Sc::FailedBash, Pascal) => "payloads/copilot-pascal/PostToolUseFailure.json",
            (Sc::Notification, Claude) => "payloads/claude/Notification.json",
            (Sc::Notification, Copilot) => "payloads/copilot/notification.json",
            (Sc::Notification, Pascal) => "e2e/payloads/copilot-pascal/Notification.json",
            (Sc::SessionStart, Claude) => "payloads/claude/SessionStart.json",
            (Sc::SessionStart, Copilot) => "payloads/copilot/sessionStart.json",
            (Sc::SessionStart, Pascal) => "payloads/copilot-pascal/SessionStart.json",
            (Sc::SessionStart, Bricks) => "payloads/bricks/SessionStart.json",
            // Shaped as Codex 0.171.0 sent them (tests/fixtures/recorded/codex-0.171.0/).
            (Sc::PreEdit, Codex) => "e2e/payloads/codex/PreToolUse-edit.json",
            (Sc::PreWrite, Codex) => "e2e/payloads/codex/PreToolUse-write.json",
            (Sc::PreBash, Codex) => "e2e/payloads/codex/PreToolUse-bash.json",
            (Sc::PostBash, Codex) => "e2e/payloads/codex/PostToolUse-bash.json",
            (Sc::Prompt, Codex) => "e2e/payloads/codex/UserPromptSubmit.json",
            (Sc::Stop, Codex) => "e2e/payloads/codex/Stop.json",
            (Sc::SubagentStart, Codex) => "e2e/payloads/codex/SubagentStart.json",
            (Sc::Permission, Codex) => "e2e/payloads/codex/PermissionRequest.json",
            (Sc::SessionStart, Codex) => "e2e/payloads/codex/SessionStart.json",
            (Sc::Notification | Sc::FailedBash, Codex) => return None,
            (Sc::PreEdit, Gemini) => "e2e/payloads/gemini/BeforeTool-replace.json",
            (Sc::PreWrite, Gemini) => "e2e/payloads/gemini/BeforeTool-write.json",
            (Sc::PreBash, Gemini) => "e2e/payloads/gemini/BeforeTool-shell.json",
            (Sc::PostBash, Gemini) => "e2e/payloads/gemini/AfterTool-shell.json",
            (Sc::Prompt, Gemini) => "e2e/payloads/gemini/BeforeAgent.json",
            (Sc::Stop, Gemini) => "e2e/payloads/gemini/AfterAgent.json",
            (Sc::Notification, Gemini) => "e2e/payloads/gemini/Notification.json",
            (Sc::SessionStart, Gemini) => "e2e/payloads/gemini/SessionStart.json",
            (Sc::Permission | Sc::FailedBash | Sc::SubagentStart, Gemini) => return None,
            (Sc::PreEdit, Qwen) => "e2e/payloads/qwen/PreToolUse-edit.json",
            (Sc::PreWrite, Qwen) => "e2e/payloads/qwen/PreToolUse-write.json",
            (Sc::PreBash, Qwen) => "e2e/payloads/qwen/PreToolUse-bash.json",
            (Sc::PostBash, Qwen) => "e2e/payloads/qwen/PostToolUse-bash.json",
            (Sc::FailedBash, Qwen) => "e2e/payloads/qwen/PostToolUseFailure-cargo.json",
            (Sc::Prompt, Qwen) => "e2e/payloads/qwen/UserPromptSubmit.json",
            (Sc::Stop, Qwen) => "e2e/payloads/qwen/Stop.json",
            (Sc::SubagentStart, Qwen) => "e2e/payloads/qwen/SubagentStart.json",
            (Sc::Permission, Qwen) => "e2e/payloads/qwen/PermissionRequest.json",
            (Sc::Notification, Qwen) => "e2e/payloads/qwen/Notification.json",
            (Sc::SessionStart, Qwen) => "e2e/payloads/qwen/SessionStart.json",
            // Shaped as Droid 0.225.2 sent them (tests/fixtures/recorded/droid-0.225.2/);
            // UserPromptSubmit and Notification never fired there: Claude's shape (docs).
            (Sc::PreEdit, Droid) => "e2e/payloads/droid/PreToolUse-edit.json",
            (Sc::PreWrite, Droid) => "e2e/payloads/droid/PreToolUse-write.json",
            (Sc::PreBash, Droid) => "e2e/payloads/droid/PreToolUse-bash.json",
            (Sc::PostBash, Droid) => "e2e/payloads/droid/PostToolUse-bash.json",
            (Sc::Prompt, Droid) => "e2e/payloads/droid/UserPromptSubmit.json",
            (Sc::Stop, Droid) => "e2e/payloads/droid/Stop.json",
            (Sc::Notification, Droid) => "e2e/payloads/droid/Notification.json",
            (Sc::SessionStart, Droid) => "e2e/payloads/droid/SessionStart.json",
            (Sc::Permission | Sc::FailedBash | Sc::SubagentStart, Droid) => return None,
            // Shaped as Cline 3.0.65 sent them (tests/fixtures/recorded/cline-3.0.65/); the
            // prompt and TaskComplete never fired there: the shape its source builds.
            (Sc::PreEdit, Cline) => "e2e/payloads/cline/PreToolUse-edit.json",
            (Sc::PreWrite, Cline) => "e2e/payloads/cline/PreToolUse-write.json",
            (Sc::PreBash, Cline) => "e2e/payloads/cline/PreToolUse-bash.json",
            (Sc::PostBash, Cline) => "e2e/payloads/cline/PostToolUse-bash.json",
            (Sc::Prompt, Cline) => "e2e/payloads/cline/UserPromptSubmit.json",
            (Sc::Stop, Cline) => "e2e/payloads/cline/TaskComplete.json",
            (Sc::SessionStart, Cline) => "e2e/payloads/cline/TaskStart.json",
            (Sc::Permission | Sc::FailedBash | Sc::SubagentStart | Sc::Notification, Cline) => {
                return None;
            }
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Rows.

/// What the host must get back.
#[derive(Clone, Copy, Debug)]
enum Expect {
    /// Exit 0, this JSON on stdout.
    Json(&'static str),
    /// Exit 0, nothing on stdout.
    Silent,
    /// Exit 0, nothing on stdout, stderr says this (something the host cannot express).
    Note(&'static str),
    /// The handler is not run (its matcher does not accept the event): exit 0, no output.
    NotRun,
    /// What the Claude host gets (a Qwen or Droid host: its answers are Claude's).
    AsClaude,
}

/// Which matcher each handler is registered with.
#[derive(Clone, Copy, Debug)]
enum Matcher {
    None,
    /// Per handler flavour of [`WITH_MATCHERS`]: claude, copilot, copilot-pascal, bricks,
    /// gemini, qwen, codex, droid.
    Per([&'static str; 8]),
}

impl Matcher {
    fn for_flavour(self, f: F) -> Option<&'static str> {
        match self {
            Matcher::None => None,
            Matcher::Per(m) => Some(m[WITH_MATCHERS.iter().position(|x| *x == f).unwrap()]),
        }
    }
}

struct Row {
    case: &'static str,
    sc: Sc,
    /// What the handler answers, in its own dialect (see the handler scripts' `case`).
    says: &'static str,
    reason: &'static str,
    /// The handler flavours that can say this.
    handlers: &'static [F],
    matcher: Matcher,
    /// What each host gets (a host that lacks the event is never asked).
    claude: Expect,
    copilot: Expect,
    pascal: Expect,
    bricks: Expect,
    gemini: Expect,
    qwen: Expect,
    codex: Expect,
    droid: Expect,
    cline: Expect,
}

impl Row {
    fn expect(&self, host: F) -> Expect {
        match host {
            Claude => self.claude,
            Copilot => self.copilot,
            Pascal => self.pascal,
            Bricks => self.bricks,
            Gemini => self.gemini,
            Qwen => match self.qwen {
                AsClaude => self.claude,
                own => own,
            },
            Codex => self.codex,
            Droid => match self.droid {
                AsClaude => self.claude,
                own => own,
            },
            Cline => self.cline,
        }
    }
}

use Expect::{AsClaude, Json, NotRun, Note, Silent};

/// For hosts that lack the row's event: never asked.
const NO_EVENT: Expect = Silent;
const PERMISSION_HANDLERS: &[F] = &[Claude, Copilot, Pascal, Gemini];
/// Those, and the Qwen and Droid handlers where they answer as a Claude one does (runs 0.24.4,
/// 0.225.2).
const PERMISSION_AND_CLAUDE_LIKE: &[F] = &[Claude, Copilot, Pascal, Gemini, Qwen, Droid];

#[rustfmt::skip]
const ROWS: &[Row] = &[
    // --- every handler, answering nothing: what it receives is the point -------------------
    Row { case: "silent on a write", sc: Sc::PreWrite, says: "silent", reason: "", handlers: ALL, matcher: Matcher::None,
        claude: Silent, copilot: Silent, pascal: Silent, bricks: Silent,
        gemini: Silent, qwen: AsClaude,
        droid: AsClaude, codex: Silent,
        cline: Silent },
    Row { case: "silent on a shell call", sc: Sc::PreBash, says: "silent", reason: "", handlers: ALL, matcher: Matcher::None,
        claude: Silent, copilot: Silent, pascal: Silent, bricks: Silent,
        gemini: Silent, qwen: AsClaude,
        droid: AsClaude, codex: Silent,
        cline: Silent },
    Row { case: "silent after a shell call", sc: Sc::PostBash, says: "silent", reason: "", handlers: ALL, matcher: Matcher::None,
        claude: Silent, copilot: Silent, pascal: Silent, bricks: Silent,
        gemini: Silent, qwen: AsClaude,
        droid: AsClaude, codex: Silent,
        cline: Silent },
    Row { case: "silent on a prompt", sc: Sc::Prompt, says: "silent", reason: "", handlers: ALL, matcher: Matcher::None,
        claude: Silent, copilot: Silent, pascal: Silent, bricks: Silent,
        gemini: Silent, qwen: AsClaude,
        droid: AsClaude, codex: Silent,
        cline: Silent },
    Row { case: "silent on stop", sc: Sc::Stop, says: "silent", reason: "", handlers: ALL, matcher: Matcher::None,
        claude: Silent, copilot: Silent, pascal: Silent, bricks: Silent,
        gemini: Silent, qwen: AsClaude,
        droid: AsClaude, codex: Silent,
        cline: Silent },
    Row { case: "silent on subagent start", sc: Sc::SubagentStart, says: "silent", reason: "", handlers: ALL, matcher: Matcher::None,
        claude: Silent, copilot: Silent, pascal: Silent, bricks: Silent,
        gemini: NO_EVENT, qwen: AsClaude,
        droid: AsClaude, codex: Silent,
        cline: NO_EVENT },
    Row { case: "silent on a notification", sc: Sc::Notification, says: "silent", reason: "", handlers: ALL, matcher: Matcher::None,
        claude: Silent, copilot: Silent, pascal: Silent, bricks: NO_EVENT,
        gemini: Silent, qwen: AsClaude,
        droid: AsClaude, codex: NO_EVENT,
        cline: NO_EVENT },
    Row { case: "silent on session start", sc: Sc::SessionStart, says: "silent", reason: "", handlers: ALL, matcher: Matcher::None,
        claude: Silent, copilot: Silent, pascal: Silent, bricks: Silent,
        gemini: Silent, qwen: AsClaude,
        droid: AsClaude, codex: Silent,
        cline: Silent },

    // --- PreToolUse: permission decisions -------------------------------------------------
    // An allow reaches a host only where it gets past no more of the host's permission flow
    // than of the handler's own agent's (attacks rows 1494, 1496; `allow_reach`): Claude's and
    // Droid's skip the prompt, not the user's deny rules, which Copilot's allow passes.
    Row { case: "allow an edit", sc: Sc::PreEdit, says: "allow", reason: "", handlers: &[Claude, Droid], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#),
        copilot: Silent,
        pascal: Silent,
        // Bricks' protocol has no allow: its own flow goes on.
        bricks: Silent,
        gemini: Json(r#"{"decision":"allow"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#),
        cline: Silent },
    // Copilot's allow gets past the most (`--deny-tool`, run 1.0.102): every host takes it.
    Row { case: "a Copilot hook allows an edit", sc: Sc::PreEdit, says: "allow", reason: "", handlers: &[Copilot, Pascal], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#),
        copilot: Json(r#"{"permissionDecision":"allow"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"},"permissionDecision":"allow"}"#),
        bricks: Silent,
        gemini: Json(r#"{"decision":"allow"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#),
        cline: Silent },
    // Gemini's and Qwen's allow leave their approval to decide (bundles 0.61.0, 0.24.4): no
    // decision where the host's allow would skip a prompt.
    Row { case: "an allow its own agent's approval outranks", sc: Sc::PreEdit, says: "allow", reason: "", handlers: &[Gemini, Qwen], matcher: Matcher::None,
        claude: Silent,
        copilot: Silent,
        pascal: Silent,
        bricks: Silent,
        gemini: Json(r#"{"decision":"allow"}"#),
        qwen: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#),
        droid: Silent, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}"#),
        cline: Silent },
    Row { case: "deny an edit", sc: Sc::PreEdit, says: "deny", reason: "no edits on main ✋ (été)", handlers: ALL, matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no edits on main ✋ (été)"}}"#),
        copilot: Json(r#"{"permissionDecision":"deny","permissionDecisionReason":"no edits on main ✋ (été)"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no edits on main ✋ (été)"},"permissionDecision":"deny","permissionDecisionReason":"no edits on main ✋ (été)"}"#),
        bricks: Json(r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no edits on main ✋ (été)"}}"#),
        gemini: Json(r#"{"decision":"deny","reason":"no edits on main ✋ (été)"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no edits on main ✋ (été)"}}"#),
        cline: Json(r#"{"cancel":true,"errorMessage":"no edits on main ✋ (été)"}"#) },
    Row { case: "deny in the dialect's other form", sc: Sc::PreBash, says: "deny-alt", reason: "tests are slow", handlers: &[Claude, Bricks, Gemini, Qwen], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"tests are slow"}}"#),
        copilot: Json(r#"{"permissionDecision":"deny","permissionDecisionReason":"tests are slow"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"tests are slow"},"permissionDecision":"deny","permissionDecisionReason":"tests are slow"}"#),
        bricks: Json(r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"tests are slow"}}"#),
        gemini: Json(r#"{"decision":"deny","reason":"tests are slow"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"tests are slow"}}"#),
        cline: Json(r#"{"cancel":true,"errorMessage":"tests are slow"}"#) },
    Row { case: "exit 2 denies a shell call", sc: Sc::PreBash, says: "exit2", reason: "npm is banned", handlers: &[Claude, Bricks, Gemini, Qwen, Droid], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"npm is banned"}}"#),
        copilot: Json(r#"{"permissionDecision":"deny","permissionDecisionReason":"npm is banned"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"npm is banned"},"permissionDecision":"deny","permissionDecisionReason":"npm is banned"}"#),
        bricks: Json(r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"npm is banned"}}"#),
        gemini: Json(r#"{"decision":"deny","reason":"npm is banned"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"npm is banned"}}"#),
        cline: Json(r#"{"cancel":true,"errorMessage":"npm is banned"}"#) },
    // Copilot denies on exit 2 without reading stderr (run 1.0.102).
    Row { case: "a Copilot exit 2 denies without its stderr", sc: Sc::PreBash, says: "exit2", reason: "npm is banned", handlers: &[Copilot, Pascal], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hook exited with code 2"}}"#),
        copilot: Json(r#"{"permissionDecision":"deny","permissionDecisionReason":"hook exited with code 2"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hook exited with code 2"},"permissionDecision":"deny","permissionDecisionReason":"hook exited with code 2"}"#),
        bricks: Json(r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"hook exited with code 2"}}"#),
        gemini: Json(r#"{"decision":"deny","reason":"hook exited with code 2"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hook exited with code 2"}}"#),
        cline: Json(r#"{"cancel":true,"errorMessage":"hook exited with code 2"}"#) },
    Row { case: "ask about an edit", sc: Sc::PreEdit, says: "ask", reason: "touches main", handlers: PERMISSION_AND_CLAUDE_LIKE, matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"touches main"}}"#),
        copilot: Json(r#"{"permissionDecision":"ask","permissionDecisionReason":"touches main"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"touches main"},"permissionDecision":"ask","permissionDecisionReason":"touches main"}"#),
        // A host that cannot ask denies the call, saying why (attacks row 1160): Droid's
        // `ask` only logs (binary 0.225.2), Codex runs its own handler's `ask` (run 0.171.0).
        bricks: Json(r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"touches main\nhookx denied this call: a hook asked for confirmation, which bricks cannot ask for on PreToolUse"}}"#),
        gemini: Json(r#"{"decision":"ask","reason":"touches main"}"#), qwen: AsClaude,
        droid: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"touches main\nhookx denied this call: a hook asked for confirmation, which droid cannot ask for on PreToolUse"}}"#),
        codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"touches main\nhookx denied this call: a hook asked for confirmation, which codex cannot ask for on PreToolUse"}}"#),
        cline: Json(r#"{"cancel":true,"errorMessage":"touches main\nhookx denied this call: a hook asked for confirmation, which cline cannot ask for on PreToolUse"}"#) },
    Row { case: "rewrite an edit's input", sc: Sc::PreEdit, says: "update", reason: "", handlers: &[Copilot, Pascal], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/repo/src/main.rs","old_string":"a","new_string":"B"}}}"#),
        copilot: Json(r#"{"permissionDecision":"allow","modifiedArgs":{"path":"/repo/src/main.rs","old_str":"a","new_str":"B"}}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"path":"/repo/src/main.rs","old_str":"a","new_str":"B"}},"permissionDecision":"allow","modifiedArgs":{"path":"/repo/src/main.rs","old_str":"a","new_str":"B"}}"#),
        // Where the host cannot apply a rewrite, the original must not run: a deny (attacks
        // row 1020; Qwen 0.24.4 runs the original beside `updatedInput`, run).
        bricks: Json(r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"hookx denied this call: a hook rewrote its input, which bricks cannot apply on PreToolUse, and the call must not run as it was"}}"#),
        gemini: Json(r#"{"decision":"allow","hookSpecificOutput":{"tool_input":{"file_path":"/repo/src/main.rs","old_string":"a","new_string":"B"}}}"#), qwen: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hookx denied this call: a hook rewrote its input, which qwen cannot apply on PreToolUse, and the call must not run as it was"}}"#),
        // Droid's argument names (run 0.225.2); Droid merges them over the call's input.
        droid: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/repo/src/main.rs","old_str":"a","new_str":"B"}}}"#),
        // Codex takes the edit as a patch, beside an allow (run 0.171.0).
        codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"*** Begin Patch\n*** Update File: /repo/src/main.rs\n@@\n-a\n+B\n*** End Patch\n"}}}"#),
        // Cline runs `overrideInput` in place of the call's input (run 3.0.65); an edit is its
        // apply_patch.
        cline: Json(r#"{"overrideInput":{"input":"*** Begin Patch\n*** Update File: /repo/src/main.rs\n@@\n-a\n+B\n*** End Patch\n"}}"#) },

    Row { case: "a Claude hook rewrites an edit's input", sc: Sc::PreEdit, says: "update", reason: "", handlers: &[Claude], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/repo/src/main.rs","old_string":"a","new_string":"B"}}}"#),
        // The allow left to Copilot (row 1494): the rewrite runs with no decision (run 1.0.102).
        copilot: Json(r#"{"modifiedArgs":{"path":"/repo/src/main.rs","old_str":"a","new_str":"B"}}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"path":"/repo/src/main.rs","old_str":"a","new_str":"B"}},"modifiedArgs":{"path":"/repo/src/main.rs","old_str":"a","new_str":"B"}}"#),
        // Where the host cannot apply a rewrite, the original must not run: a deny (attacks
        // row 1020; Qwen 0.24.4 runs the original beside `updatedInput`, run).
        bricks: Json(r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"hookx denied this call: a hook rewrote its input, which bricks cannot apply on PreToolUse, and the call must not run as it was"}}"#),
        gemini: Json(r#"{"decision":"allow","hookSpecificOutput":{"tool_input":{"file_path":"/repo/src/main.rs","old_string":"a","new_string":"B"}}}"#), qwen: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hookx denied this call: a hook rewrote its input, which qwen cannot apply on PreToolUse, and the call must not run as it was"}}"#),
        // Droid's argument names (run 0.225.2); Droid merges them over the call's input.
        droid: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/repo/src/main.rs","old_str":"a","new_str":"B"}}}"#),
        // Codex takes the edit as a patch, beside an allow (run 0.171.0).
        codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"*** Begin Patch\n*** Update File: /repo/src/main.rs\n@@\n-a\n+B\n*** End Patch\n"}}}"#),
        // Cline runs `overrideInput` in place of the call's input (run 3.0.65); an edit is its
        // apply_patch.
        cline: Json(r#"{"overrideInput":{"input":"*** Begin Patch\n*** Update File: /repo/src/main.rs\n@@\n-a\n+B\n*** End Patch\n"}}"#) },

    Row { case: "a Gemini hook rewrites an edit's input", sc: Sc::PreEdit, says: "update", reason: "", handlers: &[Gemini], matcher: Matcher::None,
        // Gemini's allow leaves its approval to decide: the rewrite goes through Claude's flow.
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"/repo/src/main.rs","old_string":"a","new_string":"B"}}}"#),
        // The allow left to Copilot (row 1494): the rewrite runs with no decision (run 1.0.102).
        copilot: Json(r#"{"modifiedArgs":{"path":"/repo/src/main.rs","old_str":"a","new_str":"B"}}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"path":"/repo/src/main.rs","old_str":"a","new_str":"B"}},"modifiedArgs":{"path":"/repo/src/main.rs","old_str":"a","new_str":"B"}}"#),
        // Where the host cannot apply a rewrite, the original must not run: a deny (attacks
        // row 1020; Qwen 0.24.4 runs the original beside `updatedInput`, run).
        bricks: Json(r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"hookx denied this call: a hook rewrote its input, which bricks cannot apply on PreToolUse, and the call must not run as it was"}}"#),
        gemini: Json(r#"{"decision":"allow","hookSpecificOutput":{"tool_input":{"file_path":"/repo/src/main.rs","old_string":"a","new_string":"B"}}}"#), qwen: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hookx denied this call: a hook rewrote its input, which qwen cannot apply on PreToolUse, and the call must not run as it was"}}"#),
        // Droid's argument names (run 0.225.2); Droid merges them over the call's input.
        droid: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"file_path":"/repo/src/main.rs","old_str":"a","new_str":"B"}}}"#),
        // Codex takes the edit as a patch, beside an allow (run 0.171.0).
        codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"*** Begin Patch\n*** Update File: /repo/src/main.rs\n@@\n-a\n+B\n*** End Patch\n"}}}"#),
        // Cline runs `overrideInput` in place of the call's input (run 3.0.65); an edit is its
        // apply_patch.
        cline: Json(r#"{"overrideInput":{"input":"*** Begin Patch\n*** Update File: /repo/src/main.rs\n@@\n-a\n+B\n*** End Patch\n"}}"#) },

    // --- matchers, read in the handler's own dialect --------------------------------------
    Row { case: "matcher in the handler's own tool names fires", sc: Sc::PreEdit, says: "deny", reason: "matched", handlers: WITH_MATCHERS,
        matcher: Matcher::Per(["Edit|Write", "edit|create", "Edit|Write", "edit_file|write_file", "replace|write_file", "edit|write_file", "apply_patch", "Edit|Create"]),
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"matched"}}"#),
        copilot: Json(r#"{"permissionDecision":"deny","permissionDecisionReason":"matched"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"matched"},"permissionDecision":"deny","permissionDecisionReason":"matched"}"#),
        bricks: Json(r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"matched"}}"#),
        gemini: Json(r#"{"decision":"deny","reason":"matched"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"matched"}}"#),
        cline: Json(r#"{"cancel":true,"errorMessage":"matched"}"#) },
    Row { case: "matcher in another dialect's tool names does not fire", sc: Sc::PreEdit, says: "deny", reason: "wrongly matched", handlers: WITH_MATCHERS,
        matcher: Matcher::Per(["edit", "Edit", "edit_file", "Edit", "Edit", "edit_file", "edit", "edit"]),
        claude: NotRun, copilot: NotRun, pascal: NotRun, bricks: NotRun,
        gemini: NotRun, qwen: AsClaude,
        droid: AsClaude, codex: NotRun,
        cline: NotRun },
    Row { case: "unanchored regex matcher fires", sc: Sc::PreEdit, says: "deny", reason: "regex", handlers: &[Claude, Bricks, Gemini, Qwen, Droid],
        matcher: Matcher::Per(["di.", "", "", "di.", "rep.a", "di.", "", "di."]),
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"regex"}}"#),
        copilot: Json(r#"{"permissionDecision":"deny","permissionDecisionReason":"regex"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"regex"},"permissionDecision":"deny","permissionDecisionReason":"regex"}"#),
        bricks: Json(r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"regex"}}"#),
        gemini: Json(r#"{"decision":"deny","reason":"regex"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"regex"}}"#),
        cline: Json(r#"{"cancel":true,"errorMessage":"regex"}"#) },
    // Both Copilot flavours anchor (run 1.0.102, dialects.md §4).
    Row { case: "Copilot regex matcher is anchored", sc: Sc::PreEdit, says: "deny", reason: "wrongly matched", handlers: &[Copilot, Pascal],
        matcher: Matcher::Per(["", "di.", "di.", "", "", "", "", ""]),
        claude: NotRun, copilot: NotRun, pascal: NotRun, bricks: NotRun,
        gemini: NotRun, qwen: AsClaude,
        droid: AsClaude, codex: NotRun,
        cline: NotRun },

    // --- PostToolUse ----------------------------------------------------------------------
    Row { case: "context after a shell call", sc: Sc::PostBash, says: "context", reason: "lint is clean", handlers: &[Claude, Bricks, Gemini, Qwen, Droid, Cline], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint is clean"}}"#),
        // Copilot appends top-level additionalContext to the tool result (run 1.0.102).
        copilot: Json(r#"{"additionalContext":"lint is clean"}"#),
        pascal: Json(r#"{"additionalContext":"lint is clean"}"#),
        bricks: Json(r#"{"additionalContext":"lint is clean"}"#),
        gemini: Json(r#"{"hookSpecificOutput":{"additionalContext":"lint is clean"}}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint is clean"}}"#),
        cline: Json(r#"{"contextModification":"lint is clean"}"#) },
    Row { case: "exit 2 after a shell call feeds stderr to the model", sc: Sc::PostBash, says: "exit2", reason: "2 tests failed", handlers: &[Claude], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"2 tests failed"}}"#),
        copilot: Json(r#"{"additionalContext":"2 tests failed"}"#),
        pascal: Json(r#"{"additionalContext":"2 tests failed"}"#),
        bricks: Json(r#"{"additionalContext":"2 tests failed"}"#),
        gemini: Json(r#"{"hookSpecificOutput":{"additionalContext":"2 tests failed"}}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"2 tests failed"}}"#),
        cline: Json(r#"{"contextModification":"2 tests failed"}"#) },
    Row { case: "block after a shell call", sc: Sc::PostBash, says: "block", reason: "fix the tests", handlers: &[Claude, Gemini], matcher: Matcher::None,
        claude: Json(r#"{"decision":"block","reason":"fix the tests"}"#),
        // The call cannot be undone; the reason still reaches the model.
        // Copilot 1.0.102 (run): `decision: block` on postToolUse replaces the result with "Tool result blocked: REASON".
        copilot: Json(r#"{"decision":"block","reason":"fix the tests"}"#),
        pascal: Json(r#"{"decision":"block","reason":"fix the tests"}"#),
        bricks: Json(r#"{"additionalContext":"fix the tests"}"#),
        gemini: Json(r#"{"decision":"block","reason":"fix the tests"}"#), qwen: Json(r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"fix the tests"}}"#),
        // Droid 0.225.2 (run): a PostToolUse block's reason never reaches the model; context does.
        droid: Json(r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"fix the tests"}}"#),
        codex: Json(r#"{"decision":"block","reason":"fix the tests"}"#),
        cline: Json(r#"{"contextModification":"fix the tests"}"#) },

    // --- PostToolUseFailure (Bricks has none) ----------------------------------------------
    Row { case: "context after a failed call", sc: Sc::FailedBash, says: "context", reason: "run cargo test -- --nocapture", handlers: &[Claude, Qwen], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"run cargo test -- --nocapture"}}"#),
        // Copilot takes top-level additionalContext as recovery guidance (run 1.0.102).
        copilot: Json(r#"{"additionalContext":"run cargo test -- --nocapture"}"#),
        pascal: Json(r#"{"additionalContext":"run cargo test -- --nocapture"}"#),
        bricks: NO_EVENT,
        gemini: NO_EVENT, qwen: AsClaude,
        droid: AsClaude, codex: NO_EVENT,
        cline: NO_EVENT },
    Row { case: "exit 2 after a failed call is guidance", sc: Sc::FailedBash, says: "exit2", reason: "run cargo test -- --nocapture", handlers: PERMISSION_HANDLERS, matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"run cargo test -- --nocapture"}}"#),
        copilot: Json(r#"{"additionalContext":"run cargo test -- --nocapture"}"#),
        pascal: Json(r#"{"additionalContext":"run cargo test -- --nocapture"}"#),
        bricks: NO_EVENT,
        gemini: NO_EVENT, qwen: AsClaude,
        droid: AsClaude, codex: NO_EVENT,
        cline: NO_EVENT },

    // --- UserPromptSubmit -----------------------------------------------------------------
    Row { case: "block a prompt", sc: Sc::Prompt, says: "block", reason: "no secrets in prompts", handlers: &[Claude, Bricks, Gemini, Droid], matcher: Matcher::None,
        claude: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#),
        // `decision: "block"` refuses the prompt (run 1.0.102).
        copilot: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#),
        pascal: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#),
        bricks: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#),
        gemini: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#),
        cline: Note("cannot block UserPromptSubmit") },
    Row { case: "exit 2 blocks a prompt", sc: Sc::Prompt, says: "exit2", reason: "no secrets in prompts", handlers: &[Claude, Bricks, Gemini, Droid], matcher: Matcher::None,
        claude: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#),
        // `decision: "block"` refuses the prompt (run 1.0.102).
        copilot: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#),
        pascal: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#),
        bricks: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#),
        gemini: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"decision":"block","reason":"no secrets in prompts"}"#),
        cline: Note("cannot block UserPromptSubmit") },
    Row { case: "exit 2 on a prompt is only an error for Copilot", sc: Sc::Prompt, says: "exit2", reason: "oops", handlers: &[Copilot, Pascal], matcher: Matcher::None,
        claude: Note("exited with code 2: oops"), copilot: Note("exited with code 2: oops"),
        pascal: Note("exited with code 2: oops"), bricks: Note("exited with code 2: oops"),
        gemini: Note("exited with code 2: oops"), qwen: AsClaude,
        droid: AsClaude, codex: Note("exited with code 2: oops"),
        cline: Note("exited with code 2: oops") },
    Row { case: "plain stdout on a prompt is context", sc: Sc::Prompt, says: "plain", reason: "the repo uses tabs", handlers: &[Claude], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"the repo uses tabs"}}"#),
        copilot: Json(r#"{"additionalContext":"the repo uses tabs"}"#),
        pascal: Json(r#"{"additionalContext":"the repo uses tabs"}"#),
        bricks: Note("additional context dropped"),
        gemini: Json(r#"{"hookSpecificOutput":{"additionalContext":"the repo uses tabs"}}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"the repo uses tabs"}}"#),
        cline: Note("additional context dropped") },

    // --- Stop -----------------------------------------------------------------------------
    Row { case: "block stopping", sc: Sc::Stop, says: "block", reason: "tests are red", handlers: PERMISSION_AND_CLAUDE_LIKE, matcher: Matcher::None,
        claude: Json(r#"{"decision":"block","reason":"tests are red"}"#),
        copilot: Json(r#"{"decision":"block","reason":"tests are red"}"#),
        pascal: Json(r#"{"decision":"block","reason":"tests are red"}"#),
        bricks: Note("cannot block Stop"),
        gemini: Json(r#"{"decision":"block","reason":"tests are red"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"decision":"block","reason":"tests are red"}"#),
        cline: Note("cannot block TaskComplete") },
    Row { case: "continue false stops the agent", sc: Sc::Stop, says: "stop", reason: "budget spent", handlers: &[Claude, Gemini, Droid], matcher: Matcher::None,
        claude: Json(r#"{"continue":false,"stopReason":"budget spent"}"#),
        copilot: Note("cannot be told to stop: budget spent"),
        pascal: Json(r#"{"continue":false,"stopReason":"budget spent"}"#),
        bricks: Note("cannot be told to stop: budget spent"),
        gemini: Json(r#"{"continue":false,"stopReason":"budget spent"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Note("cannot be told to stop: budget spent"),
        cline: Note("cannot be told to stop: budget spent") },

    // --- SubagentStart --------------------------------------------------------------------
    Row { case: "context for a subagent", sc: Sc::SubagentStart, says: "context", reason: "read STYLE.md", handlers: PERMISSION_HANDLERS, matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"read STYLE.md"}}"#),
        copilot: Json(r#"{"additionalContext":"read STYLE.md"}"#),
        pascal: Json(r#"{"additionalContext":"read STYLE.md"}"#),
        bricks: Note("additional context dropped"),
        gemini: NO_EVENT, qwen: Note("additional context dropped"),
        droid: AsClaude, codex: Note("additional context dropped"),
        cline: NO_EVENT },

    // --- PermissionRequest (Bricks has none) ----------------------------------------------
    Row { case: "deny a permission request", sc: Sc::Permission, says: "behavior-deny", reason: "not in CI", handlers: PERMISSION_HANDLERS, matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not in CI"}}}"#),
        copilot: Json(r#"{"behavior":"deny","message":"not in CI"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not in CI"}},"behavior":"deny","message":"not in CI"}"#),
        bricks: NO_EVENT,
        gemini: NO_EVENT, qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not in CI"}}}"#),
        cline: NO_EVENT },
    // claude-code 2.1.332 (live suite): exit 2 on PermissionRequest is a non-blocking error;
    // the host's own permission flow goes on.
    Row { case: "Claude exit 2 on a permission request is a non-blocking error", sc: Sc::Permission, says: "exit2", reason: "not in CI", handlers: &[Claude], matcher: Matcher::None,
        claude: Note("hook exited with code 2: not in CI"),
        copilot: Note("hook exited with code 2: not in CI"),
        pascal: Note("hook exited with code 2: not in CI"),
        bricks: NO_EVENT,
        gemini: NO_EVENT, qwen: AsClaude,
        droid: AsClaude, codex: Note("hook exited with code 2: not in CI"),
        cline: NO_EVENT },
    // Copilot reads stdout, not stderr, at exit 2 on permissionRequest.
    Row { case: "Copilot exit 2 denies a permission request", sc: Sc::Permission, says: "exit2", reason: "not in CI", handlers: &[Copilot, Pascal], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}"#),
        copilot: Json(r#"{"behavior":"deny"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}},"behavior":"deny"}"#),
        bricks: NO_EVENT,
        gemini: NO_EVENT, qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}"#),
        cline: NO_EVENT },
    Row { case: "allow a permission request with new input", sc: Sc::Permission, says: "behavior-update", reason: "", handlers: &[Claude], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"npm ci"}}}}"#),
        // Copilot ignores a PermissionRequest's new input (run 1.0.102, forms `hxcpermallowrw`,
        // `hxppermallowrw` of tests/live_copilot.rs): an allow would approve the original, so
        // the request is denied (attacks row 1021), as under Codex.
        copilot: Json(r#"{"behavior":"deny","message":"hookx denied this call: a hook rewrote its input, which copilot cannot apply on permissionRequest, and the call must not run as it was"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"hookx denied this call: a hook rewrote its input, which copilot-pascal cannot apply on PermissionRequest, and the call must not run as it was"}},"behavior":"deny","message":"hookx denied this call: a hook rewrote its input, which copilot-pascal cannot apply on PermissionRequest, and the call must not run as it was"}"#),
        bricks: NO_EVENT,
        gemini: NO_EVENT, qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"hookx denied this call: a hook rewrote its input, which codex cannot apply on PermissionRequest, and the call must not run as it was"}}}"#),
        cline: NO_EVENT },

    // --- Notification, SessionStart, messages ---------------------------------------------
    Row { case: "context on a notification", sc: Sc::Notification, says: "context", reason: "user is away", handlers: PERMISSION_HANDLERS, matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"Notification","additionalContext":"user is away"}}"#),
        copilot: Json(r#"{"additionalContext":"user is away"}"#),
        pascal: Json(r#"{"additionalContext":"user is away"}"#),
        bricks: NO_EVENT,
        gemini: Note("additional context dropped"), qwen: Note("additional context dropped"),
        droid: Note("additional context dropped"), codex: NO_EVENT,
        cline: NO_EVENT },
    Row { case: "plain stdout at session start is context", sc: Sc::SessionStart, says: "plain", reason: "main is frozen", handlers: &[Claude], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"main is frozen"}}"#),
        // sessionStart's top-level additionalContext reaches the model (run 1.0.102).
        copilot: Json(r#"{"additionalContext":"main is frozen"}"#),
        pascal: Json(r#"{"additionalContext":"main is frozen"}"#),
        bricks: Note("additional context dropped"),
        gemini: Json(r#"{"hookSpecificOutput":{"additionalContext":"main is frozen"}}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"main is frozen"}}"#),
        cline: Note("additional context dropped") },
    Row { case: "system message for the user", sc: Sc::Stop, says: "system-message", reason: "3 files changed", handlers: &[Claude, Gemini, Droid], matcher: Matcher::None,
        claude: Json(r#"{"systemMessage":"3 files changed"}"#),
        copilot: Note("3 files changed"),
        pascal: Json(r#"{"systemMessage":"3 files changed"}"#),
        bricks: Note("3 files changed"),
        gemini: Json(r#"{"systemMessage":"3 files changed"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Note("3 files changed"),
        cline: Note("3 files changed") },
    // --- Gemini's own answer rules (gemini-facts.md, run 0.61.0) -----------------------------
    Row { case: "a Gemini JSON answer counts at any exit code", sc: Sc::PreBash, says: "deny-exit2", reason: "npm is banned", handlers: &[Gemini], matcher: Matcher::None,
        claude: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"npm is banned"}}"#),
        copilot: Json(r#"{"permissionDecision":"deny","permissionDecisionReason":"npm is banned"}"#),
        pascal: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"npm is banned"},"permissionDecision":"deny","permissionDecisionReason":"npm is banned"}"#),
        bricks: Json(r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"npm is banned"}}"#),
        gemini: Json(r#"{"decision":"deny","reason":"npm is banned"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Json(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"npm is banned"}}"#),
        cline: Json(r#"{"cancel":true,"errorMessage":"npm is banned"}"#) },
    Row { case: "plain stdout from a Gemini hook is a system message", sc: Sc::Stop, says: "plain", reason: "3 files changed", handlers: &[Gemini], matcher: Matcher::None,
        claude: Json(r#"{"systemMessage":"3 files changed"}"#),
        copilot: Note("3 files changed"),
        pascal: Json(r#"{"systemMessage":"3 files changed"}"#),
        bricks: Note("3 files changed"),
        gemini: Json(r#"{"systemMessage":"3 files changed"}"#), qwen: AsClaude,
        droid: AsClaude, codex: Note("3 files changed"),
        cline: Note("3 files changed") },
];

// ---------------------------------------------------------------------------------------------
// Running one (row, host, handler).

/// How the handler is wired to the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    /// `hookx exec --as FLAVOUR --host H --event E [--match M] -- sh HANDLER`, what
    /// `convert --wrap` writes.
    Exec,
    /// `hookx run --host H`, the handler registered in a hook file of its dialect in the
    /// project (see [`hook_file`]).
    Run,
}

/// What one hookx invocation did.
struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// What the handler recorded, if it ran.
    handler_stdin: Option<String>,
    handler_env: BTreeMap<String, String>,
    handler_failures: String,
    /// The handler's working directory (physical).
    handler_pwd: Option<PathBuf>,
    project: PathBuf,
}

fn handler_script(f: F) -> PathBuf {
    fixtures_dir().join(format!("e2e/handlers/{}.sh", f.name()))
}

/// The host payload of a scenario, sent from `project` (its `cwd`).
fn host_payload(sc: Sc, host: F, project: &Path) -> Value {
    let path = fixtures_dir().join(sc.payload(host).expect("the host has the event"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut payload: Value = serde_json::from_str(&text).expect("fixture is JSON");
    let project = project.display().to_string();
    // Cline names its workspace root, not a `cwd`.
    if payload.get("workspaceRoots").is_some() {
        payload["workspaceRoots"] = json!([project]);
        payload["workspaceInfo"]["rootPath"] = project.into();
    } else {
        payload["cwd"] = project.into();
    }
    payload
}

fn session_of(payload: &Value) -> String {
    ["session_id", "sessionId", "taskId"]
        .iter()
        .find_map(|k| payload.get(*k).and_then(Value::as_str))
        .unwrap_or_default()
        .to_string()
}

/// A project folder in `tmp`, a repository of its own (a `.git`), as Codex's are: Codex (and
/// hookx for it) takes the nearest `.git` at or above `cwd` for the project. Without one the
/// walk went on above the test's folder, and a `.git` anywhere there for a moment (another
/// process's `/tmp/.git`) made that folder the project: a few cases of a Codex matrix failed
/// under load, each handler shown `/tmp` (attacks row 1120).
fn project_in(tmp: &Path) -> PathBuf {
    let project = tmp.join("project");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    project
}

/// One event from `host` to a `handler`, the way `via` wires them.
fn invoke(via: Via, row: &Row, host: F, handler: F) -> Outcome {
    let tmp = tempfile::tempdir().expect("temp dir");
    let project = project_in(tmp.path());
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let ev = row.sc.event();
    let payload = host_payload(row.sc, host, &project);
    let host_event = host.event(ev).expect("the host has the event");
    let handler_event = handler.event(ev).unwrap_or(ev.pascal());
    let (tool, args) = match row.sc.tool() {
        Some((tool, args)) => (
            handler.tool(tool).to_string(),
            args.as_object()
                .unwrap()
                .keys()
                .map(|k| handler.arg(tool, k))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        None => (String::new(), String::new()),
    };
    let script = handler_script(handler);
    let command = format!("sh '{}'", script.display());

    let mut cmd = Command::cargo_bin("hookx").expect("hookx binary");
    for var in AGENT_VARS {
        cmd.env_remove(var);
    }
    cmd.env_remove("HOOKX_HOME");
    cmd.env_remove("HOOKX_HOST");
    // The host runs hooks in its project with its own variables.
    cmd.current_dir(&project)
        .envs(host.own_env(&project, &session_of(&payload), host_event))
        .env("E2E_OUT", &out)
        .env("E2E_EXPECT_EVENT", handler.payload_event(ev).unwrap_or(""))
        .env("E2E_EXPECT_TOOL", &tool)
        .env("E2E_EXPECT_ARGS", &args)
        .env("E2E_EXPECT_PROJECT", &project)
        .env("E2E_ANSWER", row.says)
        .env("E2E_REASON", row.reason)
        .timeout(TIMEOUT)
        .write_stdin(payload.to_string());
    let matcher = row.matcher.for_flavour(handler);
    match via {
        Via::Exec => {
            // exec keeps a Cursor stop hook's follow-up count under `$HOME` (row 306).
            cmd.env("HOME", tmp.path().join("home"))
                .args(["exec", "--as", handler.name(), "--host", host.dialect()])
                .args(["--event", handler_event]);
            if let Some(m) = matcher {
                cmd.args(["--match", m]);
            }
            cmd.args(["--", "sh"]).arg(&script);
        }
        Via::Run => {
            let (file, text) = hook_file(handler, handler_event, matcher, &command);
            common::write(&project, &file, &text);
            let home = tmp.path().join("home");
            std::fs::create_dir_all(&home).unwrap();
            let trusted = Command::cargo_bin("hookx")
                .unwrap()
                .args(["trust", "--yes", "--project"])
                .arg(&project)
                .env("HOOKX_HOME", &home)
                .timeout(TIMEOUT)
                .output()
                .expect("hookx trust runs");
            assert!(
                trusted.status.success(),
                "hookx trust: {}",
                String::from_utf8_lossy(&trusted.stderr)
            );
            cmd.args([
                "run",
                "--host",
                host.dialect(),
                "--event",
                host_event,
                "--project",
            ])
            .arg(&project)
            .arg("--home")
            .arg(&home);
        }
    }
    let output = cmd.output().expect("hookx runs");
    let handler_stdin = std::fs::read_to_string(out.join("stdin.json")).ok();
    let handler_env = std::fs::read_to_string(out.join("env.txt"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Outcome {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        handler_stdin,
        handler_env,
        handler_failures: std::fs::read_to_string(out.join("failures")).unwrap_or_default(),
        handler_pwd: std::fs::read_to_string(out.join("pwd"))
            .ok()
            .map(|p| PathBuf::from(p.trim_end())),
        project: project.canonicalize().unwrap(),
    }
}

/// The hook file that registers `command` for `event` in a flavour's own config
/// (dialects.md §1-§2), and its text, for [`Via::Run`].
fn hook_file(f: F, event: &str, matcher: Option<&str>, command: &str) -> (String, String) {
    if f == Cline {
        // A script named after the event in the project's hook folder (cline-facts.md).
        assert!(matcher.is_none(), "a Cline hook takes no matcher");
        return (
            format!(".clinerules/hooks/{event}"),
            format!("#!/bin/sh\n{command}\n"),
        );
    }
    let (file, config) = hook_config(f, event, matcher, command);
    (
        file.to_string(),
        serde_json::to_string_pretty(&config).unwrap(),
    )
}

/// The JSON config of the flavours whose hooks are entries of a settings file.
fn hook_config(f: F, event: &str, matcher: Option<&str>, command: &str) -> (&'static str, Value) {
    let mut group = Map::new();
    if let Some(m) = matcher {
        group.insert("matcher".into(), m.into());
    }
    match f {
        Claude | Bricks | Qwen | Codex | Droid => {
            group.insert(
                "hooks".into(),
                json!([{"type": "command", "command": command}]),
            );
            let file = match f {
                Claude => ".claude/settings.json",
                Qwen => ".qwen/settings.json",
                Codex => ".codex/hooks.json",
                Droid => ".factory/settings.json",
                _ => ".bricks/hooks.json",
            };
            (file, json!({"hooks": {event: [group]}}))
        }
        Gemini => {
            group.insert(
                "hooks".into(),
                json!([{"type": "command", "command": command}]),
            );
            (".gemini/settings.json", json!({"hooks": {event: [group]}}))
        }
        Copilot | Pascal => {
            group.insert("type".into(), "command".into());
            let key = if f == Copilot { "bash" } else { "command" };
            group.insert(key.into(), command.into());
            (
                ".github/hooks/e2e.json",
                json!({"version": 1, "hooks": {event: [group]}}),
            )
        }
        Cline => unreachable!("a script, written by hook_file"),
    }
}

/// Whether `host` runs a hook file of flavour `f` itself, so that `hookx run` leaves it alone
/// (Copilot also reads `.claude/settings.json`).
fn native(host: F, f: F) -> bool {
    host.dialect() == f.dialect() || (host.dialect() == "copilot" && f == Claude)
}

// ---------------------------------------------------------------------------------------------
// Checks.

/// Everything wrong with one run, each line naming what.
fn check(row: &Row, host: F, handler: F, got: &Outcome) -> Vec<String> {
    let mut bad = Vec::new();
    let expect = row.expect(host);
    if got.code == Some(101) || got.stderr.contains("panicked") {
        bad.push(format!("hookx panicked: {}", got.stderr));
        return bad;
    }
    if !got.handler_failures.is_empty() {
        bad.push(format!(
            "the handler's own checks failed:\n{}",
            got.handler_failures.trim_end()
        ));
    }
    match (&got.handler_stdin, matches!(expect, NotRun)) {
        (Some(_), true) => bad.push("the handler ran, but its matcher should not fire".into()),
        (None, false) => bad.push("the handler did not run".into()),
        (Some(stdin), false) => {
            if got.handler_pwd.as_ref() != Some(&got.project) {
                bad.push(format!(
                    "the handler ran in {:?}, not in the project {:?}",
                    got.handler_pwd, got.project
                ));
            }
            bad.extend(check_stdin(row.sc, host, handler, stdin));
            bad.extend(check_env(row.sc, host, handler, &got.handler_env));
        }
        (None, true) => {}
    }
    let (mut code, stdout, stderr) = match expect {
        Json(j) => (0, Some(j), None),
        Silent | NotRun => (0, None, None),
        Note(n) => (0, None, Some(n.to_string())),
        AsClaude => unreachable!("Row::expect resolves it"),
    };
    let mut stdout: Option<Value> = stdout.map(|j| serde_json::from_str(j).expect("row JSON"));
    let mut stderr = stderr;
    // Several hooks on one call (attacks rows 2046, 2047): Qwen takes the last hook's
    // `permissionDecision`, where hookx writes no allow; Droid the first, so hookx denies by
    // exit 2 with the reason on stderr.
    if let Some(want) = &mut stdout {
        let stops = want["continue"] == false;
        let hso = &want["hookSpecificOutput"];
        let decision = hso["permissionDecision"].as_str().map(str::to_owned);
        let reason = hso["permissionDecisionReason"].as_str().map(str::to_owned);
        match (host, decision.as_deref()) {
            (Qwen, Some("allow")) => {
                let o = want["hookSpecificOutput"].as_object_mut().unwrap();
                o.remove("permissionDecision");
                o.remove("permissionDecisionReason");
                if o.len() == 1 {
                    want.as_object_mut().unwrap().remove("hookSpecificOutput");
                }
            }
            (Droid, Some("deny")) if !stops => {
                (code, stderr) = (2, Some(reason.unwrap_or_default()));
                want.as_object_mut().unwrap().clear();
            }
            _ => {}
        }
        if want.as_object().is_some_and(|o| o.is_empty()) {
            stdout = None;
        }
    }
    if got.code != Some(code) {
        bad.push(format!("exit code {:?}, expected {code}", got.code));
    }
    match stdout {
        Some(want) => {
            let j = want.to_string();
            match serde_json::from_str::<Value>(got.stdout.trim()) {
                Ok(v) if v == want => {}
                _ => bad.push(format!("stdout {:?}, expected {j}", got.stdout)),
            }
        }
        None if !got.stdout.trim().is_empty() => {
            bad.push(format!("stdout {:?}, expected nothing", got.stdout))
        }
        None => {}
    }
    match (expect, stderr) {
        (_, Some(s)) if !got.stderr.contains(&s) => {
            bad.push(format!("stderr {:?} does not say {s:?}", got.stderr))
        }
        _ => {}
    }
    if !bad.is_empty() {
        bad.push(format!("(hookx stderr: {:?})", got.stderr));
    }
    bad
}

/// The handler's stdin, exactly as its dialect shapes it (§6).
fn check_stdin(sc: Sc, host: F, handler: F, stdin: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let v: Value = match serde_json::from_str(stdin) {
        Ok(v) => v,
        Err(e) => return vec![format!("handler stdin is not JSON ({e}): {stdin}")],
    };
    let Some(obj) = v.as_object() else {
        return vec![format!("handler stdin is not an object: {stdin}")];
    };
    let ev = sc.event();
    // Key casing, top level.
    for key in obj.keys() {
        let ok = match handler {
            // Copilot's camelCase notification keeps `hook_event_name` and
            // `notification_type`; no scenario here sends one. agentStop's
            // `stop_hook_active` is snake_case (run 1.0.102).
            Copilot => {
                !key.contains('_')
                    || ["hook_event_name", "notification_type", "stop_hook_active"]
                        .contains(&key.as_str())
            }
            // Run 3.0.65: camelCase beside these four.
            Cline => {
                !key.contains('_')
                    || ["tool_call", "tool_result", "agent_id", "parent_agent_id"]
                        .contains(&key.as_str())
            }
            _ => !key.chars().any(|c| c.is_ascii_uppercase()),
        };
        if !ok {
            bad.push(format!("key `{key}` is not {} case", handler.name()));
        }
    }
    // The event name.
    let named = obj.get(handler.event_key()).and_then(Value::as_str);
    if named != handler.payload_event(ev) {
        bad.push(format!(
            "{} {named:?}, expected {:?}",
            handler.event_key(),
            handler.payload_event(ev)
        ));
    }
    // The timestamp.
    let ts = obj.get("timestamp");
    let ts_ok = match handler {
        Claude | Bricks | Codex | Droid => ts.is_none(),
        Copilot => ts
            .and_then(Value::as_i64)
            .is_some_and(|ms| ms > 1_600_000_000_000),
        Pascal | Gemini | Qwen | Cline => ts
            .and_then(Value::as_str)
            .is_some_and(|s| chrono::DateTime::parse_from_rfc3339(s).is_ok()),
    };
    if !ts_ok {
        bad.push(format!("timestamp {ts:?} is not {}'s form", handler.name()));
    }
    // The host's time, or now if the host sends none.
    let payload = host_payload(sc, host, Path::new("/unused"));
    let millis = |v: Option<&Value>| match v {
        Some(Value::Number(n)) => n.as_i64(),
        Some(Value::String(s)) => chrono::DateTime::parse_from_rfc3339(s)
            .ok()
            .map(|t| t.timestamp_millis()),
        _ => None,
    };
    if let Some(got) = millis(ts) {
        match millis(payload.get("timestamp")) {
            Some(sent) if got != sent => {
                bad.push(format!("timestamp {got} ms, but the host sent {sent} ms"))
            }
            Some(_) => {}
            None if (chrono::Utc::now().timestamp_millis() - got).abs() > 600_000 => {
                bad.push(format!("timestamp {got} ms is not now"))
            }
            None => {}
        }
    }
    // Session and working directory come through.
    let session = obj.get(&handler.key("session_id")).and_then(Value::as_str);
    if session != Some(session_of(&payload).as_str()) {
        bad.push(format!(
            "session id {session:?}, expected {:?}",
            session_of(&payload)
        ));
    }
    let cwd = match handler {
        Cline => obj.get("workspaceRoots").and_then(|r| r.get(0)),
        _ => obj.get("cwd"),
    };
    let cwd = cwd.and_then(Value::as_str).map(PathBuf::from);
    if cwd.as_deref().and_then(|c| c.file_name()) != Some("project".as_ref()) {
        bad.push(format!("cwd {cwd:?} is not the host's project"));
    }
    // The tool call: its name and arguments in the handler's own names. Cline's is the object
    // `tool_call` (`tool_result` after the call) `{id, name, input}`.
    let (name_key, args_key) = match handler {
        Cline => ("name".to_string(), "input".to_string()),
        _ => (handler.key("tool_name"), handler.key("tool_input")),
    };
    let empty = Map::new();
    let call = match handler {
        Cline => ["tool_call", "tool_result"]
            .iter()
            .find_map(|k| obj.get(*k).and_then(Value::as_object))
            .unwrap_or(&empty),
        _ => obj,
    };
    match sc.tool() {
        None => {
            for key in [&name_key, &args_key, "tool_call", "toolName"] {
                if obj.contains_key(key) {
                    bad.push(format!("`{key}` on an event without a tool"));
                }
            }
        }
        Some((tool, canonical)) => {
            let name = call.get(&name_key).and_then(Value::as_str);
            if name != Some(handler.tool(tool)) {
                bad.push(format!(
                    "`{name_key}` {name:?}, expected {:?}",
                    handler.tool(tool)
                ));
            }
            let want: Map<String, Value> = match (handler, tool) {
                // The patch Codex would send for the scenario's edit or write.
                (Codex, Tool::Edit | Tool::Write) => {
                    let path = canonical["file_path"].as_str().unwrap_or_default();
                    let body = match tool {
                        Tool::Edit => format!(
                            "*** Update File: {path}\n@@\n-{}\n+{}\n",
                            canonical["old_string"].as_str().unwrap_or_default(),
                            canonical["new_string"].as_str().unwrap_or_default()
                        ),
                        _ => format!(
                            "*** Add File: {path}\n+{}",
                            canonical["content"].as_str().unwrap_or_default()
                        ),
                    };
                    let patch = format!("*** Begin Patch\n{body}*** End Patch\n");
                    [("command".to_string(), Value::String(patch))]
                        .into_iter()
                        .collect()
                }
                // Codex's grammar; an added file's lines joined with no newline after the last
                // (run 3.0.65), so a content that ends in one has an empty last line.
                (Cline, Tool::Edit | Tool::Write) => {
                    let path = canonical["file_path"].as_str().unwrap_or_default();
                    let body = match tool {
                        Tool::Edit => format!(
                            "*** Update File: {path}\n@@\n-{}\n+{}\n",
                            canonical["old_string"].as_str().unwrap_or_default(),
                            canonical["new_string"].as_str().unwrap_or_default()
                        ),
                        _ => {
                            let content = canonical["content"].as_str().unwrap_or_default();
                            let lines: String =
                                content.split('\n').map(|l| format!("+{l}\n")).collect();
                            format!("*** Add File: {path}\n{lines}")
                        }
                    };
                    let patch = format!("*** Begin Patch\n{body}*** End Patch\n");
                    [("input".to_string(), Value::String(patch))]
                        .into_iter()
                        .collect()
                }
                (Cline, Tool::Bash) => [("commands".to_string(), json!([canonical["command"]]))]
                    .into_iter()
                    .collect(),
                _ => canonical
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (handler.arg(tool, k), v.clone()))
                    .collect(),
            };
            let args = match (handler, call.get(&args_key)) {
                // Copilot camelCase: an object since 1.0.x (run 1.0.102; a JSON string before).
                (_, Some(v @ Value::Object(_))) => Some(v.clone()),
                (_, other) => {
                    bad.push(format!("`{args_key}` is not an object: {other:?}"));
                    None
                }
            };
            if let Some(args) = args
                && args != Value::Object(want.clone())
            {
                bad.push(format!(
                    "arguments {args}, expected {}",
                    Value::Object(want.clone())
                ));
            }
            // Cline's second form: `{toolName, parameters}`, each parameter JSON-encoded
            // unless it is a string (run 3.0.65).
            if handler == Cline {
                let body = ["preToolUse", "postToolUse"]
                    .iter()
                    .find_map(|k| obj.get(*k))
                    .unwrap_or(&Value::Null);
                let encoded: Map<String, Value> = want
                    .iter()
                    .map(|(k, v)| {
                        let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                        (k.clone(), Value::String(text))
                    })
                    .collect();
                if body["toolName"] != handler.tool(tool) || body["parameters"] != json!(encoded) {
                    bad.push(format!(
                        "{{toolName, parameters}} {body}, expected {} and {}",
                        handler.tool(tool),
                        Value::Object(encoded)
                    ));
                }
            }
        }
    }
    // A tool result in the handler's envelope.
    if sc == Sc::PostBash {
        // (PostToolUseFailure carries an error, no result.)
        let key = handler.key("tool_response");
        let result = obj.get(&key);
        let ok = match handler {
            Copilot => result.is_some_and(|r| {
                r.get("resultType").is_some() && r.get("textResultForLlm").is_some()
            }),
            Pascal => result.is_some_and(|r| {
                r.get("result_type").is_some() && r.get("text_result_for_llm").is_some()
            }),
            // Codex sends the output text: a raw response is passed on as it came.
            // Droid sends the output text too (run 0.225.2); Cline a list, one result per
            // command line (run 3.0.65).
            Claude | Bricks | Gemini | Qwen => result.is_some_and(|r| {
                r.is_object()
                    || matches!(host, Codex | Droid) && r.is_string()
                    || host == Cline && r.is_array()
            }),
            Codex | Droid => result
                .is_some_and(|r| r.is_object() || r.is_string() || host == Cline && r.is_array()),
            // The output in `tool_result`, and JSON-encoded in `postToolUse.result` (run 3.0.65).
            Cline => {
                call.contains_key("output")
                    && obj
                        .get("postToolUse")
                        .and_then(|body| body.get("result"))
                        .is_some_and(Value::is_string)
            }
        };
        if !ok {
            bad.push(format!(
                "`{key}` {result:?} is not {}'s tool result",
                handler.name()
            ));
        }
    }
    if !bad.is_empty() {
        bad.push(format!("(handler stdin: {stdin})"));
    }
    bad
}

/// The handler's own variables hold the right values; no other agent's are set (§6).
fn check_env(sc: Sc, host: F, handler: F, env: &BTreeMap<String, String>) -> Vec<String> {
    let mut bad = Vec::new();
    let project = env.get("E2E_EXPECT_PROJECT").cloned().unwrap_or_default();
    let session = session_of(&host_payload(sc, host, Path::new("/unused")));
    let event = handler.event(sc.event()).unwrap_or(sc.event().pascal());
    let own = handler.own_env(Path::new(&project), &session, event);
    for (var, value) in &own {
        if env.get(*var) != Some(value) {
            bad.push(format!("${var} is {:?}, expected {value:?}", env.get(*var)));
        }
    }
    for var in AGENT_VARS {
        if !own.iter().any(|(v, _)| v == var) && env.contains_key(*var) {
            bad.push(format!("${var} is set for a {} handler", handler.name()));
        }
    }
    // Whatever its own dialect, the handler is told which agent runs it (issue 12).
    if env.get("HOOKX_HOST").map(String::as_str) != Some(host.dialect()) {
        bad.push(format!(
            "$HOOKX_HOST is {:?}, expected {:?}",
            env.get("HOOKX_HOST"),
            host.dialect()
        ));
    }
    bad
}

// ---------------------------------------------------------------------------------------------
// The matrix.

fn run_matrix(host: F, via: Via) {
    let mut failures = Vec::new();
    let mut ran = 0;
    for row in ROWS {
        if host.event(row.sc.event()).is_none() {
            continue;
        }
        for &handler in row.handlers {
            // A handler is never registered for an event its dialect lacks.
            if handler.event(row.sc.event()).is_none() || via == Via::Run && native(host, handler) {
                continue;
            }
            let got = invoke(via, row, host, handler);
            ran += 1;
            let bad = check(row, host, handler, &got);
            if !bad.is_empty() {
                failures.push(format!(
                    "[{}] host={} handler={} via {via:?}:\n  {}",
                    row.case,
                    host.name(),
                    handler.name(),
                    bad.join("\n  ")
                ));
            }
        }
    }
    assert!(ran > 0, "no row ran for host {}", host.name());
    // The matrix's size, for `--nocapture` readers (issue 12 asks for the counts).
    eprintln!("e2e: host {} ({via:?}): {ran} cases", host.name());
    assert!(
        failures.is_empty(),
        "{} of {ran} cases failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn claude_host_runs_every_handler_flavour() {
    run_matrix(Claude, Via::Exec);
}

#[test]
fn copilot_camel_case_host_runs_every_handler_flavour() {
    run_matrix(Copilot, Via::Exec);
}

#[test]
fn copilot_pascal_case_host_runs_every_handler_flavour() {
    run_matrix(Pascal, Via::Exec);
}

#[test]
fn bricks_host_runs_every_handler_flavour() {
    run_matrix(Bricks, Via::Exec);
}

#[test]
fn gemini_host_runs_every_handler_flavour() {
    run_matrix(Gemini, Via::Exec);
}

#[test]
fn codex_host_runs_every_handler_flavour() {
    run_matrix(Codex, Via::Exec);
}

#[test]
fn qwen_host_runs_every_handler_flavour() {
    run_matrix(Qwen, Via::Exec);
}

#[test]
fn droid_host_runs_every_handler_flavour() {
    run_matrix(Droid, Via::Exec);
}

#[test]
fn cline_host_runs_every_handler_flavour() {
    run_matrix(Cline, Via::Exec);
}

// Through `hookx run`, one test per host, as through `hookx exec` above: one test over every
// host ran for minutes on a busy machine, and libtest's "running for over 60 seconds" then
// named no host; each test's name now says which matrix it waits for.
#[test]
fn claude_host_through_hookx_run() {
    run_matrix(Claude, Via::Run);
}

#[test]
fn copilot_camel_case_host_through_hookx_run() {
    run_matrix(Copilot, Via::Run);
}

#[test]
fn copilot_pascal_case_host_through_hookx_run() {
    run_matrix(Pascal, Via::Run);
}

#[test]
fn bricks_host_through_hookx_run() {
    run_matrix(Bricks, Via::Run);
}

#[test]
fn gemini_host_through_hookx_run() {
    run_matrix(Gemini, Via::Run);
}

#[test]
fn qwen_host_through_hookx_run() {
    run_matrix(Qwen, Via::Run);
}

#[test]
fn codex_host_through_hookx_run() {
    run_matrix(Codex, Via::Run);
}

#[test]
fn droid_host_through_hookx_run() {
    run_matrix(Droid, Via::Run);
}

#[test]
fn cline_host_through_hookx_run() {
    run_matrix(Cline, Via::Run);
}

/// The table itself: every host meets every handler flavour in some row, every row names
/// handlers, and every (scenario, host) that a row uses has a payload.
#[test]
fn the_matrix_covers_every_host_and_handler() {
    for &host in ALL {
        for &handler in ALL {
            let rows = ROWS
                .iter()
                .filter(|r| {
                    host.event(r.sc.event()).is_some()
                        && handler.event(r.sc.event()).is_some()
                        && r.handlers.contains(&handler)
                })
                .count();
            assert!(
                rows >= 5,
                "host {} meets handler {} in only {rows} rows",
                host.name(),
                handler.name()
            );
        }
    }
    for row in ROWS {
        assert!(!row.handlers.is_empty(), "[{}] names no handler", row.case);
        for &host in ALL {
            if host.event(row.sc.event()).is_some() {
                let path = fixtures_dir().join(row.sc.payload(host).unwrap());
                assert!(path.is_file(), "[{}] {path:?} is missing", row.case);
            }
        }
    }
}

/// A handler that checks nothing proves nothing: each handler script must reject a payload
/// of another dialect (here: the Claude payload fed to it directly, without hookx).
#[test]
fn handler_scripts_reject_a_foreign_payload() {
    for &handler in ALL {
        let tmp = tempfile::tempdir().unwrap();
        let payload = host_payload(
            Sc::PreEdit,
            if handler == Claude { Bricks } else { Claude },
            tmp.path(),
        );
        let out = std::process::Command::new("sh")
            .arg(handler_script(handler))
            .env("E2E_OUT", tmp.path())
            .env(
                "E2E_EXPECT_EVENT",
                handler.payload_event(Ev::PreToolUse).unwrap_or(""),
            )
            .env("E2E_EXPECT_TOOL", handler.tool(Tool::Edit))
            .env("E2E_EXPECT_ARGS", handler.arg(Tool::Edit, "file_path"))
            .env("E2E_EXPECT_PROJECT", tmp.path())
            .env("E2E_ANSWER", "silent")
            .env("E2E_REASON", "")
            .output_with_stdin(&payload.to_string())
            .expect("sh runs");
        assert_eq!(
            out.status.code(),
            Some(3),
            "{} handler accepted a foreign payload",
            handler.name()
        );
        let failures = std::fs::read_to_string(tmp.path().join("failures")).unwrap();
        assert!(
            failures.contains(&format!("{} handler:", handler.name())),
            "{failures}"
        );
    }
}

/// A tool the handler's dialect has no name for (Claude's `NotebookEdit` under Copilot or
/// Bricks) reaches it under the name its agent gives it, which is also what its matcher reads;
/// hookx's internal tool ids never show.
#[test]
fn a_tool_the_handler_dialect_lacks_keeps_its_agent_name() {
    for (handler, matcher, key) in [
        (Copilot, "NotebookEdit", "toolName"),
        (Bricks, "NotebookEdit", "tool_name"),
        (Claude, "NotebookEdit", "tool_name"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let got = tmp.path().join("stdin.json");
        let payload = json!({
            "session_id": "abc123", "transcript_path": "/t.jsonl", "cwd": tmp.path(),
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": "NotebookEdit", "tool_input": {"notebook_path": "/a.ipynb"}
        });
        let out = Command::cargo_bin("hookx")
            .unwrap()
            .current_dir(tmp.path())
            .args(["exec", "--host", "claude", "--as", handler.name()])
            .args(["--event", "PreToolUse", "--match", matcher, "--"])
            .arg(format!("cat > '{}'", got.display()))
            .write_stdin(payload.to_string())
            .timeout(TIMEOUT)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = std::fs::read_to_string(&got)
            .unwrap_or_else(|_| panic!("{} handler did not run: {out:?}", handler.name()));
        let stdin: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            stdin[key],
            "NotebookEdit",
            "{} handler got {text}",
            handler.name()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Cursor, VS Code and Windsurf (docs: no runnable client here) and Augment (its source's payload
// shapes; tests/live_augment.rs runs it). Their hand-written payloads (`tests/fixtures/documented/`)
// go to every handler flavour above, and their handlers (`cursor.sh`, `vscode.sh`, `windsurf.sh`,
// `augment.sh`) run under every host above; both through `hookx exec` with the real handler
// scripts, which check what they receive.

/// A handler flavour of the docs dialects: `--as` value, script, and names in its payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Docs {
    Cursor,
    VsCode,
    Windsurf,
    /// Facts read in auggie 0.36.0's shipped code ("source"), not documents.
    Augment,
    Kiro,
}

impl Docs {
    fn name(self) -> &'static str {
        match self {
            Docs::Cursor => "cursor",
            Docs::VsCode => "vscode",
            Docs::Windsurf => "windsurf",
            Docs::Kiro => "kiro",
            Docs::Augment => "augment",
        }
    }

    /// The folder of its hand-written payloads below `tests/fixtures/documented/`.
    fn folder(self) -> String {
        match self {
            Docs::Augment => "augment-source".into(),
            _ => format!("{}-docs", self.name()),
        }
    }

    /// The `--as` value of its hooks on `e`: Windsurf's tool events are tool categories.
    fn flavour(self, e: Ev) -> &'static str {
        match (self, e) {
            (Docs::Windsurf, Ev::PreToolUse) => "windsurf-command",
            _ => self.name(),
        }
    }

    fn event(self, e: Ev) -> &'static str {
        match (self, e) {
            (Docs::Windsurf, Ev::PreToolUse) => "pre_run_command",
            (Docs::Windsurf, Ev::Stop) => "post_cascade_response",
            (Docs::Windsurf, Ev::UserPromptSubmit) => "pre_user_prompt",
            (Docs::Cursor, Ev::PreToolUse) => "preToolUse",
            (Docs::Cursor, Ev::Stop) => "stop",
            (Docs::Cursor, Ev::SessionStart) => "sessionStart",
            (Docs::Cursor, Ev::UserPromptSubmit) => "beforeSubmitPrompt",
            (Docs::Augment, Ev::UserPromptSubmit) => "PromptSubmit",
            (_, e) => e.pascal(),
        }
    }

    /// The event as its payload names it: Kiro's files say `PreToolUse`, its payloads
    /// `preToolUse` (kiro-facts.md).
    fn payload_event(self, e: Ev) -> &'static str {
        match (self, e) {
            (Docs::Kiro, Ev::PreToolUse) => "preToolUse",
            (Docs::Kiro, Ev::Stop) => "stop",
            (Docs::Kiro, Ev::SessionStart) => "agentSpawn",
            (Docs::Kiro, Ev::UserPromptSubmit) => "userPromptSubmit",
            _ => self.event(e),
        }
    }

    /// The shell tool's name and its command argument (Cursor: agents.md; VS Code: hooks.md's
    /// usage scenario; Windsurf names no tool, `tool_info.command_line`: its hooks page).
    fn shell(self) -> (&'static str, &'static str) {
        match self {
            Docs::Cursor => ("Shell", "command"),
            Docs::VsCode => ("runTerminalCommand", "command"),
            Docs::Windsurf => ("", "command_line"),
            Docs::Augment => ("launch-process", "command"),
            Docs::Kiro => ("execute_bash", "command"),
        }
    }

    /// A documented payload of this host for `e`, sent from `project`.
    fn payload(self, e: Ev, project: &Path) -> Value {
        let path = fixtures_dir()
            .join("documented")
            .join(self.folder())
            .join(format!("{}.json", self.event(e)));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let fixture: Value = serde_json::from_str(&text).unwrap();
        let text = fixture["stdin"]
            .to_string()
            .replace("<project>", project.to_str().unwrap());
        let mut payload: Value = serde_json::from_str(&text).unwrap();
        payload["cwd"] = project.display().to_string().into();
        payload
    }
}

/// One docs-host case: the event, what the handler says, and what the host must get back.
struct DocsRow {
    ev: Ev,
    says: &'static str,
    reason: &'static str,
    handlers: &'static [F],
    /// The host's stdout (empty: none).
    expect: &'static str,
    /// The host's exit code; at 2 its stderr holds the reason.
    exit: i32,
}

/// What one handler is told to expect and answer.
struct DocsCall<'a> {
    host: &'a str,
    payload: &'a Value,
    project: &'a Path,
    as_flavour: &'a str,
    handler_event: &'a str,
    script: PathBuf,
    expect_event: &'a str,
    expect_tool: (&'a str, &'a str),
    says: &'a str,
    reason: &'a str,
    env: Vec<(&'static str, String)>,
}

/// `hookx exec --host HOST --as AS` with the handler script: exit code, stdout, stderr, and
/// the handler's own complaints.
fn exec_docs(call: DocsCall) -> (Option<i32>, String, String, String) {
    let out = call.project.parent().unwrap().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let mut cmd = Command::cargo_bin("hookx").unwrap();
    // exec keeps a Cursor stop hook's follow-up count under `$HOME` (row 306).
    cmd.env("HOME", call.project.parent().unwrap().join("home"));
    for var in AGENT_VARS {
        cmd.env_remove(var);
    }
    cmd.env_remove("HOOKX_HOME").env_remove("HOOKX_HOST");
    let output = cmd
        .current_dir(call.project)
        .envs(call.env)
        .env("E2E_OUT", &out)
        .env("E2E_EXPECT_EVENT", call.expect_event)
        .env("E2E_EXPECT_TOOL", call.expect_tool.0)
        .env("E2E_EXPECT_ARGS", call.expect_tool.1)
        .env("E2E_EXPECT_PROJECT", call.project)
        .env("E2E_ANSWER", call.says)
        .env("E2E_REASON", call.reason)
        .args(["exec", "--as", call.as_flavour, "--host", call.host])
        .args(["--event", call.handler_event, "--", "sh"])
        .arg(&call.script)
        .timeout(TIMEOUT)
        .write_stdin(call.payload.to_string())
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        std::fs::read_to_string(out.join("failures")).unwrap_or_default(),
    )
}

#[rustfmt::skip]
const CURSOR_HOST_ROWS: &[DocsRow] = &[
    DocsRow { ev: Ev::PreToolUse, says: "deny", reason: "no npm here", handlers: ALL,
        expect: r#"{"permission":"deny","agent_message":"no npm here","user_message":"no npm here"}"#, exit: 0 },
    DocsRow { ev: Ev::Stop, says: "block", reason: "run the tests", handlers: &[Claude, Copilot, Pascal],
        expect: r#"{"followup_message":"run the tests"}"#, exit: 0 },
    DocsRow { ev: Ev::SessionStart, says: "context", reason: "branch main", handlers: &[Claude, Copilot],
        expect: r#"{"additional_context":"branch main"}"#, exit: 0 },
    DocsRow { ev: Ev::UserPromptSubmit, says: "silent", reason: "", handlers: ALL, expect: "", exit: 0 },
];

#[rustfmt::skip]
const VSCODE_HOST_ROWS: &[DocsRow] = &[
    DocsRow { ev: Ev::PreToolUse, says: "deny", reason: "no rm here", handlers: ALL,
        expect: r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm here"}}"#, exit: 0 },
    DocsRow { ev: Ev::Stop, says: "block", reason: "run the tests", handlers: &[Claude, Copilot, Pascal],
        expect: r#"{"hookSpecificOutput":{"hookEventName":"Stop","decision":"block","reason":"run the tests"}}"#, exit: 0 },
    DocsRow { ev: Ev::SessionStart, says: "context", reason: "branch main", handlers: &[Claude, Copilot],
        expect: r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch main"}}"#, exit: 0 },
    DocsRow { ev: Ev::UserPromptSubmit, says: "silent", reason: "", handlers: ALL, expect: "", exit: 0 },
];

/// Auggie reads answers only inside `hookSpecificOutput` (a Claude handler's top-level
/// `decision` must come back there); its Stop answer is unused, but hookx still writes it.
#[rustfmt::skip]
const AUGMENT_HOST_ROWS: &[DocsRow] = &[
    DocsRow { ev: Ev::PreToolUse, says: "deny", reason: "no npm here", handlers: ALL,
        expect: r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no npm here"}}"#, exit: 0 },
    DocsRow { ev: Ev::Stop, says: "block", reason: "run the tests", handlers: &[Claude, Copilot, Pascal, Qwen, Droid],
        expect: r#"{"hookSpecificOutput":{"hookEventName":"Stop","decision":"block","reason":"run the tests"}}"#, exit: 0 },
    DocsRow { ev: Ev::UserPromptSubmit, says: "silent", reason: "", handlers: ALL, expect: "", exit: 0 },
];

/// Windsurf answers by exit code only: 2 blocks a pre-hook, with stderr as the reason.
#[rustfmt::skip]
const WINDSURF_HOST_ROWS: &[DocsRow] = &[
    DocsRow { ev: Ev::PreToolUse, says: "deny", reason: "no npm here", handlers: ALL, expect: "", exit: 2 },
    DocsRow { ev: Ev::UserPromptSubmit, says: "block", reason: "no secrets", handlers: &[Claude, Copilot],
        expect: "", exit: 2 },
    DocsRow { ev: Ev::UserPromptSubmit, says: "silent", reason: "", handlers: ALL, expect: "", exit: 0 },
    DocsRow { ev: Ev::Stop, says: "silent", reason: "", handlers: ALL, expect: "", exit: 0 },
];

/// Kiro answers by exit code only: 2 denies a tool call, with stderr as the reason; it cannot
/// block a prompt or a stop (kiro-facts.md).
#[rustfmt::skip]
const KIRO_HOST_ROWS: &[DocsRow] = &[
    DocsRow { ev: Ev::PreToolUse, says: "deny", reason: "no npm here", handlers: ALL, expect: "", exit: 2 },
    DocsRow { ev: Ev::UserPromptSubmit, says: "silent", reason: "", handlers: ALL, expect: "", exit: 0 },
    DocsRow { ev: Ev::Stop, says: "silent", reason: "", handlers: ALL, expect: "", exit: 0 },
    DocsRow { ev: Ev::SessionStart, says: "silent", reason: "", handlers: ALL, expect: "", exit: 0 },
];

#[test]
fn docs_hosts_run_every_handler_flavour() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for (host, rows) in [
        (Docs::Cursor, CURSOR_HOST_ROWS),
        (Docs::VsCode, VSCODE_HOST_ROWS),
        (Docs::Windsurf, WINDSURF_HOST_ROWS),
        (Docs::Augment, AUGMENT_HOST_ROWS),
        (Docs::Kiro, KIRO_HOST_ROWS),
    ] {
        for row in rows {
            for &handler in row.handlers {
                let Some(handler_event) = handler.event(row.ev) else {
                    continue;
                };
                let tmp = tempfile::tempdir().unwrap();
                let project = project_in(tmp.path());
                let payload = host.payload(row.ev, &project);
                let names_tool = payload.get("tool_name").is_some()
                    || payload.pointer("/tool_info/command_line").is_some();
                let (tool, args) = match names_tool {
                    true => (
                        handler.tool(Tool::Bash).to_string(),
                        handler.arg(Tool::Bash, "command"),
                    ),
                    false => (String::new(), String::new()),
                };
                let (code, stdout, stderr, handler_failures) = exec_docs(DocsCall {
                    host: host.name(),
                    payload: &payload,
                    project: &project,
                    as_flavour: handler.name(),
                    handler_event,
                    script: handler_script(handler),
                    expect_event: handler.payload_event(row.ev).unwrap_or(""),
                    expect_tool: (&tool, &args),
                    says: row.says,
                    reason: row.reason,
                    env: Vec::new(),
                });
                ran += 1;
                let what = format!(
                    "host {} handler {} on {:?} says {}",
                    host.name(),
                    handler.name(),
                    row.ev,
                    row.says
                );
                if !handler_failures.is_empty() {
                    failures.push(format!("{what}: {handler_failures}"));
                }
                let got: Option<Value> = serde_json::from_str(stdout.trim()).ok();
                let want: Option<Value> = serde_json::from_str(row.expect).ok();
                let reason_given = row.exit != 2 || stderr.contains(row.reason);
                if code != Some(row.exit) || got != want || !reason_given {
                    failures.push(format!(
                        "{what}: exit {code:?} stdout {stdout:?} stderr {stderr:?}"
                    ));
                }
            }
        }
    }
    assert!(ran >= 40, "only {ran} cases ran");
    assert!(
        failures.is_empty(),
        "{} of {ran} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn docs_handlers_run_under_every_host() {
    let mut failures = Vec::new();
    let mut ran = 0;
    let cases = [
        (Sc::PreBash, "deny", "no npm here"),
        (Sc::Stop, "block", "run the tests"),
    ];
    for &host in ALL {
        for handler in [
            Docs::Cursor,
            Docs::VsCode,
            Docs::Windsurf,
            Docs::Augment,
            Docs::Kiro,
        ] {
            for (sc, says, reason) in cases {
                let ev = sc.event();
                // Windsurf's `post_cascade_response` and Kiro's `Stop` cannot block.
                if matches!((handler, sc), (Docs::Windsurf | Docs::Kiro, Sc::Stop)) {
                    continue;
                }
                let Some(host_event) = host.event(ev) else {
                    continue;
                };
                let tmp = tempfile::tempdir().unwrap();
                let project = project_in(tmp.path());
                let payload = host_payload(sc, host, &project);
                let tool = if sc == Sc::PreBash {
                    handler.shell()
                } else {
                    ("", "")
                };
                let (code, stdout, stderr, handler_failures) = exec_docs(DocsCall {
                    host: host.dialect(),
                    payload: &payload,
                    project: &project,
                    as_flavour: handler.flavour(ev),
                    handler_event: handler.event(ev),
                    script: fixtures_dir().join(format!("e2e/handlers/{}.sh", handler.name())),
                    expect_event: handler.payload_event(ev),
                    expect_tool: tool,
                    says,
                    reason,
                    env: host.own_env(&project, &session_of(&payload), host_event),
                });
                ran += 1;
                let what = format!(
                    "host {} handler {} on {ev:?} says {says}",
                    host.name(),
                    handler.name()
                );
                if !handler_failures.is_empty() {
                    failures.push(format!("{what}: {handler_failures}"));
                }
                // What each host reads as a deny or a block, with the reason.
                let got: Value = serde_json::from_str(stdout.trim()).unwrap_or(Value::Null);
                let hso = &got["hookSpecificOutput"];
                let ok = match (host, sc) {
                    // Droid reads only its first hook's `permissionDecision`: hookx denies by
                    // exit 2, with the reason on stderr (attacks row 2047).
                    (Droid, Sc::PreBash) => code == Some(2) && stderr.trim() == reason,
                    _ => {
                        code == Some(0)
                            && match (host, sc) {
                                (Copilot, Sc::PreBash) => {
                                    got["permissionDecision"] == "deny"
                                        && got["permissionDecisionReason"] == reason
                                }
                                // Gemini reads a top-level decision (gemini-facts.md).
                                (Gemini, Sc::PreBash) => {
                                    got["decision"] == "deny" && got["reason"] == reason
                                }
                                // A deny ends Cline's run (cline-facts.md).
                                (Cline, Sc::PreBash) => {
                                    got["cancel"] == true && got["errorMessage"] == reason
                                }
                                (_, Sc::PreBash) => {
                                    hso["permissionDecision"] == "deny"
                                        && hso["permissionDecisionReason"] == reason
                                }
                                // Bricks and Cline cannot block Stop: hookx says so.
                                (Bricks | Cline, _) => {
                                    got.is_null() && stderr.contains("cannot block")
                                }
                                _ => got["decision"] == "block" && got["reason"] == reason,
                            }
                    }
                };
                if !ok {
                    failures.push(format!(
                        "{what}: exit {code:?} stdout {stdout:?} stderr {stderr:?}"
                    ));
                }
            }
        }
    }
    assert!(ran >= 21, "only {ran} cases ran");
    assert!(
        failures.is_empty(),
        "{} of {ran} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
