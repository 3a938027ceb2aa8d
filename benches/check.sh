#!/usr/bin/env bash
# Times the offline link check of a real static site, whole process, side
# by side in one run: the Rust toolchain's own documentation (48,000 HTML
# files, ~780 MB, ~3 million links), with fragments checked by every tool.
# See benches/README.md.
#
#   uriscan check DIR
#   hyperlink --check-anchors DIR                      (cargo install hyperlink)
#   lychee --offline --include-fragments --root-dir DIR DIR   (cargo install lychee)
#
# Each tool is timed when installed, under /usr/bin/time (elapsed time and
# peak memory), the tools taking turns run after run: on a machine that
# other work shares, a change of load then falls on both alike, and the
# ratio of each pair (taken back to back) is what to read. Output goes to
# /dev/null: the tools report very different numbers of broken links (see
# benches/README.md for why), and printing them is not what is compared.
#
# Usage: benches/check.sh [DIR]
# Environment:
#   RUNS=5        timed runs per tool, in turns
#   LYCHEE_RUNS=1 timed runs of lychee, which takes minutes on this site
#                 (0: lychee is not run)
#   SKIP_BUILD=1  do not run cargo build --release
# Needs hyperfine (apt-get install hyperfine).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${RUNS:-5}
dir=${1:-$(rustc --print sysroot)/share/doc/rust/html}
die() { echo "check.sh: $*" >&2; exit 1; }
command -v hyperfine >/dev/null || die "needs hyperfine (apt-get install hyperfine)"
[[ -d $dir ]] || die "no directory $dir"
if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet)
fi
uriscan=$repo/target/release/uriscan
out=$(mktemp)
trap 'rm -f "$out"' EXIT

names=(uriscan)
cmds=("$uriscan check $dir")
if command -v hyperlink >/dev/null || [[ -x $HOME/.cargo/bin/hyperlink ]]; then
  hl=$(command -v hyperlink || echo "$HOME/.cargo/bin/hyperlink")
  names+=(hyperlink); cmds+=("$hl --check-anchors $dir")
fi
# shellcheck source=benches/lychee.sh
source "$repo/benches/lychee.sh"

echo "cores: $(nproc); $(find "$dir" -name '*.html' | wc -l) HTML files in $dir"
# One untimed run of each: the page cache warm for all.
for i in "${!names[@]}"; do sh -c "${cmds[$i]} >/dev/null 2>&1" || true; done
for ((r = 1; r <= runs; r++)); do
  for i in "${!names[@]}"; do
    { /usr/bin/time -f "${names[$i]} %e %M" sh -c "${cmds[$i]} >/dev/null 2>&1" || true; } \
      2>&1 | tail -1 >>"$out"
  done
done
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf '%-10s %10s %12s\n' tool median 'peak RSS'
for name in "${names[@]}"; do
  med=$(awk -v n="$name" '$1 == n {print $2}' "$out" | median)
  rss=$(awk -v n="$name" '$1 == n {print $3}' "$out" | median)
  printf '%-10s %9.2fs %10.0f KB\n' "$name" "$med" "$rss"
done
if [[ ${#names[@]} -gt 1 ]]; then
  # Each run of hyperlink over the run of uriscan just before it.
  ratio=$(awk '$1 == "uriscan" {u = $2} $1 == "hyperlink" {print $2 / u}' "$out" | median)
  printf 'hyperlink / uriscan, median of the %d pairs: %.2fx\n' "$runs" "$ratio"
fi
echo "(medians of $runs runs each, in turns, page cache warm; load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
lruns=${LYCHEE_RUNS:-1}
if [[ -n $lychee && $lruns -gt 0 ]]; then
  cmd="$lychee --offline --include-fragments --no-progress --root-dir $dir $dir"
  hyperfine -N -i --runs "$lruns" --export-csv "$out" -n lychee "$cmd" >/dev/null 2>&1 \
    || die "hyperfine failed on lychee"
  med=$(awk -F, '$1 == "lychee" {print $4}' "$out")
  rss=$( { /usr/bin/time -f '%M' sh -c "$cmd >/dev/null 2>&1" || true; } 2>&1 | tail -1)
  printf '%-10s %9.2fs %10d KB   (%s run)\n' lychee "$med" "$rss" "$lruns"
fi
