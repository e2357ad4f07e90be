//! What runs when a rule fires.

use serde::Serialize;
use serde_json::{Map, Value};

/// One handler, as written in its source file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Handler {
    pub kind: HandlerKind,
    /// Seconds, as written; `None` means the default of the dialect the handler was written in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeout: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub once: Option<bool>,
    /// Fields hookx does not know, written back verbatim by the same dialect.
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub extra: Map<String, Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum HandlerKind {
    Command(Command),
    /// Claude: an LLM prompt evaluated by the agent; Copilot (sessionStart only): text submitted
    /// as if the user typed it.
    Prompt(PromptSpec),
    /// Claude: a sub-agent with tools.
    Agent(PromptSpec),
    /// A handler the agent runs without a shell (Claude's `http` and `mcp_tool`, claude-code
    /// 2.1.332 schema): its fields stay in [`Handler::extra`], it is written back by its own
    /// dialect, and hookx cannot run it.
    Service(ServiceSpec),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ServiceSpec {
    /// The `type` as written, one of its dialect's `Tables::handler_types`.
    pub type_name: &'static str,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PromptSpec {
    pub prompt: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// A shell command. Each dialect spells its command lines differently; the fields keep the
/// spelling so that a file written back by its own dialect is unchanged.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Command {
    /// Claude and Bricks `command`; Copilot's portable `command` fallback (field).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Copilot `bash`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bash: Option<String>,
    /// Copilot `powershell`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub powershell: Option<String>,
    /// Copilot VS Code variant: per-OS command lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub windows: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linux: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub osx: Option<String>,
    /// Copilot: working directory, relative to the repository root.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Copilot: environment variables (values support `$VAR` expansion).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub env: Option<Map<String, Value>>,
    /// Claude: run in the background without blocking.
    #[serde(rename = "async", skip_serializing_if = "Option::is_none")]
    pub is_async: Option<bool>,
}

impl Command {
    /// The command line to run on a Unix host, whatever field carried it.
    pub fn unix_line(&self) -> Option<&str> {
        let os_specific = if cfg!(target_os = "macos") {
            self.osx.as_deref()
        } else {
            self.linux.as_deref()
        };
        self.bash
            .as_deref()
            .or(os_specific)
            .or(self.command.as_deref())
    }

    /// The command line to run on Windows, whatever field carried it.
    pub fn windows_line(&self) -> Option<&str> {
        self.powershell
            .as_deref()
            .or(self.windows.as_deref())
            .or(self.command.as_deref())
    }
}
