#!/usr/bin/env bash
# The Python package's tests, on a fresh machine too (a Rust toolchain
# and CPython 3.10+ with pip): python/venv.sh makes the environment
# (pinned test tools, the package built by pip from python/, Java 17
# from Debian when missing), then pytest runs python/tests and the Spark
# jobs' tests in examples/spark/tests.
#
#   python/test.sh [pytest arguments]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$("$root/python/venv.sh")"

echo "== pytest"
cd "$root"
# The Spark tests fail, rather than skip, when pyspark or Java is missing.
URISCAN_REQUIRE_SPARK=1 "$venv/bin/pytest" -q -p no:cacheprovider \
  python/tests examples/spark/tests "$@"
