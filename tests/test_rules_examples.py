"""The worked examples in the rules texts are real positions: each game's
`examples` record loads, and every fact its rules text states about it (scores,
legal squares, ring totals, counts) is what the engine computes. The texts'
claims that hold for every game (no ring outside the centre has an odd total,
no Multiplications number scores 0) are checked over random games too."""

from __future__ import annotations

import json
import random
import re

import pytest

import quetgames
from quetgames import bridge, load, new_game
from quetgames.help import game_help, rules_document
from quetgames.numbers import is_prime
from quetgames.registry import replay

GAME_IDS = list(quetgames.GAMES)


def example(game_id: str, index: int = 0) -> quetgames.State:
    return load(quetgames.GAMES[game_id].examples[index].record)


def example_text(game_id: str) -> str:
    rules = quetgames.GAMES[game_id].rules
    return rules[rules.index("**Example.**"):]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_worked_example_has_a_position_that_loads(game_id: str) -> None:
    game = quetgames.GAMES[game_id]
    assert "**Example.**" in game.rules
    assert game.examples, f"{game.name}'s worked example has no position to draw"
    for ex in game.examples:
        state = load(ex.record)
        assert state.record == ex.record, "an example's record is written in the usual form"
        assert ex.caption.strip() and len(ex.caption) < 120


def test_the_catalog_carries_each_example_with_the_engines_view() -> None:
    answer = json.loads(bridge.call("games"))
    assert answer["ok"]
    for entry in answer["result"]:
        game = quetgames.GAMES[entry["id"]]
        assert [e["record"] for e in entry["examples"]] == [e.record for e in game.examples]
        for shown in entry["examples"]:
            assert shown["view"]["board"] == load(shown["record"]).view()["board"]
        assert entry["help"] == game_help(game)


# -- Convoluted Coprimality ------------------------------------------------------------


def test_convoluted_coprimality_example() -> None:
    #     a b c d
    #  1  1 2 3 4
    #  2  . . . 5      Player 2 to write 6: c2 (beside the 3) knocks out, d3 is safe
    state = example("convoluted-coprimality")
    assert state.history == ("b1", "c1", "d1", "d2")
    # "Player 2 must write 3 in c1: b2 also touches the 2, but is not on the edge and touches no other number"
    after_two, _ = replay(state.record, 1)
    assert after_two.to_move == (1,)
    assert after_two.legal_moves() == ["c1"]
    with pytest.raises(quetgames.IllegalMove):
        after_two.play("b2")
    # "Player 2 now writes 6: c2 is allowed ... would knock Player 2 out; the safe square is d3"
    board = state.view()["board"]
    assert state.to_move == (1,) and board["next_number"] == 6
    assert sorted(state.legal_moves()) == ["c2", "d3"]
    assert board["targets"]["c2"]["eliminates"] and board["targets"]["c2"]["clashes"] == [3]
    assert not board["targets"]["d3"]["eliminates"]
    knocked = state.play("c2")
    assert knocked.is_over and knocked.winners == (0,)
    assert not state.play("d3").is_over


# -- Enumeration ---------------------------------------------------------------------------


def test_enumeration_example_first_square_is_b2_with_0() -> None:
    assert new_game("enumeration", size=6).legal_moves() == ["b2=0"]


def test_enumeration_example_grid_is_the_engines_and_f3_takes_1_or_3() -> None:
    state = example("enumeration")
    values = state.view()["board"]["values"]
    # The grid drawn in the text, a dot or nothing for an empty square.
    block = re.search(r"```\n(.*?)\n```", example_text("enumeration"), re.S)
    assert block, "the example's grid is a fenced block"
    drawn = [line.split() for line in block.group(1).splitlines()]
    for r, row in enumerate(values):
        for c, value in enumerate(row):
            written = drawn[r][c] if c < len(drawn[r]) else "."
            assert written == ("." if value is None else str(value)), (r, c)
    assert [m for m in state.legal_moves() if m.startswith("f3")] == ["f3=1", "f3=3"]
    assert state.view()["board"]["candidates"]["f3"] == {"above": 1, "left": 3}


# -- Multiplications --------------------------------------------------------------------------


