//! [`DialectDef`]: everything about one agent besides its name tables, as data. Each dialect
//! file holds one `DEF`; `crate::dialect::DIALECTS` lists them.

use super::{ConfigSpec, Flavor, Location};
use crate::model::EventKind;

/// One agent: its names, config layout, where its files are, how to tell its files and its
/// payloads apart, and how `hookx install` routes it.
pub struct DialectDef {
    /// The `--host` / `--from` / `--to` name; also the name of its first flavour.
    pub name: &'static str,
    /// How messages name the agent ("Copilot").
    pub display: &'static str,
    /// The product, as `--help` lists it ("GitHub Copilot CLI").
    pub product: &'static str,
    /// Its flavours; new rules are written in the first.
    pub flavors: &'static [Flavor],
    pub config: &'static ConfigSpec,
    pub detect: DetectSpec,
    /// Every place the agent reads hooks from, widest scope first (ids are unique across
    /// dialects and appear in JSON output).
    pub locations: &'static [Location],
    /// The location ids, its own or other agents', whose files the agent runs by itself:
    /// hookx must not run them under this host, and they need no trust there. Where the agent
    /// folds its hooks' permission decisions by their place
    /// ([`crate::tables::ProtocolTables::permission_fold`]), in the order it runs their
    /// hooks, which `simulate` folds them in (attacks row 2051); elsewhere the order is not
    /// read.
    pub native: &'static [&'static str],
    /// A settings key that turns every hook of this dialect off, if it has one.
    pub kill_switch: Option<KillSwitch>,
    /// A settings list of handlers the agent never runs, if it has one.
    pub disabled_handlers: Option<DisabledHandlers>,
    /// The machine-wide policy an administrator deploys, if the agent has one.
    pub managed: Option<ManagedSpec>,
    /// Hook locations the agent reads only in a folder the user trusts, if any.
    pub folder_trust: Option<FolderTrust>,
    /// Events on which one malformed entry (a handler outside its group, a group without
    /// `hooks`) makes the agent skip the whole file, not just the entry.
    pub malformed_entry_skips_file: &'static [EventKind],
    pub host: HostSpec,
    pub route: RouteSpec,
    /// For an agent that runs only the handlers its user reviewed: how `hookx install` records
    /// that review of the routes it writes.
    pub route_trust: Option<RouteTrust>,
    /// The variable that moves the agent's own folder below the home, if it has one (Codex's
    /// `CODEX_HOME` for `~/.codex`): the files hookx writes for the agent to read go there.
    pub home_var: Option<HomeVar>,
    /// The option of the agent's command line that lists the scopes it reads, if it has one
    /// (Claude Code's `--setting-sources project,local`).
    pub scope_option: Option<ScopeOption>,
    /// How to tell that the user has this agent (`doctor` examines only those).
    pub presence: Presence,
    pub schema: Schema,
}

/// The signs that a user has an agent: its client program on `PATH` or where its installer
/// puts it below the home, or one of its folders in the project or the home.
pub struct Presence {
    /// The client's program names, looked for on `PATH`.
    pub programs: &'static [&'static str],
    /// The client's program below the home, where its installer puts it.
    pub installs: &'static [&'static str],
    /// The agent's own folders, below the project or the home.
    pub folders: &'static [&'static str],
}

/// An agent's variable for its own folder: set, `$VAR/rest` stands for `~/DIR/rest` (an empty
/// `dir`: the variable stands for the home itself, as Gemini CLI's `GEMINI_CLI_HOME`).
pub struct HomeVar {
    pub var: &'static str,
    pub dir: &'static str,
    /// Where this fact comes from.
    pub source: &'static str,
}

