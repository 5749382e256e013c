"""Nonconformity: the rules, one example at a time, then random games.

Positions are drawn as the two sequences, Player 1 (P1) over Player 2 (P2),
one column per round (round 0 is the start):

    round   0  1  2
    P1      6  4  8
    P2      4  2  6
"""

from __future__ import annotations

import json
import random
from math import gcd

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quetgames
from quetgames import IllegalMove, InvalidOptions, InvalidRecord

GAME = quetgames.GAMES["nonconformity"]


def new(**options):
    return quetgames.new_game("nonconformity", **options)


def play_round(state, p1, p2):
    """Both seats choose (P1 first); returns the state after the reveal."""
    return state.play(str(p1), 0).play(str(p2), 1)


def brute_legal(seq, top):
    """Every legal next pick by the rule's letter: 2..top, shares a prime with
    the last term, not already in the sequence."""
    return [n for n in range(2, top + 1) if gcd(n, seq[-1]) > 1 and n not in seq]


def spelled(numbers):
    return [str(n) for n in numbers]


def snapshot(state):
    return state.record, json.dumps(state.view(), sort_keys=True), state.history, state.to_move, state.scores


def rebuild(starts, history):
    """The two sequences (with the round of each term) from the starts and the
    history tokens alone, without the engine."""
    seqs = [[starts[0]], [starts[1]]]
    rounds = [[0], [0]]
    for i, token in enumerate(history):
        if token != "-":
            seqs[i % 2].append(int(token))
            rounds[i % 2].append(i // 2 + 1)
    return seqs, rounds


def recount(seqs, rounds):
    """Points per seat, by the scoring rule, independent of the engine: a term
    of round r scores when strictly between the min and max of the opponent's
    terms of rounds < r and not one of them."""
    points = [0, 0]
    for s in (0, 1):
        opp, opp_rounds = seqs[1 - s], rounds[1 - s]
        for term, r in zip(seqs[s][1:], rounds[s][1:]):
            before = [t for t, rr in zip(opp, opp_rounds) if rr < r]
            if min(before) < term < max(before) and term not in before:
                points[s] += 1
    return points


# -- the seed's sample game ---------------------------------------------------


def test_seed_sample_game_ends_one_all():
    # The seed text's game, starts 6 and 4, eight terms each:
    #
    #   round  0  1  2   3   4   5   6   7
    #   P1     6  4  8  10  12  14  [7] 21
    #   P2     4  2  6   3  [9] 12  14   7
    #
    # Worked by hand under the project's rule (opponent's terms of earlier
    # rounds only, strictly inside, not equal to one):
    # - P2's 9 in round 4: P1 had 6 4 8 10, band 4..10, 9 is none of them: 1.
    # - P1's 7 in round 6: P2 had 4 2 6 3 9 12, band 2..12, 7 is new: 1.
    # - P2's 7 in round 7: band 4..14 but P1 already has 7: 0.
    # - P2's 12 (round 5) and 14 (round 6) equal P1's max of the time: 0.
    # Everything else lies outside the band. The seed says 1-1, a tie; agreed.
    state = new(starts=(6, 4), length=8)
    for a, b in zip([4, 8, 10, 12, 14, 7, 21], [2, 6, 3, 9, 12, 14, 7]):
        assert state.to_move == (0, 1)
        state = play_round(state, a, b)
    assert state.is_over and state.to_move == ()
    assert state.scores == (1, 1)
    assert state.winners == (0, 1)
    board = state.view()["board"]
    assert board["sequences"] == [[6, 4, 8, 10, 12, 14, 7, 21], [4, 2, 6, 3, 9, 12, 14, 7]]
    assert [t for t, hit in zip(board["sequences"][0], board["scored"][0]) if hit] == [7]
    assert [t for t, hit in zip(board["sequences"][1], board["scored"][1]) if hit] == [9]
    assert board["round_log"][3] == {"round": 4, "picks": [12, 9], "scored": [False, True]}
    assert board["round_log"][5] == {"round": 6, "picks": [7, 14], "scored": [True, False]}
    assert state.history == ("4", "2", "8", "6", "10", "3", "12", "9", "14", "12", "7", "14", "21", "7")
    assert "share the win with 1 each" in state.view()["status"]
    assert recount(*rebuild((6, 4), state.history)) == [1, 1]


# -- picks ------------------------------------------------------------------


def test_a_pick_shares_a_prime_with_the_seats_own_last_term():
    # P1 starts 10 (primes 2, 5), P2 starts 9 (prime 3).
    state = new(starts=(10, 9), max_pick=100)
    assert state.legal_moves(0) == spelled(brute_legal([10], 100))
    assert "15" in state.legal_moves(0) and "4" in state.legal_moves(0)
    assert "9" not in state.legal_moves(0) and "10" not in state.legal_moves(0)
    assert state.legal_moves(1) == [str(n) for n in range(3, 100, 3) if n != 9]
    # 94 = 2 x 47: after it, any even number or 47 itself.
    state = play_round(state, 94, 3)
    assert state.legal_moves(0) == spelled(brute_legal([10, 94], 100))
    assert "47" in state.legal_moves(0)


def test_legal_moves_go_in_numeric_order():
    state = new(starts=(2, 3), max_pick=100)
    legal = state.legal_moves(0)
    assert legal[:5] == ["4", "6", "8", "10", "12"]  # 10 after 8, not after "1..."
    assert [int(m) for m in legal] == sorted(int(m) for m in legal)


def test_a_pick_may_equal_the_opponents_term_but_not_ones_own():
    # round  0  1
    # P1     6  4   <- P2's start; fine
    # P2     4  6   <- P1's start; fine
    state = play_round(new(starts=(6, 4)), 4, 6)
    assert state.view()["board"]["sequences"] == [[6, 4], [4, 6]]
    with pytest.raises(IllegalMove, match="6 is already term 1 of Player 1's sequence"):
        state.play("6", 0)
    with pytest.raises(IllegalMove, match="4 is already term 1 of Player 2's sequence"):
        state.play("4", 1)


# -- simultaneous rounds and secrets ------------------------------------------


def test_both_choose_then_reveal_together():
    state = new(starts=(6, 4))
    assert state.to_move == (0, 1)
    with pytest.raises(IllegalMove, match="say which seat"):
        state.play("12")
    with pytest.raises(IllegalMove, match="say which seat"):
        state.legal_moves()
    half = state.play("12", seat=0)
    assert half.to_move == (1,)
    assert half.history == ()  # nothing revealed yet
    assert half.legal_moves(1) == spelled(brute_legal([4], 1000))
    assert half.legal_moves() == half.legal_moves(1)  # one seat to move: the seat is implied
    with pytest.raises(IllegalMove, match="not Player 1's turn"):
        half.play("18", 0)
    with pytest.raises(IllegalMove, match="not Player 1's turn"):
        half.legal_moves(0)
    done = half.play("8")
    assert done.to_move == (0, 1)
    assert done.history == ("12", "8")
    assert done.view()["board"]["sequences"] == [[6, 12], [4, 8]]


def test_the_order_of_choosing_does_not_matter():
    start = new(starts=(6, 4))
    a = start.play("12", 0).play("8", 1)
    b = start.play("8", 1).play("12", 0)
    assert a == b and a.record == b.record


def test_a_pending_pick_is_hidden_from_everyone_but_its_chooser():
    start = new(starts=(6, 4))
    half = start.play("12", 0)
    for seat in (None, 1):
        view = half.view(seat)
        assert view["board"]["pending"] == [None, None]
        assert view["board"]["picked"] == [True, False]
        assert view["record"] == start.record  # the record shown leaves the pick out
        assert quetgames.load(view["record"]) == start
        assert "chosen" in view["status"]
    own = half.view(0)
    assert own["board"]["pending"] == [12, None]
    assert quetgames.load(own["record"]) == half
    # And the other way round: Player 2 chose first.
    half2 = start.play("8", 1)
    assert half2.view(0)["board"]["pending"] == [None, None]
    assert half2.view(0)["record"] == start.record
    assert half2.view(1)["board"]["pending"] == [None, 8]


def test_load_restores_a_half_submitted_round_exactly():
    half = play_round(new(starts=(6, 4)), 12, 8).play("10", 1)
    assert half.moves_record.endswith(".12_8_-_10")  # Player 2's pending pick
    again = quetgames.load(half.record)
    assert snapshot(again) == snapshot(half)
    assert again.view(1)["board"]["pending"] == [None, 10]
    assert again.play("18", 0).history == half.play("18", 0).history == ("12", "8", "18", "10")
    half1 = play_round(new(starts=(6, 4)), 12, 8).play("18", 0)
    assert half1.moves_record.endswith(".12_8_18")  # Player 1's pending pick
    assert snapshot(quetgames.load(half1.record)) == snapshot(half1)


# -- scoring ------------------------------------------------------------------


def test_scoring_is_strictly_inside_the_opponents_earlier_range():
    # round  0   1   2   3   4
    # P1     2  10  [8] [6] [12]
    # P2    20   4  [8] [6]  10
    #
    # Round 1: P1's band is 20..20 and P2's is 2..2: nothing is inside.
    # Round 2: P1's 8 is inside 4..20 (P2 had 20 4); P2's 8 is inside 2..10
    #          (P1 had 2 10). Each scores: the other's 8 of the same round
    #          was not yet revealed, so it excludes nothing.
    # Round 3: P1's 6 inside 4..20, not among 20 4 8: scores. P2's 6 inside
    #          2..10, not among 2 10 8: scores.
    # Round 4: P1's 12 inside 4..20: scores. P2's 10 is P1's max: no.
    state = new(starts=(2, 20), max_pick=100)
    state = play_round(state, 10, 4)
    assert state.scores == (0, 0)
    assert state.view()["board"]["bands"] == [
        {"low": 4, "high": 20, "excluded": []},
        {"low": 2, "high": 10, "excluded": []},
    ]
    state = play_round(state, 8, 8)
    assert state.scores == (1, 1)
    state = play_round(state, 6, 6)
    assert state.scores == (2, 2)
    assert state.view()["board"]["bands"][1] == {"low": 2, "high": 10, "excluded": [6, 8]}
    state = play_round(state, 12, 10)
    assert state.scores == (3, 2)
    assert state.view()["board"]["scored"] == [[False, False, True, True, True], [False, False, True, True, False]]


def test_a_term_equal_to_an_earlier_opponent_term_does_not_score():
    # round  0  1   2   3
    # P1     2  4  [8]  6    8 is inside P2's 3..9 (P2 had 9 3): scores;
    #                        6 is inside 3..9 too, but P2 already has a 6
    # P2     9  3   6  12    6 is above P1's 2..4, 12 above 2..8
    state = play_round(new(starts=(2, 9), max_pick=100), 4, 3)
    assert state.view()["board"]["bands"][0] == {"low": 3, "high": 9, "excluded": []}
    state = play_round(state, 8, 6)
    assert state.view()["board"]["bands"][0] == {"low": 3, "high": 9, "excluded": [6]}
    after = play_round(state, 6, 12)
    assert after.scores == (1, 0)  # 8 scored in round 2; 6 in round 3 does not
    assert after.view()["board"]["scored"][0] == [False, False, True, False]


# -- sitting out --------------------------------------------------------------


def test_a_start_with_no_pick_sits_out_from_the_first_round():
    # max_pick 100: the only multiple of 97 up to 100 is 97 itself.
    state = new(starts=(97, 4), max_pick=100, length=4)
    assert brute_legal([97], 100) == []
    assert state.to_move == (1,)
    board = state.view()["board"]
    assert board["sat_out"] == [True, False] and board["legal_count"] == [0, 49]
    assert "Player 1 has no legal pick and sits out; Player 2 to choose" in state.view()["status"]
    with pytest.raises(IllegalMove, match="not Player 1's turn"):
        state.play("2", 0)
    state = state.play("2")  # revealed at once
    assert state.history == ("-", "2")
    assert state.to_move == (1,)
    state = state.play("6").play("3")
    assert state.is_over and state.history == ("-", "2", "-", "6", "-", "3")
    assert state.view()["board"]["sequences"] == [[97], [4, 2, 6, 3]]
    assert state.view()["board"]["round_log"][0] == {"round": 1, "picks": [None, 2], "scored": [False, False]}
    assert state.scores == (0, 0)  # P2's band is 97..97: nothing lies strictly inside
    assert state.moves_record.endswith(".-_2_-_6_-_3")
    assert quetgames.load(state.record) == state


def test_a_seat_that_runs_out_sits_out_every_later_round():
    # max_pick 100. P1 starts 94 = 2 x 47 and picks 47: the only multiples of
    # 47 up to 100 are 47 and 94, both used, so P1 is stuck for good.
    state = play_round(new(starts=(94, 6), max_pick=100), 47, 2)
    assert brute_legal([94, 47], 100) == []
    assert state.to_move == (1,)
    assert state.view()["board"]["sat_out"] == [True, False]
    state = state.play("4")
    assert state.history == ("47", "2", "-", "4")
    assert state.to_move == (1,)


def test_the_game_ends_early_when_neither_seat_can_pick():
    state = new(starts=(97, 89), max_pick=100)
    assert state.is_over and state.to_move == () and state.legal_moves() == []
    assert state.scores == (0, 0) and state.winners == (0, 1)
    assert "neither player can pick" in state.view()["status"]
    with pytest.raises(IllegalMove, match="game is over"):
        state.play("2", 0)
    # Mid-game: P2 is stuck from the start, P1 runs out after one pick.
    state = new(starts=(94, 97), max_pick=100)
    assert state.to_move == (0,)
    state = state.play("47")
    assert state.is_over and state.history == ("47", "-")
    assert state.view()["board"]["round"] is None and state.view()["board"]["played"] == 1


# -- errors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "move, reason",
    [
        ("abc", "not a pick"),
        ("", "not a pick"),
        ("+12", "not a pick"),
        ("-12", "not a pick"),
        (" 12", "not a pick"),
        ("12 ", "not a pick"),
        ("1.0", "not a pick"),
        ("1e3", "not a pick"),
        ("\u0661\u0662", "not a pick"),  # Arabic-Indic digits are not plain digits
        ("012", "without leading zeros \\(as 12\\)"),
        ("00", "without leading zeros \\(as 0\\)"),
        ("0", "0 is too small: picks run from 2 to 1000"),
        ("1", "1 is too small"),
        ("1001", "1001 is too large: picks run from 2 to 1000"),
        ("9" * 150, "is too large"),
        ("10", "10 is already term 1 of Player 1's sequence"),
        ("9", "9 shares no prime factor with 10, Player 1's last term \\(a pick must be a multiple of 2 or 5\\)"),
    ],
)
def test_rejected_picks_say_why_and_change_nothing(move, reason):
    state = new(starts=(10, 9))
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=reason):
        state.play(move, 0)
    assert snapshot(state) == before


