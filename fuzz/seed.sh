#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ with every fixture under tests/fixtures/ (configs, frontmatter,
# payloads, invalid files, earlier crashes). Idempotent; the corpus itself is not committed.
set -euo pipefail
cd "$(dirname "$0")"
for target in $(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | grep -v hookx-fuzz); do
    mkdir -p "corpus/$target"
    find ../tests/fixtures ../examples -type f -size -1000k -print0 |
        while IFS= read -r -d '' f; do
            cp "$f" "corpus/$target/seed-$(sha1sum "$f" | cut -c1-16)"
        done
done
