#!/usr/bin/env bash
# The MyST reader against myst-parser under Sphinx (scripts/myst_oracle.py):
# the links, labels and ids of each per-rule case
# (crates/uriscan/tests/data/myst/*.md, and myst-extensions/*.md with the
# extensions its _conf.py enables), each directory read by Sphinx as one
# project.
# Then the Sphinx project of crates/uriscan/tests/data/myst-project (rst
# and MyST mixed): the references sphinx-build warns of against those
# `uriscan check` reports broken.
# Prints the agreement; fails when a case or the project disagrees.
#
#   scripts/myst-oracle.sh            # compare
#   scripts/myst-oracle.sh --record   # rewrite the cases' .expected.json
#
# Installs docutils, Sphinx, myst-parser and linkify-it-py (for the
# linkify extension) with pip into
# target/myst-venv the first time (the only step that uses the network).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
venv=target/myst-venv
. scripts/venv.sh
venv_with "$venv" myst_parser,sphinx,linkify_it docutils sphinx myst-parser linkify-it-py
py="$venv/bin/python"
cases=()
for f in crates/uriscan/tests/data/myst/*.md crates/uriscan/tests/data/myst-extensions/*.md; do
  case "$(basename "$f")" in _*) ;; *) cases+=("$f") ;; esac
done
if [ "${1:-}" = "--record" ]; then
  "$py" scripts/myst_oracle.py --record "${cases[@]}"
  exit 0
fi
cargo build -q -p uriscan --features internals --example rst_facts
ours=$(mktemp)
trap 'rm -f "$ours"' EXIT
"${CARGO_TARGET_DIR:-target}/debug/examples/rst_facts" "${cases[@]}" > "$ours"
"$py" scripts/myst_oracle.py --compare "$ours" "${cases[@]}"
cargo build -q -p uriscan-cli
project=crates/uriscan/tests/data/myst-project
uriscan=$(cd "${CARGO_TARGET_DIR:-target}/debug" && pwd)/uriscan
(cd "$project" && "$uriscan" check --json . > "$ours" || true)
"$py" scripts/myst_oracle.py --project "$project" "$ours"
