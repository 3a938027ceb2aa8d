"""TEMPORARY, to be removed: a pure-Python WARC reader for the Spark job
until `uriscan.arrow.warc_batches` (on the Rust WARC reader of
`uriscan::warc`) is in main. It reads records with warcio and hands
each HTML payload to `uriscan.arrow.links_batch`; the HTTP header links
(Location of a 3xx, Content-Location, Link) are made here with the kinds
the Rust reader gives them. Slow: used only when the installed uriscan
has no `warc_batches`.
"""

from __future__ import annotations

import re
from typing import Iterator

import pyarrow as pa
import pyarrow.compute

import uriscan
import uriscan.arrow

_SCHEMA = pa.schema([(n, pa.string()) for n in ("page", "link", "kind", "rel", "host")])
_LINK_HEADER = re.compile(r'<([^>]*)>((?:\s*;\s*[^;,]+)*)')
_REL = re.compile(r'(?i)\brel\s*=\s*"?([^";,]+)"?')


def _host(target: str | None) -> str | None:
    try:
        h = uriscan.parse(target, iri=True).host if target else None
    except uriscan.ParseError:
        return None
    return h.lower() if h else None


def _header_links(page: str, status: int, headers) -> list[dict]:
    rows = []

    def add(ref: str, kind: str, rel: str | None = None) -> None:
        try:
            target = uriscan.resolve(page, ref.strip(), iri=True)
        except ValueError:
            target = None
        link = target if target is not None else ref.strip()
        rows.append({"page": page, "link": link, "kind": kind, "rel": rel, "host": _host(target)})

    location = headers.get_header("Location")
    if location and 300 <= status < 400:
        add(location, "http:location")
    content_location = headers.get_header("Content-Location")
    if content_location:
        add(content_location, "http:content-location")
    for name, value in headers.headers:
        if name.lower() == "link":
            for m in _LINK_HEADER.finditer(value):
                rel = _REL.search(m.group(2))
                add(m.group(1), "http:link", rel.group(1).lower() if rel else None)
    return rows


def warc_batches(path: str, *, host: bool = True, kinds=None) -> Iterator[pa.RecordBatch]:
    """The links of a WARC file's response records, a batch per record."""
    from warcio.archiveiterator import ArchiveIterator

    names = ["page", "link", "kind", "rel"] + (["host"] if host else [])
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f):
            if rec.rec_type != "response" or rec.http_headers is None:
                continue
            page = rec.rec_headers.get_header("WARC-Target-URI")
            status = int(rec.http_headers.get_statuscode() or 0)
            body = rec.content_stream().read()
            rows = _header_links(page, status, rec.http_headers)
            table = pa.Table.from_pylist(rows, schema=_SCHEMA).select(names)
            ctype = (rec.http_headers.get_header("Content-Type") or "").lower()
            fmt = "markdown" if "markdown" in ctype else "html" if "html" in ctype else None
            if fmt:
                doc = pa.record_batch({"content": pa.array([body], pa.binary()), "url": [page]})
                out = uriscan.arrow.links_batch(doc, format=fmt, host=host)
                table = pa.concat_tables([table, pa.Table.from_batches([out])])
            if kinds is not None:
                table = table.filter(pa.compute.is_in(table["kind"], pa.array(kinds, pa.string())))
            yield from table.to_batches()
