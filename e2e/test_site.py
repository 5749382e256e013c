"""The site as a person uses it: load, open a shared game, click a move, make a
mistake; and what must never happen (requests off the site, uncaught errors).

Expected records, statuses and messages come from the Python engine itself
(imported from py/), so these tests check the page against the rules, not
against numbers copied in here.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

import pytest
import quetgames

from .harness import LOAD_TIMEOUT_MS, SUB_PATH, Watched, is_new_game_of

# Records every value <html data-engine> takes, and the loading texts shown,
# from the very first script on: proves the progress display came first.
RECORD_LOADING = """
window.__seen = {engine: [], progress: []};
new MutationObserver(() => {
  const html = document.documentElement;
  const seen = window.__seen;
  if (seen.engine.at(-1) !== html.dataset.engine) seen.engine.push(html.dataset.engine);
  const text = document.getElementById("loading-text");
  const loading = document.getElementById("loading");
  if (text && loading && !loading.hidden && seen.progress.at(-1) !== text.textContent) seen.progress.push(text.textContent);
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def playable_games() -> list[str]:
    """Games whose opening position has a move for the seat to move (simultaneous
    openings show no one-click move in the plain view)."""
    return [gid for gid in quetgames.GAMES if quetgames.new_game(gid).view()["legal_moves"]]


def open_game(w: Watched, base: str, record: str) -> None:
    w.goto_ready(f"{base}index.html#{record}")
    assert w.page.locator(f'section.game[data-record="{record}"]').count() == 1


def test_page_shows_progress_then_becomes_ready(watched: Watched, server: str) -> None:
    watched.page.add_init_script(RECORD_LOADING)
    watched.goto_ready(server)
    seen = watched.page.evaluate("window.__seen")
    assert seen["engine"][0] == "loading" and seen["engine"][-1] == "ready", seen
    # real download progress, counted by the worker as the bytes arrive
    assert any(text.startswith("Downloading Python (") for text in seen["progress"]), seen
    assert watched.page.locator("#loading").is_hidden()
    # the home page lists every game the engine knows, each credited to Leroy Quet
    cards = watched.page.locator(".game-card")
    assert sorted(cards.evaluate_all("els => els.map(e => e.id)")) == sorted(f"game-{g}" for g in quetgames.GAMES)
    assert cards.filter(has_text="Invented by Leroy Quet").count() == len(quetgames.GAMES)
    assert "invented by Leroy Quet" in watched.page.locator("header.site").inner_text()
    watched.screenshot("home")


@pytest.mark.parametrize("game_id", playable_games())
def test_record_in_fragment_opens_game_and_a_click_plays(watched: Watched, server: str, game_id: str) -> None:
    state = quetgames.new_game(game_id)
    open_game(watched, server, state.record)
    page = watched.page
    assert page.locator("#status").inner_text() == state.view()["status"]

    target = page.locator("[data-move]").first
    move = target.get_attribute("data-move")
    assert move in state.legal_moves()
    after = state.play(move)
    entries = page.evaluate("history.length")
    target.click()
    page.wait_for_function("old => decodeURIComponent(location.hash.slice(1)) !== old", arg=state.record)
    watched.wait_ready()

    assert watched.fragment() == after.record
    assert page.locator("#status").inner_text() == after.view()["status"]
    assert page.locator(f'section.game[data-record="{after.record}"]').count() == 1
    # each move replaces the fragment: the history gained no entry for it
    assert page.evaluate("history.length") == entries
    watched.screenshot(f"game-{game_id}-after-click")


def test_illegal_move_shows_the_engine_message_and_changes_nothing(watched: Watched, server: str) -> None:
    state = quetgames.new_game(playable_games()[0])
    open_game(watched, server, state.record)
    page = watched.page
    status = page.locator("#status").inner_text()
    targets = page.locator("[data-move]").count()
    bad = "zz99"
    with pytest.raises(quetgames.IllegalMove) as refused:
        state.play(bad)

    page.fill("#move-input", bad)
    page.press("#move-input", "Enter")
    message = page.locator("#message")
    message.filter(has_text=str(refused.value)).wait_for()
    watched.wait_ready()

    assert message.inner_text() == str(refused.value)
    assert watched.fragment() == state.record
    assert page.locator("#status").inner_text() == status
    assert page.locator("[data-move]").count() == targets
    watched.screenshot("illegal-move")


def test_broken_record_in_fragment_says_so_on_the_home_page(watched: Watched, server: str) -> None:
    watched.goto_ready(f"{server}#q1.nosuchgame.x.")
    assert "does not hold a game" in watched.page.locator("#message").inner_text()
    assert watched.page.locator(".game-card").count() == len(quetgames.GAMES)


def test_new_game_from_home_then_play_stays_on_origin_without_errors(watched: Watched, server: str) -> None:
    """No request leaves the site's origin while loading and playing, and
    nothing is logged as an error, in the page or in the worker."""
    page = watched.page
    watched.goto_ready(server)
    game_id = playable_games()[0]
    page.locator(f'form.new-game[data-game="{game_id}"] button[type=submit]').click()
    page.locator("section.game").wait_for()
    watched.wait_ready()
    state = quetgames.load(watched.fragment())
    assert state.game.id == game_id and state.history == ()

    move = page.locator("[data-move]").first.get_attribute("data-move")
    page.locator("[data-move]").first.click()
    page.wait_for_function("old => decodeURIComponent(location.hash.slice(1)) !== old", arg=state.record)
    watched.wait_ready()
    assert watched.fragment() == state.play(move).record

    # the worker's own fetches are in the list (else this test would prove nothing)
    assert any(url.endswith("/pyodide/pyodide.asm.wasm.xz") for url in watched.requests), watched.requests
    assert any(url.endswith("/quetgames.zip.xz") and "/engine/" in url for url in watched.requests), watched.requests
    assert watched.off_site() == []
    assert watched.errors == []


def test_site_works_from_a_sub_path(watched: Watched, server: str) -> None:
    state = quetgames.new_game(playable_games()[0])
    base = server.rstrip("/") + SUB_PATH
    open_game(watched, base, state.record)
    assert watched.page.locator("#status").inner_text() == state.view()["status"]
    served = [url for url in watched.requests if url.startswith(watched.origin + "/")]
    assert served and all(url.startswith(base) for url in served), served


def test_wheel_installs_with_micropip_in_bare_pyodide(watched: Watched, server: str) -> None:
    page = watched.page
    page.goto(f"{server}_e2e/micropip.html")
    page.locator("html:not([data-done=no])").wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    text = page.locator("#result").inner_text()
    assert page.locator("html").get_attribute("data-done") == "ok", text
    result = json.loads(text)
    state = quetgames.new_game("multiplications")
    assert result["version"] == "0.1.0"
    assert "quetgames" in result["installed"]
    assert is_new_game_of(result["start"], state)
    assert result["record"] == quetgames.load(result["start"]).play(result["move"]).record
    assert watched.off_site() == []
    assert watched.errors == []


@pytest.mark.parametrize(("path", "mime"), [
    ("index.html", "text/html"),
    ("worker.js", "text/javascript"),
    ("pyodide/pyodide.mjs", "text/javascript"),
    ("_e2e/pyodide-full/pyodide.asm.wasm", "application/wasm"),  # anything else and a bare loadPyodide hangs
    ("pyodide/pyodide.asm.wasm.xz", "application/x-xz"),
    ("puzzles.json.gz", "application/gzip"),
    ("pyodide/pyodide-lock.json", "application/json"),
    ("manifest.webmanifest", "application/manifest+json"),
    ("icon.svg", "image/svg+xml"),
])
def test_server_sends_the_types_the_browser_needs(server: str, path: str, mime: str) -> None:
    with urllib.request.urlopen(server + path) as response:
        assert response.headers.get_content_type() == mime


def test_a_load_that_stalls_ends_in_a_clear_message(watched: Watched, server: str) -> None:
    """A download that stops arriving (here the wasm's, held for ever) must end
    in a message, not an endless spinner. The worker's stall limit is cut to 2 s here."""
    page = watched.page
    # The limit as written in web/worker.js; the shipped worker is minified, so
    # there it is a bare number in its shortest form (30_000 -> 3e4), which
    # must be found exactly once.
    written = re.search(r"const STALL_TIMEOUT_MS = ([\d_]+);", (Path(__file__).parent.parent / "web" / "worker.js").read_text())
    assert written, "web/worker.js no longer sets STALL_TIMEOUT_MS"
    value = int(written[1].replace("_", ""))
    zeros = len(str(value)) - len(str(value).rstrip("0"))
    forms = {written[1], str(value), f"{value // 10 ** zeros}e{zeros}" if zeros else str(value)}
    limit = re.compile(r"(?<=[=(,])(?:" + "|".join(map(re.escape, sorted(forms, key=len, reverse=True))) + r")(?=[,;)])")

    def short_stall(route) -> None:
        body = route.fetch().text()
        assert len(limit.findall(body)) == 1, "the stall limit is not in the shipped worker.js exactly once"
        route.fulfill(body=limit.sub("2000", body), content_type="text/javascript")

    page.route("**/worker.js", short_stall)
    held = []
    page.route("**/pyodide.asm.wasm.xz", lambda route: held.append(route))  # never answered
    page.goto(server)
    page.locator("html[data-engine=error]").wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
    text = page.locator("#loading-text").inner_text()
    assert "could not start" in text and "stalled" in text, text
    assert page.locator("#retry").is_visible()
    watched.screenshot("load-stalled")

    # once the wasm is served, Try again starts a fresh worker that loads
    assert held
    page.unroute("**/pyodide.asm.wasm.xz")
    page.unroute("**/worker.js")
    page.locator("#retry").click()
    watched.wait_ready()
    assert page.locator(".game-card").count() == len(quetgames.GAMES)
