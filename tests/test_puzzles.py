"""Puzzles (docs/PUZZLES.md): the shipped ones re-proved from their records
alone, a seeded sample here (every one by `python -m quetgames puzzles
--check` and by the build), and the checks shown to catch a wrong puzzle."""

from __future__ import annotations

import copy
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
import quetgames
from quetgames import puzzles
from quetgames.errors import RulesError

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = json.loads((ROOT / "docs" / "puzzles.json").read_text())
SAMPLE = random.Random(22).sample(SHIPPED["puzzles"], 24)


def by_game(game_id: str) -> list[dict[str, Any]]:
    return [p for p in SHIPPED["puzzles"] if p["game"] == game_id]


def test_every_game_with_settings_has_enough_puzzles() -> None:
    for game_id, game in quetgames.GAMES.items():
        if game.puzzle_settings:
            assert len(by_game(game_id)) >= 60, game_id
        else:
            assert by_game(game_id) == [], f"{game_id} has puzzles but no setting to prove them in"
    assert SHIPPED["counts"] == {g: len(by_game(g)) for g in SHIPPED["counts"]}


@pytest.mark.parametrize("puzzle", SAMPLE, ids=lambda p: p["id"])
def test_a_shipped_puzzle_is_proved_again_from_its_record(puzzle: dict[str, Any]) -> None:
    assert puzzles.check(puzzle) == []


def test_the_sample_re_proves_by_hand_every_move() -> None:
    # Independently of `check`: play every legal move and ask the adapter's
    # proof of the position it leaves; the winning ones are the solutions.
    for puzzle in SAMPLE[:8]:
        state = quetgames.load(puzzle["record"])
        seat = puzzle["seat"]
        player = quetgames.players.player_for(state.game)
        others = puzzles._wrong(puzzle, state.legal_moves(seat))
        if puzzle.get("joint"):
            # both seats pick at once: the adapter's proof against every pick
            joint = player.exact_joint(state, seat, time.perf_counter() + 5)
            assert state.to_move == (0, 1) and joint is not None, puzzle["id"]
            assert sorted(m for m, (v, _) in joint.items() if v == 1.0) == sorted(puzzle["solutions"])
            assert {m: v for m, (v, _) in joint.items() if v < 1.0} == {m: o["value"] for m, o in others.items()}
            continue
        assert state.to_move == (seat,)
        winning = []
        for move in state.legal_moves(seat):
            after = state.play(move, seat)
            if after.is_over:
                won = after.winners == (seat,)
            else:
                proof = player.exact(after, after.to_move[0], random.Random(0), None, time.perf_counter() + 5)
                assert proof is not None, (puzzle["id"], move)
                won = proof.values[seat] == 1.0
            if won:
                winning.append(move)
        assert sorted(winning) == sorted(puzzle["solutions"]), puzzle["id"]
        assert set(others) == set(state.legal_moves(seat)) - set(winning)
        # The forced line plays, and a line said to end the game ends in the winner's win.
        s = state
        for step in puzzle["line"]:
            s = s.play(step["move"], step["seat"])
        if puzzle["line_end"] == "over":
            assert s.winners == (seat,)


def _a_puzzle(game_id: str) -> dict[str, Any]:
    return copy.deepcopy(by_game(game_id)[0])


PROVED = ["convoluted-coprimality", "enumeration", "multiplications"]


@pytest.mark.parametrize("game_id", PROVED)
def test_check_finds_a_wrong_solution(game_id: str) -> None:
    puzzle = _a_puzzle(game_id)
    wrong = next(iter(puzzle["others"]))
    puzzle["solutions"] = [wrong]
    assert any("winning moves" in p for p in puzzles.check(puzzle))


@pytest.mark.parametrize("game_id", PROVED)
def test_check_finds_a_missing_wrong_move_and_a_bad_line(game_id: str) -> None:
    puzzle = _a_puzzle(game_id)
    moved = next(iter(puzzle["others"]))
    del puzzle["others"][moved]
    assert any("other moves" in p for p in puzzles.check(puzzle))
    puzzle = _a_puzzle(game_id)
    puzzle["line"][0]["move"] = moved  # a losing move where the winner's move stood
    assert puzzles.check(puzzle) != []
    puzzle = _a_puzzle(game_id)
    puzzle["record"] = puzzle["record"].rsplit(".", 1)[0] + ".zz"
    assert puzzles.check(puzzle) != []


def test_check_all_finds_a_repeated_id() -> None:
    one = _a_puzzle("multiplications")
    assert "two puzzles share an id" in puzzles.check_all({"puzzles": [one, one]})


