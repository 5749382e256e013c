"""Computer players for every game: three levels behind one entry point.

    >>> import quetgames
    >>> s = quetgames.new_game("multiplications")
    >>> move = quetgames.computer_move(s, level="greedy", seed=1)
    >>> move in s.legal_moves()
    True

Levels:

- ``random``: a uniformly random legal move.
- ``greedy``: the move with the best immediate gain (the mover's score change
  minus the best opponent's), never a move that loses on the spot; ties are
  broken at random (Enumeration corner: towards numbers in the last row and
  column that help its side of the corner count). Convoluted Coprimality: a
  turn is a whole block, so greedy looks through the rest of its own block,
  surviving it if it can and, if it can, leaving the next seat trapped.
  Nonconformity: score this round if possible, widening the own span (the
  opponent's scoring band) as little as possible.
- ``strong``: Monte-Carlo tree search (UCT) with progressive widening over
  moves ordered by a cheap game-specific prior, rollouts with a light
  game-specific policy, and game knowledge where it pays (see the adapters
  below). Nonconformity, a game of simultaneous secret picks, uses flat
  Monte-Carlo over a few candidate picks with the opponent's pick drawn from a
  model of the opponent, never from the opponent's actual pending pick.

Every decision is reproducible: randomness comes only from a `random.Random`
seeded with the caller's seed, the level, the seat and the public record of the
position. With a time ``budget`` alone, ``strong`` runs as many search
iterations as fit, so its moves can differ between machines; pass
``iterations=N`` to run exactly N iterations instead (the budget is then not
consulted), which makes whole games reproducible anywhere.

The computer decides from public information only: the position is first
reduced to what the seat may know (`State._secret_free`, the same reduction
`view(seat)` uses), so a pending secret pick of another seat cannot leak in.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from functools import lru_cache
from math import gcd, sqrt
from typing import Any

from .base import State
from .errors import IllegalMove, InvalidOptions

__all__ = ["LEVELS", "computer_move", "solitaire_best", "SOLITAIRE_TABLE"]

LEVELS = ("random", "greedy", "strong")
MAX_BUDGET = 60.0  # seconds
MAX_ITERATIONS = 1_000_000
_MARGIN = 0.85  # strong stops searching at this fraction of the budget
_UCT_C = 0.9


# -- the entry point -------------------------------------------------------


def computer_move(
    state: State,
    seat: int | None = None,
    level: str = "strong",
    seed: int = 0,
    budget: float = 1.0,
    *,
    iterations: int | None = None,
) -> str:
    """A legal move for `seat` (which may be omitted when one seat is to move),
    chosen by the computer level `level` within about `budget` seconds.

    Raises IllegalMove for a seat that is not to move or a finished game, and
    InvalidOptions for an unknown level or a bad seed, budget or iteration cap.
    """
    if not isinstance(state, State):
        raise InvalidOptions(f"computer_move needs a game state, not {type(state).__name__}")
    if not isinstance(level, str) or level not in LEVELS:
        raise InvalidOptions(f"the computer level is one of {', '.join(LEVELS)}, not {level!r:.40}")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise InvalidOptions(f"the seed is a whole number from 0 to 2**63 - 1, not {seed!r:.40}")
    if isinstance(budget, bool) or not isinstance(budget, (int, float)) or not 0 < budget <= MAX_BUDGET:
        raise InvalidOptions(f"the budget is a number of seconds above 0 and at most {MAX_BUDGET:g}, not {budget!r:.40}")
    if iterations is not None and (
        isinstance(iterations, bool) or not isinstance(iterations, int) or not 1 <= iterations <= MAX_ITERATIONS
    ):
        raise InvalidOptions(f"iterations is a whole number from 1 to {MAX_ITERATIONS}, not {iterations!r:.40}")
    deadline = time.perf_counter() + budget * _MARGIN
    if state.is_over:
        raise IllegalMove("the game is over: no more moves can be played")
    seat = state._seat(seat)
    # Only what this seat may know: a pending secret of another seat is gone.
    public = state._secret_free(seat)
    rng = random.Random(f"{seed}|{level}|{seat}|{public.record}")
    adapter = _ADAPTERS.get(state.game.id, _Adapter)()
    if level == "random":
        return adapter.random_move(public, seat, rng)
    if level == "greedy":
        return adapter.greedy_move(public, seat, rng)
    return adapter.strong_move(public, seat, rng, deadline, iterations)


# -- shared helpers ----------------------------------------------------------


def _rewards(state: State) -> tuple[float, ...]:
    """The outcome of a finished game per seat: a win 1, a win shared by k seats 1/k."""
    winners = state.winners
    share = 1.0 / len(winners) if winners else 0.0
    return tuple(share if s in winners else 0.0 for s in range(state.players))


def _advantage(scores: tuple[int, ...], seat: int) -> float:
    """The seat's score minus the best score among the others."""
    others = [x for s, x in enumerate(scores) if s != seat]
    return scores[seat] - (max(others) if others else 0)


