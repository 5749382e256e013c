"""Nonconformity by link: sealed picks travel in the record and the engine
checks every reveal against its seal.

A sealed round is played in three moves: the sealer's seal (``c`` and the
SHA-256 hex of salt + ":" + pick), the other seat's open pick, then the
sealer's reveal (``<pick>~<salt>``) or forfeit (``f``). In the record the
sealer's slot of the round holds the seal and, once the round is over, the
reveal:

    q1.nc.l8_m1000_s6x4.c<hex>~12~<salt>_8     Player 1 sealed 12, Player 2 picked 8
"""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quetgames
from quetgames import IllegalMove, InvalidRecord, bridge
from quetgames.games.nonconformity import commitment
from quetgames.registry import replay

SALT = "Salt0123456789abcdef"  # 20 letters and digits
OTHER_SALT = "Salt0123456789abcdeX"


def new(**options):
    return quetgames.new_game("nonconformity", **options)


def seal_hex(pick, salt=SALT):
    return hashlib.sha256(f"{salt}:{pick}".encode()).hexdigest()


def sealed_round(state, sealer, sealed_pick, open_pick, salt=SALT):
    """Seal, the other seat's open pick, reveal; returns the state after."""
    state = state.seal(str(sealed_pick), salt, sealer)
    state = state.play(str(open_pick), 1 - sealer)
    return state.reveal(str(sealed_pick), salt, sealer)


def snapshot(state):
    return state.record, json.dumps([state.view(s) for s in (None, 0, 1)], sort_keys=True), state.history, state.to_move, state.scores


# A game of starts 6 and 4 whose round 1 is plain (4 and 2) and whose round 2
# Player 1 sealed 8 and Player 2 picked 6 in the open:
#
#   round  0  1  2
#   P1     6  4  8   <- sealed
#   P2     4  2  6
HONEST = f"q1.nc.l8_m1000_s6x4.4_2_c{seal_hex(8)}~8~{SALT}_6"


# -- the commitment ---------------------------------------------------------------


def test_the_commitment_is_sha256_of_salt_colon_pick_as_the_bridge_computed_it():
    assert commitment(SALT, "12") == hashlib.sha256(f"{SALT}:12".encode()).hexdigest()
    answer = json.loads(bridge.call("commitment", json.dumps({"salt": SALT, "pick": "12"})))
    assert answer == {"ok": True, "result": commitment(SALT, "12")}


# -- the honest sequence ------------------------------------------------------------


def test_seal_open_pick_reveal():
    start = new(starts=(6, 4), length=8)
    sealed = start.seal("12", SALT, 0)
    # The record holds the commitment, never the pick; nothing is secret in it.
    assert sealed.moves_record == f"q1.nc.l8_m1000_s6x4.c{seal_hex(12)}"
    assert "12" not in sealed.record.split(".")[3].replace(seal_hex(12), "")
    for seat in (None, 0, 1):
        view = sealed.view(seat)
        assert view["record"] == sealed.record
        assert view["board"]["sealed"] == [True, False] and view["board"]["picked"] == [True, False]
        assert view["board"]["pending"] == [None, None]
        assert view["choosing"] == {"chosen": [0], "to_choose": [1], "secret": True}
        assert view["status"] == "Round 1 of 7: Player 1 has sealed a pick; Player 2 to choose a number (in the open)"
        assert SALT not in json.dumps(view)
    assert sealed.to_move == (1,)
    with pytest.raises(IllegalMove, match="round 1: Player 1 has sealed a pick; Player 2 chooses next, then Player 1 reveals it"):
        sealed.reveal("12", SALT, 0)
    # Player 2 picks in the open: everyone sees 8 (Player 1's pick is fixed already).
    answered = sealed.play("8", 1)
    assert answered.moves_record == f"q1.nc.l8_m1000_s6x4.c{seal_hex(12)}_8"
    assert answered.to_move == (0,) and answered.legal_moves(0) == ["f"]
    for seat in (None, 0, 1):
        view = answered.view(seat)
        assert view["board"]["pending"] == [None, 8] and view["record"] == answered.record
        assert view["choosing"] == {"chosen": [0, 1], "to_choose": [], "secret": True}
    assert answered.view()["status"].endswith("Player 1 has sealed a pick and Player 2 has chosen 8; Player 1 to reveal the sealed pick")
    done = answered.reveal("12", SALT, 0)
    assert done.moves_record == f"q1.nc.l8_m1000_s6x4.c{seal_hex(12)}~12~{SALT}_8"
    assert done.history == ("12", "8") and done.to_move == (0, 1)
    assert done.view()["board"]["seals"] == [{"round": 1, "seat": 0, "commitment": seal_hex(12), "revealed": True, "forfeited": False}]
    # Every step reads back exactly, and each record extends the one before it.
    for state in (sealed, answered, done):
        assert snapshot(quetgames.load(state.record)) == snapshot(state)
    # Each record continues the one before it move for move: replayed as far
    # as the earlier one goes, it is the earlier game exactly.
    steps = [start, sealed, answered, done]
    for plies, (earlier, later) in enumerate(zip(steps, steps[1:])):
        assert replay(later.record, plies) == (earlier, plies + 1)
    # A forged reveal is not a continuation: it does not even load.
    with pytest.raises(InvalidRecord, match="round 1: the pick revealed for Player 1 does not match"):
        replay(done.record.replace("~12~", "~18~"), 2)


