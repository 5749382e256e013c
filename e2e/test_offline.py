"""Offline and install: the service worker keeps one whole build, serves it
with the network gone, and swaps to a new build only whole and only when the
player says so; the web manifest makes the site installable.

These tests serve their own copy of dist/ (under a sub-path, to prove the
worker's scope is relative), so they can change it into "the next build" or
take the server away without disturbing the shared dist/.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
import re
import shutil
import struct
import threading
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import quetgames
from playwright.sync_api import Browser, Page

from .conftest import build
from .harness import ARTIFACTS, LOAD_TIMEOUT_MS, READY, fragment_of

SUB = "/offline/copy/"

# Resolves once a service worker is active and controls the page (it claims
# the page on its first activation); returns its script URL.
CONTROLLED = """async () => {
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, {once: true}));
  }
  return navigator.serviceWorker.controller.scriptURL;
}"""

# Asks for an update check and resolves with how the new worker ended up
# ("installed" = waiting, "redundant" = its install failed), or "none".
UPDATE = """async () => {
  const reg = await navigator.serviceWorker.getRegistration();
  const found = new Promise((resolve) => reg.addEventListener("updatefound", () => resolve(reg.installing), {once: true}));
  await reg.update();
  // updatefound may come a task after update() settles; bounded, in case it never does
  const sw = await Promise.race([found, new Promise((resolve) => setTimeout(() => resolve(null), 30000))]);
  if (!sw) return "none";
  const settled = () => ["installed", "redundant", "activated"].includes(sw.state);
  if (!settled()) await new Promise((resolve) => sw.addEventListener("statechange", () => settled() && resolve()));
  return sw.state;
}"""

# Every listed file as the page gets it now, hashed the way build.py lists them.
SERVED_HASHES = """async (paths) => {
  const out = {};
  for (const path of paths) {
    const digest = await crypto.subtle.digest("SHA-256", await (await fetch(path)).arrayBuffer());
    out[path] = "sha256-" + btoa(String.fromCharCode(...new Uint8Array(digest)));
  }
  return out;
}"""

CACHED_URLS = """async (name) => (await (await caches.open(name)).keys()).map((r) => r.url)"""


def precache_of(folder: Path) -> dict:
    """The {version, files} list build.py wrote into folder/sw.js."""
    text = (folder / "sw.js").read_text()
    found = re.search(r"/\* precache \*/(.*?)/\* end precache \*/", text, re.S)
    assert found, "sw.js carries no precache list"
    return json.loads(found.group(1))


def offline_caches(page: Page) -> list[str]:
    """The page's caches that sw.js made (the worker may keep others of its own)."""
    return sorted(name for name in page.evaluate("caches.keys()") if name.startswith("quet-games "))


def cache_name(version: str) -> str:
    return f"quet-games {SUB} {version}"


def make_build(dist: Path, dest: Path, tag: str) -> str:
    """A copy of dist/ made into a different build: build.json says `tag`,
    style.css ends with a comment naming it, and sw.js lists the result."""
    shutil.copytree(dist, dest)
    info = json.loads((dest / "build.json").read_text())
    (dest / "build.json").write_text(json.dumps({**info, "test_build": tag}, indent=1) + "\n")
    with open(dest / "style.css", "a") as css:
        css.write(f"\n/* test build {tag} */\n")
    return build.write_precache(dest)


@dataclass
class Site:
    root: Path  # the folder served at SUB; replace it with build.swap_in
    url: str
    httpd: object
    requests: list[str]  # paths the server was asked for, in order

    def stop(self) -> None:
        """Take the site away: the server closes and its folder is gone, so a
        request that still got through would fail, not quietly succeed."""
        self.httpd.shutdown()
        self.httpd.server_close()
        shutil.rmtree(self.root)


