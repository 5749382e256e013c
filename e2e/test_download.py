"""What a first visit downloads (web/worker.js, build.py's copy_pyodide): Pyodide's
big files and the compiled engine xz-compressed and expanded in the worker as
they stream in (web/bridge/xz.js), each checked against the SHA-256 the build wrote
into worker.js, as the xz decoder is; the
standard library cut down to what the engine imports, proven here by running
every bridge call in the site's own worker.
"""

from __future__ import annotations

import gzip
import io
import json
import lzma
import re
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route
from playwright.sync_api import Error as PlaywrightError

import quetgames
from quetgames import bridge

from .harness import LOAD_TIMEOUT_MS, ROOT, go, watched_page

COMPRESSED = ("pyodide.asm.wasm", "pyodide.asm.mjs", "python_stdlib.zip")
# every xz-compressed download of the worker, by its name in build.json, as a URL glob
DOWNLOADS = {**{name: f"**/pyodide/{name}.xz" for name in COMPRESSED}, "quetgames.zip": "**/engine/*/quetgames.zip.xz"}
DECODER = "**/vendor/xz-decompress.wasm"


def tour_in_worker(page) -> dict:
    """tools/bridge_tour.py run in the site's worker (worker.js?diagnostics)."""
    source = (ROOT / "tools" / "bridge_tour.py").read_text()
    return page.evaluate("(source) => window.__call('_tour', {source})", source)


@pytest.fixture(scope="module")
def diagnostics(browser: Browser, server: str):
    """The test page that talks to dist/worker.js?diagnostics, once ready."""
    w = watched_page(browser, server, timeout_ms=60_000)
    w.page.goto(f"{server}_e2e/snapshot.html")
    w.page.locator("html[data-state=ready], html[data-state=error]").wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    assert w.page.locator("html").get_attribute("data-state") == "ready", w.page.evaluate("window.__error")
    yield w.page
    w.context.close()


def test_every_bridge_call_works_on_the_shipped_standard_library(diagnostics) -> None:
    toured = tour_in_worker(diagnostics)
    assert toured["problems"] == []
    assert toured["calls"] == sorted(bridge._CALLS)


def test_the_measuring_calls_work_beside_the_tour(diagnostics) -> None:
    # tools/bench.py times computer moves through this call of worker.js?diagnostics
    record = quetgames.new_game("multiplications").record
    got = diagnostics.evaluate(
        "(r) => window.__call('_computer_move', {record: r, level: 'greedy', seed: 1, budget: 0.1})", record)
    assert got["move"] in quetgames.load(record).legal_moves()


def test_an_import_left_out_of_the_standard_library_fails_loudly(diagnostics) -> None:
    # A module the engine never imports is not shipped: importing it is an
    # error with its name in it, not a silent change of behaviour.
    source = "def tour(call, calls):\n    import xml.dom.minidom\n"
    with pytest.raises(Exception, match="ModuleNotFoundError.*xml"):
        diagnostics.evaluate("(source) => window.__call('_tour', {source})", source)


def expanded(dist: Path, name: str) -> bytes:
    url = json.loads((dist / "build.json").read_text())["pyodide_files"][name]["url"]
    return lzma.decompress((dist / url).read_bytes(), format=lzma.FORMAT_XZ)


def test_the_standard_library_holds_what_the_engine_imports_and_little_else(dist: Path) -> None:
    library = zipfile.ZipFile(io.BytesIO(expanded(dist, "python_stdlib.zip")))
    shipped = set(library.namelist())
    # compiled ahead (sourceless .pyc: no compiling in the browser), all for one Python
    assert {"json/__init__.pyc", "random.pyc", "hashlib.pyc", "dataclasses.pyc", "traceback.pyc"} <= shipped
    assert all(name.endswith(".pyc") for name in shipped)
    assert len({library.read(name)[:4] for name in shipped}) == 1
    assert not any(name.startswith(("email/parser", "unittest/", "xml/", "http/", "pydoc")) for name in shipped)
    whole = zipfile.ZipFile(build_runtime() / "python_stdlib.zip").namelist()
    assert len(shipped) < len(whole) / 3


