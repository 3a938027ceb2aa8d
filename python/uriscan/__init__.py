"""Find, extract, parse and resolve URIs by the rules of RFC 3986.

The scanning and parsing run in Rust (the uriscan library), with the GIL
released while a document is read:

- ``find(data)``: the URIs of plain text, with their offsets;
- ``links(data, format=..., url=..., base=...)``: the links of one HTML,
  Markdown or text document, resolved against its base (by RFC 3986, or
  with ``standard="whatwg"`` by the URL Standard, as browsers do);
- ``parse(s)``, ``resolve(base, ref)``, ``normalize(s)``: RFC 3986's
  grammar (sections 3 and 4), resolution (5) and normalization (6);
- ``warc_links(source)``: the links of every record of a WARC, ARC or
  WET file (a path, a binary file object such as an fsspec ``s3://``
  file, or bytes), with the page and record they came from;
- ``uriscan.arrow.links_batch(batch)``: the links of a ``pyarrow``
  RecordBatch of documents, as a RecordBatch (for Spark's ``mapInArrow``),
  and ``uriscan.arrow.warc_batches(source)`` those of a WARC file.

Offsets are byte offsets into ``bytes`` and character offsets into
``str``.
"""

from uriscan._uriscan import (
    Link,
    Match,
    ParseError,
    Uri,
    WarcLink,
    WarcLinks,
    __version__,
    find,
    links,
    normalize,
    parse,
    resolve,
    warc_links,
)

__all__ = [
    "Link",
    "Match",
    "ParseError",
    "Uri",
    "WarcLink",
    "WarcLinks",
    "__version__",
    "find",
    "links",
    "normalize",
    "parse",
    "resolve",
    "warc_links",
]
