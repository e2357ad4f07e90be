//! Converting one handler: its type, its fields (timeout, status message, `once`, unknown
//! ones), and the other command-handler forms of the source ([`crate::tables::RunKeys`]).

use super::converter::{Converter, field_pointer};
use super::wrap::Wrap;
use crate::config::walk::HandlerAt;
use crate::model::{Command, EventKind, Handler, HandlerKind};
use crate::shell::shell_quote;
use crate::source::SourceFile;
use crate::tables::{Dialect, Flavor, HandlerField};
use serde_json::Value;
use std::borrow::Cow;

impl Converter<'_> {
    /// `handler` of a rule converted from `from` to `to`: none when the target cannot run it
    /// (a loss says why); `wrap_match`: the matcher `hookx exec --match` applies.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn handler(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        handler: &Handler,
        event: &EventKind,
        from: Flavor,
        to: Flavor,
        wrap_match: Option<&str>,
    ) -> Option<Handler> {
        if from == to {
            return Some(handler.clone());
        }
        let target = to.dialect();
        if let HandlerKind::Service(s) = &handler.kind
            && !to.tables().handler_types.contains(&s.type_name)
        {
            let type_name = s.type_name;
            self.lose(
                src,
                at,
                &format!("`{type_name}` handler on `{event}`"),
                &format!("{target} has no {type_name} handler; it is not converted"),
            );
            return None;
        }
        // No command line at all (a Copilot entry holding only a `_comment`): reading
        // reported it, once; its other fields are no further loss.
        if let HandlerKind::Command(c) = &handler.kind
            && [
                &c.command,
                &c.bash,
                &c.powershell,
                &c.windows,
                &c.linux,
                &c.osx,
            ]
            .iter()
            .all(|line| line.is_none())
            && !handler.extra.contains_key("args")
        {
            return None;
        }
        let mut out = self.handler_fields(src, at, handler, from, target);
        match &handler.kind {
            HandlerKind::Command(command) => {
                let (mut command, condition) =
                    self.command_form(src, at, command, &handler.extra, from)?;
                // A handler its agent runs in the background by another key (Claude's
                // `asyncRewake`) runs so under the target too: only its wake is lost (attacks
                // row 1821: in the foreground, its exit 2 blocked what it only reported on).
                let background = from.dialect().config().run_keys.background;
                if command.is_async != Some(true)
                    && background
                        .iter()
                        .any(|k| handler.extra.get(*k) == Some(&Value::Bool(true)))
                {
                    command.to_mut().is_async = Some(true);
                }
                // A wrapped handler keeps the timeout it was written with, whatever the
                // wrapper's dialect defaults to; without one, `exec` applies its dialect's.
                let wrap = self.options.wrap.then_some(Wrap {
                    matcher: wrap_match,
                    timeout: handler.timeout,
                    condition,
                    follow_up_limit: follow_up_limit(handler, from),
                    background: command.is_async == Some(true)
                        && to.dialect().config().key(HandlerField::Async).is_none(),
                });
                let command = self.command(src, at, &command, event, from, to, wrap)?;
                out.kind = HandlerKind::Command(command);
            }
            HandlerKind::Prompt(_) | HandlerKind::Agent(_) => {
                let type_name = if matches!(handler.kind, HandlerKind::Prompt(_)) {
                    "prompt"
                } else {
                    "agent"
                };
                // Claude's prompt hook asks a model for a decision; Copilot's submits text as
                // if the user typed it: same name, different meaning.
                self.lose(src, at, &format!("`{type_name}` handler on `{event}`"), &format!(
                    "{target} has no {type_name} handler with the meaning {} gives it; it is not converted",
                    from.dialect()
                ));
                return None;
            }
            HandlerKind::Service(_) => {}
        }
        self.handler_timeout(src, at, handler, event, from, to, &mut out);
        self.handler_flags(src, at, handler, from, target, &mut out);
        Some(out)
    }

    /// The handler's copy for `target`, its command left to be made; its unknown fields are
    /// kept within a dialect and for a service handler, else a loss.
    fn handler_fields(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        handler: &Handler,
        from: Flavor,
        target: Dialect,
    ) -> Handler {
        // A service handler's fields (an `http` handler's `url`, `headers`, …) are its whole
        // definition, and a target with the same type reads them under the same names.
        let service = matches!(handler.kind, HandlerKind::Service(_));
        let keeps_extra = from.dialect() == target || service;
        let out = Handler {
            // A command is made below; its copy would only be dropped.
            kind: match &handler.kind {
                HandlerKind::Command(_) => HandlerKind::Command(Command::default()),
                other => other.clone(),
            },
            timeout: handler.timeout,
            status_message: handler.status_message.clone(),
            once: handler.once,
            // hookx's provenance record is written by the caller.
            extra: if keeps_extra {
                let mut extra = handler.extra.clone();
                extra.remove(crate::config::MARKER);
                extra
            } else {
                Default::default()
            },
        };
        // A timeout alias repeating the timeout that was read (Copilot `timeout` beside
        // `timeoutSec`) carries nothing more.
        let repeated_timeout = |key: &str, value: &Value| {
            from.dialect().config().field(key) == Some(HandlerField::Timeout)
                && value.as_u64().is_some()
                && value.as_u64() == handler.timeout
        };
        // A follow-up cap `exec` carries ([`follow_up_limit`]) is no loss when wrapped.
        let carried = |key: &str| {
            self.options.wrap
                && follow_up_limit(handler, from).is_some()
                && from
                    .dialect()
                    .config()
                    .run_keys
                    .follow_ups
                    .as_ref()
                    .and_then(|s| s.limit_key)
                    == Some(key)
        };
        let unknown: Vec<String> = handler
            .extra
            .iter()
            .filter(|(k, v)| {
                *k != crate::config::MARKER
                    && !repeated_timeout(k, v)
                    && !carried(k)
                    && !from
                        .dialect()
                        .config()
                        .run_keys
                        .keys()
                        .any(|r| r == k.as_str())
            })
            .map(|(k, _)| format!("`{k}`"))
            .collect();
        if !keeps_extra && !unknown.is_empty() {
            let keys = unknown.join(", ");
            self.lose(
                src,
                at,
                &format!("handler field(s) {keys}"),
                &format!("{target} does not know these fields; they are not carried over"),
            );
        }
        out
    }

    /// The handler's timeout where the target reads timeouts differently: "no timeout" it
    /// cannot say, another default, or no per-hook timeout at all.
    #[allow(clippy::too_many_arguments)]
    fn handler_timeout(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        handler: &Handler,
        event: &EventKind,
        from: Flavor,
        to: Flavor,
        out: &mut Handler,
    ) {
        let target = to.dialect();
        let spec = target.config();
        // "No timeout" (`0` where the source says so) where the target cannot say it: the
        // target's default applies.
        let no_timeout = handler.timeout == Some(0)
            && from.dialect().config().zero_timeout_is_none
            && !to.dialect().config().zero_timeout_is_none;
        if no_timeout {
            out.timeout = None;
            let limit = to.tables().default_timeout(&out.kind);
            self.lose(
                src,
                field_pointer(at, from, HandlerField::Timeout),
                &format!("timeout 0 on `{event}`"),
                &format!(
                    "{} reads it as no timeout, which {target} cannot say: it is left out, and \
                     {target}'s default applies ({limit} s in hookx's table)",
                    from.dialect()
                ),
            );
        }
        // `0` where the source reads it as its default: that default, not a `0` the target may
        // read otherwise (Kiro: no timeout at all; attacks row 205).
        if handler.timeout == Some(0)
            && !from.dialect().config().zero_timeout_is_none
            && from.dialect() != to.dialect()
        {
            out.timeout = None;
        }
        // Timeouts: carry them, and write the source default where the target's differs.
        let from_default = from.tables().default_timeout(&handler.kind);
        if !no_timeout
            && out.timeout.is_none()
            && to.tables().default_timeout(&out.kind) != from_default
        {
            out.timeout = Some(from_default);
        }
        // The source's own limit for the hooks of this event (Codex's SessionEnd and Interrupt:
        // 1 s by default, at most 3): a hook with no timeout ran under its default, so the copy
        // is given that, not the source's default for every hook (attacks row 2435: Codex's
        // SessionEnd hook with no timeout, cut at 1 s there, was written as 600 s for Gemini,
        // which waits for it at exit); a longer timeout than its most is written as asked, and
        // said.
        if from.dialect() != to.dialect()
            && !no_timeout
            && let Some(limit) = from.dialect().def().route.limit.event(event)
        {
            match handler.timeout.filter(|t| *t > 0) {
                None => out.timeout = Some(limit.secs),
                Some(asked) if asked > limit.most => self.lose(
                    src,
                    field_pointer(at, from, HandlerField::Timeout),
                    &format!("timeout of {asked} s on `{event}`"),
                    &format!(
                        "{} gives a hook on this event at most {} s and clamped it there; \
                         written as asked, so under {target} it may run {asked} s",
                        from.dialect(),
                        limit.most
                    ),
                ),
                Some(_) => {}
            }
        }
        // A target without a timeout field (a hook script) runs every hook under its own fixed
        // limit, so a timeout the source set is lost unless it is that limit; wrapped, `hookx
        // exec --timeout` still ends the hook sooner, so only a longer one is.
        if spec.key(HandlerField::Timeout).is_none()
            && !no_timeout
            && let Some(asked) = handler.timeout
        {
            let limit = to.tables().default_timeout(&out.kind);
            if asked > limit || !self.options.wrap && asked != limit {
                self.lose(
                    src,
                    field_pointer(at, from, HandlerField::Timeout),
                    &format!("timeout of {asked} s on `{event}`"),
                    &format!(
                        "{target} has no per-hook timeout: it is dropped, and {target}'s own \
                         limit applies ({limit} s in hookx's table)"
                    ),
                );
            }
        }
        // The target's own limit for the hooks of this event (Codex's SessionEnd and Interrupt:
        // at most 3 s, a longer timeout clamped, with a warning at every start): written as
        // that most, a loss where more was asked (attacks row 2335: a Gemini SessionEnd
        // logger's default of 60 s was written as `timeout: 60`, "no losses").
        if let (Some(limit), Some(asked)) = (target.def().route.limit.event(event), out.timeout)
            && asked > limit.most
        {
            out.timeout = Some(limit.most);
            let what = match handler.timeout {
                Some(_) => format!("timeout of {asked} s on `{event}`"),
                None => format!(
                    "{}'s default timeout ({asked} s) on `{event}`",
                    from.dialect()
                ),
            };
            self.lose(
                src,
                field_pointer(at, from, HandlerField::Timeout),
                &what,
                &format!(
                    "{target} gives a hook on this event at most {} s, and clamps a longer \
                     timeout with a warning: written as {} s",
                    limit.most, limit.most
                ),
            );
        }
        // Past what the target's hook timer holds, the target ends the hook as soon as it
        // starts and goes on with the call (attacks row 1681): written as the most it holds.
        if let (Some(limit), Some(asked)) = (spec.timer_limit_ms, out.timeout)
            && asked.saturating_mul(1000) > limit
        {
            let most = limit / 1000;
            out.timeout = Some(most);
            self.lose(
                src,
                field_pointer(at, from, HandlerField::Timeout),
                &format!("timeout of {asked} s on `{event}`"),
                &format!(
                    "{target}'s hook timer holds at most {limit} ms, and ends a hook with a \
                     longer timeout as soon as it starts: written as {most} s"
                ),
            );
        }
    }

    /// `statusMessage` and `once`, where the target has no such field: dropped, each a loss.
    fn handler_flags(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        handler: &Handler,
        from: Flavor,
        target: Dialect,
        out: &mut Handler,
    ) {
        let spec = target.config();
        for (present, field, what) in [
            (
                handler.status_message.is_some(),
                HandlerField::StatusMessage,
                "`statusMessage`",
            ),
            (handler.once.is_some(), HandlerField::Once, "`once`"),
        ] {
            if present && spec.key(field).is_none() {
                self.lose(
                    src,
                    field_pointer(at, from, field),
                    what,
                    &format!("{target} has no such handler field; it is dropped"),
                );
            }
        }
        if spec.key(HandlerField::StatusMessage).is_none() {
            out.status_message = None;
        }
        if spec.key(HandlerField::Once).is_none() {
            out.once = None;
        }
    }

    /// Reads the source dialect's other command-handler forms ([`crate::tables::RunKeys`]; Claude's `args`,
    /// `shell`, `if`, `onFailure`, `asyncRewake`, kept among the handler's unknown fields): the
    /// command line they amount to, and the `if` filter, which `hookx exec --if` applies. What no target can express is
    /// a loss item; a form that would change the command drops the handler.
    fn command_form<'c>(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        command: &'c Command,
        extra: &serde_json::Map<String, Value>,
        from: Flavor,
    ) -> Option<(Cow<'c, Command>, Option<String>)> {
        // Copied only when another form changes it.
        let mut command = Cow::Borrowed(command);
        let target = self.options.to;
        let keys = &from.dialect().config().run_keys;
        let get = |key: Option<&'static str>| key.and_then(|k| Some((k, extra.get(k)?)));
        if let Some((key, args)) = get(keys.exec_args) {
            let words = args.as_array().and_then(|a| {
                a.iter()
                    .map(|w| w.as_str().map(shell_quote))
                    .collect::<Option<Vec<_>>>()
            });
            let (Some(words), Some(program)) = (words, command.command.as_deref()) else {
                self.lose(
                    src,
                    format!("{at}/{key}"),
                    &format!("`{key}` that are not a list of strings"),
                    "hookx cannot tell which command they make; the handler is not converted",
                );
                return None;
            };
            // The exec form runs the program with these arguments and no shell: one quoted
            // word each, taken literally (as `hookx run` runs the exec form).
            let mut line = shell_quote(program);
            for word in words {
                line.push(' ');
                line.push_str(&word);
            }
            command.to_mut().command = Some(line);
        }
        match get(keys.shell).map(|(k, v)| (k, v.as_str())) {
            None | Some((_, Some("bash" | "sh"))) => {}
            Some((_, Some("powershell" | "pwsh"))) => {
                // A PowerShell command line: it goes where the target keeps those.
                let command = command.to_mut();
                command.powershell = command.command.take();
            }
            Some((key, other)) => {
                self.lose(
                    src,
                    format!("{at}/{key}"),
                    &format!("`{key}: {}`", other.unwrap_or("?")),
                    "hookx knows no such shell; the handler is not converted",
                );
                return None;
            }
        }
        if let Some(failure) = &keys.on_failure {
            match extra.get(failure.key) {
                None => {}
                Some(value) if failure.goes_on(value) => {}
                Some(value) => self.lose(
                    src,
                    format!("{at}/{}", failure.key),
                    &format!(
                        "`{}: {}`",
                        failure.key,
                        crate::tables::config::written(value)
                    ),
                    &format!(
                        "{target} applies its own rule when a hook fails; a failing command no longer counts as a block"
                    ),
                ),
            }
        }
        for &key in keys.wake {
            if extra.get(key).is_some_and(|v| v != &Value::Bool(false)) {
                self.lose(
                    src,
                    format!("{at}/{key}"),
                    &format!("`{key}`"),
                    &format!(
                        "{target} cannot wake the agent when a background hook ends: the wake is dropped; the hook still runs in the background, its answer ignored"
                    ),
                );
            }
        }
        let condition = match get(keys.condition) {
            None => None,
            Some((_, Value::String(rule))) if self.options.wrap => Some(rule.clone()),
            Some((key, Value::String(rule))) => {
                self.lose(
                    src,
                    format!("{at}/{key}"),
                    &format!("the `{key}: {rule}` filter"),
                    &format!("{target} has no such filter, so the handler runs on every call its matcher accepts (without --no-wrap, `hookx exec --if` applies it)"),
                );
                None
            }
            Some((key, other)) => {
                self.lose(
                    src,
                    format!("{at}/{key}"),
                    &format!("`{key}: {other}`"),
                    &format!(
                        "an `{key}` filter is a permission rule string; the handler is not converted"
                    ),
                );
                return None;
            }
        };
        Some((command, condition))
    }
}

/// The handler's own cap on its follow-ups in a row, where its dialect has one and it gives a
/// whole number (Cursor's `loop_limit`): a wrapped entry passes it to `exec`.
fn follow_up_limit(handler: &Handler, from: Flavor) -> Option<u64> {
    let spec = from.dialect().config().run_keys.follow_ups.as_ref()?;
    handler.extra.get(spec.limit_key?)?.as_u64()
}
