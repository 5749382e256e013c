"""Prime Target and Nonconformity puzzles on the puzzle page and in the
puzzle embed (issue 48; web/features/puzzle-board.js, docs/PUZZLES.md),
played like a person: a ring built by switching wedges and then played, a
pick typed and chosen; by pointer, by keyboard, and by touch on a 390 x 844
phone. Every answer's words are checked against the engine's own answer for
that move (quetgames.puzzles.answer, run here in Python): a wrong ring's
answer names the other seat's reply, a wrong pick's names a pick of the
other seat that beats it. Also issue 46's puzzle line: the task and the
whole board are on screen when a puzzle opens, at 1280 x 800, 1366 x 768
and 390 x 844 (what "the board" is, game by game, is in `board_parts`)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Frame, Page

import quetgames.puzzles

from .harness import ARTIFACTS, Watched, embed_in_host, go, watched_page

PUZZLES = {p["id"]: p for p in json.loads((Path(__file__).resolve().parent.parent / "docs" / "puzzles.json").read_text())["puzzles"]}

# A 6-wedge Prime Target puzzle with one winning ring in 64, and the all-sums ring, which loses.
RING = PUZZLES["pt-93483dfd"]
WRONG_RING = "++++++"
# An 8-wedge one (the default game), 42 winning rings in 256.
RING_8 = PUZZLES["pt-95986066"]
# Nonconformity puzzles with one winning pick, and a wrong pick that a pick of the other seat beats.
PICK = PUZZLES["nc-52b059a8"]  # Player 1 to pick, default game
WRONG_PICK = "44"  # Player 2's 24 beats it
PICK_SMALL = PUZZLES["nc-5314ece6"]  # largest pick 100
WRONG_PICK_SMALL = "10"  # Player 2's 20 beats it
PHONE_390 = {"width": 390, "height": 844}


def engine_words(puzzle: dict, move: str) -> dict:
    """The engine's answer to `move`, as the page must say it."""
    return quetgames.puzzles.answer(puzzle, move)


def test_the_chosen_puzzles_are_as_described() -> None:
    assert RING["solutions"] == ["+----+"] and WRONG_RING not in RING["solutions"]
    assert len(RING_8["solutions"]) > 1
    for puzzle, wrong in ((PICK, WRONG_PICK), (PICK_SMALL, WRONG_PICK_SMALL)):
        answer = engine_words(puzzle, wrong)
        assert answer["value"] == 0 and " beats it." in answer["words"], answer


def open_puzzle(w: Watched, puzzle_id: str) -> None:
    if w.page.evaluate("() => decodeURIComponent(location.hash.slice(1))") == f"puzzle={puzzle_id}":
        go(w, "puzzle=elsewhere", wait=True)  # (so that opening it again is a change of address)
    go(w, f"puzzle={puzzle_id}", wait=True)
    chosen = "" if puzzle_id in ("today", "next") else f'="{puzzle_id}"'
    w.page.locator(f"section.puzzle[data-puzzle{chosen}]").wait_for()
    w.page.locator("#puzzle-answer:not(:empty)").wait_for()


def answer(where: Page | Frame) -> str:
    where.locator("#puzzle-answer[data-answer]").wait_for()
    return where.locator("#puzzle-answer").inner_text()


def notation(where: Page | Frame) -> str:
    return where.locator("#board .pt-notation").inner_text()


def switches(where: Page | Frame):
    return where.locator('#board .pt-wedge[role="switch"]')


