"""The record format (docs/RECORD.md): game ids, comments and side lines,
read as strictly as moves, round-tripping exactly, public like the moves."""

from __future__ import annotations

import io
import json
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import quetgames
from quetgames import InvalidNote, InvalidOptions, InvalidRecord, bridge
from quetgames.__main__ import main
from quetgames.record import COMMENT_LIMIT, MAX_RECORD, encode_text, new_game_id, parse_record

GAME_IDS = list(quetgames.GAMES)
FRAGMENT_SAFE = re.compile(r"[A-Za-z0-9._~-]+")


def ask(name: str, **args: Any) -> Any:
    answer = json.loads(bridge.call(name, json.dumps(args)))
    assert answer["ok"], answer
    return answer["result"]


def refused(name: str, **args: Any) -> dict[str, str]:
    answer = json.loads(bridge.call(name, json.dumps(args)))
    assert not answer["ok"], answer
    return answer["error"]  # type: ignore[no-any-return]


def first_moves(game_id: str, n: int, seed: int = 1) -> quetgames.State:
    """A game of `game_id` after `n` random moves (Nonconformity: hot-seat picks)."""
    rng = random.Random(seed)
    state = quetgames.new_game(game_id)
    for _ in range(n):
        seat = state.to_move[0]
        state = state.play(rng.choice(state.legal_moves(seat)), seat)
    return state


# -- the game id ---------------------------------------------------------------


def test_every_new_game_draws_its_own_id() -> None:
    ids = {quetgames.new_game("multiplications").game_id for _ in range(50)}
    assert len(ids) == 50
    for game_id in ids:
        assert game_id is not None and re.fullmatch(r"[A-Za-z0-9_-]{12}", game_id)  # 72 bits


def test_the_id_is_kept_by_load_and_every_continuation() -> None:
    state = quetgames.new_game("enumeration")
    game_id = state.game_id
    for _ in range(4):
        state = state.play(state.legal_moves()[0])
        assert state.game_id == game_id
        assert quetgames.load(state.record).game_id == game_id
    assert f".i{game_id}" in state.record and f".i{game_id}" in state.public_record


def test_a_seeded_id_is_reproducible() -> None:
    assert new_game_id(random.Random(5)) == new_game_id(random.Random(5)) != new_game_id(random.Random(6))


def test_records_from_before_ids_load_and_keep_their_text() -> None:
    for old in ("q1.mu.p2_k3.ddbc", "q1.cc.p2_s4_r3.fgs", "q1.en.p2_s6_gc.aabbbaaaadddf",
                "q1.mu.p2_k3.ddbc.0QW5u~0Qm9i"):
        state = quetgames.load(old)
        assert state.game_id is None and state.record == old


@pytest.mark.parametrize("bad, says", [
    ("q2.mu.p2_k3.dd.iabc", "8 to 16"),                      # too short
    ("q2.mu.p2_k3.dd.i" + "a" * 17, "8 to 16"),             # too long
    ("q2.mu.p2_k3.dd.iabcdefgh~", "8 to 16"),                # outside the id alphabet
    ("q2.mu.p2_k3.dd.iabcdefgh.iabcdefgh", "given twice"),   # two ids
    ("q2.mu.p2_k3.dd.c0~SGk.iabcdefgh", "out of place"),     # sections out of order
    ("q2.mu.p2_k3.dd.xabc", "does not understand"),
    ("q2.mu.p2_k3.dd", "usual form"),                        # q2 with nothing that needs it
    ("q3.mu.p2_k3.dd", "newer version"),
])
def test_a_bad_id_or_section_is_refused_in_words(bad: str, says: str) -> None:
    with pytest.raises(InvalidRecord, match=says):
        quetgames.load(bad)


def test_with_game_id_checks_its_argument() -> None:
    state = quetgames.new_game("multiplications")
    assert state.with_game_id("abcd_efg-123").game_id == "abcd_efg-123"
    assert state.with_game_id(None).record == "q1.mu.p2_k3."
    for bad in ("short", "x" * 17, "has space", 12345678):
        with pytest.raises(InvalidOptions):
            state.with_game_id(bad)  # type: ignore[arg-type]


