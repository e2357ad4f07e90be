#!/usr/bin/env bash
# Builds the release binary (and, on x86_64 Linux, the static one: see scripts/build-static.sh),
# then runs the benchmark harness (benches/hookx.rs) and prints one table. Options go to the
# harness, e.g.:
#   scripts/bench.sh                        # everything, 200 runs per case
#   scripts/bench.sh --runs 50 --no-callgrind
#   scripts/bench.sh --baseline /path/to/old/hookx   # before/after in the same rounds
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
cargo build --release --quiet
also=()
if static=$(scripts/build-static.sh 2>/dev/null); then
  also=(--also "static=$static")
fi
exec cargo bench --quiet --bench hookx -- "${also[@]}" "$@"