/// An option of the agent's command line that lists the scopes it reads, comma-separated
/// (Claude Code's `--setting-sources`): without the user's, the agent reads no user file, and
/// no route of hookx's there. Read from the agent's process, which its hooks are told by a
/// variable (Claude's `CLAUDE_PID`), and only where that process is an ancestor of hookx's, so
/// that a value set anywhere else names nothing.
pub struct ScopeOption {
    /// The variable holding the agent's process id.
    pub pid_var: &'static str,
    /// The option, `--NAME VALUE` or `--NAME=VALUE`; the last one counts.
    pub option: &'static str,
    /// The option's name for the user's scope.
    pub user: &'static str,
    /// Where this fact comes from.
    pub source: &'static str,
}

/// The review records `hookx install` keeps in an agent's own config for its routes (Codex:
/// `[hooks.state."FILE:event:group:handler"] trusted_hash` in `~/.codex/config.toml`).
pub struct RouteTrust {
    /// The agent's file, below the home, that holds the records.
    pub file: &'static str,
    /// The (key, value) records of the handlers of the hook file at `path` (its JSON value)
    /// that `is_route` accepts (given each handler object).
    pub records: RouteRecords,
    /// The file's text with these records set, or why hookx cannot edit it.
    pub set: fn(text: &str, records: &[Record]) -> Result<String, String>,
    /// The file's text without the records of these keys.
    pub unset: fn(text: &str, keys: &[String]) -> Result<String, String>,
    /// The review value the file's text records for a key, if any, whatever its switch
    /// ([`RouteTrust::recorded`] is the review that holds).
    pub hash: fn(text: &str, key: &str) -> Option<String>,
    /// What the file's text sets the handler of a key's switch to, if it sets it (Codex's
    /// `enabled`): `false` is the user's own choice in the agent, which `recorded` reads as no
    /// review, and `doctor` says as what it is ([`RouteTrust::turned_off`]).
    pub enabled: fn(text: &str, key: &str) -> Option<bool>,
    /// A config file the agent's command line puts on top of `file`, if it has one: a handler
    /// it turns off is off.
    pub layer: Option<&'static ConfigLayer>,
}

/// A config file an agent's command line layers on top of its user file (Codex CLI's `--profile
/// NAME`: `$CODEX_HOME/NAME.config.toml`), and the single keys it sets above that (`-c`). Read
/// from the agent's process: the nearest of hookx's ancestors running `program`.
pub struct ConfigLayer {
    pub program: &'static str,
    /// The option naming the layer, in each spelling (`--profile`, `-p`); the last one counts.
    pub options: &'static [&'static str],
    /// The layer's file below the home, `{}` standing for the name the option gives.
    pub file: &'static str,
    /// The option that sets one key on top of the layer (Codex's `-c key=value`, a dotted
    /// path and a TOML value), in each spelling; each one given counts, the last one winning.
    pub overrides: &'static [&'static str],
    /// Where this fact comes from.
    pub source: &'static str,
}

/// One review record: its key and value.
pub type Record = (String, String);

/// See [`RouteTrust::records`].
pub type RouteRecords = fn(
    path: &std::path::Path,
    hook_file: &serde_json::Value,
    is_route: &dyn Fn(&serde_json::Value) -> bool,
) -> Vec<Record>;

/// How a file is told to be this agent's when `--from` is not given (`crate::config::detect`).
pub struct DetectSpec {
    /// Path fragments of the agent's own folders (`.claude/`); the one nearest the file name
    /// decides.
    pub dirs: &'static [&'static str],
    /// File names that are this agent's wherever they sit, when no folder decided.
    pub file_names: &'static [&'static str],
    /// Whether a file without any of the agent's marks may be its: false when its files are
    /// otherwise indistinguishable from another agent's (Copilot's PascalCase form is Claude's).
    pub unmarked: bool,
    /// Flavours whose event names only this agent writes: one of them settles the dialect.
    pub sole_event_flavors: &'static [Flavor],
    /// Top-level and handler keys only this agent writes: one settles the dialect.
    pub sole_top_keys: &'static [&'static str],
    pub sole_handler_keys: &'static [&'static str],
    /// Top-level and handler keys this agent shares with no agent that lacks them: a file with
    /// one is a file of one of the agents listing it.
    pub top_keys: &'static [&'static str],
    pub handler_keys: &'static [&'static str],
    /// Chosen when the content fits several dialects or none (the most common agent).
    pub preferred: bool,
}

