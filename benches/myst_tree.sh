#!/usr/bin/env bash
# Lays out a real MyST tree for the `links/myst (tree)` bench and for
# profiling the MyST reader: the docs/ of the source distribution of a
# Sphinx project written in MyST, under target/myst-tree/NAME (its
# conf.py with it). Of the MyST projects tried, sphinx-book-theme ships
# its docs in its sdist (myst-parser, myst-nb, sphinx-design and
# jupyter-book do not). pip fetches the sdists (the only step that uses
# the network); a tree already laid out is kept.
#
#   benches/myst_tree.sh            # then: cargo bench -p uriscan --bench links --features internals -- 'links/myst'
#
# The versions are pinned so that figures compare across runs.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out="${CARGO_TARGET_DIR:-$repo/target}/myst-tree"
projects=(sphinx-book-theme==1.4.0)
if [ -f "$out/.done" ]; then
  echo "$out is laid out already"; exit 0
fi
command -v pip >/dev/null || { echo "skipped: no pip"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
for p in "${projects[@]}"; do
  name=${p%%==*}
  # The sdist only: wheels hold no docs.
  pip download -q --no-deps --no-binary :all: "$p" -d "$work/$name" \
    || { echo "skipped: $p could not be fetched"; continue; }
  tar -xzf "$work/$name"/*.tar.gz -C "$work/$name"
  docs=$(find "$work/$name" -mindepth 2 -maxdepth 2 -type d -name docs | head -1)
  [ -n "$docs" ] || { echo "skipped: $p holds no docs/"; continue; }
  rm -rf "${out:?}/$name"
  cp -r "$docs" "$out/$name"
done
touch "$out/.done"
find "$out" -name '*.md' -printf '%s\n' | awk -v d="$out" \
  '{n++; s+=$1} END {printf "%s: %d .md files, %d bytes\n", d, n, s}'
