#!/usr/bin/env bash
# `check --json` of two builds on the same trees, with every anchor
# style and both Markdown readers: prints each run whose output
# (standard output, standard error, exit status) differs.
#
# Usage: benches/check_same.sh OLD_BINARY NEW_BINARY DIR...
set -uo pipefail
[[ $# -ge 3 ]] || { echo "usage: $0 OLD NEW DIR..." >&2; exit 2; }
old=$1 new=$2
shift 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
runs=0 differ=0
for dir in "$@"; do
  for style in "" github gitlab mdbook mkdocs docusaurus hugo jekyll; do
    for parser in uriscan pulldown; do
      args=(check --json -j 1 --markdown-parser "$parser")
      [[ -n $style ]] && args+=(--anchors "$style")
      for side in old new; do
        bin=$old; [[ $side == new ]] && bin=$new
        (cd "$dir" && "$bin" "${args[@]}" . >"$out/$side.json" 2>"$out/$side.err"
         echo "status $?" >>"$out/$side.err")
      done
      runs=$((runs + 1))
      if ! cmp -s "$out/old.json" "$out/new.json" \
          || ! cmp -s "$out/old.err" "$out/new.err"; then
        differ=$((differ + 1))
        echo "differs: $dir --anchors ${style:-(default)} --markdown-parser $parser"
      fi
    done
  done
done
echo "$runs runs, $differ differ"
[[ $differ -eq 0 ]]
