"""Enumeration: the coprime-counting grid.

Boards are drawn top row first; '.' is an empty square. Row and column numbers
are the headers: row 3 is the third line, column f the sixth.
"""

from __future__ import annotations

import json
import math
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quetgames
from quetgames import IllegalMove, InvalidOptions, InvalidRecord

# The seed's sample position, filled in reading order (each move must be legal
# when it is played, which checks that every drawn value is one of its square's
# two counts; it is: the seed is consistent with the rule, see the hand counts
# in test_seed_values_are_each_one_of_the_two_counts).
SEED_MOVES = "b2=0 c2=1 d2=1 e2=3 f2=2 b3=1 c3=1 d3=2 e3=1 b4=1 c4=3 d4=2 b5=3".split()


def play(state, moves):
    for move in moves.split() if isinstance(moves, str) else moves:
        state = state.play(move)
    return state


def grid_text(values):
    return [" ".join("." if v is None else str(v) for v in row) for row in values]


def counts(values, r, c):
    """Independent of the engine: (above, left) for 0-based square (r, c) of a
    values matrix; the square's row number is r + 1 and column number c + 1."""
    above = sum(1 for i in range(r) if math.gcd(values[i][c], r + 1) == 1)
    left = sum(1 for j in range(c) if math.gcd(values[r][j], c + 1) == 1)
    return above, left


# -- the seed's worked example ------------------------------------------------


def test_seed_example_f3_takes_1_or_3():
    # 1 2 3 4 5 6
    # 2 0 1 1 3 2
    # 3 1 1 2 1 *      * = f3
    # 4 1 3 2 . .
    # 5 3 . . . .
    # 6 . . . . .
    s = play(quetgames.new_game("enumeration", size=6), SEED_MOVES)
    board = s.view()["board"]
    assert grid_text(board["values"]) == [
        "1 2 3 4 5 6",
        "2 0 1 1 3 2",
        "3 1 1 2 1 .",
        "4 1 3 2 . .",
        "5 3 . . . .",
        "6 . . . . .",
    ]
    # Above f3: 6 and 2; row 3 is coprime to 2 only -> 1.
    # Left of f3: 3 1 1 2 1; column 6 is coprime to the three 1s only -> 3.
    assert [m for m in s.legal_moves() if m.startswith("f3=")] == ["f3=1", "f3=3"]
    assert board["candidates"]["f3"] == {"above": 1, "left": 3}
    for wrong in ("f3=0", "f3=2", "f3=4", "f3=5"):
        with pytest.raises(IllegalMove, match=r"f3 can take 1 .* or 3 .*not"):
            s.play(wrong)
    assert s.play("f3=1").view()["board"]["values"][2][5] == 1
    assert s.play("f3=3").view()["board"]["values"][2][5] == 3


def test_seed_position_full_legal_list():
    # Fillable now: f3, e4 (e3 and d4 full), c5 (c4 and b5 full), b6 (b5 full).
    # e4: above 5 3 1, row 4 coprime to all -> 3; left 4 1 3 2, column 5 -> 4.
    # c5: above 3 1 1 3, row 5 -> 4; left 5 3, column 3 coprime to 5 only -> 1.
    # b6: above 2 0 1 1 3, row 6 coprime to the 1s -> 2; left 6, column 2 -> 0.
    s = play(quetgames.new_game("enumeration"), SEED_MOVES)
    assert s.legal_moves() == ["f3=1", "f3=3", "e4=3", "e4=4", "c5=1", "c5=4", "b6=0", "b6=2"]


def test_seed_values_are_each_one_of_the_two_counts():
    # Hand counts for every drawn square (above / left):
    # b2 0/0  c2 1/1  d2 0/1  e2 1/3  f2 0/2
    # b3 1/1  c3 1/1  d3 2/3  e3 1/4
    # b4 1/0  c4 3/2  d4 1/2
    # b5 3/1
    hand = {
        "b2": (0, 0), "c2": (1, 1), "d2": (0, 1), "e2": (1, 3), "f2": (0, 2),
        "b3": (1, 1), "c3": (1, 1), "d3": (2, 3), "e3": (1, 4),
        "b4": (1, 0), "c4": (3, 2), "d4": (1, 2),
        "b5": (3, 1),
    }
    s = quetgames.new_game("enumeration")
    for move in SEED_MOVES:
        square, value = move.split("=")
        cand = s.view()["board"]["candidates"][square]
        assert (cand["above"], cand["left"]) == hand[square]
        assert int(value) in hand[square]
        s = s.play(move)


# -- per-rule examples ---------------------------------------------------------


