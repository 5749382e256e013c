"""Every move in words: `describe_move`, the view's `last_move` and its
`announcement` (the last move, then the status), which the page reads out
through its live region after every move.

The words come from the engine, so each game says what its moves do in its
own terms; and they are said aloud to everyone at the screen, so a pick still
secret (Nonconformity) is never named before its round is revealed.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quetgames
from quetgames import IllegalMove, bridge

SALT = "Salt0123456789abcdef"


def played(state: quetgames.State, *moves: str | tuple[str, int]) -> quetgames.State:
    for move in moves:
        state = state.play(*move) if isinstance(move, tuple) else state.play(move)
    return state


# -- every game ---------------------------------------------------------------------------

SMALL = {
    "convoluted-coprimality": {"size": 4, "max_rounds": 2},
    "enumeration": {"size": 4},
    "multiplications": {"k": 3},
    "nonconformity": {"length": 4, "max_pick": 100, "seed": 3},
    "prime-target": {"k": 2, "rays": 4},
}


@pytest.mark.parametrize("game_id", sorted(quetgames.GAMES))
def test_a_new_game_has_no_last_move_and_announces_its_status(game_id):
    view = quetgames.new_game(game_id, **SMALL[game_id]).view()
    assert view["last_move"] is None
    assert view["announcement"] == view["status"] + "."


@pytest.mark.parametrize("game_id", sorted(quetgames.GAMES))
@given(seed=st.integers(0, 10_000))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_move_of_a_game_is_put_in_words_then_whose_turn(game_id, seed):
    rng = random.Random(seed)
    state = quetgames.new_game(game_id, **SMALL[game_id])
    while not state.is_over:
        seat = rng.choice(state.to_move)
        move = rng.choice(state.legal_moves(seat))
        words = state.describe_move(move, seat)
        after = state.play(move, seat)
        view = after.view()
        assert words and words == view["last_move"] == after.last_move_text
        assert after.seat_name(seat) in words
        assert view["announcement"] == f"{words}. {view['status']}."
        # a reloaded game (its record replayed) says the same
        assert quetgames.load(after.record).view()["last_move"] == words or after.record != view["record"]
        state = after
    assert state.view()["announcement"].split(". ")[-1].startswith("Game over")


def test_describe_move_refuses_what_play_refuses_and_changes_nothing():
    state = quetgames.new_game("multiplications", k=3)
    with pytest.raises(IllegalMove):
        state.describe_move("z9")
    assert state.describe_move("c2") == "Player 1 marked an x at c2"
    assert state.history == ()


def test_the_bridge_answers_a_move_with_its_announcement():
    new = json.loads(bridge.call("new", json.dumps({"game": "multiplications", "options": {"k": 3}})))["result"]
    answer = json.loads(bridge.call("play", json.dumps({"record": new["record"], "move": "c2"})))["result"]
    assert answer["view"]["announcement"] == "Player 1 marked an x at c2. Player 2 to mark an x (1 of 7 placed)."
    opened = json.loads(bridge.call("open", json.dumps({"record": answer["record"]})))["result"]
    assert opened["view"]["last_move"] == "Player 1 marked an x at c2"


def test_names_given_to_seats_are_the_names_said():
    state = quetgames.new_game("multiplications", k=3).with_seats(["Ada", "Bo"])
    assert state.play("c2").view()["announcement"] == "Ada marked an x at c2. Bo to mark an x (1 of 7 placed)."


# -- each game's words ------------------------------------------------------------------------


def test_convoluted_coprimality_says_the_number_the_square_and_a_knock_out():
    # 1  2  3  .     the 1 sits in a1; Player 1 writes 2 in b1, Player 2 the 3 in c1
    state = played(quetgames.new_game("convoluted-coprimality", size=4), "b1", "c1")
    assert state.view()["announcement"] == "Player 2 wrote 3 at c1. Player 1 to write 4 (block 4 to 5) next to 3 at c1."
    # 1  2  3  4     Player 1 writes its block, 4 and 5; Player 2's 6 at c2
    # .  .  6? 5     would touch 3 (sharing the factor 3) and 5 (sharing none)
    state = played(state, "d1", "d2")
    words = state.describe_move("c2")
    assert words == "Player 2 wrote 6 at c2, next to 3, which shares a factor with it: Player 2 is out"


def test_convoluted_coprimality_says_when_a_grid_is_wiped():
    # random games on a small grid until one wipes its first grid
    rng = random.Random(1)
    after = None
    while after is None or after.view()["board"]["round"] == 1:
        state = quetgames.new_game("convoluted-coprimality", players=3, size=4, max_rounds=2)
        while not state.is_over:
            after = state.play(rng.choice(state.legal_moves()))
            if after.view()["board"]["round"] == 2:
                break
            state = after
    assert after.last_move_text.endswith("has nowhere to go, so the grid is wiped and grid 2 starts again from 1 at a1")


def test_enumeration_says_the_value_and_which_count_it_is():
    state = quetgames.new_game("enumeration", size=4)
    # b2's two counts agree, so its one value needs no word on which count it is
    first = state.legal_moves()[0]
    square, value = first.split("=")
    assert state.describe_move(first) == f"Player 1 wrote {value} at {square}"
    # a square whose two counts differ says which one was written
    while True:
        spots = state.view()["board"]["candidates"]
        differ = [(sq, c) for sq, c in spots.items() if c["above"] != c["left"]]
        if differ:
            break
        state = state.play(state.legal_moves()[0])
    square, counts = differ[0]
    assert state.describe_move(f"{square}={counts['above']}").endswith(f"wrote {counts['above']} at {square} (the count above it)")
    assert state.describe_move(f"{square}={counts['left']}").endswith(f"wrote {counts['left']} at {square} (the count left of it)")


def test_multiplications_says_the_x_then_the_number_and_its_points():
    # 7 × 7: x's on the diagonal a1 … g7 (Player 1 then 2 in turn); a1 becomes 1
    state = quetgames.new_game("multiplications", k=3)
    diagonal = [f"{'abcdefg'[i]}{i + 1}" for i in range(7)]
    state = played(state, *diagonal[:6])
    assert state.describe_move("g7") == (
        "Player 1 marked an x at g7; every row and column now has its x, and the x at a1, "
        "in the leftmost column, is numbered 1")
    state = state.play("g7")
    # 2 on d4: 3 rows and 3 columns from the 1 at a1
    assert state.describe_move("d4") == "Player 1 wrote 2 on the x at d4, 3 rows and 3 columns from 1: 9 points"
    assert state.play("d4").describe_move("e5") == "Player 2 wrote 3 on the x at e5, 1 row and 1 column from 2: 1 point"


def test_prime_target_says_the_centre_number_then_the_ring_and_its_primes():
    state = quetgames.new_game("prime-target", k=2, rays=4)
    assert state.describe_move("3@2") == "Player 1 wrote 3 in wedge 2 of the centre"
    # centre 1 2 3 4 (wedges 1 to 4); all sums: 3 5 7 5, four primes
    state = played(state, "1@1", "2@2", "3@3", "4@4")
    assert state.describe_move("++++") == "Player 1 completed ring 1 with 3, 5, 7 and 5: 4 primes (3, 5, 7 and 5), 4 points"
    # all differences: 1 1 1 3, one prime (3), worth its value
    assert state.describe_move("----") == "Player 1 completed ring 1 with 1, 1, 1 and 3: the prime 3, 3 points"


# -- Nonconformity: picks in secret ---------------------------------------------------------------


def nonconformity() -> quetgames.State:
    # starts 6 and 4, so every pick below is legal
    return quetgames.new_game("nonconformity", length=4, max_pick=100, starts=[6, 4])


def test_a_secret_pick_is_not_named_until_its_round_is_revealed():
    state = nonconformity().play("27", 0)
    view = state.view()
    assert view["last_move"] == "Player 1 has chosen a number"
    assert "27" not in view["announcement"]
    # not even in the view of the seat that picked, nor the other's
    assert all("27" not in state.view(seat)["announcement"] for seat in (0, 1))
    revealed = state.play("8", 1)
    assert revealed.view()["announcement"] == (
        "Round 1: Player 1 picked 27 and Player 2 picked 8; nobody's pick scores. "
        "Round 2 of 3: Player 1 and Player 2 each choose a number in secret.")


def test_a_pick_that_scores_is_said_to_score():
    # round 1: Player 1 (start 6) picks 12, Player 2 (start 4) picks 16, nothing scores;
    # round 2: Player 2 has 4 and 16, so Player 1's 10 lies strictly between them and scores,
    # and 18 lies outside
    state = played(nonconformity(), ("12", 0), ("16", 1), ("2", 1))
    assert state.describe_move("18", 0) == "Round 2: Player 1 picked 18 and Player 2 picked 2; nobody's pick scores"
    assert state.describe_move("10", 0) == "Round 2: Player 1 picked 10 and Player 2 picked 2; Player 1 scores a point"


def test_sealed_rounds_are_said_without_the_sealed_pick():
    state = nonconformity().seal("27", SALT, 0)
    assert state.view()["last_move"] == "Player 1 sealed a pick"
    opened = state.play("8", 1)
    assert opened.view()["last_move"] == "Player 2 chose 8 in the open"
    assert "27" not in opened.view()["announcement"]
    revealed = opened.reveal("27", SALT, 0)
    assert revealed.view()["last_move"] == (
        "Player 1 revealed the sealed pick, which matches its seal. "
        "Round 1: Player 1 picked 27 and Player 2 picked 8; nobody's pick scores")
    forfeited = opened.play("f", 0)
    assert forfeited.view()["last_move"] == (
        "Round 1: Player 1 gave up a sealed pick and Player 2 picked 8; nobody's pick scores, "
        "and Player 2 scores a point for the forfeit")
