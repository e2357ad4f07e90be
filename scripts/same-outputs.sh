#!/usr/bin/env bash
# Usage: scripts/same-outputs.sh BIN OUTDIR
#
# Runs the hookx executable BIN over every fixture of tests/fixtures (and examples/) and writes
# one file per (command, input) to OUTDIR: the command line, its exit code, stdout and stderr,
# and for commands that run handlers, what each handler received (stdin, environment) and, for
# commands that write files, the files written. Two builds behave the same on these inputs iff
#
#   scripts/same-outputs.sh OLD /tmp/same-out && mv /tmp/same-out /tmp/out-old
#   scripts/same-outputs.sh NEW /tmp/same-out && mv /tmp/same-out /tmp/out-new
#   diff -r /tmp/out-old /tmp/out-new
#
# is empty. Outputs hold absolute paths of the scratch folder (projects, homes, the copied
# binary), whose path is made from OUTDIR's: both runs must use the same OUTDIR path (hence the
# `mv`); the script refuses an OUTDIR that exists and is not empty. BIN is copied into the
# scratch folder and run from there (first on PATH too), so its own path never shows. Every
# command runs in a clean environment (only HOME, PATH, LANG, LC_ALL, TZ, TMPDIR and
# HOOKX_MANAGED_ROOT, an empty folder, so the machine's /etc policies are not read by the
# commands that read it, which `run` and `exec` no longer do; HOOKX_HOME unset unless a case
# sets it), a fixed cwd, stdin from a fixture or empty, its own session, and
# a 30 s timeout (exit 124 in the output means it hung; its process group is killed).
#
# The lists of dialects, flavours, subcommands and shells are read from BIN's own --help. The
# recording handlers' event names (the table below) are fixed inputs, the same for every BIN.
#
# Normalised, and only this: timestamps hookx takes from the clock while the script runs
# (ISO 8601 or epoch milliseconds/seconds inside the run's time window, e.g. the `timestamp`
# hookx adds to a payload, `trusted_at` in trust.json) become <NOW>/<NOW_MS>/<NOW_S>, and
# `simulate`'s handler durations (`after 9.3 ms`, `"millis": 9.3`) become <MS>. hookx's
# warned/cache records (inode and ctime keyed) are never copied into the output.
#
# Scratch (worlds, handler records, the binary) lives in /dev/shm/hookx-same-outputs-<hash of the
# OUTDIR path> (OUTDIR/_work without a writable /dev/shm, or with SAME_OUTPUTS_SCRATCH=outdir) and
# is deleted at the end; SAME_OUTPUTS_KEEP=1 keeps it.
# SAME_OUTPUTS_JOBS sets the parallelism (default: the number of CPUs).
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 BIN OUTDIR" >&2
  exit 2
fi
repo=$(cd "$(dirname "$0")/.." && pwd -P)
py=$(command -v python3 || true)
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
if [ -z "$py" ]; then
  echo "same-outputs.sh: needs python3" >&2
  exit 1
fi
exec "$py" - "$repo" "$1" "$2" <<'PY'
import atexit
import concurrent.futures as cf
import datetime as dt
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import time

REPO, BIN_ARG, OUT_ARG = sys.argv[1:4]
FIX = os.path.join(REPO, "tests", "fixtures")
EXAMPLES = os.path.join(REPO, "examples")
JOBS = int(os.environ.get("SAME_OUTPUTS_JOBS") or os.cpu_count() or 2)
KEEP = os.environ.get("SAME_OUTPUTS_KEEP") == "1"
TIMEOUT = 30

if not (os.path.isfile(BIN_ARG) and os.access(BIN_ARG, os.X_OK)):
    sys.exit(f"same-outputs.sh: {BIN_ARG}: not an executable file")
if os.path.exists(OUT_ARG) and (not os.path.isdir(OUT_ARG) or os.listdir(OUT_ARG)):
    sys.exit(f"same-outputs.sh: {OUT_ARG} exists and is not an empty folder")
os.makedirs(OUT_ARG, exist_ok=True)
OUT = os.path.realpath(OUT_ARG)
# Scratch: worlds, handler records, the binary. On a tmpfs when there is one (tens of thousands
# of small files; deleting them on a disk mounted with `discard` took minutes), at a path that
# depends only on OUTDIR's, so that two runs into the same OUTDIR see the same paths.
if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) and os.environ.get("SAME_OUTPUTS_SCRATCH") != "outdir":
    WORK = "/dev/shm/hookx-same-outputs-" + hashlib.sha256(OUT.encode()).hexdigest()[:16]
else:
    WORK = os.path.join(OUT, "_work")
if os.path.lexists(WORK):
    shutil.rmtree(WORK)  # left by an interrupted run into the same OUTDIR
BIN_DIR = os.path.join(WORK, "bin")
HOOKX = os.path.join(BIN_DIR, "hookx")
IN = os.path.join(WORK, "in")          # cwd of the file commands; inputs are named relative to it
MANAGED = os.path.join(WORK, "managed")  # HOOKX_MANAGED_ROOT: empty, the machine's /etc unread
REC_SH = os.path.join(WORK, "rec.sh")
T_START = time.time()
VERBOSE = os.environ.get("SAME_OUTPUTS_VERBOSE") == "1"
def phase(what):
    if VERBOSE:
        print(f"same-outputs.sh: {time.time() - T_START:6.1f} s {what}", file=sys.stderr, flush=True)