def _leader_rewards(state: State) -> tuple[float, ...]:
    """A rough outcome of an unfinished game, for cut-off rollouts: the current
    leaders share the win, blended half and half with an even split."""
    scores = state.scores
    best = max(scores)
    leaders = [s for s, x in enumerate(scores) if x == best]
    even = 1.0 / len(scores)
    return tuple(0.5 * even + (0.5 / len(leaders) if s in leaders else 0.0) for s in range(len(scores)))


class _Node:
    __slots__ = ("state", "mover", "moves", "children", "visits", "total", "terminal")

    def __init__(self, state: State, moves: list[str] | None) -> None:
        self.state = state
        self.terminal = state.is_over
        self.mover = -1 if self.terminal else state.to_move[0]
        self.moves = moves  # candidates not yet expanded, best last (popped first)
        self.children: list[tuple[str, _Node]] = []
        self.visits = 0
        self.total = 0.0  # rewards of the seat that moved into this node


class _Adapter:
    """What the players know about one game. The defaults work for any
    sequential game through the public API alone."""

    rollout_cap = 10_000  # moves before a rollout is cut off and scored by the leaders
    widen_base = 6  # progressive widening: children allowed = base + widen * sqrt(visits)
    widen = 2.0

    # random ------------------------------------------------------------

    def random_move(self, state: State, seat: int, rng: random.Random) -> str:
        return rng.choice(state.legal_moves(seat))

    # greedy ------------------------------------------------------------

    def gain(self, state: State, after: State, seat: int) -> float:
        """The immediate gain of the move that led from `state` to `after`."""
        if after.is_over:
            rewards = _rewards(after)
            if rewards[seat] == 0:
                return -1e9  # an immediate loss
        return _advantage(after.scores, seat) - _advantage(state.scores, seat)

    def ranked(self, state: State, seat: int, rng: random.Random, moves: list[str] | None = None) -> list[tuple[float, str]]:
        """(gain, move) for every move, best first, ties in random order."""
        moves = state.legal_moves(seat) if moves is None else moves
        keyed = [(self.gain(state, state.play(m, seat), seat), rng.random(), m) for m in moves]
        keyed.sort(reverse=True)
        return [(g, m) for g, _, m in keyed]

    def greedy_move(self, state: State, seat: int, rng: random.Random) -> str:
        return self.ranked(state, seat, rng)[0][1]

    # strong ------------------------------------------------------------

    def candidates(self, state: State, seat: int, rng: random.Random) -> list[str]:
        """The moves the search considers at a node, best first by a cheap prior."""
        return [m for _, m in self.ranked(state, seat, rng)]

    def rollout_move(self, state: State, seat: int, rng: random.Random) -> str:
        return rng.choice(state.legal_moves(seat))

    def cutoff(self, state: State) -> tuple[float, ...]:
        return _leader_rewards(state)

    def solved(self, state: State) -> tuple[float, ...] | None:
        """The exact outcome of `state` if the adapter can tell it cheaply, else None."""
        return None

    def strong_move(self, state: State, seat: int, rng: random.Random, deadline: float, iterations: int | None) -> str:
        moves = state.legal_moves(seat)
        if len(moves) == 1:
            return moves[0]
        return _uct(self, state, rng, deadline, iterations)