# -- comments ------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_comments_and_a_side_line_round_trip_in_every_game(game_id: str) -> None:
    game = first_moves(game_id, 4)
    game = game.with_comment(0, "Before anything: <b>bold?</b>").with_comment(2, "Two moves in.\nA second line ✓")
    at = next(p for p in range(game.plies) if len(game.position(p).legal_moves(game.position(p).to_move[0])) > 1)
    seat = game.position(at).to_move[0]
    other = next(m for m in game.position(at).legal_moves(seat)
                 if game.position(at).play(m, seat).moves_record != game.position(at + 1).moves_record)
    game = game.with_line(at, [(other, seat)], comments={1: "What if & why"})
    text = game.record
    assert FRAGMENT_SAFE.fullmatch(text) and text.startswith("q2.")
    again = quetgames.load(text)
    assert again.record == text and again == game
    assert again.comment(0) == "Before anything: <b>bold?</b>" and again.comment(2).endswith("✓")
    assert again.comment(3) == "" and again.lines[0].ply == at and again.lines[0].comment(1) == "What if & why"
    # public: the link carries them
    assert game.public_record == text
    view = ask("open", record=text)["view"]
    assert view["notes"]["comments"][0] == {"ply": 0, "text": "Before anything: <b>bold?</b>"}
    assert view["notes"]["lines"][0]["moves"][0]["move"] == other


def test_a_comment_set_twice_replaces_and_empty_removes() -> None:
    game = first_moves("multiplications", 3).with_comment(1, "one")
    assert game.with_comment(1, "two").comments == ((1, "two"),)
    assert game.with_comment(1, "").record == game.with_comment(1, "").with_comment(1, "").record
    assert game.with_comment(1, "").comments == ()


@pytest.mark.parametrize("text, says", [
    ("x" * (COMMENT_LIMIT + 1), "at most 1,000"),
    ("a" * 10_000, "this one has 10,000"),
    ("nul \x00 here", "control characters"),
    ("bell \x07", "control characters"),
    ("turn \u202e around", "direction"),
    ("isolate \u2066 this", "direction"),
    ("half \ud800 a pair", "broken character"),
])
def test_a_bad_comment_is_refused_in_words(text: str, says: str) -> None:
    game = first_moves("prime-target", 2)
    with pytest.raises(InvalidNote, match=says):
        game.with_comment(1, text)
    error = refused("annotate", record=game.record, ply=1, text=text)
    assert error["type"] == "InvalidNote" and says in error["message"]


@pytest.mark.parametrize("coded, says", [
    (encode_text("nul \x00"), "control characters"),
    (encode_text("flip \u202d"), "direction"),
    (encode_text("y" * 10_000), "at most 1,000"),
    ("7aGVsbG8", "not readable"),          # not UTF-8
    ("a", "damaged"),                      # not base64
])
def test_a_bad_comment_in_a_record_is_refused_in_words(coded: str, says: str) -> None:
    base = first_moves("multiplications", 2).record
    with pytest.raises(InvalidRecord, match=says):
        quetgames.load(f"{base}.c1~{coded}")


def test_a_comment_past_the_end_or_out_of_order_is_refused() -> None:
    game = first_moves("multiplications", 2)
    with pytest.raises(InvalidRecord, match="the game has 2 moves"):
        quetgames.load(f"{game.record}.c3~SGk")
    with pytest.raises(InvalidRecord, match="order"):
        quetgames.load(f"{game.record}.c2~SGk~1~SGk")
    with pytest.raises(InvalidNote, match="from 0 to 2"):
        game.with_comment(3, "later")


def test_lone_surrogates_in_a_record_are_refused() -> None:
    # UTF-8 cannot carry a lone surrogate; its encoded bytes are refused
    coded = "7aCA"  # ED A0 80: a surrogate written as if it were UTF-8
    with pytest.raises(InvalidRecord, match="not readable"):
        quetgames.load(first_moves("multiplications", 1).record + f".c1~{coded}")


# -- side lines ----------------------------------------------------------------------------