def test_other_rejections():
    state = new(starts=(6, 4), length=2)
    with pytest.raises(IllegalMove, match="far too long"):
        state.play("1" * 201, 0)
    with pytest.raises(IllegalMove, match="written as text"):
        state.play(12, 0)
    with pytest.raises(IllegalMove, match="no seat 2"):
        state.play("12", 2)
    over = play_round(state, 12, 8)
    assert over.is_over
    with pytest.raises(IllegalMove, match="game is over"):
        over.play("18", 0)
    assert over.legal_moves() == [] and over.legal_moves(0) == []


# -- options ----------------------------------------------------------------------


def test_drawn_starts_follow_the_seed():
    # The documented draw: random.Random(seed), two draws from 2..30 (one if same_start).
    for seed in (0, 1, 7, 2**31 - 1):
        rng = random.Random(seed)
        expected = (rng.randint(2, 30), rng.randint(2, 30))
        assert new(seed=seed).options["starts"] == expected
        rng = random.Random(seed)
        first = rng.randint(2, 30)
        assert new(seed=seed, same_start=True).options["starts"] == (first, first)
    drawn = {new(seed=seed).options["starts"] for seed in range(200)}
    assert len(drawn) > 50 and all(2 <= a <= 30 and 2 <= b <= 30 for a, b in drawn)


