"""Enumeration, a game by Leroy Quet.

An n-by-n grid has the numbers 1 to n written along its top row and down its
left column. The players fill the rest one square at a time, a square only once
the squares above it and left of it hold numbers. The number written is a
count: either how many numbers above the square, in its column, are coprime to
its row number, or how many numbers left of it, in its row, are coprime to its
column number (gcd(m, 0) is m, so 0 is coprime to 1 only).

Notation: the square and the value, ``f3=1`` (spreadsheet naming, see grid.py:
columns a, b, ... from the left, rows 1, 2, ... from the top). Only the canonical
spelling is a move: lower case, no spaces, no signs, no leading zeros.

Legal-move order: fillable squares in reading order (row 2 before row 3, and so
on; a row never has more than one fillable square), and for each square its
values ascending. A square whose two counts agree is listed once.

`view()["board"]` keys:

- ``size``: n, the side of the grid, headers included.
- ``grid`` / ``grids``: which grid is being played (1 or 2) and how many the
  game has (2 for a two-player corner match, else 1). Once the game is over,
  ``grid`` is the last one.
- ``values``: the current grid as n rows of n entries, top row first; each entry
  is an int or None for an empty square. Row 1 and column a are the headers.
- ``headers``: [1, 2, ..., n], the row and column numbers.
- ``candidates``: {square: {"above": a, "left": b}} for every square that may be
  filled now: a counts the numbers above it coprime to its row number, b the
  numbers left of it coprime to its column number. Empty once the game is over.
- ``last``: the square filled last in this grid, or None.
- ``finished``: the finished earlier grids (in a corner match, grid 1 once
  grid 2 has begun), each as a ``values`` matrix.
- ``corners``: the lower-right value of each grid of the game, None while unfilled.
- ``maximiser`` / ``minimiser``: the seat (0-based) that wants this grid's
  lower-right number high / low; None where no seat has that role.
- ``parity``: {"odd": o, "even": e}, the odd and even numbers in the current
  grid so far, headers included.
- ``collectors``: {"odd": seat or None, "even": seat or None}: who scores the odd
  and who the even numbers (parity games; both None in a corner game).
- ``goal``: "corner" or "parity"; ``target``: "odd" or "even" for solitaire
  parity, else None.

Record: one letter a move, its index in the legal-move list at that moment
(a-z for 0-25, A-Z for 26-51; a grid of side 26 has at most 25 fillable squares,
so at most 50 moves to choose from).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple, NoReturn

from ..base import Example, Game, State, counted
from ..errors import IllegalMove, InvalidRecord
from ..grid import LETTERS, grid_text, parse_square, square_name
from ..numbers import coprime
from ..options import ChoiceOption, IntOption
from ..data import JSONObject, Options

MIN_SIZE = 3
MAX_SIZE = 26
EMPTY = -1
_INDEX = LETTERS + LETTERS.upper()  # the record's letter for each legal-move index
_VALUE = re.compile(r"0|[1-9][0-9]*")
TARGET_APPLIES: JSONObject = {"players": 1, "goal": "parity"}  # when the target option means something

# A fillable square: (row, col, above, left), 0-based, with its two counts.
Spot = tuple[int, int, int, int]
# A legal move: (row, col, value, its index in the legal-move list).
Choice = tuple[int, int, int, int]
Grid = tuple[tuple[int, ...], ...]


class Enumeration(Game):
    id = "enumeration"
    code = "en"
    name = "Enumeration"
    summary = (
        "Fill a grid whose top row and left column hold 1, 2, 3, ... with counts: each new "
        "square takes either how many numbers above it have no common factor above 1 with "
        "its row number, or how many numbers to its left have none with its column "
        "number. Fight over the number that lands in the lower-right corner, or "
        "over how many odd and even numbers the finished grid holds."
    )
    rules = """\
**The grid.** The game uses a square grid, 6 × 6 unless another side (3 to 26) is
chosen before the game. Its top row is filled in advance with 1, 2, 3, … from left
to right, and its left column with 1, 2, 3, … from top to bottom, each up to the
side of the grid, so the corner a1 holds 1. These header numbers
name the columns and rows: column d has number 4, row 3 has number 3.
Every other square, from b2 onwards, starts empty.

