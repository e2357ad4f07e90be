//! The shape of each dialect's config files, as data read by `crate::config::read` and
//! `crate::config::write`. Each dialect's [`super::DialectDef`] holds one.

use super::DocumentKind;

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

/// What a project hands every hook its agent runs, the home's included: its variables files
/// (Gemini's `.env`) and its settings' `env` ([`crate::tables::DocumentKind::session_env`]).
#[derive(Debug)]
pub struct ProjectEnv {
    /// The variables files the agent loads, looked for as [`ProjectEnv::search`] says.
    pub files: &'static [&'static str],
    /// Where [`ProjectEnv::files`] are looked for.
    pub search: EnvSearch,
    /// When the agent loads them, said after what they set ("in a folder it trusts").
    pub when: &'static str,
    /// Whether the agent sets a variable only where it is unset (so never `PATH`), where
    /// Claude's settings `env` replaces it.
    pub only_unset: bool,
    /// Variables the agent never takes from a project (a `*` at the end: a prefix): Qwen's
    /// loader keys.
    pub refused: &'static [&'static str],
    /// Variables it never takes from the settings' `env`, though it does from the files.
    pub refused_in_settings: &'static [&'static str],
}

/// How an agent finds its variables files ([`ProjectEnv::files`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnvSearch {
    /// In each folder from the project up to the home (not included: the home's are the
    /// user's own), these names in order, the first found (Gemini 0.61.0 `findEnvFile`, Qwen
    /// 0.24.4 `findEnvFiles`).
    FirstUp,
    /// Each of them in the folder the agent starts in, the project (a Bun executable's own
    /// loading: Cline 3.0.65).
    EachHere,
}

impl ProjectEnv {
    pub const NONE: ProjectEnv = ProjectEnv {
        files: &[],
        search: EnvSearch::FirstUp,
        when: "",
        only_unset: false,
        refused: &[],
        refused_in_settings: &[],
    };

    /// Whether `name`, set by the project in its settings (`settings`) or a variables file,
    /// reaches the agent's hooks.
    pub fn takes(&self, name: &str, settings: bool) -> bool {
        let listed = |list: &[&str]| {
            list.iter().any(|r| match r.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => name == *r,
            })
        };
        let kept = self.only_unset && name == "PATH";
        !(kept || listed(self.refused) || settings && listed(self.refused_in_settings))
    }
}

/// Whether a timeout as written is a number of seconds above 0, the only kind Copilot CLI
/// 1.0.102 takes (`0.5` and `1e12` too; `0`, `-1`, `"5"`, `null`, `true` not): probed in its own
/// files and in Claude's.
pub fn positive_seconds(value: &serde_json::Value) -> bool {
    value.as_f64().is_some_and(|t| t > 0.0)
}

