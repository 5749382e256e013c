"""Computer players for Enumeration, and the best solitaire score.

Corner and parity games: UCT with random rollouts (a grid of side 6 is 25
moves); candidates ordered by immediate gain. In a corner game the
lower-right number is a count of the numbers in the last column (or the last
row) coprime to n, so ties are broken by how many of those there are: the
seat that wants the corner high writes such numbers there, the other seat
does not.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..errors import InvalidOptions
from ..games.enumeration import (
    EMPTY,
    Core,
    EnumerationState,
    Grid,
    blank_grid,
    header_odd,
    mover,
    next_frontier,
    move_name,
    roles,
    scores,
    spot,
    step,
)
from ..numbers import coprime
from .search import Budget, Player, Proof, Rewards, Sim, solve_to_end
from ..data import JSONObject, Options

__all__ = ["PLAYER", "EnumerationPlayer", "EnumerationSim", "solitaire_best", "SOLITAIRE_TABLE"]

Move = tuple[int, int, int]  # row, column, value
EXACT_MOVES = 10  # moves left up to which a two-seat position is searched to the end
NODES_PER_ITERATION = 50  # the exact search's node cap per iteration asked for


class EnumerationSim(Sim[Move]):
    """An Enumeration position to search on: the game's own immutable `Core`,
    moved on by the game's own `step` (so a copy shares it); a move is (row,
    column, value)."""

    __slots__ = ("core", "options", "players", "seat")

    def __init__(self, core: Core, options: Options) -> None:
        self.core = core
        self.options = options
        self.players = core.players
        self.seat = self._mover()

    def copy(self) -> EnumerationSim:
        new = object.__new__(EnumerationSim)
        new.core, new.options, new.players, new.seat = self.core, self.options, self.players, self.seat
        return new

    @property
    def size(self) -> int:
        return self.core.size

    @property
    def grid(self) -> int:
        return self.core.grid

    @property
    def values(self) -> Grid:
        return self.core.values

    def _mover(self) -> int:
        core = self.core  # (Core.to_move, without building its tuple: this runs every ply of every rollout)
        return mover(core.players, core.size, core.grid, core.filled) if core.frontier else -1

    def mover(self) -> int:
        return self.seat

    def legal(self) -> list[Move]:
        return self.core.legal()

    def play(self, move: Move) -> None:
        self.core = step(self.core, move)
        self.seat = self._mover()

    def scores(self) -> tuple[int, ...]:
        core = self.core
        return scores(self.options, core.filled, core.odd, core.corners)


class EnumerationPlayer(Player[EnumerationState, EnumerationSim, Move]):
    def sim(self, state: EnumerationState) -> EnumerationSim:
        return EnumerationSim(state.core, state.options)

    def notation(self, sim: EnumerationSim, move: Move) -> str:
        return move_name(*move)

    def random_move(self, state: EnumerationState, seat: int, rng: random.Random) -> str:
        return move_name(*rng.choice(self.sim(state).legal()))

    def rollout_move(self, sim: EnumerationSim, seat: int, rng: random.Random) -> Move:
        """The generic rollout's uniform choice, `legal()[int(rng.random() *
        len(legal()))]`, the same draw giving the same move, without listing
        the moves: a frontier square offers one value when its two counts
        agree, else two (the smaller first), in the order of `choices`."""
        frontier = sim.core.frontier
        i = int(rng.random() * sum([1 if s[2] == s[3] else 2 for s in frontier]))
        for r, c, above, left in frontier:
            if above == left:
                if i == 0:
                    return r, c, above
                i -= 1
            elif i < 2:
                return (r, c, min(above, left)) if i == 0 else (r, c, max(above, left))
            else:
                i -= 2
        raise AssertionError("no move drawn")  # pragma: no cover (a rollout only asks while the game goes on)

    def whole_rollout(self, sim: EnumerationSim, rng: random.Random) -> Rewards | None:
        """The rest of the game at once, on a mutable copy of the grid: each
        move drawn as `rollout_move` draws it and applied as the rules' `step`
        applies it (the same `next_frontier` and `spot`; a full grid records
        its corner and starts the next, as `start` does), without building a
        new immutable `Core` every move. The tests check it against stepping."""
        core = sim.core
        size, grids, grid, filled, odd = core.size, core.grids, core.grid, core.filled, core.odd
        left = size * size - filled + (grids - grid - 1) * (size - 1) ** 2
        if left > self.rollout_cap:
            return None  # (never, at any size: a rollout of the rules' length is not cut)
        values = [list(row) for row in core.values]
        frontier = list(core.frontier)
        corners = list(core.corners)
        rand = rng.random
        while frontier:
            i = int(rand() * sum([1 if s[2] == s[3] else 2 for s in frontier]))
            for r, c, above, left_count in frontier:
                if above == left_count:
                    if i == 0:
                        v = above
                        break
                    i -= 1
                elif i < 2:
                    v = min(above, left_count) if i == 0 else max(above, left_count)
                    break
                else:
                    i -= 2
            values[r][c] = v
            frontier = next_frontier(frontier, values, r, c)
            filled += 1
            odd += v & 1
            if not frontier:
                corners.append(v)
                if grid + 1 < grids:
                    grid += 1
                    values = blank_grid(size)
                    frontier = [spot(values, 1, 1)]
                    filled, odd = 2 * size - 1, header_odd(size)
        final = scores(sim.options, filled, odd, corners)
        best = max(final)
        winners = [s for s, x in enumerate(final) if x == best]
        return tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(sim.players))

    def _corner_lean(self, sim: EnumerationSim, seat: int) -> float:
        """How many numbers of the last column and row (the corner's counts) are
        coprime to n, for the seat that wants the corner high; against, for the other."""
        if sim.options["goal"] != "corner" or sim.mover() < 0:
            return 0.0
        n, values = sim.size, sim.values
        count = sum(1 for r in range(1, n - 1) if values[r][n - 1] != EMPTY and coprime(values[r][n - 1], n))
        count += sum(1 for c in range(1, n - 1) if values[n - 1][c] != EMPTY and coprime(values[n - 1][c], n))
        high, low = roles(sim.options, sim.grid)
        return count if high == seat else -count if low == seat else 0.0

    def ranked(self, sim: EnumerationSim, seat: int, rng: random.Random) -> list[tuple[float, Move]]:
        before = self._corner_lean(sim, seat)
        keyed = []
        for move in sim.legal():
            after = sim.copy()
            after.play(move)
            gain = self.gain(sim, after, seat)
            if after.grid == sim.grid:
                gain += 0.01 * (self._corner_lean(after, seat) - before)
            keyed.append((gain, rng.random(), move))
        keyed.sort(key=lambda k: (k[0], k[1]), reverse=True)
        return [(g, m) for g, _, m in keyed]

    def strong_move(self, state: EnumerationState, seat: int, rng: random.Random, budget: Budget) -> str:
        """Where the end is proved within half the budget and the seat can
        win or share (a lost seat keeps its result whatever it plays), the
        proof's move, which keeps that result; else the tree search's."""
        if state.players == 2 and len(state.legal_moves(seat)) > 1:
            now = time.perf_counter()
            proof = self.exact(state, seat, rng, budget.iterations, now + max(0.0, budget.deadline - now) / 2)
            if proof is not None and proof.best is not None and proof.values[seat] > 0.0:
                return proof.best
        return super().strong_move(state, seat, rng, budget)

    def exact(self, state: EnumerationState, seat: int, rng: random.Random, iterations: int | None,
              deadline: float) -> Proof | None:
        """Two seats with at most `EXACT_MOVES` moves left (the squares left
        in this grid and in the grids to come): alpha-beta to the end of the
        game; None earlier, or when the deadline (or the node cap of
        `iterations`) comes first."""
        if state.players != 2:
            return None
        sim = self.sim(state)
        core = sim.core
        left = core.size * core.size - core.filled + (core.grids - core.grid - 1) * (core.size - 1) ** 2
        if left > EXACT_MOVES or sim.mover() < 0:
            return None
        cap = None if iterations is None else iterations * NODES_PER_ITERATION
        return solve_to_end(self, sim, seat, left, cap, deadline)

    def best_possible(self, state: EnumerationState) -> JSONObject | None:
        """Solitaire: the best final score (`solitaire_best`)."""
        if state.players != 1:
            return None
        return solitaire_best(state.options["size"], state.options["goal"], state.options.get("target", "odd"))


PLAYER = EnumerationPlayer()


# -- Enumeration solitaire: the best score ---------------------------------------

# Exact best scores, proved by `_solitaire_exact` (tests/test_players.py
# recomputes the quick ones and checks the small ones against a brute force
# over every order of play). Keys: (size, goal, target); target is "odd" for
# goal "corner", where it plays no part.
# Search times on one core: size 6 about 0.25 s, size 7 about 2 s, size 8 did
# not finish in 20 minutes (the remembered column counts multiply).
SOLITAIRE_TABLE: dict[tuple[int, str, str], int] = {
    (3, "corner", "odd"): 1, (3, "parity", "odd"): 6, (3, "parity", "even"): 3,
    (4, "corner", "odd"): 2, (4, "parity", "odd"): 10, (4, "parity", "even"): 7,
    (5, "corner", "odd"): 3, (5, "parity", "odd"): 19, (5, "parity", "even"): 12,
    (6, "corner", "odd"): 4, (6, "parity", "odd"): 26, (6, "parity", "even"): 23,
    (7, "corner", "odd"): 5, (7, "parity", "odd"): 36, (7, "parity", "even"): 32,
}
SOLITAIRE_EXACT_MAX = 7  # sizes up to this are exact
_SOLVE_AT_RUN_TIME = 7  # sizes the exact search may run for (all are tabled)


def solitaire_best(size: int, goal: str = "corner", target: str = "odd") -> JSONObject:
    """The best final score of solitaire Enumeration (players = 1):
    ``{"score": int, "exact": bool, "method": str}``.

    Goal "corner" scores the lower-right number, goal "parity" the numbers of
    the finished grid (headers included) with the `target` parity. The final
    grid depends only on which of its two counts each square takes, so the
    search runs over the squares in reading order, remembering for every
    column how many of its numbers are coprime to each later row number and
    for the current row how many are coprime to each later column number.
    Small sizes are exact (from a table, or searched); larger sizes give the
    best grid a beam search finds, a lower bound, with ``exact`` False.
    """
    if isinstance(size, bool) or not isinstance(size, int) or not 3 <= size <= 26:
        raise InvalidOptions(f"size must be a whole number from 3 to 26, not {size!r:.40}")
    if goal not in ("corner", "parity"):
        raise InvalidOptions(f"goal must be 'corner' or 'parity', not {goal!r:.40}")
    if target not in ("odd", "even"):
        raise InvalidOptions(f"target must be 'odd' or 'even', not {target!r:.40}")
    key = (size, goal, target if goal == "parity" else "odd")
    if key in SOLITAIRE_TABLE:
        return {"score": SOLITAIRE_TABLE[key], "exact": True, "method": "table of exact searches"}
    if size <= _SOLVE_AT_RUN_TIME:
        return {"score": _solitaire_exact(*key), "exact": True, "method": "exhaustive search with memoisation"}
    return {"score": _solitaire_beam(*key), "exact": False, "method": "beam search: a lower bound (the best grid found)"}


def _solitaire_exact(n: int, goal: str, target: str) -> int:
    """Exact best score by memoised search over the squares in reading order."""
    want = 1 if target == "odd" else 0
    # Numbers written are counts below n; is_coprime[v][R] for every value and row/column number R.
    is_coprime = [[coprime(v, R) for R in range(n + 1)] for v in range(n + 1)]
    headers = _headers(n, want)

    memo: dict[tuple[Any, ...], int] = {}

    def solve(r: int, c: int, cols: tuple[tuple[int, ...], ...], row: tuple[int, ...]) -> int:
        # cols[c'] counts, for R = 1..n, the numbers of column c' (rows above r, or up to r
        # for c' < c) coprime to R; row counts, for C = 1..n, the numbers left of (r, c).
        if c == n:
            if r == n - 1:
                return 0
            r, c = r + 1, 1
            row = tuple(int(is_coprime[r + 1][C]) for C in range(n + 1))  # the row header r + 1
        # Columns left of c matter only for later rows, row counts only for later columns.
        key = (r, c, tuple(col[r + 2 :] for col in cols[1:c]), tuple(col[r + 1 :] for col in cols[c:]), row[c + 1 :])
        if key in memo:
            return memo[key]
        above = cols[c][r + 1]  # numbers above coprime to the row number r + 1
        left = row[c + 1]  # numbers to the left coprime to the column number c + 1
        best = -1
        for v in {above, left}:
            if r == n - 1 and c == n - 1:
                value = v if goal == "corner" else int(v % 2 == want)
            else:
                col = tuple(x + is_coprime[v][R] for R, x in enumerate(cols[c]))
                new_row = tuple(x + is_coprime[v][C] for C, x in enumerate(row))
                rest = solve(r, c + 1, cols[:c] + (col,) + cols[c + 1 :], new_row)
                value = rest + (int(v % 2 == want) if goal == "parity" else 0)
            best = max(best, value)
        memo[key] = best
        return best

    cols0 = tuple(tuple(int(is_coprime[c + 1][R]) for R in range(n + 1)) for c in range(n))  # column headers
    row0 = tuple(int(is_coprime[2][C]) for C in range(n + 1))  # the row header 2 of row 2
    best = solve(1, 1, cols0, row0)
    return best + headers if goal == "parity" else best


def _solitaire_beam(n: int, goal: str, target: str, width: int = 0) -> int:
    """The best score a beam search over the squares in reading order finds."""
    want = 1 if target == "odd" else 0
    width = width or max(8, 6000 // (n * n))  # bounded work at every size
    # A partial grid: its values row by row (None where unfilled) and its parity count.
    beam: list[tuple[float, int, list[list[int]]]] = [(0.0, 0, blank_grid(n))]
    for r in range(1, n):
        for c in range(1, n):
            nxt: list[tuple[float, int, list[list[int]]]] = []
            for _, hits, grid in beam:
                _, _, above, left = spot(grid, r, c)
                for v in {above, left}:
                    g = [row[:] for row in grid]
                    g[r][c] = v
                    h = hits + int(v % 2 == want)
                    if goal == "corner":
                        lean = sum(1 for i in range(1, n) if g[i][n - 1] != EMPTY and coprime(g[i][n - 1], n))
                        lean += sum(1 for j in range(1, n - 1) if g[n - 1][j] != EMPTY and coprime(g[n - 1][j], n))
                        score = v if (r, c) == (n - 1, n - 1) else lean + 0.001 * sum(1 for x in g[r] if x > 0)
                    else:
                        score = h
                    nxt.append((score, h, g))
            nxt.sort(key=lambda t: t[0], reverse=True)
            # keep distinct grids only
            seen: set[tuple[tuple[int, ...], ...]] = set()
            beam = []
            for item in nxt:
                sig = tuple(map(tuple, item[2]))
                if sig in seen:
                    continue
                seen.add(sig)
                beam.append(item)
                if len(beam) >= width:
                    break
    best = max(beam, key=lambda t: t[0] if goal == "corner" else t[1])
    if goal == "corner":
        return best[2][n - 1][n - 1]
    return best[1] + _headers(n, want)


def _headers(n: int, want: int) -> int:
    """The header numbers (1..n on top, 2..n down the side) of parity `want` (1 odd)."""
    odd = header_odd(n)
    return odd if want == 1 else 2 * n - 1 - odd
