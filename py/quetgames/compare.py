"""Whether one record continues another game, and where two records of one
game part: what a device checks before a link replaces the game it holds.

By id. When both records carry a game id (every game started since ids
exist, docs/RECORD.md), a different id is another game, and the same id
with moves that part anywhere, the first move included, is a rewrite. The
same moves with notes that drop or change one this device holds is a rewrite
too; a link that only adds comments or side lines continues the game.

A copy under another id. A link may carry a game this device holds under
another id (someone pressed "open as a separate game", or wrote another id
in by hand) and rewrite a move this device made. Given `seats`, the seats
this device plays in `mine` (docs/SAVES.md: a phone keeps them), such a link
is a rewrite too, whatever its id: the same start but for the id, moves that
agree up to some move (at least one of them a choice), and then differ at a
move of one of those seats, in a game not yet finished here. Where the link says it branched from this game (its record's
branch, docs/RECORD.md), it need not agree on any move first.

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

from collections.abc import Collection
from dataclasses import dataclass

from .base import State
from .record import Notes
from .registry import replay_record
from .data import JSON, JSONObject

__all__ = ["Comparison", "compare", "news"]

Moves = list[tuple[str, int | None]]

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
    game_id: the id both records carry, when they were told apart by it;
    seat: the seat of that move as `mine` has it; unchecked: that move of
    `mine` is a sealed pick not yet revealed there, so nothing has checked
    it, and the link carries another seal of that seat in its place and
    nothing after it (the sealer's link as first sent: no less to be trusted
    than the copy held here; whichever the sealer's reveal matches is the game).
    """

    relation: str
    ply: int | None = None
    where: str | None = None
    mine: str | None = None
    theirs: str | None = None
    message: str | None = None
    game_id: str | None = None
    seat: int | None = None
    unchecked: bool = False

    def to_json(self) -> JSONObject:
        return {"relation": self.relation, "ply": self.ply, "where": self.where,
                "mine": self.mine, "theirs": self.theirs, "message": self.message, "game_id": self.game_id,
                "seat": self.seat, "unchecked": self.unchecked}


def compare(mine: JSON, theirs: JSON, seats: Collection[int] | None = None) -> Comparison:
    """How `theirs` (say, a link just opened) stands to `mine` (the game this
    device holds). Both records are checked in full (InvalidRecord if not).
    seats: the seats this device plays in `mine`, when it knows them; a link
    under another id that rewrites one of their moves is then "changed"."""
    start, my_moves, my_final = replay_record(mine)
    their_start, their_moves, their_final = replay_record(theirs)
    by_id = start.game_id is not None and their_start.game_id is not None
    if by_id and start.game_id != their_start.game_id:
        return _copy_rewrites(start, my_moves, my_final.is_over, their_start, their_moves, seats)
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
    # (one id: one game, whatever the moves)
    before, chosen, a, b = _parting(start, my_moves, their_moves, shared, chosen=by_id)
    where = before.turn_words()
    # a sealed pick in place of another move (or the other way round) is a
    # rewrite once the link builds on it: someone answered the replaced move
    answered = len(their_moves) > shared + 1 and (before.commits(a[0]) or before.commits(b[0]))
    relation = "changed" if chosen or answered else "other"
    return Comparison(relation, shared, where, before.move_sentence(*a), before.move_sentence(*b),
                      f"this link changes {where}: {before.change_words(a, b)}", game_id,
                      a[1], _unrevealed(before, a, my_moves[shared + 1:]) and _fresh_seal(before, a, b, their_moves[shared + 1:]))


def _parting(start: State, my_moves: Moves, their_moves: Moves, shared: int,
             chosen: bool) -> tuple[State, bool, tuple[str, int], tuple[str, int]]:
    """Where two move lists part after `shared` common moves: the position
    there, whether a shared move was a choice (or `chosen` already), and each
    side's move there with its seat."""
    before = start
    for move, seat in my_moves[:shared]:
        chosen = chosen or before.commits(move) or len(before.legal_moves(seat)) > 1
        before = before.play(move, seat)
    mover = before.to_move[0] if len(before.to_move) == 1 else 0
    a = (my_moves[shared][0], _or(my_moves[shared][1], mover))
    b = (their_moves[shared][0], _or(their_moves[shared][1], mover))
    return before, chosen, a, b


def news(mine: JSON, theirs: JSON) -> list[str]:
    """What a link `theirs` that continues `mine` adds, in the engine's words:
    one sentence for each move made since that the public game shows (a round
    of secret picks once, as its picks are revealed, with what it scored), so
    the device that receives the link says what the other player did. Empty
    unless `theirs` continues `mine`."""
    if compare(mine, theirs).relation != "ahead":
        return []
    start, my_moves, _ = replay_record(mine)
    _, their_moves, _ = replay_record(theirs)
    state, said = start, []
    for index, (move, seat) in enumerate(their_moves):
        shown = len(state.history)
        state = state.play(move, seat)
        if index >= len(my_moves) and len(state.history) > shown and state.last_move_text:
            said.append(state.last_move_text)
    return said


def _copy_rewrites(start: State, my_moves: Moves, my_game_over: bool, their_start: State, their_moves: Moves,
                   seats: Collection[int] | None) -> Comparison:
    """Another id: "changed" when the link rewrites a move of `seats` in a
    copy of this game (see the module's docstring), else "other". A finished
    game held here is not looked for in a copy (Play again starts the same
    players anew, and their first moves may well agree)."""
    branched = their_start.branch is not None and their_start.branch[0] == start.game_id
    if (seats is None or my_game_over) and not branched:
        return Comparison("other")
    if start.with_game_id(None).record != their_start.with_game_id(None).record:
        return Comparison("other")
    shared = next((i for i, (a, b) in enumerate(zip(my_moves, their_moves)) if a != b), None)
    if shared is None or (shared == 0 and not branched):
        return Comparison("other")
    # (forced moves are the same in every game: only a shared choice makes it a copy)
    before, chosen, a, b = _parting(start, my_moves, their_moves, shared, chosen=False)
    if not branched and (seats is None or a[1] not in seats or not chosen):
        return Comparison("other")
    where = before.turn_words()
    how = "a separate game made from yours" if branched else "a copy of your game under another game id"
    return Comparison("changed", shared, where, before.move_sentence(*a), before.move_sentence(*b),
                      f"this link changes {where}: {before.change_words(a, b)}; it holds {how}", start.game_id)


def _unrevealed(before: State, move: tuple[str, int], later: Moves) -> bool:
    """Whether `move` (played at `before`) is a sealed pick that none of the
    `later` moves reveals or gives up (a sealer's next move does one or the other)."""
    return before.commits(move[0]) and not any(seat == move[1] for _, seat in later)


def _fresh_seal(before: State, mine: tuple[str, int], theirs: tuple[str, int], later: Moves) -> bool:
    """Whether the link holds, in place of `mine`, another seal of the same
    seat and nothing after it: the sealer's link as it was first sent, not a
    seal changed once the other player had answered it (that is a rewrite)."""
    return before.commits(theirs[0]) and theirs[1] == mine[1] and not later


def _keeps_notes(mine: Notes, theirs: Notes) -> bool:
    """Whether `theirs` holds every comment and side line of `mine`, as it is."""
    return set(mine.comments) <= set(theirs.comments) and all(
        any(line == other for other in theirs.lines) for line in mine.lines)


def _or(seat: int | None, mover: int) -> int:
    """A record's seat for a move (None: the one seat to move)."""
    return mover if seat is None else seat
