"""The links of web archives, as Parquet: a PySpark job in the style of
Common Crawl's cc-pyspark.

The input is a text file listing WARC files (`.warc` or `.warc.gz`), one
absolute path or `file:` URI a line, readable by every executor (a
shared or mounted file system). Each file is one task. The output is a
Parquet table of every link of every response record:

    page  string   the record's WARC-Target-URI
    link  string   the link's target, resolved (`<base href>`, else the page)
    kind  string   html:a@href, html:img@src, ..., http:location,
                   http:content-location, http:link
    rel   string   the link's rel values, space-separated, or null
    host  string   the host of the link, lowercased, or null

    spark-submit examples/spark/warc_links.py warc_paths.txt out/links

`--extractor uriscan` (the default) reads each file in Rust
(uriscan.arrow.warc_batches) and hands Spark Arrow batches
(DataFrame.mapInArrow): no Python object per link. `--extractor lxml`
is the same job as crawlers write it in Python: warcio reads the
records, lxml parses the HTML, and a@href and img@src are resolved with
urljoin, as rows through mapPartitions. It is the yardstick of
benches/spark.sh; `--kinds html:a@href,html:img@src` makes the uriscan
job write the same links.

A file that cannot be read is reported on the executor's standard error
with its path, and the job goes on with the others.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Iterable, Iterator

from pyspark.sql import SparkSession

SCHEMA = "page string, link string, kind string, rel string, host string"


def local_path(path: str) -> str:
    """A local path from a line of the input: a path or a `file:` URI."""
    if path.startswith("file://"):
        return path[len("file://") :]
    if path.startswith("file:"):
        return path[len("file:") :]
    return path


def uriscan_partition(kinds: list[str] | None = None):
    """The function for mapInArrow: batches of WARC paths in, Arrow
    batches of links out (of `kinds` only, when given)."""

    def links(batches):
        from uriscan.arrow import warc_batches

        for batch in batches:
            for path in batch.column(0).to_pylist():
                try:
                    yield from warc_batches(local_path(path), host=True, kinds=kinds)
                except OSError as e:
                    print(f"uriscan: {path}: {e}", file=sys.stderr)

    return links


def lxml_partition(paths: Iterable[str]) -> Iterator[tuple]:
    """mapPartitions: WARC paths in, rows of links out, with warcio and
    lxml (a@href, img@src; `<base href>` honoured; the links resolved
    with urljoin)."""
    from urllib.parse import urljoin, urlsplit

    import lxml.etree
    import lxml.html
    from warcio.archiveiterator import ArchiveIterator

    for path in paths:
        try:
            stream = open(local_path(path), "rb")
        except OSError as e:
            print(f"lxml: {path}: {e}", file=sys.stderr)
            continue
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


def run(
    spark: SparkSession,
    input: str,
    output: str,
    extractor: str = "uriscan",
    partitions: int | None = None,
    kinds: list[str] | None = None,
) -> None:
    """Reads the list of WARC files at `input` and writes the links to
    `output` (with uriscan, of `kinds` only when given)."""
    paths = spark.read.text(input).where("trim(value) != ''")
    n = partitions or max(1, paths.count())
    paths = paths.repartition(n)
    if extractor == "uriscan":
        links = paths.mapInArrow(uriscan_partition(kinds), SCHEMA)
    else:
        rows = paths.rdd.map(lambda r: r.value.strip()).mapPartitions(lxml_partition)
        links = spark.createDataFrame(rows, SCHEMA)
    links.write.mode("overwrite").parquet(output)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="The links of WARC files, as Parquet.")
    p.add_argument("input", help="a text file listing WARC files, one a line")
    p.add_argument("output", help="the Parquet directory to write")
    p.add_argument("--extractor", choices=["uriscan", "lxml"], default="uriscan")
    p.add_argument("--num-input-partitions", type=int, help="default: one per file")
    p.add_argument(
        "--kinds",
        help="uriscan: keep only these kinds, comma-separated (html:a@href,html:img@src "
        "is what the lxml extractor takes)",
    )
    args = p.parse_args(argv)
    kinds = args.kinds.split(",") if args.kinds else None
    spark = SparkSession.builder.appName(f"warc_links ({args.extractor})").getOrCreate()
    try:
        start = time.perf_counter()
        run(spark, args.input, args.output, args.extractor, args.num_input_partitions, kinds)
        # The job's own time, without the JVM's and the session's start
        # (benches/spark.sh reads this line).
        print(f"warc_links: job time {time.perf_counter() - start:.3f} s", file=sys.stderr)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
