"""Computer players for Prime Target.

Ring moves are scored without playing them (the game's own sum-or-difference
and ring-scoring rules, wedge by wedge); the search sees the best rings by
immediate score plus a random sample, widened progressively, and rollouts
take the best ring (found wedge by wedge, not by listing 2^rays rings) 75% of
the time. Centre moves are searched with random rollouts.

With two seats the rings are proved (`exact`, `proved`): the rings left by
the exact search of prime_target_proof.py (negamax with alpha-beta on the
score difference), and at the default settings the first ring by the
table of games/prime_target_table.py and the centre's last numbers through
it. The strong player and the hint play a proved move wherever the proof
finishes within the budget: the one that forces the largest difference,
which keeps the best result the seat can force; elsewhere the tree search.
"""

from __future__ import annotations

import random
import time
from functools import lru_cache
from typing import Any

from ..base import State
from ..games.prime_target import (
    PrimeTargetState,
    free_values,
    free_wedges,
    next_ring,
    ring_notation,
    ring_points,
    ring_score,
    same_mask,
    to_move,
    wedge_values,
)
from ..numbers import is_prime
from ..games.prime_target_table import RAYS as TABLE_RAYS
from ..games.prime_target_table import RINGS as TABLE_RINGS
from ..games.prime_target_table import first_ring
from .prime_target_proof import NO_DEADLINE, against, best_rings, centre_margin, margin
from .search import Budget, OutOfTime, Player, Proof, Sim

__all__ = ["PLAYER", "PrimeTargetPlayer", "PrimeTargetSim", "best_ring", "margin", "proved", "proved_result",
           "within_reach"]

BEST = 24  # the best rings a node considers
SAMPLE = 24  # random rings added to them
GREEDY_ROLLOUT = 0.75  # how often a rollout takes the best ring
# Where the exact hook proves the rings without a clock (an iteration count):
# while 2^rays for each ring before the last is at most this (the last ring's
# best score is found wedge by wedge): the last three rings of 8 wedges, two
# of 12, four of 5. Without an iteration count it tries any ring position,
# and gives up at the deadline.
EXACT_RINGS = 1 << 16
CENTRE_REACH = 5  # empty centre wedges from which the default centre is proved without a clock
TRY_RINGS, CENTRE_TRY = 1 << 18, 5  # ... and where a proof is tried against a deadline (docs/BENCH.md)
# The share of a strong move's budget its proof may take: a ring proved is worth
# more than a longer tree search, which plays the rings' ends poorly.
PROOF_SHARE = 0.75

Move = tuple[int, int] | int  # a centre move (value, wedge) or a ring move (a mask: bit w set, the difference in wedge w + 1)


class PrimeTargetSim(Sim[Move]):
    """A Prime Target position to search on: the outermost ring so far (the
    centre, 0 for an empty wedge, while it fills) and the points."""

    __slots__ = ("players", "rays", "ring_total", "outer", "placed", "completed", "points")

    def __init__(self, state: PrimeTargetState) -> None:
        self.players = state.players
        self.rays = state.rays
        self.ring_total = state.ring_total
        self.outer: tuple[int, ...] = state.rings[-1] if state.rings else state.centre
        self.placed = state.placed
        self.completed = len(state.rings)
        self.points = list(state.scores)

    def copy(self) -> PrimeTargetSim:
        new = object.__new__(PrimeTargetSim)
        new.players, new.rays, new.ring_total = self.players, self.rays, self.ring_total
        new.outer, new.placed, new.completed, new.points = self.outer, self.placed, self.completed, self.points[:]
        return new

    @property
    def opening(self) -> bool:
        return self.placed < self.rays

    def mover(self) -> int:
        seats = to_move(self.players, self.ring_total, self.placed, self.completed, self.opening)
        return seats[0] if seats else -1

    def legal(self) -> list[Move]:
        if self.opening:
            return [(v, w) for v in free_values(self.outer) for w in free_wedges(self.outer)]
        same = _same(self.outer)
        return [mask for mask in range(1 << self.rays) if not mask & same]

    def play(self, move: Move) -> None:
        if isinstance(move, tuple):  # the centre is still filling
            value, wedge = move
            self.outer = self.outer[: wedge - 1] + (value,) + self.outer[wedge:]
            self.placed += 1
            return
        ring, points = _ring_after(self.outer, move)
        self.points[self.completed % self.players] += points
        self.outer = ring
        self.completed += 1

    def scores(self) -> list[int]:
        return self.points