def test_the_engine_arrives_compiled_without_its_command_line(dist: Path) -> None:
    engine = zipfile.ZipFile(io.BytesIO(expanded(dist, "quetgames.zip")))
    shipped = set(engine.namelist())
    assert {"quetgames/__init__.pyc", "quetgames/bridge.pyc", "quetgames/games/nonconformity.pyc",
            "quetgames/players/search.pyc", "quetgames/puzzles.pyc"} <= shipped
    assert all(name.startswith("quetgames/") and name.endswith(".pyc") for name in shipped)
    # compiled by the Python the site ships, the same as the standard library's
    library = zipfile.ZipFile(io.BytesIO(expanded(dist, "python_stdlib.zip")))
    assert {engine.read(name)[:4] for name in shipped} == {library.read("random.pyc")[:4]}
    # the command line and the balance runs are never imported in the browser
    assert not shipped & {"quetgames/__main__.pyc", "quetgames/balance.pyc"}
    # the worker puts the zip where the build's tour had it (the standard library it needs was found so)
    # (the shipped worker.js is minified: the path is a string in it wherever the name went)
    where = re.compile(r'const ENGINE_ZIP = "([^"]+)";')
    worker = where.search((ROOT / "web" / "worker.js").read_text())
    closure = where.search((ROOT / "tools" / "stdlib_closure.mjs").read_text())
    assert worker and closure and worker[1] == closure[1]
    assert f'"{worker[1]}"' in (dist / "worker.js").read_text()
    # (marshalled by Python 3.14, so read as bytes here): its tracebacks name that path, and -OO left no docstring
    bridge_pyc = engine.read("quetgames/bridge.pyc")
    assert f"{worker[1]}/quetgames/bridge.py".encode() in bridge_pyc
    docstring = (ROOT / "py" / "quetgames" / "bridge.py").read_text().split('"""')[1].splitlines()[0]
    assert docstring and docstring.encode() not in bridge_pyc
    assert (dist / json.loads((dist / "build.json").read_text())["wheel"]).is_file()  # for pip and micropip


def build_runtime() -> Path:
    import build
    return build.pyodide_runtime()


def test_the_worker_knows_every_download_before_it_asks(dist: Path) -> None:
    info = json.loads((dist / "build.json").read_text())
    assert sorted(info["pyodide_files"]) == sorted(DOWNLOADS)
    for name in DOWNLOADS:
        file = info["pyodide_files"][name]
        assert not (dist / "pyodide" / name).exists(), f"{name} is shipped uncompressed too"
        assert len((dist / file["url"]).read_bytes()) == file["size"]
        assert len(expanded(dist, name)) == file["raw_size"]
        assert file["sha256"] in (dist / "worker.js").read_text()
    assert expanded(dist, "pyodide.asm.wasm") == (build_runtime() / "pyodide.asm.wasm").read_bytes()
    decoder = info["xz_decoder"]
    assert (dist / decoder["url"]).read_bytes()[:4] == b"\0asm" and decoder["sha256"] in (dist / "worker.js").read_text()
    assert (dist / "vendor" / "xz-decompress.LICENSE.txt").read_text().count("License:") == 3


def test_every_download_is_xz_with_a_check_the_decoder_verifies(dist: Path) -> None:
    # xz's stream flags, after its 6-byte magic: 0x00 then the check type, 0x01 = CRC32.
    # xz-embedded verifies CRC32 and CRC64 but skips SHA-256 checks, and never needs them here.
    info = json.loads((dist / "build.json").read_text())
    for name, file in info["pyodide_files"].items():
        head = (dist / file["url"]).read_bytes()[:8]
        assert head == b"\xfd7zXZ\x00\x00\x01", (name, head)


def served(server: str, route: Route, change) -> None:
    """Answer `route` with the file from the server, changed by `change(bytes)`
    (with the server's headers but its Content-Length, which the change may
    make wrong: the browser would refuse the response before the worker saw it)."""
    try:
        response = route.fetch()
        body = response.body()
    except PlaywrightError as error:
        # the test already closed its context (the page refused another file
        # first): nothing is left to answer, and nothing to report
        if "disposed" in str(error) or "closed" in str(error):
            return
        raise
    headers = {name: value for name, value in response.headers.items() if name.lower() != "content-length"}
    route.fulfill(status=response.status, headers=headers, body=change(body))


def flip_middle(data: bytes) -> bytes:
    middle = len(data) // 2
    return data[:middle] + bytes(b ^ 0x5A for b in data[middle:middle + 64]) + data[middle + 64:]