**Filling a square.** A move writes a number into one empty square. That square
must already have numbers both in the square just above it and in the square just
left of it. The number must be one of two counts:

- **above**: how many of the numbers above the square, in its column (the header
  included), have no common factor above 1 with the square's row number;
- **left**: how many of the numbers to the left of the square, in its row (the
  header included), have no common factor above 1 with the square's column number.

Every number divides 0, so 0 has a common factor above 1 with every number except 1.
Since every square that gets filled has a row and a column number of at least 2, a 0
is never counted. When both counts agree the square has only one choice.

**Turns.** Player 1 begins; with two players, the seats then alternate, one square
a turn. A grid is finished when all its squares are full.

**Goal "corner", two players.** A match of two grids of the same size. In grid 1
Player 1 moves first and wants the number in the lower-right square to be as high as
possible, while Player 2 wants it low. In grid 2 the roles swap: Player 2 moves
first and wants that number high, Player 1 wants it low. Each player scores the
lower-right number of the grid in which they wanted it high; the higher score wins,
and equal scores share the win. Until a grid's lower-right square is filled it
counts 0.

**Goal "parity", two players.** A single grid, Player 1 moving first. At the end,
Player 1 scores a point for every odd number in the grid and Player 2 a point for
every even number, the headers included (0 is even). The higher score wins; equal
scores share. During play the scores show the counts so far.

**Solitaire.** With one player, goal "corner" scores the lower-right number of the
finished grid; goal "parity" scores how many numbers in the finished grid, headers
included, have the chosen target parity (odd or even).

**Example.** On a 6 × 6 grid the first square is always b2: above it is the 2 of
column b, which has the common factor 2 with row number 2, and left of it is the 2
of row 2, which has the factor 2 in common with column number 2, so both counts are
0 and b2 gets 0. Later in a game the top of the grid might read (the board below)

```
1 2 3 4 5 6
2 0 1 1 3 2
3 1 1 2 1 .
4 1 3 2
5 3
6
```

