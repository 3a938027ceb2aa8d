#!/usr/bin/env bash
# What our own Markdown reader costs against the least pass any exact
# reader makes, on ../shared/corpus/markdown.md cut into 4 KB pages (the
# pages ours reads, as the links bench cuts them), with
# crates/uriscan/examples/md_reader_profile.rs:
#
#   floor           every line found (memchr) and every byte looked up in
#                   the inline pass's byte class table; nothing built
#   bare            our reader's bare parse (links and regions gathered)
#   links           extraction on our reader (links kept and resolved)
#   links-each      the same, each link handed out borrowed (for_each)
#   pulldown        pulldown-cmark's bare parse, the oracle
#   pulldown-links  extraction on pulldown-cmark
#
# Each step prints its fastest and median pass over PASSES passes (wall
# time), then, where valgrind is installed, the instructions of one pass
# (stable on a loaded machine) and their number a byte.
#
#   benches/md_bound.sh            # PASSES=20
#   PASSES=50 benches/md_bound.sh floor bare
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
passes=${PASSES:-20}
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(floor bare links links-each pulldown pulldown-links)
cargo build --quiet --release -p uriscan --example md_reader_profile --features internals
bin="${CARGO_TARGET_DIR:-$root/target}/release/examples/md_reader_profile"
for step in "${steps[@]}"; do
  "$bin" "$step" "$passes" | grep "^$step:"
done
if ! command -v valgrind >/dev/null; then
  echo "instructions: skipped: valgrind is not installed"
  exit 0
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for step in "${steps[@]}"; do
  valgrind --tool=callgrind --toggle-collect='md_reader_profile::pass' \
    --callgrind-out-file="$out/$step.out" "$bin" "$step" 1 >"$out/$step.txt" 2>&1
  instructions=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out/$step.txt")
  bytes=$(sed -n 's/^[0-9]* pages, \([0-9]*\) bytes.*/\1/p' "$out/$step.txt")
  awk -v s="$step" -v i="$instructions" -v b="$bytes" \
    'BEGIN { printf "%s: %d instructions a pass, %.1f a byte\n", s, i, i / b }'
done
