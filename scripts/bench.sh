#!/usr/bin/env bash
# Builds the release binary, then runs the benchmark harness (benches/hookx.rs) and prints one
# table. Options go to the harness, e.g.:
#   scripts/bench.sh                        # everything, 200 runs per case
#   scripts/bench.sh --runs 50 --no-callgrind
#   scripts/bench.sh --baseline /path/to/old/hookx   # before/after in the same rounds
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
cargo build --release --quiet
exec cargo bench --quiet --bench hookx -- "$@"
