"""Nothing over the board, nothing moves under the finger (issue 56, points 5 and 6).

Every game's whole lesson is played by touch on a phone (390 x 844 and
360 x 740), as e2e/test_lessons.py plays it (a refused move, a move that
misses, Show the answer, Try again, the short game to its end). Around every
tap this file measures, in the page's own terms:

- the board's place in the page (its getBoundingClientRect plus scrollY): it
  never changes over the whole lesson, steps and answers included (0 px);
- window.scrollY: between the test's own scrolling to a target and the next
  tap, the page never scrolls by itself;
- the answers (the engine's words, the answer asked for): wherever they show,
  their boxes share no pixel with the board's box, nor with the task's or the
  step title's.

The figures are written to e2e/artifacts/still-board-<game>-<size>.json.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page

from .harness import ARTIFACTS, Watched, watched_page
from .test_lessons import GAMES, Touch, open_lesson, play_steps, point_of

SIZES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}

# The board's place in the page, the scroll, and every answer box seen that
# overlaps the board, the task or the step's title (with the overlap's height).
PLACE = """() => {
  const box = (el) => el.getBoundingClientRect();
  const board = box(document.getElementById('board'));
  const overlaps = [];
  const seen = [...document.querySelectorAll('.lesson-said, .lesson-answer')]
    .filter((el) => el.checkVisibility() && el.textContent.trim() && box(el).width > 2 && box(el).height > 2);
  const covered = [['board', document.getElementById('board')],
    ['task', document.querySelector('.lesson-task:not(.visually-hidden)')],
    ['title', document.querySelector('.lesson-step-title')]];
  for (const el of seen) {
    const a = box(el);
    for (const [name, other] of covered) {
      if (!other) continue;
      const b = box(other);
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && h > 0.5) overlaps.push({over: name, by: Math.round(h), words: el.textContent.slice(0, 50)});
    }
  }
  return {top: board.top + scrollY, left: board.left + scrollX, y: scrollY, overlaps};
}"""


class MeasuredTouch(Touch):
    """Touch (test_lessons.py), that measures the page before and after the test's own scrolling."""

    def __init__(self, page: Page) -> None:
        super().__init__(page)
        self.first: dict | None = None  # the board's place at the lesson's first tap
        self.last_y: float | None = None  # scrollY just before the last tap
        self.moved: list[str] = []  # the board's movements in the page
        self.scrolled: list[str] = []  # scrolls the page made by itself, between two taps
        self.overlaps: list[dict] = []
        self.taps = 0

    def check(self, when: str, *, scroll: bool = True) -> None:
        place = self.page.evaluate(PLACE)
        for o in place["overlaps"]:
            self.overlaps.append({**o, "when": when})
        if self.first is None:
            self.first = place
        dy, dx = place["top"] - self.first["top"], place["left"] - self.first["left"]
        if abs(dy) > 0.5 or abs(dx) > 0.5:
            self.moved.append(f"{when}: the board moved {dx:+.0f}, {dy:+.0f} px in the page")
            self.first = place  # (each movement counted once)
        if scroll and self.last_y is not None and abs(place["y"] - self.last_y) > 0.5:
            self.scrolled.append(f"{when}: the page scrolled by itself {self.last_y:.0f} -> {place['y']:.0f}")

    def before_tap(self, what: str) -> None:
        self.taps += 1
        self.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        self.check(f"tap {self.taps} ({what})", scroll=False)  # (the test scrolled to the target)
        self.last_y = self.page.evaluate("() => scrollY")

    def press(self, target: Locator) -> None:
        self.check(f"before tap {self.taps + 1}")  # (what the last tap's answer did, before the test scrolls)
        at = point_of(target)
        self.before_tap((target.text_content() or target.get_attribute("data-move") or "")[:30])
        target.tap(position=at)

    def type_into(self, field: Locator, text: str, submit: Locator) -> None:
        self.check(f"before typing {text}")
        field.tap()
        field.fill(text)
        # (the box's verdict on the number typed comes under it, and moves the button down:
        # the test's own scroll to the button waits for it, or its tap scrolls again)
        self.page.wait_for_function("() => !document.querySelector('#board .nc-verdict') || document.querySelector('#board .nc-verdict').textContent.trim() !== ''")
        self.page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        submit.scroll_into_view_if_needed()
        self.before_tap(f"choose {text}")
        submit.tap()

    def unfold(self) -> None:
        folded = self.page.locator("#board details:not([open]) > summary")
        while folded.count():
            self.press(folded.first)


@pytest.fixture(scope="module", params=list(SIZES))
def phone(request: pytest.FixtureRequest, browser: Browser, server: str) -> Iterator[tuple[str, Watched]]:
    watched = watched_page(browser, server, viewport=SIZES[request.param], timeout_ms=30_000, has_touch=True, is_mobile=True)
    watched.goto_ready(server)
    yield request.param, watched
    watched.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_lesson_by_touch_moves_nothing_and_covers_nothing(phone: tuple[str, Watched], game: str) -> None:
    size, w = phone
    w.errors.clear()
    open_lesson(w, game)
    act = MeasuredTouch(w.page)
    play_steps(w.page, game, act, shots=f"still-{game}-{size}")
    act.check("the game's end")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"still-board-{game}-{size}.json").write_text(json.dumps(
        {"taps": act.taps, "moved": act.moved, "scrolled": act.scrolled, "overlaps": act.overlaps}, indent=1))
    assert act.moved == [], f"{game} {size}: the board moved under the finger: {act.moved}"
    assert act.scrolled == [], f"{game} {size}: the page scrolled by itself: {act.scrolled}"
    assert act.overlaps == [], f"{game} {size}: an answer over the board or the task: {act.overlaps}"
    assert w.errors == []


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
  // (what the finger uses inside the board, where it lies lower than the board's top: Nonconformity's pick box)
  const pick = document.getElementById('nc-pick');
  return {top: board.top + scrollY, left: board.left + scrollX, y: scrollY, over,
          pick: pick ? pick.getBoundingClientRect().top + scrollY : null,
          parts: [...document.querySelectorAll('#board .nc-board > *, #board .nc-view > *, #board .nc-pick > *')]
            .map((el) => `${el.className.split(' ')[0] || el.localName}:${Math.round(el.getBoundingClientRect().height)}`).join(' '),
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
        state = __import__("quetgames").load(record)
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
    # (Nonconformity: its pick box too, over the rounds, where the table of rounds above it grew by a row each round)
    picks = [s["pick"] for s in [first, *seen] if s["pick"] is not None]
    assert max(picks, default=0) - min(picks, default=0) <= 0.5, f"{game} {size}: the pick box moved: {picks} {[(s['top'], s['above'], s['parts']) for s in [first, *seen]]}"
    assert moved == [], f"{game} {size}: the board moved in the page from {first['top']:.0f}: {moved}"
    assert scrolled == [], f"{game} {size}: the page scrolled by itself: {scrolled}"
    assert covered == [], f"{game} {size}: an answer over the board: {covered}"
    assert w.errors == []
