#!/usr/bin/env bash
# Two builds of uriscan side by side on the same commands: the scan, links
# and check on the shared corpus and on the Rust docs, both builds of each
# command timed in one hyperfine run. Prints each command's medians and
# the ratio NEW/OLD; for checking that a change kept the speed. Run it on
# a quiet machine: a ratio is only as good as the load allows.
#
#   benches/versus.sh OLD_BINARY NEW_BINARY
#
# Environment: RUNS (default 10), CORPUS (default ../shared/corpus).
# Needs hyperfine and python3.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
old=$(realpath "$1")
new=$(realpath "$2")
runs=${RUNS:-10}
corpus=${CORPUS:-$repo/../shared/corpus}
docs=$(rustc --print sysroot)/share/doc/rust/html
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cases=(
  "scan:-o --sort path $corpus"
  "links-md:links -o $corpus/markdown.md"
  "links-html:links -o $corpus/html.html"
  "links-html-json:links --json $corpus/html.html"
  "check-html:check --json --no-progress $corpus/html.html"
)
if [ -d "$docs/std" ]; then
  cases+=("links-std:links -o $docs/std" "check-core:check --no-progress $docs/core")
fi

printf '%-16s %10s %10s %8s\n' case old_ms new_ms new/old
for c in "${cases[@]}"; do
  name=${c%%:*}
  args=${c#*:}
  hyperfine -N -i -w 2 -r "$runs" --export-json "$out/$name.json" \
    "$old $args" "$new $args" >/dev/null 2>&1
  python3 - "$out/$name.json" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
a, b = (x["median"] * 1000 for x in r)
print(f"{sys.argv[2]:<16} {a:10.1f} {b:10.1f} {b / a:8.3f}")
PY
done
