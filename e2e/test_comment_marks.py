"""Stepping back shows the past, and a comment earlier in the game is found
from the latest move (issue 56, point 8).

- Every game, finished, on the page and in the embed: stepping back shows
  the position as it stood, with nothing to play: no move target, no number
  box (Nonconformity's #nc-pick), no typed-move box, no Hint. Nonconformity's
  past round shows its table, its number line and the round's line. On the
  page, "Play a move here" (the replay banner's) is what turns a past
  position's board into one that plays a side line (e2e/test_side_lines.py).
- A game with a comment on move 2 of 6, opened at its latest move: a mark
  under the board says so, and one tap on it shows that comment, the replay
  at move 2; on the page and in the embed (where the moves list is folded).
  Two comments, the first before the first move: the mark counts both and
  goes to the start. No comment, or only one at the latest move: no mark.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import quetgames
from playwright.sync_api import Browser, Frame, Page

from .axe import stray_words
from .harness import (ARTIFACTS, LOAD_TIMEOUT_MS, READY, Watched, embed_in_host, finished, forget_games, open_record,
                      played, ready_page)

PHONE = {"width": 390, "height": 844}
MARK = '[data-key="earlier-comments"]'
SAID = "Here the game turns."
# what a board offers to play: targets, the pick's box and buttons, the typed-move box, the Hint
PLAYABLE = "#board [data-move], #board [data-pick], #board #nc-pick, #board .nc-pick-form, #move-input, [data-key=hint]"


@pytest.fixture(scope="module")
def w(browser: Browser, server: str) -> Iterator[Watched]:
    yield from ready_page(browser, server)


def nothing_to_play(where: Page | Frame, game_id: str, what: str) -> None:
    """The board of the position shown is a picture: nothing on it plays."""
    found = where.locator(PLAYABLE).evaluate_all("els => els.map((e) => e.outerHTML.slice(0, 80))")
    assert found == [], f"{what}: {found}"
    assert where.locator("#board").evaluate("b => b.inert"), what
    if game_id == "nonconformity":
        # the table, the number line and the round's line: what the round was, and nothing to choose
        for part in (".nc-seqs-table", ".nc-line", ".nc-round"):
            assert where.locator(f"#board {part}").is_visible(), f"{what}: {part}"


def with_comments(game_id: str, comments: dict[int, str]) -> quetgames.State:
    """Six moves of a seeded game (fewer if it ends), with `comments` by ply."""
    state = played(game_id, 6, seed=3)
    for ply, text in comments.items():
        state = state.with_comment(ply, text)
    return state


# -- stepping back offers nothing to play ---------------------------------------------------


@pytest.mark.parametrize("game_id", list(quetgames.GAMES))
def test_stepping_back_through_a_finished_game_offers_nothing_to_play(w: Watched, game_id: str) -> None:
    page = w.page
    w.errors.clear()
    page.set_viewport_size(PHONE)
    forget_games(w)
    state = finished(game_id, 7)
    plies = len(state.history)
    open_record(w, state.record)
    page.locator("#summary").wait_for()
    banner = page.locator(".replay-banner")
    for ply in sorted({plies - 1, plies // 2, 1}):
        page.locator(f'.move-list [data-key="ply-{ply}"]').click()
        banner.filter(has_text=f"after move {ply} of {plies}").wait_for()
        page.wait_for_function("p => document.querySelector('section.game')?.dataset.ply === p", arg=str(ply))
        nothing_to_play(page, game_id, f"{game_id}, the page after move {ply} of {plies}")
    if game_id == "nonconformity":
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marks-nc-stepped-back-390.png"), full_page=True)
    # the step buttons too, back from the end
    page.locator('.replay-nav [data-key="last"]').click()
    banner.wait_for(state="detached")
    page.locator('.replay-nav [data-key="back"]').click()
    banner.filter(has_text=f"after move {plies - 1} of {plies}").wait_for()
    nothing_to_play(page, game_id, f"{game_id}, the page one step back from the end")
    # a side line is one deliberate tap away: then the board plays for the seat to move there
    offer = banner.locator('[data-key="side-play"]')
    assert offer.is_visible()
    offer.click()
    page.locator("#board.side-play").wait_for()
    assert page.locator("#board [data-move], #board [data-pick], #board #nc-pick").count() > 0
    assert not page.locator("#board").evaluate("b => b.inert")
    # ... and back at the game as it stands, the next step back is a picture again
    page.locator('[data-key="exit-replay"]').click()
    banner.wait_for(state="detached")
    page.locator('.replay-nav [data-key="back"]').click()
    banner.filter(has_text=f"after move {plies - 1} of {plies}").wait_for()
    nothing_to_play(page, game_id, f"{game_id}, stepped back again after a side line was offered")
    assert w.errors == []


@pytest.mark.parametrize("mode", ["play", "replay"])
@pytest.mark.parametrize("game_id", list(quetgames.GAMES))
def test_the_embed_steps_back_with_nothing_to_play(browser: Browser, server: str, host: tuple[str, Path],
                                                    game_id: str, mode: str) -> None:
    state = finished(game_id, 7)
    plies = len(state.history)
    page, frame = embed_in_host(browser, host, f"{server}embed.html?mode={mode}#{state.record}", width=480, height=700)
    try:
        for _ in range(2):
            frame.locator('.embed-steps [data-key="back"]').click()
        frame.locator("#embed-ply", has_text=f"Move {plies - 2} of {plies}").wait_for()
        frame.wait_for_function("p => document.querySelector('#board') && document.querySelector('.embed-game') "
                                "&& document.querySelector('#embed-ply')?.dataset.ply === p", arg=str(plies - 2))
        nothing_to_play(frame, game_id, f"{game_id}, the {mode} embed after move {plies - 2} of {plies}")
        if game_id == "nonconformity" and mode == "play":
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "marks-nc-embed-stepped-back-480.png"), full_page=True)
        assert page.errors == []
    finally:
        page.context.close()


# -- a mark at the latest move for the comments earlier in the game ---------------------------


@pytest.mark.parametrize("game_id", ["nonconformity", "prime-target", "convoluted-coprimality"])
def test_a_comment_on_move_2_is_one_tap_away_from_the_latest_move(w: Watched, game_id: str) -> None:
    page = w.page
    w.errors.clear()
    page.set_viewport_size(PHONE)
    forget_games(w)
    state = with_comments(game_id, {2: SAID})
    plies = len(state.history)
    assert plies >= 4, plies
    open_record(w, state.record)
    mark = page.locator(f"#board ~ .comment-region {MARK}")
    mark.wait_for()
    assert mark.inner_text() == "A comment on an earlier move: show it (after move 2)"
    assert page.locator("#move-comment").count() == 0  # (the latest move has none)
    box = mark.bounding_box()
    assert box and box["height"] >= 24 and box["width"] >= 24
    if game_id == "nonconformity":
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "marks-comment-mark-390.png"), full_page=True)
    mark.click()
    page.locator(".replay-banner", has_text=f"after move 2 of {plies}").wait_for()
    page.locator("#move-comment", has_text=SAID).wait_for()
    assert page.locator("section.game").get_attribute("data-ply") == "2"
    assert page.locator('.move-list [data-key="ply-2"]').get_attribute("aria-current") == "step"
    assert page.locator(MARK).count() == 0  # (not while stepping through)
    # the focus goes to the comment shown
    page.wait_for_function("() => document.activeElement?.id === 'move-comment'")
    if game_id == "nonconformity":
        page.screenshot(path=str(ARTIFACTS / "marks-comment-shown-390.png"), full_page=True)
    # back at the latest move, the mark again
    page.locator('[data-key="exit-replay"]').click()
    mark.wait_for()
    assert stray_words(page) == [] and w.errors == []


def test_two_earlier_comments_the_first_before_the_first_move(w: Watched) -> None:
    page = w.page
    w.errors.clear()
    forget_games(w)
    state = with_comments("enumeration", {0: "Before anything.", 4: "Move four.", 6: "The latest."})
    plies = len(state.history)
    assert plies == 6
    open_record(w, state.record)
    page.locator("#move-comment", has_text="The latest.").wait_for()
    mark = page.locator(MARK)
    assert mark.inner_text() == "2 comments on earlier moves: show the first (before the first move)"
    mark.click()
    page.locator(".replay-banner", has_text="the start of the game").wait_for()
    page.locator("#move-comment", has_text="Before anything.").wait_for()
    assert w.errors == []


@pytest.mark.parametrize("comments", [{}, {6: "Only at the latest move."}], ids=["none", "latest-only"])
def test_no_earlier_comment_no_mark(w: Watched, server: str, comments: dict[int, str]) -> None:
    page = w.page
    w.errors.clear()
    forget_games(w)
    state = with_comments("multiplications", comments)
    assert len(state.history) == 6
    open_record(w, state.record)
    page.locator(".move-list").wait_for()
    if comments:
        page.locator("#move-comment", has_text="Only at the latest move.").wait_for()
    assert page.locator(MARK).count() == 0
    # nor in the embed's replay
    frame_page = page.context.new_page()
    try:
        frame_page.goto(f"{server}embed.html?mode=replay#{state.record}")
        frame_page.locator("#embed-start").click()
        frame_page.locator(READY).wait_for(state="attached", timeout=LOAD_TIMEOUT_MS)
        frame_page.locator("#embed-ply", has_text="Move 6 of 6").wait_for()
        assert frame_page.locator(MARK).count() == 0
    finally:
        frame_page.close()
    assert w.errors == []


@pytest.mark.parametrize("mode", ["replay", "play"])
def test_the_embed_mark_steps_to_the_comment(browser: Browser, server: str, host: tuple[str, Path], mode: str) -> None:
    state = with_comments("nonconformity", {2: SAID})
    plies = len(state.history)
    page, frame = embed_in_host(browser, host, f"{server}embed.html?mode={mode}#{state.record}", width=480, height=700,
                                has_touch=True)
    try:
        frame.locator("#embed-ply", has_text=f"Move {plies} of {plies}").wait_for()
        mark = frame.locator(MARK)
        mark.wait_for()
        assert mark.inner_text() == "A comment on an earlier move: show it (after move 2)"
        if mode == "replay":
            # the moves list, with the comment in it, is folded
            assert frame.locator(".embed-moves").get_attribute("open") is None
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "marks-embed-mark-480.png"), full_page=True)
        mark.tap()
        frame.locator("#embed-ply", has_text=f"Move 2 of {plies}").wait_for()
        frame.locator("#move-comment", has_text=SAID).wait_for()
        assert frame.locator(MARK).count() == 0
        frame.wait_for_function("() => document.activeElement?.id === 'move-comment'")
        nothing_to_play(frame, "nonconformity", f"the {mode} embed at the comment")
        if mode == "replay":
            page.screenshot(path=str(ARTIFACTS / "marks-embed-comment-480.png"), full_page=True)
        # Last: back at the latest move, the mark again
        frame.locator('.embed-steps [data-key="last"]').click()
        mark.wait_for()
        assert page.errors == []
    finally:
        page.context.close()
