"""Prime Target: the rules, one test each, plus notation, records and random games."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quetgames
from quetgames import IllegalMove, InvalidOptions, InvalidRecord
from quetgames.games import prime_target


def play_all(state, moves):
    for move in moves:
        state = state.play(move)
    return state


def trial_division_is_prime(n):
    """Slow but obviously right: try every 6k ± 1 divisor up to the square root."""
    if n < 4:
        return n >= 2
    if n % 2 == 0 or n % 3 == 0:
        return False
    d = 5
    while d * d <= n:
        if n % d == 0 or n % (d + 2) == 0:
            return False
        d += 6
    return True


def naive_prime(n):
    """An independent primality check for the recounts below."""
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


def centre_moves(values):
    """Centre moves writing values[w] into wedge w + 1, wedge 1 first."""
    return [f"{v}@{w + 1}" for w, v in enumerate(values)]


def board(state):
    return state.view()["board"]


# A 4-ray game (2 players, k = 2, so 4 rings outside the centre). The centre,
# wedge 1 first going clockwise, holds 1 2 3 4:
#
#            top
#        4    |    1          wedge w of a new ring sits outside wedge w
#     --------+--------       and the clockwise wedge w + 1 of the ring
#        3    |    2          inside it; wedge 4 wraps round to wedge 1.
#
# Ring 1, all differences: |1-2| |2-3| |3-4| |4-1| = 1 1 1 3
# Ring 2, all differences: |1-1| |1-1| |1-3| |3-1| = 0 0 2 2
# Ring 3: wedges 1, 2 and 4 have a 0 inside (sum = difference), only wedge 3
#         (2 and 2: 4 or 0) has a choice.
SMALL = dict(players=2, k=2, rays=4)
SMALL_CENTRE = centre_moves([1, 2, 3, 4])


def small_game():
    return play_all(quetgames.new_game("prime-target", **SMALL), SMALL_CENTRE)


# -- the seed's worked example -----------------------------------------------


def test_seed_example_two_and_six_give_eight_or_four():
    # Centre wedge 1 holds 2 and wedge 2 (clockwise of it) holds 6:
    #
    #     ring 1:   [ 8 or 4 ] ...
    #     centre:   [ 2 ][ 6 ][ 1 ][ 3 ][ 4 ][ 5 ][ 7 ][ 8 ]
    state = play_all(quetgames.new_game("prime-target"), centre_moves([2, 6, 1, 3, 4, 5, 7, 8]))
    choice = board(state)["choices"][0]
    assert (choice["sum"], choice["difference"]) == (8, 4)
    assert state.play("+" * 8).rings[0][0] == 8
    assert state.play("-" + "+" * 7).rings[0][0] == 4
    assert state.preview_ring("-+++++++")["values"][0] == 4


# -- the target and turn order ------------------------------------------------


def test_target_has_players_times_k_rings_plus_the_centre():
    assert board(quetgames.new_game("prime-target"))["ring_count"] == 5
    b = board(quetgames.new_game("prime-target", players=3, k=4, rays=6))
    assert b["ring_count"] == 13 and b["rays"] == 6
    assert b["rings"] == [[None] * 6]


def test_defaults_and_option_ranges():
    assert quetgames.new_game("prime-target").options == {"players": 2, "k": 2, "rays": 8}
    for bad in [dict(players=1), dict(players=7), dict(k=1), dict(k=6), dict(rays=3), dict(rays=13), dict(rays=True)]:
        with pytest.raises(InvalidOptions):
            quetgames.new_game("prime-target", **bad)


def test_seats_rotate_and_the_rings_start_again_with_player_one():
    # 3 players, 4 rays: the centre takes moves by P1 P2 P3 P1; then the ring
    # phase starts over with P1 (not P2, who would be next in rotation).
    state = quetgames.new_game("prime-target", players=3, k=2, rays=4)
    seen = []
    for move in centre_moves([4, 1, 3, 2]):
        seen.append(state.to_move)
        state = state.play(move)
    assert seen == [(0,), (1,), (2,), (0,)]
    rings = []
    while not state.is_over:
        rings.append(state.to_move[0])
        state = state.play(state.legal_moves()[0])
    assert rings == [0, 1, 2, 0, 1, 2]  # k = 2 rings each
    assert state.to_move == () and state.legal_moves() == []


def test_centre_moves_must_use_a_new_value_and_an_empty_wedge():
    state = quetgames.new_game("prime-target").play("5@3")
    with pytest.raises(IllegalMove, match="5 is already written in the centre, in wedge 3"):
        state.play("5@1")
    with pytest.raises(IllegalMove, match="wedge 3 of the centre already holds 5"):
        state.play("6@3")
    b = board(state)
    assert b["free_values"] == [1, 2, 3, 4, 6, 7, 8]
    assert b["free_wedges"] == [1, 2, 4, 5, 6, 7, 8]
    assert b["rings"] == [[None, None, 5, None, None, None, None, None]]
    assert b["phase"] == "centre" and b["next_ring"] == 0


def test_centre_legal_moves_by_value_then_wedge():
    state = quetgames.new_game("prime-target", rays=4).play("2@3")
    # Free values 1 3 4, free wedges 1 2 4.
    assert state.legal_moves() == ["1@1", "1@2", "1@4", "3@1", "3@2", "3@4", "4@1", "4@2", "4@4"]
    assert len(quetgames.new_game("prime-target", rays=12).legal_moves()) == 144
    assert quetgames.new_game("prime-target", rays=12).legal_moves()[12:14] == ["2@1", "2@2"]


def test_a_full_centre_is_a_permutation_and_scores_nothing():
    # The centre 2 3 4 1 holds the primes 2 and 3, yet nobody scores for it.
    state = play_all(quetgames.new_game("prime-target", rays=4), centre_moves([2, 3, 4, 1]))
    assert state.scores == (0, 0)
    assert sorted(board(state)["rings"][0]) == [1, 2, 3, 4]
    assert board(state)["phase"] == "rings" and board(state)["next_ring"] == 1


# -- rings ----------------------------------------------------------------------


def test_each_wedge_combines_the_wedge_inside_and_its_clockwise_neighbour():
    state = small_game()
    #   centre 1 2 3 4 -> sums 1+2 2+3 3+4 4+1 (the last wraps round)
    assert state.play("++++").rings[0] == (3, 5, 7, 5)
    assert state.play("----").rings[0] == (1, 1, 1, 3)
    assert state.play("+-+-").rings[0] == (3, 1, 7, 3)
    assert board(state)["inner"] == [1, 2, 3, 4]


def test_ring_legal_moves_are_ascii_ordered_plus_before_minus():
    state = small_game()
    moves = state.legal_moves()
    assert moves[:3] == ["++++", "+++-", "++-+"] and moves[-1] == "----"
    assert moves == sorted(moves) and len(moves) == 16
    # Each move makes a different ring.
    assert len({tuple(state.preview_ring(m)["values"]) for m in moves}) == 16


def test_a_zero_inside_makes_sum_and_difference_one_move_written_plus():
    state = play_all(small_game(), ["----", "----"])
    assert board(state)["rings"][2] == [0, 0, 2, 2]
    # Ring 3: inside wedge 1 is 0 & 0, wedge 2 is 0 & 2, wedge 3 is 2 & 2,
    # wedge 4 is 2 & 0 (wrapping). Only wedge 3 has two different results.
    assert state.legal_moves() == ["++++", "++-+"]
    assert [c["same"] for c in board(state)["choices"]] == [True, True, False, True]
    # A '-' where the results agree is accepted and written as '+'.
    played = state.play("-+--")
    assert played.history[-1] == "++-+"
    assert played.rings[-1] == (0, 2, 0, 2)
    assert played == state.play("++-+")


# -- scoring ---------------------------------------------------------------------


def test_exactly_one_prime_scores_its_value():
    # Ring 1 = 1 1 1 3 holds a single prime, 3: Player 1 scores 3, not 1.
    state = small_game().play("----")
    assert state.scores == (3, 0)
    assert board(state)["ring_scores"] == [{"ring": 1, "seat": 0, "primes": [False, False, False, True], "score": 3}]


def test_a_prime_twice_counts_twice():
    # Ring 2 = 0 0 2 2: the prime 2 in two wedges is two primes -> 2 points.
    state = play_all(small_game(), ["----", "----"])
    assert state.scores == (3, 2)


def test_several_primes_score_their_count_and_none_score_zero():
    # Ring 1 = 3 5 7 5: four prime wedges -> 4 points (not 3 + 5 + 7 + 5).
    assert small_game().play("++++").scores == (4, 0)
    # Rays 6, centre 1 3 5 2 4 6; all sums: 4 8 7 6 10 7 -> two primes -> 2.
    state = play_all(quetgames.new_game("prime-target", rays=6), centre_moves([1, 3, 5, 2, 4, 6]))
    assert state.play("++++++").scores == (2, 0)
    # All differences: 2 2 3 2 2 5 -> six primes -> 6.
    assert state.play("------").scores == (6, 0)
    # Sums but wedge 3 a difference: 4 8 3 6 10 7 -> 3 and 7, two primes -> 2.
    assert state.play("++-+++").scores == (2, 0)
    # Ring 1 = 4 8 1 6 10 1: no primes -> 0.
    #   wedge 3: |5-2| = 3 is prime, so use a different position instead.
    state = play_all(quetgames.new_game("prime-target", rays=4), centre_moves([1, 3, 4, 2]))
    # 1+3=4, |3-4|=1, 4+2=6, |2-1|=1 -> 4 1 6 1: no prime.
    assert state.play("+-+-").scores == (0, 0)


def test_whole_game_scores_and_shared_win():
    # Ring 1 (P1) 1 1 1 3 -> 3; ring 2 (P2) 0 0 2 2 -> 2; ring 3 (P1) 0 2 0 2
    # -> 2; ring 4 (P2): every wedge has a 0 inside, the only move is ++++,
    # giving 2 2 2 2 -> 4. Totals 5 and 6: Player 2 wins.
    state = play_all(small_game(), ["----", "----", "++-+"])
    assert state.legal_moves() == ["++++"]
    state = state.play("++++")
    assert state.rings[-1] == (2, 2, 2, 2)
    assert state.is_over and state.scores == (5, 6) and state.winners == (1,)
    assert state.view()["status"] == "Game over: Player 2 wins with 6"
    assert board(state)["phase"] == "over" and board(state)["next_ring"] is None
    # Ring 3 as ++++ instead: 0 2 4 2 -> 2 primes -> 2; ring 4 all sums:
    # 0+2 2+4 4+2 2+0 = 2 6 6 2 -> 2 primes -> 2. Totals 5 and 4.
    other = play_all(small_game(), ["----", "----", "++++", "++++"])
    assert other.rings[-1] == (2, 6, 6, 2) and other.scores == (5, 4) and other.winners == (0,)
    # A tie: rays 4, centre
    # 1 2 3 4, P1 ++++ (3 5 7 5 -> 4), P2 ---- (2 2 2 2 -> 4), P1 ++++ (4 4 4 4
    # -> 0), P2 ---- (0 0 0 0 -> 0). Totals 4 and 4: shared.
    tie = play_all(small_game(), ["++++", "----", "++++", "----"])
    assert tie.scores == (4, 4) and tie.winners == (0, 1)
    assert tie.view()["status"] == "Game over: Player 1 and Player 2 share the win with 4 each"


# -- preview -----------------------------------------------------------------------


def test_preview_ring_matches_play_and_changes_nothing():
    state = small_game()
    for move in state.legal_moves():
        preview = state.preview_ring(move)
        after = state.play(move)
        assert preview["values"] == list(after.rings[-1])
        assert preview["primes"] == [naive_prime(v) for v in preview["values"]]
        assert preview["score"] == after.scores[0]
    assert state.history == tuple(SMALL_CENTRE) and state.rings == ()


def test_preview_ring_errors():
    fresh = quetgames.new_game("prime-target")
    with pytest.raises(IllegalMove, match="centre is not full yet"):
        fresh.preview_ring("++++++++")
    state = small_game()
    with pytest.raises(IllegalMove, match="as text"):
        state.preview_ring(5)
    with pytest.raises(IllegalMove, match="has 3 signs"):
        state.preview_ring("+++")
    with pytest.raises(IllegalMove, match="far too long"):
        state.preview_ring("+" * 5000)
    with pytest.raises(IllegalMove, match="not a ring move"):
        state.preview_ring("++ +")
    over = play_all(state, ["++++"] * 4)
    with pytest.raises(IllegalMove, match="game is over"):
        over.preview_ring("++++")


# -- errors -------------------------------------------------------------------------


@pytest.mark.parametrize("move", ["05@3", " 5@3", "+5@3", "5@03", "5@3 ", "5 @3", "5@", "@3", "5", "", "5@3@1", "five@3", "5:3", "100@1", "-1@2"])
def test_only_canonical_centre_moves(move):
    state = quetgames.new_game("prime-target")
    with pytest.raises(IllegalMove, match="is not a centre move"):
        state.play(move)
    assert state.history == () and state.centre == (0,) * 8


def test_centre_move_error_messages():
    state = quetgames.new_game("prime-target")
    with pytest.raises(IllegalMove, match="9 cannot go in the centre: it takes the numbers 1 to 8"):
        state.play("9@1")
    with pytest.raises(IllegalMove, match="there is no wedge 9: the wedges are numbered 1 to 8"):
        state.play("1@9")
    with pytest.raises(IllegalMove, match="centre is not full yet"):
        state.play("++++++++")
    with pytest.raises(IllegalMove, match="as text"):
        state.play(53)


@pytest.mark.parametrize("move", ["+-+x", "++ +", "+-+-\n", "pppp", "0000", "+ + "])
def test_only_signs_make_a_ring_move(move):
    state = small_game()
    with pytest.raises(IllegalMove, match="is not a ring move"):
        state.play(move)
    assert state.rings == ()


def test_ring_move_error_messages():
    state = small_game()
    with pytest.raises(IllegalMove, match="'\\+\\+\\+' has 3 signs, but ring 1 has 4 wedges"):
        state.play("+++")
    with pytest.raises(IllegalMove, match="has 5 signs"):
        state.play("+++++")
    with pytest.raises(IllegalMove, match="the centre is full: complete ring 1 instead"):
        state.play("1@1")
    with pytest.raises(IllegalMove, match="far too long"):
        state.play("+" * 201)
    over = play_all(state, ["++++"] * 4)
    with pytest.raises(IllegalMove, match="game is over"):
        over.play("++++")
    with pytest.raises(IllegalMove, match="not Player 2's turn"):
        state.play("++++", seat=1)


# -- records ---------------------------------------------------------------------------


def test_record_encoding_is_compact_and_round_trips():
    state = quetgames.new_game("prime-target", rays=12).play("10@12")
    # value 10 -> 'a', wedge 12 -> 'c' (base 36)
    assert state.moves_record == "q1.pt.p2_k2_r12.ac"
    game = small_game()
    # centre 1@1 2@2 3@3 4@4 -> 11 22 33 44
    assert game.moves_record == "q1.pt.p2_k2_r4.11223344"
    # "-+++" is the mask 1 -> "AB"; "----" is 15 -> "AP"
    assert game.play("-+++").moves_record.endswith(".11223344AB")
    assert game.play("----").moves_record.endswith(".11223344AP")
    # A 12-wedge all-differences ring, mask 4095 = 63 * 64 + 63 -> "__".
    big = play_all(quetgames.new_game("prime-target", rays=12), centre_moves(range(1, 13))).play("-" * 12)
    assert big.moves_record.endswith("__")
    for s in (state, game, big, play_all(game, ["----", "----", "++-+"])):
        loaded = quetgames.load(s.record)
        assert loaded == s and loaded.view() == s.view() and loaded.history == s.history


def test_worst_case_record_is_short():
    # Default options: 8 centre moves and 4 rings, 2 characters each.
    rng = random.Random(7)
    for options in ({}, dict(players=6, k=5, rays=12)):
        state = quetgames.new_game("prime-target", **options)
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
        moves = state.record.split(".")[3]
        assert len(moves) == 2 * (state.options["rays"] + state.options["players"] * state.options["k"])
        assert len(state.record) <= 1000


@pytest.mark.parametrize(
    "moves",
    [
        "1",  # odd length
        "112",
        "01223344",  # value 0
        "51223344",  # value 5 with 4 rays
        "15223344",  # wedge 5
        "1A223344",  # capital in a centre move
        "11113344",  # value 1 twice
        "11213344",  # wedge 1 twice
        "11223344A",  # odd
        "11223344AQ",  # mask 16: a fifth wedge
        "11223344BA",  # mask 64
        "11223344A!",
        "11223344A.",
        "11223344A~",
        "11223344APAP-A",  # ring mask 62 * 64: far beyond 4 wedges
        "11223344APAPAFAA",  # a '-' in wedge 1 of ring 3, where only '+' is written
        "11223344AAAAAAAAAA",  # five rings in a 4-ring game
    ],
)
def test_bad_records_are_refused(moves):
    with pytest.raises(InvalidRecord):
        quetgames.load(f"q1.pt.p2_k2_r4.{moves}")


def test_good_small_record_loads():
    state = quetgames.load("q1.pt.p2_k2_r4.11223344APAPAE")
    assert state.history[-3:] == ("----", "----", "++-+")


# -- view ---------------------------------------------------------------------------------


def test_view_is_json_ready_and_complete():
    state = play_all(small_game(), ["----"])
    view = state.view()
    assert json.loads(json.dumps(view)) == view
    b = view["board"]
    assert set(b) == {"rays", "ring_count", "phase", "rings", "next_ring", "ring_scores", "free_values", "free_wedges", "inner", "choices",
                      "legal_listed"}
    assert b["legal_listed"] is True
    assert b["rings"] == [[1, 2, 3, 4], [1, 1, 1, 3]]
    assert b["next_ring"] == 2 and b["inner"] == [1, 1, 1, 3]
    assert b["choices"][2] == {"sum": 4, "difference": 2, "same": False, "sum_prime": False, "difference_prime": True}
    assert b["free_values"] == [] and b["free_wedges"] == []
    assert view["status"] == "Player 2 to complete ring 2 of 4"
    assert view["legal_moves"] == state.legal_moves()
    opening = quetgames.new_game("prime-target").view()
    assert opening["status"] == "Player 1 to write a number in the centre (0 of 8 written)"
    assert opening["board"]["inner"] is None and opening["board"]["choices"] is None


def test_game_description_mentions_the_rules():
    game = quetgames.GAMES["prime-target"]
    assert game.code == "pt" and game.inventor == "Leroy Quet"
    assert "8 (2 + 6)" in game.rules and "4 (6 − 2)" in game.rules
    assert [o["name"] for o in game.describe()["options"]] == ["players", "k", "rays"]


# -- primality ---------------------------------------------------------------------------


def test_primality_agrees_with_trial_division():
    for n in range(-5, 20000):
        assert prime_target.is_prime(n) == trial_division_is_prime(n), n
    rng = random.Random(3)
    for _ in range(300):
        n = rng.randrange(10**9, 13 * 2**30)
        assert prime_target.is_prime(n) == trial_division_is_prime(n), n


def test_primality_on_hard_cases_and_the_largest_values():
    # Strong pseudoprimes that fool some base sets, Carmichael numbers, and
    # primes near the largest value a 12-ray, 30-ring target can hold
    # (each ring at most doubles: < 12 * 2**30).
    for composite in (561, 41041, 2047, 1373653, 25326001, 3215031751, 2152302898747, 3474749660383, 341550071728321):
        assert not prime_target.is_prime(composite)
    for prime in (2, 3, 37, 41, 43, 2**31 - 1, 2**61 - 1):
        assert prime_target.is_prime(prime)
    top = 12 * 2**30
    for n in range(top - 200, top):
        assert prime_target.is_prime(n) == trial_division_is_prime(n), n
    # The all-sums game from 1..12 reaches the biggest numbers; scoring it is quick.
    state = play_all(quetgames.new_game("prime-target", players=6, k=5, rays=12), centre_moves(range(1, 13)))
    for _ in range(30):
        state = state.play("+" * 12)
    assert max(state.rings[-1]) == 8409955948 and max(state.rings[-1]) < 12 * 2**30
    assert list(state.scores) == recount(state)


# -- random games ------------------------------------------------------------------------


def naive_ring_score(ring):
    primes = [v for v in ring if naive_prime(v)]
    return primes[0] if len(primes) == 1 else len(primes)


def recount(final):
    """Scores from the final board alone, checking every ring was built legally."""
    b = final.view()["board"]
    rays, players = b["rays"], final.options["players"]
    rings = b["rings"]
    assert sorted(rings[0]) == list(range(1, rays + 1))
    assert len(rings) == b["ring_count"] == players * final.options["k"] + 1
    scores = [0] * players
    for j in range(1, len(rings)):
        inner, ring = rings[j - 1], rings[j]
        for w in range(rays):
            a, c = inner[w], inner[(w + 1) % rays]
            assert ring[w] in (a + c, abs(a - c))
        # Primes are counted only among modest numbers by the naive check;
        # beyond that, trust the numbers module's trial division.
        values = [naive_prime(v) if v < 10**8 else trial_division_is_prime(v) for v in ring]
        primes = [v for v, p in zip(ring, values) if p]
        scores[(j - 1) % players] += primes[0] if len(primes) == 1 else len(primes)
    return scores


BAD_MOVES = st.one_of(
    st.text(max_size=14),
    st.sampled_from(["0@1", "1@0", "13@1", "1@13", "+", "-", "+-" * 7, "++++++++++++++", "5@3 ", "01@1"]),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    k=st.integers(2, 3),
    rays=st.integers(4, 9),
    seed=st.integers(0, 2**32),
    bad=st.lists(BAD_MOVES, min_size=1, max_size=4),
)
def test_random_games(players, k, rays, seed, bad):
    rng = random.Random(seed)
    state = quetgames.new_game("prime-target", players=players, k=k, rays=rays)
    bound = rays + players * k
    for _ in range(bound):
        if state.is_over:
            break
        legal = state.legal_moves()
        assert legal and len(legal) == len(set(legal)) and legal == (sorted(legal) if "@" not in legal[0] else legal)
        for text in bad:
            if text in legal:
                continue
            before = state.record
            try:
                state.play(text)
            except IllegalMove:
                pass
            else:
                # Only a ring move with '-' where only '+' is listed may pass.
                assert set(text) <= {"+", "-"} and len(text) == rays
            assert state.record == before
        move = rng.choice(legal)
        new = state.play(move)
        assert new.history == state.history + (move,)
        state = new
    assert state.is_over and len(state.history) == bound
    assert list(state.scores) == recount(state)
    best = max(state.scores)
    assert state.winners == tuple(i for i, s in enumerate(state.scores) if s == best)
    loaded = quetgames.load(state.record)
    assert loaded == state and loaded.view() == state.view()


@settings(max_examples=20, deadline=None)
@given(players=st.integers(5, 6), k=st.integers(4, 5), seed=st.integers(0, 2**32))
def test_random_big_games(players, k, seed):
    rng = random.Random(seed)
    state = quetgames.new_game("prime-target", players=players, k=k, rays=12)
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
    assert len(state.history) == 12 + players * k
    assert list(state.scores) == recount(state)
    assert quetgames.load(state.record) == state


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), rays=st.integers(4, 8))
def test_ring_moves_list_each_distinct_ring_once(seed, rays):
    rng = random.Random(seed)
    state = quetgames.new_game("prime-target", rays=rays)
    while not state.is_over:
        legal = state.legal_moves()
        if "@" not in legal[0]:
            inner = state.view()["board"]["inner"]
            # Independent count: a wedge has two results unless a 0 is inside.
            choices = sum(1 for w in range(rays) if inner[w] and inner[(w + 1) % rays])
            assert len(legal) == 2**choices
            assert len({tuple(state.preview_ring(m)["values"]) for m in legal}) == len(legal)
            assert legal == sorted(legal)
        state = state.play(rng.choice(legal))


def test_a_ring_reads_in_words_wherever_a_move_is_listed():
    """The moves list, the hint and the computer's "played" line say which
    wedges took the sum and which the difference; records keep the signs."""
    state = quetgames.new_game("prime-target", players=2, k=2, rays=8)
    for move in ("8@8", "7@7", "6@6", "5@5", "4@4", "3@3", "2@2", "1@1"):
        state = state.play(move)
    ring = next(m for m in state.legal_moves() if m.count("-") >= 3 and m.startswith("--"))
    words = state.move_words(ring)
    assert words.startswith("ring 1: ") and "+" not in words and "-" not in words.removeprefix("ring 1: ")
    after = state.play(ring)
    assert after.view()["moves"][-1]["words"] == words and after.history[-1] == ring
    assert state.move_words("++++++++") == "ring 1: sum in every wedge"
    assert state.move_words("-+++++--") == "ring 1: sum in wedges 2 to 6; difference in wedges 1, 7 and 8"


def ring_phase(rays: int, centre: list[int]) -> quetgames.State:
    state = quetgames.new_game("prime-target", k=3, rays=rays)
    for wedge, value in enumerate(centre, start=1):
        state = state.play(f"{value}@{wedge}", state.to_move[0])
    return state


def test_a_ring_of_thousands_of_patterns_is_not_listed_in_the_view_but_still_played():
    # 12 rays, no 0 inside: every wedge has two choices, 4,096 patterns
    state = ring_phase(12, list(range(1, 13)))
    seat = state.to_move[0]
    assert len(state.legal_moves(seat)) == 4096
    view = state.view(seat)
    assert view["legal_moves"] == [] and view["board"]["legal_listed"] is False
    assert len(json.dumps(view)) < 5000  # (65 kB with the list)
    after = state.play("-" * 12, seat)  # any pattern is still the engine's to check, and legal
    assert after.history[-1] == "-" * 12
    with pytest.raises(quetgames.IllegalMove):
        state.play("+" * 11, seat)
    # 8 rays: 256 patterns, listed as before
    small = ring_phase(8, list(range(1, 9)))
    small_view = small.view(small.to_move[0])
    assert small_view["board"]["legal_listed"] is True
    assert small_view["legal_moves"] == small.legal_moves(small.to_move[0])
