"""Convoluted Coprimality, a game by Leroy Quet.

The seats draw one long path of numbers 1, 2, 3, ... through a square grid,
each number in a square next to the number before it. A seat writes a whole
block of numbers, from just after one prime up to the next prime. Writing a
number next to a number that shares a factor with it knocks the writer out;
the last seat standing wins. When the next number has nowhere to go, the grid
is wiped and a new path starts at 1, up to `max_rounds` grids.

Notation: the square that receives the next number, such as ``b1`` (columns a,
b, ... from the left, rows 1, 2, ... from the top). The 1 in ``a1`` is written
automatically at the start of every grid; it is not a move and not in the
history. `legal_moves` lists squares in reading order: row 1 from left to
right, then row 2, and so on (there are never more than three).

Turn order: block k holds the numbers after the (k-1)th prime up to the kth
prime (block 1 is 1 and 2, block 2 is 3, block 3 is 4 and 5, block 4 is 6
and 7, ...); one seat writes a whole block. The next block goes to the next
seat still in the game after whoever wrote the number before it. A seat that
is knocked out hands the rest of its block to the next seat still in. Every
grid is begun (with the 2) by the lowest-numbered seat still in.

`view()["board"]` keys:

- ``size``: the grid has size × size squares.
- ``grid``: a list of rows (row 1 first), each a list of the numbers in its
  squares from column a on, ``None`` for an empty square.
- ``path``: the squares of 1, 2, ..., in order, on the current grid (draw the
  path through them); ``last_square``: the square of the highest number.
- ``writers``: rows like ``grid``: the seat that wrote each number (None for
  an empty square and for the free 1).
- ``next_number``: the number to write now (``None`` once the game is over);
  ``block``: every number of the block it belongs to, e.g. ``[8, 9, 10, 11]``;
  ``block_index``: which block that is (1 for [1, 2]).
- ``round``: which grid this is (1-based); ``max_rounds``; ``grids_ended``: how
  many grids were wiped because a number had nowhere to go.
- ``alive``: the seats still in, ascending; ``eliminated``: the seats knocked
  out, ascending; ``eliminations``: in the order they happened, each a dict
  ``{"seat", "number", "square", "round", "clashes"}`` (``clashes``: the
  neighbouring numbers that shared a factor with ``number``).
- ``targets``: for every legal square (in legal-move order), a dict
  ``{"eliminates": bool, "clashes": [numbers], "warning": str | None}``: whether
  writing the next number there knocks the mover out, the neighbours that would
  cause it, and a sentence saying so (with the common factors) for the player.
- ``previous_path``: the squares of the path on the grid wiped most recently
  (``[]`` before any grid was wiped), so a front end can show how it ended.
- ``over_by``: ``None`` while playing, ``"last_standing"`` or ``"rounds"`` at
  the end.

Record: one direction per move from the previous number's square (up, right,
down, left, numbered 0 to 3), two moves to a character: ``a``..``p`` stand for
the pair 4 × first + second, and an odd last move is one of ``q r s t``. A new
grid needs no mark: the decoder replays the game, so it knows when a grid was
wiped and the path restarted at a1. A default game (3 grids of 12 × 12, at
most 143 moves each) takes at most 215 characters.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from math import gcd

from ..base import Example, Game, State, in_words
from ..errors import IllegalMove, InvalidRecord
from ..grid import grid_text, parse_square, square_name
from ..numbers import coprime, next_prime, primes_up_to
from ..options import IntOption
from ..data import JSONObject, Options

MAX_SIZE = 26
# Block ends: the primes, enough of them to cover a full 26 × 26 grid.
_PRIMES = primes_up_to(next_prime(MAX_SIZE * MAX_SIZE))
# _BLOCK[j] = (k, first number of block k, last number of block k) for the j's block.
_BLOCK: list[tuple[int, int, int]] = [(0, 0, 0)]
for _k, _p in enumerate(_PRIMES, start=1):
    _start = len(_BLOCK)
    _BLOCK.extend((_k, _start, _p) for _ in range(_start, _p + 1))
del _k, _p, _start

# Directions from the previous number's square, as (row step, column step).
_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left
_PAIRS = "abcdefghijklmnop"  # two moves: 4 × first + second
_SINGLES = "qrst"  # an odd last move


class _Geometry:
    """The fixed shape of a size × size grid, flat squares numbered row by row:
    each square's neighbours (ascending, so in reading order) and whether it is
    on the outer edge. Built once per size."""

    __slots__ = ("size", "neighbours", "edge")

    def __init__(self, size: int) -> None:
        self.size = size
        nbs = []
        edge = []
        for q in range(size * size):
            r, c = divmod(q, size)
            nbs.append(tuple(
                rr * size + cc
                for rr, cc in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
                if 0 <= rr < size and 0 <= cc < size
            ))
            edge.append(r in (0, size - 1) or c in (0, size - 1))
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(nbs)
        self.edge: tuple[bool, ...] = tuple(edge)


_GEOMETRY: dict[int, _Geometry] = {}


def geometry(size: int) -> _Geometry:
    geo = _GEOMETRY.get(size)
    if geo is None:
        geo = _GEOMETRY[size] = _Geometry(size)
    return geo


class ConvolutedCoprimality(Game):
    id = "convoluted-coprimality"
    code = "cc"
    name = "Convoluted Coprimality"
    summary = (
        "Together the players draw one winding path of numbers 1, 2, 3, … across a square "
        "grid, each number beside the one before it. Each player writes a whole block of "
        "numbers ending at a prime. Put a number beside another that shares a factor with "
        "it and you are out; when the path gets stuck the grid is wiped and the path starts "
        "again. The last player left wins, or the survivors share the win after the last grid."
    )
    rules = """\
