"""What every game shares: the game object (options, factory, record codec)
and the immutable state with the public API.

A game module subclasses `Game` and `State`. The state subclass implements a
handful of private hooks (`_to_move`, `_legal`, `_apply`, `_scores`, ...); the
public methods here validate every argument before a hook sees it, so the
hooks may trust their inputs. The games themselves are listed in one place,
`registry.py`, which also reads records back into states.

Simultaneous and secret moves. While a joint move is open (every seat in it
chooses, and the choices are revealed together once all have chosen), every
seat that has not chosen yet is in `to_move`. `view(seat)["choosing"]` says so
the same way for every game: None when no joint move is open, else
``{"chosen": [seats that have chosen this round], "to_choose": [seats still
to choose], "secret": bool}`` (secret: a choice stays hidden from the other
seats until the reveal). A seat's own pending choice appears only in its own
view, in the game's board; a game says how through the `_choosing` and
`_secret_free` hooks (see Nonconformity, the one such game today).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from .errors import IllegalMove, InvalidNote, InvalidOptions, InvalidRecord, RulesError
from .options import Option
from .record import (
    COMMENT_LIMIT, LINE_LIMIT, LINE_MOVES_LIMIT, MAX_RECORD, NO_NOTES, RECORD_VERSION, Notes, RecordParts, SideLine,
    check_comment, check_game_id, format_record,
)
from .data import JSON, JSONObject, Options, OptionsGiven

__all__ = ["Game", "State", "Seat", "Example", "RECORD_VERSION", "MAX_RECORD", "LEVELS", "SEAT_KINDS", "in_words", "counted"]

LEVELS = ("random", "greedy", "strong")  # the computer levels, weakest first
SEAT_KINDS = ("human", *LEVELS)
_NAME_LIMIT = 20


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: an optional name and a kind (human or a computer level)."""

    name: str = ""
    kind: str = "human"


@dataclass(frozen=True)
class Example:
    """A position of a game's worked example: the record that reaches it and a
    caption saying what to look at. The help dialog draws the engine's view of
    it beside the rules, and tests/test_rules_examples.py replays it and checks
    what the rules text says about it."""

    record: str
    caption: str


class Game:
    """A game: its identity, its options and how its records are spelled.

    Subclasses set the class attributes and `state_class`, and may override
    `_finish_options` for checks that involve several options at once. What
    the computer players know of the game (its adapter in players/) is kept
    apart, by `players.player_for`, so this module imports nothing of them.
    """

    id: ClassVar[str]
    code: ClassVar[str]  # two letters naming the game inside a record
    name: ClassVar[str]
    summary: ClassVar[str]
    inventor: ClassVar[str] = "Leroy Quet"
    rules: ClassVar[str]  # the full rules in the project's words, light Markdown, with a worked example
    examples: ClassVar[tuple[Example, ...]] = ()  # the positions the worked example talks about
    named_squares: ClassVar[bool] = False  # the board is a grid whose squares are named a1, b1, …
    options: ClassVar[tuple[Option, ...]]
    state_class: ClassVar[type[State]]
    # the option settings balance.py measures (docs/BALANCE.md): the defaults unless a game lists more
    balance_settings: ClassVar[tuple[OptionsGiven, ...]] = ({},)
    # the option settings puzzles.py looks for puzzles in (docs/PUZZLES.md): none
    # unless a game lists some (its adapter's `exact` hook must prove them)
    puzzle_settings: ClassVar[tuple[OptionsGiven, ...]] = ()
    # A game whose moves are chosen among many (a ring's sign choices, a pick
    # among hundreds of numbers): at most this share of a puzzle's legal moves
    # may be solutions, and a game's last move can be a puzzle. None: at most
    # puzzles.MAX_SOLUTIONS solutions, and never a position whose wrong moves
    # all lose on the spot.
    puzzle_share: ClassVar[float | None] = None

    def __repr__(self) -> str:
        return f"<Game {self.id!r}>"

    @property
    def defaults(self) -> Options:
        return {o.name: o.default for o in self.options}

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.options)
        raise InvalidOptions(f"{self.name} has no option {name!r:.40}; its options are {known}")

    def resolve_options(self, given: OptionsGiven) -> Options:
        """Validate every option given, fill in defaults, drop the ones that do
        not apply, and check the rules that tie options together."""
        values = self.defaults
        for name, value in given.items():
            values[name] = self.option(name).validate(value)
        return self._finish_options(values)

    def _finish_options(self, values: Options) -> Options:
        return values

    def new(self, /, **options: JSON) -> State:
        # Positional-only: an option may be called anything, even "self".
        return self.state_class.initial(self, self.resolve_options(options))

    def describe(self) -> JSONObject:
        """A JSON-ready description for a front end's game list and setup screen."""
        return {
            "id": self.id,
            "code": self.code,  # the game inside a record ("q1.<code>.…"): a link names its game by it
            "name": self.name,
            "inventor": self.inventor,
            "summary": self.summary,
            "rules": self.rules,
            "options": [o.describe() for o in self.options],
        }

    # -- records ---------------------------------------------------------

    def encode_options(self, values: OptionsGiven) -> str:
        return "_".join(o.key + o.encode(values[o.name]) for o in self.options if o.name in values)

    def decode_options(self, text: str) -> Options:
        values: Options = {}
        by_key = {o.key: o for o in self.options}
        for token in text.split("_") if text else []:
            option = by_key.get(token[:1])
            if option is None or option.name in values:
                raise InvalidRecord(f"the options part {text[:60]!r} of the record is not understood")
            values[option.name] = option.decode(token[1:])
        try:
            resolved = self.resolve_options(values)
        except InvalidOptions as exc:
            raise InvalidRecord(f"the record's options are not valid: {exc}") from None
        if self.encode_options(resolved) != text:
            raise InvalidRecord("the record's options are not written in the usual form")
        return resolved


