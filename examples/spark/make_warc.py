"""Builds WARC files of HTTP responses from the shared corpus, for the
Spark jobs' tests and benches.

The corpus's html.html is 266 real pages (the Rust books and API pages,
Python's documentation) laid end to end; each becomes a `response`
record with the HTTP headers a server sends (status line, Date, Server,
Content-Type with its charset, Content-Length), preceded by its
`request` record as crawlers write them, each record its own gzip
member. Every tenth page is reached through a 301 redirect (a record
whose `Location` is relative), one page declares `<base href>` to
another host, and some responses carry `Content-Location` and `Link:`
headers. With --markdown, the pages of markdown.md are served as
text/markdown too.

    python make_warc.py OUT.warc.gz [--min-mb 200] [--pages N] [--corpus DIR]
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import re
import uuid
from pathlib import Path

# The corpus beside the repository: ../shared/corpus from its root.
CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
DATE = "2026-11-25T12:00:00Z"
HTTP_DATE = "Wed, 25 Nov 2026 12:00:00 GMT"
#: The page that gets a `<base href>`, and the base it declares.
BASE_PAGE = 1
BASE_HREF = "https://mirror.example.net/docs/"
#: Every REDIRECT_EVERY-th page is also reached by a 301 from an old URL.
REDIRECT_EVERY = 10

_PAGE_START = re.compile(rb"(?im)^[ \t]*(?:<!doctype html>\s*)?<html\b")
_MD_START = re.compile(rb"(?m)^# ")


def html_pages(corpus: Path = CORPUS) -> list[bytes]:
    """The pages of html.html, each from its doctype or `<html>`."""
    data = (corpus / "html.html").read_bytes()
    starts = [m.start() for m in _PAGE_START.finditer(data)] + [len(data)]
    return [data[a:b] for a, b in zip(starts, starts[1:]) if b > a]


def markdown_pages(corpus: Path = CORPUS) -> list[bytes]:
    """markdown.md cut at its level-one headings, in pieces of 64 KiB or more."""
    data = (corpus / "markdown.md").read_bytes()
    out, start = [], 0
    for m in _MD_START.finditer(data):
        if m.start() - start >= 65536:
            out.append(data[start : m.start()])
            start = m.start()
    out.append(data[start:])
    return out


def page_url(i: int, page: bytes) -> str:
    """A URL for page `i`: Rust pages under doc.rust-lang.org, Python's
    under docs.python.org, the rest under docs.example.org."""
    head = page[:4096]
    if b"mdBook" in head or b"rustdoc" in head or b"Rust" in head:
        return f"https://doc.rust-lang.org/book/p{i}.html"
    if b"Python" in head:
        return f"https://docs.python.org/3/library/p{i}.html"
    return f"https://docs.example.org/p{i}.html"


def warc_record(kind: str, url: str | None, block: bytes, extra: dict | None = None) -> bytes:
    """One WARC/1.1 record, uncompressed."""
    headers = {
        "WARC-Type": kind,
        "WARC-Record-ID": f"<urn:uuid:{uuid.uuid4()}>",
        "WARC-Date": DATE,
    }
    if url is not None:
        headers["WARC-Target-URI"] = url
    headers.update(extra or {})
    headers["Content-Length"] = str(len(block))
    head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    return b"WARC/1.1\r\n" + head.encode() + b"\r\n" + block + b"\r\n\r\n"


def http_response(status: str, headers: list[tuple[str, str]], body: bytes) -> bytes:
    """An HTTP/1.1 response message: status line, headers, body."""
    lines = [f"HTTP/1.1 {status}", f"Date: {HTTP_DATE}", "Server: nginx/1.24.0"]
    lines += [f"{k}: {v}" for k, v in headers]
    lines += [f"Content-Length: {len(body)}", "Connection: close"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def http_request(url: str) -> bytes:
    """The GET a crawler sent for `url`."""
    host = url.split("/")[2]
    path = "/" + url.split("/", 3)[3]
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\n"
        "User-Agent: uriscan-test-crawler/1.0\r\nAccept: text/html\r\n\r\n"
    ).encode()


def exchange(url: str, response: bytes) -> list[bytes]:
    """The request and response records of one fetch."""
    http = {"Content-Type": "application/http; msgtype=response"}
    req = {"Content-Type": "application/http; msgtype=request"}
    return [
        warc_record("request", url, http_request(url), req),
        warc_record("response", url, response, http),
    ]


def site_records(pages: list[bytes], markdown: list[bytes] = ()) -> list[bytes]:
    """The records of a crawl of `pages` (and Markdown pages)."""
    records = [
        warc_record(
            "warcinfo",
            None,
            b"software: uriscan make_warc.py\r\nformat: WARC File Format 1.1\r\n",
            {"Content-Type": "application/warc-fields"},
        )
    ]
    for i, page in enumerate(pages):
        url = page_url(i, page)
        if i == BASE_PAGE:
            page = re.sub(
                rb"(?i)<head>",
                b'<head><base href="' + BASE_HREF.encode() + b'">',
                page,
                count=1,
            )
        headers = [("Content-Type", "text/html; charset=utf-8")]
        if i % 7 == 3:
            headers.append(("Content-Location", url.rsplit("/", 1)[1]))
        if i % 5 == 2:
            headers.append(("Link", '<https://cdn.example.net/style.css>; rel="preload"; as="style"'))
        if i % REDIRECT_EVERY == 0:
            old = url.replace(".html", "-old.html")
            moved = http_response(
                "301 Moved Permanently",
                [("Location", url.rsplit("/", 1)[1]), ("Content-Type", "text/html")],
                b"<html><body>Moved</body></html>",
            )
            records += exchange(old, moved)
        records += exchange(url, http_response("200 OK", headers, page))
    for i, md in enumerate(markdown):
        url = f"https://github.example.com/docs/m{i}.md"
        ctype = [("Content-Type", "text/markdown; charset=utf-8")]
        records += exchange(url, http_response("200 OK", ctype, md))
    return records


def write_warc(path: str | os.PathLike, records: list[bytes]) -> int:
    """Writes `records` to `path`, each its own gzip member when the name
    ends in .gz; returns the uncompressed size."""
    size = 0
    with open(path, "wb") as out:
        for r in records:
            size += len(r)
            if str(path).endswith(".gz"):
                buf = io.BytesIO()
                with gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=6, mtime=0) as z:
                    z.write(r)
                out.write(buf.getvalue())
            else:
                out.write(r)
    return size


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out")
    p.add_argument("--corpus", type=Path, default=CORPUS)
    p.add_argument("--pages", type=int, help="only the first N pages")
    p.add_argument("--min-mb", type=float, default=0, help="repeat the crawl up to this size")
    p.add_argument("--markdown", action="store_true", help="serve markdown.md's pages too")
    args = p.parse_args()
    pages = html_pages(args.corpus)[: args.pages]
    md = markdown_pages(args.corpus) if args.markdown else []
    records = site_records(pages, md)
    one = sum(len(r) for r in records)
    # Each copy is a crawl of its own, with its own record ids.
    copies = max(1, int(-(-args.min_mb * 1e6 // one)))
    for _ in range(copies - 1):
        records += site_records(pages, md)[1:]
    size = write_warc(args.out, records)
    print(f"{args.out}: {len(records)} records, {size / 1e6:.1f} MB uncompressed")


if __name__ == "__main__":
    main()