/// A settings key that turns every hook of the dialect off: `"disableAllHooks": true` (Claude),
/// `"hooksConfig": {"enabled": false}` (Gemini).
pub struct KillSwitch {
    /// The top-level key.
    pub key: &'static str,
    /// The key inside it that holds the flag, when the flag is nested.
    pub inner: Option<&'static str>,
    /// Whether `key` sits among the events of the hooks object, not at the top level
    /// (Droid's `hooks.hooksDisabled`).
    pub among_events: bool,
    /// The flag's value that turns the hooks off.
    pub off: bool,
    /// Whether the switch turns off every hook the host runs, whatever the file's agent: its
    /// user-level hooks and hookx's route too, policy hooks aside (Copilot's repo
    /// `disableAllHooks`). It then counts only where the host reads the file (folder trust).
    pub host_wide: bool,
    /// The location ids whose files may set it, lowest precedence first: the highest that sets
    /// it decides.
    pub locations: &'static [&'static str],
}

/// How hookx tells, when `--host` is not given, that this agent sent a payload.
pub struct HostSpec {
    /// Payload keys only this agent sends (asked after casing and timestamps).
    pub payload_keys: &'static [&'static str],
    /// Events only this agent sends, asked last.
    pub payload_events: &'static [EventKind],
    /// Variables the agent sets for its hooks that name it; asked when the payload does not
    /// tell. One another agent sets too (`CLAUDE_PROJECT_DIR`, set by Copilot) is asked last.
    pub env_markers: &'static [&'static str],
}

/// The routing entry `hookx install` writes into the host's file for one event.
pub struct RouteSpec {
    /// The matcher of the entry, if the host needs one to fire on every tool.
    pub matcher: Option<&'static str>,
    /// Whether the handler sits in a `{matcher?, hooks: […]}` group, else straight in the
    /// event's array.
    pub grouped: bool,
    /// Keys the route's group carries besides `matcher` and `hooks`, each with its JSON value:
    /// what the host sends only when asked (Auggie names an MCP tool's server only under
    /// `metadata.includeMCPMetadata`). Empty elsewhere.
    pub group_keys: &'static [(&'static str, &'static str)],
    /// The handler key the command goes in.
    pub command_key: &'static str,
    /// The handler key the route's timeout goes in (in the host's unit:
    /// [`ConfigSpec::timeout_unit`]), where the host's entries have one: install writes
    /// [`RouteSpec::limit`] there.
    pub timeout_key: Option<&'static str>,
    /// How long the host lets the route run before it kills hookx and goes on without its
    /// answer: `hookx run` answers within it, less a margin.
    pub limit: RouteLimit,
    /// Whether the project route says it is one (`--installed-in project`): the agent runs a
    /// user and a project route both (the user's carries the user's key, so an agent that
    /// runs identical commands once runs both too) and tells hookx neither which file fired
    /// nor (no [`crate::tables::ConfigSpec::hook_dir_var`]) its folder, so the project route
    /// must leave an event the user route also takes to it.
    pub names_project_route: bool,
    /// Whether the project route names its folder (`--route-folder REL`, the folder below the
    /// project's root): the agent loads the project file of every folder from the root down
    /// to where it started (Codex's `.codex/`) and runs each one's route line, and lines alike
    /// cannot tell which folder's rules are theirs (attacks rows 670, 680).
    pub names_folder: bool,
}

/// Seconds install writes as a route's timeout where the host's entries have one: a Claude
/// handler's default timeout (600 s) plus the moment hookx keeps to answer in, so that such a
/// handler gets its whole time under every host that honours the key.
pub const ROUTE_TIMEOUT: u64 = 605;

