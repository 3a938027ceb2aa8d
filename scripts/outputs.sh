#!/usr/bin/env bash
# Writes the output of a fixed set of `uriscan` runs to a directory, one
# file per run (standard output, then standard error and the exit code),
# so that two builds can be compared byte for byte:
#
#   scripts/outputs.sh OLD_BINARY /tmp/before
#   scripts/outputs.sh target/release/uriscan /tmp/after
#   diff -r /tmp/before /tmp/after
#
# The runs cover the scan, `links` and `check` in every output form and
# the WARC reader, on ../shared/corpus, the Rust toolchain's HTML docs
# (when present) and the tests' own data.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$(realpath "$1")
out=$(mkdir -p "$2" && cd "$2" && pwd)
corpus=${CORPUS:-$repo/../shared/corpus}
warcs=$repo/../shared/conformance/warc
docs=$(rustc --print sysroot)/share/doc/rust/html
data=$repo/crates/uriscan/tests/data

run() {
  local name=$1; shift
  local rc=0
  (cd "$repo" && "$bin" "$@") >"$out/$name.out" 2>"$out/$name.err" || rc=$?
  echo "exit $rc" >>"$out/$name.err"
}

run scan-corpus --sort path "$corpus"
run scan-corpus-json --json --sort path "$corpus"
run scan-corpus-count -c --sort path "$corpus"
run scan-corpus-unique -u -o --sort path "$corpus"
run scan-data --sort path "$data"
run links-md -o "$corpus/markdown.md"
run links-md-json --json "$corpus/markdown.md"
run links-html-json --json "$corpus/html.html"
run links-html-o -o "$corpus/html.html"
run links-data-json --json --sort path "$data"
run check-data-human check --color never --no-progress "$data"
run check-data-json check --json --no-progress "$data"
run check-html-json check --json --no-progress "$corpus/html.html"
run check-html-github check --format github --no-progress "$corpus/html.html"
run check-html-sarif check --format sarif --no-progress "$corpus/html.html"
run check-sites-json check --json --no-progress "$corpus/sites"
run check-sites-human check --color never --no-progress "$corpus/sites"
run links-sites-json links --json --sort path "$corpus/sites"
if [ -d "$warcs" ]; then
  while IFS= read -r f; do
    run "warc-$(basename "$(dirname "$f")")-$(basename "$f")" links --json "$f"
  done < <(find "$warcs" -type f ! -name '*.md' | sort)
fi
if [ -d "$docs" ]; then
  for part in std core book; do
    [ -d "$docs/$part" ] || continue
    run "links-docs-$part" links --json --sort path "$docs/$part"
  done
  run check-docs-std check --json --no-progress "$docs/std"
fi
printf 'resolve http://a/b/c/d;p?q\n../g\n//g\n' | (cd "$repo" && "$bin" resolve -b 'http://a/b/c/d;p?q') >"$out/resolve.out" 2>&1 || true
"$bin" parse 'http://u@h:1/p?q#f' >"$out/parse.out" 2>&1 || true
echo "$(ls "$out" | wc -l) files in $out"