os.makedirs(BIN_DIR)
atexit.register(lambda: KEEP or shutil.rmtree(WORK, ignore_errors=True))
shutil.copyfile(BIN_ARG, HOOKX)
os.chmod(HOOKX, 0o755)
shutil.copytree(FIX, os.path.join(IN, "fixtures"), symlinks=True)
shutil.copytree(EXAMPLES, os.path.join(IN, "examples"), symlinks=True)
os.makedirs(MANAGED)

BASE_ENV = {
    "PATH": f"{BIN_DIR}:/usr/local/bin:/usr/bin:/bin",
    "HOME": os.path.join(WORK, "home"),
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
    "TMPDIR": os.path.join(WORK, "tmp"),
    "HOOKX_MANAGED_ROOT": MANAGED,
}
for d in (BASE_ENV["HOME"], BASE_ENV["TMPDIR"]):
    os.makedirs(d)

# ---------------------------------------------------------------------------------------------
# Running one command.

def rel(p):
    return os.path.relpath(p, OUT) if p.startswith(OUT + "/") or p == OUT else p

def run(args, cwd=IN, stdin=None, env=None, stdin_bytes=None):
    e = dict(BASE_ENV)
    e.update(env or {})
    if stdin_bytes is None:
        if stdin:
            with open(stdin, "rb") as f:
                stdin_bytes = f.read()
        else:
            stdin_bytes = b""
    p = subprocess.Popen([HOOKX, *args], cwd=cwd, env=e, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        so, se = p.communicate(stdin_bytes, timeout=TIMEOUT)
        code = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)  # hookx and the handlers it started
        except ProcessLookupError:
            pass
        so, se = p.communicate()
        code = 124
    return code, so, se

# Clock readings hookx takes while the script runs (a payload's `timestamp` it adds, trust.json's
# `trusted_at`, simulate's synthetic event): only values inside [start - 5 s, now + 5 s].
ISO = re.compile(rb"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})")
EPOCH = re.compile(rb"(?<![0-9A-Za-z.])1\d{9}(?:\d{3})?(?![0-9A-Za-z])")

def normalise(data):
    lo, hi = T_START - 5, time.time() + 5
    def iso_now(m):
        s = m.group(0).decode()
        try:
            t = dt.datetime.fromisoformat(re.sub(r"(\.\d{6})\d+", r"\1", s.replace("Z", "+00:00"))).timestamp()
        except ValueError:
            return m.group(0)
        return b"<NOW>" if lo <= t <= hi else m.group(0)
    def epoch_now(m):
        v = int(m.group(0))
        if len(m.group(0)) == 13:
            return b"<NOW_MS>" if lo * 1000 <= v <= hi * 1000 else m.group(0)
        return b"<NOW_S>" if lo <= v <= hi else m.group(0)
    return EPOCH.sub(epoch_now, ISO.sub(iso_now, data))

def record(case, args, cwd=IN, stdin=None, env=None, stdin_bytes=None, extra=None, post=None):
    """Runs hookx ARGS and writes CASE (a path below OUTDIR). `extra(code)` returns more
    (title, bytes) sections to append, after the run."""
    code, so, se = run(args, cwd, stdin, env, stdin_bytes)
    head = "$ hookx " + " ".join(shlex.quote(a) for a in args) + "\n"
    head += f"cwd: {rel(cwd)}\n"
    if env:
        head += "env: " + " ".join(f"{k}={shlex.quote(v)}" for k, v in sorted(env.items())) + "\n"
    if stdin:
        head += f"stdin: {rel(stdin)}\n"
    elif stdin_bytes:
        head += f"stdin: ({len(stdin_bytes)} bytes, sha256 {hashlib.sha256(stdin_bytes).hexdigest()})\n"
    head += f"exit: {code}\n"
    sections = [("stdout", so), ("stderr", se)] + (list(extra()) if extra else [])
    parts = [head.encode()]
    for title, data in sections:
        data = normalise(data)
        if post:
            data = post(data)
        parts.append(section(title, data))
    body = b"".join(parts)
    path = os.path.join(OUT, case)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(body)
    return code

def section(title, data):
    nl = b"" if data.endswith(b"\n") or not data else b"\n"
    return f"--- {title} ({len(data)} bytes)\n".encode() + data + nl

def snapshot(root, skip=()):
    """Every file below ROOT, sorted: path, mode, and bytes (symlinks as their target)."""
    out = []
    if not os.path.isdir(root):
        return [(f"tree {rel(root)}", b"(absent)\n")]
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]):
            p = os.path.join(dirpath, name)
            r = os.path.relpath(p, root)
            if any(r == s or r.startswith(s + "/") for s in skip):
                continue
            st = os.lstat(p)
            if stat.S_ISLNK(st.st_mode):
                out.append((f"file {r} -> {os.readlink(p)}", b""))
                continue
            with open(p, "rb") as f:
                out.append((f"file {r} mode {stat.S_IMODE(st.st_mode):o}", f.read()))
    return out or [(f"tree {rel(root)}", b"(empty)\n")]

