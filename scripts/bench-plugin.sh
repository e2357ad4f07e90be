#!/usr/bin/env bash
# The cost per tool call of hookx's OpenCode plugin against a plugin that does nothing
# (benches/opencode_plugin.mjs): builds the release hookx, makes a project whose Claude settings
# hold one PreToolUse rule on Bash running `true`, installs the plugin for it, trusts the rule,
# and runs the harness under node. Usage: scripts/bench-plugin.sh [RUNS] (default 200).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
cargo build --release --quiet
hookx=$PWD/target/release/hookx
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/project/.claude"
git -C "$tmp/project" init -q
printf '%s\n' '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]}}' \
  >"$tmp/project/.claude/settings.json"
export HOME=$tmp/home
(cd "$tmp/project" && "$hookx" install --host opencode --hookx "$hookx" >/dev/null 2>&1 && "$hookx" trust --yes >/dev/null 2>&1)
cd "$tmp/project"
node "$OLDPWD/benches/opencode_plugin.mjs" "$tmp/project" "${1:-200}"
