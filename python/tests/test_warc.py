"""uriscan.warc_links and uriscan.arrow.warc_batches on WARC files made
here: record by record, gzip per record or plain, with a damaged record
in the middle."""

import gzip
import threading
import warnings

import pyarrow as pa
import pytest

import uriscan
import uriscan.arrow as ua


def record(kind, uri, block, rid, length=None):
    head = (
        f"WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{rid}>\r\n"
        + (f"WARC-Target-URI: {uri}\r\n" if uri else "")
        + f"Content-Length: {len(block) if length is None else length}\r\n\r\n"
    )
    return head.encode() + block + b"\r\n\r\n"


def http(status, headers, body=b""):
    lines = [f"HTTP/1.1 {status}"] + [f"{k}: {v}" for k, v in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


PAGE = b"""<!doctype html><html><head><meta charset="windows-1252"><base href="/docs/"></head>
<body><a href="guide.html" rel="nofollow ugc">caf\xe9</a> <img src="i.png"></body></html>"""

RECORDS = [
    record("warcinfo", None, b"software: test\r\n", 1),
    record("response", "http://a.example/old", http("301 Moved Permanently", [("Location", "/new")]), 2),
    record(
        "response",
        "http://a.example/new",
        http("200 OK", [("Content-Type", "text/html"), ("Link", '<https://cdn.example/s.css>; rel="preload"')], PAGE),
        3,
    ),
    # damaged: its Content-Length says more than the block holds
    record("response", "http://b.example/", http("200 OK", [("Content-Type", "text/html")], b'<a href="/lost">'), 4, length=5000),
    record("response", "http://c.example/x/", http("200 OK", [("Content-Type", "text/html; charset=utf-8")], b'<a href="../up">'), 5),
    record("conversion", "http://d.example/", b"plain text with https://e.example/ in it", 6),
]

WANT = [
    ("http://a.example/old", "http:location", "http://a.example/new", None),
    ("http://a.example/new", "http:link", "https://cdn.example/s.css", "preload"),
    ("http://a.example/new", "html:base@href", "http://a.example/docs/", None),
    ("http://a.example/new", "html:a@href", "http://a.example/docs/guide.html", "nofollow ugc"),
    ("http://a.example/new", "html:img@src", "http://a.example/docs/i.png", None),
    ("http://c.example/x/", "html:a@href", "http://c.example/up", None),
    ("http://d.example/", "text", "https://e.example/", None),
]


@pytest.fixture(params=["gz", "plain"])
def warc(request, tmp_path):
    """The file, and the offset of each record (of its gzip member)."""
    offsets, data = [], b""
    for r in RECORDS:
        offsets.append(len(data))
        data += gzip.compress(r) if request.param == "gz" else r
    path = tmp_path / ("x.warc.gz" if request.param == "gz" else "x.warc")
    path.write_bytes(data)
    return path, offsets


def test_warc_links(warc):
    path, offsets = warc
    with pytest.warns(UserWarning, match=f"{path}: record at offset {offsets[3]}"):
        it = uriscan.warc_links(path)
        found = list(it)
    # The damaged record is reported, and the record after it kept.
    assert [(l.page, l.kind, l.target, l.rel) for l in found] == WANT
    assert it.errors and it.errors[0][0] == offsets[3]
    by_page = {l.page: l for l in found}
    assert by_page["http://a.example/old"].record_offset == offsets[1]
    assert by_page["http://a.example/old"].record_id == "<urn:uuid:2>"
    assert by_page["http://c.example/x/"].record_offset == offsets[4]
    a = found[3]
    assert isinstance(a, uriscan.Link) and a.role == "navigate"
    assert a.raw == "guide.html" and a.link == "guide.html"
    assert [l.role for l in found[:2]] == ["navigate", "embed"]
    with pytest.warns(UserWarning):
        again = list(uriscan.warc_links(path))
    assert found[0] == again[0] != found[1] and found == again


def test_warc_batches_equal_warc_links(warc):
    path, _ = warc
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        links = list(uriscan.warc_links(path))
        batches = list(ua.warc_batches(path, host=True, rows=3))
    assert [b.num_rows for b in batches] == [3, 3, 1]
    rows = pa.Table.from_batches(batches).to_pylist()
    assert rows == [
        {
            "page": l.page,
            "link": l.target,
            "kind": l.kind,
            "rel": l.rel,
            "host": uriscan.parse(l.target).host,
        }
        for l in links
    ]


def test_warc_batches_of_some_kinds(warc):
    path, _ = warc
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = pa.Table.from_batches(list(ua.warc_batches(path, kinds=["http:location", "text"]))).to_pylist()
    assert [(r["kind"], r["link"]) for r in out] == [
        ("http:location", "http://a.example/new"),
        ("text", "https://e.example/"),
    ]


def test_missing_file_raises_with_its_path(tmp_path):
    missing = tmp_path / "nope.warc.gz"
    with pytest.raises(FileNotFoundError) as e:
        uriscan.warc_links(missing)
    assert e.value.filename == str(missing)
    with pytest.raises(FileNotFoundError):
        next(ua.warc_batches(missing))


def test_not_a_warc_is_reported_not_raised(tmp_path):
    path = tmp_path / "junk.warc"
    path.write_bytes(bytes(range(256)) * 64)
    with pytest.warns(UserWarning, match="junk.warc: record at offset 0"):
        assert list(uriscan.warc_links(path)) == []


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_threads_read_files_at_once(warc):
    # Each thread's reads release the GIL; the results are each file's own.
    path, _ = warc
    out = [None] * 4

    def read(i):
        out[i] = [(l.page, l.target) for l in uriscan.warc_links(path)]

    threads = [threading.Thread(target=read, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(o == [(p, t) for p, _, t, _ in WANT] for o in out)


def test_warnings_name_what_was_let_pass(tmp_path):
    """A record whose headers still say chunked over a body stored
    de-chunked gives its links, and says so in `.warnings`."""
    stale = http("200 OK", [("Content-Type", "text/html"), ("Transfer-Encoding", "chunked")], b'<a href="/kept">')
    clean = http("200 OK", [("Content-Type", "text/html")], b'<a href="/clean">')
    path = tmp_path / "stale.warc"
    path.write_bytes(record("response", "http://s.example/", stale, 1) + record("response", "http://s.example/c", clean, 2))
    found = list(uriscan.warc_links(path))
    assert [(l.target, l.warnings) for l in found] == [
        ("http://s.example/kept", ["stale-chunked"]),
        ("http://s.example/clean", []),
    ]