@pytest.fixture
def site(dist: Path, tmp_path: Path) -> Iterator[Site]:
    (tmp_path / "empty").mkdir()
    root = tmp_path / "site"
    make_build(dist, root, "A")
    httpd = build.make_server(tmp_path / "empty", 0, quiet=True, mounts={SUB: root})
    requests: list[str] = []
    handler = httpd.RequestHandlerClass

    class Logged(handler.func):  # type: ignore[name-defined]
        def log_request(self, code="-", size="-") -> None:
            requests.append(self.path)

    httpd.RequestHandlerClass = functools.partial(Logged, *handler.args, **handler.keywords)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield Site(root, f"http://127.0.0.1:{httpd.server_address[1]}{SUB}", httpd, requests)
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))  # type: ignore[attr-defined]
    page.set_default_timeout(LOAD_TIMEOUT_MS)
    yield page
    context.close()


def wait_ready(page: Page) -> None:
    page.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)


def served_build(page: Page) -> str | None:
    return page.evaluate("async () => (await (await fetch('build.json')).json()).test_build")


def first_visit(page: Page, site: Site, record: str) -> None:
    page.goto(f"{site.url}index.html#{record}")
    wait_ready(page)
    assert page.evaluate(CONTROLLED) == f"{site.url}sw.js"


def play_first_move(page: Page) -> str:
    """Click the first one-click move and return the record after it."""
    before = fragment_of(page)
    target = page.locator("[data-move]").first
    after = quetgames.load(before).play(target.get_attribute("data-move")).record
    target.click()
    page.wait_for_function("old => decodeURIComponent(location.hash.slice(1)) !== old", arg=before)
    wait_ready(page)
    assert fragment_of(page) == after
    return after


def opening_with_a_click() -> str:
    gid = next(g for g in quetgames.GAMES if quetgames.new_game(g).view()["legal_moves"])
    return quetgames.new_game(gid).record


def test_after_one_visit_the_site_plays_with_the_network_off(page: Page, site: Site) -> None:
    version = precache_of(site.root)["version"]
    first_visit(page, site, opening_with_a_click())
    assert offline_caches(page) == [cache_name(version)]
    listed = precache_of(site.root)["files"]
    assert sorted(page.evaluate(CACHED_URLS, cache_name(version))) == sorted(site.url + p for p in listed)

    site.stop()
    page.context.set_offline(True)
    page.reload()
    wait_ready(page)
    after = play_first_move(page)
    # the home page at the scope itself, with a query (as a home-screen start may add)
    page.goto(f"{site.url}?source=homescreen")
    wait_ready(page)
    assert page.locator(".game-card").count() == len(quetgames.GAMES)
    page.goto(f"{site.url}index.html#{after}")
    wait_ready(page)
    assert page.locator(f'section.game[data-record="{after}"]').count() == 1
    # the embed page is in the build too, query and all
    page.goto(f"{site.url}embed.html?mode=play#{after}")
    page.locator("html.embed-page").wait_for(state="attached")
    assert "Quet Games" in page.title()
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_new_build_replaces_the_old_one_whole_when_the_player_reloads(
        page: Page, site: Site, dist: Path, tmp_path: Path) -> None:
    old = precache_of(site.root)["version"]
    first_visit(page, site, opening_with_a_click())
    after = play_first_move(page)
    assert served_build(page) == "A"
    assert page.locator("#update-banner").count() == 0

    new = make_build(dist, tmp_path / "next", "B")
    assert new != old
    build.swap_in(tmp_path / "next", site.root)
    site.requests.clear()
    page.reload()  # the browser checks sw.js on navigation, finds it changed, installs B
    wait_ready(page)
    page.locator("#update-banner[data-kind=waiting]").wait_for()
    # B's install fetched what changed and copied the rest from A's cache
    fetched = {path.removeprefix(SUB) for path in site.requests}
    assert {"sw.js", "build.json", "style.css"} <= fetched, fetched
    assert not any(path.startswith("pyodide/") for path in fetched), fetched
    assert "new version" in page.locator("#update-banner").inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "offline-update-ready.png"))
    # B waits, fully cached; the page still runs on A alone
    assert sorted(offline_caches(page)) == sorted([cache_name(old), cache_name(new)])
    assert served_build(page) == "A"
    assert "test build B" not in page.evaluate("async () => (await fetch('style.css')).text()")

    with page.expect_navigation():
        page.click("#update-reload")
    wait_ready(page)
    assert fragment_of(page) == after  # the game reopens where it was
    assert offline_caches(page) == [cache_name(new)]
    files = precache_of(site.root)["files"]
    assert page.evaluate(SERVED_HASHES, list(files)) == files  # every file is B's
    assert served_build(page) == "B"
    assert page.locator("#update-banner").count() == 0
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_build_with_a_bad_file_does_not_install_and_the_old_one_stays(
        page: Page, site: Site, dist: Path, tmp_path: Path) -> None:
    old = precache_of(site.root)["version"]
    first_visit(page, site, opening_with_a_click())
    make_build(dist, tmp_path / "next", "B")
    # a changed file that is not what the list says (say, a deploy half done);
    # an unchanged one would be copied from the old cache and never fetched
    with open(tmp_path / "next" / "style.css", "a") as css:
        css.write("\n/* changed after the list was written */\n")
    build.swap_in(tmp_path / "next", site.root)

    assert page.evaluate(UPDATE) == "redundant"
    assert offline_caches(page) == [cache_name(old)]
    assert served_build(page) == "A"
    site.stop()
    page.context.set_offline(True)
    page.reload()
    wait_ready(page)
    assert page.locator("#update-banner").count() == 0
    play_first_move(page)


