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
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Self

from .errors import IllegalMove, InvalidOptions, InvalidRecord, RulesError
from .options import Option

if TYPE_CHECKING:  # players/ imports this module: the name is for the type checker only
    from .players.search import Player

__all__ = ["Game", "State", "Seat", "Example", "RECORD_VERSION", "LEVELS", "SEAT_KINDS", "in_words", "counted"]

RECORD_VERSION = 1
MAX_RECORD = 100_000  # characters; far above any real game, low enough to bound replay work
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
    `_finish_options` for checks that involve several options at once.
    `player` is what the computer players know of the game (its adapter in
    players/); `registry.register` sets it.
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
    player: Player

    def __repr__(self) -> str:
        return f"<Game {self.id!r}>"

    @property
    def defaults(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.options)
        raise InvalidOptions(f"{self.name} has no option {name!r:.40}; its options are {known}")

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Validate every option given, fill in defaults, drop the ones that do
        not apply, and check the rules that tie options together."""
        values = self.defaults
        for name, value in given.items():
            values[name] = self.option(name).validate(value)
        return self._finish_options(values)

    def _finish_options(self, values: dict[str, Any]) -> dict[str, Any]:
        return values

    def new(self, /, **options: Any) -> State:
        # Positional-only: an option may be called anything, even "self".
        return self.state_class.initial(self, self.resolve_options(options))

    def describe(self) -> dict[str, Any]:
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

    def encode_options(self, values: Mapping[str, Any]) -> str:
        return "_".join(o.key + o.encode(values[o.name]) for o in self.options if o.name in values)

    def decode_options(self, text: str) -> dict[str, Any]:
        values: dict[str, Any] = {}
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


def _check_name(name: Any, error: type[RulesError]) -> str:
    if not isinstance(name, str):
        raise error("a seat name must be text")
    if len(name) > _NAME_LIMIT:
        raise error(f"a seat name may have at most {_NAME_LIMIT} characters")
    if any(ch.isspace() and ch != " " or not ch.isprintable() for ch in name):
        raise error("a seat name may not hold control characters or line breaks")
    return name


class State:
    """A position in a game. States never change: `play` returns a new one."""

    __slots__ = ("game", "options", "history", "seats", "movers", "_last")

    game: Game
    options: dict[str, Any]
    history: tuple[str, ...]
    seats: tuple[Seat, ...]
    movers: tuple[int, ...]  # the seat behind each entry of history (set by `play`)
    # the position before the last move, that move and its seat (set by `play`),
    # so the last move can be put in words on demand: nothing is spent on it
    # while the computer players search
    _last: tuple[State, str, int] | None

    # -- hooks a game implements -------------------------------------------

    @classmethod
    def initial(cls, game: Game, options: dict[str, Any]) -> Self:  # pragma: no cover
        raise NotImplementedError

    @classmethod
    def _blank(cls, game: Game, options: dict[str, Any]) -> Self:
        """A state with no moves and anonymous human seats; `initial` fills in the rest."""
        state = object.__new__(cls)
        state.game = game
        state.options = options
        state.history = ()
        state.movers = ()
        state.seats = tuple(Seat() for _ in range(options.get("players", 2)))
        state._last = None
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

    def _board(self, seat: int | None) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def _choosing(self) -> tuple[tuple[int, ...], tuple[int, ...], bool] | None:
        """(seats that have chosen, seats still to choose, secret) while a joint
        move is open; None otherwise (every sequential game)."""
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

    def preview(self, move: str, seat: int | None = None) -> dict[str, Any]:
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
    def _decode_moves(cls, text: str, options: dict[str, Any]) -> Iterator[tuple[str, int | None]]:  # pragma: no cover
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

    def _seat(self, seat: Any) -> int:
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
        added = len(new.history) - len(self.history)
        if added:
            new.movers = self.movers + self._movers_of(seat, len(self.history), added)
        return new

    @property
    def record(self) -> str:
        """The whole game as URL-fragment-safe text: version, game, options, moves
        and (when set) seat names and kinds. `load(record)` rebuilds this state."""
        parts = [f"q{RECORD_VERSION}", self.game.code, self.game.encode_options(self.options), self._encode_moves()]
        if any(seat != Seat() for seat in self.seats):
            parts.append("~".join(SEAT_KINDS.index(s.kind).__str__() + _encode_name(s.name) for s in self.seats))
        return ".".join(parts)

    @property
    def public_record(self) -> str:
        """The record as every seat may know it: `record` without a pick still
        secret (one made at a shared screen that the next player must not see).
        This is the one to put in a link."""
        return self._secret_free(None).record

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

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """A JSON-ready picture of the position for a front end, showing only
        what `seat` may see (None: what every seat may see)."""
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players):
            raise IllegalMove(f"there is no seat {seat!r:.40}: seats run from 0 to {self.players - 1}")
        public = self._secret_free(seat)
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
            "board": self._board(seat),
            "record": public.record,
        }

    def _legal_for_view(self, seat: int | None) -> list[str]:
        return [] if seat is None or self.is_over else self._legal(seat)

    # -- words for comparing two records (compare.py) ----------------------

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