@pytest.mark.parametrize("size", [3, 4, 6, 11, 26])
def test_headers_and_first_move(size):
    # b2 sees the 2 of column b above and the 2 of row 2 to the left: both counts 0.
    s = quetgames.new_game("enumeration", size=size)
    values = s.view()["board"]["values"]
    assert values[0] == list(range(1, size + 1))
    assert [row[0] for row in values] == list(range(1, size + 1))
    assert all(v is None for row in values[1:] for v in row[1:])
    assert s.view()["board"]["headers"] == list(range(1, size + 1))
    # The two counts agree, so b2 is listed once.
    assert s.legal_moves() == ["b2=0"]


def test_square_needs_above_and_left_filled():
    # 1 2 3 4
    # 2 0 . .
    # 3 . . .
    # 4 . . .
    s = play(quetgames.new_game("enumeration", size=4), "b2=0")
    squares = {m.split("=")[0] for m in s.legal_moves()}
    assert squares == {"c2", "b3"}
    with pytest.raises(IllegalMove, match="c3 cannot be filled yet: the squares above it \\(c2\\) and left of it \\(b3\\) are empty"):
        s.play("c3=1")
    s2 = s.play("c2=1")
    with pytest.raises(IllegalMove, match="c3 cannot be filled yet: the square left of it, b3, is empty"):
        s2.play("c3=1")
    s3 = s.play("b3=1")
    with pytest.raises(IllegalMove, match="c3 cannot be filled yet: the square above it, c2, is empty"):
        s3.play("c3=1")
    assert "c3" in s2.play("b3=1").view()["board"]["candidates"]


def test_zero_is_coprime_only_to_one():
    # 1 2 3 4
    # 2 0 1 *     d2: left of it 2 0 1; column 4 is coprime to the 1 only.
    # 3 *         b3: above it 2 0; row 3 is coprime to the 2 only.
    # Were 0 counted as coprime, both would be 2.
    s = play(quetgames.new_game("enumeration", size=4), "b2=0 c2=1")
    cands = s.view()["board"]["candidates"]
    assert cands["d2"] == {"above": 0, "left": 1}  # above d2: the header 4, not coprime to 2
    assert cands["b3"] == {"above": 1, "left": 1}  # left of b3: the header 3, coprime to 2
    assert s.legal_moves() == ["d2=0", "d2=1", "b3=1"]


def test_legal_order_reading_order_then_value():
    s = play(quetgames.new_game("enumeration"), SEED_MOVES)
    moves = s.legal_moves()
    keys = [(int(m.split("=")[0][1:]), m[0], int(m.split("=")[1])) for m in moves]
    assert keys == sorted(keys)
    assert len(set(moves)) == len(moves)


# -- turn order and scores ------------------------------------------------------


def test_corner_match_turn_order_and_scores():
    # Size 4: nine squares a grid, an odd number, so Player 1 fills both first and
    # last square of grid 1; in grid 2 Player 2 starts (and ends).
    rng = random.Random(3)
    s = quetgames.new_game("enumeration", size=4)
    assert s.view()["board"]["maximiser"] == 0 and s.view()["board"]["minimiser"] == 1
    seats = []
    while s.view()["board"]["grid"] == 1:
        assert s.scores == (0, 0)  # the lower-right square is still empty
        seats.append(s.to_move[0])
        s = s.play(rng.choice(s.legal_moves()))
    assert seats == [0, 1, 0, 1, 0, 1, 0, 1, 0]
    board = s.view()["board"]
    first = board["finished"][0]
    assert board["grids"] == 2 and board["maximiser"] == 1 and board["minimiser"] == 0
    assert board["corners"] == [first[3][3], None]
    assert s.scores == (first[3][3], 0)
    assert board["values"][1][1] is None and board["last"] is None  # a fresh grid 2
    seats = []
    while not s.is_over:
        seats.append(s.to_move[0])
        s = s.play(rng.choice(s.legal_moves()))
    assert seats == [1, 0, 1, 0, 1, 0, 1, 0, 1]
    second = s.view()["board"]["values"]
    assert s.scores == (first[3][3], second[3][3])
    best = max(s.scores)
    assert s.winners == tuple(i for i in (0, 1) if s.scores[i] == best)


