"""A rewrite is caught by what it changes, not by its id (issue 54): `compare`
given the seats a device plays flags a copy of its game under another id that
rewrites one of their moves, and a game opened apart records where it branched
(the record's `b` section, docs/RECORD.md), so the device it came from can
name the change too."""

from __future__ import annotations

import json
from typing import Any

import pytest

import quetgames
from quetgames import bridge
from quetgames.compare import compare
from quetgames.errors import InvalidOptions, InvalidRecord

SALT = "Salt0123456789abcdef"


def ask(name: str, **args: Any) -> Any:
    answer = json.loads(bridge.call(name, json.dumps(args)))
    assert answer["ok"], answer
    return answer["result"]


def prime_target(*moves: str) -> quetgames.State:
    state = quetgames.new_game("prime-target").with_seats(["Ana", "Ben"])
    for move in moves:
        state = state.play(move)
    return state


# Ana (seat 0) writes 4 in wedge 1, Ben 2 in wedge 2, Ana 7 in wedge 3 ...
GAME = ("4@1", "2@2", "7@3", "1@4")


def test_a_copy_under_another_id_that_rewrites_my_move_is_changed() -> None:
    mine = prime_target(*GAME)
    # Ben's device rewrote Ana's second move (7@3 -> 5@3) and drew another id
    copy = prime_target(*GAME[:2], "5@3").with_game_id(quetgames.new_game_id())
    got = compare(mine.record, copy.record, seats=[0])
    assert got.relation == "changed" and got.ply == 2
    assert got.message == ("this link changes move 3: Ana wrote 7 in wedge 3 of the centre here; the link says Ana wrote 5 in wedge 3 of the centre; "
                           "it holds a copy of your game under another game id")
    # a device that does not know its seats, or does not play Ana, sees another game (as before)
    assert compare(mine.record, copy.record).relation == "other"
    assert compare(mine.record, copy.record, seats=[1]).relation == "other"


def test_another_game_from_the_same_start_stays_another_game() -> None:
    mine = prime_target(*GAME)
    # Play again: the same players and options, a new id, another first move
    again = prime_target("3@2", "5@1")
    assert compare(mine.record, again.record, seats=[0, 1]).relation == "other"
    # a finished game held here: Play again's new game may agree on its first moves, and is another game
    done = prime_target(*GAME)
    while not done.is_over:
        done = done.play(done.legal_moves()[0])
    again_alike = prime_target(*GAME[:2], "5@3")
    assert compare(done.record, again_alike.record, seats=[0, 1]).relation == "other"
    # the same moves under another id (a game played on apart, honestly) is another game
    apart = prime_target(*GAME, "6@5").with_game_id(quetgames.new_game_id())
    assert compare(mine.record, apart.record, seats=[0]).relation == "other"
    # other names: another game
    other_names = prime_target(*GAME[:2], "5@3").with_seats(["Ana", "Cy"])
    assert compare(mine.record, other_names.record, seats=[0]).relation == "other"


def test_a_branch_round_trips_and_is_checked() -> None:
    game = prime_target(*GAME)
    apart = game.with_game_id("Apart1234567").with_branch(game.game_id, 2)
    text = apart.record
    assert f".iApart1234567.b2~{game.game_id}." in text
    loaded = quetgames.load(text)
    assert loaded.branch == (game.game_id, 2) and loaded.record == text
    assert loaded.play("6@5").branch == (game.game_id, 2), "every move keeps the branch"
    assert loaded.view()["branch"] == {"game_id": game.game_id, "ply": 2}
    assert loaded.position(1).branch == loaded.branch
    assert loaded.moves_record == prime_target(*GAME).with_game_id(None).record
    # records without one are as they were
    assert quetgames.load(game.record).branch is None and ".b" not in game.record
    with pytest.raises(InvalidRecord, match="branch is at move 9, but the game has 4 moves"):
        quetgames.load(text.replace(".b2~", ".b9~"))
    with pytest.raises(InvalidRecord, match="branch is damaged"):
        quetgames.load(text.replace(f".b2~{game.game_id}", ".b2"))
    with pytest.raises(InvalidRecord, match="game id is out of place"):
        quetgames.load(text.replace(f".iApart1234567.b2~{game.game_id}", f".b2~{game.game_id}.iApart1234567"))
    with pytest.raises(InvalidOptions):
        game.with_game_id(None).with_branch(game.game_id, 1)
    with pytest.raises(InvalidOptions):
        game.with_branch(game.game_id, 5)


def test_a_game_opened_apart_names_the_change_on_the_device_it_came_from() -> None:
    # Ana's device holds the game; Ben's link rewrote Ana's first move (4@1 -> 2@1)
    mine = prime_target(*GAME[:2])
    rewritten = prime_target("2@1", "4@2").with_game_id(mine.game_id)
    assert compare(mine.record, rewritten.record).relation == "changed"
    # Ben's device opened it as a separate game (the bridge's new_id with the move it parts at) and played on
    apart = ask("new_id", record=rewritten.record, branch=0)
    assert apart["view"]["branch"] == {"game_id": mine.game_id, "ply": 0}
    sent = ask("play", record=apart["record"], move="5@3")["record"]
    # on Ana's device the link is another id, parting at move 1: caught by its branch, even not knowing her seats
    got = ask("compare", mine=mine.record, theirs=sent)
    assert got["relation"] == "changed" and got["ply"] == 0
    assert got["message"].startswith("this link changes move 1: Ana wrote 4 in wedge 1 of the centre here; the link says Ana wrote 2 in wedge 1 of the centre")
    assert got["message"].endswith("it holds a separate game made from yours")
    # the separate game itself, on the device that made it, continues as any game
    assert ask("compare", mine=apart["record"], theirs=sent)["relation"] == "ahead"
    # without `branch`, new_id marks nothing (Play on as a new game, an older link's new game)
    assert ask("new_id", record=rewritten.record)["view"]["branch"] is None


