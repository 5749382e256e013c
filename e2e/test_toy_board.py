"""A game with no board of its own is drawn by the generic board: the toy game
of tests/test_toy_game.py (registered here for the test only), its views made
by the engine on this side and drawn by web/boards/generic.js in the page."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import quetgames
from playwright.sync_api import Page
from quetgames import registry

from tests.test_toy_game import TakeAway

DRAW = """async (view) => {
  const { render } = await import("./boards/generic.js");
  const board = render(view, {});
  board.id = "toy-board";
  document.getElementById("toy-board")?.remove();
  document.body.append(board);
  return [...board.querySelectorAll("[data-move]")].map((b) => b.dataset.move);
}"""


@pytest.fixture
def toy() -> Iterator[None]:
    registry.register(TakeAway())
    try:
        yield
    finally:
        registry.unregister(TakeAway.id)


def test_the_generic_board_draws_a_game_it_has_never_seen(page: Page, toy: None) -> None:
    state = quetgames.new_game("take-away", stones=5)
    while True:
        view = json.loads(json.dumps(state.view()))
        drawn = page.evaluate(DRAW, view)
        assert drawn == state.legal_moves()
        if state.is_over:
            break
        state = state.play(state.legal_moves()[-1])
    assert page.locator("#toy-board").inner_text().startswith("The game is over.")
