"""Times commands side by side in rounds (each round runs every command
once, in turn, so that drift on a shared host hits all alike), each
pinned to one core with taskset, output to /dev/null. Prints, per
command, the median wall and CPU (user + system) seconds, per-core MB/s of
the uncompressed and compressed input by CPU time, and the median of the
per-round CPU ratios to the first and to the second command.

Usage: python3 rounds.py ROUNDS MB_IN MB_GZ NAME=CMD [NAME=CMD ...]
"""

import os
import resource
import shlex
import statistics
import subprocess
import sys
import time

rounds = int(sys.argv[1])
mb_in, mb_gz = float(sys.argv[2]), float(sys.argv[3])
cmds = [a.split("=", 1) for a in sys.argv[4:]]
core = os.environ.get("CORE", "0")
wall = {n: [] for n, _ in cmds}
cpu = {n: [] for n, _ in cmds}
for r in range(rounds):
    for name, cmd in cmds:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        with open(os.devnull, "wb") as null:
            subprocess.run(["taskset", "-c", core] + shlex.split(cmd),
                           stdout=null, check=True)
        w = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        c = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        wall[name].append(w)
        cpu[name].append(c)
        print(f"  round {r + 1} {name}: wall {w:.2f} s, cpu {c:.2f} s",
              file=sys.stderr, flush=True)
first = cmds[0][0]
second = cmds[min(1, len(cmds) - 1)][0]


def ratio(name, to):
    """The median of the per-round CPU ratios, and their range."""
    r = [c / b for c, b in zip(cpu[name], cpu[to])]
    return f"{statistics.median(r):7.3f} ({min(r):.3f}-{max(r):.3f})"


print(f"{'command':<10} {'wall s':>8} {'cpu s':>8} {'MB/s':>8} {'gz MB/s':>8} "
      f"{'cpu/' + first:>23} {'cpu/' + second:>23}")
for name, _ in cmds:
    mw, mc = statistics.median(wall[name]), statistics.median(cpu[name])
    print(f"{name:<10} {mw:8.2f} {mc:8.2f} {mb_in / mc:8.1f} {mb_gz / mc:8.1f} "
          f"{ratio(name, first):>23} {ratio(name, second):>23}")
