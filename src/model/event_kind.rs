//! The union of every dialect's lifecycle events.

use serde::Serialize;

/// One lifecycle event, named canonically (Claude's spelling where Claude has the event).
///
/// Each dialect maps its own spelling to these in its name table (`dialect::*::EVENTS`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum EventKind {
    SessionStart,
    SessionEnd,
    UserPromptSubmit,
    PreToolUse,
    PermissionRequest,
    PostToolUse,
    PostToolUseFailure,
    Notification,
    SubagentStart,
    SubagentStop,
    Stop,
    PreCompact,
    PostCompact,
    GoalUpdate,
    ErrorOccurred,
    // Claude Code only (its 2.1.332 settings schema; dialects.md §3).
    PostToolBatch,
    UserPromptExpansion,
    StopFailure,
    PreModelSwitch,
    PostModelSwitch,
    PermissionDenied,
    Setup,
    TeammateIdle,
    TaskCreated,
    TaskCompleted,
    Elicitation,
    ElicitationResult,
    ConfigChange,
    WorktreeCreate,
    WorktreeRemove,
    InstructionsLoaded,
    CwdChanged,
    FileChanged,
    DirectoryAdded,
    MessageDisplay,
    PreSkillShellCommand,
    // Copilot CLI only (dialects.md §3).
    /// After Copilot expands the prompt: `prompt`, `transformedPrompt` (run 1.0.102).
    UserPromptTransformed,
    /// Before an MCP tool call (1.0.102 settings schema, field).
    PreMcpToolCall,
    // Gemini CLI only (conformance/gemini-facts.md, run 0.61.0): around each model call.
    /// Before every model call: `llm_request`.
    BeforeModel,
    /// After each streamed response chunk: `llm_request`, `llm_response`.
    AfterModel,
    /// After BeforeModel, before the model chooses tools: `llm_request`.
    BeforeToolSelection,
    // Cursor only (docs, conformance/cursor-facts.md): observe-only.
    /// After the agent's message.
    AfterAgentResponse,
    /// After a thinking block.
    AfterAgentThought,
    // Codex CLI only (conformance/codex-facts.md, run 0.171.0).
    /// Before and after each model request (`request_id`, `attempt_number`; after: `status`,
    /// `token_usage`).
    PreModelRequest,
    PostModelRequest,
    /// A turn was interrupted.
    Interrupt,
    /// An event hookx does not know, under the name it was written with. Carried through
    /// unchanged within its dialect and reported when converting to another.
    Other(String),
}

impl EventKind {
    /// Every known event, in the order of dialects.md §3.
    pub const KNOWN: [EventKind; 46] = [
        EventKind::SessionStart,
        EventKind::SessionEnd,
        EventKind::UserPromptSubmit,
        EventKind::PreToolUse,
        EventKind::PermissionRequest,
        EventKind::PostToolUse,
        EventKind::PostToolUseFailure,
        EventKind::Notification,
        EventKind::SubagentStart,
        EventKind::SubagentStop,
        EventKind::Stop,
        EventKind::PreCompact,
        EventKind::PostCompact,
        EventKind::GoalUpdate,
        EventKind::ErrorOccurred,
        EventKind::PostToolBatch,
        EventKind::UserPromptExpansion,
        EventKind::StopFailure,
        EventKind::PreModelSwitch,
        EventKind::PostModelSwitch,
        EventKind::PermissionDenied,
        EventKind::Setup,
        EventKind::TeammateIdle,
        EventKind::TaskCreated,
        EventKind::TaskCompleted,
        EventKind::Elicitation,
        EventKind::ElicitationResult,
        EventKind::ConfigChange,
        EventKind::WorktreeCreate,
        EventKind::WorktreeRemove,
        EventKind::InstructionsLoaded,
        EventKind::CwdChanged,
        EventKind::FileChanged,
        EventKind::DirectoryAdded,
        EventKind::MessageDisplay,
        EventKind::PreSkillShellCommand,
        EventKind::UserPromptTransformed,
        EventKind::PreMcpToolCall,
        EventKind::BeforeModel,
        EventKind::AfterModel,
        EventKind::BeforeToolSelection,
        EventKind::AfterAgentResponse,
        EventKind::AfterAgentThought,
        EventKind::PreModelRequest,
        EventKind::PostModelRequest,
        EventKind::Interrupt,
    ];

