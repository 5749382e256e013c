"""Nothing over the board, nothing moves under the finger, on the game page
(issue 56, points 5 and 6): six moves of every game against a random computer
on a phone (390 x 844 and 360 x 740), by taps on targets on screen, a refused
move included. Around every move this file measures, in the page's own terms,
the board's place in the page (its getBoundingClientRect plus scrollY: it
never changes), window.scrollY (the page never scrolls by itself), and the
answer line's box (it shares no pixel with the board's).

(The same for a whole lesson is not here yet: the lessons' answers under the
board fell below a phone's first screen, so that change was not merged.)
The figures are written to e2e/artifacts/still-game-<game>-<size>.json.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Browser

from .harness import ARTIFACTS, Watched, watched_page

GAMES = list(quetgames.GAMES)
SIZES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}


@pytest.fixture(scope="module", params=list(SIZES))
def phone(request: pytest.FixtureRequest, browser: Browser, server: str) -> Iterator[tuple[str, Watched]]:
    watched = watched_page(browser, server, viewport=SIZES[request.param], timeout_ms=30_000, has_touch=True, is_mobile=True)
    watched.goto_ready(server)
    yield request.param, watched
    watched.context.close()


# -- the game page: six moves against the computer ----------------------------------------

# The board's place in the page, the scroll, and the answer line's overlap with the board.
GAME_PLACE = """() => {
  const board = document.getElementById('board').getBoundingClientRect();
  const line = document.getElementById('answer');
  let over = 0;
  if (line && !line.hidden && line.checkVisibility()) {
    const a = line.getBoundingClientRect();
    const w = Math.min(a.right, board.right) - Math.max(a.left, board.left), h = Math.min(a.bottom, board.bottom) - Math.max(a.top, board.top);
    if (w > 0.5 && h > 0.5) over = Math.round(h);
  }
  return {top: board.top + scrollY, left: board.left + scrollX, y: scrollY, over,
          words: line && !line.hidden ? line.textContent.slice(0, 60) : '',
          above: [...document.querySelectorAll('#status, .seats, .computer-bar, .bar-room, .secret-banner, #handoff, .board-keep')]
            .map((el) => `${el.id || el.className.split(' ')[0]}:${Math.round(el.getBoundingClientRect().height)}`).join(' ')};
}"""


@pytest.mark.parametrize("game", GAMES)
def test_six_moves_against_the_computer_move_nothing_and_cover_nothing(phone: tuple[str, Watched], game: str) -> None:
    """Six moves of a game against a random computer, by taps on targets on
    screen (test_answers.py's): the board stays at one place in the page, the
    page never scrolls by itself, and the answers (a refusal, the computer's
    reply, the game's end) never cover the board."""
    from .harness import open_record
    from .test_answers import play_legal, position, refuse

    size, w = phone
    w.errors.clear()
    page = w.page
    page.goto(f"{page.url.split('#')[0].split('?')[0]}?computer-budget=0.3")
    w.wait_ready()
    state = position(game)
    open_record(w, state.record)
    page.wait_for_function("() => document.documentElement.dataset.computer === 'idle'")
    w.touch = True  # type: ignore[attr-defined]
    page.evaluate("() => scrollTo(0, 0)")
    frames = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    page.evaluate(frames)
    first = page.evaluate(GAME_PLACE)
    seen: list[dict] = []
    refuse(w, game, state)
    page.wait_for_function("() => !document.getElementById('answer').hidden")
    page.evaluate(frames)
    seen.append({"when": "refused", **page.evaluate(GAME_PLACE)})
    start = len(state.history)
    for _ in range(6):
        record = page.evaluate("() => decodeURIComponent(location.hash.slice(1))")
        state = quetgames.load(record)
        if state.is_over or len(state.history) - start >= 6:
            break
        if game == "nonconformity":  # (the test's own scroll, as fill() would make it: before the move is measured)
            page.locator("#nc-pick").scroll_into_view_if_needed()
        before_y = page.evaluate("() => scrollY")
        play_legal(w, game, state)
        page.wait_for_function("r => decodeURIComponent(location.hash.slice(1)) !== r", arg=record)
        page.wait_for_function("() => document.documentElement.dataset.computer === 'idle'")
        w.wait_ready()
        page.evaluate(frames)
        seen.append({"when": f"move {len(state.history) - start + 1}", "before_y": before_y, **page.evaluate(GAME_PLACE)})
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"still-game-{game}-{size}.png"))
    (ARTIFACTS / f"still-game-{game}-{size}.json").write_text(json.dumps({"first": first, "seen": seen, "log": page.evaluate("() => window.__keepLog ?? null")}, indent=1))
    moved = [s for s in seen if abs(s["top"] - first["top"]) > 0.5 or abs(s["left"] - first["left"]) > 0.5]
    scrolled = [s for s in seen if abs(s["y"] - s.get("before_y", first["y"])) > 0.5]
    covered = [s for s in seen if s["over"]]
    assert moved == [], f"{game} {size}: the board moved in the page from {first['top']:.0f}: {moved}"
    assert scrolled == [], f"{game} {size}: the page scrolled by itself: {scrolled}"
    assert covered == [], f"{game} {size}: an answer over the board: {covered}"
    assert w.errors == []
