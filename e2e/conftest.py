"""Browser tests: dist/ served on 127.0.0.1, driven by Playwright's sync API.

The tests act like a person (open a link, click a move, type a move) and wait
on the page's own signals (<html data-engine>, the URL fragment), never on time.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, sync_playwright

from . import browser as browser_choice
from .harness import HERE, ROOT, SUB_PATH, Watched

sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (the repo's build.py)


@pytest.fixture(scope="session")
def dist() -> Path:
    build.build_if_needed()
    return build.DIST


@pytest.fixture(scope="session")
def server(dist: Path) -> Iterator[str]:
    """Base URL of dist/ on a free port; /_e2e/ holds the test-only pages."""
    httpd = build.make_server(dist, 0, quiet=True, mounts={"/_e2e/": HERE / "pages", SUB_PATH: dist})
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(**browser_choice.launch_options(p))
        yield b
        b.close()


@pytest.fixture
def watched(browser: Browser, server: str) -> Iterator[Watched]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    w = Watched(page, context, origin=f"{urlsplit(server).scheme}://{urlsplit(server).netloc}")
    # context-level, so requests made by the worker are seen too
    context.on("request", lambda request: w.requests.append(request.url))
    page.on("pageerror", lambda exc: w.errors.append(f"uncaught: {exc}"))
    page.on("console", lambda msg: msg.type == "error" and w.errors.append(f"console: {msg.text}"))

    def on_worker(worker) -> None:
        worker.on("console", lambda msg: msg.type == "error" and w.errors.append(f"worker console: {msg.text}"))

    page.on("worker", on_worker)
    page.set_default_timeout(30_000)
    yield w
    context.close()