def _uct(adapter: _Adapter, state: State, rng: random.Random, deadline: float, iterations: int | None) -> str:
    """UCT search from `state`; the most visited move of the root."""
    root = _Node(state, list(reversed(adapter.candidates(state, state.to_move[0], rng))))
    done = 0
    while True:
        if iterations is not None:
            if done >= iterations:
                break
        elif time.perf_counter() >= deadline:
            break
        done += 1
        node = root
        path = [root]
        # Selection and expansion.
        while not node.terminal:
            if node.moves is None:
                node.moves = list(reversed(adapter.candidates(node.state, node.mover, rng)))
            allowed = adapter.widen_base + adapter.widen * sqrt(node.visits)
            if node.moves and len(node.children) < allowed:
                move = node.moves.pop()
                child = _Node(node.state.play(move, node.mover), None)
                node.children.append((move, child))
                path.append(child)
                node = child
                break
            log_n = math.log(node.visits + 1)
            best, best_value = None, -1.0
            for _, child in node.children:
                value = child.total / child.visits + _UCT_C * sqrt(log_n / child.visits) if child.visits else 1e9
                if value > best_value:
                    best, best_value = child, value
            node = best  # type: ignore[assignment]
            path.append(node)
        # Simulation.
        rewards = _simulate(adapter, node.state, rng)
        # Backpropagation: each node holds the rewards of the seat that moved into it.
        for parent, child in zip(path, path[1:]):
            child.visits += 1
            child.total += rewards[parent.mover]
        root.visits += 1
    if not root.children:  # no iteration ran: fall back to the prior's favourite
        return root.moves[-1] if root.moves else state.legal_moves()[0]
    best = max(root.children, key=lambda mc: (mc[1].visits, mc[1].total / max(mc[1].visits, 1)))
    return best[0]


def _simulate(adapter: _Adapter, state: State, rng: random.Random) -> tuple[float, ...]:
    steps = 0
    while True:
        if state.is_over:
            return _rewards(state)
        known = adapter.solved(state)
        if known is not None:
            return known
        if steps >= adapter.rollout_cap:
            return adapter.cutoff(state)
        seat = state.to_move[0]
        state = state.play(adapter.rollout_move(state, seat, rng), seat)
        steps += 1


# -- Multiplications Within the Permutation --------------------------------


class _Multiplications(_Adapter):
    """Numbering is solved exactly once the x's are down (two players: the
    best score difference by negamax over which x comes next, memoised on
    the numbered set and the last square); marking is searched by UCT."""

    def _layout(self, state: State) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...], int]:
        board = state.view()["board"]
        xs = tuple(sorted(_square(name) for name in board["xs"]))
        order = {_square(name): n for name, n in board["numbers"].items()}
        numbered = tuple(sorted(order, key=order.get))  # type: ignore[arg-type]
        return xs, tuple(xs.index(sq) for sq in numbered), board["size"]

    def solved(self, state: State) -> tuple[float, ...] | None:
        if state.players != 2 or state.is_over:
            return None
        board_xs = state.view()["board"]
        if board_xs["phase"] != "number":
            return None
        xs, numbered, _ = self._layout(state)
        if len(xs) > 14:
            return None
        used = 0
        for i in numbered:
            used |= 1 << i
        diff = _number_solve(xs, used, numbered[-1])  # best (mover - other) from here
        mover = state.to_move[0]
        scores = state.scores
        final = scores[mover] - scores[1 - mover] + diff
        r = 1.0 if final > 0 else 0.0 if final < 0 else 0.5
        return (r, 1 - r) if mover == 0 else (1 - r, r)

    def strong_move(self, state: State, seat: int, rng: random.Random, deadline: float, iterations: int | None) -> str:
        board = state.view()["board"]
        if state.players == 2 and board["phase"] == "number" and len(board["xs"]) <= 14:
            xs, numbered, _ = self._layout(state)
            used = 0
            for i in numbered:
                used |= 1 << i
            best, best_move = None, None
            for move in state.legal_moves(seat):
                i = xs.index(_square(move))
                a, b = xs[numbered[-1]], xs[i]
                gain = abs(a[0] - b[0]) * abs(a[1] - b[1])
                value = gain - _number_solve(xs, used | 1 << i, i)
                if best is None or value > best:
                    best, best_move = value, move
            return best_move  # type: ignore[return-value]
        return super().strong_move(state, seat, rng, deadline, iterations)


@lru_cache(maxsize=1 << 18)
def _number_solve(xs: tuple[tuple[int, int], ...], used: int, last: int) -> int:
    """With the x's `xs`, those in `used` numbered and `last` numbered last: the
    best final score difference (mover minus opponent) the mover can force."""
    full = (1 << len(xs)) - 1
    if used == full:
        return 0
    a = xs[last]
    best = None
    for i, b in enumerate(xs):
        if used >> i & 1:
            continue
        value = abs(a[0] - b[0]) * abs(a[1] - b[1]) - _number_solve(xs, used | 1 << i, i)
        if best is None or value > best:
            best = value
    return best  # type: ignore[return-value]


def _square(name: str) -> tuple[int, int]:
    return int(name[1:]) - 1, ord(name[0]) - 97


# -- Enumeration -------------------------------------------------------------


