"""Sealed moves are the engine's (sealing.py), not one game's: the view's
neutral ``sealing`` key through a sealed round, and a toy game of three seats
that seal in the same round, played through the same protocol."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import quetgames
from quetgames import IllegalMove
from quetgames.base import Game
from quetgames.options import IntOption
from quetgames.sealing import FORFEIT, Seal, SealedState, commitment, seal_move

SALT = "Salt0123456789abcdef"
SEALED_GAMES = [g for g in quetgames.GAMES if quetgames.new_game(g).view()["sealing"] is not None]


@pytest.mark.parametrize("game_id", [g for g in quetgames.GAMES if g not in SEALED_GAMES])
def test_a_game_without_sealed_moves_says_so(game_id):
    assert quetgames.new_game(game_id).view()["sealing"] is None


def _first_joint(game_id: str) -> quetgames.State:
    """A fresh game of a sealed-move game where every seat may seal."""
    for seed in range(50):
        state = quetgames.new_game(game_id, seed=seed) if any(o.name == "seed" for o in quetgames.GAMES[game_id].options) else quetgames.new_game(game_id)
        if len(state.view()["sealing"]["may_seal"]) == state.players:
            return state
    raise AssertionError("no start lets every seat seal")


@pytest.mark.parametrize("game_id", SEALED_GAMES)
def test_the_sealing_view_follows_a_sealed_round(game_id):
    state = _first_joint(game_id)
    assert isinstance(state, SealedState)
    start = state.view()["sealing"]
    assert start["sealed"] == [] and start["to_reveal"] == [] and start["open"] == []
    move = state.legal_moves(1)[0]
    sealed = state.seal(move, SALT, 1)
    for seat in (None, 0, 1):
        view = sealed.view(seat)["sealing"]
        assert view["sealed"] == [1] and view["to_reveal"] == [] and view["may_seal"] == []
        words = sealed._forfeit_words(1)
        assert view["open"] == [{"round": 1, "seat": 1, "commitment": commitment(SALT, move), "forfeit_words": words}]
        assert set(view["open"][0]) == {"round", "seat", "commitment", "forfeit_words"}  # the move itself is nobody's to see
        assert words == state._forfeit_words(1) and sealed.seat_name(1) in words  # (known before the seal: it cannot tell the move)
        assert view["noun"] == sealed.sealed_noun and view["given_up"] == []
    answered = sealed.play(sealed.legal_moves(0)[0], 0)
    view = answered.view()["sealing"]
    assert view["to_reveal"] == [1] and answered.legal_moves(1) == [view["forfeit"]] == [FORFEIT]
    done = answered.reveal(move, SALT, 1)
    assert done.view()["sealing"]["open"] == [] and done.seal_log()[-1]["revealed"]
    given_up = answered.play(FORFEIT, 1)
    assert given_up.seal_log()[-1]["forfeited"] and given_up.forfeits()[1] == 1
    # a seal given up stays listed, so the device that kept its secret can tell
    assert given_up.view()["sealing"]["given_up"] == [{"round": 1, "seat": 1, "commitment": commitment(SALT, move)}]


# -- a toy game of three seats, each may seal -----------------------------------


class ThreeHands(Game):
    id = "three-hands"
    code = "th"
    name = "Three Hands"
    summary = "Three players show 1, 2 or 3 fingers at once; a finger count nobody else shows scores it."
    rules = summary
    options = (IntOption("rounds", "r", 2, 1, 5, "rounds"),)


class ThreeHandsState(SealedState):
    __slots__ = ("shown", "points", "played")
    sealed_move = r"[123]"
    sealed_noun = "hand"
    sealed_example = "2"

    @classmethod
    def initial(cls, game: Game, options: dict[str, Any]) -> ThreeHandsState:
        state = cls._blank(game, options)
        state.seats = state.seats + state.seats[:1]  # three seats
        state.shown, state.points, state.played, state.seals = (None, None, None), (0, 0, 0), 0, ()
        return state

    @property
    def players(self) -> int:
        return 3

    def _to_move(self) -> tuple[int, ...]:
        if self.played >= self.options["rounds"]:
            return ()
        unchosen = tuple(s for s in range(3) if self.shown[s] is None and self.open_seal_of(s) is None)
        return unchosen or tuple(x.seat for x in self.open_seals())  # then the sealers reveal

    def _plain_legal(self, seat: int) -> list[str]:
        return ["1", "2", "3"]

    def _check_sealed(self, move: str, seat: int) -> None:
        if move not in ("1", "2", "3"):
            raise IllegalMove(f"{move!r} is not a hand: 1, 2 or 3")

    def _round(self) -> int:
        return self.played + 1

    def _check_may_seal(self, seat: int) -> None:
        if self.shown[seat] is not None or self.open_seal_of(seat) is not None:
            raise IllegalMove("that seat has already chosen")

    def _apply_plain(self, move: str, seat: int) -> ThreeHandsState:
        self._check_sealed(move, seat)
        new = self._copy()
        shown = list(self.shown)
        shown[seat] = int(move)
        new.shown = tuple(shown)
        new._settle()
        return new

    def _resolve_seal(self, seal: Seal, move: str | None) -> None:
        shown = list(self.shown)
        shown[seal.seat] = 0 if move is None else int(move)  # a forfeited hand shows nothing
        self.shown = tuple(shown)
        self._settle()

    def _settle(self) -> None:
        if any(x is None for x in self.shown) or self.open_seals():
            return
        points = list(self.points)
        for s, x in enumerate(self.shown):
            points[s] += bool(x) and list(self.shown).count(x) == 1
        self.history += tuple(str(x) for x in self.shown)
        self.points, self.shown, self.played = tuple(points), (None, None, None), self.played + 1

    def _scores(self) -> tuple[int, ...]:
        return self.points

    def _board(self, seat: int | None) -> dict[str, Any]:
        return {"points": list(self.points)}

    def _encode_moves(self) -> str:
        return "_".join(self.history + tuple(x.token() for x in self.seals if x.open))

    @classmethod
    def _decode_moves(cls, text: str, options: dict[str, Any]) -> Iterator[tuple[str, int | None]]:  # pragma: no cover
        raise NotImplementedError


ThreeHands.state_class = ThreeHandsState


def test_three_seats_seal_in_one_round():
    state = ThreeHands().new()
    assert state.view()["sealing"]["may_seal"] == [0, 1, 2]
    # Seats 0 and 2 seal, seat 1 shows in the open: the round waits for both reveals.
    state = state.seal("2", SALT, 0).seal("3", SALT, 2)
    assert state.view()["sealing"]["sealed"] == [0, 2] and state.to_move == (1,)
    with pytest.raises(IllegalMove, match="round 1: Player 1 has sealed a hand; Player 2 chooses next"):
        state.play("1", 0)
    state = state.play("2", 1)
    assert state.view()["sealing"]["to_reveal"] == [0, 2] and state.legal_moves(0) == [FORFEIT]
    with pytest.raises(IllegalMove, match="does not match the seal"):
        state.reveal("3", SALT, 0)
    state = state.reveal("2", SALT, 0)
    assert state.history == () and state.view()["sealing"]["to_reveal"] == [2]
    state = state.play(FORFEIT, 2)  # seat 2 gives its hand up: it shows nothing
    assert state.history == ("2", "2", "0") and state.scores == (0, 0, 0)
    assert [s["forfeited"] for s in state.seal_log()] == [False, True] and state.forfeits() == [0, 0, 1]
    assert state.seals[0].move == "2" and state.seals[0].token() == f"{seal_move('2', SALT)}~2~{SALT}"
    # Round 2 in the open: a unique count scores.
    for seat, hand in enumerate("123"):
        state = state.play(hand, seat)
    assert state.is_over and state.scores == (1, 1, 1)
