"""Puzzles and lessons before the engine (issue 53, point 7): their first
position depends on the build alone, so the build writes the engine's answers
(known/, py/quetgames/known.py) and the page draws a puzzle or a lesson's
first step from them while Python is still on its way; a tap made meanwhile
is answered once the engine is up, in the engine's words; and nothing jumps
from the first paint to the engine being ready.

Pyodide's downloads are held back (test_first_paint's Held). What the page
should show comes from the Python engine in py/, asked the same way the page
asks it (quetgames.bridge).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path

import pytest
import quetgames
from quetgames import bridge
from playwright.sync_api import Browser

from .harness import READY, Watched, watched_page
from .test_board_before_engine import BOARD_TEXT, fresh, look, shifts
from .test_first_paint import Held, engine_state

ENGINE_UP = "html[data-engine=ready]"
PUZZLES = json.loads((Path(__file__).resolve().parents[1] / "docs" / "puzzles.json").read_text(encoding="utf-8"))["puzzles"]


def ask(call: str, **args: object) -> dict | str:
    said = json.loads(bridge.call(call, json.dumps(args)))
    assert said["ok"], said
    return said["result"]


def todays() -> dict:
    day = ask("puzzle_of_the_day", ids=[p["id"] for p in PUZZLES], date=datetime.date.today().isoformat())
    return next(p for p in PUZZLES if p["id"] == day)


def first_of(game: str) -> dict:
    return next(p for p in PUZZLES if p["game"] == game)


def opened_held(w: Watched, url: str, board: str) -> Held:
    """`url` opened with Pyodide's downloads held back, once `board` is drawn
    and the engine is known to be still on its way; the hold, to release."""
    held = Held(w.page)
    w.page.goto(url)
    w.page.locator(board).first.wait_for(timeout=30_000)
    held.wait_for_one()
    assert engine_state(w.page) == "loading"
    return held


def settled(w: Watched, name: str) -> None:
    """Once the engine is up: the screen kept, nothing jumped since the first paint, no error."""
    look(w.page, name)
    assert shifts(w.page) <= 0.1, w.page.evaluate("window.__shifts")
    assert w.errors == []


@pytest.mark.parametrize("which", ["today", "enumeration", "prime-target"])
def test_a_puzzle_is_drawn_before_the_engine_and_a_tap_meanwhile_is_answered_after(which: str, browser: Browser, server: str) -> None:
    puzzle = todays() if which == "today" else first_of(which)
    shown = ask("puzzle", puzzle=puzzle)
    w = fresh(browser, server)
    try:
        held = opened_held(w, f"{server}index.html#puzzle={'today' if which == 'today' else puzzle['id']}",
                           f'section.puzzle[data-puzzle="{puzzle["id"]}"] #board svg')
        w.page.wait_for_function("q => document.getElementById('puzzle-answer').textContent === q", arg=shown["question"])
        still = w.page.evaluate(BOARD_TEXT)
        assert still, "the puzzle's board has no numbers"
        look(w.page, f"puzzle-{which}-still")
        # the position and the board's module were asked for by the first script
        # (preloads, beside the page's modules), not after them by the page: for
        # the day's puzzle too, once the list of days is in
        asked = w.page.evaluate("""() => Object.fromEntries(performance.getEntriesByType('resource')
          .map((r) => [new URL(r.name).pathname.split('/').slice(-2).join('/'), r.initiatorType]))""")
        assert asked.get(f"known/puzzle-{puzzle['id']}.json") == "link", asked
        assert w.page.locator(f'head > link[rel=modulepreload][href="boards/{puzzle["game"]}.js"]').count() == 1
        move = puzzle["solutions"][0] if which != "prime-target" else None
        target = w.page.locator(f'#board [data-move="{move}"]') if move else None
        if target is not None and target.count():
            target.first.click()
        else:
            assert which in ("today", "prime-target"), f"no target for {move}"
            move = None  # (a ring is built from several targets: only the drawing is checked here)
        assert engine_state(w.page) == "loading"

        held.release()
        w.page.locator(ENGINE_UP).wait_for(timeout=90_000)
        if move:
            said = ask("puzzle", puzzle=puzzle, move=move)
            w.page.wait_for_function("w => document.getElementById('puzzle-answer').textContent === w", arg=said["words"], timeout=30_000)
            assert w.page.locator("#puzzle-answer").get_attribute("data-answer") == "right"
        else:
            assert w.page.evaluate(BOARD_TEXT) == still
        settled(w, f"puzzle-{which}-live")
    finally:
        w.context.close()


def test_a_puzzle_drawn_before_the_engine_is_the_one_drawn_after(browser: Browser, server: str) -> None:
    """The same puzzle opened with the engine up (a second visit) shows the same board and words."""
    puzzle = first_of("multiplications")
    w = fresh(browser, server)
    try:
        held = opened_held(w, f"{server}index.html#puzzle={puzzle['id']}", "section.puzzle #board svg")
        before = (w.page.evaluate(BOARD_TEXT), w.page.locator("section.puzzle h1").inner_text())
        held.release()
        w.page.locator(ENGINE_UP).wait_for(timeout=90_000)
        w.page.goto(f"{server}index.html")
        w.wait_ready()
        w.page.goto(f"{server}index.html#puzzle={puzzle['id']}")
        w.page.locator("section.puzzle #board svg").first.wait_for()
        w.page.locator(ENGINE_UP).wait_for()
        after = (w.page.evaluate(BOARD_TEXT), w.page.locator("section.puzzle h1").inner_text())
        assert before == after
        assert w.errors == []
    finally:
        w.context.close()


@pytest.mark.parametrize("game", list(quetgames.GAMES))
def test_a_lesson_opens_on_its_first_step_before_the_engine(game: str, browser: Browser, server: str) -> None:
    lesson = ask("lesson", game=game)
    step = lesson["steps"][0]
    w = fresh(browser, server)
    try:
        held = opened_held(w, f"{server}index.html#learn={game}", ".lesson-step #board svg")
        assert step["task"] in w.page.locator(".lesson-task").first.inner_text()
        still = w.page.evaluate(BOARD_TEXT)
        assert still
        look(w.page, f"lesson-{game}-still")
        move = step["view"]["legal_moves"][0]
        target = w.page.locator(f'#board [data-move="{move}"]')
        tapped = target.count() > 0
        # (a ring or a pick from a list is built from several targets: there only the drawing is checked)
        assert tapped or game in ("prime-target", "nonconformity"), f"no target for {move}"
        if tapped:
            target.first.tap()
        held.release()
        w.page.locator(ENGINE_UP).wait_for(timeout=90_000)
        if tapped:
            said = ask("lesson", game=game, step=step["id"], move=move, record=step["record"])
            w.page.wait_for_function("() => document.querySelector('.lesson-step')?.dataset.answer", timeout=30_000)
            assert said["words"] in w.page.locator("#lesson-said").inner_text()
        else:
            assert w.page.evaluate(BOARD_TEXT) == still
        settled(w, f"lesson-{game}-live")
    finally:
        w.context.close()


def test_without_its_known_answers_a_lesson_waits_for_the_engine_in_words(browser: Browser, server: str) -> None:
    """A known answer that cannot be had (a host that lost the file, offline
    before the engine) is no error: the page says the lesson waits, and the
    engine opens it."""
    w = watched_page(browser, server)
    try:
        w.context.route("**/known/**", lambda route: route.fulfill(status=404, body="gone"))
        held = Held(w.page)
        w.page.goto(f"{server}index.html#learn=enumeration")
        w.page.get_by_text("The lesson starts as soon as the engine is ready.").wait_for(timeout=30_000)
        held.wait_for_one()
        assert w.page.locator(".lesson-step").count() == 0
        held.release()
        w.page.locator(".lesson-step #board svg").first.wait_for(timeout=90_000)
        w.page.locator(READY).wait_for(state="attached")
        # (the browser's own line for each refused file; nothing else)
        assert [e for e in w.errors if "status of 404" not in e] == []
    finally:
        w.context.close()