/// How one dialect lays out its config files.
pub struct ConfigSpec {
    /// Events the agent fires in its hooks object that hookx has no canonical name for (Qwen's
    /// `TodoCreated`): read as unknown events by that name without a warning (`validate` does
    /// not call them unknown, `doctor` says only the agent fires them), kept on round trip, and
    /// reported lost when converted away.
    pub other_events: &'static [&'static str],
    /// Handler keys and the field each carries; for a field with several keys (aliases) the
    /// first is the one written.
    pub handler_keys: &'static [(&'static str, HandlerField)],
    /// Whether handlers may sit straight in an event's array (Copilot), not only in groups.
    pub flat_handlers: bool,
    /// Whether events may sit at the top level without the `hooks` wrapper.
    pub wrapper_optional: bool,
    /// The variable a command uses for the project directory; `None` where the agent sets none
    /// but runs hooks from the project root (a converted command then says `$PWD`).
    pub project_dir_variable: Option<&'static str>,
    /// Other environment variables the agent sets for hooks, which commands may reference, and
    /// the `${NAME}` placeholders it substitutes in a command's text itself (Gemini's
    /// `${extensionPath}`): converted to an agent that does neither, each is a loss.
    pub provided_env: &'static [&'static str],
    /// Whether the agent runs a handler once when several files (or groups with the same
    /// matcher) hold it: Claude and Bricks do; Copilot runs every handler in order.
    pub merges_identical_handlers: bool,
    /// The `version` its files declare at the top (Copilot: 1), if any.
    pub version: Option<u64>,
    /// A number the agent writes into its own files when it starts, where they lack it (Qwen
    /// 0.24.4: `"$version": 4`, read in its bundle): `convert` writes it too, so the agent
    /// leaves the file the user trusted as written and its copies stay trusted.
    pub stamp: Option<(&'static str, u64)>,
    /// What a project sets for every hook the agent runs, the user's own and hookx's route
    /// included, besides its settings' `session_env` key.
    pub project_env: ProjectEnv,
    /// The host's own files `hookx install` writes, below the project and below the home.
    pub install_project: &'static str,
    pub install_user: &'static str,
    /// Files below the same folder as the install file whose event lists replace its own: the
    /// first of them that exists is the agent's, and an event it holds hides that event's
    /// routes in the install file (Droid: `.factory/hooks.json`, else the legacy
    /// `.factory/hooks/hooks.json`; attacks row 387).
    pub install_hidden_by: &'static [&'static str],
    /// The variable the agent sets to the folder of the hook file whose handler it runs
    /// (Copilot: `COPILOT_HOOK_DIR`, run 1.0.102), which tells a route where it was installed.
    pub hook_dir_var: Option<&'static str>,
    /// Other dialects' files the agent runs by itself, and the flavour whose payload, matcher
    /// and answer rules their handlers then get (Copilot runs `.claude/settings*.json` as its
    /// PascalCase hooks).
    pub reads_foreign_as: &'static [(crate::tables::Dialect, crate::tables::Flavor)],
    /// For each dialect in `reads_foreign_as`: what stops the agent running that dialect's
    /// files itself, where its handlers would get the wrong payload ([`ForeignSwitch`]). A
    /// dialect read foreign with no row here has no switch hookx knows of.
    pub foreign_switches: &'static [ForeignSwitch],
    /// Handler keys, kept verbatim among a handler's other fields, that change how it runs.
    pub run_keys: RunKeys,
    /// The kinds of file the dialect has.
    pub documents: Documents,
    /// The handler type an entry without `type` has, which hookx then leaves out too (Cursor's
    /// entries are commands unless they say otherwise).
    pub implied_type: Option<&'static str>,
    /// How the agent's own loader reads its hook file, where it refuses the whole file for
    /// what hookx only warns about ([`StrictLoad`]); `None`: it does not, or it is not known.
    pub strict_load: Option<StrictLoad>,
    /// Whether one rule whose `matcher` is not a string, in any file the agent reads, makes it
    /// run no hook of that rule's event at all, every scope's (Qwen Code 0.24.4, silently).
    pub matcher_not_string_stops_event: bool,
    /// The variable the agent sets to a plugin's folder for the plugin's hooks.
    pub plugin_root_var: Option<&'static str>,
    /// The `${KEY}`s the agent replaces, as raw text, in every string of a plugin's hook file
    /// when it loads it (Gemini CLI's extensions: `${extensionPath}`), with what each stands
    /// for; any other `${…}` is left to the shell.
    pub plugin_text: &'static [(&'static str, PluginText)],
    /// Where `convert --write` puts a converted file without `--out`, below the project.
    pub convert_target: &'static str,
    /// Handler types the agent runs only on some events (Copilot: `prompt` on sessionStart).
    pub type_only_on: &'static [(&'static str, &'static [crate::model::EventKind])],
    /// Where the agent records its installed plugins and how it decides which it loads, when
    /// its plugins carry hooks ([`crate::plugins`]).
    pub plugins: Option<&'static PluginSpec>,
    /// How the agent turns an installed extension off per folder ([`crate::plugins`]), when
    /// one of its locations holds extensions' hook files.
    pub extension_switch: Option<&'static ExtensionSwitch>,
    /// The unit of `timeout` as written. hookx's model holds seconds: a millisecond timeout
    /// is read rounded up to whole seconds.
    pub timeout_unit: TimeoutUnit,
    /// Whether `timeout: 0` means "no timeout" (Kiro, [v3]), not an instant kill: hookx runs
    /// such a handler without a limit of its own, and converts it so.
    pub zero_timeout_is_none: bool,
    /// The longest timeout, in milliseconds, the agent's hook timer holds, where it has a
    /// limit: Node's `setTimeout` fires at once past 2^31 - 1 ms, so the agent ends the hook as
    /// soon as it starts and goes on with the call (Gemini CLI 0.61.0 live, attacks row 1681).
    /// validate calls a longer one an error and convert writes it shortened to this.
    pub timer_limit_ms: Option<u64>,
    /// Whether the agent leaves out an entry of its own files whose timeout (its flavour's
    /// key) is not a number above 0 ([`positive_seconds`]: `0`, `-1`, `"5"`, `null`, `true`)
    /// and loads the rest of the file (Copilot CLI 1.0.102; a Claude file it drops whole for
    /// the same, [`FileDrop`]).
    pub skips_entry_without_positive_timeout: bool,
    /// Whether the agent leaves out an entry of its own files that has no `type`, or a
    /// `command` type with no command, and loads the rest of the file (Gemini CLI 0.61.0,
    /// `validateHookConfig`: a debug line only; attacks row 489). hookx reads the first as a
    /// command, and under other hosts runs it.
    pub skips_entry_without_type: bool,
    /// Whether the agent reads a timeout written as a string as the number it spells (Qwen
    /// Code 0.24.4 `readCommandHookTimeout`: `Number(timeout)` of a string not blank).
    pub timeout_numeric_strings: bool,
    /// Rule and handler keys the agent reads that hookx keeps as written without acting on
    /// them (Gemini's `name`, `description`, `sequential`), and settings that sit among the
    /// events of its hooks object (Droid's `hooksDisabled`, not an array): `validate` does not
    /// call them unknown; converting to another dialect still reports them lost.
    pub kept_keys: &'static [&'static str],
    /// Hooks that are no config file but one executable per event, named after the event
    /// (Cline): the dialect's locations are folders ([`crate::tables::Pattern::Scripts`]).
    pub scripts: Option<&'static ScriptLayout>,
    /// Hooks that are code, not config (OpenCode's plugins): hookx reads none of the agent's
    /// files and routes its events through one plugin file of its own, generated from this
    /// template ([`GeneratedPlugin`]). A write-only target.
    pub generated: Option<&'static GeneratedPlugin>,
    /// Hooks that are a list of rules, each naming its event, not a map of events (Kiro's
    /// `{"version": "v1", "hooks": [{name, trigger, matcher, action, …}]}`).
    pub rule_list: Option<&'static RuleList>,
    /// Keys the agent itself writes into its hook files (its own state: Claude's
    /// `permissions`) and hookx never reads as hooks, top-level or dotted (`hooks.state`: a
    /// table inside `hooks`): a change to them alone keeps a file's trust
    /// ([`crate::config::read::sha256_without_agent_keys`]). Each row says its source.
    pub agent_keys: &'static [&'static str],
    /// The agent's own settings writes that put back the whole file as a session read it when
    /// it started (Gemini CLI 0.61.0: attacks row 1245), so that an edit hookx (or the user)
    /// made meanwhile is gone; `None`: it writes into the file as it is then, or is not known to.
    pub rewrites_from_memory: Option<&'static str>,
    /// What the agent accepts in its JSON hook files beyond strict JSON: a file with more is
    /// one it drops (or stops on), and hookx reads it the same way.
    pub json_syntax: JsonSyntax,
}

