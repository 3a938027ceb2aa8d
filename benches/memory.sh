#!/usr/bin/env bash
# Peak memory of the streaming scanner on 1 GB of input, through the
# whole CLI process reading standard input (so the figure includes the
# binary, its buffers and its output buffer). The issue's bound: 16 MiB.
#
# Then documents read whole: a Markdown file of LONG_MB MB on one line,
# all links (`see [link N](TARGET) `), through `links -o` and `check`,
# with web targets (not checked offline) and with `#hN` anchors that are
# all missing (every link reported). Prints peak RSS, seconds, links and
# bytes per link over the process's floor (its RSS on a one-link file).
#
# Usage: benches/memory.sh
# Environment:
#   GB=1          input size in GB (10^9 bytes)
#   CORPUS=DIR    the corpus (default: ../shared/corpus beside the repo)
#   SKIP_BUILD=1  do not run cargo build --release
#   STREAM=0      skip the 1 GB streams; LONG=0 skip the long line
#   LONG_MB=50    the long line's size in MB
# Needs GNU time (/usr/bin/time; apt-get install time).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
gb=${GB:-1}
bytes=$((gb * 1000000000))
die() { echo "memory.sh: $*" >&2; exit 1; }
[[ -x /usr/bin/time ]] || die "needs GNU time (apt-get install time)"

# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"

if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet)
fi
uriscan=$repo/target/release/uriscan

# The inputs, generated into the pipe (nothing on disk).
corpus_text() {
  # `|| return` ends the loop once head has all it wants and the pipe
  # is closed.
  while true; do
    cat "$corpus/prose.txt" "$corpus/markdown.md" "$corpus/html.html" \
      || return 0
  done | head -c "$bytes"
}
# One line with no whitespace: a run far over MAX_URI_LEN.
one_line() { yes 'http://a.example/b' | tr -d '\n' | head -c "$bytes"; }
# `<` with no `>`: every candidate looks ahead for its `>`.
open_angles() { yes '<http://a.example/b ' | tr -d '\n' | head -c "$bytes"; }

# The generators end on SIGPIPE, and uriscan exits 1 when it finds
# nothing: neither is a failure here.
set +e +o pipefail
if [[ ${STREAM:-1} != 0 ]]; then
printf '%-14s %-8s %10s %8s %10s\n' input mode 'peak RSS' seconds matches
for input in corpus_text one_line open_angles; do
  for mode in -o --json; do
    out=$(mktemp)
    # GNU time writes its line to stderr after the command's own output.
    stats=$({ $input | /usr/bin/time -f '%M %e' "$uriscan" "$mode" - \
      | wc -l >"$out"; } 2>&1 | tail -n 1)
    read -r rss secs <<<"$stats"
    printf '%-14s %-8s %7.1f MiB %8s %10s\n' "$input" "$mode" \
      "$(echo "$rss / 1024" | bc -l)" "$secs" "$(cat "$out")"
    rm -f "$out"
  done
done
echo "($gb GB each, read from standard input)"
fi
[[ ${LONG:-1} == 0 ]] && exit 0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
long_mb=${LONG_MB:-50}
# One line of links to TARGET-PREFIX N, LONG_MB MB.
long_line() {
  awk -v max=$((long_mb * 1000000)) -v pre="$1" 'BEGIN {
    for (n = 0; size < max; n++) {
      s = sprintf("see [link %d](%s%d) ", n, pre, n); printf "%s", s; size += length(s)
    }
    print ""
  }'
}
long_line https://example.com/docs/p >"$work/web.md"
long_line '#h' >"$work/anchors.md"
echo 'see [link](https://example.com/)' >"$work/one.md"
peak() { /usr/bin/time -f '%M %e' "$uriscan" "$@" >/dev/null 2>"$work/time" || true
  tail -n 1 "$work/time"; }
printf '%-12s %-8s %10s %8s %9s %10s\n' file command 'peak RSS' seconds links 'B/link'
for file in web anchors; do
  links=$(grep -o '\](' "$work/$file.md" | wc -l)
  for cmd in links check; do
    args=("$cmd"); [[ $cmd == links ]] && args+=(-o)
    read -r floor _ <<<"$(peak "${args[@]}" "$work/one.md")"
    read -r rss secs <<<"$(peak "${args[@]}" "$work/$file.md")"
    printf '%-12s %-8s %6.1f MiB %8s %9d %10.0f\n' "$file.md" "$cmd" \
      "$(echo "$rss / 1024" | bc -l)" "$secs" "$links" \
      "$(echo "($rss - $floor) * 1024 / $links" | bc -l)"
  done
done
echo "(one line of $long_mb MB each)"
