"""The functions of uriscan on small inputs, each against what RFC 3986
and the HTML rules say."""

import sys
import threading
import time

import pytest

import uriscan


def test_find_bytes_gives_byte_offsets():
    data = "é http://a.example/path, done".encode()
    (m,) = uriscan.find(data)
    assert m.uri == "http://a.example/path"
    assert (m.start, m.end, m.line) == (3, 24, 1)
    assert data[m.start : m.end] == b"http://a.example/path"


def test_find_str_gives_character_offsets():
    text = "日本語 <https://例え.jp/パス> and\nmailto:x@a.example."
    found = uriscan.find(text)
    assert [m.uri for m in found] == ["https://例え.jp/パス", "mailto:x@a.example"]
    for m in found:
        assert text[m.start : m.end] == m.uri
    assert [m.line for m in found] == [1, 2]


def test_find_bytes_survives_invalid_utf8():
    data = b"\xff\xfe http://a.example/x \xc3( https://b.example/"
    found = uriscan.find(data)
    assert [m.uri for m in found] == ["http://a.example/x", "https://b.example/"]
    assert [data[m.start : m.end] for m in found] == [
        b"http://a.example/x",
        b"https://b.example/",
    ]


def test_find_options():
    text = "http://a.example/ mailto:me@a.example std::io https://b/ü"
    assert [m.uri for m in uriscan.find(text, schemes=["MAILTO"])] == [
        "mailto:me@a.example"
    ]
    assert "std::io" in [m.uri for m in uriscan.find(text, any_scheme=True)]
    assert uriscan.find(text, ascii=True)[-1].uri == "https://b/%C3%BC"


def test_find_rejects_other_types():
    with pytest.raises(TypeError, match="expected bytes or str, not int"):
        uriscan.find(3)


def test_match_is_a_value():
    a, b = uriscan.find("x http://a.example/ y"), uriscan.find("x http://a.example/ y")
    assert a == b and hash(a[0]) == hash(b[0])
    with pytest.raises(AttributeError):
        a[0].uri = "x"
    assert repr(a[0]) == 'Match(uri="http://a.example/", start=2, end=19, line=1)'


HTML = b"""<!doctype html><html><head><base href="/docs/"></head>
<body><a href="guide.html?a=1&amp;b=2">guide</a>
<img srcset="a.png 1x, b.png 2x"> <a href="http://[bad">x</a>
<a href="#top">top</a></body></html>"""


def test_links_of_html_resolve_against_the_base():
    found = uriscan.links(HTML, url="https://example.com/index.html")
    assert [(l.kind, l.target) for l in found] == [
        ("html:base@href", "https://example.com/docs/"),
        ("html:a@href", "https://example.com/docs/guide.html?a=1&b=2"),
        ("html:img@srcset", "https://example.com/docs/a.png"),
        ("html:img@srcset", "https://example.com/docs/b.png"),
        ("html:a@href", None),
        ("html:a@href", "https://example.com/docs/#top"),
    ]
    guide = found[1]
    assert guide.raw == "guide.html?a=1&amp;b=2"
    assert guide.link == "guide.html?a=1&b=2"
    assert HTML[guide.start : guide.end] == guide.raw.encode()
    assert guide.line == 2
    bad = found[4]
    assert bad.target is None and "not a URI reference" in bad.error


def test_links_rel_hreflang_and_role():
    doc = b"""<a rel="NoFollow  UGC" href="/x">x</a><link rel=alternate hreflang=de href="/de/">
<img src=a.png><link rel=stylesheet href=s.css><form action=/post></form>"""
    found = uriscan.links(doc, url="https://h/")
    assert [(l.kind, l.rel, l.hreflang, l.role) for l in found] == [
        ("html:a@href", "nofollow ugc", None, "navigate"),
        ("html:link@href", "alternate", "de", "other"),
        ("html:img@src", None, None, "embed"),
        ("html:link@href", "stylesheet", None, "embed"),
        ("html:form@action", None, None, "navigate"),
    ]


def test_links_base_argument_wins_over_base_href():
    found = uriscan.links(HTML, url="https://example.com/", base="https://cdn.example/x/")
    assert found[1].target == "https://cdn.example/x/guide.html?a=1&b=2"


def test_links_without_url_leave_relative_links_unresolved():
    found = uriscan.links(b'<a href="rel/x">x</a><a href="http://[x">')
    assert [(l.link, l.target) for l in found] == [("rel/x", None), ("http://[x", None)]
    # Still, a malformed link says so.
    assert found[0].error is None and "not a URI reference" in found[1].error


def test_links_of_str_give_character_offsets():
    doc = '<p>ünïcödé</p><a href="/ü">'
    (link,) = uriscan.links(doc, url="https://h/")
    assert doc[link.start : link.end] == "/ü"
    assert link.target == "https://h/ü"


def test_links_charset_of_bytes():
    doc = b'<meta charset="windows-1252"><a href="caf\xe9">'
    assert uriscan.links(doc, url="https://h/")[0].target == "https://h/caf\xe9"
    # The transport's charset wins over the meta.
    doc = '<meta charset="windows-1252"><a href="café">'.encode()
    assert uriscan.links(doc, url="https://h/", charset="utf-8")[0].link == "café"
    # A str is the text it is: its meta does not reread it.
    assert uriscan.links(doc.decode(), url="https://h/")[0].link == "café"


