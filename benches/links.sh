#!/usr/bin/env bash
# Times link extraction, whole process, on the shared corpus's Markdown
# and HTML files: `uriscan links -o FILE` against
# `lychee --dump --include-verbatim FILE` (extraction only, no request).
# See benches/README.md.
#
# Usage: benches/links.sh
# Environment:
#   RUNS=20       timed runs per command (hyperfine)
#   CORPUS=DIR    the corpus (default: ../shared/corpus beside the repo)
#   SKIP_BUILD=1  do not run cargo build --release
# Needs hyperfine (apt-get install hyperfine) and lychee
# (cargo install lychee --locked: about 7 minutes on 2 cores).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${RUNS:-20}
die() { echo "links.sh: $*" >&2; exit 1; }
command -v hyperfine >/dev/null || die "needs hyperfine (apt-get install hyperfine)"
lychee=$(command -v lychee || echo "$HOME/.cargo/bin/lychee")
[[ -x $lychee ]] || die "needs lychee (cargo install lychee --locked)"

# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"

if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet)
fi
uriscan=$repo/target/release/uriscan
csv=$(mktemp)
trap 'rm -f "$csv"' EXIT

echo "cores: $(nproc); runs per command: $runs; output through a pipe"
printf '%-12s %8s %10s %10s %9s %8s %8s\n' file MB uriscan lychee 'ly/uris' links ly-links
for f in markdown.md html.html; do
  path=$corpus/$f
  hyperfine -N --output=pipe --warmup 2 --runs "$runs" --export-csv "$csv" \
    -n uriscan "$uriscan links -o $path" \
    -n lychee "$lychee --dump --include-verbatim $path" >/dev/null 2>&1 \
    || die "hyperfine failed on $f"
  u=$(awk -F, '$1 == "uriscan" {print $4}' "$csv")
  l=$(awk -F, '$1 == "lychee" {print $4}' "$csv")
  mb=$(echo "$(stat -c %s "$path") / 1000000" | bc -l)
  printf '%-12s %8.1f %8.1fms %8.1fms %8.2fx %8d %8d\n' "$f" "$mb" \
    "$(echo "$u * 1000" | bc -l)" "$(echo "$l * 1000" | bc -l)" \
    "$(echo "$l / $u" | bc -l)" \
    "$("$uriscan" links -o "$path" | wc -l)" \
    "$("$lychee" --dump --include-verbatim "$path" 2>/dev/null | wc -l)"
done
echo "(medians; ly/uris above 1: uriscan is faster; lychee lists only the"
echo " URLs it would check, uriscan every link with its kind)"
