"""Computer players: every level plays legal moves in every game, decides the
same way from the same seed, never peeks at a secret pick, and refuses bad
arguments; the solitaire best of Enumeration agrees with a brute force; the
command line plays, shows and runs tournaments.

Speed is measured by the tournament benchmark (docs/TOURNAMENT.md), not here:
the strong level runs on small iteration caps so the whole file stays fast.
"""

from __future__ import annotations

import random

import pytest

import quetgames
from quetgames import IllegalMove, InvalidOptions, RulesError, computer_move
from quetgames.players import LEVELS, SOLITAIRE_TABLE, solitaire_best
from quetgames.players.enumeration import _solitaire_exact

# Small options per game so positions come quickly; the defaults are played too.
SMALL = {
    "convoluted-coprimality": [{}, {"players": 3, "size": 5}],
    "enumeration": [{}, {"players": 1, "size": 4, "goal": "parity", "target": "even"}, {"goal": "parity", "size": 5}],
    "prime-target": [{}, {"players": 3, "rays": 5}],
    "multiplications": [{}, {"players": 3, "k": 3}],
    "nonconformity": [{"length": 5}, {"length": 4, "max_pick": 1_000_000, "starts": (997, 12)}],
}
GAME_IDS = sorted(quetgames.GAMES)


def random_positions(game_id, rng, count=4):
    """A few positions of `game_id` reached by random play, each with a seat to move."""
    out = []
    for options in SMALL[game_id]:
        state = quetgames.new_game(game_id, **options)
        stops = sorted(rng.sample(range(40), count))
        moves = 0
        while not state.is_over and stops:
            if moves == stops[0]:
                out.append(state)
                stops.pop(0)
            seat = rng.choice(state.to_move)
            legal = state.legal_moves(seat)
            state = state.play(rng.choice(legal[:500] + legal[-50:]), seat)
            moves += 1
    return out


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_level_plays_a_legal_move(game_id):
    rng = random.Random(game_id)
    for state in random_positions(game_id, rng):
        for seat in state.to_move:
            legal = set(state.legal_moves(seat))
            for level in LEVELS:
                move = computer_move(state, seat, level, seed=rng.randrange(1000), iterations=15)
                assert move in legal, (level, state)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_levels_play_whole_games(game_id):
    # A whole game between the levels, every move checked by play() itself.
    state = quetgames.new_game(game_id, **SMALL[game_id][0])
    levels = {0: "strong", 1: "greedy", 2: "random"}
    while not state.is_over:
        for seat in state.to_move:
            state = state.play(computer_move(state, seat, levels[seat % 3], seed=3, iterations=8), seat)
            if state.is_over:
                break
    assert state.winners


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_seat_may_be_left_out_when_one_seat_is_to_move(game_id):
    state = quetgames.new_game(game_id, **SMALL[game_id][0])
    if len(state.to_move) == 2:  # Nonconformity: both choose; once one has, one is left
        state = state.play(state.legal_moves(0)[0], 0)
    assert len(state.to_move) == 1
    assert computer_move(state, level="greedy") in state.legal_moves()


def test_strong_with_a_tiny_budget_still_answers():
    for game_id in GAME_IDS:
        state = quetgames.new_game(game_id, **SMALL[game_id][0])
        seat = state.to_move[0]
        assert computer_move(state, seat, "strong", budget=0.001) in state.legal_moves(seat)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_seed_same_move(game_id):
    rng = random.Random(7)
    for state in random_positions(game_id, rng, count=2):
        seat = state.to_move[-1]
        for level in LEVELS:
            # An iteration cap makes strong independent of the machine's speed,
            # whatever the budget.
            first = computer_move(state, seat, level, seed=11, iterations=25)
            again = computer_move(state, seat, level, seed=11, budget=30, iterations=25)
            assert first == again, (level, state)


def test_random_depends_on_the_seed_and_the_position():
    state = quetgames.new_game("multiplications")
    picks = {computer_move(state, level="random", seed=s) for s in range(20)}
    assert len(picks) > 5
    # Successive moves of one seeded player are not all the same square index.
    moves = []
    for _ in range(6):
        move = computer_move(state, level="random", seed=1)
        moves.append(state.legal_moves().index(move))
        state = state.play(move)
    assert len(set(moves)) > 1