HOOKX_STATE = (".hookx/cache", ".hookx/warned.json", ".hookx/warned.sum", ".hookx/.hookx.lock")

def parallel(jobs):
    """Runs (fn, args) pairs; the outputs are files, so order does not matter."""
    with cf.ThreadPoolExecutor(JOBS) as ex:
        for f in [ex.submit(fn, *a) for fn, a in jobs]:
            f.result()

# ---------------------------------------------------------------------------------------------
# What BIN offers, from its own help.

def help_of(*args):
    return run([*args, "--help"])[1].decode()

def possible(text, flag):
    m = re.search(re.escape(flag) + r" <[A-Z_]+>[^\[]*?\[(?:default: [^\]]*\] \[)?possible values: ([^\]]*)\]", text)
    if not m:
        sys.exit(f"same-outputs.sh: no possible values of {flag} in BIN's help")
    return [v.strip() for v in m.group(1).split(",")]

TOP_HELP = help_of()
m = re.search(r"\nCommands:\n(.*?)\n\n", TOP_HELP, re.S)
SUBCOMMANDS = [l.split()[0] for l in m.group(1).splitlines() if l.startswith("  ") and l.split()] if m else []
DIALECTS = possible(help_of("convert"), "--to")
FLAVORS = possible(help_of("exec"), "--as")
SHELLS = re.findall(r"\[possible values: ([^\]]*)\]", help_of("completions"))
SHELLS = [s.strip() for s in SHELLS[0].split(",")] if SHELLS else []
if not (SUBCOMMANDS and DIALECTS and FLAVORS and SHELLS):
    sys.exit("same-outputs.sh: could not read the subcommands, dialects, flavours or shells from BIN --help")

def dialect_of(flavor):
    """`copilot-pascal` -> `copilot`: the longest dialect name the flavour name starts with."""
    cands = [d for d in DIALECTS if flavor == d or flavor.startswith(d + "-")]
    return max(cands, key=len) if cands else None

with open(os.path.join(OUT, "lists.txt"), "w") as f:
    f.write(f"subcommands: {' '.join(SUBCOMMANDS)}\ndialects: {' '.join(DIALECTS)}\n"
            f"flavours: {' '.join(FLAVORS)}\nshells: {' '.join(SHELLS)}\n")

# The inputs, by content, so that a changed fixture set shows as such.
with open(os.path.join(OUT, "inputs.sha256"), "w") as f:
    for dirpath, dirnames, filenames in os.walk(IN):
        dirnames.sort()
        for name in sorted(filenames):
            p = os.path.join(dirpath, name)
            if os.path.islink(p):
                f.write(f"symlink  {os.path.relpath(p, IN)} -> {os.readlink(p)}\n")
                continue
            with open(p, "rb") as g:
                f.write(f"{hashlib.sha256(g.read()).hexdigest()}  {os.path.relpath(p, IN)}\n")

# ---------------------------------------------------------------------------------------------
# 1. meta: --version, help, completions, man, schema.
phase("meta")

jobs = []
for args, name in [(["--version"], "version"), (["-V"], "V"), (["--help"], "help"), (["-h"], "h"),
                   ([], "no-args"), (["nosuchcommand"], "unknown-command"), (["help"], "help-cmd")]:
    jobs.append((record, (f"meta/{name}.txt", args)))
for sub in SUBCOMMANDS:
    jobs.append((record, (f"meta/help/{sub}.--help.txt", [sub, "--help"])))
    jobs.append((record, (f"meta/help/{sub}.-h.txt", [sub, "-h"])))
    jobs.append((record, (f"meta/help/help.{sub}.txt", ["help", sub])))
for sh in SHELLS:
    jobs.append((record, (f"meta/completions/{sh}.txt", ["completions", sh])))
jobs.append((record, ("meta/completions/nosuchshell.txt", ["completions", "nosuchshell"])))
jobs.append((record, ("meta/man.txt", ["man"])))
for d in DIALECTS:
    jobs.append((record, (f"schema/{d}.txt", ["schema", d])))
jobs.append((record, ("schema/nosuchdialect.txt", ["schema", "nosuchdialect"])))
jobs.append((record, ("schema/none.txt", ["schema"])))
parallel(jobs)

# ---------------------------------------------------------------------------------------------
# 2. convert and validate over every hook-config fixture.
phase("convert/validate")

CONFIG_SKIP_DIRS = {"recorded", "documented", "payloads", "e2e", "corpus"}

def config_inputs():
    found = []
    base = os.path.join(IN, "fixtures")
    for top in sorted(os.listdir(base)):
        p = os.path.join(base, top)
        if not os.path.isdir(p) or top in CONFIG_SKIP_DIRS:
            continue
        for dirpath, dirnames, filenames in os.walk(p):
            dirnames.sort()
            for name in sorted(filenames):
                r = os.path.relpath(os.path.join(dirpath, name), IN)
                if name == "README.md" and top != "projects":
                    continue
                if r.startswith(("fixtures/regressions/trust_mix/", "fixtures/regressions/decode_event/")):
                    continue
                found.append(r)
    for dirpath, dirnames, filenames in os.walk(os.path.join(IN, "examples")):
        dirnames.sort()
        found += [os.path.relpath(os.path.join(dirpath, n), IN) for n in sorted(filenames)]
    return found

