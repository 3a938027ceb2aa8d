#!/usr/bin/env bash
# Counts the library's public API as rustdoc shows it: items (the entries
# of all.html), modules, and the inherent methods, fields, variants and
# associated constants on each item's page (trait implementations left
# out), per top-level module. Hidden items (`internals`) are not counted.
#
#   scripts/public-items.sh [DOC_DIR]
#
# With no DOC_DIR it builds the docs with every public feature first.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${1:-}
if [ -z "$dir" ]; then
  (cd "$repo" && cargo doc -q -p uriscan --no-deps \
    --features walk,read,check,remote,warc)
  dir=${CARGO_TARGET_DIR:-$repo/target}/doc/uriscan
fi
cd "$dir"
total=0
printf '%-10s %6s %8s %8s %6s\n' module items modules members total
for m in syntax scanning links checking warc walking reading; do
  [ -d "$m" ] || continue
  items=$({ grep -o "href=\"$m/[^\"]*\"" all.html || true; } |
    sed 's/href="//;s/"//' | sort -u)
  n_items=$(printf '%s\n' "$items" | grep -c . || true)
  mods=$(find "$m" -name index.html | wc -l)
  members=0
  for f in $items; do
    n=$(sed -n '1,/id="trait-implementations"/p' "$f" |
      { grep -o 'id="\(method\|structfield\|variant\|associatedconstant\)\.[^"]*"' || true; } |
      sort -u | wc -l)
    members=$((members + n))
  done
  sum=$((n_items + mods + members))
  total=$((total + sum))
  printf '%-10s %6s %8s %8s %6s\n' "$m" "$n_items" "$mods" "$members" "$sum"
done
root=$(grep -o 'href="[a-z]*\.[A-Za-z_]*\.html"' all.html | sort -u | wc -l)
printf '%-10s %6s\n' "(root)" "$root"
echo "total $((total + root))"
