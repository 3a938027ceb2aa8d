#!/usr/bin/env bash
# The bound the Markdown records put under warc.sh's target (`links` at
# most 1.3x zcat, whole process), measured side by side in paired rounds
# (benches/warc/rounds.py, one core, CPU medians):
#
#   zcat       zcat of the bench's .warc.gz
#   uriscan    uriscan links -o -j 1 on it (our Markdown reader, the default)
#   pulldown   the same with --markdown-parser pulldown
#   unread     uriscan links -o -j 1 on a copy whose Markdown records are
#              not read (benches/warc/unread_markdown.py): the record
#              reader, the inflate of every record, the HTML records and
#              the output, everything but the Markdown reader
#   read, parse
#              the floor example (crates/uriscan-cli/examples/links_floor.rs)
#              on the Markdown payloads of the archive's first copy of the
#              corpus, one file each (the archive holds them COPIES times),
#              in one process, REPEAT times over (so that the process's
#              start and first page faults weigh little): the files read;
#              read and each parsed by pulldown-cmark with nothing kept
#
# bound = unread + COPIES x (parse - read): what any extractor on that
# Markdown parser spends at least. Above 1.3x zcat, the target is beyond
# that parser, whatever the rest does.
#
# Run benches/warc.sh first (it builds the archive and the release binary).
# Usage: benches/warc/markdown_bound.sh   (ROUNDS=3, REPEAT=10, CORE=0, SKIP_BUILD=1)
set -euo pipefail
# shellcheck source=benches/warc/built.sh
. "$(dirname "${BASH_SOURCE[0]}")/built.sh"
if [[ -z ${SKIP_BUILD:-} ]]; then
  (cd "$repo" && cargo build --release --quiet -p uriscan-cli --features internals --example links_floor)
fi
floor=$repo/target/release/examples/links_floor
unread=$work/unread-markdown.warc.gz
docs=$work/markdown-docs
if [[ ! -s $unread || $unread -ot $warc || ! -d $docs ]]; then
  rm -rf "$docs" && mkdir -p "$docs"
  python3 "$repo/benches/warc/unread_markdown.py" "$warc" "$unread.tmp" "$docs" | tee "$work/unread-markdown.txt"
  mv "$unread.tmp" "$unread"
fi
md_bytes=$(grep -oE '[0-9]+ bytes of Markdown payloads' "$work/unread-markdown.txt" | cut -d' ' -f1)
repeat=${REPEAT:-10}
copies=$(echo "$md_bytes / $(cat "$docs"/*.md | wc -c)" | bc -l)
mb_gz=$(echo "$(stat -c %s "$warc") / 1000000" | bc -l)
mb_in=$(echo "$(zcat "$warc" | wc -c) / 1000000" | bc -l)
printf 'Markdown payloads: %d bytes, %.2f copies of the %d in %s\n' \
  "$md_bytes" "$copies" "$(find "$docs" -name '*.md' | wc -l)" "$docs"
md_files=$(for _ in $(seq "$repeat"); do printf '%s ' "$docs"/*.md; done)
table=$(mktemp)
trap 'rm -f "$table"' EXIT
python3 "$repo/benches/warc/rounds.py" "${ROUNDS:-3}" "$mb_in" "$mb_gz" \
  "zcat=zcat $warc" \
  "uriscan=$uriscan links -o -j 1 $warc" \
  "pulldown=$uriscan links -o -j 1 --markdown-parser pulldown $warc" \
  "unread=$uriscan links -o -j 1 $unread" \
  "read=$floor read $md_files" \
  "parse=$floor parse $md_files" | tee "$table"
python3 - "$table" "$(echo "$copies / $repeat" | bc -l)" <<'PY'
import sys
cpu = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) > 2 and f[0] != "command":
        cpu[f[0]] = float(f[2])
copies = float(sys.argv[2])  # of the floor rows' REPEAT readings
zcat = cpu["zcat"]
print(f"unread / zcat: {cpu['unread'] / zcat:.2f}  (everything but the Markdown reader)")
md = copies * (cpu["parse"] - cpu["read"])
bound = cpu["unread"] + md
print(f"bound with pulldown-cmark's bare parse: {cpu['unread']:.2f} + {md:.2f} s"
      f" = {bound:.2f} s, {bound / zcat:.2f}x zcat")
print(f"left for any Markdown reader under 1.3x zcat: {1.3 * zcat - cpu['unread']:.2f} s")
print(f"uriscan / zcat {cpu['uriscan'] / zcat:.2f}, with pulldown-cmark {cpu['pulldown'] / zcat:.2f}"
      " (medians of CPU; rounds.py's columns give the per-round ratios)")
PY