CONFIGS = config_inputs()
ALL_TO = ",".join(DIALECTS)

def convert_write(r):
    """--write of every target into a fresh project, and --dry-run against a lived-in one."""
    proj = os.path.join(WORK, "convert-write", r)
    os.makedirs(proj)
    record(f"convert/{r}/write-all.txt", ["convert", r, "--to", ALL_TO, "--write", "--project", proj],
           extra=lambda: snapshot(proj))
    lived = os.path.join(WORK, "convert-dry", r)
    shutil.copytree(os.path.join(IN, "fixtures/projects/full/project"), lived, symlinks=True)
    before = snapshot(lived)
    record(f"convert/{r}/dry-run-all.txt",
           ["convert", r, "--to", ALL_TO, "--write", "--dry-run", "--project", lived],
           extra=lambda: [("project after", b"unchanged\n")] if snapshot(lived) == before else snapshot(lived))
    out = os.path.join(WORK, "convert-out", r, "out.json")
    os.makedirs(os.path.dirname(out))
    record(f"convert/{r}/out-claude.txt", ["convert", r, "--to", "claude", "--out", out],
           extra=lambda: snapshot(os.path.dirname(out)))

jobs = []
for r in CONFIGS:
    for t in DIALECTS:
        jobs.append((record, (f"convert/{r}/to-{t}.txt", ["convert", r, "--to", t])))
        jobs.append((record, (f"convert/{r}/to-{t}.json.txt", ["convert", r, "--to", t, "--format", "json"])))
        jobs.append((record, (f"convert/{r}/to-{t}.no-wrap-strict.txt",
                              ["convert", r, "--to", t, "--no-wrap", "--strict", "--hookx", "/opt/hookx"])))
    jobs.append((record, (f"convert/{r}/stdin-to-copilot.txt", ["convert", "-", "--to", "copilot"], IN, os.path.join(IN, r))))
    jobs.append((convert_write, (r,)))
    jobs.append((record, (f"validate/{r}/text.txt", ["validate", r])))
    jobs.append((record, (f"validate/{r}/json.txt", ["validate", r, "--format", "json"])))
    jobs.append((record, (f"validate/{r}/deny-warnings.txt", ["validate", r, "--deny-warnings"])))
    for d in DIALECTS:
        jobs.append((record, (f"validate/{r}/from-{d}.txt", ["validate", r, "--from", d])))
# A few multi-file and error cases.
jobs.append((record, ("convert/_multi/claude-all.txt", ["convert", *[c for c in CONFIGS if c.startswith("fixtures/claude/")], "--to", "copilot"])))
jobs.append((record, ("convert/_multi/missing-file.txt", ["convert", "fixtures/nosuchfile.json", "--to", "copilot"])))
jobs.append((record, ("convert/_multi/bad-target.txt", ["convert", "examples/claude/settings.json", "--to", "nosuch"])))
jobs.append((record, ("validate/_multi/all.txt", ["validate", *CONFIGS])))
parallel(jobs)

# ---------------------------------------------------------------------------------------------
# 3. Worlds: projects with homes, for list, doctor, validate, trust, install, run, simulate.
phase("worlds")