def test_compare_refuses_bad_seats_in_words() -> None:
    game = prime_target(*GAME)
    answer = json.loads(bridge.call("compare", json.dumps({"mine": game.record, "theirs": game.record, "seats": "Ana"})))
    assert not answer["ok"] and answer["error"]["message"] == "seats is a list of seat numbers"


def test_a_changed_seal_is_said_plainly() -> None:
    start = quetgames.new_game("nonconformity", starts=[6, 4]).with_seats(["Ana", "Ben"])
    mine = start.seal("12", SALT, 0).play("8", 1)
    resealed = start.seal("10", "Z" * 20, 0).play("8", 1)
    assert compare(mine.record, resealed.record).message == (
        "this link changes round 1: the seal Ana sent is not the one in this link (the link carries another seal in its place)")
    with pytest.raises(quetgames.IllegalMove, match="round 1: the pick revealed for Ana does not match the seal Ana sent"):
        mine.reveal("10", SALT, 0)


def test_news_says_what_the_other_phone_did() -> None:
    start = quetgames.new_game("nonconformity", starts=[6, 4]).with_seats(["Ana", "Ben"])
    # Ana's phone sealed round 1; Ben picked; Ana's phone revealed and sealed round 2
    mine = start.seal("12", SALT, 0).play("8", 1)
    theirs = mine.reveal("12", SALT, 0).seal("18", SALT, 0)
    said = ask("news", mine=start.seal("12", SALT, 0).record, theirs=theirs.record)
    assert said == ["Ana revealed the sealed pick, which matches its seal. Round 1: Ana picked 12 and Ben picked 8; nobody's pick scores"]
    # a turn-based game: each move since, in words; nothing for a link that does not continue mine
    game = prime_target(*GAME[:2])
    assert ask("news", mine=game.record, theirs=game.play("7@3").play("1@4").record) == [
        "Ana wrote 7 in wedge 3 of the centre", "Ben wrote 1 in wedge 4 of the centre"]
    assert ask("news", mine=game.play("7@3").record, theirs=game.record) == []


def test_a_copy_must_share_a_choice() -> None:
    # Enumeration's first moves may be forced; a game parting at the first choice is another game, whatever the seats
    for game_id in quetgames.GAMES:
        start = quetgames.new_game(game_id).with_seats(["Ana", "Ben"])
        state = start
        if len(state.to_move) != 1:
            continue  # (a round of secret picks: every pick is a choice)
        while not state.is_over and len(state.legal_moves()) == 1:
            state = state.play(state.legal_moves()[0])
        if state.is_over or len(state.history) == 0:
            continue
        first, last = state.legal_moves()[0], state.legal_moves()[-1]
        mine = state.play(first)
        theirs = state.with_game_id(quetgames.new_game_id()).play(last)
        assert compare(mine.record, theirs.record, seats=[0, 1]).relation == "other", game_id


def test_a_changed_seal_not_yet_revealed_here_is_unchecked() -> None:
    start = quetgames.new_game("nonconformity", starts=[6, 4]).with_seats(["Ana", "Ben"])
    # Ben's phone picked against a link whose seal of Ana's was changed; then the genuine link comes
    bad = start.seal("10", "Z" * 20, 0).play("8", 1)
    genuine = start.seal("12", SALT, 0)
    got = ask("compare", mine=bad.record, theirs=genuine.record)
    assert got["relation"] == "changed" and got["seat"] == 0 and got["unchecked"] is True
    # once revealed here, a seal was checked: a link changing it is a plain rewrite
    mine = start.seal("12", SALT, 0).play("8", 1).reveal("12", SALT, 0)
    resealed = start.seal("10", "Z" * 20, 0).play("8", 1)
    got = ask("compare", mine=mine.record, theirs=resealed.record)
    assert got["relation"] == "changed" and got["unchecked"] is False
    # the sealer's own rewrites after the other player answered stay rewrites: the seal replaced by an open pick,
    # or resealed and revealed (e2e/test_seals.py's cheat 1)
    held = start.seal("12", SALT, 0).play("8", 1)
    assert ask("compare", mine=held.record, theirs=start.play("10", 0).play("8", 1).record)["unchecked"] is False
    resealed_on = start.seal("10", "Z" * 20, 0).play("8", 1).reveal("10", "Z" * 20, 0)
    assert ask("compare", mine=held.record, theirs=resealed_on.record)["unchecked"] is False
    # an open pick changed is no seal
    plain = start.play("12", 0).play("8", 1)
    assert ask("compare", mine=plain.record, theirs=start.play("14", 0).play("8", 1).record)["unchecked"] is False
