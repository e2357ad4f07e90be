//! The shape of each dialect's config files, as data read by [`super::read`] and
//! [`super::write`]. Each dialect's [`crate::dialect::DialectDef`] holds one.

pub use crate::model::DocumentKind;

/// A handler field of the canonical model that a config key carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandlerField {
    Type,
    Command,
    Bash,
    PowerShell,
    Windows,
    Linux,
    Osx,
    Cwd,
    Env,
    Async,
    Timeout,
    StatusMessage,
    Once,
    Prompt,
    Model,
}

impl HandlerField {
    /// How the field is named in reports, independent of any dialect's key.
    pub fn describe(self) -> &'static str {
        match self {
            HandlerField::Type => "type",
            HandlerField::Command => "command",
            HandlerField::Bash => "bash command",
            HandlerField::PowerShell => "PowerShell command",
            HandlerField::Windows => "Windows command",
            HandlerField::Linux => "Linux command",
            HandlerField::Osx => "macOS command",
            HandlerField::Cwd => "working directory (cwd)",
            HandlerField::Env => "environment variables (env)",
            HandlerField::Async => "async",
            HandlerField::Timeout => "timeout",
            HandlerField::StatusMessage => "statusMessage",
            HandlerField::Once => "once",
            HandlerField::Prompt => "prompt",
            HandlerField::Model => "model",
        }
    }
}

/// How one dialect lays out its config files.
pub struct ConfigSpec {
    /// Handler keys and the field each carries; for a field with several keys (aliases) the
    /// first is the one written.
    pub handler_keys: &'static [(&'static str, HandlerField)],
    /// Whether handlers may sit straight in an event's array (Copilot), not only in groups.
    pub flat_handlers: bool,
    /// Whether events may sit at the top level without the `hooks` wrapper.
    pub wrapper_optional: bool,
    /// The variable a command uses for the project directory (`PWD` where the agent sets none
    /// but runs hooks from the project root).
    pub project_dir_variable: &'static str,
    /// Other environment variables the agent sets for hooks, which commands may reference.
    pub provided_env: &'static [&'static str],
    /// Whether the agent runs a handler once when several files (or groups with the same
    /// matcher) hold it: Claude and Bricks do; Copilot runs every handler in order.
    pub merges_identical_handlers: bool,
    /// The `version` its files declare at the top (Copilot: 1), if any.
    pub version: Option<u64>,
    /// The host's own files `hookx install` writes, below the project and below the home.
    pub install_project: &'static str,
    pub install_user: &'static str,
    /// The variable the agent sets to the folder of the hook file whose handler it runs
    /// (Copilot: `COPILOT_HOOK_DIR`, run 1.0.102), which tells a route where it was installed.
    pub hook_dir_var: Option<&'static str>,
    /// Other dialects' files the agent runs by itself, and the flavour whose payload, matcher
    /// and answer rules their handlers then get (Copilot runs `.claude/settings*.json` as its
    /// PascalCase hooks).
    pub reads_foreign_as: &'static [(crate::dialect::Dialect, crate::dialect::Flavor)],
    /// Handler keys, kept verbatim among a handler's other fields, that change how it runs.
    pub run_keys: RunKeys,
    /// The kinds of file the dialect has.
    pub documents: Documents,
    /// The variable the agent sets to a plugin's folder for the plugin's hooks.
    pub plugin_root_var: Option<&'static str>,
    /// Where `convert --write` puts a converted file without `--out`, below the project.
    pub convert_target: &'static str,
    /// Handler types the agent runs only on some events (Copilot: `prompt` on sessionStart).
    pub type_only_on: &'static [(&'static str, &'static [crate::model::EventKind])],
}

/// The kinds of file of one dialect.
pub struct Documents {
    /// Its hook file; also what `convert` writes.
    pub file: &'static DocumentKind,
    /// Plugin hook files, and how one is told from `file`.
    pub plugin: Option<PluginForm>,
    /// Markdown frontmatter: what a `.md` file of the dialect is.
    pub frontmatter: Option<&'static DocumentKind>,
}

/// A dialect's plugin hook files: a file is one when its path ends with `path_suffix`, it has
/// `marker_key` at the top, or it holds events at the top level and is not named like one of
/// `never_named`.
pub struct PluginForm {
    pub kind: &'static DocumentKind,
    pub path_suffix: &'static str,
    pub marker_key: &'static str,
    pub never_named: &'static [&'static str],
}

/// Handler keys that change how a command runs (kept in `Handler::extra`, read by the run path
/// and by `convert`, which turns them into a plain command line or reports them lost).
pub struct RunKeys {
    /// An array of strings: `command` is the program and these its arguments, with no shell.
    pub exec_args: Option<&'static str>,
    /// The key naming the shell the command runs in (`bash`, `sh`, `powershell`, `pwsh`).
    pub shell: Option<&'static str>,
    /// What happens when the command fails: the key, the value that lets the agent go on,
    /// and the value that makes any failure count as exit 2.
    pub on_failure: Option<OnFailure>,
    /// Keys that, when `true`, run the handler in the background like `async`.
    pub background: &'static [&'static str],
    /// Keys that wake the agent when a background hook ends.
    pub wake: &'static [&'static str],
    /// A permission-rule filter (`Bash(git *)`) the handler runs under; `hookx exec --if`
    /// applies it.
    pub condition: Option<&'static str>,
}

/// See [`RunKeys::on_failure`].
pub struct OnFailure {
    pub key: &'static str,
    pub continues: &'static str,
    pub blocks: &'static str,
}

impl RunKeys {
    pub const NONE: RunKeys = RunKeys {
        exec_args: None,
        shell: None,
        on_failure: None,
        background: &[],
        wake: &[],
        condition: None,
    };

    /// Every key named here.
    pub fn keys(&self) -> impl Iterator<Item = &'static str> {
        [
            self.exec_args,
            self.shell,
            self.on_failure.as_ref().map(|f| f.key),
            self.condition,
        ]
        .into_iter()
        .flatten()
        .chain(self.background.iter().copied())
        .chain(self.wake.iter().copied())
    }
}

impl ConfigSpec {
    pub fn field(&self, key: &str) -> Option<HandlerField> {
        self.handler_keys
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, f)| *f)
    }

    /// The key this dialect writes for a field, `None` when it cannot express it.
    pub fn key(&self, field: HandlerField) -> Option<&'static str> {
        self.handler_keys
            .iter()
            .find(|(_, f)| *f == field)
            .map(|(k, _)| *k)
    }
}
