#!/usr/bin/env bash
# The reStructuredText reader against docutils (with Sphinx's roles and
# directives as stand-ins, scripts/rst_oracle.py): the links, ids and
# Sphinx references of each per-rule case (crates/uriscan/tests/data/rst)
# and of every .rst file of the Sphinx tree in ../shared/corpus/sites.
# Prints the agreement; fails when a case disagrees.
#
#   scripts/rst-oracle.sh            # compare
#   scripts/rst-oracle.sh --sphinx   # and the ids against sphinx-build's HTML
#   scripts/rst-oracle.sh --record   # rewrite the cases' .expected.json
#
# With --sphinx, the Sphinx tree is also built by sphinx-build (no
# conf.py of its own: `-C`) into target/rst-sphinx, and our ids (made as
# Sphinx makes them) are compared with the HTML's: a few minutes more.
#
# Installs docutils and Sphinx with pip into target/rst-venv the first
# time (the only step that uses the network).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
venv=target/rst-venv
. scripts/venv.sh
venv_with "$venv" docutils,sphinx docutils sphinx
py="$venv/bin/python"
cases=(crates/uriscan/tests/data/rst/*.rst)
if [ "${1:-}" = "--record" ]; then
  "$py" scripts/rst_oracle.py --record "${cases[@]}"
  exit 0
fi
files=("${cases[@]}")
corpus=../shared/corpus/sites/sphinx-doc
if [ -d "$corpus" ]; then
  while IFS= read -r f; do files+=("$f"); done \
    < <(find "$corpus" -name '*.rst' | sort)
else
  echo "skipped: the corpus ($corpus) is not beside the repository"
fi
cargo build -q -p uriscan --features internals --example rst_facts
ours=$(mktemp)
trap 'rm -f "$ours"' EXIT
"${CARGO_TARGET_DIR:-target}/debug/examples/rst_facts" "${files[@]}" > "$ours"
"$py" scripts/rst_oracle.py --compare "$ours" "${files[@]}"
if [ "${1:-}" = "--sphinx" ] && [ -d "$corpus" ]; then
  out=target/rst-sphinx
  rm -rf "$out"
  "$venv/bin/sphinx-build" -C -q -b html "$corpus/doc" "$out/html" 2> "$out.log" \
    || { echo "sphinx-build failed: see $out.log"; exit 1; }
  "$py" scripts/rst_oracle.py --sphinx-html "$ours" "$corpus/doc" "$out/html"
fi
