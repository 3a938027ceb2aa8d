"""The links of web archives, as Parquet: a PySpark job in the style of
Common Crawl's cc-pyspark.

The input is a text file listing WARC (or ARC) files, one a line, read
by the driver: each line is a local path, a `file:` URI, or a URL that
fsspec reads, `s3://bucket/key` (as Common Crawl's own jobs read
`s3://commoncrawl/crawl-data/...`), `s3a://`, `https://`, `gs://` (with
gcsfs). Each executor streams its files from where they are: no shared
disk is needed. Each file is one task. The output is a Parquet table of
every link of every response record, partitioned by host
(`OUT/host=HOST/`, `host=__HIVE_DEFAULT_PARTITION__` for links with
none):

    page  string   the record's WARC-Target-URI
    link  string   the link's target, resolved (`<base href>`, else the page)
    kind  string   html:a@href, html:img@src, ..., http:location,
                   http:content-location, http:link
    rel   string   the link's rel values, space-separated, or null
    host  string   the host of the link, lowercased, or null

    spark-submit examples/spark/warc_links.py warc_paths.txt out/links

S3 is reached with s3fs and the usual AWS settings (AWS_ACCESS_KEY_ID,
..., AWS_ENDPOINT_URL_S3 for another endpoint than AWS's; an anonymous
read of a public bucket with `--anon`).

`--extractor uriscan` (the default) reads each file in Rust
(uriscan.arrow.warc_batches, from a path or an fsspec file object) and
hands Spark Arrow batches (DataFrame.mapInArrow): no Python object per
link. `--extractor lxml` is the same job as crawlers write it in
Python: warcio reads the records, lxml parses the HTML, and a@href and
img@src are resolved with urljoin, as rows through mapPartitions. It is
the yardstick of benches/spark.sh; `--kinds html:a@href,html:img@src`
makes the uriscan job write the same links. `--standard whatwg` writes
targets as browsers fetch them (the URL Standard) rather than by RFC
3986.

`--partitions N` writes the table from N tasks, each holding whole
hosts (one file per host and task); by default each input task writes
its own files.

A file that cannot be read (or fails part-way: its links read before
stay) is reported with its path and counted: the job's summary on the
driver's standard error says how many files were read and which failed,
and `run` returns the same.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from dataclasses import dataclass, field
from typing import IO, ContextManager, Iterable, Iterator

from pyspark.accumulators import AccumulatorParam
from pyspark.sql import SparkSession

SCHEMA = "page string, link string, kind string, rel string, host string"


def local_path(path: str) -> str | None:
    """The local path of a line of the input (a path or a `file:` URI),
    None for a URL of another scheme."""
    if path.startswith("file://"):
        return path[len("file://") :]
    if path.startswith("file:"):
        return path[len("file:") :]
    if "://" in path:
        return None
    return path


def open_archive(path: str, anon: bool = False) -> ContextManager[str | IO[bytes]]:
    """What the readers take for a line of the input: a local path as it
    is (read by uriscan's own file reader), else an fsspec file object,
    read as a stream (no copy on disk)."""
    local = local_path(path)
    if local is not None:
        return contextlib.nullcontext(local)
    import fsspec

    options = {"anon": True} if anon and path.startswith(("s3://", "s3a://")) else {}
    return fsspec.open(path, "rb", **options)


class ListParam(AccumulatorParam):
    """An accumulator of lists: the failed files, from every task."""

    def zero(self, value: list) -> list:
        return []

    def addInPlace(self, a: list, b: list) -> list:
        a.extend(b)
        return a


@dataclass
class Summary:
    """What a run read: the number of files, and `(path, error)` of each
    that failed."""

    files: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)


def uriscan_partition(
    failed, kinds: list[str] | None = None, standard: str = "rfc3986", anon: bool = False
):
    """The function for mapInArrow: batches of WARC paths in, Arrow
    batches of links out (of `kinds` only, when given); a file that
    fails is added to the accumulator `failed`."""

    def links(batches):
        from uriscan.arrow import warc_batches

        for batch in batches:
            for path in batch.column(0).to_pylist():
                try:
                    with open_archive(path, anon) as source:
                        yield from warc_batches(source, host=True, kinds=kinds, standard=standard)
                except Exception as e:  # noqa: BLE001 - any file's failure is counted
                    print(f"uriscan: {path}: {e}", file=sys.stderr)
                    failed.add([(path, f"{type(e).__name__}: {e}")])

    return links


def lxml_partition(paths: Iterable[str], failed=None, anon: bool = False) -> Iterator[tuple]:
    """mapPartitions: WARC paths in, rows of links out, with warcio and
    lxml (a@href, img@src; `<base href>` honoured; the links resolved
    with urljoin); a file that fails is added to `failed`."""
    for path in paths:
        try:
            yield from lxml_file(path, anon)
        except Exception as e:  # noqa: BLE001 - any file's failure is counted
            print(f"lxml: {path}: {e}", file=sys.stderr)
            if failed is not None:
                failed.add([(path, f"{type(e).__name__}: {e}")])


def lxml_file(path: str, anon: bool = False) -> Iterator[tuple]:
    """The rows of links of one WARC file, by warcio and lxml."""
    from urllib.parse import urljoin, urlsplit

    import lxml.etree
    import lxml.html
    from warcio.archiveiterator import ArchiveIterator

    with open_archive(path, anon) as source:
        stream = open(source, "rb") if isinstance(source, str) else source
        with stream:
            for rec in ArchiveIterator(stream):
                if rec.rec_type != "response" or rec.http_headers is None:
                    continue
                ctype = rec.http_headers.get_header("Content-Type") or ""
                if "html" not in ctype.lower():
                    continue
                page = rec.rec_headers.get_header("WARC-Target-URI")
                body = rec.content_stream().read()
                try:
                    doc = lxml.html.fromstring(body)
                except (lxml.etree.ParserError, ValueError):
                    continue
                base = page
                for b in doc.iterfind(".//base[@href]"):
                    base = urljoin(page, b.get("href").strip())
                    break
                for tag, attr in (("a", "href"), ("img", "src")):
                    for el in doc.iter(tag):
                        value = el.get(attr)
                        if value is None:
                            continue
                        try:
                            link = urljoin(base, value.strip())
                            host = urlsplit(link).hostname
                        except ValueError:
                            link, host = value, None
                        rel = el.get("rel")
                        yield (page, link, f"html:{tag}@{attr}", rel, host)


def read_listing(input: str) -> list[str]:
    """The archives listed in `input` (a local path or an fsspec URL),
    read by the driver."""
    local = local_path(input)
    if local is not None:
        with open(local) as f:
            lines = f.read().splitlines()
    else:
        import fsspec

        with fsspec.open(input, "rt") as f:
            lines = f.read().splitlines()
    return [line.strip() for line in lines if line.strip()]


def run(
    spark: SparkSession,
    input: str,
    output: str,
    extractor: str = "uriscan",
    input_partitions: int | None = None,
    kinds: list[str] | None = None,
    partitions: int | None = None,
    standard: str = "rfc3986",
    anon: bool = False,
) -> Summary:
    """Reads the archives listed at `input` and writes their links to
    `output`, partitioned by host (with uriscan, of `kinds` only when
    given; from `partitions` tasks when given); says what it read."""
    listing = read_listing(input)
    failed = spark.sparkContext.accumulator([], ListParam())
    paths = spark.createDataFrame([(p,) for p in listing], "value string")
    paths = paths.repartition(input_partitions or max(1, len(listing)))
    if extractor == "uriscan":
        links = paths.mapInArrow(uriscan_partition(failed, kinds, standard, anon), SCHEMA)
    else:
        rows = paths.rdd.map(lambda r: r.value).mapPartitions(
            lambda part: lxml_partition(part, failed, anon)
        )
        links = spark.createDataFrame(rows, SCHEMA)
    if partitions:
        links = links.repartition(partitions, "host")
    links.write.mode("overwrite").partitionBy("host").parquet(output)
    return Summary(files=len(listing), failed=sorted(set(failed.value)))


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="The links of WARC files, as Parquet partitioned by host.")
    p.add_argument("input", help="a text file listing WARC files (paths or URLs), one a line")
    p.add_argument("output", help="the Parquet directory to write")
    p.add_argument("--extractor", choices=["uriscan", "lxml"], default="uriscan")
    p.add_argument("--num-input-partitions", type=int, help="default: one per file")
    p.add_argument("--partitions", type=int, help="write from this many tasks, each holding whole hosts")
    p.add_argument(
        "--kinds",
        help="uriscan: keep only these kinds, comma-separated (html:a@href,html:img@src "
        "is what the lxml extractor takes)",
    )
    p.add_argument(
        "--standard",
        choices=["rfc3986", "whatwg"],
        default="rfc3986",
        help="uriscan: targets by RFC 3986 (default) or by the URL Standard, as browsers fetch them",
    )
    p.add_argument("--anon", action="store_true", help="read s3:// without credentials (a public bucket)")
    args = p.parse_args(argv)
    kinds = args.kinds.split(",") if args.kinds else None
    spark = SparkSession.builder.appName(f"warc_links ({args.extractor})").getOrCreate()
    try:
        start = time.perf_counter()
        summary = run(
            spark,
            args.input,
            args.output,
            args.extractor,
            args.num_input_partitions,
            kinds,
            args.partitions,
            args.standard,
            args.anon,
        )
        # The job's own time, without the JVM's and the session's start
        # (benches/spark.sh reads this line).
        print(f"warc_links: job time {time.perf_counter() - start:.3f} s", file=sys.stderr)
        print(
            f"warc_links: {summary.files} files, {summary.files - len(summary.failed)} read, "
            f"{len(summary.failed)} failed",
            file=sys.stderr,
        )
        for path, error in summary.failed:
            print(f"warc_links: failed: {path}: {error}", file=sys.stderr)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
