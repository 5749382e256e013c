"""Computer players for Prime Target.

Ring moves are scored without playing them (the game's own sum-or-difference
and ring-scoring rules, wedge by wedge); the search sees the best rings by
immediate score plus a random sample, widened progressively, and rollouts
take the best ring (found wedge by wedge, not by listing 2^rays rings) 75% of
the time. Centre moves are searched with random rollouts.

The last rings are proved (`exact`): with two seats, once few enough rings
are left, every sign choice of every remaining ring is tried (negamax on the
score difference, each ring's best answer remembered), so the end of a game
is proved as surely as its rules are followed.
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
from .search import Player, Proof, Sim

__all__ = ["PLAYER", "PrimeTargetPlayer", "PrimeTargetSim", "best_ring", "margin"]

BEST = 24  # the best rings a node considers
SAMPLE = 24  # random rings added to them
GREEDY_ROLLOUT = 0.75  # how often a rollout takes the best ring
# The most rings the exact hook lists, 2^rays for each ring before the last
# (the last ring's best score is found wedge by wedge, `_best_mask`): the
# last two rings of up to 12 wedges, the last three of 6, the last four of 4;
# not the last three of 8 (65,536 rings, about a second).
EXACT_RINGS = 1 << 12

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

    def exact(self, state: PrimeTargetState, seat: int, rng: random.Random, iterations: int | None,
              deadline: float) -> Proof | None:
        """Two seats completing the last rings, few enough that trying them
        all stays within `EXACT_RINGS`: every sign choice of every ring left,
        each seat taking the rings that leave it the best score difference
        (`margin`). None earlier in the game, with more seats, or (without
        an iteration count) when the deadline comes first."""
        sim = self.sim(state)
        left = sim.ring_total - sim.completed
        if sim.players != 2 or sim.opening or left < 1 or 1 << sim.rays * (left - 1) > EXACT_RINGS:
            return None
        if left == 1:
            best_mask = _best_mask(sim.outer)
            best_value = _ring_after(sim.outer, best_mask)[1]
        else:
            best_value, best_mask = -(1 << 20), 0
            for score, mask in _ring_table(sim.outer):
                # With an iteration count the proof never looks at the clock
                # (the same on every machine; its work is bounded by EXACT_RINGS).
                if iterations is None and time.perf_counter() > deadline:
                    return None
                value = score - margin(_ring_after(sim.outer, mask)[0], left - 1)
                if value > best_value:
                    best_value, best_mask = value, mask
        final = sim.points[seat] - sim.points[1 - seat] + best_value
        mine = 1.0 if final > 0 else 0.0 if final < 0 else 0.5
        values = (mine, 1 - mine) if seat == 0 else (1 - mine, mine)
        # every line ends after the same number of rings
        return Proof(values, ring_notation(best_mask, sim.rays), left if mine != 0.5 else None)


@lru_cache(maxsize=1 << 16)
def margin(inner: tuple[int, ...], left: int) -> int:
    """The best score difference the seat completing the next ring can force
    over the other seat with `left` rings still to complete outside `inner`
    (two seats taking turns): every sign choice of every ring, tried."""
    if left == 1:  # the last ring: its best score, found wedge by wedge
        return _ring_after(inner, _best_mask(inner))[1]
    table = _ring_table(inner)
    best = None
    for score, mask in table:  # best score first
        if best is not None and left == 2 and score <= best:
            break  # the other seat's last ring scores at least 0: no later ring does better
        value = score - margin(_ring_after(inner, mask)[0], left - 1)
        if best is None or value > best:
            best = value
    assert best is not None
    return best


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
