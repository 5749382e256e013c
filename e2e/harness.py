"""What the browser tests share: where things are, and a watched page."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from urllib.parse import urlsplit

from playwright.sync_api import Browser, BrowserContext, Page

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ARTIFACTS = HERE / "artifacts"
LOAD_TIMEOUT_MS = 90_000  # a cold Pyodide start is ~6 s here; generous for slow CI machines
SUB_PATH = "/some/sub/path/"  # dist/ is also served here, to prove relative URLs hold
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


@dataclass
class Watched:
    """A page with everything it did written down."""

    page: Page
    context: BrowserContext
    origin: str
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # uncaught exceptions and console errors

    def goto_ready(self, url: str) -> None:
        self.page.goto(url)
        self.wait_ready()

    def wait_ready(self) -> None:
        self.page.locator("html[data-engine=ready]").wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)

    def off_site(self) -> list[str]:
        """Requests that left the site's origin. A blob: URL of the origin is made
        in the browser from bytes it already has (the worker imports Pyodide's
        expanded script that way), so it stays."""
        return [url for url in self.requests
                if not url.startswith((self.origin + "/", f"blob:{self.origin}/"))]

    def fragment(self) -> str:
        return self.page.evaluate("() => decodeURIComponent(location.hash.slice(1))")

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


def watched_page(browser: Browser, server: str, *, viewport: dict = DESKTOP, timeout_ms: int = 20_000, **context_args) -> Watched:
    """A page in a fresh context, with its uncaught exceptions and console
    errors written down in `errors` (tests assert it stays empty)."""
    context = browser.new_context(viewport=viewport, **context_args)
    page = context.new_page()
    watched = Watched(page, context, origin=f"{urlsplit(server).scheme}://{urlsplit(server).netloc}")
    page.on("pageerror", lambda exc: watched.errors.append(f"uncaught: {exc}"))
    page.on("console", lambda msg: msg.type == "error" and watched.errors.append(f"console: {msg.text}"))
    page.set_default_timeout(timeout_ms)
    return watched