def _encode_name(name: str) -> str:
    return base64.urlsafe_b64encode(name.encode("utf-8")).decode("ascii").rstrip("=")


def _decode_name(text: str) -> str:
    try:
        name = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise InvalidRecord("a seat name in the record is damaged") from None
    return _check_name(name, InvalidRecord)


def _check_name(name: object, error: type[RulesError]) -> str:
    if not isinstance(name, str):
        raise error("a seat name must be text")
    if len(name) > _NAME_LIMIT:
        raise error(f"a seat name may have at most {_NAME_LIMIT} characters")
    if any(ch.isspace() and ch != " " or not ch.isprintable() for ch in name):
        raise error("a seat name may not hold control characters or line breaks")
    return name


class State:
    """A position in a game. States never change: `play` returns a new one."""

    __slots__ = ("game", "options", "history", "seats", "movers", "_last", "game_id", "branch", "notes", "plies", "_played")

    game: Game
    options: Options
    history: tuple[str, ...]
    seats: tuple[Seat, ...]
    movers: tuple[int, ...]  # the seat behind each entry of history (set by `play`)
    # the position before the last move, that move and its seat (set by `play`),
    # so the last move can be put in words on demand: nothing is spent on it
    # while the computer players search
    _last: tuple[State, str, int] | None
    game_id: str | None  # drawn by new_game; None for a game from a record without one
    branch: tuple[str, int] | None  # opened apart from game `id` at `ply` (docs/RECORD.md), else None
    notes: Notes  # comments and side lines (record.py), public like the moves
    plies: int  # moves played since the start: the unit of `replay`, comments and side lines
    _played: tuple[tuple[str, int], ...]  # those moves with their seats, to rebuild any earlier position

    # -- hooks a game implements -------------------------------------------

    @classmethod
    def initial(cls, game: Game, options: Options) -> Self:  # pragma: no cover
        raise NotImplementedError

    @classmethod
    def _blank(cls, game: Game, options: Options) -> Self:
        """A state with no moves and anonymous human seats; `initial` fills in the rest."""
        state = object.__new__(cls)
        state.game = game
        state.options = options
        state.history = ()
        state.movers = ()
        state.seats = tuple(Seat() for _ in range(options.get("players", 2)))
        state._last = None
        state.game_id = None
        state.branch = None
        state.notes = NO_NOTES
        state.plies = 0
        state._played = ()
        return state

    @property
    def players(self) -> int:
        return int(self.options.get("players", 2))

    def _to_move(self) -> tuple[int, ...]:  # pragma: no cover
        raise NotImplementedError

    def _legal(self, seat: int) -> list[str]:  # pragma: no cover
        raise NotImplementedError

    def _apply(self, move: str, seat: int) -> Self:  # pragma: no cover
        """Check `move` (any string) for `seat`, raising IllegalMove with the
        reason, and return the new state with the move in its history."""
        raise NotImplementedError

    def _scores(self) -> tuple[int, ...]:  # pragma: no cover
        raise NotImplementedError

    def _winners(self) -> tuple[int, ...]:
        scores = self.scores
        best = max(scores)
        return tuple(i for i, s in enumerate(scores) if s == best)

    def _board(self, seat: int | None) -> JSONObject:  # pragma: no cover
        raise NotImplementedError

    def _choosing(self) -> tuple[tuple[int, ...], tuple[int, ...], bool] | None:
        """(seats that have chosen, seats still to choose, secret) while a joint
        move is open; None otherwise (every sequential game)."""
        return None

    def _sealing(self) -> JSONObject | None:
        """What a page needs of sealed moves (sealing.py's `SealedState`): None
        for a game without them."""
        return None

    def _movers_of(self, seat: int, start: int, count: int) -> tuple[int, ...]:
        """Who played the `count` history entries from index `start` that one
        play by `seat` added: that seat, unless a game reveals several seats'
        moves at once (Nonconformity)."""
        return (seat,) * count

    def _list_words(self, index: int) -> tuple[str, str]:
        """(kind, words) for history entry `index`: a short name of what sort of
        move it is ("mark", "number", "ring", ...) and the move in a few words
        for the moves list, such as "x at c4"."""
        return "move", self.history[index]

    def _end_reason(self) -> str:
        """Why the game ended, in one sentence without its full stop (asked only
        once it is over): what ran out or who was knocked out."""
        return "no moves are left"

    def _standing(self) -> list[str] | None:
        """Per seat, what its score means in words where a bare number would
        puzzle (Convoluted Coprimality's 1 and 0); None: the scores speak."""
        return None

    def text_board(self) -> str:
        """The board as plain text, for the command line."""
        return json.dumps(self._board(None), indent=1)

    def _ending(self) -> str:
        """How the game ended, in one sentence: who won, with what."""
        winners = self.winners
        names = " and ".join(self.seat_name(s) for s in winners)
        if len(winners) == 1:
            return f"Game over: {names} wins with {self.scores[winners[0]]}"
        return f"Game over: {names} share the win with {self.scores[winners[0]]} each"

    def _describe(self, move: str, seat: int, after: Self) -> str:
        """`move`, just played by `seat` from this position (giving `after`), in
        words every seat may hear: who did what and what came of it, never a
        pick still secret. One clause, no final full stop."""
        return f"{after.seat_name(seat)} played {move}"

    def describe_move(self, move: str, seat: int | None = None) -> str:
        """What playing `move` for `seat` here does, in words every seat may
        hear ("Player 2 wrote 8 at h1"); raises IllegalMove as `play` does."""
        return self.play(move, seat).last_move_text or ""

    @property
    def last_move_text(self) -> str | None:
        """The move that led to this position, in words (`describe_move`), or
        None at the start of a game or for a state not made by `play`."""
        last: tuple[State, str, int] | None = getattr(self, "_last", None)
        if last is None:
            return None
        before, move, seat = last
        return before._describe(move, seat, self)

    def preview(self, move: str, seat: int | None = None) -> JSONObject:
        """What a move would do, without playing it, for games whose moves are
        built in several steps (a Prime Target ring, a Nonconformity pick)."""
        raise IllegalMove(f"{self.game.name} has no move preview")

    def _status(self) -> str:
        """A sentence for the player: whose turn it is and what to do."""
        if self.is_over:
            return self._ending()
        names = " and ".join(self.seat_name(s) for s in self.to_move)
        return f"{names} to move"

    def _encode_moves(self) -> str:  # pragma: no cover
        raise NotImplementedError

    @classmethod
    def _decode_moves(cls, text: str, options: Options) -> Iterator[tuple[str, int | None]]:  # pragma: no cover
        """The (move, seat) pairs a moves section stands for, in playing order."""
        raise NotImplementedError

    def _secret_free(self, seat: int | None) -> Self:
        """This state as `seat` may know it (None: as everyone may), with any
        pending secret of another seat removed (see Nonconformity)."""
        return self

    # -- the public API ----------------------------------------------------

    def _copy(self) -> Self:
        new = object.__new__(type(self))
        for klass in type(self).__mro__:
            for slot in getattr(klass, "__slots__", ()):
                if hasattr(self, slot):
                    object.__setattr__(new, slot, getattr(self, slot))
        return new

    @property
    def to_move(self) -> tuple[int, ...]:
        return self._to_move()

    @property
    def is_over(self) -> bool:
        return not self._to_move()

    @property
    def scores(self) -> tuple[int, ...]:
        return self._scores()

    @property
    def winners(self) -> tuple[int, ...]:
        return self._winners() if self.is_over else ()

    def seat_name(self, seat: int) -> str:
        name = self.seats[seat].name if seat < len(self.seats) else ""
        return name or f"Player {seat + 1}"

    def check_seat(self, seat: object) -> int:
        """The seat a call is about, checked: in range and to move now (None:
        the one seat to move); IllegalMove, in words, otherwise."""
        return self._seat(seat)

    def _seat(self, seat: object) -> int:
        """The seat a call is about, checked: in range and to move now."""
        to_move = self._to_move()
        if seat is None:
            if len(to_move) == 1:
                return to_move[0]
            if not to_move:
                raise IllegalMove("the game is over: no more moves can be played")
            raise IllegalMove("several players are to move now: say which seat the move is for")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalMove(f"a seat is a whole number from 0 to {self.players - 1}, not {seat!r:.40}")
        if not 0 <= seat < self.players:
            raise IllegalMove(f"there is no seat {seat}: seats run from 0 to {self.players - 1}")
        if not to_move:
            raise IllegalMove("the game is over: no more moves can be played")
        if seat not in to_move:
            raise IllegalMove(f"it is not {self.seat_name(seat)}'s turn")
        return seat

    def legal_moves(self, seat: int | None = None) -> list[str]:
        """The moves `seat` may play now, in the game's documented order;
        [] once the game is over."""
        if self.is_over:
            return []
        return self._legal(self._seat(seat))

    def play(self, move: str, seat: int | None = None) -> Self:
        """The state after `seat` plays `move`; this state is left unchanged."""
        if not isinstance(move, str):
            raise IllegalMove(f"a move is written as text, not {type(move).__name__}")
        if self.is_over:
            raise IllegalMove("the game is over: no more moves can be played")
        seat = self._seat(seat)
        if len(move) > 200:
            raise IllegalMove("that move is far too long to be a move of this game")
        new = self._apply(move, seat)
        new._last = (self, move, seat)
        new.plies = self.plies + 1
        new._played = self._played + ((move, seat),)
        added = len(new.history) - len(self.history)
        if added:
            new.movers = self.movers + self._movers_of(seat, len(self.history), added)
        return new

    @property
    def record(self) -> str:
        """The whole game as URL-fragment-safe text: game, options, moves and,
        when set, the game id, seat names and kinds, comments and side lines
        (docs/RECORD.md). `load(record)` rebuilds this state."""
        seats = None
        if any(seat != Seat() for seat in self.seats):
            seats = "~".join(str(SEAT_KINDS.index(s.kind)) + _encode_name(s.name) for s in self.seats)
        return format_record(RecordParts(RECORD_VERSION, self.game.code, self.game.encode_options(self.options),
                                         self._encode_moves(), self.game_id, seats, self.notes, self.branch))

    @property
    def moves_record(self) -> str:
        """The record of the game as the rules know it: without its id,
        comments and side lines. Searches seed their randomness with it, so
        two games with the same moves are played and analysed alike."""
        if self.game_id is None and not self.notes:
            return self.record
        bare = self._copy()
        bare.game_id, bare.notes, bare.branch = None, NO_NOTES, None
        return bare.record

    @property
    def public_record(self) -> str:
        """The record as every seat may know it: `record` without a pick still
        secret (one made at a shared screen that the next player must not see).
        This is the one to put in a link."""
        return self._public(None).record

    def secret_free(self, seat: int | None) -> Self:
        """This state as `seat` may know it (None: as everyone may): any
        pending secret of another seat removed. The computer players and the
        analysis decide from this, never from the whole state."""
        return self._secret_free(seat)

    def public(self, seat: int | None = None) -> Self:
        """This state as `seat` may know it (None: everyone), its notes cut to
        the moves that state still holds."""
        return self._public(seat)

    def encoded_moves(self) -> str:
        """The moves section of the record (the game's own spelling)."""
        return self._encode_moves()

    @classmethod
    def decode_moves(cls, text: str, options: Options) -> Iterator[tuple[str, int | None]]:
        """The (move, seat) pairs a record's moves section stands for, in playing order."""
        return cls._decode_moves(text, options)

    def _public(self, seat: int | None) -> Self:
        """This state as `seat` may know it (None: everyone), its notes cut to
        the moves that state still holds."""
        free = self._secret_free(seat)
        if free is self or not free.notes:
            return free
        plies = sum(1 for _ in type(free)._decode_moves(free._encode_moves(), free.options))
        if plies == self.plies:
            return free
        cut = free._copy()
        cut.notes = free.notes.upto(plies)
        return cut

    # -- the game id, comments and side lines (docs/RECORD.md) ------------------

    def with_game_id(self, game_id: str | None) -> Self:
        """This game under another id (None: none, as in a record made before
        ids); InvalidOptions when `game_id` is not 8 to 16 of A-Z a-z 0-9 - _."""
        new = self._copy()
        new.game_id = None if game_id is None else check_game_id(game_id, InvalidOptions)
        if new.game_id is None:
            new.branch = None
        return new

    def with_branch(self, game_id: str | None, ply: int = 0) -> Self:
        """This game marked as opened apart from game `game_id` where the two
        part, before move `ply` + 1 (None: no mark). It needs an id of its own."""
        new = self._copy()
        if game_id is None:
            new.branch = None
            return new
        if self.game_id is None:
            raise InvalidOptions("a game without an id of its own cannot say which game it branched from")
        if not isinstance(ply, int) or isinstance(ply, bool) or not 0 <= ply <= self.plies:
            raise InvalidOptions(f"a branch is at a move of the game, 0 to {self.plies}, not {ply!r:.20}")
        new.branch = (check_game_id(game_id, InvalidOptions), ply)
        return new

    @property
    def comments(self) -> tuple[tuple[int, str], ...]:
        """The main line's comments, (ply, text) in order of ply."""
        return self.notes.comments

    def comment(self, ply: int | None = None) -> str:
        """The comment at the position after `ply` moves (None: this one), or ""."""
        return self.notes.comment(self.plies if ply is None else self._ply(ply, "a comment"))

    def with_comment(self, ply: int, text: str) -> Self:
        """This game with `text` as the comment after move `ply` (0: before the
        first move); "" removes it. InvalidNote, in words, for a text that is
        not plain or too long, or a ply outside the game."""
        at = self._ply(ply, "a comment")
        if text != "":
            check_comment(text, InvalidNote)
        return self._with_notes(self.notes.with_comment(at, text))

    @property
    def lines(self) -> tuple[SideLine, ...]:
        """The side lines, in order of the move they branch from."""
        return self.notes.lines

    def with_line(self, ply: int, moves: Sequence[str | tuple[str, int | None]],
                  comments: Mapping[int, str] | None = None) -> Self:
        """This game with a side line: from the position after `ply` moves,
        `moves` (each a move, or (move, seat) where several seats are to
        move) instead of the game's own next move. `comments` maps a line
        move's number (from 1) to its comment. IllegalMove when a move cannot
        be played there; InvalidNote for any other reason, in words."""
        at = self._ply(ply, "a side line")
        if at >= self.plies:
            raise InvalidNote(f"a side line branches off before one of the game's moves: from move 0 to {self.plies - 1}, not {at}")
        if len(self.notes.lines) >= LINE_LIMIT:
            raise InvalidNote(f"a game may have at most {LINE_LIMIT} side lines")
        line = self._checked_line(at, (), moves)
        main = self._played[at]
        if line[0] == main:
            raise InvalidNote("a side line starts with another move than the game's own; this one repeats it")
        side = SideLine(at, line)
        for n, text in (comments or {}).items():
            side = side.with_comment(self._line_ply(side, n), check_comment(text, InvalidNote))
        notes, _ = self.notes.with_line(side)
        return self._with_notes(notes)

    def extend_line(self, index: int, moves: Sequence[str | tuple[str, int | None]], keep: int | None = None) -> Self:
        """This game with side line `index` going on with `moves` after its
        first `keep` moves (None: all of them; the rest, and their comments,
        are dropped)."""
        line = self._line(index)
        kept = len(line.moves) if keep is None else self._line_ply(line, keep, first=0)
        if kept == 0:
            raise InvalidNote("a side line keeps at least its first move; start another side line instead")
        added = self._checked_line(line.ply, line.moves[:kept], moves)
        new_line = SideLine(line.ply, line.moves[:kept] + added, tuple(c for c in line.comments if c[0] <= kept))
        lines = list(self.notes.lines)
        lines[index] = new_line
        return self._with_notes(Notes(self.notes.comments, tuple(lines)))

    def without_line(self, index: int) -> Self:
        """This game without side line `index`."""
        self._line(index)
        lines = self.notes.lines[:index] + self.notes.lines[index + 1:]
        return self._with_notes(Notes(self.notes.comments, lines))

    def with_line_comment(self, index: int, n: int, text: str) -> Self:
        """This game with `text` after move `n` (from 1) of side line `index`;
        "" removes it."""
        line = self._line(index)
        at = self._line_ply(line, n)
        if text != "":
            check_comment(text, InvalidNote)
        lines = list(self.notes.lines)
        lines[index] = line.with_comment(at, text)
        return self._with_notes(Notes(self.notes.comments, tuple(lines)))

    def position(self, ply: int) -> Self:
        """The game as it stood after its first `ply` moves, with the notes
        that still apply there (for stepping back, and where a side line
        branches off)."""
        at = self._ply(ply, "a position")
        if at == self.plies:
            return self
        state = type(self).initial(self.game, self.options)
        state.seats, state.game_id, state.branch = self.seats, self.game_id, self.branch
        for move, seat in self._played[:at]:
            state = state.play(move, seat)
        state.notes = self.notes.upto(at)
        return state

    def line_position(self, index: int, n: int | None = None) -> Self:
        """The position after the first `n` moves of side line `index` (None:
        all), as a game of its own with no notes."""
        line = self._line(index)
        state = self.position(line.ply)
        state.notes = NO_NOTES
        for move, seat in line.moves[:len(line.moves) if n is None else self._line_ply(line, n, first=0)]:
            state = state.play(move, seat)
        return state

    def _ply(self, ply: object, what: str) -> int:
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= self.plies:
            raise InvalidNote(f"{what} goes at a move from 0 to {self.plies}, not {ply!r:.20}")
        return ply

    def _line(self, index: object) -> SideLine:
        count = len(self.notes.lines)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
            raise InvalidNote(f"this game has no side line {index!r:.20}" + (f": its side lines are 0 to {count - 1}" if count else ": it has none"))
        return self.notes.lines[index]

    @staticmethod
    def _line_ply(line: SideLine, n: object, first: int = 1) -> int:
        if isinstance(n, bool) or not isinstance(n, int) or not first <= n <= len(line.moves):
            raise InvalidNote(f"that side line's moves are numbered {first} to {len(line.moves)}, not {n!r:.20}")
        return n

    def _checked_line(self, ply: int, before: tuple[tuple[str, int], ...],
                      moves: Sequence[str | tuple[str, int | None]]) -> tuple[tuple[str, int], ...]:
        """`moves` played from the position after `ply` moves and `before`,
        each with its seat, checked legal there."""
        if isinstance(moves, str) or not isinstance(moves, Sequence) or not moves:
            raise InvalidNote("a side line needs a list of one move or more")
        if len(before) + len(moves) > LINE_MOVES_LIMIT:
            raise InvalidNote(f"a side line may have at most {LINE_MOVES_LIMIT} moves")
        state = self.position(ply)
        for done, by in before:
            state = state.play(done, by)
        played: list[tuple[str, int]] = []
        for item in moves:
            move, seat = (item, None) if isinstance(item, str) else item
            if not isinstance(move, str) or " " in move:
                raise IllegalMove(f"{move!r:.30} is not a move of {self.game.name}")
            if state._commits(move):  # a side line is a what-if: nothing in it is sealed
                raise InvalidNote("a side line holds ordinary moves; a sealed pick cannot be part of one")
            after = state.play(move, seat)
            assert after._last is not None  # (set by play)
            played.append((move, after._last[2]))
            state = after
        return tuple(played)

    def with_notes(self, notes: Notes) -> Self:
        """This game with `notes` (comments and side lines) as they are, unchecked:
        for `registry`, which checks a record's notes before it sets them."""
        return self._with_notes(notes)

    def _with_notes(self, notes: Notes) -> Self:
        new = self._copy()
        new.notes = notes
        return new

    def move_words(self, move: str, seat: int | None = None) -> str:
        """A few words for `move` played here, as the moves list shows them
        ("8 in wedge 3"); a pick of a round still open is its notation (for
        the seat that makes it: a hint). Raises IllegalMove as play() does."""
        return self._words_of(self.play(move, seat), move)[1]

    def _words_of(self, after: State, move: str) -> tuple[str, str]:
        """(kind, words) of the move that led from here to `after`."""
        if len(after.history) > len(self.history):
            return after._list_words(len(after.history) - 1)
        return "move", move

    def notes_view(self) -> JSONObject:
        """The notes for a front end: comments and side lines, each side-line
        move with its mover and a few words for the moves list."""
        lines = []
        for index, line in enumerate(self.notes.lines):
            if not line.words:  # worked out once per line (lines never change)
                state = self.position(line.ply)
                state.notes = NO_NOTES
                for move, seat in line.moves:
                    after = state.play(move, seat)
                    line.words.append(state._words_of(after, move))
                    state = after
            lines.append({
                "index": index, "ply": line.ply,
                "moves": [{"seat": seat, "move": move, "kind": kind, "words": words}
                          for (move, seat), (kind, words) in zip(line.moves, line.words)],
                "comments": [{"n": n, "text": text} for n, text in line.comments],
            })
        return {"comments": [{"ply": ply, "text": text} for ply, text in self.notes.comments], "lines": lines,
                "comment_limit": COMMENT_LIMIT}

    def with_seats(self, names: list[str] | tuple[str, ...] = (), kinds: list[str] | tuple[str, ...] = ()) -> Self:
        """This position with seat names (at most 20 characters) and kinds."""
        if not isinstance(names, (list, tuple)) or not isinstance(kinds, (list, tuple)):
            raise InvalidOptions("seat names and kinds are lists")
        if len(names) > self.players or len(kinds) > self.players:
            raise InvalidOptions(f"this game has {self.players} seats")
        seats = []
        for i in range(self.players):
            name = _check_name(names[i], InvalidOptions) if i < len(names) else ""
            kind = kinds[i] if i < len(kinds) else "human"
            if kind not in SEAT_KINDS:
                raise InvalidOptions(f"a seat's kind is one of {', '.join(SEAT_KINDS)}, not {kind!r:.40}")
            seats.append(Seat(name.strip(), kind))
        new = self._copy()
        new.seats = tuple(seats)
        return new

    def view(self, seat: int | None = None) -> JSONObject:
        """A JSON-ready picture of the position for a front end, showing only
        what `seat` may see (None: what every seat may see)."""
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players):
            raise IllegalMove(f"there is no seat {seat!r:.40}: seats run from 0 to {self.players - 1}")
        public = self._public(seat)
        to_move = self.to_move
        single = to_move[0] if len(to_move) == 1 else seat if seat in to_move else None
        choosing = self._choosing()
        status = self._status()
        last = self.last_move_text
        return {
            "game": self.game.id,
            "name": self.game.name,
            "inventor": self.game.inventor,
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in self.options.items()},
            "seats": [{"name": self.seat_name(i), "kind": s.kind} for i, s in enumerate(self.seats)],
            "to_move": list(to_move),
            "is_over": self.is_over,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "history": list(self.history),
            "status": status,
            # the last move in words (None before the first), and what a screen
            # reader is told after it: that move, then whose turn it is
            "last_move": last,
            "announcement": f"{last}. {status}." if last else f"{status}.",
            # the moves list: who played each history entry, what sort of move, in words
            "moves": [
                {"seat": self.movers[i], "move": move, "kind": kind, "words": words}
                for i, move in enumerate(self.history)
                for kind, words in [self._list_words(i)]
            ],
            "end_reason": self._end_reason() if self.is_over else None,
            "standing": self._standing(),
            "legal_moves": self._legal_for_view(single),
            "choosing": None if choosing is None else {
                "chosen": list(choosing[0]), "to_choose": list(choosing[1]), "secret": choosing[2],
            },
            # sealed moves (sealing.py): who has sealed, who may reveal or seal now, the forfeit move
            "sealing": self._sealing(),
            "board": self._board(seat),
            "record": public.record,
            "game_id": self.game_id,
            "branch": None if self.branch is None else {"game_id": self.branch[0], "ply": self.branch[1]},
            "comment": public.notes.comment(self.plies),  # the comment at this position, or ""
            "notes": public.notes_view(),
        }

    def _legal_for_view(self, seat: int | None) -> list[str]:
        return [] if seat is None or self.is_over else self._legal(seat)

    # -- words for comparing two records (compare.py) ----------------------

    def turn_words(self) -> str:
        """Where the next move of this state stands, for a player: "move 3"."""
        return self._turn_words()

    def move_sentence(self, move: str, seat: int) -> str:
        """What `seat` playing `move` from this state is, in a sentence
        ("Ann wrote 8 at h1"; move_words gives the moves list's few words)."""
        return self._move_words(move, seat)

    def change_words(self, mine: tuple[str, int], theirs: tuple[str, int]) -> str:
        """How two records part at this state's next move, in words."""
        return self._change_words(mine, theirs)

    def commits(self, move: str) -> bool:
        """Whether `move` ties a record to one game from its first move on
        (a sealed move's commitment is drawn afresh for every game)."""
        return self._commits(move)

    def _turn_words(self) -> str:
        """Where the next move of this state stands, for a player: "move 3"."""
        return f"move {len(self.history) + 1}"

    def _move_words(self, move: str, seat: int) -> str:
        """What `seat` playing `move` from this state is, in words: the game's
        own `describe_move` ("Ann wrote 8 at h1")."""
        try:
            return self.describe_move(move, seat)
        except IllegalMove:  # (both records were checked; a move that does not play here is named as written)
            return f"{self.seat_name(seat)} played {move}"

    def _change_words(self, mine: tuple[str, int], theirs: tuple[str, int]) -> str:
        """How two records part at this state's next move, each (move, seat):
        "Ann played c4 here; the link says Ann played d5"."""
        return f"{self._move_words(*mine)} here; the link says {self._move_words(*theirs)}"

    def _commits(self, move: str) -> bool:
        """Whether `move` ties a record to one game from its first move on (a
        sealed pick's commitment is drawn fresh for each game; an ordinary
        first move is shared by many games from the same start)."""
        return False

    def __repr__(self) -> str:
        return f"quetgames.load({self.record!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.record == other.record

    def __hash__(self) -> int:
        return hash(self.record)


def in_words(items: list[str] | tuple[str, ...]) -> str:
    """"a", "a and b", "a, b and c"."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def counted(n: int, noun: str) -> str:
    """"1 point", "3 points"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def decode_seats(text: str, players: int) -> tuple[list[str], list[str]]:
    items = text.split("~")
    if len(items) != players:
        raise InvalidRecord(f"the record lists {len(items)} seats for a game of {players}")
    names, kinds = [], []
    for item in items:
        if not item or not item[0].isdigit() or int(item[0]) >= len(SEAT_KINDS):
            raise InvalidRecord("a seat in the record is damaged")
        kinds.append(SEAT_KINDS[int(item[0])])
        names.append(_decode_name(item[1:]))
    return names, kinds