class PrimeTargetPlayer(Player[PrimeTargetState, PrimeTargetSim, Move]):
    def sim(self, state: PrimeTargetState) -> PrimeTargetSim:
        return PrimeTargetSim(state)

    def notation(self, sim: PrimeTargetSim, move: Move) -> str:
        if isinstance(move, tuple):
            return f"{move[0]}@{move[1]}"
        return ring_notation(move, sim.rays)

    def greedy_move(self, state: PrimeTargetState, seat: int, rng: random.Random) -> str:
        sim = self.sim(state)
        if sim.opening:
            return rng.choice(state.legal_moves(seat))
        rings = _ring_table(sim.outer)
        top = rings[0][0]
        return self.notation(sim, rng.choice([m for s, m in rings if s == top]))

    def candidates(self, sim: PrimeTargetSim, seat: int, rng: random.Random) -> list[Move]:
        if sim.opening:
            moves = sim.legal()
            rng.shuffle(moves)
            return moves
        rings = _ring_table(sim.outer)
        best: list[Move] = [m for _, m in rings[:BEST]]
        rest = [m for _, m in rings[BEST:]]
        return best + rng.sample(rest, min(SAMPLE, len(rest)))

    def rollout_move(self, sim: PrimeTargetSim, seat: int, rng: random.Random) -> Move:
        if sim.opening:
            values, wedges = free_values(sim.outer), free_wedges(sim.outer)
            return rng.choice(values), rng.choice(wedges)
        # Mostly the best ring (players take points), sometimes a random one.
        if rng.random() < GREEDY_ROLLOUT:
            return _best_mask(sim.outer)
        return rng.getrandbits(sim.rays) & ~_same(sim.outer)

    def strong_move(self, state: PrimeTargetState, seat: int, rng: random.Random, budget: Budget) -> str:
        """A proved move where the proof finishes within `PROOF_SHARE` of the
        budget (the largest margin the seat can force, which keeps the best
        result it can force); else the tree search's move, in what is left."""
        if within_reach(state, budget.iterations is None):
            now = time.perf_counter()
            deadline = NO_DEADLINE if budget.iterations is not None else now + max(0.0, budget.deadline - now) * PROOF_SHARE
            found: tuple[float, str] | None
            try:
                found = proved(state, deadline)
            except OutOfTime:
                # The margin did not finish (a slow phone): the result alone is
                # one narrow search, far quicker, and its ring still keeps
                # what is proved; the tree search gets what is left after it.
                now = time.perf_counter()
                try:
                    found = proved_result(state, now + max(0.0, budget.deadline - now) * PROOF_SHARE)
                except OutOfTime:
                    found = None
            if found is not None:
                return found[1]
        return super().strong_move(state, seat, rng, budget)

    def exact(self, state: PrimeTargetState, seat: int, rng: random.Random, iterations: int | None,
              deadline: float) -> Proof | None:
        """Two seats: the proved result, and a move that keeps it
        (`proved_result`). With an iteration count the proof never looks at
        the clock (the same on every machine) and is tried only where its
        work is known to be small (`within_reach`); without one it is tried
        wherever it may finish, and None when the deadline comes first."""
        if state.players != 2 or state.is_over or not within_reach(state, iterations is None):
            return None
        try:
            found = proved_result(state, NO_DEADLINE if iterations is not None else deadline)
        except OutOfTime:
            return None
        if found is None:
            return None
        first, best = found
        mine = first if seat == 0 else 1.0 - first
        values = (mine, 1 - mine) if seat == 0 else (1 - mine, mine)
        plies = (state.rays - state.placed) + state.ring_total - len(state.rings)
        # every line ends after the same number of moves
        return Proof(values, best, plies if mine != 0.5 else None)


    def lead(self, state: PrimeTargetState, iterations: int | None,
             deadline: float) -> tuple[tuple[int, ...], str] | None:
        """Two seats: each seat's final lead under best play and the ring (or
        centre move) that forces the mover's largest (`proved`: the margin,
        slower than the result alone); where `exact` reaches, as it does."""
        if state.players != 2 or state.is_over or not within_reach(state, iterations is None):
            return None
        try:
            found = proved(state, NO_DEADLINE if iterations is not None else deadline)
        except OutOfTime:
            return None
        if found is None:
            return None
        return (found[0], -found[0]), found[1]


