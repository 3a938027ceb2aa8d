"""Writes a copy of the bench's .warc.gz whose Markdown records are not
read: each gzip member recompressed as build.py writes it, with the HTTP
`Content-Type: text/markdown` of a Markdown record made `text/x-unread`
(the same length, so every other byte stays), a media type uriscan does
not read. `uriscan links` on the copy does all the work of the original
but the Markdown reader's: the record reader, the inflate of every
record, the HTML records and the output of their links. Prints the bytes
of the Markdown payloads, for the time a Markdown reader needs for them.
With DOCS, writes there the Markdown payloads of the archive's first copy
of the corpus (those of docs0.example.org), one file each.

Usage: python3 unread_markdown.py IN.warc.gz OUT.warc.gz [DOCS]
"""

import gzip
import sys
import zlib

src, dst = sys.argv[1], sys.argv[2]
docs = sys.argv[3] if len(sys.argv) > 3 else None
written = 0
FROM, TO = b"\r\nContent-Type: text/markdown", b"\r\nContent-Type: text/x-unread"
assert len(FROM) == len(TO)
data = memoryview(open(src, "rb").read())  # slices without copies
markdown_bytes = 0
members = 0
with open(dst, "wb") as out:
    pos = 0
    while pos < len(data):
        # A member at a time, fed in pieces: the decoder copies whatever
        # input follows its member's end.
        d = zlib.decompressobj(31)
        parts, at = [], pos
        while not d.eof and at < len(data):
            parts.append(d.decompress(data[at:at + (1 << 16)]))
            at += 1 << 16
        record = b"".join(parts)
        pos = min(at, len(data)) - len(d.unused_data)
        members += 1
        head_end = record.find(b"\r\n\r\n")  # the WARC header's end
        http_end = record.find(b"\r\n\r\n", head_end + 4)  # the HTTP header's
        if FROM in record[head_end:http_end]:
            record = record[:head_end] + record[head_end:http_end].replace(FROM, TO) \
                + record[http_end:]
            # The payload: after the HTTP header, before the record's trailer.
            markdown_bytes += len(record) - (http_end + 4) - 4
            if docs and b"\r\nWARC-Target-URI: https://docs0.example.org/" in record[:head_end]:
                with open(f"{docs}/{written:04d}.md", "wb") as f:
                    f.write(record[http_end + 4:-4])
                written += 1
        out.write(gzip.compress(record, compresslevel=6, mtime=0))
print(f"{dst}: {members} records, {markdown_bytes} bytes of Markdown payloads,"
      f" {written} documents written")
