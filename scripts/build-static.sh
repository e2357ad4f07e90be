#!/usr/bin/env bash
# Builds hookx as a static, non-PIE x86_64 Linux executable and prints its path. hookx is
# started once per hook event: without the dynamic loader it starts about 0.7 ms sooner on this
# project's machine (BENCHMARKS.md). `--target` keeps these flags off the proc-macro crates,
# which must stay dynamic libraries.
set -euo pipefail
cd "$(dirname "$0")/.."
target=x86_64-unknown-linux-gnu
if [ "$(uname -sm)" != "Linux x86_64" ]; then
  echo "build-static.sh: only for x86_64 Linux (glibc)" >&2
  exit 1
fi
RUSTFLAGS="-C target-feature=+crt-static -C relocation-model=static" \
  cargo build --release --quiet --target "$target" --target-dir target/static >&2
echo "$PWD/target/static/$target/release/hookx"
