#!/usr/bin/env bash
# Where `uriscan links` spends its instructions on the bench's .warc.gz,
# for hosts without hardware counters: the first MB_CUT MB of whole gzip
# members under callgrind, split by the inclusive cost of the inflate
# (zlib-rs), the record reader, the Markdown and HTML readers, link
# resolution and the output; with gzip -dc of the same cut under
# cachegrind, and both timed (user + system CPU) outside valgrind.
# Run benches/warc.sh first: it builds the file and the release binary.
#
# ARGS are given to `uriscan links` (ARGS=--url-standard: the URL
# Standard mode, whose `url` crate parse is then a part of its own;
# ARGS="--markdown-parser pulldown": pulldown-cmark instead of our
# Markdown reader, the default).
#
# Usage: benches/warc/profile.sh   (MB_CUT=10, ARGS=)
set -euo pipefail
# shellcheck source=benches/warc/built.sh
. "$(dirname "${BASH_SOURCE[0]}")/built.sh"
cut=$work/cut.warc.gz
python3 - "$warc" "$cut" "$((${MB_CUT:-10} * 1000000))" <<'PY'
import sys, zlib
src, dst, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(src, "rb").read(limit + 4_000_000)
pos = 0
while pos < limit:  # whole members only
    d = zlib.decompressobj(31)
    d.decompress(data[pos:])
    pos = len(data) - len(d.unused_data)
open(dst, "wb").write(data[:pos])
PY
echo "cut: $(stat -c %s "$cut") bytes gzip, $(zcat "$cut" | wc -c) bytes of records"
cpu() { /usr/bin/time -f %U+%S "$@" 2>&1 >/dev/null | tail -1 | bc; }
# shellcheck disable=SC2086 # ARGS is split into arguments on purpose
echo "cpu s: gzip -dc $(cpu gzip -dc "$cut"), uriscan $(cpu "$uriscan" links -o -j 1 ${ARGS:-} "$cut")"
valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
  gzip -dc "$cut" 2>&1 >/dev/null | grep -E "I +refs" | sed 's/.*I/gzip -dc: I/'
out=$work/callgrind.out
# shellcheck disable=SC2086
valgrind --tool=callgrind --callgrind-out-file="$out" \
  "$uriscan" links -o -j 1 ${ARGS:-} "$cut" >/dev/null 2>&1
callgrind_annotate --inclusive=yes "$out" 2>/dev/null | awk '
  /PROGRAM TOTALS/ { total = $1 }
  { gsub(",", "", $1) }
  /zlib_rs::inflate::inflate \[/ { part["inflate (zlib-rs)"] = $1 }
  /WarcReader<R>::next_record \[/ { part["record reader (with inflate)"] = $1 }
  /read_markdown \[/ { part["Markdown reader"] = $1 }
  /url::ParseOptions::parse \[/ { part["URL Standard parse (url crate)"] = $1 }
  /LinkExtractor>::read_html \[/ { part["HTML reader"] = $1 }
  # Inlined into the readers: counted within them too.
  /Resolver::resolve_into$/ && $1 + 0 > part["link resolution (in the readers)"] + 0 {
    part["link resolution (in the readers)"] = $1 }
  /Linker::warc::\{\{closure\}\} \[/ { part["output (filter, format)"] = $1 }
  END {
    gsub(",", "", total); print "uriscan: I refs " total
    for (p in part) printf "  %-34s %6.1f%%  %d\n", p, 100 * part[p] / total, part[p]
  }'