def test_a_side_line_must_be_legal_where_it_branches() -> None:
    game = first_moves("multiplications", 3)
    taken = game.history[0]  # a square already marked at ply 1
    with pytest.raises(quetgames.IllegalMove):
        game.with_line(1, [taken])
    illegal = f"{game.record}.v1~{encode_text('1:' + taken)}"
    with pytest.raises(InvalidRecord, match="side line 1 of the record cannot be played"):
        quetgames.load(illegal)


def test_a_side_line_past_the_end_is_refused() -> None:
    game = first_moves("multiplications", 3)
    with pytest.raises(InvalidRecord, match="branches off at move 3, but the game has only 3 moves"):
        quetgames.load(f"{game.record}.v3~{encode_text('1:a1')}")
    with pytest.raises(InvalidNote, match="from move 0 to 2"):
        game.with_line(3, ["a1"])


def test_a_side_line_that_repeats_the_game_is_refused() -> None:
    game = first_moves("multiplications", 3)
    with pytest.raises(InvalidNote, match="repeats"):
        game.with_line(1, [game.history[1]])


def test_side_lines_extend_cut_drop_and_step() -> None:
    game = quetgames.new_game("multiplications")
    for move in ("d4", "a1", "b2"):
        game = game.play(move)
    game = game.with_line(1, ["g7"]).extend_line(0, ["a6", "b5"])
    assert [m for m, _ in game.lines[0].moves] == ["g7", "a6", "b5"]
    assert [s for _, s in game.lines[0].moves] == [1, 0, 1]
    assert game.line_position(0, 2).history == ("d4", "g7", "a6")
    assert game.line_position(0).history == ("d4", "g7", "a6", "b5")
    cut = game.with_line_comment(0, 3, "deep").extend_line(0, ["c3"], keep=1)
    assert [m for m, _ in cut.lines[0].moves] == ["g7", "c3"] and cut.lines[0].comments == ()
    assert game.without_line(0).lines == ()
    with pytest.raises(InvalidNote, match="no side line 1"):
        game.without_line(1)
    # undo / stepping back keeps the notes that still apply
    back = game.with_comment(1, "first").with_comment(3, "third").position(1)
    assert back.comments == ((1, "first"),) and back.lines == ()


def test_side_lines_carry_no_seals() -> None:
    start = quetgames.new_game("nonconformity", starts=(6, 4))
    game = start.play("12", 0).play("8", 1)
    with pytest.raises(InvalidNote, match="sealed"):
        game.with_line(0, [("c" + "0" * 64, 0)])
    # plain picks make a side line of a simultaneous game, each with its seat
    lined = game.with_line(0, [("10", 0), ("8", 1)])
    assert quetgames.load(lined.record).lines[0].moves == (("10", 0), ("8", 1))


def test_a_pending_secret_pick_keeps_out_of_the_public_record_with_its_notes() -> None:
    start = quetgames.new_game("nonconformity", starts=(6, 4)).play("12", 0).play("8", 1)
    picked = start.play("18", 0).with_comment(3, "secret thoughts").with_comment(2, "open")
    assert "secret" in "".join(t for _, t in quetgames.load(picked.record).comments)
    public = quetgames.load(picked.public_record)
    assert public.comments == ((2, "open"),) and "18" not in public.history


def test_the_bridge_annotates_branches_and_steps() -> None:
    game = ask("new", game="multiplications", options={"k": 3})
    record = game["record"]
    for move in ("d4", "a1"):
        record = ask("play", record=record, move=move)["record"]
    record = ask("annotate", record=record, ply=2, text="<img src=x onerror=alert(1)>")["record"]
    branched = ask("branch", record=record, ply=1, move="g7")
    assert branched["line"] == 0
    record = ask("extend", record=branched["record"], line=0, move="a6")["record"]
    record = ask("annotate", record=record, line=0, ply=2, text="then a6")["record"]
    shown = ask("at", record=record, line=0, ply=2)
    assert shown["view"]["history"] == ["d4", "g7", "a6"] and shown["comment"] == "then a6"
    assert shown["notes"]["comments"] == [{"ply": 2, "text": "<img src=x onerror=alert(1)>"}]
    main = ask("at", record=record, ply=2)
    assert main["comment"] == "<img src=x onerror=alert(1)>" and main["view"]["comment"] == main["comment"]
    assert ask("drop_line", record=record, line=0)["view"]["notes"]["lines"] == []
    info = ask("record_info", record=record)
    assert info["game"] == "multiplications" and info["version"] == 2 and info["game_id"] == game["view"]["game_id"]
    assert refused("at", record=record, line=3, ply=0)["message"] == "this game has no side line 3"