class _Enumeration(_Adapter):
    """Corner and parity games: UCT with random rollouts (a grid of side 6 is
    25 moves); candidates ordered by immediate gain. In a corner game the
    lower-right number is a count of the numbers in the last column (or the
    last row) coprime to n, so ties are broken by how many of those there are:
    the seat that wants the corner high writes such numbers there, the other
    seat does not."""

    def _corner_lean(self, state: State, seat: int) -> float:
        board = state.view()["board"]
        if board["goal"] != "corner" or state.is_over:
            return 0.0
        n = board["size"]
        values = board["values"]
        count = sum(1 for r in range(1, n - 1) if values[r][n - 1] is not None and gcd(values[r][n - 1], n) == 1)
        count += sum(1 for c in range(1, n - 1) if values[n - 1][c] is not None and gcd(values[n - 1][c], n) == 1)
        if board["maximiser"] == seat:
            return count
        if board["minimiser"] == seat:
            return -count
        return 0.0

    def ranked(self, state: State, seat: int, rng: random.Random, moves: list[str] | None = None) -> list[tuple[float, str]]:
        moves = state.legal_moves(seat) if moves is None else moves
        before = self._corner_lean(state, seat)
        keyed = []
        for m in moves:
            after = state.play(m, seat)
            gain = self.gain(state, after, seat)
            if after.view()["board"]["grid"] == state.view()["board"]["grid"]:
                gain += 0.01 * (self._corner_lean(after, seat) - before)
            keyed.append((gain, rng.random(), m))
        keyed.sort(reverse=True)
        return [(g, m) for g, _, m in keyed]


# -- Convoluted Coprimality ----------------------------------------------------


class _Coprimality(_Adapter):
    """Never knocks itself out while a safe square exists; rollouts play safe
    squares too (random play knocks itself out so fast that it says nothing
    about a position) and are cut off after a while, the survivors sharing.
    The prior puts first the squares that leave the next seat only squares
    that knock it out."""

    rollout_cap = 60

    def _safe(self, state: State, seat: int, moves: list[str]) -> list[tuple[str, State]]:
        out = []
        for m in moves:
            after = state.play(m, seat)
            if after.scores[seat] == state.scores[seat]:
                out.append((m, after))
        return out

    def rollout_move(self, state: State, seat: int, rng: random.Random) -> str:
        moves = state.legal_moves(seat)
        rng.shuffle(moves)
        for m in moves:
            if state.play(m, seat).scores[seat] == state.scores[seat]:
                return m
        return moves[0]

    def _trapped(self, state: State) -> bool:
        """True when the seat to move has only squares that knock it out."""
        seat = state.to_move[0]
        return all(state.play(m, seat).scores[seat] < state.scores[seat] for m in state.legal_moves(seat))

    def _turn_value(self, state: State, seat: int, budget: list[int]) -> float:
        """The best outcome of the rest of `seat`'s block from `state` (the seat
        writes every number of its block in a row): 0 knocked out, 1 safe to
        the end of the block, 2 safe and the next seat is trapped, 3 the game
        is won. `budget` bounds the squares looked at."""
        if state.is_over:
            return 3.0 if state.winners == (seat,) else 1.0 if seat in state.winners else 0.0
        if state.scores[seat] == 0:
            return 0.0
        if state.to_move[0] != seat:
            return 2.0 if self._trapped(state) else 1.0
        best = 0.0
        for m in state.legal_moves(seat):
            if budget[0] <= 0:
                return max(best, 1.0)  # out of look-ahead: assume it can be survived
            budget[0] -= 1
            best = max(best, self._turn_value(state.play(m, seat), seat, budget))
            if best >= 3.0:
                break
        return best

    def ranked(self, state: State, seat: int, rng: random.Random, moves: list[str] | None = None) -> list[tuple[float, str]]:
        moves = state.legal_moves(seat) if moves is None else moves
        keyed = []
        for m in moves:
            keyed.append((self._turn_value(state.play(m, seat), seat, [400]), rng.random(), m))
        keyed.sort(reverse=True)
        return [(g, m) for g, _, m in keyed]


    # With two players the outcome of a line is exact (someone is knocked out,
    # or both survive the last grid), so strong searches the moves themselves:
    # iterative-deepening alpha-beta, an unresolved line counting as even.

    def strong_move(self, state: State, seat: int, rng: random.Random, deadline: float, iterations: int | None) -> str:
        moves = state.legal_moves(seat)
        if len(moves) == 1:
            return moves[0]
        if state.players != 2:
            return super().strong_move(state, seat, rng, deadline, iterations)
        order = [m for _, m in self.ranked(state, seat, rng, moves)]
        children = {m: state.play(m, seat) for m in order}
        nodes = [0]
        cap = None if iterations is None else iterations * 50  # a node cap keeps it machine-independent
        best = order[0]
        for depth in range(1, 200):
            values: dict[str, float] = {}
            try:
                alpha = -1.0
                for m in order:
                    v = _cc_search(children[m], seat, depth - 1, alpha, 2.0, nodes, cap, deadline)
                    values[m] = v
                    alpha = max(alpha, v)
            except _OutOfTime:
                break
            top = max(values.values())
            best = next(m for m in order if values[m] == top)
            # Search the best line first next time; keep the prior's order among equals.
            order.sort(key=lambda m: -values[m])
            if top >= 1.0 or all(v <= 0.0 for v in values.values()) or depth > 150:
                break
        return best