/// See [`RouteSpec::limit`]: a fact about the host, with its source in the dialect file.
pub struct RouteLimit {
    /// Seconds. Where the route has a [`RouteSpec::timeout_key`]: what install writes there,
    /// which the host honours ([`ROUTE_TIMEOUT`]). Elsewhere: the host's own limit for one
    /// hook, which no entry changes.
    pub secs: u64,
    /// Events on which the host gives a hook another limit (Codex gives SessionEnd and
    /// Interrupt hooks 1 s by default and at most 3): install writes the default there.
    pub on: &'static [EventLimit],
}

/// A host's limit for the hooks of one event, in seconds: `secs` where an entry gives no
/// timeout, `most` whatever one it gives.
pub struct EventLimit {
    pub kind: EventKind,
    pub secs: u64,
    pub most: u64,
}

impl RouteLimit {
    /// The limit on `kind`, in seconds.
    pub fn on(&self, kind: &EventKind) -> u64 {
        self.event(kind).map_or(self.secs, |l| l.secs)
    }

    /// The host's own limit for the hooks of `kind`, where it has one.
    pub fn event(&self, kind: &EventKind) -> Option<&EventLimit> {
        self.on.iter().find(|l| l.kind == *kind)
    }
}

/// A settings list naming handlers the agent never runs (Gemini CLI `hooksConfig.disabled`,
/// run 0.61.0): `{KEY: {INNER: [label, …]}}`, a handler's label being its `label_key`, else its
/// command. Read from the trusted files of `locations`; a label listed in any of them is off.
pub struct DisabledHandlers {
    pub key: &'static str,
    pub inner: &'static str,
    pub label_key: &'static str,
    pub locations: &'static [&'static str],
}

impl DisabledHandlers {
    /// The labels a file's top-level keys list. A lone string is a list of one: Gemini CLI
    /// 0.61.0 merges each scope's value into its defaults' empty list (`mergeRecursively`,
    /// union, a value that is no list taken as one item) and warns of the schema only (attacks
    /// row 489's leftover: read as no list, the copy it turned off stood in for the guard).
    pub fn labels<'a>(
        &self,
        top: &'a serde_json::Map<String, serde_json::Value>,
    ) -> impl Iterator<Item = &'a str> {
        let listed = top.get(self.key).and_then(|v| v.get(self.inner));
        let items = match listed {
            Some(serde_json::Value::Array(items)) => items.as_slice(),
            Some(one) => std::slice::from_ref(one),
            None => &[],
        };
        items.iter().filter_map(serde_json::Value::as_str)
    }

    /// A handler's label: its `label_key`, else its command line.
    pub fn label<'a>(&self, handler: &'a crate::model::Handler) -> Option<&'a str> {
        let command = || match &handler.kind {
            crate::model::HandlerKind::Command(c) => c.unix_line(),
            _ => None,
        };
        self.named(handler.extra.get(self.label_key), command)
    }

    /// The label of a handler whose `label_key` holds `name`, `command` giving its command line,
    /// as Gemini CLI 0.61.0 takes it (`getHookName`: `name || command`): a `name` JavaScript
    /// takes for false (`""`, `0`, `false`, `null`) gives way to the command, and one that is
    /// no string is no label a list of strings names.
    pub fn named<'a>(
        &self,
        name: Option<&'a serde_json::Value>,
        command: impl FnOnce() -> Option<&'a str>,
    ) -> Option<&'a str> {
        use serde_json::Value;
        match name {
            Some(Value::String(name)) if !name.is_empty() => Some(name),
            None | Some(Value::Null | Value::Bool(false) | Value::String(_)) => command(),
            Some(Value::Number(n)) if n.as_f64() == Some(0.0) => command(),
            Some(_) => None,
        }
    }
}

/// The key of a config file's hooks object.
const HOOKS_OBJECT: &str = "hooks";

impl RouteTrust {
    /// Whether the file's text turns the handler of `key` off, whatever its record.
    pub fn turned_off(&self, text: &str, key: &str) -> bool {
        (self.enabled)(text, key) == Some(false)
    }