# A point inside a wedge, from its path ("M outer-start A R … outer-end L
# inner-end A r … inner-start Z"): on the line halfway round it, halfway
# between its two arcs. (The middle of a wedge's bounding box may lie on a
# ring inside it: a 90° wedge's does.) As an offset from the box's corner,
# which is what a click's or a tap's `position` is.
WEDGE_POINT = """(path) => {
  const n = path.getAttribute("d").match(/-?[0-9.]+/g).map(Number);
  const [x0, y0, R, , , , , x1, y1, , , r] = n;
  const mx = (x0 + x1) / 2, my = (y0 + y1) / 2, len = Math.hypot(mx, my);
  const at = ((R + r) / 2) / len;
  const point = new DOMPoint(mx * at, my * at).matrixTransform(path.getScreenCTM());
  const box = path.getBoundingClientRect();
  return {x: point.x - box.left, y: point.y - box.top};
}"""


def press_wedge(wedge, touch: bool = False) -> None:
    """Click (or tap) a wedge of the ring being built at a point inside it."""
    wedge.scroll_into_view_if_needed()
    position = wedge.evaluate(WEDGE_POINT)
    if touch:
        wedge.tap(position=position)
    else:
        wedge.click(position=position)


def build_ring(where: Page | Frame, signs: str, how: str) -> None:
    """Switch the ring's wedges until it reads `signs` (pointer: a click on
    each wedge to switch; touch: a tap; keyboard: round the ring with the
    arrow keys, Space to switch), then play it with the Play this ring button."""
    wedges = switches(where)
    assert wedges.count() == len(signs)
    if how == "keyboard":
        wedges.first.focus()
    for i, sign in enumerate(signs):
        if notation(where)[i] != sign:
            if how == "keyboard":
                where.locator(":focus").press(" ")
            else:
                press_wedge(wedges.nth(i), touch=how == "touch")
        if how == "keyboard":
            where.locator(":focus").press("ArrowRight")
    assert notation(where) == signs
    # the preview has caught up: the button plays the ring shown
    where.locator(f'#board .pt-play-ring[data-move="{signs}"]').wait_for()
    play = where.get_by_role("button", name="Play this ring")
    if how == "keyboard":
        play.focus()
        play.press("Enter")
    elif how == "touch":
        play.tap()
    else:
        play.click()


def choose_pick(where: Page | Frame, pick: str, how: str) -> None:
    """Type `pick` into the number box and choose it (Enter on the keyboard)."""
    box = where.locator("#board #nc-pick")
    if how == "touch":
        box.tap()
    else:
        box.click() if how == "pointer" else box.focus()
    box.fill(pick)
    if how == "keyboard":
        box.press("Enter")
    elif how == "touch":
        where.get_by_role("button", name="Choose it").tap()
    else:
        where.get_by_role("button", name="Choose it").click()


def try_again(where: Page | Frame, how: str) -> None:
    button = where.get_by_role("button", name="Try again")
    if how == "touch":
        button.tap()
    elif how == "keyboard":
        button.focus()
        button.press("Enter")
    else:
        button.click()
    where.locator("#puzzle-answer:not([data-answer])").wait_for()


def solve_ring(where: Page | Frame, puzzle: dict, wrong: str, how: str) -> None:
    """A wrong ring, answered with the other seat's reply; then the winning one."""
    described = quetgames.puzzles.task(len(puzzle["solutions"]), puzzle["rating"]["legal"])
    assert described in where.locator("#puzzle-answer").inner_text()
    build_ring(where, wrong, how)
    said = answer(where)
    expected = engine_words(puzzle, wrong)
    assert not expected["right"] and said == expected["words"], said
    assert said.startswith("Not this one: ") and "In answer, " in said
    try_again(where, how)
    build_ring(where, puzzle["solutions"][0], how)
    said = answer(where)
    assert said == engine_words(puzzle, puzzle["solutions"][0])["words"] and said.startswith("Right: "), said
    assert where.locator("#puzzle-answer").get_attribute("data-answer") == "right"


