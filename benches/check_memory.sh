#!/usr/bin/env bash
# Peak memory of `check` on a Markdown file of MB megabytes that is one
# line of links (`see [link N](TARGET) `), against the file's size:
#   web      web targets (not checked offline, nothing reported);
#   anchors  `#hN` fragments that are all missing (every link reported).
# Prints, for each form of the report, the peak RSS and its ratio to the
# file's size, and the floor (the same run on a one-link file).
#
# Usage: benches/check_memory.sh [BINARY]
# Environment:
#   MB=50            the file's size in MB (10^6 bytes)
#   FORMS="human"    the report forms (human json github sarif markdown junit)
#   MASSIF=DIR       also run valgrind massif on each file (at MB/10) and
#                    keep `ms_print`'s output in DIR
# Needs GNU time (/usr/bin/time; apt-get install time).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
uriscan=${1:-$repo/target/release/uriscan}
mb=${MB:-50}
die() { echo "check_memory.sh: $*" >&2; exit 1; }
[[ -x /usr/bin/time ]] || die "needs GNU time (apt-get install time)"
[[ -x $uriscan ]] || die "no binary at $uriscan (cargo build --release)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One line of links to TARGET-PREFIX N, up to BYTES bytes.
long_line() {
  awk -v max="$2" -v pre="$1" 'BEGIN {
    for (n = 0; size < max; n++) {
      s = sprintf("see [link %d](%s%d) ", n, pre, n); printf "%s", s; size += length(s)
    }
    print ""
  }'
}
bytes=$((mb * 1000000))
long_line https://example.com/docs/p "$bytes" >"$work/web.md"
long_line '#h' "$bytes" >"$work/anchors.md"
echo 'see [link](https://example.com/)' >"$work/one.md"

# Peak RSS in KiB of `check` with ARGS; the exit status (1: broken links)
# is no failure here.
peak() {
  /usr/bin/time -f '%M' "$uriscan" check "$@" >/dev/null 2>"$work/time" || true
  tail -n 1 "$work/time"
}
form_args() {
  case $1 in
    human) ;;
    json) echo "--json" ;;
    *) echo "--format $1" ;;
  esac
}

printf '%-12s %-9s %12s %9s\n' file form 'peak RSS' 'x file'
for form in ${FORMS:-human}; do
  # shellcheck disable=SC2046
  floor=$(peak $(form_args "$form") "$work/one.md")
  printf '%-12s %-9s %8.1f MiB %9s\n' one.md "$form" \
    "$(echo "$floor / 1024" | bc -l)" -
  for file in web anchors; do
    size=$(stat -c %s "$work/$file.md")
    # shellcheck disable=SC2046
    rss=$(peak $(form_args "$form") "$work/$file.md")
    printf '%-12s %-9s %8.1f MiB %8.1fx\n' "$file.md" "$form" \
      "$(echo "$rss / 1024" | bc -l)" "$(echo "$rss * 1024 / $size" | bc -l)"
  done
done
echo "(one line of $mb MB each; $(grep -o '\](' "$work/anchors.md" | wc -l) links in anchors.md)"

if [[ -n ${MASSIF:-} ]]; then
  command -v valgrind >/dev/null || die "MASSIF needs valgrind"
  mkdir -p "$MASSIF"
  for file in web anchors; do
    pre=https://example.com/docs/p
    [[ $file == anchors ]] && pre='#h'
    long_line "$pre" $((bytes / 10)) >"$work/cut.md"
    # --pages-as-heap: the reader maps large files itself, which plain
    # massif does not see.
    valgrind --tool=massif --pages-as-heap=yes \
      --massif-out-file="$work/massif.out" \
      "$uriscan" check -j 1 "$work/cut.md" >/dev/null 2>&1 || true
    ms_print "$work/massif.out" >"$MASSIF/$file.txt"
    echo "massif: $MASSIF/$file.txt"
  done
fi