    /// The value the file's text records for a key, if the record holds: not turned off there
    /// (`doctor` compares it with the handler's current one: the agent skips a handler whose
    /// record is missing, stale or off).
    pub fn recorded(&self, text: &str, key: &str) -> Option<String> {
        (!self.turned_off(text, key))
            .then(|| (self.hash)(text, key))
            .flatten()
    }

    /// Whether the agent runs the handler of `key`, whose review value is `value`: its record
    /// in each of the `texts` it may read them from hashes `value`, and the highest of the
    /// `layers` (the winning one first) and then those texts that sets its switch does not
    /// set it off. A `-c` turning it on again above the user's own `enabled = false` runs it
    /// (Codex 0.171.0, live: attacks row 860).
    pub fn runs(&self, texts: &[String], layers: &[String], key: &str, value: &str) -> bool {
        let hashed = texts
            .iter()
            .all(|text| (self.hash)(text, key).as_deref() == Some(value));
        let switch = layers
            .iter()
            .find_map(|text| (self.enabled)(text, key))
            .or_else(|| {
                texts
                    .iter()
                    .any(|t| self.turned_off(t, key))
                    .then_some(false)
            });
        hashed && switch != Some(false)
    }
}

impl KillSwitch {
    /// The flag as a file's top-level keys set it, if they do (a non-boolean is `Err`).
    pub fn flag<'a>(
        &self,
        top: &'a serde_json::Map<String, serde_json::Value>,
    ) -> Option<Result<bool, &'a serde_json::Value>> {
        let mut value = top.get(self.key)?;
        if let Some(inner) = self.inner {
            value = value.as_object()?.get(inner)?;
        }
        Some(value.as_bool().ok_or(value))
    }

    /// The flag as a document sets it. A switch inside the hooks object (Droid's
    /// `hooks.hooksDisabled`) is among the hooks keys that are not events.
    pub fn flag_in<'a>(
        &self,
        doc: &'a crate::tables::Document,
    ) -> Option<Result<bool, &'a serde_json::Value>> {
        match self.among_events {
            true => {
                let value = doc.extra_hooks.get(self.key)?;
                Some(value.as_bool().ok_or(value))
            }
            false => self.flag(&doc.extra),
        }
    }

    /// Whether a document turns the hooks off.
    pub fn is_off(&self, doc: &crate::tables::Document) -> bool {
        matches!(self.flag_in(doc), Some(Ok(flag)) if flag == self.off)
    }

    /// The keys leading to the flag: `[hooksConfig, enabled]`, `[hooks, hooksDisabled]`.
    fn path(&self) -> Vec<&'static str> {
        let outer = self.among_events.then_some(HOOKS_OBJECT);
        outer
            .into_iter()
            .chain([self.key])
            .chain(self.inner)
            .collect()
    }

    /// The flag's JSON pointer in a file.
    pub fn pointer(&self) -> String {
        self.path().iter().map(|k| format!("/{k}")).collect()
    }

    /// The flag's name: `disableAllHooks`, `hooksConfig.enabled`.
    pub fn name(&self) -> String {
        self.path().join(".")
    }

    /// The setting that turns the hooks off: `disableAllHooks: true`.
    pub fn shown(&self) -> String {
        format!("{}: {}", self.name(), self.off)
    }

    /// The same as JSON text: `"disableAllHooks": true`, `"hooksConfig": {"enabled": false}`.
    pub fn json(&self) -> String {
        let path = self.path();
        let (last, outer) = path.split_last().expect("a switch has a key");
        let mut text = format!("\"{last}\": {}", self.off);
        for key in outer.iter().rev() {
            text = format!("\"{key}\": {{{text}}}");
        }
        text
    }
}

/// The hand-written JSON Schema of the dialect's files (`schemas/`).
pub struct Schema {
    pub file_name: &'static str,
    pub text: &'static str,
}

