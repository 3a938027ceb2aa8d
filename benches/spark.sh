#!/usr/bin/env bash
# The PySpark job of examples/spark/warc_links.py with uriscan (the Rust
# WARC reader, Arrow batches through mapInArrow) against the same job
# with the Python extraction crawlers write (warcio + lxml, a@href and
# img@src, rows through mapPartitions), in local[2], on WARC files built
# from the shared HTML and Markdown corpus. Each round runs the two jobs
# back to back: uriscan keeping the links lxml takes (a@href, img@src:
# the same rows), uriscan keeping every link, and lxml. The medians of the
# rounds and of the per-round ratios are printed, for the whole
# spark-submit and for the job alone (the time the driver prints around
# the job, without the JVM's start).
#
#   RUNS=5 FILES=2 MB=200 benches/spark.sh
#
# FILES files of MB megabytes each, uncompressed (about a quarter of
# that gzipped): examples/spark/make_warc.py's crawl of the corpus's
# HTML and Markdown pages, repeated; one Spark task each. They are kept
# in target/bench-spark/ for the next run. The environment is
# python/venv.sh's (VENV=DIR to use another one with uriscan installed).
# Then benches/spark_bound.py runs the two extractions outside Spark, on
# one core, on the first file: what bounds the jobs' ratio.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${CORPUS:-$root/../shared/corpus}"
runs="${RUNS:-5}"
files="${FILES:-2}"
mb="${MB:-200}"
venv="${VENV:-$("$root/python/venv.sh")}"
work="$root/target/bench-spark"
mkdir -p "$work"
if ! "$venv/bin/python" -c "import uriscan.arrow as a; a.warc_batches" 2>/dev/null; then
  echo "the installed uriscan has no warc_batches (the Rust WARC reader)" >&2
  exit 1
fi

: > "$work/paths.txt"
for i in $(seq 1 "$files"); do
  f="$work/crawl-$mb-$i.warc.gz"
  if [ ! -s "$f" ]; then
    "$venv/bin/python" "$root/examples/spark/make_warc.py" --corpus "$corpus" \
      --markdown --min-mb "$mb" "$f" >&2
  fi
  echo "$f" >> "$work/paths.txt"
done

# One job: NAME EXTRACTOR [ARGS]; prints "WALL JOB" in seconds.
job() {
  local name="$1" extractor="$2"
  shift 2
  local out="$work/out-$name"
  local start end
  start=$(date +%s.%N)
  PYSPARK_PYTHON="$venv/bin/python" PYSPARK_DRIVER_PYTHON="$venv/bin/python" \
    SPARK_LOCAL_IP=127.0.0.1 "$venv/bin/spark-submit" --master 'local[2]' \
    --driver-memory 2g \
    --conf spark.ui.enabled=false \
    --conf spark.driver.bindAddress=127.0.0.1 \
    --conf spark.driver.host=127.0.0.1 \
    "$root/examples/spark/warc_links.py" --extractor "$extractor" "$@" \
    "$work/paths.txt" "$out" > "$work/log-$name.txt" 2>&1
  end=$(date +%s.%N)
  local t
  t=$(sed -n 's/^warc_links: job time \([0-9.]*\) s$/\1/p' "$work/log-$name.txt")
  echo "$(awk "BEGIN { print $end - $start }") $t"
}

echo "== $files files of $mb MB ($(du -ch "$work"/crawl-"$mb"-*.warc.gz | tail -1 | cut -f1)), local[2], $runs rounds" >&2
: > "$work/rounds.txt"
for r in $(seq 1 "$runs"); do
  # the same links as the lxml job (a@href, img@src), every link, lxml
  s=$(job same uriscan --kinds html:a@href,html:img@src)
  a=$(job all uriscan)
  l=$(job lxml lxml)
  echo "$s $a $l" | tee -a "$work/rounds.txt" >&2
done

rows() {
  "$venv/bin/python" -c "import pyarrow.parquet as pq, sys; print(pq.read_table(sys.argv[1]).num_rows)" "$work/out-$1"
}
echo "rows written: uriscan a@href+img@src $(rows same), uriscan every link $(rows all), lxml $(rows lxml)" >&2

"$venv/bin/python" - "$work/rounds.txt" <<'PY'
import statistics, sys
rounds = [list(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
sw, sj, aw, aj, lw, lj = zip(*rounds)
med = statistics.median
def row(what, u, l):
    r = [y / x for x, y in zip(u, l)]
    print(f"| {what} | {med(u):.1f} s | {med(l):.1f} s | {med(r):.2f}x ({min(r):.2f}-{max(r):.2f}) |")
print("| job, time measured | uriscan | warcio + lxml | lxml / uriscan, median (range) |")
print("|---|---|---|---|")
row("a@href + img@src, job alone", sj, lj)
row("a@href + img@src, whole spark-submit", sw, lw)
row("every link (uriscan), job alone", aj, lj)
row("every link (uriscan), whole spark-submit", aw, lw)
PY

echo "== the bound: each extraction alone, one core, outside Spark" >&2
"$venv/bin/python" "$root/benches/spark_bound.py" "$work/crawl-$mb-1.warc.gz" 3