class _OutOfTime(Exception):
    pass


def _cc_search(state: State, me: int, depth: int, alpha: float, beta: float, nodes: list[int], cap: int | None, deadline: float) -> float:
    """Alpha-beta value of a two-seat Convoluted Coprimality position for `me`:
    1 won, 0 lost, 0.5 unresolved within `depth` numbers (or both survive)."""
    if state.is_over:
        winners = state.winners
        return 1.0 if winners == (me,) else 0.5 if me in winners else 0.0
    if depth <= 0:
        return 0.5
    nodes[0] += 1
    if cap is not None:
        if nodes[0] > cap:
            raise _OutOfTime
    elif nodes[0] & 63 == 0 and time.perf_counter() >= deadline:
        raise _OutOfTime
    seat = state.to_move[0]
    children = [state.play(m, seat) for m in state.legal_moves(seat)]
    # Moves that keep the mover in first.
    children.sort(key=lambda c: -c.scores[seat])
    if seat == me:
        value = -1.0
        for child in children:
            value = max(value, _cc_search(child, me, depth - 1, alpha, beta, nodes, cap, deadline))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = 2.0
    for child in children:
        value = min(value, _cc_search(child, me, depth - 1, alpha, beta, nodes, cap, deadline))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value


# -- Prime Target ----------------------------------------------------------------


class _PrimeTarget(_Adapter):
    """Ring moves are scored without playing them (sum or difference per
    wedge, then the ring rule); the search sees the best rings by immediate
    score plus a random sample, widened progressively. Centre moves are
    searched with random rollouts."""

    sample = 24  # random rings added to the best ones at a node

    def _rings(self, state: State) -> list[tuple[int, str]] | None:
        """(score, move) for every ring move, best first, or None in the centre phase."""
        rays = state.options["rays"]
        if state.is_over or len(state.history) < rays:
            return None
        return _ring_table(_pt_ring(rays, state.history))

    def greedy_move(self, state: State, seat: int, rng: random.Random) -> str:
        rings = self._rings(state)
        if rings is None:
            return rng.choice(state.legal_moves(seat))
        top = rings[0][0]
        return rng.choice([m for s, m in rings if s == top])

    def candidates(self, state: State, seat: int, rng: random.Random) -> list[str]:
        rings = self._rings(state)
        if rings is None:
            moves = state.legal_moves(seat)
            rng.shuffle(moves)
            return moves
        best = [m for _, m in rings[:24]]
        rest = [m for _, m in rings[24:]]
        return best + rng.sample(rest, min(self.sample, len(rest)))

    def rollout_move(self, state: State, seat: int, rng: random.Random) -> str:
        rays = state.options["rays"]
        if len(state.history) < rays:
            return rng.choice(state.legal_moves(seat))
        inner = _pt_ring(rays, state.history)
        # Mostly the best ring (players take points), sometimes a random one.
        if rng.random() < 0.75:
            return _best_ring(inner)
        return "".join("+" if not inner[w] or not inner[(w + 1) % rays] or rng.random() < 0.5 else "-" for w in range(rays))


@lru_cache(maxsize=1 << 15)
def _pt_ring(rays: int, history: tuple[str, ...]) -> tuple[int, ...]:
    """The outermost ring (or the centre, 0 for an empty wedge) after the moves
    `history`, replayed from their documented notation: cheaper than a view."""
    if not history:
        return (0,) * rays
    inner = _pt_ring(rays, history[:-1])
    move = history[-1]
    if "@" in move:
        value, wedge = move.split("@")
        centre = list(inner)
        centre[int(wedge) - 1] = int(value)
        return tuple(centre)
    n = len(inner)
    return tuple(
        inner[w] + inner[(w + 1) % n] if sign == "+" else abs(inner[w] - inner[(w + 1) % n])
        for w, sign in enumerate(move)
    )