/// A file whose `hooks` is a list of rules, each holding its event, its matcher and its one
/// handler: read into, and written from, the same rules as an event map's flat entries.
pub struct RuleList {
    /// The `version` the file declares at the top; with a list-valued `hooks` it marks the
    /// dialect's files.
    pub version: &'static str,
    /// The rule key naming the event (`trigger`).
    pub event_key: &'static str,
    /// The rule key holding the handler object (`action`).
    pub handler_key: &'static str,
    /// Handler keys written on the rule, not in the handler object (`timeout`).
    pub handler_keys_on_rule: &'static [&'static str],
    /// The rule key naming the rule, which every rule needs: a converted rule gets its event's
    /// name and its place (`PreToolUse-1`).
    pub name_key: &'static str,
    /// The rule key whose `false` turns the rule off: the agent never runs it, nor does hookx.
    pub enabled_key: &'static str,
    /// Events the agent fires that hookx has no canonical name for (`PostFileSave`): read as
    /// unknown events by that name without a warning, kept on round trip, and reported lost
    /// when converted away.
    pub other_events: &'static [&'static str],
    /// Those of `other_events` no event of a session fires, only a person starting the rule
    /// (Kiro's `Manual`): doctor says so rather than a bare "fires".
    pub by_hand: &'static [&'static str],
    /// The agent's older forms of the same rules, read (never written): a file in one of
    /// them converts like a list.
    pub older: Option<&'static OlderForms>,
}

/// Older forms of a rule list's rules ([`RuleList::older`]), each read into the list's rules
/// as table data: the form is known by its shape, never by the agent's name.
pub struct OlderForms {
    /// `hooks` as a map of event names to flat entries `{matcher?, command, …}` (Kiro CLI's
    /// agent configs, `.kiro/agents/*.json`): each event name with the list trigger it is.
    pub map_events: &'static [(&'static str, &'static str)],
    /// The map form's timeout key, in milliseconds (`timeout_ms`): read rounded up to whole
    /// seconds.
    pub map_timeout_ms: &'static str,
    /// What a map-form file is: a config of the agent's own with keys besides `hooks`, none
    /// of them unknown to it. Such a config without `hooks` (and without a list's `version`)
    /// is read as one with no hooks, and is no hook file.
    pub map_kind: &'static crate::tables::DocumentKind,
    /// One rule per file (Kiro IDE's `.kiro.hook`): the key of its trigger object (`when`).
    pub single_when: &'static str,
    /// What a one-rule file is.
    pub single_kind: &'static crate::tables::DocumentKind,
    /// The key of its action object (`then`).
    pub single_then: &'static str,
    /// The key naming the trigger and the action kind in both objects (`type`).
    pub single_type: &'static str,
    /// The trigger object's list of tool names (`tools`): the rule's matcher, `|`-joined.
    pub single_tools: &'static str,
    /// Each trigger type with the list trigger it is (`promptSubmit` → `UserPromptSubmit`).
    pub single_triggers: &'static [(&'static str, &'static str)],
    /// Each action type with the list's handler type (`runCommand` → `command`).
    pub single_actions: &'static [(&'static str, &'static str)],
}

impl OlderForms {
    fn find(table: &[(&'static str, &'static str)], name: &str) -> Option<&'static str> {
        table
            .iter()
            .find(|(from, _)| *from == name)
            .map(|(_, to)| *to)
    }

    /// The list trigger a map-form event name is.
    pub fn map_event(&self, name: &str) -> Option<&'static str> {
        Self::find(self.map_events, name)
    }

    /// The list trigger a single-rule trigger type is.
    pub fn single_trigger(&self, name: &str) -> Option<&'static str> {
        Self::find(self.single_triggers, name)
    }

    /// The list's handler type a single-rule action type is.
    pub fn single_action(&self, name: &str) -> Option<&'static str> {
        Self::find(self.single_actions, name)
    }
}

impl RuleList {
    /// Whether a file's value is such a list: the version and a list-valued `hooks`.
    pub fn fits(&self, value: &serde_json::Value) -> bool {
        value.get("version").and_then(serde_json::Value::as_str) == Some(self.version)
            && value.get("hooks").is_some_and(serde_json::Value::is_array)
    }

    /// A key of a file's value beside `hooks` and this list's `version` (a user's
    /// `description`, another `version`): hookx writes a list file whole, so it would be lost
    /// (attacks rows 1400, 1401).
    pub fn key_beside<'v>(&self, value: &'v serde_json::Value) -> Option<&'v str> {
        let (key, _) =
            value
                .as_object()
                .into_iter()
                .flatten()
                .find(|(key, v)| match key.as_str() {
                    "hooks" => false,
                    "version" => v.as_str() != Some(self.version),
                    _ => true,
                })?;
        Some(key)
    }

    /// Whether a rule read from such a list is turned off.
    pub fn is_disabled(&self, rule: &crate::tables::Rule) -> bool {
        rule.extra.get(self.enabled_key) == Some(&serde_json::Value::Bool(false))
    }
}