# -- Nonconformity: the secret pick stays secret -------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_nonconformity_computer_never_sees_the_pending_pick(level):
    for options in ({"length": 6, "seed": 4}, {"length": 5, "max_pick": 1_000_000, "starts": (12, 30)}):
        state = quetgames.new_game("nonconformity", **options)
        rng = random.Random(5)
        for _ in range(2):  # a couple of revealed rounds first
            picks = {s: rng.choice(state.legal_moves(s)[:300]) for s in (0, 1)}
            state = state.play(picks[0], 0).play(picks[1], 1)
        for computer, human in ((1, 0), (0, 1)):
            blind = computer_move(state, computer, level, seed=9, iterations=40)
            for pick in rng.sample(state.legal_moves(human)[:2000], 8):
                waiting = state.play(pick, human)
                assert waiting.to_move == (computer,)
                assert computer_move(waiting, computer, level, seed=9, iterations=40) == blind


def test_nonconformity_with_a_million_picks_answers_without_listing_them():
    state = quetgames.new_game("nonconformity", length=4, max_pick=1_000_000, starts=(6, 10))
    for level in LEVELS:
        for seat in (0, 1):
            move = computer_move(state, seat, level, seed=2, iterations=30)
            assert state.play(move, seat).to_move == (1 - seat,)  # a legal pick: play() took it


# -- Multiplications: numbering is solved exactly --------------------------------


def test_multiplications_strong_numbers_optimally():
    rng = random.Random(3)
    for _ in range(3):
        state = quetgames.new_game("multiplications")
        while state.view()["board"]["phase"] == "mark":
            state = state.play(rng.choice(state.legal_moves()))

        def best_difference(s):
            # Brute force: the mover's best final lead over the other seat.
            if s.is_over:
                return 0
            me = s.to_move[0]
            return max(
                (s.play(m).scores[me] - s.scores[me]) - best_difference(s.play(m)) for m in s.legal_moves()
            )

        me = state.to_move[0]
        move = computer_move(state, level="strong", iterations=10)
        after = state.play(move)
        assert (after.scores[me] - state.scores[me]) - best_difference(after) == best_difference(state)


# -- bad arguments ------------------------------------------------------------------


def test_bad_arguments_are_refused():
    state = quetgames.new_game("multiplications")
    for level in ["hard", "", None, 3, "Strong"]:
        with pytest.raises(InvalidOptions):
            computer_move(state, level=level)
    for budget in [0, -1, True, "1", float("nan"), float("inf"), 61, None]:
        with pytest.raises(InvalidOptions):
            computer_move(state, budget=budget)
    for seed in [-1, 1.5, True, "0", 2**64, None]:
        with pytest.raises(InvalidOptions):
            computer_move(state, seed=seed)
    for iterations in [0, -5, 1.0, True, "9", 10**9]:
        with pytest.raises(InvalidOptions):
            computer_move(state, iterations=iterations)
    with pytest.raises(InvalidOptions):
        computer_move(state.record)
    for seat in [1, 2, -1, True, "0", 1.0]:
        with pytest.raises(IllegalMove):
            computer_move(state, seat)
    both = quetgames.new_game("nonconformity")
    with pytest.raises(IllegalMove, match="several"):
        computer_move(both)
    over = quetgames.new_game("nonconformity", length=2, seed=1)
    over = over.play(over.legal_moves(0)[0], 0).play(over.legal_moves(1)[0], 1)
    assert over.is_over
    with pytest.raises(IllegalMove, match="over"):
        computer_move(over, 0)
    with pytest.raises(IllegalMove, match="over"):
        computer_move(over)


# -- Enumeration solitaire -----------------------------------------------------------


def brute_force_best(size, goal, target):
    """The best solitaire score over every order of play and every choice,
    through the engine itself (positions merged by their grids)."""
    options = {"players": 1, "size": size, "goal": goal}
    if goal == "parity":
        options["target"] = target
    memo = {}

    def best(state):
        if state.is_over:
            return state.scores[0]
        key = str(state.view()["board"]["values"])
        if key not in memo:
            memo[key] = max(best(state.play(m)) for m in state.legal_moves())
        return memo[key]

    return best(quetgames.new_game("enumeration", **options))


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("goal,target", [("corner", "odd"), ("parity", "odd"), ("parity", "even")])
def test_solitaire_best_matches_a_brute_force(size, goal, target):
    answer = solitaire_best(size, goal, target)
    assert answer["exact"] and answer["score"] == brute_force_best(size, goal, target)


def test_solitaire_table_is_proved():
    # Every tabled value that the exact search redoes quickly is recomputed.
    for (size, goal, target), score in SOLITAIRE_TABLE.items():
        if size <= 6:
            assert _solitaire_exact(size, goal, target) == score


