#!/usr/bin/env bash
# A Sphinx project with broken references planted
# (crates/uriscan/tests/data/sphinx-broken: `:doc:`, `:ref:`, images, a
# figure, an include, a toctree entry, a download, `:term:`), checked by
# `sphinx-build -n -W --keep-going` and by `uriscan check`: both must
# report the same broken references (scripts/sphinx_broken.py; a known
# difference is listed there). About 5 s once Sphinx is installed.
#
#   scripts/sphinx-broken.sh
#
# Installs docutils and Sphinx with pip into target/myst-venv (shared
# with scripts/myst-oracle.sh) the first time: the only step that uses
# the network.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
venv=target/myst-venv
. scripts/venv.sh
venv_with "$venv" myst_parser,sphinx docutils sphinx myst-parser
project=crates/uriscan/tests/data/sphinx-broken
cargo build -q -p uriscan-cli
uriscan=$(cd "${CARGO_TARGET_DIR:-target}/debug" && pwd)/uriscan
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# -W turns the warnings into a failure: expected, they are the point.
"$venv/bin/sphinx-build" -n -W --keep-going -b dummy -q "$project" "$work/out" \
    2> "$work/warnings" || true
(cd "$project" && "$uriscan" check --json . > "$work/check.jsonl" || true)
"$venv/bin/python" scripts/sphinx_broken.py "$work/warnings" "$work/check.jsonl" "$project"