/// Departures from strict JSON an agent's reader accepts. Positions hookx reports stay those of
/// the text as written.
#[derive(Clone, Copy, Debug)]
pub struct JsonSyntax {
    /// `//` and `/* */` comments (stripped before parsing: Gemini CLI, Qwen Code, Droid, VS
    /// Code).
    pub comments: bool,
    /// A comma before a closing `]` or `}`: no agent's hook files so far; Copilot's own
    /// settings ([`JsonSyntax::jsonc_files`]).
    pub trailing_commas: bool,
    /// Two items with no comma between them (Copilot's own settings again).
    pub missing_commas: bool,
    /// A leading UTF-8 byte order mark (Windows editors write one), taken off before parsing
    /// (Qwen Code's `stripUtf8Bom`). Elsewhere it makes the file invalid JSON, as it does for
    /// the agent.
    pub bom: bool,
    /// Files the agent reads as strict JSON all the same, by how their path ends (Gemini CLI's
    /// extension `hooks/hooks.json`).
    pub strict_files: &'static [&'static str],
    /// Files the agent reads with comments, trailing and missing commas and a leading byte
    /// order mark, by how their path ends: Copilot CLI reads its own `~/.copilot/settings.json`
    /// so (with jsonc-parser), its hook files and a repository's settings as strict JSON.
    pub jsonc_files: &'static [&'static str],
    /// The agent's own JSONC parser, where it has one: a text the reading above cannot take (it
    /// keeps every offset) is read with these options, offsets aside. Copilot CLI 1.0.102 reads
    /// its settings with jsonc-parser 0.34.0 (linked in its runtime; `userSettingsLoad` asked
    /// directly read a comma left out with no space, `0x10`, `+1`, `1.`, a tab in a string):
    /// its default options, which take a little more than Copilot keeps (`.5`, `'single'`
    /// quotes: Copilot then ignores the whole file and runs the handler itself, as hookx does:
    /// twice, never nowhere).
    pub reader: Option<fn() -> jsonc_parser::ParseOptions>,
}

impl JsonSyntax {
    pub const STRICT: JsonSyntax = JsonSyntax {
        comments: false,
        trailing_commas: false,
        missing_commas: false,
        bom: false,
        strict_files: &[],
        jsonc_files: &[],
        reader: None,
    };

    /// What [`JsonSyntax::jsonc_files`] accept.
    pub const JSONC: JsonSyntax = JsonSyntax {
        comments: true,
        trailing_commas: true,
        missing_commas: true,
        bom: true,
        reader: Some(jsonc_parser::ParseOptions::default),
        ..JsonSyntax::STRICT
    };

    /// The syntax of the file at `path`.
    pub fn of_file(&self, path: &str) -> JsonSyntax {
        let path = path.replace('\\', "/");
        let is = |ends: &[&str]| ends.iter().any(|end| path.ends_with(end));
        match (is(self.strict_files), is(self.jsonc_files)) {
            (true, _) => JsonSyntax::STRICT,
            (_, true) => JsonSyntax::JSONC,
            _ => *self,
        }
    }
}

/// What a [`ConfigSpec::plugin_text`] key stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PluginText {
    /// The plugin's folder.
    Root,
    /// The project the agent runs in.
    Project,
    Literal(&'static str),
}

/// A folder of hook scripts, one per event: the file's name, less one of `extensions`, is the
/// event's name in the dialect, compared without case. Each script is one rule with no matcher
/// whose command is the script's path.
pub struct ScriptLayout {
    /// The name endings the agent accepts (`""`: none); other files are not hooks.
    pub extensions: &'static [&'static str],
    /// Script names the agent runs for events hookx has no canonical name for: carried as
    /// unknown events by that name.
    pub other_events: &'static [&'static str],
    /// Whether the agent runs a script without the executable bit (through its `#!` line or
    /// a program chosen by its ending), else it runs the file itself.
    pub runs_unexecutable: bool,
    /// The program that runs a script without a `#!` line, by name ending (the first that
    /// fits), else `default_runner`.
    pub runners: &'static [(&'static str, &'static str)],
    pub default_runner: &'static str,
    /// Interpreters of a `#!` line the agent runs by name from `PATH` (a leading `env` is
    /// dropped): `#!/bin/sh` runs `sh FILE`; any other runs as written.
    pub path_interpreters: &'static [&'static str],
    /// What a script that denies a tool call does to the agent's run, when more than the call
    /// (Cline: the whole run ends), for `install` and `doctor` to warn about.
    pub deny_effect: Option<&'static str>,
}

/// A plugin file hookx generates whole for an agent whose hooks are code. The template is the
/// agent's (its file is the dialect's data); hookx fills in its holes: `__HOOKX_ROUTES__` (a
/// JSON object: each event that has rules, by the agent's name, and its route's shell command
/// line, or for `convert` its handlers), `__HOOKX_GUARDS__` (the events that fail closed, a
/// JSON array), `__HOOKX_LIMIT_MS__` (how long the plugin waits for hookx before it kills it),
/// `__HOOKX_BY__` (the command that wrote it), `__HOOKX_DIGEST__` (which ends the first line,
/// after a space: the first 16 hex digits of the SHA-256 of the plugin with it empty, so that
/// a hand edit of the file shows).
pub struct GeneratedPlugin {
    /// The file's text with its holes.
    pub template: &'static str,
    /// The first line of every file hookx writes: a file without it is the user's, left alone.
    pub marker: &'static str,
}