@lru_cache(maxsize=1 << 15)
def _best_ring(inner: tuple[int, ...]) -> str:
    """A ring move of the best immediate score, found wedge by wedge: either
    as many primes as possible, or exactly one prime, as large as possible."""
    from .games.prime_target import is_prime

    n = len(inner)
    options = []  # per wedge: [(sign, value)], '+' first
    for w in range(n):
        a, b = inner[w], inner[(w + 1) % n]
        options.append([("+", a + b)] if not a or not b else [("+", a + b), ("-", abs(a - b))])
    prime_sign = [next((sg for sg, v in opts if is_prime(v)), None) for opts in options]
    plain_sign = [next((sg for sg, v in opts if not is_prime(v)), None) for opts in options]
    count = sum(1 for sg in prime_sign if sg)
    best_score, best = (count if count != 1 else -1), "".join(p or q or "+" for p, q in zip(prime_sign, plain_sign))
    forced = [w for w in range(n) if not plain_sign[w]]  # wedges that hold a prime whatever
    for w, opts in enumerate(options):
        if forced and forced != [w]:
            continue  # a lone prime must sit in the only forced wedge, if any
        for sg, v in opts:
            if is_prime(v) and v > best_score:
                best_score = v
                best = "".join(sg if i == w else plain_sign[i] for i in range(n))  # type: ignore[misc]
    return best


@lru_cache(maxsize=4096)
def _ring_table(inner: tuple[int, ...]) -> list[tuple[int, str]]:
    from .games.prime_target import is_prime

    n = len(inner)
    options = []
    for w in range(n):
        a, b = inner[w], inner[(w + 1) % n]
        if not a or not b:
            options.append((("+", a + b),))
        else:
            options.append((("+", a + b), ("-", abs(a - b))))
    table: list[tuple[int, str]] = []

    def walk(w: int, signs: str, primes: int, single: int) -> None:
        if w == n:
            table.append((single if primes == 1 else primes, signs))
            return
        for sign, v in options[w]:
            if is_prime(v):
                walk(w + 1, signs + sign, primes + 1, v)
            else:
                walk(w + 1, signs + sign, primes, single)

    walk(0, "", 0, 0)
    table.sort(key=lambda sm: (-sm[0], sm[1]))
    return table


# -- Nonconformity ---------------------------------------------------------------


