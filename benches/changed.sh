#!/usr/bin/env bash
# `check --changed-since` against the full check, on the Markdown tree of
# benches/mdtree.sh (about 2,300 files) in a git repository where one
# file changed: its top heading renamed, which breaks the links of three
# other files. Prints the documents each run reads and their medians.
#
# Usage: benches/changed.sh
# Environment:
#   RUNS=5        timed runs per command (hyperfine)
#   TREE=DIR      where to build the tree (default: $TMPDIR/uriscan-changed)
#   SKIP_BUILD=1  do not run cargo build --release
#   URISCAN=BIN   the binary to time (default: target/release/uriscan)
# Needs hyperfine and git.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${RUNS:-5}
die() { echo "changed.sh: $*" >&2; exit 1; }
command -v hyperfine >/dev/null || die "needs hyperfine (apt-get install hyperfine)"
# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"
tree=${TREE:-${TMPDIR:-/tmp}/uriscan-changed}
if [[ -z ${SKIP_BUILD:-} && -z ${URISCAN:-} ]]; then
  (cd "$repo" && cargo build --release --quiet)
fi
uriscan=${URISCAN:-$repo/target/release/uriscan}

# shellcheck source=benches/mdtree_build.sh
source "$repo/benches/mdtree_build.sh"
build_mdtree "$tree"
g() { git -C "$tree" -c user.name=bench -c user.email=bench@example.com -c commit.gpgsign=false "$@"; }
g init -q
g add -A
g commit -q -m tree
sed -i '1s/.*/# Part one hundred/' "$tree/docs/part-0100.md"
n=$(find "$tree/docs" -name 'part-*.md' | wc -l)
echo "cores: $(nproc); $n Markdown files in $tree, docs/part-0100.md changed"

cd "$tree"
"$uriscan" check --no-progress --changed-since HEAD docs >/dev/null 2>"$tree.err" || true
echo "--changed-since: $(grep -o '[0-9]* of [0-9]* documents read' "$tree.err")"
out=$(mktemp)
trap 'rm -f "$out" "$tree.err"' EXIT
hyperfine -N -i --warmup 1 --runs "$runs" --export-csv "$out" \
  -n full "$uriscan check --no-progress docs" \
  -n changed "$uriscan check --no-progress --changed-since HEAD docs" >/dev/null 2>&1 \
  || die "hyperfine failed"
printf '%-8s %10s\n' run median
for name in full changed; do
  printf '%-8s %9.3fs\n' "$name" "$(awk -F, -v n="$name" '$1 == n {print $4}' "$out")"
done
