#!/usr/bin/env bash
# Times link extraction, whole process, side by side with lychee in one
# run: `uriscan links -o PATH` against `lychee --dump --include-verbatim
# PATH` (extraction only, no request), on the shared corpus's Markdown and
# HTML files and on two trees of many files: the Markdown docs tree of
# benches/mdtree.sh (built by benches/mdtree_build.sh) and a folder of the
# Rust documentation (HTML). See benches/README.md.
#
# Usage: benches/links.sh
# Environment:
#   RUNS=20       timed runs per command (hyperfine)
#   TREE_RUNS=5   timed runs per command on the trees
#   CORPUS=DIR    the corpus (default: ../shared/corpus beside the repo)
#   MDTREE=DIR    where to build the Markdown tree
#                 (default: $TMPDIR/uriscan-links-mdtree)
#   DOCS=DIR      the HTML tree (default: the std/ folder of the Rust
#                 documentation, `rustup component add rust-docs`;
#                 skipped when absent)
#   SKIP_BUILD=1  do not run cargo build --release
# Needs hyperfine (apt-get install hyperfine) and lychee
# (cargo install lychee --locked: about 7 minutes on 2 cores).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${RUNS:-20}
tree_runs=${TREE_RUNS:-5}
die() { echo "links.sh: $*" >&2; exit 1; }
command -v hyperfine >/dev/null || die "needs hyperfine (apt-get install hyperfine)"
# shellcheck source=benches/lychee.sh
source "$repo/benches/lychee.sh"
[[ -n $lychee ]] || die "needs lychee (cargo install lychee --locked)"

# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"
# shellcheck source=benches/mdtree_build.sh
source "$repo/benches/mdtree_build.sh"

if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet)
fi
uriscan=$repo/target/release/uriscan
mdtree=${MDTREE:-${TMPDIR:-/tmp}/uriscan-links-mdtree}
build_mdtree "$mdtree"
docs=${DOCS:-}
if [[ -z $docs ]] && command -v rustc >/dev/null; then
  docs=$(rustc --print sysroot)/share/doc/rust/html/std
fi
csv=$(mktemp)
trap 'rm -f "$csv"' EXIT

# One row: PATH, its label, the runs.
row() {
  local path=$1 label=$2 n=$3 u l mb files
  hyperfine -N --output=pipe --warmup 2 --runs "$n" --export-csv "$csv" \
    -n uriscan "$uriscan links -o $path" \
    -n lychee "$lychee --dump --include-verbatim $path" >/dev/null 2>&1 \
    || die "hyperfine failed on $path"
  u=$(awk -F, '$1 == "uriscan" {print $4}' "$csv")
  l=$(awk -F, '$1 == "lychee" {print $4}' "$csv")
  mb=$(du -sb "$path" | awk '{print $1 / 1000000}')
  files=$(find "$path" -type f | wc -l)
  printf '%-14s %6d %8.1f %8.1fms %8.1fms %8.2fx %8d %8d\n' "$label" "$files" \
    "$mb" "$(echo "$u * 1000" | bc -l)" "$(echo "$l * 1000" | bc -l)" \
    "$(echo "$l / $u" | bc -l)" \
    "$("$uriscan" links -o "$path" | wc -l)" \
    "$("$lychee" --dump --include-verbatim "$path" 2>/dev/null | wc -l)"
}

echo "cores: $(nproc); runs per command: $runs (trees: $tree_runs);" \
  "output through a pipe; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %6s %8s %10s %10s %9s %8s %8s\n' input files MB uriscan lychee \
  'ly/uris' links ly-links
row "$corpus/markdown.md" markdown.md "$runs"
row "$corpus/html.html" html.html "$runs"
row "$mdtree/docs" 'Markdown tree' "$tree_runs"
if [[ -d $docs ]]; then
  row "$docs" "$(basename "$docs")/ (HTML)" "$tree_runs"
else
  echo "(no HTML tree: $docs not found; set DOCS=DIR)"
fi
echo "(medians; ly/uris above 1: uriscan is faster; lychee lists only the"
echo " URLs it would check, uriscan every link with its kind)"