def test_links_of_markdown_and_text():
    md = b"See [install](../install.md#setup) and <https://rfc-editor.org>.\n\n`http://code/`"
    found = uriscan.links(md, format="markdown", url="file:///repo/docs/guide.md")
    assert [(l.kind, l.target) for l in found] == [
        ("md:link", "file:///repo/install.md#setup"),
        ("md:autolink", "https://rfc-editor.org"),
    ]
    found = uriscan.links(md, format="markdown", url="file:///r/", include_code=True)
    assert found[-1].kind == "code" and found[-1].target == "http://code/"
    found = uriscan.links(b"a http://x.example/ b", format="text")
    assert [(l.kind, l.start) for l in found] == [("text", 2)]


def test_links_include_text():
    doc = b"<p>see http://a.example/ now</p>"
    assert uriscan.links(doc) == []
    assert [l.kind for l in uriscan.links(doc, include_text=True)] == ["text"]


def test_links_unknown_format():
    with pytest.raises(ValueError, match="unknown format \"pdf\""):
        uriscan.links(b"", format="pdf")


def test_links_survive_binary_and_malformed_html():
    junk = bytes(range(256)) * 4 + b'<a href="/ok"><<a <img src=x'
    found = uriscan.links(junk, url="https://h/")
    assert "https://h/ok" in [l.target for l in found]


def test_parse_components():
    u = uriscan.parse("http://u@[::1]:80/a?q#f")
    assert (u.scheme, u.userinfo, u.host, u.host_kind, u.port) == (
        "http",
        "u",
        "[::1]",
        "ipv6",
        "80",
    )
    assert (u.path, u.query, u.fragment, u.is_relative) == ("/a", "q", "f", False)
    assert str(u) == "http://u@[::1]:80/a?q#f"
    r = uriscan.parse("../g?")
    assert (r.scheme, r.host, r.path, r.query, r.is_relative) == (None, None, "../g", "", True)
    assert uriscan.parse("//192.0.2.1/").host_kind == "ipv4"


def test_parse_error_has_the_character_index():
    with pytest.raises(uriscan.ParseError) as e:
        uriscan.parse("http://h/é b", iri=True)
    err = e.value
    assert isinstance(err, ValueError)
    assert (err.index, err.kind, err.part, err.input) == (10, "unexpected_byte", "reference", "http://h/é b")
    assert "character 10" in str(err)
    # the prefix before the index is valid
    uriscan.parse(err.input[: err.index], iri=True)
    with pytest.raises(uriscan.ParseError) as e:
        uriscan.parse("http://h/é")
    assert (e.value.index, e.value.kind) == (9, "non_ascii")
    with pytest.raises(uriscan.ParseError) as e:
        uriscan.parse("a:b%zz")
    assert (e.value.index, e.value.kind) == (3, "invalid_pct_encoding")


# RFC 3986 section 5.4.1 and 5.4.2, a sample.
@pytest.mark.parametrize(
    "ref,target",
    [
        ("g:h", "g:h"),
        ("g", "http://a/b/c/g"),
        ("//g", "http://g"),
        ("?y", "http://a/b/c/d;p?y"),
        ("#s", "http://a/b/c/d;p?q#s"),
        ("", "http://a/b/c/d;p?q"),
        ("../../../g", "http://a/g"),
        ("g;x=1/../y", "http://a/b/c/y"),
        ("http:g", "http:g"),
    ],
)
def test_resolve_rfc_examples(ref, target):
    assert uriscan.resolve("http://a/b/c/d;p?q", ref) == target


def test_resolve_errors():
    with pytest.raises(ValueError, match="base URI has no scheme"):
        uriscan.resolve("/a/b", "g")
    with pytest.raises(uriscan.ParseError) as e:
        uriscan.resolve("http://a/b c", "g")
    assert (e.value.part, e.value.index) == ("base", 10)
    with pytest.raises(uriscan.ParseError) as e:
        uriscan.resolve("http://a/", "g h")
    assert (e.value.part, e.value.index) == ("reference", 1)


def test_normalize():
    assert uriscan.normalize("eXAMPLE://a/./b/../b/%63/%7bfoo%7d") == "example://a/b/c/%7Bfoo%7D"
    assert uriscan.normalize("HTTP://h:80") == "http://h:80"
    assert uriscan.normalize("HTTP://h:80", scheme_based=True) == "http://h/"
    assert uriscan.normalize("http://H/ü", iri=True) == "http://h/ü"
    with pytest.raises(uriscan.ParseError):
        uriscan.normalize("http://h/ü")


def test_scans_release_the_gil():
    # The scanning thread never gives the GIL up by itself (a switch
    # interval of 10 s), while the main thread sleeps 0.1 ms a step, each
    # time giving the GIL up. So the main thread can wake and count a step
    # inside the scan only if the scan released the GIL.
    text = ("word " * 200 + "http://a.example/x ") * 20000  # ~20 MB
    data = text.encode()
    calls = {
        "find": lambda: uriscan.find(data),
        "links": lambda: uriscan.links(data, format="text"),
    }
    old = sys.getswitchinterval()
    sys.setswitchinterval(10.0)
    try:
        for name, call in calls.items():
            window = []

            def scan():
                # Scans for 0.2 s at least: long enough for the main
                # thread to wake several times even on a loaded machine.
                t = time.perf_counter()
                while time.perf_counter() - t < 0.2:
                    call()
                window.extend([t, time.perf_counter()])

            thread = threading.Thread(target=scan)
            steps = []
            thread.start()
            while thread.is_alive():
                time.sleep(0.0001)
                steps.append(time.perf_counter())
            thread.join()
            start, end = window
            inside = [s for s in steps if start < s < end]
            assert len(inside) >= 3, (name, len(inside), end - start)
    finally:
        sys.setswitchinterval(old)