# Every flavour's event names: the recording world registers one handler per (flavour, event).
# A fixed input (hookx's tables at e0eff31), the same for every BIN.
EVENTS = {
    "claude": "SessionStart SessionEnd UserPromptSubmit PreToolUse PermissionRequest PostToolUse PostToolUseFailure Notification SubagentStart SubagentStop Stop PreCompact PostCompact PostToolBatch UserPromptExpansion StopFailure PreModelSwitch PostModelSwitch PermissionDenied Setup TeammateIdle TaskCreated TaskCompleted Elicitation ElicitationResult ConfigChange WorktreeCreate WorktreeRemove InstructionsLoaded CwdChanged FileChanged DirectoryAdded MessageDisplay PreSkillShellCommand",
    "copilot": "sessionStart sessionEnd userPromptSubmitted preToolUse permissionRequest postToolUse postToolUseFailure notification subagentStart subagentStop agentStop preCompact errorOccurred userPromptTransformed preMcpToolCall",
    "copilot-pascal": "SessionStart SessionEnd UserPromptSubmit PreToolUse PermissionRequest PostToolUse PostToolUseFailure Notification SubagentStart SubagentStop Stop PreCompact ErrorOccurred",
    "bricks": "SessionStart UserPromptSubmit PreToolUse PostToolUse Stop SubagentStart SubagentStop PreCompact PostCompact GoalUpdate",
    "gemini": "SessionStart SessionEnd BeforeAgent AfterAgent BeforeTool AfterTool PreCompress Notification BeforeModel AfterModel BeforeToolSelection",
    "qwen": "SessionStart SessionEnd UserPromptSubmit UserPromptExpansion PreToolUse PermissionRequest PermissionDenied PostToolUse PostToolUseFailure PostToolBatch Notification SubagentStart SubagentStop Stop StopFailure PreCompact PostCompact MessageDisplay InstructionsLoaded",
    "cursor": "sessionStart sessionEnd beforeSubmitPrompt preToolUse postToolUse postToolUseFailure subagentStart subagentStop stop preCompact afterAgentResponse afterAgentThought",
    "cursor-shell": "beforeShellExecution afterShellExecution",
    "cursor-mcp": "beforeMCPExecution afterMCPExecution",
    "cursor-read": "beforeReadFile",
    "cursor-edit": "afterFileEdit",
    "cursor-claude": "SessionStart SessionEnd UserPromptSubmit PreToolUse PostToolUse PostToolUseFailure SubagentStart SubagentStop Stop PreCompact",
    "vscode": "SessionStart UserPromptSubmit PreToolUse PostToolUse PreCompact SubagentStart SubagentStop Stop",
    "codex": "SessionStart SessionEnd UserPromptSubmit PreModelRequest PostModelRequest PreToolUse PermissionRequest PostToolUse PreCompact PostCompact SubagentStart SubagentStop Stop Interrupt",
    "windsurf": "pre_user_prompt post_cascade_response",
    "windsurf-command": "pre_run_command post_run_command",
    "windsurf-write": "pre_write_code post_write_code",
    "windsurf-read": "pre_read_code post_read_code",
    "windsurf-mcp": "pre_mcp_tool_use post_mcp_tool_use",
    "droid": "SessionStart SessionEnd UserPromptSubmit PreToolUse PostToolUse Notification SubagentStop Stop PreCompact",
    "cline": "TaskStart TaskComplete TaskCancel TaskError PreToolUse PostToolUse UserPromptSubmit PreCompact SessionShutdown",
    "augment": "SessionStart SessionEnd PromptSubmit PreToolUse PostToolUse Notification Stop",
    "kiro": "SessionStart UserPromptSubmit PreToolUse PostToolUse Stop",
}
EVENTS = {k: v.split() for k, v in EVENTS.items()}

# The recording handler: stores its stdin and environment under $REC_OUT and answers as
# $REC_ANSWER says (one generic answer per kind; hookx reads it in the handler's dialect).
with open(REC_SH, "w") as f:
    f.write(r'''#!/bin/sh
# rec.sh LABEL EVENT: what this handler was given, then an answer.
dir=${REC_OUT:?}
base="$dir/$1.$2"
n=0
while [ -e "$base.$n" ]; do n=$((n+1)); done
{ printf 'args: %s\n--- stdin\n' "$*"; cat; printf '\n--- env (sorted)\n'; env; } > "$base.$n"
case ${REC_ANSWER:-silent} in
  silent) ;;
  deny) printf '%s' '{"decision":"block","reason":"rec says no","permissionDecision":"deny","permissionDecisionReason":"rec says no","cancel":true,"errorMessage":"rec says no"}' ;;
  hso) printf '{"hookSpecificOutput":{"hookEventName":"%s","permissionDecision":"ask","permissionDecisionReason":"rec asks","additionalContext":"rec context"},"systemMessage":"rec system"}' "$2" ;;
  stop) printf '%s' '{"continue":false,"stopReason":"rec stops","suppressOutput":true}' ;;
  plain) printf 'rec plain text for %s\n' "$2" ;;
  exit2) printf 'rec exit2 on %s\n' "$2" >&2; exit 2 ;;
  exit1) printf 'rec exit1\n' >&2; exit 1 ;;
  garbage) printf '{"decision": ' ;;
esac
exit 0
''')
os.chmod(REC_SH, 0o755)

def rec_cmd(label, event):
    return f"sh {REC_SH} {label} {event}"

def write(root, relpath, text, mode=None):
    p = os.path.join(root, relpath)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)
    if mode:
        os.chmod(p, mode)

def grouped(fl):
    return {e: [{"hooks": [{"type": "command", "command": rec_cmd(fl, e)}]}] for e in EVENTS[fl]}

def flat(*fls, key="command"):
    out = {}
    for fl in fls:
        for e in EVENTS[fl]:
            out[e] = [{"type": "command", key: rec_cmd(fl, e)}]
    return out

def make_rec_world(root):
    """tests/replay.rs's world (every flavour's recording handlers in its own files, project and
    user), plus Windsurf's file."""
    project, home = os.path.join(root, "project"), os.path.join(root, "home")
    os.makedirs(project)
    os.makedirs(home)
    J = lambda v: json.dumps(v, indent=2)
    write(project, ".github/hooks/replay.json", J({"version": 1, "hooks": flat("copilot", "copilot-pascal", key="bash")}))
    write(project, ".bricks/hooks.json", J({"hooks": grouped("bricks")}))
    write(project, ".gemini/settings.json", J({"hooks": grouped("gemini")}))
    write(home, ".claude/settings.json", J({"hooks": grouped("claude")}))
    write(home, ".qwen/settings.json", J({"hooks": grouped("qwen")}))
    cursor = [f for f in EVENTS if f == "cursor" or f.startswith("cursor-")]
    write(project, ".cursor/hooks.json", J({"version": 1, "hooks": flat(*cursor)}))
    write(home, ".codex/hooks.json", J({"hooks": grouped("codex")}))
    write(project, ".factory/settings.json", J({"hooks": grouped("droid")}))
    write(project, ".augment/settings.json", J({"hooks": grouped("augment")}))
    for e in EVENTS["cline"]:
        write(home, f".cline/hooks/{e}", f"#!/bin/sh\nexec {rec_cmd('cline', e)}\n", 0o755)
    write(project, ".kiro/hooks/replay.json", J({"version": "v1", "hooks": [
        {"name": e, "trigger": e, "action": {"type": "command", "command": rec_cmd("kiro", e)}}
        for e in EVENTS["kiro"]]}))
    windsurf = [f for f in EVENTS if f == "windsurf" or f.startswith("windsurf-")]
    write(project, ".windsurf/hooks.json", J({"hooks": flat(*windsurf)}))
    return project, home