and f3 (the dot) may be filled, since f2 and e3 are full. Above f3 stand 6 and 2;
row number 3 has no common factor above 1 with 2 but has 3 in common with 6, so the
"above" count is 1. Left of f3 stand 3, 1, 1, 2, 1; column number 6 has a common
factor with 3 and with 2 but none above 1 with any of the three 1s, so the "left"
count is 3. The player may write 1 or 3 in f3
(the moves f3=1 and f3=3).
"""
    examples = (
        Example("q1.en.p2_s6_gc.aabbbaaaadddf", "The top of the grid in the example; f3 may take 1 or 3."),
    )
    named_squares = True
    options = (
        IntOption("players", "p", 2, "1 for solitaire, 2 for a two-player game", lo=1, hi=2),
        IntOption("size", "s", 6, "the side of the grid, header row and column included", lo=MIN_SIZE, hi=MAX_SIZE, short="grid side"),
        ChoiceOption(
            "goal", "g", "corner",
            "corner: fight over the lower-right number; parity: count odd against even numbers",
            choices=("corner", "parity"),
        ),
        ChoiceOption(
            "target", "t", "odd", "with one player and goal parity: which numbers to collect",
            choices=("odd", "even"), short="collect",
        ),
    )
    # the settings docs/BALANCE.md measures (balance.py)
    # (two seats; the adapter proves only the last moves, so puzzles come from the ends of games)
    puzzle_settings = ({"size": 4}, {"size": 6}, {"size": 8}, {"goal": "parity", "size": 6}, {"goal": "parity", "size": 8})
    balance_settings = (
        *({"size": n} for n in (4, 5, 6, 7, 8)),
        *({"goal": "parity", "size": n} for n in (4, 5, 6, 8)),
    )

    def _finish_options(self, values: Options) -> Options:
        # The target parity only means something to a lone player counting parities.
        if any(values[name] != value for name, value in TARGET_APPLIES.items()):
            values.pop("target", None)
        return values

    def describe(self) -> JSONObject:
        # A setup screen shows the target only when it applies (`only_when`:
        # the values the other options must have), so that rule stays here.
        info = super().describe()
        for option in info["options"]:
            if option["name"] == "target":
                option["only_when"] = dict(TARGET_APPLIES)
        return info


class EnumerationState(State):
    __slots__ = ("core", "coded", "_moves")

    core: Core  # the position as the rules see it (shared with the search)
    coded: str  # the moves part of the record so far, one letter a move
    _moves: dict[str, Choice] | None  # legal notation -> its square, value and index, built on demand

    @classmethod
    def initial(cls, game: Game, options: Options) -> EnumerationState:
        state = cls._blank(game, options)
        state.core = start(state.players, int(options["size"]), grid_count(options))
        state.coded = ""
        state._moves = None
        return state

    @property
    def grid(self) -> int:
        """0-based index of the grid in play (the last one once over)."""
        return self.core.grid

    @property
    def values(self) -> Grid:
        """The grid in play, rows top to bottom, EMPTY where unfilled."""
        return self.core.values

    @property
    def frontier(self) -> tuple[Spot, ...]:
        """The fillable squares with their counts, by row."""
        return self.core.frontier

    @property
    def filled(self) -> int:
        """Numbers in the grid in play, headers included."""
        return self.core.filled

    @property
    def odd(self) -> int:
        """Odd numbers among them."""
        return self.core.odd

    @property
    def last(self) -> tuple[int, int] | None:
        """The square filled last in the grid in play."""
        return self.core.last

    @property
    def finished(self) -> tuple[Grid, ...]:
        """Grids completed before the one in play."""
        return self.core.finished

    @property
    def corners(self) -> tuple[int, ...]:
        """Lower-right numbers of the completed grids, in order."""
        return self.core.corners

    @property
    def size(self) -> int:
        return int(self.options["size"])

    @property
    def grids(self) -> int:
        return grid_count(self.options)

    # -- turn order ------------------------------------------------------

    def _to_move(self) -> tuple[int, ...]:
        return self.core.to_move()

    # -- moves -----------------------------------------------------------

    def _move_table(self) -> dict[str, Choice]:
        if self._moves is None:
            table: dict[str, Choice] = {}
            for r, c, v in choices(self.frontier):
                table[move_name(r, c, v)] = (r, c, v, len(table))
            self._moves = table
        return self._moves

    def _legal(self, seat: int) -> list[str]:
        return list(self._move_table())

    def _apply(self, move: str, seat: int) -> EnumerationState:
        found = self._move_table().get(move)
        if found is None:
            self._reject(move)
        r, c, v, index = found
        new = self._copy()
        new.core = step(self.core, (r, c, v))
        new.history = self.history + (move,)
        new.coded = self.coded + _INDEX[index]
        new._moves = None
        return new

    def _reject(self, move: str) -> NoReturn:
        """Raise IllegalMove saying why `move` is not one of the legal moves."""
        if move.count("=") != 1:
            raise IllegalMove(f"{move[:40]!r} is not a move: write a square, '=' and a value, like 'c2=1'")
        square_text, value_text = move.split("=")
        r, c = parse_square(square_text, self.size)
        name = square_name((r, c))
        if not _VALUE.fullmatch(value_text):
            raise IllegalMove(
                f"{value_text[:20]!r} is not a value: write a plain whole number with no sign, "
                "spaces or leading zeros, like 'c2=1'"
            )
        if r == 0:
            raise IllegalMove(f"{name} is in the top row, which holds the column numbers; only squares from b2 on are played")
        if c == 0:
            raise IllegalMove(f"{name} is in the left column, which holds the row numbers; only squares from b2 on are played")
        held = self.values[r][c]
        if held != EMPTY:
            raise IllegalMove(f"{name} is already filled (it holds {held})")
        above, left = square_name((r - 1, c)), square_name((r, c - 1))
        if self.values[r - 1][c] == EMPTY and self.values[r][c - 1] == EMPTY:
            raise IllegalMove(f"{name} cannot be filled yet: the squares above it ({above}) and left of it ({left}) are empty")
        if self.values[r - 1][c] == EMPTY:
            raise IllegalMove(f"{name} cannot be filled yet: the square above it, {above}, is empty")
        if self.values[r][c - 1] == EMPTY:
            raise IllegalMove(f"{name} cannot be filled yet: the square left of it, {left}, is empty")
        spot = next(s for s in self.frontier if s[0] == r)
        a, b = spot[2], spot[3]
        shown = value_text if len(value_text) <= 12 else value_text[:12] + "..."
        if a == b:
            raise IllegalMove(
                f"{name} can only take {a} (both the count above it, for row {r + 1}, and the count "
                f"left of it, for column {c + 1}, give {a}), not {shown}"
            )
        raise IllegalMove(
            f"{name} can take {a} (how many numbers above it have no common factor above 1 with "
            f"row number {r + 1}) or {b} (how many left of it have none with column number {c + 1}), not {shown}"
        )

    # -- scoring ---------------------------------------------------------

    def _scores(self) -> tuple[int, ...]:
        return scores(self.options, self.filled, self.odd, self.corners)

    def _roles(self) -> tuple[int | None, int | None]:
        return roles(self.options, self.grid)

    # -- presentation ----------------------------------------------------

    def _list_words(self, index: int) -> tuple[str, str]:
        square, value = self.history[index].split("=")
        return "fill", f"{value} in {square}"

    def _end_reason(self) -> str:
        return _end_reason(self)

    def _status(self) -> str:
        if self.is_over:
            return _ending(self)
        who = self.seat_name(self.to_move[0])
        goal = self.options["goal"]
        if self.players == 1:
            if goal == "corner":
                return f"{who} to fill a square, aiming for a high number in the lower-right corner"
            return f"{who} to fill a square, aiming for many {self.options['target']} numbers"
        if goal == "parity":
            return f"{who} to fill a square ({self.seat_name(0)} collects odd numbers, {self.seat_name(1)} even ones)"
        high, low = self.grid, 1 - self.grid
        return (
            f"{who} to fill a square in grid {self.grid + 1} of 2 ({self.seat_name(high)} wants the "
            f"lower-right number high, {self.seat_name(low)} wants it low)"
        )

    def _describe(self, move: str, seat: int, after: EnumerationState) -> str:
        r, c, v, _ = self._move_table()[move]
        above, left = next((s[2], s[3]) for s in self.frontier if s[0] == r and s[1] == c)
        how = "" if above == left else " (the count above it)" if v == above else " (the count left of it)"
        text = f"{after.seat_name(seat)} wrote {v} at {square_name((r, c))}{how}"
        if after.grid > self.grid:
            text += f"; grid {self.grid + 1} is full, with {v} in its lower-right corner, and grid {after.grid + 1} begins"
        elif after.is_over and self.options["goal"] == "corner":
            text += f"; the grid is full, with {v} in its lower-right corner"
        elif after.is_over:
            odd = after.odd
            text += f"; the grid is full, with {counted(odd, 'odd number')} and {counted(after.filled - odd, 'even number')}"
        return text

    def _collectors(self) -> dict[str, int | None]:
        if self.options["goal"] != "parity":
            return {"odd": None, "even": None}
        if self.players == 1:
            return {"odd": 0 if self.options["target"] == "odd" else None, "even": 0 if self.options["target"] == "even" else None}
        return {"odd": 0, "even": 1}

    def _board(self, seat: int | None) -> JSONObject:
        n = self.size
        corners: list[int | None] = list(self.corners) + [None] * (self.grids - len(self.corners))
        high, low = self._roles()
        return {
            "size": n,
            "grid": self.grid + 1,
            "grids": self.grids,
            "values": _matrix(self.values),
            "headers": list(range(1, n + 1)),
            "candidates": {square_name((r, c)): {"above": a, "left": b} for r, c, a, b in self.frontier},
            "last": square_name(self.last) if self.last else None,
            "finished": [_matrix(g) for g in self.finished],
            "corners": corners,
            "maximiser": high,
            "minimiser": low,
            "parity": {"odd": self.odd, "even": self.filled - self.odd},
            "collectors": self._collectors(),
            "goal": self.options["goal"],
            "target": self.options.get("target"),
        }

    def text_board(self) -> str:
        out = [f"Grid {i + 1} (finished):\n" + grid_text(_matrix(g)) for i, g in enumerate(self.finished)]
        if self.grids > 1:
            out.append(f"Grid {self.grid + 1}:")
        out.append(grid_text(_matrix(self.values)))
        if self.frontier:
            out.append("Fillable: " + ", ".join(f"{square_name((r, c))} ({a} or {b})" for r, c, a, b in self.frontier))
        return "\n".join(out)

    # -- record ----------------------------------------------------------

    def _encode_moves(self) -> str:
        return self.coded

    @classmethod
    def _decode_moves(cls, text: str, options: Options) -> Iterator[tuple[str, int | None]]:
        if any(ch not in _INDEX for ch in text):
            raise InvalidRecord("the moves of this record should be letters only")
        state = cls.initial(GAME, options)
        for i, ch in enumerate(text):
            moves = list(state._move_table())
            index = _INDEX.index(ch)
            if index >= len(moves):
                if not moves:
                    raise InvalidRecord(f"the record goes on after the game ended (move {i + 1})")
                raise InvalidRecord(f"move {i + 1} of the record picks choice {index + 1}, but only {len(moves)} moves were possible")
            yield moves[index], None
            state = state._apply(moves[index], 0)


# -- the rules, each once (the state and the computer players use them) -------


class Core(NamedTuple):
    """A position as the rules see it, immutable: the seats, the grid's side,
    how many grids, the grid in play and its numbers, its fillable squares
    (with their counts), how many numbers and odd numbers it holds, the square
    filled last, the grids finished before it and their corners."""

    players: int
    size: int
    grids: int
    grid: int
    values: Grid
    frontier: tuple[Spot, ...]
    filled: int
    odd: int
    last: tuple[int, int] | None
    finished: tuple[Grid, ...]
    corners: tuple[int, ...]

    def to_move(self) -> tuple[int, ...]:
        return (mover(self.players, self.size, self.grid, self.filled),) if self.frontier else ()

    def legal(self) -> list[tuple[int, int, int]]:
        """The (row, column, value) choices, in the game's order."""
        return choices(self.frontier)


