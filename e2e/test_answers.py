"""Every answer where the eye is, and nothing moves under the finger (issue 46).

For each of the five games, on a 1280x800 desktop and on a 390x844 phone with
touch, against a computer seat: a refused move (the engine's reason), Hint
(its words) and a legal move (the computer's reply, or Nonconformity's picks
revealed). After each, the answer's words are inside the window, seen (no
other part of the page over them), with no scrolling; a refusal's answer
leaves Hint clear, and on the desktop covers none of the board; the board's top moved
by at most 1 px; and the page did not scroll at all (a scroll listener counts
every scroll). The targets are pressed where they are on screen (the mouse,
or a tap of the touchscreen at a point), so the test itself never scrolls.

The hard case on the phone: Enumeration's second grid, scrolled so that the
board's top is under the status line stuck to the top, and a square refused
there. Then Enumeration played through both grids by taps on a phone: the
page never scrolls by itself.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Browser, Page

from .harness import ARTIFACTS, Watched, fragment_of, open_record, watched_page

SIZES = {"desktop": ({"width": 1280, "height": 800}, False), "phone": ({"width": 390, "height": 844}, True)}
VS_COMPUTER = (["", ""], ["human", "random"])


def _open(browser: Browser, server: str, size: str) -> Watched:
    viewport, touch = SIZES[size]
    w = watched_page(browser, server, viewport=viewport, timeout_ms=30_000,
                     **({"has_touch": True, "is_mobile": True} if touch else {}))
    w.goto_ready(f"{server}?computer-budget=0.3")
    w.touch = touch  # type: ignore[attr-defined]
    return w


@pytest.fixture(scope="module")
def pages(browser: Browser, server: str) -> Iterator[dict[str, Watched]]:
    opened: dict[str, Watched] = {}

    class Lazy(dict):
        def __missing__(self, size: str) -> Watched:
            opened[size] = self[size] = _open(browser, server, size)
            return opened[size]

    yield Lazy()
    for w in opened.values():
        w.context.close()


# -- what the tests measure ---------------------------------------------------------

# Start counting the page's scrolls, and say where the board's top is.
MARK = """() => {
  window.__scrolls = [];
  if (!window.__counting) { window.__counting = true; addEventListener('scroll', () => window.__scrolls.push(scrollY)); }
  return {top: document.getElementById('board').getBoundingClientRect().top, y: scrollY};
}"""

# Where `words` are seen: the visible elements that show them (an answer line,
# the hint's words, the old message boxes), each with whether it is wholly
# inside the window and not covered there by another part of the page.
SEEN = """(words) => {
  const out = [];
  for (const el of document.querySelectorAll('#answer, #hint-words, #message, #note, .reveal')) {
    const r = el.getBoundingClientRect();
    if (r.width < 3 || r.height < 3 || !el.checkVisibility() || !el.innerText.includes(words)) continue;
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    const x = Math.min(Math.max(r.left + 8, 0), innerWidth - 1), y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
    const top = document.elementFromPoint(x, y);
    out.push({id: el.id || el.className, top: Math.round(r.top), bottom: Math.round(r.bottom), inside, uncovered: !!top && el.contains(top)});
  }
  return out;
}"""


def mark(page: Page) -> dict:
    return page.evaluate(MARK)


def check_still(page: Page, before: dict, what: str) -> None:
    """The board's top moved by at most 1 px, and the page never scrolled."""
    after = page.evaluate("() => ({top: document.getElementById('board').getBoundingClientRect().top, y: scrollY, scrolls: window.__scrolls})")
    assert after["scrolls"] == [] and after["y"] == before["y"], f"{what}: the page scrolled by itself: {before['y']} -> {after['scrolls']}"
    assert abs(after["top"] - before["top"]) <= 1, f"{what}: the board's top moved {before['top']:.0f} -> {after['top']:.0f}"


def check_seen(page: Page, words: str, what: str) -> None:
    words = words.strip()[:60]
    page.wait_for_function("(words) => [...document.querySelectorAll('#message, #note, #hint-words, .reveal')].some((el) => el.innerText.includes(words))", arg=words)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    seen = page.evaluate(SEEN, words)
    assert any(s["inside"] and s["uncovered"] for s in seen), f"{what}: {words!r} is not seen in the window ({page.viewport_size}): {seen}"


# Where the answer line is against the bar it hangs over and the board.
OVER = """() => {
  const line = document.getElementById('answer').getBoundingClientRect();
  const hint = document.querySelector('[data-key=hint]').getBoundingClientRect();
  const hit = document.elementFromPoint(hint.left + hint.width / 2, hint.top + hint.height / 2);
  const apart = line.right <= hint.left || line.left >= hint.right || line.bottom <= hint.top || line.top >= hint.bottom;
  return {bottom: line.bottom, board: document.getElementById('board').getBoundingClientRect().top,
          hintClear: apart && !!hit?.closest('[data-key=hint]')};
}"""


