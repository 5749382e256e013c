"""Browser tests: dist/ served on 127.0.0.1, driven by Playwright's sync API.

The tests act like a person (open a link, click a move, type a move) and wait
on the page's own signals (<html data-engine>, the URL fragment), never on time.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

from . import browser as browser_choice
from .harness import DESKTOP, HERE, ROOT, SUB_PATH, Watched, watched_page

sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (the repo's build.py)


@pytest.fixture(scope="session")
def dist() -> Path:
    build.build_if_needed()
    return build.DIST


@pytest.fixture(scope="session")
def server(dist: Path) -> Iterator[str]:
    """Base URL of dist/ on a free port; /_e2e/ holds the test-only pages, and
    /_e2e/pyodide-full/ the whole, untrimmed Pyodide they may need."""
    mounts = {"/_e2e/pyodide-full/": build.pyodide_runtime(), "/_e2e/": HERE / "pages", SUB_PATH: dist}
    httpd = build.make_server(dist, 0, quiet=True, mounts=mounts)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """The Chromium the tests check behaviour in (browser.FAST_FLAGS)."""
    b = playwright.chromium.launch(**browser_choice.launch_options(playwright, fast=True))
    yield b
    b.close()


@pytest.fixture(scope="session")
def measuring_browser(playwright: Playwright) -> Iterator[Browser]:
    """Chromium as people run it, for the tests that write figures down."""
    b = playwright.chromium.launch(**browser_choice.launch_options(playwright))
    yield b
    b.close()


@pytest.fixture
def watched(browser: Browser, server: str) -> Iterator[Watched]:
    """A fresh page that also writes down every request (the worker's too)."""
    w = watched_page(browser, server, viewport={"width": 1100, "height": 900}, timeout_ms=30_000)
    # context-level, so requests made by the worker are seen too
    w.context.on("request", lambda request: w.requests.append(request.url))

    def on_worker(worker) -> None:
        worker.on("console", lambda msg: msg.type == "error" and w.errors.append(f"worker console: {msg.text}"))

    w.page.on("worker", on_worker)
    yield w
    w.context.close()


@pytest.fixture(scope="session")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Host pages (a blog's) served from another origin and site than the app
    (localhost; the app is at 127.0.0.1), and the folder to write them in."""
    folder = tmp_path_factory.mktemp("host-pages")
    httpd = build.make_server(folder, 0, quiet=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://localhost:{httpd.server_address[1]}/", folder
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def w(browser: Browser, server: str) -> Iterator[Watched]:
    """One page per test module, loaded once (a Pyodide start is seconds);
    modules that need another start-up define their own `w`."""
    watched = watched_page(browser, server)
    watched.goto_ready(server)
    yield watched
    watched.context.close()


@pytest.fixture
def page(w: Watched) -> Iterator[Page]:
    """The module's page at desktop size, with no errors before or after the test."""
    w.errors.clear()
    w.page.set_viewport_size(DESKTOP)
    yield w.page
    assert w.errors == []
