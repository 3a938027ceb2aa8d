"""The broken references sphinx-build finds in a Sphinx project against
those `uriscan check --json` reports, by file and name.

    python sphinx_broken.py SPHINX_WARNINGS CHECK.jsonl SRCDIR

SPHINX_WARNINGS is what `sphinx-build -n -W --keep-going` wrote on
standard error; CHECK.jsonl is `uriscan check --json SRCDIR`. A
reference is its file (relative to SRCDIR) and the last segment of the
name it gives, without a source suffix. Prints each difference and the
agreement; fails on a difference that KNOWN does not list.
"""

import json
import os
import re
import sys

# What sphinx-build says of a broken reference, and where its name is.
WARNINGS = [
    r"toctree contains reference to nonexisting document '(?P<name>[^']+)'",
    r"unknown document: '(?P<name>[^']+)'",
    r"undefined label: '(?P<name>[^']+)'",
    r"term not in glossary: '(?P<name>[^']+)'",
    r"image file not readable: (?P<name>\S+)",
    r"download file not readable: (?P<name>\S+)",
    r"Problems with \"include\" directive path:\s*\n\S*Error: \[Errno 2\] No such file or directory: '(?P<name>[^']+)'",
]
LINE = re.compile(r"^(?P<file>[^\n:]+):\d+: (?:WARNING|ERROR|SEVERE|CRITICAL): ", re.M)

# Where we knowingly differ (none now).
KNOWN = set()


def key(name):
    last = name.rstrip("/").rsplit("/", 1)[-1]
    for suffix in (".rst", ".md"):
        last = last.removesuffix(suffix)
    return last.lower()


def theirs(text, srcdir):
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    found = set()
    starts = [m for m in LINE.finditer(text)]
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        body = text[m.end():end]
        for w in WARNINGS:
            hit = re.match(w, body)
            if hit:
                rel = os.path.relpath(m["file"], srcdir)
                found.add((os.path.normpath(rel), key(hit["name"])))
                break
    return found


def ours(path, srcdir):
    found = set()
    with open(path) as f:
        for line in f:
            row = json.loads(line)
            if row.get("status") != "broken":
                continue
            link = row["link"].split("#", 1)[0] or row["link"]
            rel = os.path.relpath(os.path.join(srcdir, row["path"]), srcdir)
            found.add((os.path.normpath(rel), key(link)))
    return found


def main(warnings_path, check_path, srcdir):
    with open(warnings_path) as f:
        t = theirs(f.read(), os.path.abspath(srcdir))
    o = ours(check_path, srcdir)
    for miss in sorted(t - o):
        print(f"DIFF only sphinx-build: {miss}" + (" (known)" if miss in KNOWN else ""))
    for extra in sorted(o - t):
        print(f"DIFF only uriscan: {extra}")
    print(f"sphinx-broken: {len(t & o)} broken references agree, "
          f"{len(t - o)} only sphinx-build's, {len(o - t)} only uriscan's")
    return 0 if (t - o) <= KNOWN and not (o - t) else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