def test_corner_match_even_grid_size_three():
    # Size 3: four squares a grid; grid 1 goes P1 P2 P1 P2, grid 2 P2 P1 P2 P1.
    # 1 2 3
    # 2 0 1     c2: above 3 (coprime to 2) -> 1; left 2 0, column 3 coprime to 2 -> 1
    # 3 1 x     b3: above 2 0, row 3 coprime to 2 -> 1; left 3, column 2 -> 1
    # c3: above 3 1, row 3 coprime to 1 only -> 1; left 3 1, column 3 -> 1
    s = quetgames.new_game("enumeration", size=3)
    order = []
    for move in ["b2=0", "c2=1", "b3=1", "c3=1", "b2=0", "c2=1", "b3=1", "c3=1"]:
        order.append(s.to_move[0])
        assert s.legal_moves() == [m for m in s.legal_moves()]  # stable
        s = s.play(move)
    assert order == [0, 1, 0, 1, 1, 0, 1, 0]
    assert s.is_over and s.scores == (1, 1) and s.winners == (0, 1)
    assert "share the win with 1 each" in s.view()["status"]


def test_parity_running_counts_include_headers():
    # Size 6 headers: 1..6 on top (1 3 5 odd) and 2..6 down the side (3 5 odd):
    # 5 odd, 6 even before any move.
    s = quetgames.new_game("enumeration", goal="parity")
    assert s.scores == (5, 6)
    s = s.play("b2=0")  # 0 is even
    assert s.scores == (5, 7)
    s = s.play("c2=1")
    assert s.scores == (6, 7)
    assert s.view()["board"]["parity"] == {"odd": 6, "even": 7}
    assert s.view()["board"]["maximiser"] is None and s.view()["board"]["grids"] == 1


def test_parity_two_players_alternate_from_player_1():
    rng = random.Random(5)
    s = quetgames.new_game("enumeration", goal="parity", size=5)
    k = 0
    while not s.is_over:
        assert s.to_move == (k % 2,)
        s = s.play(rng.choice(s.legal_moves()))
        k += 1
    assert k == 16
    values = s.view()["board"]["values"]
    odd = sum(v % 2 for row in values for v in row)
    assert s.scores == (odd, 25 - odd)


def test_solitaire_corner_and_parity():
    rng = random.Random(7)
    for goal, target in [("corner", None), ("parity", "odd"), ("parity", "even")]:
        opts = {"players": 1, "goal": goal, "size": 5}
        if target:
            opts["target"] = target
        s = quetgames.new_game("enumeration", **opts)
        while not s.is_over:
            assert s.to_move == (0,)
            s = s.play(rng.choice(s.legal_moves()))
        values = s.view()["board"]["values"]
        odd = sum(v % 2 for row in values for v in row)
        expected = values[4][4] if goal == "corner" else odd if target == "odd" else 25 - odd
        assert s.scores == (expected,) and s.winners == (0,)
        assert "Game over: Player 1 scores" in s.view()["status"]


def test_solitaire_corner_scores_zero_until_corner_filled():
    s = quetgames.new_game("enumeration", players=1, size=3)
    s = play(s, "b2=0 c2=1 b3=1")
    assert s.scores == (0,)
    assert s.view()["board"]["maximiser"] == 0 and s.view()["board"]["minimiser"] is None
    s = s.play("c3=1")
    assert s.scores == (1,) and s.is_over and s.legal_moves() == []


# -- options ---------------------------------------------------------------------


def test_target_applies_only_to_solitaire_parity():
    assert quetgames.new_game("enumeration").options == {"players": 2, "size": 6, "goal": "corner"}
    s = quetgames.new_game("enumeration", players=1, goal="parity", target="even")
    assert s.options["target"] == "even"
    assert s.moves_record == "q1.en.p1_s6_gp_te."
    # Given but not applicable: validated, then dropped.
    s = quetgames.new_game("enumeration", players=2, goal="parity", target="even")
    assert "target" not in s.options and s.moves_record == "q1.en.p2_s6_gp."
    assert "target" not in quetgames.new_game("enumeration", players=1, target="even").options
    with pytest.raises(InvalidOptions, match="target"):
        quetgames.new_game("enumeration", players=2, target="blue")
    with pytest.raises(InvalidRecord):
        quetgames.load("q1.en.p2_s6_gp_to.")


def test_setup_is_told_when_the_target_applies():
    # A setup screen shows the target only when it means something, and its help
    # never says "solitaire only" beside a two-player game's options.
    options = {o["name"]: o for o in quetgames.GAMES["enumeration"].describe()["options"]}
    assert options["target"]["only_when"] == {"players": 1, "goal": "parity"}
    assert "solitaire" not in options["target"]["help"].lower()
    assert all("only_when" not in o for name, o in options.items() if name != "target")
    # and the engine keeps the target exactly when only_when holds
    for players in (1, 2):
        for goal in ("corner", "parity"):
            kept = "target" in quetgames.new_game("enumeration", players=players, goal=goal, target="even").options
            assert kept == (players == 1 and goal == "parity")