**Players and board.** Two to eight players share a square grid (4 × 4 up to 26 × 26;
12 × 12 by default). Seats are numbered Player 1, Player 2, and so on.

**The path.** The numbers 1, 2, 3, … are written one after another, one to a square, and
each number goes in an empty square directly above, below, left or right of the number just
before it. The 1 is written in the top-left corner (a1) for free.

**Where a number may go.** Besides touching the number before it, the square must either lie
on the outer edge of the grid (the first or last row or column), or touch at least two
squares that already hold numbers (the number before it counts as one of them).

**Blocks and turns.** The numbers come in blocks that each end at a prime: block 1 is 1 and 2,
block 2 is 3, block 3 is 4 and 5, block 4 is 6 and 7, block 5 is 8 to 11, and so on. One
player writes a whole block, one number per move. Player 1 writes the 2; after that, each
block goes to the next player still in the game after whoever wrote the last number.

**Knocked out.** Writing a number directly beside (above, below, left or right of) a
number with which it has a common factor above 1 (as 6 has 2 with 4, and 3 with 9) is
allowed, but the player who writes it is out of the game at once. The rest of their block
passes to the next player still in, and the block after that to the player after them.

**A stuck path.** When the next number has no square it may go in, the grid is wiped clean and
a new path starts: the 1 is written in a1 again, and the lowest-numbered player still in
writes the 2.

**End.** As soon as only one player is left, that player wins. The number of grids a game
may use is set before it starts (3 unless chosen otherwise). When the last of them gets
stuck, the game ends and every player still in shares the win. A player still in scores 1,
a player knocked out 0.