def start(players: int, size: int, grids: int, grid: int = 0, finished: tuple[Grid, ...] = (),
          corners: tuple[int, ...] = ()) -> Core:
    """Grid `grid` (from 0) with only its headers, after the grids `finished`."""
    values = tuple(tuple(row) for row in blank_grid(size))
    return Core(players, size, grids, grid, values, (spot(values, 1, 1),), 2 * size - 1, header_odd(size), None,
                finished, corners)


def step(core: Core, move: tuple[int, int, int]) -> Core:
    """The position after the seat to move writes value v at row r, column c
    (a legal choice); a full grid records its corner and, if another grid
    follows, starts it."""
    r, c, v = move
    rows = list(core.values)
    rows[r] = rows[r][:c] + (v,) + rows[r][c + 1 :]
    values = tuple(rows)
    frontier = tuple(next_frontier(core.frontier, values, r, c))
    if frontier:
        return core._replace(values=values, frontier=frontier, filled=core.filled + 1, odd=core.odd + (v & 1), last=(r, c))
    corners = core.corners + (v,)
    if core.grid + 1 < core.grids:
        return start(core.players, core.size, core.grids, core.grid + 1, core.finished + (values,), corners)
    return core._replace(values=values, frontier=(), filled=core.filled + 1, odd=core.odd + (v & 1), last=(r, c),
                         corners=corners)

