#!/usr/bin/env bash
# The offline check of a Markdown docs tree, side by side with lychee:
# ../shared/corpus/markdown.md cut into about 2,300 files of 10 lines or
# more (at a blank line outside any code fence), each starting with a
# heading and links to three other files, to the heading of each, and to
# a file that does not exist; links per second for each tool. See
# benches/README.md.
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

rm -rf "$tree" && mkdir -p "$tree/docs"
awk -v dir="$tree/docs" '
  BEGIN { n = 0; lines = 0; file = sprintf("%s/part-%04d.md", dir, n) }
  /^(```|~~~)/ { fence = !fence }
  !fence && /^$/ && lines >= 10 {
    close(file); n++; lines = 0; file = sprintf("%s/part-%04d.md", dir, n)
  }
  { print > file; lines++ }
' "$corpus/markdown.md"
files=("$tree"/docs/part-*.md)
n=${#files[@]}
for i in "${!files[@]}"; do
  head=$(mktemp)
  {
    # GitHub's anchor of this heading is part-I.
    printf '# Part %d\n\n' "$i"
    for k in 1 7 31; do
      j=$(( (i + k) % n ))
      t=$(basename "${files[$j]}")
      printf -- '- [part %d](%s) and [its heading](%s#part-%d)\n' "$j" "$t" "$t" "$j"
    done
    printf -- '- [a missing page](missing-%d.md)\n\n' "$i"
    cat "${files[$i]}"
  } > "$head"
  mv "$head" "${files[$i]}"
done
links=$("$uriscan" links -c "$tree/docs" | awk -F: '{s += $NF} END {print s}')
echo "cores: $(nproc); $n Markdown files, $links links, in $tree"

names=(uriscan); cmds=("$uriscan check $tree/docs")
ly=$(command -v lychee || echo "$HOME/.cargo/bin/lychee")
if [[ -x $ly ]]; then
  names+=(lychee); cmds+=("$ly --offline --include-fragments --no-progress $tree/docs")
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
