#!/usr/bin/env python3
"""Times commands in paired rounds by the CPU time each process used
(user + system, from wait4's rusage), which another job's load on the
machine barely moves, and by wall time. Each round runs every command
once, in an order that alternates from round to round; output goes to a
pipe that is read and thrown away.

    paired.py ROUNDS NAME=COMMAND... -- FILE...

Each command is run on each FILE (appended as its last argument). Prints,
per file, each command's medians and each command's per-round ratio to
the first one (median and range).
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def run(argv):
    """(user, sys, wall) seconds of one run of argv, output discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    while proc.stdout.read(1 << 20):
        pass
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1):
        sys.exit(f"{argv} exited with {proc.returncode}")
    return ru.ru_utime, ru.ru_stime, wall


def main():
    args = sys.argv[1:]
    rounds = int(args.pop(0))
    sep = args.index("--")
    cmds = [a.split("=", 1) for a in args[:sep]]
    files = args[sep + 1:]
    print(f"{'file':<14} {'command':<8} {'user ms':>8} {'sys ms':>7}"
          f" {'cpu ms':>7} {'wall ms':>8} {'cpu/first':>22}")
    for f in files:
        times = {name: [] for name, _ in cmds}
        for r in range(rounds):
            order = cmds if r % 2 == 0 else cmds[::-1]
            for name, cmd in order:
                times[name].append(run(shlex.split(cmd) + [f]))
        first = times[cmds[0][0]]
        for name, _ in cmds:
            t = times[name]
            med = [statistics.median(x[i] for x in t) * 1000
                   for i in range(3)]
            ratios = [(a[0] + a[1]) / (b[0] + b[1])
                      for a, b in zip(t, first)]
            ratio = (f"{statistics.median(ratios):.3f}"
                     f" [{min(ratios):.3f}, {max(ratios):.3f}]")
            cpu = statistics.median(x[0] + x[1] for x in t) * 1000
            print(f"{os.path.basename(f):<14} {name:<8} {med[0]:8.1f}"
                  f" {med[1]:7.1f} {cpu:7.1f} {med[2]:8.1f} {ratio:>22}")


main()