**Example.** On a 4 × 4 grid Player 1 writes 2 in b1. Player 2 must write 3 in c1: b2 also
touches the 2, but b2 is not on the edge and touches no other number. Player 1 writes the block
4, 5 in d1 and d2. Player 2 now writes 6 (the board below): c2 is allowed (it touches both the
3 and the 5), but 6 and 3 have the common factor 3, so writing 6 there would knock Player 2
out and hand Player 1 the win. The safe square is d3.
"""
    examples = (
        Example("q1.cc.p2_s4_r3.fg", "Player 2 to write 6 on a 4 × 4 grid: c2 would knock them out, d3 is safe."),
    )
    named_squares = True
    options = (
        IntOption("players", "p", 2, "number of players", lo=2, hi=8),
        IntOption("size", "s", 12, "side of the grid, in squares", lo=4, hi=MAX_SIZE, short="grid side"),
        IntOption("max_rounds", "r", 3, "how many grids may be played before the survivors share the win", lo=1, hi=20, short="grids allowed"),
    )
    # the settings docs/BALANCE.md measures (balance.py)
    puzzle_settings = tuple({"size": n} for n in range(5, 27))
    balance_settings = (
        *({"size": n} for n in (4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 20, 26)),
        {"size": 12, "max_rounds": 1},
        *({"players": p, "size": n} for p, n in ((3, 6), (3, 8), (3, 12), (4, 8), (4, 12), (5, 12))),
    )


class ConvolutedCoprimalityState(State):
    __slots__ = ("grid", "path", "mover", "alive", "round", "ended", "over_by", "steps", "eliminations", "previous_path", "written")

    grid: tuple[int, ...]  # flat, row by row; 0 for an empty square
    path: tuple[int, ...]  # path[i] is the flat square of the number i + 1 on this grid
    mover: int  # the seat to write the next number (meaningless once over)
    alive: tuple[bool, ...]  # per seat: still in the game
    round: int  # the current grid, 1-based
    ended: int  # grids wiped because the next number had nowhere to go
    over_by: str | None  # None, "last_standing" or "rounds"
    steps: str  # one direction digit "0".."3" per move, for the record
    eliminations: tuple[tuple[int, int, int, int, tuple[int, ...]], ...]  # (seat, number, square, round, clashes)
    previous_path: tuple[int, ...]
    written: tuple[tuple[int, int], ...]  # per move: (grid, number written), for the moves list

    @classmethod
    def initial(cls, game: Game, options: Options) -> ConvolutedCoprimalityState:
        state = cls._blank(game, options)
        state.grid, state.path = fresh_grid(options["size"])
        state.mover = 0
        state.alive = (True,) * options["players"]
        state.round = 1
        state.ended = 0
        state.over_by = None
        state.steps = ""
        state.eliminations = ()
        state.previous_path = ()
        state.written = ()
        return state

    @property
    def size(self) -> int:
        return int(self.options["size"])

    @property
    def next_number(self) -> int:
        return len(self.path) + 1

    # -- turn order ------------------------------------------------------

    def _to_move(self) -> tuple[int, ...]:
        return () if self.over_by else (self.mover,)

    # -- moves -----------------------------------------------------------

    def _targets(self) -> list[int]:
        """The flat squares the next number may go in, in reading order."""
        return targets(geometry(self.size), self.grid, self.path[-1])

    def _legal(self, seat: int) -> list[str]:
        size = self.size
        return [square_name(divmod(q, size)) for q in self._targets()]

    def _apply(self, move: str, seat: int) -> ConvolutedCoprimalityState:
        size = self.size
        geo = geometry(size)
        square = parse_square(move, size)
        q = square[0] * size + square[1]
        grid = self.grid
        j = len(self.path) + 1
        last = self.path[-1]
        if grid[q]:
            raise IllegalMove(f"{move} already holds {grid[q]}")
        if q not in geo.neighbours[last]:
            raise IllegalMove(
                f"{move} is not next to {j - 1}, the number before it (at {square_name(divmod(last, size))}); "
                f"{j} must go directly above, below, left or right of it"
            )
        filled = [grid[r] for r in geo.neighbours[q] if grid[r]]
        if not geo.edge[q] and len(filled) < 2:
            raise IllegalMove(
                f"{move} is not on the edge of the grid and touches only one number ({j - 1}); "
                f"a square inside the grid must touch at least two numbers"
            )
        clashed = clashes(geo, grid, q, j)

        new = self._copy()
        cells = list(grid)
        cells[q] = j
        new.grid = tuple(cells)
        new.path = self.path + (q,)
        new.history = self.history + (move,)
        new.written = self.written + ((self.round, j),)
        new.steps = self.steps + str(_STEPS.index((square[0] - last // size, square[1] - last % size)))
        if clashed:
            alive = list(self.alive)
            alive[seat] = False
            new.alive = tuple(alive)
            new.eliminations = self.eliminations + ((seat, j, q, self.round, clashed),)
        nxt = next_writer(seat, j, bool(clashed), new.alive)
        if nxt is None:
            new.over_by = "last_standing"
            return new
        new.mover = nxt
        if not targets(geo, new.grid, q):
            new.ended = self.ended + 1
            if new.ended >= self.options["max_rounds"]:
                new.over_by = "rounds"
                return new
            new.previous_path = new.path
            new.grid, new.path = fresh_grid(size)
            new.round = self.round + 1
            new.mover = grid_starter(new.alive)
        return new

    # -- scoring ---------------------------------------------------------

    def _scores(self) -> tuple[int, ...]:
        return tuple(int(a) for a in self.alive)

    # -- presentation ----------------------------------------------------

    def _status(self) -> str:
        if self.over_by:
            survivors = [self.seat_name(s) for s, a in enumerate(self.alive) if a]
            if self.over_by == "last_standing":
                return f"Game over: {survivors[0]} wins as the last player left"
            grids = "1 grid" if self.ended == 1 else f"{self.ended} grids"
            return f"Game over: after {grids}, {' and '.join(survivors)} share the win"
        j = self.next_number
        _, first, last = _BLOCK[j]
        block = f"{first}" if first == last else f"{first} to {last}"
        where = square_name(divmod(self.path[-1], self.size))
        return f"{self.seat_name(self.mover)} to write {j} (block {block}) next to {j - 1} at {where}"

    def _describe(self, move: str, seat: int, after: ConvolutedCoprimalityState) -> str:
        who = after.seat_name(seat)
        j = self.next_number
        text = f"{who} wrote {j} at {move}"
        if self.alive[seat] and not after.alive[seat]:
            clashed = [str(n) for n in after.eliminations[-1][4]]
            verb = "shares" if len(clashed) == 1 else "share"
            text += f", next to {in_words(clashed)}, which {verb} a factor with it: {who} is out"
        if after.ended > self.ended:
            text += f"; {j + 1} has nowhere to go"
            if after.round > self.round:
                text += f", so the grid is wiped and grid {after.round} starts again from 1 at a1"
        return text

    def _list_words(self, index: int) -> tuple[str, str]:
        rnd, number = self.written[index]
        out = any(n == number and r == rnd for _, n, _, r, _ in self.eliminations)
        return "write", f"{number} at {self.history[index]}{' (out)' if out else ''}"

    def _end_reason(self) -> str:
        outs = [
            f"{self.seat_name(s)} was knocked out in grid {r}: {n} went beside "
            + _listed([f"{c} (common factor {gcd(n, c)})" for c in clashed])
            for s, n, _, r, clashed in self.eliminations
        ]
        if self.over_by == "last_standing":
            return "; ".join(outs)
        reason = f"the path got stuck in grid {self.round}, the last one allowed, with {sum(self.alive)} players still in"
        return "; ".join([reason, *outs])

    def _standing(self) -> list[str]:
        return ["still in" if a else "knocked out" for a in self.alive]

    def _board(self, seat: int | None) -> JSONObject:
        size = self.size

        def name(q: int) -> str:
            return square_name(divmod(q, size))

        playing = not self.over_by
        j = self.next_number
        k, first, last = _BLOCK[j]
        squares: JSONObject = {}
        if playing:
            geo = geometry(size)
            for q in self._targets():
                clashed = list(clashes(geo, self.grid, q, j))
                squares[name(q)] = {"eliminates": bool(clashed), "clashes": clashed, "warning": _warning(j, name(q), clashed)}
        return {
            "size": size,
            "grid": [[v or None for v in self.grid[r * size:(r + 1) * size]] for r in range(size)],
            "path": [name(q) for q in self.path],
            # who wrote each number of this grid (the free 1: None), rows like grid's
            "writers": self._writers(),
            "last_square": name(self.path[-1]),
            "next_number": j if playing else None,
            "block": list(range(first, last + 1)) if playing else [],
            "block_index": k if playing else None,
            "round": self.round,
            "max_rounds": self.options["max_rounds"],
            "grids_ended": self.ended,
            "alive": [s for s, a in enumerate(self.alive) if a],
            "eliminated": [s for s, a in enumerate(self.alive) if not a],
            "eliminations": [
                {"seat": s, "number": n, "square": name(q), "round": r, "clashes": list(c)}
                for s, n, q, r, c in self.eliminations
            ],
            "targets": squares,
            "previous_path": [name(q) for q in self.previous_path],
            "over_by": self.over_by,
        }

    def _writers(self) -> list[list[int | None]]:
        size = self.size
        flat: list[int | None] = [None] * (size * size)
        moves = len(self.path) - 1  # the numbers from 2 on, the last moves of the game
        first = len(self.movers) - moves
        for k, q in enumerate(self.path[1:]):
            if first + k >= 0:
                flat[q] = self.movers[first + k]
        return [flat[r * size:(r + 1) * size] for r in range(size)]

    def text_board(self) -> str:
        size = self.size
        rows = [[v or None for v in self.grid[r * size:(r + 1) * size]] for r in range(size)]
        text = f"Grid {self.round} of at most {self.options['max_rounds']}\n" + grid_text(rows)
        if not self.over_by:
            _, first, last = _BLOCK[self.next_number]
            text += f"\nBlock: {', '.join(map(str, range(first, last + 1)))}"
        return text

    # -- record ----------------------------------------------------------

    def _encode_moves(self) -> str:
        steps = self.steps
        out = [_PAIRS[4 * int(steps[i]) + int(steps[i + 1])] for i in range(0, len(steps) - 1, 2)]
        if len(steps) % 2:
            out.append(_SINGLES[int(steps[-1])])
        return "".join(out)

    @classmethod
    def _decode_moves(cls, text: str, options: Options) -> Iterator[tuple[str, int | None]]:
        body, tail = (text[:-1], text[-1]) if text and text[-1] in _SINGLES else (text, "")
        if any(ch not in _PAIRS for ch in body):
            raise InvalidRecord("the moves of this record should be letters a to p, with perhaps one of q to t at the end")
        directions = [d for ch in body for d in divmod(_PAIRS.index(ch), 4)]
        if tail:
            directions.append(_SINGLES.index(tail))
        # The squares depend on where the path stands, which resets when a grid
        # is wiped, so the decoder follows the game along as it goes.
        state = cls.initial(GAME, options)
        size = options["size"]
        for number, d in enumerate(directions, start=1):
            if state.over_by:
                raise InvalidRecord(f"the record goes on after the game ended (move {number})")
            r, c = divmod(state.path[-1], size)
            r += _STEPS[d][0]
            c += _STEPS[d][1]
            if not (0 <= r < size and 0 <= c < size):
                raise InvalidRecord(f"move {number} of the record leads off the grid")
            move = square_name((r, c))
            yield move, None
            try:
                state = state._apply(move, state.mover)
            except IllegalMove as exc:  # pragma: no cover - load() has already rejected it
                raise InvalidRecord(f"move {number} of the record cannot be played: {exc}") from None


# -- the rules, each once (the state and the computer players use them) -------


def fresh_grid(size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """An empty grid with the automatic 1 in a1, and the path holding just it."""
    return (1,) + (0,) * (size * size - 1), (0,)


def ends_block(j: int) -> bool:
    """True when j is the last number of its block (a prime)."""
    return j == _BLOCK[j][2]


def clashes(geo: _Geometry, grid: Sequence[int], q: int, j: int) -> tuple[int, ...]:
    """The numbers beside square q that are not coprime to j, ascending: writing
    j at q knocks its writer out when there is any."""
    return tuple(sorted(v for v in (grid[r] for r in geo.neighbours[q]) if _clash(v, j)))


def knocks_out(geo: _Geometry, grid: Sequence[int], q: int, j: int) -> bool:
    """Whether writing j at square q knocks its writer out (`clashes`, without listing them)."""
    for r in geo.neighbours[q]:  # a plain loop: the searches ask this a million times
        if _clash(grid[r], j):
            return True
    return False


def _clash(v: int, j: int) -> bool:
    """A number v beside j knocks j's writer out when it is there (v > 0) and not coprime to j."""
    return v > 0 and not coprime(v, j)


