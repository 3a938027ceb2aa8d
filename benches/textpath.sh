#!/usr/bin/env bash
# The text path side by side: two builds of `uriscan -o` on the large
# plain-text inputs (100 MB of prose, 50 MB of Markdown and 100 MB of HTML,
# all named .txt, built once from the corpus under target/textpath-bench/),
# by figures the load of a shared machine does not move: the user-space
# instructions each run executes (valgrind's cachegrind, one run each),
# and the CPU time (user + system) of paired rounds. See benches/README.md.
#
#   benches/textpath.sh OLD_BINARY NEW_BINARY
#
# Build an old commit beside this tree with, for example:
#   git worktree add /tmp/old 6099878
#   (cd /tmp/old && CARGO_TARGET_DIR=$PWD/target/old cargo build --release)
#
# Environment: ROUNDS (default 10), CORPUS (default ../shared/corpus),
# NO_VALGRIND=1 leaves the instruction counts out.
# Needs python3; valgrind for the instruction counts.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "textpath.sh: $*" >&2; exit 1; }
[[ $# -eq 2 ]] || die "usage: benches/textpath.sh OLD_BINARY NEW_BINARY"
old=$(realpath "$1")
new=$(realpath "$2")
# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"

work=$repo/target/textpath-bench
mkdir -p "$work"
# make NAME SOURCE BYTES: SOURCE repeated and cut to BYTES.
make() {
  [[ -s $work/$1 && $(stat -c %s "$work/$1") -eq $3 ]] && return
  { while true; do cat "$2" || return 0; done; } | head -c "$3" >"$work/$1.tmp" || true
  mv "$work/$1.tmp" "$work/$1"
}
make prose.txt "$corpus/prose.txt" 100000000
make markdown.txt "$corpus/markdown.md" 50000000
make html.txt "$corpus/html.html" 100000000
files=("$work/prose.txt" "$work/markdown.txt" "$work/html.txt")

if [[ -z ${NO_VALGRIND:-} ]]; then
  command -v valgrind >/dev/null || die "needs valgrind (or NO_VALGRIND=1)"
  printf '%-14s %14s %14s %8s\n' file old_instr new_instr new/old
  for f in "${files[@]}"; do
    ir() {
      valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$1" -o "$f" 2>&1 >/dev/null | sed -n 's/.*I *refs: *//p' | tr -d ,
    }
    a=$(ir "$old")
    b=$(ir "$new")
    printf '%-14s %14s %14s %8.3f\n' "$(basename "$f")" "$a" "$b" \
      "$(echo "$b / $a" | bc -l)"
  done
  echo "(instructions executed in user space, cachegrind's I refs)"
fi
python3 "$repo/benches/textpath/paired.py" "${ROUNDS:-10}" \
  "old=$old -o" "new=$new -o" -- "${files[@]}"
echo "(medians of ${ROUNDS:-10} paired rounds; cpu = user + system time of"
echo " the process; cpu/first the median and range of per-round ratios)"