def test_an_unset_seed_draws_fresh_starts_each_game():
    # "Leave unset to draw them at random": not the same 29 and 14 every time.
    info = quetgames.GAMES["nonconformity"].describe()
    assert next(o for o in info["options"] if o["name"] == "seed")["default"] is None
    games = [new() for _ in range(40)]
    drawn = {g.options["starts"] for g in games}
    assert len(drawn) > 10 and all(2 <= a <= 30 and 2 <= b <= 30 for a, b in drawn)
    assert all(a == b for a, b in (new(same_start=True).options["starts"] for _ in range(10)))
    # The record keeps what was drawn, so a link shows the same game, move for move.
    for state in games[:5]:
        a, b = state.options["starts"]
        assert state.moves_record == f"q1.nc.l10_m1000_s{a}x{b}."
        played = state.play(str(2 * a), 0).play(str(2 * b), 1)
        again = quetgames.load(played.record)
        assert again == played and again.options["starts"] == (a, b)


def test_explicit_starts_win_and_only_the_starts_used_are_recorded():
    state = new(starts=[6, 4], same_start=True, seed=5, length=8, max_pick=500)
    assert state.options == {"length": 8, "max_pick": 500, "starts": (6, 4)}
    assert state.moves_record == "q1.nc.l8_m500_s6x4."
    assert state.view()["options"] == {"length": 8, "max_pick": 500, "starts": [6, 4]}
    drawn = new(seed=3, same_start=True)
    a = drawn.options["starts"][0]
    assert drawn.moves_record == f"q1.nc.l10_m1000_s{a}x{a}."
    assert quetgames.load(drawn.record) == drawn
    assert GAME.decode_options(f"l10_m1000_s{a}x{a}") == drawn.options


