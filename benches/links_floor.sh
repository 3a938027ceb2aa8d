#!/usr/bin/env bash
# What the whole-process targets of `uriscan links` leave, measured: on
# each sample of the shared corpus, one run of hyperfine times, side by
# side, the steps any extractor on the same parts must take (the file
# read; read and parsed with nothing kept; every link extracted and
# resolved, nothing printed: crates/uriscan-cli/examples/links_floor.rs), `uriscan links -o`,
# and `lychee --dump --include-verbatim`. It prints each median, lychee's
# time over it, and the target's budget (lychee's time over 10 for
# HTML, over 5 for Markdown): a step above the budget puts the target
# beyond reach of anything built on that step.
#
# Usage: benches/links_floor.sh
# Environment:
#   RUNS=20       timed runs per command (hyperfine)
#   CORPUS=DIR    the corpus (default: ../shared/corpus beside the repo)
#   SKIP_BUILD=1  do not run cargo build --release
# Needs hyperfine (apt-get install hyperfine) and lychee
# (cargo install lychee --locked).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${RUNS:-20}
die() { echo "links_floor.sh: $*" >&2; exit 1; }
command -v hyperfine >/dev/null || die "needs hyperfine (apt-get install hyperfine)"
# shellcheck source=benches/lychee.sh
source "$repo/benches/lychee.sh"
[[ -n $lychee ]] || die "needs lychee (cargo install lychee --locked)"

# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"

if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet -p uriscan-cli --features internals --bin uriscan --example links_floor)
fi
uriscan=$repo/target/release/uriscan
floor=$repo/target/release/examples/links_floor
csv=$(mktemp)
trap 'rm -f "$csv"' EXIT

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; $(git -C "$repo" rev-parse --short HEAD)"
for spec in "html.html 10" "markdown.md 5"; do
  read -r name target <<<"$spec"
  file=$corpus/$name
  [[ -f $file ]] || die "no $file (CORPUS=DIR)"
  hyperfine -N --output=pipe --warmup 3 --runs "$runs" --export-csv "$csv" \
    -n read "$floor read $file" \
    -n parse "$floor parse $file" \
    -n extract "$floor extract $file" \
    -n "links -o" "$uriscan links -o $file" \
    -n lychee "$lychee --dump --include-verbatim $file" >/dev/null 2>&1 \
    || die "hyperfine failed on $file"
  echo
  echo "## $name: target ${target}x lychee"
  awk -F, -v target="$target" '
    NR > 1 { name[NR] = $1; median[NR] = $4 * 1000; if ($1 == "lychee") l = $4 * 1000 }
    END {
      budget = l / target
      printf "| step | median ms | lychee / step | within %.1f ms (%dx)? |\n", budget, target
      printf "|---|---|---|---|\n"
      for (i = 2; i <= NR; i++) {
        if (name[i] == "lychee") continue
        printf "| %s | %.1f | %.2fx | %s |\n", name[i], median[i], l / median[i], (median[i] <= budget ? "yes" : "no")
      }
      printf "| lychee | %.1f | 1 | |\n", l
    }' "$csv"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