def test_answers_come_from_the_stored_proof_in_words() -> None:
    puzzle = _a_puzzle("multiplications")
    right = puzzles.answer(puzzle, puzzle["solutions"][0])
    assert right["right"] and right["value"] == 1.0 and right["words"].startswith("Right: ")
    wrong_move = next(iter(puzzle["others"]))
    wrong = puzzles.answer(puzzle, wrong_move)
    assert not wrong["right"] and wrong["value"] < 1.0 and wrong["reply"] == puzzle["others"][wrong_move]["reply"]
    assert wrong["words"].startswith("Not this one: ")
    # the board after an answer shows the move and the reply the words name
    start = len(quetgames.load(puzzle["record"]).history)
    for said in (right, wrong):
        played = said["view"]["history"][start:]
        assert played[:1] == [said["move"]] and (said["reply"] is None or played[1:2] == [said["reply"]]), (said, played)
    with pytest.raises(RulesError):
        puzzles.answer(puzzle, "z99")
    solved = puzzles.solution(puzzle)
    assert solved["solutions"] == puzzle["solutions"] and len(solved["line"]) == len(puzzle["line"])


def test_a_reply_that_ends_the_game_is_said_as_the_end() -> None:
    """Issue 56: a right answer whose shown reply ends the game (Prime Target's
    last ring, "The target is complete" on the board) says who wins, not that
    a win can still be forced."""
    ended = 0
    for puzzle in SHIPPED["puzzles"]:
        right = puzzles.answer(puzzle, puzzle["line"][0]["move"])
        if right["reply"] is None or not quetgames.load(puzzle["record"]).play(right["move"], puzzle["line"][0]["seat"]).play(
                right["reply"], puzzle["line"][1]["seat"]).is_over:
            continue
        ended += 1
        assert "can still force" not in right["words"] and right["words"].endswith(" wins."), (puzzle["id"], right["words"])
    assert ended > 0


def test_the_bridge_answers_a_puzzle_and_refuses_a_forged_one() -> None:
    from quetgames.bridge import call

    puzzle = _a_puzzle("convoluted-coprimality")
    shown = json.loads(call("puzzle", json.dumps({"puzzle": puzzle})))["result"]
    assert shown["id"] == puzzle["id"] and {m["move"] for m in shown["moves"]} == {*puzzle["solutions"], *puzzle["others"]}
    said = json.loads(call("puzzle", json.dumps({"puzzle": puzzle, "move": puzzle["solutions"][0]})))["result"]
    assert said["right"]
    forged = copy.deepcopy(puzzle)
    forged["solutions"] = forged["solutions"] + ["a1"]  # not a legal move there
    refused = json.loads(call("puzzle", json.dumps({"puzzle": forged})))
    assert not refused["ok"] and "legal moves" in refused["error"]["message"]
    day = json.loads(call("puzzle_of_the_day", json.dumps({"ids": ["x", "y", "z"], "date": "2026-11-25"})))
    assert day["result"] in ("x", "y", "z")


def test_the_puzzle_of_the_day_depends_on_the_date_alone() -> None:
    ids = [p["id"] for p in SHIPPED["puzzles"]]
    a = puzzles.puzzle_of_the_day(ids, "2026-11-25")
    assert a == puzzles.puzzle_of_the_day(ids, "2026-11-25")
    days = {puzzles.puzzle_of_the_day(ids, f"2026-12-{d:02}") for d in range(1, 29)}
    assert len(days) > 20


def test_finding_is_reproducible_and_every_find_holds() -> None:
    # A small run from scratch: the same puzzles twice, each one checked.
    first = puzzles.find("multiplications", {"players": 2, "k": 3}, games=6, seed=5, iterations=10)
    again = puzzles.find("multiplications", {"players": 2, "k": 3}, games=6, seed=5, iterations=10)
    assert first == again and first
    for puzzle in first:
        assert puzzles.check(puzzle) == []


def test_a_position_nothing_proves_is_no_puzzle() -> None:
    # More than two seats: no search here proves such a position.
    state = quetgames.GAMES["convoluted-coprimality"].new(players=3, size=6)
    assert puzzles.prove_position(state) is None
    # A secret joint move: no single seat to move.
    state = quetgames.GAMES["nonconformity"].new(seed=1)
    assert len(state.to_move) != 1 and puzzles.prove_position(state) is None


def test_an_end_of_game_puzzle_agrees_with_a_search_through_the_public_api() -> None:
    # Enumeration's proofs run on the adapter's search position; here the
    # same question is asked of the rules themselves (`State.play`, through
    # the generic player's StateSim), for the puzzle nearest its game's end.
    from quetgames.players.search import GenericPlayer, StateSim, alphabeta

    puzzle = min(by_game("enumeration"), key=lambda p: len(quetgames.load(p["record"]).legal_moves()))
    state = quetgames.load(puzzle["record"])
    seat = puzzle["seat"]
    winning = []
    for move in state.legal_moves(seat):
        value = alphabeta(GenericPlayer(), StateSim(state.play(move, seat)), seat, 40, -1.0, 2.0, [0], None,
                          time.perf_counter() + 10)
        if value == 1.0:
            winning.append(move)
    assert sorted(winning) == sorted(puzzle["solutions"])