def next_alive(seat: int, alive: Sequence[bool]) -> int:
    """The next seat still in after `seat` (which may itself be out), going round."""
    players = len(alive)
    for step in range(1, players + 1):
        other = (seat + step) % players
        if alive[other]:
            return other
    return seat  # pragma: no cover - someone is always still in


def next_writer(seat: int, j: int, knocked_out: bool, alive: Sequence[bool]) -> int | None:
    """Who writes the number after j, which `seat` wrote (`alive` already
    counts a knock-out): the same seat inside its block, the next seat still
    in once the block ends or the writer is out; None when one seat is left."""
    if knocked_out:
        return None if sum(alive) == 1 else next_alive(seat, alive)
    return next_alive(seat, alive) if ends_block(j) else seat


def grid_starter(alive: Sequence[bool]) -> int:
    """Who writes the 2 of a new grid: the lowest-numbered seat still in."""
    return list(alive).index(True)


def targets(geo: _Geometry, grid: Sequence[int], last: int) -> list[int]:
    """The empty squares next to `last` that are on the edge or touch two numbers."""
    out = []
    neighbours = geo.neighbours
    for q in neighbours[last]:
        if grid[q]:
            continue
        if geo.edge[q]:
            out.append(q)
            continue
        filled = 0
        for r in neighbours[q]:
            if grid[r]:
                filled += 1
        if filled >= 2:
            out.append(q)
    return out



def _listed(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _warning(number: int, square: str, clashes: list[int]) -> str | None:
    """The sentence that warns a player before a move that knocks them out."""
    if not clashes:
        return None
    parts = [f"{c} (common factor {gcd(number, c)})" for c in clashes]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"Writing {number} at {square} puts it beside {listed}: you would be knocked out."


ConvolutedCoprimality.state_class = ConvolutedCoprimalityState
GAME = ConvolutedCoprimality()
