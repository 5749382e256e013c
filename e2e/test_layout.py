"""Board first, in any frame: the page on a phone held either way and on a
desktop, measured in figures (never timed).

- A link opens with the board on the first screen: at least 95% of it on a
  phone held upright (390 x 844 and 360 x 740), at least 60% held sideways
  (844 x 390), for every game, at its usual and its large settings.
- Nothing taller than 48 px stays stuck at the top when the page is scrolled.
- After Hint, the hint is on screen without scrolling.
- A game started from a scrolled setup page opens at its heading.
- The moves list keeps the move shown inside its box; a move tapped in the
  list on a phone keeps the board in view.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Browser

from .harness import Watched, open_record, shoot, watched_page

PORTRAIT = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]
LANDSCAPE = {"width": 844, "height": 390}

# (game, options, moves played): the usual settings and the large ones
OPENED = [
    ("convoluted-coprimality", {}, 9),
    ("convoluted-coprimality", {"players": 3, "size": 20}, 12),
    ("enumeration", {}, 6),
    ("enumeration", {"size": 12}, 9),
    ("multiplications", {}, 5),
    ("multiplications", {"k": 6}, 8),
    ("prime-target", {}, 6),
    ("prime-target", {"k": 3, "rays": 12}, 14),
    ("nonconformity", {"seed": 1}, 2),  # (a seed: the same starts on every run)
]

# How much of the board (its largest drawing, else its box) is on screen, 0 to 1.
# A grid wider than the screen at 24 px a square (issue 56) scrolls in a box of
# its own, kept on the last move and the targets (e2e/test_tap_targets.py): then
# it is that box that must be on screen, as much of it as the screen has room
# for under its top (a 20 x 20 grid is 499 px tall at 24 px a square: on a
# 360 x 740 phone the page scrolls for its last rows).
BOARD_SEEN = """() => {
  const svgs = [...document.querySelectorAll('#board svg')];
  const area = (e) => { const r = e.getBoundingClientRect(); return r.width * r.height; };
  let el = svgs.length ? svgs.reduce((a, b) => (area(b) > area(a) ? b : a)) : document.getElementById('board');
  const box = el.parentElement?.classList.contains('grid-scroll') ? el.parentElement : null;
  if (box && (box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1)) el = box;
  const r = el.getBoundingClientRect();
  const w = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0));
  const h = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
  const room = el.classList.contains('grid-scroll') ? Math.min(r.height, innerHeight - Math.max(r.top, 0)) : r.height;
  return { seen: (w * h) / (r.width * room), box: [r.left, r.top, r.width, r.height].map(Math.round) };
}"""

# Everything stuck to the top of the screen (sticky or fixed, at the top edge): [name, height].
STUCK = """() => [...document.querySelectorAll('body *')].filter((e) => {
  const cs = getComputedStyle(e);
  const r = e.getBoundingClientRect();
  return (cs.position === 'sticky' || cs.position === 'fixed') && r.top <= 1 && r.bottom > 0 && r.height > 0;
}).map((e) => [e.id || e.className, Math.round(e.getBoundingClientRect().height)])"""


def played(game: str, moves: int, seed: int = 4, **options: object) -> quetgames.State:
    rng = random.Random(seed)
    state = quetgames.new_game(game, **options)
    for _ in range(moves):
        if state.is_over:
            break
        seat = state.to_move[0]
        state = state.play(rng.choice(state.legal_moves(seat)), seat if len(state.to_move) > 1 else None)
    return state


@pytest.fixture(scope="module")
def phone(browser: Browser, server: str) -> Iterator[Watched]:
    """A touch phone: a page that starts the engine once for the module."""
    w = watched_page(browser, server, viewport=PORTRAIT[0], timeout_ms=30_000, has_touch=True, is_mobile=True)
    w.goto_ready(server)
    yield w
    w.context.close()


@pytest.mark.parametrize(("game", "options", "moves"), OPENED, ids=[f"{g}-{'-'.join(f'{k}{v}' for k, v in o.items()) or 'usual'}" for g, o, _ in OPENED])
def test_a_link_opens_with_the_board_on_the_first_screen_of_a_phone(phone: Watched, game: str, options: dict, moves: int) -> None:
    page = phone.page
    state = played(game, moves, **options)
    for size, least in [*((p, 0.95) for p in PORTRAIT), (LANDSCAPE, 0.60)]:
        page.set_viewport_size(size)
        open_record(phone, quetgames.new_game("multiplications").record)  # (another game first: the link opens afresh)
        page.evaluate("() => window.scrollTo(0, 0)")
        open_record(phone, state.record)
        page.locator("#board").wait_for()
        look = page.evaluate(BOARD_SEEN)
        assert look["seen"] >= least, f"{game} {options} at {size}: {look['seen']:.2f} of the board on screen {look['box']}"
        # scrolled down, what stays on top is one line
        page.evaluate("() => window.scrollTo(0, 400)")
        page.wait_for_function("() => scrollY > 0 || document.documentElement.scrollHeight <= innerHeight")
        page.wait_for_function("() => document.documentElement.scrollHeight <= innerHeight + 400 || document.querySelector('section.game').classList.contains('stuck') || getComputedStyle(document.getElementById('status')).position !== 'sticky'")
        stuck = page.evaluate(STUCK)
        assert all(height <= 48 for _, height in stuck), f"{game} at {size}: stuck at the top: {stuck}"
        page.evaluate("() => window.scrollTo(0, 0)")
    if options == {} and game in ("prime-target", "enumeration"):
        page.set_viewport_size(PORTRAIT[1])
        open_record(phone, quetgames.new_game("multiplications").record)
        open_record(phone, state.record)
        shoot(page, f"layout-phone-{game}")
    assert phone.errors == []


@pytest.mark.parametrize("size", [PORTRAIT[0], {"width": 1280, "height": 800}], ids=["phone", "desktop"])
def test_the_hint_is_on_screen_without_scrolling(browser: Browser, server: str, size: dict) -> None:
    phone = size["width"] < 600
    w = watched_page(browser, server, viewport=size, timeout_ms=30_000, has_touch=phone, is_mobile=phone)
    try:
        page = w.page
        w.goto_ready(server)
        for game, options, moves in [("enumeration", {"size": 8}, 5), ("prime-target", {}, 9)]:
            state = played(game, moves, **options)
            open_record(w, state.record)
            before = page.evaluate("scrollY")
            page.locator("[data-key=hint]").click()
            words = page.locator("#hint-words")
            words.wait_for(timeout=30_000)
            assert page.evaluate("scrollY") == before
            box = words.bounding_box()
            assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= size["height"], (game, box)
            assert words.inner_text().startswith("Hint: ")
        shoot(page, f"layout-hint-{'phone' if phone else 'desktop'}")
        assert w.errors == []
    finally:
        w.context.close()


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 1366, "height": 768}, PORTRAIT[0]], ids=["1280", "1366", "phone"])
def test_a_game_started_from_a_scrolled_setup_opens_at_its_heading(browser: Browser, server: str, size: dict) -> None:
    w = watched_page(browser, server, viewport=size, timeout_ms=30_000)
    try:
        page = w.page
        w.goto_ready(f"{server}#setup=convoluted-coprimality")
        start = page.locator("form.setup button[type=submit]")
        start.scroll_into_view_if_needed()
        assert page.evaluate("scrollY") > 0, "the setup page fits the screen: this tests nothing"
        start.click()
        page.locator("section.game h1").wait_for()
        w.wait_ready()
        top = page.locator("section.game h1").bounding_box()
        assert top is not None and 0 <= top["y"] < size["height"] / 3, top
        chips = page.locator("ol.seats").bounding_box()
        assert chips is not None and chips["y"] >= 0
        assert w.errors == []
    finally:
        w.context.close()


def test_the_moves_list_keeps_the_move_shown_in_its_box(w: Watched) -> None:
    rng = random.Random(9)
    state = quetgames.new_game("enumeration", size=8)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    page = w.page
    page.set_viewport_size({"width": 1280, "height": 800})
    open_record(w, state.record)
    listed = page.locator(".move-list")
    assert listed.evaluate("l => l.scrollHeight > l.clientHeight"), "the list fits its box: this tests nothing"
    # at the end of the game, the last move is in the box
    inside = """key => { const l = document.querySelector('.move-list'); const b = l.querySelector(`[data-key="${key}"]`);
      const lr = l.getBoundingClientRect(), br = b.getBoundingClientRect(); return br.top >= lr.top - 1 && br.bottom <= lr.bottom + 1; }"""
    page.wait_for_function(inside, arg=f"ply-{len(state.history)}")
    page.locator("[data-key=ply-1]").click()
    for ply in range(2, 11):
        page.locator(".replay-nav [data-key=forward]").click()
        page.wait_for_function("p => document.querySelector('section.game')?.dataset.ply === String(p)", arg=ply)
    page.wait_for_function(inside, arg="ply-10")
    assert listed.evaluate("l => l.scrollTop") > 0
    assert w.errors == []


def test_a_move_tapped_in_the_list_keeps_the_board_in_view_on_a_phone(phone: Watched) -> None:
    rng = random.Random(10)
    state = quetgames.new_game("multiplications", k=4)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    page = phone.page
    page.set_viewport_size(PORTRAIT[0])
    open_record(phone, state.record)
    move = page.locator("[data-key=ply-6]")
    move.scroll_into_view_if_needed()
    move.tap()
    page.wait_for_function("() => document.querySelector('section.game')?.dataset.ply === '6'")
    page.wait_for_function(f"() => ({BOARD_SEEN})().seen >= 0.5")
    assert page.evaluate(BOARD_SEEN)["seen"] >= 0.5
    assert phone.errors == []


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PORTRAIT[0]], ids=["desktop", "phone"])
@pytest.mark.parametrize("which", ["today", "next"])
def test_a_puzzle_opens_with_its_task_and_whole_board_on_screen(browser: Browser, server: str, size: dict, which: str) -> None:
    phone = size["width"] < 600
    w = watched_page(browser, server, viewport=size, timeout_ms=30_000, has_touch=phone, is_mobile=phone)
    try:
        page = w.page
        w.goto_ready(server)
        page.locator(".puzzles-entry").scroll_into_view_if_needed()  # (the home page scrolled to its puzzles, as a person would be)
        page.locator(".puzzles-entry a[href='#puzzle=%s']" % which).click()
        page.locator("section.puzzle[data-puzzle] #board svg").first.wait_for()
        page.locator("#puzzle-answer:not(:empty)").wait_for()
        task = page.locator("#puzzle-answer").bounding_box()
        assert task is not None and 0 <= task["y"] and task["y"] + task["height"] <= size["height"], task
        look = page.evaluate(BOARD_SEEN)
        assert look["seen"] >= 0.99, look
        shoot(page, f"layout-puzzle-{which}")
        assert w.errors == []
    finally:
        w.context.close()
