"""Multiplications Within the Permutation, a game by Leroy Quet.

The seats first mark x's on an n-by-n grid, never two in one row or column,
until the x's form a permutation. The x in the leftmost column is numbered 1;
then each move numbers one more x with the next number and scores the product
of how far it lies from the previous number across and up.

Notation: a square such as ``c4``, both for marking an x and for numbering one.
`legal_moves` lists squares in reading order: row 1 from left to right, then
row 2, and so on.

The moves are written once, as `step` over a small immutable `Core` (the
x's, the numbers and the points): the state applies it after checking a
move, and the computer players' search position applies the same function.

`view()["board"]` also says who did what: ``marked_by`` (square of each x →
the seat that marked it) and ``numbered_by`` (square of each number from 2 on
→ the seat that wrote it; the free 1 is nobody's).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from ..base import Example, Game, State, counted
from ..errors import IllegalMove, InvalidOptions, InvalidRecord
from ..grid import LETTERS, Square, grid_text, parse_square, square_name
from ..options import IntOption
from ..data import JSONObject, Options

MAX_SIZE = 26


class Multiplications(Game):
    id = "multiplications"
    code = "mu"
    name = "Multiplications Within the Permutation"
    summary = (
        "Take turns marking x's on a square grid, never two in one row or column, until "
        "every row and column has one. Then number the x's in turn, starting from the x in "
        "the leftmost column. Each new number scores the horizontal distance times the "
        "vertical distance from the number before it; the highest total wins."
    )
    rules = """\
**Players and board.** Two to six players share a square grid. Its side is set by
how many numbers each player will write, chosen before the game (3 unless chosen
otherwise): that many per player, plus 1 for the free first number. Two players
writing 3 each play on a 7 × 7 grid; the grid has at most 26 rows.

**Part one: the x's.** Starting with Player 1 and going round in seat order, each
player marks an x in an empty square. An x may not share its row or its column with
an earlier x. After as many x's as the grid has rows, every row and every column holds
exactly one x, and part one ends.

**Part two: the numbers.** The x in the leftmost column is numbered 1 for free. Then,
again from Player 1 in seat order, each move writes the next number (2, then 3, …) on
any x that has no number yet. The mover scores how many rows apart the new number
and the one before it lie (the difference of their row numbers), times how many
columns apart they lie (the difference of their column positions). No two x's
share a row or a column, so every number scores at least 1 × 1 = 1.

**End.** When every x is numbered the game ends. The highest total wins; equal totals
share the win.