@pytest.mark.parametrize(
    "options",
    [{"size": 2}, {"size": 27}, {"size": True}, {"players": 3}, {"players": 0}, {"goal": "middle"}, {"goal": "c"}, {"colour": 1}],
)
def test_bad_options(options):
    with pytest.raises(InvalidOptions):
        quetgames.new_game("enumeration", **options)


# -- errors ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("c2", "is not a move: write a square, '=' and a value"),
        ("c2=1=1", "is not a move"),
        ("", "is not a move"),
        ("C2=1", "is not a square name"),
        ("=1", "is not a square name"),
        ("c02=1", "is not a square name"),
        ("g2=1", "off the board"),
        ("c7=1", "off the board"),
        ("c2=01", "'01' is not a value"),
        ("c2=-1", "is not a value"),
        ("c2=+1", "is not a value"),
        ("c2= 1", "is not a value"),
        ("c2=", "'' is not a value"),
        ("c1=3", "c1 is in the top row"),
        ("a3=3", "a3 is in the left column"),
        ("a1=1", "a1 is in the top row"),
        ("b2=0", "b2 is already filled \\(it holds 0\\)"),
        ("c2=2", "c2 can only take 1 \\(both the count above it, for row 2, and the count left of it, for column 3, give 1\\), not 2"),
        ("c2=" + "9" * 150, "c2 can only take 1 .*not 999999999999\\.\\.\\."),
        ("d3=1", "d3 cannot be filled yet"),
    ],
)
def test_illegal_moves_say_why_and_change_nothing(move, message):
    s = quetgames.new_game("enumeration").play("b2=0")
    before = (s.record, s.view())
    with pytest.raises(IllegalMove, match=message):
        s.play(move)
    assert (s.record, s.view()) == before


def test_two_choice_message_names_both_counts():
    # d2: above it the header 4 (not coprime to row 2) -> 0; left 2 0 1 -> 1 for column 4.
    s = play(quetgames.new_game("enumeration"), "b2=0 c2=1")
    with pytest.raises(IllegalMove, match=r"d2 can take 0 \(how many numbers above it have no common factor above 1 with row number 2\) or 1 \(how many left of it have none with column number 4\), not 2"):
        s.play("d2=2")


def test_moves_after_the_end_and_wrong_seat():
    s = play(quetgames.new_game("enumeration", size=3, players=1), "b2=0 c2=1 b3=1 c3=1")
    with pytest.raises(IllegalMove, match="game is over"):
        s.play("c3=1")
    t = quetgames.new_game("enumeration")
    with pytest.raises(IllegalMove, match="not Player 2's turn"):
        t.play("b2=0", seat=1)
    with pytest.raises(IllegalMove):
        t.play(5)  # type: ignore[arg-type]


# -- notation and records ----------------------------------------------------------


def test_notation_matches_candidates():
    rng = random.Random(11)
    s = quetgames.new_game("enumeration", size=8)
    while not s.is_over:
        cands = s.view()["board"]["candidates"]
        expected = []
        for square, c in cands.items():
            expected += [f"{square}={v}" for v in sorted({c["above"], c["left"]})]
        assert sorted(s.legal_moves()) == sorted(expected)
        for move in s.legal_moves():
            square, value = move.split("=")
            assert square == square.lower() and str(int(value)) == value
        s = s.play(rng.choice(s.legal_moves()))


def test_record_round_trip_and_letters():
    s = play(quetgames.new_game("enumeration"), SEED_MOVES)
    # Each move is its index in the legal list: b2=0 is choice 0 (a), and so on.
    assert s.moves_record == "q1.en.p2_s6_gc.aabbbaaaadddf"
    t = quetgames.load(s.record)
    assert t == s and t.view() == s.view() and t.history == s.history
    assert quetgames.load(quetgames.new_game("enumeration").record).history == ()


@pytest.mark.parametrize(
    "moves",
    ["b", "aad", "z", "aaZ", "a1", "a-", "a_", "a~", "A"],
)
def test_bad_move_records(moves):
    with pytest.raises(InvalidRecord):
        quetgames.load("q1.en.p2_s6_gc." + moves)


def test_record_past_the_end_is_rejected():
    s = play(quetgames.new_game("enumeration", size=3, players=1), "b2=0 c2=1 b3=1 c3=1")
    with pytest.raises(InvalidRecord, match="after the game ended"):
        quetgames.load(s.moves_record + "a")


