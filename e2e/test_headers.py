"""What the site asks of hosts besides its files: the _headers rules (only the
embed may be framed by other sites) and the pages' own Content-Security-Policy."""

from __future__ import annotations

import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import quetgames
from playwright.sync_api import Browser

from .harness import SUB_PATH

import build

FRAMING = """<!doctype html><html><head><meta charset="utf-8"><title>host</title></head><body>
<iframe id="page" src="{site}index.html" title="the site"></iframe>
<iframe id="embed" src="{site}embed.html#{record}" title="the embed"></iframe>
</body></html>"""


def headers_of(url: str) -> dict[str, str]:
    with urllib.request.urlopen(url) as response:
        return {name.lower(): value for name, value in response.headers.items()}


@pytest.mark.parametrize("base", ["", SUB_PATH.lstrip("/")])
def test_only_the_embed_may_be_framed(server: str, base: str) -> None:
    for page in ("", "index.html"):
        sent = headers_of(f"{server}{base}{page}")
        assert sent["content-security-policy"] == "frame-ancestors 'none'"
        assert sent["x-frame-options"] == "DENY"
    sent = headers_of(f"{server}{base}embed.html")
    assert sent["content-security-policy"] == "frame-ancestors *"
    assert "x-frame-options" not in sent
    # the rules are for documents: a script goes out without them
    assert "content-security-policy" not in headers_of(f"{server}{base}app.js")


def test_the_headers_file_reads_as_hosts_read_it() -> None:
    rules = build.header_rules((build.WEB / build.HEADERS_FILE).read_text())
    assert build.headers_for(rules, "/embed.html") == [("Content-Security-Policy", "frame-ancestors *")]
    assert ("X-Frame-Options", "DENY") in build.headers_for(rules, "/")
    assert build.headers_for(rules, "/boards/grid.js") == []
    assert build.headers_for(build.header_rules("/a/*\n  X-Test: 1\n"), "/a/b/c") == [("X-Test", "1")]


@pytest.fixture
def other_site(tmp_path: Path, server: str) -> Iterator[str]:
    """A page on another site (localhost, where the app is on 127.0.0.1) framing both."""
    record = quetgames.new_game("multiplications").record
    (tmp_path / "host.html").write_text(FRAMING.format(site=server, record=record))
    httpd = build.make_server(tmp_path, 0, quiet=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://localhost:{httpd.server_address[1]}/host.html"
    httpd.shutdown()
    httpd.server_close()


def test_another_site_gets_the_embed_but_not_the_page(browser: Browser, other_site: str) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(other_site, wait_until="load")
        embed = page.frame_locator("#embed")
        embed.locator("body").get_by_text("Leroy Quet").first.wait_for(timeout=30_000)
        refused = page.locator("#page").element_handle().content_frame()
        # the browser puts its own error page in the frame, never the site
        assert not refused.url.startswith("http"), refused.url
    finally:
        context.close()


def test_pages_forbid_base_changes_and_form_posts(dist: Path) -> None:
    for name in ("index.html", "embed.html"):
        head = (dist / name).read_text()
        assert "base-uri 'none'" in head and "form-action 'none'" in head, name
