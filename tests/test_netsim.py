"""The bench's slow network (tools/netsim.py): what it sends, what it counts,
and that every connection shares one link.

Timings are checked against the link model with generous bounds (a transfer
takes at least most of its modelled time, and not many times it); they check
the model, not anybody's speed.
"""

from __future__ import annotations

import gzip
import http.client
import os
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import netsim  # noqa: E402

TEXT = ("Multiplications Within the Permutation. " * 4000).encode()  # 160 kB, compresses well
NOISE = os.urandom(250_000)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("site")
    (root / "index.html").write_bytes(b"<!doctype html><title>t</title>" + TEXT)
    (root / "app.js").write_bytes(TEXT)
    (root / "pyodide.asm.wasm").write_bytes(b"\0asm" + TEXT)
    (root / "pyodide.asm.wasm.gz").write_bytes(gzip.compress(b"\0asm" + TEXT))
    (root / "stdlib.zip").write_bytes(TEXT)
    (root / "icon.png").write_bytes(TEXT)
    (root / "noise.bin").write_bytes(NOISE)
    (root / "half-a.bin").write_bytes(NOISE[:125_000])
    (root / "half-b.bin").write_bytes(NOISE[125_000:])
    (root / "mounted").mkdir()
    (root / "mounted" / "page.html").write_bytes(b"<p>mounted</p>")
    return root


class Running:
    def __init__(self, site: Path, *, mbit=0.0, delay_ms=0.0, compress=False, link=None, meter=None):
        self.link = link or netsim.Link(mbit)
        self.meter = meter or netsim.Meter()
        self.server = netsim.make_server(site, link=self.link, meter=self.meter, delay_ms=delay_ms,
                                         compress=compress, mounts={"/_extra/": site / "mounted"})
        self.server.warm()
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def get(self, path: str, headers: dict | None = None, conn=None):
        c = conn or http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        c.request("GET", path, headers=headers or {})
        response = c.getresponse()
        return response, response.read()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def serve(site):
    running = []

    def start(**kwargs) -> Running:
        running.append(Running(site, **kwargs))
        return running[-1]
    yield start
    for r in running:
        r.close()