def within_reach(state: PrimeTargetState, clock: bool = False) -> bool:
    """Whether `proved` answers `state` with little enough work that it needs
    no clock (measured in docs/BENCH.md): the first ring at the default
    settings (the table), the last rings where 2^(rays × (rings left − 1))
    is at most `EXACT_RINGS`, and the default centre's last `CENTRE_REACH`
    numbers. With a `clock` (a deadline to stop at), somewhat further:
    where a proof may finish within a move's budget (`TRY_RINGS`,
    `CENTRE_TRY`), so a search is not left half its budget for nothing."""
    if state.players != 2:
        return False
    if _tabled(state):
        return not state.opening or state.rays - state.placed <= (CENTRE_TRY if clock else CENTRE_REACH)
    left = state.ring_total - len(state.rings)
    return not state.opening and 1 << state.rays * (left - 1) <= (TRY_RINGS if clock else EXACT_RINGS)


def _tabled(state: PrimeTargetState) -> bool:
    """The settings the first-ring table solves."""
    return state.players == 2 and state.rays == TABLE_RAYS and state.ring_total == TABLE_RINGS


def proved(state: PrimeTargetState, deadline: float = NO_DEADLINE) -> tuple[int, str] | None:
    """With two seats: Player 1's final margin over Player 2 under best play
    from `state` (the points so far included), and the move of the seat to
    move that forces the largest margin it can (the first such move in the
    order of the legal moves); None where nothing is proved (the centre
    away from the table's settings). Raises OutOfTime past `deadline`."""
    if state.is_over or state.players != 2:
        return None
    key = (state.rays, state.ring_total, state.centre, state.rings)
    known = _PROVED.get(key)
    if known is None:
        known = _proved(state, deadline)
        if known is None:
            return None
        if len(_PROVED) >= PROVED_KEPT:
            _PROVED.clear()
        _PROVED[key] = known
    return known


# Proofs already made, by position: puzzles and mistakes ask for a position's
# result and then its best move, and the analysis asks for each position twice.
_PROVED: dict[tuple[int, int, tuple[int, ...], tuple[tuple[int, ...], ...]], tuple[int, str]] = {}
PROVED_KEPT = 4096


def _proved(state: PrimeTargetState, deadline: float) -> tuple[int, str] | None:
    points = state.scores[0] - state.scores[1]
    if state.opening:
        if not _tabled(state):
            return None
        value, moves = centre_margin(state.centre, _table_margin, deadline)
        return value, f"{moves[0][0]}@{moves[0][1]}"
    if _tabled(state) and not state.rings:
        value, signs = first_ring(state.centre)
        return points + value, signs
    left = state.ring_total - len(state.rings)
    sign = 1 if len(state.rings) % 2 == 0 else -1  # Player 1 completes the odd rings
    value, masks = best_rings(state.rings[-1] if state.rings else state.centre, left, deadline)
    return points + sign * value, ring_notation(masks[0], state.rays)