@pytest.mark.parametrize(
    "options, reason",
    [
        ({"starts": (6, 1001)}, "at most max_pick \\(1000\\); 1001 is larger"),
        ({"starts": (200, 6), "max_pick": 150}, "at most max_pick \\(150\\); 200 is larger"),
        ({"starts": (1, 6)}, "from 2"),
        ({"starts": (6,)}, "pair"),
        ({"starts": (6, 4, 2)}, "pair"),
        ({"starts": (6.0, 4)}, "whole number"),
        ({"starts": None}, "pair"),
        ({"length": 1}, "from 2 to 100"),
        ({"length": 101}, "from 2 to 100"),
        ({"max_pick": 99}, "from 100 to 1000000"),
        ({"max_pick": 1_000_001}, "from 100 to 1000000"),
        ({"seed": -1}, "from 0 to 2147483647"),
        ({"seed": 2**31}, "from 0 to 2147483647"),
        ({"same_start": 1}, "true or false"),
        ({"players": 2}, "no option"),
    ],
)
def test_bad_options_are_refused(options, reason):
    with pytest.raises(InvalidOptions, match=reason):
        new(**options)


# -- records ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "moves",
    [
        "x",  # not a number
        "04",  # leading zero
        "4__2",  # empty token
        "4_2_",  # trailing separator
        "_4",
        "-_-",  # nothing played, yet not the empty form
        "4_-",  # Player 2 could pick: this is the pending form "4" spelled wrongly
        "12345678",  # longer than any pick
        "5",  # 5 shares nothing with 6
        "4_2_8_6_10_3_12_9_14_12_7_14_21_7_42",  # more rounds than the game has
        "4_2_4",  # repeats its own term
        "4_+2",
    ],
)
def test_damaged_moves_are_refused(moves):
    with pytest.raises(InvalidRecord):
        quetgames.load(f"q1.nc.l8_m1000_s6x4.{moves}")


