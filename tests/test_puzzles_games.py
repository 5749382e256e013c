"""Prime Target and Nonconformity puzzles (docs/PUZZLES.md), and practise
your mistakes: the proofs re-done by plain enumeration through the rules
themselves (`State.play`, no adapter, no hook), for positions small enough,
and the checks shown to catch a wrong puzzle."""

from __future__ import annotations

import copy
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
import quetgames
from quetgames import mistakes, puzzles
from quetgames.base import State
from quetgames.errors import RulesError
from quetgames.players import player_for

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = json.loads((ROOT / "docs" / "puzzles.json").read_text())
NEW = ("prime-target", "nonconformity")


def by_game(game_id: str) -> list[dict[str, Any]]:
    return [p for p in SHIPPED["puzzles"] if p["game"] == game_id]


def result(state: State, seat: int) -> float:
    winners = state.winners
    return 1.0 / len(winners) if seat in winners else 0.0


def brute(state: State, seat: int) -> float:
    """`seat`'s result under best play by both seats, every move of every
    line tried through the rules (a joint move: `seat`'s best pick against
    the other's worst for it, picks of one round never seen by the other)."""
    if state.is_over:
        return result(state, seat)
    if state.to_move == (0, 1):
        best = 0.0
        for a in state.legal_moves(seat):
            mine = state.play(a, seat)
            worst = 1.0
            for b in mine.legal_moves(1 - seat):
                worst = min(worst, brute(mine.play(b, 1 - seat), seat))
                if worst <= best:
                    break  # no better than a pick already found
            best = max(best, worst)
            if best == 1.0:
                break
        return best
    mover = state.to_move[0]
    values = (brute(state.play(m, mover), seat) for m in state.legal_moves(mover))
    return max(values) if mover == seat else min(values)


def moves_by_brute(state: State, seat: int) -> dict[str, float]:
    """Every legal move of `seat` with its result by `brute` (a joint move:
    against every pick of the other seat)."""
    found = {}
    for move in state.legal_moves(seat):
        after = state.play(move, seat)
        if state.to_move == (0, 1):
            found[move] = min(brute(after.play(b, 1 - seat), seat) for b in after.legal_moves(1 - seat))
        else:
            found[move] = brute(after, seat)
    return found


def wrong_moves(puzzle: dict[str, Any]) -> dict[str, Any]:
    state = quetgames.load(puzzle["record"])
    return puzzles._wrong(puzzle, state.legal_moves(puzzle["seat"]))


# -- what ships -------------------------------------------------------------------


@pytest.mark.parametrize("game_id", NEW)
def test_each_new_game_ships_sixty_puzzles_a_real_choice_each(game_id: str) -> None:
    found = by_game(game_id)
    assert len(found) >= 60
    for p in found:
        legal = len(quetgames.load(p["record"]).legal_moves(p["seat"]))
        assert 1 <= len(p["solutions"]) and 3 * len(p["solutions"]) <= legal, p["id"]
        assert len(p["solutions"]) + len(wrong_moves(p)) == legal


def test_a_nonconformity_puzzle_is_a_round_nobody_has_picked_in() -> None:
    # The record must not give the other seat's pick away: both seats are
    # still to choose, and nothing is pending in the record.
    for p in by_game("nonconformity"):
        state = quetgames.load(p["record"])
        assert p["joint"] is True and state.to_move == (0, 1)
        assert state.moves_record == state.secret_free(None).moves_record
        shown = puzzles.position(p)
        assert shown["joint"] and shown["view"]["board"]["pending"] == [None, None]
        assert p["id"] == puzzles.puzzle_id(p["record"], p["seat"])


SMALL_PT = sorted((p for p in by_game("prime-target") if p["options"].get("rays") == 6),
                  key=lambda p: len(quetgames.load(p["record"]).history), reverse=True)[:3]


@pytest.mark.parametrize("puzzle", SMALL_PT, ids=lambda p: p["id"])
def test_a_prime_target_puzzle_by_plain_enumeration(puzzle: dict[str, Any]) -> None:
    # Every ring of every line to the end, through State.play alone.
    state = quetgames.load(puzzle["record"])
    values = moves_by_brute(state, puzzle["seat"])
    assert sorted(m for m, v in values.items() if v == 1.0) == sorted(puzzle["solutions"])
    assert {m: v for m, v in values.items() if v < 1.0} == {m: o["value"] for m, o in wrong_moves(puzzle).items()}


