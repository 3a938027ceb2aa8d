"""Builds the bench's .warc.gz from the shared corpus: each HTML document
of html.html and each Markdown document of markdown.md a `response` record
with real HTTP headers (some served chunked-free, some behind a 301 with a
Location), one gzip member per record, repeated under new hosts until the
file reaches the size asked for.

Usage: python3 build.py CORPUS_DIR OUT.warc.gz MIN_MB
"""

import gzip
import re
import sys
import uuid
from datetime import datetime, timezone

corpus, out_path, min_mb = sys.argv[1], sys.argv[2], float(sys.argv[3])


def split(text, start):
    """The documents of a concatenation: cut before each line that
    matches `start`."""
    docs, cur = [], []
    for line in text.splitlines(keepends=True):
        if start.match(line) and cur:
            docs.append("".join(cur))
            cur = []
        cur.append(line)
    if cur:
        docs.append("".join(cur))
    return docs


html = open(f"{corpus}/html.html", encoding="utf-8", errors="replace").read()
md = open(f"{corpus}/markdown.md", encoding="utf-8", errors="replace").read()
html_docs = []
for piece in split(html, re.compile(r"^\s*<(!DOCTYPE|html)", re.I)):
    # A doctype line on its own belongs to the <html> after it.
    if html_docs and "<html" not in html_docs[-1].lower():
        html_docs[-1] += piece
    else:
        html_docs.append(piece)
# Markdown: documents cut at top-level headings, merged up to 32 KB or
# more (the corpus has few such headings: long READMEs).
md_docs, cur = [], []
for part in split(md, re.compile(r"^# ")):
    cur.append(part)
    if sum(map(len, cur)) > 32_000:
        md_docs.append("".join(cur))
        cur = []
if cur:
    md_docs.append("".join(cur))
docs = [(d, "text/html; charset=utf-8", "html") for d in html_docs]
docs += [(d, "text/markdown; charset=utf-8", "md") for d in md_docs]

date = "Tue, 25 Nov 2026 12:00:00 GMT"
warc_date = "2026-11-25T12:00:00Z"


def record(rtype, uri, block, extra=""):
    head = (
        "WARC/1.1\r\n"
        f"WARC-Type: {rtype}\r\n"
        f"WARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
        f"WARC-Date: {warc_date}\r\n"
        f"WARC-Target-URI: {uri}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"{extra}"
        f"Content-Length: {len(block)}\r\n\r\n"
    ).encode()
    return gzip.compress(head + block + b"\r\n\r\n", compresslevel=6, mtime=0)


def response(status, headers, body):
    lines = [f"HTTP/1.1 {status}"] + [f"{k}: {v}" for k, v in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


written = 0
copy = 0
with open(out_path, "wb") as out:
    info = f"software: uriscan benches/warc/build.py\r\nformat: WARC File Format 1.1\r\n".encode()
    m = gzip.compress(
        (f"WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
         f"WARC-Date: {warc_date}\r\nContent-Type: application/warc-fields\r\n"
         f"Content-Length: {len(info)}\r\n\r\n").encode() + info + b"\r\n\r\n", mtime=0)
    out.write(m)
    written += len(m)
    while written < min_mb * 1e6:
        host = f"https://docs{copy}.example.org"
        for i, (doc, ctype, ext) in enumerate(docs):
            body = doc.encode("utf-8")
            uri = f"{host}/book/ch{i:04d}.{ext}"
            if i % 10 == 0:
                # The old address redirects to the page.
                old = f"{host}/old/{i}"
                r = response("301 Moved Permanently", [
                    ("Date", date), ("Server", "nginx"), ("Location", uri),
                    ("Content-Length", "0")], b"")
                m = record("response", old, r)
                out.write(m)
                written += len(m)
            r = response("200 OK", [
                ("Date", date), ("Server", "nginx"), ("Content-Type", ctype),
                ("Content-Length", str(len(body))),
                ("Last-Modified", date), ("ETag", f'"{i:x}-{copy:x}"'),
                ("Link", f'<{host}/book/ch{i:04d}.{ext}>; rel="canonical"'),
                ("Cache-Control", "max-age=3600")], body)
            m = record("response", uri, r)
            out.write(m)
            written += len(m)
        copy += 1
print(f"{out_path}: {written / 1e6:.1f} MB, {copy} copies of {len(docs)} documents")