def test_player_2_may_seal_too():
    sealed = new(starts=(6, 4)).seal("8", SALT, 1)
    assert sealed.moves_record.endswith(f".-_c{seal_hex(8)}") and sealed.to_move == (0,)
    answered = sealed.play("12", 0)
    assert answered.moves_record.endswith(f".12_c{seal_hex(8)}") and answered.to_move == (1,)
    done = answered.reveal("8", SALT, 1)
    assert done.moves_record.endswith(f".12_c{seal_hex(8)}~8~{SALT}") and done.history == ("12", "8")
    assert snapshot(quetgames.load(answered.record)) == snapshot(answered)
    assert snapshot(quetgames.load(done.record)) == snapshot(done)


def test_sealed_rounds_score_exactly_as_unsealed_ones():
    # The rules' sample game (starts 6 and 4, eight terms, 1 to 1), once with
    # every round played at one screen and once with every round sealed,
    # the sealer alternating.
    p1, p2 = [4, 8, 10, 12, 14, 7, 21], [2, 6, 3, 9, 12, 14, 7]
    plain = sealed = new(starts=(6, 4), length=8)
    for r, (a, b) in enumerate(zip(p1, p2)):
        plain = plain.play(str(a), 0).play(str(b), 1)
        sealed = sealed_round(sealed, 0, a, b) if r % 2 == 0 else sealed_round(sealed, 1, b, a)
    assert sealed.is_over and sealed.scores == plain.scores == (1, 1)
    assert sealed.history == plain.history
    for seat in (None, 0, 1):
        mine, theirs = sealed.view(seat), plain.view(seat)
        for key in ("board", "record"):
            mine.pop(key), theirs.pop(key)
        # the last round's words differ only in saying that the sealed pick was revealed
        said, plain_said = mine.pop("last_move"), theirs.pop("last_move")
        assert said.endswith(f"matches its seal. {plain_said}")
        mine.pop("announcement"), theirs.pop("announcement")
        assert mine == theirs
    board, plain_board = sealed.view()["board"], plain.view()["board"]
    for key in ("sequences", "scored", "round_log", "bands", "term_rounds", "last"):
        assert board[key] == plain_board[key]
    assert [s["seat"] for s in board["seals"]] == [0, 1, 0, 1, 0, 1, 0] and board["forfeits"] == [0, 0]
    assert snapshot(quetgames.load(sealed.record)) == snapshot(sealed)


def test_a_sealed_round_may_follow_and_precede_plain_ones():
    state = quetgames.load(HONEST)
    assert state.history == ("4", "2", "8", "6") and state.to_move == (0, 1)
    state = state.play("10", 0).play("3", 1)
    assert state.record == HONEST + "_10_3"
    assert quetgames.load(state.record) == state


# -- what the engine refuses ----------------------------------------------------------