def test_the_precache_list_is_every_file_of_the_build(dist: Path) -> None:
    listed = precache_of(dist)
    on_disk = sorted(p.relative_to(dist).as_posix() for p in dist.rglob("*")
                     if p.is_file() and not p.name.startswith("."))
    skipped = {path for path in on_disk if build.PRECACHE_SKIP.fullmatch(path)}
    assert {"sw.js", "pyodide/pyodide-lock.json"} <= skipped
    assert sorted(listed["files"]) == sorted(set(on_disk) - skipped)
    for path, integrity in listed["files"].items():
        digest = hashlib.sha256((dist / path).read_bytes()).digest()
        assert integrity == "sha256-" + base64.b64encode(digest).decode(), path


def test_sw_js_is_revalidated_on_every_fetch(server: str) -> None:
    with urllib.request.urlopen(server + "sw.js") as response:
        assert response.headers.get_content_type() == "text/javascript"
        assert response.headers["Cache-Control"] == "no-cache"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_makes_the_site_installable(dist: Path, page: Page, server: str) -> None:
    manifest = json.loads((dist / "manifest.webmanifest").read_text())
    assert manifest["name"] == "Quet Games"
    assert "Leroy Quet" in manifest["description"]
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("./", "./", "standalone")
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = {}
    for icon in manifest["icons"]:
        data = (dist / icon["src"]).read_bytes()
        if icon["type"] == "image/png":
            width, height = png_size(data)
            assert icon["sizes"] == f"{width}x{height}", icon
            sizes.setdefault(icon.get("purpose", "any"), set()).add(width)
    assert {192, 512} <= sizes["any"] and 512 in sizes["maskable"], sizes

    # Chromium's own reading of it, from the page that links it
    page.goto(server)
    wait_ready(page)
    cdp = page.context.new_cdp_session(page)
    read = cdp.send("Page.getAppManifest")
    assert read["url"] == server + "manifest.webmanifest"
    assert read["errors"] == [], read["errors"]
    # with the service worker in charge, nothing stops an install but the
    # test browser's off-the-record profile
    page.evaluate(CONTROLLED)
    blockers = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    assert set(blockers) <= {"in-incognito"}, blockers
