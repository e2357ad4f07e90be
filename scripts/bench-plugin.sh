#!/usr/bin/env bash
# The cost per tool call of hookx's OpenCode plugin against a plugin that does nothing
# (benches/opencode_plugin.mjs): builds the release hookx, makes a project whose Claude settings
# hold one PreToolUse rule on Bash running `true`, installs the plugin for it, trusts the rule,
# and runs the harness under node and under OpenCode's own runtime (Bun). Exits 1 when the
# plugin misses the floor. Usage: scripts/bench-plugin.sh [RUNS] (default 200).
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
HOME_BEFORE=$HOME
export HOME=$tmp/home
(cd "$tmp/project" && "$hookx" install --host opencode --hookx "$hookx" >/dev/null 2>&1 && "$hookx" trust --yes >/dev/null 2>&1)
cd "$tmp/project"
bench=$OLDPWD/benches/opencode_plugin.mjs
status=0
echo "## under node ($(node --version))"
node "$bench" "$tmp/project" "${1:-200}" || status=1
# The runtime OpenCode runs plugins in: its binary is Bun, and acts as the bun CLI with
# BUN_BE_BUN=1. Skipped (said so) where the pinned client is not installed.
opencode=${HOOKX_CLIENTS:-$HOME_BEFORE/.cache/hookx-conformance}/opencode-1.18.33/node_modules/opencode-linux-x64/bin/opencode
if [ -x "$opencode" ]; then
  echo
  echo "## under OpenCode 1.18.33's own runtime (Bun $(BUN_BE_BUN=1 "$opencode" --version))"
  BUN_BE_BUN=1 "$opencode" "$bench" "$tmp/project" "${1:-200}" || status=1
else
  echo "skip: OpenCode 1.18.33 not installed at $opencode (conformance/install-clients.sh)"
fi
exit $status
