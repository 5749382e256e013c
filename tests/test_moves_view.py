"""view()["moves"], ["end_reason"] and ["standing"]: who played each move,
what sort of move it was, and why a game ended, in the engine's words (issue 16).
"""

from __future__ import annotations

import random

import pytest

import quetgames


def played(game_id: str, seed: int, **options: object) -> list[tuple[int, quetgames.State]]:
    """A random game, as (seat that moved, state after) pairs."""
    rng = random.Random(seed)
    state = quetgames.new_game(game_id, **options)
    out = []
    while not state.is_over:
        seat = state.to_move[0] if len(state.to_move) == 1 else rng.choice(state.to_move)
        state = state.play(rng.choice(state.legal_moves(seat)), seat)
        out.append((seat, state))
    return out


@pytest.mark.parametrize("game_id", list(quetgames.GAMES))
def test_every_move_names_its_mover_and_survives_a_reload(game_id: str) -> None:
    for seed in range(3):
        steps = played(game_id, seed)
        final = steps[-1][1]
        moves = final.view()["moves"]
        assert [m["move"] for m in moves] == list(final.history)
        if game_id != "nonconformity":  # one play, one history entry, by the seat that played it
            assert [m["seat"] for m in moves] == [seat for seat, _ in steps]
        assert all(m["words"] and m["kind"] for m in moves)
        assert quetgames.load(final.record).view()["moves"] == moves
        # the reason shows only once the game is over
        assert all(s.view()["end_reason"] is None for _, s in steps[:-1])
        assert final.view()["end_reason"]


def test_nonconformity_credits_each_pick_of_a_round_to_its_own_seat() -> None:
    state = quetgames.new_game("nonconformity", starts=[29, 14], length=4)
    state = state.play(state.legal_moves(1)[0], 1)  # Player 2 chooses first, in secret
    assert state.view()["moves"] == []
    pick = state.legal_moves(0)[-1]
    state = state.play(pick, 0)
    moves = state.view()["moves"]
    assert [m["seat"] for m in moves] == [0, 1]
    assert moves[0]["words"] == f"{pick} in round 1"


def test_multiplications_tells_marks_from_numbers() -> None:
    # 7 x 7: seven x's, then the 1 is free and the numbers 2.. are moves
    state = quetgames.new_game("multiplications")
    for move in ["a4", "d2", "b1", "c3", "e5", "f6", "g7", "d2"]:
        state = state.play(move)
    moves = state.view()["moves"]
    assert [m["kind"] for m in moves] == ["mark"] * 7 + ["number"]
    assert moves[1]["words"] == "x at d2" and moves[7]["words"] == "2 on d2"
    assert [m["seat"] for m in moves] == [0, 1, 0, 1, 0, 1, 0, 0]
    board = state.view()["board"]
    assert board["marked_by"]["d2"] == 1 and board["numbered_by"] == {"d2": 0}  # a4's 1 is nobody's


def test_convoluted_coprimality_says_who_wrote_each_number_and_why_it_ended() -> None:
    # The rules' 4 x 4 example: 2 b1 (P1), 3 c1 (P2), 4 d1 and 5 d2 (P1), then 6 at c2 beside 3 knocks P2 out.
    state = quetgames.new_game("convoluted-coprimality", size=4)
    for move in ["b1", "c1", "d1", "d2"]:
        state = state.play(move)
    assert state.view()["board"]["writers"][0] == [None, 0, 1, 0]
    assert state.view()["standing"] == ["still in", "still in"]
    state = state.play("c2")
    view = state.view()
    assert view["is_over"] and view["winners"] == [0]
    assert view["moves"][-1] == {"seat": 1, "move": "c2", "kind": "write", "words": "6 at c2 (out)"}
    assert view["end_reason"] == "Player 2 was knocked out in grid 1: 6 went beside 3 (common factor 3)"
    assert view["standing"] == ["still in", "knocked out"]
    assert view["board"]["writers"][1] == [None, None, 1, 0]