/// An agent's per-folder switch for its extensions, as data: a file below the home maps each
/// extension's name to rules (`OVERRIDES_KEY`: `["!/dir/*", "/dir/sub/"]`), the last one
/// matching the folder the agent starts in deciding; `!` turns it off, a trailing `*` takes
/// the folders below too. The name is the extension manifest's.
pub struct ExtensionSwitch {
    /// The [`Location`] ids of the extensions' hook files, each a [`crate::tables::Pattern::Sub`] whose
    /// `name` is the file below an extension's folder (`<extensions>/<folder>/NAME`).
    pub locations: &'static [&'static str],
    /// The switch file, relative to the home.
    pub file: &'static str,
    pub overrides_key: &'static str,
    /// The manifest in an extension's folder, and its key holding the extension's name.
    pub manifest: &'static str,
    pub name_key: &'static str,
    /// The commands that turn one on again and off for the folder, `NAME` standing for its
    /// name.
    pub enable: &'static str,
    pub disable: &'static str,
}

/// An agent's plugin registries, as data: which plugins it loads, and from where. Paths are
/// relative to the home; JSON keys are the agent's own.
pub struct PluginSpec {
    /// The record of installed plugins: `{"version": N, PLUGINS_KEY: {ID: [{INSTALL_PATH_KEY:
    /// DIR, …}, …]}}`, IDs written `name@marketplace`. Another version is not read (no plugin
    /// loads).
    pub registry: &'static str,
    pub registry_version: u64,
    pub plugins_key: &'static str,
    pub install_path_key: &'static str,
    /// The record of known marketplaces: `{NAME: {SOURCE_KEY: {SOURCE_KEY: KIND, …},
    /// LOCATION_KEY: DIR, …}}`. A plugin of an unknown marketplace is not loaded.
    pub marketplaces: &'static str,
    pub location_key: &'static str,
    pub source_key: &'static str,
    /// A marketplace's catalog, below its location: `{CATALOG_PLUGINS_KEY: [{"name": NAME,
    /// SOURCE_KEY: SOURCE, …}]}`. A plugin it does not list is not loaded.
    pub catalog: &'static str,
    pub catalog_plugins_key: &'static str,
    /// Marketplace kinds whose plugins with a relative-path source load in place, from the
    /// marketplace's own folder, installed or not; every other plugin loads from its install
    /// record's folder, and only when it has one.
    pub in_place_kinds: &'static [&'static str],
    /// The settings key mapping plugin IDs to whether they are on (only `true` turns one on),
    /// and the [`crate::tables::Location`] ids of the settings files it is read from, lowest
    /// precedence first: the last file that has an ID decides.
    pub enabled_key: &'static str,
    pub enabled_in: &'static [&'static str],
    /// The hook file below a plugin's folder.
    pub hook_file: &'static str,
    /// Folders of downloaded plugins (marketplace clones, the install cache), walked by
    /// `hookx list` (never by `hookx run`) to `download_depth` levels for hook files of
    /// plugins the agent does not load.
    pub downloads: &'static [&'static str],
    pub download_depth: usize,
    /// The folder the agent gives each loaded plugin's hooks for the plugin's own data.
    pub data: Option<PluginData>,
}

/// A plugin's data folder, as its agent names it to the plugin's hooks: `VAR` set to `DIR/ID`
/// below the home, every character of the plugin's ID but `[A-Za-z0-9_-]` written `-`, made
/// when missing.
pub struct PluginData {
    pub var: &'static str,
    pub dir: &'static str,
}

impl PluginData {
    /// The data folder of the plugin `id`, below `home`.
    pub fn folder(&self, home: &std::path::Path, id: &str) -> std::path::PathBuf {
        let name: String = id
            .chars()
            .map(
                |c| match c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    true => c,
                    false => '-',
                },
            )
            .collect();
        home.join(self.dir).join(name)
    }
}

/// The kinds of file of one dialect.
pub struct Documents {
    /// Its hook file; also what `convert` writes.
    pub file: &'static DocumentKind,
    /// Plugin hook files, and how one is told from `file`.
    pub plugin: Option<PluginForm>,
    /// Markdown frontmatter: what a `.md` file of the dialect is.
    pub frontmatter: Option<&'static DocumentKind>,
    /// Hooks in TOML settings: what a `.toml` file of the dialect is.
    pub toml: Option<TomlForm>,
}

impl Documents {
    /// Whether `key` under `hooks` of a `kind` file is a setting of the dialect's TOML files.
    pub fn is_hook_setting(&self, kind: &DocumentKind, key: &str) -> bool {
        self.toml
            .as_ref()
            .is_some_and(|t| *t.kind == *kind && t.hook_settings.contains(&key))
    }

    /// Whether `kind` is the dialect's TOML settings file.
    pub fn is_toml(&self, kind: &DocumentKind) -> bool {
        self.toml.as_ref().is_some_and(|t| *t.kind == *kind)
    }
}

