#!/usr/bin/env bash
# The offline check of a Markdown docs tree, side by side with lychee:
# ../shared/corpus/markdown.md cut into about 2,300 files with links
# between them and to their headings (benches/mdtree_build.sh says how);
# links per second for each tool. See benches/README.md.
#
# Usage: benches/mdtree.sh
# Environment:
#   RUNS=5        timed runs per command (hyperfine)
#   TREE=DIR      where to build the tree (default: $TMPDIR/uriscan-mdtree)
#   SKIP_BUILD=1  do not run cargo build --release
# Needs hyperfine; lychee when installed (cargo install lychee --locked).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${RUNS:-5}
die() { echo "mdtree.sh: $*" >&2; exit 1; }
command -v hyperfine >/dev/null || die "needs hyperfine (apt-get install hyperfine)"
# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"
tree=${TREE:-${TMPDIR:-/tmp}/uriscan-mdtree}
if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet)
fi
uriscan=$repo/target/release/uriscan

# shellcheck source=benches/mdtree_build.sh
source "$repo/benches/mdtree_build.sh"
build_mdtree "$tree"
n=$(find "$tree/docs" -name 'part-*.md' | wc -l)
links=$("$uriscan" links -c "$tree/docs" | awk -F: '{s += $NF} END {print s}')
echo "cores: $(nproc); $n Markdown files, $links links, in $tree"

names=(uriscan); cmds=("$uriscan check $tree/docs")
# shellcheck source=benches/lychee.sh
source "$repo/benches/lychee.sh"
if [[ -n $lychee ]]; then
  names+=(lychee); cmds+=("$lychee --offline --include-fragments --no-progress $tree/docs")
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
args=()
for i in "${!names[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
hyperfine -N -i --warmup 1 --runs "$runs" --export-csv "$out" "${args[@]}" >/dev/null 2>&1 \
  || die "hyperfine failed"
printf '%-8s %10s %14s\n' tool median 'links/s'
for name in "${names[@]}"; do
  med=$(awk -F, -v n="$name" '$1 == n {print $4}' "$out")
  printf '%-8s %9.3fs %14.0f\n' "$name" "$med" "$(echo "$links / $med" | bc -l)"
done
echo "(medians of $runs runs; links counted by uriscan links)"