def solve_pick(where: Page | Frame, puzzle: dict, wrong: str, how: str) -> None:
    """A wrong pick: the round is shown revealed with the other seat's reply,
    which the words say beats it; then the winning pick."""
    task = where.locator("#puzzle-answer").inner_text()
    assert "find a pick that keeps the win whatever" in task, task
    # nothing on the board names the pick to find (the game's list of scoring picks is a hint)
    assert where.locator("#board .nc-scoring button.scores").count() == 0
    choose_pick(where, wrong, how)
    said = answer(where)
    expected = engine_words(puzzle, wrong)
    reply = expected["reply"]
    assert said == expected["words"] and f"'s {reply} beats it." in said, said
    # the round revealed: both picks in the table of sequences
    last_row = where.locator("#board .nc-seqs-table tbody tr").last.inner_text()
    assert wrong in last_row and reply in last_row, last_row
    try_again(where, how)
    choose_pick(where, puzzle["solutions"][0], how)
    said = answer(where)
    assert said == engine_words(puzzle, puzzle["solutions"][0])["words"] and said.startswith("Right: "), said


@pytest.mark.parametrize("how", ["pointer", "keyboard"])
def test_a_prime_target_puzzle_is_solved_by_switching_wedges(w: Watched, page: Page, how: str) -> None:
    page.evaluate("() => localStorage.removeItem('quetgames.puzzles')")
    open_puzzle(w, RING["id"])
    solve_ring(page, RING, WRONG_RING, how)
    # the first answer counted: a wrong one
    kept = page.evaluate("() => JSON.parse(localStorage.getItem('quetgames.puzzles'))")
    assert kept["seen"] == {RING["id"]: "missed"} and kept["streak"] == 0
    w.screenshot(f"puzzle-prime-target-{how}")


def test_a_prime_target_puzzle_names_the_rings_to_come_and_opens_on_a_wrong_ring(w: Watched, page: Page) -> None:
    """pt-517b34de asks for ring 4 of 6 and used to say nothing of rings 5
    and 6; pt-72bf4e4c's first look, all sums, was already a right answer."""
    follows = PUZZLES["pt-517b34de"]
    open_puzzle(w, follows["id"])
    task = page.locator("#puzzle-answer").inner_text()
    assert task.startswith("Player 2 to complete ring 4 of 6 can force a win: "), task
    assert quetgames.puzzles.task(5, 16) in task
    assert "After it: Player 1 to complete ring 5 of 6; then Player 2 to complete ring 6 of 6; then the game ends." in task, task
    sums = PUZZLES["pt-72bf4e4c"]
    assert "++++++" in sums["solutions"]  # (all sums wins here)
    open_puzzle(w, sums["id"])
    first_look = notation(page)
    assert first_look not in sums["solutions"], first_look
    page.locator(f'#board .pt-play-ring[data-move="{first_look}"]').wait_for()  # what Play this ring would play
    w.screenshot("puzzle-prime-target-first-look")


@pytest.mark.parametrize("how", ["pointer", "keyboard"])
def test_a_nonconformity_puzzle_is_solved_by_its_pick(w: Watched, page: Page, how: str) -> None:
    page.evaluate("() => localStorage.removeItem('quetgames.puzzles')")
    open_puzzle(w, PICK["id"])
    solve_pick(page, PICK, WRONG_PICK, how)
    assert "Streak: 0" in page.locator(".puzzle-score").inner_text()
    w.screenshot(f"puzzle-nonconformity-{how}")


def test_both_by_touch_on_a_phone(browser: Browser, server: str) -> None:
    phone = watched_page(browser, server, viewport=PHONE_390, has_touch=True, is_mobile=True, timeout_ms=30_000)
    try:
        phone.goto_ready(f"{server}index.html#puzzle={RING['id']}")
        phone.page.locator("#puzzle-answer:not(:empty)").wait_for()
        solve_ring(phone.page, RING, WRONG_RING, "touch")
        phone.screenshot("puzzle-prime-target-phone")
        open_puzzle(phone, PICK_SMALL["id"])
        solve_pick(phone.page, PICK_SMALL, WRONG_PICK_SMALL, "touch")
        phone.screenshot("puzzle-nonconformity-phone")
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE_390["width"]
        assert phone.errors == []
    finally:
        phone.context.close()