def _joint_size(p: dict[str, Any]) -> int:
    state = quetgames.load(p["record"])
    return len(state.legal_moves(0)) * len(state.legal_moves(1)) * (state.rounds - state.played) ** 3


def _left(p: dict[str, Any]) -> int:
    state = quetgames.load(p["record"])
    return state.rounds - state.played


# the smallest puzzle of the last round and of the round before it
SMALL_NC = [min((p for p in by_game("nonconformity") if p["options"].get("max_pick") == 100 and _left(p) == left),
                key=_joint_size) for left in (1, 2)]


@pytest.mark.parametrize("puzzle", SMALL_NC, ids=lambda p: p["id"])
def test_a_nonconformity_puzzle_by_plain_enumeration(puzzle: dict[str, Any]) -> None:
    # Every pick of both seats in every round to the end, through State.play.
    state = quetgames.load(puzzle["record"])
    seat = puzzle["seat"]
    values = moves_by_brute(state, seat)
    assert sorted(m for m, v in values.items() if v == 1.0) == sorted(puzzle["solutions"])
    wrong = wrong_moves(puzzle)
    assert {m: v for m, v in values.items() if v < 1.0} == {m: o["value"] for m, o in wrong.items()}
    # each stored reply really holds its pick to the stored result
    for move, other in list(wrong.items())[:10]:
        after = state.play(move, seat).play(other["reply"], 1 - seat)
        assert brute(after, seat) == other["value"], move


def test_the_joint_proof_agrees_with_enumeration_in_random_small_games() -> None:
    # Positions from the end of seeded games with small numbers: one two
    # rounds from the end (slow to enumerate: every pick of both seats in
    # both rounds), five in the last round.
    rng = random.Random(3)
    for n in range(6):
        state = quetgames.GAMES["nonconformity"].new(length=4, max_pick=100, seed=n)
        while state.rounds - state.played > (2 if n == 0 else 1):
            for seat in state.to_move:
                state = state.play(rng.choice(state.legal_moves(seat)), seat)
        if state.to_move != (0, 1):
            continue
        # (the two-round position for one seat only: enumerating it is most of this test's time)
        for seat in (0,) if n == 0 else (0, 1):
            joint = player_for(state.game).exact_joint(state, seat, time.perf_counter() + 10)
            assert joint is not None
            assert {m: v for m, (v, _) in joint.items()} == moves_by_brute(state, seat), (state.record, seat)


def test_the_last_rings_proof_agrees_with_enumeration() -> None:
    rng = random.Random(5)
    for n in range(8):
        rays = (4, 5, 6)[n % 3]
        state = quetgames.GAMES["prime-target"].new(rays=rays, k=2 if n % 2 else 3)
        while state.opening or state.ring_total - len(state.rings) > 2:
            seat = state.to_move[0]
            state = state.play(rng.choice(state.legal_moves(seat)), seat)
        seat = state.to_move[0]
        proof = player_for(state.game).exact(state, seat, rng, None, time.perf_counter() + 10)
        assert proof is not None and proof.values[seat] == brute(state, seat)


def test_the_best_last_ring_is_found_wedge_by_wedge_as_by_listing_every_ring() -> None:
    # The last ring's score in a proof comes from `_best_mask`; every ring
    # listed gives the same best score.
    from quetgames.players.prime_target import _best_mask, _ring_after, _ring_table

    rng = random.Random(1)
    for _ in range(3000):
        rays = rng.choice([4, 6, 8, 10])
        inner = tuple(rng.randint(0 if rng.random() < 0.1 else 1, rng.choice([8, 20, 60])) for _ in range(rays))
        assert _ring_table(inner)[0][0] == _ring_after(inner, _best_mask(inner))[1], inner


# -- the checks catch a wrong puzzle -------------------------------------------------


@pytest.mark.parametrize("game_id", NEW)
def test_check_names_a_puzzle_with_a_wrong_solution(game_id: str) -> None:
    puzzle = copy.deepcopy(by_game(game_id)[0])
    wrong = next(iter(wrong_moves(puzzle)))
    puzzle["solutions"] = puzzle["solutions"][1:] + [wrong]
    found = puzzles.check(puzzle)
    assert found and all(p.startswith(puzzle["id"] + ":") for p in found)
    assert any("winning moves" in p for p in found)
    everything = {"puzzles": [copy.deepcopy(by_game(game_id)[1]), puzzle]}
    assert any(p.startswith(puzzle["id"]) for p in puzzles.check_all(everything))