/// A dialect's TOML files (Codex `config.toml` and `requirements.toml`): settings with the
/// hooks under `[hooks]`, in the same shape as its JSON hook file. hookx reads them; it never
/// writes hooks into them (`convert` and `install` write the JSON file).
pub struct TomlForm {
    pub kind: &'static DocumentKind,
    /// Keys under `[hooks]` that are settings, not events (Codex: the trust `state`, the
    /// policy's `managed_dir`).
    pub hook_settings: &'static [&'static str],
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
    /// The cap the agent keeps on a handler's follow-ups in a row, which `hookx run` keeps
    /// under other hosts.
    pub follow_ups: Option<FollowUpCap>,
}

/// An agent's own cap on how many times in a row a hook may keep it going (Cursor's `stop`:
/// `loop_limit`, `loop_count`; Claude Code's and Qwen Code's 8 Stop blocks in a row). Under
/// another host a follow-up becomes a Stop block, which that host may never cap: `hookx run`
/// keeps the count and the cap instead (attacks rows 306, 380).
/// Not among [`RunKeys::keys`]: the key changes nothing in how the command runs.
pub struct FollowUpCap {
    /// The events whose answers are follow-ups.
    pub events: &'static [crate::model::EventKind],
    /// The handler key holding the cap (a whole number of follow-ups); `None`: the agent's
    /// cap is one for every hook.
    pub limit_key: Option<&'static str>,
    /// The cap where the key is absent or not a whole number.
    pub default_limit: u64,
    /// The payload key that tells the hook how many follow-ups it made in a row so far
    /// (`None`: the agent tells it none).
    pub count_key: Option<&'static str>,
}

/// See [`RunKeys::on_failure`]. Each value as written: a string (Claude's `"block"`) or a JSON
/// literal (Cursor's `true`).
pub struct OnFailure {
    pub key: &'static str,
    pub continues: &'static str,
    pub blocks: &'static str,
}

impl OnFailure {
    /// Whether `value` makes any failure count as exit 2.
    pub fn blocks_on(&self, value: &serde_json::Value) -> bool {
        written(value) == self.blocks
    }

    /// Whether `value` lets the agent go on after a failure, as without the key.
    pub fn goes_on(&self, value: &serde_json::Value) -> bool {
        written(value) == self.continues
    }
}

/// A key's value as a file writes it: a string's text, else its JSON.
pub fn written(value: &serde_json::Value) -> String {
    match value.as_str() {
        Some(text) => text.to_string(),
        None => value.to_string(),
    }
}

impl RunKeys {
    pub const NONE: RunKeys = RunKeys {
        exec_args: None,
        shell: None,
        on_failure: None,
        background: &[],
        wake: &[],
        condition: None,
        follow_ups: None,
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
    /// Whether `key` is an event of the agent's own that hookx carries as unknown
    /// ([`Self::other_events`], its rule list's too); any other unknown key is no event of its.
    pub fn has_other_event(&self, key: &str) -> bool {
        let list = self.rule_list.map_or(&[][..], |l| l.other_events);
        self.other_events.iter().chain(list).any(|e| *e == key)
    }

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

    /// Whether `doc` is a config of the agent's own that holds no hooks at all (a Kiro agent
    /// config without `hooks`, [`OlderForms::map_kind`]): no hook file, as markdown without
    /// hooks is none.
    pub fn holds_no_hooks(&self, doc: &crate::tables::Document) -> bool {
        self.rule_list
            .and_then(|l| l.older)
            .is_some_and(|o| std::ptr::eq(doc.kind, o.map_kind) && !doc.wrapped)
            && doc.rules.is_empty()
            && doc.extra_hooks.is_empty()
    }

    /// Whether the agent never runs this rule (a rule list's `enabled: false`).
    pub fn is_disabled(&self, rule: &crate::tables::Rule) -> bool {
        self.rule_list.is_some_and(|list| list.is_disabled(rule))
    }
}

/// What stops an agent running another dialect's files itself ([`ConfigSpec::reads_foreign_as`]),
/// whose handlers it hands its own payload, not the one they were written for: the plan of
/// who runs each rule (`crate::plan`) and `doctor` say so, and name this.
#[derive(Debug)]
pub struct ForeignSwitch {
    /// The dialect whose files the agent reads.
    pub dialect: crate::tables::Dialect,
    /// The step that turns the reading off, for a person to take (`hookx install` cannot: no
    /// file key does it); `None`: nothing turns it off short of turning every hook off.
    pub off: Option<&'static str>,
    /// Where this was found out.
    pub source: &'static str,
    /// The host setting that stops it running single handlers of those files, which
    /// `hookx install` writes so that hookx runs them instead, with the payload they were
    /// written for.
    pub hooks: Option<&'static HookSwitch>,
    /// The entries for which the host drops the whole file, if any are known.
    pub drops: Option<&'static FileDrop>,
}

/// What makes a host drop a whole file of a foreign dialect it reads itself (Copilot CLI
/// 1.0.102 and `.claude/settings*.json`): one entry it refuses, and none of the file's hooks
/// runs under it, with no word in `-p` mode. Those rules then run under the host only through
/// hookx's route (`crate::discover::dropped`). The file is read as `{EVENTS_KEY: {Event:
/// [{MATCHER_KEY, HANDLERS_KEY: [{TYPE_KEY, TIMEOUT_KEY, …}]}]}}`.
#[derive(Debug)]
pub struct FileDrop {
    pub events_key: &'static str,
    pub matcher_key: &'static str,
    pub handlers_key: &'static str,
    pub type_key: &'static str,
    /// The type of a handler that names none.
    pub default_type: &'static str,
    pub timeout_key: &'static str,
    /// The events the host reads from the file: (kind, the file's name, the host's own name,
    /// whether the host keeps the group matcher). It checks the entries under either name,
    /// case and all, and skips any other event unread. Where it keeps the matcher, an empty one is refused
    /// (elsewhere the host drops it unread).
    pub events: &'static [(crate::model::EventKind, &'static str, &'static str, bool)],
    /// A timeout that is not a number above zero is refused.
    pub timeout_must_be_positive: bool,
    /// The handler types the host takes, each with where; any other type is refused.
    pub types: &'static [(&'static str, TypeOn)],
    /// The key a handler of each type must hold as a string (a command's `command`); one
    /// missing or of another JSON type is refused.
    pub needs: &'static [(&'static str, &'static str)],
    /// A handler type whose address must have a prefix on some events, if any.
    pub url: Option<UrlRule>,
    /// What to change, for each kind of entry refused: a shape, an empty matcher, a timeout, a
    /// type.
    pub fixes: DropFixes,
    /// Where this was found out.
    pub source: &'static str,
}