/// Where an agent reads its machine-wide policy (Claude's managed settings, Copilot's policy
/// hooks) and which of its keys turn other hooks off. Policy files are the agent's highest
/// scope: `hookx run` never overrides them, and hookx reads them as the agent does, without
/// asking for `hookx trust` (only an administrator can write them). Its locations have
/// [`crate::tables::Root::Managed`] and [`crate::tables::Scope::Managed`].
pub struct ManagedSpec {
    /// The policy folder per operating system (`std::env::consts::OS`); the location patterns
    /// are below it. `--managed-root` (and, for the commands a user types, `HOOKX_MANAGED_ROOT`)
    /// moves `/` elsewhere (tests, images).
    pub dirs: &'static [(&'static str, &'static str)],
    /// A key whose `true` in a policy file leaves only policy hooks running in the agent's
    /// sessions (Claude's `allowManagedHooksOnly`): `hookx run` under this host then runs
    /// nothing from any other scope.
    pub only_managed_key: Option<&'static str>,
    /// A key of the agent's policy file and the value of it that turns every hook off in the
    /// agent's sessions, whichever agent's files they come from (VS Code's `"ChatHooks": false`,
    /// which controls `chat.useHooks`): `hookx run` under this host then runs nothing either.
    /// The last policy file that sets it decides.
    pub hooks_off: Option<(&'static str, bool)>,
    /// What the agent does with a policy file that is no JSON object.
    pub broken_policy: BrokenPolicy,
    /// Whether a `true` kill switch ([`KillSwitch`]) in a policy file turns the policy hooks
    /// off too; set in any other file it leaves them on.
    pub kill_switch_reaches_policy: bool,
    /// Whether a kill switch set in a file that is not policy turns the policy hooks off too:
    /// Gemini CLI merges one `hooksConfig.enabled` over all its files (system settings last),
    /// so a user's `false` stops system hooks unless the system settings say `true`.
    pub any_kill_switch_reaches_policy: bool,
    /// Whether the agent skips a policy file that root does not own, or that group or others
    /// may write, or below a folder (or through a symlink) that is so: another user could have
    /// written it (Gemini CLI 0.61.0 `isFileAndDirectorySecureSync`). hookx then does not read
    /// it as policy either ([`crate::discover::Source::refused_policy`]).
    pub root_owned_only: bool,
    /// The variables that move a policy file elsewhere (location id, variable naming the
    /// file); a location whose variable is unset sits beside the first one's file when that is
    /// set (Gemini's system defaults beside its system settings). Read only for their lists of
    /// turned-off handlers, added to the policy folder's: by `exec`'s prediction of who runs
    /// hookx's user route (attacks row 640) and by the plan's of who runs a copy (row 643).
    pub moved_by: &'static [(&'static str, &'static str)],
    /// Where these facts come from ("docs: …", "run …", "binary …").
    pub source: &'static str,
}

/// What an agent does with a policy file that is no JSON object (it does not parse, or its top
/// is something else).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokenPolicy {
    /// It skips that file and reads the others (Copilot CLI 1.0.102).
    Skipped,
    /// It does not start, so no hook runs in its sessions (Claude Code 2.1.332 exits 1:
    /// "Managed settings document could not be parsed as a JSON object; none of its settings
    /// are in effect. Fix or remove it."). Comments are a fault only where the agent's
    /// [`crate::tables::JsonSyntax`] has none: hookx reads the file the same way.
    StopsAgent,
}