def test_check_names_a_nonconformity_reply_that_does_not_beat_its_pick() -> None:
    puzzle = copy.deepcopy(next(p for p in by_game("nonconformity") if any(g["value"] == 0.0 for g in p["wrong"])))
    state = quetgames.load(puzzle["record"])
    seat = puzzle["seat"]
    group = next(g for g in puzzle["wrong"] if g["value"] == 0.0)
    move = next(iter(m for m, o in wrong_moves(puzzle).items() if o["value"] == 0.0))
    harmless = next(b for b in state.play(move, seat).legal_moves(1 - seat)
                    if puzzles._joint_value(state.play(move, seat).play(b, 1 - seat), seat, 5) != 0.0)
    # that one pick written apart from its group, with a reply that does not beat it
    if not group.get("rest"):
        group["moves"].remove(move)
    puzzle["wrong"].append({"value": 0.0, "reply": harmless, "moves": [move]})
    assert any("does not hold" in p for p in puzzles.check(puzzle))


# -- answers in words ----------------------------------------------------------------


def test_a_wrong_nonconformity_pick_is_answered_with_the_pick_that_beats_it() -> None:
    puzzle = next(p for p in by_game("nonconformity") if any(g["value"] == 0.0 for g in p["wrong"]))
    move, other = next((m, o) for m, o in wrong_moves(puzzle).items() if o["value"] == 0.0)
    said = puzzles.answer(puzzle, move)
    name, them = f"Player {puzzle['seat'] + 1}", f"Player {2 - puzzle['seat']}"
    assert not said["right"] and said["reply"] == other["reply"]
    assert said["words"].startswith(f"Not this one: had {name} picked {move}, {them}'s {other['reply']} beats it.")
    right = puzzles.answer(puzzle, puzzle["solutions"][0])
    assert right["right"] and right["words"].startswith("Right: ")
    with pytest.raises(RulesError):
        puzzles.answer(puzzle, "1")


def test_a_prime_target_puzzle_answers_a_ring() -> None:
    puzzle = by_game("prime-target")[0]
    right = puzzles.answer(puzzle, puzzle["solutions"][-1])
    assert right["right"] and "completed ring" in right["words"]
    move = next(iter(wrong_moves(puzzle)))
    assert not puzzles.answer(puzzle, move)["right"]
    assert len(puzzles.position(puzzle)["moves"]) == len(puzzle["solutions"]) + len(wrong_moves(puzzle))


# -- practise your mistakes ----------------------------------------------------------

# A random 4-wedge game (seeded play): Player 1's first ring, Player 2's
# first ring and Player 1's second each give a proved win away.
MISTAKEN = "q1.pt.p2_k2_r4.41321324APADAJAG"


def test_the_proved_mistakes_of_a_game_are_its_exercises() -> None:
    game = quetgames.load(MISTAKEN)
    found = mistakes.mistakes(game)
    assert [e["ply"] for e in found["exercises"]] == [5, 6, 7]
    for exercise in found["exercises"]:
        before = quetgames.load(exercise["record"])
        seat = exercise["seat"]
        assert before.to_move == (seat,) and before.history == game.history[:exercise["ply_before"]]
        # independently: every move's result by enumeration through the rules
        values = moves_by_brute(before, seat)
        kept = max(values.values())
        assert exercise["result"] == kept and values[exercise["move"]] < kept
        assert sorted(exercise["solutions"]) == sorted(m for m, v in values.items() if v == kept)
        assert {m: o["value"] for m, o in exercise["others"].items()} == {m: v for m, v in values.items() if v < kept}
    first = found["exercises"][0]
    assert first["words"].endswith("which turned a proved win into a loss.")
    assert first["task"] == "Player 1 to move: find a move that keeps a win."


