"""uriscan's Python readers of a WARC from its path against from an
open file object (a stream read through `.read`), in paired rounds.

Usage: python python_stream.py ROUNDS FILE...

For each FILE, each round reads it with uriscan.arrow.warc_batches
(Arrow: the reading and parsing dominate, so this is the strict
comparison) and with uriscan.warc_links (a Python object per link),
once from the path and once from `open(path, "rb")`, in alternating
order; prints the medians of CPU time (the process's, so a machine
shared with other work counts less) and of wall time, and the file
object's over the path's.
"""

import statistics
import sys
import time

import uriscan
import uriscan.arrow as ua


def batches(source):
    return sum(b.num_rows for b in ua.warc_batches(source))


def objects(source):
    return sum(1 for _ in uriscan.warc_links(source))


def timed(read, path, stream):
    """(cpu, wall) seconds of one read, and its number of links."""
    cpu, wall = time.process_time(), time.perf_counter()
    if stream:
        with open(path, "rb") as f:
            n = read(f)
    else:
        n = read(path)
    return (time.process_time() - cpu, time.perf_counter() - wall), n


def main():
    rounds, files = int(sys.argv[1]), sys.argv[2:]
    for path in files:
        for name, read in (("warc_batches", batches), ("warc_links", objects)):
            times = {False: [], True: []}
            counts = set()
            for r in range(rounds):
                for stream in (False, True) if r % 2 == 0 else (True, False):
                    t, n = timed(read, path, stream)
                    times[stream].append(t)
                    counts.add(n)
            assert len(counts) == 1, f"{path}: the two readers differ: {counts}"
            cells = []
            for i, what in ((0, "cpu"), (1, "wall")):
                p = statistics.median(t[i] for t in times[False])
                f = statistics.median(t[i] for t in times[True])
                cells.append(f"{what}: path {p:6.3f} s, file object {f:6.3f} s, {f / p:.3f}x")
            print(f"{path.rsplit('/', 1)[-1]:>18} {name:<12} links {counts.pop()}  " + "; ".join(cells))


if __name__ == "__main__":
    main()
