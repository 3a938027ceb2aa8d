"""The two Spark jobs, run with spark-submit in local mode (local[2]) on
WARC files made from the shared corpus: real pages with their HTTP
headers, redirects, a `<base href>`, Content-Location and Link headers,
a gzip file and a plain one, and a missing file in the list."""

from __future__ import annotations

import collections
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest

HERE = Path(__file__).resolve().parent
JOBS = HERE.parent
sys.path.insert(0, str(JOBS))

import make_warc  # noqa: E402

pq = pytest.importorskip("pyarrow.parquet")
if os.environ.get("URISCAN_REQUIRE_SPARK"):
    # python/test.sh installs pyspark and Java: there a missing one is a
    # failure, not a skip.
    import pyspark  # noqa: F401

    assert shutil.which("java"), "java not found"
else:
    pytest.importorskip("pyspark")
    if not shutil.which("java"):
        pytest.skip("no java", allow_module_level=True)

import uriscan  # noqa: E402

PAGES = 40


def spark_submit(*args: str) -> subprocess.CompletedProcess:
    """Runs a job with spark-submit in local[2], with this Python."""
    submit = Path(sys.executable).parent / "spark-submit"
    # Everything on the loopback interface: no packet leaves the machine.
    env = dict(
        os.environ,
        PYSPARK_PYTHON=sys.executable,
        PYSPARK_DRIVER_PYTHON=sys.executable,
        SPARK_LOCAL_IP="127.0.0.1",
    )
    run = subprocess.run(
        [
            str(submit),
            "--master",
            "local[2]",
            "--conf",
            "spark.ui.enabled=false",
            "--conf",
            "spark.driver.bindAddress=127.0.0.1",
            "--conf",
            "spark.driver.host=127.0.0.1",
            "--conf",
            "spark.sql.shuffle.partitions=2",
            *args,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    errors = [l for l in run.stderr.splitlines() if " INFO " not in l]
    assert run.returncode == 0, "\n".join(errors[-80:])
    return run


@pytest.fixture(scope="module")
def crawl(tmp_path_factory):
    """The WARC files, the list of them, and the pages they hold."""
    d = tmp_path_factory.mktemp("crawl")
    pages = make_warc.html_pages()[:PAGES]
    records = make_warc.site_records(pages)
    half = len(records) // 2
    make_warc.write_warc(d / "a.warc.gz", records[:half])
    make_warc.write_warc(d / "b.warc", records[half:])
    listing = d / "warc_paths.txt"
    listing.write_text(f"{d / 'a.warc.gz'}\nfile://{d / 'b.warc'}\n{d / 'missing.warc.gz'}\n\n")
    return d, listing, pages


@pytest.fixture(scope="module")
def links(crawl):
    """The rows of the links job (uriscan), and the job's stderr."""
    d, listing, _ = crawl
    run = spark_submit(str(JOBS / "warc_links.py"), str(listing), str(d / "links"))
    return pq.read_table(d / "links").to_pylist(), run.stderr


def rows_of(rows, page):
    return [r for r in rows if r["page"] == page]


def test_every_page_has_the_links_of_the_library(crawl, links):
    # The job's rows for each page are exactly what uriscan.links gives
    # for the page's HTML (same targets, same kinds, same count), plus
    # the HTTP header links.
    _, _, pages = crawl
    rows, _ = links
    for i, page in enumerate(pages):
        url = make_warc.page_url(i, page)
        if i == make_warc.BASE_PAGE:
            page = page.replace(b"<head>", b'<head><base href="' + make_warc.BASE_HREF.encode() + b'">', 1)
        want = collections.Counter(
            (l.target if l.target is not None else l.link, l.kind)
            for l in uriscan.links(page, url=url, charset="utf-8")
        )
        got = collections.Counter(
            (r["link"], r["kind"]) for r in rows_of(rows, url) if not r["kind"].startswith("http:")
        )
        assert got == want, url
        assert sum(want.values()) > 0


def test_redirects_give_their_location(crawl, links):
    _, _, pages = crawl
    rows, _ = links
    located = [r for r in rows if r["kind"] == "http:location"]
    want = []
    for i in range(0, PAGES, make_warc.REDIRECT_EVERY):
        url = make_warc.page_url(i, pages[i])
        want.append(
            {"page": url.replace(".html", "-old.html"), "link": url, "kind": "http:location", "rel": None, "host": urlsplit(url).hostname}
        )
    key = lambda r: r["page"]  # noqa: E731
    assert sorted(located, key=key) == sorted(want, key=key)


def test_header_links(crawl, links):
    _, _, pages = crawl
    rows, _ = links
    for i, page in enumerate(pages):
        url = make_warc.page_url(i, page)
        header = {(r["kind"], r["link"], r["rel"]) for r in rows_of(rows, url) if r["kind"].startswith("http:")}
        want = set()
        if i % 7 == 3:
            want.add(("http:content-location", url, None))
        if i % 5 == 2:
            want.add(("http:link", "https://cdn.example.net/style.css", "preload"))
        assert header == want, url


def test_links_resolve_against_the_base(crawl, links):
    # Independently of uriscan: the base page's relative a@href values,
    # read with a regular expression and joined by urljoin, all appear
    # under the declared base, and none under the page's own URL.
    import re

    _, _, pages = crawl
    rows, _ = links
    i = make_warc.BASE_PAGE
    url = make_warc.page_url(i, pages[i])
    got = {r["link"] for r in rows_of(rows, url) if r["kind"] == "html:a@href"}
    hrefs = re.findall(rb'<a\s[^>]*?href="([^"#:]+)"', pages[i])
    assert len(hrefs) > 5
    for h in hrefs:
        assert urljoin(make_warc.BASE_HREF, h.decode()) in got
    assert all(not l.startswith(url.rsplit("/", 1)[0] + "/") for l in got)


def test_hosts_are_the_links_hosts(links):
    rows, _ = links
    for r in rows:
        parts = urlsplit(r["link"])
        if parts.scheme in ("http", "https"):
            assert r["host"] == parts.hostname, r


def test_missing_file_is_reported_and_the_rest_read(crawl, links):
    d, _, _ = crawl
    rows, stderr = links
    assert f"{d / 'missing.warc.gz'}" in stderr
    pages = {r["page"] for r in rows}
    assert len(pages) == PAGES + len(range(0, PAGES, make_warc.REDIRECT_EVERY))


def test_host_graph(crawl, links):
    d, _, pages = crawl
    rows, _ = links
    spark_submit(str(JOBS / "host_graph.py"), str(d / "links"), str(d / "graph"))
    edges = {(e["from_host"], e["to_host"]): e["links"] for e in pq.read_table(d / "graph").to_pylist()}
    want = collections.Counter(
        (urlsplit(r["page"]).hostname, r["host"])
        for r in rows
        if r["host"] is not None and urlsplit(r["page"]).hostname != r["host"]
    )
    assert edges == dict(want)
    # The base page points at the mirror; the Link headers at the CDN.
    base_url = make_warc.page_url(make_warc.BASE_PAGE, pages[make_warc.BASE_PAGE])
    src = urlsplit(base_url).hostname
    assert edges[(src, "mirror.example.net")] > 5
    cdn = sum(
        1 for i, p in enumerate(pages) if i % 5 == 2 and urlsplit(make_warc.page_url(i, p)).hostname == src
    )
    assert edges[(src, "cdn.example.net")] >= cdn > 0


def test_lxml_job_finds_the_same_anchors_and_images(crawl, links):
    # The yardstick of benches/spark.sh does the same work: its a@href
    # and img@src links are uriscan's.
    d, listing, _ = crawl
    rows, _ = links
    spark_submit(str(JOBS / "warc_links.py"), "--extractor", "lxml", str(listing), str(d / "lxml"))
    theirs = collections.Counter((r["page"], r["link"], r["kind"]) for r in pq.read_table(d / "lxml").to_pylist())
    ours = collections.Counter(
        (r["page"], r["link"], r["kind"]) for r in rows if r["kind"] in ("html:a@href", "html:img@src")
    )
    assert sum(theirs.values()) > 300
    same = sum((theirs & ours).values())
    assert same >= 0.98 * sum(ours.values()), ((theirs - ours).most_common(5), (ours - theirs).most_common(5))
