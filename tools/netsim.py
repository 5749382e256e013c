"""A slow network on 127.0.0.1, for tools/bench.py: static file servers whose
responses all pass through one shared link.

    python tools/netsim.py [--mbit 10] [--delay-ms 60] [--gzip] [--port 8001] [FOLDER]

The model, kept small on purpose:

- one link (`Link`): every byte any server sends (status line, headers, body)
  goes through one pacer shared by all connections and threads, `mbit`
  megabits per second, in chunks of `CHUNK` bytes. Chunks are granted first
  come, first served, so two downloads at once each get about half the link;
  a bucket of one chunk absorbs the sleeps' jitter. `mbit` 0: no limit.
- a delay before every response (`delay_ms`, one round trip and the server's
  think time): each request waits that long, in parallel with the others,
  before its first byte goes onto the link. TCP handshakes and slow start are
  not modelled.
- two kinds of host: *plain* serves files as they are (a bare static file
  host); *compressing* gzips text, JSON, SVG and wasm when the request's
  Accept-Encoding allows it, the way a CDN does (`GZIP_TYPES`, level
  `GZIP_LEVEL`, each file compressed once and kept in memory so compressing
  costs no time while measuring). Files already compressed (`.gz`, and `.xz`,
  whose type is none of those) go out as
  they are, with no Content-Encoding; zips, wheels and images are never
  compressed.
- a `Meter` per link records every exchange: path, when the request arrived,
  status, encoding, header bytes and body bytes as sent (after compression).

Everything else is build.py's server: HTTP/1.1 keep-alive, its MIME types
(application/wasm included), Cache-Control: no-cache, nosniff, and
Last-Modified / If-Modified-Since answered with 304.
"""

from __future__ import annotations

