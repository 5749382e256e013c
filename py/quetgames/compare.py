"""Whether one record continues another game, and where two records of one
game part: what a device checks before a link replaces the game it holds.

By id. When both records carry a game id (every game started since ids
exist, docs/RECORD.md), a different id is another game, and the same id
with moves that part anywhere, the first move included, is a rewrite. The
same moves with notes that drop or change one this device holds is a rewrite
too; a link that only adds comments or side lines continues the game.

Without ids (records shared before them). Two records are of *the same
game* when they have the same start (record version, game, options, seat
names and kinds: `State.record` with no move) and they agree on at least one
move that was a choice (the mover had two legal moves or more), or where they
part one of them holds a move that ties it to one game (a sealed pick's
commitment, drawn afresh for every game) and the link goes on after it
(someone answered that move: a fresh game whose only move is its own seal is
another game). Many games share a start, and a forced move (a game's
first, in some games) is the same in all of them, so two such games that part before anyone
chose anything are two games: nothing in the records could tell them apart.
"""

from __future__ import annotations

from dataclasses import dataclass

from .record import Notes
from .registry import replay_record
from .data import JSON, JSONObject

__all__ = ["Comparison", "compare"]

RELATIONS = ("same", "ahead", "behind", "changed", "other")


@dataclass(frozen=True)
class Comparison:
    """How record `theirs` stands to record `mine`.

    relation: "same" (the same record), "ahead" (theirs continues mine),
    "behind" (theirs is an earlier point of mine), "changed" (the same game,
    rewritten from move `ply` on) or "other" (another game).
    ply: index of the first move that differs (0 is the first move), for
    "changed" and, when the starts match, "other"; where: that move in the
    game's words ("move 3", "round 2"); mine/theirs: that move in words, as
    each record has it; message: the whole change in a sentence;
    game_id: the id both records carry, when they were told apart by it.
    """

    relation: str
    ply: int | None = None
    where: str | None = None
    mine: str | None = None
    theirs: str | None = None
    message: str | None = None
    game_id: str | None = None

    def to_json(self) -> JSONObject:
        return {"relation": self.relation, "ply": self.ply, "where": self.where,
                "mine": self.mine, "theirs": self.theirs, "message": self.message, "game_id": self.game_id}


def compare(mine: JSON, theirs: JSON) -> Comparison:
    """How `theirs` (say, a link just opened) stands to `mine` (the game this
    device holds). Both records are checked in full (InvalidRecord if not)."""
    start, my_moves, my_final = replay_record(mine)
    their_start, their_moves, their_final = replay_record(theirs)
    by_id = start.game_id is not None and their_start.game_id is not None
    if by_id and start.game_id != their_start.game_id:
        return Comparison("other")
    game_id = start.game_id if by_id else None
    if start.with_game_id(None).record != their_start.with_game_id(None).record:
        if not by_id:
            return Comparison("other")
        return Comparison("changed", 0, "the start", message="this link changes how the game was set up (its settings or players)",
                          game_id=game_id)
    shared = next((i for i, (a, b) in enumerate(zip(my_moves, their_moves)) if a != b), None)
    if shared is None:
        if len(their_moves) < len(my_moves):
            relation = "behind"
        elif not _keeps_notes(my_final.notes, their_final.notes):
            return Comparison("changed", message="this link changes or drops comments or side lines of the game",
                              game_id=game_id)
        elif len(my_moves) == len(their_moves) and my_final.notes == their_final.notes:
            relation = "same"
        else:
            relation = "ahead"
        return Comparison(relation, game_id=game_id)
    before, chosen = start, by_id  # chosen: a move both share was a choice (one id: one game, whatever the moves)
    for move, seat in my_moves[:shared]:
        chosen = chosen or before.commits(move) or len(before.legal_moves(seat)) > 1
        before = before.play(move, seat)
    mover = before.to_move[0] if len(before.to_move) == 1 else 0
    a: tuple[str, int] = (my_moves[shared][0], _or(my_moves[shared][1], mover))
    b: tuple[str, int] = (their_moves[shared][0], _or(their_moves[shared][1], mover))
    where = before.turn_words()
    # a sealed pick in place of another move (or the other way round) is a
    # rewrite once the link builds on it: someone answered the replaced move
    answered = len(their_moves) > shared + 1 and (before.commits(a[0]) or before.commits(b[0]))
    relation = "changed" if chosen or answered else "other"
    return Comparison(relation, shared, where, before.move_sentence(*a), before.move_sentence(*b),
                      f"this link changes {where}: {before.change_words(a, b)}", game_id)


def _keeps_notes(mine: Notes, theirs: Notes) -> bool:
    """Whether `theirs` holds every comment and side line of `mine`, as it is."""
    return set(mine.comments) <= set(theirs.comments) and all(
        any(line == other for other in theirs.lines) for line in mine.lines)


def _or(seat: int | None, mover: int) -> int:
    """A record's seat for a move (None: the one seat to move)."""
    return mover if seat is None else seat
