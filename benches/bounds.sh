#!/usr/bin/env bash
# What a 4x-linkify target leaves for confirmation, measured: the paired
# ratio bench (crates/uriscan/benches/ratio.rs) on this tree and on two stripped copies
# of it, each built from a patch in benches/bounds/:
#
#   full     the tree as it is
#   search   confirmation rejects every candidate: the candidate search
#            alone, with its filter, its newline count and one hand-off
#            per candidate
#   minimal  confirmation does the least any extractor must: one
#            classification of the 32 bytes after the `:`, the scheme's
#            start, and a match (line and column included) up to the
#            first byte that is not plain; no scheme policy, no
#            delimiters, no trailing punctuation, no validation
#
# The stripped builds give wrong output on purpose; they exist only in a
# temporary directory. Each prints the ratio bench's table; compare the
# whole-input rows. Arguments go to the bench (an input name filters).
#
#   benches/bounds.sh                 # every input
#   ROUNDS=41 benches/bounds.sh html  # one input, more rounds
#
# Needs only cargo and git (for `git apply`, which works outside a
# repository).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The copies sit in another directory, where the bench does not find
# the corpus beside the repository by itself.
if [ -z "${URISCAN_CORPUS:-}" ]; then
  for dir in "$root/../shared/corpus" "$root/../../shared/corpus"; do
    if [ -d "$dir" ]; then
      URISCAN_CORPUS=$(cd "$dir" && pwd)
      break
    fi
  done
fi
export URISCAN_CORPUS
# One target directory for the three: the dependencies build once.
export CARGO_TARGET_DIR="$work/target"

for bound in full search minimal; do
  copy="$work/$bound"
  mkdir -p "$copy"
  (cd "$root" && tar cf - --exclude=./target --exclude=./.git --exclude=./fuzz .) |
    (cd "$copy" && tar xf -)
  if [ "$bound" != full ]; then
    (cd "$copy" && git apply --directory=crates/uriscan "$root/benches/bounds/$bound.patch")
  fi
  echo "== $bound"
  (cd "$copy" && cargo bench --quiet -p uriscan --bench ratio -- "$@")
done