@pytest.mark.parametrize(
    "moves, message",
    [
        # Forged reveal: Player 1 sealed 8 in round 2; the record says 10, same salt.
        (f"4_2_c{seal_hex(8)}~10~{SALT}_6", "round 2: the pick revealed for Player 1 does not match the seal Player 1 sent"),
        # The right pick with an altered salt.
        (f"4_2_c{seal_hex(8)}~8~{OTHER_SALT}_6", "round 2: the pick revealed for Player 1 does not match the seal Player 1 sent"),
        # Player 2 forged the same way.
        (f"4_2_10_c{seal_hex(6)}~12~{SALT}", "round 2: the pick revealed for Player 2 does not match the seal Player 2 sent"),
        # The seal, Player 2's open pick, then a plain pick for Player 1 in place of the reveal.
        (f"4_2_c{seal_hex(8)}_6_10_3", "round 2: Player 1 sealed a pick this round: only its reveal"),
        # A reveal with no seal before it.
        (f"4_2_8~{SALT}_6", "round 2: Player 1's reveal or forfeit in the record has no sealed pick before it"),
        ("4_2_8_f", "round 2: Player 2's reveal or forfeit in the record has no sealed pick before it"),
        # A truncated seal, a seal in capitals, a seal cut short after its reveal.
        (f"4_2_c{seal_hex(8)[:-1]}~8~{SALT}_6", "round 2: Player 1's sealed pick in the record is damaged"),
        (f"4_2_c{seal_hex(8).upper()}~8~{SALT}_6", "round 2: Player 1's sealed pick in the record is damaged"),
        (f"4_2_c{seal_hex(8)}~8~{SALT[:10]}_6", "round 2: Player 1's sealed pick in the record is damaged"),
        (f"4_2_c{seal_hex(8)}~8_6", "round 2: Player 1's sealed pick in the record is damaged"),
        # Both seats sealing the same round.
        (f"4_2_c{seal_hex(8)}_c{seal_hex(6)}", "round 2: Player 1 has already chosen; only the first pick of a round can be sealed"),
        # Revealed before Player 2 picked.
        (f"4_2_c{seal_hex(8)}~8~{SALT}_-", "round 2: Player 1 has sealed a pick; Player 2 chooses next"),
    ],
)
def test_load_refuses_a_seal_that_does_not_hold_naming_the_round(moves, message):
    with pytest.raises(InvalidRecord, match=message.replace("(", r"\(")):
        quetgames.load(f"q1.nc.l8_m1000_s6x4.{moves}")


def test_play_refuses_the_same_cheats():
    answered = new(starts=(6, 4)).play("4", 0).play("2", 1).seal("8", SALT, 0).play("6", 1)
    before = snapshot(answered)
    with pytest.raises(IllegalMove, match="round 2: the pick revealed for Player 1 does not match the seal Player 1 sent"):
        answered.reveal("10", SALT, 0)
    with pytest.raises(IllegalMove, match="round 2: the pick revealed for Player 1 does not match"):
        answered.reveal("8", OTHER_SALT, 0)
    with pytest.raises(IllegalMove, match="round 2: Player 1 sealed a pick this round: only its reveal"):
        answered.play("10", 0)
    with pytest.raises(IllegalMove, match="not a reveal"):
        answered.play("8~short", 0)
    with pytest.raises(IllegalMove, match="round 1: Player 1 has no sealed pick to reveal"):
        new(starts=(6, 4)).reveal("12", SALT, 0)
    with pytest.raises(IllegalMove, match="round 1: Player 2 has no sealed pick to forfeit"):
        new(starts=(6, 4)).play("f", 1)
    with pytest.raises(IllegalMove, match="is not a seal"):
        new(starts=(6, 4)).play("c" + seal_hex(12)[:-1], 0)
    assert snapshot(answered) == before


def test_only_the_first_pick_of_a_round_is_sealed_and_only_while_the_other_must_choose():
    state = new(starts=(6, 4))
    with pytest.raises(IllegalMove, match="round 1: Player 1 has already chosen; only the first pick"):
        state.play("12", 0).seal("8", SALT, 1)
    with pytest.raises(IllegalMove, match="round 1: Player 2 has already chosen"):
        state.seal("8", SALT, 1).play("c" + seal_hex(12), 0)
    # 97 has no multiple but itself up to 100: Player 1 sits out, Player 2's pick is revealed at once.
    lonely = new(starts=(97, 4), max_pick=100)
    with pytest.raises(IllegalMove, match="round 1: Player 1 sits out, so Player 2's pick is revealed at once"):
        lonely.seal("8", SALT, 1)


def test_seal_checks_the_pick_and_the_salt_first():
    state = new(starts=(6, 4))
    with pytest.raises(IllegalMove, match="shares no prime factor"):
        state.seal("7", SALT, 0)
    for salt in ["short", "x" * 25, "Salt0123456789ab-d", "Salt_0123456789ab"]:
        with pytest.raises(IllegalMove, match="a salt is 16 to 24 letters"):
            state.seal("12", salt, 0)
    with pytest.raises(IllegalMove, match="say which seat"):
        state.seal("12", SALT)