def check_over_the_bar(page: Page, what: str, *, short: bool) -> None:
    """The answer line leaves Hint clear; a one-line answer (`short`) covers none of the board."""
    over = page.evaluate(OVER)
    assert over["hintClear"], f"{what}: the answer covers Hint: {over}"
    if short:
        assert over["bottom"] <= over["board"] + 1, f"{what}: the answer covers the board's top: {over}"


def press_at(w: Watched, selector: str, *, point: str = "center") -> None:
    """Press the first element of `selector` that is wholly on screen and not
    covered, at a point of its own, as a finger or the mouse would: never
    scrolled to."""
    page = w.page
    xy = page.evaluate("""([selector, point]) => {
      for (const el of document.querySelectorAll(selector)) {
        const r = el.getBoundingClientRect();
        const status = document.getElementById('status')?.getBoundingClientRect().bottom ?? 0;
        if (r.width < 4 || r.top < Math.max(0, status) || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) continue;
        let x = r.left + r.width / 2, y = r.top + r.height / 2;
        if (point === 'label') {  // a Prime Target wedge: its number, the middle of its sector
          const g = document.querySelector(`.pt-texts g[data-ring="${el.dataset.ring}"][data-wedge="${el.dataset.wedge}"]`);
          const p = new DOMPoint(0, 0).matrixTransform(g.getScreenCTM());
          x = p.x; y = p.y;
        }
        const hit = document.elementFromPoint(x, y);
        if (hit && (el.contains(hit) || hit.contains(el) && point === 'label')) return [x, y];
      }
      return null;
    }""", [selector, point])
    assert xy, f"no {selector} wholly on screen to press"
    if w.touch:  # type: ignore[attr-defined]
        page.touchscreen.tap(*xy)
    else:
        page.mouse.click(*xy)


# -- the games: a position against a computer, a refused move, a legal move -----------

def position(game: str) -> quetgames.State:
    if game == "enumeration":
        state = quetgames.new_game("enumeration")
    elif game == "convoluted-coprimality":
        state = quetgames.new_game("convoluted-coprimality")
    elif game == "multiplications":
        state = quetgames.new_game("multiplications").play("a1").play("b2")  # b1: row 1 already has an x
    elif game == "prime-target":
        state = quetgames.new_game("prime-target").play("3@2").play("1@1")  # 5 on wedge 2: it holds 3
    else:
        state = quetgames.new_game("nonconformity", length=5, starts=(29, 14)).play("116", 0).play("6", 1)
    return state.with_seats(*VS_COMPUTER)


def refuse(w: Watched, game: str, state: quetgames.State) -> str:
    """Make a move the engine refuses, as a person would; its reason."""
    page = w.page
    if game == "prime-target":
        press_at(w, '.pt-value-choice[data-value="5"]')
        page.locator('.pt-value-choice[data-value="5"][aria-pressed="true"]').wait_for()
        press_at(w, '.pt-wedge[data-ring="0"][data-wedge="2"]', point="label")
        move = "5@2"
    elif game == "nonconformity":
        page.locator("#nc-pick").fill("13")
        page.locator(".nc-verdict.illegal").wait_for()
        press_at(w, ".nc-play")
        move = "13"
    else:
        move = page.evaluate("""() => { const status = document.getElementById('status').getBoundingClientRect().bottom;
          return [...document.querySelectorAll('#board [data-try]')].find((el) => { const r = el.getBoundingClientRect();
            return r.top > status && r.bottom < innerHeight && r.left >= 0 && r.right <= innerWidth; })?.dataset.try; }""")
        assert move, "no refused square on screen"
        press_at(w, f'#board [data-try="{move}"]')
    with pytest.raises(quetgames.IllegalMove) as refused:
        state.play(move, 0 if game == "nonconformity" else None)
    return str(refused.value)


def play_legal(w: Watched, game: str, state: quetgames.State) -> None:
    page = w.page
    if game == "nonconformity":
        page.locator("#nc-pick").fill(state.legal_moves(0)[0])
        page.locator(".nc-verdict:not(.illegal):not(:empty)").wait_for()
        press_at(w, ".nc-play")
    elif game == "prime-target":
        press_at(w, "#board .pt-wedge[data-move]", point="label")
    else:
        press_at(w, "#board [data-move]")