**Example.** On the 7 × 7 grid below the x's are at c1, d2, e3, b4, a5, f6 and g7,
so the 1 sits at a5, in the leftmost column. Player 1 writes the 2. On the x at d2 it
scores 3 rows apart (rows 5 and 2) × 3 columns apart (a and d) = 9; on the x at b4
it would score only 1 × 1 = 1; the far corner g7 gives 2 × 6 = 12, the most on
offer.
"""
    examples = (
        Example("q1.mu.p2_k3.aedbbdcaecffgg", "Seven x's, the 1 at a5: Player 1 to write the 2."),
    )
    named_squares = True
    options = (
        IntOption("players", "p", 2, "number of players", lo=2, hi=6),
        IntOption("k", "k", 3, "numbers each player writes (the grid has this many × players + 1 rows)", lo=3, hi=12, short="numbers each"),
    )
    # the settings docs/BALANCE.md measures (balance.py)
    puzzle_settings = ({"players": 2, "k": 3}, {"players": 2, "k": 4})
    balance_settings = tuple({"players": p, "k": k} for p, k in ((2, 3), (2, 4), (3, 3), (3, 4), (4, 3), (5, 3)))

    def _finish_options(self, values: Options) -> Options:
        size = values["k"] * values["players"] + 1
        if size > MAX_SIZE:
            top = (MAX_SIZE - 1) // values["players"]
            raise InvalidOptions(
                f"with {values['players']} players, k may be at most {top}: the grid "
                f"(k × players + 1 = {size}) may have at most {MAX_SIZE} rows"
            )
        return values


class MultiplicationsState(State):
    __slots__ = ("core",)

    core: Core  # the position as the rules see it (shared with the search)

    @classmethod
    def initial(cls, game: Game, options: Options) -> MultiplicationsState:
        state = cls._blank(game, options)
        state.core = start(grid_size(options), state.players)
        return state

    @property
    def xs(self) -> tuple[Square, ...]:
        """The x's, in the order they were marked."""
        return self.core.xs

    @property
    def numbers(self) -> tuple[Square, ...]:
        """numbers[i] holds the number i + 1."""
        return self.core.numbers

    @property
    def size(self) -> int:
        return self.core.size

    @property
    def marking(self) -> bool:
        return self.core.marking

    # -- turn order ------------------------------------------------------

    def _to_move(self) -> tuple[int, ...]:
        return self.core.to_move()

    # -- moves -----------------------------------------------------------

    def _legal(self, seat: int) -> list[str]:
        return [square_name(sq) for sq in self.core.legal()]

    def _apply(self, move: str, seat: int) -> MultiplicationsState:
        square = parse_square(move, self.size)
        if self.marking:
            self._check_mark(square)
        else:
            self._check_number(square)
        new = self._copy()
        new.core = step(self.core, square)
        new.history = self.history + (move,)
        return new

    def _check_mark(self, square: Square) -> None:
        name = square_name(square)
        for other in self.xs:
            if other == square:
                raise IllegalMove(f"{name} already has an x")
            if other[0] == square[0]:
                raise IllegalMove(f"row {square[0] + 1} already has an x (at {square_name(other)}); each row takes one")
            if other[1] == square[1]:
                raise IllegalMove(f"column {LETTERS[square[1]]} already has an x (at {square_name(other)}); each column takes one")

    def _check_number(self, square: Square) -> None:
        name = square_name(square)
        if square not in self.xs:
            raise IllegalMove(f"{name} has no x: only squares with an x are numbered")
        if square in self.numbers:
            raise IllegalMove(f"the x at {name} already holds {self.numbers.index(square) + 1}")

    # -- scoring ---------------------------------------------------------

    def _scores(self) -> tuple[int, ...]:
        return self.core.points

    # -- presentation ----------------------------------------------------

    def _status(self) -> str:
        if self.is_over:
            return self._ending()
        who = self.seat_name(self.to_move[0])
        if self.marking:
            return f"{who} to mark an x ({len(self.xs)} of {self.size} placed)"
        return f"{who} to write {len(self.numbers) + 1} on an x"

    def _describe(self, move: str, seat: int, after: MultiplicationsState) -> str:
        who = after.seat_name(seat)
        if self.marking:
            text = f"{who} marked an x at {move}"
            if after.numbers:
                text += (f"; every row and column now has its x, and the x at {square_name(after.numbers[0])}, "
                         "in the leftmost column, is numbered 1")
            return text
        square = after.numbers[-1]
        rows, columns = span(self.numbers[-1], square)
        n = len(after.numbers)
        return (f"{who} wrote {n} on the x at {move}, {counted(rows, 'row')} and {counted(columns, 'column')} "
                f"from {n - 1}: {counted(rows * columns, 'point')}")

    def _list_words(self, index: int) -> tuple[str, str]:
        # part one marks x's; part two writes 2, 3, ... (the 1 is free, not a move)
        square = self.history[index]
        if index < self.size:
            return "mark", f"x at {square}"
        return "number", f"{index - self.size + 2} on {square}"

    def _end_reason(self) -> str:
        return f"every x is numbered (1 to {self.size}), so the highest total of points wins"

    def _board(self, seat: int | None) -> JSONObject:
        last = self.numbers[-1] if self.numbers else None
        size = self.size
        return {
            "size": self.size,
            "phase": "mark" if self.marking else "number" if not self.is_over else "over",
            "xs": [square_name(sq) for sq in self.xs],
            "numbers": {square_name(sq): i + 1 for i, sq in enumerate(self.numbers)},
            # who marked each x and who wrote each number (the free 1 has no writer)
            "marked_by": {square_name(sq): self.movers[i] for i, sq in enumerate(self.xs) if i < len(self.movers)},
            "numbered_by": {
                square_name(sq): self.movers[size + j - 1]
                for j, sq in enumerate(self.numbers) if j and size + j - 1 < len(self.movers)
            },
            "next_number": len(self.numbers) + 1 if not self.marking and not self.is_over else None,
            "gains": {square_name(sq): gain(last, sq) for sq in unnumbered(self.xs, self.numbers)} if last and not self.is_over else {},
            # what each gain is the area of: the rectangle with the last number and
            # the x at opposite corners (their centres), rows × columns
            "areas": {
                square_name(sq): {"from": square_name(last), "rows": rows, "columns": columns}
                for sq in unnumbered(self.xs, self.numbers)
                for rows, columns in [span(last, sq)]
            } if last and not self.is_over else {},
        }

    def text_board(self) -> str:
        rows: list[list[object]] = [[None] * self.size for _ in range(self.size)]
        for r, c in self.xs:
            rows[r][c] = "x"
        for i, (r, c) in enumerate(self.numbers):
            rows[r][c] = i + 1
        return grid_text(rows)

    # -- record ----------------------------------------------------------

    def _encode_moves(self) -> str:
        # Two letters a square: column, then row written as a letter (a = row 1).
        return "".join(LETTERS[c] + LETTERS[r] for r, c in self.xs + self.numbers[1:])

    @classmethod
    def _decode_moves(cls, text: str, options: Options) -> Iterator[tuple[str, int | None]]:
        if len(text) % 2 or any(ch not in LETTERS for ch in text):
            raise InvalidRecord("the moves of this record should be pairs of lower-case letters")
        for i in range(0, len(text), 2):
            yield f"{text[i]}{LETTERS.index(text[i + 1]) + 1}", None


