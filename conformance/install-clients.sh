#!/usr/bin/env bash
# Installs the pinned real agent clients the live conformance suites drive, into a cache outside
# the clone ($HOOKX_CLIENTS, default ~/.cache/hookx-conformance), where later runs find them.
# Scripts are off (the native binaries, or a bundled script under node, are called directly),
# and the packages install in parallel. Prints the cache root; exits non-zero if a client is
# missing afterwards.
set -euo pipefail
root="${HOOKX_CLIENTS:-$HOME/.cache/hookx-conformance}"
mkdir -p "$root"

# package@version  folder  binary inside the folder
clients=(
  "@anthropic-ai/claude-code@2.1.332 claude-2.1.332 node_modules/@anthropic-ai/claude-code-linux-x64/claude"
  "@github/copilot@1.0.102 copilot-1.0.102 node_modules/@github/copilot-linux-x64/copilot"
  "@google/gemini-cli@0.61.0 gemini-0.61.0 node_modules/@google/gemini-cli/bundle/gemini.js"
  "@openai/codex@0.171.0 codex-0.171.0 node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
)

pids=()
for row in "${clients[@]}"; do
  read -r pkg dir bin <<<"$row"
  if [ -x "$root/$dir/$bin" ]; then continue; fi
  (
    mkdir -p "$root/$dir"
    npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
      --prefix "$root/$dir" "$pkg" >"$root/$dir.log" 2>&1 ||
      { echo "install-clients: $pkg failed, see $root/$dir.log" >&2; exit 1; }
  ) &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done

for row in "${clients[@]}"; do
  read -r pkg dir bin <<<"$row"
  [ -x "$root/$dir/$bin" ] || { echo "install-clients: $root/$dir/$bin missing" >&2; status=1; }
done
echo "$root"
exit $status