def test_solitaire_large_sizes_are_marked_as_bounds():
    answer = solitaire_best(9, "parity", "even")
    assert not answer["exact"] and answer["score"] > 0 and "bound" in answer["method"]
    for bad in [(2, "corner", "odd"), (27, "corner", "odd"), (True, "corner", "odd"), (5, "middle", "odd"), (5, "parity", "red")]:
        with pytest.raises(RulesError):
            solitaire_best(*bad)


def test_solitaire_exact_sizes_are_all_tabled():
    from quetgames.players.enumeration import SOLITAIRE_EXACT_MAX

    for size in range(3, SOLITAIRE_EXACT_MAX + 1):
        for goal, target in [("corner", "odd"), ("parity", "odd"), ("parity", "even")]:
            assert (size, goal, target) in SOLITAIRE_TABLE
            assert solitaire_best(size, goal, target)["exact"]
    assert not solitaire_best(SOLITAIRE_EXACT_MAX + 1)["exact"]


# -- Prime Target: the best ring without listing every ring -------------------------


def test_prime_target_best_ring_matches_the_full_list():
    from quetgames.players.prime_target import best_ring as _best_ring

    rng = random.Random(4)
    for options in ({}, {"rays": 4}, {"rays": 5, "players": 3}, {"rays": 12, "k": 2}):
        state = quetgames.new_game("prime-target", **options)
        while not state.is_over:
            if state.view()["board"]["phase"] == "rings":
                inner = tuple(state.view()["board"]["inner"])
                best = max(state.preview_ring(m)["score"] for m in state.legal_moves())
                assert state.preview_ring(_best_ring(inner))["score"] == best
            state = state.play(rng.choice(state.legal_moves()))


# -- the command line ------------------------------------------------------------------


def run_cli(argv, text=""):
    import io

    from quetgames.__main__ import main

    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(text), stdout=out)
    return code, out.getvalue()


def test_cli_show_prints_the_board_as_text():
    state = quetgames.new_game("multiplications").play("c4")
    code, out = run_cli(["show", state.record])
    assert code == 0 and "Multiplications" in out and "Moves: c4" in out
    assert run_cli(["show", "q1.zz.."])[0] == 2
    for game_id in GAME_IDS:
        state = quetgames.new_game(game_id, **SMALL[game_id][0])
        for _ in range(3):
            seat = state.to_move[0]
            state = state.play(state.legal_moves(seat)[0], seat)
        code, out = run_cli(["show", state.record])
        assert code == 0 and quetgames.GAMES[game_id].name in out


def test_cli_play_reads_moves_and_answers_bad_input_plainly():
    moves = "\n".join(["hello", "moves", "a1=7", "b2=0"]) + "\n"
    code, out = run_cli(["play", "--game", "enumeration", "-o", "size=3", "--level", "random"], moves)
    assert code == 0
    assert "That move cannot be played" in out and "Legal moves: b2=0" in out
    assert "Traceback" not in out
    code, out = run_cli(["play", "--game", "multiplications", "--level", "greedy", "--seat", "2"], "quit\n")
    assert code == 0 and "Computer (greedy) plays" in out and "record" in out
    # A game played to the end by feeding the first legal move each time.
    state = quetgames.new_game("prime-target", rays=4)
    code, out = run_cli(["play", "--game", "prime-target", "-o", "rays=4", "--level", "strong", "--iterations", "5"],
                        "\n".join(["1@1", "2@2", "3@3", "4@4", "++++", "++++", "++++", "++++", "----"] * 2))
    assert code == 0 and "Game over" in out
    assert run_cli(["play", "--game", "enumeration", "-o", "size=99"])[0] == 2
    assert run_cli(["play", "--game", "enumeration", "-o", "nonsense"])[0] == 2


def test_cli_tournament_prints_win_rates_with_intervals():
    code, out = run_cli(["tournament", "--game", "enumeration", "-o", "size=4", "--games", "4", "--iterations", "5"])
    assert code == 0
    assert out.count("| enumeration |") == 3  # random-greedy, random-strong, greedy-strong
    assert "%" in out
    code, out = run_cli(["tournament", "--game", "nonconformity", "-o", "length=4", "--games", "2",
                         "--pairs", "greedy:random", "--json"])
    assert code == 0 and '"a": "greedy"' in out
    for bad in (["--levels", "random"], ["--levels", "random,expert"], ["--budget", "0"], ["--games", "0"],
                ["--pairs", "strong"], ["--iterations", "0"]):
        assert run_cli(["tournament", "--game", "enumeration", "--games", "1"] + bad)[0] == 2


def test_wilson_interval():
    from quetgames.__main__ import wilson

    low, high = wilson(150, 200)
    assert 0.68 < low < 0.69 and 0.80 < high < 0.81
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


# -- Convoluted Coprimality: two seats on 12 x 12 is a win for Player 2 ----------------