/// The forms for which an agent's own loader, reading its hook file as one typed value,
/// refuses the whole file and runs none of its hooks, where hookx reads on with a warning.
/// `validate` makes each an error, and `doctor` says the file runs under none of its agent.
#[derive(Debug, Clone, Copy)]
pub struct StrictLoad {
    /// Who was seen doing it, and what it says, for the messages.
    pub seen: &'static str,
    /// The same for the hooks of its TOML settings, where it refuses those too.
    pub toml_seen: Option<&'static str>,
    /// A handler without `type` (hookx reads it as a command).
    pub needs_type: bool,
    /// A timeout that is no whole number (hookx rounds it up).
    pub whole_seconds: bool,
    /// A top-level key besides the file kind's `top_keys` (hookx keeps it as written).
    pub known_top_keys: bool,
    /// Settings beside the hooks (a JSON pointer into the file, and what it must be, as
    /// [`crate::diag::json_type`] names it) whose value of another type makes the agent refuse
    /// the whole file: hookx does not read them otherwise. Those probed, not a schema.
    pub setting_types: &'static [(&'static str, &'static str)],
    /// Any entry hookx's reader takes for an error (a value of the wrong type, an unknown
    /// handler type, a handler without its command): hookx leaves that entry out and reads the
    /// rest, the agent none of the file.
    pub reader_errors: bool,
    /// Where a refused entry takes only itself out, not the whole file, except on these
    /// events; `None`: the whole file on every event.
    pub whole_file_on: Option<&'static [crate::model::EventKind]>,
    /// A timeout of 0 (hookx would run the handler with the agent's default).
    pub zero_timeout: bool,
    /// The keys a handler of a type hookx keeps as written (Claude's `http`, `mcp_tool`) must
    /// hold as strings: (type, key, whether the string must be a URL).
    pub service_needs: &'static [(&'static str, &'static str, bool)],
    /// Keys of a handler hookx keeps as written whose value, when there, must be of a JSON
    /// type ([`crate::diag::json_type`]'s name), or the agent refuses the entry.
    pub handler_key_types: &'static [(&'static str, &'static str)],
    /// A group's `matcher` of `null` (hookx reads it as none).
    pub null_matcher: bool,
    /// An event whose value is `null`, which hookx's reader calls an error, the agent takes
    /// as no hooks.
    pub null_event_is_none: bool,
    /// A negative timeout, which hookx's reader calls an error, the agent loads the file with.
    pub negative_timeout_loads: bool,
    /// A key written twice in one object of its JSON file, where a JavaScript reader keeps the
    /// last one (Codex reads the file into typed values: "duplicate field").
    pub duplicate_keys: bool,
    /// Reader errors (words of their message) the agent loads the file with all the same,
    /// where [`StrictLoad::reader_errors`] says the rest refuse it.
    pub loads_despite: &'static [&'static str],
}

/// What to change in a file a host drops ([`FileDrop`]), for each kind of entry it refuses.
#[derive(Debug)]
pub struct DropFixes {
    /// A group, handler list or handler of another JSON type than the file's form.
    pub shape: &'static str,
    pub empty_matcher: &'static str,
    pub timeout: &'static str,
    pub handler_type: &'static str,
    /// A handler without the string its type needs ([`FileDrop::needs`]).
    pub needs: &'static str,
    pub url: &'static str,
}

/// Handlers of `type_name` on `on` whose `key` does not start with `prefix` are refused; on
/// every event when `required` and the `key` is missing or not a string.
#[derive(Debug)]
pub struct UrlRule {
    pub type_name: &'static str,
    pub key: &'static str,
    pub prefix: &'static str,
    pub on: &'static [crate::model::EventKind],
    pub required: bool,
}

/// The longest delay Node's `setTimeout` holds (2^31 - 1 ms); past it the timer fires at once
/// ([`ConfigSpec::timer_limit_ms`]).
pub const NODE_TIMER_LIMIT_MS: u64 = 2_147_483_647;

/// The events on which a host takes a handler type.
/// The unit a dialect writes a handler's `timeout` in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeoutUnit {
    Seconds,
    /// Gemini CLI, Augment.
    Millis,
    /// Seconds, except a command handler's value at or above this, which is milliseconds
    /// (Qwen Code keeps the meaning of the millisecond timeouts its command hooks had).
    SecondsBelow(u64),
}

