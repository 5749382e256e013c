"""Multiplications Within the Permutation: the rules, one test each."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import quetgames
from quetgames import IllegalMove, InvalidOptions


def play_all(state, moves):
    for move in moves:
        state = state.play(move)
    return state


# A 7×7 game (2 players, k=3). Part one marks x's on the anti-diagonal
# plus a swap, so the x in column a is at a5:
#
#     a b c d e f g
#  1  . . . . . . x
#  2  . . . x . . .
#  3  . . . . x . .
#  4  . x . . . . .
#  5  x . . . . . .
#  6  . . x . . . .
#  7  . . . . . x .
MARKS = ["g1", "d2", "e3", "b4", "a5", "c6", "f7"]


def marked():
    return play_all(quetgames.new_game("multiplications"), MARKS)


def test_size_is_k_times_players_plus_one():
    assert marked().view()["board"]["size"] == 7
    assert quetgames.new_game("multiplications", players=3, k=4).view()["board"]["size"] == 13


def test_seats_rotate_from_player_one_while_marking():
    state = quetgames.new_game("multiplications", players=3)
    seen = []
    for move in ["a1", "b2", "c3", "d4"]:
        seen.append(state.to_move)
        state = state.play(move)
    assert seen == [(0,), (1,), (2,), (0,)]


def test_an_x_may_not_share_a_row_or_column():
    state = quetgames.new_game("multiplications").play("c4")
    with pytest.raises(IllegalMove, match="row 4 already has an x"):
        state.play("f4")
    with pytest.raises(IllegalMove, match="column c already has an x"):
        state.play("c7")
    with pytest.raises(IllegalMove, match="already has an x"):
        state.play("c4")
    # Legal squares are exactly those in a free row and a free column: 6 × 6.
    assert len(state.legal_moves()) == 36
    assert "c7" not in state.legal_moves() and "d5" in state.legal_moves()


def test_the_x_in_column_a_is_numbered_one_automatically():
    state = marked()
    assert state.view()["board"]["numbers"] == {"a5": 1}
    assert state.history == tuple(MARKS)  # the automatic 1 is not a move
    assert state.to_move == (0,)  # numbering starts again with Player 1
    assert state.legal_moves() == ["g1", "d2", "e3", "b4", "c6", "f7"]  # reading order


def test_numbering_scores_rows_apart_times_columns_apart():
    state = marked()
    # 2 at d2: from a5 that is 3 rows and 3 columns away -> 9 for Player 1.
    assert state.view()["board"]["gains"]["d2"] == 9
    state = state.play("d2")
    assert state.scores == (9, 0)
    # 3 at c6: from d2, 4 rows and 1 column -> 4 for Player 2.
    state = state.play("c6")
    assert state.scores == (9, 4)


def test_each_gain_comes_with_the_area_it_scores():
    # The view says which rectangle each gain is the area of, for the board's
    # preview: from the last number (a5) to the x, rows × columns.
    board = marked().view()["board"]
    assert board["areas"]["d2"] == {"from": "a5", "rows": 3, "columns": 3}
    assert board["areas"]["g1"] == {"from": "a5", "rows": 4, "columns": 6}
    assert board["areas"]["b4"] == {"from": "a5", "rows": 1, "columns": 1}
    assert set(board["areas"]) == set(board["gains"])
    for sq, area in board["areas"].items():
        assert area["rows"] * area["columns"] == board["gains"][sq]
    after = marked().play("d2").view()["board"]
    assert after["areas"]["c6"] == {"from": "d2", "rows": 4, "columns": 1}
    # and none while marking
    assert quetgames.new_game("multiplications").view()["board"]["areas"] == {}


def test_only_unnumbered_xs_take_numbers():
    state = marked().play("d2")
    with pytest.raises(IllegalMove, match="has no x"):
        state.play("a1")
    with pytest.raises(IllegalMove, match="already holds 2"):
        state.play("d2")
    with pytest.raises(IllegalMove, match="already holds 1"):
        state.play("a5")


def test_game_ends_when_every_x_is_numbered_and_highest_total_wins():
    state = play_all(marked(), ["d2", "c6", "g1", "b4", "e3", "f7"])
    # 1 a5 -> 2 d2: 3*3=9 (P1); -> 3 c6: 4*1=4 (P2); -> 4 g1: 5*4=20 (P1);
    # -> 5 b4: 3*5=15 (P2); -> 6 e3: 1*3=3 (P1); -> 7 f7: 4*1=4 (P2).
    assert state.is_over and state.to_move == ()
    assert state.scores == (32, 23)
    assert state.winners == (0,)
    assert state.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        state.play("a1")
    assert "Player 1 wins" in state.view()["status"]


def test_size_is_limited_to_26():
    with pytest.raises(InvalidOptions, match="k may be at most 8"):
        quetgames.new_game("multiplications", players=3, k=9)
    assert quetgames.new_game("multiplications", players=5, k=5).view()["board"]["size"] == 26


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), k=st.integers(3, 4), data=st.data())
def test_random_games_score_as_a_recount(players, k, data):
    state = quetgames.new_game("multiplications", players=players, k=k)
    while not state.is_over:
        state = state.play(data.draw(st.sampled_from(state.legal_moves())))
    # Recount from the board alone: walk the numbers 1..n in order.
    where = {number: square for square, number in state.view()["board"]["numbers"].items()}
    coords = {n: ("abcdefghijklmnopqrstuvwxyz".index(sq[0]), int(sq[1:])) for n, sq in where.items()}
    expected = [0] * players
    for j in range(2, len(coords) + 1):
        (c0, r0), (c1, r1) = coords[j - 1], coords[j]
        expected[(j - 2) % players] += abs(c0 - c1) * abs(r0 - r1)
    assert list(state.scores) == expected
    assert state.winners == tuple(i for i, s in enumerate(expected) if s == max(expected))
    assert quetgames.load(state.record) == state
