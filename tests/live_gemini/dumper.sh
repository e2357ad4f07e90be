#!/bin/sh
# Ground-truth hook for the Gemini CLI live suite (POSIX sh: Gemini CLI runs hooks with
# `bash -c` on Linux, but the hook itself stays portable).
# Usage: dumper.sh ROOT LABEL
# Records one invocation as ROOT/dump/N.LABEL.{env,cwd,stdin} (N: the order across every
# label), written aside and renamed into place, stdin last (a record is whole once its stdin
# exists), then answers from ROOT/answers/LABEL/*/:
# the first (by name) whose `match` text occurs in stdin prints `stdout` and `stderr` and exits
# with `exit`, after sleeping `sleep` seconds if that file exists (with its output detached, so
# that a hook killed at its timeout leaves no pipe open).
root=$1 label=$2
d=$root/dump
until mkdir "$d/.lock" 2>/dev/null; do sleep 0.01; done
n=$(cat "$d/.n" 2>/dev/null || echo 0)
n=$((n + 1))
echo "$n" >"$d/.n"
rmdir "$d/.lock"
part=$d/.part.$n
mkdir "$part"
cat >"$part/stdin"
env >"$part/env"
pwd >"$part/cwd"
for f in env cwd stdin; do mv "$part/$f" "$d/$n.$label.$f"; done
rmdir "$part"
for a in "$root/answers/$label"/*/; do
  [ -f "$a/match" ] || continue
  if grep -qF -- "$(cat "$a/match")" "$d/$n.$label.stdin"; then
    if [ -f "$a/sleep" ]; then sleep "$(cat "$a/sleep")" </dev/null >/dev/null 2>&1; fi
    cat "$a/stdout"
    cat "$a/stderr" >&2
    exit "$(cat "$a/exit")"
  fi
done
exit 0