def test_an_analysis_chooses_the_moves_looked_at() -> None:
    game = quetgames.load(MISTAKEN)
    report = quetgames.analyse(game, iterations=20).to_json()
    marked = {m["ply"] for m in report["moves"] if m["grade"] in ("mistake", "blunder") and m["exact"]}
    found = mistakes.mistakes(game, report)
    assert {e["ply"] for e in found["exercises"]} == marked & {5, 6, 7}
    assert mistakes.mistakes(game, {"moves": []})["exercises"] == []
    with pytest.raises(RulesError):
        mistakes.mistakes(game, {"moves": [{"ply": 99}]})


def test_trying_again_is_judged_by_the_proof() -> None:
    game = quetgames.load(MISTAKEN)
    exercise = mistakes.mistakes(game)["exercises"][0]
    right = mistakes.try_again(game, exercise["ply"], exercise["solutions"][0])
    assert right["right"] and right["words"].startswith("Right: ")
    wrong = mistakes.try_again(game, exercise["ply"], exercise["move"])
    assert not wrong["right"] and wrong["value"] == 0.0
    with pytest.raises(RulesError):
        mistakes.try_again(game, 1, "1@1")  # a centre move: no proved mistake
    with pytest.raises(RulesError):
        mistakes.try_again(game, exercise["ply"], "+")


def test_the_bridge_gives_the_exercises() -> None:
    from quetgames.bridge import call

    said = json.loads(call("mistakes", json.dumps({"record": MISTAKEN})))
    assert said["ok"] and [e["ply"] for e in said["result"]["exercises"]] == [5, 6, 7]
    tried = json.loads(call("mistakes", json.dumps({"record": MISTAKEN, "ply": 5, "move": "----"})))
    assert tried["ok"] and not tried["result"]["right"]


def _secret_picks_game() -> State:
    """Three rounds of seeded random picks, in which Player 2's last pick, 63,
    gave up a win that a pick of that round secured whatever Player 1 picked."""
    state = quetgames.GAMES["nonconformity"].new(length=4, max_pick=100, seed=2)
    rng = random.Random(2)
    while not state.is_over:
        for seat in list(state.to_move):
            state = state.play(rng.choice(state.legal_moves(seat)), seat)
    return state


def test_a_pick_that_gave_up_a_secured_result_is_an_exercise() -> None:
    state = _secret_picks_game()
    found = {e["ply"]: e for e in mistakes.mistakes(state)["exercises"]}
    last = found[6]
    # the round's start, as Player 2 knew it: Player 1's pick of the round (ply 5) is no part of it
    before = quetgames.load(last["record"])
    assert last["joint"] and last["seat"] == 1 and last["move"] == "63"
    assert before.to_move == (0, 1) and before.history == state.history[:4] and last["ply_before"] == 4
    # independently: every pick of both seats through the rules
    values = moves_by_brute(before, 1)
    kept = max(values.values())
    assert last["result"] == kept == 1.0 and values["63"] == last["result_after"] < kept
    assert sorted(last["solutions"]) == sorted(m for m, v in values.items() if v == kept)
    assert {m: o["value"] for m, o in last["others"].items()} == {m: v for m, v in values.items() if v < kept}
    for move, other in list(last["others"].items())[:10]:
        assert brute(before.play(move, 1).play(other["reply"], 0), 1) == other["value"], move
    reply = last["others"]["63"]["reply"]
    assert last["words"] == (f"Player 2 picked 63, which gave up a win that a pick could secure: "
                             f"Player 1's {reply} holds it to a shared win.")
    right = mistakes.try_again(state, 6, last["solutions"][0])
    assert right["right"] and right["words"].endswith("which keeps a win whatever Player 1 picks.")
    wrong = mistakes.try_again(state, 6, "63")
    assert not wrong["right"] and wrong["reply"] == reply and f"Player 1's {reply}" in wrong["words"]


def test_the_analysis_proves_a_pick_that_secures_a_result() -> None:
    # (the judge hook only estimates picks; where a pick secures a result whatever
    # the other seat picks, the analysis says so exactly, and the offer follows)
    state = _secret_picks_game()
    report = quetgames.analyse(state, iterations=20).to_json()
    sixth = report["moves"][5]
    assert sixth["ply"] == 6 and sixth["exact"] and sixth["grade"] == "blunder" and sixth["after"] == 0.5
    assert 6 in {e["ply"] for e in mistakes.mistakes(state, report)["exercises"]}
    # a pick where nothing is secured stays an estimate (the first round: no proof)
    assert not report["moves"][0]["exact"]