/// Hook locations an agent reads only once the user has trusted the project folder (Copilot
/// in `-p` mode: `.github/hooks`, repo settings, `.claude/settings*.json`; Gemini CLI:
/// `.gemini/settings.json`; Codex: `.codex/`).
pub struct FolderTrust {
    /// The location ids gated by folder trust.
    pub locations: &'static [&'static str],
    /// The file below the home that records trusted folders, and how.
    pub record: TrustRecord,
    /// A variable naming the record's file itself, in place of the one below the home (Gemini
    /// CLI's `GEMINI_CLI_TRUSTED_FOLDERS_PATH`). Read for the commands a user types only
    /// ([`crate::context::Context::agent_file`]), as the agent started from the same shell
    /// reads it; never by `hookx run` ([`crate::discover::folder_trusted`] says why).
    pub record_var: Option<&'static str>,
    /// Variables that trust the folder when set to the value given (`KEY=true`), as the user
    /// running the agent may set them.
    pub trust_vars: &'static [(&'static str, &'static str)],
    /// Those of `trust_vars` the agent itself sets after it read its settings as untrusted
    /// (Gemini CLI's `--skip-trust`), its project hooks not loaded: in a hook's environment no
    /// proof of trust, so `hookx run` goes by the record ([`crate::discover::folder_trusted`]).
    pub set_after_load: &'static [&'static str],
    /// Variables that distrust the folder when set to the value given, whatever the record
    /// and `trust_vars` say (Gemini CLI's restricted mode).
    pub distrust_vars: &'static [(&'static str, &'static str)],
    /// A setting of the agent's own that turns folder trust off, every folder trusted (Gemini
    /// CLI's `security.folderTrust.enabled: false`): read as the record is, below the home.
    pub off_setting: Option<TrustOff>,
    /// How to trust the folder, shown as the fix.
    pub fix: &'static str,
    /// What the agent does with these hooks in a folder the user has not trusted, for doctor's
    /// warning: agents differ (Copilot skips them in `-p` mode only, Codex never loads them).
    pub untrusted: &'static str,
    /// Started in a linked git worktree, the agent reads these files, and looks the folder up
    /// in its record, at the repository's main checkout instead (Codex 0.171.0: `hooks/list`
    /// names the checkout's `.codex/hooks.json`, and the checkout's trust lets it load; attacks
    /// rows 1927, 2022, 2023). A worktree's own copy of them is not what the agent runs.
    pub main_checkout_in_worktree: bool,
    /// Where these facts come from.
    pub source: &'static str,
}

/// A user setting that turns an agent's folder trust off: `pointer` in `file` (below the home)
/// is `false`.
pub struct TrustOff {
    pub file: &'static str,
    pub pointer: &'static str,
    /// What the agent's reader of the file takes beyond JSON.
    pub json: crate::tables::JsonSyntax,
}

impl TrustOff {
    /// Whether the setting is off in the file `place` gives (`json` reads it as the agent
    /// does): every folder is trusted then.
    pub fn is_off(
        &self,
        place: impl Fn(&str) -> std::path::PathBuf,
        json: fn(&str, crate::tables::JsonSyntax) -> Option<serde_json::Value>,
    ) -> bool {
        crate::read::text(&place(self.file), crate::read::MAX_FILE_BYTES)
            .ok()
            .and_then(|text| json(&text, self.json))
            .is_some_and(|v| v.pointer(self.pointer) == Some(&serde_json::Value::Bool(false)))
    }
}

/// `path` made absolute as Node's `path.resolve` makes it, from `cwd`: `.` and `..` taken
/// out by their text, no link followed.
fn resolved(cwd: &std::path::Path, path: &str) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for part in cwd.join(path).components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// How an agent records the folders the user trusts.
pub enum TrustRecord {
    /// `{KEY: [path, …]}` in `file`, under any of `keys` (the first the one the agent writes,
    /// named in messages): a folder is trusted when it or a parent is listed (Copilot).
    List {
        file: &'static str,
        keys: &'static [&'static str],
        /// What the agent's reader of the file takes beyond JSON.
        json: crate::tables::JsonSyntax,
    },
    /// `{path: LEVEL, …}` in `file`: the longest path that covers the folder decides; levels in
    /// `trust_folder` trust the path named and below, levels in `trust_parent` its parent and
    /// below, any other distrusts (Gemini CLI `trustedFolders.json`).
    Levels {
        file: &'static str,
        trust_folder: &'static [&'static str],
        trust_parent: &'static [&'static str],
        /// What the agent's reader of the file takes beyond JSON.
        json: crate::tables::JsonSyntax,
    },
    /// `[TABLE."PATH"] KEY = "VALUE"` in the TOML `file`: the folder is trusted when its own
    /// entry has `trusted` (Codex `[projects."/real/path"] trust_level = "trusted"`; a parent's
    /// entry does not count).
    TomlTable {
        file: &'static str,
        table: &'static str,
        key: &'static str,
        trusted: &'static str,
    },
}