@pytest.mark.parametrize(
    "options",
    [
        "l10_m1000",  # starts missing: they would be drawn, and then written
        "l10_m1000_s6x4_e1",  # same_start is never recorded
        "l10_m1000_s6x4_r5",  # nor the seed
        "l10_m100_s6x400",  # start above max_pick
        "s6x4_l10_m1000",  # not the usual order
        "l10_m1000_s6x4x2",
    ],
)
def test_damaged_options_are_refused(options):
    with pytest.raises(InvalidRecord):
        quetgames.load(f"q1.nc.{options}.")


def test_records_round_trip_and_read_plainly():
    state = play_round(new(starts=(6, 4), length=8), 4, 2)
    assert state.moves_record == "q1.nc.l8_m1000_s6x4.4_2"
    named = state.with_seats(["Ann", "Bo"], ["human", "random"])
    again = quetgames.load(named.record)
    assert again == named and again.view(0) == named.view(0)
    assert again.seat_name(0) == "Ann"


def test_a_default_game_record_stays_short():
    # Worst case with default options: 9 rounds, every pick 4 digits
    # (1000 is the only 4-digit pick; the rest take 3): at most 18 x 4 + 17.
    state = new()
    while state.to_move:
        seat = state.to_move[0]
        state = state.play(state.legal_moves(seat)[-1], seat)
    assert len(state.record) <= len("q1.nc.l10_m1000_s30x30.") + 18 * 4 + 17 <= 1000


