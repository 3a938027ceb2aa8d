#!/usr/bin/env bash
# lol_html against uriscan's own HTML tokenizer and link extraction, on the
# same bytes in memory (the HTML reader is chosen by measurement):
# builds the standalone bench project benches/lolhtml/ (its own Cargo
# workspace, so the root's build and CI never compile lol_html) and runs
# it on the shared corpus's html.html and on the HTML files of a tree (the
# std/ folder of the Rust documentation), read whole before any timing.
# Each round times every contender back to back (the order rotated from
# one round to the next); it prints the median, the minimum, MiB/s and the
# median of the per-round ratios, then what lol_html's `a@href` values
# are against uriscan's links. See benches/README.md.
#
# Usage: benches/lolhtml.sh
# Environment:
#   RUNS=21       timed rounds on html.html
#   TREE_RUNS=11  timed rounds on the tree
#   CORPUS=DIR    the corpus (default: ../shared/corpus beside the repo)
#   DOCS=DIR      the HTML tree (default: the std/ folder of the Rust
#                 documentation, `rustup component add rust-docs`;
#                 skipped when absent)
#   SKIP_BUILD=1  do not run cargo build --release
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${RUNS:-21}
tree_runs=${TREE_RUNS:-11}

# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"

manifest=$repo/benches/lolhtml/Cargo.toml
if [[ -z ${SKIP_BUILD:-} ]]; then
  cargo build --release --quiet --manifest-path "$manifest"
fi
bench=$repo/benches/lolhtml/target/release/uriscan-bench-lolhtml
docs=${DOCS:-}
if [[ -z $docs ]] && command -v rustc >/dev/null; then
  docs=$(rustc --print sysroot)/share/doc/rust/html/std
fi

echo "load average: $(cat /proc/loadavg)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
echo "tree: $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')," \
  "lol_html $(grep -A1 '^name = "lol_html"' "$repo/benches/lolhtml/Cargo.lock" \
  | sed -n 's/^version = "\(.*\)"/\1/p')"
echo
echo "lol_html with no handler never leaves its tag scanner, which reads"
echo "tag names only (attributes are not read), while our bare tokenizer"
echo "reads every attribute. With a handler on an element, each start tag"
echo "that may match goes through lol_html's full lexer: \`*\` with a handler"
echo "that does nothing is lol_html's tokenizer on every tag."

"$bench" time --runs "$runs" "html.html=$corpus/html.html"
echo
echo "load average: $(cat /proc/loadavg)"
if [[ -d $docs ]]; then
  "$bench" time --runs "$tree_runs" "std=$docs"
  echo
  echo "load average: $(cat /proc/loadavg)"
else
  echo "no HTML tree at '$docs' (rustup component add rust-docs, or DOCS=DIR): skipped"
fi

echo
echo "## lol_html's a@href values against uriscan's html:a@href links"
echo
if [[ -d $docs ]]; then
  "$bench" compare "$corpus/html.html" "$docs"
else
  "$bench" compare "$corpus/html.html"
fi