class _NC:
    """What a seat may know of a Nonconformity position, as plain data that a
    rollout can change cheaply: revealed terms, spans, last primes and points."""

    __slots__ = ("terms", "spans", "factors", "last", "points", "left", "top", "stuck")

    def __init__(self, state: State) -> None:
        board = state.view()["board"]
        self.terms = [set(q) for q in board["sequences"]]
        self.spans = [(min(q), max(q)) for q in board["sequences"]]
        self.factors = [tuple(f) for f in board["factors"]]
        self.last = list(board["last"])
        self.points = list(state.scores)
        self.left = board["rounds"] - board["played"]
        self.top = board["max_pick"]
        self.stuck = list(board["sat_out"])

    def copy(self) -> _NC:
        new = object.__new__(_NC)
        new.terms = [set(t) for t in self.terms]
        new.spans = list(self.spans)
        new.factors = list(self.factors)
        new.last = list(self.last)
        new.points = list(self.points)
        new.left = self.left
        new.top = self.top
        new.stuck = list(self.stuck)
        return new

    def legal(self, seat: int, pick: int) -> bool:
        return 2 <= pick <= self.top and pick not in self.terms[seat] and gcd(pick, self.last[seat]) > 1

    def scores_with(self, seat: int, pick: int) -> bool:
        low, high = self.spans[1 - seat]
        return low < pick < high and pick not in self.terms[1 - seat]

    def widening(self, seat: int, pick: int) -> int:
        low, high = self.spans[seat]
        return max(0, low - pick) + max(0, pick - high)

    def candidates(self, seat: int, rng: random.Random, per: int = 6) -> list[int]:
        """A handful of legal picks worth thinking about: multiples of the last
        term's primes inside the opponent's band (they score), inside the own
        span (they widen nothing), and just outside the own span."""
        found: set[int] = set()
        low, high = self.spans[1 - seat]
        mine_low, mine_high = self.spans[seat]
        for p in self.factors[seat]:
            both = (max(low + 1, mine_low), min(high - 1, mine_high))  # scores and widens nothing
            for a, b in ((low + 1, high - 1), (mine_low, mine_high), both):
                a, b = max(a, 2), min(b, self.top)
                first, last = -(-a // p), b // p
                if first > last:
                    continue
                count = last - first + 1
                picks = range(first, last + 1) if count <= per else [first, last] + [rng.randint(first, last) for _ in range(per)]
                found.update(k * p for k in picks)
            # the nearest multiples outside the own span
            below = (mine_low - 1) // p
            above = mine_high // p + 1
            for k in (below, below - 1, above, above + 1):
                found.add(k * p)
        out = [x for x in found if self.legal(seat, x)]
        if not out:
            out = [x for x in (self.sample(seat, rng),) if x]
        return sorted(out)

    def sample(self, seat: int, rng: random.Random) -> int | None:
        """A uniformly random legal pick (rejection sampling), None if none was found."""
        last, top = self.last[seat], self.top
        for _ in range(20_000):
            x = rng.randint(2, top)
            if gcd(x, last) > 1 and x not in self.terms[seat]:
                return x
        return None

    def greedy(self, seat: int, rng: random.Random, picks: list[int] | None = None) -> int | None:
        picks = self.candidates(seat, rng) if picks is None else picks
        if not picks:
            return None
        return max(picks, key=lambda x: (self.scores_with(seat, x), -self.widening(seat, x), rng.random()))

    def reveal(self, picks: list[int | None]) -> None:
        gained = [p is not None and self.scores_with(s, p) for s, p in enumerate(picks)]
        for s, p in enumerate(picks):
            if p is None:
                continue
            self.points[s] += gained[s]
            self.terms[s].add(p)
            low, high = self.spans[s]
            self.spans[s] = (min(low, p), max(high, p))
            self.last[s] = p
            self.factors[s] = _primes(p)
        self.left -= 1


@lru_cache(maxsize=1 << 14)
def _primes(n: int) -> tuple[int, ...]:
    from .numbers import prime_factors

    return prime_factors(n)


class _Nonconformity(_Adapter):
    """Simultaneous secret picks. Greedy scores now and widens its own span as
    little as it can; strong runs flat Monte-Carlo over its candidate picks,
    the opponent's pick of this round drawn from a noisy-greedy model (its
    real pending pick is never seen), both continuing noisy-greedy to the end."""

    def random_move(self, state: State, seat: int, rng: random.Random) -> str:
        pick = _NC(state).sample(seat, rng)
        if pick is None:  # a prime near max_pick: few legal picks; list them
            return rng.choice(state.legal_moves(seat))
        return str(pick)

    def greedy_move(self, state: State, seat: int, rng: random.Random) -> str:
        pick = _NC(state).greedy(seat, rng)
        return str(pick) if pick is not None else rng.choice(state.legal_moves(seat))

    def _policy(self, nc: _NC, seat: int, rng: random.Random) -> int | None:
        if nc.stuck[seat]:
            return None
        # Mostly greedy: a real player takes the points on offer.
        if rng.random() < 0.1:
            picks = nc.candidates(seat, rng, per=3)
            return rng.choice(picks) if picks else None
        return nc.greedy(seat, rng, nc.candidates(seat, rng, per=3))

    def strong_move(self, state: State, seat: int, rng: random.Random, deadline: float, iterations: int | None) -> str:
        root = _NC(state)
        picks = root.candidates(seat, rng, per=10)
        if not picks:
            return self.random_move(state, seat, rng)
        if len(picks) == 1:
            return str(picks[0])
        # Prune to the most promising by the greedy key plus a flexibility bonus.
        def prior(x: int) -> float:
            return root.scores_with(seat, x) - 0.02 * math.log1p(root.widening(seat, x)) + 0.1 * (x % 2 == 0)

        picks = sorted(picks, key=prior, reverse=True)[:16]
        totals = [0.0] * len(picks)
        counts = [0] * len(picks)
        done = 0
        other = 1 - seat
        while True:
            if iterations is not None:
                if done >= iterations:
                    break
            elif time.perf_counter() >= deadline:
                break
            # UCB1 over the candidate picks, each sample a whole rollout.
            if done < len(picks):
                i = done
            else:
                log_n = math.log(done)
                i = max(range(len(picks)), key=lambda k: totals[k] / counts[k] + 0.7 * sqrt(log_n / counts[k]))
            done += 1
            nc = root.copy()
            mine = picks[i]
            theirs = self._policy(nc, other, rng)
            while True:
                both = [None, None]
                both[seat], both[other] = mine, theirs
                nc.reveal(both)
                if nc.left <= 0:
                    break
                mine = self._policy(nc, seat, rng)
                theirs = self._policy(nc, other, rng)
                if mine is None and theirs is None:
                    break
            diff = nc.points[seat] - nc.points[other]
            totals[i] += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
            counts[i] += 1
        if not any(counts):
            return str(picks[0])
        best = max(range(len(picks)), key=lambda k: (counts[k], totals[k]))
        return str(picks[best])


_ADAPTERS: dict[str, Callable[[], _Adapter]] = {
    "multiplications": _Multiplications,
    "enumeration": _Enumeration,
    "convoluted-coprimality": _Coprimality,
    "prime-target": _PrimeTarget,
    "nonconformity": _Nonconformity,
}


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


def solitaire_best(size: int, goal: str = "corner", target: str = "odd") -> dict[str, Any]:
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
    # Numbers written are counts below n; coprime[v][R] for every value and row/column number R.
    coprime = [[gcd(v, R) == 1 for R in range(n + 1)] for v in range(n + 1)]
    headers = sum(1 for v in range(1, n + 1) if v % 2 == want) + sum(1 for v in range(2, n + 1) if v % 2 == want)

    memo: dict[Any, int] = {}

    def solve(r: int, c: int, cols: tuple[tuple[int, ...], ...], row: tuple[int, ...]) -> int:
        # cols[c'] counts, for R = 1..n, the numbers of column c' (rows above r, or up to r
        # for c' < c) coprime to R; row counts, for C = 1..n, the numbers left of (r, c).
        if c == n:
            if r == n - 1:
                return 0
            r, c = r + 1, 1
            row = tuple(int(coprime[r + 1][C]) for C in range(n + 1))  # the row header r + 1
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
                col = tuple(x + coprime[v][R] for R, x in enumerate(cols[c]))
                new_row = tuple(x + coprime[v][C] for C, x in enumerate(row))
                rest = solve(r, c + 1, cols[:c] + (col,) + cols[c + 1 :], new_row)
                value = rest + (int(v % 2 == want) if goal == "parity" else 0)
            best = max(best, value)
        memo[key] = best
        return best

    cols0 = tuple(tuple(int(coprime[c + 1][R]) for R in range(n + 1)) for c in range(n))  # column headers
    row0 = tuple(int(coprime[2][C]) for C in range(n + 1))  # the row header 2 of row 2
    best = solve(1, 1, cols0, row0)
    return best + headers if goal == "parity" else best


def _solitaire_beam(n: int, goal: str, target: str, width: int = 0) -> int:
    """The best score a beam search over the squares in reading order finds."""
    want = 1 if target == "odd" else 0
    width = width or max(8, 6000 // (n * n))  # bounded work at every size
    # A partial grid: its values row by row (None where unfilled) and its parity count.
    start = [[None] * n for _ in range(n)]
    for i in range(n):
        start[0][i] = i + 1
        start[i][0] = i + 1
    beam: list[tuple[float, int, list[list[int | None]]]] = [(0.0, 0, start)]
    for r in range(1, n):
        for c in range(1, n):
            nxt = []
            for _, hits, grid in beam:
                above = sum(1 for i in range(r) if gcd(grid[i][c], r + 1) == 1)  # type: ignore[arg-type]
                left = sum(1 for j in range(c) if gcd(grid[r][j], c + 1) == 1)  # type: ignore[arg-type]
                for v in {above, left}:
                    g = [row[:] for row in grid]
                    g[r][c] = v
                    h = hits + int(v % 2 == want)
                    if goal == "corner":
                        lean = sum(1 for i in range(1, n) for j in (n - 1,) if g[i][j] is not None and gcd(g[i][j], n) == 1)
                        lean += sum(1 for j in range(1, n - 1) if g[n - 1][j] is not None and gcd(g[n - 1][j], n) == 1)
                        score = v if (r, c) == (n - 1, n - 1) else lean + 0.001 * sum(
                            1 for x in g[r] if x is not None and x > 0)
                    else:
                        score = h
                    nxt.append((score, h, g))
            nxt.sort(key=lambda t: t[0], reverse=True)
            # keep distinct grids only
            seen = set()
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
        return best[2][n - 1][n - 1]  # type: ignore[return-value]
    headers = sum(1 for v in range(1, n + 1) if v % 2 == want) + sum(1 for v in range(2, n + 1) if v % 2 == want)
    return best[1] + headers
