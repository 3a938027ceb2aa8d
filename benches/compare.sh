#!/usr/bin/env bash
# Times the whole uriscan process on a large tree against ripgrep and
# against itself on one thread. See benches/README.md.
#
# Usage: benches/compare.sh [TREE_DIR]
#
#   TREE_DIR  where the tree is built (default: $TMPDIR/uriscan-compare);
#             reused when it is already complete.
# Environment:
#   FILES=20000   number of files in the tree (at least 20000 by default)
#   MIN_MB=500    minimum total size in MB
#   RUNS=5        timed runs per command
#   CORPUS=DIR    the corpus (default: ../shared/corpus beside the repo)
#   SKIP_BUILD=1  do not run cargo build --release
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
files=${FILES:-20000}
min_mb=${MIN_MB:-500}
runs=${RUNS:-5}
tree=${1:-${TMPDIR:-/tmp}/uriscan-compare}

die() { echo "compare.sh: $*" >&2; exit 1; }

# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"

# ---- The tree ------------------------------------------------------------
# Each pass cuts the three corpus files into pieces at line boundaries
# (split -C), with a chunk size that changes from pass to pass so that the
# files differ, until there are enough files and bytes. A stamp records
# the parameters so that a finished tree is reused.
corpus_bytes=$(cat "$corpus"/prose.txt "$corpus"/markdown.md \
  "$corpus"/html.html | wc -c)
chunk=$(( min_mb * 1000000 / files + 1 ))
if (( chunk * files < min_mb * 1000000 )); then chunk=$((chunk + 1)); fi
stamp="files=$files min_mb=$min_mb chunk=$chunk corpus_bytes=$corpus_bytes"
if [[ -f $tree/.stamp && $(cat "$tree/.stamp") == "$stamp" ]]; then
  echo "reusing tree $tree"
else
  echo "building tree in $tree ($files files, >= $min_mb MB) ..."
  rm -rf "$tree"
  mkdir -p "$tree"
  made=0 pass=0
  while (( made < files )); do
    pass=$((pass + 1))
    size=$(( chunk + (pass % 7) * 97 ))
    for f in prose.txt markdown.md html.html; do
      ext=${f##*.}
      dir=$tree/p$(printf %03d $pass)/${f%%.*}
      mkdir -p "$dir"
      split -C "$size" -d -a 5 --additional-suffix=".$ext" \
        "$corpus/$f" "$dir/part"
    done
    made=$(find "$tree" -type f -name 'part*' | wc -l)
  done
  # Trim to exactly $files files, keeping the order stable.
  find "$tree" -type f -name 'part*' | sort | tail -n +$((files + 1)) \
    | xargs -r rm -f
  echo "$stamp" > "$tree/.stamp"
fi
nfiles=$(find "$tree" -type f -name 'part*' | wc -l)
nbytes=$(find "$tree" -type f -name 'part*' -printf '%s\n' \
  | awk '{s += $1} END {print s}')
echo "tree: $nfiles files, $((nbytes / 1000000)) MB"
(( nbytes >= min_mb * 1000000 )) \
  || echo "warning: tree is smaller than $min_mb MB (corpus too small?)" >&2

# ---- The binary ----------------------------------------------------------
if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet)
fi
uriscan=$repo/target/release/uriscan
[[ -x $uriscan ]] || die "$uriscan not built"

# ---- Timing --------------------------------------------------------------
# Output goes through a pipe: ripgrep (like grep) stops at the first
# match when its output is /dev/null, which would not be a fair race.
names=("uriscan -o" "uriscan -j1 -o")
cmds=("$uriscan -o $tree | cat >/dev/null"
      "$uriscan -j1 -o $tree | cat >/dev/null")
if command -v rg >/dev/null; then
  names+=("rg -o -a --no-ignore")
  cmds+=("rg -o -a --no-ignore 'https?://[^\\s<>\"]+' $tree | cat >/dev/null")
else
  echo "rg not found: install it (apt-get install ripgrep) to compare" >&2
fi
echo "uriscan finds $("$uriscan" -o "$tree" | wc -l) URIs"
if command -v rg >/dev/null; then
  echo "rg finds $(rg -o -a --no-ignore 'https?://[^\s<>"]+' "$tree" | wc -l) matches"
fi
echo "cores: $(nproc); runs per command: $runs"

declare -A median
if command -v hyperfine >/dev/null; then
  csv=$(mktemp)
  args=()
  for i in "${!cmds[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
  hyperfine --warmup 1 --runs "$runs" --export-csv "$csv" "${args[@]}"
  # command,mean,stddev,median,user,system,min,max
  while IFS=, read -r name _ _ med _; do
    median[$name]=$med
  done < <(tail -n +2 "$csv")
  rm -f "$csv"
else
  echo "hyperfine not found (apt-get install hyperfine): timing with a loop" >&2
  for i in "${!cmds[@]}"; do
    bash -c "${cmds[$i]}"  # warm-up
    times=()
    for ((r = 0; r < runs; r++)); do
      s=$(date +%s.%N)
      bash -c "${cmds[$i]}"
      e=$(date +%s.%N)
      times+=("$(echo "$e - $s" | bc -l)")
    done
    median[${names[$i]}]=$(printf '%s\n' "${times[@]}" | sort -g \
      | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] \
        : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
  done
fi

echo
echo "median seconds:"
for n in "${names[@]}"; do
  printf '  %-24s %8.3f s  %7.1f MB/s\n' "$n" "${median[$n]}" \
    "$(echo "$nbytes / 1000000 / ${median[$n]}" | bc -l)"
done
u=${median["uriscan -o"]}
printf 'scaling, -j1 time / default time: %.2fx\n' \
  "$(echo "${median["uriscan -j1 -o"]} / $u" | bc -l)"
if [[ -n ${median["rg -o -a --no-ignore"]:-} ]]; then
  printf 'rg time / uriscan time: %.2fx (above 1: uriscan is faster)\n' \
    "$(echo "${median["rg -o -a --no-ignore"]} / $u" | bc -l)"
fi