# -- the view ---------------------------------------------------------------------


def test_view_is_plain_json_and_describes_the_position():
    state = play_round(new(starts=(6, 4), max_pick=100), 4, 2).play("8", 0)
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert json.loads(json.dumps(view)) == view
    board = state.view(1)["board"]
    assert board["round"] == 2 and board["rounds"] == 9 and board["played"] == 1
    assert board["last"] == [4, 2] and board["factors"] == [[2], [2]]
    assert board["term_rounds"] == [[0, 1], [0, 1]]
    assert board["legal_count"] == [len(brute_legal([6, 4], 100)), len(brute_legal([4, 2], 100))]
    assert board["legal_listed"] is True
    assert state.view(1)["legal_moves"] == state.legal_moves(1)
    assert state.view(None)["legal_moves"] == state.legal_moves(1)  # only P2 is to move


def test_view_of_a_huge_range_gives_counts_not_lists():
    state = new(starts=(30, 999_983), max_pick=10**6)  # 999983 is prime: P2 sits out
    legal = state.legal_moves(0)
    # Multiples of 2, 3 or 5 up to 10**6 by inclusion-exclusion, less the start 30.
    expected = 500000 + 333333 + 200000 - 166666 - 100000 - 66666 + 33333 - 1
    assert len(legal) == expected
    assert legal[:4] == ["2", "3", "4", "5"] and legal[-1] == "1000000"
    view = state.view(0)
    assert view["legal_moves"] == []
    assert view["board"]["legal_listed"] is False
    assert view["board"]["legal_count"] == [expected, 0]
    assert view["board"]["factors"] == [[2, 3, 5], [999983]]
    assert state.play("999999", 0).view()["board"]["sequences"][0] == [30, 999999]


def test_status_sentences():
    state = new(starts=(6, 4), length=3)
    assert state.view()["status"] == "Round 1 of 2: Player 1 and Player 2 each choose a number in secret"
    assert state.play("8", 1).view()["status"] == "Round 1 of 2: Player 2 has chosen; Player 1 to choose a number"
    over = play_round(play_round(state, 4, 2), 8, 6)  # P2's 6 is P1's max (band 4..6), P1's 8 above 2..4
    assert over.view()["status"] == "Game over: Player 1 and Player 2 share the win with 0 each"
    over = play_round(play_round(state, 9, 2), 27, 8)  # P2's 8 is inside 6..9; P1's 27 above 2..4
    assert over.scores == (0, 1)
    assert over.view()["status"] == "Game over: Player 2 wins 1 to 0"


def test_rules_and_description():
    info = GAME.describe()
    assert info["name"] == "Nonconformity" and GAME.code == "nc"
    assert [o["name"] for o in info["options"]] == ["length", "max_pick", "starts", "same_start", "seed"]
    for words in ["secret", "prime factor", "smaller than the largest", "sit out", "2 to 30", "Example"]:
        assert words in GAME.rules
    json.dumps(info)


# -- random games -------------------------------------------------------------------

PRIMEISH = st.sampled_from([2, 3, 4, 6, 30, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 94, 97, 101, 113, 127, 149])


@st.composite
def game_options(draw):
    options = {"length": draw(st.integers(2, 12)), "max_pick": draw(st.integers(100, 300))}
    if draw(st.booleans()):
        top = options["max_pick"]
        pick = st.one_of(st.integers(2, top), PRIMEISH.filter(lambda n: n <= top))
        options["starts"] = (draw(pick), draw(pick))
    else:
        options["seed"] = draw(st.integers(0, 2**31 - 1))
        options["same_start"] = draw(st.booleans())
    return options