import argparse
import datetime
import email.utils
import functools
import gzip
import http.server
import io
import mimetypes
import os
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402  (the repo's build.py)

CHUNK = 8 * 1024  # bytes per grant: 6.6 ms at 10 Mbit/s, small enough to share fairly
GZIP_LEVEL = 6    # what most CDNs and nginx's gzip_comp_level use in practice
# Content types a CDN compresses (Cloudflare's and Netlify's lists include these).
GZIP_TYPES = frozenset({
    "text/html", "text/css", "text/javascript", "text/plain", "application/json",
    "application/manifest+json", "image/svg+xml", "application/wasm",
})
# Already compressed: served byte for byte, never with Content-Encoding.
GZ_TYPE = build.MIME_TYPES.get(".gz", "application/octet-stream")


class Link:
    """One link shared by every connection: a token bucket of `mbit` megabits
    per second holding at most one chunk. `send(write, data)` blocks until each
    chunk's turn on the link has passed, then writes it."""

    def __init__(self, mbit: float, chunk: int = CHUNK) -> None:
        self.rate = mbit * 1e6 / 8  # bytes per second; 0: unlimited
        self.chunk = chunk
        self._lock = threading.Lock()
        self._free_at = 0.0  # when the link has sent everything granted so far

    @property
    def mbit(self) -> float:
        return self.rate * 8 / 1e6

    def grant(self, size: int) -> float:
        """Book `size` bytes on the link; return when they have gone out."""
        with self._lock:
            now = time.monotonic()
            # idle time refills the bucket, up to one chunk
            start = max(self._free_at, now - self.chunk / self.rate)
            self._free_at = start + size / self.rate
            return self._free_at

    def send(self, write, data: bytes | memoryview) -> None:
        view = memoryview(data)
        if not self.rate:
            write(view)
            return
        for i in range(0, len(view), self.chunk):
            piece = view[i:i + self.chunk]
            wait = self.grant(len(piece)) - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            write(piece)


@dataclass
class Exchange:
    """One request and its response, as the server saw and sent it."""

    server: str               # "plain" or "gzip"
    connection: int           # which connection (a keep-alive one carries several)
    arrived: float            # time.time() once the request was read (epoch seconds)
    method: str = ""
    path: str = ""
    status: int = 0
    referer: str = ""         # the Referer header: which document or worker asked
    fetch_dest: str = ""      # the Sec-Fetch-Dest header (document, script, serviceworker, empty, ...)
    encoding: str = ""        # "gzip" or "" (identity)
    header_bytes: int = 0
    body_bytes: int = 0
    done: float | None = None  # time.time() once the response was written

    @property
    def sent(self) -> int:
        return self.header_bytes + self.body_bytes


@dataclass
class Meter:
    """Every exchange of the servers sharing a link, in order of arrival."""

    exchanges: list[Exchange] = field(default_factory=list)
    stray_bytes: int = 0  # written outside any exchange (should stay 0)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _last_activity: float = field(default_factory=time.monotonic)
    _open: int = 0

    def open(self, exchange: Exchange) -> None:
        with self._lock:
            self.exchanges.append(exchange)
            self._open += 1
            self._last_activity = time.monotonic()

    def close(self, exchange: Exchange) -> None:
        exchange.done = time.time()
        with self._lock:
            self._open -= 1
            self._last_activity = time.monotonic()

    def count(self, exchange: Exchange | None, size: int, header: bool) -> None:
        with self._lock:
            self._last_activity = time.monotonic()
            if exchange is None:
                self.stray_bytes += size
            elif header:
                exchange.header_bytes += size
            else:
                exchange.body_bytes += size

    def mark(self) -> int:
        with self._lock:
            return len(self.exchanges)

    def since(self, mark: int) -> list[Exchange]:
        with self._lock:
            return list(self.exchanges[mark:])

    def quiet_for(self) -> float:
        """Seconds since the last byte or exchange; 0 while a response is open."""
        with self._lock:
            return 0.0 if self._open else time.monotonic() - self._last_activity


def summarize(exchanges: list[Exchange], parts: dict[str, Callable[[Exchange], bool]] | None = None) -> dict:
    """Bytes sent, in all and per path, and for each of `parts` (name -> which
    exchanges belong to it) the same totals over its exchanges."""
    def total(xs):
        return {"bytes": sum(x.sent for x in xs), "body_bytes": sum(x.body_bytes for x in xs),
                "header_bytes": sum(x.header_bytes for x in xs), "requests": len(xs)}
    files: dict[str, dict] = {}
    for x in exchanges:
        f = files.setdefault(x.path, {"bytes": 0, "requests": 0, "statuses": [], "encoding": x.encoding})
        f["bytes"] += x.sent
        f["requests"] += 1
        f["statuses"].append(x.status)
    out = {**total(exchanges), "files": dict(sorted(files.items(), key=lambda kv: -kv[1]["bytes"]))}
    for name, belongs in (parts or {}).items():
        out[name] = total([x for x in exchanges if belongs(x)])
    return out


def as_dicts(exchanges: list[Exchange]) -> list[dict]:
    return [asdict(x) for x in exchanges]


# -- compression ---------------------------------------------------------------------


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header allows gzip (gzip or *, q not 0)."""
    for item in accept_encoding.split(","):
        name, *params = [p.strip() for p in item.split(";")]
        if name.lower() not in ("gzip", "x-gzip", "*"):
            continue
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            return True
    return False


def content_type(path: str) -> str:
    """The Content-Type build.py's server sends for `path`, except that a `.gz`
    file is GZ_TYPE (Python would guess the inner file's type, which only makes
    sense with Content-Encoding: gzip)."""
    if path.endswith(".gz"):
        return GZ_TYPE
    ext = os.path.splitext(path)[1]
    types = build.Handler.extensions_map
    return types.get(ext) or types.get(ext.lower()) or mimetypes.guess_type(path)[0] or "application/octet-stream"


def compressible(path: str, content_type: str) -> bool:
    return not path.endswith(".gz") and content_type.split(";")[0].strip().lower() in GZIP_TYPES


class GzipCache:
    """The gzip of each file, made once per (path, mtime, size) and kept."""

    def __init__(self, level: int = GZIP_LEVEL) -> None:
        self.level = level
        self._made: dict[tuple, bytes] = {}
        self._lock = threading.Lock()

    def get(self, path: str, st: os.stat_result) -> bytes:
        key = (path, st.st_mtime_ns, st.st_size)
        with self._lock:  # one compression at a time; warm() does them all up front
            if key not in self._made:
                self._made[key] = gzip.compress(Path(path).read_bytes(), self.level, mtime=0)
            return self._made[key]


# -- the server ----------------------------------------------------------------------


class _LinkWriter:
    """The connection's output, through the link and the meter."""

    def __init__(self, raw, handler: "Handler") -> None:
        self.raw = raw
        self.handler = handler

    def write(self, data) -> int:
        h = self.handler
        header = h._writing_headers

        def put(piece) -> None:
            # counted as it goes onto the socket, so a reader never sees bytes not yet counted
            h.meter.count(h.exchange, len(piece), header)
            self.raw.write(piece)

        h.link.send(put, data)
        return len(data)

    def flush(self) -> None:
        self.raw.flush()

    def close(self) -> None:
        self.raw.close()

    @property
    def closed(self) -> bool:
        return self.raw.closed

    def writable(self) -> bool:
        return True


class Handler(build.Handler):
    """build.py's static handler, with a link, a delay, a meter and (if
    `compress`) gzip. Subclassed per server by make_server()."""

    link: Link = Link(0)
    meter: Meter = Meter()
    delay = 0.0  # seconds before each response
    compress = False
    gzip_cache: GzipCache | None = None
    mounts: tuple[tuple[str, Path], ...] = ()  # URL prefix -> folder, longest first
    kind = "plain"

    _connections = 0
    _connections_lock = threading.Lock()

    def setup(self) -> None:
        super().setup()
        self.exchange: Exchange | None = None
        self._writing_headers = False
        with Handler._connections_lock:
            Handler._connections += 1
            self.connection_id = Handler._connections
        self.wfile = _LinkWriter(self.wfile, self)

    def handle_one_request(self) -> None:
        self.exchange = None
        try:
            super().handle_one_request()
        finally:
            if self.exchange is not None:
                self.meter.close(self.exchange)
                self.exchange = None

    def parse_request(self) -> bool:
        self.exchange = Exchange(self.kind, self.connection_id, time.time())
        self.meter.open(self.exchange)
        ok = super().parse_request()
        self.exchange.method = getattr(self, "command", "") or ""
        self.exchange.path = (getattr(self, "path", "") or "").split("?", 1)[0]
        if ok:
            self.exchange.referer = self.headers.get("Referer", "")
            self.exchange.fetch_dest = self.headers.get("Sec-Fetch-Dest", "")
        if ok and self.delay:
            time.sleep(self.delay)  # the round trip, before the first byte of the answer
        return ok

    def send_response_only(self, code, message=None) -> None:
        if self.exchange is not None:
            self.exchange.status = int(code)
        super().send_response_only(code, message)

    def flush_headers(self) -> None:
        self._writing_headers = True
        try:
            super().flush_headers()
        finally:
            self._writing_headers = False

    def translate_path(self, path: str) -> str:
        for prefix, folder in self.mounts:
            if path.startswith(prefix):
                return build._translate(folder, path[len(prefix):])
        return super().translate_path(path)

    def guess_type(self, path) -> str:
        return content_type(str(path))

    def send_head(self):
        if not self.compress or not accepts_gzip(self.headers.get("Accept-Encoding", "")):
            return self._plain_head()
        path = self.translate_path(self.path)
        if os.path.isdir(path) and self.path.split("?", 1)[0].split("#", 1)[0].endswith("/"):
            path = os.path.join(path, "index.html")
        ctype = self.guess_type(path)
        if not os.path.isfile(path) or not compressible(path, ctype):
            return self._plain_head()
        st = os.stat(path)
        if self._not_modified(st):
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return None
        body = self.gzip_cache.get(path, st)
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-type", ctype)
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(int(st.st_mtime)))
        self.end_headers()
        if self.exchange is not None:
            self.exchange.encoding = "gzip"
        return io.BytesIO(body)

    def _plain_head(self):
        if self.compress:  # a compressing host says which files it would compress
            path = self.translate_path(self.path)
            if os.path.isfile(path) and compressible(path, self.guess_type(path)):
                self._vary = True
        return super().send_head()

    def end_headers(self) -> None:
        if getattr(self, "_vary", False):
            self.send_header("Vary", "Accept-Encoding")
            self._vary = False
        super().end_headers()

    def _not_modified(self, st: os.stat_result) -> bool:
        """If-Modified-Since, as SimpleHTTPRequestHandler.send_head checks it."""
        if "If-Modified-Since" not in self.headers or "If-None-Match" in self.headers:
            return False
        try:
            since = email.utils.parsedate_to_datetime(self.headers["If-Modified-Since"])
        except (TypeError, IndexError, OverflowError, ValueError):
            return False
        if since.tzinfo is None:
            since = since.replace(tzinfo=datetime.timezone.utc)
        modified = datetime.datetime.fromtimestamp(st.st_mtime, datetime.timezone.utc).replace(microsecond=0)
        return modified <= since


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    handler: type[Handler]

    def handle_error(self, request, client_address) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # a browser closing mid-download is normal
            super().handle_error(request, client_address)

    @property
    def base(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"

    def warm(self) -> int:
        """Compress every file a compressing server may send, now rather than
        while a visit is being timed; return how many."""
        h = self.handler
        if not h.compress:
            return 0
        folders = [Path(h.directory), *(folder for _, folder in h.mounts)]
        n = 0
        for folder in folders:
            for path in folder.rglob("*"):
                if path.is_file() and compressible(str(path), content_type(str(path))):
                    h.gzip_cache.get(str(path), path.stat())
                    n += 1
        return n


def make_server(directory: Path, *, link: Link, meter: Meter, delay_ms: float = 0, compress: bool = False,
                mounts: dict[str, Path] | None = None, port: int = 0, quiet: bool = True,
                gzip_level: int = GZIP_LEVEL) -> Server:
    """A threaded server for `directory` on 127.0.0.1 whose responses go through
    `link` and are recorded in `meter`. `mounts` maps URL prefixes such as
    "/_bench/" to other folders (the longest prefix wins)."""
    ordered = tuple(sorted(((p, Path(f)) for p, f in (mounts or {}).items()), key=lambda pf: -len(pf[0])))

    class NetHandler(Handler):
        pass

    NetHandler.link, NetHandler.meter, NetHandler.delay = link, meter, delay_ms / 1000
    NetHandler.compress, NetHandler.mounts, NetHandler.quiet = compress, ordered, quiet
    NetHandler.kind = "gzip" if compress else "plain"
    NetHandler.gzip_cache = GzipCache(gzip_level) if compress else None
    NetHandler.directory = str(directory)
    server = Server(("127.0.0.1", port), functools.partial(NetHandler, directory=str(directory)))
    server.handler = NetHandler
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", type=Path, default=build.DIST, help="what to serve (default dist/)")
    parser.add_argument("--mbit", type=float, default=10, help="link speed in Mbit/s, shared by all connections (0: no limit)")
    parser.add_argument("--delay-ms", type=float, default=60, help="delay before each response (default 60)")
    parser.add_argument("--gzip", action="store_true", help="a compressing host (gzip like a CDN)")
    parser.add_argument("--port", type=int, default=8001)
    args = parser.parse_args(argv)
    server = make_server(args.folder, link=Link(args.mbit), meter=Meter(), delay_ms=args.delay_ms,
                         compress=args.gzip, port=args.port, quiet=False)
    server.warm()
    kind = f"gzip level {GZIP_LEVEL}" if args.gzip else "plain"
    print(f"Serving {args.folder} at {server.base} ({kind}, {args.mbit:g} Mbit/s, {args.delay_ms:g} ms; Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