impl TimeoutUnit {
    /// Whether a timeout written as `value` on a handler (a command one or not) is
    /// milliseconds; a value that is no number is one only where every timeout is.
    pub fn reads_millis(self, value: Option<f64>, command: bool) -> bool {
        match self {
            TimeoutUnit::Seconds => false,
            TimeoutUnit::Millis => true,
            TimeoutUnit::SecondsBelow(from) => command && value.is_some_and(|v| v >= from as f64),
        }
    }

    /// `secs` as written on a handler (a command one or not): milliseconds where the agent
    /// would read the seconds as such.
    pub fn written(self, secs: u64, command: bool) -> u64 {
        match self {
            TimeoutUnit::Seconds => secs,
            TimeoutUnit::Millis => secs.saturating_mul(1000),
            TimeoutUnit::SecondsBelow(from) if command && secs >= from => secs.saturating_mul(1000),
            TimeoutUnit::SecondsBelow(_) => secs,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub enum TypeOn {
    Every,
    Only(&'static [crate::model::EventKind]),
    AllBut(&'static [crate::model::EventKind]),
}

impl TypeOn {
    pub fn takes(self, event: &crate::model::EventKind) -> bool {
        match self {
            TypeOn::Every => true,
            TypeOn::Only(on) => on.contains(event),
            TypeOn::AllBut(off) => !off.contains(event),
        }
    }
}

/// A host setting listing handlers it reads but does not run, each by a key it derives from
/// the handler as it reads it (Copilot's `disabledHooks`, a user setting, run 1.0.102): the
/// SHA-256 (hex) of `EVENT NUL JSON`, EVENT the host's own name of the event and JSON the
/// handler's fields in this order: `type`, each command key (the command as written), the
/// timeout (the number as written), the group's matcher (on the events that keep it), the
/// event as written. A handler with any other field the key would hold, or whose timeout
/// hookx read otherwise than written, gets no key ([`HookSwitch::key`] is `None`): the host
/// keeps running it itself.
#[derive(Debug)]
pub struct HookSwitch {
    /// The host location whose file holds the list (`copilot-user-settings`), below the home.
    pub location: &'static str,
    /// That file, below the home (`.copilot/settings.json`).
    pub file: &'static str,
    /// The list's top-level key.
    pub key: &'static str,
    /// The top-level object in which `hookx install` records the keys it added, so that
    /// uninstall removes those and no others.
    pub owned_key: &'static str,
    /// Each event the host runs from those files: its canonical kind, its name as written,
    /// the host's own name, and whether the group's matcher is part of the key.
    pub events: &'static [(crate::model::EventKind, &'static str, &'static str, bool)],
    /// The key fields: the handler type's, the value a command handler has there, the keys
    /// each holding the command, the timeout's, the matcher's, the written event's.
    pub type_key: &'static str,
    pub command_type: &'static str,
    pub command_keys: &'static [&'static str],
    /// The other keys the host keeps in the key of an entry of its own files, after the
    /// command keys (`cwd`, `env`); it leaves every other key out (`comment`, hookx's record).
    pub kept_keys: &'static [&'static str],
    pub timeout_key: &'static str,
    /// The timeout's key in the files the host reads (`timeout`).
    pub written_timeout_key: &'static str,
    /// The command's key there (`command`), which the key gives under each command key.
    pub written_command_key: &'static str,
    pub matcher_key: &'static str,
    pub event_key: &'static str,
    /// The name the host gives the file beside it that it `flock`s while it reads and writes
    /// this one (its path with this ending added): hookx takes it too when it writes here.
    pub host_lock: Option<&'static str>,
}

impl HookSwitch {
    /// The key the host gives `rule`'s `handler`, if hookx can tell it exactly: a command
    /// handler with one command line and no other line, cwd or env of the host's own, on an
    /// event of [`HookSwitch::events`].
    pub fn key(
        &self,
        rule: &crate::tables::Rule,
        handler: &crate::model::Handler,
    ) -> Option<String> {
        use crate::model::HandlerKind;
        let (_, written, own, keeps_matcher) =
            self.events.iter().find(|(kind, ..)| *kind == rule.event)?;
        let HandlerKind::Command(command) = &handler.kind else {
            return None;
        };
        let line = command.command.as_deref()?;
        let other_lines = [
            &command.bash,
            &command.powershell,
            &command.windows,
            &command.linux,
            &command.osx,
            &command.cwd,
        ];
        // Any other key of the handler (`statusMessage`, `shell`, a `comment` of the user's,
        // hookx's record) is left out of the key, as the host leaves it out (probed: attacks
        // row 86, a `comment` keyed as the handler without it).
        if other_lines.iter().any(|l| l.is_some()) || command.env.is_some() {
            return None;
        }
        let text = |s: &str| serde_json::to_string(s).unwrap_or_default();
        let mut json = format!("{{{}:{}", text(self.type_key), text(self.command_type));
        for key in self.command_keys {
            json += &format!(",{}:{}", text(key), text(line));
        }
        if let Some(seconds) = handler.timeout {
            json += &format!(",{}:{seconds}", text(self.timeout_key));
        }
        if let (true, Some(matcher)) = (keeps_matcher, &rule.matcher) {
            json += &format!(",{}:{}", text(self.matcher_key), text(matcher));
        }
        json += &format!(",{}:{}}}", text(self.event_key), text(written));
        Some(crate::hash::sha256_hex(format!("{own}\0{json}").as_bytes()))
    }
}