# -- the rules, each once (the state and the computer players use them) -------


class Core(NamedTuple):
    """A position as the rules see it, immutable: the grid's side, the seats,
    the x's in the order marked, the numbered x's (numbers[i] holds i + 1)
    and each seat's points."""

    size: int
    players: int
    xs: tuple[Square, ...]
    numbers: tuple[Square, ...]
    points: tuple[int, ...]

    @property
    def marking(self) -> bool:
        return len(self.xs) < self.size

    def to_move(self) -> tuple[int, ...]:
        return to_move(self.size, self.players, len(self.xs), len(self.numbers))

    def legal(self) -> list[Square]:
        """The squares the seat to move may play, in reading order."""
        return free_squares(self.xs, self.size) if self.marking else unnumbered(self.xs, self.numbers)


def start(size: int, players: int) -> Core:
    """The empty grid."""
    return Core(size, players, (), (), (0,) * players)


def step(core: Core, square: Square) -> Core:
    """The position after the seat to move plays `square` (a legal one): an x
    while marking (the last x also numbers the leftmost one 1), else the next
    number, which scores its `gain` for that seat."""
    if core.marking:
        xs = core.xs + (square,)
        return core._replace(xs=xs, numbers=(first_number(xs),) if len(xs) == core.size else ())
    seat = (len(core.numbers) - 1) % core.players
    points = core.points[:seat] + (core.points[seat] + gain(core.numbers[-1], square),) + core.points[seat + 1:]
    return core._replace(numbers=core.numbers + (square,), points=points)


def grid_size(options: Options) -> int:
    """The side of the grid: k × players + 1."""
    return int(options["k"]) * int(options["players"]) + 1


def to_move(size: int, players: int, marked: int, numbered: int) -> tuple[int, ...]:
    """Who moves: the x's go round from Player 1, then (the 1 being free) the
    numbers go round from Player 1 again; nobody once every x is numbered."""
    if marked < size:
        return (marked % players,)
    if numbered < size:
        return ((numbered - 1) % players,)  # numbers[0] (the 1) is automatic; move j writes j + 1
    return ()


def free_squares(xs: Sequence[Square], size: int) -> list[Square]:
    """The squares an x may go in (its row and column still free), in reading order."""
    rows = {r for r, _ in xs}
    cols = {c for _, c in xs}
    return [(r, c) for r in range(size) if r not in rows for c in range(size) if c not in cols]


def unnumbered(xs: Sequence[Square], numbers: Sequence[Square]) -> list[Square]:
    """The x's without a number, in reading order."""
    numbered = set(numbers)
    return sorted(sq for sq in xs if sq not in numbered)


def first_number(xs: Sequence[Square]) -> Square:
    """The x that is numbered 1 for free: the one in the leftmost column."""
    return min(xs, key=lambda sq: sq[1])


def span(a: Square, b: Square) -> tuple[int, int]:
    """The rows and the columns between a and b: the sides of the rectangle
    with their centres at opposite corners."""
    return abs(a[0] - b[0]), abs(a[1] - b[1])


def gain(a: Square, b: Square) -> int:
    """What numbering b right after a scores: rows apart × columns apart, the
    area of the rectangle `span` gives."""
    rows, columns = span(a, b)
    return rows * columns


Multiplications.state_class = MultiplicationsState
GAME = Multiplications()
