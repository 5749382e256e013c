"""The smoke set, in every engine: Chromium (Playwright), Firefox (firefox-esr
over WebDriver BiDi) and WebKit (WebKitGTK's MiniBrowser through WebKitWebDriver).

What a person does first with the site: it loads; a link opens each game and
moves can be clicked; the address follows the game; a shared link opens the
same game in another window; a broken link says so; once loaded, it reloads
offline (where a service worker serves it). Expected records and statuses come
from the Python engine, as in e2e/test_site.py. An engine that is not installed
is skipped with the reason, and `python build.py test` names it in its summary.
"""

from __future__ import annotations

import json
import os
import statistics
import threading
from collections.abc import Iterator

import pytest
import quetgames

from ..harness import ARTIFACTS
from . import engines

MOVES_PER_GAME = 3
READY_LOADS = int(os.environ.get("CROSS_READY_LOADS", "1"))  # 5 for the figures in docs/BROWSERS.md
READY = "document.documentElement.dataset.engine === 'ready'"
FRAGMENT = "(() => { try { return decodeURIComponent(location.hash.slice(1)); } catch { return location.hash.slice(1); } })()"
# the moves a person can click right now: data-move targets that are shown
VISIBLE_MOVES = """[...document.querySelectorAll('[data-move]')]
  .filter((e) => (e.checkVisibility ? e.checkVisibility() : e.getClientRects().length > 0))
  .map((e) => e.dataset.move)"""
# time from navigation start to <html data-engine=ready>, measured by the page's own clock
WATCH_READY = """(() => {
  if (window.__readyAt === undefined) {
    window.__readyAt = null;
    const seen = () => { if (window.__readyAt === null && document.documentElement.dataset.engine === 'ready') window.__readyAt = performance.now(); };
    new MutationObserver(seen).observe(document.documentElement, {attributes: true, attributeFilter: ['data-engine']});
    seen();
  }
  return true;
})()"""

# Games opened by the smoke set: the default options, except Nonconformity's
# shorter number line so its lists stay small.
SMOKE_GAMES = {gid: ({"length": 5} if gid == "nonconformity" else {}) for gid in quetgames.GAMES}


@pytest.fixture(scope="module", params=engines.ENGINES)
def engine(request) -> Iterator[engines.Engine]:
    name = request.param
    try:
        if name == "chromium":
            started = engines.start(name, request.getfixturevalue("measuring_browser"))
        else:
            started = engines.start(name)
    except engines.EngineMissing as missing:
        if os.environ.get("CI"):  # .ci/run installs all three: missing there is a fault, not a skip
            pytest.fail(f"{name} is missing in CI: {missing}")
        pytest.skip(f"{name} not tested: {missing}")
    yield started
    started.close()


@pytest.fixture
def page(engine: engines.Engine) -> Iterator[engines.Page]:
    opened = engine.new_page()
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def warm(engine: engines.Engine, server: str) -> Iterator[engines.Page]:
    """One loaded page per engine that later tests move through by changing the
    fragment, as a person following links would: Python starts once per engine,
    not once per test (cold opens are the ready test's and the shared link's)."""
    opened = engine.new_page()
    yield opened
    opened.close()


def open_record(page: engines.Page, server: str, record: str) -> None:
    """Go to index.html#<record>: a cold load the first time, a fragment change
    after; this device plays every seat of it (as at one screen)."""
    page.goto(f"{server}index.html#{record}")
    page.eval(WATCH_READY)
    page.wait(f"{READY} && document.querySelector('section.game[data-record=\"{record}\"]') !== null",
              what=f"the game {record}")
    every_seat(page, record)


def every_seat(page: engines.Page, record: str) -> None:
    """This device plays every seat of `record`'s game, as the device that set
    it up at one screen does (web/share/seats.js): a test plays each seat's
    move in turn without being asked whether this phone plays it too."""
    game_id = quetgames.load(record).game_id
    if game_id:
        page.eval(f"""(() => {{ const map = JSON.parse(localStorage.getItem('quetgames.seats.v1') || '{{}}');
            map[{json.dumps(game_id)}] = {{ seats: 'all', at: Date.now() }};
            localStorage.setItem('quetgames.seats.v1', JSON.stringify(map)); }})()""")


def wait_ready(page: engines.Page) -> None:
    page.wait(READY, what="html[data-engine=ready]")


def open_url(page: engines.Page, url: str) -> None:
    page.goto(url)
    page.eval(WATCH_READY)
    wait_ready(page)


