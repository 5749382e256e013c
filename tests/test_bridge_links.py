"""The bridge's answers for links: the public record and the private one by
name, and `compare`, which tells a link that continues a game from one that
rewrites it (and from another game with the same start)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import quetgames
from quetgames import bridge
from quetgames.compare import compare

SALT = "Salt0123456789abcdef"


def ask(name: str, **args: Any) -> Any:
    answer = json.loads(bridge.call(name, json.dumps(args)))
    assert answer["ok"], answer
    return answer["result"]


def refused(name: str, **args: Any) -> dict[str, str]:
    answer = json.loads(bridge.call(name, json.dumps(args)))
    assert not answer["ok"], answer
    return answer["error"]


def named(game_id: str, **options: Any) -> quetgames.State:
    return quetgames.new_game(game_id, **options).with_seats(["Ann", "Bob"])


def play_first(state: quetgames.State, n: int, pick: int = 0) -> quetgames.State:
    """`state` after `n` moves, each the `pick`-th legal move (wrapping round)."""
    for _ in range(n):
        moves = state.legal_moves()
        state = state.play(moves[pick % len(moves)])
    return state


TURN_BASED = [g for g in quetgames.GAMES if g != "nonconformity"]


# -- record and private_record ------------------------------------------------------


def test_a_hot_seat_pick_is_only_in_the_private_record() -> None:
    nc = ask("new", game="nonconformity", options={"starts": [6, 4]})
    assert nc["record"] == nc["private_record"]
    picked = ask("play", record=nc["private_record"], move="12", seat=0)
    # Player 1 picked 12 at a shared screen; Player 2 has not chosen yet
    assert quetgames.load(picked["private_record"]).moves_record.endswith(".12")
    assert picked["record"] == nc["record"], "the public record never holds the pending pick"
    assert "12" not in picked["record"].split(".")[3]
    # the private record plays on; the public one is where a link starts
    done = ask("play", record=picked["private_record"], move="8", seat=1)
    assert done["record"] == done["private_record"] and done["record"].split(".")[3] == "12_8"


def test_a_seats_move_can_be_answered_with_the_public_view() -> None:
    nc = ask("new", game="nonconformity", options={"starts": [6, 4]})
    own = ask("play", record=nc["private_record"], move="12", seat=0)
    public = ask("play", record=nc["private_record"], move="12", seat=0, public=True)
    # the same move and records; the view is the one `open` gives, not the seat's own
    assert (public["record"], public["private_record"]) == (own["record"], own["private_record"])
    assert public["view"] == ask("open", record=own["private_record"])["view"] != own["view"]
    assert "public is true or false" in refused("play", record=nc["private_record"], move="12", seat=0, public="yes")["message"]


def test_a_sealed_pick_never_puts_its_salt_or_pick_in_the_record() -> None:
    nc = ask("new", game="nonconformity", options={"starts": [6, 4]})
    sealed = ask("seal", record=nc["record"], seat=0, pick="12", salt=SALT)
    for answer in (sealed, ask("play", record=sealed["private_record"], move="8", seat=1)):
        for field in ("record", "view"):
            text = json.dumps(answer[field])
            assert SALT not in text
        assert SALT not in answer["private_record"], "a seal's secret is kept by the page, never in a record"
        assert re.search(r"c[0-9a-f]{64}", answer["record"])
        assert "12" not in answer["record"].split(".")[3].replace(sealed["keep"]["commitment"], "")
    assert sealed["keep"]["salt"] == SALT  # the secret comes back once, in its own field


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(TURN_BASED), st.integers(0, 12), st.integers(0, 50))
def test_turn_based_games_have_one_record(game_id: str, moves: int, pick: int) -> None:
    state = play_first(named(game_id), moves, pick)
    answer = ask("open", record=state.record)
    assert answer["record"] == answer["private_record"] == state.record


# -- compare ---------------------------------------------------------------------


def with_a_choice(state: quetgames.State) -> quetgames.State:
    """`state` played on (always the last legal move) past a first choice
    (a move with another legal one beside it) to the next point with two legal moves."""
    chosen = False
    while not chosen or len(state.legal_moves()) < 2:
        chosen = chosen or len(state.legal_moves()) > 1
        state = state.play(state.legal_moves()[-1])
    return state


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_compare_names_the_first_move_a_link_rewrites(game_id: str) -> None:
    here = with_a_choice(named(game_id))
    k = len(here.history)
    first, *_, last = here.legal_moves()
    mine = play_first(here.play(first), 1)
    theirs = play_first(here.play(last), 1)
    got = ask("compare", mine=mine.record, theirs=theirs.record)
    mover = here.seat_name(here.to_move[0])
    assert got["relation"] == "changed"
    assert got["ply"] == k and got["where"] == f"move {k + 1}"
    # each move in the game's own words (describe_move), naming who played it
    assert got["mine"] == here.describe_move(first) and got["mine"].startswith(mover)
    assert got["theirs"] == here.describe_move(last) and got["mine"] != got["theirs"]
    assert got["message"] == f"this link changes move {k + 1}: {got['mine']} here; the link says {got['theirs']}"


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_compare_continuing_and_earlier_links(game_id: str) -> None:
    mine = play_first(named(game_id), 3)
    later = play_first(mine, 2, pick=1)
    assert ask("compare", mine=mine.record, theirs=mine.record)["relation"] == "same"
    assert ask("compare", mine=mine.record, theirs=later.record)["relation"] == "ahead"
    assert ask("compare", mine=later.record, theirs=mine.record)["relation"] == "behind"


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_two_games_from_the_same_start_are_not_a_rewrite(game_id: str) -> None:
    """Two games started apart are two games, whatever they share: each has
    its own id. Records from before ids fall back to the old rule: two games
    that part at their first choice are two games."""
    fresh = quetgames.new_game(game_id)
    assert ask("compare", mine=fresh.record, theirs=fresh.record)["relation"] == "same"
    forced = fresh
    while len(forced.legal_moves()) < 2:  # Enumeration's first move is forced: the same in every game
        forced = forced.play(forced.legal_moves()[0])
    first, *_, last = forced.legal_moves()
    mine = play_first(forced.play(first), 2)
    # another game from the same start, with the same moves: still another game
    twin = quetgames.new_game(game_id)
    for move in mine.history:
        twin = twin.play(move)
    assert twin.game_id != mine.game_id and twin.moves_record == mine.moves_record
    assert ask("compare", mine=mine.record, theirs=twin.record)["relation"] == "other"
    # without ids (records shared before them), parting at the first choice is another game
    old_mine = play_first(forced.with_game_id(None).play(first), 2)
    old_theirs = play_first(forced.with_game_id(None).play(last), 2)
    got = ask("compare", mine=old_mine.record, theirs=old_theirs.record)
    assert old_mine.record.startswith("q1.")
    assert got["relation"] == "other" and got["ply"] == len(forced.history)
    # other options, or other seats: another game whatever the moves
    assert ask("compare", mine=mine.record, theirs=play_first(named(game_id), 3).record)["relation"] == "other"


@pytest.mark.parametrize("game_id", TURN_BASED)
def test_a_rewritten_first_choice_is_flagged_by_the_id(game_id: str) -> None:
    """One id, moves that part at the first choice: a rewrite (the old rule
    could not tell it from another game)."""
    forced = quetgames.new_game(game_id)
    while len(forced.legal_moves()) < 2:
        forced = forced.play(forced.legal_moves()[0])
    first, *_, last = forced.legal_moves()
    mine, theirs = play_first(forced.play(first), 2), play_first(forced.play(last), 2)
    got = ask("compare", mine=mine.record, theirs=theirs.record)
    assert got["relation"] == "changed" and got["ply"] == len(forced.history)
    assert got["game_id"] == forced.game_id and got["message"].startswith(f"this link changes move {len(forced.history) + 1}: ")
    # the same record under a new id ("open as a separate game") is another game
    apart = ask("new_id", record=theirs.record)["record"]
    assert ask("compare", mine=mine.record, theirs=apart)["relation"] == "other"


def test_compare_nonconformity_names_the_round_and_the_replaced_seal() -> None:
    start = named("nonconformity", starts=(6, 4))
    mine = start.seal("12", SALT, 0).play("8", 1)
    rewritten = start.play("10", 0).play("8", 1)
    got = compare(mine.record, rewritten.record)
    assert got.relation == "changed" and got.ply == 0 and got.where == "round 1"
    assert got.message == "this link changes round 1: the seal Ann sent is not in this link (Ann sealed a pick here; the link says Ann picked 10)"
    resealed = start.seal("10", "Z" * 20, 0).play("8", 1)
    assert "the seal Ann sent is not the one in this link" in (compare(mine.record, resealed.record).message or "")
    # the honest reveal, and the forfeit, continue the game
    assert compare(mine.record, mine.reveal("12", SALT, 0).record).relation == "ahead"
    assert compare(mine.record, mine.play("f", 0).record).relation == "ahead"
    # round 2 rewritten: named as round 2
    one = start.play("12", 0).play("8", 1)
    got = compare(one.play("14", 0).play("10", 1).record, one.play("16", 0).play("10", 1).record)
    assert got.relation == "changed" and got.where == "round 2" and got.mine == "Ann picked 14" and got.theirs == "Ann picked 16"


def test_compare_refuses_a_bad_record_in_words() -> None:
    good = named("enumeration").record
    for bad in ("q1.zz.x.y", "nonsense", 7, None):
        error = refused("compare", mine=good, theirs=bad)
        assert error["type"] == "InvalidRecord" and error["message"]
        error = refused("compare", mine=bad, theirs=good)
        assert error["type"] == "InvalidRecord"


def test_a_fresh_sealed_game_from_the_same_start_is_another_game() -> None:
    """Two Nonconformity games with the same starts and seats, each opened by
    its own seal: only a link that builds on a replaced move is a rewrite."""
    start = named("nonconformity", starts=(6, 4)).with_game_id(None)  # (records from before ids)
    held = start.seal("12", SALT, 0).play("8", 1).reveal("12", SALT, 0)
    fresh = start.seal("10", "Z" * 20, 0)
    assert compare(held.record, fresh.record).relation == "other"
    assert compare(held.record, fresh.play("8", 1).record).relation == "changed"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(TURN_BASED), st.integers(0, 2**32 - 1), st.integers(1, 14), st.integers(0, 14))
def test_compare_agrees_with_the_moves(game_id: str, seed: int, length: int, cut: int) -> None:
    """For random games: a record is `same` as itself, `ahead` of its earlier
    points and `behind` its later ones; two records that part are `changed`
    or `other` at exactly the first move where their histories differ."""
    import random

    rng = random.Random(seed)

    def walk(state: quetgames.State, n: int) -> quetgames.State:
        for _ in range(n):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
        return state

    full = walk(named(game_id), length)
    part = full.position(min(cut, full.plies))
    assert compare(full.record, full.record).relation == "same"
    if len(part.history) < len(full.history):
        assert compare(part.record, full.record).relation == "ahead"
        assert compare(full.record, part.record).relation == "behind"
    other = walk(part, length)
    got = compare(full.record, other.record)
    first = next((i for i, (x, y) in enumerate(zip(full.history, other.history)) if x != y), None)
    if first is None:
        assert got.relation in ("same", "ahead", "behind")
    else:
        assert got.relation in ("changed", "other") and got.ply == first
        assert got.message and got.message.startswith(f"this link changes move {first + 1}: ")
