//! A command handler's command line for the target: the one POSIX line it keeps (every other
//! a loss), `cwd` and `env` as the target carries them or prefixed to the line, routed
//! through `hookx exec` or left to the target's protocol, and the target's command fields.

use super::converter::{Converter, field_pointer};
use super::wrap::Wrap;
use crate::config::walk::HandlerAt;
use crate::model::{Command, EventKind};
use crate::shell::shell_quote;
use crate::source::SourceFile;
use crate::tables::{Dialect, Flavor, HandlerField};
use std::borrow::Cow;

/// Whether the handler's folder goes into its line as `cd DIR || exit 1;` rather than into the
/// target's `cwd` key: where the target has no key, and where the line runs through `hookx
/// exec` and the folder is absolute, of the machine it was written on. There, on a machine
/// without it, `exec` reads the failed `cd` by the source's rules (a handler that could not
/// start: a non-blocking error), where Copilot CLI 1.0.102 fails a hook whose own `cwd` is not
/// there and denies every call it sees (a Windsurf `working_directory` of `/Users/…`: attacks
/// row 1887).
fn cwd_in_line(command: &Command, target: Dialect, wrapped: bool) -> bool {
    let Some(cwd) = &command.cwd else {
        return false;
    };
    target.config().key(HandlerField::Cwd).is_none()
        || (wrapped && std::path::Path::new(cwd).is_absolute())
}

