"""The Arrow batch API: the links of many documents at once, for Spark's
``mapInArrow`` and other Arrow pipelines.

The documents' column is read from its Arrow buffers by the Rust side
(no Python object per document), and the links come back as Arrow
buffers wrapped into arrays (no Python object per link)::

    import pyarrow as pa, uriscan.arrow

    batch = pa.record_batch({"url": ["https://a.example/"],
                             "content": [b'<a href="/x">x</a>']})
    out = uriscan.arrow.links_batch(batch)
    # page: "https://a.example/", link: "https://a.example/x",
    # kind: "html:a@href", rel: null

In Spark::

    df.mapInArrow(uriscan.arrow.map_links, uriscan.arrow.SPARK_SCHEMA)
"""

from __future__ import annotations

import os
import struct
from typing import IO, Iterable, Iterator, Union

import pyarrow as pa

from uriscan import _uriscan

#: The columns of ``links_batch``'s result, as a Spark DDL schema string.
SPARK_SCHEMA = "page string, link string, kind string, rel string"
#: The same with the link's host (``host=True``).
SPARK_SCHEMA_WITH_HOST = SPARK_SCHEMA + ", host string"

#: What ``warc_batches`` reads: a path, a binary file object (anything
#: with ``.read(n)``) or the file's bytes.
WarcSource = Union[str, "os.PathLike[str]", IO[bytes], bytes, bytearray, memoryview]

_LAYOUTS = {
    pa.string(): False,
    pa.binary(): False,
    pa.large_string(): True,
    pa.large_binary(): True,
}


