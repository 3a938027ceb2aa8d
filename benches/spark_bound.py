"""The bound of benches/spark.sh: the extraction of each Spark job run
alone in one process, on one core, outside Spark, as CPU time (not
wall time: the bench machines are shared). A Spark job's own costs
(tasks, Python workers, Arrow or pickle transfer, Parquet) only add to
both sides, so the ratio here bounds the ratio of the jobs.

    python benches/spark_bound.py FILE.warc.gz [ROUNDS]

Runs the same functions as the jobs (examples/spark/warc_links.py),
each round in turn, and prints the medians.
"""

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples" / "spark"))

import uriscan.arrow  # noqa: E402
import warc_links  # noqa: E402
from warcio.archiveiterator import ArchiveIterator  # noqa: E402

path = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
SAME = ["html:a@href", "html:img@src"]


def read_only():
    """warcio reading every response payload: the floor of the lxml job."""
    n = 0
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f):
            if rec.rec_type == "response":
                n += len(rec.content_stream().read())
    return n


def lxml_job():
    return sum(1 for _ in warc_links.lxml_partition([path]))


def uriscan_same():
    return sum(b.num_rows for b in uriscan.arrow.warc_batches(path, host=True, kinds=SAME))


def uriscan_all():
    return sum(b.num_rows for b in uriscan.arrow.warc_batches(path, host=True))


tasks = {
    "warcio, read only": read_only,
    "warcio + lxml (a@href, img@src)": lxml_job,
    "uriscan (a@href, img@src)": uriscan_same,
    "uriscan (every link)": uriscan_all,
}
times = {k: [] for k in tasks}
rows = {}
for _ in range(rounds):
    for name, f in tasks.items():
        t = time.process_time()
        rows[name] = f()
        times[name].append(time.process_time() - t)

lxml = statistics.median(times["warcio + lxml (a@href, img@src)"])
print(f"{path}, {rounds} rounds, CPU seconds, medians")
print("| extraction, one core | CPU time | rows | lxml / this |")
print("|---|---|---|---|")
for name in tasks:
    m = statistics.median(times[name])
    what = "(bytes)" if name.startswith("warcio, read") else ""
    print(f"| {name} | {m:.2f} s | {rows[name]} {what} | {lxml / m:.2f}x |")