def copy_world(src_project, src_home, root):
    project, home = os.path.join(root, "project"), os.path.join(root, "home")
    shutil.copytree(src_project, project, symlinks=True)
    if src_home:
        shutil.copytree(src_home, home, symlinks=True)
    else:
        os.makedirs(home)
    return project, home

W = os.path.join(WORK, "worlds")
def world(name):
    """A fresh copy of the world NAME under ROOT: (project, home)."""
    def make(root):
        if name == "examples":
            return copy_world(os.path.join(IN, "examples"), None, root)
        if name == "e2e":
            return copy_world(os.path.join(IN, "fixtures/e2e"), None, root)
        if name == "empty":
            return copy_world(os.path.join(IN, "fixtures/projects/empty/project"), None, root)
        if name == "full":
            return copy_world(os.path.join(IN, "fixtures/projects/full/project"),
                              os.path.join(IN, "fixtures/projects/full/home"), root)
        if name == "install":
            return copy_world(os.path.join(IN, "fixtures/projects/install"), None, root)
        if name == "rec":
            return make_rec_world(root)
        raise KeyError(name)
    return make

WORLDS = ["examples", "e2e", "empty", "full", "install", "rec"]
_count = [0]
def fresh(name, tag):
    root = os.path.join(W, f"{name}.{tag}")
    return world(name)(root)

def home_env(home):
    return {"HOME": home}

def read_only_cases(name):
    """list, doctor and validate over the world NAME, untouched: one copy, nothing written."""
    project, home = fresh(name, "ro")
    env = home_env(home)
    c = f"projects/{name}"
    jobs = []
    for fmt in ("text", "json"):
        jobs.append((record, (f"{c}/list.{fmt}.txt", ["list", "--format", fmt], project, None, env)))
        jobs.append((record, (f"{c}/doctor.{fmt}.txt", ["doctor", "--format", fmt], project, None, env)))
        jobs.append((record, (f"{c}/validate.{fmt}.txt", ["validate", "--format", fmt], project, None, env)))
    jobs.append((record, (f"{c}/list.project-home-flags.txt", ["list", "--project", project, "--home", home], BASE_ENV["HOME"])))
    jobs.append((record, (f"{c}/validate.deny-warnings.txt", ["validate", "--deny-warnings", "--project", project, "--home", home], BASE_ENV["HOME"])))
    for d in DIALECTS:
        jobs.append((record, (f"{c}/list.host-{d}.txt", ["list", "--host", d], project, None, env)))
        jobs.append((record, (f"{c}/list.host-{d}.json.txt", ["list", "--host", d, "--format", "json"], project, None, env)))
        jobs.append((record, (f"{c}/doctor.host-{d}.txt", ["doctor", "--host", d], project, None, env)))
        jobs.append((record, (f"{c}/doctor.host-{d}.json.txt", ["doctor", "--host", d, "--format", "json"], project, None, env)))
    parallel(jobs)
    # HOOKX_HOME instead of HOME.
    record(f"{c}/list.hookx-home.txt", ["list"], project, None, {"HOME": BASE_ENV["HOME"], "HOOKX_HOME": home})

def trust_install_cases(name):
    """trust, then install / reinstall / uninstall for every host, each in its own copy."""
    c = f"projects/{name}"
    project, home = fresh(name, "trust")
    env = home_env(home)
    both = lambda: snapshot(project) + [(f"home {t}", b) for t, b in snapshot(home, HOOKX_STATE)]
    record(f"{c}/trust.txt", ["trust", "--yes"], project, None, env, extra=both)
    record(f"{c}/trust.again.txt", ["trust", "--yes"], project, None, env, extra=both)
    record(f"{c}/list.after-trust.txt", ["list"], project, None, env)
    record(f"{c}/doctor.after-trust.txt", ["doctor"], project, None, env)
    def one(d, scope):
        project, home = fresh(name, f"install-{d}-{scope}")
        env = home_env(home)
        snap = lambda: snapshot(project) + [(f"home {t}", b) for t, b in snapshot(home, HOOKX_STATE)]
        s = ["--scope", scope]
        record(f"{c}/install/{d}.{scope}.1-install.txt", ["install", "--host", d, *s], project, None, env, extra=snap)
        record(f"{c}/install/{d}.{scope}.2-again.txt", ["install", "--host", d, *s], project, None, env, extra=snap)
        record(f"{c}/install/{d}.{scope}.3-list.txt", ["list", "--host", d], project, None, env)
        record(f"{c}/install/{d}.{scope}.4-uninstall.txt", ["install", "--host", d, *s, "--uninstall"], project, None, env, extra=snap)
    parallel([(one, (d, scope)) for d in DIALECTS for scope in ("project", "user")])

