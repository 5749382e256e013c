"""Reduced motion and zoom.

A reader who asks the system for reduced motion sees nothing move: no
animation or transition runs on any element, the computer's "thinking"
spinner included. At 320 CSS px (a small phone, or 1280 px at 400% zoom) and
at 640 px with two device pixels per CSS pixel (a stand-in for 200% zoom)
no page scrolls sideways; a board wider than that scrolls inside its own
box (Prime Target's dense target, a big grid), never the page.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Browser, Page

from .harness import ARTIFACTS, Watched, go, forget_games, open_record, random_game, watched_page

GAMES = list(quetgames.GAMES)

# Every element whose computed style would move it: an animation with a name
# and a duration above zero, or a transition above zero.
MOVING_JS = """() => {
  const seconds = (list) => list.split(",").map((t) => parseFloat(t) * (t.trim().endsWith("ms") ? 0.001 : 1));
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
    + [...el.classList].map((c) => "." + c).join("");
  const moving = [];
  for (const el of document.querySelectorAll("*")) {
    for (const pseudo of [null, "::before", "::after"]) {
      const s = getComputedStyle(el, pseudo);
      if (s.animationName !== "none" && seconds(s.animationDuration).some((d) => d > 0))
        moving.push(`${name(el)}${pseudo ?? ""}: animation ${s.animationName} ${s.animationDuration}`);
      if (seconds(s.transitionDuration).some((d) => d > 0))
        moving.push(`${name(el)}${pseudo ?? ""}: transition ${s.transitionProperty} ${s.transitionDuration}`);
    }
  }
  return moving;
}"""

# How far the page scrolls sideways, and (to say why) the widest elements that
# stick out of the viewport, not counting what is inside a box that scrolls
# or clips sideways (a board's own scroll box).
SIDEWAYS_JS = """() => {
  const root = document.scrollingElement;
  const width = root.clientWidth;
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
      if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  const out = [];
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > width + 0.5 && !clipped(el)) {
      out.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${[...el.classList].map((c) => "." + c).join("")} right=${Math.round(r.right)}`);
    }
  }
  return { scroll: root.scrollWidth, width, out: out.slice(0, 6) };
}"""


def moving(page: Page) -> list[str]:
    return page.evaluate(MOVING_JS)



# -- reduced motion ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def still(browser: Browser, server: str) -> Iterator[Watched]:
    """A page whose reader asked for reduced motion; a strong computer thinks 10 s."""
    watched = watched_page(browser, server, reduced_motion="reduce")
    watched.goto_ready(f"{server}?computer-budget=10")
    yield watched
    watched.context.close()


def test_nothing_moves_under_reduced_motion_even_while_the_computer_thinks(still: Watched) -> None:
    page = still.page
    state = quetgames.new_game("multiplications").with_seats(kinds=["strong", "human"])
    open_record(still, state.record)
    page.locator("html[data-computer=thinking]").wait_for(state="attached")
    page.locator(".computer-bar .spinner").wait_for()
    assert moving(page) == []
    page.screenshot(path=str(ARTIFACTS / "reduced-motion-thinking.png"))
    # the probe does see motion: the same screen for a reader who did not ask
    page.emulate_media(reduced_motion="no-preference")
    try:
        assert any("spinner: animation spin" in m for m in moving(page)), moving(page)
    finally:
        page.emulate_media(reduced_motion="reduce")
    # let the search end before the next test asks the worker for anything
    page.locator("html:not([data-computer=thinking])").wait_for(state="attached", timeout=30_000)
    assert still.errors == []


@pytest.mark.parametrize("game_id", GAMES)
def test_no_board_moves_under_reduced_motion(still: Watched, game_id: str) -> None:
    states = random_game(game_id, seed=1)
    for state in (states[0], states[len(states) // 2]):
        forget_games(still)
        open_record(still, state.record)
        assert moving(still.page) == [], state.record
    assert still.errors == []


# -- zoom: 320 px, and 640 px at two device pixels per CSS pixel ---------------------------


ZOOMS = {
    "320px": {"viewport": {"width": 320, "height": 640}},
    "640px-x2": {"viewport": {"width": 640, "height": 800}, "device_scale_factor": 2},
}


@pytest.fixture(scope="module", params=list(ZOOMS))
def zoomed(request: pytest.FixtureRequest, browser: Browser, server: str) -> Iterator[Watched]:
    watched = watched_page(browser, server, **ZOOMS[request.param])
    watched.goto_ready(server)
    yield watched
    watched.context.close()


def assert_no_sideways_scroll(w: Watched, where: str) -> None:
    found = w.page.evaluate(SIDEWAYS_JS)
    if found["scroll"] > found["width"]:
        name = where.replace(" ", "-")
        w.page.screenshot(path=str(ARTIFACTS / f"reflow-{found['width']}-{name}.png"), full_page=True)
    assert found["scroll"] <= found["width"], (
        f"{where} scrolls sideways at {found['width']} px: {found['scroll']} px wide; sticking out: {found['out']}")


def test_home_and_setups_fit(zoomed: Watched) -> None:
    open_record(zoomed, "")
    assert_no_sideways_scroll(zoomed, "the home page")
    for game_id in GAMES:
        go(zoomed, f"setup={game_id}")
        zoomed.page.locator(f'form.setup[data-game="{game_id}"]').wait_for()
        assert_no_sideways_scroll(zoomed, f"the setup of {game_id}")
    zoomed.page.get_by_role("button", name="How to play").click()
    zoomed.page.locator("dialog.rules-dialog[open]").wait_for()
    assert_no_sideways_scroll(zoomed, "the How to play dialog")
    zoomed.page.keyboard.press("Escape")
    assert zoomed.errors == []


@pytest.mark.parametrize("game_id", GAMES)
def test_boards_fit_or_scroll_in_their_own_box(zoomed: Watched, game_id: str) -> None:
    states = random_game(game_id, seed=2)
    for stage, state in (("start", states[0]), ("middle", states[len(states) // 2]), ("end", states[-1])):
        open_record(zoomed, state.record)
        assert_no_sideways_scroll(zoomed, f"{game_id} at the {stage}")
    width = zoomed.page.viewport_size["width"] if zoomed.page.viewport_size else 0
    zoomed.page.screenshot(path=str(ARTIFACTS / f"reflow-{width}-{game_id}.png"), full_page=True)
    assert zoomed.errors == []


@pytest.mark.parametrize(("game_id", "options"), [
    ("prime-target", {"rays": 12, "k": 3}),
    ("convoluted-coprimality", {"size": 16}),
])
def test_a_board_wider_than_a_phone_fits_then_zooms_in_its_own_box(zoomed: Watched, game_id: str, options: dict) -> None:
    """A big board first fits the screen, or, a grid whose squares would be
    under 24 px, scrolls in its own box; Zoom in makes its squares bigger still."""
    states = random_game(game_id, seed=3, **options)
    page = zoomed.page
    open_record(zoomed, states[len(states) // 2].record)
    assert_no_sideways_scroll(zoomed, f"a wide {game_id}")
    # (a grid's squares stay 24 px or more, issue 56: wider than the box, it scrolls in a box of its own inside it)
    fits = page.evaluate("""() => { const b = document.getElementById('board').getBoundingClientRect();
      return [...document.querySelectorAll('#board svg')].every((s) => (s.closest('.grid-scroll') ?? s).getBoundingClientRect().right <= b.right + 0.5); }""")
    assert fits, f"{game_id}: the board does not fit its box when it opens"
    toggle = page.locator('#board .grid-zoom[aria-pressed="false"]:visible')
    if page.viewport_size == ZOOMS["320px"]["viewport"] and game_id == "convoluted-coprimality":
        toggle.click()
        wide = page.locator("#board .grid-scroll.big")
        assert wide.evaluate("b => b.scrollWidth > b.clientWidth"), "zoomed in, the grid should scroll in its box"
        assert_no_sideways_scroll(zoomed, f"a zoomed {game_id}")
        page.screenshot(path=str(ARTIFACTS / f"reflow-320-wide-{game_id}.png"), full_page=True)
        page.locator('#board .grid-zoom[aria-pressed="true"]').click()  # (the next test starts fitted)
    assert zoomed.errors == []