def raw_get(port: int, path: str, extra: str = "") -> bytes:
    """Everything the server sends for one request, as read off the socket."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{extra}\r\n".encode())
        chunks = []
        while data := s.recv(65536):
            chunks.append(data)
    return b"".join(chunks)


# -- what is sent and counted --------------------------------------------------------


@pytest.mark.parametrize("compress", [False, True])
def test_bytes_counted_are_the_bytes_on_the_socket(serve, site, compress):
    srv = serve(compress=compress)
    for path, extra in [("/noise.bin", ""), ("/app.js", "Accept-Encoding: gzip\r\n"), ("/missing.js", "")]:
        mark = srv.meter.mark()
        wire = raw_get(srv.port, path, extra)
        time.sleep(0.05)  # the handler closes its exchange just after the last write
        [x] = srv.meter.since(mark)
        head, _, body = wire.partition(b"\r\n\r\n")
        assert x.sent == len(wire)
        assert x.header_bytes == len(head) + 4
        assert x.body_bytes == len(body)
        assert x.path == path and x.done is not None
    assert srv.meter.stray_bytes == 0


def test_plain_host_sends_files_as_they_are(serve, site):
    srv = serve()
    response, body = srv.get("/app.js", {"Accept-Encoding": "gzip, deflate"})
    assert response.status == 200 and body == TEXT
    assert response.getheader("Content-Encoding") is None
    assert response.getheader("Content-Type") == "text/javascript; charset=utf-8"
    assert response.getheader("Cache-Control") == "no-cache"
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert srv.meter.exchanges[-1].body_bytes == len(TEXT)


@pytest.mark.parametrize("path, content_type", [
    ("/index.html", "text/html; charset=utf-8"),
    ("/app.js", "text/javascript; charset=utf-8"),
    ("/pyodide.asm.wasm", "application/wasm"),
])
def test_compressing_host_gzips_text_and_wasm(serve, site, path, content_type):
    srv = serve(compress=True)
    response, body = srv.get(path, {"Accept-Encoding": "gzip, deflate, br"})
    assert response.status == 200
    assert response.getheader("Content-Encoding") == "gzip"
    assert response.getheader("Content-Type") == content_type
    assert response.getheader("Vary") == "Accept-Encoding"
    assert int(response.getheader("Content-Length")) == len(body) < len(TEXT) / 10
    assert gzip.decompress(body) == (site / path[1:]).read_bytes()
    x = srv.meter.exchanges[-1]
    assert x.encoding == "gzip" and x.body_bytes == len(body)


@pytest.mark.parametrize("accept", [None, "identity", "gzip;q=0", "br"])
def test_compressing_host_sends_identity_unless_gzip_is_accepted(serve, site, accept):
    srv = serve(compress=True)
    response, body = srv.get("/app.js", {"Accept-Encoding": accept} if accept else {"Accept-Encoding": ""})
    assert response.getheader("Content-Encoding") is None
    assert body == TEXT


@pytest.mark.parametrize("path, content_type", [
    ("/pyodide.asm.wasm.gz", netsim.GZ_TYPE),
    ("/stdlib.zip", "application/zip"),
    ("/icon.png", "image/png"),
])
def test_compressed_and_binary_files_are_never_reencoded(serve, site, path, content_type):
    srv = serve(compress=True)
    response, body = srv.get(path, {"Accept-Encoding": "gzip"})
    assert response.getheader("Content-Encoding") is None
    assert response.getheader("Content-Type") == content_type
    assert body == (site / path[1:]).read_bytes()


@pytest.mark.parametrize("compress", [False, True])
def test_unchanged_files_come_back_304(serve, site, compress):
    srv = serve(compress=compress)
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
    first, _ = srv.get("/app.js", {"Accept-Encoding": "gzip"}, conn)
    again, body = srv.get("/app.js", {"Accept-Encoding": "gzip", "If-Modified-Since": first.getheader("Last-Modified")}, conn)
    assert again.status == 304 and body == b""
    assert srv.meter.exchanges[-1].status == 304 and srv.meter.exchanges[-1].body_bytes == 0
    # one keep-alive connection carried both
    assert srv.meter.exchanges[-1].connection == srv.meter.exchanges[-2].connection


def test_exchange_records_who_asked(serve, site):
    srv = serve()
    srv.get("/app.js", {"Referer": "http://x/sw.js", "Sec-Fetch-Dest": "empty"})
    x = srv.meter.exchanges[-1]
    assert (x.method, x.path, x.status, x.referer, x.fetch_dest) == ("GET", "/app.js", 200, "http://x/sw.js", "empty")
    summary = netsim.summarize(srv.meter.exchanges, {"from sw": lambda x: x.referer.endswith("/sw.js")})
    assert summary["from sw"]["requests"] == 1 and summary["from sw"]["bytes"] == x.sent
    assert summary["files"]["/app.js"]["bytes"] == x.sent


def test_mounts_serve_another_folder(serve, site):
    srv = serve()
    response, body = srv.get("/_extra/page.html")
    assert response.status == 200 and body == b"<p>mounted</p>"


def test_accepts_gzip():
    assert netsim.accepts_gzip("gzip, deflate, br, zstd")
    assert netsim.accepts_gzip("br;q=1.0, gzip;q=0.8, *;q=0.1")
    assert netsim.accepts_gzip("*")
    assert not netsim.accepts_gzip("")
    assert not netsim.accepts_gzip("identity")
    assert not netsim.accepts_gzip("gzip;q=0, deflate")


# -- the link and the delay ------------------------------------------------------------


def test_delay_is_applied_to_every_request(serve, site):
    srv = serve(delay_ms=200)
    conn = http.client.HTTPConnection("127.0.0.1", srv.port, timeout=30)
    for _ in range(3):  # one keep-alive connection: each request waits again
        started = time.monotonic()
        conn.request("GET", "/mounted/page.html")
        response = conn.getresponse()
        first_byte = time.monotonic() - started
        response.read()
        assert first_byte >= 0.19


def test_a_transfer_takes_its_time_on_the_link(serve, site):
    srv = serve(mbit=1)  # 250 kB at 125 kB/s: 2 s
    started = time.monotonic()
    _, body = srv.get("/noise.bin")
    took = time.monotonic() - started
    assert body == NOISE
    assert 1.5 <= took <= 2 * 3 + 1


def test_unthrottled_link_does_not_pace(serve, site):
    srv = serve(mbit=0)
    started = time.monotonic()
    srv.get("/noise.bin")
    assert time.monotonic() - started < 1.0  # 2 s if it were paced at 1 Mbit/s


def test_concurrent_transfers_share_one_link_fairly(serve, site):
    # Two servers (two hosts) on one link: 125 kB each at 1 Mbit/s is 1 s
    # alone, 2 s together; shared fairly, neither is done much before 2 s.
    link, meter = netsim.Link(1), netsim.Meter()
    a, b = serve(link=link, meter=meter), serve(link=link, meter=meter, compress=True)
    done: dict[str, float] = {}
    started = time.monotonic()

    def fetch(srv, path):
        srv.get(path)
        done[path] = time.monotonic() - started

    threads = [threading.Thread(target=fetch, args=(a, "/half-a.bin")),
               threading.Thread(target=fetch, args=(b, "/half-b.bin"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert min(done.values()) >= 1.5, done  # first come, first served would finish one at 1 s
    assert max(done.values()) <= 2 * 3 + 1, done
    assert sum(x.body_bytes for x in meter.exchanges) == len(NOISE)