def test_a_seal_of_an_illegal_pick_can_only_be_forfeited():
    # Sealed by hand (not through seal(), which checks): 7 shares nothing with 6.
    answered = new(starts=(6, 4)).play("c" + seal_hex(7), 0).play("8", 1)
    with pytest.raises(IllegalMove, match="round 1: Player 1's sealed pick cannot be played .*7 shares no prime factor.*it can only be forfeited"):
        answered.reveal("7", SALT, 0)
    assert answered.play("f", 0).history == ("-", "8")


# -- forfeits ------------------------------------------------------------------------


def test_a_forfeit_costs_the_round_and_gives_the_opponent_a_point():
    # round  0   1   2
    # P1     2  10   -    forfeits its sealed pick in round 2
    # P2    20   4  [8]   8 is inside 2..10: a point, plus one for the forfeit
    state = new(starts=(2, 20), max_pick=100).play("10", 0).play("4", 1)
    answered = state.seal("8", SALT, 0).play("8", 1)
    forfeited = answered.play("f", 0)
    assert forfeited.history == ("10", "4", "-", "8")
    assert forfeited.scores == (0, 2)
    board = forfeited.view()["board"]
    assert board["sequences"] == [[2, 10], [20, 4, 8]]
    assert board["round_log"][1] == {"round": 2, "picks": [None, 8], "scored": [False, True]}
    assert board["forfeits"] == [1, 0]
    assert board["seals"] == [{"round": 2, "seat": 0, "commitment": seal_hex(8), "revealed": False, "forfeited": True}]
    assert forfeited.moves_record.endswith(f".10_4_c{seal_hex(8)}~f_8")
    # Player 1 plays on from its last term, 10.
    assert forfeited.to_move == (0, 1) and forfeited.legal_moves(0)[:3] == ["4", "5", "6"]
    assert snapshot(quetgames.load(forfeited.record)) == snapshot(forfeited)
    # Revealed instead, the same round scores 1 to 1 (P1's 8 is inside 4..20).
    assert answered.reveal("8", SALT, 0).scores == (1, 1)


def test_a_forfeit_in_the_last_round_ends_the_game():
    state = new(starts=(6, 4), length=2).seal("8", SALT, 1).play("12", 0).play("f", 1)
    assert state.is_over and state.scores == (1, 0) and state.winners == (0,)
    assert "Player 1 wins 1 to 0" in state.view()["status"]
    assert quetgames.load(state.record) == state


# -- old records --------------------------------------------------------------------


@pytest.mark.parametrize(
    "record",
    [
        "q1.nc.l8_m1000_s6x4.",
        "q1.nc.l8_m1000_s6x4.4_2_8_6_10_3_12_9_14_12_7_14_21_7",
        "q1.nc.l8_m1000_s6x4.4_2_8_6_10",
        "q1.nc.l8_m1000_s6x4.4_2_-_6",
        "q1.nc.l4_m100_s97x4.-_2_-_6_-_3",
        "q1.nc.l8_m1000_s6x4.4_2.0QW5u~1Qm8",
    ],
)
def test_records_from_before_seals_load_and_write_as_before(record):
    state = quetgames.load(record)
    assert state.record == record and state.seals == ()
    assert state.view()["board"]["seals"] == [] and state.view()["board"]["sealed"] == [False, False]


# -- the length rule ------------------------------------------------------------------


def test_a_default_game_with_every_round_sealed_stays_within_1000_characters():
    # The longest salt (24) and the longest picks (1000 is the only 4-digit one; then the largest).
    state = new()
    salt = "S" * 24
    r = 0
    while state.to_move:
        sealer = r % 2
        mine = state.legal_moves(sealer)[-1]
        state = state.seal(mine, salt, sealer)
        state = state.play(state.legal_moves(1 - sealer)[-1], 1 - sealer).reveal(mine, salt, sealer)
        r += 1
    assert r == 9 and len(state.record) <= 1000
    assert quetgames.load(state.record) == state


# -- random honest games ----------------------------------------------------------------