# -- the ratings (docs/PUZZLES.md, "Difficulty") --------------------------------------


@pytest.mark.parametrize("game_id", sorted({p["game"] for p in SHIPPED["puzzles"]}))
def test_each_games_ratings_spread_over_the_scale(game_id: str) -> None:
    """Every game reaches a player at the starting rating: at least 10 of its
    puzzles rate within 200 of 1200, and no one rating holds over a third of them."""
    elos = [p["rating"]["elo"] for p in by_game(game_id)]
    assert sum(abs(e - 1200) <= 200 for e in elos) >= 10, sorted(elos)
    assert max(elos.count(e) for e in elos) <= len(elos) / 3, sorted(elos)
    assert puzzles.spread_problems(by_game(game_id)) == []


def test_the_spread_rule_names_a_game_bunched_on_one_rating() -> None:
    bunched = [{"game": "g", "rating": {"elo": 800 if n < 12 else 1100 + 10 * n}} for n in range(30)]
    assert puzzles.spread_problems(bunched) == ["g: 12 of its 30 puzzles rate 800, over a third"]
    far = [{"game": "g", "rating": {"elo": 1500 + 10 * n}} for n in range(30)]
    assert puzzles.spread_problems(far) == ["g: 0 puzzles rate within 200 of 1200, fewer than 10"]


@pytest.mark.parametrize("game_id", sorted({p["game"] for p in SHIPPED["puzzles"]}))
def test_a_shipped_rating_is_the_raters_rating_again(game_id: str) -> None:
    # the sampled players are drawn from a generator seeded by the position, so rating again gives the same
    for puzzle in by_game(game_id)[::25]:
        state = quetgames.load(puzzle["record"])
        assert puzzles.rate(state, puzzle["solutions"], puzzle["seat"]) == puzzle["rating"], puzzle["id"]


def test_the_raters_come_from_the_generator_passed_in() -> None:
    assert puzzles.raters(random.Random(3)) == puzzles.raters(random.Random(3))
    assert puzzles.raters(random.Random(3)) != puzzles.raters(random.Random(4))
    drawn = puzzles.raters(random.Random(3))
    assert len(drawn) == puzzles.RATER_PLAYERS and all(0 <= noise < 1 for _, noise, _ in drawn)
    # a player who always plays at random misses as often as the wrong moves are many
    puzzle = by_game("multiplications")[0]
    state = quetgames.load(puzzle["record"])
    legal = len(state.legal_moves(puzzle["seat"]))
    careless = random.Random(0)
    careless.random = lambda: 1.0  # type: ignore[method-assign]  (noise 1: every move at random)
    rated = puzzles.rate(state, puzzle["solutions"], puzzle["seat"], careless)
    assert rated["miss"] == round(1 - len(puzzle["solutions"]) / legal, 3)


# -- why a wrong move is wrong ----------------------------------------------------------


@pytest.mark.parametrize("game_id", sorted({p["game"] for p in SHIPPED["puzzles"]}))
def test_a_wrong_moves_line_is_the_reply_and_what_follows(game_id: str) -> None:
    puzzle = next(p for p in by_game(game_id) if p["rating"]["legal"] <= 300)
    state = quetgames.load(puzzle["record"])
    legal = state.legal_moves(puzzle["seat"])
    wrong = next(m for m in legal if m not in puzzle["solutions"])
    stored = puzzles._wrong(puzzle, legal)[wrong]
    line = puzzles.why(puzzle, wrong)
    steps = line["steps"]
    assert steps[0]["move"] == wrong and steps[0]["seat"] == puzzle["seat"]
    if stored["reply"] is not None:
        assert steps[1]["move"] == stored["reply"] and steps[1]["seat"] != puzzle["seat"]
    # every step is legal from the one before, and its view is the position after it
    s = state
    for step in steps:
        s = s.play(step["move"], step["seat"])
        assert step["view"] == s.view() and step["words"]
    assert line["end"]
    if stored["value"] == 0.0 and len(steps) > 2 and s.is_over:
        assert puzzle["seat"] not in s.winners  # the line ends in the loss the answer speaks of
    with pytest.raises(RulesError):
        puzzles.why(puzzle, puzzle["solutions"][0])


def test_the_bridge_gives_a_wrong_moves_line() -> None:
    from quetgames.bridge import call

    puzzle = _a_puzzle("convoluted-coprimality")
    wrong = next(m for m, o in puzzle["others"].items() if o["reply"])
    said = json.loads(call("puzzle", json.dumps({"puzzle": puzzle, "move": wrong, "why": True})))["result"]
    assert [s["move"] for s in said["steps"][:2]] == [wrong, puzzle["others"][wrong]["reply"]]
