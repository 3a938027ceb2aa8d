#!/usr/bin/env bash
# The bounds under the two targets of benches/warc.sh, measured:
#
# 1. "Extraction adds at most 30% to decompression": the corpus's two
#    files (what each copy in the bench's .warc.gz holds), gzip'd, timed
#    through zcat; and the bare parse of the same bytes, in process, with
#    no link work at all (cargo bench -p uriscan --features internals --bench links: pulldown-cmark with
#    no handler; for HTML our tokenizer with a sink that only counts start
#    tags, which is what extraction runs, and html5gum with an emitter
#    that does nothing, for comparison). When the
#    bare parse alone costs more than 30% of decompression, no link
#    extractor on these parsers meets the target.
# 2. "20x the Python pipeline": run benches/warc.sh; its zcat row is the
#    floor of any WARC reader, and python's cpu / zcat's cpu is the most
#    any extractor could be faster by. Below 20, the target is beyond it.
#
# Usage: benches/warc/bound.sh   (CORE=0, RUNS=10)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=benches/corpus.sh
source "$repo/benches/corpus.sh"
work=$repo/target/warc-bench
mkdir -p "$work"
for f in html.html markdown.md; do
  [[ -s $work/$f.gz ]] || gzip -6 -c "$corpus/$f" > "$work/$f.gz"
done
echo "== zcat of each corpus file, one core (hyperfine means)"
hyperfine -N --runs "${RUNS:-10}" --warmup 1 --style basic \
  -n "zcat html.html" "taskset -c ${CORE:-0} zcat $work/html.html.gz" \
  -n "zcat markdown.md" "taskset -c ${CORE:-0} zcat $work/markdown.md.gz" 2>&1 \
  | grep -E "^Benchmark|Time \(mean"
echo "== the bare parse of the same bytes, in process (criterion)"
(cd "$repo" && taskset -c "${CORE:-0}" cargo bench --quiet -p uriscan --features internals --bench links -- \
  --warm-up-time 1 --measurement-time 4 "bare") 2>&1 | grep -E "bare|time:"