def test_default_record_worst_case_is_short():
    # Default options: two 6x6 grids, 25 squares each, one letter a move.
    rng = random.Random(13)
    s = quetgames.new_game("enumeration")
    while not s.is_over:
        s = s.play(rng.choice(s.legal_moves()))
    assert len(s.history) == 50
    assert len(s.moves_record) == len("q1.en.p2_s6_gc.") + 50 <= 1000
    assert quetgames.load(s.record) == s


def test_largest_grid_plays_and_loads_quickly():
    rng = random.Random(17)
    start = time.perf_counter()
    s = quetgames.new_game("enumeration", size=26)
    while not s.is_over:
        moves = s.legal_moves()
        assert len(moves) <= 52  # fits the record's letters
        s = s.play(rng.choice(moves))
    assert len(s.history) == 2 * 25 * 25
    assert quetgames.load(s.record) == s
    json.dumps(s.view())
    assert time.perf_counter() - start < 5


def test_status_sentences():
    s = quetgames.new_game("enumeration")
    assert s.view()["status"] == (
        "Player 1 to fill a square in grid 1 of 2 (Player 1 wants the lower-right number high, "
        "Player 2 wants it low)"
    )
    p = quetgames.new_game("enumeration", goal="parity").with_seats(["Ann", "Bo"])
    assert p.view()["status"] == "Ann to fill a square (Ann collects odd numbers, Bo even ones)"
    one = quetgames.new_game("enumeration", players=1, goal="parity", target="even")
    assert one.view()["status"] == "Player 1 to fill a square, aiming for many even numbers"


# -- random games -------------------------------------------------------------------

options_strategy = st.fixed_dictionaries(
    {
        "players": st.integers(1, 2),
        "size": st.integers(3, 8),
        "goal": st.sampled_from(["corner", "parity"]),
        "target": st.sampled_from(["odd", "even"]),
    }
)


def check_grid(values, n):
    """Every played square holds one of its two counts (independent recount)."""
    assert len(values) == n and all(len(row) == n for row in values)
    assert values[0] == list(range(1, n + 1)) and [row[0] for row in values] == list(range(1, n + 1))
    for r in range(1, n):
        for c in range(1, n):
            assert values[r][c] in counts(values, r, c)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=options_strategy, seed=st.integers(0, 2**32 - 1), junk=st.text(max_size=8))
def test_random_games(options, seed, junk):
    rng = random.Random(seed)
    s = quetgames.new_game("enumeration", **options)
    n = options["size"]
    grids = 2 if options["players"] == 2 and options["goal"] == "corner" else 1
    finished = []
    steps = 0
    while not s.is_over:
        assert steps < grids * (n - 1) ** 2
        moves = s.legal_moves()
        assert moves and len(moves) == len(set(moves))
        before = s.record
        for move in moves:
            s.play(move)  # every listed move plays
        for bad in (junk, junk + "=1", "b2=" + str(rng.randint(0, 30)), rng.choice(moves) + "0", "a1=1"):
            if bad not in moves:
                with pytest.raises(IllegalMove):
                    s.play(bad)
        assert s.record == before
        grid_before = s.view()["board"]["grid"]
        s = s.play(rng.choice(moves))
        board = s.view()["board"]
        if board["grid"] != grid_before:
            finished.append(board["finished"][-1])
        steps += 1
    assert steps == grids * (n - 1) ** 2
    board = s.view()["board"]
    finished.append(board["values"])
    for values in finished:
        check_grid(values, n)
    # Independent scores from the final grids.
    values = finished[-1]
    odd = sum(v % 2 for row in values for v in row)
    even = n * n - odd
    if options["goal"] == "corner":
        expected = tuple(g[n - 1][n - 1] for g in finished)
    elif options["players"] == 2:
        expected = (odd, even)
    else:
        expected = (odd if options["target"] == "odd" else even,)
    assert s.scores == expected
    best = max(expected)
    assert s.winners == tuple(i for i, x in enumerate(expected) if x == best)
    assert s.legal_moves() == [] and s.to_move == ()
    assert board["candidates"] == {}
    t = quetgames.load(s.record)
    assert t == s and t.view() == s.view()
    json.dumps(s.view())


def test_the_view_says_who_collects_which_parity():
    board = lambda **o: quetgames.new_game("enumeration", **o).view()["board"]["collectors"]
    assert board(goal="parity") == {"odd": 0, "even": 1}
    assert board(goal="parity", players=1, target="even") == {"odd": None, "even": 0}
    assert board(goal="corner") == {"odd": None, "even": None}
