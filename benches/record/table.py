#!/usr/bin/env python3
"""Prints the performance record (benches/record/*.json) as tables.

Each JSON file holds one session's measurements on one machine: its
date, host and machine, and entries with a title, the commits measured,
the commands run, the tables of figures and the notes that explain them.

    benches/record/table.py                  every entry, oldest first
    benches/record/table.py --grep warc      entries whose title or commands match
    benches/record/table.py --host zen4 --date 2026-11-26 --notes
    benches/record/table.py --list           one line per entry
"""

import argparse
import json
import pathlib
import re
import signal
import textwrap

RECORD = pathlib.Path(__file__).resolve().parent


def sessions():
    for path in sorted(RECORD.glob("*.json")):
        yield json.loads(path.read_text())


def print_table(table):
    rows = [table["columns"], *table["rows"]]
    width = max(len(row) for row in rows)
    rows = [row + [""] * (width - len(row)) for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(width)]
    for n, row in enumerate(rows):
        print("  " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        if n == 0:
            print("  " + "-+-".join("-" * w for w in widths))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", help="only this host (zen5, intel-spr, zen3, zen4)")
    ap.add_argument("--date", help="only this date (YYYY-MM-DD)")
    ap.add_argument("--grep", help="only entries whose title or commands match this regex")
    ap.add_argument("--notes", action="store_true", help="print each entry's notes too")
    ap.add_argument("--list", action="store_true", help="one line per entry, no tables")
    args = ap.parse_args()
    pattern = re.compile(args.grep, re.I) if args.grep else None
    for session in sessions():
        if args.host and session["host"] != args.host:
            continue
        if args.date and session["date"] != args.date:
            continue
        for entry in session["entries"]:
            haystack = " ".join([entry["title"], *entry["commands"]])
            if pattern and not pattern.search(haystack):
                continue
            commits = ", ".join(entry.get("commits", [])[:4]) or "-"
            head = f"{session['date']} {session['host']:9} [{commits}] {entry['title']}"
            print(head)
            if args.list:
                continue
            for command in entry["commands"]:
                print(f"  $ {command}")
            for table in entry["tables"]:
                print_table(table)
            if args.notes and entry["notes"]:
                for para in entry["notes"].split("\n\n"):
                    print(textwrap.indent(textwrap.fill(" ".join(para.split()), 76), "  > "))
            print()


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quiet when piped into head
    main()