Values = Sequence[Sequence[int]]  # a grid, as tuples (the state) or lists (a search's copy)


def grid_count(options: Options) -> int:
    """How many grids the game has: two for a two-player corner match, else one."""
    return 2 if options["players"] == 2 and options["goal"] == "corner" else 1


def blank_grid(n: int) -> list[list[int]]:
    """A new grid: 1..n along the top and down the left, the rest EMPTY."""
    return [list(range(1, n + 1))] + [[r + 1] + [EMPTY] * (n - 1) for r in range(1, n)]


def header_odd(n: int) -> int:
    """The odd numbers among the headers: 1..n on top, 2..n down the side."""
    return (n + 1) // 2 * 2 - 1


def mover(players: int, size: int, grid: int, filled: int) -> int:
    """Who fills the next square: the lone player, or in turn from Player 1 in
    grid 1 and from Player 2 in grid 2 (a corner match)."""
    if players == 1:
        return 0
    made = filled - (2 * size - 1)
    return (made + grid) % 2


def spot(values: Values, r: int, c: int) -> Spot:
    """The fillable square (r, c) with its two counts: numbers above it coprime to
    its row number r + 1, and numbers left of it coprime to its column number c + 1."""
    to_row, to_col = _coprime_to(r + 1), _coprime_to(c + 1)
    above = sum([to_row[values[i][c]] for i in range(r)])
    left = sum(map(to_col.__getitem__, values[r][:c]))
    return (r, c, above, left)