def test_annotate_many_sets_every_comment_at_once() -> None:
    game = first_moves("multiplications", 4).with_comment(2, "kept").with_line(1, ["g7"])
    done = ask("annotate_many", record=game.record, comments=[
        {"ply": 1, "text": "one"}, {"ply": 3, "text": "three"},
        {"ply": 2, "text": "replaced"}, {"ply": 1, "line": 0, "text": "in the line"}])
    again = quetgames.load(done["record"])
    assert again.comments == ((1, "one"), (2, "replaced"), (3, "three"))
    assert again.lines[0].comment(1) == "in the line" and again.history == game.history
    # "" removes, as in annotate
    assert quetgames.load(ask("annotate_many", record=done["record"], comments=[{"ply": 3, "text": ""}])["record"]).comment(3) == ""


@pytest.mark.parametrize("comments, says", [
    ([{"ply": 1, "text": "fine"}, {"ply": 1, "text": "turn \u202e"}], "comment 2 of the list: a comment may not hold characters that change"),
    ([{"ply": 9, "text": "past the end"}], "comment 1 of the list: a comment goes at a move from 0 to 4, not 9"),
    ([{"ply": 1, "text": "x" * (COMMENT_LIMIT + 1)}], "comment 1 of the list: a comment may have at most 1,000"),
    ([{"ply": 1, "line": 5, "text": "no line"}], "comment 1 of the list: this game has no side line 5"),
    ([{"ply": 1, "text": 7}], "comment 1 of the list: a comment is text"),
    ([3], "comment 1 of the list is not an object"),
    ([], "needs a list of comments"),
    ("not a list", "needs a list of comments"),
    ([{"ply": 0, "text": "a"}] * 1001, "at most 1,000 comments"),
])
def test_annotate_many_refuses_in_words_and_changes_nothing(comments: object, says: str) -> None:
    game = first_moves("prime-target", 4)
    error = refused("annotate_many", record=game.record, comments=comments)
    assert says in error["message"] and error["type"] in ("InvalidNote", "BadRequest")


def test_a_record_too_long_is_refused_naming_the_limit() -> None:
    with pytest.raises(InvalidRecord, match=f"at most {MAX_RECORD:,}"):
        quetgames.load("q2.mu.p2_k3." + "a" * MAX_RECORD)


def test_parse_and_format_are_a_matched_pair() -> None:
    text = first_moves("enumeration", 5).with_comment(1, "hi").record
    parts = parse_record(text)
    assert parts.version == 2 and parts.code == "en" and parts.notes.comment(1) == "hi"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAME_IDS), st.integers(0, 2**32 - 1), st.integers(1, 8),
       st.lists(st.text(min_size=1, max_size=40).filter(lambda t: t.isprintable()), max_size=4))
def test_any_plain_comment_round_trips(game_id: str, seed: int, n: int, texts: list[str]) -> None:
    game = first_moves(game_id, n, seed)
    for i, text in enumerate(texts):
        game = game.with_comment(min(i, game.plies), text)
    again = quetgames.load(game.record)
    assert again.record == game.record and again.comments == game.comments


def test_show_prints_the_id_comments_and_side_lines() -> None:
    game = quetgames.new_game("multiplications").play("d4").play("a1")
    game = game.with_comment(1, "The centre.").with_line(1, ["g7"], comments={1: "A far corner"})
    out = io.StringIO()
    assert main(["show", game.record], stdout=out) == 0
    text = out.getvalue()
    assert f"Game id: {game.game_id}" in text and "After move 1: The centre." in text
    assert "Side line 1, instead of move 2:" in text and "x at g7 (g7)  -- A far corner" in text


def test_the_docstring_examples_hold() -> None:
    import doctest

    from quetgames import record

    assert doctest.testmod(record).failed == 0 and doctest.testmod(record).attempted >= 4
