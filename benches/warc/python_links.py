"""The Python pipeline crawlers write: warcio reads the records, lxml
parses each HTML (and Markdown, as HTML) payload, and a@href and img@src
are resolved against the page and printed, one a line.

Usage: python3 python_links.py FILE.warc.gz > links.txt
"""

import sys
from urllib.parse import urljoin

from lxml import html
from warcio.archiveiterator import ArchiveIterator

out = sys.stdout
with open(sys.argv[1], "rb") as f:
    for rec in ArchiveIterator(f):
        if rec.rec_type != "response":
            continue
        page = rec.rec_headers.get_header("WARC-Target-URI")
        ctype = rec.http_headers.get_header("Content-Type") or ""
        body = rec.content_stream().read()
        if not body or ("html" not in ctype and "markdown" not in ctype):
            continue
        try:
            tree = html.fromstring(body)
        except Exception:
            continue
        for el, attr in ((el, "href") for el in tree.iter("a")):
            v = el.get(attr)
            if v:
                out.write(urljoin(page, v.strip()) + "\n")
        for el in tree.iter("img"):
            v = el.get("src")
            if v:
                out.write(urljoin(page, v.strip()) + "\n")