for name in WORLDS:
    read_only_cases(name)
    trust_install_cases(name)

# ---------------------------------------------------------------------------------------------
# 4. Payloads through run, exec and simulate.
phase("payloads")

def payloads():
    """(case name, flavour, host dialect, event, stdin template) for every payload fixture."""
    found = []
    for top, split_event in (("payloads", False), ("e2e/payloads", True)):
        base = os.path.join(IN, "fixtures", top)
        for fl in sorted(os.listdir(base)):
            for name in sorted(os.listdir(os.path.join(base, fl))):
                if not name.endswith(".json"):
                    continue
                stem = name[:-5]
                event = stem.split("-")[0] if split_event else stem
                with open(os.path.join(base, fl, name), "rb") as f:
                    found.append((f"{top}/{fl}/{stem}", fl, dialect_of(fl), event, f.read()))
    for top in ("recorded", "documented"):
        base = os.path.join(IN, "fixtures", top)
        for client in sorted(os.listdir(base)):
            for name in sorted(os.listdir(os.path.join(base, client))):
                if not name.endswith(".json"):
                    continue
                with open(os.path.join(base, client, name)) as f:
                    v = json.load(f)
                found.append((f"{top}/{client}/{name[:-5]}", v["flavor"], v["host"], v["event"],
                              json.dumps(v["stdin"]).encode()))
    base = os.path.join(IN, "fixtures/regressions/decode_event")
    for name in sorted(os.listdir(base)):
        with open(os.path.join(base, name), "rb") as f:
            found.append((f"regressions/decode_event/{name}", "claude", "claude", "PreToolUse", f.read()))
    return found

PAYLOADS = payloads()
SMALL = [p for p in PAYLOADS if p[0].startswith(("payloads/", "e2e/payloads/"))]

def fill(tmpl, project, home):
    return tmpl.replace(b"<project>", project.encode()).replace(b"<home>", home.encode())

def recorded_sections(rec_out):
    def sections():
        out = []
        for name in sorted(os.listdir(rec_out)):
            with open(os.path.join(rec_out, name), "rb") as f:
                data = f.read()
            head, sep, env = data.rpartition(b"\n--- env (sorted)\n")
            if sep:
                data = head + sep + b"".join(sorted(env.splitlines(keepends=True)))
            out.append((f"handler {name}", data))
        return out
    return sections

_rec_dirs = os.path.join(WORK, "rec-out")
def rec_case(case, args, cwd, env, stdin_bytes, answer):
    """A command whose handlers are rec.sh: their records go into the case file."""
    rec_out = os.path.join(_rec_dirs, case)
    os.makedirs(rec_out)
    e = dict(env)
    e.update({"REC_OUT": rec_out, "REC_ANSWER": answer})
    record(case, args, cwd, None, e, stdin_bytes, extra=recorded_sections(rec_out))

def run_world(name, tag, cases, seq=False, with_guess=False):
    # `run` takes its home from `--home` (as install writes it on a route), else the account's:
    # never HOME, so each run names the world's home.
    project, home = fresh(name, tag)
    env = home_env(home)
    if name == "rec":
        record(f"run/{tag}/_trust.txt", ["trust", "--yes"], project, None, env,
               extra=lambda: [(f"home {t}", b) for t, b in snapshot(os.path.join(home, ".hookx"), ("cache", "warned.json", "warned.sum", ".hookx.lock"))])
    jobs = []
    for (pname, fl, host, event, tmpl), answer in cases:
        stdin = fill(tmpl, project, home)
        sfx = "" if answer == "silent" else f".{answer}"
        jobs.append((rec_case, (f"run/{tag}/{pname}{sfx}.txt", ["run", "--host", host, "--event", event, "--project", project, "--home", home],
                                project, env, stdin, answer)))
        if with_guess:
            jobs.append((rec_case, (f"run/{tag}/{pname}.guess-host.txt", ["run", "--home", home], project, env, stdin, answer)))
            jobs.append((rec_case, (f"run/{tag}/{pname}.no-project.txt", ["run", "--host", host, "--event", event, "--home", home],
                                    project, env, stdin, answer)))
    if seq:
        for fn, a in jobs:
            fn(*a)
    else:
        parallel(jobs)

ANSWERS = ["deny", "hso", "stop", "plain", "exit2", "exit1", "garbage"]
WORLD_ANSWERS = ["deny", "hso", "exit2"]
run_world("empty", "empty", [(p, "silent") for p in PAYLOADS], with_guess=False)
run_world("empty", "empty-guess", [(p, "silent") for p in SMALL], with_guess=True)
run_world("rec", "rec", [(p, "silent") for p in PAYLOADS])
run_world("rec", "rec-answers", [(p, a) for p in SMALL for a in WORLD_ANSWERS])
# Untrusted files: hookx warns once per file and content (state in the home): in order.
run_world("full", "full", [(p, "silent") for p in SMALL], seq=True)

