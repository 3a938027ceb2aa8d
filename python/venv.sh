#!/usr/bin/env bash
# Sets up the Python environment of the tests and benches, on a fresh
# machine too: a virtual environment in target/python-venv with the
# pinned tools of requirements-test.txt, the package built from python/
# and installed by pip (maturin as the build backend), and Java 17 from
# Debian when `java` is missing (pyspark needs it). Prints nothing else
# on standard output than the venv's path, last.
#
# PYTHON picks the interpreter (default python3).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/target/python-venv"
pip() { "$venv/bin/pip" --disable-pip-version-check --quiet "$@"; }

if [ ! -x "$venv/bin/python" ]; then
  echo "== python venv in target/python-venv" >&2
  "${PYTHON:-python3}" -m venv "$venv"
fi
echo "== pip install of the test tools and of ./python" >&2
pip install -r "$root/python/requirements-test.txt" >&2
pip install --force-reinstall --no-deps "$root/python" >&2

if ! command -v java >/dev/null 2>&1; then
  echo "== apt-get install openjdk-17-jre-headless (for pyspark)" >&2
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    openjdk-17-jre-headless >&2
fi
echo "$venv"