SALTS = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", min_size=16, max_size=24)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=st.fixed_dictionaries({"length": st.integers(2, 8), "max_pick": st.integers(100, 200), "seed": st.integers(0, 2**31 - 1)}),
    data=st.data(),
)
def test_random_games_with_seals_round_trip(options, data):
    state = new(**options)
    while state.to_move:
        kind = data.draw(st.sampled_from(["plain", "seal", "forfeit"])) if len(state.to_move) == 2 else "plain"
        if kind == "plain":
            seat = data.draw(st.sampled_from(state.to_move))
            state = state.play(data.draw(st.sampled_from(state.legal_moves(seat))), seat)
        else:
            sealer, salt = data.draw(st.sampled_from([0, 1])), data.draw(SALTS)
            pick = data.draw(st.sampled_from(state.legal_moves(sealer)))
            sealed = state.seal(pick, salt, sealer)
            assert snapshot(quetgames.load(sealed.record)) == snapshot(sealed)
            other = 1 - sealer
            answered = sealed.play(data.draw(st.sampled_from(sealed.legal_moves(other))), other)
            assert snapshot(quetgames.load(answered.record)) == snapshot(answered)
            # Nothing of the sealed pick can be learnt from the position before the reveal.
            # The record grows by whole moves, and this round's part of it holds no salt.
            assert answered.moves_record.startswith(state.moves_record) and salt not in answered.moves_record[len(state.moves_record):]
            assert answered.view(other)["board"]["pending"][sealer] is None
            state = answered.reveal(pick, salt, sealer) if kind == "seal" else answered.play("f", sealer)
        assert quetgames.load(state.record) == state
    assert snapshot(quetgames.load(state.record)) == snapshot(state)
    forfeits = state.view()["board"]["forfeits"]
    assert sum(state.scores) >= sum(forfeits)


RECORD_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._~-"
SEALED = [
    HONEST,
    f"q1.nc.l8_m1000_s6x4.4_2_c{seal_hex(8)}_6",
    f"q1.nc.l8_m1000_s6x4.4_2_c{seal_hex(8)}~f_6_10_3",
    f"q1.nc.l8_m1000_s6x4.-_c{seal_hex(8)}",
]


@settings(max_examples=300, deadline=None)
@given(
    record=st.sampled_from(SEALED),
    edits=st.lists(st.tuples(st.sampled_from(["delete", "insert", "replace", "truncate"]), st.integers(0, 10**6), st.sampled_from(RECORD_ALPHABET)), min_size=1, max_size=3),
)
def test_edited_sealed_records_are_refused_or_consistent(record, edits):
    for kind, where, char in edits:
        i = where % (len(record) + 1)
        record = {"delete": record[:i] + record[i + 1:], "insert": record[:i] + char + record[i:],
                  "replace": record[:i] + char + record[i + 1:], "truncate": record[:i]}[kind]
    try:
        state = quetgames.load(record)
    except quetgames.RulesError:
        return
    assert quetgames.load(state.record).record == state.record == record
    # Whatever loads has every reveal matching its seal.
    for seal in state.seals:
        if seal.salt is not None:
            assert commitment(seal.salt, str(seal.pick)) == seal.commitment


# -- the bridge ---------------------------------------------------------------------------


def ask(name, **args):
    return json.loads(bridge.call(name, json.dumps(args)))


def test_bridge_seal_and_reveal():
    record = new(starts=(6, 4)).with_game_id(None).record  # (a record without an id: its moves come last)
    sealed = ask("seal", record=record, seat=0, pick="12", salt=SALT)["result"]
    assert sealed["keep"] == {"seat": 0, "round": 1, "pick": "12", "salt": SALT, "commitment": seal_hex(12)}
    assert sealed["record"] == sealed["view"]["record"] == f"{record}c{seal_hex(12)}"
    assert SALT not in sealed["record"] and SALT not in json.dumps(sealed["view"])
    answered = ask("play", record=sealed["record"], seat=1, move="8")["result"]
    wrong = ask("reveal", record=answered["record"], seat=0, pick="18", salt=SALT)
    assert wrong["error"] == {"type": "IllegalMove", "message": "round 1: the pick revealed for Player 1 does not match the seal Player 1 sent"}
    done = ask("reveal", record=answered["record"], seat=0, pick="12", salt=SALT)["result"]
    assert done["view"]["history"] == ["12", "8"]
    assert ask("open", record=done["record"].replace("~12~", "~18~"))["error"]["type"] == "InvalidRecord"
    forfeited = ask("play", record=answered["record"], seat=0, move="f")["result"]
    assert forfeited["view"]["scores"] == [0, 1]
    assert ask("seal", record=quetgames.new_game("multiplications").record, seat=0, pick="1", salt=SALT)["error"]["type"] == "BadRequest"
    assert ask("seal", record=record, seat=0, pick="12", salt="short")["error"]["type"] == "IllegalMove"
