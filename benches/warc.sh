#!/usr/bin/env bash
# WARC link extraction against decompression alone and against the Python
# pipeline crawlers write (warcio + lxml, a@href and img@src), side by
# side, each on one core. See benches/README.md.
#
# Builds (once, cached under target/warc-bench/) a .warc.gz of at least
# MIN_MB from the shared corpus: each HTML document of html.html and each
# Markdown document of markdown.md a response record with real HTTP
# headers, every tenth behind a 301, one gzip member per record; and a
# venv with warcio and lxml (pip, from PyPI).
#
# Usage: benches/warc.sh
# Environment:
#   ROUNDS=3      rounds (each runs every command once)
#   MIN_MB=200    the size of the .warc.gz
#   CORE=0        the core the commands are pinned to (taskset)
#   SKIP_BUILD=1  do not run cargo build --release
#   NO_PYTHON=1   leave the Python pipeline out
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
die() { echo "warc.sh: $*" >&2; exit 1; }
command -v taskset >/dev/null || die "needs taskset (util-linux)"
# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"

work=$repo/target/warc-bench
mkdir -p "$work"
warc=$work/corpus.warc.gz
min_mb=${MIN_MB:-200}
if [[ ! -s $warc || $(stat -c %s "$warc") -lt $((min_mb * 1000000)) ]]; then
  python3 "$repo/benches/warc/build.py" "$corpus" "$warc.tmp" "$min_mb"
  mv "$warc.tmp" "$warc"
fi
if [[ -z ${NO_PYTHON:-} && ! -x $work/venv/bin/python ]]; then
  python3 -m venv "$work/venv"
  "$work/venv/bin/pip" install --quiet warcio lxml
fi
if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet)
fi
uriscan=$repo/target/release/uriscan

mb_gz=$(echo "$(stat -c %s "$warc") / 1000000" | bc -l)
mb_in=$(echo "$(zcat "$warc" | wc -c) / 1000000" | bc -l)
printf 'input: %s, %.1f MB gzip, %.1f MB uncompressed\n' "$warc" "$mb_gz" "$mb_in"
echo "links: uriscan $("$uriscan" links -o -j 1 "$warc" | wc -l)" \
  "(every link of every kind, header links too)"
cmds=("zcat=zcat $warc" "uriscan=$uriscan links -o -j 1 $warc")
if [[ -z ${NO_PYTHON:-} ]]; then
  echo "links: python $("$work/venv/bin/python" "$repo/benches/warc/python_links.py" "$warc" | wc -l)" \
    "(a@href and img@src)"
  cmds+=("python=$work/venv/bin/python $repo/benches/warc/python_links.py $warc")
fi
echo "cores: $(nproc); each command pinned to core ${CORE:-0}; ${ROUNDS:-3} rounds; medians"
python3 "$repo/benches/warc/rounds.py" "${ROUNDS:-3}" "$mb_in" "$mb_gz" "${cmds[@]}"
echo "(cpu = user + system seconds; MB/s per core of the uncompressed and"
echo " the compressed file by cpu; cpu/zcat 1.30 is the 30% target,"
echo " python's cpu/uriscan the 20x one)"
