"""uriscan.warc_links and uriscan.arrow.warc_batches read a WARC from
what a Python program holds: bytes, a binary file object (io.BytesIO,
gzip.open, a file that raises, one that trickles), and an fsspec HTTP
file of a server on 127.0.0.1; each gives what the path gives."""

import gzip
import io
import warnings

import pyarrow as pa
import pytest

import uriscan
import uriscan.arrow as ua
from local_servers import serve, serve_s3
from test_warc import RECORDS, record

WARC = b"".join(RECORDS)
#: The offset of the damaged record (its Content-Length runs past it).
DAMAGED = len(b"".join(RECORDS[:3]))


def rows(links):
    return [(l.page, l.kind, l.target, l.rel, l.record_id, l.record_offset, l.offset_kind) for l in links]


def read(source, **kw):
    """The links of `source`, and the messages of its damaged records."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        it = uriscan.warc_links(source, **kw)
        found = rows(it)
    return found, it.errors, [str(w.message) for w in caught]


@pytest.fixture
def want(tmp_path):
    path = tmp_path / "x.warc"
    path.write_bytes(WARC)
    found, errors, _ = read(path)
    assert len(found) == 7 and [o for o, _ in errors] == [DAMAGED]
    return found, errors


class Trickle(io.RawIOBase):
    """A stream whose reads hand out at most 7 bytes, as a socket may."""

    def __init__(self, data):
        self.data = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, buffer):
        data = self.data.read(min(7, len(buffer)))
        buffer[: len(data)] = data
        return len(data)


@pytest.mark.parametrize(
    "make",
    [
        bytes,
        bytearray,
        memoryview,
        io.BytesIO,
        lambda d: io.BufferedReader(io.BytesIO(d)),
        lambda d: io.BufferedReader(Trickle(d), buffer_size=16),
        Trickle,
    ],
    ids=["bytes", "bytearray", "memoryview", "BytesIO", "BufferedReader", "trickle-buffered", "trickle"],
)
def test_every_source_gives_what_the_path_gives(want, make):
    found, errors, messages = read(make(WARC))
    assert (found, errors) == want
    assert len(messages) == 1 and f"record at offset {DAMAGED}" in messages[0]


def test_a_gzip_open_stream(tmp_path, want):
    # One gzip stream decoded by Python: the reader sees a plain WARC.
    path = tmp_path / "whole.warc.gz"
    path.write_bytes(gzip.compress(WARC))
    with gzip.open(path, "rb") as f:
        found, errors, messages = read(f)
    assert (found, errors) == want
    assert messages and messages[0].startswith(f"{path}: record at offset {DAMAGED}")
    # And the same file read by uriscan's own gzip reader: the same links,
    # their offsets in the decompressed stream.
    own, _, _ = read(path)
    assert [r[:5] for r in own] == [r[:5] for r in want[0]]
    assert {r[6] for r in own} == {"decompressed"}


def test_messages_name_the_file_object():
    named = io.BytesIO(WARC)
    named.name = "s3://bucket/crawl/x.warc"
    _, _, messages = read(named)
    assert messages[0].startswith("s3://bucket/crawl/x.warc: record at offset")
    _, _, messages = read(io.BytesIO(WARC))
    assert messages[0].startswith("<BytesIO>: record at offset")
    _, _, messages = read(WARC)
    assert messages[0].startswith("<bytes>: record at offset")


class Broken(Exception):
    pass


class Failing(io.RawIOBase):
    """Hands out `good` bytes, then raises Broken on the next read."""

    def __init__(self, data, good):
        self.data, self.good, self.calls = io.BytesIO(data[:good]), good, 0

    def readable(self):
        return True

    def read(self, n=-1):
        self.calls += 1
        out = self.data.read(n)
        if not out:
            raise Broken("the disk is on fire")
        return out


def big_warc():
    """Over 1 MiB of records, so that the reader calls `.read` again."""
    from test_warc import http

    body = b'<a href="/p">' + b"x" * 4000
    one = lambda i: record("response", f"http://big.example/{i}", http("200 OK", [("Content-Type", "text/html")], body), i)  # noqa: E731
    return b"".join(one(i) for i in range(400))


def test_an_exception_of_read_is_raised_as_it_is():
    data = big_warc()
    assert len(data) > 1 << 20
    stream = Failing(data, 1 << 20)
    it = uriscan.warc_links(stream)
    got = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the cut record is no damaged record
        with pytest.raises(Broken, match="on fire"):
            for link in it:
                got.append(link.target)
    # The records read before the failure gave their links first.
    assert 200 < len(got) < 400 and got[0] == "http://big.example/p"
    assert it.errors == [] and list(it) == []
    with pytest.raises(Broken):
        list(ua.warc_batches(Failing(data, 1 << 20), rows=100000))


def test_an_exception_of_the_first_read_is_raised_at_once():
    with pytest.raises(Broken):
        uriscan.warc_links(Failing(WARC, 0))
    with pytest.raises(Broken):
        next(ua.warc_batches(Failing(WARC, 0)))


def test_what_is_not_a_binary_stream_is_a_type_error(tmp_path):
    path = tmp_path / "x.warc"
    path.write_bytes(RECORDS[0])
    with open(path) as text, pytest.raises(TypeError, match="read\\(\\) returned str"):
        list(uriscan.warc_links(text))
    with pytest.raises(TypeError, match="not int"):
        uriscan.warc_links(42)
    with pytest.raises(TypeError, match="read\\(\\) returned None"):
        uriscan.warc_links(NonBlocking())


class NonBlocking(io.RawIOBase):
    """A non-blocking raw stream with no data ready."""

    def readable(self):
        return True

    def readinto(self, buffer):
        return None


def test_warc_batches_of_a_stream_equal_those_of_the_path(tmp_path):
    path = tmp_path / "x.warc.gz"
    path.write_bytes(b"".join(gzip.compress(r) for r in RECORDS))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from_path = pa.Table.from_batches(list(ua.warc_batches(path, host=True)))
        with open(path, "rb") as f:
            from_stream = pa.Table.from_batches(list(ua.warc_batches(f, host=True)))
        from_bytes = pa.Table.from_batches(list(ua.warc_batches(path.read_bytes(), host=True)))
    assert from_path.num_rows == 7
    assert from_stream.equals(from_path) and from_bytes.equals(from_path)


def test_an_fsspec_http_file(tmp_path, want):
    fsspec = pytest.importorskip("fsspec")
    pytest.importorskip("aiohttp")
    (tmp_path / "crawl").mkdir()
    (tmp_path / "crawl" / "x.warc.gz").write_bytes(b"".join(gzip.compress(r) for r in RECORDS))
    with serve(tmp_path / "crawl") as base:
        url = base + "x.warc.gz"
        fs = fsspec.filesystem("http")
        # Random access (ranged reads), and a plain stream.
        for block_size in (None, 0):
            with fs.open(url, "rb", block_size=block_size) as f:
                found, errors, messages = read(f)
            assert [r[:5] for r in found] == [r[:5] for r in want[0]]
            assert len(errors) == 1 and messages[0].startswith(url), messages
        with fsspec.open(url, "rb") as f, pytest.warns(UserWarning, match=url):
            (batch, *more) = ua.warc_batches(f, rows=100)
        assert batch.num_rows == 7 and not more


def test_s3_objects_by_fsspec_and_boto3(want):
    pytest.importorskip("moto.server")
    fsspec = pytest.importorskip("fsspec")
    pytest.importorskip("s3fs")
    import boto3

    data = b"".join(gzip.compress(r) for r in RECORDS)
    with serve_s3("crawl", {"x.warc.gz": data}):
        for url in ("s3://crawl/x.warc.gz", "s3a://crawl/x.warc.gz"):
            with fsspec.open(url, "rb") as f:
                found, errors, messages = read(f)
            assert [r[:5] for r in found] == [r[:5] for r in want[0]]
            assert len(errors) == 1 and messages[0].startswith("s3://crawl/x.warc.gz: record"), messages
        # boto3's StreamingBody: a stream with no name.
        body = boto3.client("s3").get_object(Bucket="crawl", Key="x.warc.gz")["Body"]
        found, errors, messages = read(body)
        assert [r[:5] for r in found] == [r[:5] for r in want[0]] and len(errors) == 1


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_threads_read_file_objects_at_once(want):
    # Each reader takes the GIL back only for its `.read` calls; threads
    # reading streams at once each get their own file's links.
    import threading

    out = [None] * 4

    def work(i):
        out[i] = rows(uriscan.warc_links(Trickle(WARC) if i % 2 else io.BytesIO(WARC)))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(o == want[0] for o in out)