phase("exec")
# exec: every small payload to a handler of every flavour, silent; and each answer kind to a
# handler of every flavour for one tool payload per host.
project, home = fresh("empty", "exec")
env = home_env(home)
jobs = []
for pname, fl, host, event, tmpl in SMALL:
    stdin = fill(tmpl, project, home)
    for f in FLAVORS:
        jobs.append((rec_case, (f"exec/{pname}/as-{f}.txt",
                                ["exec", "--host", host, "--as", f, "--event", event, "--project", project, "--", "sh", REC_SH, f, event],
                                project, env, stdin, "silent")))
firsts = {}
for p in SMALL:
    if p[0].startswith("e2e/") and "-bash" in p[0] and p[3].lower().startswith(("pre", "before")):
        firsts.setdefault(p[1], p)
for pname, fl, host, event, tmpl in sorted(firsts.values()):
    stdin = fill(tmpl, project, home)
    for f in FLAVORS:
        for a in ANSWERS:
            jobs.append((rec_case, (f"exec/{pname}/as-{f}.{a}.txt",
                                    ["exec", "--host", host, "--as", f, "--event", event, "--project", project, "--", "sh", REC_SH, f, event],
                                    project, env, stdin, a)))
    # --match and --if filters
    for f, args in (("claude", ["--match", "Bash"]), ("claude", ["--match", "Edit|Write"]),
                    ("claude", ["--if", "Bash(npm *)"]), ("claude", ["--if", "Bash(git *)"]),
                    ("copilot", ["--match", "bash"]), ("gemini", ["--match", "run_shell_command"])):
        tag = "_".join(re.sub(r"[^A-Za-z0-9]+", "-", a) for a in args)
        jobs.append((rec_case, (f"exec/{pname}/as-{f}.{tag}.txt",
                                ["exec", "--host", host, "--as", f, "--event", event, *args, "--project", project, "--", "sh", REC_SH, f, event],
                                project, env, stdin, "silent")))
parallel(jobs)

phase("simulate")
# simulate: the README's examples, and every small payload, in the recording world.
def post_simulate(data):
    data = re.sub(rb"(?m)^(    ended:   .*? after )\d+\.\d ms$", rb"\1<MS> ms", data)
    return re.sub(rb'"millis": [0-9.e+-]+', b'"millis": "<MS>"', data)

project, home = fresh("rec", "simulate")
env = home_env(home)
record("simulate/_trust.txt", ["trust", "--yes"], project, None, env)
readme = [
    ("readme-copilot-deny", ["simulate", "--host", "copilot", "--event", "preToolUse", "--tool", "bash", "--input", '{"command":"rm -rf /"}', "--expect", "deny"]),
    ("readme-claude-edit", ["simulate", "--host", "claude", "--event", "PreToolUse", "--tool", "Edit", "--input", '{"file_path":"a.ts"}']),
    ("prompt-field", ["simulate", "--host", "claude", "--event", "UserPromptSubmit", "--field", "prompt=hello"]),
    ("did-you-mean-event", ["simulate", "--host", "claude", "--event", "PreTooluse"]),
    ("did-you-mean-tool", ["simulate", "--host", "claude", "--event", "PreToolUse", "--tool", "bsh"]),
]
jobs = []
for w in ("empty", "full"):
    wp, wh = fresh(w, "simulate")
    for name, args in readme:
        for fmt in ("text", "json"):
            jobs.append((record, (f"simulate/{w}/{name}.{fmt}.txt", [*args, "--format", fmt], wp, None, home_env(wh), None, None, post_simulate)))
for name, args in readme:
    for fmt in ("text", "json"):
        for a in ("silent", "deny"):
            case = f"simulate/rec/{name}.{fmt}.{a}.txt"
            rec_out = os.path.join(_rec_dirs, case)
            os.makedirs(rec_out)
            e = dict(env, REC_OUT=rec_out, REC_ANSWER=a)
            jobs.append((record, (case, [*args, "--format", fmt], project, None, e, None, recorded_sections(rec_out), post_simulate)))
for pname, fl, host, event, tmpl in SMALL:
    stdin_file = os.path.join(WORK, "sim-payloads", pname + ".json")
    os.makedirs(os.path.dirname(stdin_file), exist_ok=True)
    with open(stdin_file, "wb") as f:
        f.write(fill(tmpl, project, home))
    case = f"simulate/rec/{pname}.txt"
    rec_out = os.path.join(_rec_dirs, case)
    os.makedirs(rec_out)
    e = dict(env, REC_OUT=rec_out, REC_ANSWER="silent")
    jobs.append((record, (case, ["simulate", "--host", fl, "--payload", stdin_file, "--project", project],
                          project, None, e, None, recorded_sections(rec_out), post_simulate)))
parallel(jobs)

# ---------------------------------------------------------------------------------------------
# 5. The end.
files = sum(len(f) for _, _, f in os.walk(OUT))
phase("done")
print(f"same-outputs.sh: {files} files in {OUT} ({time.time() - T_START:.0f} s)", file=sys.stderr)
PY