def shot(w: Watched, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    w.page.screenshot(path=str(ARTIFACTS / f"answers-{name}.png"))


GAMES = ["enumeration", "convoluted-coprimality", "multiplications", "prime-target", "nonconformity"]


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game", GAMES)
def test_every_answer_is_seen_and_nothing_moves(pages: dict[str, Watched], game: str, size: str) -> None:
    w = pages[size]
    page = w.page
    w.errors.clear()
    state = position(game)
    open_record(w, state.record)
    page.locator("#board").wait_for()
    page.wait_for_function("() => document.documentElement.dataset.computer === 'idle'")
    if game == "nonconformity":
        page.locator("#nc-pick").wait_for()
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")

    # a refused move: its reason
    before = mark(page)
    reason = refuse(w, game, state)
    check_seen(page, reason, f"{game} {size}: the refusal")
    # (on the desktop every refusal here is one line; on e7c20a7 it hung under the bar, over the board)
    check_over_the_bar(page, f"{game} {size}: the refusal", short=size == "desktop")
    w.wait_ready()
    check_still(page, before, f"{game} {size}: the refusal")
    assert fragment_of(page) == state.record
    shot(w, f"{game}-{size}-refused")

    # Hint: its words
    before = mark(page)
    press_at(w, "[data-key=hint]")
    page.locator("#hint-words").wait_for()
    check_seen(page, page.locator("#hint-words").inner_text(), f"{game} {size}: the hint")
    check_still(page, before, f"{game} {size}: the hint")

    # a legal move: the computer's reply (Nonconformity: both picks revealed)
    before = mark(page)
    play_legal(w, game, state)
    page.wait_for_function("r => decodeURIComponent(location.hash.slice(1)) !== r", arg=state.record)
    page.wait_for_function("() => document.documentElement.dataset.computer === 'idle'")
    w.wait_ready()
    words = "picked" if game == "nonconformity" else "(random) played"
    said = page.locator(".reveal, #note", has_text=words).first
    said.wait_for(state="attached")
    check_seen(page, said.inner_text(), f"{game} {size}: the computer's reply")
    check_still(page, before, f"{game} {size}: the computer's reply")
    shot(w, f"{game}-{size}-reply")
    assert w.errors == []


def second_grid(seed: int = 5, moves: int = 6) -> quetgames.State:
    """Enumeration (6x6) with its first grid full and a few squares of the second filled."""
    rng = random.Random(seed)
    state = quetgames.new_game("enumeration").with_seats(["", ""], ["human", "human"])
    while state.view()["board"]["grid"] == 1 or moves > 0:
        if state.view()["board"]["grid"] == 2:
            moves -= 1
        state = state.play(rng.choice(state.legal_moves()))
    return state


def test_a_refusal_under_the_stuck_status_line_on_a_phone(pages: dict[str, Watched]) -> None:
    w = pages["phone"]
    page = w.page
    w.errors.clear()
    state = second_grid()
    open_record(w, state.record)
    # the board's top scrolled 40 px under the status line, which sticks to the
    # top (the player looks at the grid's lower rows)
    page.evaluate("() => scrollTo(0, document.getElementById('board').getBoundingClientRect().top + scrollY + 10)")
    page.wait_for_function("() => document.querySelector('section.game.stuck')")
    page.evaluate("() => scrollBy(0, document.getElementById('board').getBoundingClientRect().top"
                  " - document.getElementById('status').getBoundingClientRect().bottom + 40)")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    before = mark(page)
    reason = refuse(w, "enumeration", state)
    check_seen(page, reason, "enumeration, second grid, scrolled: the refusal")
    check_still(page, before, "enumeration, second grid, scrolled: the refusal")
    shot(w, "enumeration-phone-stuck-refused")
    assert w.errors == []


def test_enumeration_played_through_both_grids_by_taps_never_scrolls(pages: dict[str, Watched]) -> None:
    w = pages["phone"]
    page = w.page
    w.errors.clear()
    state = quetgames.new_game("enumeration").with_seats(["", ""], ["human", "human"])
    open_record(w, state.record)
    page.evaluate("() => scrollTo(0, 0)")
    rng = random.Random(8)
    scrolled = []
    while not state.is_over:
        before = mark(page)
        moves = page.evaluate("""() => { const status = document.getElementById('status').getBoundingClientRect().bottom;
          return [...document.querySelectorAll('#board [data-move]')].filter((el) => { const r = el.getBoundingClientRect();
            return r.top > status && r.bottom < innerHeight && r.left >= 0 && r.right <= innerWidth; }).map((el) => el.dataset.move); }""")
        assert moves, f"no square to play on screen after {len(state.history)} moves (scrollY {before['y']})"
        move = rng.choice(moves)
        press_at(w, f'#board [data-move="{move}"]')
        state = state.play(move)
        page.wait_for_function("r => decodeURIComponent(location.hash.slice(1)) === r", arg=state.record)
        w.wait_ready()
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        y = page.evaluate("() => ({y: scrollY, scrolls: window.__scrolls})")
        if y["scrolls"] or y["y"] != before["y"]:
            scrolled.append((len(state.history), before["y"], y["y"]))
    shot(w, "enumeration-phone-both-grids")
    assert scrolled == [], f"the page scrolled by itself (moves, scrollY before -> after): {scrolled}"
    assert w.errors == []