@pytest.mark.parametrize("name", DOWNLOADS)
@pytest.mark.parametrize("damage", ["flipped", "truncated", "swapped"])
def test_a_damaged_download_is_refused_in_plain_words(browser: Browser, server: str, name: str, damage: str) -> None:
    change = {
        "flipped": flip_middle,
        "truncated": lambda data: data[: len(data) * 2 // 3],
        # whole and well-formed xz, but not the file the build listed
        "swapped": lambda data: lzma.compress(lzma.decompress(data) + b"\n", check=lzma.CHECK_CRC32),
    }[damage]
    w = watched_page(browser, server, timeout_ms=60_000)
    try:
        w.context.route(DOWNLOADS[name], lambda route: served(server, route, change))
        w.page.goto(server)
        w.page.locator("html[data-engine=error]").wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        text = w.page.locator("#loading-text").inner_text()
        url = json.loads((ROOT / "dist" / "build.json").read_text())["pyodide_files"][name]["url"]
        assert f"{url} arrived damaged" in text
        assert "Reload the page" in text
        assert w.page.locator("#retry").is_visible()
    finally:
        w.context.close()


def test_a_damaged_decoder_is_refused_in_plain_words(browser: Browser, server: str) -> None:
    w = watched_page(browser, server, timeout_ms=60_000)
    try:
        w.context.route(DECODER, lambda route: served(server, route, flip_middle))
        w.page.goto(server)
        w.page.locator("html[data-engine=error]").wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        text = w.page.locator("#loading-text").inner_text()
        assert "vendor/xz-decompress.wasm arrived damaged" in text and "Reload the page" in text, text
    finally:
        w.context.close()


def test_a_host_that_expands_the_puzzles_on_the_way_still_works(browser: Browser, server: str) -> None:
    # Some hosts send .gz files with Content-Encoding: gzip, so the browser hands
    # the page the expanded bytes: web/features/puzzle-board.js notices and reads them as
    # they are. (The worker's .xz files have no such case: no browser expands
    # xz, and whatever encoding a host adds on the way the browser takes off.)
    w = watched_page(browser, server, timeout_ms=60_000)
    try:
        w.context.route("**/puzzles.json.gz", lambda route: served(server, route, gzip.decompress))
        w.goto_ready(server)
        assert w.page.locator(".game-card").count() == 5
        # the puzzles, expanded on the way too (web/features/puzzle-board.js reads them as they come)
        go(w, "puzzle=today", wait=True)
        w.page.locator("section.puzzle #board [data-move]").first.wait_for()
        assert w.errors == []
    finally:
        w.context.close()


def test_a_first_visit_asks_for_each_download_once_and_nothing_it_can_know(browser: Browser, server: str) -> None:
    # (the service worker, which fetches the whole build for offline use once
    # the engine is ready, is kept out: this is about the start)
    w = watched_page(browser, server, service_workers="block")
    try:
        w.context.on("request", lambda request: w.requests.append(request.url))
        w.goto_ready(server)
        python = [url[len(server):] for url in w.requests if url.startswith((server + "pyodide/", server + "engine/", server + "wheels/"))]
        # no lock file: the build wrote it into the worker, so nothing waits on it; no wheel: the engine comes compiled
        urls = [file["url"] for file in json.loads((ROOT / "dist" / "build.json").read_text())["pyodide_files"].values()]
        assert sorted(python) == sorted(["pyodide/pyodide.mjs", *urls])
        assert [url for url in w.requests if url.endswith(".wasm")] == [server + "vendor/xz-decompress.wasm"]
        assert w.errors == []
    finally:
        w.context.close()


def test_index_html_preloads_every_module_app_js_imports(dist: Path) -> None:
    import build

    page = (dist / "index.html").read_text()
    preloaded = re.findall(r'<link rel="modulepreload" href="([^"]+)">', page)
    # app.js's static imports first, then the game view's (imported with the first game shown)
    assert preloaded == build.module_preloads(dist)
    assert preloaded[:len(build.static_imports(dist, "app.js"))] == build.static_imports(dist, "app.js")
    # imported two levels down (app.js -> dialog.js -> dom.js), and the engine's own script tag
    assert {"app.js", "ui/dialog.js", "ui/dom.js", "bridge/engine.js"} <= set(preloaded)
    assert '<script type="module" async src="bridge/engine.js">' in page