    /// The canonical name, used in reports and in `--event` arguments.
    pub fn name(&self) -> &str {
        match self {
            EventKind::SessionStart => "SessionStart",
            EventKind::SessionEnd => "SessionEnd",
            EventKind::UserPromptSubmit => "UserPromptSubmit",
            EventKind::PreToolUse => "PreToolUse",
            EventKind::PermissionRequest => "PermissionRequest",
            EventKind::PostToolUse => "PostToolUse",
            EventKind::PostToolUseFailure => "PostToolUseFailure",
            EventKind::Notification => "Notification",
            EventKind::SubagentStart => "SubagentStart",
            EventKind::SubagentStop => "SubagentStop",
            EventKind::Stop => "Stop",
            EventKind::PreCompact => "PreCompact",
            EventKind::PostCompact => "PostCompact",
            EventKind::GoalUpdate => "GoalUpdate",
            EventKind::ErrorOccurred => "ErrorOccurred",
            EventKind::PostToolBatch => "PostToolBatch",
            EventKind::UserPromptExpansion => "UserPromptExpansion",
            EventKind::StopFailure => "StopFailure",
            EventKind::PreModelSwitch => "PreModelSwitch",
            EventKind::PostModelSwitch => "PostModelSwitch",
            EventKind::PermissionDenied => "PermissionDenied",
            EventKind::Setup => "Setup",
            EventKind::TeammateIdle => "TeammateIdle",
            EventKind::TaskCreated => "TaskCreated",
            EventKind::TaskCompleted => "TaskCompleted",
            EventKind::Elicitation => "Elicitation",
            EventKind::ElicitationResult => "ElicitationResult",
            EventKind::ConfigChange => "ConfigChange",
            EventKind::WorktreeCreate => "WorktreeCreate",
            EventKind::WorktreeRemove => "WorktreeRemove",
            EventKind::InstructionsLoaded => "InstructionsLoaded",
            EventKind::CwdChanged => "CwdChanged",
            EventKind::FileChanged => "FileChanged",
            EventKind::DirectoryAdded => "DirectoryAdded",
            EventKind::MessageDisplay => "MessageDisplay",
            EventKind::PreSkillShellCommand => "PreSkillShellCommand",
            EventKind::UserPromptTransformed => "UserPromptTransformed",
            EventKind::PreMcpToolCall => "PreMcpToolCall",
            EventKind::BeforeModel => "BeforeModel",
            EventKind::AfterModel => "AfterModel",
            EventKind::BeforeToolSelection => "BeforeToolSelection",
            EventKind::AfterAgentResponse => "AfterAgentResponse",
            EventKind::AfterAgentThought => "AfterAgentThought",
            EventKind::PreModelRequest => "PreModelRequest",
            EventKind::PostModelRequest => "PostModelRequest",
            EventKind::Interrupt => "Interrupt",
            EventKind::Other(name) => name,
        }
    }

    /// Parses a canonical name; unknown names become `Other`.
    pub fn from_name(name: &str) -> EventKind {
        Self::KNOWN
            .iter()
            .find(|k| k.name() == name)
            .cloned()
            .unwrap_or_else(|| EventKind::Other(name.to_string()))
    }

    /// Whether the event concerns one tool call (its matcher filters on the tool name).
    pub fn is_tool_event(&self) -> bool {
        matches!(
            self,
            EventKind::PreToolUse
                | EventKind::PostToolUse
                | EventKind::PostToolUseFailure
                | EventKind::PermissionRequest
        )
    }
}

impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
