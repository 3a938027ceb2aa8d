"""uriscan.arrow: the batch API against the one-document API, over the
Arrow layouts a producer may hand in."""

import pyarrow as pa
import pytest

import uriscan
import uriscan.arrow as ua

DOCS = [
    b'<base href="/d/"><a href="x?a=1&amp;b=2" rel="nofollow">x</a><img src="HTTP://IMG.Example/i.png">',
    None,
    b"",
    "<a href=\"/caf\u00e9\">\u00fc</a><a href='http://[bad'>".encode(),
    b"\x80\xff<a href=../up>\x80",
    b'<a href="mailto:me@a.example">',
]
URLS = [
    "https://a.example/p/index.html",
    "https://b.example/",
    "https://c.example/",
    None,
    "https://e.example/a/b/",
    "https://f.example/",
]


def expected(docs, urls):
    rows = []
    for doc, url in zip(docs, urls):
        if doc is None:
            continue
        for l in uriscan.links(doc, url=url) if url else uriscan.links(doc):
            host = uriscan.parse(l.target, iri=True).host if l.target else None
            rows.append(
                {
                    "page": url,
                    "link": l.target if l.target is not None else l.link,
                    "kind": l.kind,
                    "rel": l.rel,
                    "host": host.lower() if host else None,
                }
            )
    return rows


def test_batch_equals_one_document_at_a_time():
    batch = pa.record_batch({"url": URLS, "content": DOCS})
    out = ua.links_batch(batch, host=True)
    assert out.schema.names == ["page", "link", "kind", "rel", "host"]
    assert out.to_pylist() == expected(DOCS, URLS)
    rows = out.to_pylist()
    assert rows[1]["rel"] == "nofollow"
    assert rows[0] == {
        "page": "https://a.example/p/index.html",
        "link": "https://a.example/d/",
        "kind": "html:base@href",
        "rel": None,
        "host": "a.example",
    }
    assert {"link": "HTTP://IMG.Example/i.png", "host": "img.example"}.items() <= rows[2].items()
    # no URL: the relative link keeps its text, with no host
    assert {"page": None, "link": "/café", "host": None}.items() <= rows[3].items()
    assert rows[5]["link"] == "https://e.example/a/up"


@pytest.mark.parametrize(
    "content_type,url_type",
    [
        (pa.binary(), pa.string()),
        (pa.large_binary(), pa.large_string()),
        (pa.large_binary(), pa.binary()),
        (pa.binary_view(), pa.string_view()),
    ],
)
def test_layouts(content_type, url_type):
    batch = pa.record_batch(
        [pa.array(DOCS, content_type), pa.array(URLS, url_type)], names=["content", "url"]
    )
    assert ua.links_batch(batch, host=True).to_pylist() == expected(DOCS, URLS)


@pytest.mark.parametrize("start,length", [(1, 4), (3, 3), (0, 1), (5, 1), (2, 0)])
def test_slices_read_only_their_rows(start, length):
    # Slices start at a bit offset of the validity bitmap and at an
    # offset into the offsets; the parent's other rows must not leak in.
    batch = pa.record_batch({"content": DOCS, "url": URLS}).slice(start, length)
    out = ua.links_batch(batch, host=True)
    assert out.to_pylist() == expected(DOCS[start : start + length], URLS[start : start + length])


def test_nulls_past_a_byte_of_bitmap():
    docs = [None if i % 3 == 0 else f'<a href="/{i}">'.encode() for i in range(40)]
    urls = [None if i % 7 == 0 else f"https://h{i}.example/" for i in range(40)]
    batch = pa.record_batch({"content": docs, "url": urls}).slice(9, 25)
    out = ua.links_batch(batch)
    assert out.to_pylist() == [
        {k: v for k, v in r.items() if k != "host"}
        for r in expected(docs[9:34], urls[9:34])
    ]
    assert out.column("page").null_count == sum(1 for i in range(9, 34) if i % 3 and i % 7 == 0)


def test_columns_and_formats():
    batch = pa.record_batch({"body": ["see [a](b.md) and <http://x.example/>"], "u": ["file:///r/c.md"]})
    out = ua.links_batch(batch, content="body", url="u", format="markdown")
    assert out.column("link").to_pylist() == ["file:///r/b.md", "http://x.example/"]
    assert out.column("kind").to_pylist() == ["md:link", "md:autolink"]
    out = ua.links_batch(batch, content="body", url=None, format="text")
    assert out.to_pylist() == [{"page": None, "link": "http://x.example/", "kind": "text", "rel": None}]


def test_kinds_keep_only_those_links():
    batch = pa.record_batch({"url": URLS, "content": DOCS})
    kinds = ["html:a@href", "html:img@src"]
    out = ua.links_batch(batch, host=True, kinds=kinds).to_pylist()
    assert out == [r for r in expected(DOCS, URLS) if r["kind"] in kinds]
    assert {r["kind"] for r in out} == set(kinds)
    assert ua.links_batch(batch, kinds=[]).num_rows == 0
    with pytest.raises(TypeError, match="not a string"):
        ua.links_batch(batch, kinds="html:a@href")


def test_errors():
    batch = pa.record_batch({"content": [b"x"], "n": [1]})
    with pytest.raises(KeyError, match="no column 'url'"):
        ua.links_batch(batch)
    with pytest.raises(TypeError, match="expected a string or binary column, not int64"):
        ua.links_batch(batch, content="n", url=None)
    with pytest.raises(ValueError, match="unknown format"):
        ua.links_batch(batch, url=None, format="pdf")


def test_bad_buffers_are_errors_not_crashes():
    from uriscan import _uriscan

    offsets = (0).to_bytes(4, "little") + (99).to_bytes(4, "little")
    bad = (None, offsets, b"<a href=x>", 0, 1, False)
    url = (None, bytes(8), b"", 0, 1, False)
    with pytest.raises(ValueError, match="offsets of row 0 out of bounds"):
        _uriscan._links_columns(bad, url, "html")
    with pytest.raises(ValueError, match="offsets buffer too short"):
        _uriscan._links_columns((None, bytes(4), b"", 0, 1, False), url, "html")
    with pytest.raises(ValueError, match="validity bitmap too short"):
        _uriscan._links_columns((b"", bytes(8), b"", 0, 1, False), url, "html")
    with pytest.raises(ValueError, match="differ in length"):
        _uriscan._links_columns((None, bytes(12), b"", 0, 2, False), url, "html")


def test_empty_and_linkless_batches():
    empty = pa.record_batch({"content": pa.array([], pa.binary()), "url": pa.array([], pa.string())})
    out = ua.links_batch(empty)
    assert out.num_rows == 0 and out.schema.names == ["page", "link", "kind", "rel"]
    out = ua.links_batch(pa.record_batch({"content": [b"no links"], "url": ["https://a/"]}))
    assert out.num_rows == 0


def test_map_links_over_batches():
    batches = [pa.record_batch({"content": DOCS, "url": URLS}).slice(i, 2) for i in range(0, 6, 2)]
    out = list(ua.map_links(iter(batches), host=True))
    assert [r for b in out for r in b.to_pylist()] == expected(DOCS, URLS)
    assert ua.SPARK_SCHEMA_WITH_HOST.split(", ") == [f"{n} string" for n in out[0].schema.names]
