"""A static file server on 127.0.0.1 for the tests, with the byte ranges
(`Range: bytes=A-B`) that fsspec's HTTP files ask for; Python's own
http.server serves no ranges."""

from __future__ import annotations

import contextlib
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator
from urllib.parse import unquote, urlsplit


def _handler(root: Path) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_HEAD(self) -> None:
            self._serve(body=False)

        def do_GET(self) -> None:
            self._serve(body=True)

        def _serve(self, body: bool) -> None:
            path = (root / unquote(urlsplit(self.path).path).lstrip("/")).resolve()
            if not path.is_relative_to(root) or not path.is_file():
                self.send_error(404)
                return
            data = path.read_bytes()
            start, end, status = 0, len(data), 200
            ranged = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
            if ranged:
                start = min(int(ranged[1]), len(data))
                end = min(len(data), int(ranged[2]) + 1) if ranged[2] else len(data)
                status = 206
            self.send_response(status)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Accept-Ranges", "bytes")
            self.send_header("Content-Length", str(end - start))
            if ranged:
                self.send_header("Content-Range", f"bytes {start}-{end - 1}/{len(data)}")
            self.end_headers()
            if body:
                self.wfile.write(data[start:end])

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@contextlib.contextmanager
def serve(root: Path) -> Iterator[str]:
    """Serves the files under `root` while the block runs; yields the
    server's base URL (`http://127.0.0.1:PORT/`)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(Path(root).resolve()))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
