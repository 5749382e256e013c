"""Nonconformity's pick screen fits where it is played (issue 46, item 4):
after "show my choices", the table of sequences, the number line and the
picks are inside the Embed dialog's default frame (480 x 680, on another
origin) and a 390 x 844 phone, with no scrolling, and a pick is still made
by pointer, keyboard and touch. Figures, never timings.

Before the compact picks (boards/nonconformity.js), the frame held 866,
1,104 and 1,152 px of content in 680 (a default game at rounds 1, 3 and 6,
both seats human), and on the phone the picks ended at y = 1,129 (round 1)
and 923 after the page had scrolled itself (rounds 3 and 6). At round 6 they
still ended at y = 904 until the number line's rows lost their name labels to
the seats' badges, the list of who has chosen went to screen readers while a
pick is made (the status line says it), and the start row folded with the
older rounds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import quetgames
from playwright.sync_api import Browser, Frame, Page

from .harness import ARTIFACTS, embed_in_host, watched_page

DEFAULT = (480, 680)  # the Embed dialog's default size (share/embed-snippet.js DEFAULTS)
PHONE = {"width": 390, "height": 844}


def game_at(round_: int, seed: int = 3, **options: object) -> quetgames.State:
    """A default two-player game of two humans, `round_ - 1` rounds played at random."""
    rng = random.Random(seed)
    if "starts" not in options:
        options["seed"] = seed  # (the starts drawn from it: the same game on every run)
    state = quetgames.new_game("nonconformity", **options).with_seats(["Ann", "Bob"])
    while not state.is_over and state.view()["board"]["round"] < round_:
        for seat in list(state.to_move):
            state = state.play(rng.choice(state.legal_moves(seat)), seat)
    return state


# The content's height, the frame's, and where the parts of the pick screen are.
MEASURE = """() => {
  const box = (sel) => { const e = document.querySelector(sel); if (!e) return null; const r = e.getBoundingClientRect(); return [Math.round(r.top), Math.round(r.bottom)]; };
  return {
    content: document.documentElement.scrollHeight, frame: innerHeight,
    wide: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    table: box('.nc-seqs-table'), line: box('.nc-line'), picks: box('.nc-pick'), steps: box('.embed-steps'),
  };
}"""


def show_choices(where: Page | Frame) -> None:
    where.locator("button.show-board").click()
    where.locator("#nc-pick").wait_for()


def open_a_list(where: Page | Frame, *, tap: bool = False):
    """The first listed pick, after opening the first closed list of picks if none is shown."""
    shown = where.locator("#board [data-move]:visible")
    if shown.count() == 0:
        summary = where.locator("#board details:not([open]) > summary").first
        summary.tap() if tap else summary.click()
        shown.first.wait_for()
    return shown.first


def fits(look: dict) -> bool:
    inside = all(part is None or part[1] <= look["frame"] for part in (look["table"], look["line"], look["picks"], look["steps"]))
    return look["content"] <= look["frame"] and look["wide"] <= 0 and inside


@pytest.mark.parametrize("round_", [1, 3, 6])
def test_the_pick_screen_fits_the_default_frame(browser: Browser, server: str, host: tuple[str, Path], round_: int) -> None:
    state = game_at(round_)
    page, frame = embed_in_host(browser, host, f"{server}embed.html?mode=play#{state.record}", width=DEFAULT[0], height=DEFAULT[1])
    try:
        show_choices(frame)
        frame.wait_for_function("(size) => document.documentElement.dataset.fit === size", arg=f"{DEFAULT[0]}x{DEFAULT[1]}")
        look = frame.evaluate(MEASURE)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"nc-fit-frame-round{round_}.png"), clip={"x": 0, "y": 0, "width": DEFAULT[0], "height": DEFAULT[1] + 60})
        assert fits(look), look
        # the pick is made there by pointer: a listed number (in a range opened first), then the other seat's curtain
        open_a_list(frame).click()
        frame.locator("button.show-board").wait_for()
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()


@pytest.mark.parametrize("round_", [1, 3, 6])
def test_the_pick_screen_fits_a_phone(browser: Browser, server: str, round_: int) -> None:
    state = game_at(round_)
    w = watched_page(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    page = w.page
    try:
        w.goto_ready(f"{server}#{state.record}")
        show_choices(page)
        look = page.evaluate(MEASURE)
        page.screenshot(path=str(ARTIFACTS / f"nc-fit-phone-round{round_}.png"))
        # the page may hold more than the screen (its header, How to play, the moves list):
        # the table, the number line and the picks are on the first screen
        parts = [look["table"], look["line"], look["picks"]]
        assert all(part is not None for part in parts), look
        # (on e7c20a7 the picks ended 60 px below the screen at round 6: the page's head
        # takes some 230 px above the board, and the table had grown; 818-820 px now)
        assert all(part[0] >= 0 and part[1] <= look["frame"] for part in parts), look
        assert look["wide"] <= 0, look
        # touch: a tap on a listed number plays it
        open_a_list(page, tap=True).tap()
        page.locator("button.show-board").wait_for()
        assert w.errors == []
    finally:
        w.context.close()


SMALLEST = {"width": 360, "height": 740}


@pytest.mark.parametrize("round_", [1, 6])
@pytest.mark.parametrize("kinds", [["human", "random"], ["human", "human"]], ids=["against-the-computer", "two-people"])
def test_the_number_box_is_on_the_smallest_phone(browser: Browser, server: str, kinds: list[str], round_: int) -> None:
    """On a 360 x 740 phone the whole pick screen is taller than the screen, but
    the table, the number line and the number box with Choose it are on the
    first one: a pick is made without scrolling. (On e7c20a7 Choose it ended
    at y = 747 against the computer at round 1, and at round 6 at 866 against
    it and 842 between two people; 609, 702 and 726 now.)"""
    state = game_at(round_).with_seats(["Ann", "Bob"], kinds)
    w = watched_page(browser, server, viewport=SMALLEST, has_touch=True, is_mobile=True)
    page = w.page
    try:
        w.goto_ready(f"{server}#{state.record}")
        if kinds[1] == "human":
            show_choices(page)
        page.locator("#nc-pick").wait_for()
        look = page.evaluate(MEASURE.replace("picks: box('.nc-pick')", "picks: box('.nc-pick-form')"))
        page.screenshot(path=str(ARTIFACTS / f"nc-fit-smallest-{kinds[1]}-round{round_}.png"))
        parts = [look["table"], look["line"], look["picks"]]
        assert all(part is not None and part[0] >= 0 and part[1] <= look["frame"] for part in parts), look
        # and the box takes a number there by touch
        page.locator("#nc-pick").tap()
        page.locator("#nc-pick").fill(state.legal_moves(0)[0])
        page.locator(".nc-play").tap()
        page.wait_for_function("() => !document.querySelector('#nc-pick') || document.querySelector('#nc-pick').value === ''")
        assert w.errors == []
    finally:
        w.context.close()


def test_the_pick_is_made_by_keyboard_with_the_step_keys(browser: Browser, server: str, host: tuple[str, Path]) -> None:
    """The number box takes a typed number; the arrow keys step it; Enter plays it."""
    state = game_at(1, starts=(6, 4), max_pick=100)
    page, frame = embed_in_host(browser, host, f"{server}embed.html?mode=play#{state.record}", width=DEFAULT[0], height=DEFAULT[1])
    try:
        show_choices(frame)
        box = frame.locator("#nc-pick")
        box.focus()
        box.fill("8")
        box.press("ArrowUp")
        assert box.input_value() == "9"
        box.press("ArrowUp")
        frame.locator("#nc-verdict:not(:empty)").wait_for()
        box.press("Enter")
        frame.locator("button.show-board").wait_for()
        assert page.errors == []  # type: ignore[attr-defined]
    finally:
        page.context.close()
