#!/usr/bin/env python3
"""Writes crates/uriscan/src/links/commonmark/punctuation.rs: the characters
outside ASCII that pulldown-cmark counts as punctuation for emphasis (its
src/puncttable.rs, MIT), as ranges, so that ours flanks as the oracle does.

    python3 scripts/commonmark-punctuation.py PATH/TO/pulldown-cmark-X.Y.Z/src/puncttable.rs
"""
import re
import sys

src = open(sys.argv[1], encoding="utf-8").read()


def array(name):
    body = re.search(r"const " + name + r": \[u16; \d+\] = \[(.*?)\];", src, re.S)
    body = re.sub(r"//.*", "", body.group(1))
    return [int(x, 0) for x in re.findall(r"0x[0-9a-fA-F]+|\b\d+\b", body)]


masks = dict(zip(array("PUNCT_TAB"), array("PUNCT_MASKS")))
limit = int(re.search(r"if cp > (0x[0-9A-Fa-f]+)", src).group(1), 16)


def is_punct(cp):
    m = masks.get(cp // 16)
    return cp <= limit and m is not None and (m >> (cp & 15)) & 1 == 1


ranges, start = [], None
for cp in range(0x80, limit + 2):
    if is_punct(cp) and start is None:
        start = cp
    elif not is_punct(cp) and start is not None:
        ranges.append((start, cp - 1))
        start = None

out = [
    "//! The characters outside ASCII that pulldown-cmark counts as",
    "//! punctuation where emphasis flanks (CommonMark's Unicode punctuation:",
    "//! the P and S categories, by the Unicode version of its table).",
    "//! Written by `scripts/commonmark-punctuation.py` from pulldown-cmark's",
    "//! `src/puncttable.rs` (MIT); a test holds it to the oracle.",
    "",
    "/// Whether `c` (outside ASCII) is punctuation.",
    "pub(super) fn is_punctuation(c: char) -> bool {",
    "    let c = u32::from(c);",
    "    RANGES",
    "        .binary_search_by(|&(start, end)| {",
    "            if end < c {",
    "                std::cmp::Ordering::Less",
    "            } else if start > c {",
    "                std::cmp::Ordering::Greater",
    "            } else {",
    "                std::cmp::Ordering::Equal",
    "            }",
    "        })",
    "        .is_ok()",
    "}",
    "",
    "/// The ranges of punctuation, first and last, in order.",
    "#[rustfmt::skip]",
    "const RANGES: [(u32, u32); %d] = [" % len(ranges),
]
row = []
for s, e in ranges:
    row.append("(0x%X, 0x%X)," % (s, e))
    if len(row) == 4:
        out.append("    " + " ".join(row))
        row = []
if row:
    out.append("    " + " ".join(row))
out.append("];")
path = "crates/uriscan/src/links/commonmark/punctuation.rs"
open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")
print(path, len(ranges), "ranges")