impl Converter<'_> {
    /// `command` converted from `from` to `to`: none when it has no POSIX line (a loss says
    /// so); `wrap`: how it runs through `hookx exec`, when it does.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn command(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        command: &Command,
        event: &EventKind,
        from: Flavor,
        to: Flavor,
        wrap: Option<Wrap>,
    ) -> Option<Command> {
        let target = to.dialect();
        let unix = command
            .bash
            .as_ref()
            .or(command.linux.as_ref())
            .or(command.command.as_ref())
            .or(command.osx.as_ref());
        let windows = command.powershell.as_ref().or(command.windows.as_ref());
        let Some(unix) = unix else {
            // No command at all: reading reported it.
            windows?;
            self.lose(src, at, "PowerShell-only command handler", &format!(
                "{target} runs hooks with a POSIX shell and this handler has no bash command; it is not converted"
            ));
            return None;
        };
        let rewritten = self.rewrite_env(src, at, unix, from, to);
        // Wrapped, the handler runs through `hookx exec --as <its flavour>`, which gives it
        // its own dialect's variables: the command line stays exactly as written.
        let line: Cow<str> = if self.options.wrap {
            Cow::Borrowed(unix)
        } else {
            rewritten
        };
        self.lose_other_lines(src, at, command, unix, from, target);
        let cwd_in_line = cwd_in_line(command, target, wrap.is_some());
        let line = self.with_cwd_env(src, at, command, line, target, cwd_in_line);
        let before = self.wrapped;
        let line = if let Some(wrap) = wrap {
            self.wrap_line(src, at, line, event, from, to, wrap)
        } else {
            self.lose(
                src,
                at,
                &format!("a command written for {}'s hook protocol", from.dialect()),
                &format!(
                    "under {target} it receives {target}'s stdin payload (other field and tool names) and its answer is read by {target}'s rules, so it may misread its input and let through what it meant to stop (convert without --no-wrap to run it through `hookx exec`)"
                ),
            );
            line
        };
        // Wrapped, `exec --async` runs it in the background ([`Wrap::background`]).
        let backgrounded = self.wrapped > before;
        let mut out = self.command_fields(src, at, command, line, from, target, backgrounded);
        if cwd_in_line {
            out.cwd = None;
        }
        Some(out)
    }

    /// Every other POSIX command line than `unix`, the one kept, is lost.
    fn lose_other_lines(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        command: &Command,
        unix: &str,
        from: Flavor,
        target: Dialect,
    ) {
        let name = |field| field_name(from, field);
        let mut lines = [
            (HandlerField::Bash, &command.bash),
            (HandlerField::Linux, &command.linux),
            (HandlerField::Command, &command.command),
            (HandlerField::Osx, &command.osx),
        ]
        .into_iter()
        .filter_map(|(field, line)| line.as_ref().map(|line| (field, line)));
        if let Some((kept, _)) = lines.next() {
            for (field, line) in lines {
                if line != unix {
                    self.lose(
                        src,
                        field_pointer(at, from, field),
                        &format!("the {}", name(field)),
                        &format!(
                            "{target} has one command for every OS; the {} is kept",
                            name(kept)
                        ),
                    );
                }
            }
        }
    }

    /// `cwd` where [`cwd_in_line`] says, and `env` where the target has no key for it: `cd` and
    /// `export` before the line. A folder that is not there (another machine's absolute path, a real Windsurf
    /// file's `/Users/…`) is a handler that could not start, as `hookx run` reads it: exit 1,
    /// which no agent reads as a block. `cd DIR && …` exited 2 under dash, a block of every
    /// tool call and prompt the rule saw (attacks row 1760).
    fn with_cwd_env<'l>(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        command: &Command,
        mut line: Cow<'l, str>,
        target: Dialect,
        cwd_in_line: bool,
    ) -> Cow<'l, str> {
        let spec = target.config();
        if let Some(cwd) = &command.cwd
            && cwd_in_line
        {
            line = format!("cd {} || exit 1; {line}", shell_quote(cwd)).into();
        }
        if let Some(env) = &command.env
            && spec.key(HandlerField::Env).is_none()
        {
            let mut exports = Vec::new();
            for (k, v) in env {
                let is_name = k.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                    && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !is_name {
                    // `export A B=…` or `export X;rm …=…` would do something else entirely.
                    self.lose(
                        src,
                        format!("{at}/env/{}", crate::positions::escape(k)),
                        &format!("environment variable `{k}`"),
                        "it is not a shell variable name, so it cannot be exported in the command; it is dropped",
                    );
                    continue;
                }
                exports.push(format!(
                    "export {k}={};",
                    shell_quote(v.as_str().unwrap_or_default())
                ));
            }
            if !exports.is_empty() {
                line = format!("{} {line}", exports.join(" ")).into();
            }
        }
        line
    }

    /// The target's command: `line` under the key the target reads, with the Windows line,
    /// `cwd`, `env` and `async` where it has keys for them (else each other line is a loss;
    /// `async: true` is none where `backgrounded`: the wrapped line runs it so).
    #[allow(clippy::too_many_arguments)]
    fn command_fields(
        &mut self,
        src: &SourceFile,
        at: &HandlerAt,
        command: &Command,
        line: Cow<str>,
        from: Flavor,
        target: Dialect,
        backgrounded: bool,
    ) -> Command {
        let spec = target.config();
        let name = |field| field_name(from, field);
        let windows = command.powershell.as_ref().or(command.windows.as_ref());
        let mut out = Command::default();
        // Where the target has keys for them, `cwd` and `env` stay (else they were prefixed).
        if spec.key(HandlerField::Cwd).is_some() {
            out.cwd = command.cwd.clone();
        }
        if spec.key(HandlerField::Env).is_some() {
            out.env = command.env.clone();
        }
        // A target with its own bash key (Copilot) carries every form; one with a Windows key
        // (VS Code) keeps the Windows line beside the one POSIX line; the others get one line.
        match target.config().key(HandlerField::Bash) {
            Some(_) => {
                out.bash = Some(line.into_owned());
                out.powershell = windows.cloned();
            }
            None if spec.key(HandlerField::Windows).is_some() => {
                out.command = Some(line.into_owned());
                out.windows = windows.cloned();
                if let (Some(ps), Some(win)) = (&command.powershell, &command.windows)
                    && ps != win
                {
                    self.lose(
                        src,
                        field_pointer(at, from, HandlerField::Windows),
                        &format!("the {}", name(HandlerField::Windows)),
                        &format!(
                            "{target} has one Windows command; the {} is kept",
                            name(HandlerField::PowerShell)
                        ),
                    );
                }
            }
            _ => {
                let kept = [
                    (HandlerField::Bash, &command.bash),
                    (HandlerField::Linux, &command.linux),
                    (HandlerField::Command, &command.command),
                ]
                .into_iter()
                .find_map(|(field, line)| line.as_ref().map(|_| field))
                .unwrap_or(HandlerField::Osx);
                for (field, line) in [
                    (HandlerField::PowerShell, &command.powershell),
                    (HandlerField::Windows, &command.windows),
                ] {
                    if line.is_some() {
                        self.lose(
                            src,
                            field_pointer(at, from, field),
                            &format!("the {}", name(field)),
                            &format!(
                                "{target} has one shell command for every OS; the {} is kept",
                                name(kept)
                            ),
                        );
                    }
                }
                out.command = Some(line.into_owned());
            }
        }
        if command.is_async == Some(true) && spec.key(HandlerField::Async).is_none() {
            if backgrounded {
                return out;
            }
            self.lose(
                src,
                field_pointer(at, from, HandlerField::Async),
                "`async: true`",
                &format!(
                    "{target} cannot run a hook in the background; it runs synchronously and its answer counts (without --no-wrap, `hookx exec --async` runs it in the background)"
                ),
            );
        } else if command.is_async == Some(false) && spec.key(HandlerField::Async).is_none() {
            // Said, though nothing changes, so that the key's going is no silent loss on the
            // way back (attacks row 1183: a real plugin's `"async": false`).
            self.lose(
                src,
                field_pointer(at, from, HandlerField::Async),
                "`async: false`",
                &format!("{target} has no such key; it runs every hook synchronously, as asked"),
            );
        } else if spec.key(HandlerField::Async).is_some() {
            out.is_async = command.is_async;
        }
        out
    }
}

/// A command field as the source names it: its description and key.
fn field_name(from: Flavor, field: HandlerField) -> String {
    let key = from.dialect().config().key(field).unwrap_or_default();
    format!("{} (`{key}`)", field.describe())
}
