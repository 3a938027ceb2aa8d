"""The two Spark jobs, run with spark-submit in local mode (local[2]) on
WARC files made from the shared corpus: real pages with their HTTP
headers, redirects, a `<base href>`, Content-Location and Link headers,
a gzip file and a plain one, and a missing file in the list; read from
the local disk, from an HTTP server and from moto's S3 server, both on
127.0.0.1."""

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
# The local HTTP and S3 servers of the Python package's tests.
sys.path.insert(0, str(JOBS.parents[1] / "python" / "tests"))

import local_servers  # noqa: E402
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


def spark_submit(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Runs a job with spark-submit in local[2], with this Python (and
    `env` added to the environment)."""
    submit = Path(sys.executable).parent / "spark-submit"
    # Everything on the loopback interface: no packet leaves the machine.
    env = dict(
        os.environ,
        **(env or {}),
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
    errors = [l for l in output(run).splitlines() if " INFO " not in l]
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
    """The rows of the links job (uriscan), and what it printed."""
    d, listing, _ = crawl
    run = spark_submit(str(JOBS / "warc_links.py"), str(listing), str(d / "links"))
    return read_links(d / "links"), output(run)


def output(run: subprocess.CompletedProcess) -> str:
    """What a job printed: the driver's Python prints to spark-submit's
    standard output, the executors' to its standard error."""
    return run.stdout + run.stderr


def read_links(table: Path) -> list[dict]:
    """The rows of a links table partitioned by host, in the job's
    column order."""
    rows = pq.read_table(table, partitioning="hive").to_pylist()
    return [{k: r[k] for k in ("page", "link", "kind", "rel", "host")} for r in rows]


def sorted_rows(rows: list[dict]) -> list[tuple]:
    return sorted(tuple("" if v is None else v for v in r.values()) for r in rows)


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


def test_missing_file_is_counted_and_the_rest_read(crawl, links):
    d, _, _ = crawl
    rows, printed = links
    # Counted in the driver's summary, not only on an executor's stderr.
    assert "warc_links: 3 files, 2 read, 1 failed" in printed
    assert f"warc_links: failed: {d / 'missing.warc.gz'}: FileNotFoundError" in printed
    pages = {r["page"] for r in rows}
    assert len(pages) == PAGES + len(range(0, PAGES, make_warc.REDIRECT_EVERY))


def test_output_is_partitioned_by_host(crawl, links):
    d, _, _ = crawl
    rows, _ = links
    dirs = {p.name for p in (d / "links").iterdir() if p.is_dir()}
    hosts = {r["host"] for r in rows}
    assert dirs == {"host=__HIVE_DEFAULT_PARTITION__" if h is None else f"host={h}" for h in hosts}
    assert "host=cdn.example.net" in dirs


def test_archives_over_http(crawl, links):
    # The same files served over HTTP (fsspec reads them as streams), the
    # table written from 2 tasks holding whole hosts: the same rows, one
    # file per host, and a missing URL counted.
    d, _, _ = crawl
    rows, _ = links
    with local_servers.serve(d) as base:
        listing = d / "http_paths.txt"
        listing.write_text(f"{base}a.warc.gz\n{base}b.warc\n{base}missing.warc.gz\n")
        run = spark_submit(str(JOBS / "warc_links.py"), "--partitions", "2", str(listing), str(d / "http"))
    assert sorted_rows(read_links(d / "http")) == sorted_rows(rows)
    assert "warc_links: 3 files, 2 read, 1 failed" in output(run)
    assert f"warc_links: failed: {base}missing.warc.gz: FileNotFoundError" in output(run)
    per_host = [list(p.glob("*.parquet")) for p in (d / "http").iterdir() if p.is_dir()]
    assert per_host and all(len(files) == 1 for files in per_host)


def test_archives_in_s3(crawl, links):
    # The files and their listing in a bucket of moto's S3 server, read
    # as s3:// and s3a:// URLs: no file of the job is on the local disk.
    pytest.importorskip("moto.server")
    pytest.importorskip("s3fs")
    d, _, _ = crawl
    rows, _ = links
    files = {
        "crawl/a.warc.gz": (d / "a.warc.gz").read_bytes(),
        "crawl/b.warc": (d / "b.warc").read_bytes(),
        "warc_paths.txt": b"s3://commoncrawl/crawl/a.warc.gz\ns3a://commoncrawl/crawl/b.warc\n",
    }
    with local_servers.serve_s3("commoncrawl", files) as env:
        run = spark_submit(
            str(JOBS / "warc_links.py"), "s3://commoncrawl/warc_paths.txt", str(d / "s3"), env=env
        )
    assert sorted_rows(read_links(d / "s3")) == sorted_rows(rows)
    assert "warc_links: 2 files, 2 read, 0 failed" in output(run)


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
    theirs = collections.Counter((r["page"], r["link"], r["kind"]) for r in read_links(d / "lxml"))
    ours = collections.Counter(
        (r["page"], r["link"], r["kind"]) for r in rows if r["kind"] in ("html:a@href", "html:img@src")
    )
    assert sum(theirs.values()) > 300
    same = sum((theirs & ours).values())
    assert same >= 0.98 * sum(ours.values()), ((theirs - ours).most_common(5), (ours - theirs).most_common(5))
