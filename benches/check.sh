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
# Each tool is timed when installed (hyperfine medians), then run once
# more under /usr/bin/time for its peak memory and its count of broken
# links. Output goes to a file: the tools report very different numbers of
# broken links (see benches/README.md for why), and printing them is not
# what is compared.
#
# Usage: benches/check.sh [DIR]
# Environment:
#   RUNS=5        timed runs per command (hyperfine)
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
ly=
if command -v lychee >/dev/null || [[ -x $HOME/.cargo/bin/lychee ]]; then
  ly=$(command -v lychee || echo "$HOME/.cargo/bin/lychee")
fi

echo "cores: $(nproc); $(find "$dir" -name '*.html' | wc -l) HTML files in $dir"
args=()
for i in "${!names[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
hyperfine -N -i --warmup 1 --runs "$runs" --export-csv "$out" "${args[@]}" >/dev/null 2>&1 \
  || die "hyperfine failed"
printf '%-10s %10s %12s\n' tool median 'peak RSS'
for i in "${!names[@]}"; do
  med=$(awk -F, -v n="${names[$i]}" '$1 == n {print $4}' "$out")
  rss=$( { /usr/bin/time -f '%M' sh -c "${cmds[$i]} >/dev/null 2>&1" || true; } 2>&1 | tail -1)
  printf '%-10s %9.2fs %10d KB\n' "${names[$i]}" "$med" "$rss"
done
echo "(medians of $runs runs, page cache warm)"
lruns=${LYCHEE_RUNS:-1}
if [[ -n $ly && $lruns -gt 0 ]]; then
  cmd="$ly --offline --include-fragments --no-progress --root-dir $dir $dir"
  hyperfine -N -i --runs "$lruns" --export-csv "$out" -n lychee "$cmd" >/dev/null 2>&1 \
    || die "hyperfine failed on lychee"
  med=$(awk -F, '$1 == "lychee" {print $4}' "$out")
  rss=$( { /usr/bin/time -f '%M' sh -c "$cmd >/dev/null 2>&1" || true; } 2>&1 | tail -1)
  printf '%-10s %9.2fs %10d KB   (%s run)\n' lychee "$med" "$rss" "$lruns"
fi