@lru_cache(maxsize=None)
def _coprime_to(k: int) -> tuple[int, ...]:
    """1 for every number a grid can hold (0 to MAX_SIZE) that is coprime to k, else 0."""
    return tuple(int(coprime(v, k)) for v in range(MAX_SIZE + 1))


def next_frontier(frontier: Sequence[Spot], values: Values, r: int, c: int) -> list[Spot]:
    """The fillable squares once (r, c) is filled in `values`: a square opens
    when the squares above it and left of it both hold numbers."""
    # A row has one fillable square at most, so the list stays in row order
    # with the squares that open put where (r, c) was (row r + 1 had none).
    n = len(values)
    out = []
    for s in frontier:
        if s[0] != r:
            out.append(s)
            continue
        if c + 1 < n and values[r - 1][c + 1] != EMPTY:
            out.append(spot(values, r, c + 1))
        if r + 1 < n and values[r + 1][c - 1] != EMPTY:
            out.append(spot(values, r + 1, c))
    return out


def choices(frontier: Sequence[Spot]) -> list[tuple[int, int, int]]:
    """The legal moves as (row, col, value), in legal-move order: squares by
    row, each square's values ascending, a value the two counts share once."""
    out = []
    for r, c, above, left in frontier:
        if above == left:
            out.append((r, c, above))
        else:
            out += ((r, c, min(above, left)), (r, c, max(above, left)))
    return out


def move_name(r: int, c: int, v: int) -> str:
    """The notation of writing v at (r, c), like ``f3=1``."""
    return f"{LETTERS[c]}{r + 1}={v}"


def scores(options: Options, filled: int, odd: int, corners: Sequence[int]) -> tuple[int, ...]:
    """The scores: parity games count odd and even numbers (headers included),
    corner games each seat's lower-right number (0 until it is written)."""
    players = options["players"]
    if options["goal"] == "parity":
        even = filled - odd
        if players == 2:
            return (odd, even)
        return (odd if options["target"] == "odd" else even,)
    return tuple(corners[s] if s < len(corners) else 0 for s in range(players))


def roles(options: Options, grid: int) -> tuple[int | None, int | None]:
    """The seats that want the lower-right number of grid `grid` (0-based) high and low."""
    if options["goal"] != "corner":
        return None, None
    if options["players"] == 1:
        return 0, None
    return grid, 1 - grid


def _matrix(values: Grid) -> list[list[int | None]]:
    return [[None if v == EMPTY else v for v in row] for row in values]


def _end_reason(state: EnumerationState) -> str:
    """Why an Enumeration game ended: its last grid is full, and what that left."""
    scores = state.scores
    full = "every square is filled" if state.grids == 1 else "both grids are full"
    if state.options["goal"] == "parity":
        if state.players == 1:
            return f"{full}: the grid holds {scores[0]} {state.options['target']} numbers (headers included)"
        return (f"{full}: the grid holds {scores[0]} odd numbers ({state.seat_name(0)}'s) and "
                f"{scores[1]} even ones ({state.seat_name(1)}'s), headers included")
    if state.players == 1:
        return f"{full}: the lower-right number is {scores[0]}"
    return (f"{full}: the lower-right number of grid 1, which {state.seat_name(0)} wanted high, is {scores[0]}, "
            f"and of grid 2, which {state.seat_name(1)} wanted high, is {scores[1]}")


def _ending(state: EnumerationState) -> str:
    scores = state.scores
    if state.players == 1:
        if state.options["goal"] == "corner":
            return f"Game over: {state.seat_name(0)} scores {scores[0]}, the lower-right number"
        return f"Game over: {state.seat_name(0)} scores {scores[0]} ({state.options['target']} numbers in the grid)"
    winners = state.winners
    if len(winners) == 1:
        w = winners[0]
        return f"Game over: {state.seat_name(w)} wins, {scores[w]} to {scores[1 - w]}"
    return f"Game over: {state.seat_name(0)} and {state.seat_name(1)} share the win with {scores[0]} each"


Enumeration.state_class = EnumerationState
GAME = Enumeration()
