//! Whether a process is one of this process's ancestors running this same program: what binds
//! hookx's recursion count to the hookx that set it ([`crate::dispatch::run::DEPTH_VAR`]), so
//! that a value copied into the environment from anywhere else counts for nothing; and the
//! command line of an ancestor (the agent that started hookx's hook).

/// How many parents up an ancestor is looked for: a hookx, its handler's shell, an agent the
/// handler started and that agent's own hook shell take a handful.
const MAX_GENERATIONS: usize = 64;

/// Whether `pid` is an ancestor of this process (its parent, its parent's parent, …) that runs
/// this same executable (Linux: the same file behind `/proc/PID/exe`). Elsewhere only the
/// direct parent is recognised: without `/proc` the chain cannot be followed, and a parent of
/// another program is never taken for hookx.
pub fn is_this_program_above(pid: u32) -> bool {
    let me = std::process::id();
    if pid <= 1 || pid == me {
        return false;
    }
    imp::is_ancestor(pid) && imp::runs_this_program(pid)
}

/// The command line of `pid` (its arguments, the program first) where it is an ancestor of
/// this process (any program): what an agent was started with, for its hooks to read (Claude
/// Code's `--setting-sources`). `None` where it is not an ancestor or cannot be read (only
/// Linux has `/proc`).
pub fn ancestor_args(pid: u32) -> Option<Vec<String>> {
    if pid <= 1 || pid == std::process::id() || !imp::is_ancestor(pid) {
        return None;
    }
    imp::args_of(pid)
}

/// The command line of the nearest of this process's ancestors whose program (its first
/// argument's file name) is `program`: the agent that started hookx's hook, where it names
/// itself in no variable (Codex). `None` where none is found (only Linux has `/proc`).
pub fn nearest_ancestor_running(program: &str) -> Option<Vec<String>> {
    imp::ancestors().filter_map(imp::args_of).find(|args| {
        args.first()
            .is_some_and(|first| std::path::Path::new(first).file_name() == Some(program.as_ref()))
    })
}

#[cfg(target_os = "linux")]
mod imp {
    use super::MAX_GENERATIONS;
    use std::os::unix::fs::MetadataExt;

    pub(super) fn is_ancestor(pid: u32) -> bool {
        ancestors().any(|p| p == pid)
    }

    /// This process's parent, its parent's parent, …, up to [`MAX_GENERATIONS`], init left out.
    pub(super) fn ancestors() -> impl Iterator<Item = u32> {
        let first = rustix::process::getppid().map_or(0, |p| p.as_raw_nonzero().get() as u32);
        std::iter::successors(Some(first), |pid| parent_of(*pid))
            .take_while(|pid| *pid > 1)
            .take(MAX_GENERATIONS)
    }

    /// The parent of `pid`: the fourth field of `/proc/PID/stat`, after the command name in
    /// parentheses (which may itself hold spaces and parentheses: the last `)` ends it).
    fn parent_of(pid: u32) -> Option<u32> {
        let stat = std::fs::read(format!("/proc/{pid}/stat")).ok()?;
        let close = stat.iter().rposition(|&b| b == b')')?;
        let rest = std::str::from_utf8(&stat[close + 1..]).ok()?;
        let mut fields = rest.split_ascii_whitespace();
        let _state = fields.next()?;
        fields.next()?.parse().ok()
    }

    pub(super) fn args_of(pid: u32) -> Option<Vec<String>> {
        let line = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
        let args = line.split(|&b| b == 0).filter(|a| !a.is_empty());
        Some(
            args.map(|a| String::from_utf8_lossy(a).into_owned())
                .collect(),
        )
    }

    pub(super) fn runs_this_program(pid: u32) -> bool {
        let of = |path: &str| std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()));
        match (of("/proc/self/exe"), of(&format!("/proc/{pid}/exe"))) {
            (Some(me), Some(it)) => me == it,
            _ => false,
        }
    }
}

#[cfg(all(unix, not(target_os = "linux")))]
mod imp {
    pub(super) fn is_ancestor(pid: u32) -> bool {
        rustix::process::getppid().is_some_and(|p| p.as_raw_nonzero().get() as u32 == pid)
    }

    pub(super) fn runs_this_program(_pid: u32) -> bool {
        true
    }

    pub(super) fn args_of(_pid: u32) -> Option<Vec<String>> {
        None
    }

    pub(super) fn ancestors() -> impl Iterator<Item = u32> {
        std::iter::empty()
    }
}

#[cfg(not(unix))]
mod imp {
    pub(super) fn is_ancestor(_pid: u32) -> bool {
        false
    }

    pub(super) fn runs_this_program(_pid: u32) -> bool {
        false
    }

    pub(super) fn args_of(_pid: u32) -> Option<Vec<String>> {
        None
    }

    pub(super) fn ancestors() -> impl Iterator<Item = u32> {
        std::iter::empty()
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn neither_itself_nor_init_nor_a_parent_of_another_program() {
        assert!(!is_this_program_above(std::process::id()));
        assert!(!is_this_program_above(1));
        assert!(!is_this_program_above(0));
        // The test harness's parent (cargo, a shell) runs another program.
        let parent = rustix::process::getppid().unwrap().as_raw_nonzero().get() as u32;
        assert!(imp::is_ancestor(parent));
        assert!(!is_this_program_above(parent));
    }
}