def proved_result(state: PrimeTargetState, deadline: float = NO_DEADLINE) -> tuple[float, str] | None:
    """With two seats: Player 1's proved result from `state` (1 won, 0.5 a
    shared win, 0 lost) and a move of the seat to move that keeps that
    seat's result. In the rings after the first only the result is asked
    (one search with a window two wide around the difference to beat, which
    finds the ring on the way: `against`), far quicker than the margin: the analysis,
    puzzles and mistakes prove every answer of a position this way.
    Elsewhere as `proved`. None where nothing is proved; raises OutOfTime
    past `deadline`."""
    if state.is_over or state.players != 2:
        return None
    left = state.ring_total - len(state.rings)
    if state.opening or (_tabled(state) and not state.rings) or left <= 2:
        found = proved(state, deadline)
        if found is None:
            return None
        final, move = found
        return (1.0 if final > 0 else 0.5 if final == 0 else 0.0), move
    key = (state.rays, state.ring_total, state.centre, state.rings)
    known = _RESULTS.get(key)
    if known is None:
        mover = len(state.rings) % 2
        ahead = state.scores[mover] - state.scores[1 - mover]
        inner = state.rings[-1] if state.rings else state.centre
        # the mover's margin from here above -ahead wins, equal to it shares
        compared, mask = against(inner, left, -ahead, deadline)
        mine = (0.0, 0.5, 1.0)[compared + 1]
        known = (mine if mover == 0 else 1.0 - mine, ring_notation(mask, state.rays))
        if len(_RESULTS) >= PROVED_KEPT:
            _RESULTS.clear()
        _RESULTS[key] = known
    return known


_RESULTS: dict[tuple[int, int, tuple[int, ...], tuple[tuple[int, ...], ...]], tuple[float, str]] = {}


def _table_margin(centre: tuple[int, ...]) -> int:
    return first_ring(centre)[0]


# Rollouts meet the same rings again and again: what the game's rules give
# for a ring is remembered (the rules themselves are the game module's).


@lru_cache(maxsize=1 << 15)
def _ring_after(inner: tuple[int, ...], mask: int) -> tuple[tuple[int, ...], int]:
    """The ring the ring move `mask` writes outside `inner`, and what it scores."""
    ring = next_ring(inner, mask)
    return ring, ring_score(ring)


@lru_cache(maxsize=1 << 15)
def _same(inner: tuple[int, ...]) -> int:
    return same_mask(inner)


@lru_cache(maxsize=1 << 16)
def _best_mask(inner: tuple[int, ...]) -> int:
    """A ring move of the best immediate score, found wedge by wedge: either
    as many primes as possible, or exactly one prime, as large as possible."""
    most = 0  # a prime wherever one can be had (the sum when both are)
    plain = 0  # no prime wherever that can be avoided
    count = 0
    forced = []  # wedges that hold a prime whatever is chosen
    lone = []  # (value, wedge, bit) of every prime on offer, wedge by wedge
    for w, values in enumerate(wedge_values(inner)):
        first = is_prime(values[0])
        second = len(values) > 1 and is_prime(values[-1])
        if first:
            lone.append((values[0], w, 0))
        if second:
            lone.append((values[-1], w, 1))
        if first or second:
            count += 1
        if not first and second:
            most |= 1 << w
        elif first and len(values) > 1 and not second:
            plain |= 1 << w
        elif first and (second or len(values) == 1):
            forced.append(w)
    best_score, best = (count if count != 1 else -1), most
    for value, w, bit in lone:
        if forced and forced != [w]:
            continue  # a lone prime must sit in the only forced wedge, if any
        if value > best_score:
            best_score = value
            best = plain & ~(1 << w) | bit << w
    return best


def best_ring(inner: tuple[int, ...]) -> str:
    """The notation of a ring move of the best immediate score outside `inner`."""
    return ring_notation(_best_mask(inner), len(inner))


@lru_cache(maxsize=4096)
def _ring_table(inner: tuple[int, ...]) -> list[tuple[int, int]]:
    """(score, mask) of every distinct ring move outside `inner`, best first
    (equal scores in notation order)."""
    # Built wedge by wedge (a loop, not a recursion: the calls were most of
    # the cost), each partial ring as (mask, primes so far, the first prime),
    # wedge 1 outermost and '+' first, so the rings come in notation order.
    partial: list[tuple[int, int, int]] = [(0, 0, 0)]
    for w, values in enumerate(wedge_values(inner)):
        choices = [(i << w, v if is_prime(v) else 0) for i, v in enumerate(values)]
        partial = [(mask | bit, primes + 1, single or prime) if prime else (mask | bit, primes, single)
                   for mask, primes, single in partial for bit, prime in choices]
    table = [(ring_points(primes, single), mask) for mask, primes, single in partial]
    table.sort(key=lambda sm: -sm[0])  # stable: equal scores stay in notation order
    return table


PLAYER = PrimeTargetPlayer()
