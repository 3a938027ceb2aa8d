"""Servers on 127.0.0.1 for the tests: a static file server with the
byte ranges (`Range: bytes=A-B`) that fsspec's HTTP files ask for
(Python's own http.server serves no ranges), and moto's S3 server with
the environment that points boto3 and s3fs at it."""

from __future__ import annotations

import contextlib
import os
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


#: Fake credentials: moto takes any, and nothing reaches AWS.
S3_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_EC2_METADATA_DISABLED": "true",
}


@contextlib.contextmanager
def serve_s3(bucket: str, files: dict[str, bytes]) -> Iterator[dict[str, str]]:
    """Runs moto's S3 server while the block runs, with `bucket` holding
    `files` (key: bytes); yields the environment under which boto3 and
    s3fs reach it (its endpoint, fake credentials), set in os.environ
    too for the block."""
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    env = dict(S3_ENV, AWS_ENDPOINT_URL_S3=f"http://{host}:{port}")
    saved = {k: os.environ.get(k) for k in [*env, "AWS_PROFILE", "AWS_ENDPOINT_URL"]}
    os.environ.update(env)
    os.environ.pop("AWS_PROFILE", None)
    os.environ.pop("AWS_ENDPOINT_URL", None)
    try:
        import boto3

        s3 = boto3.client("s3")
        s3.create_bucket(Bucket=bucket)
        for key, data in files.items():
            s3.put_object(Bucket=bucket, Key=key, Body=data)
        yield env
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        server.stop()
