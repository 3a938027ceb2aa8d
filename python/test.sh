#!/usr/bin/env bash
# The Python package's tests, on a fresh machine too (a Rust toolchain
# and CPython 3.10+ with pip): makes a virtual environment under
# target/, installs the pinned test tools (requirements-test.txt), builds
# and installs the package from python/ as a user would (pip, maturin as
# the build backend), installs Java 17 from Debian when `java` is
# missing (the Spark jobs need it), and runs pytest over python/tests
# and the Spark jobs' tests in examples/spark/tests.
#
#   python/test.sh [pytest arguments]
#
# PYTHON picks the interpreter (default python3).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/target/python-venv"
pip() { "$venv/bin/pip" --disable-pip-version-check --quiet "$@"; }

if [ ! -x "$venv/bin/python" ]; then
  echo "== python venv in target/python-venv"
  "${PYTHON:-python3}" -m venv "$venv"
fi
echo "== pip install of the test tools and of ./python"
pip install -r "$root/python/requirements-test.txt"
pip install --force-reinstall --no-deps "$root/python"

if ! command -v java >/dev/null 2>&1; then
  echo "== apt-get install openjdk-17-jre-headless (for pyspark)"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    openjdk-17-jre-headless >/dev/null
fi

echo "== pytest"
cd "$root"
# The Spark tests fail, rather than skip, when pyspark or Java is missing.
URISCAN_REQUIRE_SPARK=1 "$venv/bin/pytest" -q -p no:cacheprovider \
  python/tests examples/spark/tests "$@"