def status(page: engines.Page) -> str | None:
    return page.eval("document.getElementById('status')?.innerText.trim() ?? null")


def shot(engine: engines.Engine, page: engines.Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(ARTIFACTS / f"cross-{engine.name}-{name}.png")


def click_move(page: engines.Page, move: str) -> None:
    page.click(f'[data-move="{move}"]')


def play_one(page: engines.Page, state: quetgames.State) -> quetgames.State:
    """Click one move as a person would (through the hand-over screen when one
    shows) and wait for the address to hold the engine's public record of the result."""
    if page.eval("document.querySelector('.curtain') !== null"):
        seat = int(page.eval("document.querySelector('.curtain').dataset.seat"))
        page.click(".show-board")
        page.wait(f"{READY} && document.querySelector('.curtain') === null", what="the board after the hand-over")
    else:
        seat = state.view()["to_move"][0]
    shown = page.eval(VISIBLE_MOVES)
    if not shown:  # e.g. the whole list of picks, folded in a <details>
        page.click("details:not([open]):has([data-move]) > summary")
        shown = page.wait(f"({VISIBLE_MOVES}).length && {VISIBLE_MOVES}", what="a move to click")
    legal = state.legal_moves(seat)
    move = next((m for m in shown if m in legal), None)
    assert move is not None, f"none of the clickable moves {shown[:10]} is legal for seat {seat}: {legal[:10]}"
    after = state.play(move, seat)
    click_move(page, move)
    # A pick still secret stays out of the address (it keeps the round's public
    # record) and the hand-over screen comes up; otherwise the address follows.
    public = after.view()["record"]
    settled = f"{FRAGMENT} === {json.dumps(public)} && {READY}"
    if public != after.record:
        settled += " && document.querySelector('.curtain') !== null"
    page.wait(settled, what=f"the address to follow {move}")
    return after


# -- the smoke set ------------------------------------------------------------------


def test_page_becomes_ready(engine: engines.Engine, server: str) -> None:
    """Ready in every engine, the home page lists the games; time to ready is
    written to e2e/artifacts/cross-ready-<engine>.json (median of the loads)."""
    times = []
    for _ in range(READY_LOADS):
        page = engine.new_page()
        try:
            open_url(page, server)
            at = page.eval("window.__readyAt")
            times.append(at if at is not None else page.eval("performance.now()"))
            cards = page.eval("[...document.querySelectorAll('.game-card')].map((e) => e.id)")
            assert sorted(cards) == sorted(f"game-{g}" for g in quetgames.GAMES)
            # no COOP/COEP headers, so no SharedArrayBuffer anywhere: nothing here needs it
            assert page.eval("crossOriginIsolated") is False
            assert page.errors() == []
        finally:
            page.close()
    ARTIFACTS.mkdir(exist_ok=True)
    summary = {"engine": engine.version, "loads_ms": [round(t) for t in times], "median_ms": round(statistics.median(times))}
    (ARTIFACTS / f"cross-ready-{engine.name}.json").write_text(json.dumps(summary) + "\n")
    print(f"{engine.version}: ready in {summary['median_ms']} ms (median of {summary['loads_ms']})")


@pytest.mark.parametrize("game_id", sorted(SMOKE_GAMES))
def test_record_opens_game_and_clicked_moves_follow_in_the_address(
        engine: engines.Engine, warm: engines.Page, server: str, game_id: str) -> None:
    page = warm
    state = quetgames.new_game(game_id, **SMOKE_GAMES[game_id])
    open_record(page, server, state.record)
    if state.view()["legal_moves"]:
        assert status(page) == state.view()["status"]
    for _ in range(MOVES_PER_GAME):
        state = play_one(page, state)
    if not engine.name == "chromium" or game_id == "prime-target":
        shot(engine, page, f"game-{game_id}")
    assert page.errors() == []


def test_shared_link_reopens_the_same_game_in_a_new_window(engine: engines.Engine, page: engines.Page, server: str) -> None:
    state = quetgames.new_game("multiplications")
    open_url(page, f"{server}index.html#{state.record}")
    every_seat(page, state.record)
    for _ in range(2):
        state = play_one(page, state)
    # (the share panel is drawn after the move's board is painted)
    # (the link handed out carries the position's poster after the record, once made: share/still.js)
    link = page.wait(f"document.getElementById('share-link')?.value.split('!poster.')[0].endsWith('#' + {json.dumps(state.record)})"
                     " && document.getElementById('share-link').dataset.poster !== 'pending'"
                     " && document.getElementById('share-link').value", what="the share link to follow the game")
    assert link.split("#", 1)[1].split("!poster.")[0] == state.record

    other = engine.new_page()
    try:
        open_url(other, link)
        other.wait(f"document.querySelector('section.game[data-record=\"{state.record}\"]') !== null", what="the shared game")
        assert status(other) == state.view()["status"]
        shown = other.eval(VISIBLE_MOVES)
        assert shown and set(shown) <= set(state.legal_moves())
    finally:
        other.close()


def test_broken_link_shows_the_error_view(engine: engines.Engine, warm: engines.Page, server: str) -> None:
    page = warm
    page.goto(f"{server}index.html#q1.nosuchgame.x.")
    page.wait(f"{READY} && document.querySelector('.link-error') !== null", what="the link error view")
    assert "does not hold a game" in page.eval("document.getElementById('message').innerText")
    assert page.eval("document.querySelectorAll('.game-card').length") == len(quetgames.GAMES)
    shot(engine, page, "broken-link")


def test_share_falls_back_where_the_engine_has_no_share_sheet(engine: engines.Engine, warm: engines.Page, server: str) -> None:
    """Share… shows only where navigator.share exists; Copy link either reaches
    the clipboard or selects the link and says how to copy it by hand."""
    page = warm
    state = quetgames.new_game("multiplications").play("a1")
    open_record(page, server, state.record)
    has_share = page.eval("typeof navigator.share === 'function'")
    assert page.eval("document.querySelector('#share .share-button') !== null") == has_share
    page.click("#share .copy-link")
    kind = page.wait("document.querySelector('#share .share-said').dataset.kind", what="the copy outcome", timeout=10)
    assert kind in ("copied", "select")
    if kind == "select":
        assert page.eval("document.activeElement?.id") == "share-link"
        link = page.eval("document.getElementById('share-link').value")
        selected = page.eval("(() => { const f = document.getElementById('share-link'); return f.value.slice(f.selectionStart, f.selectionEnd); })()")
        assert selected == link
    print(f"{engine.version}: navigator.share {'present' if has_share else 'absent'}; Copy link -> {kind}")


def test_reload_offline_once_a_service_worker_holds_the_site(engine: engines.Engine, page: engines.Page, dist) -> None:
    """Loaded once, the site reloads and plays with its server gone, where the
    engine runs service workers for the origin; where it does not, the site
    still works online (the load above) and the test says why it skipped."""
    import build  # the repo's build.py (e2e/conftest.py put it on the path)

    httpd = build.make_server(dist, 0, quiet=True)  # its own origin: its own service worker
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    stopped = False
    try:
        open_url(page, base)
        if not page.eval("'serviceWorker' in navigator"):
            pytest.skip(f"{engine.version} offers no service workers to http://127.0.0.1 (the site works online, as loaded)")
        if not (dist / "sw.js").exists():
            pytest.skip("no service worker in this build (web/sw.js is not there yet)")
        page.wait("navigator.serviceWorker.ready.then(() => true)", what="the service worker to be active", timeout=60)
        open_url(page, base)  # the second load is the one the service worker controls
        assert page.eval("navigator.serviceWorker.controller !== null")
        httpd.shutdown()
        httpd.server_close()
        stopped = True
        state = quetgames.new_game("multiplications")
        # (a fragment change on the ready home page: wait for the game itself, not for ready, which the home page already was)
        open_record(page, base, state.record)
        play_one(page, state)
    finally:
        if not stopped:
            httpd.shutdown()
            httpd.server_close()


def test_a_damaged_download_is_refused_in_plain_words(engine: engines.Engine, page: engines.Page, dist, tmp_path) -> None:
    """A copy of the site whose xz-compressed wasm has bytes changed in the middle:
    every engine says so in words instead of hanging or starting."""
    import shutil

    import build

    site = tmp_path / "site"
    shutil.copytree(dist, site)
    wasm = site / "pyodide" / "pyodide.asm.wasm.xz"
    data = bytearray(wasm.read_bytes())
    for i in range(len(data) // 2, len(data) // 2 + 64):
        data[i] ^= 0x5A
    wasm.write_bytes(bytes(data))
    httpd = build.make_server(site, 0, quiet=True)  # its own origin: no cache or service worker of the real site
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/")
        page.wait("document.documentElement.dataset.engine === 'error'", what="the error view", timeout=120)
        text = page.eval("document.getElementById('loading-text').innerText")
        assert "pyodide/pyodide.asm.wasm.xz arrived damaged" in text, text
    finally:
        httpd.shutdown()
        httpd.server_close()
