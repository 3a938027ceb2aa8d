#!/usr/bin/env bash
# Times the whole uriscan process on one file of each kind (the shared
# corpus: prose, Markdown, HTML) against ripgrep with a URL regex, which
# does far less (one scheme, no delimiting, no validation). See
# benches/README.md.
#
# Usage: benches/files.sh
# Environment:
#   RUNS=40       timed runs per command (hyperfine)
#   CORPUS=DIR    the corpus (default: ../shared/corpus beside the repo)
#   SKIP_BUILD=1  do not run cargo build --release
# Needs hyperfine and rg (apt-get install hyperfine ripgrep).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${RUNS:-40}
die() { echo "files.sh: $*" >&2; exit 1; }
command -v hyperfine >/dev/null || die "needs hyperfine (apt-get install hyperfine)"
command -v rg >/dev/null || die "needs rg (apt-get install ripgrep)"

# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"

if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet)
fi
uriscan=$repo/target/release/uriscan
regex='https?://[^\s<>"]+'
csv=$(mktemp)
trap 'rm -f "$csv"' EXIT

echo "cores: $(nproc); runs per command: $runs; output through a pipe"
printf '%-12s %8s %8s %10s %8s %8s\n' file MB uriscan rg 'rg/uris' URIs
for f in prose.txt markdown.md html.html; do
  path=$corpus/$f
  # Output goes to a pipe: rg, like grep, stops at the first match when
  # its output is /dev/null.
  hyperfine -N --output=pipe --warmup 3 --runs "$runs" --export-csv "$csv" \
    -n uriscan "$uriscan -o $path" \
    -n rg "rg -o -a '$regex' $path" >/dev/null 2>&1 \
    || die "hyperfine failed on $f"
  # command,mean,stddev,median,...
  u=$(awk -F, '$1 == "uriscan" {print $4}' "$csv")
  r=$(awk -F, '$1 == "rg" {print $4}' "$csv")
  mb=$(echo "$(stat -c %s "$path") / 1000000" | bc -l)
  printf '%-12s %8.1f %6.2fms %8.2fms %9.2fx %8d\n' "$f" "$mb" \
    "$(echo "$u * 1000" | bc -l)" "$(echo "$r * 1000" | bc -l)" \
    "$(echo "$r / $u" | bc -l)" "$("$uriscan" -c "$path" | cut -d: -f2)"
done
echo "(medians; rg/uris above 1: uriscan is faster)"
