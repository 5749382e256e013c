"""A game is added in one place: a toy game defined here and registered is
listed by the bridge, read back from its record, played to the end by every
computer level (the generic player) and shown by the command line; then it
is taken off the list again. docs/ADDING_A_GAME.md describes the same steps."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

import quetgames
from quetgames import IllegalMove, InvalidRecord, bridge, registry
from quetgames.__main__ import main
from quetgames.base import Game, State
from quetgames.options import IntOption
from quetgames.players import LEVELS, computer_move

_TAKE = re.compile(r"[1-3]")


class TakeAway(Game):
    id = "take-away"
    code = "tk"
    name = "Take-away"
    inventor = "folklore"
    summary = "Take one to three stones from the pile in turn; whoever takes the last stone wins."
    rules = "Two players take 1, 2 or 3 stones in turn from one pile. Whoever takes the last stone wins."
    options = (IntOption("stones", "s", 7, "stones in the pile at the start", lo=1, hi=30),)


class TakeAwayState(State):
    __slots__ = ("left",)

    left: int

    @classmethod
    def initial(cls, game: Game, options: dict[str, Any]) -> TakeAwayState:
        state = cls._blank(game, options)
        state.left = options["stones"]
        return state

    def _to_move(self) -> tuple[int, ...]:
        return (len(self.history) % 2,) if self.left else ()

    def _legal(self, seat: int) -> list[str]:
        return [str(k) for k in range(1, min(3, self.left) + 1)]

    def _apply(self, move: str, seat: int) -> TakeAwayState:
        if not _TAKE.fullmatch(move):
            raise IllegalMove(f"{move[:20]!r} is not a move: take 1, 2 or 3 stones")
        if int(move) > self.left:
            raise IllegalMove(f"only {self.left} stones are left")
        new = self._copy()
        new.left = self.left - int(move)
        new.history = self.history + (move,)
        return new

    def _scores(self) -> tuple[int, ...]:
        if self.left:
            return (0, 0)
        last = (len(self.history) - 1) % 2
        return (1, 0) if last == 0 else (0, 1)

    def _board(self, seat: int | None) -> dict[str, Any]:
        return {"left": self.left}

    def text_board(self) -> str:
        return f"Stones left: {'o' * self.left or 'none'}"

    def _encode_moves(self) -> str:
        return "".join(self.history)

    @classmethod
    def _decode_moves(cls, text: str, options: dict[str, Any]) -> Iterator[tuple[str, int | None]]:
        if not text.isdigit() and text:
            raise InvalidRecord("the moves of this record should be digits")
        return ((ch, None) for ch in text)


TakeAway.state_class = TakeAwayState


@pytest.fixture
def toy() -> Iterator[Game]:
    game = registry.register(TakeAway())
    try:
        yield game
    finally:
        registry.unregister(game.id)
    assert "take-away" not in quetgames.GAMES and "tk" not in registry.BY_CODE


def test_a_registered_game_is_listed_loaded_played_and_shown(toy: Game) -> None:
    # Listed by the bridge (and so by build.json's catalog), after the built-in games.
    games = json.loads(bridge.call("games"))["result"]
    assert [g["id"] for g in games][-1] == "take-away"
    assert games[-1]["computer_levels"] == list(LEVELS)
    # Started and played through the bridge, read back from its record.
    answer = json.loads(bridge.call("new", json.dumps({"game": "take-away", "options": {"stones": 5}})))["result"]
    assert answer["view"]["board"] == {"left": 5} and answer["view"]["choosing"] is None
    after = json.loads(bridge.call("play", json.dumps({"record": answer["record"], "move": "2"})))["result"]
    assert quetgames.load(after["record"]).history == ("2",)
    # Played to the end by every computer level against every level (the generic player).
    for first in LEVELS:
        for second in LEVELS:
            state = quetgames.new_game("take-away", stones=10)
            while not state.is_over:
                level = first if state.to_move[0] == 0 else second
                state = state.play(computer_move(state, level=level, seed=1, iterations=30))
            assert state.winners in ((0,), (1,))
    # From 10 stones the first player wins by leaving a multiple of 4: strong finds it.
    assert computer_move(quetgames.new_game("take-away", stones=10), level="strong", iterations=300) == "2"
    # Shown by the command line, with the game's own text board.
    out = io.StringIO()
    assert main(["show", after["record"]], stdout=out) == 0
    text = out.getvalue()
    assert "Take-away (a game by folklore)" in text and "Stones left: ooo" in text and "Moves: 2" in text


def test_a_game_id_or_code_is_taken_once(toy: Game) -> None:
    with pytest.raises(quetgames.InvalidOptions, match="already registered"):
        registry.register(TakeAway())
