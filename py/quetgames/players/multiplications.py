"""Computer players for Multiplications Within the Permutation.

Numbering is solved exactly once the x's are down (two players: the best
score difference by negamax over which x comes next, memoised on the
numbered set and the last square); marking is searched by UCT whose rollouts
mark at random and then end with that exact solver.
"""

from __future__ import annotations

import random
from functools import lru_cache

from ..games.multiplications import Core, MultiplicationsState, gain, step
from ..grid import Square, square_name
from .search import Budget, Player, Proof, Rewards, Sim

__all__ = ["PLAYER", "MultiplicationsPlayer", "MultiplicationsSim"]

EXACT_MAX = 14  # x's up to which numbering is solved exactly


class MultiplicationsSim(Sim[Square]):
    """A Multiplications position to search on: the game's own immutable
    `Core`, moved on by the game's own `step` (so a copy shares it); a move
    is a square."""

    __slots__ = ("core", "players")

    def __init__(self, core: Core) -> None:
        self.core = core
        self.players = core.players

    def copy(self) -> MultiplicationsSim:
        return MultiplicationsSim(self.core)

    @property
    def size(self) -> int:
        return self.core.size

    @property
    def xs(self) -> tuple[Square, ...]:
        return self.core.xs

    @property
    def numbers(self) -> tuple[Square, ...]:
        return self.core.numbers

    @property
    def points(self) -> tuple[int, ...]:
        return self.core.points

    @property
    def marking(self) -> bool:
        return self.core.marking

    def mover(self) -> int:
        seats = self.core.to_move()
        return seats[0] if seats else -1

    def legal(self) -> list[Square]:
        return self.core.legal()

    def play(self, move: Square) -> None:
        self.core = step(self.core, move)

    def scores(self) -> tuple[int, ...]:
        return self.core.points


class MultiplicationsPlayer(Player[MultiplicationsState, MultiplicationsSim, Square]):
    def sim(self, state: MultiplicationsState) -> MultiplicationsSim:
        return MultiplicationsSim(state.core)

    def notation(self, sim: MultiplicationsSim, move: Square) -> str:
        return square_name(move)

    def candidates(self, sim: MultiplicationsSim, seat: int, rng: random.Random) -> list[Square]:
        if sim.marking:  # no x scores: every mark gains the same
            moves = sim.legal()
            rng.shuffle(moves)
            return moves
        return super().candidates(sim, seat, rng)

    def rollout_move(self, sim: MultiplicationsSim, seat: int, rng: random.Random) -> Square:
        if sim.marking:  # the free squares are the free rows times the free columns
            rows = {r for r, _ in sim.xs}
            cols = {c for _, c in sim.xs}
            return (rng.choice([r for r in range(sim.size) if r not in rows]),
                    rng.choice([c for c in range(sim.size) if c not in cols]))
        return rng.choice(sim.legal())

    def solved(self, sim: MultiplicationsSim) -> Rewards | None:
        if sim.players != 2 or sim.marking or sim.size > EXACT_MAX:
            return None
        mover = sim.mover()
        if mover < 0:
            return None
        remaining, last = _layout(sim)
        final = sim.points[mover] - sim.points[1 - mover] + _number_solve(remaining, last)
        r = 1.0 if final > 0 else 0.0 if final < 0 else 0.5
        return (r, 1 - r) if mover == 0 else (1 - r, r)

    def strong_move(self, state: MultiplicationsState, seat: int, rng: random.Random, budget: Budget) -> str:
        sim = self.sim(state)
        if sim.players == 2 and not sim.marking and sim.size <= EXACT_MAX:
            return square_name(_best_numbering(sim)[1])
        return super().strong_move(state, seat, rng, budget)

    def exact(self, state: MultiplicationsState, seat: int, rng: random.Random, iterations: int | None,
              deadline: float) -> Proof | None:
        """Two seats numbering (the x's are down): solved by the exact solver."""
        sim = self.sim(state)
        if sim.players != 2 or sim.marking or sim.size > EXACT_MAX:
            return None
        best, best_move = _best_numbering(sim)
        final = sim.points[seat] - sim.points[1 - seat] + best
        mine = 1.0 if final > 0 else 0.0 if final < 0 else 0.5
        values = (mine, 1 - mine) if seat == 0 else (1 - mine, mine)
        return Proof(values, square_name(best_move))


    def lead(self, state: MultiplicationsState, iterations: int | None,
             deadline: float) -> tuple[tuple[int, ...], str] | None:
        """Two seats numbering: each seat's final lead under best play, from the exact solver."""
        sim = self.sim(state)
        if sim.players != 2 or sim.marking or sim.size > EXACT_MAX:
            return None
        best, best_move = _best_numbering(sim)
        seat = sim.mover()
        final = sim.points[seat] - sim.points[1 - seat] + best
        return ((final, -final) if seat == 0 else (-final, final)), square_name(best_move)


def _best_numbering(sim: MultiplicationsSim) -> tuple[int, Square]:
    """With two seats numbering: the best score difference the mover can force
    from here on, and the square that forces it (the first of the best)."""
    remaining, _ = _layout(sim)
    best, best_move = None, sim.legal()[0]
    for move in sim.legal():
        cell = _cell(move)
        value = gain(sim.numbers[-1], move) - _number_solve(remaining & ~(1 << cell), cell)
        if best is None or value > best:
            best, best_move = value, move
    assert best is not None
    return best, best_move


# The exact numbering solver names a square by one number, row * 32 + column,
# and a set of squares by the bits of those numbers: positions that leave the
# same x's to number from the same last square share their value, across
# different permutations too (which rollouts meet by the thousand).


def _cell(square: Square) -> int:
    return square[0] << 5 | square[1]


def _layout(sim: MultiplicationsSim) -> tuple[int, int]:
    """The x's still to number, as a set of cells, and the cell numbered last."""
    numbered = set(sim.numbers)
    remaining = 0
    for sq in sim.xs:
        if sq not in numbered:
            remaining |= 1 << _cell(sq)
    return remaining, _cell(sim.numbers[-1])


@lru_cache(maxsize=1 << 18)
def _number_solve(remaining: int, last: int) -> int:
    """With the x's of `remaining` still to number and `last` numbered last: the
    best final score difference (mover minus opponent) the mover can force."""
    if not remaining:
        return 0
    gains = _gains_from(last)
    best = None
    rest = remaining
    while rest:
        bit = rest & -rest
        rest ^= bit
        cell = bit.bit_length() - 1
        left = remaining ^ bit
        # With one or two x's left the answer is written out (no call, no cache entry).
        beyond = left & (left - 1)  # left without its lowest x
        if not left:
            value = gains[cell]
        elif not beyond:  # one left: the opponent numbers it
            value = gains[cell] - _gains_from(cell)[left.bit_length() - 1]
        elif not beyond & (beyond - 1):  # two left: the opponent takes the better first
            a, b = (left & -left).bit_length() - 1, beyond.bit_length() - 1
            after = _gains_from(cell)
            value = gains[cell] - (max(after[a], after[b]) - _gains_from(a)[b])
        else:
            value = gains[cell] - _number_solve(left, cell)
        if best is None or value > best:
            best = value
    assert best is not None
    return best


@lru_cache(maxsize=26 * 32)
def _gains_from(last: int) -> tuple[int, ...]:
    """What numbering each cell right after `last` scores (the game's `gain`)."""
    a = (last >> 5, last & 31)
    return tuple(gain(a, (cell >> 5, cell & 31)) for cell in range(26 * 32))


PLAYER = MultiplicationsPlayer()
