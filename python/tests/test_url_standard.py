"""standard="whatwg": targets as the URL Standard parses links (what a
browser fetches), in every function that resolves links, checked
against cases of the URL Standard's own test file."""

import html
import io
import json
from pathlib import Path

import pyarrow as pa
import pytest

import uriscan
import uriscan.arrow as ua

URLTESTDATA = Path(__file__).resolve().parents[2].parent / "shared" / "conformance" / "url" / "urltestdata.json"

#: (input, base) of cases of urltestdata.json: a special scheme's
#: `http:x` is relative, backslashes are slashes, hosts are
#: IDNA-processed, default ports dropped, and a failure.
CASES = [
    ("http:foo.com", "http://example.org/foo/bar"),
    ("http:\\\\foo.com\\", "http://example.org/foo/bar"),
    ("https://fa\u00df.ExAmPlE/", None),
    ("http://\u4f60\u597d\u4f60\u597d", "http://other.com/"),
    ("http://foo:80/", None),
    ("ws://foo:80/", None),
    ("https://foo:80/", None),
    ("http://example.com/foo/%2e%2", None),
    ("http://[]", "http://other.com/"),
]


def conformance():
    if not URLTESTDATA.exists():
        pytest.skip(f"no {URLTESTDATA}")
    data = [c for c in json.loads(URLTESTDATA.read_text()) if isinstance(c, dict)]
    by_case = {(c["input"], c.get("base")): c for c in data}
    return [(i, b, by_case[(i, b)]) for i, b in CASES]


def page(link):
    return f'<a href="{html.escape(link)}">x</a>'


@pytest.mark.parametrize("case", range(len(CASES)))
def test_links_follow_the_url_standard(case):
    link, base, want = conformance()[case]
    (got,) = uriscan.links(page(link), url=base, standard="whatwg")
    if want.get("failure"):
        assert got.target is None and got.error, got
    else:
        assert got.target == want["href"], (link, base)


def test_the_default_stays_rfc3986():
    (rfc,) = uriscan.links(page("http:foo.com"), url="http://example.org/foo/bar")
    assert rfc.target == "http:foo.com"
    (rfc,) = uriscan.links(page("http:///h/x"), url="http://a.example/")
    (url_standard,) = uriscan.links(page("http:///h/x"), url="http://a.example/", standard="whatwg")
    assert url_standard.target == "http://h/x" != rfc.target
    # The options that build their own extractor keep the standard.
    (with_text,) = uriscan.links(page("http:///h/x"), url="http://a.example/", standard="whatwg", include_text=True)
    assert with_text.target == "http://h/x"


def record(uri, body):
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + body
    head = f"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nContent-Length: {len(http)}\r\n\r\n"
    return head.encode() + http + b"\r\n\r\n"


def test_warc_and_arrow_take_the_standard():
    warc = record("http://a.example/dir/p", b'<a href="http:relpath">x</a><img src="HTTP://EXAMPLE.COM:80/i.png">')
    want = ["http://a.example/dir/relpath", "http://example.com/i.png"]
    assert [l.target for l in uriscan.warc_links(warc, standard="whatwg")] == want
    assert [l.target for l in uriscan.warc_links(warc)][0] == "http:relpath"
    (batch,) = ua.warc_batches(io.BytesIO(warc), host=True, standard="whatwg")
    assert batch.column("link").to_pylist() == want
    assert batch.column("host").to_pylist() == ["a.example", "example.com"]
    docs = pa.record_batch({"url": ["http://a.example/dir/p"], "content": [b'<meta charset=utf-8><a href="//Fa\xc3\x9f.example:80/">']})
    out = ua.links_batch(docs, host=True, standard="whatwg").to_pylist()
    assert [(r["link"], r["host"]) for r in out] == [("http://xn--fa-hia.example/", "xn--fa-hia.example")]
    (mapped,) = ua.map_links([docs], standard="whatwg")
    assert mapped.column("link").to_pylist() == ["http://xn--fa-hia.example/"]


def test_an_unknown_standard_is_a_value_error():
    docs = pa.record_batch({"url": ["http://a.example/"], "content": [b"<a href=x>"]})
    for call in (
        lambda: uriscan.links("<a href=x>", standard="WHATWG"),
        lambda: uriscan.warc_links(b"", standard="rfc"),
        lambda: ua.links_batch(docs, standard="url"),
        lambda: next(ua.warc_batches(b"", standard="")),
        lambda: next(ua.map_links([docs], standard="rfc-3986")),
    ):
        with pytest.raises(ValueError, match="unknown standard"):
            call()