def test_multiplications_example() -> None:
    state = example("multiplications")
    board = state.view()["board"]
    assert sorted(board["xs"]) == sorted(["c1", "d2", "e3", "b4", "a5", "f6", "g7"])
    assert board["numbers"] == {"a5": 1} and board["next_number"] == 2 and state.to_move == (0,)
    gains = board["gains"]
    assert gains["d2"] == 9 and gains["b4"] == 1 and gains["g7"] == 12 == max(gains.values())
    assert state.play("d2").scores == (9, 0)


def test_multiplications_no_number_scores_zero() -> None:
    """'No two x's share a row or a column, so every number scores at least 1.'"""
    rng = random.Random(15)
    for players, k in [(2, 3), (3, 3), (2, 5)]:
        for _ in range(10):
            state = new_game("multiplications", players=players, k=k)
            while not state.is_over:
                gains = state.view()["board"]["gains"]
                assert all(g >= 1 for g in gains.values()), state
                state = state.play(rng.choice(state.legal_moves()))


# -- Nonconformity ---------------------------------------------------------------------------


def test_nonconformity_example() -> None:
    state = example("nonconformity")
    board = state.view()["board"]
    assert board["sequences"] == [[6, 4, 8, 10, 12, 14, 7, 21], [4, 2, 6, 3, 9, 12, 14, 7]]
    scored = {(entry["round"], seat) for entry in board["round_log"] for seat in (0, 1) if entry["scored"][seat]}
    assert scored == {(4, 1), (6, 0)}  # Player 2's 9 in round 4, Player 1's 7 in round 6; not Player 2's 7
    assert state.is_over and state.scores == (1, 1) and state.winners == (0, 1)


# -- Prime Target ----------------------------------------------------------------------------


def test_prime_target_example() -> None:
    state = example("prime-target")
    board = state.view()["board"]
    centre, first, second = board["rings"]
    assert centre == [2, 6, 1, 3, 5, 4, 8, 7]
    # wedge 1 of the first ring: outside the 2, with the 6 clockwise of it
    after_centre, _ = replay(state.record, 8)
    wedge_1 = after_centre.view()["board"]["choices"][0]
    assert (wedge_1["sum"], wedge_1["difference"]) == (8, 4)
    assert first == [8, 7, 4, 8, 9, 12, 15, 9] and [v for v in first if is_prime(v)] == [7]
    assert second == [15, 11, 12, 17, 21, 27, 24, 17] and [v for v in second if is_prime(v)] == [11, 17, 17]
    assert [(s["seat"], s["score"]) for s in board["ring_scores"]] == [(0, 7), (1, 3)]
    assert state.scores == (7, 3) and board["ring_count"] - 1 - len(board["ring_scores"]) == 2
    for ring in (first, second):
        assert sum(ring) % 2 == 0


def test_prime_target_rings_outside_the_centre_have_even_totals() -> None:
    """Each wedge holds a + b or |a − b|, both of a + b's parity, and each inner
    number feeds two wedges: so no real ring can have an odd total (why the
    old sample rings could not occur)."""
    rng = random.Random(8)
    for rays in (4, 5, 8, 12):
        for _ in range(5):
            state = new_game("prime-target", rays=rays)
            while not state.is_over:
                state = state.play(rng.choice(state.legal_moves()))
            for ring in state.view()["board"]["rings"][1:]:
                assert sum(ring) % 2 == 0, state


# -- the words -------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_option_code_names_in_the_rules_prose(game_id: str) -> None:
    game = quetgames.GAMES[game_id]
    help_text = " ".join([game.rules, *game_help(game).values()])
    # option names that are not English words a player would use: max_pick, rays, k, ...
    for name in [o.name for o in game.options if "_" in o.name or o.name in ("k", "rays", "n")] + ["n"]:
        assert not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", help_text), name
    assert "`" not in game_help(game)["intro"] + game_help(game)["settings"]
    assert "null" not in help_text and "gcd" not in help_text and "coprime" not in help_text.lower()


def test_help_names_the_inventor_and_how_to_read_the_rules() -> None:
    for game in quetgames.GAMES.values():
        intro = game_help(game)["intro"]
        assert "Leroy Quet" in intro
        assert "highest score wins" in intro and "share the win" in intro
        assert ("a1 is the upper-left square" in intro) == game.named_squares


def test_rules_document_says_defaults_in_words() -> None:
    text = rules_document()
    assert "default null" not in text and "null" not in text
    assert "unless chosen: both drawn at random from 2 to 30" in text
