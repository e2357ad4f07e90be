#!/usr/bin/env bash
# Builds hookx as the README's install command does on x86_64 Linux (a static, non-PIE
# executable, flags in .cargo/static.toml) and prints its path. `--target` keeps those flags off
# the proc-macro crates, which must stay dynamic libraries.
set -euo pipefail
cd "$(dirname "$0")/.."
target=x86_64-unknown-linux-gnu
if [ "$(uname -sm)" != "Linux x86_64" ]; then
  echo "build-static.sh: only for x86_64 Linux (glibc)" >&2
  exit 1
fi
cargo build --release --quiet --locked --target "$target" --config .cargo/static.toml \
  --target-dir target/static >&2
echo "$PWD/target/static/$target/release/hookx"
