"""Computer players for Convoluted Coprimality.

Never knocks itself out while a safe square exists; rollouts play safe
squares too (random play knocks itself out so fast that it says nothing
about a position) and are cut off after a while, the survivors sharing. The
prior puts first the squares that leave the next seat only squares that
knock it out. With two players the outcome of a line is exact (someone is
knocked out, or both survive the last grid), so strong searches the moves
themselves: iterative-deepening alpha-beta, an unresolved line counting as
even. Wherever the position is proved (two seats still in, or a win one
seat forces against all the others), strong plays as the analysis judges:
the soonest win, or the longest resistance.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..base import State
from ..games.convoluted_coprimality import (
    ConvolutedCoprimalityState,
    fresh_grid,
    geometry,
    grid_starter,
    knocks_out,
    next_writer,
    targets,
)
from ..grid import parse_square, square_name
from .search import Budget, OutOfTime, Player, Proof, Sim, alphabeta, best_at_root, best_by_plies, plies_to_win

__all__ = ["PLAYER", "CoprimalityPlayer", "CoprimalitySim"]

TURN_LOOK = 400  # squares greedy looks at through the rest of its block
NODES_PER_ITERATION = 50  # alpha-beta's node cap per iteration asked for
EXACT_MAX_DEPTH = 200  # plies the analysis's alpha-beta looks ahead: well inside the browser's stack
PROOF_DEPTH = 400  # plies a balance proof looks ahead


class CoprimalitySim(Sim[int]):
    """A Convoluted Coprimality position to search on; a move is a flat square."""

    __slots__ = ("geo", "players", "grid", "last", "j", "seat", "alive", "ended", "max_rounds", "over", "targets")

    def __init__(self, state: ConvolutedCoprimalityState) -> None:
        self.geo = geometry(state.size)
        self.players = state.players
        self.grid = list(state.grid)
        self.last = state.path[-1]
        self.j = state.next_number
        self.seat = state.mover
        self.alive = list(state.alive)
        self.ended = state.ended
        self.max_rounds: int = state.options["max_rounds"]
        self.over = state.over_by is not None
        self.targets: list[int] | None = None  # the legal squares, once known

    def copy(self) -> CoprimalitySim:
        new = object.__new__(CoprimalitySim)
        new.geo, new.players, new.grid, new.last, new.j = self.geo, self.players, self.grid[:], self.last, self.j
        new.seat, new.alive, new.ended, new.max_rounds, new.over = self.seat, self.alive[:], self.ended, self.max_rounds, self.over
        new.targets = self.targets
        return new

    def mover(self) -> int:
        return -1 if self.over else self.seat

    def legal(self) -> list[int]:
        if self.targets is None:
            self.targets = targets(self.geo, self.grid, self.last)
        return self.targets[:]

    def knocks_out(self, q: int) -> bool:
        """Whether writing the next number at q knocks its writer out."""
        return knocks_out(self.geo, self.grid, q, self.j)

    def play(self, move: int) -> None:
        seat, j = self.seat, self.j
        out = self.knocks_out(move)
        self.grid[move] = j
        self.last = move
        self.j = j + 1
        if out:
            self.alive[seat] = False
        nxt = next_writer(seat, j, out, self.alive)
        if nxt is None:
            self.over, self.targets = True, []
            return
        self.seat = nxt
        self.targets = targets(self.geo, self.grid, move)
        if not self.targets:
            self.ended += 1
            if self.ended >= self.max_rounds:
                self.over = True
                return
            grid, path = fresh_grid(self.geo.size)
            self.grid, self.last, self.j = list(grid), path[-1], 2
            self.seat = grid_starter(self.alive)
            self.targets = None

    def scores(self) -> list[int]:
        return [int(a) for a in self.alive]

    def score(self, seat: int) -> int:
        return int(self.alive[seat])


class CoprimalityPlayer(Player[ConvolutedCoprimalityState, CoprimalitySim, int]):
    rollout_cap = 60

    def sim(self, state: ConvolutedCoprimalityState) -> CoprimalitySim:
        return CoprimalitySim(state)

    def notation(self, sim: CoprimalitySim, move: int) -> str:
        return square_name(divmod(move, sim.geo.size))

    def rollout_move(self, sim: CoprimalitySim, seat: int, rng: random.Random) -> int:
        moves = sim.legal()
        rng.shuffle(moves)
        for q in moves:
            if not sim.knocks_out(q):
                return q
        return moves[0]

    def _trapped(self, sim: CoprimalitySim) -> bool:
        """True when the seat to move has only squares that knock it out."""
        return all(sim.knocks_out(q) for q in sim.legal())

    def _turn_value(self, sim: CoprimalitySim, seat: int, budget: list[int]) -> float:
        """The best outcome of the rest of `seat`'s block from `sim` (the seat
        writes every number of its block in a row): 0 knocked out, 1 safe to
        the end of the block, 2 safe and the next seat is trapped, 3 the game
        is won. `budget` bounds the squares looked at."""
        if sim.over:
            winners = sim.winners()
            return 3.0 if winners == (seat,) else 1.0 if seat in winners else 0.0
        if not sim.alive[seat]:
            return 0.0
        if sim.seat != seat:
            return 2.0 if self._trapped(sim) else 1.0
        best = 0.0
        for q in sim.legal():
            if budget[0] <= 0:
                return max(best, 1.0)  # out of look-ahead: assume it can be survived
            budget[0] -= 1
            after = sim.copy()
            after.play(q)
            best = max(best, self._turn_value(after, seat, budget))
            if best >= 3.0:
                break
        return best

    def ranked(self, sim: CoprimalitySim, seat: int, rng: random.Random) -> list[tuple[float, int]]:
        keyed = []
        for q in sim.legal():
            after = sim.copy()
            after.play(q)
            keyed.append((self._turn_value(after, seat, [TURN_LOOK]), rng.random(), q))
        keyed.sort(key=lambda k: (k[0], k[1]), reverse=True)
        return [(g, m) for g, _, m in keyed]

    def strong_move(self, state: ConvolutedCoprimalityState, seat: int, rng: random.Random, budget: Budget) -> str:
        sim = self.sim(state)
        moves = sim.legal()
        if len(moves) == 1:
            return self.notation(sim, moves[0])
        # A proved position is played as the analysis judges it: the soonest
        # win, or the longest resistance.
        now = time.perf_counter()
        proof = self.exact(state, seat, rng, budget.iterations, now + max(0.0, budget.deadline - now) / 2)
        if proof is not None and proof.plies is not None and proof.best is not None:
            return proof.best
        if sim.players != 2:
            return super().strong_move(state, seat, rng, budget)
        order = [q for _, q in self.ranked(sim, seat, rng)]
        children = {}
        for q in order:
            children[q] = sim.copy()
            children[q].play(q)
        nodes = [0]
        cap = None if budget.iterations is None else budget.iterations * NODES_PER_ITERATION  # machine-independent
        best = order[0]
        for depth in range(1, 200):
            values: dict[int, float] = {}
            try:
                alpha = -1.0
                for q in order:
                    v = alphabeta(self, children[q], seat, depth - 1, alpha, 2.0, nodes, cap, budget.deadline)
                    values[q] = v
                    alpha = max(alpha, v)
            except OutOfTime:
                break
            top = max(values.values())
            best = next(q for q in order if values[q] == top)
            # Search the best line first next time; keep the prior's order among equals.
            order.sort(key=lambda q: -values[q])
            if top >= 1.0 or all(v <= 0.0 for v in values.values()) or depth > 150:
                break
        return self.notation(sim, best)

    def same_chances(self, state: ConvolutedCoprimalityState, seat: int, a: str, b: str) -> bool:
        """Mirror images about the diagonal from a1, on a grid that is its own
        mirror (a fresh grid holding only its 1: the 2 goes to a2 or b1).
        Nothing else in the rules has a direction, so the two are the same move."""
        size = state.size
        (ra, ca), (rb, cb) = parse_square(a, size), parse_square(b, size)
        if (ra, ca) != (cb, rb) or ra == ca:
            return False
        grid = state.grid
        return all(grid[r * size + c] == grid[c * size + r] for r in range(size) for c in range(r + 1, size))

    def exact(self, state: ConvolutedCoprimalityState, seat: int, rng: random.Random, iterations: int | None,
              deadline: float) -> Proof | None:
        """Proved by alpha-beta to the end of the game, or None when the
        deadline (or the node cap of `iterations`) comes first.

        Two seats still in: the whole game tree. A won or lost value is
        proved at any depth (an unresolved line counts 0.5); a shared win only
        when every line ends. Three or more still in: only a win that one seat
        forces whatever all the others do (alpha-beta with every other seat
        against it) is a proof; anything else is left to the estimate.

        A win or loss then gets its distance (`Proof.plies`), and the best
        move is the one that wins soonest or holds out longest; with two
        seats still in, a proof whose distance the budget cannot reach stands
        without it."""
        sim = self.sim(state)
        alive = [s for s in range(sim.players) if sim.alive[s]]
        size = sim.geo.size
        longest = size * size - sim.j + 1 + (sim.max_rounds - sim.ended - 1) * size * size
        depth = min(longest + 1, EXACT_MAX_DEPTH)
        cap = None if iterations is None else iterations * NODES_PER_ITERATION
        nodes = [0]
        order = [q for _, q in self.ranked(sim, seat, rng)]
        best_move: int | None = None
        if len(alive) == 2:
            try:
                best_value, best_move = best_at_root(self, sim, seat, order, depth, nodes, cap, deadline)
            except (OutOfTime, RecursionError):
                return None
            assert best_move is not None
            if best_value == 0.5:
                if depth <= longest:
                    return None  # a line left unresolved: 0.5 might not be a shared win
                return Proof(tuple(0.5 if s in alive else 0.0 for s in range(sim.players)), self.notation(sim, best_move))
            winner = seat if best_value == 1.0 else next(s for s in alive if s != seat)
        else:
            try:
                # (the root searched `depth` + 1 plies deep, as the children above are searched `depth`)
                winner = next((s for s in [seat, *(s for s in alive if s != seat)]
                               if alphabeta(self, sim, s, depth + 1, 0.5, 1.0, nodes, cap, deadline) >= 1.0), -1)
            except (OutOfTime, RecursionError):
                return None
            if winner < 0:
                return None
        values = tuple(1.0 if s == winner else 0.0 for s in range(sim.players))
        plies: int | None
        try:
            # (the win comes within depth + 1 plies: the depth proved above)
            plies = plies_to_win(self, sim, winner, depth + 1, nodes, cap, deadline)
            best_move = best_by_plies(self, sim, order, winner, plies, nodes, cap, deadline)
        except (OutOfTime, RecursionError):
            if best_move is None:
                return None  # (three or more still in: no move known to keep the proof)
            plies = None
        return Proof(values, self.notation(sim, best_move), plies)

    def prove(self, state: ConvolutedCoprimalityState, seconds: float) -> float | None:
        """Two seats from the start: solved by alpha-beta in a few hundred nodes
        at every size (someone is knocked out in the first grid)."""
        if state.players != 2:
            return None
        sim = self.sim(state)
        try:
            value = alphabeta(self, sim, 0, PROOF_DEPTH, -1.0, 2.0, [0], None, time.perf_counter() + seconds)
        except (OutOfTime, RecursionError):
            return None
        size = sim.geo.size
        longest = size * size * sim.max_rounds
        return value if value != 0.5 or longest < PROOF_DEPTH else None




PLAYER = CoprimalityPlayer()
