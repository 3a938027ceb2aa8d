#!/usr/bin/env bash
# uriscan's Python WARC readers (uriscan.arrow.warc_batches and
# uriscan.warc_links) reading a WARC from its path and from an open file
# object, the file object's `.read` called by the Rust reader: the target
# is the file object within 10% of the path. See benches/README.md.
#
# Builds (once, cached under target/python-stream-bench/) a .warc.gz of
# MIN_MB from the shared corpus with benches/warc/build.py, and the same
# records uncompressed (.warc: no decompression to hide the reading's
# cost); the package as pip builds it (release) by python/venv.sh.
#
# Usage: benches/python_stream.sh
# Environment:
#   ROUNDS=5      paired rounds (medians)
#   MIN_MB=50     the size of the .warc.gz
#   VENV=DIR      a venv with the package already installed (skips venv.sh)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"
venv=${VENV:-$("$repo/python/venv.sh")}

work=$repo/target/python-stream-bench
mkdir -p "$work"
min_mb=${MIN_MB:-50}
warc=$work/corpus-$min_mb.warc.gz
if [[ ! -s $warc ]]; then
  python3 "$repo/benches/warc/build.py" "$corpus" "$warc.tmp" "$min_mb"
  mv "$warc.tmp" "$warc"
fi
plain=${warc%.gz}
if [[ ! -s $plain ]]; then
  zcat "$warc" >"$plain.tmp"
  mv "$plain.tmp" "$plain"
fi
echo "cores: $(nproc); ${ROUNDS:-5} paired rounds; medians of CPU and of wall time"
"$venv/bin/python" "$repo/benches/warc/python_stream.py" "${ROUNDS:-5}" "$warc" "$plain"
