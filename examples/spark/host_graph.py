"""The host-level link graph of the links table that warc_links.py
writes: one edge per (page host, link host) pair of different hosts,
with the number of links, as Parquet.

    from_host  string   the host of the page, lowercased
    to_host    string   the host of the link
    links      long     how many links go from the one to the other

    spark-submit examples/spark/host_graph.py out/links out/host_graph

The page's host is read with Spark's parse_url (the pages are absolute
http(s) URLs of the crawl); the link's host comes from the links table.
Links with no host (mailto:, malformed ones, ...) and links within a
host are left out.
"""

from __future__ import annotations

import argparse

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F


def host_graph(links: DataFrame) -> DataFrame:
    """The edges of the host graph of a links table."""
    return (
        links.where(F.col("host").isNotNull())
        .select(
            F.lower(F.expr("parse_url(page, 'HOST')")).alias("from_host"),
            F.col("host").alias("to_host"),
        )
        .where(F.col("from_host").isNotNull() & (F.col("from_host") != F.col("to_host")))
        .groupBy("from_host", "to_host")
        .agg(F.count(F.lit(1)).alias("links"))
    )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description="The host graph of a links table.")
    p.add_argument("input", help="the Parquet links table of warc_links.py")
    p.add_argument("output", help="the Parquet directory to write")
    p.add_argument("--num-output-partitions", type=int, default=1)
    args = p.parse_args(argv)
    spark = SparkSession.builder.appName("host_graph").getOrCreate()
    # The table is partitioned by host: hosts stay strings (an IPv4 host
    # would be read as a number otherwise).
    spark.conf.set("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
    try:
        edges = host_graph(spark.read.parquet(args.input))
        edges.coalesce(args.num_output_partitions).write.mode("overwrite").parquet(args.output)
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