def _column(arr: pa.Array | pa.ChunkedArray) -> tuple:
    """The buffers of a string or binary column, as the Rust side reads
    them: (validity or None, offsets, data, bit offset, length, large).

    Only the bytes the column's rows use are copied into ``bytes``: a
    slice of a larger array passes its own rows, not its parent's.
    """
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    large = _LAYOUTS.get(arr.type)
    if large is None:
        # string_view, binary_view, dictionary-encoded strings, ...
        try:
            arr = arr.cast(pa.large_binary())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
            raise TypeError(
                f"expected a string or binary column, not {arr.type}"
            ) from e
        large = True
    width = 8 if large else 4
    n = len(arr)
    if n == 0:
        return (None, bytes(width), b"", 0, 0, large)
    validity, offsets, data = arr.buffers()[:3]
    offsets = offsets.slice(arr.offset * width, (n + 1) * width)
    fmt = "<q" if large else "<i"
    first = struct.unpack_from(fmt, offsets, 0)[0]
    last = struct.unpack_from(fmt, offsets, n * width)[0]
    data_bytes = b"" if data is None else data.slice(first, last - first).to_pybytes()
    bits = None
    bit_offset = 0
    if validity is not None and arr.null_count > 0:
        bit_offset = arr.offset % 8
        nbytes = (bit_offset + n + 7) // 8
        bits = validity.slice(arr.offset // 8, nbytes).to_pybytes()
    return (bits, offsets.to_pybytes(), data_bytes, bit_offset, n, large)


def _kinds(kinds: Iterable[str] | None) -> list[str] | None:
    if isinstance(kinds, str):
        raise TypeError("kinds is a list of kinds, not a string")
    return None if kinds is None else list(kinds)


def _array(col: tuple) -> pa.Array:
    """An Arrow string array over the buffers the Rust side built."""
    validity, offsets, data, large = col
    width = 8 if large else 4
    n = len(offsets) // width - 1
    kind = pa.large_string() if large else pa.string()
    return pa.Array.from_buffers(
        kind,
        n,
        [
            None if validity is None else pa.py_buffer(validity),
            pa.py_buffer(offsets),
            pa.py_buffer(data),
        ],
    )


def links_batch(
    batch: pa.RecordBatch,
    *,
    content: str = "content",
    url: str | None = "url",
    format: str = "html",
    host: bool = False,
    kinds: Iterable[str] | None = None,
    standard: str = "rfc3986",
) -> pa.RecordBatch:
    """The links of every document of ``batch``, one row per link.

    ``batch[content]`` holds the documents (string or binary, large or
    not, nulls allowed: a null document has no links), ``batch[url]``
    each document's URL, against which its relative links resolve (after
    its ``<base href>``); ``url=None`` means no URL column. ``format`` is
    ``"html"``, ``"markdown"`` or ``"text"``, for every row.

    The result has the string columns ``page`` (the row's URL), ``link``
    (the link's target, resolved; the link as written when it names no
    target, as a malformed one), ``kind`` (``html:a@href``, ...) and
    ``rel`` (the link's ``rel`` values, space-separated, null when it
    has none), and with ``host=True`` ``host`` (the host of the target,
    ASCII-lowercased; null without one). ``kinds`` keeps only the links
    of those kinds (``["html:a@href", "html:img@src"]``).
    ``standard="whatwg"`` makes each target the URL Standard's parse of
    the link, as a browser fetches it (see ``uriscan.links``); the
    default, ``"rfc3986"``, resolves by RFC 3986. The extraction runs in
    Rust with the GIL released.
    """
    if content not in batch.schema.names:
        raise KeyError(f"no column {content!r} in {batch.schema.names}")
    docs = _column(batch.column(content))
    if url is None:
        urls = _column(pa.nulls(batch.num_rows, pa.string()))
    else:
        if url not in batch.schema.names:
            raise KeyError(f"no column {url!r} in {batch.schema.names}")
        urls = _column(batch.column(url))
    columns = _uriscan._links_columns(docs, urls, format, _kinds(kinds), standard)
    names = ["page", "link", "kind", "rel"] + (["host"] if host else [])
    wanted = dict(columns)
    return pa.RecordBatch.from_arrays([_array(wanted[n]) for n in names], names=names)


def warc_batches(
    source: WarcSource,
    *,
    host: bool = False,
    rows: int = 65536,
    max_block: int | None = None,
    kinds: Iterable[str] | None = None,
    standard: str = "rfc3986",
) -> Iterator[pa.RecordBatch]:
    """The links of a WARC, ARC or WET file, as the batches of
    ``links_batch`` (``page`` is each record's WARC-Target-URI), of at
    most ``rows`` rows each, with the links of ``kinds`` only if given.

    ``source`` is a path, a binary file object (an fsspec file of
    ``s3://`` or ``https://``, boto3's ``StreamingBody``, ``gzip.open``,
    ``io.BytesIO``, ...) or the file's bytes, read as a stream by the
    Rust WARC reader (see ``uriscan.warc_links``), a batch at a time
    with the GIL released. A path that cannot be opened raises
    ``OSError``, and an exception of a file object's ``.read`` is raised
    as it is; a damaged record is passed over with a ``UserWarning``
    naming the file and the record's offset. ``standard`` is as for
    ``links_batch``.
    """
    names = ["page", "link", "kind", "rel"] + (["host"] if host else [])
    for columns in _uriscan._warc_columns(source, rows, max_block, _kinds(kinds), standard):
        wanted = dict(columns)
        yield pa.RecordBatch.from_arrays([_array(wanted[n]) for n in names], names=names)


def map_links(
    batches: Iterable[pa.RecordBatch],
    *,
    content: str = "content",
    url: str | None = "url",
    format: str = "html",
    host: bool = False,
    kinds: Iterable[str] | None = None,
    standard: str = "rfc3986",
) -> Iterator[pa.RecordBatch]:
    """``links_batch`` over each batch: the function Spark's
    ``DataFrame.mapInArrow`` takes, with ``SPARK_SCHEMA`` (or
    ``SPARK_SCHEMA_WITH_HOST``) as its schema."""
    for batch in batches:
        yield links_batch(
            batch, content=content, url=url, format=format, host=host, kinds=kinds, standard=standard
        )
