"""The board before the engine (issue 53): a link the site hands out carries
its position's poster, and a page opened from it draws the game, board
included, before Python has arrived; a game this device holds opens on the
view it kept; a move made meanwhile waits and is then played once, or refused
in words; the engine's view then takes the poster's place, with nothing
jumping; and a hostile poster never passes for the game.

The engine is held back with page.route: Pyodide's downloads on a first
visit (test_first_paint's Held), and the worker's own script on a repeat
visit (whose Python files come from this device's caches, not the network).
Expected positions come from the Python engine in py/.
"""

from __future__ import annotations

import base64
import json
import zlib

import pytest
import quetgames
from playwright.sync_api import Browser, Page, Route

from .harness import ARTIFACTS, READY, Watched, played, watched_page
from .test_first_paint import Held

PHONE = {"width": 390, "height": 844}
ENGINE = "html[data-engine=ready]"

# Every layout shift from the first script on, as the browser measures it (what
# Lighthouse sums into CLS): [time, value] of each not caused by the person.
WATCH_SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts.push([e.startTime, e.value]);
}).observe({ type: "layout-shift", buffered: true });
"""

# Each moment <html data-engine> said "ready" while a still board (a poster or a
# kept view, which takes no move) was the game on screen: a page, or a test,
# acting on "ready" then finds no move to make.
WATCH_READY_ON_STILL = """
window.__readyOnStill = [];
new MutationObserver(() => {
  const still = document.querySelector("section.game[data-still]");
  if (document.documentElement.dataset.engine === "ready" && still) window.__readyOnStill.push(still.dataset.still);
}).observe(document, { attributes: true, subtree: true, attributeFilter: ["data-engine"] }); // (no <html> yet when this runs)
"""

# The numbers and words drawn on the board, in order (what a player reads off it).
BOARD_TEXT = "() => [...document.querySelectorAll('#board svg text, #board .nc-table td, #board .curtain h2')].map((t) => t.textContent.trim()).filter(Boolean)"


def finished(game: str, seed: int) -> quetgames.State:
    state = played(game, 10_000, seed)
    assert state.is_over
    return state


def shared_link(w: Watched, server: str, record: str) -> str:
    """The link the share panel hands out for `record`, once its poster is in."""
    w.page.goto(f"{server}index.html#{record}")
    w.wait_ready()
    field = w.page.locator("#share-link")
    w.page.wait_for_function("() => (document.getElementById('share-link')?.value ?? '').includes('!poster.')")
    return field.input_value()


@pytest.fixture(scope="module")
def maker(browser: Browser, server: str):
    """A page with the engine up, which hands out links."""
    w = watched_page(browser, server, viewport=PHONE)
    yield w
    w.context.close()


def fresh(browser: Browser, server: str, **args) -> Watched:
    """A phone that has never seen the site, with its layout shifts watched."""
    w = watched_page(browser, server, viewport=PHONE, has_touch=True, timeout_ms=30_000, **args)
    w.page.add_init_script(WATCH_SHIFTS)
    w.page.add_init_script(WATCH_READY_ON_STILL)
    return w


def shifts(page: Page) -> float:
    return round(sum(value for _, value in page.evaluate("window.__shifts")), 4)


def look(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"before-engine-{name}.png"))


CASES = [
    ("prime-target", lambda: played("prime-target", 9, 1)),  # in its ring phase
    ("convoluted-coprimality", lambda: finished("convoluted-coprimality", 3)),
    ("enumeration", lambda: played("enumeration", 7, 2)),
    ("multiplications", lambda: finished("multiplications", 4)),
    ("nonconformity", lambda: played("nonconformity", 6, 5)),
]


@pytest.mark.parametrize("game, make", CASES, ids=[c[0] for c in CASES])
def test_a_shared_link_draws_its_board_before_the_engine_and_the_same_board_after(
        game: str, make, maker: Watched, browser: Browser, server: str) -> None:
    state = make()
    link = shared_link(maker, server, state.record)
    record, _, payload = link.split("#", 1)[1].partition("!poster.")
    assert record == state.record and payload
    assert len(link) <= 2000, len(link)

    w = fresh(browser, server)
    try:
        held = Held(w.page)
        w.page.goto(link)
        board = w.page.locator('section.game[data-still="link"] #board')
        board.wait_for(timeout=30_000)
        held.wait_for_one()
        assert w.page.evaluate("document.documentElement.dataset.engine") == "loading"
        view = state.view()
        assert w.page.locator("#status").inner_text() == view["status"]
        assert w.page.locator(".seats .seat-name").all_inner_texts() == [s["name"] or f"Player {i + 1}" for i, s in enumerate(view["seats"])]
        still = w.page.evaluate(BOARD_TEXT)
        assert still, "the poster's board has no numbers"
        look(w.page, f"{game}-still")

        held.release()
        w.page.locator(f'section.game[data-record="{state.record}"]:not([data-still])').wait_for(timeout=90_000)
        w.wait_ready()
        live = w.page.evaluate(BOARD_TEXT)
        look(w.page, f"{game}-live")
        # the same numbers where the poster drew them (the live board may add
        # what only it shows: a preview of the next ring, move targets)
        if state.is_over:
            assert still == live
        else:
            rest = list(live)
            for text in still:
                assert text in rest, (text, still, live)
                rest.remove(text)
        assert w.page.locator("#status").inner_text() == view["status"]
        assert shifts(w.page) <= 0.1, w.page.evaluate("window.__shifts")
        # "ready" came with the live board, not with the engine's arrival under the poster
        assert w.page.evaluate("window.__readyOnStill") == []
        assert w.errors == []
    finally:
        w.context.close()


def reopened_after_a_move(browser: Browser, server: str, game: str) -> tuple[Watched, quetgames.State, "HeldWorker"]:
    """A new game of `game` with one move played here, then the page reloaded
    with the engine's worker held: the phone, the game after its move, the hold.
    (A game with no move before: the first move played here leaves this phone
    playing every seat, share/seats.js.)"""
    state = quetgames.new_game(game)
    w = fresh(browser, server, service_workers="block")
    try:
        w.goto_ready(f"{server}index.html#{state.record}")
        move = state.legal_moves()[0]
        w.page.locator(f'#board [data-move="{move}"]').first.click()
        w.page.locator(READY).wait_for(state="attached")
        after = state.play(move)
        assert w.fragment() == after.record
        # the next visit: the worker's script is held, so the engine cannot start
        worker = HeldWorker(w)
        w.page.reload()
        w.page.locator('section.game[data-still="device"] #board').wait_for()
        assert w.page.evaluate("document.documentElement.dataset.engine") == "loading"
    except BaseException:
        w.context.close()
        raise
    return w, after, worker


def test_a_game_held_here_opens_on_its_kept_view_and_a_move_made_meanwhile_waits(browser: Browser, server: str) -> None:
    w, after, worker = reopened_after_a_move(browser, server, "convoluted-coprimality")
    try:
        assert w.page.locator("#status").inner_text() == after.view()["status"]
        look(w.page, "device-still")

        # a move on it waits, and says so
        second = after.legal_moves()[0]
        w.page.locator(f'#board [data-move="{second}"]').first.click()
        said = w.page.locator("#note, #message").filter(has_text="will be played as soon as it is ready")
        said.first.wait_for(state="attached")
        assert after.record in w.page.url  # nothing played yet

        worker.release()
        want = after.play(second)
        w.page.locator(f'section.game[data-record="{want.record}"]').wait_for(timeout=90_000)
        w.wait_ready()
        assert w.fragment() == want.record  # played once: one move on from the link
        assert w.page.evaluate("window.__readyOnStill") == []
        assert w.errors == []
    finally:
        w.context.close()


def test_a_move_typed_before_the_engine_that_is_illegal_is_refused_in_words(browser: Browser, server: str) -> None:
    w, after, worker = reopened_after_a_move(browser, server, "multiplications")
    try:
        w.page.locator("#move-input").fill("zz99")
        w.page.locator("#move-form button[type=submit]").click()
        w.page.locator("#note, #message").filter(has_text="zz99 will be played").first.wait_for(state="attached")

        worker.release()
        w.page.locator(f'section.game[data-record="{after.record}"]:not([data-still])').wait_for(timeout=90_000)
        w.wait_ready()
        try:
            after.play("zz99")
        except quetgames.RulesError as refused:
            w.page.locator("#message").filter(has_text=str(refused)).wait_for(state="attached")
        else:
            raise AssertionError("zz99 was meant to be refused")
        assert w.fragment() == after.record  # nothing played
        assert w.errors == []
    finally:
        w.context.close()


class HeldWorker:
    """The engine's worker script, kept waiting until release(): on a repeat
    visit Python's files come from this device's caches, so holding the
    worker is what keeps the engine back."""

    def __init__(self, w: Watched) -> None:
        self.routes: list[Route] = []
        self.released = False
        w.context.route("**/worker.js", self._hold)

    def _hold(self, route: Route) -> None:
        if self.released:
            route.continue_()
        else:
            self.routes.append(route)

    def release(self) -> None:
        self.released = True
        while self.routes:
            self.routes.pop(0).continue_()


def forged(payload: str, change) -> str:
    """The poster `payload` expanded, changed by `change(data)`, and packed again."""
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    data = json.loads(zlib.decompress(raw, -15))
    change(data)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(json.dumps(data).encode()) + packer.flush()
    return base64.urlsafe_b64encode(packed).decode().rstrip("=")


def wrong_scores(data: dict) -> None:
    data["view"]["scores"] = [99] * len(data["view"]["scores"])
    data["view"]["status"] = "Player 2 has won everything"


@pytest.mark.parametrize("kind", ["wrong numbers", "huge", "malformed", "another game's"])
def test_a_hostile_poster_never_passes_for_the_game(kind: str, maker: Watched, browser: Browser, server: str) -> None:
    state = played("prime-target", 9, 1)
    other = played("prime-target", 10, 1)
    link = shared_link(maker, server, state.record)
    base, payload = link.split("!poster.", 1)
    bad = {
        "wrong numbers": lambda: forged(payload, wrong_scores),
        "huge": lambda: "A" * 9000,
        "malformed": lambda: "not*a*poster",
        "another game's": lambda: shared_link(maker, server, other.record).split("!poster.", 1)[1],
    }[kind]()
    w = fresh(browser, server)
    try:
        held = Held(w.page)
        w.page.goto(f"{base}!poster.{bad}")
        w.page.locator("html[data-shell=drawn]").wait_for(state="attached")
        held.wait_for_one()
        if kind != "wrong numbers":
            # nothing of it is drawn as the game: the game's page keeps the board's
            # room, says why the poster is not shown, and waits for the engine
            w.page.locator('section.game[data-still="words"]').wait_for()
            assert w.page.locator("#board svg").count() == 0
            assert "cannot be shown" in w.page.locator("#board").inner_text()
        held.release()
        w.page.locator(f'section.game[data-record="{state.record}"]:not([data-still])').wait_for(timeout=90_000)
        w.wait_ready()
        view = state.view()
        assert w.page.locator("#status").inner_text() == view["status"]
        assert w.page.locator(".seats .score").all_inner_texts() == [str(s) for s in view["scores"]]
        assert w.errors == []
    finally:
        w.context.close()


def test_a_link_without_a_poster_keeps_the_boards_room_and_says_the_position_is_coming(browser: Browser, server: str) -> None:
    state = played("enumeration", 4, 8)
    w = fresh(browser, server)
    try:
        held = Held(w.page)
        w.page.goto(f"{server}index.html#{state.record}")
        sketch = w.page.locator('section.game[data-still="words"]')
        sketch.wait_for()
        held.wait_for_one()
        assert w.page.locator("h1").inner_text() == state.game.name
        assert w.page.locator(".seats .seat-name").all_inner_texts() == ["Player 1", "Player 2"]
        assert "the position is on its way" in w.page.locator("#status, #board").all_inner_texts()[0] + w.page.locator("#board").inner_text()
        room = w.page.locator("#board").bounding_box()
        look(w.page, "sketch")
        held.release()
        w.page.locator(f'section.game[data-record="{state.record}"]:not([data-still])').wait_for(timeout=90_000)
        w.wait_ready()
        board = w.page.locator("#board").bounding_box()
        # the room kept was the board's, within a tenth of its height (at the default options)
        assert room["y"] == board["y"]
        assert abs(room["height"] - board["height"]) <= board["height"] / 10, (room, board)
        assert shifts(w.page) <= 0.1, w.page.evaluate("window.__shifts")
        assert w.errors == []
    finally:
        w.context.close()