impl TrustRecord {
    /// The record's file, below the home.
    pub fn file(&self) -> &'static str {
        match self {
            TrustRecord::List { file, .. }
            | TrustRecord::Levels { file, .. }
            | TrustRecord::TomlTable { file, .. } => file,
        }
    }
}

impl FolderTrust {
    /// Where the record is, for messages, its file shown as `file`: `~/.copilot/config.json`
    /// `trustedFolders`.
    pub fn describe(&self, file: &str) -> String {
        match self.record {
            TrustRecord::List { keys, .. } => format!("{file} `{}`", keys[0]),
            TrustRecord::Levels { .. } => file.to_string(),
            TrustRecord::TomlTable { table, .. } => format!("{file} `[{table}]`"),
        }
    }

    /// Whether the record trusts `folder` (a real path); `place` gives the path of the
    /// record's file (written below the home: where the agent reads it), `json` reads a JSON
    /// record with what the agent's reader takes (Copilot's comments and all, attacks row 324;
    /// Gemini's comments only): a record its agent cannot read trusts nothing.
    pub fn trusts(
        &self,
        place: impl Fn(&str) -> std::path::PathBuf,
        folder: &std::path::Path,
        json: fn(&str, crate::tables::JsonSyntax) -> Option<serde_json::Value>,
    ) -> bool {
        use serde_json::Value;
        let Ok(text) = crate::read::text(&place(self.record.file()), crate::read::MAX_FILE_BYTES)
        else {
            return false;
        };
        if let TrustRecord::TomlTable {
            table,
            key,
            trusted,
            ..
        } = self.record
        {
            let Ok(doc) = text.parse::<toml_edit::DocumentMut>() else {
                return false;
            };
            let level = doc
                .get(table)
                .and_then(|t| t.get(folder.to_str()?))
                .and_then(|entry| entry.get(key))
                .and_then(|v| v.as_str());
            return level == Some(trusted);
        }
        let syntax = match self.record {
            TrustRecord::List { json, .. } | TrustRecord::Levels { json, .. } => json,
            TrustRecord::TomlTable { .. } => return false,
        };
        let Some(value) = json(&text, syntax) else {
            return false;
        };
        match self.record {
            TrustRecord::List { keys, .. } => keys
                .iter()
                .filter_map(|key| value.get(key)?.as_array())
                .flatten()
                .filter_map(Value::as_str)
                .any(|listed| folder.starts_with(listed)),
            TrustRecord::TomlTable { .. } => false,
            TrustRecord::Levels {
                trust_folder,
                trust_parent,
                ..
            } => {
                // Bundle 0.61.0 `isPathTrusted`: of the entries covering the folder, the one
                // whose path is the longest as written (made absolute) decides, the first of
                // equals; the path it covers (a `TRUST_PARENT`'s parent) taken real where it
                // exists. By depth, a deeper `DO_NOT_TRUST` outweighed a longer sibling's
                // `TRUST_PARENT` Gemini goes by, and an entry written through a link covered
                // nothing (attacks row 462).
                let mut decides: Option<(usize, &str)> = None;
                for (path, level) in value.as_object().into_iter().flatten() {
                    let Some(level) = level.as_str() else {
                        continue;
                    };
                    let path = resolved(folder, path);
                    let base = match trust_parent.contains(&level) {
                        true => path.parent().unwrap_or(&path),
                        false => &path,
                    };
                    let base = base.canonicalize().unwrap_or_else(|_| base.to_path_buf());
                    let length = path.as_os_str().to_string_lossy().encode_utf16().count();
                    if folder.starts_with(&base) && decides.is_none_or(|(l, _)| length > l) {
                        decides = Some((length, level));
                    }
                }
                decides.is_some_and(|(_, level)| {
                    trust_folder.contains(&level) || trust_parent.contains(&level)
                })
            }
        }
    }
}
