"""Answers worked out before the click (web/bridge/ahead.js): while a person looks at
the board, the engine answers each move target the board shows, and a click then
draws that answer without asking the worker again.

The page's requests are read where they leave it (Worker.postMessage), and the
positions expected come from the Python engine.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import quetgames
from playwright.sync_api import Browser

from .harness import READY, Watched, board_moves, click_move, open_record, ready_page

# Every "play" request the page sends its workers, as [move, record].
PLAYS_SENT = """
(() => {
  const post = Worker.prototype.postMessage;
  window.__plays = [];
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message?.call === "play") window.__plays.push([message.args.move, message.args.record]);
    return post.call(this, message, ...rest);
  };
})();
"""

# the most targets a board may have for its answers to be worked out ahead
MOST_MOVES = int(re.search(r"export const MOST_MOVES = (\d+);",
                           (Path(__file__).resolve().parent.parent / "web" / "bridge" / "ahead.js").read_text())[1])


@pytest.fixture(scope="module")
def w(browser: Browser, server: str) -> Iterator[Watched]:
    yield from ready_page(browser, server, "index.html", init_script=PLAYS_SENT)


def asked_at(w: Watched, record: str, at_least: int) -> list[str]:
    """The moves asked from `record`, once there are `at_least` of them."""
    w.page.wait_for_function(
        "([r, n]) => window.__plays.filter(([, at]) => at === r).length >= n", arg=[record, at_least])
    return [move for move, at in w.page.evaluate("window.__plays") if at == record]


@pytest.mark.parametrize("game_id", ["convoluted-coprimality", "enumeration", "multiplications", "prime-target"])
def test_each_target_is_answered_before_the_click_and_the_click_asks_nothing(w: Watched, game_id: str) -> None:
    state = quetgames.new_game(game_id)
    rng = random.Random(game_id)
    # a position in play, not the start, with a choice to make
    state = state.play(rng.choice(state.legal_moves()))
    while len(state.legal_moves()) < 2:
        state = state.play(state.legal_moves()[0])
    open_record(w, state.record)
    targets = board_moves(w.page)
    assert 1 < len(targets) <= MOST_MOVES and set(targets) <= set(state.legal_moves())

    # every target on the board is asked once, before any click, and nothing
    # else (Prime Target shows the wedges of one number at a time: 7 of its 49
    # moves here)
    ahead = asked_at(w, state.record, len(targets))
    assert sorted(ahead) == sorted(targets)

    move = rng.choice(targets)
    after = state.play(move)
    assert click_move(w, move, name=f"ahead-{game_id}") == after.record
    # the click asked nothing: still one request for that position and move
    assert asked_at(w, state.record, len(targets)) == ahead
    # and the new board is worked out in turn
    targets = board_moves(w.page)
    assert sorted(asked_at(w, after.record, len(targets))) == sorted(targets)


def test_a_position_with_a_computer_to_answer_is_not_worked_out(w: Watched) -> None:
    """Where a computer plays next, the page's click is not the next request:
    nothing is asked ahead."""
    state = quetgames.new_game("multiplications").with_seats(["", ""], ["human", "random"])
    open_record(w, state.record)
    move = state.legal_moves()[0]
    click_move(w, move)
    w.page.locator(READY).wait_for(state="attached")
    assert [m for m, at in w.page.evaluate("window.__plays") if at == state.record] == [move]