# -- the task and the whole board on screen (issue 46) ---------------------------------------

def board_parts(game: str) -> list[str]:
    """What "the whole board" is, game by game: the drawing itself and, where
    a move is made with them, its controls. Prime Target: the target and its
    ring's controls (Play this ring); its list of rings scored may follow
    below, as a game's moves list does. Nonconformity: its table of sequences,
    its number lines and the number box with Choose it (the folded list of
    every pick may follow). The grid games: the live grid (the first); the
    legend, and the small grids of a game's earlier grids, may follow."""
    if game == "prime-target":
        return ["#board .pt-figure", "#board .pt-controls"]
    if game == "nonconformity":
        return ["#board .nc-seqs-table", "#board .nc-line", "#board .nc-pick-form"]
    return ["#board svg.grid-board"]


DAY = "2026-11-28"


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, {"width": 1366, "height": 768}, PHONE_390],
                         ids=["1280x800", "1366x768", "390x844"])
def test_the_task_and_the_whole_board_open_on_screen(browser: Browser, server: str, size: dict) -> None:
    watched = watched_page(browser, server, viewport=size, timeout_ms=30_000)
    watched.page.clock.set_fixed_time(f"{DAY}T10:00:00")
    try:
        watched.goto_ready(server)
        misses = []
        for which in ("today", "next", RING_8["id"], PICK["id"]):
            open_puzzle(watched, which)
            page = watched.page
            chosen = page.locator("section.puzzle").get_attribute("data-puzzle")
            if which == "today":
                assert chosen == quetgames.puzzles.puzzle_of_the_day(list(PUZZLES), DAY)
            page.wait_for_function("() => document.fonts.status === 'loaded'")
            boxes = page.evaluate("""(parts) => parts.map((s) => { const e = document.querySelector(s);
                if (!e) return [s, null];
                const b = e.getBoundingClientRect();
                return [s, [b.left, b.top, b.right, b.bottom].map(Math.round)]; })""",
                ["#puzzle-answer", "#board", *board_parts(PUZZLES[chosen]["game"])])
            assert page.evaluate("scrollY") == 0
            for selector, box in boxes:
                assert box is not None, (which, selector)
                left, top, right, bottom = box
                if selector == "#board":
                    bottom = top  # (its top edge: what follows the drawing may run below)
                if not (0 <= top and bottom <= size["height"] and 0 <= left and right <= size["width"]):
                    misses.append(f"{which} ({chosen}): {selector} at {box} on {size['width']}x{size['height']}")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"puzzle-fit-{which}-{size['width']}x{size['height']}.png"))
        assert misses == []
        assert watched.errors == []
    finally:
        watched.context.close()


# -- the puzzle embed, in a frame on another origin -------------------------------------------

@pytest.mark.parametrize("puzzle", [RING, PICK], ids=["prime-target", "nonconformity"])
def test_the_puzzle_embed_plays_both_games(browser: Browser, server: str, host: tuple, puzzle: dict) -> None:
    app = f"{urlsplit(server).scheme}://{urlsplit(server).netloc}"
    page, frame = embed_in_host(browser, host, f"{app}/embed.html?mode=puzzle#{puzzle['id']}", width=680, height=760)
    try:
        assert urlsplit(page.url).netloc != urlsplit(server).netloc  # another origin
        frame.locator(f'.embed-puzzle[data-puzzle="{puzzle["id"]}"]').wait_for()
        frame.locator("#puzzle-answer:not(:empty)").wait_for()
        if puzzle is RING:
            solve_ring(frame, RING, WRONG_RING, "pointer")
        else:
            solve_pick(frame, PICK, WRONG_PICK, "pointer")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"puzzle-embed-{puzzle['game']}.png"), full_page=True)
        assert page.errors == []
    finally:
        page.context.close()