def test_convoluted_coprimality_default_game_is_won_by_player_2():
    # The exact search behind strong proves it: whatever Player 1 does,
    # Player 2 can knock Player 1 out by the number 72 (a few hundred nodes).
    from quetgames.players.convoluted_coprimality import PLAYER
    from quetgames.players.search import alphabeta

    state = quetgames.new_game("convoluted-coprimality")
    assert alphabeta(PLAYER, PLAYER.sim(state), 0, 72, -1.0, 2.0, [0], None, float("inf")) == 0.0
    assert alphabeta(PLAYER, PLAYER.sim(state), 1, 72, -1.0, 2.0, [0], None, float("inf")) == 1.0
    assert PLAYER.prove(state, 5.0) == 0.0  # the balance proof says the same


# -- the search's shortcuts play as the plain steps would -------------------------


@pytest.mark.parametrize("options", SMALL["enumeration"] + [{"goal": "corner", "size": 4}])
def test_enumeration_whole_rollout_equals_stepping_move_by_move(options):
    # The adapter plays a rollout on a mutable grid instead of the rules'
    # `step`: from every position of a few games, for several seeds, the
    # outcome and the draws it used must be those of the generic rollout,
    # which asks `rollout_move` for a move and plays it with `step`.
    from quetgames.players import player_for
    from quetgames.players.search import Player, simulate

    player = player_for(quetgames.GAMES["enumeration"])
    compared = 0
    for game in range(3):
        state = quetgames.new_game("enumeration", **options)
        rng = random.Random(game)
        while not state.is_over:
            sim = player.sim(state)
            for seed in range(4):
                fast_rng, slow_rng = random.Random(seed), random.Random(seed)
                fast = player.whole_rollout(sim.copy(), fast_rng)
                assert fast is not None
                steps = sim.copy()
                while steps.mover() >= 0:
                    steps.play(Player.rollout_move(player, steps, steps.mover(), slow_rng))
                scores = steps.scores()
                best = max(scores)
                winners = [s for s, x in enumerate(scores) if x == best]
                slow = tuple(1 / len(winners) if s in winners else 0.0 for s in range(state.players))
                assert fast == slow and fast_rng.random() == slow_rng.random(), (state.record, seed)
                assert simulate(player, sim.copy(), random.Random(seed)) == fast  # simulate takes the shortcut
                compared += 1
            seat = state.to_move[0]
            state = state.play(rng.choice(state.legal_moves(seat)), seat)
    assert compared > 30


def test_enumeration_rollout_move_draws_as_the_generic_rollout():
    from quetgames.players import player_for
    from quetgames.players.search import Player

    player = player_for(quetgames.GAMES["enumeration"])
    state = quetgames.new_game("enumeration", size=5)
    rng = random.Random(3)
    while not state.is_over:
        sim = player.sim(state)
        for seed in range(5):
            assert player.rollout_move(sim, 0, random.Random(seed)) == Player.rollout_move(player, sim, 0, random.Random(seed))
        seat = state.to_move[0]
        state = state.play(rng.choice(state.legal_moves(seat)), seat)


def test_coprimality_score_is_the_seats_entry_of_scores():
    from quetgames.players import player_for

    player = player_for(quetgames.GAMES["convoluted-coprimality"])
    for state in random_positions("convoluted-coprimality", random.Random(5)):
        sim = player.sim(state)
        assert [sim.score(s) for s in range(sim.players)] == list(sim.scores())


def test_nonconformity_candidates_keep_exactly_the_legal_picks():
    # `candidates` keeps a found number by its range and the seat's own terms
    # only (every one is a multiple of a prime of the last term): the same
    # picks, from the same draws, as filtering by the rules' `legal_pick`.
    from quetgames.games.nonconformity import legal_pick
    from quetgames.players.nonconformity import NonconformitySim

    checked = 0
    for state in random_positions("nonconformity", random.Random(8), count=6):
        sim = NonconformitySim(state)
        for seat in range(2):
            for per in (3, 6, 10):
                for seed in range(4):
                    rng = random.Random(seed)
                    found = sim.multiples(seat, rng, per)
                    legal = [x for x in found if legal_pick(x, sim.last[seat], sim.terms[seat], sim.top)]
                    if not legal:
                        legal = [x for x in (sim.sample(seat, rng),) if x]
                    fast_rng = random.Random(seed)
                    assert sim.candidates(seat, fast_rng, per) == sorted(legal)
                    assert fast_rng.random() == rng.random()  # the same draws used
                    checked += len(found) > len(legal)  # (some numbers found were not legal)
    assert checked > 0