BAD = st.one_of(
    st.text(max_size=8),
    st.integers(-5, 2000).map(str),
    st.sampled_from(["0", "1", "01", "+4", "4 ", "١", "9" * 60]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=game_options(), data=st.data())
def test_random_games(options, data):
    state = new(**options)
    starts, top, rounds = state.options["starts"], state.options["max_pick"], state.options["length"] - 1
    plays = 0
    while state.to_move:
        assert plays <= 2 * rounds
        seqs, _ = rebuild(starts, state.history)
        # Whoever is not to move has either chosen already or has no pick at all.
        for s in (0, 1):
            if s not in state.to_move and not state.view(s)["board"]["picked"][s]:
                assert brute_legal(seqs[s], top) == []
        seat = data.draw(st.sampled_from(state.to_move))
        legal = state.legal_moves(seat)
        assert legal == spelled(brute_legal(seqs[seat], top))
        bad = data.draw(BAD)
        if bad not in legal:
            before = snapshot(state)
            with pytest.raises(IllegalMove):
                state.play(bad, seat)
            assert snapshot(state) == before
        state = state.play(data.draw(st.sampled_from(legal)), seat)
        plays += 1
        if data.draw(st.integers(0, 4)) == 0:
            assert snapshot(quetgames.load(state.record)) == snapshot(state)
        # Nobody else learns a pending pick.
        public = quetgames.load(state.view(None)["record"])
        assert public.history == state.history and public.view(None)["board"]["picked"] == [False, False]
    assert state.is_over and state.legal_moves() == []
    assert len(state.history) // 2 <= rounds
    seqs, term_rounds = rebuild(starts, state.history)
    board = state.view()["board"]
    assert board["sequences"] == seqs and board["term_rounds"] == term_rounds
    # Every sequence obeys the pick rules, checked from scratch.
    for seq in seqs:
        assert len(set(seq)) == len(seq)
        for prev, term in zip(seq, seq[1:]):
            assert 2 <= term <= top and gcd(prev, term) > 1
    # The game stopped because the rounds ran out or neither seat could pick.
    if len(state.history) // 2 < rounds:
        assert brute_legal(seqs[0], top) == [] == brute_legal(seqs[1], top)
    points = recount(seqs, term_rounds)
    assert list(state.scores) == points
    best = max(points)
    assert state.winners == tuple(s for s in (0, 1) if points[s] == best)
    assert snapshot(quetgames.load(state.record)) == snapshot(state)


def test_preview_says_whether_a_pick_would_score_without_playing_it():
    # Starts 6 and 4: Player 1 scores only strictly inside Player 2's 4..4 (never),
    # Player 2 only inside 6..6. One round later the bands open up.
    state = quetgames.new_game("nonconformity", starts=(6, 4), length=5)
    assert state.preview("12", 0) == {"pick": 12, "scores": False, "low": 4, "high": 4}
    state = state.play("12", 0).play("10", 1)
    # Player 1's band is now Player 2's 4..10; 8 is inside, 10 is an end.
    assert state.preview("8", 0)["scores"] is True
    assert state.preview("10", 0)["scores"] is False
    # Player 2's band is 6..12; 8 is inside and not one of Player 1's terms.
    assert state.preview("8", 1)["scores"] is True
    before = state.record
    with pytest.raises(IllegalMove, match="shares no prime factor"):
        state.preview("7", 0)
    assert state.record == before


def test_the_view_lists_the_picks_that_would_score():
    state = quetgames.new_game("nonconformity", starts=(6, 4), length=5).play("12", 0).play("10", 1)
    board = state.view()["board"]
    # Player 1 scores strictly inside 4..10 avoiding Player 2's terms: legal picks
    # are multiples of 2 or 3 (12 = 2·2·3) not already owned: 8 and 9 qualify.
    assert board["scoring_picks"][0] == [8, 9]
    for seat in (0, 1):
        for pick in board["scoring_picks"][seat]:
            assert state.preview(str(pick), seat)["scores"] is True
