"""Hostile input: whatever arrives from a link, a move box or a caller, the
engine answers with a RulesError (or a state) and nothing else."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quetgames
from quetgames import InvalidRecord, RulesError
from quetgames import bridge

GAME_IDS = sorted(quetgames.GAMES)
RECORD_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._~-"


def sample_record(game_id: str, moves: int) -> str:
    state = quetgames.new_game(game_id)
    for i in range(moves):
        if state.is_over:
            break
        seat = state.to_move[i % len(state.to_move)]
        legal = state.legal_moves(seat)
        state = state.play(legal[(i * 7) % len(legal)], seat)
    return state.record


RECORDS = [sample_record(g, n) for g in GAME_IDS for n in (0, 3, 12)]


def load_or_refuse(text):
    try:
        state = quetgames.load(text)
    except RulesError:
        return None
    # Whatever loads must be a consistent game: its record loads to itself.
    assert quetgames.load(state.record).record == state.record
    return state


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_load_takes_any_text(text):
    load_or_refuse(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=RECORD_ALPHABET, max_size=200))
def test_load_takes_any_record_shaped_text(text):
    load_or_refuse("q1." + text)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    record=st.sampled_from(RECORDS),
    edits=st.lists(st.tuples(st.sampled_from(["delete", "insert", "replace", "truncate"]), st.integers(0, 10**6), st.sampled_from(RECORD_ALPHABET)), min_size=1, max_size=4),
)
def test_mutated_records_are_refused_or_consistent(record, edits):
    for kind, where, char in edits:
        i = where % (len(record) + 1)
        if kind == "delete":
            record = record[:i] + record[i + 1 :]
        elif kind == "insert":
            record = record[:i] + char + record[i:]
        elif kind == "replace":
            record = record[:i] + char + record[i + 1 :]
        else:
            record = record[:i]
    load_or_refuse(record)


@pytest.mark.parametrize("text", [
    "q1.mu.p2_k3." + "ab" * 50_001,            # too long
    "q1.mu.p99999999999999999999_k3.",       # absurd number
    "q1.nc.l10_m1000000_s999983x999979.",    # huge but legal starts
    "q1.cc.p8_s26_r20." + "r" * 90_000,      # a very long run of moves
    "q2.mu.p2_k3.", "q0.mu.p2_k3.", "q1..p2_k3.", "q1.mu..", "q1.mu.p2_k3", "q1.mu.p2_k3..", "q1.mu.k3_p2.",
    "q1.mu.p2_k3_p2.", "q1.mu.p02_k3.", "q1.mu.p2_k3.ab.x", "q1.mu.p2_k3.ab.0~0~0",
    "<script>alert(1)</script>", "q1.mu.p2_k3.ab.0PHNjcmlwdD4~0",
])
def test_hostile_records(text):
    state = load_or_refuse(text)
    if state is not None:
        json.dumps(state.view())


def test_a_newer_format_is_named_as_such():
    with pytest.raises(InvalidRecord, match="newer version"):
        quetgames.load("q7.mu.p2_k3.")


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=150, deadline=None)
@given(move=st.text(max_size=40), steps=st.integers(0, 6))
def test_play_takes_any_text(game_id, move, steps):
    state = quetgames.load(sample_record(game_id, steps))
    if state.is_over:
        return
    seat = state.to_move[0]
    before = state.record
    try:
        state.play(move, seat)
    except quetgames.IllegalMove:
        pass
    assert state.record == before


@settings(max_examples=200, deadline=None)
@given(
    game=st.sampled_from(GAME_IDS + ["x"]),
    options=st.dictionaries(
        st.sampled_from(["players", "size", "k", "rays", "goal", "target", "length", "max_pick", "starts", "same_start", "seed", "max_rounds", "bogus"]),
        st.one_of(st.none(), st.booleans(), st.integers(-(10**40), 10**40), st.floats(), st.text(max_size=10), st.lists(st.integers(-5, 10**7), max_size=3)),
        max_size=4,
    ),
)
def test_new_game_takes_any_options(game, options):
    try:
        state = quetgames.new_game(game, **options)
    except RulesError:
        return
    assert quetgames.load(state.record).record == state.record


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(["games", "new", "open", "play", "view", "legal", "preview", "at", "commitment", "seal", "reveal", "computer", "solitaire_best", "x"]), args=st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=20)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["record", "move", "seat", "game", "options", "seats", "name", "kind", "ply", "level", "budget", "seed", "salt", "pick"]), inner, max_size=4)),
    max_leaves=8,
))
def test_bridge_answers_every_call_with_json(name, args):
    answer = json.loads(bridge.call(name, json.dumps(args)))
    assert answer["ok"] in (True, False)
    if not answer["ok"]:
        assert answer["error"]["type"] != "InternalError", answer
        assert answer["error"]["message"]


def test_bridge_refuses_broken_json():
    for text in ["", "{", "[" * 100_000, "null", '"x"', "1e999999"]:
        answer = json.loads(bridge.call("open", text))
        assert answer == {"ok": False, "error": {"type": "BadRequest", "message": answer["error"]["message"]}}


def test_bridge_commitment_is_sha256_of_salt_and_pick():
    import hashlib

    salt = "0123456789abcdef0123"
    answer = json.loads(bridge.call("commitment", json.dumps({"salt": salt, "pick": "12"})))
    assert answer == {"ok": True, "result": hashlib.sha256(b"0123456789abcdef0123:12").hexdigest()}
    other = json.loads(bridge.call("commitment", json.dumps({"salt": salt, "pick": "13"})))["result"]
    assert other != answer["result"]
    for bad in [{"salt": "short", "pick": "12"}, {"salt": salt}, {"salt": 5, "pick": "1"}]:
        assert json.loads(bridge.call("commitment", json.dumps(bad)))["error"]["type"] == "BadRequest"


def test_bridge_computer_and_solitaire_best():
    record = quetgames.new_game("enumeration", players=1, size=4, goal="parity").record
    move = json.loads(bridge.call("computer", json.dumps({"record": record, "level": "greedy"})))["result"]["move"]
    assert move in quetgames.load(record).legal_moves()
    best = json.loads(bridge.call("solitaire_best", json.dumps({"record": record})))["result"]
    assert best["exact"] is True and best["score"] >= 7  # the seven odd headers 1,3,1,3 of a 4x4 grid and a1 count already
    two = quetgames.new_game("enumeration").record
    assert json.loads(bridge.call("solitaire_best", json.dumps({"record": two})))["error"]["type"] == "BadRequest"
    games = json.loads(bridge.call("games"))["result"]
    assert all(g["computer_levels"] == ["random", "greedy", "strong"] for g in games)
