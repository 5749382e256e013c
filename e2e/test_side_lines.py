"""Side lines made on the board of a past position, the analysis written as
comments, the announcer reading a comment, and the embed playing a game
through (docs/RECORD.md, docs/EMBED.md).

- Every game where the engine allows a side line (found by asking it, never
  by name): step back, play another move, choose "Start a side line here";
  the record holds the line and the game's own moves are unchanged; a reload
  keeps it; a move at its end extends it; Remove drops it; then the same move
  again, "Take back the later moves and play this" cuts the game there
  (where the engine's view has secret picks, the dialog says in words why
  that is not offered).
- The moves list: a side line's moves by Tab, Enter and arrow keys.
- Analysis: one click writes the marks as comments, after any comment
  already there; the record holds them; the analysis stays on screen.
- The embed: autoplay reaches the last move by itself and stops; Play through
  again, and a step click pauses it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Browser, Page

from .axe import assert_clean, stray_words
from .harness import (ARTIFACTS, LOAD_TIMEOUT_MS, READY, Watched, board_moves, finished, forget_games, open_record,
                      press_target, random_game, ready_page, saved_entries, shoot, wait_fragment_change, watched_page)
from .test_keyboard import focus, tab_to

ITERATIONS = 30  # the analysis: the engine's own, exactly (as e2e/test_analysis.py)
DIALOG = "dialog.side-line-dialog[open]"
CONFIRM = "dialog.confirm[open]"


@pytest.fixture(scope="module")
def w(browser: Browser, server: str) -> Iterator[Watched]:
    yield from ready_page(browser, server, f"?analysis-iterations={ITERATIONS}")


# -- what the engine allows ---------------------------------------------------------------


def board_seat(state: quetgames.State, ply: int, following: int | None) -> int:
    """The seat the page's board plays for at the position after `ply` moves
    (gameview.js #withReplaySeat): the one seat to move, else the seat of the
    move that follows there (`following`), else the first seat to choose."""
    to_move = state.position(ply).to_move
    if len(to_move) == 1:
        return to_move[0]
    return following if following in to_move else to_move[0]


def others_at(state: quetgames.State, ply: int) -> tuple[int, list[str]]:
    """The board's seat at `ply`, and its legal moves other than the game's own there."""
    own = state.view()["moves"][ply]
    seat = board_seat(state, ply, own["seat"])
    return seat, [m for m in state.position(ply).legal_moves(seat) if not (m == own["move"] and seat == own["seat"])]


def side_line_case(game_id: str) -> tuple[quetgames.State, int] | None:
    """Four moves (rounds) into a seeded random game, and the latest ply up to
    2 from which the engine takes a side line; None if it takes none."""
    states = random_game(game_id, seed=5)
    state = states[min(4, len(states) - 1)]
    for ply in range(min(2, state.plies - 1), -1, -1):
        seat, others = others_at(state, ply)
        for move in others:
            try:
                state.with_line(ply, [(move, seat)])
            except quetgames.RulesError:
                continue
            return state, ply
    return None


CASES = {game_id: case for game_id in quetgames.GAMES if (case := side_line_case(game_id))}
# the game checked most closely (reload, keyboard, pictures, axe): one whose
# line branches after a move and has two other moves to choose from
SHOWCASE = next(g for g, (state, ply) in CASES.items() if ply > 0 and len(others_at(state, ply)[1]) >= 2)


# -- acting on the page -----------------------------------------------------------------------


def show_ply(page: Page, ply: int) -> None:
    """Step to the position after `ply` moves from the moves list, and have
    its board play ("Play a move here", where it is still a picture)."""
    if ply == 0:
        if page.locator(".replay-banner", has_text="the start of the game").count() == 0:
            page.locator('.replay-nav [data-key="first"]').click()
        page.locator(".replay-banner", has_text="the start of the game").wait_for()
    else:
        page.locator(f'[data-key="ply-{ply}"]').click()
        page.locator(".replay-banner", has_text=f"after move {ply} of").wait_for()
    play_here(page)


def play_here(page: Page) -> None:
    """Have the board of the past position shown play: "Play a move here",
    where it is still a picture (until the game as it stands is shown again)."""
    offer = page.locator('.replay-banner [data-key="side-play"]')
    if offer.count():
        # (a picture until asked: nothing to play while stepping back, issue 56)
        assert page.locator("#board").evaluate("b => b.inert") and page.locator("#board [data-move]").count() == 0
        assert "starts a side line" in page.locator(".replay-banner .replay-hint").inner_text()
        offer.click()
    page.locator("#board.side-play").wait_for()


def play_asking(page: Page, move: str) -> None:
    """Play `move` on the past position's board and wait for the side-line question."""
    press_target(page, move)
    page.locator(f"{DIALOG}, {CONFIRM}").first.wait_for()
    if page.locator(CONFIRM).count():
        page.locator(f"{CONFIRM} button[value=yes]").click()
        page.locator(DIALOG).wait_for()


def on_board(page: Page, wanted: list[str]) -> str:
    """A move of `wanted` that the board offers as a target."""
    offered = set(board_moves(page))
    found = [m for m in wanted if m in offered]
    assert found, f"the board offers none of {wanted[:8]}: {sorted(offered)[:12]}"
    return found[0]


# -- side lines on the board -----------------------------------------------------------------


@pytest.mark.parametrize("game_id", list(CASES))
def test_a_side_line_from_the_board_then_take_back_and_play(w: Watched, page: Page, game_id: str) -> None:
    state, ply = CASES[game_id]
    first = game_id == SHOWCASE
    forget_games(w)
    open_record(w, state.record)
    if first:  # no comments or side lines yet: the Embed dialog offers no "Replay with comments"
        page.locator('[data-key="embed"]').click()
        page.locator("dialog.embed-builder").wait_for()
        assert page.locator('dialog.embed-builder input[value="story"]').count() == 0
        page.locator("dialog.embed-builder button.close").click()
    show_ply(page, ply)
    seat, others = others_at(state, ply)
    banner = page.locator(".replay-banner .replay-hint")
    assert "start a side line here" in banner.inner_text()
    move = on_board(page, others)

    # another move: the question, answered "side line"
    play_asking(page, move)
    dialog = page.locator(DIALOG)
    assert f"move {ply + 1} was " in dialog.inner_text()
    if first:
        assert_clean(page, "the side-line dialog")
        shoot(page, "side-line-dialog")
    old = w.fragment()
    dialog.locator('[data-key="side-line-branch"]').click()
    lined = quetgames.load(wait_fragment_change(w, old))
    assert lined.history == state.history and lined.game_id == state.game_id
    assert len(lined.lines) == 1 and lined.lines[0].ply == ply and lined.lines[0].moves == ((move, seat),)
    page.locator(".replay-banner", has_text=f"Replaying a side line: instead of move {ply + 1}, move 1 of 1").wait_for()
    assert page.locator('[data-key="line-0-1"]').get_attribute("aria-current") == "step"
    # saved like a move: the saved game is the address's
    assert any(entry["link"] == lined.record for entry in saved_entries(page))

    if first:  # a reload keeps it (the address; the saved game)
        page.reload()
        page.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        page.locator(".move-list .side-line").wait_for()
        assert quetgames.load(w.fragment()).lines == lined.lines
        page.locator('[data-key="line-0-1"]').click()
        page.locator(".replay-banner", has_text="a side line").wait_for()
        play_here(page)

    # a move at the line's end extends it, without asking
    end = lined.line_position(0)
    on = board_seat(end, end.plies, None) if not end.is_over else None
    if on is not None and end.legal_moves(on):
        more = on_board(page, end.legal_moves(on))
        old = w.fragment()
        press_target(page, more)
        if page.locator(CONFIRM).count():
            page.locator(f"{CONFIRM} button[value=yes]").click()
        lined = quetgames.load(wait_fragment_change(w, old))
        assert lined.lines[0].moves == ((move, seat), (more, on)) and lined.history == state.history
        page.locator(".replay-banner", has_text="move 2 of 2").wait_for()
        if first:
            keyboard_through_the_side_line(w, page, ply)
            ARTIFACTS.mkdir(exist_ok=True)
            page.locator(".moves").screenshot(path=str(ARTIFACTS / "side-line-moves-list.png"))
            shoot(page, "side-line-moves")

    # Remove drops it, after a yes
    page.locator('[data-key="drop-line-0"]').click()
    page.locator(CONFIRM).wait_for()
    if first:
        assert_clean(page, "the remove question")
    old = w.fragment()
    page.locator(f"{CONFIRM} button[value=yes]").click()
    dropped = quetgames.load(wait_fragment_change(w, old))
    assert dropped.lines == () and dropped.history == state.history

    # the same move again: "take back the later moves and play this", where undo is offered
    show_ply(page, ply)
    play_asking(page, move)
    if state.position(ply).view()["choosing"]:
        assert "Taking back the later moves is not offered here: in a round of secret picks" in dialog.inner_text()
        assert dialog.locator('[data-key="side-line-cut"]').count() == 0
        dialog.locator('[data-key="side-line-cancel"]').click()
        dialog.wait_for(state="detached")
        assert w.fragment() == dropped.record
    else:
        old = w.fragment()
        dialog.locator('[data-key="side-line-cut"]').click()
        cut = quetgames.load(wait_fragment_change(w, old))
        assert cut.history == state.history[:ply] + (move,) and cut.game_id == state.game_id
        page.locator(".replay-banner").wait_for(state="detached")
        page.locator("#note", has_text="taken back").wait_for()
    assert stray_words(page) == []


def keyboard_through_the_side_line(w: Watched, page: Page, ply: int) -> None:
    """A side line's moves by keyboard, as the game's own: Tab reaches them,
    Enter shows one, arrow keys step along the line, and back from its first
    move to the position it branches from."""
    page.locator('[data-key="exit-replay"]').click()
    page.locator(".replay-banner").wait_for(state="detached")
    page.locator('[data-key="annotate"]').focus()
    tab_to(page, lambda f: f["key"] == "line-0-1")
    page.keyboard.press("Enter")
    page.locator(".replay-banner", has_text="move 1 of 2").wait_for()
    page.keyboard.press("ArrowRight")
    page.locator(".replay-banner", has_text="move 2 of 2").wait_for()
    page.wait_for_function("() => document.activeElement?.dataset.key === 'line-0-2'")
    page.keyboard.press("ArrowLeft")
    page.locator(".replay-banner", has_text="move 1 of 2").wait_for()
    if ply > 0:  # back from the first move: the position the line branches from
        page.keyboard.press("ArrowLeft")
        page.locator(".replay-banner", has_text=f"after move {ply} of").wait_for()
        # (focus follows on the next frame, after the banner: gameview.js #applyFocus)
        page.wait_for_function("key => document.activeElement?.dataset.key === key", arg=f"ply-{ply}")
        assert focus(page)["key"] == f"ply-{ply}"
        page.keyboard.press("ArrowRight")  # the game's own next move
        page.locator(".replay-banner", has_text=f"after move {ply + 1} of").wait_for()
    page.locator('[data-key="line-0-2"]').click()
    page.locator(".replay-banner", has_text="move 2 of 2").wait_for()
    # the step buttons go along the side line too: its end has no Forward, Back is its move 1
    assert page.locator('.replay-nav [data-key="forward"]').is_disabled()
    page.locator('.replay-nav [data-key="back"]').click()
    page.locator(".replay-banner", has_text="move 1 of 2").wait_for()
    page.locator('.replay-nav [data-key="forward"]').click()
    page.locator(".replay-banner", has_text="move 2 of 2").wait_for()


def test_a_refused_side_line_says_why_and_changes_nothing(w: Watched, page: Page) -> None:
    """The engine has the last word: a side line past its limit is refused in its words."""
    state, ply = CASES[SHOWCASE]
    seat, others = others_at(state, ply)
    full = state
    for i in range(quetgames.record.LINE_LIMIT):
        full = full.with_line(ply, [(others[0], seat)])
    forget_games(w)
    open_record(w, full.record)
    show_ply(page, ply)
    play_asking(page, on_board(page, others[1:]))
    page.locator(f'{DIALOG} [data-key="side-line-branch"]').click()
    page.locator("#message", has_text=f"at most {quetgames.record.LINE_LIMIT} side lines").wait_for()
    assert w.fragment() == full.record
    page.locator(".replay-banner", has_text=f"after move {ply} of").wait_for()  # still where it was
    # the line's own first move steps into the line that starts with it (the first one)
    press_target(page, others[0])
    if page.locator(CONFIRM).count():
        page.locator(f"{CONFIRM} button[value=yes]").click()
    page.locator(".replay-banner", has_text=f"Replaying a side line: instead of move {ply + 1}").wait_for()
    assert page.locator('[data-key="line-0-1"]').get_attribute("aria-current") == "step"
    assert w.fragment() == full.record


# -- the analysis as comments; the announcer -------------------------------------------------


def test_the_analysis_becomes_comments_in_one_click(w: Watched, page: Page) -> None:
    game = finished("enumeration", 3, size=4)
    report = quetgames.analyse(game, iterations=ITERATIONS)
    marked = [m for m in report.moves if m.grade in ("inaccuracy", "mistake", "blunder")]
    assert marked, "the test game needs a marked move"
    # a comment already at the first marked move: kept, the analysis's after it
    game = game.with_comment(marked[0].ply, "Mine, first.")
    forget_games(w)
    open_record(w, game.record)
    page.locator("button.analysis-start").click()
    page.locator(".analysis-chart").wait_for(timeout=60_000)
    button = page.locator('[data-key="analysis-comments"]')
    assert button.is_enabled()
    old = w.fragment()
    button.click()
    written = quetgames.load(wait_fragment_change(w, old))
    assert written.history == game.history
    signs = {"inaccuracy": "?! An inaccuracy", "mistake": "? A mistake", "blunder": "?? A blunder"}
    for m in marked:
        text = written.comment(m.ply)
        assert signs[m.grade] in text, (m.ply, text)
        assert (f"the best move found was {m.best_move}" in text) == (m.best_move != m.move)
        assert f"expected result {m.before:.2f} → {m.after:.2f}" in text
    assert written.comment(marked[0].ply).startswith("Mine, first.\n\n")
    # the analysis stays (the same moves); a second click would add nothing
    page.locator(".analysis-chart").wait_for()
    page.locator('[data-key="analysis-comments"][disabled]').wait_for()
    assert_clean(page, "the analysis written as comments")

    # the announcer reads the comment of the move shown, after the move's words
    m = marked[-1]
    page.locator(f'[data-key="ply-{m.ply}"]').click()
    said = page.locator("#announce")
    page.wait_for_function("t => document.getElementById('announce').textContent.endsWith(t)",
                           arg=f"Comment: {written.comment(m.ply)}")
    assert said.text_content().startswith(f"After move {m.ply} of {game.plies}: ")

    # the game has comments now: the Embed dialog offers a replay with them (autoplay)
    page.locator('[data-key="embed"]').click()
    page.locator('dialog.embed-builder input[value="story"]').check()
    code = page.locator("#embed-code").input_value()
    assert "mode=replay&amp;autoplay=1" in code and "Play this Enumeration game" in code
    page.locator("dialog.embed-builder button.close").click()


# -- the embed: play through -----------------------------------------------------------------


def test_the_embed_plays_through_and_pauses(browser: Browser, server: str) -> None:
    game = finished("enumeration", 3, size=4).with_comment(2, "Here it turns.")
    total = game.plies
    reader = watched_page(browser, server, viewport={"width": 640, "height": 760})
    try:
        page = reader.page
        # (play-ms: a test-only quicker pace)
        page.goto(f"{server}embed.html?mode=replay&autoplay=1&play-ms=150#{game.record}")
        assert "plays itself through" in page.locator(".poster-what").inner_text()
        page.locator("#embed-start").click()
        page.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        button = page.locator('[data-key="play-through"]')
        # by itself to the last move, then stopped
        page.locator(f'#embed-ply[data-ply="{total}"]', has_text=f"Move {total} of {total}").wait_for()
        page.locator('[data-key="play-through"][aria-pressed="false"]').wait_for()
        assert "Play through" in button.inner_text()
        # again: from the start; a step click pauses it
        button.click()
        page.locator('[data-key="play-through"][aria-pressed="true"]').wait_for()
        assert "Playing through" in button.inner_text()
        page.wait_for_function("() => Number(document.getElementById('embed-ply').dataset.ply) >= 1")
        page.locator('.embed-steps [data-key="back"]').click()
        page.locator('[data-key="play-through"][aria-pressed="false"]').wait_for()
        # paused: only the reader's own steps move it now (once a step that was
        # under way when the click came has landed: the frame is ready again)
        page.locator(READY).wait_for(state="attached")
        at = int(page.locator("#embed-ply").get_attribute("data-ply") or "0")
        for step in (1, 2):
            if at + step > total:
                break
            page.locator('.embed-steps [data-key="forward"]').click()
            page.locator(f'#embed-ply[data-ply="{at + step}"]').wait_for()
        assert page.locator('[data-key="play-through"]').get_attribute("aria-pressed") == "false"
        assert_clean(page, "the embed's Play through")
        assert stray_words(page) == [] and reader.errors == []
    finally:
        reader.context.close()
