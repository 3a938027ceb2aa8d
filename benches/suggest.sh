#!/usr/bin/env bash
# Times suggestions on their worst case: 20,000 near-miss links (one
# character off) into a page of 20,000 headings, each link broken and
# each wanting the closest anchor. Held against every heading, that is
# 400 million comparisons; see benches/README.md.
#
#   uriscan check DIR     (the tree is built in a temporary directory)
#
# Usage: benches/suggest.sh [N]     N headings and links, 20000 by default
# Environment:
#   RUNS=3        timed runs
#   SKIP_BUILD=1  do not run cargo build --release
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
n=${1:-20000}
runs=${RUNS:-3}
if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet -p uriscan-cli)
fi
uriscan=$repo/target/release/uriscan
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

mkdir "$dir/.git"
awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "## Section %d heading\n\n", i }' \
  > "$dir/page.md"
awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "[s](page.md#section-%d-headin)\n", i }' \
  > "$dir/links.md"

broken=$("$uriscan" check --no-progress "$dir" 2>/dev/null | grep -c "did you mean" || true)
echo "suggest.sh: $n headings, $n near-miss links, $broken suggested"
for ((r = 1; r <= runs; r++)); do
  /usr/bin/time -f "run $r: %e s elapsed, %M KB peak" \
    "$uriscan" check --no-progress "$dir" > /dev/null 2> >(grep '^run' >&2) || true
done
